/* CTF stream recorder for the tests (see ctf_recorder.c). Log lines:
 *   P @off ...   packet          p @off ...  packet end
 *   E @off ...   event begin     e NAME      event end
 *   F @off s<scope> d<depth> KIND path name [index] = value
 *   L @off ...   loss            W ...       warning
 */
#ifndef TESTS_SUPPORT_CTF_RECORDER_H
#define TESTS_SUPPORT_CTF_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/ctf.h>

#include "driver.h"

struct target_cfg {
    const char *metadata;
    size_t metadata_len;
    /* An already parsed trace (not owned; outlives the reader), read instead
     * of parsing metadata at each open (the fuzz target's models). */
    const tracerd_ctf_trace_t *trace;
    tracerd_ctf_stream_config_t stream;
    /* The targets log each event's record shape (a line "shape N" after
     * its E line). Whatever this says, they check that the records of
     * every event of a shape (not 0) have the same descriptions. */
    bool log_shape;
};

/* The metadata text (NUL-terminated) and default stream options. */
void cfg_init(struct target_cfg *c, const char *meta);

/* The recorder's callbacks (user pointer: a rec_t of driver.h). */
void rec_callbacks(tracerd_ctf_callbacks_t *cb);

/* Targets: every callback (ctf_target), or no on_field (the fast path). */
extern const drv_target_t ctf_target;
extern const drv_target_t ctf_events_target;
/* on_fields instead of on_field (every record logged as on_field's). */
extern const drv_target_t ctf_batch_target;

/* COUNT mode (bench/bench_ctf.c): counting callbacks whose user pointer is a
 * ctf_counts_t; with fields, on_field too (every field counted, string
 * lengths added to bytes), or with batch the same counting in on_fields. */
typedef struct ctf_counts {
    uint64_t events, fields, packets, bytes;
} ctf_counts_t;
void ctf_count_callbacks(tracerd_ctf_callbacks_t *cb, bool fields, bool batch);

#endif
