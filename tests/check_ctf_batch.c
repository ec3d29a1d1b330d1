/* CTF field records in batches (tracerd_ctf_callbacks_t.on_fields): the
 * records on_field would receive, in the same order and with the same
 * values, in as few calls as the contract promises (one per packet and one
 * per event when they lie in a chunk, full calls of TRACERD_CTF_BATCH_RECORDS
 * for more). The logs of on_fields and on_field under every split, pause and
 * allocation failure are compared by check_fast_path (tests/support/
 * ctf_check.c) for every trace of the ctf and ctf2 suites, and by the
 * ctf_big suite for long values in fragments, UTF-16/32 text and BLOBs. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "support/ctf_check.h"
#include "support/ctf_recorder.h"
#include "support/ctf_writer.h"
#include "support/driver.h"

/* What the calls of on_fields looked like. */
struct calls {
    size_t calls, records, sizes[16];
    size_t events, packets;
    bool bad_event; /* a call holding records of two events, or outside one */
    bool in_event;
};

static int c_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    struct calls *c = user;
    if (c->calls < 16)
        c->sizes[c->calls] = n;
    c->calls++;
    c->records += n;
    for (size_t i = 0; i < n; i++)
        if (i > 0 && f[i].depth == 0 && f[i].kind == TRACERD_CTF_VALUE_STRUCT_BEGIN &&
            f[i].scope <= TRACERD_CTF_SCOPE_EVENT_HEADER &&
            f[i - 1].scope > TRACERD_CTF_SCOPE_EVENT_HEADER)
            c->bad_event = true; /* a new event or packet begins inside the call */
    return 0;
}

static int c_field(void *user, const tracerd_ctf_field_t *f)
{
    (void)f;
    struct calls *c = user;
    c->records++;
    return 0;
}

static int c_event(void *user, const tracerd_ctf_event_t *e)
{
    (void)e;
    struct calls *c = user;
    c->events++;
    return 0;
}

static int c_packet(void *user, const tracerd_ctf_packet_t *p)
{
    (void)p;
    struct calls *c = user;
    c->packets++;
    return 0;
}

/* on_event_end pausing after every event. */
static int c_event_pause(void *user, const tracerd_ctf_event_t *e)
{
    (void)e;
    struct calls *c = user;
    c->in_event = true; /* an event ended since the last feed or resume */
    return TRACERD_CB_PAUSE;
}

/* A reader of meta's trace (*t) counting into c, with on_fields (batch) or
 * on_field, its on_event_end pausing after every event (pause) or not set. */
static tracerd_ctf_stream_t *open_counting(const char *meta, bool batch, bool pause,
                                           struct calls *c, tracerd_ctf_trace_t **t)
{
    memset(c, 0, sizeof *c);
    char reason[256];
    ck_assert_int_eq(
        tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, t, reason, sizeof reason),
        TRACERD_OK);
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    cb.on_event_begin = c_event;
    cb.on_event_end = pause ? c_event_pause : NULL;
    cb.on_packet_begin = c_packet;
    if (batch)
        cb.on_fields = c_fields;
    else
        cb.on_field = c_field;
    tracerd_ctf_stream_t *r;
    ck_assert_int_eq(tracerd_ctf_stream_new(*t, NULL, &cb, c, NULL, &r), TRACERD_OK);
    return r;
}

static void close_counting(tracerd_ctf_stream_t *r, tracerd_ctf_trace_t *t)
{
    ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
}

/* Reads data whole with on_event_end pausing after every event: each feed
 * and resume delivers one event and returns TRACERD_PAUSED after it (also
 * when the next event lies in the chunk); the events counted. */
static size_t read_paused(const char *meta, const uint8_t *data, size_t len, bool batch)
{
    struct calls c;
    tracerd_ctf_trace_t *t;
    tracerd_ctf_stream_t *r = open_counting(meta, batch, true, &c, &t);
    size_t off = 0;
    for (;;) {
        size_t before = c.events, used;
        c.in_event = false;
        tracerd_status_t st = tracerd_ctf_stream_feed(r, data + off, len - off, &used);
        off += used;
        if (st == TRACERD_OK) {
            ck_assert_uint_eq(c.events, before); /* only the padding was left */
            break;
        }
        ck_assert_int_eq(st, TRACERD_PAUSED);
        ck_assert_uint_eq(c.events, before + 1);
        ck_assert(c.in_event);
        ck_assert_int_eq(tracerd_ctf_stream_resume(r), TRACERD_OK);
    }
    ck_assert_uint_eq(off, len);
    close_counting(r, t);
    return c.events;
}

/* Reads data in chunks of `chunk` bytes with on_fields (batch) or on_field. */
static void read_calls(const char *meta, const uint8_t *data, size_t len, size_t chunk, bool batch,
                       struct calls *c)
{
    tracerd_ctf_trace_t *t;
    tracerd_ctf_stream_t *r = open_counting(meta, batch, false, c, &t);
    for (size_t o = 0; o < len; o += chunk) {
        size_t n = len - o < chunk ? len - o : chunk, used;
        ck_assert_int_eq(tracerd_ctf_stream_feed(r, data + o, n, &used), TRACERD_OK);
        ck_assert_uint_eq(used, n);
    }
    close_counting(r, t);
}

/* on_field and on_fields together: E_INVALID (the stream and the
 * directory reader). */
START_TEST(test_batch_both_invalid)
{
    char *meta = ctf_writer_metadata(false);
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, NULL, 0),
                     TRACERD_OK);
    struct calls c;
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    cb.on_field = c_field;
    cb.on_fields = c_fields;
    tracerd_ctf_stream_t *r = NULL;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, &cb, &c, NULL, &r), TRACERD_E_INVALID);
    ck_assert_ptr_null(r);
    tracerd_ctf_dir_t *d = NULL;
    ck_assert_int_eq(tracerd_ctf_dir_open("tests/data/ctf/demo-lttng-ust", NULL, &cb, &c, NULL, &d),
                     TRACERD_E_INVALID);
    ck_assert_ptr_null(d);
    cb.on_fields = NULL;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, &cb, &c, NULL, &r), TRACERD_OK);
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
    free(meta);
}
END_TEST

/* The LTTng-UST-like benchmark trace (both byte orders: the writer's
 * little-endian one, and the small test stream of each order): whole in
 * one chunk, one call per packet and one per event; in 4 KiB chunks the
 * same records, an event cut by a chunk's end in two calls at most. */
START_TEST(test_batch_one_call_per_event)
{
    size_t len;
    uint64_t nev;
    uint8_t *data = ctf_writer_bench_stream((uint64_t)1 << 20, 64 * 1024, &len, &nev);
    char *meta = ctf_writer_bench_metadata();
    struct calls each, whole, small;
    read_calls(meta, data, len, 1 << 20, false, &each);
    read_calls(meta, data, len, len, true, &whole);
    ck_assert_uint_eq(whole.events, nev);
    ck_assert_uint_eq(whole.records, each.records);
    ck_assert_uint_eq(whole.calls, whole.events + whole.packets);
    ck_assert(!whole.bad_event);
    read_calls(meta, data, len, 4096, true, &small);
    ck_assert_uint_eq(small.records, each.records);
    ck_assert_uint_le(small.calls, whole.calls + len / 4096 + 1);
    ck_assert(!small.bad_event);
    free(meta);
    free(data);
    for (int be = 0; be < 2; be++) {
        meta = ctf_writer_metadata(be != 0);
        data = ctf_writer_stream(be != 0, &len);
        read_calls(meta, data, len, len, false, &each);
        read_calls(meta, data, len, len, true, &whole);
        ck_assert_uint_eq(whole.records, each.records);
        ck_assert_uint_eq(whole.calls, whole.events + whole.packets);
        ck_assert(!whole.bad_event);
        free(meta);
        free(data);
    }
}
END_TEST

/* The log of every split, pause and allocation failure through on_field,
 * checked equal to on_fields' (drv_check_twin); the caller frees it. The
 * twin reads the metadata parsed once (cfg_parse_once): the first ran the
 * parse under every plan. */
static char *check_twins(const struct target_cfg *c, const uint8_t *data, size_t len)
{
    char *log = drv_check_all(&ctf_target, c, data, len);
    struct target_cfg once = *c;
    tracerd_ctf_trace_t *trace = c->trace == NULL ? cfg_parse_once(&once) : NULL;
    char *batch = drv_check_twin(&ctf_batch_target, &once, data, len);
    tracerd_ctf_trace_free(trace);
    ck_assert_str_eq(batch, log);
    free(batch);
    return log;
}

/* An event of 605 records: calls of 256, 256 and 93, in both byte orders;
 * the same log as on_field in every split, pause and allocation failure. */
START_TEST(test_batch_full_calls)
{
    bool be = _i != 0;
    char meta[512];
    snprintf(meta, sizeof meta,
             "/* CTF 1.8 */\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "event { name = many; fields := struct { integer { size = 16; } n;\n"
             "  integer { size = 8; } s[n]; }; };\n",
             be ? "be" : "le");
    enum { N = 600 };
    uint8_t data[2 * (2 + N)];
    size_t len = 0;
    for (int e = 0; e < 2; e++) {
        data[len++] = (uint8_t)(be ? N >> 8 : N & 0xff);
        data[len++] = (uint8_t)(be ? N & 0xff : N >> 8);
        for (int i = 0; i < N; i++)
            data[len++] = (uint8_t)(i * 7 + e);
    }
    struct calls each, whole;
    read_calls(meta, data, len, len, false, &each);
    read_calls(meta, data, len, len, true, &whole);
    /* the packet (no header, no context: no records) and two events of
     * S{ n Q[ 600 elements Q] S} */
    ck_assert_uint_eq(each.records, 2 * (N + 5));
    ck_assert_uint_eq(whole.records, each.records);
    ck_assert_uint_eq(whole.calls, 6);
    static const size_t sizes[6] = {256, 256, N + 5 - 512, 256, 256, N + 5 - 512};
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(whole.sizes[i], sizes[i]);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = check_twins(&c, data, len);
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.s  [599] = "));
    free(log);
}
END_TEST

/* Four integers, then an array of 70 structs { a b c }: each element's
 * S{ a b c S} a static segment (stream_plan.h), element 49's exactly the
 * batch's last five slots (251-255: it does not fit, since the batch keeps
 * a slot free after a segment) and element 50's the next batch's first:
 * the batch is delivered full (256) and then the rest (102) as on_field
 * delivers them, the batch's room checked before a segment's records are
 * written (seg_room), in both byte orders. */
START_TEST(test_batch_segment_room)
{
    bool be = _i != 0;
    char meta[512];
    snprintf(meta, sizeof meta,
             "/* CTF 1.8 */\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
             "event { name = many; fields := struct { u32 x1; u32 x2; u32 x3; u32 x4;\n"
             "  struct { u32 a; u32 b; u32 c; } s[70]; }; };\n",
             be ? "be" : "le");
    enum { N = 70, VALUES = 4 + 3 * N, REC = 8 + 5 * N };
    uint8_t data[2 * 4 * VALUES];
    size_t len = 0;
    for (int e = 0; e < 2; e++)
        for (int i = 0; i < VALUES; i++) {
            uint32_t v = (uint32_t)(i * 1000003 + e);
            for (int k = 0; k < 4; k++)
                data[len++] = (uint8_t)(v >> (be ? 24 - 8 * k : 8 * k));
        }
    struct calls each, whole;
    read_calls(meta, data, len, len, false, &each);
    read_calls(meta, data, len, len, true, &whole);
    ck_assert_uint_eq(each.records, 2 * REC);
    ck_assert_uint_eq(whole.records, each.records);
    ck_assert_uint_eq(whole.calls, 4);
    static const size_t sizes[4] = {256, REC - 256, 256, REC - 256};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(whole.sizes[i], sizes[i]);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = check_twins(&c, data, len);
    /* element 49's c (value 4 + 3 * 49 + 2) and element 50's a in the first event */
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.s.c c = 153000459"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.s.a a = 154000462"));
    free(log);
}
END_TEST

/* The shapes of the log's events named `name` (log_shape lines "E @N name
 * ..." then "shape S"): how many, the first and the last one, and whether
 * there were two values. */
struct shapes {
    int n;
    unsigned first, other;
    bool two, more;
};

static struct shapes shapes_of(const char *log, const char *name)
{
    struct shapes r;
    memset(&r, 0, sizeof r);
    char key[64];
    snprintf(key, sizeof key, " %s id=", name);
    for (const char *p = log; (p = strstr(p, key)) != NULL; p++) {
        const char *sh = strstr(p, "\nshape ");
        ck_assert_ptr_nonnull(sh);
        unsigned v = (unsigned)strtoul(sh + 7, NULL, 10);
        if (r.n++ == 0)
            r.first = v;
        else if (v != r.first && !r.two) {
            r.two = true;
            r.other = v;
        } else if (v != r.first && v != r.other) {
            r.more = true;
        }
    }
    return r;
}

/* tracerd_ctf_event_t.shape on the feature trace (both byte orders, every
 * split, pause and allocation failure: the drivers compare the "shape"
 * lines too, and the recorder checks that the records of every event of a
 * shape have the same descriptions): test:ints (integers, floats; a string
 * in the stream context) has one shape per header form, compact and
 * extended (the next number); test:ext (always extended) another;
 * test:compound (a sequence and a variant in its payload) none, but for
 * field_scopes without its payload. */
START_TEST(test_shape)
{
    bool be = _i != 0;
    char *meta = ctf_writer_metadata(be);
    size_t len;
    uint8_t *data = ctf_writer_stream(be, &len);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.log_shape = true;
    char *log = drv_check_all(&ctf_target, &c, data, len);
    struct shapes ints = shapes_of(log, "test:ints"), ext = shapes_of(log, "test:ext"),
                  cpd = shapes_of(log, "test:compound");
    ck_assert_int_eq(ints.n, 5);
    ck_assert(ints.first != 0 && ints.two && !ints.more);
    ck_assert_uint_eq(ints.other, ints.first + 1); /* the extended header's form */
    ck_assert_int_eq(ext.n, 1);
    ck_assert(ext.first != 0 && ext.first != ints.first && ext.first != ints.other);
    ck_assert_int_eq(cpd.n, 5);
    ck_assert(cpd.first == 0 && !cpd.two);
    /* on_fields: the same shapes */
    char *batch = drv_check_twin(&ctf_batch_target, &c, data, len);
    ck_assert_str_eq(batch, log);
    free(batch);
    free(log);
    /* without the header: one shape for both forms */
    c.stream.field_scopes = 0x3Fu & ~(1u << TRACERD_CTF_SCOPE_EVENT_HEADER);
    log = drv_check_all(&ctf_target, &c, data, len);
    struct shapes ints2 = shapes_of(log, "test:ints");
    ck_assert(ints2.first == ints.first && !ints2.two);
    ck_assert_uint_eq(shapes_of(log, "test:compound").first, 0);
    free(log);
    /* the contexts only (the fast path): test:compound's are fixed */
    c.stream.field_scopes = (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                            (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);
    log = drv_check_all(&ctf_target, &c, data, len);
    cpd = shapes_of(log, "test:compound");
    ck_assert(cpd.first != 0 && !cpd.two);
    ck_assert(cpd.first != ints.first && cpd.first != ints.other && cpd.first != ext.first);
    free(log);
    /* no field callback: every event has its class's shape (no records) */
    c.stream.field_scopes = 0;
    log = drv_check_all(&ctf_events_target, &c, data, len);
    ck_assert_uint_eq(shapes_of(log, "test:compound").first, cpd.first);
    free(log);
    free(data);
    free(meta);
}
END_TEST

/* A stream cut inside an event: the same records (through on_field and
 * on_fields) and the same error in every split. */
static void check_cut(const struct target_cfg *c, const uint8_t *data, size_t len)
{
    char *log = check_twins(c, data, len);
    ck_assert_ptr_nonnull(strstr(log, "end E_TRUNCATED"));
    free(log);
}

/* An LTTng compact event header (both forms) before plain payloads: the
 * header's records made from its form (stream.c, run_lttng_header) when the
 * event lies in the chunk, by the general interpreter when it is read
 * while it arrives: the same log in every split, pause and allocation
 * failure, through on_field and on_fields, both byte orders; the same
 * records before the error of a stream cut inside an event. */
START_TEST(test_lttng_header_forms)
{
    bool be = _i != 0;
    char head[1000], meta[1400];
    snprintf(head, sizeof head, ctf_writer_lttng_compact_meta, be ? "be" : "le");
    snprintf(meta, sizeof meta,
             "%s  event.context := struct { uint32_t _vtid; }; };\n"
             "event { name = a; id = 0; fields := struct { uint32_t x; uint64_t y; }; };\n"
             "event { name = b; id = 40; fields := struct { uint32_t x; }; };\n"
             "event { name = c; id = 2; fields := struct { uint32_t x; "
             "integer { size = 8; align = 8; } many[260]; }; };\n",
             head);
    /* id, timestamp, extended form */
    static const struct {
        uint32_t id;
        uint64_t ts;
        bool ext;
    } evs[] = {{0, 100, false},           {0, 300, false},           {0, (1u << 28) + 5, true},
               {40, (1u << 28) + 9, true}, {2, (1u << 28) + 12, false}, {0, (1u << 28) + 20, false},
               {2, (1u << 28) + 30, false}, {40, (1u << 29), true}};
    cw_t w;
    cw_init(&w);
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
        cw_lttng_compact(&w, evs[i].id, evs[i].ts, evs[i].ext, be);
        cw_int(&w, 1000 + i, 32, be);       /* vtid */
        cw_int(&w, 7 * i + 1, 32, be);      /* x */
        if (evs[i].id == 0)
            cw_int(&w, 0x0102030405060708ull * (i + 1), 64, be); /* y */
        for (unsigned k = 0; evs[i].id == 2 && k < 260; k++) /* past a batch: over its first slots */
            cw_int(&w, (k * 7 + i) & 0xFF, 8, be);
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.log_shape = true;
    char *log = check_twins(&c, w.buf, len);
    ck_assert_ptr_nonnull(strstr(log, "V< stream.event.header.v v opt=compact"));
    ck_assert_ptr_nonnull(strstr(log, "V< stream.event.header.v v opt=extended"));
    ck_assert_ptr_nonnull(strstr(log, "UINT stream.event.header.id id = 31 (extended)"));
    ck_assert_ptr_nonnull(strstr(log, "UINT stream.event.header.v.extended.id id = 40"));
    ck_assert_ptr_nonnull(strstr(log, "UINT stream.event.header.v.extended.timestamp timestamp = 536870912"));
    ck_assert_ptr_nonnull(strstr(log, "UINT stream.event.header.v.compact.timestamp timestamp = 300"));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    /* packets (their records between events' headers), on the bench trace */
    if (!be) {
        size_t blen;
        uint64_t nev;
        uint8_t *bdata = ctf_writer_bench_stream(2048, 1024, &blen, &nev);
        char *bmeta = ctf_writer_bench_metadata();
        struct target_cfg bc;
        cfg_init(&bc, bmeta);
        log = check_twins(&bc, bdata, blen);
        ck_assert_ptr_nonnull(strstr(log, "opt=compact"));
        free(log);
        free(bmeta);
        free(bdata);
    }
    check_cut(&c, w.buf, len - 3);  /* inside the last event's payload */
    check_cut(&c, w.buf, len - 12); /* inside its header */
    cw_free(&w);
}
END_TEST

/* An LTTng header whose 5-bit id is also a later field's length: the
 * header form (run_lttng_header) must store the id tag (31 in the extended
 * form, the id itself in the compact one) in the slot the sequence reads,
 * not only the event id in its role's (ctf_hform.nstore), in both byte
 * orders and every split (a split event takes the general path). */
START_TEST(test_lttng_header_stored)
{
    bool be = _i != 0;
    char head[1000], meta[1400];
    snprintf(head, sizeof head, ctf_writer_lttng_compact_meta, be ? "be" : "le");
    snprintf(meta, sizeof meta,
             "%s};\n"
             "event { name = a; id = 3; fields := struct { uint32_t x;\n"
             "  integer { size = 8; align = 8; } tag[stream.event.header.id]; }; };\n"
             "event { name = b; id = 40; fields := struct { uint32_t x;\n"
             "  integer { size = 8; align = 8; } tag[stream.event.header.id]; }; };\n",
             head);
    static const struct {
        uint32_t id;
        uint64_t ts;
        bool ext;
    } evs[] = {{3, 100, false}, {40, 200, true}, {3, 300, false}, {3, (1u << 28) + 5, true},
               {40, (1u << 28) + 9, true}, {3, (1u << 28) + 12, false}};
    cw_t w;
    cw_init(&w);
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++) {
        uint32_t tag = evs[i].ext ? 31 : evs[i].id;
        cw_lttng_compact(&w, evs[i].id, evs[i].ts, evs[i].ext, be);
        cw_int(&w, 7 * i + 1, 32, be); /* x */
        for (unsigned k = 0; k < tag; k++)
            cw_int(&w, (k + 10 * i) & 0xFF, 8, be);
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.log_shape = true;
    char *log = check_twins(&c, w.buf, len);
    /* the compact event a: 3 elements; the extended b and a: 31 each */
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.tag  [2] = 2\n"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.tag  [30] = 40\n"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.tag  [30] = 60\n"));
    ck_assert_ptr_null(strstr(log, "UINT event.fields.tag  [31]"));
    ck_assert_ptr_null(strstr(log, "UINT event.fields.tag  [3] = 3\n"));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    check_cut(&c, w.buf, len - 3);
    cw_free(&w);
}
END_TEST

/* Arrays and sequences of byte-aligned integers and floats (one pass over
 * their elements: stream_plan.h; little-endian integers by 8-byte loads
 * where 8 bytes past the last one lie in the input, not for the last
 * sequence, 5 bytes before the end), signed at their extremes (8, 16 and
 * 64 bits), unsigned at their maximum, enumerations, an alignment above
 * the element's size, in both byte orders: the same log in every split,
 * pause and allocation failure (events read while they arrive take the
 * general interpreter), through on_field and on_fields, also for streams cut
 * inside a sequence. */
START_TEST(test_vector_elements)
{
    bool be = _i != 0;
    char meta[1200];
    snprintf(meta, sizeof meta,
             "/* CTF 1.8 */\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "event { name = v; fields := struct {\n"
             "  integer { size = 8; align = 8; } n;\n"
             "  integer { size = 16; align = 8; signed = true; } s[n];\n"
             "  integer { size = 32; align = 64; } wide[2];\n"
             "  enum : integer { size = 8; align = 8; } { A, B, C = 7 } e[n];\n"
             "  floating_point { exp_dig = 11; mant_dig = 53; align = 8; } d[n];\n"
             "  integer { size = 64; align = 8; signed = true; } q[n];\n"
             "  integer { size = 8; align = 8; signed = true; } c[n];\n"
             "  integer { size = 32; align = 8; } u[n];\n"
             "  integer { size = 8; align = 8; } tail; }; };\n",
             be ? "be" : "le");
    cw_t w;
    cw_init(&w);
    for (unsigned ev = 0; ev < 4; ev++) {
        unsigned n = ev * 2; /* 0, 2, 4, 6 elements */
        cw_align(&w, 64); /* the payload's alignment (wide's) */
        cw_int(&w, n, 8, be);
        for (unsigned i = 0; i < n; i++)
            cw_int(&w, (uint64_t)(int64_t)(-300 + 97 * (int)i), 16, be);
        for (unsigned i = 0; i < 2; i++) {
            cw_align(&w, 64);
            cw_int(&w, 0xA0B0C0D0u + i + ev, 32, be);
        }
        for (unsigned i = 0; i < n; i++)
            cw_int(&w, i % 3 == 2 ? 7 : i % 3, 8, be);
        for (unsigned i = 0; i < n; i++)
            cw_f64(&w, 1.5 * i - ev, be);
        for (unsigned i = 0; i < n; i++)
            cw_int(&w, i % 2 ? UINT64_MAX - i : (uint64_t)INT64_MIN + i, 64, be);
        for (unsigned i = 0; i < n; i++)
            cw_int(&w, i % 2 ? 127 - i : 128 + i, 8, be);
        for (unsigned i = 0; i < n; i++)
            cw_int(&w, 0xFFFFFFFFu - i, 32, be);
        cw_int(&w, 0xEE, 8, be);
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = check_twins(&c, w.buf, len);
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.s  [5] = 185"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.e  [5] = 7 (C)"));
    ck_assert_ptr_nonnull(strstr(log, "FLOAT event.fields.d  [5] = 4.5"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.q  [4] = -9223372036854775804"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.q  [5] = -6"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.c  [4] = -124"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.c  [5] = 122"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.u  [5] = 4294967290"));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    check_cut(&c, w.buf, len - 5);  /* inside d */
    check_cut(&c, w.buf, len - 75); /* inside s */
    cw_free(&w);
}
END_TEST

/* Batch slots used again by other records (stream.c, batch_mark and
 * batch_clean: a slot whose record set a label, an option or a byte view is
 * made as a new record's after the call; the others are not touched):
 * events of two classes in turn, one whose labels (a bit-field enum, a
 * byte-aligned enum), byte view (an array of bytes) and variant option lie
 * where the other has plain integers and strings, and a third reading
 * fragments of a long string: the same log in every split, pause and
 * allocation failure through on_field and on_fields, both byte orders (the
 * recorder logs an option, a byte view or a fragment offset on a record
 * that has none, so a slot's stale member differs from on_field's log);
 * also for streams cut inside each class. */
START_TEST(test_batch_slots_reused)
{
    bool be = _i != 0;
    char meta[1600];
    snprintf(meta, sizeof meta,
             "/* CTF 1.8 */\n"
             "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
             "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "stream { event.header := struct { u8 id; }; };\n"
             "event { name = a; id = 0; fields := struct { string s;\n"
             "  enum : integer { size = 3; align = 1; } { X = 0, Y = 1, Z = 5 } e3;\n"
             "  u8 raw[3];\n"
             "  enum : u8 { P = 0, Q = 1 } tag;\n"
             "  variant <tag> { u32 P; string Q; } v; }; };\n"
             "event { name = b; id = 1; fields := struct { string s;\n"
             "  integer { size = 3; align = 1; } k; integer { size = 5; align = 1; } m;\n"
             "  u8 u1; u32 w; string t; u8 u2; u8 u3; u32 u4; u8 u5; u8 u6; u8 u7;\n"
             "  u32 u8x; u8 u9; }; };\n"
             "event { name = c; id = 2; fields := struct { u8 n; string long_s; }; };\n",
             be ? "be" : "le");
    static const char ids[] = {0, 1, 0, 1, 1, 0, 2, 1, 0, 1, 2, 0, 1};
    /* long_s: 400 bytes, 4 fragments of at most 128 (stitch_bytes 256) */
    static char longs[400];
    memset(longs, 'x', sizeof longs - 1);
    cw_t w;
    cw_init(&w);
    size_t long_at = 0, last_b = 0; /* the last c's long_s, the last b */
    for (size_t i = 0; i < sizeof ids; i++) {
        if (ids[i] == 1)
            last_b = (size_t)(w.bits / 8);
        cw_int(&w, (uint64_t)ids[i], 8, be);
        if (ids[i] == 0) {
            cw_str(&w, i % 2 ? "alpha" : "");
            cw_int(&w, i % 3 == 0 ? 5 : 1, 3, be);
            cw_align(&w, 8);
            for (unsigned k = 0; k < 3; k++)
                cw_int(&w, 0x41 + k + i, 8, be);
            cw_int(&w, i & 1, 8, be);
            if (i & 1)
                cw_str(&w, "q-option");
            else
                cw_int(&w, 0xDEAD0000u + i, 32, be);
        } else if (ids[i] == 1) {
            cw_str(&w, "bee");
            cw_int(&w, i & 7, 3, be);
            cw_int(&w, i & 31, 5, be);
            cw_int(&w, 10 + i, 8, be);
            cw_int(&w, 100000 + i, 32, be);
            cw_str(&w, "tee");
            for (unsigned k = 0; k < 2; k++)
                cw_int(&w, 20 + k, 8, be);
            cw_int(&w, 3000000 + i, 32, be);
            for (unsigned k = 0; k < 3; k++)
                cw_int(&w, 30 + k, 8, be);
            cw_int(&w, 4000000 + i, 32, be);
            cw_int(&w, 99, 8, be);
        } else {
            cw_int(&w, i, 8, be);
            long_at = (size_t)(w.bits / 8);
            cw_str(&w, longs);
        }
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.stream.stitch_bytes = 256; /* long_s in fragments */
    char *log = check_twins(&c, w.buf, len);
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.e3 e3 = 5 (Z)"));
    ck_assert_ptr_nonnull(strstr(log, "n=3 bytes=414243"));
    ck_assert_ptr_nonnull(strstr(log, "opt=Q"));
    ck_assert_ptr_nonnull(strstr(log, "fragF@0"));
    ck_assert_ptr_nonnull(strstr(log, " fragL@384")); /* the fourth */
    ck_assert_ptr_null(strstr(log, "option="));
    ck_assert_ptr_null(strstr(log, " bytes=3\n"));
    ck_assert_ptr_null(strstr(log, "frag_offset="));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    check_cut(&c, w.buf, long_at + 40);  /* inside the last c's long string: its first fragment */
    check_cut(&c, w.buf, long_at + 200); /* its second */
    check_cut(&c, w.buf, last_b + 10);   /* inside the last b */
    cw_free(&w);
}
END_TEST

/* A packet of a stream class whose packet context is { u32 packet_size;
 * u32 content_size; }: packet_open writes the context (patched by
 * packet_close, after `pad` bytes of padding) and returns its start. */
static size_t packet_open(cw_t *w, bool be)
{
    size_t start = (size_t)(w->bits / 8);
    cw_int(w, 0, 32, be);
    cw_int(w, 0, 32, be);
    return start;
}

static void packet_close(cw_t *w, size_t start, unsigned pad, bool be)
{
    size_t content = (size_t)(w->bits / 8) - start;
    for (unsigned i = 0; i < pad; i++)
        cw_int(w, 0, 8, be);
    size_t size = (size_t)(w->bits / 8) - start;
    cw_patch(w, start, size * 8, 32, be);
    cw_patch(w, start + 4, content * 8, 32, be);
}

/* A callback returning -7 at the at-th callback, for at = 1, 1 + step, ...
 * up to last: E_CALLBACK after the same records in every split
 * (drv_check_all_at), through on_field and on_fields. The metadata is
 * parsed once for them all (cfg_parse_once: the caller's check_twins ran
 * the parse under every plan). */
static void check_aborts(const struct target_cfg *c, const uint8_t *data, size_t len,
                         unsigned long last, unsigned long step)
{
    struct target_cfg once = *c;
    tracerd_ctf_trace_t *trace = c->trace == NULL ? cfg_parse_once(&once) : NULL;
    for (unsigned long at = 1; at <= last; at += step)
        for (int batch = 0; batch < 2; batch++) {
            char *log =
                drv_check_all_at(batch ? &ctf_batch_target : &ctf_target, &once, data, len, at);
            ck_assert_ptr_nonnull(strstr(log, "end E_CALLBACK"));
            free(log);
        }
    tracerd_ctf_trace_free(trace);
}

/* Events read one after another inside record (stream.c) while the
 * packet's content ends in the chunk: two packets (content_size, then
 * padding) whose events mix a class delivered by plans with one the plans
 * do not take (bit fields of both byte orders: the byte order could change
 * inside a byte as far as the compiler knows, so the general interpreter
 * delivers it); the same log whole (the loop) as byte by byte and in every
 * 2-way split (events straddling chunks: no loop), with a pause at every
 * callback, with the n-th allocation failing, and with a callback returning
 * -7 at one callback after another, through on_field and on_fields, both
 * byte orders; a pause after each event returns after that event. */
START_TEST(test_chunk_event_loop)
{
    bool be = _i != 0;
    char meta[1200];
    snprintf(meta, sizeof meta,
             "/* CTF 1.8 */\n"
             "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
             "typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
             "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "stream { packet.context := struct { u32 packet_size; u32 content_size; };\n"
             "  event.header := struct { u8 id; }; };\n"
             "event { name = p; id = 0; fields := struct { u32 a; string s;\n"
             "  enum : u8 { OFF = 0, ON = 1 } on; u16 b; }; };\n"
             "event { name = g; id = 1; fields := struct {\n"
             "  integer { size = 4; align = 8; byte_order = le; } lo;\n"
             "  integer { size = 4; align = 1; byte_order = le; } lo2;\n"
             "  integer { size = 8; align = 1; byte_order = be; } hi; u16 c; }; };\n",
             be ? "be" : "le");
    static const uint8_t ids[2][7] = {{0, 0, 1, 0, 1, 1, 0}, {1, 0, 0, 0, 1, 0, 0}};
    cw_t w;
    cw_init(&w);
    for (unsigned pk = 0; pk < 2; pk++) {
        size_t start = packet_open(&w, be);
        for (unsigned i = 0; i < 7; i++) {
            unsigned k = pk * 7 + i;
            cw_int(&w, ids[pk][i], 8, be);
            if (ids[pk][i] == 0) {
                cw_int(&w, 0x01020304u * (k + 1), 32, be);
                cw_str(&w, k % 3 == 0 ? "" : "text");
                cw_int(&w, k & 1, 8, be);
                cw_int(&w, 500 + k, 16, be);
            } else {
                cw_int(&w, k & 15, 4, false);
                cw_int(&w, (k * 3) & 15, 4, false);
                cw_int(&w, 0x80 + k, 8, true);
                cw_int(&w, 700 + k, 16, be);
            }
        }
        packet_close(&w, start, 5 + pk, be);
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = check_twins(&c, w.buf, len);
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.on on = 1 (ON)"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.c c = 711"));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    ck_assert_uint_eq(read_paused(meta, w.buf, len, false), 14);
    ck_assert_uint_eq(read_paused(meta, w.buf, len, true), 14);
    check_aborts(&c, w.buf, len, 60, 3);
    check_cut(&c, w.buf, len - 30); /* inside the second packet's events */
    cw_free(&w);
}
END_TEST

/* Events of packets whose content ends in the chunk, an LTTng compact
 * header and every scope wanted: delivered by plan_events (stream.c) from
 * the chunk, by the general path when they straddle chunks. Classes with a
 * plan (a string, a sequence, an enumeration; an 8-byte integer behind the
 * extended header form) between classes without one (bit fields of both
 * byte orders), which plan_events leaves to the general path; each packet's
 * last event a small one ending its content. The same log whole as byte by
 * byte, in every split, with a pause at every callback, the n-th allocation
 * failing and a callback returning -7 at one callback after another,
 * through on_field and on_fields, both byte orders; a pause after each
 * event returns after it; the same records, then the same error at the
 * same byte, for a header cut by the content's end, an undeclared event id
 * and a stream cut inside an event. */
static const char *plan_events_meta(bool be, char *meta, size_t size)
{
    snprintf(meta, size,
             "/* CTF 1.8 */\n"
             "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
             "typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
             "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
             "typealias integer { size = 64; align = 8; signed = false; } := u64;\n"
             "typealias integer { size = 5; align = 1; signed = false; } := u5;\n"
             "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } "
             ":= u27c;\n"
             "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } "
             ":= u64c;\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "clock { name = c; freq = 1000000000; };\n"
             "stream { packet.context := struct { u32 packet_size; u32 content_size; };\n"
             "  event.header := struct { enum : u5 { compact = 0 ... 30, extended = 31 } id;\n"
             "    variant <id> { struct { u27c timestamp; } compact;\n"
             "      struct { u32 id; u64c timestamp; } extended; } v; } align(8);\n"
             "  event.context := struct { u32 _vtid; }; };\n"
             "event { name = a; id = 0; fields := struct { u32 x; string s; u8 n;\n"
             "  u16 d[n]; enum : u8 { IDLE, RUNNING, BLOCKED = 5 ... 9 } st; }; };\n"
             "event { name = g; id = 1; fields := struct {\n"
             "  integer { size = 4; align = 8; byte_order = le; } lo;\n"
             "  integer { size = 4; align = 1; byte_order = le; } lo2;\n"
             "  integer { size = 8; align = 1; byte_order = be; } hi; u16 c; }; };\n"
             "event { name = e; id = 3; fields := struct { u8 z; }; };\n"
             "event { name = x; id = 40; fields := struct { u64 y; }; };\n",
             be ? "be" : "le");
    return meta;
}

/* One event of plan_events_meta's trace: its header (the extended form
 * when ext) and its fields (k: the event's number, for its values). */
static void plan_event(cw_t *w, unsigned id, uint64_t ts, bool ext, unsigned k, bool be)
{
    cw_lttng_compact(w, id, ts, ext, be);
    cw_int(w, 1000 + k, 32, be); /* _vtid */
    if (id == 0) {
        cw_int(w, 0x01020304u * (k + 1), 32, be);
        cw_str(w, k % 3 == 0 ? "" : "text");
        cw_int(w, k % 4, 8, be);
        for (unsigned j = 0; j < k % 4; j++)
            cw_int(w, 300 * j + k, 16, be);
        cw_int(w, k % 10, 8, be);
    } else if (id == 1) {
        cw_int(w, k & 15, 4, false);
        cw_int(w, (k * 3) & 15, 4, false);
        cw_int(w, 0x80 + k, 8, true);
        cw_int(w, 700 + k, 16, be);
    } else if (id == 3) {
        cw_int(w, 0xE0 + k, 8, be);
    } else {
        cw_int(w, 0x1122334455667788ull + k, 64, be);
    }
}

START_TEST(test_plan_events)
{
    bool be = _i != 0;
    char meta[2000];
    plan_events_meta(be, meta, sizeof meta);
    /* class ids (3 ends each packet; 40 and every 5th event extended) */
    static const uint8_t ids[2][8] = {{0, 0, 1, 40, 0, 1, 1, 3}, {1, 0, 40, 0, 0, 1, 0, 3}};
    cw_t w;
    cw_init(&w);
    uint64_t ts = 100;
    for (unsigned pk = 0; pk < 2; pk++) {
        size_t start = packet_open(&w, be);
        for (unsigned i = 0; i < 8; i++) {
            unsigned k = pk * 8 + i;
            ts += k == 9 ? (1u << 27) : 7 + k; /* one wrap of the compact timestamp */
            plan_event(&w, ids[pk][i], ts, ids[pk][i] == 40 || k % 5 == 4, k, be);
        }
        packet_close(&w, start, 3 + 2 * pk, be);
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.log_shape = true;
    char *log = check_twins(&c, w.buf, len);
    ck_assert_ptr_nonnull(strstr(log, "V< stream.event.header.v v opt=extended"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.st st = 9 (BLOCKED)"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.c c = 713"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.z z = 239"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.y y = 1234605616436508562"));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    ck_assert_uint_eq(read_paused(meta, w.buf, len, false), 16);
    ck_assert_uint_eq(read_paused(meta, w.buf, len, true), 16);
    check_aborts(&c, w.buf, len, 90, 7);
    check_cut(&c, w.buf, len - 40); /* inside the second packet's events */
    cw_free(&w);

    /* a header cut by the content's end; an undeclared event id (5) */
    for (int bad = 0; bad < 2; bad++) {
        cw_init(&w);
        size_t start = packet_open(&w, be);
        plan_event(&w, 0, 10, false, 1, be);
        plan_event(&w, 40, 20, true, 2, be);
        if (bad == 0) {
            uint64_t at = w.bits;
            plan_event(&w, 0, 30, true, 3, be);
            w.bits = at + 6 * 8; /* the content ends 6 bytes into its header */
        } else {
            plan_event(&w, 5, 30, false, 3, be);
        }
        packet_close(&w, start, 0, be);
        len = (size_t)(w.bits / 8);
        log = check_twins(&c, w.buf, len);
        ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.y y = 1234605616436508554\n"));
        ck_assert_ptr_nonnull(strstr(
            log, bad == 0 ? "end E_EXTENT @54 event field stream.event.header.v.extended.timestamp "
                            "at byte 59: field runs past the packet content (480 bits)"
                          : "end E_REFERENCE @54 event at byte 54: event id 5 is not declared in "
                            "stream 0"));
        free(log);
        cw_free(&w);
    }
}
END_TEST

/* Static segments read by 8-byte loads (stream_plan.h, `wide`: every field
 * a little-endian or 8-bit integer or a struct limit, 8 bytes past the
 * segment in the input): integers of every size, signed with the sign bit
 * set and unsigned at their maximum, an enumeration, a nested struct; a
 * class whose segment has a float and one whose segment has a field of the
 * other byte order (never wide); each packet's last event lies less than 8
 * bytes before its content end (the segment read field by field). The same
 * log in every split, pause and allocation failure, through on_field and
 * on_fields, both byte orders; streams cut inside a segment. */
START_TEST(test_segment_wide)
{
    bool be = _i != 0;
    char meta[1600];
    snprintf(meta, sizeof meta,
             "/* CTF 1.8 */\n"
             "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
             "typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
             "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
             "typealias integer { size = 64; align = 8; signed = false; } := u64;\n"
             "typealias integer { size = 8; align = 8; signed = true; } := s8;\n"
             "typealias integer { size = 16; align = 8; signed = true; } := s16;\n"
             "typealias integer { size = 32; align = 8; signed = true; } := s32;\n"
             "typealias integer { size = 64; align = 8; signed = true; } := s64;\n"
             "trace { major = 1; minor = 8; byte_order = %s; };\n"
             "stream { packet.context := struct { u32 packet_size; u32 content_size; };\n"
             "  event.header := struct { u8 id; }; };\n"
             "event { name = w; id = 0; fields := struct { u8 a; s8 sa; u16 b; s16 sb;\n"
             "  u32 c; s32 sc; u64 d; s64 sd; struct { s16 x; u8 y; } in;\n"
             "  enum : u8 { OFF = 0, ON = 1 } on; }; };\n"
             "event { name = f; id = 1; fields := struct { s32 i;\n"
             "  floating_point { exp_dig = 8; mant_dig = 24; align = 8; } g; s16 j; }; };\n"
             "event { name = o; id = 2; fields := struct { s16 i;\n"
             "  integer { size = 32; align = 8; signed = true; byte_order = %s; } k; u8 j; }; "
             "};\n",
             be ? "be" : "le", be ? "le" : "be");
    static const uint8_t ids[2][6] = {{0, 1, 0, 2, 0, 0}, {2, 0, 1, 1, 0, 2}};
    cw_t w;
    cw_init(&w);
    for (unsigned pk = 0; pk < 2; pk++) {
        size_t start = packet_open(&w, be);
        for (unsigned i = 0; i < 6; i++) {
            unsigned k = pk * 6 + i;
            cw_int(&w, ids[pk][i], 8, be);
            if (ids[pk][i] == 0) {
                cw_int(&w, 0xFF - k, 8, be);
                cw_int(&w, (uint64_t)(int64_t)(-128 + (int)k), 8, be);
                cw_int(&w, 0xFFFF - k, 16, be);
                cw_int(&w, (uint64_t)(int64_t)(-32768 + (int)k), 16, be);
                cw_int(&w, 0xFFFFFFFFu - k, 32, be);
                cw_int(&w, (uint64_t)(INT32_MIN + (int64_t)k), 32, be);
                cw_int(&w, UINT64_MAX - k, 64, be);
                cw_int(&w, (uint64_t)INT64_MIN + k, 64, be);
                cw_int(&w, (uint64_t)(int64_t)(k % 2 ? -1 : 32767), 16, be);
                cw_int(&w, 0x80 + k, 8, be);
                cw_int(&w, k & 1, 8, be);
            } else if (ids[pk][i] == 1) {
                cw_int(&w, (uint64_t)(int64_t)(-7 - (int)k), 32, be);
                cw_f32(&w, -1.25f * (float)k, be);
                cw_int(&w, (uint64_t)(int64_t)(-300 - (int)k), 16, be);
            } else {
                cw_int(&w, (uint64_t)(int64_t)(-2 - (int)k), 16, be);
                cw_int(&w, (uint64_t)(INT32_MIN + (int64_t)k), 32, !be);
                cw_int(&w, 0xF0 + k, 8, be);
            }
        }
        packet_close(&w, start, 3 + pk, be);
    }
    size_t len = (size_t)(w.bits / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = check_twins(&c, w.buf, len);
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.a a = 255"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.sa sa = -128"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.b b = 65535"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.sb sb = -32768"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.c c = 4294967295"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.sc sc = -2147483648"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.d d = 18446744073709551615"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.sd sd = -9223372036854775808"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.in.x x = -1"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.in.y y = 128"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.on on = 1 (ON)"));
    /* the last event of the second packet (k = 11): field by field */
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.i i = -13"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.k k = -2147483637"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.j j = 251"));
    ck_assert_ptr_nonnull(strstr(log, "INT event.fields.j j = -308"));
    ck_assert_ptr_nonnull(strstr(log, "FLOAT event.fields.g g = -10"));
    ck_assert_ptr_nonnull(strstr(log, "end OK"));
    free(log);
    check_cut(&c, w.buf, len - 40); /* inside the second packet's events */
    check_cut(&c, w.buf, 30);       /* inside the first event's segment */
    cw_free(&w);
}
END_TEST

Suite *suite_ctf_batch(void);
Suite *suite_ctf_batch(void)
{
    Suite *s = suite_create("ctf_batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_batch_both_invalid);
    tcase_add_test(tc, test_batch_one_call_per_event);
    tcase_add_loop_test(tc, test_batch_full_calls, 0, 2);
    tcase_add_loop_test(tc, test_batch_segment_room, 0, 2);
    tcase_add_loop_test(tc, test_shape, 0, 2);
    tcase_add_loop_test(tc, test_lttng_header_forms, 0, 2);
    tcase_add_loop_test(tc, test_lttng_header_stored, 0, 2);
    tcase_add_loop_test(tc, test_vector_elements, 0, 2);
    tcase_add_loop_test(tc, test_batch_slots_reused, 0, 2);
    tcase_add_loop_test(tc, test_chunk_event_loop, 0, 2);
    tcase_add_loop_test(tc, test_segment_wide, 0, 2);
    tcase_add_loop_test(tc, test_plan_events, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
