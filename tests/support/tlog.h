/* A growable text log: recorders append one line per callback. */
#ifndef TESTS_SUPPORT_TLOG_H
#define TESTS_SUPPORT_TLOG_H

#include <stddef.h>
#include <stdint.h>

#include <tracerd/core.h>

typedef struct tlog {
    char *buf;
    size_t len, cap;
} tlog_t;

void tlog_printf(tlog_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends bytes as lowercase hex. */
void tlog_hex(tlog_t *l, const void *data, size_t len);
/* Appends text with non-printable bytes escaped as \xNN (and \\). */
void tlog_text(tlog_t *l, const void *data, size_t len);
/* Returns the NUL-terminated text ("" if empty) and hands ownership to the caller (free()). */
char *tlog_take(tlog_t *l);
void tlog_reset(tlog_t *l);
/* A warning's count for a log line: "" for a single warning, " count=N" for
 * a run of N; " BAD-SIZE" or " BAD-COUNT" when size or count is wrong. */
const char *tlog_count_(const tracerd_warning_t *w, char *buf, size_t size);
#define tlog_count(w) tlog_count_((w), (char[48]){0}, 48)

#endif
