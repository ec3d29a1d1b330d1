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
#include "support/fxt_writer.h"
#include "support/xray_writer.h"

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
    static const char *const cmds[] = {"info", "dump", "json", "stats", "stack"};
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

/* ---- live input ----------------------------------------------------------- */

typedef struct live {
    pid_t pid;
    int in, out; /* our ends: the CLI's standard input and output */
    char got[65536];
    size_t len;
} live_t;

/* Starts the CLI with pipes for standard input and output (stderr: /dev/null). */
static void live_start(live_t *l, char *const argv[])
{
    memset(l, 0, sizeof *l);
    int pi[2], po[2];
    ck_assert_int_eq(pipe(pi), 0);
    ck_assert_int_eq(pipe(po), 0);
    l->pid = fork();
    ck_assert_int_ge(l->pid, 0);
    if (l->pid == 0) {
        dup2(pi[0], 0);
        dup2(po[1], 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        close(pi[1]);
        close(po[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pi[0]);
    close(po[1]);
    l->in = pi[1];
    l->out = po[0];
    signal(SIGPIPE, SIG_IGN);
}

static void live_send(live_t *l, const void *data, size_t len)
{
    ck_assert_int_eq(write(l->in, data, len), (ssize_t)len);
}

/* Waits (at most 10 s) until the output contains want; the input stays open. */
static bool live_wait(live_t *l, const char *want)
{
    time_t deadline = time(NULL) + 10;
    while (time(NULL) <= deadline) {
        l->got[l->len] = '\0';
        if (strstr(l->got, want) != NULL)
            return true;
        struct pollfd pf = {l->out, POLLIN, 0};
        if (poll(&pf, 1, 100) > 0) {
            ssize_t n = read(l->out, l->got + l->len, sizeof l->got - 1 - l->len);
            if (n <= 0)
                return strstr(l->got, want) != NULL;
            l->len += (size_t)n;
        }
    }
    return false;
}

/* Closes the input, reads the rest and returns the exit status. */
static int live_end(live_t *l)
{
    close(l->in);
    while (live_wait(l, "\x01never\x01"))
        ;
    close(l->out);
    int st = 0;
    while (waitpid(l->pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A live stream (a pipe that stays open) sends one small record: every
 * command shows it at once, with or without --format; nothing waits for
 * more input (before: 4096 bytes of head, then a 64 KiB output buffer). */
START_TEST(test_live_pipe)
{
    CLI_OR_SKIP(cli);
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("live1"), 100, NULL, 0, 0);
    size_t first = w.len; /* 56 bytes: less than the 64 of detection */
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("live2"), 200, NULL, 0, 0);
    ck_assert_uint_lt(first, 64);
    static const char *const cmds[][4] = {
        {"dump", "-", NULL, NULL},
        {"dump", "--format", "fxt", "-"},
        {"json", "-", NULL, NULL},
        {"json", "--format", "fxt", "-"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *argv[8] = {(char *)(uintptr_t)cli, (char *)(uintptr_t) "-q"};
        int n = 2;
        for (int k = 0; k < 4 && cmds[i][k] != NULL; k++)
            argv[n++] = (char *)(uintptr_t)cmds[i][k];
        argv[n] = NULL;
        live_t l;
        live_start(&l, argv);
        live_send(&l, w.buf, first);
        ck_assert_msg(live_wait(&l, "live1"), "%s %s: the first record is not shown at once",
                      cmds[i][0], cmds[i][1]);
        live_send(&l, w.buf + first, w.len - first);
        ck_assert_msg(live_wait(&l, "live2"), "%s %s: the second record is not shown at once",
                      cmds[i][0], cmds[i][1]);
        ck_assert_int_eq(live_end(&l), 0);
    }
    fxw_free(&w);
}
END_TEST

/* --lenient: consecutive skips of the same kind are one warning with a
 * count, in its place in a dump; --quiet silences the standard-error lines. */
START_TEST(test_lenient_coalesced)
{
    CLI_OR_SKIP(cli);
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("first"), 100, NULL, 0, 0);
    size_t run1 = w.len;
    for (int i = 0; i < 10; i++)
        fxw_word(&w, 0); /* 10 records of size 0: skipped 8 bytes each */
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("second"), 200, NULL, 0, 0);
    size_t run2 = w.len;
    fxw_word(&w, 0);
    fxw_word(&w, 0);
    fxw_event(&w, 0, FXT_INL(7, 8), FXS_INL("cat"), FXS_INL("third"), 300, NULL, 0, 0);
    char *path = ev_temp_file("zeros.fxt", w.buf, w.len);
    ev_proc_t p;
    run(cli, &p, "dump", "--lenient", path, NULL);
    ck_assert_int_eq(p.status, 0);
    char want[512];
    snprintf(want, sizeof want,
             "\"name\":\"first\",\"args\":[]}\n"
             "{\"record\":\"warning\",\"offset\":%zu,\"status\":\"E_BAD_RECORD\","
             "\"skipped_bytes\":80,\"reason\":\"metadata record: size is 0\",\"count\":10}\n"
             "{\"record\":\"event\",\"offset\":%zu,",
             run1, run1 + 80);
    ck_assert_msg(strstr(p.out, want) != NULL, "dump:\n%s", p.out);
    snprintf(want, sizeof want,
             "{\"record\":\"warning\",\"offset\":%zu,\"status\":\"E_BAD_RECORD\","
             "\"skipped_bytes\":16,\"reason\":\"metadata record: size is 0\",\"count\":2}\n"
             "{\"record\":\"event\",\"offset\":%zu,",
             run2, run2 + 16);
    ck_assert_msg(strstr(p.out, want) != NULL, "dump:\n%s", p.out);
    ev_proc_free(&p);
    static const char *const cmds[] = {"info", "json", "stats"};
    for (size_t i = 0; i < 3; i++) {
        run(cli, &p, cmds[i], "--lenient", path, NULL);
        ck_assert_int_eq(p.status, 0);
        snprintf(want, sizeof want,
                 "warning E_BAD_RECORD at byte %zu: metadata record: size is 0 (10 times, 80 "
                 "bytes skipped up to byte %zu)\n",
                 run1, run1 + 80);
        ck_assert_msg(strstr(p.err, want) != NULL, "%s stderr:\n%s", cmds[i], p.err);
        snprintf(want, sizeof want,
                 "warning E_BAD_RECORD at byte %zu: metadata record: size is 0 (2 times, 16 "
                 "bytes skipped up to byte %zu)\n",
                 run2, run2 + 16);
        ck_assert_msg(strstr(p.err, want) != NULL, "%s stderr:\n%s", cmds[i], p.err);
        size_t lines = 0;
        for (const char *q = p.err; (q = strchr(q, '\n')) != NULL; q++)
            lines++;
        ck_assert_uint_eq(lines, 2);
        ev_proc_free(&p);
        run(cli, &p, cmds[i], "-q", "--lenient", path, NULL);
        ck_assert_int_eq(p.status, 0);
        ck_assert_str_eq(p.err, "");
        ev_proc_free(&p);
    }
    fxw_free(&w);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* json and stats keep at most --max-open open spans in all threads (and 1024
 * per thread): past a bound a span and its end are left out and counted; the
 * B/E pairs still balance. */
START_TEST(test_open_span_bounds)
{
    CLI_OR_SKIP(cli);
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    uint64_t t = 100;
    for (uint64_t tid = 1; tid <= 3; tid++) /* 3 threads, 60 nested spans each */
        for (int d = 0; d < 60; d++)
            fxw_event(&w, 2, FXT_INL(7, tid), FXS_INL("c"), FXS_INL("s"), t++, NULL, 0, 0);
    for (int d = 0; d < 1100; d++) /* one thread deeper than 1024 */
        fxw_event(&w, 2, FXT_INL(7, 4), FXS_INL("c"), FXS_INL("s"), t++, NULL, 0, 0);
    for (uint64_t tid = 1; tid <= 4; tid++)
        for (int d = 0; d < (tid == 4 ? 1100 : 60); d++)
            fxw_event(&w, 3, FXT_INL(7, tid), FXS_INL("c"), FXS_INL("s"), t++, NULL, 0, 0);
    char *path = ev_temp_file("deep.fxt", w.buf, w.len);
    ev_proc_t p;
    /* --max-open 100: thread 1 has 60, thread 2 the 40 left, threads 3 and 4 none */
    run(cli, &p, "json", "--max-open", "100", path, NULL);
    ck_assert_int_eq(p.status, 0);
    ck_assert_uint_eq(ev_count(p.out, "\"ph\":\"B\""), 100);
    ck_assert_uint_eq(ev_count(p.out, "\"ph\":\"E\""), 100);
    ck_assert_uint_eq(ev_count(p.out, "\"tid\":3"), 0);
    ck_assert_msg(strstr(p.err, "0 span ends without a begin left out, 1180 spans past the "
                                "open-span bounds (1024 per thread, 100 in all)") != NULL,
                  "stderr: %s", p.err);
    ev_proc_free(&p);
    run(cli, &p, "stats", "--max-open", "100", path, NULL);
    ck_assert_int_eq(p.status, 0);
    ck_assert_ptr_nonnull(strstr(p.out, "spans: 100 "));
    ck_assert_ptr_nonnull(strstr(p.out, "unmatched ends: 0  unclosed spans: 0  spans past the "
                                        "open-span bounds (1024 per thread, 100 in all): 1180\n"));
    ev_proc_free(&p);
    /* default bound: only the depth bound of thread 4 */
    run(cli, &p, "stats", path, NULL);
    ck_assert_int_eq(p.status, 0);
    ck_assert_ptr_nonnull(strstr(p.out, "spans: 1204 "));
    ck_assert_ptr_nonnull(strstr(p.out, "(1024 per thread, 1048576 in all): 76\n"));
    ev_proc_free(&p);
    run(cli, &p, "json", "--max-open", "0", path, NULL);
    ck_assert_int_eq(p.status, 2);
    ev_proc_free(&p);
    fxw_free(&w);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* TRACERD_CLI_FAIL_ALLOC=N fails the CLI's N-th own allocation (buffers,
 * tables): every command on every format ends with a clear out-of-memory
 * error (exit 3), frees everything, and json still ends its document. */
START_TEST(test_cli_alloc_failure)
{
    CLI_OR_SKIP(cli);
    static const char *const traces[] = {
        "tests/data/xray/demo-fdr.xray", "tests/data/fxt/demo.fxt", "tests/data/ctf/bt2-python",
        "tests/data/ctf/bt2-python/stream", XTRACE_INSN};
    static const char *const cmds[] = {"info", "dump", "json", "stats", "stack"};
    unsigned runs = 0;
    for (size_t ti = 0; ti < sizeof traces / sizeof traces[0]; ti++) {
        for (size_t ci = 0; ci < sizeof cmds / sizeof cmds[0]; ci++) {
            ev_proc_t p;
            setenv("TRACERD_CLI_FAIL_ALLOC", "0", 1);
            run(cli, &p, cmds[ci], "-q", traces[ti], NULL);
            ck_assert_msg(p.status == 0, "%s %s: exit %d: %s", cmds[ci], traces[ti], p.status,
                          p.err);
            unsigned long made = 0;
            const char *m = strstr(p.err, "TRACERD_CLI_FAIL_ALLOC: ");
            ck_assert_ptr_nonnull(m);
            ck_assert_int_eq(sscanf(m, "TRACERD_CLI_FAIL_ALLOC: %lu allocations, 0 not freed", &made),
                             1);
            ev_proc_free(&p);
            for (unsigned long n = 1; n <= made; n++) {
                char v[32];
                snprintf(v, sizeof v, "%lu", n);
                setenv("TRACERD_CLI_FAIL_ALLOC", v, 1);
                run(cli, &p, cmds[ci], "-q", traces[ti], NULL);
                runs++;
                ck_assert_msg(p.status == 3 && strstr(p.err, "out of memory") != NULL &&
                                  strstr(p.err, " 0 not freed") != NULL,
                              "%s %s, allocation %lu failed: exit %d: %s", cmds[ci], traces[ti],
                              n, p.status, p.err);
                if (strcmp(cmds[ci], "json") == 0 && p.out_len > 0)
                    ck_assert_msg(p.out[0] == '{' && p.out_len > 3 &&
                                      strcmp(p.out + p.out_len - 3, "}}\n") == 0,
                                  "json %s, allocation %lu failed: not a whole document",
                                  traces[ti], n);
                ev_proc_free(&p);
            }
        }
    }
    unsetenv("TRACERD_CLI_FAIL_ALLOC");
    ck_assert_uint_gt(runs, 20);
}
END_TEST

/* A metadata packet around text[0..n), padded with pad zero bytes. */
static size_t meta_packet(uint8_t *out, const char *text, size_t n, size_t pad)
{
    memset(out, 0, 37);
    uint32_t v[3] = {0x75D11D57u, (uint32_t)(37 + n) * 8, (uint32_t)(37 + n + pad) * 8};
    memcpy(out, &v[0], 4); /* host order = little-endian on the test hosts; big also reads */
    memcpy(out + 24, &v[1], 4);
    memcpy(out + 28, &v[2], 4);
    out[35] = 1;
    out[36] = 8;
    memcpy(out + 37, text, n);
    memset(out + 37 + n, 0, pad);
    return 37 + n + pad;
}

/* Parses metadata fed in pieces of `step` bytes; returns the status and the
 * record offset of the error. */
static tracerd_status_t parse_meta(const uint8_t *data, size_t len, size_t step, uint64_t *off)
{
    tracerd_ctf_metadata_t *m;
    ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
    tracerd_status_t st = TRACERD_OK;
    for (size_t i = 0; i < len && st == TRACERD_OK; i += step)
        st = tracerd_ctf_metadata_feed(m, data + i, len - i < step ? len - i : step);
    tracerd_ctf_trace_t *t = NULL;
    if (st == TRACERD_OK)
        st = tracerd_ctf_metadata_finish(m, &t);
    *off = tracerd_ctf_metadata_record_offset(m);
    tracerd_ctf_trace_free(t);
    tracerd_ctf_metadata_free(m);
    return st;
}

/* A TSDL error is reported at its byte in the metadata stream (plain text:
 * the text's; packetized: past the packet headers and padding), for every
 * split, and through the CLI. */
START_TEST(test_metadata_error_offset)
{
    static const char good[] = "/* CTF 1.8 */\n"
                               "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
                               "trace { major = 1; minor = 8; byte_order = le; };\n";
    static const char bad[] = "event { name = \"e\"; fields := struct { u8 a; nope b; }; };\n";
    char text[512];
    snprintf(text, sizeof text, "%s%s", good, bad);
    size_t at = strlen(good) + (size_t)(strstr(bad, "nope") - bad);
    uint64_t off;
    for (size_t step = 1; step <= strlen(text); step += step < 8 ? 1 : 37) {
        ck_assert_int_eq(parse_meta((const uint8_t *)text, strlen(text), step, &off),
                         TRACERD_E_METADATA);
        ck_assert_uint_eq(off, at);
    }
    /* two packets: the good part (padded with 11 bytes), then the bad part */
    uint8_t pk[1024];
    size_t n = meta_packet(pk, good, strlen(good), 11);
    size_t second = n;
    n += meta_packet(pk + n, bad, strlen(bad), 0);
    size_t want = second + 37 + (size_t)(strstr(bad, "nope") - bad);
    for (size_t step = 1; step <= n; step += step < 8 ? 1 : 41) {
        ck_assert_int_eq(parse_meta(pk, n, step, &off), TRACERD_E_METADATA);
        ck_assert_uint_eq(off, want);
    }
    CLI_OR_SKIP(cli);
    char *path = ev_temp_file("metadata", text, strlen(text));
    ev_proc_t p;
    run(cli, &p, "info", "--metadata", path, "tests/data/ctf/bt2-python/stream", NULL);
    ck_assert_int_eq(p.status, 1);
    char msg[128];
    snprintf(msg, sizeof msg, "E_METADATA at byte %zu: metadata line 4, column", at);
    ck_assert_msg(strstr(p.err, msg) != NULL, "stderr: %s", p.err);
    ev_proc_free(&p);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* A CTF event larger than the stitch buffer (64 KiB) is read in every
 * split: with the default --chunk and with --chunk 4096 (no stitch option),
 * the same output; its string comes in fragments, written as they come into
 * one JSON string, and a file cut inside it ends with a well-formed line
 * (the string closed, "incomplete":true). */
START_TEST(test_ctf_big_event_cli)
{
    CLI_OR_SKIP(cli);
    static const char meta[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
        "trace { major = 1; minor = 8; byte_order = le;\n"
        "  packet.header := struct { u32 magic; }; };\n"
        "stream { packet.context := struct { u32 packet_size; u32 content_size; }; };\n"
        "event { name = \"big\"; fields := struct { string s; }; };\n";
    enum { STR = 100000 };
    size_t len = 12 + STR + 1;
    uint8_t *pk = malloc(len);
    ck_assert_ptr_nonnull(pk);
    uint32_t hdr[3] = {0xC1FC1FC1u, (uint32_t)len * 8, (uint32_t)len * 8};
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 4; b++)
            pk[i * 4 + b] = (uint8_t)(hdr[i] >> (8 * b));
    memset(pk + 12, 'x', STR);
    pk[12 + STR] = 0;
    char *mpath = ev_temp_file("metadata", meta, strlen(meta));
    char *spath = ev_temp_file("stream", pk, len);
    ev_proc_t p;
    run(cli, &p, "dump", "-q", spath, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"big\""));
    ck_assert_ptr_nonnull(strstr(p.out, "xxxxxxxxxx\"}"));
    char *whole = strdup(p.out);
    ev_proc_free(&p);
    run(cli, &p, "dump", "-q", "--chunk", "4096", spath, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_str_eq(p.out, whole);
    ev_proc_free(&p);
    free(whole);
    run(cli, &p, "json", "-q", "--chunk", "4096", spath, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"big\""));
    ev_proc_free(&p);
    /* cut inside the string: two fragments written, then the line closed */
    free(spath);
    spath = ev_temp_file("stream", pk, 12 + 70000);
    run(cli, &p, "dump", "-q", "--chunk", "4096", spath, NULL);
    ck_assert_int_eq(p.status, 1);
    ck_assert_ptr_nonnull(strstr(p.err, "E_TRUNCATED at byte 12"));
    const char *last = strstr(p.out, "{\"type\":\"event\"");
    ck_assert_ptr_nonnull(last);
    ck_assert_ptr_nonnull(strstr(last, "xxxxxxxxxx\"},\"incomplete\":true}\n"));
    ck_assert_uint_eq(strlen(strstr(last, "\"s\":\"")), 5 + 65536 + 22);
    ev_proc_free(&p);
    free(pk);
    free(mpath);
    free(spath);
    ev_temp_cleanup();
}
END_TEST

Suite *suite_stream(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("stream");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_xtrace_option_range);
    tcase_add_test(tc, test_stats_then_error);
    tcase_add_test(tc, test_live_pipe);
    tcase_add_test(tc, test_lenient_coalesced);
    tcase_add_test(tc, test_open_span_bounds);
    tcase_add_test(tc, test_cli_alloc_failure);
    tcase_add_test(tc, test_metadata_error_offset);
    tcase_add_test(tc, test_ctf_big_event_cli);
    suite_add_tcase(s, tc);
    return s;
}
