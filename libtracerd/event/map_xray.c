/* XRay onto events: function entries become SPAN_BEGIN (with their
 * arguments), exits and tail exits SPAN_END (tail exits flagged), custom and
 * typed events INSTANT with their payload; buffer and clock metadata carry
 * no timeline meaning of their own and are not delivered (they are already
 * folded into every event's time, thread, process and CPU). */
#include "event_internal.h"
#include "xray_meaning.h"

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
    xray_function_head(&ev, f, m->has_ns);
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
    ev.name = xray_function_name(tracerd__auto_xray_names(m->a), f->function_id,
                                 tracerd__auto_text(m->a));
    if (pre == 2 && (*vslot | 1u) != (vkey | 1u)) {
        bool pass = tracerd__event_filter_names(m->filter, ev.name, ev.category);
        *vslot = vkey | (pass ? 1u : 0u);
        if (!pass)
            return TRACERD_CB_CONTINUE;
    }
    uint32_t cap;
    tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
    xray_function_args(&ev, f, args, cap);
    return tracerd__auto_deliver(m->a, &ev);
}

static int on_event(void *user, const tracerd_xray_event_t *e)
{
    struct xmap *m = user;
    tracerd_event_t ev = tracerd__event_zero;
    uint32_t cap;
    tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
    xray_event_event(&ev, e, m->has_ns, args, cap);
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
