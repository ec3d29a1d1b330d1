/* libFuzzer target for the FXT reader. Input: byte 0 selects options
 * (bit 0 lenient, bit 1 fallback_to_provider0, bits 2-3 byte order, bit 4 a
 * tiny string budget, bit 5 max 2 providers, bit 6 small large-record limit),
 * the last byte seeds the chunk sizes, the bytes between are the archive.
 * Each input runs twice, whole and chunked; callbacks pause or abort when a
 * timestamp says so; the two runs must give the same callbacks (hashed), the
 * same status and the same error offset, or the target traps. */
#include <stdint.h>
#include <string.h>

#include <tracerd/fxt.h>

#include "fuzz_common.h"

typedef struct run {
    uint64_t hash;
    uint64_t calls;
} run_t;

static void mix(run_t *r, uint64_t v)
{
    r->hash = (r->hash ^ v) * 0x100000001b3ull;
}

static void mix_bytes(run_t *r, const void *p, size_t n)
{
    const uint8_t *b = p;
    mix(r, n);
    for (size_t i = 0; i < n; i++)
        mix(r, b[i]);
}

/* Pause when the low byte of a value is 0x50, abort (once in ~64k) on 0xdead. */
static int ret(run_t *r, uint64_t v)
{
    r->calls++;
    if ((v & 0xffff) == 0xdead)
        return -3;
    return (v & 0xff) == 0x50 ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static void mix_args(run_t *r, uint32_t n, const tracerd_fxt_arg_t *a)
{
    for (uint32_t i = 0; i < n; i++) {
        mix(r, a[i].type);
        mix(r, a[i].pos);
        mix_bytes(r, a[i].name.data, a[i].name.len);
        /* Only the value member that matches the type is meaningful. */
        if (a[i].type == TRACERD_FXT_ARG_INT32 || a[i].type == TRACERD_FXT_ARG_INT64)
            mix(r, (uint64_t)a[i].v.i64);
        else if (a[i].type == TRACERD_FXT_ARG_STRING)
            mix_bytes(r, a[i].v.str.data, a[i].v.str.len);
        else if (a[i].type >= TRACERD_FXT_ARG_BLOB)
            mix_bytes(r, a[i].v.blob.data, a[i].v.blob.len);
        else
            mix(r, a[i].v.u64);
    }
}

static int c_meta(void *u, const tracerd_fxt_metadata_t *m)
{
    run_t *r = u;
    mix(r, m->offset);
    mix(r, m->type);
    mix(r, m->provider_id);
    mix_bytes(r, m->name.data, m->name.len);
    return ret(r, m->provider_id);
}

static int c_init(void *u, const tracerd_fxt_init_t *i)
{
    run_t *r = u;
    mix(r, i->ticks_per_second);
    return ret(r, i->ticks_per_second);
}

static int c_string(void *u, const tracerd_fxt_string_t *s)
{
    run_t *r = u;
    mix(r, s->index);
    mix_bytes(r, s->str.data, s->str.len);
    return ret(r, s->index);
}

static int c_thread(void *u, const tracerd_fxt_thread_rec_t *t)
{
    run_t *r = u;
    mix(r, t->index);
    mix(r, t->pid);
    mix(r, t->tid);
    return ret(r, t->tid);
}

static int c_event(void *u, const tracerd_fxt_event_t *e)
{
    run_t *r = u;
    mix(r, e->offset);
    mix(r, e->type);
    mix(r, e->ticks);
    mix(r, e->ns);
    mix(r, e->thread.pid);
    mix(r, e->thread.tid);
    mix_bytes(r, e->category.data, e->category.len);
    mix_bytes(r, e->name.data, e->name.len);
    mix_args(r, e->nargs, e->args);
    mix(r, e->id);
    mix(r, e->end_ns);
    return ret(r, e->ticks);
}

static int c_blob(void *u, const tracerd_fxt_blob_t *b)
{
    run_t *r = u;
    mix_bytes(r, b->name.data, b->name.len);
    mix_bytes(r, b->payload.data, b->payload.len);
    return ret(r, b->blob_type);
}

static int c_user(void *u, const tracerd_fxt_userspace_object_t *o)
{
    run_t *r = u;
    mix(r, o->pointer);
    mix(r, o->process.pid);
    mix_bytes(r, o->name.data, o->name.len);
    mix_args(r, o->nargs, o->args);
    return ret(r, o->pointer);
}

static int c_kernel(void *u, const tracerd_fxt_kernel_object_t *o)
{
    run_t *r = u;
    mix(r, o->koid);
    mix_bytes(r, o->name.data, o->name.len);
    mix_args(r, o->nargs, o->args);
    return ret(r, o->koid);
}

static int c_sched(void *u, const tracerd_fxt_scheduling_t *s)
{
    run_t *r = u;
    mix(r, s->type);
    mix(r, s->ticks);
    mix(r, s->outgoing.tid);
    mix(r, s->incoming.tid);
    mix(r, s->waking_tid);
    mix_args(r, s->nargs, s->args);
    return ret(r, s->ticks);
}

static int c_log(void *u, const tracerd_fxt_log_t *l)
{
    run_t *r = u;
    mix(r, l->ticks);
    mix(r, l->thread.tid);
    mix_bytes(r, l->message.data, l->message.len);
    return ret(r, l->ticks);
}

static int c_large(void *u, const tracerd_fxt_large_blob_t *b)
{
    run_t *r = u;
    mix(r, b->format);
    mix(r, b->size);
    mix_bytes(r, b->category.data, b->category.len);
    mix_bytes(r, b->name.data, b->name.len);
    mix_args(r, b->nargs, b->args);
    if (b->payload.data != NULL)
        mix_bytes(r, b->payload.data, b->payload.len);
    return ret(r, b->ticks);
}

/* Fragments depend on chunking: only their concatenation is hashed (byte by byte). */
static int c_frag(void *u, const tracerd_span_t *s)
{
    run_t *r = u;
    const uint8_t *b = s->data;
    for (size_t i = 0; i < s->len; i++)
        mix(r, b[i]);
    return TRACERD_CB_CONTINUE;
}

static int c_unknown(void *u, const tracerd_fxt_unknown_t *k)
{
    run_t *r = u;
    mix(r, k->offset);
    mix(r, k->kind);
    mix(r, k->type);
    mix(r, k->size);
    if (k->raw.data != NULL)
        mix_bytes(r, k->raw.data, k->raw.len);
    return ret(r, k->header >> 8);
}

static int c_warn(void *u, const tracerd_warning_t *w)
{
    run_t *r = u;
    mix(r, (uint64_t)(int64_t)w->status);
    mix(r, w->offset);
    mix(r, w->skipped_bytes);
    mix_bytes(r, w->reason, strlen(w->reason));
    return ret(r, w->offset);
}

static tracerd_status_t run_once(const tracerd_fxt_config_t *cfg, const uint8_t *d, size_t n,
                                 uint8_t seed, bool chunked, run_t *out, uint64_t *err_off)
{
    tracerd_fxt_callbacks_t cbs = {.on_metadata = c_meta, .on_init = c_init, .on_string = c_string, .on_thread = c_thread, .on_event = c_event, .on_blob = c_blob, .on_userspace_object = c_user, .on_kernel_object = c_kernel, .on_scheduling = c_sched, .on_log = c_log, .on_large_blob = c_large, .on_large_blob_fragment = c_frag, .on_unknown = c_unknown, .on_warning = c_warn};
    memset(out, 0, sizeof *out);
    out->hash = 0xcbf29ce484222325ull;
    tracerd_fxt_reader_t *r;
    tracerd_status_t st = tracerd_fxt_new(cfg, &cbs, out, NULL, &r);
    if (st != TRACERD_OK)
        return st;
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, seed);
    st = fuzz_pump(tracerd_fxt_ops(), r, d, n, chunked ? &ch : NULL);
    *err_off = tracerd_fxt_record_offset(r);
    if (st != TRACERD_OK && tracerd_fxt_error_reason(r)[0] == '\0')
        __builtin_trap(); /* every error names its record and field */
    tracerd_fxt_free(r);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t flags = data[0], seed = data[size - 1];
    tracerd_fxt_config_t cfg;
    tracerd_fxt_config_init(&cfg);
    cfg.lenient = flags & 1;
    cfg.fallback_to_provider0 = (flags >> 1) & 1;
    cfg.byte_order = (tracerd_byte_order_t)((flags >> 2) % 3);
    if (flags & 16)
        cfg.max_string_bytes = 256;
    if (flags & 32)
        cfg.max_providers = 2;
    if (flags & 64)
        cfg.max_large_record_bytes = 40000;
    const uint8_t *d = data + 1;
    size_t n = size - 2;
    run_t a, b;
    uint64_t oa, ob;
    tracerd_status_t sa = run_once(&cfg, d, n, seed, false, &a, &oa);
    tracerd_status_t sb = run_once(&cfg, d, n, seed, true, &b, &ob);
    if (sa != sb || a.hash != b.hash || a.calls != b.calls || (sa < 0 && oa != ob))
        __builtin_trap();
    return 0;
}
