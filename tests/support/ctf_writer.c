#include "ctf_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bit packer ------------------------------------------------------- */

void cw_init(cw_t *w)
{
    memset(w, 0, sizeof *w);
}

void cw_free(cw_t *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}

static void cw_reserve(cw_t *w, uint64_t bits)
{
    size_t need = (size_t)((bits + 7) / 8) + 16;
    if (need <= w->cap)
        return;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < need)
        cap *= 2;
    uint8_t *p = realloc(w->buf, cap);
    if (p == NULL)
        abort(); /* test support only */
    memset(p + w->cap, 0, cap - w->cap);
    w->buf = p;
    w->cap = cap;
}

void cw_align(cw_t *w, unsigned bits)
{
    uint64_t a = bits ? bits : 1;
    w->bits = (w->bits + a - 1) / a * a;
    cw_reserve(w, w->bits);
}

void cw_int(cw_t *w, uint64_t v, unsigned size, bool big)
{
    cw_reserve(w, w->bits + size);
    if (size < 64)
        v &= ((uint64_t)1 << size) - 1;
    for (unsigned i = 0; i < size; i++) {
        uint64_t pos = w->bits + i;
        unsigned bit = big ? (unsigned)((v >> (size - 1 - i)) & 1) : (unsigned)((v >> i) & 1);
        unsigned mask = big ? 0x80u >> (pos % 8) : 1u << (pos % 8);
        unsigned cur = w->buf[pos / 8];
        w->buf[pos / 8] = (uint8_t)(bit ? cur | mask : cur & ~mask);
    }
    w->bits += size;
}

void cw_bytes(cw_t *w, const void *p, size_t n)
{
    cw_align(w, 8);
    cw_reserve(w, w->bits + n * 8);
    memcpy(w->buf + w->bits / 8, p, n);
    w->bits += n * 8;
}

void cw_str(cw_t *w, const char *s)
{
    cw_bytes(w, s, strlen(s) + 1);
}

void cw_f32(cw_t *w, float f, bool big)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    cw_int(w, u, 32, big);
}

void cw_f64(cw_t *w, double d, bool big)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    cw_int(w, u, 64, big);
}

void cw_patch(cw_t *w, size_t at, uint64_t v, unsigned size, bool big)
{
    uint64_t save = w->bits;
    w->bits = (uint64_t)at * 8;
    cw_int(w, v, size, big);
    w->bits = save;
}

/* ---- the feature trace -------------------------------------------------- */

static const uint8_t trace_uuid[16] = {0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0,
                                       0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64};

static const char meta_fmt[] =
    "/* CTF 1.8 */\n"
    "// feature trace written by tests/support/ctf_writer.c\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := int;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
    "typedef integer { size = 5; align = 1; signed = false; } uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } "
    ":= uint27_clock_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } "
    ":= uint64_clock_t;\n"
    "\n"
    "trace {\n"
    "\tmajor = 1;\n\tminor = 8;\n"
    "\tuuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n"
    "\tbyte_order = %s;\n"
    "\tpacket.header := struct {\n"
    "\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n"
    "\t\tunsigned long stream_instance_id;\n"
    "\t};\n"
    "};\n"
    "\n"
    "env {\n\thostname = \"writer\";\n\tdomain = \"ust\";\n\ttracer_major = 2;\n\tvpid = -1;\n};\n"
    "\n"
    "clock {\n"
    "\tname = monotonic;\n"
    "\tuuid = \"c19b5ac9-b8e6-4f78-be95-a605d04e34c6\";\n"
    "\tdescription = \"writer \\\"clock\\\"\\tone\";\n"
    "\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 1600000000;\n\toffset = 500;\n"
    "\tabsolute = TRUE;\n"
    "};\n"
    "\n"
    "callsite {\n\tname = \"test:ints\";\n\tfunc = \"main\";\n\tip = 0x4005d0;\n"
    "\tfile = \"a.c\";\n\tline = 12;\n};\n"
    "\n"
    "struct event_header_compact {\n"
    "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct { uint27_clock_t timestamp; } compact;\n"
    "\t\tstruct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
    "\t} v;\n"
    "} align(8);\n"
    "\n"
    "stream {\n"
    "\tid = 7;\n"
    "\tpacket.context := struct {\n"
    "\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
    "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
    "\t\tunsigned long events_discarded;\n\t\tuint32_t cpu_id;\n"
    "\t};\n"
    "\tevent.header := struct event_header_compact;\n"
    "\tevent.context := struct { int _vtid; string procname; };\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"test:ints\";\n\tid = 0;\n\tstream_id = 7;\n\tloglevel = 13;\n"
    "\tmodel.emf.uri = \"http://example.com/ints\";\n"
    "\tfields := struct {\n"
    "\t\tinteger { size = 3; align = 1; signed = true; } s3;\n"
    "\t\tinteger { size = 13; align = 1; signed = false; } u13;\n"
    "\t\tinteger { size = 64; align = 1; signed = true; } s64;\n"
    "\t\tinteger { size = 16; align = 16; byte_order = %s; base = hex; } ox;\n"
    "\t\tinteger { size = 8; align = 8; base = binary; } bin;\n"
    "\t\tinteger { size = 12; align = 4; base = octal; signed = true; } oct;\n"
    "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 32; } f32;\n"
    "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 64; byte_order = %s; } f64;\n"
    "\t\tinteger { size = 1; align = 1; } flag;\n"
    "\t\tinteger { size = 63; align = 1; } u63;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"test:compound\";\n\tid = 1;\n\tstream_id = 7;\n"
    "\tcontext := struct { uint16_t ctxlen; };\n"
    "\tfields := struct {\n"
    "\t\tstring msg;\n"
    "\t\tinteger { size = 8; align = 8; encoding = UTF8; } text[8];\n"
    "\t\tuint32_t arr[3];\n"
    "\t\tuint16_t len;\n"
    "\t\tuint8_t seq[len];\n"
    "\t\tinteger { size = 8; align = 8; encoding = ASCII; } tseq[len];\n"
    "\t\tenum : uint8_t { ZERO, ONE, \"quoted label\" = 5, RANGE = 10 ... 20, _LAST } e;\n"
    "\t\tvariant <e> { uint32_t ZERO; string ONE; struct { uint16_t a; uint64_t b; } RANGE; "
    "uint8_t _LAST; } v;\n"
    "\t\tstruct { uint8_t x; integer { size = 4; align = 1; } nib; uint16_t y[2][3]; } nested;\n"
    "\t\tuint32_t cpus[stream.packet.context.cpu_id];\n"
    "\t\tuint8_t bytes_ctx[event.context.ctxlen];\n"
    "\t\tuint64_t after[0];\n"
    "\t\tenum { NEG = -5 ... -1, POS = 1 } se;\n"
    "\t\tstruct { } empty;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n\tname = \"test:ext\";\n\tid = 40;\n\tstream_id = 7;\n"
    "\tfields := struct { uint64_t big; };\n};\n";

char *ctf_writer_metadata(bool big)
{
    const char *bo = big ? "be" : "le", *other = big ? "le" : "be";
    size_t n = sizeof meta_fmt + 64;
    char *m = malloc(n);
    if (m == NULL)
        abort();
    snprintf(m, n, meta_fmt, bo, other, other);
    return m;
}

struct wstate {
    cw_t w;
    bool big;
    uint64_t clock;     /* last clock value written */
    size_t pkt_start;   /* byte offset of the current packet */
    size_t ctx_at;      /* byte offset of the packet context */
};

static void w_packet_begin(struct wstate *s, uint64_t ts_begin, uint64_t seq, uint64_t disc,
                           uint32_t cpu)
{
    cw_t *w = &s->w;
    bool big = s->big;
    cw_align(w, 8);
    s->pkt_start = (size_t)(w->bits / 8);
    cw_int(w, 0xC1FC1FC1u, 32, big);
    cw_bytes(w, trace_uuid, 16);
    cw_int(w, 7, 32, big);
    cw_int(w, 0x1122334455667788ull, 64, big);
    s->ctx_at = (size_t)(w->bits / 8);
    cw_int(w, ts_begin, 64, big);
    cw_int(w, 0, 64, big); /* timestamp_end, patched */
    cw_int(w, 0, 64, big); /* content_size, patched */
    cw_int(w, 0, 64, big); /* packet_size, patched */
    cw_int(w, seq, 64, big);
    cw_int(w, disc, 64, big);
    cw_int(w, cpu, 32, big);
    s->clock = ts_begin;
}

static void w_packet_end(struct wstate *s, size_t pad_to)
{
    cw_t *w = &s->w;
    uint64_t content = w->bits - (uint64_t)s->pkt_start * 8;
    uint64_t bytes = (content + 7) / 8;
    bytes = (bytes + pad_to - 1) / pad_to * pad_to;
    cw_patch(w, s->ctx_at + 8, s->clock, 64, s->big);
    cw_patch(w, s->ctx_at + 16, content, 64, s->big);
    cw_patch(w, s->ctx_at + 24, bytes * 8, 64, s->big);
    w->bits = (uint64_t)(s->pkt_start + bytes) * 8;
    cw_align(w, 8);
    /* padding bytes: a recognisable filler */
    for (uint64_t b = (content + 7) / 8; b < bytes; b++)
        w->buf[s->pkt_start + b] = 0xAA;
}

static void w_header(struct wstate *s, uint32_t id, uint64_t ts)
{
    cw_t *w = &s->w;
    cw_align(w, 8);
    if (id <= 30 && ts >= s->clock && ts - s->clock < ((uint64_t)1 << 27) &&
        ((ts & 0x7FFFFFF) >= (s->clock & 0x7FFFFFF) || (ts >> 27) == (s->clock >> 27) + 1)) {
        cw_int(w, id, 5, s->big);
        cw_int(w, ts & 0x7FFFFFF, 27, s->big);
    } else {
        cw_int(w, 31, 5, s->big);
        cw_align(w, 8);
        cw_int(w, id, 32, s->big);
        cw_int(w, ts, 64, s->big);
    }
    s->clock = ts;
    /* stream event context */
    cw_align(w, 8);
    cw_int(w, (uint64_t)(int64_t)-42, 32, s->big);
    cw_str(w, "writer");
}

static void w_ints(struct wstate *s, uint64_t ts, int k)
{
    cw_t *w = &s->w;
    bool big = s->big;
    w_header(s, 0, ts);
    cw_align(w, 64); /* struct alignment: its most aligned member (f64) */
    cw_int(w, (uint64_t)(int64_t)(k % 2 ? -3 : 2), 3, big);
    cw_int(w, 0x1abc + (uint64_t)k, 13, big);
    cw_int(w, (uint64_t)(-1234567890123456789LL + k), 64, big);
    cw_align(w, 16);
    cw_int(w, 0xBEEF, 16, !big);
    cw_align(w, 8);
    cw_int(w, 0xA5, 8, big);
    cw_align(w, 4);
    cw_int(w, (uint64_t)(int64_t)-0123, 12, big);
    cw_align(w, 32);
    cw_f32(w, 1.5f + (float)k, big);
    cw_align(w, 64);
    cw_f64(w, -2.25 * (k + 1), !big);
    cw_int(w, 1, 1, big);
    cw_int(w, 0x7123456789abcdefULL, 63, big);
}

static void w_compound(struct wstate *s, uint64_t ts, unsigned tag, uint32_t cpu)
{
    cw_t *w = &s->w;
    bool big = s->big;
    w_header(s, 1, ts);
    cw_align(w, 8);
    cw_int(w, 2, 16, big); /* ctxlen */
    cw_align(w, 8);
    cw_str(w, tag == 1 ? "with \"quotes\"\n" : "hello");
    cw_bytes(w, "text\0zzz", 8);
    for (unsigned i = 0; i < 3; i++)
        cw_int(w, 100 + i, 32, big);
    cw_int(w, 3, 16, big);
    cw_bytes(w, "\x01\x02\x03", 3);
    cw_bytes(w, "abc", 3);
    cw_int(w, tag, 8, big);
    if (tag == 0) {
        cw_int(w, 0xdeadbeef, 32, big);
    } else if (tag == 1) {
        cw_str(w, "one");
    } else if (tag >= 10 && tag <= 20) {
        cw_align(w, 8);
        cw_int(w, 7, 16, big);
        cw_int(w, 0x0102030405060708ULL, 64, big);
    } else if (tag == 21) {
        cw_int(w, 0x21, 8, big);
    }
    cw_align(w, 8); /* nested struct */
    cw_int(w, 9, 8, big);
    cw_int(w, 0xC, 4, big);
    cw_align(w, 8);
    for (unsigned i = 0; i < 6; i++)
        cw_int(w, 10 * i, 16, big);
    for (unsigned i = 0; i < cpu; i++)
        cw_int(w, 1000 + i, 32, big);
    cw_bytes(w, "\xfe\xff", 2);
    /* after[0]: nothing; se */
    cw_int(w, (uint64_t)(int64_t)-3, 32, big);
    /* empty struct: nothing */
}

static void w_ext(struct wstate *s, uint64_t ts)
{
    w_header(s, 40, ts);
    cw_align(&s->w, 8);
    cw_int(&s->w, 0xFEDCBA9876543210ULL, 64, s->big);
}

uint8_t *ctf_writer_stream(bool big, size_t *len)
{
    struct wstate s;
    memset(&s, 0, sizeof s);
    cw_init(&s.w);
    s.big = big;
    uint64_t t0 = 0x100000000ull; /* clock values in cycles */
    /* packet 0: every event kind, a compact-header wrap, an extended header */
    w_packet_begin(&s, t0, 0, 0, 2);
    w_ints(&s, t0 + 10, 0);
    w_compound(&s, t0 + 20, 0, 2);
    w_compound(&s, t0 + 30, 1, 2);
    w_compound(&s, t0 + 40, 12, 2);
    w_compound(&s, t0 + 45, 21, 2);
    w_ext(&s, t0 + 50);
    w_ints(&s, t0 + 0x7FFFFF0, 1);  /* near the 27-bit boundary */
    w_ints(&s, t0 + 0x8000010, 2);  /* wraps: low bits smaller */
    w_ints(&s, t0 + 0x20000000, 3); /* too far for compact: extended */
    w_packet_end(&s, 512);
    /* packet 1: no events, 3 events discarded */
    w_packet_begin(&s, t0 + 0x20000100, 1, 3, 2);
    w_packet_end(&s, 64);
    /* packet 2: sequence number jumps (1 packet lost), cpu 0 */
    w_packet_begin(&s, t0 + 0x20000200, 3, 3, 0);
    w_compound(&s, t0 + 0x20000210, 0, 0);
    w_ints(&s, t0 + 0x20000220, 4);
    w_packet_end(&s, 256);
    *len = (size_t)(s.w.bits / 8);
    return s.w.buf;
}

uint8_t *ctf_writer_packetize(const char *text, bool big, size_t pkt_bytes, size_t *len)
{
    size_t n = strlen(text), hdr = 37, per = pkt_bytes - hdr - 3; /* leave 3 bytes padding */
    cw_t w;
    cw_init(&w);
    for (size_t o = 0; o < n || o == 0; o += per) {
        size_t k = n - o < per ? n - o : per;
        cw_int(&w, 0x75D11D57u, 32, big);
        cw_bytes(&w, trace_uuid, 16);
        cw_int(&w, 0, 32, big);
        cw_int(&w, (uint64_t)(hdr + k) * 8, 32, big);
        cw_int(&w, (uint64_t)pkt_bytes * 8, 32, big);
        cw_int(&w, 0, 8, big);
        cw_int(&w, 0, 8, big);
        cw_int(&w, 0, 8, big);
        cw_int(&w, 1, 8, big);
        cw_int(&w, 8, 8, big);
        cw_bytes(&w, text + o, k);
        for (size_t p = hdr + k; p < pkt_bytes; p++)
            cw_int(&w, 0, 8, big);
        if (n == 0)
            break;
    }
    *len = (size_t)(w.bits / 8);
    return w.buf;
}

/* ---- the benchmark trace (LTTng-UST-like) ------------------------------ */

static void put32(uint8_t *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static const char bench_meta[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } "
    ":= uint27_clock_monotonic_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } "
    ":= uint64_clock_monotonic_t;\n"
    "trace { major = 1; minor = 8; uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\"; "
    "byte_order = le;\n"
    "  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; "
    "uint64_t stream_instance_id; }; };\n"
    "env { hostname = \"bench\"; domain = \"ust\"; tracer_name = \"lttng-ust\"; };\n"
    "clock { name = monotonic; freq = 1000000000; offset = 1600000000000000000; };\n"
    "stream { id = 0;\n"
    "  packet.context := struct { uint64_clock_monotonic_t timestamp_begin; "
    "uint64_clock_monotonic_t timestamp_end; uint64_t content_size; uint64_t packet_size; "
    "uint64_t packet_seq_num; uint64_t events_discarded; uint32_t cpu_id; };\n"
    "  event.header := struct { enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "    variant <id> { struct { uint27_clock_monotonic_t timestamp; } compact;\n"
    "      struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended; } v; } "
    "align(8);\n"
    "  event.context := struct { integer { size = 32; align = 8; signed = 1; } _vtid; };\n"
    "};\n"
    "event { name = \"bench:alpha\"; id = 0; stream_id = 0; fields := struct {\n"
    "  integer { size = 32; align = 8; signed = 1; } _a; uint64_t _b; uint64_t _c; uint32_t _d;\n"
    "  uint64_t _e;\n"
    "  string _msg; uint8_t __data_length; uint16_t _data[__data_length];\n"
    "  enum : uint8_t { IDLE, RUNNING, BLOCKED = 5 ... 9 } _state; }; };\n"
    "event { name = \"bench:beta\"; id = 1; stream_id = 0; fields := struct {\n"
    "  uint32_t _x; integer { size = 64; align = 8; signed = 1; } _y; uint64_t _w; "
    "uint32_t _v; string _name; uint16_t _z; }; };\n";

char *ctf_writer_bench_metadata(void)
{
    char *m = malloc(sizeof bench_meta);
    if (m == NULL)
        abort();
    memcpy(m, bench_meta, sizeof bench_meta);
    return m;
}

uint8_t *ctf_writer_bench_stream(uint64_t target_bytes, size_t pkt_bytes, size_t *len,
                                 uint64_t *events)
{
    static const char *const msgs[] = {"ok", "request served", "cache miss on key 42",
                                       "connection reset by peer (retrying)",
                                       "GET /index.html 200", "worker 3 idle",
                                       "flushing 128 dirty pages to disk", "tick",
                                       "user session expired after 30 minutes", "GC",
                                       "retry", "config reloaded from /etc/app.conf",
                                       "lock contention on queue 7", "ok", "heartbeat",
                                       "shard 12 rebalanced"};
    size_t cap = (size_t)target_bytes + pkt_bytes;
    uint8_t *buf = malloc(cap);
    if (buf == NULL)
        abort();
    size_t off = 0;
    uint64_t ts = 1000, n = 0, seq = 0, x = 88172645463325252ull;
    while (off + pkt_bytes <= target_bytes || off == 0) {
        uint8_t *p = buf + off;
        memset(p, 0, pkt_bytes);
        size_t o = 0;
        put32(p, 0xC1FC1FC1u);
        memcpy(p + 4, trace_uuid, 16);
        put32(p + 20, 0);
        put64(p + 24, 1);
        put64(p + 32, ts);
        size_t ctx = 32;
        put64(p + 64, seq++);
        put64(p + 72, 0);
        put32(p + 80, 0);
        o = 84;
        for (;;) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bool alpha = (x & 3) != 0;
            const char *msg = msgs[(x >> 8) & 15];
            size_t ml = strlen(msg) + 1;
            unsigned dl = (unsigned)((x >> 12) & 7);
            size_t need = 4 + 4 + (alpha ? 4 + 8 + 8 + 4 + 8 + ml + 1 + 2 * dl + 1 : 4 + 8 + 8 + 4 + ml + 2);
            if (o + need + 8 > pkt_bytes)
                break;
            ts += 1 + ((x >> 20) & 255);
            /* compact header: 5-bit id, 27-bit timestamp, LSB first */
            uint32_t h = (alpha ? 0u : 1u) | (uint32_t)((ts & 0x7FFFFFF) << 5);
            put32(p + o, h);
            o += 4;
            put32(p + o, (uint32_t)(1000 + (x & 15)));
            o += 4;
            if (alpha) {
                put32(p + o, (uint32_t)(int32_t)(x >> 33));
                o += 4;
                put64(p + o, x);
                o += 8;
                put64(p + o, x * 3);
                o += 8;
                put32(p + o, (uint32_t)(x >> 17));
                o += 4;
                put64(p + o, ts);
                o += 8;
                memcpy(p + o, msg, ml);
                o += ml;
                p[o++] = (uint8_t)dl;
                for (unsigned i = 0; i < dl; i++) {
                    p[o++] = (uint8_t)i;
                    p[o++] = (uint8_t)(x >> i);
                }
                p[o++] = (uint8_t)((x >> 40) % 10);
            } else {
                put32(p + o, (uint32_t)x);
                o += 4;
                put64(p + o, x >> 3);
                o += 8;
                put64(p + o, x >> 5);
                o += 8;
                put32(p + o, (uint32_t)n);
                o += 4;
                memcpy(p + o, msg, ml);
                o += ml;
                p[o++] = (uint8_t)x;
                p[o++] = (uint8_t)(x >> 8);
            }
            n++;
            /* keep the compact timestamp within one wrap */
        }
        put64(p + ctx + 8, ts);
        put64(p + ctx + 16, (uint64_t)o * 8);
        put64(p + ctx + 24, (uint64_t)pkt_bytes * 8);
        off += pkt_bytes;
        if (off + pkt_bytes > cap)
            break;
    }
    *len = off;
    *events = n;
    return buf;
}

/* The metadata of a stream with LTTng's compact event header (its stream
 * block left open for an event context), in byte order %s. */
const char ctf_writer_lttng_compact_meta[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } "
    ":= uint27_clock_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } "
    ":= uint64_clock_t;\n"
    "trace { major = 1; minor = 8; byte_order = %s; };\n"
    "clock { name = c; freq = 1000000000; };\n"
    "stream { event.header := struct { enum : uint5_t { compact = 0 ... 30, "
    "extended = 31 } id;\n"
    "  variant <id> { struct { uint27_clock_t timestamp; } compact;\n"
    "    struct { uint32_t id; uint64_clock_t timestamp; } extended; } v; } align(8);\n";

/* That header, in its compact form (id < 31, the timestamp's low 27 bits)
 * or its extended one (31, then the 32-bit id and the 64-bit timestamp). */
void cw_lttng_compact(cw_t *w, uint32_t id, uint64_t ts, bool ext, bool be)
{
    cw_align(w, 8);
    if (!ext) {
        cw_int(w, id, 5, be);
        cw_int(w, ts & 0x7FFFFFF, 27, be);
    } else {
        cw_int(w, 31, 5, be);
        cw_align(w, 8);
        cw_int(w, id, 32, be);
        cw_int(w, ts, 64, be);
    }
}

size_t cw_packet_begin(cw_t *w, bool big)
{
    size_t start = (size_t)(w->bits / 8);
    cw_int(w, 0xC1FC1FC1u, 32, big);
    cw_int(w, 0, 32, big);
    cw_int(w, 0, 32, big); /* content_size */
    cw_int(w, 0, 32, big); /* packet_size */
    return start;
}

void cw_packet_end(cw_t *w, size_t start, bool big, size_t pad, unsigned align)
{
    uint64_t content = ((uint64_t)(w->bits / 8) - start) * 8;
    for (size_t i = 0; i < pad; i++)
        cw_int(w, 0, 8, big);
    if (align > 8)
        cw_align(w, align);
    cw_patch(w, start + 8, content, 32, big);
    cw_patch(w, start + 12, ((uint64_t)(w->bits / 8) - start) * 8, 32, big);
}
