/* The xtrace recorders: drv_target_t's whose callbacks log one line per
 * callback with every decoded field, for the shared test drivers: the
 * instruction stream (every token, iovecs, fragments) and the snapshots
 * (layout, header, snapshots, registers). Fragments are logged as one line
 * when the last piece arrives, so the log does not depend on chunking. */
#ifndef TESTS_SUPPORT_XTRACE_RECORDER_H
#define TESTS_SUPPORT_XTRACE_RECORDER_H

#include <tracerd/xtrace.h>

#include "driver.h"

/* config: a tracerd_xtrace_insn_config_t * (NULL for defaults). */
extern const drv_target_t xtrace_insn_target;
/* config: a tracerd_xtrace_snap_config_t * (NULL for defaults). */
extern const drv_target_t xtrace_snap_target;

#endif
