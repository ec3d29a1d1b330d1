/* nftw: an X/Open extension */
#define _XOPEN_SOURCE 700

#include "driver.h"

#include <check.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *fa_alloc(void *ctx, size_t size)
{
    drv_alloc_t *fa = ctx;
    fa->calls++;
    if (fa->fail_at != 0 && fa->calls == fa->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p != NULL) {
        fa->live++;
        fa->live_bytes += size;
        fa->total_bytes += size;
        if (fa->live_bytes > fa->peak_bytes)
            fa->peak_bytes = fa->live_bytes;
    }
    return p;
}

static void fa_free(void *ctx, void *ptr, size_t size)
{
    drv_alloc_t *fa = ctx;
    fa->live--;
    fa->live_bytes -= size;
    free(ptr);
}

void drv_alloc_init(drv_alloc_t *fa, unsigned long fail_at)
{
    memset(fa, 0, sizeof *fa);
    fa->a.alloc = fa_alloc;
    fa->a.free = fa_free;
    fa->a.ctx = fa;
    fa->fail_at = fail_at;
}

/* Fails the test with the message when cond is false. A passing ck_assert
 * is not free: Check records its place (a write to its pipe, in the forked
 * test's process), which cost more than a small input's whole run in the
 * drivers' thousands of runs; the checks of every run and every feed are
 * made this way. */
#define DRV_CHECK(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

/* A recorder's failed invariant (REC_CHECK) fails the test. */
static void fail_test(const char *msg)
{
    ck_abort_msg("%s", msg);
}

/* drv_run, telling in *offered the bytes of the input offered to the reader
 * (the end of the last chunk fed: a run that stops early, by an error or a
 * callback's abort, never sees the chunks after it). */
static char *run_offered(const drv_target_t *t, const void *config, const uint8_t *data, size_t len,
                         const drv_plan_t *plan, size_t *offered)
{
    *offered = 0;
    rec_t rec;
    rec_init(&rec, REC_LOG);
    rec.fail = fail_test;
    rec.pause_every = plan->pause_every;
    rec.pause_value = plan->pause_value;
    rec.abort_at = plan->abort_at;
    const tracerd_reader_ops_t *ops = t->ops();
    DRV_CHECK(ops->size >= sizeof *ops, "%s: ops size %zu", t->name, ops->size);
    void *r = NULL;
    tracerd_status_t st = t->open(config, &rec, plan->alloc, &r);
    if (st != TRACERD_OK) {
        tlog_printf(&rec.log, "open %s\n", tracerd_status_name(st));
        if (t->free_extra != NULL && rec.extra != NULL)
            t->free_extra(rec.extra);
        return tlog_take(&rec.log);
    }
    size_t pos = 0, k = 0;
    unsigned long pauses = 0;
    st = TRACERD_OK;
    while (pos < len) {
        size_t n = len - pos;
        if (plan->nsizes != 0) {
            n = plan->sizes[k++ % plan->nsizes];
            if (n == 0)
                n = 1;
            if (n > len - pos)
                n = len - pos;
        }
        /* Feed this chunk until it is consumed, resuming after pauses. */
        *offered = pos + n;
        size_t off = 0;
        while (off < n) {
            size_t used = 0;
            unsigned long before = rec.nreturns;
            st = ops->feed(r, data + pos + off, n - off, &used);
            DRV_CHECK(used <= n - off, "%s: feed used %zu of %zu bytes", t->name, used, n - off);
            off += used;
            if (st == TRACERD_PAUSED) {
                /* core.h: a pause is reported by the call whose callback asked for it */
                DRV_CHECK(rec.nreturns > before, "%s: PAUSED without a callback", t->name);
                pauses++;
                DRV_CHECK(pauses <= len + 1000000, "%s: %lu pauses", t->name, pauses);
                tracerd_status_t rs = ops->resume(r);
                DRV_CHECK(rs == TRACERD_OK, "%s: resume %s", t->name, tracerd_status_name(rs));
                st = TRACERD_OK;
                continue;
            }
            if (st != TRACERD_OK)
                break;
            /* OK means the whole chunk was consumed */
            DRV_CHECK(off == n, "%s: feed OK with %zu of %zu bytes used", t->name, off, n);
            /* core.h: a callback that paused makes this call return PAUSED */
            if (plan->pause_every)
                DRV_CHECK(rec.nreturns == before, "%s: a callback paused, feed returned OK",
                          t->name);
        }
        if (st != TRACERD_OK)
            break;
        pos += n;
    }
    if (st == TRACERD_OK && !plan->no_finish) {
        unsigned long before = rec.nreturns;
        st = ops->finish(r);
        while (st == TRACERD_PAUSED) { /* finish may deliver buffered records */
            DRV_CHECK(rec.nreturns > before, "%s: finish PAUSED without a callback", t->name);
            tracerd_status_t rs = ops->resume(r);
            DRV_CHECK(rs == TRACERD_OK, "%s: resume %s", t->name, tracerd_status_name(rs));
            before = rec.nreturns;
            st = ops->finish(r);
        }
        if (st == TRACERD_OK && plan->pause_every)
            DRV_CHECK(rec.nreturns == before, "%s: a callback paused, finish returned OK", t->name);
    }
    rec_log_end(&rec, ops, r, st);
    ops->free(r);
    if (t->free_extra != NULL && rec.extra != NULL)
        t->free_extra(rec.extra);
    return tlog_take(&rec.log);
}

char *drv_run(const drv_target_t *t, const void *config, const uint8_t *data, size_t len,
              const drv_plan_t *plan)
{
    size_t offered;
    return run_offered(t, config, data, len, plan, &offered);
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void expect_same(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        /* Show the first differing line, which is what one needs to debug. */
        size_t i = 0, line = 1, ls = 0;
        while (got[i] && got[i] == want[i]) {
            if (got[i] == '\n') {
                line++;
                ls = i + 1;
            }
            i++;
        }
        ck_abort_msg("%s: logs differ at line %zu:\n got: %.200s\nwant: %.200s", what, line,
                     got + ls, want + ls);
    }
}

/* Runs the plan and compares its log with want; returns the bytes offered
 * to the reader (run_offered). */
static size_t check_plan(const drv_target_t *t, const void *config, const uint8_t *data, size_t len,
                         const drv_plan_t *plan, const char *want, const char *what)
{
    size_t offered;
    char *got = run_offered(t, config, data, len, plan, &offered);
    expect_same(what, got, want);
    free(got);
    return offered;
}

static bool drv_emulated_host(void)
{
    return getenv("TRACERD_BIG_ENDIAN_HOST") != NULL;
}

bool drv_slow_host(void)
{
    return DRV_SAN || drv_emulated_host();
}

/* How far drv_check_all_at goes with exhaustive splits. Every cut of an
 * input meets the reader's state machine at each byte position: the native
 * build runs them all up to 16 KiB, and every 3-way split below 200 bytes.
 * The slow hosts keep every other plan (byte by byte, which already puts a
 * chunk end at every byte, cycled, random and paused splits, allocation
 * failures) and cut the quadratic part:
 * - under ASan + UBSan (each run 3-5 times slower), what they add is memory
 *   checking at the same positions: every 2-way cut up to 1 KiB, 3-way
 *   splits below 64 bytes;
 * - under qemu-user (the big-endian host, each run over ten times slower),
 *   what they prove is byte order, not split handling, which is the same
 *   code on both hosts: every 2-way cut up to 64 bytes (a header and its
 *   first records), 3-way splits below 24 bytes.
 * Above the bound of 2-way cuts, 64 sampled cuts. */
typedef struct {
    size_t all_cuts_max;  /* every 2-way cut when len <= this; 64 sampled above */
    size_t three_way_max; /* every 3-way split when len < this */
} drv_depth_t;

static drv_depth_t drv_depth(void)
{
    if (drv_emulated_host())
        return (drv_depth_t){.all_cuts_max = 64, .three_way_max = 24};
    if (DRV_SAN)
        return (drv_depth_t){.all_cuts_max = 1024, .three_way_max = 64};
    return (drv_depth_t){.all_cuts_max = 16384, .three_way_max = 200};
}

char *drv_check_some(const drv_target_t *t, const void *config, const uint8_t *data, size_t len)
{
    drv_plan_t whole = {0};
    char *want = drv_run(t, config, data, len, &whole);
    size_t sizes[3] = {4096, 1, 31};
    for (size_t k = 1; k <= 3; k++) {
        drv_plan_t p = {.sizes = sizes, .nsizes = k, .pause_every = k == 2};
        char what[64];
        snprintf(what, sizeof what, "chunk sizes cycled from {4096, 1, 31}[0..%zu)", k);
        check_plan(t, config, data, len, &p, want, what);
    }
    return want;
}

char *drv_check_twin(const drv_target_t *t, const void *config, const uint8_t *data, size_t len)
{
    return drv_slow_host() ? drv_check_some(t, config, data, len)
                           : drv_check_all(t, config, data, len);
}

char *drv_check_all_at(const drv_target_t *t, const void *config, const uint8_t *data, size_t len,
                       unsigned long abort_at)
{
    drv_plan_t whole = {.abort_at = abort_at};
    char *want = drv_run(t, config, data, len, &whole);
    char what[128];

    size_t one = 1;
    drv_plan_t bytes = {.sizes = &one, .nsizes = 1, .abort_at = abort_at};
    check_plan(t, config, data, len, &bytes, want, "byte by byte");

    uint64_t seed = 0x9e3779b97f4a7c15u ^ len;
    drv_depth_t depth = drv_depth();
    if (len <= depth.all_cuts_max) {
        for (size_t cut = 1; cut < len; cut++) {
            size_t sizes[2] = {cut, len - cut};
            drv_plan_t p = {.sizes = sizes, .nsizes = 2, .abort_at = abort_at};
            snprintf(what, sizeof what, "2-way split at %zu", cut);
            check_plan(t, config, data, len, &p, want, what);
        }
    } else {
        for (int i = 0; i < 64; i++) {
            size_t cut = 1 + (size_t)(rng_next(&seed) % (len - 1));
            size_t sizes[2] = {cut, len - cut};
            drv_plan_t p = {.sizes = sizes, .nsizes = 2, .abort_at = abort_at};
            snprintf(what, sizeof what, "2-way split at %zu", cut);
            check_plan(t, config, data, len, &p, want, what);
        }
    }
    if (len < depth.three_way_max) {
        for (size_t a = 1; a < len; a++)
            for (size_t b = 1; a + b < len; b++) {
                size_t sizes[3] = {a, b, len - a - b};
                drv_plan_t p = {.sizes = sizes, .nsizes = 3, .abort_at = abort_at};
                snprintf(what, sizeof what, "3-way split %zu+%zu", a, b);
                /* a run that stopped in the first chunk (an abort, an
                 * error) is the same calls for every b: the first's */
                if (check_plan(t, config, data, len, &p, want, what) <= a)
                    break;
            }
    }
    {
        size_t sizes[31];
        for (size_t i = 0; i < 31; i++)
            sizes[i] = i + 1;
        drv_plan_t p = {.sizes = sizes, .nsizes = 31, .abort_at = abort_at};
        check_plan(t, config, data, len, &p, want, "chunks 1..31 cycled");
    }
    for (int i = 0; i < 8; i++) {
        size_t sizes[64];
        size_t maxc = len / 8 + 2;
        for (size_t j = 0; j < 64; j++)
            sizes[j] = 1 + (size_t)(rng_next(&seed) % maxc);
        drv_plan_t p = {.sizes = sizes, .nsizes = 64, .abort_at = abort_at};
        snprintf(what, sizeof what, "random split #%d", i);
        check_plan(t, config, data, len, &p, want, what);
    }
    {
        drv_plan_t p = {.pause_every = true, .abort_at = abort_at};
        check_plan(t, config, data, len, &p, want, "pause at every callback");
        size_t sizes[3] = {7, 1, 13};
        drv_plan_t q = {.sizes = sizes, .nsizes = 3, .pause_every = true, .abort_at = abort_at};
        check_plan(t, config, data, len, &q, want, "pause at every callback, small chunks");
        /* core.h: any positive value pauses, not only TRACERD_CB_PAUSE */
        drv_plan_t v = {
            .sizes = sizes, .nsizes = 3, .pause_every = true, .pause_value = 42, .abort_at = abort_at};
        check_plan(t, config, data, len, &v, want, "callbacks return 42 (pause)");
    }
    /* Allocation failures: the n-th allocation fails, for every n until none does. */
    for (unsigned long n = 1;; n++) {
        drv_alloc_t fa;
        drv_alloc_init(&fa, n);
        drv_plan_t p = {.alloc = &fa.a, .abort_at = abort_at};
        char *got = drv_run(t, config, data, len, &p);
        DRV_CHECK(fa.live == 0, "alloc failure %lu: %ld allocations leaked", n, fa.live);
        if (fa.calls < n) { /* nothing failed: must equal the normal run */
            expect_same("allocator run", got, want);
            free(got);
            break;
        }
        DRV_CHECK(strstr(got, "open E_NOMEM") == got || strstr(got, "end E_NOMEM") != NULL,
                  "alloc failure %lu: expected E_NOMEM, got:\n%.300s", n, got);
        free(got);
        DRV_CHECK(n < 100000, "alloc failure %lu: still failing", n);
    }
    return want;
}

char *drv_check_all(const drv_target_t *t, const void *config, const uint8_t *data, size_t len)
{
    return drv_check_all_at(t, config, data, len, 0);
}

uint8_t *drv_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int drv_rm_tree(const char *dir)
{
    return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void drv_golden(const char *path, const char *log)
{
    char full[1024];
    snprintf(full, sizeof full, "tests/data/%s", path);
    const char *upd = getenv("TRACERD_UPDATE_GOLDEN");
    if (upd != NULL && strcmp(upd, "1") == 0) {
        FILE *f = fopen(full, "wb");
        ck_assert_msg(f != NULL, "cannot write %s", full);
        fputs(log, f);
        fclose(f);
        return;
    }
    size_t n;
    uint8_t *want = drv_read_file(full, &n);
    ck_assert_msg(want != NULL, "golden file %s missing (TRACERD_UPDATE_GOLDEN=1 writes it)", full);
    want = realloc(want, n + 1);
    want[n] = '\0';
    expect_same(full, log, (const char *)want);
    free(want);
}

const char *drv_peer_dir(void)
{
    const char *d = getenv("TRACERD_PEER_DIR");
    if (d == NULL)
        d = "../shared/peer-tests";
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/fxt/SOURCE.md", d);
    FILE *f = fopen(probe, "rb");
    if (f != NULL) {
        fclose(f);
        return d;
    }
    const char *ci = getenv("CI");
    ck_assert_msg(ci == NULL || strcmp(ci, "true") != 0, "peer tests not found at %s (CI)", d);
    fprintf(stderr, "note: peer tests not found at %s; skipping\n", d);
    return NULL;
}

/* drv_cpu_bounded's way back from its timer's signal (a handler reaches
 * only static storage; one bound runs at a time: tests run one by one). */
static sigjmp_buf cpu_bound_back;

static void cpu_bound_expired(int sig)
{
    (void)sig;
    siglongjmp(cpu_bound_back, 1);
}

bool drv_cpu_bounded(double seconds, void (*fn)(void *), void *arg)
{
    const char *fork_env = getenv("CK_FORK");
    if (fork_env != NULL && strcmp(fork_env, "no") == 0) {
        fn(arg); /* a failed assertion inside fn would leave the timer armed */
        return true;
    }
    const char *mult = getenv("CK_TIMEOUT_MULTIPLIER");
    double k = mult != NULL ? strtod(mult, NULL) : 1;
    if (k > 0)
        seconds *= k;
    struct itimerval on, off;
    memset(&on, 0, sizeof on);
    memset(&off, 0, sizeof off);
    on.it_value.tv_sec = (time_t)seconds;
    on.it_value.tv_usec = (suseconds_t)((seconds - (double)on.it_value.tv_sec) * 1e6);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cpu_bound_expired;
    sigemptyset(&sa.sa_mask);
    volatile bool returned = false;
    ck_assert_int_eq(sigaction(SIGPROF, &sa, &old), 0);
    if (sigsetjmp(cpu_bound_back, 1) == 0) {
        ck_assert_int_eq(setitimer(ITIMER_PROF, &on, NULL), 0);
        fn(arg);
        returned = true;
    }
    setitimer(ITIMER_PROF, &off, NULL);
    sigaction(SIGPROF, &old, NULL);
    return returned;
}
