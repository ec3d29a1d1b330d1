/* The xtrace recorders (tests/support/xtrace_recorder.h): one line per
 * callback (REC_LOG, REC_HASH), and the benchmarks' counting callbacks. */
#include "xtrace_recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fragments are logged as one line when the last piece arrives (FNV-1a of the
 * bytes), so the log does not depend on chunking. */
typedef struct xrec {
    rec_t *rec;
    uint64_t fnv;
    uint64_t got;
} xrec_t;

static xrec_t g_x; /* per-run fragment accumulator: drv_run runs one reader at a time */

static void frag(rec_t *rec, const tracerd_span_t *s)
{
    REC_CHECK(rec, s->len != 0 && s->offset + s->len <= s->total);
    if (s->offset == 0) {
        g_x.fnv = 0xcbf29ce484222325ull;
        g_x.got = 0;
    }
    if (s->offset != g_x.got) /* logged, not asserted: Check's per-assert cost is high */
        tlog_printf(&rec->log, "FRAGMENT OUT OF ORDER at %llu\n", (unsigned long long)s->offset);
    for (size_t i = 0; i < s->len; i++)
        g_x.fnv = (g_x.fnv ^ s->data[i]) * 0x100000001b3ull;
    g_x.got += s->len;
    if (s->offset + s->len == s->total)
        tlog_printf(&rec->log, "frag %s[%u] @%llu total=%llu fnv=%016llx\n",
                    tracerd_xtrace_field_name(s->field), s->index,
                    (unsigned long long)s->record_offset, (unsigned long long)s->total,
                    (unsigned long long)g_x.fnv);
}

static int r_insn(void *u, const tracerd_xtrace_insn_t *x)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "insn @%llu #%llu pc=0x%llx op=0x%08x el=%u%s\n",
                (unsigned long long)x->offset, (unsigned long long)x->index,
                (unsigned long long)x->pc, x->opcode, x->el, x->explicit_pc ? " explicit" : "");
    return rec_ret(rec);
}

static int r_mem(void *u, const tracerd_xtrace_mem_t *m)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "mem @%llu n=%llu el=%u %s addr=0x%llx size=%u k=%u u64=0x%llx val=",
                (unsigned long long)m->offset, (unsigned long long)m->insn_count, m->el,
                m->is_store ? "store" : "load", (unsigned long long)m->addr, m->size, m->size_log2,
                (unsigned long long)m->value_u64);
    if (m->value == NULL)
        tlog_printf(&rec->log, "(fragments)");
    else if (m->size <= 16)
        tlog_hex(&rec->log, m->value, m->size);
    else {
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint32_t i = 0; i < m->size; i++)
            h = (h ^ m->value[i]) * 0x100000001b3ull;
        tlog_printf(&rec->log, "fnv:%016llx", (unsigned long long)h);
    }
    tlog_printf(&rec->log, "\n");
    return rec_ret(rec);
}

static int r_frag(void *u, const tracerd_span_t *s)
{
    rec_t *rec = u;
    frag(rec, s);
    return rec_ret_uncounted(rec); /* their number depends on chunking */
}

static int r_val(void *u, const tracerd_xtrace_val_t *v)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "val @%llu n=%llu %s 0x%llx\n", (unsigned long long)v->offset,
                (unsigned long long)v->insn_count, tracerd_xtrace_val_kind_name(v->kind),
                (unsigned long long)v->value);
    return rec_ret(rec);
}

static int r_allgpr(void *u, const tracerd_xtrace_allgpr_t *g)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "allgpr @%llu n=%llu x0=0x%llx x1=0x%llx x30=0x%llx x31=0x%llx\n",
                (unsigned long long)g->offset, (unsigned long long)g->insn_count,
                (unsigned long long)g->x[0], (unsigned long long)g->x[1],
                (unsigned long long)g->x[30], (unsigned long long)g->x[31]);
    rec_fold_bytes(rec, g->x, sizeof g->x); /* the registers the line leaves out */
    return rec_ret(rec);
}

static int r_flags(void *u, const tracerd_xtrace_misc_flags_t *f)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "flags @%llu n=%llu 0x%llx\n", (unsigned long long)f->offset,
                (unsigned long long)f->insn_count, (unsigned long long)f->flags);
    return rec_ret(rec);
}

static int r_sv(void *u, const tracerd_xtrace_syscall_vec_t *s)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "syscall_vec @%llu n=%llu count=%llu layout=%d\n",
                (unsigned long long)s->offset, (unsigned long long)s->insn_count,
                (unsigned long long)s->count, (int)s->layout);
    return rec_ret(rec);
}

static int r_iov_layout(void *u, const tracerd_xtrace_iov_decision_t *d)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "iov_layout @%llu %s candidates=0x%x assumed=%d window=%llu%s\n",
                (unsigned long long)d->offset, tracerd_xtrace_iov_layout_name(d->layout),
                (unsigned)d->candidates, (int)d->assumed, (unsigned long long)d->window_bytes,
                d->window_complete ? " complete" : "");
    return rec_ret(rec);
}

static int r_sv_end(void *u, const tracerd_xtrace_syscall_vec_t *s)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "syscall_vec_end @%llu count=%llu\n", (unsigned long long)s->offset,
                (unsigned long long)s->count);
    return rec_ret(rec);
}

static int r_iov(void *u, const tracerd_xtrace_iov_t *v)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "iov @%llu at=%llu #%u base=0x%llx len=%llu\n",
                (unsigned long long)v->offset, (unsigned long long)v->iov_offset, v->index,
                (unsigned long long)v->base, (unsigned long long)v->len);
    return rec_ret(rec);
}

static int r_time(void *u, const tracerd_xtrace_time_t *t)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "time @%llu n=%llu 0x%llx raw=", (unsigned long long)t->offset,
                (unsigned long long)t->insn_count, (unsigned long long)t->value);
    tlog_hex(&rec->log, t->raw.data, t->raw.len);
    tlog_printf(&rec->log, "\n");
    return rec_ret(rec);
}

static int r_opaque(void *u, const tracerd_xtrace_opaque_t *o)
{
    rec_t *rec = u;
    tlog_printf(&rec->log,
                "opaque @%llu n=%llu token=0x%02x payload=", (unsigned long long)o->offset,
                (unsigned long long)o->insn_count, o->token);
    tlog_hex(&rec->log, o->payload.data, o->payload.len);
    tlog_printf(&rec->log, "\n");
    return rec_ret(rec);
}

static int r_warn(void *u, const tracerd_warning_t *w)
{
    rec_t *rec = u;
    tlog_printf(&rec->log, "warning %s @%llu skipped=%llu%s %s\n", tracerd_status_name(w->status),
                (unsigned long long)w->offset, (unsigned long long)w->skipped_bytes,
                tlog_count(w), w->reason);
    return rec_ret(rec);
}

static tracerd_status_t insn_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                                  void **reader)
{
    tracerd_xtrace_insn_callbacks_t cb;
    tracerd_xtrace_insn_callbacks_init(&cb);
    cb.on_insn = r_insn;
    cb.on_mem = r_mem;
    cb.on_mem_fragment = r_frag;
    cb.on_val = r_val;
    cb.on_allgpr = r_allgpr;
    cb.on_misc_flags = r_flags;
    cb.on_syscall_vec = r_sv;
    cb.on_iov = r_iov;
    cb.on_iov_data = r_frag;
    cb.on_syscall_vec_end = r_sv_end;
    cb.on_time = r_time;
    cb.on_warning = r_warn;
    cb.on_opaque = r_opaque;
    cb.on_layout = r_iov_layout;
    return tracerd_xtrace_insn_new(config, &cb, rec, alloc,
                                   (tracerd_xtrace_insn_reader_t **)reader);
}

const drv_target_t xtrace_insn_target = {"xtrace-insn", insn_open, tracerd_xtrace_insn_ops,
                                          NULL};

/* Snapshot recorder. */
static int s_layout(void *u, const tracerd_xtrace_snap_layout_t *l)
{
    rec_t *rec = u;
    tlog_printf(&rec->log,
                "layout %s header=%u vl=%u svl=%u storage=%u p=%d za=%d fixed=%d record=%u "
                "z=%u p=%u ffr=%u za=%u sys=%u detected=%d checked=%u\n",
                tracerd_byte_order_name(l->byte_order), l->header_bytes, l->vector_length_bits,
                l->streaming_vector_length_bits, l->storage_vector_length_bits, (int)l->p_layout,
                l->za_present, l->fixed_max, l->record_bytes, l->z_offset, l->p_offset,
                l->ffr_offset, l->za_offset, l->sysreg_offset, l->detected, l->records_checked);
    return rec_ret(rec);
}

static int s_header(void *u, const tracerd_xtrace_snap_header_t *h)
{
    rec_t *rec = u;
    tlog_printf(&rec->log,
                "header bytes=%u ident=0x%08x point=%u version=%llu split=%u stream=%u "
                "memorder=%u pad=",
                h->header_bytes, h->ident, h->global_point, (unsigned long long)h->version,
                h->split_type, h->stream_type, h->mem_order);
    tlog_hex(&rec->log, h->pad.data, h->pad.len);
    tlog_printf(&rec->log, "\n");
    return rec_ret(rec);
}

static int s_snap(void *u, const tracerd_xtrace_snapshot_t *s)
{
    rec_t *rec = u;
    tlog_printf(&rec->log,
                "snapshot @%llu #%llu file=%llu index=%llu user=%llu total=%llu x0=0x%llx "
                "x1=0x%llx x31=0x%llx\n",
                (unsigned long long)s->offset, (unsigned long long)s->index,
                (unsigned long long)s->file_no, (unsigned long long)s->file_index,
                (unsigned long long)s->user_insns, (unsigned long long)s->total_insns,
                (unsigned long long)s->x[0], (unsigned long long)s->x[1],
                (unsigned long long)s->x[31]);
    rec_fold_bytes(rec, s->x, sizeof s->x); /* the registers the line leaves out */
    return rec_ret(rec);
}

static int s_end(void *u, const tracerd_xtrace_snapshot_end_t *e)
{
    rec_t *rec = u;
    tlog_printf(&rec->log,
                "snapshot_end @%llu #%llu fpcr=0x%llx fpsr=0x%llx nzcv=0x%llx tpidr_el0=0x%llx "
                "tpidrro_el0=0x%llx ttbr0_el1=0x%llx elr_el1=0x%llx spsr_el1=0x%llx "
                "esr_el1=0x%llx tpidr_el1=0x%llx daif=0x%llx vl=%llu\n",
                (unsigned long long)e->offset, (unsigned long long)e->index,
                (unsigned long long)e->fpcr, (unsigned long long)e->fpsr,
                (unsigned long long)e->nzcv, (unsigned long long)e->tpidr_el0,
                (unsigned long long)e->tpidrro_el0, (unsigned long long)e->ttbr0_el1,
                (unsigned long long)e->elr_el1, (unsigned long long)e->spsr_el1,
                (unsigned long long)e->esr_el1, (unsigned long long)e->tpidr_el1,
                (unsigned long long)e->daif, (unsigned long long)e->vector_length_bits);
    return rec_ret(rec);
}

static tracerd_status_t snap_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                                  void **reader)
{
    tracerd_xtrace_snap_callbacks_t cb;
    tracerd_xtrace_snap_callbacks_init(&cb);
    cb.on_layout = s_layout;
    cb.on_header = s_header;
    cb.on_snapshot = s_snap;
    cb.on_register = r_frag;
    cb.on_snapshot_end = s_end;
    cb.on_warning = r_warn;
    return tracerd_xtrace_snap_new(config, &cb, rec, alloc,
                                   (tracerd_xtrace_snap_reader_t **)reader);
}

const drv_target_t xtrace_snap_target = {"xtrace-snap", snap_open, tracerd_xtrace_snap_ops,
                                          NULL};

/* ---- COUNT mode (bench/bench_xtrace.c) -------------------------------------- */

static int c_insn(void *u, const tracerd_xtrace_insn_t *x)
{
    xtrace_insn_counts_t *c = u;
    c->insns++;
    c->pcsum += x->pc;
    return 0;
}

static int c_mem(void *u, const tracerd_xtrace_mem_t *m)
{
    xtrace_insn_counts_t *c = u;
    c->mems++;
    c->pcsum += m->addr;
    return 0;
}

void xtrace_insn_count_callbacks(tracerd_xtrace_insn_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->on_insn = c_insn;
    cb->on_mem = c_mem;
}

static int c_snap(void *u, const tracerd_xtrace_snapshot_t *s)
{
    xtrace_snap_counts_t *c = u;
    c->snaps++;
    c->bytes += s->x[0];
    return 0;
}

static int c_reg(void *u, const tracerd_span_t *s)
{
    xtrace_snap_counts_t *c = u;
    c->regs++;
    c->bytes += s->len;
    return 0;
}

void xtrace_snap_count_callbacks(tracerd_xtrace_snap_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->on_snapshot = c_snap;
    cb->on_register = c_reg;
}
