/* CTF directories read through a client's file source
 * (tracerd_ctf_dir_config_t.files): the same events, order and errors as
 * the reader's own reads, on every CTF directory of tests/data and the peer
 * traces, with views of every length and each view's bytes destroyed as
 * soon as the contract lets them go; the source's errors reported with
 * their file, offset and reason; every handle closed. And the CLI, which
 * maps stream files in windows: a stream file cut short while it is read
 * is a read error, never a signal. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracerd/ctf.h>

#include "support/ctf_peer.h"
#include "support/ctf_writer.h"
#include "support/driver.h"
#include "support/event_support.h"

/* ---- a file source in memory --------------------------------------------------
 * Each handle holds its whole file; each view is a fresh copy of a length
 * drawn from 1 to `want`, freed (after being overwritten) at the next view
 * or close of its handle, so that a reader using bytes past their lifetime
 * reads garbage, and under ASan fails. */
struct src {
    unsigned seed;
    unsigned opens, closes, views;
    unsigned fail_view_at; /* the view that fails (1-based; 0: none) */
    uint64_t fail_off;     /* the offset it was asked for */
    const char *fail_reason;
    bool fail_open;
    bool too_long; /* every view one byte longer than asked */
};

struct hfile {
    uint8_t *data;
    size_t size;
    uint8_t *view;
    size_t view_len;
};

static void drop_view(struct hfile *h)
{
    if (h->view != NULL) {
        memset(h->view, 0xA5, h->view_len);
        free(h->view);
    }
    h->view = NULL;
}

static void *src_open(void *ctx, const char *path)
{
    struct src *s = ctx;
    if (s->fail_open) {
        errno = EACCES;
        return NULL;
    }
    struct hfile *h = calloc(1, sizeof *h);
    ck_assert_ptr_nonnull(h);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        free(h);
        return NULL;
    }
    size_t cap = 1 << 16;
    h->data = malloc(cap);
    size_t n;
    while ((n = fread(h->data + h->size, 1, cap - h->size, f)) > 0) {
        h->size += n;
        if (h->size == cap)
            h->data = realloc(h->data, cap *= 2);
    }
    fclose(f);
    s->opens++;
    return h;
}

static int src_view(void *ctx, void *file, uint64_t off, size_t want, const uint8_t **data,
                    size_t *len, const char **reason)
{
    struct src *s = ctx;
    struct hfile *h = file;
    drop_view(h);
    if (++s->views == s->fail_view_at) {
        s->fail_off = off;
        *reason = s->fail_reason;
        return -1;
    }
    ck_assert_uint_gt(want, 0);
    *len = 0;
    *data = NULL;
    if (off >= h->size)
        return 0;
    s->seed = s->seed * 1103515245u + 12345u;
    size_t k = 1 + (size_t)(s->seed >> 8) % want; /* 1..want */
    if (k > h->size - off)
        k = (size_t)(h->size - off);
    if (s->too_long)
        k = want + 1;
    h->view = malloc(k);
    ck_assert_ptr_nonnull(h->view);
    memcpy(h->view, h->data + off, k <= h->size - off ? k : (size_t)(h->size - off));
    h->view_len = k;
    *data = h->view;
    *len = k;
    return 0;
}

static void src_close(void *ctx, void *file)
{
    struct src *s = ctx;
    struct hfile *h = file;
    drop_view(h);
    free(h->data);
    free(h);
    s->closes++;
}

static void use_source(tracerd_ctf_dir_config_t *cfg, struct src *s)
{
    cfg->files.ctx = s;
    cfg->files.open = src_open;
    cfg->files.view = src_view;
    cfg->files.close = src_close;
}

/* Every CTF directory below root (a folder holding `metadata`), read by the
 * reader's own reads and through the source at several read sizes: the
 * same text, status and reason; every handle the source opened is closed. */
static unsigned compare_below(const char *root, int depth)
{
    unsigned dirs = 0;
    char path[2048];
    snprintf(path, sizeof path, "%s/metadata", root);
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        tracerd_ctf_dir_config_t cfg;
        tracerd_ctf_dir_config_init(&cfg);
        struct peer_result ref, got;
        read_dir(root, &cfg, &ref);
        static const size_t sizes[] = {64, 333, 4096, 1 << 20};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            struct src s = {.seed = (unsigned)i + 1};
            tracerd_ctf_dir_config_init(&cfg);
            cfg.chunk_bytes = sizes[i];
            use_source(&cfg, &s);
            read_dir(root, &cfg, &got);
            ck_assert_msg(got.st == ref.st && strcmp(got.reason, ref.reason) == 0,
                          "%s, read size %zu: %s (%s) against %s (%s)", root, sizes[i],
                          tracerd_status_name(got.st), got.reason, tracerd_status_name(ref.st),
                          ref.reason);
            ck_assert_msg(strcmp(got.text.out.buf, ref.text.out.buf) == 0,
                          "%s, read size %zu: the events differ", root, sizes[i]);
            ck_assert_msg(s.opens == s.closes, "%s: %u handles opened, %u closed", root, s.opens,
                          s.closes);
            ctf_text_free(&got.text);
        }
        ctf_text_free(&ref.text);
        return 1;
    }
    if (depth == 0)
        return 0;
    DIR *d = opendir(root);
    if (d == NULL)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", root, e->d_name);
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            dirs += compare_below(path, depth - 1);
    }
    closedir(d);
    return dirs;
}

START_TEST(test_source_same_events)
{
    unsigned n = compare_below("tests/data/ctf", 3);
    ck_assert_uint_ge(n, 3);
    const char *peer = drv_peer_dir();
    if (peer != NULL) {
        char path[1024];
        snprintf(path, sizeof path, "%s/ctf", peer);
        ck_assert_uint_ge(compare_below(path, 4), 20); /* rotated streams among them */
    }
}
END_TEST

/* A directory of three streams of the bench writer (in packets of 2 KiB). */
static void make_dir(char *tmpl, uint64_t bytes)
{
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char path[1024];
    char *meta = ctf_writer_bench_metadata();
    snprintf(path, sizeof path, "%s/metadata", tmpl);
    FILE *f = fopen(path, "w");
    fputs(meta, f);
    fclose(f);
    free(meta);
    size_t len;
    uint64_t events;
    uint8_t *data = ctf_writer_bench_stream(bytes, 2048, &len, &events);
    for (unsigned i = 0; i < 3; i++) {
        cw_t w = {data, len, 0};
        for (size_t off = 0; off < len; off += 2048)
            cw_patch(&w, off + 24, i + 1, 64, false); /* stream_instance_id */
        snprintf(path, sizeof path, "%s/chan_%u", tmpl, i);
        f = fopen(path, "wb");
        fwrite(data, 1, len, f);
        fclose(f);
    }
    free(data);
}

/* The source's failures: an open refused (E_IO "cannot open: <errno>"),
 * a view failing at its reason and offset, a view longer than asked, a
 * source of one function or two (E_INVALID); handles closed on every path,
 * and when the reader is freed before its end. */
START_TEST(test_source_errors)
{
    char dir[] = "/tmp/tracerd-files-XXXXXX";
    make_dir(dir, 16384);
    tracerd_ctf_dir_config_t cfg;
    tracerd_ctf_dir_config_init(&cfg);
    cfg.chunk_bytes = 1000;
    struct src s = {.fail_open = true};
    use_source(&cfg, &s);
    tracerd_ctf_dir_t *d;
    ck_assert_int_eq(tracerd_ctf_dir_open(dir, &cfg, NULL, NULL, NULL, &d), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_dir_run(d), TRACERD_E_IO);
    ck_assert_str_eq(tracerd_ctf_dir_error_reason(d), "cannot open: Permission denied");
    ck_assert_ptr_nonnull(strstr(tracerd_ctf_dir_error_path(d), "/chan_0"));
    ck_assert_uint_eq(tracerd_ctf_dir_error_offset(d), 0);
    tracerd_ctf_dir_free(d);

    /* a view fails, early and late: reported at the offset it was asked for */
    for (unsigned nth = 1; nth < 40; nth += 6) {
        s = (struct src){.fail_view_at = nth, .fail_reason = "disk on fire"};
        ck_assert_int_eq(tracerd_ctf_dir_open(dir, &cfg, NULL, NULL, NULL, &d), TRACERD_OK);
        ck_assert_int_eq(tracerd_ctf_dir_run(d), TRACERD_E_IO);
        ck_assert_str_eq(tracerd_ctf_dir_error_reason(d), "read error: disk on fire");
        ck_assert_uint_eq(tracerd_ctf_dir_error_offset(d), s.fail_off);
        ck_assert(nth == 1 || s.fail_off > 0);
        tracerd_ctf_dir_free(d);
        ck_assert_uint_eq(s.opens, s.closes);
    }
    ck_assert_uint_eq(s.opens, s.closes);
    ck_assert_uint_gt(s.opens, 0);

    s = (struct src){.too_long = true};
    ck_assert_int_eq(tracerd_ctf_dir_open(dir, &cfg, NULL, NULL, NULL, &d), TRACERD_OK);
    ck_assert_int_eq(tracerd_ctf_dir_run(d), TRACERD_E_IO);
    ck_assert_str_eq(tracerd_ctf_dir_error_reason(d),
                     "read error: the file source gave 1001 bytes where 1000 were asked");
    ck_assert_uint_eq(tracerd_ctf_dir_error_offset(d), 0);
    tracerd_ctf_dir_free(d);
    ck_assert_uint_eq(s.opens, s.closes);

    /* freed while every stream holds a view */
    s = (struct src){.seed = 7};
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    ck_assert_int_eq(tracerd_ctf_dir_open(dir, &cfg, &cb, NULL, NULL, &d), TRACERD_OK);
    tracerd_ctf_dir_free(d);
    ck_assert_uint_eq(s.opens, s.closes);

    tracerd_ctf_dir_config_t half = cfg;
    half.files.close = NULL;
    ck_assert_int_eq(tracerd_ctf_dir_open(dir, &half, NULL, NULL, NULL, &d), TRACERD_E_INVALID);
    half = cfg;
    half.files.open = NULL;
    half.files.view = NULL;
    ck_assert_int_eq(tracerd_ctf_dir_open(dir, &half, NULL, NULL, NULL, &d), TRACERD_E_INVALID);
    ck_assert_int_eq(drv_rm_tree(dir), 0);
}
END_TEST

/* The CLI maps a directory's stream files (tools/tracerd/mapped.c): one cut
 * short by another process while tracerd reads it is a read error (exit 3,
 * "the file was cut short while it was read"), never SIGBUS, and the output
 * ends with a whole line (json: a whole document); in dump (the CTF reader) and json (the event
 * view). The file is cut while tracerd is blocked writing the output of its
 * first events. */
START_TEST(test_cli_stream_cut_while_read)
{
    CLI_OR_SKIP(cli);
    char dir[] = "/tmp/tracerd-files-XXXXXX";
    make_dir(dir, 3u << 20);
    char path[1024];
    snprintf(path, sizeof path, "%s/chan_1", dir);
    ev_proc_t p;
    ev_run_cli_cut(cli, _i == 0 ? "dump" : "json", dir, path, 65536, &p);
    ck_assert_msg(p.status < 128, "tracerd died of signal %d", p.status - 128);
    ck_assert_msg(p.status == 3, "exit %d: %s", p.status, p.err);
    ck_assert_msg(strstr(p.err, "the file was cut short while it was read") != NULL, "stderr: %s",
                  p.err);
    ck_assert_msg(strstr(p.err, "/chan_1") != NULL, "stderr: %s", p.err);
    ck_assert_uint_gt(p.out_len, 3);
    ck_assert_int_eq(p.out[p.out_len - 1], '\n');
    if (_i == 1)
        ck_assert_str_eq(p.out + p.out_len - 3, "}}\n"); /* the document is closed */
    ev_proc_free(&p);
    ck_assert_int_eq(drv_rm_tree(dir), 0);
}
END_TEST

Suite *suite_ctf_files(void)
{
    Suite *s = suite_create("ctf_files");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_source_same_events);
    tcase_add_test(tc, test_source_errors);
    tcase_add_loop_test(tc, test_cli_stream_cut_while_read, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
