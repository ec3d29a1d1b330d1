/* FXT reader throughput: a generated archive of typical records (events with
 * 2-4 arguments, indexed strings and threads; 256 MiB) read with the FXT
 * recorder's counting callbacks (tests/support/fxt_recorder.c: events and
 * arguments counted, ns and name touched), with its variant that reads every
 * argument's name and value as a converter would,
 * and with none (validation only), beside XXH3_64bits over the same bytes.
 * Reports MB/s, records/s and max RSS before/after (the reader's memory is
 * constant). Usage: bench_fxt [ticks_per_second [MiB [once|once-peer]]]:
 * "once" makes one counting pass over the generated archive and "once-peer"
 * one over the peer archive, for instruction counts under callgrind
 * (doc/perf-fxt.md). */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <tracerd/fxt.h>

#include "bench_clock.h"

#include "support/fxt_recorder.h"

static size_t TARGET_BYTES = (size_t)256 << 20;

typedef struct gen {
    uint8_t *buf;
    size_t len, cap;
} gen_t;

static void w64(gen_t *g, uint64_t v)
{
    if (g->len + 8 > g->cap) {
        g->cap = g->cap ? g->cap * 2 : 1 << 20;
        g->buf = realloc(g->buf, g->cap);
        if (g->buf == NULL)
            exit(1);
    }
    for (int i = 0; i < 8; i++)
        g->buf[g->len++] = (uint8_t)(v >> (8 * i));
}

static void wstr(gen_t *g, const char *s)
{
    size_t n = strlen(s), words = (n + 7) / 8;
    uint64_t h = 2 | (uint64_t)(1 + words) << 4;
    (void)h;
    for (size_t i = 0; i < words; i++) {
        uint64_t v = 0;
        for (size_t k = 0; k < 8 && i * 8 + k < n; k++)
            v |= (uint64_t)(uint8_t)s[i * 8 + k] << (8 * k);
        w64(g, v);
    }
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The archive head: magic, provider, init, 200 strings, 16 threads. */
static void head(gen_t *g, uint64_t tps)
{
    w64(g, 0x0016547846040010ull);
    w64(g, 0 | 2u << 4 | 1u << 16 | (uint64_t)1 << 20 | (uint64_t)5 << 52);
    wstr(g, "bench");
    w64(g, 1 | 2u << 4);
    w64(g, tps);
    char s[64];
    for (unsigned i = 1; i <= 200; i++) {
        snprintf(s, sizeof s, "%s_%u", i <= 8 ? "category" : i <= 100 ? "function_name" : "arg", i);
        size_t n = strlen(s);
        w64(g, 2 | (uint64_t)(1 + (n + 7) / 8) << 4 | (uint64_t)i << 16 | (uint64_t)n << 32);
        wstr(g, s);
    }
    for (unsigned t = 1; t <= 16; t++) {
        w64(g, 3 | 3u << 4 | (uint64_t)t << 16);
        w64(g, 1000 + t / 4);
        w64(g, 5000 + t);
    }
}

/* Call sites: instrumented code has a fixed event type, name and argument
 * signature per site; the archive interleaves sites at random. */
#define SITES 48
typedef struct site {
    unsigned type, nargs, name, category, arg_type[4], arg_name[4];
} site_t;

static void make_sites(site_t *s, uint64_t *seed)
{
    static const unsigned types[4] = {0, 1, 2, 3}; /* instant, counter, begin, end */
    for (unsigned k = 0; k < SITES; k++) {
        uint64_t r = rng(seed);
        s[k].type = types[r % 4];
        s[k].nargs = 2 + (unsigned)((r >> 4) % 3);
        s[k].name = 9 + (unsigned)((r >> 8) % 92);
        s[k].category = 1 + (unsigned)((r >> 16) % 8);
        for (unsigned a = 0; a < 4; a++) {
            s[k].arg_type[a] = (unsigned)((r >> (20 + 3 * a)) % 5);
            s[k].arg_name[a] = 101 + (unsigned)((r >> (32 + 6 * a)) % 100);
        }
    }
}

/* One event of a call site: 2-4 arguments, all names and strings indexed. */
static void event(gen_t *g, uint64_t *seed, uint64_t ticks, const site_t *site)
{
    uint64_t r = rng(seed);
    unsigned nargs = site->nargs;
    unsigned type = site->type;
    size_t at = g->len;
    w64(g, 0);
    w64(g, ticks);
    uint64_t words = 2;
    for (unsigned a = 0; a < nargs; a++) {
        uint64_t name = site->arg_name[a];
        switch (site->arg_type[a]) {
        case 0: /* int32 */
            w64(g, 1 | 1u << 4 | name << 16 | (uint64_t)(uint32_t)(r >> 7) << 32);
            words += 1;
            break;
        case 1: /* uint64 */
            w64(g, 4 | 2u << 4 | name << 16);
            w64(g, r);
            words += 2;
            break;
        case 2: /* string (indexed) */
            w64(g, 6 | 1u << 4 | name << 16 | (uint64_t)(101 + (r >> 40) % 100) << 32);
            words += 1;
            break;
        case 3: /* pointer */
            w64(g, 7 | 2u << 4 | name << 16);
            w64(g, 0x7f0000000000ull + (r & 0xffff0));
            words += 2;
            break;
        default: /* double */
            w64(g, 5 | 2u << 4 | name << 16);
            w64(g, 0x3ff8000000000000ull);
            words += 2;
            break;
        }
    }
    if (type == 1) {
        w64(g, r >> 20);
        words++;
    }
    uint64_t h = 4 | words << 4 | (uint64_t)type << 16 | (uint64_t)nargs << 20 |
                 (uint64_t)(1 + (r >> 50) % 16) << 24 | (uint64_t)site->category << 32 |
                 (uint64_t)site->name << 48;
    for (int i = 0; i < 8; i++)
        g->buf[at + (size_t)i] = (uint8_t)(h >> (8 * i));
}

enum { COUNTING = 0, NULL_CBS = 1, READ_ARGS = 2 };

static double read_once(const uint8_t *d, size_t n, size_t chunk, int mode, fxt_counts_t *c)
{
    tracerd_fxt_callbacks_t cbs;
    if (mode != NULL_CBS)
        fxt_count_callbacks(&cbs, mode == READ_ARGS);
    else
        memset(&cbs, 0, sizeof cbs);
    memset(c, 0, sizeof *c);
    tracerd_fxt_reader_t *r;
    if (tracerd_fxt_new(NULL, &cbs, c, NULL, &r) != TRACERD_OK)
        exit(1);
    double t0 = bench_now(NULL);
    for (size_t pos = 0; pos < n; pos += chunk) {
        size_t len = n - pos < chunk ? n - pos : chunk, used;
        tracerd_status_t st = tracerd_fxt_feed(r, d + pos, len, &used);
        if (st != TRACERD_OK) {
            fprintf(stderr, "feed: %s at %llu: %s\n", tracerd_status_name(st),
                    (unsigned long long)tracerd_fxt_record_offset(r), tracerd_fxt_error_reason(r));
            exit(1);
        }
    }
    if (tracerd_fxt_finish(r) != TRACERD_OK)
        exit(1);
    double t = bench_now(NULL) - t0;
    tracerd_fxt_free(r);
    return t;
}

#define PEER_ARCHIVE "../shared/peer-tests/fxt/richiesams-fxt_magic-trace_trace.fxt"

/* Reads the peer archive (up to 2 MiB) into *out; returns its size, 0 if absent. */
static size_t peer_archive(uint8_t **out)
{
    FILE *f = fopen(PEER_ARCHIVE, "rb");
    *out = NULL;
    if (f == NULL)
        return 0;
    uint8_t *rd = malloc((size_t)2 << 20);
    size_t rn = rd != NULL ? fread(rd, 1, (size_t)2 << 20, f) : 0;
    fclose(f);
    *out = rd;
    return rn;
}

/* One counting pass (for callgrind): prints the records read. */
static int once(const uint8_t *d, size_t n, size_t chunk)
{
    fxt_counts_t c;
    read_once(d, n, chunk, COUNTING, &c);
    printf("records read: %llu\n", (unsigned long long)(c.events + c.strings + c.other));
    printf("records %llu events %llu args %llu check %llu\n",
           (unsigned long long)(c.events + c.strings + c.other), (unsigned long long)c.events,
           (unsigned long long)c.args, (unsigned long long)c.ns_sum);
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t tps = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000000u;
    if (argc > 2)
        TARGET_BYTES = (size_t)strtoull(argv[2], NULL, 10) << 20;
    const char *mode = argc > 3 ? argv[3] : "";
    if (strcmp(mode, "once-peer") == 0) {
        uint8_t *rd;
        size_t rn = peer_archive(&rd);
        int rc = rn != 0 ? once(rd, rn, (size_t)256 << 10) : 1;
        free(rd);
        return rc;
    }
    gen_t g = {0};
    uint64_t seed = 0x9e3779b97f4a7c15ull, ticks = 1000;
    head(&g, tps);
    size_t block_start = g.len;
    site_t sites[SITES];
    make_sites(sites, &seed);
    while (g.len - block_start < (TARGET_BYTES < ((size_t)4 << 20) ? TARGET_BYTES : ((size_t)4 << 20)))
        event(&g, &seed, ticks += 1 + (seed & 63), &sites[rng(&seed) % SITES]);
    /* Repeat the 4 MiB block of events up to the target size. */
    size_t block = g.len - block_start, total = block_start;
    uint8_t *d = malloc(TARGET_BYTES + block);
    if (d == NULL)
        return 1;
    memcpy(d, g.buf, block_start);
    while (total < TARGET_BYTES) {
        memcpy(d + total, g.buf + block_start, block);
        total += block;
    }
    free(g.buf);
    if (strcmp(mode, "write") == 0 && argc > 4) { /* the archive to a file (make bench-cli) */
        FILE *f = fopen(argv[4], "wb");
        int bad = f == NULL || fwrite(d, 1, total, f) != total;
        if (f != NULL && fclose(f) != 0)
            bad = 1;
        free(d);
        return bad;
    }
    if (strcmp(mode, "once") == 0) {
        once(d, total, (size_t)1 << 20);
        free(d);
        return 0;
    }
    long rss0 = bench_max_rss_kib();
    fxt_counts_t c;
    double best = 1e9, best_null = 1e9, best_64k = 1e9, best_args = 1e9, best_x = 1e9;
    uint64_t xh = 0;
    double cycles[5];
    int ncycles = 0;
    for (int rep = 0; rep < 5; rep++) {
        double g0 = bench_clock_ghz();
        double t = read_once(d, total, (size_t)1 << 20, COUNTING, &c);
        double g1 = bench_clock_ghz();
        if (g0 > 0 && g1 > 0)
            cycles[ncycles++] = t * (g0 + g1) / 2 * 1e9;
        best = t < best ? t : best;
        t = read_once(d, total, (size_t)64 << 10, COUNTING, &c);
        best_64k = t < best_64k ? t : best_64k;
        fxt_counts_t cn;
        t = read_once(d, total, (size_t)1 << 20, NULL_CBS, &cn);
        best_null = t < best_null ? t : best_null;
        fxt_counts_t ca;
        t = read_once(d, total, (size_t)1 << 20, READ_ARGS, &ca);
        best_args = t < best_args ? t : best_args;
        double t0 = bench_now(NULL);
        xh ^= XXH3_64bits(d, total);
        t = bench_now(NULL) - t0;
        best_x = t < best_x ? t : best_x;
    }
    long rss1 = bench_max_rss_kib();
    uint64_t recs = c.events + c.strings + c.other;
    double mb = (double)total / 1e6;
    printf("archive: %.1f MB, %llu records (%llu events, %llu args), ticks/s %llu\n", mb,
           (unsigned long long)recs, (unsigned long long)c.events, (unsigned long long)c.args,
           (unsigned long long)tps);
    printf("fxt counting callbacks, 1 MiB feeds:  %8.0f MB/s  %6.1f M records/s\n", mb / best,
           (double)recs / best / 1e6);
    bench_cycles_report(cycles, ncycles, (double)total, (double)recs);
    printf("fxt counting callbacks, 64 KiB feeds: %8.0f MB/s  %6.1f M records/s\n", mb / best_64k,
           (double)recs / best_64k / 1e6);
    printf("fxt reading every argument, 1 MiB:    %8.0f MB/s  %6.1f M records/s\n", mb / best_args,
           (double)recs / best_args / 1e6);
    printf("fxt NULL callbacks (validate only):   %8.0f MB/s\n", mb / best_null);
    printf("XXH3_64bits over the same bytes:      %8.0f MB/s  (hash %016llx)\n", mb / best_x,
           (unsigned long long)xh);
    printf("max RSS: %ld KiB before reading, %ld KiB after (reader bound %zu KiB)\n", rss0, rss1,
           tracerd_fxt_memory_bound(NULL) / 1024);
    printf("check: %llu\n", (unsigned long long)c.ns_sum);
    free(d);
    /* A real archive too, when the peer tests are there: jane_tracing's
     * magic-trace archive (small records: begin with 2 args, end with none). */
    uint8_t *rd;
    size_t rn = peer_archive(&rd);
    if (rn != 0) {
        double rbest = 1e9;
        for (int rep = 0; rep < 50; rep++) {
            double t = read_once(rd, rn, (size_t)256 << 10, COUNTING, &c);
            rbest = t < rbest ? t : rbest;
        }
        printf("richiesams peer archive (%.2f MB, in cache): %.0f MB/s  %.1f M records/s\n",
               (double)rn / 1e6, (double)rn / 1e6 / rbest,
               (double)(c.events + c.strings + c.other) / rbest / 1e6);
    }
    free(rd);
    return 0;
}
