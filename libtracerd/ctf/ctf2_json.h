/* CTF 2 metadata, reading JSON (not installed): the parse state every
 * CTF 2 file shares (struct j2), and the functions they share
 * (tracerd__ctf2_*, hidden):
 *
 *   ctf2_meta.c   fragments and field classes into the trace model;
 *   ctf2_json.c   property readers: strings, integers of -2^63..2^64-1,
 *                 range sets, attributes, extensions, unknown properties,
 *                 and the errors naming the fragment;
 *   ctf2_load.c   a fragment's text into a jansson tree: the memory bound
 *                 and the integers jansson's int64 cannot hold. */
#ifndef TRACERD_CTF2_JSON_H
#define TRACERD_CTF2_JSON_H

#include <jansson.h>

#include "metadata.h"

struct j2 {
    tracerd_ctf_metadata_t *m;
    struct tracerd_ctf_trace *t;
    struct ctf_arena *ar;
    uint32_t frag;     /* index of the fragment being read */
    uint64_t frag_off; /* its byte offset in the metadata text */
    const char *what;  /* the fragment type, for messages */
    uint32_t depth;
    /* aliases, clocks, stream classes, event classes: grown arrays */
    const char **alias_names;
    const tracerd_ctf_type_t **alias_types;
    uint32_t naliases, alias_cap;
    tracerd_ctf_clock_t *clocks;
    uint32_t nclocks, clock_cap;
    tracerd_ctf_stream_class_t **streams;
    uint32_t nstreams, stream_cap;
    tracerd_ctf_event_class_t **events;
    uint32_t *event_frag;
    uint32_t nevents, event_cap;
    bool have_preamble, have_trace_class;
    /* JSON integers of this fragment that jansson's json_int_t (int64)
     * cannot hold: marker strings "\0<index>" stand for them (load) */
    const char *text; /* the fragment's text */
    struct wide_int *wide;
    uint32_t nwide, wide_cap;
};

/* An integer token above INT64_MAX or below INT64_MIN: its place in the
 * fragment's text, and its value when it fits 64 unsigned bits. */
struct wide_int {
    uint64_t mag;
    bool over; /* below INT64_MIN or above UINT64_MAX */
    uint32_t off, len;
};

/* A JSON integer, -2^63..2^64-1: (int64_t)v when neg, else v. */
struct jint {
    uint64_t v;
    bool neg;
};

enum { JINT_NONE, JINT_OK, JINT_OVER };

/* The error of the fragment being read ("CTF 2 metadata fragment N (byte
 * B), <type>: ..."). */
tracerd_status_t tracerd__ctf2_err(struct j2 *J, tracerd_status_t st, const char *fmt, ...)
    TRACERD__PRINTF(3, 4);
tracerd_status_t tracerd__ctf2_nomem(struct j2 *J);

/* A marker string standing for a wide integer (load), or NULL. */
const struct wide_int *tracerd__ctf2_wide_of(const struct j2 *J, const json_t *v);
/* A JSON string (not a marker). */
bool tracerd__ctf2_is_str(const json_t *v);
/* "an object", "a string", ... for messages. */
const char *tracerd__ctf2_kind_of(const json_t *v);
/* The error for property `key` of `obj` that is not of `type`. */
tracerd_status_t tracerd__ctf2_want(struct j2 *J, const char *obj, const char *key, const json_t *v,
                                    const char *type);
/* A copy of s in the model's arena (NULL: no memory). */
char *tracerd__ctf2_dup_str(struct j2 *J, const char *s);
/* Reads an integer (jansson's, or a wide one's marker): JINT_*. */
int tracerd__ctf2_get_int(const struct j2 *J, const json_t *v, struct jint *out);
/* The text of a wide integer for messages. */
const char *tracerd__ctf2_wide_text(const struct j2 *J, const json_t *v, char *buf, size_t size);

/* Properties: opt_* leave *out as it is (strings: NULL) when the property
 * is absent (*present, may be NULL, tells), req_* fail; integers are
 * checked against [lo, hi]. */
tracerd_status_t tracerd__ctf2_opt_str(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, const char **out);
tracerd_status_t tracerd__ctf2_req_str(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, const char **out);
tracerd_status_t tracerd__ctf2_opt_int(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, int64_t lo, int64_t hi, int64_t *out,
                                       bool *present);
tracerd_status_t tracerd__ctf2_req_int(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, int64_t lo, int64_t hi, int64_t *out);
tracerd_status_t tracerd__ctf2_opt_u64(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, uint64_t lo, uint64_t hi, uint64_t *out,
                                       bool *present);
tracerd_status_t tracerd__ctf2_req_u64(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, uint64_t lo, uint64_t hi, uint64_t *out);
/* A required property: its error when absent. */
tracerd_status_t tracerd__ctf2_required(struct j2 *J, const json_t *o, const char *obj,
                                        const char *key);
/* The `attributes` object as compact JSON text (NULL when absent). */
tracerd_status_t tracerd__ctf2_attrs(struct j2 *J, const json_t *o, const char *obj,
                                     const char **out);
/* `extensions`: any non-empty one refuses the trace (none is supported). */
tracerd_status_t tracerd__ctf2_no_extensions(struct j2 *J, const json_t *o, const char *obj);
/* Refuses a property that is not in `known` (NULL-terminated) nor type,
 * attributes, extensions. */
tracerd_status_t tracerd__ctf2_only(struct j2 *J, const json_t *o, const char *obj,
                                    const char *const *known);
/* Integer range set: non-empty array of [lo, hi] with lo <= hi. */
tracerd_status_t tracerd__ctf2_range_set(struct j2 *J, const json_t *v, const char *obj,
                                         const char *key, const struct ctf_rset **out);

/* Parses one fragment's text with jansson (ctf2_load.c): *root NULL with
 * *je filled is a JSON error; E_LIMIT when its tree may exceed
 * max_metadata_bytes. */
tracerd_status_t tracerd__ctf2_load(struct j2 *J, const char *text, size_t n, json_t **root,
                                    json_error_t *je);

#endif
