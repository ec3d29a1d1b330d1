/* Where an event's values lie (internal: hidden symbols, for the CLI's dump;
 * not part of the public API, doc/design.md "Located events").
 *
 * A client that delivers every event's records through on_fields the same
 * way for every event of a record layout (a text template, say) reads only
 * their values; the records' other members are the same from event to
 * event. For such a client the reader can skip making the body's records:
 * for an event of a class of fixed segments (ctf_event_rt.body_fixed: fields
 * at offsets fixed from their segment's start, segments separated by
 * strings and sequences of fixed elements) read from an LTTng header form
 * (plan_events), it measures the body, then calls the located callback with
 * the header's records (as on_fields would get them) and where each segment
 * and what ends it begin. The client either writes the event from that
 * (returns an on_fields result: 0 goes on) or declines
 * (TRACERD__CTF_LOC_DECLINED): the records are then made and delivered to
 * on_fields as without the callback, the location staying valid until
 * that event's on_event_end, so that the client can learn, from the
 * records' offsets, where each value of the layout lies.
 *
 * A body record of the event at stream byte offset x lies in part s of the
 * event: the largest s with at[s] <= x (at[2k]: segment k's first field,
 * at[2k + 1]: the string or sequence after it, or the event's end after the
 * last segment). Its value is at data + (x - off): a record at at[s] + d in
 * one event is at at[s] + d in every event of the same class and header
 * form whose sequences have the same lengths (an integer or float of a
 * segment, an element of a sequence), or is the string at at[2k + 1] whose
 * length (bytes before its NUL) is len[k]. */
#ifndef TRACERD_CTF_LOCATED_H
#define TRACERD_CTF_LOCATED_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/ctf.h>

/* Segments an event located has at most (more: its records are made) */
#define TRACERD__CTF_LOC_SEGS 32u

typedef struct tracerd__ctf_located {
    /* the input: the byte at stream byte offset `off`; the event's bytes
     * and the 8 after its end lie in it (each value can be read as 8 bytes) */
    const uint8_t *data;
    uint64_t off;
    /* the event's header form: the records hdr (below) are the same but for
     * their values and offsets in every event of the same form */
    const void *form;
    uint32_t nseg; /* segments (>= 1) */
    uint32_t seqs; /* bit k: segment k is followed by a sequence (else a string,
                      or the event's end for the last) */
    uint64_t at[2 * TRACERD__CTF_LOC_SEGS]; /* stream byte offsets (see above) */
    /* segment k's string's length in bytes (its NUL not counted; at most
     * the reader's fragment size: a longer one is made as records), or its
     * sequence's number of elements; 0 after the last */
    uint64_t len[TRACERD__CTF_LOC_SEGS];
} tracerd__ctf_located_t;

/* A located callback's "make the records" (any other value is read as an
 * on_fields return value, the event then written by the client). */
#define TRACERD__CTF_LOC_DECLINED INT_MIN

/* The callback: hdr[0, nh) are the event header's records; the event's
 * on_event_begin came before it, its on_event_end follows. */
typedef int (*tracerd__ctf_located_cb)(void *user, const tracerd_ctf_field_t *hdr, size_t nh,
                                       const tracerd__ctf_located_t *loc);

/* Sets (or, with NULL, clears) the located callback of a reader made with
 * on_fields (without on_fields: nothing), or of every stream reader of a
 * directory: TRACERD_OK, or TRACERD_E_NOMEM (then some readers have none:
 * they deliver records, as without it). */
tracerd_status_t tracerd__ctf_stream_set_located(tracerd_ctf_stream_t *r,
                                                 tracerd__ctf_located_cb cb);
tracerd_status_t tracerd__ctf_dir_set_located(tracerd_ctf_dir_t *d, tracerd__ctf_located_cb cb);

#endif
