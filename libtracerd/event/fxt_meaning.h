/* The event view's kind of each FXT event record type. Shared by the event
 * view (map_fxt.c) and the CLI's FXT stats fast path (tools/tracerd/
 * cmd_stats.c), which must make the same events as the event view;
 * header-only, nothing exported. */
#ifndef TRACERD_EVENT_FXT_MEANING_H
#define TRACERD_EVENT_FXT_MEANING_H

#include <tracerd/event.h>

/* Event types 0..10 are the FXT spec's; a later type has no kind (no event). */
#define FXT_EVENT_TYPES 11u

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

#endif
