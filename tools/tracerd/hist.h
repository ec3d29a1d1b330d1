/* A log-bucketed histogram of durations in bounded memory, for stats'
 * percentiles. Values below 32 are counted exactly; a value v >= 32 with
 * highest bit e falls in one of 32 equal buckets of [2^e, 2^(e+1)), so a
 * reported percentile (the bucket's midpoint, clamped to the exact max) is
 * within 1/64 (1.6 %) of a value of that rank. The 32 counters of one power
 * of two are allocated when a value first lands there: at most
 * HIST_EXPS * 32 counters (7.5 KiB) per histogram, whatever the number of
 * values. */
#ifndef TRACERD_HIST_H
#define TRACERD_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 5u
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_EXPS (64u - HIST_SUB_BITS + 1u) /* slot 0: exact 0..31; slot k: e = k + 4 */

/* (The values' least and greatest are the caller's: stats keeps them for
 * its own columns, and a span's duration is compared with them once.) */
struct hist {
    uint32_t *slot[HIST_EXPS];
    uint64_t count;
};

static inline unsigned hist_slot_of(uint64_t v, unsigned *sub)
{
    if (v < HIST_SUB) {
        *sub = (unsigned)v;
        return 0;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* e >= HIST_SUB_BITS */
    *sub = (unsigned)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1);
    return e - HIST_SUB_BITS + 1;
}

/* (hist_add when v's power of two has no counters yet) */
bool hist_add_new_slot(struct hist *h, uint64_t v);

/* Adds one value; false on no memory (the value is then not counted). */
static inline bool hist_add(struct hist *h, uint64_t v)
{
    unsigned sub, k = hist_slot_of(v, &sub);
    if (h->slot[k] == NULL)
        return hist_add_new_slot(h, v);
    if (h->slot[k][sub] != UINT32_MAX)
        h->slot[k][sub]++;
    h->count++;
    return true;
}
/* The value at quantile q (0 <= q < 1): the midpoint of the bucket holding
 * the (floor(q * count) + 1)-th smallest value (the rank llvm-xray account
 * uses), clamped to [min, max], the least and greatest value added; 0 when
 * empty. */
uint64_t hist_quantile(const struct hist *h, double q, uint64_t min, uint64_t max);
void hist_free(struct hist *h);

#endif
