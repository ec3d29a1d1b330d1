/* libFuzzer target: the xtrace snapshot reader. Input: two option bytes, the
 * file, one chunking seed byte (one seed in seven also aborts at a callback).
 * Read whole and chunked with pauses through the xtrace recorder of the
 * suites (tests/support/xtrace_recorder.c, hashing); the hashes (every
 * callback, the status, the offset and the reason) must agree. */
#include <stdint.h>

#include <tracerd/xtrace.h>

#include "recorded.h"
#include "support/xtrace_recorder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint8_t o1 = data[0], o2 = data[1];
    static const int32_t hs[8] = {-1, -1, -1, -1, 0, 19, 24, 32};
    tracerd_xtrace_snap_config_t cfg;
    tracerd_xtrace_snap_config_init(&cfg);
    cfg.header_bytes = hs[o1 & 7];
    cfg.vector_length_bits = (o1 >> 3) & 1 ? 128u * (1u + (o2 & 15)) : 0;
    cfg.p_layout = (tracerd_xtrace_p_layout_t)((o1 >> 4) % 3);
    cfg.za = (tracerd_xtrace_choice_t)((o1 >> 6) % 3);
    cfg.fixed_max = (tracerd_xtrace_choice_t)((o2 >> 4) % 3);
    cfg.byte_order = (tracerd_byte_order_t)((o2 >> 6) % 3);
    cfg.detect_records = 1u + ((o2 >> 5) & 1);
    cfg.check_advance = (o1 & 0xc0) != 0xc0;
    cfg.allow_truncated_tail = (o2 & 0x30) == 0x30;
    const uint8_t *body = data + 2;
    size_t n = size - 3;
    uint8_t seed = data[size - 1];
    unsigned long abort_at = seed % 7 == 0 ? (unsigned long)(seed / 7) + 1 : 0;
    fuzz_recorded_twice(&xtrace_snap_target, &cfg, body, n, seed, true, abort_at);
    return 0;
}
