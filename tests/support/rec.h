/* The state every recorder shares (tests/support/<format>_recorder.c: one
 * recorder per format, reused by its suites, the fuzz targets and the
 * benchmarks). Its callbacks run in one of three modes:
 *   - REC_LOG (the suites): each callback appends one line with every
 *     decoded field to `log`; the drivers compare the logs of every split;
 *   - REC_HASH (fuzz/): the same callbacks, the same lines, but rec_ret
 *     folds each finished line into `hash` (FNV-1a over the text, so the
 *     hash of a run is the hash of the log it would have written) and empties
 *     the log: every field value and every delivered byte is read (the
 *     sanitizers see each one), memory stays bounded, and a whole and a
 *     chunked run must give the same hash;
 *   - COUNT (bench/): a format's <format>_count_callbacks() installs
 *     counting callbacks (a record count and one or two folded values, in
 *     the format's small counts struct). The mode is chosen once, when the
 *     callbacks are installed, never tested per record: the benchmarks'
 *     instruction counts include the callbacks (bench/instructions.sh).
 * Nothing here uses Check or the drivers, so fuzz/ and bench/ link the
 * recorders without them. */
#ifndef TESTS_SUPPORT_REC_H
#define TESTS_SUPPORT_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/core.h>

#include "tlog.h"

typedef enum rec_mode { REC_LOG = 0, REC_HASH = 1 } rec_mode_t;

/* State shared by a format's recorder callbacks. */
typedef struct rec {
    tlog_t log;
    unsigned long ncallbacks;
    unsigned long nreturns; /* every rec_ret and rec_ret_uncounted */
    bool pause_every;       /* every callback asks to pause */
    int pause_value;        /* what a pausing callback returns (0 = TRACERD_CB_PAUSE) */
    unsigned long abort_at; /* callback number (1-based) that returns -7; 0 = never */
    void *extra;            /* the recorder's own state, made by open (freed by free_extra) */
    rec_mode_t mode;
    uint64_t hash; /* REC_HASH: FNV-1a of every line logged so far */
    /* A recorder's invariant failed (REC_CHECK): the drivers fail the Check
     * test; NULL (fuzz, bench): the message goes to stderr and abort(). */
    void (*fail)(const char *msg);
} rec_t;

/* A zeroed rec_t in mode (hash seeded). */
void rec_init(rec_t *rec, rec_mode_t mode);

/* What a callback returns under the current driver mode; counts the callback.
 * In REC_HASH mode, first folds the log into hash. */
int rec_ret(rec_t *rec);
/* The same for a callback whose calls are not counted for abort_at (their
 * number depends on chunking: payload fragments). */
int rec_ret_uncounted(rec_t *rec);

/* REC_HASH: folds bytes a log line leaves out (to keep the suites' lines
 * short) into hash; nothing in REC_LOG. */
void rec_fold_bytes(rec_t *rec, const void *data, size_t len);

/* Appends the final line of a run, "end <STATUS> @<record_offset> <reason>"
 * (offset and reason only for errors), and folds it in REC_HASH mode. */
void rec_log_end(rec_t *rec, const tracerd_reader_ops_t *ops, void *reader, tracerd_status_t st);

void rec_failed(const rec_t *rec, const char *file, int line, const char *what);
/* A recorder's invariant (a fragment out of order, a payload of the wrong
 * length): a test failure, or an abort (a fuzz finding). */
#define REC_CHECK(rec, cond)                                                                       \
    ((cond) ? (void)0 : rec_failed((rec), __FILE__, __LINE__, #cond))

#endif
