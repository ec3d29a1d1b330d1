/* CTF compiler: the fast forms of compiled programs, for stream.c's fast
 * paths: runs of scalars at static offsets, measure-only (fused) programs
 * of events whose values are not delivered, and LTTng's compact and large
 * event headers. */
#include "compile.h"

/* ==== fused runs ============================================================= */

/* A scalar the run loop of stream.c reads at a static byte offset: a
 * byte-aligned 8/16/32/64-bit integer, or a byte-aligned 32/64-bit float in
 * its natural bit order. */
static bool run_op(const struct ctf_insn *in)
{
    if (FIXED_OP(in->op))
        return true;
    return RUN_OP(in->op) && in->align >= 8 && !(in->flags & INSN_REV);
}

/* Marks the runs of scalars (run_op) whose offsets from the first one's
 * aligned start are known at compile time: every later member is at most as
 * aligned as the first, so its padding is static. The first instruction
 * gets jump = members and count = the run's bits; each later one count =
 * its bit offset from the run's start. A run never spans a jump target.
 * The reader then checks the bounds once per run and reads every member
 * without the interpreter's per-field dispatch, alignment and bound checks
 * (stream.c, run). */
tracerd_status_t tracerd__cc_mark_runs(struct cc *c, struct ctf_insn *code, uint32_t len)
{
    uint8_t *target = tracerd__calloc(c->tmp.alloc, len + 1);
    if (target == NULL)
        return TRACERD_E_NOMEM;
    for (uint32_t pc = 0; pc < len; pc++) {
        const struct ctf_insn *in = &code[pc];
        switch (in->op) {
        case OP_ARRAY_BEGIN:
        case OP_SEQ_BEGIN:
        case OP_ARRAY_NEXT:
        case OP_SEQ_NEXT:
        case OP_JUMP:
        case OP_VARIANT:
        case OP_OPTIONAL:
            if (in->jump <= len)
                target[in->jump] = 1;
            break;
        default:
            break;
        }
        if (in->op == OP_VARIANT)
            for (uint32_t k = 0; k < in->meta->nvsel; k++)
                if (in->meta->vsel[k].target <= len)
                    target[in->meta->vsel[k].target] = 1;
    }
    for (uint32_t pc = 0; pc < len;) {
        struct ctf_insn *first = &code[pc];
        if (!run_op(first)) {
            pc++;
            continue;
        }
        uint64_t bits = first->size;
        uint32_t n = 1;
        while (pc + n < len) {
            struct ctf_insn *in = &code[pc + n];
            if (!run_op(in) || target[pc + n] || in->align > first->align)
                break;
            uint64_t at = (bits + in->align - 1) & ~((uint64_t)in->align - 1);
            in->count = at;
            bits = at + in->size;
            n++;
        }
        if (n > 1) {
            first->jump = n;
            first->count = bits;
        }
        pc += n;
    }
    tracerd__free(c->tmp.alloc, target, len + 1);
    return TRACERD_OK;
}

/* ==== measure-only programs ================================================= */

struct fuse {
    struct pbuf *out;
    bool active;
    uint32_t align;
    uint64_t bits;
};

static bool fuse_flush(struct cc *c, struct fuse *f)
{
    if (!f->active)
        return true;
    struct ctf_insn *in = tracerd__cc_emit(c, f->out);
    if (in == NULL)
        return false;
    in->op = OP_SKIP;
    in->align = f->align;
    in->count = f->bits;
    f->active = false;
    return true;
}

/* A field of fixed size with no stored value. */
static bool fuse_fixed(struct cc *c, struct fuse *f, uint32_t align, uint64_t bits)
{
    if (f->active && align <= f->align && f->bits % align == 0) {
        f->bits += bits;
        return true;
    }
    if (!fuse_flush(c, f))
        return false;
    f->active = true;
    f->align = align;
    f->bits = bits;
    return true;
}

static bool is_int_op(uint8_t op)
{
    return INT_OP(op);
}

/* Size of one element of a loop body made only of fixed fields, or false. */
static bool fixed_body(const struct ctf_insn *code, uint32_t from, uint32_t to, uint32_t align,
                       uint64_t *bits)
{
    uint64_t b = 0;
    for (uint32_t pc = from; pc < to; pc++) {
        const struct ctf_insn *in = &code[pc];
        uint64_t size;
        if ((is_int_op(in->op) || in->op == OP_FLOAT32 || in->op == OP_FLOAT64) && in->slot == 0)
            size = in->size;
        else if (in->op == OP_FLOATX)
            size = in->count;
        else if (in->op == OP_STRUCT_BEGIN)
            size = 0;
        else if (in->op == OP_STRUCT_END)
            continue;
        else if (in->op == OP_TEXT_ARRAY)
            size = in->count * 8;
        else
            return false;
        if (in->align > align || b % in->align != 0)
            return false;
        b += size;
    }
    if (b % align != 0)
        return false;
    *bits = b;
    return true;
}

/* Appends the fused form of a program (without its END). Returns 1, 0 when
 * the program is not straight-line (then no fast form), -1 on no memory. */
static int fuse_program(struct cc *c, const struct ctf_insn *code, struct fuse *f)
{
    if (code == NULL)
        return 1;
    for (uint32_t pc = 0;; pc++) {
        const struct ctf_insn *in = &code[pc];
        struct ctf_insn *o;
        uint64_t bits;
        switch (in->op) {
        case OP_END:
            return 1;
        case OP_STRUCT_BEGIN:
            if (!fuse_fixed(c, f, in->align, 0))
                return -1;
            break;
        case OP_STRUCT_END:
            break;
        case OP_FLOAT32:
        case OP_FLOAT64:
        case OP_FLOATX:
            if (!fuse_fixed(c, f, in->align, in->op == OP_FLOATX ? in->count : in->size))
                return -1;
            break;
        case OP_TEXT_ARRAY:
            if (!fuse_fixed(c, f, in->align, in->count * 8))
                return -1;
            break;
        case OP_ARRAY_BEGIN:
            if (!fixed_body(code, pc + 1, in->jump - 1, in->align, &bits))
                return 0;
            if (!fuse_fixed(c, f, in->align, in->count * bits))
                return -1;
            pc = in->jump - 1;
            break;
        case OP_SEQ_BEGIN:
        case OP_TEXT_SEQ:
            if (in->op == OP_SEQ_BEGIN) {
                if (!fixed_body(code, pc + 1, in->jump - 1, in->align, &bits))
                    return 0;
            } else {
                bits = 8;
            }
            if (!fuse_flush(c, f) || (o = tracerd__cc_emit(c, f->out)) == NULL)
                return -1;
            o->op = OP_SEQ_SKIP;
            o->align = in->align;
            o->slot = in->slot;
            o->count = bits;
            o->meta = in->meta;
            if (in->op == OP_SEQ_BEGIN)
                pc = in->jump - 1;
            break;
        case OP_STRING:
            if (!fuse_flush(c, f) || (o = tracerd__cc_emit(c, f->out)) == NULL)
                return -1;
            *o = *in;
            break;
        default:
            if (is_int_op(in->op)) {
                if (in->slot == 0) {
                    if (!fuse_fixed(c, f, in->align, in->size))
                        return -1;
                    break;
                }
                if (!fuse_flush(c, f) || (o = tracerd__cc_emit(c, f->out)) == NULL)
                    return -1;
                *o = *in;
                o->jump = 0; /* no run marks in measure-only programs */
                o->count = 0;
                break;
            }
            return 0; /* variants, nested loops: measured by the full program */
        }
    }
}

/* Whether a bit field of these programs (in order) may start inside a byte
 * with a byte order other than the previous integer's: then the byte order
 * could change inside a byte, which only the full program checks (stream.c),
 * so there is no fast form. */
bool tracerd__cc_may_split_byte_order(const struct ctf_insn *const *progs, int n)
{
    int prev = -1;
    for (int i = 0; i < n; i++)
        for (const struct ctf_insn *in = progs[i]; in != NULL && in->op != OP_END; in++) {
            if (!is_int_op(in->op))
                continue;
            int be = (in->flags & INSN_BE) != 0;
            if (in->op == OP_INT && in->align < 8 && prev >= 0 && prev != be)
                return true;
            prev = be;
        }
    return false;
}

/* Builds a fast program from up to three programs; NULL when not possible. */
tracerd_status_t tracerd__cc_fuse_all(struct cc *c, const struct ctf_insn *a,
                                      const struct ctf_insn *b, const struct ctf_insn *d,
                                      const struct ctf_insn **out)
{
    *out = NULL;
    const struct ctf_insn *all[3] = {a, b, d};
    if (tracerd__cc_may_split_byte_order(all, 3))
        return TRACERD_OK;
    struct pbuf *buf = &c->fused;
    buf->len = 0;
    struct fuse f = {buf, false, 1, 0};
    const struct ctf_insn *progs[3] = {a, b, d};
    for (int i = 0; i < 3; i++) {
        int r = fuse_program(c, progs[i], &f);
        if (r < 0)
            return tracerd__cc_nomem(c);
        if (r == 0)
            return TRACERD_OK;
    }
    struct ctf_insn *in;
    if (!fuse_flush(c, &f) || (in = tracerd__cc_emit(c, buf)) == NULL)
        return tracerd__cc_nomem(c);
    in->op = OP_END;
    struct ctf_insn *code = tracerd__ctf_arena_alloc(c->ar, sizeof *code * buf->len);
    if (code == NULL)
        return tracerd__cc_nomem(c);
    memcpy(code, buf->v, sizeof *code * buf->len);
    *out = code;
    return TRACERD_OK;
}

/* Lays out a measure-only program as fixed segments (struct ctf_fseg) into
 * seg and ld, or only counts them when seg is NULL: false when some segment
 * is not of fixed layout. */
static bool fixed_segments(const struct ctf_insn *fast, struct ctf_fseg *seg, struct ctf_fload *ld,
                           uint32_t *nseg, uint32_t *nld)
{
    uint32_t s = 0, l = 0;
    uint64_t bits = 0;
    uint32_t align = 0; /* the segment's first field's; 0 before it */
    for (const struct ctf_insn *in = fast;; in++) {
        if (in->op == OP_END || in->op == OP_STRING || in->op == OP_SEQ_SKIP) {
            /* the segment ends: its size, then what ends it */
            if (seg != NULL) {
                struct ctf_fseg *g = &seg[s];
                g->bits = bits;
                g->amask = align != 0 ? align - 1 : 0;
                g->end = in->op == OP_END ? FSEG_END : in->op == OP_STRING ? FSEG_STRING : FSEG_SEQ;
                g->next_amask = in->op == OP_END ? 0 : in->align - 1;
                g->len_slot = in->op == OP_SEQ_SKIP ? in->slot : 0;
                g->elem = in->op == OP_SEQ_SKIP ? in->count : 0;
                g->reach = 0;
                for (uint32_t k = 0; k < g->nld; k++) {
                    const struct ctf_fload *x = &g->ld[k];
                    if (x->op != OP_U8 && x->op != OP_U16LE && x->op != OP_U32LE &&
                        x->op != OP_U64LE)
                        g->reach = UINT64_MAX;
                    else if (g->reach != UINT64_MAX)
                        g->reach = (uint64_t)x->off * 8 + 64;
                }
            }
            s++;
            if (in->op == OP_END)
                break;
            if (seg != NULL) {
                seg[s].ld = ld == NULL ? NULL : ld + l;
                seg[s].nld = 0;
            }
            bits = 0;
            align = 0;
            continue;
        }
        if (in->op == OP_SKIP && in->count == 0 &&
            (in[1].op == OP_STRING || in[1].op == OP_SEQ_SKIP) && in[1].align >= in->align)
            continue; /* an alignment the string or sequence after it makes anyway */
        if (in->op != OP_SKIP && !FIXED_OP(in->op))
            return false; /* a bit field */
        if (align == 0)
            align = in->align;
        else if (in->align > align)
            return false; /* more aligned than the segment's first field */
        bits = (bits + in->align - 1) & ~((uint64_t)in->align - 1);
        if (in->op != OP_SKIP) {
            /* byte-aligned (FIXED_OP), as the segment's start then is; no
             * role (event scopes have none) */
            if ((bits & 7) != 0 || align < 8 || in->role != ROLE_NONE)
                return false;
            if (seg != NULL) {
                ld[l] = (struct ctf_fload){
                    .off = (uint32_t)(bits >> 3),
                    .slot = in->slot,
                    .sign = (in->flags & INSN_SIGNED) ? (uint64_t)1 << (in->size - 1) : 0,
                    .op = in->op,
                    .shift = (uint8_t)(64 - in->size),
                };
                seg[s].nld++;
            }
            l++;
        }
        bits += in->op == OP_SKIP ? in->count : in->size;
    }
    *nseg = s;
    *nld = l;
    return true;
}

tracerd_status_t tracerd__cc_body_fixed(struct cc *c, const struct ctf_insn *fast,
                                        const struct ctf_fseg **out)
{
    *out = NULL;
    uint32_t nseg, nld;
    if (fast == NULL || fast[0].op == OP_END || !fixed_segments(fast, NULL, NULL, &nseg, &nld))
        return TRACERD_OK;
    struct ctf_fseg *seg = tracerd__ctf_arena_alloc(c->ar, sizeof *seg * nseg);
    struct ctf_fload *ld = nld != 0 ? tracerd__ctf_arena_alloc(c->ar, sizeof *ld * nld) : NULL;
    if (seg == NULL || (nld != 0 && ld == NULL))
        return tracerd__cc_nomem(c);
    seg[0].ld = ld;
    seg[0].nld = 0;
    fixed_segments(fast, seg, ld, &nseg, &nld);
    *out = seg;
    return TRACERD_OK;
}

static const tracerd_ctf_member_t *member_named(const tracerd_ctf_type_t *t, const char *name)
{
    for (uint32_t i = 0; i < t->nmembers; i++)
        if (strcmp(t->members[i].name, name) == 0)
            return &t->members[i];
    return NULL;
}

static bool plain_uint(const tracerd_ctf_type_t *t, uint32_t size, uint32_t max_align,
                       tracerd_byte_order_t bo)
{
    return t && t->kind == TRACERD_CTF_TYPE_INT && !t->is_signed && t->size_bits == size &&
           t->align_bits <= max_align && t->byte_order == bo;
}

/* Recognises LTTng's compact (5-bit id) and large (16-bit id) event headers:
 * returns OP_LTTNG_COMPACT, OP_LTTNG_LARGE or 0. */
static int lttng_header(const tracerd_ctf_type_t *h, tracerd_byte_order_t bo)
{
    if (h == NULL || h->kind != TRACERD_CTF_TYPE_STRUCT || h->nmembers != 2 || h->align_bits != 8)
        return 0;
    const tracerd_ctf_type_t *id = h->members[0].type, *v = h->members[1].type;
    if (strcmp(h->members[0].name, "id") != 0 || id->kind != TRACERD_CTF_TYPE_ENUM ||
        id->is_signed || id->byte_order != bo || (id->size_bits != 5 && id->size_bits != 16))
        return 0;
    bool compact = id->size_bits == 5;
    int64_t max = compact ? 31 : 65535;
    if (v->kind != TRACERD_CTF_TYPE_VARIANT || v->path == NULL ||
        (strcmp(v->path, "id") != 0 && strcmp(v->path, "event-record-header/id") != 0) ||
        v->nmembers != 2)
        return 0;
    const tracerd_ctf_member_t *mc = member_named(v, "compact"), *me = member_named(v, "extended");
    if (mc == NULL || me == NULL)
        return 0;
    bool saw_ext = false;
    for (uint32_t i = 0; i < id->nmappings; i++) {
        const tracerd_ctf_mapping_t *m = &id->mappings[i];
        if (strcmp(m->label, "compact") == 0) {
            if (m->lo < 0 || m->hi > max - 1)
                return 0;
        } else if (strcmp(m->label, "extended") == 0) {
            if (m->lo != max || m->hi != max)
                return 0;
            saw_ext = true;
        } else {
            return 0;
        }
    }
    if (!saw_ext)
        return 0;
    const struct ctf_type *cv = (const struct ctf_type *)v;
    for (uint32_t k = 0; cv->opts != NULL && k < 2; k++) { /* CTF 2: ranges select */
        bool ext = strcmp(v->members[k].name, "extended") == 0;
        for (uint32_t i = 0; i < cv->opts[k].n; i++)
            if (cv->opts[k].big[i] != 0 ||
                (ext ? cv->opts[k].lo[i] != max || cv->opts[k].hi[i] != max
                     : cv->opts[k].lo[i] < 0 || cv->opts[k].hi[i] > max - 1))
                return 0;
    }
    const tracerd_ctf_type_t *c = mc->type, *e = me->type;
    if (c->kind != TRACERD_CTF_TYPE_STRUCT || c->nmembers != 1 ||
        strcmp(c->members[0].name, "timestamp") != 0 ||
        !plain_uint(c->members[0].type, compact ? 27 : 32, compact ? 1 : 8, bo))
        return 0;
    if (compact && c->align_bits != 1)
        return 0;
    if (e->kind != TRACERD_CTF_TYPE_STRUCT || e->nmembers != 2 || e->align_bits != 8 ||
        strcmp(e->members[0].name, "id") != 0 || strcmp(e->members[1].name, "timestamp") != 0 ||
        !plain_uint(e->members[0].type, 32, 8, bo) || !plain_uint(e->members[1].type, 64, 8, bo) ||
        e->members[0].type->align_bits != 8 || e->members[1].type->align_bits != 8)
        return 0;
    return compact ? OP_LTTNG_COMPACT : OP_LTTNG_LARGE;
}

tracerd_status_t tracerd__cc_header_fast(struct cc *c, struct ctf_stream_rt *r)
{
    const tracerd_ctf_type_t *h = r->cls->event_header;
    tracerd_byte_order_t bo =
        c->ctf2 && h->nmembers > 0 ? h->members[0].type->byte_order : c->t->info.byte_order;
    int op = lttng_header(h, bo);
    for (uint32_t k = 0; op != 0 && k < r->event_header.len; k++) {
        const struct ctf_insn *in = &r->event_header.code[k];
        if (in->meta != NULL && in->meta->kill != NULL)
            op = 0; /* locations through its variant: the full program keeps their flags */
        if (in->role != 0 && in->slot != in->role)
            op = 0; /* a field names it: its own slot, which the op would not set */
    }
    if (op == 0)
        return tracerd__cc_fuse_all(c, r->event_header.code, NULL, NULL, &r->event_header.fast);
    struct ctf_insn *code = tracerd__ctf_arena_alloc(c->ar, sizeof *code * 2);
    if (code == NULL)
        return tracerd__cc_nomem(c);
    code[0].op = (uint8_t)op;
    code[0].align = 8;
    code[0].flags = bo == TRACERD_BYTE_ORDER_BIG ? INSN_BE : 0;
    code[1].op = OP_END;
    r->event_header.fast = code;
    return TRACERD_OK;
}
