/* libFuzzer target: the xtrace instruction-stream reader. Input: one option
 * byte, the stream, one chunking seed byte. The input is read twice, whole
 * and in data-driven chunks with pauses, and the two event hashes, statuses,
 * offsets and reasons must agree (chunk and pause invariance). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/xtrace.h>

#include "fuzz_common.h"

typedef struct fz {
    uint64_t h;
    unsigned long calls; /* non-fragment callbacks */
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

static int c_insn(void *u, const tracerd_xtrace_insn_t *x)
{
    fz_t *f = u;
    mix(f, 1);
    mix(f, x->offset);
    mix(f, x->index);
    mix(f, x->pc);
    mix(f, x->opcode);
    mix(f, x->el);
    mix(f, x->explicit_pc);
    return ret(f, false);
}

static int c_mem(void *u, const tracerd_xtrace_mem_t *m)
{
    fz_t *f = u;
    mix(f, 2);
    mix(f, m->offset);
    mix(f, m->addr);
    mix(f, m->size);
    mix(f, m->value_u64);
    mix(f, m->el);
    if (m->value != NULL)
        mixb(f, m->value, m->size);
    return ret(f, false);
}

static int c_span(void *u, const tracerd_span_t *s)
{
    fz_t *f = u;
    if (s->offset == 0) {
        mix(f, 3);
        mix(f, s->field);
        mix(f, s->index);
        mix(f, s->total);
        mix(f, s->record_offset);
    }
    if (s->len == 0 || s->offset + s->len > s->total)
        abort();
    mixb(f, s->data, s->len);
    return ret(f, true);
}

static int c_val(void *u, const tracerd_xtrace_val_t *v)
{
    fz_t *f = u;
    mix(f, 4);
    mix(f, v->offset);
    mix(f, (uint64_t)v->kind);
    mix(f, v->value);
    return ret(f, false);
}

static int c_allgpr(void *u, const tracerd_xtrace_allgpr_t *g)
{
    fz_t *f = u;
    mix(f, 5);
    for (int i = 0; i < 32; i++)
        mix(f, g->x[i]);
    return ret(f, false);
}

static int c_flags(void *u, const tracerd_xtrace_misc_flags_t *m)
{
    fz_t *f = u;
    mix(f, 6);
    mix(f, m->flags);
    return ret(f, false);
}

static int c_vec(void *u, const tracerd_xtrace_syscall_vec_t *v)
{
    fz_t *f = u;
    mix(f, 7);
    mix(f, v->offset);
    mix(f, v->count);
    return ret(f, false);
}

static int c_vec_end(void *u, const tracerd_xtrace_syscall_vec_t *v)
{
    fz_t *f = u;
    mix(f, 8);
    mix(f, v->count);
    return ret(f, false);
}

static int c_iov(void *u, const tracerd_xtrace_iov_t *v)
{
    fz_t *f = u;
    mix(f, 9);
    mix(f, v->iov_offset);
    mix(f, v->index);
    mix(f, v->base);
    mix(f, v->len);
    return ret(f, false);
}

static int c_time(void *u, const tracerd_xtrace_time_t *t)
{
    fz_t *f = u;
    mix(f, 10);
    mix(f, t->value);
    mixb(f, t->raw.data, t->raw.len);
    return ret(f, false);
}

static int c_opaque(void *u, const tracerd_xtrace_opaque_t *o)
{
    fz_t *f = u;
    mix(f, 12);
    mix(f, o->token);
    mixb(f, o->payload.data, o->payload.len);
    return ret(f, false);
}

static int c_warn(void *u, const tracerd_warning_t *w)
{
    fz_t *f = u;
    mix(f, 11);
    mix(f, w->offset);
    mixb(f, (const uint8_t *)w->reason, strlen(w->reason));
    return ret(f, false);
}

static uint64_t run(const tracerd_xtrace_insn_config_t *cfg, const uint8_t *d, size_t n,
                    fuzz_chunker_t *ch, unsigned long abort_at)
{
    tracerd_xtrace_insn_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_insn = c_insn;
    cb.on_mem = c_mem;
    cb.on_mem_fragment = c_span;
    cb.on_val = c_val;
    cb.on_allgpr = c_allgpr;
    cb.on_misc_flags = c_flags;
    cb.on_syscall_vec = c_vec;
    cb.on_iov = c_iov;
    cb.on_iov_data = c_span;
    cb.on_syscall_vec_end = c_vec_end;
    cb.on_time = c_time;
    cb.on_warning = c_warn;
    cb.on_opaque = c_opaque;
    fz_t f = {0xcbf29ce484222325ull, 0, abort_at, ch != NULL, 0};
    tracerd_xtrace_insn_reader_t *r;
    if (tracerd_xtrace_insn_new(cfg, &cb, &f, NULL, &r) != TRACERD_OK)
        abort();
    tracerd_status_t st = fuzz_pump(tracerd_xtrace_insn_ops(), r, d, n, ch);
    mix(&f, (uint64_t)(int64_t)st);
    if (st < 0) {
        const char *why = tracerd_xtrace_insn_error_reason(r);
        mix(&f, tracerd_xtrace_insn_record_offset(r));
        mixb(&f, (const uint8_t *)why, strlen(why));
    }
    tracerd_xtrace_insn_free(r);
    return f.h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t opt = data[0];
    static const uint32_t tsz[4] = {8, 4, 16, 1};
    tracerd_xtrace_insn_config_t cfg;
    tracerd_xtrace_insn_config_init(&cfg);
    cfg.time_payload_bytes = tsz[opt & 3];
    cfg.iov_layout = (tracerd_xtrace_iov_layout_t)((opt >> 2) & 3) == 3
                         ? TRACERD_XTRACE_IOV_INTERLEAVED
                         : (tracerd_xtrace_iov_layout_t)((opt >> 2) & 3);
    cfg.allow_trailing_zero_padding = opt & 0x10;
    cfg.allow_truncated_tail = opt & 0x20;
    cfg.stitch_bytes = (opt & 0x40) ? 272 : 4096;
    cfg.max_mem_log2 = (opt & 0x80) ? 12 : 8;
    cfg.has_initial_pc = (opt & 0x0c) == 0x0c;
    cfg.initial_pc = 0x400000;
    cfg.max_iov = 64;
    cfg.max_iov_len = 1 << 16;
    tracerd_xtrace_profile_t prof;
    if ((opt & 0x30) == 0x30) { /* a custom profile with opaque MISC sub-types 0 and 2 */
        tracerd_xtrace_profile_default(&prof);
        prof.token[0x04].kind = TRACERD_XTRACE_TOK_OPAQUE;
        prof.token[0x04].payload_bytes = 8;
        prof.token[0x14].kind = TRACERD_XTRACE_TOK_OPAQUE;
        prof.token[0x14].payload_bytes = 0;
        cfg.profile = &prof;
    }
    const uint8_t *body = data + 1;
    size_t n = size - 2;
    uint8_t seed = data[size - 1];
    unsigned long abort_at = seed % 5 == 0 ? (unsigned long)(seed / 5) + 1 : 0;
    uint64_t whole = run(&cfg, body, n, NULL, abort_at);
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, seed);
    uint64_t chunked = run(&cfg, body, n, &ch, abort_at);
    if (whole != chunked)
        __builtin_trap();
    return 0;
}
