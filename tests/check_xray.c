/* XRay reader: every version and record kind in both byte orders, through the
 * shared split/pause/allocation drivers; every malformed case with its exact
 * status, offset and reason; the lenient buffer skip. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/tracerd.h>

#include "support/driver.h"
#include "support/xray_recorder.h"
#include "support/xray_writer.h"

/* Drops the "meta " lines of a log. */
static void strip_meta(char *log)
{
    char *w = log;
    for (char *p = log; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
        if (strncmp(p, "meta ", 5) != 0) {
            memmove(w, p, n);
            w += n;
        }
        p += n;
    }
    *w = '\0';
}

/* Runs every driver on w's bytes; returns the log with " order=big" normalised. */
static char *run_all(const xw_t *w, const tracerd_xray_config_t *cfg)
{
    char *log = drv_check_all(&xray_target, cfg, w->buf, w->len);
    /* on_functions delivers the same records in the same order (three
     * plans here; test_batch_runs runs them all) */
    char *batch = drv_check_some(&xray_target_batch, cfg, w->buf, w->len);
    ck_assert_str_eq(batch, log);
    free(batch);
    char *p = strstr(log, "order=big");
    if (p != NULL)
        memcpy(p, "order=xxx", 9);
    p = strstr(log, "order=little");
    if (p != NULL)
        memmove(p + 9, p + 12, strlen(p + 12) + 1), memcpy(p, "order=xxx", 9);
    return log;
}

/* The same trace built in both byte orders must decode identically. */
typedef void (*build_fn)(xw_t *w);

static char *both_orders(build_fn build, const tracerd_xray_config_t *cfg)
{
    xw_t le, be;
    xw_init(&le, false);
    xw_init(&be, true);
    build(&le);
    build(&be);
    ck_assert_uint_eq(le.len, be.len);
    char *a = run_all(&le, cfg);
    char *b = run_all(&be, cfg);
    ck_assert_str_eq(a, b);
    free(b);
    xw_free(&le);
    xw_free(&be);
    return a;
}

/* ---- FDR v5: every record kind ----------------------------------------------- */

static void build_v5(xw_t *w)
{
    xw_sample_v5_flags(w, 0x7fafu | 3u); /* every record kind */
}

START_TEST(test_fdr_v5_all_records)
{
    char *log = both_orders(build_v5, NULL);
    ck_assert_str_eq(log,
        "header v=5 type=1 order=xxx flags=0x7faf freq=2000000000 bufsize=0\n"
        "meta @32 buffer-extents extent=208\n"
        "meta @48 new-buffer tid=42\n"
        "meta @64 walltime 1700000000.123456\n"
        "meta @80 pid pid=7\n"
        "buffer @32 size=208 tid=42 pid=7 wall=1700000000.123456\n"
        "meta @96 new-cpu cpu=3 tsc=1000\n"
        "fn @112 enter id=1 tsc=1000 ns=500 delta=0 tid=42 pid=7 cpu=3\n"
        "fn @120 enter-args id=2 tsc=1010 ns=505 delta=10 tid=42 pid=7 cpu=3 args=0x1234,0x5\n"
        "fn @160 exit id=2 tsc=1015 ns=507 delta=5 tid=42 pid=7 cpu=3\n"
        "meta @168 tsc-wrap tsc=5000\n"
        "fn @184 exit id=1 tsc=5001 ns=2500 delta=1 tid=42 pid=7 cpu=3\n"
        "custom @192 type=0 tsc=5004 ns=2502 tid=42 pid=7 cpu=3 size=5 payload=68656c6c6f\n"
        "typed @213 type=9 tsc=5002 ns=2501 tid=42 pid=7 cpu=3 size=3 payload=616263\n"
        "meta @232 new-cpu cpu=1 tsc=9000\n"
        "fn @248 tail-exit id=3 tsc=9001 ns=4500 delta=1 tid=42 pid=7 cpu=1\n"
        "buffer-end @256 filler=0\n"
        "end OK\n");
    free(log);
}
END_TEST

/* ---- FDR v1: EndOfBuffer and filler; two buffers --------------------------------- */

static void build_v1(xw_t *w)
{
    xw_header(w, 1, 1, 0xffffffffu, 1000000000u, 128);
    size_t start = w->len;
    xw_new_buffer(w, 9);
    xw_walltime(w, 10, 20);
    xw_new_cpu(w, 0, 100);
    xw_func(w, 3, 7, 1);
    xw_arg(w, 77);
    xw_func(w, 1, 7, 2);
    xw_custom(w, 2, 555, 0, "xy", 2);
    xw_eob(w);
    while (w->len < start + 128)
        xw_u8(w, 0xee); /* filler garbage */
    start = w->len;
    xw_new_buffer(w, 10);
    xw_walltime(w, 11, 0);
    xw_new_cpu(w, 2, 200);
    xw_func(w, 0, 8, 0);
    xw_eob(w);
    while (w->len < start + 128)
        xw_u8(w, 0);
}

START_TEST(test_fdr_v1_filler)
{
    char *log = both_orders(build_v1, NULL);
    ck_assert_str_eq(log,
        "header v=1 type=1 order=xxx flags=0xffffffff freq=1000000000 bufsize=128\n"
        "meta @32 new-buffer tid=9\n"
        "meta @48 walltime 10.000020\n"
        "buffer @32 size=128 tid=9 pid=0(none) wall=10.000020\n"
        "meta @64 new-cpu cpu=0 tsc=100\n"
        "fn @80 enter-args id=7 tsc=101 ns=101 delta=1 tid=9 pid=0 cpu=0 args=0x4d\n"
        "fn @104 exit id=7 tsc=103 ns=103 delta=2 tid=9 pid=0 cpu=0\n"
        "custom @112 type=0 tsc=555 ns=555 tid=9 pid=0 cpu=0 size=2 payload=7879\n"
        "meta @130 end-of-buffer\n"
        "buffer-end @160 filler=14\n"
        "meta @160 new-buffer tid=10\n"
        "meta @176 walltime 11.000000\n"
        "buffer @160 size=128 tid=10 pid=0(none) wall=11.000000\n"
        "meta @192 new-cpu cpu=2 tsc=200\n"
        "fn @208 enter id=8 tsc=200 ns=200 delta=0 tid=10 pid=0 cpu=2\n"
        "meta @216 end-of-buffer\n"
        "buffer-end @288 filler=56\n"
        "end OK\n");
    free(log);
}
END_TEST

/* ---- FDR v2, v3, v4 ----------------------------------------------------------------- */

static void build_v2(xw_t *w)
{
    xw_header(w, 2, 1, 1, 3000000000u, 0);
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, 5);
    xw_walltime(w, 1, 2);
    xw_new_cpu(w, 4, 3000000000u);
    xw_func(w, 0, 268435455u, 3); /* the largest 28-bit id */
    xw_custom(w, 1, 3000000006u, 0, "z", 1);
    xw_end_extents(w, m);
    xw_extents(w, 0); /* an empty buffer: skipped */
}

START_TEST(test_fdr_v2)
{
    char *log = both_orders(build_v2, NULL);
    ck_assert_str_eq(log,
        "header v=2 type=1 order=xxx flags=0x1 freq=3000000000 bufsize=0\n"
        "meta @32 buffer-extents extent=73\n"
        "meta @48 new-buffer tid=5\n"
        "meta @64 walltime 1.000002\n"
        "buffer @32 size=73 tid=5 pid=0(none) wall=1.000002\n"
        "meta @80 new-cpu cpu=4 tsc=3000000000\n"
        "fn @96 enter id=268435455 tsc=3000000003 ns=1000000001 delta=3 tid=5 pid=0 cpu=4\n"
        "custom @104 type=0 tsc=3000000006 ns=1000000002 tid=5 pid=0 cpu=4 size=1 payload=7a\n"
        "buffer-end @121 filler=0\n"
        "meta @121 buffer-extents extent=0\n"
        "end OK\n");
    free(log);
}
END_TEST

static void build_v4(xw_t *w)
{
    xw_header(w, 4, 1, 0, 1000000000u, 0);
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, -1);
    xw_walltime(w, 1, 2);
    xw_pid(w, 1234);
    xw_new_cpu(w, 1, 50);
    xw_custom(w, 2, 60, 6, "ab", 2);
    xw_typed(w, 1, 70, 65535, "c", 1);
    xw_func(w, 0, 1, 1);
    xw_end_extents(w, m);
}

START_TEST(test_fdr_v4)
{
    char *log = both_orders(build_v4, NULL);
    ck_assert_str_eq(log,
        "header v=4 type=1 order=xxx flags=0x0 freq=1000000000 bufsize=0\n"
        "meta @32 buffer-extents extent=107\n"
        "meta @48 new-buffer tid=-1\n"
        "meta @64 walltime 1.000002\n"
        "meta @80 pid pid=1234\n"
        "buffer @32 size=107 tid=-1 pid=1234 wall=1.000002\n"
        "meta @96 new-cpu cpu=1 tsc=50\n"
        "custom @112 type=0 tsc=60 ns=60 tid=-1 pid=1234 cpu=6 size=2 payload=6162\n"
        "typed @130 type=65535 tsc=70 ns=70 tid=-1 pid=1234 cpu=1 size=1 payload=63\n"
        "fn @147 enter id=1 tsc=51 ns=51 delta=1 tid=-1 pid=1234 cpu=1\n"
        "buffer-end @155 filler=0\n"
        "end OK\n");
    free(log);
}
END_TEST

static void build_v3_two_threads(xw_t *w)
{
    xw_header(w, 3, 1, 3, 1000000000u, 0);
    for (int t = 0; t < 2; t++) {
        size_t m = xw_extents(w, 0);
        xw_new_buffer(w, 100 + t);
        xw_walltime(w, 5 - (uint64_t)t, 0); /* ring order, not time order */
        xw_pid(w, 99);
        xw_new_cpu(w, (uint16_t)t, 10u * (uint64_t)t);
        xw_func(w, 1, 4, 1); /* a buffer may start mid-call */
        xw_func(w, 0, 4, 0xffffffffu);
        xw_end_extents(w, m);
    }
}

START_TEST(test_fdr_v3_buffers)
{
    char *log = both_orders(build_v3_two_threads, NULL);
    ck_assert_ptr_nonnull(strstr(log, "buffer @32 size=80 tid=100 pid=99 wall=5.000000\n"));
    ck_assert_ptr_nonnull(strstr(log, "buffer @128 size=80 tid=101 pid=99 wall=4.000000\n"));
    ck_assert_ptr_nonnull(
        strstr(log, "fn @216 enter id=4 tsc=4294967306 ns=4294967306 delta=4294967295 tid=101 "
                    "pid=99 cpu=1\n"));
    ck_assert_ptr_nonnull(strstr(log, "buffer-end @224 filler=0\nend OK\n"));
    free(log);
}
END_TEST

/* ---- basic mode ----------------------------------------------------------------------- */

static void build_basic3(xw_t *w)
{
    xw_header(w, 3, 0, 0, 2500000000u, 0);
    xw_basic_func(w, 1, 3, 12, 2500000000u, 77, 88);
    xw_basic_arg(w, 12, 77, 88, 0xfeed);
    xw_basic_func(w, 2, 0, 13, 2500000010u, 78, 88); /* another thread's chunk */
    xw_basic_func(w, 1, 2, 12, 2500000020u, 77, 88);
}

START_TEST(test_basic_v3)
{
    char *log = both_orders(build_basic3, NULL);
    ck_assert_str_eq(log,
        "header v=3 type=0 order=xxx flags=0x0 freq=2500000000 bufsize=0\n"
        "fn @32 enter-args id=12 tsc=2500000000 ns=1000000000 delta=0 tid=77 pid=88 cpu=1 "
        "args=0xfeed\n"
        "fn @96 enter id=13 tsc=2500000010 ns=1000000004 delta=0 tid=78 pid=88 cpu=2\n"
        "fn @128 tail-exit id=12 tsc=2500000020 ns=1000000008 delta=0 tid=77 pid=88 cpu=1\n"
        "end OK\n");
    free(log);
}
END_TEST

static void build_basic1(xw_t *w)
{
    xw_header(w, 1, 0, 0, 0, 0);
    xw_basic_func(w, 0, 0, 1, 10, 5, 6); /* pid not written before v3 */
    xw_basic_func(w, 0, 1, 1, 20, 5, 6);
}

START_TEST(test_basic_v1_no_frequency)
{
    char *log = both_orders(build_basic1, NULL);
    ck_assert_str_eq(log,
        "header v=1 type=0 order=xxx flags=0x0 freq=0 bufsize=0\n"
        "fn @32 enter id=1 tsc=10 ns=0 delta=0 tid=5 pid=0 cpu=0\n"
        "fn @64 exit id=1 tsc=20 ns=0 delta=0 tid=5 pid=0 cpu=0\n"
        "end OK\n");
    free(log);
}
END_TEST

/* ---- payload fragments above the stitch bound --------------------------------------------- */

static void build_big_event(xw_t *w)
{
    uint8_t payload[300];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)(i * 7);
    xw_header(w, 5, 1, 0, 1000000000u, 0);
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, 1);
    xw_walltime(w, 0, 0);
    xw_new_cpu(w, 0, 0);
    xw_custom(w, 300, 1, 0, payload, sizeof payload);
    xw_typed(w, 64, 1, 3, payload, 64); /* exactly the bound: whole */
    xw_func(w, 0, 1, 1);
    xw_end_extents(w, m);
}

START_TEST(test_fragments)
{
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.stitch_bytes = 64;
    char *log = both_orders(build_big_event, &cfg);
    ck_assert_ptr_nonnull(strstr(log, "custom @96 type=0 tsc=1 ns=1 tid=1 pid=0 cpu=0 size=300 "
                                      "fragmented\npayload field=1 total=300 @96 data=00070e15"));
    ck_assert_ptr_nonnull(strstr(log, "typed @412 type=3 tsc=2 ns=2 tid=1 pid=0 cpu=0 size=64 "
                                      "payload=00070e15"));
    free(log);
}
END_TEST

/* ---- a larger mixed trace: random splits ------------------------------------------------------ */

START_TEST(test_large_mixed)
{
    xw_t w;
    xw_init(&w, _i == 1);
    xw_header(&w, 5, 1, 3, 2400000000u, 0);
    uint32_t seed = 12345;
    for (int b = 0; b < 6; b++) {
        size_t m = xw_extents(&w, 0);
        xw_new_buffer(&w, 1000 + b);
        xw_walltime(&w, 100 + (uint64_t)b, 0);
        xw_pid(&w, 4242);
        xw_new_cpu(&w, (uint16_t)b, 1ull << 40);
        for (int i = 0; i < 700; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 100;
            if (r < 80) {
                xw_func(&w, r & 1, r % 13, r);
            } else if (r < 86) {
                xw_func(&w, 3, 5, 1);
                xw_arg(&w, seed);
            } else if (r < 90) {
                xw_new_cpu(&w, (uint16_t)r, (1ull << 40) + seed);
            } else if (r < 94) {
                xw_tsc_wrap(&w, (1ull << 41) + seed);
            } else {
                xw_custom(&w, 9, 2, 0, "123456789", 9);
            }
        }
        xw_end_extents(&w, m);
    }
    ck_assert_uint_gt(w.len, 16384);
    char *log = drv_check_all(&xray_target, NULL, w.buf, w.len);
    ck_assert_ptr_nonnull(strstr(log, "end OK\n"));
    /* Without on_metadata the hot loop takes the metadata itself: same records. */
    char *fast = drv_check_all(&xray_target_nometa, NULL, w.buf, w.len);
    char *batch = drv_check_twin(&xray_target_batch_nometa, NULL, w.buf, w.len);
    strip_meta(log);
    ck_assert_str_eq(fast, log);
    ck_assert_str_eq(batch, log);
    free(batch);
    free(fast);
    free(log);
    xw_free(&w);
}
END_TEST

/* The buffer of the batch tests: its extents record (whose index is
 * returned, for xw_end_extents), thread 10 + b, wall time 1 s, pid 77 when
 * asked, CPU 2 at tick 1000. */
static size_t batch_buffer(xw_t *w, int b, bool pid)
{
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, 10 + b);
    xw_walltime(w, 1, 0);
    if (pid)
        xw_pid(w, 77);
    xw_new_cpu(w, 2, 1000);
    return m;
}

/* on_functions: runs longer than a batch (64 records), arguments on the
 * record that fills a batch, on the first and on the last of one, records
 * with arguments one after another, a metadata record right after a full
 * batch: every split, pause and allocation failure gives on_function's log. */
START_TEST(test_batch_runs)
{
    xw_t w;
    xw_init(&w, _i == 1);
    xw_header(&w, 5, 1, 3, 1000000000u, 0);
    for (int b = 0; b < 2; b++) {
        size_t m = batch_buffer(&w, b, true);
        for (int i = 0; i < 300; i++) {
            xw_func(&w, i & 1, (uint32_t)(i % 7), (uint32_t)i);
            if (i == 63 || i == 64 || i == 65 || i == 127 || i == 200 || i == 201) {
                xw_arg(&w, 1000u + (unsigned)i);
                if (i != 64)
                    xw_arg(&w, 2000u + (unsigned)i);
            }
            if (i == 191 || i == 255)
                xw_new_cpu(&w, (uint16_t)(3 + i), 5000u + (unsigned)i);
        }
        xw_end_extents(&w, m);
    }
    drv_plan_t whole = {0}; /* on_function's logs, the reference */
    char *log = drv_run(&xray_target, NULL, w.buf, w.len, &whole);
    ck_assert_ptr_nonnull(strstr(log, "end OK\n"));
    ck_assert_ptr_nonnull(strstr(log, " args=0x427,0x80f\n")); /* record 63: 1063, 2063 */
    char *batch = drv_check_twin(&xray_target_batch, NULL, w.buf, w.len);
    ck_assert_str_eq(batch, log);
    free(batch);
    char *fast = drv_run(&xray_target_nometa, NULL, w.buf, w.len, &whole);
    batch = drv_check_twin(&xray_target_batch_nometa, NULL, w.buf, w.len);
    ck_assert_str_eq(batch, fast);
    free(batch);
    free(fast);
    free(log);
    xw_free(&w);
}
END_TEST

/* on_functions: a function record of an undefined kind (4-7) ends the run
 * where it stands: first in a buffer, inside the first batch, on the last
 * record of a full batch and right after one, and in the second batch; the
 * records before it are delivered, then the error names it (strict), or
 * its buffer is skipped (lenient): every split, pause and allocation
 * failure gives on_function's log, both byte orders. */
START_TEST(test_batch_bad_kind)
{
    static const unsigned at[] = {0, 10, 63, 64, 65, 130};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        xw_t w;
        xw_init(&w, _i == 1);
        xw_header(&w, 5, 1, 3, 1000000000u, 0);
        for (int b = 0; b < 2; b++) {
            size_t m = batch_buffer(&w, b, false);
            for (unsigned i = 0; i < 140; i++)
                xw_func(&w, b == 0 && i == at[k] ? 4 + i % 4 : i & 1, i % 5, i);
            xw_end_extents(&w, m);
        }
        char expect[128];
        unsigned off = 32 + 16 * 4 + 8 * at[k];
        snprintf(expect, sizeof expect,
                 "end E_BAD_TOKEN @%u function record: kind %u is not defined (0-3)\n", off,
                 4 + at[k] % 4);
        drv_plan_t whole = {0};
        char *log = drv_run(&xray_target, NULL, w.buf, w.len, &whole);
        ck_assert_ptr_nonnull(strstr(log, expect));
        char *batch = drv_check_twin(&xray_target_batch, NULL, w.buf, w.len);
        ck_assert_str_eq(batch, log);
        free(batch);
        free(log);
        tracerd_xray_config_t cfg;
        tracerd_xray_config_init(&cfg);
        cfg.lenient_skip_buffers = true;
        log = drv_run(&xray_target, &cfg, w.buf, w.len, &whole);
        ck_assert_ptr_nonnull(strstr(log, "skipped the rest of the buffer"));
        ck_assert_ptr_nonnull(strstr(log, "end OK\n"));
        batch = drv_check_twin(&xray_target_batch, &cfg, w.buf, w.len);
        ck_assert_str_eq(batch, log);
        free(batch);
        free(log);
        xw_free(&w);
    }
}
END_TEST

/* ---- no_ns: function records without their ns ---------------------------------------------------- */

/* A log's function records with "ns=0" for their ns (other records keep theirs). */
static void zero_fn_ns(char *log)
{
    for (char *p = strstr(log, "\nfn "); p != NULL; p = strstr(p + 1, "\nfn ")) {
        char *eol = strchr(p + 1, '\n');
        char *ns = strstr(p, " ns=");
        if (ns == NULL || (eol != NULL && ns > eol))
            continue;
        char *d = ns + 4, *e = d;
        while (*e >= '0' && *e <= '9')
            e++;
        *d = '0';
        memmove(d + 1, e, strlen(e) + 1);
    }
}

/* no_ns: function records come with ns 0 and everything else as without it
 * (their tsc, events' ns, errors, offsets), on every split, in both byte
 * orders, through on_function and on_functions (the hot loop's copies
 * without the conversion, and the general path), in FDR and basic mode. */
START_TEST(test_no_ns)
{
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.no_ns = true;
    static const build_fn builds[] = {build_v5,     build_v1,     build_v2,       build_v4,
                                      build_basic3, build_basic1, build_big_event};
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++) {
        char *want = both_orders(builds[i], NULL);
        if (i == 0) /* the comparison means something: records with ns, an event's kept */
            ck_assert_ptr_nonnull(strstr(want, "fn @112 enter id=1 tsc=1000 ns=500 "));
        zero_fn_ns(want);
        char *got = both_orders(builds[i], &cfg);
        ck_assert_str_eq(got, want);
        if (i == 0) {
            ck_assert_ptr_nonnull(strstr(got, "fn @112 enter id=1 tsc=1000 ns=0 delta=0 "));
            ck_assert_ptr_nonnull(strstr(got, "custom @192 type=0 tsc=5004 ns=2502 "));
        }
        free(got);
        free(want);
    }
    /* runs of the hot loop, arguments, a CPU change, then a record of an
     * undefined kind: the same error at the same offset */
    for (int big = 0; big < 2; big++) {
        xw_t w;
        xw_init(&w, big != 0);
        xw_header(&w, 5, 1, 3, 3000000000u, 0);
        size_t m = batch_buffer(&w, 0, true);
        for (unsigned i = 0; i < 150; i++) {
            xw_func(&w, i == 140 ? 5 : i & 1, i % 5, 7 * i);
            if (i == 70)
                xw_arg(&w, 99);
            if (i == 100)
                xw_new_cpu(&w, 4, 1u << 20);
        }
        xw_end_extents(&w, m);
        drv_plan_t whole = {0};
        char *want = drv_run(&xray_target, NULL, w.buf, w.len, &whole);
        ck_assert_ptr_nonnull(strstr(want, "kind 5 is not defined"));
        zero_fn_ns(want);
        char *got = drv_check_all(&xray_target, &cfg, w.buf, w.len);
        ck_assert_str_eq(got, want);
        free(got);
        got = drv_check_twin(&xray_target_batch, &cfg, w.buf, w.len);
        ck_assert_str_eq(got, want);
        free(got);
        free(want);
        xw_free(&w);
    }
}
END_TEST

/* ---- malformed input: status, offset, reason ----------------------------------------------------- */

static void expect_error(const xw_t *w, const tracerd_xray_config_t *cfg, const char *end_line)
{
    char *log = drv_check_all(&xray_target, cfg, w->buf, w->len);
    const char *last = log + strlen(log) - 1;
    while (last > log && last[-1] != '\n')
        last--;
    ck_assert_str_eq(last, end_line);
    free(log);
}

static void v5_preamble(xw_t *w)
{
    xw_header(w, 5, 1, 0, 1000000000u, 0);
}

START_TEST(test_err_version)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 6, 1, 0, 0, 0);
    expect_error(&w, NULL,
                 "end E_VERSION @0 file header: version 6 / type 1 (little-endian) is not a known "
                 "XRay version (FDR 1-5, basic 1-3) in either byte order\n");
    xw_free(&w);
    xw_init(&w, false);
    xw_header(&w, 4, 0, 0, 0, 0); /* basic 4 does not exist */
    expect_error(&w, NULL,
                 "end E_VERSION @0 file header: version 4 / type 0 (little-endian) is not a known "
                 "XRay version (FDR 1-5, basic 1-3) in either byte order\n");
    xw_free(&w);
    /* A forced byte order that does not fit. */
    xw_init(&w, true);
    xw_header(&w, 5, 1, 0, 0, 0);
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    expect_error(&w, &cfg,
                 "end E_VERSION @0 file header: version 1280 / type 256 is not a known XRay "
                 "version (FDR 1-5, basic 1-3)\n");
    xw_free(&w);
}
END_TEST

START_TEST(test_err_truncated)
{
    xw_t w;
    xw_init(&w, false);
    v5_preamble(&w);
    w.len = 20;
    expect_error(&w, NULL, "end E_TRUNCATED @0 file header: input ended after 20 of 32 bytes\n");
    xw_free(&w);

    xw_init(&w, false);
    v5_preamble(&w);
    size_t m = xw_extents(&w, 0);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_func(&w, 0, 1, 1);
    xw_end_extents(&w, m);
    w.len -= 3; /* inside the last function record */
    expect_error(&w, NULL,
                 "end E_TRUNCATED @96 function record: input ended after 5 of 8 bytes\n");
    w.len -= 5; /* at a record boundary, but inside the extent */
    expect_error(&w, NULL,
                 "end E_TRUNCATED @32 buffer: input ended 8 bytes before the end of its extent\n");
    xw_free(&w);

    xw_init(&w, true);
    v5_preamble(&w);
    m = xw_extents(&w, 0);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_custom(&w, 10, 0, 0, "0123456789", 10);
    xw_end_extents(&w, m);
    w.len -= 4;
    expect_error(&w, NULL,
                 "end E_TRUNCATED @96 CustomEventMarker: input ended inside its 10-byte payload\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 2, 0, 0, 0, 0);
    xw_basic_func(&w, 0, 0, 1, 1, 1, 1);
    w.len -= 1;
    expect_error(&w, NULL, "end E_TRUNCATED @32 basic record: input ended after 31 of 32 bytes\n");
    xw_free(&w);
}
END_TEST

START_TEST(test_err_kinds)
{
    xw_t w;
    xw_init(&w, false);
    v5_preamble(&w);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_func(&w, 5, 1, 1);
    expect_error(&w, NULL,
                 "end E_BAD_TOKEN @96 function record: kind 5 is not defined (0-3)\n");
    w.len -= 8;
    uint8_t body[15] = {0};
    xw_meta(&w, 10, body);
    expect_error(&w, NULL, "end E_BAD_TOKEN @96 metadata record: kind 10 is not defined (0-9)\n");
    w.len -= 16;
    xw_eob(&w);
    expect_error(&w, NULL,
                 "end E_BAD_TOKEN @96 EndOfBuffer: not valid in FDR version 5 (v1 only)\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 3, 1, 0, 0, 0);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_typed(&w, 1, 0, 0, "x", 1);
    expect_error(&w, NULL,
                 "end E_BAD_TOKEN @96 TypedEventMarker: not defined in FDR version 3 (v4+)\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 2, 1, 0, 0, 0);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_pid(&w, 1);
    expect_error(&w, NULL, "end E_BAD_TOKEN @80 PIDEntry: not defined in FDR version 2 (v3+)\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 1, 1, 0, 0, 4096);
    xw_extents(&w, 200);
    expect_error(&w, NULL, "end E_BAD_TOKEN @32 BufferExtents: not defined in FDR version 1\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 3, 0, 0, 0, 0);
    xw_u16(&w, 7);
    xw_zeros(&w, 30);
    expect_error(&w, NULL,
                 "end E_BAD_TOKEN @32 basic record: type 7 is not defined (0 function, 1 "
                 "argument)\n");
    xw_free(&w);
}
END_TEST

START_TEST(test_err_order)
{
    xw_t w;
    xw_init(&w, false);
    v5_preamble(&w);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_func(&w, 0, 1, 1);
    expect_error(&w, NULL,
                 "end E_ORDER @80 function record where the buffer grammar expects PIDEntry or "
                 "NewCPUId\n");
    xw_free(&w);

    xw_init(&w, false);
    v5_preamble(&w);
    xw_new_buffer(&w, 1);
    expect_error(&w, NULL,
                 "end E_ORDER @32 metadata record where the buffer grammar expects "
                 "BufferExtents\n");
    xw_free(&w);

    xw_init(&w, false);
    v5_preamble(&w);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_tsc_wrap(&w, 0);
    xw_arg(&w, 1);
    expect_error(&w, NULL,
                 "end E_ORDER @112 CallArgument: not after a function record or another "
                 "CallArgument\n");
    xw_free(&w);

    xw_init(&w, false);
    v5_preamble(&w);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_new_buffer(&w, 1);
    expect_error(&w, NULL,
                 "end E_ORDER @64 NewBuffer record where the buffer grammar expects "
                 "WalltimeMarker\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 3, 0, 0, 0, 0);
    xw_basic_func(&w, 0, 0, 1, 1, 1, 1);
    xw_basic_arg(&w, 2, 1, 1, 5);
    expect_error(&w, NULL,
                 "end E_ORDER @64 basic argument record: function 2 thread 1 does not follow a "
                 "record of the same function and thread\n");
    xw_free(&w);
}
END_TEST

START_TEST(test_err_extent_and_sizes)
{
    xw_t w;
    xw_init(&w, false);
    v5_preamble(&w);
    size_t m = xw_extents(&w, 0);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_func(&w, 0, 1, 1);
    xw_end_extents(&w, m);
    w.buf[m + 1] = 52; /* extent ends inside the function record */
    expect_error(&w, NULL,
                 "end E_EXTENT @96 function record (8 bytes) runs past the buffer extent (ends at "
                 "100)\n");
    xw_free(&w);

    xw_init(&w, false);
    v5_preamble(&w);
    m = xw_extents(&w, 0);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_typed(&w, 20, 0, 1, "0123456789abcdef0123", 20);
    xw_end_extents(&w, m);
    w.buf[m + 1] = (uint8_t)(w.buf[m + 1] - 16); /* the LLVM 14 typed-event bug */
    expect_error(&w, NULL,
                 "end E_EXTENT @96 TypedEventMarker: 20-byte payload runs past the buffer extent "
                 "(ends at 116; LLVM 14 writes typed-event buffers 16 bytes short)\n");
    xw_free(&w);

    for (int size = 0; size >= -1; size--) {
        xw_init(&w, false);
        v5_preamble(&w);
        xw_extents(&w, 200);
        xw_new_buffer(&w, 1);
        xw_walltime(&w, 0, 0);
        xw_new_cpu(&w, 0, 0);
        xw_custom(&w, size, 0, 0, "", 0);
        char want[160];
        snprintf(want, sizeof want,
                 "end E_BAD_RECORD @96 CustomEventMarker: event size %d is not positive\n", size);
        expect_error(&w, NULL, want);
        xw_free(&w);
    }

    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.max_event_bytes = 8;
    cfg.max_args = 2;
    xw_init(&w, false);
    v5_preamble(&w);
    xw_extents(&w, 200);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    xw_custom(&w, 9, 0, 0, "123456789", 9);
    expect_error(&w, &cfg,
                 "end E_LIMIT @96 CustomEventMarker: event size 9 exceeds max_event_bytes 8\n");
    w.len -= 25;
    xw_func(&w, 3, 1, 0);
    xw_arg(&w, 1);
    xw_arg(&w, 2);
    xw_arg(&w, 3);
    expect_error(&w, &cfg, "end E_LIMIT @136 CallArgument: more than max_args (2) arguments\n");
    xw_free(&w);

    xw_init(&w, false);
    xw_header(&w, 1, 1, 0, 0, 16);
    expect_error(&w, NULL,
                 "end E_BAD_RECORD @0 file header: buffer_size 16 is too small for an FDR version "
                 "1 buffer\n");
    xw_free(&w);
}
END_TEST

/* ---- lenient: a damaged buffer is skipped by its extent ------------------------------------------ */

START_TEST(test_lenient_skip)
{
    xw_t w;
    xw_init(&w, _i == 1);
    v5_preamble(&w);
    for (int b = 0; b < 3; b++) {
        size_t m = xw_extents(&w, 0);
        xw_new_buffer(&w, b);
        xw_walltime(&w, 0, 0);
        xw_new_cpu(&w, 0, 0);
        xw_func(&w, 0, 1, 1);
        if (b == 1)
            xw_func(&w, 6, 1, 1); /* damaged */
        xw_func(&w, 1, 1, 1);
        xw_end_extents(&w, m);
    }
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    expect_error(&w, &cfg, "end E_BAD_TOKEN @184 function record: kind 6 is not defined (0-3)\n");
    cfg.lenient_skip_buffers = true;
    char *log = drv_check_all(&xray_target, &cfg, w.buf, w.len);
    ck_assert_ptr_nonnull(strstr(
        log, "fn @176 enter id=1 tsc=1 ns=1 delta=1 tid=1 pid=0 cpu=0\n"
             "warning E_BAD_TOKEN @112 skipped=8 E_BAD_TOKEN at byte 184: function record: kind 6 "
             "is not defined (0-3); skipped the rest of the buffer that starts at byte 112\n"
             "buffer-end @200 filler=0\n"
             "meta @200 buffer-extents extent=64\n"));
    ck_assert_ptr_nonnull(strstr(log, "fn @272 exit id=1 tsc=2 ns=2 delta=1 tid=2 pid=0 cpu=0\n"
                                      "buffer-end @280 filler=0\nend OK\n"));
    free(log);
    xw_free(&w);

    /* Regression (fuzzing): the damaged record ends exactly at the end of the
     * last buffer, and the warning's callback pauses: finish must close the
     * buffer, not report a truncation. */
    xw_init(&w, _i == 1);
    v5_preamble(&w);
    size_t m = xw_extents(&w, 0);
    xw_new_buffer(&w, 1);
    xw_walltime(&w, 0, 0);
    xw_new_cpu(&w, 0, 0);
    uint8_t body[15] = {0};
    xw_meta(&w, 37, body);
    xw_end_extents(&w, m);
    log = drv_check_all(&xray_target, &cfg, w.buf, w.len);
    ck_assert_ptr_nonnull(strstr(log, "skipped the rest of the buffer that starts at byte 32\n"
                                      "buffer-end @112 filler=0\nend OK\n"));
    free(log);
    xw_free(&w);
}
END_TEST

/* ---- contract: callbacks abort, re-entrancy, misuse ------------------------------------------------ */

static int abort_cb(void *u, const tracerd_xray_function_t *f)
{
    (void)f;
    tracerd_xray_reader_t **r = u;
    size_t used;
    /* Re-entrant calls are refused. */
    ck_assert_int_eq(tracerd_xray_feed(*r, "x", 1, &used), TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_xray_finish(*r), TRACERD_E_INVALID);
    ck_assert_uint_eq(tracerd_xray_record_offset(*r), 112);
    return -5;
}

START_TEST(test_callback_abort)
{
    xw_t w;
    xw_init(&w, false);
    build_v5(&w);
    tracerd_xray_reader_t *r;
    tracerd_xray_callbacks_t cb = {0};
    cb.on_function = abort_cb;
    ck_assert_int_eq(tracerd_xray_new(NULL, &cb, &r, NULL, &r), TRACERD_OK);
    size_t used;
    ck_assert_int_eq(tracerd_xray_feed(r, w.buf, w.len, &used), TRACERD_E_CALLBACK);
    ck_assert_int_eq(tracerd_xray_callback_error(r), -5);
    ck_assert_str_eq(tracerd_xray_error_reason(r), "on_function callback returned -5");
    ck_assert_uint_eq(tracerd_xray_record_offset(r), 112);
    /* Sticky until reset. */
    ck_assert_int_eq(tracerd_xray_feed(r, w.buf, 1, &used), TRACERD_E_CALLBACK);
    ck_assert_int_eq(tracerd_xray_resume(r), TRACERD_E_INVALID);
    tracerd_xray_reset(r); /* the same input fails the same way again */
    ck_assert_int_eq(tracerd_xray_feed(r, w.buf, w.len, &used), TRACERD_E_CALLBACK);
    ck_assert_uint_eq(tracerd_xray_record_offset(r), 112);
    tracerd_xray_free(r);
    ck_assert_int_eq(tracerd_xray_new(NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_xray_feed(r, w.buf, w.len, &used), TRACERD_OK);
    ck_assert_uint_eq(used, w.len);
    ck_assert_int_eq(tracerd_xray_finish(r), TRACERD_OK);
    ck_assert_int_eq(tracerd_xray_feed(r, w.buf, 1, &used), TRACERD_E_INVALID); /* after finish */
    tracerd_xray_header_t h;
    ck_assert(tracerd_xray_header(r, &h));
    ck_assert_uint_eq(h.version, 5);
    ck_assert_uint_eq(tracerd_xray_offset(r), w.len);
    tracerd_xray_free(r);
    xw_free(&w);
    /* Bad options. */
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.max_args = 0;
    ck_assert_int_eq(tracerd_xray_new(&cfg, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    ck_assert_ptr_null(r);
    ck_assert_uint_gt(tracerd_xray_memory_bound(NULL), 4096);
}
END_TEST

/* on_functions aborting: the error names the run's last record and the
 * callback; runs are held until they end where the trace says. */
struct runs {
    tracerd_xray_reader_t *r;
    unsigned calls, abort_at;
    uint64_t last;
    size_t records;
};

static int runs_cb(void *u, const tracerd_xray_function_t *fs, size_t n)
{
    struct runs *x = u;
    ck_assert_uint_ge(n, 1);
    ck_assert_uint_eq(tracerd_xray_record_offset(x->r), fs[n - 1].offset);
    x->last = fs[n - 1].offset;
    x->records += n;
    return ++x->calls == x->abort_at ? -5 : 0;
}

/* One buffer of 100 records at 96 + 8 i, then a second one of 3. */
static void two_buffers(xw_t *w)
{
    xw_header(w, 5, 1, 3, 1000000000u, 0);
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, 1);
    xw_walltime(w, 1, 0);
    xw_new_cpu(w, 0, 0);
    for (int i = 0; i < 100; i++)
        xw_func(w, i & 1, 1, 1);
    xw_end_extents(w, m);
    m = xw_extents(w, 0);
    xw_new_buffer(w, 2);
    xw_walltime(w, 1, 0);
    xw_new_cpu(w, 0, 0);
    for (int i = 0; i < 3; i++)
        xw_func(w, 0, 2, 1);
    xw_end_extents(w, m);
}

START_TEST(test_batch_abort)
{
    xw_t w;
    xw_init(&w, false);
    two_buffers(&w);
    for (unsigned k = 1; k <= 3; k++) {
        struct runs x = {.abort_at = k};
        tracerd_xray_callbacks_t cb;
        tracerd_xray_callbacks_init(&cb);
        cb.on_functions = runs_cb;
        ck_assert_int_eq(tracerd_xray_new(NULL, &cb, &x, NULL, &x.r), TRACERD_OK);
        size_t used;
        tracerd_status_t st = tracerd_xray_feed(x.r, w.buf, w.len, &used);
        if (st == TRACERD_OK)
            st = tracerd_xray_finish(x.r);
        /* runs: records 0-63, then 64-99 at the buffer's end, then the
         * second buffer's three */
        static const uint64_t last[] = {0, 96 + 8 * 63, 96 + 8 * 99, 96 + 8 * 100 + 64 + 16};
        ck_assert_int_eq(st, TRACERD_E_CALLBACK);
        ck_assert_uint_eq(x.last, last[k]);
        ck_assert_uint_eq(tracerd_xray_record_offset(x.r), last[k]);
        ck_assert_str_eq(tracerd_xray_error_reason(x.r), "on_functions callback returned -5");
        tracerd_xray_free(x.r);
    }
    xw_free(&w);
}
END_TEST

/* on_functions holds a run across feeds until it ends: a chunk that ends
 * inside a buffer delivers nothing of an unfinished run, a chunk that ends
 * at the buffer's end (known from its extents) delivers all of it. */
START_TEST(test_batch_held)
{
    xw_t w;
    xw_init(&w, _i == 1);
    two_buffers(&w);
    struct runs x = {0};
    tracerd_xray_callbacks_t cb;
    tracerd_xray_callbacks_init(&cb);
    cb.on_functions = runs_cb;
    ck_assert_int_eq(tracerd_xray_new(NULL, &cb, &x, NULL, &x.r), TRACERD_OK);
    size_t used, at = 96 + 8 * 10 + 4; /* ten records and half of one */
    ck_assert_int_eq(tracerd_xray_feed(x.r, w.buf, at, &used), TRACERD_OK);
    ck_assert_uint_eq(x.records, 0);
    size_t end1 = 96 + 8 * 100; /* the first buffer's end */
    ck_assert_int_eq(tracerd_xray_feed(x.r, w.buf + at, end1 - 8 - at, &used), TRACERD_OK);
    ck_assert_uint_eq(x.records, 64); /* the full run; 35 held, the last pending */
    ck_assert_int_eq(tracerd_xray_feed(x.r, w.buf + end1 - 8, 8, &used), TRACERD_OK);
    ck_assert_uint_eq(x.records, 100);
    ck_assert_uint_eq(x.calls, 2);
    ck_assert_int_eq(tracerd_xray_feed(x.r, w.buf + end1, w.len - end1, &used), TRACERD_OK);
    ck_assert_uint_eq(x.records, 103);
    ck_assert_int_eq(tracerd_xray_finish(x.r), TRACERD_OK);
    ck_assert_uint_eq(x.calls, 3);
    tracerd_xray_free(x.r);
    xw_free(&w);
}
END_TEST

/* An abort from on_functions at every callback (every record of every run):
 * the same records, status, offset and reason in every split, pause and
 * allocation failure, both byte orders, with and without on_metadata. The
 * trace has a full run, a record with arguments inside a run, after a full
 * one and at a buffer's end, a NewCPUId and a TSCWrap inside a run, an event,
 * a record of an undefined kind (the error ends the run), and (with lenient
 * skipping off) stops there. */
static void abort_trace(xw_t *w, bool bad)
{
    xw_header(w, 5, 1, 3, 1000000000u, 0);
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, 7);
    xw_walltime(w, 1, 0);
    xw_pid(w, 70);
    xw_new_cpu(w, 1, 100);
    for (int i = 0; i < 80; i++) {
        xw_func(w, i & 1, (uint32_t)(i % 5), (uint32_t)i);
        if (i == 5 || i == 69) {
            xw_arg(w, 500u + (unsigned)i);
            xw_arg(w, 600u + (unsigned)i);
        }
        if (i == 70)
            xw_arg(w, 700);
        if (i == 72)
            xw_new_cpu(w, 2, 9000);
        if (i == 75)
            xw_tsc_wrap(w, 1u << 20);
        if (i == 77)
            xw_custom(w, 3, 5, 2, "abc", 3);
    }
    xw_arg(w, 800);
    xw_end_extents(w, m);
    m = xw_extents(w, 0);
    xw_new_buffer(w, 8);
    xw_walltime(w, 1, 0);
    xw_pid(w, 70);
    xw_new_cpu(w, 3, 100);
    for (int i = 0; i < 6; i++)
        xw_func(w, 0, 9, 1);
    if (bad) {
        uint8_t b[8] = {w->big ? 0x40 : 0x08}; /* a function record of kind 4 */
        xw_raw(w, b, 8);
        xw_func(w, 1, 9, 1);
    }
    xw_end_extents(w, m);
}

START_TEST(test_batch_abort_splits)
{
    for (int bad = 0; bad < 2; bad++) {
        xw_t w;
        xw_init(&w, _i == 1);
        abort_trace(&w, bad != 0);
        for (int nometa = 0; nometa < 2; nometa++) {
            const drv_target_t *t = nometa ? &xray_target_batch_nometa : &xray_target_batch;
            char *log = drv_check_all(t, NULL, w.buf, w.len);
            unsigned long calls = 0; /* counted callbacks: one line each but the end */
            for (const char *p = log; *p; p++)
                calls += *p == '\n';
            ck_assert_ptr_nonnull(strstr(log, bad ? "end E_BAD_TOKEN" : "end OK"));
            free(log);
            /* every callback on the plain build; every seventh on slow hosts */
            for (unsigned long k = 1; k < calls; k += drv_slow_host() ? 7 : 1) {
                char *got = drv_check_all_at(t, NULL, w.buf, w.len, k);
                ck_assert_msg(strstr(got, "end E_CALLBACK @") != NULL, "abort %lu: %s", k, got);
                free(got);
            }
        }
        xw_free(&w);
    }
}
END_TEST

/* Records the hot loop delivers itself (NewCPUId, TSCWrap and events inside a
 * buffer body, fed whole): inside each callback record_offset() names that
 * record, and an abort there is reported at it, naming the callback. */
struct probe {
    tracerd_xray_reader_t *r;
    uint64_t abort_at;
    char log[1024];
    size_t len;
};

static int probe_at(struct probe *p, uint64_t offset, const char *what)
{
    ck_assert_uint_eq(tracerd_xray_record_offset(p->r), offset);
    p->len += (size_t)snprintf(p->log + p->len, sizeof p->log - p->len, "%s@%llu ", what,
                               (unsigned long long)offset);
    return offset == p->abort_at ? -7 : 0;
}
static int probe_fn(void *u, const tracerd_xray_function_t *f)
{
    return probe_at(u, f->offset, "fn");
}
static int probe_meta(void *u, const tracerd_xray_metadata_t *m)
{
    return probe_at(u, m->offset, tracerd_xray_meta_kind_name(m->kind));
}
static int probe_event(void *u, const tracerd_xray_event_t *e)
{
    struct probe *p = u;
    p->len += (size_t)snprintf(p->log + p->len, sizeof p->log - p->len, "[tsc=%llu cpu=%u %.*s] ",
                               (unsigned long long)e->tsc, e->cpu, (int)e->payload.len,
                               (const char *)e->payload.data);
    return probe_at(u, e->offset, e->typed ? "typed" : "custom");
}

START_TEST(test_fast_loop_callbacks)
{
    xw_t w;
    xw_init(&w, _i == 1);
    v5_preamble(&w);
    size_t m = xw_extents(&w, 0);
    xw_new_buffer(&w, 7);
    xw_walltime(&w, 1, 2);
    xw_pid(&w, 9);
    xw_new_cpu(&w, 1, 100);
    xw_func(&w, 0, 1, 5);                              /* @112 */
    xw_new_cpu(&w, 3, 1000);                           /* @120 */
    xw_func(&w, 1, 1, 2);                              /* @136 */
    xw_tsc_wrap(&w, 5000);                             /* @144 */
    xw_func(&w, 0, 2, 1);                              /* @160 */
    xw_custom(&w, 4, 7, 0, "abcd", 4);                 /* @168 */
    xw_typed(&w, 3, (uint32_t)-2, 9, "xyz", 3);        /* @188 */
    xw_func(&w, 1, 2, 1);                              /* @207 */
    xw_end_extents(&w, m);
    ck_assert_uint_eq(w.len, 215);
    static const uint64_t at[] = {0, 112, 120, 136, 144, 160, 168, 188, 207};
    static const char *const which[] = {"", "on_function", "on_metadata", "on_function",
                                        "on_metadata", "on_function", "on_event", "on_event",
                                        "on_function"};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        struct probe p = {.abort_at = at[k]};
        tracerd_xray_callbacks_t cb = {0};
        cb.on_function = probe_fn;
        cb.on_metadata = probe_meta;
        cb.on_event = probe_event;
        ck_assert_int_eq(tracerd_xray_new(NULL, &cb, &p, NULL, &p.r), TRACERD_OK);
        size_t used;
        tracerd_status_t st = tracerd_xray_feed(p.r, w.buf, w.len, &used);
        if (k == 0) {
            ck_assert_int_eq(st, TRACERD_OK);
            ck_assert_int_eq(tracerd_xray_finish(p.r), TRACERD_OK);
            ck_assert_str_eq(p.log,
                             "buffer-extents@32 new-buffer@48 walltime@64 pid@80 new-cpu@96 "
                             "fn@112 new-cpu@120 fn@136 tsc-wrap@144 fn@160 "
                             "[tsc=5008 cpu=3 abcd] custom@168 [tsc=5006 cpu=3 xyz] typed@188 "
                             "fn@207 ");
        } else {
            ck_assert_int_eq(st, TRACERD_E_CALLBACK);
            ck_assert_uint_eq(tracerd_xray_record_offset(p.r), at[k]);
            char want[64];
            snprintf(want, sizeof want, "%s callback returned -7", which[k]);
            ck_assert_str_eq(tracerd_xray_error_reason(p.r), want);
            ck_assert_int_eq(tracerd_xray_callback_error(p.r), -7);
        }
        tracerd_xray_free(p.r);
    }
    xw_free(&w);
}
END_TEST

/* A NULL-callback reader validates: same status, and a paused feed never happens. */
START_TEST(test_validator)
{
    xw_t w;
    xw_init(&w, false);
    build_v5(&w);
    tracerd_xray_reader_t *r;
    ck_assert_int_eq(tracerd_xray_new(NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    for (size_t i = 0; i < w.len; i++) {
        size_t used;
        ck_assert_int_eq(tracerd_xray_feed(r, w.buf + i, 1, &used), TRACERD_OK);
        ck_assert_uint_eq(used, 1);
    }
    ck_assert_int_eq(tracerd_xray_finish(r), TRACERD_OK);
    tracerd_xray_free(r);
    xw_free(&w);
}
END_TEST

/* The sample traces in tests/data/xray/ are the builders above, written to
 * files; TRACERD_UPDATE_GOLDEN=1 regenerates them. The test fails if they drift. */
START_TEST(test_samples_current)
{
    static const struct {
        const char *path;
        build_fn build;
        bool big;
    } samples[] = {
        {"tests/data/xray/fdr-v5-le.xray", build_v5, false},
        {"tests/data/xray/demo-synthetic-fdr-v5-be.xray", build_v5, true},
        {"tests/data/xray/fdr-v1-le.xray", build_v1, false},
        {"tests/data/xray/fdr-v4-be.xray", build_v4, true},
        {"tests/data/xray/basic-v3-le.xray", build_basic3, false},
    };
    const char *upd = getenv("TRACERD_UPDATE_GOLDEN");
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        xw_t w;
        xw_init(&w, samples[i].big);
        samples[i].build(&w);
        if (upd != NULL && strcmp(upd, "1") == 0) {
            FILE *f = fopen(samples[i].path, "wb");
            ck_assert_ptr_nonnull(f);
            fwrite(w.buf, 1, w.len, f);
            fclose(f);
        }
        size_t n;
        uint8_t *got = drv_read_file(samples[i].path, &n);
        ck_assert_msg(got != NULL, "%s missing (TRACERD_UPDATE_GOLDEN=1 writes it)",
                      samples[i].path);
        ck_assert_uint_eq(n, w.len);
        ck_assert_mem_eq(got, w.buf, n);
        free(got);
        xw_free(&w);
    }
}
END_TEST

Suite *suite_xray(void)
{
    Suite *s = suite_create("xray");
    TCase *tc = tcase_create("records");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fdr_v5_all_records);
    tcase_add_test(tc, test_fdr_v1_filler);
    tcase_add_test(tc, test_fdr_v2);
    tcase_add_test(tc, test_fdr_v3_buffers);
    tcase_add_test(tc, test_fdr_v4);
    tcase_add_test(tc, test_basic_v3);
    tcase_add_test(tc, test_basic_v1_no_frequency);
    tcase_add_test(tc, test_fragments);
    tcase_add_test(tc, test_samples_current);
    tcase_add_loop_test(tc, test_large_mixed, 0, 2);
    tcase_add_loop_test(tc, test_batch_runs, 0, 2);
    tcase_add_loop_test(tc, test_batch_bad_kind, 0, 2);
    tcase_add_test(tc, test_no_ns);
    suite_add_tcase(s, tc);
    TCase *te = tcase_create("errors");
    tcase_set_timeout(te, 120);
    tcase_add_test(te, test_err_version);
    tcase_add_test(te, test_err_truncated);
    tcase_add_test(te, test_err_kinds);
    tcase_add_test(te, test_err_order);
    tcase_add_test(te, test_err_extent_and_sizes);
    tcase_add_loop_test(te, test_lenient_skip, 0, 2);
    tcase_add_test(te, test_callback_abort);
    tcase_add_test(te, test_batch_abort);
    tcase_add_loop_test(te, test_batch_held, 0, 2);
    tcase_add_loop_test(te, test_batch_abort_splits, 0, 2);
    tcase_add_loop_test(te, test_fast_loop_callbacks, 0, 2);
    tcase_add_test(te, test_validator);
    suite_add_tcase(s, te);
    return s;
}
