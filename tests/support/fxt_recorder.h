/* The FXT recorder: a drv_target_t whose callbacks log one line per
 * callback (every decoded field), for the shared test drivers. Large blob
 * fragments are folded into one line when the last one arrives, so the log
 * does not depend on chunking. */
#ifndef TESTS_SUPPORT_FXT_RECORDER_H
#define TESTS_SUPPORT_FXT_RECORDER_H

#include <tracerd/fxt.h>

#include "driver.h"

/* config: a tracerd_fxt_config_t * (NULL for defaults). */
extern const drv_target_t fxt_target;
/* The same with on_event_head set: it logs a "head@..." line per event
 * record and leaves out the events whose name begins with "skip". */
extern const drv_target_t fxt_head_target;

/* Convenience: the whole-feed log of data (malloc'd). */
char *fxt_log(const tracerd_fxt_config_t *cfg, const uint8_t *data, size_t len);

#endif
