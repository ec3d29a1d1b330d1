/* libFuzzer target for the XRay reader. Input layout: byte 0 selects options
 * (bit 0 lenient, bit 1 small stitch bound, bits 2-3 byte order, bit 4 pause
 * on callbacks, bit 5 no metadata callback: the hot loop takes metadata itself), the last byte seeds the chunk sizes, the rest is the trace.
 * The input is read twice, whole and chunked (with pauses): the two event
 * hashes must agree, or the target traps (differential check). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/tracerd.h>

#include "fuzz_common.h"

struct acc {
    uint64_t h;
    uint64_t n;
    bool pause;
};

static void mix(struct acc *a, uint64_t v)
{
    a->h = (a->h ^ v) * 0x100000001b3ull;
    a->n++;
}

static int ret(struct acc *a)
{
    return a->pause && (a->n % 3) == 0 ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static int f_header(void *u, const tracerd_xray_header_t *h)
{
    mix(u, h->version);
    mix(u, h->cycle_frequency);
    return ret(u);
}
static int f_buffer(void *u, const tracerd_xray_buffer_t *b)
{
    mix(u, b->offset);
    mix(u, (uint64_t)b->tid);
    return ret(u);
}
static int f_buffer_end(void *u, const tracerd_xray_buffer_end_t *e)
{
    mix(u, e->offset);
    return ret(u);
}
static int f_function(void *u, const tracerd_xray_function_t *f)
{
    mix(u, f->offset);
    mix(u, f->tsc);
    mix(u, f->ns);
    for (uint32_t i = 0; i < f->nargs; i++)
        mix(u, f->args[i]);
    return ret(u);
}
static int f_event(void *u, const tracerd_xray_event_t *e)
{
    mix(u, e->offset);
    mix(u, e->tsc);
    for (size_t i = 0; e->payload.data && i < e->payload.len; i++)
        mix(u, e->payload.data[i]);
    return ret(u);
}
static int f_fragment(void *u, const tracerd_span_t *s)
{
    struct acc *a = u;
    for (size_t i = 0; i < s->len; i++)
        mix(a, s->data[i]);
    a->n--; /* fragment count depends on chunking: not a callback for pausing */
    return TRACERD_CB_CONTINUE;
}
static int f_meta(void *u, const tracerd_xray_metadata_t *m)
{
    mix(u, m->offset);
    mix(u, m->kind);
    return ret(u);
}
static int f_warning(void *u, const tracerd_warning_t *w)
{
    mix(u, w->offset);
    mix(u, w->skipped_bytes);
    return ret(u);
}

static uint64_t run(const uint8_t *data, size_t size, uint8_t opts, uint8_t seed, bool chunked)
{
    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.lenient_skip_buffers = (opts & 1) != 0;
    if (opts & 2)
        cfg.stitch_bytes = 64;
    cfg.byte_order = (tracerd_byte_order_t)((opts >> 2) & 3) == 3
                         ? TRACERD_BYTE_ORDER_AUTO
                         : (tracerd_byte_order_t)((opts >> 2) & 3);
    cfg.max_args = 8;
    tracerd_xray_callbacks_t cb = {.on_header = f_header, .on_buffer = f_buffer, .on_buffer_end = f_buffer_end, .on_function = f_function, .on_event = f_event, .on_event_fragment = f_fragment, .on_metadata = f_meta, .on_warning = f_warning};
    if (opts & 32)
        cb.on_metadata = NULL;
    struct acc a = {0xcbf29ce484222325ull, 0, chunked && (opts & 16) != 0};
    tracerd_xray_reader_t *r;
    if (tracerd_xray_new(&cfg, &cb, &a, NULL, &r) != TRACERD_OK)
        abort();
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, seed);
    tracerd_status_t st = fuzz_pump(tracerd_xray_ops(), r, data, size, chunked ? &ch : NULL);
    mix(&a, (uint64_t)(int64_t)st);
    if (st < 0)
        mix(&a, tracerd_xray_record_offset(r));
    tracerd_xray_free(r);
    return a.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t opts = data[0], seed = data[size - 1];
    const uint8_t *trace = data + 1;
    size_t len = size - 2;
    uint64_t whole = run(trace, len, opts, seed, false);
    uint64_t chunked = run(trace, len, opts, seed, true);
    if (whole != chunked)
        __builtin_trap();
    return 0;
}
