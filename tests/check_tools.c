/* The CLI's trace tools (issue 15), run as a subprocess (TRACERD_CLI, else
 * build/tracerd): filters on json and stats, balanced spans at a cut. */
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/event_support.h"
#include "support/fxt_writer.h"
#include "support/xray_writer.h"

#define XRAY_REAL "tests/data/event/xray_fdr_real.xray"
#define CTF_DIR "tests/data/ctf/demo-lttng-ust"
#define XTRACE_INSN "tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin"

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
    unsigned all_b = ev_count(p.out, "\"ph\":\"B\"");
    ck_assert_uint_eq(all_b, 21);
    ck_assert_uint_eq(ev_count(p.out, "\"ph\":\"E\""), 21);
    ev_proc_free(&p);
    unsigned prev = 0;
    static const char *const ends[] = {"+1us", "+20us", "+200us", "+2ms", "+1s"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        ev_run_cli(cli, NULL, &p, "json", "-q", "--end", ends[i], XRAY_REAL, NULL);
        ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
        unsigned b = ev_count(p.out, "\"ph\":\"B\""), e = ev_count(p.out, "\"ph\":\"E\"");
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
    ck_assert_uint_eq(ev_count(p.out, "\"ph\":\"B\""), ev_count(p.out, "\"ph\":\"E\""));
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
    ck_assert_uint_eq(ev_count(p.out, "\"ph\":"), 0);
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
    char *elf_path = ev_cpp_instr_map();
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
    /* dump: --instr-map names (raw and demangled), the filters */
    ev_run_cli(cli, NULL, &p, "dump", "-q", "--instr-map", elf_path, trace, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(
        strstr(p.out, ",\"name\":\"_ZN2ns3Foo3runEv\",\"demangled\":\"ns::Foo::run()\""));
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"function\""), 5);
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "dump", "-q", "--name", "*work*", "--instr-map", elf_path, trace,
               NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"function\""), 2);
    ck_assert_uint_eq(ev_count(p.out, "\"name\":\"_Z4workIiEvT_\""), 2);
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"event\""), 0);
    ck_assert_ptr_nonnull(strstr(p.out, "\"type\":\"header\"")); /* structure stays */
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "dump", "-q", "--begin", "2501", "--cpu", "3", trace, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"function\""), 0); /* ns 2500 and 4500 (cpu 1) */
    ck_assert_uint_eq(ev_count(p.out, "\"type\":\"event\""), 2);    /* 2501, 2502 */
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stats", "--sort", "median", trace, NULL);
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "--sort median"));
    ev_proc_free(&p);
    /* FXT dump: event and log records filtered, the others written */
    ev_run_cli(cli, NULL, &p, "dump", "-q", "--name", "draw", "tests/data/fxt/demo.fxt", NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_uint_eq(ev_count(p.out, "\"record\":\"event\""), 6);
    ck_assert_uint_eq(ev_count(p.out, "\"record\":\"log\""), 0);
    ck_assert_uint_eq(ev_count(p.out, "\"record\":\"string\""), 8);
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "dump", "-q", "--end", "+5ms", "tests/data/fxt/demo.fxt", NULL);
    ck_assert_uint_eq(ev_count(p.out, "\"record\":\"event\""), 5); /* the first frame */
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "dump", "-q", "--begin", "+50ms", "tests/data/fxt/demo.fxt", NULL);
    ck_assert_uint_eq(ev_count(p.out, "\"record\":\"event\""), 0);
    ck_assert_uint_eq(ev_count(p.out, "\"record\":\"log\""), 1);
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

/* The folded stacks of trace `path` with the options opt1 and opt2 (NULL:
 * none): exactly the lines of want (in any order), and the same output for
 * every read size. */
static void stack_expect(const char *cli, const char *path, const char *opt1, const char *opt2,
                         const char *const *want, size_t nwant)
{
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stack", "-q", path, opt1, opt2, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    for (size_t i = 0; i < nwant; i++) {
        char line[256];
        snprintf(line, sizeof line, "%s\n", want[i]);
        bool first = strncmp(p.out, line, strlen(line)) == 0;
        snprintf(line, sizeof line, "\n%s\n", want[i]);
        ck_assert_msg(first || strstr(p.out, line) != NULL, "no line %s in:\n%s", want[i], p.out);
    }
    ck_assert_msg(ev_count(p.out, "\n") == nwant, "%zu lines wanted:\n%s", nwant, p.out);
    static const char *const chunks[] = {"1", "7", "16", "100", "4096"};
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        ev_proc_t q;
        ev_run_cli(cli, NULL, &q, "stack", "-q", "--chunk", chunks[i], path, opt1, opt2, NULL);
        ck_assert_msg(q.status == 0, "exit %d: %s", q.status, q.err);
        ck_assert_msg(strcmp(q.out, p.out) == 0, "--chunk %s:\n%s\nbut:\n%s", chunks[i], q.out,
                      p.out);
        ev_proc_free(&q);
    }
    ev_proc_free(&p);
}

/* FXT duration complete events that hold each other, written when they end
 * (children first, as FXT writers do) or when they begin (parent first),
 * inside and outside begin/end spans, on two threads; ticks are ns. */
static void stack_fxt_nested(const char *cli)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_thread(&w, 1, 10, 11);
    fxw_thread(&w, 2, 10, 12);
#define FXC(th, name, b, e) fxw_event(&w, 4, FXT_IDX(th), FXS_IDX(1), FXS_INL(name), b, NULL, 0, e)
    /* thread 11, at the top: a [1000,1100] holds b [1010,1020] and
     * c [1030,1050], c holds d [1035,1040]; written as they end */
    FXC(1, "b", 1010, 1020);
    FXC(1, "d", 1035, 1040);
    FXC(1, "c", 1030, 1050);
    FXC(1, "a", 1000, 1100);
    /* a sibling after a: not adopted */
    FXC(1, "e", 1200, 1210);
    /* thread 12: inside the begin/end span "outer" [100,200], "mid"
     * [105,130] holds "leaf" [110,120] (children first), then "p"
     * [140,190] holds "q" [150,160] which holds "r" [152,154], written as
     * they begin (parent first) */
    fxw_event(&w, 2, FXT_IDX(2), FXS_IDX(1), FXS_INL("outer"), 100, NULL, 0, 0);
    FXC(2, "leaf", 110, 120);
    FXC(2, "mid", 105, 130);
    FXC(2, "p", 140, 190);
    FXC(2, "q", 150, 160);
    FXC(2, "r", 152, 154);
    fxw_event(&w, 3, FXT_IDX(2), FXS_IDX(1), FXS_INL("outer"), 200, NULL, 0, 0);
#undef FXC
    size_t len;
    uint8_t *buf = fxw_take(&w, &len);
    char *path = ev_temp_file("nested.fxt", buf, len);
    free(buf);
    fxw_free(&w);
    static const char *const want[] = {
        "a 70",        "a;b 10",       "a;c 15",           "a;c;d 5",
        "e 10",        "outer 25",     "outer;mid 15",     "outer;mid;leaf 10",
        "outer;p 40",  "outer;p;q 8",  "outer;p;q;r 2"};
    stack_expect(cli, path, NULL, NULL, want, sizeof want / sizeof want[0]);
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--total", "--per-thread", path, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "10/11;a 100\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "10/11;a;c;d 5\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "10/12;outer 100\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "10/12;outer;p;q 10\n"));
    ev_proc_free(&p);
    free(path);
}

/* Begin/end spans inside complete spans: a complete span written after
 * the begin/end spans it holds (FXT: when its scope ends) at the top of a
 * thread and inside a begin/end span, begin/end spans under complete spans
 * written first (parent first), three deep. */
static void stack_fxt_mixed(const char *cli)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_thread(&w, 1, 20, 21);
    fxw_thread(&w, 2, 20, 22);
#define FXC(th, name, b, e) fxw_event(&w, 4, FXT_IDX(th), FXS_IDX(1), FXS_INL(name), b, NULL, 0, e)
#define FXB(th, name, t) fxw_event(&w, 2, FXT_IDX(th), FXS_IDX(1), FXS_INL(name), t, NULL, 0, 0)
#define FXE(th, name, t) fxw_event(&w, 3, FXT_IDX(th), FXS_IDX(1), FXS_INL(name), t, NULL, 0, 0)
    /* thread 21: K [800,1300] (written last) holds top [900,1200]; in top,
     * C [1000,1100] (written after them) holds x [1010,1030] (holding y
     * [1015,1020]) and z [1040,1090] (holding w [1050,1060]); D
     * [1110,1150] (written first) holds u [1120,1130] */
    FXB(1, "top", 900);
    FXB(1, "x", 1010);
    FXC(1, "y", 1015, 1020);
    FXE(1, "x", 1030);
    FXB(1, "z", 1040);
    FXB(1, "w", 1050);
    FXE(1, "w", 1060);
    FXE(1, "z", 1090);
    FXC(1, "C", 1000, 1100);
    FXC(1, "D", 1110, 1150);
    FXB(1, "u", 1120);
    FXE(1, "u", 1130);
    FXE(1, "top", 1200);
    FXC(1, "K", 800, 1300);
    /* thread 22, parent first: P [100,200] holds Q [110,190], which holds
     * m [120,150] (holding n [125,130]) and then R [160,170] */
    FXC(2, "P", 100, 200);
    FXC(2, "Q", 110, 190);
    FXB(2, "m", 120);
    FXC(2, "n", 125, 130);
    FXE(2, "m", 150);
    FXC(2, "R", 160, 170);
#undef FXB
#undef FXE
#undef FXC
    size_t len;
    uint8_t *buf = fxw_take(&w, &len);
    char *path = ev_temp_file("mixed.fxt", buf, len);
    free(buf);
    fxw_free(&w);
    static const char *const self[] = {
        "K 200",         "K;top 160",   "K;top;C 30", "K;top;C;x 15",  "K;top;C;x;y 5",
        "K;top;C;z 40",  "K;top;C;z;w 10", "K;top;D 30", "K;top;D;u 10", "P 20",
        "P;Q 40",        "P;Q;m 25",    "P;Q;m;n 5",  "P;Q;R 10"};
    stack_expect(cli, path, NULL, NULL, self, sizeof self / sizeof self[0]);
    static const char *const total[] = {
        "20/21;K 500",         "20/21;K;top 300",     "20/21;K;top;C 100",
        "20/21;K;top;C;x 20",  "20/21;K;top;C;x;y 5", "20/21;K;top;C;z 50",
        "20/21;K;top;C;z;w 10", "20/21;K;top;D 40",   "20/21;K;top;D;u 10",
        "20/22;P 100",         "20/22;P;Q 80",        "20/22;P;Q;m 30",
        "20/22;P;Q;m;n 5",     "20/22;P;Q;R 10"};
    stack_expect(cli, path, "--total", "--per-thread", total, sizeof total / sizeof total[0]);
    free(path);
}

/* More spans wait inside an open begin/end span than a thread may hold
 * (16384): they are added as they stand under it, whose stack is fixed
 * then; self and total times stay exact. main [0, 10^6] holds 20000 f
 * [k*40+10, k*40+30], each holding a complete g [k*40+12, k*40+17]. */
static void stack_fxt_many(const char *cli)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_string(&w, 2, "main");
    fxw_string(&w, 3, "f");
    fxw_string(&w, 4, "g");
    fxw_thread(&w, 1, 30, 31);
    fxw_event(&w, 2, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 0, NULL, 0, 0);
    for (uint64_t k = 0; k < 20000; k++) {
        fxw_event(&w, 2, FXT_IDX(1), FXS_IDX(1), FXS_IDX(3), k * 40 + 10, NULL, 0, 0);
        fxw_event(&w, 4, FXT_IDX(1), FXS_IDX(1), FXS_IDX(4), k * 40 + 12, NULL, 0, k * 40 + 17);
        fxw_event(&w, 3, FXT_IDX(1), FXS_IDX(1), FXS_IDX(3), k * 40 + 30, NULL, 0, 0);
    }
    fxw_event(&w, 3, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 1000000, NULL, 0, 0);
    size_t len;
    uint8_t *buf = fxw_take(&w, &len);
    char *path = ev_temp_file("many.fxt", buf, len);
    free(buf);
    fxw_free(&w);
    /* main: 10^6 - 20000 * 20; f: 20000 * (20 - 5); g: 20000 * 5 */
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stack", "-q", path, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out, "main 600000\nmain;f 300000\nmain;f;g 100000\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--total", "--format", "text", path, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "unique stacks: 3  spans: 40001  "));
    ev_proc_free(&p);
    free(path);
}

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
    stack_fxt_nested(cli);
    stack_fxt_mixed(cli);
    stack_fxt_many(cli);
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

/* ---- a small protobuf decoder for the perfetto output ----------------------- */

struct pf_counts {
    unsigned packets, descriptors, interned, ftrace, sched_switch, sched_wakeup;
    unsigned type[5]; /* TrackEvent.type: 1 begin, 2 end, 3 instant, 4 counter */
};

static bool pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* Next field of [*p, end): its number, wire type, varint value or bytes. */
static bool pb_field(const uint8_t **p, const uint8_t *end, unsigned *field, uint64_t *v,
                     const uint8_t **data, size_t *len)
{
    uint64_t key;
    if (!pb_varint(p, end, &key))
        return false;
    *field = (unsigned)(key >> 3);
    switch (key & 7) {
    case 0:
        *len = 0;
        return pb_varint(p, end, v);
    case 1:
        if (end - *p < 8)
            return false;
        *p += 8;
        *len = 0;
        return true;
    case 2:
        if (!pb_varint(p, end, v) || *v > (uint64_t)(end - *p))
            return false;
        *data = *p;
        *len = (size_t)*v;
        *p += *len;
        return true;
    case 5:
        if (end - *p < 4)
            return false;
        *p += 4;
        *len = 0;
        return true;
    }
    return false;
}

/* Decodes a whole Trace; fails the test on malformed bytes. */
static void pf_decode(const uint8_t *buf, size_t n, struct pf_counts *c)
{
    memset(c, 0, sizeof *c);
    const uint8_t *p = buf, *end = buf + n;
    while (p < end) {
        unsigned f;
        uint64_t v;
        const uint8_t *pk = NULL;
        size_t pl;
        ck_assert(pb_field(&p, end, &f, &v, &pk, &pl));
        ck_assert_uint_eq(f, 1); /* Trace.packet */
        c->packets++;
        const uint8_t *q = pk, *qe = pk + pl;
        while (q < qe) {
            const uint8_t *d = NULL;
            size_t dl;
            ck_assert(pb_field(&q, qe, &f, &v, &d, &dl));
            if (f == 60)
                c->descriptors++;
            else if (f == 12)
                c->interned++;
            else if (f == 11 || f == 1) { /* TrackEvent, FtraceEventBundle */
                const uint8_t *r = d, *re = d + dl;
                while (r < re) {
                    unsigned g;
                    const uint8_t *e = NULL;
                    size_t el;
                    ck_assert(pb_field(&r, re, &g, &v, &e, &el));
                    if (f == 11 && g == 9 && v < 5)
                        c->type[v]++;
                    if (f == 1 && g == 2) { /* FtraceEvent */
                        c->ftrace++;
                        const uint8_t *s = e, *se = e + el;
                        while (s < se) {
                            const uint8_t *x;
                            size_t xl;
                            ck_assert(pb_field(&s, se, &g, &v, &x, &xl));
                            c->sched_switch += g == 4;
                            c->sched_wakeup += g == 17;
                        }
                    }
                }
            }
        }
    }
}

/* A small FXT trace with spans, a counter, a flow, context switches and a wakeup. */
static char *write_fxt_sched(void)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_thread(&w, 1, 10, 11);
    fxw_thread(&w, 2, 10, 12);
    fxw_event(&w, 2, FXT_IDX(1), FXS_IDX(1), FXS_INL("outer"), 100, NULL, 0, 0);
    fxw_event(&w, 2, FXT_IDX(1), FXS_IDX(1), FXS_INL("inner"), 110, NULL, 0, 0);
    fxw_event(&w, 8, FXT_IDX(1), FXS_IDX(1), FXS_INL("flow"), 115, NULL, 0, 5); /* flow begin */
    fxw_event(&w, 3, FXT_IDX(1), FXS_IDX(1), FXS_INL("inner"), 120, NULL, 0, 0);
    fxw_arg_t c[] = {FXA_U64(FXS_INL("v"), 42)};
    fxw_event(&w, 1, FXT_IDX(1), FXS_IDX(1), FXS_INL("ctr"), 125, c, 1, 9);
    fxw_context_switch(&w, 1, 2, 130, 11, 12, NULL, 0);
    fxw_wakeup(&w, 0, 135, 11, NULL, 0);
    fxw_event(&w, 10, FXT_IDX(2), FXS_IDX(1), FXS_INL("flow"), 140, NULL, 0, 5); /* flow end */
    fxw_context_switch(&w, 1, 0, 150, 12, 11, NULL, 0);
    fxw_event(&w, 3, FXT_IDX(1), FXS_IDX(1), FXS_INL("outer"), 160, NULL, 0, 0);
    size_t len;
    uint8_t *buf = fxw_take(&w, &len);
    char *path = ev_temp_file("sched.fxt", buf, len);
    free(buf);
    fxw_free(&w);
    return path;
}

/* A line of protoc's text output that is a bare field number (a field the
 * schema does not know, or one of another wire type)? */
static bool pf_unknown_field(const char *text)
{
    for (const char *l = text; *l != '\0';) {
        const char *q = l;
        while (*q == ' ')
            q++;
        const char *d = q;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q > d && (*q == ':' || *q == ' '))
            return true;
        const char *nl = strchr(l, '\n');
        if (nl == NULL)
            break;
        l = nl + 1;
    }
    return false;
}

/* The output decoded by protoc against the messages' schema, typed
 * (tests/data/perfetto/tracerd_perfetto.proto, the fields tracerd writes
 * as Perfetto's schema has them; TRACERD_PERFETTO_PROTO names another, e.g.
 * Perfetto's own protos/perfetto/trace/perfetto_trace.proto): every field
 * known with its wire type, the counts as the raw decoder's. */
static void pf_protoc_check(const char *trace, const ev_proc_t *p, const struct pf_counts *c,
                            bool flows)
{
    const char *proto = getenv("TRACERD_PERFETTO_PROTO");
    if (proto == NULL || *proto == '\0')
        proto = "tests/data/perfetto/tracerd_perfetto.proto";
    char dir[512];
    const char *slash = strrchr(proto, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - proto) : 1, slash ? proto : ".");
    char *in = ev_temp_file("out.pftrace", p->out, p->out_len);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "protoc --proto_path='%s' --decode=perfetto.protos.Trace '%s' < '%s'",
             dir, slash ? slash + 1 : proto, in);
    char *text = sh_out(cmd);
    ck_assert_msg(text != NULL, "%s: %s failed", trace, cmd);
    ck_assert_msg(!pf_unknown_field(text), "%s: a field unknown to %s", trace, proto);
    ck_assert_uint_eq(ev_count(text, "type: TYPE_SLICE_BEGIN\n"), c->type[1]);
    ck_assert_uint_eq(ev_count(text, "type: TYPE_SLICE_END\n"), c->type[2]);
    ck_assert_uint_eq(ev_count(text, "type: TYPE_INSTANT\n"), c->type[3]);
    ck_assert_uint_eq(ev_count(text, "type: TYPE_COUNTER\n"), c->type[4]);
    ck_assert_uint_eq(ev_count(text, "sched_switch {"), c->sched_switch);
    ck_assert_uint_eq(ev_count(text, "sched_wakeup {"), c->sched_wakeup);
    ck_assert_uint_eq(ev_count(text, "\npacket {"), c->packets - 1);
    if (flows) { /* fixed64 flow ids, the same id at both ends */
        ck_assert_ptr_nonnull(strstr(text, "  flow_ids: 5\n"));
        ck_assert_ptr_nonnull(strstr(text, "  terminating_flow_ids: 5\n"));
        ck_assert_ptr_nonnull(strstr(text, "  counter {\n"));
        ck_assert_ptr_nonnull(strstr(text, "counter_value: 42\n"));
        /* Zircon's suspended (2) as Linux's stopped (4), which Perfetto shows as T */
        ck_assert_ptr_nonnull(strstr(text, "prev_state: 4\n"));
    }
    free(text);
    free(in);
}

/* perfetto: decoded (by a decoder here, and typed by protoc when
 * installed), its event counts equal to the json output's of the same
 * trace. */
START_TEST(test_perfetto)
{
    CLI_OR_SKIP(cli);
    char *fxt = write_fxt_sched();
    const char *peer = drv_peer_dir();
    char kernel[512] = "";
    if (peer != NULL)
        snprintf(kernel, sizeof kernel, "%s/ctf/succeed/lttng-tracefile-rotation/kernel", peer);
    const char *traces[] = {XRAY_REAL, "tests/data/fxt/demo.fxt", CTF_DIR, fxt, kernel};
    bool have_protoc = system("command -v protoc >/dev/null 2>&1") == 0;
    if (!have_protoc)
        fprintf(stderr, "test_perfetto: protoc not found, typed decoding skipped\n");
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        if (traces[i][0] == '\0')
            continue;
        ev_proc_t p, j;
        ev_run_cli(cli, NULL, &p, "perfetto", "-q", traces[i], NULL);
        ck_assert_msg(p.status == 0, "%s: exit %d: %s", traces[i], p.status, p.err);
        ev_run_cli(cli, NULL, &j, "json", "-q", traces[i], NULL);
        ck_assert_msg(j.status == 0, "%s: exit %d: %s", traces[i], j.status, j.err);
        struct pf_counts c;
        pf_decode((const uint8_t *)p.out, p.out_len, &c);
        unsigned sched = ev_count(j.out, "\"name\":\"context_switch\"") +
                         ev_count(j.out, "\"name\":\"wakeup\"") +
                         ev_count(j.out, "\"name\":\"sched_switch\"") +
                         ev_count(j.out, "\"name\":\"sched_wakeup\"");
        unsigned x = ev_count(j.out, "\"ph\":\"X\"");
        ck_assert_msg(c.type[1] == ev_count(j.out, "\"ph\":\"B\"") + x +
                                        ev_count(j.out, "\"ph\":\"b\""),
                      "%s: %u slice begins", traces[i], c.type[1]);
        ck_assert_msg(c.type[2] == ev_count(j.out, "\"ph\":\"E\"") + x +
                                        ev_count(j.out, "\"ph\":\"e\""),
                      "%s: %u slice ends", traces[i], c.type[2]);
        ck_assert_msg(c.type[3] + c.ftrace ==
                          ev_count(j.out, "\"ph\":\"i\"") + ev_count(j.out, "\"ph\":\"n\"") +
                              ev_count(j.out, "\"ph\":\"s\"") + ev_count(j.out, "\"ph\":\"t\"") +
                              ev_count(j.out, "\"ph\":\"f\""),
                      "%s: %u instants + %u ftrace events", traces[i], c.type[3], c.ftrace);
        ck_assert_uint_eq(c.ftrace, sched);
        ck_assert_uint_ge(c.type[4], ev_count(j.out, "\"ph\":\"C\""));
        ck_assert_uint_ge(c.descriptors, 2);
        if (have_protoc)
            pf_protoc_check(traces[i], &p, &c, i == 3);
        if (i == 3) { /* the FXT scheduling sample */
            ck_assert_uint_eq(c.sched_switch, 2);
            ck_assert_uint_eq(c.sched_wakeup, 1);
            ck_assert_uint_eq(c.type[4], 1);
        }
        if (i == 4)
            ck_assert_uint_gt(c.sched_switch, 1000);
        ev_proc_free(&p);
        ev_proc_free(&j);
    }
    /* a cut keeps begins and ends balanced; filters apply */
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "perfetto", "-q", "--end", "+3us", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    struct pf_counts c;
    pf_decode((const uint8_t *)p.out, p.out_len, &c);
    ck_assert_uint_eq(c.type[1], c.type[2]);
    ck_assert_uint_lt(c.type[1], 21);
    ck_assert_uint_gt(c.type[1], 0);
    ev_proc_free(&p);
    free(fxt);
    ev_temp_cleanup();
}
END_TEST

/* info --json: the same keys, in the same order, for every format. */
START_TEST(test_info_json)
{
    CLI_OR_SKIP(cli);
    static const char *const traces[] = {XRAY_REAL, "tests/data/fxt/demo.fxt", CTF_DIR,
                                         XTRACE_INSN};
    static const char *const keys[] = {
        "{\"trace\":",        ",\"format\":",       ",\"version\":",
        ",\"byte_order\":",   ",\"ticks_per_second\":", ",\"time_unit\":",
        ",\"time_begin\":",   ",\"time_end\":",     ",\"time_span_ns\":",
        ",\"events\":",       ",\"events_without_time\":", ",\"processes\":",
        ",\"threads\":",      ",\"cpus\":",         ",\"counts\":{\"span-begin\":"};
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "info", "--json", "-q", traces[i], NULL);
        ck_assert_msg(p.status == 0, "%s: exit %d: %s", traces[i], p.status, p.err);
        const char *at = p.out;
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            const char *q = strstr(at, keys[k]);
            ck_assert_msg(q != NULL, "%s: key %s missing or out of order", traces[i], keys[k]);
            at = q + 1;
        }
        ck_assert_uint_eq(ev_count(p.out, "\n"), 1);
        ev_proc_free(&p);
    }
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "info", "--format", "json", XRAY_REAL, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    /* llvm-xray account: 21 calls over 11126 ns */
    ck_assert_ptr_nonnull(strstr(p.out, "\"format\":\"xray\",\"version\":5,\"byte_order\":"
                                        "\"little\",\"ticks_per_second\":1000000000,"
                                        "\"time_unit\":\"ns\""));
    ck_assert_ptr_nonnull(strstr(p.out, "\"time_span_ns\":11126,\"events\":42,"));
    ck_assert_ptr_nonnull(strstr(p.out, "\"span-begin\":21,\"span-end\":21,"));
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "info", "--json", "--format", "fxt", "tests/data/fxt/demo.fxt", NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "\"counter\":3,"));
    ck_assert_ptr_nonnull(strstr(p.out, "\"events_without_time\":2,"));
    ev_proc_free(&p);
}
END_TEST

/* LTTng-UST function entry/exit events (instants in CTF) give spans with
 * durations in stats, stack and perfetto. */
START_TEST(test_lttng_functions)
{
    CLI_OR_SKIP(cli);
    uint8_t buf[256];
    size_t len = ev_lttng_func_stream(buf);
    char *meta = ev_temp_file("metadata", ev_lttng_func_metadata, strlen(ev_lttng_func_metadata));
    char *stream = ev_temp_file("chan_0", buf, len);
    ev_proc_t p;
    ev_run_cli(cli, NULL, &p, "stats", "-q", "--format", "csv", ev_temp_dir(), NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out, "name,kind,count,total_ns,self_ns,min_ns,p50_ns,p90_ns,p99_ns,max_ns\n"
                            "ust/0x401000,span,1,500,500,500,500,500,500,500\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "stack", "-q", "--per-thread", ev_temp_dir(), NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out, "7/77;0x401000 500\n");
    ev_proc_free(&p);
    ev_run_cli(cli, NULL, &p, "perfetto", "-q", ev_temp_dir(), NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    struct pf_counts c;
    pf_decode((const uint8_t *)p.out, p.out_len, &c);
    ck_assert_uint_eq(c.type[1], 1);
    ck_assert_uint_eq(c.type[2], 1);
    ev_proc_free(&p);
    free(meta);
    free(stream);
    ev_temp_cleanup();
}
END_TEST

Suite *suite_tools(void)
{
    Suite *s = suite_create("tools");
    TCase *tc = tcase_create("tools");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_filters_json_stats);
    tcase_add_test(tc, test_stats_formats_demangle);
    tcase_add_test(tc, test_stack_vs_llvm_xray);
    tcase_add_test(tc, test_stack);
    tcase_add_test(tc, test_perfetto);
    tcase_add_test(tc, test_info_json);
    tcase_add_test(tc, test_lttng_functions);
    suite_add_tcase(s, tc);
    return s;
}
