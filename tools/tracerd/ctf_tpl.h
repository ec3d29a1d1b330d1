/* A CTF dump's event text templates: the text of an event's fields (its
 * scopes' objects, keys, commas, brackets) depends on its records' kinds,
 * scopes, names, types, variant options and fragment flags, and on values
 * only where a value is written. A template keeps, for one such record
 * sequence (one call of on_fields: an event's header, contexts and payload),
 * the fixed text between the values and where each value goes; an event
 * whose records are the template's is written as the fixed pieces with its
 * values formatted between them.
 *
 * Whether they are is told by a few records, not all of them: the checks
 * of libtracerd/event/ctf_choices.h (shared with the event view's argument
 * plans).
 *
 * The sequence must start with a scope's root (its text does not depend on
 * what was written before) and leave every level it opens closed (its text
 * leaves nothing open after it). Built by fmt_ctf.c from the first event of
 * its records; kept per event class and record count, two templates per set
 * of the table (the older one is rebuilt on a miss). Included by fmt_ctf.c. */
#ifndef TRACERD_CLI_CTF_TPL_H
#define TRACERD_CLI_CTF_TPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "../../libtracerd/core/bytes.h"
#include "../../libtracerd/ctf/located.h"
#include "../../libtracerd/event/ctf_choices.h"

#define TPL_RECS 128u    /* records of a template, at most */
#define TPL_VALS 128u    /* values (and pieces of longer fixed text: TPL_NONE) */
#define TPL_CHECKS 32u   /* choice, string and BLOB records (checked) */
#define TPL_TEXT 2048u   /* fixed text */
#define TPL_SHORT 32u    /* the longest piece: each is one fixed-size copy */
#define TPL_SETS 64u     /* the table: TPL_SETS sets of two */
#define TPL_ENUMS 4u     /* enumerations whose text is kept per value */
#define TPL_ENUM_WAYS 16u /* values kept per enumeration (by the value's low bits) */
#define TPL_ENUM_TEXT 56u

#if defined(__GNUC__)
#define TPL_LIKELY(c) __builtin_expect(!!(c), 1)
#define TPL_INLINE __attribute__((always_inline)) inline
#define TPL_NOINLINE __attribute__((noinline))
#else
#define TPL_LIKELY(c) (c)
#define TPL_INLINE inline
#define TPL_NOINLINE
#endif

/* The room a value takes in the output, at most: an integer (20 digits and
 * a sign), a double ("%.17g", 24 bytes; wr_fmt_g17 uses 32, within the
 * TPL_SHORT slack after the last value); an enumeration's kept text, up to
 * TPL_ENUM_TEXT bytes (copied as TPL_ENUM_TEXT: its room and the slack),
 * takes TPL_ENUM_TEXT - TPL_VAL_ROOM more. */
#define TPL_VAL_ROOM 24u

/* How a value is written (TPL_ENUM: an enumeration's {"value":V,"label":L},
 * kept per value in the template's enum[aux]; TPL_F64: a double, or null
 * when it is not finite; TPL_STR: a whole string with a key; TPL_NONE:
 * nothing, its piece is a part of a fixed text longer than TPL_SHORT). */
enum { TPL_U64, TPL_I64, TPL_F64, TPL_ENUM, TPL_STR, TPL_VALUE, TPL_VALUE_KEYED, TPL_NONE };

/* A value: the fixed text before it, text[0, len) (a piece of the
 * template's text: a longer one is split into TPL_NONE values), then the
 * value of the record rec bytes from the first (a record's index times its
 * size: TPL_RECS records fit in 16 bits); room: the output's room from
 * this value on (tpl_room). */
struct tpl_val {
    char text[TPL_SHORT];
    uint16_t rec;
    uint8_t op;
    uint8_t len;
    uint16_t aux;
    uint16_t off; /* (the piece's offset in the template's text, while it is built) */
    uint16_t room;
    /* A located template's (tpl_locate): the value's part of the event
     * (TPL_HDR: the header record rec, or no value), its offset from the
     * part's start, how it is loaded (TPL_LD_*; a string: its segment, of
     * the lengths in the locations, or TPL_LD_TEXT) and 64 - its bits (a
     * text array: its bytes). */
    uint8_t part, ld, shift;
    uint16_t boff;
};

#define TPL_HDR 0xFFu       /* tpl_val.part: a header record's value */
#define TPL_LD_BYTES 3u     /* tpl_val.ld: log2 of the value's bytes (1, 2, 4, 8) */
#define TPL_LD_BE 4u        /* ... big-endian */
#define TPL_LD_SIGNED 8u    /* ... a signed integer */
#define TPL_LD_TEXT 0xFFu   /* ... a text array of its segment (of `shift` bytes) */
_Static_assert(TPL_RECS * sizeof(tracerd_ctf_field_t) <= UINT16_MAX + 1u,
               "a template's record offsets fit in 16 bits");
_Static_assert(TPL_TEXT + TPL_SHORT + TPL_VALS * TPL_VAL_ROOM +
                       TPL_ENUMS * (TPL_ENUM_TEXT - TPL_VAL_ROOM) <=
                   UINT16_MAX,
               "a template's room fits in 16 bits");

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
    uint32_t n;      /* records */
    uint32_t nvals, nchecks, nenums;
    uint16_t tail_len, tail_room; /* the text after the last value (tail), its room */
    bool first0;                 /* the writer's first[0] after the records */
    struct ctf_rec0 rec0;               /* the batch's first record */
    struct ctf_check check[TPL_CHECKS]; /* in record order */
    struct tpl_val val[TPL_VALS];
    char tail[TPL_SHORT];
    struct tpl_enum enums[TPL_ENUMS];
    /* Located (libtracerd/ctf/located.h; fmt_ctf.c, tpl_locate): the
     * template also writes an event from where its values lie. Its events:
     * header form `form`, nseg segments, sequences after the segments of
     * bits seqs, of lengths seqlen[] (in segment order); a keyed string's
     * name (its value's aux); the values of the enumerations not in the
     * header (nlenums of them). loc_tried: tpl_locate ran. */
    bool located, loc_tried;
    const void *form;
    uint32_t nseg, seqs, nlenums;
    uint64_t seqlen[TPL_CHECKS];
    const char *sname[TPL_CHECKS];
    uint16_t enum_val[TPL_ENUMS];
} tpl_t;

typedef struct tpl_table {
    tpl_t t[2 * TPL_SETS];
    uint8_t older[TPL_SETS]; /* the way rebuilt next in each set */
    /* located templates by class, header records and sequence lengths
     * (tpl_loc_key): two a set, each checked (a slot rebuilt since no
     * longer matches) */
    tpl_t *loc[2 * TPL_SETS];
    uint8_t loc_older[TPL_SETS];
} tpl_table_t;

static inline size_t tpl_set(const void *cls, size_t n)
{
    uint64_t h = (uint64_t)(uintptr_t)cls ^ (uint64_t)n << 3;
    h ^= h >> 29;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 58); /* TPL_SETS */
}

/* Are records f[0, n) of an event of class cls t's records (the top of the file)? */
static inline bool tpl_match(const tpl_t *t, const void *cls, const tracerd_ctf_field_t *f,
                             size_t n)
{
    return t->cls == cls && t->n == n && ctf_rec0_is(&t->rec0, &f[0]) &&
           ctf_checks_hold(t->check, t->nchecks, f);
}

/* The template of class cls that records f[0, n) match, or NULL. */
static inline tpl_t *tpl_find(tpl_table_t *tb, const void *cls, const tracerd_ctf_field_t *f,
                              size_t n)
{
    tpl_t *s = &tb->t[2 * tpl_set(cls, n)];
    if (tpl_match(&s[0], cls, f, n))
        return &s[0];
    if (tpl_match(&s[1], cls, f, n))
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

/* The located key of an event: its sequences' lengths (most have none). */
static inline uint64_t tpl_loc_key(const tracerd__ctf_located_t *L)
{
    uint64_t h = L->seqs;
    for (uint32_t m = L->seqs; m != 0; m &= m - 1)
        h = (h ^ L->len[__builtin_ctz(m)]) * UINT64_C(0x9E3779B97F4A7C15);
    return h;
}

/* Is an event of class cls and locations L located template t's? (Its
 * header's records are told by the header form, the body's by the class
 * and its sequences' lengths: the class has fixed segments.) */
static inline bool tpl_loc_match(const tpl_t *t, const void *cls, const tracerd__ctf_located_t *L)
{
    if (!t->located || t->cls != cls || t->form != L->form || t->nseg != L->nseg ||
        t->seqs != L->seqs)
        return false;
    uint32_t i = 0;
    for (uint32_t m = L->seqs; m != 0; m &= m - 1)
        if (L->len[__builtin_ctz(m)] != t->seqlen[i++])
            return false;
    return true;
}

/* The located template of such an event, or NULL. */
static inline tpl_t *tpl_loc_find(tpl_table_t *tb, const void *cls,
                                  const tracerd__ctf_located_t *L)
{
    tpl_t **s = &tb->loc[2 * tpl_set(cls, (uintptr_t)L->form ^ tpl_loc_key(L))];
    if (s[0] != NULL && tpl_loc_match(s[0], cls, L))
        return s[0];
    if (s[1] != NULL && tpl_loc_match(s[1], cls, L))
        return s[1];
    return NULL;
}

/* Template t (located for events like L's) into the located table, over
 * the older of its set. */
static inline void tpl_loc_add(tpl_table_t *tb, tpl_t *t, const tracerd__ctf_located_t *L)
{
    size_t h = tpl_set(t->cls, (uintptr_t)t->form ^ tpl_loc_key(L));
    unsigned way = tb->loc_older[h];
    tb->loc_older[h] = (uint8_t)(way ^ 1u);
    tb->loc[2 * h + way] = t;
}

#endif
