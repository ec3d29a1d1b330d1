/* XRay onto events: function entries become SPAN_BEGIN (with their
 * arguments), exits and tail exits SPAN_END (tail exits flagged), custom and
 * typed events INSTANT with their payload; buffer and clock metadata carry
 * no timeline meaning of their own and are not delivered (they are already
 * folded into every event's time, thread, process and CPU). */
#include "event_internal.h"

#define XMAP_VERDICTS 256u

struct xmap {
    tracerd_auto_reader_t *a;
    tracerd_xray_reader_t *rd;
    const tracerd_allocator_t *alloc;
    bool has_ns;
    const tracerd_event_filter_t *filter; /* the config's (NULL: none) */
    /* The filter's name test by function id (a name is a function of its
     * id): (id << 2) | 2 | passed, 0 for none; direct-mapped. */
    uint64_t verdict[XMAP_VERDICTS];
};

#define ARGN(n)                                                                                    \
    {                                                                                              \
        "arg" #n, sizeof("arg" #n) - 1                                                             \
    }
static const tracerd_str_t arg_names[] = {
    ARGN(0),  ARGN(1),  ARGN(2),  ARGN(3),  ARGN(4),  ARGN(5),  ARGN(6),  ARGN(7),
    ARGN(8),  ARGN(9),  ARGN(10), ARGN(11), ARGN(12), ARGN(13), ARGN(14), ARGN(15),
    ARGN(16), ARGN(17), ARGN(18), ARGN(19), ARGN(20), ARGN(21), ARGN(22), ARGN(23),
    ARGN(24), ARGN(25), ARGN(26), ARGN(27), ARGN(28), ARGN(29), ARGN(30), ARGN(31),
};
#undef ARGN
#define NARG_NAMES (sizeof arg_names / sizeof arg_names[0])

static const tracerd_str_t cat_xray = {"xray", 4};

/* "fn#<id>" without snprintf (this runs for every function record). */
static tracerd_str_t id_name(char *t, int32_t id)
{
    char digits[12];
    size_t n = 0;
    uint32_t v = id < 0 ? (uint32_t)0 - (uint32_t)id : (uint32_t)id;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    size_t k = 0;
    t[k++] = 'f';
    t[k++] = 'n';
    t[k++] = '#';
    if (id < 0)
        t[k++] = '-';
    while (n > 0)
        t[k++] = digits[--n];
    tracerd_str_t s = {t, k};
    return s;
}

static void fill_common(struct xmap *m, tracerd_event_t *ev, uint64_t offset, uint64_t tsc,
                        uint64_t ns, int32_t tid, int32_t pid, uint16_t cpu)
{
    ev->offset = offset;
    ev->ticks = tsc;
    ev->ns = ns;
    ev->flags = TRACERD_EVENT_HAS_TID | TRACERD_EVENT_HAS_CPU;
    if (m->has_ns)
        ev->flags |= TRACERD_EVENT_HAS_NS;
    if (pid != 0)
        ev->flags |= TRACERD_EVENT_HAS_PID;
    ev->pid = (uint64_t)(uint32_t)pid;
    ev->tid = (uint64_t)(uint32_t)tid;
    ev->cpu = cpu;
    ev->category = cat_xray;
}

static int on_header(void *user, const tracerd_xray_header_t *h)
{
    struct xmap *m = user;
    m->has_ns = h->cycle_frequency != 0;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    src.version = h->version;
    src.byte_order = h->byte_order;
    src.ticks_per_second = h->cycle_frequency;
    return tracerd__auto_source(m->a, &src);
}

static int on_function(void *user, const tracerd_xray_function_t *f)
{
    struct xmap *m = user;
    tracerd_event_t ev = tracerd__event_zero;
    fill_common(m, &ev, f->offset, f->tsc, f->ns, f->tid, f->pid, f->cpu);
    bool exit = f->kind == TRACERD_XRAY_EXIT || f->kind == TRACERD_XRAY_TAIL_EXIT;
    ev.kind = exit ? TRACERD_EVENT_SPAN_END : TRACERD_EVENT_SPAN_BEGIN;
    if (f->kind == TRACERD_XRAY_TAIL_EXIT)
        ev.flags |= TRACERD_EVENT_TAIL;
    ev.name_id = (uint64_t)(uint32_t)f->function_id;
    ev.flags |= TRACERD_EVENT_HAS_NAME_ID;
    /* Filtered before the name is made and the arguments mapped: the time
     * and ids, then the name test remembered for the function id. */
    int pre = 1;
    uint64_t *vslot = NULL, vkey = 0;
    if (m->filter != NULL) {
        int rc;
        pre = tracerd__auto_prefilter(m->a, &ev, TRACERD__KNOW_IDS, &rc);
        if (pre == 0)
            return rc;
        vslot = &m->verdict[(uint32_t)f->function_id % XMAP_VERDICTS];
        vkey = ((uint64_t)(uint32_t)f->function_id << 2) | 2u;
        if (pre == 2 && *vslot == vkey)
            return TRACERD_CB_CONTINUE; /* this function's name fails the name test */
    }
    if (!tracerd_xray_names_lookup(tracerd__auto_xray_names(m->a), f->function_id, &ev.name)) {
        ev.name = id_name(tracerd__auto_text(m->a), f->function_id);
    }
    if (pre == 2 && (*vslot | 1u) != (vkey | 1u)) {
        bool pass = tracerd__event_filter_names(m->filter, ev.name, ev.category);
        *vslot = vkey | (pass ? 1u : 0u);
        if (!pass)
            return TRACERD_CB_CONTINUE;
    }
    if (f->nargs > 0 && f->args != NULL) {
        uint32_t cap;
        tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
        uint32_t n = f->nargs;
        if (n > cap || n > NARG_NAMES) {
            n = cap < NARG_NAMES ? cap : (uint32_t)NARG_NAMES;
            ev.flags |= TRACERD_EVENT_TRUNCATED;
        }
        for (uint32_t i = 0; i < n; i++) {
            args[i].name = arg_names[i];
            args[i].type = TRACERD_EVENT_ARG_UINT;
            args[i].v.u = f->args[i];
        }
        ev.args = args;
        ev.nargs = n;
    }
    return tracerd__auto_deliver(m->a, &ev);
}

static int on_event(void *user, const tracerd_xray_event_t *e)
{
    struct xmap *m = user;
    tracerd_event_t ev = tracerd__event_zero;
    fill_common(m, &ev, e->offset, e->tsc, e->ns, e->tid, e->pid, e->cpu);
    ev.kind = TRACERD_EVENT_INSTANT;
    static const tracerd_str_t custom = {"custom-event", 12}, typed = {"typed-event", 11};
    static const tracerd_str_t n_type = {"type", 4}, n_size = {"size", 4},
                               n_payload = {"payload", 7};
    ev.name = e->typed ? typed : custom;
    uint32_t cap;
    tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
    uint32_t n = 0;
    if (e->typed && n < cap) {
        args[n].name = n_type;
        args[n].type = TRACERD_EVENT_ARG_UINT;
        args[n++].v.u = e->event_type;
    }
    if (n < cap) {
        args[n].name = n_size;
        args[n].type = TRACERD_EVENT_ARG_UINT;
        args[n++].v.u = e->size;
    }
    if (e->payload.data != NULL && n < cap) {
        args[n].name = n_payload;
        args[n].type = TRACERD_EVENT_ARG_BYTES;
        args[n++].v.bytes = e->payload;
    } else if (e->size > 0) {
        ev.flags |= TRACERD_EVENT_TRUNCATED;
    }
    ev.args = args;
    ev.nargs = n;
    return tracerd__auto_emit(m->a, &ev);
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    struct xmap *m = user;
    return tracerd__auto_warning(m->a, w);
}

static tracerd_status_t x_open(tracerd_auto_reader_t *a, const tracerd_auto_config_t *cfg,
                               const tracerd_allocator_t *alloc, void **out, void **reader)
{
    struct xmap *m = tracerd__calloc(alloc, sizeof *m);
    if (m == NULL)
        return TRACERD_E_NOMEM;
    m->a = a;
    m->filter = cfg->filter;
    tracerd_xray_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.on_header = on_header;
    cbs.on_function = on_function;
    cbs.on_event = on_event;
    cbs.on_warning = on_warning;
    tracerd_status_t st = tracerd_xray_new(cfg->xray, &cbs, m, alloc, &m->rd);
    if (st != TRACERD_OK) {
        tracerd__free(alloc, m, sizeof *m);
        return st;
    }
    m->alloc = alloc; /* the auto reader's copy: outlives this mapping */
    *out = m;
    *reader = m->rd;
    return TRACERD_OK;
}

static void x_close(void *map)
{
    struct xmap *m = map;
    tracerd__free(m->alloc, m, sizeof *m);
}

static size_t x_memory_bound(const tracerd_auto_config_t *cfg)
{
    return sizeof(struct xmap) + tracerd_xray_memory_bound(cfg->xray);
}

const struct tracerd__event_backend tracerd__event_backend_xray = {
    .format = TRACERD_EVENT_FORMAT_XRAY,
    .name = "xray",
    .detect = tracerd_xray_detect,
    .open = x_open,
    .ops = tracerd_xray_ops,
    .close = x_close,
    .finished = NULL,
    .metadata = NULL,
    .memory_bound = x_memory_bound,
};
