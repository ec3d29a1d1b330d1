/* CTF value slots (tracerd_ctf_metadata_config_t.value_names,
 * tracerd_ctf_event_t.values): the context integers a client names come
 * with every event, whatever path read it (the fast loop, the general
 * interpreter, the plans, an event streamed across chunks), equal to what
 * on_field delivers for the same field; names that are missing or not
 * integers give nothing. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tracerd/ctf.h>

#include "support/ctf_writer.h"
#include "support/driver.h"
#include "support/event_support.h"

/* ---- a target: the values logged at each event's end ---------------------- */

enum { VT_VALUES, VT_FIELDS, VT_CONTEXTS, VT_BATCH };

struct vcfg {
    const char *metadata;
    const tracerd_ctf_value_name_t *names;
    uint32_t nnames;
    size_t stitch_bytes; /* 0: the default */
    int mode;            /* VT_*: which callbacks deliver fields */
    uint64_t max_seq;    /* max_sequence_length; 0: the default */
};

/* What on_field delivered for the names in the event being read. */
struct vstate {
    tracerd_ctf_trace_t *trace;
    tracerd_ctf_stream_t *r;
    const tracerd_ctf_value_name_t *names;
    uint32_t nnames;
    uint64_t want[TRACERD_CTF_MAX_VALUE_NAMES];
    uint32_t want_set;
};

/* The field, when it is one of the names' integers, into the expectation. */
static void v_expect(struct vstate *s, const tracerd_ctf_field_t *f)
{
    if (f->depth != 1 || (f->kind != TRACERD_CTF_VALUE_INT && f->kind != TRACERD_CTF_VALUE_UINT))
        return;
    for (uint32_t i = 0; i < s->nnames; i++)
        if (s->names[i].scope == f->scope && strcmp(s->names[i].name, f->name) == 0) {
            s->want[i] = f->kind == TRACERD_CTF_VALUE_UINT ? f->v.u : (uint64_t)f->v.i;
            s->want_set |= 1u << i;
        }
}

static int v_begin(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    struct vstate *s = rec->extra;
    s->want_set = 0;
    tlog_printf(&rec->log, "E @%" PRIu64 " %s\n", e->offset, e->name);
    return rec_ret(rec);
}

/* "V set v0 v1 ..." (the set values, signed); with fields, each checked
 * against on_field's. */
static int v_end(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    struct vstate *s = rec->extra;
    REC_CHECK(rec, TRACERD_CTF_EVENT_HAS(e, values_set));
    tlog_printf(&rec->log, "V 0x%x", (unsigned)e->values_set);
    for (uint32_t i = 0; i < s->nnames; i++)
        if (e->values_set >> i & 1u)
            tlog_printf(&rec->log, " %" PRId64, (int64_t)e->values[i]);
    /* the members the fast loop sets once per packet */
    REC_CHECK(rec, e->size == sizeof *e && e->stream_class != NULL);
    tlog_printf(&rec->log, "\nP %" PRIu64 " %" PRIu64 "\n", e->packet_index,
                e->stream_class->id);
    return rec_ret(rec);
}

static int v_end_fields(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    struct vstate *s = rec->extra;
    REC_CHECK(rec, e->values_set == s->want_set);
    for (uint32_t i = 0; i < s->nnames; i++)
        if (s->want_set >> i & 1u)
            REC_CHECK(rec, e->values[i] == s->want[i]);
    return v_end(user, e);
}

static int v_field(void *user, const tracerd_ctf_field_t *f)
{
    rec_t *rec = user;
    v_expect(rec->extra, f);
    return rec_ret_uncounted(rec);
}

static int v_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    rec_t *rec = user;
    for (size_t i = 0; i < n; i++)
        v_expect(rec->extra, f + i);
    return rec_ret_uncounted(rec);
}

static tracerd_status_t v_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                               void **reader)
{
    const struct vcfg *c = config;
    struct vstate *s = calloc(1, sizeof *s);
    REC_CHECK(rec, s != NULL);
    rec->extra = s;
    s->names = c->names;
    s->nnames = c->nnames;
    tracerd_ctf_metadata_config_t mc;
    tracerd_ctf_metadata_config_init(&mc);
    mc.value_names = c->names;
    mc.nvalue_names = c->nnames;
    char reason[256];
    tracerd_status_t st = tracerd_ctf_trace_parse(c->metadata, strlen(c->metadata), &mc, alloc,
                                                  &s->trace, reason, sizeof reason);
    if (st != TRACERD_OK) {
        *reader = NULL;
        return st;
    }
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    cb.on_event_begin = v_begin;
    cb.on_event_end = c->mode == VT_VALUES ? v_end : v_end_fields;
    tracerd_ctf_stream_config_t sc;
    tracerd_ctf_stream_config_init(&sc);
    if (c->stitch_bytes)
        sc.stitch_bytes = c->stitch_bytes;
    if (c->max_seq)
        sc.max_sequence_length = c->max_seq;
    if (c->mode == VT_FIELDS || c->mode == VT_CONTEXTS)
        cb.on_field = v_field;
    if (c->mode == VT_BATCH)
        cb.on_fields = v_fields;
    if (c->mode == VT_CONTEXTS) /* the fast loop's contexts */
        sc.field_scopes = (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                          (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);
    st = tracerd_ctf_stream_new(s->trace, &sc, &cb, rec, alloc, &s->r);
    *reader = s->r;
    return st;
}

static void v_free(void *p)
{
    struct vstate *s = p;
    tracerd_ctf_trace_free(s->trace);
    free(s);
}

static const drv_target_t values_target = {"ctf-values", v_open, tracerd_ctf_stream_ops, v_free};

/* ---- a trace of every case -------------------------------------------------- */

/* Three stream classes. Stream 0's event context: a sequence and a string
 * (variable size) before vtid (a signed 5-bit field at a bit offset) and
 * vpid; its classes: a (event context tid a string, x an integer), b (tid
 * an integer, pid an enumeration), c (no event context). Stream 1's event
 * context: vtid a string, no vpid; its class d: tid a signed 32-bit
 * integer. Stream 2: every class of fixed size, e of fixed layout (the fast
 * loop loads its values in place), f not (its payload is more aligned than
 * the event context's first field). Stream 3: classes of fixed segments
 * between strings and sequences (the fast loop measures them in place): g
 * (a string, tid and the length n, a sequence of n 16-bit-aligned
 * elements, a string, a last segment), h (its payload a string alone). */
static const char *const META =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := s32;\n"
    "trace { major = 1; minor = 8; byte_order = %s;\n"
    "  packet.header := struct { u8 stream_id; }; };\n"
    "stream { id = 0; packet.context := struct { u32 packet_size; u32 content_size; };\n"
    "  event.header := struct { u8 id; };\n"
    "  event.context := struct { u8 n; u8 seq[n]; string s;\n"
    "    integer { size = 5; align = 1; signed = true; } _vtid; u16 vpid; }; };\n"
    "stream { id = 1; packet.context := struct { u32 packet_size; u32 content_size; };\n"
    "  event.header := struct { u8 id; };\n"
    "  event.context := struct { string vtid; u32 other; }; };\n"
    "event { name = a; id = 0; stream_id = 0; context := struct { string tid; u32 x; };\n"
    "  fields := struct { u32 v; }; };\n"
    "event { name = b; id = 1; stream_id = 0;\n"
    "  context := struct { u16 tid; enum : u8 { A = 0, B = 1 } pid; };\n"
    "  fields := struct { string t; }; };\n"
    "event { name = c; id = 2; stream_id = 0; fields := struct { u8 w; }; };\n"
    "event { name = d; id = 0; stream_id = 1; context := struct { s32 tid; };\n"
    "  fields := struct { u32 q; }; };\n"
    "stream { id = 2; packet.context := struct { u32 packet_size; u32 content_size; };\n"
    "  event.header := struct { u8 id; };\n"
    "  event.context := struct { u16 vpid; s32 vtid; }; };\n"
    "event { name = e; id = 0; stream_id = 2; context := struct { u8 p; u32 tid; };\n"
    "  fields := struct { u16 z; }; };\n"
    "event { name = f; id = 1; stream_id = 2; context := struct { u32 tid; };\n"
    "  fields := struct { integer { size = 32; align = 32; signed = false; } q; }; };\n"
    "stream { id = 3; packet.context := struct { u32 packet_size; u32 content_size; };\n"
    "  event.header := struct { u8 id; };\n"
    "  event.context := struct { u16 vpid; s32 vtid; }; };\n"
    "event { name = g; id = 0; stream_id = 3; context := struct { string s; u32 tid; u8 n; };\n"
    "  fields := struct { integer { size = 16; align = 16; signed = false; } v[n]; u8 x;\n"
    "    string t; u32 w; }; };\n"
    "event { name = h; id = 1; stream_id = 3; context := struct { u8 a; };\n"
    "  fields := struct { string t; }; };\n";

static const tracerd_ctf_value_name_t NAMES[] = {
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "vtid"},    /* 0 */
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "vpid"},    /* 1 */
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "tid"},            /* 2 */
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "pid"},            /* 3 */
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "missing"}, /* 4 */
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "x"},              /* 5 */
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "vpid"},           /* 6: the other scope's */
};
#define NNAMES (sizeof NAMES / sizeof NAMES[0])

/* One packet of stream class sid with events k0.. of the classes in ids. */
static void packet(cw_t *w, bool be, unsigned sid, const uint8_t *ids, unsigned n, unsigned k0,
                   unsigned long_string)
{
    size_t start = (size_t)(w->bits / 8);
    cw_int(w, sid, 8, be);
    cw_int(w, 0, 32, be); /* packet_size, content_size: patched */
    cw_int(w, 0, 32, be);
    for (unsigned i = 0; i < n; i++) {
        unsigned k = k0 + i;
        cw_int(w, ids[i], 8, be);
        if (sid == 0) {
            cw_int(w, k % 3, 8, be);
            for (unsigned j = 0; j < k % 3; j++)
                cw_int(w, j, 8, be);
            char s[600];
            size_t len = k == long_string ? 500 : k % 4;
            memset(s, 'a' + (int)(k % 26), len);
            s[len] = '\0';
            cw_str(w, s);
            cw_int(w, (uint64_t)(k % 32), 5, be); /* vtid: -16..15 */
            cw_align(w, 8);
            cw_int(w, 1000 + k, 16, be);
            if (ids[i] == 0) {
                cw_str(w, k % 2 ? "tid" : "");
                cw_int(w, 70000 + k, 32, be);
                cw_int(w, k, 32, be);
            } else if (ids[i] == 1) {
                cw_int(w, 2000 + k, 16, be);
                cw_int(w, k & 1, 8, be);
                cw_str(w, "t");
            } else {
                cw_int(w, k, 8, be);
            }
        } else if (sid == 2) {
            cw_int(w, 3000 + k, 16, be);
            cw_int(w, (uint64_t)(-(int64_t)k * 1000), 32, be);
            if (ids[i] == 0) {
                cw_int(w, 7, 8, be);
                cw_int(w, 4000 + k, 32, be);
                cw_int(w, k, 16, be);
            } else {
                cw_int(w, 5000 + k, 32, be);
                cw_align(w, 32);
                cw_int(w, k, 32, be);
            }
        } else if (sid == 3) {
            cw_int(w, 6000 + k, 16, be);
            cw_int(w, (uint64_t)(-(int64_t)k * 7), 32, be);
            char s[600];
            size_t len = k == long_string + 22 ? 500 : k % 5;
            memset(s, 'a' + (int)(k % 26), len);
            s[len] = '\0';
            if (ids[i] == 0) {
                cw_str(w, s);
                cw_int(w, 7000 + k, 32, be);
                cw_int(w, k % 4, 8, be);
                cw_align(w, 16);
                for (unsigned j = 0; j < k % 4; j++)
                    cw_int(w, 100 + j, 16, be);
                cw_int(w, k, 8, be);
                cw_str(w, k % 2 ? "t" : "");
                cw_int(w, k, 32, be);
            } else {
                cw_int(w, 9, 8, be);
                cw_str(w, s);
            }
        } else {
            cw_str(w, "vtid");
            cw_int(w, 5, 32, be);
            cw_int(w, (uint64_t)(-(int64_t)k - 1), 32, be);
            cw_int(w, k, 32, be);
        }
    }
    size_t content = (size_t)(w->bits / 8) - start;
    for (unsigned pad = 0; pad < 3 || w->bits % 64 != 0; pad++)
        cw_int(w, 0, 8, be); /* the next packet 8-byte aligned in the file */
    size_t size = (size_t)(w->bits / 8) - start;
    cw_patch(w, start + 1, size * 8, 32, be);
    cw_patch(w, start + 5, content * 8, 32, be);
}

static uint8_t *make_trace(bool be, size_t *len, unsigned long_string)
{
    static const uint8_t p0[] = {0, 1, 2, 1, 0, 0, 2, 1};
    static const uint8_t p1[] = {0, 0, 0};
    cw_t w;
    cw_init(&w);
    packet(&w, be, 0, p0, sizeof p0, 0, long_string);
    packet(&w, be, 1, p1, sizeof p1, 8, long_string);
    packet(&w, be, 0, p0, sizeof p0, 11, long_string);
    static const uint8_t p2[] = {0, 1, 0, 0, 1};
    packet(&w, be, 2, p2, sizeof p2, 19, long_string);
    static const uint8_t p3[] = {0, 0, 0, 1, 0, 1, 1, 0, 0};
    packet(&w, be, 3, p3, sizeof p3, 24, long_string);
    *len = (size_t)(w.bits / 8);
    return w.buf;
}

/* META in byte order be into meta (4096 bytes), and the trace. */
static uint8_t *make_case(bool be, char *meta, size_t *len, unsigned long_string)
{
    snprintf(meta, 4096, META, be ? "be" : "le");
    return make_trace(be, len, long_string);
}

/* Every target (no field, every field, the contexts only, on_fields) gives
 * the same values, equal to on_field's, in every split, with pauses and
 * allocation failures; both byte orders; an event longer than the stitch
 * buffer (streamed) among them in the second round. */
START_TEST(test_values_every_path)
{
    const bool be = _i & 1, big = _i >= 2;
    char meta[4096];
    size_t len;
    uint8_t *data = make_case(be, meta, &len, big ? 4 : UINT32_MAX);
    struct vcfg c = {meta, NAMES, NNAMES, big ? 128 : 0, VT_VALUES, 0};
    char *log = drv_check_all(&values_target, &c, data, len);
    ck_assert_msg(strstr(log, "end OK") != NULL, "%s", strstr(log, "end "));
    /* a: vtid, vpid, x (its tid is a string); b: vtid, vpid, tid, pid (an
     * enumeration); c: vtid, vpid; d: tid only (stream 1's vtid is a string,
     * it has no vpid) */
    ck_assert_ptr_nonnull(strstr(log, "E @9 a\nV 0x23 0 1000 70000\n"));
    ck_assert_ptr_nonnull(strstr(log, " b\nV 0xf 1 1001 2001 1\n"));
    ck_assert_ptr_nonnull(strstr(log, " c\nV 0x3 2 1002\n"));
    ck_assert_ptr_nonnull(strstr(log, " d\nV 0x4 -9\n"));
    ck_assert_ptr_nonnull(strstr(log, " a\nV 0x23 -16 1016 70016\n")); /* vtid 16: -16 */
    ck_assert_ptr_nonnull(strstr(log, " e\nV 0x7 -19000 3019 4019\n"));
    ck_assert_ptr_nonnull(strstr(log, " f\nV 0x7 -20000 3020 5020\n"));
    ck_assert_ptr_nonnull(strstr(log, " g\nV 0x7 -168 6024 7024\n"));
    ck_assert_ptr_nonnull(strstr(log, " h\nV 0x3 -189 6027\nP 4 3\n"));
    ck_assert_ptr_nonnull(strstr(log, " d\nV 0x4 -9\nP 1 1\n"));
    for (int mode = VT_FIELDS; mode <= VT_BATCH; mode++) {
        c.mode = mode;
        char *other = mode == VT_FIELDS ? drv_check_all(&values_target, &c, data, len)
                                        : drv_check_some(&values_target, &c, data, len);
        ck_assert_str_eq(other, log);
        free(other);
    }
    free(log);
    free(data);
}
END_TEST

/* The log of the values target with c on data, in every split: the same as
 * with every field delivered (VT_FIELDS, the general path). */
static char *values_as_fields(struct vcfg *c, const uint8_t *data, size_t len)
{
    char *log = drv_check_all(&values_target, c, data, len);
    const int mode = c->mode;
    c->mode = VT_FIELDS;
    char *other = drv_check_all(&values_target, c, data, len);
    c->mode = mode;
    ck_assert_str_eq(other, log);
    free(other);
    return log;
}

/* A read that stops inside an event (the input cut there) gives the
 * events before it, with their values, in every split. */
START_TEST(test_values_cut)
{
    const bool be = _i != 0;
    char meta[4096];
    size_t len;
    uint8_t *data = make_case(be, meta, &len, UINT32_MAX);
    for (size_t cut = len / 3; cut < len; cut += len / 3) {
        struct vcfg c = {meta, NAMES, NNAMES, 0, VT_VALUES, 0};
        char *log = values_as_fields(&c, data, cut);
        ck_assert_ptr_nonnull(strstr(log, "end E_"));
        free(log);
    }
    free(data);
}
END_TEST

/* A sequence longer than max_sequence_length in a class of fixed segments:
 * the fast loop leaves it to the general path, which stops the read with
 * the same error as with every field delivered; the events before it come
 * with their values. Every split, both byte orders. */
START_TEST(test_values_long_sequence)
{
    const bool be = _i != 0;
    char meta[4096];
    size_t len;
    uint8_t *data = make_case(be, meta, &len, UINT32_MAX);
    /* stream 3's g events 24, 25, 26, 28: sequences of 0, 1, 2, 0 elements; 31: 3 */
    struct vcfg c = {meta, NAMES, NNAMES, 0, VT_VALUES, 2};
    char *log = values_as_fields(&c, data, len);
    ck_assert_msg(strstr(log, "end E_LIMIT") != NULL, "%s", strstr(log, "end "));
    ck_assert_ptr_nonnull(strstr(log, " g\nV 0x7 -196 6028 7028\n"));
    ck_assert_ptr_null(strstr(log, " 6031 "));
    free(log);
    free(data);
}
END_TEST

/* The config: more than TRACERD_CTF_MAX_VALUE_NAMES, a scope other than
 * the event contexts, a NULL name or array: E_INVALID. No names: no
 * values (values_set 0) and the same model as without the member. */
START_TEST(test_values_config)
{
    tracerd_ctf_metadata_config_t mc;
    tracerd_ctf_metadata_t *m = NULL;
    tracerd_ctf_value_name_t many[TRACERD_CTF_MAX_VALUE_NAMES + 1];
    for (size_t i = 0; i < sizeof many / sizeof many[0]; i++)
        many[i] = (tracerd_ctf_value_name_t){TRACERD_CTF_SCOPE_EVENT_CONTEXT, "n"};
    tracerd_ctf_metadata_config_init(&mc);
    mc.value_names = many;
    mc.nvalue_names = TRACERD_CTF_MAX_VALUE_NAMES + 1;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&mc, NULL, &m), TRACERD_E_INVALID);
    mc.nvalue_names = TRACERD_CTF_MAX_VALUE_NAMES;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&mc, NULL, &m), TRACERD_OK);
    tracerd_ctf_metadata_free(m);
    many[3].scope = TRACERD_CTF_SCOPE_EVENT_FIELDS;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&mc, NULL, &m), TRACERD_E_INVALID);
    many[3].scope = TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT;
    many[5].name = NULL;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&mc, NULL, &m), TRACERD_E_INVALID);
    mc.value_names = NULL;
    mc.nvalue_names = 1;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&mc, NULL, &m), TRACERD_E_INVALID);
    /* the names are copied: the caller's may go after the model is made */
    char meta[4096];
    snprintf(meta, sizeof meta, META, "le");
    char name[8] = "vpid";
    tracerd_ctf_value_name_t one = {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, name};
    tracerd_ctf_metadata_config_init(&mc);
    mc.value_names = &one;
    mc.nvalue_names = 1;
    tracerd_ctf_trace_t *t = NULL;
    char reason[200];
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), &mc, NULL, &t, reason,
                                             sizeof reason),
                     TRACERD_OK);
    strcpy(name, "zzzz");
    tracerd_ctf_trace_free(t);
}
END_TEST

/* ---- every CTF trace of the tests and the peer suites ----------------------- */

struct walk {
    tracerd_ctf_value_name_t names[TRACERD_CTF_MAX_VALUE_NAMES];
    uint32_t n;
    uint64_t want[TRACERD_CTF_MAX_VALUE_NAMES];
    uint32_t want_set, events, checked, bad;
    uint64_t hash;
};

static void add_names(struct walk *w, const tracerd_ctf_type_t *t, tracerd_ctf_scope_t scope)
{
    if (t == NULL || t->kind != TRACERD_CTF_TYPE_STRUCT)
        return;
    for (uint32_t k = 0; k < t->nmembers && w->n < TRACERD_CTF_MAX_VALUE_NAMES; k++) {
        bool seen = false;
        for (uint32_t i = 0; i < w->n; i++)
            seen = seen || (w->names[i].scope == scope &&
                            strcmp(w->names[i].name, t->members[k].display) == 0);
        if (!seen)
            w->names[w->n++] = (tracerd_ctf_value_name_t){scope, t->members[k].display};
    }
}

static int w_begin(void *user, const tracerd_ctf_event_t *e)
{
    struct walk *w = user;
    (void)e;
    w->want_set = 0;
    return 0;
}

static int w_field(void *user, const tracerd_ctf_field_t *f)
{
    struct walk *w = user;
    if (f->depth != 1 || (f->kind != TRACERD_CTF_VALUE_INT && f->kind != TRACERD_CTF_VALUE_UINT))
        return 0;
    for (uint32_t i = 0; i < w->n; i++)
        if (w->names[i].scope == f->scope && strcmp(w->names[i].name, f->name) == 0) {
            w->want[i] = f->v.u;
            w->want_set |= 1u << i;
        }
    return 0;
}

static void fold(struct walk *w, uint64_t v)
{
    w->hash = (w->hash ^ v) * 0x100000001B3ull;
}

/* With fields: the values against on_field's; every run: their hash. */
static int w_end(void *user, const tracerd_ctf_event_t *e)
{
    struct walk *w = user;
    w->events++;
    fold(w, e->values_set);
    for (uint32_t i = 0; i < w->n; i++)
        if (e->values_set >> i & 1u) {
            fold(w, e->values[i]);
            w->checked++;
        }
    return 0;
}

static int w_end_fields(void *user, const tracerd_ctf_event_t *e)
{
    struct walk *w = user;
    bool ok = e->values_set == w->want_set;
    for (uint32_t i = 0; ok && i < w->n; i++)
        ok = !(w->want_set >> i & 1u) || e->values[i] == w->want[i];
    w->bad += !ok;
    return w_end(user, e);
}

/* Reads the trace directory dir with the names its classes' contexts have
 * (strings, compounds and all), through on_field, through the contexts
 * only and through no field: the same values, equal to on_field's. */
static void check_dir(const char *dir, uint32_t *events, uint32_t *values)
{
    tracerd_ctf_dir_t *d = NULL;
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    struct walk w;
    memset(&w, 0, sizeof w);
    if (tracerd_ctf_dir_open(dir, NULL, &cb, &w, NULL, &d) != TRACERD_OK) {
        tracerd_ctf_dir_free(d);
        return;
    }
    /* the names (pointing into the first models, kept open meanwhile) */
    for (uint32_t i = 0; i < tracerd_ctf_dir_trace_count(d); i++) {
        const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(tracerd_ctf_dir_trace(d, i));
        for (uint32_t s = 0; s < in->nstreams; s++) {
            add_names(&w, in->streams[s]->event_context, TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT);
            for (uint32_t k = 0; k < in->streams[s]->nevents; k++)
                add_names(&w, in->streams[s]->events[k]->context, TRACERD_CTF_SCOPE_EVENT_CONTEXT);
        }
    }
    tracerd_ctf_metadata_config_t mc;
    tracerd_ctf_metadata_config_init(&mc);
    mc.value_names = w.names;
    mc.nvalue_names = w.n;
    tracerd_ctf_stream_config_t sc;
    tracerd_ctf_stream_config_init(&sc);
    tracerd_ctf_dir_config_t dc;
    tracerd_ctf_dir_config_init(&dc);
    dc.metadata = &mc;
    dc.stream = &sc;
    uint64_t hash[3];
    uint32_t n[3];
    for (int pass = 0; pass < 3; pass++) {
        tracerd_ctf_callbacks_init(&cb);
        cb.on_event_begin = w_begin;
        cb.on_event_end = pass == 2 ? w_end : w_end_fields;
        cb.on_field = pass == 2 ? NULL : w_field;
        sc.field_scopes = pass == 1 ? (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                          (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT)
                                    : 0;
        w.hash = 0xCBF29CE484222325ull;
        w.events = w.checked = 0;
        tracerd_ctf_dir_t *v = NULL;
        tracerd_status_t st = tracerd_ctf_dir_open(dir, &dc, &cb, &w, NULL, &v);
        while (st == TRACERD_OK && (st = tracerd_ctf_dir_run(v)) == TRACERD_PAUSED)
            ;
        tracerd_ctf_dir_free(v);
        hash[pass] = w.hash;
        n[pass] = w.events;
        if (pass == 0) {
            *events += w.events;
            *values += w.checked;
        }
    }
    tracerd_ctf_dir_free(d);
    ck_assert_msg(w.bad == 0, "%s: %u events whose values differ from on_field's", dir, w.bad);
    ck_assert_msg(hash[0] == hash[1] && hash[0] == hash[2] && n[0] == n[2],
                  "%s: the values differ between the paths", dir);
}

struct counts {
    uint32_t dirs, events, values;
};

/* Each folder holding a metadata file (ev_walk_tree's visit). */
static void visit(void *ctx, const char *path, bool is_dir)
{
    struct counts *n = ctx;
    char p[2048];
    snprintf(p, sizeof p, "%s/metadata", path);
    struct stat st;
    if (is_dir && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
        check_dir(path, &n->events, &n->values);
        n->dirs++;
    }
}

START_TEST(test_values_every_trace)
{
    struct counts n = {0, 0, 0};
    ev_walk_tree("tests/data", visit, &n);
    const char *peer = drv_peer_dir();
    if (peer != NULL) {
        char p[1024];
        snprintf(p, sizeof p, "%s/ctf", peer);
        ev_walk_tree(p, visit, &n);
    }
    ck_assert_uint_gt(n.dirs, 10);
    ck_assert_uint_gt(n.events, 1000);
    ck_assert_uint_gt(n.values, 300);
}
END_TEST

Suite *suite_ctf_values(void);
Suite *suite_ctf_values(void)
{
    Suite *s = suite_create("ctf_values");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_values_every_path, 0, 4);
    tcase_add_loop_test(tc, test_values_cut, 0, 2);
    tcase_add_loop_test(tc, test_values_long_sequence, 0, 2);
    tcase_add_test(tc, test_values_config);
    tcase_add_test(tc, test_values_every_trace);
    suite_add_tcase(s, tc);
    return s;
}
