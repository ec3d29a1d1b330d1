/* CTF events larger than the stitch buffer (issue 17): strings, text and
 * byte sequences, sequences of integers and of structures, BLOBs and
 * UTF-16/32 strings of 100 KB to 2 MB, in both byte orders, decoded
 * identically in every split (the shared drivers: splits, pauses,
 * allocation failures); long values come in fragments that reassemble to
 * the value. The data is generated here (no file). */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "support/ctf_recorder.h"
#include "support/driver.h"

/* ---- a little writer ------------------------------------------------------ */

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    bool be;
} bw_t;

static void bw_room(bw_t *w, size_t n)
{
    if (w->len + n <= w->cap)
        return;
    while (w->len + n > w->cap)
        w->cap = w->cap ? w->cap * 2 : 4096;
    w->buf = realloc(w->buf, w->cap);
    ck_assert_ptr_nonnull(w->buf);
}

static void bw_bytes(bw_t *w, const void *p, size_t n)
{
    bw_room(w, n);
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void bw_uint(bw_t *w, uint64_t v, unsigned bytes)
{
    bw_room(w, bytes);
    for (unsigned i = 0; i < bytes; i++)
        w->buf[w->len + i] = (uint8_t)(v >> (8 * (w->be ? bytes - 1 - i : i)));
    w->len += bytes;
}

static void bw_set32(bw_t *w, size_t at, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        w->buf[at + i] = (uint8_t)(v >> (8 * (w->be ? 3 - i : i)));
}

/* Text of n bytes: letters, with UTF-8 characters of 2, 3 and 4 bytes placed
 * across every multiple of `step` (where a fragment would cut them). */
static char *big_text(size_t n, size_t step)
{
    char *s = malloc(n + 1);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++)
        s[i] = (char)('a' + i % 26);
    static const char *const chars[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"};
    unsigned k = 0;
    for (size_t at = step; at + 8 < n; at += step, k++) {
        const char *c = chars[k % 3];
        size_t cl = strlen(c), from = at - (k % cl ? k % cl : 1);
        memcpy(s + from, c, cl);
    }
    s[n] = '\0';
    return s;
}

/* ---- CTF 1.8 ------------------------------------------------------------- */

static char *tsdl(bool be)
{
    static const char fmt[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
        "typealias integer { size = 16; align = 8; signed = false; } := u16;\n"
        "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
        "trace { major = 1; minor = 8; byte_order = %s;\n"
        "  packet.header := struct { u32 magic; u32 stream_id; }; };\n"
        "stream { id = 0; packet.context := struct { u32 packet_size; u32 content_size; };\n"
        "  event.header := struct { u8 id; }; };\n"
        "event { name = \"s\"; id = 0; stream_id = 0; fields := struct { string s; u32 x; }; };\n"
        "event { name = \"b\"; id = 1; stream_id = 0; fields := struct { u32 n; u8 b[n]; u32 m;\n"
        "  integer { size = 8; align = 8; signed = false; encoding = UTF8; } t[m]; }; };\n"
        "event { name = \"q\"; id = 2; stream_id = 0; fields := struct { u32 n; u32 v[n]; }; };\n"
        "event { name = \"st\"; id = 3; stream_id = 0;\n"
        "  fields := struct { u32 n; struct { u16 a; string s; } e[n]; }; };\n";
    char *m = malloc(sizeof fmt + 8);
    ck_assert_ptr_nonnull(m);
    snprintf(m, sizeof fmt + 8, fmt, be ? "be" : "le");
    return m;
}

static void packet_begin(bw_t *w, size_t *size_at)
{
    bw_uint(w, 0xC1FC1FC1u, 4);
    bw_uint(w, 0, 4);
    *size_at = w->len;
    bw_uint(w, 0, 4);
    bw_uint(w, 0, 4);
}

static void packet_close(bw_t *w, size_t start, size_t size_at)
{
    uint32_t bits = (uint32_t)((w->len - start) * 8);
    bw_set32(w, size_at, bits);
    bw_set32(w, size_at + 4, bits);
}

static void ev_string(bw_t *w, const char *s, uint32_t x)
{
    bw_uint(w, 0, 1);
    bw_bytes(w, s, strlen(s) + 1);
    bw_uint(w, x, 4);
}

/* The stream: a packet with big events of every kind (scale_div 1: 70 KB to
 * 150 KB values, and a string of long_len bytes), then a packet with a
 * small event. texts[0..1] receive the
 * two long strings (caller frees). */
static uint8_t *tsdl_stream(bool be, size_t scale_div, size_t step, size_t long_len, size_t *len,
                            char **texts)
{
    bw_t w = {.be = be};
    size_t size_at;
    packet_begin(&w, &size_at);
    texts[0] = big_text(100000 / scale_div, step);
    ev_string(&w, texts[0], 7);
    texts[1] = big_text(long_len / scale_div, step);
    ev_string(&w, texts[1], 8);
    /* b: bytes, then text with its NUL inside */
    uint32_t nb = (uint32_t)(33000 / scale_div), nt = (uint32_t)(70000 / scale_div);
    bw_uint(&w, 1, 1);
    bw_uint(&w, nb, 4);
    for (uint32_t i = 0; i < nb; i++)
        bw_uint(&w, (i * 7u + 3u) & 0xFFu, 1);
    bw_uint(&w, nt, 4);
    for (uint32_t i = 0; i < nt; i++)
        bw_uint(&w, i == nt * 4 / 7 ? 0 : 'A' + i % 26, 1);
    /* q: integers */
    uint32_t nq = (uint32_t)(25000 / scale_div);
    bw_uint(&w, 2, 1);
    bw_uint(&w, nq, 4);
    for (uint32_t i = 0; i < nq; i++)
        bw_uint(&w, i * 2654435761u, 4);
    /* st: structures, one with a long string */
    uint32_t ns = (uint32_t)(1000 / scale_div);
    bw_uint(&w, 3, 1);
    bw_uint(&w, ns, 4);
    for (uint32_t i = 0; i < ns; i++) {
        bw_uint(&w, i, 2);
        if (i == ns / 2) {
            char *t = big_text(70000 / scale_div, step);
            bw_bytes(&w, t, strlen(t) + 1);
            free(t);
        } else {
            char t[16];
            snprintf(t, sizeof t, "e%u", i);
            bw_bytes(&w, t, strlen(t) + 1);
        }
    }
    ev_string(&w, "end", 9);
    packet_close(&w, 0, size_at);
    size_t p2 = w.len;
    packet_begin(&w, &size_at);
    ev_string(&w, "second packet", 10);
    packet_close(&w, p2, size_at);
    *len = w.len;
    return w.buf;
}

/* ---- reassembly: a reader that joins the fragments of each value ---------- */

struct join {
    const char *path; /* values kept: STRING fields whose path starts with this */
    char *buf;
    size_t len, cap;
    bool open;
    unsigned values, fragments;
    char *got[8]; /* the values kept, in order */
    size_t got_len[8];
    unsigned ngot;
};

static int join_field(void *user, const tracerd_ctf_field_t *f)
{
    struct join *j = user;
    if (f->kind != TRACERD_CTF_VALUE_STRING && f->kind != TRACERD_CTF_VALUE_BYTES) {
        ck_assert_uint_eq(f->frag, TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST);
        return 0;
    }
    const void *d = f->kind == TRACERD_CTF_VALUE_STRING ? (const void *)f->v.str.data
                                                        : (const void *)f->bytes.data;
    size_t n = f->kind == TRACERD_CTF_VALUE_STRING ? f->v.str.len : f->bytes.len;
    ck_assert(((f->frag & TRACERD_CTF_FRAG_FIRST) != 0) == !j->open);
    if (f->frag & TRACERD_CTF_FRAG_FIRST)
        j->len = 0;
    ck_assert_uint_eq(f->frag_offset, j->len);
    j->fragments++;
    if (f->kind == TRACERD_CTF_VALUE_STRING && n > 0) { /* whole UTF-8 characters */
        const uint8_t *u = d;
        ck_assert_msg((u[0] & 0xC0) != 0x80, "a fragment starts inside a character");
        size_t k = n;
        while (k > 0 && (u[k - 1] & 0xC0) == 0x80)
            k--;
        if (k > 0 && u[k - 1] >= 0xC0) {
            size_t want = u[k - 1] >= 0xF0 ? 4 : u[k - 1] >= 0xE0 ? 3 : 2;
            ck_assert_msg(n - (k - 1) == want, "a fragment ends inside a character");
        }
    }
    if (j->len + n > j->cap) {
        j->cap = (j->len + n) * 2;
        j->buf = realloc(j->buf, j->cap);
        ck_assert_ptr_nonnull(j->buf);
    }
    memcpy(j->buf + j->len, d, n);
    j->len += n;
    j->open = (f->frag & TRACERD_CTF_FRAG_LAST) == 0;
    if (!j->open) {
        j->values++;
        if (f->kind == TRACERD_CTF_VALUE_STRING &&
            strncmp(f->path, j->path, strlen(j->path)) == 0 && j->ngot < 8) {
            j->got[j->ngot] = malloc(j->len + 1);
            memcpy(j->got[j->ngot], j->buf, j->len);
            j->got[j->ngot][j->len] = '\0';
            j->got_len[j->ngot++] = j->len;
        }
    }
    return 0;
}

static void join_free(struct join *j)
{
    free(j->buf);
    for (unsigned i = 0; i < j->ngot; i++)
        free(j->got[i]);
}

/* Reads data in chunks of `chunk` with the joining on_field. */
static void join_read(const char *meta, const tracerd_ctf_stream_config_t *cfg, const uint8_t *data,
                      size_t len, size_t chunk, struct join *j)
{
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, NULL, 0),
                     TRACERD_OK);
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    cb.on_field = join_field;
    tracerd_ctf_stream_t *r;
    ck_assert_int_eq(tracerd_ctf_stream_new(t, cfg, &cb, j, NULL, &r), TRACERD_OK);
    for (size_t off = 0; off < len;) {
        size_t n = len - off < chunk ? len - off : chunk, used;
        tracerd_status_t st = tracerd_ctf_stream_feed(r, data + off, n, &used);
        ck_assert_msg(st == TRACERD_OK, "%s: %s", tracerd_status_name(st),
                      tracerd_ctf_stream_error_reason(r));
        off += used;
    }
    ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
    ck_assert(!j->open);
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
}

/* Reads the tsdl_stream trace in chunks of `chunk` bytes (join_read) and
 * asserts that the fragments of event.fields.s join into its four strings:
 * the two long ones (texts), "end" and "second packet". */
static void expect_joined(const char *meta, const tracerd_ctf_stream_config_t *cfg,
                          const uint8_t *data, size_t len, size_t chunk, char *const texts[2])
{
    struct join j = {.path = "event.fields.s"};
    join_read(meta, cfg, data, len, chunk, &j);
    ck_assert_uint_eq(j.ngot, 4);
    for (int k = 0; k < 2; k++) {
        ck_assert_uint_eq(j.got_len[k], strlen(texts[k]));
        ck_assert(strcmp(j.got[k], texts[k]) == 0);
    }
    ck_assert_str_eq(j.got[2], "end");
    ck_assert_str_eq(j.got[3], "second packet");
    ck_assert(j.fragments > j.values);
    join_free(&j);
}

static unsigned count(const char *log, const char *what)
{
    unsigned n = 0;
    for (const char *p = log; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

static void expect_ok(const char *log)
{
    const char *end = strstr(log, "\nend ");
    ck_assert_msg(end != NULL && strncmp(end, "\nend OK", 7) == 0, "log ends: %.300s",
                  end ? end : log);
}

/* Events of 100 KB to 1 MB (default stitch buffer, 32 KiB fragments), both
 * byte orders: every split gives the same callbacks, and the fragments of
 * each string join into the string. */
START_TEST(test_big_events_tsdl)
{
    bool be = _i != 0;
    char *meta = tsdl(be);
    char *texts[2];
    size_t len;
    uint8_t *data = tsdl_stream(be, 1, 32768, 150000, &len, texts);
    struct target_cfg c;
    cfg_init(&c, meta);
    /* the same code in the other byte order, and on slow hosts (sanitizers,
     * emulation): fewer plans */
    bool all = !be && !drv_slow_host();
    char *log = all ? drv_check_all(&ctf_target, &c, data, len)
                    : drv_check_some(&ctf_target, &c, data, len);
    expect_ok(log);
    /* on_fields: the same records (fragments too) in batches */
    char *batch = all ? drv_check_all(&ctf_batch_target, &c, data, len)
                      : drv_check_some(&ctf_batch_target, &c, data, len);
    ck_assert_str_eq(batch, log);
    free(batch);
    /* 100000 bytes: 4 fragments (3 of 32768 or a little less, cut before a
     * UTF-8 character, and the rest); 1 MB: 31 */
    ck_assert_uint_eq(count(log, "STR event.fields.s s = \""), 4 + 5 + 2);
    ck_assert_uint_eq(count(log, " fragF@0\n"), 2 + 1 + 1); /* s, s, t, one e[].s */
    ck_assert_uint_eq(count(log, " fragL@"), 2 + 1 + 1); /* s, s, t, one e[].s */
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.x x = 8\n"));
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.v  [24999] = "));
    ck_assert_ptr_nonnull(strstr(log, "STR event.fields.s s = \"second packet\"\n"));
    /* the byte sequence: longer than a fragment, so no whole view */
    ck_assert_ptr_nonnull(strstr(log, "Q[ event.fields.b b n=33000\n"));
    free(log);
    /* no field callback: the events alone, the same in every split */
    char *events = drv_slow_host() ? drv_check_some(&ctf_events_target, &c, data, len)
                           : drv_check_all(&ctf_events_target, &c, data, len);
    expect_ok(events);
    ck_assert_uint_eq(count(events, "E @"), 7);
    free(events);
    /* the fragments join into the values (4 KiB chunks and whole) */
    tracerd_ctf_stream_config_t cfg;
    tracerd_ctf_stream_config_init(&cfg);
    for (size_t chunk = 4096; chunk <= len; chunk = len) {
        expect_joined(meta, &cfg, data, len, chunk, texts);
        if (chunk == len)
            break;
    }
    free(texts[0]);
    free(texts[1]);
    free(data);
    free(meta);
}
END_TEST

/* A 3 MB string: whole, in 4 KiB chunks and cut in two at several places,
 * its fragments join into the string (the split drivers run on the 300 KB
 * one above). */
START_TEST(test_big_event_3mb)
{
    char *meta = tsdl(true);
    char *texts[2];
    size_t len;
    uint8_t *data = tsdl_stream(true, 1, 32768, 3000000, &len, texts);
    tracerd_ctf_stream_config_t cfg;
    tracerd_ctf_stream_config_init(&cfg);
    size_t chunks[] = {len, 4096, 1000003, 65536 + 17};
    ck_assert_uint_eq(strlen(texts[1]), 3000000);
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
        expect_joined(meta, &cfg, data, len, chunks[k], texts);
    free(texts[0]);
    free(texts[1]);
    free(data);
    free(meta);
}
END_TEST

/* A small stitch buffer (256 bytes: fragments of 128) on a small trace,
 * so that every 2-way cut and the 3-way cuts run: UTF-8 characters across
 * every fragment boundary are never cut. */
START_TEST(test_big_events_small_stitch)
{
    bool be = _i != 0;
    char *meta = tsdl(be);
    char *texts[2];
    size_t len;
    uint8_t *data = tsdl_stream(be, 300, 128, 1000000, &len, texts);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.stream.stitch_bytes = 256;
    char *log = drv_slow_host() ? drv_check_some(&ctf_target, &c, data, len)
                        : drv_check_all(&ctf_target, &c, data, len);
    expect_ok(log);
    ck_assert_ptr_nonnull(strstr(log, "STR event.fields.s s = \"end\"\n"));
    char *batch = drv_slow_host() ? drv_check_some(&ctf_batch_target, &c, data, len)
                                  : drv_check_all(&ctf_batch_target, &c, data, len);
    ck_assert_str_eq(batch, log);
    free(batch);
    free(log);
    for (size_t chunk = 1; chunk < 64; chunk += 13)
        expect_joined(meta, &c.stream, data, len, chunk, texts);
    free(texts[0]);
    free(texts[1]);
    free(data);
    free(meta);
}
END_TEST

/* A big event cut short: the same fields, then the same error, in every
 * split (truncated input, and content_size ending inside the string). */
START_TEST(test_big_event_errors)
{
    char *meta = tsdl(false);
    char *texts[2];
    size_t len;
    uint8_t *data = tsdl_stream(false, 10, 32768, 1000000, &len, texts);
    struct target_cfg c;
    cfg_init(&c, meta);
    c.stream.stitch_bytes = 4096;
    /* cut inside the 100 KB string */
    size_t cut = 16 + 1 + 50000;
    char *log = drv_check_all(&ctf_target, &c, data, cut);
    ck_assert_msg(strstr(log, "end E_TRUNCATED @10022 event 's' field event.fields.s at byte 10023") != NULL, "%s", strstr(log, "\nend "));
    char *batch = drv_check_all(&ctf_batch_target, &c, data, cut);
    ck_assert_str_eq(batch, log);
    free(batch);
    free(log);
    log = drv_check_all(&ctf_events_target, &c, data, cut);
    ck_assert_ptr_nonnull(strstr(log, "E @10022 s id=0"));
    ck_assert_msg(strstr(log, "end E_TRUNCATED @10022 event 's' field event.fields.s at byte 10023") != NULL, "%s", strstr(log, "\nend "));
    free(log);
    /* content_size ends inside the string */
    uint8_t *bad = malloc(len);
    memcpy(bad, data, len);
    uint32_t bits = (16 + 1 + 30000) * 8;
    for (int i = 0; i < 4; i++)
        bad[12 + i] = (uint8_t)(bits >> (8 * i));
    log = drv_check_all(&ctf_target, &c, bad, len);
    ck_assert_msg(strstr(log, "end E_EXTENT @10022 event 's' field event.fields.s at byte 10023") != NULL, "%s", strstr(log, "\nend "));
    batch = drv_check_all(&ctf_batch_target, &c, bad, len);
    ck_assert_str_eq(batch, log);
    free(batch);
    free(log);
    free(bad);
    free(texts[0]);
    free(texts[1]);
    free(data);
    free(meta);
}
END_TEST

/* ---- CTF 2: UTF-16/32 strings and BLOBs ----------------------------------- */

#define RS "\x1e"
#define M(n, fc) "{\"name\":\"" n "\",\"field-class\":" fc "}"
#define U32LE "{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\"}"

static const char ctf2_meta[] =
    RS "{\"type\":\"preamble\",\"version\":2}" RS "{\"type\":\"data-stream-class\"}" RS
       "{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"structure\","
       "\"member-classes\":[" M("u16le", "{\"type\":\"null-terminated-string\",\"encoding\":\"utf-16le\"}") ","
       M("u16be", "{\"type\":\"null-terminated-string\",\"encoding\":\"utf-16be\"}") ","
       M("u32le", "{\"type\":\"null-terminated-string\",\"encoding\":\"utf-32le\"}") ","
       M("n", U32LE) ","
       M("blob", "{\"type\":\"dynamic-length-blob\",\"length-field-location\":{\"origin\":"
                 "\"event-record-payload\",\"path\":[\"n\"]}}") ","
       M("x", U32LE) "]}}";

/* Code point i of the test text: ASCII, 2- and 3-byte characters, and
 * characters outside the BMP (UTF-16 surrogate pairs) at every position. */
static uint32_t cp_at(size_t i)
{
    static const uint32_t cps[] = {'a', 0xE9, 'b', 0x20AC, 0x1F600, 'c', 0x10FFFF, 0x4E2D};
    return cps[i % 8];
}

static void put_unit(bw_t *w, uint32_t u, unsigned bytes, bool be)
{
    bool keep = w->be;
    w->be = be;
    bw_uint(w, u, bytes);
    w->be = keep;
}

/* n code points as UTF-16 (or UTF-32) with a terminator; *utf8 gets the UTF-8. */
static void put_text(bw_t *w, size_t n, unsigned unit, bool be, bw_t *utf8)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cp_at(i);
        if (unit == 4) {
            put_unit(w, c, 4, be);
        } else if (c >= 0x10000) {
            put_unit(w, 0xD800 + ((c - 0x10000) >> 10), 2, be);
            put_unit(w, 0xDC00 + ((c - 0x10000) & 0x3FF), 2, be);
        } else {
            put_unit(w, c, 2, be);
        }
        uint8_t o[4];
        size_t k;
        if (c < 0x80) {
            o[0] = (uint8_t)c;
            k = 1;
        } else if (c < 0x800) {
            o[0] = (uint8_t)(0xC0 | (c >> 6));
            o[1] = (uint8_t)(0x80 | (c & 0x3F));
            k = 2;
        } else if (c < 0x10000) {
            o[0] = (uint8_t)(0xE0 | (c >> 12));
            o[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
            o[2] = (uint8_t)(0x80 | (c & 0x3F));
            k = 3;
        } else {
            o[0] = (uint8_t)(0xF0 | (c >> 18));
            o[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
            o[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
            o[3] = (uint8_t)(0x80 | (c & 0x3F));
            k = 4;
        }
        bw_bytes(utf8, o, k);
    }
    put_unit(w, 0, unit, be);
    bw_uint(utf8, 0, 1);
}

static uint8_t *ctf2_stream(size_t scale_div, size_t *len, bw_t *expect)
{
    bw_t w = {0};
    for (int ev = 0; ev < 2; ev++) {
        size_t n = (ev == 0 ? 30000 : 30) / scale_div + 3;
        put_text(&w, n, 2, false, &expect[0]);
        put_text(&w, n + 1, 2, true, &expect[1]);
        put_text(&w, n / 2, 4, false, &expect[2]);
        uint32_t nb = (uint32_t)((ev == 0 ? 100000 : 10) / scale_div);
        bw_uint(&w, nb, 4);
        for (uint32_t i = 0; i < nb; i++)
            bw_uint(&w, (i * 31u) >> 3, 1);
        bw_uint(&w, 42u + (unsigned)ev, 4);
    }
    *len = w.len;
    return w.buf;
}

START_TEST(test_big_events_ctf2)
{
    size_t div = _i == 0 ? 1 : 100;
    bw_t expect[3] = {{0}, {0}, {0}};
    size_t len;
    uint8_t *data = ctf2_stream(div, &len, expect);
    struct target_cfg c;
    cfg_init(&c, ctf2_meta);
    if (div != 1)
        c.stream.stitch_bytes = 64; /* fragments of 32 input bytes */
    char *log = drv_check_all(&ctf_target, &c, data, len);
    expect_ok(log);
    ck_assert_ptr_nonnull(strstr(log, "UINT event.fields.x x = 43\n"));
    /* on_fields: UTF-16/32 strings (one conversion buffer) and BLOBs in batches */
    char *batch = drv_check_all(&ctf_batch_target, &c, data, len);
    ck_assert_str_eq(batch, log);
    free(batch);
    free(log);
    /* the fragments join into the UTF-8 text (never cut inside a character:
     * each fragment is valid UTF-8 on its own) */
    for (size_t chunk = 777; chunk <= len; chunk = len) {
        struct join j = {.path = "event.fields.u"};
        join_read(ctf2_meta, &c.stream, data, len, chunk, &j);
        ck_assert_uint_eq(j.ngot, 6);
        size_t at[3] = {0, 0, 0};
        for (unsigned v = 0; v < 6; v++) {
            bw_t *e = &expect[v % 3];
            ck_assert_uint_le(at[v % 3] + j.got_len[v] + 1, e->len);
            ck_assert_msg(memcmp(e->buf + at[v % 3], j.got[v], j.got_len[v]) == 0 &&
                              e->buf[at[v % 3] + j.got_len[v]] == 0,
                          "value %u differs", v);
            at[v % 3] += j.got_len[v] + 1;
        }
        if (div == 1)
            ck_assert(j.fragments > j.values);
        join_free(&j);
        if (chunk == len)
            break;
    }
    for (int k = 0; k < 3; k++)
        free(expect[k].buf);
    free(data);
}
END_TEST

/* An event header is measured whole before its event is delivered (the
 * class and the time are in it), so it must fit the stitch buffer: one of
 * 201 bytes decodes in every split with stitch_bytes 256, one of 301 bytes
 * is E_LIMIT in every split, also when it lies wholly in one chunk (it
 * decoded then, and failed when cut), with and without on_field. */
START_TEST(test_big_event_header)
{
    static const char fmt[] =
        "/* CTF 1.8 */\n"
        "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
        "typealias integer { size = 32; align = 8; signed = false; } := u32;\n"
        "trace { major = 1; minor = 8; byte_order = le;\n"
        "  packet.header := struct { u32 magic; u32 stream_id; }; };\n"
        "stream { id = 0; packet.context := struct { u32 packet_size; u32 content_size; };\n"
        "  event.header := struct { u8 pad[%d]; u8 id; }; };\n"
        "event { name = \"s\"; id = 0; stream_id = 0; fields := struct { string s; u32 x; }; };\n";
    static const int pads[2] = {200, 300};
    for (int k = 0; k < 2; k++) {
        char meta[sizeof fmt + 16];
        snprintf(meta, sizeof meta, fmt, pads[k]);
        bw_t w = {0};
        size_t size_at;
        packet_begin(&w, &size_at);
        for (int e = 0; e < 2; e++) {
            for (int i = 0; i < pads[k]; i++)
                bw_uint(&w, (uint64_t)(i & 0xff), 1);
            bw_uint(&w, 0, 1);
            bw_bytes(&w, "hi", 3);
            bw_uint(&w, 7u + (unsigned)e, 4);
        }
        packet_close(&w, 0, size_at);
        struct target_cfg c;
        cfg_init(&c, meta);
        c.stream.stitch_bytes = 256;
        for (int t = 0; t < 2; t++) {
            char *log = drv_check_all(t == 0 ? &ctf_target : &ctf_events_target, &c, w.buf, w.len);
            if (k == 0) {
                expect_ok(log);
                ck_assert_uint_eq(count(log, "E @"), 2);
            } else {
                ck_assert_msg(strstr(log, "end E_LIMIT @16 event at byte 16: event header is larger "
                                          "than the stitch buffer (256 bytes)\n") != NULL,
                              "%s", log);
                ck_assert_uint_eq(count(log, "E @"), 0);
            }
            free(log);
        }
        free(w.buf);
    }
}
END_TEST

/* Short strings cut by chunk ends: a string's fragment is decided by up to
 * TRACERD_CTF_FRAGMENT_BYTES of it or its NUL, and a streamed event's
 * window must not wait for a whole fragment when the NUL is a few bytes on
 * (it did: the window then held 32 KiB past the event, and every event
 * after it was read from the stitch buffer, moving those bytes each time).
 * Events of 6 to 11 bytes, read in chunks of 4096, 1000, 97 and 7 bytes
 * with the default stitch buffer, both byte orders: the same events and
 * values as read whole, and the stitch buffer never past 2 KiB. */
struct small_count {
    unsigned events;
    uint64_t xsum, slen;
};

static int small_event(void *user, const tracerd_ctf_event_t *e)
{
    (void)e;
    ((struct small_count *)user)->events++;
    return 0;
}

static int small_field(void *user, const tracerd_ctf_field_t *f)
{
    struct small_count *n = user;
    if (f->kind == TRACERD_CTF_VALUE_UINT && strcmp(f->name, "x") == 0)
        n->xsum += f->v.u;
    else if (f->kind == TRACERD_CTF_VALUE_STRING)
        n->slen += f->v.str.len;
    return 0;
}

START_TEST(test_short_strings_window)
{
    bool be = _i != 0;
    char *meta = tsdl(be);
    tracerd_ctf_trace_t *t;
    ck_assert_int_eq(tracerd_ctf_trace_parse(meta, strlen(meta), NULL, NULL, &t, NULL, 0),
                     TRACERD_OK);
    bw_t w = {.be = be};
    size_t size_at;
    packet_begin(&w, &size_at);
    enum { N = 3000 };
    for (uint32_t i = 0; i < N; i++) {
        char txt[16];
        snprintf(txt, sizeof txt, "e%u", i * 37u % 10007u);
        ev_string(&w, txt, i);
    }
    packet_close(&w, 0, size_at);
    static const size_t chunks[] = {0, 4096, 1000, 97, 7};
    struct small_count whole = {0};
    size_t whole_peak = 0;
    for (int with_fields = 0; with_fields < 2; with_fields++) {
        for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
            drv_alloc_t fa;
            drv_alloc_init(&fa, 0);
            tracerd_ctf_callbacks_t cb;
            tracerd_ctf_callbacks_init(&cb);
            cb.on_event_end = small_event;
            if (with_fields)
                cb.on_field = small_field;
            struct small_count n = {0};
            tracerd_ctf_stream_t *r;
            ck_assert_int_eq(tracerd_ctf_stream_new(t, NULL, &cb, &n, &fa.a, &r), TRACERD_OK);
            size_t chunk = chunks[k] ? chunks[k] : w.len;
            for (size_t off = 0; off < w.len;) {
                size_t len = w.len - off < chunk ? w.len - off : chunk, used;
                tracerd_status_t st = tracerd_ctf_stream_feed(r, w.buf + off, len, &used);
                ck_assert_msg(st == TRACERD_OK, "%s", tracerd_ctf_stream_error_reason(r));
                off += used;
            }
            ck_assert_int_eq(tracerd_ctf_stream_finish(r), TRACERD_OK);
            tracerd_ctf_stream_free(r);
            ck_assert_int_eq(fa.live, 0);
            ck_assert_uint_eq(n.events, N);
            if (k == 0) {
                whole = n;
                whole_peak = fa.peak_bytes;
                if (with_fields)
                    ck_assert_uint_eq(n.xsum, (uint64_t)N * (N - 1) / 2);
            } else {
                ck_assert_uint_eq(n.xsum, whole.xsum);
                ck_assert_uint_eq(n.slen, whole.slen);
                ck_assert_msg(fa.peak_bytes <= whole_peak + 2048,
                              "chunks of %zu: peak %zu bytes, %zu read whole", chunk,
                              fa.peak_bytes, whole_peak);
            }
        }
    }
    free(w.buf);
    tracerd_ctf_trace_free(t);
    free(meta);
}
END_TEST

Suite *suite_ctf_big(void)
{
    Suite *s = suite_create("ctf_big");
    const struct {
        const char *name;
        const TTest *test;
        int loops;
    } cases[] = {{"tsdl", test_big_events_tsdl, 2},         {"small", test_big_events_small_stitch, 2},
                 {"errors", test_big_event_errors, 1},      {"3mb", test_big_event_3mb, 1},
                 {"ctf2", test_big_events_ctf2, 2},
                 {"header", test_big_event_header, 1},      {"window", test_short_strings_window, 2}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        TCase *tc = tcase_create(cases[k].name);
        tcase_set_timeout(tc, 600);
        tcase_add_loop_test(tc, cases[k].test, 0, cases[k].loops);
        suite_add_tcase(s, tc);
    }
    return s;
}
