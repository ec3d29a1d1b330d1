/* Reading a CTF trace directory into babeltrace2-style text and comparing
 * it with babeltrace2's recorded output: shared by the CTF 1.8 and CTF 2
 * peer suites. */
#include "ctf_peer.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "driver.h"

size_t count_lines(const char *log, const char *prefix)
{
    size_t n = 0, pl = strlen(prefix);
    for (const char *p = log; p && *p;) {
        if (strncmp(p, prefix, pl) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}

char *slurp(const char *path)
{
    size_t n;
    uint8_t *b = drv_read_file(path, &n);
    if (b == NULL)
        return NULL;
    char *s = realloc(b, n + 1);
    s[n] = '\0';
    return s;
}


struct dir_run_call {
    tracerd_ctf_dir_t *d;
    tracerd_status_t st;
};

static void dir_run_call(void *p)
{
    struct dir_run_call *c = p;
    c->st = tracerd_ctf_dir_run(c->d);
}

tracerd_status_t dir_run_bounded(tracerd_ctf_dir_t *d, double cpu_seconds, const char *what,
                                 const uint64_t *events, const tlog_t *log)
{
    const uint64_t before = *events;
    struct dir_run_call c = {d, TRACERD_OK};
    if (drv_cpu_bounded(cpu_seconds, dir_run_call, &c))
        return c.st;
    /* the last line of the log */
    const char *last = "none", *end = log->buf != NULL ? log->buf + log->len : NULL;
    int last_len = 4;
    if (end != NULL && end > log->buf) {
        const char *b = end - 1; /* its newline */
        while (b > log->buf && b[-1] != '\n')
            b--;
        last = b;
        last_len = (int)(end - 1 - b);
    }
    ck_assert_msg(false,
                  "%s: tracerd_ctf_dir_run did not return within %g s of CPU time (a live-lock "
                  "in the directory's merge?): %" PRIu64 " events before this run, %" PRIu64
                  " in it, the last: %.*s",
                  what, cpu_seconds, before, *events - before, last_len, last);
    return TRACERD_E_INVALID;
}

void read_dir(const char *dir, const tracerd_ctf_dir_config_t *cfg, struct peer_result *pr)
{
    read_dir_bounded(dir, cfg, pr, false, 0);
}

void read_dir_as(const char *dir, const tracerd_ctf_dir_config_t *cfg, struct peer_result *pr,
                 bool bt21)
{
    read_dir_bounded(dir, cfg, pr, bt21, 0);
}

void read_dir_bounded(const char *dir, const tracerd_ctf_dir_config_t *cfg, struct peer_result *pr,
                      bool bt21, double cpu_seconds)
{
    memset(pr, 0, sizeof *pr);
    pr->text.bt21 = bt21;
    tracerd_ctf_callbacks_t cb;
    ctf_text_callbacks(&cb);
    tracerd_ctf_dir_t *d = NULL;
    pr->st = tracerd_ctf_dir_open(dir, cfg, &cb, &pr->text, NULL, &d);
    pr->text.dir = d;
    if (pr->st == TRACERD_OK && cpu_seconds > 0) {
        char what[1100];
        snprintf(what, sizeof what, "%s, chunk_bytes %zu", dir, cfg != NULL ? cfg->chunk_bytes : 0);
        pr->st = dir_run_bounded(d, cpu_seconds, what, &pr->text.events, &pr->text.out);
    } else if (pr->st == TRACERD_OK) {
        pr->st = tracerd_ctf_dir_run(d);
    }
    if (pr->st != TRACERD_OK && d)
        snprintf(pr->reason, sizeof pr->reason, "%s: %s", tracerd_ctf_dir_error_path(d),
                 tracerd_ctf_dir_error_reason(d));
    tracerd_ctf_dir_free(d);
    if (pr->text.out.buf == NULL)
        tlog_printf(&pr->text.out, "%s", "");
}

/* Compares babeltrace2's lines with ours: same count; each expected line has
 * our "NAME: scopes" as its suffix and the same timestamp (lines with equal
 * timestamps may come in either order). Returns the number of mismatches. */
static bool same_text(const char *exp, const char *mine, bool quirk);

/* Does babeltrace2's line (after its timestamp) end with our "NAME: ..."? */
static bool line_matches(const char *rest, const char *mine, bool quirk)
{
    size_t ml = strlen(mine), rl = strlen(rest);
    if (ml <= rl && strcmp(rest + rl - ml, mine) == 0 && (ml == rl || rest[rl - ml - 1] == ' '))
        return true;
    if (!quirk)
        return false;
    const char *colon = strstr(mine, ": ");
    if (colon == NULL)
        return false;
    size_t nl = (size_t)(colon - mine) + 2;
    for (const char *p = rest; (p = strstr(p, " ")) != NULL; p++)
        if (strncmp(p + 1, mine, nl) == 0 && same_text(p + 1, mine, true))
            return true;
    return strncmp(rest, mine, nl) == 0 && same_text(rest, mine, true);
}


size_t compare_bt2(const char *name, const char *expected, const char *got)
{
    return compare_bt2q(name, expected, got, false);
}

size_t compare_bt2q(const char *name, const char *expected, const char *got, bool quirk)
{
    size_t nexp = count_lines(expected, ""), ngot = count_lines(got, "");
    ck_assert_msg(nexp == ngot, "%s: babeltrace2 printed %zu events, tracerd %zu", name, nexp,
                  ngot);
    char **lines = calloc(ngot + 1, sizeof *lines);
    char *g = strdup(got);
    size_t k = 0;
    for (char *p = strtok(g, "\n"); p; p = strtok(NULL, "\n"))
        lines[k++] = p;
    size_t bad = 0, start = 0;
    char *e = strdup(expected);
    char *save = NULL;
    for (char *line = strtok_r(e, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *rest = line;
        char ts[32] = "";
        if (line[0] == '[') {
            memcpy(ts, line, 22);
            ts[22] = '\0';
        }
        bool ok = false;
        for (size_t i = start; i < k && !ok; i++) {
            if (lines[i] == NULL)
                continue;
            const char *mine = lines[i];
            if (ts[0]) {
                if (strncmp(mine, ts, 22) != 0) {
                    if (i == start)
                        continue;
                    break;
                }
                mine += 23;
            }
            if (line_matches(rest, mine, quirk)) {
                lines[i] = NULL;
                ok = true;
            }
        }
        while (start < k && lines[start] == NULL)
            start++;
        if (!ok && bad++ < 3)
            fprintf(stderr, "%s: no match for: %.300s\n", name, line);
    }
    free(e);
    free(g);
    free(lines);
    return bad;
}

/* babeltrace2 2.0.4 prints an empty string field of a reused event as the
 * value it had in an earlier event: with `quirk`, a string literal that is
 * empty in our line matches any literal in babeltrace2's. */
static bool same_text(const char *exp, const char *mine, bool quirk)
{
    while (*exp && *mine) {
        if (quirk && *exp == '"' && *mine == '"') {
            const char *e = exp + 1, *m = mine + 1;
            while (*e && *e != '"')
                e += (*e == '\\' && e[1]) ? 2 : 1;
            while (*m && *m != '"')
                m += (*m == '\\' && m[1]) ? 2 : 1;
            if (*e == '\0' || *m == '\0')
                return false;
            size_t el = (size_t)(e - exp), ml = (size_t)(m - mine);
            if (!(ml == 1 || (el == ml && memcmp(exp, mine, el) == 0)))
                return false;
            exp = e + 1;
            mine = m + 1;
            continue;
        }
        if (*exp++ != *mine++)
            return false;
    }
    return *exp == *mine;
}

size_t sum_discarded(const char *stderr_text, const char *unit)
{
    size_t total = 0;
    for (const char *p = stderr_text; p && (p = strstr(p, "discarded ")) != NULL;) {
        p += 10;
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (*end == ' ' && strncmp(end + 1, unit, strlen(unit)) == 0)
            total += v;
        p = end;
    }
    return total;
}


char *run_output(const char *cmd, int *rc)
{
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    tlog_t out = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        tlog_printf(&out, "%.*s", (int)n, buf);
    int st = pclose(f);
    *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return tlog_take(&out);
}

char *cli_run(const char *args, int *rc)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", getenv("TRACERD_CLI"), args);
    return run_output(cmd, rc);
}
