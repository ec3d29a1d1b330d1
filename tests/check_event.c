/* The event view: XRay mapped onto events (every chunking, pause and
 * allocation failure through the shared drivers, both byte orders),
 * detection by content, auto-reader errors, XRay names from ELF files
 * (hand-built 32/64-bit, both byte orders, and a real clang binary). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracerd/event.h>

#include "support/ctf_peer.h"
#include "support/driver.h"
#include "support/event_support.h"
#include "support/xray_writer.h"


static const char v5_log[] =
    "source xray v5 ORDER freq=2000000000 score=SCORE\n"
    "xray @112 span-begin t=1000 ns=500 pid=7 tid=42 cpu=3 nid=1 cat=xray name=fn#1\n"
    "xray @120 span-begin t=1010 ns=505 pid=7 tid=42 cpu=3 nid=2 cat=xray name=fn#2 arg0=4660 "
    "arg1=5\n"
    "xray @160 span-end t=1015 ns=507 pid=7 tid=42 cpu=3 nid=2 cat=xray name=fn#2\n"
    "xray @184 span-end t=5001 ns=2500 pid=7 tid=42 cpu=3 nid=1 cat=xray name=fn#1\n"
    "xray @192 instant t=5004 ns=2502 pid=7 tid=42 cpu=3 cat=xray name=custom-event size=5 "
    "payload=0x68656c6c6f\n"
    "xray @213 instant t=5002 ns=2501 pid=7 tid=42 cpu=3 cat=xray name=typed-event type=9 "
    "size=3 payload=0x616263\n"
    "xray @248 span-end t=9001 ns=4500 pid=7 tid=42 cpu=1 nid=3 tail cat=xray name=fn#3\n"
    "end OK\n";

static char *normalise(char *log)
{
    /* The source line carries the byte order and score: checked separately. */
    char *s = strstr(log, "source xray v5 ");
    ck_assert_ptr_nonnull(s);
    char *nl = strchr(s, '\n');
    size_t tail = strlen(nl);
    const char repl[] = "source xray v5 ORDER freq=2000000000 score=SCORE";
    char *out = malloc((size_t)(s - log) + sizeof repl + tail);
    memcpy(out, log, (size_t)(s - log));
    memcpy(out + (s - log), repl, sizeof repl - 1);
    memcpy(out + (s - log) + sizeof repl - 1, nl, tail + 1);
    free(log);
    return out;
}

START_TEST(test_xray_v5_events)
{
    for (int big = 0; big < 2; big++) {
        xw_t w;
        xw_init(&w, big != 0);
        xw_sample_v5(&w);
        char *log = drv_check_all(&ev_target, NULL, w.buf, w.len);
        ck_assert_ptr_nonnull(strstr(log, big ? " big " : " little "));
        ck_assert_ptr_nonnull(strstr(log, "score=90")); /* the same checks in both byte orders */
        log = normalise(log);
        ck_assert_str_eq(log, v5_log);
        free(log);
        xw_free(&w);
    }
}
END_TEST

/* Basic mode v3: two threads, an argument record, every kind. */
START_TEST(test_xray_basic)
{
    for (int big = 0; big < 2; big++) {
        xw_t w;
        xw_init(&w, big != 0);
        xw_header(&w, 3, 0, 0, 1000000000u, 0);
        xw_basic_func(&w, 1, 0, 5, 100, 11, 99);
        xw_basic_func(&w, 2, 3, 6, 150, 12, 99);
        xw_basic_arg(&w, 6, 12, 99, 77);
        xw_basic_func(&w, 2, 1, 6, 170, 12, 99);
        xw_basic_func(&w, 1, 2, 5, 200, 11, 99);
        char *log = drv_check_all(&ev_target, NULL, w.buf, w.len);
        const char *body = strchr(log, '\n') + 1;
        ck_assert_str_eq(body,
            "xray @32 span-begin t=100 ns=100 pid=99 tid=11 cpu=1 nid=5 cat=xray name=fn#5\n"
            "xray @64 span-begin t=150 ns=150 pid=99 tid=12 cpu=2 nid=6 cat=xray name=fn#6 "
            "arg0=77\n"
            "xray @128 span-end t=170 ns=170 pid=99 tid=12 cpu=2 nid=6 cat=xray name=fn#6\n"
            "xray @160 span-end t=200 ns=200 pid=99 tid=11 cpu=1 nid=5 tail cat=xray "
            "name=fn#5\n"
            "end OK\n");
        free(log);
        xw_free(&w);
    }
}
END_TEST

START_TEST(test_detect)
{
    int score;
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    ck_assert_int_eq(tracerd_event_detect(w.buf, 64, &score), TRACERD_EVENT_FORMAT_XRAY);
    ck_assert_int_eq(score, 90);
    ck_assert_int_eq(tracerd_event_detect(w.buf, 32, &score), TRACERD_EVENT_FORMAT_XRAY);
    ck_assert_int_eq(score, 70);
    ck_assert_int_eq(tracerd_event_detect(w.buf, 3, &score), TRACERD_EVENT_FORMAT_UNKNOWN);
    ck_assert_int_eq(score, 0);
    xw_free(&w);
    static const uint8_t fxt_le[16] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    static const uint8_t fxt_be[16] = {0x00, 0x16, 0x54, 0x78, 0x46, 0x04, 0x00, 0x10};
    static const uint8_t ctf_le[8] = {0xc1, 0x1f, 0xfc, 0xc1};
    static const uint8_t ctf_be[8] = {0xc1, 0xfc, 0x1f, 0xc1};
    static const uint8_t meta_le[8] = {0x57, 0x1d, 0xd1, 0x75};
    static const uint8_t meta_be[8] = {0x75, 0xd1, 0x1d, 0x57};
    static const char meta_txt[] = "/* CTF 1.8 */\ntrace { major = 1; };";
    ck_assert_int_eq(tracerd_event_detect(fxt_le, 16, NULL), TRACERD_EVENT_FORMAT_FXT);
    ck_assert_int_eq(tracerd_event_detect(fxt_be, 16, NULL), TRACERD_EVENT_FORMAT_FXT);
    ck_assert_int_eq(tracerd_event_detect(ctf_le, 8, NULL), TRACERD_EVENT_FORMAT_CTF);
    ck_assert_int_eq(tracerd_event_detect(ctf_be, 8, NULL), TRACERD_EVENT_FORMAT_CTF);
    ck_assert_int_eq(tracerd_event_detect(meta_le, 8, NULL), TRACERD_EVENT_FORMAT_CTF);
    ck_assert_int_eq(tracerd_event_detect(meta_be, 8, NULL), TRACERD_EVENT_FORMAT_CTF);
    ck_assert_int_eq(tracerd_event_detect(meta_txt, sizeof meta_txt - 1, NULL),
                     TRACERD_EVENT_FORMAT_CTF);
    static const char text[] = "hello, this is not a trace at all; just some text bytes";
    ck_assert_int_eq(tracerd_event_detect(text, sizeof text - 1, &score),
                     TRACERD_EVENT_FORMAT_UNKNOWN);
    ck_assert_int_eq(score, 0);
    ck_assert_str_eq(tracerd_event_format_name(TRACERD_EVENT_FORMAT_CTF), "ctf");
    ck_assert_int_eq(tracerd_event_format_from_name("xtrace"), TRACERD_EVENT_FORMAT_XTRACE);
    ck_assert_int_eq(tracerd_event_format_from_name("nope"), TRACERD_EVENT_FORMAT_UNKNOWN);
    ck_assert_str_eq(tracerd_event_kind_name(TRACERD_EVENT_FLOW_END), "flow-end");
    ck_assert_str_eq(tracerd_event_kind_name((tracerd_event_kind_t)99), "unknown");
    ck_assert(tracerd_event_format_supported(TRACERD_EVENT_FORMAT_XRAY));
}
END_TEST

START_TEST(test_errors)
{
    static const char text[] = "hello, this is not a trace at all; just some text bytes, and more "
                               "of them to pass the detection window";
    char *log = drv_check_all(&ev_target, NULL, (const uint8_t *)text, sizeof text - 1);
    ck_assert_str_eq(log, "end E_MAGIC @0 trace: the first bytes match no format (XRay header, "
                          "FXT magic record, CTF packet or metadata magic)\n");
    free(log);
    log = drv_check_all(&ev_target, NULL, (const uint8_t *)"", 0);
    ck_assert_str_eq(log, "end E_TRUNCATED @0 trace: the input is empty\n");
    free(log);
    /* A format's reader error comes through with its offset and reason. */
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    log = drv_check_all(&ev_target, NULL, w.buf, w.len - 3);
    ck_assert_ptr_nonnull(strstr(log, "end E_TRUNCATED @"));
    free(log);
    xw_free(&w);
    /* A detected format this build has no mapping for. */
    if (!tracerd_event_format_supported(TRACERD_EVENT_FORMAT_FXT)) {
        static const uint8_t fxt[16] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
        log = drv_check_all(&ev_target, NULL, fxt, sizeof fxt);
        ck_assert_str_eq(log, "end E_UNSUPPORTED @0 trace: detected fxt, but this build has no "
                              "event mapping for it\n");
        free(log);
    }
    /* The call contract. */
    tracerd_auto_reader_t *r;
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.max_args = 0;
    ck_assert_int_eq(tracerd_auto_new(&cfg, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_auto_new(NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_auto_resume(r), TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_auto_format(r), TRACERD_EVENT_FORMAT_UNKNOWN);
    size_t used;
    ck_assert_int_eq(tracerd_auto_feed(r, "x", 1, &used), TRACERD_OK);
    ck_assert_uint_eq(used, 1);
    ck_assert_uint_eq(tracerd_auto_offset(r), 1);
    ck_assert_int_eq(tracerd_auto_metadata(r, "x", 1), TRACERD_E_INVALID); /* after a feed */
    tracerd_auto_reset(r);
    ck_assert_uint_eq(tracerd_auto_offset(r), 0);
    ck_assert_uint_gt(tracerd_auto_memory_bound(NULL), tracerd_xray_memory_bound(NULL));
    tracerd_auto_free(r);
    tracerd_auto_free(NULL);
}
END_TEST

/* A forced format skips detection: the XRay reader's own error shows. */
START_TEST(test_forced_format)
{
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.format = TRACERD_EVENT_FORMAT_XRAY;
    static const uint8_t junk[40] = {9, 0, 9, 0};
    char *log = drv_check_all(&ev_target, &cfg, junk, sizeof junk);
    ck_assert_ptr_nonnull(strstr(log, "end E_VERSION @0 file header"));
    free(log);
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    log = drv_check_all(&ev_target, &cfg, w.buf, w.len);
    ck_assert_ptr_nonnull(strstr(log, "score=100"));
    free(log);
    xw_free(&w);
    cfg.format = (tracerd_event_format_t)42;
    tracerd_auto_reader_t *r;
    ck_assert_int_eq(tracerd_auto_new(&cfg, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
}
END_TEST

/* A callback that aborts stops the read with E_CALLBACK and its value. */
static int abort_cb(void *user, const tracerd_event_t *ev)
{
    (void)user;
    return ev->kind == TRACERD_EVENT_SPAN_END ? -5 : 0;
}

START_TEST(test_callback_abort)
{
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    tracerd_event_callbacks_t cbs = {.on_event = abort_cb};
    tracerd_auto_reader_t *r;
    ck_assert_int_eq(tracerd_auto_new(NULL, &cbs, NULL, NULL, &r), TRACERD_OK);
    size_t used;
    ck_assert_int_eq(tracerd_auto_feed(r, w.buf, w.len, &used), TRACERD_E_CALLBACK);
    ck_assert_int_eq(tracerd_auto_callback_error(r), -5);
    ck_assert_uint_eq(tracerd_auto_record_offset(r), 160);
    ck_assert_int_eq(tracerd_auto_feed(r, w.buf, w.len, &used), TRACERD_E_CALLBACK); /* sticky */
    tracerd_auto_free(r);
    xw_free(&w);
}
END_TEST

/* ---- FXT (when the FXT reader is part of the build) ------------------------- */

#include "support/fxt_writer.h"

static void build_fxt(fxw_t *w)
{
    fxw_magic(w);
    fxw_init_record(w, 2000000000u); /* 2 GHz: 2 ticks per ns */
    fxw_string(w, 1, "cat");
    fxw_thread(w, 1, 10, 11);
    fxw_kernel(w, 10, 1, FXS_INL("proc"), NULL, 0);
    fxw_arg_t targ[] = {FXA_KOID(FXS_INL("process"), 10)};
    fxw_kernel(w, 11, 2, FXS_INL("worker"), targ, 1);
    fxw_arg_t a[] = {FXA_I32(FXS_INL("i"), -5), FXA_U64(FXS_INL("u"), 7),
                     FXA_DBL(FXS_INL("d"), 1.5), FXA_STR(FXS_INL("s"), FXS_INL("hi")),
                     FXA_PTR(FXS_INL("p"), 0x1000), FXA_BOOL(FXS_INL("b"), 1),
                     FXA_NULL(FXS_INL("n"))};
    fxw_event(w, 2, FXT_IDX(1), FXS_IDX(1), FXS_INL("outer"), 100, a, 7, 0);
    fxw_event(w, 0, FXT_IDX(1), FXS_IDX(1), FXS_INL("mark"), 110, NULL, 0, 0);
    fxw_arg_t c[] = {FXA_U64(FXS_INL("v"), 42)};
    fxw_event(w, 1, FXT_IDX(1), FXS_IDX(1), FXS_INL("ctr"), 120, c, 1, 9);
    fxw_event(w, 5, FXT_IDX(1), FXS_IDX(1), FXS_INL("req"), 130, NULL, 0, 77);
    fxw_event(w, 6, FXT_IDX(1), FXS_IDX(1), FXS_INL("req"), 135, NULL, 0, 77);
    fxw_event(w, 7, FXT_IDX(1), FXS_IDX(1), FXS_INL("req"), 140, NULL, 0, 77);
    fxw_event(w, 8, FXT_IDX(1), FXS_IDX(1), FXS_INL("fl"), 150, NULL, 0, 5);
    fxw_event(w, 9, FXT_IDX(1), FXS_IDX(1), FXS_INL("fl"), 152, NULL, 0, 5);
    fxw_event(w, 10, FXT_IDX(1), FXS_IDX(1), FXS_INL("fl"), 154, NULL, 0, 5);
    fxw_event(w, 3, FXT_IDX(1), FXS_IDX(1), FXS_INL("outer"), 200, NULL, 0, 0);
    fxw_event(w, 4, FXT_IDX(1), FXS_IDX(1), FXS_INL("whole"), 300, NULL, 0, 400);
    fxw_context_switch(w, 2, 3, 500, 11, 12, NULL, 0);
    fxw_wakeup(w, 1, 510, 12, NULL, 0);
    fxw_legacy_switch(w, 0, 1, FXT_IDX(1), FXT_INL(20, 21), 4, 5, 520);
    fxw_log(w, 600, FXT_IDX(1), "hello log");
    fxw_blob(w, FXS_INL("bl"), 1, "xyz", 3);
    fxw_large_blob(w, 0, FXS_IDX(1), FXS_INL("lb"), 700, FXT_IDX(1), NULL, 0, "AB", 2);
    fxw_userspace(w, 0xabc, FXT_IDX(1), FXS_INL("obj"), NULL, 0);
}

/* The event view passes a lenient reader's warning runs on with their count
 * (FXT: ten records of size 0 side by side), in every split. */
START_TEST(test_fxt_warning_run)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("first"), 100, NULL, 0, 0);
    size_t run = w.len;
    for (int i = 0; i < 10; i++)
        fxw_word(&w, 0);
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("second"), 200, NULL, 0, 0);
    tracerd_fxt_config_t fc;
    tracerd_fxt_config_init(&fc);
    fc.lenient = true;
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.fxt = &fc;
    char *log = drv_check_all(&ev_target, &cfg, w.buf, w.len);
    char want[160];
    snprintf(want, sizeof want,
             "warning E_BAD_RECORD @%zu skipped=80 count=10 metadata record: size is 0\n", run);
    ck_assert_msg(strstr(log, want) != NULL, "missing %s in\n%s", want, log);
    ck_assert_ptr_nonnull(strstr(log, "name=second"));
    free(log);
    fxw_free(&w);
}
END_TEST

START_TEST(test_fxt_events)
{
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big != 0);
        build_fxt(&w);
        size_t len;
        uint8_t *buf = fxw_take(&w, &len);
        char *log = drv_check_all(&ev_target, NULL, buf, len);
        const char *body = strchr(log, '\n') + 1;
        ck_assert_ptr_nonnull(strstr(log, big ? "source fxt v0 big freq=2000000000 score=100\n"
                                              : "source fxt v0 little freq=2000000000 score=100\n"));
        ck_assert_ptr_nonnull(strstr(body, "process-name t=0 pid=10 cat= name=proc\n"));
        ck_assert_ptr_nonnull(strstr(body, "thread-name t=0 pid=10 tid=11 cat= name=worker "
                                           "process=10\n"));
        ck_assert_ptr_nonnull(strstr(body, "span-begin t=100 ns=50 pid=10 tid=11 cat=cat "
                                           "name=outer i=-5 u=7 d=1.5 s=\"hi\" p=0x1000 b=true "
                                           "n=null\n"));
        ck_assert_ptr_nonnull(strstr(body, "instant t=110 ns=55 pid=10 tid=11 cat=cat name=mark\n"));
        ck_assert_ptr_nonnull(strstr(body, "counter t=120 ns=60 pid=10 tid=11 id=9 cat=cat "
                                           "name=ctr v=42\n"));
        ck_assert_ptr_nonnull(strstr(body, "async-begin t=130 ns=65 pid=10 tid=11 id=77"));
        ck_assert_ptr_nonnull(strstr(body, "async-step t=135 ns=67 pid=10 tid=11 id=77"));
        ck_assert_ptr_nonnull(strstr(body, "async-end t=140 ns=70 pid=10 tid=11 id=77"));
        ck_assert_ptr_nonnull(strstr(body, "flow-begin t=150 ns=75 pid=10 tid=11 id=5"));
        ck_assert_ptr_nonnull(strstr(body, "flow-step t=152 ns=76 pid=10 tid=11 id=5"));
        ck_assert_ptr_nonnull(strstr(body, "flow-end t=154 ns=77 pid=10 tid=11 id=5"));
        ck_assert_ptr_nonnull(strstr(body, "span-end t=200 ns=100 pid=10 tid=11 cat=cat "
                                           "name=outer\n"));
        ck_assert_ptr_nonnull(strstr(body, "complete t=300 ns=150 end=400 pid=10 tid=11 cat=cat "
                                           "name=whole\n"));
        ck_assert_ptr_nonnull(strstr(body, "context-switch t=500 ns=250 tid=11 cpu=2 cat=sched "
                                           "name=context_switch\n"));
        ck_assert_ptr_nonnull(strstr(body, "wakeup t=510 ns=255 tid=12 cpu=1 cat=sched "
                                           "name=wakeup\n"));
        ck_assert_ptr_nonnull(strstr(body, "context-switch t=520 ns=260 pid=10 tid=11 cpu=0 "
                                           "cat=sched name=context_switch outgoing_priority=4 "
                                           "incoming_priority=5\n"));
        ck_assert_ptr_nonnull(strstr(body, "log t=600 ns=300 pid=10 tid=11 cat= name=log "
                                           "msg=hello log\n"));
        ck_assert_ptr_nonnull(strstr(body, "blob t=0 id=1 cat= name=bl data=0x78797a\n"));
        ck_assert_ptr_nonnull(strstr(body, "blob t=700 ns=350 pid=10 tid=11 cat=cat name=lb "
                                           "data=0x4142\n"));
        ck_assert_ptr_nonnull(strstr(body, "mark t=0 pid=10 tid=11 cat= name=obj p"));
        ck_assert_ptr_nonnull(strstr(body, "end OK\n"));
        free(log);
        free(buf);
    }
}
END_TEST

/* An FXT error comes through the auto reader with the FXT reader's offset and reason. */
START_TEST(test_fxt_error)
{
    fxw_t w;
    fxw_init(&w, false);
    build_fxt(&w);
    size_t len;
    uint8_t *buf = fxw_take(&w, &len);
    char *log = drv_check_all(&ev_target, NULL, buf, len - 3);
    ck_assert_ptr_nonnull(strstr(log, "end E_TRUNCATED @"));
    free(log);
    free(buf);
}
END_TEST

/* ---- CTF (when the CTF reader is part of the build) ---------------------------- */

#include "support/ctf_writer.h"

static const char *ctf_meta;    /* metadata given to the auto reader by ctf_open */
static size_t ctf_meta_len;

static tracerd_status_t ctf_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                                 void **reader)
{
    tracerd_status_t st = ev_target.open(config, rec, alloc, reader);
    if (st == TRACERD_OK && ctf_meta != NULL)
        st = tracerd_auto_metadata(*reader, ctf_meta, ctf_meta_len);
    if (st != TRACERD_OK && st != TRACERD_E_NOMEM) {
        tlog_printf(&rec->log, "metadata %s\n", tracerd_status_name(st));
        st = TRACERD_OK;
    }
    if (st != TRACERD_OK) {
        tracerd_auto_free(*reader);
        *reader = NULL;
    }
    return st;
}

START_TEST(test_ctf_events)
{
    drv_target_t t = ev_target;
    t.open = ctf_open;
    /* The feature trace of the CTF writer: every field kind. */
    char *meta = ctf_writer_metadata(false);
    size_t len;
    uint8_t *stream = ctf_writer_stream(false, &len);
    ctf_meta = meta;
    ctf_meta_len = strlen(meta);
    char *log = drv_check_all(&t, NULL, stream, len);
    ck_assert_ptr_nonnull(strstr(log, "source ctf v108 little freq=1000000000 score=100\n"));
    ck_assert_ptr_nonnull(strstr(log, " instant t="));
    ck_assert_ptr_nonnull(strstr(log, " tid=18446744073709551574 cpu=2 cat=ust name=test:ints "
                                      "vtid=-42 procname=\"writer\" s3=2 u13=6844 "));
    /* compound fields flattened: elements [i], members .name, the variant's
     * selected option, byte arrays as one BYTES argument */
    ck_assert_ptr_nonnull(strstr(
        log, "name=test:compound vtid=-42 procname=\"writer\" ctxlen=2 msg=\"hello\" "
             "text=\"text\" arr[0]=100 arr[1]=101 arr[2]=102 len=3 seq=0x010203 tseq=\"abc\" "
             "e=\"ZERO\" v.ZERO=3735928559 nested.x=9 nested.nib=12 nested.y[0][0]=0 "
             "nested.y[0][1]=10 nested.y[0][2]=20 nested.y[1][0]=30 nested.y[1][1]=40 "
             "nested.y[1][2]=50 cpus[0]=1000 cpus[1]=1001 bytes_ctx=0xfeff se=\"NEG\"\n"));
    ck_assert_ptr_nonnull(strstr(log, " e=\"ONE\" v.ONE=\"one\" nested.x=9 "));
    ck_assert_ptr_nonnull(strstr(log, " e=\"RANGE\" v.RANGE.a=7 v.RANGE.b=72623859790382856 "));
    ck_assert_ptr_nonnull(strstr(log, "mark t=0 cat=ctf name=events discarded count="));
    ck_assert_ptr_nonnull(strstr(log, "end OK\n"));
    free(log);
    /* The same stream without metadata: E_METADATA at 0. */
    ctf_meta = NULL;
    log = drv_check_all(&t, NULL, stream, len);
    ck_assert_str_eq(log, "end E_METADATA @0 stream: a CTF data stream needs its metadata "
                          "(tracerd_auto_metadata, or tracerd --metadata PATH)\n");
    free(log);
    /* The metadata itself as input: parsed, no events. */
    log = drv_check_all(&t, NULL, (const uint8_t *)meta, strlen(meta));
    ck_assert_str_eq(log, "source ctf v108 little freq=1000000000 score=90\nend OK\n");
    free(log);
    /* ... also with the format forced (no detection buffer: 1-byte first feeds). */
    tracerd_auto_config_t forced;
    tracerd_auto_config_init(&forced);
    forced.format = TRACERD_EVENT_FORMAT_CTF;
    log = drv_check_all(&t, &forced, (const uint8_t *)meta, strlen(meta));
    ck_assert_str_eq(log, "source ctf v108 little freq=1000000000 score=100\nend OK\n");
    free(log);
    free(stream);
    free(meta);
    /* LTTng-UST function instrumentation: spans keyed by address. */
    uint8_t buf[256];
    len = ev_lttng_func_stream(buf);
    ctf_meta = ev_lttng_func_metadata;
    ctf_meta_len = strlen(ev_lttng_func_metadata);
    log = drv_check_all(&t, NULL, buf, len);
    ck_assert_str_eq(log,
        "source ctf v108 little freq=1000000000 score=100\n"
        "ctf @24 span-begin t=1000 ns=1000 pid=7 tid=77 cpu=3 nid=4198400 cat=ust name=0x401000 "
        "vtid=77 vpid=7 addr=4198400 call_site=4202496\n"
        "ctf @60 span-end t=1500 ns=1500 pid=7 tid=77 cpu=3 nid=4198400 cat=ust name=0x401000 "
        "vtid=77 vpid=7 addr=4198400 call_site=4202496\n"
        "end OK\n");
    free(log);
    /* no_args: the same events, threads, processes and spans, no argument
     * (the payload is still read for the function address) */
    tracerd_auto_config_t bare;
    tracerd_auto_config_init(&bare);
    bare.no_args = true;
    log = drv_check_all(&t, &bare, buf, len);
    ck_assert_str_eq(log, "source ctf v108 little freq=1000000000 score=100\n"
                          "ctf @24 span-begin t=1000 ns=1000 pid=7 tid=77 cpu=3 nid=4198400 "
                          "cat=ust name=0x401000\n"
                          "ctf @60 span-end t=1500 ns=1500 pid=7 tid=77 cpu=3 nid=4198400 "
                          "cat=ust name=0x401000\n"
                          "end OK\n");
    free(log);
    /* ... and on the feature trace (contexts only: the fast path) */
    meta = ctf_writer_metadata(false);
    stream = ctf_writer_stream(false, &len);
    ctf_meta = meta;
    ctf_meta_len = strlen(meta);
    log = drv_check_all(&t, NULL, stream, len);
    char *bare_log = drv_check_all(&t, &bare, stream, len);
    ck_assert_uint_eq(count_lines(bare_log, "ctf @"), count_lines(log, "ctf @"));
    ck_assert_ptr_nonnull(
        strstr(bare_log, " tid=18446744073709551574 cpu=2 cat=ust name=test:ints\n"));
    ck_assert_ptr_nonnull(strstr(bare_log, " cat=ust name=test:compound\n"));
    ck_assert_ptr_null(strstr(bare_log, "vtid="));
    free(bare_log);
    free(log);
    free(stream);
    free(meta);
    ctf_meta = NULL;
}
END_TEST

/* ---- xtrace (when the xtrace reader is part of the build) ----------------------- */

#include "support/xtrace_writer.h"

START_TEST(test_xtrace_events)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xd503201f); /* insn 0 */
    xtw_inst(&w, 0, 0xd503201f);             /* insn 1 */
    xtw_val(&w, 2, 64);                      /* SVCARG x8 = write */
    xtw_val(&w, 2, 1);                       /* x0 */
    xtw_val(&w, 2, 0x1000);                  /* x1 */
    xtw_val(&w, 2, 5);                       /* x2 */
    xtw_inst(&w, 0, 0xd4000001);             /* insn 2: svc #0 */
    xtw_pcinst(&w, 1, 0xffff000000001000ull, 0xd503201f); /* insn 3: in the kernel */
    xtw_inst(&w, 1, 0xd503201f);                           /* insn 4 */
    xtw_pcinst(&w, 0, 0x400010, 0xd503201f);               /* insn 5: back */
    xtw_val(&w, 3, 5);                                     /* SVCRET 5 */
    xtw_val(&w, 1, 0x77);                                  /* MRS: left out */
    xtw_time(&w, 8, 1234);
    xtw_inst(&w, 0, 0xd503201f); /* insn 6 */
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.format = TRACERD_EVENT_FORMAT_XTRACE;
    char *log = drv_check_all(&ev_target, &cfg, w.buf, w.len);
    ck_assert_str_eq(log,
        "source xtrace v0 little freq=0 score=100\n"
        "xtrace @59 span-begin t=3 cat=xtrace name=el1\n"
        "xtrace @77 span-end t=5 cat=xtrace name=el1\n"
        "xtrace @18 complete t=2 end=6 nid=64 cat=xtrace name=syscall#64 nr=64 x0=1 x1=4096 "
        "x2=5 ret=5\n"
        "xtrace @108 mark t=6 cat=xtrace name=time value=1234\n"
        "end OK\n");
    free(log);
    /* Not detected by content: only when forced. */
    ck_assert_int_eq(tracerd_event_detect(w.buf, w.len, NULL), TRACERD_EVENT_FORMAT_UNKNOWN);
    xtw_free(&w);
}
END_TEST

/* ---- names -------------------------------------------------------------------- */

static const ev_elf_sym_t syms[] = {
    {"alpha", 0x1000, 0x40, true},
    {"beta", 0x1040, 0x40, true},
    {"gamma_object", 0x1080, 8, false}, /* an object at a function address: not used */
    {"gamma", 0x1080, 0x20, true},
    {"local_label", 0x10c8, 0, true},
};

START_TEST(test_names_synthetic)
{
    /* Sleds: alpha (enter, exit), beta (enter, exit, exit), gamma inside a sized symbol. */
    const uint64_t fn[] = {0x1000, 0x1000, 0x1040, 0x1040, 0x1040, 0x1090, 0x1090, 0x1000};
    for (int v = 0; v < 8; v++) {
        bool is64 = v & 1, big = v & 2;
        unsigned sled_version = (v & 4) ? 2 : 0;
        size_t len;
        uint64_t map_addr = 0x400000;
        uint8_t *elf = ev_elf_write(is64, big, map_addr, fn, 8, sled_version, syms,
                                    sizeof syms / sizeof syms[0], &len);
        tracerd_xray_names_t *n;
        ck_assert_int_eq(tracerd_xray_names_new(NULL, &n), TRACERD_OK);
        ck_assert_msg(tracerd_xray_names_load(n, elf, len) == TRACERD_OK, "variant %d: %s", v,
                      tracerd_xray_names_error_reason(n));
        /* ids change whenever the function changes, as the runtime numbers them */
        ck_assert_uint_eq(tracerd_xray_names_count(n), 4);
        tracerd_str_t s;
        ck_assert(tracerd_xray_names_lookup(n, 1, &s));
        ck_assert_int_eq((int)s.len, 5);
        ck_assert_mem_eq(s.data, "alpha", 5);
        ck_assert(tracerd_xray_names_lookup(n, 2, &s));
        ck_assert_mem_eq(s.data, "beta", 4);
        ck_assert(tracerd_xray_names_lookup(n, 3, &s)); /* 0x1090: inside gamma's 0x20 bytes */
        ck_assert_int_eq((int)s.len, 5);
        ck_assert_mem_eq(s.data, "gamma", 5);
        ck_assert(tracerd_xray_names_lookup(n, 4, &s));
        ck_assert_mem_eq(s.data, "alpha", 5);
        ck_assert(!tracerd_xray_names_lookup(n, 5, &s));
        ck_assert_uint_eq(s.len, 0);
        ck_assert(!tracerd_xray_names_lookup(n, 0, &s));
        ck_assert(!tracerd_xray_names_lookup(n, -1, &s));
        ck_assert_uint_eq(tracerd_xray_names_address(n, 2), 0x1040);
        ck_assert_uint_eq(tracerd_xray_names_address(n, 3), 0x1090);
        tracerd_xray_names_free(n);
        free(elf);
    }
}
END_TEST

START_TEST(test_names_errors)
{
    tracerd_xray_names_t *n;
    ck_assert_int_eq(tracerd_xray_names_new(NULL, &n), TRACERD_OK);
    ck_assert_int_eq(tracerd_xray_names_load(n, "not an elf file at all", 22), TRACERD_E_MAGIC);
    ck_assert_str_eq(tracerd_xray_names_error_reason(n), "ELF header: no \\x7fELF magic");
    const uint64_t fn[] = {0x1000, 0x1000};
    size_t len;
    uint8_t *elf = ev_elf_write(true, false, 0x2000, fn, 2, 2, syms, 2, &len);
    /* class 3 */
    elf[4] = 3;
    ck_assert_int_eq(tracerd_xray_names_load(n, elf, len), TRACERD_E_VERSION);
    elf[4] = 2;
    /* cut inside the section headers */
    ck_assert_int_eq(tracerd_xray_names_load(n, elf, len - 10), TRACERD_E_EXTENT);
    ck_assert_ptr_nonnull(strstr(tracerd_xray_names_error_reason(n), "runs past the end"));
    /* no xray_instr_map: rename the section */
    uint8_t *p = NULL;
    for (size_t i = 0; i + 14 <= len && p == NULL; i++)
        if (memcmp(elf + i, "xray_instr_map", 14) == 0)
            p = elf + i;
    ck_assert_ptr_nonnull(p);
    p[0] = 'y';
    ck_assert_int_eq(tracerd_xray_names_load(n, elf, len), TRACERD_E_REFERENCE);
    ck_assert_str_eq(tracerd_xray_names_error_reason(n),
                     "ELF: no xray_instr_map section (not built with -fxray-instrument?)");
    p[0] = 'x';
    ck_assert_int_eq(tracerd_xray_names_load(n, elf, len), TRACERD_OK);
    ck_assert_uint_eq(tracerd_xray_names_count(n), 1);
    /* every truncation is an error or a smaller table, never a crash */
    for (size_t cut = 0; cut < len; cut++) {
        tracerd_status_t st = tracerd_xray_names_load(n, elf, cut);
        ck_assert_int_ne(st, TRACERD_OK);
    }
    /* allocation failures: E_NOMEM, no leak */
    for (unsigned long i = 1; i < 12; i++) {
        drv_alloc_t fa;
        drv_alloc_init(&fa, i);
        tracerd_xray_names_t *m;
        tracerd_status_t st = tracerd_xray_names_new(&fa.a, &m);
        if (st == TRACERD_OK) {
            st = tracerd_xray_names_load(m, elf, len);
            ck_assert(st == TRACERD_OK || st == TRACERD_E_NOMEM);
            tracerd_xray_names_free(m);
        }
        ck_assert_int_eq(fa.live, 0);
    }
    free(elf);
    tracerd_xray_names_free(n);
}
END_TEST

/* The auto reader names XRay functions from the table. */
START_TEST(test_auto_with_names)
{
    const uint64_t fn[] = {0x1000, 0x1000, 0x1040, 0x1040, 0x1080, 0x1080};
    size_t len;
    uint8_t *elf = ev_elf_write(true, false, 0x9000, fn, 6, 2, syms, 4, &len);
    tracerd_xray_names_t *n;
    ck_assert_int_eq(tracerd_xray_names_new(NULL, &n), TRACERD_OK);
    ck_assert_int_eq(tracerd_xray_names_load(n, elf, len), TRACERD_OK);
    free(elf);
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.xray_names = n;
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    char *log = drv_check_all(&ev_target, &cfg, w.buf, w.len);
    ck_assert_ptr_nonnull(strstr(log, "nid=1 cat=xray name=alpha\n"));
    ck_assert_ptr_nonnull(strstr(log, "nid=2 cat=xray name=beta arg0=4660 arg1=5\n"));
    ck_assert_ptr_nonnull(strstr(log, "nid=3 tail cat=xray name=gamma\n"));
    free(log);
    xw_free(&w);
    tracerd_xray_names_free(n);
}
END_TEST

/* A real instrumented binary, compared with llvm-xray extract. */
START_TEST(test_names_clang)
{
    if (system("command -v clang >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_names_clang: clang not found, skipped\n");
        return;
    }
    const char *dir = ev_temp_dir();
    char cmd[1024], bin[256];
    snprintf(bin, sizeof bin, "%s/xray_demo", dir);
    snprintf(cmd, sizeof cmd,
             "clang -O1 -fxray-instrument -fxray-instruction-threshold=1 "
             "tests/data/event/xray_demo.c -o %s 2>/dev/null",
             bin);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_names_clang: clang -fxray-instrument failed, skipped\n");
        ev_temp_cleanup();
        return;
    }
    size_t len;
    uint8_t *elf = drv_read_file(bin, &len);
    ck_assert_ptr_nonnull(elf);
    tracerd_xray_names_t *n;
    ck_assert_int_eq(tracerd_xray_names_new(NULL, &n), TRACERD_OK);
    ck_assert_msg(tracerd_xray_names_load(n, elf, len) == TRACERD_OK, "%s",
                  tracerd_xray_names_error_reason(n));
    ck_assert_uint_ge(tracerd_xray_names_count(n), 4);
    bool seen_leaf = false, seen_mid = false, seen_top = false;
    for (uint32_t id = 1; id <= tracerd_xray_names_count(n); id++) {
        tracerd_str_t s;
        if (!tracerd_xray_names_lookup(n, (int32_t)id, &s))
            continue;
        seen_leaf |= s.len == 4 && memcmp(s.data, "leaf", 4) == 0;
        seen_mid |= s.len == 3 && memcmp(s.data, "mid", 3) == 0;
        seen_top |= s.len == 3 && memcmp(s.data, "top", 3) == 0;
    }
    ck_assert(seen_leaf && seen_mid && seen_top);
    /* llvm-xray extract prints "{ id: N, address: 0x..., function: 0x..." per sled. */
    snprintf(cmd, sizeof cmd, "llvm-xray extract %s 2>/dev/null", bin);
    FILE *f = popen(cmd, "r");
    unsigned checked = 0;
    if (f != NULL) {
        char line[512];
        while (fgets(line, sizeof line, f) != NULL) {
            unsigned id;
            unsigned long long addr, func;
            if (sscanf(line, "- { id: %u, address: 0x%llx, function: 0x%llx", &id, &addr,
                       &func) == 3) {
                ck_assert_uint_eq(tracerd_xray_names_address(n, (int32_t)id), func);
                checked++;
            }
        }
        pclose(f);
    }
    if (checked == 0)
        fprintf(stderr, "test_names_clang: llvm-xray not found, addresses not compared\n");
    tracerd_xray_names_free(n);
    free(elf);
    ev_temp_cleanup();
}
END_TEST

/* doc/api.md's status table matches TRACERD_STATUS_LIST (it cannot drift). */
START_TEST(test_api_doc_status_table)
{
    size_t len;
    uint8_t *doc = drv_read_file("doc/api.md", &len);
    ck_assert_ptr_nonnull(doc);
    char *text = malloc(len + 1);
    memcpy(text, doc, len);
    text[len] = '\0';
    char line[256];
#define ROW(name, value, msg)                                                                      \
    snprintf(line, sizeof line, "| `TRACERD_%s` | %d | %s |\n", #name, value, msg);               \
    ck_assert_msg(strstr(text, line) != NULL, "doc/api.md lacks: %s", line);
    TRACERD_STATUS_LIST(ROW)
#undef ROW
    free(text);
    free(doc);
}
END_TEST

Suite *suite_event(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("event");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_xray_v5_events);
    tcase_add_test(tc, test_xray_basic);
    tcase_add_test(tc, test_detect);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_forced_format);
    tcase_add_test(tc, test_callback_abort);
    tcase_add_test(tc, test_names_synthetic);
    tcase_add_test(tc, test_names_errors);
    tcase_add_test(tc, test_auto_with_names);
    tcase_add_test(tc, test_names_clang);
    tcase_add_test(tc, test_api_doc_status_table);
    tcase_add_test(tc, test_xtrace_events);
    tcase_add_test(tc, test_ctf_events);
    tcase_add_test(tc, test_fxt_events);
    tcase_add_test(tc, test_fxt_warning_run);
    tcase_add_test(tc, test_fxt_error);
    suite_add_tcase(s, tc);
    return s;
}
