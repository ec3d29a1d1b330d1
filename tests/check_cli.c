/* The CLI's json and stats commands and its input sources, run as a
 * subprocess (TRACERD_CLI, else build/tracerd): Chrome JSON checked against
 * the format's rules on every sample trace, stats values, standard input,
 * TCP connect and --listen over loopback in random-sized writes (output
 * equal to the file's), errors and exit codes. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/driver.h"
#include "support/event_support.h"
#include "support/fxt_writer.h"
#include "support/xray_writer.h"

/* Two threads in two buffers, nested calls, arguments, an exit whose entry is
 * not in the trace, a call left open, custom events. */
static void build_sample(xw_t *w, unsigned calls)
{
    xw_header(w, 5, 1, 3u, 3000000000u, 0);
    for (int t = 0; t < 2; t++) {
        size_t m = xw_extents(w, 0);
        xw_new_buffer(w, 100 + t);
        xw_walltime(w, 1700000000u, 0);
        xw_pid(w, 4242);
        xw_new_cpu(w, (uint16_t)t, 1000000u * (uint64_t)(t + 1));
        xw_func(w, 1, 9, 3); /* exit of a function entered before the trace */
        for (unsigned i = 0; i < calls; i++) {
            xw_func(w, 0, 1, 10);
            xw_func(w, 3, 2, 20);
            xw_arg(w, i);
            xw_func(w, 0, 3, 5);
            xw_func(w, 1, 3, 7);
            xw_func(w, 1, 2, 30);
            if (i % 7 == 0)
                xw_custom(w, 4, 2, 0, "ping", 4);
            xw_func(w, i % 3 == 0 ? 2 : 1, 1, 40);
        }
        xw_func(w, 0, 4, 50); /* never exits */
        xw_end_extents(w, m);
    }
}

static char *write_sample(const char *name, unsigned calls, bool big)
{
    xw_t w;
    xw_init(&w, big);
    build_sample(&w, calls);
    char *path = ev_temp_file(name, w.buf, w.len);
    xw_free(&w);
    return path;
}

/* Runs the CLI with the arguments up to NULL; stdin from stdin_path (NULL: /dev/null). */
#define run_cli ev_run_cli

static bool have_python(void)
{
    return system("command -v python3 >/dev/null 2>&1") == 0;
}

/* JSON outputs waiting for the checker (one python run checks them all). */
static char chrome_files[8192];
static unsigned chrome_n;

/* Queues a JSON text for the Chrome format checker (run by chrome_run). */
static void check_chrome(const char *json, size_t len, const char *what)
{
    char name[32];
    snprintf(name, sizeof name, "out%u.json", chrome_n++);
    char *path = ev_temp_file(name, json, len);
    size_t used = strlen(chrome_files);
    ck_assert_uint_lt(used + strlen(path) + 4, sizeof chrome_files);
    snprintf(chrome_files + used, sizeof chrome_files - used, " '%s'", path);
    free(path);
    (void)what;
}

/* Runs tests/cli/chrome_check.py on every queued output; each must pass. */
static void chrome_run(void)
{
    if (chrome_n == 0)
        return;
    if (!have_python()) {
        fprintf(stderr, "chrome_check: python3 not found, %u outputs not validated\n", chrome_n);
    } else {
        char cmd[8300];
        snprintf(cmd, sizeof cmd, "python3 tests/cli/chrome_check.py%s", chrome_files);
        char *argv[] = {"/bin/sh", "-c", cmd, NULL};
        ev_proc_t p;
        ev_run_proc(argv, NULL, 120, &p);
        ck_assert_msg(p.status == 0, "%s%s", p.out, p.err);
        unsigned oks = 0;
        for (const char *q = p.out; (q = strstr(q, "ok ")) != NULL; q += 3)
            oks++;
        ck_assert_uint_eq(oks, chrome_n);
        ev_proc_free(&p);
    }
    chrome_files[0] = '\0';
    chrome_n = 0;
}

START_TEST(test_json_samples)
{
    CLI_OR_SKIP(cli);
    char *paths[4];
    paths[0] = write_sample("le.xray", 40, false);
    paths[1] = write_sample("be.xray", 40, true);
    paths[2] = strdup("tests/data/event/xray_fdr_real.xray");
    paths[3] = NULL;
    char *le_out = NULL;
    for (int i = 0; paths[i] != NULL; i++) {
        ev_proc_t p;
        run_cli(cli, NULL, &p, "json", "--quiet", paths[i], NULL);
        ck_assert_msg(p.status == 0, "%s: exit %d: %s", paths[i], p.status, p.err);
        ck_assert_str_eq(p.err, "");
        check_chrome(p.out, p.out_len, paths[i]);
        if (i == 0) {
            /* the first span, its argument, the custom event, the closing of the open call */
            ck_assert_ptr_nonnull(strstr(p.out, "{\"ph\":\"B\",\"pid\":4242,\"tid\":100,"));
            ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"fn#2\",\"cat\":\"xray\",\"args\":"
                                                "{\"arg0\":0,\"cpu\":0}}"));
            ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"custom-event\",\"cat\":\"xray\","
                                                "\"args\":{\"size\":4,\"payload\":\"70696e67\""));
            ck_assert_ptr_nonnull(strstr(p.out, "{\"ph\":\"M\",\"pid\":4242,\"tid\":0,\"name\":"
                                                "\"process_name\""));
            ck_assert_ptr_nonnull(strstr(p.out, "\"otherData\":{\"format\":\"xray\""));
            le_out = strdup(p.out);
        }
        if (i == 1) {
            /* the big-endian file gives the same JSON as the little-endian one */
            ck_assert(strcmp(p.out, le_out) == 0);
        }
        ev_proc_free(&p);
        free(paths[i]);
    }
    free(le_out);
    /* Every sample trace on the tree (any format): valid JSON (also after a
     * reader error, exit 1), or "not supported by this build" (exit 5). Files
     * that are no trace (goldens, scripts, YAML) exit 4 and are skipped. */
    glob_t g;
    int gr = glob("tests/data/*/*", 0, NULL, &g);
    if (gr == 0 || gr == GLOB_NOMATCH)
        gr = glob("tests/data/*/*/*", GLOB_APPEND, NULL, &g);
    unsigned checked = 0;
    for (size_t i = 0; gr == 0 && i < g.gl_pathc; i++) {
        const char *f = g.gl_pathv[i];
        const char *dot = strrchr(f, '.');
        static const char *const skip[] = {".gold", ".yaml", ".txt", ".c", ".sh", ".md",
                                           ".json", ".py", ".h"};
        bool skipped = false;
        for (size_t k = 0; dot != NULL && k < sizeof skip / sizeof skip[0]; k++)
            skipped |= strcmp(dot, skip[k]) == 0;
        if (skipped)
            continue;
        ev_proc_t p;
        if (strstr(f, ".xinsndata.bin") != NULL) /* xtrace has no magic: named by its user */
            run_cli(cli, NULL, &p, "json", "--quiet", "--format", "xtrace", f, NULL);
        else
            run_cli(cli, NULL, &p, "json", "--quiet", f, NULL);
        ck_assert_msg(p.status <= 1 || p.status == 4 || p.status == 5,
                      "%s: exit %d: %s", f, p.status, p.err);
        if (p.status <= 1) {
            check_chrome(p.out, p.out_len, f);
            checked++;
        }
        ev_proc_free(&p);
    }
    if (gr == 0)
        globfree(&g);
    ck_assert_uint_ge(checked, 1);
    chrome_run();
    ev_temp_cleanup();
}
END_TEST

/* Names with quotes, backslashes, control bytes, UTF-8 and stray bytes stay
 * valid JSON: ill-formed UTF-8 becomes U+FFFD. */
START_TEST(test_json_escaping)
{
    CLI_OR_SKIP(cli);
    static const ev_elf_sym_t syms[] = {
        {"q\"uo\\te", 0x1000, 0x10, true},
        {"ctl\001\037x", 0x1010, 0x10, true},
        {"caf\xc3\xa9", 0x1020, 0x10, true},
        {"bad\xff\xc3", 0x1030, 0x10, true},
    };
    const uint64_t fn[] = {0x1000, 0x1000, 0x1010, 0x1010, 0x1020, 0x1020, 0x1030, 0x1030};
    size_t len;
    uint8_t *elf = ev_elf_write(true, false, 0x8000, fn, 8, 2, syms, 4, &len);
    char *bin = ev_temp_file("names.elf", elf, len);
    char *path = write_sample("esc.xray", 3, false);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "json", "-q", "--instr-map", bin, path, NULL);
    ck_assert_msg(p.status == 0, "%s", p.err);
    check_chrome(p.out, p.out_len, "escaping");
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"q\\\"uo\\\\te\""));
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"ctl\\u0001\\u001fx\""));
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"caf\xc3\xa9\""));
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"bad\\ufffd\\ufffd\""));
    ev_proc_free(&p);
    free(elf);
    free(bin);
    free(path);
    chrome_run();
    ev_temp_cleanup();
}
END_TEST

/* dump on a CTF trace whose string holds ill-formed UTF-8 (a stray byte and
 * an overlong NUL) and whose second event fails inside its fields (a variant
 * tag that selects no option): every stdout line is a whole JSON object, the
 * string is repaired with U+FFFD and its exact bytes given as "s_hex", and
 * the error follows on stderr. */
START_TEST(test_dump_whole_lines)
{
    CLI_OR_SKIP(cli);
    static const char meta[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint32_t "
        "magic; uint32_t stream_id; }; };\n"
        "stream { id = 0; packet.context := struct { uint32_t content_size; uint32_t "
        "packet_size; }; event.header := struct { uint8_t id; }; };\n"
        "event { id = 0; name = \"e\"; stream_id = 0; fields := struct { string s; enum : "
        "uint8_t { A = 0, B = 1 } tag; variant <tag> { uint8_t A; uint32_t B; } v; }; };\n";
    static const uint8_t stream[30] = {
        0xc1, 0x1f, 0xfc, 0xc1, 0, 0, 0, 0, 240, 0, 0, 0, 240, 0, 0, 0, /* header, context */
        0, 'o', 'k', 0xff, 0xc0, 0x80, 0, 0, 5,                          /* event 1: fine */
        0, 'x', 0, 7, 1};                                                 /* event 2: tag 7 */
    char *mp = ev_temp_file("metadata", meta, sizeof meta - 1);
    char *sp = ev_temp_file("stream_0", stream, sizeof stream);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "dump", "-q", ev_temp_dir(), NULL);
    ck_assert_int_eq(p.status, 1);
    ck_assert_msg(strstr(p.out, "\"s\":\"ok\\ufffd\\ufffd\\ufffd\",\"s_hex\":\"6f6bffc080\"") !=
                      NULL,
                  "%s", p.out);
    ck_assert_ptr_nonnull(strstr(p.err, "variant tag value 7 selects no option"));
    /* whole lines only: the packet and the first event */
    ck_assert_uint_gt(p.out_len, 0);
    ck_assert_int_eq(p.out[p.out_len - 1], '\n');
    unsigned lines = 0;
    for (const char *q = p.out; (q = strchr(q, '\n')) != NULL; q++) {
        ck_assert_int_eq(q[-1], '}');
        lines++;
    }
    ck_assert_uint_eq(lines, 2);
    ck_assert_ptr_null(strstr(p.out, "\"x\""));
    if (have_python()) {
        char *op = ev_temp_file("dump.jsonl", p.out, p.out_len);
        char cmd[600];
        snprintf(cmd, sizeof cmd,
                 "python3 -c 'import json,sys\nfor l in open(sys.argv[1],encoding=\"utf-8\"): "
                 "json.loads(l)' '%s'",
                 op);
        ck_assert_int_eq(system(cmd), 0);
        free(op);
    }
    ev_proc_free(&p);
    free(mp);
    free(sp);
    ev_temp_cleanup();
}
END_TEST

START_TEST(test_stats)
{
    CLI_OR_SKIP(cli);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "stats", "--quiet", "tests/data/event/xray_fdr_real.xray", NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    /* llvm-xray account on this trace: leaf 15 calls, mid 5, top 1 */
    ck_assert_ptr_nonnull(strstr(p.out, "events: 42  spans: 21  threads: 1  names: 3\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "unmatched ends: 0  unclosed spans: 0"));
    ck_assert_ptr_nonnull(strstr(p.out, "(xray v5, little-endian, 1000000000 ticks/s)"));
    const char *n1 = strstr(p.out, "fn#3\n"), *n2 = strstr(p.out, "fn#2\n"),
               *n3 = strstr(p.out, "fn#1\n");
    ck_assert(n1 && n2 && n3 && n1 < n2 && n2 < n3); /* by total time */
    ck_assert_ptr_nonnull(strstr(p.out, "\n         1 "));
    ck_assert_ptr_nonnull(strstr(p.out, "\n         5 "));
    ck_assert_ptr_nonnull(strstr(p.out, "\n        15 "));
    ev_proc_free(&p);

    char *path = write_sample("s.xray", 30, false);
    run_cli(cli, NULL, &p, "stats", "--top", "2", path, NULL);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    /* per thread: 1 unmatched exit, 30 x 3 spans + tail exits, 1 unclosed */
    ck_assert_ptr_nonnull(strstr(p.out, "unmatched ends: 2  unclosed spans: 2"));
    ck_assert_ptr_nonnull(strstr(p.out, "threads: 2  names: 5\n"));
    ck_assert_ptr_nonnull(strstr(p.out, "names (top 2 by total time, ms):"));
    /* fn#1 wraps everything: 60 calls; self = total - children */
    const char *f1 = strstr(p.out, "\n        60 ");
    ck_assert_ptr_nonnull(f1);
    ck_assert_ptr_nonnull(strstr(f1, "fn#1\n"));
    ck_assert_ptr_null(strstr(p.out, "fn#3\n")); /* not in the top 2 */
    ev_proc_free(&p);
    free(path);
    ev_temp_cleanup();
}
END_TEST

START_TEST(test_stdin_and_errors)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("in.xray", 10, false);
    ev_proc_t a, b;
    run_cli(cli, NULL, &a, "json", "-q", path, NULL);
    run_cli(cli, path, &b, "json", "-q", "-", NULL);
    ck_assert_int_eq(b.status, 0);
    ck_assert_str_eq(a.out, b.out);
    ev_proc_free(&a);
    ev_proc_free(&b);
    /* a truncated trace: exit 1 and one line naming the byte */
    size_t len;
    uint8_t *bytes = drv_read_file(path, &len);
    char *cut = ev_temp_file("cut.xray", bytes, len - 5);
    run_cli(cli, NULL, &a, "stats", cut, NULL);
    ck_assert_int_eq(a.status, 1);
    ck_assert_ptr_nonnull(strstr(a.err, ": xray error E_TRUNCATED at byte "));
    ck_assert_ptr_eq(strchr(a.err, '\n'), a.err + a.err_len - 1);
    ev_proc_free(&a);
    /* json still closes its document after an error */
    run_cli(cli, NULL, &a, "json", cut, NULL);
    ck_assert_int_eq(a.status, 1);
    check_chrome(a.out, a.out_len, "truncated");
    ev_proc_free(&a);
    /* not a trace: exit 4 */
    char *txt = ev_temp_file("t.txt", "just some text, not a trace, long enough to detect it", 52);
    run_cli(cli, NULL, &a, "json", txt, NULL);
    ck_assert_int_eq(a.status, 4);
    ck_assert_ptr_nonnull(strstr(a.err, "not a trace format tracerd recognises"));
    ev_proc_free(&a);
    /* missing file: 3; usage: 2; unknown format name: 2 */
    run_cli(cli, NULL, &a, "json", "/nonexistent/trace", NULL);
    ck_assert_int_eq(a.status, 3);
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "frobnicate", path, NULL);
    ck_assert_int_eq(a.status, 2);
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "json", "--format", "nope", path, NULL);
    ck_assert_int_eq(a.status, 2);
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "stats", "--instr-map", txt, path, NULL);
    ck_assert_int_eq(a.status, 2);
    ck_assert_ptr_nonnull(strstr(a.err, "E_MAGIC"));
    ev_proc_free(&a);
    /* a recognised format without an event mapping in this build: 5 */
    if (!tracerd_event_format_supported(TRACERD_EVENT_FORMAT_FXT)) {
        static const uint8_t fxt[16] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
        char *f = ev_temp_file("f.fxt", fxt, sizeof fxt);
        run_cli(cli, NULL, &a, "json", f, NULL);
        ck_assert_int_eq(a.status, 5);
        ev_proc_free(&a);
        free(f);
    }
    free(bytes);
    free(cut);
    free(txt);
    free(path);
    chrome_run();
    ev_temp_cleanup();
}
END_TEST

/* ---- sockets ------------------------------------------------------------------- */

static int listen_any(uint16_t *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_int_eq(listen(fd, 1), 0);
    socklen_t sl = sizeof sa;
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &sl), 0);
    *port = ntohs(sa.sin_port);
    return fd;
}

/* Writes data in random-sized pieces (1..8191 bytes, seeded), then closes. */
static void send_random(int fd, const uint8_t *data, size_t len, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    size_t off = 0;
    while (off < len) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        size_t n = (size_t)(x % 8191) + 1;
        if (n > len - off)
            n = len - off;
        ssize_t k = write(fd, data + off, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            _exit(3);
        off += (size_t)k;
    }
    close(fd);
}

START_TEST(test_tcp_connect)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("net.xray", 3000, false);
    size_t len;
    uint8_t *bytes = drv_read_file(path, &len);
    ck_assert_uint_gt(len, 200000);
    ev_proc_t ref;
    run_cli(cli, NULL, &ref, "json", "-q", path, NULL);
    ck_assert_int_eq(ref.status, 0);
    uint16_t port;
    int lfd = listen_any(&port);
    pid_t server = fork();
    ck_assert_int_ge(server, 0);
    if (server == 0) {
        alarm(20); /* the test stops by itself */
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            _exit(2);
        send_random(fd, bytes, len, 7);
        _exit(0);
    }
    close(lfd);
    char url[64];
    snprintf(url, sizeof url, "tcp://127.0.0.1:%u", (unsigned)port);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "json", "--quiet", "--chunk", "3000", url, NULL);
    int st;
    if (p.status != 0)
        kill(server, SIGKILL); /* the CLI failed: do not wait for the alarm */
    waitpid(server, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    ck_assert_uint_eq(p.out_len, ref.out_len);
    ck_assert(memcmp(p.out, ref.out, ref.out_len) == 0);
    ev_proc_free(&p);
    ev_proc_free(&ref);
    free(bytes);
    free(path);
    ev_temp_cleanup();
}
END_TEST

START_TEST(test_tcp_listen)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("lis.xray", 2000, true);
    size_t len;
    uint8_t *bytes = drv_read_file(path, &len);
    ev_proc_t ref;
    run_cli(cli, NULL, &ref, "stats", "-q", path, NULL);
    ck_assert_int_eq(ref.status, 0);
    /* A free port: bind to 0, note it, close; the CLI binds it again. */
    uint16_t port;
    close(listen_any(&port));
    pid_t client = fork();
    ck_assert_int_ge(client, 0);
    if (client == 0) {
        alarm(20);
        struct sockaddr_in sa;
        memset(&sa, 0, sizeof sa);
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        sa.sin_port = htons(port);
        for (int tries = 0; tries < 200; tries++) { /* up to 10 s for the CLI to listen */
            int fd = socket(AF_INET, SOCK_STREAM, 0);
            if (connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
                send_random(fd, bytes, len, 11);
                _exit(0);
            }
            close(fd);
            usleep(50000);
        }
        _exit(2);
    }
    char spec[64];
    snprintf(spec, sizeof spec, "127.0.0.1:%u", (unsigned)port);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "stats", "--listen", spec, NULL);
    int st;
    if (p.status != 0)
        kill(client, SIGKILL);
    waitpid(client, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
    /* Same numbers as from the file; only the trace: line names the source. */
    ck_assert_ptr_nonnull(strstr(p.err, "listening on 127.0.0.1:"));
    const char *a = strchr(p.out, '\n'), *b = strchr(ref.out, '\n');
    ck_assert_str_eq(a, b);
    ev_proc_free(&p);
    ev_proc_free(&ref);
    free(bytes);
    free(path);
    ev_temp_cleanup();
}
END_TEST

#include "support/ctf_writer.h"

/* A CTF trace directory and a stream file alone (metadata beside it): json and stats. */
START_TEST(test_ctf_dir)
{
    CLI_OR_SKIP(cli);
    char *meta = ctf_writer_metadata(false);
    size_t len;
    uint8_t *stream = ctf_writer_stream(false, &len);
    char *mp = ev_temp_file("metadata", meta, strlen(meta));
    char *sp = ev_temp_file("stream_0", stream, len);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "json", "-q", ev_temp_dir(), NULL);
    ck_assert_msg(p.status == 0, "%s", p.err);
    check_chrome(p.out, p.out_len, "ctf dir");
    ck_assert_ptr_nonnull(strstr(p.out, "\"name\":\"test:ints\",\"cat\":\"ust\""));
    ck_assert_ptr_nonnull(strstr(p.out, "\"tid\":-42"));
    ev_proc_free(&p);
    run_cli(cli, NULL, &p, "stats", "-q", sp, NULL);
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_ptr_nonnull(strstr(p.out, "(ctf v108, little-endian, 1000000000 ticks/s)"));
    ck_assert_ptr_nonnull(strstr(p.out, "ust/test:ints (instant)"));
    ev_proc_free(&p);
    /* a folder without metadata: not a trace (exit 4), the same line from
     * every command (stats' and json's direct paths, the event view's
     * commands, dump's and info's format detection) */
    char *nm = malloc(strlen(ev_temp_dir()) + 32);
    sprintf(nm, "%s/nometa", ev_temp_dir());
    ck_assert_int_eq(mkdir(nm, 0700), 0);
    char *ns = ev_temp_file("nometa/stream_0", stream, len);
    static const char *const cmds[] = {"stats", "json", "perfetto", "stack", "dump", "info"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        run_cli(cli, NULL, &p, cmds[i], "-q", nm, NULL);
        ck_assert_msg(p.status == 4, "%s: %d %s", cmds[i], p.status, p.err);
        ck_assert_msg(strstr(p.err, "nometa: not a trace format tracerd recognises (a "
                                    "directory without CTF metadata)\n") != NULL,
                      "%s: %s", cmds[i], p.err);
        ev_proc_free(&p);
    }
    free(ns);
    free(nm);
    chrome_run();
    free(mp);
    free(sp);
    free(meta);
    free(stream);
    ev_temp_cleanup();
}
END_TEST

/* tracerd info counts events by event class name: several classes of one
 * name count as one line, the names in the order first seen, at most 512
 * of them (later names are not listed); 600 classes read in two passes in
 * opposite orders, in both byte orders. */
START_TEST(test_ctf_info_names)
{
    CLI_OR_SKIP(cli);
    enum { NCLS = 600, NNAMES = 520 };
    for (int big = 0; big < 2; big++) {
        size_t cap = 256 + (size_t)NCLS * 80, at = 0;
        char *meta = malloc(cap);
        ck_assert_ptr_nonnull(meta);
        at += (size_t)snprintf(meta + at, cap - at,
                               "/* CTF 1.8 */\n"
                               "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
                               "typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
                               "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
                               "trace { major = 1; minor = 8; byte_order = %s;\n"
                               "  packet.header := struct { u32 magic; }; };\n"
                               "stream { event.header := struct { u16 id; }; };\n",
                               big ? "be" : "le");
        for (int i = 0; i < NCLS; i++)
            at += (size_t)snprintf(meta + at, cap - at,
                                   "event { name = \"n%d\"; id = %d; fields := struct { u8 v; }; };\n",
                                   i % NNAMES, i);
        cw_t w;
        cw_init(&w);
        cw_int(&w, 0xC1FC1FC1u, 32, big);
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < NCLS; k++) {
                int id = pass == 0 ? k : NCLS - 1 - k;
                cw_int(&w, (uint64_t)id, 16, big);
                cw_int(&w, (uint64_t)k & 0xff, 8, big);
            }
        char *mp = ev_temp_file("metadata", meta, at);
        char *sp = ev_temp_file("stream_0", w.buf, (size_t)(w.bits / 8));
        ev_proc_t p;
        run_cli(cli, NULL, &p, "info", ev_temp_dir(), NULL);
        ck_assert_msg(p.status == 0, "%s", p.err);
        ck_assert_ptr_nonnull(strstr(p.out, "\nevents:        1200\n"));
        /* n0..n79: two classes, two passes; n80..n511: one class; n512..
         * n519 (classes 512..519, first seen after 512 names) not listed */
        char name[16], want[64];
        const char *prev = strstr(p.out, "\nevents:");
        for (int n = 0; n < 512; n++) {
            snprintf(name, sizeof name, "n%d", n);
            snprintf(want, sizeof want, "\n  %-40s %d\n", name, n < NCLS - NNAMES ? 4 : 2);
            const char *at_line = strstr(p.out, want);
            ck_assert_msg(at_line != NULL && at_line > prev, "line of n%d: %s", n, want);
            prev = at_line;
        }
        ck_assert_ptr_null(strstr(p.out, "  n512 "));
        ck_assert_ptr_null(strstr(p.out, "  n519 "));
        ev_proc_free(&p);
        cw_free(&w);
        free(mp);
        free(sp);
        free(meta);
        ev_temp_cleanup();
    }
}
END_TEST

/* Back-pressure: while nobody reads the CLI's output, the CLI stops reading
 * the socket, so the sender cannot push the whole trace; once the output is
 * read, everything arrives and the output is complete. */
START_TEST(test_backpressure)
{
    CLI_OR_SKIP(cli);
    xw_t w;
    xw_init(&w, false);
    build_sample(&w, 25000); /* about 3.3 MB */
    ev_proc_t ref;
    char *path = ev_temp_file("bp.xray", w.buf, w.len);
    run_cli(cli, NULL, &ref, "json", "-q", path, NULL);
    ck_assert_int_eq(ref.status, 0);
    uint16_t port;
    int lfd = listen_any(&port);
    int prog[2];
    ck_assert_int_eq(pipe(prog), 0);
    pid_t server = fork();
    ck_assert_int_ge(server, 0);
    if (server == 0) {
        alarm(60);
        close(prog[0]);
        int fd = accept(lfd, NULL, NULL);
        int small = 65536;
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
        uint64_t sent = 0;
        while (sent < w.len) {
            size_t n = w.len - sent < 65536 ? (size_t)(w.len - sent) : 65536;
            ssize_t k = write(fd, w.buf + sent, n);
            if (k <= 0)
                _exit(3);
            sent += (uint64_t)k;
            if (write(prog[1], &sent, sizeof sent) != (ssize_t)sizeof sent)
                _exit(4);
        }
        close(fd);
        _exit(0);
    }
    close(lfd);
    close(prog[1]);
    int out[2];
    ck_assert_int_eq(pipe(out), 0);
    char url[64];
    snprintf(url, sizeof url, "tcp://127.0.0.1:%u", (unsigned)port);
    pid_t cpid = fork();
    ck_assert_int_ge(cpid, 0);
    if (cpid == 0) {
        dup2(out[1], 1);
        close(out[0]);
        execl(cli, cli, "json", "-q", url, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    sleep(1); /* nobody reads the output meanwhile */
    uint64_t sent = 0, v;
    fcntl(prog[0], F_SETFL, O_NONBLOCK);
    while (read(prog[0], &v, sizeof v) == (ssize_t)sizeof v)
        sent = v;
    fprintf(stderr, "backpressure: %llu of %zu bytes sent while stalled\n", (unsigned long long)sent, w.len);
    ck_assert_msg(sent < w.len / 2, "the sender got %llu of %zu bytes through a stalled reader",
                  (unsigned long long)sent, w.len);
    /* Now read everything: the output is complete and equal to the file's. */
    size_t got = 0, cap = ref.out_len + 1;
    char *buf = malloc(cap);
    ssize_t k;
    while ((k = read(out[0], buf + got, got < cap ? cap - got : 1)) > 0)
        got += (size_t)k;
    close(out[0]);
    close(prog[0]);
    int st;
    waitpid(cpid, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    waitpid(server, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    ck_assert_uint_eq(got, ref.out_len);
    ck_assert(memcmp(buf, ref.out, got) == 0);
    free(buf);
    ev_proc_free(&ref);
    xw_free(&w);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* XRay dump's numbers (fmt_xray.c writes a timestamp's leading digits once
 * while they stay the same, the nanoseconds as the ticks' digits at 1 GHz,
 * small ids and deltas inline): every record's function id, tsc and ns as
 * written, in basic mode (absolute ticks) at 1 GHz and 3 GHz, both byte
 * orders: ticks below 10^8, crossing 10^8 and 10^16 boundaries one at a
 * time and several at once, near 2^64; ids 0, 9999, 10000, the largest and
 * negative ones. */
START_TEST(test_xray_dump_numbers)
{
    CLI_OR_SKIP(cli);
    static const uint64_t ticks[] = {0,
                                     7,
                                     99999999,
                                     100000000,
                                     100000001,
                                     1795565727999999990u,
                                     1795565727999999999u,
                                     1795565728000000000u,
                                     1795565728000000001u,
                                     1795565728100000000u,
                                     1795565728100000000u,
                                     1795565799999999999u,
                                     1795565800000000000u,
                                     10000000000000000u,
                                     9999999999999999u,
                                     UINT64_MAX / 3,
                                     UINT64_MAX - 1,
                                     UINT64_MAX,
                                     12345};
    static const int32_t ids[] = {0, 1, 9, 10, 99, 100, 9999, 10000, 268435455, -1, -2147483647};
    const size_t n = sizeof ticks / sizeof ticks[0];
    for (int big = 0; big < 2; big++) {
        for (int fq = 0; fq < 2; fq++) {
            const uint64_t freq = fq == 0 ? 1000000000u : 3000000000u;
            xw_t w;
            xw_init(&w, big != 0);
            xw_header(&w, 3, 0, 0, freq, 0);
            for (size_t i = 0; i < n; i++)
                xw_basic_func(&w, 1, (uint8_t)(i & 1), ids[i % (sizeof ids / sizeof ids[0])],
                              ticks[i], 11, 99);
            char *path = ev_temp_file("numbers.xray", w.buf, w.len);
            xw_free(&w);
            ev_proc_t p;
            run_cli(cli, NULL, &p, "dump", path, NULL);
            ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
            size_t i = 0;
            for (const char *l = p.out; (l = strstr(l, "{\"type\":\"function\"")) != NULL; l++) {
                int fid;
                uint64_t tsc, ns;
                ck_assert_uint_lt(i, n);
                const char *k = strstr(l, "\"function_id\":");
                ck_assert_ptr_nonnull(k);
                ck_assert_int_eq(sscanf(k, "\"function_id\":%d,\"tsc\":%" SCNu64 ",\"ns\":%" SCNu64,
                                        &fid, &tsc, &ns),
                                 3);
                ck_assert_int_eq(fid, ids[i % (sizeof ids / sizeof ids[0])]);
                ck_assert_uint_eq(tsc, ticks[i]);
                ck_assert_uint_eq(ns, tracerd_ticks_to_ns(ticks[i], freq));
                i++;
            }
            ck_assert_uint_eq(i, n);
            ev_proc_free(&p);
            free(path);
        }
    }
    ev_temp_cleanup();
}
END_TEST

/* A regular file is mapped, not copied (cli.c): one cut short by another
 * process while tracerd reads it is a read error (exit 3, one message), never
 * SIGBUS; the output ends with a whole line (dump) or a whole document
 * (json). The file is cut while tracerd is blocked writing the output of
 * its first mapped part. */
START_TEST(test_file_cut_while_read)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("cut.xray", 100000, false); /* about 11 MB */
    ev_proc_t p;
    ev_run_cli_cut(cli, _i == 0 ? "dump" : "json", path, path, 65536, &p);
    ck_assert_msg(p.status < 128, "tracerd died of signal %d", p.status - 128);
    ck_assert_int_eq(p.status, 3);
    ck_assert_msg(strstr(p.err, "the file was cut short while it was read") != NULL, "stderr: %s",
                  p.err);
    ck_assert_uint_gt(p.out_len, 3);
    ck_assert_int_eq(p.out[p.out_len - 1], '\n');
    if (_i == 1)
        ck_assert_str_eq(p.out + p.out_len - 3, "}}\n"); /* the document is closed */
    ev_proc_free(&p);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* stats against llvm-xray account on the real XRay traces: per function id
 * the same count, sum, min and max (llvm-xray prints seconds, we print ms). */
START_TEST(test_stats_vs_llvm_xray)
{
    CLI_OR_SKIP(cli);
    if (system("command -v llvm-xray >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_stats_vs_llvm_xray: llvm-xray not found, skipped\n");
        return;
    }
    glob_t g;
    if (glob("tests/data/xray/real/*.xray", 0, NULL, &g) != 0) {
        fprintf(stderr, "test_stats_vs_llvm_xray: no real XRay traces, skipped\n");
        return;
    }
    unsigned compared = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "llvm-xray account -format=csv -sort=funcid '%s' 2>/dev/null",
                 g.gl_pathv[i]);
        char *argv[] = {"/bin/sh", "-c", cmd, NULL};
        ev_proc_t ref, p;
        ev_run_proc(argv, NULL, 30, &ref);
        if (ref.status != 0 || ref.out_len == 0) { /* llvm-xray rejects some real traces */
            ev_proc_free(&ref);
            continue;
        }
        run_cli(cli, NULL, &p, "stats", "-q", "--top", "0", g.gl_pathv[i], NULL);
        ck_assert_msg(p.status == 0, "%s: %s", g.gl_pathv[i], p.err);
        char *save = NULL;
        for (char *line = strtok_r(ref.out, "\n", &save); line != NULL;
             line = strtok_r(NULL, "\n", &save)) {
            unsigned id;
            unsigned long long count;
            double mn, med, p90, p99, mx, sum;
            if (sscanf(line, "%u,%llu,%lf,%lf,%lf,%lf,%lf,%lf", &id, &count, &mn, &med, &p90, &p99,
                       &mx, &sum) != 8)
                continue;
            char name[32];
            snprintf(name, sizeof name, "  fn#%u\n", id);
            char *row = strstr(p.out, name);
            ck_assert_msg(row != NULL, "%s: fn#%u missing", g.gl_pathv[i], id);
            char *bol = row;
            while (bol > p.out && bol[-1] != '\n')
                bol--;
            unsigned long long c;
            double total, self, tmin, tmax, q[3];
            ck_assert_int_eq(sscanf(bol, "%llu %lf %lf %lf %lf %lf %lf %lf", &c, &total, &self,
                                    &tmin, &q[0], &q[1], &q[2], &tmax),
                             8);
            /* percentiles: the same rank, within the histogram's 1/64 (+ 1 ns of rounding) */
            const double want[3] = {med * 1e3, p90 * 1e3, p99 * 1e3};
            for (int k = 0; k < 3; k++)
                ck_assert_msg(fabs(q[k] - want[k]) <= want[k] / 64 + 1.5e-6,
                              "%s fn#%u: percentile %d: %f ms, llvm-xray %f ms", g.gl_pathv[i], id,
                              k, q[k], want[k]);
            ck_assert_msg(c == count, "%s fn#%u: count %llu, llvm-xray %llu", g.gl_pathv[i], id,
                          c, count);
            ck_assert_msg(fabs(total - sum * 1e3) < 2e-6 && fabs(tmin - mn * 1e3) < 2e-6 &&
                              fabs(tmax - mx * 1e3) < 2e-6,
                          "%s fn#%u: total/min/max %f %f %f ms, llvm-xray %g %g %g s",
                          g.gl_pathv[i], id, total, tmin, tmax, sum, mn, mx);
            compared++;
        }
        ev_proc_free(&ref);
        ev_proc_free(&p);
    }
    globfree(&g);
    ck_assert_uint_ge(compared, 5);
}
END_TEST

/* A progress line on a terminal (a pty from script(1)), erased at the end; none with --quiet. */
START_TEST(test_progress)
{
    CLI_OR_SKIP(cli);
    if (system("command -v script >/dev/null 2>&1") != 0) {
        fprintf(stderr, "test_progress: script(1) not found, skipped\n");
        return;
    }
    char *path = write_sample("prog.xray", 500, false);
    char cmd[1024];
    for (int quiet = 0; quiet < 2; quiet++) {
        snprintf(cmd, sizeof cmd, "script -qec '%s stats %s--chunk 4096 %s >/dev/null' /dev/null",
                 cli, quiet ? "-q " : "", path);
        char *argv[] = {"/bin/sh", "-c", cmd, NULL};
        ev_proc_t p;
        ev_run_proc(argv, NULL, 30, &p);
        ck_assert_int_eq(p.status, 0);
        if (quiet) {
            ck_assert_str_eq(p.out, "");
        } else {
            ck_assert_ptr_nonnull(strstr(p.out, " MiB read ("));
            ck_assert_ptr_nonnull(strstr(p.out, "%)"));
            /* erased at the end: the output ends with CR + erase-line */
            ck_assert_uint_ge(p.out_len, 4);
            ck_assert_mem_eq(p.out + p.out_len - 4, "\r\033[K", 4);
        }
        ev_proc_free(&p);
    }
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* info and dump (per-format plugins) read every input source too. */
START_TEST(test_dump_stdin)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("d.xray", 5, true);
    ev_proc_t a, b;
    run_cli(cli, NULL, &a, "dump", path, NULL);
    run_cli(cli, path, &b, "dump", "-", NULL);
    if (a.status == 4) {
        fprintf(stderr, "test_dump_stdin: no XRay dump plugin in this build, skipped\n");
    } else {
        ck_assert_int_eq(a.status, 0);
        ck_assert_int_eq(b.status, 0);
        ck_assert_str_eq(a.out, b.out);
        ck_assert_uint_gt(a.out_len, 100);
    }
    ev_proc_free(&a);
    ev_proc_free(&b);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* --lenient and -o FORMAT.KEY=VALUE reach the readers of every command. */
START_TEST(test_reader_options)
{
    CLI_OR_SKIP(cli);
    /* XRay: the first buffer has an undefined metadata kind; the second is fine */
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 1000000000u, 0);
    for (int t = 0; t < 2; t++) {
        size_t m = xw_extents(&w, 0);
        xw_new_buffer(&w, 100 + t);
        xw_walltime(&w, 1, 0);
        xw_pid(&w, 7);
        xw_new_cpu(&w, 0, 1000);
        xw_func(&w, 0, 1, 10);
        if (t == 0) {
            uint8_t body[15] = {0};
            xw_meta(&w, 30, body);
        }
        xw_func(&w, 1, 1, 10);
        xw_end_extents(&w, m);
    }
    char *path = ev_temp_file("damaged.xray", w.buf, w.len);
    xw_free(&w);
    ev_proc_t a;
    run_cli(cli, NULL, &a, "dump", path, NULL);
    ck_assert_int_eq(a.status, 1);
    ck_assert_ptr_nonnull(strstr(a.err, "xray error E_BAD_TOKEN at byte 120: metadata record"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "dump", "--lenient", path, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "{\"type\":\"warning\",\"offset\":32,\"status\":"
                                        "\"E_BAD_TOKEN\",\"skipped_bytes\":8,\"reason\":"));
    ck_assert_ptr_nonnull(strstr(a.out, "\"tid\":101")); /* the second buffer is read */
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "info", "--lenient", path, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.err, "xray warning E_BAD_TOKEN at byte 32: E_BAD_TOKEN at "
                                        "byte 120"));
    ck_assert_ptr_nonnull(strstr(a.out, "warnings:    1\n"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "stats", "--lenient", path, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.err, "warning E_BAD_TOKEN at byte 32"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "stats", "-q", "--lenient", path, NULL); /* --quiet silences them */
    ck_assert_int_eq(a.status, 0);
    ck_assert_str_eq(a.err, "");
    ev_proc_free(&a);
    /* a forced byte order the header does not have */
    run_cli(cli, NULL, &a, "info", "-o", "xray.byte-order=big", path, NULL);
    ck_assert_int_eq(a.status, 1);
    ck_assert_ptr_nonnull(strstr(a.err, "E_VERSION at byte 0"));
    ev_proc_free(&a);
    /* bad options are usage errors, before any input is read */
    static const char *const bad[] = {"nope", "fxt.bogus=1", "xray.byte-order=sideways",
                                      "fxt.provider0-fallback=maybe", "ctf.check-uuid",
                                      "xtrace.header=x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_cli(cli, NULL, &a, "dump", "-o", bad[i], "/nonexistent/trace", NULL);
        ck_assert_msg(a.status == 2, "-o %s: exit %d", bad[i], a.status);
        ck_assert_ptr_nonnull(strstr(a.err, bad[i]));
        ev_proc_free(&a);
    }
    /* FXT: ocaml-trace registers its thread before provider_info (fxt.md) */
    const char *peer = drv_peer_dir();
    if (peer == NULL) {
        fprintf(stderr, "test_reader_options: no peer-tests, FXT part skipped\n");
    } else {
        char fxt[1024];
        snprintf(fxt, sizeof fxt, "%s/fxt/ocaml-trace_t2_second.fxt", peer);
        run_cli(cli, NULL, &a, "dump", fxt, NULL);
        ck_assert_int_eq(a.status, 1);
        ck_assert_ptr_nonnull(strstr(a.err, "E_REFERENCE at byte 72"));
        ev_proc_free(&a);
        run_cli(cli, NULL, &a, "dump", "-o", "fxt.provider0-fallback=yes", fxt, NULL);
        ck_assert_int_eq(a.status, 0);
        ck_assert_ptr_nonnull(strstr(a.out, "\"name\":\"hello\""));
        ck_assert_ptr_nonnull(strstr(a.out, "\"pid\":1,\"tid\":86"));
        ev_proc_free(&a);
        run_cli(cli, NULL, &a, "json", "-q", "-o", "fxt.provider0-fallback=yes", fxt, NULL);
        ck_assert_int_eq(a.status, 0);
        ck_assert_ptr_nonnull(strstr(a.out, "\"tid\":86"));
        check_chrome(a.out, a.out_len, "ocaml-trace with provider-0 fallback");
        ev_proc_free(&a);
        run_cli(cli, NULL, &a, "dump", "--lenient", fxt, NULL);
        ck_assert_int_eq(a.status, 0);
        ck_assert_ptr_nonnull(strstr(a.out, "{\"record\":\"warning\",\"offset\":136,\"status\":"
                                            "\"E_REFERENCE\",\"skipped_bytes\":40,"));
        ev_proc_free(&a);
        chrome_run();
    }
    /* an xtrace instruction stream has no magic: its file name says what it is */
    run_cli(cli, NULL, &a, "stats", "-q",
            "tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin", NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "(xtrace v0, little-endian"));
    ev_proc_free(&a);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* --timeout: a peer that sends part of a trace and then stalls (mid-record),
 * and one that never sends, end the read with the timeout's error (exit 3);
 * json still writes a complete document of the events read before, dump has
 * printed them. A --listen with nobody connecting ends the same way when
 * --timeout is given. */
static pid_t stalling_server(int lfd, const uint8_t *data, size_t len)
{
    pid_t server = fork();
    ck_assert_int_ge(server, 0);
    if (server == 0) {
        alarm(20);
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0 || (len > 0 && write(fd, data, len) != (ssize_t)len))
            _exit(2);
        pause(); /* never sends more, never closes: killed by the test */
        _exit(0);
    }
    close(lfd);
    return server;
}

START_TEST(test_tcp_timeout)
{
    CLI_OR_SKIP(cli);
    xw_t w;
    xw_init(&w, false);
    build_sample(&w, 400);
    size_t part = w.len / 2 + 3; /* inside a record */
    for (int mode = 0; mode < 3; mode++) {
        uint16_t port;
        int lfd = listen_any(&port);
        pid_t server = stalling_server(lfd, w.buf, mode == 2 ? 0 : part);
        char url[64];
        snprintf(url, sizeof url, "tcp://127.0.0.1:%u", (unsigned)port);
        ev_proc_t p;
        run_cli(cli, NULL, &p, mode == 1 ? "dump" : "json", "-q", "--timeout", "1", url, NULL);
        kill(server, SIGKILL);
        waitpid(server, NULL, 0);
        ck_assert_msg(p.status == 3, "mode %d: exit %d: %s", mode, p.status, p.err);
        char want[160];
        snprintf(want, sizeof want, "%s: no data for 1 s (--timeout 1): stopped after %zu bytes",
                 url, mode == 2 ? (size_t)0 : part);
        ck_assert_msg(strstr(p.err, want) != NULL, "mode %d: %s", mode, p.err);
        if (mode == 0) { /* a whole document with the events before the stall */
            ck_assert_ptr_nonnull(strstr(p.out, "\"ph\":\"B\""));
            check_chrome(p.out, p.out_len, "timeout");
        } else if (mode == 1) {
            ck_assert_ptr_nonnull(strstr(p.out, "\"function_id\""));
            ck_assert(p.out_len > 0 && p.out[p.out_len - 1] == '\n');
        }
        ev_proc_free(&p);
    }
    chrome_run();
    /* --listen: nobody connects. */
    uint16_t port;
    close(listen_any(&port));
    char spec[64];
    snprintf(spec, sizeof spec, "127.0.0.1:%u", (unsigned)port);
    ev_proc_t p;
    run_cli(cli, NULL, &p, "stats", "-q", "--timeout", "1", "--listen", spec, NULL);
    ck_assert_msg(p.status == 3, "exit %d: %s", p.status, p.err);
    ck_assert_ptr_nonnull(strstr(p.err, "no connection for 1 s (--timeout 1)"));
    ev_proc_free(&p);
    run_cli(cli, NULL, &p, "json", "--timeout", "x", "-", NULL);
    ck_assert_int_eq(p.status, 2);
    ev_proc_free(&p);
    xw_free(&w);
}
END_TEST

/* Usage errors are one line saying what was wrong (exit 2, nothing on
 * standard output); --name=value forms work as --name value (getopt_long). */
START_TEST(test_usage_errors)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("u.xray", 3, false);
    static const struct {
        const char *args[5];
        const char *says;
    } cases[] = {
        {{"stats", "--top", "lots", NULL}, "tracerd: --top lots: not a count from 0 to 1000000"},
        {{"stats", "--top=-1", NULL}, "--top -1: not a count"},
        {{"frobnicate", NULL}, "unknown command 'frobnicate': info, dump, json, stats, stack or perfetto"},
        {{"info", "extra", NULL}, "unexpected argument '/"},
        {{"dump", "--bogus", NULL}, "unknown option --bogus"},
        {{"dump", "-Z", NULL}, "unknown option -Z"},
        {{"dump", "--chunk", "0", NULL}, "--chunk 0: not a size"},
        {{"--top", NULL}, "--top needs a value"},
        {{"-o", NULL}, "-o needs a value"},
        {{"info", NULL}, "info: no trace given"},
        {{NULL}, "no command given"},
        {{"--lenient=yes", "info", NULL}, "unknown option --lenient=yes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ev_proc_t a;
        const char *const *v = cases[i].args;
        /* the trace path last (after "extra" it is the third positional argument) */
        const char *p = strcmp(cases[i].says, "info: no trace given") == 0 ||
                                strncmp(cases[i].says, "no command", 10) == 0 ||
                                strstr(cases[i].says, "needs a value") != NULL
                            ? NULL
                            : path;
        const char *argv[6] = {NULL};
        int n = 0;
        for (; n < 4 && v[n] != NULL; n++)
            argv[n] = v[n];
        argv[n] = p;
        run_cli(cli, NULL, &a, argv[0], argv[1], argv[2], argv[3], argv[4], NULL);
        ck_assert_msg(a.status == 2, "case %zu: exit %d", i, a.status);
        ck_assert_msg(strstr(a.err, cases[i].says) != NULL, "case %zu: %s", i, a.err);
        ck_assert_msg(a.err_len > 0 && strchr(a.err, '\n') == a.err + a.err_len - 1,
                      "case %zu: not one line: %s", i, a.err);
        ck_assert_uint_eq(a.out_len, 0);
        ev_proc_free(&a);
    }
    /* --name=value is --name value; options may follow the command */
    ev_proc_t a, b;
    run_cli(cli, NULL, &a, "stats", "-q", "--top", "1", "--format", "xray", path, NULL);
    run_cli(cli, NULL, &b, "stats", "--quiet", "--top=1", "--format=xray", path, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_int_eq(b.status, 0);
    ck_assert_str_eq(a.out, b.out);
    ev_proc_free(&a);
    ev_proc_free(&b);
    run_cli(cli, NULL, &a, "info", "--option=xray.byte-order=big", path, NULL);
    ck_assert_int_eq(a.status, 1);
    ck_assert_ptr_nonnull(strstr(a.err, "E_VERSION at byte 0"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "--help", NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "usage: tracerd"));
    ev_proc_free(&a);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* --instr-map is read by every command (a missing file: exit 3, not an ELF
 * binary: exit 2, before the trace is read); a trace from standard input
 * whose format the content does not tell says that --format is needed. */
START_TEST(test_instr_map_and_stdin)
{
    CLI_OR_SKIP(cli);
    char *path = write_sample("m.xray", 3, false);
    char *txt = ev_temp_file("notelf.txt", "not an ELF binary at all", 24);
    static const char *const cmds[] = {"info", "dump", "json", "stats"};
    ev_proc_t a;
    for (size_t i = 0; i < 4; i++) {
        run_cli(cli, NULL, &a, cmds[i], "-q", "--instr-map", "/nonexistent/map", path, NULL);
        ck_assert_msg(a.status == 3, "%s: exit %d", cmds[i], a.status);
        ck_assert_str_eq(a.err, "tracerd: --instr-map /nonexistent/map: No such file or directory\n");
        ck_assert_uint_eq(a.out_len, 0);
        ev_proc_free(&a);
        run_cli(cli, NULL, &a, cmds[i], "-q", "--instr-map", txt, path, NULL);
        ck_assert_msg(a.status == 2, "%s: exit %d", cmds[i], a.status);
        ck_assert_ptr_nonnull(strstr(a.err, "instrumentation map error E_MAGIC"));
        ev_proc_free(&a);
    }
    /* an xtrace instruction stream has no magic: from a file its name tells it,
     * from standard input only --format can */
    const char *x = "tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin";
    for (size_t i = 0; i < 4; i++) {
        run_cli(cli, x, &a, cmds[i], "-q", "-", NULL);
        ck_assert_msg(a.status == 4, "%s: exit %d", cmds[i], a.status);
        ck_assert_msg(strstr(a.err, "tracerd: -: not a trace format tracerd recognises from its "
                                    "content; standard input has no file name to tell it: give "
                                    "--format") != NULL,
                      "%s: %s", cmds[i], a.err);
        ev_proc_free(&a);
        run_cli(cli, x, &a, cmds[i], "-q", "--format=xtrace", "-", NULL);
        ck_assert_msg(a.status == 0, "%s --format=xtrace: exit %d: %s", cmds[i], a.status, a.err);
        ev_proc_free(&a);
    }
    /* a file whose format is unknown: the plain message */
    run_cli(cli, NULL, &a, "info", txt, NULL);
    ck_assert_int_eq(a.status, 4);
    ck_assert_ptr_nonnull(strstr(a.err, "notelf.txt: not a trace format tracerd recognises\n"));
    ev_proc_free(&a);
    free(txt);
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* Issue 12: the event view takes an xtrace stream's thread (or CPU) id from
 * a file name that follows xtrace's convention; info reports the SYSCALL_VEC
 * layout decided from the data (or forced). */
START_TEST(test_xtrace_name_and_layout)
{
    CLI_OR_SKIP(cli);
    size_t len;
    uint8_t *bytes =
        drv_read_file("tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin", &len);
    ck_assert_ptr_nonnull(bytes);
    char *named = ev_temp_file("xtrace.1718000000.4242.hint9.xinsndata.bin", bytes, len);
    ev_proc_t a;
    run_cli(cli, NULL, &a, "json", "-q", named, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "{\"ph\":\"B\",\"pid\":0,\"tid\":4242,"));
    ck_assert_ptr_null(strstr(a.out, "{\"ph\":\"B\",\"pid\":0,\"tid\":0,"));
    check_chrome(a.out, a.out_len, "xtrace tid from the name");
    ev_proc_free(&a);
    run_cli(cli, named, &a, "json", "-q", "--format=xtrace", "-", NULL); /* no name: no tid */
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_null(strstr(a.out, "\"tid\":4242"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "stats", "-q", named, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "4242"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "info", named, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "iov layout:  interleaved (decided from the data; "
                                        "consistent over the next 96 bytes to the end: "
                                        "interleaved)\n"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "info", "-o", "xtrace.iov=headers-only", named, NULL);
    ck_assert_ptr_nonnull(strstr(a.out, "iov layout:  headers-only (forced: -o xtrace.iov)\n"));
    ev_proc_free(&a);
    chrome_run();
    free(named);
    free(bytes);
    ev_temp_cleanup();
}
END_TEST

/* Issue 12: info and json agree on a file's format: both use the CLI's
 * detector (an FXT archive without a magic record is FXT by its .fxt name). */
START_TEST(test_info_json_agree)
{
    CLI_OR_SKIP(cli);
    static const uint8_t nomagic[] = {
        0x21, 0, 0, 0, 0, 0, 0, 0, 0x00, 0xca, 0x9a, 0x3b, 0, 0, 0, 0, /* init, 1 GHz */
        0x54, 0, 0, 0, 0, 0, 0x02, 0x80, 5, 0, 0, 0, 0, 0, 0, 0,      /* instant "hi" */
        1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,                 /* pid 1, tid 2 */
        'h', 'i', 0, 0, 0, 0, 0, 0};
    char *path = ev_temp_file("nomagic.fxt", nomagic, sizeof nomagic);
    ev_proc_t a;
    run_cli(cli, NULL, &a, "info", path, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "format: fxt"));
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "json", "-q", path, NULL);
    ck_assert_msg(a.status == 0, "exit %d: %s", a.status, a.err);
    ck_assert_ptr_nonnull(strstr(a.out, "\"name\":\"hi\""));
    ck_assert_ptr_nonnull(strstr(a.out, "\"pid\":1,\"tid\":2,"));
    check_chrome(a.out, a.out_len, "fxt without magic");
    ev_proc_free(&a);
    run_cli(cli, NULL, &a, "stats", "-q", path, NULL);
    ck_assert_int_eq(a.status, 0);
    ck_assert_ptr_nonnull(strstr(a.out, "(fxt v0, little-endian"));
    ev_proc_free(&a);
    chrome_run();
    free(path);
    ev_temp_cleanup();
}
END_TEST

/* FXT info reads no event arguments (the reader's no_args: they are checked
 * all the same) and notes an event's thread once per thread reference while
 * the reference gives the same koids: inline threads (reference 0) that
 * change are each counted, a duration-complete event's end widens the span,
 * every chunk size gives the same report, and a bad argument is the same
 * error, at the same byte, as dump's (which reads the arguments). */
START_TEST(test_fxt_info)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        fxw_t w;
        fxw_init(&w, big != 0);
        fxw_magic(&w);
        fxw_provider_info(&w, 1, "p");
        fxw_init_record(&w, 1000000000u);
        fxw_string(&w, 1, "cat");
        fxw_string(&w, 2, "name");
        fxw_thread(&w, 1, 10, 11);
        const fxw_arg_t args[] = {FXA_U64(FXS_IDX(2), 7), FXA_STR(FXS_INL("k"), FXS_IDX(1)),
                                  FXA_I32(FXS_INL("i"), -3)};
        fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(2), 500, args, 3, 0);
        fxw_event(&w, 2, FXT_INL(1, 3), FXS_IDX(1), FXS_IDX(2), 400, args, 2, 0);
        fxw_event(&w, 3, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(2), 600, NULL, 0, 0);
        fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_INL("n"), 700, args, 1, 0);
        fxw_event(&w, 4, FXT_INL(4, 5), FXS_IDX(1), FXS_IDX(2), 450, args, 3, 900);
        fxw_event(&w, 0, FXT_INL(7, 5), FXS_IDX(1), FXS_IDX(2), 420, NULL, 0, 0);
        size_t good = w.len;
        /* then an argument named by a string index never given */
        const fxw_arg_t bad[] = {FXA_U64(FXS_IDX(2), 1), FXA_U32(FXS_IDX(77), 2)};
        fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1), FXS_IDX(2), 800, bad, 2, 0);
        char *path = ev_temp_file(big ? "info-be.fxt" : "info-le.fxt", w.buf, good);
        char *badpath = ev_temp_file(big ? "bad-be.fxt" : "bad-le.fxt", w.buf, w.len);
        fxw_free(&w);
        ev_proc_t a, b;
        run_cli(cli, NULL, &a, "info", path, NULL);
        ck_assert_msg(a.status == 0, "exit %d: %s", a.status, a.err);
        ck_assert_ptr_nonnull(strstr(a.out, "  event             6\n"));
        /* (10,11) by its record; inline: (1,2) (1,3) (4,5) (7,5), each after one
         * that shares its pid or its tid */
        ck_assert_ptr_nonnull(strstr(a.out, "threads: 5\n"));
        ck_assert_ptr_nonnull(strstr(a.out, "time span: 400 .. 900 ns"));
        static const char *const chunks[] = {"1", "8", "100"};
        for (size_t i = 0; i < 3; i++) {
            run_cli(cli, NULL, &b, "info", "--chunk", chunks[i], path, NULL);
            ck_assert_int_eq(b.status, 0);
            ck_assert_str_eq(b.out, a.out);
            ev_proc_free(&b);
        }
        ev_proc_free(&a);
        run_cli(cli, NULL, &a, "info", badpath, NULL);
        run_cli(cli, NULL, &b, "dump", "-q", badpath, NULL);
        ck_assert_int_ne(a.status, 0);
        ck_assert_int_eq(a.status, b.status);
        ck_assert_ptr_nonnull(strstr(a.err, "argument"));
        ck_assert_str_eq(a.err, b.err);
        ev_proc_free(&a);
        ev_proc_free(&b);
        free(path);
        free(badpath);
    }
    ev_temp_cleanup();
}
END_TEST

Suite *suite_cli(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 90);
    tcase_add_test(tc, test_json_samples);
    tcase_add_test(tc, test_json_escaping);
    tcase_add_test(tc, test_dump_whole_lines);
    tcase_add_test(tc, test_stats);
    tcase_add_test(tc, test_stdin_and_errors);
    tcase_add_test(tc, test_tcp_connect);
    tcase_add_test(tc, test_tcp_listen);
    tcase_add_test(tc, test_tcp_timeout);
    tcase_add_test(tc, test_progress);
    tcase_add_test(tc, test_backpressure);
    tcase_add_test(tc, test_ctf_dir);
    tcase_add_test(tc, test_ctf_info_names);
    tcase_add_test(tc, test_stats_vs_llvm_xray);
    tcase_add_test(tc, test_dump_stdin);
    tcase_add_test(tc, test_reader_options);
    tcase_add_test(tc, test_usage_errors);
    tcase_add_test(tc, test_instr_map_and_stdin);
    tcase_add_test(tc, test_xtrace_name_and_layout);
    tcase_add_test(tc, test_info_json_agree);
    tcase_add_test(tc, test_fxt_info);
    tcase_add_loop_test(tc, test_file_cut_while_read, 0, 2);
    tcase_add_test(tc, test_xray_dump_numbers);
    suite_add_tcase(s, tc);
    return s;
}
