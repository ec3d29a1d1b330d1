/* TSDL model builder: runs the parser over the metadata text and turns its
 * lists into the trace model's sorted arrays. */
#include "tsdl.h"

/* Builds the arrays of the model from the lists. */
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
    for (uint32_t a = 1; a < P->nstreams; a++) /* insertion sort: few streams */
        for (uint32_t b = a; b > 0 && sc[b - 1]->id > sc[b]->id; b--) {
            tracerd_ctf_stream_class_t *x = sc[b];
            sc[b] = sc[b - 1];
            sc[b - 1] = x;
        }
    t->info.streams = (const tracerd_ctf_stream_class_t *const *)sc;
    t->info.nstreams = P->nstreams;
    /* events into their stream class, in declaration order */
    struct ec_build **evs = tracerd__ctf_arena_alloc(P->ar, sizeof *evs * (P->nevents + 1));
    if (evs == NULL)
        return nomem(P);
    i = P->nevents;
    for (struct ec_build *e = P->events; e; e = e->next)
        evs[--i] = e;
    for (i = 0; i < P->nevents; i++) {
        struct ec_build *e = evs[i];
        if (!e->has_stream_id && P->nstreams == 1)
            e->ec->stream_id = sc[0]->id;
        uint32_t k = 0;
        while (k < P->nstreams && sc[k]->id != e->ec->stream_id)
            k++;
        if (k == P->nstreams) {
            struct tok at = {K_PUNCT, "", 0, e->line, e->col, 0};
            return PERR(P, &at, "event '%s' names stream %llu, which is not declared", e->ec->name,
                        (unsigned long long)e->ec->stream_id);
        }
        counts[k]++;
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
    for (i = 0; i < P->nevents; i++) {
        uint32_t k = 0;
        while (sc[k]->id != evs[i]->ec->stream_id)
            k++;
        const tracerd_ctf_event_class_t **arr = evarr[k];
        for (uint32_t j = 0; j < sc[k]->nevents; j++)
            if (arr[j]->id == evs[i]->ec->id) {
                struct tok at = {K_PUNCT, "", 0, evs[i]->line, evs[i]->col, 0};
                return PERR(P, &at, "events '%s' and '%s' share id %llu in stream %llu",
                            arr[j]->name, evs[i]->ec->name, (unsigned long long)evs[i]->ec->id,
                            (unsigned long long)sc[k]->id);
            }
        arr[sc[k]->nevents++] = evs[i]->ec;
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
    return st;
}
