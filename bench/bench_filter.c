/* Event filter cost: an XRay FDR v5 trace with properly nested calls on 8
 * threads (generated in memory, 64 MiB by default) read through the auto
 * reader (the event view) with
 *   - a callback that receives every event (delivering: it reads the name,
 *     the time and the thread, as a consumer does),
 *   - a name filter that rejects every event (exact and glob),
 *   - a thread filter that rejects every event,
 *   - a time range keeping the first 30 ms (the rest is rejected; XRay is not
 *     time-ordered, so it is read to the end).
 * Prints CPU ns per event and each case against delivering. With a path
 * argument, also writes the trace there (for the CLI timings in
 * doc/PERFORMANCE.md). Usage: bench_filter [MiB [path]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracerd/tracerd.h>

#include "../tests/support/xray_writer.c"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Buffers of 32 KiB, each a run of call trees (depth up to 6) on one of 8
 * threads, as a program makes them: 10 entry points, each function calling
 * one of 3 callees of its own (a few thousand distinct stacks). */
static void generate(xw_t *w, size_t target)
{
    uint32_t seed = 7;
    uint64_t tsc = 1ull << 42;
    xw_header(w, 5, 1, 3, 2900000000u, 0);
    while (w->len < target) {
        size_t m = xw_extents(w, 0);
        seed = seed * 1103515245u + 12345u;
        xw_new_buffer(w, 2000 + (int)((seed >> 16) % 8));
        xw_walltime(w, 1700000000u, 0);
        xw_pid(w, 4242);
        tsc += 3000000; /* buffers follow each other (about 1 ms apart) */
        xw_new_cpu(w, (uint16_t)((seed >> 8) % 4), tsc);
        size_t start = w->len;
        uint32_t stack[8];
        unsigned depth = 0;
        while (w->len - start < 32 * 1024 || depth > 0) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 100;
            if (depth < 6 && (depth == 0 || r < 50)) {
                stack[depth] = depth == 0 ? 1 + (seed >> 8) % 10
                                          : 1 + (stack[depth - 1] * 3 + (seed >> 8) % 3) % 200;
                xw_func(w, 0, stack[depth++], 10 + r);
            } else {
                xw_func(w, 1, stack[--depth], 10 + r);
            }
        }
        xw_end_extents(w, m);
    }
}

struct sink {
    uint64_t events, sum;
};

static int deliver(void *user, const tracerd_event_t *ev)
{
    struct sink *s = user;
    s->events++;
    s->sum += ev->ns + ev->tid + ev->name.len + (unsigned char)ev->name.data[0];
    return 0;
}

static double run(const uint8_t *buf, size_t len, tracerd_event_filter_t *f, struct sink *s)
{
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.filter = f;
    tracerd_event_callbacks_t cbs = {.on_event = deliver};
    tracerd_auto_reader_t *r;
    if (tracerd_auto_new(&cfg, &cbs, s, NULL, &r) != TRACERD_OK)
        exit(1);
    double t0 = now();
    size_t used;
    for (size_t pos = 0; pos < len; pos += 1u << 20) {
        size_t n = len - pos < (1u << 20) ? len - pos : 1u << 20;
        if (tracerd_auto_feed(r, buf + pos, n, &used) != TRACERD_OK) {
            fprintf(stderr, "feed: %s\n", tracerd_auto_error_reason(r));
            exit(1);
        }
    }
    if (tracerd_auto_finish(r) != TRACERD_OK)
        exit(1);
    double t = now() - t0;
    tracerd_auto_free(r);
    return t;
}

/* Best of 5 runs. */
static double best(const uint8_t *buf, size_t len, tracerd_event_filter_t *f, struct sink *s)
{
    double b = 1e30;
    for (int i = 0; i < 5; i++) {
        memset(s, 0, sizeof *s);
        double t = run(buf, len, f, s);
        if (t < b)
            b = t;
    }
    return b;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 64;
    xw_t w;
    xw_init(&w, false);
    generate(&w, mib << 20);
    if (argc > 2) {
        FILE *o = fopen(argv[2], "wb");
        if (o == NULL || fwrite(w.buf, 1, w.len, o) != w.len || fclose(o) != 0)
            return 1;
    }
    struct sink s;
    double t_all = best(w.buf, w.len, NULL, &s);
    uint64_t events = s.events;
    printf("trace: %.1f MiB, %llu events (XRay FDR v5, 8 threads)\n", (double)w.len / 1048576.0,
           (unsigned long long)events);
    printf("%-34s %8.1f ns/event  1.00\n", "deliver every event", t_all * 1e9 / (double)events);
    static const struct {
        const char *what;
        int field;
        const char *pattern;
    } cases[] = {
        {"reject all: --name fn#999 (exact)", TRACERD_EVENT_FILTER_NAME, "fn#999"},
        {"reject all: --name '*#9999' (glob)", TRACERD_EVENT_FILTER_NAME, "*#9999"},
        {"reject all: --tid 1", TRACERD_EVENT_FILTER_TID, NULL},
        {"keep the first 30 ms: --end +30ms", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tracerd_event_filter_t *f;
        if (tracerd_event_filter_new(NULL, &f) != TRACERD_OK)
            return 1;
        if (cases[i].field == TRACERD_EVENT_FILTER_NAME)
            tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, cases[i].pattern);
        else if (cases[i].field == TRACERD_EVENT_FILTER_TID)
            tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_TID, 1);
        else
            tracerd_event_filter_set_end(f, 30000000, true);
        double t = best(w.buf, w.len, f, &s);
        printf("%-34s %8.1f ns/event  %.2f  (%llu delivered)\n", cases[i].what,
               t * 1e9 / (double)events, t / t_all, (unsigned long long)s.events);
        tracerd_event_filter_free(f);
    }
    xw_free(&w);
    return 0;
}
