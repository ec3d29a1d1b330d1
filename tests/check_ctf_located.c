/* Located events (libtracerd/ctf/located.h): the CTF stream reader's
 * internal callback that gives a client where an event's values lie instead
 * of its body's records. Checked here against the records themselves: a
 * client that declines every located event gets the records, and each
 * value a record holds must be found where the locations say (an integer or
 * float of 8 to 64 bits loaded at its offset from its part's start, a
 * string at a segment's end with the given length); a client that takes
 * them gets the same events, in the same order, with no body records, and
 * its pause and error stop the reader as on_fields' would. On a trace of
 * LTTng headers (both forms) written here in both byte orders, read whole
 * and in chunks, and on every CTF directory of tests/data and the peers'
 * test traces. The CLI's use of it (dump's located templates) is checked
 * against its record-by-record writer here on the trace written here, and
 * by tests/check_dump_tpl.c on every CTF trace. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "../libtracerd/core/bytes.h"
#include "../libtracerd/ctf/located.h"
#include "support/ctf_writer.h"
#include "support/driver.h"
#include "support/event_support.h"

/* What a reading saw. */
struct seen {
    bool take;                 /* take located events (else decline them) */
    uint64_t pause_at, fail_at; /* the located event (from 1) to pause on / fail (-7) on; 0 none */
    uint64_t located, events;  /* located callbacks, events */
    bool pending;              /* a declined located event whose records follow */
    bool taken_open;           /* a located event taken, not ended */
    uint64_t vhash;            /* every record on_fields got (its place and value), hashed */
    tracerd__ctf_located_t loc;
    size_t nh;
    const uint8_t *chunk_end; /* the chunk fed (NULL: not known) */
    uint64_t ints, floats, strings, seqs;
    /* where each body record lay (part, bytes from its start) in the first
     * event of each layout (class, header form, sequences' lengths): the
     * same in every later one */
    const void *cls;
    struct layout {
        const void *cls, *form;
        uint64_t key;
        uint32_t n;
        uint32_t part[64];
        uint64_t d[64];
    } lay[16];
    uint32_t nlay;
    uint64_t same;
    char order[65536]; /* each event's offset and time */
    size_t order_len;
};

static int on_begin(void *user, const tracerd_ctf_event_t *e)
{
    struct seen *s = user;
    s->events++;
    s->pending = false;
    s->cls = e->cls;
    if (s->order_len + 64 < sizeof s->order)
        s->order_len += (size_t)snprintf(s->order + s->order_len, 64, "%llu@%llu\n",
                                         (unsigned long long)e->offset,
                                         (unsigned long long)e->ns);
    return 0;
}

static int on_end(void *user, const tracerd_ctf_event_t *e)
{
    struct seen *s = user;
    (void)e;
    s->pending = false;
    s->taken_open = false;
    return 0;
}

static int on_located(void *user, const tracerd_ctf_field_t *hdr, size_t nh,
                      const tracerd__ctf_located_t *L)
{
    struct seen *s = user;
    s->located++;
    /* the header's records; the parts in order, after the header */
    ck_assert_uint_gt(nh, 0);
    ck_assert_uint_eq(hdr[0].depth, 0);
    ck_assert_int_eq(hdr[0].scope, TRACERD_CTF_SCOPE_EVENT_HEADER);
    ck_assert_ptr_nonnull(L->form);
    ck_assert_uint_ge(L->nseg, 1);
    ck_assert_uint_le(L->nseg, TRACERD__CTF_LOC_SEGS);
    ck_assert_uint_ge(L->at[0], hdr[nh - 1].offset);
    for (uint32_t i = 1; i < 2 * L->nseg; i++)
        ck_assert_uint_ge(L->at[i], L->at[i - 1]);
    ck_assert_uint_eq(L->seqs >> L->nseg, 0);
    /* the 8 bytes after the event lie in the chunk */
    if (s->chunk_end != NULL)
        ck_assert(L->data + (L->at[2 * L->nseg - 1] - L->off) + 8 <= s->chunk_end);
    if (s->fail_at != 0 && s->located == s->fail_at)
        return -7;
    if (s->take) {
        s->taken_open = true;
        return s->pause_at != 0 && s->located == s->pause_at ? TRACERD_CB_PAUSE : 0;
    }
    s->loc = *L;
    s->nh = nh;
    s->pending = true;
    return TRACERD__CTF_LOC_DECLINED;
}

/* The part record f lies in. */
static uint32_t part_of(const tracerd__ctf_located_t *L, const tracerd_ctf_field_t *f)
{
    uint32_t k = 2 * L->nseg;
    while (k > 0 && L->at[k - 1] > f->offset)
        k--;
    ck_assert_msg(k > 0, "record %s at %llu before the first part", f->name,
                  (unsigned long long)f->offset);
    return k - 1;
}

/* Records f[0, n) of the event's body lie where they lay in the first event
 * of its layout. */
static void check_layout(struct seen *s, const tracerd_ctf_field_t *f, size_t n)
{
    const tracerd__ctf_located_t *L = &s->loc;
    uint64_t key = L->seqs;
    for (uint32_t k = 0; k < L->nseg; k++)
        if (L->seqs >> k & 1u)
            key = key * 1000003u + L->len[k];
    struct layout *y = NULL;
    for (uint32_t i = 0; i < s->nlay && y == NULL; i++)
        if (s->lay[i].cls == s->cls && s->lay[i].form == L->form && s->lay[i].key == key)
            y = &s->lay[i];
    if (n > 64)
        return;
    if (y == NULL) {
        if (s->nlay == 16)
            return;
        y = &s->lay[s->nlay++];
        y->cls = s->cls;
        y->form = L->form;
        y->key = key;
        y->n = (uint32_t)n;
        for (size_t i = 0; i < n; i++) {
            y->part[i] = part_of(L, &f[i]);
            y->d[i] = f[i].offset - L->at[y->part[i]];
        }
        return;
    }
    ck_assert_uint_eq(y->n, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t part = part_of(L, &f[i]);
        if (f[i].kind == TRACERD_CTF_VALUE_SEQUENCE_BEGIN ||
            f[i].kind == TRACERD_CTF_VALUE_SEQUENCE_END)
            continue; /* (an empty one's limits: at the next segment's start too) */
        ck_assert_msg(part == y->part[i] && f[i].offset - L->at[part] == y->d[i],
                      "%s: part %u + %llu, in the first event of its layout %u + %llu",
                      f[i].path, part, (unsigned long long)(f[i].offset - L->at[part]),
                      y->part[i], (unsigned long long)y->d[i]);
    }
    s->same++;
}

/* Record f's value where the locations say. */
static void check_record(struct seen *s, const tracerd_ctf_field_t *f)
{
    const tracerd__ctf_located_t *L = &s->loc;
    const uint32_t part = part_of(L, f);
    const uint8_t *b = L->data + (f->offset - L->off);
    const tracerd_ctf_type_t *t = f->type;
    const bool big = t->byte_order == TRACERD_BYTE_ORDER_BIG;
    const bool whole = t->align_bits % 8 == 0 && !t->bit_order_reversed &&
                       (t->size_bits == 8 || t->size_bits == 16 || t->size_bits == 32 ||
                        t->size_bits == 64);
    switch (f->kind) {
    case TRACERD_CTF_VALUE_INT:
    case TRACERD_CTF_VALUE_UINT: {
        if (!whole)
            return;
        uint64_t v = t->size_bits == 8    ? b[0]
                     : t->size_bits == 16 ? tracerd__ld16(big, b)
                     : t->size_bits == 32 ? tracerd__ld32(big, b)
                                          : tracerd__ld64(big, b);
        if (f->kind == TRACERD_CTF_VALUE_INT && t->size_bits < 64) {
            uint64_t sb = (uint64_t)1 << (t->size_bits - 1);
            v = (v ^ sb) - sb;
        }
        ck_assert_msg(v == f->v.u, "%s: %llu at its location, %llu in its record", f->path,
                      (unsigned long long)v, (unsigned long long)f->v.u);
        s->ints++;
        return;
    }
    case TRACERD_CTF_VALUE_FLOAT: {
        if (!whole || t->size_bits < 32)
            return;
        double d;
        if (t->size_bits == 32) {
            uint32_t u = tracerd__ld32(big, b);
            float fl;
            memcpy(&fl, &u, sizeof fl);
            d = fl;
        } else {
            uint64_t u = tracerd__ld64(big, b);
            memcpy(&d, &u, sizeof d);
        }
        ck_assert(memcmp(&d, &f->v.f, sizeof d) == 0);
        s->floats++;
        return;
    }
    case TRACERD_CTF_VALUE_STRING:
        ck_assert_ptr_eq(f->v.str.data, (const char *)b);
        if (part % 2 == 0) /* a text array: a field of its segment */
            return;
        /* the string after a segment, as long as said (a text sequence:
         * as long as its elements at most) */
        ck_assert_uint_eq(f->offset, L->at[part]);
        if (L->seqs >> (part / 2) & 1u) {
            ck_assert_uint_le(f->v.str.len, L->len[part / 2]);
            return;
        }
        ck_assert_uint_eq(f->v.str.len, L->len[part / 2]);
        ck_assert_uint_eq(f->frag, TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST);
        s->strings++;
        return;
    case TRACERD_CTF_VALUE_SEQUENCE_BEGIN:
        /* its elements after a segment, as many as said (part 2k + 1, or,
         * when there are none, the next segment's start at the same byte) */
        ck_assert_uint_ge(part, 1);
        ck_assert_uint_eq(L->seqs >> ((part - 1) / 2) & 1u, 1);
        ck_assert_uint_eq(f->v.length, L->len[(part - 1) / 2]);
        s->seqs++;
        return;
    default:
        return;
    }
}

static int on_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    struct seen *s = user;
    ck_assert_msg(!s->taken_open, "records of a located event taken");
    for (size_t i = 0; i < n; i++) { /* (FNV-1a over each record's place and value) */
        uint64_t h = s->vhash ^ f[i].offset ^ (uint64_t)f[i].kind << 56 ^ (uint64_t)f[i].scope << 48;
        const bool str = f[i].kind == TRACERD_CTF_VALUE_STRING; /* (v.u: its pointer) */
        h = (h ^ (str ? f[i].v.str.len : f[i].v.u)) * UINT64_C(0x100000001B3);
        if (str)
            for (size_t k = 0; k < f[i].v.str.len; k++)
                h = (h ^ (uint8_t)f[i].v.str.data[k]) * UINT64_C(0x100000001B3);
        s->vhash = h * UINT64_C(0x100000001B3);
    }
    if (!s->pending)
        return 0;
    s->pending = false;
    ck_assert_uint_gt(n, s->nh);
    for (size_t i = s->nh; i < n; i++)
        check_record(s, &f[i]);
    check_layout(s, f + s->nh, n - s->nh);
    return 0;
}

static void callbacks(tracerd_ctf_callbacks_t *cb)
{
    tracerd_ctf_callbacks_init(cb);
    cb->on_event_begin = on_begin;
    cb->on_event_end = on_end;
    cb->on_fields = on_fields;
}

/* ---- a trace of LTTng headers ----------------------------------------------- */

static const char meta_fmt[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } "
    ":= uint27_clock_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } "
    ":= uint64_clock_t;\n"
    "trace { major = 1; minor = 8; byte_order = %s;\n"
    "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
    "clock { name = c; freq = 1000000000; };\n"
    "stream { packet.context := struct { uint32_t content_size; uint32_t packet_size; };\n"
    "  event.header := struct { enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "  variant <id> { struct { uint27_clock_t timestamp; } compact;\n"
    "    struct { uint32_t id; uint64_clock_t timestamp; } extended; } v; } align(8); };\n"
    "event { name = a; id = 0; fields := struct {\n"
    "  integer { size = 8; align = 8; signed = true; } s8;\n"
    "  integer { size = 16; align = 8; signed = true; } s16;\n"
    "  uint32_t u32;\n"
    "  integer { size = 64; align = 8; signed = true; } s64;\n"
    "  string msg;\n"
    "  uint16_t n;\n"
    "  integer { size = 16; align = 16; signed = true; } seq[n];\n"
    "  floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f32;\n"
    "  floating_point { exp_dig = 11; mant_dig = 53; align = 8; } f64;\n"
    "  enum : uint32_t { A = 0, B = 1 ... 5 } e;\n"
    "  string empty;\n"
    "  integer { size = 8; align = 8; } arr[3];\n"
    "  integer { size = 64; align = 8; } last; }; };\n"
    "event { name = b; id = 40; fields := struct { string s; string t;\n"
    "  integer { size = 8; align = 8; encoding = UTF8; } tag[4]; uint32_t x; }; };\n"
    "event { name = c; id = 2; fields := struct { integer { size = 12; align = 1; } bits;\n"
    "  integer { size = 4; align = 1; } rest; uint32_t after; }; };\n";

/* Three packets of events of the three classes, compact and extended
 * headers (no event context: the payload's alignment, 32 bits in a, makes
 * its first segment's; a sequence of 16-bit aligned elements after a
 * string, where the elements' start moves with the string's length); each
 * packet's last event is not located (the 8 bytes after it are not in the
 * content), the other 33 are. */
/* Where write_trace put the second packet's first event of class a (its
 * start, its string msg, its sequence's length n) and the end of that
 * packet's content: bytes from the stream's start. */
struct marks {
    size_t ev, str, seq_len, content_end;
};

static uint8_t *write_trace(bool big, size_t *len, char **meta, struct marks *m)
{
    static const char *const msgs[] = {"", "x", "hello world", "caf\xc3\xa9", "\xff\xfe bad"};
    cw_t w;
    cw_init(&w);
    uint64_t ts = 1000;
    for (unsigned p = 0; p < 3; p++) {
        size_t start = cw_packet_begin(&w, big);
        for (unsigned i = 0; i < 12; i++) {
            unsigned cls = (i + p) % 3;
            uint32_t id = cls == 0 ? 0 : cls == 1 ? 40 : 2;
            ts += 100 + 37 * i;
            bool ext = id >= 31 || i % 5 == 4;
            const bool mark = m != NULL && p == 1 && cls == 0 && m->ev == 0;
            if (mark)
                m->ev = (size_t)(w.bits / 8);
            cw_lttng_compact(&w, id, ts, ext, big);
            if (cls == 0) {
                cw_align(&w, 32); /* (the struct's alignment: its f32's) */
                cw_int(&w, (uint64_t)(int64_t)-(int)(i + 1), 8, big);
                cw_int(&w, (uint64_t)(int64_t)(i % 2 ? -30000 : 30000), 16, big);
                cw_int(&w, 0xF0000000u + i, 32, big);
                cw_int(&w, (uint64_t)(INT64_C(-1234567890123) * (i + 1)), 64, big);
                if (mark)
                    m->str = (size_t)(w.bits / 8);
                cw_str(&w, msgs[(i + 2 * p) % 5]); /* (lengths even and odd for one n) */
                unsigned n = (i * 2 + p) % 4;
                if (mark)
                    m->seq_len = (size_t)(w.bits / 8);
                cw_int(&w, n, 16, big);
                for (unsigned k = 0; k < n; k++) {
                    cw_align(&w, 16);
                    cw_int(&w, (uint64_t)(int64_t)(k % 2 ? -(int)k - 7 : (int)k * 1000), 16, big);
                }
                cw_align(&w, 32);
                cw_f32(&w, 1.5f * (float)i - 3.25f, big);
                cw_f64(&w, -0.1 * i, big);
                cw_int(&w, i % 7, 32, big); /* e: a value past the labels at 6 */
                cw_str(&w, "");
                for (unsigned k = 0; k < 3; k++)
                    cw_int(&w, 200 + k + i, 8, big);
                cw_int(&w, UINT64_MAX - i, 64, big);
            } else if (cls == 1) {
                cw_str(&w, msgs[(i + 1) % 5]);
                cw_str(&w, msgs[(i + 3) % 5]);
                cw_bytes(&w, i % 3 == 0 ? "wxyz" : i % 3 == 1 ? "ab\0\0" : "\0q\0r", 4);
                cw_int(&w, 77 * i, 32, big);
            } else {
                cw_int(&w, 0xABC + i, 12, big);
                cw_int(&w, i & 15, 4, big);
                cw_int(&w, 5 + i, 32, big);
            }
        }
        if (m != NULL && p == 1)
            m->content_end = (size_t)(w.bits / 8);
        /* (the next packet's fields aligned from its start: this one's end) */
        cw_packet_end(&w, start, big, p < 2 ? 16 : 0, 64);
    }
    *len = (size_t)(w.bits / 8);
    uint8_t *data = malloc(*len);
    ck_assert_ptr_nonnull(data);
    memcpy(data, w.buf, *len);
    cw_free(&w);
    *meta = malloc(sizeof meta_fmt + 8);
    ck_assert_ptr_nonnull(*meta);
    snprintf(*meta, sizeof meta_fmt + 8, meta_fmt, big ? "be" : "le");
    return data;
}

static tracerd_ctf_trace_t *parse(const char *meta)
{
    tracerd_ctf_metadata_t *m;
    ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta, strlen(meta)), TRACERD_OK);
    tracerd_ctf_trace_t *t = NULL;
    ck_assert_msg(tracerd_ctf_metadata_finish(m, &t) == TRACERD_OK, "%s",
                  tracerd_ctf_metadata_error_reason(m));
    tracerd_ctf_metadata_free(m);
    return t;
}

/* read_stream's chunk for random splits: chunks of 1 to 600 bytes, from
 * the seed chunk - RANDOM_SPLITS */
#define RANDOM_SPLITS ((size_t)1 << 40)

/* Reads data in chunks of `chunk` bytes (0: whole; from RANDOM_SPLITS:
 * random ones), resuming after pauses, with the located callback (or, loc
 * false, without it); the final status, the error's record offset in
 * *err_off and its reason in why (when not NULL). */
static tracerd_status_t read_stream_how(const tracerd_ctf_trace_t *t, const uint8_t *data,
                                        size_t len, size_t chunk, struct seen *s,
                                        uint64_t *err_off, unsigned *pauses, bool loc,
                                        char why[256])
{
    tracerd_ctf_callbacks_t cb;
    callbacks(&cb);
    tracerd_ctf_stream_t *r = NULL;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, &cb, s, NULL, &r), TRACERD_OK);
    if (loc)
        ck_assert_int_eq(tracerd__ctf_stream_set_located(r, on_located), TRACERD_OK);
    tracerd_status_t st = TRACERD_OK;
    size_t off = 0;
    uint64_t seed = chunk >= RANDOM_SPLITS ? chunk - RANDOM_SPLITS + 1 : 0;
    while (st == TRACERD_OK && off < len) {
        size_t want = chunk;
        if (seed != 0) {
            seed = seed * UINT64_C(6364136223846793005) + 1442695040888963407u;
            want = 1 + (size_t)(seed >> 33) % 600;
        }
        size_t n = want == 0 || len - off < want ? len - off : want, used = 0;
        s->chunk_end = data + off + n;
        st = tracerd_ctf_stream_feed(r, data + off, n, &used);
        off += used;
        if (st == TRACERD_PAUSED) {
            (*pauses)++;
            st = tracerd_ctf_stream_resume(r);
        }
    }
    if (st == TRACERD_OK)
        st = tracerd_ctf_stream_finish(r);
    *err_off = tracerd_ctf_stream_record_offset(r);
    if (why != NULL)
        snprintf(why, 256, "%s", tracerd_ctf_stream_error_reason(r));
    if (st == TRACERD_E_CALLBACK) {
        ck_assert_int_eq(tracerd_ctf_stream_callback_error(r), -7);
        ck_assert_ptr_nonnull(strstr(tracerd_ctf_stream_error_reason(r), "on_fields"));
    }
    tracerd_ctf_stream_free(r);
    return st;
}

static tracerd_status_t read_stream(const tracerd_ctf_trace_t *t, const uint8_t *data, size_t len,
                                    size_t chunk, struct seen *s, uint64_t *err_off,
                                    unsigned *pauses)
{
    return read_stream_how(t, data, len, chunk, s, err_off, pauses, true, NULL);
}

/* Declined: every value where the locations say, and the same records
 * (places and values) whole, byte by byte, in chunks and in random splits
 * as without the callback; taken: the same events, no body records for
 * them; a pause and an error from the callback. */
START_TEST(test_located_stream)
{
    const bool big = _i != 0;
    char *meta;
    size_t len;
    uint8_t *data = write_trace(big, &len, &meta, NULL);
    tracerd_ctf_trace_t *t = parse(meta);
    static const size_t chunks[] = {0,    1,    7,    64, 100, 333, 4096, RANDOM_SPLITS,
                                    RANDOM_SPLITS + 1, RANDOM_SPLITS + 2};
    char ref[65536];
    uint64_t ref_vhash = 0;
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        struct seen *s = calloc(1, sizeof *s);
        ck_assert_ptr_nonnull(s);
        uint64_t eo;
        unsigned pauses = 0;
        ck_assert_int_eq(read_stream(t, data, len, chunks[c], s, &eo, &pauses), TRACERD_OK);
        ck_assert_uint_eq(s->events, 36);
        /* the same records as without the callback, split the same way */
        struct seen *plain = calloc(1, sizeof *plain);
        ck_assert_ptr_nonnull(plain);
        ck_assert_int_eq(
            read_stream_how(t, data, len, chunks[c], plain, &eo, &pauses, false, NULL),
            TRACERD_OK);
        ck_assert_uint_eq(plain->located, 0);
        ck_assert_uint_eq(s->vhash, plain->vhash);
        ck_assert_str_eq(s->order, plain->order);
        free(plain);
        if (c == 0)
            ref_vhash = s->vhash;
        else
            ck_assert_uint_eq(s->vhash, ref_vhash);
        if (c == 0) {
            /* whole: every event but the last (nothing after it) */
            ck_assert_uint_eq(s->located, 33);
            memcpy(ref, s->order, s->order_len + 1);
            /* 11 a's located: 8 integers + elements, 2 floats, 2 strings each */
            ck_assert_uint_ge(s->ints, 12 * 10);
            ck_assert_uint_eq(s->floats, 22); /* 11 a's located */
            ck_assert_uint_eq(s->strings, 44); /* and 11 b's: two each */
            ck_assert_uint_ge(s->seqs, 10);
            ck_assert_uint_ge(s->same, 20);
        } else {
            ck_assert_str_eq(s->order, ref);
            if (chunks[c] == 4096) /* (the whole trace in one chunk) */
                ck_assert_uint_eq(s->located, 33);
        }
        /* taken: the same events, none of their body records */
        struct seen *u = calloc(1, sizeof *u);
        ck_assert_ptr_nonnull(u);
        u->take = true;
        ck_assert_int_eq(read_stream(t, data, len, chunks[c], u, &eo, &pauses), TRACERD_OK);
        ck_assert_str_eq(u->order, ref);
        ck_assert_uint_eq(u->located, s->located);
        ck_assert_uint_eq(u->events, 36);
        /* paused on the third located event: the same events after resuming */
        memset(u, 0, sizeof *u);
        u->take = true;
        u->pause_at = 3;
        pauses = 0;
        ck_assert_int_eq(read_stream(t, data, len, chunks[c], u, &eo, &pauses), TRACERD_OK);
        ck_assert_uint_eq(pauses, s->located >= 3);
        ck_assert_str_eq(u->order, ref);
        /* failed on the fifth: E_CALLBACK at that event, nothing after it */
        memset(u, 0, sizeof *u);
        u->fail_at = 5;
        if (s->located < 5) { /* (small chunks: a packet's events lie in one only at its end) */
            free(u);
            free(s);
            continue;
        }
        ck_assert_int_eq(read_stream(t, data, len, chunks[c], u, &eo, &pauses),
                         TRACERD_E_CALLBACK);
        char off[32];
        snprintf(off, sizeof off, "%llu@", (unsigned long long)eo);
        const char *last = u->order + u->order_len;
        while (last > u->order && last[-1] == '\n')
            last--;
        while (last > u->order && last[-1] != '\n')
            last--;
        ck_assert_msg(strncmp(last, off, strlen(off)) == 0, "error at %s, last event %s", off,
                      last);
        free(u);
        free(s);
    }
    tracerd_ctf_trace_free(t);
    free(meta);
    free(data);
}
END_TEST

/* Bad input: the same status, record offset, reason, events and records
 * with the located callback (declining or taking) as without it, for every
 * split: a located event that is bad is left to the plan, which reports it.
 * The trace cut inside its last event and inside a packet; a string of the
 * second packet that runs to its content's end; that event's sequence
 * longer than the content; both byte orders. */
START_TEST(test_located_errors)
{
    const bool big = _i != 0;
    char *meta;
    size_t len;
    struct marks m = {0, 0, 0, 0};
    uint8_t *data = write_trace(big, &len, &meta, &m);
    ck_assert(m.ev != 0 && m.ev < m.str && m.str < m.seq_len && m.seq_len < m.content_end);
    tracerd_ctf_trace_t *t = parse(meta);
    enum { CUT_EVENT, CUT_PACKET, LONG_STRING, LONG_SEQUENCE, BAD };
    for (int bad = 0; bad < BAD; bad++) {
        uint8_t *d = malloc(len);
        ck_assert_ptr_nonnull(d);
        memcpy(d, data, len);
        size_t n = len;
        tracerd_status_t want = TRACERD_E_TRUNCATED;
        uint64_t want_off = m.ev;
        if (bad == CUT_EVENT) {
            n = len - 3;
            want_off = UINT64_MAX; /* (the last event's: as without the callback) */
        } else if (bad == CUT_PACKET) {
            n = m.seq_len + 1;
        } else if (bad == LONG_STRING) {
            memset(d + m.str, 'A', m.content_end - m.str);
            want = TRACERD_E_EXTENT;
        } else {
            d[m.seq_len] = d[m.seq_len + 1] = 0x7F; /* 32,639 elements */
            want = TRACERD_E_EXTENT;
        }
        static const size_t chunks[] = {0, 1, 64, 4096, RANDOM_SPLITS + 5};
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            struct seen *ref = calloc(1, sizeof *ref), *u = calloc(1, sizeof *u);
            ck_assert(ref != NULL && u != NULL);
            uint64_t ref_off, off;
            unsigned pauses = 0;
            char ref_why[256], why[256];
            tracerd_status_t ref_st =
                read_stream_how(t, d, n, chunks[c], ref, &ref_off, &pauses, false, ref_why);
            ck_assert_msg(ref_st == want, "bad %d chunk %zu: %s (%s)", bad, chunks[c],
                          tracerd_status_name(ref_st), ref_why);
            if (want_off != UINT64_MAX)
                ck_assert_uint_eq(ref_off, want_off);
            for (int take = 0; take < 2; take++) {
                memset(u, 0, sizeof *u);
                u->take = take;
                tracerd_status_t st =
                    read_stream_how(t, d, n, chunks[c], u, &off, &pauses, true, why);
                ck_assert_msg(st == ref_st && off == ref_off && strcmp(why, ref_why) == 0,
                              "bad %d chunk %zu take %d: %s at %llu (%s), without the "
                              "callback %s at %llu (%s)",
                              bad, chunks[c], take, tracerd_status_name(st),
                              (unsigned long long)off, why, tracerd_status_name(ref_st),
                              (unsigned long long)ref_off, ref_why);
                ck_assert_str_eq(u->order, ref->order);
                if (!take)
                    ck_assert_uint_eq(u->vhash, ref->vhash);
            }
            free(ref);
            free(u);
        }
        free(d);
    }
    tracerd_ctf_trace_free(t);
    free(meta);
    free(data);
}
END_TEST

/* The callback's locations are allocated when it is set: out of memory, the
 * reader has none and delivers the records (nothing leaked, nothing
 * located). */
START_TEST(test_located_nomem)
{
    char *meta;
    size_t len;
    uint8_t *data = write_trace(false, &len, &meta, NULL);
    tracerd_ctf_trace_t *t = parse(meta);
    tracerd_ctf_callbacks_t cb;
    callbacks(&cb);
    bool refused = false;
    for (unsigned long n = 1;; n++) {
        drv_alloc_t fa;
        drv_alloc_init(&fa, n);
        tracerd_ctf_stream_t *r = NULL;
        struct seen *s = calloc(1, sizeof *s);
        ck_assert_ptr_nonnull(s);
        if (tracerd_ctf_stream_new(t, NULL, &cb, s, &fa.a, &r) != TRACERD_OK) {
            free(s);
            continue; /* (the reader's own allocations) */
        }
        tracerd_status_t st = tracerd__ctf_stream_set_located(r, on_located);
        size_t used;
        tracerd_status_t fst = tracerd_ctf_stream_feed(r, data, len, &used);
        if (st == TRACERD_OK && fst == TRACERD_OK) { /* past every allocation */
            ck_assert_uint_eq(s->located, 33);
            tracerd_ctf_stream_free(r);
            ck_assert_int_eq(fa.live, 0);
            free(s);
            break;
        }
        if (st != TRACERD_OK) {
            ck_assert_int_eq(st, TRACERD_E_NOMEM);
            ck_assert_uint_eq(s->located, 0);
            refused = true;
            if (fst == TRACERD_OK)
                ck_assert_uint_eq(s->events, 36);
        }
        tracerd_ctf_stream_free(r);
        ck_assert_int_eq(fa.live, 0);
        free(s);
    }
    ck_assert(refused);
    tracerd_ctf_trace_free(t);
    free(meta);
    free(data);
}
END_TEST

/* The CLI's dump of that trace (its located templates, libtracerd/ctf/
 * located.h's client) against its record-by-record writer and against its
 * templates without locations, in both byte orders, whole, in chunks and
 * with small stitch buffers: integers of every size and sign, floats, a
 * label and a value without one, strings not UTF-8 (the "_hex" key), text
 * arrays, sequences whose elements' start moves. */
START_TEST(test_located_cli)
{
    CLI_OR_SKIP(cli);
    char *meta;
    size_t len;
    uint8_t *data = write_trace(_i != 0, &len, &meta, NULL);
    char tmpl[] = "/tmp/tracerd-located-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char path[256];
    snprintf(path, sizeof path, "%s/metadata", tmpl);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(meta, f), 0);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(path, sizeof path, "%s/stream", tmpl);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    static const char *const sets[][4] = {
        {"-q"}, {"-q", "--chunk", "100"}, {"-q", "-o", "ctf.stitch-bytes=64"}};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ck_assert_uint_eq(ev_run_both_ways(cli, "TRACERD_CLI_NO_TEMPLATES", "dump", sets[i], tmpl),
                          1);
        ck_assert_uint_eq(ev_run_both_ways(cli, "TRACERD_CLI_NO_LOCATED", "dump", sets[i], tmpl),
                          1);
    }
    ck_assert_int_eq(drv_rm_tree(tmpl), 0);
    free(meta);
    free(data);
}
END_TEST

/* ---- every CTF directory of tests/data and the peers ------------------------ */

struct walk {
    unsigned dirs, located_dirs;
    uint64_t located, ints, strings;
};

static void visit(void *ctx, const char *dir, bool is_dir)
{
    struct walk *w = ctx;
    char path[1100];
    snprintf(path, sizeof path, "%s/metadata", dir);
    FILE *f = is_dir ? fopen(path, "rb") : NULL;
    if (f == NULL)
        return;
    fclose(f);
    static const size_t chunks[] = {0, 64, 4096};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        struct seen *s = calloc(1, sizeof *s);
        ck_assert_ptr_nonnull(s);
        tracerd_ctf_callbacks_t cb;
        callbacks(&cb);
        tracerd_ctf_dir_config_t cfg;
        tracerd_ctf_dir_config_init(&cfg);
        if (chunks[c] != 0)
            cfg.chunk_bytes = chunks[c];
        tracerd_ctf_dir_t *d = NULL;
        if (tracerd_ctf_dir_open(dir, &cfg, &cb, s, NULL, &d) == TRACERD_OK) {
            ck_assert_int_eq(tracerd__ctf_dir_set_located(d, on_located), TRACERD_OK);
            while (tracerd_ctf_dir_run(d) == TRACERD_PAUSED)
                ;
        }
        tracerd_ctf_dir_free(d);
        if (c == 0) {
            w->dirs++;
            w->located_dirs += s->located != 0;
        }
        w->located += s->located;
        w->ints += s->ints;
        w->strings += s->strings;
        free(s);
    }
}

START_TEST(test_located_traces)
{
    struct walk w = {0, 0, 0, 0, 0};
    ev_walk_tree("tests/data/ctf", visit, &w);
    ev_walk_tree("../shared/peer-tests", visit, &w);
    fprintf(stderr, "located: %u CTF directories (%u with located events), %llu events, "
                    "%llu integers and %llu strings checked\n",
            w.dirs, w.located_dirs, (unsigned long long)w.located, (unsigned long long)w.ints,
            (unsigned long long)w.strings);
    ck_assert_uint_ge(w.located_dirs, 2); /* the recorded LTTng-UST traces at least */
    ck_assert_uint_gt(w.ints, 1000);
    ck_assert_uint_gt(w.strings, 10);
}
END_TEST

Suite *suite_ctf_located(void)
{
    Suite *s = suite_create("ctf_located");
    TCase *tc = tcase_create("located");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_located_stream, 0, 2);
    tcase_add_test(tc, test_located_nomem);
    tcase_add_loop_test(tc, test_located_errors, 0, 2);
    tcase_add_loop_test(tc, test_located_cli, 0, 2);
    tcase_add_test(tc, test_located_traces);
    suite_add_tcase(s, tc);
    return s;
}
