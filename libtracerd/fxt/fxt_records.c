/* FXT reader: one decoder per record kind, and tracerd__fxt_record, which
 * decodes a whole record on the general path (fxt_reader.h). */
#include <stdio.h>

#include "fxt_decode.h"

static tracerd_status_t switch_provider(tracerd_fxt_reader_t *r, uint32_t id, bool fresh)
{
    struct tracerd__fxt_provider *p = tracerd__fxt_find(&r->tables, id);
    if (p == NULL) {
        tracerd_status_t st = tracerd__fxt_add(&r->tables, id, &p);
        if (st == TRACERD_E_LIMIT) {
            r->fatal = true;
            return tracerd__fxt_fail(
                r, st, "provider id %u would be provider %u: more than max_providers (%u)",
                (unsigned)id, (unsigned)r->tables.count + 1, (unsigned)r->tables.max);
        }
        if (st != TRACERD_OK)
            return tracerd__fxt_fail_fatal(r, st, "a new provider");
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
    return tracerd__fxt_warning(r, TRACERD_E_REFERENCE, r->rec_off, 0);
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
            return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                                     "provider name (%zu bytes) runs past the end of the record",
                                     len);
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
            return tracerd__fxt_report_unknown(r, TRACERD_FXT_UNKNOWN_TRACE_INFO, m.trace_info_type,
                                               h, p, n);
        r->what = "magic record";
        if ((uint32_t)(h >> 24) != TRACERD_FXT_MAGIC)
            return tracerd__fxt_fail(r, TRACERD_E_MAGIC, "magic is 0x%08x, not 0x%08x",
                                     (unsigned)(h >> 24), TRACERD_FXT_MAGIC);
        if ((h >> 56) != 0)
            return tracerd__fxt_fail(r, TRACERD_E_MAGIC, "bits 56..63 are 0x%02x, not zero",
                                     (unsigned)(h >> 56));
        if (n != 8)
            return tracerd__fxt_fail(r, TRACERD_E_BAD_RECORD, "size is %zu words, must be 1",
                                     n / 8);
        m.byte_order = r->big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE;
        return CALL(r, on_metadata, &m);
    default:
        return tracerd__fxt_report_unknown(r, TRACERD_FXT_UNKNOWN_METADATA, type, h, p, n);
    }
}

static inline uint64_t to_ns(const tracerd_fxt_reader_t *r, uint64_t ticks)
{
    if (r->cur == NULL || !r->cur->has_init || r->cur->ticks_per_second == 1000000000u)
        return ticks;
    return tracerd_ticks_to_ns(ticks, r->cur->ticks_per_second);
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
        return tracerd__fxt_fail(r, TRACERD_E_BAD_RECORD, "ticks per second is 0");
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
        return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                                 "string (%zu bytes) runs past the end of the record", len);
    tracerd_status_t st;
    if ((st = ensure_provider(r)) != TRACERD_OK)
        return st;
    if (index != 0) {
        st = tracerd__fxt_str_put(&r->tables, r->cur, index, p + 8, len);
        if (st == TRACERD_E_LIMIT) {
            r->fatal = true;
            return tracerd__fxt_fail(r, st,
                                     "string index %u (%zu bytes): string tables would exceed "
                                     "max_string_bytes (%zu; %zu bytes held)",
                                     (unsigned)index, len, r->tables.max_str_bytes,
                                     r->tables.str_bytes);
        }
        if (st != TRACERD_OK)
            return tracerd__fxt_fail_fatal(r, st, "a string copy");
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

/* An event record on the general path (tracerd__fxt_record()): event_dec, exact. */
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
        return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                                 "payload (%zu bytes) runs past the end of the record", size);
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
    o.args = args_out(r);
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
    o.args = args_out(r);
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
        return tracerd__fxt_report_unknown(r, TRACERD_FXT_UNKNOWN_SCHEDULING, type, h, p, n);
    }
    cur_t c;
    tracerd_status_t st = record_start(r, name, &c, p, n, big);
    if (st != TRACERD_OK)
        return st;
    tracerd_fxt_scheduling_t s;
    memset(&s, 0, sizeof s);
    RECORD_HEAD(r, s);
    s.type = (tracerd_fxt_sched_type_t)type;
    s.args = args_out(r);
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
        return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                                 "message (%zu bytes) runs past the end of the record", len);
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
tracerd_status_t tracerd__fxt_large_blob_head(tracerd_fxt_reader_t *r, const uint8_t *p,
                                              size_t avail, uint64_t total, uint64_t h,
                                              tracerd_fxt_large_blob_t *b, size_t *head)
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
    b->args = args_out(r);
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
        return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                                 "payload (%llu bytes) runs past the end of the record",
                                 (unsigned long long)b->size);
    *head = c.at;
    return TRACERD_OK;
}

/* Bytes of a large blob head needed so far, from the `have` bytes at p:
 * returns a value <= have once the whole head is known. */
size_t tracerd__fxt_large_head_need(const tracerd_fxt_reader_t *r, const uint8_t *p, size_t have,
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
        return tracerd__fxt_report_unknown(r, TRACERD_FXT_UNKNOWN_LARGE_RECORD, ltype, h, p, n);
    uint32_t format = (uint32_t)(h >> 40) & 0xfu;
    if (format > TRACERD_FXT_LARGE_BLOB_NO_METADATA) {
        r->what = "large blob record";
        return tracerd__fxt_report_unknown(r, TRACERD_FXT_UNKNOWN_BLOB_FORMAT, format, h, p, n);
    }
    tracerd_fxt_large_blob_t b;
    size_t head;
    tracerd_status_t st = tracerd__fxt_large_blob_head(r, p, n, n, h, &b, &head);
    if (st != TRACERD_OK)
        return st;
    b.payload.data = p + head;
    b.payload.len = (size_t)b.size;
    if ((st = args_checked(r, b.nargs)) != TRACERD_OK)
        return st;
    return CALL(r, on_large_blob, &b);
}

const char *const tracerd__fxt_record_what[16] = {"metadata record",
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
        return tracerd__fxt_report_unknown(r, TRACERD_FXT_UNKNOWN_RECORD, (uint32_t)(h & 0xfu), h,
                                           p, n);
    }
}

/* Decodes a whole record; in lenient mode a malformed one becomes a warning. */
tracerd_status_t tracerd__fxt_record(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n)
{
    r->rec_p = p;
    r->arg_i = -1;
    r->next_off = r->rec_off + n;
    tracerd_status_t st =
        r->big ? dispatch(r, p, n, ldw(true, p), true) : dispatch(r, p, n, ldw(false, p), false);
    if (TRACERD__UNLIKELY(st != TRACERD_OK) && skippable(r, st))
        st = tracerd__fxt_warn(r, n);
    return st;
}
