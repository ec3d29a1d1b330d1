/* A CTF dump's event text templates: the text of an event's fields (its
 * scopes' objects, keys, commas, brackets) depends on its records' kinds,
 * scopes, names, types, variant options and fragment flags, and on values
 * only where a value is written. A template keeps, for one such record
 * sequence (one call of on_fields: an event's header, contexts and payload),
 * the fixed text between the values and where each value goes; an event
 * whose records are the template's is written as the fixed pieces with its
 * values formatted between them.
 *
 * Whether they are is told by a few records, not all of them. An event
 * class's records follow its types depth-first; what can make two events of
 * a class (read with the same field_scopes) deliver different records is
 * only (1) a choice: a variant's option, a sequence's length, whether an
 * optional is there, and (2) a STRING or BYTES value long enough to come in
 * fragments. A batch that starts with the same record (a scope's root: the
 * same scope) and holds as many records as the template is the template's
 * record for record if, at each of the template's choice records and
 * string or BYTES records, it makes the same choice and has a whole value:
 * up to the first record where the two differ, both are the same; that
 * record comes from a different choice (the choice record itself is the
 * first to differ: checked) or a fragment (where the template has the
 * whole value: checked). A variant's option is told by its display name and
 * the type of the record after it (two CTF 2 options may share a name, or
 * have none); a sequence's and an optional's by v.length. The checks run in
 * record order, so none reads a record past the first difference.
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

#define TPL_RECS 128u    /* records of a template, at most */
#define TPL_VALS 96u     /* values */
#define TPL_CHECKS 32u   /* choice, string and BLOB records (checked) */
#define TPL_TEXT 2048u   /* fixed text */
#define TPL_SHORT 32u    /* a piece of at most this many bytes is one fixed-size copy */
#define TPL_SETS 64u     /* the table: TPL_SETS sets of two */
#define TPL_ENUMS 4u     /* enumerations whose text is kept per value */
#define TPL_ENUM_WAYS 8u /* values kept per enumeration (by the value's low bits) */
#define TPL_ENUM_TEXT 56u

/* How a value is written (TPL_ENUM: an enumeration's {"value":V,"label":L},
 * kept per value in the template's enum[aux]). */
enum { TPL_U64, TPL_I64, TPL_VALUE, TPL_VALUE_KEYED, TPL_ENUM };

/* What the batch's first record must be for the template's text to be its text. */
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

/* What a batch's record rec must be (the top of the file), by its kind. */
enum { TPL_CHK_NONE, TPL_CHK_OPTION, TPL_CHK_LENGTH, TPL_CHK_WHOLE };
struct tpl_check {
    const void *next_type; /* OPTION: the type of record rec + 1 */
    const char *option;    /* OPTION: the variant's option */
    uint64_t length;       /* LENGTH: the sequence's length, the optional's 0 or 1 */
    uint16_t rec;
    uint16_t what;
};

typedef struct tpl {
    const void *cls; /* NULL: empty */
    uint32_t n;      /* records */
    uint32_t nvals, nchecks, nenums;
    uint16_t tail_off, tail_len; /* the text after the last value */
    bool first0;                 /* the writer's first[0] after the records */
    struct tpl_rec rec0;
    struct tpl_check check[TPL_CHECKS]; /* in record order */
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

/* The check of record f[i] of kind `what` for t (tpl_match: its records'). */
static inline void tpl_check_make(struct tpl_check *c, const tracerd_ctf_field_t *f, size_t i,
                                  unsigned what)
{
    c->rec = (uint16_t)i;
    c->what = (uint16_t)what;
    c->option = what == TPL_CHK_OPTION ? f[i].option : NULL;
    c->next_type = what == TPL_CHK_OPTION ? f[i + 1].type : NULL;
    c->length = what == TPL_CHK_LENGTH ? f[i].v.length : 0;
}

/* Are records f[0, n) of an event of class cls t's records (the top of the file)? */
static inline bool tpl_match(const tpl_t *t, const void *cls, const tracerd_ctf_field_t *f,
                             size_t n)
{
    if (t->cls != cls || t->n != n)
        return false;
    uint64_t d = ((uint64_t)(uintptr_t)f[0].type ^ (uint64_t)(uintptr_t)t->rec0.type) |
                 ((uint64_t)(uintptr_t)f[0].name ^ (uint64_t)(uintptr_t)t->rec0.name) |
                 (tpl_ks(&f[0]) ^ t->rec0.ks);
    if (d != 0)
        return false;
    for (uint32_t i = 0; i < t->nchecks; i++) {
        const struct tpl_check *c = &t->check[i];
        const tracerd_ctf_field_t *r = &f[c->rec];
        switch (c->what) {
        case TPL_CHK_OPTION:
            if (r->option != c->option || r[1].type != c->next_type)
                return false;
            break;
        case TPL_CHK_LENGTH:
            if (r->v.length != c->length)
                return false;
            break;
        default:
            if (r->frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST))
                return false;
            break;
        }
    }
    return true;
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

#endif
