/* Byte-order loads: assembled from bytes, correct for any alignment and host
 * byte order. Never cast a buffer pointer to a wider integer pointer. */
#ifndef TRACERD_CORE_BYTES_H
#define TRACERD_CORE_BYTES_H

#include <stdbool.h>
#include <stdint.h>

static inline uint16_t tracerd__le16(const uint8_t *b)
{
    return (uint16_t)(b[0] | (uint16_t)(b[1] << 8));
}

static inline uint32_t tracerd__le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t tracerd__le64(const uint8_t *b)
{
    return (uint64_t)tracerd__le32(b) | (uint64_t)tracerd__le32(b + 4) << 32;
}

static inline uint16_t tracerd__be16(const uint8_t *b)
{
    return (uint16_t)((uint16_t)(b[0] << 8) | b[1]);
}

static inline uint32_t tracerd__be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | (uint32_t)b[3];
}

static inline uint64_t tracerd__be64(const uint8_t *b)
{
    return (uint64_t)tracerd__be32(b) << 32 | (uint64_t)tracerd__be32(b + 4);
}

/* Loads in the byte order selected by `big`. */
static inline uint16_t tracerd__ld16(bool big, const uint8_t *b)
{
    return big ? tracerd__be16(b) : tracerd__le16(b);
}

static inline uint32_t tracerd__ld32(bool big, const uint8_t *b)
{
    return big ? tracerd__be32(b) : tracerd__le32(b);
}

static inline uint64_t tracerd__ld64(bool big, const uint8_t *b)
{
    return big ? tracerd__be64(b) : tracerd__le64(b);
}

/* Stores, for writers in tests and tools that share this header. */
static inline void tracerd__st16(bool big, uint8_t *b, uint16_t v)
{
    if (big) {
        b[0] = (uint8_t)(v >> 8);
        b[1] = (uint8_t)v;
    } else {
        b[0] = (uint8_t)v;
        b[1] = (uint8_t)(v >> 8);
    }
}

static inline void tracerd__st32(bool big, uint8_t *b, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        b[big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static inline void tracerd__st64(bool big, uint8_t *b, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        b[big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

#endif
