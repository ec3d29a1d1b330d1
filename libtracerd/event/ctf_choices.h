/* Whether a batch of CTF field records (one on_fields call) is, record for
 * record, one seen before, told by a few of its records instead of all of
 * them. Shared by the event view's argument plans (map_ctf.c) and the CLI's
 * dump templates (tools/tracerd/ctf_tpl.h); header-only, nothing exported.
 *
 * An event class's records follow its types depth-first; what can make two
 * events of a class (read with the same field_scopes) deliver different
 * records is only (1) a choice: a variant's option, a sequence's length,
 * whether an optional is there, and (2) a STRING or BYTES value long enough
 * to come in fragments. A batch of an event of the same class that starts
 * with the same record (a scope's root: the same scope) and holds as many
 * records as the one seen before is that one record for record if, at each
 * of its choice records and string or BYTES records, it makes the same
 * choice and has a whole value: up to the first record where the two differ,
 * both are the same; that record comes from a different choice (the choice
 * record itself is the first to differ: checked) or a fragment (where the
 * first batch has the whole value: checked). A variant's option is told by
 * its display name and the type of the record after it (two CTF 2 options
 * may share a name, or have none); a sequence's and an optional's by
 * v.length. The checks run in record order, so none reads a record past the
 * first difference. */
#ifndef TRACERD_EVENT_CTF_CHOICES_H
#define TRACERD_EVENT_CTF_CHOICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tracerd/ctf.h>

/* A record's scope and kind in one word (the two members lie side by side). */
static inline uint64_t ctf_ks(const tracerd_ctf_field_t *f)
{
    _Static_assert(offsetof(tracerd_ctf_field_t, kind) ==
                           offsetof(tracerd_ctf_field_t, scope) + sizeof f->scope &&
                       sizeof f->scope + sizeof f->kind == 8,
                   "scope and kind side by side");
    uint64_t w;
    memcpy(&w, &f->scope, 8);
    return w;
}

/* What a batch's first record must be. */
struct ctf_rec0 {
    const void *type;
    const char *name;
    uint64_t ks; /* ctf_ks: scope and kind */
};

static inline void ctf_rec0_make(struct ctf_rec0 *r, const tracerd_ctf_field_t *f)
{
    r->type = f->type;
    r->name = f->name;
    r->ks = ctf_ks(f);
}

static inline bool ctf_rec0_is(const struct ctf_rec0 *r, const tracerd_ctf_field_t *f)
{
    uint64_t d = ((uint64_t)(uintptr_t)f->type ^ (uint64_t)(uintptr_t)r->type) |
                 ((uint64_t)(uintptr_t)f->name ^ (uint64_t)(uintptr_t)r->name) |
                 (ctf_ks(f) ^ r->ks);
    return d == 0;
}

/* What a batch's record rec must be (the top of the file), by its kind. */
enum { CTF_CHK_NONE, CTF_CHK_OPTION, CTF_CHK_LENGTH, CTF_CHK_WHOLE };
struct ctf_check {
    const void *next_type; /* OPTION: the type of record rec + 1 */
    const char *option;    /* OPTION: the variant's option */
    uint64_t length;       /* LENGTH: the sequence's length, the optional's 0 or 1 */
    uint16_t rec;
    uint16_t what;
};

/* The check record r needs (CTF_CHK_*). */
static inline unsigned ctf_check_kind(const tracerd_ctf_field_t *r)
{
    switch (r->kind) {
    case TRACERD_CTF_VALUE_STRING:
    case TRACERD_CTF_VALUE_BYTES:
        return CTF_CHK_WHOLE;
    case TRACERD_CTF_VALUE_VARIANT_BEGIN:
        return CTF_CHK_OPTION;
    case TRACERD_CTF_VALUE_SEQUENCE_BEGIN:
    case TRACERD_CTF_VALUE_OPTIONAL_BEGIN:
        return CTF_CHK_LENGTH;
    default:
        return CTF_CHK_NONE;
    }
}

/* The check of record f[i] of kind `what` (an OPTION needs record i + 1). */
static inline void ctf_check_make(struct ctf_check *c, const tracerd_ctf_field_t *f, size_t i,
                                  unsigned what)
{
    c->rec = (uint16_t)i;
    c->what = (uint16_t)what;
    c->option = what == CTF_CHK_OPTION ? f[i].option : NULL;
    c->next_type = what == CTF_CHK_OPTION ? f[i + 1].type : NULL;
    c->length = what == CTF_CHK_LENGTH ? f[i].v.length : 0;
}

/* Do records f (as many as the batch the checks were made from) pass the
 * checks c[0, n)? */
static inline bool ctf_checks_hold(const struct ctf_check *c, uint32_t n,
                                   const tracerd_ctf_field_t *f)
{
    for (uint32_t i = 0; i < n; i++) {
        const tracerd_ctf_field_t *r = &f[c[i].rec];
        switch (c[i].what) {
        case CTF_CHK_OPTION:
            if (r->option != c[i].option || r[1].type != c[i].next_type)
                return false;
            break;
        case CTF_CHK_LENGTH:
            if (r->v.length != c[i].length)
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

#endif
