/* CTF reader tests: metadata (TSDL, packetized, appended, errors, allocation
 * failures), the stream reader on the writer's feature trace in both byte
 * orders through every split/pause/allocation plan, data errors with their
 * offsets and field paths, lenient packet skipping. The directory reader and
 * the peer traces: tests/check_ctf_dir.c. */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracerd/ctf.h>

#include "../libtracerd/ctf/ctf_internal.h"
#include "support/ctf_check.h"
#include "support/ctf_peer.h"
#include "support/ctf_recorder.h"
#include "support/ctf_text.h"
#include "support/ctf_writer.h"
#include "support/driver.h"

/* Offset of the first "F @N ... <path> ..." line for path. */
static uint64_t field_offset(const char *log, const char *path)
{
    char needle[256];
    snprintf(needle, sizeof needle, " %s ", path);
    const char *p = strstr(log, needle);
    ck_assert_msg(p != NULL, "no field %s in log", path);
    while (p > log && p[-1] != '\n')
        p--;
    ck_assert(p[0] == 'F' && p[1] == ' ' && p[2] == '@');
    return strtoull(p + 3, NULL, 10);
}

static uint64_t line_offset(const char *log, const char *prefix, int nth)
{
    size_t pl = strlen(prefix);
    for (const char *p = log; p && *p;) {
        if (strncmp(p, prefix, pl) == 0 && nth-- == 0) {
            const char *at = strchr(p, '@');
            return strtoull(at + 1, NULL, 10);
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    ck_abort_msg("no line %s", prefix);
    return 0;
}

/* ==== metadata ============================================================= */

START_TEST(test_metadata_model)
{
    char *meta = ctf_writer_metadata(false);
    tracerd_ctf_trace_t *t;
    char reason[256];
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, reason,
                                             sizeof reason),
                     TRACERD_OK);
    const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
    ck_assert_uint_eq(in->major, 1);
    ck_assert_uint_eq(in->minor, 8);
    ck_assert(in->has_uuid);
    ck_assert_uint_eq(in->uuid[0], 0x2a);
    ck_assert_uint_eq(in->uuid[15], 0x64);
    ck_assert_int_eq(in->byte_order, TRACERD_BYTE_ORDER_LITTLE);
    ck_assert_uint_eq(in->nclocks, 1);
    ck_assert_str_eq(in->clocks[0].name, "monotonic");
    ck_assert_str_eq(in->clocks[0].description, "writer \"clock\"\tone");
    ck_assert_uint_eq(in->clocks[0].freq, 1000000000u);
    ck_assert_int_eq(in->clocks[0].offset_s, 1600000000);
    ck_assert_int_eq(in->clocks[0].offset, 500);
    ck_assert(in->clocks[0].absolute);
    ck_assert(in->clocks[0].has_uuid);
    ck_assert_uint_eq(in->nenv, 4);
    ck_assert_str_eq(tracerd_ctf_trace_env(t, "hostname"), "writer");
    ck_assert_str_eq(in->env[3].key, "vpid");
    ck_assert_int_eq(in->env[3].value, -1);
    ck_assert_ptr_null(in->env[3].str);
    ck_assert_uint_eq(in->nstreams, 1);
    ck_assert_uint_eq(in->nevents, 3);
    const tracerd_ctf_stream_class_t *sc = tracerd_ctf_trace_stream_class(t, 7);
    ck_assert_ptr_nonnull(sc);
    ck_assert_ptr_null(tracerd_ctf_trace_stream_class(t, 0));
    ck_assert_uint_eq(sc->nevents, 3);
    const tracerd_ctf_event_class_t *ev = tracerd_ctf_trace_event_class(t, 7, 0);
    ck_assert_str_eq(ev->name, "test:ints");
    ck_assert(ev->has_loglevel);
    ck_assert_int_eq(ev->loglevel, 13);
    ck_assert_str_eq(ev->emf_uri, "http://example.com/ints");
    const tracerd_ctf_type_t *f = ev->fields;
    ck_assert_int_eq(f->kind, TRACERD_CTF_TYPE_STRUCT);
    ck_assert_uint_eq(f->nmembers, 10);
    ck_assert_uint_eq(f->align_bits, 64);
    ck_assert_str_eq(f->members[1].name, "u13");
    ck_assert_uint_eq(f->members[1].type->size_bits, 13);
    ck_assert_uint_eq(f->members[1].type->align_bits, 1);
    ck_assert_uint_eq(f->members[3].type->base, 16);
    ck_assert_int_eq(f->members[3].type->byte_order, TRACERD_BYTE_ORDER_BIG);
    ck_assert_int_eq(f->members[1].type->byte_order, TRACERD_BYTE_ORDER_LITTLE);
    ck_assert_int_eq(f->members[6].type->kind, TRACERD_CTF_TYPE_FLOAT);
    ck_assert_uint_eq(f->members[6].type->mant_dig, 24);
    const tracerd_ctf_event_class_t *cp = tracerd_ctf_trace_event_class(t, 7, 1);
    const tracerd_ctf_type_t *e = cp->fields->members[6].type;
    ck_assert_int_eq(e->kind, TRACERD_CTF_TYPE_ENUM);
    ck_assert_uint_eq(e->nmappings, 5);
    ck_assert_str_eq(e->mappings[2].label, "quoted label");
    ck_assert_int_eq(e->mappings[3].lo, 10);
    ck_assert_int_eq(e->mappings[3].hi, 20);
    ck_assert_int_eq(e->mappings[4].lo, 21);
    const tracerd_ctf_type_t *y = cp->fields->members[8].type->members[2].type;
    ck_assert_int_eq(y->kind, TRACERD_CTF_TYPE_ARRAY);
    ck_assert_uint_eq(y->length, 2);
    ck_assert_uint_eq(y->element->length, 3);
    ck_assert_str_eq(cp->fields->members[9].type->path, "stream.packet.context.cpu_id");
    ck_assert_int_eq(cp->fields->members[7].type->kind, TRACERD_CTF_TYPE_VARIANT);
    ck_assert_str_eq(cp->fields->members[7].type->members[3].display, "LAST");
    ck_assert_ptr_nonnull(tracerd_ctf_trace_event_class(t, 7, 40));
    ck_assert_str_eq(tracerd_ctf_type_kind_name(TRACERD_CTF_TYPE_SEQUENCE), "sequence");
    tracerd_ctf_trace_free(t);
    free(meta);
}
END_TEST

struct meta_warns {
    int n;
    char last[256];
};

static int note_meta_warning(void *user, const tracerd_warning_t *w)
{
    struct meta_warns *mw = user;
    mw->n++;
    snprintf(mw->last, sizeof mw->last, "%s @%llu skip=%llu %s", tracerd_status_name(w->status),
             (unsigned long long)w->offset, (unsigned long long)w->skipped_bytes, w->reason);
    return TRACERD_CB_CONTINUE;
}

/* The same model from text fed byte by byte and from packetized metadata. */
START_TEST(test_metadata_chunked_and_packetized)
{
    for (int big = 0; big < 2; big++) {
        char *meta = ctf_writer_metadata(big);
        size_t plen;
        uint8_t *pk = ctf_writer_packetize(meta, big, 128, &plen);
        for (int mode = 0; mode < 3; mode++) {
            tracerd_ctf_metadata_t *m;
            ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
            const uint8_t *src = mode == 0 ? (const uint8_t *)meta : pk;
            size_t n = mode == 0 ? strlen(meta) : plen;
            size_t step = mode == 2 ? 7 : 1;
            for (size_t o = 0; o < n; o += step)
                ck_assert_int_eq(tracerd_ctf_metadata_feed(m, src + o, n - o < step ? n - o : step),
                                 TRACERD_OK);
            tracerd_ctf_trace_t *t;
            ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_OK);
            tracerd_str_t text = tracerd_ctf_metadata_text(m);
            ck_assert_uint_eq(text.len, strlen(meta));
            ck_assert(memcmp(text.data, meta, text.len) == 0);
            ck_assert_uint_eq(tracerd_ctf_trace_info(t)->nevents, 3);
            ck_assert_int_eq(tracerd_ctf_trace_info(t)->byte_order,
                             big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE);
            tracerd_ctf_trace_free(t);
            tracerd_ctf_metadata_free(m);
        }
        /* a packet cut short */
        tracerd_ctf_metadata_t *m;
        ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
        ck_assert_int_eq(tracerd_ctf_metadata_feed(m, pk, 100), TRACERD_OK);
        tracerd_ctf_trace_t *t;
        ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_E_TRUNCATED);
        ck_assert_ptr_null(t);
        tracerd_ctf_metadata_free(m);
        /* issue 12: a stray tail too short to be a metadata packet (an LTTng
         * quirk babeltrace2 accepts) is ignored with a warning; a tail of a
         * whole header announcing more than is there is still E_TRUNCATED */
        for (size_t tail = 1; tail < 37; tail += 35) {
            uint8_t *tk = malloc(plen + tail);
            memcpy(tk, pk, plen);
            memset(tk + plen, 0xc1, tail);
            struct meta_warns mw = {0, ""};
            tracerd_ctf_metadata_config_t mc;
            tracerd_ctf_metadata_config_init(&mc);
            mc.on_warning = note_meta_warning;
            mc.user = &mw;
            ck_assert_int_eq(tracerd_ctf_metadata_new(&mc, NULL, &m), TRACERD_OK);
            for (size_t o = 0; o < plen + tail; o += 5)
                ck_assert_int_eq(
                    tracerd_ctf_metadata_feed(m, tk + o, plen + tail - o < 5 ? plen + tail - o : 5),
                    TRACERD_OK);
            ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_OK);
            ck_assert_uint_eq(tracerd_ctf_trace_info(t)->nevents, 3);
            ck_assert_int_eq(mw.n, 1);
            char want[200];
            snprintf(want, sizeof want,
                     "E_TRUNCATED @%zu skip=%zu metadata stream: %zu bytes after the last packet "
                     "are too short to be a metadata packet (37-byte header): ignored",
                     plen, tail, tail);
            ck_assert_str_eq(mw.last, want);
            tracerd_ctf_trace_free(t);
            tracerd_ctf_metadata_free(m);
            free(tk);
        }
        /* compressed scheme */
        pk[32] = 1;
        ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
        ck_assert_int_eq(tracerd_ctf_metadata_feed(m, pk, plen), TRACERD_E_UNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(tracerd_ctf_metadata_error_reason(m), "compression"));
        tracerd_ctf_metadata_free(m);
        free(pk);
        free(meta);
    }
}
END_TEST

/* Live traces append metadata: each finish gives a model of all text so far. */
START_TEST(test_metadata_append)
{
    char *meta = ctf_writer_metadata(false);
    const char *cut = strstr(meta, "event {\n\tname = \"test:compound\"");
    ck_assert_ptr_nonnull(cut);
    size_t first = (size_t)(cut - meta);
    tracerd_ctf_metadata_t *m;
    ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta, first), TRACERD_OK);
    tracerd_ctf_trace_t *t1, *t2;
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t1), TRACERD_OK);
    ck_assert_uint_eq(tracerd_ctf_trace_info(t1)->nevents, 1);
    /* a partial statement is an error, but more text may follow */
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta + first, 20), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t2), TRACERD_E_METADATA);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta + first + 20, strlen(meta) - first - 20),
                     TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t2), TRACERD_OK);
    ck_assert_uint_eq(tracerd_ctf_trace_info(t2)->nevents, 3);
    ck_assert_uint_eq(tracerd_ctf_trace_info(t1)->nevents, 1); /* the old model is untouched */
    /* a stream reader moves to the newer model */
    tracerd_ctf_stream_t *r;
    ck_assert_int_eq(tracerd_ctf_stream_new(t1, NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_stream_set_trace(r, t2), TRACERD_OK);
    size_t len;
    uint8_t *data = ctf_writer_stream(false, &len);
    size_t used;
    ck_assert_int_eq(tracerd_ctf_stream_feed(r, data, len, &used), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
    tracerd_ctf_stream_free(r);
    free(data);
    tracerd_ctf_trace_free(t1);
    tracerd_ctf_trace_free(t2);
    tracerd_ctf_metadata_free(m);
    free(meta);
}
END_TEST

static const struct merr {
    const char *text;
    tracerd_status_t st;
    uint32_t line, col;
    const char *reason;
} merrs[] = {
    {"/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; ]", TRACERD_E_METADATA, 2, 48,
     "expected an attribute name, a declaration or '}'"},
    {"trace { major = 1; minor = 8; byte_order = le; };\nevent { name = x; fields := struct { "
     "uint32_t a; }; };",
     TRACERD_E_METADATA, 2, 38, "unknown type 'uint32_t'"},
    {"trace { major = 1; minor = 8; byte_order = xx; };", TRACERD_E_METADATA, 1, 44,
     "expected le, be or network"},
    {"trace { major = 1; minor = 8; };", TRACERD_E_METADATA, 1, 1, "without byte_order"},
    {"trace { major = 2; minor = 0; byte_order = le; };", TRACERD_E_VERSION, 0, 0, "2.0"},
    {"typealias integer { size = 65; } := x;", TRACERD_E_METADATA, 1, 28, "1 to 64"},
    {"typealias integer { align = 3; size = 8; } := x;", TRACERD_E_METADATA, 1, 29,
     "power of two"},
    {"typealias integer { size = 8; } := x;\ntrace { major = 1; minor = 8; byte_order = le; };\n"
     "event { name = e; fields := struct { x a; x b[c]; }; };",
     TRACERD_E_METADATA, 3, 46, "length field 'c' is not declared"},
    {"typealias integer { size = 8; signed = true; } := x;\ntrace { major = 1; minor = 8; "
     "byte_order = le; };\nevent { name = e; fields := struct { x c; x b[c]; }; };",
     TRACERD_E_METADATA, 3, 46, "not an unsigned integer"},
    {"typealias integer { size = 8; } := x;\ntrace { major = 1; minor = 8; byte_order = le; };\n"
     "event { name = e; fields := struct { x c; variant <c> { x a; } v; }; };",
     TRACERD_E_METADATA, 3, 43, "not an enumeration"},
    {"typealias integer { size = 8; } := x;\ntrace { major = 1; minor = 8; byte_order = le; };\n"
     "event { name = e; stream_id = 3; };",
     TRACERD_E_METADATA, 3, 1, "stream 3, which is not declared"},
    {"typealias integer { size = 8; map = clock.nope.value; } := x;\ntrace { major = 1; minor = "
     "8; byte_order = le; };\nevent { name = e; fields := struct { x a; }; };",
     TRACERD_E_METADATA, 1, 11, "clock 'nope'"},
    {"trace { major = 1; minor = 8; byte_order = le; };\nevent { name = \"e\"; id = 1; };\nevent { "
     "name = \"f\"; id = 1; };",
     TRACERD_E_METADATA, 3, 1, "share id 1"},
    {"/* open comment", TRACERD_E_METADATA, 1, 1, "comment is not closed"},
    {"trace { major = 1; minor = 8; byte_order = le; };\nevent { name = \"e\";", TRACERD_E_METADATA,
     2, 20, "expected '}' to close the block opened at line 2"},
    {"typealias floating_point { exp_dig = 5; mant_dig = 11; } := h;\ntrace { major = 1; minor = "
     "8; byte_order = le; };\nevent { name = e; fields := struct { h a; }; };",
     TRACERD_E_UNSUPPORTED, 1, 11, "exp_dig 5"},
    {"trace { major = 1; minor = 8; byte_order = le; };\n@", TRACERD_E_METADATA, 2, 1,
     "unexpected character"},
    {"enum e : integer { size = 8; } { A = 0x } ;", TRACERD_E_METADATA, 1, 38, "without digits"},
};

START_TEST(test_metadata_errors)
{
    for (size_t i = 0; i < sizeof merrs / sizeof merrs[0]; i++) {
        tracerd_ctf_metadata_t *m;
        ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
        ck_assert_int_eq(tracerd_ctf_metadata_feed(m, merrs[i].text, strlen(merrs[i].text)),
                         TRACERD_OK);
        tracerd_ctf_trace_t *t;
        tracerd_status_t st = tracerd_ctf_metadata_finish(m, &t);
        const char *why = tracerd_ctf_metadata_error_reason(m);
        ck_assert_msg(st == merrs[i].st, "case %zu: status %s (%s)", i, tracerd_status_name(st),
                      why);
        ck_assert_msg(strstr(why, merrs[i].reason) != NULL, "case %zu: reason '%s'", i, why);
        ck_assert_msg(tracerd_ctf_metadata_line(m) == merrs[i].line &&
                          tracerd_ctf_metadata_column(m) == merrs[i].col,
                      "case %zu: at %u:%u, want %u:%u (%s)", i, tracerd_ctf_metadata_line(m),
                      tracerd_ctf_metadata_column(m), merrs[i].line, merrs[i].col, why);
        ck_assert_ptr_null(t);
        tracerd_ctf_metadata_free(m);
    }
}
END_TEST

/* Unknown attributes are warnings; odd but valid TSDL is accepted. */
static int count_warn(void *user, const tracerd_warning_t *w)
{
    (*(int *)user)++;
    ck_assert_ptr_nonnull(strstr(w->reason, "ignored"));
    return 0;
}

START_TEST(test_metadata_lenient_syntax)
{
    const char *text =
        "/* CTF 1.8 */\r\n"
        "typealias integer { size = 32; align = 8; signed = false; blah = 3; } := unsigned int;\r\n"
        "typealias integer { size = 8; align = 8; signed = false; base = x; encoding = UTF8; } "
        ":= char_t;\n"
        "typedef struct { unsigned int a; } pair_t;\n"
        "trace { major = 1; minor = 8; byte_order = network; extra = \"x\"; };\n"
        "clock { name = \"c\"; freq = 1000; };\n"
        "clock { name = \"c\"; freq = 2000; };\n"
        "stream { packet.context := struct { unsigned int content_size; unsigned int packet_size; "
        "}; unknown := struct { unsigned int z; }; };\n"
        "enum big : integer { size = 64; } { MAX = 18446744073709551615, NEG = -1 ... 3, };\n"
        "event { name = e; fields := struct { pair_t p; enum big e; char_t s[4]; "
        "variant v { unsigned int a; pair_t b; }; }; };\n";
    int warnings = 0;
    tracerd_ctf_metadata_config_t cfg;
    tracerd_ctf_metadata_config_init(&cfg);
    cfg.on_warning = count_warn;
    cfg.user = &warnings;
    tracerd_ctf_trace_t *t;
    char reason[256] = "";
    tracerd_status_t st = tracerd_ctf_trace_parse(text, strlen(text), &cfg, NULL, &t, reason,
                                                  sizeof reason);
    ck_assert_msg(st == TRACERD_OK, "%s", reason);
    ck_assert_int_eq(warnings, 4);
    const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
    ck_assert_int_eq(in->byte_order, TRACERD_BYTE_ORDER_BIG);
    ck_assert_uint_eq(in->nclocks, 1);
    ck_assert_uint_eq(in->clocks[0].freq, 1000);
    const tracerd_ctf_event_class_t *ev = tracerd_ctf_trace_event_class(t, 0, 0);
    ck_assert_uint_eq(ev->fields->members[1].type->mappings[0].lo, -1); /* UINT64_MAX as bits */
    ck_assert_int_eq(ev->fields->members[2].type->element->encoding, TRACERD_CTF_ENCODING_UTF8);
    tracerd_ctf_trace_free(t);
}
END_TEST

START_TEST(test_metadata_limits_and_alloc)
{
    /* nesting deeper than max_depth */
    char deep[4096] = "trace { major = 1; minor = 8; byte_order = le; };\n"
                      "typealias integer { size = 8; } := u8;\nevent { name = e; fields := ";
    for (int i = 0; i < 70; i++)
        strcat(deep, "struct { ");
    strcat(deep, "u8 x; ");
    for (int i = 0; i < 70; i++)
        strcat(deep, i == 69 ? "}; " : "} s; ");
    strcat(deep, "};");
    tracerd_ctf_trace_t *t;
    char reason[256];
    ck_assert_int_eq(tracerd_ctf_trace_parse(deep, strlen(deep), NULL, NULL, &t, reason,
                                             sizeof reason),
                     TRACERD_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(reason, "nesting level 65: deeper than max_depth (64)"));
    tracerd_ctf_metadata_config_t cfg;
    tracerd_ctf_metadata_config_init(&cfg);
    cfg.max_metadata_bytes = 100;
    tracerd_ctf_metadata_t *m;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&cfg, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, deep, 101), TRACERD_E_LIMIT);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, deep, 1), TRACERD_E_LIMIT); /* sticky */
    tracerd_ctf_metadata_reset(m);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, deep, 10), TRACERD_OK);
    tracerd_ctf_metadata_free(m);
    /* every allocation of the parser and compiler may fail, without a leak */
    char *meta = ctf_writer_metadata(true);
    for (unsigned long n = 1;; n++) {
        drv_alloc_t fa;
        drv_alloc_init(&fa, n);
        tracerd_status_t st = tracerd_ctf_trace_parse(meta, strlen(meta), NULL, &fa.a, &t, reason,
                                                      sizeof reason);
        if (st == TRACERD_OK)
            tracerd_ctf_trace_free(t);
        ck_assert_msg(fa.live == 0, "failure %lu leaked %ld", n, fa.live);
        if (fa.calls < n) {
            ck_assert_int_eq(st, TRACERD_OK);
            break;
        }
        ck_assert_int_eq(st, TRACERD_E_NOMEM);
    }
    free(meta);
}
END_TEST

/* ==== the stream reader on the feature trace ============================== */

static char *run_writer(bool big)
{
    char *meta = ctf_writer_metadata(big);
    size_t len;
    uint8_t *data = ctf_writer_stream(big, &len);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = drv_check_all(&ctf_target, &c, data, len);
    check_fast_path(meta, data, len, log);
    free(data);
    free(meta);
    return log;
}

START_TEST(test_stream_feature_trace)
{
    char *le = run_writer(false);
    char *be = run_writer(true);
    if (getenv("TRACERD_CTF_DUMP"))
        fputs(le, stderr);
    /* Both byte orders give the same records, offsets and values. */
    ck_assert_str_eq(le, be);
    ck_assert_uint_eq(count_lines(le, "E @"), 11);
    ck_assert_uint_eq(count_lines(le, "P @"), 3);
    ck_assert_uint_eq(count_lines(le, "p @"), 3);
    ck_assert_ptr_nonnull(strstr(le, "end OK"));
    static const char *const want[] = {
        "P @0 i=0 sid=7 inst=1234605616436508552 content=",
        "E @84 test:ints id=0 cyc=4294967306 ns=1600000004294967806\n",
        " s5 d1 INT event.fields.s3 s3 = 2\n",
        " s5 d1 UINT event.fields.u13 u13 = 6844\n",
        " s5 d1 INT event.fields.s64 s64 = -1234567890123456789\n",
        " s5 d1 UINT event.fields.ox ox = 48879\n",
        " s5 d1 INT event.fields.oct oct = -83\n",
        " s5 d1 FLOAT event.fields.f32 f32 = 1.5\n",
        " s5 d1 FLOAT event.fields.f64 f64 = -2.25\n",
        " s5 d1 UINT event.fields.flag flag = 1\n",
        " s5 d1 UINT event.fields.u63 u63 = 8152436061464415727\n",
        " s3 d1 INT stream.event.context.vtid vtid = -42\n",
        " s3 d1 STR stream.event.context.procname procname = \"writer\"\n",
        " s2 d1 UINT stream.event.header.id id = 0 (compact)\n",
        " s2 d1 V< stream.event.header.v v opt=compact\n",
        " s5 d1 STR event.fields.text text = \"text\"\n",
        " s5 d1 Q[ event.fields.seq seq n=3 bytes=010203\n",
        " s5 d2 UINT event.fields.seq  [2] = 3\n",
        " s5 d1 STR event.fields.tseq tseq = \"abc\"\n",
        " s5 d1 UINT event.fields.e e = 12 (RANGE)\n",
        " s5 d1 V< event.fields.v v opt=RANGE\n",
        " s5 d3 UINT event.fields.v.RANGE.b b = 72623859790382856\n",
        " s5 d1 UINT event.fields.e e = 21 (_LAST)\n",
        " s5 d1 V< event.fields.v v opt=LAST\n",
        " s5 d4 UINT event.fields.nested.y  [2] = 50\n",
        " s5 d1 Q[ event.fields.cpus cpus n=2\n",
        " s5 d1 Q[ event.fields.bytes_ctx bytes_ctx n=2 bytes=feff\n",
        " s5 d1 A[ event.fields.after after n=0\n",
        " s5 d1 INT event.fields.se se = -3 (NEG)\n",
        " s5 d1 S{ event.fields.empty empty\n",
        " s5 d1 STR event.fields.msg msg = \"with \"quotes\"\\x0a\"\n",
        "E @", /* extended header: */
        " test:ext id=40 cyc=4294967346 ",
        " s5 d1 UINT event.fields.big big = 18364758544493064720\n",
        "test:ints id=0 cyc=4429185008 ",  /* t0 + 0x7fffff0 */
        "test:ints id=0 cyc=4429185040 ",  /* wrapped 27-bit timestamp */
        "test:ints id=0 cyc=4831838208 ",  /* extended: too far */
        "L @", " events 3 4831838208..4831838464\n",
        " packets 1 4831838464..4831838720\n",
        " cpu=0\n",
        " s5 d1 Q[ event.fields.cpus cpus n=0\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(le, want[i]) != NULL, "missing: %s", want[i]);
    free(le);
    free(be);
}
END_TEST

/* LTTng-UST's large event header (16-bit id and 32-bit timestamp, or id
 * 65535 and the extended 32-bit id and 64-bit timestamp), which the fast
 * path reads inline in little-endian traces: compact and extended headers,
 * a timestamp that wraps, both byte orders give the same records, and the
 * fast path (contexts only, events only) agrees with the general path under
 * every split. */
static char *large_header_metadata(bool big)
{
    static const char fmt[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
        "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
        "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
        "trace { major = 1; minor = 8; byte_order = %s;\n"
        "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
        "struct event_header_large {\n"
        "  enum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
        "  variant <id> { struct { uint32_t timestamp; } compact;\n"
        "    struct { uint32_t id; uint64_t timestamp; } extended; } v;\n"
        "} align(8);\n"
        "stream { id = 0;\n"
        "  packet.context := struct { uint64_t packet_size; uint64_t content_size; };\n"
        "  event.header := struct event_header_large;\n"
        "  event.context := struct { integer { size = 32; align = 8; signed = 1; } _vpid;\n"
        "    integer { size = 32; align = 8; signed = 1; } _vtid; }; };\n"
        "event { name = \"a\"; id = 0; stream_id = 0; fields := struct { uint32_t x; }; };\n"
        "event { name = \"b\"; id = 70000; stream_id = 0;\n"
        "  fields := struct { uint16_t y; string s; }; };\n";
    char *m = malloc(sizeof fmt + 8);
    ck_assert_ptr_nonnull(m);
    snprintf(m, sizeof fmt + 8, fmt, big ? "be" : "le");
    return m;
}

static uint8_t *large_header_stream(bool big, size_t *len)
{
    cw_t w;
    cw_init(&w);
    cw_int(&w, 0xC1FC1FC1u, 32, big);
    cw_int(&w, 0, 32, big);
    size_t size_at = (size_t)(w.bits / 8);
    cw_int(&w, 0, 64, big);
    cw_int(&w, 0, 64, big);
    uint64_t ts = 0xFFFFFF00u;
    for (uint32_t i = 0; i < 40; i++) {
        bool ext = i % 7 == 3;
        ts += i % 5 == 4 ? 0x80u : 0x13u;
        if (ext) {
            cw_int(&w, 65535, 16, big);
            cw_int(&w, 70000, 32, big);
            cw_int(&w, ts + ((uint64_t)i << 33), 64, big);
        } else {
            cw_int(&w, 0, 16, big);
            cw_int(&w, ts & 0xFFFFFFFFu, 32, big);
        }
        cw_int(&w, 7, 32, big);
        cw_int(&w, 100u + i % 3, 32, big);
        if (ext) {
            cw_int(&w, i, 16, big);
            cw_str(&w, i % 2 ? "odd" : "");
        } else {
            cw_int(&w, i * 3u, 32, big);
        }
    }
    uint64_t bits = w.bits;
    cw_patch(&w, size_at, bits, 64, big);
    cw_patch(&w, size_at + 8, bits, 64, big);
    *len = (size_t)(w.bits / 8);
    return w.buf;
}

START_TEST(test_stream_large_header)
{
    char *logs[2];
    for (int big = 0; big < 2; big++) {
        char *meta = large_header_metadata(big != 0);
        size_t len;
        uint8_t *data = large_header_stream(big != 0, &len);
        struct target_cfg c;
        cfg_init(&c, meta);
        logs[big] = drv_check_all(&ctf_target, &c, data, len);
        expect_end(logs[big], "end OK");
        check_fast_path(meta, data, len, logs[big]);
        free(data);
        free(meta);
    }
    ck_assert_str_eq(logs[0], logs[1]);
    ck_assert_uint_eq(count_lines(logs[0], "E @"), 40);
    ck_assert_uint_eq(count_lines(logs[0], "E @"), 40);
    ck_assert_ptr_nonnull(strstr(logs[0], " b id=70000 "));
    ck_assert_ptr_nonnull(strstr(logs[0], " s3 d1 INT stream.event.context.vtid vtid = 102\n"));
    free(logs[0]);
    free(logs[1]);
}
END_TEST

/* The benchmark's LTTng-UST-like trace: fast path and general path agree. */
START_TEST(test_stream_bench_trace)
{
    char *meta = ctf_writer_bench_metadata();
    size_t len;
    uint64_t nev;
    uint8_t *data = ctf_writer_bench_stream(2 * 1024, 1024, &len, &nev);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = drv_check_all(&ctf_target, &c, data, len);
    expect_end(log, "end OK");
    ck_assert_uint_eq(count_lines(log, "E @"), nev);
    ck_assert_uint_eq(count_lines(log, "P @"), 2);
    ck_assert_ptr_nonnull(strstr(log, " s5 d1 UINT event.fields.state state = "));
    check_fast_path(meta, data, len, log);
    free(log);
    free(data);
    free(meta);
}
END_TEST

/* A NULL on_field (and no other callback) validates the same input. */
START_TEST(test_stream_null_callbacks)
{
    char *meta = ctf_writer_metadata(false);
    size_t len;
    uint8_t *data = ctf_writer_stream(false, &len);
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, NULL, 0),
                     TRACERD_OK);
    tracerd_ctf_stream_t *r;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    size_t used;
    for (size_t o = 0; o < len; o += used)
        ck_assert_int_eq(tracerd_ctf_stream_feed(r, data + o, len - o < 5 ? len - o : 5, &used),
                         TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
    ck_assert_uint_eq(tracerd_ctf_stream_offset(r), len);
    ck_assert_uint_ge(tracerd_ctf_stream_memory_bound(t, NULL), 65536);
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
    free(data);
    free(meta);
}
END_TEST

/* ==== data errors ========================================================== */

static char *run_plain(const char *meta, const uint8_t *data, size_t len,
                       const tracerd_ctf_stream_config_t *sc)
{
    struct target_cfg c;
    cfg_init(&c, meta);
    if (sc)
        c.stream = *sc;
    drv_plan_t whole = {0};
    return drv_run(&ctf_target, &c, data, len, &whole);
}

/* Issue 12: a bit field whose byte order differs from the previous one's and
 * that starts inside the byte that one ended in is refused at the field (as
 * babeltrace2 and yactfr do); on a byte boundary the change is fine. With and
 * without field delivery (the measure-only path), every split. */
static const char BO_META[] =
    "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
    "stream { event.header := struct { integer { size = 8; align = 8; } id; }; };\n"
    "event { name = split; id = 0; fields := struct { integer { size = 3; align = 1; } a;"
    " integer { size = 5; align = 1; byte_order = be; } b; }; };\n"
    "event { name = whole; id = 1; fields := struct { integer { size = 3; align = 1; } a;"
    " integer { size = 5; align = 1; } b; integer { size = 4; align = 1; byte_order = be; } c;"
    " integer { size = 4; align = 1; byte_order = be; } d; }; };\n";

START_TEST(test_stream_byte_order_in_byte)
{
    static const uint8_t ok[] = {1, 0xe5, 0x12, 1, 0x00, 0xff};
    static const uint8_t bad[] = {1, 0xe5, 0x12, 0, 0x2d};
    struct target_cfg tc;
    cfg_init(&tc, BO_META);
    tc.metadata_len = sizeof BO_META - 1;
    char *log = drv_check_all(&ctf_target, &tc, ok, sizeof ok);
    expect_end(log, "end OK");
    ck_assert_ptr_nonnull(strstr(log, "event.fields.a a = 5\n"));
    ck_assert_ptr_nonnull(strstr(log, "event.fields.b b = 28\n"));
    ck_assert_ptr_nonnull(strstr(log, "event.fields.c c = 1\n"));
    ck_assert_ptr_nonnull(strstr(log, "event.fields.d d = 2\n"));
    free(log);
    log = drv_check_all(&ctf_target, &tc, bad, sizeof bad);
    expect_end(log, "end E_BAD_RECORD @3 event 'split' field event.fields.b at byte 4: byte order "
                    "changes inside a byte (a big-endian field at bit 3 of a byte that a "
                    "little-endian field began): not allowed");
    free(log);
    /* no on_field: the measure-only path checks it too */
    tracerd_ctf_trace_t *t;
    char reason[256];
    ck_assert_int_eq(tracerd_ctf_trace_parse(BO_META, sizeof BO_META - 1, NULL, NULL, &t, reason,
                                             sizeof reason),
                     TRACERD_OK);
    tracerd_ctf_stream_t *r;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    size_t used;
    tracerd_status_t st = tracerd_ctf_stream_feed(r, bad, sizeof bad, &used);
    if (st == TRACERD_OK)
        st = tracerd_ctf_stream_finish(r);
    ck_assert_int_eq(st, TRACERD_E_BAD_RECORD);
    ck_assert_ptr_nonnull(strstr(tracerd_ctf_stream_error_reason(r), "inside a byte"));
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
}
END_TEST

START_TEST(test_stream_errors)
{
    for (int big = 0; big < 2; big++) {
        char *meta = ctf_writer_metadata(big);
        size_t len;
        uint8_t *data = ctf_writer_stream(big, &len);
        char *good = run_plain(meta, data, len, NULL);
        uint64_t ev2 = line_offset(good, "E @", 2); /* second compound event */
        uint64_t e_at = field_offset(good, "event.fields.e");
        uint64_t pkt1 = line_offset(good, "P @", 1);
        uint64_t seq_len_at = field_offset(good, "event.fields.len");
        uint8_t *bad = malloc(len);
        char *log;
        char want[256];

        memcpy(bad, data, len); /* bad magic */
        bad[0] ^= 0xff;
        log = run_plain(meta, bad, len, NULL);
        expect_end(log, "end E_MAGIC @0 packet at byte 0: packet magic is 0x");
        free(log);

        /* uuid mismatch (issue 12): by default one warning per stream, at the
         * first packet that has it, and the packets are read; check_uuid makes
         * it an error. Every split and pause (drv_check_all). */
        memcpy(bad, data, len);
        bad[4] ^= 1;
        bad[pkt1 + 4] ^= 1;
        struct target_cfg tc;
        cfg_init(&tc, meta);
        log = drv_check_all(&ctf_target, &tc, bad, len);
        expect_end(log, "end OK");
        const char *wl = "W E_MAGIC @0 skip=0 packet 0: packet header uuid differs from the "
                         "trace uuid (read on; reported once per stream; check_uuid makes it an "
                         "error)\n";
        ck_assert_msg(strstr(log, wl) != NULL, "no uuid warning in:\n%.2000s", log);
        ck_assert_ptr_null(strstr(strstr(log, wl) + strlen(wl), "uuid differs")); /* once */
        ck_assert_uint_eq(strlen(log), strlen(good) + strlen(wl));
        free(log);
        tracerd_ctf_stream_config_t sc;
        tracerd_ctf_stream_config_init(&sc);
        ck_assert(!sc.check_uuid);
        sc.check_uuid = true;
        log = run_plain(meta, bad, len, &sc);
        expect_end(log, "end E_MAGIC @0 packet at byte 0: packet header uuid differs");
        free(log);

        memcpy(bad, data, len); /* unknown stream id */
        bad[big ? 23 : 20] = 9;
        log = run_plain(meta, bad, len, NULL);
        expect_end(log, "end E_REFERENCE @0 packet at byte 0: stream id 9 is not declared");
        free(log);

        memcpy(bad, data, len); /* unknown event id 3 in the 5-bit compact id */
        if (big)
            bad[ev2] = (uint8_t)((bad[ev2] & 0x07) | (3 << 3));
        else
            bad[ev2] = (uint8_t)((bad[ev2] & 0xe0) | 3);
        log = run_plain(meta, bad, len, NULL);
        snprintf(want, sizeof want, "end E_REFERENCE @%" PRIu64 " event at byte %" PRIu64
                                    ": event id 3 is not declared in stream 7",
                 ev2, ev2);
        expect_end(log, want);
        ck_assert_uint_eq(count_lines(log, "E @"), 2); /* the events before it were read */
        free(log);

        memcpy(bad, data, len); /* variant tag with no option ("quoted label" = 5) */
        bad[e_at] = 5;
        log = run_plain(meta, bad, len, NULL);
        snprintf(want, sizeof want, "end E_BAD_RECORD @%" PRIu64 " event 'test:compound' field "
                                    "event.fields.v at byte %" PRIu64
                                    ": variant tag value 5 selects no option",
                 line_offset(good, "E @", 1), e_at + 1);
        expect_end(log, want);
        free(log);

        /* sequence length beyond the limit */
        tracerd_ctf_stream_config_init(&sc);
        sc.max_sequence_length = 2;
        log = run_plain(meta, data, len, &sc);
        snprintf(want, sizeof want, "end E_LIMIT @%" PRIu64 " event 'test:compound' field "
                                    "event.fields.seq at byte %" PRIu64
                                    ": sequence length 3 exceeds max_sequence_length 2",
                 line_offset(good, "E @", 1), seq_len_at + 2);
        expect_end(log, want);
        free(log);

        /* a sequence length that runs past the packet content */
        memcpy(bad, data, len);
        cw_t w = {bad, len, 0};
        cw_patch(&w, (size_t)seq_len_at, 60000, 16, big);
        log = run_plain(meta, bad, len, NULL);
        ck_assert_ptr_nonnull(strstr(log, "event.fields.seq at byte"));
        ck_assert_ptr_nonnull(strstr(log, "field runs past the packet content"));
        ck_assert_ptr_nonnull(strstr(log, "end E_EXTENT"));
        free(log);

        /* content_size beyond packet_size */
        memcpy(bad, data, len);
        cw_patch(&w, 48, 1u << 20, 64, big);
        log = run_plain(meta, bad, len, NULL);
        expect_end(log, "end E_EXTENT @0 packet at byte 0: content_size 1048576 bits is beyond "
                        "packet_size");
        free(log);

        /* a packet larger than its data: the input ends in its padding / content */
        log = run_plain(meta, data, (size_t)pkt1 - 1, NULL);
        expect_end(log, "end E_TRUNCATED @0 packet at byte 0: packet_size is");
        free(log);
        log = run_plain(meta, data, (size_t)ev2 + 3, NULL);
        snprintf(want, sizeof want, "end E_TRUNCATED @%" PRIu64, ev2);
        expect_end(log, want);
        free(log);
        log = run_plain(meta, data, 50, NULL);
        expect_end(log, "end E_TRUNCATED @0 packet field stream.packet.context.content_size at byte 48");
        free(log);

        /* lenient: the damaged packet is skipped by its size and reported */
        memcpy(bad, data, len);
        bad[e_at] = 5;
        tracerd_ctf_stream_config_init(&sc);
        sc.lenient_skip_packets = true;
        struct target_cfg c;
        cfg_init(&c, meta);
        c.stream = sc;
        log = drv_check_all(&ctf_target, &c, bad, len);
        expect_end(log, "end OK");
        ck_assert_ptr_nonnull(strstr(log, "W E_BAD_RECORD @"));
        ck_assert_uint_eq(count_lines(log, "E @"), 4); /* 1 before, the damaged one begun, 2 after */
        ck_assert_uint_eq(count_lines(log, "P @"), 3);
        free(log);

        free(bad);
        free(good);
        free(data);
        free(meta);
    }
}
END_TEST

/* A stream class without packet context: the stream is one packet. */
START_TEST(test_stream_no_packet_context)
{
    const char *meta = "/* CTF 1.8 */\n"
                       "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
                       "typealias integer { size = 3; align = 1; signed = false; } := u3;\n"
                       "trace { major = 1; minor = 8; byte_order = be; };\n"
                       "stream { event.header := struct { u3 id; }; };\n"
                       "event { name = a; id = 0; fields := struct { u3 x; }; };\n"
                       "event { name = b; id = 1; fields := struct { u8 y; string s; }; };\n";
    /* bit-packed: a(x=5) a(x=2) b(y=7,"hi") a(x=1) */
    cw_t w;
    cw_init(&w);
    cw_int(&w, 0, 3, true);
    cw_int(&w, 5, 3, true);
    cw_int(&w, 0, 3, true);
    cw_int(&w, 2, 3, true);
    cw_int(&w, 1, 3, true);
    cw_align(&w, 8);
    cw_int(&w, 7, 8, true);
    cw_str(&w, "hi");
    cw_int(&w, 0, 3, true);
    cw_int(&w, 1, 3, true);
    size_t len = (size_t)((w.bits + 7) / 8);
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = drv_check_all(&ctf_target, &c, w.buf, len);
    expect_end(log, "end OK");
    ck_assert_ptr_nonnull(strstr(log, "E @0 a id=0"));
    ck_assert_ptr_nonnull(strstr(log, "F @0 s5 d1 UINT event.fields.x x = 5\n"));
    ck_assert_ptr_nonnull(strstr(log, "F @1 s5 d1 UINT event.fields.x x = 2\n"));
    ck_assert_ptr_nonnull(strstr(log, "E @1 b id=1"));
    ck_assert_ptr_nonnull(strstr(log, "F @3 s5 d1 STR event.fields.s s = \"hi\"\n"));
    ck_assert_ptr_nonnull(strstr(log, "F @6 s5 d1 UINT event.fields.x x = 1\n"));
    ck_assert_uint_eq(count_lines(log, "E @"), 4);
    ck_assert_ptr_nonnull(strstr(log, "p @0 i=0 n=4\n"));
    free(log);
    /* cut inside the string */
    drv_plan_t whole = {0};
    log = drv_run(&ctf_target, &c, w.buf, 4, &whole);
    expect_end(log, "end E_TRUNCATED @1 event 'b' field event.fields.s at byte 3");
    free(log);
    cw_free(&w);
}
END_TEST

/* A packet header and context larger than the stitch buffer is an E_LIMIT
 * error in every split (whole in one chunk too); reset starts over. */
START_TEST(test_stream_stitch_bound_and_reset)
{
    char *meta = ctf_writer_metadata(false);
    size_t len;
    uint8_t *data = ctf_writer_stream(false, &len);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.stream.stitch_bytes = 64; /* the packet header + context is 84 bytes */
    char *log = drv_check_all(&ctf_target, &c, data, len);
    expect_end(log, "end E_LIMIT @0 packet at byte 0: packet header and context is larger than "
                    "the stitch buffer (64 bytes)");
    free(log);
    /* reset: the same reader reads the input again, identically */
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, NULL, 0),
                     TRACERD_OK);
    rec_t rec;
    memset(&rec, 0, sizeof rec);
    tracerd_ctf_callbacks_t cb;
    rec_callbacks(&cb);
    tracerd_ctf_stream_t *r;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, &cb, &rec, NULL, &r), TRACERD_OK);
    size_t used;
    ck_assert_int_eq(tracerd_ctf_stream_feed(r, data, len / 2, &used), TRACERD_OK);
    tracerd_ctf_stream_reset(r);
    tlog_reset(&rec.log);
    ck_assert_int_eq(tracerd_ctf_stream_feed(r, data, len, &used), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
    ck_assert_uint_eq(count_lines(rec.log.buf, "E @"), 11);
    /* errors are sticky until reset */
    tracerd_ctf_stream_reset(r);
    uint8_t bad[4] = {0, 0, 0, 0};
    ck_assert_int_eq(tracerd_ctf_stream_feed(r, bad, 4, &used), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_E_TRUNCATED);
    ck_assert_int_eq(tracerd_ctf_stream_feed(r, data, len, &used), TRACERD_E_TRUNCATED);
    ck_assert_int_eq(tracerd_ctf_stream_resume(r), TRACERD_E_INVALID);
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
    free(rec.log.buf);
    free(data);
    free(meta);
}
END_TEST

/* Events of no bits would never let the stream advance: an error (found by
 * fuzzing), after the event is delivered, the same under every split. */
START_TEST(test_stream_empty_event)
{
    const char *meta = "/* CTF 1.8 */\n"
                       "trace { major = 1; minor = 8; byte_order = le; };\n"
                       "event { name = nothing; fields := struct { }; };\n";
    static const uint8_t data[3] = {1, 2, 3};
    struct target_cfg c;
    cfg_init(&c, meta);
    char *log = drv_check_all(&ctf_target, &c, data, sizeof data);
    ck_assert_str_eq(log, "P @0 i=0 sid=0 inst=0 content=18446744073709551615 "
                          "size=18446744073709551615 tsb=0 tse=0 nsb=0 disc=0 seq=0 cpu=0\n"
                          "E @0 nothing id=0 cyc=0 ns=0\n"
                          "F @0 s5 d0 S{ event.fields \n"
                          "F @0 s5 d0 S} event.fields \n"
                          "e nothing\n"
                          "end E_BAD_RECORD @0 event 'nothing' at byte 0: the event is empty (0 "
                          "bits); the stream cannot advance\n");
    free(log);
    check_fast_path(meta, data, sizeof data, "P @0 i=0 sid=0 inst=0 content=18446744073709551615 "
                                                "size=18446744073709551615 tsb=0 tse=0 nsb=0 "
                                                "disc=0 seq=0 cpu=0\n"
                                                "E @0 nothing id=0 cyc=0 ns=0\n"
                                                "F @0 s5 d0 S{ event.fields \n"
                                                "F @0 s5 d0 S} event.fields \n"
                                                "e nothing\n"
                                                "end E_BAD_RECORD @0 event 'nothing' at byte 0: "
                                                "the event is empty (0 bits); the stream cannot "
                                                "advance\n");
}
END_TEST

/* tracerd__ctf_range_uniform (ranges.c; compile_plan.c asks it whether an
 * LTTng header's tag values all select one option and label) against
 * tracerd__ctf_range_find at every key of every interval: segment tables
 * with gaps, adjacent segments, one at the key space's ends, empty. */
START_TEST(test_range_uniform)
{
    static const uint64_t top = UINT64_MAX;
    static const struct ctf_range t0[] = {{2, 4, 0}, {5, 5, 1}, {9, 12, 0}, {13, 13, 2}};
    static const struct ctf_range t1[] = {{0, 0, 3}, {1, 30, 0}, {31, 31, 1}};
    static const struct ctf_range t2[] = {{top - 3, top - 2, 0}, {top - 1, top, 1}};
    const struct {
        const struct ctf_range *r;
        uint32_t n;
        uint64_t base; /* keys tried: base .. base + 19 */
    } tabs[] = {{t0, 4, 0}, {t1, 3, 0}, {t1, 3, 20}, {t2, 2, top - 19}, {t0, 0, 0}};
    for (size_t k = 0; k < sizeof tabs / sizeof tabs[0]; k++)
        for (uint64_t a = 0; a < 20; a++)
            for (uint64_t b = a; b < 20; b++) {
                const uint64_t k0 = tabs[k].base + a, k1 = tabs[k].base + b;
                const uint32_t first = tracerd__ctf_range_find(tabs[k].r, tabs[k].n, k0);
                bool same = true; /* (no two adjacent segments share an index, as
                                   * ranges_build makes them) */
                for (uint64_t x = k0;; x++) {
                    if (tracerd__ctf_range_find(tabs[k].r, tabs[k].n, x) != first)
                        same = false;
                    if (x == k1)
                        break;
                }
                ck_assert_msg(tracerd__ctf_range_uniform(tabs[k].r, tabs[k].n, k0, k1) == same,
                              "table %zu [%" PRIu64 ", %" PRIu64 "]", k, k0, k1);
            }
}
END_TEST

/* Enumeration labels (ctf_enum_label): the direct table of the values
 * 0 .. 63 and the range search above it give, for every value tried, the
 * label of the first declared mapping holding it (a scan of the mappings
 * here): overlapping mappings, gaps, labels at both sides of the table's
 * end, signed containers with negative mappings, an enumeration whose
 * labels all lie above the table (none made). */
START_TEST(test_enum_labels)
{
    static const char meta[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
        "trace { major = 1; minor = 8; byte_order = le; };\n"
        "stream { event.header := struct { u8 id; }; };\n"
        "event { name = e; id = 0; fields := struct {\n"
        "  enum : integer { size = 16; align = 8; } { A = 3 ... 9, B = 5 ... 70, C = 0, D = 63,\n"
        "    E = 64 ... 65, F = 200 } u;\n"
        "  enum : integer { size = 16; align = 8; signed = true; } { N = -300 ... -1, Z = 0,\n"
        "    P = 2 ... 62, Q = -5 ... 5 } s;\n"
        "  enum : u8 { H = 100 ... 120 } h;\n"
        "  enum : u8 { X, Y } xy; }; };\n";
    char reason[256];
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, reason,
                                             sizeof reason),
                     TRACERD_OK);
    const tracerd_ctf_type_t *fields = tracerd_ctf_trace_info(t)->streams[0]->events[0]->fields;
    static const uint32_t tables[] = {64, 63, 0, 2}; /* the direct tables' lengths */
    ck_assert_uint_eq(fields->nmembers, 4);
    for (uint32_t m = 0; m < 4; m++) {
        const tracerd_ctf_type_t *ty = fields->members[m].type;
        ck_assert_uint_eq(((const struct ctf_type *)ty)->nlabels, tables[m]);
        for (int64_t x = -400; x <= 400; x++) {
            const uint64_t v = (uint64_t)x;
            const char *want = NULL;
            for (uint32_t i = 0; i < ty->nmappings && want == NULL; i++) {
                const tracerd_ctf_mapping_t *mp = &ty->mappings[i];
                if (ty->is_signed ? x >= mp->lo && x <= mp->hi
                                  : v >= (uint64_t)mp->lo && v <= (uint64_t)mp->hi)
                    want = mp->label;
            }
            const char *got = ctf_enum_label(ty, v);
            ck_assert_msg(got == want || (got && want && strcmp(got, want) == 0),
                          "member %u value %" PRId64 ": %s, expected %s", m, x,
                          got ? got : "(none)", want ? want : "(none)");
        }
    }
    tracerd_ctf_trace_free(t);
}
END_TEST

Suite *suite_ctf(void)
{
    Suite *s = suite_create("ctf");
    TCase *tc = tcase_create("metadata");
    tcase_add_test(tc, test_metadata_model);
    tcase_add_test(tc, test_metadata_chunked_and_packetized);
    tcase_add_test(tc, test_stream_byte_order_in_byte);
    tcase_add_test(tc, test_metadata_append);
    tcase_add_test(tc, test_metadata_errors);
    tcase_add_test(tc, test_metadata_lenient_syntax);
    tcase_add_test(tc, test_metadata_limits_and_alloc);
    suite_add_tcase(s, tc);
    tc = tcase_create("stream");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_stream_feature_trace);
    tcase_add_test(tc, test_stream_null_callbacks);
    tcase_add_test(tc, test_stream_bench_trace);
    tcase_add_test(tc, test_stream_large_header);
    tcase_add_test(tc, test_range_uniform);
    tcase_add_test(tc, test_enum_labels);
    tcase_add_test(tc, test_stream_errors);
    tcase_add_test(tc, test_stream_no_packet_context);
    tcase_add_test(tc, test_stream_empty_event);
    tcase_add_test(tc, test_stream_stitch_bound_and_reset);
    suite_add_tcase(s, tc);
    return s;
}
