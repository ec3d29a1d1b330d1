/* What the FXT event view makes of each record: the kind of each event
 * record type, and the event (without its arguments) of the records that
 * are not event records. Shared by the event view (map_fxt.c) and the CLI's
 * FXT stats fast path (tools/tracerd/cmd_stats.c), which must make the same
 * events as the event view; header-only, nothing exported. Every *_head
 * function fills an event the caller has zeroed. */
#ifndef TRACERD_EVENT_FXT_MEANING_H
#define TRACERD_EVENT_FXT_MEANING_H

#include <tracerd/event.h>
#include <tracerd/fxt.h>

/* Event types 0..10 are the FXT spec's; a later type has no kind (no event). */
#define FXT_EVENT_TYPES 11u

/* Kernel object types that name a process or a thread (zx_obj_type_t);
 * the other objects carry no timeline meaning. */
#define ZX_OBJ_TYPE_PROCESS 1u
#define ZX_OBJ_TYPE_THREAD 2u

/* type < FXT_EVENT_TYPES */
static inline tracerd_event_kind_t fxt_event_kind(unsigned type)
{
    static const tracerd_event_kind_t kinds[FXT_EVENT_TYPES] = {
        TRACERD_EVENT_INSTANT,    TRACERD_EVENT_COUNTER,       TRACERD_EVENT_SPAN_BEGIN,
        TRACERD_EVENT_SPAN_END,   TRACERD_EVENT_SPAN_COMPLETE, TRACERD_EVENT_ASYNC_BEGIN,
        TRACERD_EVENT_ASYNC_STEP, TRACERD_EVENT_ASYNC_END,     TRACERD_EVENT_FLOW_BEGIN,
        TRACERD_EVENT_FLOW_STEP,  TRACERD_EVENT_FLOW_END};
    return kinds[type];
}

static inline void fxt_thread(tracerd_event_t *ev, const tracerd_fxt_thread_t *t)
{
    ev->pid = t->pid;
    ev->tid = t->tid;
    ev->flags |= TRACERD_EVENT_HAS_PID | TRACERD_EVENT_HAS_TID;
}

/* Scheduling: context switch (tid outgoing, other_tid incoming, level the
 * outgoing state; pids with the legacy layout) or thread wakeup (tid and
 * other_tid the woken thread). */
static inline void fxt_sched_head(tracerd_event_t *ev, const tracerd_fxt_scheduling_t *s)
{
    static const tracerd_str_t n_switch = {"context_switch", 14}, n_wakeup = {"wakeup", 6},
                               cat = {"sched", 5};
    ev->offset = s->offset;
    ev->ticks = s->ticks;
    ev->ns = s->ns;
    ev->cpu = s->cpu;
    ev->flags = TRACERD_EVENT_HAS_NS | TRACERD_EVENT_HAS_CPU | TRACERD_EVENT_HAS_TID;
    ev->category = cat;
    if (s->type == TRACERD_FXT_SCHED_THREAD_WAKEUP) {
        ev->kind = TRACERD_EVENT_WAKEUP;
        ev->name = n_wakeup;
        ev->tid = ev->other_tid = s->waking_tid;
        return;
    }
    ev->kind = TRACERD_EVENT_CONTEXT_SWITCH;
    ev->name = n_switch;
    ev->tid = s->outgoing.tid;
    ev->other_tid = s->incoming.tid;
    ev->level = (int32_t)s->outgoing_state;
    if (s->type == TRACERD_FXT_SCHED_LEGACY_CONTEXT_SWITCH) {
        ev->pid = s->outgoing.pid;
        ev->other_pid = s->incoming.pid;
        ev->flags |= TRACERD_EVENT_HAS_PID;
    }
}

static inline void fxt_log_head(tracerd_event_t *ev, const tracerd_fxt_log_t *l)
{
    static const tracerd_str_t n_log = {"log", 3};
    ev->offset = l->offset;
    ev->kind = TRACERD_EVENT_LOG;
    ev->ticks = l->ticks;
    ev->ns = l->ns;
    ev->flags = TRACERD_EVENT_HAS_NS;
    fxt_thread(ev, &l->thread);
    ev->name = n_log;
    ev->message = l->message;
}

static inline void fxt_blob_head(tracerd_event_t *ev, const tracerd_fxt_blob_t *b)
{
    ev->offset = b->offset;
    ev->kind = TRACERD_EVENT_BLOB;
    ev->flags = TRACERD_EVENT_NO_TIME | TRACERD_EVENT_HAS_ID;
    ev->name = b->name;
    ev->id = b->blob_type;
}

/* Timed only in the layout with metadata. */
static inline void fxt_large_blob_head(tracerd_event_t *ev, const tracerd_fxt_large_blob_t *b)
{
    ev->offset = b->offset;
    ev->kind = TRACERD_EVENT_BLOB;
    ev->category = b->category;
    ev->name = b->name;
    if (b->format == TRACERD_FXT_LARGE_BLOB_WITH_METADATA) {
        ev->ticks = b->ticks;
        ev->ns = b->ns;
        ev->flags = TRACERD_EVENT_HAS_NS;
        fxt_thread(ev, &b->thread);
    } else {
        ev->flags = TRACERD_EVENT_NO_TIME;
    }
}

static inline void fxt_userspace_head(tracerd_event_t *ev, const tracerd_fxt_userspace_object_t *o)
{
    ev->offset = o->offset;
    ev->kind = TRACERD_EVENT_MARK;
    ev->flags = TRACERD_EVENT_NO_TIME;
    fxt_thread(ev, &o->process);
    ev->name = o->name;
}

#endif
