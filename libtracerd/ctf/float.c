/* CTF 2: IEEE 754 binary interchange floating point numbers other than
 * binary32/64 (binary16, binary128 and the wider binary{K}, K a multiple of
 * 32) turned into the nearest double: round to nearest, ties to even, with
 * double subnormals, overflow to infinity, infinities and NaNs. */
#include <math.h>

#include "ctf_internal.h"

uint32_t tracerd__ctf_float_exp_bits(uint32_t k)
{
    switch (k) {
    case 16:
        return 5;
    case 32:
        return 8;
    case 64:
        return 11;
    default:
        /* IEEE 754-2008 3.6: w = round(4 log2 k) - 13 for k >= 128 (4 log2 k
         * is never halfway between integers for an integer k) */
        return (uint32_t)lround(4.0 * log2((double)k)) - 13u;
    }
}

/* Bit i of the value (w: 32-bit words, least significant first). */
static unsigned bit_at(const uint32_t *w, int64_t i)
{
    return i < 0 ? 0u : (unsigned)(w[i / 32] >> (i % 32)) & 1u;
}

/* Whether any bit below index `below` (exclusive) is set. */
static bool any_below(const uint32_t *w, int64_t below)
{
    if (below <= 0)
        return false;
    int64_t full = below / 32;
    for (int64_t j = 0; j < full; j++)
        if (w[j] != 0)
            return true;
    unsigned rest = (unsigned)(below % 32);
    return rest != 0 && (w[full] & ((1u << rest) - 1u)) != 0;
}

/* Index of the highest set bit below `below`, or -1. */
static int64_t top_bit(const uint32_t *w, int64_t below)
{
    for (int64_t i = below - 1; i >= 0; i--) {
        if ((i % 32) == 31 && w[i / 32] == 0) {
            i -= 31;
            continue;
        }
        if (bit_at(w, i))
            return i;
    }
    return -1;
}

double tracerd__ctf_float_to_double(const uint32_t *w, uint32_t k)
{
    uint32_t ebits = tracerd__ctf_float_exp_bits(k);
    int64_t t = (int64_t)k - 1 - ebits; /* trailing significand bits */
    bool neg = bit_at(w, (int64_t)k - 1) != 0;
    uint64_t e = 0;
    for (uint32_t i = ebits; i-- > 0;)
        e = (e << 1) | bit_at(w, t + i);
    uint64_t emax = ((uint64_t)1 << ebits) - 1, bias = ((uint64_t)1 << (ebits - 1)) - 1;
    int64_t hi = top_bit(w, t); /* highest set bit of the trailing significand */
    double d;
    if (e == emax) {
        if (hi < 0) {
            d = INFINITY;
        } else { /* NaN: the quiet bit and the payload's top bits */
            uint64_t m = 0;
            for (int64_t i = 1; i <= 52; i++)
                m = (m << 1) | bit_at(w, t - i);
            uint64_t b =
                ((uint64_t)neg << 63) | ((uint64_t)0x7FF << 52) | (m != 0 ? m : (uint64_t)1 << 51);
            memcpy(&d, &b, sizeof d);
            return d;
        }
    } else if (e == 0 && hi < 0) {
        d = 0.0;
    } else {
        /* value = S x 2^exp0, S the significand with its leading one at
         * index lead (the hidden bit at index t for normal numbers) */
        int64_t lead = e != 0 ? t : hi;
        int64_t exp0 = (e != 0 ? (int64_t)e : 1) - (int64_t)bias - t;
        int64_t le = lead + exp0; /* exponent of the leading one */
        if (le > 1023) {
            d = INFINITY;
        } else {
            int64_t p = le >= -1022 ? 53 : le + 1075; /* bits the double keeps */
            if (p < 0) {
                d = 0.0;
            } else {
                uint64_t m = 0;
                for (int64_t i = 0; i < p; i++)
                    m = (m << 1) | (lead - i == t && e != 0 ? 1u : bit_at(w, lead - i));
                int64_t r = lead - p; /* the first bit dropped */
                unsigned round = r == t && e != 0 ? 1u : bit_at(w, r);
                if (round && (any_below(w, r) || (m & 1u)))
                    m++;
                d = ldexp((double)m, (int)(le - p + 1));
            }
        }
    }
    return neg ? -d : d;
}
