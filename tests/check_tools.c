/* The CLI's trace tools (issue 15), run as a subprocess (TRACERD_CLI, else
 * build/tracerd): filters on json and stats, balanced spans at a cut. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/event_support.h"

#define CLI_OR_SKIP(cli)                                                                           \
    const char *cli = ev_cli_path();                                                               \
    if (cli == NULL) {                                                                             \
        fprintf(stderr, "%s: tracerd CLI not built (set TRACERD_CLI), skipped\n", __func__);     \
        return;                                                                                    \
    }

static unsigned count(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *q = text; (q = strstr(q, what)) != NULL; q += strlen(what))
        n++;
    return n;
}

#define XRAY_REAL "tests/data/event/xray_fdr_real.xray"
#define CTF_DIR "tests/data/ctf/demo-lttng-ust"

START_TEST(test_filters_json_stats)
{
    CLI_OR_SKIP(cli);
    ev_proc_t p;
    /* llvm-xray account: fn#1 15 calls, fn#2 5, fn#3 1 */
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--name", "fn#1", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "events: 30  spans: 15  threads: 1  names: 1\n"));
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--name", "fn#[12]", "--tid", "0x7fffffff", XRAY_REAL,
               NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "events: 0  spans: 0  threads: 0"));
    ev_proc_free(&p);

    /* a cut: every span open at --end is closed there, B and E balance */
    ev_run_cli(cli, NULL, &p, "json", "-q", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    unsigned all_b = count(p.out, "\"ph\":\"B\"");
    ck_assert_uint_eq(all_b, 21);
    ck_assert_uint_eq(count(p.out, "\"ph\":\"E\""), 21);
    ev_proc_free(&p);
    unsigned prev = 0;
    static const char *const ends[] = {"+1us", "+20us", "+200us", "+2ms", "+1s"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        ev_run_cli(cli, NULL, &p, "json", "-q", "--end", ends[i], XRAY_REAL, NULL);
        ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
        unsigned b = count(p.out, "\"ph\":\"B\""), e = count(p.out, "\"ph\":\"E\"");
        ck_assert_msg(b == e, "--end %s: %u B, %u E", ends[i], b, e);
        ck_assert_uint_ge(b, prev);
        prev = b;
        ck_assert_ptr_nonnull(strstr(p.out, "]"));
        ev_proc_free(&p);
    }
    ck_assert_uint_eq(prev, all_b);
    /* begins cut off by --begin: their ends are left out */
    ev_run_cli(cli, NULL, &p, "json", "-q", "--begin", "+5us", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_uint_eq(count(p.out, "\"ph\":\"B\""), count(p.out, "\"ph\":\"E\""));
    ev_proc_free(&p);

    /* CTF: names (glob), categories, cpu; an absolute end before everything */
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--name", "*:tick", "--category", "ust", "--cpu",
               "1", CTF_DIR, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "names: 1\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "ust/tracerd:tick (instant)"));
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "json", "-q", "--end", "1000", CTF_DIR, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_uint_eq(count(p.out, "\"ph\":"), 0);
    ev_proc_free(&p);
    /* the demo writes four bursts of 20 events, 2.1 ms apart */
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--begin", "+2ms", "--end", "+3ms", CTF_DIR, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "events: 20 "));
    ev_proc_free(&p);

    /* usage errors name the option and the value */
    static const char *const bad[][2] = {{"--begin", "soon"}, {"--end", "1.5"},
                                         {"--name", "a[b"},   {"--pid", "-1"},
                                         {"--cpu", "x"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ev_run_cli(cli, NULL, &p, "json", bad[i][0], bad[i][1], XRAY_REAL, NULL);
        ck_assert_int_eq(p.status, 2);
        ck_assert_msg(strstr(p.err, bad[i][0]) != NULL && strstr(p.err, bad[i][1]) != NULL,
                      "%s", p.err);
        ck_assert_uint_eq(p.out_len, 0);
        ev_proc_free(&p);
    }
}
END_TEST

Suite *suite_tools(void)
{
    Suite *s = suite_create("tools");
    TCase *tc = tcase_create("tools");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_filters_json_stats);
    suite_add_tcase(s, tc);
    return s;
}
