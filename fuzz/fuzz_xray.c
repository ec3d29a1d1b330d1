/* libFuzzer target for the XRay reader. Input layout: byte 0 selects options
 * (bit 0 lenient, bit 1 small stitch bound, bits 2-3 byte order, bit 4 pause
 * on callbacks, bit 5 no metadata callback: the hot loop takes metadata
 * itself, bit 6 function records in runs through on_functions), the last
 * byte seeds the chunk sizes (and, one seed in seven, the callback that
 * aborts), the rest is the trace. The input is read twice, whole and chunked
 * (with pauses), through the XRay recorder of the suites
 * (tests/support/xray_recorder.c, hashing): the two hashes must agree, or the
 * target traps (differential check). With bit 6 an abort names the run's
 * last record (doc/api.md): runs end where the trace says, not where the
 * chunks do, so that too must be the same in both reads. */
#include <stdint.h>

#include <tracerd/tracerd.h>

#include "recorded.h"
#include "support/xray_recorder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t opts = data[0], seed = data[size - 1];
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.lenient_skip_buffers = (opts & 1) != 0;
    if (opts & 2)
        cfg.stitch_bytes = 64;
    cfg.byte_order = (tracerd_byte_order_t)((opts >> 2) & 3) == 3
                         ? TRACERD_BYTE_ORDER_AUTO
                         : (tracerd_byte_order_t)((opts >> 2) & 3);
    cfg.max_args = 8;
    unsigned long abort_at = seed % 7 == 0 ? (unsigned long)(seed / 7) + 1 : 0;
    const drv_target_t *t = (opts & 64)
                                ? ((opts & 32) ? &xray_target_batch_nometa : &xray_target_batch)
                            : (opts & 32) ? &xray_target_nometa
                                          : &xray_target;
    fuzz_recorded_twice(t, &cfg, data + 1, size - 2, seed, (opts & 16) != 0, abort_at);
    return 0;
}
