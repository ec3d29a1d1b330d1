/* Hostile-input generators and the bounded-cost runner (hostile.h). */
#include "support/hostile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <tracerd/ctf.h>
#include <tracerd/xtrace.h>

#include "support/driver.h"
#include "support/ctf_writer.h"
#include "support/fxt_writer.h"
#include "support/tlog.h"
#include "support/xray_writer.h"
#include "support/xtrace_writer.h"

void hostile_free(hostile_t *h)
{
    free(h->data);
    free(h->metadata);
    memset(h, 0, sizeof *h);
}

static void take_fxt(hostile_t *h, fxw_t *w)
{
    memset(h, 0, sizeof *h);
    h->data = fxw_take(w, &h->len);
    fxw_free(w);
}

/* ---- FXT ------------------------------------------------------------------ */

void hg_fxt_large_record(hostile_t *h, uint64_t words)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    /* large record (type 15), size in words in bits 4..35, large blob (0) with format 1 */
    fxw_word(&w, 15u | (words & 0xffffffffu) << 4 | (uint64_t)1 << 40);
    fxw_word(&w, 0);
    fxw_word(&w, 4096);
    take_fxt(h, &w);
}

void hg_fxt_string_churn(hostile_t *h, unsigned n)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    static char s[4001];
    for (unsigned i = 0; i < n; i++) {
        /* lengths vary, indices cycle over 64 entries: every record replaces a live string */
        size_t len = 1 + (i * 2654435761u) % 4000;
        memset(s, 'a' + (int)(i % 26), len);
        s[len] = '\0';
        fxw_string(&w, (uint16_t)(1 + i % 64), s);
        if (i % 16 == 0)
            fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1 + i % 64), FXS_IDX(1 + i % 64), i,
                      NULL, 0, 0);
    }
    take_fxt(h, &w);
}

void hg_fxt_thread_churn(hostile_t *h, unsigned n)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_string(&w, 2, "name");
    for (unsigned i = 0; i < n; i++) {
        uint8_t idx = (uint8_t)(1 + i % 255);
        fxw_thread(&w, idx, 1000 + i, 100000 + i); /* a new thread in a reused slot */
        fxw_event(&w, 2, FXT_IDX(idx), FXS_IDX(1), FXS_IDX(2), 2 * (uint64_t)i, NULL, 0, 0);
        fxw_event(&w, 3, FXT_IDX(idx), FXS_IDX(1), FXS_IDX(2), 2 * (uint64_t)i + 1, NULL, 0, 0);
    }
    take_fxt(h, &w);
}

void hg_fxt_providers(hostile_t *h, unsigned n)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    for (unsigned i = 1; i <= n; i++) {
        fxw_provider_info(&w, i, "p");
        fxw_string(&w, 1, "a string in each provider");
    }
    take_fxt(h, &w);
}

/* ---- XRay ----------------------------------------------------------------- */

static void take_xray(hostile_t *h, xw_t *w)
{
    memset(h, 0, sizeof *h);
    h->data = w->buf;
    h->len = w->len;
}

static void xray_start(xw_t *w, int32_t tid, uint16_t cpu)
{
    xw_new_buffer(w, tid);
    xw_walltime(w, 1700000000u, 0);
    xw_pid(w, 4242);
    xw_new_cpu(w, cpu, 1000);
}

void hg_xray_event_size(hostile_t *h, int32_t size)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 3000000000u, 0);
    size_t m = xw_extents(&w, 0);
    xray_start(&w, 1, 0);
    xw_custom(&w, size, 10, 0, "ping", 4);
    xw_end_extents(&w, m);
    take_xray(h, &w);
}

void hg_xray_args(hostile_t *h, unsigned n)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 3000000000u, 0);
    size_t m = xw_extents(&w, 0);
    xray_start(&w, 1, 0);
    xw_func(&w, 3, 1, 10); /* entry with arguments */
    for (unsigned i = 0; i < n; i++)
        xw_arg(&w, i);
    xw_func(&w, 1, 1, 10);
    xw_end_extents(&w, m);
    take_xray(h, &w);
}

void hg_xray_buffer_churn(hostile_t *h, unsigned n)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 3000000000u, 0);
    for (unsigned i = 0; i < n; i++) {
        size_t m = xw_extents(&w, 0);
        xray_start(&w, (int32_t)(1000 + i), (uint16_t)i);
        xw_func(&w, 0, 1 + (uint32_t)i % 1000, 5);
        xw_tsc_wrap(&w, (uint64_t)i << 20);
        xw_func(&w, 1, 1 + (uint32_t)i % 1000, 5);
        xw_end_extents(&w, m);
    }
    take_xray(h, &w);
}

/* ---- xtrace ----------------------------------------------------------------- */

static void take_xtrace(hostile_t *h, xtw_t *w)
{
    memset(h, 0, sizeof *h);
    h->data = w->buf;
    h->len = w->len;
    h->format = TRACERD_EVENT_FORMAT_XTRACE;
}

void hg_xtrace_iov_count(hostile_t *h, uint64_t n)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xd4000001u);
    xtw_u8(&w, 4u | 4u << 3); /* SYSCALL_VEC */
    xtw_u64(&w, n);
    for (int i = 0; i < 4; i++) { /* a few iovecs; the rest never comes */
        xtw_u64(&w, 0x1000);
        xtw_u64(&w, 0);
    }
    take_xtrace(h, &w);
}

void hg_xtrace_iov_len(hostile_t *h, uint64_t len)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xd4000001u);
    xtw_u8(&w, 4u | 4u << 3);
    xtw_u64(&w, 1);
    xtw_u64(&w, 0x1000);
    xtw_u64(&w, len);
    xtw_fill(&w, 0x55, 64);
    take_xtrace(h, &w);
}

void hg_xtrace_mem_size(hostile_t *h, unsigned k)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xf9400000u);
    xtw_u8(&w, (uint8_t)(2u | k << 4)); /* LOAD of 2^k bytes */
    xtw_u64(&w, 0x1000);
    xtw_fill(&w, 0x55, 64);
    take_xtrace(h, &w);
}

/* ---- xtrace snapshot files ---------------------------------------------------- */

/* The layout of every snapshot file here: 24-byte header, VL 512, P block, no ZA. */
static void snap_opts(xtw_snap_opts_t *o, unsigned nsnap)
{
    memset(o, 0, sizeof *o);
    o->header_bytes = 24;
    o->vl_bits = 512;
    o->nsnap = nsnap;
}

size_t hg_xtrace_snap_record_bytes(void)
{
    xtw_snap_opts_t o;
    snap_opts(&o, 1);
    return xtw_snap_record_bytes(&o);
}

static void put_le64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void hg_xtrace_snap(hostile_t *h, unsigned nsnap, enum hg_snap_fault fault, unsigned at,
                    uint64_t value)
{
    xtw_t w;
    xtw_init(&w);
    xtw_snap_opts_t o;
    snap_opts(&o, nsnap);
    xtw_snapshot_file(&w, &o);
    take_xtrace(h, &w);
    h->snapshot = true;
    size_t rec = xtw_snap_record_bytes(&o), base = 24 + (size_t)at * rec;
    switch (fault) {
    case HG_SNAP_NONE:
        break;
    case HG_SNAP_VL: /* the trailing vector length */
        put_le64(h->data + base + rec - 8, value);
        break;
    case HG_SNAP_COUNTS: /* user and total instruction counts */
        put_le64(h->data + base + 16, value);
        put_le64(h->data + base + 24, value);
        break;
    case HG_SNAP_CUT: /* the file ends `value` bytes into snapshot `at` */
        h->len = base + (size_t)value;
        break;
    }
}

/* ---- CTF ------------------------------------------------------------------ */

/* Metadata: 8/32/64-bit integers, a packet header with the magic, a packet
 * context with the sizes, an event header with the id. */
static void ctf_preamble(tlog_t *m)
{
    tlog_printf(m, "/* CTF 1.8 */\n"
                   "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
                   "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
                   "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
                   "trace { major = 1; minor = 8; byte_order = le;\n"
                   "  packet.header := struct { uint32_t magic; }; };\n");
}

static void ctf_stream_block(tlog_t *m, unsigned id)
{
    tlog_printf(m,
                "stream { id = %u;\n"
                "  packet.context := struct { uint64_t content_size; uint64_t packet_size; };\n"
                "  event.header := struct { uint32_t id; }; };\n",
                id);
}

/* One packet holding `body` (the events, already laid out). */
static void ctf_packet(hostile_t *h, tlog_t *m, const cw_t *body)
{
    cw_t w;
    cw_init(&w);
    cw_int(&w, 0xC1FC1FC1u, 32, false);
    uint64_t bits = 32 + 128 + body->bits;
    cw_int(&w, bits, 64, false);
    cw_int(&w, bits, 64, false);
    if (body->bits > 0)
        cw_bytes(&w, body->buf, (size_t)(body->bits / 8));
    memset(h, 0, sizeof *h);
    h->data = w.buf;
    h->len = (size_t)(w.bits / 8);
    h->metadata = tlog_take(m);
}

/* One event of class 0 whose payload is one byte, v. */
static void ctf_u8_event(hostile_t *h, tlog_t *m, unsigned v)
{
    cw_t b;
    cw_init(&b);
    cw_int(&b, 0, 32, false);
    cw_int(&b, v, 8, false);
    ctf_packet(h, m, &b);
    cw_free(&b);
}

/* The preamble and stream class 0. */
static tlog_t ctf_begin(void)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    return m;
}

/* Event class 0 ("e", a one-byte payload) and one event of it. */
static void ctf_end_u8(hostile_t *h, tlog_t *m)
{
    tlog_printf(m, "event { name = \"e\"; id = 0; fields := struct { uint8_t x; }; };\n");
    ctf_u8_event(h, m, 5);
}

/* One event of class 0 with no payload bytes, or the metadata alone. */
static void ctf_one_event(hostile_t *h, tlog_t *m)
{
    cw_t b;
    cw_init(&b);
    cw_int(&b, 0, 32, false);
    ctf_packet(h, m, &b);
    cw_free(&b);
}

void hg_ctf_laughs(hostile_t *h, unsigned levels)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m, "typealias struct { uint8_t a; uint8_t b; } := t0;\n");
    for (unsigned i = 1; i <= levels; i++)
        tlog_printf(&m, "typealias struct { t%u a; t%u b; } := t%u;\n", i - 1, i - 1, i);
    tlog_printf(&m, "event { name = \"laughs\"; id = 0; fields := struct { t%u x; }; };\n", levels);
    ctf_one_event(h, &m);
}

void hg_ctf_empty_array(hostile_t *h, uint32_t len)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m,
                "typealias struct { } := empty;\n"
                "event { name = \"empty\"; id = 0; fields := struct { empty a[%u][%u]; uint8_t "
                "after; }; };\n",
                len, len);
    cw_t b;
    cw_init(&b);
    cw_int(&b, 0, 32, false);
    cw_int(&b, 7, 8, false);
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

void hg_ctf_empty_sequence(hostile_t *h, uint32_t len)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m, "typealias struct { } := empty;\n"
                    "event { name = \"empty\"; id = 0; fields := struct { uint32_t n; empty "
                    "s[n]; uint8_t after; }; };\n");
    cw_t b;
    cw_init(&b);
    cw_int(&b, 0, 32, false);
    cw_int(&b, len, 32, false);
    cw_int(&b, 7, 8, false);
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

void hg_ctf_enum(hostile_t *h, unsigned mappings, unsigned events)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m, "enum big : uint32_t {\n");
    for (unsigned i = 0; i < mappings; i++) /* ranges of 2, declared from the top */
        tlog_printf(&m, "  L%u = %u ... %u,\n", mappings - 1 - i, 2 * (mappings - 1 - i),
                    2 * (mappings - 1 - i) + 1);
    tlog_printf(&m, "  LAST = %u };\n"
                    "event { name = \"e\"; id = 0; fields := struct { enum big v; }; };\n",
                2 * mappings);
    cw_t b;
    cw_init(&b);
    for (unsigned i = 0; i < events; i++) {
        cw_int(&b, 0, 32, false);
        cw_int(&b, (uint64_t)(i * 2654435761u) % (2u * mappings + 1), 32, false);
    }
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

void hg_ctf_aliases(hostile_t *h, unsigned n)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    /* each names the first type declared: a lookup that walks a list of every
     * declaration goes through all of them */
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "typealias uint8_t := a%u;\n", i);
    tlog_printf(&m, "event { name = \"e\"; id = 0; fields := struct { a%u x; }; };\n", n - 1);
    ctf_u8_event(h, &m, 5);
}

void hg_ctf_kernel_like(hostile_t *h, unsigned classes, unsigned fields)
{
    tlog_t m = ctf_begin();
    /* as LTTng writes them: every field's integer type declared in place */
    for (unsigned i = 0; i < classes; i++) {
        tlog_printf(&m, "event {\n\tname = \"syscall_entry_%u\";\n\tid = %u;\n\tstream_id = 0;\n"
                        "\tfields := struct {\n", i, i);
        for (unsigned j = 0; j < fields; j++)
            tlog_printf(&m, "\t\tinteger { size = 64; align = 8; signed = 1; encoding = none; "
                            "base = 10; } _arg%u;\n", j);
        tlog_printf(&m, "\t};\n};\n\n");
    }
    cw_t b;
    cw_init(&b);
    cw_int(&b, 0, 32, false);
    for (unsigned j = 0; j < fields; j++)
        cw_int(&b, j, 64, false);
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

void hg_ctf_unused_structs(hostile_t *h, unsigned n, unsigned members)
{
    tlog_t m = ctf_begin();
    /* named structs no event uses: only the declared-field budget bounds them */
    for (unsigned i = 0; i < n; i++) {
        tlog_printf(&m, "struct s%u {\n", i);
        for (unsigned j = 0; j < members; j++)
            tlog_printf(&m, " uint8_t m%u;", j);
        tlog_printf(&m, "\n};\n");
    }
    ctf_end_u8(h, &m);
}

void hg_ctf_clocks(hostile_t *h, unsigned n)
{
    tlog_t m = ctf_begin();
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "clock { name = c%u; freq = 1000000000; };\n", i);
    ctf_end_u8(h, &m);
}

void hg_ctf_env(hostile_t *h, unsigned n)
{
    tlog_t m = ctf_begin();
    tlog_printf(&m, "env {\n");
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "  k%u = %u;\n", i, i);
    tlog_printf(&m, "};\n");
    ctf_end_u8(h, &m);
}

void hg_ctf_event_classes(hostile_t *h, unsigned n)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "event { name = \"event%u\"; id = %u; fields := struct { uint8_t x; }; };\n",
                    i, i);
    ctf_u8_event(h, &m, 1);
}

void hg_ctf_struct_fields(hostile_t *h, unsigned n)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m, "event { name = \"wide\"; id = 0; fields := struct {\n");
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "  uint8_t f%u;\n", i);
    tlog_printf(&m, "}; };\n");
    cw_t b;
    cw_init(&b);
    cw_int(&b, 0, 32, false);
    for (unsigned i = 0; i < n; i++)
        cw_int(&b, i & 0xff, 8, false);
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

void hg_ctf_stream_classes(hostile_t *h, unsigned n)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    for (unsigned i = n; i-- > 0;) /* declared from the top: sorting has work */
        ctf_stream_block(&m, i);
    tlog_printf(&m, "event { name = \"e\"; id = 0; stream_id = 0; };\n");
    ctf_one_event(h, &m);
}

void hg_ctf_variant_options(hostile_t *h, unsigned n, unsigned events)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m, "enum tag_t : uint32_t {\n");
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "  O%u,\n", i);
    tlog_printf(&m, "  LAST };\nevent { name = \"v\"; id = 0; fields := struct { enum tag_t tag; "
                    "variant <tag> {\n");
    for (unsigned i = 0; i < n; i++)
        tlog_printf(&m, "  uint8_t O%u;\n", i);
    tlog_printf(&m, "  uint32_t LAST; } v; }; };\n");
    cw_t b;
    cw_init(&b);
    for (unsigned i = 0; i < events; i++) {
        cw_int(&b, 0, 32, false);
        cw_int(&b, (i * 2654435761u) % n, 32, false);
        cw_int(&b, 1, 8, false);
    }
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

void hg_ctf_enum_overlap(hostile_t *h)
{
    tlog_t m = {0};
    ctf_preamble(&m);
    ctf_stream_block(&m, 0);
    tlog_printf(&m, "enum ov : uint32_t { A = 0 ... 10, B = 5 ... 20, C = 3, D = 15 ... 30, E = 40 };\n"
                    "event { name = \"ov\"; id = 0; fields := struct { enum ov v;\n"
                    "  variant <v> { uint8_t A; uint8_t _B; uint8_t C; uint8_t D; uint8_t E; } o; }; };\n");
    cw_t b;
    cw_init(&b);
    for (unsigned i = 0; i < 33; i++) {
        unsigned v = i < 31 ? i : i == 31 ? 40 : 31; /* 31 is in no range: the variant fails */
        cw_int(&b, 0, 32, false);
        cw_int(&b, v, 32, false);
        cw_int(&b, v, 8, false);
    }
    ctf_packet(h, &m, &b);
    cw_free(&b);
}

static long maxrss_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

/* ---- CTF trace directories -------------------------------------------------- */

int hg_ctf_dir_streams(const char *dir, unsigned n, unsigned events)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    static const char meta[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := "
        "ts_t;\n"
        "trace { major = 1; minor = 8; byte_order = le;\n"
        "  packet.header := struct { uint32_t magic; uint32_t stream_id; uint64_t "
        "stream_instance_id; }; };\n"
        "clock { name = c; freq = 1000000000; };\n"
        "stream { id = 0;\n"
        "  packet.context := struct { uint64_t content_size; uint64_t packet_size;\n"
        "    ts_t timestamp_begin; ts_t timestamp_end; };\n"
        "  event.header := struct { uint32_t id; ts_t timestamp; }; };\n"
        "event { name = \"e\"; id = 0; stream_id = 0; fields := struct { uint64_t v; }; };\n";
    char path[4096];
    snprintf(path, sizeof path, "%s/metadata", dir);
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    int rc = fwrite(meta, 1, sizeof meta - 1, f) == sizeof meta - 1 ? 0 : -1;
    if (fclose(f) != 0)
        rc = -1;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        cw_t w;
        cw_init(&w);
        for (unsigned k0 = 0; k0 < events; k0 += 64) {
            unsigned ne = events - k0 < 64 ? events - k0 : 64;
            uint64_t bits = (4 + 4 + 8 + 32 + 20 * (uint64_t)ne) * 8;
            cw_int(&w, 0xC1FC1FC1u, 32, false);
            cw_int(&w, 0, 32, false);
            cw_int(&w, i, 64, false);
            cw_int(&w, bits, 64, false);
            cw_int(&w, bits, 64, false);
            cw_int(&w, (uint64_t)k0 * n + i, 64, false);
            cw_int(&w, (uint64_t)(k0 + ne - 1) * n + i, 64, false);
            for (unsigned k = k0; k < k0 + ne; k++) {
                cw_int(&w, 0, 32, false);
                cw_int(&w, (uint64_t)k * n + i, 64, false);
                cw_int(&w, i, 64, false);
            }
        }
        snprintf(path, sizeof path, "%s/stream_%u", dir, i);
        f = fopen(path, "wb");
        size_t len = (size_t)(w.bits / 8);
        if (f == NULL || fwrite(w.buf, 1, len, f) != len)
            rc = -1;
        if (f != NULL && fclose(f) != 0)
            rc = -1;
        cw_free(&w);
    }
    return rc;
}

static int dir_event(void *user, const tracerd_ctf_event_t *e)
{
    hostile_result_t *r = user;
    r->out_of_order += r->events > 0 && e->ns < r->last_ns;
    r->last_ns = e->ns;
    r->events++;
    return TRACERD_CB_CONTINUE;
}

void hostile_run_dir(const char *dir, const struct tracerd_ctf_dir_config *cfg,
                     hostile_result_t *res)
{
    memset(res, 0, sizeof *res);
    long rss0 = maxrss_kib();
    drv_alloc_t fa;
    drv_alloc_init(&fa, 0);
    tracerd_ctf_callbacks_t cbs;
    tracerd_ctf_callbacks_init(&cbs);
    cbs.on_event_begin = dir_event;
    tracerd_ctf_dir_t *d = NULL;
    tracerd_status_t st = tracerd_ctf_dir_open(dir, cfg, &cbs, res, &fa.a, &d);
    if (st == TRACERD_OK)
        st = tracerd_ctf_dir_run(d);
    res->status = st;
    if (d != NULL && st != TRACERD_OK) {
        res->record_offset = tracerd_ctf_dir_error_offset(d);
        snprintf(res->reason, sizeof res->reason, "%s", tracerd_ctf_dir_error_reason(d));
        snprintf(res->log, sizeof res->log, "%s", tracerd_ctf_dir_error_path(d));
    }
    tracerd_ctf_dir_free(d);
    res->peak_bytes = fa.peak_bytes;
    res->total_bytes = fa.total_bytes;
    res->rss_growth_kib = maxrss_kib() - rss0;
}

/* ---- runner --------------------------------------------------------------- */

static int count_event(void *user, const tracerd_event_t *ev)
{
    hostile_result_t *r = user;
    r->events++;
    size_t at = strlen(r->log);
    for (size_t i = 0; i < ev->nargs && at + 64 < sizeof r->log; i++) {
        const tracerd_event_arg_t *a = &ev->args[i];
        int n;
        if (a->type == TRACERD_EVENT_ARG_STRING)
            n = snprintf(r->log + at, sizeof r->log - at, "%s%.*s=%.*s", i ? " " : "",
                         (int)a->name.len, a->name.data, (int)a->v.str.len, a->v.str.data);
        else
            n = snprintf(r->log + at, sizeof r->log - at, "%s%.*s=%llu", i ? " " : "",
                         (int)a->name.len, a->name.data, (unsigned long long)a->v.u);
        at += n > 0 ? (size_t)n : 0;
    }
    if (at + 1 < sizeof r->log) {
        r->log[at++] = '\n';
        r->log[at] = '\0';
    }
    return TRACERD_CB_CONTINUE;
}

/* Feeds h through any reader's ops table in 64 KiB chunks with the counting
 * allocator (the auto reader gets the CTF metadata first). */
static void run_reader(const tracerd_reader_ops_t *ops, const void *cfg, const void *cbs,
                       const hostile_t *h, hostile_result_t *res)
{
    long rss0 = maxrss_kib();
    drv_alloc_t fa;
    drv_alloc_init(&fa, 0);
    void *r = NULL;
    tracerd_status_t st = ops->new_reader(cfg, cbs, res, &fa.a, &r);
    if (st == TRACERD_OK && h->metadata != NULL)
        st = tracerd_auto_metadata(r, h->metadata, strlen(h->metadata));
    size_t off = 0;
    while (st == TRACERD_OK && off < h->len) {
        size_t n = h->len - off < 65536 ? h->len - off : 65536, used = 0;
        st = ops->feed(r, h->data + off, n, &used);
        off += used;
    }
    if (st == TRACERD_OK)
        st = ops->finish(r);
    res->status = st;
    if (r != NULL) {
        res->record_offset = ops->record_offset(r);
        snprintf(res->reason, sizeof res->reason, "%s", ops->error_reason(r));
        ops->free(r);
    }
    res->peak_bytes = fa.peak_bytes;
    res->total_bytes = fa.total_bytes;
    res->rss_growth_kib = maxrss_kib() - rss0;
}

static int count_snapshot(void *user, const tracerd_xtrace_snapshot_t *s)
{
    hostile_result_t *r = user;
    r->events++;
    (void)s;
    return TRACERD_CB_CONTINUE;
}

void hostile_run(const hostile_t *h, const tracerd_auto_config_t *cfg, hostile_result_t *res)
{
    memset(res, 0, sizeof *res);
    if (h->snapshot) {
        tracerd_xtrace_snap_config_t sc;
        tracerd_xtrace_snap_config_init(&sc);
        tracerd_xtrace_snap_callbacks_t scb;
        tracerd_xtrace_snap_callbacks_init(&scb);
        scb.on_snapshot = count_snapshot;
        run_reader(tracerd_xtrace_snap_ops(), &sc, &scb, h, res);
        return;
    }
    tracerd_auto_config_t c;
    if (cfg != NULL)
        c = *cfg;
    else
        tracerd_auto_config_init(&c);
    if (h->format != TRACERD_EVENT_FORMAT_UNKNOWN)
        c.format = h->format;
    tracerd_event_callbacks_t cbs = {.on_event = count_event};
    run_reader(tracerd_auto_ops(), &c, &cbs, h, res);
}

