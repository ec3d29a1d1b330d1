/* A fuzz run through a format's recorder (tests/support/<format>_recorder.c)
 * in REC_HASH mode: the callbacks the suites log with, every line folded into
 * a hash instead of kept (tests/support/rec.h). */
#ifndef FUZZ_RECORDED_H
#define FUZZ_RECORDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "support/driver.h"

/* Opens t's reader on config, feeds data in chunks picked by ch (NULL: one
 * feed), resuming pauses, then finishes; with pause, every callback asks to
 * pause; callback number abort_at (1-based, 0 = never; payload fragments are
 * not counted) aborts the run. Returns the hash of the log the suites would
 * have written, its "end" line (status, error offset and reason) included.
 * Traps when an error has no reason. */
uint64_t fuzz_recorded(const drv_target_t *t, const void *config, const uint8_t *data,
                       size_t size, fuzz_chunker_t *ch, bool pause, unsigned long abort_at);

/* Reads data whole and then chunked by seed with pauses (fuzz_recorded) and
 * traps if the two hashes differ: the chunk and pause invariance every reader
 * promises (core.h). */
void fuzz_recorded_twice(const drv_target_t *t, const void *config, const uint8_t *data,
                         size_t size, uint8_t seed, bool pause, unsigned long abort_at);

#endif
