/* CTF test helpers built on Check and the drivers (ctf_check.c; not part of
 * the recorder that fuzz/ and bench/ link): the fast path against the
 * general path, a log's end line. */
#ifndef TESTS_SUPPORT_CTF_CHECK_H
#define TESTS_SUPPORT_CTF_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* The log without its field lines. */
char *without_fields(const char *log);
/* Fast path (events only) against the general path's log `full`: the same
 * records under every split. */
void check_fast_path(const char *meta, const uint8_t *data, size_t len, const char *full);
/* Asserts that log's "end ..." line begins with end_line. */
void expect_end(const char *log, const char *end_line);

#endif
