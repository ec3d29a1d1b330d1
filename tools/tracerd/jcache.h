/* Text formatted once and copied many times, keyed by an address: the JSON
 * form of strings a trace model owns (field names, enum labels, variant
 * options, an event class's members). The model keeps them unchanged for
 * the whole run, so an address stands for its text. Open addressing with
 * a short probe and no eviction: an entry, once kept, stays (a pointer to it
 * stays valid); a key that finds no free slot within JC_PROBE of its own,
 * and text longer than JC_TEXT, are not kept (the caller formats them each
 * time). (Direct-mapped slots made two keys that met in one slot evict each
 * other at every event: 420 instructions per event of the LTTng bench.) */
#ifndef TRACERD_CLI_JCACHE_H
#define TRACERD_CLI_JCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "writer.h"

#define JC_SLOTS 512u
#define JC_TEXT 116u
#define JC_PROBE 8u

typedef struct jc_entry {
    const void *key;
    uint32_t len;
    char text[JC_TEXT];
} jc_entry_t;

typedef struct jcache {
    jc_entry_t e[JC_SLOTS];
} jcache_t;

/* The top `bits` bits of an address, mixed: the model's strings lie at
 * regular distances, which a bare multiplication maps to few slots. */
static inline size_t jc_hash(const void *key, unsigned bits)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 29;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> (64u - bits));
}

/* The entry holding key's text, or NULL. */
static inline const jc_entry_t *jc_find(jcache_t *c, const void *key)
{
    size_t h = jc_hash(key, 9); /* JC_SLOTS entries */
    for (unsigned i = 0; i < JC_PROBE; i++, h = (h + 1) & (JC_SLOTS - 1)) {
        const jc_entry_t *e = &c->e[h];
        if (e->key == key)
            return e;
        if (e->key == NULL)
            return NULL;
    }
    return NULL;
}

/* The first n bytes of an entry's text (a fixed-size copy: of its first
 * JC_SHORT bytes when they hold the n, as most keys do, else of all). */
#define JC_SHORT 32u
static inline void jc_put(wr_t *w, const jc_entry_t *e, size_t n)
{
    char *p = wr_room(w, JC_TEXT);
    if (n <= JC_SHORT)
        memcpy(p, e->text, JC_SHORT);
    else
        memcpy(p, e->text, JC_TEXT);
    w->len += n;
}

/* Keeps text[0, len) as key's entry when it fits and a slot is free. */
static inline void jc_keep(jcache_t *c, const void *key, const char *text, size_t len)
{
    if (len > JC_TEXT)
        return;
    size_t h = jc_hash(key, 9);
    for (unsigned i = 0; i < JC_PROBE; i++, h = (h + 1) & (JC_SLOTS - 1)) {
        jc_entry_t *e = &c->e[h];
        if (e->key == NULL || e->key == key) {
            e->key = key;
            e->len = (uint32_t)len;
            memcpy(e->text, text, len);
            return;
        }
    }
}

#endif
