/* CTF trace model: arena and walk accessors. */
#include "ctf_internal.h"

#define ARENA_BLOCK 16384u

void tracerd__ctf_arena_init(struct ctf_arena *a, const tracerd_allocator_t *alloc)
{
    a->alloc = alloc;
    a->head = NULL;
    a->total = 0;
}

void *tracerd__ctf_arena_alloc(struct ctf_arena *a, size_t size)
{
    size_t hdr = (sizeof(struct ctf_arena_block) + 15u) & ~(size_t)15u;
    size = (size + 15u) & ~(size_t)15u;
    if (size == 0)
        size = 16;
    struct ctf_arena_block *b = a->head;
    if (b == NULL || b->size - b->used < size) {
        size_t want = size + hdr > ARENA_BLOCK ? size + hdr : ARENA_BLOCK;
        if (want < size)
            return NULL;
        b = tracerd__calloc(a->alloc, want);
        if (b == NULL)
            return NULL;
        b->size = want;
        b->used = hdr;
        if (a->head != NULL && size + hdr > ARENA_BLOCK) {
            /* A big block goes behind the head so the head keeps its room. */
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
        a->total += want;
    }
    void *p = (uint8_t *)b + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *tracerd__ctf_arena_strdup(struct ctf_arena *a, const char *s, size_t len)
{
    char *d = tracerd__ctf_arena_alloc(a, len + 1);
    if (d != NULL) {
        if (len)
            memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

bool tracerd__ctf_arena_grow(struct ctf_arena *a, void **v, uint32_t n, uint32_t *cap, size_t sz)
{
    if (n < *cap)
        return true;
    uint32_t nc = *cap ? *cap * 2 : 8;
    void *nv = tracerd__ctf_arena_alloc(a, sz * nc);
    if (nv == NULL)
        return false;
    if (n)
        memcpy(nv, *v, sz * n);
    *v = nv;
    *cap = nc;
    return true;
}

struct ctf_type *tracerd__ctf_type_new(struct ctf_arena *a, tracerd_ctf_type_kind_t k)
{
    struct ctf_type *t = tracerd__ctf_arena_alloc(a, sizeof *t);
    if (t == NULL)
        return NULL;
    t->pub.kind = k;
    t->pub.align_bits = 8;
    t->pub.base = 10;
    t->pub.clock = -1;
    t->pub.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    return t;
}

void tracerd__ctf_arena_reset(struct ctf_arena *a)
{
    struct ctf_arena_block *keep = a->head;
    if (keep != NULL && keep->size != ARENA_BLOCK)
        keep = NULL; /* a head is never a big block, unless it is the only one */
    for (struct ctf_arena_block *b = a->head; b != NULL;) {
        struct ctf_arena_block *n = b->next;
        if (b != keep)
            tracerd__free(a->alloc, b, b->size);
        b = n;
    }
    a->head = keep;
    a->total = 0;
    if (keep != NULL) {
        keep->next = NULL;
        keep->used = (sizeof(struct ctf_arena_block) + 15u) & ~(size_t)15u;
        a->total = keep->size;
    }
}

void tracerd__ctf_arena_free(struct ctf_arena *a)
{
    struct ctf_arena_block *b = a->head;
    while (b != NULL) {
        struct ctf_arena_block *n = b->next;
        tracerd__free(a->alloc, b, b->size);
        b = n;
    }
    a->head = NULL;
    a->total = 0;
}

const tracerd_ctf_trace_info_t *tracerd_ctf_trace_info(const tracerd_ctf_trace_t *t)
{
    return t ? &t->info : NULL;
}

const struct ctf_stream_rt *tracerd__ctf_stream_rt(const struct tracerd_ctf_trace *t, uint64_t id)
{
    uint32_t lo = 0, hi = t->info.nstreams;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t v = t->srt[mid].cls->id;
        if (v == id)
            return &t->srt[mid];
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const struct ctf_event_rt *tracerd__ctf_event_rt(const struct ctf_stream_rt *s, uint64_t id)
{
    if (s->direct != NULL)
        return id < s->ndirect ? s->direct[id] : NULL;
    uint32_t lo = 0, hi = s->nevents;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t v = s->events[mid].cls->id;
        if (v == id)
            return &s->events[mid];
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const tracerd_ctf_stream_class_t *tracerd_ctf_trace_stream_class(const tracerd_ctf_trace_t *t,
                                                                 uint64_t id)
{
    const struct ctf_stream_rt *s = t ? tracerd__ctf_stream_rt(t, id) : NULL;
    return s ? s->cls : NULL;
}

const tracerd_ctf_event_class_t *tracerd_ctf_trace_event_class(const tracerd_ctf_trace_t *t,
                                                               uint64_t stream_id, uint64_t id)
{
    const struct ctf_stream_rt *s = t ? tracerd__ctf_stream_rt(t, stream_id) : NULL;
    const struct ctf_event_rt *e = s ? tracerd__ctf_event_rt(s, id) : NULL;
    return e ? e->cls : NULL;
}

const char *tracerd_ctf_trace_env(const tracerd_ctf_trace_t *t, const char *key)
{
    if (t == NULL || key == NULL)
        return NULL;
    for (uint32_t i = 0; i < t->info.nenv; i++)
        if (strcmp(t->info.env[i].key, key) == 0)
            return t->info.env[i].str;
    return NULL;
}

void tracerd_ctf_trace_free(tracerd_ctf_trace_t *t)
{
    if (t == NULL)
        return;
    tracerd_allocator_t a = t->alloc;
    struct ctf_arena ar = t->arena;
    ar.alloc = &a;
    tracerd__ctf_arena_free(&ar);
    tracerd__free(&a, t, sizeof *t);
}

const char *tracerd_ctf_member_attributes(const tracerd_ctf_type_t *compound, uint32_t i)
{
    const struct ctf_type *t = (const struct ctf_type *)compound;
    if (t == NULL || i >= compound->nmembers || t->member_attrs == NULL)
        return NULL;
    return t->member_attrs[i];
}

const char *tracerd_ctf_type_kind_name(tracerd_ctf_type_kind_t k)
{
    static const char *const names[] = {
        "integer",  "floating_point", "string",  "enum",   "struct", "variant", "array",
        "sequence", "boolean",        "bit_map", "varint", "blob",   "optional"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "unknown";
}
