/* The XRay recorder (xray_recorder.h): one set of callbacks, two line
 * formats, chosen per target by `golden`; the benchmarks' counting
 * callbacks. */
#include "xray_recorder.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct xrec {
    tracerd_xray_reader_t *r;
    rec_t *rec;
    bool golden; /* the golden files' format, else the unit suite's */
    tlog_t frag; /* hex of the payload fragments received so far */
} xrec_t;

static int on_header(void *u, const tracerd_xray_header_t *h)
{
    xrec_t *x = u;
    if (x->golden)
        tlog_printf(&x->rec->log,
                    "header v%u type=%d flags=%#x ctsc=%d nstsc=%d freq=%" PRIu64
                    " bufsize=%" PRIu64 " order=%d\n",
                    h->version, (int)h->type, h->flags, h->constant_tsc, h->nonstop_tsc,
                    h->cycle_frequency, h->buffer_size, (int)h->byte_order);
    else
        tlog_printf(&x->rec->log,
                    "header v=%u type=%u order=%s flags=0x%x freq=%" PRIu64 " bufsize=%" PRIu64
                    "\n",
                    h->version, (unsigned)h->type, tracerd_byte_order_name(h->byte_order),
                    h->flags, h->cycle_frequency, h->buffer_size);
    return rec_ret(x->rec);
}

static int on_buffer(void *u, const tracerd_xray_buffer_t *b)
{
    xrec_t *x = u;
    if (x->golden)
        tlog_printf(&x->rec->log,
                    "buffer @%" PRIu64 " size=%" PRIu64 " tid=%d pid=%d has_pid=%d"
                    " wall=%d:%" PRIu64 ".%06u\n",
                    b->offset, b->size, b->tid, b->pid, b->has_pid, b->has_walltime,
                    b->wall_seconds, b->wall_micros);
    else
        tlog_printf(&x->rec->log,
                    "buffer @%" PRIu64 " size=%" PRIu64 " tid=%d pid=%d%s wall=%" PRIu64 ".%06u\n",
                    b->offset, b->size, b->tid, b->pid, b->has_pid ? "" : "(none)",
                    b->wall_seconds, b->wall_micros);
    return rec_ret(x->rec);
}

static int on_buffer_end(void *u, const tracerd_xray_buffer_end_t *e)
{
    xrec_t *x = u;
    tlog_printf(&x->rec->log, "buffer-end @%" PRIu64 " filler=%" PRIu64 "\n", e->offset,
                e->filler_bytes);
    return rec_ret(x->rec);
}

static int on_function(void *u, const tracerd_xray_function_t *f)
{
    xrec_t *x = u;
    tlog_printf(&x->rec->log,
                "fn @%" PRIu64 " %s id=%d tsc=%" PRIu64 " ns=%" PRIu64 " delta=%u tid=%d pid=%d"
                " cpu=%u",
                f->offset, tracerd_xray_kind_name(f->kind), f->function_id, f->tsc, f->ns,
                f->delta, f->tid, f->pid, f->cpu);
    for (uint32_t i = 0; i < f->nargs; i++)
        tlog_printf(&x->rec->log, x->golden ? "%s%#" PRIx64 : "%s0x%" PRIx64, i ? "," : " args=",
                    f->args[i]);
    tlog_printf(&x->rec->log, "\n");
    return rec_ret(x->rec);
}

/* on_functions: each record of the run as on_function logs it (a pause asked
 * for by any takes effect after the run, as the reader documents); the
 * records of a run share tid, pid and cpu, and each one's tsc is the last
 * one's plus its delta. */
static int on_functions(void *u, const tracerd_xray_function_t *fs, size_t n)
{
    xrec_t *x = u;
    bool run = n >= 1 && n <= 64;
    int ret = TRACERD_CB_CONTINUE;
    for (size_t i = 0; i < n && run; i++) {
        run = fs[i].tid == fs[0].tid && fs[i].pid == fs[0].pid && fs[i].cpu == fs[0].cpu &&
              (i == 0 || fs[i].tsc == fs[i - 1].tsc + fs[i].delta);
        int rc = on_function(u, &fs[i]);
        if (rc < 0)
            return rc;
        if (rc > 0)
            ret = rc;
    }
    REC_CHECK(x->rec, run); /* a run: 1..64 consecutive records of one thread and CPU */
    return ret;
}

static int on_event(void *u, const tracerd_xray_event_t *e)
{
    xrec_t *x = u;
    const char *kind = e->typed ? "typed" : "custom";
    if (x->golden)
        tlog_printf(&x->rec->log, "event @%" PRIu64 " %s", e->offset, kind);
    else
        tlog_printf(&x->rec->log, "%s @%" PRIu64, kind, e->offset);
    tlog_printf(&x->rec->log, " type=%u tsc=%" PRIu64 " ns=%" PRIu64 " tid=%d pid=%d cpu=%u size=%u",
                e->event_type, e->tsc, e->ns, e->tid, e->pid, e->cpu, e->size);
    if (e->payload.data != NULL) {
        REC_CHECK(x->rec, e->payload.len == e->size);
        if (x->golden) {
            tlog_printf(&x->rec->log, " payload=\"");
            tlog_text(&x->rec->log, e->payload.data, e->payload.len);
            tlog_printf(&x->rec->log, "\"");
        } else {
            tlog_printf(&x->rec->log, " payload=");
            tlog_hex(&x->rec->log, e->payload.data, e->payload.len);
        }
    } else {
        tlog_printf(&x->rec->log, x->golden ? " payload follows" : " fragmented");
        tlog_reset(&x->frag);
    }
    tlog_printf(&x->rec->log, "\n");
    return rec_ret(x->rec);
}

static int on_fragment(void *u, const tracerd_span_t *s)
{
    xrec_t *x = u;
    tlog_hex(&x->frag, s->data, s->len);
    REC_CHECK(x->rec, x->frag.len / 2 == s->offset + s->len);
    if (s->offset + s->len == s->total) {
        const char *hex = x->frag.buf != NULL ? x->frag.buf : "";
        if (x->golden)
            tlog_printf(&x->rec->log,
                        "fragments @%" PRIu64 " field=%u index=%u total=%" PRIu64 " hex=%s\n",
                        s->record_offset, s->field, s->index, s->total, hex);
        else
            tlog_printf(&x->rec->log, "payload field=%u total=%" PRIu64 " @%" PRIu64 " data=%s\n",
                        s->field, s->total, s->record_offset, hex);
        tlog_reset(&x->frag);
    }
    /* Their number depends on chunking: not counted for abort_at. */
    return rec_ret_uncounted(x->rec);
}

static int on_metadata(void *u, const tracerd_xray_metadata_t *m)
{
    xrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "meta @%" PRIu64 " %s", m->offset, tracerd_xray_meta_kind_name(m->kind));
    switch (m->kind) {
    case TRACERD_XRAY_META_NEW_BUFFER:
        tlog_printf(l, " tid=%d", m->tid);
        break;
    case TRACERD_XRAY_META_PID:
        tlog_printf(l, " pid=%d", m->pid);
        break;
    case TRACERD_XRAY_META_NEW_CPU:
        tlog_printf(l, " cpu=%u tsc=%" PRIu64, m->cpu, m->tsc);
        break;
    case TRACERD_XRAY_META_TSC_WRAP:
        tlog_printf(l, " tsc=%" PRIu64, m->tsc);
        break;
    case TRACERD_XRAY_META_WALLTIME:
        tlog_printf(l, " %s%" PRIu64 ".%06u", x->golden ? "wall=" : "", m->seconds, m->micros);
        break;
    case TRACERD_XRAY_META_CALL_ARGUMENT:
        if (x->golden)
            tlog_printf(l, " arg=%#" PRIx64, m->argument);
        break;
    case TRACERD_XRAY_META_BUFFER_EXTENTS:
        tlog_printf(l, " extent=%" PRIu64, m->extent);
        break;
    default:
        break;
    }
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_warning(void *u, const tracerd_warning_t *w)
{
    xrec_t *x = u;
    tlog_printf(&x->rec->log, "warning %s @%" PRIu64 " skipped=%" PRIu64 "%s %s\n",
                tracerd_status_name(w->status), w->offset, w->skipped_bytes, tlog_count(w),
                w->reason);
    return rec_ret(x->rec);
}

static tracerd_status_t open_with(const void *cfg, rec_t *rec, const tracerd_allocator_t *alloc,
                                  void **out, bool golden, bool meta, bool batch)
{
    xrec_t *x = calloc(1, sizeof *x);
    REC_CHECK(rec, x != NULL);
    x->rec = rec;
    x->golden = golden;
    tracerd_xray_callbacks_t cb;
    tracerd_xray_callbacks_init(&cb);
    cb.on_header = on_header;
    cb.on_buffer = on_buffer;
    cb.on_buffer_end = on_buffer_end;
    cb.on_function = batch ? NULL : on_function;
    cb.on_functions = batch ? on_functions : NULL;
    cb.on_event = on_event;
    cb.on_event_fragment = on_fragment;
    cb.on_metadata = meta ? on_metadata : NULL;
    cb.on_warning = on_warning;
    rec->extra = x;
    tracerd_status_t st = tracerd_xray_new(cfg, &cb, x, alloc, &x->r);
    *out = x->r;
    return st;
}

static tracerd_status_t open_suite(const void *cfg, rec_t *rec, const tracerd_allocator_t *alloc,
                                   void **out)
{
    return open_with(cfg, rec, alloc, out, false, true, false);
}

static tracerd_status_t open_nometa(const void *cfg, rec_t *rec,
                                    const tracerd_allocator_t *alloc, void **out)
{
    return open_with(cfg, rec, alloc, out, false, false, false);
}

static tracerd_status_t open_golden(const void *cfg, rec_t *rec,
                                    const tracerd_allocator_t *alloc, void **out)
{
    return open_with(cfg, rec, alloc, out, true, true, false);
}

static tracerd_status_t open_batch(const void *cfg, rec_t *rec, const tracerd_allocator_t *alloc,
                                   void **out)
{
    return open_with(cfg, rec, alloc, out, false, true, true);
}

static tracerd_status_t open_batch_nometa(const void *cfg, rec_t *rec,
                                          const tracerd_allocator_t *alloc, void **out)
{
    return open_with(cfg, rec, alloc, out, false, false, true);
}

static void free_extra(void *p)
{
    xrec_t *x = p;
    free(tlog_take(&x->frag));
    free(x);
}

const drv_target_t xray_target = {"xray", open_suite, tracerd_xray_ops, free_extra};
const drv_target_t xray_target_nometa = {"xray-nometa", open_nometa, tracerd_xray_ops, free_extra};
const drv_target_t xray_golden_target = {"xray-real", open_golden, tracerd_xray_ops, free_extra};
const drv_target_t xray_target_batch = {"xray-batch", open_batch, tracerd_xray_ops, free_extra};
const drv_target_t xray_target_batch_nometa = {"xray-batch-nometa", open_batch_nometa,
                                               tracerd_xray_ops, free_extra};

/* ---- COUNT mode (bench/bench_xray.c) ---------------------------------------- */

static int c_function(void *u, const tracerd_xray_function_t *f)
{
    xray_counts_t *c = u;
    c->functions++;
    c->sum += f->tsc;
    return 0;
}

static int c_event(void *u, const tracerd_xray_event_t *e)
{
    xray_counts_t *c = u;
    c->events++;
    c->sum += e->size;
    return 0;
}

static int c_meta(void *u, const tracerd_xray_metadata_t *m)
{
    (void)m;
    ((xray_counts_t *)u)->metadata++;
    return 0;
}

void xray_count_callbacks(tracerd_xray_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->on_function = c_function;
    cb->on_event = c_event;
    cb->on_metadata = c_meta;
}
