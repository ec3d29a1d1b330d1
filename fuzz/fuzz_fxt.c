/* libFuzzer target for the FXT reader. Input: byte 0 selects options
 * (bit 0 lenient, bit 1 fallback_to_provider0, bits 2-3 byte order, bit 4 a
 * tiny string budget, bit 5 max 2 providers, bit 6 small large-record limit,
 * bit 7 on_event_head set: events whose name begins with "skip" are left
 * out), the last byte seeds the chunk sizes (and, one seed in five, the
 * callback that aborts; without bit 7, a seed of 1 mod 3 reads with the
 * no_args option, arguments logged as their count), the bytes between are
 * the archive. Each input runs
 * twice through the FXT recorder of the suites (tests/support/fxt_recorder.c,
 * hashing), whole and chunked with a pause at every callback; the two runs
 * must give the same callbacks, the same status and the same error offset
 * and reason (one hash), or the target traps. */
#include <stdint.h>

#include <tracerd/fxt.h>

#include "recorded.h"
#include "support/fxt_recorder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t flags = data[0], seed = data[size - 1];
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.lenient = flags & 1;
    cfg.fallback_to_provider0 = (flags >> 1) & 1;
    cfg.byte_order = (tracerd_byte_order_t)((flags >> 2) % 3);
    if (flags & 16)
        cfg.max_string_bytes = 256;
    if (flags & 32)
        cfg.max_providers = 2;
    if (flags & 64)
        cfg.max_large_record_bytes = 40000;
    unsigned long abort_at = seed % 5 == 0 ? (unsigned long)(seed / 5) + 1 : 0;
    cfg.no_args = !(flags & 128) && seed % 3 == 1;
    const drv_target_t *t = (flags & 128) ? &fxt_head_target
                            : cfg.no_args ? &fxt_hidden_args_target
                                          : &fxt_target;
    fuzz_recorded_twice(t, &cfg, data + 1, size - 2, seed, true, abort_at);
    return 0;
}
