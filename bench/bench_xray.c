/* XRay FDR v5 throughput: a 256 MiB trace generated in memory with a
 * realistic mix (mostly function records; now and then NewCPUId, TSCWrap,
 * arguments, custom events), read with the XRay recorder's counting
 * callbacks (tests/support/xray_recorder.c), fed in 1 MiB
 * chunks as from a file and whole as from an mmap; XXH3 over the same bytes
 * is the read-every-byte reference. Peak RSS is printed before and after the
 * reads: reading must not grow it. Usage: bench_xray [MiB] */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <tracerd/tracerd.h>

#include "bench_clock.h"

#include "support/xray_recorder.h"
#include "support/xray_writer.h"

static void generate(xw_t *w, size_t target)
{
    uint32_t seed = 1;
    xw_header(w, 5, 1, 3, 2900000000u, 0);
    int tid = 1000;
    while (w->len < target) {
        size_t m = xw_extents(w, 0);
        xw_new_buffer(w, tid + (int)(seed % 8));
        xw_walltime(w, 1700000000u, 0);
        xw_pid(w, 4242);
        xw_new_cpu(w, (uint16_t)(seed % 4), 1ull << 42);
        size_t start = w->len;
        while (w->len - start < 32 * 1024) { /* 32 KiB buffers */
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 1000;
            if (r < 940) {
                xw_func(w, r & 1, 1 + r % 300, 20 + r % 100);
            } else if (r < 970) {
                xw_func(w, 3, 7, 30);
                xw_arg(w, seed);
            } else if (r < 980) {
                xw_new_cpu(w, (uint16_t)(r % 4), (1ull << 42) + seed);
            } else if (r < 985) {
                xw_tsc_wrap(w, (1ull << 42) + seed);
            } else {
                xw_custom(w, 24, 5, 0, "custom-event-payload-abc", 24);
            }
        }
        xw_end_extents(w, m);
    }
}

#define RUNS_MAX 7

static double read_trace(const uint8_t *buf, size_t len, size_t chunk, xray_counts_t *c)
{
    tracerd_xray_callbacks_t cb;
    xray_count_callbacks(&cb);
    tracerd_xray_reader_t *r;
    if (tracerd_xray_new(NULL, &cb, c, NULL, &r) != TRACERD_OK)
        exit(1);
    double t0 = bench_now("XR_WALL");
    for (size_t pos = 0; pos < len; pos += chunk) {
        size_t n = len - pos < chunk ? len - pos : chunk, used;
        if (tracerd_xray_feed(r, buf + pos, n, &used) != TRACERD_OK) {
            fprintf(stderr, "feed: %s\n", tracerd_xray_error_reason(r));
            exit(1);
        }
    }
    if (tracerd_xray_finish(r) != TRACERD_OK)
        exit(1);
    double t = bench_now("XR_WALL") - t0;
    tracerd_xray_free(r);
    return t;
}

/* Times a peer command over a trace file: CPU seconds of the child processes. */
static double child_seconds(const char *cmd)
{
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    if (system(cmd) != 0)
        return -1;
    getrusage(RUSAGE_CHILDREN, &after);
    return (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
           (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6 +
           (double)(after.ru_stime.tv_sec - before.ru_stime.tv_sec) +
           (double)(after.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e6;
}

/* llvm-xray on a 32 MiB trace of the same mix, when it is installed. */
static void peers(void)
{
    if (system("command -v llvm-xray >/dev/null 2>&1") != 0) {
        printf("llvm-xray: not installed, skipped\n");
        return;
    }
    xw_t w;
    xw_init(&w, false);
    generate(&w, (size_t)32 << 20);
    char path[] = "/tmp/tracerd-bench-xray-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (f == NULL || fwrite(w.buf, 1, w.len, f) != w.len) {
        printf("llvm-xray: cannot write a temporary trace\n");
        return;
    }
    fclose(f);
    double mb = (double)w.len / 1e6;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "llvm-xray fdr-dump %s > /dev/null", path);
    double t = child_seconds(cmd);
    if (t > 0)
        printf("llvm-xray fdr-dump (%.1f MB): %.1f MB/s\n", mb, mb / t);
    snprintf(cmd, sizeof cmd,
             "llvm-xray convert --symbolize=false --output-format=yaml %s > /dev/null", path);
    t = child_seconds(cmd);
    if (t > 0)
        printf("llvm-xray convert --output-format=yaml (%.1f MB): %.1f MB/s\n", mb, mb / t);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    printf("llvm-xray peak RSS: %ld KiB\n", ru.ru_maxrss);
    remove(path);
    xw_free(&w);
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 256;
    xw_t w;
    xw_init(&w, false);
    generate(&w, mib << 20);
    double mb = (double)w.len / 1e6;
    printf("trace: FDR v5, %.1f MB generated in memory; times are %s\n", mb,
           getenv("XR_WALL") ? "wall clock" : "process CPU time (XR_WALL=1: wall clock)");

    double best_x = 1e9;
    uint64_t h = 0;
    for (int i = 0; i < 3; i++) {
        double t0 = bench_now("XR_WALL");
        h ^= XXH3_64bits(w.buf, w.len);
        double t = bench_now("XR_WALL") - t0;
        if (t < best_x)
            best_x = t;
    }
    /* BENCH_RUNS=1 (bench/instructions.sh): one read per mode, for callgrind */
    int runs = getenv("BENCH_RUNS") ? atoi(getenv("BENCH_RUNS")) : RUNS_MAX;
    if (runs < 1 || runs > RUNS_MAX)
        runs = RUNS_MAX;
    long rss0 = bench_max_rss_kib();
    const size_t chunks[2] = {1u << 20, w.len};
    const char *names[2] = {"1 MiB chunks", "whole buffer"};
    uint64_t records_read = 0;
    for (int k = 0; k < 2; k++) {
        double best = 1e9, cycles[RUNS_MAX];
        int ncycles = 0;
        xray_counts_t c = {0};
        for (int i = 0; i < runs; i++) {
            xray_counts_t ci = {0};
            double g0 = bench_clock_ghz();
            double t = read_trace(w.buf, w.len, chunks[k], &ci);
            double g1 = bench_clock_ghz();
            if (t < best)
                best = t;
            if (g0 > 0 && g1 > 0)
                cycles[ncycles++] = t * (g0 + g1) / 2 * 1e9;
            c = ci;
            records_read += ci.functions + ci.events + ci.metadata;
        }
        uint64_t recs = c.functions + c.events + c.metadata;
        printf("tracerd xray (%s): %.0f MB/s, %.1f M records/s (%llu functions, %llu events, "
               "%llu metadata; best of %d, %.3f s)\n",
               names[k], mb / best, (double)recs / best / 1e6, (unsigned long long)c.functions,
               (unsigned long long)c.events, (unsigned long long)c.metadata, runs, best);
        bench_cycles_report(cycles, ncycles, (double)w.len, (double)recs);
    }
    long rss1 = bench_max_rss_kib();
    printf("records read: %llu\n", (unsigned long long)records_read);
    printf("XXH3_64bits over the same bytes: %.0f MB/s (hash %016llx)\n", mb / best_x,
           (unsigned long long)h);
    printf("peak RSS: %ld KiB before the reads, %ld KiB after (trace buffer included)\n", rss0,
           rss1);
    printf("reader memory bound: %zu bytes\n", tracerd_xray_memory_bound(NULL));
    xw_free(&w);
    if (getenv("XR_NO_PEERS") == NULL)
        peers();
    return 0;
}
