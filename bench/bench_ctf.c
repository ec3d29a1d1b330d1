/* CTF stream reader throughput on an LTTng-UST-like trace generated in
 * memory (compact headers, events of 40-100 bytes with integers, a string,
 * a sequence and an enum), beside XXH3 over the same bytes, and beside
 * babeltrace2 (sink.utils.dummy) on the same trace written to a temporary
 * folder when babeltrace2 is installed.
 *
 *   make bench            (or build/bench/bench_ctf [MiB])
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracerd/ctf.h>

/* The generators and the recorder's counting callbacks are shared with the
 * tests (tests/support/, linked in). */
#include "support/ctf2_writer.h"
#include "support/ctf_recorder.h"
#include "support/ctf_writer.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this thread: the machine is shared, so wall time overstates
 * the cost when other processes take the cores. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double children_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static long maxrss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static double last_wall;

static double run(const tracerd_ctf_trace_t *t, const uint8_t *data, size_t len, size_t chunk,
                  bool fields, ctf_counts_t *c)
{
    memset(c, 0, sizeof *c);
    tracerd_ctf_callbacks_t cb;
    /* TRACERD_BENCH_BATCH=1: every field through on_fields */
    ctf_count_callbacks(&cb, fields, getenv("TRACERD_BENCH_BATCH") != NULL);
    tracerd_ctf_stream_t *r;
    if (tracerd_ctf_stream_new(t, NULL, &cb, c, NULL, &r) != TRACERD_OK)
        exit(1);
    double t0 = cpu_now(), w0 = now();
    for (size_t o = 0; o < len; o += chunk) {
        size_t n = len - o < chunk ? len - o : chunk, used;
        tracerd_status_t st = tracerd_ctf_stream_feed(r, data + o, n, &used);
        if (st != TRACERD_OK) {
            fprintf(stderr, "feed: %s %s\n", tracerd_status_name(st),
                    tracerd_ctf_stream_error_reason(r));
            exit(1);
        }
    }
    if (tracerd_ctf_stream_finish(r) != TRACERD_OK)
        exit(1);
    double dt = cpu_now() - t0;
    last_wall = now() - w0;
    tracerd_ctf_stream_free(r);
    return dt;
}

static void report(const char *what, size_t len, uint64_t events, double dt)
{
    printf("%-48s %8.1f MB/s %7.2f M events/s  (%.3f s CPU, %.3f s wall)\n", what,
           (double)len / dt / 1e6, (double)events / dt / 1e6, dt, last_wall);
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 256;
    if (mib < 1)
        mib = 1;
    size_t pkt = 256 * 1024;
    uint64_t nev;
    size_t len;
    double g0 = now();
    uint8_t *data = ctf_writer_bench_stream((uint64_t)mib << 20, pkt, &len, &nev);
    char *meta = ctf_writer_bench_metadata();
    printf("CTF bench: %zu bytes (%.1f MiB), %llu events (%.1f bytes/event), packets of %zu KiB, "
           "generated in %.2f s\n",
           len, (double)len / 1048576.0, (unsigned long long)nev, (double)len / (double)nev,
           pkt / 1024, now() - g0);
    tracerd_ctf_trace_t *t;
    char reason[256];
    if (tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, reason, sizeof reason) !=
        TRACERD_OK) {
        fprintf(stderr, "metadata: %s\n", reason);
        return 1;
    }
    printf("reader memory bound (tracerd_ctf_stream_memory_bound): %zu bytes, whatever the trace "
           "length\n",
           tracerd_ctf_stream_memory_bound(t, NULL));
    int reps = getenv("BENCH_RUNS") ? atoi(getenv("BENCH_RUNS")) : 2;
    for (int rep = 0; rep < reps; rep++) {
        double x0 = cpu_now();
        XXH64_hash_t h = XXH3_64bits(data, len);
        double xdt = cpu_now() - x0;
        printf("run %d\n", rep + 1);
        printf("%-48s %8.1f MB/s  (%.3f s CPU, %016llx)\n", "XXH3_64bits (read every byte)",
               (double)len / xdt / 1e6, xdt, (unsigned long long)h);
        ctf_counts_t c;
        long rss0 = maxrss_kib();
        if (getenv("TRACERD_BENCH_FIELDS_ONLY")) {
            /* one pass delivering every field (for perf stat / perf record) */
            double fdt = run(t, data, len, 1 << 20, true, &c);
            report("tracerd stream, every field, 1 MiB chunks", len, c.events, fdt);
            printf("records read: %llu\n", (unsigned long long)c.events);
            continue;
        }
        double dt = run(t, data, len, 1 << 20, false, &c);
        if (c.events != nev) {
            fprintf(stderr, "event count %llu, expected %llu\n", (unsigned long long)c.events,
                    (unsigned long long)nev);
            return 1;
        }
        report("tracerd stream, event callbacks, 1 MiB chunks", len, c.events, dt);
        if (getenv("TRACERD_BENCH_EVENTS_ONLY"))
            continue;
        dt = run(t, data, len, 1 << 16, false, &c);
        report("tracerd stream, event callbacks, 64 KiB chunks", len, c.events, dt);
        dt = run(t, data, len, 1 << 20, true, &c);
        report("tracerd stream, every field, 1 MiB chunks", len, c.events, dt);
        printf("%-48s %llu fields (%.2f M fields/s)\n", "", (unsigned long long)c.fields,
               (double)c.fields / dt / 1e6);
        long rss1 = maxrss_kib();
        printf("%-48s before %ld KiB, after %ld KiB (trace buffer is %zu KiB)\n",
               "max RSS around the reader runs", rss0, rss1, len / 1024);
        /* the same data stream described by CTF 2 metadata: same programs */
        char *meta2 = ctf2_writer_bench_metadata();
        tracerd_ctf_trace_t *t2;
        if (tracerd_ctf_trace_parse(meta2, strlen(meta2), NULL, NULL, &t2, reason,
                                    sizeof reason) != TRACERD_OK) {
            fprintf(stderr, "CTF 2 metadata: %s\n", reason);
            return 1;
        }
        dt = run(t2, data, len, 1 << 20, false, &c);
        if (c.events != nev) {
            fprintf(stderr, "CTF 2: event count %llu, expected %llu\n",
                    (unsigned long long)c.events, (unsigned long long)nev);
            return 1;
        }
        report("CTF 2 metadata: event callbacks, 1 MiB chunks", len, c.events, dt);
        dt = run(t2, data, len, 1 << 20, true, &c);
        report("CTF 2 metadata: every field, 1 MiB chunks", len, c.events, dt);
        tracerd_ctf_trace_free(t2);
        free(meta2);
    }
    /* babeltrace2 on the same trace, when installed */
    if (system("command -v babeltrace2 >/dev/null 2>&1") == 0 && getenv("TRACERD_BENCH_NO_BT2") == NULL) {
        char dir[] = "/tmp/tracerd-bench-ctf-XXXXXX";
        if (mkdtemp(dir) != NULL) {
            char p[256], cmd[512];
            snprintf(p, sizeof p, "%s/metadata", dir);
            FILE *f = fopen(p, "w");
            fputs(meta, f);
            fclose(f);
            snprintf(p, sizeof p, "%s/chan_0", dir);
            f = fopen(p, "wb");
            fwrite(data, 1, len, f);
            fclose(f);
            snprintf(cmd, sizeof cmd, "babeltrace2 -c sink.utils.dummy %s >/dev/null 2>&1", dir);
            double b0 = children_cpu(), bw = now();
            int rc = system(cmd);
            double bdt = children_cpu() - b0;
            last_wall = now() - bw;
            if (rc == 0)
                report("babeltrace2 -c sink.utils.dummy (same trace)", len, nev, bdt);
            else
                printf("babeltrace2 failed (%d)\n", rc);
            snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
            if (system(cmd) != 0)
                fprintf(stderr, "cannot remove %s\n", dir);
        }
    } else {
        printf("babeltrace2 not installed: peer figure skipped\n");
    }
    tracerd_ctf_trace_free(t);
    free(meta);
    free(data);
    return 0;
}
