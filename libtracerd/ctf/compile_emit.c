/* CTF compiler: the emitters, one per type kind, each appending the
 * instructions of one field to the scope's program (the work stack of
 * compile.c brings the members of compound fields); plus what they resolve
 * on the way (native byte order, clocks, enumeration label tables, variant
 * selectors). */
#include <stdlib.h>

#include "compile.h"

struct clock_key {
    const char *name;
    uint32_t index;
};

static int cmp_clock_key(const void *a, const void *b)
{
    const struct clock_key *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r != 0 ? r : (x->index < y->index ? -1 : x->index > y->index);
}

/* The index of the clock named `name` (the last declared of that name), or
 * -1: a binary search in the clock names, sorted once. */
static tracerd_status_t clock_named(struct cc *c, const char *name, int *out)
{
    const tracerd_ctf_trace_info_t *in = &c->t->info;
    *out = -1;
    if (in->nclocks == 0)
        return TRACERD_OK;
    if (c->clock_order == NULL) {
        c->clock_order = tracerd__ctf_arena_alloc(&c->tmp, sizeof *c->clock_order * in->nclocks);
        if (c->clock_order == NULL)
            return tracerd__cc_nomem(c);
        for (uint32_t i = 0; i < in->nclocks; i++)
            c->clock_order[i] = (struct clock_key){in->clocks[i].name, i};
        qsort(c->clock_order, in->nclocks, sizeof *c->clock_order, cmp_clock_key);
    }
    uint32_t lo = 0, hi = in->nclocks; /* first name > name */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(c->clock_order[mid].name, name) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && strcmp(c->clock_order[lo - 1].name, name) == 0)
        *out = (int)c->clock_order[lo - 1].index;
    return TRACERD_OK;
}

/* Resolves native byte order and the clock of an int/enum/float type. */
static tracerd_status_t fix_type(struct cc *c, const tracerd_ctf_type_t *ty)
{
    struct ctf_type *t = (struct ctf_type *)(uintptr_t)ty;
    if (t->native_order) {
        t->pub.byte_order = c->t->info.byte_order;
        t->native_order = false;
    }
    if (t->clock_name != NULL && t->pub.clock < 0) {
        tracerd_status_t st = clock_named(c, t->clock_name, &t->pub.clock);
        if (st != TRACERD_OK)
            return st;
        if (t->pub.clock < 0)
            return tracerd__cc_err(c, ty, TRACERD_E_METADATA,
                                   "map names clock '%s', which is not declared", t->clock_name);
    }
    return TRACERD_OK;
}

/* The fixed-size load of a byte-aligned integer of 8/16/32/64 bits, or
 * the generic bit field. */
static uint8_t int_op(const tracerd_ctf_type_t *ty)
{
    bool be = ty->byte_order == TRACERD_BYTE_ORDER_BIG;
    if (ty->align_bits < 8 || ty->bit_order_reversed)
        return OP_INT;
    switch (ty->size_bits) {
    case 8:
        return OP_U8;
    case 16:
        return be ? OP_U16BE : OP_U16LE;
    case 32:
        return be ? OP_U32BE : OP_U32LE;
    case 64:
        return be ? OP_U64BE : OP_U64LE;
    default:
        return OP_INT;
    }
}

/* Values of an enumeration whose labels are looked up in a table. */
#define ENUM_DIRECT 64u

/* The label tables of an enumeration, built once per type. */
static tracerd_status_t enum_ranges(struct cc *c, const tracerd_ctf_type_t *ty)
{
    struct ctf_type *t = (struct ctf_type *)(uintptr_t)ty;
    if (t->ranges_built || ty->nmappings == 0)
        return TRACERD_OK;
    struct ctf_range *in = tracerd__calloc(c->tmp.alloc, sizeof *in * ty->nmappings);
    if (in == NULL)
        return tracerd__cc_nomem(c);
    for (uint32_t i = 0; i < ty->nmappings; i++)
        in[i] = (struct ctf_range){ctf_range_key((uint64_t)ty->mappings[i].lo, ty->is_signed),
                                   ctf_range_key((uint64_t)ty->mappings[i].hi, ty->is_signed), i};
    tracerd_status_t st =
        tracerd__ctf_ranges_build(c->ar, c->tmp.alloc, in, ty->nmappings, &t->ranges, &t->nranges);
    tracerd__free(c->tmp.alloc, in, sizeof *in * ty->nmappings);
    if (st != TRACERD_OK)
        return tracerd__cc_nomem(c);
    /* the direct table: values 0 .. ENUM_DIRECT - 1, up to the last one with a label */
    uint32_t n = 0;
    for (uint32_t v = 0; v < ENUM_DIRECT; v++)
        if (tracerd__ctf_range_find(t->ranges, t->nranges, ctf_range_key(v, ty->is_signed)) <
            ty->nmappings)
            n = v + 1;
    if (n != 0) {
        const char **labels = tracerd__ctf_arena_alloc(c->ar, sizeof *labels * n);
        if (labels == NULL)
            return tracerd__cc_nomem(c);
        for (uint32_t v = 0; v < n; v++)
            labels[v] = ctf_enum_label(ty, v); /* (nlabels still 0: the search) */
        t->labels = labels;
        t->nlabels = n;
    }
    t->ranges_built = true;
    return TRACERD_OK;
}

static tracerd_status_t emit_int(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    const struct work *w = f->w;
    tracerd_status_t st = fix_type(c, ty);
    if (st != TRACERD_OK)
        return st;
    if (ty->kind == TRACERD_CTF_TYPE_ENUM && (st = enum_ranges(c, ty)) != TRACERD_OK)
        return st;
    int role = tracerd__cc_role_of(c->cur_scope, f->n, f->depth);
    if (c->ctf2) {
        /* CTF 2 has no CPU role: LTTng's packet context keeps `cpu_id` by name */
        bool cpu = role == ROLE_CPU_ID;
        if ((st = tracerd__cc_role2(c, f->n, &role)) != TRACERD_OK)
            return st;
        if (role == ROLE_NONE && cpu)
            role = ROLE_CPU_ID;
    }
    if (!c->ctf2 && c->cur_scope == SC_PH && w->name[0] == '\0' && w->parent && w->parent->parent &&
        w->parent->parent->parent == NULL && !strcmp(w->parent->display, "uuid") &&
        w->parent->type->kind == TRACERD_CTF_TYPE_ARRAY && w->parent->type->length == 16 &&
        ty->size_bits == 8)
        role = ROLE_UUID;
    bool be = ty->byte_order == TRACERD_BYTE_ORDER_BIG;
    if (insn(c, (struct ctf_insn){
                    .op = int_op(ty),
                    .flags = (uint8_t)((ty->is_signed ? INSN_SIGNED : 0) | (be ? INSN_BE : 0) |
                                       (ty->kind == TRACERD_CTF_TYPE_ENUM ? INSN_ENUM : 0) |
                                       (ty->kind == TRACERD_CTF_TYPE_BOOL ? INSN_BOOL : 0) |
                                       (ty->bit_order_reversed ? INSN_REV : 0)),
                    .role = (uint8_t)role,
                    .size = (uint8_t)ty->size_bits,
                    .align = ty->align_bits,
                    .slot = (uint32_t)role,
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    f->n->idx = c->cur->len - 1;
    return TRACERD_OK;
}

static tracerd_status_t emit_float(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    tracerd_status_t st = fix_type(c, ty);
    if (st != TRACERD_OK)
        return st;
    /* CTF 2 also has binary16 and binary128 and wider (decoded into doubles) */
    bool x = c->ctf2 && ty->size_bits != 32 && ty->size_bits != 64 &&
             ty->size_bits <= CTF_FLOAT_MAX_BITS &&
             ty->exp_dig == tracerd__ctf_float_exp_bits(ty->size_bits) &&
             ty->mant_dig == ty->size_bits - ty->exp_dig;
    if (!x &&
        !((ty->exp_dig == 8 && ty->mant_dig == 24) || (ty->exp_dig == 11 && ty->mant_dig == 53)))
        return tracerd__cc_err(c, ty, TRACERD_E_UNSUPPORTED,
                               "floating point with exp_dig %u, mant_dig %u (only 8/24 and 11/53)",
                               ty->exp_dig, ty->mant_dig);
    if (insn(c, (struct ctf_insn){
                    .op = x                     ? OP_FLOATX
                          : ty->size_bits == 32 ? OP_FLOAT32
                                                : OP_FLOAT64,
                    .flags = (uint8_t)((ty->byte_order == TRACERD_BYTE_ORDER_BIG ? INSN_BE : 0) |
                                       (ty->bit_order_reversed ? INSN_REV : 0)),
                    .size = (uint8_t)(x ? 0 : ty->size_bits),
                    .align = ty->align_bits,
                    .count = x ? ty->size_bits : 0,
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    return TRACERD_OK;
}

/* CTF 2 UTF-16/32 text: code unit bits (0 for 8-bit text) and byte order. */
static unsigned utf_unit(struct cc *c, tracerd_ctf_encoding_t e, uint8_t *flags)
{
    bool be = e == TRACERD_CTF_ENCODING_UTF16BE || e == TRACERD_CTF_ENCODING_UTF32BE;
    unsigned u = e == TRACERD_CTF_ENCODING_UTF16BE || e == TRACERD_CTF_ENCODING_UTF16LE   ? 16
                 : e == TRACERD_CTF_ENCODING_UTF32BE || e == TRACERD_CTF_ENCODING_UTF32LE ? 32
                                                                                          : 0;
    if (u != 0) {
        c->t->has_utf = true;
        *flags = (uint8_t)(*flags | INSN_UTF | (be ? INSN_BE : 0));
    }
    return u;
}

static tracerd_status_t emit_string(struct cc *c, const struct field *f)
{
    uint8_t flags = 0;
    unsigned u = utf_unit(c, f->w->type->encoding, &flags);
    if (insn(c, (struct ctf_insn){.op = u ? OP_USTRING : OP_STRING,
                                  .flags = flags,
                                  .size = (uint8_t)u,
                                  .align = 8,
                                  .meta = f->meta}) == NULL)
        return tracerd__cc_nomem(c);
    return TRACERD_OK;
}

static tracerd_status_t emit_struct(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    if (insn(c, (struct ctf_insn){
                    .op = OP_STRUCT_BEGIN, .align = ty->align_bits, .meta = f->meta}) == NULL)
        return tracerd__cc_nomem(c);
    /* its members one at a time (next_member): the work stack grows with
     * the nesting, not with the width of a struct */
    push(c, (struct work){.what = W_STRUCT_END,
                          .type = ty,
                          .parent = f->n,
                          .loops = f->w->loops,
                          .meta = f->meta});
    return TRACERD_OK;
}

/* Static arrays and sequences; 8-bit text elements become one text field. */
static tracerd_status_t emit_array(struct cc *c, const struct field *f)
{
    const struct work *w = f->w;
    const tracerd_ctf_type_t *ty = w->type, *el = ty->element;
    bool seq = ty->kind == TRACERD_CTF_TYPE_SEQUENCE;
    uint32_t slot = 0;
    struct node *ln;
    tracerd_status_t st;
    if (seq &&
        (st = tracerd__cc_locate(c, f, WANT_LENGTH, "length field", &ln, &slot)) != TRACERD_OK)
        return st;
    st = fix_type(c, el);
    if (st != TRACERD_OK)
        return st;
    bool bytes = el->kind == TRACERD_CTF_TYPE_INT && el->size_bits == 8 && el->align_bits >= 8;
    bool text = bytes && el->encoding != TRACERD_CTF_ENCODING_NONE;
    uint8_t op = text ? (seq ? OP_TEXT_SEQ : OP_TEXT_ARRAY) : (seq ? OP_SEQ_BEGIN : OP_ARRAY_BEGIN);
    uint8_t flags = bytes && !text ? INSN_BYTES : 0;
    unsigned unit = text ? utf_unit(c, el->encoding, &flags) : 0;
    if (insn(c, (struct ctf_insn){
                    .op = op,
                    .flags = flags,
                    .size = (uint8_t)unit,
                    .align = ty->align_bits,
                    .slot = slot,
                    .count = ty->length,
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    if (text)
        return TRACERD_OK;
    if (((const struct ctf_type *)el)->empty) {
        /* Elements without fields: nothing to read or deliver per element,
         * so no body and no loop (an array of 2^48 of them costs one step):
         * the begin's jump is the next instruction (a loop's is past its
         * body and its NEXT, at least two further). */
        c->cur->v[c->cur->len - 1].jump = c->cur->len;
        return TRACERD_OK;
    }
    if (w->loops + 1 > c->depth_max)
        c->depth_max = w->loops + 1;
    push(c, (struct work){.what = seq ? W_SEQ_END : W_ARRAY_END,
                          .type = ty,
                          .pc = c->cur->len - 1,
                          .loops = w->loops});
    push(c, (struct work){.what = W_FIELD,
                          .type = el,
                          .name = "",
                          .display = "",
                          .parent = f->n,
                          .loops = w->loops + 1});
    return TRACERD_OK;
}

/* CTF 2: a LEB128 integer. */
static tracerd_status_t emit_varint(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    int role = ROLE_NONE;
    tracerd_status_t st = tracerd__cc_role2(c, f->n, &role);
    if (st == TRACERD_OK && ty->nmappings)
        st = enum_ranges(c, ty);
    if (st != TRACERD_OK)
        return st;
    if (insn(c, (struct ctf_insn){
                    .op = OP_VARINT,
                    .flags = (uint8_t)((ty->is_signed ? INSN_SIGNED : 0) |
                                       (ty->nmappings ? INSN_ENUM : 0)),
                    .role = (uint8_t)role,
                    .size = 64,
                    .align = 8,
                    .slot = (uint32_t)role,
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    f->n->idx = c->cur->len - 1;
    return TRACERD_OK;
}

/* CTF 2: static- and dynamic-length BLOBs. */
static tracerd_status_t emit_blob(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    uint32_t slot = 0;
    int role = ROLE_NONE;
    tracerd_status_t st = tracerd__cc_role2(c, f->n, &role);
    struct node *ln;
    if (st == TRACERD_OK && ty->path != NULL)
        st = tracerd__cc_locate(c, f, WANT_LENGTH, "length field", &ln, &slot);
    if (st != TRACERD_OK)
        return st;
    if (insn(c, (struct ctf_insn){
                    .op = OP_BLOB,
                    .flags = ty->path != NULL ? INSN_DYN : 0,
                    .role = (uint8_t)role,
                    .align = 8,
                    .slot = slot,
                    .count = ty->length,
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    return TRACERD_OK;
}

/* CTF 2 range i of rs against a selector's signedness (unsigned selectors
 * never match negative values, signed ones values above INT64_MAX). */
static bool range_for(bool sgn, const struct ctf_rset *rs, uint32_t i, struct ctf_vsel *out)
{
    return tracerd__ctf_rset_range(rs, i, sgn, &out->lo, &out->hi);
}

static int cmp_vsel_s(const void *a, const void *b)
{
    const struct ctf_vsel *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int cmp_vsel_u(const void *a, const void *b)
{
    const struct ctf_vsel *x = a, *y = b;
    return (uint64_t)x->lo < (uint64_t)y->lo ? -1 : (uint64_t)x->lo > (uint64_t)y->lo;
}

/* CTF 2: option selection ranges of a variant (options must not overlap). */
static tracerd_status_t variant_ranges2(struct cc *c, const struct field *f, bool sgn,
                                        struct ctf_vsel **vsel, uint32_t *nvsel)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    const struct ctf_type *ct = (const struct ctf_type *)ty;
    uint32_t n = 0;
    for (uint32_t k = 0; k < ty->nmembers; k++)
        n += ct->opts[k].n;
    struct ctf_vsel *vs = tracerd__ctf_arena_alloc(c->ar, sizeof *vs * (n + 1));
    struct ctf_vsel *sorted = tracerd__ctf_arena_alloc(&c->tmp, sizeof *vs * (n + 1));
    if (vs == NULL || sorted == NULL)
        return tracerd__cc_nomem(c);
    uint32_t nv = 0;
    for (uint32_t k = 0; k < ty->nmembers; k++)
        for (uint32_t i = 0; i < ct->opts[k].n; i++)
            if (range_for(sgn, &ct->opts[k], i, &vs[nv]))
                vs[nv++].option = k;
    memcpy(sorted, vs, sizeof *vs * nv);
    qsort(sorted, nv, sizeof *sorted, sgn ? cmp_vsel_s : cmp_vsel_u);
    for (uint32_t i = 1; i < nv; i++)
        if (sgn ? sorted[i].lo <= sorted[i - 1].hi
                : (uint64_t)sorted[i].lo <= (uint64_t)sorted[i - 1].hi)
            return tracerd__cc_err(c, ty, TRACERD_E_METADATA,
                                   "variant '%s': the ranges of options %u and %u overlap",
                                   f->meta->path, sorted[i - 1].option, sorted[i].option);
    *vsel = vs;
    *nvsel = nv;
    return TRACERD_OK;
}

/* CTF 2: an optional field (boolean selector, or integer ranges). */
static tracerd_status_t emit_optional(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    const struct ctf_type *ct = (const struct ctf_type *)ty;
    struct node *sn;
    uint32_t slot;
    tracerd_status_t st =
        tracerd__cc_locate(c, f, ct->sel == NULL ? WANT_BOOL : WANT_INT, "selector", &sn, &slot);
    if (st != TRACERD_OK)
        return st;
    bool sgn = sn->type->is_signed;
    if (ct->sel != NULL) {
        struct ctf_vsel *vs = tracerd__ctf_arena_alloc(c->ar, sizeof *vs * (ct->sel->n + 1));
        if (vs == NULL)
            return tracerd__cc_nomem(c);
        uint32_t nv = 0;
        for (uint32_t i = 0; i < ct->sel->n; i++)
            nv += range_for(sgn, ct->sel, i, &vs[nv]);
        f->meta->vsel = vs;
        f->meta->nvsel = nv;
    }
    if (insn(c, (struct ctf_insn){
                    .op = OP_OPTIONAL,
                    .flags = (uint8_t)((sgn ? INSN_SIGNED : 0) | (ct->sel ? 0 : INSN_BOOL)),
                    .align = 1,
                    .slot = slot,
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    push(c, (struct work){
                .what = W_OPTIONAL_END, .type = ty, .pc = c->cur->len - 1, .loops = f->w->loops});
    push(c, (struct work){.what = W_FIELD,
                          .type = ty->element,
                          .name = "",
                          .display = "",
                          .parent = f->n,
                          .loops = f->w->loops});
    return TRACERD_OK;
}

/* A variant's program once its selector and option ranges are known. The
 * ranges (in order: the first holding the value wins) become a range table
 * searched in O(log n) per event. */
static tracerd_status_t variant_body(struct cc *c, const struct field *f, struct node *tn,
                                     struct ctf_vsel *vs, uint32_t nv)
{
    const struct work *w = f->w;
    const tracerd_ctf_type_t *ty = w->type;
    bool sgn = tn->type->is_signed;
    const char **on = tracerd__ctf_arena_alloc(c->ar, sizeof *on * (ty->nmembers + 1));
    uint32_t *targets = tracerd__ctf_arena_alloc(&c->tmp, sizeof *targets * (ty->nmembers + 1));
    struct ctf_range *rin = tracerd__calloc(c->tmp.alloc, sizeof *rin * (nv + 1));
    if (on == NULL || targets == NULL || rin == NULL) {
        tracerd__free(c->tmp.alloc, rin, sizeof *rin * (nv + 1));
        return tracerd__cc_nomem(c);
    }
    for (uint32_t k = 0; k < ty->nmembers; k++)
        on[k] = ty->members[k].display;
    for (uint32_t k = 0; k < nv; k++)
        rin[k] = (struct ctf_range){ctf_range_key((uint64_t)vs[k].lo, sgn),
                                    ctf_range_key((uint64_t)vs[k].hi, sgn), k};
    tracerd_status_t st = tracerd__ctf_ranges_build(c->ar, c->tmp.alloc, rin, nv, &f->meta->vranges,
                                                    &f->meta->nvranges);
    tracerd__free(c->tmp.alloc, rin, sizeof *rin * (nv + 1));
    if (st != TRACERD_OK)
        return tracerd__cc_nomem(c);
    f->meta->vsel = vs;
    f->meta->nvsel = nv;
    f->meta->option_names = on;
    if (insn(c, (struct ctf_insn){
                    .op = OP_VARIANT,
                    .flags = sgn ? INSN_SIGNED : 0,
                    .align = 1,
                    .slot = tracerd__cc_slot_of(c, tn),
                    .meta = f->meta,
                }) == NULL)
        return tracerd__cc_nomem(c);
    uint32_t vpc = c->cur->len - 1;
    /* its options one at a time (next_member) */
    push(c, (struct work){.what = W_VARIANT_END,
                          .type = ty,
                          .parent = f->n,
                          .pc = vpc,
                          .loops = w->loops,
                          .targets = targets,
                          .vsel = vs,
                          .nvsel = nv});
    return TRACERD_OK;
}

/* CTF 2: a variant selected by integer ranges. */
static tracerd_status_t emit_variant2(struct cc *c, const struct field *f)
{
    struct node *sn = NULL;
    struct ctf_vsel *vs = NULL;
    uint32_t nv = 0, slot;
    tracerd_status_t st = tracerd__cc_locate(c, f, WANT_INT, "selector", &sn, &slot);
    if (st == TRACERD_OK)
        st = variant_ranges2(c, f, sn->type->is_signed, &vs, &nv);
    return st == TRACERD_OK ? variant_body(c, f, sn, vs, nv) : st;
}

/* An option name as a mapping label may name it: the name itself, and the
 * name without its leading underscore (TSDL's escape). */
struct optkey {
    const char *key;
    uint32_t option;
};

static int cmp_optkey(const void *a, const void *b)
{
    const struct optkey *x = a, *y = b;
    int r = strcmp(x->key, y->key);
    return r != 0 ? r : (x->option < y->option ? -1 : x->option > y->option);
}

/* TSDL: the variant's selection table. For each mapping of the tag
 * enumeration (in order), the first option its label names. Option names
 * are sorted once and each label is found by binary search: O((m + n) log n),
 * not m x n comparisons. */
static tracerd_status_t variant_select(struct cc *c, const tracerd_ctf_type_t *ty,
                                       const tracerd_ctf_type_t *et, struct ctf_vsel **out,
                                       uint32_t *nout)
{
    size_t nk = 0, cap = 2 * (size_t)ty->nmembers + 1;
    struct optkey *keys = tracerd__calloc(c->tmp.alloc, sizeof *keys * cap);
    struct ctf_vsel *vs = tracerd__ctf_arena_alloc(c->ar, sizeof *vs * (et->nmappings + 1));
    if (keys == NULL || vs == NULL) {
        tracerd__free(c->tmp.alloc, keys, sizeof *keys * cap);
        return tracerd__cc_nomem(c);
    }
    for (uint32_t k = 0; k < ty->nmembers; k++) {
        const char *name = ty->members[k].name;
        keys[nk++] = (struct optkey){name, k};
        if (name[0] == '_')
            keys[nk++] = (struct optkey){name + 1, k};
    }
    qsort(keys, nk, sizeof *keys, cmp_optkey);
    uint32_t nv = 0;
    for (uint32_t m = 0; m < et->nmappings; m++) {
        const char *label = et->mappings[m].label;
        size_t lo = 0, hi = nk; /* first key >= label */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(keys[mid].key, label) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < nk && strcmp(keys[lo].key, label) == 0)
            vs[nv++] = (struct ctf_vsel){
                .lo = et->mappings[m].lo, .hi = et->mappings[m].hi, .option = keys[lo].option};
    }
    tracerd__free(c->tmp.alloc, keys, sizeof *keys * cap);
    *out = vs;
    *nout = nv;
    return TRACERD_OK;
}

static tracerd_status_t emit_variant(struct cc *c, const struct field *f)
{
    const struct work *w = f->w;
    const tracerd_ctf_type_t *ty = w->type;
    if (((const struct ctf_type *)ty)->opts != NULL)
        return emit_variant2(c, f);
    if (ty->path == NULL)
        return tracerd__cc_err(c, ty, TRACERD_E_METADATA, "variant '%s' has no tag", w->display);
    struct node *tn = tracerd__cc_resolve(c, ty->path, w->parent, c->cur_scope);
    if (tn == NULL)
        return tracerd__cc_err(c, ty, TRACERD_E_METADATA,
                               "variant '%s': tag '%s' is not declared before it", w->display,
                               ty->path);
    if (tn->type->kind != TRACERD_CTF_TYPE_ENUM)
        return tracerd__cc_err(c, ty, TRACERD_E_METADATA,
                               "variant '%s': tag '%s' is not an enumeration", w->display,
                               ty->path);
    uint32_t nv = 0;
    struct ctf_vsel *vs = NULL;
    tracerd_status_t st = variant_select(c, ty, tn->type, &vs, &nv);
    return st == TRACERD_OK ? variant_body(c, f, tn, vs, nv) : st;
}

typedef tracerd_status_t (*emitter_fn)(struct cc *c, const struct field *f);

static const emitter_fn emitters[] = {
    [TRACERD_CTF_TYPE_INT] = emit_int,           [TRACERD_CTF_TYPE_ENUM] = emit_int,
    [TRACERD_CTF_TYPE_FLOAT] = emit_float,       [TRACERD_CTF_TYPE_STRING] = emit_string,
    [TRACERD_CTF_TYPE_STRUCT] = emit_struct,     [TRACERD_CTF_TYPE_VARIANT] = emit_variant,
    [TRACERD_CTF_TYPE_ARRAY] = emit_array,       [TRACERD_CTF_TYPE_SEQUENCE] = emit_array,
    [TRACERD_CTF_TYPE_BOOL] = emit_int,          [TRACERD_CTF_TYPE_BIT_MAP] = emit_int,
    [TRACERD_CTF_TYPE_VARINT] = emit_varint,     [TRACERD_CTF_TYPE_BLOB] = emit_blob,
    [TRACERD_CTF_TYPE_OPTIONAL] = emit_optional,
};

tracerd_status_t tracerd__cc_emit_field(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    if ((size_t)ty->kind >= sizeof emitters / sizeof emitters[0] || emitters[ty->kind] == NULL)
        return tracerd__cc_err(c, ty, TRACERD_E_UNSUPPORTED, "field '%s': unknown type kind %d",
                               f->w->display, (int)ty->kind);
    return emitters[ty->kind](c, f);
}
