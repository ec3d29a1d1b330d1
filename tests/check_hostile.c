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
#include <unistd.h>

#include <tracerd/ctf.h>

#include "../libtracerd/fxt/fxt_internal.h"
#include "support/driver.h"
#include "support/hostile.h"
#include "support/tlog.h"

/* Generous bounds: the defaults' fixed allocations (stitch buffers, tables)
 * are well under 8 MiB; metadata costs up to about 40 times its size while
 * it is compiled (text, types, names, compiled programs: about 0.4-0.8 KiB
 * per field; 40,000 fields of one struct, 0.7 MB of text, peak at 28 MB),
 * so the bound grows with the input by 64 bytes a byte. */
#define PEAK_BOUND(h)                                                                              \
    (((size_t)8 << 20) + 64 * ((h)->len + ((h)->metadata ? strlen((h)->metadata) : 0)))
/* getrusage peak RSS growth, KiB: the allocator bound plus room for the
 * sanitizers' shadow memory and quarantine (SAN=1), still far below what an
 * unbounded expansion takes (gigabytes) */
#define RSS_BOUND_KIB(h) ((long)(PEAK_BOUND(h) / 1024) * 3 + 64L * 1024)

#define METADATA_AT UINT64_MAX

/* Allocator peaks of metadata near the defaults (measured: kernel-like 2400
 * 8.8 MB, 6500 25.1 MB; unused structs 10.1 MB) */
#define PEAK_KERNEL_2400 ((size_t)10 << 20)
#define PEAK_KERNEL_6500 ((size_t)28 << 20)
#define PEAK_UNUSED ((size_t)12 << 20)

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
        /* METADATA_AT: a metadata error, placed by its line and column (in the reason) */
        ck_assert_msg(offset == METADATA_AT || r.record_offset == offset,
                      "%s: error at %llu, want %llu", what, (unsigned long long)r.record_offset,
                      (unsigned long long)offset);
        ck_assert_msg(strstr(r.reason, reason_part) != NULL, "%s: reason \"%s\" lacks \"%s\"",
                      what, r.reason, reason_part);
        ck_assert_msg(offset != METADATA_AT || strstr(r.reason, "metadata line ") != NULL,
                      "%s: reason \"%s\" has no metadata line", what, r.reason);
    }
    ck_assert_msg(r.peak_bytes < PEAK_BOUND(h), "%s: peak %zu bytes", what, r.peak_bytes);
    ck_assert_msg(r.rss_growth_kib < RSS_BOUND_KIB(h), "%s: RSS grew %ld KiB", what,
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
    ck_assert_uint_lt(r.peak_bytes, PEAK_BOUND(&h));
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

/* The string arena's compaction, counted: re-registering strings over a
 * nearly full arena moves at most 8 bytes per byte registered, plus the
 * growth copies (bounded by twice the budget). Compacting the whole arena
 * per record (before f8fe680) moved about the arena's size per record. */
static uint64_t churn_moved(unsigned records, bool one_index, uint64_t *registered)
{
    drv_alloc_t fa;
    drv_alloc_init(&fa, 0);
    struct tracerd__fxt_tables t;
    ck_assert_int_eq(tracerd__fxt_tables_init(&t, &fa.a, 4, (size_t)256 << 10), TRACERD_OK);
    struct tracerd__fxt_provider *p;
    ck_assert_int_eq(tracerd__fxt_add(&t, 1, &p), TRACERD_OK);
    uint8_t s[1000];
    memset(s, 'x', sizeof s);
    *registered = 0;
    for (uint32_t i = 1; i <= 100; i++) { /* 100 KiB live */
        ck_assert_int_eq(tracerd__fxt_str_put(&t, p, i, s, sizeof s), TRACERD_OK);
        *registered += sizeof s;
    }
    uint64_t seed = 7;
    for (unsigned k = 0; k < records; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t idx = one_index ? 1 : 1 + (uint32_t)((seed >> 33) % 100);
        size_t len = one_index ? sizeof s : (size_t)((seed >> 20) % sizeof s);
        ck_assert_int_eq(tracerd__fxt_str_put(&t, p, idx, s, len), TRACERD_OK);
        *registered += len;
    }
    uint64_t moved = t.str_moved;
    tracerd__fxt_tables_free(&t);
    ck_assert_int_eq(fa.live, 0);
    return moved;
}

START_TEST(test_fxt_compaction_work)
{
    for (int one = 0; one < 2; one++) {
        uint64_t reg, moved = churn_moved(20000, one != 0, &reg);
        fprintf(stderr, "hostile fxt compaction %s: %llu bytes registered, %llu moved\n",
                one ? "one index" : "random", (unsigned long long)reg,
                (unsigned long long)moved);
        ck_assert_uint_le(moved, 8 * reg + 2 * ((uint64_t)256 << 10));
        /* per record, not per arena: 4 times the records, about 4 times the work */
        uint64_t reg4, moved4 = churn_moved(80000, one != 0, &reg4);
        ck_assert_uint_le(moved4, 8 * reg4 + 2 * ((uint64_t)256 << 10));
        ck_assert_uint_le(moved4, 5 * moved);
    }
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

/* Snapshot files: records of a fixed layout whose size the trailing vector
 * length gives (at most 74,656 bytes); the layout is detected from a
 * lookahead of 2 records, allocated once. Nothing a file says is allocated:
 * memory is the same for 4 times as many snapshots, and a vector length or
 * count no layout allows stops with the snapshot, the value and the rule. */
START_TEST(test_xtrace_snapshots)
{
    hostile_t h;
    const uint64_t rec = hg_xtrace_snap_record_bytes();
    hg_xtrace_snap(&h, 100, HG_SNAP_NONE, 0, 0);
    hostile_result_t a = expect("xtrace snapshots 100", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(a.events, 100);
    hostile_free(&h);
    hg_xtrace_snap(&h, 400, HG_SNAP_NONE, 0, 0);
    hostile_result_t b = expect("xtrace snapshots 400", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(b.events, 400);
    ck_assert_uint_eq(b.peak_bytes, a.peak_bytes);
    ck_assert_uint_lt(b.peak_bytes, 32 + 8 * 74656 + 4096); /* the largest lookahead */
    hostile_free(&h);
    /* a vector length of 2^64 - 1 in the first record: no layout */
    hg_xtrace_snap(&h, 4, HG_SNAP_VL, 0, UINT64_MAX);
    expect("xtrace snapshot VL first", &h, TRACERD_E_LAYOUT, 0,
           "snapshot file: no layout fits the first");
    hostile_free(&h);
    /* ... in a later record: that record, the value and the layout */
    hg_xtrace_snap(&h, 10, HG_SNAP_VL, 5, UINT64_MAX);
    expect("xtrace snapshot VL later", &h, TRACERD_E_LAYOUT, 24 + 5 * rec,
           "snapshot 5: trailing vector length 18446744073709551615 disagrees with the 512-bit "
           "layout");
    hostile_free(&h);
    /* instruction counts of 2^64 - 1 */
    hg_xtrace_snap(&h, 10, HG_SNAP_COUNTS, 5, UINT64_MAX);
    expect("xtrace snapshot counts", &h, TRACERD_E_LAYOUT, 24 + 5 * rec,
           "snapshot 5: counts (user 18446744073709551615, total 18446744073709551615) do not "
           "advance by 1000000 from the previous snapshot (user 4000000, total 8000005)");
    hostile_free(&h);
    /* a file that ends inside a snapshot */
    hg_xtrace_snap(&h, 10, HG_SNAP_CUT, 5, 100);
    expect("xtrace snapshot cut", &h, TRACERD_E_TRUNCATED, 24 + 5 * rec, "");
    hostile_free(&h);
}
END_TEST

/* ---- CTF metadata ----------------------------------------------------------- */

START_TEST(test_ctf_billion_laughs)
{
    /* 40 levels, each type twice the one before: counted, never expanded */
    hostile_t h;
    hg_ctf_laughs(&h, 40);
    expect("ctf laughs 40", &h, TRACERD_E_LIMIT, METADATA_AT,
           "event class 'laughs' (id 0) event.fields: expands to 4398046511104 fields, "
           "4398046511111 with the scopes before; more than max_type_nodes (32768)");
    hostile_free(&h);
    /* 13 levels: 32768 fields, over the default with the 7 of the other scopes */
    hg_ctf_laughs(&h, 13);
    expect("ctf laughs 13", &h, TRACERD_E_LIMIT, METADATA_AT,
           "expands to 32768 fields, 32775 with the scopes before");
    hostile_free(&h);
    /* a smaller bound, set by the caller */
    tracerd_ctf_metadata_config_t mc;
    tracerd_ctf_metadata_config_init(&mc);
    mc.max_type_nodes = 100;
    tracerd_ctf_trace_t *t = NULL;
    char reason[256];
    hg_ctf_laughs(&h, 5);
    ck_assert_int_eq(tracerd_ctf_trace_parse(h.metadata, strlen(h.metadata), &mc, NULL, &t,
                                             reason, sizeof reason),
                     TRACERD_E_LIMIT);
    ck_assert_msg(strstr(reason, "expands to 128 fields, 135 with the scopes before; "
                                 "more than max_type_nodes (100)") != NULL,
                  "%s", reason);
    mc.max_type_nodes = 135;
    ck_assert_int_eq(tracerd_ctf_trace_parse(h.metadata, strlen(h.metadata), &mc, NULL, &t,
                                             reason, sizeof reason),
                     TRACERD_OK);
    tracerd_ctf_trace_free(t);
    hostile_free(&h);
}
END_TEST

START_TEST(test_ctf_empty_elements)
{
    /* 2^24 x 2^24 elements of an empty struct: one step, not 2^48 */
    hostile_t h;
    hg_ctf_empty_array(&h, 1u << 24);
    hostile_result_t r = expect("ctf empty array", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(r.events, 1);
    ck_assert_str_eq(r.log, "after=7\n");
    hostile_free(&h);
    hg_ctf_empty_sequence(&h, 1u << 24);
    r = expect("ctf empty sequence", &h, TRACERD_OK, 0, "");
    ck_assert_str_eq(r.log, "n=16777216 after=7\n");
    hostile_free(&h);
    /* past max_sequence_length (2^24) it is still the limit's error */
    hg_ctf_empty_sequence(&h, (1u << 24) + 1);
    expect("ctf empty sequence over", &h, TRACERD_E_LIMIT, 20, "16777217");
    hostile_free(&h);
}
END_TEST

START_TEST(test_ctf_enum_lookup)
{
    /* Overlapping ranges: the first declared wins (the order readers use). */
    hostile_t h;
    hg_ctf_enum_overlap(&h);
    hostile_result_t r = expect("ctf enum overlap", &h, TRACERD_E_BAD_RECORD, 20 + 32 * 9,
                                "variant tag value 31 selects no option");
    tlog_t want = {0};
    for (unsigned v = 0; v <= 30; v++) {
        const char *l = v <= 10 ? "A" : v <= 20 ? "B" : "D";
        tlog_printf(&want, "v=%s o.%s%s=%u\n", l, *l == 'B' ? "" : "", l, v);
    }
    tlog_printf(&want, "v=E o.E=40\n");
    char *w = tlog_take(&want);
    ck_assert_str_eq(r.log, w);
    free(w);
    hostile_free(&h);
    /* 16383 mappings (and a variant of 16000 options): O(log n) per value */
    hg_ctf_enum(&h, 16383, 2000);
    r = expect("ctf enum 16383", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(r.events, 2000);
    ck_assert(strncmp(r.log, "v=L0\n", 5) == 0);
    hostile_free(&h);
    hg_ctf_enum(&h, 16384, 1);
    expect("ctf enum 16384", &h, TRACERD_E_LIMIT, METADATA_AT,
           "enumerator 16385: more than max_fields (16384)");
    hostile_free(&h);
    hg_ctf_variant_options(&h, 16000, 2000);
    r = expect("ctf variant 16000", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(r.events, 2000);
    hostile_free(&h);
}
END_TEST

/* Many names: counts over the limits stop with the limit's error; under them
 * the cost grows linearly (the bytes allocated for 4n are about 4 times
 * those for n; a quadratic lookup would also show in Check's timeout). */
START_TEST(test_ctf_name_counts)
{
    hostile_t h;
    hg_ctf_aliases(&h, 20000);
    expect("ctf aliases 20000", &h, TRACERD_E_LIMIT, METADATA_AT,
           "type 'a16381': more than max_aliases (16384) named types declared");
    hostile_free(&h);
    hg_ctf_aliases(&h, 4000);
    hostile_result_t a = expect("ctf aliases 4000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    hg_ctf_aliases(&h, 16000);
    hostile_result_t b = expect("ctf aliases 16000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    ck_assert_uint_lt(b.total_bytes, 5 * a.total_bytes);

    hg_ctf_event_classes(&h, 10000);
    expect("ctf event classes 10000", &h, TRACERD_E_LIMIT, METADATA_AT,
           "event class 8193 ('event8192'): more than max_event_classes (8192)");
    hostile_free(&h);
    hg_ctf_event_classes(&h, 2000);
    a = expect("ctf event classes 2000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    hg_ctf_event_classes(&h, 8000);
    b = expect("ctf event classes 8000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    ck_assert_uint_lt(b.total_bytes, 5 * a.total_bytes);

    hg_ctf_struct_fields(&h, 20000);
    expect("ctf struct fields 20000", &h, TRACERD_E_LIMIT, METADATA_AT,
           "member 16385 'f16384': more than max_fields (16384) members");
    hostile_free(&h);
    hg_ctf_struct_fields(&h, 4000);
    a = expect("ctf struct fields 4000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    hg_ctf_struct_fields(&h, 16000);
    b = expect("ctf struct fields 16000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
    ck_assert_uint_lt(b.total_bytes, 5 * a.total_bytes);
    /* members compiled one at a time: no pending work item per member (it
     * was 29.5 MB at the peak, then 18 MB: about 0.45 KiB a field with the
     * parse; the delivery plans, one step per field, added about 0.16 KiB,
     * and 16 bytes more when the field record grew by frag/frag_offset, as
     * each step held a whole record; a step now holds only the record's
     * fixed part, 96 bytes in all: 8.5 MB for 16,000 members) */
    ck_assert_uint_lt(b.peak_bytes, (size_t)16000 * 640);

    hg_ctf_stream_classes(&h, 5000);
    expect("ctf stream classes 5000", &h, TRACERD_E_LIMIT, METADATA_AT,
           "stream class 4097 (id 903): more than max_stream_classes (4096)");
    hostile_free(&h);
    hg_ctf_stream_classes(&h, 4000);
    expect("ctf stream classes 4000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
}
END_TEST

/* Metadata near the defaults: a full LTTng kernel trace's size reads, with
 * room to spare, and what the text can make the reader keep is bounded by
 * the limits (doc/formats/ctf.md, "Limits": the measured real metadata). */
START_TEST(test_ctf_metadata_memory)
{
    hostile_t h;
    /* every kernel event of LTTng 2.13 on x86-64 (about 2,400 classes, some
     * 10,000 fields; the largest real trace measured: 1,400 and 5,059) */
    hg_ctf_kernel_like(&h, 2400, 4);
    hostile_result_t r = expect("ctf kernel-like 2400", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(r.events, 1);
    ck_assert_uint_lt(r.peak_bytes, PEAK_KERNEL_2400);
    hostile_free(&h);
    /* 32,507 fields: just under max_type_nodes */
    hg_ctf_kernel_like(&h, 6500, 4);
    r = expect("ctf kernel-like 6500", &h, TRACERD_OK, 0, "");
    ck_assert_uint_eq(r.events, 1);
    ck_assert_uint_lt(r.peak_bytes, PEAK_KERNEL_6500);
    hostile_free(&h);
    hg_ctf_kernel_like(&h, 7000, 4);
    expect("ctf kernel-like 7000", &h, TRACERD_E_LIMIT, METADATA_AT,
           "event class 'syscall_entry_6552' (id 6552) event.fields: expands to 5 fields, 32772 "
           "with the scopes before; more than max_type_nodes (32768)");
    hostile_free(&h);
    /* declarations no event uses: bounded by the declared-field budget */
    hg_ctf_unused_structs(&h, 100, 1000);
    r = expect("ctf unused structs 100", &h, TRACERD_E_LIMIT, METADATA_AT,
               "member: more than 65536 types, members, enumerators and env entries "
               "declared (2 x max_type_nodes)");
    ck_assert_uint_lt(r.peak_bytes, PEAK_UNUSED);
    hostile_free(&h);
    hg_ctf_unused_structs(&h, 64, 1000);
    r = expect("ctf unused structs 64", &h, TRACERD_OK, 0, "");
    ck_assert_uint_lt(r.peak_bytes, PEAK_UNUSED);
    hostile_free(&h);
    /* env entries count as declarations; clock blocks are bounded by
     * max_stream_classes (300,000 clocks took 138 MB, 700,000 env entries
     * 67 MB: only the text's size bounded them) */
    hg_ctf_env(&h, 70000);
    r = expect("ctf env 70000", &h, TRACERD_E_LIMIT, METADATA_AT,
               "env entry: more than 65536 types, members, enumerators and env entries declared");
    ck_assert_uint_lt(r.peak_bytes, PEAK_UNUSED);
    hostile_free(&h);
    hg_ctf_clocks(&h, 5000);
    r = expect("ctf clocks 5000", &h, TRACERD_E_LIMIT, METADATA_AT,
               "clock block 4097: more than max_stream_classes (4096)");
    ck_assert_uint_lt(r.peak_bytes, PEAK_UNUSED);
    hostile_free(&h);
    hg_ctf_clocks(&h, 4000);
    expect("ctf clocks 4000", &h, TRACERD_OK, 0, "");
    hostile_free(&h);
}
END_TEST

/* ---- CTF trace directories ---------------------------------------------------- */

static hostile_result_t run_dir(const char *what, const char *dir, unsigned n, unsigned events,
                                const tracerd_ctf_dir_config_t *cfg)
{
    ck_assert_int_eq(hg_ctf_dir_streams(dir, n, events), 0);
    hostile_result_t r;
    hostile_run_dir(dir, cfg, &r);
    fprintf(stderr,
            "hostile %-24s %5u streams x %5u events: %s \"%s\" events=%lu peak=%zu "
            "(%zu a stream) total=%zu rss+=%ld KiB\n",
            what, n, events, tracerd_status_name(r.status), r.reason, r.events, r.peak_bytes,
            r.peak_bytes / n, r.total_bytes, r.rss_growth_kib);
    ck_assert_int_eq(drv_rm_tree(dir), 0);
    return r;
}

/* Thousands of streams: memory is a few KiB a stream (it was 128 KiB: a
 * 64 KiB read buffer and a 64 KiB stitch buffer each), flat with the
 * length of the streams, bounded by max_streams; the merge delivers every
 * event in time order. */
START_TEST(test_ctf_dir_many_streams)
{
    char tmp[] = "/tmp/tracerd-hostile-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/t", tmp);

    /* the default max_streams (4096), every stream interleaved with all others */
    hostile_result_t r = run_dir("ctf dir 4096 streams", dir, 4096, 8, NULL);
    ck_assert_int_eq(r.status, TRACERD_OK);
    ck_assert_uint_eq(r.events, 4096 * 8);
    ck_assert_uint_eq(r.out_of_order, 0);
    ck_assert_uint_lt(r.peak_bytes, (size_t)4096 * 8192);
    ck_assert_int_lt(r.rss_growth_kib, 3 * 4096 * 8 + 64 * 1024);

    /* Memory flat with the streams' length: reads of 4 KiB (a 1 MiB budget
     * shared by 256 streams), a quarter and the whole of 64 KiB files */
    tracerd_ctf_dir_config_t cfg;
    tracerd_ctf_dir_config_init(&cfg);
    cfg.max_read_buffer_bytes = (size_t)1 << 20;
    hostile_result_t a = run_dir("ctf dir 256 x 800", dir, 256, 800, &cfg);
    ck_assert_int_eq(a.status, TRACERD_OK);
    ck_assert_uint_eq(a.events, 256 * 800);
    ck_assert_uint_eq(a.out_of_order, 0);
    hostile_result_t b = run_dir("ctf dir 256 x 3200", dir, 256, 3200, &cfg);
    ck_assert_int_eq(b.status, TRACERD_OK);
    ck_assert_uint_eq(b.events, 256 * 3200);
    ck_assert_uint_eq(b.out_of_order, 0);
    ck_assert_uint_le(b.peak_bytes, a.peak_bytes + a.peak_bytes / 16);
    ck_assert_uint_lt(b.peak_bytes, (size_t)256 * 8192);

    /* over max_streams: the limit, the value asked for and the folder */
    cfg.max_streams = 100;
    r = run_dir("ctf dir over max_streams", dir, 130, 1, &cfg);
    ck_assert_int_eq(r.status, TRACERD_E_LIMIT);
    ck_assert_str_eq(r.reason, "130 stream files (130 in this trace): more than max_streams (100)");
    ck_assert_str_eq(r.log, dir);
    ck_assert_uint_lt(r.peak_bytes, (size_t)1 << 20);
    rmdir(tmp);
}
END_TEST

Suite *suite_hostile(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fxt_huge_sizes);
    tcase_add_test(tc, test_fxt_table_churn);
    tcase_add_test(tc, test_fxt_compaction_work);
    tcase_add_test(tc, test_xray_huge_sizes);
    tcase_add_test(tc, test_xray_buffer_churn);
    tcase_add_test(tc, test_xtrace_huge_counts);
    tcase_add_test(tc, test_xtrace_snapshots);
    tcase_add_test(tc, test_ctf_billion_laughs);
    tcase_add_test(tc, test_ctf_empty_elements);
    tcase_add_test(tc, test_ctf_enum_lookup);
    tcase_add_test(tc, test_ctf_name_counts);
    tcase_add_test(tc, test_ctf_metadata_memory);
    tcase_add_test(tc, test_ctf_dir_many_streams);
    suite_add_tcase(s, tc);
    return s;
}
