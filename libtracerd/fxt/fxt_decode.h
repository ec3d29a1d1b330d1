/* The FXT field decoders the hot loop (fxt_stream.c, fast_records) and the
 * general path (fxt_records.c) share: string and thread references,
 * arguments, events. Always inline, included by those two files only. */
#ifndef TRACERD_FXT_DECODE_H
#define TRACERD_FXT_DECODE_H

#include "fxt_reader.h"

/* The decoders of the fields every record kind shares (string and thread
 * references, arguments) and the event decoder serve the general path and
 * the hot loop alike, chosen by the constant `exact`. With exact false (the
 * hot loop, fast_records) anything out of the ordinary returns BAIL before
 * any callback, with nothing changed that matters, and the record is then
 * decoded again through tracerd__fxt_record() with exact true, which handles every case
 * (the fallback to provider 0, unknown argument types, ...) and reports
 * errors exactly, naming the field. */
#define BAIL ((tracerd_status_t)1) /* exact false only; never returned to callers */

/* A string reference: indexed (the table strs of cap entries, which does not
 * change while a record is decoded), inline (stream at *q, at most `end`,
 * then *q moves past it) or empty. */
static FXT_INLINE tracerd_status_t str_dec(tracerd_fxt_reader_t *r, const uint8_t *const *strs,
                                           uint32_t cap, uint32_t ref, const uint8_t **q,
                                           const uint8_t *end, tracerd_str_t *out,
                                           const char *field, const bool exact)
{
    const uint8_t *s = ref < cap ? strs[ref] : NULL;
    if (TRACERD__LIKELY(s != NULL)) { /* arena entry: [u16 index][u16 length LE][bytes] */
        out->data = (const char *)s + TRACERD__FXT_STR_HDR;
        out->len = (size_t)s[2] | (size_t)s[3] << 8;
        return TRACERD_OK;
    }
    if (ref & 0x8000u) {
        size_t len = ref & 0x7fffu;
        if (TRACERD__UNLIKELY(pad8(len) > (size_t)(end - *q)))
            return exact ? tracerd__fxt_fail_inline(r, field, len) : BAIL;
        out->data = (const char *)*q;
        out->len = len;
        *q += pad8(len);
        return TRACERD_OK;
    }
    out->data = "";
    out->len = 0;
    if (ref == 0)
        return TRACERD_OK;
    return exact ? tracerd__fxt_str_miss(r, ref, out, field) : BAIL;
}

/* Reads a string reference at the cursor (general path). */
static FXT_INLINE tracerd_status_t str_ref(tracerd_fxt_reader_t *r, cur_t *c, uint32_t ref,
                                           tracerd_str_t *out, const char *field)
{
    const uint8_t *q = c->p + c->at;
    tracerd_status_t st =
        str_dec(r, r->cur->strs, r->cur->strs_cap, ref, &q, c->p + c->n, out, field, true);
    c->at = (size_t)(q - c->p);
    return st;
}

/* A thread reference: indexed (pv's table) or inline (two koid words at *q,
 * at most `end`, then *q moves past them). */
static FXT_INLINE tracerd_status_t thread_dec(tracerd_fxt_reader_t *r,
                                              const struct tracerd__fxt_provider *pv, uint32_t ref,
                                              const uint8_t **q, const uint8_t *end, bool big,
                                              tracerd_fxt_thread_t *t, const char *field,
                                              const bool exact)
{
    t->ref = (uint8_t)ref;
    if (TRACERD__LIKELY(ref != 0)) {
        const struct tracerd__fxt_thr *e = &pv->threads[ref];
        if (TRACERD__UNLIKELY(!e->set))
            return exact ? tracerd__fxt_thread_miss(r, ref, t, field) : BAIL;
        t->pid = e->pid;
        t->tid = e->tid;
        return TRACERD_OK;
    }
    if (TRACERD__UNLIKELY((size_t)(end - *q) < 16))
        return exact ? tracerd__fxt_fail_koids(r, field) : BAIL;
    t->pid = ldw(big, *q);
    t->tid = ldw(big, *q + 8);
    *q += 16;
    return TRACERD_OK;
}

/* Reads a thread reference at the cursor (general path). */
static FXT_INLINE tracerd_status_t thread_ref(tracerd_fxt_reader_t *r, cur_t *c, uint32_t ref,
                                              tracerd_fxt_thread_t *t, const char *field)
{
    const uint8_t *q = c->p + c->at;
    tracerd_status_t st = thread_dec(r, r->cur, ref, &q, c->p + c->n, c->big, t, field, true);
    c->at = (size_t)(q - c->p);
    return st;
}

struct arg_class {
    uint64_t need; /* value bytes needed after the name; UINT64_MAX: not a scalar */
    uint64_t word; /* all ones when the value is the word after the name */
    uint64_t sign; /* 0x80000000 for int32 (sign extension), else 0 */
    uint64_t keep; /* value bits kept from the header's bits 32..63 */
};
#define ARG_INLINE(keep, sign)                                                                     \
    {                                                                                              \
        0, 0, (sign), (keep)                                                                       \
    }
#define ARG_WORD                                                                                   \
    {                                                                                              \
        8, UINT64_MAX, 0, 0                                                                        \
    }
#define ARG_OTHER                                                                                  \
    {                                                                                              \
        UINT64_MAX, 0, 0, 0                                                                        \
    }
static const struct arg_class ARG_CLASS[16] = {ARG_INLINE(0, 0),                   /* null */
                                               ARG_INLINE(UINT64_MAX, 0x80000000), /* int32 */
                                               ARG_INLINE(0xffffffffu, 0),         /* uint32 */
                                               ARG_WORD,                           /* int64 */
                                               ARG_WORD,                           /* uint64 */
                                               ARG_WORD,                           /* double */
                                               ARG_OTHER,                          /* string */
                                               ARG_WORD,                           /* pointer */
                                               ARG_WORD,                           /* koid */
                                               ARG_INLINE(1, 0), /* bool: bit 32 */
                                               ARG_OTHER,        /* blob */
                                               ARG_OTHER,
                                               ARG_OTHER,
                                               ARG_OTHER,
                                               ARG_OTHER,
                                               ARG_OTHER};

/* Decodes nargs arguments from *pq (at most `end`; p: the record's start,
 * for their positions) into r->args: sizes checked, names and string values
 * resolved (strs/cap: the provider's string table), values by type; *pq
 * moves past them. exact: unknown types are kept raw and marked in
 * r->unknown_args, errors name the argument. keep false (exact false only:
 * the hot loop with the no_args option): the same checks, the same BAIL,
 * but nothing kept (each argument is decoded into a local the compiler
 * drops). */

static FXT_INLINE tracerd_status_t args_dec(tracerd_fxt_reader_t *r, const uint8_t *const *strs,
                                            uint32_t cap, const uint8_t *p, const uint8_t **pq,
                                            const uint8_t *end, uint32_t nargs, bool big,
                                            const bool exact, const bool keep)
{
    const uint8_t *q = *pq;
    uint32_t unknown = 0;
    tracerd_status_t st;
    for (uint32_t i = 0; i < nargs; i++) {
        tracerd_fxt_arg_t local, *const g = keep ? &r->args[i] : &local;
        if (exact)
            r->arg_i = (int)i;
        size_t rem = (size_t)(end - q); /* q never passes end: sizes are whole words */
        /* Not exact (events only), rem is whole words too: 0 means < 8. */
        if (TRACERD__UNLIKELY(exact ? rem < 8 : rem == 0))
            return exact ? tracerd__fxt_fail_arg_header(r, q, rem, big, nargs) : BAIL;
        uint64_t a = ldw(big, q);
        size_t size = (size_t)((a >> 4) & 0xfffu) * 8u;
        /* 0 < size <= rem, in one test (size 0 wraps; size is whole words). */
        if (TRACERD__UNLIKELY(size - 1 >= rem))
            return exact ? tracerd__fxt_fail_arg_header(r, q, rem, big, nargs) : BAIL;
        const uint8_t *v = q + 8, *const aend = q + size;
        uint32_t atype = (uint32_t)(a & 0xfu);
        g->type = atype;
        g->pos = (uint32_t)(q - p); /* records decoded whole are at most 64 MiB */
        st =
            str_dec(r, strs, cap, (uint32_t)(a >> 16) & 0xffffu, &v, aend, &g->name, "name", exact);
        if (TRACERD__UNLIKELY(st != TRACERD_OK))
            return st;
        /* Scalars (the common case) without a branch on the type:
         * argument types come in any order, and a mispredicted jump per
         * argument costs more than the work below. The per-type constants
         * select with masks, so that the compiler cannot turn the
         * selection back into branches. Strings, blobs, unknown types and
         * missing value words take the one branch. */
        const struct arg_class *k = &ARG_CLASS[atype];
        if (TRACERD__UNLIKELY((uint64_t)(aend - v) < k->need)) {
            if (atype == TRACERD_FXT_ARG_STRING) {
                st = str_dec(r, strs, cap, (uint32_t)(a >> 32) & 0xffffu, &v, aend, &g->v.str,
                             "value", exact);
                if (TRACERD__UNLIKELY(st != TRACERD_OK))
                    return st;
            } else if (atype == TRACERD_FXT_ARG_BLOB && (a >> 32) <= (uint64_t)(aend - v)) {
                g->v.blob.data = v;
                g->v.blob.len = (size_t)(a >> 32);
            } else if (!exact) {
                return BAIL;
            } else if (atype == TRACERD_FXT_ARG_BLOB) {
                return tracerd__fxt_fail_arg_blob(r, (uint32_t)(a >> 32));
            } else if (k->need == 8) {
                return tracerd__fxt_fail_arg_word(r, atype);
            } else { /* unknown type: its words, raw */
                g->v.blob.data = q + 8;
                g->v.blob.len = size - 8;
                unknown |= 1u << i;
            }
        } else {
            /* The word after the name (the header itself, then unused,
             * when the type has none), or bits 32..63 sign-extended for
             * int32 and masked by type. */
            uint64_t w = ldw(big, q + ((size_t)(v - q) & (size_t)k->word));
            uint64_t x = ((a >> 32) ^ k->sign) - k->sign;
            g->v.u64 = (w & k->word) | (x & k->keep);
        }
        q = aend;
    }
    *pq = q;
    if (exact) {
        r->arg_i = -1;
        r->unknown_args = (uint16_t)unknown;
    }
    return TRACERD_OK;
}

/* Decodes nargs arguments at the cursor (general path). */
static FXT_INLINE tracerd_status_t read_args(tracerd_fxt_reader_t *r, cur_t *c, uint32_t nargs)
{
    const uint8_t *q = c->p + c->at;
    tracerd_status_t st = args_dec(r, r->cur->strs, r->cur->strs_cap, c->p, &q, c->p + c->n, nargs,
                                   c->big, true, true);
    c->at = (size_t)(q - c->p);
    return st;
}

/* read_args, without the call for records that have no arguments. */
static FXT_INLINE tracerd_status_t args_of(tracerd_fxt_reader_t *r, cur_t *c, uint32_t nargs)
{
    if (nargs == 0) {
        r->unknown_args = 0;
        return TRACERD_OK;
    }
    return read_args(r, c, nargs);
}

/* Arguments of an unknown type were seen in the record: reported (a warning,
 * or the error in strict mode) before the record is delivered. */
static FXT_INLINE tracerd_status_t args_checked(tracerd_fxt_reader_t *r, uint32_t nargs)
{
    return TRACERD__UNLIKELY(r->unknown_args != 0) ? tracerd__fxt_report_unknown_args(r, nargs)
                                                   : TRACERD_OK;
}

static const char *const event_what[16] = {"instant event record",
                                           "counter event record",
                                           "duration begin event record",
                                           "duration end event record",
                                           "duration complete event record",
                                           "async begin event record",
                                           "async instant event record",
                                           "async end event record",
                                           "flow begin event record",
                                           "flow step event record",
                                           "flow end event record",
                                           "event record",
                                           "event record",
                                           "event record",
                                           "event record",
                                           "event record"};

/* The word after an event's arguments, by event type (for errors). */
static const char *const event_word_name[16] = {"",
                                                "counter id",
                                                "",
                                                "",
                                                "end time",
                                                "async correlation id",
                                                "async correlation id",
                                                "async correlation id",
                                                "flow correlation id",
                                                "flow correlation id",
                                                "flow correlation id"};

/* Event types followed by one more word (counter, duration complete, async
 * and flow ids): bit per type. */
#define EVENT_TYPES_WITH_WORD 0x7f2u

/* What event_dec did. */
enum { FAST_DONE = 0, FAST_BAIL = 1, FAST_STOP = 2 };

/* ticks in ns at tps ticks per second (0: none given, 1 tick = 1 ns). */
static FXT_INLINE uint64_t tps_ns(uint64_t tps, uint64_t ticks)
{
    return tps == 0 || tps == 1000000000u ? ticks : tracerd_ticks_to_ns(ticks, tps);
}

/* Asks on_event_head about event e (its head decoded: args NULL, id and
 * end 0): FAST_BAIL (reused: go on) to decode and deliver it, FAST_DONE
 * when it is left out, FAST_STOP with *st when the callback aborted. */
static FXT_INLINE int ask_head(tracerd_fxt_reader_t *r, tracerd_fxt_event_t *e,
                               tracerd_status_t *st)
{
    r->core.in_cb = true;
    int rv = r->cbs.on_event_head(r->core.user, e);
    r->core.in_cb = false;
    if (TRACERD__LIKELY(rv == TRACERD_CB_CONTINUE))
        return FAST_BAIL;
    if (rv > 0)
        return FAST_DONE;
    *st = tracerd__fxt_after_cb(r, rv, "on_event_head");
    return FAST_STOP;
}

/* Decodes an event record (n bytes at p, header h, absolute offset off) in
 * one pass with its fields in registers and calls on_event. Events are the
 * bulk of every trace. exact false (fast_records): anything out of the
 * ordinary (no provider yet, an event type not defined yet, an unknown
 * argument type, an unregistered thread or string index, a field that does
 * not fit) returns FAST_BAIL before any callback, with nothing changed that
 * matters, and the record is then decoded by tracerd__fxt_record() (dec_event: exact
 * true), which handles every case (types 11..15 are delivered with their
 * raw code: the common part is the same for every event type, fxt.md) and
 * reports errors exactly. Returns FAST_DONE when the record was delivered
 * (or no callback is set) and the callback asked to go on, FAST_STOP with
 * *st when it paused or failed, or (exact) the record is malformed. */
static FXT_INLINE int event_dec(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n, uint64_t h,
                                uint64_t off, bool big, const bool exact, tracerd_status_t *st)
{
#define EVENT_TAKE(expr)                                                                           \
    do {                                                                                           \
        tracerd_status_t s_ = (expr);                                                              \
        if (TRACERD__UNLIKELY(s_ != TRACERD_OK)) {                                                 \
            if (!exact)                                                                            \
                return FAST_BAIL;                                                                  \
            *st = s_;                                                                              \
            return FAST_STOP;                                                                      \
        }                                                                                          \
    } while (0)
    uint32_t type = (uint32_t)(h >> 16) & 0xfu;
    if (exact) {
        r->what = event_what[type];
        EVENT_TAKE(ensure_provider(r));
        if (n < 16)
            EVENT_TAKE(tracerd__fxt_fail_word(r, "timestamp"));
    } else if (TRACERD__UNLIKELY(r->cur == NULL || type > TRACERD_FXT_EVENT_FLOW_END || n < 16)) {
        return FAST_BAIL;
    }
    const struct tracerd__fxt_provider *pv = r->cur;
    const uint8_t *q = p + 16, *const end = p + n;
    const uint8_t *const *const strs = pv->strs; /* the tables do not change here */
    const uint32_t cap = pv->strs_cap;
    tracerd_fxt_event_t e;
    e.ticks = ldw(big, p + 8);
    EVENT_TAKE(
        thread_dec(r, pv, (uint32_t)(h >> 24) & 0xffu, &q, end, big, &e.thread, "event", exact));
    EVENT_TAKE(str_dec(r, strs, cap, (uint32_t)(h >> 32) & 0xffffu, &q, end, &e.category,
                       "category", exact));
    EVENT_TAKE(str_dec(r, strs, cap, (uint32_t)(h >> 48), &q, end, &e.name, "name", exact));
    uint32_t nargs = (uint32_t)(h >> 20) & 0xfu;
    e.category_ref = (uint16_t)(h >> 32);
    e.name_ref = (uint16_t)(h >> 48);
    if (r->cbs.on_event_head != NULL && r->head_kept != off) { /* left out before the arguments? */
        e.offset = off;
        e.provider_id = pv->id;
        e.type = (tracerd_fxt_event_type_t)type;
        e.nargs = nargs;
        e.args = NULL;
        e.id = e.end_ticks = e.end_ns = 0;
        e.ns = tps_ns(pv->ticks_per_second, e.ticks);
        int k = ask_head(r, &e, st);
        if (k != FAST_BAIL)
            return k;
        if (!exact)
            r->head_kept =
                off; /* if the rest bails out, tracerd__fxt_record() does not ask again */
    }
    if (!exact && r->cfg.no_args) /* checked, not kept: the record is delivered without them */
        EVENT_TAKE(args_dec(r, strs, cap, p, &q, end, nargs, big, false, false));
    else
        EVENT_TAKE(args_dec(r, strs, cap, p, &q, end, nargs, big, exact, true));
    /* The word after the arguments, without a branch on the event type
     * (read from the header, then unused, when the type has none). */
    uint64_t has = 0 - (uint64_t)((EVENT_TYPES_WITH_WORD >> type) & 1u);
    if (TRACERD__UNLIKELY(has & (q == end)))
        EVENT_TAKE(exact ? tracerd__fxt_fail_word(r, event_word_name[type]) : BAIL);
    uint64_t w = ldw(big, p + ((size_t)(q - p) & (size_t)has)) & has;
    uint64_t complete = 0 - (uint64_t)(type == TRACERD_FXT_EVENT_DURATION_COMPLETE);
    e.id = w & ~complete;
    e.end_ticks = w & complete;
    if (exact)
        EVENT_TAKE(args_checked(r, nargs));
    if (r->cbs.on_event == NULL)
        return FAST_DONE;
    e.offset = off;
    e.provider_id = pv->id;
    e.type = (tracerd_fxt_event_type_t)type;
    e.nargs = nargs;
    e.args = args_out(r);
    uint64_t tps = pv->ticks_per_second; /* 0 until an initialization record */
    e.ns = tps_ns(tps, e.ticks);
    e.end_ns = tps_ns(tps, e.end_ticks); /* 0 unless DURATION_COMPLETE */
    r->next_off = off + n;
    if (TRACERD__UNLIKELY(r->core.warn.pending) && (*st = tracerd__fxt_warn_flush(r)) != TRACERD_OK)
        return FAST_STOP;
    r->core.in_cb = true;
    int rv = r->cbs.on_event(r->core.user, &e);
    r->core.in_cb = false;
    if (TRACERD__LIKELY(rv == TRACERD_CB_CONTINUE))
        return FAST_DONE;
    *st = tracerd__fxt_after_cb(r, rv, "on_event");
    return FAST_STOP;
#undef EVENT_TAKE
}

#endif
