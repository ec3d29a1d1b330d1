/* The CLI's output writer (writer.h). */
#include "writer.h"

#include "hexfmt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

int wr_init(wr_t *w, int fd, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->fd = fd;
    w->cap = cap < 4096 ? 4096 : cap;
    w->buf = malloc(w->cap);
    return w->buf != NULL ? 0 : -1;
}

void wr_free(wr_t *w)
{
    free(w->buf);
    w->buf = NULL;
    w->cap = w->len = 0;
}

int wr_flush(wr_t *w)
{
    size_t off = 0, held = 0;
    if (w->in_rec && w->hold) { /* the held record stays: what precedes it goes out */
        held = w->len - w->mark;
        w->len = w->mark;
    }
    while (off < w->len && !w->failed) {
        ssize_t n = write(w->fd, w->buf + off, w->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            w->failed = true;
            w->errnum = n < 0 ? errno : EIO;
            break;
        }
        off += (size_t)n;
    }
    if (held > 0) {
        memmove(w->buf, w->buf + w->len, held);
        w->len = held;
        w->mark = 0;
        return w->failed ? -1 : 0;
    }
    if (w->in_rec && w->len > w->mark)
        w->rec_spilled = true;
    w->len = 0;
    w->mark = 0;
    return w->failed ? -1 : 0;
}

/* A held record: the buffer grows when the record leaves no room (wr_flush
 * has written out what precedes it). */
static bool spill_held(wr_t *w, size_t n)
{
    wr_flush(w);
    if (w->failed)
        return false;
    if (w->cap - w->len >= n)
        return true;
    size_t ncap = w->cap * 2;
    while (ncap - w->len < n)
        ncap *= 2;
    if (ncap > WR_HOLD_MAX)
        return false;
    char *b = realloc(w->buf, ncap);
    if (b == NULL)
        return false;
    w->buf = b;
    w->cap = ncap;
    return true;
}

void wr_spill(wr_t *w, size_t n)
{
    if (w->in_rec && w->hold) {
        if (!w->failed && spill_held(w, n))
            return;
        w->hold = false; /* past WR_HOLD_MAX: the record goes out */
    }
    wr_flush(w);
}

bool wr_rec_drop(wr_t *w)
{
    w->hold = false;
    if (!w->in_rec || w->rec_spilled)
        return false;
    w->len = w->mark;
    w->in_rec = false;
    w->nclosers = 0;
    w->lost_closers = 0;
    return true;
}

void wr_rec_end(wr_t *w)
{
    w->in_rec = false;
}

void wr_rec_abort(wr_t *w)
{
    if (!w->in_rec)
        return;
    if (!w->rec_spilled) {
        w->len = w->mark; /* nothing of it went out: drop it */
    } else {
        while (w->nclosers > 0)
            wr_ch(w, w->closers[--w->nclosers]);
        WR_LIT(w, ",\"incomplete\":true}\n");
    }
    w->in_rec = false;
    w->nclosers = 0;
}

/* ---- numbers ------------------------------------------------------------- */

const uint64_t wr__pow10[20] = {1u,
                                10u,
                                100u,
                                1000u,
                                10000u,
                                100000u,
                                1000000u,
                                10000000u,
                                100000000u,
                                1000000000u,
                                10000000000u,
                                100000000000u,
                                1000000000000u,
                                10000000000000u,
                                100000000000000u,
                                1000000000000000u,
                                10000000000000000u,
                                100000000000000000u,
                                1000000000000000000u,
                                10000000000000000000u};

/* Decimal digits of v: log10 from the bit length (1233/4096 ~ log10 2), corrected once. */
/* 5^0 .. 5^23 (5^23 < 2^54). */
static const uint64_t pow5_u64[24] = {UINT64_C(1),
                                      UINT64_C(5),
                                      UINT64_C(25),
                                      UINT64_C(125),
                                      UINT64_C(625),
                                      UINT64_C(3125),
                                      UINT64_C(15625),
                                      UINT64_C(78125),
                                      UINT64_C(390625),
                                      UINT64_C(1953125),
                                      UINT64_C(9765625),
                                      UINT64_C(48828125),
                                      UINT64_C(244140625),
                                      UINT64_C(1220703125),
                                      UINT64_C(6103515625),
                                      UINT64_C(30517578125),
                                      UINT64_C(152587890625),
                                      UINT64_C(762939453125),
                                      UINT64_C(3814697265625),
                                      UINT64_C(19073486328125),
                                      UINT64_C(95367431640625),
                                      UINT64_C(476837158203125),
                                      UINT64_C(2384185791015625),
                                      UINT64_C(11920928955078125)};

/* (10^17 - 1) / 5^s: k * 5^s has at most 17 digits when k <= frac_lim[s]. */
static const uint64_t frac_lim[24] = {UINT64_C(99999999999999999),
                                      UINT64_C(19999999999999999),
                                      UINT64_C(3999999999999999),
                                      UINT64_C(799999999999999),
                                      UINT64_C(159999999999999),
                                      UINT64_C(31999999999999),
                                      UINT64_C(6399999999999),
                                      UINT64_C(1279999999999),
                                      UINT64_C(255999999999),
                                      UINT64_C(51199999999),
                                      UINT64_C(10239999999),
                                      UINT64_C(2047999999),
                                      UINT64_C(409599999),
                                      UINT64_C(81919999),
                                      UINT64_C(16383999),
                                      UINT64_C(3276799),
                                      UINT64_C(655359),
                                      UINT64_C(131071),
                                      UINT64_C(26214),
                                      UINT64_C(5242),
                                      UINT64_C(1048),
                                      UINT64_C(209),
                                      UINT64_C(41),
                                      UINT64_C(8)};

size_t wr_fmt_u64(char *p, uint64_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return 1;
    }
#if WR_DIGITS_SSE2
    return wr__fmt_u64_10(p, v);
#else
    size_t n = wr__count_digits(v);
    if (n <= 8) {
        wr__put_digits(p, wr__digits8((uint32_t)v), (unsigned)(8 - n));
    } else if (n <= 16) {
        uint64_t hi = v / 100000000u;
        wr__put_digits(p, wr__digits8((uint32_t)hi), (unsigned)(16 - n));
        wr__put_digits(p + n - 8, wr__digits8((uint32_t)(v - hi * 100000000u)), 0);
    } else {
        uint64_t hi = v / UINT64_C(10000000000000000), r = v % UINT64_C(10000000000000000);
        uint64_t mid = r / 100000000u;
        wr__put_digits(p, wr__digits8((uint32_t)hi), (unsigned)(24 - n));
        wr__put_digits(p + n - 16, wr__digits8((uint32_t)mid), 0);
        wr__put_digits(p + n - 8, wr__digits8((uint32_t)(r - mid * 100000000u)), 0);
    }
    return n;
#endif
}

const char wr__d2[200] = {
#define D2(i) (char)('0' + (i) / 10), (char)('0' + (i) % 10)
#define D10(i)                                                                                     \
    D2(i), D2((i) + 1), D2((i) + 2), D2((i) + 3), D2((i) + 4), D2((i) + 5), D2((i) + 6),           \
        D2((i) + 7), D2((i) + 8), D2((i) + 9)
    D10(0),  D10(10), D10(20), D10(30), D10(40), D10(50),
    D10(60), D10(70), D10(80), D10(90)
#undef D10
#undef D2
};

static const char hexdig[] = "0123456789abcdef";

size_t wr_fmt_x64(char *p, uint64_t v)
{
    return hex_fmt_x64(p, v);
}

void wr_x64(wr_t *w, uint64_t v)
{
    char *p = wr_room(w, 16);
    w->len += hex_fmt_x64(p, v);
}

void wr_fmt_x32_8(char *p, uint32_t v)
{
    hex_fmt_x32_8(p, v);
}

void wr_x32_8(wr_t *w, uint32_t v)
{
    hex_fmt_x32_8(wr_room(w, 8), v);
    w->len += 8;
}

void wr_hex(wr_t *w, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        size_t k = len < 2048 ? len : 2048;
        hex_fmt_bytes(wr_room(w, 2 * k), p, k);
        w->len += 2 * k;
        p += k;
        len -= k;
    }
}

/* 17 significant digits of m * 2^e2 exactly, for every exponent, by big
 * integer arithmetic (the cold path: values below 2^-67 or from 2^63 up,
 * subnormals, hosts without 128-bit integers). The value is N * 10^e with N
 * = m * 2^e2 (e = 0) or N = m * 5^-e2 (e = e2); N's decimal digits are
 * written out in full (at most 767) and rounded to 17, ties to even as glibc
 * does. dg gets the 17 digits; returns the decimal exponent of the first. */
#define BIG_LIMBS 84 /* 2^52 * 5^1074 < 2^2547 < 2^(32 * 84) */
static int digits17_exact(uint64_t m, int e2, char dg[17])
{
    uint32_t n[BIG_LIMBS];
    size_t len = 2;
    n[0] = (uint32_t)m;
    n[1] = (uint32_t)(m >> 32);
    int e = 0;
    if (e2 >= 0) {
        size_t words = (size_t)e2 / 32;
        unsigned bits = (unsigned)e2 % 32;
        uint32_t carry = 0;
        for (size_t i = 0; i < len; i++) { /* shift by bits */
            uint32_t v = n[i];
            n[i] = (v << bits) | carry;
            carry = bits ? v >> (32 - bits) : 0;
        }
        n[len++] = carry;
        memmove(n + words, n, len * sizeof n[0]);
        memset(n, 0, words * sizeof n[0]);
        len += words;
    } else {
        e = e2;
        for (int k = -e2; k > 0;) { /* times 5^13 at a time (< 2^32) */
            int step = k < 13 ? k : 13;
            uint64_t f = 1, carry = 0;
            for (int i = 0; i < step; i++)
                f *= 5;
            for (size_t i = 0; i < len; i++) {
                uint64_t v = (uint64_t)n[i] * f + carry;
                n[i] = (uint32_t)v;
                carry = v >> 32;
            }
            if (carry)
                n[len++] = (uint32_t)carry;
            k -= step;
        }
    }
    while (len > 1 && n[len - 1] == 0)
        len--;
    /* decimal digits, 9 at a time from the low end */
    char dec[BIG_LIMBS * 10 + 9];
    size_t nd = sizeof dec;
    while (len > 1 || n[0] != 0) {
        uint64_t r = 0;
        for (size_t i = len; i-- > 0;) {
            uint64_t v = r << 32 | n[i];
            n[i] = (uint32_t)(v / 1000000000u);
            r = v % 1000000000u;
        }
        while (len > 1 && n[len - 1] == 0)
            len--;
        for (int i = 0; i < 9; i++) {
            dec[--nd] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    while (nd < sizeof dec - 1 && dec[nd] == '0')
        nd++;
    const char *d = dec + nd;
    size_t L = sizeof dec - nd;
    int x = (int)L - 1 + e;
    for (size_t i = 0; i < 17; i++)
        dg[i] = i < L ? d[i] : '0';
    bool up = false;
    if (L > 17) {
        if (d[17] > '5') {
            up = true;
        } else if (d[17] == '5') {
            size_t i = 18;
            while (i < L && d[i] == '0')
                i++;
            up = i < L || ((dg[16] - '0') & 1);
        }
    }
    if (up) {
        int i = 16;
        while (i >= 0 && dg[i] == '9')
            dg[i--] = '0';
        if (i >= 0) {
            dg[i]++;
        } else {
            dg[0] = '1';
            x++;
        }
    }
    return x;
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 wr_u128;

/* 17 significant digits of m * 2^e2 (m < 2^53, -120 < e2 < 0), correctly
 * rounded (ties to even, as glibc does): q in [1e16, 1e17), *x the decimal
 * exponent of its first digit. Returns false when out of this method's range. */
static bool digits17(uint64_t m, int e2, uint64_t *q_out, int *x_out)
{
    unsigned s = (unsigned)-e2;
    /* first guess of the exponent from the bit length: log10(2) ~ 0.30103 */
    int bits = 64 - __builtin_clzll(m);
    int x = (int)(((long)(bits - 1 + e2)) * 30103L / 100000L) - (bits - 1 + e2 < 0 ? 1 : 0);
    for (int tries = 0; tries < 4; tries++) {
        int k = 16 - x; /* scale by 10^k; m * 10^k must fit: m < 2^53, 10^k < 2^75 */
        if (k < 0 || k > 22)
            return false;
        wr_u128 scale = k > 19 ? (wr_u128)wr__pow10[19] * wr__pow10[k - 19] : wr__pow10[k];
        wr_u128 v = (wr_u128)m * scale;
        wr_u128 q = s >= 128 ? 0 : v >> s;
        if (q >= (wr_u128)wr__pow10[17]) {
            x++;
            continue;
        }
        if (q < (wr_u128)wr__pow10[16]) {
            x--;
            continue;
        }
        wr_u128 rem = v - (q << s), half = (wr_u128)1 << (s - 1);
        uint64_t qq = (uint64_t)q;
        if (rem > half || (rem == half && (qq & 1u)))
            qq++;
        if (qq == wr__pow10[17]) {
            qq = wr__pow10[16];
            x++;
        }
        *q_out = qq;
        *x_out = x;
        return true;
    }
    return false;
}
#endif

/* "%.17g" from 17 significant digits dg and the decimal exponent x of the
 * first: fixed notation for -4 <= x < 17, else d.ddde[+-]XX; trailing zeros
 * (and a point left bare) are not printed. */
static size_t g17_layout(char *p, size_t n, const char dg[17], int x)
{
    int last = 16;
    while (last > 0 && dg[last] == '0')
        last--;
    if (x < -4 || x >= 17) {
        p[n++] = dg[0];
        if (last > 0) {
            p[n++] = '.';
            memcpy(p + n, dg + 1, (size_t)last);
            n += (size_t)last;
        }
        p[n++] = 'e';
        p[n++] = x < 0 ? '-' : '+';
        unsigned ax = (unsigned)(x < 0 ? -x : x);
        if (ax >= 100)
            p[n++] = (char)('0' + ax / 100);
        p[n++] = (char)('0' + ax / 10 % 10);
        p[n++] = (char)('0' + ax % 10);
    } else if (x >= 0) {
        memcpy(p + n, dg, (size_t)x + 1);
        n += (size_t)x + 1;
        if (last > x) {
            p[n++] = '.';
            memcpy(p + n, dg + x + 1, (size_t)(last - x));
            n += (size_t)(last - x);
        }
    } else {
        p[n++] = '0';
        p[n++] = '.';
        for (int i = -1; i > x; i--)
            p[n++] = '0';
        memcpy(p + n, dg, (size_t)last + 1);
        n += (size_t)last + 1;
    }
    return n;
}

size_t wr_fmt_g17(char *p, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    bool neg = bits >> 63;
    int ex = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
    if (ex == 0x7ff) { /* not finite: callers write their own words */
        static const char *const word[4] = {"inf", "-inf", "nan", "-nan"};
        const char *s = word[(m != 0) * 2 + neg];
        size_t n = strlen(s);
        memcpy(p, s, n);
        return n;
    }
    size_t n = 0;
    if (neg)
        p[n++] = '-';
    if (ex == 0 && m == 0) {
        p[n++] = '0';
        return n;
    }
    int e2 = ex == 0 ? -1074 : ex - 1075; /* subnormals: no implicit bit */
    if (ex != 0)
        m |= UINT64_C(1) << 52;
    if (e2 >= 0 && e2 <= 10) {
        uint64_t v = m << e2; /* < 2^63, exact */
        if (v < UINT64_C(100000000000000000))
            return n + wr_fmt_u64(p + n, v);
    }
    char dg[24];
    int x;
    if (ex != 0 && e2 < 0) { /* m >= 2^52: a short binary fraction, or an integer, exactly */
        unsigned tz = (unsigned)__builtin_ctzll(m);
        int s = -e2 - (int)tz; /* binary digits after the point */
        if (s <= 0)
            return n + wr_fmt_u64(p + n, m >> -e2); /* < 2^53 < 10^17 */
        /* m / 2^-e2 = k / 2^s = k * 5^s / 10^s: its decimal digits k * 5^s
         * (odd: no trailing zero) when at most 17, padded to 17 */
        if (s < 24 && (m >> tz) <= frac_lim[s]) {
            uint64_t k = m >> tz, ip = k >> s;
            if (ip != 0) {
                /* at least 1 (the fixed notation; s < 17): the integer part,
                 * the point, the s digits of the fraction (k's low s bits
                 * times 5^s), as below, without dividing */
                n += wr_fmt_u64_inline(p + n, ip);
                uint64_t f = (k & ((UINT64_C(1) << s) - 1)) * pow5_u64[s];
                size_t nf = wr_fmt_u64_inline(p + n, f + wr__pow10[s]);
                p[n] = '.';
                return n + nf;
            }
            uint64_t dec = k * pow5_u64[s];
            size_t nd = wr__count_digits(dec);
            if ((size_t)s <= nd + 3 && s < 20) {
                /* the fixed notation (its first digit's exponent nd - 1 - s
                 * at least -4): the integer part, the point, then the s
                 * digits after it (the last not 0), written as the digits of
                 * 10^s + the fraction's with their leading 1 turned into the
                 * point */
                n += wr_fmt_u64(p + n, dec / wr__pow10[s]);
                size_t nf = wr_fmt_u64(p + n, dec % wr__pow10[s] + wr__pow10[s]);
                p[n] = '.';
                return n + nf;
            }
            wr_fmt_u64(dg, dec * wr__pow10[17 - nd]);
            return g17_layout(p, n, dg, (int)nd - 1 - s);
        }
    }
#if defined(__SIZEOF_INT128__)
    uint64_t q;
    if (ex != 0 && e2 < 0 && e2 > -120 && digits17(m, e2, &q, &x))
        wr_fmt_u64(dg, q); /* exactly 17 digits */
    else
        x = digits17_exact(m, e2, dg);
#else
    x = digits17_exact(m, e2, dg);
#endif
    return g17_layout(p, n, dg, x);
}

void wr_g17(wr_t *w, double d)
{
    char *p = wr_room(w, 32);
    w->len += wr_fmt_g17(p, d);
}

/* ---- strings ------------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at p (lead byte >= 0x80), or 0
 * with *bad set to the length of its maximal ill-formed subpart (at least 1). */
static size_t utf8_seq(const unsigned char *p, size_t avail, size_t *bad)
{
    unsigned char c = p[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0; /* overlong */
        else if (c == 0xed)
            hi = 0x9f; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90; /* overlong */
        else if (c == 0xf4)
            hi = 0x8f; /* past U+10FFFF */
    } else {
        *bad = 1; /* continuation byte, C0, C1, F5..FF */
        return 0;
    }
    size_t i = 1;
    if (i < avail && p[i] >= lo && p[i] <= hi) {
        for (i = 2; i < n && i < avail && (p[i] & 0xc0) == 0x80; i++)
            ;
        if (i == n)
            return n;
    }
    *bad = i;
    return 0;
}

bool wr_utf8_ok(const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) { /* ASCII eight bytes at a time */
        uint64_t v;
        memcpy(&v, p + i, 8);
        if ((v & UINT64_C(0x8080808080808080)) != 0)
            break;
    }
    while (i < len) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t bad;
        size_t n = utf8_seq(p + i, len - i, &bad);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

/* Bytes copied as they are inside a JSON string. */
static const unsigned char plain_byte[256] = {
    ['\x20'] = 1,
    1,
    0,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1, /* 0x20..0x2f, " excluded */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1, /* 0x30.. */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1, /* 0x40.. */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    0,
    1,
    1,
    1, /* 0x50.., \ excluded */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1, /* 0x60.. */
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    1,
    0, /* 0x70.., DEL excluded */
};

/* The rest of a string from its first byte that is not plain. */
static bool str_rest(wr_t *w, const unsigned char *p, size_t len);

/* Eight bytes at once: is any of them not plain (a control byte, '"', '\\',
 * DEL or a byte from 0x80)? Each test works on the low 7 bits of every byte
 * lane, where adding at most 0x80 cannot carry into the next lane. */
static inline bool word_has_special(uint64_t v)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones * 0x80u;
    uint64_t x = v & ~high;
    uint64_t del = x + ones;                                /* lane top bit: low 7 bits are 0x7f */
    uint64_t ctl = ~(x + ones * 0x60u);                     /* lane top bit: below 0x20 */
    uint64_t quote = ~((x ^ ones * 0x22u) + ones * 0x7fu);  /* lane top bit: '"' */
    uint64_t bslash = ~((x ^ ones * 0x5cu) + ones * 0x7fu); /* lane top bit: '\\' */
    return ((v | del | ctl | quote | bslash) & high) != 0;
}

/* The last 1 to 7 bytes of a string, when all plain: copied to o (which
 * has room for 8), true. Read as two overlapping pieces that cover them
 * (never past p + n), the other lanes of the word tested set to 'a'. */
static inline bool short_plain(char *o, const unsigned char *p, size_t n)
{
    const uint64_t fill = UINT64_C(0x6161616161616161);
    uint64_t v;
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        v = a | (uint64_t)b << 32;
        if (word_has_special(v))
            return false;
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
    } else if (n >= 2) {
        uint16_t a, b;
        memcpy(&a, p, 2);
        memcpy(&b, p + n - 2, 2);
        v = a | (uint64_t)b << 16 | (fill << 32);
        if (word_has_special(v))
            return false;
        memcpy(o, &a, 2);
        memcpy(o + n - 2, &b, 2);
    } else {
        v = p[0] | (fill << 8);
        if (word_has_special(v))
            return false;
        o[0] = (char)p[0];
    }
    return true;
}

bool wr_str(wr_t *w, const void *data, size_t len)
{
    const unsigned char *p = data;
    /* a short string is copied as it is scanned, with room for all of it
     * (and for the last eight-byte store) */
    if (len <= 256) {
        char *o = wr_room(w, len + 10);
        size_t i = 0;
        *o++ = '"';
        for (; i + 8 <= len; i += 8) {
            uint64_t v;
            memcpy(&v, p + i, 8);
            if (word_has_special(v))
                break;
            memcpy(o + i, &v, 8);
        }
        if (i < len && len - i < 8 && short_plain(o + i, p + i, len - i))
            i = len;
        while (i < len && plain_byte[p[i]]) {
            o[i] = (char)p[i];
            i++;
        }
        if (i == len) {
            o[len] = '"';
            w->len += len + 2;
            return true;
        }
        w->len += 1 + i;
        return str_rest(w, p + i, len - i);
    }
    wr_ch(w, '"');
    return str_rest(w, p, len);
}

/* A string's text from p on, escaped, without quotes. */
static bool str_body(wr_t *w, const unsigned char *p, size_t len)
{
    bool ok = true;
    size_t i = 0;
    while (i < len) {
        size_t run = i;
        while (run < len && plain_byte[p[run]])
            run++;
        if (run > i) {
            wr_put(w, p + i, run - i);
            i = run;
            if (i == len)
                break;
        }
        unsigned char ch = p[i];
        if (ch == '"' || ch == '\\') {
            char e[2] = {'\\', (char)ch};
            wr_put(w, e, 2);
            i++;
        } else if (ch < 0x80) {
            char e[6] = {'\\', 'u', '0', '0', hexdig[ch >> 4], hexdig[ch & 15]};
            wr_put(w, e, 6);
            i++;
        } else {
            size_t bad = 0;
            size_t n = utf8_seq(p + i, len - i, &bad);
            if (n != 0) {
                wr_put(w, p + i, n);
                i += n;
            } else {
                WR_LIT(w, "\\ufffd");
                ok = false;
                i += bad;
            }
        }
    }
    return ok;
}

static bool str_rest(wr_t *w, const unsigned char *p, size_t len)
{
    bool ok = str_body(w, p, len);
    wr_ch(w, '"');
    return ok;
}

bool wr_str_part(wr_t *w, const void *data, size_t len)
{
    return str_body(w, data, len);
}

/* ---- a printf subset ----------------------------------------------------- */

void wr_printf(wr_t *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *f = fmt;
    while (*f) {
        const char *lit = f;
        while (*f && *f != '%')
            f++;
        if (f > lit)
            wr_put(w, lit, (size_t)(f - lit));
        if (*f == '\0')
            break;
        f++; /* '%' */
        if (*f == '%') {
            wr_ch(w, '%');
            f++;
            continue;
        }
        if (f[0] == '.' && f[1] == '1' && f[2] == '7' && f[3] == 'g') {
            wr_g17(w, va_arg(ap, double));
            f += 4;
            continue;
        }
        unsigned width = 0; /* %0Nu, %0Nx: zero-padded to N digits */
        if (*f == '0') {
            f++;
            while (*f >= '0' && *f <= '9') {
                if (width < 20)
                    width = width * 10 + (unsigned)(*f - '0');
                f++;
            }
        }
        int longs = 0;
        bool size = false;
        while (*f == 'l') {
            longs++;
            f++;
        }
        if (*f == 'z') {
            size = true;
            f++;
        }
        char conv = *f ? *f++ : '\0';
        switch (conv) {
        case 's':
            wr_cstr(w, va_arg(ap, const char *));
            break;
        case 'c':
            wr_ch(w, (char)va_arg(ap, int));
            break;
        case 'd':
            if (longs >= 2)
                wr_i64(w, va_arg(ap, long long));
            else if (longs == 1)
                wr_i64(w, va_arg(ap, long));
            else
                wr_i64(w, va_arg(ap, int));
            break;
        case 'u':
        case 'x': {
            uint64_t v;
            if (size)
                v = va_arg(ap, size_t);
            else if (longs >= 2)
                v = va_arg(ap, unsigned long long);
            else if (longs == 1)
                v = va_arg(ap, unsigned long);
            else
                v = va_arg(ap, unsigned);
            char t[24];
            size_t n = 0;
            if (conv == 'u') {
                n = wr_fmt_u64(t, v);
            } else {
                do {
                    t[n++] = hexdig[v & 15];
                    v >>= 4;
                } while (v != 0);
                for (size_t i = 0; i < n / 2; i++) {
                    char c = t[i];
                    t[i] = t[n - 1 - i];
                    t[n - 1 - i] = c;
                }
            }
            for (size_t i = n; i < width; i++)
                wr_ch(w, '0');
            wr_put(w, t, n);
            break;
        }
        default:
            WR_LIT(w, "%?");
            break;
        }
    }
    va_end(ap);
}
