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
