#!/usr/bin/env python3
"""Prints the IEEE 754 binary{K} test vectors of tests/check_ctf2.c
(test_ctf2_wide_floats): each value's bits (most significant first, hex) and
the double it rounds to (round to nearest, ties to even), computed exactly
with fractions. Run: python3 tests/data/ctf2/float_vectors.py"""
import math
import struct
from fractions import Fraction


def ebits(k):
    return {16: 5, 32: 8, 64: 11}.get(k) or round(4 * math.log2(k)) - 13


def bits(k, sign, e, t):
    w = ebits(k)
    return (sign << (k - 1)) | (e << (k - 1 - w)) | t


def value(k, b):
    w = ebits(k)
    tb = k - 1 - w
    sign = b >> (k - 1)
    e = (b >> tb) & ((1 << w) - 1)
    t = b & ((1 << tb) - 1)
    bias = (1 << (w - 1)) - 1
    if e == (1 << w) - 1:
        return None  # infinity or NaN: written by hand below
    if e == 0:
        v = Fraction(t, 1 << tb) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(t, 1 << tb)) * Fraction(2) ** (e - bias)
    try:
        d = float(v)  # correctly rounded
    except OverflowError:
        d = math.inf
    return -d if sign else d


def dbits(d):
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def case(name, k, sign, e_rel, t, note):
    """e_rel: the unbiased exponent (None: e field 0)"""
    w = ebits(k)
    bias = (1 << (w - 1)) - 1
    e = 0 if e_rel is None else e_rel + bias
    b = bits(k, sign, e, t)
    d = value(k, b)
    print('    {"%s", %d, "%0*x", 0x%016xull}, /* %s */' % (name, k, k // 4, b, dbits(d), note))


T128 = 112
case("one", 128, 0, 0, 0, "1")
case("tie_even", 128, 0, 0, 1 << (T128 - 53), "1 + 2^-53: tie, to even (1)")
case("above_tie", 128, 0, 0, (1 << (T128 - 53)) | 1, "1 + 2^-53 + 2^-112: up")
case("tie_odd", 128, 0, 0, (1 << (T128 - 52)) | (1 << (T128 - 53)), "1 + 2^-52 + 2^-53: tie, up to even")
case("below_tie", 128, 1, 0, (1 << (T128 - 53)) - 1, "-(1 + 2^-53 - 2^-112): down")
case("max_tie", 128, 0, 1023, ((1 << 53) - 1) << (T128 - 53), "(2 - 2^-53) 2^1023: tie, up to 2^1024: inf")
case("max_below", 128, 0, 1023, (((1 << 53) - 1) << (T128 - 53)) - 1, "just below: DBL_MAX")
case("huge", 128, 1, 5000, 0, "-2^5000: -inf")
case("min_sub", 128, 0, -1074, 0, "2^-1074: the least subnormal double")
case("half_min_sub", 128, 1, -1075, 0, "-2^-1075: tie, to even (-0)")
case("above_half", 128, 0, -1075, 1, "2^-1075 (1 + 2^-112): up to 2^-1074")
case("sub_tie_odd", 128, 0, -1074, 1 << (T128 - 1), "1.5 2^-1074: tie, up to 2 2^-1074")
case("sub_round", 128, 0, -1030, (1 << T128) - 1, "(2 - 2^-112) 2^-1030: subnormal, up to 2^-1029")
case("q_sub", 128, 0, None, 1, "binary128 subnormal 2^-16494: 0")
case("third", 256, 0, -2, int("5" * 59, 16), "binary256 1/3 (cut at 236 bits)")
case("two_thirds", 256, 1, -1, int("5" * 59, 16), "binary256 -2/3")
case("three", 160, 0, 1, 1 << 142, "binary160 3")
PI_HALF = "921fb54442d18469898cc51701b839a252049c1114cf98e804177d4c7627"  # pi/2 = 1.921fb...
case("pi", 192, 0, 1, int(PI_HALF, 16) >> (4 * len(PI_HALF) - 174), "binary192 pi (cut at 174 bits)")
case("h_sub", 16, 0, None, 1, "binary16 2^-24")
case("h_max", 16, 1, 15, 1023, "binary16 -65504")
