/* Event filters (tracerd_event_filter_*): time text, globs, every test kind
 * through the auto reader with every split of the input, the early stop at
 * the range's end, limits and allocation failures. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/event.h>

#include "support/driver.h"
#include "support/event_support.h"
#include "support/xray_writer.h"

START_TEST(test_parse_time)
{
    static const struct {
        const char *text;
        tracerd_status_t st;
        uint64_t ns;
        bool rel;
    } cases[] = {
        {"1.5s", TRACERD_OK, 1500000000u, true},
        {"200ms", TRACERD_OK, 200000000u, true},
        {"+10us", TRACERD_OK, 10000u, true},
        {"500ns", TRACERD_OK, 500u, true},
        {"+5", TRACERD_OK, 5u, true},
        {"1700000000123456789", TRACERD_OK, 1700000000123456789ull, false},
        {"0", TRACERD_OK, 0u, false},
        {"2m", TRACERD_OK, 120000000000ull, true},
        {"2min", TRACERD_OK, 120000000000ull, true},
        {"1.25h", TRACERD_OK, 4500000000000ull, true},
        {"0.000000001s", TRACERD_OK, 1u, true},
        {"0.0000000019s", TRACERD_OK, 1u, true}, /* nine fraction digits */
        {"1.5us", TRACERD_OK, 1500u, true},
        {"18446744073709551615", TRACERD_OK, UINT64_MAX, false},
        {"", TRACERD_E_INVALID, 0, false},
        {"+", TRACERD_E_INVALID, 0, false},
        {"abc", TRACERD_E_INVALID, 0, false},
        {"1.5", TRACERD_E_INVALID, 0, false},
        {"1.", TRACERD_E_INVALID, 0, false},
        {"1.5x", TRACERD_E_INVALID, 0, false},
        {"-5", TRACERD_E_INVALID, 0, false},
        {"1e3", TRACERD_E_INVALID, 0, false},
        {"5 ms", TRACERD_E_INVALID, 0, false},
        {"18446744073709551616", TRACERD_E_INVALID, 0, false},
        {"18446744073709551s", TRACERD_E_INVALID, 0, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t ns = 77;
        bool rel = false;
        tracerd_status_t st = tracerd_event_filter_parse_time(cases[i].text, &ns, &rel);
        ck_assert_msg(st == cases[i].st, "%s: %s", cases[i].text, tracerd_status_name(st));
        if (st == TRACERD_OK) {
            ck_assert_msg(ns == cases[i].ns, "%s: %llu", cases[i].text, (unsigned long long)ns);
            ck_assert_msg(rel == cases[i].rel, "%s", cases[i].text);
        }
    }
    uint64_t ns;
    bool rel;
    ck_assert_int_eq(tracerd_event_filter_parse_time(NULL, &ns, &rel), TRACERD_E_INVALID);
}
END_TEST

START_TEST(test_glob)
{
    static const struct {
        const char *pat, *text;
        bool match;
    } cases[] = {
        {"*", "", true},          {"*", "anything", true},   {"", "", true},
        {"", "a", false},         {"abc", "abc", true},      {"abc", "abd", false},
        {"a?c", "abc", true},     {"a?c", "ac", false},      {"fn#[12]", "fn#1", true},
        {"fn#[12]", "fn#3", false}, {"fn#[!12]", "fn#3", true}, {"fn#[^12]", "fn#2", false},
        {"[a-c]x", "bx", true},   {"[a-c]x", "dx", false},   {"*b*c", "abxbc", true},
        {"*b*c", "abxb", false},  {"a*", "a", true},         {"\\*", "*", true},
        {"\\*", "a", false},      {"*::run", "ns::Foo::run", true},
        {"[]]", "]", true},       {"[a-]", "-", true},       {"*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaa", false},
        {"tracerd:*", "tracerd:tick", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(tracerd_glob_match(cases[i].pat, cases[i].text, strlen(cases[i].text)) ==
                          cases[i].match,
                      "%s ~ %s", cases[i].pat, cases[i].text);
    /* the text is a view: bytes past len are not read */
    ck_assert(tracerd_glob_match("ab", "abc", 2));
    ck_assert(!tracerd_glob_match("abc", "abc", 2));
}
END_TEST

/* The " @OFFSET" of every event line of a log, space separated, then the end line. */
static char *offsets(char *log)
{
    size_t n = strlen(log);
    char *out = calloc(1, n + 1);
    size_t k = 0;
    for (char *line = log; *line != '\0';) {
        char *nl = strchr(line, '\n');
        if (strncmp(line, "xray @", 6) == 0) {
            char *sp = strchr(line + 5, ' ');
            memcpy(out + k, line + 5, (size_t)(sp - line - 5));
            k += (size_t)(sp - line - 5);
            out[k++] = ' ';
        } else if (strncmp(line, "end ", 4) == 0) {
            memcpy(out + k, line, (size_t)(nl - line));
            k += (size_t)(nl - line);
        }
        line = nl != NULL ? nl + 1 : line + strlen(line);
    }
    free(log);
    return out;
}

/* Every split of the sample through an auto reader with filter f. */
static char *run_filtered(tracerd_event_filter_t *f)
{
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.filter = f;
    char *log = drv_check_all(&ev_target, &cfg, w.buf, w.len);
    xw_free(&w);
    return offsets(log);
}

START_TEST(test_filter_reader)
{
    tracerd_event_filter_t *f;
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert(!tracerd_event_filter_active(f));
    char *got = run_filtered(f); /* empty: everything */
    ck_assert_str_eq(got, "@112 @120 @160 @184 @192 @213 @248 end OK");
    free(got);

    /* begin relative to the first event (500): 506; end absolute 2501 */
    ck_assert_int_eq(tracerd_event_filter_set_begin(f, 6, true), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_set_end(f, 2501, false), TRACERD_OK);
    uint64_t b, e;
    ck_assert(tracerd_event_filter_active(f));
    got = run_filtered(f); /* XRay is not time-ordered: read to the end, 2502 left out */
    ck_assert_str_eq(got, "@160 @184 @213 end OK");
    free(got);
    ck_assert(tracerd_event_filter_range(f, &b, &e));
    ck_assert_uint_eq(b, 506);
    ck_assert_uint_eq(e, 2501);
    ck_assert(tracerd_event_filter_cut(f));

    /* declared time-ordered: the reading stops at the first event past the end */
    tracerd_event_filter_set_ordered(f, true);
    got = run_filtered(f);
    ck_assert_str_eq(got, "@160 @184 end OK");
    free(got);
    tracerd_event_filter_free(f);

    /* names (glob) and cpu */
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "fn#[13]"),
                     TRACERD_OK);
    got = run_filtered(f);
    ck_assert_str_eq(got, "@112 @184 @248 end OK");
    free(got);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_CPU, 3), TRACERD_OK);
    got = run_filtered(f);
    ck_assert_str_eq(got, "@112 @184 end OK");
    free(got);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_CPU, 1), TRACERD_OK);
    got = run_filtered(f); /* values of one kind are ORed */
    ck_assert_str_eq(got, "@112 @184 @248 end OK");
    free(got);
    tracerd_event_filter_free(f);

    /* the glob shapes matched without the glob matcher: prefix, suffix, contains */
    static const struct {
        const char *pattern, *offsets;
    } shapes[] = {{"custom*", "@192 end OK"},
                  {"*-event", "@192 @213 end OK"},
                  {"*#2*", "@120 @160 end OK"},
                  {"*", "@112 @120 @160 @184 @192 @213 @248 end OK"},
                  {"**", "@112 @120 @160 @184 @192 @213 @248 end OK"},
                  {"*e*t", "@192 @213 end OK"}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
        ck_assert_int_eq(
            tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, shapes[i].pattern),
            TRACERD_OK);
        got = run_filtered(f);
        ck_assert_msg(strcmp(got, shapes[i].offsets) == 0, "%s: %s", shapes[i].pattern, got);
        free(got);
        tracerd_event_filter_free(f);
    }

    /* exact names, categories, pid and tid */
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert_int_eq(
        tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "custom-event"),
        TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "fn#2"),
                     TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_CATEGORY, "xray"),
                     TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_PID, 7), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_TID, 42), TRACERD_OK);
    got = run_filtered(f);
    ck_assert_str_eq(got, "@120 @160 @192 end OK");
    free(got);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_CATEGORY, "x"),
                     TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_TID, 43), TRACERD_OK);
    got = run_filtered(f);
    ck_assert_str_eq(got, "@120 @160 @192 end OK");
    free(got);
    tracerd_event_filter_free(f);
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_PID, 8), TRACERD_OK);
    got = run_filtered(f);
    ck_assert_str_eq(got, "end OK");
    free(got);
    tracerd_event_filter_free(f);
}
END_TEST

static int count_cb(void *user, const tracerd_event_t *ev)
{
    (void)ev;
    ++*(unsigned *)user;
    return TRACERD_CB_CONTINUE;
}

START_TEST(test_early_stop)
{
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    tracerd_event_filter_t *f;
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_set_end(f, 2000, true), TRACERD_OK); /* 2500 */
    ck_assert(!tracerd_event_filter_range(f, NULL, NULL)); /* relative: not resolved yet */
    tracerd_event_filter_set_ordered(f, true);
    ck_assert(tracerd_event_filter_ordered(f));
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.filter = f;
    tracerd_event_callbacks_t cbs = {.on_event = count_cb};
    unsigned n = 0;
    tracerd_auto_reader_t *r;
    ck_assert_int_eq(tracerd_auto_new(&cfg, &cbs, &n, NULL, &r), TRACERD_OK);
    size_t used;
    ck_assert(!tracerd_auto_done(r));
    ck_assert_int_eq(tracerd_auto_feed(r, w.buf, 220, &used), TRACERD_OK);
    ck_assert_uint_eq(used, 220);
    ck_assert(tracerd_auto_done(r)); /* the custom event at 2502 is past 2500 */
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(tracerd_auto_feed(r, w.buf + 220, w.len - 220, &used), TRACERD_OK);
    ck_assert_uint_eq(used, w.len - 220);
    ck_assert_int_eq(tracerd_auto_feed(r, "junk", 4, &used), TRACERD_OK); /* not read */
    ck_assert_int_eq(tracerd_auto_finish(r), TRACERD_OK);
    ck_assert_uint_eq(n, 4);
    /* reset: read again from the start, the trace start found again */
    tracerd_auto_reset(r);
    ck_assert(!tracerd_auto_done(r));
    n = 0;
    ck_assert_int_eq(tracerd_auto_feed(r, w.buf, w.len, &used), TRACERD_OK);
    ck_assert_int_eq(tracerd_auto_finish(r), TRACERD_OK);
    ck_assert_uint_eq(n, 4);
    tracerd_auto_free(r);
    tracerd_event_filter_free(f);
    xw_free(&w);
}
END_TEST

/* A CTF trace directory (time-ordered): the reading stops at the end. */
START_TEST(test_early_stop_dir)
{
    tracerd_event_filter_t *f;
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_set_end(f, 1000, true), TRACERD_OK);
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    cfg.filter = f;
    tracerd_event_callbacks_t cbs = {.on_event = count_cb};
    unsigned n = 0;
    tracerd_event_dir_t *d;
    ck_assert_int_eq(
        tracerd_event_dir_open("tests/data/ctf/demo-lttng-ust", &cfg, &cbs, &n, NULL, &d),
        TRACERD_OK);
    ck_assert(!tracerd_event_dir_done(d));
    ck_assert_int_eq(tracerd_event_dir_run(d), TRACERD_OK);
    ck_assert(tracerd_event_dir_done(d));
    ck_assert_uint_eq(n, 1); /* the second event is 10.5 us after the first */
    tracerd_event_dir_free(d);
    tracerd_event_filter_free(f);
}
END_TEST

START_TEST(test_limits_and_errors)
{
    tracerd_event_filter_t *f;
    ck_assert_int_eq(tracerd_event_filter_new(NULL, NULL), TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_event_filter_new(NULL, &f), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "a[bc"),
                     TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_PID, "1"),
                     TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_NAME, 1),
                     TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, (tracerd_event_filter_field_t)99, 1),
                     TRACERD_E_INVALID);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "a\\[bc"),
                     TRACERD_OK);
    for (unsigned i = 1; i < TRACERD_EVENT_FILTER_MAX_VALUES; i++)
        ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "x*"),
                         TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "y"),
                     TRACERD_E_LIMIT);
    for (unsigned i = 0; i < TRACERD_EVENT_FILTER_MAX_VALUES; i++)
        ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_TID, i), TRACERD_OK);
    ck_assert_int_eq(tracerd_event_filter_add_id(f, TRACERD_EVENT_FILTER_TID, 1), TRACERD_E_LIMIT);
    tracerd_event_filter_free(f);
    tracerd_event_filter_free(NULL);
    /* allocation failures: the filter itself, then a pattern copy */
    for (unsigned long k = 1; k <= 3; k++) {
        drv_alloc_t fa;
        drv_alloc_init(&fa, k);
        tracerd_status_t st = tracerd_event_filter_new(&fa.a, &f);
        if (st == TRACERD_OK) {
            st = tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_NAME, "abc");
            if (st == TRACERD_OK)
                st = tracerd_event_filter_add_pattern(f, TRACERD_EVENT_FILTER_CATEGORY, "d");
            tracerd_event_filter_free(f);
        }
        ck_assert_int_eq(st, k <= 3 ? TRACERD_E_NOMEM : TRACERD_OK);
        ck_assert_int_eq(fa.live, 0);
    }
}
END_TEST

Suite *suite_filter(void)
{
    Suite *s = suite_create("filter");
    TCase *tc = tcase_create("filter");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_parse_time);
    tcase_add_test(tc, test_glob);
    tcase_add_test(tc, test_filter_reader);
    tcase_add_test(tc, test_early_stop);
    tcase_add_test(tc, test_early_stop_dir);
    tcase_add_test(tc, test_limits_and_errors);
    suite_add_tcase(s, tc);
    return s;
}
