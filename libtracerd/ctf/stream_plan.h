/* The CTF stream reader's compiled fast forms: the delivery plans' runner
 * (run_plan: every field of an event with each record's fixed part made at
 * compile time, to on_field or in on_fields batches) and the measure-only
 * runner for records of fixed layout (run_fast).
 *
 * Included once, by stream.c, after stream_vm.h (whose loaders, fragments
 * and general runner it falls back on): static functions in one translation
 * unit, so that they inline into the record loop. */
#ifndef TRACERD_CTF_STREAM_PLAN_H
#define TRACERD_CTF_STREAM_PLAN_H

#ifndef TRACERD_CTF_STREAM_C
#error "stream_plan.h is part of stream.c: include it there only"
#endif

/* on_field with a record the plan loop made (f->enum_label reset after
 * it): R_OK, or R_ERR when the callback stopped the reading. */
static TRACERD__INLINE int plan_call(tracerd_ctf_stream_t *r, tracerd_ctf_field_cb on_field,
                                     void *user, tracerd_ctf_field_t *f)
{
    int rc = on_field(user, f);
    f->enum_label = NULL;
    return TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE) &&
                   tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0
               ? R_ERR
               : R_OK;
}

/* The records of static segment steps q .. qe - 1 (compile_plan.c,
 * mark_segments) whose first field is at b, into o, o + 1, ... (seg_each:
 * one step at a time, into the reader's record): each value at its step's
 * offset from b, sign-extended, with the step's fixed part and offset; what
 * the slow steps add is seg_slow's. wide (a constant in each copy): every
 * field a little-endian integer or a struct limit with 8 bytes past the
 * segment in the input, one 8-byte load each. Returns the record after the
 * last. */
static TRACERD__INLINE tracerd_ctf_field_t *seg_records(const struct ctf_pop *q,
                                                        const struct ctf_pop *const qe,
                                                        const uint8_t *b, tracerd_ctf_field_t *o,
                                                        uint64_t off0, const bool wide)
{
    for (; q < qe; q++, o++) {
        const struct ctf_insn *qi = &q->in;
        const uint8_t *fb = b + q->seg_off;
        uint64_t w;
        if (wide) {
            w = tracerd__le64(fb) & q->seg_mask; /* struct limits: 0 */
        } else if (FIXED_OP(qi->op)) {
            w = load_fixed(qi->op, fb);
        } else if (qi->op == OP_FLOAT32 || qi->op == OP_FLOAT64) {
            double d = load_float(fb, 0, qi);
            memcpy(&w, &d, sizeof w);
        } else {
            w = 0; /* struct limits */
        }
        memcpy((char *)o + CTF_TMPL_FIRST, &q->t, CTF_TMPL_BYTES);
        o->v.u = (w ^ q->seg_sbit) - q->seg_sbit; /* sign-extended (sbit 0: as it is) */
        o->offset = off0 + q->seg_off;
    }
    return o;
}

/* What a slow step of a static segment (seg_slow: a stored value, an
 * enumeration, an element) adds to its record o, made by seg_records. */
static TRACERD__INLINE void seg_slow(tracerd_ctf_stream_t *r, const struct vm *vm,
                                     const struct ctf_pop *q, tracerd_ctf_field_t *o,
                                     const struct loop *loops, uint32_t sp, const bool batch)
{
    const struct ctf_insn *qi = &q->in;
    if (qi->slot)
        store_int(r, vm, qi, o->v.u);
    if (q->enum_label) {
        o->enum_label = enum_label(qi->meta->type, o->v.u);
        if (batch)
            batch_mark(r, (size_t)(o - r->batch));
    }
    if (q->elem)
        o->index = (int64_t)loops[sp - 1].i;
}

/* The records of static segment steps p .. qe - 1 one by one to on_field
 * (in f, whose members no step sets are as a new record's): R_OK, or R_ERR
 * when the callback stopped the reading. wide: as seg_records'. */
static TRACERD__INLINE int seg_each(tracerd_ctf_stream_t *r, const struct vm *vm,
                                    const struct ctf_pop *p, const struct ctf_pop *const qe,
                                    const uint8_t *b, tracerd_ctf_field_t *f, uint64_t off0,
                                    const struct loop *loops, uint32_t sp, const bool wide)
{
    for (const struct ctf_pop *q = p; q < qe; q++) {
        seg_records(q, q + 1, b, f, off0, wide);
        if (TRACERD__UNLIKELY(q->seg_slow))
            seg_slow(r, vm, q, f, loops, sp, false);
        if (plan_call(r, r->cb.on_field, r->core.user, f) != R_OK)
            return R_ERR;
    }
    return R_OK;
}

/* The elements j .. n - 1 of an array or sequence whose only step is p
 * (compile_plan.c, mark_vectors), the first at fb (stream offset off),
 * each vec_stride bits after the one before, all in the input: into *o on
 * (batch: *o advanced; the caller made room) or one by one to on_field (*o
 * the reader's record). R_OK, or R_ERR when the callback stopped the
 * reading. wide (a constant in each copy): each element one 8-byte load,
 * masked and sign-extended, 8 bytes past the last one in the input. */
static TRACERD__INLINE int vec_records(tracerd_ctf_stream_t *r, struct vm *vm,
                                       const struct ctf_pop *p, const uint8_t *fb, uint64_t off,
                                       uint64_t j, const uint64_t n, tracerd_ctf_field_t **po,
                                       const bool batch, const bool wide)
{
    const struct ctf_insn *in = &p->in;
    const uint32_t sb = p->vec_stride / 8;
    tracerd_ctf_field_t *o = *po;
    for (; j < n; j++, fb += sb, off += sb) {
        if (wide) {
            const uint64_t w = tracerd__le64(fb) & p->seg_mask;
            o->v.u = (w ^ p->seg_sbit) - p->seg_sbit;
        } else if (FIXED_OP(in->op)) {
            uint64_t v = load_fixed(in->op, fb);
            if (in->flags & INSN_SIGNED)
                v = sext(v, in->size);
            if (in->slot)
                store_int(r, vm, in, v);
            o->v.u = v;
            if (p->enum_label) {
                o->enum_label = enum_label(in->meta->type, v);
                if (batch)
                    batch_mark(r, (size_t)(o - r->batch));
            }
        } else {
            o->v.f = load_float(fb, 0, in);
        }
        memcpy((char *)o + CTF_TMPL_FIRST, &p->t, CTF_TMPL_BYTES);
        o->index = (int64_t)j;
        o->offset = off;
        if (batch)
            o++;
        else if (plan_call(r, r->cb.on_field, r->core.user, o) != R_OK)
            return R_ERR;
    }
    *po = o;
    return R_OK;
}

/* Delivers a plan (compile_plan.c, build_plan) from vm->pos: the same records,
 * checks and errors as the general program (run_body) whose steps it
 * follows, with the fixed part of each record copied as one block from the
 * step's template and the nesting known at compile time. batch (a constant
 * in each copy): each record is written in place in the next slot of the
 * on_fields batch (every member of it: the slot held another record), and
 * delivered when the batch is full or, by the caller, when the event ends
 * (batch_end); else one record is kept and passed to on_field, and only the
 * members a record set are reset after it. */
static TRACERD__INLINE int run_plan_body(tracerd_ctf_stream_t *r, struct vm *vm,
                                         const struct ctf_pop *plan, const bool batch)
{
    uint64_t pos = vm->pos;
    const uint64_t bit0 = vm->bit0, limit = vm->limit, pkt_off = r->pkt_off;
    const uint8_t *data = vm->data;
    uint64_t *slots = r->slots;
    struct loop *loops = r->loops;
    const struct ctf_pop *next = plan;
    const tracerd_ctf_field_cb on_field = r->cb.on_field;
    void *user = r->core.user;
    const uint64_t frag = r->frag;
    uint64_t fn; /* frag: the value's length (UINT64_MAX: up to its NUL) */
    uint32_t sp = vm->sp;
    tracerd_ctf_field_t f, *o = &f;
    /* batch: the next slot (r->batch_n is brought up to date before any
     * call out of this loop and on return) */
    tracerd_ctf_field_t *const b0 = r->batch; /* NULL without on_fields */
    tracerd_ctf_field_t *const bend = batch ? b0 + TRACERD_CTF_BATCH_RECORDS : NULL;
    if (batch) {
        o = b0 + r->batch_n;
        if (r->batch_hform != NULL && r->batch_n < r->batch_hform->n)
            batch_drop_hform(r); /* over a header form's records */
    }
    if (!batch) { /* what no step sets (the others: every step) */
        f.enum_label = NULL;
        f.option = NULL;
        f.bytes.data = NULL;
        f.bytes.len = 0;
        f.frag = TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST; /* a plan delivers values whole */
        f.frag_offset = 0;
    }
    r->core.in_cb = true; /* between the calls only this loop runs; cleared on every return */
    int ret = R_OK;
    for (;;) {
        const struct ctf_pop *p = next++;
        const struct ctf_insn *in = &p->in;
        bool dirty = false; /* enum_label, option or bytes set */
        uint64_t at = (pos + in->align - 1) & ~((uint64_t)in->align - 1), v;
        bool end = false;  /* an empty array/sequence: its end follows at once */
        uint32_t isp = sp; /* loops around the record (its index is the innermost's) */
        if (p->seg_n != 0 && TRACERD__LIKELY(at + (uint64_t)p->seg_bytes * 8 <= limit) &&
            (!batch || (size_t)((const char *)bend - (const char *)o) > p->seg_room)) {
            /* A static segment (compile_plan.c): each field at its offset
             * from the first, all in the input (one check), the batch room
             * for all of them. The same records as the steps one by one. */
            const uint8_t *b = data + ((at - bit0) >> 3);
            const uint64_t off0 = pkt_off + (at >> 3);
            const struct ctf_pop *const qe = p + p->seg_n;
            /* little-endian integers and struct limits with 8 bytes past
             * the segment in the input: each one 8-byte load, masked */
            const bool wide = p->seg_wide && at + ((uint64_t)p->seg_bytes + 8) * 8 <= limit;
            if (batch) {
                /* every record written, then what the slow steps add */
                tracerd_ctf_field_t *const o0 = o;
                o = TRACERD__LIKELY(wide) ? seg_records(p, qe, b, o, off0, true)
                                          : seg_records(p, qe, b, o, off0, false);
                if (TRACERD__UNLIKELY(p->seg_slow_any))
                    for (const struct ctf_pop *q = p; q < qe; q++)
                        if (q->seg_slow)
                            seg_slow(r, vm, q, o0 + (q - p), loops, sp, true);
            } else if ((TRACERD__LIKELY(wide)
                            ? seg_each(r, vm, p, qe, b, &f, off0, loops, sp, true)
                            : seg_each(r, vm, p, qe, b, &f, off0, loops, sp, false)) != R_OK) {
                goto fail;
            }
            pos = at + (uint64_t)p->seg_bytes * 8;
            next = qe;
            if (qe->in.op == OP_END) { /* the plan's last step: as its case below */
                vm->pos = pos;
                goto out;
            }
            continue;
        }
        if (p->vec_stride != 0) {
            /* An array's or sequence's elements from this one on, each at
             * its stride, all in the input (one check) and, for on_fields,
             * in the batch: then the loop step ends the loop. */
            struct loop *lp = &loops[sp - 1];
            const uint64_t left = lp->n - lp->i, stride = p->vec_stride;
            /* wide: each element one 8-byte load, masked and
             * sign-extended (as a wide segment's), where 8 bytes past the
             * last one lie in the input */
            const bool wide = p->vec_wide && at + (left - 1) * stride + 64 <= limit;
            if ((wide || at + (left - 1) * stride + in->size <= limit) &&
                (!batch || (uint64_t)(bend - o) > left)) {
                const uint8_t *fb = data + ((at - bit0) >> 3);
                const uint64_t off = pkt_off + (at >> 3);
                if ((TRACERD__LIKELY(wide)
                         ? vec_records(r, vm, p, fb, off, lp->i, lp->n, &o, batch, true)
                         : vec_records(r, vm, p, fb, off, lp->i, lp->n, &o, batch, false)) != R_OK)
                    goto fail;
                pos = at + (left - 1) * stride + in->size;
                lp->i = lp->n - 1;
                p = next++; /* the loop step (mark_vectors): its case at once */
                in = &p->in;
                goto loop_step;
            }
        }
        switch (in->op) {
        case OP_END:
            vm->pos = pos;
            goto out;
        case OP_JUMP: /* the end of a variant option */
            next = plan + in->jump;
            continue;
            /* the byte-aligned loads, each its own case (one dispatch per field) */
#define PLAN_LOAD(OP)                                                                              \
    case OP: {                                                                                     \
        if (TRACERD__UNLIKELY(at + in->size > limit))                                              \
            goto short_field;                                                                      \
        const uint8_t *b = data + ((at - bit0) >> 3);                                              \
        v = load_fixed(OP, b);                                                                     \
        if (in->flags & INSN_SIGNED)                                                               \
            v = sext(v, in->size);                                                                 \
        goto plan_int;                                                                             \
    }
            PLAN_LOAD(OP_U8)
            PLAN_LOAD(OP_U16LE)
            PLAN_LOAD(OP_U16BE)
            PLAN_LOAD(OP_U32LE)
            PLAN_LOAD(OP_U32BE)
            PLAN_LOAD(OP_U64LE)
            PLAN_LOAD(OP_U64BE)
#undef PLAN_LOAD
        case OP_INT:
            if (TRACERD__UNLIKELY(at + in->size > limit))
                goto short_field;
            v = load_int(data, (size_t)((limit - bit0) >> 3), at - bit0, in); /* (limit > at) */
        plan_int:
            pos = at + in->size;
            if (in->slot)
                store_int(r, vm, in, v);
            o->v.u = v;
            if (p->enum_label) {
                o->enum_label = enum_label(in->meta->type, v);
                dirty = true;
            }
            break;
        case OP_FLOAT32:
        case OP_FLOAT64: {
            if (TRACERD__UNLIKELY(at + in->size > limit))
                goto short_field;
            pos = at + in->size;
            o->v.f = load_float(data, at - bit0, in);
            break;
        }
        case OP_STRING: {
            const uint8_t *q = NULL, *z = string_nul(vm, at, &q);
            size_t n = 0;
            fn = UINT64_MAX;
            if (TRACERD__LIKELY(z != NULL)) { /* (else load_string says why) */
                n = (size_t)(z - q);
                pos = at + ((uint64_t)n + 1) * 8;
            }
            if (TRACERD__UNLIKELY((z == NULL && load_string(r, vm, in, at, &q, &n, &pos) != R_OK) ||
                                  n > frag))
                goto frag; /* fragments, and the same error after them (as run_body) */
            o->v.str.data = (const char *)q;
            o->v.str.len = n;
            break;
        }
        case OP_TEXT_ARRAY:
        case OP_TEXT_SEQ: {
            const uint8_t *q = NULL;
            uint64_t n = in->op == OP_TEXT_ARRAY ? in->count : slots[in->slot];
            if (TRACERD__UNLIKELY(n > frag)) {
                if (in->op == OP_TEXT_SEQ && check_seq_length(r, vm, in, at, n) != R_OK)
                    goto fail;
                fn = n;
                goto frag;
            }
            if ((ret = load_text(r, vm, in, at, &q, &n)) != R_OK)
                goto out;
            o->v.str = text_str(q, n);
            pos = at + n * 8;
            break;
        }
        case OP_STRUCT_BEGIN:
            if (at > limit)
                goto short_at;
            pos = at;
            o->v.u = 0;
            break;
        case OP_ARRAY_BEGIN:
        case OP_SEQ_BEGIN: {
            uint64_t n = in->op == OP_ARRAY_BEGIN ? in->count : slots[in->slot];
            if (in->op == OP_SEQ_BEGIN && check_seq_length(r, vm, in, at, n) != R_OK)
                goto fail;
            if (at > limit)
                goto short_at;
            pos = at;
            o->v.length = n;
            if ((in->flags & INSN_BYTES) && n <= frag && n <= (limit - at) / 8) {
                o->bytes.data = data + ((at - bit0) >> 3);
                o->bytes.len = (size_t)n;
                dirty = true;
            }
            if (n == 0 || plan + in->jump == next) {
                end = true;
                next = plan + in->jump;
            } else {
                loops[sp].n = n;
                loops[sp].i = 0;
                vm->sp = ++sp;
            }
            break;
        }
        case OP_ARRAY_NEXT:
        case OP_SEQ_NEXT:
        loop_step:
            if (++loops[sp - 1].i < loops[sp - 1].n) {
                next = plan + in->jump;
                continue;
            }
            isp = vm->sp = --sp;
            at = pos;
            o->v.u = 0;
            break;
        case OP_VARIANT: {
            const struct ctf_meta *m = in->meta;
            uint64_t tag = slots[in->slot];
            bool sgn = (in->flags & INSN_SIGNED) != 0;
            uint32_t k = tracerd__ctf_range_find(m->vranges, m->nvranges, ctf_range_key(tag, sgn));
            if (TRACERD__UNLIKELY(k >= m->nvsel)) {
                vm->pos = pos;
                ret = vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                              sgn ? "variant tag value %lld selects no option"
                                  : "variant tag value %llu selects no option",
                              (unsigned long long)tag);
                goto out;
            }
            if (TRACERD__UNLIKELY(m->kill != NULL))
                loc_flags(slots, m, m->vsel[k].option);
            o->option = m->option_names[m->vsel[k].option];
            dirty = true;
            o->v.u = 0;
            next = plan + p->targets[k];
            break;
        }
        default: /* OP_STRUCT_END, OP_VARIANT_END */
            at = pos;
            o->v.u = 0;
            break;
        }
        memcpy((char *)o + CTF_TMPL_FIRST, &p->t, CTF_TMPL_BYTES);
        if (p->elem)
            o->index = (int64_t)loops[isp - 1].i;
        o->offset = pkt_off + (at >> 3);
        if (batch) {
            tracerd_ctf_field_t *e = o;
            if (TRACERD__UNLIKELY(dirty))
                batch_mark(r, (size_t)(o - b0));
            if (TRACERD__UNLIKELY(++o == bend)) {
                r->batch_n = TRACERD_CTF_BATCH_RECORDS;
                o = b0;
                if (batch_flush(r) != R_OK)
                    goto fail;
                batch_drop_hform(r); /* the next records go over the first slots */
            }
            if (TRACERD__UNLIKELY(end)) { /* e's slot stays as it was after a flush */
                *o = *e;
                o->kind = in->op == OP_ARRAY_BEGIN ? TRACERD_CTF_VALUE_ARRAY_END
                                                   : TRACERD_CTF_VALUE_SEQUENCE_END;
                o->v.u = 0;
                o->bytes.data = NULL;
                o->bytes.len = 0;
                if (TRACERD__UNLIKELY(++o == bend)) {
                    r->batch_n = TRACERD_CTF_BATCH_RECORDS;
                    o = b0;
                    if (batch_flush(r) != R_OK)
                        goto fail;
                    batch_drop_hform(r);
                }
            }
            continue;
        }
        int rc = on_field(user, &f);
        if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE) &&
            tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0)
            goto fail;
        if (TRACERD__UNLIKELY(dirty)) {
            f.enum_label = NULL;
            f.option = NULL;
            f.bytes.data = NULL;
            f.bytes.len = 0;
        }
        if (TRACERD__UNLIKELY(end)) {
            f.kind = in->op == OP_ARRAY_BEGIN ? TRACERD_CTF_VALUE_ARRAY_END
                                              : TRACERD_CTF_VALUE_SEQUENCE_END;
            f.v.u = 0;
            rc = on_field(user, &f);
            if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE) &&
                tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0)
                goto fail;
        }
        continue;
    short_field:
        vm->pos = at;
        ret = vm_short(r, vm, in, at + in->size);
        goto out;
    short_at:
        vm->pos = at;
        ret = vm_short(r, vm, in, at);
        goto out;
    frag:
        /* a value longer than a fragment: delivered as run_body does */
        vm->depth = p->t.depth;
        if (batch)
            r->batch_n = (uint32_t)(o - b0);
        ret = frag_value(r, vm, in, p->t.scope, at, fn, true, &pos);
        if (batch)
            o = b0 + r->batch_n;
        r->core.in_cb = true;
        if (ret != R_OK)
            goto out;
    }
fail:
    ret = R_ERR;
out:
    if (batch)
        r->batch_n = (uint32_t)(o - b0);
    r->core.in_cb = false;
    return ret;
}

/* The two copies of the plan interpreter: records to on_field, or gathered
 * for on_fields (the caller delivers what is left: batch_end). */
static TRACERD__NOINLINE int run_plan_each(tracerd_ctf_stream_t *r, struct vm *vm,
                                           const struct ctf_pop *plan)
{
    return run_plan_body(r, vm, plan, false);
}

static TRACERD__NOINLINE int run_plan_batch(tracerd_ctf_stream_t *r, struct vm *vm,
                                            const struct ctf_pop *plan)
{
    return run_plan_body(r, vm, plan, true);
}

static inline int run_plan(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_pop *plan)
{
    return r->batch != NULL ? run_plan_batch(r, vm, plan) : run_plan_each(r, vm, plan);
}

/* An LTTng event header (the stream class has hform: compile_plan.c,
 * tracerd__cc_lttng_forms) from vm->pos: its form's records, with the values
 * the measure stored (the id and timestamp; the extended form's tag), each
 * stored in its slot as the plan stores it: the same records and slots as
 * run_plan(header_plan), which delivers a header cut short (its errors) or
 * one that would not fit the on_fields batch. */
static TRACERD__INLINE int run_lttng_header(tracerd_ctf_stream_t *r, struct vm *vm)
{
    const struct ctf_stream_rt *s = r->srt;
    const struct ctf_hform *h = &s->hform[r->ts_bits == 64];
    const uint64_t at = (vm->pos + 7) & ~(uint64_t)7;
    const uint32_t n = h->n;
    if (TRACERD__UNLIKELY(at + h->bits > vm->limit) ||
        (r->batch != NULL && r->batch_n + n > TRACERD_CTF_BATCH_RECORDS))
        return run_plan(r, vm, s->header_plan);
    /* the form's records: where they are already (the batch's first slots
     * after the same form, the reader's copy for on_field), else copied */
    const int form = r->ts_bits == 64;
    tracerd_ctf_field_t *o;
    if (r->batch != NULL) {
        o = r->batch + r->batch_n;
        if (r->batch_n != 0 || r->batch_hform != h) {
            batch_drop_hform(r); /* its labels and options cleared */
            memcpy(o, h->recs, sizeof *o * n);
            if (r->batch_n == 0)
                r->batch_hform = h; /* kept (its records' labels and options too) */
            else
                for (uint32_t i = 0; i < n; i++)
                    batch_mark(r, r->batch_n + i);
        }
    } else {
        o = r->hrec + form * CTF_HFORM_RECORDS;
        if (r->hrec_of[form] != h) {
            memcpy(o, h->recs, sizeof *o * n);
            r->hrec_of[form] = h;
        }
    }
    /* the offsets, four records a round (the forms have 8 or 9) */
    const uint64_t base = r->pkt_off + (at >> 3);
    const tracerd_ctf_field_t *hr = h->recs;
    tracerd_ctf_field_t *d = o;
    uint32_t m = n;
    for (; m >= 4; m -= 4, hr += 4, d += 4) {
        d[0].offset = base + hr[0].offset;
        d[1].offset = base + hr[1].offset;
        d[2].offset = base + hr[2].offset;
        d[3].offset = base + hr[3].offset;
    }
    for (; m > 0; m--, hr++, d++)
        d->offset = base + hr->offset;
    /* the values (two in the compact form, three in the extended one);
     * their slots hold them already (the measure's; compile_plan.c) */
    const uint64_t src[3] = {r->slots[ROLE_EVENT_ID], r->slots[ROLE_TIMESTAMP], s->htag_max};
    o[h->val[0].rec].v.u = src[h->val[0].src];
    o[h->val[1].rec].v.u = src[h->val[1].src];
    if (h->nval > 2)
        o[h->val[2].rec].v.u = src[h->val[2].src];
    vm->pos = at + h->bits;
    if (r->batch != NULL) {
        r->batch_n += n;
        return R_OK;
    }
    const tracerd_ctf_field_cb on_field = r->cb.on_field;
    r->core.in_cb = true;
    for (uint32_t i = 0; i < n; i++) {
        int rc = on_field(r->core.user, &o[i]); /* (o keeps its labels: not plan_call) */
        if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE) &&
            tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0) {
            r->core.in_cb = false;
            return R_ERR;
        }
    }
    r->core.in_cb = false;
    return R_OK;
}

/* An LTTng event header (OP_LTTNG_COMPACT or OP_LTTNG_LARGE, its compact
 * and extended forms) from bit pos: the id and timestamp into their slots,
 * vm->pos after it; or what vm_short says. */
static TRACERD__INLINE int lttng_measure(tracerd_ctf_stream_t *r, struct vm *vm,
                                         const struct ctf_insn *in, uint64_t pos)
{
    const uint64_t limit = vm->limit, bit0 = vm->bit0;
    const uint8_t *data = vm->data, *p;
    uint64_t *slots = r->slots;
    const uint64_t at = (pos + 7) & ~(uint64_t)7;
    bool big = (in->flags & INSN_BE) != 0, compact = in->op == OP_LTTNG_COMPACT;
    uint64_t hb = compact ? 32 : 48, id, ts;
    if (at + hb > limit) {
        vm->pos = at;
        return vm_short(r, vm, in, at + hb);
    }
    p = data + ((at - bit0) >> 3);
    uint32_t tsb;
    if (compact) {
        if (big) {
            id = p[0] >> 3;
            ts = tracerd__be32(p) & 0x7FFFFFFu;
        } else {
            uint32_t w = tracerd__le32(p);
            id = w & 31u;
            ts = w >> 5;
        }
        tsb = 27;
    } else {
        id = tracerd__ld16(big, p);
        ts = tracerd__ld32(big, p + 2);
        tsb = 32;
    }
    pos = at + hb;
    if (id == (compact ? 31u : 65535u)) {
        uint64_t off = compact ? 1 : 2; /* bytes before the extended struct */
        if (at + (off + 12) * 8 > limit) {
            vm->pos = at;
            return vm_short(r, vm, in, at + (off + 12) * 8);
        }
        id = tracerd__ld32(big, p + off);
        ts = tracerd__ld64(big, p + off + 4);
        tsb = 64;
        pos = at + (off + 12) * 8;
    }
    slots[ROLE_EVENT_ID] = id;
    slots[ROLE_TIMESTAMP] = ts;
    r->ts_bits = tsb;
    r->have |= (1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP);
    vm->pos = pos;
    return R_OK;
}

/* Runs a measure-only program (fused skips, stored integers, strings,
 * sequences of fixed elements, LTTng headers). */
static int run_fast(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *code)
{
    uint64_t pos = vm->pos;
    const uint64_t limit = vm->limit, bit0 = vm->bit0;
    const size_t nbytes = limit > bit0 ? (size_t)((limit - bit0) >> 3) : 0; /* readable */
    const uint8_t *data = vm->data;
    uint64_t *slots = r->slots;
    for (;; code++) {
        const struct ctf_insn *in = code;
        uint64_t v, at = (pos + in->align - 1) & ~((uint64_t)in->align - 1);
        const uint8_t *p;
        switch (in->op) {
        case OP_END:
            vm->pos = pos;
            return R_OK;
        case OP_SKIP:
            if (TRACERD__UNLIKELY(at + in->count > limit))
                goto short_at;
            pos = at + in->count;
            continue;
        case OP_STRING: {
            size_t n;
            int rc = load_string(r, vm, in, at, &p, &n, &pos);
            if (rc != R_OK)
                return rc;
            continue;
        }
        case OP_SEQ_SKIP: {
            uint64_t n = slots[in->slot];
            if (check_seq_length(r, vm, in, at, n) != R_OK)
                return R_ERR;
            uint64_t bits = n * in->count;
            if (!seq_fits(at, n, in->count, limit)) {
                vm->pos = at;
                return vm_short(r, vm, in,
                                in->count != 0 && n > (UINT64_MAX - at) / in->count ? UINT64_MAX
                                                                                    : at + bits);
            }
            pos = at + bits;
            continue;
        }
        case OP_LTTNG_COMPACT:
        case OP_LTTNG_LARGE: {
            int rc = lttng_measure(r, vm, in, pos);
            if (rc != R_OK)
                return rc;
            pos = vm->pos;
            continue;
        }
        default:
            break;
        }
        /* integers with a stored value */
        if (TRACERD__UNLIKELY(at + in->size > limit))
            goto short_at;
        v = load_int(data, nbytes, at - bit0, in);
        pos = at + in->size;
        store_int(r, vm, in, v);
        continue;
    short_at:
        vm->pos = at;
        return vm_short(r, vm, in, at + (in->op == OP_SKIP ? in->count : in->size));
    }
}

#endif /* TRACERD_CTF_STREAM_PLAN_H */
