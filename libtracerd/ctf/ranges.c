/* CTF range tables: integer ranges with a priority (first declared wins)
 * turned into disjoint sorted segments, so that an enumeration label or a
 * variant option is found by binary search, in O(log n) per value, however
 * many mappings the metadata declares and however they overlap. Built in
 * O(n log n) by a sweep over the range starts with a heap of the ranges
 * covering the current point. */
#include <stdlib.h>

#include "ctf_internal.h"

static int cmp_lo(const void *a, const void *b)
{
    const struct ctf_range *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Min-heap of ranges by index (priority). */
struct heap {
    const struct ctf_range **v;
    uint32_t n;
};

static void heap_push(struct heap *h, const struct ctf_range *r)
{
    uint32_t i = h->n++;
    h->v[i] = r;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (h->v[p]->index <= h->v[i]->index)
            break;
        const struct ctf_range *t = h->v[p];
        h->v[p] = h->v[i];
        h->v[i] = t;
        i = p;
    }
}

static void heap_pop(struct heap *h)
{
    h->v[0] = h->v[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && h->v[l]->index < h->v[m]->index)
            m = l;
        if (r < h->n && h->v[r]->index < h->v[m]->index)
            m = r;
        if (m == i)
            break;
        const struct ctf_range *t = h->v[m];
        h->v[m] = h->v[i];
        h->v[i] = t;
        i = m;
    }
}

tracerd_status_t tracerd__ctf_ranges_build(struct ctf_arena *ar, const tracerd_allocator_t *tmp,
                                           struct ctf_range *in, uint32_t n,
                                           const struct ctf_range **out, uint32_t *nout)
{
    *out = NULL;
    *nout = 0;
    uint32_t k = 0; /* drop empty (inverted) ranges */
    for (uint32_t i = 0; i < n; i++)
        if (in[i].lo <= in[i].hi)
            in[k++] = in[i];
    n = k;
    if (n == 0)
        return TRACERD_OK;
    qsort(in, n, sizeof *in, cmp_lo);
    /* at most 2n - 1 segments: each starts at a range start or right after
     * the end of the range that won before */
    struct ctf_range *seg = tracerd__ctf_arena_alloc(ar, sizeof *seg * (2 * (size_t)n));
    struct heap h = {tracerd__calloc(tmp, sizeof *h.v * n), 0};
    if (seg == NULL || h.v == NULL) {
        tracerd__free(tmp, h.v, sizeof *h.v * n);
        return TRACERD_E_NOMEM;
    }
    uint32_t next = 0, ns = 0;
    uint64_t cur = in[0].lo;
    for (;;) {
        while (next < n && in[next].lo == cur)
            heap_push(&h, &in[next++]);
        while (h.n > 0 && h.v[0]->hi < cur)
            heap_pop(&h);
        if (h.n == 0) {
            if (next == n)
                break;
            cur = in[next].lo;
            continue;
        }
        const struct ctf_range *top = h.v[0];
        uint64_t end = top->hi;
        if (next < n && in[next].lo - 1 < end)
            end = in[next].lo - 1; /* in[next].lo > cur: a later start may win */
        if (ns > 0 && seg[ns - 1].index == top->index && seg[ns - 1].hi + 1 == cur)
            seg[ns - 1].hi = end;
        else
            seg[ns++] = (struct ctf_range){cur, end, top->index};
        if (end == UINT64_MAX)
            break;
        cur = end + 1;
    }
    tracerd__free(tmp, h.v, sizeof *h.v * n);
    *out = seg;
    *nout = ns;
    return TRACERD_OK;
}

/* The first of the n segments whose lo is above key. */
static uint32_t first_above(const struct ctf_range *r, uint32_t n, uint64_t key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r[mid].lo <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t tracerd__ctf_range_find(const struct ctf_range *r, uint32_t n, uint64_t key)
{
    uint32_t lo = first_above(r, n, key);
    return lo > 0 && key <= r[lo - 1].hi ? r[lo - 1].index : UINT32_MAX;
}

bool tracerd__ctf_range_uniform(const struct ctf_range *r, uint32_t n, uint64_t k0, uint64_t k1)
{
    uint32_t i = first_above(r, n, k0);
    if (i > 0 && k0 <= r[i - 1].hi) /* k0 in segment i - 1 */
        return k1 <= r[i - 1].hi;
    return i == n || r[i].lo > k1; /* k0 in a gap: no segment starts up to k1 */
}

bool tracerd__ctf_rset_range(const struct ctf_rset *rs, uint32_t i, bool sgn, int64_t *lo,
                             int64_t *hi)
{
    bool lb = (rs->big[i] & 1) != 0, hb = (rs->big[i] & 2) != 0;
    int64_t l = rs->lo[i], h = rs->hi[i];
    if (sgn) {
        if (lb)
            return false;
        *lo = l;
        *hi = hb ? INT64_MAX : h;
    } else {
        if (!hb && h < 0)
            return false;
        *lo = !lb && l < 0 ? 0 : l;
        *hi = h;
    }
    return true;
}
