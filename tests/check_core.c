/* Core: status tables, version, byte loads, stitch buffer, hash map, time. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/tracerd.h>

#include "../libtracerd/core/internal.h"
#include "../libtracerd/core/sized.h"
#include "support/driver.h"

START_TEST(test_status_names)
{
    ck_assert_str_eq(tracerd_status_name(TRACERD_OK), "OK");
    ck_assert_str_eq(tracerd_status_name(TRACERD_E_TRUNCATED), "E_TRUNCATED");
    ck_assert_str_eq(tracerd_status_name((tracerd_status_t)-999), "UNKNOWN");
    ck_assert_str_eq(tracerd_status_message(TRACERD_E_NOMEM), "memory allocation failed");
    /* Pinned values are ABI. */
    ck_assert_int_eq(TRACERD_PAUSED, 1);
    ck_assert_int_eq(TRACERD_E_CALLBACK, -8);
    ck_assert_int_eq(TRACERD_E_IO, -16);
}
END_TEST

START_TEST(test_version)
{
    ck_assert_uint_eq(tracerd_version_number(), TRACERD_VERSION_NUMBER);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", TRACERD_VERSION_MAJOR, TRACERD_VERSION_MINOR,
             TRACERD_VERSION_PATCH);
    ck_assert_str_eq(tracerd_version_string(), want);
}
END_TEST

/* Every config and callbacks struct has an _init (STYLE.md B.16), every
 * reader an ops table whose members are all set (CTF's stream reader has no
 * new_reader: it needs its trace). */
#define CB_ZEROED(type, init)                                                                      \
    do {                                                                                           \
        type cb_;                                                                                  \
        memset(&cb_, 0xa5, sizeof cb_);                                                            \
        init(&cb_);                                                                                \
        ck_assert_uint_eq(cb_.size, sizeof cb_);                                                   \
        cb_.size = 0;                                                                              \
        const unsigned char *b_ = (const unsigned char *)&cb_;                                     \
        for (size_t i_ = 0; i_ < sizeof cb_; i_++)                                                 \
            ck_assert_uint_eq(b_[i_], 0);                                                          \
    } while (0)

START_TEST(test_init_and_ops)
{
    CB_ZEROED(tracerd_xray_callbacks_t, tracerd_xray_callbacks_init);
    CB_ZEROED(tracerd_fxt_callbacks_t, tracerd_fxt_callbacks_init);
    CB_ZEROED(tracerd_ctf_callbacks_t, tracerd_ctf_callbacks_init);
    CB_ZEROED(tracerd_xtrace_insn_callbacks_t, tracerd_xtrace_insn_callbacks_init);
    CB_ZEROED(tracerd_xtrace_snap_callbacks_t, tracerd_xtrace_snap_callbacks_init);
    CB_ZEROED(tracerd_event_callbacks_t, tracerd_event_callbacks_init);
    const tracerd_reader_ops_t *all[] = {tracerd_xray_ops(),        tracerd_fxt_ops(),
                                         tracerd_xtrace_insn_ops(), tracerd_xtrace_snap_ops(),
                                         tracerd_ctf_stream_ops(),  tracerd_auto_ops()};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const tracerd_reader_ops_t *o = all[i];
        ck_assert_uint_eq(o->size, sizeof *o);
        ck_assert(o->name != NULL && o->feed != NULL && o->resume != NULL && o->finish != NULL &&
                  o->reset != NULL && o->free != NULL && o->offset != NULL &&
                  o->record_offset != NULL && o->error_reason != NULL &&
                  o->callback_error != NULL);
        ck_assert((o->new_reader == NULL) == (o == tracerd_ctf_stream_ops()));
    }
    /* new_reader makes a working reader: an empty XRay input is truncated */
    void *r = NULL;
    ck_assert_int_eq(tracerd_xray_ops()->new_reader(NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_xray_ops()->finish(r), TRACERD_E_TRUNCATED);
    tracerd_xray_ops()->free(r);
}
END_TEST

/* Config and callbacks structs that grow (sized.h, doc/api.md §7): an
 * older, smaller struct keeps the newer members' defaults; a newer, larger one
 * is read when what this library does not know is zero, refused otherwise;
 * _init writes no more than the caller's size. Two versions of one struct: */
struct v1 { /* as an older header declared it */
    uint32_t a;
    size_t size;
};
struct v2 { /* the library's, one member later */
    uint32_t a;
    size_t size;
    uint32_t b; /* default 7 */
};

START_TEST(test_sized_structs)
{
    const size_t base = TRACERD__SIZE_TO(struct v2, size);
    ck_assert_uint_eq(base, sizeof(struct v1));
    /* an older caller: b keeps its default */
    struct v1 old = {5, sizeof old};
    struct v2 lib = {1, sizeof lib, 7};
    ck_assert_int_eq(tracerd__sized_read(&lib, sizeof lib, &old, offsetof(struct v2, size), base),
                     TRACERD_OK);
    ck_assert_uint_eq(lib.a, 5);
    ck_assert_uint_eq(lib.b, 7);
    ck_assert_uint_eq(lib.size, sizeof lib);
    /* size 0 (zeroed by hand) is the older struct */
    old.size = 0;
    lib.b = 7;
    ck_assert_int_eq(tracerd__sized_read(&lib, sizeof lib, &old, offsetof(struct v2, size), base),
                     TRACERD_OK);
    ck_assert_uint_eq(lib.a, 5);
    ck_assert_uint_eq(lib.b, 7);
    /* smaller than the first sized version: not ours */
    old.size = sizeof(size_t);
    ck_assert_int_eq(tracerd__sized_read(&lib, sizeof lib, &old, offsetof(struct v2, size), base),
                     TRACERD_E_INVALID);
    /* a newer caller against the older library (v1): the unknown tail must be zero */
    struct v2 newer;
    memset(&newer, 0, sizeof newer);
    newer.a = 9;
    newer.size = sizeof newer;
    struct v1 older_lib = {1, sizeof older_lib};
    ck_assert_int_eq(tracerd__sized_read(&older_lib, sizeof older_lib, &newer,
                                         offsetof(struct v1, size), base),
                     TRACERD_OK);
    ck_assert_uint_eq(older_lib.a, 9);
    newer.b = 1;
    ck_assert_int_eq(tracerd__sized_read(&older_lib, sizeof older_lib, &newer,
                                         offsetof(struct v1, size), base),
                     TRACERD_E_INVALID);
    /* _init of a newer library on an older caller's struct writes only that */
    unsigned char buf[sizeof(struct v2) + 8];
    memset(buf, 0xa5, sizeof buf);
    struct v2 def = {3, sizeof def, 7};
    tracerd__sized_init(buf, sizeof(struct v1), &def, sizeof def, offsetof(struct v2, size));
    struct v1 got;
    memcpy(&got, buf, sizeof got);
    ck_assert_uint_eq(got.a, 3);
    ck_assert_uint_eq(got.size, sizeof(struct v1));
    for (size_t i = sizeof(struct v1); i < sizeof buf; i++)
        ck_assert_uint_eq(buf[i], 0xa5);

    /* The public structs, through the readers: a caller built against a
     * newer header (a larger struct, _init_sized with its size) is read
     * while its extra bytes are zero, refused when one is set. */
    union {
        tracerd_xray_config_t c;
        unsigned char b[sizeof(tracerd_xray_config_t) + 16];
    } x;
    tracerd_xray_config_init_sized(&x.c, sizeof x.b);
    ck_assert_uint_eq(x.c.size, sizeof x.b);
    ck_assert_uint_eq(x.c.max_args, 64); /* the defaults */
    tracerd_xray_reader_t *r = NULL;
    ck_assert_int_eq(tracerd_xray_new(&x.c, NULL, NULL, NULL, &r), TRACERD_OK);
    tracerd_xray_free(r);
    x.b[sizeof x.b - 1] = 1;
    ck_assert_int_eq(tracerd_xray_new(&x.c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    ck_assert_ptr_null(r);
    union {
        tracerd_fxt_callbacks_t c;
        unsigned char b[sizeof(tracerd_fxt_callbacks_t) + sizeof(void *)];
    } f;
    tracerd_fxt_callbacks_init_sized(&f.c, sizeof f.b);
    tracerd_fxt_reader_t *fr = NULL;
    ck_assert_int_eq(tracerd_fxt_new(NULL, &f.c, NULL, NULL, &fr), TRACERD_OK);
    tracerd_fxt_free(fr);
    f.b[sizeof f.b - 1] = 1; /* a callback this library does not know */
    ck_assert_int_eq(tracerd_fxt_new(NULL, &f.c, NULL, NULL, &fr), TRACERD_E_INVALID);
    /* a size below the first sized version is no struct of ours */
    tracerd_auto_config_t ac;
    tracerd_auto_config_init(&ac);
    ac.size = 8;
    tracerd_auto_reader_t *ar = NULL;
    ck_assert_int_eq(tracerd_auto_new(&ac, NULL, NULL, NULL, &ar), TRACERD_E_INVALID);
    /* size 0: a struct initialised by hand reads as before */
    tracerd_event_callbacks_t ecb;
    memset(&ecb, 0, sizeof ecb); /* hand-initialised: size 0 */
    ac.size = 0;
    ck_assert_int_eq(tracerd_auto_new(&ac, &ecb, NULL, NULL, &ar), TRACERD_OK);
    tracerd_auto_free(ar);
}
END_TEST

START_TEST(test_bytes)
{
    const uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ck_assert_uint_eq(tracerd__le16(b), 0x0201);
    ck_assert_uint_eq(tracerd__be16(b), 0x0102);
    ck_assert_uint_eq(tracerd__le32(b), 0x04030201u);
    ck_assert_uint_eq(tracerd__be32(b), 0x01020304u);
    ck_assert_uint_eq(tracerd__le64(b), 0x0807060504030201ull);
    ck_assert_uint_eq(tracerd__be64(b), 0x0102030405060708ull);
    uint8_t s[8];
    tracerd__st64(true, s, 0x0102030405060708ull);
    ck_assert_mem_eq(s, b, 8);
    tracerd__st32(false, s, 0x04030201u);
    ck_assert_mem_eq(s, b, 4);
}
END_TEST

START_TEST(test_stitch)
{
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, NULL);
    struct tracerd__stitch s;
    ck_assert_int_eq(tracerd__stitch_init(&s, &a, 16), TRACERD_OK);
    const uint8_t data[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    const uint8_t *pos = data, *end = data + 10;
    const uint8_t *r = tracerd__gather(&s, &pos, end, 4); /* zero copy */
    ck_assert_ptr_eq(r, data);
    ck_assert_ptr_eq(pos, data + 4);
    r = tracerd__gather(&s, &pos, end, 8); /* only 6 left: kept */
    ck_assert_ptr_null(r);
    ck_assert_ptr_eq(pos, end);
    const uint8_t more[4] = {10, 11, 12, 13};
    pos = more;
    r = tracerd__gather(&s, &pos, more + 4, 8);
    ck_assert_ptr_eq(r, s.buf);
    const uint8_t want[8] = {4, 5, 6, 7, 8, 9, 10, 11};
    ck_assert_mem_eq(r, want, 8);
    ck_assert_ptr_eq(pos, more + 2);
    tracerd__stitch_free(&s, &a);
}
END_TEST

START_TEST(test_hmap)
{
    drv_alloc_t fa;
    drv_alloc_init(&fa, 0);
    struct tracerd__hmap m;
    tracerd__hmap_init(&m);
    for (uint64_t k = 0; k < 1000; k++)
        ck_assert_int_eq(tracerd__hmap_put(&m, &fa.a, k * 7919, k), TRACERD_OK);
    uint64_t v;
    for (uint64_t k = 0; k < 1000; k++) {
        ck_assert(tracerd__hmap_get(&m, k * 7919, &v));
        ck_assert_uint_eq(v, k);
    }
    ck_assert(!tracerd__hmap_get(&m, 3, &v));
    ck_assert_int_eq(tracerd__hmap_put(&m, &fa.a, 7919, 42), TRACERD_OK);
    ck_assert(tracerd__hmap_get(&m, 7919, &v));
    ck_assert_uint_eq(v, 42);
    ck_assert_uint_eq(m.count, 1000);
    tracerd__hmap_free(&m, &fa.a);
    ck_assert_int_eq(fa.live, 0);
    /* A failing allocation leaves the map usable and leaks nothing. */
    drv_alloc_init(&fa, 2);
    tracerd__hmap_init(&m);
    ck_assert_int_eq(tracerd__hmap_put(&m, &fa.a, 1, 1), TRACERD_E_NOMEM);
    ck_assert_int_eq(tracerd__hmap_put(&m, &fa.a, 1, 1), TRACERD_OK);
    tracerd__hmap_free(&m, &fa.a);
    ck_assert_int_eq(fa.live, 0);
    ck_assert_uint_ne(tracerd__hash_bytes("a", 1), tracerd__hash_bytes("b", 1));
}
END_TEST

START_TEST(test_ticks_to_ns)
{
    ck_assert_uint_eq(tracerd_ticks_to_ns(3000000000ull, 3000000000ull), 1000000000ull);
    ck_assert_uint_eq(tracerd_ticks_to_ns(123, 1000000000ull), 123);
    ck_assert_uint_eq(tracerd_ticks_to_ns(5, 0), 0);
    /* Needs the 128-bit path: 2^63 ticks at 2.4 GHz. */
    ck_assert_uint_eq(tracerd_ticks_to_ns(1ull << 63, 2400000000ull), 3843071682022823253ull);
    ck_assert_uint_eq(tracerd_ticks_to_ns(UINT64_MAX, 1), UINT64_MAX); /* saturates */
    ck_assert_uint_eq(tracerd__muldiv64(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
    ck_assert_uint_eq(tracerd__muldiv64(1ull << 40, 1ull << 40, 1ull << 30), 1ull << 50);
}
END_TEST

START_TEST(test_tick_conv)
{
    static const uint64_t freqs[] = {1,          3,          999999999,  1000000000, 1000000001,
                                     2400000000, 2900123457, 4294967295, 4294967296, 19000000000ull,
                                     24000000,   32768,      UINT64_MAX};
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof freqs / sizeof freqs[0]; i++) {
        struct tracerd__tick_conv c;
        tracerd__tick_conv_init(&c, freqs[i]);
        /* one assertion per frequency (Check's per-call cost made this
         * test the slowest of the suite: 260,000 assertions) */
        int bad = -1;
        uint64_t bad_t = 0, got = 0, want = 0;
        for (int k = 0; k < 20000; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint64_t t = k < 100 ? (uint64_t)k : (k & 1) ? x : x >> (k % 64);
            uint64_t g = tracerd__tick_conv_ns(&c, t), w = tracerd_ticks_to_ns(t, freqs[i]);
            if (g != w && bad < 0)
                bad = k, bad_t = t, got = g, want = w;
        }
        ck_assert_msg(bad < 0, "freq %" PRIu64 " ticks %" PRIu64 " (draw %d): %" PRIu64 " ns, want %" PRIu64,
                      freqs[i], bad_t, bad, got, want);
    }
    struct tracerd__tick_conv z;
    tracerd__tick_conv_init(&z, 0);
    ck_assert_uint_eq(tracerd__tick_conv_ns(&z, 12345), 0);
}
END_TEST

/* Under `make check-be` the suite runs on s390x: make sure it really is big-endian. */
START_TEST(test_host_order)
{
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    const char *be = getenv("TRACERD_BIG_ENDIAN_HOST");
    if (be != NULL && strcmp(be, "1") == 0)
        ck_assert_uint_eq(first, 0);
    /* Loads give the same values whatever the host order. */
    const uint8_t b[4] = {0x12, 0x34, 0x56, 0x78};
    ck_assert_uint_eq(tracerd__ld32(true, b), 0x12345678u);
    ck_assert_uint_eq(tracerd__ld32(false, b), 0x78563412u);
}
END_TEST

Suite *suite_core(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_status_names);
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_bytes);
    tcase_add_test(tc, test_init_and_ops);
    tcase_add_test(tc, test_sized_structs);
    tcase_add_test(tc, test_stitch);
    tcase_add_test(tc, test_hmap);
    tcase_add_test(tc, test_ticks_to_ns);
    tcase_add_test(tc, test_tick_conv);
    tcase_add_test(tc, test_host_order);
    suite_add_tcase(s, tc);
    return s;
}
