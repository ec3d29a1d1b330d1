/* CTF compiler: delivery plans (the programs of an event with every
 * record's fixed part computed once, for stream.c's run_plan). */
#include "compile.h"

/* ==== delivery plans ========================================================= */

/* Whether the plan interpreter (stream.c, run_plan) handles the instruction. */
static bool plan_op(const struct ctf_insn *in)
{
    if (INT_OP(in->op))
        return true;
    switch (in->op) {
    case OP_FLOAT32:
    case OP_FLOAT64:
    case OP_STRING:
    case OP_STRUCT_BEGIN:
    case OP_STRUCT_END:
    case OP_ARRAY_BEGIN:
    case OP_ARRAY_NEXT:
    case OP_SEQ_BEGIN:
    case OP_SEQ_NEXT:
    case OP_VARIANT:
    case OP_JUMP:
    case OP_VARIANT_END:
        return true;
    case OP_TEXT_ARRAY:
    case OP_TEXT_SEQ:
        return !(in->flags & INSN_UTF);
    default:
        return false;
    }
}

/* The record kind an instruction delivers (the begin of a compound). */
static tracerd_ctf_value_kind_t plan_kind(const struct ctf_insn *in)
{
    switch (in->op) {
    case OP_FLOAT32:
    case OP_FLOAT64:
        return TRACERD_CTF_VALUE_FLOAT;
    case OP_STRING:
    case OP_TEXT_ARRAY:
    case OP_TEXT_SEQ:
        return TRACERD_CTF_VALUE_STRING;
    case OP_STRUCT_BEGIN:
        return TRACERD_CTF_VALUE_STRUCT_BEGIN;
    case OP_STRUCT_END:
        return TRACERD_CTF_VALUE_STRUCT_END;
    case OP_ARRAY_BEGIN:
        return TRACERD_CTF_VALUE_ARRAY_BEGIN;
    case OP_ARRAY_NEXT:
        return TRACERD_CTF_VALUE_ARRAY_END;
    case OP_SEQ_BEGIN:
        return TRACERD_CTF_VALUE_SEQUENCE_BEGIN;
    case OP_SEQ_NEXT:
        return TRACERD_CTF_VALUE_SEQUENCE_END;
    case OP_VARIANT:
        return TRACERD_CTF_VALUE_VARIANT_BEGIN;
    case OP_VARIANT_END:
        return TRACERD_CTF_VALUE_VARIANT_END;
    default:
        return (in->flags & INSN_BOOL)     ? TRACERD_CTF_VALUE_BOOL
               : (in->flags & INSN_SIGNED) ? TRACERD_CTF_VALUE_INT
                                           : TRACERD_CTF_VALUE_UINT;
    }
}

/* Whether plan step p may belong to a static segment that starts aligned
 * to `align` bits: whole bytes, no alignment above the segment's. */
static bool seg_op(const struct ctf_pop *p, uint32_t align)
{
    const struct ctf_insn *in = &p->in;
    if (in->align > align || (in->flags & INSN_REV))
        return false;
    if (FIXED_OP(in->op))
        return true;
    switch (in->op) {
    case OP_FLOAT32:
    case OP_FLOAT64:
        return in->size == 32 || in->size == 64;
    case OP_STRUCT_BEGIN:
    case OP_STRUCT_END:
        return true;
    default:
        return false;
    }
}

/* Marks the static segments of a plan of n steps: runs of at least two
 * steps from one aligned to a byte or more whose fields all lie at offsets
 * known from its start (stream.c, run_plan, reads them with one bound
 * check and no alignment or dispatch of the general loop). */
static void mark_segments(struct ctf_pop *plan, uint32_t n)
{
    for (uint32_t k = 0; k < n;) {
        const uint32_t align = plan[k].in.align;
        uint32_t e = k;
        uint64_t off = 0; /* bits from the first step's start */
        bool wide = true; /* every field a little-endian integer or a struct limit */
        bool slow = false;
        if (align >= 8)
            for (; e < n && seg_op(&plan[e], align); e++) {
                off = (off + plan[e].in.align - 1) & ~((uint64_t)plan[e].in.align - 1);
                if (off / 8 > UINT32_MAX / 2)
                    break;
                const struct ctf_insn *in = &plan[e].in;
                plan[e].seg_off = (uint32_t)(off / 8);
                plan[e].seg_slow = in->slot != 0 || plan[e].enum_label || plan[e].elem;
                slow = slow || plan[e].seg_slow;
                plan[e].seg_mask = !FIXED_OP(in->op) ? 0
                                   : in->size == 64  ? UINT64_MAX
                                                     : (UINT64_C(1) << in->size) - 1;
                plan[e].seg_sbit = FIXED_OP(in->op) && (in->flags & INSN_SIGNED)
                                       ? UINT64_C(1) << (in->size - 1)
                                       : 0;
                wide = wide &&
                       (in->op == OP_U8 || in->op == OP_U16LE || in->op == OP_U32LE ||
                        in->op == OP_U64LE || in->op == OP_STRUCT_BEGIN || in->op == OP_STRUCT_END);
                if (FIXED_OP(plan[e].in.op) || plan[e].in.op == OP_FLOAT32 ||
                    plan[e].in.op == OP_FLOAT64)
                    off += plan[e].in.size;
            }
        if (e - k >= 2) {
            plan[k].seg_n = e - k;
            plan[k].seg_bytes = (uint32_t)(off / 8);
            plan[k].seg_room = e - k < UINT32_MAX / sizeof(tracerd_ctf_field_t)
                                   ? (uint32_t)((e - k) * sizeof(tracerd_ctf_field_t))
                                   : UINT32_MAX;
            plan[k].seg_wide = wide;
            plan[k].seg_slow_any = slow;
            k = e;
        } else {
            k++;
        }
    }
}

/* Marks the loops of a plan of n steps whose body is one byte-aligned
 * integer or float (an array or sequence of them): its elements lie at a
 * fixed stride (its size rounded up to its alignment), so the plan loop
 * delivers them in one pass (stream_plan.h) instead of a step and a loop
 * step each. */
static void mark_vectors(struct ctf_pop *plan, uint32_t n)
{
    for (uint32_t k = 0; k + 2 < n; k++) {
        const struct ctf_insn *b = &plan[k].in, *e = &plan[k + 1].in, *x = &plan[k + 2].in;
        if ((b->op != OP_ARRAY_BEGIN && b->op != OP_SEQ_BEGIN) || b->jump == k + 1 ||
            (x->op != OP_ARRAY_NEXT && x->op != OP_SEQ_NEXT) || x->jump != k + 1 || e->align < 8 ||
            (e->flags & INSN_REV) ||
            !(FIXED_OP(e->op) ||
              ((e->op == OP_FLOAT32 || e->op == OP_FLOAT64) && (e->size == 32 || e->size == 64))))
            continue;
        struct ctf_pop *v = &plan[k + 1];
        v->vec_stride = (e->size + e->align - 1) & ~(e->align - 1);
        v->vec_wide =
            (e->op == OP_U8 || e->op == OP_U16LE || e->op == OP_U32LE || e->op == OP_U64LE) &&
            e->slot == 0 && !v->enum_label;
        if (v->vec_wide) {
            v->seg_mask = e->size == 64 ? UINT64_MAX : (UINT64_C(1) << e->size) - 1;
            v->seg_sbit = (e->flags & INSN_SIGNED) ? UINT64_C(1) << (e->size - 1) : 0;
        }
    }
}

/* The delivery plan of up to three programs (in order): every step with its
 * record's fixed part (scope, kind, names, type, nesting depth, whether it
 * is an element: all static, since every compound is balanced and variant
 * options follow one another). NULL when a program holds an instruction the
 * plan interpreter does not handle (CTF 2 LEB128, BLOBs, optionals, UTF-16/32
 * text, binary16/128 floats). */
tracerd_status_t tracerd__cc_build_plan(struct cc *c, const struct ctf_prog *const progs[3],
                                        const struct ctf_pop **out)
{
    *out = NULL;
    uint32_t n = 1;
    for (int i = 0; i < 3; i++)
        for (const struct ctf_insn *in = progs[i]->code; in != NULL && in->op != OP_END; in++) {
            if (!plan_op(in))
                return TRACERD_OK;
            n++;
        }
    struct ctf_pop *plan = tracerd__ctf_arena_alloc(c->ar, sizeof *plan * n);
    if (plan == NULL)
        return tracerd__cc_nomem(c);
    uint32_t k = 0;
    for (int i = 0; i < 3; i++) {
        const struct ctf_insn *code = progs[i]->code;
        uint32_t base = k, depth = 0, loops = 0;
        for (uint32_t pc = 0; code != NULL && code[pc].op != OP_END; pc++, k++) {
            const struct ctf_insn *in = &code[pc];
            struct ctf_pop *p = &plan[k];
            p->in = *in;
            p->in.jump = 0;
            if (p->in.align == 0) /* ends: no alignment of their own */
                p->in.align = 1;
            if (in->op == OP_JUMP) { /* the end of a variant option: no record */
                p->in.jump = in->jump + base;
                continue;
            }
            struct ctf_tmpl *t = &p->t;
            t->scope = progs[i]->scope;
            t->kind = plan_kind(in);
            t->name = in->meta->name;
            t->path = in->meta->path;
            t->type = in->meta->type;
            t->index = -1;
            switch (in->op) {
            case OP_STRUCT_BEGIN:
                t->depth = depth++;
                break;
            case OP_STRUCT_END:
                t->depth = --depth;
                break;
            case OP_ARRAY_BEGIN:
            case OP_SEQ_BEGIN:
                t->depth = depth;
                p->in.jump = in->jump + base;
                p->elem = in->meta->name[0] == '\0' && loops > 0;
                if (in->jump != pc + 1) { /* a loop over its elements */
                    depth++;
                    loops++;
                }
                continue;
            case OP_ARRAY_NEXT:
            case OP_SEQ_NEXT:
                t->depth = --depth;
                loops--;
                p->in.jump = in->jump + base;
                break;
            case OP_VARIANT: {
                /* options follow one another, each balanced: depths stay static */
                uint32_t *tg = tracerd__ctf_arena_alloc(c->ar, sizeof *tg * (in->meta->nvsel + 1));
                if (tg == NULL)
                    return tracerd__cc_nomem(c);
                for (uint32_t v = 0; v < in->meta->nvsel; v++)
                    tg[v] = in->meta->vsel[v].target + base;
                p->targets = tg;
                t->depth = depth++;
                break;
            }
            case OP_VARIANT_END:
                t->depth = --depth;
                break;
            default:
                t->depth = depth;
                p->enum_label = (in->flags & INSN_ENUM) != 0;
                break;
            }
            p->elem = in->meta->name[0] == '\0' && loops > 0;
        }
    }
    plan[k].in.op = OP_END;
    mark_segments(plan, k);
    mark_vectors(plan, k);
    *out = plan;
    return TRACERD_OK;
}

/* ==== record shapes ========================================================== */

/* The scope bit of a program's records when they may vary in number from
 * one event to the next (a sequence, variant or optional), in *vary. */
static void prog_shape(const struct ctf_prog *p, uint8_t *vary)
{
    for (uint32_t k = 0; p->code != NULL && k < p->len; k++)
        if (p->code[k].op == OP_SEQ_BEGIN || p->code[k].op == OP_VARIANT ||
            p->code[k].op == OP_OPTIONAL)
            *vary |= (uint8_t)(1u << p->scope);
}

/* The record shapes of stream class r's event classes (ctf_event_rt.shape):
 * a number per class from *next on (two when the header is an LTTng one,
 * whose compact and extended forms differ), and the scopes whose records
 * vary in number. */
void tracerd__cc_shapes(struct ctf_stream_rt *r, uint32_t *next)
{
    uint8_t hvary = 0, hdr2 = 0;
    const struct ctf_insn *hf = r->event_header.fast;
    if (hf != NULL && (hf->op == OP_LTTNG_COMPACT || hf->op == OP_LTTNG_LARGE))
        hdr2 = 1u << TRACERD_CTF_SCOPE_EVENT_HEADER;
    else
        prog_shape(&r->event_header, &hvary);
    prog_shape(&r->event_context, &hvary);
    const uint32_t forms = hdr2 ? 2 : 1;
    for (uint32_t e = 0; e < r->nevents; e++) {
        struct ctf_event_rt *er = &r->events[e];
        er->shape_vary = hvary;
        er->shape_hdr2 = hdr2;
        prog_shape(&er->context, &er->shape_vary);
        prog_shape(&er->fields, &er->shape_vary);
        if (*next > UINT32_MAX - forms) { /* no number left: never a fixed shape */
            er->shape = 0;
            er->shape_vary = 0xFF;
            continue;
        }
        er->shape = *next;
        *next += forms;
    }
}

/* ==== LTTng event headers ==================================================== */

/* The option a variant step selects for tag value v (its vsel index), or
 * UINT32_MAX. */
static uint32_t option_of(const struct ctf_insn *in, uint64_t v)
{
    const struct ctf_meta *m = in->meta;
    uint32_t k = tracerd__ctf_range_find(m->vranges, m->nvranges,
                                         ctf_range_key(v, (in->flags & INSN_SIGNED) != 0));
    return k < m->nvsel ? k : UINT32_MAX;
}

/* Whether integer type ty's enumeration label and variant step var's
 * option are the same for every value 0 .. max - 1 (max >= 1): their range
 * tables' answers, as one interval of keys (a signed key flips the sign
 * bit: still one interval for values from 0). */
static bool same_below(const tracerd_ctf_type_t *ty, const struct ctf_insn *var, uint64_t max)
{
    const struct ctf_type *t = (const struct ctf_type *)ty;
    const struct ctf_meta *m = var->meta;
    const bool vs = (var->flags & INSN_SIGNED) != 0;
    return tracerd__ctf_range_uniform(t->ranges, t->nranges, ctf_range_key(0, ty->is_signed),
                                      ctf_range_key(max - 1, ty->is_signed)) &&
           tracerd__ctf_range_uniform(m->vranges, m->nvranges, ctf_range_key(0, vs),
                                      ctf_range_key(max - 1, vs));
}

/* Whether every compact tag value (0 .. max - 1) selects the compact
 * option k0 and has the enumeration label of 0 (the form's records are then
 * the same for all of them). */
static bool compact_uniform(const struct ctf_pop *plan, uint64_t max)
{
    const struct ctf_insn *tag = NULL, *var = NULL;
    for (uint32_t k = 0; plan[k].in.op != OP_END && var == NULL; k++) {
        if (INT_OP(plan[k].in.op) && tag == NULL)
            tag = &plan[k].in;
        if (plan[k].in.op == OP_VARIANT)
            var = &plan[k].in;
    }
    if (tag == NULL || var == NULL)
        return false;
    return same_below(tag->meta->type, var, max) && option_of(var, 0) != UINT32_MAX;
}

/* One form of an LTTng header: its plan's records along the option that
 * tag value tagv selects (form 0: compact, 1: extended). False when the
 * plan is not the expected one (the plan then delivers the header). */
static bool lttng_form(const struct ctf_pop *plan, int form, uint64_t tagv, struct ctf_hform *h,
                       tracerd_ctf_field_t recs[CTF_HFORM_RECORDS])
{
    uint32_t n = 0, ints = 0;
    uint64_t pos = 0;
    for (uint32_t k = 0; plan[k].in.op != OP_END;) {
        const struct ctf_pop *p = &plan[k];
        const struct ctf_insn *in = &p->in;
        if (in->op == OP_JUMP) {
            k = in->jump;
            continue;
        }
        if (n == CTF_HFORM_RECORDS)
            return false;
        uint64_t at = (pos + in->align - 1) & ~((uint64_t)in->align - 1);
        tracerd_ctf_field_t *f = &recs[n];
        memset(f, 0, sizeof *f);
        memcpy((char *)f + CTF_TMPL_FIRST, &p->t, CTF_TMPL_BYTES);
        f->frag = TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST;
        uint32_t nextk = k + 1;
        if (INT_OP(in->op)) {
            if (ints == 4 || (in->flags & (INSN_SIGNED | INSN_BOOL)) || p->elem)
                return false;
            h->val[ints].rec = (uint8_t)n;
            h->val[ints].src = ints == 0                    ? (form == 0 ? HV_ID : HV_MAX)
                               : in->role == ROLE_TIMESTAMP ? HV_TS
                                                            : HV_ID;
            h->val[ints].in = in->slot ? in : NULL;
            if (p->enum_label)
                f->enum_label = ctf_enum_label(in->meta->type, ints == 0 ? tagv : 0);
            if (p->enum_label && ints != 0)
                return false; /* only the tag is an enumeration */
            ints++;
            pos = at + in->size;
        } else if (in->op == OP_VARIANT) {
            uint32_t o = option_of(in, tagv);
            if (o == UINT32_MAX || in->meta->kill != NULL)
                return false;
            f->option = in->meta->option_names[in->meta->vsel[o].option];
            nextk = p->targets[o];
            pos = at;
        } else if (in->op == OP_STRUCT_BEGIN) {
            pos = at;
        } else if (in->op != OP_STRUCT_END && in->op != OP_VARIANT_END) {
            return false;
        }
        f->offset = at >> 3;
        n++;
        k = nextk;
    }
    if (ints != (form == 0 ? 2u : 3u) || h->val[ints - 1].src != HV_TS || pos > UINT32_MAX)
        return false;
    /* The id and timestamp slots already hold what the measure read; when
     * the form's last store to one of them is that value (not the extended
     * tag), storing them again changes nothing (their roles were noted by
     * the measure too): left out. */
    for (uint32_t k = 0; k < ints; k++) {
        const struct ctf_insn *in = h->val[k].in;
        if (in == NULL || in->slot != in->role ||
            (in->role != ROLE_EVENT_ID && in->role != ROLE_TIMESTAMP))
            continue;
        uint32_t last = k;
        for (uint32_t j = k + 1; j < ints; j++)
            if (h->val[j].in != NULL && h->val[j].in->slot == in->slot)
                last = j;
        if (h->val[last].src != (in->role == ROLE_EVENT_ID ? HV_ID : HV_TS))
            continue;
        const uint32_t slot = in->slot;
        for (uint32_t j = k; j <= last; j++)
            if (h->val[j].in != NULL && h->val[j].in->slot == slot)
                h->val[j].in = NULL;
    }
    for (uint32_t k = 0; k < ints; k++)
        if (h->val[k].in != NULL)
            return false; /* a value the form would have to store (not one: the header
                             fast op is not taken when a field names a header field) */
    h->n = n;
    h->nval = ints;
    h->bits = (uint32_t)pos;
    return true;
}

/* The records of stream class r's LTTng event header in its two forms
 * (ctf_stream_rt.hform), when it has one (its fast form) and a plan. */
tracerd_status_t tracerd__cc_lttng_forms(struct cc *c, struct ctf_stream_rt *r)
{
    const struct ctf_insn *hf = r->event_header.fast;
    if (r->header_plan == NULL || hf == NULL ||
        (hf->op != OP_LTTNG_COMPACT && hf->op != OP_LTTNG_LARGE))
        return TRACERD_OK;
    const uint64_t max = hf->op == OP_LTTNG_COMPACT ? 31 : 65535;
    struct ctf_hform h[2];
    tracerd_ctf_field_t recs[2][CTF_HFORM_RECORDS];
    memset(h, 0, sizeof h);
    if (!compact_uniform(r->header_plan, max) ||
        !lttng_form(r->header_plan, 0, 0, &h[0], recs[0]) ||
        !lttng_form(r->header_plan, 1, max, &h[1], recs[1]))
        return TRACERD_OK;
    for (int f = 0; f < 2; f++) {
        tracerd_ctf_field_t *v = tracerd__ctf_arena_alloc(c->ar, sizeof *v * h[f].n);
        if (v == NULL)
            return tracerd__cc_nomem(c);
        memcpy(v, recs[f], sizeof *v * h[f].n);
        h[f].recs = v;
        r->hform[f] = h[f];
    }
    r->htag_max = max;
    return TRACERD_OK;
}
