/* LLVM XRay reader: FDR versions 1-5 and basic mode versions 1-3, both byte
 * orders, streaming. See doc/formats/xray.md for the byte-level reading. */
#include <tracerd/xray.h>

#include "../core/reader.h"
#include "../core/sized.h"

#define HEADER_BYTES 32u
#define FUNC_BYTES 8u
#define META_BYTES 16u
#define BASIC_BYTES 32u
#define QUEUE_MAX 8u
#define BATCH 64u /* function records per on_functions call, at most */

enum state {
    S_HEADER,    /* the 32-byte file header */
    S_RECORD,    /* an FDR record */
    S_PAYLOAD,   /* a custom/typed event payload <= the stitch bound */
    S_FRAGMENTS, /* a payload above the bound, delivered in pieces */
    S_SKIP,      /* v1 filler after EndOfBuffer, or a damaged buffer (lenient) */
    S_BASIC,     /* a basic-mode record */
    S_DONE       /* finish() succeeded */
};

/* Where the reader is inside an FDR thread buffer (the grammar of xray-versions.md). */
enum bstate {
    B_BETWEEN, /* before a buffer: BufferExtents (v2+) or NewBuffer (v1) */
    B_EXTENTS, /* after BufferExtents: NewBuffer */
    B_NEWBUF,  /* after NewBuffer: WalltimeMarker */
    B_WALL,    /* after WalltimeMarker: PIDEntry (v3+) or NewCPUId */
    B_PID,     /* after PIDEntry: NewCPUId */
    B_BODY     /* records */
};

enum item_kind { I_BUFFER, I_FUNCTION, I_METADATA, I_BUFFER_END, I_WARNING };

struct item {
    enum item_kind kind;
    union {
        tracerd_xray_buffer_t buffer;
        tracerd_xray_function_t function;
        tracerd_xray_metadata_t metadata;
        tracerd_xray_buffer_end_t buffer_end;
        tracerd_warning_t warning;
    } u;
};

struct tracerd_xray_reader {
    tracerd_xray_config_t cfg;
    tracerd_xray_callbacks_t cb;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */
    tracerd_allocator_t alloc;
    struct tracerd__stitch st;
    uint64_t *args; /* cfg.max_args slots: arguments of the pending function */
    char warn_reason[TRACERD__REASON_MAX];

    enum state state;
    bool have_header, big;
    bool in_fast;     /* inside the hot loop: the record being delivered is pend */
    uint64_t offset;  /* absolute offset of the next unconsumed byte */
    uint64_t rec_off; /* absolute offset of the current record */
    tracerd_xray_header_t hdr;

    /* buffer state */
    enum bstate bstate;
    bool bounded; /* buf_end applies */
    bool buffer_reported;
    uint64_t buf_end; /* absolute offset just past the buffer */
    tracerd_xray_buffer_t buf;
    uint16_t cpu;
    uint64_t tsc;
    struct tracerd__tick_conv conv; /* exact TSC -> ns for the header's frequency */

    /* the function record waiting for its CallArguments */
    bool pending;
    tracerd_xray_function_t pend;

    /* event payload in progress */
    tracerd_xray_event_t ev;
    uint64_t left; /* payload bytes, or bytes to skip, still to come */
    uint64_t frag_done;
    bool frag_header_sent;
    uint64_t skip_total;
    bool skip_is_filler;

    /* deliveries of self-contained records, drained before reading on */
    struct item q[QUEUE_MAX];
    unsigned qhead, qlen;

    /* on_functions: the run being gathered. fb[0..nh-1] are complete
     * records held until the run ends (the same place in every split:
     * doc/api.md, "records in runs"); the hot loop decodes into the slots
     * after them. Every slot's tid, pid, cpu and args are fb_tid, fb_pid,
     * fb_cpu and args (when fb_set), written only when they change. */
    tracerd_xray_function_t fb[BATCH];
    size_t nh;
    bool fb_set;
    int32_t fb_tid, fb_pid;
    uint16_t fb_cpu;
};

/* ---- names and options ---------------------------------------------------- */

const char *tracerd_xray_kind_name(tracerd_xray_kind_t kind)
{
    static const char *const names[] = {"enter", "exit", "tail-exit", "enter-args"};
    return (unsigned)kind < 4 ? names[kind] : "unknown";
}

const char *tracerd_xray_meta_kind_name(tracerd_xray_meta_kind_t kind)
{
    static const char *const names[] = {
        "new-buffer",   "end-of-buffer", "new-cpu",        "tsc-wrap",    "walltime",
        "custom-event", "call-argument", "buffer-extents", "typed-event", "pid"};
    return (unsigned)kind < 10 ? names[kind] : "unknown";
}

static void xray_config_defaults(tracerd_xray_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->byte_order = TRACERD_BYTE_ORDER_AUTO;
    cfg->stitch_bytes = TRACERD_STITCH_DEFAULT;
    cfg->max_args = 64;
    cfg->max_event_bytes = 1u << 30;
    cfg->lenient_skip_buffers = false;
}

TRACERD__SIZED_INIT(tracerd_xray_config_init, tracerd_xray_config_t, xray_config_defaults)

static size_t stitch_cap(const tracerd_xray_config_t *cfg)
{
    return cfg->stitch_bytes < HEADER_BYTES ? HEADER_BYTES : cfg->stitch_bytes;
}

size_t tracerd_xray_memory_bound(const tracerd_xray_config_t *cfg)
{
    tracerd_xray_config_t def;
    if (cfg == NULL) {
        tracerd_xray_config_init(&def);
        cfg = &def;
    }
    return sizeof(struct tracerd_xray_reader) + stitch_cap(cfg) +
           (size_t)cfg->max_args * sizeof(uint64_t);
}

/* ---- lifecycle -------------------------------------------------------------- */

static void reset_state(tracerd_xray_reader_t *r)
{
    tracerd__reader_reset(&r->core);
    r->st.have = 0;
    r->state = S_HEADER;
    r->have_header = r->big = r->in_fast = false;
    r->offset = r->rec_off = 0;
    memset(&r->hdr, 0, sizeof r->hdr);
    r->bstate = B_BETWEEN;
    r->bounded = r->buffer_reported = false;
    r->buf_end = 0;
    memset(&r->buf, 0, sizeof r->buf);
    r->cpu = 0;
    r->tsc = 0;
    tracerd__tick_conv_init(&r->conv, 0);
    r->pending = false;
    r->nh = 0;
    r->left = r->frag_done = r->skip_total = 0;
    r->qhead = r->qlen = 0;
}

tracerd_status_t tracerd_xray_new(const tracerd_xray_config_t *cfg,
                                  const tracerd_xray_callbacks_t *cbs, void *user,
                                  const tracerd_allocator_t *alloc, tracerd_xray_reader_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_xray_config_t c;
    tracerd_xray_config_init(&c);
    tracerd_xray_callbacks_t cb;
    tracerd_xray_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_xray_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_xray_callbacks_t, &cb, cbs) != TRACERD_OK)
        return TRACERD_E_INVALID;
    cfg = &c;
    if (cfg->max_args == 0 || cfg->max_args > (1u << 20) ||
        cfg->byte_order > TRACERD_BYTE_ORDER_BIG || cfg->stitch_bytes > ((size_t)1 << 30))
        return TRACERD_E_INVALID;
    if (c.stitch_bytes < TRACERD_STITCH_MIN)
        c.stitch_bytes = TRACERD_STITCH_MIN;
    tracerd_xray_reader_t *r =
        TRACERD__READER_ALLOC(struct tracerd_xray_reader, alloc, user, stitch_cap(&c));
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->cfg = c;
    r->cb = cb;
    if ((r->args = tracerd__calloc(&r->alloc, (size_t)r->cfg.max_args * sizeof(uint64_t))) ==
        NULL) {
        tracerd_xray_free(r);
        return TRACERD_E_NOMEM;
    }
    reset_state(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_xray_free(tracerd_xray_reader_t *r)
{
    if (r == NULL || r->core.in_cb)
        return;
    tracerd_allocator_t a = r->alloc;
    tracerd__stitch_free(&r->st, &a);
    tracerd__free(&a, r->args, (size_t)r->cfg.max_args * sizeof(uint64_t));
    tracerd__free(&a, r, sizeof *r);
}

void tracerd_xray_reset(tracerd_xray_reader_t *r)
{
    if (r != NULL && !r->core.in_cb)
        reset_state(r);
}

uint64_t tracerd_xray_offset(const tracerd_xray_reader_t *r)
{
    return r->offset;
}

uint64_t tracerd_xray_record_offset(const tracerd_xray_reader_t *r)
{
    if (r->core.err.status < 0)
        return r->core.err.offset;
    return r->in_fast ? r->pend.offset : r->rec_off;
}

const char *tracerd_xray_error_reason(const tracerd_xray_reader_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}

int tracerd_xray_callback_error(const tracerd_xray_reader_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

TRACERD__READER_OPS(tracerd_xray, "xray", tracerd_xray_reader_t, tracerd_xray_config_t,
                    tracerd_xray_callbacks_t)

bool tracerd_xray_header(const tracerd_xray_reader_t *r, tracerd_xray_header_t *h)
{
    if (!r->have_header)
        return false;
    *h = r->hdr;
    return true;
}

/* ---- helpers ---------------------------------------------------------------- */

/* A callback returned rc: leaves the callback state, then the reader core's
 * one interpretation (TRACERD__CB_GO, _PAUSED or _FAILED). */
static inline int cb_result(tracerd_xray_reader_t *r, int rc, const char *which)
{
    r->core.in_cb = false;
    return tracerd__cb_result(&r->core, rc, which, r->rec_off);
}

static void set_tsc(tracerd_xray_reader_t *r, uint64_t tsc)
{
    r->tsc = tsc;
}

static void add_delta(tracerd_xray_reader_t *r, uint32_t delta)
{
    r->tsc += delta;
}

static uint64_t running_ns(const tracerd_xray_reader_t *r)
{
    return tracerd__tick_conv_ns(&r->conv, r->tsc);
}

static void push(tracerd_xray_reader_t *r, const struct item *it)
{
    r->q[r->qlen++] = *it;
}

static void push_pending(tracerd_xray_reader_t *r)
{
    if (!r->pending)
        return;
    struct item it = {.kind = I_FUNCTION};
    it.u.function = r->pend;
    it.u.function.args = r->args;
    r->pending = false;
    push(r, &it);
}

static void push_buffer_start(tracerd_xray_reader_t *r)
{
    if (r->buffer_reported)
        return;
    struct item it = {.kind = I_BUFFER};
    it.u.buffer = r->buf;
    r->buffer_reported = true;
    push(r, &it);
}

/* Closes the current buffer: pending function, an unreported start, the end. */
static void close_buffer(tracerd_xray_reader_t *r, uint64_t end_offset, uint64_t filler)
{
    push_pending(r);
    if (r->bstate >= B_NEWBUF) {
        push_buffer_start(r);
        struct item it = {.kind = I_BUFFER_END};
        it.u.buffer_end.offset = end_offset;
        it.u.buffer_end.filler_bytes = filler;
        push(r, &it);
    }
    r->bstate = B_BETWEEN;
    r->bounded = false;
}

/* on_functions: sets what every slot of the batch shares (what the hot loop
 * changes only between batches). */
static void batch_fill(tracerd_xray_reader_t *r, int32_t tid, int32_t pid, uint16_t cpu)
{
    if (r->fb_set && r->fb_tid == tid && r->fb_pid == pid && r->fb_cpu == cpu)
        return;
    for (size_t i = 0; i < BATCH; i++) {
        r->fb[i].tid = tid;
        r->fb[i].pid = pid;
        r->fb[i].cpu = cpu;
        r->fb[i].args = r->args;
    }
    r->fb_set = true;
    r->fb_tid = tid;
    r->fb_pid = pid;
    r->fb_cpu = cpu;
}

/* on_functions: the held run fb[0..nh-1] ends here; delivers it. Returns 0,
 * 1 (paused) or -1 (error). */
static int run_flush(tracerd_xray_reader_t *r)
{
    size_t n = r->nh;
    if (n == 0)
        return 0;
    r->nh = 0;
    r->rec_off = r->fb[n - 1].offset;
    r->core.in_cb = true;
    return cb_result(r, r->cb.on_functions(r->core.user, r->fb, n), "on_functions");
}

/* on_functions: a complete record f joins the held run (the general path's
 * records: those of one buffer and one CPU, as the hot loop's). Returns the
 * callback's value when it filled the run (delivered), else CONTINUE. */
static int run_add(tracerd_xray_reader_t *r, const tracerd_xray_function_t *f)
{
    if (r->nh == 0)
        batch_fill(r, f->tid, f->pid, f->cpu);
    tracerd_xray_function_t *s = &r->fb[r->nh++];
    s->offset = f->offset;
    s->kind = f->kind;
    s->function_id = f->function_id;
    s->tsc = f->tsc;
    s->ns = f->ns;
    s->delta = f->delta;
    s->nargs = f->nargs;
    if (r->nh < BATCH)
        return TRACERD_CB_CONTINUE;
    r->nh = 0;
    r->rec_off = r->fb[BATCH - 1].offset;
    return r->cb.on_functions(r->core.user, r->fb, BATCH);
}

/* Delivers the warnings held back (reader.h, tracerd__warn). Returns 0, 1
 * (paused) or -1 (error). */
static int warn_flush(tracerd_xray_reader_t *r)
{
    if (!r->core.warn.pending)
        return 0;
    r->core.in_cb = true;
    return cb_result(r, tracerd__warn_flush(&r->core, r->cb.on_warning), "on_warning");
}

/* Delivers queued records. Returns 0, 1 (paused) or -1 (error). */
static int drain(tracerd_xray_reader_t *r)
{
    while (r->qhead < r->qlen) {
        const struct item *it = &r->q[r->qhead];
        if (it->kind != I_FUNCTION && r->nh != 0) {
            /* a run of function records ends before any other record */
            int res = run_flush(r);
            if (res != 0)
                return res;
        }
        if (it->kind != I_WARNING && TRACERD__UNLIKELY(r->core.warn.pending)) {
            /* a run of warnings ends before any other record */
            int res = warn_flush(r);
            if (res != 0)
                return res;
        }
        r->qhead++;
        int rc = TRACERD_CB_CONTINUE;
        const char *which = "";
        r->core.in_cb = true;
        switch (it->kind) {
        case I_BUFFER:
            r->rec_off = it->u.buffer.offset;
            if (r->cb.on_buffer)
                rc = r->cb.on_buffer(r->core.user, &it->u.buffer);
            which = "on_buffer";
            break;
        case I_FUNCTION:
            r->rec_off = it->u.function.offset;
            if (r->cb.on_functions) {
                /* FDR: the record joins the run; basic mode has no runs */
                rc = r->hdr.type == TRACERD_XRAY_TYPE_FDR
                         ? run_add(r, &it->u.function)
                         : r->cb.on_functions(r->core.user, &it->u.function, 1);
                which = "on_functions";
            } else {
                if (r->cb.on_function)
                    rc = r->cb.on_function(r->core.user, &it->u.function);
                which = "on_function";
            }
            break;
        case I_METADATA:
            r->rec_off = it->u.metadata.offset;
            if (r->cb.on_metadata)
                rc = r->cb.on_metadata(r->core.user, &it->u.metadata);
            which = "on_metadata";
            break;
        case I_BUFFER_END:
            if (r->cb.on_buffer_end)
                rc = r->cb.on_buffer_end(r->core.user, &it->u.buffer_end);
            which = "on_buffer_end";
            break;
        case I_WARNING:
            r->rec_off = it->u.warning.offset;
            rc = tracerd__warn(&r->core, r->cb.on_warning, &it->u.warning);
            which = "on_warning";
            break;
        }
        int res = cb_result(r, rc, which);
        if (res != 0) {
            if (r->qhead == r->qlen)
                r->qhead = r->qlen = 0;
            return res;
        }
    }
    r->qhead = r->qlen = 0;
    return 0;
}

/* ---- header ----------------------------------------------------------------- */

static bool known_pair(uint16_t version, uint16_t type)
{
    return (type == TRACERD_XRAY_TYPE_FDR && version >= 1 && version <= 5) ||
           (type == TRACERD_XRAY_TYPE_BASIC && version >= 1 && version <= 3);
}

static tracerd_status_t parse_header(tracerd_xray_reader_t *r, const uint8_t *h)
{
    bool big;
    if (r->cfg.byte_order == TRACERD_BYTE_ORDER_AUTO) {
        if (known_pair(tracerd__le16(h), tracerd__le16(h + 2)))
            big = false;
        else if (known_pair(tracerd__be16(h), tracerd__be16(h + 2)))
            big = true;
        else
            return tracerd__error_set(
                &r->core.err, TRACERD_E_VERSION, 0,
                "file header: version %u / type %u (little-endian) is not a known XRay version "
                "(FDR 1-5, basic 1-3) in either byte order",
                tracerd__le16(h), tracerd__le16(h + 2));
    } else {
        big = r->cfg.byte_order == TRACERD_BYTE_ORDER_BIG;
        if (!known_pair(tracerd__ld16(big, h), tracerd__ld16(big, h + 2)))
            return tracerd__error_set(&r->core.err, TRACERD_E_VERSION, 0,
                                      "file header: version %u / type %u is not a known XRay "
                                      "version (FDR 1-5, basic 1-3)",
                                      tracerd__ld16(big, h), tracerd__ld16(big, h + 2));
    }
    r->big = big;
    r->hdr.version = tracerd__ld16(big, h);
    r->hdr.type = (tracerd_xray_type_t)tracerd__ld16(big, h + 2);
    r->hdr.flags = tracerd__ld32(big, h + 4);
    r->hdr.constant_tsc = (r->hdr.flags & 1u) != 0;
    r->hdr.nonstop_tsc = (r->hdr.flags & 2u) != 0;
    r->hdr.cycle_frequency = tracerd__ld64(big, h + 8);
    r->hdr.buffer_size = tracerd__ld64(big, h + 16);
    r->hdr.byte_order = big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE;
    r->have_header = true;
    tracerd__tick_conv_init(&r->conv, r->hdr.cycle_frequency);
    if (r->hdr.type == TRACERD_XRAY_TYPE_FDR && r->hdr.version == 1 &&
        r->hdr.buffer_size < 3 * META_BYTES)
        return tracerd__error_set(&r->core.err, TRACERD_E_BAD_RECORD, 0,
                                  "file header: buffer_size %llu is too small for an FDR "
                                  "version 1 buffer",
                                  (unsigned long long)r->hdr.buffer_size);
    return TRACERD_OK;
}

/* ---- FDR records ------------------------------------------------------------ */

static bool is_meta(const tracerd_xray_reader_t *r, uint8_t b0)
{
    return r->big ? (b0 & 0x80u) != 0 : (b0 & 1u) != 0;
}

static unsigned meta_kind(const tracerd_xray_reader_t *r, uint8_t b0)
{
    return r->big ? (b0 & 0x7fu) : (unsigned)(b0 >> 1);
}

static const char *bstate_expect(const tracerd_xray_reader_t *r)
{
    switch (r->bstate) {
    case B_BETWEEN:
        return r->hdr.version >= 2 ? "BufferExtents" : "NewBuffer";
    case B_EXTENTS:
        return "NewBuffer";
    case B_NEWBUF:
        return "WalltimeMarker";
    case B_WALL:
        return r->hdr.version >= 3 ? "PIDEntry or NewCPUId" : "NewCPUId";
    case B_PID:
        return "NewCPUId";
    case B_BODY:
        break;
    }
    return "a body record";
}

static tracerd_status_t order_error(tracerd_xray_reader_t *r, const char *what)
{
    return tracerd__error_set(&r->core.err, TRACERD_E_ORDER, r->rec_off,
                              "%s record where the buffer grammar expects %s", what,
                              bstate_expect(r));
}

/* Decodes a function record into the pending slot. */

static void push_meta(tracerd_xray_reader_t *r, const tracerd_xray_metadata_t *m)
{
    if (r->cb.on_metadata == NULL)
        return;
    struct item it = {.kind = I_METADATA};
    it.u.metadata = *m;
    push(r, &it);
}

/* Decodes an event marker; sets up the payload state. */
static tracerd_status_t event_marker(tracerd_xray_reader_t *r, const uint8_t *p, bool typed)
{
    const char *name = typed ? "TypedEventMarker" : "CustomEventMarker";
    unsigned v = r->hdr.version;
    if (typed && v < 4)
        return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                  "%s: not defined in FDR version %u (v4+)", name, v);
    if (r->bstate != B_BODY)
        return order_error(r, name);
    int32_t size = (int32_t)tracerd__ld32(r->big, p + 1);
    tracerd_xray_event_t *e = &r->ev;
    memset(e, 0, sizeof *e);
    e->offset = r->rec_off;
    e->typed = typed;
    e->cpu = r->cpu;
    if (v >= 5) {
        int32_t d = (int32_t)tracerd__ld32(r->big, p + 5);
        if (d >= 0)
            add_delta(r, (uint32_t)d);
        else
            set_tsc(r, r->tsc - (uint64_t)(-(int64_t)d));
        e->tsc = r->tsc;
        e->ns = running_ns(r);
        if (typed)
            e->event_type = tracerd__ld16(r->big, p + 9);
    } else {
        e->tsc = tracerd__ld64(r->big, p + 5);
        e->ns = tracerd__tick_conv_ns(&r->conv, e->tsc);
        if (typed)
            e->event_type = tracerd__ld16(r->big, p + 13);
        else if (v == 4)
            e->cpu = tracerd__ld16(r->big, p + 13);
    }
    e->tid = r->buf.tid;
    e->pid = r->buf.pid;
    if (size <= 0)
        return tracerd__error_set(&r->core.err, TRACERD_E_BAD_RECORD, r->rec_off,
                                  "%s: event size %d is not positive", name, size);
    if ((uint32_t)size > r->cfg.max_event_bytes)
        return tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, r->rec_off,
                                  "%s: event size %d exceeds max_event_bytes %u", name, size,
                                  r->cfg.max_event_bytes);
    if (r->bounded && (uint64_t)size > r->buf_end - (r->rec_off + META_BYTES))
        return tracerd__error_set(&r->core.err, TRACERD_E_EXTENT, r->rec_off,
                                  "%s: %d-byte payload runs past the buffer extent (ends at "
                                  "%llu; LLVM 14 writes typed-event buffers 16 bytes short)",
                                  name, size, (unsigned long long)r->buf_end);
    e->size = (uint32_t)size;
    r->left = (uint64_t)size;
    r->frag_done = 0;
    r->frag_header_sent = false;
    r->state = (uint64_t)size <= r->st.cap ? S_PAYLOAD : S_FRAGMENTS;
    return TRACERD_OK;
}

static tracerd_status_t metadata_record(tracerd_xray_reader_t *r, const uint8_t *p)
{
    unsigned kind = meta_kind(r, p[0]);
    unsigned v = r->hdr.version;
    tracerd_xray_metadata_t m;
    memset(&m, 0, sizeof m);
    m.offset = r->rec_off;
    m.kind = (tracerd_xray_meta_kind_t)kind;
    switch (kind) {
    case TRACERD_XRAY_META_NEW_BUFFER:
        if (!(r->bstate == B_EXTENTS || (v == 1 && r->bstate == B_BETWEEN)))
            return order_error(r, "NewBuffer");
        m.tid = (int32_t)tracerd__ld32(r->big, p + 1);
        if (v == 1) {
            uint64_t end;
            if (tracerd__add64_overflows(r->rec_off, r->hdr.buffer_size, &end))
                return tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, r->rec_off,
                                          "NewBuffer: header buffer_size overflows the offset");
            r->buf_end = end;
            r->bounded = true;
            memset(&r->buf, 0, sizeof r->buf);
            r->buf.offset = r->rec_off;
            r->buf.size = r->hdr.buffer_size;
        }
        r->buf.tid = m.tid;
        r->cpu = 0;
        set_tsc(r, 0);
        r->buffer_reported = false;
        r->bstate = B_NEWBUF;
        break;
    case TRACERD_XRAY_META_END_OF_BUFFER:
        if (v >= 2)
            return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                      "EndOfBuffer: not valid in FDR version %u (v1 only)", v);
        if (r->bstate < B_NEWBUF)
            return order_error(r, "EndOfBuffer");
        push_pending(r);
        push_meta(r, &m);
        r->left = r->buf_end - (r->rec_off + META_BYTES); /* bounded checked the record */
        r->skip_total = r->left;
        r->skip_is_filler = true;
        r->state = S_SKIP;
        return TRACERD_OK;
    case TRACERD_XRAY_META_NEW_CPU:
        if (r->bstate == B_WALL || r->bstate == B_PID) {
            r->bstate = B_BODY;
            push_buffer_start(r);
        } else if (r->bstate != B_BODY) {
            return order_error(r, "NewCPUId");
        }
        m.cpu = tracerd__ld16(r->big, p + 1);
        m.tsc = tracerd__ld64(r->big, p + 3);
        r->cpu = m.cpu;
        set_tsc(r, m.tsc);
        break;
    case TRACERD_XRAY_META_TSC_WRAP:
        if (r->bstate != B_BODY)
            return order_error(r, "TSCWrap");
        m.tsc = tracerd__ld64(r->big, p + 1);
        set_tsc(r, m.tsc);
        break;
    case TRACERD_XRAY_META_WALLTIME:
        if (r->bstate != B_NEWBUF)
            return order_error(r, "WalltimeMarker");
        m.seconds = tracerd__ld64(r->big, p + 1);
        m.micros = tracerd__ld32(r->big, p + 9);
        r->buf.has_walltime = true;
        r->buf.wall_seconds = m.seconds;
        r->buf.wall_micros = m.micros;
        r->bstate = B_WALL;
        break;
    case TRACERD_XRAY_META_CUSTOM_EVENT:
        return event_marker(r, p, false);
    case TRACERD_XRAY_META_TYPED_EVENT:
        return event_marker(r, p, true);
    case TRACERD_XRAY_META_CALL_ARGUMENT:
        if (!r->pending)
            return tracerd__error_set(&r->core.err, TRACERD_E_ORDER, r->rec_off,
                                      "CallArgument: not after a function record or another "
                                      "CallArgument");
        if (r->pend.nargs >= r->cfg.max_args)
            return tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, r->rec_off,
                                      "CallArgument: more than max_args (%u) arguments",
                                      r->cfg.max_args);
        r->args[r->pend.nargs++] = tracerd__ld64(r->big, p + 1);
        return TRACERD_OK; /* delivered with its function */
    case TRACERD_XRAY_META_BUFFER_EXTENTS: {
        if (v < 2)
            return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                      "BufferExtents: not defined in FDR version 1");
        if (r->bstate != B_BETWEEN)
            return order_error(r, "BufferExtents");
        m.extent = tracerd__ld64(r->big, p + 1);
        uint64_t end;
        if (tracerd__add64_overflows(r->rec_off + META_BYTES, m.extent, &end))
            return tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, r->rec_off,
                                      "BufferExtents: extent %llu overflows the offset",
                                      (unsigned long long)m.extent);
        memset(&r->buf, 0, sizeof r->buf);
        r->buf.offset = r->rec_off;
        r->buf.size = m.extent;
        r->buf_end = end;
        r->bounded = true;
        r->bstate = B_EXTENTS;
        break;
    }
    case TRACERD_XRAY_META_PID:
        if (v < 3)
            return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                      "PIDEntry: not defined in FDR version %u (v3+)", v);
        if (r->bstate != B_WALL)
            return order_error(r, "PIDEntry");
        m.pid = (int32_t)tracerd__ld32(r->big, p + 1);
        r->buf.pid = m.pid;
        r->buf.has_pid = true;
        r->bstate = B_PID;
        break;
    default:
        return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                  "metadata record: kind %u is not defined (0-9)", kind);
    }
    push_meta(r, &m);
    return TRACERD_OK;
}

/* ---- basic mode --------------------------------------------------------------- */

static tracerd_status_t basic_record(tracerd_xray_reader_t *r, const uint8_t *p)
{
    uint16_t type = tracerd__ld16(r->big, p);
    if (type == 0) {
        unsigned kind = p[3];
        if (kind > 3)
            return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                      "basic function record: kind %u is not defined (0-3)", kind);
        tracerd_xray_function_t *f = &r->pend;
        f->offset = r->rec_off;
        f->kind = (tracerd_xray_kind_t)kind;
        f->cpu = p[2];
        f->function_id = (int32_t)tracerd__ld32(r->big, p + 4);
        f->tsc = tracerd__ld64(r->big, p + 8);
        f->ns = r->cfg.no_ns ? 0 : tracerd__tick_conv_ns(&r->conv, f->tsc);
        f->delta = 0;
        f->tid = (int32_t)tracerd__ld32(r->big, p + 16);
        f->pid = r->hdr.version >= 3 ? (int32_t)tracerd__ld32(r->big, p + 20) : 0;
        f->nargs = 0;
        f->args = NULL;
        r->pending = true;
        return TRACERD_OK;
    }
    if (type == 1) {
        int32_t fid = (int32_t)tracerd__ld32(r->big, p + 4);
        int32_t tid = (int32_t)tracerd__ld32(r->big, p + 8);
        if (!r->pending || r->pend.function_id != fid || r->pend.tid != tid)
            return tracerd__error_set(&r->core.err, TRACERD_E_ORDER, r->rec_off,
                                      "basic argument record: function %d thread %d does not "
                                      "follow a record of the same function and thread",
                                      fid, tid);
        if (r->pend.nargs >= r->cfg.max_args)
            return tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, r->rec_off,
                                      "basic argument record: more than max_args (%u)",
                                      r->cfg.max_args);
        r->args[r->pend.nargs++] = tracerd__ld64(r->big, p + 16);
        return TRACERD_OK;
    }
    return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                              "basic record: type %u is not defined (0 function, 1 argument)",
                              type);
}

/* ---- the state machine ---------------------------------------------------------- */

/* In lenient mode, turns an error inside a bounded v2+ buffer into a warning
 * and a skip to the buffer's end. Returns true when it did. */
static bool try_skip_buffer(tracerd_xray_reader_t *r, uint64_t cur)
{
    if (!r->cfg.lenient_skip_buffers || r->hdr.version < 2 || !r->bounded || cur > r->buf_end ||
        r->core.err.status == TRACERD_E_CALLBACK || r->core.err.status == TRACERD_E_NOMEM)
        return false;
    struct item it = {.kind = I_WARNING};
    tracerd__format(r->warn_reason, sizeof r->warn_reason,
                    "%s at byte %llu: %s; skipped the rest "
                    "of the buffer that starts at byte %llu",
                    tracerd_status_name(r->core.err.status), (unsigned long long)r->core.err.offset,
                    r->core.err.reason, (unsigned long long)r->buf.offset);
    it.u.warning =
        tracerd__warning(r->core.err.status, r->buf.offset, r->buf_end - cur, r->warn_reason);
    tracerd__error_clear(&r->core.err);
    tracerd__stitch_drop(&r->st);
    push_pending(r);
    push(r, &it);
    r->left = r->buf_end - cur;
    r->skip_total = r->left;
    r->skip_is_filler = false;
    r->state = S_SKIP;
    return true;
}

/* Deliver a metadata record or an event from inside the hot loop:
 * record_offset() must name that record, not the pending function. Return the
 * cb_result() code. */
static int fast_metadata(tracerd_xray_reader_t *r, const tracerd_xray_metadata_t *m)
{
    r->in_fast = false;
    r->rec_off = m->offset;
    int held = TRACERD__UNLIKELY(r->core.warn.pending) ? warn_flush(r) : 0; /* 1: paused */
    if (held < 0) {
        r->in_fast = true;
        return held;
    }
    int rc = r->cb.on_metadata(r->core.user, m);
    r->in_fast = true;
    int res = rc == TRACERD_CB_CONTINUE ? 0 : cb_result(r, rc, "on_metadata");
    return res != 0 ? res : held;
}

static int fast_event(tracerd_xray_reader_t *r, const tracerd_xray_event_t *e)
{
    r->in_fast = false;
    r->rec_off = e->offset;
    int held = TRACERD__UNLIKELY(r->core.warn.pending) ? warn_flush(r) : 0; /* 1: paused */
    if (held < 0) {
        r->in_fast = true;
        return held;
    }
    int rc = r->cb.on_event(r->core.user, e);
    r->in_fast = true;
    int res = rc == TRACERD_CB_CONTINUE ? 0 : cb_result(r, rc, "on_event");
    return res != 0 ? res : held;
}

/* Decodes the function record at p into *f; false (and nothing changed) when
 * its kind is undefined, which the general path reports. */
/* The record at p whose first word w is a function record of a defined kind
 * (fast_function's test passed), decoded into f; its ns 0 unless `ns`. */
static TRACERD__INLINE void fast_function_w(const struct tracerd__tick_conv *conv,
                                            tracerd_xray_function_t *f, uint32_t w,
                                            const uint8_t *p, uint64_t off_base, uint64_t *tsc,
                                            const bool big, const bool ns)
{
    unsigned kind = big ? (w >> 28) & 3u : (w >> 1) & 3u;
    uint32_t delta = big ? tracerd__be32(p + 4) : tracerd__le32(p + 4);
    uint64_t t = *tsc + delta;
    *tsc = t;
    f->offset = off_base + (uint64_t)(uintptr_t)p;
    f->kind = (tracerd_xray_kind_t)kind;
    f->function_id = (int32_t)(big ? (w & 0x0fffffffu) : (w >> 4));
    f->tsc = t;
    f->ns = ns ? tracerd__tick_conv_ns(conv, t) : 0;
    f->delta = delta;
    f->nargs = 0;
}

/* A function record (its first byte's metadata bit clear) at p decoded into
 * f: false, nothing changed, when its kind is not defined (4-7: the kind
 * field's top bit set). */
static TRACERD__INLINE bool fast_function(const struct tracerd__tick_conv *conv,
                                          tracerd_xray_function_t *f, const uint8_t *p,
                                          uint64_t off_base, uint64_t *tsc, const bool big,
                                          const bool ns)
{
    uint32_t w = big ? tracerd__be32(p) : tracerd__le32(p);
    if (TRACERD__UNLIKELY(w & (big ? 0x40000000u : 0x8u)))
        return false;
    fast_function_w(conv, f, w, p, off_base, tsc, big, ns);
    return true;
}

/* A function record on the general path: the hot loop's decoding
 * (fast_function), then what the loop sets once per buffer. */
static tracerd_status_t function_record(tracerd_xray_reader_t *r, const uint8_t *p)
{
    uint64_t tsc = r->tsc;
    const uint64_t off_base = r->rec_off - (uint64_t)(uintptr_t)p;
    tracerd_xray_function_t *f = &r->pend;
    bool ns = !r->cfg.no_ns;
    bool ok = r->big ? fast_function(&r->conv, f, p, off_base, &tsc, true, ns)
                     : fast_function(&r->conv, f, p, off_base, &tsc, false, ns);
    if (!ok) {
        uint32_t w = tracerd__ld32(r->big, p);
        return tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->rec_off,
                                  "function record: kind %u is not defined (0-3)",
                                  r->big ? (w >> 28) & 7u : (w >> 1) & 7u);
    }
    if (r->bstate != B_BODY)
        return order_error(r, "function");
    r->tsc = tsc;
    f->tid = r->buf.tid;
    f->pid = r->buf.pid;
    f->cpu = r->cpu;
    f->args = NULL;
    r->pending = true;
    return TRACERD_OK;
}

/* on_functions: delivers the complete records fb[0..n-1] from inside the hot
 * loop (record_offset() names the last). Returns the cb_result() code. */
static TRACERD__NOINLINE int batch_deliver(tracerd_xray_reader_t *r, size_t n)
{
    r->in_fast = false;
    r->rec_off = r->fb[n - 1].offset;
    int rc = r->cb.on_functions(r->core.user, r->fb, n);
    r->in_fast = true;
    return rc == TRACERD_CB_CONTINUE ? 0 : cb_result(r, rc, "on_functions");
}

/* How the hot loop hands out function records: not at all (a validator),
 * one per on_function call, or in runs to on_functions. */
enum fmode { M_NONE, M_ONE, M_BATCH };

/* Hot loop: the body of a buffer lying wholly in the chunk. Function records,
 * CallArguments, NewCPUId, TSCWrap and custom/typed events whose payload is in
 * the chunk and within the stitch bound are handled here; every other record,
 * every error and any record straddling chunks take the general state machine.
 * `big` and `mode` are constants at each call site, and the function is
 * always inlined, so each gets its own copy.
 *
 * The record decoded last is pending: CallArguments may follow it. With
 * M_ONE it is r->pend, delivered when the next record (not a CallArgument)
 * is seen. With M_BATCH the decoded records fb[0..nb-1] wait (the held run
 * fb[0..r->nh-1] first), the last one pending; they are delivered in one
 * call when the batch is full and before a metadata record or event; at the
 * loop's end they stay held (r->nh), the pending one moves to r->pend for
 * the general path, which ends the run at the same records (joins_run).
 * Arguments are read into r->args, so a batch holds at most one record with
 * arguments: the records before a record's first argument are delivered
 * first. */
static TRACERD__INLINE const uint8_t *fast_body_order(tracerd_xray_reader_t *r, const uint8_t *pos,
                                                      const uint8_t *lim, uint64_t pos_offset,
                                                      int *res, const bool big,
                                                      const enum fmode mode, const bool ticks)
{
    const bool has_cb = mode != M_NONE, batch = mode == M_BATCH;
    const bool ns = has_cb && !ticks; /* the records' ns (no_ns: ticks only) */
    const tracerd_xray_function_cb cb = r->cb.on_function;
    const uint8_t meta_bit = big ? 0x80u : 0x01u;
    /* offset of pos = off_base + pos (mod 2^64): one register instead of two */
    const uint64_t off_base = pos_offset - (uint64_t)(uintptr_t)pos;
    uint64_t tsc = r->tsc;
    tracerd_xray_function_t *f = &r->pend;
    tracerd_xray_function_t *const fb = r->fb;
    bool pending = r->pending; /* M_BATCH: fb[nb - 1] is pending */
    size_t nb = 0;
    const int32_t tid = r->buf.tid, pid = r->buf.pid;
    uint16_t cpu = r->cpu;
    const unsigned version = r->hdr.version;
    /* a copy the stores into records cannot alias */
    const struct tracerd__tick_conv conv = r->conv;
    int rc = TRACERD_CB_CONTINUE;
    *res = 0;
    if (lim - pos < (ptrdiff_t)FUNC_BYTES)
        return pos;
    if (batch) {
        batch_fill(r, tid, pid, cpu); /* the held run's records share them */
        nb = r->nh;
        if (pending) {
            fb[nb] = r->pend;
            f = &fb[nb++];
        }
    }
    r->core.in_cb = true; /* only callbacks run inside this loop */
    r->in_fast = true;
    const uint8_t *const last = lim - FUNC_BYTES;
    while (pos <= last) {
        if (TRACERD__UNLIKELY(pos[0] & meta_bit)) {
            unsigned mk = big ? (pos[0] & 0x7fu) : (unsigned)(pos[0] >> 1);
            if (lim - pos < (ptrdiff_t)META_BYTES)
                break;
            if (mk == TRACERD_XRAY_META_CALL_ARGUMENT) {
                if (!pending || f->nargs >= r->cfg.max_args)
                    break;
                if (batch && f->nargs == 0 && nb > 1) {
                    /* r->args may hold an earlier record's arguments */
                    *res = batch_deliver(r, nb - 1);
                    fb[0] = fb[nb - 1];
                    f = &fb[0];
                    nb = 1;
                    if (*res != 0)
                        break;
                }
                r->args[f->nargs++] = big ? tracerd__be64(pos + 1) : tracerd__le64(pos + 1);
                pos += META_BYTES;
                continue;
            }
            const bool event =
                mk == TRACERD_XRAY_META_CUSTOM_EVENT || mk == TRACERD_XRAY_META_TYPED_EVENT;
            uint32_t size = 0;
            if (event) {
                /* Only FDR v5's form; a bad size or a payload beyond the chunk,
                 * the buffer or the stitch bound goes the general way. */
                size = big ? tracerd__be32(pos + 1) : tracerd__le32(pos + 1);
                if (version != 5 || size == 0 || size > 0x7fffffffu ||
                    size > r->cfg.max_event_bytes || size > r->st.cap ||
                    (uint64_t)(lim - pos) - META_BYTES < size)
                    break;
            } else if (mk != TRACERD_XRAY_META_NEW_CPU && mk != TRACERD_XRAY_META_TSC_WRAP) {
                break;
            }
            /* Any record but a CallArgument delivers the pending function first. */
            if (batch && nb != 0) {
                *res = batch_deliver(r, nb);
                nb = 0;
                pending = false;
                if (*res != 0)
                    break;
            } else if (pending && has_cb) {
                rc = cb(r->core.user, f);
                if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE))
                    goto cb_stop;
            }
            pending = false;
            const uint64_t at = off_base + (uint64_t)(uintptr_t)pos;
            if (event) {
                int32_t d = (int32_t)(big ? tracerd__be32(pos + 5) : tracerd__le32(pos + 5));
                tsc = d >= 0 ? tsc + (uint32_t)d : tsc - (uint64_t)(-(int64_t)d);
                const bool typed = mk == TRACERD_XRAY_META_TYPED_EVENT;
                tracerd_xray_event_t e = {
                    .offset = at,
                    .typed = typed,
                    .event_type =
                        typed ? (big ? tracerd__be16(pos + 9) : tracerd__le16(pos + 9)) : 0,
                    .tsc = tsc,
                    .ns = tracerd__tick_conv_ns(&conv, tsc),
                    .tid = tid,
                    .pid = pid,
                    .cpu = cpu,
                    .size = size,
                    .payload = {pos + META_BYTES, size}};
                pos += META_BYTES + size;
                if (r->cb.on_event != NULL && (*res = fast_event(r, &e)) != 0)
                    break;
                continue;
            }
            tracerd_xray_metadata_t m = {.offset = at, .kind = (tracerd_xray_meta_kind_t)mk};
            if (mk == TRACERD_XRAY_META_NEW_CPU) {
                r->cpu = r->pend.cpu = cpu = m.cpu =
                    big ? tracerd__be16(pos + 1) : tracerd__le16(pos + 1);
                tsc = m.tsc = big ? tracerd__be64(pos + 3) : tracerd__le64(pos + 3);
                if (batch)
                    batch_fill(r, tid, pid, cpu); /* the batch is empty */
            } else {
                tsc = m.tsc = big ? tracerd__be64(pos + 1) : tracerd__le64(pos + 1);
            }
            pos += META_BYTES;
            if (r->cb.on_metadata != NULL && (*res = fast_metadata(r, &m)) != 0)
                break;
            continue;
        }
        if (batch) {
            /* Function records: the batch's records are complete. q is the
             * next free slot. */
            tracerd_xray_function_t *q = fb + nb, *first = q;
            /* the first word's metadata bit (byte 0's) and the kind
             * field's top bit: either ends the run */
            const uint32_t not_run = big ? 0xc0000000u : 0x9u;
            do {
                if (TRACERD__UNLIKELY(q == fb + BATCH)) {
                    *res = batch_deliver(r, BATCH);
                    q = first = fb;
                    if (*res != 0)
                        break;
                }
                /* the records that fit both the batch and the chunk, with
                 * one test of each record's first word */
                size_t room = (size_t)(fb + BATCH - q);
                size_t left = (size_t)(last - pos) / FUNC_BYTES + 1;
                const uint8_t *const stop = pos + FUNC_BYTES * (room < left ? room : left);
                do {
                    uint32_t w = big ? tracerd__be32(pos) : tracerd__le32(pos);
                    if (TRACERD__UNLIKELY(w & not_run))
                        break;
                    fast_function_w(&conv, q, w, pos, off_base, &tsc, big, ns);
                    q++;
                    pos += FUNC_BYTES;
                } while (pos != stop);
            } while (pos <= last && TRACERD__LIKELY(!(pos[0] & meta_bit)) &&
                     TRACERD__LIKELY(q == fb + BATCH));
            nb = (size_t)(q - fb);
            /* the last record decoded is pending (none decoded: as before,
             * unless a full run went) */
            pending = q != first || (pending && nb != 0);
            if (pending)
                f = q - 1;
            if (*res != 0 || (pos <= last && !(pos[0] & meta_bit)))
                break; /* paused, failed, or a record the general path reports */
            continue;
        }
        /* A function record: deliver the previous one first (it has all its
         * arguments now), so nothing decoded here lives across the call. */
        if (TRACERD__LIKELY(pending) && has_cb) {
            rc = cb(r->core.user, f); /* in_cb and in_fast are set around the loop */
            if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE))
                goto cb_stop;
        }
        pending = false;
        if (TRACERD__UNLIKELY(!fast_function(&conv, f, pos, off_base, &tsc, big, ns)))
            break;
        pending = true;
        pos += FUNC_BYTES;
        /* The common run, function records after a function record: a record
         * is known to be pending, so this loop has no test for it. */
        while (pos <= last && TRACERD__LIKELY(!(pos[0] & meta_bit))) {
            if (has_cb) {
                rc = cb(r->core.user, f);
                if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE))
                    goto cb_stop;
            }
            if (TRACERD__UNLIKELY(!fast_function(&conv, f, pos, off_base, &tsc, big, ns))) {
                pending = false;
                goto out;
            }
            pos += FUNC_BYTES;
        }
    }
    goto out;
cb_stop: /* on_function asked to pause or stop: f was delivered */
    r->in_fast = false;
    r->rec_off = f->offset;
    *res = cb_result(r, rc, "on_function");
    pending = false;
out:
    if (batch) {
        /* The run is held (it ends where the trace says, not where the
         * chunk does); the pending record waits in r->pend for its
         * arguments. */
        r->nh = pending ? nb - 1 : nb;
        if (pending)
            r->pend = fb[nb - 1];
    }
    r->core.in_cb = false;
    r->in_fast = false;
    r->pending = pending;
    r->tsc = tsc;
    return pos;
}

/* on_functions, the general path: whether the record starting with byte b0 at
 * `at` keeps the held run open, as in the hot loop: a function record the
 * reader will take (a defined kind, inside the buffer, which is in its body;
 * the run was not full: a full one has gone), or a CallArgument after the
 * pending record's first (its first delivers the run: the argument area
 * holds one record's arguments). Anything else ends the run before it is
 * read, also a record that is an error. */
static bool joins_run(const tracerd_xray_reader_t *r, uint8_t b0, bool call_arg, uint64_t at)
{
    if (call_arg)
        return r->pending && r->pend.nargs != 0;
    return !is_meta(r, b0) && !(b0 & (r->big ? 0x40u : 0x08u)) && r->bstate == B_BODY &&
           !(r->bounded && at + FUNC_BYTES > r->buf_end);
}

/* One out-of-line copy per byte order, per way of delivering function
 * records and with or without their ns (no_ns), so that each loop has the
 * registers to itself and no test of any inside. */
#define FAST_BODY(name, big, mode, ticks)                                                          \
    static TRACERD__NOINLINE const uint8_t *name(tracerd_xray_reader_t *r, const uint8_t *pos,     \
                                                 const uint8_t *lim, uint64_t at, int *res)        \
    {                                                                                              \
        return fast_body_order(r, pos, lim, at, res, big, mode, ticks);                            \
    }
FAST_BODY(fast_body_le, false, M_ONE, false)
FAST_BODY(fast_body_be, true, M_ONE, false)
FAST_BODY(fast_body_le_batch, false, M_BATCH, false)
FAST_BODY(fast_body_be_batch, true, M_BATCH, false)
FAST_BODY(fast_body_le_ticks, false, M_ONE, true)
FAST_BODY(fast_body_be_ticks, true, M_ONE, true)
FAST_BODY(fast_body_le_batch_ticks, false, M_BATCH, true)
FAST_BODY(fast_body_be_batch_ticks, true, M_BATCH, true)
FAST_BODY(fast_body_le_nocb, false, M_NONE, false)
FAST_BODY(fast_body_be_nocb, true, M_NONE, false)
#undef FAST_BODY

static const uint8_t *fast_functions(tracerd_xray_reader_t *r, const uint8_t *pos,
                                     const uint8_t *end, uint64_t base, const uint8_t *data,
                                     int *res)
{
    uint64_t at = base + (uint64_t)(pos - data);
    const uint8_t *lim = end;
    if (r->bounded && r->buf_end - at < (uint64_t)(end - pos))
        lim = pos + (r->buf_end - at);
    /* Thread, process and CPU change only through metadata records. */
    r->pend.tid = r->buf.tid;
    r->pend.pid = r->buf.pid;
    r->pend.cpu = r->cpu;
    r->pend.args = r->args;
    if (r->cb.on_functions != NULL && r->cfg.no_ns)
        return r->big ? fast_body_be_batch_ticks(r, pos, lim, at, res)
                      : fast_body_le_batch_ticks(r, pos, lim, at, res);
    if (r->cb.on_functions != NULL)
        return r->big ? fast_body_be_batch(r, pos, lim, at, res)
                      : fast_body_le_batch(r, pos, lim, at, res);
    if (r->cb.on_function != NULL && r->cfg.no_ns)
        return r->big ? fast_body_be_ticks(r, pos, lim, at, res)
                      : fast_body_le_ticks(r, pos, lim, at, res);
    if (r->cb.on_function != NULL)
        return r->big ? fast_body_be(r, pos, lim, at, res) : fast_body_le(r, pos, lim, at, res);
    return r->big ? fast_body_be_nocb(r, pos, lim, at, res)
                  : fast_body_le_nocb(r, pos, lim, at, res);
}

tracerd_status_t tracerd_xray_feed(tracerd_xray_reader_t *r, const void *data_, size_t len,
                                   size_t *consumed)
{
    const uint8_t *data = data_, *pos = data, *end = data + len;
    size_t dummy;
    if (consumed == NULL)
        consumed = &dummy;
    *consumed = 0;
    tracerd_status_t st = tracerd__feed_guard(r != NULL ? &r->core : NULL, data, len);
    if (st != TRACERD_OK)
        return st;
    if (r->state == S_DONE)
        return TRACERD_E_INVALID;
    const uint64_t base = r->offset;
#define CUR() (base + (uint64_t)(pos - data))
    int res = 0;

    for (;;) {
        if (r->qlen != 0 && (res = drain(r)) != 0)
            goto out;
        switch (r->state) {
        case S_HEADER: {
            const uint8_t *h = tracerd__gather(&r->st, &pos, end, HEADER_BYTES);
            if (h == NULL)
                goto out;
            r->rec_off = 0;
            if ((st = parse_header(r, h)) != TRACERD_OK)
                goto fail; /* no buffer to skip yet */
            r->state = r->hdr.type == TRACERD_XRAY_TYPE_FDR ? S_RECORD : S_BASIC;
            if (r->cb.on_header) {
                r->core.in_cb = true;
                if ((res = cb_result(r, r->cb.on_header(r->core.user, &r->hdr), "on_header")) != 0)
                    goto out;
            }
            break;
        }
        case S_RECORD: {
            if (r->bounded && r->bstate != B_BETWEEN && CUR() == r->buf_end && r->st.have == 0) {
                close_buffer(r, r->buf_end, 0);
                break;
            }
            if (r->bstate == B_BODY && r->qlen == 0 && r->st.have == 0) {
                const uint8_t *was = pos;
                pos = fast_functions(r, pos, end, base, data, &res);
                if (res != 0)
                    goto out;
                if (pos != was)
                    break; /* recheck the buffer end */
            }
            if (pos == end)
                goto out;
            uint8_t b0 = r->st.have ? r->st.buf[0] : pos[0];
            bool meta = is_meta(r, b0);
            bool call_arg = meta && meta_kind(r, b0) == TRACERD_XRAY_META_CALL_ARGUMENT;
            if (r->pending && !call_arg) {
                push_pending(r);
                break;
            }
            size_t need = meta ? META_BYTES : FUNC_BYTES;
            if (r->nh != 0 && !joins_run(r, b0, call_arg, CUR() - r->st.have)) {
                if ((res = run_flush(r)) != 0)
                    goto out;
                break;
            }
            r->rec_off = CUR() - r->st.have;
            if (r->bounded && r->rec_off + need > r->buf_end) {
                tracerd__error_set(&r->core.err, TRACERD_E_EXTENT, r->rec_off,
                                   "%s record (%zu bytes) runs past the buffer extent (ends at "
                                   "%llu)",
                                   meta ? "metadata" : "function", need,
                                   (unsigned long long)r->buf_end);
                st = TRACERD_E_EXTENT;
                break;
            }
            if (r->bstate == B_BETWEEN && r->hdr.version >= 2 &&
                !(meta && meta_kind(r, b0) == TRACERD_XRAY_META_BUFFER_EXTENTS)) {
                st = order_error(r, meta ? "metadata" : "function");
                break;
            }
            const uint8_t *p = tracerd__gather(&r->st, &pos, end, need);
            if (p == NULL)
                goto out;
            st = meta ? metadata_record(r, p) : function_record(r, p);
            break;
        }
        case S_PAYLOAD: {
            const uint8_t *p = tracerd__gather(&r->st, &pos, end, (size_t)r->left);
            if (p == NULL)
                goto out;
            r->state = S_RECORD;
            r->rec_off = r->ev.offset;
            if (r->cb.on_event) {
                r->ev.payload.data = p;
                r->ev.payload.len = r->ev.size;
                r->core.in_cb = true;
                if ((res = cb_result(r, r->cb.on_event(r->core.user, &r->ev), "on_event")) != 0)
                    goto out;
            }
            break;
        }
        case S_FRAGMENTS: {
            if (!r->frag_header_sent) {
                r->frag_header_sent = true;
                if (r->cb.on_event) {
                    r->rec_off = r->ev.offset;
                    r->ev.payload.data = NULL;
                    r->ev.payload.len = 0;
                    r->core.in_cb = true;
                    if ((res = cb_result(r, r->cb.on_event(r->core.user, &r->ev), "on_event")) != 0)
                        goto out;
                }
            }
            if (pos == end)
                goto out;
            size_t take = (uint64_t)(end - pos) < r->left ? (size_t)(end - pos) : (size_t)r->left;
            tracerd_span_t sp = {.field = r->ev.typed ? TRACERD_XRAY_FIELD_TYPED_PAYLOAD
                                                      : TRACERD_XRAY_FIELD_CUSTOM_PAYLOAD,
                                 .index = r->ev.event_type,
                                 .record_offset = r->ev.offset,
                                 .offset = r->frag_done,
                                 .total = r->ev.size,
                                 .data = pos,
                                 .len = take};
            pos += take;
            r->left -= take;
            r->frag_done += take;
            if (r->left == 0)
                r->state = S_RECORD;
            if (r->cb.on_event_fragment) {
                r->rec_off = r->ev.offset;
                r->core.in_cb = true;
                if ((res = cb_result(r, r->cb.on_event_fragment(r->core.user, &sp),
                                     "on_event_fragment")) != 0)
                    goto out;
            }
            break;
        }
        case S_SKIP: {
            size_t take = (uint64_t)(end - pos) < r->left ? (size_t)(end - pos) : (size_t)r->left;
            pos += take;
            r->left -= take;
            if (r->left != 0)
                goto out;
            r->state = S_RECORD;
            close_buffer(r, CUR(), r->skip_is_filler ? r->skip_total : 0);
            break;
        }
        case S_BASIC: {
            if (pos == end)
                goto out;
            r->rec_off = CUR() - r->st.have;
            const uint8_t *p = tracerd__gather(&r->st, &pos, end, BASIC_BYTES);
            if (p == NULL)
                goto out;
            /* A function record waits for its argument records; anything else delivers it. */
            if (r->pending && tracerd__ld16(r->big, p) != 1)
                push_pending(r);
            st = basic_record(r, p);
            break;
        }
        case S_DONE:
            goto out;
        }
        if (TRACERD__UNLIKELY(st != TRACERD_OK)) {
            if (r->state == S_BASIC || !try_skip_buffer(r, CUR()))
                goto fail;
            st = TRACERD_OK; /* lenient: the queue holds the warning, then the skip */
        }
    }
fail:
    r->offset = CUR();
    *consumed = (size_t)(pos - data);
    return st;
out:
    r->offset = CUR();
    *consumed = (size_t)(pos - data);
    return res != 0 ? tracerd__reader_status(&r->core) : TRACERD_OK;
#undef CUR
}

tracerd_status_t tracerd_xray_resume(tracerd_xray_reader_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

static tracerd_status_t finish(tracerd_xray_reader_t *r);

tracerd_status_t tracerd_xray_finish(tracerd_xray_reader_t *r)
{
    tracerd_status_t st = finish(r);
    return r != NULL ? tracerd__warn_at_error(&r->core, r->cb.on_warning, st) : st;
}

static tracerd_status_t finish(tracerd_xray_reader_t *r)
{
    tracerd_status_t st = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (st != TRACERD_OK)
        return st;
    int res;
    if (r->state == S_DONE) { /* called again after a pause: deliver the rest */
        if ((r->qlen != 0 && (res = drain(r)) != 0) || (res = warn_flush(r)) != 0)
            return tracerd__reader_status(&r->core);
        return TRACERD_OK;
    }
    if (r->qlen != 0 && (res = drain(r)) != 0)
        return tracerd__reader_status(&r->core);
    uint64_t at = r->offset - r->st.have;
    switch (r->state) {
    case S_HEADER:
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, 0,
                                  "file header: input ended after %zu of 32 bytes", r->st.have);
    case S_PAYLOAD:
    case S_FRAGMENTS:
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->ev.offset,
                                  "%s: input ended inside its %u-byte payload",
                                  r->ev.typed ? "TypedEventMarker" : "CustomEventMarker",
                                  r->ev.size);
    case S_SKIP:
        if (!r->skip_is_filler && r->left != 0)
            return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->buf.offset,
                                      "buffer: input ended inside its extent (%llu bytes "
                                      "missing)",
                                      (unsigned long long)r->left);
        /* v1 filler cut short at the end of the file carries no data. */
        r->state = S_RECORD;
        close_buffer(r, r->offset, r->skip_is_filler ? r->skip_total - r->left : 0);
        break;
    case S_BASIC:
        if (r->st.have != 0)
            return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, at,
                                      "basic record: input ended after %zu of 32 bytes",
                                      r->st.have);
        push_pending(r);
        break;
    case S_RECORD: {
        bool cut =
            r->bounded && r->hdr.version >= 2 && r->bstate != B_BETWEEN && r->offset < r->buf_end;
        /* An error ends the held run first (its records are complete; the
         * pending one is not delivered, as with on_function). */
        if ((r->st.have != 0 || cut) && (res = run_flush(r)) != 0)
            return tracerd__reader_status(&r->core);
        if (r->st.have != 0)
            return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, at,
                                      "%s record: input ended after %zu of %u bytes",
                                      is_meta(r, r->st.buf[0]) ? "metadata" : "function",
                                      r->st.have, is_meta(r, r->st.buf[0]) ? 16u : 8u);
        if (cut)
            return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->buf.offset,
                                      "buffer: input ended %llu bytes before the end of its "
                                      "extent",
                                      (unsigned long long)(r->buf_end - r->offset));
        if (r->bstate != B_BETWEEN)
            close_buffer(r, r->offset, 0);
        break;
    }
    case S_DONE:
        break;
    }
    r->state = S_DONE;
    if ((r->qlen != 0 && (res = drain(r)) != 0) || (res = warn_flush(r)) != 0)
        return tracerd__reader_status(&r->core);
    return TRACERD_OK;
}

TRACERD__SIZED_INIT(tracerd_xray_callbacks_init, tracerd_xray_callbacks_t, NULL)
