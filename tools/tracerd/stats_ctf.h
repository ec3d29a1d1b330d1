/* `tracerd stats` on a CTF trace directory without the event view (see
 * stats_ctf.c). */
#ifndef TRACERD_STATS_CTF_H
#define TRACERD_STATS_CTF_H

#include "evrun.h"

/* Would stats read this input as a CTF directory with no filter (then
 * stats_ctf_dir gives it the events ev_run would)? TRACERD_CLI_GENERAL=1:
 * never (tests compare the two). */
bool stats_ctf_dir_plain(cli_t *c, const struct ev_run *r);

/* stats's figures (cmd_stats.c). */
struct st;

/* Reads the directory c->path into s: r->on_source with the source, and
 * the events the event view gives without arguments, each as
 * r->on_event(s, ev) would count it (the instants of an event class after
 * its first by stats_instant); prints any error as ev_run does and returns
 * a CLI_EXIT_* code. r->user is s. */
int stats_ctf_dir(struct ev_run *r, struct st *s);

/* (cmd_stats.c) The index of ev's name aggregate, ev having been counted
 * by r->on_event (the aggregate exists); UINT32_MAX on no memory. */
uint32_t stats_name_index(struct st *s, const tracerd_event_t *ev);
/* (cmd_stats.c) An INSTANT of name aggregate ni on thread (pid, tid) at
 * time ts (ns, else ticks), counted as r->on_event counts such an event:
 * the thread's index (for stats_run), or UINT32_MAX on no memory (said). */
uint32_t stats_instant(struct st *s, uint32_t ni, uint64_t pid, uint64_t tid, uint64_t ts);
/* (cmd_stats.c) n more events on thread ti (an index from stats_instant,
 * whose event was earlier than these), all within [lo, hi]: counted and
 * the time spans widened, as r->on_event would for each (their names
 * counted by stats_count). */
void stats_run(struct st *s, uint32_t ti, uint64_t n, uint64_t lo, uint64_t hi);
/* (cmd_stats.c) n more events of name aggregate ni. */
void stats_count(struct st *s, uint32_t ni, uint64_t n);

#endif
