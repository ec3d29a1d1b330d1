/* The FXT recorder (modes: rec.h): drv_target_t's whose callbacks log one
 * line per callback (every decoded field), for the shared test drivers
 * (REC_LOG) and the fuzz target (REC_HASH); and the benchmarks' counting
 * callbacks. Large blob fragments are folded into one line when the last
 * one arrives, so the log does not depend on chunking. */
#ifndef TESTS_SUPPORT_FXT_RECORDER_H
#define TESTS_SUPPORT_FXT_RECORDER_H

#include <stdbool.h>

#include <tracerd/fxt.h>

#include "driver.h"

/* config: a tracerd_fxt_config_t * (NULL for defaults). */
extern const drv_target_t fxt_target;
/* The same with on_event_head set: it logs a "head@..." line per event
 * record and leaves out the events whose name begins with "skip". */
extern const drv_target_t fxt_head_target;
/* The same as fxt_target, each record's arguments logged as " nargs=N
 * args=NULL" or " args=SET" (whether they were handed over): the log of a
 * reading with the no_args option, and of one without it once every
 * "args=SET" is read as "args=NULL", must be equal. */
extern const drv_target_t fxt_hidden_args_target;

/* COUNT mode (bench/bench_fxt.c): counting callbacks whose user pointer is
 * an fxt_counts_t: events (their arguments counted, ns and the name's
 * length folded into ns_sum), strings, and threads, metadata and init
 * records as `other`. With every_arg, on_event also reads every argument's
 * name and value by type, as a converter does. */
typedef struct fxt_counts {
    uint64_t events, args, strings, other, ns_sum;
} fxt_counts_t;
void fxt_count_callbacks(tracerd_fxt_callbacks_t *cbs, bool every_arg);

#endif
