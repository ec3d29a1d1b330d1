/* FXT reader: every record and argument type in both byte orders through the
 * shared split/pause/alloc drivers, bad input (status, offset, reason),
 * lenient skips, tables, time, large payloads, and the peer archives. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <tracerd/fxt.h>

#include "support/driver.h"
#include "support/fxt_recorder.h"
#include "support/fxt_writer.h"

/* The whole-feed log of data (malloc'd). */
static char *fxt_log(const tracerd_fxt_config_t *cfg, const uint8_t *data, size_t len)
{
    drv_plan_t whole = {0};
    return drv_run(&fxt_target, cfg, data, len, &whole);
}

/* ---- helpers ---------------------------------------------------------- */

/* Under the sanitizers the biggest inputs get fewer chunkings (CI time). */
#define FXT_SAN DRV_SAN

static uint8_t *take(fxw_t *w, size_t *len)
{
    return fxw_take(w, len);
}

/* Runs every chunking through the drivers; returns the log. */
static char *check_all(const tracerd_fxt_config_t *cfg, const uint8_t *d, size_t n)
{
    return drv_check_all(&fxt_target, cfg, d, n);
}

/* Asserts that log contains line (a substring). */
#define HAS(log, s) ck_assert_msg(strstr((log), (s)) != NULL, "missing: %s\nin log:\n%.3000s", (s), (log))
#define HASNT(log, s) ck_assert_msg(strstr((log), (s)) == NULL, "unexpected: %s\nin log:\n%.3000s", (s), (log))

/* Occurrences of s in log. A plain loop: the sanitizers' strstr measures the
 * whole haystack on every call, which is quadratic over a 5 MB log. */
static size_t count(const char *log, const char *s)
{
    size_t n = 0, k = strlen(s), len = strlen(log);
    for (size_t i = 0; i + k <= len; i++)
        if (log[i] == s[0] && memcmp(log + i, s, k) == 0) {
            n++;
            i += k - 1;
        }
    return n;
}

/* strstr without the sanitizers' whole-haystack check on each call. */
static const char *find(const char *h, const char *n)
{
    size_t k = strlen(n);
    for (; *h != '\0'; h++)
        if (*h == n[0] && strncmp(h, n, k) == 0)
            return h;
    return NULL;
}

/* Replaces every "order=big" by "order=little" (the only field that differs between orders). */
static void normalize_order(char *log)
{
    char *p;
    while ((p = strstr(log, "order=big")) != NULL) {
        memcpy(p, "order=lit", 9);
        memmove(p + 9, p + 9, strlen(p + 9) + 1);
        /* "order=big" and "order=little" differ in length: rebuild */
        size_t rest = strlen(p + 9);
        memmove(p + 12, p + 9, rest + 1);
        memcpy(p + 9, "tle", 3);
    }
}

static const uint8_t BLOB16[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* Every record and argument type. */
static void write_all(fxw_t *w)
{
    fxw_magic(w);
    fxw_provider_info(w, 7, "prov-seven");
    fxw_provider_section(w, 7);
    fxw_provider_event(w, 7, 0);
    fxw_init_record(w, 2000000000u); /* 2 ticks per ns */
    fxw_string(w, 1, "cat");
    fxw_string(w, 2, "name");
    fxw_string(w, 3, "key");
    fxw_string(w, 0x7fff, "last-index");
    fxw_thread(w, 1, 100, 101);
    fxw_thread(w, 255, 200, 201);
    fxw_arg_t all[11] = {
        FXA_NULL(FXS_IDX(3)),
        FXA_I32(FXS_INL("i32"), -5),
        FXA_U32(FXS_INL("u32"), 0xfffffffeu),
        FXA_I64(FXS_INL("i64"), INT64_MIN),
        FXA_U64(FXS_INL("u64"), UINT64_MAX),
        FXA_DBL(FXS_INL("dbl"), -2.5),
        FXA_STR(FXS_INL("str"), FXS_INL("inline value")),
        FXA_PTR(FXS_INL("ptr"), 0xdeadbeefcafeull),
        FXA_KOID(FXS_INL("koid"), 77),
        FXA_BOOL(FXS_INL("bool"), 1),
        FXA_BLOB(FXS_INL("blob"), BLOB16, 13),
    };
    fxw_event(w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 1000, all, 11, 0);
    fxw_arg_t two[2] = {FXA_STR(FXS_IDX(3), FXS_IDX(2)), FXA_BOOL(FXS_IDX(3), 0)};
    for (uint32_t t = 1; t <= 10; t++)
        fxw_event(w, t, t % 2 ? FXT_INL(300, 301) : FXT_IDX(255), FXS_INL("c"), FXS_IDX(0x7fff),
                  2000 + t, two, 2, 5000 + t);
    fxw_event(w, 2, FXT_IDX(1), FXS_EMPTY, FXS_EMPTY, 3000, NULL, 0, 0);
    fxw_arg_t fifteen[15];
    for (int i = 0; i < 15; i++)
        fifteen[i] = FXA_I32(FXS_IDX(3), i);
    fxw_event(w, 3, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 4000, fifteen, 15, 0);
    fxw_blob(w, FXS_INL("blobname"), 1, BLOB16, 11);
    fxw_blob(w, FXS_IDX(2), 3, BLOB16, 0);
    fxw_userspace(w, 0x1234, FXT_IDX(1), FXS_INL("obj"), two, 2);
    fxw_userspace(w, 0x5678, FXT_INL(9, 10), FXS_IDX(2), NULL, 0);
    fxw_arg_t proc = FXA_KOID(FXS_INL("process"), 100);
    fxw_kernel(w, 101, 2, FXS_INL("main-thread"), &proc, 1);
    fxw_arg_t wts[2] = {FXA_I32(FXS_INL("incoming_weight"), 2),
                        FXA_I32(FXS_INL("outgoing_weight"), 4)};
    fxw_context_switch(w, 3, 2, 6000, 101, 201, wts, 2);
    fxw_arg_t wt = FXA_I32(FXS_INL("weight"), 9);
    fxw_wakeup(w, 65535, 6002, 201, &wt, 1);
    fxw_legacy_switch(w, 255, 3, FXT_IDX(1), FXT_INL(400, 401), 20, 31, 6004);
    fxw_log(w, 7000, FXT_IDX(255), "a log message");
    fxw_log(w, 7001, FXT_INL(5, 6), "");
    fxw_large_blob(w, 0, FXS_IDX(1), FXS_INL("large0"), 8000, FXT_IDX(1), two, 2, BLOB16, 16);
    fxw_large_blob(w, 1, FXS_INL("lc"), FXS_IDX(2), 0, FXT_IDX(0), NULL, 0, BLOB16, 5);
    /* Re-registration replaces; index 0 is ignored. */
    fxw_string(w, 2, "renamed");
    fxw_string(w, 0, "ignored");
    fxw_thread(w, 1, 111, 112);
    fxw_thread(w, 0, 1, 1);
    fxw_event(w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 9000, NULL, 0, 0);
}

/* ---- tests ------------------------------------------------------------ */

START_TEST(test_all_records_both_orders)
{
    char *logs[2];
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        write_all(&w);
        size_t n;
        uint8_t *d = take(&w, &n);
        logs[big] = check_all(NULL, d, n);
        free(d);
    }
    char *le = logs[0];
    drv_golden("fxt/all_records.gold", le);
    HAS(le, "meta@0 type=4 provider=0 info=0 order=little\n");
    HAS(logs[1], "meta@0 type=4 provider=0 info=0 order=big\n");
    HAS(le, "meta@8 type=1 provider=7 name=\"prov-seven\"\n");
    HAS(le, "init@48 provider=7 tps=2000000000\n");
    HAS(le, "string@112 provider=7 index=32767 s=\"last-index\"\n");
    HAS(le, "thread@160 provider=7 index=255 pid=200 tid=201\n");
    /* The 11-argument instant event: every argument type, names resolved, ns = ticks / 2. */
    HAS(le, "provider=7 instant ticks=1000 ns=500 thread=1:100/101 cat=\"cat\" name=\"name\" "
            "args=[null@");
    HAS(le, " n=\"key\", int32@");
    HAS(le, " n=\"i32\" i=-5, uint32@");
    HAS(le, " n=\"u32\" u=4294967294, int64@");
    HAS(le, " n=\"i64\" i=-9223372036854775808, uint64@");
    HAS(le, " n=\"u64\" u=18446744073709551615, double@");
    HAS(le, " n=\"dbl\" d=-2.5 u=c004000000000000, string@");
    HAS(le, " n=\"str\" s=\"inline value\", pointer@");
    HAS(le, " n=\"ptr\" u=244837814094590, koid@");
    HAS(le, " n=\"koid\" u=77, bool@");
    HAS(le, " n=\"bool\" u=1, blob@");
    HAS(le, " n=\"blob\" blob=13:");
    HAS(le, ":000102030405060708090a0b0c] id=0 end=0/0\n");
    /* Type-specific words. */
    HAS(le, "counter ticks=2001 ns=1000 thread=0:300/301 cat=\"c\" name=\"last-index\"");
    HAS(le, "duration-complete ticks=2004 ns=1002 thread=255:200/201");
    HAS(le, "id=0 end=5004/2502\n");
    HAS(le, "flow-end ticks=2010 ns=1005 thread=255:200/201");
    HAS(le, "id=5010 end=0/0\n");
    HAS(le, "async-begin ticks=2005");
    HAS(le, "duration-begin ticks=3000 ns=1500 thread=1:100/101 cat=\"\" name=\"\" args=[] id=0");
    HAS(le, "int32@");
    ck_assert_uint_ge(count(le, "n=\"key\" i="), 15);
    HAS(le, " n=\"key\" i=14] id=0 end=0/0\n");
    HAS(le, "type=1 name=\"blobname\" payload=11:");
    HAS(le, ":000102030405060708090a\n");
    HAS(le, "type=3 name=\"name\" payload=0:cbf29ce484222325:\n");
    HAS(le, "pointer=0x1234 process=1:100/101 name=\"obj\" args=[string@");
    HAS(le, "pointer=0x5678 process=0:9/10 name=\"name\" args=[]\n");
    HAS(le, "koid=101 objtype=2 name=\"main-thread\" args=[koid@");
    HAS(le, " n=\"process\" u=100]\n");
    HAS(le, "type=1 ticks=6000 ns=3000 cpu=3 state=2 out=0:0/101 in=0:0/201 waking=0 prio=0/0 "
            "args=[int32@");
    HAS(le, "n=\"outgoing_weight\" i=4]\n");
    HAS(le, "type=2 ticks=6002 ns=3001 cpu=65535 state=0 out=0:0/0 in=0:0/0 waking=201 prio=0/0 "
            "args=[int32@");
    HAS(le, "type=0 ticks=6004 ns=3002 cpu=255 state=3 out=1:100/101 in=0:400/401 waking=0 "
            "prio=20/31 args=[]\n");
    HAS(le, "ticks=7000 ns=3500 thread=255:200/201 msg=\"a log message\"\n");
    HAS(le, "ticks=7001 ns=3500 thread=0:5/6 msg=\"\"\n");
    HAS(le, "format=0 ticks=8000 ns=4000 cat=\"cat\" name=\"large0\" thread=1:100/101 args=[string@");
    HAS(le, "size=16 payload=16:");
    HAS(le, "format=1 ticks=0 ns=0 cat=\"lc\" name=\"name\" thread=0:0/0 args=[] size=5 payload=5:");
    HAS(le, "index=2 s=\"renamed\"\n");
    HAS(le, "index=0 s=\"ignored\"\n");
    HAS(le, "index=0 pid=1 tid=1\n");
    HAS(le, "instant ticks=9000 ns=4500 thread=1:111/112 cat=\"cat\" name=\"renamed\" args=[]");
    HAS(le, "end OK\n");
    HASNT(le, "unknown@");
    /* Big-endian decodes to exactly the same records. */
    normalize_order(logs[1]);
    ck_assert_str_eq(logs[1], le);
    free(logs[0]);
    free(logs[1]);
}
END_TEST

/* ---- peer archives ---------------------------------------------------- */

static uint8_t *peer(const char *name, size_t *len)
{
    const char *dir = drv_peer_dir();
    if (dir == NULL)
        return NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/fxt/%s", dir, name);
    uint8_t *d = drv_read_file(path, len);
    ck_assert_msg(d != NULL, "cannot read %s", path);
    return d;
}

START_TEST(test_peer_richiesams)
{
    size_t n;
    uint8_t *d = peer("richiesams-fxt_magic-trace_trace.fxt", &n);
    if (d == NULL)
        return;
    ck_assert_uint_eq(n, 992384);
    /* The whole archive through a few chunkings (every strategy of
     * drv_check_all on 1 MB is too slow under the sanitizers), then every
     * strategy on a 48 KiB prefix (which ends in a truncated record). */
    char *log = fxt_log(NULL, d, n);
    static const size_t cuts[] = {300000, 4093, 1, 7, 65536};
    size_t ncuts = FXT_SAN ? 1 : sizeof cuts / sizeof cuts[0];
    for (size_t k = 0; k < ncuts; k++) {
        size_t sizes[2] = {cuts[k], n};
        drv_plan_t plan = {.sizes = sizes, .nsizes = cuts[k] == 1 ? 1 : 2};
        char *got = drv_run(&fxt_target, NULL, d, n, &plan);
        ck_assert_msg(strcmp(got, log) == 0, "chunking %zu differs", cuts[k]);
        free(got);
    }
    if (!FXT_SAN) {
        drv_plan_t pause = {.pause_every = true};
        char *paused = drv_run(&fxt_target, NULL, d, n, &pause);
        ck_assert_msg(strcmp(paused, log) == 0, "pause at every callback differs");
        free(paused);
    }
    free(check_all(NULL, d, FXT_SAN ? 4096 : 48 * 1024));
    /* 35,463 records: magic, provider info, provider section, init, 864
     * strings, 1 thread, 2 kernel objects, 17,296 begin + 17,296 end. */
    ck_assert_uint_eq(count(log, "\nmeta@"), 2); /* provider info + section (magic is line 1) */
    ck_assert_uint_eq(count(log, "meta@0 type=4 provider=0 info=0 order=little\n"), 1);
    ck_assert_uint_eq(count(log, "\ninit@"), 1);
    ck_assert_uint_eq(count(log, "\nstring@"), 864);
    ck_assert_uint_eq(count(log, "\nthread@"), 1);
    ck_assert_uint_eq(count(log, "\nkernel@"), 2);
    ck_assert_uint_eq(count(log, " duration-begin "), 17296);
    ck_assert_uint_eq(count(log, " duration-end "), 17296);
    ck_assert_uint_eq(count(log, "\nevent@"), 34592);
    ck_assert_uint_eq(count(log, "\n"), 35463 + 1); /* + the end line */
    ck_assert_uint_eq(count(log, "unknown@"), 0);
    HAS(log, "meta@8 type=1 provider=0 name=\"jane_tracing\"\nmeta@32 type=2 provider=0\n");
    /* jane_tracing writes a 4-word initialization record: the extra words are skipped. */
    HAS(log, "string@40 provider=0 index=1 s=\"process\"\ninit@56 provider=0 tps=1000000000\n"
             "string@88 provider=0 index=102 s=\"2248878/2248878\"\n");
    HAS(log, "kernel@112 provider=0 koid=1 objtype=1 name=\"2248878/2248878\" args=[]\n");
    HAS(log, "kernel@144 provider=0 koid=2 objtype=2 name=\"main\" args=[koid@160 n=\"process\" u=1]\n");
    HAS(log, "thread@176 provider=0 index=1 pid=1 tid=2\n");
    HAS(log, "event@232 provider=0 duration-end ticks=209 ns=209 thread=1:1/2 cat=\"\" "
             "name=\"native_write_msr\" args=[] id=0 end=0/0\n");
    HAS(log, "event@384 provider=0 duration-begin ticks=233 ns=233 thread=1:1/2 cat=\"\" "
             "name=\"__list_add_valid\" args=[pointer@400 n=\"address\" u=18446744072328504752, "
             "string@416 n=\"symbol\" s=\"__list_add_valid\"] id=0 end=0/0\n");
    ck_assert_msg(strcmp(log + strlen(log) - 7, "end OK\n") == 0, "tail: %s", log + strlen(log) - 200);
    free(log);
    free(d);
}
END_TEST

START_TEST(test_peer_ocaml_first)
{
    size_t n;
    uint8_t *d = peer("ocaml-trace_t2_first.fxt", &n);
    if (d == NULL)
        return;
    char *log = check_all(NULL, d, n);
    /* No provider info, no initialization: implicit provider 0, 1 tick = 1 ns. */
    ck_assert_str_eq(log, "meta@0 type=4 provider=0 info=0 order=little\n"
                          "thread@8 provider=0 index=5 pid=1 tid=86\n"
                          "event@32 provider=0 instant ticks=12345678 ns=12345678 thread=5:1/86 "
                          "cat=\"\" name=\"hello\" args=[int32@56 n=\"x\" i=42] id=0 end=0/0\n"
                          "end OK\n");
    free(log);
    free(d);
}
END_TEST

START_TEST(test_peer_ocaml_second)
{
    size_t n;
    uint8_t *d = peer("ocaml-trace_t2_second.fxt", &n);
    if (d == NULL)
        return;
    /* Strict (the spec: per-provider tables): thread 5 was registered in the
     * implicit provider 0, the events are in provider 1. The provider name
     * length is 2 (the writer stores words, not bytes): the name is "oc". */
    char *log = check_all(NULL, d, n);
    ck_assert_str_eq(log, "meta@0 type=4 provider=0 info=0 order=little\n"
                          "init@8 provider=0 tps=1000000000\n"
                          "thread@24 provider=0 index=5 pid=1 tid=86\n"
                          "meta@48 type=1 provider=1 name=\"oc\"\n"
                          "end E_REFERENCE @72 duration complete event record: event thread index "
                          "5 is not registered in provider 1\n");
    free(log);
    /* fallback_to_provider0: what one-global-table readers do. Provider 1 has
     * no initialization record: 1 tick = 1 ns. */
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.fallback_to_provider0 = true;
    log = check_all(&cfg, d, n);
    ck_assert_str_eq(log, "meta@0 type=4 provider=0 info=0 order=little\n"
                          "init@8 provider=0 tps=1000000000\n"
                          "thread@24 provider=0 index=5 pid=1 tid=86\n"
                          "meta@48 type=1 provider=1 name=\"oc\"\n"
                          "event@72 provider=1 duration-complete ticks=100000 ns=100000 "
                          "thread=5:1/86 cat=\"\" name=\"outer\" args=[] id=0 end=5000000/5000000\n"
                          "event@104 provider=1 duration-complete ticks=180000 ns=180000 "
                          "thread=5:1/86 cat=\"\" name=\"inner\" args=[] id=0 end=4500000/4500000\n"
                          "event@136 provider=1 instant ticks=1234567 ns=1234567 thread=5:1/86 "
                          "cat=\"\" name=\"hello\" args=[int32@160 n=\"x\" i=42] id=0 end=0/0\n"
                          "end OK\n");
    free(log);
    /* Lenient: the three events are skipped with warnings, nothing else lost;
     * the two duration events side by side come as one warning with a count
     * (the same in every split: check_all). */
    tracerd_fxt_config_init(&cfg);
    cfg.lenient = true;
    log = check_all(&cfg, d, n);
    ck_assert_uint_eq(count(log, "warning E_REFERENCE"), 2);
    HAS(log, "warning E_REFERENCE @72 skipped=64 count=2 duration complete event record: event "
             "thread index 5 is not registered in provider 1\n");
    HAS(log, "warning E_REFERENCE @136 skipped=40 instant event record: event thread index 5 is "
             "not registered in provider 1\nend OK\n");
    free(log);
    free(d);
}
END_TEST

static char *expect_tail(const tracerd_fxt_config_t *cfg, const uint8_t *d, size_t n,
                         const char *tail);

/* Concatenated archives of both byte orders; no magic record at all. */
START_TEST(test_byte_order_switch)
{
    fxw_t le, be;
    fxw_init(&le, false);
    fxw_init(&be, true);
    fxw_magic(&le);
    fxw_string(&le, 1, "little");
    fxw_event(&le, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(1), 10, NULL, 0, 0);
    fxw_magic(&be);
    fxw_provider_info(&be, 9, "big-host");
    fxw_string(&be, 1, "big");
    fxw_event(&be, 0, FXT_INL(3, 4), FXS_IDX(1), FXS_IDX(1), 20, NULL, 0, 0);
    fxw_bytes(&le, be.buf, be.len);
    size_t n;
    uint8_t *d = fxw_take(&le, &n);
    char *log = check_all(NULL, d, n);
    ck_assert_str_eq(log, "meta@0 type=4 provider=0 info=0 order=little\n"
                          "string@8 provider=0 index=1 s=\"little\"\n"
                          "event@24 provider=0 instant ticks=10 ns=10 thread=0:1/2 cat=\"little\" "
                          "name=\"little\" args=[] id=0 end=0/0\n"
                          "meta@56 type=4 provider=0 info=0 order=big\n"
                          "meta@64 type=1 provider=9 name=\"big-host\"\n"
                          "string@80 provider=9 index=1 s=\"big\"\n"
                          "event@96 provider=9 instant ticks=20 ns=20 thread=0:3/4 cat=\"big\" "
                          "name=\"big\" args=[] id=0 end=0/0\n"
                          "end OK\n");
    free(log);
    /* Forced little: the big-endian magic record is an error (lenient: skipped). */
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    free(expect_tail(&cfg, d, n,
                     "end E_MAGIC @56 magic record: written in big-endian order but the reader is "
                     "configured for little-endian\n"));
    free(d);
    /* No magic record: assume_byte_order decides. */
    fxw_free(&be);
    fxw_init(&be, true);
    fxw_string(&be, 3, "no-magic");
    fxw_thread(&be, 2, 7, 8);
    d = fxw_take(&be, &n);
    tracerd_fxt_config_init(&cfg);
    cfg.assume_byte_order = TRACERD_BYTE_ORDER_BIG;
    log = check_all(&cfg, d, n);
    ck_assert_str_eq(log, "string@0 provider=0 index=3 s=\"no-magic\"\n"
                          "thread@16 provider=0 index=2 pid=7 tid=8\nend OK\n");
    free(log);
    free(d);
    fxw_free(&be);
}
END_TEST

/* ---- bad input -------------------------------------------------------- */

/* Runs every chunking; asserts the log ends with `tail`; returns the log. */
static char *expect_tail(const tracerd_fxt_config_t *cfg, const uint8_t *d, size_t n,
                         const char *tail)
{
    char *log = check_all(cfg, d, n);
    size_t a = strlen(log), b = strlen(tail);
    ck_assert_msg(a >= b && strcmp(log + a - b, tail) == 0, "want tail:\n%s\ngot log:\n%s", tail,
                  log);
    return log;
}

static void expect_w(fxw_t *w, const tracerd_fxt_config_t *cfg, const char *tail)
{
    size_t n;
    uint8_t *d = fxw_take(w, &n);
    free(expect_tail(cfg, d, n, tail));
    free(d);
}

/* Sets the size field (bits 4..15) of the record at pos. */
static void set_size(fxw_t *w, size_t pos, uint64_t words)
{
    uint64_t h = fxw_peek(w, pos);
    fxw_patch(w, pos, (h & ~(uint64_t)0xfff0) | (words & 0xfff) << 4);
}

START_TEST(test_bad_sizes)
{
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        fxw_magic(&w);
        fxw_word(&w, 4); /* event, size 0 */
        expect_w(&w, NULL, "end E_BAD_RECORD @8 event record: size is 0\n");
        fxw_magic(&w);
        fxw_string(&w, 1, "x");
        fxw_word(&w, 15); /* large, size 0 */
        expect_w(&w, NULL, "end E_BAD_RECORD @24 large record: size is 0\n");
        /* A record that ends inside its own fields. */
        fxw_magic(&w);
        fxw_word(&w, 4 | 1 << 4); /* instant event, 1 word: no timestamp */
        expect_w(&w, NULL,
                 "end E_EXTENT @8 instant event record: timestamp word runs past the end of the "
                 "record\n");
        fxw_magic(&w);
        fxw_raw_record(&w, 3, 1); /* thread record with only the pid */
        expect_w(&w, NULL, "end E_EXTENT @8 thread record: thread koid word runs past the end of the record\n");
        fxw_magic(&w);
        fxw_event(&w, 1, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, NULL, 0, 9);
        set_size(&w, 8, 4); /* counter id cut off */
        fxw_word(&w, 0);
        fxw_magic(&w);
        expect_w(&w, NULL,
                 "end E_EXTENT @8 counter event record: counter id word runs past the end of the "
                 "record\n");
        fxw_magic(&w);
        fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, NULL, 0, 0);
        set_size(&w, 8, 3); /* inline koids cut off */
        expect_w(&w, NULL,
                 "end E_EXTENT @8 instant event record: inline event koids run past the end of the "
                 "record\n");
        fxw_free(&w);
    }
}
END_TEST

START_TEST(test_bad_inline_lengths)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_INL("c"), FXS_INL("a-long-name-of-21-byte"), 5, NULL, 0, 0);
    set_size(&w, 8, 5); /* header, ts, pid, tid, category: the name is outside */
    expect_w(&w, NULL,
             "end E_EXTENT @8 instant event record: inline name string (22 bytes) runs past the "
             "end of the record\n");
    fxw_magic(&w);
    fxw_string(&w, 1, "0123456789abcdef0");
    set_size(&w, 8, 3);
    expect_w(&w, NULL,
             "end E_EXTENT @8 string record: string (17 bytes) runs past the end of the record\n");
    fxw_magic(&w);
    fxw_blob(&w, FXS_INL("b"), 1, BLOB16, 16);
    set_size(&w, 8, 3);
    expect_w(&w, NULL, "end E_EXTENT @8 blob record: payload (16 bytes) runs past the end of the record\n");
    fxw_magic(&w);
    fxw_log(&w, 1, FXT_INL(1, 1), "message of 20 bytes.");
    set_size(&w, 8, 3);
    expect_w(&w, NULL,
             "end E_EXTENT @8 log record: inline log koids run past the end of the record\n");
    fxw_magic(&w);
    fxw_log(&w, 1, FXT_INL(1, 1), "message of 20 bytes.");
    set_size(&w, 8, 5);
    expect_w(&w, NULL, "end E_EXTENT @8 log record: message (20 bytes) runs past the end of the record\n");
    fxw_magic(&w);
    fxw_provider_info(&w, 3, "provider-name");
    set_size(&w, 8, 2);
    expect_w(&w, NULL,
             "end E_EXTENT @8 provider info metadata record: provider name (13 bytes) runs past "
             "the end of the record\n");
    fxw_free(&w);
}
END_TEST

START_TEST(test_bad_arguments)
{
    fxw_t w;
    fxw_init(&w, true);
    fxw_arg_t a[2] = {FXA_I32(FXS_INL("k"), 1), FXA_U64(FXS_INL("u"), 5)};
    /* Argument size 0. */
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, a, 2, 0);
    size_t arg2 = 8 + 32 + 16;
    fxw_patch(&w, arg2, fxw_peek(&w, arg2) & ~(uint64_t)0xfff0);
    expect_w(&w, NULL, "end E_BAD_RECORD @8 instant event record: argument 2: size is 0\n");
    /* Argument overflowing the record. */
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, a, 2, 0);
    fxw_patch(&w, arg2, (fxw_peek(&w, arg2) & ~(uint64_t)0xfff0) | 9 << 4);
    expect_w(&w, NULL,
             "end E_EXTENT @8 instant event record: argument 2: size (9 words) runs past the end of "
             "the record\n");
    /* More arguments declared than present. */
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, a, 2, 0);
    fxw_patch(&w, 8, fxw_peek(&w, 8) | (uint64_t)3 << 20);
    expect_w(&w, NULL,
             "end E_EXTENT @8 instant event record: argument 3: header word runs past the end of "
             "the record (3 arguments declared)\n");
    /* A value word outside its argument (uint64 argument of 2 words: name + header). */
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, a, 2, 0);
    fxw_patch(&w, arg2, (fxw_peek(&w, arg2) & ~(uint64_t)0xfff0) | 2 << 4);
    fxw_patch(&w, 8, (fxw_peek(&w, 8) & ~(uint64_t)0xfff0) | 8 << 4);
    expect_w(&w, NULL,
             "end E_EXTENT @8 instant event record: argument 2: uint64 value word runs past the end "
             "of the argument\n");
    /* Blob argument whose size would wrap padding arithmetic. */
    fxw_magic(&w);
    fxw_arg_t b = FXA_BLOB(FXS_INL("b"), BLOB16, 3);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, &b, 1, 0);
    fxw_patch(&w, 40, fxw_peek(&w, 40) | (uint64_t)0xffffffffu << 32);
    expect_w(&w, NULL,
             "end E_EXTENT @8 instant event record: argument 1: blob payload (4294967295 bytes) "
             "runs past the end of the argument\n");
    /* Inline string value longer than its argument. */
    fxw_magic(&w);
    fxw_arg_t sv = FXA_STR(FXS_IDX(0), FXS_INL("v"));
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_EMPTY, 5, &sv, 1, 0);
    fxw_patch(&w, 40, fxw_peek(&w, 40) | (uint64_t)0x8020 << 32);
    expect_w(&w, NULL,
             "end E_EXTENT @8 instant event record: argument 1: inline value string (33 bytes) "
             "runs past the end of the argument\n");
    fxw_free(&w);
}
END_TEST

START_TEST(test_bad_references)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_string(&w, 1, "a");
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(9), 5, NULL, 0, 0);
    expect_w(&w, NULL,
             "end E_REFERENCE @24 instant event record: name string index 9 is not registered in "
             "provider 0\n");
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_IDX(4), FXS_EMPTY, FXS_EMPTY, 5, NULL, 0, 0);
    expect_w(&w, NULL,
             "end E_REFERENCE @8 instant event record: event thread index 4 is not registered in "
             "provider 0\n");
    /* Tables are per provider: a section switch hides provider 1's strings. */
    fxw_magic(&w);
    fxw_provider_info(&w, 1, "one");
    fxw_string(&w, 1, "a");
    fxw_thread(&w, 1, 5, 6);
    fxw_provider_info(&w, 2, "two");
    fxw_provider_section(&w, 1);
    fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(1), 5, NULL, 0, 0);
    fxw_provider_section(&w, 2);
    fxw_arg_t a = FXA_NULL(FXS_IDX(1));
    fxw_event(&w, 0, FXT_INL(1, 1), FXS_EMPTY, FXS_EMPTY, 6, &a, 1, 0);
    expect_w(&w, NULL,
             "event@88 provider=1 instant ticks=5 ns=5 thread=1:5/6 cat=\"a\" name=\"a\" args=[] "
             "id=0 end=0/0\nmeta@104 type=2 provider=2\n"
             "end E_REFERENCE @112 instant event record: argument 1: name string index 1 is not "
             "registered in provider 2\n");
    /* A fresh provider info for a known id forgets its tables. */
    fxw_magic(&w);
    fxw_provider_info(&w, 1, "one");
    fxw_string(&w, 1, "a");
    fxw_provider_info(&w, 1, "one-again");
    fxw_userspace(&w, 1, FXT_INL(1, 1), FXS_IDX(1), NULL, 0);
    expect_w(&w, NULL,
             "end E_REFERENCE @64 userspace object record: name string index 1 is not registered "
             "in provider 1\n");
    fxw_free(&w);
}
END_TEST

START_TEST(test_bad_values_and_limits)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 0);
    expect_w(&w, NULL, "end E_BAD_RECORD @8 initialization record: ticks per second is 0\n");
    fxw_word(&w, 0x0016547846040010ull ^ ((uint64_t)1 << 30)); /* a magic record, wrong value */
    expect_w(&w, NULL, "end E_MAGIC @0 magic record: magic is 0x16547806, not 0x16547846\n");
    fxw_magic(&w);
    fxw_raw_record(&w, 4u << 16, 1); /* trace info magic with 2 words */
    fxw_patch(&w, 8, fxw_peek(&w, 8) | (uint64_t)0x16547846 << 24);
    expect_w(&w, NULL, "end E_BAD_RECORD @8 magic record: size is 2 words, must be 1\n");
    /* Large record larger than the configured maximum. */
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.max_large_record_bytes = 1024;
    fxw_magic(&w);
    uint8_t big[2000] = {0};
    fxw_large_blob(&w, 1, FXS_EMPTY, FXS_EMPTY, 0, FXT_IDX(0), NULL, 0, big, sizeof big);
    expect_w(&w, &cfg,
             "end E_LIMIT @8 large record: size (2024 bytes) exceeds max_large_record_bytes "
             "(1024)\n");
    /* Lenient: the over-limit large record is skipped by its size, unread. */
    cfg.lenient = true;
    fxw_magic(&w);
    fxw_large_blob(&w, 1, FXS_EMPTY, FXS_EMPTY, 0, FXT_IDX(0), NULL, 0, big, sizeof big);
    fxw_log(&w, 1, FXT_INL(1, 2), "after");
    expect_w(&w, &cfg,
             "warning E_LIMIT @8 skipped=2024 large record: size (2024 bytes) exceeds "
             "max_large_record_bytes (1024)\nlog@2032 provider=0 ticks=1 ns=1 thread=0:1/2 "
             "msg=\"after\"\nend OK\n");
    cfg.lenient = false;
    /* Large blob whose size word would wrap the padding arithmetic. */
    fxw_magic(&w);
    fxw_large_blob(&w, 1, FXS_EMPTY, FXS_EMPTY, 0, FXT_IDX(0), NULL, 0, big, 8);
    fxw_patch(&w, 24, UINT64_MAX);
    expect_w(&w, NULL,
             "end E_EXTENT @8 large blob record: payload (18446744073709551615 bytes) runs past "
             "the end of the record\n");
    /* Too many providers. */
    cfg.max_providers = 2;
    fxw_magic(&w);
    fxw_provider_info(&w, 1, "a");
    fxw_provider_info(&w, 2, "b");
    fxw_provider_section(&w, 3);
    expect_w(&w, &cfg,
             "end E_LIMIT @40 provider section metadata record: provider id 3 would be provider "
             "3: more than max_providers (2)\n");
    cfg.lenient = true; /* a resource limit is not skipped */
    fxw_magic(&w);
    fxw_provider_info(&w, 1, "a");
    fxw_provider_info(&w, 2, "b");
    fxw_provider_info(&w, 3, "c");
    expect_w(&w, &cfg,
             "end E_LIMIT @40 provider info metadata record: provider id 3 would be provider 3: "
             "more than max_providers (2)\n");
    /* String budget. */
    tracerd_fxt_config_init(&cfg);
    cfg.max_string_bytes = 100;
    fxw_magic(&w);
    fxw_string(&w, 1, "0123456789012345678901234567890123456789");
    fxw_string(&w, 2, "0123456789012345678901234567890123456789");
    fxw_string(&w, 3, "0123456789012345678901234567890123456789");
    expect_w(&w, &cfg,
             "end E_LIMIT @56 string record: string index 2 (40 bytes): string tables would "
             "exceed max_string_bytes (100; 49 bytes held)\n");
    /* The byte order forced against the magic. */
    cfg.byte_order = TRACERD_BYTE_ORDER_BIG;
    cfg.max_string_bytes = 1000;
    fxw_magic(&w);
    expect_w(&w, &cfg,
             "end E_MAGIC @0 magic record: written in little-endian order but the reader is "
             "configured for big-endian\n");
    fxw_free(&w);
}
END_TEST

START_TEST(test_truncation)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_string(&w, 1, "abc");
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(1), 5, NULL, 0, 0);
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    free(expect_tail(NULL, d, n - 5,
                     "end E_TRUNCATED @24 event record: input ended inside the record (27 "
                     "of 32 bytes)\n"));
    free(expect_tail(NULL, d, 27,
                     "end E_TRUNCATED @24 record: input ended inside the header word (3 of 8 "
                     "bytes)\n"));
    free(expect_tail(NULL, d, 3,
                     "end E_TRUNCATED @0 record: input ended inside the header word (3 of 8 "
                     "bytes)\n"));
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.lenient = true;
    free(expect_tail(&cfg, d, n - 5,
                     "string@8 provider=0 index=1 s=\"abc\"\nwarning E_TRUNCATED @24 skipped=27 "
                     "event record: input ended inside the record (27 of 32 bytes)\nend "
                     "OK\n"));
    free(d);
}
END_TEST

START_TEST(test_lenient_damaged_archive)
{
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        fxw_magic(&w);
        fxw_string(&w, 1, "ok");
        fxw_word(&w, 4);                                                        /* @24: size 0 */
        fxw_event(&w, 0, FXT_IDX(9), FXS_IDX(1), FXS_IDX(1), 1, NULL, 0, 0);    /* @32: thread 9 */
        fxw_init_record(&w, 0);                                                 /* @48 */
        fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(1), 2, NULL, 0, 0); /* @64 */
        fxw_raw_record(&w, 15, 3);                                              /* @96 large, 4 words */
        fxw_patch(&w, 96, fxw_peek(&w, 96) | (uint64_t)0xffffffu << 36);
        size_t pos = w.len;
        fxw_large_blob(&w, 1, FXS_EMPTY, FXS_EMPTY, 0, FXT_IDX(0), NULL, 0, BLOB16, 8);
        fxw_patch(&w, pos + 16, 1000);                        /* @128: payload past the record */
        fxw_event(&w, 3, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(1), 3, NULL, 0, 0); /* @160 */
        size_t n;
        uint8_t *d = fxw_take(&w, &n);
        tracerd_fxt_config_t cfg;
        tracerd_fxt_config_init(&cfg);
        cfg.lenient = true;
        char *log = check_all(&cfg, d, n);
        const char *order = big ? "big" : "little";
        char want[2048];
        snprintf(want, sizeof want,
                 "meta@0 type=4 provider=0 info=0 order=%s\n"
                 "string@8 provider=0 index=1 s=\"ok\"\n"
                 "warning E_BAD_RECORD @24 skipped=8 event record: size is 0\n"
                 "warning E_REFERENCE @32 skipped=16 instant event record: event thread index 9 "
                 "is not registered in provider 0\n"
                 "warning E_BAD_RECORD @48 skipped=16 initialization record: ticks per second is 0\n"
                 "event@64 provider=0 instant ticks=2 ns=2 thread=0:1/2 cat=\"ok\" name=\"ok\" "
                 "args=[] id=0 end=0/0\n"
                 "unknown@96 kind=7 type=15 header=%016llx size=32 raw=32:",
                 order, (unsigned long long)(15 | 4 << 4 | (uint64_t)0xffffffu << 36));
        HAS(log, want);
        HAS(log, "warning E_EXTENT @128 skipped=32 large blob record: payload (1000 bytes) runs "
                 "past the end of the record\n"
                 "event@160 provider=0 duration-end ticks=3 ns=3 thread=0:1/2 cat=\"ok\" "
                 "name=\"ok\" args=[] id=0 end=0/0\nend OK\n");
        free(log);
        free(d);
    }
}
END_TEST

/* ---- large payloads, unknown types, tables, API ---------------------- */

START_TEST(test_large_blob_streamed)
{
    size_t plen = FXT_SAN ? 40000 + 3 : 100000 + 3;
    uint8_t *payload = malloc(plen);
    for (size_t i = 0; i < plen; i++)
        payload[i] = (uint8_t)(i * 7 + (i >> 8));
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        fxw_magic(&w);
        fxw_string(&w, 1, "cat");
        fxw_thread(&w, 1, 10, 11);
        fxw_arg_t a[3] = {FXA_I32(FXS_IDX(1), 1), FXA_STR(FXS_INL("s"), FXS_INL("v")),
                          FXA_UNKNOWN(13, FXS_INL("u"), 2)};
        fxw_large_blob(&w, 0, FXS_IDX(1), FXS_INL("big-one"), 77, FXT_IDX(1), a, 3, payload, plen);
        fxw_large_blob(&w, 1, FXS_INL("c"), FXS_INL("n"), 0, FXT_IDX(0), NULL, 0, payload, 40000);
        /* An unknown large record type and an unknown blob format, both above the stitch bound. */
        fxw_raw_record(&w, 15 | (uint64_t)3 << 36, 5000);
        fxw_raw_record(&w, 15 | (uint64_t)9 << 40, 4500);
        fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(1), 5, NULL, 0, 0);
        size_t n;
        uint8_t *d = fxw_take(&w, &n);
        char *log = check_all(NULL, d, n);
        HAS(log, "large-blob@48 provider=0 format=0 ticks=77 ns=77 cat=\"cat\" name=\"big-one\" "
                 "thread=1:10/11 args=[int32@");
        HAS(log, "unknown@");
        HAS(log, " kind=5 type=13 ");
        char want0[64];
        snprintf(want0, sizeof want0, " size=%zu payload=fragments\n", plen);
        HAS(log, want0);
        char want[128];
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < plen; i++)
            h = (h ^ payload[i]) * 0x100000001b3ull;
        snprintf(want, sizeof want, "fragments@48 total=%zu hash=%zu:%016llx\n", plen, plen,
                 (unsigned long long)h);
        HAS(log, want);
        HAS(log, " format=1 ticks=0 ns=0 cat=\"c\" name=\"n\" thread=0:0/0 args=[] size=40000 "
                 "payload=fragments\n");
        HAS(log, " kind=7 type=3 header=");
        HAS(log, " size=40008\n");
        HAS(log, " kind=8 type=9 header=");
        HAS(log, " size=36008\n");
        HAS(log, "instant ticks=5 ns=5 thread=1:10/11 cat=\"cat\" name=\"cat\" args=[] id=0 "
                 "end=0/0\nend OK\n");
        HASNT(log, "BAD FRAGMENT");
        /* With a stitch bound above the record sizes, the same records arrive whole. */
        tracerd_fxt_config_t cfg;
        tracerd_fxt_config_init(&cfg);
        cfg.stitch_bytes = 256 * 1024;
        char *whole = fxt_log(&cfg, d, n);
        snprintf(want0, sizeof want0, " size=%zu payload=%zu:", plen, plen);
        HAS(whole, want0);
        HAS(whole, " size=40000 payload=40000:");
        HASNT(whole, "fragments");
        free(whole);
        free(log);
        free(d);
    }
    free(payload);
}
END_TEST

START_TEST(test_large_blob_head_limits)
{
    /* A streamed large blob whose metadata exceeds the stitch bound: 3
     * arguments of 16 KiB blobs. */
    static uint8_t blob[16000];
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_arg_t a[3] = {FXA_BLOB(FXS_INL("a"), blob, sizeof blob),
                      FXA_BLOB(FXS_INL("b"), blob, sizeof blob),
                      FXA_BLOB(FXS_INL("c"), blob, sizeof blob)};
    fxw_large_blob(&w, 0, FXS_EMPTY, FXS_EMPTY, 1, FXT_INL(1, 2), a, 3, blob, 100);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_EMPTY, FXS_INL("after"), 5, NULL, 0, 0);
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    free(expect_tail(NULL, d, n,
                     "end E_LIMIT @8 large blob record: metadata (48096 bytes) exceeds the stitch "
                     "bound (32768)\n"));
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.lenient = true;
    char *log = expect_tail(&cfg, d, n,
                            "warning E_LIMIT @8 skipped=48200 large blob record: metadata (48096 "
                            "bytes) exceeds the stitch bound (32768)\nevent@48208 provider=0 "
                            "instant ticks=5 ns=5 thread=0:1/2 cat=\"\" name=\"after\" args=[] id=0 "
                            "end=0/0\nend OK\n");
    free(log);
    free(d);
}
END_TEST

START_TEST(test_unknown_types)
{
    fxw_t w;
    fxw_init(&w, true);
    fxw_magic(&w);
    fxw_raw_record(&w, 11, 2);                    /* @8 record type 11 */
    fxw_raw_record(&w, 0 | 9u << 16, 1);          /* @32 metadata type 9 */
    fxw_raw_record(&w, 0 | 4u << 16 | 5u << 20, 0); /* @48 trace info type 5 */
    fxw_raw_record(&w, 4 | 12u << 16, 3); /* @56 event type 12: delivered with its raw type */
    fxw_raw_record(&w, 8 | (uint64_t)7 << 60, 1); /* @88 scheduling type 7 */
    fxw_arg_t a[2] = {FXA_UNKNOWN(11, FXS_INL("x"), 1), FXA_I32(FXS_INL("y"), -1)};
    fxw_kernel(&w, 5, 1, FXS_INL("k"), a, 2);     /* @104 */
    fxw_raw_record(&w, 0 | 3u << 16 | 7u << 20 | (uint64_t)1 << 52, 0); /* @168 provider event 1 */
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    char *log = check_all(NULL, d, n);
    ck_assert_str_eq(log,
                     "meta@0 type=4 provider=0 info=0 order=big\n"
                     "unknown@8 kind=1 type=11 header=000000000000003b size=24 raw=24:"
                     "1e92542a52f1cc14\n"
                     "unknown@32 kind=2 type=9 header=0000000000090020 size=16 raw=16:"
                     "6451024da3244fa2:00000000000900200000000000000000\n"
                     "unknown@48 kind=3 type=5 header=0000000000540010 size=8 raw=8:"
                     "e65aec3128fa63d9:0000000000540010\n"
                     "event@56 provider=0 unknown(12) ticks=0 ns=0 thread=0:0/0 cat=\"\" "
                     "name=\"\" args=[] id=0 end=0/0\n"
                     "unknown@88 kind=6 type=7 header=7000000000000028 size=16 raw=16:"
                     "85cc3477066cdecd:70000000000000280000000000000000\n"
                     "unknown@128 kind=5 type=11 header=000000008001003b size=24 raw=24:"
                     "82bc03b5ad35ab87\n"
                     "kernel@104 provider=0 koid=5 objtype=1 name=\"k\" args=[unknown@128 n=\"x\" "
                     "raw=16:cfb4e37d8d9cb29d:78000000000000000000000000000000, int32@152 "
                     "n=\"y\" i=-1]\n"
                     "meta@168 type=3 provider=7 event=1\n"
                     "end OK\n");
    free(log);
    free(d);
}
END_TEST

static int abort_cb(void *user, const tracerd_fxt_event_t *e)
{
    (void)e;
    int *n = user;
    return ++*n == 2 ? -5 : TRACERD_CB_CONTINUE;
}

static int reenter_cb(void *user, const tracerd_fxt_event_t *e)
{
    (void)e;
    tracerd_fxt_reader_t *r = *(tracerd_fxt_reader_t **)user;
    size_t used = 99;
    ck_assert_int_eq(tracerd_fxt_feed(r, "x", 1, &used), TRACERD_E_INVALID);
    ck_assert_uint_eq(used, 0);
    ck_assert_int_eq(tracerd_fxt_finish(r), TRACERD_E_INVALID);
    ck_assert_uint_eq(tracerd_fxt_record_offset(r), 8);
    ck_assert_uint_eq(tracerd_fxt_offset(r), 40);
    ck_assert_int_eq(tracerd_fxt_byte_order(r), TRACERD_BYTE_ORDER_LITTLE);
    return TRACERD_CB_PAUSE;
}

/* Issue 12: userspace object records with the one-word inline process (the
 * spec's text; Go, Python and Rust readers) and the two-word form (Fuchsia's
 * C++ lib/fxt), the record's size deciding; an event of an undefined type
 * (11..15) delivered with its raw type; a provider section for a provider no
 * record announced: a fresh context and a warning, strict mode reading on. */
START_TEST(test_issue12_records)
{
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        fxw_magic(&w);
        fxw_string(&w, 1, "obj");
        fxw_arg_t two[2] = {FXA_U32(FXS_INL("a"), 7), FXA_KOID(FXS_INL("k"), 99)};
        fxw_userspace_koid(&w, 0x10, 4242, FXS_IDX(1), NULL, 0);     /* @24 */
        fxw_userspace_koid(&w, 0x20, 4243, FXS_INL("inl"), two, 2);  /* @48 */
        fxw_userspace(&w, 0x30, FXT_INL(4244, 4245), FXS_IDX(1), NULL, 0); /* @120 */
        fxw_userspace(&w, 0x40, FXT_INL(4246, 4247), FXS_INL("x"), two, 2); /* @152 */
        fxw_event(&w, 13, FXT_INL(5, 6), FXS_INL("cat"), FXS_IDX(1), 77, two, 2, 0); /* @232 */
        fxw_provider_section(&w, 9); /* @312: never announced */
        fxw_event(&w, 0, FXT_INL(5, 6), FXS_EMPTY, FXS_INL("in9"), 78, NULL, 0, 0); /* @320 */
        fxw_event(&w, 0, FXT_INL(5, 6), FXS_EMPTY, FXS_IDX(1), 79, NULL, 0, 0); /* @360: not in 9 */
        size_t n;
        uint8_t *d = take(&w, &n);
        const char *want =
            "userspace@24 provider=0 pointer=0x10 process=0:4242/0 process_words=1 name=\"obj\" "
            "args=[]\n"
            "userspace@48 provider=0 pointer=0x20 process=0:4243/0 process_words=1 name=\"inl\" "
            "args=[uint32@80 n=\"a\" u=7, koid@96 n=\"k\" u=99]\n"
            "userspace@120 provider=0 pointer=0x30 process=0:4244/4245 name=\"obj\" args=[]\n"
            "userspace@152 provider=0 pointer=0x40 process=0:4246/4247 name=\"x\" "
            "args=[uint32@192 n=\"a\" u=7, koid@208 n=\"k\" u=99]\n"
            "event@232 provider=0 unknown(13) ticks=77 ns=77 thread=0:5/6 cat=\"cat\" name=\"obj\" "
            "args=[uint32@272 n=\"a\" u=7, koid@288 n=\"k\" u=99] id=0 end=0/0\n"
            "warning E_REFERENCE @312 skipped=0 provider section metadata record: provider 9 was "
            "never announced (no provider info record); its records are read in a fresh, empty "
            "context\n"
            "meta@312 type=2 provider=9\n"
            "event@320 provider=9 instant ticks=78 ns=78 thread=0:5/6 cat=\"\" name=\"in9\" "
            "args=[] id=0 end=0/0\n"
            "end E_REFERENCE @360 instant event record: name string index 1 is not registered in "
            "provider 9\n";
        char *log = check_all(NULL, d, n);
        ck_assert_msg(strstr(log, want) != NULL, "log:\n%s", log);
        free(log);
        free(d);
    }
}
END_TEST

START_TEST(test_api)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    for (int i = 0; i < 3; i++)
        fxw_event(&w, 0, FXT_IDX(0), FXS_EMPTY, FXS_EMPTY, (uint64_t)i, NULL, 0, 0);
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    ck_assert_uint_eq(n, 8 + 3 * 32);
    tracerd_fxt_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.on_event = abort_cb;
    int calls = 0;
    tracerd_fxt_reader_t *r;
    ck_assert_int_eq(tracerd_fxt_new(NULL, &cbs, &calls, NULL, &r), TRACERD_OK);
    size_t used;
    ck_assert_int_eq(tracerd_fxt_feed(r, d, n, &used), TRACERD_E_CALLBACK);
    ck_assert_uint_eq(used, 8 + 2 * 32);
    ck_assert_int_eq(tracerd_fxt_callback_error(r), -5);
    ck_assert_uint_eq(tracerd_fxt_record_offset(r), 40);
    ck_assert_str_eq(tracerd_fxt_error_reason(r), "on_event callback returned -5");
    /* Sticky until reset. */
    ck_assert_int_eq(tracerd_fxt_feed(r, d, n, &used), TRACERD_E_CALLBACK);
    ck_assert_int_eq(tracerd_fxt_finish(r), TRACERD_E_CALLBACK);
    tracerd_fxt_reset(r);
    calls = 10;
    ck_assert_int_eq(tracerd_fxt_feed(r, d, n, &used), TRACERD_OK);
    ck_assert_uint_eq(used, n);
    ck_assert_int_eq(tracerd_fxt_finish(r), TRACERD_OK);
    ck_assert_int_eq(tracerd_fxt_resume(r), TRACERD_E_INVALID);
    tracerd_fxt_free(r);
    /* Re-entry from a callback and pause. */
    cbs.on_event = reenter_cb;
    tracerd_fxt_reader_t *r2 = NULL;
    ck_assert_int_eq(tracerd_fxt_new(NULL, &cbs, &r2, NULL, &r2), TRACERD_OK);
    ck_assert_int_eq(tracerd_fxt_feed(r2, d, n, &used), TRACERD_PAUSED);
    ck_assert_uint_eq(used, 40);
    ck_assert_int_eq(tracerd_fxt_feed(r2, d + used, n - used, &used), TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_fxt_resume(r2), TRACERD_OK);
    tracerd_fxt_free(r2);
    /* Bad options. */
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.stitch_bytes = 1024;
    ck_assert_int_eq(tracerd_fxt_new(&cfg, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    ck_assert_ptr_null(r);
    tracerd_fxt_config_init(&cfg);
    cfg.max_providers = 0;
    ck_assert_int_eq(tracerd_fxt_new(&cfg, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    tracerd_fxt_free(NULL);
    ck_assert_uint_gt(tracerd_fxt_memory_bound(NULL), (size_t)64 << 20);
    ck_assert_str_eq(tracerd_fxt_event_type_name(4), "duration-complete");
    ck_assert_str_eq(tracerd_fxt_arg_type_name(10), "blob");
    ck_assert_str_eq(tracerd_fxt_record_type_name(6), "userspace-object");
    ck_assert_str_eq(tracerd_fxt_record_type_name(12), "unknown");
    free(d);
}
END_TEST

/* Many re-registrations with a small string budget: compaction and growth
 * keep every live string right (checked against a model). */
START_TEST(test_string_table_churn)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    char model[64][40];
    memset(model, 0, sizeof model);
    uint64_t seed = 12345;
    for (int i = 0; i < 3000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int idx = 1 + (int)((seed >> 33) % 63);
        int len = (int)((seed >> 20) % 38);
        for (int k = 0; k < len; k++)
            model[idx][k] = (char)('a' + (i + k) % 26);
        model[idx][len] = '\0';
        fxw_string(&w, (uint16_t)(idx * 300), model[idx]); /* sparse indices up to 18900 */
        fxw_arg_t a = FXA_STR(FXS_IDX(idx * 300), FXS_IDX(idx * 300));
        fxw_event(&w, 0, FXT_INL(1, 1), FXS_IDX(idx * 300), FXS_IDX(idx * 300), (uint64_t)i, &a,
                  1, 0);
    }
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.max_string_bytes = 8192;
    char *log = fxt_log(&cfg, d, n);
    HAS(log, "end OK\n");
    /* Every event's strings equal the string registered just before it. */
    const char *p = log;
    while ((p = find(p, "\nstring@")) != NULL) {
        const char *s = find(p, " s=\"");
        const char *e = find(s + 4, "\"");
        const char *ev = find(p + 1, "\nevent@");
        const char *nm = find(ev, " name=\"");
        ck_assert(strncmp(nm + 7, s + 4, (size_t)(e - s - 4)) == 0 && nm[7 + (e - s - 4)] == '"');
        p = ev;
    }
    free(log);
    free(d);
}
END_TEST

static int head_abort(void *u, const tracerd_fxt_event_t *e)
{
    (void)e;
    ++*(int *)u;
    return -5;
}

static int head_count(void *u, const tracerd_fxt_event_t *e)
{
    (void)e;
    ++*(int *)u;
    return TRACERD_CB_CONTINUE;
}

/* on_event_head: asked once per event record (fast path or not) with the
 * head decoded and the arguments not yet; a record it leaves out is not
 * decoded further (an error in its arguments is not reported) and not
 * delivered; string references as written, a redefined index seen with its
 * new string; a negative value aborts. Every split, pause and allocation
 * failure gives the same log. */
START_TEST(test_event_head)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 2000000000u);
    fxw_string(&w, 1, "cat");
    fxw_string(&w, 2, "keep");
    fxw_string(&w, 3, "skip-indexed");
    fxw_thread(&w, 1, 10, 11);
    fxw_arg_t ok[] = {FXA_U64(FXS_IDX(2), 7), FXA_STR(FXS_INL("s"), FXS_IDX(3))};
    fxw_arg_t bad[] = {FXA_U64(FXS_IDX(77), 1)}; /* index 77 is not registered */
    fxw_arg_t odd[] = {FXA_UNKNOWN(12, FXS_INL("u"), 1), FXA_I32(FXS_INL("i"), -3)};
    fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 100, ok, 2, 0);        /* kept */
    fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(3), 110, bad, 1, 0);       /* left out */
    fxw_event(&w, 4, FXT_IDX(1), FXS_IDX(1), FXS_INL("skip-inline"), 120, bad, 1, 130);
    fxw_event(&w, 4, FXT_IDX(1), FXS_EMPTY, FXS_INL("done"), 140, ok, 2, 150); /* kept */
    fxw_event(&w, 1, FXT_INL(20, 21), FXS_IDX(1), FXS_IDX(2), 160, odd, 2, 9); /* slow path */
    fxw_string(&w, 3, "kept-now"); /* index 3 redefined */
    fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(3), 170, NULL, 0, 0); /* kept */
    size_t n;
    uint8_t *d = take(&w, &n);
    char *log = drv_check_all(&fxt_head_target, NULL, d, n);
    HAS(log, "end OK");
    ck_assert_uint_eq(count(log, "\nhead@"), 6);
    ck_assert_uint_eq(count(log, " skip\n"), 2);
    ck_assert_uint_eq(count(log, "\nevent@"), 4);
    ck_assert_uint_eq(count(log, " args=NULL"), 6);
    HASNT(log, " args=SET");
    HAS(log, " name=\"keep\" cat_ref=1 name_ref=2 nargs=2 id=0 end=0 args=NULL\n");
    HAS(log, " name=\"skip-indexed\" cat_ref=1 name_ref=3 nargs=1 id=0 end=0 args=NULL skip\n");
    HAS(log, " name=\"skip-inline\" cat_ref=1 name_ref=32779 nargs=1 id=0 end=0 args=NULL skip\n");
    HAS(log, " cat=\"\" name=\"done\" cat_ref=0 name_ref=32772 nargs=2");
    HAS(log, " name=\"kept-now\" cat_ref=1 name_ref=3 nargs=0");
    HAS(log, " ticks=110 ns=55 ");
    HASNT(log, "skip-indexed\" args");
    free(log);
    /* without the head, the first left-out record's argument is an error */
    log = fxt_log(NULL, d, n);
    HAS(log, "end E_REFERENCE");
    free(log);
    /* an abort from the head */
    tracerd_fxt_callbacks_t cbs;
    tracerd_fxt_callbacks_init(&cbs);
    cbs.on_event_head = head_abort;
    int calls = 0;
    tracerd_fxt_reader_t *r;
    ck_assert_int_eq(tracerd_fxt_new(NULL, &cbs, &calls, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_fxt_feed(r, d, n, NULL), TRACERD_E_CALLBACK);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(tracerd_fxt_callback_error(r), -5);
    ck_assert_ptr_nonnull(strstr(tracerd_fxt_error_reason(r), "on_event_head"));
    tracerd_fxt_free(r);
    /* once per record where the fast path bails out after asking (an
     * unknown argument type) */
    cbs.on_event_head = head_count;
    calls = 0;
    ck_assert_int_eq(tracerd_fxt_new(NULL, &cbs, &calls, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_fxt_feed(r, d, n, NULL), TRACERD_E_REFERENCE);
    ck_assert_int_eq(calls, 2); /* the second record's argument fails */
    tracerd_fxt_free(r);
    free(d);
}
END_TEST

/* An allocator that records the peak of live bytes. */
typedef struct peak_alloc {
    tracerd_allocator_t a;
    size_t live, peak;
} peak_alloc_t;

static void *pk_alloc(void *ctx, size_t size)
{
    peak_alloc_t *p = ctx;
    p->live += size;
    if (p->live > p->peak)
        p->peak = p->live;
    return malloc(size);
}

static void pk_free(void *ctx, void *ptr, size_t size)
{
    peak_alloc_t *p = ctx;
    p->live -= size;
    free(ptr);
}

/* The memory bound holds: every provider, the largest string indices, the
 * string budget filled and churned. */
START_TEST(test_memory_bound)
{
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.max_providers = 4;
    cfg.max_string_bytes = 1024 * 1024;
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    static char s[2001];
    memset(s, 'x', 2000);
    for (uint32_t p = 0; p < 4; p++) {
        fxw_provider_info(&w, p, "p");
        for (int k = 0; k < 60; k++) {
            s[k % 2000] = (char)('a' + k % 26);
            fxw_string(&w, (uint16_t)(k % 2 ? 0x7fff - k : 1 + k), s + (k * 97) % 1000);
        }
    }
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    peak_alloc_t pk = {{pk_alloc, pk_free, NULL}, 0, 0};
    pk.a.ctx = &pk;
    tracerd_fxt_reader_t *r;
    ck_assert_int_eq(tracerd_fxt_new(&cfg, NULL, NULL, &pk.a, &r), TRACERD_OK);
    size_t used;
    tracerd_status_t st = tracerd_fxt_feed(r, d, n, &used);
    ck_assert_msg(st == TRACERD_OK, "%s: %s", tracerd_status_name(st), tracerd_fxt_error_reason(r));
    tracerd_fxt_free(r);
    ck_assert_uint_eq(pk.live, 0);
    ck_assert_uint_gt(pk.peak, 4u * 32768u * 8u);
    ck_assert_uint_le(pk.peak, tracerd_fxt_memory_bound(&cfg));
    free(d);
}
END_TEST

/* A larger archive: several providers, every record type, random splits. */
START_TEST(test_many_providers_random_splits)
{
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        fxw_magic(&w);
        for (int round = 0; round < (FXT_SAN ? 12 : 40); round++) {
            uint32_t prov = (uint32_t)(round % 5) + 1;
            if (round < 5) {
                fxw_provider_info(&w, prov, "p");
                fxw_init_record(&w, 1000000u * prov);
                fxw_string(&w, 1, "cat");
                fxw_string(&w, 2, "name");
                fxw_thread(&w, 1, prov, prov * 10);
            } else {
                fxw_provider_section(&w, prov);
            }
            write_all(&w);
        }
        size_t n;
        uint8_t *d = fxw_take(&w, &n);
        ck_assert_uint_gt(n, 16384);
        char *log = check_all(NULL, d, n);
        HAS(log, "end OK\n");
        ck_assert_uint_eq(count(log, "\nlarge-blob@"), FXT_SAN ? 24 : 80);
        free(log);
        free(d);
    }
}
END_TEST

/* ---- fuzz seed corpus ------------------------------------------------- */

/* Writes fuzz/corpus/fxt/<name>: option byte, archive, chunk-seed byte. */
static void corpus_file(const char *name, uint8_t flags, const uint8_t *d, size_t n, uint8_t seed)
{
    char path[256];
    snprintf(path, sizeof path, "fuzz/corpus/fxt/%s", name);
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputc(flags, f);
    fwrite(d, 1, n, f);
    fputc(seed, f);
    fclose(f);
}

/* The seed corpus generator: TRACERD_WRITE_FXT_CORPUS=1 rewrites it. */
START_TEST(test_write_corpus)
{
    const char *env = getenv("TRACERD_WRITE_FXT_CORPUS");
    if (env == NULL || strcmp(env, "1") != 0)
        return;
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big);
        write_all(&w);
        size_t n;
        uint8_t *d = fxw_take(&w, &n);
        corpus_file(big ? "all_records_be" : "all_records_le", 0, d, n, 7);
        corpus_file(big ? "all_records_be_lenient_small" : "all_records_le_lenient_small",
                    1 | 16 | 32, d, n, 200);
        free(d);
    }
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_string(&w, 1, "ok");
    fxw_word(&w, 4);
    fxw_event(&w, 0, FXT_IDX(9), FXS_IDX(1), FXS_IDX(1), 1, NULL, 0, 0);
    fxw_init_record(&w, 0);
    fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(1), 0x50, NULL, 0, 0);
    fxw_raw_record(&w, 11, 2);
    fxw_raw_record(&w, 4 | 12u << 16, 1);
    fxw_log(&w, 3, FXT_INL(1, 2), "log");
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    corpus_file("damaged_lenient", 1, d, n, 33);
    corpus_file("damaged_strict", 0, d, n, 3);
    free(d);
    static uint8_t payload[40000];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (uint8_t)i;
    fxw_init(&w, true);
    fxw_magic(&w);
    fxw_provider_info(&w, 1, "a");
    fxw_thread(&w, 1, 1, 2);
    fxw_provider_info(&w, 2, "b");
    fxw_arg_t a = FXA_BLOB(FXS_INL("b"), payload, 100);
    fxw_large_blob(&w, 0, FXS_INL("c"), FXS_INL("n"), 9, FXT_IDX(1), &a, 1, payload, sizeof payload);
    fxw_large_blob(&w, 1, FXS_INL("c"), FXS_INL("n"), 9, FXT_IDX(0), NULL, 0, payload, 100);
    d = fxw_take(&w, &n);
    corpus_file("large_fallback", 2, d, n, 40);
    corpus_file("large_limit", 64, d, n, 5);
    free(d);
}
END_TEST

/* ---- the demo archive and the CLI ------------------------------------- */

START_TEST(test_demo_golden)
{
    size_t n;
    uint8_t *d = drv_read_file("tests/data/fxt/demo.fxt", &n);
    ck_assert_msg(d != NULL, "tests/data/fxt/demo.fxt missing (tests/data/fxt/make_demo.py)");
    char *log = check_all(NULL, d, n);
    drv_golden("fxt/demo.gold", log);
    free(log);
    free(d);
}
END_TEST

static char *run_cli(const char *args, int *rc)
{
    const char *cli = getenv("TRACERD_CLI");
    if (cli == NULL)
        cli = "build/tracerd";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", cli, args);
    FILE *p = popen(cmd, "r");
    ck_assert(p != NULL);
    tlog_t l = {0};
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0)
        tlog_printf(&l, "%.*s", (int)got, buf);
    int st = pclose(p);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return tlog_take(&l);
}

START_TEST(test_cli)
{
    const char *cli = getenv("TRACERD_CLI");
    FILE *probe = fopen(cli != NULL ? cli : "build/tracerd", "rb");
    if (probe == NULL) {
        fprintf(stderr, "note: tracerd CLI not built; skipping the FXT CLI test\n");
        return;
    }
    fclose(probe);
    int rc;
    char *out = run_cli("info tests/data/fxt/demo.fxt", &rc);
    ck_assert_int_eq(rc, 0);
    HAS(out, "format: fxt (Fuchsia trace format)\nbyte order: little\nproviders: 1\n"
             "  provider 42 \"demo-provider\": clock 1000000000 ticks/s\nrecords: 30\n");
    HAS(out, "  event duration-begin    6\n");
    HAS(out, "time span: 1000000 .. 60000000 ns");
    free(out);
    out = run_cli("dump tests/data/fxt/demo.fxt", &rc);
    ck_assert_int_eq(rc, 0);
    HAS(out, "{\"record\":\"metadata\",\"offset\":8,\"provider\":42,\"type\":\"provider-info\","
             "\"name\":\"demo-provider\"}\n");
    HAS(out, "\"type\":\"counter\",\"ticks\":34342834,\"ns\":34342834,\"thread_ref\":1,\"pid\":1000,"
             "\"tid\":1001,\"category\":\"gfx\",\"name\":\"fps\",\"args\":[{\"name\":\"fps\","
             "\"type\":\"double\",\"value\":58},{\"name\":\"bytes\",\"type\":\"uint64\","
             "\"value\":8192}],\"counter_id\":1}\n");
    HAS(out, "{\"record\":\"blob\",\"offset\":704,\"provider\":42,\"blob_type\":1,\"name\":\"blob\","
             "\"size\":12,\"payload\":\"000102030405060708090a0b\"}\n");
    free(out);
    const char *dir = drv_peer_dir();
    if (dir != NULL) {
        char args[1024];
        snprintf(args, sizeof args, "dump %s/fxt/ocaml-trace_t2_second.fxt", dir);
        out = run_cli(args, &rc);
        ck_assert_int_eq(rc, 1);
        HAS(out, "fxt error E_REFERENCE at byte 72: duration complete event record: event thread "
                 "index 5 is not registered in provider 1\n");
        free(out);
    }
}
END_TEST

static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    return tc;
}

/* Lenient mode: a run of skips of one kind (records of size 0 side by side)
 * is one warning with a count, delivered before the next record, at the
 * end, and before a warning of another kind; the same in every split, pause
 * and allocation failure (check_all), both byte orders. */
START_TEST(test_lenient_warning_runs)
{
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big != 0);
        fxw_magic(&w);
        fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("first"), 100, NULL, 0, 0);
        size_t run1 = w.len;
        for (int i = 0; i < 10; i++)
            fxw_word(&w, 0);
        size_t ev2 = w.len;
        fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("second"), 200, NULL, 0, 0);
        size_t run2 = w.len;
        fxw_word(&w, 0);
        fxw_word(&w, 0);
        size_t ev3 = w.len;
        fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("third"), 300, NULL, 0, 0);
        size_t run3 = w.len;
        for (int i = 0; i < 3; i++)
            fxw_word(&w, 0);
        size_t cut = w.len;
        fxw_word(&w, 0x1234); /* a record header cut after 4 bytes */
        w.len -= 4;
        tracerd_fxt_config_t cfg;
        tracerd_fxt_config_init(&cfg);
        cfg.lenient = true;
        char *log = check_all(&cfg, w.buf, w.len);
        char want[300];
        snprintf(want, sizeof want,
                 "warning E_BAD_RECORD @%zu skipped=80 count=10 metadata record: size is 0\n"
                 "event@%zu ",
                 run1, ev2);
        HAS(log, want);
        snprintf(want, sizeof want,
                 "warning E_BAD_RECORD @%zu skipped=16 count=2 metadata record: size is 0\n"
                 "event@%zu ",
                 run2, ev3);
        HAS(log, want);
        snprintf(want, sizeof want,
                 "warning E_BAD_RECORD @%zu skipped=24 count=3 metadata record: size is 0\n"
                 "warning E_TRUNCATED @%zu skipped=4 record: input ended inside the header word "
                 "(4 of 8 bytes)\nend OK\n",
                 run3, cut);
        HAS(log, want);
        ck_assert_uint_eq(count(log, "warning "), 4);
        free(log);
        /* without the trailing cut: the run reaching the end comes at _finish */
        log = check_all(&cfg, w.buf, cut);
        snprintf(want, sizeof want,
                 "warning E_BAD_RECORD @%zu skipped=24 count=3 metadata record: size is 0\n"
                 "end OK\n",
                 run3);
        HAS(log, want);
        free(log);
        fxw_free(&w);
    }
}
END_TEST

Suite *suite_fxt(void)
{
    Suite *s = suite_create("fxt");
    TCase *tc = tcase(s, "fxt_records");
    tcase_add_test(tc, test_all_records_both_orders);
    tcase_add_test(tc, test_unknown_types);
    tcase_add_test(tc, test_issue12_records);
    tcase_add_test(tc, test_byte_order_switch);
    tcase_add_test(tc, test_api);
    tcase_add_test(tc, test_demo_golden);
    tcase_add_test(tc, test_cli);
    tcase_add_test(tc, test_write_corpus);
    tc = tcase(s, "fxt_bad");
    tcase_add_test(tc, test_bad_sizes);
    tcase_add_test(tc, test_bad_inline_lengths);
    tcase_add_test(tc, test_bad_arguments);
    tcase_add_test(tc, test_bad_references);
    tcase_add_test(tc, test_bad_values_and_limits);
    tcase_add_test(tc, test_truncation);
    tcase_add_test(tc, test_lenient_damaged_archive);
    tcase_add_test(tc, test_lenient_warning_runs);
    tc = tcase(s, "fxt_large");
    tcase_add_test(tc, test_large_blob_streamed);
    tcase_add_test(tc, test_large_blob_head_limits);
    tcase_add_test(tc, test_string_table_churn);
    tcase_add_test(tc, test_memory_bound);
    tcase_add_test(tc, test_event_head);
    tcase_add_test(tc, test_many_providers_random_splits);
    tc = tcase(s, "fxt_peer");
    tcase_add_test(tc, test_peer_richiesams);
    tcase_add_test(tc, test_peer_ocaml_first);
    tcase_add_test(tc, test_peer_ocaml_second);
    return s;
}
