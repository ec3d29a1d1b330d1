/* CTF: compiles every dynamic scope of a trace model into a flat program
 * (struct ctf_insn arrays). This file is the driver: the scopes of the
 * trace, its stream classes and event classes in order, each type tree
 * walked with an explicit work stack (no recursion), its fields handed to
 * the emitters (compile_emit.c), then the fast forms (compile_fast.c) and
 * delivery plans (compile_plan.c). Field paths (sequence lengths, variant
 * tags) are resolved here, once (compile_loc.c); decoding never looks a
 * name up. */
#include <stdio.h>
#include <stdlib.h>

#include "compile.h"

const char *const tracerd__cc_scope_prefix[SC_N] = {"trace.packet.header", "stream.packet.context",
                                                    "stream.event.header", "stream.event.context",
                                                    "event.context",       "event.fields"};

tracerd_status_t tracerd__cc_err(struct cc *c, const tracerd_ctf_type_t *at, tracerd_status_t st,
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

tracerd_status_t tracerd__cc_nomem(struct cc *c)
{
    tracerd__format(c->reason, c->rsize, "metadata: out of memory while compiling");
    return TRACERD_E_NOMEM;
}

struct ctf_insn *tracerd__cc_emit(struct cc *c, struct pbuf *b)
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

/* A field: its tree node and display data, then its kind's emitter. */
static tracerd_status_t compile_field(struct cc *c, const struct work *w)
{
    const tracerd_ctf_type_t *ty = w->type;
    struct node *n =
        tracerd__ctf_arena_alloc(c->cur_scope >= SC_EC ? &c->evtmp : &c->tmp, sizeof *n);
    struct ctf_meta *meta = tracerd__ctf_arena_alloc(c->ar, sizeof *meta);
    if (n == NULL || meta == NULL)
        return tracerd__cc_nomem(c);
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
        if (tracerd__cc_add_kid(c, n) != TRACERD_OK)
            return tracerd__cc_nomem(c);
    } else {
        c->roots[c->cur_scope] = n;
    }
    /* path: parent's path + display (elements keep the parent's path) */
    const char *path;
    if (w->parent == NULL)
        path = tracerd__cc_scope_prefix[c->cur_scope];
    else if (w->name[0] == '\0')
        path = w->parent->meta->path;
    else if ((c->path_bytes += strlen(w->parent->meta->path) + strlen(w->display) + 2) >
             c->max_nodes * 64)
        return tracerd__cc_err(
            c, ty, TRACERD_E_LIMIT,
            "field '%s': the expanded fields' paths exceed %llu bytes (64 per node of "
            "max_type_nodes)",
            w->display, (unsigned long long)(c->max_nodes * 64));
    else
        path = join_path(c, w->parent->meta->path, w->display);
    if (path == NULL)
        return tracerd__cc_nomem(c);
    meta->name = w->display;
    meta->path = path;
    meta->type = ty;
    n->meta = meta;
    const struct field f = {w, n, meta, depth};
    tracerd_status_t st = tracerd__cc_emit_field(c, &f);
    if (st == TRACERD_OK)
        tracerd__cc_value_slot(c, &f);
    return st;
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
        return insn(c, (struct ctf_insn){.op = OP_STRUCT_END, .meta = w->meta})
                   ? TRACERD_OK
                   : tracerd__cc_nomem(c);
    case W_ARRAY_END:
    case W_SEQ_END:
        if (insn(c, (struct ctf_insn){.op = w->what == W_ARRAY_END ? OP_ARRAY_NEXT : OP_SEQ_NEXT,
                                      .jump = w->pc + 1,
                                      .meta = b->v[w->pc].meta}) == NULL)
            return tracerd__cc_nomem(c);
        b->v[w->pc].jump = b->len;
        return TRACERD_OK;
    case W_OPT_BEGIN:
        w->targets[w->i] = b->len;
        return TRACERD_OK;
    case W_OPT_END:
        /* count: the chain of jumps to patch at the variant's end */
        if (insn(c, (struct ctf_insn){.op = OP_JUMP, .count = b->v[w->pc].count}) == NULL)
            return tracerd__cc_nomem(c);
        b->v[w->pc].count = b->len - 1;
        return TRACERD_OK;
    case W_OPTIONAL_END:
        if (insn(c, (struct ctf_insn){.op = OP_OPTIONAL_END, .meta = b->v[w->pc].meta}) == NULL)
            return tracerd__cc_nomem(c);
        b->v[w->pc].jump = b->len;
        return TRACERD_OK;
    case W_VARIANT_END: {
        if ((in = insn(c, (struct ctf_insn){.op = OP_VARIANT_END, .meta = b->v[w->pc].meta})) ==
            NULL)
            return tracerd__cc_nomem(c);
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
            return tracerd__cc_nomem(c);
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
                        return tracerd__cc_nomem(c);
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
        return tracerd__cc_err(
            c, root, TRACERD_E_LIMIT,
            "%s %s: expands to %llu fields, %llu with the scopes before; more than "
            "max_type_nodes (%llu)",
            c->owner, tracerd__cc_scope_prefix[scope], (unsigned long long)nodes,
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
            return tracerd__cc_nomem(c);
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
                st = tracerd__cc_nomem(c);
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
        return tracerd__cc_nomem(c);
    struct ctf_insn *code = tracerd__ctf_arena_alloc(c->ar, sizeof *code * b->len);
    if (code == NULL)
        return tracerd__cc_nomem(c);
    memcpy(code, b->v, sizeof *code * b->len);
    if (tracerd__cc_mark_runs(c, code, b->len) != TRACERD_OK)
        return tracerd__cc_nomem(c);
    /* Fields referenced by later scopes get their slots patched into `code`. */
    c->codes[scope] = code;
    out->code = code;
    out->len = b->len;
    return TRACERD_OK;
}

/* After an event class: its tree goes (at most a few KiB kept, so that
 * every event class costs its own fields, not the widest one's). */
static void event_done(struct cc *c)
{
    c->roots[SC_EC] = c->roots[SC_EF] = NULL;
    tracerd__ctf_arena_reset(&c->evtmp);
    if (c->evkids.cap > 1024)
        tracerd__hmap_free(&c->evkids, c->tmp.alloc);
    else if (c->evkids.count > 0)
        tracerd__hmap_clear(&c->evkids);
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
        return tracerd__cc_err(c, NULL, TRACERD_E_LIMIT,
                               "%u stream classes: more than max_stream_classes (%u)", in->nstreams,
                               l->max_stream_classes);
    if (l->max_event_classes != 0 && in->nevents > l->max_event_classes)
        return tracerd__cc_err(c, NULL, TRACERD_E_LIMIT,
                               "%u event classes: more than max_event_classes (%u)", in->nevents,
                               l->max_event_classes);
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
    tracerd__ctf_arena_init(&c.evtmp, &t->alloc);
    c.reason = reason;
    c.rsize = size;
    c.line = line;
    c.col = col;
    c.ctf2 = t->info.major == 2;
    c.max_nodes = t->limits.max_type_nodes ? t->limits.max_type_nodes : (uint64_t)1 << 17;
    t->nslots = CTF_FIRST_FREE_SLOT + t->nvnames; /* then the value names' */
    uint32_t shape_next = 1;                      /* record shape numbers (0: not a fixed shape) */
    tracerd_status_t st = model_counts(&c);
    snprintf(c.owner, sizeof c.owner, "trace");
    if (st == TRACERD_OK)
        st = compile_scope(&c, t->info.packet_header, SC_PH, &t->packet_header);
    t->srt = tracerd__ctf_arena_alloc(c.ar, sizeof *t->srt * (t->info.nstreams + 1));
    if (st == TRACERD_OK && t->srt == NULL)
        st = tracerd__cc_nomem(&c);
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
        c.vset = 0;
        if (st == TRACERD_OK)
            st = compile_scope(&c, sc->event_context, SC_SEC, &r->event_context);
        if (st != TRACERD_OK)
            break;
        const uint32_t sec_vset = c.vset;
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
            st = tracerd__cc_nomem(&c);
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
            c.vset = 0;
            st = compile_scope(&c, er->cls->context, SC_EC, &er->context);
            er->vset = sec_vset | c.vset;
            if (st == TRACERD_OK)
                st = compile_scope(&c, er->cls->fields, SC_EF, &er->fields);
            if (st == TRACERD_OK)
                st = tracerd__cc_fuse_all(&c, r->event_context.code, er->context.code,
                                          er->fields.code, &er->body_fast);
            if (st == TRACERD_OK)
                st = tracerd__cc_body_fixed(&c, er->body_fast, &er->body_fixed);
            const struct ctf_insn *whole[4] = {r->event_header.code, r->event_context.code,
                                               er->context.code, er->fields.code};
            if (st == TRACERD_OK && !tracerd__cc_may_split_byte_order(whole, 4)) {
                const struct ctf_prog *const body[3] = {&r->event_context, &er->context,
                                                        &er->fields};
                st = tracerd__cc_build_plan(&c, body, &er->plan);
                const struct ctf_prog none = {NULL, 0, TRACERD_CTF_SCOPE_EVENT_CONTEXT, NULL};
                const struct ctf_prog *const ctx[3] = {&er->context, &none, &none};
                if (st == TRACERD_OK && er->plan != NULL && er->context.code != NULL)
                    st = tracerd__cc_build_plan(&c, ctx, &er->ctx_plan);
            }
            event_done(&c);
        }
        /* after the events: their paths may have given header fields slots */
        if (st == TRACERD_OK && r->event_header.code)
            st = tracerd__cc_header_fast(&c, r);
        if (st == TRACERD_OK)
            tracerd__cc_shapes(r, &shape_next);
        if (st == TRACERD_OK && r->event_header.code) {
            /* used only with an event's plan, i.e. when no byte order changes
             * inside a byte anywhere in the event */
            const struct ctf_prog none = {NULL, 0, TRACERD_CTF_SCOPE_EVENT_HEADER, NULL};
            const struct ctf_prog *const hdr[3] = {&r->event_header, &none, &none};
            st = tracerd__cc_build_plan(&c, hdr, &r->header_plan);
            if (st == TRACERD_OK)
                st = tracerd__cc_lttng_forms(&c, r);
        }
        if (st == TRACERD_OK && r->event_context.code) {
            /* the same: used only with an event's plan */
            const struct ctf_prog none = {NULL, 0, TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, NULL};
            const struct ctf_prog *const sec[3] = {&r->event_context, &none, &none};
            st = tracerd__cc_build_plan(&c, sec, &r->sec_plan);
        }
        if (st != TRACERD_OK)
            break;
        qsort(r->events, r->nevents, sizeof *r->events, cmp_ev);
        if (r->nevents > 0 && maxid < 65536) {
            r->ndirect = (uint32_t)maxid + 1;
            r->direct = tracerd__ctf_arena_alloc(c.ar, sizeof *r->direct * r->ndirect);
            if (r->direct == NULL) {
                st = tracerd__cc_nomem(&c);
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
    tracerd__hmap_free(&c.evkids, c.tmp.alloc);
    tracerd__ctf_arena_free(&c.evtmp);
    tracerd__hmap_free(&c.flags, c.tmp.alloc);
    tracerd__ctf_arena_free(&c.tmp);
    return st;
}
