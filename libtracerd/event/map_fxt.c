/* Fuchsia FXT onto events. Detection: the magic number record
 * (0x0016547846040010 as the first word, in either byte order).
 *
 * Mapping:
 *   event records    instant, counter, duration begin/end/complete, async
 *                    begin/instant/end, flow begin/step/end -> the event kind
 *                    of the same meaning, with category, name, thread, id and
 *                    every argument typed;
 *   kernel objects   process -> PROCESS_NAME (pid = koid), thread ->
 *                    THREAD_NAME (tid = koid, pid from its "process" koid
 *                    argument); other object types carry no timeline meaning
 *                    and are left out;
 *   scheduling       context switch (both record layouts) -> CONTEXT_SWITCH
 *                    (tid outgoing, other_tid incoming, level = outgoing
 *                    state), thread wakeup -> WAKEUP (tid and other_tid = the
 *                    woken thread);
 *   log              -> LOG (message);
 *   blob, large blob -> BLOB (argument "data" = the payload; large blobs
 *                    above the stitch bound arrive without it, TRUNCATED);
 *                    records without a timestamp carry NO_TIME;
 *   userspace object -> MARK, NO_TIME, argument "pointer" and its arguments;
 *   metadata, initialization, string and thread records feed the reader's
 *   tables (and the clock rate, reported through on_source) and are not
 *   events themselves; unknown types are skipped by the reader. */
#include "event_internal.h"
#include "fxt_meaning.h"

#include <tracerd/fxt.h>

#define FMAP_VERDICTS 256u

struct fmap {
    tracerd_auto_reader_t *a;
    tracerd_fxt_reader_t *rd;
    const tracerd_allocator_t *alloc;
    bool filtering; /* the config has a filter */
    bool no_args;   /* tracerd_auto_config_t.no_args: the FXT arguments are not mapped */
    bool source_sent;
    /* The event on_event_head made of the record at offset held
     * (UINT64_MAX: none), for on_event to finish; held_pass: it passed
     * every test already. */
    uint64_t held;
    bool held_pass;
    tracerd_event_t ev;
    /* The filter's name and category tests by string references (a string
     * from the table is a function of its index until a string record
     * gives the index another): key provider << 32 | category_ref << 16 |
     * name_ref, verdict 0 none, 1 fails, 2 passes; direct-mapped. used:
     * the indices in some key, so that a string record forgets the
     * verdicts only when it redefines one of them. */
    uint64_t vkey[FMAP_VERDICTS];
    uint8_t verdict[FMAP_VERDICTS];
    uint64_t used[32768u / 64u];
};

static int send_source(struct fmap *m, uint64_t ticks_per_second)
{
    if (m->source_sent)
        return TRACERD_CB_CONTINUE;
    m->source_sent = true;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    src.byte_order = tracerd_fxt_byte_order(m->rd);
    src.ticks_per_second = ticks_per_second;
    return tracerd__auto_source(m->a, &src);
}

/* Emits ev after the source line (a pause or abort from either is returned). */
/* Emits ev after the source; pre is tracerd__auto_prefilter's result (1:
 * it passed the filter already, 2: not tested yet), or 0 with pre_rc its
 * callback result (the event is left out). */
static int emit_pre(struct fmap *m, tracerd_event_t *ev, int pre, int pre_rc)
{
    int rc = send_source(m, 0);
    if (rc < 0)
        return rc;
    int erc = pre == 0   ? pre_rc
              : pre == 1 ? tracerd__auto_deliver(m->a, ev)
                         : tracerd__auto_emit(m->a, ev);
    if (rc != TRACERD_CB_CONTINUE)
        return erc < 0 ? -1 : TRACERD_CB_PAUSE;
    return erc;
}

static int emit(struct fmap *m, tracerd_event_t *ev)
{
    return emit_pre(m, ev, 2, 0);
}

/* Converts nargs FXT arguments into the auto reader's scratch array. */
static void map_args(struct fmap *m, tracerd_event_t *ev, const tracerd_fxt_arg_t *in,
                     uint32_t nargs, uint32_t first)
{
    if (m->no_args)
        return;
    uint32_t cap;
    tracerd_event_arg_t *out = tracerd__auto_args(m->a, &cap);
    uint32_t n = first;
    for (uint32_t i = 0; i < nargs; i++) {
        if (n >= cap) {
            ev->flags |= TRACERD_EVENT_TRUNCATED;
            break;
        }
        const tracerd_fxt_arg_t *a = &in[i];
        tracerd_event_arg_t *o = &out[n++];
        memset(o, 0, sizeof *o);
        o->name = a->name;
        switch (a->type) {
        case TRACERD_FXT_ARG_NULL:
            o->type = TRACERD_EVENT_ARG_NULL;
            break;
        case TRACERD_FXT_ARG_INT32:
        case TRACERD_FXT_ARG_INT64:
            o->type = TRACERD_EVENT_ARG_INT;
            o->v.i = a->v.i64;
            break;
        case TRACERD_FXT_ARG_UINT32:
        case TRACERD_FXT_ARG_UINT64:
            o->type = TRACERD_EVENT_ARG_UINT;
            o->v.u = a->v.u64;
            break;
        case TRACERD_FXT_ARG_DOUBLE:
            o->type = TRACERD_EVENT_ARG_DOUBLE;
            o->v.d = a->v.f64;
            break;
        case TRACERD_FXT_ARG_STRING:
            o->type = TRACERD_EVENT_ARG_STRING;
            o->v.str = a->v.str;
            break;
        case TRACERD_FXT_ARG_POINTER:
            o->type = TRACERD_EVENT_ARG_POINTER;
            o->v.u = a->v.u64;
            break;
        case TRACERD_FXT_ARG_KOID:
            o->type = TRACERD_EVENT_ARG_KOID;
            o->v.u = a->v.u64;
            break;
        case TRACERD_FXT_ARG_BOOL:
            o->type = TRACERD_EVENT_ARG_BOOL;
            o->v.b = a->v.u64 != 0;
            break;
        default: /* BLOB, and unknown types: their bytes */
            o->type = TRACERD_EVENT_ARG_BYTES;
            o->v.bytes = a->v.blob;
            break;
        }
    }
    ev->args = out;
    ev->nargs = n;
}

static int on_init(void *user, const tracerd_fxt_init_t *i)
{
    return send_source(user, i->ticks_per_second);
}

/* The event of an FXT event record's head (what on_event_head has). */
static void event_head(tracerd_event_t *ev, const tracerd_fxt_event_t *e)
{
    ev->offset = e->offset;
    ev->kind = fxt_event_kind(e->type);
    ev->ticks = e->ticks;
    ev->ns = e->ns;
    ev->flags = TRACERD_EVENT_HAS_NS;
    fxt_thread(ev, &e->thread);
    ev->category = e->category;
    ev->name = e->name;
}

/* ... and the words after its arguments. */
static void event_tail(tracerd_event_t *ev, const tracerd_fxt_event_t *e)
{
    if (e->type == TRACERD_FXT_EVENT_COUNTER || e->type >= TRACERD_FXT_EVENT_ASYNC_BEGIN) {
        ev->id = e->id;
        ev->flags |= TRACERD_EVENT_HAS_ID;
    }
    if (e->type == TRACERD_FXT_EVENT_DURATION_COMPLETE) {
        ev->end_ticks = e->end_ticks;
        ev->end_ns = e->end_ns;
    }
}

/* The filter's name and category tests for event record e, remembered by
 * its string references when both come from the string table. */
static bool names_pass(struct fmap *m, const tracerd_fxt_event_t *e)
{
    const tracerd_event_filter_t *f = tracerd__auto_filter(m->a);
    if ((e->name_ref | e->category_ref) & 0x8000u) /* inline: no index */
        return tracerd__event_filter_names(f, e->name, e->category);
    uint64_t key = (uint64_t)e->provider_id << 32 | (uint64_t)e->category_ref << 16 | e->name_ref;
    uint32_t slot = (e->name_ref ^ (uint32_t)e->category_ref * 97u) % FMAP_VERDICTS;
    if (m->vkey[slot] == key && m->verdict[slot] != 0)
        return m->verdict[slot] == 2;
    bool pass = tracerd__event_filter_names(f, e->name, e->category);
    m->vkey[slot] = key;
    m->verdict[slot] = pass ? 2 : 1;
    m->used[e->name_ref / 64u] |= 1ull << (e->name_ref % 64u);
    m->used[e->category_ref / 64u] |= 1ull << (e->category_ref % 64u);
    return pass;
}

/* A string record: the verdicts go when it redefines an index they use. */
static int on_string(void *user, const tracerd_fxt_string_t *s)
{
    struct fmap *m = user;
    if (m->used[s->index / 64u] & (1ull << (s->index % 64u))) {
        memset(m->verdict, 0, sizeof m->verdict);
        memset(m->used, 0, sizeof m->used);
    }
    return TRACERD_CB_CONTINUE;
}

/* An event record before its arguments are decoded (only with a filter):
 * left out when the filter rejects it, else its event is kept for
 * on_event, with the verdict: passed, or (a complete span: its end time,
 * which a time range tests, is not decoded yet) to test again. */
static int on_event_head(void *user, const tracerd_fxt_event_t *e)
{
    struct fmap *m = user;
    if (!m->source_sent || (unsigned)e->type >= FXT_EVENT_TYPES)
        return TRACERD_CB_CONTINUE; /* on_event decides (it sends the source first) */
    tracerd_event_t *ev = &m->ev;
    *ev = tracerd__event_zero;
    event_head(ev, e);
    bool complete = e->type == TRACERD_FXT_EVENT_DURATION_COMPLETE;
    if (complete) /* an end not known yet: one that no time range rejects */
        ev->end_ticks = ev->end_ns = UINT64_MAX;
    int rc = TRACERD_CB_CONTINUE;
    int pre = tracerd__auto_prefilter(m->a, ev, TRACERD__KNOW_IDS, &rc);
    if (pre == 2) /* the names decide: the other tests passed */
        pre = names_pass(m, e) ? 1 : 0;
    if (pre == 0)
        return rc < 0 ? rc : TRACERD_FXT_SKIP;
    m->held = e->offset;
    m->held_pass = !complete;
    return TRACERD_CB_CONTINUE;
}

static int on_event(void *user, const tracerd_fxt_event_t *e)
{
    struct fmap *m = user;
    if ((unsigned)e->type >= FXT_EVENT_TYPES)
        return TRACERD_CB_CONTINUE;
    tracerd_event_t local, *ev = &m->ev;
    int rc = 0, pre = 1;
    if (m->held == e->offset) { /* on_event_head made it */
        pre = m->held_pass ? 1 : 2;
    } else {
        ev = &local;
        *ev = tracerd__event_zero;
        event_head(ev, e);
        pre = m->filtering ? 2 : 1;
    }
    m->held = UINT64_MAX;
    event_tail(ev, e);
    /* filtered before the arguments are mapped (with on_event_head, before
     * they are decoded) */
    if (pre == 2)
        pre = tracerd__auto_prefilter(m->a, ev, TRACERD__KNOW_ALL, &rc);
    if (pre != 0)
        map_args(m, ev, e->args, e->nargs, 0);
    return emit_pre(m, ev, pre, rc);
}

static int on_kernel_object(void *user, const tracerd_fxt_kernel_object_t *o)
{
    struct fmap *m = user;
    if (o->object_type != ZX_OBJ_TYPE_PROCESS && o->object_type != ZX_OBJ_TYPE_THREAD)
        return TRACERD_CB_CONTINUE;
    tracerd_event_t ev = tracerd__event_zero;
    ev.offset = o->offset;
    ev.flags = TRACERD_EVENT_NO_TIME | TRACERD_EVENT_HAS_PID;
    ev.name = o->name;
    if (o->object_type == ZX_OBJ_TYPE_PROCESS) {
        ev.kind = TRACERD_EVENT_PROCESS_NAME;
        ev.pid = o->koid;
    } else {
        ev.kind = TRACERD_EVENT_THREAD_NAME;
        ev.tid = o->koid;
        ev.flags |= TRACERD_EVENT_HAS_TID;
        for (uint32_t i = 0; i < o->nargs; i++) {
            const tracerd_fxt_arg_t *a = &o->args[i];
            if (a->type == TRACERD_FXT_ARG_KOID && a->name.len == 7 &&
                memcmp(a->name.data, "process", 7) == 0)
                ev.pid = a->v.u64;
        }
    }
    map_args(m, &ev, o->args, o->nargs, 0);
    return emit(m, &ev);
}

static int on_scheduling(void *user, const tracerd_fxt_scheduling_t *s)
{
    struct fmap *m = user;
    static const tracerd_str_t n_out = {"outgoing_priority", 17}, n_in = {"incoming_priority", 17};
    tracerd_event_t ev = tracerd__event_zero;
    fxt_sched_head(&ev, s);
    uint32_t first = 0;
    if (s->type == TRACERD_FXT_SCHED_LEGACY_CONTEXT_SWITCH) {
        uint32_t cap;
        tracerd_event_arg_t *out = tracerd__auto_args(m->a, &cap);
        if (cap >= 2) {
            out[0].name = n_out;
            out[0].type = TRACERD_EVENT_ARG_UINT;
            out[0].v.u = s->outgoing_priority;
            out[1].name = n_in;
            out[1].type = TRACERD_EVENT_ARG_UINT;
            out[1].v.u = s->incoming_priority;
            first = 2;
        }
    }
    map_args(m, &ev, s->args, s->nargs, first);
    return emit(m, &ev);
}

static int on_log(void *user, const tracerd_fxt_log_t *l)
{
    tracerd_event_t ev = tracerd__event_zero;
    fxt_log_head(&ev, l);
    return emit(user, &ev);
}

/* One "data" (BYTES) argument, then more arguments. */
static uint32_t data_arg(struct fmap *m, tracerd_event_t *ev, tracerd_bytes_t payload,
                         uint64_t size)
{
    static const tracerd_str_t n_data = {"data", 4};
    uint32_t cap;
    tracerd_event_arg_t *out = tracerd__auto_args(m->a, &cap);
    if (payload.data == NULL || cap == 0) {
        if (size > 0)
            ev->flags |= TRACERD_EVENT_TRUNCATED;
        return 0;
    }
    out[0].name = n_data;
    out[0].type = TRACERD_EVENT_ARG_BYTES;
    out[0].v.bytes = payload;
    ev->args = out;
    ev->nargs = 1;
    return 1;
}

static int on_blob(void *user, const tracerd_fxt_blob_t *b)
{
    struct fmap *m = user;
    tracerd_event_t ev = tracerd__event_zero;
    fxt_blob_head(&ev, b);
    data_arg(m, &ev, b->payload, b->payload.len);
    return emit(m, &ev);
}

static int on_large_blob(void *user, const tracerd_fxt_large_blob_t *b)
{
    struct fmap *m = user;
    tracerd_event_t ev = tracerd__event_zero;
    fxt_large_blob_head(&ev, b);
    uint32_t first = data_arg(m, &ev, b->payload, b->size);
    map_args(m, &ev, b->args, b->nargs, first);
    return emit(m, &ev);
}

static int on_userspace_object(void *user, const tracerd_fxt_userspace_object_t *o)
{
    struct fmap *m = user;
    static const tracerd_str_t n_ptr = {"pointer", 7};
    tracerd_event_t ev = tracerd__event_zero;
    fxt_userspace_head(&ev, o);
    uint32_t cap, first = 0;
    tracerd_event_arg_t *out = tracerd__auto_args(m->a, &cap);
    if (cap > 0) {
        out[0].name = n_ptr;
        out[0].type = TRACERD_EVENT_ARG_POINTER;
        out[0].v.u = o->pointer;
        first = 1;
    }
    map_args(m, &ev, o->args, o->nargs, first);
    return emit(m, &ev);
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    struct fmap *m = user;
    return tracerd__auto_warning(m->a, w);
}

static tracerd_status_t f_open(tracerd_auto_reader_t *a, const tracerd_auto_config_t *cfg,
                               const tracerd_allocator_t *alloc, void **out, void **reader)
{
    struct fmap *m = tracerd__calloc(alloc, sizeof *m);
    if (m == NULL)
        return TRACERD_E_NOMEM;
    m->a = a;
    m->alloc = alloc;
    m->filtering = cfg->filter != NULL;
    m->no_args = cfg->no_args;
    m->held = UINT64_MAX;
    tracerd_fxt_callbacks_t cbs;
    tracerd_fxt_callbacks_init(&cbs);
    if (m->filtering) {
        cbs.on_event_head = on_event_head;
        if (tracerd__event_filter_has_names(cfg->filter))
            cbs.on_string = on_string;
    }
    cbs.on_init = on_init;
    cbs.on_event = on_event;
    cbs.on_kernel_object = on_kernel_object;
    cbs.on_scheduling = on_scheduling;
    cbs.on_log = on_log;
    cbs.on_blob = on_blob;
    cbs.on_large_blob = on_large_blob;
    cbs.on_userspace_object = on_userspace_object;
    cbs.on_warning = on_warning;
    tracerd_status_t st = tracerd_fxt_new(cfg->fxt, &cbs, m, alloc, &m->rd);
    if (st != TRACERD_OK) {
        tracerd__free(alloc, m, sizeof *m);
        return st;
    }
    *out = m;
    *reader = m->rd;
    return TRACERD_OK;
}

static void f_close(void *map)
{
    struct fmap *m = map;
    tracerd__free(m->alloc, m, sizeof *m);
}

static size_t f_memory_bound(const tracerd_auto_config_t *cfg)
{
    return sizeof(struct fmap) + tracerd_fxt_memory_bound(cfg->fxt);
}

const struct tracerd__event_backend tracerd__event_backend_fxt = {
    .format = TRACERD_EVENT_FORMAT_FXT,
    .name = "fxt",
    .detect = tracerd_fxt_detect,
    .open = f_open,
    .ops = tracerd_fxt_ops,
    .close = f_close,
    .finished = NULL,
    .metadata = NULL,
    .memory_bound = f_memory_bound,
};
