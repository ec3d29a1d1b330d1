/* CTF reader internals: the trace model's private side (arena, compiled
 * programs) shared by the metadata parser, the compiler and the stream
 * reader. Never installed. */
#ifndef TRACERD_CTF_INTERNAL_H
#define TRACERD_CTF_INTERNAL_H

#include <tracerd/ctf.h>

#include "../core/internal.h"

/* ---- arena: every object of a trace model lives in one ------------------ */

struct ctf_arena_block {
    struct ctf_arena_block *next;
    size_t size; /* bytes allocated for this block, header included */
    size_t used;
};

struct ctf_arena {
    const tracerd_allocator_t *alloc;
    struct ctf_arena_block *head;
    size_t total;
};

void tracerd__ctf_arena_init(struct ctf_arena *a, const tracerd_allocator_t *alloc);
/* Zeroed, 8-byte aligned; NULL on failure. */
void *tracerd__ctf_arena_alloc(struct ctf_arena *a, size_t size);
char *tracerd__ctf_arena_strdup(struct ctf_arena *a, const char *s, size_t len);
/* Grows the array *v (n elements of sz bytes, room for *cap) to hold n + 1,
 * doubling into a new arena block (the old one stays until the arena goes). */
bool tracerd__ctf_arena_grow(struct ctf_arena *a, void **v, uint32_t n, uint32_t *cap, size_t sz);
/* Frees every block but one, which is emptied (allocations made after
 * it reuse it). */
void tracerd__ctf_arena_reset(struct ctf_arena *a);
void tracerd__ctf_arena_free(struct ctf_arena *a);

/* ---- range tables (ranges.c) ---------------------------------------------- */

/* An integer range in unsigned key order (ctf_range_key) and its index. */
struct ctf_range {
    uint64_t lo, hi;
    uint32_t index;
};

/* Signed values keep their order as unsigned keys with the sign bit flipped. */
static inline uint64_t ctf_range_key(uint64_t v, bool is_signed)
{
    return is_signed ? v ^ ((uint64_t)1 << 63) : v;
}

/* Turns ranges (index = priority: the lowest wins where they overlap; `in`
 * is reordered) into disjoint sorted segments in ar. O(n log n). */
tracerd_status_t tracerd__ctf_ranges_build(struct ctf_arena *ar, const tracerd_allocator_t *tmp,
                                           struct ctf_range *in, uint32_t n,
                                           const struct ctf_range **out, uint32_t *nout);
/* Index of the segment holding key, or UINT32_MAX. O(log n). */
uint32_t tracerd__ctf_range_find(const struct ctf_range *r, uint32_t n, uint64_t key);
/* Whether range_find gives every key of [k0, k1] (k0 <= k1) the same
 * answer: one segment holds them all, or none holds any. O(log n). */
bool tracerd__ctf_range_uniform(const struct ctf_range *r, uint32_t n, uint64_t k0, uint64_t k1);

/* ---- IEEE 754 binary interchange floats (float.c) ------------------------- */

/* The widest floating point number read (bits): CTF 2 allows any multiple of
 * 32 from 128; beyond this, E_UNSUPPORTED. */
#define CTF_FLOAT_MAX_BITS 65536u

/* Exponent bits of binary{k} (k = 16, 32, 64, or a multiple of 32 >= 128). */
uint32_t tracerd__ctf_float_exp_bits(uint32_t k);
/* The k-bit binary{k} value in w (32-bit words, least significant first)
 * rounded to the nearest double (ties to even): subnormal doubles, overflow to
 * infinity, infinities, NaNs (sign, quiet bit and top payload bits kept). */
double tracerd__ctf_float_to_double(const uint32_t *w, uint32_t k);

/* ---- the type, with its source position ---------------------------------- */

/* CTF 2 field location: origin scope (or relative), leading parent steps,
 * then member names (normalised: no null after a name). */
struct ctf_loc {
    int origin;  /* tracerd_ctf_scope_t, or -1: relative */
    uint32_t up; /* relative: parent structures to climb first */
    const char *const *names;
    uint32_t nnames;
};

/* CTF 2 integer range set: bounds -2^63..2^64-1, lo[i]/hi[i] as int64_t,
 * or as uint64_t when bit 0 (lo) / bit 1 (hi) of big[i] is set (above
 * INT64_MAX). tracerd__ctf_rset_range reads one against a signedness. */
struct ctf_rset {
    const int64_t *lo, *hi;
    const uint8_t *big;
    uint32_t n;
};

/* Range i of rs as the values of an integer of that signedness (int64 bits
 * for unsigned): false when it holds none (wholly negative for unsigned,
 * wholly above INT64_MAX for signed); bounds clamped to the type's range. */
bool tracerd__ctf_rset_range(const struct ctf_rset *rs, uint32_t i, bool sgn, int64_t *lo,
                             int64_t *hi);

/* (The flags and the 32-bit members are packed together: one is made per
 * type the metadata declares, LTTng's kernel metadata one per field.) */
struct ctf_type {
    tracerd_ctf_type_t pub; /* first: a tracerd_ctf_type_t * is a struct ctf_type * */
    uint32_t line, col;     /* TSDL: text position; CTF 2: fragment index + 1, 0 */
    bool native_order;      /* byte_order = native (or absent): resolved when compiled */
    bool ctf2;              /* CTF 2: the members below the next comment apply */
    /* Filled by the compiler (zero from the builders): */
    bool empty;                     /* holds no field at all (empty structs, arrays of them) */
    bool ranges_built;              /* enumerations: `ranges` is the label table */
    uint32_t nranges;               /* enumerations: entries of `ranges` */
    uint64_t nodes;                 /* fields the type expands to (saturating); 0 = not counted */
    const struct ctf_range *ranges; /* enumerations: mapping index by value */
    /* enumerations: the label of each value 0 .. nlabels - 1 (as `ranges`
     * says; NULL: none), so that the common small values need no search */
    const char *const *labels;
    uint32_t nlabels;
    const char *clock_name; /* map = clock.NAME.value, resolved when compiled */
    /* CTF 2 */
    uint64_t frag_off;               /* byte offset of the fragment in the metadata text */
    const struct ctf_loc *loc;       /* length / selector location */
    const struct ctf_rset *sel;      /* OPTIONAL: selector ranges (NULL: boolean selector) */
    const struct ctf_rset *opts;     /* VARIANT: one range set per option */
    const char *const *member_attrs; /* STRUCT, VARIANT: attributes of each member */
};

/* The label of the first mapping of enumeration ty holding v (its direct
 * table, else a binary search in its range table; both built by the
 * compiler), or NULL. */
static inline const char *ctf_enum_label(const tracerd_ctf_type_t *ty, uint64_t v)
{
    const struct ctf_type *t = (const struct ctf_type *)ty;
    if (v < t->nlabels)
        return t->labels[v];
    uint32_t i = tracerd__ctf_range_find(t->ranges, t->nranges, ctf_range_key(v, ty->is_signed));
    return i < ty->nmappings ? ty->mappings[i].label : NULL;
}

/* A zeroed type of kind k with the defaults both metadata parsers start
 * from (alignment 8, base 10, no clock, little-endian), or NULL. */
struct ctf_type *tracerd__ctf_type_new(struct ctf_arena *a, tracerd_ctf_type_kind_t k);

/* ---- compiled programs ---------------------------------------------------- */

enum ctf_op {
    OP_END = 0,
    OP_INT, /* generic bit field */
    OP_U8,  /* byte-aligned fast loads */
    OP_U16LE,
    OP_U16BE,
    OP_U32LE,
    OP_U32BE,
    OP_U64LE,
    OP_U64BE,
    OP_FLOAT32,
    OP_FLOAT64,
    OP_STRING,
    OP_TEXT_ARRAY, /* count bytes shown as text */
    OP_TEXT_SEQ,   /* slot holds the byte count */
    OP_STRUCT_BEGIN,
    OP_STRUCT_END,
    OP_ARRAY_BEGIN,
    OP_ARRAY_NEXT,
    OP_SEQ_BEGIN,
    OP_SEQ_NEXT,
    OP_VARIANT,
    OP_JUMP,
    OP_VARIANT_END,
    OP_ALIGN,
    /* measure-only ("fast") programs: fused fixed-size runs and LTTng headers */
    OP_SKIP,          /* align, then count bits */
    OP_SEQ_SKIP,      /* align, then slots[slot] elements of count bits */
    OP_LTTNG_COMPACT, /* 5-bit id + 27-bit timestamp, or 31 + 32-bit id + 64-bit timestamp */
    OP_LTTNG_LARGE,   /* 16-bit id + 32-bit timestamp, or 65535 + 32-bit id + 64-bit timestamp */
    /* CTF 2 */
    OP_VARINT,   /* LEB128 */
    OP_BLOB,     /* count bytes (slot: dynamic length) */
    OP_OPTIONAL, /* selector in slot; jump: after OP_OPTIONAL_END */
    OP_OPTIONAL_END,
    OP_USTRING,  /* UTF-16/32 null-terminated string (size: code unit bits) */
    OP_FLOATX,   /* IEEE 754 binary16, binary128 or wider (count bits), as the nearest double */
    OP_LOC_CHECK /* a field location through an optional/variant: its target was decoded
                    (validity flag in slot), else E_BAD_RECORD naming the dependent (meta) */
};

/* Roles: integers the reader itself needs (fixed slots 1..ROLE_COUNT-1). */
enum ctf_role {
    ROLE_NONE = 0,
    ROLE_MAGIC,
    ROLE_UUID, /* element of the packet header uuid array */
    ROLE_STREAM_ID,
    ROLE_STREAM_INSTANCE_ID,
    ROLE_CONTENT_SIZE,
    ROLE_PACKET_SIZE,
    ROLE_TS_BEGIN,
    ROLE_TS_END,
    ROLE_DISCARDED,
    ROLE_SEQ_NUM,
    ROLE_CPU_ID,
    ROLE_EVENT_ID,
    ROLE_TIMESTAMP,
    ROLE_COUNT
};
#define CTF_FIRST_FREE_SLOT 16u

#define INSN_SIGNED 0x01u
#define INSN_BE 0x02u
#define INSN_ENUM 0x04u
#define INSN_BYTES 0x08u /* array/sequence of byte-aligned 8-bit integers */
#define INSN_BOOL 0x10u  /* fixed-length boolean (delivered as BOOL) */
#define INSN_REV 0x20u   /* bit order reversed: the length-bit value is mirrored */
#define INSN_DYN 0x40u   /* OP_BLOB: length in slot */
#define INSN_UTF 0x80u   /* OP_TEXT_*: UTF-16/32 (meta type's element encoding) */

/* The byte-aligned fixed-size integer loads, and every integer load. */
#define FIXED_OP(op) ((op) >= OP_U8 && (op) <= OP_U64BE)
#define INT_OP(op) ((op) == OP_INT || FIXED_OP(op))
/* Instructions that may belong to a fused run (compile_fast.c, tracerd__cc_mark_runs: the
 * first one's jump is then the run's length, always above 1). */
#define RUN_OP(op) (FIXED_OP(op) || (op) == OP_FLOAT32 || (op) == OP_FLOAT64)

struct ctf_vsel { /* variant option selection: tag value range -> target */
    int64_t lo, hi;
    uint32_t target;
    uint32_t option;
};

/* Slot numbers (a grown array). */
struct ctf_slots {
    uint32_t *v;
    uint32_t n, cap;
};

struct ctf_meta {
    const char *name; /* display name */
    const char *path;
    const tracerd_ctf_type_t *type;
    const struct ctf_vsel *vsel; /* OP_VARIANT */
    uint32_t nvsel;
    const struct ctf_range *vranges; /* OP_VARIANT: vsel index by tag value */
    uint32_t nvranges;
    const char *const *option_names; /* OP_VARIANT: display names by option */
    /* OP_OPTIONAL, OP_VARIANT crossed by field locations (else NULL): the
     * validity flags (slots) of the targets inside, cleared on entry, and per
     * option (an optional: [0], when enabled) the ones set when taken. */
    struct ctf_slots *kill;
    struct ctf_slots *valid;
};

struct ctf_insn {
    uint8_t op;
    uint8_t flags;
    uint8_t role;
    uint8_t size;   /* bits, integers and floats */
    uint32_t align; /* bits (power of two), applied before the field */
    uint32_t slot;  /* value store (0 = none) */
    uint32_t jump;  /* loop / variant targets; first scalar of a fused run: its members */
    uint64_t count; /* static array length; fused run: its bits (first), bit offset (others) */
    const struct ctf_meta *meta;
};

struct ctf_prog {
    const struct ctf_insn *code; /* NULL when the scope is absent */
    uint32_t len;
    tracerd_ctf_scope_t scope;
    const struct ctf_insn *fast; /* measure-only program, or NULL (then code measures) */
};

/* The fixed part of a field record: tracerd_ctf_field_t from scope to type,
 * laid out as there (checked below), copied as one block. */
struct ctf_tmpl {
    tracerd_ctf_scope_t scope;
    tracerd_ctf_value_kind_t kind;
    const char *name;
    const char *path;
    int64_t index;
    uint32_t depth;
    const tracerd_ctf_type_t *type;
};

/* One step of a delivery plan: an instruction of the general program (its
 * jumps renumbered into the plan) and the fixed part of the field record it
 * delivers (scope, kind, name, path, index -1, depth, type). */
struct ctf_pop {
    struct ctf_insn in;
    struct ctf_tmpl t;
    const uint32_t *targets; /* OP_VARIANT: plan step of each option selection (vsel) */
    bool elem;               /* an element: index = the enclosing loop's counter */
    bool enum_label;         /* an enumeration: the label of the value */
    /* A static segment (compile_plan.c, mark_segments): steps whose fields
     * lie at offsets fixed once the first one is aligned (byte-aligned
     * integers and floats, struct limits). Its first step: seg_n steps,
     * seg_bytes long; every step of it: seg_off, its field's byte offset
     * from the first one's. seg_n is 0 elsewhere. */
    uint32_t seg_n, seg_bytes, seg_off;
    bool seg_slow;     /* in a segment: stored, an enumeration or an element */
    bool seg_slow_any; /* a segment's first step: some step of it seg_slow */
    /* A segment's first step: every field of it a little-endian (or 8-bit)
     * byte-aligned integer or a struct limit, so that where 8 bytes past its
     * end lie in the input too, each field is one 8-byte load and seg_mask. */
    bool seg_wide;
    /* A segment's first step: its records' bytes in an on_fields batch
     * (UINT32_MAX when more: it never fits) */
    uint32_t seg_room;
    /* In a segment: the field's value bits (0 for struct limits and
     * floats), and its sign bit when signed (else 0): the value is
     * ((w & seg_mask) ^ seg_sbit) - seg_sbit. */
    uint64_t seg_mask, seg_sbit;
    /* The only step of an array's or sequence's loop, a byte-aligned
     * integer or float: the elements lie vec_stride bits apart (see
     * mark_vectors) */
    uint32_t vec_stride;
    /* ... a little-endian (or 8-bit) integer neither stored nor an
     * enumeration: where 8 bytes past the last element lie in the input,
     * each element is one 8-byte load, masked and sign-extended by
     * seg_mask and seg_sbit (as in a wide segment) */
    bool vec_wide;
};

/* A stored integer of a fixed segment (struct ctf_fseg): a byte-aligned
 * 8/16/32/64-bit integer at a byte offset from the segment's aligned start. */
struct ctf_fload {
    uint32_t off;  /* bytes from the segment's aligned start */
    uint32_t slot; /* its value slot (no role: event scopes have none) */
    uint64_t sign; /* 1 << (size - 1) when signed, else 0: (v ^ sign) - sign extends v */
    uint8_t op;    /* OP_U8 .. OP_U64BE */
    uint8_t shift; /* 64 - size: an 8-byte little-endian read shifted left then right by it */
};

/* What ends a fixed segment. */
enum { FSEG_END, FSEG_STRING, FSEG_SEQ };

/* A segment of an event of fixed layout (struct ctf_event_rt.body_fixed, an
 * array ending with the segment whose `end` is FSEG_END): fields at offsets
 * fixed once its first field is aligned (none more aligned than that one),
 * unread but for its stored integers, then what ends it: the event's end, a
 * string or a sequence of `elem`-bit elements whose length is in a slot. */
struct ctf_fseg {
    const struct ctf_fload *ld; /* its stored integers, nld of them */
    uint64_t bits;              /* the segment's size */
    /* bits from the aligned start that 8-byte reads of every stored integer
     * touch (the last one's offset + 64); UINT64_MAX when one is big-endian
     * (then loads of their own size) */
    uint64_t reach;
    uint64_t elem;       /* FSEG_SEQ: an element's bits */
    uint32_t amask;      /* the first field's alignment - 1 (0 when empty) */
    uint32_t nld;        /* stored integers */
    uint32_t next_amask; /* FSEG_STRING, FSEG_SEQ: its alignment - 1 */
    uint32_t len_slot;   /* FSEG_SEQ: the slot of its length */
    uint8_t end;         /* FSEG_END, FSEG_STRING or FSEG_SEQ */
};

/* Bytes of tracerd_ctf_field_t copied from a plan step's template: scope,
 * kind, name, path, index, depth, type. */
#define CTF_TMPL_FIRST offsetof(tracerd_ctf_field_t, scope)
#define CTF_TMPL_BYTES (offsetof(tracerd_ctf_field_t, type) + sizeof(void *) - CTF_TMPL_FIRST)
#define CTF_TMPL_SAME(m)                                                                           \
    (offsetof(tracerd_ctf_field_t, m) - CTF_TMPL_FIRST == offsetof(struct ctf_tmpl, m))
_Static_assert(CTF_TMPL_SAME(scope) && CTF_TMPL_SAME(kind) && CTF_TMPL_SAME(name) &&
                   CTF_TMPL_SAME(path) && CTF_TMPL_SAME(index) && CTF_TMPL_SAME(depth) &&
                   CTF_TMPL_SAME(type) && sizeof(struct ctf_tmpl) == CTF_TMPL_BYTES,
               "struct ctf_tmpl is tracerd_ctf_field_t's fixed part");

struct ctf_event_rt {
    const tracerd_ctf_event_class_t *cls;
    struct ctf_prog context;
    struct ctf_prog fields;
    /* stream event context + event context + fields fused into one
     * measure-only program, or NULL when one of them has variants or
     * loops over non-fixed elements */
    const struct ctf_insn *body_fast;
    /* body_fast as segments of fixed layout (struct ctf_fseg), else NULL:
     * stream.c's fast loop measures it in place (compile_fast.c,
     * tracerd__cc_body_fixed; stream.c, fixed_measure). */
    const struct ctf_fseg *body_fixed;
    /* The same three scopes as one delivery plan (when body_fast exists and
     * nothing needs conversion, else NULL): run by the reader after
     * body_fast measured the event, so without any bound check. */
    const struct ctf_pop *plan;
    /* The event context alone as a plan (when `plan` exists and the class
     * has an event context, else NULL): the fast path's contexts
     * (field_scopes asking for the event contexts only). */
    const struct ctf_pop *ctx_plan;
    /* The record shape (tracerd_ctf_event_t.shape): the class's first
     * number (then + 1 for an LTTng header's extended form when shape_hdr2
     * holds the header's scope bit), and the scope bits (1 << scope) whose
     * records vary in number (0xFF when the class has no number). */
    uint32_t shape;
    uint8_t shape_vary, shape_hdr2;
    /* The value names (struct tracerd_ctf_trace.vnames) the class's
     * contexts hold as integers: bit i, value in slots[CTF_FIRST_FREE_SLOT + i]
     * (tracerd_ctf_event_t.values_set) */
    uint32_t vset;
};

/* Records an LTTng event header delivers in one form (compact or extended),
 * made from its plan (compile_plan.c, tracerd__cc_lttng_forms) for stream.c's
 * run_lttng_header: every member final but the values of its integers and
 * the offsets (here from the header's first byte). */
#define CTF_HFORM_RECORDS 16
struct ctf_hform {
    tracerd_ctf_field_t *recs;
    uint32_t n;
    uint32_t bits; /* the header's length */
    uint32_t nval; /* integers (2 or 3): record, value (HV_*); the step storing it (only
                      while it is made: a form has no stores left to do) */
    struct {
        uint8_t rec, src;
        const struct ctf_insn *in;
    } val[4];
};
enum { HV_ID, HV_TS, HV_MAX }; /* slots[ROLE_EVENT_ID], slots[ROLE_TIMESTAMP], the extended tag */

struct ctf_stream_rt {
    const tracerd_ctf_stream_class_t *cls;
    struct ctf_prog packet_context;
    struct ctf_prog event_header;
    struct ctf_prog event_context;
    const struct ctf_pop *header_plan; /* the event header's delivery plan, or NULL */
    const struct ctf_pop *sec_plan;    /* the stream event context's, or NULL (see ctx_plan) */
    /* An LTTng header with a plan: its records in each form (0 compact, 1
     * extended; hform[0].recs NULL otherwise), and the extended tag value */
    struct ctf_hform hform[2];
    uint64_t htag_max;
    struct ctf_event_rt *events; /* sorted by id */
    uint32_t nevents;
    struct ctf_event_rt **direct; /* by id when max id < 65536, else NULL */
    uint32_t ndirect;
    int clock; /* clock of the event header timestamp (or packet ts), -1 */
};

struct tracerd_ctf_trace {
    tracerd_allocator_t alloc;
    struct ctf_arena arena;
    tracerd_ctf_trace_info_t info;
    struct ctf_prog packet_header;
    struct ctf_stream_rt *srt; /* sorted by id, info.nstreams */
    uint32_t nslots;
    uint32_t max_loop_depth; /* deepest array/sequence nesting of any program */
    uint64_t err_offset;     /* compile error: metadata offset of the CTF 2 fragment at fault */
    bool has_utf;            /* CTF 2 UTF-16/32 strings: readers keep a conversion buffer */
    tracerd_ctf_metadata_config_t limits; /* the metadata reader's bounds (the compiler's too) */
    /* Value slots (metadata config value_names, copied): name i's integer,
     * a depth-1 member of its scope, stores into slots[CTF_FIRST_FREE_SLOT + i] */
    struct ctf_vname {
        uint8_t scope; /* TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT or _EVENT_CONTEXT */
        const char *name;
    } * vnames;
    uint32_t nvnames;
};

/* Compiles every scope of t (after parsing). On error fills reason (line,
 * column) and returns E_METADATA / E_UNSUPPORTED / E_NOMEM. */
tracerd_status_t tracerd__ctf_compile(struct tracerd_ctf_trace *t, char *reason, size_t size,
                                      uint32_t *line, uint32_t *col);

const struct ctf_stream_rt *tracerd__ctf_stream_rt(const struct tracerd_ctf_trace *t, uint64_t id);
const struct ctf_event_rt *tracerd__ctf_event_rt(const struct ctf_stream_rt *s, uint64_t id);

/* Directory reader hook: called after an event was fully decoded and before
 * anything of it is delivered. Return true to deliver it, false to stop the
 * feed right before it (feed returns TRACERD_PAUSED; nothing changed). */
typedef bool (*tracerd__ctf_gate_fn)(void *user, uint64_t ns);
void tracerd__ctf_stream_set_gate(tracerd_ctf_stream_t *r, tracerd__ctf_gate_fn fn, void *user);
/* Events before time ns pass the gate without a call (0, the default: the
 * gate is asked for every event); hold: those at or after it are held back
 * without a call either. */
void tracerd__ctf_stream_gate_below(tracerd_ctf_stream_t *r, uint64_t ns, bool hold);
bool tracerd__ctf_stream_gated(const tracerd_ctf_stream_t *r);
/* The time of the event held back (tracerd__ctf_stream_gated true). */
uint64_t tracerd__ctf_stream_gated_ns(const tracerd_ctf_stream_t *r);
/* One stream of the directory reader's merge, as the feed below sees it. */
struct tracerd__ctf_side {
    tracerd_ctf_stream_t *r;
    const uint8_t *p, *end; /* its bytes not fed yet (p moves on as they are) */
    uint32_t index;         /* its stream index: at equal times the lower goes first */
    bool hold;              /* its gate's bound while it runs (as tracerd__ctf_stream_gate_below) */
    uint64_t below;
    bool held; /* out: its gate held an event back, at time ns */
    uint64_t ns;
};

/* The directory reader's feed: side[k] runs (its gate's bound first), and
 * side[1 - k], when not NULL, is the merge's only other stream, waiting with
 * its next event at time ns. As tracerd_ctf_stream_feed on side[k]'s bytes,
 * but an event held back by the gate leaves the reader unpaused
 * (TRACERD_PAUSED returned, held true and ns its time, nothing to resume;
 * held false otherwise), and a reader in a packet's events with nothing
 * stitched goes straight to its event loop (the held event first) without
 * the feed's checks of every state: a directory's streams may alternate at
 * every event. And when the running stream's event loop holds an event back
 * (not at UINT64_MAX, where the directory's gate decides) while the other's
 * event loop holds its own (the other way a stream waits: no turn), the
 * other's loop goes on from it without returning (k and *cur change: *cur
 * is its stream index), and so on: what is returned is about side[k] at the
 * end, the other side held. */
struct tracerd__ctf_merge {
    struct tracerd__ctf_side *side[2];
    uint32_t k;
    int32_t *cur;
};
tracerd_status_t tracerd__ctf_stream_feed_merged(struct tracerd__ctf_merge *m);

#endif
