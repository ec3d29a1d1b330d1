/* dump's filters on CTF and xtrace (issue 15): which records come out for
 * each filter option, equal to the json output's events for CTF (the same
 * event view rules), the early stop past --end of time-ordered input, and
 * the held record of a --pid/--tid decision (identical for every chunk
 * size). XRay and FXT dump filters are in check_tools.c. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/driver.h"
#include "support/event_support.h"

#define CTF_UST "tests/data/ctf/demo-lttng-ust"
#define XT_DIR "tests/data/xtrace/"
#define XT_INSN XT_DIR "demo-xtrace.1718000000.4242.hint9.xinsndata.bin"
#define XT_SNAP XT_DIR "demo-xtrace.1718000000.4242.hint9.xsnapshot.bin"

/* Every line of a dump is one whole JSON object (a held and dropped record
 * leaves nothing behind). */
static void check_lines(const ev_proc_t *p)
{
    const char *s = p->out;
    while (*s != '\0') {
        const char *nl = strchr(s, '\n');
        ck_assert_ptr_nonnull(nl);
        ck_assert_msg(s[0] == '{' && nl[-1] == '}', "line: %.*s", (int)(nl - s), s);
        s = nl + 1;
    }
    ck_assert_ptr_null(strstr(p->out, "incomplete"));
}

/* tracerd dump ARGS... TRACE: the output (checked, owned by p). */
#define DUMP(p, ...)                                                                               \
    do {                                                                                           \
        ev_run_cli(cli, NULL, (p), "dump", "-q", __VA_ARGS__, NULL);                               \
        ck_assert_msg((p)->status == 0, "exit %d: %s", (p)->status, (p)->err);                     \
        check_lines(p);                                                                            \
    } while (0)

/* The filter (up to 4 words) on dump and json: dump's events are json's. */
static void same_as_json(const char *cli, const char *trace, const char *const f[4], unsigned want)
{
    ev_proc_t d, j;
    const char *a[4];
    for (int i = 0; i < 4; i++)
        a[i] = f[i] != NULL ? f[i] : "-q";
    ev_run_cli(cli, NULL, &d, "dump", "-q", a[0], a[1], a[2], a[3], trace, NULL);
    ck_assert_msg(d.status == 0, "exit %d: %s", d.status, d.err);
    check_lines(&d);
    ev_run_cli(cli, NULL, &j, "json", "-q", a[0], a[1], a[2], a[3], trace, NULL);
    ck_assert_msg(j.status == 0, "exit %d: %s", j.status, j.err);
    unsigned nd = ev_count(d.out, "{\"type\":\"event\"");
    unsigned nj = ev_count(j.out, "\"ph\":\"i\"");
    ck_assert_msg(nd == nj && nd == want, "%s %s %s %s %s: dump %u, json %u, want %u", trace, a[0],
                  a[1], a[2], a[3], nd, nj, want);
    ev_proc_free(&d);
    ev_proc_free(&j);
}

START_TEST(test_ctf_dump_filters)
{
    const char *cli = ev_cli_path();
    if (cli == NULL)
        return;
    /* demo-lttng-ust: 40 tracerd:sample and 40 tracerd:tick events, all on
     * cpu 1, vpid = vtid = 27610, 1.5 ms apart in two halves */
    static const struct {
        const char *f[4];
        unsigned want;
    } ust[] = {
        {{NULL}, 80},
        {{"--name", "tracerd:tick"}, 40},
        {{"--name", "*sample"}, 40},
        {{"--name", "tracerd:[st]*", "--name", "nothing"}, 80},
        {{"--category", "ust"}, 80},
        {{"--category", "kernel"}, 0},
        {{"--cpu", "1"}, 80},
        {{"--cpu", "0"}, 0},
        {{"--tid", "27610"}, 80},
        {{"--tid", "1"}, 0},
        {{"--pid", "27610", "--name", "*tick"}, 40},
        {{"--pid", "27611"}, 0},
        {{"--end", "+3ms"}, 40},
        {{"--begin", "+3ms"}, 40},
        {{"--begin", "+3ms", "--tid", "27610"}, 40},
    };
    for (size_t i = 0; i < sizeof ust / sizeof ust[0]; i++)
        same_as_json(cli, CTF_UST, ust[i].f, ust[i].want);

    ev_proc_t p;
    /* --pid/--tid: the held record is dropped whole; kept ones are intact */
    DUMP(&p, "--tid", "27610", "--name", "tracerd:tick", CTF_UST);
    ck_assert_uint_eq(ev_count(p.out, "\"name\":\"tracerd:tick\""), 40);
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"packet\""), 2); /* structure stays */
    ck_assert_uint_eq(ev_count(p.out, "\"fields\":{\"n\":"), 40);
    ev_proc_free(&p);

    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    char kernel[512], hb[512];
    snprintf(kernel, sizeof kernel, "%s/ctf/succeed/lttng-tracefile-rotation/kernel", peer);
    snprintf(hb, sizeof hb, "%s/ctf/succeed/wk-heartbeat-u", peer);
    /* The LTTng kernel trace: 12305 events on 4 cpus in 11 packets */
    static const struct {
        const char *f[4];
        unsigned want;
    } kern[] = {
        {{NULL}, 12305},
        {{"--name", "sched_switch"}, 4687},
        {{"--name", "sched_*"}, 12305},
        {{"--cpu", "1"}, 3246},
        {{"--cpu", "0", "--cpu", "1"}, 3566 + 3246},
        {{"--category", "kernel"}, 12305},
        {{"--tid", "0"}, 0}, /* kernel events have no thread context */
        {{"--begin", "+1ms", "--end", "+2ms"}, 13},
        {{"--end", "+100us"}, 5},
        {{"--begin", "+3ms"}, 12240},
    };
    for (size_t i = 0; i < sizeof kern / sizeof kern[0]; i++)
        same_as_json(cli, kernel, kern[i].f, kern[i].want);
    /* Early stop: past --end the directory is not read on; packets outside
     * the range are left out. */
    DUMP(&p, "--end", "+100us", kernel);
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"event\""), 5);
    ck_assert_uint_lt(ev_count(p.out, "\"type\":\"packet\""), 11);
    ev_proc_free(&p);

    /* wk-heartbeat-u: 10 events on each of the threads 3214 and 3215 of
     * process 3208 */
    static const struct {
        const char *f[4];
        unsigned want;
    } heart[] = {
        {{"--tid", "3214"}, 10},
        {{"--tid", "3215", "--tid", "3214"}, 20},
        {{"--pid", "3208"}, 20},
        {{"--pid", "1"}, 0},
        {{"--tid", "3215", "--name", "*heartbeat*"}, 10},
    };
    for (size_t i = 0; i < sizeof heart / sizeof heart[0]; i++)
        same_as_json(cli, hb, heart[i].f, heart[i].want);
    DUMP(&p, "--tid", "3214", hb);
    ck_assert_uint_eq(ev_count(p.out, "\"vtid\":3214"), 10);
    ck_assert_uint_eq(ev_count(p.out, "\"vtid\":3215"), 0);
    /* the same output for every read size */
    static const char *const chunks[] = {"64", "100", "4096"};
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        ev_proc_t q;
        DUMP(&q, "--chunk", chunks[i], "--tid", "3214", hb);
        ck_assert_str_eq(q.out, p.out);
        ev_proc_free(&q);
    }
    ev_proc_free(&p);
}
END_TEST

/* Counts of each xtrace dump record type in the order: insn, mem, val,
 * syscall_vec, iov, iov_data, syscall_vec_end, allgpr, misc_flags, time,
 * iov_layout. */
static void xt_counts(const char *out, unsigned n[11])
{
    static const char *const types[] = {
        "insn",   "mem",        "val",  "syscall_vec", "iov", "iov_data", "syscall_vec_end",
        "allgpr", "misc_flags", "time", "iov_layout"};
    for (int i = 0; i < 11; i++) {
        char key[64];
        snprintf(key, sizeof key, "{\"type\":\"%s\"", types[i]);
        n[i] = ev_count(out, key);
    }
}

START_TEST(test_xtrace_dump_filters)
{
    const char *cli = ev_cli_path();
    if (cli == NULL)
        return;
    /* The stream: 53 insn, 26 mem, 6 val, 2 syscall_vec (3 iov, 2 iov_data,
     * 2 syscall_vec_end), 1 allgpr, 1 misc_flags, 1 time, 1 iov_layout. */
    static const struct {
        const char *f[4];
        unsigned n[11];
    } cases[] = {
        {{NULL}, {53, 26, 6, 2, 3, 2, 2, 1, 1, 1, 1}},
        {{"--name", "mem"}, {0, 26, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
        /* a syscall_vec's iovecs, data and end follow it */
        {{"--name", "syscall_vec"}, {0, 0, 0, 2, 3, 2, 2, 0, 0, 0, 1}},
        {{"--name", "s*"}, {0, 0, 0, 2, 3, 2, 2, 0, 0, 0, 1}},
        {{"--category", "xtrace", "--name", "time"}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}},
        /* the timeline is the instruction count; past --end the reading
         * stops (before the iov_layout decision of the first syscall_vec) */
        {{"--begin", "10", "--end", "20"}, {11, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        {{"--end", "5"}, {6, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        {{"--end", "+5ns"}, {6, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        /* no thread in this file name, no cpu in xtrace */
        {{"--tid", "4242"}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
        {{"--cpu", "0"}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
        {{"--pid", "0"}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *a[4];
        for (int k = 0; k < 4; k++)
            a[k] = cases[i].f[k] != NULL ? cases[i].f[k] : "-q";
        ev_proc_t p;
        DUMP(&p, a[0], a[1], a[2], a[3], XT_INSN);
        unsigned n[11];
        xt_counts(p.out, n);
        for (int k = 0; k < 11; k++)
            ck_assert_msg(n[k] == cases[i].n[k], "case %zu (%s %s): type %d: %u, want %u", i, a[0],
                          a[1], k, n[k], cases[i].n[k]);
        ev_proc_free(&p);
    }
    /* An exact file name gives the thread (as the event view has it). */
    FILE *in = fopen(XT_INSN, "rb");
    ck_assert_ptr_nonnull(in);
    static char buf[65536];
    size_t len = fread(buf, 1, sizeof buf, in);
    fclose(in);
    char *named = ev_temp_file("xtrace.1718000000.4242.hint9.xinsndata.bin", buf, len);
    ev_proc_t p, j;
    DUMP(&p, "--tid", "4242", "--name", "val", named);
    unsigned n[11];
    xt_counts(p.out, n);
    ck_assert_uint_eq(n[2], 6);
    ck_assert_uint_eq(n[0], 0);
    ev_proc_free(&p);
    DUMP(&p, "--tid", "4243", named);
    xt_counts(p.out, n);
    ck_assert_uint_eq(n[0] + n[1] + n[2], 0);
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &j, "json", "-q", "--tid", "4242", named, NULL);
    ck_assert_uint_gt(ev_count(j.out, "\"tid\":4242"), 0);
    ev_proc_free(&j);
    free(named);

    /* Snapshots: at their total instruction count (6000005, 8000005,
     * 10000005); registers and snapshot_end follow their snapshot. */
    DUMP(&p, "--begin", "7000000", "--end", "9000000", XT_SNAP);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"snapshot\""), 1);
    ck_assert_ptr_nonnull(strstr(p.out, "\"total_insns\":8000005"));
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"register\""), 50);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"snapshot_end\""), 1);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"header\""), 1);
    ev_proc_free(&p);
    DUMP(&p, "--end", "7000000", "--chunk", "64", XT_SNAP);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"snapshot\""), 1);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"snapshot_end\""), 1);
    ev_proc_free(&p);
    DUMP(&p, "--name", "insn", XT_SNAP);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"snapshot\""), 0);
    ck_assert_uint_eq(ev_count(p.out, "{\"type\":\"register\""), 0);
    ev_proc_free(&p);
    ev_temp_cleanup();
}
END_TEST

Suite *suite_dump_filter(void)
{
    Suite *s = suite_create("dump_filter");
    TCase *tc = tcase_create("dump_filter");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ctf_dump_filters);
    tcase_add_test(tc, test_xtrace_dump_filters);
    suite_add_tcase(s, tc);
    return s;
}
