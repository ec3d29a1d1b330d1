/* CTF 2: the peer traces of ../shared/peer-tests/ctf2 (babeltrace2 2.1.2's
 * own CTF 2 test traces and the CTF 1.8 peer traces converted to CTF 2 by
 * babeltrace2 2.1.2), compared event for event with babeltrace2's text. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <tracerd/ctf.h>
#include <tracerd/event.h>

#include "support/ctf2_writer.h"
#include "support/ctf_check.h"
#include "support/ctf_peer.h"
#include "support/ctf_recorder.h"
#include "support/ctf_writer.h"
#include "support/driver.h"

static void expect_ok(const char *log)
{
    const char *end = strstr(log, "\nend ");
    ck_assert_msg(end != NULL && strncmp(end, "\nend OK", 7) == 0, "log ends: %s",
                  end ? end : log);
}

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Sorted names of the sub-folders of dir (NULL-terminated, malloc'd). */
static char **subdirs(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    char **v = calloc(256, sizeof *v);
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && k < 255) {
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (e->d_name[0] != '.' && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            v[k++] = strdup(e->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < k; i++) /* insertion sort */
        for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
            char *x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    *n = k;
    return v;
}

static void free_list(char **v)
{
    for (size_t i = 0; v[i]; i++)
        free(v[i]);
    free(v);
}

/* Reads dir, compares with babeltrace2 2.1.2's --clock-cycles output (out)
 * and the discarded counts of its stderr (err, may not exist), then again
 * in odd small reads: same text. */
static void check_trace(const char *dir, const char *out, const char *err)
{
    struct peer_result pr;
    read_dir_as(dir, NULL, &pr, true);
    ck_assert_msg(pr.st == TRACERD_OK, "%s: %s %s", dir, tracerd_status_name(pr.st), pr.reason);
    char *expected = slurp(out);
    ck_assert_msg(expected != NULL, "missing %s", out);
    size_t bad = compare_bt2(dir, expected, pr.text.out.buf);
    ck_assert_msg(bad == 0, "%s: %zu lines differ from babeltrace2", dir, bad);
    tracerd_ctf_dir_config_t small;
    tracerd_ctf_dir_config_init(&small);
    small.chunk_bytes = 97;
    small.max_open_files = 1;
    struct peer_result pr2;
    read_dir_as(dir, &small, &pr2, true);
    ck_assert_int_eq(pr2.st, pr.st);
    ck_assert_str_eq(pr2.text.out.buf, pr.text.out.buf);
    ctf_text_free(&pr2.text);
    char *se = err ? slurp(err) : NULL;
    ck_assert_uint_eq(pr.text.lost_events, se ? sum_discarded(se, "event") : 0);
    ck_assert_uint_eq(pr.text.lost_packets, se ? sum_discarded(se, "packet") : 0);
    free(se);
    free(expected);
    ctf_text_free(&pr.text);
}

/* Every trace of converted/ reads as babeltrace2 2.1.2 read it. */
START_TEST(test_ctf2_converted)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    char root[1024];
    snprintf(root, sizeof root, "%s/ctf2/converted", peer);
    size_t n;
    char **v = subdirs(root, &n);
    ck_assert_uint_ge(n, 40);
    for (size_t i = 0; i < n; i++) {
        char dir[1200], out[1300], err[1300];
        snprintf(dir, sizeof dir, "%s/%s", root, v[i]);
        snprintf(out, sizeof out, "%s.expect.txt", dir);
        snprintf(err, sizeof err, "%s.expect.stderr.txt", dir);
        check_trace(dir, out, exists(err) ? err : NULL);
    }
    free_list(v);
}
END_TEST

/* babeltrace2's own CTF 2 traces: succeed/ and intersection/. Their
 * expected text is pretty/GROUP-NAME.expect.txt, or the converted twin's
 * when pretty/same-as-peer.txt says they are the same. */
START_TEST(test_ctf2_babeltrace_succeed)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    static const char *const groups[] = {"succeed", "intersection"};
    size_t total = 0;
    for (size_t g = 0; g < 2; g++) {
        char root[1024];
        snprintf(root, sizeof root, "%s/ctf2/babeltrace-2.1.2/ctf-traces/2/%s", peer, groups[g]);
        size_t n;
        char **v = subdirs(root, &n);
        for (size_t i = 0; i < n; i++) {
            char dir[1200], out[1300], err[1300];
            snprintf(dir, sizeof dir, "%s/%s", root, v[i]);
            snprintf(out, sizeof out, "%s/ctf2/babeltrace-2.1.2/pretty/%s-%s.expect.txt", peer,
                     groups[g], v[i]);
            snprintf(err, sizeof err, "%s/ctf2/babeltrace-2.1.2/pretty/%s-%s.expect.stderr.txt",
                     peer, groups[g], v[i]);
            if (!exists(out)) {
                snprintf(out, sizeof out, "%s/ctf2/converted/peer-%s-%s.expect.txt", peer,
                         groups[g], v[i]);
                if (!exists(err))
                    snprintf(err, sizeof err,
                             "%s/ctf2/converted/peer-%s-%s.expect.stderr.txt", peer, groups[g],
                             v[i]);
            }
            check_trace(dir, out, exists(err) ? err : NULL);
            total++;
        }
        free_list(v);
    }
    ck_assert_uint_eq(total, 28);
}
END_TEST

/* babeltrace2's fail/ traces end in a clear error, after the same events. */
START_TEST(test_ctf2_babeltrace_fail)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    static const struct {
        const char *name;
        tracerd_status_t st;
        const char *reason;
    } fails[] = {
        {"empty-event-record", TRACERD_E_BAD_RECORD, "the event is empty"},
        {"meta-no-stream-cls", TRACERD_E_METADATA, "declares no data stream class"},
        {"meta-no-trace-cls-no-stream-cls", TRACERD_E_METADATA,
         "declares no data stream class"},
    };
    for (size_t i = 0; i < sizeof fails / sizeof fails[0]; i++) {
        char dir[1200], out[1300];
        snprintf(dir, sizeof dir, "%s/ctf2/babeltrace-2.1.2/ctf-traces/2/fail/%s", peer,
                 fails[i].name);
        snprintf(out, sizeof out, "%s/ctf2/babeltrace-2.1.2/pretty/fail-%s.expect.txt", peer,
                 fails[i].name);
        struct peer_result pr;
        read_dir_as(dir, NULL, &pr, true);
        ck_assert_msg(pr.st == fails[i].st, "%s: %s %s", fails[i].name,
                      tracerd_status_name(pr.st), pr.reason);
        ck_assert_msg(strstr(pr.reason, fails[i].reason) != NULL, "%s: %s", fails[i].name,
                      pr.reason);
        char *expected = slurp(out);
        ck_assert_ptr_nonnull(expected);
        if (i == 0) /* tracerd delivers the empty event, then fails (doc/formats/ctf.md) */
            ck_assert_str_eq(pr.text.out.buf, ": \n");
        else
            ck_assert_uint_eq(compare_bt2(fails[i].name, expected, pr.text.out.buf), 0);
        free(expected);
        ctf_text_free(&pr.text);
    }
}
END_TEST

/* Each converted trace gives the same events as its CTF 1.8 original. */
START_TEST(test_ctf2_same_as_ctf18)
{
    const char *peer = drv_peer_dir();
    if (peer == NULL)
        return;
    char root[1024];
    snprintf(root, sizeof root, "%s/ctf2/converted", peer);
    size_t n, compared = 0;
    char **v = subdirs(root, &n);
    for (size_t i = 0; i < n; i++) {
        /* peer-GROUP-NAME: the first '-' of NAME whose split names a 1.8 trace */
        const char *g = v[i] + 5;
        char d2[1200], d1[1200];
        snprintf(d2, sizeof d2, "%s/%s", root, v[i]);
        d1[0] = '\0';
        for (const char *dash = strchr(g, '-'); dash != NULL; dash = strchr(dash + 1, '-')) {
            snprintf(d1, sizeof d1, "%s/ctf/%.*s/%s", peer, (int)(dash - g), g, dash + 1);
            if (exists(d1))
                break;
        }
        ck_assert_msg(exists(d1), "%s: no CTF 1.8 original", v[i]);
        struct peer_result p1, p2;
        tracerd_ctf_dir_config_t cfg;
        tracerd_ctf_dir_config_init(&cfg);
        tracerd_ctf_stream_config_t scfg;
        tracerd_ctf_stream_config_init(&scfg);
        scfg.check_uuid = false; /* two 1.8 originals carry foreign packet uuids */
        cfg.stream = &scfg;
        read_dir_as(d1, &cfg, &p1, true);
        read_dir_as(d2, &cfg, &p2, true);
        ck_assert_msg(p1.st == TRACERD_OK && p2.st == TRACERD_OK, "%s: %s / %s", v[i], p1.reason,
                      p2.reason);
        ck_assert_msg(strcmp(p1.text.out.buf, p2.text.out.buf) == 0,
                      "%s: CTF 1.8 and CTF 2 events differ", v[i]);
        ck_assert_uint_eq(p1.text.lost_events, p2.text.lost_events);
        ck_assert_uint_eq(p1.text.lost_packets, p2.text.lost_packets);
        ctf_text_free(&p1.text);
        ctf_text_free(&p2.text);
        compared++;
    }
    free_list(v);
    ck_assert_uint_ge(compared, 40);
}
END_TEST


/* ==== metadata ============================================================== */

static tracerd_ctf_trace_t *parse_ok(const char *meta)
{
    tracerd_ctf_trace_t *t = NULL;
    char reason[512];
    tracerd_status_t st =
        tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, reason, sizeof reason);
    ck_assert_msg(st == TRACERD_OK, "%s: %s", tracerd_status_name(st), reason);
    return t;
}

static const tracerd_ctf_type_t *member_type(const tracerd_ctf_type_t *s, const char *name)
{
    for (uint32_t i = 0; i < s->nmembers; i++)
        if (strcmp(s->members[i].name, name) == 0)
            return s->members[i].type;
    ck_abort_msg("no member %s", name);
    return NULL;
}

/* The model of the feature metadata: version, identities, attributes,
 * clock origin, roles, the new kinds. */
START_TEST(test_ctf2_model)
{
    char *meta = ctf2_writer_metadata(true);
    ck_assert_int_eq(tracerd_ctf_metadata_version(meta, strlen(meta)), 2);
    ck_assert_int_eq(tracerd_event_detect(meta, 64, NULL), TRACERD_EVENT_FORMAT_CTF);
    ck_assert_int_eq(tracerd_event_detect("\x1e x", 3, NULL), TRACERD_EVENT_FORMAT_UNKNOWN);
    ck_assert_int_eq(tracerd_ctf_metadata_version("/* CTF 1.8 */", 13), 1);
    ck_assert_int_eq(tracerd_ctf_metadata_version("/* CTF", 6), 0);
    tracerd_ctf_trace_t *t = parse_ok(meta);
    const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
    ck_assert_uint_eq(in->major, 2);
    ck_assert_uint_eq(in->minor, 0);
    ck_assert_uint_eq(in->nfragments, 9);
    ck_assert(in->has_uuid);
    ck_assert_uint_eq(in->uuid[0], 42);
    ck_assert_str_eq(in->ns, "test.org");
    ck_assert_str_eq(in->name, "feature");
    ck_assert_str_eq(in->uid, "t-1");
    ck_assert_str_eq(in->preamble_attributes, "{\"test.org,2024\":{\"k\":[1,2]}}");
    ck_assert_int_eq(in->byte_order, TRACERD_BYTE_ORDER_BIG);
    ck_assert_str_eq(tracerd_ctf_trace_env(t, "host"), "h");
    ck_assert_uint_eq(in->nenv, 2);
    ck_assert_int_eq(in->env[1].value, 3);
    ck_assert_uint_eq(in->nclocks, 1);
    const tracerd_ctf_clock_t *c = &in->clocks[0];
    ck_assert_str_eq(c->id, "clk");
    ck_assert_str_eq(c->name, "boot-clock");
    ck_assert_uint_eq(c->freq, 1000000);
    ck_assert_int_eq(c->offset_s, 10);
    ck_assert_int_eq(c->offset, 5);
    ck_assert(!c->absolute);
    ck_assert_str_eq(c->origin_ns, "o.org");
    ck_assert_str_eq(c->origin_name, "boot");
    ck_assert_str_eq(c->origin_uid, "b-1");
    ck_assert(c->has_precision && c->precision == 2 && c->has_accuracy && c->accuracy == 3);
    ck_assert_str_eq(c->ns, "c.org");
    ck_assert_str_eq(c->uid, "c-1");
    const tracerd_ctf_stream_class_t *sc = tracerd_ctf_trace_stream_class(t, 0);
    ck_assert_int_eq(sc->default_clock, 0);
    ck_assert_str_eq(sc->name, "s");
    ck_assert_uint_eq(sc->nevents, 2);
    ck_assert_uint_eq(member_type(in->packet_header, "magic")->roles,
                      TRACERD_CTF_ROLE_PACKET_MAGIC);
    ck_assert_uint_eq(member_type(in->packet_header, "uuid")->roles,
                      TRACERD_CTF_ROLE_METADATA_UUID);
    ck_assert_uint_eq(member_type(sc->event_header, "id")->roles,
                      TRACERD_CTF_ROLE_EVENT_CLASS_ID);
    const tracerd_ctf_event_class_t *e0 = tracerd_ctf_trace_event_class(t, 0, 0);
    ck_assert_str_eq(e0->ns, "e.org");
    ck_assert_str_eq(e0->uid, "e-1");
    ck_assert_str_eq(e0->attributes, "{\"x.org\":{\"note\":\"every kind\"}}");
    const tracerd_ctf_event_class_t *e1 = tracerd_ctf_trace_event_class(t, 0, 1);
    ck_assert(e1->has_loglevel);
    ck_assert_int_eq(e1->loglevel, 4); /* warning */
    ck_assert_str_eq(e1->emf_uri, "http://e");
    const tracerd_ctf_type_t *f = e0->fields;
    ck_assert_int_eq(member_type(f, "b1")->kind, TRACERD_CTF_TYPE_BOOL);
    ck_assert_int_eq(member_type(f, "flags")->kind, TRACERD_CTF_TYPE_BIT_MAP);
    ck_assert_uint_eq(member_type(f, "flags")->nmappings, 3);
    ck_assert_int_eq(member_type(f, "uv")->kind, TRACERD_CTF_TYPE_VARINT);
    ck_assert_int_eq(member_type(f, "opt1")->kind, TRACERD_CTF_TYPE_OPTIONAL);
    ck_assert_str_eq(member_type(f, "opt2")->path, "event-record-payload/sel");
    ck_assert_str_eq(member_type(f, "blob")->media_type, "application/x-test");
    ck_assert_int_eq(member_type(f, "blob")->kind, TRACERD_CTF_TYPE_BLOB);
    ck_assert_int_eq(member_type(f, "u16a")->encoding, TRACERD_CTF_ENCODING_UTF16BE);
    ck_assert(member_type(f, "rev")->bit_order_reversed);
    ck_assert_uint_eq(member_type(f, "arr")->align_bits, 32);
    ck_assert_uint_eq(f->align_bits, 32);
    ck_assert_str_eq(member_type(member_type(f, "inner"), "v")->path, "../neg");
    ck_assert_str_eq(tracerd_ctf_type_kind_name(TRACERD_CTF_TYPE_OPTIONAL), "optional");
    const tracerd_ctf_type_t *f1 = e1->fields;
    for (uint32_t i = 0; i < f1->nmembers; i++)
        ck_assert(strcmp(f1->members[i].name, "h") == 0
                      ? strcmp(tracerd_ctf_member_attributes(f1, i), "{\"m.org\":{\"unit\":\"s\"}}") == 0
                      : tracerd_ctf_member_attributes(f1, i) == NULL);
    ck_assert_ptr_null(tracerd_ctf_member_attributes(f1, f1->nmembers));
    ck_assert_uint_eq(member_type(f1, "q")->size_bits, 128);
    ck_assert_uint_eq(member_type(f1, "q")->mant_dig, 113);
    tracerd_ctf_trace_free(t);
    free(meta);
}
END_TEST

/* Chunks of any size, packetized (CTF 1.8 packets), appended later (live):
 * the same model; allocation failures are clean. */
START_TEST(test_ctf2_metadata_feeding)
{
    char *meta = ctf2_writer_metadata(false);
    size_t n = strlen(meta);
    for (int packetized = 0; packetized < 2; packetized++) {
        size_t len = n;
        uint8_t *bytes = (uint8_t *)meta;
        if (packetized)
            bytes = ctf_writer_packetize(meta, packetized == 1, 256, &len);
        ck_assert_int_eq(tracerd_ctf_metadata_version(bytes, len), 2);
        ck_assert_int_eq(tracerd_ctf_metadata_version(bytes, packetized ? 37 : 0), 0);
        tracerd_ctf_metadata_t *m;
        ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
        for (size_t i = 0; i < len; i++)
            ck_assert_int_eq(tracerd_ctf_metadata_feed(m, bytes + i, 1), TRACERD_OK);
        tracerd_ctf_trace_t *t;
        ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_OK);
        ck_assert_uint_eq(tracerd_ctf_trace_info(t)->nevents, 2);
        ck_assert_uint_eq(tracerd_ctf_trace_info(t)->metadata_bytes, n);
        tracerd_ctf_trace_free(t);
        tracerd_ctf_metadata_free(m);
        if (packetized)
            free(bytes);
    }
    /* live: the last event record class arrives later; half a fragment is an
     * error that more text repairs */
    const char *last = strrchr(meta, 0x1E);
    size_t first = (size_t)(last - meta);
    tracerd_ctf_metadata_t *m;
    tracerd_ctf_trace_t *t1, *t2;
    ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta, first), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t1), TRACERD_OK);
    ck_assert_uint_eq(tracerd_ctf_trace_info(t1)->nevents, 1);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta + first, 30), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t2), TRACERD_E_METADATA);
    ck_assert_ptr_nonnull(strstr(tracerd_ctf_metadata_error_reason(m), "fragment 8"));
    ck_assert_uint_eq(tracerd_ctf_metadata_record_offset(m), first);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta + first + 30, n - first - 30), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t2), TRACERD_OK);
    ck_assert_uint_eq(tracerd_ctf_trace_info(t2)->nevents, 2);
    ck_assert_uint_eq(tracerd_ctf_trace_info(t1)->nevents, 1);
    tracerd_ctf_trace_free(t1);
    tracerd_ctf_trace_free(t2);
    tracerd_ctf_metadata_free(m);
    /* every allocation of the model and the compiler may fail, without a leak */
    for (unsigned long k = 1;; k++) {
        drv_alloc_t fa;
        drv_alloc_init(&fa, k);
        tracerd_ctf_trace_t *t;
        char reason[256];
        tracerd_status_t st =
            tracerd_ctf_trace_parse(meta, n, NULL, &fa.a, &t, reason, sizeof reason);
        if (st == TRACERD_OK)
            tracerd_ctf_trace_free(t);
        ck_assert_msg(fa.live == 0, "failure %lu leaked %ld", k, fa.live);
        if (fa.calls < k) {
            ck_assert_int_eq(st, TRACERD_OK);
            break;
        }
        ck_assert_int_eq(st, TRACERD_E_NOMEM);
    }
    free(meta);
}
END_TEST

#define RS "\x1e"
#define PRE RS "{\"type\":\"preamble\",\"version\":2}"
#define U8 "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\"}"
#define DSC(pc) RS "{\"type\":\"data-stream-class\"" pc "}"
#define ERC(payload)                                                                              \
    RS "{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"structure\","       \
       "\"member-classes\":[" payload "]}}"
#define M(n, fc) "{\"name\":\"" n "\",\"field-class\":" fc "}"
#define U16 "{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,\"alignment\":8,\"byte-order\":\"little-endian\"}"
#define BOOL8 "{\"type\":\"fixed-length-boolean\",\"length\":8,\"byte-order\":\"little-endian\"}"

/* Malformed metadata: status, and a reason naming the fragment (index and
 * byte offset), the field class and the property. */
START_TEST(test_ctf2_metadata_errors)
{
    static const struct {
        const char *meta;
        tracerd_status_t st;
        const char *reason;
    } cases[] = {
        {PRE RS "{\"type\":\"trace-class\",}", TRACERD_E_METADATA,
         "CTF 2 metadata fragment 1 (byte 32), line 1, column 23: JSON: "},
        {PRE RS "[1]", TRACERD_E_METADATA, "fragment 1 (byte 32): a fragment must be a JSON object"},
        {PRE RS "{\"type\":\"mystery\"} x", TRACERD_E_METADATA,
         "fragment 1 (byte 32), line 1, column 20: JSON: end of file expected"},
        {RS "{\"type\":\"trace-class\"}", TRACERD_E_METADATA,
         "fragment 0 (byte 0), trace-class: the first fragment must be the preamble"},
        {RS "{\"type\":\"preamble\",\"version\":3}", TRACERD_E_VERSION, "CTF version 3, expected 2"},
        {RS "{\"type\":\"preamble\",\"version\":2,\"extensions\":{\"x.org\":{\"zip\":{}}}}",
         TRACERD_E_UNSUPPORTED, "requires the extension 'zip' of namespace 'x.org'"},
        {PRE PRE, TRACERD_E_METADATA, "a second preamble"},
        {PRE RS "{\"type\":\"trace-class\"}" RS "{\"type\":\"trace-class\"}", TRACERD_E_METADATA,
         "fragment 2 (byte 55), trace-class: a second trace class"},
        {PRE RS "{\"type\":\"mystery\"}", TRACERD_E_METADATA, "unknown fragment type 'mystery'"},
        {PRE RS "{\"type\":\"clock-class\",\"frequency\":1}", TRACERD_E_METADATA,
         "the clock class lacks the required property 'id'"},
        {PRE RS "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":0}", TRACERD_E_METADATA,
         "'frequency' is 0, outside 1.."},
        {PRE RS "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":10,\"offset-from-origin\":"
                "{\"cycles\":10}}",
         TRACERD_E_METADATA, "'cycles' (10) must be below the frequency (10)"},
        /* JSON integers beyond int64 where an integer is expected */
        {PRE RS "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":18446744073709551616}",
         TRACERD_E_METADATA,
         "the clock class property 'frequency' is 18446744073709551616, beyond the 64-bit "
         "integers (-2^63..2^64-1)"},
        {PRE RS "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":-1}", TRACERD_E_METADATA,
         "the clock class property 'frequency' is -1, outside 1..18446744073709551615"},
        {PRE RS "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1,\"precision\":"
                "-99999999999999999999}",
         TRACERD_E_METADATA, "'precision' is -99999999999999999999, beyond the 64-bit integers"},
        {PRE RS "{\"type\":\"clock-class\",\"id\":18446744073709551615,\"frequency\":1}",
         TRACERD_E_METADATA, "the clock class property 'id' must be a string, got an integer"},
        {PRE RS "{\"type\":\"trace-class\",\"environment\":{\"n\":18446744073709551615}}",
         TRACERD_E_UNSUPPORTED,
         "environment entry 'n' is 18446744073709551615: environment integers are signed 64-bit"},
        {PRE RS "{\"type\":\"preamble\",\"version\":2}", TRACERD_E_METADATA, "a second preamble"},
        {RS "{\"type\":\"preamble\",\"version\":2,\"uuid\":[18446744073709551615,0,0,0,0,0,0,0,"
            "0,0,0,0,0,0,0,0]}",
         TRACERD_E_METADATA, "'uuid': item 0 is not an integer 0..255"},
        {PRE DSC(",\"id\":-1"), TRACERD_E_METADATA,
         "the data stream class property 'id' is -1, outside 0..18446744073709551615"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"mappings\":{\"m\":"
                                "[[-9223372036854775809,0]]}}")),
         TRACERD_E_METADATA,
         "property 'mappings': range 0: -9223372036854775809 is beyond the 64-bit integers"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"mappings\":{\"m\":"
                                "[[18446744073709551615,5]]}}")),
         TRACERD_E_METADATA, "range 0 has lower 18446744073709551615 above upper 5"},
        /* a JSON error after a wide integer is placed in the original text */
        {PRE RS "{\"type\":\"clock-class\",\"frequency\":18446744073709551615,\n  \"id\":}",
         TRACERD_E_METADATA, "fragment 1 (byte 32), line 2, column 8: JSON: "},
        /* wide integers where JSON allows no value stay JSON errors */
        {PRE RS "{\"type\":\"trace-class\",18446744073709551615:1}", TRACERD_E_METADATA,
         "fragment 1 (byte 32), line 1, column 42: JSON: too big integer"},
        {PRE RS "{\"type\":\"trace-class\",\"a\":[018446744073709551615]}", TRACERD_E_METADATA,
         "fragment 1 (byte 32), line 1, column "},
        {PRE RS "{\"type\":\"trace-class\",\"a\":1-18446744073709551615}", TRACERD_E_METADATA,
         "fragment 1 (byte 32), line 1, column "},
        {PRE DSC(",\"default-clock-class-id\":\"nope\""), TRACERD_E_METADATA,
         "default-clock-class-id 'nope' names no earlier clock class"},
        {PRE DSC("") DSC(""), TRACERD_E_METADATA, "duplicate data stream class id 0"},
        {PRE DSC("") RS "{\"type\":\"trace-class\"}", TRACERD_E_METADATA,
         "the trace class comes after a data stream class"},
        {PRE RS "{\"type\":\"event-record-class\",\"data-stream-class-id\":4}", TRACERD_E_METADATA,
         "names data stream class 4, which is not declared before it"},
        {PRE, TRACERD_E_METADATA, "declares no data stream class"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8}")),
         TRACERD_E_METADATA,
         "fragment 2 (byte 61), event-record-class: field class 'fixed-length-unsigned-integer' "
         "lacks the required property 'byte-order'"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"size\":3}")),
         TRACERD_E_METADATA, "field class 'fixed-length-unsigned-integer' has an unknown property 'size'"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":65,"
                                "\"byte-order\":\"little-endian\"}")),
         TRACERD_E_UNSUPPORTED, "fixed-length fields above 64 bits are not supported"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":0,"
                                "\"byte-order\":\"little-endian\"}")),
         TRACERD_E_METADATA, "property 'length' is 0, outside 1.."},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"alignment\":3}")),
         TRACERD_E_METADATA, "property 'alignment' 3 is not a power of two"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"middle-endian\"}")),
         TRACERD_E_METADATA,
         "field class 'fixed-length-unsigned-integer' property 'byte-order' must be \"big-endian\" "
         "or \"little-endian\""},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"big-endian\",\"bit-order\":\"sideways\"}")),
         TRACERD_E_METADATA,
         "field class 'fixed-length-unsigned-integer' property 'bit-order' must be "
         "\"first-to-last\" or \"last-to-first\""},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-floating-point-number\",\"length\":24,"
                                "\"byte-order\":\"little-endian\"}")),
         TRACERD_E_METADATA,
         "of 24 bits: an IEEE 754 binary interchange format has 16, 32, 64 or a multiple of 32 "
         "from 128 bits"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-floating-point-number\",\"length\":144,"
                                "\"byte-order\":\"little-endian\"}")),
         TRACERD_E_METADATA, "of 144 bits: an IEEE 754 binary interchange format"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-floating-point-number\",\"length\":"
                                "65568,\"byte-order\":\"little-endian\"}")),
         TRACERD_E_UNSUPPORTED, "of 65568 bits: fixed-length fields above 65536 bits are not "
                                "supported"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"quaternion\"}")), TRACERD_E_METADATA,
         "unknown field class type 'quaternion'"},
        {PRE DSC("") ERC(M("a", "\"nope\"")), TRACERD_E_METADATA,
         "member 'a': unknown field class alias 'nope'"},
        {PRE RS "{\"type\":\"field-class-alias\",\"name\":\"me\",\"field-class\":\"me\"}",
         TRACERD_E_METADATA, "alias 'me': unknown field class alias 'me'"},
        {PRE DSC("") ERC(M("a", U8) "," M("a", U8)), TRACERD_E_METADATA, "duplicate member 'a'"},
        {PRE DSC("") ERC(M("s", "{\"type\":\"dynamic-length-array\",\"length-field-location\":"
                                "{\"path\":[\"n\"]},\"element-field-class\":" U8 "}") "," M("n", U8)),
         TRACERD_E_METADATA, "length field 'n' is not declared before it"},
        {PRE DSC(",\"packet-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
                 M("s", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":{\"origin\":"
                        "\"event-record-payload\",\"path\":[\"n\"]}}") "]}")
             ERC(M("n", U8)),
         TRACERD_E_METADATA, "length field 'event-record-payload/n' is not declared before it"},
        {PRE DSC("") ERC(M("n", "{\"type\":\"fixed-length-signed-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\"}") ","
                         M("s", "{\"type\":\"dynamic-length-string\",\"length-field-location\":"
                                "{\"path\":[\"n\"]}}")),
         TRACERD_E_METADATA, "length field 'n' is not an unsigned integer"},
        {PRE DSC("") ERC(M("n", U8) "," M("s", "{\"type\":\"dynamic-length-string\","
                                                "\"length-field-location\":{\"path\":[null,\"n\"]}}")),
         TRACERD_E_METADATA, "length field '../n' is not declared before it"},
        {PRE DSC("") ERC(M("n", U8) "," M("o", "{\"type\":\"optional\",\"selector-field-location\":"
                                                "{\"path\":[\"n\"]},\"field-class\":" U8 "}")),
         TRACERD_E_METADATA, "selector 'n' is not a boolean"},
#define S8 "{\"type\":\"fixed-length-signed-integer\",\"length\":8,\"byte-order\":\"little-endian\"}"
#define AB_VARIANT(a, b)                                                                           \
    M("t", U8) "," M("v", "{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"t\"]},"      \
                          "\"options\":[{\"selector-field-ranges\":[[0,0]],\"field-class\":"         \
                          "{\"type\":\"structure\",\"member-classes\":[" M("n", a) "]}},"           \
                          "{\"selector-field-ranges\":[[1,1]],\"field-class\":"                      \
                          "{\"type\":\"structure\",\"member-classes\":[" M("n", b) "]}}]}")
        /* locations through arrays, optionals and variants */
        {PRE DSC("") ERC(M("a", "{\"type\":\"static-length-array\",\"length\":2,\"element-field-class\":"
                                "{\"type\":\"structure\",\"member-classes\":[" M("n", U8) "]}}") ","
                         M("s", "{\"type\":\"dynamic-length-string\",\"length-field-location\":"
                                "{\"path\":[\"a\",\"n\"]}}")),
         TRACERD_E_METADATA,
         "sequence 's': length field 'a/n' goes through the array 'event.fields.a' from "
         "outside its element (only the element being decoded can be named)"},
        {PRE DSC("") ERC(AB_VARIANT(U8, S8) "," M("s", "{\"type\":\"dynamic-length-string\","
                                                       "\"length-field-location\":{\"path\":[\"v\",\"n\"]}}")),
         TRACERD_E_METADATA, "sequence 's': length field 'v/n' is not an unsigned integer"},
        {PRE DSC("") ERC(AB_VARIANT(U8, S8) "," M("w", "{\"type\":\"variant\",\"selector-field-location\":"
                                                       "{\"path\":[\"v\",\"n\"]},\"options\":["
                                                       "{\"selector-field-ranges\":[[0,5]],\"field-class\":" U8 "}]}")),
         TRACERD_E_METADATA,
         "'event.fields.w': selector 'v/n' names fields of different signedness through the "
         "options of a variant"},
        {PRE DSC("") ERC(AB_VARIANT(U8, BOOL8) "," M("o", "{\"type\":\"optional\",\"selector-field-location\":"
                                                          "{\"path\":[\"v\",\"n\"]},\"field-class\":" U8 "}")),
         TRACERD_E_METADATA, "'event.fields.o': selector 'v/n' is not a boolean"},
        {PRE DSC("") ERC(M("o", "{\"type\":\"optional\",\"selector-field-location\":{\"path\":[\"x\"]},"
                                "\"field-class\":{\"type\":\"structure\",\"member-classes\":["
                                M("b", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":"
                                       "{\"origin\":\"event-record-payload\",\"path\":[\"o\",\"n\"]}}") ","
                                M("n", U8) "]}}")),
         TRACERD_E_METADATA, "selector 'x' is not declared before it"},
        {PRE DSC("") ERC(M("x", BOOL8) "," M("o", "{\"type\":\"optional\",\"selector-field-location\":{\"path\":[\"x\"]},"
                                "\"field-class\":{\"type\":\"structure\",\"member-classes\":["
                                M("b", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":"
                                       "{\"origin\":\"event-record-payload\",\"path\":[\"o\",\"n\"]}}") ","
                                M("n", U8) "]}}")),
         TRACERD_E_METADATA,
         "'event.fields.o.b': length field 'event-record-payload/o/n' is not declared before it"},
        {PRE DSC("") ERC(M("n", U8) "," M("v", "{\"type\":\"variant\",\"selector-field-location\":"
                                                "{\"path\":[\"n\"]},\"options\":["
                                                "{\"selector-field-ranges\":[[0,5]],\"field-class\":" U8 "},"
                                                "{\"selector-field-ranges\":[[5,9]],\"field-class\":" U8 "}]}")),
         TRACERD_E_METADATA, "the ranges of options 0 and 1 overlap"},
        {PRE DSC("") ERC(M("n", U8) "," M("v", "{\"type\":\"variant\",\"selector-field-location\":"
                                                "{\"path\":[\"n\"]},\"options\":["
                                                "{\"selector-field-ranges\":[[9,5]],\"field-class\":" U8 "}]}")),
         TRACERD_E_METADATA, "range 0 has lower 9 above upper 5"},
        {PRE DSC("") ERC(M("n", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"roles\":[\"packet-magic-number\"]}")),
         TRACERD_E_METADATA, "field 'event.fields.n': a role is not allowed in event.fields"},
        {PRE DSC(",\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
                 M("t", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":"
                        "\"little-endian\",\"roles\":[\"default-clock-timestamp\"]}") "]}"),
         TRACERD_E_METADATA, "a clock timestamp role in a data stream class without a default clock"},
        {PRE DSC("") ERC(M("n", "{\"type\":\"fixed-length-signed-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"roles\":[\"packet-sequence-number\"]}")),
         TRACERD_E_METADATA, "only unsigned integers have roles"},
        {PRE DSC("") ERC(M("b", "{\"type\":\"static-length-blob\",\"length\":4,\"roles\":"
                                "[\"metadata-stream-uuid\"]}")),
         TRACERD_E_METADATA, "the metadata-stream-uuid role needs a 16-byte BLOB"},
        {PRE DSC("") ERC(M("m", "{\"type\":\"fixed-length-bit-map\",\"length\":4,\"byte-order\":"
                                "\"little-endian\",\"flags\":{\"F\":[[4,4]]}}")),
         TRACERD_E_METADATA, "flag 'F' names a bit outside 0..3"},
        {PRE DSC("") ERC(M("s", "{\"type\":\"null-terminated-string\",\"encoding\":\"latin1\"}")),
         TRACERD_E_METADATA, "unknown encoding 'latin1'"},
        {PRE DSC("") ERC(M("v", "{\"type\":\"variant\",\"selector-field-location\":{\"origin\":"
                                "\"nowhere\",\"path\":[\"x\"]},\"options\":[]}")),
         TRACERD_E_METADATA, "unknown origin scope"},
        {PRE DSC("") ERC(M("a", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
                                "\"byte-order\":\"little-endian\",\"extensions\":{\"y.org\":"
                                "{\"ext\":1}}}")),
         TRACERD_E_UNSUPPORTED, "requires the extension 'ext' of namespace 'y.org'"},
        {PRE RS "{\"type\":\"trace-class\",\"environment\":{\"k\":[1]}}", TRACERD_E_METADATA,
         "environment entry 'k' must be an integer or a string"},
        {PRE DSC("") ERC(M("a", U8)) ERC(M("b", U8)), TRACERD_E_METADATA,
         "event record classes '' and '' share id 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tracerd_ctf_trace_t *t = NULL;
        char reason[512];
        tracerd_status_t st = tracerd_ctf_trace_parse(cases[i].meta, strlen(cases[i].meta), NULL,
                                                      NULL, &t, reason, sizeof reason);
        ck_assert_msg(st == cases[i].st && strstr(reason, cases[i].reason) != NULL,
                      "case %zu: %s %s", i, tracerd_status_name(st), reason);
        ck_assert_ptr_null(t);
    }
    /* line and column of a JSON syntax error inside its fragment */
    tracerd_ctf_metadata_t *m;
    const char *bad = PRE RS "{\n  \"type\": \"trace-class\"\n  x}";
    ck_assert_int_eq(tracerd_ctf_metadata_new(NULL, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, bad, strlen(bad)), TRACERD_OK);
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_E_METADATA);
    ck_assert_uint_eq(tracerd_ctf_metadata_line(m), 3);
    ck_assert_uint_eq(tracerd_ctf_metadata_column(m), 3);
    ck_assert_uint_eq(tracerd_ctf_metadata_record_offset(m), 32);
    tracerd_ctf_metadata_free(m);
    /* nesting deeper than max_depth */
    char deep[8192] = PRE DSC("") RS "{\"type\":\"event-record-class\",\"payload-field-class\":"
                                     "{\"type\":\"structure\",\"member-classes\":["
                                     "{\"name\":\"a\",\"field-class\":";
    for (int k = 0; k < 70; k++)
        strcat(deep, "{\"type\":\"static-length-array\",\"length\":1,\"element-field-class\":");
    strcat(deep, U8);
    for (int k = 0; k < 70; k++)
        strcat(deep, "}");
    strcat(deep, "}]}}");
    char reason[512];
    ck_assert_int_eq(tracerd_ctf_trace_parse(deep, strlen(deep), NULL, NULL, &t, reason,
                                             sizeof reason),
                     TRACERD_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(reason, "nested deeper than max_depth (64)"));
}
END_TEST

/* Data errors: an over-long LEB128 integer, a variant selector matching no
 * option, a dynamic BLOB longer than the packet. */
START_TEST(test_ctf2_data_errors)
{
    static const struct {
        const char *payload;
        uint8_t data[16];
        size_t len;
        const char *end;
    } cases[] = {
        {M("v", "{\"type\":\"variable-length-unsigned-integer\"}"),
         {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
         10,
         "end E_BAD_RECORD @0 event '' field event.fields.v at byte 0: variable-length integer "
         "wider than 64 bits\n"},
        {M("v", "{\"type\":\"variable-length-unsigned-integer\"}"),
         {0x80, 0x80},
         2,
         "end E_TRUNCATED @0 event '' field event.fields.v at byte 0: input ends inside the "
         "field\n"},
        {M("n", U8) "," M("v", "{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"n\"]},"
                               "\"options\":[{\"selector-field-ranges\":[[0,1]],\"field-class\":" U8 "}]}"),
         {7, 0},
         2,
         "end E_BAD_RECORD @0 event '' field event.fields.v at byte 1: variant tag value 7 selects "
         "no option\n"},
        {M("n", U8) "," M("b", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":"
                               "{\"path\":[\"n\"]}}"),
         {9, 1, 2},
         3,
         "end E_TRUNCATED @0 event '' field event.fields.b at byte 1: input ends inside the "
         "field\n"},
        /* a location through a disabled optional: the second event (the
         * first one enabled it: no stale value) */
        {M("on", BOOL8) "," M("o", "{\"type\":\"optional\",\"selector-field-location\":"
                                   "{\"path\":[\"on\"]},\"field-class\":" U8 "}") ","
         M("d", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":{\"path\":[\"o\"]}}"),
         {1, 2, 0xAA, 0xBB, 0, 9},
         6,
         "end E_BAD_RECORD @4 event '' field event.fields.d at byte 5: its field location 'o' "
         "names a field this record did not decode (a disabled optional or another variant "
         "option)\n"},
        /* through a variant whose selected option lacks the path */
        {M("t", U8) "," M("v", "{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"t\"]},"
                               "\"options\":[{\"selector-field-ranges\":[[0,0]],\"field-class\":"
                               "{\"type\":\"structure\",\"member-classes\":[" M("n", U8) "]}},"
                               "{\"selector-field-ranges\":[[1,1]],\"field-class\":"
                               "{\"type\":\"structure\"}}]}") ","
         M("d", "{\"type\":\"dynamic-length-array\",\"length-field-location\":{\"origin\":"
                "\"event-record-payload\",\"path\":[\"v\",\"n\"]},\"element-field-class\":" U8 "}"),
         {0, 1, 7, 1},
         4,
         "end E_BAD_RECORD @3 event '' field event.fields.d at byte 4: its field location "
         "'event-record-payload/v/n' names a field this record did not decode (a disabled "
         "optional or another variant option)\n"},
        /* an optional then a variant: the outer optional disabled clears
         * what its variant had set in the event before */
        {M("t", U8) "," M("o", "{\"type\":\"optional\",\"selector-field-location\":"
                               "{\"path\":[\"t\"]},\"selector-field-ranges\":[[1,1]],"
                               "\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
                               "{\"path\":[\"t\"]},\"options\":[{\"selector-field-ranges\":[[1,1]],"
                               "\"field-class\":" U8 "}]}}") ","
         M("s", "{\"type\":\"optional\",\"selector-field-location\":{\"path\":[\"o\"]},"
                "\"selector-field-ranges\":[[1,1]],\"field-class\":" U8 "}"),
         {1, 1, 5, 0},
         4,
         "end E_BAD_RECORD @3 event '' field event.fields.s at byte 4: its field location 'o' "
         "names a field this record did not decode (a disabled optional or another variant "
         "option)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char meta[2048];
        snprintf(meta, sizeof meta, "%s", PRE DSC(""));
        snprintf(meta + strlen(meta), sizeof meta - strlen(meta),
                 RS "{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":"
                    "\"structure\",\"member-classes\":[%s]}}",
                 cases[i].payload);
        struct target_cfg c;
        cfg_init(&c, meta);
        char *log = drv_check_all(&ctf_target, &c, cases[i].data, cases[i].len);
        const char *end = strstr(log, "end ");
        ck_assert_msg(end != NULL && strcmp(end, cases[i].end) == 0, "case %zu: %s", i, log);
        free(log);
    }
}
END_TEST

static void put_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(p, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

/* ==== the CLI ================================================================ */

/* info names the version and the CTF 2 properties; dump, json and stats
 * work; every converted trace gives the same `tracerd json` as its CTF 1.8
 * original; a packetized CTF 2 metadata folder is found. */
START_TEST(test_ctf2_cli)
{
    const char *peer = drv_peer_dir();
    if (getenv("TRACERD_CLI") == NULL || peer == NULL) {
        fprintf(stderr, "note: TRACERD_CLI or the peer folder missing; CLI test skipped\n");
        return;
    }
    char args[2048];
    int rc;
    snprintf(args, sizeof args, "info %s/ctf2/converted/peer-succeed-2packets", peer);
    char *out = cli_run(args, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "  version:     CTF 2, 3884 bytes of JSON metadata in 5 fragments\n"));
    ck_assert_ptr_nonnull(strstr(out, "  trace class: namespace lttng.org,2009, name joraj-alpa, "
                                      "uid 0f37a32b-1796-408d-b723-bd27b45921c6\n"));
    ck_assert_ptr_nonnull(strstr(out, "origin: Unix epoch\n    identity:  namespace -, uid "
                                      "db965ea1-f862-45a3-ab65-602642fdad90\n    error:     "
                                      "precision 0 cycles\n"));
    ck_assert_ptr_nonnull(strstr(out, "events:        2\n"));
    free(out);
    snprintf(args, sizeof args, "stats %s/ctf2/converted/peer-succeed-2packets", peer);
    out = cli_run(args, &rc);
    ck_assert_int_eq(rc, 0);
    free(out);
    snprintf(args, sizeof args, "dump %s/ctf2/babeltrace-2.1.2/ctf-traces/2/succeed/fl-bm", peer);
    out = cli_run(args, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"fields\":{\"lol\":18}"));
    free(out);
    /* the writer's trace with packetized metadata: dump shows the new kinds */
    char dir[] = "/tmp/tracerd-ctf2-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *meta = ctf2_writer_metadata(true);
    size_t ml, sl;
    uint8_t *pm = ctf_writer_packetize(meta, true, 512, &ml);
    uint8_t *data = ctf2_writer_stream(true, &sl);
    put_file(dir, "metadata", pm, ml);
    put_file(dir, "stream", data, sl);
    snprintf(args, sizeof args, "info %s", dir);
    out = cli_run(args, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "    origin:    namespace o.org, name boot, uid b-1\n"));
    ck_assert_ptr_nonnull(strstr(out, "precision 2 cycles accuracy 3 cycles"));
    ck_assert_ptr_nonnull(strstr(out, "  stream class 0: namespace -, name s, uid -, clock clk\n"));
    free(out);
    snprintf(args, sizeof args, "dump %s", dir);
    out = cli_run(args, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(out, "\"b1\":true,\"b2\":true"));
    ck_assert_ptr_nonnull(strstr(out, "\"opt1\":3735928559,\"sel\":2,\"opt2\":\"two\",\"opt3\":null"));
    ck_assert_ptr_nonnull(strstr(out, "\"blob\":\"01020304\""));
    ck_assert_ptr_nonnull(strstr(out, "\"u16a\":\"h\u00e9"));
    free(out);
    ck_assert_int_eq(drv_rm_tree(dir), 0);
    free(meta);
    free(pm);
    free(data);
    /* tracerd json: CTF 2 conversions and their CTF 1.8 originals */
    char root[1024];
    snprintf(root, sizeof root, "%s/ctf2/converted", peer);
    size_t n;
    char **v = subdirs(root, &n);
    for (size_t i = 0; i < n; i++) {
        const char *g = v[i] + 5;
        char d1[1200];
        d1[0] = '\0';
        for (const char *dash = strchr(g, '-'); dash != NULL; dash = strchr(dash + 1, '-')) {
            snprintf(d1, sizeof d1, "%s/ctf/%.*s/%s", peer, (int)(dash - g), g, dash + 1);
            if (exists(d1))
                break;
        }
        snprintf(args, sizeof args, "-q -o ctf.check-uuid=no json %s", d1); /* -q: the uuid warning */
        char *j1 = cli_run(args, &rc);
        ck_assert_int_eq(rc, 0);
        snprintf(args, sizeof args, "-q -o ctf.check-uuid=no json %s/%s", root, v[i]);
        char *j2 = cli_run(args, &rc);
        ck_assert_int_eq(rc, 0);
        ck_assert_msg(strcmp(j1, j2) == 0, "%s: tracerd json differs from the CTF 1.8 original",
                      v[i]);
        free(j1);
        free(j2);
    }
    free_list(v);
}
END_TEST

/* ==== the writer's feature trace ============================================ */

/* A writer trace in both byte orders through every split / pause /
 * allocation-failure plan: one golden log (the layout is the same in both
 * byte orders), and the fast path agrees. */
static void writer_trace(char *(*metadata)(bool), uint8_t *(*stream)(bool, size_t *),
                         const char *golden)
{
    char *logs[2];
    for (int big = 0; big < 2; big++) {
        char *meta = metadata(big);
        size_t len;
        uint8_t *data = stream(big, &len);
        struct target_cfg c;
        cfg_init(&c, meta);
        /* Each of drv_check_all's plans loads the metadata again (JSON,
         * model, programs): a minute of CPU for these two traces natively,
         * six under qemu-user. Slow hosts read them in drv_check_some's
         * plans and byte by byte (a chunk boundary at every byte). */
        logs[big] = drv_check_twin(&ctf_target, &c, data, len);
        if (drv_slow_host()) {
            size_t one = 1;
            drv_plan_t bytes = {.sizes = &one, .nsizes = 1};
            char *log = drv_run(&ctf_target, &c, data, len, &bytes);
            ck_assert_str_eq(log, logs[big]);
            free(log);
        }
        expect_ok(logs[big]);
        check_fast_path(meta, data, len, logs[big]);
        free(meta);
        free(data);
    }
    ck_assert_str_eq(logs[0], logs[1]);
    drv_golden(golden, logs[0]);
    free(logs[0]);
    free(logs[1]);
}

/* Every field class the peer traces lack. */
START_TEST(test_ctf2_writer_features)
{
    writer_trace(ctf2_writer_metadata, ctf2_writer_stream, "ctf2/features.log");
}
END_TEST

/* Field locations through arrays (the element being decoded), optionals,
 * variants (candidates of several options sharing one value, the option
 * holding the dependent) and an earlier scope's optional. */
START_TEST(test_ctf2_writer_locations)
{
    writer_trace(ctf2_writer_loc_metadata, ctf2_writer_loc_stream, "ctf2/locations.log");
}
END_TEST

/* ==== floating point numbers other than binary32/64 ========================= */

/* IEEE 754 binary{K} bit patterns (most significant first) and the double
 * each rounds to (nearest, ties to even), from
 * tests/data/ctf2/float_vectors.py (exact fractions), plus infinities and
 * NaNs written by hand. */
static const struct {
    const char *name;
    unsigned k;
    const char *hex;
    uint64_t want;
} wide_floats[] = {
    {"one", 128, "3fff0000000000000000000000000000", 0x3ff0000000000000ull}, /* 1 */
    {"tie_even", 128, "3fff0000000000000800000000000000", 0x3ff0000000000000ull}, /* 1 + 2^-53: tie, to even (1) */
    {"above_tie", 128, "3fff0000000000000800000000000001", 0x3ff0000000000001ull}, /* 1 + 2^-53 + 2^-112: up */
    {"tie_odd", 128, "3fff0000000000001800000000000000", 0x3ff0000000000002ull}, /* 1 + 2^-52 + 2^-53: tie, up to even */
    {"below_tie", 128, "bfff00000000000007ffffffffffffff", 0xbff0000000000000ull}, /* -(1 + 2^-53 - 2^-112): down */
    {"max_tie", 128, "43fefffffffffffff800000000000000", 0x7ff0000000000000ull}, /* (2 - 2^-53) 2^1023: tie, up to 2^1024: inf */
    {"max_below", 128, "43fefffffffffffff7ffffffffffffff", 0x7fefffffffffffffull}, /* just below: DBL_MAX */
    {"huge", 128, "d3870000000000000000000000000000", 0xfff0000000000000ull}, /* -2^5000: -inf */
    {"min_sub", 128, "3bcd0000000000000000000000000000", 0x0000000000000001ull}, /* 2^-1074: the least subnormal double */
    {"half_min_sub", 128, "bbcc0000000000000000000000000000", 0x8000000000000000ull}, /* -2^-1075: tie, to even (-0) */
    {"above_half", 128, "3bcc0000000000000000000000000001", 0x0000000000000001ull}, /* 2^-1075 (1 + 2^-112): up to 2^-1074 */
    {"sub_tie_odd", 128, "3bcd8000000000000000000000000000", 0x0000000000000002ull}, /* 1.5 2^-1074: tie, up to 2 2^-1074 */
    {"sub_round", 128, "3bf9ffffffffffffffffffffffffffff", 0x0000200000000000ull}, /* (2 - 2^-112) 2^-1030: subnormal, up to 2^-1029 */
    {"q_sub", 128, "00000000000000000000000000000001", 0x0000000000000000ull}, /* binary128 subnormal 2^-16494: 0 */
    {"third", 256, "3fffd55555555555555555555555555555555555555555555555555555555555", 0x3fd5555555555555ull}, /* binary256 1/3 (cut at 236 bits) */
    {"two_thirds", 256, "bfffe55555555555555555555555555555555555555555555555555555555555", 0xbfe5555555555555ull}, /* binary256 -2/3 */
    {"three", 160, "4000400000000000000000000000000000000000", 0x4008000000000000ull}, /* binary160 3 */
    {"pi", 192, "40002487ed5110b4611a62633145c06e0e68948127044533", 0x400921fb54442d18ull}, /* binary192 pi (cut at 174 bits) */
    {"h_sub", 16, "0001", 0x3e70000000000000ull}, /* binary16 2^-24 */
    {"h_max", 16, "fbff", 0xc0effc0000000000ull}, /* binary16 -65504 */
    {"inf", 128, "7fff0000000000000000000000000000", 0x7ff0000000000000ull},
    {"ninf", 256, "fffff00000000000000000000000000000000000000000000000000000000000",
     0xfff0000000000000ull},
    {"qnan", 128, "7fff8000000000000000000000000000", 0x7ff8000000000000ull},
    {"nnan_payload", 128, "ffff4000000000000000000000000000", 0xfff4000000000000ull},
    {"low_payload", 160, "7fff800000000000000000000000000000000001", 0x7ff8000000000000ull},
};

struct wide_seen {
    uint64_t bits[64];
    uint8_t raw[64][32];
    size_t raw_len[64];
};

static int wide_field(void *user, const tracerd_ctf_field_t *f)
{
    struct wide_seen *s = user;
    if (f->kind != TRACERD_CTF_VALUE_FLOAT)
        return 0;
    int i = -1;
    if (sscanf(f->name, "f%d", &i) != 1 && strcmp(f->name, "rev") != 0 && strcmp(f->name, "odd") != 0)
        return 0;
    if (!strcmp(f->name, "rev"))
        i = 60;
    else if (!strcmp(f->name, "odd"))
        i = 61;
    memcpy(&s->bits[i], &f->v.f, 8);
    s->raw_len[i] = f->bytes.data ? f->bytes.len : 0;
    if (f->bytes.data && f->bytes.len <= 32)
        memcpy(s->raw[i], f->bytes.data, f->bytes.len);
    return 0;
}

/* The K-bit pattern as bytes, most significant first. */
static size_t hex_bytes(const char *hex, uint8_t *out)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned b;
        sscanf(hex + 2 * i, "%2x", &b);
        out[i] = (uint8_t)b;
    }
    return n;
}

/* Every vector as a byte-aligned field in both byte orders (values and raw
 * bytes exact), a binary128 in the reversed bit order and one starting
 * inside a byte; the same events through every split / pause plan. */
START_TEST(test_ctf2_wide_floats)
{
    size_t nv = sizeof wide_floats / sizeof wide_floats[0];
    ck_assert_uint_lt(nv, 60);
    for (int big = 0; big < 2; big++) {
        const char *bo = big ? "big-endian" : "little-endian";
        char meta[16384];
        size_t m = (size_t)snprintf(meta, sizeof meta, "%s",
                                    PRE DSC("") RS "{\"type\":\"event-record-class\",\"payload-"
                                               "field-class\":{\"type\":\"structure\",\"member-"
                                               "classes\":[");
        for (size_t i = 0; i < nv; i++)
            m += (size_t)snprintf(meta + m, sizeof meta - m,
                                  "{\"name\":\"f%zu\",\"field-class\":{\"type\":\"fixed-length-"
                                  "floating-point-number\",\"length\":%u,\"alignment\":8,"
                                  "\"byte-order\":\"%s\"}},",
                                  i, wide_floats[i].k, bo);
        m += (size_t)snprintf(
            meta + m, sizeof meta - m,
            "{\"name\":\"rev\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
            "\"length\":128,\"alignment\":8,\"byte-order\":\"%s\",\"bit-order\":\"%s\"}},"
            "{\"name\":\"pad\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
            "\"length\":3,\"byte-order\":\"%s\"}},"
            "{\"name\":\"odd\",\"field-class\":{\"type\":\"fixed-length-floating-point-number\","
            "\"length\":128,\"byte-order\":\"%s\"}},"
            "{\"name\":\"end\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
            "\"length\":5,\"byte-order\":\"%s\"}}]}}",
            bo, big ? "first-to-last" : "last-to-first", bo, bo, bo);
        ck_assert_uint_lt(m, sizeof meta - 1);
        cw_t w;
        cw_init(&w);
        uint8_t b[64];
        for (size_t i = 0; i < nv; i++) {
            size_t n = hex_bytes(wide_floats[i].hex, b);
            for (size_t j = 0; j < n; j++)
                cw_int(&w, b[big ? j : n - 1 - j], 8, false);
        }
        /* rev: "tie_odd" (1 + 2^-52 + 2^-53), its 128 bits mirrored */
        uint64_t hi = 0x3fff000000000000ull, lo = 0x1800000000000000ull, rhi = 0, rlo = 0;
        for (int i = 0; i < 64; i++) {
            rlo |= ((hi >> i) & 1) << (63 - i);
            rhi |= ((lo >> i) & 1) << (63 - i);
        }
        cw_int(&w, big ? rhi : rlo, 64, big);
        cw_int(&w, big ? rlo : rhi, 64, big);
        cw_int(&w, 5, 3, big); /* pad */
        /* odd: -1.5 at bit 3 of a byte */
        cw_int(&w, big ? 0xbfff800000000000ull : 0, 64, big);
        cw_int(&w, big ? 0 : 0xbfff800000000000ull, 64, big);
        cw_int(&w, 17, 5, big); /* end */
        size_t len = (size_t)(w.bits / 8);

        tracerd_ctf_trace_t *t = parse_ok(meta);
        tracerd_ctf_stream_config_t cfg;
        tracerd_ctf_stream_config_init(&cfg);
        tracerd_ctf_callbacks_t cb;
        memset(&cb, 0, sizeof cb);
        cb.on_field = wide_field;
        struct wide_seen seen;
        memset(&seen, 0, sizeof seen);
        tracerd_ctf_stream_t *r;
        ck_assert_int_eq(tracerd_ctf_stream_new(t, &cfg, &cb, &seen, NULL, &r), TRACERD_OK);
        size_t used = 0;
        ck_assert_int_eq(tracerd_ctf_stream_feed(r, w.buf, len, &used), TRACERD_OK);
        ck_assert_uint_eq(used, len);
        ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
        tracerd_ctf_stream_free(r);
        tracerd_ctf_trace_free(t);
        for (size_t i = 0; i < nv; i++) {
            ck_assert_msg(seen.bits[i] == wide_floats[i].want,
                          "%s (%s): got %016llx, want %016llx", wide_floats[i].name, bo,
                          (unsigned long long)seen.bits[i],
                          (unsigned long long)wide_floats[i].want);
            size_t n = hex_bytes(wide_floats[i].hex, b);
            if (wide_floats[i].k < 128) {
                ck_assert_uint_eq(seen.raw_len[i], 0);
                continue;
            }
            ck_assert_uint_eq(seen.raw_len[i], n);
            for (size_t j = 0; j < n; j++)
                ck_assert_uint_eq(seen.raw[i][j], b[big ? j : n - 1 - j]);
        }
        ck_assert_uint_eq(seen.bits[60], 0x3ff0000000000002ull);
        ck_assert_uint_eq(seen.bits[61], 0xbff8000000000000ull);
        ck_assert_uint_eq(seen.raw_len[61], 0); /* not on a byte boundary: no raw view */

        struct target_cfg c;
        cfg_init(&c, meta);
        char *log = drv_check_all(&ctf_target, &c, w.buf, len);
        expect_ok(log);
        free(log);
        free(w.buf);
    }
}
END_TEST

/* ==== JSON integers beyond jansson's int64 ================================== */

#define U64MAX "18446744073709551615"
#define WIDE_META                                                                                  \
    PRE RS "{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":" U64MAX ",\"precision\":" U64MAX \
           ",\"accuracy\":9223372036854775808,\"offset-from-origin\":{\"seconds\":-5,"             \
           "\"cycles\":18446744073709551614},\"attributes\":{\"x.org\":{\"big\":"                  \
           "18446744073709551616,\"neg\":[-99999999999999999999, -9223372036854775808],"           \
           "\"s\":\"\\\\u0000 " U64MAX "\",\"u\":" U64MAX "}}}"                                  \
    RS "{\"type\":\"data-stream-class\",\"id\":" U64MAX ",\"default-clock-class-id\":\"c\"}"      \
    RS "{\"type\":\"event-record-class\",\"id\":" U64MAX ",\"data-stream-class-id\":" U64MAX      \
       ",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["                    \
    M("x", "{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":"            \
           "\"little-endian\",\"mappings\":{\"low\":[[0,9223372036854775807]],\"high\":"         \
           "[[9223372036854775808," U64MAX "]],\"neg\":[[-5,-1]]}}") ","                          \
    M("v", "{\"type\":\"variant\",\"selector-field-location\":{\"path\":[\"x\"]},\"options\":["    \
           "{\"name\":\"a\",\"selector-field-ranges\":[[-3,9223372036854775807]],"                \
           "\"field-class\":" U8 "},{\"name\":\"b\",\"selector-field-ranges\":"                  \
           "[[9223372036854775808," U64MAX "]],\"field-class\":" U16 "}]}") ","                   \
    M("o", "{\"type\":\"optional\",\"selector-field-location\":{\"path\":[\"x\"]},"               \
           "\"selector-field-ranges\":[[" U64MAX "," U64MAX "]],\"field-class\":" U8 "}") ","     \
    M("s", "{\"type\":\"fixed-length-signed-integer\",\"length\":8,\"byte-order\":"              \
           "\"little-endian\",\"mappings\":{\"all\":[[-9223372036854775808," U64MAX "]],"         \
           "\"none\":[[9223372036854775808,9223372036854775809]]}}") "]}}"

/* Unsigned 64-bit ids, clock frequency/offset/precision, range bounds above
 * INT64_MAX read exactly (jansson still parses: see tracerd__ctf2_load() in ctf2_load.c);
 * attributes keep their integers' text; a 64-bit selector above INT64_MAX
 * picks its option and enables its optional. */
START_TEST(test_ctf2_wide_integers)
{
    tracerd_ctf_trace_t *t = parse_ok(WIDE_META);
    const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
    const tracerd_ctf_clock_t *c = &in->clocks[0];
    ck_assert_uint_eq(c->freq, UINT64_MAX);
    ck_assert(c->has_precision && c->precision == UINT64_MAX);
    ck_assert(c->has_accuracy && c->accuracy == (uint64_t)1 << 63);
    /* -5 s + (2^64 - 2) cycles of 2^64 - 1 Hz = -4 s - 1 cycle */
    ck_assert_int_eq(c->offset_s, -4);
    ck_assert_int_eq(c->offset, -1);
    ck_assert_str_eq(c->attributes, "{\"x.org\":{\"big\":18446744073709551616,\"neg\":"
                                    "[-99999999999999999999,-9223372036854775808],\"s\":"
                                    "\"\\\\u0000 " U64MAX "\",\"u\":" U64MAX "}}");
    const tracerd_ctf_stream_class_t *sc = tracerd_ctf_trace_stream_class(t, UINT64_MAX);
    ck_assert_ptr_nonnull(sc);
    ck_assert_uint_eq(sc->id, UINT64_MAX);
    const tracerd_ctf_event_class_t *e = tracerd_ctf_trace_event_class(t, UINT64_MAX, UINT64_MAX);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->id, UINT64_MAX);
    const tracerd_ctf_type_t *x = member_type(e->fields, "x");
    ck_assert_uint_eq(x->nmappings, 2); /* "neg" holds no unsigned value */
    ck_assert_int_eq(x->mappings[0].lo, 0);
    ck_assert_int_eq(x->mappings[0].hi, INT64_MAX);
    ck_assert_uint_eq((uint64_t)x->mappings[1].lo, (uint64_t)1 << 63);
    ck_assert_uint_eq((uint64_t)x->mappings[1].hi, UINT64_MAX);
    const tracerd_ctf_type_t *sm = member_type(e->fields, "s");
    ck_assert_uint_eq(sm->nmappings, 1); /* "none" holds no signed value */
    ck_assert_int_eq(sm->mappings[0].lo, INT64_MIN);
    ck_assert_int_eq(sm->mappings[0].hi, INT64_MAX);
    tracerd_ctf_trace_free(t);

    static const uint8_t data[] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x34, 0x12, 7, 0xfe, /* x = 2^64-1 */
        5,    0,    0,    0,    0,    0,    0,    0,    9,    0x80,          /* x = 5 */
    };
    struct target_cfg cfg;
    cfg_init(&cfg, WIDE_META);
    char *log = drv_check_all(&ctf_target, &cfg, data, sizeof data);
    expect_ok(log);
    static const char *const want[] = {
        "x = 18446744073709551615 (high)\n",
        "V< event.fields.v v opt=b\n",
        "UINT event.fields.v.b b = 4660\n",
        "O< event.fields.o o on=1\n",
        "UINT event.fields.o  = 7\n",
        "INT event.fields.s s = -2 (all)\n",
        "x = 5 (low)\n",
        "UINT event.fields.v.a a = 9\n",
        "O< event.fields.o o on=0\n",
        "INT event.fields.s s = -128 (all)\n",
    };
    const char *at = log;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *p = strstr(at, want[i]);
        ck_assert_msg(p != NULL, "missing '%s' in order in:\n%s", want[i], log);
        at = p + strlen(want[i]);
    }
    free(log);
}
END_TEST

/* jansson allocates outside the reader's allocator: a fragment whose JSON
 * tree may take more than max_metadata_bytes is refused before jansson
 * parses it (here 1000 empty objects: about 70 bytes of tree per byte). */
START_TEST(test_ctf2_json_memory_bound)
{
    char meta[8192];
    size_t n = (size_t)snprintf(meta, sizeof meta, "%s",
                                PRE RS "{\"type\":\"trace-class\",\"attributes\":{\"a\":[");
    for (int i = 0; i < 1000; i++)
        n += (size_t)snprintf(meta + n, sizeof meta - n, "%s{}", i ? "," : "");
    n += (size_t)snprintf(meta + n, sizeof meta - n, "]}}" DSC(""));
    tracerd_ctf_metadata_config_t cfg;
    tracerd_ctf_metadata_config_init(&cfg);
    cfg.max_metadata_bytes = 65536;
    tracerd_ctf_metadata_t *m;
    tracerd_ctf_trace_t *t = NULL;
    ck_assert_int_eq(tracerd_ctf_metadata_new(&cfg, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta, n), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_E_LIMIT);
    ck_assert_str_eq(tracerd_ctf_metadata_error_reason(m),
                     "CTF 2 metadata fragment 1 (byte 32): its JSON (3043 bytes) may take up to "
                     "326982 bytes to parse, more than max_metadata_bytes (65536)");
    tracerd_ctf_metadata_free(m);
    cfg.max_metadata_bytes = 1 << 20; /* enough: read */
    ck_assert_int_eq(tracerd_ctf_metadata_new(&cfg, NULL, &m), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_feed(m, meta, n), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_metadata_finish(m, &t), TRACERD_OK);
    tracerd_ctf_trace_free(t);
    tracerd_ctf_metadata_free(m);
}
END_TEST

Suite *suite_ctf2(void)
{
    Suite *s = suite_create("ctf2");
    TCase *tc = tcase_create("peer");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_ctf2_converted);
    tcase_add_test(tc, test_ctf2_babeltrace_succeed);
    tcase_add_test(tc, test_ctf2_babeltrace_fail);
    tcase_add_test(tc, test_ctf2_same_as_ctf18);
    tcase_add_test(tc, test_ctf2_cli);
    suite_add_tcase(s, tc);
    tc = tcase_create("writer");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_ctf2_writer_features);
    tcase_add_test(tc, test_ctf2_writer_locations);
    suite_add_tcase(s, tc);
    tc = tcase_create("metadata");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_ctf2_model);
    tcase_add_test(tc, test_ctf2_metadata_feeding);
    tcase_add_test(tc, test_ctf2_metadata_errors);
    tcase_add_test(tc, test_ctf2_data_errors);
    tcase_add_test(tc, test_ctf2_wide_floats);
    tcase_add_test(tc, test_ctf2_wide_integers);
    tcase_add_test(tc, test_ctf2_json_memory_bound);
    suite_add_tcase(s, tc);
    return s;
}
