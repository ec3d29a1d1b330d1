/* The CLI's output writer (writer.h). */
#include "writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

static const char digits2[200] = {
    '0', '0', '0', '1', '0', '2', '0', '3', '0', '4', '0', '5', '0', '6', '0', '7', '0', '8', '0',
    '9', '1', '0', '1', '1', '1', '2', '1', '3', '1', '4', '1', '5', '1', '6', '1', '7', '1', '8',
    '1', '9', '2', '0', '2', '1', '2', '2', '2', '3', '2', '4', '2', '5', '2', '6', '2', '7', '2',
    '8', '2', '9', '3', '0', '3', '1', '3', '2', '3', '3', '3', '4', '3', '5', '3', '6', '3', '7',
    '3', '8', '3', '9', '4', '0', '4', '1', '4', '2', '4', '3', '4', '4', '4', '5', '4', '6', '4',
    '7', '4', '8', '4', '9', '5', '0', '5', '1', '5', '2', '5', '3', '5', '4', '5', '5', '5', '6',
    '5', '7', '5', '8', '5', '9', '6', '0', '6', '1', '6', '2', '6', '3', '6', '4', '6', '5', '6',
    '6', '6', '7', '6', '8', '6', '9', '7', '0', '7', '1', '7', '2', '7', '3', '7', '4', '7', '5',
    '7', '6', '7', '7', '7', '8', '7', '9', '8', '0', '8', '1', '8', '2', '8', '3', '8', '4', '8',
    '5', '8', '6', '8', '7', '8', '8', '8', '9', '9', '0', '9', '1', '9', '2', '9', '3', '9', '4',
    '9', '5', '9', '6', '9', '7', '9', '8', '9', '9'};

/* Exactly 8 digits of v < 10^8, two at a time with 32-bit arithmetic. */
static inline void fmt8(char *p, uint32_t v)
{
    uint32_t hi = v / 10000, lo = v % 10000;
    memcpy(p, digits2 + 2 * (hi / 100), 2);
    memcpy(p + 2, digits2 + 2 * (hi % 100), 2);
    memcpy(p + 4, digits2 + 2 * (lo / 100), 2);
    memcpy(p + 6, digits2 + 2 * (lo % 100), 2);
}

static const uint64_t pow10_u64[20] = {1u,
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
static inline size_t count_digits(uint64_t v)
{
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1u);
    unsigned t = (bits * 1233u) >> 12;
    return (size_t)t + 1u - ((v | 1u) < pow10_u64[t]);
}

size_t wr_fmt_u64(char *p, uint64_t v)
{
    size_t n = count_digits(v);
    char *e = p + n;          /* filled from the right, in place */
    while (v >= 100000000u) { /* 8-digit blocks */
        uint64_t q = v / 100000000u;
        e -= 8;
        fmt8(e, (uint32_t)(v - q * 100000000u));
        v = q;
    }
    uint32_t x = (uint32_t)v;
    while (x >= 100) {
        e -= 2;
        memcpy(e, digits2 + 2 * (x % 100), 2);
        x /= 100;
    }
    if (x >= 10) {
        e -= 2;
        memcpy(e, digits2 + 2 * x, 2);
    } else {
        *--e = (char)('0' + x);
    }
    return n;
}

static const char hexdig[] = "0123456789abcdef";

void wr_x64(wr_t *w, uint64_t v)
{
    char t[16];
    size_t n = 0;
    do {
        t[15 - n++] = hexdig[v & 15];
        v >>= 4;
    } while (v != 0);
    wr_put(w, t + 16 - n, n);
}

void wr_hex(wr_t *w, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        size_t k = len < 2048 ? len : 2048;
        char *o = wr_room(w, 2 * k);
        for (size_t i = 0; i < k; i++) {
            o[2 * i] = hexdig[p[i] >> 4];
            o[2 * i + 1] = hexdig[p[i] & 15];
        }
        w->len += 2 * k;
        p += k;
        len -= k;
    }
}

/* "%.17g" through printf: the exponent forms and hosts without 128-bit integers. */
static size_t g17_printf(char *p, double d)
{
    int n = snprintf(p, 32, "%.17g", d);
    return n > 0 && n < 32 ? (size_t)n : 0;
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
        wr_u128 scale = k > 19 ? (wr_u128)pow10_u64[19] * pow10_u64[k - 19] : pow10_u64[k];
        wr_u128 v = (wr_u128)m * scale;
        wr_u128 q = s >= 128 ? 0 : v >> s;
        if (q >= (wr_u128)pow10_u64[17]) {
            x++;
            continue;
        }
        if (q < (wr_u128)pow10_u64[16]) {
            x--;
            continue;
        }
        wr_u128 rem = v - (q << s), half = (wr_u128)1 << (s - 1);
        uint64_t qq = (uint64_t)q;
        if (rem > half || (rem == half && (qq & 1u)))
            qq++;
        if (qq == pow10_u64[17]) {
            qq = pow10_u64[16];
            x++;
        }
        *q_out = qq;
        *x_out = x;
        return true;
    }
    return false;
}
#endif

size_t wr_fmt_g17(char *p, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    bool neg = bits >> 63;
    int ex = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
    if (ex == 0x7ff)
        return g17_printf(p, d);
    size_t n = 0;
    if (neg)
        p[n++] = '-';
    if (ex == 0 && m == 0) {
        p[n++] = '0';
        return n;
    }
    if (ex == 0)
        return g17_printf(p, d); /* subnormal: exponent form */
    m |= UINT64_C(1) << 52;
    int e2 = ex - 1075;
    if (e2 >= 0) {
        if (e2 > 10)
            return g17_printf(p, d);
        uint64_t v = m << e2; /* < 2^63, exact */
        if (v >= UINT64_C(100000000000000000))
            return g17_printf(p, d);
        return n + wr_fmt_u64(p + n, v);
    }
#if defined(__SIZEOF_INT128__)
    uint64_t q;
    int x;
    if (e2 <= -120 || !digits17(m, e2, &q, &x) || x < -4 || x >= 17)
        return g17_printf(p, d);
    char dg[17];
    wr_fmt_u64(dg, q); /* exactly 17 digits */
    int last = 16;     /* trailing zeros are not printed by %g */
    while (last >= 0 && dg[last] == '0')
        last--;
    if (x >= 0) {
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
#else
    return g17_printf(p, d);
#endif
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

bool wr_str(wr_t *w, const void *data, size_t len)
{
    const unsigned char *p = data;
    bool ok = true;
    wr_ch(w, '"');
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
    wr_ch(w, '"');
    return ok;
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
