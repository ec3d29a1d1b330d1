/* Hash tables on xxHash (XXH3, used header-only: no run-time dependency). */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "internal.h"

uint64_t tracerd__hash_bytes(const void *data, size_t len)
{
    return XXH3_64bits(data, len);
}

uint64_t tracerd__hash_u64(uint64_t key)
{
    uint8_t b[8];
    tracerd__st64(false, b, key);
    return XXH3_64bits(b, sizeof b);
}

void tracerd__hmap_init(struct tracerd__hmap *m)
{
    memset(m, 0, sizeof *m);
}

static size_t slot_of(const struct tracerd__hmap *m, uint64_t key)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)tracerd__hash_u64(key) & mask;
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static tracerd_status_t grow(struct tracerd__hmap *m, const tracerd_allocator_t *a)
{
    size_t ncap = m->cap ? m->cap * 2 : 16, bytes;
    struct tracerd__hmap n = {0};
    if (tracerd__mul_overflows(ncap, sizeof(uint64_t), &bytes))
        return TRACERD_E_NOMEM;
    n.cap = ncap;
    n.keys = tracerd__calloc(a, bytes);
    n.vals = tracerd__calloc(a, bytes);
    n.used = tracerd__calloc(a, ncap);
    if (n.keys == NULL || n.vals == NULL || n.used == NULL) {
        tracerd__hmap_free(&n, a);
        return TRACERD_E_NOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->used[i]) {
            size_t j = slot_of(&n, m->keys[i]);
            n.used[j] = 1;
            n.keys[j] = m->keys[i];
            n.vals[j] = m->vals[i];
            n.count++;
        }
    }
    tracerd__hmap_free(m, a);
    *m = n;
    return TRACERD_OK;
}

tracerd_status_t tracerd__hmap_put(struct tracerd__hmap *m, const tracerd_allocator_t *a,
                                   uint64_t key, uint64_t val)
{
    if ((m->count + 1) * 2 > m->cap) {
        tracerd_status_t st = grow(m, a);
        if (st != TRACERD_OK)
            return st;
    }
    size_t i = slot_of(m, key);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->count++;
    }
    m->vals[i] = val;
    return TRACERD_OK;
}

bool tracerd__hmap_get(const struct tracerd__hmap *m, uint64_t key, uint64_t *val)
{
    if (m->cap == 0)
        return false;
    size_t i = slot_of(m, key);
    if (!m->used[i])
        return false;
    *val = m->vals[i];
    return true;
}

void tracerd__hmap_clear(struct tracerd__hmap *m)
{
    if (m->cap)
        memset(m->used, 0, m->cap);
    m->count = 0;
}

void tracerd__hmap_free(struct tracerd__hmap *m, const tracerd_allocator_t *a)
{
    if (m->cap) {
        tracerd__free(a, m->keys, m->cap * sizeof(uint64_t));
        tracerd__free(a, m->vals, m->cap * sizeof(uint64_t));
        tracerd__free(a, m->used, m->cap);
    }
    memset(m, 0, sizeof *m);
}
