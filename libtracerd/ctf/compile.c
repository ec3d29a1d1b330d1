/* CTF: compiles every dynamic scope of a trace model into a flat program
 * (struct ctf_insn arrays). Field paths (sequence lengths, variant tags) are
 * resolved here, once; decoding never looks a name up. The type tree is
 * walked with an explicit work stack (no recursion). */
#include <stdio.h>
#include <stdlib.h>

#include "ctf_internal.h"

enum { SC_PH, SC_PC, SC_EH, SC_SEC, SC_EC, SC_EF, SC_N };

static const char *const scope_prefix[SC_N] = {"trace.packet.header", "stream.packet.context",
                                               "stream.event.header", "stream.event.context",
                                               "event.context",       "event.fields"};

struct clock_key;

struct node {
    const char *name; /* raw */
    const char *display;
    const tracerd_ctf_type_t *type;
    struct node *parent, *first, *last, *next;
    struct node *same[2]; /* child map chains: the node before with the same name/display key */
    const struct ctf_meta *meta;
    int scope;
    uint32_t idx; /* instruction index (ints/enums) */
    bool in_loop;
};

struct pbuf {
    struct ctf_insn *v;
    uint32_t len, cap;
};

struct cc {
    struct tracerd_ctf_trace *t;
    struct ctf_arena tmp; /* nodes and work: freed after compiling */
    struct ctf_arena *ar; /* the trace's arena */
    struct node *roots[SC_N];
    struct ctf_insn *codes[SC_N]; /* final code of compiled scopes */
    struct pbuf *cur;             /* buffer of the scope being compiled */
    int cur_scope;
    char *reason;
    size_t rsize;
    uint32_t *line, *col;
    uint32_t depth_max;
    const tracerd_ctf_stream_class_t *sc; /* the stream class being compiled, or NULL */
    bool ctf2;
    struct work *ws; /* work stack of the scope being compiled */
    size_t wn, wcap;
    struct pbuf code, fused;       /* scratch programs, reused by every scope */
    struct tracerd__hmap kids;     /* hash of (parent node, name) -> newest child node */
    struct tracerd__hmap flags;    /* value slot -> validity flag slot (CTF 2 locations) */
    uint64_t nodes, max_nodes;     /* fields expanded so far (every scope), bound */
    uint64_t path_bytes;           /* bytes of field paths made; bound 64 x max_nodes */
    char owner[160];               /* what the scopes being compiled belong to, for errors */
    struct clock_key *clock_order; /* clocks sorted by name (clock_named) */
};

struct work {
    int what;
    const tracerd_ctf_type_t *type;
    const char *name;
    const char *display;
    struct node *parent;
    uint32_t pc;
    uint32_t i;
    uint32_t loops;
    uint32_t *targets;     /* W_OPT_BEGIN, W_VARIANT_END: first instruction of each option */
    struct ctf_vsel *vsel; /* W_VARIANT_END */
    uint32_t nvsel;
    const struct ctf_meta *meta; /* W_STRUCT_END */
};

enum {
    W_FIELD,
    W_STRUCT_END,
    W_ARRAY_END,
    W_SEQ_END,
    W_OPT_BEGIN,
    W_OPT_END,
    W_VARIANT_END,
    W_OPTIONAL_END
};

static tracerd_status_t cerr(struct cc *c, const tracerd_ctf_type_t *at, tracerd_status_t st,
                             const char *fmt, ...) TRACERD__PRINTF(4, 5);
static tracerd_status_t cerr(struct cc *c, const tracerd_ctf_type_t *at, tracerd_status_t st,
                             const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const struct ctf_type *ct = (const struct ctf_type *)at;
    *c->line = ct && !ct->ctf2 ? ct->line : 0;
    *c->col = ct && !ct->ctf2 ? ct->col : 0;
    if (ct && ct->ctf2) {
        c->t->err_offset = ct->frag_off;
        tracerd__format(c->reason, c->rsize, "CTF 2 metadata fragment %u (byte %llu): %s",
                        ct->line - 1, (unsigned long long)ct->frag_off, msg);
    } else if (ct)
        tracerd__format(c->reason, c->rsize, "metadata line %u, column %u: %s", ct->line, ct->col,
                        msg);
    else
        tracerd__format(c->reason, c->rsize, "metadata: %s", msg);
    return st;
}

static tracerd_status_t nomem(struct cc *c)
{
    tracerd__format(c->reason, c->rsize, "metadata: out of memory while compiling");
    return TRACERD_E_NOMEM;
}

static struct ctf_insn *emit(struct cc *c, struct pbuf *b)
{
    if (b->len == b->cap) {
        uint32_t nc = b->cap ? b->cap * 2 : 64;
        struct ctf_insn *v = tracerd__calloc(c->tmp.alloc, sizeof *v * nc);
        if (v == NULL)
            return NULL;
        if (b->len)
            memcpy(v, b->v, sizeof *v * b->len);
        tracerd__free(c->tmp.alloc, b->v, sizeof *v * b->cap);
        b->v = v;
        b->cap = nc;
    }
    struct ctf_insn *in = &b->v[b->len++];
    memset(in, 0, sizeof *in);
    return in;
}

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
    if (!tracerd__hmap_get(&c->kids, key, &v))
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

static tracerd_status_t add_kid(struct cc *c, struct node *n)
{
    uint64_t k0 = kid_key(n->parent, n->name, strlen(n->name));
    uint64_t k1 = kid_key(n->parent, n->display, strlen(n->display));
    for (int i = 0; i < 2; i++) {
        uint64_t k = i == 0 ? k0 : k1, v;
        if (i == 1 && k1 == k0)
            break; /* one chain only (same name, or a hash collision) */
        if (tracerd__hmap_get(&c->kids, k, &v))
            n->same[i] = (struct node *)(uintptr_t)v;
        if (tracerd__hmap_put(&c->kids, c->tmp.alloc, k, (uint64_t)(uintptr_t)n) != TRACERD_OK)
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
static struct node *resolve(struct cc *c, const char *path, struct node *parent, int scope)
{
    for (int s = 0; s < SC_N; s++) {
        size_t n = strlen(scope_prefix[s]);
        if (strncmp(path, scope_prefix[s], n) == 0 && path[n] == '.') {
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

static uint32_t slot_of(struct cc *c, struct node *n)
{
    struct ctf_insn *in =
        n->scope == c->cur_scope ? &c->cur->v[n->idx] : &c->codes[n->scope][n->idx];
    if (in->slot == 0)
        in->slot = c->t->nslots++;
    return in->slot;
}

static int role_of(int scope, const struct node *n, uint32_t depth)
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
static tracerd_status_t role2(struct cc *c, const struct node *n, int *role)
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
            return cerr(c, ty, TRACERD_E_METADATA, "field '%s': a role is not allowed in %s",
                        n->meta->path, scope_prefix[c->cur_scope]);
        if (*role != ROLE_NONE)
            return cerr(c, ty, TRACERD_E_UNSUPPORTED, "field '%s': more than one role",
                        n->meta->path);
        *role = map[k].role;
    }
    if (*role == ROLE_MAGIC && (ty->size_bits != 32 || n->parent == NULL ||
                                n->parent->parent != NULL || n->parent->first != n))
        return cerr(c, ty, TRACERD_E_METADATA,
                    "field '%s': the packet magic must be the first packet header member, a "
                    "32-bit unsigned integer",
                    n->meta->path);
    if ((*role == ROLE_TIMESTAMP || *role == ROLE_TS_BEGIN || *role == ROLE_TS_END) &&
        (c->sc == NULL || c->sc->default_clock < 0))
        return cerr(c, ty, TRACERD_E_METADATA,
                    "field '%s': a clock timestamp role in a data stream class without a "
                    "default clock class",
                    n->meta->path);
    return TRACERD_OK;
}

static char *join_path(struct cc *c, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = tracerd__ctf_arena_alloc(c->ar, na + nb + 2);
    if (p == NULL)
        return NULL;
    memcpy(p, a, na);
    if (nb) {
        p[na] = '.';
        memcpy(p + na + 1, b, nb);
        p[na + 1 + nb] = '\0';
    } else {
        p[na] = '\0';
    }
    return p;
}

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
            return nomem(c);
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
            return cerr(c, ty, TRACERD_E_METADATA, "map names clock '%s', which is not declared",
                        t->clock_name);
    }
    return TRACERD_OK;
}

/* ==== emitters: one per type kind ========================================== */

/* The field being compiled: its work item, tree node, display data and
 * nesting depth (number of enclosing compound fields). */
struct field {
    const struct work *w;
    struct node *n;
    struct ctf_meta *meta;
    uint32_t depth;
};

/* Appends instruction v to the scope's program; NULL when out of memory. */
static struct ctf_insn *insn(struct cc *c, struct ctf_insn v)
{
    struct ctf_insn *in = emit(c, c->cur);
    if (in != NULL)
        *in = v;
    return in;
}

/* The stack has room for every push of one step (see compile_scope). */
static void push(struct cc *c, struct work w)
{
    c->ws[c->wn++] = w;
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

/* What a location must name: a length (unsigned integer), an integer
 * selector, or a boolean selector. */
enum loc_want { WANT_LENGTH, WANT_INT, WANT_BOOL };

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
static tracerd_status_t locate(struct cc *c, const struct field *f, enum loc_want want,
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
        struct node *n = resolve(c, ty->path, f->w->parent, c->cur_scope);
        rc = n != NULL ? LOC_OK : LOC_NOT_FOUND;
        if (n != NULL && !add_cand(c, &cs, n, NULL))
            rc = LOC_NOMEM;
    } else {
        rc = resolve2(c, ct->loc, f->n, &cs, &array);
    }
    if (rc == LOC_NOMEM)
        return nomem(c);
    if (rc == LOC_ARRAY)
        return cerr(c, ty, TRACERD_E_METADATA,
                    "%s: %s '%s' goes through the array '%s' from outside its element (only "
                    "the element being decoded can be named)",
                    who, what, ty->path, array->meta->path);
    if (rc != LOC_OK)
        return cerr(c, ty, TRACERD_E_METADATA, "%s: %s '%s' is not declared before it", who, what,
                    ty->path);
    const tracerd_ctf_type_t *t0 = cs.v[0].n->type;
    uint32_t s = 0;
    bool cond = false;
    for (uint32_t k = 0; k < cs.n; k++) {
        const tracerd_ctf_type_t *t = cs.v[k].n->type;
        if (!loc_kind_ok(t, want))
            return cerr(c, ty, TRACERD_E_METADATA, "%s: %s '%s' is not %s", who, what, ty->path,
                        kinds[want]);
        if (t->is_signed != t0->is_signed)
            return cerr(c, ty, TRACERD_E_METADATA,
                        "%s: %s '%s' names fields of different signedness through the options "
                        "of a variant",
                        who, what, ty->path);
        struct ctf_insn *in = cs.v[k].n->scope == c->cur_scope
                                  ? &c->cur->v[cs.v[k].n->idx]
                                  : &c->codes[cs.v[k].n->scope][cs.v[k].n->idx];
        if (in->slot != 0 && s != 0 && in->slot != s)
            return cerr(c, ty, TRACERD_E_UNSUPPORTED,
                        "%s: %s '%s' names fields through the options of a variant that "
                        "already keep their values apart",
                        who, what, ty->path);
        if (in->slot != 0)
            s = in->slot;
        cond = cond || cs.v[k].x != NULL;
    }
    for (uint32_t k = 0; k < cs.n; k++) {
        struct ctf_insn *in = cs.v[k].n->scope == c->cur_scope
                                  ? &c->cur->v[cs.v[k].n->idx]
                                  : &c->codes[cs.v[k].n->scope][cs.v[k].n->idx];
        if (in->slot == 0 && s != 0 && s < CTF_FIRST_FREE_SLOT)
            return cerr(c, ty, TRACERD_E_UNSUPPORTED,
                        "%s: %s '%s' names, through the options of a variant, a field with a "
                        "role and one without",
                        who, what, ty->path);
        if (s == 0)
            s = slot_of(c, cs.v[k].n);
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
            return nomem(c);
    }
    for (uint32_t k = 0; k < cs.n; k++)
        if (!mark_crossings(c, cs.v[k].x, (uint32_t)flag))
            return nomem(c);
    if (insn(c,
             (struct ctf_insn){
                 .op = OP_LOC_CHECK, .align = 1, .slot = (uint32_t)flag, .meta = f->meta}) == NULL)
        return nomem(c);
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

/* The label table of an enumeration, built once per type. */
static tracerd_status_t enum_ranges(struct cc *c, const tracerd_ctf_type_t *ty)
{
    struct ctf_type *t = (struct ctf_type *)(uintptr_t)ty;
    if (t->ranges_built || ty->nmappings == 0)
        return TRACERD_OK;
    struct ctf_range *in = tracerd__calloc(c->tmp.alloc, sizeof *in * ty->nmappings);
    if (in == NULL)
        return nomem(c);
    for (uint32_t i = 0; i < ty->nmappings; i++)
        in[i] = (struct ctf_range){ctf_range_key((uint64_t)ty->mappings[i].lo, ty->is_signed),
                                   ctf_range_key((uint64_t)ty->mappings[i].hi, ty->is_signed), i};
    tracerd_status_t st =
        tracerd__ctf_ranges_build(c->ar, c->tmp.alloc, in, ty->nmappings, &t->ranges, &t->nranges);
    tracerd__free(c->tmp.alloc, in, sizeof *in * ty->nmappings);
    if (st != TRACERD_OK)
        return nomem(c);
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
    int role = role_of(c->cur_scope, f->n, f->depth);
    if (c->ctf2) {
        /* CTF 2 has no CPU role: LTTng's packet context keeps `cpu_id` by name */
        bool cpu = role == ROLE_CPU_ID;
        if ((st = role2(c, f->n, &role)) != TRACERD_OK)
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
        return nomem(c);
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
        return cerr(c, ty, TRACERD_E_UNSUPPORTED,
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
        return nomem(c);
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
        return nomem(c);
    return TRACERD_OK;
}

static tracerd_status_t emit_struct(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    if (insn(c, (struct ctf_insn){
                    .op = OP_STRUCT_BEGIN, .align = ty->align_bits, .meta = f->meta}) == NULL)
        return nomem(c);
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
    if (seq && (st = locate(c, f, WANT_LENGTH, "length field", &ln, &slot)) != TRACERD_OK)
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
        return nomem(c);
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
    tracerd_status_t st = role2(c, f->n, &role);
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
        return nomem(c);
    f->n->idx = c->cur->len - 1;
    return TRACERD_OK;
}

/* CTF 2: static- and dynamic-length BLOBs. */
static tracerd_status_t emit_blob(struct cc *c, const struct field *f)
{
    const tracerd_ctf_type_t *ty = f->w->type;
    uint32_t slot = 0;
    int role = ROLE_NONE;
    tracerd_status_t st = role2(c, f->n, &role);
    struct node *ln;
    if (st == TRACERD_OK && ty->path != NULL)
        st = locate(c, f, WANT_LENGTH, "length field", &ln, &slot);
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
        return nomem(c);
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
        return nomem(c);
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
            return cerr(c, ty, TRACERD_E_METADATA,
                        "variant '%s': the ranges of options %u and %u overlap", f->meta->path,
                        sorted[i - 1].option, sorted[i].option);
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
        locate(c, f, ct->sel == NULL ? WANT_BOOL : WANT_INT, "selector", &sn, &slot);
    if (st != TRACERD_OK)
        return st;
    bool sgn = sn->type->is_signed;
    if (ct->sel != NULL) {
        struct ctf_vsel *vs = tracerd__ctf_arena_alloc(c->ar, sizeof *vs * (ct->sel->n + 1));
        if (vs == NULL)
            return nomem(c);
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
        return nomem(c);
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
        return nomem(c);
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
        return nomem(c);
    f->meta->vsel = vs;
    f->meta->nvsel = nv;
    f->meta->option_names = on;
    if (insn(c, (struct ctf_insn){
                    .op = OP_VARIANT,
                    .flags = sgn ? INSN_SIGNED : 0,
                    .align = 1,
                    .slot = slot_of(c, tn),
                    .meta = f->meta,
                }) == NULL)
        return nomem(c);
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
    tracerd_status_t st = locate(c, f, WANT_INT, "selector", &sn, &slot);
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
        return nomem(c);
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
        return cerr(c, ty, TRACERD_E_METADATA, "variant '%s' has no tag", w->display);
    struct node *tn = resolve(c, ty->path, w->parent, c->cur_scope);
    if (tn == NULL)
        return cerr(c, ty, TRACERD_E_METADATA, "variant '%s': tag '%s' is not declared before it",
                    w->display, ty->path);
    if (tn->type->kind != TRACERD_CTF_TYPE_ENUM)
        return cerr(c, ty, TRACERD_E_METADATA, "variant '%s': tag '%s' is not an enumeration",
                    w->display, ty->path);
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

/* A field: its tree node and display data, then its kind's emitter. */
static tracerd_status_t compile_field(struct cc *c, const struct work *w)
{
    const tracerd_ctf_type_t *ty = w->type;
    struct node *n = tracerd__ctf_arena_alloc(&c->tmp, sizeof *n);
    struct ctf_meta *meta = tracerd__ctf_arena_alloc(c->ar, sizeof *meta);
    if (n == NULL || meta == NULL)
        return nomem(c);
    n->name = w->name;
    n->display = w->display;
    n->type = ty;
    n->parent = w->parent;
    n->scope = c->cur_scope;
    n->in_loop = w->loops > 0 || (w->parent && w->parent->in_loop);
    uint32_t depth = 0;
    for (struct node *p = w->parent; p; p = p->parent)
        depth++;
    if (w->parent) {
        if (w->parent->last)
            w->parent->last->next = n;
        else
            w->parent->first = n;
        w->parent->last = n;
        if (add_kid(c, n) != TRACERD_OK)
            return nomem(c);
    } else {
        c->roots[c->cur_scope] = n;
    }
    /* path: parent's path + display (elements keep the parent's path) */
    const char *path;
    if (w->parent == NULL)
        path = scope_prefix[c->cur_scope];
    else if (w->name[0] == '\0')
        path = w->parent->meta->path;
    else if ((c->path_bytes += strlen(w->parent->meta->path) + strlen(w->display) + 2) >
             c->max_nodes * 64)
        return cerr(c, ty, TRACERD_E_LIMIT,
                    "field '%s': the expanded fields' paths exceed %llu bytes (64 per node of "
                    "max_type_nodes)",
                    w->display, (unsigned long long)(c->max_nodes * 64));
    else
        path = join_path(c, w->parent->meta->path, w->display);
    if (path == NULL)
        return nomem(c);
    meta->name = w->display;
    meta->path = path;
    meta->type = ty;
    n->meta = meta;
    if ((size_t)ty->kind >= sizeof emitters / sizeof emitters[0] || emitters[ty->kind] == NULL)
        return cerr(c, ty, TRACERD_E_UNSUPPORTED, "field '%s': unknown type kind %d", w->display,
                    (int)ty->kind);
    const struct field f = {w, n, meta, depth};
    return emitters[ty->kind](c, &f);
}

/* A struct's or variant's end item w still has members to compile (w->i
 * is the next): pushes itself for the one after, then member w->i (a
 * variant option between its begin and end). false when none is left. */
static bool next_member(struct cc *c, const struct work *w)
{
    if ((w->what != W_STRUCT_END && w->what != W_VARIANT_END) || w->i >= w->type->nmembers)
        return false;
    const uint32_t k = w->i;
    struct work nx = *w;
    nx.i++;
    push(c, nx);
    const bool opt = w->what == W_VARIANT_END;
    if (opt)
        push(c, (struct work){
                    .what = W_OPT_END, .type = w->type, .pc = w->pc, .i = k, .loops = w->loops});
    push(c, (struct work){.what = W_FIELD,
                          .type = w->type->members[k].type,
                          .name = w->type->members[k].name,
                          .display = w->type->members[k].display,
                          .parent = w->parent,
                          .loops = w->loops});
    if (opt)
        push(c, (struct work){.what = W_OPT_BEGIN,
                              .type = w->type,
                              .pc = w->pc,
                              .i = k,
                              .loops = w->loops,
                              .targets = w->targets});
    return true;
}

/* The end of a compound field, after its members. */
static tracerd_status_t close_field(struct cc *c, const struct work *w)
{
    struct pbuf *b = c->cur;
    struct ctf_insn *in;
    switch (w->what) {
    case W_STRUCT_END:
        return insn(c, (struct ctf_insn){.op = OP_STRUCT_END, .meta = w->meta}) ? TRACERD_OK
                                                                                : nomem(c);
    case W_ARRAY_END:
    case W_SEQ_END:
        if (insn(c, (struct ctf_insn){.op = w->what == W_ARRAY_END ? OP_ARRAY_NEXT : OP_SEQ_NEXT,
                                      .jump = w->pc + 1,
                                      .meta = b->v[w->pc].meta}) == NULL)
            return nomem(c);
        b->v[w->pc].jump = b->len;
        return TRACERD_OK;
    case W_OPT_BEGIN:
        w->targets[w->i] = b->len;
        return TRACERD_OK;
    case W_OPT_END:
        /* count: the chain of jumps to patch at the variant's end */
        if (insn(c, (struct ctf_insn){.op = OP_JUMP, .count = b->v[w->pc].count}) == NULL)
            return nomem(c);
        b->v[w->pc].count = b->len - 1;
        return TRACERD_OK;
    case W_OPTIONAL_END:
        if (insn(c, (struct ctf_insn){.op = OP_OPTIONAL_END, .meta = b->v[w->pc].meta}) == NULL)
            return nomem(c);
        b->v[w->pc].jump = b->len;
        return TRACERD_OK;
    case W_VARIANT_END: {
        if ((in = insn(c, (struct ctf_insn){.op = OP_VARIANT_END, .meta = b->v[w->pc].meta})) ==
            NULL)
            return nomem(c);
        uint32_t end = b->len - 1;
        uint64_t j = b->v[w->pc].count;
        while (j != 0) {
            uint64_t nx = b->v[j].count;
            b->v[j].jump = end;
            b->v[j].count = 0;
            j = nx;
        }
        b->v[w->pc].count = 0;
        b->v[w->pc].jump = end;
        for (uint32_t k = 0; k < w->nvsel; k++)
            w->vsel[k].target = w->targets[w->vsel[k].option];
        return TRACERD_OK;
    }
    default:
        return TRACERD_OK;
    }
}

/* ==== expanded size ========================================================== */

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Number of children of a type in the tree it expands to. */
static uint32_t nkids(const tracerd_ctf_type_t *t)
{
    switch (t->kind) {
    case TRACERD_CTF_TYPE_STRUCT:
    case TRACERD_CTF_TYPE_VARIANT:
        return t->nmembers;
    case TRACERD_CTF_TYPE_ARRAY:
    case TRACERD_CTF_TYPE_SEQUENCE:
    case TRACERD_CTF_TYPE_OPTIONAL:
        return t->element != NULL;
    default:
        return 0;
    }
}

static const tracerd_ctf_type_t *kid(const tracerd_ctf_type_t *t, uint32_t i)
{
    return t->kind == TRACERD_CTF_TYPE_STRUCT || t->kind == TRACERD_CTF_TYPE_VARIANT
               ? t->members[i].type
               : t->element;
}

/* Counts the fields a type expands to (a named type used n times counts n
 * times) and whether it holds no field at all, for it and every type below
 * it, once per type (memoized in struct ctf_type): time linear in the
 * number of types and members, whatever the count. No recursion: an
 * explicit post-order stack. */
static tracerd_status_t count_nodes(struct cc *c, const tracerd_ctf_type_t *root, uint64_t *out)
{
    struct ctf_type *r = (struct ctf_type *)(uintptr_t)root;
    if (r->nodes == 0) {
        size_t cap = 64, n = 0;
        struct item {
            struct ctf_type *t;
            bool expanded;
        } *st = tracerd__calloc(c->tmp.alloc, sizeof *st * cap);
        if (st == NULL)
            return nomem(c);
        st[n++] = (struct item){r, false};
        while (n > 0) {
            struct item *it = &st[n - 1];
            struct ctf_type *t = it->t;
            if (t->nodes != 0) {
                n--;
                continue;
            }
            uint32_t k = nkids(&t->pub);
            if (!it->expanded) {
                it->expanded = true;
                if (n + k > cap) {
                    size_t nc = cap;
                    while (nc < n + k)
                        nc *= 2;
                    struct item *ns = tracerd__calloc(c->tmp.alloc, sizeof *ns * nc);
                    if (ns == NULL) {
                        tracerd__free(c->tmp.alloc, st, sizeof *st * cap);
                        return nomem(c);
                    }
                    memcpy(ns, st, sizeof *st * n);
                    tracerd__free(c->tmp.alloc, st, sizeof *st * cap);
                    st = ns;
                    cap = nc;
                }
                for (uint32_t i = 0; i < k; i++) {
                    struct ctf_type *ch = (struct ctf_type *)(uintptr_t)kid(&t->pub, i);
                    if (ch->nodes == 0)
                        st[n++] = (struct item){ch, false};
                }
                continue;
            }
            uint64_t total = 1;
            bool empty = t->pub.kind == TRACERD_CTF_TYPE_STRUCT ||
                         t->pub.kind == TRACERD_CTF_TYPE_ARRAY ||
                         t->pub.kind == TRACERD_CTF_TYPE_SEQUENCE;
            for (uint32_t i = 0; i < k; i++) {
                const struct ctf_type *ch = (const struct ctf_type *)kid(&t->pub, i);
                total = add_sat(total, ch->nodes);
                empty = empty && ch->empty;
            }
            if (t->pub.kind == TRACERD_CTF_TYPE_ARRAY && t->pub.length == 0)
                empty = true;
            t->nodes = total;
            t->empty = empty;
            n--;
        }
        tracerd__free(c->tmp.alloc, st, sizeof *st * cap);
    }
    *out = r->nodes;
    return TRACERD_OK;
}

/* ==== fused runs ============================================================= */

/* A scalar the run loop of stream.c reads at a static byte offset: a
 * byte-aligned 8/16/32/64-bit integer, or a byte-aligned 32/64-bit float in
 * its natural bit order. */
static bool run_op(const struct ctf_insn *in)
{
    if (in->op >= OP_U8 && in->op <= OP_U64BE)
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
static tracerd_status_t mark_runs(struct cc *c, struct ctf_insn *code, uint32_t len)
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

static tracerd_status_t compile_scope(struct cc *c, const tracerd_ctf_type_t *root, int scope,
                                      struct ctf_prog *out)
{
    out->code = NULL;
    out->len = 0;
    out->scope = (tracerd_ctf_scope_t)scope;
    c->roots[scope] = NULL;
    if (root == NULL)
        return TRACERD_OK;
    uint64_t nodes;
    tracerd_status_t cst = count_nodes(c, root, &nodes);
    if (cst != TRACERD_OK)
        return cst;
    if (nodes > c->max_nodes - c->nodes)
        return cerr(c, root, TRACERD_E_LIMIT,
                    "%s %s: expands to %llu fields, %llu with the scopes before; more than "
                    "max_type_nodes (%llu)",
                    c->owner, scope_prefix[scope], (unsigned long long)nodes,
                    (unsigned long long)add_sat(c->nodes, nodes), (unsigned long long)c->max_nodes);
    c->nodes += nodes;
    struct pbuf *b = &c->code;
    b->len = 0;
    c->cur = b;
    c->cur_scope = scope;
    c->wn = 0;
    if (c->ws == NULL) { /* kept for every scope, freed after compiling */
        c->wcap = 256;
        c->ws = tracerd__calloc(c->tmp.alloc, sizeof *c->ws * c->wcap);
        if (c->ws == NULL)
            return nomem(c);
    }
    tracerd_status_t st = TRACERD_OK;
    push(c, (struct work){.what = W_FIELD, .type = root, .name = "", .display = ""});
    while (c->wn > 0 && st == TRACERD_OK) {
        struct work w = c->ws[--c->wn];
        /* room for the pushes below (at most 4: next_member) */
        size_t want = c->wn + 4;
        if (want > c->wcap) {
            size_t nc = c->wcap;
            while (nc < want)
                nc *= 2;
            struct work *nw = tracerd__calloc(c->tmp.alloc, sizeof *nw * nc);
            if (nw == NULL) {
                st = nomem(c);
                break;
            }
            memcpy(nw, c->ws, sizeof *c->ws * c->wn);
            tracerd__free(c->tmp.alloc, c->ws, sizeof *c->ws * c->wcap);
            c->ws = nw;
            c->wcap = nc;
        }
        if (next_member(c, &w))
            continue;
        st = w.what == W_FIELD ? compile_field(c, &w) : close_field(c, &w);
    }
    c->cur_scope = -1;
    if (st != TRACERD_OK)
        return st;
    if (insn(c, (struct ctf_insn){.op = OP_END}) == NULL)
        return nomem(c);
    struct ctf_insn *code = tracerd__ctf_arena_alloc(c->ar, sizeof *code * b->len);
    if (code == NULL)
        return nomem(c);
    memcpy(code, b->v, sizeof *code * b->len);
    if (mark_runs(c, code, b->len) != TRACERD_OK)
        return nomem(c);
    /* Fields referenced by later scopes get their slots patched into `code`. */
    c->codes[scope] = code;
    out->code = code;
    out->len = b->len;
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
    struct ctf_insn *in = emit(c, f->out);
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
    return op == OP_INT || (op >= OP_U8 && op <= OP_U64BE);
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
            if (!fuse_flush(c, f) || (o = emit(c, f->out)) == NULL)
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
            if (!fuse_flush(c, f) || (o = emit(c, f->out)) == NULL)
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
                if (!fuse_flush(c, f) || (o = emit(c, f->out)) == NULL)
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
static bool may_split_byte_order(const struct ctf_insn *const *progs, int n)
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
static tracerd_status_t fuse_all(struct cc *c, const struct ctf_insn *a, const struct ctf_insn *b,
                                 const struct ctf_insn *d, const struct ctf_insn **out)
{
    *out = NULL;
    const struct ctf_insn *all[3] = {a, b, d};
    if (may_split_byte_order(all, 3))
        return TRACERD_OK;
    struct pbuf *buf = &c->fused;
    buf->len = 0;
    struct fuse f = {buf, false, 1, 0};
    const struct ctf_insn *progs[3] = {a, b, d};
    for (int i = 0; i < 3; i++) {
        int r = fuse_program(c, progs[i], &f);
        if (r < 0)
            return nomem(c);
        if (r == 0)
            return TRACERD_OK;
    }
    struct ctf_insn *in;
    if (!fuse_flush(c, &f) || (in = emit(c, buf)) == NULL)
        return nomem(c);
    in->op = OP_END;
    struct ctf_insn *code = tracerd__ctf_arena_alloc(c->ar, sizeof *code * buf->len);
    if (code == NULL)
        return nomem(c);
    memcpy(code, buf->v, sizeof *code * buf->len);
    *out = code;
    return TRACERD_OK;
}

/* ==== delivery plans ========================================================= */

/* Whether the plan interpreter (stream.c, run_plan) handles the instruction. */
static bool plan_op(const struct ctf_insn *in)
{
    switch (in->op) {
    case OP_INT:
    case OP_U8:
    case OP_U16LE:
    case OP_U16BE:
    case OP_U32LE:
    case OP_U32BE:
    case OP_U64LE:
    case OP_U64BE:
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
static tracerd_status_t build_plan(struct cc *c, const struct ctf_prog *const progs[3],
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
        return nomem(c);
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
            tracerd_ctf_field_t *t = &p->t;
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
                    return nomem(c);
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

static tracerd_status_t header_fast(struct cc *c, struct ctf_stream_rt *r)
{
    const tracerd_ctf_type_t *h = r->cls->event_header;
    tracerd_byte_order_t bo =
        c->ctf2 && h->nmembers > 0 ? h->members[0].type->byte_order : c->t->info.byte_order;
    int op = lttng_header(h, bo);
    for (uint32_t k = 0; op != 0 && k < r->event_header.len; k++)
        if (r->event_header.code[k].meta != NULL && r->event_header.code[k].meta->kill != NULL)
            op = 0; /* locations through its variant: the full program keeps their flags */
    if (op == 0)
        return fuse_all(c, r->event_header.code, NULL, NULL, &r->event_header.fast);
    struct ctf_insn *code = tracerd__ctf_arena_alloc(c->ar, sizeof *code * 2);
    if (code == NULL)
        return nomem(c);
    code[0].op = (uint8_t)op;
    code[0].align = 8;
    code[0].flags = bo == TRACERD_BYTE_ORDER_BIG ? INSN_BE : 0;
    code[1].op = OP_END;
    r->event_header.fast = code;
    return TRACERD_OK;
}

static int cmp_ev(const void *a, const void *b)
{
    const struct ctf_event_rt *x = a, *y = b;
    return x->cls->id < y->cls->id ? -1 : x->cls->id > y->cls->id;
}

/* The counts of a model however it was built (TSDL checks them while it
 * parses, with positions; a model built otherwise is checked here). */
static tracerd_status_t model_counts(struct cc *c)
{
    const tracerd_ctf_trace_info_t *in = &c->t->info;
    const tracerd_ctf_metadata_config_t *l = &c->t->limits;
    if (l->max_stream_classes != 0 && in->nstreams > l->max_stream_classes)
        return cerr(c, NULL, TRACERD_E_LIMIT,
                    "%u stream classes: more than max_stream_classes (%u)", in->nstreams,
                    l->max_stream_classes);
    if (l->max_event_classes != 0 && in->nevents > l->max_event_classes)
        return cerr(c, NULL, TRACERD_E_LIMIT, "%u event classes: more than max_event_classes (%u)",
                    in->nevents, l->max_event_classes);
    return TRACERD_OK;
}

tracerd_status_t tracerd__ctf_compile(struct tracerd_ctf_trace *t, char *reason, size_t size,
                                      uint32_t *line, uint32_t *col)
{
    struct cc c;
    memset(&c, 0, sizeof c);
    c.t = t;
    c.ar = &t->arena;
    tracerd__ctf_arena_init(&c.tmp, &t->alloc);
    c.reason = reason;
    c.rsize = size;
    c.line = line;
    c.col = col;
    c.ctf2 = t->info.major == 2;
    c.max_nodes = t->limits.max_type_nodes ? t->limits.max_type_nodes : (uint64_t)1 << 17;
    t->nslots = CTF_FIRST_FREE_SLOT;
    tracerd_status_t st = model_counts(&c);
    snprintf(c.owner, sizeof c.owner, "trace");
    if (st == TRACERD_OK)
        st = compile_scope(&c, t->info.packet_header, SC_PH, &t->packet_header);
    t->srt = tracerd__ctf_arena_alloc(c.ar, sizeof *t->srt * (t->info.nstreams + 1));
    if (st == TRACERD_OK && t->srt == NULL)
        st = nomem(&c);
    for (uint32_t s = 0; st == TRACERD_OK && s < t->info.nstreams; s++) {
        struct ctf_stream_rt *r = &t->srt[s];
        const tracerd_ctf_stream_class_t *sc = t->info.streams[s];
        r->cls = sc;
        r->clock = -1;
        c.sc = sc;
        snprintf(c.owner, sizeof c.owner, "stream class %llu", (unsigned long long)sc->id);
        st = compile_scope(&c, sc->packet_context, SC_PC, &r->packet_context);
        if (st == TRACERD_OK)
            st = compile_scope(&c, sc->event_header, SC_EH, &r->event_header);
        if (st == TRACERD_OK)
            st = compile_scope(&c, sc->event_context, SC_SEC, &r->event_context);
        if (st != TRACERD_OK)
            break;
        for (uint32_t k = 0; k < r->event_header.len; k++)
            if (r->event_header.code[k].role == ROLE_TIMESTAMP && r->clock < 0 &&
                r->event_header.code[k].meta->type->clock >= 0)
                r->clock = r->event_header.code[k].meta->type->clock;
        for (uint32_t k = 0; k < r->packet_context.len; k++)
            if (r->packet_context.code[k].role == ROLE_TS_BEGIN && r->clock < 0 &&
                r->packet_context.code[k].meta->type->clock >= 0)
                r->clock = r->packet_context.code[k].meta->type->clock;
        if (r->clock < 0 && t->info.nclocks > 0)
            r->clock = 0;
        if (c.ctf2)
            r->clock = sc->default_clock;
        r->events = tracerd__ctf_arena_alloc(c.ar, sizeof *r->events * (sc->nevents + 1));
        if (r->events == NULL) {
            st = nomem(&c);
            break;
        }
        r->nevents = sc->nevents;
        uint64_t maxid = 0;
        for (uint32_t e = 0; st == TRACERD_OK && e < sc->nevents; e++) {
            struct ctf_event_rt *er = &r->events[e];
            er->cls = sc->events[e];
            if (er->cls->id > maxid)
                maxid = er->cls->id;
            snprintf(c.owner, sizeof c.owner, "event class '%.100s' (id %llu)", er->cls->name,
                     (unsigned long long)er->cls->id);
            st = compile_scope(&c, er->cls->context, SC_EC, &er->context);
            if (st == TRACERD_OK)
                st = compile_scope(&c, er->cls->fields, SC_EF, &er->fields);
            if (st == TRACERD_OK)
                st = fuse_all(&c, r->event_context.code, er->context.code, er->fields.code,
                              &er->body_fast);
            const struct ctf_insn *whole[4] = {r->event_header.code, r->event_context.code,
                                               er->context.code, er->fields.code};
            if (st == TRACERD_OK && !may_split_byte_order(whole, 4)) {
                const struct ctf_prog *const body[3] = {&r->event_context, &er->context,
                                                        &er->fields};
                st = build_plan(&c, body, &er->plan);
            }
        }
        /* after the events: their paths may have given header fields slots */
        if (st == TRACERD_OK && r->event_header.code)
            st = header_fast(&c, r);
        if (st == TRACERD_OK && r->event_header.code) {
            /* used only with an event's plan, i.e. when no byte order changes
             * inside a byte anywhere in the event */
            const struct ctf_prog none = {NULL, 0, TRACERD_CTF_SCOPE_EVENT_HEADER, NULL};
            const struct ctf_prog *const hdr[3] = {&r->event_header, &none, &none};
            st = build_plan(&c, hdr, &r->header_plan);
        }
        if (st != TRACERD_OK)
            break;
        qsort(r->events, r->nevents, sizeof *r->events, cmp_ev);
        if (r->nevents > 0 && maxid < 65536) {
            r->ndirect = (uint32_t)maxid + 1;
            r->direct = tracerd__ctf_arena_alloc(c.ar, sizeof *r->direct * r->ndirect);
            if (r->direct == NULL) {
                st = nomem(&c);
                break;
            }
            for (uint32_t e = 0; e < r->nevents; e++)
                r->direct[r->events[e].cls->id] = &r->events[e];
        }
    }
    t->max_loop_depth = c.depth_max;
    tracerd__free(c.tmp.alloc, c.ws, sizeof *c.ws * c.wcap);
    tracerd__free(c.tmp.alloc, c.code.v, sizeof *c.code.v * c.code.cap);
    tracerd__free(c.tmp.alloc, c.fused.v, sizeof *c.fused.v * c.fused.cap);
    tracerd__hmap_free(&c.kids, c.tmp.alloc);
    tracerd__hmap_free(&c.flags, c.tmp.alloc);
    tracerd__ctf_arena_free(&c.tmp);
    return st;
}
