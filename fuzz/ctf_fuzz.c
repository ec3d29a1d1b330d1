/* The CTF metadata fuzz body shared by fuzz_ctf_metadata (TSDL or CTF 2,
 * as the bytes say) and fuzz_ctf2_metadata (always CTF 2): metadata fed in
 * chunks chosen by the last input byte, parsed and compiled; when it yields
 * a model, the input itself is also run through a stream reader. */
#include "ctf_fuzz.h"

#include <string.h>

#include <tracerd/ctf.h>

#include "fuzz_common.h"

int fuzz_ctf_metadata_run(const char *prefix, const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, data[size - 1]);
    tracerd_ctf_metadata_config_t cfg;
    tracerd_ctf_metadata_config_init(&cfg);
    cfg.max_metadata_bytes = 1 << 20;
    cfg.max_fields = 4096;
    cfg.max_array_length = 1 << 16;
    cfg.max_type_nodes = 1 << 14;
    tracerd_ctf_metadata_t *m;
    if (tracerd_ctf_metadata_new(&cfg, NULL, &m) != TRACERD_OK)
        return 0;
    size_t off = 0;
    tracerd_status_t st = tracerd_ctf_metadata_feed(m, prefix, strlen(prefix));
    while (off < size && st == TRACERD_OK) {
        size_t n = fuzz_chunker_next(&ch, size - off);
        st = tracerd_ctf_metadata_feed(m, data + off, n);
        off += n;
    }
    tracerd_ctf_trace_t *t = NULL;
    if (st == TRACERD_OK && tracerd_ctf_metadata_finish(m, &t) == TRACERD_OK) {
        /* walk the model a little */
        const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
        for (uint32_t i = 0; i < in->nstreams; i++)
            (void)tracerd_ctf_trace_stream_class(t, in->streams[i]->id);
        (void)tracerd_ctf_trace_env(t, "hostname");
        /* and decode the input itself as a stream: any bytes must be safe */
        tracerd_ctf_stream_config_t sc;
        tracerd_ctf_stream_config_init(&sc);
        sc.stitch_bytes = 256;
        sc.max_sequence_length = 1 << 12;
        tracerd_ctf_stream_t *r;
        if (tracerd_ctf_stream_new(t, &sc, NULL, NULL, NULL, &r) == TRACERD_OK) {
            size_t used;
            if (tracerd_ctf_stream_feed(r, data, size, &used) == TRACERD_OK)
                (void)tracerd_ctf_stream_finish(r);
            tracerd_ctf_stream_free(r);
        }
        tracerd_ctf_trace_free(t);
    }
    tracerd_ctf_metadata_free(m);
    return 0;
}
