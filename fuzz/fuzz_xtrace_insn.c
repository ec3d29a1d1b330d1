/* libFuzzer target: the xtrace instruction-stream reader. Input: one option
 * byte, the stream, one chunking seed byte (one seed in five also aborts at
 * a callback). The input is read twice through the xtrace recorder of the
 * suites (tests/support/xtrace_recorder.c, hashing), whole and in data-driven
 * chunks with pauses, and the two hashes (every callback, the status, the
 * offset and the reason) must agree (chunk and pause invariance). */
#include <stdint.h>

#include <tracerd/xtrace.h>

#include "recorded.h"
#include "support/xtrace_recorder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t opt = data[0];
    static const uint32_t tsz[4] = {8, 4, 16, 1};
    tracerd_xtrace_insn_config_t cfg;
    tracerd_xtrace_insn_config_init(&cfg);
    cfg.time_payload_bytes = tsz[opt & 3];
    cfg.iov_layout = (tracerd_xtrace_iov_layout_t)((opt >> 2) & 3) == 3
                         ? TRACERD_XTRACE_IOV_INTERLEAVED
                         : (tracerd_xtrace_iov_layout_t)((opt >> 2) & 3);
    cfg.allow_trailing_zero_padding = opt & 0x10;
    cfg.allow_truncated_tail = opt & 0x20;
    cfg.stitch_bytes = (opt & 0x40) ? 272 : 4096;
    cfg.max_mem_log2 = (opt & 0x80) ? 12 : 8;
    cfg.has_initial_pc = (opt & 0x0c) == 0x0c;
    cfg.initial_pc = 0x400000;
    cfg.max_iov = 64;
    cfg.max_iov_len = 1 << 16;
    tracerd_xtrace_profile_t prof;
    if ((opt & 0x30) == 0x30) { /* a custom profile with opaque MISC sub-types 0 and 2 */
        tracerd_xtrace_profile_default(&prof);
        prof.token[0x04].kind = TRACERD_XTRACE_TOK_OPAQUE;
        prof.token[0x04].payload_bytes = 8;
        prof.token[0x14].kind = TRACERD_XTRACE_TOK_OPAQUE;
        prof.token[0x14].payload_bytes = 0;
        cfg.profile = &prof;
    }
    const uint8_t *body = data + 1;
    size_t n = size - 2;
    uint8_t seed = data[size - 1];
    unsigned long abort_at = seed % 5 == 0 ? (unsigned long)(seed / 5) + 1 : 0;
    fuzz_recorded_twice(&xtrace_insn_target, &cfg, body, n, seed, true, abort_at);
    return 0;
}
