/* The reader core: the state and the entry-point rules every format's reader
 * shares (doc/design.md, "The reader core"). A reader embeds one
 * `struct tracerd__reader` and goes through these functions for
 *   - the user pointer handed to every callback,
 *   - the sticky error (status, offset, reason, callback value),
 *   - the in-callback and pause state, and the one interpretation of a
 *     callback's return value (core.h: 0 goes on, any positive value pauses,
 *     any negative value stops with TRACERD_E_CALLBACK),
 *   - the guards of _feed, _resume and _finish,
 * and TRACERD__READER_OPS makes its public tracerd_reader_ops_t table.
 * Never installed. */
#ifndef TRACERD_CORE_READER_H
#define TRACERD_CORE_READER_H

#include "internal.h"

/* A run of warnings held back (warn.c): consecutive warnings of one kind
 * are delivered as one with a count when the run ends. */
struct tracerd__warn_run {
    tracerd_warning_t w; /* w.reason points at reason */
    char reason[TRACERD__REASON_MAX];
    bool pending;
};

struct tracerd__reader {
    void *user;                /* handed to every callback */
    struct tracerd__error err; /* sticky until reset */
    bool in_cb;                /* a callback (or the feed loop around them) is running */
    bool paused;               /* a callback asked to pause; only resume (or reset) clears it */
    struct tracerd__warn_run warn;
};

/* Warnings, coalesced (warn.c). A reader hands each warning to
 * tracerd__warn instead of calling on_warning: a warning that continues the
 * held run (same status, same reason but for its numbers, starting where the
 * run's skipped bytes end) joins it; any other first delivers the held run,
 * then is held. The reader delivers the held run (tracerd__warn_flush)
 * before any other callback and at the end of the input, so where it comes
 * does not depend on the split. Both return the callback's value (0 when
 * nothing was called), for the reader's usual handling ("on_warning");
 * cb NULL: nothing is held. */
int tracerd__warn(struct tracerd__reader *c, tracerd_warning_cb cb, const tracerd_warning_t *w);
int tracerd__warn_flush_run(struct tracerd__reader *c, tracerd_warning_cb cb);
static inline int tracerd__warn_flush(struct tracerd__reader *c, tracerd_warning_cb cb)
{
    return TRACERD__UNLIKELY(c->warn.pending) ? tracerd__warn_flush_run(c, cb) : 0;
}
/* The end of a reader's _feed or _finish that returns st: an error of the
 * trace (not a callback's, not a misuse) delivers the held run first, its
 * callback's value ignored (reading has stopped). Returns st. */
static inline tracerd_status_t tracerd__warn_at_error(struct tracerd__reader *c,
                                                      tracerd_warning_cb cb, tracerd_status_t st)
{
    if (TRACERD__UNLIKELY(st < 0) && c != NULL && c->warn.pending && st != TRACERD_E_CALLBACK &&
        st != TRACERD_E_INVALID)
        (void)tracerd__warn_flush_run(c, cb);
    return st;
}

/* What tracerd__cb_result makes of a callback's value. */
enum { TRACERD__CB_GO = 0, TRACERD__CB_PAUSED = 1, TRACERD__CB_FAILED = -1 };

void tracerd__reader_init(struct tracerd__reader *c, void *user);

/* The part of a reader's _new after its config and callbacks are read: the
 * reader, `size` bytes zeroed, from the caller's allocator (NULL: malloc),
 * which is copied into the reader at alloc_off; its core (at core_off) with
 * the user pointer; its stitch buffer (at st_off) of stitch_bytes. NULL when
 * out of memory, with nothing left allocated. TRACERD__READER_ALLOC gives
 * the offsets of a reader type with members `alloc`, `core` and `st`. */
void *tracerd__reader_alloc(size_t size, size_t alloc_off, size_t core_off, size_t st_off,
                            const tracerd_allocator_t *alloc, void *user, size_t stitch_bytes);
#define TRACERD__READER_ALLOC(type, src, user, stitch_bytes)                                       \
    ((type *)tracerd__reader_alloc(sizeof(type), offsetof(type, alloc), offsetof(type, core),      \
                                   offsetof(type, st), (src), (user), (stitch_bytes)))
/* Back to the state after init (the user pointer kept). */
void tracerd__reader_reset(struct tracerd__reader *c);

/* Records the error of a callback that returned the negative value rc, for the
 * record at offset: TRACERD_E_CALLBACK, "<which> callback returned <rc>". */
TRACERD__COLD int tracerd__cb_failed(struct tracerd__reader *c, int rc, const char *which,
                                     uint64_t offset);

/* The one interpretation of a callback's return value: TRACERD__CB_GO (0),
 * TRACERD__CB_PAUSED (any positive value; c->paused is set: the reader stops
 * after the record, or after the rest of it when it has more to deliver, and
 * its feed returns TRACERD_PAUSED at once) or TRACERD__CB_FAILED (any
 * negative value; the sticky error is set). */
static inline int tracerd__cb_result(struct tracerd__reader *c, int rc, const char *which,
                                     uint64_t offset)
{
    if (TRACERD__LIKELY(rc == TRACERD_CB_CONTINUE))
        return TRACERD__CB_GO;
    if (rc > 0) {
        c->paused = true;
        return TRACERD__CB_PAUSED;
    }
    return tracerd__cb_failed(c, rc, which, offset);
}

/* The guard of _feed: TRACERD_E_INVALID inside a callback, for data == NULL
 * with len != 0, or while paused; the sticky error if there is one; else OK.
 * c == NULL (the reader was NULL) is TRACERD_E_INVALID. */
static inline tracerd_status_t tracerd__feed_guard(const struct tracerd__reader *c,
                                                   const void *data, size_t len)
{
    if (c == NULL || c->in_cb || (data == NULL && len != 0))
        return TRACERD_E_INVALID;
    if (c->err.status < 0)
        return c->err.status;
    return c->paused ? TRACERD_E_INVALID : TRACERD_OK;
}

/* The guard of _finish: as _feed's, without the data. */
static inline tracerd_status_t tracerd__finish_guard(const struct tracerd__reader *c)
{
    static const uint8_t none[1] = {0};
    return tracerd__feed_guard(c, none, 0);
}

/* _resume: clears a pause; TRACERD_E_INVALID when not paused or inside a callback. */
tracerd_status_t tracerd__resume(struct tracerd__reader *c);

/* The status a feed or finish returns once its loop stopped: the sticky error,
 * else TRACERD_PAUSED when a callback paused, else TRACERD_OK. */
static inline tracerd_status_t tracerd__reader_status(const struct tracerd__reader *c)
{
    if (c->err.status < 0)
        return c->err.status;
    return c->paused ? TRACERD_PAUSED : TRACERD_OK;
}

/* The accessors every reader has (NULL-safe). */
static inline const char *tracerd__reader_error_reason(const struct tracerd__reader *c)
{
    return c != NULL && c->err.status < 0 ? c->err.reason : "";
}

static inline int tracerd__reader_callback_error(const struct tracerd__reader *c)
{
    return c != NULL ? c->err.callback_value : 0;
}

/* Defines `const tracerd_reader_ops_t *PREFIX_ops(void)` for the reader type
 * T whose entry points are PREFIX_new, _feed, _resume, _finish, _reset, _free,
 * _offset, _record_offset, _error_reason and _callback_error, with CONFIG_T and
 * CALLBACKS_T the types of _new's first two arguments. The wrappers only
 * convert the pointer types. */
#define TRACERD__READER_OPS(PREFIX, NAME, T, CONFIG_T, CALLBACKS_T)                                \
    static tracerd_status_t PREFIX##_ops_new(const void *cfg, const void *cbs, void *user,         \
                                             const tracerd_allocator_t *alloc, void **out)         \
    {                                                                                              \
        T *r = NULL;                                                                               \
        tracerd_status_t st =                                                                      \
            PREFIX##_new((const CONFIG_T *)cfg, (const CALLBACKS_T *)cbs, user, alloc, &r);        \
        if (out != NULL)                                                                           \
            *out = r;                                                                              \
        return st;                                                                                 \
    }                                                                                              \
    TRACERD__READER_OPS_NO_NEW(PREFIX, NAME, T, PREFIX##_ops_new)

/* The same for a reader made by something other than a _new(config,
 * callbacks, user, alloc, out) (the CTF stream reader needs its trace):
 * NEW_READER is the table's new_reader, or NULL. */
#define TRACERD__READER_OPS_NO_NEW(PREFIX, NAME, T, NEW_READER)                                    \
    static tracerd_status_t PREFIX##_ops_feed(void *r, const void *d, size_t n, size_t *used)      \
    {                                                                                              \
        return PREFIX##_feed((T *)r, d, n, used);                                                  \
    }                                                                                              \
    static tracerd_status_t PREFIX##_ops_resume(void *r)                                           \
    {                                                                                              \
        return PREFIX##_resume((T *)r);                                                            \
    }                                                                                              \
    static tracerd_status_t PREFIX##_ops_finish(void *r)                                           \
    {                                                                                              \
        return PREFIX##_finish((T *)r);                                                            \
    }                                                                                              \
    static void PREFIX##_ops_reset(void *r)                                                        \
    {                                                                                              \
        PREFIX##_reset((T *)r);                                                                    \
    }                                                                                              \
    static void PREFIX##_ops_free(void *r)                                                         \
    {                                                                                              \
        PREFIX##_free((T *)r);                                                                     \
    }                                                                                              \
    static uint64_t PREFIX##_ops_offset(const void *r)                                             \
    {                                                                                              \
        return PREFIX##_offset((const T *)r);                                                      \
    }                                                                                              \
    static uint64_t PREFIX##_ops_record_offset(const void *r)                                      \
    {                                                                                              \
        return PREFIX##_record_offset((const T *)r);                                               \
    }                                                                                              \
    static const char *PREFIX##_ops_error_reason(const void *r)                                    \
    {                                                                                              \
        return PREFIX##_error_reason((const T *)r);                                                \
    }                                                                                              \
    static int PREFIX##_ops_callback_error(const void *r)                                          \
    {                                                                                              \
        return PREFIX##_callback_error((const T *)r);                                              \
    }                                                                                              \
    const tracerd_reader_ops_t *PREFIX##_ops(void)                                                 \
    {                                                                                              \
        static const tracerd_reader_ops_t ops = {                                                  \
            .size = sizeof(tracerd_reader_ops_t),                                                  \
            .name = NAME,                                                                          \
            .new_reader = NEW_READER,                                                              \
            .feed = PREFIX##_ops_feed,                                                             \
            .resume = PREFIX##_ops_resume,                                                         \
            .finish = PREFIX##_ops_finish,                                                         \
            .reset = PREFIX##_ops_reset,                                                           \
            .free = PREFIX##_ops_free,                                                             \
            .offset = PREFIX##_ops_offset,                                                         \
            .record_offset = PREFIX##_ops_record_offset,                                           \
            .error_reason = PREFIX##_ops_error_reason,                                             \
            .callback_error = PREFIX##_ops_callback_error,                                         \
        };                                                                                         \
        return &ops;                                                                               \
    }

#endif
