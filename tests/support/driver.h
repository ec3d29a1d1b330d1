/* Shared test drivers for every reader (STYLE.md B.11): the same bytes fed
 * whole, byte by byte, in every 2-way (and, for small inputs, 3-way) split,
 * in cycled chunk sizes 1..31, in random splits, with a pause at every
 * callback, and with the n-th allocation failing. All must give the same
 * log (records, then the final status line) or a clean E_NOMEM.
 *
 * A format plugs in by filling a drv_target_t (its recorder, rec.h): open()
 * makes a reader whose callbacks append lines to rec->log and return
 * rec_ret(rec); the driver
 * drives it through the reader's tracerd_reader_ops_t (core.h).
 *
 * Every run also checks the callback-return contract of core.h: a PAUSED
 * comes from a callback of that same call (also when its record ended the
 * chunk), a callback that paused makes its call return PAUSED, and the pause
 * loops run again with another positive return value, which must pause the
 * same way. */
#ifndef TESTS_SUPPORT_DRIVER_H
#define TESTS_SUPPORT_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/tracerd.h>

#include "rec.h"
#include "tlog.h"

/* A reader under test: made by open, driven through its public ops table. */
typedef struct drv_target {
    const char *name;
    /* Makes a reader of ops()'s type whose callbacks log to rec (and return
     * rec_ret(rec)). `config` is the format's own (NULL for defaults). State of
     * the recorder's own goes in rec->extra. */
    tracerd_status_t (*open)(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                             void **reader);
    const tracerd_reader_ops_t *(*ops)(void);
    void (*free_extra)(void *extra); /* NULL: rec->extra needs no freeing */
} drv_target_t;

/* Chunking plan: sizes cycled over the input; NULL/0 = the whole input in one feed. */
typedef struct drv_plan {
    const size_t *sizes;
    size_t nsizes;
    bool pause_every;
    int pause_value; /* what pausing callbacks return (0 = TRACERD_CB_PAUSE) */
    bool no_finish;  /* stop without calling finish */
    unsigned long abort_at; /* counted callback (rec.h) that returns -7; 0 = none */
    const tracerd_allocator_t *alloc;
} drv_plan_t;

/* Feeds data by the plan and returns the log (malloc'd), ending with a line
 * "end <STATUS> @<record_offset> <reason>" (reason only for errors). If
 * open() fails the log is "open <STATUS>\n". */
char *drv_run(const drv_target_t *t, const void *config, const uint8_t *data, size_t len,
              const drv_plan_t *plan);

/* 1 under AddressSanitizer (gcc or clang): the biggest inputs get fewer
 * chunkings there (CI time); the plain build runs them all. */
#if defined(__SANITIZE_ADDRESS__)
#define DRV_SAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DRV_SAN 1
#endif
#endif
#ifndef DRV_SAN
#define DRV_SAN 0
#endif

/* True where the biggest inputs get drv_check_some instead of
 * drv_check_all: under the sanitizers, and on the emulated big-endian host
 * (TRACERD_BIG_ENDIAN_HOST, set by tools/check-be.sh: the suite runs under
 * qemu-user there). The plain native build runs every plan. */
bool drv_slow_host(void);

/* Runs three cheap plans (4096-byte chunks; 4096 and 1 alternating with a
 * pause at every callback; 4096, 1 and 31 cycled) and asserts that every
 * log equals the whole-feed log; returns it (malloc'd). For inputs too big
 * for every plan of drv_check_all under the sanitizers, or for the second
 * byte order of a case whose first runs them all. */
char *drv_check_some(const drv_target_t *t, const void *config, const uint8_t *data, size_t len);

/* Runs every chunking strategy, the pause and the allocation-failure loops and
 * asserts (Check) that every log equals the whole-feed log. Returns that log
 * (malloc'd). A 3-way split's run that stopped in its first chunk (an error,
 * a callback's abort) stands for every split with that first chunk: they
 * make the same calls. Inputs above 16 KiB get 64 random 2-way cuts and random
 * multi-chunk splits instead of every cut; under the sanitizers inputs
 * above 1 KiB do, on the emulated big-endian host inputs above 64 bytes (and
 * 3-way splits stop at 64 and 24 bytes instead of 200: driver.c, drv_depth). */
char *drv_check_all(const drv_target_t *t, const void *config, const uint8_t *data, size_t len);

/* drv_check_all with the abort_at-th counted callback (rec.h) returning -7
 * in every plan: the status, offset and reason of the abort (and the records
 * before it) must be the same whatever the split, pauses or allocation
 * failures. */
char *drv_check_all_at(const drv_target_t *t, const void *config, const uint8_t *data, size_t len,
                       unsigned long abort_at);

/* drv_check_all on the plain build, drv_check_some's three plans on slow
 * hosts (drv_slow_host: the sanitizers, the s390x run under qemu-user), for
 * reads whose every plan the plain build checks and which slow hosts need
 * not repeat: another form of the same callbacks (on_fields, on_functions)
 * whose log must equal the first's, or a trace whose every plan costs a
 * metadata load (the CTF 2 writer traces). */
char *drv_check_twin(const drv_target_t *t, const void *config, const uint8_t *data, size_t len);

/* Compares log with the golden file tests/data/<path>; with TRACERD_UPDATE_GOLDEN=1
 * in the environment, writes it instead. */
void drv_golden(const char *path, const char *log);

/* Reads a whole file (malloc'd); NULL if it does not exist. */
uint8_t *drv_read_file(const char *path, size_t *len);

/* Removes a directory made by a test and everything under it (nftw, files
 * before their directories); returns 0, or -1 with errno if something could
 * not be removed. */
int drv_rm_tree(const char *dir);

/* Directory of ../shared/peer-tests (env TRACERD_PEER_DIR overrides). Returns
 * NULL when absent; under CI=true an absent directory fails the test. */
const char *drv_peer_dir(void);

/* Calls fn(arg) with a bound of `seconds` of the process's CPU time (times
 * CK_TIMEOUT_MULTIPLIER when set; CPU time, so a loaded machine does not
 * trip it): true when fn returned, false when the bound expired first. fn
 * is then left where it was and its state abandoned (leaked): the caller
 * fails the test, naming what it ran and what it saw. For a library call
 * that must return quickly and whose live-lock would otherwise end only by
 * Check's timeout, naming nothing: a loop inside one call delivers no
 * callback a test could count. Under CK_FORK=no fn runs unbounded (Check
 * would leave a failed fn by a jump, with the timer still armed). */
bool drv_cpu_bounded(double seconds, void (*fn)(void *), void *arg);

/* A counting allocator that fails the n-th allocation (n from 1; 0 = never). */
typedef struct drv_alloc {
    tracerd_allocator_t a;
    unsigned long fail_at;
    unsigned long calls;
    long live; /* allocations not yet freed */
    size_t live_bytes;
    size_t peak_bytes;  /* largest live_bytes seen */
    size_t total_bytes; /* every byte ever allocated */
} drv_alloc_t;
void drv_alloc_init(drv_alloc_t *fa, unsigned long fail_at);

#endif
