/* Test support for the event view and the CLI (see event_support.h). */
#include "event_support.h"
#include "driver.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- ELF writer ----------------------------------------------------------------- */

struct buf {
    uint8_t *p;
    size_t len, cap;
    bool big;
};

static void b_put(struct buf *b, const void *d, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        ck_assert_ptr_nonnull(b->p);
    }
    if (d != NULL)
        memcpy(b->p + b->len, d, n);
    else
        memset(b->p + b->len, 0, n);
    b->len += n;
}

static void b_uint(struct buf *b, uint64_t v, unsigned n)
{
    uint8_t t[8];
    for (unsigned i = 0; i < n; i++)
        t[b->big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
    b_put(b, t, n);
}

static void b_align(struct buf *b, size_t a)
{
    while (b->len % a != 0)
        b_put(b, NULL, 1);
}

static void sh(struct buf *b, bool is64, uint32_t name, uint32_t type, uint64_t addr, uint64_t off,
               uint64_t size, uint32_t link, uint64_t entsize)
{
    unsigned w = is64 ? 8 : 4;
    b_uint(b, name, 4);
    b_uint(b, type, 4);
    b_uint(b, 0, w); /* flags */
    b_uint(b, addr, w);
    b_uint(b, off, w);
    b_uint(b, size, w);
    b_uint(b, link, 4);
    b_uint(b, 0, 4); /* info */
    b_uint(b, 8, w); /* addralign */
    b_uint(b, entsize, w);
}

uint8_t *ev_elf_write(bool is64, bool big, uint64_t map_addr, const uint64_t *sled_fn,
                      size_t nsleds, unsigned sled_version, const ev_elf_sym_t *syms, size_t nsyms,
                      size_t *len)
{
    struct buf b = {NULL, 0, 0, big};
    unsigned w = is64 ? 8 : 4;
    size_t ehsize = is64 ? 64 : 52, esz = is64 ? 32 : 16, symsz = is64 ? 24 : 16;
    static const char shstr[] = "\0.shstrtab\0xray_instr_map\0.symtab\0.strtab";
    b_put(&b, NULL, ehsize); /* header written last */
    size_t shstr_off = b.len;
    b_put(&b, shstr, sizeof shstr);
    b_align(&b, 8);
    size_t map_off = b.len;
    for (size_t i = 0; i < nsleds; i++) {
        uint64_t at = map_addr + i * esz;
        uint64_t addr = sled_fn[i] + (i % 2 ? 0x10u : 0u);
        uint64_t fn = sled_fn[i];
        if (sled_version >= 2) {
            addr -= at;
            fn -= at + w;
        }
        b_uint(&b, addr, w);
        b_uint(&b, fn, w);
        uint8_t tail[3] = {(uint8_t)(i % 2), 0, (uint8_t)sled_version};
        b_put(&b, tail, 3);
        b_put(&b, NULL, esz - 2 * w - 3);
    }
    size_t map_size = b.len - map_off;
    /* strtab content first, to know name offsets */
    struct buf st = {NULL, 0, 0, big};
    b_put(&st, "", 1);
    uint32_t *noff = calloc(nsyms + 1, sizeof *noff);
    for (size_t i = 0; i < nsyms; i++) {
        noff[i] = (uint32_t)st.len;
        b_put(&st, syms[i].name, strlen(syms[i].name) + 1);
    }
    b_align(&b, 8);
    size_t sym_off = b.len;
    b_put(&b, NULL, symsz); /* the null symbol */
    for (size_t i = 0; i < nsyms; i++) {
        uint8_t info = syms[i].func ? 0x12 : 0x11; /* GLOBAL FUNC / GLOBAL OBJECT */
        b_uint(&b, noff[i], 4);
        if (is64) {
            b_put(&b, &info, 1);
            b_put(&b, NULL, 1);
            b_uint(&b, 2, 2); /* shndx */
            b_uint(&b, syms[i].value, 8);
            b_uint(&b, syms[i].size, 8);
        } else {
            b_uint(&b, syms[i].value, 4);
            b_uint(&b, syms[i].size, 4);
            b_put(&b, &info, 1);
            b_put(&b, NULL, 1);
            b_uint(&b, 2, 2);
        }
    }
    size_t sym_size = b.len - sym_off;
    size_t str_off = b.len;
    b_put(&b, st.p, st.len);
    free(st.p);
    free(noff);
    b_align(&b, 8);
    size_t shoff = b.len;
    sh(&b, is64, 0, 0, 0, 0, 0, 0, 0);
    sh(&b, is64, 1, 3, 0, shstr_off, sizeof shstr, 0, 0);
    sh(&b, is64, 11, 1, map_addr, map_off, map_size, 0, 0);
    sh(&b, is64, 26, 2, 0, sym_off, sym_size, 4, symsz);
    sh(&b, is64, 34, 3, 0, str_off, b.len - str_off, 0, 0); /* size fixed below */
    /* .strtab's size: the string bytes only */
    size_t str_size = sym_off + sym_size; /* placeholder to keep the layout simple */
    (void)str_size;
    /* header */
    struct buf h = {NULL, 0, 0, big};
    uint8_t ident[16] = {0x7f, 'E', 'L', 'F', (uint8_t)(is64 ? 2 : 1), (uint8_t)(big ? 2 : 1), 1};
    b_put(&h, ident, 16);
    b_uint(&h, 2, 2);                       /* ET_EXEC */
    b_uint(&h, is64 ? 62 : 3, 2);           /* machine */
    b_uint(&h, 1, 4);                       /* version */
    b_uint(&h, 0, w);                       /* entry */
    b_uint(&h, 0, w);                       /* phoff */
    b_uint(&h, shoff, w);                   /* shoff */
    b_uint(&h, 0, 4);                       /* flags */
    b_uint(&h, ehsize, 2);
    b_uint(&h, 0, 2);                       /* phentsize */
    b_uint(&h, 0, 2);                       /* phnum */
    b_uint(&h, is64 ? 64 : 40, 2);          /* shentsize */
    b_uint(&h, 5, 2);                       /* shnum */
    b_uint(&h, 1, 2);                       /* shstrndx */
    ck_assert_uint_eq(h.len, ehsize);
    memcpy(b.p, h.p, ehsize);
    free(h.p);
    /* Patch .strtab's size (section 4) to its real length. */
    size_t shsz = is64 ? 64 : 40;
    uint8_t *s4 = b.p + shoff + 4 * shsz + (is64 ? 32 : 20);
    struct buf fix = {NULL, 0, 0, big};
    b_uint(&fix, shoff - str_off, w);
    memcpy(s4, fix.p, w);
    free(fix.p);
    *len = b.len;
    return b.p;
}

char *ev_cpp_instr_map(void)
{
    static const ev_elf_sym_t syms[] = {{"_ZN2ns3Foo3runEv", 0x1000, 16, true},
                                        {"_Z4workIiEvT_", 0x1040, 16, true},
                                        {"plain_c", 0x1080, 16, true}};
    const uint64_t fn[] = {0x1000, 0x1000, 0x1040, 0x1040, 0x1080, 0x1080};
    size_t len;
    uint8_t *elf = ev_elf_write(true, false, 0x9000, fn, 6, 2, syms, 3, &len);
    char *path = ev_temp_file("app", elf, len);
    free(elf);
    return path;
}

/* ---- subprocesses ------------------------------------------------------------------ */

const char *ev_cli_path(void)
{
    const char *p = getenv("TRACERD_CLI");
    if (p == NULL || *p == '\0')
        p = "build/tracerd";
    return access(p, X_OK) == 0 ? p : NULL;
}

static void drain_fd(int fd, char **buf, size_t *len, size_t *cap, bool *open_)
{
    char tmp[65536];
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        *open_ = false;
        return;
    }
    if (*len + (size_t)n + 1 > *cap) {
        *cap = (*len + (size_t)n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    memcpy(*buf + *len, tmp, (size_t)n);
    *len += (size_t)n;
    (*buf)[*len] = '\0';
}

unsigned ev_count(const char *text, const char *what)
{
    size_t n = strlen(what);
    unsigned k = 0;
    if (n == 0)
        return 0;
    for (const char *q = text; *q != '\0'; q++)
        if (*q == what[0] && strncmp(q, what, n) == 0) {
            k++;
            q += n - 1;
        }
    return k;
}

extern char **environ;

/* The child is started with posix_spawn, not fork: glibc starts it without
 * copying the parent's page tables, which under ASan (terabytes of shadow
 * mappings) made every fork cost more than the CLI run it started. */
/* ev_run_proc, calling first_out(ctx) once, after the child's first
 * standard output was read (NULL: never). */
static void run_proc(char *const argv[], const char *stdin_path, unsigned timeout_s, ev_proc_t *p,
                     void (*first_out)(void *), void *ctx)
{
    memset(p, 0, sizeof *p);
    p->out = calloc(1, 1);
    p->err = calloc(1, 1);
    int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY | O_CLOEXEC);
    if (in < 0) { /* what the child reported before: nothing to read from */
        p->status = 126;
        return;
    }
    int po[2], pe[2];
    ck_assert_int_eq(pipe(po), 0);
    ck_assert_int_eq(pipe(pe), 0);
    for (int i = 0; i < 2; i++) {
        fcntl(po[i], F_SETFD, FD_CLOEXEC);
        fcntl(pe[i], F_SETFD, FD_CLOEXEC);
    }
    posix_spawn_file_actions_t fa;
    ck_assert_int_eq(posix_spawn_file_actions_init(&fa), 0);
    /* dup2 leaves the copies open across exec; every other descriptor of
     * this process is close-on-exec or Check's own */
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    pid_t pid;
    int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in);
    if (err != 0) { /* exec failed: the status the forked child gave */
        close(po[0]);
        close(po[1]);
        close(pe[0]);
        close(pe[1]);
        p->status = 127;
        return;
    }
    close(po[1]);
    close(pe[1]);
    size_t ocap = 1, ecap = 1;
    bool oo = true, eo = true;
    time_t deadline = time(NULL) + (time_t)timeout_s;
    while (oo || eo) {
        /* (a pipe at its end leaves the set: poll would report it at once) */
        struct pollfd fds[2] = {{oo ? po[0] : -1, POLLIN, 0}, {eo ? pe[0] : -1, POLLIN, 0}};
        int r = poll(fds, 2, 200);
        if (r > 0) {
            if (oo && (fds[0].revents & (POLLIN | POLLHUP)))
                drain_fd(po[0], &p->out, &p->out_len, &ocap, &oo);
            if (first_out != NULL && p->out_len > 0) {
                first_out(ctx);
                first_out = NULL;
            }
            if (eo && (fds[1].revents & (POLLIN | POLLHUP)))
                drain_fd(pe[0], &p->err, &p->err_len, &ecap, &eo);
        }
        if (time(NULL) > deadline) {
            kill(pid, SIGKILL);
            break;
        }
    }
    close(po[0]);
    close(pe[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void ev_run_proc(char *const argv[], const char *stdin_path, unsigned timeout_s, ev_proc_t *p)
{
    run_proc(argv, stdin_path, timeout_s, p, NULL, NULL);
}

struct cut {
    const char *path;
    off_t to;
};

static void cut_now(void *ctx)
{
    const struct cut *c = ctx;
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL); /* nobody reads: the CLI blocks writing */
    ck_assert_int_eq(truncate(c->path, c->to), 0);
}

void ev_run_cli_cut(const char *cli, const char *cmd, const char *input, const char *cut_path,
                    off_t cut_to, ev_proc_t *p)
{
    char *argv[] = {(char *)(uintptr_t)cli, (char *)(uintptr_t)cmd, (char *)(uintptr_t) "-q",
                    (char *)(uintptr_t)input, NULL};
    struct cut c = {cut_path, cut_to};
    run_proc(argv, NULL, 60, p, cut_now, &c);
}

void ev_proc_free(ev_proc_t *p)
{
    free(p->out);
    free(p->err);
    memset(p, 0, sizeof *p);
}

static char temp_dir[64];

const char *ev_temp_dir(void)
{
    char *dir = temp_dir;
    if (dir[0] == '\0') {
        snprintf(dir, sizeof temp_dir, "/tmp/tracerd-event-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
    }
    return dir;
}

char *ev_temp_file(const char *name, const void *data, size_t len)
{
    char *path = malloc(strlen(ev_temp_dir()) + strlen(name) + 2);
    sprintf(path, "%s/%s", ev_temp_dir(), name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
    return path;
}

void ev_temp_cleanup(void)
{
    if (temp_dir[0] == '\0')
        return;
    if (drv_rm_tree(temp_dir) != 0)
        fprintf(stderr, "could not remove %s\n", temp_dir);
    temp_dir[0] = '\0';
}

void ev_temp_fixture(TCase *tc)
{
    tcase_add_checked_fixture(tc, NULL, ev_temp_cleanup);
}

void ev_run_cli(const char *cli, const char *stdin_path, ev_proc_t *p, ...)
{
    char *argv[32] = {(char *)(uintptr_t)cli};
    int n = 1;
    va_list ap;
    va_start(ap, p);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && n < 31)
        argv[n++] = (char *)(uintptr_t)a;
    va_end(ap);
    argv[n] = NULL;
    ev_run_proc(argv, stdin_path, 30, p);
}

/* `cli cmd [two_first...] args... path` into p (two_first: NULL, or up to 4
 * arguments ended by NULL; args: up to 8, ended by NULL). */
static void run_cmd(const char *cli, const char *cmd, const char *const *two_first,
                    const char *const *args, const char *path, ev_proc_t *p)
{
    char *argv[16] = {(char *)(uintptr_t)cli, (char *)(uintptr_t)cmd};
    int n = 2;
    for (size_t i = 0; two_first != NULL && i < 4 && two_first[i] != NULL; i++)
        argv[n++] = (char *)(uintptr_t)two_first[i];
    for (size_t i = 0; i < 8 && args[i] != NULL; i++)
        argv[n++] = (char *)(uintptr_t)args[i];
    argv[n++] = (char *)(uintptr_t)path;
    argv[n] = NULL;
    ev_run_proc(argv, NULL, 30, p);
}

/* Where two outputs first differ: the line's number and, from each, that
 * line (at most 200 bytes), so a failing comparison of megabytes of output
 * still gives Check a message it can carry. */
static void first_difference(const char *a, size_t an, const char *b, size_t bn, char *msg,
                             size_t cap)
{
    size_t i = 0, line = 1, start = 0;
    while (i < an && i < bn && a[i] == b[i]) {
        if (a[i] == '\n')
            line++, start = i + 1;
        i++;
    }
    size_t ae = start, be = start;
    while (ae < an && a[ae] != '\n' && ae - start < 200)
        ae++;
    while (be < bn && b[be] != '\n' && be - start < 200)
        be++;
    snprintf(msg, cap, "line %zu (byte %zu of %zu vs %zu):\n%.*s\n---\n%.*s", line, i, an, bn,
             (int)(ae - start), a + start, (int)(be - start), b + start);
}

/* Fails unless run one and run two (the second way: how) gave the same
 * exit status, output and errors. */
static void expect_same_run(const ev_proc_t *one, const ev_proc_t *two, const char *cmd,
                            const char *path, const char *a0, const char *how)
{
    ck_assert_msg(one->status == two->status, "%s %s %s: exit %d vs %d (%s)", cmd, path, a0,
                  one->status, two->status, how);
    char d[600] = "";
    bool out_same = one->out_len == two->out_len && memcmp(one->out, two->out, one->out_len) == 0;
    if (!out_same)
        first_difference(one->out, one->out_len, two->out, two->out_len, d, sizeof d);
    ck_assert_msg(out_same, "%s %s %s: output differs (%s second) at %s", cmd, path, a0, how, d);
    bool err_same = one->err_len == two->err_len && memcmp(one->err, two->err, one->err_len) == 0;
    if (!err_same)
        first_difference(one->err, one->err_len, two->err, two->err_len, d, sizeof d);
    ck_assert_msg(err_same, "%s %s %s: errors differ (%s second) at %s", cmd, path, a0, how, d);
}

void ev_run_second(const char *cli, const char *env, const char *const *more, const char *cmd,
                   const char *const *args, const char *path, ev_proc_t *ref)
{
    if (env != NULL)
        setenv(env, "1", 1);
    run_cmd(cli, cmd, more, args, path, ref);
    if (env != NULL)
        unsetenv(env);
}

unsigned ev_run_first_like(const char *cli, const char *env, const char *const *more,
                           const char *cmd, const char *const *args, const char *path,
                           const ev_proc_t *ref)
{
    ev_proc_t one;
    if (env != NULL)
        unsetenv(env);
    run_cmd(cli, cmd, NULL, args, path, &one);
    expect_same_run(&one, ref, cmd, path, args[0] != NULL ? args[0] : "",
                    env != NULL ? env : more[0]);
    unsigned ok = one.status == 0;
    ev_proc_free(&one);
    return ok;
}

/* Runs `cli cmd args... path` twice, the second time with env set to "1"
 * (env not NULL) and with two_first before args (not NULL); fails on any
 * difference. Returns 1 when the first run exits 0. */
static unsigned run_twice(const char *cli, const char *env, const char *const *two_first,
                          const char *cmd, const char *const *args, const char *path)
{
    ev_proc_t one, two;
    if (env != NULL)
        unsetenv(env);
    run_cmd(cli, cmd, NULL, args, path, &one);
    ev_run_second(cli, env, two_first, cmd, args, path, &two);
    expect_same_run(&one, &two, cmd, path, args[0] != NULL ? args[0] : "",
                    env != NULL ? env : two_first[0]);
    unsigned ok = one.status == 0;
    ev_proc_free(&one);
    ev_proc_free(&two);
    return ok;
}

unsigned ev_run_both_ways(const char *cli, const char *env, const char *cmd,
                          const char *const *args, const char *path)
{
    return run_twice(cli, env, NULL, cmd, args, path);
}

unsigned ev_run_with_args(const char *cli, const char *const *more, const char *cmd,
                          const char *const *args, const char *path)
{
    return run_twice(cli, NULL, more, cmd, args, path);
}

void ev_walk_tree(const char *dir, void (*visit)(void *ctx, const char *path, bool is_dir),
                  void *ctx)
{
    visit(ctx, dir, true);
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode))
            ev_walk_tree(path, visit, ctx);
        else if (S_ISREG(sb.st_mode))
            visit(ctx, path, false);
    }
    closedir(d);
}

/* ---- an LTTng-UST function instrumentation trace ---------------------------- */

const char ev_lttng_func_metadata[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "trace { major = 1; minor = 8; byte_order = le;\n"
    "  packet.header := struct { uint32_t magic; }; };\n"
    "env { domain = \"ust\"; };\n"
    "clock { name = \"c\"; freq = 1000000000; };\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := clk_t;\n"
    "stream { packet.context := struct { uint64_t content_size; uint64_t packet_size;\n"
    "    uint32_t cpu_id; };\n"
    "  event.header := struct { uint32_t id; clk_t timestamp; };\n"
    "  event.context := struct { uint32_t vtid; uint32_t vpid; }; };\n"
    "event { name = \"lttng_ust_cyg_profile:func_entry\"; id = 0;\n"
    "  fields := struct { uint64_t addr; uint64_t call_site; }; };\n"
    "event { name = \"lttng_ust_cyg_profile:func_exit\"; id = 1;\n"
    "  fields := struct { uint64_t addr; uint64_t call_site; }; };\n";

static void put_le(uint8_t **p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        *(*p)++ = (uint8_t)(v >> (8 * i));
}

/* One packet: entry of 0x401000 at 1000, exit at 1500, on cpu 3, thread 77 of process 7. */
size_t ev_lttng_func_stream(uint8_t *buf)
{
    uint8_t *p = buf;
    put_le(&p, 0xC1FC1FC1u, 4);
    put_le(&p, (24 + 2 * 36) * 8, 8); /* content_size: 24 bytes of header and context, 2 events */
    put_le(&p, (24 + 2 * 36) * 8, 8); /* packet_size */
    put_le(&p, 3, 4);
    for (int i = 0; i < 2; i++) {
        put_le(&p, (uint64_t)i, 4);
        put_le(&p, i ? 1500 : 1000, 8);
        put_le(&p, 77, 4);
        put_le(&p, 7, 4);
        put_le(&p, 0x401000, 8);
        put_le(&p, 0x402000, 8);
    }
    return (size_t)(p - buf);
}

