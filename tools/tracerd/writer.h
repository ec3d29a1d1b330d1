/* The CLI's output writer: one buffer in front of a file descriptor, with
 * JSON text formatting that never goes through libc's printf: integers eight
 * digits at a time in one word, doubles exactly as "%.17g" prints them (128-bit
 * integer arithmetic; big integers for the exponents past it), strings
 * escaped and checked as UTF-8 (every ill-formed sequence, overlong form,
 * surrogate or code point past U+10FFFF becomes one \ufffd per maximal
 * subpart).
 *
 * Records: wr_rec_begin marks where a record (one output line) starts;
 * wr_rec_end closes it. When reading stops with an error inside a record,
 * wr_rec_abort drops the partial record if it is still in the buffer, or
 * else completes it (the closers pushed with wr_push, then
 * ,"incomplete":true}), so that the output stays one valid JSON object per
 * line. */
#ifndef TRACERD_CLI_WRITER_H
#define TRACERD_CLI_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WR_CLOSERS 256

typedef struct wr {
    int fd;
    char *buf;
    size_t len, cap;
    bool failed;     /* a write failed (errnum says why); later output is dropped */
    int errnum;
    bool in_rec;     /* between wr_rec_begin and wr_rec_end */
    bool rec_spilled; /* part of the open record was already written out */
    bool hold;        /* the open record stays in the buffer (wr_rec_hold) */
    size_t mark;     /* where the open record starts in buf */
    char closers[WR_CLOSERS];
    unsigned nclosers, lost_closers;
} wr_t;

/* Makes a writer on fd with a buffer of cap bytes (at least 4 KiB). Returns 0, or -1 on no memory. */
int wr_init(wr_t *w, int fd, size_t cap);
void wr_free(wr_t *w);
/* Writes the buffer out. Returns 0, or -1 on a write error (errno in w->errnum). */
int wr_flush(wr_t *w);
/* Room for n more bytes (flushes when needed; a write error keeps the
 * buffer and drops output). */
void wr_spill(wr_t *w, size_t n);

static inline char *wr_room(wr_t *w, size_t n)
{
    if (w->cap - w->len < n)
        wr_spill(w, n);
    return w->buf + w->len;
}

static inline void wr_put(wr_t *w, const void *s, size_t n)
{
    if (w->cap - w->len < n) {
        wr_spill(w, n);
        if (w->cap - w->len < n) { /* larger than the buffer: in pieces */
            const char *p = s;
            while (n > 0) {
                size_t k = w->cap - w->len < n ? w->cap - w->len : n;
                memcpy(w->buf + w->len, p, k);
                w->len += k;
                p += k;
                n -= k;
                if (n > 0)
                    wr_spill(w, 1);
            }
            return;
        }
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

/* A writer over the array buf[cap] that is never flushed: text formatted
 * once and copied many times (the caller makes cap cover what it writes; a
 * spill would fail on fd -1 and drop the text). */
static inline void wr_init_fixed(wr_t *w, char *buf, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->buf = buf;
    w->cap = cap;
}

/* The first n bytes of src[cap] (text made with wr_init_fixed): cap is a
 * compile-time constant, so the copy is a few fixed-size moves, not a
 * variable-length memcpy. */
#define WR_PUT_FIXED(w, src, n)                                                                    \
    do {                                                                                           \
        char *wr_p_ = wr_room((w), sizeof(src));                                                   \
        memcpy(wr_p_, (src), sizeof(src));                                                         \
        (w)->len += (n);                                                                           \
    } while (0)

/* A string literal. */
#define WR_LIT(w, lit) wr_put((w), (lit), sizeof(lit) - 1)

static inline void wr_ch(wr_t *w, char c)
{
    *wr_room(w, 1) = c;
    w->len++;
}

static inline void wr_cstr(wr_t *w, const char *s)
{
    wr_put(w, s, strlen(s));
}

/* Decimal digits of v at p (at least 20 bytes); returns the count. */
size_t wr_fmt_u64(char *p, uint64_t v);
/* "%.17g" of a double at p (at least 32 bytes), as glibc prints it; returns the length. */
size_t wr_fmt_g17(char *p, double d);

/* The two digits of each value 0-99 ("00" ... "99"). */
extern const char wr__d2[200];
/* 10^0 .. 10^19. */
extern const uint64_t wr__pow10[20];

/* The count of v's decimal digits (1 for 0), from its bit length alone: no
 * division, and nothing that waits for the digits themselves. */
static inline size_t wr__count_digits(uint64_t v)
{
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1u);
    unsigned t = (bits * 1233u) >> 12;
    return (size_t)t + 1u - ((v | 1u) < wr__pow10[t]);
}

/* wr_fmt_u64(p, v), values below 10^4 inline (from pairs of digits): a
 * call and the digit count cost more than their digits (ids, lengths,
 * counters). */
static inline size_t wr_fmt_u64_small(char *p, uint64_t v)
{
    if (v >= 10000u)
        return wr_fmt_u64(p, v);
    if (v < 10u) {
        *p = (char)('0' + v);
        return 1;
    }
    if (v < 100u) {
        memcpy(p, wr__d2 + 2u * v, 2);
        return 2;
    }
    uint32_t hi = (uint32_t)v / 100u, lo = (uint32_t)v - hi * 100u;
    if (hi < 10u) {
        *p = (char)('0' + hi);
        memcpy(p + 1, wr__d2 + 2u * lo, 2);
        return 3;
    }
    memcpy(p, wr__d2 + 2u * hi, 2);
    memcpy(p + 2, wr__d2 + 2u * lo, 2);
    return 4;
}

static inline void wr_u64(wr_t *w, uint64_t v)
{
    char *p = wr_room(w, 20);
    w->len += wr_fmt_u64(p, v);
}

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define WR_DIGITS_SSE2 1

/* The 16 digits of hi * 10^8 + lo (hi, lo < 10^8), hi's first, one a byte
 * (their values, not yet ASCII), all lanes at once: each 8-digit value
 * splits into two 4-digit values (x * 0xd1b71759 >> 45 is x / 10^4 for every
 * 32-bit x), each into two 2-digit ones in 16-bit lanes (x * 5243 >> 19 is x
 * / 100 for x < 10^4), each into two digits in bytes (x * 6554 >> 16 is x /
 * 10 for x < 100). */
static inline __m128i wr__digits16(uint32_t hi, uint32_t lo)
{
    __m128i k100 = _mm_set1_epi16(100), k10 = _mm_set1_epi16(10);
#if defined(__GNUC__)
    /* one pmullw each: gcc would make the products of these constants
     * shifts and adds (five instructions) */
    __asm__("" : "+x"(k100), "+x"(k10));
#endif
    __m128i x = _mm_set_epi64x((long long)lo, (long long)hi);
    __m128i q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int)0xd1b71759u)), 45);
    __m128i r = _mm_sub_epi32(x, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
    __m128i a = _mm_or_si128(q, _mm_slli_epi64(r, 32)); /* four values < 10^4 */
    __m128i b = _mm_srli_epi16(_mm_mulhi_epu16(a, _mm_set1_epi16(5243)), 3);
    __m128i c = _mm_or_si128(b, _mm_slli_epi32(_mm_sub_epi16(a, _mm_mullo_epi16(b, k100)), 16));
    __m128i d = _mm_mulhi_epu16(c, _mm_set1_epi16(6554)); /* eight values < 100 */
    return _mm_or_si128(d, _mm_slli_epi16(_mm_sub_epi16(c, _mm_mullo_epi16(d, k10)), 8));
}

#else
#define WR_DIGITS_SSE2 0
#endif

/* The 8 decimal digits of v < 10^8 as 8 ASCII bytes in one word, all lanes
 * at once: v splits into two 4-digit lanes of 32 bits, each into two 2-digit
 * lanes of 16 bits, each into two digits of 8 bits (x * 10486 >> 20 is x / 100
 * for x < 10^4, x * 103 >> 10 is x / 10 for x < 100; no lane overflows into
 * the next). The first digit is in the low byte. */
static inline uint64_t wr__digits8(uint32_t v)
{
    uint64_t hi = v / 10000u, lo = v % 10000u;
    uint64_t a = hi | lo << 32;
    uint64_t b = (a * 10486u) >> 20 & UINT64_C(0x0000007f0000007f);
    uint64_t c = b | (a - b * 100u) << 16;
    uint64_t d = (c * 103u) >> 10 & UINT64_C(0x000f000f000f000f);
    uint64_t e = d | (c - d * 10u) << 8;
    return e | UINT64_C(0x3030303030303030);
}

/* Stores the digits of word w (from wr__digits8) at p, less the first drop
 * (< 8) of them: always writes 8 bytes. */
static inline void wr__put_digits(char *p, uint64_t w, unsigned drop)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w) << (8u * drop);
#else
    w >>= 8u * drop;
#endif
    memcpy(p, &w, 8);
}

#if WR_DIGITS_SSE2
/* wr_fmt_u64(p, v) for v >= 10, inline (writer.c's is this): below 10^8 the
 * first half of wr__digits16's lanes, their leading zeros left out; below
 * 10^16 the two 8-digit blocks in one pass, the upper block's leading zeros
 * left out; past it the top 1-4 digits from the pair table, then the 16
 * digits in one store. The length comes from v's digit count, not from the
 * digits (their trailing zero bytes): what is written next need not wait
 * for the vector's ~20 steps (XRay dump, five numbers a line, was 30 %
 * slower in CPU time when it did). */
static inline size_t wr__fmt_u64_10(char *p, uint64_t v)
{
    if (v < 100000000u) {
        size_t n = wr__count_digits(v);
        uint64_t w = (uint64_t)_mm_cvtsi128_si64(wr__digits16((uint32_t)v, 0));
        wr__put_digits(p, w | UINT64_C(0x3030303030303030), (unsigned)(8u - n));
        return n;
    }
    if (v < UINT64_C(10000000000000000)) {
        size_t n = wr__count_digits(v);
        unsigned drop = (unsigned)(16u - n);
        uint64_t hi = v / 100000000u;
        __m128i d = wr__digits16((uint32_t)hi, (uint32_t)(v - hi * 100000000u));
        uint64_t w = (uint64_t)_mm_cvtsi128_si64(d);
        wr__put_digits(p, w | UINT64_C(0x3030303030303030), drop);
        d = _mm_or_si128(d, _mm_set1_epi8('0'));
        _mm_storel_epi64((__m128i *)(void *)(p + 8 - drop), _mm_unpackhi_epi64(d, d));
        return n;
    }
    uint64_t top = v / UINT64_C(10000000000000000), r = v - top * UINT64_C(10000000000000000);
    uint64_t mid = r / 100000000u;
    size_t n = wr_fmt_u64_small(p, top); /* 1 to 1844: its digits only */
    __m128i d = _mm_or_si128(wr__digits16((uint32_t)mid, (uint32_t)(r - mid * 100000000u)),
                             _mm_set1_epi8('0'));
    _mm_storeu_si128((__m128i *)(void *)(p + n), d);
    return n + 16u;
}
#endif

/* wr_fmt_u64(p, v) all inline: below 10^4 wr_fmt_u64_small's pairs of
 * digits, then (SSE2) wr__fmt_u64_10 (for the dumps' templates). */
static inline size_t wr_fmt_u64_inline(char *p, uint64_t v)
{
#if WR_DIGITS_SSE2
    if (v >= 10000u)
        return wr__fmt_u64_10(p, v);
#endif
    return wr_fmt_u64_small(p, v);
}

/* The leading digits of the last value written with wr_u64_lead (all but
 * its last eight), as text: consecutive timestamps share them. Zeroed: none. */
typedef struct wr_lead {
    uint64_t hi; /* the value / 10^8 (0: none kept; a kept one is >= 1) */
    size_t n;
    char text[24];
} wr_lead_t;

/* The digits of v (>= 10^8) above its last eight, kept in l (made when
 * they are not the last value's); returns v's last eight digits' value. */
static inline uint32_t wr__lead_rest(wr_lead_t *l, uint64_t v)
{
    uint64_t hi = v / 100000000u;
    if (hi != l->hi) {
        l->hi = hi;
        l->n = wr_fmt_u64(l->text, hi); /* at most 12 digits: v < 2^64 */
    }
    return (uint32_t)(v - hi * 100000000u);
}

/* wr_fmt_u64(p, v) (p: at least 24 bytes), the digits above the last eight
 * copied from l when they are the last value's (and kept in l when not). */
static inline size_t wr_fmt_u64_lead(char *p, wr_lead_t *l, uint64_t v)
{
    if (v < 100000000u)
        return wr_fmt_u64(p, v);
    uint32_t rest = wr__lead_rest(l, v);
    memcpy(p, l->text, 16);
    wr__put_digits(p + l->n, wr__digits8(rest), 0);
    return l->n + 8;
}

/* wr_fmt_u64_lead(p, la, a), then the first n (<= 8) bytes of sep[8], then
 * wr_fmt_u64_lead of b (p: at least 48 bytes); when b is at least 10^8, the
 * last eight digits of both (or all of a's, below 10^8: SSE2) are made in one
 * pass. Returns the length. */
static inline size_t wr_fmt_u64_lead2(char *p, wr_lead_t *la, uint64_t a, const char sep[8],
                                      size_t n, wr_lead_t *lb, uint64_t b)
{
    char *const p0 = p;
    if (a >= 100000000u && b >= 100000000u) {
        uint32_t ra = wr__lead_rest(la, a), rb = wr__lead_rest(lb, b);
#if WR_DIGITS_SSE2
        __m128i d = _mm_or_si128(wr__digits16(ra, rb), _mm_set1_epi8('0'));
        uint64_t wa = (uint64_t)_mm_cvtsi128_si64(d);
        uint64_t wb = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(d, d));
#else
        uint64_t wa = wr__digits8(ra), wb = wr__digits8(rb);
#endif
        memcpy(p, la->text, 16);
        p += la->n;
        wr__put_digits(p, wa, 0);
        memcpy(p + 8, sep, 8);
        p += 8 + n;
        memcpy(p, lb->text, 16);
        p += lb->n;
        wr__put_digits(p, wb, 0);
        return (size_t)(p + 8 - p0);
    }
#if WR_DIGITS_SSE2
    if (b >= 100000000u) { /* a < 10^8: its digits beside b's last 8 */
        size_t na = wr__count_digits(a);
        uint32_t rb = wr__lead_rest(lb, b);
        __m128i d = _mm_or_si128(wr__digits16((uint32_t)a, rb), _mm_set1_epi8('0'));
        wr__put_digits(p, (uint64_t)_mm_cvtsi128_si64(d), (unsigned)(8u - na));
        p += na;
        memcpy(p, sep, 8);
        p += n;
        memcpy(p, lb->text, 16);
        p += lb->n;
        _mm_storel_epi64((__m128i *)(void *)p, _mm_unpackhi_epi64(d, d));
        return (size_t)(p + 8 - p0);
    }
#endif
    p += wr_fmt_u64_lead(p, la, a);
    memcpy(p, sep, 8);
    p += n;
    return (size_t)(p - p0) + wr_fmt_u64_lead(p, lb, b);
}

/* wr_u64(w, v) through wr_fmt_u64_lead. */
static inline void wr_u64_lead(wr_t *w, wr_lead_t *l, uint64_t v)
{
    char *p = wr_room(w, 24);
    w->len += wr_fmt_u64_lead(p, l, v);
}

static inline void wr_i64(wr_t *w, int64_t v)
{
    char *p = wr_room(w, 21);
    if (v < 0) {
        *p++ = '-';
        w->len++;
        w->len += wr_fmt_u64(p, (uint64_t)0 - (uint64_t)v);
    } else {
        w->len += wr_fmt_u64(p, (uint64_t)v);
    }
}

/* Lower-case hex digits of v without leading zeros ("0" for 0). */
void wr_x64(wr_t *w, uint64_t v);
/* The same at p (at least 16 bytes); returns the count of digits. */
size_t wr_fmt_x64(char *p, uint64_t v);
/* Exactly 8 lower-case hex digits of v ("%08x"). */
void wr_x32_8(wr_t *w, uint32_t v);
/* The same at p (8 bytes). */
void wr_fmt_x32_8(char *p, uint32_t v);
/* A finite double as "%.17g" prints it (callers decide what NaN and infinities become). */
void wr_g17(wr_t *w, double d);
/* Two lower-case hex digits per byte, no quotes. */
void wr_hex(wr_t *w, const void *data, size_t len);
/* A quoted JSON string: ", \ and control bytes escaped (\u00XX), UTF-8
 * checked; returns false when an ill-formed sequence was replaced. */
bool wr_str(wr_t *w, const void *data, size_t len);
/* The same without the quotes: one piece of a string written in several
 * (the caller writes the quotes, and pushes the closing one with wr_push). */
bool wr_str_part(wr_t *w, const void *data, size_t len);

/* Is data well-formed UTF-8 (the same rules as wr_str)? */
bool wr_utf8_ok(const void *data, size_t len);

/* A subset of printf for the cold paths (rare records), formatted by the
 * functions above: %%, %c, %s, %d, %u, %x (with l, ll or z; %0Nu and %0Nx
 * zero-pad to N digits), %.17g; anything else is a programming error and
 * prints "%?". */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void
wr_printf(wr_t *w, const char *fmt, ...);

/* ---- records ------------------------------------------------------------ */
static inline void wr_rec_begin(wr_t *w)
{
    w->in_rec = true;
    w->hold = false;
    w->rec_spilled = false;
    w->mark = w->len;
    w->nclosers = 0;
    w->lost_closers = 0;
}

/* Ends the open record (the caller wrote its closing "}\n"). */
void wr_rec_end(wr_t *w);

/* A nested value opened inside the record: c is its closing character. */
static inline void wr_push(wr_t *w, char c)
{
    if (w->nclosers < WR_CLOSERS)
        w->closers[w->nclosers++] = c;
    else
        w->lost_closers++;
}

static inline void wr_pop(wr_t *w)
{
    if (w->lost_closers > 0)
        w->lost_closers--;
    else if (w->nclosers > 0)
        w->nclosers--;
}

/* Reading stopped inside the open record (if any): drop it or complete it. */
void wr_rec_abort(wr_t *w);

/* Keeps the open record in the buffer until it is decided on (a dump's
 * filter that needs fields written before it): the buffer grows instead of
 * writing the record out (up to WR_HOLD_MAX bytes; past that it is written
 * out and can no longer be dropped). wr_rec_drop drops the open record and
 * returns true, or returns false when part of it was written out already;
 * both end the hold. */
#define WR_HOLD_MAX ((size_t)64 << 20)
static inline void wr_rec_hold(wr_t *w)
{
    w->hold = true;
}
bool wr_rec_drop(wr_t *w);

#endif
