/* The FXT reader's no_args option: every record delivered with nargs as
 * written and args NULL, its arguments checked all the same. The log of a
 * reading with it must equal the argument-decoding reading's, arguments
 * aside (fxt_hidden_args_target), under every split, pause and allocation
 * failure, with an abort at every callback, in both byte orders: traces of
 * every argument type, arguments the hot loop leaves to the general path
 * (unknown types: a warning when lenient, else the error), bad arguments
 * (the same errors at the same offsets), and every FXT file of tests/data
 * and ../shared/peer-tests. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/fxt.h>

#include "support/driver.h"
#include "support/event_support.h"
#include "support/fxt_recorder.h"
#include "support/fxt_writer.h"

/* log with every "args=SET" read as "args=NULL" (log freed). */
static char *as_null(char *log)
{
    size_t sets = 0;
    for (const char *p = log; (p = strstr(p, "args=SET")) != NULL; p += 8)
        sets++;
    char *out = malloc(strlen(log) + sets + 1), *o = out;
    ck_assert_ptr_nonnull(out);
    const char *p = log, *q;
    while ((q = strstr(p, "args=SET")) != NULL) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, "args=NULL", 9);
        o += 9;
        p = q + 8;
    }
    strcpy(o, p);
    free(log);
    return out;
}

static void config(tracerd_fxt_config_t *cfg, bool no_args, bool lenient)
{
    tracerd_fxt_config_init(cfg);
    cfg->no_args = no_args;
    cfg->lenient = lenient;
}

/* The whole-feed log of the argument-decoding reading, arguments hidden
 * and read as not handed over. */
static char *decoded_log(const uint8_t *d, size_t n, bool lenient)
{
    tracerd_fxt_config_t cfg;
    config(&cfg, false, lenient);
    drv_plan_t whole = {0};
    return as_null(drv_run(&fxt_hidden_args_target, &cfg, d, n, &whole));
}

/* The no_args reading of d under every plan (check: drv_check_all or
 * drv_check_twin) equals the decoding one's; returns its log. */
static char *same_as_decoded(const uint8_t *d, size_t n, bool lenient,
                             char *(*check)(const drv_target_t *, const void *, const uint8_t *,
                                            size_t))
{
    tracerd_fxt_config_t cfg;
    config(&cfg, true, lenient);
    char *got = check(&fxt_hidden_args_target, &cfg, d, n);
    char *want = decoded_log(d, n, lenient);
    ck_assert_msg(strcmp(got, want) == 0, "no_args log differs:\n%.3000s\n---\n%.3000s", got,
                  want);
    ck_assert_ptr_null(strstr(got, "args=SET"));
    free(want);
    return got;
}

static const uint8_t BLOB[8] = {1, 2, 3, 4, 5, 6, 7, 8};

/* Events with every argument type (many: the hot loop), one with an
 * argument of an unknown type (the general path), the other records with
 * arguments; bad: then an argument whose name index is not registered. */
static uint8_t *trace(bool big, bool bad, size_t *len)
{
    fxw_t w;
    fxw_init(&w, big);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_string(&w, 2, "name");
    fxw_string(&w, 3, "key");
    fxw_thread(&w, 1, 10, 11);
    fxw_arg_t all[11] = {
        FXA_NULL(FXS_IDX(3)),
        FXA_I32(FXS_INL("i32"), -5),
        FXA_U32(FXS_INL("u32"), 7),
        FXA_I64(FXS_IDX(3), -9),
        FXA_U64(FXS_IDX(3), 9),
        FXA_DBL(FXS_INL("dbl"), 0.5),
        FXA_STR(FXS_IDX(3), FXS_IDX(2)),
        FXA_STR(FXS_INL("s"), FXS_INL("inline value")),
        FXA_PTR(FXS_INL("ptr"), 0xbeef),
        FXA_KOID(FXS_INL("koid"), 77),
        FXA_BLOB(FXS_INL("blob"), BLOB, 5),
    };
    for (uint32_t i = 0; i < 40; i++)
        fxw_event(&w, i % 11, i % 3 ? FXT_IDX(1) : FXT_INL(20, 21), FXS_IDX(1), FXS_IDX(2),
                  100 + i, all, i % 12, 1000 + i);
    fxw_arg_t odd[2] = {FXA_UNKNOWN(12, FXS_INL("u"), 1), FXA_BOOL(FXS_IDX(3), 1)};
    fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 200, odd, 2, 0);
    fxw_event(&w, 4, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 210, all, 3, 220);
    fxw_userspace(&w, 0x1234, FXT_IDX(1), FXS_INL("obj"), all, 4);
    fxw_arg_t proc = FXA_KOID(FXS_INL("process"), 10);
    fxw_kernel(&w, 11, 2, FXS_INL("thread"), &proc, 1);
    fxw_context_switch(&w, 1, 2, 300, 11, 12, all, 2);
    fxw_wakeup(&w, 1, 301, 12, all + 1, 1);
    fxw_large_blob(&w, 0, FXS_IDX(1), FXS_INL("large"), 302, FXT_IDX(1), all, 3, BLOB, 8);
    if (bad) {
        fxw_arg_t unreg = FXA_U64(FXS_IDX(77), 1); /* index 77: not registered */
        fxw_event(&w, 0, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 400, &unreg, 1, 0);
    }
    fxw_event(&w, 2, FXT_IDX(1), FXS_IDX(1), FXS_IDX(2), 500, all, 2, 0);
    return fxw_take(&w, len);
}

START_TEST(test_no_args_every_plan)
{
    for (int big = 0; big < 2; big++)
        for (int bad = 0; bad < 2; bad++)
            for (int lenient = 0; lenient < 2; lenient++) {
                size_t n;
                uint8_t *d = trace(big != 0, bad != 0, &n);
                char *log = same_as_decoded(d, n, lenient != 0,
                                            big || lenient ? drv_check_twin : drv_check_all);
                /* the 40 events, the one with an argument of an unknown
                 * type (reported, delivered), the next and the last
                 * (bad and strict: the error before it) */
                size_t events = 0;
                for (const char *p = log; (p = strstr(p, "\nevent@")) != NULL; p++)
                    events++;
                bool fails = bad && !lenient;
                ck_assert_uint_eq(events, fails ? 42u : 43u);
                ck_assert_ptr_nonnull(strstr(log, fails ? "end E_REFERENCE" : "end OK"));
                ck_assert_ptr_nonnull(strstr(log, "\nunknown@"));
                ck_assert_ptr_nonnull(strstr(log, "nargs=11 args=NULL"));
                free(log);
                free(d);
            }
}
END_TEST

/* An abort at each callback: the same status, offset, reason and records
 * before it, under every plan, as the decoding reading's fed whole. */
START_TEST(test_no_args_aborts)
{
    for (int big = 0; big < 2; big++) {
        size_t n;
        uint8_t *d = trace(big != 0, false, &n);
        tracerd_fxt_config_t yes, no;
        config(&yes, true, true);
        config(&no, false, true);
        /* every callback of the reading (its log's lines but "end") */
        char *all = decoded_log(d, n, true);
        unsigned long calls = 0;
        for (const char *p = all; (p = strchr(p, '\n')) != NULL; p++)
            calls++;
        free(all);
        ck_assert_uint_gt(calls, 50);
        unsigned step = drv_slow_host() ? 7u : 1u;
        for (unsigned long at = 1; at < calls; at += step) {
            char *got = drv_check_all_at(&fxt_hidden_args_target, &yes, d, n, at);
            drv_plan_t whole = {0};
            whole.abort_at = at;
            char *want = as_null(drv_run(&fxt_hidden_args_target, &no, d, n, &whole));
            ck_assert_msg(strcmp(got, want) == 0, "abort at %lu differs:\n%.2000s\n---\n%.2000s",
                          at, got, want);
            ck_assert_ptr_nonnull(strstr(got, "E_CALLBACK"));
            free(got);
            free(want);
        }
        free(d);
    }
}
END_TEST

static void visit(void *ctx, const char *path, bool is_dir)
{
    unsigned *files = ctx;
    size_t n;
    uint8_t *d = is_dir ? NULL : drv_read_file(path, &n);
    if (d == NULL)
        return;
    size_t k = strlen(path);
    if (k > 4 && strcmp(path + k - 4, ".fxt") == 0) {
        free(same_as_decoded(d, n, false, drv_check_twin));
        ++*files;
    }
    free(d);
}

/* Every FXT file of tests/data and ../shared/peer-tests. */
START_TEST(test_no_args_files)
{
    unsigned files = 0;
    ev_walk_tree("tests/data", visit, &files);
    ck_assert_uint_ge(files, 1);
    ev_walk_tree("../shared/peer-tests", visit, &files);
    fprintf(stderr, "fxt no_args: %u files\n", files);
}
END_TEST

/* The option: default off, read from a struct that has it. */
START_TEST(test_no_args_option)
{
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    ck_assert(!cfg.no_args);
    size_t n;
    uint8_t *d = trace(false, false, &n);
    char *log = decoded_log(d, n, false);
    ck_assert_ptr_nonnull(strstr(log, "nargs=11 args=NULL"));
    free(log);
    drv_plan_t whole = {0};
    log = drv_run(&fxt_hidden_args_target, &cfg, d, n, &whole);
    ck_assert_ptr_nonnull(strstr(log, "nargs=11 args=SET"));
    free(log);
    free(d);
}
END_TEST

Suite *suite_fxt_noargs(void);
Suite *suite_fxt_noargs(void)
{
    Suite *s = suite_create("fxt_noargs");
    TCase *tc = tcase_create("fxt_noargs");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_no_args_option);
    tcase_add_test(tc, test_no_args_every_plan);
    tcase_add_test(tc, test_no_args_aborts);
    tcase_add_test(tc, test_no_args_files);
    suite_add_tcase(s, tc);
    return s;
}
