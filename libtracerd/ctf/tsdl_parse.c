/* TSDL parser: declarations, type specifiers, statements and blocks, with an
 * explicit frame stack (no recursion), building the types and the lists of
 * stream, event and clock classes the model builder turns into arrays. */
#include <stdio.h>

#include "tsdl.h"

/* ==== declarations and scopes ============================================= */

/* Declarations are found through P->decls: the key (kind and name hashed)
 * maps to the newest visible declaration, whose `shadow` chain holds the
 * ones it hides (outer scopes, or another name with the same hash). A frame
 * closing unbinds its own declarations (frame_pop). Constant time per
 * lookup, whatever the number of declarations. */
static uint64_t decl_key(int kind, const char *name, size_t len)
{
    return tracerd__hash_bytes(name, len) ^ ((uint64_t)(kind + 1) * 0x9E3779B97F4A7C15u);
}

static const tracerd_ctf_type_t *lookup(struct parser *P, int kind, const char *name, size_t len)
{
    uint64_t v;
    if (!tracerd__hmap_get(&P->decls, decl_key(kind, name, len), &v))
        return NULL;
    for (const struct decl *d = (const struct decl *)(uintptr_t)v; d != NULL; d = d->shadow)
        if (d->kind == kind && strlen(d->name) == len && memcmp(d->name, name, len) == 0)
            return d->type;
    return NULL;
}

static tracerd_status_t declare(struct parser *P, int kind, const char *name,
                                const tracerd_ctf_type_t *type)
{
    if (P->ndecls >= P->m->cfg.max_aliases)
        return tracerd__tsdl_limit(P, NULL,
                                   "type '%s': more than max_aliases (%u) named types declared",
                                   name, P->m->cfg.max_aliases);
    struct decl *d = tracerd__ctf_arena_alloc(P->ar, sizeof *d);
    if (d == NULL)
        return nomem(P);
    d->kind = kind;
    d->name = name;
    d->type = type;
    d->key = decl_key(kind, name, strlen(name));
    uint64_t v;
    if (tracerd__hmap_get(&P->decls, d->key, &v))
        d->shadow = (struct decl *)(uintptr_t)v;
    if (tracerd__hmap_put(&P->decls, &P->t->alloc, d->key, (uint64_t)(uintptr_t)d) != TRACERD_OK)
        return nomem(P);
    struct frame *f = &P->fr[P->nfr - 1];
    d->next = f->decls;
    f->decls = d;
    P->ndecls++;
    return TRACERD_OK;
}

/* Closes the innermost frame: its declarations stop being visible. */
static void frame_pop(struct parser *P)
{
    struct frame *f = &P->fr[--P->nfr];
    for (const struct decl *d = f->decls; d != NULL; d = d->next) /* newest first */
        (void)tracerd__hmap_put(&P->decls, &P->t->alloc, d->key, (uint64_t)(uintptr_t)d->shadow);
}

/* Counts one declaration (a type, member, variant option, enumerator or env
 * entry, used or not) against the text's budget, 2 x max_type_nodes: what
 * the parse keeps grows with it, whatever the events use. */
static tracerd_status_t declared(struct parser *P, const struct tok *at, const char *what)
{
    uint64_t max = P->m->cfg.max_type_nodes * 2;
    if (P->ndeclared >= max)
        return tracerd__tsdl_limit(P, at,
                                   "%s: more than %llu types, members, enumerators and env "
                                   "entries declared (2 x max_type_nodes)",
                                   what, (unsigned long long)max);
    P->ndeclared++;
    return TRACERD_OK;
}

static tracerd_status_t new_type(struct parser *P, tracerd_ctf_type_kind_t k, const struct tok *at,
                                 struct ctf_type **out)
{
    *out = NULL;
    tracerd_status_t st = declared(P, at, tracerd_ctf_type_kind_name(k));
    if (st != TRACERD_OK)
        return st;
    struct ctf_type *t = tracerd__ctf_type_new(P->ar, k);
    if (t == NULL)
        return nomem(P);
    t->native_order = true;
    t->line = at->line;
    t->col = at->col;
    *out = t;
    return TRACERD_OK;
}

static bool pow2(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

static void warn(struct parser *P, const struct tok *t, const char *what)
{
    if (P->m->cfg.on_warning == NULL)
        return;
    char buf[200];
    tracerd__format(buf, sizeof buf, "metadata line %u, column %u: %s '%.*s' ignored", t->line,
                    t->col, what, (int)(t->len > 40 ? 40 : t->len), t->p);
    tracerd_warning_t w = tracerd__warning(TRACERD_E_METADATA, 0, 0, buf);
    (void)P->m->cfg.on_warning(P->m->cfg.user, &w);
}

/* ==== attribute values ===================================================== */

struct value {
    int k; /* K_INT (with neg), K_STR, K_IDENT (dotted path in text) */
    uint64_t u;
    bool neg;
    struct tok t;   /* first token */
    char path[128]; /* identifier path */
};

/* value ';' */
static tracerd_status_t parse_value(struct parser *P, struct value *v)
{
    struct tok t;
    tracerd_status_t st = next(P, &t);
    if (st != TRACERD_OK)
        return st;
    memset(v, 0, sizeof *v);
    v->t = t;
    if (is(&t, "-") || is(&t, "+")) {
        v->neg = is(&t, "-");
        st = next(P, &t);
        if (st != TRACERD_OK)
            return st;
        if (t.k != K_INT)
            return PERR(P, &t, "expected an integer after the sign");
    }
    if (t.k == K_INT) {
        v->k = K_INT;
        v->u = t.ival;
    } else if (t.k == K_STR || t.k == K_CHAR) {
        v->k = K_STR;
    } else if (t.k == K_IDENT) {
        v->k = K_IDENT;
        size_t n = 0;
        for (;;) {
            if (n + t.len + 2 >= sizeof v->path)
                return PERR(P, &t, "identifier path too long");
            memcpy(v->path + n, t.p, t.len);
            n += t.len;
            v->path[n] = '\0';
            struct tok d;
            st = peek(P, &d);
            if (st != TRACERD_OK)
                return st;
            if (!is(&d, "."))
                break;
            st = next(P, &d);
            if (st == TRACERD_OK)
                st = next(P, &t);
            if (st != TRACERD_OK)
                return st;
            if (t.k != K_IDENT)
                return PERR(P, &t, "expected an identifier after '.'");
            v->path[n++] = '.';
        }
    } else {
        return PERR(P, &t, "expected a value");
    }
    return expect(P, ";");
}

static bool value_bool(const struct value *v, bool *out)
{
    if (v->k == K_INT && !v->neg && v->u <= 1) {
        *out = v->u == 1;
        return true;
    }
    if (v->k == K_IDENT && (strcmp(v->path, "true") == 0 || strcmp(v->path, "TRUE") == 0)) {
        *out = true;
        return true;
    }
    if (v->k == K_IDENT && (strcmp(v->path, "false") == 0 || strcmp(v->path, "FALSE") == 0)) {
        *out = false;
        return true;
    }
    return false;
}

static tracerd_status_t value_u64(struct parser *P, const struct value *v, uint64_t *out)
{
    if (v->k != K_INT || (v->neg && v->u != 0))
        return PERR(P, &v->t, "expected a non-negative integer");
    *out = v->u;
    return TRACERD_OK;
}

static tracerd_status_t value_i64(struct parser *P, const struct value *v, int64_t *out)
{
    if (v->k != K_INT)
        return PERR(P, &v->t, "expected an integer");
    if (v->neg) {
        if (v->u > (uint64_t)INT64_MAX + 1)
            return PERR(P, &v->t, "integer out of range");
        *out = v->u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v->u;
    } else {
        if (v->u > (uint64_t)INT64_MAX)
            return PERR(P, &v->t, "integer out of range");
        *out = (int64_t)v->u;
    }
    return TRACERD_OK;
}

static int byte_order_of(const struct value *v)
{
    if (v->k != K_IDENT)
        return -1;
    if (!strcmp(v->path, "le") || !strcmp(v->path, "little"))
        return TRACERD_BYTE_ORDER_LITTLE;
    if (!strcmp(v->path, "be") || !strcmp(v->path, "big") || !strcmp(v->path, "network"))
        return TRACERD_BYTE_ORDER_BIG;
    if (!strcmp(v->path, "native"))
        return TRACERD_BYTE_ORDER_AUTO;
    return -1;
}

static bool parse_uuid(const char *s, uint8_t out[16])
{
    unsigned n = 0;
    for (size_t i = 0; s[i] && n < 32; i++) {
        char c = s[i];
        if (c == '-')
            continue;
        unsigned v = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (v == 16)
            return false;
        if (n % 2 == 0)
            out[n / 2] = (uint8_t)(v << 4);
        else
            out[n / 2] = (uint8_t)(out[n / 2] | v);
        n++;
    }
    return n == 32;
}

/* ==== basic type bodies ==================================================== */

/* key '=' value ';' ... '}' of integer / floating_point / string */
static tracerd_status_t parse_attr_body(struct parser *P, struct ctf_type *ty)
{
    tracerd_status_t st = expect(P, "{");
    if (st != TRACERD_OK)
        return st;
    bool align_set = false;
    for (;;) {
        struct tok k;
        st = next(P, &k);
        if (st != TRACERD_OK)
            return st;
        if (is(&k, "}"))
            break;
        if (k.k != K_IDENT)
            return PERR(P, &k, "expected an attribute name or '}'");
        st = expect(P, "=");
        if (st != TRACERD_OK)
            return st;
        struct value v;
        st = parse_value(P, &v);
        if (st != TRACERD_OK)
            return st;
        tracerd_ctf_type_t *p = &ty->pub;
        uint64_t u = 0;
        bool b;
        if (is(&k, "size") && p->kind == TRACERD_CTF_TYPE_INT) {
            if ((st = value_u64(P, &v, &u)) != TRACERD_OK)
                return st;
            if (u < 1 || u > 64)
                return PERR(P, &v.t, "integer size must be 1 to 64 bits");
            p->size_bits = (uint32_t)u;
        } else if (is(&k, "align")) {
            if ((st = value_u64(P, &v, &u)) != TRACERD_OK)
                return st;
            if (!pow2(u) || u > 4096)
                return PERR(P, &v.t, "align must be a power of two up to 4096");
            p->align_bits = (uint32_t)u;
            align_set = true;
        } else if (is(&k, "signed") && p->kind == TRACERD_CTF_TYPE_INT) {
            if (!value_bool(&v, &b))
                return PERR(P, &v.t, "expected true, false, 0 or 1");
            p->is_signed = b;
        } else if (is(&k, "byte_order") && p->kind != TRACERD_CTF_TYPE_STRING) {
            int bo = byte_order_of(&v);
            if (bo < 0)
                return PERR(P, &v.t, "expected le, be, network or native");
            ty->native_order = bo == TRACERD_BYTE_ORDER_AUTO;
            if (bo != TRACERD_BYTE_ORDER_AUTO)
                p->byte_order = (tracerd_byte_order_t)bo;
        } else if (is(&k, "base") && p->kind == TRACERD_CTF_TYPE_INT) {
            if (v.k == K_INT && !v.neg && (v.u == 2 || v.u == 8 || v.u == 10 || v.u == 16)) {
                p->base = (unsigned)v.u;
            } else if (v.k == K_IDENT) {
                const char *s = v.path;
                if (!strcmp(s, "decimal") || !strcmp(s, "dec") || !strcmp(s, "d") ||
                    !strcmp(s, "i") || !strcmp(s, "u"))
                    p->base = 10;
                else if (!strcmp(s, "hexadecimal") || !strcmp(s, "hex") || !strcmp(s, "x") ||
                         !strcmp(s, "X") || !strcmp(s, "p"))
                    p->base = 16;
                else if (!strcmp(s, "octal") || !strcmp(s, "oct") || !strcmp(s, "o"))
                    p->base = 8;
                else if (!strcmp(s, "binary") || !strcmp(s, "b"))
                    p->base = 2;
                else
                    return PERR(P, &v.t, "expected a base (2, 8, 10, 16 or their names)");
            } else {
                return PERR(P, &v.t, "expected a base (2, 8, 10, 16 or their names)");
            }
        } else if (is(&k, "encoding") && p->kind != TRACERD_CTF_TYPE_FLOAT) {
            if (v.k == K_IDENT && (!strcmp(v.path, "none") || !strcmp(v.path, "NONE")))
                p->encoding = TRACERD_CTF_ENCODING_NONE;
            else if (v.k == K_IDENT && (!strcmp(v.path, "UTF8") || !strcmp(v.path, "utf8")))
                p->encoding = TRACERD_CTF_ENCODING_UTF8;
            else if (v.k == K_IDENT && (!strcmp(v.path, "ASCII") || !strcmp(v.path, "ascii")))
                p->encoding = TRACERD_CTF_ENCODING_ASCII;
            else
                return PERR(P, &v.t, "expected an encoding (none, UTF8, ASCII)");
        } else if (is(&k, "map") && p->kind == TRACERD_CTF_TYPE_INT) {
            size_t n = strlen(v.path);
            if (v.k != K_IDENT || n < 13 || strncmp(v.path, "clock.", 6) != 0 ||
                strcmp(v.path + n - 6, ".value") != 0)
                return PERR(P, &v.t, "expected map = clock.NAME.value");
            ty->clock_name = tracerd__ctf_arena_strdup(P->ar, v.path + 6, n - 12);
            if (ty->clock_name == NULL)
                return nomem(P);
        } else if ((is(&k, "exp_dig") || is(&k, "mant_dig")) && p->kind == TRACERD_CTF_TYPE_FLOAT) {
            if ((st = value_u64(P, &v, &u)) != TRACERD_OK)
                return st;
            if (u > 1024)
                return PERR(P, &v.t, "digits out of range");
            if (is(&k, "exp_dig"))
                p->exp_dig = (uint32_t)u;
            else
                p->mant_dig = (uint32_t)u;
        } else {
            warn(P, &k, "unknown type attribute");
        }
    }
    tracerd_ctf_type_t *p = &ty->pub;
    if (p->kind == TRACERD_CTF_TYPE_INT) {
        if (p->size_bits == 0)
            return PERR(P, NULL, "integer declared without a size");
        if (!align_set)
            p->align_bits = p->size_bits % 8 == 0 ? 8 : 1;
    } else if (p->kind == TRACERD_CTF_TYPE_FLOAT) {
        p->size_bits = p->exp_dig + p->mant_dig;
        if (!align_set)
            p->align_bits = p->size_bits % 8 == 0 ? 8 : 1;
    } else {
        p->align_bits = 8;
    }
    return TRACERD_OK;
}

/* ==== type specifiers ====================================================== */

static tracerd_status_t push_frame(struct parser *P, int kind, const struct tok *at)
{
    if (P->nfr >= P->maxfr)
        return tracerd__tsdl_limit(P, at, "nesting level %u: deeper than max_depth (%u)",
                                   P->nfr + 1, P->maxfr);
    struct frame *f = &P->fr[P->nfr++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->serial = ++P->serials;
    f->line = at->line;
    f->col = at->col;
    return TRACERD_OK;
}

/* A type name: identifiers; with leave_last, the last identifier before
 * ';' ',' '[' is left for the declarator. */
static tracerd_status_t parse_type_name(struct parser *P, bool leave_last,
                                        const tracerd_ctf_type_t **out)
{
    char name[128];
    size_t n = 0;
    struct tok first, t1, t2;
    tracerd_status_t st = peek(P, &first);
    if (st != TRACERD_OK)
        return st;
    for (;;) {
        st = peek2(P, &t1, &t2);
        if (st != TRACERD_OK)
            return st;
        if (t1.k != K_IDENT)
            break;
        if (leave_last && n > 0 && t2.k != K_IDENT)
            break; /* t1 is the declarator */
        if (n + t1.len + 2 >= sizeof name)
            return PERR(P, &t1, "type name too long");
        if (n)
            name[n++] = ' ';
        memcpy(name + n, t1.p, t1.len);
        n += t1.len;
        next(P, &t1);
    }
    if (n == 0)
        return PERR(P, &first, "expected a type");
    *out = lookup(P, D_ALIAS, name, n);
    if (*out == NULL) {
        name[n] = '\0';
        return PERR(P, &first, "unknown type '%s'", name);
    }
    return TRACERD_OK;
}

/* An enumerator value: ['-'] INT, up to ',' / '}' / '...'. Values above
 * INT64_MAX (unsigned 64-bit containers) are kept as bits. */
static tracerd_status_t enum_value(struct parser *P, const char *what, int64_t *out)
{
    struct tok a;
    bool neg = false;
    tracerd_status_t st = next(P, &a);
    if (st != TRACERD_OK)
        return st;
    if (is(&a, "-")) {
        neg = true;
        if ((st = next(P, &a)) != TRACERD_OK)
            return st;
    }
    if (a.k != K_INT)
        return PERR(P, &a, "%s", what);
    if (!neg && a.ival > (uint64_t)INT64_MAX) {
        *out = (int64_t)a.ival;
        return TRACERD_OK;
    }
    struct value v;
    memset(&v, 0, sizeof v);
    v.k = K_INT;
    v.u = a.ival;
    v.neg = neg;
    v.t = a;
    return value_i64(P, &v, out);
}

/* The optional name after enum / struct / variant. On entry n is the token
 * after the keyword (peeked); on return, the token after the name. */
static tracerd_status_t opt_name(struct parser *P, struct tok *n, const char **name)
{
    if (n->k != K_IDENT)
        return TRACERD_OK;
    next(P, n);
    *name = tokdup(P, n);
    if (*name == NULL)
        return nomem(P);
    return peek(P, n);
}

/* The optional 'align' '(' N ')' after a structure; *align stays 0 without. */
static tracerd_status_t opt_align(struct parser *P, uint64_t *align)
{
    struct tok t, a;
    tracerd_status_t st = peek(P, &t);
    if (st != TRACERD_OK || !is(&t, "align"))
        return st;
    next(P, &t);
    if ((st = expect(P, "(")) != TRACERD_OK || (st = next(P, &a)) != TRACERD_OK)
        return st;
    if (a.k != K_INT || !pow2(a.ival) || a.ival > 4096)
        return PERR(P, &a, "expected a power-of-two alignment");
    *align = a.ival;
    return expect(P, ")");
}

/* Parses a type specifier. Returns OK with *out, or PAUSED when a compound
 * body frame was pushed (the frame's closing resumes the statement). */
static tracerd_status_t parse_type_spec(struct parser *P, bool leave_last,
                                        const tracerd_ctf_type_t **out)
{
    struct tok t;
    tracerd_status_t st = peek(P, &t);
    if (st != TRACERD_OK)
        return st;
    *out = NULL;
    if (is(&t, "integer") || is(&t, "floating_point") || is(&t, "string")) {
        next(P, &t);
        tracerd_ctf_type_kind_t k = is(&t, "integer")          ? TRACERD_CTF_TYPE_INT
                                    : is(&t, "floating_point") ? TRACERD_CTF_TYPE_FLOAT
                                                               : TRACERD_CTF_TYPE_STRING;
        struct ctf_type *ty;
        if ((st = new_type(P, k, &t, &ty)) != TRACERD_OK)
            return st;
        struct tok b;
        if ((st = peek(P, &b)) != TRACERD_OK)
            return st;
        if (k != TRACERD_CTF_TYPE_STRING || is(&b, "{")) {
            if ((st = parse_attr_body(P, ty)) != TRACERD_OK)
                return st;
        }
        *out = &ty->pub;
        return TRACERD_OK;
    }
    if (is(&t, "enum")) {
        next(P, &t);
        struct tok n;
        if ((st = peek(P, &n)) != TRACERD_OK)
            return st;
        const char *ename = NULL;
        if ((st = opt_name(P, &n, &ename)) != TRACERD_OK)
            return st;
        const tracerd_ctf_type_t *cont = NULL;
        if (is(&n, ":")) {
            next(P, &n);
            struct tok c;
            if ((st = peek(P, &c)) != TRACERD_OK)
                return st;
            if (is(&c, "integer")) {
                next(P, &c);
                struct ctf_type *it;
                if ((st = new_type(P, TRACERD_CTF_TYPE_INT, &c, &it)) != TRACERD_OK)
                    return st;
                if ((st = parse_attr_body(P, it)) != TRACERD_OK)
                    return st;
                cont = &it->pub;
            } else {
                if ((st = parse_type_name(P, false, &cont)) != TRACERD_OK)
                    return st;
            }
            if (cont->kind != TRACERD_CTF_TYPE_INT)
                return PERR(P, &c, "enum container must be an integer type");
            if ((st = peek(P, &n)) != TRACERD_OK)
                return st;
        }
        if (!is(&n, "{")) {
            if (ename == NULL)
                return PERR(P, &n, "expected '{' after enum");
            *out = lookup(P, D_ENUM, ename, strlen(ename));
            if (*out == NULL)
                return PERR(P, &t, "unknown enum '%s'", ename);
            return TRACERD_OK;
        }
        if (cont == NULL) {
            cont = lookup(P, D_ALIAS, "int", 3);
            if (cont == NULL || cont->kind != TRACERD_CTF_TYPE_INT)
                return PERR(P, &t, "enum without a container type needs 'int' declared");
        }
        next(P, &n);
        struct ctf_type *ty;
        if ((st = new_type(P, TRACERD_CTF_TYPE_ENUM, &t, &ty)) != TRACERD_OK)
            return st;
        const struct ctf_type *ci = (const struct ctf_type *)cont;
        ty->pub = *cont;
        ty->pub.kind = TRACERD_CTF_TYPE_ENUM;
        ty->native_order = ci->native_order;
        ty->clock_name = ci->clock_name;
        ty->pub.element = cont;
        /* Mappings: first into a list, then an array. */
        struct mapn {
            struct mapn *next;
            tracerd_ctf_mapping_t m;
        } *head = NULL, *tail = NULL;
        uint32_t count = 0;
        int64_t nextv = 0;
        for (;;) {
            struct tok l;
            if ((st = next(P, &l)) != TRACERD_OK)
                return st;
            if (is(&l, "}"))
                break;
            const char *label;
            if (l.k == K_IDENT)
                label = tokdup(P, &l);
            else if (l.k == K_STR)
                label = tracerd__tsdl_unescape(P, &l);
            else
                return PERR(P, &l, "expected an enumerator label or '}'");
            if (label == NULL)
                return nomem(P);
            int64_t lo = nextv, hi = nextv;
            struct tok e;
            if ((st = peek(P, &e)) != TRACERD_OK)
                return st;
            if (is(&e, "=")) {
                next(P, &e);
                if ((st = enum_value(P, "expected an enumerator value", &lo)) != TRACERD_OK)
                    return st;
                hi = lo;
                if ((st = peek(P, &e)) != TRACERD_OK)
                    return st;
                if (is(&e, "...")) {
                    next(P, &e);
                    if ((st = enum_value(P, "expected the end of the range", &hi)) != TRACERD_OK)
                        return st;
                }
            }
            if (++count > P->m->cfg.max_fields)
                return tracerd__tsdl_limit(P, &l, "enumerator %u: more than max_fields (%u)", count,
                                           P->m->cfg.max_fields);
            if ((st = declared(P, &l, "enumerator")) != TRACERD_OK)
                return st;
            struct mapn *mn = tracerd__ctf_arena_alloc(P->ar, sizeof *mn);
            if (mn == NULL)
                return nomem(P);
            mn->m.label = label;
            mn->m.lo = lo;
            mn->m.hi = hi;
            if (tail)
                tail->next = mn;
            else
                head = mn;
            tail = mn;
            nextv = (int64_t)((uint64_t)hi + 1u);
            if ((st = next(P, &e)) != TRACERD_OK)
                return st;
            if (is(&e, "}"))
                break;
            if (!is(&e, ","))
                return PERR(P, &e, "expected ',' or '}' in enum");
        }
        tracerd_ctf_mapping_t *arr = tracerd__ctf_arena_alloc(P->ar, sizeof *arr * (count + 1));
        if (arr == NULL)
            return nomem(P);
        uint32_t i = 0;
        for (struct mapn *mn = head; mn; mn = mn->next)
            arr[i++] = mn->m;
        ty->pub.mappings = arr;
        ty->pub.nmappings = count;
        if (ename != NULL && (st = declare(P, D_ENUM, ename, &ty->pub)) != TRACERD_OK)
            return st;
        *out = &ty->pub;
        return TRACERD_OK;
    }
    if (is(&t, "struct") || is(&t, "variant")) {
        bool isv = is(&t, "variant");
        next(P, &t);
        struct tok n;
        if ((st = peek(P, &n)) != TRACERD_OK)
            return st;
        const char *cname = NULL;
        if ((st = opt_name(P, &n, &cname)) != TRACERD_OK)
            return st;
        const char *tag = NULL;
        if (isv && is(&n, "<")) {
            next(P, &n);
            char path[256];
            size_t pn = 0;
            for (;;) {
                struct tok a;
                if ((st = next(P, &a)) != TRACERD_OK)
                    return st;
                if (is(&a, ">"))
                    break;
                if (a.k != K_IDENT && !is(&a, "."))
                    return PERR(P, &a, "expected a tag path or '>'");
                if (pn + a.len + 1 >= sizeof path)
                    return PERR(P, &a, "tag path too long");
                memcpy(path + pn, a.p, a.len);
                pn += a.len;
            }
            if (pn == 0)
                return PERR(P, &n, "empty variant tag");
            tag = tracerd__ctf_arena_strdup(P->ar, path, pn);
            if (tag == NULL)
                return nomem(P);
            if ((st = peek(P, &n)) != TRACERD_OK)
                return st;
        }
        if (is(&n, "{")) {
            next(P, &n);
            if ((st = push_frame(P, isv ? FR_VARIANT : FR_STRUCT, &t)) != TRACERD_OK)
                return st;
            P->fr[P->nfr - 1].cname = cname;
            P->fr[P->nfr - 1].tag = tag;
            return TRACERD_PAUSED;
        }
        if (cname == NULL)
            return PERR(P, &n, "expected '{' or a %s name", isv ? "variant" : "struct");
        const tracerd_ctf_type_t *ty = lookup(P, isv ? D_VARIANT : D_STRUCT, cname, strlen(cname));
        if (ty == NULL)
            return PERR(P, &t, "unknown %s '%s'", isv ? "variant" : "struct", cname);
        if (isv && tag != NULL) {
            struct ctf_type *c = tracerd__ctf_arena_alloc(P->ar, sizeof *c);
            if (c == NULL)
                return nomem(P);
            *c = *(const struct ctf_type *)ty;
            c->pub.path = tag;
            ty = &c->pub;
        }
        uint64_t align = 0;
        if (!isv && (st = opt_align(P, &align)) != TRACERD_OK)
            return st;
        if (align > ty->align_bits) {
            struct ctf_type *c = tracerd__ctf_arena_alloc(P->ar, sizeof *c);
            if (c == NULL)
                return nomem(P);
            *c = *(const struct ctf_type *)ty;
            c->pub.align_bits = (uint32_t)align;
            ty = &c->pub;
        }
        *out = ty;
        return TRACERD_OK;
    }
    if (t.k == K_IDENT)
        return parse_type_name(P, leave_last, out);
    return PERR(P, &t, "expected a type");
}

/* Declarator: NAME ('[' (INT | path) ']')*; builds arrays/sequences around base. */
static tracerd_status_t parse_declarator(struct parser *P, const tracerd_ctf_type_t *base,
                                         const char **name, const tracerd_ctf_type_t **out)
{
    struct tok n;
    tracerd_status_t st = next(P, &n);
    if (st != TRACERD_OK)
        return st;
    if (n.k != K_IDENT)
        return PERR(P, &n, "expected a field name");
    *name = tokdup(P, &n);
    if (*name == NULL)
        return nomem(P);
    /* Dimensions, outermost first; built innermost first. */
    struct dim {
        bool seq;
        uint64_t len;
        const char *path;
        struct tok at;
    } dims[8];
    unsigned nd = 0;
    for (;;) {
        struct tok b;
        if ((st = peek(P, &b)) != TRACERD_OK)
            return st;
        if (!is(&b, "["))
            break;
        next(P, &b);
        if (nd == 8)
            return PERR(P, &b, "more than 8 dimensions");
        struct dim *d = &dims[nd++];
        memset(d, 0, sizeof *d);
        d->at = b;
        struct tok a;
        if ((st = next(P, &a)) != TRACERD_OK)
            return st;
        if (a.k == K_INT) {
            if (a.ival > P->m->cfg.max_array_length)
                return tracerd__tsdl_limit(P, &a, "array length %llu above max_array_length (%llu)",
                                           (unsigned long long)a.ival,
                                           (unsigned long long)P->m->cfg.max_array_length);
            d->len = a.ival;
            if ((st = expect(P, "]")) != TRACERD_OK)
                return st;
        } else if (a.k == K_IDENT) {
            char path[256];
            size_t pn = 0;
            for (;;) {
                if (pn + a.len + 1 >= sizeof path)
                    return PERR(P, &a, "length path too long");
                memcpy(path + pn, a.p, a.len);
                pn += a.len;
                if ((st = next(P, &a)) != TRACERD_OK)
                    return st;
                if (is(&a, "]"))
                    break;
                if (!is(&a, "."))
                    return PERR(P, &a, "expected '.' or ']' in a sequence length");
                path[pn++] = '.';
                if ((st = next(P, &a)) != TRACERD_OK)
                    return st;
                if (a.k != K_IDENT)
                    return PERR(P, &a, "expected an identifier in a sequence length");
            }
            d->seq = true;
            d->path = tracerd__ctf_arena_strdup(P->ar, path, pn);
            if (d->path == NULL)
                return nomem(P);
        } else {
            return PERR(P, &a, "expected an array length or a length field");
        }
    }
    const tracerd_ctf_type_t *ty = base;
    while (nd-- > 0) {
        struct ctf_type *a;
        if ((st = new_type(P, dims[nd].seq ? TRACERD_CTF_TYPE_SEQUENCE : TRACERD_CTF_TYPE_ARRAY,
                           &dims[nd].at, &a)) != TRACERD_OK)
            return st;
        a->native_order = false;
        a->pub.element = ty;
        a->pub.length = dims[nd].len;
        a->pub.path = dims[nd].path;
        a->pub.align_bits = ty->align_bits;
        ty = &a->pub;
    }
    *out = ty;
    return TRACERD_OK;
}

/* ==== statements =========================================================== */

/* Members are found through P->members, keyed by the frame's serial and the
 * name: a duplicate is found in constant time however wide the struct. */
static tracerd_status_t add_member(struct parser *P, struct frame *f, const char *name,
                                   const tracerd_ctf_type_t *ty, const struct tok *at)
{
    if (f->nm >= P->m->cfg.max_fields)
        return tracerd__tsdl_limit(P, at, "member %u '%s': more than max_fields (%u) members",
                                   f->nm + 1, name, P->m->cfg.max_fields);
    tracerd_status_t st = declared(P, at, "member");
    if (st != TRACERD_OK)
        return st;
    size_t len = strlen(name);
    uint64_t key = tracerd__hash_bytes(name, len) ^ ((uint64_t)f->serial * 0xC2B2AE3D27D4EB4Fu);
    uint64_t v;
    struct mnode *same = NULL;
    if (tracerd__hmap_get(&P->members, key, &v))
        same = (struct mnode *)(uintptr_t)v;
    for (const struct mnode *x = same; x; x = x->same)
        if (x->key == key && strcmp(x->name, name) == 0)
            return PERR(P, at, "duplicate member '%s'", name);
    struct mnode *mn = tracerd__ctf_arena_alloc(P->ar, sizeof *mn);
    if (mn == NULL)
        return nomem(P);
    mn->name = name;
    mn->type = ty;
    mn->key = key;
    mn->same = same;
    if (tracerd__hmap_put(&P->members, &P->t->alloc, key, (uint64_t)(uintptr_t)mn) != TRACERD_OK)
        return nomem(P);
    if (f->mtail)
        f->mtail->next = mn;
    else
        f->mhead = mn;
    f->mtail = mn;
    f->nm++;
    return TRACERD_OK;
}

static tracerd_status_t scope_assign(struct parser *P, struct frame *f, const char *key,
                                     const tracerd_ctf_type_t *ty, const struct tok *at)
{
    if (ty->kind != TRACERD_CTF_TYPE_STRUCT)
        return PERR(P, at, "scope '%s' must be a structure", key);
    if (f->kind == FR_BLOCK && f->block == BLK_TRACE && !strcmp(key, "packet.header")) {
        P->t->info.packet_header = ty;
    } else if (f->kind == FR_BLOCK && f->block == BLK_STREAM && !strcmp(key, "packet.context")) {
        f->sb->sc->packet_context = ty;
    } else if (f->kind == FR_BLOCK && f->block == BLK_STREAM && !strcmp(key, "event.header")) {
        f->sb->sc->event_header = ty;
    } else if (f->kind == FR_BLOCK && f->block == BLK_STREAM && !strcmp(key, "event.context")) {
        f->sb->sc->event_context = ty;
    } else if (f->kind == FR_BLOCK && f->block == BLK_EVENT && !strcmp(key, "context")) {
        f->eb->ec->context = ty;
    } else if (f->kind == FR_BLOCK && f->block == BLK_EVENT && !strcmp(key, "fields")) {
        f->eb->ec->fields = ty;
    } else {
        warn(P, at, "unknown scope assignment");
    }
    return TRACERD_OK;
}

/* Completes a statement whose type is known. */
static tracerd_status_t finish_stmt(struct parser *P, int pend, const tracerd_ctf_type_t *ty)
{
    struct frame *f = &P->fr[P->nfr - 1];
    tracerd_status_t st;
    struct tok t;
    switch (pend) {
    case P_FIELD:
    case P_TYPEDEF:
        if ((st = peek(P, &t)) != TRACERD_OK)
            return st;
        if (pend == P_FIELD && is(&t, ";") &&
            (ty->kind == TRACERD_CTF_TYPE_STRUCT || ty->kind == TRACERD_CTF_TYPE_VARIANT ||
             ty->kind == TRACERD_CTF_TYPE_ENUM)) {
            next(P, &t); /* a type declaration inside a compound: no member */
            return TRACERD_OK;
        }
        for (;;) {
            const char *name = NULL;
            const tracerd_ctf_type_t *dt = NULL;
            if ((st = peek(P, &t)) != TRACERD_OK)
                return st;
            if ((st = parse_declarator(P, ty, &name, &dt)) != TRACERD_OK)
                return st;
            if (pend == P_FIELD)
                st = add_member(P, f, name, dt, &t);
            else
                st = declare(P, D_ALIAS, name, dt);
            if (st != TRACERD_OK)
                return st;
            if ((st = next(P, &t)) != TRACERD_OK)
                return st;
            if (is(&t, ";"))
                return TRACERD_OK;
            if (!is(&t, ","))
                return PERR(P, &t, "expected ',' or ';' after a declarator");
        }
    case P_TYPEALIAS: {
        if ((st = expect(P, ":=")) != TRACERD_OK)
            return st;
        char name[128];
        size_t n = 0;
        struct tok first;
        if ((st = peek(P, &first)) != TRACERD_OK)
            return st;
        for (;;) {
            if ((st = next(P, &t)) != TRACERD_OK)
                return st;
            if (is(&t, ";"))
                break;
            if (t.k != K_IDENT)
                return PERR(P, &t, "expected an alias name or ';'");
            if (n + t.len + 2 >= sizeof name)
                return PERR(P, &t, "alias name too long");
            if (n)
                name[n++] = ' ';
            memcpy(name + n, t.p, t.len);
            n += t.len;
        }
        if (n == 0)
            return PERR(P, &first, "expected an alias name");
        char *nm = tracerd__ctf_arena_strdup(P->ar, name, n);
        if (nm == NULL)
            return nomem(P);
        return declare(P, D_ALIAS, nm, ty);
    }
    case P_ASSIGN:
        if ((st = peek(P, &t)) != TRACERD_OK)
            return st;
        if ((st = scope_assign(P, f, f->key, ty, &t)) != TRACERD_OK)
            return st;
        return expect(P, ";");
    case P_TYPESTMT:
        return expect(P, ";");
    default:
        return PERR(P, NULL, "internal parser state");
    }
}

/* Closes a struct/variant frame at '}' and returns the type. */
static tracerd_status_t close_compound(struct parser *P, const tracerd_ctf_type_t **out)
{
    struct frame *f = &P->fr[P->nfr - 1];
    struct tok at = {K_PUNCT, "", 0, f->line, f->col, 0};
    struct ctf_type *ty;
    tracerd_status_t st = new_type(
        P, f->kind == FR_VARIANT ? TRACERD_CTF_TYPE_VARIANT : TRACERD_CTF_TYPE_STRUCT, &at, &ty);
    if (st != TRACERD_OK)
        return st;
    ty->native_order = false;
    tracerd_ctf_member_t *mem = tracerd__ctf_arena_alloc(P->ar, sizeof *mem * (f->nm + 1));
    if (mem == NULL)
        return nomem(P);
    uint32_t i = 0, align = 1;
    for (struct mnode *mn = f->mhead; mn; mn = mn->next, i++) {
        mem[i].name = mn->name;
        mem[i].display = mn->name[0] == '_' ? mn->name + 1 : mn->name;
        mem[i].type = mn->type;
        if (mn->type->kind != TRACERD_CTF_TYPE_VARIANT && mn->type->align_bits > align)
            align = mn->type->align_bits;
    }
    ty->pub.members = mem;
    ty->pub.nmembers = f->nm;
    ty->pub.path = f->tag;
    ty->pub.align_bits = f->kind == FR_VARIANT ? 1 : align;
    const char *cname = f->cname;
    int kind = f->kind;
    frame_pop(P);
    if (kind == FR_STRUCT) {
        uint64_t a = 0;
        if ((st = opt_align(P, &a)) != TRACERD_OK)
            return st;
        if (a > ty->pub.align_bits)
            ty->pub.align_bits = (uint32_t)a;
    }
    if (cname != NULL &&
        (st = declare(P, kind == FR_VARIANT ? D_VARIANT : D_STRUCT, cname, &ty->pub)) != TRACERD_OK)
        return st;
    *out = &ty->pub;
    return TRACERD_OK;
}

static tracerd_status_t open_block(struct parser *P, const struct tok *kw)
{
    int blk = is(kw, "trace")    ? BLK_TRACE
              : is(kw, "stream") ? BLK_STREAM
              : is(kw, "event")  ? BLK_EVENT
              : is(kw, "clock")  ? BLK_CLOCK
              : is(kw, "env")    ? BLK_ENV
                                 : BLK_CALLSITE;
    tracerd_status_t st = expect(P, "{");
    if (st != TRACERD_OK)
        return st;
    if ((st = push_frame(P, FR_BLOCK, kw)) != TRACERD_OK)
        return st;
    struct frame *f = &P->fr[P->nfr - 1];
    f->block = blk;
    if (blk == BLK_TRACE) {
        if (P->have_trace)
            return PERR(P, kw, "second trace block");
        P->have_trace = true;
        P->trace_at = *kw;
    } else if (blk == BLK_STREAM) {
        f->sb = tracerd__ctf_arena_alloc(P->ar, sizeof *f->sb);
        if (f->sb == NULL ||
            (f->sb->sc = tracerd__ctf_arena_alloc(P->ar, sizeof *f->sb->sc)) == NULL)
            return nomem(P);
    } else if (blk == BLK_EVENT) {
        f->eb = tracerd__ctf_arena_alloc(P->ar, sizeof *f->eb);
        if (f->eb == NULL ||
            (f->eb->ec = tracerd__ctf_arena_alloc(P->ar, sizeof *f->eb->ec)) == NULL)
            return nomem(P);
        f->eb->line = kw->line;
        f->eb->col = kw->col;
    } else if (blk == BLK_CLOCK) {
        /* a stream class has one default clock: real traces have one to three */
        if (P->nclock_blocks >= P->m->cfg.max_stream_classes)
            return tracerd__tsdl_limit(P, kw, "clock block %u: more than max_stream_classes (%u)",
                                       P->nclock_blocks + 1, P->m->cfg.max_stream_classes);
        P->nclock_blocks++;
        f->cb = tracerd__ctf_arena_alloc(P->ar, sizeof *f->cb);
        if (f->cb == NULL)
            return nomem(P);
        f->cb->c.freq = 1000000000u;
        f->cb->c.description = "";
    }
    return TRACERD_OK;
}

static tracerd_status_t close_block(struct parser *P, const struct tok *at)
{
    struct frame *f = &P->fr[P->nfr - 1];
    tracerd_status_t st = expect(P, ";");
    if (st != TRACERD_OK)
        return st;
    switch (f->block) {
    case BLK_STREAM: {
        uint64_t id = f->sb->sc->id, v;
        if (tracerd__hmap_get(&P->stream_ids, id, &v))
            return PERR(P, at, "duplicate stream id %llu", (unsigned long long)id);
        if (P->nstreams >= P->m->cfg.max_stream_classes)
            return tracerd__tsdl_limit(P, at,
                                       "stream class %u (id %llu): more than max_stream_classes "
                                       "(%u)",
                                       P->nstreams + 1, (unsigned long long)id,
                                       P->m->cfg.max_stream_classes);
        if (tracerd__hmap_put(&P->stream_ids, &P->t->alloc, id, 1) != TRACERD_OK)
            return nomem(P);
        f->sb->next = P->streams;
        P->streams = f->sb;
        P->nstreams++;
        break;
    }
    case BLK_EVENT:
        if (f->eb->ec->name == NULL)
            return PERR(P, at, "event block without a name");
        if (P->nevents >= P->m->cfg.max_event_classes)
            return tracerd__tsdl_limit(
                P, at, "event class %u ('%s'): more than max_event_classes (%u)", P->nevents + 1,
                f->eb->ec->name, P->m->cfg.max_event_classes);
        f->eb->next = P->events;
        P->events = f->eb;
        P->nevents++;
        break;
    case BLK_CLOCK: {
        if (f->cb->c.name == NULL)
            return PERR(P, at, "clock block without a name");
        const char *name = f->cb->c.name;
        uint64_t key = tracerd__hash_bytes(name, strlen(name)), v;
        struct clk_build *same = NULL;
        if (tracerd__hmap_get(&P->clock_names, key, &v))
            same = (struct clk_build *)(uintptr_t)v;
        bool dup = false;
        for (const struct clk_build *c = same; c && !dup; c = c->same)
            dup = strcmp(c->c.name, name) == 0;
        if (dup) {
            warn(P, at, "duplicate clock block");
            break;
        }
        f->cb->same = same;
        if (tracerd__hmap_put(&P->clock_names, &P->t->alloc, key, (uint64_t)(uintptr_t)f->cb) !=
            TRACERD_OK)
            return nomem(P);
        f->cb->next = P->clocks;
        P->clocks = f->cb;
        P->nclocks++;
        break;
    }
    default:
        break;
    }
    frame_pop(P);
    return TRACERD_OK;
}

/* key path: IDENT ('.' IDENT)* */
static tracerd_status_t parse_key(struct parser *P, const struct tok *first, char *key, size_t cap)
{
    size_t n = 0;
    struct tok t = *first;
    for (;;) {
        if (n + t.len + 2 >= cap)
            return PERR(P, &t, "attribute name too long");
        memcpy(key + n, t.p, t.len);
        n += t.len;
        key[n] = '\0';
        struct tok d;
        tracerd_status_t st = peek(P, &d);
        if (st != TRACERD_OK)
            return st;
        if (!is(&d, "."))
            return TRACERD_OK;
        next(P, &d);
        if ((st = next(P, &t)) != TRACERD_OK)
            return st;
        if (t.k != K_IDENT)
            return PERR(P, &t, "expected an identifier after '.'");
        key[n++] = '.';
    }
}

static tracerd_status_t block_attr(struct parser *P, struct frame *f, const char *key,
                                   const struct tok *kt, const struct value *v)
{
    tracerd_status_t st = TRACERD_OK;
    uint64_t u = 0;
    int64_t i = 0;
    switch (f->block) {
    case BLK_TRACE:
        if (!strcmp(key, "major") || !strcmp(key, "minor")) {
            if ((st = value_u64(P, v, &u)) != TRACERD_OK)
                return st;
            if (key[1] == 'a')
                P->t->info.major = (uint32_t)(u > 1000 ? 1000 : u);
            else
                P->t->info.minor = (uint32_t)(u > 1000 ? 1000 : u);
        } else if (!strcmp(key, "uuid")) {
            char *s = v->k == K_STR ? tracerd__tsdl_unescape(P, &v->t) : NULL;
            if (s == NULL || !parse_uuid(s, P->t->info.uuid))
                return PERR(P, &v->t, "expected a uuid string");
            P->t->info.has_uuid = true;
        } else if (!strcmp(key, "byte_order")) {
            int bo = byte_order_of(v);
            if (bo <= 0)
                return PERR(P, &v->t, "expected le, be or network");
            P->t->info.byte_order = (tracerd_byte_order_t)bo;
            P->have_bo = true;
        } else {
            warn(P, kt, "unknown trace attribute");
        }
        return TRACERD_OK;
    case BLK_STREAM:
        if (!strcmp(key, "id")) {
            if ((st = value_u64(P, v, &u)) != TRACERD_OK)
                return st;
            f->sb->sc->id = u;
            f->sb->has_id = true;
        } else {
            warn(P, kt, "unknown stream attribute");
        }
        return TRACERD_OK;
    case BLK_EVENT: {
        tracerd_ctf_event_class_t *ec = f->eb->ec;
        if (!strcmp(key, "name")) {
            ec->name = v->k == K_STR ? tracerd__tsdl_unescape(P, &v->t)
                                     : tracerd__ctf_arena_strdup(P->ar, v->path, strlen(v->path));
            if (v->k == K_INT)
                return PERR(P, &v->t, "expected an event name");
            if (ec->name == NULL)
                return nomem(P);
        } else if (!strcmp(key, "id")) {
            if ((st = value_u64(P, v, &ec->id)) != TRACERD_OK)
                return st;
            f->eb->has_id = true;
        } else if (!strcmp(key, "stream_id")) {
            if ((st = value_u64(P, v, &ec->stream_id)) != TRACERD_OK)
                return st;
            f->eb->has_stream_id = true;
        } else if (!strcmp(key, "loglevel")) {
            if ((st = value_i64(P, v, &ec->loglevel)) != TRACERD_OK)
                return st;
            ec->has_loglevel = true;
        } else if (!strcmp(key, "model.emf.uri")) {
            ec->emf_uri = v->k == K_STR ? tracerd__tsdl_unescape(P, &v->t) : NULL;
            if (ec->emf_uri == NULL)
                return PERR(P, &v->t, "expected a string");
        } else {
            warn(P, kt, "unknown event attribute");
        }
        return TRACERD_OK;
    }
    case BLK_CLOCK: {
        tracerd_ctf_clock_t *c = &f->cb->c;
        if (!strcmp(key, "name")) {
            c->name = v->k == K_STR     ? tracerd__tsdl_unescape(P, &v->t)
                      : v->k == K_IDENT ? tracerd__ctf_arena_strdup(P->ar, v->path, strlen(v->path))
                                        : NULL;
            if (c->name == NULL)
                return PERR(P, &v->t, "expected a clock name");
        } else if (!strcmp(key, "uuid")) {
            char *s = v->k == K_STR ? tracerd__tsdl_unescape(P, &v->t) : NULL;
            if (s == NULL || !parse_uuid(s, c->uuid))
                return PERR(P, &v->t, "expected a uuid string");
            c->has_uuid = true;
        } else if (!strcmp(key, "description")) {
            c->description = v->k == K_STR ? tracerd__tsdl_unescape(P, &v->t) : NULL;
            if (c->description == NULL)
                return PERR(P, &v->t, "expected a string");
        } else if (!strcmp(key, "freq")) {
            if ((st = value_u64(P, v, &c->freq)) != TRACERD_OK)
                return st;
            if (c->freq == 0)
                return PERR(P, &v->t, "clock frequency must not be 0");
        } else if (!strcmp(key, "precision")) {
            return value_u64(P, v, &c->precision);
        } else if (!strcmp(key, "offset_s")) {
            return value_i64(P, v, &c->offset_s);
        } else if (!strcmp(key, "offset")) {
            return value_i64(P, v, &c->offset);
        } else if (!strcmp(key, "absolute")) {
            bool b;
            if (!value_bool(v, &b))
                return PERR(P, &v->t, "expected true or false");
            c->absolute = b;
        } else {
            warn(P, kt, "unknown clock attribute");
        }
        return TRACERD_OK;
    }
    case BLK_ENV: {
        if ((st = declared(P, kt, "env entry")) != TRACERD_OK)
            return st;
        struct env_build *e = tracerd__ctf_arena_alloc(P->ar, sizeof *e);
        if (e == NULL)
            return nomem(P);
        e->e.key = tracerd__ctf_arena_strdup(P->ar, key, strlen(key));
        if (e->e.key == NULL)
            return nomem(P);
        if (v->k == K_STR) {
            e->e.str = tracerd__tsdl_unescape(P, &v->t);
        } else if (v->k == K_INT) {
            if ((st = value_i64(P, v, &i)) != TRACERD_OK)
                return st;
            e->e.value = i;
        } else {
            e->e.str = tracerd__ctf_arena_strdup(P->ar, v->path, strlen(v->path));
        }
        if (v->k != K_INT && e->e.str == NULL)
            return nomem(P);
        e->next = P->env;
        P->env = e;
        P->nenv++;
        return TRACERD_OK;
    }
    default:
        return TRACERD_OK; /* callsite: ignored */
    }
}

tracerd_status_t tracerd__tsdl_parse_item(struct parser *P, bool *done)
{
    struct frame *f = &P->fr[P->nfr - 1];
    struct tok t;
    tracerd_status_t st = peek(P, &t);
    if (st != TRACERD_OK)
        return st;
    const tracerd_ctf_type_t *ty = NULL;
    if (t.k == K_EOF) {
        if (f->kind == FR_TOP) {
            *done = true;
            return TRACERD_OK;
        }
        return PERR(P, &t, "expected '}' to close the block opened at line %u", f->line);
    }
    if (is(&t, "}") && f->kind != FR_TOP) {
        next(P, &t);
        if (f->kind == FR_BLOCK)
            return close_block(P, &t);
        if ((st = close_compound(P, &ty)) != TRACERD_OK)
            return st;
        int pend = P->fr[P->nfr - 1].pend;
        P->fr[P->nfr - 1].pend = P_NONE;
        return finish_stmt(P, pend, ty);
    }
    if (is(&t, ";")) { /* empty statement */
        next(P, &t);
        return TRACERD_OK;
    }
    int pend;
    if (is(&t, "typealias")) {
        next(P, &t);
        pend = P_TYPEALIAS;
        st = parse_type_spec(P, false, &ty);
    } else if (is(&t, "typedef")) {
        next(P, &t);
        pend = P_TYPEDEF;
        st = parse_type_spec(P, true, &ty);
    } else if (f->kind == FR_TOP && (is(&t, "trace") || is(&t, "stream") || is(&t, "event") ||
                                     is(&t, "clock") || is(&t, "env") || is(&t, "callsite"))) {
        next(P, &t);
        return open_block(P, &t);
    } else if (f->kind == FR_BLOCK && t.k != K_IDENT) {
        return PERR(P, &t, "expected an attribute name, a declaration or '}'");
    } else if (f->kind == FR_BLOCK && !is(&t, "struct") && !is(&t, "variant") && !is(&t, "enum") &&
               !is(&t, "integer") && !is(&t, "floating_point") && !is(&t, "string")) {
        next(P, &t);
        char key[64];
        if ((st = parse_key(P, &t, key, sizeof key)) != TRACERD_OK)
            return st;
        struct tok op;
        if ((st = next(P, &op)) != TRACERD_OK)
            return st;
        if (is(&op, "=")) {
            struct value v;
            if ((st = parse_value(P, &v)) != TRACERD_OK)
                return st;
            return block_attr(P, f, key, &t, &v);
        }
        if (!is(&op, ":="))
            return PERR(P, &op, "expected '=' or ':=' after '%s'", key);
        memcpy(f->key, key, sizeof f->key);
        pend = P_ASSIGN;
        st = parse_type_spec(P, false, &ty);
    } else if (f->kind == FR_STRUCT || f->kind == FR_VARIANT) {
        pend = P_FIELD;
        st = parse_type_spec(P, true, &ty);
    } else {
        pend = P_TYPESTMT;
        st = parse_type_spec(P, false, &ty);
    }
    if (st == TRACERD_PAUSED) {
        P->fr[P->nfr - 2].pend = pend;
        return TRACERD_OK;
    }
    if (st != TRACERD_OK)
        return st;
    return finish_stmt(P, pend, ty);
}
