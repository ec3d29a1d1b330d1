/* Hostile inputs (issue 14): for each way a trace can ask for unbounded time
 * or memory, a generated input (tests/support/hostile.c, small parameters
 * here) must end in the limit's error (status, record offset, a reason naming
 * the limit and the value asked for) or read fully, with the allocator's peak
 * and the process's peak RSS growth bounded, and with the same peak for a
 * small and a four times larger input where nothing should grow. No timed
 * assertions: work is bounded by what is counted (bytes allocated, events),
 * and a loop without progress would hit Check's timeout. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/hostile.h"

/* Generous bounds: the defaults' fixed allocations (stitch buffers, tables)
 * are well under these. */
#define PEAK_BOUND ((size_t)8 << 20) /* allocator hooks, bytes */
#define RSS_BOUND_KIB (64L * 1024)   /* getrusage peak RSS growth */

static void show(const char *what, const hostile_t *h, const hostile_result_t *r)
{
    fprintf(stderr, "hostile %-24s %8zu bytes: %s @%llu \"%s\" events=%lu peak=%zu total=%zu rss+=%ld KiB\n",
            what, h->len, tracerd_status_name(r->status), (unsigned long long)r->record_offset,
            r->reason, r->events, r->peak_bytes, r->total_bytes, r->rss_growth_kib);
}

/* Runs h, checks the bounds and the error; returns the result for more checks. */
static hostile_result_t expect(const char *what, hostile_t *h, tracerd_status_t want,
                               uint64_t offset, const char *reason_part)
{
    hostile_result_t r;
    hostile_run(h, NULL, &r);
    show(what, h, &r);
    ck_assert_msg(r.status == want, "%s: %s, want %s (%s)", what, tracerd_status_name(r.status),
                  tracerd_status_name(want), r.reason);
    if (want < 0) {
        ck_assert_msg(r.record_offset == offset, "%s: error at %llu, want %llu", what,
                      (unsigned long long)r.record_offset, (unsigned long long)offset);
        ck_assert_msg(strstr(r.reason, reason_part) != NULL, "%s: reason \"%s\" lacks \"%s\"",
                      what, r.reason, reason_part);
    }
    ck_assert_msg(r.peak_bytes < PEAK_BOUND, "%s: peak %zu bytes", what, r.peak_bytes);
    ck_assert_msg(r.rss_growth_kib < RSS_BOUND_KIB, "%s: RSS grew %ld KiB", what,
                  r.rss_growth_kib);
    return r;
}

/* ---- FXT ------------------------------------------------------------------ */

START_TEST(test_fxt_huge_sizes)
{
    hostile_t h;
    /* 2^32 - 1 words declared: over max_large_record_bytes (1 GiB), nothing allocated for it */
    hg_fxt_large_record(&h, 0xffffffffu);
    expect("fxt large record", &h, TRACERD_E_LIMIT, 8,
           "size (34359738360 bytes) exceeds max_large_record_bytes (1073741824)");
    hostile_free(&h);
    /* within the limit but past the end of the input: truncated, nothing allocated */
    hg_fxt_large_record(&h, 1u << 20);
    hostile_result_t r = expect("fxt large record cut", &h, TRACERD_E_TRUNCATED, 8, "");
    ck_assert_uint_lt(r.peak_bytes, PEAK_BOUND);
    hostile_free(&h);
}
END_TEST

START_TEST(test_fxt_table_churn)
{
    /* String table churn: every record replaces a live string; memory stays
     * that of the live strings whatever the number of records. */
    hostile_t h;
    hg_fxt_string_churn(&h, 2000);
    hostile_result_t a = expect("fxt string churn", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    hg_fxt_string_churn(&h, 8000);
    hostile_result_t b = expect("fxt string churn x4", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    ck_assert_uint_le(b.peak_bytes, a.peak_bytes + a.peak_bytes / 4);
    /* Thread table churn: 255 slots reused by ever new threads. */
    hg_fxt_thread_churn(&h, 2000);
    a = expect("fxt thread churn", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(a.events, 4000);
    hostile_free(&h);
    hg_fxt_thread_churn(&h, 8000);
    b = expect("fxt thread churn x4", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(b.events, 16000);
    ck_assert_uint_eq(b.peak_bytes, a.peak_bytes);
    hostile_free(&h);
    /* Providers: the 65th is over max_providers (64). */
    hg_fxt_providers(&h, 100);
    expect("fxt providers", &h, TRACERD_E_LIMIT, 8 + 64 * 56,
           "provider id 65 would be provider 65: more than max_providers (64)");
    hostile_free(&h);
}
END_TEST

/* ---- XRay ----------------------------------------------------------------- */

START_TEST(test_xray_huge_sizes)
{
    hostile_t h;
    hg_xray_event_size(&h, 0x7fffffff);
    expect("xray event size", &h, TRACERD_E_LIMIT, 32 + 5 * 16,
           "event size 2147483647 exceeds max_event_bytes 1073741824");
    hostile_free(&h);
    hg_xray_args(&h, 1000);
    expect("xray call arguments", &h, TRACERD_E_LIMIT, 32 + 5 * 16 + 8 + 64 * 16,
           "more than max_args (64) arguments");
    hostile_free(&h);
}
END_TEST

START_TEST(test_xray_buffer_churn)
{
    hostile_t h;
    hg_xray_buffer_churn(&h, 1000);
    hostile_result_t a = expect("xray buffer churn", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    hg_xray_buffer_churn(&h, 4000);
    hostile_result_t b = expect("xray buffer churn x4", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    ck_assert_uint_eq(b.events, 4 * a.events);
    ck_assert_uint_eq(b.peak_bytes, a.peak_bytes);
}
END_TEST

/* ---- xtrace --------------------------------------------------------------- */

START_TEST(test_xtrace_huge_counts)
{
    hostile_t h;
    hg_xtrace_iov_count(&h, UINT64_MAX);
    expect("xtrace iovec count", &h, TRACERD_E_LIMIT, 13,
           "iovec count 18446744073709551615 exceeds max_iov (1024)");
    hostile_free(&h);
    hg_xtrace_iov_len(&h, (uint64_t)1 << 40);
    expect("xtrace iovec length", &h, TRACERD_E_LIMIT, 13,
           "length 1099511627776 exceeds max_iov_len (67108864)");
    hostile_free(&h);
    hg_xtrace_mem_size(&h, 15);
    expect("xtrace load size", &h, TRACERD_E_LIMIT, 13,
           "value of 2^15 bytes exceeds max_mem_log2 (8)");
    hostile_free(&h);
}
END_TEST

Suite *suite_hostile(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fxt_huge_sizes);
    tcase_add_test(tc, test_fxt_table_churn);
    tcase_add_test(tc, test_xray_huge_sizes);
    tcase_add_test(tc, test_xray_buffer_churn);
    tcase_add_test(tc, test_xtrace_huge_counts);
    suite_add_tcase(s, tc);
    return s;
}
