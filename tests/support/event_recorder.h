/* The event view's recorder (modes: rec.h): the auto reader as a driver
 * target whose callbacks log one line per event, source and warning (the
 * suites: REC_LOG; fuzz/fuzz_event.c: REC_HASH), and the benchmarks'
 * counting callback. */
#ifndef TESTS_SUPPORT_EVENT_RECORDER_H
#define TESTS_SUPPORT_EVENT_RECORDER_H

#include <stdint.h>

#include <tracerd/event.h>

#include "driver.h"

/* The auto reader as a driver target; config is a tracerd_auto_config_t (or NULL). */
extern const drv_target_t ev_target;
/* Appends the line the recorder writes for an event. */
void ev_log_event(tlog_t *l, const tracerd_event_t *ev);

/* COUNT mode (bench/bench_filter.c): an on_event whose user pointer is an
 * ev_counts_t; it reads each event's name, time and thread, as a consumer
 * does. */
typedef struct ev_counts {
    uint64_t events, sum;
} ev_counts_t;
void ev_count_callbacks(tracerd_event_callbacks_t *cb);

#endif
