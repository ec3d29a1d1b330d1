/* FXT reader internals: per-provider string and thread tables. */
#ifndef TRACERD_FXT_INTERNAL_H
#define TRACERD_FXT_INTERNAL_H

#include <tracerd/fxt.h>

#include "../core/internal.h"

#define TRACERD__FXT_MAX_STRINGS 32768u /* indices 1..0x7fff */
#define TRACERD__FXT_MAX_THREADS 256u   /* indices 1..0xff */
#define TRACERD__FXT_STR_HDR 4u         /* arena entry: u16 index, u16 length, bytes */

struct tracerd__fxt_thr {
    uint64_t pid;
    uint64_t tid;
    bool set;
};

struct tracerd__fxt_provider {
    uint32_t id;
    bool has_init;
    uint64_t ticks_per_second;
    /* index -> its arena entry, NULL when not set; index 0 (the empty
     * string reference) -> an empty entry. strs_cap entries (0 until the
     * first string), grown to cover the largest index. */
    const uint8_t **strs;
    uint32_t strs_cap;
    uint32_t strs_hi; /* highest index set since the last reset */
    uint8_t *arena;   /* string copies (owned): [u16 index][u16 len][bytes]... */
    size_t arena_cap;
    size_t arena_used;
    size_t arena_dead; /* bytes of replaced entries, reclaimed by compaction */
    struct tracerd__fxt_thr threads[TRACERD__FXT_MAX_THREADS];
};

/* All providers of a reader, with the memory budget for string copies. */
struct tracerd__fxt_tables {
    const tracerd_allocator_t *alloc;
    struct tracerd__fxt_provider **list;
    uint32_t count;
    uint32_t max;
    size_t str_bytes; /* arena bytes allocated now, all providers */
    size_t max_str_bytes;
    /* arena bytes compaction and growth went through (work, for the
     * hostile suite's bound: at most 8 per byte registered, plus growth) */
    uint64_t str_moved;
};

tracerd_status_t tracerd__fxt_tables_init(struct tracerd__fxt_tables *t,
                                          const tracerd_allocator_t *alloc, uint32_t max_providers,
                                          size_t max_str_bytes);
/* Frees every provider; the directory is kept. */
void tracerd__fxt_tables_clear(struct tracerd__fxt_tables *t);
void tracerd__fxt_tables_free(struct tracerd__fxt_tables *t);
struct tracerd__fxt_provider *tracerd__fxt_find(const struct tracerd__fxt_tables *t, uint32_t id);
/* Adds a provider: E_LIMIT when max providers exist, E_NOMEM. */
tracerd_status_t tracerd__fxt_add(struct tracerd__fxt_tables *t, uint32_t id,
                                  struct tracerd__fxt_provider **out);
/* Forgets every registration of a provider (a fresh provider info). */
void tracerd__fxt_provider_reset(struct tracerd__fxt_provider *p);
/* Registers (or replaces) string `index` (1..0x7fff) with a copy of the
 * bytes: E_LIMIT when the string budget is exhausted, E_NOMEM. */
tracerd_status_t tracerd__fxt_str_put(struct tracerd__fxt_tables *t,
                                      struct tracerd__fxt_provider *p, uint32_t index,
                                      const uint8_t *data, size_t len);
/* Bytes one provider costs besides its string copies, at most. */
size_t tracerd__fxt_provider_bytes(void);

static inline bool tracerd__fxt_str_get(const struct tracerd__fxt_provider *p, uint32_t index,
                                        tracerd_str_t *out)
{
    /* Index 0 gives the empty string; inline references (bit 15) are out of range. */
    if (index >= p->strs_cap || p->strs[index] == NULL)
        return false;
    out->data = (const char *)p->strs[index] + TRACERD__FXT_STR_HDR;
    out->len = tracerd__le16(p->strs[index] + 2);
    return true;
}

#endif
