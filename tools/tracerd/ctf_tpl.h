/* A CTF dump's event text templates: the text of an event's fields (its
 * scopes' objects, keys, commas, brackets) depends on its records' kinds,
 * scopes, names, types, variant options and fragment flags, and on values
 * only where a value is written. A template keeps, for one such record
 * sequence (one call of on_fields: an event's header, contexts and payload),
 * the fixed text between the values and where each value goes; an event
 * whose records match it (checked record by record: kind, scope, fragment
 * flags, name and type addresses, each variant's option address) is
 * written as the fixed pieces with its values formatted between them.
 * When the reader numbers the event's record shape (tracerd_ctf_event_t.shape,
 * doc/api.md: every event of a shape delivers the same records), a template
 * made from an event of that shape is the text of every batch of that
 * shape, class and record count that starts with the same record: the
 * records in between are not compared (a scope's root starts a batch only
 * once in an event, so the first record and the count tell which records
 * of the shape it holds; a fragmented value is seen at the template's
 * first string or BLOB position it shifts).
 *
 * The sequence must start with a scope's root (its text does not depend on
 * what was written before) and leave every level it opens closed (its text
 * leaves nothing open after it). Built by fmt_ctf.c from the first event of
 * a shape; kept per event class and record count, two templates per set of
 * the table (the older one is rebuilt on a miss). Included by fmt_ctf.c. */
#ifndef TRACERD_CLI_CTF_TPL_H
#define TRACERD_CLI_CTF_TPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracerd/ctf.h>

#define TPL_RECS 128u    /* records of a template, at most */
#define TPL_VALS 96u     /* values */
#define TPL_VARIANTS 8u  /* variants (their options checked) */
#define TPL_FRAGS 16u    /* strings and BLOBs (whole values checked) */
#define TPL_TEXT 2048u   /* fixed text */
#define TPL_SHORT 32u    /* a piece of at most this many bytes is one fixed-size copy */
#define TPL_SETS 64u     /* the table: TPL_SETS sets of two */
#define TPL_ENUMS 4u     /* enumerations whose text is kept per value */
#define TPL_ENUM_WAYS 8u /* values kept per enumeration (by the value's low bits) */
#define TPL_ENUM_TEXT 56u

/* How a value is written (TPL_ENUM: an enumeration's {"value":V,"label":L},
 * kept per value in the template's enum[aux]). */
enum { TPL_U64, TPL_I64, TPL_VALUE, TPL_VALUE_KEYED, TPL_ENUM };

/* What a record must be for the template's text to be its text. */
struct tpl_rec {
    const void *type;
    const char *name;
    uint64_t ks; /* tpl_ks: scope and kind */
};

/* A value: the fixed text before it, text[off, off + len), then record rec's value. */
struct tpl_val {
    uint16_t rec;
    uint16_t op;
    uint16_t off, len;
    uint16_t aux;
};

/* The text of an enumeration's values (its type's labels for them do not
 * change): a value's text in way value % TPL_ENUM_WAYS (len 0: none). */
struct tpl_enum {
    struct {
        uint64_t value;
        uint8_t len;
        char text[TPL_ENUM_TEXT + 8];
    } way[TPL_ENUM_WAYS];
};

typedef struct tpl {
    const void *cls; /* NULL: empty */
    uint32_t shape;  /* the record shape of the event it was made from (0: none) */
    uint32_t n;      /* records */
    uint32_t nvals, nvariants, nfrags, nenums;
    uint16_t tail_off, tail_len; /* the text after the last value */
    bool first0;                 /* the writer's first[0] after the records */
    uint16_t variant_rec[TPL_VARIANTS];
    const char *variant_opt[TPL_VARIANTS];
    uint16_t frag_rec[TPL_FRAGS];
    struct tpl_rec rec[TPL_RECS];
    struct tpl_val val[TPL_VALS];
    char text[TPL_TEXT + TPL_SHORT];
    struct tpl_enum enums[TPL_ENUMS];
} tpl_t;

typedef struct tpl_table {
    tpl_t t[2 * TPL_SETS];
    uint8_t older[TPL_SETS]; /* the way rebuilt next in each set */
} tpl_table_t;

/* A record's scope and kind in one word (the two members lie side by side). */
static inline uint64_t tpl_ks(const tracerd_ctf_field_t *f)
{
    _Static_assert(offsetof(tracerd_ctf_field_t, kind) ==
                           offsetof(tracerd_ctf_field_t, scope) + sizeof f->scope &&
                       sizeof f->scope + sizeof f->kind == 8,
                   "scope and kind side by side");
    uint64_t w;
    memcpy(&w, &f->scope, 8);
    return w;
}

static inline size_t tpl_set(const void *cls, size_t n)
{
    uint64_t h = (uint64_t)(uintptr_t)cls ^ (uint64_t)n << 3;
    h ^= h >> 29;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 58); /* TPL_SETS */
}

/* Do records f[0, n) of an event of class cls and record shape `shape` match t? */
static inline bool tpl_match(const tpl_t *t, const void *cls, uint32_t shape,
                             const tracerd_ctf_field_t *f, size_t n)
{
    if (t->cls != cls || t->n != n)
        return false;
    const struct tpl_rec *r = t->rec;
    size_t upto = shape != 0 && t->shape == shape ? 1 : n; /* a shape's: the first record */
    for (size_t i = 0; i < upto; i++) {
        uint64_t d = ((uint64_t)(uintptr_t)f[i].type ^ (uint64_t)(uintptr_t)r[i].type) |
                     ((uint64_t)(uintptr_t)f[i].name ^ (uint64_t)(uintptr_t)r[i].name) |
                     (tpl_ks(&f[i]) ^ r[i].ks);
        if (d != 0)
            return false;
    }
    for (uint32_t i = 0; i < t->nvariants; i++)
        if (f[t->variant_rec[i]].option != t->variant_opt[i])
            return false;
    for (uint32_t i = 0; i < t->nfrags; i++)
        if (f[t->frag_rec[i]].frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST))
            return false;
    return true;
}

/* The template of class cls that records f[0, n) match, or NULL. */
static inline tpl_t *tpl_find(tpl_table_t *tb, const void *cls, uint32_t shape,
                              const tracerd_ctf_field_t *f, size_t n)
{
    tpl_t *s = &tb->t[2 * tpl_set(cls, n)];
    if (tpl_match(&s[0], cls, shape, f, n))
        return &s[0];
    if (tpl_match(&s[1], cls, shape, f, n))
        return &s[1];
    return NULL;
}

/* The slot to build a template of (cls, n) in: the older of its set. */
static inline tpl_t *tpl_slot(tpl_table_t *tb, const void *cls, size_t n)
{
    size_t h = tpl_set(cls, n);
    unsigned way = tb->older[h];
    tb->older[h] = (uint8_t)(way ^ 1u);
    tpl_t *t = &tb->t[2 * h + way];
    t->cls = NULL;
    return t;
}

#endif
