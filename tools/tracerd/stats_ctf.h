/* `tracerd stats` on a CTF trace directory without the event view (see
 * stats_ctf.c). */
#ifndef TRACERD_STATS_CTF_H
#define TRACERD_STATS_CTF_H

#include "evrun.h"

/* Would stats read this input as a CTF directory with no filter (then
 * stats_ctf_dir gives it the events ev_run would)? TRACERD_CLI_GENERAL=1:
 * never (tests compare the two). */
bool stats_ctf_dir_plain(cli_t *c, const struct ev_run *r);

/* Reads the directory c->path, calling r->on_source and r->on_event with
 * the events the event view gives without arguments; prints any error as
 * ev_run does and returns a CLI_EXIT_* code. */
int stats_ctf_dir(struct ev_run *r);

#endif
