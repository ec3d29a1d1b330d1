/* tracerd: command-line front end. See doc/tracerd.1. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracerd/event.h>

#include "cli.h"

static const struct cli_format *const formats[] = {
#define X(name) &cli_format_##name,
#include "formats.h"
#undef X
    NULL};

static const struct cli_format *pick_format(const cli_t *c);

/* info and dump: the format's own printer. */
static int run_printer(cli_t *c, bool dump)
{
    const struct cli_format *fmt = pick_format(c);
    if (fmt == NULL) {
        fprintf(stderr, "%s: %s: %s\n", c->prog, c->path,
                c->format ? "unknown --format name" : "not a trace format tracerd recognises");
        return c->format ? CLI_EXIT_USAGE : CLI_EXIT_FORMAT;
    }
    return dump ? fmt->dump(c) : fmt->info(c);
}

static int cmd_info(cli_t *c)
{
    return run_printer(c, false);
}

static int cmd_dump(cli_t *c)
{
    return run_printer(c, true);
}

/* The commands: one row each. `event_view` commands read through the
 * format-neutral event view, so --format takes an event-view format name. */
static const struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(cli_t *c);
    bool event_view;
} commands[] = {
    {"info", "format, version, byte order, clock, record counts, threads, time span", cmd_info,
     false},
    {"dump", "one JSON object per record, one per line", cmd_dump, false},
    {"json", "Chrome Trace Event Format JSON (opens in Perfetto and chrome://tracing)",
     cli_cmd_json, true},
    {"stats", "per-thread and per-name counts, total and self time, top N", cli_cmd_stats, true},
};

static const struct cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options] COMMAND TRACE\n"
            "       %s [options] COMMAND --listen HOST:PORT\n"
            "commands:\n",
            prog, prog);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-7s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "TRACE is a file, a CTF trace directory, - for standard input, or tcp://HOST:PORT.\n"
               "options:\n"
               "  --format NAME       skip detection (");
    for (size_t i = 0; formats[i]; i++)
        fprintf(f, "%s%s", i ? ", " : "", formats[i]->name);
    fprintf(f,
            ")\n"
            "  --metadata PATH     CTF metadata for a single stream file\n"
            "  --listen HOST:PORT  accept one TCP connection and read the trace from it\n"
            "  --timeout SECONDS   tcp:// and --listen: end the read when no data came for\n"
            "                      that long (default 60; 0 = wait forever; also bounds the\n"
            "                      wait for a --listen connection when given)\n"
            "  --instr-map BINARY  XRay: name functions from the instrumented binary\n"
            "  --top N             stats: show the N names with the most time (default 20;\n"
            "                      0 = all)\n"
            "  --chunk BYTES       read size (default 262144)\n"
            "  --lenient           skip damaged buffers, records or packets with a warning\n"
            "                      and read on (default: stop at the first error)\n"
            "  -o FORMAT.KEY=VALUE reader option (repeatable): xray.byte-order=auto|little|big,\n"
            "                      fxt.byte-order=auto|little|big, fxt.no-magic-order=little|big,\n"
            "                      fxt.provider0-fallback=yes|no, ctf.check-uuid=yes|no,\n"
            "                      xtrace.KEY=VALUE (the TRACERD_XTRACE keys, doc/tracerd.1)\n"
            "  -q, --quiet         no progress line on standard error\n"
            "  --version           print the library version\n"
            "exit status: 0 ok, 1 bad trace, 2 usage, 3 I/O error, 4 unknown format,\n"
            "5 format recognised but not supported by this command.\n");
    return CLI_EXIT_USAGE;
}

static const struct cli_format *pick_format(const cli_t *c)
{
    const struct cli_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; formats[i]; i++) {
        if (c->format != NULL) {
            if (strcmp(c->format, formats[i]->name) == 0)
                return formats[i];
            continue;
        }
        int s = formats[i]->detect(c->head, c->head_len, c->path, c->is_dir);
        if (s > best_score) {
            best_score = s;
            best = formats[i];
        }
    }
    return best;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0 || v > max)
        return false;
    *out = v;
    return true;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    c.prog = "tracerd";
    c.out = stdout;
    c.fd = -1;
    c.top = 20;
    const char *pos[2];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_val = i + 1 < argc;
        unsigned long v;
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (npos == 2)
                return usage(stderr, c.prog);
            pos[npos++] = a;
        } else if (strcmp(a, "--version") == 0) {
            printf("tracerd %s\n", tracerd_version_string());
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, c.prog);
            return CLI_EXIT_OK;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            c.quiet = true;
        } else if (strcmp(a, "--format") == 0 && has_val) {
            c.format = argv[++i];
        } else if (strcmp(a, "--metadata") == 0 && has_val) {
            c.metadata = argv[++i];
        } else if (strcmp(a, "--listen") == 0 && has_val) {
            c.listen = argv[++i];
        } else if (strcmp(a, "--timeout") == 0 && has_val) {
            if (!parse_uint(argv[++i], CLI_TIMEOUT_MAX, &v))
                return usage(stderr, c.prog);
            c.timeout = (unsigned)v;
            c.timeout_given = true;
        } else if (strcmp(a, "--instr-map") == 0 && has_val) {
            c.instr_map = argv[++i];
        } else if (strcmp(a, "--top") == 0 && has_val) {
            if (!parse_uint(argv[++i], 1000000, &v))
                return usage(stderr, c.prog);
            c.top = (unsigned)v;
        } else if (strcmp(a, "--lenient") == 0) {
            c.lenient = true;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--option") == 0) && has_val) {
            if (c.nopts == CLI_OPTS_MAX) {
                fprintf(stderr, "%s: more than %d -o options\n", c.prog, CLI_OPTS_MAX);
                return CLI_EXIT_USAGE;
            }
            c.opts[c.nopts++] = argv[++i];
        } else if (strcmp(a, "--chunk") == 0 && has_val) {
            if (!parse_uint(argv[++i], 1ul << 30, &v) || v == 0)
                return usage(stderr, c.prog);
            c.chunk = v;
        } else {
            fprintf(stderr, "%s: unknown option or missing value: %s\n", c.prog, a);
            return usage(stderr, c.prog);
        }
    }
    if (npos != (c.listen != NULL ? 1 : 2))
        return usage(stderr, c.prog);
    c.cmd = pos[0];
    c.path = c.listen != NULL ? c.listen : pos[1];
    const struct cli_command *cmd = find_command(c.cmd);
    if (cmd == NULL)
        return usage(stderr, c.prog);
    if (cmd->event_view && c.format != NULL &&
        tracerd_event_format_from_name(c.format) == TRACERD_EVENT_FORMAT_UNKNOWN) {
        fprintf(stderr, "%s: unknown --format name: %s\n", c.prog, c.format);
        return CLI_EXIT_USAGE;
    }
    int rc = cli_config_check(&c); /* every reader option, before any input is read */
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_open_input(&c);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cmd->run(&c);
    cli_progress_done(&c);
    if (c.fd > STDIN_FILENO)
        close(c.fd);
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK)
        rc = CLI_EXIT_IO;
    return rc;
}
