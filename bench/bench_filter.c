/* Event filter cost: an XRay FDR v5 trace with properly nested calls on 8
 * threads (generated in memory, 64 MiB by default), and an FXT trace of
 * duration begin/end events with two arguments each on 8 threads (half
 * that size), read through the auto reader (the event view) with
 *   - a callback that receives every event (delivering: it reads the name,
 *     the time and the thread, as a consumer does),
 *   - a name filter that rejects every event (exact and glob),
 *   - a thread filter that rejects every event,
 *   - a time range keeping the first 30 ms (the rest is rejected; XRay is not
 *     time-ordered, so it is read to the end).
 * The delivering callback is the event view recorder's counting one
 * (tests/support/event_recorder.c). Prints CPU ns per event and each case
 * against delivering. With a path
 * argument, also writes the XRay trace there, with a second one the FXT
 * trace (for the CLI timings in doc/PERFORMANCE.md).
 * Usage: bench_filter [MiB [xray-path [fxt-path]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tracerd/tracerd.h>

#include "bench_clock.h"

#include "support/ctf_writer.h"
#include "support/event_recorder.h"
#include "support/fxt_writer.h"
#include "support/xray_writer.h"

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

/* FXT: 8 threads, each a run of nested duration begin/end events (depth
 * up to 4) named by 12 names, each event with a counter and a flag. */
static void generate_fxt(fxw_t *w, size_t target)
{
    static const char *const names[] = {"frame", "layout", "paint", "draw", "text", "image",
                                        "input", "timer",  "gc",    "io",   "net",  "idle"};
    uint32_t seed = 11;
    uint64_t ts = 1000;
    fxw_magic(w);
    fxw_init_record(w, 1000000000u);
    fxw_string(w, 1, "app");
    fxw_string(w, 2, "n");
    fxw_string(w, 3, "ok");
    for (uint16_t i = 0; i < 12; i++)
        fxw_string(w, (uint16_t)(10 + i), names[i]);
    for (uint8_t t = 1; t <= 8; t++)
        fxw_thread(w, t, 4242, 100 + t);
    uint16_t stack[8];
    unsigned depth = 0;
    uint8_t th = 1;
    uint64_t n = 0;
    while (w->len < target || depth > 0) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 16) % 100;
        ts += 10 + r;
        fxw_arg_t args[] = {FXA_U64(FXS_IDX(2), n++), FXA_BOOL(FXS_IDX(3), r & 1)};
        if (depth < 4 && (depth == 0 || r < 50)) {
            stack[depth] = (uint16_t)(10 + (seed >> 8) % 12);
            fxw_event(w, 2, FXT_IDX(th), FXS_IDX(1), FXS_IDX(stack[depth]), ts, args, 2, 0);
            depth++;
        } else {
            depth--;
            fxw_event(w, 3, FXT_IDX(th), FXS_IDX(1), FXS_IDX(stack[depth]), ts, args, 2, 0);
            if (depth == 0)
                th = (uint8_t)(1 + (seed >> 4) % 8);
        }
    }
}

/* meta: the CTF metadata of a CTF stream (NULL for XRay and FXT). */
static double run(const uint8_t *buf, size_t len, const char *meta, tracerd_event_filter_t *f,
                  ev_counts_t *s)
{
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.filter = f;
    tracerd_event_callbacks_t cbs;
    ev_count_callbacks(&cbs);
    tracerd_auto_reader_t *r;
    if (tracerd_auto_new(&cfg, &cbs, s, NULL, &r) != TRACERD_OK ||
        (meta != NULL && tracerd_auto_metadata(r, meta, strlen(meta)) != TRACERD_OK))
        exit(1);
    double t0 = bench_now(NULL);
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
    double t = bench_now(NULL) - t0;
    tracerd_auto_free(r);
    return t;
}

/* Best of 5 runs (BENCH_RUNS=N: of N). */
static double best(const uint8_t *buf, size_t len, const char *meta, tracerd_event_filter_t *f,
                   ev_counts_t *s)
{
    double b = 1e30;
    const char *env = getenv("BENCH_RUNS");
    int runs = env != NULL && atoi(env) > 0 ? atoi(env) : 5;
    for (int i = 0; i < runs; i++) {
        memset(s, 0, sizeof *s);
        double t = run(buf, len, meta, f, s);
        if (t < b)
            b = t;
    }
    return b;
}

struct fcase {
    const char *what;
    int field; /* 0: --end +30ms */
    const char *pattern;
    uint64_t id;
};

/* The four cases of a trace: a name no event has (exact, then a glob), a
 * thread none runs on, and the first 30 ms. */
#define FCASES(exact, glob)                                                                        \
    {                                                                                              \
        {"reject all: --name " exact " (exact)", TRACERD_EVENT_FILTER_NAME, exact, 0},             \
            {"reject all: --name '" glob "' (glob)", TRACERD_EVENT_FILTER_NAME, glob, 0},          \
            {"reject all: --tid 1", TRACERD_EVENT_FILTER_TID, NULL, 1},                            \
            {"keep the first 30 ms: --end +30ms", 0, NULL, 0},                                     \
    }

static tracerd_event_filter_t *make_filter(const struct fcase *k)
{
    tracerd_event_filter_t *f;
    if (tracerd_event_filter_new(NULL, &f) != TRACERD_OK)
        exit(1);
    if (k->field == TRACERD_EVENT_FILTER_NAME)
        tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, k->pattern);
    else if (k->field != 0)
        tracerd_event_filter_add_id(f, (tracerd_event_filter_field_t)k->field, k->id);
    else
        tracerd_event_filter_set_end(f, 30000000, true);
    return f;
}

/* Writes a generated trace to path (for the CLI timings); exits on failure. */
static void write_trace(const char *path, const uint8_t *buf, size_t len)
{
    FILE *o = fopen(path, "wb");
    if (o == NULL || fwrite(buf, 1, len, o) != len || fclose(o) != 0)
        exit(1);
}

/* Delivering, then each case, on one trace. */
static void cases_on(const char *title, const uint8_t *buf, size_t len, const char *meta,
                     const struct fcase *cases, size_t ncases)
{
    /* BENCH_ONLY=T.C: only case C (0: delivering) of trace T (0 XRay, 1
     * FXT, 2 CTF), for bench/filter_instructions.sh */
    const char *only = getenv("BENCH_ONLY");
    ev_counts_t s;
    if (only != NULL) {
        size_t c = (size_t)atoi(strchr(only, '.') ? strchr(only, '.') + 1 : "0");
        size_t t = strstr(title, "FXT") ? 1u : strstr(title, "CTF") ? 2u : 0u;
        if ((size_t)atoi(only) != t || c > ncases)
            return;
        tracerd_event_filter_t *f = c > 0 ? make_filter(&cases[c - 1]) : NULL;
        memset(&s, 0, sizeof s);
        run(buf, len, meta, f, &s);
        tracerd_event_filter_free(f);
        printf("%s | %s: %llu delivered\n", title, c ? cases[c - 1].what : "deliver every event",
               (unsigned long long)s.events);
        return;
    }
    double t_all = best(buf, len, meta, NULL, &s);
    uint64_t events = s.events;
    printf("%s: %.1f MiB, %llu events\n", title, (double)len / 1048576.0,
           (unsigned long long)events);
    printf("%-34s %8.1f ns/event  1.00\n", "deliver every event", t_all * 1e9 / (double)events);
    for (size_t i = 0; i < ncases; i++) {
        tracerd_event_filter_t *f = make_filter(&cases[i]);
        double t = best(buf, len, meta, f, &s);
        printf("%-34s %8.1f ns/event  %.2f  (%llu delivered)\n", cases[i].what,
               t * 1e9 / (double)events, t / t_all, (unsigned long long)s.events);
        tracerd_event_filter_free(f);
    }
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 64;
    xw_t w;
    xw_init(&w, false);
    generate(&w, mib << 20);
    if (argc > 2)
        write_trace(argv[2], w.buf, w.len);
    static const struct fcase xcases[] = FCASES("fn#999", "*#9999");
    cases_on("XRay FDR v5, 8 threads", w.buf, w.len, NULL, xcases,
             sizeof xcases / sizeof xcases[0]);
    xw_free(&w);
    fxw_t fw;
    fxw_init(&fw, false);
    generate_fxt(&fw, (mib / 2) << 20);
    if (argc > 3) /* the FXT trace too (for the CLI's commands) */
        write_trace(argv[3], fw.buf, fw.len);
    static const struct fcase fcases[] = FCASES("nothing", "*xyz*");
    cases_on("FXT, 8 threads, 2 arguments per event", fw.buf, fw.len, NULL, fcases,
             sizeof fcases / sizeof fcases[0]);
    fxw_free(&fw);
    /* CTF: an LTTng-UST-like stream (the writer's benchmark trace) */
    char *meta = ctf_writer_bench_metadata();
    size_t clen;
    uint64_t cevents;
    uint8_t *cbuf = ctf_writer_bench_stream((uint64_t)(mib / 2) << 20, 65536, &clen, &cevents);
    cases_on("CTF, LTTng-UST-like, 6 fields per event", cbuf, clen, meta, fcases,
             sizeof fcases / sizeof fcases[0]);
    free(cbuf);
    free(meta);
    return 0;
}
