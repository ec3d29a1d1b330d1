/* libFuzzer target: CTF data streams. The first input byte picks the model
 * (the test writer's feature trace in either byte order, or the benchmark's
 * LTTng-UST-like trace; with bit 5, the CTF 2 writer's feature trace or the
 * benchmark trace described in CTF 2) and options (bit 4 field callbacks,
 * bit 6 with them: in batches through on_fields; lenient packet skipping, a
 * small stitch buffer); the rest is the stream, fed whole and in chunks
 * chosen by the last byte, with pauses, through the CTF recorder of the
 * suites (tests/support/ctf_recorder.c, hashing): the two runs must agree,
 * or the target traps. One seed in six also aborts at a callback. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "recorded.h"

/* The trace generators and the recorder shared with the tests. */
#include "support/ctf2_writer.h"
#include "support/ctf_recorder.h"
#include "support/ctf_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 0..2: the CTF 1.8 models; 3..5: the same as CTF 2 (input byte 0 & 32). */
static tracerd_ctf_trace_t *models[6];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned sel = data[0];
    uint8_t seed = data[size - 1];
    unsigned mi = sel % 3 + ((sel & 32) ? 3 : 0);
    if (models[mi] == NULL) {
        char *meta = mi == 2   ? ctf_writer_bench_metadata()
                     : mi < 2  ? ctf_writer_metadata(mi == 1)
                     : mi == 5 ? ctf2_writer_bench_metadata()
                               : ctf2_writer_metadata(mi == 4);
        if (tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &models[mi], NULL, 0) !=
            TRACERD_OK)
            abort();
        free(meta);
    }
    struct target_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.trace = models[mi];
    tracerd_ctf_stream_config_init(&cfg.stream);
    cfg.stream.lenient_skip_packets = (sel & 4) != 0;
    if (sel & 8)
        cfg.stream.stitch_bytes = 64;
    cfg.stream.max_sequence_length = 1 << 16;
    cfg.stream.max_packet_bytes = 1 << 20;
    unsigned long abort_at = seed % 6 == 0 ? (unsigned long)(seed / 6) + 1 : 0;
    const drv_target_t *t = !(sel & 16)  ? &ctf_events_target
                            : (sel & 64) ? &ctf_batch_target
                                         : &ctf_target;
    fuzz_recorded_twice(t, &cfg, data + 1, size - 1, seed, true, abort_at);
    return 0;
}
