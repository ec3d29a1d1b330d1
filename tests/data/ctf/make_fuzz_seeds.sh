#!/bin/sh
# Writes the seed corpora of fuzz/fuzz_ctf_metadata.c and fuzz/fuzz_ctf_stream.c
# from the test trace writer (tests/support/ctf_writer.c). Run from the
# repository root: sh tests/data/ctf/make_fuzz_seeds.sh
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/seeds.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/ctf_writer.h"
static void put(const char *path, unsigned char sel, const void *p, size_t n, int with_sel)
{
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    if (with_sel) fputc(sel, f);
    fwrite(p, 1, n, f);
    fclose(f);
}
int main(void)
{
    size_t n;
    char *m = ctf_writer_metadata(0);
    put("fuzz/corpus/ctf_metadata/feature-le.tsdl", 0, m, strlen(m), 0);
    unsigned char *pk = ctf_writer_packetize(m, 1, 256, &n);
    put("fuzz/corpus/ctf_metadata/feature-packetized-be", 0, pk, n, 0);
    free(pk); free(m);
    m = ctf_writer_bench_metadata();
    put("fuzz/corpus/ctf_metadata/lttng-like.tsdl", 0, m, strlen(m), 0);
    free(m);
    const char *odd = "/* CTF 1.8 */\r\ntypealias integer { size = 32; align = 8; signed = false; blah = 3; } := unsigned int;\n"
        "typedef struct { unsigned int a; } pair_t;\ntrace { major = 1; minor = 8; byte_order = network; };\n"
        "enum big : integer { size = 64; } { MAX = 18446744073709551615, NEG = -1 ... 3, };\n"
        "event { name = e; fields := struct { pair_t p; enum big e; variant v { unsigned int a; pair_t b; }; "
        "unsigned int n; pair_t q[n][2]; }; };\n";
    put("fuzz/corpus/ctf_metadata/odd-syntax.tsdl", 0, odd, strlen(odd), 0);
    unsigned char *s = ctf_writer_stream(0, &n);
    put("fuzz/corpus/ctf_stream/feature-le-fields", 16, s, n, 1);
    put("fuzz/corpus/ctf_stream/feature-le-lenient-cut", 4 | 16, s, n - 300, 1);
    put("fuzz/corpus/ctf_stream/feature-le-small-stitch", 8, s, n, 1);
    free(s);
    s = ctf_writer_stream(1, &n);
    put("fuzz/corpus/ctf_stream/feature-be-fields", 1 | 16, s, n, 1);
    put("fuzz/corpus/ctf_stream/feature-be-events", 1, s, n, 1);
    free(s);
    uint64_t ev;
    s = ctf_writer_bench_stream(2048, 1024, &n, &ev);
    put("fuzz/corpus/ctf_stream/lttng-like-events", 2, s, n, 1);
    put("fuzz/corpus/ctf_stream/lttng-like-fields", 2 | 16, s, n, 1);
    free(s);
    return 0;
}
C
cc -std=c11 -Iinclude -Itests -o "$tmp/seeds" "$tmp/seeds.c" tests/support/ctf_writer.c
"$tmp/seeds"
