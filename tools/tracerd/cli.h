/* The tracerd CLI: shared plumbing for the per-format commands. The CLI is a
 * client of the public API only. Each format lives in fmt_<name>.c and
 * defines `const struct cli_format cli_format_<name>`; the Makefile lists
 * them (build/gen/formats.h). */
#ifndef TRACERD_CLI_H
#define TRACERD_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <tracerd/tracerd.h>

#include "writer.h"

/* Exit codes, documented in doc/tracerd.1. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_TRACE = 1, /* the trace is malformed (or a reader error) */
    CLI_EXIT_USAGE = 2,
    CLI_EXIT_IO = 3,
    CLI_EXIT_FORMAT = 4, /* the format was not recognised */
    CLI_EXIT_UNSUPPORTED = 5 /* recognised, but this build cannot do the command for it */
};

#define CLI_HEAD_MAX 4096
#define CLI_OPTS_MAX 32
#define CLI_MAX_OPEN_DEFAULT 1048576u /* json/stats: open spans tracked, all threads */
#define CLI_MAX_OPEN_LIMIT 16777216u
#define CLI_FILTERS_MAX 256

/* Where a format's --lenient warnings go (warn.c): dump_out (a dump line
 * {"KEY":"warning",["stream",]"offset","status","skipped_bytes","reason"[,"count"]},
 * KEY "type" or, for FXT, "record"), else standard error ("tracerd: TRACE:
 * FORMAT warning STATUS at byte N: reason", silenced by --quiet). stream:
 * the CTF stream file, or NULL. */
typedef struct cli_warn_sink {
    wr_t *dump_out;
    const char *key;
    const char *format;
    const char *stream;
} cli_warn_sink_t;

typedef enum { CLI_SORT_TOTAL, CLI_SORT_COUNT, CLI_SORT_SELF, CLI_SORT_P99 } cli_stats_sort_t;
typedef enum {
    CLI_STATS_TEXT,
    CLI_STATS_CSV,
    CLI_STATS_JSON,
    CLI_STATS_FOLDED
} cli_stats_format_t;

typedef struct cli {
    const char *prog;
    const char *cmd;      /* the command's name (main.c's command table) */
    const char *path;     /* file, directory, "-" (standard input), tcp://HOST:PORT, or the
                             --listen address */
    const char *metadata; /* --metadata PATH (CTF single stream), or NULL */
    const char *format;   /* --format NAME, or NULL for detection */
    FILE *out;
    int fd;               /* open input (-1 for a directory) */
    bool is_dir;
    uint8_t head[CLI_HEAD_MAX]; /* first bytes of the input, read for detection */
    size_t head_len;            /* they are fed first by cli_pump */
    size_t chunk;               /* read size */
    uint64_t bytes_read;
    /* Added for json/stats and the input sources; fmt_<fmt>.c files need not use them. */
    bool quiet;               /* --quiet: no progress line, no "listening on" notice */
    const char *listen;       /* --listen HOST:PORT, or NULL */
    const char *instr_map;    /* --instr-map BINARY: XRay function names, or NULL */
    tracerd_xray_names_t *names; /* the --instr-map names, loaded by every command */
    unsigned top;             /* stats --top N (0 = all) */
    uint64_t total_size;      /* size of a regular file input (0 when unknown) */
    bool progress;            /* a progress line is drawn (stderr is a terminal, not --quiet) */
    double progress_last;     /* monotonic seconds of the last progress update */
    bool progress_shown;
    bool lenient;                    /* --lenient: skip damaged parts, with a warning */
    const char *opts[CLI_OPTS_MAX];  /* -o FORMAT.KEY=VALUE, in command-line order */
    unsigned nopts;
    /* --timeout SECONDS: a socket input (tcp://, --listen) silent for that long
     * ends the read (0 = wait forever). Default CLI_TIMEOUT_DEFAULT for reads
     * and connect; the wait for a --listen connection is bounded only when
     * --timeout is given. Files and pipes never time out. */
    unsigned timeout;
    bool timeout_given;
    bool timed_out; /* the read ended by the timeout: json/stats still write what was read */
    bool read_failed; /* the input could not be read to its end (said): json still ends its
                         document */
    struct {
        const char *opt, *value;
    } filters[CLI_FILTERS_MAX]; /* --begin/--end/--name/... in command-line order (filter.c) */
    unsigned nfilters;
    /* When set, the pump stops reading the input once it returns true (a
     * filter's end passed in a time-ordered trace). */
    bool (*input_done)(const void *reader);
    uint64_t warnings; /* warnings received (the sum of their counts) */
    uint32_t max_open;        /* --max-open (0: CLI_MAX_OPEN_DEFAULT) */
    bool oom;                 /* out of memory, reported (cli_oom) */
    cli_stats_sort_t stats_sort;     /* stats --sort */
    cli_stats_format_t stats_format; /* stats --format text|csv|json */
    bool no_demangle;                /* --no-demangle */
    bool out_format_given;           /* --format text|csv|json|folded was given */
    bool per_thread;                 /* stack --per-thread */
    bool info_json;                  /* info --json (or --format json) */
    bool stack_total;                /* stack --total: folded values are total time */
    wr_t *wr; /* dump's output writer while a dump runs (cli_report flushes it first), or NULL */
} cli_t;

#define CLI_TIMEOUT_DEFAULT 60u
#define CLI_TIMEOUT_MAX 86400u

/* Feeds the whole input (head first, then fixed-size chunks) to a reader
 * through its ops table (core.h), resuming after pauses, then finishes.
 * Returns the final status; on an I/O error prints it and returns TRACERD_E_IO. */
tracerd_status_t cli_pump(cli_t *c, const tracerd_reader_ops_t *ops, void *reader);

/* cli_pump with a drain hook: when the reader returns TRACERD_PAUSED (a
 * callback asked for back-pressure, e.g. its output buffer is full), drain
 * is called (it writes the output; may block) before the reader is resumed.
 * drain returns 0, or -1 on an output error (the pump then returns E_IO). */
typedef int (*cli_drain_fn)(void *ctx);
tracerd_status_t cli_pump_drain(cli_t *c, const tracerd_reader_ops_t *ops, void *reader,
                                cli_drain_fn drain, void *drain_ctx);

/* Opens c->path (or accepts a connection on c->listen) into c->fd / c->is_dir
 * and reads the head. Returns a CLI_EXIT_* code, having printed any error. */
int cli_open_input(cli_t *c);

/* read() on c->fd, retrying on EINTR. On an error (a --timeout included,
 * which sets c->timed_out) prints it and returns -1. */
ssize_t cli_read(cli_t *c, void *buf, size_t cap);

/* A reader's _new failed (st): prints "cannot create a reader: MESSAGE" and
 * returns CLI_EXIT_IO (out of memory; options are checked before). */
int cli_new_failed(const cli_t *c, tracerd_status_t st);

/* The CLI's own allocations (alloc.c): libc's, with a test hook that fails
 * the n-th one (TRACERD_CLI_FAIL_ALLOC=N) and counts what is not freed.
 * cli_alloc_init reads the environment; cli_alloc_end(rc) reports at exit
 * and returns rc, or 70 when allocations were not freed. */
void cli_alloc_init(void);
void *cli_malloc(size_t n);
void *cli_calloc(size_t n, size_t size);
void *cli_realloc(void *p, size_t n);
void cli_free(void *p);
char *cli_strdup(const char *s);
/* Doubles the capacity *cap (from 0: to `first`) of the array of elements of
 * `size` bytes whose pointer is at `array` (a T **, through cli_realloc). 0,
 * or -1 (the array unchanged) when out of memory. */
int cli_grow(void *array, uint32_t *cap, uint32_t first, size_t size);
int cli_alloc_end(int rc);

/* Out of memory in the CLI's own buffers and tables: prints "tracerd: TRACE:
 * out of memory (WHAT)" once, sets c->oom; returns CLI_EXIT_IO. */
int cli_oom(cli_t *c, const char *what);

/* Erases the progress line, if one was drawn. */
void cli_progress_done(cli_t *c);

/* Prints one line "tracerd: FILE: FORMAT error E_X at byte N: reason" to
 * stderr, after cli_out_stop: FILE is the input's path (cli_report) or, for
 * an error in one file of a trace directory, that file (cli_report_in; NULL
 * or "": the input's path). No reason (NULL or ""): the status's message. */
void cli_report(const cli_t *c, const char *format, tracerd_status_t st, uint64_t offset,
                const char *reason);
void cli_report_in(const cli_t *c, const char *file, const char *format, tracerd_status_t st,
                   uint64_t offset, const char *reason);

/* The format of the input was not recognised: prints why (for standard input
 * or a connection, that --format is needed, as nothing else names the format)
 * and returns CLI_EXIT_FORMAT. */
int cli_unknown_format(const cli_t *c);

/* dump's output: cli_out_start makes c->wr, a writer on c->out's descriptor
 * (c->out flushed first; the pump writes it out after each read's records,
 * before waiting for more input). cli_out_stop drops
 * or completes a record left open by an error (writer.h) and flushes, so
 * that an error line follows whole records. cli_out_end stops and frees the
 * writer; it returns rc, or CLI_EXIT_IO if the output could not be written. */
int cli_out_start(cli_t *c);
void cli_out_stop(cli_t *c);
int cli_out_end(cli_t *c, int rc);

/* JSON helpers for dump: a quoted, escaped string (ill-formed UTF-8 replaced
 * with \ufffd); a quoted hex string; a member ,"key":"string" followed, when
 * the bytes are not well-formed UTF-8, by ,"key_hex":"their hex" (doc/tracerd.1). */
void cli_json_str(wr_t *w, const void *data, size_t len);
void cli_json_cstr(wr_t *w, const char *s);
void cli_json_hex(wr_t *w, const void *data, size_t len);
/* (key: a plain ASCII name of the program's, written as it is; inline so
 * that a literal key is copied with its length known at compile time) */
void cli_json_member_hex(wr_t *w, const char *key, const void *data, size_t len);
static inline void cli_json_member(wr_t *w, const char *key, const void *data, size_t len)
{
    size_t kl = strlen(key);
    char *o = wr_room(w, kl + 4);
    o[0] = ',';
    o[1] = '"';
    memcpy(o + 2, key, kl);
    o[kl + 2] = '"';
    o[kl + 3] = ':';
    w->len += kl + 4;
    if (!wr_str(w, data, len))
        cli_json_member_hex(w, key, data, len);
}

/* Reader options, --lenient and -o FORMAT.KEY=VALUE (doc/tracerd.1, READER
 * OPTIONS): each format parses its own in its printer (fmt_<format>.c, the
 * options hook of struct cli_format). cli_config_check checks every option
 * once, before any input is read: the prefix names a format, and every
 * format's hook accepts its options. */
int cli_config_check(const cli_t *c);

/* Storage for one format's reader config(s), filled by its options hook. */
typedef union cli_config_store {
    max_align_t align;
    unsigned char bytes[2048];
} cli_config_store_t;

/* Helpers for the formats' options hooks (options.c): item() is called for
 * each -o PREFIX.KEY=VALUE (and each key=value of the environment variable
 * env, first, when env is set) with the key after the prefix; it returns
 * false for an unknown key or bad value, which is reported. */
typedef bool (*cli_opt_item_fn)(void *cfg, const char *key, const char *value);

bool cli_for_items(const cli_t *c, const char *prefix, const char *env, cli_opt_item_fn item,
                   void *cfg);
bool cli_opt_yes_no(const char *v, bool *out);
bool cli_opt_byte_order(const char *v, bool allow_auto, tracerd_byte_order_t *out);

/* A format whose reader options are one config struct `type`: defines
 * cli_config_NAME(c, cfg) (the defaults from init, --lenient into
 * cfg->LENIENT_FIELD, then every -o NAME.KEY=VALUE through item) and the
 * printer's options hook, which builds it in the store and points the event
 * view's config member MEMBER at it. */
#define CLI_CONFIG_HOOKS(name, type, init, lenient_field, item, member)                            \
    static int cli_config_##name(const cli_t *c, type *cfg)                                        \
    {                                                                                              \
        init(cfg);                                                                                 \
        cfg->lenient_field = c->lenient;                                                           \
        return cli_for_items(c, #name ".", NULL, item, cfg) ? CLI_EXIT_OK : CLI_EXIT_USAGE;        \
    }                                                                                              \
    static int options(const cli_t *c, cli_config_store_t *store, tracerd_auto_config_t *cfg)     \
    {                                                                                              \
        _Static_assert(sizeof(type) <= sizeof(cli_config_store_t), "store");                       \
        type *x = (type *)(void *)store;                                                           \
        int rc = cli_config_##name(c, x);                                                          \
        if (rc == CLI_EXIT_OK)                                                                     \
            cfg->member = x;                                                                       \
        return rc;                                                                                 \
    }

/* A reader's warning (a lenient skip; consecutive skips of one kind come
 * from the library as one warning with a count), printed to the sink.
 * Returns TRACERD_CB_CONTINUE. */
int cli_warning(cli_t *c, const cli_warn_sink_t *sink, const tracerd_warning_t *w);

/* xtrace file kind from a path's name (fmt_xtrace.c): the naming scheme of
 * tracerd_xtrace_parse_filename (*exact set), or just the .xinsndata.bin /
 * .xsnapshot.bin suffix. The instruction stream has no magic number: its
 * name is how json and stats recognise it. */
tracerd_xtrace_file_kind_t cli_xtrace_name_kind(const char *path, bool *exact);

/* The name of XRay function id (fmt_xray.c): from the --instr-map names,
 * else "fn#ID" written in buf (as the event view names it). */
tracerd_str_t cli_xray_fn_name(const cli_t *c, int32_t id, char buf[32]);

/* Loads c->instr_map (if given) into c->names, before the input is opened, for
 * every command: a missing file is exit 3, one that is not an instrumented ELF
 * binary exit 2 (printed). Returns a CLI_EXIT_* code. */
int cli_load_instr_map(cli_t *c);
/* Filter options (filter.c): when opt is one of --begin, --end, --name,
 * --category, --pid, --tid, --cpu, adds value to c->filter and returns
 * CLI_EXIT_OK (or prints the problem and returns CLI_EXIT_USAGE); returns -1
 * for any other option. */
int cli_filter_option(cli_t *c, const char *opt, const char *value);
/* The filter of the filter options (NULL when there are none): a new one
 * per reader, as it resolves relative times against that reader's trace.
 * Returns a CLI_EXIT_* code; free the filter with tracerd_event_filter_free. */
int cli_filter_make(const cli_t *c, tracerd_event_filter_t **out);
/* Was the filter option opt ("--pid", ...) given? */
bool cli_filter_given(const cli_t *c, const char *opt);

/* A dump's filter (filter.c): the event filter applied to the records a
 * dump writes, each seen as the event it is (time, thread, cpu, name,
 * category). ordered: the input is time-ordered (CTF, xtrace), so a record
 * past --end ends the reading: cli_dump_keep sets stopped, the callback
 * returns CLI_DUMP_STOP (a callback error the dump then takes for the end). */
typedef struct cli_dump_filter {
    tracerd_event_filter_t *f; /* NULL: every record is written */
    bool ordered;
    bool stopped;
} cli_dump_filter_t;
#define CLI_DUMP_STOP (-77)
/* Makes d->f from the filter options (CLI_EXIT_* code). */
int cli_dump_filter_init(const cli_t *c, cli_dump_filter_t *d, bool ordered);
void cli_dump_filter_free(cli_dump_filter_t *d);
/* Is the record (as event ev) written? */
bool cli_dump_keep(cli_dump_filter_t *d, const tracerd_event_t *ev);
/* A reader's status after a dump: OK when the dump itself stopped it at --end. */
tracerd_status_t cli_dump_status(const cli_dump_filter_t *d, tracerd_status_t st);

/* C++ name demangling (demangle.c), for output only: NULL-safe. open
 * returns NULL on no memory; the C++ runtime is loaded at the first mangled
 * name (a demangler without one demangles nothing). cli_demangle writes the demangled name (NUL-terminated, cut to
 * cap) and returns its length, or 0 when name (len bytes) is not a
 * mangled C++ name. */
typedef struct cli_demangler cli_demangler_t;
cli_demangler_t *cli_demangler_open(void);
size_t cli_demangle(cli_demangler_t *d, const char *name, size_t len, char *out, size_t cap);
void cli_demangler_close(cli_demangler_t *d);

/* The format of the input (main.c): --format's, else the best detector
 * score. Every command decides with it, so info, dump, json and stats agree
 * on a file's format. NULL when none (or --format names none). */
struct cli_format;
const struct cli_format *cli_pick_format(const cli_t *c);

/* The commands on the event view (cmd_json.c, cmd_stats.c). */
int cli_cmd_json(cli_t *c);
int cli_cmd_stats(cli_t *c);
int cli_cmd_stack(cli_t *c);
int cli_cmd_perfetto(cli_t *c);
int cli_cmd_info_json(cli_t *c);

/* A command-line flag a format's printer owns (--metadata for CTF,
 * --instr-map for XRay): main.c adds every format's flags to its option
 * table and its usage text, so a format's flags live in its printer. */
struct cli_flag {
    const char *name; /* without the leading dashes; NULL ends a list */
    const char *arg;  /* the value's name in the usage text (every flag takes one) */
    const char *help; /* the usage line's text */
    /* Stores the value in c: CLI_EXIT_OK, or a usage error printed. */
    int (*set)(cli_t *c, const char *value);
};

struct cli_format {
    const char *name; /* also the prefix of its reader options: -o NAME.KEY=VALUE */
    /* How sure (0..100) this format is about the input: head bytes (empty for
     * a directory), path, is_dir. 0 = not this format. */
    int (*detect)(const uint8_t *head, size_t n, const char *path, bool is_dir);
    int (*info)(cli_t *c);
    int (*dump)(cli_t *c);
    /* Reader options (--lenient, -o NAME.KEY=VALUE): builds this format's
     * reader config(s) in *store and points cfg's member for the format at
     * them, for the event view; CLI_EXIT_OK, or a usage error printed. */
    int (*options)(const cli_t *c, cli_config_store_t *store, tracerd_auto_config_t *cfg);
    const char *options_help; /* one usage line: its -o keys */
    const struct cli_flag *flags; /* its own command-line flags, or NULL */
};

#define X(name) extern const struct cli_format cli_format_##name;
#include "formats.h"
#undef X

/* Every format (main.c), NULL-terminated, and how many. */
#define X(name) +1
enum { CLI_NFORMATS = 0
#include "formats.h"
};
#undef X
extern const struct cli_format *const cli_formats[CLI_NFORMATS + 1];

/* The event view's config: every format's options hook, each with its store. */
int cli_event_configs(const cli_t *c, cli_config_store_t store[CLI_NFORMATS],
                      tracerd_auto_config_t *cfg);

#endif
