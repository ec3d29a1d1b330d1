/* The XRay recorder (modes: rec.h): drv_target_t's whose callbacks log one
 * line per callback with every decoded field, for the shared test drivers
 * (REC_LOG) and the fuzz target (REC_HASH), and the benchmarks' counting
 * callbacks. One recorder, two line formats (thin layers over the same
 * callbacks):
 *   - xray_target, xray_target_nometa: the unit suite's (tests/check_xray.c
 *     spells these logs inline): payloads in hex, fragments logged as
 *     "payload ..."; _nometa leaves on_metadata unset, so that the
 *     reader handles the frequent metadata records in its hot loop;
 *   - xray_target_batch, xray_target_batch_nometa: the same two with
 *     on_functions instead of on_function (each record of a run logged as
 *     on_function logs it: the logs must be identical);
 *   - xray_golden_target: the real traces' golden files
 *     (tests/data/xray/real/<name>.gold, tests/check_xray_real.c): payloads
 *     as text, fragments as "fragments ... hex=", every header flag.
 * Fragments are logged as one line when the last piece arrives, so the log
 * does not depend on chunking (and, their number depending on it, are not
 * counted for rec_t's abort_at). config: a tracerd_xray_config_t * (NULL for
 * defaults). */
#ifndef TESTS_SUPPORT_XRAY_RECORDER_H
#define TESTS_SUPPORT_XRAY_RECORDER_H

#include <tracerd/xray.h>

#include "driver.h"

extern const drv_target_t xray_target;
extern const drv_target_t xray_target_nometa;
extern const drv_target_t xray_golden_target;
extern const drv_target_t xray_target_batch;
extern const drv_target_t xray_target_batch_nometa;

/* COUNT mode (bench/bench_xray.c): counting callbacks whose user pointer is
 * an xray_counts_t (function records with their TSC folded into sum, events
 * with their size, metadata records). */
typedef struct xray_counts {
    uint64_t functions, events, metadata, sum;
} xray_counts_t;
void xray_count_callbacks(tracerd_xray_callbacks_t *cb);

#endif
