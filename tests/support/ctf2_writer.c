#include "ctf2_writer.h"

#include <stdlib.h>
#include <string.h>

#include "ctf_writer.h"
#include "tlog.h"

/* ---- metadata --------------------------------------------------------------- */

/* Fragments are written with %1$s = the byte order, %2$s = the other one,
 * %3$s = the bit order opposite to the byte order's natural one, %4$s /
 * %5$s = UTF-16 / UTF-32 of the trace's byte order, %6$s / %7$s = of the
 * other byte order. */
static const char *const feature_fragments[] = {
    "{\"type\":\"preamble\",\"version\":2,"
    "\"uuid\":[42,100,34,208,108,238,17,224,140,8,203,7,215,179,165,100],"
    "\"attributes\":{\"test.org,2024\":{\"k\":[1,2]}},\"extensions\":{}}\n",
    /* aliases, one of another */
    "{\"type\":\"field-class-alias\",\"name\":\"u8\",\"field-class\":{\"type\":\"fixed-length-"
    "unsigned-integer\",\"length\":8,\"alignment\":8,\"byte-order\":\"%1$s\"}}",
    "{\"type\":\"field-class-alias\",\"name\":\"u32\",\"field-class\":{\"type\":\"fixed-length-"
    "unsigned-integer\",\"length\":32,\"alignment\":8,\"byte-order\":\"%1$s\"}}",
    "{\"type\":\"field-class-alias\",\"name\":\"len-t\",\"field-class\":\"u32\"}",
    "{\"type\":\"clock-class\",\"id\":\"clk\",\"name\":\"boot-clock\",\"frequency\":1000000,"
    "\"offset-from-origin\":{\"seconds\":10,\"cycles\":5},\"origin\":{\"namespace\":\"o.org\","
    "\"name\":\"boot\",\"uid\":\"b-1\"},\"precision\":2,\"accuracy\":3,\"description\":\"d\","
    "\"namespace\":\"c.org\",\"uid\":\"c-1\"}",
    "{\"type\":\"trace-class\",\"namespace\":\"test.org\",\"name\":\"feature\",\"uid\":\"t-1\","
    "\"environment\":{\"host\":\"h\",\"n\":3},\"packet-header-field-class\":{\"type\":"
    "\"structure\",\"member-classes\":["
    "{\"name\":\"magic\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
    "\"length\":32,\"alignment\":8,\"byte-order\":\"%1$s\",\"preferred-display-base\":16,"
    "\"roles\":[\"packet-magic-number\"]}},"
    "{\"name\":\"uuid\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":16,"
    "\"roles\":[\"metadata-stream-uuid\"]}},"
    "{\"name\":\"stream_id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
    "\"length\":8,\"alignment\":8,\"byte-order\":\"%1$s\",\"roles\":[\"data-stream-class-id\"]}}"
    "]}}",
    "{\"type\":\"data-stream-class\",\"id\":0,\"name\":\"s\",\"default-clock-class-id\":\"clk\","
    "\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"total\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
    "\"length\":32,\"alignment\":8,\"byte-order\":\"%1$s\",\"roles\":[\"packet-total-length\"]}},"
    "{\"name\":\"content\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\","
    "\"roles\":[\"packet-content-length\"]}},"
    "{\"name\":\"ts\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,"
    "\"alignment\":8,\"byte-order\":\"%1$s\",\"roles\":[\"default-clock-timestamp\"]}}]},"
    "\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"id\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\","
    "\"roles\":[\"event-record-class-id\"]}},"
    "{\"name\":\"ts\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,"
    "\"alignment\":8,\"byte-order\":\"%1$s\",\"roles\":[\"default-clock-timestamp\"]}}]}}",
    /* every field class the peer traces lack */
    "{\"type\":\"event-record-class\",\"id\":0,\"data-stream-class-id\":0,\"name\":\"kinds\","
    "\"namespace\":\"e.org\",\"uid\":\"e-1\",\"payload-field-class\":{\"type\":\"structure\","
    "\"member-classes\":["
    "{\"name\":\"b1\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,"
    "\"alignment\":8,\"byte-order\":\"%1$s\"}},"
    "{\"name\":\"b2\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":1,"
    "\"byte-order\":\"%1$s\"}},"
    "{\"name\":\"bits\",\"field-class\":{\"type\":\"fixed-length-bit-array\",\"length\":5,"
    "\"byte-order\":\"%1$s\"}},"
    "{\"name\":\"rev\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":12,"
    "\"byte-order\":\"%1$s\",\"bit-order\":\"%3$s\"}},"
    "{\"name\":\"s16\",\"field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":16,"
    "\"alignment\":8,\"byte-order\":\"%2$s\"}},"
    "{\"name\":\"flags\",\"field-class\":{\"type\":\"fixed-length-bit-map\",\"length\":8,"
    "\"alignment\":8,\"byte-order\":\"%1$s\",\"flags\":{\"A\":[[0,0]],\"B\":[[1,2]],"
    "\"C\":[[7,7]]}}},"
    "{\"name\":\"uv\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\","
    "\"mappings\":{\"three-hundred\":[[300,300]]}}},"
    "{\"name\":\"sv\",\"field-class\":{\"type\":\"variable-length-signed-integer\"}},"
    "{\"name\":\"big\",\"field-class\":{\"type\":\"variable-length-unsigned-integer\"}},"
    "{\"name\":\"on\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,"
    "\"alignment\":8,\"byte-order\":\"%1$s\"}},"
    "{\"name\":\"opt1\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":"
    "{\"path\":[\"on\"]},\"field-class\":\"u32\"}},"
    "{\"name\":\"sel\",\"field-class\":\"u8\"},"
    "{\"name\":\"opt2\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":"
    "{\"origin\":\"event-record-payload\",\"path\":[\"sel\"]},\"selector-field-ranges\":[[1,3]],"
    "\"field-class\":{\"type\":\"null-terminated-string\"}}},"
    "{\"name\":\"opt3\",\"field-class\":{\"type\":\"optional\",\"selector-field-location\":"
    "{\"path\":[\"sel\"]},\"selector-field-ranges\":[[4,9]],"
    "\"field-class\":{\"type\":\"null-terminated-string\"}}},"
    "{\"name\":\"n\",\"field-class\":\"len-t\"},"
    "{\"name\":\"blob\",\"field-class\":{\"type\":\"dynamic-length-blob\","
    "\"length-field-location\":{\"path\":[\"n\"]},\"media-type\":\"application/x-test\"}},"
    "{\"name\":\"sblob\",\"field-class\":{\"type\":\"static-length-blob\",\"length\":3}},"
    "{\"name\":\"u16a\",\"field-class\":{\"type\":\"null-terminated-string\",\"encoding\":"
    "\"%4$s\"}},"
    "{\"name\":\"u16b\",\"field-class\":{\"type\":\"null-terminated-string\",\"encoding\":"
    "\"%6$s\"}},"
    "{\"name\":\"u32s\",\"field-class\":{\"type\":\"static-length-string\",\"length\":16,"
    "\"encoding\":\"%5$s\"}},"
    "{\"name\":\"u32d\",\"field-class\":{\"type\":\"dynamic-length-string\","
    "\"length-field-location\":{\"path\":[\"n\"]},\"encoding\":\"%7$s\"}},"
    "{\"name\":\"s8\",\"field-class\":{\"type\":\"dynamic-length-string\","
    "\"length-field-location\":{\"path\":[\"n\"]}}},"
    "{\"name\":\"neg\",\"field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":8,"
    "\"alignment\":8,\"byte-order\":\"%1$s\"}},"
    "{\"name\":\"inner\",\"field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"k\",\"field-class\":\"u8\"},"
    "{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
    "{\"path\":[null,\"neg\"]},\"options\":["
    "{\"name\":\"negative\",\"selector-field-ranges\":[[-128,-1]],\"field-class\":\"u8\"},"
    "{\"selector-field-ranges\":[[0,0],[2,2]],\"field-class\":{\"type\":\"structure\"}},"
    "{\"name\":\"positive\",\"selector-field-ranges\":[[1,1],[3,127]],\"field-class\":\"u32\"}"
    "]}},"
    "{\"name\":\"w\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
    "{\"path\":[\"k\",null,\"k\"]},\"options\":["
    "{\"name\":\"x\",\"selector-field-ranges\":[[0,99]],\"field-class\":\"u8\"},"
    "{\"name\":\"y\",\"selector-field-ranges\":[[100,255]],\"field-class\":\"u32\"}]}}"
    "]}},"
    "{\"name\":\"arr\",\"field-class\":{\"type\":\"static-length-array\",\"length\":2,"
    "\"minimum-alignment\":32,\"element-field-class\":\"u8\"}},"
    "{\"name\":\"darr\",\"field-class\":{\"type\":\"dynamic-length-array\","
    "\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"n\"]},"
    "\"element-field-class\":{\"type\":\"variable-length-signed-integer\"}}},"
    "{\"name\":\"f\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
    "\"length\":64,\"alignment\":8,\"byte-order\":\"%1$s\"}}"
    "]},\"attributes\":{\"x.org\":{\"note\":\"every kind\"}}}",
    "{\"type\":\"event-record-class\",\"id\":1,\"name\":\"second\",\"attributes\":"
    "{\"lttng.org,2009\":{\"log-level\":\"warning\",\"emf-uri\":\"http://e\"}},"
    "\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"x\",\"field-class\":\"u8\"},"
    "{\"name\":\"h\",\"attributes\":{\"m.org\":{\"unit\":\"s\"}},\"field-class\":{\"type\":"
    "\"fixed-length-floating-point-number\",\"length\":16,\"alignment\":8,\"byte-order\":"
    "\"%1$s\"}},"
    "{\"name\":\"q\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
    "\"length\":128,\"alignment\":8,\"byte-order\":\"%1$s\"}},"
    "{\"name\":\"fr\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
    "\"length\":32,\"alignment\":8,\"byte-order\":\"%1$s\",\"bit-order\":\"%3$s\"}}"
    "]}}\n",
};

char *ctf2_writer_metadata(bool big)
{
    const char *bo = big ? "big-endian" : "little-endian";
    const char *other = big ? "little-endian" : "big-endian";
    const char *rev = big ? "first-to-last" : "last-to-first";
    const char *u16 = big ? "utf-16be" : "utf-16le", *u32 = big ? "utf-32be" : "utf-32le";
    const char *u16o = big ? "utf-16le" : "utf-16be", *u32o = big ? "utf-32le" : "utf-32be";
    tlog_t t = {0};
    for (size_t i = 0; i < sizeof feature_fragments / sizeof feature_fragments[0]; i++) {
        tlog_printf(&t, "\x1e");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        tlog_printf(&t, feature_fragments[i], bo, other, rev, u16, u32, u16o, u32o);
#pragma GCC diagnostic pop
    }
    return tlog_take(&t);
}

/* ---- data ------------------------------------------------------------------- */

static void leb(cw_t *w, uint64_t v, bool sgn)
{
    for (;;) {
        uint8_t b = (uint8_t)(v & 0x7F);
        uint64_t next = sgn ? (uint64_t)((int64_t)v >> 7) : v >> 7;
        bool done = sgn ? ((next == 0 && !(b & 0x40)) || (next == UINT64_MAX && (b & 0x40)))
                        : next == 0;
        cw_int(w, done ? b : (uint64_t)(b | 0x80), 8, false);
        if (done)
            return;
        v = next;
    }
}

static uint64_t mirror(uint64_t v, unsigned size)
{
    uint64_t o = 0;
    for (unsigned i = 0; i < size; i++)
        o |= ((v >> i) & 1u) << (size - 1 - i);
    return o;
}

/* UTF-16 (unit 2) or UTF-32 (unit 4) code units of the given code points,
 * each in byte order big, then a zero unit when nul. */
static void utf(cw_t *w, const uint32_t *cp, size_t n, unsigned unit, bool big, bool nul)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cp[i];
        if (unit == 2 && c >= 0x10000) {
            cw_int(w, 0xD800 + ((c - 0x10000) >> 10), 16, big);
            cw_int(w, 0xDC00 + ((c - 0x10000) & 0x3FF), 16, big);
        } else {
            cw_int(w, c, unit * 8, big);
        }
    }
    if (nul)
        cw_int(w, 0, unit * 8, big);
}

static const uint8_t uuid[16] = {42, 100, 34, 208, 108, 238, 17, 224,
                                 140, 8, 203, 7, 215, 179, 165, 100};

/* One "kinds" event; `k` varies the selectors. */
static void kinds_event(cw_t *w, bool big, int k, uint16_t ts)
{
    cw_align(w, 8);
    leb(w, 0, false); /* id */
    cw_int(w, ts, 16, big);
    cw_align(w, 32); /* the payload aligns as its most aligned member (arr) */
    cw_int(w, k ? 1 : 0, 8, big);                  /* b1 */
    cw_int(w, 1, 1, big);                          /* b2 */
    cw_int(w, 0x15, 5, big);                       /* bits */
    cw_int(w, mirror(0xABC, 12), 12, big);         /* rev = 0xABC once mirrored back */
    cw_align(w, 8);                                /* 2 bits of padding */
    cw_int(w, (uint64_t)(int64_t)-1234, 16, !big); /* s16, other byte order */
    cw_int(w, k ? 0x84 : 0x02, 8, big);            /* flags: C+B, or B */
    leb(w, 300, false);                            /* uv */
    leb(w, (uint64_t)(int64_t)-129, true);         /* sv */
    leb(w, UINT64_MAX, false);                     /* big: 10 bytes */
    cw_int(w, k ? 1 : 0, 8, big);                  /* on */
    if (k)
        cw_int(w, 0xDEADBEEF, 32, big); /* opt1 */
    cw_int(w, k ? 2 : 5, 8, big);       /* sel: opt2 or opt3 */
    cw_str(w, k ? "two" : "five");
    cw_int(w, 4, 32, big); /* n */
    cw_bytes(w, "\x01\x02\x03\x04", 4);
    cw_bytes(w, "abc", 3);
    static const uint32_t hi[] = {'h', 0xE9, 0x1F600}; /* h, e acute, an emoji (surrogates) */
    utf(w, hi, 3, 2, big, true);                        /* u16a */
    utf(w, hi, 3, 2, !big, true);                       /* u16b */
    static const uint32_t ab[] = {'a', 0x20AC};
    utf(w, ab, 2, 4, big, true);       /* u32s: 16 bytes = a, euro, NUL, padding unit */
    cw_int(w, 0x7A, 32, big);          /* its padding unit after the NUL */
    static const uint32_t z[] = {'z'}; /* u32d: 4 bytes, no NUL */
    utf(w, z, 1, 4, !big, false);
    cw_bytes(w, "t\0xy", 4);       /* s8: 4 bytes, text up to the NUL */
    cw_int(w, k ? 7 : 0, 8, big);  /* neg: selects positive, or the unnamed empty struct */
    cw_int(w, k ? 150 : 5, 8, big); /* inner.k */
    if (k)
        cw_int(w, 77, 32, big); /* inner.v: positive (u32) */
    if (k)
        cw_int(w, 99999, 32, big); /* inner.w: y (k >= 100) */
    else
        cw_int(w, 9, 8, big); /* inner.w: x */
    cw_align(w, 32);          /* arr: minimum alignment 32 */
    cw_int(w, 10, 8, big);
    cw_int(w, 11, 8, big);
    leb(w, 1, true); /* darr: n = 4 elements */
    leb(w, (uint64_t)(int64_t)-1, true);
    leb(w, 64, true);
    leb(w, (uint64_t)(int64_t)-65, true);
    cw_f64(w, 2.5, big);
}

static void packet(cw_t *w, bool big, size_t *total_at, size_t *content_at)
{
    cw_int(w, 0xC1FC1FC1u, 32, big);
    cw_bytes(w, uuid, 16);
    cw_int(w, 0, 8, big);
    *total_at = (size_t)(w->bits / 8);
    cw_int(w, 0, 32, big);
    *content_at = (size_t)(w->bits / 8);
    cw_int(w, 0, 8, false); /* content: a two-byte LEB128 patched later */
    cw_int(w, 0, 8, false);
}

static void patch_lengths(cw_t *w, bool big, size_t start, size_t total_at, size_t content_at,
                          size_t pad)
{
    uint64_t content = w->bits - start * 8;
    cw_align(w, 8);
    for (size_t i = 0; i < pad; i++)
        cw_int(w, 0, 8, false);
    uint64_t total = w->bits - start * 8;
    cw_patch(w, total_at, total, 32, big);
    w->buf[content_at] = (uint8_t)(0x80 | (content & 0x7F));
    w->buf[content_at + 1] = (uint8_t)(content >> 7);
}

uint8_t *ctf2_writer_stream(bool big, size_t *len)
{
    cw_t w;
    cw_init(&w);
    size_t ta, ca;
    /* packet 0: begin 1000, two "kinds" events (clock wraps at 16 bits) */
    packet(&w, big, &ta, &ca);
    cw_int(&w, 1000, 64, big);
    kinds_event(&w, big, 1, 2000);
    kinds_event(&w, big, 0, 100); /* 100 < 2000: one wrap, 65536 + 100 */
    patch_lengths(&w, big, 0, ta, ca, 5);
    /* packet 1: a "second" event */
    size_t start = (size_t)(w.bits / 8);
    packet(&w, big, &ta, &ca);
    cw_int(&w, 70000, 64, big);
    cw_align(&w, 8);
    leb(&w, 1, false);
    cw_int(&w, 4465, 16, big); /* 70000 = 65536 + 4464: 4465 is one later */
    cw_int(&w, 9, 8, big);
    cw_int(&w, 0x3E00, 16, big); /* h: binary16 1.5 */
    /* q: binary128 -2.5 (sign, exponent 0x4000, significand .25) */
    cw_int(&w, big ? 0xC000400000000000ull : 0, 64, big);
    cw_int(&w, big ? 0 : 0xC000400000000000ull, 64, big);
    cw_int(&w, mirror(0x3F400000u, 32), 32, big); /* fr: 0.75, bits mirrored */
    patch_lengths(&w, big, start, ta, ca, 0);
    *len = (size_t)(w.bits / 8);
    return w.buf;
}

/* ---- field locations through arrays, optionals and variants -------------------- */

/* %1$s = the byte order. Every dynamic length and selector below is found
 * through an array (the element being decoded), an optional (its field) or
 * a variant (the selected option; several candidates share one value). */
static const char *const loc_fragments[] = {
#define LU(n) "{\"type\":\"fixed-length-unsigned-integer\",\"length\":" #n ",\"alignment\":8,\"byte-order\":\"%1$s\"}"
#define LB "{\"type\":\"fixed-length-boolean\",\"length\":8,\"alignment\":8,\"byte-order\":\"%1$s\"}"
#define LM(n, fc) "{\"name\":\"" n "\",\"field-class\":" fc "}"
#define LOC(...) "{\"path\":[" __VA_ARGS__ "]}"
#define PLOC(...) "{\"origin\":\"event-record-payload\",\"path\":[" __VA_ARGS__ "]}"
    "{\"type\":\"preamble\",\"version\":2}",
    "{\"type\":\"trace-class\",\"packet-header-field-class\":{\"type\":\"structure\","
    "\"member-classes\":[" LM("magic", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,"
    "\"alignment\":8,\"byte-order\":\"%1$s\",\"roles\":[\"packet-magic-number\"]}") "]}}",
    "{\"type\":\"data-stream-class\",\"packet-context-field-class\":{\"type\":\"structure\","
    "\"member-classes\":["
    LM("total", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"alignment\":8,"
       "\"byte-order\":\"%1$s\",\"roles\":[\"packet-total-length\"]}") ","
    LM("content", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"alignment\":8,"
       "\"byte-order\":\"%1$s\",\"roles\":[\"packet-content-length\"]}") ","
    LM("pon", LB) ","
    LM("popt", "{\"type\":\"optional\",\"selector-field-location\":" LOC("\"pon\"") ","
       "\"field-class\":" LU(8) "}") "]}}",
    "{\"type\":\"event-record-class\",\"name\":\"loc\",\"payload-field-class\":{\"type\":"
    "\"structure\",\"member-classes\":["
    /* through an array: the element being decoded */
    LM("recs", "{\"type\":\"static-length-array\",\"length\":2,\"element-field-class\":{\"type\":"
       "\"structure\",\"member-classes\":[" LM("n", LU(8)) ","
       LM("d", "{\"type\":\"dynamic-length-array\",\"length-field-location\":"
          PLOC("\"recs\",\"n\"") ",\"element-field-class\":" LU(8) "}") ","
       LM("s", "{\"type\":\"variant\",\"selector-field-location\":" PLOC("\"recs\",\"n\"") ","
          "\"options\":[{\"name\":\"small\",\"selector-field-ranges\":[[0,1]],\"field-class\":"
          LU(8) "},{\"name\":\"wide\",\"selector-field-ranges\":[[2,255]],\"field-class\":"
          LU(16) "}]}") "]}}") ","
    /* through an optional, and an optional then a variant (two candidates) */
    ,
    LM("on", LB) ","
    LM("o", "{\"type\":\"optional\",\"selector-field-location\":" LOC("\"on\"") ","
       "\"field-class\":{\"type\":\"structure\",\"member-classes\":[" LM("len", LU(8)) ","
       LM("flag", LB) ","
       LM("w", "{\"type\":\"variant\",\"selector-field-location\":" LOC("\"len\"") ","
          "\"options\":[{\"name\":\"a\",\"selector-field-ranges\":[[0,2]],\"field-class\":"
          "{\"type\":\"structure\",\"member-classes\":[" LM("q", LU(8)) "]}},"
          "{\"name\":\"b\",\"selector-field-ranges\":[[3,255]],\"field-class\":"
          "{\"type\":\"structure\",\"member-classes\":[" LM("q", LU(32)) "]}}]}") "]}}") ","
    LM("od", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":" LOC("\"o\",\"len\"") "}") ","
    LM("o2", "{\"type\":\"optional\",\"selector-field-location\":" LOC("\"o\",\"flag\"") ","
       "\"field-class\":" LU(8) "}") ","
    LM("qd", "{\"type\":\"dynamic-length-string\",\"length-field-location\":"
       LOC("\"o\",\"w\",\"q\"") "}") ","
    /* through a variant: the candidates of two options share a value; the
     * third option lacks the path */
    ,
    LM("tag", LU(8)) ","
    LM("v", "{\"type\":\"variant\",\"selector-field-location\":" LOC("\"tag\"") ",\"options\":["
       "{\"name\":\"A\",\"selector-field-ranges\":[[0,0]],\"field-class\":{\"type\":\"structure\","
       "\"member-classes\":[" LM("len", LU(8)) "]}},"
       "{\"name\":\"B\",\"selector-field-ranges\":[[1,1]],\"field-class\":{\"type\":\"structure\","
       "\"member-classes\":[" LM("pad", LU(16)) "," LM("len", LU(16)) "]}},"
       "{\"name\":\"C\",\"selector-field-ranges\":[[2,2]],\"field-class\":{\"type\":\"structure\"}}"
       "]}") ","
    LM("vd", "{\"type\":\"dynamic-length-array\",\"length-field-location\":" LOC("\"v\",\"len\"") ","
       "\"element-field-class\":" LU(8) "}") ","
    /* through the variant that holds the dependent: only its option */
    LM("v2", "{\"type\":\"variant\",\"selector-field-location\":" LOC("\"tag\"") ",\"options\":["
       "{\"name\":\"X\",\"selector-field-ranges\":[[0,1]],\"field-class\":{\"type\":\"structure\","
       "\"member-classes\":[" LM("k", LU(8)) ","
       LM("a", "{\"type\":\"dynamic-length-array\",\"length-field-location\":" PLOC("\"v2\",\"k\"")
          ",\"element-field-class\":" LU(8) "}") "]}},"
       "{\"name\":\"Y\",\"selector-field-ranges\":[[2,2]],\"field-class\":" LU(8) "}]}") ","
    /* through an optional of an earlier scope */
    LM("pd", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":{\"origin\":"
       "\"packet-context\",\"path\":[\"popt\"]}}")
    "]}}",
#undef LU
#undef LB
#undef LM
#undef LOC
#undef PLOC
};

char *ctf2_writer_loc_metadata(bool big)
{
    tlog_t t = {0};
    for (size_t i = 0; i < sizeof loc_fragments / sizeof loc_fragments[0]; i++) {
        if (strncmp(loc_fragments[i], "{\"type\"", 7) == 0) /* else: the fragment goes on */
            tlog_printf(&t, "\x1e");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        tlog_printf(&t, loc_fragments[i], big ? "big-endian" : "little-endian");
#pragma GCC diagnostic pop
    }
    return tlog_take(&t);
}

static void loc_bytes(cw_t *w, uint8_t first, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cw_int(w, (uint8_t)(first + i), 8, false);
}

/* One "loc" event; `k` picks the options (0: A, short lengths; 1: B). */
static void loc_event(cw_t *w, bool big, int k, size_t pd)
{
    /* recs: n, d[n], s (u8 when n <= 1, else u16) */
    static const uint8_t ns[2][2] = {{1, 3}, {0, 2}};
    for (int e = 0; e < 2; e++) {
        uint8_t n = ns[k][e];
        cw_int(w, n, 8, big);
        loc_bytes(w, (uint8_t)(0xA0 + 16 * e), n);
        cw_int(w, n <= 1 ? 0x11u + (unsigned)e : 0x2233u + (unsigned)e, n <= 1 ? 8 : 16, big);
    }
    cw_int(w, 1, 8, big);                    /* on */
    uint8_t len = k ? 5 : 2;                 /* o.len: w = b (u32 q) when >= 3 */
    cw_int(w, len, 8, big);
    cw_int(w, k ? 0 : 1, 8, big);            /* o.flag */
    cw_int(w, k ? 1u : 3u, k ? 32 : 8, big); /* o.w.q */
    loc_bytes(w, 0xB0, len);                 /* od */
    if (!k)
        cw_int(w, 0x55, 8, big); /* o2 */
    cw_bytes(w, k ? "q" : "xyz", k ? 1 : 3); /* qd */
    cw_int(w, (uint64_t)k, 8, big);          /* tag */
    if (k) {
        cw_int(w, 0xFFFF, 16, big); /* v.B.pad */
        cw_int(w, 3, 16, big);      /* v.B.len */
    } else {
        cw_int(w, 2, 8, big); /* v.A.len */
    }
    loc_bytes(w, 0xC0, k ? 3 : 2); /* vd */
    cw_int(w, k ? 0 : 1, 8, big);  /* v2.X.k */
    loc_bytes(w, 0xD0, k ? 0 : 1); /* v2.X.a */
    loc_bytes(w, 0xE0, pd);        /* pd */
}

uint8_t *ctf2_writer_loc_stream(bool big, size_t *len)
{
    cw_t w;
    cw_init(&w);
    for (int p = 0; p < 2; p++) {
        size_t start = (size_t)(w.bits / 8);
        uint8_t popt = p ? 1 : 2;
        cw_int(&w, 0xC1FC1FC1u, 32, big);
        size_t at = (size_t)(w.bits / 8);
        cw_int(&w, 0, 32, big); /* total, content: patched */
        cw_int(&w, 0, 32, big);
        cw_int(&w, 1, 8, big);    /* pon */
        cw_int(&w, popt, 8, big); /* popt */
        loc_event(&w, big, p, popt);
        if (p == 0)
            loc_event(&w, big, 1, popt);
        uint64_t bits = w.bits - start * 8;
        cw_patch(&w, at, bits, 32, big);
        cw_patch(&w, at + 4, bits, 32, big);
    }
    *len = (size_t)(w.bits / 8);
    return w.buf;
}

/* ---- the benchmark trace's metadata as CTF 2 ---------------------------------- */

static const char *const bench2_fragments[] = {
#define U(n, a) "{\"type\":\"fixed-length-unsigned-integer\",\"length\":" #n ",\"alignment\":" #a ",\"byte-order\":\"little-endian\""
#define S(n) "{\"type\":\"fixed-length-signed-integer\",\"length\":" #n ",\"alignment\":8,\"byte-order\":\"little-endian\"}"
#define M(n, fc) "{\"name\":\"" n "\",\"field-class\":" fc "}"
    "{\"type\":\"preamble\",\"version\":2,"
    "\"uuid\":[42,100,34,208,108,238,17,224,140,8,203,7,215,179,165,100]}",
    "{\"type\":\"trace-class\",\"environment\":{\"hostname\":\"bench\",\"domain\":\"ust\","
    "\"tracer_name\":\"lttng-ust\"},\"packet-header-field-class\":{\"type\":\"structure\","
    "\"member-classes\":[" M("magic", U(32, 8) ",\"roles\":[\"packet-magic-number\"]}") ","
    M("uuid", "{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-uuid\"]}") ","
    M("stream_id", U(32, 8) ",\"roles\":[\"data-stream-class-id\"]}") ","
    M("stream_instance_id", U(64, 8) ",\"roles\":[\"data-stream-id\"]}") "]}}",
    "{\"type\":\"clock-class\",\"id\":\"monotonic\",\"frequency\":1000000000,"
    "\"offset-from-origin\":{\"seconds\":1600000000},\"origin\":\"unix-epoch\"}",
    "{\"type\":\"data-stream-class\",\"id\":0,\"default-clock-class-id\":\"monotonic\","
    "\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
    M("timestamp_begin", U(64, 8) ",\"roles\":[\"default-clock-timestamp\"]}") ","
    M("timestamp_end", U(64, 8) ",\"roles\":[\"packet-end-default-clock-timestamp\"]}") ","
    M("content_size", U(64, 8) ",\"roles\":[\"packet-content-length\"]}") ","
    M("packet_size", U(64, 8) ",\"roles\":[\"packet-total-length\"]}") ","
    M("packet_seq_num", U(64, 8) ",\"roles\":[\"packet-sequence-number\"]}") ","
    M("events_discarded", U(64, 8) ",\"roles\":[\"discarded-event-record-counter-snapshot\"]}") ","
    M("cpu_id", U(32, 8) "}") "]},"
    "\"event-record-header-field-class\":{\"type\":\"structure\",\"minimum-alignment\":8,"
    "\"member-classes\":["
    M("id", U(5, 1) ",\"roles\":[\"event-record-class-id\"],\"mappings\":{\"compact\":[[0,30]],"
    "\"extended\":[[31,31]]}}") ","
    M("v", "{\"type\":\"variant\",\"selector-field-location\":{\"origin\":\"event-record-header\","
      "\"path\":[\"id\"]},\"options\":["
      "{\"name\":\"compact\",\"selector-field-ranges\":[[0,30]],\"field-class\":{\"type\":"
      "\"structure\",\"member-classes\":["
      M("timestamp", U(27, 1) ",\"roles\":[\"default-clock-timestamp\"]}") "]}},"
      "{\"name\":\"extended\",\"selector-field-ranges\":[[31,31]],\"field-class\":{\"type\":"
      "\"structure\",\"member-classes\":["
      M("id", U(32, 8) ",\"roles\":[\"event-record-class-id\"]}") ","
      M("timestamp", U(64, 8) ",\"roles\":[\"default-clock-timestamp\"]}") "]}}]}") "]},"
    "\"event-record-common-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
    M("vtid", S(32)) "]}}",
    "{\"type\":\"event-record-class\",\"id\":0,\"name\":\"bench:alpha\","
    "\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
    M("a", S(32)) "," M("b", U(64, 8) "}") "," M("c", U(64, 8) "}") "," M("d", U(32, 8) "}") ","
    M("e", U(64, 8) "}") "," M("msg", "{\"type\":\"null-terminated-string\"}") ","
    M("_data_length", U(8, 8) "}") ","
    M("data", "{\"type\":\"dynamic-length-array\",\"length-field-location\":{\"path\":"
      "[\"_data_length\"]},\"element-field-class\":" U(16, 8) "}}") ","
    M("state", U(8, 8) ",\"mappings\":{\"IDLE\":[[0,0]],\"RUNNING\":[[1,1]],"
      "\"BLOCKED\":[[5,9]]}}") "]}}",
    "{\"type\":\"event-record-class\",\"id\":1,\"name\":\"bench:beta\","
    "\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
    M("x", U(32, 8) "}") "," M("y", S(64)) "," M("w", U(64, 8) "}") "," M("v", U(32, 8) "}") ","
    M("name", "{\"type\":\"null-terminated-string\"}") "," M("z", U(16, 8) "}") "]}}"
};
#undef U
#undef S
#undef M

char *ctf2_writer_bench_metadata(void)
{
    tlog_t t = {0};
    for (size_t i = 0; i < sizeof bench2_fragments / sizeof bench2_fragments[0]; i++)
        tlog_printf(&t, "\x1e%s", bench2_fragments[i]);
    return tlog_take(&t);
}
