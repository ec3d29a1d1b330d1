/* Text of numbers that step up by a little from one line to the next
 * (offsets, counts, timestamps), kept between lines: a step that changes
 * only the last one or three digits rewrites only those (dump lines carry
 * two or three such numbers; formatting them whole was a third of
 * xtrace's dump). Shared by the dumps of xtrace and FXT. */
#ifndef TRACERD_CLI_TEXTRUN_H
#define TRACERD_CLI_TEXTRUN_H

#include <stdint.h>
#include <string.h>

#include "writer.h"

typedef struct dec_run {
    uint64_t v;
    uint32_t low; /* v % 1000 */
    uint32_t len; /* digits in txt (0: none yet) */
    char txt[24];
} dec_run_t;

/* Writes v's digits at p (at least 24 bytes of room); returns the end. */
static inline char *dec_put(dec_run_t *d, char *p, uint64_t v)
{
    uint64_t step = v - d->v;
    if (d->len >= 3 && step < (uint64_t)('9' + 1 - d->txt[d->len - 1])) {
        d->txt[d->len - 1] = (char)(d->txt[d->len - 1] + (char)step); /* the last digit only */
        d->low += (uint32_t)step;
    } else if (d->len >= 3 && step < 1000u - d->low) {
        uint32_t low = d->low + (uint32_t)step;
        uint32_t h = (low * 41u) >> 12; /* low / 100 for low < 1000 */
        uint32_t r = low - h * 100u;
        uint32_t t = (r * 103u) >> 10; /* r / 10 for r < 100 */
        char *q = d->txt + d->len - 3;
        q[0] = (char)('0' + h);
        q[1] = (char)('0' + t);
        q[2] = (char)('0' + (r - t * 10u));
        d->low = low;
    } else {
        d->len = (uint32_t)wr_fmt_u64(d->txt, v);
        d->low = (uint32_t)(v % 1000u);
    }
    d->v = v;
    memcpy(p, d->txt, sizeof d->txt);
    return p + d->len;
}

/* A string literal at p; p moves past it. */
#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) += sizeof(lit) - 1)

#endif
