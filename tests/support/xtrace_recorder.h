/* The xtrace recorders (modes: rec.h): drv_target_t's whose callbacks log
 * one line per callback with every decoded field, for the shared test
 * drivers (REC_LOG) and the fuzz targets (REC_HASH), and the benchmarks'
 * counting callbacks: the
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

/* COUNT mode (bench/bench_xtrace.c): counting callbacks whose user pointer
 * is the counts struct (instructions and memory accesses, their PCs and
 * addresses folded; snapshots and register views, x0 and the views' lengths
 * folded). */
typedef struct xtrace_insn_counts {
    uint64_t insns, mems, pcsum;
} xtrace_insn_counts_t;
void xtrace_insn_count_callbacks(tracerd_xtrace_insn_callbacks_t *cb);
typedef struct xtrace_snap_counts {
    uint64_t snaps, regs, bytes;
} xtrace_snap_counts_t;
void xtrace_snap_count_callbacks(tracerd_xtrace_snap_callbacks_t *cb);

#endif
