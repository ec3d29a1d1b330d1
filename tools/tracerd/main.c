/* tracerd: command-line front end. See doc/tracerd.1. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracerd/event.h>

#include "cli.h"

const struct cli_format *const cli_formats[CLI_NFORMATS + 1] = {
#define X(name) &cli_format_##name,
#include "formats.h"
#undef X
    NULL};

/* info and dump: the format's own printer. */
static int run_printer(cli_t *c, bool dump)
{
    const struct cli_format *fmt = cli_pick_format(c);
    if (fmt == NULL && c->format != NULL) {
        fprintf(stderr, "%s: %s: unknown --format name\n", c->prog, c->path);
        return CLI_EXIT_USAGE;
    }
    if (fmt == NULL)
        return cli_unknown_format(c);
    return dump ? fmt->dump(c) : fmt->info(c);
}

static int cmd_info(cli_t *c)
{
    /* --json (or --format json): the same keys for every format, through the event view */
    if (c->info_json || (c->out_format_given && c->stats_format == CLI_STATS_JSON))
        return cli_cmd_info_json(c);
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
    {"stack", "folded call stacks for flame graphs, or the heaviest stacks", cli_cmd_stack, true},
    {"perfetto", "Perfetto protobuf trace (opens in ui.perfetto.dev)", cli_cmd_perfetto, true},
};

static const struct cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* The usage lines of every format's flags. */
static void format_flags_usage(FILE *f)
{
    for (size_t i = 0; cli_formats[i]; i++)
        for (const struct cli_flag *fl = cli_formats[i]->flags; fl && fl->name; fl++) {
            char head[64];
            snprintf(head, sizeof head, "--%s %s", fl->name, fl->arg);
            fprintf(f, "  %-19s %s\n", head, fl->help);
        }
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
    for (size_t i = 0; cli_formats[i]; i++)
        fprintf(f, "%s%s", i ? ", " : "", cli_formats[i]->name);
    fprintf(f, ")\n");
    format_flags_usage(f);
    fprintf(f, "  --listen HOST:PORT  accept one TCP connection and read the trace from it\n"
               "  --timeout SECONDS   tcp:// and --listen: end the read when no data came for\n"
               "                      that long (default 60; 0 = wait forever; also bounds the\n"
               "                      wait for a --listen connection when given)\n"
               "  --top N             stats: show the N names with the most time (default 20;\n"
               "                      0 = all)\n"
               "  --sort KEY          stats: order names by count, total (default), self or p99\n"
               "  --format text|csv|json  stats: output format (default text)\n"
               "  --no-demangle       stats, stack, perfetto: keep C++ names mangled\n"
               "  --format folded|text  stack: folded stacks (default) or the top N heaviest\n"
               "  --total             stack: folded values are total, not self, time\n"
               "  --per-thread        stack: one tree per thread (first frame pid/tid)\n"
               "  --json              info: one JSON object, the same keys for every format\n"
               "  --chunk BYTES       read size (default 262144)\n"
               "  --lenient           skip damaged buffers, records or packets with a warning\n"
               "                      and read on (default: stop at the first error)\n"
               "  -o FORMAT.KEY=VALUE reader option (repeatable):\n");
    for (size_t i = 0; cli_formats[i]; i++)
        fprintf(f, "                      %s\n", cli_formats[i]->options_help);
    fprintf(f, "  --begin T, --end T  json/stats: events from T to T; 1.5s, 200ms, +10us are\n"
               "                      relative to the trace's start, a bare integer is ns\n"
               "  --name P, --category P  exact or glob (* ? [a-z]); repeatable\n"
               "  --pid N, --tid N, --cpu N  these processes, threads, CPUs; repeatable\n"
               "  --max-open N        json, stats: open spans tracked at once, all threads\n"
               "                      (default 1048576; 1024 per thread; more are left out)\n"
               "  -q, --quiet         no progress line on standard error\n"
               "  --version           print the library version\n"
               "exit status: 0 ok, 1 bad trace, 2 usage, 3 I/O error, 4 unknown format,\n"
               "5 format recognised but not supported by this command.\n");
    return CLI_EXIT_USAGE;
}

const struct cli_format *cli_pick_format(const cli_t *c)
{
    const struct cli_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; cli_formats[i]; i++) {
        if (c->format != NULL) {
            if (strcmp(c->format, cli_formats[i]->name) == 0)
                return cli_formats[i];
            continue;
        }
        int s = cli_formats[i]->detect(c->head, c->head_len, c->path, c->is_dir);
        if (s > best_score) {
            best_score = s;
            best = cli_formats[i];
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

/* A usage error: one line saying what was wrong (doc/tracerd.1, EXIT STATUS). */
static int usage_error(const cli_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", c->prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "; see %s --help\n", c->prog);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

enum {
    OPT_FORMAT = 256,
    OPT_LISTEN,
    OPT_TIMEOUT,
    OPT_TOP,
    OPT_MAX_OPEN,
    OPT_CHUNK,
    OPT_LENIENT,
    OPT_VERSION,
    OPT_FILTER, /* --begin, --end, --name, ...: filter.c */
    OPT_SORT,
    OPT_NO_DEMANGLE,
    OPT_PER_THREAD,
    OPT_TOTAL,
    OPT_JSON,
    OPT_FORMAT_FLAG /* a flag of a format's printer (struct cli_flag) */
};

/* The options every format shares; the formats' own flags are added after
 * them (all_options). */
static const struct option long_options[] = {{"format", required_argument, NULL, OPT_FORMAT},
                                             {"listen", required_argument, NULL, OPT_LISTEN},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"top", required_argument, NULL, OPT_TOP},
                                             {"max-open", required_argument, NULL, OPT_MAX_OPEN},
                                             {"chunk", required_argument, NULL, OPT_CHUNK},
                                             {"lenient", no_argument, NULL, OPT_LENIENT},
                                             {"option", required_argument, NULL, 'o'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"sort", required_argument, NULL, OPT_SORT},
                                             {"no-demangle", no_argument, NULL, OPT_NO_DEMANGLE},
                                             {"per-thread", no_argument, NULL, OPT_PER_THREAD},
                                             {"total", no_argument, NULL, OPT_TOTAL},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"begin", required_argument, NULL, OPT_FILTER},
                                             {"end", required_argument, NULL, OPT_FILTER},
                                             {"name", required_argument, NULL, OPT_FILTER},
                                             {"category", required_argument, NULL, OPT_FILTER},
                                             {"pid", required_argument, NULL, OPT_FILTER},
                                             {"tid", required_argument, NULL, OPT_FILTER},
                                             {"cpu", required_argument, NULL, OPT_FILTER},
                                             {NULL, 0, NULL, 0}};

#define N_SHARED_OPTIONS (sizeof long_options / sizeof long_options[0] - 1)
#define MAX_FORMAT_FLAGS 32

/* long_options, then every format's flags (OPT_FORMAT_FLAG; flag[i] is
 * the flag of options[i]), then the end. */
struct all_options {
    struct option options[N_SHARED_OPTIONS + MAX_FORMAT_FLAGS + 1];
    const struct cli_flag *flag[N_SHARED_OPTIONS + MAX_FORMAT_FLAGS + 1];
};

static void all_options(struct all_options *o)
{
    size_t n = N_SHARED_OPTIONS;
    memcpy(o->options, long_options, n * sizeof long_options[0]);
    for (size_t i = 0; cli_formats[i]; i++)
        for (const struct cli_flag *fl = cli_formats[i]->flags; fl && fl->name; fl++)
            if (n < N_SHARED_OPTIONS + MAX_FORMAT_FLAGS) {
                o->options[n] = (struct option){fl->name, required_argument, NULL, OPT_FORMAT_FLAG};
                o->flag[n++] = fl;
            }
    o->options[n] = (struct option){NULL, 0, NULL, 0};
}

/* "info, dump, json or stats": the command names of the table. */
static const char *command_list(char *buf, size_t cap)
{
    size_t n = sizeof commands / sizeof commands[0], used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                                 i == 0      ? ""
                                 : i + 1 < n ? ", "
                                             : " or ",
                                 commands[i].name);
    return buf;
}

/* Parses the command line into c (getopt_long: --name=value and --name value,
 * options anywhere). Returns -1 to go on, else the exit status. */
static int parse_args(cli_t *c, int argc, char **argv)
{
    opterr = 0;
    int opt, idx;
    unsigned long v;
    struct all_options all;
    all_options(&all);
    while ((opt = getopt_long(argc, argv, ":o:qh", all.options, &idx)) != -1) {
        switch (opt) {
        case OPT_FORMAT: /* stats' output format, else the trace's format */
            if (strcmp(optarg, "text") == 0 || strcmp(optarg, "csv") == 0 ||
                strcmp(optarg, "json") == 0 || strcmp(optarg, "folded") == 0) {
                c->stats_format = optarg[0] == 't'   ? CLI_STATS_TEXT
                                  : optarg[0] == 'c' ? CLI_STATS_CSV
                                  : optarg[0] == 'j' ? CLI_STATS_JSON
                                                     : CLI_STATS_FOLDED;
                c->out_format_given = true;
            } else
                c->format = optarg;
            break;
        case OPT_SORT:
            if (strcmp(optarg, "total") == 0)
                c->stats_sort = CLI_SORT_TOTAL;
            else if (strcmp(optarg, "count") == 0)
                c->stats_sort = CLI_SORT_COUNT;
            else if (strcmp(optarg, "self") == 0)
                c->stats_sort = CLI_SORT_SELF;
            else if (strcmp(optarg, "p99") == 0)
                c->stats_sort = CLI_SORT_P99;
            else
                return usage_error(c, "--sort %s: not count, total, self or p99", optarg);
            break;
        case OPT_NO_DEMANGLE:
            c->no_demangle = true;
            break;
        case OPT_PER_THREAD:
            c->per_thread = true;
            break;
        case OPT_TOTAL:
            c->stack_total = true;
            break;
        case OPT_JSON:
            c->info_json = true;
            break;
        case OPT_FORMAT_FLAG: {
            int frc = all.flag[idx]->set(c, optarg);
            if (frc != CLI_EXIT_OK)
                return frc;
            break;
        }
        case OPT_LISTEN:
            c->listen = optarg;
            break;
        case OPT_TIMEOUT:
            if (!parse_uint(optarg, CLI_TIMEOUT_MAX, &v))
                return usage_error(c, "--timeout %s: not a number of seconds from 0 to %u", optarg,
                                   CLI_TIMEOUT_MAX);
            c->timeout = (unsigned)v;
            c->timeout_given = true;
            break;
        case OPT_TOP:
            if (!parse_uint(optarg, 1000000, &v))
                return usage_error(c, "--top %s: not a count from 0 to 1000000", optarg);
            c->top = (unsigned)v;
            break;
        case OPT_MAX_OPEN:
            if (!parse_uint(optarg, CLI_MAX_OPEN_LIMIT, &v) || v == 0)
                return usage_error(c, "--max-open %s: not a count from 1 to %u", optarg,
                                   CLI_MAX_OPEN_LIMIT);
            c->max_open = (uint32_t)v;
            break;
        case OPT_CHUNK:
            if (!parse_uint(optarg, 1ul << 30, &v) || v == 0)
                return usage_error(c, "--chunk %s: not a size from 1 to 1073741824 bytes", optarg);
            c->chunk = v;
            break;
        case OPT_LENIENT:
            c->lenient = true;
            break;
        case 'o':
            if (c->nopts == CLI_OPTS_MAX)
                return usage_error(c, "more than %d -o options", CLI_OPTS_MAX);
            c->opts[c->nopts++] = optarg;
            break;
        case 'q':
            c->quiet = true;
            break;
        case 'h':
            usage(stdout, c->prog);
            return CLI_EXIT_OK;
        case OPT_VERSION:
            printf("tracerd %s\n", tracerd_version_string());
            return CLI_EXIT_OK;
        case OPT_FILTER: {
            char name[32];
            snprintf(name, sizeof name, "--%s", all.options[idx].name);
            int frc = cli_filter_option(c, name, optarg);
            if (frc != CLI_EXIT_OK)
                return frc;
            break;
        }
        case ':':
            if (optopt > 0 && optopt < 256)
                return usage_error(c, "-%c needs a value", optopt);
            return usage_error(c, "%s needs a value", argv[optind - 1]);
        default:
            if (optopt > 0 && optopt < 256)
                return usage_error(c, "unknown option -%c", optopt);
            return usage_error(c, "unknown option %s", argv[optind - 1]);
        }
    }
    int npos = argc - optind, want = c->listen != NULL ? 1 : 2;
    char names[128];
    if (npos == 0)
        return usage_error(c, "no command given: %s", command_list(names, sizeof names));
    c->cmd = argv[optind];
    if (find_command(c->cmd) == NULL)
        return usage_error(c, "unknown command '%s': %s", c->cmd,
                           command_list(names, sizeof names));
    if (npos < want)
        return usage_error(c, "%s: no trace given: a file, a directory, - or tcp://HOST:PORT",
                           c->cmd);
    if (npos > want)
        return usage_error(c, "unexpected argument '%s'%s", argv[optind + want],
                           c->listen != NULL ? ": --listen reads the trace from the connection"
                                             : "");
    c->path = c->listen != NULL ? c->listen : argv[optind + 1];
    return -1;
}

int main(int argc, char **argv)
{
    cli_t c;
    memset(&c, 0, sizeof c);
    c.prog = "tracerd";
    c.out = stdout;
    c.fd = -1;
    c.top = 20;
    cli_alloc_init(); /* the test hook TRACERD_CLI_FAIL_ALLOC (alloc.c) */
    int prc = parse_args(&c, argc, argv);
    if (prc >= 0)
        return prc;
    const struct cli_command *cmd = find_command(c.cmd);
    if (cmd->event_view && c.format != NULL &&
        tracerd_event_format_from_name(c.format) == TRACERD_EVENT_FORMAT_UNKNOWN) {
        fprintf(stderr, "%s: unknown --format name: %s\n", c.prog, c.format);
        return CLI_EXIT_USAGE;
    }
    int rc = cli_config_check(&c); /* every reader option, before any input is read */
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_load_instr_map(&c);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_open_input(&c);
    if (rc == CLI_EXIT_OK)
        rc = cmd->run(&c);
    tracerd_xray_names_free(c.names);
    cli_progress_done(&c);
    if (c.fd > STDIN_FILENO)
        close(c.fd);
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK)
        rc = CLI_EXIT_IO;
    return cli_alloc_end(rc);
}
