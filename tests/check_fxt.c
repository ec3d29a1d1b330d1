/* FXT reader: every record and argument type in both byte orders through the
 * shared split/pause/alloc drivers, bad input (status, offset, reason),
 * lenient skips, tables, time, large payloads, and the peer archives. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/fxt.h>

#include "support/driver.h"
#include "support/fxt_recorder.h"
#include "support/fxt_writer.h"

/* ---- helpers ---------------------------------------------------------- */

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

static size_t count(const char *log, const char *s)
{
    size_t n = 0, k = strlen(s);
    for (const char *p = log; (p = strstr(p, s)) != NULL; p += k)
        n++;
    return n;
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
    char *log = check_all(NULL, d, n);
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
    /* Lenient: the three events are skipped with warnings, nothing else lost. */
    tracerd_fxt_config_init(&cfg);
    cfg.lenient = true;
    log = check_all(&cfg, d, n);
    ck_assert_uint_eq(count(log, "warning E_REFERENCE"), 3);
    HAS(log, "warning E_REFERENCE @136 skipped=40 instant event record: event thread index 5 is "
             "not registered in provider 1\nend OK\n");
    free(log);
    free(d);
}
END_TEST

Suite *suite_fxt(void)
{
    Suite *s = suite_create("fxt");
    TCase *tc = tcase_create("fxt");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_all_records_both_orders);
    tcase_add_test(tc, test_peer_richiesams);
    tcase_add_test(tc, test_peer_ocaml_first);
    tcase_add_test(tc, test_peer_ocaml_second);
    suite_add_tcase(s, tc);
    return s;
}

