/* libFuzzer target: CTF data streams. The first input byte picks the model
 * (the test writer's feature trace in either byte order, or the benchmark's
 * LTTng-UST-like trace; with bit 5, the CTF 2 writer's feature trace or the
 * benchmark trace described in CTF 2) and options (field callbacks on or off, lenient
 * packet skipping, a small stitch buffer); the rest is the stream, fed in
 * chunks chosen by the last byte, with pauses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "fuzz_common.h"

/* The trace generators shared with the tests (plain C, no other deps). */
#include "support/ctf2_writer.h"
#include "support/ctf_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 0..2: the CTF 1.8 models; 3..5: the same as CTF 2 (input byte 0 & 32). */
static tracerd_ctf_trace_t *models[6];

static int on_field(void *user, const tracerd_ctf_field_t *f)
{
    uint64_t *acc = user;
    *acc += f->kind == TRACERD_CTF_VALUE_STRING ? f->v.str.len + (f->v.str.len ? f->v.str.data[0] : 0)
                                                : (uint64_t)f->v.u;
    if (f->enum_label)
        *acc += (uint8_t)f->enum_label[0];
    return (*acc & 63) == 7 ? TRACERD_CB_PAUSE : 0;
}

static int on_event(void *user, const tracerd_ctf_event_t *e)
{
    uint64_t *acc = user;
    *acc += e->cycles + e->ns + (uint8_t)e->name[0];
    return (*acc & 31) == 3 ? TRACERD_CB_PAUSE : 0;
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    uint64_t *acc = user;
    *acc += p->content_size_bits;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned sel = data[0];
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
    tracerd_ctf_stream_config_t cfg;
    tracerd_ctf_stream_config_init(&cfg);
    cfg.lenient_skip_packets = (sel & 4) != 0;
    if (sel & 8)
        cfg.stitch_bytes = 64;
    cfg.max_sequence_length = 1 << 16;
    cfg.max_packet_bytes = 1 << 20;
    tracerd_ctf_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_event_begin = on_event;
    cb.on_packet_begin = on_packet;
    if (sel & 16)
        cb.on_field = on_field;
    uint64_t acc = 0;
    tracerd_ctf_stream_t *r;
    if (tracerd_ctf_stream_new(models[mi], &cfg, &cb, &acc, NULL, &r) != TRACERD_OK)
        return 0;
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, data[size - 1]);
    tracerd_status_t st = fuzz_pump(tracerd_ctf_stream_ops(), r, data + 1, size - 1, &ch);
    if (st < 0 && tracerd_ctf_stream_error_reason(r)[0] == '\0')
        abort(); /* every error has a reason */
    tracerd_ctf_stream_free(r);
    return 0;
}
