/* The FXT reader's own header (not installed): the reader struct, the
 * decoding primitives, and the functions its files share (tracerd__fxt_*,
 * hidden). The reader, one concern per file:
 *
 *   fxt.c          the public API: detection, config, new, feed, finish,
 *                  reset, free, the accessors and the ops table;
 *   fxt_stream.c   the state machine over the caller's chunks: the hot loop
 *                  (fast_records), records gathered in the stitch buffer,
 *                  streamed large blobs, skipping;
 *   fxt_records.c  one decoder per record kind, and tracerd__fxt_record (a
 *                  whole record on the general path, lenient skips);
 *   fxt_decode.h   the field decoders the hot loop and the general path
 *                  share (always inline, specialised by a constant `exact`);
 *   fxt_report.c   errors, warnings, callback results, unknown records;
 *   tables.c       the providers' string and thread tables (fxt_internal.h).
 *
 * Records are 8-byte words. A normal record is at most 4095 words (32760
 * bytes), so the stitch buffer (at least 32 KiB) holds any of them: records
 * lying inside the caller's chunk are decoded in place, the others are
 * gathered first. Large records (32-bit size) up to the stitch bound are
 * handled the same way; larger ones have their head (everything up to the
 * blob size word) gathered and their payload delivered as spans. */
#ifndef TRACERD_FXT_READER_H
#define TRACERD_FXT_READER_H

#include "../core/reader.h"
#include "fxt_internal.h"

enum { S_RECORD = 0, S_LARGE_HEAD = 1, S_LARGE_PAYLOAD = 2, S_SKIP = 3 };

/* The magic record (fxt.h) in each byte order. */
static inline bool magic_le(const uint8_t *p)
{
    return tracerd__le64(p) == TRACERD_FXT_MAGIC_RECORD;
}

static inline bool magic_be(const uint8_t *p)
{
    return tracerd__be64(p) == TRACERD_FXT_MAGIC_RECORD;
}

struct tracerd_fxt_reader {
    tracerd_fxt_config_t cfg;
    tracerd_fxt_callbacks_t cbs;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */
    tracerd_allocator_t alloc;
    struct tracerd__stitch st;
    struct tracerd__fxt_tables tables;
    struct tracerd__fxt_provider *cur; /* current provider; NULL before the first one */

    int state;
    bool big;
    bool order_known;
    bool fatal; /* the current error may not be skipped in lenient mode */

    const uint8_t *chunk; /* the chunk being fed */
    uint64_t chunk_off;   /* absolute offset of chunk[0] */
    uint64_t next_off;    /* absolute offset of the next byte expected (for callbacks) */

    /* The record being decoded. */
    uint64_t rec_off;
    const uint8_t *rec_p; /* its first byte (chunk or stitch buffer) */
    const char *what;     /* "event record", ... for error reasons */
    int arg_i;            /* argument being decoded, -1 outside arguments */

    /* Large record streaming. */
    uint64_t rec_size; /* bytes of the record */
    size_t head_need;  /* bytes of the head known to be needed so far */
    uint64_t pay_total;
    uint64_t pay_done;
    uint64_t skip_left; /* bytes to skip after the payload (padding, extensions) */

    tracerd_fxt_arg_t args[TRACERD_FXT_MAX_ARGS];
    uint16_t unknown_args; /* bit i: argument i has an unknown type */
    /* Offset of the record on_event_head kept in fast_records, which then
     * bailed out: tracerd__fxt_record() does not ask again (UINT64_MAX: none). */
    uint64_t head_kept;
    char warn_reason[TRACERD__REASON_MAX];
};

/* The arguments a record is delivered with: none with the no_args option
 * (decoded or only checked, never handed over). */
static inline const tracerd_fxt_arg_t *args_out(const tracerd_fxt_reader_t *r)
{
    return r->cfg.no_args ? NULL : r->args;
}

typedef struct cur {
    const uint8_t *p; /* start of the record (or argument) */
    size_t n;         /* its bytes */
    size_t at;        /* next byte to read */
    bool big;         /* byte order (a copy, so it lives in a register) */
} cur_t;

#if defined(__GNUC__)
#define FXT_COLD __attribute__((cold, noinline))
#define FXT_INLINE __attribute__((always_inline)) inline
#else
#define FXT_COLD
#define FXT_INLINE inline
#endif

/* tracerd__ld64 (bytes.h), forced inline: in the decoders specialised per
 * byte order `big` is a constant and the load compiles to one instruction
 * (plus a byte swap); gcc does not always inline the bytes.h helpers into
 * the large decoding function by itself. Same byte assembly, so correct for
 * any alignment and host byte order. */
static FXT_INLINE uint64_t ldw(bool big, const uint8_t *b)
{
    if (big)
        return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40 |
               (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
               (uint64_t)b[6] << 8 | (uint64_t)b[7];
    return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24 |
           (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 |
           (uint64_t)b[7] << 56;
}

static inline uint64_t ld64(const tracerd_fxt_reader_t *r, const uint8_t *p)
{
    return ldw(r->big, p);
}

static FXT_INLINE size_t pad8(size_t n)
{
    return (n + 7u) & ~(size_t)7u;
}

/* ---- errors, warnings and callbacks (fxt_report.c) -------------------- */

/* The error of the record being decoded (r->what, the argument if any). */
tracerd_status_t tracerd__fxt_fail(tracerd_fxt_reader_t *r, tracerd_status_t st, const char *fmt,
                                   ...) TRACERD__PRINTF(3, 4);
/* A resource limit or allocation failure: never skipped in lenient mode. */
tracerd_status_t tracerd__fxt_fail_fatal(tracerd_fxt_reader_t *r, tracerd_status_t st,
                                         const char *what);
/* A callback returned rv: the reader core's one interpretation. A pause is
 * taken at the end of the record (core.paused stops the loops); an abort is
 * never skipped in lenient mode. */
tracerd_status_t tracerd__fxt_after_cb(tracerd_fxt_reader_t *r, int rv, const char *name);
/* The warnings held back (a run of skips, reader.h tracerd__warn): delivered
 * before any other callback. */
TRACERD__COLD tracerd_status_t tracerd__fxt_warn_flush(tracerd_fxt_reader_t *r);
/* A warning: held, or joined to the held run, or delivered (tracerd__warn). */
tracerd_status_t tracerd__fxt_warning(tracerd_fxt_reader_t *r, tracerd_status_t st, uint64_t offset,
                                      uint64_t skipped);
/* Lenient mode: turns the current error into a warning about skipping
 * `skipped` bytes. */
tracerd_status_t tracerd__fxt_warn(tracerd_fxt_reader_t *r, uint64_t skipped);

#define CALL(r, cb, arg)                                                                           \
    ((r)->cbs.cb == NULL ? TRACERD_OK                                                              \
     : TRACERD__UNLIKELY((r)->core.warn.pending) && tracerd__fxt_warn_flush(r) != TRACERD_OK       \
         ? (r)->core.err.status                                                                    \
         : ((r)->core.in_cb = true,                                                                \
            tracerd__fxt_after_cb((r), (r)->cbs.cb((r)->core.user, (arg)), #cb)))

/* The errors of the field decoders, cold (the decoders stay small). */
FXT_COLD tracerd_status_t tracerd__fxt_fail_word(tracerd_fxt_reader_t *r, const char *field);
FXT_COLD tracerd_status_t tracerd__fxt_fail_inline(tracerd_fxt_reader_t *r, const char *field,
                                                   size_t len);
FXT_COLD tracerd_status_t tracerd__fxt_fail_koids(tracerd_fxt_reader_t *r, const char *field);
/* Argument header at q (rem bytes left in the record) that does not fit. */
FXT_COLD tracerd_status_t tracerd__fxt_fail_arg_header(tracerd_fxt_reader_t *r, const uint8_t *q,
                                                       size_t rem, bool big, uint32_t nargs);
FXT_COLD tracerd_status_t tracerd__fxt_fail_arg_word(tracerd_fxt_reader_t *r, uint32_t type);
FXT_COLD tracerd_status_t tracerd__fxt_fail_arg_blob(tracerd_fxt_reader_t *r, uint32_t bsize);
/* String or thread index `ref` not in the current provider's table: provider
 * 0's (fallback_to_provider0) or the error. */
FXT_COLD tracerd_status_t tracerd__fxt_str_miss(tracerd_fxt_reader_t *r, uint32_t ref,
                                                tracerd_str_t *out, const char *field);
FXT_COLD tracerd_status_t tracerd__fxt_thread_miss(tracerd_fxt_reader_t *r, uint32_t ref,
                                                   tracerd_fxt_thread_t *t, const char *field);
/* Provider 0, made for records before any provider info record. */
FXT_COLD tracerd_status_t tracerd__fxt_add_implicit_provider(tracerd_fxt_reader_t *r);
/* Reports unknown argument types of the record just validated. */
tracerd_status_t tracerd__fxt_report_unknown_args(tracerd_fxt_reader_t *r, uint32_t nargs);
/* Reports a record (or part) of an unknown kind through on_unknown. */
tracerd_status_t tracerd__fxt_report_unknown(tracerd_fxt_reader_t *r,
                                             tracerd_fxt_unknown_kind_t kind, uint32_t type,
                                             uint64_t h, const uint8_t *p, uint64_t n);

/* The word at the cursor (the field name for the error). */
static FXT_INLINE tracerd_status_t word(tracerd_fxt_reader_t *r, cur_t *c, uint64_t *v,
                                        const char *field)
{
    if (TRACERD__UNLIKELY(c->n - c->at < 8))
        return tracerd__fxt_fail_word(r, field);
    *v = ldw(c->big, c->p + c->at);
    c->at += 8;
    return TRACERD_OK;
}

/* An error lenient mode skips (with a warning). */
static inline bool skippable(const tracerd_fxt_reader_t *r, tracerd_status_t st)
{
    return r->cfg.lenient && !r->fatal &&
           (st == TRACERD_E_BAD_RECORD || st == TRACERD_E_EXTENT || st == TRACERD_E_REFERENCE ||
            st == TRACERD_E_MAGIC || st == TRACERD_E_LIMIT || st == TRACERD_E_TRUNCATED);
}

static FXT_INLINE tracerd_status_t ensure_provider(tracerd_fxt_reader_t *r)
{
    if (TRACERD__LIKELY(r->cur != NULL))
        return TRACERD_OK;
    return tracerd__fxt_add_implicit_provider(r);
}

/* ---- records (fxt_records.c) ------------------------------------------ */

/* The record kinds' names for error reasons ("event record", ...). */
extern const char *const tracerd__fxt_record_what[16];
/* Decodes a whole record (n bytes at p, r->rec_off set); in lenient mode a
 * malformed one becomes a warning. */
tracerd_status_t tracerd__fxt_record(tracerd_fxt_reader_t *r, const uint8_t *p, size_t n);
/* Decodes a large blob head from p (avail bytes of a record of total bytes)
 * into *b; *head receives the bytes before the payload. */
tracerd_status_t tracerd__fxt_large_blob_head(tracerd_fxt_reader_t *r, const uint8_t *p,
                                              size_t avail, uint64_t total, uint64_t h,
                                              tracerd_fxt_large_blob_t *b, size_t *head);
/* Bytes of a large blob head needed so far, from the `have` bytes at p:
 * returns a value <= have once the whole head is known. */
size_t tracerd__fxt_large_head_need(const tracerd_fxt_reader_t *r, const uint8_t *p, size_t have,
                                    uint64_t h);

/* ---- the state machine (fxt_stream.c) --------------------------------- */

/* Reads the chunk from *ppos to end, up to an error or a pause. */
tracerd_status_t tracerd__fxt_run(tracerd_fxt_reader_t *r, const uint8_t **ppos,
                                  const uint8_t *end);

#endif
