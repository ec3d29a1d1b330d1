/* The event view's mapping of CTF field records into arguments (map_ctf.c),
 * for a client that reads CTF itself and wants the same arguments: the
 * CLI's direct json path (tools/tracerd/json_ctf.c). Internal: hidden
 * symbols, reached by the CLI, which links the static library.
 *
 * An argument plan (map_ctf.c, "argument plans") is what the mapping of one
 * batch of field records made, kept for later batches of the same records
 * (ctf_choices.h): which record gives each argument, under which name and
 * how its value is made, and which records give the thread, the process
 * and a function event's address. A client may write a batch's arguments
 * straight from its records by a plan (tracerd__ctf_args_planned, then
 * each argument that is not a PLAN_NUMBER by tracerd__ctf_args_value):
 * the event view's arguments, value for value. */
#ifndef TRACERD_EVENT_CTF_ARGS_H
#define TRACERD_EVENT_CTF_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/ctf.h>
#include <tracerd/event.h>

#include "ctf_choices.h"
#include "ctf_meaning.h"

#define PLAN_SETS 32u
#define PLAN_ARGS 64u
#define PLAN_CHECKS 24u
#define PLAN_IDS 8u
#define PLAN_NAMES 512u

/* How an argument's value is made from its record: a number of a type
 * without labels (its 8 bytes of v as they are: v.i, v.u or v.f by the
 * argument's type), a BYTES view, or by scalar_value (an enumeration or
 * another type with mappings, which has a label or not by its value; a
 * string; a boolean). */
enum { PLAN_NUMBER, PLAN_BYTES, PLAN_SCALAR };

struct plan {
    const void *cls; /* NULL: empty */
    uint32_t n;      /* records of the batch */
    uint32_t gen;    /* made as the gen-th plan of its mapping (from 1): a slot's plans differ */
    uint32_t nchecks, nargs, nids;
    struct ctf_rec0 rec0;
    struct ctf_check check[PLAN_CHECKS];
    struct {
        tracerd_str_t name; /* the model's, or in names */
        uint16_t rec, op;
        tracerd_event_arg_type_t type; /* PLAN_NUMBER's */
    } arg[PLAN_ARGS];
    struct {
        uint16_t rec, kind; /* a context's thread or process, a payload's address (CTF_NAME_*) */
    } id[PLAN_IDS];
    char names[PLAN_NAMES]; /* the nested arguments' names */
};

/* The set of the plan table (2 * PLAN_SETS plans, two ways a set) where
 * the plans of class cls for batches of n records are kept. */
static inline size_t tracerd__ctf_plan_set(const void *cls, size_t n)
{
    uint64_t h = (uint64_t)(uintptr_t)cls ^ (uint64_t)n << 3;
    h ^= h >> 29;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 59); /* PLAN_SETS */
}

static inline bool tracerd__ctf_plan_match(const struct plan *p, const void *cls,
                                           const tracerd_ctf_field_t *f, size_t n)
{
    return p->cls == cls && p->n == n && ctf_rec0_is(&p->rec0, &f[0]) &&
           ctf_checks_hold(p->check, p->nchecks, f);
}

/* The plan of table plans that holds batch f[0, n) of an event of class cls,
 * or NULL. */
static inline const struct plan *tracerd__ctf_plan_find(const struct plan *plans, const void *cls,
                                                        const tracerd_ctf_field_t *f, size_t n)
{
    const struct plan *p = &plans[2 * tracerd__ctf_plan_set(cls, n)];
    if (tracerd__ctf_plan_match(p, cls, f, n) || tracerd__ctf_plan_match(++p, cls, f, n))
        return p;
    return NULL;
}

/* The thread and process batch f gives by plan p of an instant's class
 * (span 0: its ids are its contexts' threads and processes, map_ctf.c's
 * note_id keeps no other), as tracerd__ctf_args_planned notes them: flags
 * gains TRACERD_EVENT_HAS_TID and HAS_PID for those it gives. */
static inline void tracerd__ctf_plan_ids(const struct plan *p, const tracerd_ctf_field_t *f,
                                         uint32_t *flags, uint64_t *tid, uint64_t *pid)
{
    for (uint32_t i = 0; i < p->nids; i++) {
        uint64_t u = f[p->id[i].rec].v.u; /* v.i's bytes for a signed one */
        if (p->id[i].kind == CTF_NAME_TID) {
            *tid = u;
            *flags |= TRACERD_EVENT_HAS_TID;
        } else {
            *pid = u;
            *flags |= TRACERD_EVENT_HAS_PID;
        }
    }
}

/* The bytes of string and BYTES values an event's arguments keep, at most
 * (past them a value is cut short and the event TRACERD_EVENT_TRUNCATED). */
#define TRACERD__CTF_ARGS_TEXT 4096u

/* What argument the mapping makes of a scalar record f (a plan's argument
 * that is not a PLAN_NUMBER nor PLAN_BYTES; map_ctf.c's scalar_value):
 * a STRING of its enumeration's label f->enum_label (the model's text), a
 * BOOL (v.u != 0), an INT (v.i), a UINT (v.u), a DOUBLE (v.f), or a STRING
 * of its text f->v.str, kept whole when the event's text values so far
 * leave room for it (TRACERD__CTF_ARGS_TEXT), else cut short. */
enum {
    CTF_SCALAR_LABEL,
    CTF_SCALAR_BOOL,
    CTF_SCALAR_INT,
    CTF_SCALAR_UINT,
    CTF_SCALAR_DOUBLE,
    CTF_SCALAR_TEXT
};
static inline unsigned tracerd__ctf_scalar(const tracerd_ctf_field_t *f)
{
    if (f->enum_label != NULL && f->kind != TRACERD_CTF_VALUE_BOOL)
        return CTF_SCALAR_LABEL;
    switch (f->kind) {
    case TRACERD_CTF_VALUE_BOOL:
        return CTF_SCALAR_BOOL;
    case TRACERD_CTF_VALUE_INT:
        return CTF_SCALAR_INT;
    case TRACERD_CTF_VALUE_UINT:
        return CTF_SCALAR_UINT;
    case TRACERD_CTF_VALUE_FLOAT:
        return CTF_SCALAR_DOUBLE;
    default:
        return CTF_SCALAR_TEXT;
    }
}

/* The scopes the event view asks the reader for when arguments are wanted
 * (map_ctf.c's args_scopes): the event header (mapped into nothing), the
 * contexts and the payload. */
#define TRACERD__CTF_ARGS_SCOPES                                                                   \
    ((1u << TRACERD_CTF_SCOPE_EVENT_HEADER) | (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |     \
     (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT) | (1u << TRACERD_CTF_SCOPE_EVENT_FIELDS))

/* A mapping of one event's field records at a time, as the event view
 * maps them with no filter. */
typedef struct cmap tracerd__ctf_args_t;

/* What an event's records gave: its arguments (args[0, nargs): those of a
 * batch written by a plan are not made), TRACERD_EVENT_TRUNCATED,
 * HAS_TID and HAS_PID in flags with tid and pid, a function event's
 * address. */
typedef struct tracerd__ctf_args_out {
    const tracerd_event_arg_t *args;
    uint32_t nargs;
    uint32_t flags;
    uint64_t tid, pid;
    bool has_addr;
    uint64_t addr;
} tracerd__ctf_args_out_t;

/* A mapping whose events take up to max_args arguments (the event view's
 * tracerd_auto_config_t.max_args); NULL on no memory. */
tracerd__ctf_args_t *tracerd__ctf_args_new(const tracerd_allocator_t *alloc, uint32_t max_args);
void tracerd__ctf_args_free(tracerd__ctf_args_t *m);
/* An event of class cls begins (span: ctf_span_kind of its name). */
void tracerd__ctf_args_begin(tracerd__ctf_args_t *m, const void *cls, int span);
/* The plan the event view would map batch f[0, n) of the event by, or NULL
 * (the event has records mapped already, or no plan holds them). */
const struct plan *tracerd__ctf_args_find(tracerd__ctf_args_t *m, const tracerd_ctf_field_t *f,
                                          size_t n);
/* Batch f of the event is p's (tracerd__ctf_args_find): its thread, process
 * and address noted, its arguments counted, their values left to the
 * caller (a plan's values come in argument order: each that is not a
 * PLAN_NUMBER from tracerd__ctf_args_value, in that order); out: what the
 * event's records gave (tracerd__ctf_args_result). */
void tracerd__ctf_args_planned(tracerd__ctf_args_t *m, const struct plan *p,
                               const tracerd_ctf_field_t *f, tracerd__ctf_args_out_t *out);
/* Argument j of plan p from batch f, as the event view makes it. */
void tracerd__ctf_args_value(tracerd__ctf_args_t *m, const struct plan *p, uint32_t j,
                             const tracerd_ctf_field_t *f, tracerd_event_arg_t *o);
/* Maps batch f[0, n) of the event as the event view does (by a plan, or
 * record by record making one). */
void tracerd__ctf_args_fields(tracerd__ctf_args_t *m, const tracerd_ctf_field_t *f, size_t n);
/* The plan the last tracerd__ctf_args_fields mapped its batch by or made
 * from it, or NULL. */
const struct plan *tracerd__ctf_args_used(const tracerd__ctf_args_t *m);
/* The mapping's table of plans (2 * PLAN_SETS: tracerd__ctf_plan_find finds
 * a batch's; a plan's slot is its index), the same while m lives. With
 * nothing of the event mapped yet (tracerd__ctf_args_begin), the plan
 * tracerd__ctf_args_find gives is tracerd__ctf_plan_find's in it for the
 * event's class (NULL for a class of NULL). */
const struct plan *tracerd__ctf_args_plans(const tracerd__ctf_args_t *m);
/* An event of class cls begins whose first batch was p's, its ids and
 * values written by the caller (tracerd__ctf_plan_ids): the mapping as
 * tracerd__ctf_args_begin then tracerd__ctf_args_planned leave it, but for
 * the ids, for the values it makes next and the event's later batches;
 * text: the bytes of the text values the caller wrote itself
 * (CTF_SCALAR_TEXT), which the mapping counts as kept. */
void tracerd__ctf_args_after(tracerd__ctf_args_t *m, const void *cls, int span,
                             const struct plan *p, size_t text);
/* What the event's records gave so far. */
void tracerd__ctf_args_result(const tracerd__ctf_args_t *m, tracerd__ctf_args_out_t *out);

#endif
