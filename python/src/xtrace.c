/* Typed xtrace records (tracerd.xtrace.open): each callback of the xtrace
 * instruction-stream reader or of the snapshot reader makes a named tuple (a
 * struct sequence) and queues it on the reader. */
#include "pytracerd.h"

#define F(name)                                                                                    \
    {                                                                                              \
        name, NULL                                                                                 \
    }
static PyStructSequence_Field insn_fields[] = {
    F("offset"), F("index"), F("pc"), F("opcode"), F("el"), F("explicit_pc"), {NULL, NULL}};
static PyStructSequence_Field mem_fields[] = {F("offset"), F("insn_count"), F("addr"),
                                              F("value"),  F("value_u64"),  F("size"),
                                              F("el"),     F("op"),         {NULL, NULL}};
static PyStructSequence_Field val_fields[] = {
    F("offset"), F("insn_count"), F("kind"), F("value"), {NULL, NULL}};
static PyStructSequence_Field allgpr_fields[] = {
    F("offset"), F("insn_count"), F("x"), {NULL, NULL}};
static PyStructSequence_Field flags_fields[] = {
    F("offset"), F("insn_count"), F("flags"), {NULL, NULL}};
static PyStructSequence_Field vec_fields[] = {
    F("offset"), F("insn_count"), F("count"), F("layout"), {NULL, NULL}};
static PyStructSequence_Field iov_fields[] = {F("offset"), F("iov_offset"), F("index"),
                                              F("base"),   F("len"),        {NULL, NULL}};
static PyStructSequence_Field time_fields[] = {
    F("offset"), F("insn_count"), F("value"), F("raw"), {NULL, NULL}};
static PyStructSequence_Field opaque_fields[] = {
    F("offset"), F("insn_count"), F("token"), F("payload"), {NULL, NULL}};
static PyStructSequence_Field layout_fields[] = {F("byte_order"),
                                                 F("header_bytes"),
                                                 F("vector_length_bits"),
                                                 F("streaming_vector_length_bits"),
                                                 F("storage_vector_length_bits"),
                                                 F("p_layout"),
                                                 F("za_present"),
                                                 F("fixed_max"),
                                                 F("record_bytes"),
                                                 F("z_offset"),
                                                 F("p_offset"),
                                                 F("ffr_offset"),
                                                 F("za_offset"),
                                                 F("sysreg_offset"),
                                                 F("detected"),
                                                 F("candidates"),
                                                 F("records_checked"),
                                                 {NULL, NULL}};
static PyStructSequence_Field header_fields[] = {
    F("offset"),     F("header_bytes"), F("ident"),     F("global_point"), F("version"),
    F("split_type"), F("stream_type"),  F("mem_order"), F("pad"),          {NULL, NULL}};
static PyStructSequence_Field snapshot_fields[] = {
    F("offset"),     F("index"),       F("file_no"), F("file_index"),
    F("user_insns"), F("total_insns"), F("x"),       {NULL, NULL}};
static PyStructSequence_Field register_fields[] = {
    F("offset"), F("reg"), F("index"), F("data"), {NULL, NULL}};
static PyStructSequence_Field snapshot_end_fields[] = {F("offset"),      F("index"),
                                                       F("fpcr"),        F("fpsr"),
                                                       F("nzcv"),        F("tpidr_el0"),
                                                       F("tpidrro_el0"), F("ttbr0_el1"),
                                                       F("elr_el1"),     F("spsr_el1"),
                                                       F("esr_el1"),     F("tpidr_el1"),
                                                       F("daif"),        F("vector_length_bits"),
                                                       {NULL, NULL}};
#undef F

enum {
    T_INSN,
    T_MEM,
    T_VAL,
    T_ALLGPR,
    T_FLAGS,
    T_VEC,
    T_VEC_END,
    T_IOV,
    T_TIME,
    T_OPAQUE,
    T_LAYOUT,
    T_HEADER,
    T_SNAPSHOT,
    T_REGISTER,
    T_SNAPSHOT_END,
    T_COUNT
};

static PyStructSequence_Desc descs[T_COUNT] = {
    {"tracerd.xtrace.Insn", "an instruction (INST or PCINST)", insn_fields, 6},
    {"tracerd.xtrace.Mem", "a memory access (value None when it comes in fragments)", mem_fields,
     8},
    {"tracerd.xtrace.Val", "a value token", val_fields, 4},
    {"tracerd.xtrace.AllGpr", "all general-purpose registers", allgpr_fields, 3},
    {"tracerd.xtrace.MiscFlags", "the MISC_FLAGS token", flags_fields, 3},
    {"tracerd.xtrace.SyscallVec", "start of a SYSCALL_VEC", vec_fields, 4},
    {"tracerd.xtrace.SyscallVecEnd", "end of a SYSCALL_VEC", vec_fields, 4},
    {"tracerd.xtrace.Iov", "one iovec header of a SYSCALL_VEC", iov_fields, 5},
    {"tracerd.xtrace.Time", "a TIME token", time_fields, 4},
    {"tracerd.xtrace.Opaque", "a token a custom profile declares opaque", opaque_fields, 4},
    {"tracerd.xtrace.Layout", "the snapshot record layout the reader uses (once, first)",
     layout_fields, 17},
    {"tracerd.xtrace.Header", "the snapshot file header", header_fields, 9},
    {"tracerd.xtrace.Snapshot", "start of a snapshot: counters and X0..X31", snapshot_fields, 7},
    {"tracerd.xtrace.Register", "one Z, P, FFR or ZA register of a snapshot, whole",
     register_fields, 4},
    {"tracerd.xtrace.SnapshotEnd", "end of a snapshot: system registers", snapshot_end_fields, 14},
};

/* Made at module init, read-only afterwards. */
static PyTypeObject *types[T_COUNT];

#define ULL(x) ((unsigned long long)(x))

static PyObject *bytes_or_none(const uint8_t *data, size_t len)
{
    if (data == NULL && len != 0)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)len);
}

static const char *layout_name(tracerd_xtrace_iov_layout_t l)
{
    static const char *const names[] = {"interleaved", "grouped", "headers-only", "auto"};
    return (unsigned)l <= 3 ? names[l] : "unknown";
}

static int on_insn(void *user, const tracerd_xtrace_insn_t *i)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_INSN], "(KKKIbN)", ULL(i->offset),
                                                          ULL(i->index), ULL(i->pc), i->opcode,
                                                          i->el, PyBool_FromLong(i->explicit_pc)));
}

static int on_mem(void *user, const tracerd_xtrace_mem_t *m)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_MEM], "(KKKNKIbs)", ULL(m->offset), ULL(m->insn_count),
                             ULL(m->addr), bytes_or_none(m->value, m->size), ULL(m->value_u64),
                             m->size, m->el, m->is_store ? "store" : "load"));
}

static int on_val(void *user, const tracerd_xtrace_val_t *v)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_VAL], "(KKsK)", ULL(v->offset), ULL(v->insn_count),
                             tracerd_xtrace_val_kind_name(v->kind), ULL(v->value)));
}

/* X0..X31 as a tuple of ints; NULL with an exception set. */
static PyObject *gprs(const uint64_t x[32])
{
    PyObject *t = PyTuple_New(32);
    for (int i = 0; t != NULL && i < 32; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(x[i]);
        if (v == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static int on_allgpr(void *user, const tracerd_xtrace_allgpr_t *a)
{
    PyObject *x = gprs(a->x);
    if (x == NULL)
        return pytracerd_reader_push_obj(user, NULL);
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_ALLGPR], "(KKN)", ULL(a->offset), ULL(a->insn_count), x));
}

static int on_flags(void *user, const tracerd_xtrace_misc_flags_t *f)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_FLAGS], "(KKK)", ULL(f->offset),
                                                          ULL(f->insn_count), ULL(f->flags)));
}

static PyObject *vec(int t, const tracerd_xtrace_syscall_vec_t *v)
{
    return pytracerd_make(types[t], "(KKKs)", ULL(v->offset), ULL(v->insn_count), ULL(v->count),
                          layout_name(v->layout));
}

static int on_vec(void *user, const tracerd_xtrace_syscall_vec_t *v)
{
    return pytracerd_reader_push_obj(user, vec(T_VEC, v));
}

static int on_vec_end(void *user, const tracerd_xtrace_syscall_vec_t *v)
{
    return pytracerd_reader_push_obj(user, vec(T_VEC_END, v));
}

static int on_iov(void *user, const tracerd_xtrace_iov_t *i)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_IOV], "(KKIKK)", ULL(i->offset),
                                                          ULL(i->iov_offset), i->index,
                                                          ULL(i->base), ULL(i->len)));
}

static int on_time(void *user, const tracerd_xtrace_time_t *t)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_TIME], "(KKKN)", ULL(t->offset),
                                                          ULL(t->insn_count), ULL(t->value),
                                                          bytes_or_none(t->raw.data, t->raw.len)));
}

static int on_opaque(void *user, const tracerd_xtrace_opaque_t *o)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_OPAQUE], "(KKbN)", ULL(o->offset), ULL(o->insn_count),
                             o->token, bytes_or_none(o->payload.data, o->payload.len)));
}

void pytracerd_xtrace_callbacks(tracerd_xtrace_insn_callbacks_t *cbs)
{
    cbs->on_insn = on_insn;
    cbs->on_mem = on_mem;
    cbs->on_val = on_val;
    cbs->on_allgpr = on_allgpr;
    cbs->on_misc_flags = on_flags;
    cbs->on_syscall_vec = on_vec;
    cbs->on_iov = on_iov;
    cbs->on_syscall_vec_end = on_vec_end;
    cbs->on_time = on_time;
    cbs->on_opaque = on_opaque;
}

/* ---- snapshot files ---------------------------------------------------------- */

static int on_layout(void *user, const tracerd_xtrace_snap_layout_t *l)
{
    static const char *const p_layouts[] = {"auto", "block", "per-reg"};
    return pytracerd_reader_push_obj(
        user, pytracerd_make(
                  types[T_LAYOUT], "(sIIIIsNNIIIIIINII)", tracerd_byte_order_name(l->byte_order),
                  l->header_bytes, l->vector_length_bits, l->streaming_vector_length_bits,
                  l->storage_vector_length_bits,
                  (unsigned)l->p_layout <= 2 ? p_layouts[l->p_layout] : "unknown",
                  PyBool_FromLong(l->za_present), PyBool_FromLong(l->fixed_max), l->record_bytes,
                  l->z_offset, l->p_offset, l->ffr_offset, l->za_offset, l->sysreg_offset,
                  PyBool_FromLong(l->detected), l->candidates, l->records_checked));
}

static int on_header(void *user, const tracerd_xtrace_snap_header_t *h)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_HEADER], "(KIIIKbbbN)", ULL(h->offset), h->header_bytes,
                             h->ident, h->global_point, ULL(h->version), h->split_type,
                             h->stream_type, h->mem_order, bytes_or_none(h->pad.data, h->pad.len)));
}

static int on_snapshot(void *user, const tracerd_xtrace_snapshot_t *s)
{
    PyObject *x = gprs(s->x);
    if (x == NULL)
        return pytracerd_reader_push_obj(user, NULL);
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_SNAPSHOT], "(KKKKKKN)", ULL(s->offset), ULL(s->index),
                             ULL(s->file_no), ULL(s->file_index), ULL(s->user_insns),
                             ULL(s->total_insns), x));
}

/* A register arrives in pieces when it straddles fed chunks: the pieces are
 * joined in r->part (at most one register, TRACERD_XTRACE_SNAP_MAX_RECORD
 * bytes) so that the records do not depend on how the input was cut. */
static int on_register(void *user, const tracerd_span_t *s)
{
    pyreader *r = user;
    PyObject *data;
    if (s->offset == 0 && s->len == s->total) {
        data = PyBytes_FromStringAndSize((const char *)s->data, (Py_ssize_t)s->len);
    } else {
        if (s->offset == 0)
            Py_CLEAR(r->part);
        if (r->part == NULL && (r->part = PyByteArray_FromStringAndSize(NULL, 0)) == NULL)
            return pytracerd_reader_push_obj(r, NULL);
        Py_ssize_t n = PyByteArray_GET_SIZE(r->part);
        if (PyByteArray_Resize(r->part, n + (Py_ssize_t)s->len) != 0)
            return pytracerd_reader_push_obj(r, NULL);
        memcpy(PyByteArray_AS_STRING(r->part) + n, s->data, s->len);
        if (s->offset + s->len < s->total)
            return TRACERD_CB_CONTINUE;
        data = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(r->part),
                                         PyByteArray_GET_SIZE(r->part));
        Py_CLEAR(r->part);
    }
    if (data == NULL)
        return pytracerd_reader_push_obj(r, NULL);
    return pytracerd_reader_push_obj(
        r, pytracerd_make(types[T_REGISTER], "(KsIN)", ULL(s->record_offset),
                          tracerd_xtrace_field_name(s->field), s->index, data));
}

static int on_snapshot_end(void *user, const tracerd_xtrace_snapshot_end_t *e)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_SNAPSHOT_END], "(KKKKKKKKKKKKKK)", ULL(e->offset),
                             ULL(e->index), ULL(e->fpcr), ULL(e->fpsr), ULL(e->nzcv),
                             ULL(e->tpidr_el0), ULL(e->tpidrro_el0), ULL(e->ttbr0_el1),
                             ULL(e->elr_el1), ULL(e->spsr_el1), ULL(e->esr_el1), ULL(e->tpidr_el1),
                             ULL(e->daif), ULL(e->vector_length_bits)));
}

void pytracerd_xtrace_snap_callbacks(tracerd_xtrace_snap_callbacks_t *cbs)
{
    cbs->on_layout = on_layout;
    cbs->on_header = on_header;
    cbs->on_snapshot = on_snapshot;
    cbs->on_register = on_register;
    cbs->on_snapshot_end = on_snapshot_end;
}

int pytracerd_xtrace_init_types(PyObject *module)
{
    static const char *const names[T_COUNT] = {
        "XtraceInsn",      "XtraceMem",        "XtraceVal",           "XtraceAllGpr",
        "XtraceMiscFlags", "XtraceSyscallVec", "XtraceSyscallVecEnd", "XtraceIov",
        "XtraceTime",      "XtraceOpaque",     "XtraceLayout",        "XtraceHeader",
        "XtraceSnapshot",  "XtraceRegister",   "XtraceSnapshotEnd"};
    return pytracerd_add_types(module, descs, types, names, T_COUNT);
}
