/* tracerd CLI: how a CTF command (info_ctf.c, fmt_ctf.c's dump) reads its
 * input: fmt_ctf.c's runners open a trace directory, or a single stream
 * file with its metadata (--metadata, or the `metadata` file beside it),
 * give the reader the command's callbacks, run it, and report its error. */
#ifndef TRACERD_CLI_CTF_RUN_H
#define TRACERD_CLI_CTF_RUN_H

#include <tracerd/ctf.h>

#include "../../libtracerd/ctf/located.h"
#include "cli.h"

typedef struct ctf_cmd {
    void *user; /* each hook's first argument */
    /* Sets the reader's callbacks and makes the command's tables: CLI_EXIT_OK,
     * or an exit code (its message printed). Called first (for a stream
     * file, once its metadata is read). */
    int (*setup)(void *user, tracerd_ctf_callbacks_t *cb);
    /* Nonzero: the scopes the reader delivers fields of (field_scopes). */
    uint32_t field_scopes;
    /* The reader is open: dir for a directory (NULL for a stream file, then
     * metadata is the path its trace t was read from). CLI_EXIT_OK, or an
     * exit code (its message printed): nothing is read then. NULL: none. */
    int (*opened)(void *user, tracerd_ctf_dir_t *dir, const char *metadata,
                  const tracerd_ctf_trace_t *t);
    /* Reading ended with st: the status to report. NULL: st. */
    tracerd_status_t (*ended)(void *user, tracerd_status_t st);
    /* After the error report (if any) of a read that was started (a
     * directory: also one that could not be opened). NULL: none. */
    void (*done)(void *user, tracerd_status_t st);
    /* The metadata readers' options (value names), or NULL: the defaults. */
    const tracerd_ctf_metadata_config_t *metadata;
    /* The readers' located callback (libtracerd/ctf/located.h), or NULL. */
    tracerd__ctf_located_cb located;
} ctf_cmd_t;

/* Reads c->path (a directory when c->is_dir) with cmd: a CLI_EXIT_* code. */
int ctf_run(cli_t *c, const ctf_cmd_t *cmd);

/* `tracerd info` on CTF (info_ctf.c). */
int ctf_info(cli_t *c);

#endif
