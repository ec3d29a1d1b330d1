/* Internal header of the tracerd Python extension (tracerd._tracerd).
 * The extension is a client of the public tracerd API only. */
#ifndef PYTRACERD_H
#define PYTRACERD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>
#include <tracerd/tracerd.h>
#include <tracerd/event.h>

/* ---- interned strings (names, categories, argument names) ---------------- */

/* A growing table of distinct byte strings, each with a stable id (0..n-1)
 * and a Python str made on first use. */
typedef struct itable {
    struct ientry *e;
    uint32_t n, cap;
    uint32_t *slots; /* open addressing: id + 1, 0 = empty */
    uint32_t nslots;
    PyObject *list; /* the strs of ids 0..len-1, extended on demand */
} itable;

#define ITABLE_NONE UINT32_MAX

void itable_clear(itable *t);
/* Id of the string, added when new; ITABLE_NONE when out of memory. */
uint32_t itable_intern(itable *t, const char *s, size_t len);
/* Borrowed Python str of an id (created on first use); NULL with an exception set. */
PyObject *itable_str(itable *t, uint32_t id);
/* The table's list of strs (id i at index i), brought up to date; a new
 * reference to the same list each time; NULL with an exception set. */
PyObject *itable_list(itable *t);

/* ---- queued events (copies of tracerd_event_t) --------------------------- */

/* One argument in the arena; a string or byte value's bytes follow it. */
struct qarg {
    uint32_t name, type;
    size_t len;
    union {
        int64_t i;
        uint64_t u;
        double d;
    } v;
};
/* Offset of the argument after the one at `off`. */
static inline size_t qarg_next(const unsigned char *arena, size_t off)
{
    struct qarg qa;
    memcpy(&qa, arena + off, sizeof qa);
    return (off + sizeof qa + qa.len + 7) & ~(size_t)7;
}

typedef struct qev {
    uint64_t offset, ticks, ns, end_ticks, end_ns, pid, tid, id, name_id, other_pid, other_tid;
    uint32_t cpu, flags, name, category;
    int32_t level;
    uint8_t kind, format, has_args;
    uint32_t nargs;
    size_t args_off; /* into the arena: nargs serialized arguments */
    size_t msg_off;  /* into the arena, when msg_len != 0 */
    size_t msg_len;
} qev;

typedef struct evqueue {
    qev *ev;
    size_t head, len, cap;
    unsigned char *arena;
    size_t arena_len, arena_cap;
    itable names, categories, argnames;
} evqueue;

void evq_free(evqueue *q);
/* Appends a copy of the event (its arguments too when with_args). 0 or -1 (no memory). */
int evq_push(evqueue *q, const tracerd_event_t *ev, int with_args);
static inline size_t evq_count(const evqueue *q)
{
    return q->len - q->head;
}
/* Forgets every consumed event once all are consumed (the arena is reused). */
void evq_compact(evqueue *q);

/* ---- Python types --------------------------------------------------------- */

extern PyTypeObject PyTracerdEvent_Type;
extern PyTypeObject PyTracerdReader_Type;
extern PyTypeObject PyTracerdColumn_Type;
extern PyObject *PyTracerd_Error; /* tracerd.Error */

int pytracerd_event_init_types(PyObject *module);
/* A new tracerd.Event from a queued event; NULL with an exception set. */
PyObject *pytracerd_event_new(evqueue *q, const qev *e);
/* Python str of an event kind / format value (borrowed, static). */
PyObject *pytracerd_kind_str(unsigned kind);
PyObject *pytracerd_format_str(unsigned format);

int pytracerd_batch_init_types(PyObject *module);
/* tracerd.Batch of the next n queued events (consumes them). */
PyObject *pytracerd_batch_take(evqueue *q, size_t n);

/* ---- typed records (typed.c: shared; xray.c, fxt.c: one per format) ----- */

struct pyreader;
/* A struct sequence of type t from a Py_BuildValue format giving every field
 * (N consumes references); NULL with an exception set. */
PyObject *pytracerd_make(PyTypeObject *t, const char *fmt, ...);
/* int, or None when !present. */
PyObject *pytracerd_opt_int(int present, long long v);
/* tracerd.Fragment of a payload piece. */
PyObject *pytracerd_fragment(const tracerd_span_t *s);
/* Makes the struct sequence types of descs[0..n-1] into types[] and adds them to the module
 * under names[]. */
int pytracerd_add_types(PyObject *module, PyStructSequence_Desc *descs, PyTypeObject **types,
                        const char *const *names, int n);
int pytracerd_typed_init_types(PyObject *module);
/* Creates the typed reader `name` ("xray", "fxt", "xtrace", "xtrace-snap") of r; -1 with an
 * exception set. */
int pytracerd_typed_open(struct pyreader *r, const char *name, int lenient, tracerd_byte_order_t bo,
                         const tracerd_allocator_t *alloc);

int pytracerd_xray_init_types(PyObject *module);
void pytracerd_xray_callbacks(tracerd_xray_callbacks_t *cbs);
int pytracerd_fxt_init_types(PyObject *module);
void pytracerd_fxt_callbacks(tracerd_fxt_callbacks_t *cbs);
int pytracerd_ctf_init_types(PyObject *module);
/* Typed CTF reader of r: a trace directory, or one stream with its metadata. */
int pytracerd_ctf_open(struct pyreader *r, const char *directory, const void *metadata,
                       size_t metadata_len, int lenient, const tracerd_allocator_t *alloc);
/* Frees the field-tree state of a typed CTF reader. */
void pytracerd_ctf_clear(struct pyreader *r);
int pytracerd_xtrace_init_types(PyObject *module);
void pytracerd_xtrace_callbacks(tracerd_xtrace_insn_callbacks_t *cbs);
/* The snapshot reader's callbacks (registers joined whole in the reader's `part`). */
void pytracerd_xtrace_snap_callbacks(tracerd_xtrace_snap_callbacks_t *cbs);

/* Raises tracerd.Error(status, offset, reason[, path]). Returns NULL. */
PyObject *pytracerd_raise(tracerd_status_t st, uint64_t offset, const char *reason,
                          const char *path);

/* ---- the reader ----------------------------------------------------------- */

enum reader_kind { READER_EVENTS = 0, READER_TYPED = 1 };

typedef struct pyreader {
    PyObject_HEAD int kind;
    /* the C reader: a stream reader through its ops table (the auto reader,
     * then autor == impl, or a typed reader), or the CTF directory reader */
    const tracerd_reader_ops_t *ops;
    void *impl;
    tracerd_auto_reader_t *autor;
    tracerd_event_dir_t *dir;
    tracerd_ctf_dir_t *ctfdir;     /* typed CTF: a directory */
    tracerd_ctf_trace_t *ctftrace; /* typed CTF: the model of a stream (impl) */
    void *ctf;                     /* typed CTF: field-tree state (ctf.c) */
    PyObject *part;                /* typed xtrace snapshots: a register being joined */
    tracerd_xray_names_t *names;
    /* configs the auto reader borrows */
    tracerd_auto_config_t acfg;
    tracerd_xray_config_t xcfg;
    tracerd_fxt_config_t fcfg;
    tracerd_ctf_stream_config_t ccfg;
    tracerd_ctf_dir_config_t dcfg;
    tracerd_ctf_stream_config_t dscfg; /* dcfg's stream config */
    tracerd_xtrace_insn_config_t tcfg;
    /* the input: a readinto(buffer) callable (pull mode) or none (feed mode) */
    PyObject *readinto;
    PyObject *owned; /* closed by close() (a file this reader opened) */
    PyObject *chunk; /* bytearray of chunk_size bytes */
    size_t chunk_size, pos, len;
    int paused, eof, done, closed, busy;
    /* what the callbacks produce */
    evqueue q;      /* READER_EVENTS */
    PyObject *objs; /* READER_TYPED: list of typed records */
    Py_ssize_t objs_head;
    size_t max_pending; /* a callback pauses when this many are queued */
    size_t limit;       /* current pause threshold */
    int with_args;
    /* Python callbacks and what they left */
    PyObject *on_warning;
    tracerd_event_source_t src; /* from on_source, when has_src */
    int has_src, nomem;
    unsigned long long warnings;
    PyObject *cb_exc; /* exception raised by a Python callback (or a conversion) */
    /* a pending error, raised once the queued events are consumed */
    tracerd_status_t err;
    uint64_t err_offset;
    PyObject *err_reason, *err_path;
} pyreader;

/* Appends a typed record (steals the reference); returns the callback result. */
int pytracerd_reader_push_obj(pyreader *r, PyObject *obj);
/* The warning callback of every reader. */
int pytracerd_reader_on_warning(void *user, const tracerd_warning_t *w);
/* Keeps the pending Python exception for later; returns the abort value. */
int pytracerd_reader_keep_exception(pyreader *r);

#endif
