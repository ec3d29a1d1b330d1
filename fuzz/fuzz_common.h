/* Data-driven chunking for fuzz targets (zstd's data producer idea): the last
 * byte of the input seeds a PRNG that picks chunk sizes; the first bytes may
 * select options. Header-only so each target stays one file. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_chunker {
    uint32_t state;
    size_t max_chunk;
} fuzz_chunker_t;

static inline void fuzz_chunker_init(fuzz_chunker_t *c, uint8_t seed)
{
    c->state = 0x9e3779b9u ^ ((uint32_t)seed * 0x01000193u);
    if (c->state == 0)
        c->state = 1;
    /* Seeds 0..31 feed big chunks (the fast path), others small ones. */
    c->max_chunk = seed < 32 ? 65536 : (size_t)(seed % 61) + 1;
}

static inline size_t fuzz_chunker_next(fuzz_chunker_t *c, size_t remaining)
{
    uint32_t x = c->state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c->state = x;
    size_t n = (size_t)(x % c->max_chunk) + 1;
    return n < remaining ? n : remaining;
}

#endif
