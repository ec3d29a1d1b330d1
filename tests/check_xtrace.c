/* xtrace readers: every token and snapshot field, the layout matrix, split /
 * pause / allocation invariance, and every malformed case. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracerd/tracerd.h>
#include <tracerd/xtrace.h>

#include "support/driver.h"
#include "support/xtrace_recorder.h"
#include "support/xtrace_writer.h"

/* One whole-feed run (no invariance loops): for the big matrix. */
static char *run_once(const drv_target_t *t, const void *cfg, const uint8_t *d, size_t n)
{
    drv_plan_t whole = {0};
    return drv_run(t, cfg, d, n, &whole);
}

static void assert_has(const char *log, const char *want)
{
    ck_assert_msg(strstr(log, want) != NULL, "log lacks \"%s\":\n%.2000s", want, log);
}

static void assert_end(const char *log, const char *want_end)
{
    const char *e = strstr(log, "end ");
    while (e != NULL && strstr(e + 1, "\nend ") != NULL)
        e = strstr(e + 1, "\nend ") + 1;
    ck_assert_msg(e != NULL && strcmp(e, want_end) == 0, "end line:\n got: %s\nwant: %s",
                  e ? e : "(none)", want_end);
}

/* ---- instruction stream ------------------------------------------------ */

/* A stream with every token and sub-type. */
static void all_tokens(xtw_t *w, unsigned time_bytes, unsigned iov_layout)
{
    xtw_pcinst(w, 0, 0x400000, 0xd503201f);
    xtw_inst(w, 0, 0xaa0103e0);
    xtw_inst(w, 1, 0xf9400020);
    for (unsigned k = 0; k <= 8; k++) {
        xtw_mem(w, false, k, 0x1000 + k, NULL);
        xtw_mem(w, true, k, 0x2000 + k, NULL);
    }
    for (unsigned v = 0; v < 6; v++)
        xtw_val(w, v, 0x1111111111111111ull * (v + 1));
    xtw_pcinst(w, 1, 0xffff800010000000ull, 0xd4000001);
    xtw_allgpr(w, 0x100);
    xtw_flags(w, 0x60000000);
    uint64_t base[3] = {0x7fff0000, 0x7fff1000, 0x7fff2000}, len[3] = {5, 0, 20};
    xtw_sysvec(w, iov_layout, 3, base, len);
    xtw_sysvec(w, iov_layout, 0, NULL, NULL);
    xtw_time(w, time_bytes, 0x0102030405060708ull);
    xtw_inst(w, 0, 0x8b020020);
}

START_TEST(test_insn_all_tokens)
{
    xtw_t w;
    xtw_init(&w);
    all_tokens(&w, 8, 0);
    char *log = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
    drv_golden("xtrace/all_tokens.gold", log);
    /* Spot checks of decoded values, independent of the golden file. */
    assert_has(log, "insn @0 #0 pc=0x400000 op=0xd503201f el=0 explicit\n");
    assert_has(log, "insn @13 #1 pc=0x400004 op=0xaa0103e0 el=0\n");
    assert_has(log, "insn @18 #2 pc=0x400008 op=0xf9400020 el=1\n");
    assert_has(log, "mem @23 n=3 el=1 load addr=0x1000 size=1 k=0 u64=0x0 val=00\n");
    assert_has(log, "mem @33 n=3 el=1 store addr=0x2000 size=1 k=0 u64=0x0 val=00\n");
    assert_has(log, "load addr=0x1003 size=8 k=3 u64=0xa09080706050403 val=030405060708090a\n");
    assert_has(log, "val @");
    assert_has(log, " target-b 0x6666666666666666\n");
    assert_has(log, " stxr 0x1111111111111111\n");
    assert_has(log, " svcret 0x4444444444444444\n");
    assert_has(log, "pc=0xffff800010000000 op=0xd4000001 el=1 explicit\n");
    assert_has(log, "x0=0x100 x1=0x101 x30=0x11e x31=0x11f\n");
    assert_has(log, "flags @");
    assert_has(log, " 0x60000000\n");
    assert_has(log, "count=3 layout=0\n");
    assert_has(log, "#0 base=0x7fff0000 len=5\n");
    assert_has(log, "#1 base=0x7fff1000 len=0\n");
    assert_has(log, "frag iov-data[2]");
    assert_has(log, "count=0 layout=0\n");
    assert_has(log, "0x102030405060708 raw=0807060504030201\n");
    assert_has(log, "el=0\nend OK\n");
    free(log);
    xtw_free(&w);
}
END_TEST

START_TEST(test_insn_iov_layouts)
{
    static const char *const gold[3] = {"xtrace/iov_interleaved.gold", "xtrace/iov_grouped.gold",
                                        "xtrace/iov_headers_only.gold"};
    for (unsigned lay = 0; lay < 3; lay++) {
        xtw_t w;
        xtw_init(&w);
        xtw_pcinst(&w, 0, 0x1000, 0xd4000001);
        uint64_t base[4] = {0xa000, 0xb000, 0xc000, 0xd000}, len[4] = {3, 40, 0, 1};
        xtw_sysvec(&w, lay, 4, base, len);
        xtw_inst(&w, 0, 0x11);
        tracerd_xtrace_insn_config_t c;
        tracerd_xtrace_insn_config_init(&c);
        c.iov_layout = (tracerd_xtrace_iov_layout_t)lay;
        char *log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
        drv_golden(gold[lay], log);
        assert_has(log, "insn @");
        assert_has(log, "pc=0x1004 op=0x00000011 el=0\nend OK\n");
        if (lay == 2)
            ck_assert_ptr_null(strstr(log, "frag"));
        else
            assert_has(log, "frag iov-data[1] @13 total=40");
        free(log);
        xtw_free(&w);
    }
}
END_TEST

/* Issue 12: the SYSCALL_VEC layout decided from the data (AUTO, the default):
 * streams written in each layout read as the forced layout reads them, with
 * one decision reported before the first SYSCALL_VEC's on_syscall_vec. */
START_TEST(test_insn_iov_auto)
{
    for (unsigned lay = 0; lay < 3; lay++) {
        xtw_t w;
        xtw_init(&w);
        xtw_pcinst(&w, 0, 0x1000, 0xd4000001);
        uint64_t base[4] = {0xa000, 0xb000, 0xc000, 0xd000}, len[4] = {3, 40, 0, 1};
        xtw_sysvec(&w, lay, 4, base, len);
        xtw_inst(&w, 0, 0x11);
        xtw_sysvec(&w, lay, 2, base + 1, len + 1);
        xtw_inst(&w, 1, 0x12);
        tracerd_xtrace_insn_config_t c;
        tracerd_xtrace_insn_config_init(&c);
        ck_assert_int_eq(c.iov_layout, TRACERD_XTRACE_IOV_AUTO);
        char *got = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
        c.iov_layout = (tracerd_xtrace_iov_layout_t)lay;
        char *want = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
        char line[160];
        snprintf(line, sizeof line,
                 "iov_layout @13 %s candidates=0x%x assumed=0 window=%zu complete\n",
                 tracerd_xtrace_iov_layout_name((tracerd_xtrace_iov_layout_t)lay), 1u << lay,
                 w.len - 22);
        char *at = strstr(got, line);
        ck_assert_msg(at != NULL, "layout %u: no '%s' in\n%s", lay, line, got);
        ck_assert_ptr_eq(strstr(at + 1, "iov_layout @"), NULL); /* once */
        memmove(at, at + strlen(line), strlen(at + strlen(line)) + 1);
        ck_assert_str_eq(got, want);
        /* a window smaller than the stream decides from what it holds */
        tracerd_xtrace_insn_config_init(&c);
        c.iov_probe_bytes = 64;
        free(got);
        got = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
        assert_has(got, "iov_layout @13 ");
        free(got);
        free(want);
        xtw_free(&w);
    }
    /* one iovec: interleaved and grouped are the same bytes (assumed) */
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x1000, 0xd4000001);
    uint64_t base = 0xa000, len = 16;
    xtw_sysvec(&w, 0, 1, &base, &len);
    xtw_inst(&w, 0, 0x11);
    char *got = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
    assert_has(got, "iov_layout @13 interleaved candidates=0x3 assumed=1 window=");
    assert_has(got, "syscall_vec @13 n=1 count=1 layout=0\n");
    assert_has(got, "pc=0x1004 op=0x00000011 el=0\nend OK\n");
    free(got);
    xtw_free(&w);
    /* a bad option value */
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.iov_probe_bytes = 10;
    tracerd_xtrace_insn_reader_t *r;
    ck_assert_int_eq(tracerd_xtrace_insn_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
}
END_TEST

START_TEST(test_insn_time_sizes)
{
    static const unsigned sizes[] = {4, 8, 16};
    for (unsigned i = 0; i < 3; i++) {
        xtw_t w;
        xtw_init(&w);
        xtw_pcinst(&w, 0, 0x1000, 1);
        xtw_time(&w, sizes[i], 0x1122334455667788ull);
        xtw_inst(&w, 0, 2);
        tracerd_xtrace_insn_config_t c;
        tracerd_xtrace_insn_config_init(&c);
        c.time_payload_bytes = sizes[i];
        char *log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
        if (sizes[i] == 4)
            assert_has(log, "time @13 n=1 0x55667788 raw=88776655\n");
        else if (sizes[i] == 8)
            assert_has(log, "time @13 n=1 0x1122334455667788 raw=8877665544332211\n");
        else
            assert_has(log,
                       "time @13 n=1 0x1122334455667788 raw=8877665544332211a8a9aaabacadaeaf\n");
        assert_has(log, "pc=0x1004 op=0x00000002 el=0\nend OK\n");
        free(log);
        xtw_free(&w);
    }
}
END_TEST

START_TEST(test_insn_big_mem_fragments)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x1000, 1);
    xtw_mem(&w, true, 10, 0x8000, NULL); /* 1024 bytes > the 512-byte stitch bound */
    xtw_mem(&w, false, 8, 0x9000, NULL); /* 265 bytes: whole */
    xtw_inst(&w, 0, 2);
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.stitch_bytes = 512;
    c.max_mem_log2 = 12;
    char *log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    assert_has(log, "mem @13 n=1 el=0 store addr=0x8000 size=1024 k=10 u64=0x0 val=(fragments)\n");
    assert_has(log, "frag mem-value[0] @13 total=1024 fnv=");
    assert_has(log, "mem @1046 n=1 el=0 load addr=0x9000 size=256 k=8 u64=0x0 val=fnv:");
    assert_has(log, "pc=0x1004 op=0x00000002 el=0\nend OK\n");
    free(log);
    /* The same value with the default limit (k <= 8) is E_LIMIT at the record. */
    log = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
    assert_end(log, "end E_LIMIT @13 MEM store token 0xaa: value of 2^10 bytes exceeds "
                    "max_mem_log2 (8)\n");
    free(log);
    xtw_free(&w);
}
END_TEST

START_TEST(test_insn_initial_pc)
{
    xtw_t w;
    xtw_init(&w);
    xtw_inst(&w, 0, 1);
    xtw_inst(&w, 0, 2);
    char *log = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
    ck_assert_str_eq(log, "end E_ORDER @0 INST token 0x01 before any PCINST: the PC is unknown "
                          "(set has_initial_pc to start mid-stream)\n");
    free(log);
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.has_initial_pc = true;
    c.initial_pc = 0x7000;
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    ck_assert_str_eq(log, "insn @0 #0 pc=0x7000 op=0x00000001 el=0\n"
                          "insn @5 #1 pc=0x7004 op=0x00000002 el=0\nend OK\n");
    free(log);
    /* Resuming at a seek point: offsets and indexes continue from it. */
    c.start_offset = 1000;
    c.start_index = 3000000;
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    ck_assert_str_eq(log, "insn @1000 #3000000 pc=0x7000 op=0x00000001 el=0\n"
                          "insn @1005 #3000001 pc=0x7004 op=0x00000002 el=0\nend OK\n");
    free(log);
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, 3);
    ck_assert_str_eq(log, "end E_TRUNCATED @1000 input ended inside a INST record (5 bytes, 3 "
                          "present)\n");
    free(log);
    xtw_free(&w);
}
END_TEST

/* Every unassigned class and sub-type is E_BAD_TOKEN at its offset. */
START_TEST(test_insn_bad_tokens)
{
    static const struct {
        uint8_t tok;
        const char *reason;
    } cases[] = {
        {0x00, "token 0x00: class 0 (bits [2:0]) is not assigned"},
        {0x05, "token 0x05: class 5 (bits [2:0]) is not assigned"},
        {0x06, "token 0x06: class 6 (bits [2:0]) is not assigned"},
        {0x11, "token 0x11: INST sub-type 2 (bits [7:3]) is not assigned"},
        {0x39, "token 0x39: INST sub-type 7 (bits [7:3]) is not assigned"},
        {0x33, "token 0x33: VAL sub-type 6 (bits [7:3]) is not assigned"},
        {0xfb, "token 0xfb: VAL sub-type 31 (bits [7:3]) is not assigned"},
        {0x04, "token 0x04: MISC sub-type 0 (bits [7:3]) is not assigned"},
        {0x14, "token 0x14: MISC sub-type 2 (bits [7:3]) is not assigned"},
        {0x2c, "token 0x2c: MISC sub-type 5 (bits [7:3]) is not assigned"},
        {0x0f, "token 0x0f: TIME sub-type 1 (bits [7:3]) is not assigned"},
    };
    int nbad = 0;
    for (unsigned t = 0; t < 256; t++) {
        tracerd_xtrace_profile_t p;
        tracerd_xtrace_profile_default(&p);
        nbad += p.token[t].kind == TRACERD_XTRACE_TOK_INVALID;
    }
    /* 3 classes x 32 + INST 6 x 4... : 96 + 24 + 26 (VAL) + 29 (MISC) + 31 (TIME) */
    ck_assert_int_eq(nbad, 96 + 24 + 26 + 29 + 31);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xtw_t w;
        xtw_init(&w);
        xtw_pcinst(&w, 0, 0x1000, 1);
        xtw_inst(&w, 0, 2);
        xtw_u8(&w, cases[i].tok);
        xtw_fill(&w, 0x41, 20);
        char *log = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
        char want[300];
        snprintf(want, sizeof want, "end E_BAD_TOKEN @18 %s\n", cases[i].reason);
        assert_end(log, want);
        assert_has(log, "insn @13 #1 pc=0x1004");
        free(log);
        xtw_free(&w);
    }
}
END_TEST

/* Removes the lines of log that start with prefix (in place); returns log. */
static char *drop_lines(char *log, const char *prefix)
{
    char *out = log;
    size_t k = strlen(prefix);
    for (const char *p = log; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t n = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);
        if (strncmp(p, prefix, k) != 0) {
            memmove(out, p, n);
            out += n;
        }
        p += n;
    }
    *out = '\0';
    return log;
}

START_TEST(test_insn_truncated)
{
    xtw_t w;
    xtw_init(&w);
    all_tokens(&w, 8, 0);
    /* Cut the stream at every byte: the error names the record cut. (The
     * AUTO iov layout decision sees a shorter window: its line differs.) */
    char *full = drop_lines(run_once(&xtrace_insn_target, NULL, w.buf, w.len), "iov_layout @");
    for (size_t cut = 1; cut < w.len; cut++) {
        char *log = drop_lines(run_once(&xtrace_insn_target, NULL, w.buf, cut), "iov_layout @");
        const char *e = strstr(log, "end ");
        while (strstr(e + 1, "\nend ") != NULL)
            e = strstr(e + 1, "\nend ") + 1;
        ck_assert_msg(strncmp(e, "end OK", 6) == 0 || strncmp(e, "end E_TRUNCATED @", 17) == 0,
                      "cut %zu: %s", cut, e);
        /* The prefix of records is the same as in the full log. */
        ck_assert_msg(strncmp(full, log, (size_t)(e - log)) == 0, "cut %zu", cut);
        free(log);
    }
    free(full);
    char *log = drv_check_all(&xtrace_insn_target, NULL, w.buf, 20);
    assert_end(log, "end E_TRUNCATED @18 input ended inside a INST record (5 bytes, 2 present)\n");
    free(log);
    log = drv_check_all(&xtrace_insn_target, NULL, w.buf, 8);
    assert_end(log,
               "end E_TRUNCATED @0 input ended inside a PCINST record (13 bytes, 8 present)\n");
    free(log);
    /* Inside an iovec header and inside iovec data. */
    xtw_t s;
    xtw_init(&s);
    xtw_pcinst(&s, 0, 0x1000, 1);
    uint64_t base[1] = {0x10}, len[1] = {100};
    xtw_sysvec(&s, 0, 1, base, len);
    log = drv_check_all(&xtrace_insn_target, NULL, s.buf, 13 + 9 + 10);
    assert_end(log, "end E_TRUNCATED @13 input ended inside iovec 0 of a SYSCALL_VEC (16 bytes, "
                    "10 present)\n");
    free(log);
    log = drv_check_all(&xtrace_insn_target, NULL, s.buf, 13 + 9 + 16 + 30);
    assert_end(log, "end E_TRUNCATED @13 input ended inside iovec data of a SYSCALL_VEC (100 "
                    "bytes, 30 present)\n");
    free(log);
    /* Lenient: a warning and OK. */
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.allow_truncated_tail = true;
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, 20);
    assert_has(log, "warning E_TRUNCATED @18 skipped=2 input ended inside a INST record (5 bytes, "
                    "2 present) (ignored)\nend OK\n");
    free(log);
    xtw_free(&s);
    xtw_free(&w);
}
END_TEST

START_TEST(test_insn_zero_padding)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x1000, 1);
    xtw_inst(&w, 0, 2);
    xtw_fill(&w, 0, 50);
    char *log = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
    assert_end(log, "end E_BAD_TOKEN @18 token 0x00: class 0 (bits [2:0]) is not assigned\n");
    free(log);
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.allow_trailing_zero_padding = true;
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    assert_has(log, "el=0\nwarning E_BAD_TOKEN @18 skipped=50 50 bytes of trailing zero padding "
                    "ignored\nend OK\n");
    free(log);
    xtw_inst(&w, 0, 3);
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    assert_end(log, "end E_BAD_TOKEN @18 zero byte is not a token: padding from byte 18 is "
                    "followed by data (0x01 at byte 68)\n");
    free(log);
    xtw_free(&w);
}
END_TEST

START_TEST(test_insn_limits)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x1000, 1);
    uint64_t base[3] = {1, 2, 3}, len[3] = {1, 2, 3};
    xtw_sysvec(&w, 0, 3, base, len);
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.max_iov = 2;
    char *log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    assert_end(log, "end E_LIMIT @13 SYSCALL_VEC: iovec count 3 exceeds max_iov (2)\n");
    free(log);
    tracerd_xtrace_insn_config_init(&c);
    c.max_iov_len = 2;
    log = drv_check_all(&xtrace_insn_target, &c, w.buf, w.len);
    assert_end(log, "end E_LIMIT @13 SYSCALL_VEC: iovec 2 at byte 57: length 3 exceeds "
                    "max_iov_len (2)\n");
    free(log);
    /* A huge count never allocates: E_LIMIT with the default bound. */
    xtw_t h;
    xtw_init(&h);
    xtw_u8(&h, 0x24);
    xtw_u64(&h, UINT64_MAX);
    log = drv_check_all(&xtrace_insn_target, NULL, h.buf, h.len);
    assert_end(log, "end E_LIMIT @0 SYSCALL_VEC: iovec count 18446744073709551615 exceeds "
                    "max_iov (1024)\n");
    free(log);
    xtw_free(&h);
    xtw_free(&w);
}
END_TEST

static int abort_cb(void *u, const tracerd_xtrace_insn_t *x)
{
    (void)x;
    int *n = u;
    return ++*n == 3 ? -42 : 0;
}

START_TEST(test_insn_callback_abort_and_api)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x1000, 1);
    for (int i = 0; i < 5; i++)
        xtw_inst(&w, 0, 2);
    tracerd_xtrace_insn_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_insn = abort_cb;
    int n = 0;
    tracerd_xtrace_insn_reader_t *r;
    ck_assert_int_eq(tracerd_xtrace_insn_new(NULL, &cb, &n, NULL, &r), TRACERD_OK);
    size_t used;
    ck_assert_int_eq(tracerd_xtrace_insn_feed(r, w.buf, w.len, &used), TRACERD_E_CALLBACK);
    ck_assert_int_eq(tracerd_xtrace_insn_callback_error(r), -42);
    ck_assert_uint_eq(tracerd_xtrace_insn_record_offset(r), 18);
    ck_assert_str_eq(tracerd_xtrace_insn_error_reason(r), "on_insn callback returned -42");
    /* Sticky until reset. */
    ck_assert_int_eq(tracerd_xtrace_insn_feed(r, w.buf, 1, &used), TRACERD_E_CALLBACK);
    ck_assert_int_eq(tracerd_xtrace_insn_finish(r), TRACERD_E_CALLBACK);
    tracerd_xtrace_insn_reset(r);
    n = -100;
    ck_assert_int_eq(tracerd_xtrace_insn_feed(r, w.buf, w.len, &used), TRACERD_OK);
    ck_assert_uint_eq(used, w.len);
    ck_assert_uint_eq(tracerd_xtrace_insn_count(r), 6);
    ck_assert_uint_eq(tracerd_xtrace_insn_offset(r), w.len);
    ck_assert_int_eq(tracerd_xtrace_insn_finish(r), TRACERD_OK);
    ck_assert_int_eq(tracerd_xtrace_insn_resume(r), TRACERD_E_INVALID);
    tracerd_xtrace_insn_free(r);
    /* Bad options. */
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.time_payload_bytes = 0;
    ck_assert_int_eq(tracerd_xtrace_insn_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    tracerd_xtrace_insn_config_init(&c);
    c.stitch_bytes = 100;
    ck_assert_int_eq(tracerd_xtrace_insn_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    tracerd_xtrace_insn_config_init(&c);
    c.max_mem_log2 = 16;
    ck_assert_int_eq(tracerd_xtrace_insn_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    ck_assert_ptr_null(r);
    ck_assert_uint_ge(tracerd_xtrace_insn_memory_bound(NULL), 4096);
    /* NULL callbacks: a validator. */
    ck_assert_int_eq(tracerd_xtrace_insn_new(NULL, NULL, NULL, NULL, &r), TRACERD_OK);
    ck_assert_int_eq(tracerd_xtrace_insn_feed(r, w.buf, w.len, &used), TRACERD_OK);
    ck_assert_int_eq(tracerd_xtrace_insn_finish(r), TRACERD_OK);
    ck_assert_uint_eq(tracerd_xtrace_insn_count(r), 6);
    tracerd_xtrace_insn_free(r);
    xtw_free(&w);
}
END_TEST

/* A profile is data: move PCINST to 0x05 and INST to 0x06. */
START_TEST(test_insn_custom_profile)
{
    tracerd_xtrace_profile_t p;
    tracerd_xtrace_profile_default(&p);
    p.token[0x05].kind = TRACERD_XTRACE_TOK_PCINST;
    p.token[0x05].el = 2;
    p.token[0x06].kind = TRACERD_XTRACE_TOK_INST;
    p.token[0x01].kind = TRACERD_XTRACE_TOK_INVALID;
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    c.profile = &p;
    static const uint8_t d[] = {0x05, 0,    0x20, 0,    0, 0, 0, 0, 0,   0x78,
                                0x56, 0x34, 0x12, 0x06, 1, 0, 0, 0, 0x01};
    char *log = drv_check_all(&xtrace_insn_target, &c, d, sizeof d);
    ck_assert_str_eq(log, "insn @0 #0 pc=0x2000 op=0x12345678 el=2 explicit\n"
                          "insn @13 #1 pc=0x2004 op=0x00000001 el=0\n"
                          "end E_BAD_TOKEN @18 token 0x01: INST sub-type 0 (bits [7:3]) is not "
                          "assigned\n");
    free(log);
    /* Undescribed MISC sub-types 0 and 2 declared opaque with known sizes. */
    tracerd_xtrace_profile_default(&p);
    p.token[0x04].kind = TRACERD_XTRACE_TOK_OPAQUE;
    p.token[0x04].payload_bytes = 8;
    p.token[0x14].kind = TRACERD_XTRACE_TOK_OPAQUE;
    p.token[0x14].payload_bytes = 0;
    static const uint8_t d2[] = {0x09, 0, 0x20, 0, 0, 0, 0, 0, 0,    1,    0, 0, 0, 0x04,
                                 1,    2, 3,    4, 5, 6, 7, 8, 0x14, 0x01, 2, 0, 0, 0};
    log = drv_check_all(&xtrace_insn_target, &c, d2, sizeof d2);
    ck_assert_str_eq(log, "insn @0 #0 pc=0x2000 op=0x00000001 el=0 explicit\n"
                          "opaque @13 n=1 token=0x04 payload=0102030405060708\n"
                          "opaque @22 n=1 token=0x14 payload=\n"
                          "insn @23 #1 pc=0x2004 op=0x00000002 el=0\nend OK\n");
    free(log);
    p.token[0x14].payload_bytes = 257;
    tracerd_xtrace_insn_reader_t *r;
    ck_assert_int_eq(tracerd_xtrace_insn_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
}
END_TEST

/* ---- file names ----------------------------------------------------------- */

START_TEST(test_filename)
{
    tracerd_xtrace_filename_t f;
    ck_assert_int_eq(
        tracerd_xtrace_parse_filename("/data/run/xtrace.1718000000.4242.hint9.xinsndata.bin", &f),
        TRACERD_OK);
    ck_assert_uint_eq(f.timestamp, 1718000000u);
    ck_assert_uint_eq(f.timestamp_pos, 17);
    ck_assert_uint_eq(f.timestamp_len, 10);
    ck_assert_uint_eq(f.id, 4242);
    ck_assert_uint_eq(f.hint, 9);
    ck_assert_int_eq(f.kind, TRACERD_XTRACE_FILE_INSNDATA);
    ck_assert_int_eq(tracerd_xtrace_parse_filename("xtrace.20250610.3.hint13.xsnapshot.bin", &f),
                     TRACERD_OK);
    ck_assert_uint_eq(f.hint, 13);
    ck_assert_uint_eq(f.id, 3);
    ck_assert_int_eq(f.kind, TRACERD_XTRACE_FILE_SNAPSHOT);
    static const char *const bad[] = {
        "xtrace.1.2.hint10.xsnapshot.bin",
        "xtrace.1.2.hint9.xsnapshot.bin.gz",
        "xtrace..2.hint9.xsnapshot.bin",
        "xtrace.1.x.hint9.xinsndata.bin",
        "trace.1.2.hint9.xinsndata.bin",
        "xtrace.1.2.hint9.xdata.bin",
        "xtrace.1.2.hint09.xinsndata.bin",
        "xtrace.99999999999999999999.2.hint9.xinsndata.bin",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(tracerd_xtrace_parse_filename(bad[i], &f), TRACERD_E_INVALID);
        ck_assert_int_eq(f.kind, TRACERD_XTRACE_FILE_UNKNOWN);
    }
    ck_assert_int_eq(tracerd_xtrace_parse_filename(NULL, &f), TRACERD_E_INVALID);
}
END_TEST

/* ---- snapshots ------------------------------------------------------------ */

static void snap_opts(xtw_snap_opts_t *o, int h, unsigned vl, bool per_reg, bool za, bool fixed,
                      bool big, unsigned n)
{
    memset(o, 0, sizeof *o);
    o->header_bytes = h;
    o->vl_bits = vl;
    o->p_per_reg = per_reg;
    o->za = za;
    o->fixed_max = fixed;
    o->big = big;
    o->nsnap = n;
    o->start_user = 3000000;
    o->ident = 0x58545243;
}

/* The sizes table of specs/xtrace-notes.md §3.4. */
START_TEST(test_snap_sizes_table)
{
    static const struct {
        unsigned vl;
        size_t sz[4];
    } t[] = {{128, {1200, 1424, 944, 1168}},
             {256, {2512, 2704, 1488, 1680}},
             {512, {6672, 6800, 2576, 2704}},
             {1024, {21136, 21136, 4752, 4752}},
             {2048, {74656, 74656, 9120, 9120}}};
    for (size_t i = 0; i < 5; i++)
        for (unsigned j = 0; j < 4; j++) {
            xtw_snap_opts_t o;
            snap_opts(&o, 24, t[i].vl, j & 1, j < 2, false, false, 1);
            ck_assert_uint_eq(xtw_snap_record_bytes(&o), t[i].sz[j]);
            tracerd_xtrace_snap_layout_t l;
            memset(&l, 0, sizeof l);
            l.header_bytes = 24;
            l.vector_length_bits = t[i].vl;
            l.p_layout = (j & 1) ? TRACERD_XTRACE_P_PER_REG : TRACERD_XTRACE_P_BLOCK;
            l.za_present = j < 2;
            ck_assert_int_eq(tracerd_xtrace_snap_layout_compute(&l), TRACERD_OK);
            ck_assert_uint_eq(l.record_bytes, t[i].sz[j]);
        }
    ck_assert_uint_eq(TRACERD_XTRACE_SNAP_MAX_RECORD, 74656);
}
END_TEST

/* Every interpretation, every VL: auto-detection recovers what the writer used. */
START_TEST(test_snap_matrix_detect)
{
    static const int hs[4] = {0, 19, 24, 32};
    unsigned files = 0;
    for (unsigned vl = 128; vl <= 2048; vl += 128)
        for (unsigned hi = 0; hi < 4; hi++)
            for (unsigned m = 0; m < 16; m++) {
                bool per_reg = m & 1, za = m & 2, fixed = m & 4, big = m & 8;
                if (fixed && (vl == 2048 || hi != 2))
                    continue; /* fixed-max: one header size keeps the matrix fast */
                xtw_snap_opts_t o;
                snap_opts(&o, hs[hi], vl, per_reg, za, fixed, big, 3);
                xtw_t w;
                xtw_init(&w);
                xtw_snapshot_file(&w, &o);
                char *log = run_once(&xtrace_snap_target, NULL, w.buf, w.len);
                char want[200];
                bool same_p = fixed || vl % 1024 == 0; /* block == per-reg: the first is reported */
                snprintf(want, sizeof want,
                         "layout %s header=%d vl=%u svl=%u storage=%u p=%d za=%d "
                         "fixed=%d record=%zu ",
                         big ? "big" : "little", hs[hi], vl, vl, fixed ? 2048u : vl,
                         same_p    ? 1
                         : per_reg ? 2
                                   : 1,
                         za, fixed, xtw_snap_record_bytes(&o));
                ck_assert_msg(strncmp(log, want, strlen(want)) == 0, "want %s\ngot %.300s", want,
                              log);
                assert_has(log, "snapshot_end");
                assert_end(log, "end OK\n");
                /* The last snapshot's registers were delivered. */
                char last[64];
                snprintf(last, sizeof last, "#2 fpcr=0x200 ");
                assert_has(log, last);
                free(log);
                xtw_free(&w);
                files++;
            }
    ck_assert_uint_eq(files, 632);
}
END_TEST

/* Register contents and every field, with the invariance loops, both byte orders. */
START_TEST(test_snap_fields)
{
    for (int big = 0; big < 2; big++) {
        xtw_snap_opts_t o;
        snap_opts(&o, 24, 128, false, true, false, big, 2);
        xtw_t w;
        xtw_init(&w);
        xtw_snapshot_file(&w, &o);
        /* Chunking does not depend on byte order: the invariance loops run once. */
        char *log = big ? run_once(&xtrace_snap_target, NULL, w.buf, w.len)
                        : drv_check_all(&xtrace_snap_target, NULL, w.buf, w.len);
        drv_golden(big ? "xtrace/snap128_be.gold" : "xtrace/snap128_le.gold", log);
        assert_has(log, "header bytes=24 ident=0x58545243 point=7 version=2 split=0 stream=1 "
                        "memorder=1 pad=0000000000\n");
        assert_has(log, "snapshot @24 #0 file=1 index=0 user=3000000 total=6000005 x0=0x0 x1=0x1 "
                        "x31=0x1f\n");
        assert_has(log, "snapshot @1224 #1 file=1 index=4096 user=4000000 total=8000005 "
                        "x0=0x100000000 x1=0x100000001 x31=0x10000001f\n");
        assert_has(log, "snapshot_end @1224 #1 fpcr=0x100 fpsr=0x101 nzcv=0x102 tpidr_el0=0x103 "
                        "tpidrro_el0=0x104 ttbr0_el1=0x105 elr_el1=0x106 spsr_el1=0x107 "
                        "esr_el1=0x108 tpidr_el1=0x109 daif=0x10a vl=128\n");
        assert_has(log, "frag z[31] @24 total=16 ");
        assert_has(log, "frag p[15] @24 total=2 ");
        assert_has(log, "frag ffr[0] @24 total=2 ");
        assert_has(log, "frag za[0] @24 total=256 ");
        assert_end(log, "end OK\n");
        free(log);
        xtw_free(&w);
    }
}
END_TEST

/* Register bytes are exactly the writer's (not only their hash). */
static int check_reg(void *u, const tracerd_span_t *s)
{
    unsigned *bad = u;
    unsigned f = s->field;
    for (size_t j = 0; j < s->len; j++) {
        uint64_t pos = s->offset + j;
        uint8_t want = (uint8_t)(0 * 7 + f * 31 + s->index * 3 + pos);
        if (s->data[j] != want)
            (*bad)++;
    }
    return 0;
}

START_TEST(test_snap_register_bytes)
{
    for (unsigned vl = 128; vl <= 2048; vl *= 2) {
        xtw_snap_opts_t o;
        snap_opts(&o, 32, vl, true, true, false, false, 1);
        xtw_t w;
        xtw_init(&w);
        xtw_snapshot_file(&w, &o);
        tracerd_xtrace_snap_config_t c;
        tracerd_xtrace_snap_config_init(&c);
        c.header_bytes = 32;
        tracerd_xtrace_snap_callbacks_t cb;
        memset(&cb, 0, sizeof cb);
        cb.on_register = check_reg;
        unsigned bad = 0;
        tracerd_xtrace_snap_reader_t *r;
        ck_assert_int_eq(tracerd_xtrace_snap_new(&c, &cb, &bad, NULL, &r), TRACERD_OK);
        size_t used;
        for (size_t i = 0; i < w.len; i += 1000) {
            size_t n = w.len - i < 1000 ? w.len - i : 1000;
            ck_assert_int_eq(tracerd_xtrace_snap_feed(r, w.buf + i, n, &used), TRACERD_OK);
        }
        ck_assert_int_eq(tracerd_xtrace_snap_finish(r), TRACERD_OK);
        ck_assert_uint_eq(bad, 0);
        tracerd_xtrace_snap_layout_t l;
        ck_assert(tracerd_xtrace_snap_layout(r, &l));
        ck_assert_uint_eq(l.vector_length_bits, vl);
        ck_assert_int_eq(l.p_layout,
                         vl % 1024 == 0 ? TRACERD_XTRACE_P_BLOCK : TRACERD_XTRACE_P_PER_REG);
        tracerd_xtrace_snap_free(r);
        xtw_free(&w);
    }
}
END_TEST

START_TEST(test_snap_configured)
{
    xtw_snap_opts_t o;
    snap_opts(&o, 19, 512, true, false, false, false, 2);
    xtw_t w;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    tracerd_xtrace_snap_config_t c;
    tracerd_xtrace_snap_config_init(&c);
    c.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    c.header_bytes = 19;
    c.vector_length_bits = 512;
    c.p_layout = TRACERD_XTRACE_P_PER_REG;
    c.za = TRACERD_XTRACE_NO;
    c.fixed_max = TRACERD_XTRACE_NO;
    ck_assert_uint_lt(tracerd_xtrace_snap_memory_bound(&c), 4096);
    char *log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len);
    assert_has(log, "layout little header=19 vl=512 svl=512 storage=512 p=2 za=0 fixed=0 "
                    "record=2704 z=288 p=2336 ffr=2592 za=2608 sys=2608 detected=0 checked=0\n");
    assert_has(log, "snapshot @2723 #1 ");
    assert_end(log, "end OK\n");
    free(log);
    /* A wrong configured VL: the trailing field disagrees. */
    c.vector_length_bits = 256;
    c.za = TRACERD_XTRACE_YES; /* 256 per-reg with ZA is 2704 bytes too */
    log = run_once(&xtrace_snap_target, &c, w.buf, w.len);
    assert_end(log, "end E_LAYOUT @19 snapshot 0: trailing vector length 512 disagrees with the "
                    "256-bit layout\n");
    free(log);
    xtw_free(&w);
}
END_TEST

START_TEST(test_snap_ambiguous_and_layout_errors)
{
    /* One snapshot: header 0 / block / ZA (1200 bytes) reads equally as
     * header 32 / per-reg / no ZA (1168 bytes). */
    xtw_snap_opts_t o;
    snap_opts(&o, 0, 128, false, true, false, false, 1);
    xtw_t w;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    char *log = drv_check_all(&xtrace_snap_target, NULL, w.buf, w.len);
    assert_end(log, "end E_AMBIGUOUS @0 snapshot file: 2 layouts fit, e.g. header 32/VL 128/P "
                    "per-reg/no ZA/LE (1168 B) and header 0/VL 128/P block/ZA/LE (1200 B); "
                    "configure the layout\n");
    free(log);
    tracerd_xtrace_snap_config_t c;
    tracerd_xtrace_snap_config_init(&c);
    c.header_bytes = 0;
    log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len);
    assert_has(log, "layout little header=0 vl=128 ");
    assert_end(log, "end OK\n");
    free(log);
    xtw_free(&w);

    /* Corrupt trailing VL of the second record: inconsistent during detection. */
    snap_opts(&o, 24, 128, false, true, false, false, 3);
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    size_t S = xtw_snap_record_bytes(&o);
    w.buf[24 + 2 * S - 8] = 0x81; /* 128 -> 129 */
    log = drv_check_all(&xtrace_snap_target, NULL, w.buf, w.len);
    assert_end(log, "end E_LAYOUT @0 snapshot file: no layout fits the first 3624 bytes "
                    "(trailing vector length, user <= total, +1000000 instructions per "
                    "snapshot)\n");
    free(log);
    /* The same with one-record detection: found later, at the record. */
    tracerd_xtrace_snap_config_init(&c);
    c.detect_records = 1;
    c.header_bytes = 24;
    log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len);
    assert_end(log, "end E_LAYOUT @1224 snapshot 1: trailing vector length 129 disagrees with the "
                    "128-bit layout\n");
    free(log);
    xtw_free(&w);

    /* Counters that do not advance by a million. */
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    w.buf[24 + 2 * S + 16] ^= 0x10;
    log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len);
    assert_end(log,
               "end E_LAYOUT @2424 snapshot 2: counts (user 5000016, total 10000005) do not "
               "advance by 1000000 from the previous snapshot (user 4000000, total 8000005)\n");
    free(log);
    c.check_advance = false;
    log = run_once(&xtrace_snap_target, &c, w.buf, w.len);
    assert_end(log, "end OK\n");
    free(log);
    /* user > total */
    tracerd_xtrace_snap_config_init(&c);
    c.header_bytes = 24;
    c.detect_records = 1;
    w.buf[24 + S + 31] = 0; /* total of record 1 */
    w.buf[24 + S + 24] = 0;
    w.buf[24 + S + 25] = 0;
    w.buf[24 + S + 26] = 0;
    w.buf[24 + S + 27] = 0;
    log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len);
    assert_end(log, "end E_BAD_RECORD @1224 snapshot 1: user instruction count 4000000 exceeds "
                    "the total 0\n");
    free(log);
    xtw_free(&w);
}
END_TEST

START_TEST(test_snap_truncated_and_misc)
{
    xtw_snap_opts_t o;
    snap_opts(&o, 24, 128, false, true, false, false, 3);
    xtw_t w;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    tracerd_xtrace_snap_config_t c;
    tracerd_xtrace_snap_config_init(&c);
    c.header_bytes = 24;
    c.vector_length_bits = 128;
    c.p_layout = TRACERD_XTRACE_P_BLOCK;
    c.za = TRACERD_XTRACE_YES;
    char *log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len - 100);
    assert_end(log, "end E_TRUNCATED @2424 input ended inside snapshot 2 (1200 bytes, 1100 "
                    "present)\n");
    free(log);
    log = drv_check_all(&xtrace_snap_target, &c, w.buf, 10);
    assert_end(log, "end E_TRUNCATED @0 input ended inside the snapshot header (24 bytes, 10 "
                    "present)\n");
    free(log);
    c.allow_truncated_tail = true;
    log = run_once(&xtrace_snap_target, &c, w.buf, w.len - 100);
    assert_has(log, "warning E_TRUNCATED @2424 skipped=1100 input ended inside snapshot 2 (1200 "
                    "bytes, 1100 present) (ignored)\nend OK\n");
    free(log);
    /* Empty input: nothing, OK. */
    log = drv_check_all(&xtrace_snap_target, NULL, w.buf, 0);
    ck_assert_str_eq(log, "end OK\n");
    free(log);
    /* Header only. */
    log = drv_check_all(&xtrace_snap_target, NULL, w.buf, 24);
    assert_has(log, "header bytes=24 ");
    assert_end(log, "end OK\n");
    free(log);
    /* Identifier check. */
    tracerd_xtrace_snap_config_init(&c);
    c.expect_ident = 0x12345678;
    c.header_bytes = 24;
    c.vector_length_bits = 128;
    c.p_layout = TRACERD_XTRACE_P_BLOCK;
    c.za = TRACERD_XTRACE_YES;
    c.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    c.fixed_max = TRACERD_XTRACE_NO;
    log = run_once(&xtrace_snap_target, &c, w.buf, w.len);
    assert_end(log, "end E_MAGIC @0 snapshot header: identifier 0x58545243 is not the expected "
                    "0x12345678\n");
    free(log);
    /* Bad options. */
    tracerd_xtrace_snap_reader_t *r;
    tracerd_xtrace_snap_config_init(&c);
    c.vector_length_bits = 100;
    ck_assert_int_eq(tracerd_xtrace_snap_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    tracerd_xtrace_snap_config_init(&c);
    c.header_bytes = 20;
    ck_assert_int_eq(tracerd_xtrace_snap_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    tracerd_xtrace_snap_config_init(&c);
    c.detect_records = 9;
    ck_assert_int_eq(tracerd_xtrace_snap_new(&c, NULL, NULL, NULL, &r), TRACERD_E_INVALID);
    ck_assert_uint_eq(tracerd_xtrace_snap_memory_bound(NULL) > 2 * 74656, 1);
    xtw_free(&w);
}
END_TEST

/* Fixed-max layout and a distinct streaming VL. */
START_TEST(test_snap_fixed_and_svl)
{
    xtw_snap_opts_t o;
    snap_opts(&o, 24, 256, false, true, true, false, 2);
    xtw_t w;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    char *log = run_once(&xtrace_snap_target, NULL, w.buf, w.len);
    assert_has(log, "layout little header=24 vl=256 svl=256 storage=2048 p=1 za=1 fixed=1 "
                    "record=74656 ");
    assert_has(log, "frag z[0] @24 total=32 ");
    assert_has(log, "frag za[0] @24 total=65536 ");
    assert_end(log, "end OK\n");
    free(log);
    xtw_free(&w);
    snap_opts(&o, 24, 256, false, true, false, false, 2);
    o.svl_bits = 128;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    tracerd_xtrace_snap_config_t c;
    tracerd_xtrace_snap_config_init(&c);
    c.streaming_vector_length_bits = 128;
    log = drv_check_all(&xtrace_snap_target, &c, w.buf, w.len);
    assert_has(log, "layout little header=24 vl=256 svl=128 storage=256 ");
    assert_has(log, "frag za[0] @24 total=256 ");
    assert_end(log, "end OK\n");
    free(log);
    xtw_free(&w);
}
END_TEST

/* ---- committed fixtures: demo files and fuzz seeds ------------------------ */

/* The demo stream: a few basic blocks of a typical mix, then every token. */
static void demo_stream(xtw_t *w)
{
    uint64_t pc = 0x400000;
    for (unsigned bb = 0; bb < 8; bb++) {
        xtw_pcinst(w, 0, pc, 0xa9bf7bfd);
        for (unsigned i = 1; i < 6; i++) {
            xtw_inst(w, 0, 0xf9400000u + i);
            if (i % 3 == 0)
                xtw_mem(w, i & 1, 3, 0x7fffff00 + 8 * bb, NULL);
        }
        pc += 0x40 + 0x100 * bb;
    }
    all_tokens(w, 8, 0);
}

static void demo_snap(xtw_t *w)
{
    xtw_snap_opts_t o;
    snap_opts(&o, 24, 128, false, true, false, false, 3);
    xtw_snapshot_file(w, &o);
}

/* Writes (TRACERD_XTRACE_WRITE_FIXTURES=1) or checks a committed file. */
static void fixture(const char *path, const uint8_t *d, size_t n)
{
    const char *upd = getenv("TRACERD_XTRACE_WRITE_FIXTURES");
    if (upd != NULL && strcmp(upd, "1") == 0) {
        FILE *f = fopen(path, "wb");
        ck_assert_msg(f != NULL, "cannot write %s", path);
        ck_assert_uint_eq(fwrite(d, 1, n, f), n);
        fclose(f);
        return;
    }
    size_t len;
    uint8_t *got = drv_read_file(path, &len);
    ck_assert_msg(got != NULL, "%s missing (TRACERD_XTRACE_WRITE_FIXTURES=1 writes it)", path);
    ck_assert_msg(len == n && memcmp(got, d, n) == 0, "%s differs from the writer's output", path);
    free(got);
}

/* Fuzz seed: option byte(s), the file, a chunking seed. */
static void seed(const char *path, const uint8_t *opt, size_t nopt, const uint8_t *d, size_t n,
                 uint8_t chunk_seed)
{
    uint8_t *b = malloc(nopt + n + 1);
    ck_assert_ptr_nonnull(b);
    memcpy(b, opt, nopt);
    memcpy(b + nopt, d, n);
    b[nopt + n] = chunk_seed;
    fixture(path, b, nopt + n + 1);
    free(b);
}

START_TEST(test_fixtures)
{
    xtw_t w;
    xtw_init(&w);
    demo_stream(&w);
    fixture("tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin", w.buf, w.len);
    char *log = drv_check_all(&xtrace_insn_target, NULL, w.buf, w.len);
    assert_end(log, "end OK\n");
    free(log);
    static const uint8_t o0[1] = {0x00}, o1[1] = {0x47}, o2[1] = {0x18};
    seed("fuzz/corpus/xtrace_insn/demo", o0, 1, w.buf, w.len, 7);
    seed("fuzz/corpus/xtrace_insn/demo-small-stitch", o1, 1, w.buf, w.len, 40);
    xtw_free(&w);
    xtw_init(&w);
    all_tokens(&w, 4, 1);
    xtw_fill(&w, 0, 9);
    seed("fuzz/corpus/xtrace_insn/grouped-time4-padding", o2, 1, w.buf, w.len, 33);
    xtw_free(&w);
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x1000, 1);
    xtw_mem(&w, false, 10, 0x5000, NULL);
    static const uint8_t o3[1] = {0xc0};
    seed("fuzz/corpus/xtrace_insn/big-mem", o3, 1, w.buf, w.len, 50);
    xtw_free(&w);

    xtw_init(&w);
    demo_snap(&w);
    fixture("tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xsnapshot.bin", w.buf, w.len);
    static const uint8_t s0[2] = {0, 0}, s1[2] = {0x0e, 0x00};
    seed("fuzz/corpus/xtrace_snap/demo", s0, 2, w.buf, w.len, 9);
    seed("fuzz/corpus/xtrace_snap/demo-header24-vl128", s1, 2, w.buf, w.len, 45);
    xtw_free(&w);
    xtw_snap_opts_t o;
    snap_opts(&o, 0, 256, true, false, false, true, 2);
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    seed("fuzz/corpus/xtrace_snap/be-noheader-vl256", s0, 2, w.buf, w.len, 60);
    xtw_free(&w);
}
END_TEST

/* The CLI reads both demo files (when the test runs under make check). */
/* tracerd info's PC line: the range from sequences of PCs that rise by 4
 * (one passing 2^64 from an initial PC), a first PC that is not explicit,
 * the greatest PC in a sequence before the last. */
static void cli_pc_line(const char *cli, const xtw_t *w, const char *env, const char *want)
{
    char tmp[128], cmd[1024], line[512];
    snprintf(tmp, sizeof tmp, "/tmp/tracerd-xtrace-pc-%ld.xinsndata.bin", (long)getpid());
    FILE *f = fopen(tmp, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(w->buf, 1, w->len, f), w->len);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s %s --format xtrace info %s", env, cli, tmp);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    bool found = false;
    while (fgets(line, sizeof line, p) != NULL)
        if (strncmp(line, "pc:", 3) == 0) {
            ck_assert_str_eq(line, want);
            found = true;
        }
    ck_assert_int_eq(pclose(p), 0);
    ck_assert(found);
    unlink(tmp);
}

START_TEST(test_cli_pc_range)
{
    const char *cli = getenv("TRACERD_CLI");
    if (cli == NULL)
        return;
    xtw_t w;
    xtw_init(&w);
    for (int i = 0; i < 5; i++) /* ...f6 .. ...fe, 0x2, 0x6 */
        xtw_inst(&w, 0, (uint32_t)i);
    xtw_pcinst(&w, 1, 0x5000, 9);
    xtw_inst(&w, 1, 1);
    xtw_pcinst(&w, 0, 0x100, 9);
    xtw_inst(&w, 0, 1);
    xtw_inst(&w, 2, 1);
    cli_pc_line(cli, &w, "TRACERD_XTRACE=pc=0xfffffffffffffff6",
                "pc:          first 0xfffffffffffffff6, last 0x108, range "
                "0x2..0xfffffffffffffffe\n");
    xtw_free(&w);
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 9);
    for (int i = 0; i < 3; i++)
        xtw_inst(&w, 0, (uint32_t)i);
    xtw_pcinst(&w, 0, 0x100, 9);
    xtw_inst(&w, 0, 1);
    cli_pc_line(cli, &w, "", "pc:          first 0x400000, last 0x104, range 0x100..0x40000c\n");
    xtw_free(&w);
}
END_TEST

START_TEST(test_cli)
{
    const char *cli = getenv("TRACERD_CLI");
    if (cli == NULL)
        return;
    char cmd[1024];
    static const char *const files[] = {
        "tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xinsndata.bin",
        "tests/data/xtrace/demo-xtrace.1718000000.4242.hint9.xsnapshot.bin"};
    static const char *const gold[] = {"xtrace/cli-insn.dump.gold", "xtrace/cli-snap.dump.gold",
                                       "xtrace/cli-insn.info.gold", "xtrace/cli-snap.info.gold"};
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s %s %s", cli, i < 2 ? "dump" : "info", files[i % 2]);
        FILE *p = popen(cmd, "r");
        ck_assert_ptr_nonnull(p);
        tlog_t out = {0};
        char line[4096];
        while (fgets(line, sizeof line, p) != NULL)
            tlog_printf(&out, "%s", line);
        ck_assert_int_eq(pclose(p), 0);
        char *text = tlog_take(&out);
        drv_golden(gold[i], text);
        free(text);
    }
    /* Options from the environment settle an ambiguous snapshot file. */
    xtw_snap_opts_t o;
    snap_opts(&o, 0, 128, false, true, false, false, 1);
    xtw_t w;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "/tmp/tracerd-xtrace-ambiguous-%ld.xsnapshot.bin", (long)getpid());
    FILE *f = fopen(tmp, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(w.buf, 1, w.len, f), w.len);
    fclose(f);
    xtw_free(&w);
    snprintf(cmd, sizeof cmd, "%s info %s > /dev/null 2>&1", cli, tmp);
    ck_assert_int_ne(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "TRACERD_XTRACE=header=0 %s info %s > /dev/null", cli, tmp);
    ck_assert_int_eq(system(cmd), 0);
    remove(tmp);
}
END_TEST

/* Issue 12: a snapshot file whose identifier is 1 starts like an XRay basic
 * log (version 1, type 0). One detector per format, deep enough to tell: the
 * XRay header check fails on the snapshot header's version field read as the
 * cycle frequency (2 Hz), the xtrace check passes on the first record, and
 * the event view and the CLI (whatever the file's name) agree. */
START_TEST(test_detect_snapshot_not_xray)
{
    static const int headers[3] = {24, 32, 19};
    for (int i = 0; i < 3; i++) {
        xtw_snap_opts_t o;
        snap_opts(&o, headers[i], 128, false, true, false, false, 2);
        o.ident = 1;
        xtw_t w;
        xtw_init(&w);
        xtw_snapshot_file(&w, &o);
        ck_assert_int_eq(tracerd_xray_detect(w.buf, 64), 0);
        ck_assert_int_eq(tracerd_xray_detect(w.buf, w.len), 0);
        ck_assert_int_eq(tracerd_xtrace_detect(w.buf, w.len), 85);
        ck_assert_int_eq(tracerd_xtrace_detect(w.buf, 64), 0); /* no whole record yet */
        int score = -1;
        ck_assert_int_ne(tracerd_event_detect(w.buf, 64, &score), TRACERD_EVENT_FORMAT_XRAY);
        ck_assert_int_eq(score, 0);
        const char *cli = getenv("TRACERD_CLI");
        if (cli != NULL) {
            char tmp[128], cmd[512];
            snprintf(tmp, sizeof tmp, "/tmp/tracerd-snap-ident1-%ld.bin", (long)getpid());
            FILE *f = fopen(tmp, "wb");
            ck_assert_ptr_nonnull(f);
            ck_assert_uint_eq(fwrite(w.buf, 1, w.len, f), w.len);
            fclose(f);
            snprintf(cmd, sizeof cmd, "%s info %s 2>&1", cli, tmp);
            FILE *p = popen(cmd, "r");
            ck_assert_ptr_nonnull(p);
            char line[512];
            bool xtrace = false, xray = false;
            while (fgets(line, sizeof line, p) != NULL) {
                xtrace |= strstr(line, "xtrace") != NULL;
                xray |= strstr(line, "xray") != NULL;
            }
            ck_assert_int_eq(pclose(p), 0);
            ck_assert(xtrace && !xray);
            remove(tmp);
        }
        xtw_free(&w);
    }
    /* The same detectors still know real XRay basic logs and the other formats. */
    static const uint8_t basic[64] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0x94, 0x35, 0x77};
    ck_assert_int_eq(tracerd_xray_detect(basic, 64), 80);
    ck_assert_int_eq(tracerd_xtrace_detect(basic, 64), 0);
    uint8_t bad[64];
    memcpy(bad, basic, sizeof bad);
    bad[35] = 4; /* kind 4 is not defined */
    ck_assert_int_eq(tracerd_xray_detect(bad, 64), 0);
    static const uint8_t fxt[8] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    ck_assert_int_eq(tracerd_fxt_detect(fxt, 8), 100);
    ck_assert_int_eq(tracerd_xray_detect(fxt, 8), 0);
    static const uint8_t ctf[4] = {0xc1, 0x1f, 0xfc, 0xc1};
    ck_assert_int_eq(tracerd_ctf_detect(ctf, 4), 100);
    ck_assert_int_eq(tracerd_fxt_detect(ctf, 4), 0);
}
END_TEST

/* Callback errors and re-entrancy in the snapshot reader. */
typedef struct snapctx {
    tracerd_xtrace_snap_reader_t *r;
    int regs;
    tracerd_status_t inner;
    uint64_t off_in_cb;
} snapctx_t;

static int abort_reg(void *u, const tracerd_span_t *s)
{
    snapctx_t *c = u;
    (void)s;
    if (++c->regs == 1) {
        size_t used;
        c->inner = tracerd_xtrace_snap_feed(c->r, "x", 1, &used); /* not allowed */
        c->off_in_cb = tracerd_xtrace_snap_offset(c->r);
    }
    return c->regs == 40 ? -9 : 0;
}

START_TEST(test_snap_callback_abort)
{
    xtw_snap_opts_t o;
    snap_opts(&o, 24, 128, false, true, false, false, 2);
    xtw_t w;
    xtw_init(&w);
    xtw_snapshot_file(&w, &o);
    tracerd_xtrace_snap_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_register = abort_reg;
    snapctx_t c;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(tracerd_xtrace_snap_new(NULL, &cb, &c, NULL, &c.r), TRACERD_OK);
    size_t used;
    ck_assert_int_eq(tracerd_xtrace_snap_feed(c.r, w.buf, w.len, &used), TRACERD_OK);
    ck_assert_int_eq(tracerd_xtrace_snap_finish(c.r), TRACERD_E_CALLBACK);
    ck_assert_int_eq(c.inner, TRACERD_E_INVALID);
    ck_assert_uint_eq(c.off_in_cb, 24 + 288 + 16); /* just after Z0 */
    ck_assert_int_eq(tracerd_xtrace_snap_callback_error(c.r), -9);
    ck_assert_uint_eq(tracerd_xtrace_snap_record_offset(c.r), 24);
    ck_assert_str_eq(tracerd_xtrace_snap_error_reason(c.r), "on_register callback returned -9");
    tracerd_xtrace_snap_layout_t l;
    ck_assert(tracerd_xtrace_snap_layout(c.r, &l));
    ck_assert_uint_eq(l.record_bytes, 1200);
    tracerd_xtrace_snap_reset(c.r);
    ck_assert(!tracerd_xtrace_snap_layout(c.r, &l));
    ck_assert_int_eq(tracerd_xtrace_snap_resume(c.r), TRACERD_E_INVALID);
    tracerd_xtrace_snap_free(c.r);
    xtw_free(&w);
}
END_TEST

Suite *suite_xtrace(void)
{
    Suite *s = suite_create("xtrace");
    TCase *tc = tcase_create("insn");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_insn_all_tokens);
    tcase_add_test(tc, test_insn_iov_layouts);
    tcase_add_test(tc, test_insn_iov_auto);
    tcase_add_test(tc, test_insn_time_sizes);
    tcase_add_test(tc, test_insn_big_mem_fragments);
    tcase_add_test(tc, test_insn_initial_pc);
    tcase_add_test(tc, test_insn_bad_tokens);
    tcase_add_test(tc, test_insn_truncated);
    tcase_add_test(tc, test_insn_zero_padding);
    tcase_add_test(tc, test_insn_limits);
    tcase_add_test(tc, test_insn_callback_abort_and_api);
    tcase_add_test(tc, test_insn_custom_profile);
    tcase_add_test(tc, test_filename);
    suite_add_tcase(s, tc);
    TCase *ts = tcase_create("snap");
    tcase_set_timeout(ts, 120);
    tcase_add_test(ts, test_snap_sizes_table);
    tcase_add_test(ts, test_snap_matrix_detect);
    tcase_add_test(ts, test_snap_fields);
    tcase_add_test(ts, test_snap_register_bytes);
    tcase_add_test(ts, test_snap_configured);
    tcase_add_test(ts, test_snap_ambiguous_and_layout_errors);
    tcase_add_test(ts, test_snap_truncated_and_misc);
    tcase_add_test(ts, test_snap_fixed_and_svl);
    tcase_add_test(ts, test_snap_callback_abort);
    tcase_add_test(ts, test_fixtures);
    tcase_add_test(ts, test_cli);
    tcase_add_test(ts, test_cli_pc_range);
    tcase_add_test(ts, test_detect_snapshot_not_xray);
    suite_add_tcase(s, ts);
    return s;
}
