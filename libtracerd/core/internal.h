/* Internal helpers shared by the readers. Never installed. Every non-static
 * symbol here is tracerd__*, hidden by -fvisibility=hidden. */
#ifndef TRACERD_CORE_INTERNAL_H
#define TRACERD_CORE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracerd/core.h>

#include "bytes.h"

#if defined(__GNUC__)
#define TRACERD__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TRACERD__LIKELY(x) __builtin_expect(!!(x), 1)
#define TRACERD__UNLIKELY(x) __builtin_expect(!!(x), 0)
/* For hot loops specialised on a constant argument (the byte order): the
 * compiler must make one copy per call site, not one shared function. */
#define TRACERD__INLINE __attribute__((always_inline)) inline
#define TRACERD__COLD __attribute__((cold, noinline))
#define TRACERD__NOINLINE __attribute__((noinline))
#else
#define TRACERD__NOINLINE
#define TRACERD__INLINE inline
#define TRACERD__COLD
#define TRACERD__PRINTF(f, a)
#define TRACERD__LIKELY(x) (x)
#define TRACERD__UNLIKELY(x) (x)
#endif

/* ---- allocation ------------------------------------------------------- */

/* Copies *src (or the libc defaults when src or its hooks are NULL). */
void tracerd__allocator_init(tracerd_allocator_t *dst, const tracerd_allocator_t *src);
/* Zeroed allocation; NULL on failure or size 0. */
void *tracerd__calloc(const tracerd_allocator_t *a, size_t size);
void tracerd__free(const tracerd_allocator_t *a, void *ptr, size_t size);
/* An object that keeps its allocator: `size` zeroed bytes from the caller's
 * allocator (src, or libc when src or its hooks are NULL), which is copied
 * into the object at alloc_off. NULL when out of memory. TRACERD__NEW gives
 * the size and offset of a type with a member `alloc`. */
void *tracerd__new_owned(size_t size, size_t alloc_off, const tracerd_allocator_t *src);
#define TRACERD__NEW(type, src)                                                                    \
    ((type *)tracerd__new_owned(sizeof(type), offsetof(type, alloc), (src)))

static inline bool tracerd__add_overflows(size_t a, size_t b, size_t *out)
{
    *out = a + b;
    return *out < a;
}

static inline bool tracerd__mul_overflows(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return true;
    *out = a * b;
    return false;
}

static inline bool tracerd__add64_overflows(uint64_t a, uint64_t b, uint64_t *out)
{
    *out = a + b;
    return *out < a;
}

/* ---- errors ----------------------------------------------------------- */

#define TRACERD__REASON_MAX 256

/* Sticky error state of a reader. */
struct tracerd__error {
    tracerd_status_t status;
    uint64_t offset;    /* absolute offset of the record at fault */
    int callback_value; /* the negative value a callback returned */
    char reason[TRACERD__REASON_MAX];
};

/* A warning of one record: count 1, size set. */
static inline tracerd_warning_t tracerd__warning(tracerd_status_t status, uint64_t offset,
                                                 uint64_t skipped, const char *reason)
{
    tracerd_warning_t w = {status, offset, skipped, reason, sizeof(tracerd_warning_t), 1};
    return w;
}

void tracerd__error_clear(struct tracerd__error *e);
/* Records an error and returns st. The reason is printf-formatted. */
tracerd_status_t tracerd__error_set(struct tracerd__error *e, tracerd_status_t st, uint64_t offset,
                                    const char *fmt, ...) TRACERD__PRINTF(4, 5);
/* Formats into buf (always NUL-terminated). */
void tracerd__format(char *buf, size_t size, const char *fmt, ...) TRACERD__PRINTF(3, 4);
/* The text of an errno value, thread-safe (strerror_r into buf; strerror is
 * not thread-safe and the library never calls it). Returns buf. */
const char *tracerd__strerror(int err, char *buf, size_t size);
/* The same into a buffer of the calling expression (valid in that statement). */
#define TRACERD__STRERROR(err) tracerd__strerror((err), (char[128]){0}, 128)

/* ---- stitch buffer ---------------------------------------------------- */

/* Reassembles only the records that straddle chunks. */
struct tracerd__stitch {
    uint8_t *buf;
    size_t cap;
    size_t have;
};

tracerd_status_t tracerd__stitch_init(struct tracerd__stitch *s, const tracerd_allocator_t *a,
                                      size_t cap);
void tracerd__stitch_free(struct tracerd__stitch *s, const tracerd_allocator_t *a);

/* Returns a pointer to `need` (<= cap) contiguous bytes of the current
 * record, either straight in the chunk (zero copy) or in the stitch buffer,
 * advancing *pos. Returns NULL when the chunk ran out: what was seen is kept
 * and *pos == end. */
static inline const uint8_t *tracerd__gather(struct tracerd__stitch *s, const uint8_t **pos,
                                             const uint8_t *end, size_t need)
{
    size_t avail = (size_t)(end - *pos);
    if (TRACERD__LIKELY(s->have == 0 && avail >= need)) {
        const uint8_t *rec = *pos;
        *pos += need;
        return rec;
    }
    size_t take = need - s->have;
    if (take > avail)
        take = avail;
    memcpy(s->buf + s->have, *pos, take);
    s->have += take;
    *pos += take;
    if (s->have < need)
        return NULL;
    s->have = 0;
    return s->buf;
}

/* Like gather, but keeps the bytes: the record may later need more of them
 * (a header that announces the record's full length). Returns NULL when the
 * chunk ran out. The caller either calls tracerd__gather for a larger need
 * (bytes already stitched are kept) or tracerd__stitch_drop. */
static inline const uint8_t *tracerd__peek(struct tracerd__stitch *s, const uint8_t **pos,
                                           const uint8_t *end, size_t need)
{
    size_t avail = (size_t)(end - *pos);
    if (s->have == 0 && avail >= need)
        return *pos; /* not advanced: the caller gathers the whole record later */
    if (s->have >= need)
        return s->buf;
    size_t take = need - s->have;
    if (take > avail)
        take = avail;
    memcpy(s->buf + s->have, *pos, take);
    s->have += take;
    *pos += take;
    return s->have < need ? NULL : s->buf;
}

static inline void tracerd__stitch_drop(struct tracerd__stitch *s)
{
    s->have = 0;
}

/* ---- hashing ---------------------------------------------------------- */

uint64_t tracerd__hash_bytes(const void *data, size_t len);
uint64_t tracerd__hash_u64(uint64_t key);

/* Open-addressing map from uint64_t keys to uint64_t values (xxHash). Grows
 * by doubling; allocation happens only in put, never in a reader's feed path
 * unless the format defines the table there (bounded by a limit). */
struct tracerd__hmap {
    uint64_t *keys;
    uint64_t *vals;
    uint8_t *used;
    size_t cap; /* power of two, or 0 */
    size_t count;
};

void tracerd__hmap_init(struct tracerd__hmap *m);
tracerd_status_t tracerd__hmap_put(struct tracerd__hmap *m, const tracerd_allocator_t *a,
                                   uint64_t key, uint64_t val);
/* Returns true and *val when key is present. */
bool tracerd__hmap_get(const struct tracerd__hmap *m, uint64_t key, uint64_t *val);
void tracerd__hmap_clear(struct tracerd__hmap *m);
void tracerd__hmap_free(struct tracerd__hmap *m, const tracerd_allocator_t *a);

/* ---- time ------------------------------------------------------------- */

/* a * b / c with a 128-bit intermediate, saturating; c == 0 returns 0. */
uint64_t tracerd__muldiv64(uint64_t a, uint64_t b, uint64_t c);

/* 64 x 64 -> 128-bit product, as (hi, lo). */
static inline void tracerd__mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    *lo = (mid << 32) | (uint32_t)ll;
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* Exact ticks -> nanoseconds for a fixed frequency, without a division per
 * call: 1e9 / freq = a + b / freq, and floor(ticks * b / freq) is computed
 * with a 64.64 reciprocal and one correction step. */
struct tracerd__tick_conv {
    uint64_t freq;
    uint64_t a, b, m;  /* m = floor(2^64 * b / freq) */
    uint64_t max_fast; /* ticks above this take the exact slow path */
};

void tracerd__tick_conv_init(struct tracerd__tick_conv *c, uint64_t freq_hz);

static inline uint64_t tracerd__tick_conv_ns(const struct tracerd__tick_conv *c, uint64_t ticks)
{
    if (TRACERD__UNLIKELY(ticks > c->max_fast))
        return c->freq ? tracerd__muldiv64(ticks, 1000000000u, c->freq) : 0;
    uint64_t hi, lo, phi, plo, est;
    tracerd__mul128(ticks, c->m, &est, &lo);
    /* est is floor(ticks * b / freq) or one less; the error of ticks * m / 2^64 is
     * below ticks / 2^64, so est is exact unless lo is within ticks of 2^64. */
    if (TRACERD__UNLIKELY(lo > UINT64_MAX - ticks)) {
        tracerd__mul128(est + 1, c->freq, &hi, &lo);
        tracerd__mul128(ticks, c->b, &phi, &plo);
        if (hi < phi || (hi == phi && lo <= plo))
            est++;
    }
    return ticks * c->a + est;
}

#endif
