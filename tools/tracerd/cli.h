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

#include <tracerd/tracerd.h>

/* Exit codes, documented in doc/tracerd.1. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_TRACE = 1, /* the trace is malformed (or a reader error) */
    CLI_EXIT_USAGE = 2,
    CLI_EXIT_IO = 3,
    CLI_EXIT_FORMAT = 4 /* the format was not recognised */
};

#define CLI_HEAD_MAX 4096

typedef struct cli {
    const char *prog;
    const char *cmd;      /* "info" or "dump" */
    const char *path;     /* file, directory, or "-" for standard input */
    const char *metadata; /* --metadata PATH (CTF single stream), or NULL */
    const char *format;   /* --format NAME, or NULL for detection */
    FILE *out;
    int fd;               /* open input (-1 for a directory) */
    bool is_dir;
    uint8_t head[CLI_HEAD_MAX]; /* first bytes of the input, read for detection */
    size_t head_len;            /* they are fed first by cli_pump */
    size_t chunk;               /* read size */
    uint64_t bytes_read;
} cli_t;

typedef tracerd_status_t (*cli_feed_fn)(void *reader, const void *data, size_t len,
                                        size_t *consumed);
typedef tracerd_status_t (*cli_step_fn)(void *reader);

/* Feeds the whole input (head first, then fixed-size chunks) to a reader,
 * resuming after pauses, then finishes. Returns the final status; on an
 * I/O error prints it and returns TRACERD_E_IO. */
tracerd_status_t cli_pump(cli_t *c, void *reader, cli_feed_fn feed, cli_step_fn resume,
                          cli_step_fn finish);

/* Prints one line "tracerd: FILE: FORMAT error E_X at byte N: reason" to stderr. */
void cli_report(const cli_t *c, const char *format, tracerd_status_t st, uint64_t offset,
                const char *reason);

/* JSON helpers for dump: a quoted, escaped string; a quoted hex string. */
void cli_json_str(FILE *f, const void *data, size_t len);
void cli_json_cstr(FILE *f, const char *s);
void cli_json_hex(FILE *f, const void *data, size_t len);

struct cli_format {
    const char *name;
    /* How sure (0..100) this format is about the input: head bytes (empty for
     * a directory), path, is_dir. 0 = not this format. */
    int (*detect)(const uint8_t *head, size_t n, const char *path, bool is_dir);
    int (*info)(cli_t *c);
    int (*dump)(cli_t *c);
};

#define X(name) extern const struct cli_format cli_format_##name;
#include "formats.h"
#undef X

#endif
