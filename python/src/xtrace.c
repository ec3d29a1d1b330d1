/* Typed xtrace instruction-stream records (tracerd.xtrace.open): each
 * callback of the xtrace instruction reader makes a named tuple (a struct
 * sequence) and queues it on the reader. */
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

static int on_allgpr(void *user, const tracerd_xtrace_allgpr_t *a)
{
    PyObject *x = PyTuple_New(32);
    for (int i = 0; x != NULL && i < 32; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(a->x[i]);
        if (v == NULL)
            Py_CLEAR(x);
        else
            PyTuple_SET_ITEM(x, i, v);
    }
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

int pytracerd_xtrace_init_types(PyObject *module)
{
    static const char *const names[T_COUNT] = {
        "XtraceInsn",       "XtraceMem",           "XtraceVal", "XtraceAllGpr", "XtraceMiscFlags",
        "XtraceSyscallVec", "XtraceSyscallVecEnd", "XtraceIov", "XtraceTime",   "XtraceOpaque"};
    return pytracerd_add_types(module, descs, types, names, T_COUNT);
}
