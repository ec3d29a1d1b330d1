/* FXT per-provider string and thread tables. Memory is bounded: at most
 * max_providers providers, each with a string index of at most 32768 entries
 * and a thread table of 256, and string copies within max_str_bytes (peak,
 * counting the old arena while it is copied into a larger one). */
#include "fxt_internal.h"

/* Entry of index 0 (the empty string reference): an arena entry of length 0,
 * so that a lookup of index 0 needs no test. */
static const uint8_t EMPTY_ENTRY[TRACERD__FXT_STR_HDR] = {0};

tracerd_status_t tracerd__fxt_tables_init(struct tracerd__fxt_tables *t,
                                          const tracerd_allocator_t *alloc, uint32_t max_providers,
                                          size_t max_str_bytes)
{
    memset(t, 0, sizeof *t);
    t->alloc = alloc;
    t->max = max_providers;
    t->max_str_bytes = max_str_bytes;
    t->list = tracerd__calloc(alloc, (size_t)max_providers * sizeof *t->list);
    return t->list != NULL ? TRACERD_OK : TRACERD_E_NOMEM;
}

static void provider_free(struct tracerd__fxt_tables *t, struct tracerd__fxt_provider *p)
{
    tracerd__free(t->alloc, p->strs, p->strs_cap * sizeof *p->strs);
    tracerd__free(t->alloc, p->arena, p->arena_cap);
    t->str_bytes -= p->arena_cap;
    tracerd__free(t->alloc, p, sizeof *p);
}

void tracerd__fxt_tables_clear(struct tracerd__fxt_tables *t)
{
    for (uint32_t i = 0; i < t->count; i++) {
        provider_free(t, t->list[i]);
        t->list[i] = NULL;
    }
    t->count = 0;
}

void tracerd__fxt_tables_free(struct tracerd__fxt_tables *t)
{
    if (t->list == NULL)
        return;
    tracerd__fxt_tables_clear(t);
    tracerd__free(t->alloc, t->list, (size_t)t->max * sizeof *t->list);
    t->list = NULL;
}

struct tracerd__fxt_provider *tracerd__fxt_find(const struct tracerd__fxt_tables *t, uint32_t id)
{
    for (uint32_t i = 0; i < t->count; i++)
        if (t->list[i]->id == id)
            return t->list[i];
    return NULL;
}

tracerd_status_t tracerd__fxt_add(struct tracerd__fxt_tables *t, uint32_t id,
                                  struct tracerd__fxt_provider **out)
{
    *out = NULL;
    if (t->count >= t->max)
        return TRACERD_E_LIMIT;
    struct tracerd__fxt_provider *p = tracerd__calloc(t->alloc, sizeof *p);
    if (p == NULL)
        return TRACERD_E_NOMEM;
    p->id = id;
    t->list[t->count++] = p;
    *out = p;
    return TRACERD_OK;
}

void tracerd__fxt_provider_reset(struct tracerd__fxt_provider *p)
{
    p->has_init = false;
    p->ticks_per_second = 0;
    if (p->strs != NULL) {
        memset(p->strs, 0, ((size_t)p->strs_hi + 1) * sizeof *p->strs);
        p->strs[0] = EMPTY_ENTRY;
    }
    p->strs_hi = 0;
    p->arena_used = 0;
    p->arena_dead = 0;
    memset(p->threads, 0, sizeof p->threads);
}

size_t tracerd__fxt_provider_bytes(void)
{
    /* The string index at its largest, plus the half-size one it is copied
     * from while it grows. */
    return sizeof(struct tracerd__fxt_provider) +
           (TRACERD__FXT_MAX_STRINGS + TRACERD__FXT_MAX_STRINGS / 2) * sizeof(const uint8_t *);
}

static size_t entry_bytes(size_t len)
{
    return TRACERD__FXT_STR_HDR + len;
}

/* Copies the live entries of src (used bytes) to dst in order, updating the
 * index; dst may equal src (in-place compaction: entries only move down). */
static size_t compact_into(struct tracerd__fxt_provider *p, uint8_t *dst, const uint8_t *src,
                           size_t used)
{
    size_t r = 0, w = 0;
    while (r < used) {
        uint32_t idx = tracerd__le16(src + r);
        size_t len = tracerd__le16(src + r + 2);
        size_t n = entry_bytes(len);
        if (idx < p->strs_cap && p->strs[idx] == src + r) {
            if (dst + w != src + r)
                memmove(dst + w, src + r, n);
            p->strs[idx] = dst + w;
            w += n;
        }
        r += n;
    }
    return w;
}

/* Grows the string index to cover `index` (doubling from 256 entries). */
static tracerd_status_t grow_index(struct tracerd__fxt_tables *t, struct tracerd__fxt_provider *p,
                                   uint32_t index)
{
    size_t cap = p->strs_cap ? p->strs_cap : 256;
    while (cap <= index)
        cap *= 2;
    if (cap > TRACERD__FXT_MAX_STRINGS)
        cap = TRACERD__FXT_MAX_STRINGS;
    const uint8_t **n = tracerd__calloc(t->alloc, cap * sizeof *n);
    if (n == NULL)
        return TRACERD_E_NOMEM;
    if (p->strs != NULL)
        memcpy(n, p->strs, p->strs_cap * sizeof *n);
    n[0] = EMPTY_ENTRY;
    tracerd__free(t->alloc, p->strs, p->strs_cap * sizeof *p->strs);
    p->strs = n;
    p->strs_cap = (uint32_t)cap;
    return TRACERD_OK;
}

/* Makes room for `need` more arena bytes: compaction first, then a larger
 * arena within the budget. Compaction costs the whole arena, so it runs only
 * when it frees at least an eighth of it: each byte then moves at most eight
 * times per byte registered, however the strings churn (re-registering one
 * index over a full arena would otherwise copy the arena per record). A
 * larger arena gets an eighth of slack at least, for the same reason. */
static tracerd_status_t reserve(struct tracerd__fxt_tables *t, struct tracerd__fxt_provider *p,
                                size_t need)
{
    if (p->arena_cap - p->arena_used >= need)
        return TRACERD_OK;
    if (p->arena_dead != 0 && p->arena_dead >= p->arena_used / 8) {
        t->str_moved += p->arena_used;
        p->arena_used = compact_into(p, p->arena, p->arena, p->arena_used);
        p->arena_dead = 0;
        if (p->arena_cap - p->arena_used >= need)
            return TRACERD_OK;
    }
    /* cannot overflow: every term is bounded by the budget */
    size_t want = p->arena_used - p->arena_dead + need;
    size_t slack = want + want / 8;
    size_t cap = p->arena_cap ? p->arena_cap * 2 : 4096;
    if (cap < slack)
        cap = slack;
    /* Peak use counts the old arena while it is copied. */
    if (t->str_bytes + cap > t->max_str_bytes) {
        cap = slack;
        if (t->str_bytes + cap > t->max_str_bytes)
            return TRACERD_E_LIMIT;
    }
    uint8_t *n = tracerd__calloc(t->alloc, cap);
    if (n == NULL)
        return TRACERD_E_NOMEM;
    t->str_bytes += cap;
    if (p->arena != NULL) {
        t->str_moved += p->arena_used;
        p->arena_used = compact_into(p, n, p->arena, p->arena_used);
    }
    p->arena_dead = 0;
    tracerd__free(t->alloc, p->arena, p->arena_cap);
    t->str_bytes -= p->arena_cap;
    p->arena = n;
    p->arena_cap = cap;
    return TRACERD_OK;
}

tracerd_status_t tracerd__fxt_str_put(struct tracerd__fxt_tables *t,
                                      struct tracerd__fxt_provider *p, uint32_t index,
                                      const uint8_t *data, size_t len)
{
    tracerd_status_t st;
    if (index >= p->strs_cap && (st = grow_index(t, p, index)) != TRACERD_OK)
        return st;
    if (p->strs[index] != NULL) { /* the old copy becomes garbage */
        p->arena_dead += entry_bytes(tracerd__le16(p->strs[index] + 2));
        p->strs[index] = NULL;
    }
    size_t need = entry_bytes(len);
    if ((st = reserve(t, p, need)) != TRACERD_OK)
        return st;
    uint8_t *e = p->arena + p->arena_used;
    e[0] = (uint8_t)index;
    e[1] = (uint8_t)(index >> 8);
    e[2] = (uint8_t)len;
    e[3] = (uint8_t)(len >> 8);
    if (len != 0)
        memcpy(e + TRACERD__FXT_STR_HDR, data, len);
    p->strs[index] = e;
    if (index > p->strs_hi)
        p->strs_hi = index;
    p->arena_used += need;
    return TRACERD_OK;
}
