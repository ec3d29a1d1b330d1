/* CTF compiler: finding fields. The tree of compiled fields and its child
 * map, TSDL paths (sequence lengths, variant tags) and CTF 2 field
 * locations resolved to the field they name, value slots, and the reader
 * roles of header and context fields. */
#include <stdio.h>

#include "compile.h"

static bool name_is(const struct node *n, const char *s, size_t len)
{
    return (strlen(n->name) == len && memcmp(n->name, s, len) == 0) ||
           (strlen(n->display) == len && memcmp(n->display, s, len) == 0);
}

/* Children are found through c->kids, keyed by (parent, name) for the raw
 * name and (parent, display) for the display name: constant time however
 * wide the structure. The first child in declaration order wins. */
static uint64_t kid_key(const struct node *p, const char *s, size_t len)
{
    return tracerd__hash_bytes(s, len) ^ tracerd__hash_u64((uint64_t)(uintptr_t)p);
}

static struct node *child(struct cc *c, struct node *p, const char *s, size_t len)
{
    uint64_t key = kid_key(p, s, len), v;
    if (!tracerd__hmap_get(kids_of(c, p->scope), key, &v))
        return NULL;
    struct node *found = NULL; /* chains are newest first: keep the last match */
    for (struct node *n = (struct node *)(uintptr_t)v; n != NULL;) {
        if (n->parent == p && name_is(n, s, len))
            found = n;
        /* n is in this chain by its raw name's key, else by its display name's */
        n = kid_key(n->parent, n->name, strlen(n->name)) == key ? n->same[0] : n->same[1];
    }
    return found;
}

tracerd_status_t tracerd__cc_add_kid(struct cc *c, struct node *n)
{
    struct tracerd__hmap *kids = kids_of(c, n->scope);
    uint64_t k0 = kid_key(n->parent, n->name, strlen(n->name));
    uint64_t k1 = kid_key(n->parent, n->display, strlen(n->display));
    for (int i = 0; i < 2; i++) {
        uint64_t k = i == 0 ? k0 : k1, v;
        if (i == 1 && k1 == k0)
            break; /* one chain only (same name, or a hash collision) */
        if (tracerd__hmap_get(kids, k, &v))
            n->same[i] = (struct node *)(uintptr_t)v;
        if (tracerd__hmap_put(kids, c->tmp.alloc, k, (uint64_t)(uintptr_t)n) != TRACERD_OK)
            return TRACERD_E_NOMEM;
    }
    return TRACERD_OK;
}

static struct node *descend(struct cc *c, struct node *n, const char *rest)
{
    while (n && *rest) {
        const char *dot = strchr(rest, '.');
        size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
        if (n->type->kind == TRACERD_CTF_TYPE_ARRAY || n->type->kind == TRACERD_CTF_TYPE_SEQUENCE)
            return NULL;
        n = child(c, n, rest, len);
        rest = dot ? dot + 1 : rest + len;
    }
    return n;
}

/* Resolves a length/tag path seen inside `parent` of scope `scope`. */
struct node *tracerd__cc_resolve(struct cc *c, const char *path, struct node *parent, int scope)
{
    for (int s = 0; s < SC_N; s++) {
        size_t n = strlen(tracerd__cc_scope_prefix[s]);
        if (strncmp(path, tracerd__cc_scope_prefix[s], n) == 0 && path[n] == '.') {
            if (s > scope || c->roots[s] == NULL)
                return NULL;
            return descend(c, c->roots[s], path + n + 1);
        }
    }
    const char *dot = strchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : strlen(path);
    for (struct node *p = parent; p; p = p->parent) {
        struct node *n = child(c, p, path, len);
        if (n)
            return dot ? descend(c, n, dot + 1) : n;
    }
    for (int s = scope - 1; s >= 0; s--) {
        if (c->roots[s] == NULL)
            continue;
        struct node *n = child(c, c->roots[s], path, len);
        if (n)
            return dot ? descend(c, n, dot + 1) : n;
    }
    return NULL;
}

/* The structure node at or above n (arrays, optionals and variants are
 * looked through), or NULL. */
static struct node *struct_at(struct node *n)
{
    while (n && n->type->kind != TRACERD_CTF_TYPE_STRUCT)
        n = n->parent;
    return n;
}

static bool is_int_kind(tracerd_ctf_type_kind_t k)
{
    return k == TRACERD_CTF_TYPE_INT || k == TRACERD_CTF_TYPE_ENUM || k == TRACERD_CTF_TYPE_VARINT;
}

/* Whether a field of role `role` comes after instruction `from` in code v
 * (up to `to`, or to its END when `to` is UINT32_MAX). */
static bool role_again(const struct ctf_insn *v, uint32_t from, uint32_t to, uint8_t role)
{
    for (uint32_t k = from + 1; k < to && v[k].op != OP_END; k++)
        if (v[k].role == role)
            return true;
    return false;
}

/* Node n's instruction. */
static struct ctf_insn *insn_of(struct cc *c, const struct node *n)
{
    return n->scope == c->cur_scope ? &c->cur->v[n->idx] : &c->codes[n->scope][n->idx];
}

/* The slot field n's value can be read from by a field compiled now, or 0
 * when it has none yet. A field with a role keeps its value in its role's
 * slot, unless another field of the same role may be stored there between
 * it and the field naming it (an LTTng header's 5-bit id is 31 in the
 * extended form, and the extended id after it is its role's value): then
 * it needs a slot of its own (store_int writes both). */
static uint32_t kept_slot(struct cc *c, const struct node *n)
{
    const bool cur = n->scope == c->cur_scope;
    const struct ctf_insn *v = cur ? c->cur->v : c->codes[n->scope], *in = &v[n->idx];
    if (in->role != 0 && in->slot == in->role &&
        role_again(v, n->idx, cur ? c->cur->len : UINT32_MAX, in->role))
        return 0;
    return in->slot;
}

/* The slot field n's value is kept in for the fields that name it (made
 * when it has none: kept_slot). */
uint32_t tracerd__cc_slot_of(struct cc *c, struct node *n)
{
    struct ctf_insn *in = insn_of(c, n);
    if (kept_slot(c, n) == 0)
        in->slot = c->t->nslots++;
    return in->slot;
}

void tracerd__cc_value_slot(struct cc *c, const struct field *f)
{
    const struct node *n = f->n;
    if (c->t->nvnames == 0 || f->depth != 1 || (n->scope != SC_SEC && n->scope != SC_EC) ||
        !is_int_kind(n->type->kind))
        return;
    const uint8_t scope = n->scope == SC_SEC ? TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT
                                             : TRACERD_CTF_SCOPE_EVENT_CONTEXT;
    struct ctf_insn *in = &c->cur->v[n->idx];
    if (in->slot != 0 || (in->flags & INSN_BOOL) || !(INT_OP(in->op) || in->op == OP_VARINT))
        return;
    for (uint32_t i = 0; i < c->t->nvnames; i++)
        if (c->t->vnames[i].scope == scope && !strcmp(c->t->vnames[i].name, n->display)) {
            in->slot = CTF_FIRST_FREE_SLOT + i;
            c->vset |= 1u << i;
            return;
        }
}

int tracerd__cc_role_of(int scope, const struct node *n, uint32_t depth)
{
    const char *d = n->display;
    const tracerd_ctf_type_t *ty = n->type;
    switch (scope) {
    case SC_PH:
        if (depth != 1)
            return ROLE_NONE;
        if (!strcmp(d, "magic") && ty->size_bits == 32)
            return ROLE_MAGIC;
        if (!strcmp(d, "stream_id"))
            return ROLE_STREAM_ID;
        if (!strcmp(d, "stream_instance_id"))
            return ROLE_STREAM_INSTANCE_ID;
        return ROLE_NONE;
    case SC_PC:
        if (depth != 1)
            return ROLE_NONE;
        if (!strcmp(d, "content_size"))
            return ROLE_CONTENT_SIZE;
        if (!strcmp(d, "packet_size"))
            return ROLE_PACKET_SIZE;
        if (!strcmp(d, "timestamp_begin"))
            return ROLE_TS_BEGIN;
        if (!strcmp(d, "timestamp_end"))
            return ROLE_TS_END;
        if (!strcmp(d, "events_discarded"))
            return ROLE_DISCARDED;
        if (!strcmp(d, "packet_seq_num"))
            return ROLE_SEQ_NUM;
        if (!strcmp(d, "cpu_id"))
            return ROLE_CPU_ID;
        return ROLE_NONE;
    case SC_EH:
        if (!strcmp(d, "id"))
            return ROLE_EVENT_ID;
        if (!strcmp(d, "timestamp") || ty->clock >= 0)
            return ROLE_TIMESTAMP;
        return ROLE_NONE;
    default:
        return ROLE_NONE;
    }
}

/* CTF 2: the reader role of a field from its `roles`, checked against the
 * scope (and the magic's place, the clock roles' default clock). Sets *role;
 * returns an error for a role the scope does not allow. */
tracerd_status_t tracerd__cc_role2(struct cc *c, const struct node *n, int *role)
{
    static const struct {
        uint32_t bit;
        int scope;
        int role;
    } map[] = {
        {TRACERD_CTF_ROLE_PACKET_MAGIC, SC_PH, ROLE_MAGIC},
        {TRACERD_CTF_ROLE_METADATA_UUID, SC_PH, ROLE_UUID},
        {TRACERD_CTF_ROLE_STREAM_CLASS_ID, SC_PH, ROLE_STREAM_ID},
        {TRACERD_CTF_ROLE_STREAM_ID, SC_PH, ROLE_STREAM_INSTANCE_ID},
        {TRACERD_CTF_ROLE_PACKET_TOTAL_LENGTH, SC_PC, ROLE_PACKET_SIZE},
        {TRACERD_CTF_ROLE_PACKET_CONTENT_LENGTH, SC_PC, ROLE_CONTENT_SIZE},
        {TRACERD_CTF_ROLE_CLOCK_TIMESTAMP, SC_PC, ROLE_TS_BEGIN},
        {TRACERD_CTF_ROLE_CLOCK_TIMESTAMP, SC_EH, ROLE_TIMESTAMP},
        {TRACERD_CTF_ROLE_PACKET_END_TIMESTAMP, SC_PC, ROLE_TS_END},
        {TRACERD_CTF_ROLE_DISCARDED_COUNTER, SC_PC, ROLE_DISCARDED},
        {TRACERD_CTF_ROLE_PACKET_SEQ_NUM, SC_PC, ROLE_SEQ_NUM},
        {TRACERD_CTF_ROLE_EVENT_CLASS_ID, SC_EH, ROLE_EVENT_ID},
    };
    const tracerd_ctf_type_t *ty = n->type;
    *role = ROLE_NONE;
    for (uint32_t b = ty->roles; b != 0; b &= b - 1) {
        uint32_t bit = b & (~b + 1u);
        size_t k = 0;
        while (k < sizeof map / sizeof map[0] &&
               !(map[k].bit == bit && map[k].scope == c->cur_scope))
            k++;
        if (k == sizeof map / sizeof map[0])
            return tracerd__cc_err(c, ty, TRACERD_E_METADATA,
                                   "field '%s': a role is not allowed in %s", n->meta->path,
                                   tracerd__cc_scope_prefix[c->cur_scope]);
        if (*role != ROLE_NONE)
            return tracerd__cc_err(c, ty, TRACERD_E_UNSUPPORTED, "field '%s': more than one role",
                                   n->meta->path);
        *role = map[k].role;
    }
    if (*role == ROLE_MAGIC && (ty->size_bits != 32 || n->parent == NULL ||
                                n->parent->parent != NULL || n->parent->first != n))
        return tracerd__cc_err(
            c, ty, TRACERD_E_METADATA,
            "field '%s': the packet magic must be the first packet header member, a "
            "32-bit unsigned integer",
            n->meta->path);
    if ((*role == ROLE_TIMESTAMP || *role == ROLE_TS_BEGIN || *role == ROLE_TS_END) &&
        (c->sc == NULL || c->sc->default_clock < 0))
        return tracerd__cc_err(
            c, ty, TRACERD_E_METADATA,
            "field '%s': a clock timestamp role in a data stream class without a "
            "default clock class",
            n->meta->path);
    return TRACERD_OK;
}

/* ---- CTF 2 field locations ------------------------------------------------ */

/* An optional or a variant crossed on the way to a target that does not
 * hold the dependent field (so it may not have been decoded), and the
 * option taken (0 for an optional); `up`: the one crossed before. */
struct xing {
    struct node *box;
    uint32_t opt;
    const struct xing *up;
};

/* A candidate target while a location is walked. */
struct cand {
    struct node *n;
    const struct xing *x; /* innermost conditional crossing, or NULL */
};

struct cands {
    struct cand *v;
    uint32_t n, cap;
};

static bool holds(const struct node *box, const struct node *n)
{
    for (; n != NULL; n = n->parent)
        if (n == box)
            return true;
    return false;
}

static bool add_cand(struct cc *c, struct cands *cs, struct node *n, const struct xing *x)
{
    if (!tracerd__ctf_arena_grow(&c->tmp, (void **)&cs->v, cs->n, &cs->cap, sizeof *cs->v))
        return false;
    cs->v[cs->n++] = (struct cand){n, x};
    return true;
}

/* Where a location walk failed, for the message. */
enum { LOC_OK, LOC_NOMEM, LOC_NOT_FOUND, LOC_ARRAY };

/* Descends from candidate `k` through arrays (to the element being decoded:
 * the dependent `dep` must be inside it), optionals (to the field) and
 * variants (to the option holding `dep`, else to every option: one
 * candidate each), appending the results to `out`. */
static int dive(struct cc *c, struct cand k, const struct node *dep, struct cands *out,
                struct node **array)
{
    struct node *n = k.n;
    const struct xing *x = k.x;
    for (;;) {
        tracerd_ctf_type_kind_t kind = n->type->kind;
        if (kind == TRACERD_CTF_TYPE_ARRAY || kind == TRACERD_CTF_TYPE_SEQUENCE) {
            if (n->first == NULL || !holds(n->first, dep)) {
                *array = n;
                return LOC_ARRAY;
            }
            n = n->first;
        } else if (kind == TRACERD_CTF_TYPE_OPTIONAL) {
            if (n->first == NULL)
                return LOC_OK; /* its field is not compiled yet: not before the dependent */
            if (!holds(n->first, dep)) {
                struct xing *nx = tracerd__ctf_arena_alloc(&c->tmp, sizeof *nx);
                if (nx == NULL)
                    return LOC_NOMEM;
                *nx = (struct xing){n, 0, x};
                x = nx;
            }
            n = n->first;
        } else if (kind == TRACERD_CTF_TYPE_VARIANT) {
            struct node *in = NULL;
            for (struct node *o = n->first; o != NULL && in == NULL; o = o->next)
                if (holds(o, dep))
                    in = o;
            if (in != NULL) {
                n = in;
                continue;
            }
            uint32_t opt = 0;
            for (struct node *o = n->first; o != NULL; o = o->next, opt++) {
                struct xing *nx = tracerd__ctf_arena_alloc(&c->tmp, sizeof *nx);
                if (nx == NULL)
                    return LOC_NOMEM;
                *nx = (struct xing){n, opt, x};
                int rc = dive(c, (struct cand){o, nx}, dep, out, array);
                if (rc != LOC_OK)
                    return rc;
            }
            return LOC_OK;
        } else {
            return add_cand(c, out, n, x) ? LOC_OK : LOC_NOMEM;
        }
    }
}

/* A CTF 2 field location: from the origin scope's root, or from the
 * innermost structure holding the dependent field `dep` (climbing `up`
 * more); then member names, looking through arrays, optionals and variants
 * after each step (dive). Only fields already compiled (decoded before the
 * dependent one) are found. The targets go to `out` (several through the
 * options of a variant that does not hold `dep`). */
static int resolve2(struct cc *c, const struct ctf_loc *loc, struct node *dep, struct cands *out,
                    struct node **array)
{
    struct node *n;
    if (loc->origin >= 0) {
        if (loc->origin > c->cur_scope)
            return LOC_NOT_FOUND;
        n = c->roots[loc->origin];
    } else {
        n = struct_at(dep->parent);
        for (uint32_t i = 0; i < loc->up && n; i++)
            n = struct_at(n->parent);
    }
    if (n == NULL)
        return LOC_NOT_FOUND;
    struct cands cur = {0};
    if (!add_cand(c, &cur, n, NULL))
        return LOC_NOMEM;
    for (uint32_t i = 0; i < loc->nnames; i++) {
        struct cands next = {0};
        for (uint32_t k = 0; k < cur.n; k++) {
            struct node *p = cur.v[k].n;
            if (p->type->kind != TRACERD_CTF_TYPE_STRUCT)
                continue; /* a scalar before the path's end: no target through it */
            struct node *m = child(c, p, loc->names[i], strlen(loc->names[i]));
            if (m == NULL)
                continue;
            int rc = dive(c, (struct cand){m, cur.v[k].x}, dep, &next, array);
            if (rc != LOC_OK)
                return rc;
        }
        cur = next;
    }
    *out = cur;
    return cur.n > 0 && loc->nnames > 0 ? LOC_OK : LOC_NOT_FOUND;
}

/* Adds slot s to a grown slot list (once). */
static bool slots_add(struct cc *c, struct ctf_slots *l, uint32_t s)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (l->v[i] == s)
            return true;
    if (!tracerd__ctf_arena_grow(c->ar, (void **)&l->v, l->n, &l->cap, sizeof *l->v))
        return false;
    l->v[l->n++] = s;
    return true;
}

/* Registers validity flag `flag` with every optional/variant crossed on the
 * way to a target: each clears it on entry; the innermost sets it when it
 * takes the option holding the target. */
static bool mark_crossings(struct cc *c, const struct xing *x, uint32_t flag)
{
    for (const struct xing *i = x; i != NULL; i = i->up) {
        struct ctf_meta *m = (struct ctf_meta *)(uintptr_t)i->box->meta;
        uint32_t nopt = i->box->type->kind == TRACERD_CTF_TYPE_VARIANT ? i->box->type->nmembers : 1;
        if (m->kill == NULL) {
            m->kill = tracerd__ctf_arena_alloc(c->ar, sizeof *m->kill);
            m->valid = tracerd__ctf_arena_alloc(c->ar, sizeof *m->valid * nopt);
            if (m->kill == NULL || m->valid == NULL)
                return false;
        }
        if (!slots_add(c, m->kill, flag) || (i == x && !slots_add(c, &m->valid[i->opt], flag)))
            return false;
    }
    return true;
}

static bool loc_kind_ok(const tracerd_ctf_type_t *t, enum loc_want want)
{
    switch (want) {
    case WANT_LENGTH:
        return is_int_kind(t->kind) && !t->is_signed;
    case WANT_INT:
        return is_int_kind(t->kind);
    default:
        return t->kind == TRACERD_CTF_TYPE_BOOL;
    }
}

/* The field a sequence length, a BLOB/string length, a variant tag or an
 * optional selector names (f: the dependent field): checked against `want`,
 * its value slot in *slot (several CTF 2 candidates share it), the first
 * target in *out. A CTF 2 location through an optional or a variant that
 * does not hold the dependent gets a validity flag and an OP_LOC_CHECK
 * before the dependent. */
tracerd_status_t tracerd__cc_locate(struct cc *c, const struct field *f, enum loc_want want,
                                    const char *what, struct node **out, uint32_t *slot)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    const struct ctf_type *ct = (const struct ctf_type *)ty;
    static const char *const kinds[] = {"an unsigned integer", "an integer", "a boolean"};
    struct cands cs = {0};
    struct node *array = NULL;
    char who[160];
    if (ty->kind == TRACERD_CTF_TYPE_SEQUENCE)
        snprintf(who, sizeof who, "sequence '%.100s'", f->w->display);
    else
        snprintf(who, sizeof who, "'%.140s'", f->meta->path);
    int rc;
    if (ct->loc == NULL) {
        struct node *n = tracerd__cc_resolve(c, ty->path, f->w->parent, c->cur_scope);
        rc = n != NULL ? LOC_OK : LOC_NOT_FOUND;
        if (n != NULL && !add_cand(c, &cs, n, NULL))
            rc = LOC_NOMEM;
    } else {
        rc = resolve2(c, ct->loc, f->n, &cs, &array);
    }
    if (rc == LOC_NOMEM)
        return tracerd__cc_nomem(c);
    if (rc == LOC_ARRAY)
        return tracerd__cc_err(
            c, ty, TRACERD_E_METADATA,
            "%s: %s '%s' goes through the array '%s' from outside its element (only "
            "the element being decoded can be named)",
            who, what, ty->path, array->meta->path);
    if (rc != LOC_OK)
        return tracerd__cc_err(c, ty, TRACERD_E_METADATA, "%s: %s '%s' is not declared before it",
                               who, what, ty->path);
    const tracerd_ctf_type_t *t0 = cs.v[0].n->type;
    uint32_t s = 0;
    bool cond = false;
    for (uint32_t k = 0; k < cs.n; k++) {
        const tracerd_ctf_type_t *t = cs.v[k].n->type;
        if (!loc_kind_ok(t, want))
            return tracerd__cc_err(c, ty, TRACERD_E_METADATA, "%s: %s '%s' is not %s", who, what,
                                   ty->path, kinds[want]);
        if (t->is_signed != t0->is_signed)
            return tracerd__cc_err(
                c, ty, TRACERD_E_METADATA,
                "%s: %s '%s' names fields of different signedness through the options "
                "of a variant",
                who, what, ty->path);
        const uint32_t ks = kept_slot(c, cs.v[k].n);
        if (ks != 0 && s != 0 && ks != s)
            return tracerd__cc_err(c, ty, TRACERD_E_UNSUPPORTED,
                                   "%s: %s '%s' names fields through the options of a variant that "
                                   "already keep their values apart",
                                   who, what, ty->path);
        if (ks != 0)
            s = ks;
        cond = cond || cs.v[k].x != NULL;
    }
    for (uint32_t k = 0; k < cs.n; k++) {
        struct ctf_insn *in = insn_of(c, cs.v[k].n);
        if (kept_slot(c, cs.v[k].n) == 0 && s != 0 && s < CTF_FIRST_FREE_SLOT)
            return tracerd__cc_err(
                c, ty, TRACERD_E_UNSUPPORTED,
                "%s: %s '%s' names, through the options of a variant, a field with a "
                "role and one without",
                who, what, ty->path);
        if (s == 0)
            s = tracerd__cc_slot_of(c, cs.v[k].n);
        in->slot = s;
    }
    *slot = s;
    *out = cs.v[0].n;
    if (!cond)
        return TRACERD_OK;
    uint64_t flag;
    if (!tracerd__hmap_get(&c->flags, s, &flag)) {
        flag = c->t->nslots++;
        if (tracerd__hmap_put(&c->flags, c->tmp.alloc, s, flag) != TRACERD_OK)
            return tracerd__cc_nomem(c);
    }
    for (uint32_t k = 0; k < cs.n; k++)
        if (!mark_crossings(c, cs.v[k].x, (uint32_t)flag))
            return tracerd__cc_nomem(c);
    if (insn(c,
             (struct ctf_insn){
                 .op = OP_LOC_CHECK, .align = 1, .slot = (uint32_t)flag, .meta = f->meta}) == NULL)
        return tracerd__cc_nomem(c);
    return TRACERD_OK;
}
