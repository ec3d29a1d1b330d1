/* Peer comparisons for CTF traces (see ctf_peer.c). */
#ifndef TESTS_SUPPORT_CTF_PEER_H
#define TESTS_SUPPORT_CTF_PEER_H

#include <stdbool.h>
#include <stddef.h>

#include <tracerd/ctf.h>

#include "ctf_text.h"

struct peer_result {
    tracerd_status_t st;
    char reason[512];
    ctf_text_t text;
};

/* Lines of log starting with prefix. */
size_t count_lines(const char *log, const char *prefix);
/* A whole file, NUL-terminated (malloc'd), or NULL. */
char *slurp(const char *path);
/* Reads a trace directory into pr (babeltrace2-style text, status, reason). */
void read_dir(const char *dir, const tracerd_ctf_dir_config_t *cfg, struct peer_result *pr);
/* The same, printing as babeltrace2 2.1 does when bt21. */
void read_dir_as(const char *dir, const tracerd_ctf_dir_config_t *cfg, struct peer_result *pr,
                 bool bt21);
/* read_dir_as whose run has a bound of cpu_seconds of CPU time (0: none):
 * past it the test fails as dir_run_bounded says. */
void read_dir_bounded(const char *dir, const tracerd_ctf_dir_config_t *cfg, struct peer_result *pr,
                      bool bt21, double cpu_seconds);
/* tracerd_ctf_dir_run(d) with a bound of cpu_seconds of CPU time
 * (drv_cpu_bounded): past it the test fails, naming `what` (the directory,
 * the chunk size), the count of events *events before the run and in it (the
 * callbacks count them) and the last line of *log (the callbacks' text). */
tracerd_status_t dir_run_bounded(tracerd_ctf_dir_t *d, double cpu_seconds, const char *what,
                                 const uint64_t *events, const tlog_t *log);
/* babeltrace2's lines against ours: the number of expected lines without a
 * match (same count; timestamps equal; equal timestamps in any order).
 * quirk: an empty string of ours matches any of babeltrace2 2.0.4's. */
size_t compare_bt2(const char *name, const char *expected, const char *got);
size_t compare_bt2q(const char *name, const char *expected, const char *got, bool quirk);
/* Sum of "discarded N <unit>" counts in babeltrace2's stderr. */
size_t sum_discarded(const char *stderr_text, const char *unit);

/* Runs a shell command; returns its standard output (malloc'd), *rc its
 * exit status. */
char *run_output(const char *cmd, int *rc);
/* Runs $TRACERD_CLI with args (stderr merged into the output); *rc is its
 * exit status. Returns the output (malloc'd). */
char *cli_run(const char *args, int *rc);

#endif
