/* Streaming reader for the Fuchsia trace format (FXT).
 *
 * Records are 8-byte words. A normal record is at most 4095 words (32760
 * bytes), so the stitch buffer (at least 32 KiB) holds any of them: records
 * lying inside the caller's chunk are decoded in place, the others are
 * gathered first. Large records (32-bit size) up to the stitch bound are
 * handled the same way; larger ones have their head (everything up to the
 * blob size word) gathered and their payload delivered as spans. */
#include <stdio.h>

#include "../core/reader.h"
#include "../core/sized.h"
#include "fxt_internal.h"

enum { S_RECORD = 0, S_LARGE_HEAD = 1, S_LARGE_PAYLOAD = 2, S_SKIP = 3 };

/* The magic record (fxt.h) in each byte order. */
static inline bool magic_le(const uint8_t *p)
{
    return tracerd__le64(p) == TRACERD_FXT_MAGIC_RECORD;
}

static inline bool magic_be(const uint8_t *p)
{
    return tracerd__be64(p) == TRACERD_FXT_MAGIC_RECORD;
}

int tracerd_fxt_detect(const void *head, size_t len)
{
    const uint8_t *h = head;
    return h != NULL && len >= 8 && (magic_le(h) || magic_be(h)) ? 100 : 0;
}

#define MAX_STITCH ((size_t)64 << 20)

struct tracerd_fxt_reader {
    tracerd_fxt_config_t cfg;
    tracerd_fxt_callbacks_t cbs;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */
    tracerd_allocator_t alloc;
    struct tracerd__stitch st;
    struct tracerd__fxt_tables tables;
    struct tracerd__fxt_provider *cur; /* current provider; NULL before the first one */

    int state;
    bool big;
    bool order_known;
    bool fatal; /* the current error may not be skipped in lenient mode */

    const uint8_t *chunk; /* the chunk being fed */
    uint64_t chunk_off;   /* absolute offset of chunk[0] */
    uint64_t next_off;    /* absolute offset of the next byte expected (for callbacks) */

    /* The record being decoded. */
    uint64_t rec_off;
    const uint8_t *rec_p; /* its first byte (chunk or stitch buffer) */
    const char *what;     /* "event record", ... for error reasons */
    int arg_i;            /* argument being decoded, -1 outside arguments */

    /* Large record streaming. */
    uint64_t rec_size; /* bytes of the record */
    size_t head_need;  /* bytes of the head known to be needed so far */
    uint64_t pay_total;
    uint64_t pay_done;
    uint64_t skip_left; /* bytes to skip after the payload (padding, extensions) */

    tracerd_fxt_arg_t args[TRACERD_FXT_MAX_ARGS];
    uint16_t unknown_args; /* bit i: argument i has an unknown type */
    /* Offset of the record on_event_head kept in fast_records, which then
     * bailed out: record() does not ask again (UINT64_MAX: none). */
    uint64_t head_kept;
    char warn_reason[TRACERD__REASON_MAX];
};

/* ---- errors and callbacks --------------------------------------------- */

static tracerd_status_t fail(tracerd_fxt_reader_t *r, tracerd_status_t st, const char *fmt, ...)
    TRACERD__PRINTF(3, 4);

static tracerd_status_t fail(tracerd_fxt_reader_t *r, tracerd_status_t st, const char *fmt, ...)
{
    char msg[TRACERD__REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->arg_i >= 0)
        return tracerd__error_set(&r->core.err, st, r->rec_off, "%s: argument %d: %s", r->what,
                                  r->arg_i + 1, msg);
    return tracerd__error_set(&r->core.err, st, r->rec_off, "%s: %s", r->what, msg);
}

/* A resource limit or allocation failure: never skipped in lenient mode. */
static tracerd_status_t fail_fatal(tracerd_fxt_reader_t *r, tracerd_status_t st, const char *what)
{
    r->fatal = true;
    if (st == TRACERD_E_NOMEM)
        return fail(r, st, "out of memory for %s", what);
    return fail(r, st, "%s", what);
}

/* A callback returned rv: the reader core's one interpretation. A pause is
 * taken at the end of the record (core.paused stops the loops); an abort is
 * never skipped in lenient mode. */
static tracerd_status_t after_cb(tracerd_fxt_reader_t *r, int rv, const char *name)
{
    r->core.in_cb = false;
    if (TRACERD__LIKELY(tracerd__cb_result(&r->core, rv, name, r->rec_off) >= 0))
        return TRACERD_OK;
    r->fatal = true;
    return r->core.err.status;
}

/* The warnings held back (a run of skips, reader.h tracerd__warn): delivered
 * before any other callback. */
static TRACERD__COLD tracerd_status_t warn_flush(tracerd_fxt_reader_t *r)
{
    r->core.in_cb = true;
    return after_cb(r, tracerd__warn_flush(&r->core, r->cbs.on_warning), "on_warning");
}

#define CALL(r, cb, arg)                                                                           \
    ((r)->cbs.cb == NULL ? TRACERD_OK                                                              \
     : TRACERD__UNLIKELY((r)->core.warn.pending) && warn_flush(r) != TRACERD_OK                    \
         ? (r)->core.err.status                                                                    \
         : ((r)->core.in_cb = true, after_cb((r), (r)->cbs.cb((r)->core.user, (arg)), #cb)))

/* A warning: held, or joined to the held run, or delivered (tracerd__warn). */
static tracerd_status_t warning(tracerd_fxt_reader_t *r, tracerd_status_t st, uint64_t offset,
                                uint64_t skipped)
{
    tracerd_warning_t w = tracerd__warning(st, offset, skipped, r->warn_reason);
    r->core.in_cb = true;
    return after_cb(r, tracerd__warn(&r->core, r->cbs.on_warning, &w), "on_warning");
}

/* ---- decoding primitives ---------------------------------------------- */

typedef struct cur {
    const uint8_t *p; /* start of the record (or argument) */
    size_t n;         /* its bytes */
    size_t at;        /* next byte to read */
    bool big;         /* byte order (a copy, so it lives in a register) */
} cur_t;

#if defined(__GNUC__)
#define FXT_COLD __attribute__((cold, noinline))
#define FXT_INLINE __attribute__((always_inline)) inline
#else
#define FXT_COLD
#define FXT_INLINE inline
#endif

static FXT_COLD tracerd_status_t fail_word(tracerd_fxt_reader_t *r, const char *field)
{
    return fail(r, TRACERD_E_EXTENT, "%s word runs past the end of the %s", field,
                r->arg_i >= 0 ? "argument" : "record");
}

static FXT_COLD tracerd_status_t fail_inline(tracerd_fxt_reader_t *r, const char *field, size_t len)
{
    return fail(r, TRACERD_E_EXTENT, "inline %s string (%zu bytes) runs past the end of the %s",
                field, len, r->arg_i >= 0 ? "argument" : "record");
}

static FXT_COLD tracerd_status_t fail_koids(tracerd_fxt_reader_t *r, const char *field)
{
    return fail(r, TRACERD_E_EXTENT, "inline %s koids run past the end of the record", field);
}

/* tracerd__ld64 (bytes.h), forced inline: in the decoders specialised per
 * byte order `big` is a constant and the load compiles to one instruction
 * (plus a byte swap); gcc does not always inline the bytes.h helpers into
 * the large decoding function by itself. Same byte assembly, so correct for
 * any alignment and host byte order. */
static FXT_INLINE uint64_t ldw(bool big, const uint8_t *b)
{
    if (big)
        return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40 |
               (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
               (uint64_t)b[6] << 8 | (uint64_t)b[7];
    return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24 |
           (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 |
           (uint64_t)b[7] << 56;
}

static inline uint64_t ld64(const tracerd_fxt_reader_t *r, const uint8_t *p)
{
    return ldw(r->big, p);
}

static FXT_INLINE size_t pad8(size_t n)
{
    return (n + 7u) & ~(size_t)7u;
}

static inline uint64_t to_ns(const tracerd_fxt_reader_t *r, uint64_t ticks)
{
    if (r->cur == NULL || !r->cur->has_init || r->cur->ticks_per_second == 1000000000u)
        return ticks;
    return tracerd_ticks_to_ns(ticks, r->cur->ticks_per_second);
}

static FXT_INLINE tracerd_status_t word(tracerd_fxt_reader_t *r, cur_t *c, uint64_t *v,
                                        const char *field)
{
    if (TRACERD__UNLIKELY(c->n - c->at < 8))
        return fail_word(r, field);
    *v = ldw(c->big, c->p + c->at);
    c->at += 8;
    return TRACERD_OK;
}

static FXT_COLD tracerd_status_t add_implicit_provider(tracerd_fxt_reader_t *r)
{
    tracerd_status_t st = tracerd__fxt_add(&r->tables, 0, &r->cur);
    if (st != TRACERD_OK)
        return fail_fatal(r, st, "the implicit provider 0");
    return TRACERD_OK;
}

static FXT_INLINE tracerd_status_t ensure_provider(tracerd_fxt_reader_t *r)
{
    if (TRACERD__LIKELY(r->cur != NULL))
        return TRACERD_OK;
    return add_implicit_provider(r);
}

static const struct tracerd__fxt_provider *fallback(const tracerd_fxt_reader_t *r)
{
    if (!r->cfg.fallback_to_provider0 || r->cur->id == 0)
        return NULL;
    return tracerd__fxt_find(&r->tables, 0);
}

/* The decoders of the fields every record kind shares (string and thread
 * references, arguments) and the event decoder serve the general path and
 * the hot loop alike, chosen by the constant `exact`. With exact false (the
 * hot loop, fast_records) anything out of the ordinary returns BAIL before
 * any callback, with nothing changed that matters, and the record is then
 * decoded again through record() with exact true, which handles every case
 * (the fallback to provider 0, unknown argument types, ...) and reports
 * errors exactly, naming the field. */
#define BAIL ((tracerd_status_t)1) /* exact false only; never returned to callers */

static tracerd_status_t str_ref_miss(tracerd_fxt_reader_t *r, uint32_t ref, tracerd_str_t *out,
                                     const char *field);

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
            return exact ? fail_inline(r, field, len) : BAIL;
        out->data = (const char *)*q;
        out->len = len;
        *q += pad8(len);
        return TRACERD_OK;
    }
    out->data = "";
    out->len = 0;
    if (ref == 0)
        return TRACERD_OK;
    return exact ? str_ref_miss(r, ref, out, field) : BAIL;
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

static FXT_COLD tracerd_status_t str_ref_miss(tracerd_fxt_reader_t *r, uint32_t ref,
                                              tracerd_str_t *out, const char *field)
{
    const struct tracerd__fxt_provider *p0 = fallback(r);
    if (p0 != NULL && tracerd__fxt_str_get(p0, ref, out))
        return TRACERD_OK;
    return fail(r, TRACERD_E_REFERENCE, "%s string index %u is not registered in provider %u",
                field, (unsigned)ref, (unsigned)r->cur->id);
}

static FXT_COLD tracerd_status_t thread_miss(tracerd_fxt_reader_t *r, uint32_t ref,
                                             tracerd_fxt_thread_t *t, const char *field)
{
    const struct tracerd__fxt_provider *p0 = fallback(r);
    if (p0 == NULL || !p0->threads[ref].set)
        return fail(r, TRACERD_E_REFERENCE, "%s thread index %u is not registered in provider %u",
                    field, (unsigned)ref, (unsigned)r->cur->id);
    t->pid = p0->threads[ref].pid;
    t->tid = p0->threads[ref].tid;
    return TRACERD_OK;
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
            return exact ? thread_miss(r, ref, t, field) : BAIL;
        t->pid = e->pid;
        t->tid = e->tid;
        return TRACERD_OK;
    }
    if (TRACERD__UNLIKELY((size_t)(end - *q) < 16))
        return exact ? fail_koids(r, field) : BAIL;
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

static const char *const ARG_WORD_NAME[16] = {
    "", "", "", "int64 value", "uint64 value", "double value", "", "pointer value", "koid value"};

/* Argument header at q (rem bytes left in the record) that does not fit. */
static FXT_COLD tracerd_status_t fail_arg_header(tracerd_fxt_reader_t *r, const uint8_t *q,
                                                 size_t rem, bool big, uint32_t nargs)
{
    if (rem < 8)
        return fail(r, TRACERD_E_EXTENT,
                    "header word runs past the end of the record (%u arguments declared)",
                    (unsigned)nargs);
    size_t size = (size_t)((ldw(big, q) >> 4) & 0xfffu) * 8u;
    if (size == 0)
        return fail(r, TRACERD_E_BAD_RECORD, "size is 0");
    return fail(r, TRACERD_E_EXTENT, "size (%zu words) runs past the end of the record", size / 8);
}

static FXT_COLD tracerd_status_t fail_arg_word(tracerd_fxt_reader_t *r, uint32_t type)
{
    return fail_word(r, ARG_WORD_NAME[type]);
}

static FXT_COLD tracerd_status_t fail_arg_blob(tracerd_fxt_reader_t *r, uint32_t bsize)
{
    return fail(r, TRACERD_E_EXTENT, "blob payload (%u bytes) runs past the end of the argument",
                (unsigned)bsize);
}

/* Per argument type, for the branch-free scalar decoder. */
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
 * r->unknown_args, errors name the argument. */
static FXT_INLINE tracerd_status_t args_dec(tracerd_fxt_reader_t *r, const uint8_t *const *strs,
                                            uint32_t cap, const uint8_t *p, const uint8_t **pq,
                                            const uint8_t *end, uint32_t nargs, bool big,
                                            const bool exact)
{
    const uint8_t *q = *pq;
    uint32_t unknown = 0;
    tracerd_status_t st;
    tracerd_fxt_arg_t *g = r->args, *const gend = g + nargs;
    for (; g != gend; g++) {
        if (exact)
            r->arg_i = (int)(g - r->args);
        size_t rem = (size_t)(end - q); /* q never passes end: sizes are whole words */
        /* Not exact (events only), rem is whole words too: 0 means < 8. */
        if (TRACERD__UNLIKELY(exact ? rem < 8 : rem == 0))
            return exact ? fail_arg_header(r, q, rem, big, nargs) : BAIL;
        uint64_t a = ldw(big, q);
        size_t size = (size_t)((a >> 4) & 0xfffu) * 8u;
        /* 0 < size <= rem, in one test (size 0 wraps; size is whole words). */
        if (TRACERD__UNLIKELY(size - 1 >= rem))
            return exact ? fail_arg_header(r, q, rem, big, nargs) : BAIL;
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
                return fail_arg_blob(r, (uint32_t)(a >> 32));
            } else if (k->need == 8) {
                return fail_arg_word(r, atype);
            } else { /* unknown type: its words, raw */
                g->v.blob.data = q + 8;
                g->v.blob.len = size - 8;
                unknown |= 1u << (g - r->args);
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
    tracerd_status_t st =
        args_dec(r, r->cur->strs, r->cur->strs_cap, c->p, &q, c->p + c->n, nargs, c->big, true);
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

/* Reports unknown argument types of the record just validated. */
static tracerd_status_t report_unknown_args(tracerd_fxt_reader_t *r, uint32_t nargs)
{
    for (uint32_t i = 0; i < nargs && r->unknown_args != 0; i++) {
        if (!(r->unknown_args & (1u << i)))
            continue;
        const tracerd_fxt_arg_t *g = &r->args[i];
        tracerd_fxt_unknown_t u;
        u.offset = r->rec_off + g->pos;
        u.kind = TRACERD_FXT_UNKNOWN_ARGUMENT;
        u.type = g->type;
        u.raw.data = r->rec_p + g->pos;
        u.raw.len = g->v.blob.len + 8;
        u.header = ld64(r, u.raw.data);
        u.size = u.raw.len;
        tracerd_status_t st = CALL(r, on_unknown, &u);
        if (st != TRACERD_OK)
            return st;
    }
    return TRACERD_OK;
}

static tracerd_status_t report_unknown(tracerd_fxt_reader_t *r, tracerd_fxt_unknown_kind_t kind,
                                       uint32_t type, uint64_t h, const uint8_t *p, uint64_t n)
{
    tracerd_fxt_unknown_t u;
    u.offset = r->rec_off;
    u.kind = kind;
    u.type = type;
    u.header = h;
    u.size = n;
    u.raw.data = p;
    u.raw.len = p != NULL ? (size_t)n : 0;
    return CALL(r, on_unknown, &u);
}

/* ---- records ---------------------------------------------------------- */

static tracerd_status_t switch_provider(tracerd_fxt_reader_t *r, uint32_t id, bool fresh)
{
    struct tracerd__fxt_provider *p = tracerd__fxt_find(&r->tables, id);
    if (p == NULL) {
        tracerd_status_t st = tracerd__fxt_add(&r->tables, id, &p);
        if (st == TRACERD_E_LIMIT) {
            r->fatal = true;
            return fail(r, st, "provider id %u would be provider %u: more than max_providers (%u)",
                        (unsigned)id, (unsigned)r->tables.count + 1, (unsigned)r->tables.max);
        }
        if (st != TRACERD_OK)
            return fail_fatal(r, st, "a new provider");
    } else if (fresh) {
        tracerd__fxt_provider_reset(p);
    }
    r->cur = p;
    return TRACERD_OK;
}

/* A provider section for a provider no provider info record announced: the
 * record is valid and switches to a fresh, empty context, as for any new
 * provider; a warning (in strict mode too) says its strings and threads start
 * empty. */
static FXT_COLD tracerd_status_t unannounced_provider(tracerd_fxt_reader_t *r, uint32_t id)
{
    snprintf(r->warn_reason, sizeof r->warn_reason,
             "provider section metadata record: provider %u was never announced (no provider "
             "info record); its records are read in a fresh, empty context",
             (unsigned)id);
    return warning(r, TRACERD_E_REFERENCE, r->rec_off, 0);
}

static FXT_INLINE tracerd_status_t dec_metadata(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                                uint64_t h, bool big)
{
    (void)big; /* no words beyond the header are read with it */
    tracerd_fxt_metadata_t m;
    memset(&m, 0, sizeof m);
    m.offset = r->rec_off;
    uint32_t type = (uint32_t)(h >> 16) & 0xfu;
    m.type = (tracerd_fxt_metadata_type_t)type;
    m.provider_id = (uint32_t)(h >> 20);
    tracerd_status_t st;
    switch (type) {
    case TRACERD_FXT_META_PROVIDER_INFO: {
        r->what = "provider info metadata record";
        size_t len = (size_t)(h >> 52) & 0xffu;
        if (pad8(len) > n - 8)
            return fail(r, TRACERD_E_EXTENT,
                        "provider name (%zu bytes) runs past the end of the record", len);
        m.name.data = (const char *)p + 8;
        m.name.len = len;
        if ((st = switch_provider(r, m.provider_id, true)) != TRACERD_OK)
            return st;
        return CALL(r, on_metadata, &m);
    }
    case TRACERD_FXT_META_PROVIDER_SECTION:
        r->what = "provider section metadata record";
        if (m.provider_id != 0 && tracerd__fxt_find(&r->tables, m.provider_id) == NULL &&
            (st = unannounced_provider(r, m.provider_id)) != TRACERD_OK)
            return st;
        if ((st = switch_provider(r, m.provider_id, false)) != TRACERD_OK)
            return st;
        return CALL(r, on_metadata, &m);
    case TRACERD_FXT_META_PROVIDER_EVENT:
        r->what = "provider event metadata record";
        m.event = (uint32_t)(h >> 52) & 0xfu;
        return CALL(r, on_metadata, &m);
    case TRACERD_FXT_META_TRACE_INFO:
        r->what = "trace info metadata record";
        m.trace_info_type = (uint32_t)(h >> 20) & 0xfu;
        m.provider_id = r->cur != NULL ? r->cur->id : 0;
        if (m.trace_info_type != TRACERD_FXT_TRACE_INFO_MAGIC)
            return report_unknown(r, TRACERD_FXT_UNKNOWN_TRACE_INFO, m.trace_info_type, h, p, n);
        r->what = "magic record";
        if ((uint32_t)(h >> 24) != TRACERD_FXT_MAGIC)
            return fail(r, TRACERD_E_MAGIC, "magic is 0x%08x, not 0x%08x", (unsigned)(h >> 24),
                        TRACERD_FXT_MAGIC);
        if ((h >> 56) != 0)
            return fail(r, TRACERD_E_MAGIC, "bits 56..63 are 0x%02x, not zero",
                        (unsigned)(h >> 56));
        if (n != 8)
            return fail(r, TRACERD_E_BAD_RECORD, "size is %zu words, must be 1", n / 8);
        m.byte_order = r->big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE;
        return CALL(r, on_metadata, &m);
    default:
        return report_unknown(r, TRACERD_FXT_UNKNOWN_METADATA, type, h, p, n);
    }
}

/* The start every record decoder (but init, string and thread, which check
 * their fields before) shares: the record's name for error reasons, the
 * current provider (made on first use), the cursor after the header word. */
static FXT_INLINE tracerd_status_t record_start(tracerd_fxt_reader_t *r, const char *what, cur_t *c,
                                                const uint8_t *p, size_t n, bool big)
{
    r->what = what;
    c->p = p;
    c->n = n;
    c->at = 8;
    c->big = big;
    return ensure_provider(r);
}

/* The members every record struct starts with. */
#define RECORD_HEAD(r, rec)                                                                        \
    do {                                                                                           \
        (rec).offset = (r)->rec_off;                                                               \
        (rec).provider_id = (r)->cur->id;                                                          \
    } while (0)

/* Arguments of an unknown type were seen in the record: reported (a warning,
 * or the error in strict mode) before the record is delivered. */
static FXT_INLINE tracerd_status_t args_checked(tracerd_fxt_reader_t *r, uint32_t nargs)
{
    return TRACERD__UNLIKELY(r->unknown_args != 0) ? report_unknown_args(r, nargs) : TRACERD_OK;
}

static FXT_INLINE tracerd_status_t dec_init(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                            bool big)
{
    r->what = "initialization record";
    cur_t c = {p, n, 8, big};
    tracerd_fxt_init_t i;
    tracerd_status_t st;
    if ((st = word(r, &c, &i.ticks_per_second, "ticks per second")) != TRACERD_OK)
        return st;
    if (i.ticks_per_second == 0)
        return fail(r, TRACERD_E_BAD_RECORD, "ticks per second is 0");
    if ((st = ensure_provider(r)) != TRACERD_OK)
        return st;
    r->cur->has_init = true;
    r->cur->ticks_per_second = i.ticks_per_second;
    i.offset = r->rec_off;
    i.provider_id = r->cur->id;
    return CALL(r, on_init, &i);
}

static FXT_INLINE tracerd_status_t dec_string(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                              uint64_t h, bool big)
{
    (void)big; /* no words beyond the header are read with it */
    r->what = "string record";
    uint32_t index = (uint32_t)(h >> 16) & 0x7fffu;
    size_t len = (size_t)(h >> 32) & 0x7fffu;
    if (pad8(len) > n - 8)
        return fail(r, TRACERD_E_EXTENT, "string (%zu bytes) runs past the end of the record", len);
    tracerd_status_t st;
    if ((st = ensure_provider(r)) != TRACERD_OK)
        return st;
    if (index != 0) {
        st = tracerd__fxt_str_put(&r->tables, r->cur, index, p + 8, len);
        if (st == TRACERD_E_LIMIT) {
            r->fatal = true;
            return fail(r, st,
                        "string index %u (%zu bytes): string tables would exceed "
                        "max_string_bytes (%zu; %zu bytes held)",
                        (unsigned)index, len, r->tables.max_str_bytes, r->tables.str_bytes);
        }
        if (st != TRACERD_OK)
            return fail_fatal(r, st, "a string copy");
    }
    if (r->cbs.on_string == NULL)
        return TRACERD_OK;
    tracerd_fxt_string_t s;
    s.offset = r->rec_off;
    s.provider_id = r->cur->id;
    s.index = (uint16_t)index;
    s.str.data = (const char *)p + 8;
    s.str.len = len;
    return CALL(r, on_string, &s);
}

static FXT_INLINE tracerd_status_t dec_thread(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                              uint64_t h, bool big)
{
    r->what = "thread record";
    cur_t c = {p, n, 8, big};
    tracerd_fxt_thread_rec_t t;
    tracerd_status_t st;
    if ((st = word(r, &c, &t.pid, "process koid")) != TRACERD_OK ||
        (st = word(r, &c, &t.tid, "thread koid")) != TRACERD_OK)
        return st;
    if ((st = ensure_provider(r)) != TRACERD_OK)
        return st;
    t.index = (uint8_t)(h >> 16);
    if (t.index != 0) {
        struct tracerd__fxt_thr *e = &r->cur->threads[t.index];
        e->pid = t.pid;
        e->tid = t.tid;
        e->set = true;
    }
    t.offset = r->rec_off;
    t.provider_id = r->cur->id;
    return CALL(r, on_thread, &t);
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
    *st = after_cb(r, rv, "on_event_head");
    return FAST_STOP;
}

/* Decodes an event record (n bytes at p, header h, absolute offset off) in
 * one pass with its fields in registers and calls on_event. Events are the
 * bulk of every trace. exact false (fast_records): anything out of the
 * ordinary (no provider yet, an event type not defined yet, an unknown
 * argument type, an unregistered thread or string index, a field that does
 * not fit) returns FAST_BAIL before any callback, with nothing changed that
 * matters, and the record is then decoded by record() (dec_event: exact
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
            EVENT_TAKE(fail_word(r, "timestamp"));
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
            r->head_kept = off; /* if the rest bails out, record() does not ask again */
    }
    EVENT_TAKE(args_dec(r, strs, cap, p, &q, end, nargs, big, exact));
    /* The word after the arguments, without a branch on the event type
     * (read from the header, then unused, when the type has none). */
    uint64_t has = 0 - (uint64_t)((EVENT_TYPES_WITH_WORD >> type) & 1u);
    if (TRACERD__UNLIKELY(has & (q == end)))
        EVENT_TAKE(exact ? fail_word(r, event_word_name[type]) : BAIL);
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
    e.args = r->args;
    uint64_t tps = pv->ticks_per_second; /* 0 until an initialization record */
    e.ns = tps_ns(tps, e.ticks);
    e.end_ns = tps_ns(tps, e.end_ticks); /* 0 unless DURATION_COMPLETE */
    r->next_off = off + n;
    if (TRACERD__UNLIKELY(r->core.warn.pending) && (*st = warn_flush(r)) != TRACERD_OK)
        return FAST_STOP;
    r->core.in_cb = true;
    int rv = r->cbs.on_event(r->core.user, &e);
    r->core.in_cb = false;
    if (TRACERD__LIKELY(rv == TRACERD_CB_CONTINUE))
        return FAST_DONE;
    *st = after_cb(r, rv, "on_event");
    return FAST_STOP;
#undef EVENT_TAKE
}

/* An event record on the general path (record()): event_dec, exact. */
static FXT_INLINE tracerd_status_t dec_event(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                             uint64_t h, bool big)
{
    tracerd_status_t st = TRACERD_OK;
    event_dec(r, p, n, h, r->rec_off, big, true, &st);
    return st;
}

static FXT_INLINE tracerd_status_t dec_blob(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                            uint64_t h, bool big)
{
    cur_t c;
    tracerd_status_t st = record_start(r, "blob record", &c, p, n, big);
    if (st != TRACERD_OK)
        return st;
    tracerd_fxt_blob_t b;
    RECORD_HEAD(r, b);
    b.blob_type = (uint32_t)(h >> 48) & 0xffu;
    size_t size = (size_t)(h >> 32) & 0x7fffu;
    if ((st = str_ref(r, &c, (uint32_t)(h >> 16) & 0xffffu, &b.name, "name")) != TRACERD_OK)
        return st;
    if (size > c.n - c.at)
        return fail(r, TRACERD_E_EXTENT, "payload (%zu bytes) runs past the end of the record",
                    size);
    b.payload.data = p + c.at;
    b.payload.len = size;
    return CALL(r, on_blob, &b);
}

/* The inline process reference of a userspace object record (cursor after
 * the pointer word): writers use one word (the process koid: the spec's text,
 * Fuchsia's Rust, Go and Python readers) or two (a full inline thread
 * reference: Fuchsia's C++ lib/fxt). The record's size decides: 1 when the
 * name and the arguments' sizes end the record exactly after one word, else 2
 * (whose decoding reports any error). */
static uint32_t inline_process_words(const cur_t *c, uint32_t name_ref, uint32_t nargs)
{
    size_t at = c->at + 8;
    if (name_ref & 0x8000u)
        at += pad8(name_ref & 0x7fffu);
    for (uint32_t i = 0; i < nargs && at <= c->n; i++) {
        if (c->n - at < 8)
            return 2;
        size_t size = (size_t)((ldw(c->big, c->p + at) >> 4) & 0xfffu) * 8u;
        if (size == 0)
            return 2;
        at += size;
    }
    return at == c->n ? 1 : 2;
}

static FXT_INLINE tracerd_status_t dec_userspace(tracerd_fxt_reader_t *r, const uint8_t *p,
                                                 size_t n, uint64_t h, bool big)
{
    cur_t c;
    tracerd_status_t st = record_start(r, "userspace object record", &c, p, n, big);
    if (st != TRACERD_OK)
        return st;
    tracerd_fxt_userspace_object_t o;
    RECORD_HEAD(r, o);
    o.nargs = (uint32_t)(h >> 40) & 0xfu;
    o.args = r->args;
    uint32_t pref = (uint32_t)(h >> 16) & 0xffu;
    if ((st = word(r, &c, &o.pointer, "pointer")) != TRACERD_OK)
        return st;
    o.process_words =
        pref != 0 ? 0 : inline_process_words(&c, (uint32_t)(h >> 24) & 0xffffu, o.nargs);
    if (o.process_words == 1) {
        o.process.ref = 0;
        o.process.pid = ldw(big, p + c.at);
        o.process.tid = 0;
        c.at += 8;
    } else if ((st = thread_ref(r, &c, pref, &o.process, "process")) != TRACERD_OK) {
        return st;
    }
    if ((st = str_ref(r, &c, (uint32_t)(h >> 24) & 0xffffu, &o.name, "name")) != TRACERD_OK ||
        (st = args_of(r, &c, o.nargs)) != TRACERD_OK)
        return st;
    if ((st = args_checked(r, o.nargs)) != TRACERD_OK)
        return st;
    return CALL(r, on_userspace_object, &o);
}

static FXT_INLINE tracerd_status_t dec_kernel(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                              uint64_t h, bool big)
{
    cur_t c;
    tracerd_status_t st = record_start(r, "kernel object record", &c, p, n, big);
    if (st != TRACERD_OK)
        return st;
    tracerd_fxt_kernel_object_t o;
    RECORD_HEAD(r, o);
    o.object_type = (uint32_t)(h >> 16) & 0xffu;
    o.nargs = (uint32_t)(h >> 40) & 0xfu;
    o.args = r->args;
    if ((st = word(r, &c, &o.koid, "koid")) != TRACERD_OK ||
        (st = str_ref(r, &c, (uint32_t)(h >> 24) & 0xffffu, &o.name, "name")) != TRACERD_OK ||
        (st = args_of(r, &c, o.nargs)) != TRACERD_OK)
        return st;
    if ((st = args_checked(r, o.nargs)) != TRACERD_OK)
        return st;
    return CALL(r, on_kernel_object, &o);
}

static FXT_INLINE tracerd_status_t dec_scheduling(tracerd_fxt_reader_t *r, const uint8_t *p,
                                                  size_t n, uint64_t h, bool big)
{
    uint32_t type = (uint32_t)(h >> 60);
    static const char *const what[3] = {"legacy context switch record", "context switch record",
                                        "thread wakeup record"};
    const char *name = type < 3 ? what[type] : "scheduling record";
    if (type > TRACERD_FXT_SCHED_THREAD_WAKEUP) {
        r->what = name;
        return report_unknown(r, TRACERD_FXT_UNKNOWN_SCHEDULING, type, h, p, n);
    }
    cur_t c;
    tracerd_status_t st = record_start(r, name, &c, p, n, big);
    if (st != TRACERD_OK)
        return st;
    tracerd_fxt_scheduling_t s;
    memset(&s, 0, sizeof s);
    RECORD_HEAD(r, s);
    s.type = (tracerd_fxt_sched_type_t)type;
    s.args = r->args;
    if ((st = word(r, &c, &s.ticks, "timestamp")) != TRACERD_OK)
        return st;
    s.ns = to_ns(r, s.ticks);
    switch (type) {
    case TRACERD_FXT_SCHED_CONTEXT_SWITCH:
        s.nargs = (uint32_t)(h >> 16) & 0xfu;
        s.cpu = (uint32_t)(h >> 20) & 0xffffu;
        s.outgoing_state = (uint32_t)(h >> 36) & 0xfu;
        if ((st = word(r, &c, &s.outgoing.tid, "outgoing thread id")) != TRACERD_OK ||
            (st = word(r, &c, &s.incoming.tid, "incoming thread id")) != TRACERD_OK ||
            (st = args_of(r, &c, s.nargs)) != TRACERD_OK)
            return st;
        break;
    case TRACERD_FXT_SCHED_THREAD_WAKEUP:
        s.nargs = (uint32_t)(h >> 16) & 0xfu;
        s.cpu = (uint32_t)(h >> 20) & 0xffffu;
        if ((st = word(r, &c, &s.waking_tid, "waking thread id")) != TRACERD_OK ||
            (st = args_of(r, &c, s.nargs)) != TRACERD_OK)
            return st;
        break;
    default: /* legacy */
        s.cpu = (uint32_t)(h >> 16) & 0xffu;
        s.outgoing_state = (uint32_t)(h >> 24) & 0xfu;
        s.outgoing_priority = (uint32_t)(h >> 44) & 0xffu;
        s.incoming_priority = (uint32_t)(h >> 52) & 0xffu;
        if ((st = thread_ref(r, &c, (uint32_t)(h >> 28) & 0xffu, &s.outgoing, "outgoing")) !=
                TRACERD_OK ||
            (st = thread_ref(r, &c, (uint32_t)(h >> 36) & 0xffu, &s.incoming, "incoming")) !=
                TRACERD_OK)
            return st;
        r->unknown_args = 0;
        break;
    }
    if ((st = args_checked(r, s.nargs)) != TRACERD_OK)
        return st;
    return CALL(r, on_scheduling, &s);
}

static FXT_INLINE tracerd_status_t dec_log(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                           uint64_t h, bool big)
{
    cur_t c;
    tracerd_status_t st = record_start(r, "log record", &c, p, n, big);
    if (st != TRACERD_OK)
        return st;
    tracerd_fxt_log_t l;
    RECORD_HEAD(r, l);
    size_t len = (size_t)(h >> 16) & 0x7fffu;
    if ((st = word(r, &c, &l.ticks, "timestamp")) != TRACERD_OK ||
        (st = thread_ref(r, &c, (uint32_t)(h >> 32) & 0xffu, &l.thread, "log")) != TRACERD_OK)
        return st;
    if (len > c.n - c.at)
        return fail(r, TRACERD_E_EXTENT, "message (%zu bytes) runs past the end of the record",
                    len);
    l.message.data = (const char *)p + c.at;
    l.message.len = len;
    l.ns = to_ns(r, l.ticks);
    return CALL(r, on_log, &l);
}

static FXT_INLINE tracerd_status_t large_blob_head_o(tracerd_fxt_reader_t *r, const uint8_t *p,
                                                     size_t avail, uint64_t total, uint64_t h,
                                                     tracerd_fxt_large_blob_t *b, size_t *head,
                                                     bool big);

/* Decodes a large blob head from p (avail bytes of a record of total bytes)
 * into *b; *head receives the bytes before the payload. */
static tracerd_status_t large_blob_head(tracerd_fxt_reader_t *r, const uint8_t *p, size_t avail,
                                        uint64_t total, uint64_t h, tracerd_fxt_large_blob_t *b,
                                        size_t *head)
{
    return r->big ? large_blob_head_o(r, p, avail, total, h, b, head, true)
                  : large_blob_head_o(r, p, avail, total, h, b, head, false);
}

static FXT_INLINE tracerd_status_t large_blob_head_o(tracerd_fxt_reader_t *r, const uint8_t *p,
                                                     size_t avail, uint64_t total, uint64_t h,
                                                     tracerd_fxt_large_blob_t *b, size_t *head,
                                                     bool big)
{
    cur_t c;
    tracerd_status_t st = record_start(r, "large blob record", &c, p, avail, big);
    if (st != TRACERD_OK)
        return st;
    memset(b, 0, sizeof *b);
    RECORD_HEAD(r, *b);
    b->format = (tracerd_fxt_large_blob_format_t)((h >> 40) & 0xfu);
    b->args = r->args;
    uint64_t f = 0;
    if ((st = word(r, &c, &f, "format header")) != TRACERD_OK ||
        (st = str_ref(r, &c, (uint32_t)f & 0xffffu, &b->category, "category")) != TRACERD_OK ||
        (st = str_ref(r, &c, (uint32_t)(f >> 16) & 0xffffu, &b->name, "name")) != TRACERD_OK)
        return st;
    r->unknown_args = 0;
    if (b->format == TRACERD_FXT_LARGE_BLOB_WITH_METADATA) {
        b->nargs = (uint32_t)(f >> 32) & 0xfu;
        if ((st = word(r, &c, &b->ticks, "timestamp")) != TRACERD_OK ||
            (st = thread_ref(r, &c, (uint32_t)(f >> 36) & 0xffu, &b->thread, "blob")) !=
                TRACERD_OK ||
            (st = args_of(r, &c, b->nargs)) != TRACERD_OK)
            return st;
        b->ns = to_ns(r, b->ticks);
    }
    if ((st = word(r, &c, &b->size, "blob size")) != TRACERD_OK)
        return st;
    /* Compared before padding: total - c.at is a multiple of 8, so the padded
     * payload fits whenever the size does, and nothing can wrap. */
    if (b->size > total - c.at)
        return fail(r, TRACERD_E_EXTENT, "payload (%llu bytes) runs past the end of the record",
                    (unsigned long long)b->size);
    *head = c.at;
    return TRACERD_OK;
}

/* Bytes of a large blob head needed so far, from the `have` bytes at p:
 * returns a value <= have once the whole head is known. */
static size_t large_head_need(const tracerd_fxt_reader_t *r, const uint8_t *p, size_t have,
                              uint64_t h)
{
    if (have < 16)
        return 16;
    uint64_t f = ld64(r, p + 8);
    size_t at = 16;
    uint32_t cat = (uint32_t)f & 0xffffu, name = (uint32_t)(f >> 16) & 0xffffu;
    if (cat & 0x8000u)
        at += pad8(cat & 0x7fffu);
    if (name & 0x8000u)
        at += pad8(name & 0x7fffu);
    if (((h >> 40) & 0xfu) == TRACERD_FXT_LARGE_BLOB_WITH_METADATA) {
        at += 8;
        if (((f >> 36) & 0xffu) == 0)
            at += 16;
        uint32_t nargs = (uint32_t)(f >> 32) & 0xfu;
        for (uint32_t i = 0; i < nargs; i++) {
            if (at + 8 > have)
                return at + 8;
            size_t size = (size_t)((ld64(r, p + at) >> 4) & 0xfffu) * 8u;
            if (size == 0) /* the decoder reports it */
                return at + 8;
            at += size;
        }
    }
    return at + 8;
}

static FXT_INLINE tracerd_status_t dec_large(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                             uint64_t h, bool big)
{
    (void)big; /* no words beyond the header are read with it */
    uint32_t ltype = (uint32_t)(h >> 36) & 0xfu;
    r->what = "large record";
    if (ltype != 0)
        return report_unknown(r, TRACERD_FXT_UNKNOWN_LARGE_RECORD, ltype, h, p, n);
    uint32_t format = (uint32_t)(h >> 40) & 0xfu;
    if (format > TRACERD_FXT_LARGE_BLOB_NO_METADATA) {
        r->what = "large blob record";
        return report_unknown(r, TRACERD_FXT_UNKNOWN_BLOB_FORMAT, format, h, p, n);
    }
    tracerd_fxt_large_blob_t b;
    size_t head;
    tracerd_status_t st = large_blob_head(r, p, n, n, h, &b, &head);
    if (st != TRACERD_OK)
        return st;
    b.payload.data = p + head;
    b.payload.len = (size_t)b.size;
    if ((st = args_checked(r, b.nargs)) != TRACERD_OK)
        return st;
    return CALL(r, on_large_blob, &b);
}

static const char *const record_what[16] = {"metadata record",
                                            "initialization record",
                                            "string record",
                                            "thread record",
                                            "event record",
                                            "blob record",
                                            "userspace object record",
                                            "kernel object record",
                                            "scheduling record",
                                            "log record",
                                            "record",
                                            "record",
                                            "record",
                                            "record",
                                            "record",
                                            "large record"};

/* Decodes one whole record (n bytes at p). */
static FXT_INLINE tracerd_status_t dispatch(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n,
                                            uint64_t h, bool big)
{
    switch (h & 0xfu) {
    case TRACERD_FXT_RECORD_EVENT:
        return dec_event(r, p, n, h, big);
    case TRACERD_FXT_RECORD_STRING:
        return dec_string(r, p, n, h, big);
    case TRACERD_FXT_RECORD_THREAD:
        return dec_thread(r, p, n, h, big);
    case TRACERD_FXT_RECORD_METADATA:
        return dec_metadata(r, p, n, h, big);
    case TRACERD_FXT_RECORD_INIT:
        return dec_init(r, p, n, big);
    case TRACERD_FXT_RECORD_BLOB:
        return dec_blob(r, p, n, h, big);
    case TRACERD_FXT_RECORD_USERSPACE_OBJECT:
        return dec_userspace(r, p, n, h, big);
    case TRACERD_FXT_RECORD_KERNEL_OBJECT:
        return dec_kernel(r, p, n, h, big);
    case TRACERD_FXT_RECORD_SCHEDULING:
        return dec_scheduling(r, p, n, h, big);
    case TRACERD_FXT_RECORD_LOG:
        return dec_log(r, p, n, h, big);
    case TRACERD_FXT_RECORD_LARGE:
        return dec_large(r, p, n, h, big);
    default:
        r->what = "record";
        return report_unknown(r, TRACERD_FXT_UNKNOWN_RECORD, (uint32_t)(h & 0xfu), h, p, n);
    }
}

static bool skippable(const tracerd_fxt_reader_t *r, tracerd_status_t st)
{
    return r->cfg.lenient && !r->fatal &&
           (st == TRACERD_E_BAD_RECORD || st == TRACERD_E_EXTENT || st == TRACERD_E_REFERENCE ||
            st == TRACERD_E_MAGIC || st == TRACERD_E_LIMIT || st == TRACERD_E_TRUNCATED);
}

/* Lenient mode: turns the current error into a warning about skipping `skipped` bytes. */
static tracerd_status_t warn(tracerd_fxt_reader_t *r, uint64_t skipped)
{
    memcpy(r->warn_reason, r->core.err.reason, sizeof r->warn_reason);
    tracerd_status_t st = r->core.err.status;
    uint64_t offset = r->core.err.offset;
    tracerd__error_clear(&r->core.err);
    return warning(r, st, offset, skipped);
}

/* Decodes a whole record; in lenient mode a malformed one becomes a warning. */
static tracerd_status_t record(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n)
{
    r->rec_p = p;
    r->arg_i = -1;
    r->next_off = r->rec_off + n;
    tracerd_status_t st =
        r->big ? dispatch(r, p, n, ldw(true, p), true) : dispatch(r, p, n, ldw(false, p), false);
    if (TRACERD__UNLIKELY(st != TRACERD_OK) && skippable(r, st))
        st = warn(r, n);
    return st;
}

/* ---- the state machine ------------------------------------------------ */

/* Decides the byte order at the first record and handles magic records in
 * the other byte order. Returns 1 when hp is such a magic record (8 bytes,
 * handled), 0 otherwise, or an error. */
static int other_magic(tracerd_fxt_reader_t *r, const uint8_t *hp, tracerd_status_t *st)
{
    bool le = magic_le(hp), be = magic_be(hp);
    if (!r->order_known) {
        r->order_known = true;
        if (r->cfg.byte_order != TRACERD_BYTE_ORDER_AUTO)
            r->big = r->cfg.byte_order == TRACERD_BYTE_ORDER_BIG;
        else if (le || be)
            r->big = be;
        else
            r->big = r->cfg.assume_byte_order == TRACERD_BYTE_ORDER_BIG;
    }
    if (!(r->big ? le : be))
        return 0;
    /* A magic record in the other byte order. */
    r->what = "magic record";
    r->rec_p = hp;
    r->arg_i = -1;
    r->next_off = r->rec_off + 8;
    if (r->cfg.byte_order != TRACERD_BYTE_ORDER_AUTO) {
        *st = fail(r, TRACERD_E_MAGIC,
                   "written in %s-endian order but the reader is configured for %s-endian",
                   r->big ? "little" : "big", r->big ? "big" : "little");
        if (skippable(r, *st))
            *st = warn(r, 8);
        return 1;
    }
    r->big = !r->big;
    *st = record(r, hp, 8);
    return 1;
}

/* Size in bytes of the record whose header is h; sets *st on an invalid size. */
static uint64_t record_size(tracerd_fxt_reader_t *r, uint64_t h, tracerd_status_t *st)
{
    uint32_t type = (uint32_t)(h & 0xfu);
    r->what = record_what[type];
    r->arg_i = -1;
    uint64_t n =
        type == TRACERD_FXT_RECORD_LARGE ? ((h >> 4) & 0xffffffffu) * 8u : ((h >> 4) & 0xfffu) * 8u;
    if (n == 0) {
        *st = fail(r, TRACERD_E_BAD_RECORD, "size is 0");
        return 0;
    }
    if (type == TRACERD_FXT_RECORD_LARGE && n > r->cfg.max_large_record_bytes) {
        *st = fail(r, TRACERD_E_LIMIT, "size (%llu bytes) exceeds max_large_record_bytes (%llu)",
                   (unsigned long long)n, (unsigned long long)r->cfg.max_large_record_bytes);
        return n; /* lenient mode skips it by this size */
    }
    *st = TRACERD_OK;
    return n;
}

/* Consumes `k` bytes that were peeked (in the chunk or in the stitch buffer). */
static void take_peeked(tracerd_fxt_reader_t *r, const uint8_t **pos, size_t k)
{
    if (r->st.have != 0)
        tracerd__stitch_drop(&r->st);
    else
        *pos += k;
}

/* Skips the rest of the current record (its first `have` bytes are consumed). */
static void skip_rest(tracerd_fxt_reader_t *r, const uint8_t **pos, size_t peeked)
{
    uint64_t done = r->st.have != 0 ? r->st.have : peeked;
    take_peeked(r, pos, peeked);
    r->skip_left = r->rec_size - done;
    r->state = r->skip_left != 0 ? S_SKIP : S_RECORD;
}

/* S_RECORD on the slow path: the header and the record via the stitch buffer. */
static tracerd_status_t slow_record(tracerd_fxt_reader_t *r, const uint8_t **pos,
                                    const uint8_t *end)
{
    if (r->st.have == 0)
        r->rec_off = r->chunk_off + (uint64_t)(*pos - r->chunk);
    const uint8_t *hp = tracerd__peek(&r->st, pos, end, 8);
    if (hp == NULL)
        return TRACERD_OK;
    tracerd_status_t st = TRACERD_OK;
    if (other_magic(r, hp, &st)) {
        take_peeked(r, pos, 8);
        return st;
    }
    uint64_t h = ld64(r, hp);
    uint64_t n = record_size(r, h, &st);
    if (st != TRACERD_OK) {
        if (!skippable(r, st))
            return st;
        r->rec_size = n == 0 ? 8 : n;
        skip_rest(r, pos, 8);
        return warn(r, r->rec_size);
    }
    r->rec_size = n;
    if (n <= r->st.cap) {
        const uint8_t *p = tracerd__gather(&r->st, pos, end, (size_t)n);
        if (p == NULL)
            return TRACERD_OK;
        return record(r, p, (size_t)n);
    }
    /* A large record above the stitch bound (normal records always fit). */
    uint32_t ltype = (uint32_t)(h >> 36) & 0xfu, format = (uint32_t)(h >> 40) & 0xfu;
    if (ltype != 0 || format > TRACERD_FXT_LARGE_BLOB_NO_METADATA) {
        r->rec_p = hp;
        r->next_off = r->rec_off + n;
        r->what = ltype != 0 ? "large record" : "large blob record";
        skip_rest(r, pos, 8);
        return report_unknown(
            r, ltype != 0 ? TRACERD_FXT_UNKNOWN_LARGE_RECORD : TRACERD_FXT_UNKNOWN_BLOB_FORMAT,
            ltype != 0 ? ltype : format, h, NULL, n);
    }
    r->head_need = 16;
    r->state = S_LARGE_HEAD;
    return TRACERD_OK;
}

/* S_LARGE_HEAD: gathers the head of a streamed large blob, then delivers it. */
static tracerd_status_t large_head(tracerd_fxt_reader_t *r, const uint8_t **pos, const uint8_t *end)
{
    const uint8_t *hp;
    for (;;) {
        size_t need = r->head_need;
        tracerd_status_t st = TRACERD_OK;
        if (need > r->rec_size) {
            r->what = "large blob record";
            r->arg_i = -1;
            st = fail(r, TRACERD_E_EXTENT, "metadata (%zu bytes) runs past the end of the record",
                      need);
        } else if (need > r->st.cap) {
            r->what = "large blob record";
            r->arg_i = -1;
            st = fail(r, TRACERD_E_LIMIT, "metadata (%zu bytes) exceeds the stitch bound (%zu)",
                      need, r->st.cap);
        }
        if (st != TRACERD_OK) {
            if (!skippable(r, st))
                return st;
            skip_rest(r, pos, 0);
            return warn(r, r->rec_size);
        }
        hp = tracerd__peek(&r->st, pos, end, need);
        if (hp == NULL)
            return TRACERD_OK;
        size_t more = large_head_need(r, hp, need, ld64(r, hp));
        if (more <= need)
            break;
        r->head_need = more;
    }
    r->rec_p = hp;
    r->arg_i = -1;
    r->next_off = r->rec_off + r->rec_size;
    tracerd_fxt_large_blob_t b;
    size_t head;
    uint64_t h = ld64(r, hp);
    tracerd_status_t st = large_blob_head(r, hp, r->head_need, r->rec_size, h, &b, &head);
    if (st == TRACERD_OK && head != r->head_need) /* defensive: the two walks must agree */
        st = fail(r, TRACERD_E_BAD_RECORD, "metadata is %zu bytes, expected %zu", head,
                  r->head_need);
    if (st != TRACERD_OK) {
        if (!skippable(r, st))
            return st;
        skip_rest(r, pos, r->head_need);
        return warn(r, r->rec_size);
    }
    b.payload.data = b.size == 0 ? hp + head : NULL;
    b.payload.len = 0;
    if (r->unknown_args != 0)
        st = report_unknown_args(r, b.nargs);
    if (st == TRACERD_OK)
        st = CALL(r, on_large_blob, &b);
    take_peeked(r, pos, r->head_need);
    r->pay_total = b.size;
    r->pay_done = 0;
    r->skip_left = r->rec_size - head - b.size;
    r->state = b.size != 0 ? S_LARGE_PAYLOAD : r->skip_left != 0 ? S_SKIP : S_RECORD;
    return st;
}

/* Whole normal records straight from the chunk, while they lie in it:
 * events through event_dec (not exact), the others and the events it
 * bails on through record(). */
static FXT_INLINE tracerd_status_t fast_records(tracerd_fxt_reader_t *r, const uint8_t **ppos,
                                                const uint8_t *end, bool big)
{
    const uint8_t *pos = *ppos;
    tracerd_status_t st = TRACERD_OK;
    /* Absolute offset of pos = base + pos (modulo 2^64). */
    const uint64_t base = r->chunk_off - (uint64_t)(uintptr_t)r->chunk;
    while ((size_t)(end - pos) >= 8) {
        uint64_t h = ldw(big, pos);
        size_t n = (size_t)((h >> 4) & 0xfffu) * 8u;
        uint32_t type = (uint32_t)(h & 0xfu);
        if (TRACERD__UNLIKELY(n == 0 || n > (size_t)(end - pos) ||
                              type == TRACERD_FXT_RECORD_METADATA ||
                              type == TRACERD_FXT_RECORD_LARGE))
            break;
        uint64_t off = base + (uint64_t)(uintptr_t)pos;
        r->rec_off = off;
        if (type == TRACERD_FXT_RECORD_EVENT) {
            int k = event_dec(r, pos, n, h, off, big, false, &st);
            if (TRACERD__LIKELY(k == FAST_DONE)) {
                pos += n;
                continue;
            }
            if (k == FAST_STOP) {
                pos += n;
                break;
            }
        }
        st = record(r, pos, n);
        pos += n;
        if (TRACERD__UNLIKELY(st != TRACERD_OK || r->core.paused))
            break;
    }
    *ppos = pos;
    return st;
}

static tracerd_status_t run(tracerd_fxt_reader_t *r, const uint8_t **ppos, const uint8_t *end)
{
    const uint8_t *pos = *ppos;
    tracerd_status_t st = TRACERD_OK;
    while (pos < end) {
        if (r->state == S_RECORD) {
            if (r->st.have == 0 && r->order_known) {
                st = r->big ? fast_records(r, &pos, end, true) : fast_records(r, &pos, end, false);
                if (pos == end || st != TRACERD_OK || r->core.paused)
                    break;
            }
            st = slow_record(r, &pos, end);
        } else if (r->state == S_LARGE_HEAD) {
            st = large_head(r, &pos, end);
        } else if (r->state == S_LARGE_PAYLOAD) {
            size_t avail = (size_t)(end - pos);
            uint64_t left = r->pay_total - r->pay_done;
            size_t take = left < avail ? (size_t)left : avail;
            if (r->cbs.on_large_blob_fragment != NULL) {
                tracerd_span_t sp;
                sp.field = TRACERD_FXT_FIELD_LARGE_BLOB;
                sp.index = 0;
                sp.record_offset = r->rec_off;
                sp.offset = r->pay_done;
                sp.total = r->pay_total;
                sp.data = pos;
                sp.len = take;
                st = CALL(r, on_large_blob_fragment, &sp);
            }
            pos += take;
            r->pay_done += take;
            if (r->pay_done == r->pay_total)
                r->state = r->skip_left != 0 ? S_SKIP : S_RECORD;
        } else { /* S_SKIP */
            size_t avail = (size_t)(end - pos);
            size_t take = r->skip_left < avail ? (size_t)r->skip_left : avail;
            pos += take;
            r->skip_left -= take;
            if (r->skip_left == 0)
                r->state = S_RECORD;
        }
        if (st != TRACERD_OK || r->core.paused)
            break;
    }
    *ppos = pos;
    return st;
}

/* ---- public API ------------------------------------------------------- */

static void fxt_config_defaults(tracerd_fxt_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->byte_order = TRACERD_BYTE_ORDER_AUTO;
    cfg->assume_byte_order = TRACERD_BYTE_ORDER_LITTLE;
    cfg->stitch_bytes = TRACERD_FXT_STITCH_MIN;
    cfg->max_large_record_bytes = (uint64_t)1 << 30;
    cfg->max_providers = 64;
    cfg->max_string_bytes = (size_t)64 << 20;
    cfg->lenient = false;
    cfg->fallback_to_provider0 = false;
}

TRACERD__SIZED_INIT(tracerd_fxt_config_init, tracerd_fxt_config_t, fxt_config_defaults)

static bool config_ok(const tracerd_fxt_config_t *c)
{
    return c->byte_order <= TRACERD_BYTE_ORDER_BIG &&
           c->assume_byte_order >= TRACERD_BYTE_ORDER_LITTLE &&
           c->assume_byte_order <= TRACERD_BYTE_ORDER_BIG &&
           c->stitch_bytes >= TRACERD_FXT_STITCH_MIN && c->stitch_bytes <= MAX_STITCH &&
           c->max_large_record_bytes >= 8 && c->max_providers >= 1 && c->max_providers <= 65536 &&
           c->max_string_bytes <= (size_t)UINT32_MAX;
}

size_t tracerd_fxt_memory_bound(const tracerd_fxt_config_t *cfg)
{
    tracerd_fxt_config_t d;
    if (cfg == NULL) {
        tracerd_fxt_config_init(&d);
        cfg = &d;
    }
    return sizeof(struct tracerd_fxt_reader) + cfg->stitch_bytes +
           (size_t)cfg->max_providers *
               (sizeof(struct tracerd__fxt_provider *) + tracerd__fxt_provider_bytes()) +
           cfg->max_string_bytes;
}

tracerd_status_t tracerd_fxt_new(const tracerd_fxt_config_t *cfg,
                                 const tracerd_fxt_callbacks_t *cbs, void *user,
                                 const tracerd_allocator_t *alloc, tracerd_fxt_reader_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_fxt_config_t c;
    tracerd_fxt_config_init(&c);
    tracerd_fxt_callbacks_t cb;
    tracerd_fxt_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_fxt_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_fxt_callbacks_t, &cb, cbs) != TRACERD_OK || !config_ok(&c))
        return TRACERD_E_INVALID;
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, alloc);
    tracerd_fxt_reader_t *r = tracerd__calloc(&a, sizeof *r);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->cfg = c;
    r->cbs = cb;
    tracerd__reader_init(&r->core, user);
    r->alloc = a;
    if (tracerd__stitch_init(&r->st, &r->alloc, c.stitch_bytes) != TRACERD_OK ||
        tracerd__fxt_tables_init(&r->tables, &r->alloc, c.max_providers, c.max_string_bytes) !=
            TRACERD_OK) {
        tracerd_fxt_free(r);
        return TRACERD_E_NOMEM;
    }
    tracerd_fxt_reset(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_fxt_reset(tracerd_fxt_reader_t *r)
{
    if (r == NULL || r->core.in_cb)
        return;
    tracerd__fxt_tables_clear(&r->tables);
    tracerd__reader_reset(&r->core);
    tracerd__stitch_drop(&r->st);
    r->cur = NULL;
    r->state = S_RECORD;
    r->big = false;
    r->order_known = false;
    r->fatal = false;
    r->chunk = NULL;
    r->chunk_off = 0;
    r->next_off = 0;
    r->rec_off = 0;
    r->rec_p = NULL;
    r->what = "record";
    r->arg_i = -1;
    r->rec_size = 0;
    r->unknown_args = 0;
    r->head_kept = UINT64_MAX;
}

void tracerd_fxt_free(tracerd_fxt_reader_t *r)
{
    if (r == NULL)
        return;
    tracerd__fxt_tables_free(&r->tables);
    tracerd__stitch_free(&r->st, &r->alloc);
    tracerd_allocator_t a = r->alloc;
    tracerd__free(&a, r, sizeof *r);
}

tracerd_status_t tracerd_fxt_feed(tracerd_fxt_reader_t *r, const void *data, size_t len,
                                  size_t *consumed)
{
    if (consumed != NULL)
        *consumed = 0;
    tracerd_status_t st = tracerd__feed_guard(r != NULL ? &r->core : NULL, data, len);
    if (st != TRACERD_OK)
        return st;
    if (len == 0)
        return TRACERD_OK;
    const uint8_t *start = data, *pos = start;
    r->chunk = start;
    st = run(r, &pos, start + len);
    size_t used = (size_t)(pos - start);
    r->chunk_off += used;
    r->next_off = r->chunk_off;
    r->chunk = NULL;
    if (consumed != NULL)
        *consumed = used;
    if (st != TRACERD_OK)
        return tracerd__warn_at_error(&r->core, r->cbs.on_warning, st);
    /* A pause is reported even when its record ends the chunk (core.h). */
    return tracerd__reader_status(&r->core);
}

tracerd_status_t tracerd_fxt_resume(tracerd_fxt_reader_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

tracerd_status_t tracerd_fxt_finish(tracerd_fxt_reader_t *r)
{
    tracerd_status_t st = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (st != TRACERD_OK)
        return st;
    if (r->state == S_RECORD && r->st.have == 0) {
        st = warn_flush(r); /* a run of skips that reached the end */
        return st != TRACERD_OK ? st : tracerd__reader_status(&r->core);
    }
    r->arg_i = -1;
    uint64_t have = r->chunk_off - r->rec_off;
    if (r->state == S_RECORD && r->st.have < 8) {
        r->what = "record";
        st = fail(r, TRACERD_E_TRUNCATED, "input ended inside the header word (%llu of 8 bytes)",
                  (unsigned long long)have);
    } else {
        if (r->state == S_RECORD)
            r->what = record_what[ldw(r->big, r->st.buf) & 0xfu];
        else
            r->what = r->state == S_SKIP ? "large record" : "large blob record";
        st = fail(r, TRACERD_E_TRUNCATED, "input ended inside the record (%llu of %llu bytes)",
                  (unsigned long long)have, (unsigned long long)r->rec_size);
    }
    if (!skippable(r, st))
        return tracerd__warn_at_error(&r->core, r->cbs.on_warning, st);
    tracerd__stitch_drop(&r->st);
    r->state = S_RECORD;
    st = warn(r, have);
    if (st == TRACERD_OK)
        st = warn_flush(r);
    return st != TRACERD_OK ? st : tracerd__reader_status(&r->core);
}

uint64_t tracerd_fxt_offset(const tracerd_fxt_reader_t *r)
{
    return r != NULL ? r->next_off : 0;
}

uint64_t tracerd_fxt_record_offset(const tracerd_fxt_reader_t *r)
{
    if (r == NULL)
        return 0;
    return r->core.err.status != TRACERD_OK ? r->core.err.offset : r->rec_off;
}

const char *tracerd_fxt_error_reason(const tracerd_fxt_reader_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}

int tracerd_fxt_callback_error(const tracerd_fxt_reader_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

TRACERD__READER_OPS(tracerd_fxt, "fxt", tracerd_fxt_reader_t, tracerd_fxt_config_t,
                    tracerd_fxt_callbacks_t)

tracerd_byte_order_t tracerd_fxt_byte_order(const tracerd_fxt_reader_t *r)
{
    if (r == NULL || !r->order_known)
        return TRACERD_BYTE_ORDER_AUTO;
    return r->big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE;
}

const char *tracerd_fxt_record_type_name(uint32_t type)
{
    static const char *const names[16] = {
        "metadata",         "init",          "string",     "thread", "event",   "blob",
        "userspace-object", "kernel-object", "scheduling", "log",    "unknown", "unknown",
        "unknown",          "unknown",       "unknown",    "large"};
    return type < 16 ? names[type] : "unknown";
}

const char *tracerd_fxt_event_type_name(uint32_t type)
{
    static const char *const names[11] = {"instant",       "counter",           "duration-begin",
                                          "duration-end",  "duration-complete", "async-begin",
                                          "async-instant", "async-end",         "flow-begin",
                                          "flow-step",     "flow-end"};
    return type < 11 ? names[type] : "unknown";
}

const char *tracerd_fxt_arg_type_name(uint32_t type)
{
    static const char *const names[11] = {"null",   "int32",  "uint32", "int64",
                                          "uint64", "double", "string", "pointer",
                                          "koid",   "bool",   "blob"};
    return type < 11 ? names[type] : "unknown";
}

TRACERD__SIZED_INIT(tracerd_fxt_callbacks_init, tracerd_fxt_callbacks_t, NULL)
