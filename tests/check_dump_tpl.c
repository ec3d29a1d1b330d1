/* `tracerd dump` on CTF writes an event's fields through a template of its
 * record shape (tools/tracerd/ctf_tpl.h) when its records match one made
 * from an earlier event: its output must be the record-by-record writer's
 * byte for byte. TRACERD_CLI_NO_TEMPLATES=1 makes the CLI write every event
 * record by record; each run here is made both ways and compared, over every
 * CTF trace of tests/data and ../shared/peer-tests, the writer's feature
 * trace, and a trace of shapes that differ only where a template must see
 * it (a variant's option between two options of one type, sequences of
 * strings whose lengths change, a string long enough to come in fragments,
 * strings that are not UTF-8 with and without a key, a class of one record
 * shape whose scopes have as many records each, enumerations whose values'
 * text the template keeps: signed and unsigned, values of one way of its
 * table in turn, values without a label, a label too long to keep; events
 * of as many records whose choices differ: two sequences of one sum of
 * lengths, a sequence of structs holding a variant beside a sequence, a
 * string in fragments beside a shorter sequence with an integer where the
 * template has its length; CTF 2 options without a name, one an integer,
 * one a string), in both byte orders, read
 * in small chunks (events cut across reads), with small stitch buffers, with dump filters and cut
 * short. The event view's argument plans (libtracerd/event/map_ctf.c, told
 * apart by the same records: ctf_choices.h) are checked on the same runs:
 * `json` against `json --begin 0`, which maps record by record. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "support/ctf_writer.h"
#include "support/event_support.h"

/* Runs `tracerd dump ARGS... path` both ways; fails on any difference.
 * Returns 1 when it exits 0. */
static unsigned both_ways(const char *cli, const char *const *args, const char *path)
{
    return ev_run_both_ways(cli, "TRACERD_CLI_NO_TEMPLATES", "dump", args, path);
}

/* `tracerd json ARGS... path` and the same with --begin 0: a filter that
 * lets every event through but makes the event view map every batch of
 * field records record by record (libtracerd/event/map_ctf.c: argument
 * plans are left out when a filter tests the event between its contexts
 * and its payload); fails on any difference. */
static void json_both_ways(const char *cli, const char *const *args, const char *path)
{
    static const char *const begin0[] = {"--begin", "0", NULL};
    ev_run_with_args(cli, begin0, "json", args, path);
}

static const char *const arg_sets[][8] = {
    /* (the first three differ only in the chunk size: visit) */
    {"-q"},
    {"-q", "--chunk", "64"}, /* the smallest read */
    {"-q", "--chunk", "100"},
    {"-q", "-o", "ctf.stitch-bytes=64"},
    {"-q", "--lenient", "--chunk", "4096"},
};

static bool has_metadata(const char *dir)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/metadata", dir);
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

struct walk {
    const char *cli;
    unsigned dirs, runs, ok;
};

/* Every argument set on a trace directory, both ways. The first three sets
 * differ only in the chunk size, so the second ways' output (record by
 * record, the event view) must be the same for them: it is made once, with
 * the first set, and each set's first way must give it (4 runs of the CLI
 * fewer a directory than both ways for each: under the sanitizers a run
 * costs ~12 ms of their start and exit alone, and this sweep runs over 140
 * directories). Slow hosts (drv_slow_host) leave out --chunk 100 (64, the
 * smallest read, cuts records at more places). */
static void visit(void *ctx, const char *dir, bool is_dir)
{
    struct walk *w = ctx;
    if (!is_dir || !has_metadata(dir))
        return;
    static const char *const begin0[] = {"--begin", "0", NULL};
    w->dirs++;
    ev_proc_t dump, json;
    ev_run_second(w->cli, "TRACERD_CLI_NO_TEMPLATES", NULL, "dump", arg_sets[0], dir, &dump);
    ev_run_second(w->cli, NULL, begin0, "json", arg_sets[0], dir, &json);
    for (size_t i = 0; i < 3; i++) {
        if (i == 2 && drv_slow_host())
            continue;
        w->ok += ev_run_first_like(w->cli, "TRACERD_CLI_NO_TEMPLATES", NULL, "dump", arg_sets[i],
                                   dir, &dump);
        ev_run_first_like(w->cli, NULL, begin0, "json", arg_sets[i], dir, &json);
        w->runs++;
    }
    ev_proc_free(&dump);
    ev_proc_free(&json);
    for (size_t i = 3; i < sizeof arg_sets / sizeof arg_sets[0]; i++) {
        w->ok += both_ways(w->cli, arg_sets[i], dir);
        json_both_ways(w->cli, arg_sets[i], dir);
        w->runs++;
    }
}

START_TEST(test_samples_and_peers)
{
    CLI_OR_SKIP(cli);
    struct walk w = {cli, 0, 0, 0};
    ev_walk_tree("tests/data/ctf", visit, &w);
    unsigned ours = w.dirs;
    ev_walk_tree("../shared/peer-tests", visit, &w);
    fprintf(stderr, "dump templates: %u CTF directories (%u from peers), %u runs, %u exit 0\n",
            w.dirs, w.dirs - ours, w.runs, w.ok);
    ck_assert_uint_ge(ours, 3);
    ck_assert_uint_gt(w.ok, 10);
}
END_TEST

/* A directory holding metadata and stream files; returns its path (malloc'd). */
static char *trace_dir(const char *name, const char *meta, const void *stream, size_t len)
{
    char *dir = malloc(strlen(ev_temp_dir()) + strlen(name) + 2);
    sprintf(dir, "%s/%s", ev_temp_dir(), name);
    mkdir(dir, 0700);
    char path[1200];
    snprintf(path, sizeof path, "%s/metadata", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(meta, 1, strlen(meta), f), strlen(meta));
    fclose(f);
    snprintf(path, sizeof path, "%s/stream", dir);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(stream, 1, len, f), len);
    fclose(f);
    return dir;
}

static void remove_trace(char *dir)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/metadata", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/stream", dir);
    remove(path);
    remove(dir);
    free(dir);
}

/* Every way, and filters (which write the events they hold record by
 * record both ways) and a cut: the same error after the same lines. */
static void check_trace(const char *cli, const char *dir, const uint8_t *stream, size_t len)
{
    unsigned ok = 0;
    for (size_t i = 0; i < sizeof arg_sets / sizeof arg_sets[0]; i++) {
        ok += both_ways(cli, arg_sets[i], dir);
        json_both_ways(cli, arg_sets[i], dir);
    }
    ck_assert_uint_ge(ok, 4); /* all but, for the feature trace, the small stitch buffer */
    static const char *const filters[][8] = {
        {"-q", "--name", "shape*"},
        {"-q", "--tid", "5"},
        {"-q", "--tid", "6", "--chunk", "13"},
    };
    for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++)
        both_ways(cli, filters[i], dir);
    char path[1200];
    snprintf(path, sizeof path, "%s/stream", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(stream, 1, len - len / 3, f), len - len / 3);
    fclose(f);
    static const char *const quiet[] = {"-q", NULL};
    both_ways(cli, quiet, dir);
    json_both_ways(cli, quiet, dir);
}

START_TEST(test_feature_trace)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        char *meta = ctf_writer_metadata(big != 0);
        size_t len = 0;
        uint8_t *stream = ctf_writer_stream(big != 0, &len);
        char *dir = trace_dir(big ? "tpl-feature-be" : "tpl-feature-le", meta, stream, len);
        check_trace(cli, dir, stream, len);
        remove_trace(dir);
        free(meta);
        free(stream);
    }
}
END_TEST

/* The event names of text's lines that hold `line`, each after `key`, one a
 * line (malloc'd). */
static char *names_in(const char *text, const char *line, const char *key)
{
    size_t cap = strlen(text) + 1, n = 0;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    for (const char *l = text; *l != '\0';) {
        const char *end = strchr(l, '\n');
        size_t len = end != NULL ? (size_t)(end - l) : strlen(l);
        const char *at = strstr(l, line), *k = at != NULL ? strstr(at, key) : NULL;
        if (at != NULL && at < l + len && k != NULL && k < l + len) {
            for (k += strlen(key); *k != '"' && k < l + len; k++)
                out[n++] = *k;
            out[n++] = '\n';
        }
        l += len + (end != NULL);
    }
    out[n] = '\0';
    return out;
}

/* The dump's event lines name the same classes, in the same order, as
 * json's events (the event view's names, made apart from the dump's kept
 * class texts, which two classes taking turns reuse). */
static void check_class_names(const char *cli, const char *dir)
{
    ev_proc_t d, j;
    ev_run_cli(cli, NULL, &d, "dump", "-q", dir, NULL);
    ev_run_cli(cli, NULL, &j, "json", "-q", dir, NULL);
    char *dn = names_in(d.out, "{\"type\":\"event\"", "\"name\":\"");
    char *jn = names_in(j.out, "{\"ph\":\"i\"", ",\"name\":\"");
    ck_assert_uint_ge(ev_count(dn, "\n"), 100);
    ck_assert_str_eq(dn, jn);
    free(dn);
    free(jn);
    ev_proc_free(&d);
    ev_proc_free(&j);
}

/* Shapes a template must tell apart (see the top of the file). */
static const char shape_meta[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
    "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
    "\tpacket.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n"
    "stream {\n\tid = 0;\n"
    "\tpacket.context := struct { uint32_t content_size; uint32_t packet_size; };\n"
    "\tevent.header := struct { uint8_t id; };\n"
    "\tevent.context := struct { uint32_t tid; };\n};\n"
    "event {\n\tname = \"shape\";\n\tid = 0;\n\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tenum : uint8_t { A = 0, B = 1 } sel;\n"
    "\t\tvariant <sel> { uint32_t A; uint32_t B; } v;\n"
    "\t\tuint8_t n;\n"
    "\t\tstring ss[n];\n"
    "\t\tstring s;\n"
    "\t\tinteger { size = 8; align = 8; encoding = UTF8; } t[4];\n"
    "\t};\n};\n"
    "event {\n\tname = \"other\";\n\tid = 1;\n\tstream_id = 0;\n"
    "\tfields := struct { uint8_t n; uint32_t q[n]; };\n};\n"
    "event {\n\tname = \"fixed\";\n\tid = 2;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t a; };\n};\n"
    "event {\n\tname = \"enums\";\n\tid = 3;\n\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tenum : int8_t { NEG = -3, ZERO = 0, FIVE = 5 } e1;\n"
    "\t\tenum : uint32_t { W0 = 0, W8 = 8, W16 = 16, W1 = 1,\n"
    "\t\t\tA_LABEL_LONG_ENOUGH_THAT_ITS_TEXT_DOES_NOT_FIT_IN_A_KEPT_WAY = 9 } e2;\n"
    "\t};\n};\n"
    "event {\n\tname = \"twoseq\";\n\tid = 4;\n\tstream_id = 0;\n"
    "\tfields := struct { uint8_t n1; uint32_t a[n1]; uint8_t n2; uint32_t b[n2]; };\n};\n"
    "event {\n\tname = \"nest\";\n\tid = 5;\n\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tuint8_t n;\n"
    "\t\tstruct {\n"
    "\t\t\tenum : uint8_t { A = 0, B = 1 } k;\n"
    "\t\t\tvariant <k> { uint8_t A; struct { uint8_t x; uint8_t y; } B; } v;\n"
    "\t\t} e[n];\n"
    "\t\tuint8_t n2;\n"
    "\t\tuint8_t c[n2];\n"
    "\t};\n};\n"
    "event {\n\tname = \"frag\";\n\tid = 6;\n\tstream_id = 0;\n"
    "\tfields := struct { string s; uint8_t n; uint8_t q; uint32_t a[n]; };\n};\n"
    "event {\n\tname = \"floats\";\n\tid = 7;\n\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 8; } d;\n"
    "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 8; } f;\n"
    "\t};\n};\n";

/* A "frag" event: a short string and n = q = 6 (a template's), or, with a
 * 64-byte stitch buffer, a string of 2 fragments (32 bytes each at most)
 * and n = 5, q = 6: as many records, with q where the template has its
 * sequence's length 6. */
static void frag_event(cw_t *w, unsigned k, bool big)
{
    bool lng = (k / 2) % 2 != 0;
    cw_int(w, 6, 8, big);
    cw_int(w, 5 + k % 2, 32, big); /* tid */
    cw_str(w, lng ? "fifty bytes: two fragments of a 64-byte stitch..." : "short");
    cw_int(w, lng ? 5 : 6, 8, big);
    cw_int(w, 6, 8, big);
    for (unsigned j = 0; j < (lng ? 5u : 6u); j++)
        cw_int(w, k + j, 32, big);
}

/* Events of as many records whose choices differ: "twoseq" (n1, n2) of one
 * sum; "nest" (an element of A takes 6 records, of B 9, an element of c 1):
 * {kinds of e}, n2 of 9 and of 12 records. */
static void seq_events(cw_t *w, unsigned k, bool big)
{
    static const uint8_t two[][2] = {{1, 2}, {2, 1}, {0, 3}, {3, 0}, {1, 2}};
    static const char *const nest[] = {"A", "B", "", "AA", "B", "A", "", "AA"};
    static const uint8_t nest_n2[] = {3, 0, 9, 0, 3, 6, 12, 0};
    cw_int(w, 4 + k % 2, 8, big);
    cw_int(w, 5 + k % 2, 32, big); /* tid */
    if (k % 2 == 0) {
        const uint8_t *n = two[(k / 2) % 5];
        for (unsigned s = 0; s < 2; s++) {
            cw_int(w, n[s], 8, big);
            for (unsigned j = 0; j < n[s]; j++)
                cw_int(w, 100u * k + 10u * s + j, 32, big);
        }
        return;
    }
    const char *e = nest[(k / 2) % 8];
    cw_int(w, strlen(e), 8, big);
    for (const char *c = e; *c != '\0'; c++) {
        cw_int(w, *c == 'B', 8, big);
        cw_int(w, k, 8, big);
        if (*c == 'B')
            cw_int(w, k + 1, 8, big);
    }
    cw_int(w, nest_n2[(k / 2) % 8], 8, big);
    for (unsigned j = 0; j < nest_n2[(k / 2) % 8]; j++)
        cw_int(w, k + j, 8, big);
}

static uint8_t *shape_stream(bool big, size_t *len)
{
    static const char *const strs[] = {
        "a",
        "",
        "\xff\xfe not UTF-8",
        "ok",
        "a string longer than a fragment of a 64-byte stitch buffer, so it comes in pieces",
        "\xc3\xa9t\xc3\xa9"};
    cw_t w;
    cw_init(&w);
    for (unsigned pkt = 0; pkt < 3; pkt++) {
        size_t start = cw_packet_begin(&w, big);
        for (unsigned i = 0; i < 40; i++) {
            unsigned k = pkt * 40 + i;
            bool other = k % 7 == 3;
            if (k % 9 == 4 || k % 8 == 5) { /* sequences of one sum */
                seq_events(&w, k, big);
                continue;
            }
            if (k % 10 == 8 || k % 10 == 9) {
                frag_event(&w, k, big);
                continue;
            }
            if (k % 11 == 7 || k % 13 == 2) { /* enumerations */
                static const int8_t e1[] = {-3, 0, 5, -3, 7, -128, 0};
                static const uint32_t e2[] = {0, 8, 16, 0, 1, 9, 70000, 8, 9};
                cw_int(&w, 3, 8, big);
                cw_int(&w, 5 + k % 2, 32, big);
                cw_int(&w, (uint8_t)e1[k % 7], 8, big);
                cw_int(&w, e2[k % 9], 32, big);
                continue;
            }
            if (k % 5 == 1) { /* a record shape: its scopes of three records each */
                cw_int(&w, 2, 8, big);
                cw_int(&w, 5 + k % 2, 32, big);
                cw_int(&w, k, 32, big);
                continue;
            }
            cw_int(&w, other ? 1 : 0, 8, big);
            cw_int(&w, 5 + k % 2, 32, big); /* tid */
            if (other) {
                unsigned n = k % 3;
                cw_int(&w, n, 8, big);
                for (unsigned j = 0; j < n; j++)
                    cw_int(&w, 1000u * k + j, 32, big);
                continue;
            }
            cw_int(&w, k % 2, 8, big);            /* sel: A, B in turn */
            cw_int(&w, k * 2654435761u, 32, big); /* v */
            unsigned n = (k / 2) % 4;
            cw_int(&w, n, 8, big);
            for (unsigned j = 0; j < n; j++)
                cw_str(&w, strs[(k + j) % 6]);
            cw_str(&w, strs[(k / 3) % 6]);
            cw_bytes(&w,
                     k % 5 == 0 ? "\xff\x01"
                                  "ab"
                                : "wxyz",
                     4);
        }
        cw_packet_end(&w, start, big, 0, 8);
    }
    /* a packet of "floats": finite values (integers, short fractions, the
     * rest), NaN and infinities (null) in turn, one record shape */
    static const double dv[] = {1.5,      NAN, 4212.25, INFINITY, -0.0,   -INFINITY,
                                0.1,      42,  1e300,   -NAN,     -2.125, 5e-324};
    size_t start = cw_packet_begin(&w, big);
    for (unsigned k = 0; k < 3 * 12; k++) {
        cw_int(&w, 7, 8, big);
        cw_int(&w, 5 + k % 2, 32, big); /* tid */
        cw_f64(&w, dv[k % 12], big);
        cw_f32(&w, (float)dv[(k + 5) % 12], big);
    }
    cw_packet_end(&w, start, big, 0, 8);
    *len = (size_t)(w.bits / 8);
    uint8_t *out = malloc(*len);
    memcpy(out, w.buf, *len);
    cw_free(&w);
    return out;
}

START_TEST(test_shapes)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        char meta[sizeof shape_meta + 8];
        snprintf(meta, sizeof meta, shape_meta, big ? "be" : "le");
        size_t len = 0;
        uint8_t *stream = shape_stream(big != 0, &len);
        char *dir = trace_dir(big ? "tpl-shape-be" : "tpl-shape-le", meta, stream, len);
        /* the dump is what the shapes make it (not only the same both ways) */
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "dump", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        ck_assert_ptr_nonnull(strstr(p.out, "\"v\":{\"A\":"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"v\":{\"B\":"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"ss\":[]"));
        ck_assert_ptr_nonnull(strstr(p.out, "{\"string\":\"\\ufffd\\ufffd not UTF-8\",\"hex\":"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"s_hex\":\"fffe"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"q\":[]"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e1\":{\"value\":-3,\"label\":\"NEG\"}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e1\":{\"value\":-128,\"label\":null}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e2\":{\"value\":16,\"label\":\"W16\"}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e2\":{\"value\":9,\"label\":\"A_LABEL_LONG"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e2\":{\"value\":70000,\"label\":null}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"a\":[],\"n2\":3,"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"n1\":3,"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e\":[{\"k\":{\"value\":1,\"label\":\"B\"},\"v\":{\"B\":{"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"e\":[],\"n2\":12,"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"fields\":{\"d\":1.5,\"f\":null}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"fields\":{\"d\":null,\"f\":0.10000000149011612}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"fields\":{\"d\":-0,\"f\":null}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"fields\":{\"d\":null,\"f\":4212.25}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"fields\":{\"d\":4.9406564584124654e-324,\"f\":-0}"));
        ev_proc_free(&p);
        check_class_names(cli, dir);
        check_trace(cli, dir, stream, len);
        remove_trace(dir);
        free(stream);
    }
}
END_TEST

/* CTF 2: a variant whose two options have no name (one display name, ""):
 * an integer and a string, one record each, so that only the record after
 * the variant's tells them apart. */
static const char unnamed_meta[] =
    "\x1e{\"type\":\"preamble\",\"version\":2}"
    "\x1e{\"type\":\"trace-class\"}"
    "\x1e{\"type\":\"data-stream-class\",\"id\":0,\"event-record-header-field-class\":"
    "{\"type\":\"structure\",\"member-classes\":[{\"name\":\"id\",\"field-class\":"
    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"alignment\":8,"
    "\"byte-order\":\"%s\",\"roles\":[\"event-record-class-id\"]}}]}}"
    "\x1e{\"type\":\"event-record-class\",\"id\":0,\"data-stream-class-id\":0,"
    "\"name\":\"unnamed\",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"tag\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
    "\"length\":8,\"alignment\":8,\"byte-order\":\"%s\"}},"
    "{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":"
    "{\"path\":[\"tag\"]},\"options\":["
    "{\"selector-field-ranges\":[[0,0]],\"field-class\":{\"type\":"
    "\"fixed-length-unsigned-integer\",\"length\":32,\"alignment\":8,\"byte-order\":\"%s\"}},"
    "{\"selector-field-ranges\":[[1,1]],\"field-class\":{\"type\":\"null-terminated-string\"}}"
    "]}}]}}\n";

START_TEST(test_unnamed_options)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        char meta[sizeof unnamed_meta + 3 * 16];
        const char *bo = big ? "big-endian" : "little-endian";
        snprintf(meta, sizeof meta, unnamed_meta, bo, bo, bo);
        cw_t w;
        cw_init(&w);
        for (unsigned k = 0; k < 40; k++) {
            cw_int(&w, 0, 8, big);
            cw_int(&w, k % 3 == 2, 8, big);
            if (k % 3 == 2)
                cw_str(&w, k % 2 ? "text" : "");
            else
                cw_int(&w, 1000u + k, 32, big);
        }
        size_t len = (size_t)(w.bits / 8);
        char *dir = trace_dir(big ? "tpl-unnamed-be" : "tpl-unnamed-le", meta, w.buf, len);
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "dump", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        ck_assert_ptr_nonnull(strstr(p.out, "\"v\":{\"\":1001}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"v\":{\"\":\"text\"}"));
        ev_proc_free(&p);
        check_trace(cli, dir, w.buf, len);
        remove_trace(dir);
        cw_free(&w);
    }
}
END_TEST

/* `json` on a directory writes an instant whose records an argument plan
 * holds straight from its records (tools/tracerd/json_ctf.c), through a
 * template made from its class's first event: a process that first shows
 * in a later event of such a class (its name's event comes first), negative
 * integers, doubles finite or not, threads that take turns (two of them,
 * 100 and 164, in one slot of the threads json_ctf.c keeps). */
static const char pid_meta[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
    "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
    "\tpacket.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n"
    "env { domain = \"ust\"; };\n"
    "stream {\n\tid = 0;\n"
    "\tpacket.context := struct { uint32_t content_size; uint32_t packet_size; };\n"
    "\tevent.header := struct { uint8_t id; };\n"
    "\tevent.context := struct { int32_t vpid; int32_t vtid; };\n};\n"
    "event {\n\tname = \"tick\";\n\tid = 0;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t n; int32_t d; floating_point { exp_dig = 11; mant_dig = 53; "
    "align = 8; } f; };\n};\n";

/* An event of pid_meta's class: its vpid, vtid and fields. */
static void pid_event(cw_t *w, bool big, uint32_t vpid, uint32_t vtid, uint32_t n, int32_t d,
                      double f)
{
    cw_int(w, 0, 8, big);
    cw_int(w, vpid, 32, big);
    cw_int(w, vtid, 32, big);
    cw_int(w, n, 32, big);
    cw_int(w, (uint32_t)d, 32, big);
    cw_f64(w, f, big);
}

/* The directory `name` of pid_meta in byte order big, whose stream is the
 * packet begun at w's start (cw_packet_begin) and ended here; returns its path
 * (malloc'd) and *len the stream's length. */
static char *pid_dir(const char *name, bool big, cw_t *w, size_t *len)
{
    char meta[sizeof pid_meta + 8];
    snprintf(meta, sizeof meta, pid_meta, big ? "be" : "le");
    cw_packet_end(w, 0, big, 0, 8);
    *len = (size_t)(w->bits / 8);
    return trace_dir(name, meta, w->buf, *len);
}

START_TEST(test_json_direct)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        cw_t w;
        cw_init(&w);
        cw_packet_begin(&w, big);
        for (unsigned k = 0; k < 60; k++) {
            uint32_t pid = k < 20 || k >= 40 ? 7 : 8 + k % 2;
            double f = k == 50 ? NAN : k / 4.0;
            pid_event(&w, big, pid, k % 3 == 1 ? 164 : 100 + k % 3, k, (int32_t)k - 30,
                      k == 51 ? -INFINITY : f);
        }
        size_t len;
        char *dir = pid_dir(big ? "tpl-json-be" : "tpl-json-le", big, &w, &len);
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "json", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        const char *p8 = strstr(p.out, "{\"ph\":\"M\",\"pid\":8,\"tid\":0,\"name\":\"process_name\"");
        const char *e8 = strstr(p.out, "{\"ph\":\"i\",\"pid\":8,\"tid\":102,");
        ck_assert_ptr_nonnull(p8);
        ck_assert_ptr_nonnull(e8);
        ck_assert(p8 < e8);
        ck_assert_ptr_nonnull(strstr(p.out, "\"args\":{\"vpid\":7,\"vtid\":100,\"n\":0,\"d\":-30,"
                                            "\"f\":0}}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"n\":21,\"d\":-9,\"f\":5.25}}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"n\":50,\"d\":20,\"f\":\"NaN\"}}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"n\":51,\"d\":21,\"f\":\"-Infinity\"}}"));
        ck_assert_uint_eq(ev_count(p.out, "\"ph\":\"i\""), 60);
        ev_proc_free(&p);
        check_trace(cli, dir, w.buf, len);
        remove_trace(dir);
        cw_free(&w);
    }
}
END_TEST

/* json's direct path keeps 64 threads' ids and text in slots found by a
 * hash of tid and pid (json_ctf.c, write_planned): two processes, 1000 and
 * 1064 (their pids alike modulo 64, so are 7 * pid's), whose threads meet in
 * a slot, with one tid (5, in both) and with tids alike modulo 64 (100 and
 * 164, in both), taking turns event by event so that each event finds the
 * slot holding the other process's thread. Every instant's "pid" and "tid"
 * must be its vpid and vtid (its first two arguments), and the document the
 * event view's (TRACERD_CLI_GENERAL=1), in both byte orders and in small
 * chunks. */
START_TEST(test_json_thread_slots)
{
    CLI_OR_SKIP(cli);
    static const uint32_t ids[][2] = {{1000, 5},   {1064, 5},   {1000, 100},
                                      {1064, 164}, {1064, 100}, {1000, 164}};
    const unsigned nids = sizeof ids / sizeof ids[0], nev = 12 * nids;
    for (int big = 0; big < 2; big++) {
        cw_t w;
        cw_init(&w);
        cw_packet_begin(&w, big);
        for (unsigned k = 0; k < nev; k++)
            pid_event(&w, big, ids[k % nids][0], ids[k % nids][1], k, 0, 0.5);
        size_t len;
        char *dir = pid_dir(big ? "tpl-slots-be" : "tpl-slots-le", big, &w, &len);
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "json", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        unsigned seen = 0;
        for (const char *e = p.out; (e = strstr(e, "{\"ph\":\"i\",")) != NULL; e++, seen++) {
            unsigned pid, tid, vpid, vtid, n;
            const char *a = strstr(e, "\"args\":{");
            ck_assert_ptr_nonnull(a);
            ck_assert_int_eq(sscanf(e, "{\"ph\":\"i\",\"pid\":%u,\"tid\":%u,", &pid, &tid), 2);
            ck_assert_int_eq(
                sscanf(a, "\"args\":{\"vpid\":%u,\"vtid\":%u,\"n\":%u", &vpid, &vtid, &n), 3);
            if (pid != vpid || tid != vtid || n != seen)
                ck_abort_msg("%s: instant %u (n %u) has pid %u, tid %u; its vpid %u, vtid %u",
                             big ? "be" : "le", seen, n, pid, tid, vpid, vtid);
        }
        ck_assert_uint_eq(seen, nev);
        ev_proc_free(&p);
        static const char *const sets[][8] = {{"-q"}, {"-q", "--chunk", "64"}};
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
            ck_assert_uint_eq(ev_run_both_ways(cli, "TRACERD_CLI_GENERAL", "json", sets[i], dir),
                              1);
        remove_trace(dir);
        cw_free(&w);
    }
}
END_TEST

/* Two streams whose packets' cpus (1 and 9) take turns event by event and
 * meet in one slot of the direct path's kept tails (",\"cpu\":N}}", kept by
 * the cpu's low bits). */
static const char cpu_meta[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
    "\tpacket.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n"
    "clock { name = \"c\"; freq = 1000000000; };\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := clk_t;\n"
    "stream {\n\tid = 0;\n"
    "\tpacket.context := struct { uint32_t content_size; uint32_t packet_size; "
    "uint32_t cpu_id; };\n"
    "\tevent.header := struct { uint8_t id; clk_t timestamp; };\n"
    "\tevent.context := struct { uint32_t vtid; };\n};\n"
    "event {\n\tname = \"tick\";\n\tid = 0;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t n; };\n};\n";

static void cpu_stream(cw_t *w, unsigned s, bool big)
{
    size_t start = cw_packet_begin(w, big);
    cw_int(w, s == 0 ? 1 : 8 * s + 1, 32, big); /* cpu_id: 1, 9, 17 */
    for (unsigned k = 0; k < 20; k++) {
        cw_int(w, 0, 8, big);
        cw_int(w, 1000u + 3 * k + s, 64, big); /* the streams take turns */
        cw_int(w, 100 + s, 32, big);
        cw_int(w, k, 32, big);
    }
    cw_packet_end(w, start, big, 0, 8);
}

/* Lines of text holding both a and b. */
static unsigned lines_with(const char *text, const char *a, const char *b)
{
    unsigned n = 0;
    for (const char *l = text; *l != '\0';) {
        const char *e = strchr(l, '\n');
        size_t len = e != NULL ? (size_t)(e - l) : strlen(l);
        char *line = strndup(l, len);
        n += strstr(line, a) != NULL && strstr(line, b) != NULL;
        free(line);
        l += len + (e != NULL);
    }
    return n;
}

/* Three streams (cpus 1, 9, 17) whose events take turns: json's cpus, and
 * dump's event lines each with its own stream's path (dump keeps the last
 * two streams' line prefixes). */
START_TEST(test_json_cpus)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        char meta[sizeof cpu_meta + 8];
        snprintf(meta, sizeof meta, cpu_meta, big ? "be" : "le");
        cw_t a, b, c;
        cw_init(&a);
        cw_init(&b);
        cw_init(&c);
        cpu_stream(&a, 0, big != 0);
        cpu_stream(&b, 1, big != 0);
        cpu_stream(&c, 2, big != 0);
        char *dir = trace_dir(big ? "tpl-cpu-be" : "tpl-cpu-le", meta, a.buf, a.bits / 8);
        char path[1200], path2[1200];
        snprintf(path, sizeof path, "%s/stream1", dir);
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(b.buf, 1, b.bits / 8, f), b.bits / 8);
        fclose(f);
        snprintf(path2, sizeof path2, "%s/stream2", dir);
        f = fopen(path2, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(c.buf, 1, c.bits / 8, f), c.bits / 8);
        fclose(f);
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "dump", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        for (int turn = 0; turn < 2; turn++) { /* two streams, then three in turn */
            ck_assert_uint_eq(lines_with(p.out, "/stream\",\"offset\"", "\"vtid\":100}"), 20);
            ck_assert_uint_eq(lines_with(p.out, "/stream1\",\"offset\"", "\"vtid\":101}"), 20);
            ck_assert_uint_eq(lines_with(p.out, "/stream2\",\"offset\"", "\"vtid\":102}"), 20);
            ck_assert_uint_eq(ev_count(p.out, "\"type\":\"event\""), 60);
            ev_proc_free(&p);
            if (turn == 0)
                ev_run_cli(cli, NULL, &p, "dump", "-q", "--chunk", "100", dir, NULL);
        }
        ev_run_cli(cli, NULL, &p, "json", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        ck_assert_ptr_nonnull(strstr(p.out, "\"tid\":100,\"ts\":1.000,"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"vtid\":100,\"n\":5,\"cpu\":1}}"));
        ck_assert_ptr_nonnull(strstr(p.out, "\"vtid\":101,\"n\":5,\"cpu\":9}}"));
        ck_assert_uint_eq(ev_count(p.out, "\"cpu\":9}}"), 20);
        ev_proc_free(&p);
        static const char *const quiet[] = {"-q", NULL};
        json_both_ways(cli, quiet, dir);
        remove(path);
        remove(path2);
        remove_trace(dir);
        cw_free(&a);
        cw_free(&b);
        cw_free(&c);
    }
}
END_TEST

/* Four enumerations whose kept texts are 55 bytes long (the longest a
 * template keeps is 56), more than a template's room for a value (24):
 * with each event's output longer than the room asked, the writer's buffer
 * overran and the dump crashed. Enough events for the output to fill the
 * writer's buffer (256 KiB) many times, at every position. */
static const char long_enum_meta[] =
    "/* CTF 1.8 */\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
    "\tpacket.header := struct { uint32_t magic; uint32_t stream_id; };\n};\n"
    "stream {\n\tid = 0;\n"
    "\tpacket.context := struct { uint32_t content_size; uint32_t packet_size; };\n"
    "\tevent.header := struct { uint8_t id; };\n};\n"
    "event {\n\tname = \"e\";\n\tid = 0;\n\tstream_id = 0;\n"
    "\tfields := struct {\n"
#define LONG_ENUM(k)                                                                               \
    "\t\tenum : uint8_t { LABEL_OF_THIRTY_THREE_CHARACTERS_" k " = 0, SHORT = 1, C = 2 } e" k ";\n"
    LONG_ENUM("0") LONG_ENUM("1") LONG_ENUM("2") LONG_ENUM("3")
#undef LONG_ENUM
    "\t};\n};\n";

START_TEST(test_long_enum_texts)
{
    CLI_OR_SKIP(cli);
    for (int big = 0; big < 2; big++) {
        char meta[sizeof long_enum_meta + 8];
        snprintf(meta, sizeof meta, long_enum_meta, big ? "be" : "le");
        cw_t w;
        cw_init(&w);
        uint64_t seed = 1;
        for (unsigned pkt = 0; pkt < 8; pkt++) {
            size_t start = cw_packet_begin(&w, big != 0);
            for (unsigned i = 0; i < 1500; i++) {
                cw_int(&w, 0, 8, big != 0);
                seed = seed * 6364136223846793005u + 1442695040888963407u;
                for (unsigned k = 0; k < 4; k++) /* mostly the long texts; lines of varied lengths */
                    cw_int(&w, k == (seed >> 33) % 8 ? 1 + k % 2 : 0, 8, big != 0);
            }
            cw_packet_end(&w, start, big != 0, 0, 8);
        }
        char *dir = trace_dir(big ? "tpl-enum-be" : "tpl-enum-le", meta, w.buf, w.bits / 8);
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "dump", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        ck_assert_uint_eq(ev_count(p.out, "\"type\":\"event\""), 8 * 1500);
        ck_assert_ptr_nonnull(
            strstr(p.out, "\"e3\":{\"value\":0,\"label\":\"LABEL_OF_THIRTY_THREE_CHARACTERS_3\"}}}"));
        ev_proc_free(&p);
        static const char *const quiet[] = {"-q", NULL};
        ck_assert_uint_eq(both_ways(cli, quiet, dir), 1);
        remove_trace(dir);
        cw_free(&w);
    }
}
END_TEST

/* CTF 2: an instant's text values that the direct json path writes itself
 * (json_ctf.c: strings, enumeration labels, booleans) beside one the
 * mapping makes (a BLOB): long strings whose bytes pass the event's room
 * for text (the event view keeps 4096 bytes of text values an event and
 * cuts the rest short) before, and after, the BLOB; labels, one with a
 * quote, and values without one. */
static const char texts_meta[] =
    "\x1e{\"type\":\"preamble\",\"version\":2}"
    "\x1e{\"type\":\"trace-class\"}"
    "\x1e{\"type\":\"data-stream-class\",\"id\":0,\"event-record-header-field-class\":"
    "{\"type\":\"structure\",\"member-classes\":[{\"name\":\"id\",\"field-class\":"
    "{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"alignment\":8,"
    "\"byte-order\":\"%s\",\"roles\":[\"event-record-class-id\"]}}]},"
    "\"event-record-common-context-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"vtid\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\","
    "\"length\":32,\"alignment\":8,\"byte-order\":\"%s\"}}]}}"
    "\x1e{\"type\":\"event-record-class\",\"id\":0,\"data-stream-class-id\":0,"
    "\"name\":\"texts\",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
    "{\"name\":\"s1\",\"field-class\":{\"type\":\"null-terminated-string\"}},"
    "{\"name\":\"on\",\"field-class\":{\"type\":\"fixed-length-boolean\",\"length\":8,"
    "\"alignment\":8,\"byte-order\":\"%s\"}},"
    "{\"name\":\"st\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
    "\"alignment\":8,\"byte-order\":\"%s\",\"mappings\":{\"IDLE\":[[0,0]],\"RUN\":[[1,1]],"
    "\"Q\\\"UOTE\":[[2,2]]}}},"
    "{\"name\":\"s2\",\"field-class\":{\"type\":\"null-terminated-string\"}},"
    "{\"name\":\"n\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,"
    "\"alignment\":8,\"byte-order\":\"%s\"}},"
    "{\"name\":\"b\",\"field-class\":{\"type\":\"dynamic-length-blob\","
    "\"length-field-location\":{\"path\":[\"n\"]}}},"
    "{\"name\":\"s3\",\"field-class\":{\"type\":\"null-terminated-string\"}}"
    "]}}\n";

/* A string of n bytes of letter c. */
static void long_str(cw_t *w, size_t n, char c)
{
    char *s = malloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    cw_str(w, s);
    free(s);
}

START_TEST(test_json_texts)
{
    CLI_OR_SKIP(cli);
    /* string lengths (s1, s2, s3) and the BLOB's, in turn: all short; s1 and
     * s2 past the room (s2 cut short); s1 then the BLOB past it; s1 and the
     * BLOB, then s3 past it */
    static const uint16_t lens[][4] = {
        {3, 0, 5, 2}, {2500, 2500, 1, 1}, {3000, 4, 2, 2000}, {1000, 2, 2500, 1000}, {1, 1, 1, 0},
    };
    for (int big = 0; big < 2; big++) {
        char meta[sizeof texts_meta + 5 * 16];
        const char *bo = big ? "big-endian" : "little-endian";
        snprintf(meta, sizeof meta, texts_meta, bo, bo, bo, bo, bo);
        cw_t w;
        cw_init(&w);
        for (unsigned k = 0; k < 40; k++) {
            const uint16_t *l = lens[k % 5];
            cw_int(&w, 0, 8, big);
            cw_int(&w, 100 + k % 2, 32, big); /* vtid */
            long_str(&w, l[0], 'a');
            cw_int(&w, k % 3 == 1, 8, big); /* on */
            cw_int(&w, k % 4, 8, big);      /* st: 3 has no label */
            long_str(&w, l[1], 'b');
            cw_int(&w, l[3], 16, big);
            for (unsigned j = 0; j < l[3]; j++)
                cw_int(&w, (j * 7 + k) & 0xff, 8, big);
            long_str(&w, l[2], 'c');
        }
        size_t len = (size_t)(w.bits / 8);
        char *dir = trace_dir(big ? "tpl-texts-be" : "tpl-texts-le", meta, w.buf, len);
        ev_proc_t p;
        ev_run_cli(cli, NULL, &p, "json", "-q", dir, NULL);
        ck_assert_int_eq(p.status, 0);
        ck_assert_uint_eq(ev_count(p.out, "\"ph\":\"i\""), 40);
        ck_assert_ptr_nonnull(strstr(p.out, "\"s1\":\"aaa\",\"on\":false,\"st\":\"IDLE\",\"s2\":\"\","));
        ck_assert_ptr_nonnull(strstr(p.out, "\"on\":true,\"st\":\"RUN\","));
        ck_assert_ptr_nonnull(strstr(p.out, "\"st\":\"Q\\\"UOTE\","));
        ck_assert_ptr_nonnull(strstr(p.out, "\"st\":3,"));
        ck_assert_uint_eq(ev_count(p.out, "\"s3\":\"c\"}"), 8);
        ev_proc_free(&p);
        check_trace(cli, dir, w.buf, len);
        remove_trace(dir);
        cw_free(&w);
    }
}
END_TEST

Suite *suite_dump_tpl(void);
Suite *suite_dump_tpl(void)
{
    Suite *s = suite_create("dump_tpl");
    TCase *tc = tcase_create("dump_tpl");
    ev_temp_fixture(tc);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_samples_and_peers);
    tcase_add_test(tc, test_feature_trace);
    tcase_add_test(tc, test_shapes);
    tcase_add_test(tc, test_unnamed_options);
    tcase_add_test(tc, test_json_direct);
    tcase_add_test(tc, test_json_thread_slots);
    tcase_add_test(tc, test_json_cpus);
    tcase_add_test(tc, test_long_enum_texts);
    tcase_add_test(tc, test_json_texts);
    suite_add_tcase(s, tc);
    return s;
}
