/* CTF test helpers built on Check and the drivers (ctf_check.c; not part of
 * the recorder that fuzz/ and bench/ link): the fast path against the
 * general path, a log's end line. */
#ifndef TESTS_SUPPORT_CTF_CHECK_H
#define TESTS_SUPPORT_CTF_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <tracerd/ctf.h>

struct target_cfg;

/* The log without its field lines. */
char *without_fields(const char *log);
/* Fast path (events only) against the general path's log `full`: the same
 * records under every split. */
void check_fast_path(const char *meta, const uint8_t *data, size_t len, const char *full);
/* c's metadata parsed once and set as c->trace (the caller frees it with
 * tracerd_ctf_trace_free), for runs that read it instead of parsing again:
 * they cost less (a parse costs more than a small stream's reading, at each
 * of thousands of runs) and check the stream reader's paths only (under
 * allocation failures, its own allocations fail). For a caller that has
 * checked the parse under every plan (allocation failures included) with
 * its own drv_check_all. */
tracerd_ctf_trace_t *cfg_parse_once(struct target_cfg *c);
/* Asserts that log's "end ..." line begins with end_line. */
void expect_end(const char *log, const char *end_line);

#endif
