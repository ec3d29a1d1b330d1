/* TSDL model builder: runs the parser over the metadata text and turns its
 * lists into the trace model's sorted arrays. */
#include <stdlib.h>

#include "tsdl.h"

/* An event class with its declaration index and its stream class's index. */
struct ec_order {
    struct ec_build *e;
    uint32_t decl, stream;
};

static int cmp_stream(const void *a, const void *b)
{
    const tracerd_ctf_stream_class_t *x = *(tracerd_ctf_stream_class_t *const *)a;
    const tracerd_ctf_stream_class_t *y = *(tracerd_ctf_stream_class_t *const *)b;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_ec_order(const void *a, const void *b)
{
    const struct ec_order *x = a, *y = b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->e->ec->id != y->e->ec->id)
        return x->e->ec->id < y->e->ec->id ? -1 : 1;
    return x->decl < y->decl ? -1 : x->decl > y->decl;
}

static int cmp_ec_decl(const void *a, const void *b)
{
    const struct ec_order *x = a, *y = b;
    return x->decl < y->decl ? -1 : x->decl > y->decl;
}

/* Index of the stream class with this id in the sorted array, or n. */
static uint32_t stream_index(tracerd_ctf_stream_class_t *const *sc, uint32_t n, uint64_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sc[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && sc[lo]->id == id ? lo : n;
}

/* Builds the arrays of the model from the lists (O(n log n) in the number
 * of stream and event classes). */
static tracerd_status_t build_model(struct parser *P)
{
    struct tracerd_ctf_trace *t = P->t;
    struct tok none = {K_PUNCT, "", 0, 1, 1, 0};
    if (!P->have_trace)
        return PERR(P, NULL, "no trace block");
    if (t->info.major != 1 || t->info.minor != 8) {
        P->m->line = P->m->col = 0;
        return tracerd__error_set(&P->m->err, TRACERD_E_VERSION, 0,
                                  "metadata: trace version %u.%u, expected 1.8", t->info.major,
                                  t->info.minor);
    }
    if (!P->have_bo) {
        struct tok at = P->trace_at;
        at.len = 5;
        return PERR(P, &at, "trace block without byte_order");
    }
    /* clocks (declaration order) */
    tracerd_ctf_clock_t *clk = tracerd__ctf_arena_alloc(P->ar, sizeof *clk * (P->nclocks + 1));
    tracerd_ctf_env_t *env = tracerd__ctf_arena_alloc(P->ar, sizeof *env * (P->nenv + 1));
    if (clk == NULL || env == NULL)
        return nomem(P);
    uint32_t i = P->nclocks;
    for (struct clk_build *c = P->clocks; c; c = c->next)
        clk[--i] = c->c;
    i = P->nenv;
    for (struct env_build *e = P->env; e; e = e->next)
        env[--i] = e->e;
    t->info.clocks = clk;
    t->info.nclocks = P->nclocks;
    t->info.env = env;
    t->info.nenv = P->nenv;
    /* stream classes, sorted by id; an implicit one (id 0) when none is declared */
    if (P->nstreams == 0) {
        struct sc_build *sb = tracerd__ctf_arena_alloc(P->ar, sizeof *sb);
        if (sb == NULL || (sb->sc = tracerd__ctf_arena_alloc(P->ar, sizeof *sb->sc)) == NULL)
            return nomem(P);
        P->streams = sb;
        P->nstreams = 1;
    }
    tracerd_ctf_stream_class_t **sc = tracerd__ctf_arena_alloc(P->ar, sizeof *sc * P->nstreams);
    uint32_t *counts = tracerd__ctf_arena_alloc(P->ar, sizeof *counts * P->nstreams);
    if (sc == NULL || counts == NULL)
        return nomem(P);
    i = 0;
    for (struct sc_build *s = P->streams; s; s = s->next)
        sc[i++] = s->sc;
    qsort(sc, P->nstreams, sizeof *sc, cmp_stream); /* ids are distinct (close_block) */
    t->info.streams = (const tracerd_ctf_stream_class_t *const *)sc;
    t->info.nstreams = P->nstreams;
    /* events into their stream class, in declaration order */
    struct ec_order *evs = tracerd__ctf_arena_alloc(P->ar, sizeof *evs * (P->nevents + 1));
    if (evs == NULL)
        return nomem(P);
    i = P->nevents;
    for (struct ec_build *e = P->events; e; e = e->next) {
        i--;
        evs[i].e = e;
        evs[i].decl = i;
    }
    for (i = 0; i < P->nevents; i++) {
        struct ec_build *e = evs[i].e;
        if (!e->has_stream_id && P->nstreams == 1)
            e->ec->stream_id = sc[0]->id;
        uint32_t k = stream_index(sc, P->nstreams, e->ec->stream_id);
        if (k == P->nstreams) {
            struct tok at = {K_PUNCT, "", 0, e->line, e->col, 0};
            return PERR(P, &at, "event '%s' names stream %llu, which is not declared", e->ec->name,
                        (unsigned long long)e->ec->stream_id);
        }
        evs[i].stream = k;
        counts[k]++;
    }
    /* Duplicate ids: sorted by (stream, id, declaration), the first duplicate
     * in declaration order is reported with the first event of its id. */
    qsort(evs, P->nevents, sizeof *evs, cmp_ec_order);
    const struct ec_order *dup = NULL, *first = NULL;
    for (i = 1; i < P->nevents; i++) {
        if (evs[i].stream != evs[i - 1].stream || evs[i].e->ec->id != evs[i - 1].e->ec->id)
            continue;
        uint32_t g = i - 1;
        while (g > 0 && evs[g - 1].stream == evs[i].stream &&
               evs[g - 1].e->ec->id == evs[i].e->ec->id)
            g--;
        if (g == i - 1 && (dup == NULL || evs[i].decl < dup->decl)) {
            dup = &evs[i];
            first = &evs[g];
        }
    }
    if (dup != NULL) {
        struct tok at = {K_PUNCT, "", 0, dup->e->line, dup->e->col, 0};
        return PERR(P, &at, "events '%s' and '%s' share id %llu in stream %llu", first->e->ec->name,
                    dup->e->ec->name, (unsigned long long)dup->e->ec->id,
                    (unsigned long long)sc[dup->stream]->id);
    }
    const tracerd_ctf_event_class_t ***evarr =
        tracerd__ctf_arena_alloc(P->ar, sizeof *evarr * P->nstreams);
    if (evarr == NULL)
        return nomem(P);
    for (uint32_t k = 0; k < P->nstreams; k++) {
        const tracerd_ctf_event_class_t **arr =
            tracerd__ctf_arena_alloc(P->ar, sizeof *arr * (counts[k] + 1));
        if (arr == NULL)
            return nomem(P);
        evarr[k] = arr;
        sc[k]->events = arr;
        sc[k]->nevents = 0;
    }
    /* back to declaration order within each stream class */
    qsort(evs, P->nevents, sizeof *evs, cmp_ec_decl);
    for (i = 0; i < P->nevents; i++) {
        tracerd_ctf_stream_class_t *s = sc[evs[i].stream];
        evarr[evs[i].stream][s->nevents++] = evs[i].e->ec;
        t->info.nevents++;
    }
    (void)none;
    return TRACERD_OK;
}

tracerd_status_t tracerd__ctf_tsdl_parse(tracerd_ctf_metadata_t *m, struct tracerd_ctf_trace *t)
{
    struct parser P;
    memset(&P, 0, sizeof P);
    P.m = m;
    P.t = t;
    P.ar = &t->arena;
    P.lx.s = m->text ? m->text : "";
    P.lx.n = m->len;
    P.lx.line = 1;
    P.lx.col = 1;
    P.maxfr = m->cfg.max_depth;
    tracerd_status_t st = TRACERD_OK;
    P.fr = tracerd__ctf_arena_alloc(P.ar, sizeof *P.fr * P.maxfr);
    if (P.fr == NULL)
        st = nomem(&P);
    if (st == TRACERD_OK) {
        P.nfr = 1;
        P.fr[0].kind = FR_TOP;
        bool done = false;
        while (st == TRACERD_OK && !done)
            st = tracerd__tsdl_parse_item(&P, &done);
    }
    if (st == TRACERD_OK)
        st = build_model(&P);
    tracerd__hmap_free(&P.decls, &t->alloc);
    tracerd__hmap_free(&P.members, &t->alloc);
    tracerd__hmap_free(&P.stream_ids, &t->alloc);
    tracerd__hmap_free(&P.clock_names, &t->alloc);
    return st;
}
