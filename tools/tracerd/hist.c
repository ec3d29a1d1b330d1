/* Log-bucketed histogram (see hist.h). */
#include "hist.h"

#include <math.h>
#include <stdlib.h>

bool hist_add_new_slot(struct hist *h, uint64_t v)
{
    unsigned sub, k = hist_slot_of(v, &sub);
    h->slot[k] = calloc(HIST_SUB, sizeof *h->slot[k]);
    return h->slot[k] != NULL && hist_add(h, v);
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
            return mid > max ? max : mid < min ? min : mid;
        }
    }
    return max;
}

void hist_free(struct hist *h)
{
    for (unsigned k = 0; k < HIST_EXPS; k++)
        free(h->slot[k]);
}
