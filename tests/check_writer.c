/* The CLI's output writer (tools/tracerd/writer.c, compiled into this suite):
 * numbers against printf, "%.17g" on millions of doubles, JSON strings and
 * UTF-8 repair (overlong forms, surrogates, past U+10FFFF, truncated and
 * stray bytes), the printf subset, and records dropped or completed when
 * reading stops inside one. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/tracerd/writer.c"
#include "../tools/tracerd/jcache.h"
#include "../tools/tracerd/vcache.h"

/* A writer on a temporary file; wr_text returns what was written. */
static FILE *tmp_out;

static void wr_open(wr_t *w, size_t cap)
{
    tmp_out = tmpfile();
    ck_assert_ptr_nonnull(tmp_out);
    ck_assert_int_eq(wr_init(w, fileno(tmp_out), cap), 0);
}

static char *wr_text(wr_t *w)
{
    ck_assert_int_eq(wr_flush(w), 0);
    long n = lseek(fileno(tmp_out), 0, SEEK_END);
    ck_assert_int_ge(n, 0);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(pread(fileno(tmp_out), s, (size_t)n, 0), n);
    s[n] = '\0';
    wr_free(w);
    fclose(tmp_out);
    return s;
}

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

START_TEST(test_g17_matches_printf)
{
    static const double fixed[] = {0.0,
                                   -0.0,
                                   1.0,
                                   0.1,
                                   0.5,
                                   1.5,
                                   3.14159,
                                   60.0,
                                   1e16,
                                   1e17,
                                   1e-4,
                                   1e-5,
                                   123456.789,
                                   1.0 / 3,
                                   0.3,
                                   1e300,
                                   -2.75,
                                   5e-324,
                                   1e15 + 0.3,
                                   4503599627370496.5,
                                   99999999999999999.0,
                                   0.000123456789,
                                   1.7976931348623157e308,
                                   2.2250738585072014e-308,
                                   2.2250738585072009e-308,
                                   1e23,
                                   9.5e-5,
                                   1e100,
                                   123456789012345678.0,
                                   1e-300,
                                   -4.9e-324};
    char a[64], b[64];
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        size_t n = wr_fmt_g17(a, fixed[i]);
        a[n] = '\0';
        snprintf(b, sizeof b, "%.17g", fixed[i]);
        ck_assert_str_eq(a, b);
    }
    unsigned checked = 0;
    for (unsigned i = 0; i < 1000000; i++) {
        uint64_t bits = rng();
        double d;
        memcpy(&d, &bits, sizeof d);
        if (i % 3 == 1)
            d = (double)(rng() % 100000000) / (double)(1 + rng() % 100000);
        if (i % 3 == 2)
            d = (double)(rng() % 1000000) * 1e-6 * pow(10, (double)(rng() % 20) - 5);
        if (i % 7 == 3) /* short decimals far from 1 (the exponent forms, ties) */
            d = (double)(rng() % 100000) * pow(10, (double)(rng() % 600) - 300);
        if (!isfinite(d))
            continue;
        size_t n = wr_fmt_g17(a, d);
        a[n] = '\0';
        snprintf(b, sizeof b, "%.17g", d);
        if (strcmp(a, b) != 0)
            ck_abort_msg("%%.17g of %a: writer %s, printf %s", d, a, b);
        checked++;
    }
    ck_assert_uint_gt(checked, 900000);
    /* short binary fractions k / 2^s (the exact path): every s up to past
     * its bound, k odd around 17 significant digits' edge, both signs, the
     * fixed and exponent forms' edge (1e-4 and 1e-5 times them) */
    for (int s = 0; s < 30; s++) {
        for (unsigned i = 0; i < 4000; i++) {
            uint64_t k;
            if (i < 1000)
                k = 2 * i + 1;
            else if (i < 2000)
                k = (rng() % (UINT64_C(1) << 53)) | 1;
            else if (i < 3000) /* around (10^17 - 1) / 5^s */
                k = ((s < 24 ? UINT64_C(99999999999999999) / (uint64_t)pow(5, s)
                             : (UINT64_C(1) << 53)) +
                     (i % 64) - 32) |
                    1;
            else
                k = rng() % 100000;
            double d = ldexp((double)k, -s);
            if (i % 5 == 4)
                d *= i % 2 ? 1e-4 : 1e-5;
            if (i % 3 == 0)
                d = -d;
            size_t n = wr_fmt_g17(a, d);
            a[n] = '\0';
            snprintf(b, sizeof b, "%.17g", d);
            if (strcmp(a, b) != 0)
                ck_abort_msg("%%.17g of %a: writer %s, printf %s", d, a, b);
        }
    }
}
END_TEST

START_TEST(test_integers)
{
    static const uint64_t u[] = {
        0, 9, 10, 99, 100, 101, 9999, 10000, 4294967295u, 10000000000000000000u, UINT64_MAX};
    char a[32], b[32];
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        size_t n = wr_fmt_u64(a, u[i]);
        a[n] = '\0';
        snprintf(b, sizeof b, "%llu", (unsigned long long)u[i]);
        ck_assert_str_eq(a, b);
    }
    /* every digit count, at its edges (the 8-digit blocks, the dropped leading zeros) */
    uint64_t p10 = 1;
    for (int k = 0; k < 20; k++, p10 *= 10) {
        for (int d = -2; d <= 2; d++) {
            uint64_t v = p10 + (uint64_t)(int64_t)d;
            size_t n = wr_fmt_u64(a, v);
            a[n] = '\0';
            snprintf(b, sizeof b, "%llu", (unsigned long long)v);
            ck_assert_str_eq(a, b);
        }
    }
    for (unsigned i = 0; i < 100000; i++) {
        uint64_t v = rng() >> (rng() % 64);
        size_t n = wr_fmt_u64(a, v);
        a[n] = '\0';
        snprintf(b, sizeof b, "%llu", (unsigned long long)v);
        ck_assert_str_eq(a, b);
    }
    wr_t w;
    wr_open(&w, 4096);
    wr_i64(&w, INT64_MIN);
    wr_ch(&w, ' ');
    wr_i64(&w, -42);
    wr_ch(&w, ' ');
    wr_x64(&w, 0);
    wr_ch(&w, ' ');
    wr_x64(&w, 0xdeadbeef12ull);
    wr_ch(&w, ' ');
    wr_printf(&w, "%s=%d/%u/%lu/%llu/%zu/%x/%08x/%02x/%c/%.17g/%%", "k", -7, 5u, 6ul, 7ull,
              (size_t)8, 255u, 0xabcu, 5u, 'z', 0.1);
    char *s = wr_text(&w);
    ck_assert_str_eq(s, "-9223372036854775808 -42 0 deadbeef12 "
                        "k=-7/5/6/7/8/ff/00000abc/05/z/0.10000000000000001/%");
    free(s);
    /* hex at each digit count's edges (the two 8-digit words, the dropped
     * leading zeros), wr_fmt_x64 as wr_x64 */
    for (unsigned k = 0; k < 64; k++) {
        for (int d = -1; d <= 1; d++) {
            uint64_t v = ((uint64_t)1 << k) + (uint64_t)(int64_t)d;
            char h[32];
            size_t n = wr_fmt_x64(h, v);
            h[n] = '\0';
            snprintf(b, sizeof b, "%llx", (unsigned long long)v);
            ck_assert_str_eq(h, b);
        }
    }
    /* hex of every digit count, against printf */
    for (unsigned i = 0; i < 20000; i++) {
        uint64_t v = rng() >> (rng() % 64);
        wr_open(&w, 4096);
        wr_x64(&w, v);
        wr_ch(&w, ' ');
        wr_x32_8(&w, (uint32_t)v);
        s = wr_text(&w);
        snprintf(b, sizeof b, "%llx %08x", (unsigned long long)v, (unsigned)(uint32_t)v);
        ck_assert_str_eq(s, b);
        free(s);
    }
}
END_TEST

/* wr_fmt_u64 against printf block by block: a value's 8-digit blocks (the
 * top one of 1-4 digits past 10^16, the 16 digits below it in one pass;
 * below 10^16 the upper block's leading zeros left out) each at their
 * edges, each 4-digit lane of them at every value from 0 to 9999 (the
 * other lanes 0, 1 or random), nothing written past the 20 bytes it may
 * use. */
static void check_u64(uint64_t v)
{
    char a[40], b[32];
    memset(a, 'x', sizeof a);
    size_t n = wr_fmt_u64(a, v);
    int m = snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    if (n != (size_t)m || memcmp(a, b, n) != 0)
        ck_abort_msg("wr_fmt_u64 of %s: %.*s", b, (int)n, a);
    for (size_t i = 20; i < sizeof a; i++)
        ck_assert_int_eq(a[i], 'x');
}

START_TEST(test_integers_blocks)
{
    static const uint64_t edge[] = {0,       1,        9,        10,       99,
                                    100,     9999,     10000,    99999,    100000,
                                    999999,  1000000,  9999999,  10000000, 99999999,
                                    12345678, 90000009, 10000001};
    const size_t ne = sizeof edge / sizeof edge[0];
    static const uint64_t top[] = {0, 1, 9, 10, 99, 100, 999, 1000, 1799, 1844};
    for (size_t t = 0; t < sizeof top / sizeof top[0]; t++)
        for (size_t i = 0; i < ne; i++)
            for (size_t j = 0; j < ne; j++) {
                uint64_t v = edge[i] * 100000000u + edge[j];
                if (top[t] == 1844 && v > UINT64_MAX % UINT64_C(10000000000000000))
                    continue;
                check_u64(top[t] * UINT64_C(10000000000000000) + v);
            }
    static const uint64_t lane[] = {1, 10000, 100000000, 1000000000000u};
    for (uint64_t x = 0; x < 10000; x++)
        for (size_t l = 0; l < 4; l++) {
            check_u64(x * lane[l]);
            check_u64(x * lane[l] + 1);
            check_u64(x * lane[l] + UINT64_C(10000000000000000));
            uint64_t r = rng() % UINT64_C(10000000000000000);
            check_u64(r - r / lane[l] % 10000 * lane[l] + x * lane[l]);
        }
    check_u64(UINT64_MAX);
    check_u64(UINT64_C(10000000000000000000));
    check_u64(UINT64_C(9999999999999999999));
    for (unsigned i = 0; i < 200000; i++)
        check_u64(rng() >> (rng() % 64));
}
END_TEST

/* wr_u64_lead: the same text as printf for every value, whether the leading
 * digits are the kept ones or not: runs of close values (timestamps), values
 * around 10^8 and its powers, a kept lead followed by smaller values, the
 * largest; through a small buffer so that values also meet a flush. */
/* wr_hex (hexfmt.h) of every length up to 80 bytes (the 16-, 8- and
 * 4-byte steps and the single bytes after them), from every alignment, and
 * of every byte value, against printf; the bytes after the digits are not
 * written. */
START_TEST(test_hex_bytes)
{
    unsigned char data[96];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i < 32 ? i * 8 + 7 : rng());
    wr_t w;
    for (size_t off = 0; off < 8; off++)
        for (size_t len = 0; len <= 80; len++) {
            wr_open(&w, 4096);
            wr_ch(&w, '<');
            wr_hex(&w, data + off, len);
            wr_ch(&w, '>');
            char *s = wr_text(&w);
            char want[200], *q = want;
            *q++ = '<';
            for (size_t i = 0; i < len; i++)
                q += snprintf(q, 3, "%02x", data[off + i]);
            snprintf(q, 2, ">");
            ck_assert_str_eq(s, want);
            free(s);
        }
    for (unsigned v = 0; v < 256; v++) {
        unsigned char b[16];
        memset(b, (int)v, sizeof b);
        wr_open(&w, 4096);
        wr_hex(&w, b, 16);
        wr_hex(&w, b, 1);
        char *s = wr_text(&w);
        char want[40];
        for (unsigned i = 0; i < 17; i++)
            snprintf(want + 2 * i, 3, "%02x", v);
        ck_assert_str_eq(s, want);
        free(s);
    }
}
END_TEST

START_TEST(test_integers_lead)
{
    wr_t w;
    wr_open(&w, 4096);
    wr_lead_t l;
    memset(&l, 0, sizeof l);
    char *expect = malloc(64u << 20), *e = expect;
    ck_assert_ptr_nonnull(expect);
    uint64_t v = 1795478793869791459u;
    for (unsigned i = 0; i < 300000; i++) {
        switch (rng() % 8) {
        case 0:
            v = rng() >> (rng() % 64);
            break;
        case 1: { /* near a power of ten, from 10^7 on */
            uint64_t p = 10000000u;
            for (unsigned k = (unsigned)(rng() % 13); k > 0; k--)
                p *= 10;
            v = p + (uint64_t)(int64_t)((int)(rng() % 5) - 2);
            break;
        }
        case 2:
            v = UINT64_MAX - rng() % 3;
            break;
        default: /* the next timestamp */
            v += rng() % 100000;
            break;
        }
        wr_u64_lead(&w, &l, v);
        wr_ch(&w, ',');
        e += sprintf(e, "%llu,", (unsigned long long)v);
    }
    char *got = wr_text(&w);
    ck_assert_str_eq(got, expect);
    free(got);
    free(expect);
}
END_TEST

/* wr_fmt_u64_lead2: two values with a separator, as printf writes them,
 * whether each is below 10^8 or not and its leading digits the kept ones or
 * not (runs of close values, jumps, values around 10^8, the largest);
 * nothing written past the 48 bytes it may use. */
START_TEST(test_integers_lead2)
{
    wr_lead_t la, lb;
    memset(&la, 0, sizeof la);
    memset(&lb, 0, sizeof lb);
    static const char sep[8] = ",\"ns\":";
    uint64_t a = 271410487097u, b = 1795565831727102150u;
    for (unsigned i = 0; i < 300000; i++) {
        uint64_t *v = rng() % 2 ? &a : &b;
        switch (rng() % 8) {
        case 0:
            *v = rng() >> (rng() % 64);
            break;
        case 1:
            *v = 100000000u + (uint64_t)(int64_t)((int)(rng() % 5) - 2);
            break;
        case 2:
            *v = UINT64_MAX - rng() % 3;
            break;
        default:
            *v += rng() % 100000;
            break;
        }
        char got[80], expect[80];
        memset(got, 'x', sizeof got);
        size_t n = wr_fmt_u64_lead2(got, &la, a, sep, 6, &lb, b);
        int m = snprintf(expect, sizeof expect, "%llu,\"ns\":%llu", (unsigned long long)a,
                         (unsigned long long)b);
        ck_assert_uint_eq(n, (size_t)m);
        ck_assert_int_eq(memcmp(got, expect, n), 0);
        for (size_t k = 48; k < sizeof got; k++)
            ck_assert_int_eq(got[k], 'x');
    }
}
END_TEST

/* wr_fmt_u64_small is wr_fmt_u64 (printf) for every value below 2 * 10^4,
 * powers of ten and their neighbours, the largest; below 10^4 (its own
 * digits) it writes nothing past them. */
START_TEST(test_integers_small)
{
    for (uint64_t i = 0; i < 20000 + 3 * 20 + 3; i++) {
        uint64_t v = i;
        if (i >= 20000 && i < 20000 + 3 * 20) { /* 10^k - 1, 10^k, 10^k + 1 */
            uint64_t p = 1;
            for (uint64_t k = (i - 20000) / 3; k > 0; k--)
                p *= 10;
            v = p - 1 + (i - 20000) % 3;
        } else if (i >= 20000 + 3 * 20) {
            v = UINT64_MAX - (i - 20000 - 3 * 20);
        }
        char got[32], expect[32];
        memset(got, 'x', sizeof got);
        size_t n = wr_fmt_u64_small(got, v);
        int m = snprintf(expect, sizeof expect, "%llu", (unsigned long long)v);
        ck_assert_uint_eq(n, (size_t)m);
        ck_assert_int_eq(memcmp(got, expect, n), 0);
        if (v < 10000)
            ck_assert_int_eq(got[n], 'x');
    }
}
END_TEST

/* Each ill-formed sequence becomes \ufffd (one per maximal subpart); well-formed text passes. */
START_TEST(test_strings_utf8)
{
    static const struct {
        const char *in;
        size_t len;
        const char *out;
        bool ok;
    } cases[] = {
        {"plain", 5, "\"plain\"", true},
        {"q\"b\\c", 5, "\"q\\\"b\\\\c\"", true},
        {"\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"", true},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14,
         "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", true},
        {"\xef\xbf\xbf\xf4\x8f\xbf\xbf", 7, "\"\xef\xbf\xbf\xf4\x8f\xbf\xbf\"", true},
        {"a\0b", 3, "\"a\\u0000b\"", true},
        {"\xff", 1, "\"\\ufffd\"", false},                                  /* never valid */
        {"\x80x", 2, "\"\\ufffdx\"", false},                                /* stray continuation */
        {"\xc0\x80", 2, "\"\\ufffd\\ufffd\"", false},                       /* overlong NUL */
        {"\xc1\xbf", 2, "\"\\ufffd\\ufffd\"", false},                       /* overlong */
        {"\xe0\x80\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"", false},            /* overlong 3-byte */
        {"\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"", false},            /* surrogate U+D800 */
        {"\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", false}, /* past U+10FFFF */
        {"\xf0\x80\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", false}, /* overlong 4-byte */
        {"\xe2\x82", 2, "\"\\ufffd\"", false},     /* truncated at the end */
        {"\xe2\x82x", 3, "\"\\ufffdx\"", false},   /* truncated inside */
        {"\xf0\x9f\x98", 3, "\"\\ufffd\"", false}, /* truncated 4-byte */
        {"bad\xff\xc3", 5, "\"bad\\ufffd\\ufffd\"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wr_t w;
        wr_open(&w, 4096);
        bool ok = wr_str(&w, cases[i].in, cases[i].len);
        char *s = wr_text(&w);
        ck_assert_msg(strcmp(s, cases[i].out) == 0, "case %zu: got %s", i, s);
        ck_assert_msg(ok == cases[i].ok, "case %zu", i);
        ck_assert(wr_utf8_ok(cases[i].in, cases[i].len) == cases[i].ok);
        free(s);
    }
}
END_TEST

/* The eight-bytes-at-once scan of wr_str (and its short tail) and
 * wr_utf8_ok agree with the byte table: every byte value at every position
 * of ASCII strings of 1 to 24 bytes, next to bytes at the edges of the plain
 * ranges (the lanes of one word do not disturb each other). */
START_TEST(test_strings_words)
{
    static const unsigned char next[] = {'a',  0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b,
                                         0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xc3, 0xfe, 0xff};
    ck_assert(word_has_special(0)); /* NUL bytes */
    for (size_t len = 1; len <= 24; len++) {
        for (unsigned b = 0; b < 256; b++) {
            for (unsigned pos = 0; pos < len; pos++) {
                for (size_t k = 0; k < (pos + 1 < len ? sizeof next : 1); k++) {
                    unsigned char in[24];
                    for (size_t i = 0; i < len; i++)
                        in[i] = (unsigned char)('a' + i % 26);
                    in[pos] = (unsigned char)b;
                    if (pos + 1 < len)
                        in[pos + 1] = next[k];
                    bool ascii = true;
                    size_t nplain = 0;
                    for (size_t i = 0; i < len; i++) {
                        ascii = ascii && in[i] < 0x80;
                        nplain += plain_byte[in[i]];
                    }
                    if (len == 24) {
                        uint64_t words[3];
                        memcpy(words, in, sizeof in);
                        bool special = false;
                        for (int j = 0; j < 3; j++)
                            special = special || word_has_special(words[j]);
                        ck_assert_msg(special == (nplain != len), "byte %02x at %u, next %02x", b,
                                      pos, next[k]);
                    }
                    if (!ascii)
                        continue;
                    ck_assert(wr_utf8_ok(in, len));
                    /* the same text as each byte written alone (plain bytes as they are) */
                    char s1[256], s2[256], one[16];
                    wr_t w1, w2, t;
                    wr_init_fixed(&w1, s1, sizeof s1);
                    wr_str(&w1, in, len);
                    wr_init_fixed(&w2, s2, sizeof s2);
                    wr_ch(&w2, '"');
                    for (size_t i = 0; i < len; i++) {
                        if (plain_byte[in[i]]) {
                            wr_ch(&w2, (char)in[i]);
                            continue;
                        }
                        wr_init_fixed(&t, one, sizeof one);
                        wr_str(&t, in + i, 1); /* an escape */
                        wr_put(&w2, one + 1, t.len - 2);
                    }
                    wr_ch(&w2, '"');
                    ck_assert_uint_eq(w1.len, w2.len);
                    ck_assert(memcmp(s1, s2, w1.len) == 0);
                }
            }
        }
    }
}
END_TEST

/* Output larger than the buffer arrives whole and in order. */
START_TEST(test_spill)
{
    wr_t w;
    wr_open(&w, 4096);
    char big[10000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    for (int k = 0; k < 3; k++) {
        wr_put(&w, big, sizeof big);
        wr_u64(&w, (uint64_t)k);
    }
    wr_hex(&w, big, 5000);
    char *s = wr_text(&w);
    ck_assert_uint_eq(strlen(s), 3 * (sizeof big + 1) + 10000);
    ck_assert(memcmp(s, big, sizeof big) == 0);
    ck_assert_int_eq(s[sizeof big], '0');
    ck_assert(memcmp(s + 3 * (sizeof big + 1), "6162", 4) == 0);
    free(s);
}
END_TEST

/* A record cut by an error: dropped while still in the buffer, completed
 * (closers, then "incomplete") once part of it went out. */
START_TEST(test_record_abort)
{
    wr_t w;
    wr_open(&w, 4096);
    wr_rec_begin(&w);
    WR_LIT(&w, "{\"a\":1}\n");
    wr_rec_end(&w);
    wr_rec_begin(&w);
    WR_LIT(&w, "{\"b\":[");
    wr_push(&w, ']');
    wr_rec_abort(&w);
    char *s = wr_text(&w);
    ck_assert_str_eq(s, "{\"a\":1}\n");
    free(s);

    wr_open(&w, 4096);
    wr_rec_begin(&w);
    WR_LIT(&w, "{\"b\":{\"c\":[1");
    wr_push(&w, '}');
    wr_push(&w, ']');
    for (int i = 0; i < 3000; i++)
        WR_LIT(&w, ",1");
    wr_push(&w, '"');
    WR_LIT(&w, ",\"ab");
    wr_rec_abort(&w);
    s = wr_text(&w);
    size_t n = strlen(s);
    ck_assert_uint_gt(n, 4096);
    static const char tail[] = ",1,\"ab\"]},\"incomplete\":true}\n";
    ck_assert_str_eq(s + n - (sizeof tail - 1), tail);
    free(s);
}
END_TEST

/* A held record stays in the buffer (which grows) until it is kept or
 * dropped: what precedes it goes out at flushes, the record does not. */
START_TEST(test_record_hold)
{
    wr_t w;
    wr_open(&w, 4096);
    WR_LIT(&w, "{\"a\":1}\n");
    for (int keep = 0; keep < 2; keep++) {
        wr_rec_begin(&w);
        wr_rec_hold(&w);
        WR_LIT(&w, "{\"big\":\"");
        for (int i = 0; i < 3000; i++) /* 3 x 4096 bytes: the buffer grows */
            WR_LIT(&w, "abcd");
        ck_assert_int_eq(wr_flush(&w), 0); /* as the pump does after a chunk */
        WR_LIT(&w, "\"}\n");
        if (keep) {
            w.hold = false;
            wr_rec_end(&w);
        } else {
            ck_assert(wr_rec_drop(&w));
        }
    }
    WR_LIT(&w, "{\"z\":2}\n");
    char *s = wr_text(&w);
    ck_assert_uint_eq(strlen(s), 8 + 8 + 12000 + 3 + 8);
    ck_assert(strncmp(s, "{\"a\":1}\n{\"big\":\"abcd", 20) == 0);
    ck_assert_str_eq(s + strlen(s) - 11, "\"}\n{\"z\":2}\n");
    free(s);

    /* without a hold, the spilled record can no longer be dropped */
    wr_open(&w, 4096);
    wr_rec_begin(&w);
    for (int i = 0; i < 3000; i++)
        WR_LIT(&w, "abcd");
    ck_assert(!wr_rec_drop(&w));
    wr_free(&w);
    fclose(tmp_out);
}
END_TEST

/* jcache: two keys of one slot are both kept (direct-mapped, they took
 * turns and were formatted again at every event); a key is found with its
 * own text or not at all, also once the table is full. */
START_TEST(test_jcache_keys)
{
    static jcache_t c;
    static char keys[1 << 16];
    memset(&c, 0, sizeof c);
    size_t a = 0, b = 1;
    while (b < sizeof keys && jc_hash(keys + b, 9) != jc_hash(keys + a, 9))
        b++;
    ck_assert_uint_lt(b, sizeof keys);
    jc_keep(&c, keys + a, "\"a\":", 4);
    jc_keep(&c, keys + b, "\"bb\":", 5);
    const jc_entry_t *ea = jc_find(&c, keys + a), *eb = jc_find(&c, keys + b);
    ck_assert_ptr_nonnull(ea);
    ck_assert_ptr_nonnull(eb);
    ck_assert_uint_eq(ea->len, 4);
    ck_assert_uint_eq(eb->len, 5);
    ck_assert(memcmp(ea->text, "\"a\":", 4) == 0 && memcmp(eb->text, "\"bb\":", 5) == 0);
    memset(&c, 0, sizeof c);
    size_t kept = 0;
    for (size_t i = 0; i < 2000; i++) {
        char t[16];
        int n = snprintf(t, sizeof t, "%zu", i);
        jc_keep(&c, keys + 8 * i, t, (size_t)n);
    }
    for (size_t i = 0; i < 2000; i++) {
        char t[16];
        int n = snprintf(t, sizeof t, "%zu", i);
        const jc_entry_t *e = jc_find(&c, keys + 8 * i);
        if (e == NULL)
            continue;
        kept++;
        ck_assert_uint_eq(e->len, (unsigned)n);
        ck_assert(memcmp(e->text, t, (size_t)n) == 0);
    }
    ck_assert_uint_gt(kept, JC_SLOTS / 2);
    ck_assert_uint_le(kept, JC_SLOTS);
}
END_TEST

/* vcache: vc_str writes what wr_str writes (and returns what it returns)
 * for strings of every length up to 20 whose bytes change in place at one
 * address (each byte in turn: the words must tell them apart), with
 * escapes and bytes that are not UTF-8 (never kept); two strings of one
 * slot both stay; strings packed 4 bytes apart find their own text; a
 * random mix of addresses and contents over a small table (evictions). */
static void vc_same(vc_entry_t *t, const char *p, size_t n)
{
    char s1[64], s2[64];
    wr_t w1, w2;
    wr_init_fixed(&w1, s1, sizeof s1);
    wr_init_fixed(&w2, s2, sizeof s2);
    bool ok1 = vc_str(t, &w1, p, n), ok2 = wr_str(&w2, p, n);
    ck_assert_int_eq(ok1, ok2);
    ck_assert_uint_eq(w1.len, w2.len);
    ck_assert_msg(memcmp(s1, s2, w1.len) == 0, "%.*s", (int)w2.len, s2);
}

START_TEST(test_vcache)
{
    static vc_entry_t t[VCACHE];
    static const unsigned char alt[] = {'b', '"', '\\', 0x01, 0x7f, 0x80, 0xc3, 0xff};
    memset(t, 0, sizeof t);
    char buf[32];
    for (size_t n = 0; n <= 20; n++) {
        for (size_t pos = 0; pos < n; pos++) {
            for (size_t k = 0; k < sizeof alt; k++) {
                memset(buf, 'a', sizeof buf);
                vc_same(t, buf, n); /* kept */
                vc_same(t, buf, n); /* found */
                buf[pos] = (char)alt[k];
                vc_same(t, buf, n); /* not the kept text */
                vc_same(t, buf, n);
                memset(buf, 'a', sizeof buf);
                vc_same(t, buf, n);
            }
        }
    }
    /* two strings whose first slot is one: both found after both are kept */
    static char keys[1 << 14];
    memset(t, 0, sizeof t);
    size_t b = 4;
    while (vc_slot(keys + b) != vc_slot(keys))
        b += 4;
    memcpy(keys, "alpha", 5);
    memcpy(keys + b, "beta", 4);
    vc_same(t, keys, 5);
    vc_same(t, keys + b, 4);
    ck_assert_ptr_nonnull(vc_find(t, keys, 5));
    ck_assert_ptr_nonnull(vc_find(t, keys + b, 4));
    ck_assert_ptr_null(vc_find(t, keys + b, 3));
    /* packed names (a per-event buffer of names): each its own text */
    memset(t, 0, sizeof t);
    memcpy(buf, "v[0]v[1]v[2]v[3]v[4]v[5]", 24);
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < 6; i++)
            vc_same(t, buf + 4 * i, 4);
    for (size_t i = 0; i < 6; i++) {
        const vc_entry_t *e = vc_find(t, buf + 4 * i, 4);
        ck_assert_ptr_nonnull(e);
        ck_assert(memcmp(e->txt + 1, buf + 4 * i, 4) == 0);
    }
    /* random strings at random places of a small area: evictions, reuse */
    memset(t, 0, sizeof t);
    static const char pool[] = "ab\"c\\d\x01"
                               "e\xc3\xa9"
                               "f";
    for (int i = 0; i < 200000; i++) {
        size_t at = (size_t)(rng() % 2048), n = (size_t)(rng() % 18);
        for (size_t j = 0; j < n; j++)
            keys[at + j] = pool[rng() % (sizeof pool - 1)];
        if (rng() % 4 != 0) /* written twice, mostly */
            vc_same(t, keys + at, n);
        vc_same(t, keys + at, n);
    }
}
END_TEST

/* Short strings through a writer on a file, whose buffer spills while a
 * string is escaped: the output is wr_str's, and the cache keeps only text
 * it wrote in one piece (under ASan: it reads nothing before the buffer). */
START_TEST(test_vcache_spill)
{
    static vc_entry_t t[VCACHE];
    memset(t, 0, sizeof t);
    static const char *const strs[] = {"a\"b",  "\x01\x02\x03\x04\x05\x06\x07", "plain",
                                       "\\\\\\\\", "abcdefghijklmnop",         "x",
                                       "\xc3\xa9t\xc3\xa9", "\xff\xfe",                 "line\nnext"};
    FILE *f1 = tmpfile(), *f2 = tmpfile();
    ck_assert(f1 != NULL && f2 != NULL);
    wr_t w1, w2;
    ck_assert_int_eq(wr_init(&w1, fileno(f1), 4096), 0);
    ck_assert_int_eq(wr_init(&w2, fileno(f2), 4096), 0);
    for (int i = 0; i < 100000; i++) {
        const char *p = strs[rng() % (sizeof strs / sizeof strs[0])];
        size_t n = strlen(p);
        ck_assert_int_eq(vc_str(t, &w1, p, n), wr_str(&w2, p, n));
        if (rng() % 3 == 0) {
            wr_ch(&w1, ',');
            wr_ch(&w2, ',');
        }
    }
    ck_assert_int_eq(wr_flush(&w1), 0);
    ck_assert_int_eq(wr_flush(&w2), 0);
    off_t n1 = lseek(fileno(f1), 0, SEEK_END), n2 = lseek(fileno(f2), 0, SEEK_END);
    ck_assert(n1 > 100000 && n1 == n2);
    char *a = malloc((size_t)n1), *b = malloc((size_t)n2);
    ck_assert_int_eq(pread(fileno(f1), a, (size_t)n1, 0), n1);
    ck_assert_int_eq(pread(fileno(f2), b, (size_t)n2, 0), n2);
    ck_assert(memcmp(a, b, (size_t)n1) == 0);
    free(a);
    free(b);
    wr_free(&w1);
    wr_free(&w2);
    fclose(f1);
    fclose(f2);
}
END_TEST

Suite *suite_writer(void)
{
    Suite *s = suite_create("writer");
    TCase *tc = tcase_create("writer");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_g17_matches_printf);
    tcase_add_test(tc, test_integers);
    tcase_add_test(tc, test_integers_lead);
    tcase_add_test(tc, test_integers_blocks);
    tcase_add_test(tc, test_integers_lead2);
    tcase_add_test(tc, test_hex_bytes);
    tcase_add_test(tc, test_integers_small);
    tcase_add_test(tc, test_strings_utf8);
    tcase_add_test(tc, test_strings_words);
    tcase_add_test(tc, test_spill);
    tcase_add_test(tc, test_record_abort);
    tcase_add_test(tc, test_record_hold);
    tcase_add_test(tc, test_jcache_keys);
    tcase_add_test(tc, test_vcache);
    tcase_add_test(tc, test_vcache_spill);
    suite_add_tcase(s, tc);
    return s;
}
