/* The CLI's trace tools (issue 15), run as a subprocess (TRACERD_CLI, else
 * build/tracerd): filters on json and stats, balanced spans at a cut. */
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/event_support.h"
#include "support/xray_writer.h"

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

/* The XRay sample named by an instrumented binary with C++ symbols: stats,
 * as text, CSV and JSON, demangled (unless --no-demangle), sorted by each key. */
START_TEST(test_stats_formats_demangle)
{
    CLI_OR_SKIP(cli);
    static const ev_elf_sym_t syms[] = {{"_ZN2ns3Foo3runEv", 0x1000, 16, true},
                                        {"_Z4workIiEvT_", 0x1040, 16, true},
                                        {"plain_c", 0x1080, 16, true}};
    const uint64_t fn[] = {0x1000, 0x1000, 0x1040, 0x1040, 0x1080, 0x1080};
    size_t len;
    uint8_t *elf = ev_elf_write(true, false, 0x9000, fn, 6, 2, syms, 3, &len);
    char *elf_path = ev_temp_file("app", elf, len);
    free(elf);
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    char *trace = ev_temp_file("t.xray", w.buf, w.len);
    xw_free(&w);
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--instr-map", elf_path, trace, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "  ns::Foo::run()\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "  void work<int>(int)\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "names (top 20 by total time, ms):"));
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--no-demangle", "--instr-map", elf_path, trace, NULL);
    ck_assert_ptr_nonnull(strstr(p.out, "  _ZN2ns3Foo3runEv\n"));
    ev_proc_free(&p);
    /* CSV: ns columns; fn 1 (2000 ns) wraps fn 2 (2 ns): self 1998 */
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--format", "csv", "--instr-map", elf_path, trace,
               NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out,
                     "name,kind,count,total_ns,self_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns\n"
                     "ns::Foo::run(),span,1,2000,1998,2000,2000,2000,2000,2000\n"
                     "void work<int>(int),span,1,2,2,2,2,2,2,2\n"
                     "custom-event,instant,1,0,0,0,0,0,0,0\n"
                     "typed-event,instant,1,0,0,0,0,0,0,0\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--format", "csv", "--sort", "count", "--top", "1",
               "--name", "*work*", "--instr-map", elf_path, trace, NULL);
    ck_assert_str_eq(p.out, "name,kind,count,total_ns,self_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns\n"
                            "void work<int>(int),span,1,2,2,2,2,2,2,2\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--format", "json", "--sort", "p99", trace, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "\"format\":\"xray\",\"unit\":\"ns\""));
    ck_assert_ptr_nonnull(strstr(p.out, "\"sort\":\"p99\""));
    ck_assert_ptr_nonnull(
        strstr(p.out, "{\"name\":\"fn#1\",\"kind\":\"span\",\"count\":1,\"total\":2000,"
                      "\"self\":1998,\"min\":2000,\"p50\":2000,\"p90\":2000,\"p99\":2000,"
                      "\"max\":2000}"));
    ck_assert_ptr_nonnull(strstr(p.out, "\"threads\":[{\"pid\":7,\"tid\":42,"));
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stats", "--sort", "median", trace, NULL);
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "--sort median"));
    ev_proc_free(&p);
    free(elf_path);
    free(trace);
    ev_temp_cleanup();
}
END_TEST

/* Runs a shell command line; returns its standard output (malloc'd) or NULL
 * when it fails. */
static char *sh_out(const char *cmd)
{
    char *argv[] = {"/bin/sh", "-c", (char *)(uintptr_t)cmd, NULL};
    ev_proc_t p;
    ev_run_proc(argv, NULL, 60, &p);
    char *out = p.status == 0 ? p.out : NULL;
    if (out == NULL)
        free(p.out);
    free(p.err);
    return out;
}

/* stack --total --per-thread against llvm-xray stack's flame output
 * (-aggregation-type=time: inclusive time per stack) on every real XRay
 * trace llvm-xray reads: the same stacks with the same nanoseconds. */
START_TEST(test_stack_vs_llvm_xray)
{
    CLI_OR_SKIP(cli);
    if (system("command -v llvm-xray >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_stack_vs_llvm_xray: llvm-xray not found, skipped\n");
        return;
    }
    glob_t g;
    if (glob("tests/data/xray/real/*.xray", 0, NULL, &g) != 0) {
        fprintf(stderr, "test_stack_vs_llvm_xray: no real XRay traces, skipped\n");
        return;
    }
    unsigned compared = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char cmd[2048];
        /* "thread_TID;#1;#2; 1234" -> "TID;#1;#2 1234" */
        snprintf(cmd, sizeof cmd,
                 "llvm-xray stack -all-stacks -stack-format=flame -aggregation-type=time "
                 "-per-thread-stacks '%s' 2>/dev/null | sed -E 's/^thread_([0-9]+);/\\1;/; "
                 "s/;? ([0-9]+)$/ \\1/' | sort",
                 g.gl_pathv[i]);
        char *ref = sh_out(cmd);
        if (ref == NULL || ref[0] == '\0') { /* llvm-xray rejects some real traces */
            free(ref);
            continue;
        }
        /* "PID/TID;fn#1;fn#2 1234" -> "TID;#1;#2 1234" */
        snprintf(cmd, sizeof cmd,
                 "'%s' stack -q --total --per-thread '%s' | sed -E 's/^[0-9]+\\/([0-9]+);/\\1;/; "
                 "s/fn#/#/g' | sort",
                 cli, g.gl_pathv[i]);
        char *got = sh_out(cmd);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(strcmp(got, ref) == 0, "%s:\n%s\nllvm-xray:\n%s", g.gl_pathv[i], got, ref);
        compared++;
        free(ref);
        free(got);
    }
    globfree(&g);
    ck_assert_uint_ge(compared, 5);
}
END_TEST

/* Folded stacks by self and total time, merged and per thread, the heaviest
 * stacks as text, C++ names demangled, FXT duration events, filters. */
START_TEST(test_stack)
{
    CLI_OR_SKIP(cli);
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stack", "-q", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    /* self times (llvm-xray account: fn#3 total 11126, fn#2 5420, fn#1 2293) */
    ck_assert_str_eq(p.out, "fn#3 5706\nfn#3;fn#2 3127\nfn#3;fn#2;fn#1 2293\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--total", XRAY_REAL, NULL);
    ck_assert_str_eq(p.out, "fn#3 11126\nfn#3;fn#2 5420\nfn#3;fn#2;fn#1 2293\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--per-thread", "--name", "fn#[23]", XRAY_REAL, NULL);
    ck_assert_str_eq(p.out, "8865/8865;fn#3 5706\n8865/8865;fn#3;fn#2 5420\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--format", "text", "--top", "1", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "unique stacks: 3  spans: 21  "));
    ck_assert_ptr_nonnull(strstr(p.out, "#1  total 0.011126\n"));
    ck_assert_ptr_null(strstr(p.out, "#2  total"));
    ev_proc_free(&p);
    /* FXT: duration begin/end (frame) around complete events (draw) */
    ev_run_cli(cli, NULL, &p, "stack", "-q", "tests/data/fxt/demo.fxt", NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out, "frame 12000\nframe;draw 24000\n");
    ev_proc_free(&p);
    /* C++ names through --instr-map */
    static const ev_elf_sym_t syms[] = {{"_ZN2ns3Foo3runEv", 0x1000, 16, true},
                                        {"_Z4workIiEvT_", 0x1040, 16, true}};
    const uint64_t fn[] = {0x1000, 0x1000, 0x1040, 0x1040};
    size_t len;
    uint8_t *elf = ev_elf_write(true, false, 0x9000, fn, 4, 2, syms, 2, &len);
    char *elf_path = ev_temp_file("app", elf, len);
    free(elf);
    xw_t w;
    xw_init(&w, false);
    xw_sample_v5(&w);
    char *trace = ev_temp_file("t.xray", w.buf, w.len);
    xw_free(&w);
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--instr-map", elf_path, trace, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out, "ns::Foo::run() 1998\nns::Foo::run();void work<int>(int) 2\n");
    ev_proc_free(&p);
    free(elf_path);
    free(trace);
    ev_temp_cleanup();
}
END_TEST

Suite *suite_tools(void)
{
    Suite *s = suite_create("tools");
    TCase *tc = tcase_create("tools");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_filters_json_stats);
    tcase_add_test(tc, test_stats_formats_demangle);
    tcase_add_test(tc, test_stack_vs_llvm_xray);
    tcase_add_test(tc, test_stack);
    suite_add_tcase(s, tc);
    return s;
}
