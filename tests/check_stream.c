/* The streaming promises of the CLI (issue 17): usage errors for reader
 * options out of range, `stats` output before the error of a bad trace,
 * live input (a pipe that sends one small record and stays open), bounded
 * json/stats state, coalesced --lenient warnings, allocation failures in the
 * CLI's own buffers. The CLI runs as a subprocess (TRACERD_CLI, else
 * build/tracerd). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/driver.h"
#include "support/event_support.h"
#include "support/xray_writer.h"

#define CLI_OR_SKIP(cli)                                                                           \
    const char *cli = ev_cli_path();                                                               \
    if (cli == NULL) {                                                                             \
        fprintf(stderr, "%s: tracerd CLI not built (set TRACERD_CLI), skipped\n", __func__);     \
        return;                                                                                    \
    }

#define XTRACE_INSN "tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin"

/* Runs the CLI with the arguments up to NULL (stdin /dev/null). */
static void run(const char *cli, ev_proc_t *p, ...)
{
    char *argv[16] = {(char *)(uintptr_t)cli};
    int n = 1;
    va_list ap;
    va_start(ap, p);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && n < 15)
        argv[n++] = (char *)(uintptr_t)a;
    va_end(ap);
    argv[n] = NULL;
    ev_run_proc(argv, NULL, 60, p);
}

/* Out-of-range -o xtrace.* values are usage errors naming -o, for every
 * command, before any input is read; from TRACERD_XTRACE they name it. */
START_TEST(test_xtrace_option_range)
{
    CLI_OR_SKIP(cli);
    static const char *const cmds[] = {"info", "dump", "json", "stats"};
    static const char *const opts[] = {"xtrace.time=99", "xtrace.header=7", "xtrace.mem_log2=99"};
    ev_proc_t p;
    unsetenv("TRACERD_XTRACE");
    for (size_t i = 0; i < 4; i++) {
        for (size_t k = 0; k < 3; k++) {
            run(cli, &p, cmds[i], "-q", "-o", opts[k], XTRACE_INSN, NULL);
            ck_assert_msg(p.status == 2, "%s -o %s: exit %d", cmds[i], opts[k], p.status);
            ck_assert_str_eq(p.err, "tracerd: -o xtrace.*: a value is out of range "
                                    "(doc/tracerd.1, READER OPTIONS)\n");
            ck_assert_uint_eq(p.out_len, 0);
            ev_proc_free(&p);
        }
    }
    setenv("TRACERD_XTRACE", "time=99", 1);
    run(cli, &p, "dump", "-q", XTRACE_INSN, NULL);
    ck_assert_int_eq(p.status, 2);
    ck_assert_ptr_nonnull(strstr(p.err, "tracerd: TRACERD_XTRACE: a value is out of range"));
    ev_proc_free(&p);
    unsetenv("TRACERD_XTRACE");
    /* in range: read as before */
    run(cli, &p, "dump", "-q", "-o", "xtrace.time=8", XTRACE_INSN, NULL);
    ck_assert_int_eq(p.status, 0);
    ev_proc_free(&p);
}
END_TEST

/* A trace cut inside a record: stats prints what it read, then the error. */
START_TEST(test_stats_then_error)
{
    CLI_OR_SKIP(cli);
    FILE *f = fopen("tests/data/xray/demo-fdr.xray", "rb");
    ck_assert_ptr_nonnull(f);
    uint8_t buf[200];
    ck_assert_uint_eq(fread(buf, 1, sizeof buf, f), sizeof buf);
    fclose(f);
    char *path = ev_temp_file("cut.xray", buf, sizeof buf);
    ev_proc_t p;
    run(cli, &p, "stats", "-q", path, NULL);
    ck_assert_int_eq(p.status, 1);
    ck_assert_ptr_nonnull(strstr(p.out, "events: 10  spans: 4  threads: 1  names: 2\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "fn#2\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "(incomplete: the trace ends in an error)\n"));
    ck_assert_ptr_nonnull(strstr(p.err, "xray error E_TRUNCATED at byte 32"));
    ev_proc_free(&p);
    free(path);
    ev_temp_cleanup();
}
END_TEST

Suite *suite_stream(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("stream");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_xtrace_option_range);
    tcase_add_test(tc, test_stats_then_error);
    suite_add_tcase(s, tc);
    return s;
}
