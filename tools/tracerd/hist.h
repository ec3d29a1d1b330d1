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
 * its own columns, and a span's duration is compared with them once.)
 * A power of two without counters yet has its slot pointing to none, whose
 * counters read UINT32_MAX as a full counter does: adding a value tests one
 * counter, and only at UINT32_MAX takes the slow way (hist_add_slow). A
 * struct hist is not moved once hist_init has made it. */
struct hist {
    uint32_t *slot[HIST_EXPS]; /* the counters of each power of two, or none */
    uint64_t count;
    uint32_t none[HIST_SUB]; /* all UINT32_MAX */
};

/* Makes h empty. */
void hist_init(struct hist *h);

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

/* Adds one value when its counter exists and is not full: true; else false,
 * nothing done (then hist_add_slow). */
static inline bool hist_add_fast(struct hist *h, uint64_t v)
{
    unsigned sub, k = hist_slot_of(v, &sub);
    uint32_t *c = &h->slot[k][sub];
    if (__builtin_expect(*c == UINT32_MAX, 0))
        return false;
    ++*c;
    h->count++;
    return true;
}

/* Adds one value past hist_add_fast (its power of two gets its counters; a
 * full counter stays full, the value counted in count only); false on no
 * memory (the value is then not counted). */
bool hist_add_slow(struct hist *h, uint64_t v);

/* The value at quantile q (0 <= q < 1): the midpoint of the bucket holding
 * the (floor(q * count) + 1)-th smallest value (the rank llvm-xray account
 * uses), clamped to [min, max], the least and greatest value added; 0 when
 * empty. */
uint64_t hist_quantile(const struct hist *h, double q, uint64_t min, uint64_t max);
void hist_free(struct hist *h);

#endif
