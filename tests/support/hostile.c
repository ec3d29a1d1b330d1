/* Hostile-input generators and the bounded-cost runner (hostile.h). */
#include "support/hostile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "support/driver.h"
#include "support/fxt_writer.h"
#include "support/xray_writer.h"
#include "support/xtrace_writer.h"

void hostile_free(hostile_t *h)
{
    free(h->data);
    free(h->metadata);
    memset(h, 0, sizeof *h);
}

static void take_fxt(hostile_t *h, fxw_t *w)
{
    memset(h, 0, sizeof *h);
    h->data = fxw_take(w, &h->len);
    fxw_free(w);
}

/* ---- FXT ------------------------------------------------------------------ */

void hg_fxt_large_record(hostile_t *h, uint64_t words)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    /* large record (type 15), size in words in bits 4..35, large blob (0) with format 1 */
    fxw_word(&w, 15u | (words & 0xffffffffu) << 4 | (uint64_t)1 << 40);
    fxw_word(&w, 0);
    fxw_word(&w, 4096);
    take_fxt(h, &w);
}

void hg_fxt_string_churn(hostile_t *h, unsigned n)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    static char s[4001];
    for (unsigned i = 0; i < n; i++) {
        /* lengths vary, indices cycle over 64 entries: every record replaces a live string */
        size_t len = 1 + (i * 2654435761u) % 4000;
        memset(s, 'a' + (int)(i % 26), len);
        s[len] = '\0';
        fxw_string(&w, (uint16_t)(1 + i % 64), s);
        if (i % 16 == 0)
            fxw_event(&w, 0, FXT_INL(1, 2), FXS_IDX(1 + i % 64), FXS_IDX(1 + i % 64), i,
                      NULL, 0, 0);
    }
    take_fxt(h, &w);
}

void hg_fxt_thread_churn(hostile_t *h, unsigned n)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    fxw_init_record(&w, 1000000000u);
    fxw_string(&w, 1, "cat");
    fxw_string(&w, 2, "name");
    for (unsigned i = 0; i < n; i++) {
        uint8_t idx = (uint8_t)(1 + i % 255);
        fxw_thread(&w, idx, 1000 + i, 100000 + i); /* a new thread in a reused slot */
        fxw_event(&w, 2, FXT_IDX(idx), FXS_IDX(1), FXS_IDX(2), 2 * (uint64_t)i, NULL, 0, 0);
        fxw_event(&w, 3, FXT_IDX(idx), FXS_IDX(1), FXS_IDX(2), 2 * (uint64_t)i + 1, NULL, 0, 0);
    }
    take_fxt(h, &w);
}

void hg_fxt_providers(hostile_t *h, unsigned n)
{
    fxw_t w;
    fxw_init(&w, false);
    fxw_magic(&w);
    for (unsigned i = 1; i <= n; i++) {
        fxw_provider_info(&w, i, "p");
        fxw_string(&w, 1, "a string in each provider");
    }
    take_fxt(h, &w);
}

/* ---- XRay ----------------------------------------------------------------- */

static void take_xray(hostile_t *h, xw_t *w)
{
    memset(h, 0, sizeof *h);
    h->data = w->buf;
    h->len = w->len;
}

static void xray_start(xw_t *w, int32_t tid, uint16_t cpu)
{
    xw_new_buffer(w, tid);
    xw_walltime(w, 1700000000u, 0);
    xw_pid(w, 4242);
    xw_new_cpu(w, cpu, 1000);
}

void hg_xray_event_size(hostile_t *h, int32_t size)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 3000000000u, 0);
    size_t m = xw_extents(&w, 0);
    xray_start(&w, 1, 0);
    xw_custom(&w, size, 10, 0, "ping", 4);
    xw_end_extents(&w, m);
    take_xray(h, &w);
}

void hg_xray_args(hostile_t *h, unsigned n)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 3000000000u, 0);
    size_t m = xw_extents(&w, 0);
    xray_start(&w, 1, 0);
    xw_func(&w, 3, 1, 10); /* entry with arguments */
    for (unsigned i = 0; i < n; i++)
        xw_arg(&w, i);
    xw_func(&w, 1, 1, 10);
    xw_end_extents(&w, m);
    take_xray(h, &w);
}

void hg_xray_buffer_churn(hostile_t *h, unsigned n)
{
    xw_t w;
    xw_init(&w, false);
    xw_header(&w, 5, 1, 3u, 3000000000u, 0);
    for (unsigned i = 0; i < n; i++) {
        size_t m = xw_extents(&w, 0);
        xray_start(&w, (int32_t)(1000 + i), (uint16_t)i);
        xw_func(&w, 0, 1 + (uint32_t)i % 1000, 5);
        xw_tsc_wrap(&w, (uint64_t)i << 20);
        xw_func(&w, 1, 1 + (uint32_t)i % 1000, 5);
        xw_end_extents(&w, m);
    }
    take_xray(h, &w);
}

/* ---- xtrace ----------------------------------------------------------------- */

static void take_xtrace(hostile_t *h, xtw_t *w)
{
    memset(h, 0, sizeof *h);
    h->data = w->buf;
    h->len = w->len;
    h->format = TRACERD_EVENT_FORMAT_XTRACE;
}

void hg_xtrace_iov_count(hostile_t *h, uint64_t n)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xd4000001u);
    xtw_u8(&w, 4u | 4u << 3); /* SYSCALL_VEC */
    xtw_u64(&w, n);
    for (int i = 0; i < 4; i++) { /* a few iovecs; the rest never comes */
        xtw_u64(&w, 0x1000);
        xtw_u64(&w, 0);
    }
    take_xtrace(h, &w);
}

void hg_xtrace_iov_len(hostile_t *h, uint64_t len)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xd4000001u);
    xtw_u8(&w, 4u | 4u << 3);
    xtw_u64(&w, 1);
    xtw_u64(&w, 0x1000);
    xtw_u64(&w, len);
    xtw_fill(&w, 0x55, 64);
    take_xtrace(h, &w);
}

void hg_xtrace_mem_size(hostile_t *h, unsigned k)
{
    xtw_t w;
    xtw_init(&w);
    xtw_pcinst(&w, 0, 0x400000, 0xf9400000u);
    xtw_u8(&w, (uint8_t)(2u | k << 4)); /* LOAD of 2^k bytes */
    xtw_u64(&w, 0x1000);
    xtw_fill(&w, 0x55, 64);
    take_xtrace(h, &w);
}

/* ---- runner --------------------------------------------------------------- */

static int count_event(void *user, const tracerd_event_t *ev)
{
    (void)ev;
    ++((hostile_result_t *)user)->events;
    return TRACERD_CB_CONTINUE;
}

static long maxrss_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

void hostile_run(const hostile_t *h, const tracerd_auto_config_t *cfg, hostile_result_t *res)
{
    memset(res, 0, sizeof *res);
    long rss0 = maxrss_kib();
    drv_alloc_t fa;
    drv_alloc_init(&fa, 0);
    tracerd_auto_config_t c;
    if (cfg != NULL)
        c = *cfg;
    else
        tracerd_auto_config_init(&c);
    if (h->format != TRACERD_EVENT_FORMAT_UNKNOWN)
        c.format = h->format;
    tracerd_event_callbacks_t cbs = {count_event, NULL, NULL};
    tracerd_auto_reader_t *r = NULL;
    tracerd_status_t st = tracerd_auto_new(&c, &cbs, res, &fa.a, &r);
    if (st == TRACERD_OK && h->metadata != NULL)
        st = tracerd_auto_metadata(r, h->metadata, strlen(h->metadata));
    size_t off = 0;
    while (st == TRACERD_OK && off < h->len) {
        size_t n = h->len - off < 65536 ? h->len - off : 65536, used = 0;
        st = tracerd_auto_feed(r, h->data + off, n, &used);
        off += used;
    }
    if (st == TRACERD_OK)
        st = tracerd_auto_finish(r);
    res->status = st;
    if (r != NULL) {
        res->record_offset = tracerd_auto_record_offset(r);
        snprintf(res->reason, sizeof res->reason, "%s", tracerd_auto_error_reason(r));
    }
    tracerd_auto_free(r);
    res->peak_bytes = fa.peak_bytes;
    res->total_bytes = fa.total_bytes;
    res->rss_growth_kib = maxrss_kib() - rss0;
}
