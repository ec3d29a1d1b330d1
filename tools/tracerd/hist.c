/* Log-bucketed histogram (see hist.h). */
#include "hist.h"

#include <math.h>
#include <stdlib.h>

static unsigned slot_of(uint64_t v, unsigned *sub)
{
    if (v < HIST_SUB) {
        *sub = (unsigned)v;
        return 0;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* e >= HIST_SUB_BITS */
    *sub = (unsigned)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1);
    return e - HIST_SUB_BITS + 1;
}

bool hist_add(struct hist *h, uint64_t v)
{
    unsigned sub, k = slot_of(v, &sub);
    if (h->slot[k] == NULL) {
        h->slot[k] = calloc(HIST_SUB, sizeof *h->slot[k]);
        if (h->slot[k] == NULL)
            return false;
    }
    if (h->slot[k][sub] != UINT32_MAX)
        h->slot[k][sub]++;
    if (h->count == 0 || v < h->min)
        h->min = v;
    h->count++;
    if (v > h->max)
        h->max = v;
    return true;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
    if (h->count == 0)
        return 0;
    uint64_t rank = (uint64_t)floor(q * (double)h->count) + 1;
    if (rank > h->count)
        rank = h->count;
    uint64_t seen = 0;
    for (unsigned k = 0; k < HIST_EXPS; k++) {
        if (h->slot[k] == NULL)
            continue;
        for (unsigned s = 0; s < HIST_SUB; s++) {
            seen += h->slot[k][s];
            if (seen < rank)
                continue;
            if (k == 0)
                return s; /* exact */
            unsigned e = k + HIST_SUB_BITS - 1;
            uint64_t width = (uint64_t)1 << (e - HIST_SUB_BITS);
            uint64_t lo = ((uint64_t)1 << e) + (uint64_t)s * width;
            uint64_t mid = lo + width / 2;
            return mid > h->max ? h->max : mid < h->min ? h->min : mid;
        }
    }
    return h->max;
}

void hist_free(struct hist *h)
{
    for (unsigned k = 0; k < HIST_EXPS; k++)
        free(h->slot[k]);
}
