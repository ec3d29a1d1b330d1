/* The event view filters an event before mapping it where the format lets
 * it (XRay: time and ids, then the name test remembered per function id;
 * FXT: everything before the arguments; CTF: time, cpu, name and category
 * before the fields, pid/tid after the contexts). These tests check that
 * the events delivered are exactly those that tracerd_event_filter_match
 * keeps of the unfiltered events (same order, same values), for many
 * filters on real traces of each format, and that a reading stopped at
 * the end of the range stops where the unfiltered one would. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracerd/event.h>

#include "support/driver.h"
#include "support/fxt_writer.h"

/* A text log of delivered events: offset, kind, time, ids, name, args. */
struct elog {
    char *buf;
    size_t len, cap;
    tracerd_event_filter_t *ref; /* the reference: applied here to unfiltered events */
    bool ordered;                /* stop at the first event past the end */
    bool stopped;
    unsigned events;
    /* picked from the unfiltered events (the 3rd with each) */
    tracerd_event_t pick;
    bool picked;
    char pick_name[64];
    char pick_cat[64]; /* pick's strings live only in the callback: copied */
    uint64_t first_t, last_t;
    bool any_t;
};

static void put(struct elog *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct elog *l, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    size_t k = n > 0 ? (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1 : 0;
    if (l->len + k + 1 > l->cap) {
        l->cap = (l->len + k + 1) * 2;
        l->buf = realloc(l->buf, l->cap);
        ck_assert_ptr_nonnull(l->buf);
    }
    memcpy(l->buf + l->len, tmp, k);
    l->len += k;
    l->buf[l->len] = '\0';
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct elog *l = user;
    if (l->stopped)
        return TRACERD_CB_CONTINUE;
    if (l->ref != NULL) {
        int m = tracerd_event_filter_match(l->ref, ev);
        if (m == TRACERD_EVENT_FILTER_PAST_END && l->ordered) {
            l->stopped = true;
            return TRACERD_CB_CONTINUE;
        }
        if (m != TRACERD_EVENT_FILTER_PASS)
            return TRACERD_CB_CONTINUE;
    }
    l->events++;
    uint64_t t = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->ns : ev->ticks;
    if (!(ev->flags & TRACERD_EVENT_NO_TIME)) {
        if (!l->any_t)
            l->first_t = t;
        l->last_t = t;
        l->any_t = true;
    }
    if (!l->picked && l->events == 3 && !(ev->flags & TRACERD_EVENT_NO_TIME)) {
        l->pick = *ev;
        snprintf(l->pick_name, sizeof l->pick_name, "%.*s", (int)ev->name.len, ev->name.data);
        snprintf(l->pick_cat, sizeof l->pick_cat, "%.*s", (int)ev->category.len,
                 ev->category.data);
        l->picked = true;
    }
    put(l, "@%llu k%d f%x t%llu p%llu/%llu c%u %.*s/%.*s n%u", (unsigned long long)ev->offset,
        (int)ev->kind, ev->flags, (unsigned long long)t, (unsigned long long)ev->pid,
        (unsigned long long)ev->tid, ev->cpu, (int)ev->name.len, ev->name.data,
        (int)ev->category.len, ev->category.data, ev->nargs);
    for (uint32_t i = 0; i < ev->nargs; i++)
        put(l, " %.*s:%d", (int)ev->args[i].name.len, ev->args[i].name.data, (int)ev->args[i].type);
    put(l, "\n");
    return TRACERD_CB_CONTINUE;
}

/* Reads a file (or, is_dir, a CTF directory) through the event view with
 * filter f; the events into l. */
static void read_trace(const char *path, bool is_dir, tracerd_event_filter_t *f, struct elog *l)
{
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.filter = f;
    tracerd_event_callbacks_t cbs;
    tracerd_event_callbacks_init(&cbs);
    cbs.on_event = on_event;
    if (is_dir) {
        tracerd_event_dir_t *d;
        ck_assert_int_eq(tracerd_event_dir_open(path, &cfg, &cbs, l, NULL, &d), TRACERD_OK);
        ck_assert_int_eq(tracerd_event_dir_run(d), TRACERD_OK);
        tracerd_event_dir_free(d);
        return;
    }
    FILE *in = fopen(path, "rb");
    ck_assert_ptr_nonnull(in);
    tracerd_auto_reader_t *r;
    ck_assert_int_eq(tracerd_auto_new(&cfg, &cbs, l, NULL, &r), TRACERD_OK);
    static uint8_t buf[4096]; /* small chunks: records cut between feeds */
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        size_t used;
        ck_assert_int_eq(tracerd_auto_feed(r, buf, n, &used), TRACERD_OK);
    }
    ck_assert_int_eq(tracerd_auto_finish(r), TRACERD_OK);
    tracerd_auto_free(r);
    fclose(in);
}

enum {
    F_NAME = 1,
    F_GLOB = 2,
    F_CAT = 4,
    F_PID = 8,
    F_TID = 16,
    F_CPU = 32,
    F_BEGIN = 64,
    F_END = 128,
    F_NOPE = 256
};

/* A filter of the kinds in `kinds`, with values picked from the trace. */
static tracerd_event_filter_t *make(unsigned kinds, const struct elog *all)
{
    tracerd_event_filter_t *f;
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    const tracerd_event_t *p = &all->pick;
    if (kinds & F_NAME)
        tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, all->pick_name);
    if (kinds & F_GLOB) {
        char g[8] = {all->pick_name[0], '*', '\0'};
        tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, g);
    }
    if (kinds & F_NOPE)
        tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "*no such name*");
    if (kinds & F_CAT)
        tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_CATEGORY, all->pick_cat);
    if (kinds & F_PID)
        tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_PID, p->pid);
    if (kinds & F_TID)
        tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_TID, p->tid);
    if (kinds & F_CPU)
        tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_CPU, p->cpu);
    uint64_t span = all->last_t > all->first_t ? all->last_t - all->first_t : 0;
    if (kinds & F_BEGIN)
        tracerd_event_filter_set_begin(f, span / 3, true);
    if (kinds & F_END)
        tracerd_event_filter_set_end(f, span / 2, true);
    return f;
}

static void check_trace(const char *path, bool is_dir, bool ordered)
{
    struct elog all;
    memset(&all, 0, sizeof all);
    read_trace(path, is_dir, NULL, &all);
    ck_assert_msg(all.picked, "%s: fewer than 3 timed events", path);
    static const unsigned cases[] = {F_NAME,
                                     F_GLOB,
                                     F_CAT,
                                     F_PID,
                                     F_TID,
                                     F_CPU,
                                     F_BEGIN,
                                     F_END,
                                     F_BEGIN | F_END,
                                     F_TID | F_NAME,
                                     F_PID | F_END,
                                     F_CPU | F_GLOB | F_BEGIN,
                                     F_NOPE,
                                     F_NOPE | F_END,
                                     F_TID | F_CPU | F_END,
                                     F_CAT | F_PID | F_BEGIN | F_END};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct elog want, got;
        memset(&want, 0, sizeof want);
        memset(&got, 0, sizeof got);
        want.ref = make(cases[i], &all);
        want.ordered = ordered;
        read_trace(path, is_dir, NULL, &want);
        tracerd_event_filter_t *f = make(cases[i], &all);
        read_trace(path, is_dir, f, &got);
        ck_assert_msg(got.events == want.events && (got.len == 0 || !strcmp(got.buf, want.buf)),
                      "%s: filter kinds %#x: %u events delivered, %u expected", path, cases[i],
                      got.events, want.events);
        ck_assert_int_eq(tracerd_event_filter_cut(f), tracerd_event_filter_cut(want.ref));
        tracerd_event_filter_free(f);
        tracerd_event_filter_free(want.ref);
        free(want.buf);
        free(got.buf);
    }
    free(all.buf);
}

/* An FXT trace for the tests on_event_head makes before the arguments:
 * names from string indices that string records redefine (index 2 and 3
 * swap "a" and "c" every 7 steps), inline names, and complete spans of
 * several lengths around any time (their end decides a --begin test). */
static char *write_fxt_refs(void)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_string(&w, 4, "other");
    fxw_thread(&w, 1, 10, 11);
    fxw_thread(&w, 2, 10, 12);
    for (uint64_t k = 0; k < 60; k++) {
        if (k % 7 == 0) {
            fxw_string(&w, 2, k % 14 == 0 ? "a" : "c");
            fxw_string(&w, 3, k % 14 == 0 ? "c" : "a");
        }
        uint64_t t = 1000 + k * 100;
        fxw_arg_t args[] = {FXA_U64(FXS_IDX(4), k), FXA_STR(FXS_INL("s"), FXS_IDX(2))};
        fxw_event(&w, 0, FXT_IDX(1 + k % 2), FXS_IDX(1), FXS_IDX(2), t, args, 2, 0);
        fxw_event(&w, 4, FXT_IDX(1), FXS_IDX(k % 3 ? 1 : 4), FXS_IDX(3), t + 10, args, 1,
                  t + 10 + (k % 5) * 700);
        fxw_event(&w, 0, FXT_IDX(2), FXS_IDX(1), FXS_INL(k % 2 ? "c" : "a"), t + 20, args, 2, 0);
    }
    size_t n;
    uint8_t *d = fxw_take(&w, &n);
    char *path = strdup("/tmp/tracerd-prefilter-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, d, n), (ssize_t)n);
    close(fd);
    free(d);
    return path;
}

START_TEST(test_prefilter_same_events)
{
    char *refs = write_fxt_refs();
    check_trace(refs, false, false);
    unlink(refs);
    free(refs);
    check_trace("tests/data/event/xray_fdr_real.xray", false, false);
    check_trace("tests/data/xray/fdr-v5-le.xray", false, false);
    check_trace("tests/data/fxt/demo.fxt", false, false);
    check_trace("tests/data/ctf/demo-lttng-ust", true, true);
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    static const char *const more[] = {"fxt/richiesams-fxt_magic-trace_trace.fxt",
                                       "ctf/succeed/lttng-tracefile-rotation/kernel",
                                       "ctf/succeed/wk-heartbeat-u"};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", peer, more[i]);
        check_trace(path, i > 0, i > 0);
    }
}
END_TEST

Suite *suite_prefilter(void)
{
    Suite *s = suite_create("prefilter");
    TCase *tc = tcase_create("prefilter");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_prefilter_same_events);
    suite_add_tcase(s, tc);
    return s;
}
