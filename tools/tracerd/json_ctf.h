/* `tracerd json` on a CTF trace directory without the event view (see
 * json_ctf.c). */
#ifndef TRACERD_JSON_CTF_H
#define TRACERD_JSON_CTF_H

#include "json_doc.h"

/* Would json read this input as a CTF trace directory with no filter (then
 * json_ctf_dir writes what the event view's events would)?
 * TRACERD_CLI_GENERAL=1: never (tests compare the two). */
bool json_ctf_dir_plain(cli_t *c);

/* Reads the directory c->path (r->c) and writes its events into w as
 * json_event writes the event view's (r->on_source with the source, r->drain
 * when the output is to be drained); prints any error as ev_run does and
 * returns a CLI_EXIT_* code. */
int json_ctf_dir(struct ev_run *r, struct jw *w);

#endif
