/* CTF stream reader: creating, resetting and freeing a reader, its
 * configuration and memory bound, its accessors (offsets, errors) and the
 * gate the directory reader sets. The records themselves are read in
 * stream.c; the state both use is stream_state.h. */
#include "../core/sized.h"
#include "stream_state.h"

static void ctf_stream_config_defaults(tracerd_ctf_stream_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->stitch_bytes = 65536;
    cfg->max_sequence_length = (uint64_t)1 << 24;
    cfg->max_depth = 64;
    cfg->max_packet_bytes = (uint64_t)1 << 30;
    cfg->check_uuid = false;
}

TRACERD__SIZED_INIT(tracerd_ctf_stream_config_init, tracerd_ctf_stream_config_t,
                    ctf_stream_config_defaults)
TRACERD__SIZED_INIT(tracerd_ctf_callbacks_init, tracerd_ctf_callbacks_t, NULL)

size_t tracerd_ctf_stream_memory_bound(const tracerd_ctf_trace_t *trace,
                                       const tracerd_ctf_stream_config_t *cfg)
{
    tracerd_ctf_stream_config_t c;
    tracerd_ctf_stream_config_init(&c);
    (void)TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &c, cfg); /* else the defaults */
    size_t n = sizeof(struct tracerd_ctf_stream) + c.stitch_bytes +
               sizeof(tracerd_ctf_field_t) * TRACERD_CTF_BATCH_RECORDS + /* on_fields */
               sizeof(tracerd_ctf_field_t) * 2 * CTF_HFORM_RECORDS;      /* LTTng header forms */
    if (trace)
        n += sizeof(uint64_t) * trace->nslots + sizeof(struct loop) * (trace->max_loop_depth + 1) +
             (trace->has_utf ? c.stitch_bytes * 2 : 0);
    return n;
}

static tracerd_status_t alloc_tables(tracerd_ctf_stream_t *r, const struct tracerd_ctf_trace *t)
{
    if (t->max_loop_depth > r->cfg.max_depth)
        return TRACERD_E_LIMIT;
    uint64_t *slots = tracerd__calloc(&r->alloc, sizeof *slots * t->nslots);
    struct loop *loops = tracerd__calloc(&r->alloc, sizeof *loops * (t->max_loop_depth + 1));
    if (slots == NULL || loops == NULL) {
        tracerd__free(&r->alloc, slots, sizeof *slots * t->nslots);
        tracerd__free(&r->alloc, loops, sizeof *loops * (t->max_loop_depth + 1));
        return TRACERD_E_NOMEM;
    }
    if (r->slots) {
        memcpy(slots, r->slots, sizeof *slots * (r->nslots < t->nslots ? r->nslots : t->nslots));
        tracerd__free(&r->alloc, r->slots, sizeof *r->slots * r->nslots);
    }
    if (r->loops)
        tracerd__free(&r->alloc, r->loops, sizeof *r->loops * r->nloops);
    r->slots = slots;
    r->nslots = t->nslots;
    r->loops = loops;
    r->nloops = t->max_loop_depth + 1;
    size_t ucap = t->has_utf ? r->cfg.stitch_bytes * 2 : 0;
    if (ucap > r->ubuf_cap) {
        uint8_t *u = tracerd__calloc(&r->alloc, ucap);
        if (u == NULL)
            return TRACERD_E_NOMEM;
        tracerd__free(&r->alloc, r->ubuf, r->ubuf_cap);
        r->ubuf = u;
        r->ubuf_cap = ucap;
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd_ctf_stream_new(const tracerd_ctf_trace_t *trace,
                                        const tracerd_ctf_stream_config_t *cfg,
                                        const tracerd_ctf_callbacks_t *cbs, void *user,
                                        const tracerd_allocator_t *alloc,
                                        tracerd_ctf_stream_t **out)
{
    if (out == NULL || trace == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_ctf_stream_config_t c;
    tracerd_ctf_stream_config_init(&c);
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_ctf_callbacks_t, &cb, cbs) != TRACERD_OK ||
        c.stitch_bytes < TRACERD_STITCH_MIN || c.max_depth == 0 || c.max_packet_bytes == 0 ||
        (cb.on_field != NULL && cb.on_fields != NULL))
        return TRACERD_E_INVALID;
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, alloc);
    tracerd_ctf_stream_t *r = tracerd__calloc(&a, sizeof *r);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->alloc = a;
    r->t = trace;
    r->cfg = c;
    r->cb = cb;
    tracerd__reader_init(&r->core, user);
    r->scopes = c.field_scopes != 0 ? c.field_scopes : ~0u;
    {
        const uint32_t ev_scopes = (1u << TRACERD_CTF_SCOPE_EVENT_HEADER) |
                                   (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                   (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT) |
                                   (1u << TRACERD_CTF_SCOPE_EVENT_FIELDS);
        const uint32_t ctx_scopes = (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                    (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);
        r->fields = r->cb.on_field != NULL || r->cb.on_fields != NULL;
        r->shape_scopes = r->fields ? r->scopes : 0;
        uint32_t want = r->fields ? r->scopes & ev_scopes : 0;
        r->fast_ok = (want & ~ctx_scopes) == 0;
        r->fast_ctx = want != 0 && r->fast_ok;
    }
    r->st_limit = c.stitch_bytes; /* the stitch buffer itself: when first needed */
    r->frag = TRACERD_CTF_FRAGMENT_BYTES(c.stitch_bytes);
    tracerd_status_t st = alloc_tables(r, trace);
    if (st == TRACERD_OK && cb.on_fields != NULL) {
        r->batch = tracerd__calloc(&a, sizeof *r->batch * TRACERD_CTF_BATCH_RECORDS);
        if (r->batch == NULL)
            st = TRACERD_E_NOMEM;
        for (size_t i = 0; r->batch != NULL && i < TRACERD_CTF_BATCH_RECORDS; i++)
            slot_clear(&r->batch[i]);
    }
    if (st == TRACERD_OK && cb.on_field != NULL) { /* LTTng header forms' records */
        r->hrec = tracerd__calloc(&a, sizeof *r->hrec * 2 * CTF_HFORM_RECORDS);
        if (r->hrec == NULL)
            st = TRACERD_E_NOMEM;
    }
    if (st != TRACERD_OK) {
        tracerd_ctf_stream_free(r);
        return st;
    }
    tracerd_ctf_stream_reset(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_ctf_stream_reset(tracerd_ctf_stream_t *r)
{
    if (r == NULL)
        return;
    tracerd__reader_reset(&r->core);
    r->err_path[0] = '\0';
    r->err_field_off = 0;
    r->state = S_PACKET;
    r->offset = r->pkt_off = r->pos = 0;
    r->content_bits = r->packet_bits = UINT64_MAX;
    r->pkt_index = r->pkt_events = 0;
    r->srt = NULL;
    r->rec_off = 0;
    r->st_have = 0;
    r->st_need = 0;
    r->have = 0;
    r->clock = 0;
    r->clock_set = false;
    r->ns_srt = NULL;
    r->prev = false;
    r->uuid_warned = false;
    r->ev = NULL;
    r->gated = false;
    r->held = r->plan_held = false;
    r->big = false;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
    r->batch_n = 0;
    if (r->batch != NULL)
        batch_clean(r);
    batch_drop_hform(r);
}

void tracerd_ctf_stream_free(tracerd_ctf_stream_t *r)
{
    if (r == NULL)
        return;
    tracerd_allocator_t a = r->alloc;
    tracerd__free(&a, r->st, r->st_alloc);
    tracerd__free(&a, r->slots, sizeof *r->slots * r->nslots);
    tracerd__free(&a, r->loops, sizeof *r->loops * r->nloops);
    tracerd__free(&a, r->ubuf, r->ubuf_cap);
    tracerd__free(&a, r->batch, r->batch ? sizeof *r->batch * TRACERD_CTF_BATCH_RECORDS : 0);
    tracerd__free(&a, r->hrec, r->hrec ? sizeof *r->hrec * 2 * CTF_HFORM_RECORDS : 0);
    tracerd__free(&a, r->loc, r->loc ? sizeof *r->loc : 0);
    tracerd__free(&a, r, sizeof *r);
}

tracerd_status_t tracerd_ctf_stream_set_trace(tracerd_ctf_stream_t *r,
                                              const tracerd_ctf_trace_t *trace)
{
    if (r == NULL || trace == NULL || r->core.in_cb || r->st_have != 0 || r->big)
        return TRACERD_E_INVALID;
    const struct ctf_stream_rt *s = NULL;
    if (r->srt != NULL) {
        s = tracerd__ctf_stream_rt(trace, r->srt->cls->id);
        if (s == NULL)
            return TRACERD_E_REFERENCE;
    }
    tracerd_status_t st = alloc_tables(r, trace);
    if (st != TRACERD_OK)
        return st;
    r->t = trace;
    r->srt = s;
    r->hdr_inline = s != NULL ? hdr_inline_of(s) : 0;
    if (s != NULL)
        event_fill_packet(r, &r->fe); /* its slots may have moved */
    r->ns_srt = NULL;
    r->held = r->plan_held = false;
    batch_drop_hform(r); /* the old model's (kept alive by the caller until now) */
    r->hrec_of[0] = r->hrec_of[1] = NULL;
    return TRACERD_OK;
}

uint64_t tracerd_ctf_stream_offset(const tracerd_ctf_stream_t *r)
{
    return r->offset;
}
uint64_t tracerd_ctf_stream_record_offset(const tracerd_ctf_stream_t *r)
{
    return r->core.err.status < 0 ? r->core.err.offset : r->rec_off;
}
uint64_t tracerd_ctf_stream_error_offset(const tracerd_ctf_stream_t *r)
{
    return r->err_path[0] ? r->err_field_off : r->core.err.offset;
}
const char *tracerd_ctf_stream_error_path(const tracerd_ctf_stream_t *r)
{
    return r->err_path;
}
const char *tracerd_ctf_stream_error_reason(const tracerd_ctf_stream_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}
int tracerd_ctf_stream_callback_error(const tracerd_ctf_stream_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

void tracerd__ctf_stream_set_gate(tracerd_ctf_stream_t *r, tracerd__ctf_gate_fn fn, void *user)
{
    r->gate = fn;
    r->gate_user = user;
}

void tracerd__ctf_stream_gate_below(tracerd_ctf_stream_t *r, uint64_t ns, bool hold)
{
    r->gate_below = ns;
    r->gate_hold = hold;
}

bool tracerd__ctf_stream_gated(const tracerd_ctf_stream_t *r)
{
    return r->gated;
}

uint64_t tracerd__ctf_stream_gated_ns(const tracerd_ctf_stream_t *r)
{
    return r->gated_ns;
}

tracerd_status_t tracerd__ctf_stream_set_located(tracerd_ctf_stream_t *r,
                                                 tracerd__ctf_located_cb cb)
{
    r->located = NULL;
    if (cb == NULL || r->batch == NULL)
        return TRACERD_OK;
    if (r->loc == NULL && (r->loc = tracerd__calloc(&r->alloc, sizeof *r->loc)) == NULL)
        return TRACERD_E_NOMEM;
    r->located = cb;
    return TRACERD_OK;
}
