/* Data-driven chunking for fuzz targets (zstd's data producer idea): the last
 * byte of the input seeds a PRNG that picks chunk sizes; the first bytes may
 * select options. Header-only so each target stays one file. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <tracerd/core.h>

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

/* Feeds data to a reader through its public ops table (core.h) in chunks
 * picked by ch (NULL: one feed), resumes after every
 * pause, then finishes (resuming pauses there too). Traps if a reader claims
 * to have used more than it was given, or returns OK without taking the whole
 * chunk. Returns the final status. */
static inline tracerd_status_t fuzz_pump(const tracerd_reader_ops_t *ops, void *reader,
                                         const uint8_t *data, size_t size, fuzz_chunker_t *ch)
{
    tracerd_status_t st = TRACERD_OK;
    size_t pos = 0;
    while (pos < size && st == TRACERD_OK) {
        size_t n = ch != NULL ? fuzz_chunker_next(ch, size - pos) : size - pos;
        size_t off = 0;
        while (off < n) {
            size_t used = 0;
            st = ops->feed(reader, data + pos + off, n - off, &used);
            if (used > n - off)
                __builtin_trap();
            off += used;
            if (st == TRACERD_PAUSED) {
                st = ops->resume(reader);
                continue;
            }
            if (st != TRACERD_OK)
                break;
            if (off != n) /* OK means the whole chunk was taken */
                __builtin_trap();
        }
        pos += n;
    }
    while (st == TRACERD_OK) {
        st = ops->finish(reader);
        if (st != TRACERD_PAUSED)
            break;
        st = ops->resume(reader);
    }
    return st;
}

#endif
