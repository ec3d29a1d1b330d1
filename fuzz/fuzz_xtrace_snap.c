/* libFuzzer target: the xtrace snapshot reader. Input: two option bytes, the
 * file, one chunking seed byte. Read whole and chunked with pauses; the event
 * hashes, statuses, offsets and reasons must agree. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/xtrace.h>

#include "fuzz_common.h"

typedef struct fz {
    uint64_t h;
    unsigned long calls;
    unsigned long abort_at;
    bool pause;
    unsigned long pauses;
} fz_t;

static void mix(fz_t *f, uint64_t v)
{
    f->h = (f->h ^ v) * 0x100000001b3ull;
}

static void mixb(fz_t *f, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mix(f, p[i]);
}

static int ret(fz_t *f, bool fragment)
{
    if (!fragment && ++f->calls == f->abort_at)
        return -3;
    if (f->pause && (f->pauses++ % 3) == 0)
        return TRACERD_CB_PAUSE;
    return 0;
}

static int c_layout(void *u, const tracerd_xtrace_snap_layout_t *l)
{
    fz_t *f = u;
    mix(f, 1);
    mix(f, l->header_bytes);
    mix(f, l->vector_length_bits);
    mix(f, l->record_bytes);
    mix(f, (uint64_t)l->byte_order);
    return ret(f, false);
}

static int c_header(void *u, const tracerd_xtrace_snap_header_t *h)
{
    fz_t *f = u;
    mix(f, 2);
    mix(f, h->ident);
    mix(f, h->version);
    mixb(f, h->pad.data, h->pad.len);
    return ret(f, false);
}

static int c_snap(void *u, const tracerd_xtrace_snapshot_t *s)
{
    fz_t *f = u;
    mix(f, 3);
    mix(f, s->offset);
    mix(f, s->user_insns);
    for (int i = 0; i < 32; i++)
        mix(f, s->x[i]);
    return ret(f, false);
}

static int c_reg(void *u, const tracerd_span_t *s)
{
    fz_t *f = u;
    if (s->offset == 0) {
        mix(f, 4);
        mix(f, s->field);
        mix(f, s->index);
        mix(f, s->total);
    }
    if (s->len == 0 || s->offset + s->len > s->total)
        abort();
    mixb(f, s->data, s->len);
    return ret(f, true);
}

static int c_end(void *u, const tracerd_xtrace_snapshot_end_t *e)
{
    fz_t *f = u;
    mix(f, 5);
    mix(f, e->fpcr);
    mix(f, e->daif);
    mix(f, e->vector_length_bits);
    return ret(f, false);
}

static int c_warn(void *u, const tracerd_warning_t *w)
{
    fz_t *f = u;
    mix(f, 6);
    mix(f, w->offset);
    mixb(f, (const uint8_t *)w->reason, strlen(w->reason));
    return ret(f, false);
}

static uint64_t run(const tracerd_xtrace_snap_config_t *cfg, const uint8_t *d, size_t n,
                    fuzz_chunker_t *ch, unsigned long abort_at)
{
    tracerd_xtrace_snap_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_layout = c_layout;
    cb.on_header = c_header;
    cb.on_snapshot = c_snap;
    cb.on_register = c_reg;
    cb.on_snapshot_end = c_end;
    cb.on_warning = c_warn;
    fz_t f = {0xcbf29ce484222325ull, 0, abort_at, ch != NULL, 0};
    tracerd_xtrace_snap_reader_t *r;
    if (tracerd_xtrace_snap_new(cfg, &cb, &f, NULL, &r) != TRACERD_OK)
        abort();
    tracerd_status_t st = fuzz_pump(tracerd_xtrace_snap_ops(), r, d, n, ch);
    mix(&f, (uint64_t)(int64_t)st);
    if (st < 0) {
        const char *why = tracerd_xtrace_snap_error_reason(r);
        mix(&f, tracerd_xtrace_snap_record_offset(r));
        mixb(&f, (const uint8_t *)why, strlen(why));
    }
    tracerd_xtrace_snap_free(r);
    return f.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint8_t o1 = data[0], o2 = data[1];
    static const int32_t hs[8] = {-1, -1, -1, -1, 0, 19, 24, 32};
    tracerd_xtrace_snap_config_t cfg;
    tracerd_xtrace_snap_config_init(&cfg);
    cfg.header_bytes = hs[o1 & 7];
    cfg.vector_length_bits = (o1 >> 3) & 1 ? 128u * (1u + (o2 & 15)) : 0;
    cfg.p_layout = (tracerd_xtrace_p_layout_t)((o1 >> 4) % 3);
    cfg.za = (tracerd_xtrace_choice_t)((o1 >> 6) % 3);
    cfg.fixed_max = (tracerd_xtrace_choice_t)((o2 >> 4) % 3);
    cfg.byte_order = (tracerd_byte_order_t)((o2 >> 6) % 3);
    cfg.detect_records = 1u + ((o2 >> 5) & 1);
    cfg.check_advance = (o1 & 0xc0) != 0xc0;
    cfg.allow_truncated_tail = (o2 & 0x30) == 0x30;
    const uint8_t *body = data + 2;
    size_t n = size - 3;
    uint8_t seed = data[size - 1];
    unsigned long abort_at = seed % 7 == 0 ? (unsigned long)(seed / 7) + 1 : 0;
    uint64_t whole = run(&cfg, body, n, NULL, abort_at);
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, seed);
    uint64_t chunked = run(&cfg, body, n, &ch, abort_at);
    if (whole != chunked)
        __builtin_trap();
    return 0;
}
