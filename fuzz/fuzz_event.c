/* libFuzzer target for the event view: the auto reader (detection, head
 * replay, the XRay mapping) over any input, and the XRay names reader over
 * the same bytes as an ELF image. Byte 0 selects options (bits 0-2: forced
 * format 0-4 or detect; bit 3 pause on events; bit 4 names from the input;
 * bit 5: the trace is "metadata NUL stream", the metadata given first with
 * tracerd_auto_metadata, as for CTF),
 * the last byte seeds the chunk sizes, the rest is the trace. The input is
 * read whole and chunked (with pauses): the event hashes and final statuses
 * must agree, or the target traps. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/event.h>

#include "fuzz_common.h"

struct acc {
    uint64_t h;
    uint64_t n;
    bool pause;
};

static void mix(struct acc *a, uint64_t v)
{
    a->h = (a->h ^ v) * 0x100000001b3ull;
}

static void mix_bytes(struct acc *a, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        mix(a, b[i]);
}

static int on_event(void *u, const tracerd_event_t *ev)
{
    struct acc *a = u;
    mix(a, ev->offset);
    mix(a, ev->kind);
    mix(a, ev->ticks);
    mix(a, ev->tid);
    mix_bytes(a, ev->name.data, ev->name.len);
    mix_bytes(a, ev->category.data, ev->category.len);
    mix_bytes(a, ev->message.data, ev->message.len);
    mix(a, ev->flags);
    mix(a, ev->pid);
    mix(a, ev->id);
    for (uint32_t i = 0; i < ev->nargs; i++) {
        mix_bytes(a, ev->args[i].name.data, ev->args[i].name.len);
        const tracerd_event_arg_t *g = &ev->args[i];
        mix(a, g->type);
        if (g->type == TRACERD_EVENT_ARG_BYTES)
            mix_bytes(a, g->v.bytes.data, g->v.bytes.len);
        else if (g->type == TRACERD_EVENT_ARG_STRING)
            mix_bytes(a, g->v.str.data, g->v.str.len); /* contents: the pointer depends on chunking */
        else if (g->type == TRACERD_EVENT_ARG_BOOL)
            mix(a, g->v.b);
        else if (g->type != TRACERD_EVENT_ARG_NULL)
            mix(a, g->v.u);
    }
    a->n++;
    return a->pause && a->n % 3 == 0 ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static int on_source(void *u, const tracerd_event_source_t *s)
{
    mix(u, s->format);
    mix(u, s->ticks_per_second);
    return TRACERD_CB_CONTINUE;
}

static uint64_t run(const uint8_t *data, size_t size, uint8_t opts, uint8_t seed, bool chunked,
                    const tracerd_xray_names_t *names)
{
    const uint8_t *meta = NULL;
    size_t meta_len = 0;
    if (opts & 32) {
        const uint8_t *nul = memchr(data, 0, size);
        if (nul != NULL) {
            meta = data;
            meta_len = (size_t)(nul - data);
            size -= meta_len + 1;
            data = nul + 1;
        }
    }
    tracerd_auto_config_t cfg;
    tracerd_auto_config_init(&cfg);
    unsigned f = opts & 7u;
    cfg.format = f <= 4 ? (tracerd_event_format_t)f : TRACERD_EVENT_FORMAT_UNKNOWN;
    cfg.xray_names = names;
    cfg.max_args = 4;
    tracerd_event_callbacks_t cb = {.on_event = on_event, .on_source = on_source};
    struct acc a = {0xcbf29ce484222325ull, 0, chunked && (opts & 8) != 0};
    tracerd_auto_reader_t *r;
    if (tracerd_auto_new(&cfg, &cb, &a, NULL, &r) != TRACERD_OK)
        abort();
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, seed);
    tracerd_status_t st = TRACERD_OK;
    if (meta != NULL) {
        st = tracerd_auto_metadata(r, meta, meta_len);
        mix(&a, (uint64_t)(int64_t)st);
        if (st == TRACERD_E_INVALID || st == TRACERD_E_UNSUPPORTED)
            st = TRACERD_OK; /* a forced other format, or no CTF reader: read the stream alone */
    }
    if (st == TRACERD_OK)
        st = fuzz_pump(tracerd_auto_ops(), r, data, size, chunked ? &ch : NULL);
    mix(&a, (uint64_t)(int64_t)st);
    if (st < 0) {
        mix(&a, tracerd_auto_record_offset(r));
        const char *why = tracerd_auto_error_reason(r);
        mix_bytes(&a, why, strlen(why));
    }
    tracerd_auto_free(r);
    return a.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t opts = data[0], seed = data[size - 1];
    const uint8_t *trace = data + 1;
    size_t len = size - 2;
    /* The same bytes as an ELF image: never a crash, whatever they hold. */
    tracerd_xray_names_t *names = NULL;
    if (tracerd_xray_names_new(NULL, &names) != TRACERD_OK)
        abort();
    tracerd_status_t nst = tracerd_xray_names_load(names, trace, len);
    struct acc touched = {0, 0, false};
    for (uint32_t id = 0; nst == TRACERD_OK && id <= tracerd_xray_names_count(names) + 1; id++) {
        tracerd_str_t s;
        if (tracerd_xray_names_lookup(names, (int32_t)id, &s))
            mix_bytes(&touched, s.data, s.len); /* every name byte is readable */
        mix(&touched, tracerd_xray_names_address(names, (int32_t)id));
    }
    const tracerd_xray_names_t *use = (opts & 16) && nst == TRACERD_OK ? names : NULL;
    uint64_t whole = run(trace, len, opts, seed, false, use);
    uint64_t split = run(trace, len, opts, seed, true, use);
    if (whole != split)
        __builtin_trap();
    tracerd_xray_names_free(names);
    return 0;
}
