/* The CTF stream reader's state (struct tracerd_ctf_stream), shared by the
 * reader's two files: stream_life.c (creating, resetting and freeing a
 * reader, its accessors and the directory reader's gate) and stream.c (the
 * records over the caller's chunks, with the headers it includes). Also the
 * batch slots' bookkeeping, which both use. Private to libtracerd/ctf. */
#ifndef TRACERD_CTF_STREAM_STATE_H
#define TRACERD_CTF_STREAM_STATE_H

#include "../core/reader.h"
#include "ctf_internal.h"
#include "located.h"

#define PACKET_MAGIC TRACERD_CTF_PACKET_MAGIC

enum { S_PACKET = 0, S_EVENTS, S_PADDING, S_END };
enum { R_OK = 0, R_MORE, R_ERR };

struct loop {
    uint64_t n, i;
};

struct vm {
    const uint8_t *data;
    uint64_t bit0;  /* packet-relative bit of data[0] */
    uint64_t limit; /* packet-relative bit where usable data ends */
    bool more_ok;   /* hitting limit means "need more input" (else an error) */
    tracerd_status_t end_status;
    uint64_t pos;
    uint64_t need;
    uint32_t sp;     /* loop stack depth */
    uint32_t depth;  /* delivery nesting */
    uint64_t bo_end; /* bit after the last generic bit field (0: none yet) */
    bool bo_be;      /* its byte order */
    uint32_t pc;     /* run: the instruction to start at (0; where it stopped on R_MORE) */
    bool big;        /* a streamed event: long values resume across calls (frag_value) */
};

struct tracerd_ctf_stream {
    tracerd_allocator_t alloc;
    const struct tracerd_ctf_trace *t;
    tracerd_ctf_stream_config_t cfg;
    tracerd_ctf_callbacks_t cb;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */
    char err_path[160];
    uint64_t err_field_off;

    int state;
    uint64_t offset;  /* absolute bytes taken from the input */
    uint64_t pkt_off; /* absolute offset of the current packet */
    uint64_t pos;     /* packet-relative bit of the next record */
    uint64_t content_bits, packet_bits;
    uint64_t pkt_index, pkt_events;
    bool in_packet_seen;
    const struct ctf_stream_rt *srt;
    uint64_t rec_off;

    /* Stitch buffer: st_alloc bytes allocated, grown (stitch_reserve) as
     * straddling records need, up to st_limit (stitch_bytes). */
    uint8_t *st;
    size_t st_limit, st_alloc, st_have;
    uint64_t st_need; /* packet-relative bits needed before measuring again */

    uint64_t *slots;
    uint32_t nslots;
    uint8_t *ubuf; /* UTF-16/32 strings converted to UTF-8 (traces that have them) */
    size_t ubuf_cap;
    uint32_t have; /* roles seen (bit per role) */
    uint8_t uuid[16];
    bool uuid_warned; /* a packet uuid differing from the trace's was reported */
    uint32_t ts_bits;
    struct loop *loops;
    uint32_t nloops;

    uint64_t clock;                     /* current clock value (cycles) */
    const struct ctf_stream_rt *ns_srt; /* stream class ns_simple/ns_base were computed for */
    bool ns_simple; /* 1 GHz clock with a non-negative offset: ns = cycles + ns_base */
    uint64_t ns_base;
    bool clock_set;
    /* previous packet, for losses */
    bool prev;
    uint64_t prev_discarded, prev_seq, prev_ts_end;
    uint32_t discarded_bits;
    bool prev_has_ts_end;

    /* An event longer than the stitch buffer, delivered while it arrives:
     * the stitch buffer is a window on it (st[0] is packet byte win_byte)
     * and bvm the interpreter stopped where the window ran out. */
    bool big;
    uint32_t big_scope; /* program running: 0 header .. 3 payload */
    struct vm bvm;
    uint64_t win_byte;
    uint64_t big_need;      /* bit the window must reach before running again */
    uint64_t big_ran;       /* the window's end (bit) when it last ran */
    size_t frag;            /* TRACERD_CTF_FRAGMENT_BYTES(stitch_bytes) */
    uint64_t fr_in, fr_out; /* value being fragmented: input / delivered bytes done */
    bool fr_done;           /* ... a text array's text ended: its other bytes are skipped */

    /* the measured event */
    const struct ctf_event_rt *ev;
    uint64_t ev_cycles;
    bool ev_has_ts;

    uint32_t scopes;       /* scopes on_field receives (bit per TRACERD_CTF_SCOPE_*) */
    bool fields;           /* on_field or on_fields: field records are delivered */
    uint32_t shape_scopes; /* the scopes delivered: scopes, 0 without fields */
    /* on_fields: the records not delivered yet (TRACERD_CTF_BATCH_RECORDS
     * of room), or NULL (on_field) */
    tracerd_ctf_field_t *batch;
    uint32_t batch_n;
    /* LTTng header forms (run_lttng_header): the form whose records lie at
     * batch[0 ..) with only their values and offsets to write (NULL: none;
     * every other writer below its length clears it), and for on_field a
     * copy of each form's records, of the form hrec_of[] */
    const struct ctf_hform *batch_hform;
    /* the batch slots (batch_dirty_n of them) whose enum_label, option,
     * bytes, frag or frag_offset may differ from a new record's
     * (slot_clear): listed by their writer (each slot is written once
     * between two calls), cleared after the call (batch_clean). Every other
     * slot has them as a new record does, but the kept header form's own,
     * which batch_drop_hform clears when another record goes there. */
    uint8_t batch_dirty[TRACERD_CTF_BATCH_RECORDS];
    uint32_t batch_dirty_n;
    const struct ctf_hform *hrec_of[2];
    tracerd_ctf_field_t *hrec; /* 2 x CTF_HFORM_RECORDS, made by _new with on_field */
    bool fast_ok;              /* events lying in the chunk may take fast_events */
    bool fast_ctx;             /* ... which then delivers the two event contexts */
    int hdr_inline;            /* fast_events reads srt's event header: hdr_inline_of */
    /* the event fast_events' callbacks see, its packet's members made once
     * a packet (event_fill_packet) */
    tracerd_ctf_event_t fe;
    tracerd__ctf_gate_fn gate;
    void *gate_user;
    uint64_t gate_below; /* events before this time pass without asking the gate */
    bool gate_hold;      /* and those after it are held back without asking */
    bool gated;
    uint64_t gated_ns; /* the time of the event held back */
    /* The event fast_events measured when the gate held it back, kept so that
     * letting it through later does not measure it again: valid while
     * held_pos == pos in the same packet (set_trace, reset and errors drop it). */
    bool held;
    uint64_t held_pos, held_pkt, held_end, held_sctx, held_cycles, held_ns;
    bool held_has_ts;
    const struct ctf_event_rt *held_ev;
    /* The same for plan_events (held_pos, held_pkt, held_ns): the event it
     * measured is still the reader's (ev, ev_cycles, its header's slots). */
    bool plan_held;
    /* located.h: the client's located callback (NULL: none; only with
     * on_fields), and the last event's locations it was given (allocated
     * with the callback: a directory's thousands of readers without one
     * stay small) */
    tracerd__ctf_located_cb located;
    tracerd__ctf_located_t *loc;
};

/* How fast_events reads an event header of stream class s (set with
 * r->srt): 1 inline as LTTng compact, 2 inline as LTTng large (both
 * little-endian), 0 by run_fast (or no fast program). */
static inline int hdr_inline_of(const struct ctf_stream_rt *s)
{
    const struct ctf_insn *hdr = s->event_header.fast;
    if (hdr == NULL || (hdr[0].flags & INSN_BE))
        return 0;
    return hdr[0].op == OP_LTTNG_COMPACT ? 1 : hdr[0].op == OP_LTTNG_LARGE ? 2 : 0;
}

/* The members of the event the callbacks see that stay the same for every
 * event of a packet. */
static inline void event_fill_packet(const tracerd_ctf_stream_t *r, tracerd_ctf_event_t *e)
{
    e->stream_class = r->srt->cls;
    e->packet_index = r->pkt_index;
    e->size = sizeof *e;
    e->values = r->slots + CTF_FIRST_FREE_SLOT;
}

/* A batch slot's members that no plan step sets, as a new record has them. */
static TRACERD__INLINE void slot_clear(tracerd_ctf_field_t *o)
{
    o->enum_label = NULL;
    o->option = NULL;
    o->bytes.data = NULL;
    o->bytes.len = 0;
    o->frag = TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST;
    o->frag_offset = 0;
}

/* Batch slot i's record has members slot_clear would change. */
static TRACERD__INLINE void batch_mark(tracerd_ctf_stream_t *r, size_t i)
{
    if (TRACERD__LIKELY(r->batch_dirty_n < TRACERD_CTF_BATCH_RECORDS)) /* (always) */
        r->batch_dirty[r->batch_dirty_n++] = (uint8_t)i;
}

/* The slots listed since the last call made as a new record's. */
static TRACERD__INLINE void batch_clean(tracerd_ctf_stream_t *r)
{
    for (uint32_t k = 0; k < r->batch_dirty_n; k++)
        slot_clear(&r->batch[r->batch_dirty[k]]);
    r->batch_dirty_n = 0;
}

/* The batch's kept header form (if any) given up: its slots from batch_n
 * on (the ones not holding records to deliver) made as a new record's. */
static inline void batch_drop_hform(tracerd_ctf_stream_t *r)
{
    const struct ctf_hform *h = r->batch_hform;
    if (h == NULL)
        return;
    for (uint32_t i = r->batch_n; i < h->n; i++)
        slot_clear(&r->batch[i]);
    r->batch_hform = NULL;
}

#endif
