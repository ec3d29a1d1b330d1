/* Lower-case hex digits, inline for the dumps' hot lines (writer.c's
 * wr_fmt_x64, wr_fmt_x32_8 and wr_hex are these): with SSE2 (every x86-64)
 * the digits of 8 bytes come at once, 16 ASCII bytes, each byte's high
 * nibble first (the nibbles apart, interleaved, '0' added, and 'a' - '0' -
 * 10 more where a nibble is above 9); elsewhere the same in a 64-bit word
 * (4 bytes' 8 digits at a time). */
#ifndef TRACERD_CLI_HEXFMT_H
#define TRACERD_CLI_HEXFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "writer.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>

/* The digits of the nibbles n (one a byte). */
static inline __m128i hex__digits(__m128i n)
{
    __m128i above9 = _mm_cmpgt_epi8(n, _mm_set1_epi8(9));
    return _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')),
                        _mm_and_si128(above9, _mm_set1_epi8('a' - '0' - 10)));
}

/* The digits of x's bytes 0-7 (x's low half), 16 of them, byte 0's first. */
static inline __m128i hex__bytes8(__m128i x)
{
    const __m128i m = _mm_set1_epi8(0x0f);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), m), lo = _mm_and_si128(x, m);
    return hex__digits(_mm_unpacklo_epi8(hi, lo));
}

/* The digits of v without leading zeros ("0" for 0) at p (16 bytes of
 * room, all written); returns their count. */
static inline size_t hex_fmt_x64(char *p, uint64_t v)
{
    unsigned n = (64u - (unsigned)__builtin_clzll(v | 1u) + 3u) / 4u;
    v <<= 64u - 4u * n; /* the first digit to the top */
    __m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
    _mm_storeu_si128((__m128i *)(void *)p, hex__bytes8(x));
    return n;
}

/* Exactly the 8 digits of v at p (8 bytes). */
static inline void hex_fmt_x32_8(char *p, uint32_t v)
{
    __m128i x = _mm_cvtsi32_si128((int)__builtin_bswap32(v));
    _mm_storel_epi64((__m128i *)(void *)p, hex__bytes8(x));
}

/* The 32 digits of the 16 bytes at d, at o. */
static inline void hex__bytes16(char *o, const unsigned char *d)
{
    const __m128i m = _mm_set1_epi8(0x0f);
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)d);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), m), lo = _mm_and_si128(x, m);
    _mm_storeu_si128((__m128i *)(void *)o, hex__digits(_mm_unpacklo_epi8(hi, lo)));
    _mm_storeu_si128((__m128i *)(void *)(o + 16), hex__digits(_mm_unpackhi_epi8(hi, lo)));
}

/* The 16 digits of the 8 bytes at d, at o. */
static inline void hex__bytes8_at(char *o, const unsigned char *d)
{
    __m128i x = _mm_loadl_epi64((const __m128i *)(const void *)d);
    _mm_storeu_si128((__m128i *)(void *)o, hex__bytes8(x));
}

/* The 8 digits of the 4 bytes at d, at o. */
static inline void hex__bytes4_at(char *o, const unsigned char *d)
{
    uint32_t w;
    memcpy(&w, d, 4);
    _mm_storel_epi64((__m128i *)(void *)o, hex__bytes8(_mm_cvtsi32_si128((int)w)));
}
#define HEX__BYTES16 1
#else
/* The 8 digits of v in one word as wr__digits8 makes them (the first digit
 * in the low byte; wr__put_digits stores it): each nibble spread to a
 * byte, then '0' added, and 'a' - '0' - 10 more where it is above 9. */
static inline uint64_t hex__word8(uint32_t v)
{
    uint64_t x = v;
    x = ((x & 0xffff0000u) << 16) | (x & 0xffffu);
    x = ((x & 0x0000ff000000ff00u) << 8) | (x & 0x000000ff000000ffu);
    x = ((x & 0x00f000f000f000f0u) << 4) | (x & 0x000f000f000f000fu);
    uint64_t above9 = ((x + 0x0606060606060606u) >> 4) & 0x0101010101010101u;
    x += 0x3030303030303030u + above9 * ('a' - '0' - 10);
    return __builtin_bswap64(x); /* nibble 7, the first digit, to the low byte */
}

static inline size_t hex_fmt_x64(char *p, uint64_t v)
{
    unsigned n = (64u - (unsigned)__builtin_clzll(v | 1u) + 3u) / 4u;
    if (n > 8) {
        wr__put_digits(p, hex__word8((uint32_t)(v >> 32)), 16u - n);
        wr__put_digits(p + n - 8, hex__word8((uint32_t)v), 0);
    } else {
        wr__put_digits(p, hex__word8((uint32_t)v), 8u - n);
    }
    return n;
}

static inline void hex_fmt_x32_8(char *p, uint32_t v)
{
    wr__put_digits(p, hex__word8(v), 0);
}
#endif

/* The two digits of each of the len bytes at d, at o (2 * len bytes). */
static inline void hex_fmt_bytes(char *o, const void *d, size_t len)
{
    const unsigned char *b = d;
    size_t i = 0;
#ifdef HEX__BYTES16
    for (; i + 16 <= len; i += 16)
        hex__bytes16(o + 2 * i, b + i);
    if (len - i >= 8) {
        hex__bytes8_at(o + 2 * i, b + i);
        i += 8;
    }
    if (len - i >= 4) {
        hex__bytes4_at(o + 2 * i, b + i);
        i += 4;
    }
#endif
    for (; i < len; i++) {
        unsigned hi = b[i] >> 4, lo = b[i] & 15u;
        o[2 * i] = (char)(hi + (hi < 10 ? '0' : 'a' - 10));
        o[2 * i + 1] = (char)(lo + (lo < 10 ? '0' : 'a' - 10));
    }
}

#endif
