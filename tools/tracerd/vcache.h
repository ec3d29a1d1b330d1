/* Short strings' JSON text, found again by where they are and checked by
 * their bytes: an argument's name or string value of 1 to 16 bytes that a
 * reader gives at the same place again and again (a model's field name, a
 * per-event buffer that holds the same name each time) is escaped once and
 * then copied. A slot is picked by the string's address; it holds the
 * string's length and the words that cover its bytes (vc_words), so a hit
 * is the same text whatever the address (a buffer whose contents changed
 * misses). Two slots per address (vc_slot). Only strings that wr_str
 * writes unchanged between its quotes are kept. */
#ifndef TRACERD_CLI_VCACHE_H
#define TRACERD_CLI_VCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "writer.h"

#define VCACHE 512u

typedef struct vc_entry {
    uint64_t a, b;
    uint32_t len; /* 0: empty slot */
    char txt[24]; /* the quoted text: "bytes" */
} vc_entry_t;

/* The words that cover a string of 1 to 16 bytes (with its length, they
 * tell two strings apart); false for other lengths. */
static inline bool vc_words(const char *p, size_t n, uint64_t *a, uint64_t *b)
{
    if (n >= 8 && n <= 16) {
        memcpy(a, p, 8);
        memcpy(b, p + n - 8, 8);
        return true;
    }
    if (n >= 4 && n < 8) {
        uint32_t x, y;
        memcpy(&x, p, 4);
        memcpy(&y, p + n - 4, 4);
        *a = x;
        *b = y;
        return true;
    }
    if (n >= 1 && n < 4) {
        const unsigned char *u = (const unsigned char *)p;
        *a = (uint64_t)u[0] | (uint64_t)u[n >> 1] << 8 | (uint64_t)u[n - 1] << 16;
        *b = 0;
        return true;
    }
    return false;
}

/* The first of the two slots of address p (the other is slot ^ VCACHE/2):
 * strings at regular distances of 4 bytes or more (a string table, a
 * model's names, names packed in a per-event buffer) fall in distinct
 * slots, and two that meet in one slot can both stay. */
static inline size_t vc_slot(const char *p)
{
    return ((uintptr_t)p >> 2) % VCACHE;
}

/* The entry of table t[VCACHE] holding the text of p[0, n), or NULL. */
static inline const vc_entry_t *vc_find(const vc_entry_t *t, const char *p, size_t n)
{
    uint64_t a, b;
    if (!vc_words(p, n, &a, &b))
        return NULL;
    const vc_entry_t *e = &t[vc_slot(p)];
    if (e->len == n && e->a == a && e->b == b)
        return e;
    e = &t[vc_slot(p) ^ (VCACHE / 2u)];
    return e->len == n && e->a == a && e->b == b ? e : NULL;
}

/* wr_str(w, p, n) through table t: the cached text when there is one, else
 * wr_str's (kept when it is the bytes unchanged). Returns what wr_str
 * returns. */
static inline bool vc_str(vc_entry_t *t, wr_t *w, const char *p, size_t n)
{
    const vc_entry_t *hit = vc_find(t, p, n);
    if (hit != NULL) {
        WR_PUT_FIXED(w, hit->txt, n + 2);
        return true;
    }
    uint64_t a, b;
    if (!vc_words(p, n, &a, &b))
        return wr_str(w, p, n);
    size_t at = w->len;
    if (!wr_str(w, p, n))
        return false;
    /* plain: wr_str wrote the quoted bytes unchanged in one piece (an escaped
     * string is longer, and one that filled the buffer spilled it: then the
     * text is not all in it, and w->len may be below at) */
    if (w->len < at || w->len - at != n + 2)
        return true;
    const char *q = w->buf + at;
    if (q[0] == '"' && q[n + 1] == '"' && memcmp(q + 1, p, n) == 0) {
        vc_entry_t *e = &t[vc_slot(p)];
        if (e->len != 0 && t[vc_slot(p) ^ (VCACHE / 2u)].len == 0)
            e = &t[vc_slot(p) ^ (VCACHE / 2u)];
        memcpy(e->txt, q, n + 2);
        e->a = a;
        e->b = b;
        e->len = (uint32_t)n;
    }
    return true;
}

#endif
