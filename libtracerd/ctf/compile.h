/* CTF compiler: the state the files of the compiler share (compile.c the
 * driver, compile_loc.c finding fields, compile_emit.c the emitters,
 * compile_fast.c the fast forms, compile_plan.c the delivery plans). Never
 * installed. Its internal functions are tracerd__cc_*. */
#ifndef TRACERD_CTF_COMPILE_H
#define TRACERD_CTF_COMPILE_H

#include "ctf_internal.h"

enum { SC_PH, SC_PC, SC_EH, SC_SEC, SC_EC, SC_EF, SC_N };

/* The path prefix of each scope, as TSDL names them. */
extern const char *const tracerd__cc_scope_prefix[SC_N];

struct clock_key;

struct node {
    const char *name; /* raw */
    const char *display;
    const tracerd_ctf_type_t *type;
    struct node *parent, *first, *last, *next;
    struct node *same[2]; /* child map chains: the node before with the same name/display key */
    const struct ctf_meta *meta;
    int scope;
    uint32_t idx; /* instruction index (ints/enums) */
    bool in_loop;
};

struct pbuf {
    struct ctf_insn *v;
    uint32_t len, cap;
};

struct cc {
    struct tracerd_ctf_trace *t;
    struct ctf_arena tmp; /* nodes and work: freed after compiling */
    /* The tree nodes of an event class's scopes (context, fields) and their
     * child map: freed after each event class (nothing after it names them) */
    struct ctf_arena evtmp;
    struct tracerd__hmap evkids;
    struct ctf_arena *ar; /* the trace's arena */
    struct node *roots[SC_N];
    struct ctf_insn *codes[SC_N]; /* final code of compiled scopes */
    struct pbuf *cur;             /* buffer of the scope being compiled */
    int cur_scope;
    char *reason;
    size_t rsize;
    uint32_t *line, *col;
    uint32_t depth_max;
    const tracerd_ctf_stream_class_t *sc; /* the stream class being compiled, or NULL */
    bool ctf2;
    struct work *ws; /* work stack of the scope being compiled */
    size_t wn, wcap;
    struct pbuf code, fused;       /* scratch programs, reused by every scope */
    struct tracerd__hmap kids;     /* hash of (parent node, name) -> newest child node */
    struct tracerd__hmap flags;    /* value slot -> validity flag slot (CTF 2 locations) */
    uint64_t nodes, max_nodes;     /* fields expanded so far (every scope), bound */
    uint64_t path_bytes;           /* bytes of field paths made; bound 64 x max_nodes */
    char owner[160];               /* what the scopes being compiled belong to, for errors */
    struct clock_key *clock_order; /* clocks sorted by name (clock_named) */
    uint32_t vset;                 /* value names given slots in the scope being compiled */
};

struct work {
    int what;
    const tracerd_ctf_type_t *type;
    const char *name;
    const char *display;
    struct node *parent;
    uint32_t pc;
    uint32_t i;
    uint32_t loops;
    uint32_t *targets;     /* W_OPT_BEGIN, W_VARIANT_END: first instruction of each option */
    struct ctf_vsel *vsel; /* W_VARIANT_END */
    uint32_t nvsel;
    const struct ctf_meta *meta; /* W_STRUCT_END */
};

enum {
    W_FIELD,
    W_STRUCT_END,
    W_ARRAY_END,
    W_SEQ_END,
    W_OPT_BEGIN,
    W_OPT_END,
    W_VARIANT_END,
    W_OPTIONAL_END
};

/* The field being compiled: its work item, tree node, display data and
 * nesting depth (number of enclosing compound fields). */
struct field {
    const struct work *w;
    struct node *n;
    struct ctf_meta *meta;
    uint32_t depth;
};

/* What a location must name: a length (unsigned integer), an integer
 * selector, or a boolean selector. */
enum loc_want { WANT_LENGTH, WANT_INT, WANT_BOOL };

/* ==== compile.c ============================================================ */

/* Sets the error message (metadata line and column, or CTF 2 fragment) and
 * returns st. */
tracerd_status_t tracerd__cc_err(struct cc *c, const tracerd_ctf_type_t *at, tracerd_status_t st,
                                 const char *fmt, ...) TRACERD__PRINTF(4, 5);
tracerd_status_t tracerd__cc_nomem(struct cc *c);
/* Appends a zeroed instruction to b; NULL when out of memory. */
struct ctf_insn *tracerd__cc_emit(struct cc *c, struct pbuf *b);

/* Appends instruction v to the scope's program; NULL when out of memory. */
static inline struct ctf_insn *insn(struct cc *c, struct ctf_insn v)
{
    struct ctf_insn *in = tracerd__cc_emit(c, c->cur);
    if (in != NULL)
        *in = v;
    return in;
}

/* The stack has room for every push of one step (see compile_scope). */
static inline void push(struct cc *c, struct work w)
{
    c->ws[c->wn++] = w;
}

/* ==== compile_loc.c ======================================================== */

/* The child map of scope's nodes: c->evkids for an event class's scopes. */
static inline struct tracerd__hmap *kids_of(struct cc *c, int scope)
{
    return scope >= SC_EC ? &c->evkids : &c->kids;
}

/* Adds n to its parent's child map (by raw and display name). */
tracerd_status_t tracerd__cc_add_kid(struct cc *c, struct node *n);
/* Resolves a TSDL length/tag path seen inside `parent` of scope `scope`. */
struct node *tracerd__cc_resolve(struct cc *c, const char *path, struct node *parent, int scope);
/* The value slot of a compiled field (given one on first use). */
uint32_t tracerd__cc_slot_of(struct cc *c, struct node *n);
/* A value name's slot for field f when it is one (a depth-1 integer of
 * the stream event context or event context named by the metadata
 * config's value_names), bit set in c->vset. */
void tracerd__cc_value_slot(struct cc *c, const struct field *f);
/* The reader role of a TSDL header/context field (by its name). */
int tracerd__cc_role_of(int scope, const struct node *n, uint32_t depth);
/* The reader role of a CTF 2 field (by its roles), checked. */
tracerd_status_t tracerd__cc_role2(struct cc *c, const struct node *n, int *role);
/* The field a length, tag or selector names (see compile_loc.c). */
tracerd_status_t tracerd__cc_locate(struct cc *c, const struct field *f, enum loc_want want,
                                    const char *what, struct node **out, uint32_t *slot);

/* ==== compile_emit.c ======================================================= */

/* Emits field f through its kind's emitter. */
tracerd_status_t tracerd__cc_emit_field(struct cc *c, const struct field *f);

/* ==== compile_fast.c ======================================================= */

/* Marks the runs of scalars at static offsets in code. */
tracerd_status_t tracerd__cc_mark_runs(struct cc *c, struct ctf_insn *code, uint32_t len);
/* Whether a bit field of these programs may change the byte order inside a byte. */
bool tracerd__cc_may_split_byte_order(const struct ctf_insn *const *progs, int n);
/* The measure-only program of up to three programs, or NULL. */
tracerd_status_t tracerd__cc_fuse_all(struct cc *c, const struct ctf_insn *a,
                                      const struct ctf_insn *b, const struct ctf_insn *d,
                                      const struct ctf_insn **out);
/* The fixed-layout form of a measure-only program, or NULL (struct
 * ctf_event_rt.body_fixed). */
tracerd_status_t tracerd__cc_body_fixed(struct cc *c, const struct ctf_insn *fast,
                                        const struct ctf_fseg **out);
/* The fast form of a stream class's event header. */
tracerd_status_t tracerd__cc_header_fast(struct cc *c, struct ctf_stream_rt *r);

/* ==== compile_plan.c ======================================================= */

/* The delivery plan of up to three programs, or NULL. */
tracerd_status_t tracerd__cc_build_plan(struct cc *c, const struct ctf_prog *const progs[3],
                                        const struct ctf_pop **out);
/* The record shapes of a stream class's event classes, numbered from *next. */
void tracerd__cc_shapes(struct ctf_stream_rt *r, uint32_t *next);
/* The records of a stream class's LTTng event header in its two forms. */
tracerd_status_t tracerd__cc_lttng_forms(struct cc *c, struct ctf_stream_rt *r);

#endif
