/* The event view's recorder (event_recorder.h): one line per callback
 * (REC_LOG, REC_HASH), the driver target, and the benchmarks' counting
 * callback. */
#include "event_recorder.h"

#include <string.h>

void ev_log_event(tlog_t *l, const tracerd_event_t *ev)
{
    tlog_printf(l, "%s @%llu %s t=%llu", tracerd_event_format_name(ev->format),
                (unsigned long long)ev->offset, tracerd_event_kind_name(ev->kind),
                (unsigned long long)ev->ticks);
    if (ev->flags & TRACERD_EVENT_HAS_NS)
        tlog_printf(l, " ns=%llu", (unsigned long long)ev->ns);
    if (ev->kind == TRACERD_EVENT_SPAN_COMPLETE)
        tlog_printf(l, " end=%llu", (unsigned long long)ev->end_ticks);
    if (ev->flags & TRACERD_EVENT_HAS_PID)
        tlog_printf(l, " pid=%llu", (unsigned long long)ev->pid);
    if (ev->flags & TRACERD_EVENT_HAS_TID)
        tlog_printf(l, " tid=%llu", (unsigned long long)ev->tid);
    if (ev->flags & TRACERD_EVENT_HAS_CPU)
        tlog_printf(l, " cpu=%u", (unsigned)ev->cpu);
    if (ev->flags & TRACERD_EVENT_HAS_ID)
        tlog_printf(l, " id=%llu", (unsigned long long)ev->id);
    if (ev->flags & TRACERD_EVENT_HAS_NAME_ID)
        tlog_printf(l, " nid=%llu", (unsigned long long)ev->name_id);
    if (ev->flags & TRACERD_EVENT_TAIL)
        tlog_printf(l, " tail");
    if (ev->flags & TRACERD_EVENT_TRUNCATED)
        tlog_printf(l, " truncated");
    tlog_printf(l, " cat=");
    tlog_text(l, ev->category.data, ev->category.len);
    tlog_printf(l, " name=");
    tlog_text(l, ev->name.data, ev->name.len);
    if (ev->message.len > 0) {
        tlog_printf(l, " msg=");
        tlog_text(l, ev->message.data, ev->message.len);
    }
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const tracerd_event_arg_t *a = &ev->args[i];
        tlog_printf(l, " ");
        tlog_text(l, a->name.data, a->name.len);
        switch (a->type) {
        case TRACERD_EVENT_ARG_INT:
            tlog_printf(l, "=%lld", (long long)a->v.i);
            break;
        case TRACERD_EVENT_ARG_UINT:
        case TRACERD_EVENT_ARG_KOID:
            tlog_printf(l, "=%llu", (unsigned long long)a->v.u);
            break;
        case TRACERD_EVENT_ARG_POINTER:
            tlog_printf(l, "=0x%llx", (unsigned long long)a->v.u);
            break;
        case TRACERD_EVENT_ARG_DOUBLE:
            tlog_printf(l, "=%g", a->v.d);
            break;
        case TRACERD_EVENT_ARG_BOOL:
            tlog_printf(l, "=%s", a->v.b ? "true" : "false");
            break;
        case TRACERD_EVENT_ARG_STRING:
            tlog_printf(l, "=\"");
            tlog_text(l, a->v.str.data, a->v.str.len);
            tlog_printf(l, "\"");
            break;
        case TRACERD_EVENT_ARG_BYTES:
            tlog_printf(l, "=0x");
            tlog_hex(l, a->v.bytes.data, a->v.bytes.len);
            break;
        default:
            tlog_printf(l, "=null");
            break;
        }
    }
    tlog_printf(l, "\n");
}

static int rec_event(void *user, const tracerd_event_t *ev)
{
    rec_t *rec = user;
    ev_log_event(&rec->log, ev);
    return rec_ret(rec);
}

static int rec_source(void *user, const tracerd_event_source_t *s)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "source %s v%u %s freq=%llu score=%d\n", s->format_name,
                (unsigned)s->version, tracerd_byte_order_name(s->byte_order),
                (unsigned long long)s->ticks_per_second, s->score);
    return rec_ret(rec);
}

static int rec_warning(void *user, const tracerd_warning_t *w)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "warning %s @%llu skipped=%llu%s %s\n", tracerd_status_name(w->status),
                (unsigned long long)w->offset, (unsigned long long)w->skipped_bytes,
                tlog_count(w), w->reason);
    return rec_ret(rec);
}

static tracerd_status_t t_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                               void **reader)
{
    tracerd_event_callbacks_t cbs = {.on_event = rec_event, .on_source = rec_source, .on_warning = rec_warning};
    return tracerd_auto_new(config, &cbs, rec, alloc, (tracerd_auto_reader_t **)reader);
}
const drv_target_t ev_target = {"auto", t_open, tracerd_auto_ops, NULL};

/* ---- COUNT mode (bench/bench_filter.c) -------------------------------------- */

/* Reads the name, the time and the thread, as a consumer does. */
static int c_event(void *user, const tracerd_event_t *ev)
{
    ev_counts_t *c = user;
    c->events++;
    c->sum += ev->ns + ev->tid + ev->name.len + (unsigned char)ev->name.data[0];
    return 0;
}

void ev_count_callbacks(tracerd_event_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->on_event = c_event;
}
