#!/bin/sh
# Writes the CTF 2 seeds of fuzz/corpus/ctf2_metadata (the target prepends
# the first 0x1E), fuzz/corpus/ctf_metadata and fuzz/corpus/ctf_stream (input
# byte 0 with bit 5: the CTF 2 models) from tests/support/ctf2_writer.c.
# Run from the repository root: sh tests/data/ctf2/make_fuzz_seeds.sh
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/seeds.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/ctf2_writer.h"
#include "support/ctf_writer.h"
static void put(const char *path, int sel, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    if (sel >= 0) fputc(sel, f);
    fwrite(p, 1, n, f);
    fclose(f);
}
int main(void)
{
    size_t n;
    for (int big = 0; big < 2; big++) {
        char *m = ctf2_writer_metadata(big);
        put(big ? "fuzz/corpus/ctf2_metadata/feature-be" : "fuzz/corpus/ctf2_metadata/feature-le",
            -1, m + 1, strlen(m) - 1);
        unsigned char *s = ctf2_writer_stream(big, &n);
        put(big ? "fuzz/corpus/ctf_stream/ctf2-feature-be-fields"
                : "fuzz/corpus/ctf_stream/ctf2-feature-le-fields", 32 | 16 | big, s, n);
        put(big ? "fuzz/corpus/ctf_stream/ctf2-feature-be-events"
                : "fuzz/corpus/ctf_stream/ctf2-feature-le-small-stitch", 32 | (big ? 0 : 8) | big,
            s, n);
        if (big) {
            unsigned char *pk = ctf_writer_packetize(m, 1, 256, &n);
            put("fuzz/corpus/ctf_metadata/ctf2-feature-packetized-be", -1, pk, n);
            free(pk);
        }
        free(s);
        free(m);
    }
    char *m = ctf2_writer_bench_metadata();
    put("fuzz/corpus/ctf2_metadata/lttng-like", -1, m + 1, strlen(m) - 1);
    put("fuzz/corpus/ctf_metadata/ctf2-lttng-like", -1, m, strlen(m));
    free(m);
    uint64_t ev;
    unsigned char *s = ctf_writer_bench_stream(2048, 1024, &n, &ev);
    put("fuzz/corpus/ctf_stream/ctf2-lttng-like-fields", 32 | 2 | 16, s, n);
    free(s);
    /* LTTng-modules style: aliases, relative locations, LF after fragments */
    const char *k =
        "{\"type\":\"preamble\",\"version\":2}\n"
        "\x1e{\"type\":\"field-class-alias\",\"name\":\"u32\",\"field-class\":{\"type\":"
        "\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\","
        "\"alignment\":8}}\n"
        "\x1e{\"type\":\"field-class-alias\",\"name\":\"pkt-header\",\"field-class\":{\"type\":"
        "\"structure\",\"member-classes\":[{\"name\":\"magic\",\"field-class\":{\"type\":"
        "\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\","
        "\"roles\":[\"packet-magic-number\"]}}]}}\n"
        "\x1e{\"type\":\"trace-class\",\"packet-header-field-class\":\"pkt-header\"}\n"
        "\x1e{\"type\":\"data-stream-class\",\"packet-context-field-class\":{\"type\":\"structure\","
        "\"member-classes\":[{\"name\":\"size\",\"field-class\":{\"type\":"
        "\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"little-endian\","
        "\"roles\":[\"packet-total-length\"]}}]}}\n"
        "\x1e{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"structure\","
        "\"member-classes\":[{\"name\":\"n\",\"field-class\":\"u32\"},{\"name\":\"s\","
        "\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":{\"path\":"
        "[\"n\"]},\"element-field-class\":{\"type\":\"optional\",\"selector-field-location\":"
        "{\"path\":[\"n\"]},\"selector-field-ranges\":[[1,9]],\"field-class\":"
        "{\"type\":\"variable-length-signed-integer\"}}}}]}}\n";
    put("fuzz/corpus/ctf2_metadata/kernel-like", -1, k, strlen(k));
    return 0;
}
C
cc -std=c11 -Itests -o "$tmp/seeds" "$tmp/seeds.c" tests/support/ctf2_writer.c tests/support/ctf_writer.c \
    tests/support/tlog.c
"$tmp/seeds"
