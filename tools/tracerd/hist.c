/* Log-bucketed histogram (see hist.h). */
#include "hist.h"

#include <math.h>
#include <stdlib.h>

void hist_init(struct hist *h)
{
    for (unsigned k = 0; k < HIST_EXPS; k++)
        h->slot[k] = h->none;
    h->count = 0;
    for (unsigned s = 0; s < HIST_SUB; s++)
        h->none[s] = UINT32_MAX;
}

bool hist_add_slow(struct hist *h, uint64_t v)
{
    if (hist_add_fast(h, v))
        return true;
    unsigned sub, k = hist_slot_of(v, &sub);
    if (h->slot[k] == h->none) {
        uint32_t *c = calloc(HIST_SUB, sizeof *c);
        if (c == NULL)
            return false;
        h->slot[k] = c;
        c[sub] = 1;
    }
    h->count++;
    return true;
}

uint64_t hist_quantile(const struct hist *h, double q, uint64_t min, uint64_t max)
{
    if (h->count == 0)
        return 0;
    uint64_t rank = (uint64_t)floor(q * (double)h->count) + 1;
    if (rank > h->count)
        rank = h->count;
    uint64_t seen = 0;
    for (unsigned k = 0; k < HIST_EXPS; k++) {
        if (h->slot[k] == h->none)
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
            return mid > max ? max : mid < min ? min : mid;
        }
    }
    return max;
}

void hist_free(struct hist *h)
{
    for (unsigned k = 0; k < HIST_EXPS; k++)
        if (h->slot[k] != h->none)
            free(h->slot[k]);
}
