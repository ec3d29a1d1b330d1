/* `tracerd stats` reads a plain XRay stream straight from the reader's
 * records (cmd_stats.c, the fast path) and a CTF trace directory straight
 * from the CTF directory reader (stats_ctf.c) instead of through the event
 * view, and so does `tracerd json` a plain XRay stream (json_xray.c): their
 * output, errors and exit codes must be the event view's byte for byte.
 * TRACERD_CLI_GENERAL=1 makes the CLI take the event view always; each run
 * here is made both ways and compared, over every XRay and FXT trace of
 * tests/data and ../shared/peer-tests (whole and cut short), writer-made
 * traces named by an instrumented binary, and with filters (which take the
 * event view both ways). */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tracerd/event.h>

#include "support/ctf_writer.h"
#include "support/event_support.h"
#include "support/fxt_writer.h"
#include "support/xray_writer.h"

/* Runs `tracerd stats ARGS... path` both ways; fails on any difference. */
static unsigned both_ways(const char *cli, const char *const *args, const char *path)
{
    return ev_run_both_ways(cli, "TRACERD_CLI_GENERAL", "stats", args, path);
}

/* Every way of writing the report, and reader options. */
static const char *const arg_sets[][8] = {
    {"-q"},
    {"-q", "--format", "csv", "--sort", "count"},
    {"-q", "--format", "json", "--sort", "self", "--top", "3"},
    {"-q", "--no-demangle", "--sort", "p99"},
    {"-q", "--lenient", "--top", "0"},
    /* spans dropped at the bound of open spans (the fast path's stack
     * bound, then record by record) */
    {"-q", "--max-open", "2"},
};

/* Runs `tracerd json ARGS... path` both ways; fails on any difference. */
static unsigned json_both_ways(const char *cli, const char *const *args, const char *path)
{
    return ev_run_both_ways(cli, "TRACERD_CLI_GENERAL", "json", args, path);
}

/* json's argument sets on every XRay file: chunks that split runs of
 * records, reader options, spans dropped at the bound of open spans. */
static const char *const json_sets[][8] = {
    {"-q"},
    {"-q", "--chunk", "100"},
    {"-q", "--chunk", "7", "--lenient"},
    {"-q", "--max-open", "2"},
    {"--chunk", "4096"}, /* with the note of the spans left out */
};

/* both_ways for each argument set, each to exit 0; with json too (the
 * same sets) when json. */
static void every_set(const char *cli, const char *const (*sets)[8], size_t n, const char *trace,
                      bool json)
{
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(both_ways(cli, sets[i], trace), 1);
        if (json)
            ck_assert_uint_eq(json_both_ways(cli, sets[i], trace), 1);
    }
}

/* The format a file's head is detected as. */
static tracerd_event_format_t format_of(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return TRACERD_EVENT_FORMAT_UNKNOWN;
    unsigned char head[4096];
    size_t n = fread(head, 1, sizeof head, f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fclose(f);
    int score;
    return tracerd_event_detect(head, n, &score);
}

/* A copy of the first `keep` bytes of path, as a temp file. */
static char *cut_copy(const char *path, size_t keep, unsigned k)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = malloc(keep ? keep : 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, keep, f), keep);
    fclose(f);
    char name[64];
    const char *base = strrchr(path, '/');
    snprintf(name, sizeof name, "cut%u-%.40s", k, base ? base + 1 : path);
    char *out = ev_temp_file(name, buf, keep);
    free(buf);
    return out;
}

struct walk {
    const char *cli;
    unsigned files, runs, ok;
};

static void check_file(struct walk *w, const char *path)
{
    size_t size = 0;
    tracerd_event_format_t fmt = format_of(path, &size);
    if (fmt != TRACERD_EVENT_FORMAT_XRAY && fmt != TRACERD_EVENT_FORMAT_FXT)
        return;
    w->files++;
    for (size_t i = 0; i < sizeof arg_sets / sizeof arg_sets[0]; i++) {
        w->ok += both_ways(w->cli, arg_sets[i], path);
        w->runs++;
    }
    for (size_t i = 0; fmt == TRACERD_EVENT_FORMAT_XRAY && i < sizeof json_sets / sizeof json_sets[0];
         i++) {
        w->ok += json_both_ways(w->cli, json_sets[i], path);
        w->runs++;
    }
    /* cut short: the report (json: the document) of what was read, then the
     * same error */
    static const char *const quiet[] = {"-q", NULL};
    size_t cuts[] = {size / 2 + 3, size - 1, 40};
    for (unsigned k = 0; k < 3; k++) {
        if (cuts[k] >= size || cuts[k] == 0)
            continue;
        char *c = cut_copy(path, cuts[k], k);
        both_ways(w->cli, quiet, c);
        w->runs++;
        if (fmt == TRACERD_EVENT_FORMAT_XRAY) {
            json_both_ways(w->cli, quiet, c);
            w->runs++;
        }
        remove(c);
        free(c);
    }
}

static void visit(void *ctx, const char *path, bool is_dir)
{
    if (!is_dir)
        check_file(ctx, path);
}

START_TEST(test_samples_and_peers)
{
    CLI_OR_SKIP(cli);
    struct walk w = {cli, 0, 0, 0};
    ev_walk_tree("tests/data", visit, &w);
    unsigned ours = w.files;
    ev_walk_tree("../shared/peer-tests", visit, &w);
    fprintf(stderr, "stats and json fast paths: %u XRay/FXT files (%u from peers), %u runs, %u exit 0\n",
            w.files, w.files - ours, w.runs, w.ok);
    ck_assert_uint_ge(ours, 20);
    ck_assert_uint_gt(w.ok, 0);
}
END_TEST

/* Every CTF trace directory of tests/data and ../shared/peer-tests (those
 * that fail too: the report of what was read, then the same error), the
 * tests' directory of three traces, a directory of LTTng-UST function
 * events (spans named by their address) in two streams, and with filters
 * (the event view both ways). */
struct ctf_walk {
    const char *cli;
    unsigned dirs, ok;
};

static void walk_ctf(struct ctf_walk *w, const char *dir, unsigned depth)
{
    char meta[1100];
    snprintf(meta, sizeof meta, "%s/metadata", dir);
    struct stat sb;
    if (stat(meta, &sb) == 0) {
        static const char *const quiet[] = {"-q", NULL};
        w->ok += both_ways(w->cli, quiet, dir);
        w->dirs++;
        return;
    }
    DIR *d = depth < 6 ? opendir(dir) : NULL;
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            walk_ctf(w, path, depth + 1);
    }
    closedir(d);
}

START_TEST(test_ctf_dirs)
{
    CLI_OR_SKIP(cli);
    struct ctf_walk w = {cli, 0, 0};
    walk_ctf(&w, "tests/data/ctf", 1);
    unsigned ours = w.dirs;
    walk_ctf(&w, "../shared/peer-tests", 0);
    fprintf(stderr, "stats on CTF directories: %u (%u from peers), %u exit 0\n", w.dirs,
            w.dirs - ours, w.ok);
    ck_assert_uint_ge(ours, 3);
    for (size_t i = 0; i < sizeof arg_sets / sizeof arg_sets[0]; i++) {
        ck_assert_uint_eq(both_ways(cli, arg_sets[i], "tests/data/ctf"), 1);
        ck_assert_uint_eq(
            both_ways(cli, arg_sets[i], "tests/data/ctf/demo-lttng-ust"), 1);
    }
    /* function entry and exit: spans named by their address */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/lttng-func", ev_temp_dir());
    ck_assert(mkdir(dir, 0700) == 0 || errno == EEXIST);
    uint8_t buf[512];
    size_t len = ev_lttng_func_stream(buf);
    static const char *const files[] = {"metadata", "chan_0", "chan_1"};
    for (int k = 0; k < 3; k++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        if (k == 0)
            ck_assert_int_ge(fputs(ev_lttng_func_metadata, f), 0);
        else
            ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
        fclose(f);
    }
    for (size_t i = 0; i < sizeof arg_sets / sizeof arg_sets[0]; i++)
        ck_assert_uint_eq(both_ways(cli, arg_sets[i], dir), 1);
    static const char *const filtered[][8] = {
        {"-q", "--tid", "77"},
        {"-q", "--name", "*func*", "--format", "csv"},
    };
    for (size_t i = 0; i < 2; i++) {
        ck_assert_uint_eq(both_ways(cli, filtered[i], dir), 1);
        ck_assert_uint_eq(
            both_ways(cli, filtered[i], "tests/data/ctf/demo-lttng-ust"), 1);
    }
}
END_TEST

/* Names from an instrumented binary (demangled or not), both byte orders,
 * and filters (the event view both ways). */
START_TEST(test_instr_map_and_filters)
{
    CLI_OR_SKIP(cli);
    char *elf_path = ev_cpp_instr_map();
    for (int big = 0; big < 2; big++) {
        xw_t x;
        xw_init(&x, big != 0);
        xw_sample_v5(&x);
        char *trace = ev_temp_file(big ? "be.xray" : "le.xray", x.buf, x.len);
        xw_free(&x);
        const char *const sets[][8] = {
            {"-q", "--instr-map", elf_path},
            {"-q", "--instr-map", elf_path, "--no-demangle", "--format", "csv"},
            {"-q", "--instr-map", elf_path, "--format", "json", "--sort", "count"},
            {"-q", "--instr-map", elf_path, "--name", "*work*"},
            {"-q", "--tid", "42", "--format", "csv"},
            {"-q", "--begin", "+1us", "--end", "+1ms"},
        };
        every_set(cli, sets, sizeof sets / sizeof sets[0], trace, true);
        free(trace);
    }
    free(elf_path);
}
END_TEST

/* Deep spans: one thread nests 1,100 calls (past EV_MAX_DEPTH, the stack
 * growing on the way), another a few, in buffers that take turns; exits
 * that close several spans at once, exits of functions not open, tail
 * exits, and the bound of open spans in all (--max-open) reached at several
 * depths, buffers on changing CPUs, one thread id in two processes: the
 * fast paths' stack bounds and their fall back to record by record,
 * against the event view, both byte orders. */
START_TEST(test_depth_bounds)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        xw_t x;
        xw_init(&x, big != 0);
        xw_header(&x, 5, 1, 3, 1000000000u, 0);
        for (int b = 0; b < 6; b++) {
            size_t m = xw_extents(&x, 0);
            /* thread 8 of process 70, then of 71 in the last buffer */
            xw_new_buffer(&x, b % 2 && b != 5 ? 9 : 8);
            xw_walltime(&x, 1, 0);
            xw_pid(&x, b == 5 ? 71 : 70);
            xw_new_cpu(&x, (uint16_t)(1 + b % 4), 1000u * (unsigned)b); /* CPUs change */
            if (b % 2 == 0) {
                for (uint32_t i = 0; i < 400; i++) /* 400 deeper per buffer */
                    xw_func(&x, 0, 1 + i % 37, 3);
                xw_func(&x, 1, 999, 1);         /* not open: unmatched */
                xw_func(&x, 2, 1 + 399 % 37, 2); /* tail exit, the innermost */
                xw_func(&x, 1, 1 + 390 % 37, 2); /* closes several */
            } else {
                for (uint32_t i = 0; i < 5; i++)
                    xw_func(&x, 0, 100 + i, 1);
                xw_func(&x, 1, 100, 4); /* closes all five */
                xw_func(&x, 1, 100, 4); /* unmatched */
            }
            xw_end_extents(&x, m);
        }
        char *trace = ev_temp_file(big ? "deep-be.xray" : "deep-le.xray", x.buf, x.len);
        xw_free(&x);
        const char *const sets[][8] = {
            {"-q"},
            {"-q", "--max-open", "1"},
            {"-q", "--max-open", "3", "--format", "csv"},
            {"-q", "--max-open", "700", "--sort", "count"},
            {"-q", "--max-open", "1030", "--format", "json"},
        };
        every_set(cli, sets, sizeof sets / sizeof sets[0], trace, true);
        remove(trace);
        free(trace);
    }
}
END_TEST

/* One FDR v5 buffer of thread tid: for each id of ids, a span of it
 * holding a span of the next (durations from below 32 ticks to past 2^20,
 * repeated so that the names' tables are hit), then exits of ids not open. */
static void xray_ids_buffer(xw_t *x, int32_t tid, const uint32_t *ids, size_t n, uint32_t round)
{
    size_t m = xw_extents(x, 0);
    xw_new_buffer(x, tid);
    xw_walltime(x, 1, 0);
    xw_pid(x, 70);
    xw_new_cpu(x, 1, 1000u + round);
    for (size_t i = 0; i < n; i++) {
        uint32_t inner = ids[(i + 1) % n];
        xw_func(x, 0, ids[i], 3);
        xw_func(x, round % 2 ? 3 : 0, inner, 1u << (i % 22)); /* an entry with arguments too */
        if (round % 2)
            xw_arg(x, i);
        xw_func(x, (i + round) % 3 ? 1 : 2, inner, (uint32_t)(i * 7 % 40));
        xw_func(x, 1, ids[i], 1u << ((i + round) % 24));
    }
    xw_func(x, 1, ids[0], 5); /* not open */
    xw_end_extents(x, m);
}

/* Function ids on both sides of the fast path's name table by id (below
 * 65,536) and its cache of larger ids (ids that share a cache slot), and
 * more span names than have a duration histogram (STATS_MAX_HISTS, 65,536:
 * the later ones show no percentiles), with and without a TSC frequency
 * (ns or ticks), both byte orders: against the event view. */
START_TEST(test_function_ids)
{
    CLI_OR_SKIP(cli);
    static const uint32_t ids[] = {
        0,      1,      1024,   65535,  65536,  65537,      65536 + 1024, 65536 + 2048,
        131071, 300000, 300001, 1u << 27, (1u << 28) - 1, (1u << 28) - 1025, 2,    65534,
    };
    const size_t n = sizeof ids / sizeof ids[0];
    for (int big = 0; big < 2; big++)
        for (int freq = 0; freq < 2; freq++) {
            xw_t x;
            xw_init(&x, big != 0);
            xw_header(&x, 5, 1, 3, freq ? 2400000000u : 0, 0);
            for (uint32_t round = 0; round < 6; round++)
                xray_ids_buffer(&x, round % 3 == 2 ? 9 : 8, ids, n, round);
            char *trace = ev_temp_file("ids.xray", x.buf, x.len);
            xw_free(&x);
            const char *const sets[][8] = {
                {"-q", "--format", "csv", "--top", "0"},
                {"-q", "--sort", "p99"},
                {"-q", "--max-open", "3", "--format", "json"},
            };
            every_set(cli, sets, sizeof sets / sizeof sets[0], trace, true);
            remove(trace);
            free(trace);
        }
    /* basic mode: ids are 32-bit signed there (negative ones past the table) */
    for (int big = 0; big < 2; big++) {
        xw_t x;
        xw_init(&x, big != 0);
        xw_header(&x, 3, 0, 0, 1000000000u, 0);
        static const int32_t bids[] = {-1, 5, -1024, 65536, -65536, 1023};
        uint64_t ts = 100;
        for (unsigned r = 0; r < 4; r++)
            for (size_t i = 0; i < 6; i++) {
                xw_basic_func(&x, 1, 0, bids[i], ts, 11, 99);
                xw_basic_func(&x, 1, 0, bids[(i + r) % 6], ts + 3, 11, 99);
                xw_basic_func(&x, 1, 1, bids[(i + r) % 6], ts + 9 + i, 11, 99);
                xw_basic_func(&x, 1, 2, bids[i], ts + 40 + 9 * i, 11, 99);
                ts += 100;
            }
        char *trace = ev_temp_file("basic.xray", x.buf, x.len);
        xw_free(&x);
        static const char *const q[] = {"-q", "--format", "csv", NULL};
        ck_assert_uint_eq(both_ways(cli, q, trace), 1);
        ck_assert_uint_eq(json_both_ways(cli, q, trace), 1);
        remove(trace);
        free(trace);
    }
    /* 65,540 span names, each a span of 40 << (id % 9) ticks */
    xw_t x;
    xw_init(&x, false);
    xw_header(&x, 5, 1, 3, 1000000000u, 0);
    size_t m = xw_extents(&x, 0);
    xw_new_buffer(&x, 8);
    xw_walltime(&x, 1, 0);
    xw_new_cpu(&x, 1, 1000u);
    for (uint32_t id = 1; id <= 65540; id++) {
        xw_func(&x, 0, id, 3);
        xw_func(&x, 1, id, 40u << (id % 9));
    }
    xw_end_extents(&x, m);
    char *trace = ev_temp_file("names.xray", x.buf, x.len);
    xw_free(&x);
    static const char *const csv[] = {"-q", "--format", "csv", "--top", "0", NULL};
    ck_assert_uint_eq(both_ways(cli, csv, trace), 1);
    ck_assert_uint_eq(json_both_ways(cli, csv, trace), 1);
    remove(trace);
    free(trace);
}
END_TEST

/* An FXT trace for the fast path's caches: event records named by string
 * indices (more (category, name) pairs than the name cache holds), inline
 * strings, an index given another string (used and unused) and a thread
 * index given other koids mid-trace, a second provider with the same
 * indices for other strings and threads, inline threads, every event type
 * (an undefined one too), the other records (scheduling, log, blobs,
 * objects), an event before the initialization record when early. */
static void fxt_refs_trace(fxw_t *w, bool early)
{
    const fxw_arg_t args[] = {
        FXA_U64(FXS_IDX(3), 7), FXA_STR(FXS_INL("k"), FXS_IDX(4)), FXA_I32(FXS_IDX(5), -2)};
    char text[32];
    fxw_magic(w);
    fxw_provider_info(w, 1, "one");
    if (early)
        fxw_event(w, 0, FXT_INL(1, 2), FXS_INL("early"), FXS_INL("e"), 5, NULL, 0, 0);
    fxw_init_record(w, early ? 3000000000u : 1000000000u);
    for (unsigned i = 1; i <= 48; i++) {
        snprintf(text, sizeof text, i <= 8 ? "cat%u" : "fn%u", i);
        fxw_string(w, (uint16_t)i, text);
    }
    for (unsigned i = 1; i <= 4; i++)
        fxw_thread(w, (uint8_t)i, 100 + i % 2, 200 + i);
    fxw_kernel(w, 101, 1, FXS_INL("proc"), NULL, 0);
    uint64_t ts = 1000;
    for (unsigned round = 0; round < 3; round++) {
        for (unsigned c = 1; c <= 8; c++)
            for (unsigned n = 9; n <= 48; n++) {
                fxw_tref_t th = n % 7 == 0 ? FXT_INL(100, 300 + c) : FXT_IDX(1 + (n + c) % 4);
                fxw_event(w, 2, th, FXS_IDX(c), FXS_IDX(n), ts, args, n % 4, 0);
                uint32_t type = (n + round) % 12; /* 11: undefined */
                if (type != 2 && type != 3)
                    fxw_event(w, type, th, FXS_IDX(c), FXS_IDX(n), ts + 2, args, n % 3,
                              ts + 5 + n);
                fxw_event(w, 3, th, FXS_IDX(c), FXS_IDX(n), ts + 10 + n, NULL, 0, 0);
                ts += 20;
            }
        /* an index of a name in use given another string, one not in use,
         * a thread index given other koids */
        snprintf(text, sizeof text, "renamed%u", round);
        fxw_string(w, (uint16_t)(10 + round), text);
        fxw_string(w, (uint16_t)(10000 + round), "unused");
        fxw_thread(w, (uint8_t)(1 + round), round == 0 ? 101 : 900 + round, 901 + round);
        fxw_event(w, 4, FXT_IDX(2), FXS_INL("inl"), FXS_IDX(11), ts, NULL, 0, ts + 50);
        fxw_event(w, 0, FXT_IDX(3), FXS_IDX(1), FXS_INL("inline name"), ts + 1, NULL, 0, 0);
        fxw_context_switch(w, 1, 2, ts + 3, 201, 202, NULL, 0);
        fxw_wakeup(w, 1, ts + 4, 203, NULL, 0);
        fxw_legacy_switch(w, 0, 3, FXT_IDX(1), FXT_IDX(2), 5, 6, ts + 5);
        fxw_log(w, ts + 6, FXT_IDX(4), "hello");
        fxw_blob(w, FXS_IDX(12), 1, "abc", 3);
        fxw_large_blob(w, round % 2, FXS_IDX(2), FXS_IDX(13), ts + 7, FXT_IDX(1), NULL, 0,
                       "xyz", 3);
        fxw_userspace(w, 0x1000, FXT_IDX(1), FXS_IDX(14), NULL, 0);
        fxw_kernel(w, 202, 2, FXS_INL("thr"), NULL, 0);
        /* another provider: the same indices, other strings and threads */
        fxw_provider_info(w, 2 + round, "two");
        fxw_string(w, 1, "other-cat");
        fxw_string(w, 9, "other-fn");
        fxw_thread(w, 1, 500, 501);
        for (unsigned k = 0; k < 5; k++) {
            fxw_event(w, 2, FXT_IDX(1), FXS_IDX(1), FXS_IDX(9), ts + 10 + k, NULL, 0, 0);
            fxw_event(w, 3, FXT_IDX(1), FXS_IDX(1), FXS_IDX(9), ts + 12 + k, NULL, 0, 0);
        }
        fxw_provider_section(w, 1);
        ts += 100;
    }
}

/* The FXT fast path (name and thread caches by reference) against the event
 * view: every argument set, both byte orders, with and without an event
 * before the initialization record, whole and cut short. */
START_TEST(test_fxt_refs)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++)
        for (int early = 0; early < 2; early++) {
            fxw_t w;
            fxw_init(&w, big != 0);
            fxt_refs_trace(&w, early != 0);
            char name[32];
            snprintf(name, sizeof name, "refs%d%d.fxt", big, early);
            char *trace = ev_temp_file(name, w.buf, w.len);
            every_set(cli, arg_sets, sizeof arg_sets / sizeof arg_sets[0], trace, false);
            static const char *const quiet[] = {"-q", NULL};
            for (size_t cut = w.len / 3; cut < w.len; cut += w.len / 3 - 3) {
                char *c = ev_temp_file("refs-cut.fxt", w.buf, cut);
                both_ways(cli, quiet, c); /* equal either way (a cut may end a record) */
                free(c);
            }
            free(trace);
            fxw_free(&w);
        }
}
END_TEST

/* ---- threads that change within a stream (stats_ctf.c's runs) ------------
 * Two streams of instants whose context's vtid and vpid (signed) change
 * mid-stream: a thread's run of events, another thread on the same run
 * slot (tids 5, 21 and 37 are equal modulo 16), the same tid in two
 * processes, a thread in both streams, tid -1 and 0, a time earlier than
 * the one before it (the run's bounds); both byte orders. */
struct tr_ev {
    uint64_t ts;
    uint32_t id;
    int32_t pid, tid;
};

static const struct tr_ev tr_chan0[] = {
    {1000, 0, 100, 5},  {1010, 1, 100, 5}, {1020, 0, 100, 5},  {990, 0, 100, 5},
    {1040, 1, 100, 21}, {1050, 1, 100, 21}, {1060, 0, 100, 21}, {1070, 0, 100, 5},
    {1080, 1, 100, 5},  {1090, 0, 200, 5}, {1100, 1, 200, 5},  {1110, 0, 100, -1},
    {1120, 1, 0, 0},
};
static const struct tr_ev tr_chan1[] = {
    {1005, 1, 100, 5},  {1006, 0, 100, 5},  {1015, 0, 100, 5},  {1025, 1, 300, 37},
    {1035, 1, 300, 37}, {1045, 0, 300, 37}, {1055, 0, 100, 21}, {1065, 1, 100, 21},
    {1075, 1, 300, 6},  {1085, 0, 300, 6},
};

/* The contexts of tr_metadata's stream: vtid and vpid, vtid alone, vpid
 * alone. */
enum { TR_BOTH, TR_TID, TR_PID };

/* The metadata: byte order big, context ctx, classes "t:a", "t:b" (2), or
 * "t:c0" ... (more). */
static char *tr_metadata(bool big, int ctx, unsigned classes)
{
    static const char *const ctxs[] = {"int32_t _vtid; int32_t _vpid;", "int32_t _vtid;",
                                       "int32_t _vpid;"};
    size_t cap = 2048 + (size_t)classes * 96, n = 0;
    char *m = malloc(cap);
    ck_assert_ptr_nonnull(m);
    n += (size_t)snprintf(
        m + n, cap - n,
        "/* CTF 1.8 */\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
        "trace { major = 1; minor = 8; byte_order = %s;\n"
        "  packet.header := struct { uint32_t magic; }; };\n"
        "env { domain = \"ust\"; };\n"
        "clock { name = \"c\"; freq = 1000000000; };\n"
        "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := "
        "clk_t;\n"
        "stream { packet.context := struct { uint64_t content_size; uint64_t packet_size;\n"
        "    uint32_t cpu_id; };\n"
        "  event.header := struct { uint32_t id; clk_t timestamp; };\n"
        "  event.context := struct { %s }; };\n",
        big ? "be" : "le", ctxs[ctx]);
    for (unsigned i = 0; i < classes; i++) {
        char name[16];
        if (classes == 2)
            snprintf(name, sizeof name, "t:%c", 'a' + i);
        else
            snprintf(name, sizeof name, "t:c%u", i);
        n += (size_t)snprintf(m + n, cap - n,
                              "event { name = \"%s\"; id = %u; fields := struct { uint32_t x; }; };\n",
                              name, i);
    }
    ck_assert_uint_lt(n, cap);
    return m;
}

/* One packet of the n events into w, with context ctx. */
static void tr_stream(cw_t *w, const struct tr_ev *ev, size_t n, uint32_t cpu, bool big, int ctx)
{
    const uint64_t ev_bytes = 4 + 8 + (ctx == TR_BOTH ? 8 : 4) + 4;
    const uint64_t bits = (4 + 8 + 8 + 4) * 8 + (uint64_t)n * ev_bytes * 8;
    cw_int(w, 0xC1FC1FC1u, 32, big);
    cw_int(w, bits, 64, big);
    cw_int(w, bits, 64, big);
    cw_int(w, cpu, 32, big);
    for (size_t i = 0; i < n; i++) {
        cw_int(w, ev[i].id, 32, big);
        cw_int(w, ev[i].ts, 64, big);
        if (ctx != TR_PID)
            cw_int(w, (uint32_t)ev[i].tid, 32, big);
        if (ctx != TR_TID)
            cw_int(w, (uint32_t)ev[i].pid, 32, big);
        cw_int(w, (uint32_t)i, 32, big);
    }
}

/* Directory name under the temp dir: metadata and the streams of the
 * events ev[k] (n[k] of them), k < nstreams; its path into path. */
static void tr_dir(char *path, size_t size, const char *name, const char *metadata,
                   const struct tr_ev *const *ev, const size_t *n, int nstreams, bool big, int ctx)
{
    snprintf(path, size, "%s/%s", ev_temp_dir(), name);
    ck_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
    for (int k = -1; k < nstreams; k++) {
        char file[1100];
        if (k < 0)
            snprintf(file, sizeof file, "%s/metadata", path);
        else
            snprintf(file, sizeof file, "%s/chan_%d", path, k);
        FILE *f = fopen(file, "wb");
        ck_assert_ptr_nonnull(f);
        if (k < 0) {
            ck_assert_int_ge(fputs(metadata, f), 0);
        } else {
            cw_t w;
            cw_init(&w);
            tr_stream(&w, ev[k], n[k], (uint32_t)k, big, ctx);
            size_t len = (size_t)(w.bits / 8);
            ck_assert_uint_eq(fwrite(w.buf, 1, len, f), len);
            cw_free(&w);
        }
        fclose(f);
    }
}

/* The text report's line of thread (pid, tid) with its events, from the
 * tables. */
static void tr_thread_line(char *line, size_t size, int32_t pid, int32_t tid)
{
    unsigned n = 0;
    for (size_t i = 0; i < sizeof tr_chan0 / sizeof tr_chan0[0]; i++)
        n += tr_chan0[i].pid == pid && tr_chan0[i].tid == tid;
    for (size_t i = 0; i < sizeof tr_chan1 / sizeof tr_chan1[0]; i++)
        n += tr_chan1[i].pid == pid && tr_chan1[i].tid == tid;
    snprintf(line, size, "\n%10llu %10llu %10u %10u ", (unsigned long long)(int64_t)pid,
             (unsigned long long)(int64_t)tid, n, 0u);
}

/* `stats -q dir`'s output must contain want. */
static void tr_expect(const char *cli, const char *dir, const char *want)
{
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stats", "-q", dir, NULL);
    ck_assert_int_eq(p.status, 0);
    ck_assert_msg(strstr(p.out, want) != NULL, "%s not in\n%s", want, p.out);
    ev_proc_free(&p);
}

START_TEST(test_ctf_thread_runs)
{
    CLI_OR_SKIP(cli);
    const struct tr_ev *const ev[2] = {tr_chan0, tr_chan1};
    const size_t n[2] = {sizeof tr_chan0 / sizeof tr_chan0[0], sizeof tr_chan1 / sizeof tr_chan1[0]};
    for (int big = 0; big < 2; big++) {
        char dir[1024];
        char *m = tr_metadata(big, TR_BOTH, 2);
        tr_dir(dir, sizeof dir, big ? "threads-be" : "threads-le", m, ev, n, 2, big, TR_BOTH);
        free(m);
        for (size_t i = 0; i < sizeof arg_sets / sizeof arg_sets[0]; i++)
            ck_assert_uint_eq(both_ways(cli, arg_sets[i], dir), 1);
        static const char *const chunk[] = {"-q", "--chunk", "7", NULL};
        ck_assert_uint_eq(both_ways(cli, chunk, dir), 1);
        /* the figures themselves */
        tr_expect(cli, dir, "events: 23  spans: 0  threads: 7  names: 2\n");
        static const int32_t threads[][2] = {{100, 5}, {100, 21}, {200, 5}, {100, -1},
                                             {0, 0},   {300, 37}, {300, 6}};
        for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
            char line[128];
            tr_thread_line(line, sizeof line, threads[i][0], threads[i][1]);
            tr_expect(cli, dir, line);
        }
        tr_expect(cli, dir, "time span (ms):              0.000130\n");
    }
}
END_TEST

/* The same streams with only one of the ids in the context (the other one
 * 0: the threads by tid alone, by pid alone), and a trace of more event
 * classes than stats_ctf.c's class slots, taking turns (a slot changes
 * class: the instants counted so far go to the right name). */
START_TEST(test_ctf_one_id_many_classes)
{
    CLI_OR_SKIP(cli);
    const struct tr_ev *const ev[2] = {tr_chan0, tr_chan1};
    const size_t n[2] = {sizeof tr_chan0 / sizeof tr_chan0[0], sizeof tr_chan1 / sizeof tr_chan1[0]};
    for (int ctx = TR_TID; ctx <= TR_PID; ctx++) {
        char dir[1024];
        char *m = tr_metadata(ctx == TR_PID, ctx, 2);
        tr_dir(dir, sizeof dir, ctx == TR_TID ? "tid-only" : "pid-only", m, ev, n, 2,
               ctx == TR_PID, ctx);
        free(m);
        ck_assert_uint_eq(both_ways(cli, arg_sets[0], dir), 1);
        ck_assert_uint_eq(both_ways(cli, arg_sets[2], dir), 1);
        /* tids 5, 21, -1, 0, 37, 6; pids 100, 200, 0, 300 */
        tr_expect(cli, dir,
                  ctx == TR_TID ? "events: 23  spans: 0  threads: 6  names: 2\n"
                                : "events: 23  spans: 0  threads: 4  names: 2\n");
        tr_expect(cli, dir, ctx == TR_TID ? "\n         0          5         11 " /* (200, 5) too */
                                          : "\n       100          0         15 ");
    }
    enum { CLASSES = 300, ROUNDS = 3 };
    struct tr_ev *many = malloc(CLASSES * ROUNDS * sizeof *many);
    ck_assert_ptr_nonnull(many);
    for (uint32_t i = 0; i < CLASSES * ROUNDS; i++) {
        /* the classes in turn, twice the first 40 more often */
        uint32_t id = i % 2 == 0 && i / 2 % 7 == 0 ? i / 14 % 40 : i % CLASSES;
        many[i] = (struct tr_ev){1000 + i, id, 9, (int32_t)(i / 100)};
    }
    const struct tr_ev *const ev1[1] = {many};
    const size_t n1[1] = {CLASSES * ROUNDS};
    char dir[1024];
    char *m = tr_metadata(false, TR_BOTH, CLASSES);
    tr_dir(dir, sizeof dir, "many-classes", m, ev1, n1, 1, false, TR_BOTH);
    free(m);
    free(many);
    ck_assert_uint_eq(both_ways(cli, arg_sets[0], dir), 1);
    ck_assert_uint_eq(both_ways(cli, arg_sets[1], dir), 1);
    tr_expect(cli, dir, "events: 900  spans: 0  threads: 9  names: 300\n");
}
END_TEST

Suite *suite_stats_paths(void);
Suite *suite_stats_paths(void)
{
    Suite *s = suite_create("stats_paths");
    TCase *tc = tcase_create("stats_paths");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_samples_and_peers);
    tcase_add_test(tc, test_instr_map_and_filters);
    tcase_add_test(tc, test_depth_bounds);
    tcase_add_test(tc, test_function_ids);
    tcase_add_test(tc, test_ctf_dirs);
    tcase_add_test(tc, test_ctf_thread_runs);
    tcase_add_test(tc, test_ctf_one_id_many_classes);
    tcase_add_test(tc, test_fxt_refs);
    suite_add_tcase(s, tc);
    return s;
}
