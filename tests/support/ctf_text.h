/* Formats CTF events the way babeltrace2's text.pretty sink prints them
 * (`babeltrace2 --clock-cycles`), from the tracerd_ctf callbacks, so a test
 * can compare tracerd with babeltrace2's recorded output line by line. */
#ifndef TESTS_SUPPORT_CTF_TEXT_H
#define TESTS_SUPPORT_CTF_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/ctf.h>

#include "tlog.h"

typedef struct ctf_text {
    tlog_t out;       /* one line per event: "[cycles] NAME: { ... }, { ... }" (no [..] without a clock) */
    tlog_t pctx;      /* packet context of the current packet, formatted */
    const tracerd_ctf_dir_t *dir; /* when reading a directory: packet contexts per stream */
    tlog_t spctx[64];
    bool variant[64]; /* per nesting level: inside a variant (option printed without name) */
    tlog_t ev;        /* current event's scopes */
    tlog_t *cur;      /* where fields go */
    int skip_depth;   /* >0 while skipping a filtered field */
    bool first[64];   /* per nesting level: no member printed yet */
    unsigned level;
    uint64_t events, packets, losses;
    uint64_t lost_events, lost_packets;
    bool has_clock;
    uint64_t cycles;
    const char *name;
    bool bt21; /* babeltrace2 2.1: a value matching several mappings prints them all */
} ctf_text_t;

/* Callbacks writing into a ctf_text_t (the user pointer). */
void ctf_text_callbacks(tracerd_ctf_callbacks_t *cb);
void ctf_text_free(ctf_text_t *t);

/* Appends a babeltrace-style quoted string. */
void ctf_text_quote(tlog_t *l, const char *s, size_t n);

#endif
