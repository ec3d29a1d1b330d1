/* xtrace throughput: a generated 256 MB instruction stream of a typical mix
 * (basic blocks of 3..9 instructions each opened by a PCINST, the rest INST,
 * a MEM access per three instructions), read with the xtrace recorder's
 * counting callbacks (tests/support/xtrace_recorder.c) in 256 KiB chunks,
 * beside XXH3_64bits over the same bytes; then a snapshot file (VL 256 with
 * ZA, ~64 MB). Prints MB/s, records/s and max RSS.
 * `bench_xtrace MIB` reads a MIB MiB stream once with the counting callbacks
 * and prints "records read: N" (bench/instructions.sh xtrace). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <tracerd/xtrace.h>

#include "bench_clock.h"

#include "support/xtrace_recorder.h"

static uint32_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Fills buf with whole records up to cap bytes; returns the length. */
static size_t gen_stream(uint8_t *buf, size_t cap)
{
    uint64_t s = 0x9e3779b97f4a7c15ull, pc = 0x400000;
    size_t n = 0;
    unsigned k3 = 0;
    for (;;) {
        unsigned bb = 3 + rng(&s) % 7;
        if (n + 13 + bb * (5 + 9 + 16) > cap)
            break;
        pc = 0x400000 + (uint64_t)(rng(&s) % (1u << 20)) * 4;
        buf[n] = 0x09;
        put64(buf + n + 1, pc);
        put32(buf + n + 9, rng(&s));
        n += 13;
        for (unsigned i = 1; i < bb; i++) {
            buf[n] = 0x01;
            put32(buf + n + 1, rng(&s));
            n += 5;
            if (++k3 % 3 == 0) {
                unsigned r = rng(&s), k = r % 8 == 0 ? 4 : r % 4 == 0 ? 2 : 3;
                buf[n] = (uint8_t)(0x02 | ((r >> 8) & 1 ? 0x08 : 0) | k << 4);
                put64(buf + n + 1, 0x7fff00000000ull + (r & 0xffff) * 8);
                memset(buf + n + 9, (int)(r & 0xff), (size_t)1 << k);
                n += 9 + ((size_t)1 << k);
            }
        }
    }
    return n;
}

static double read_insn(const uint8_t *d, size_t n, size_t chunk, bool callbacks,
                        xtrace_insn_counts_t *c)
{
    tracerd_xtrace_insn_callbacks_t cb;
    if (callbacks)
        xtrace_insn_count_callbacks(&cb);
    else
        memset(&cb, 0, sizeof cb);
    memset(c, 0, sizeof *c);
    tracerd_xtrace_insn_reader_t *r;
    if (tracerd_xtrace_insn_new(NULL, &cb, c, NULL, &r) != TRACERD_OK)
        exit(1);
    double t0 = bench_now("XT_WALL");
    for (size_t off = 0; off < n; off += chunk) {
        size_t len = n - off < chunk ? n - off : chunk, used;
        if (tracerd_xtrace_insn_feed(r, d + off, len, &used) != TRACERD_OK) {
            fprintf(stderr, "feed: %s\n", tracerd_xtrace_insn_error_reason(r));
            exit(1);
        }
    }
    if (tracerd_xtrace_insn_finish(r) != TRACERD_OK)
        exit(1);
    double t = bench_now("XT_WALL") - t0;
    if (!callbacks)
        c->insns = tracerd_xtrace_insn_count(r);
    tracerd_xtrace_insn_free(r);
    return t;
}

static size_t gen_snap(uint8_t *buf, size_t cap, size_t *rec_bytes)
{
    tracerd_xtrace_snap_layout_t l;
    memset(&l, 0, sizeof l);
    l.header_bytes = 24;
    l.vector_length_bits = 256;
    l.p_layout = TRACERD_XTRACE_P_BLOCK;
    l.za_present = true;
    tracerd_xtrace_snap_layout_compute(&l);
    size_t S = l.record_bytes, n = 24;
    memset(buf, 0, 24);
    for (uint64_t k = 0; n + S <= cap; k++, n += S) {
        uint8_t *r = buf + n;
        memset(r, (int)(k & 0xff), S);
        put64(r, 1);
        put64(r + 8, k * 4096);
        put64(r + 16, 1000000 * (k + 1));
        put64(r + 24, 2000000 * (k + 1));
        put64(r + S - 8, 256);
    }
    *rec_bytes = S;
    return n;
}

int main(int argc, char **argv)
{
    size_t cap = (size_t)256 << 20;
    const size_t chunk = (size_t)256 << 10;
    bool write = argc == 4 && strcmp(argv[1], "write") == 0; /* write FILE MIB (make bench-cli) */
    bool once = argc == 2; /* MIB: one counting read (bench/instructions.sh) */
    if (write)
        cap = (size_t)strtoull(argv[3], NULL, 10) << 20;
    if (once)
        cap = (size_t)strtoull(argv[1], NULL, 10) << 20;
    uint8_t *buf = malloc(cap);
    if (buf == NULL)
        return 1;
    size_t n = gen_stream(buf, cap);
    if (once) { /* bench/instructions.sh: one read of the stream, counting callbacks */
        xtrace_insn_counts_t c;
        read_insn(buf, n, chunk, true, &c);
        printf("xtrace insn stream: %zu bytes\nrecords read: %llu\n", n,
               (unsigned long long)(c.insns + c.mems));
        free(buf);
        return 0;
    }
    if (write) {
        FILE *f = fopen(argv[2], "wb");
        int bad = f == NULL || fwrite(buf, 1, n, f) != n;
        if (f != NULL && fclose(f) != 0)
            bad = 1;
        free(buf);
        return bad;
    }
    long rss0 = bench_max_rss_kib();
    double best_x = 1e9, best_c = 1e9, best_v = 1e9, best_w = 1e9;
    xtrace_insn_counts_t c;
    uint64_t h = 0;
    for (int it = 0; it < 3; it++) {
        double t0 = bench_now("XT_WALL");
        h ^= XXH3_64bits(buf, n);
        double tx = bench_now("XT_WALL") - t0;
        best_x = tx < best_x ? tx : best_x;
        double tc = read_insn(buf, n, chunk, true, &c);
        best_c = tc < best_c ? tc : best_c;
        double tw = read_insn(buf, n, n, true, &c);
        best_w = tw < best_w ? tw : best_w;
        xtrace_insn_counts_t v;
        double tv = read_insn(buf, n, chunk, false, &v);
        best_v = tv < best_v ? tv : best_v;
    }
    long rss1 = bench_max_rss_kib();
    double mb = (double)n / 1e6, recs = (double)(c.insns + c.mems);
    printf("(timing: %s)\n", getenv("XT_WALL") ? "wall clock" : "process CPU time");
    printf("xtrace insn stream: %.1f MB, %llu instructions, %llu mem records (check %llx)\n", mb,
           (unsigned long long)c.insns, (unsigned long long)c.mems,
           (unsigned long long)(c.pcsum ^ h) & 0xff);
    printf("  XXH3_64bits                     %8.0f MB/s\n", mb / best_x);
    printf("  counting callbacks, 256K chunks %8.0f MB/s  %6.1f M records/s\n", mb / best_c,
           recs / best_c / 1e6);
    printf("  counting callbacks, one feed    %8.0f MB/s  %6.1f M records/s\n", mb / best_w,
           recs / best_w / 1e6);
    printf("  NULL callbacks (validate)       %8.0f MB/s\n", mb / best_v);
    printf("  max RSS: %ld KiB after generating, %ld KiB after reading (reader bound %zu B)\n",
           rss0, rss1, tracerd_xtrace_insn_memory_bound(NULL));

    size_t S;
    size_t sn = gen_snap(buf, (size_t)64 << 20, &S);
    double best_s = 1e9;
    xtrace_snap_counts_t sc;
    for (int it = 0; it < 3; it++) {
        tracerd_xtrace_snap_callbacks_t cb;
        xtrace_snap_count_callbacks(&cb);
        memset(&sc, 0, sizeof sc);
        tracerd_xtrace_snap_reader_t *r;
        if (tracerd_xtrace_snap_new(NULL, &cb, &sc, NULL, &r) != TRACERD_OK)
            return 1;
        double t0 = bench_now("XT_WALL");
        for (size_t off = 0; off < sn; off += chunk) {
            size_t len = sn - off < chunk ? sn - off : chunk, used;
            if (tracerd_xtrace_snap_feed(r, buf + off, len, &used) != TRACERD_OK) {
                fprintf(stderr, "snap: %s\n", tracerd_xtrace_snap_error_reason(r));
                return 1;
            }
        }
        if (tracerd_xtrace_snap_finish(r) != TRACERD_OK)
            return 1;
        double t = bench_now("XT_WALL") - t0;
        best_s = t < best_s ? t : best_s;
        tracerd_xtrace_snap_free(r);
    }
    printf("xtrace snapshots: %.1f MB, %llu snapshots of %zu bytes (VL 256, ZA), %llu register "
           "views\n",
           (double)sn / 1e6, (unsigned long long)sc.snaps, S, (unsigned long long)sc.regs);
    printf("  counting callbacks, 256K chunks %8.0f MB/s  %6.2f M snapshots/s\n",
           (double)sn / 1e6 / best_s, (double)sc.snaps / best_s / 1e6);
    printf("  max RSS after: %ld KiB (reader bound %zu B)\n", bench_max_rss_kib(),
           tracerd_xtrace_snap_memory_bound(NULL));
    free(buf);
    return 0;
}
