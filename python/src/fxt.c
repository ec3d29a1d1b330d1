/* Typed FXT records (tracerd.fxt.open): each callback of the FXT reader makes
 * a named tuple (a struct sequence) and queues it on the reader. Arguments
 * become a dict; thread references become pid and tid. */
#include "pytracerd.h"

#define F(name)                                                                                    \
    {                                                                                              \
        name, NULL                                                                                 \
    }
static PyStructSequence_Field metadata_fields[] = {
    F("offset"),          F("type"),       F("provider_id"), F("name"), F("event"),
    F("trace_info_type"), F("byte_order"), {NULL, NULL}};
static PyStructSequence_Field init_fields[] = {
    F("offset"), F("provider_id"), F("ticks_per_second"), {NULL, NULL}};
static PyStructSequence_Field string_fields[] = {
    F("offset"), F("provider_id"), F("index"), F("string"), {NULL, NULL}};
static PyStructSequence_Field thread_fields[] = {F("offset"), F("provider_id"), F("index"),
                                                 F("pid"),    F("tid"),         {NULL, NULL}};
static PyStructSequence_Field event_fields[] = {
    F("offset"), F("provider_id"), F("type"),     F("ticks"),  F("ns"),
    F("pid"),    F("tid"),         F("category"), F("name"),   F("args"),
    F("id"),     F("end_ticks"),   F("end_ns"),   {NULL, NULL}};
static PyStructSequence_Field blob_fields[] = {F("offset"),    F("provider_id"), F("name"),
                                               F("blob_type"), F("payload"),     {NULL, NULL}};
static PyStructSequence_Field uobject_fields[] = {F("offset"), F("provider_id"), F("pointer"),
                                                  F("pid"),    F("tid"),         F("name"),
                                                  F("args"),   {NULL, NULL}};
static PyStructSequence_Field kobject_fields[] = {
    F("offset"), F("provider_id"), F("koid"), F("object_type"), F("name"), F("args"), {NULL, NULL}};
static PyStructSequence_Field sched_fields[] = {F("offset"),
                                                F("provider_id"),
                                                F("type"),
                                                F("ticks"),
                                                F("ns"),
                                                F("cpu"),
                                                F("outgoing_state"),
                                                F("outgoing_pid"),
                                                F("outgoing_tid"),
                                                F("incoming_pid"),
                                                F("incoming_tid"),
                                                F("waking_tid"),
                                                F("outgoing_priority"),
                                                F("incoming_priority"),
                                                F("args"),
                                                {NULL, NULL}};
static PyStructSequence_Field log_fields[] = {F("offset"),  F("provider_id"), F("ticks"),
                                              F("ns"),      F("pid"),         F("tid"),
                                              F("message"), {NULL, NULL}};
static PyStructSequence_Field large_blob_fields[] = {
    F("offset"), F("provider_id"), F("format"), F("category"), F("name"),    F("ticks"),  F("ns"),
    F("pid"),    F("tid"),         F("args"),   F("size"),     F("payload"), {NULL, NULL}};
static PyStructSequence_Field unknown_fields[] = {F("offset"), F("kind"), F("type"),   F("header"),
                                                  F("size"),   F("raw"),  {NULL, NULL}};
#undef F

enum {
    T_METADATA,
    T_INIT,
    T_STRING,
    T_THREAD,
    T_EVENT,
    T_BLOB,
    T_UOBJECT,
    T_KOBJECT,
    T_SCHED,
    T_LOG,
    T_LARGE_BLOB,
    T_UNKNOWN,
    T_COUNT
};

static PyStructSequence_Desc descs[T_COUNT] = {
    {"tracerd.fxt.Metadata", "metadata record (provider info/section/event, trace info)",
     metadata_fields, 7},
    {"tracerd.fxt.Init", "initialization record", init_fields, 3},
    {"tracerd.fxt.String", "string record", string_fields, 4},
    {"tracerd.fxt.Thread", "thread record", thread_fields, 5},
    {"tracerd.fxt.Event", "event record", event_fields, 13},
    {"tracerd.fxt.Blob", "blob record", blob_fields, 5},
    {"tracerd.fxt.UserspaceObject", "userspace object record", uobject_fields, 7},
    {"tracerd.fxt.KernelObject", "kernel object record", kobject_fields, 6},
    {"tracerd.fxt.Scheduling", "context switch or thread wakeup", sched_fields, 15},
    {"tracerd.fxt.Log", "log record", log_fields, 7},
    {"tracerd.fxt.LargeBlob", "large blob record (payload None when it comes in fragments)",
     large_blob_fields, 12},
    {"tracerd.fxt.Unknown", "a record, argument or type this reader does not know (skipped)",
     unknown_fields, 6},
};

/* Made at module init, read-only afterwards. */
static PyTypeObject *types[T_COUNT];

static PyObject *str_of(tracerd_str_t s)
{
    return PyUnicode_DecodeUTF8(s.data != NULL ? s.data : "", (Py_ssize_t)s.len, "surrogateescape");
}

static PyObject *bytes_of(tracerd_bytes_t b)
{
    if (b.data == NULL && b.len != 0)
        Py_RETURN_NONE; /* comes in fragments */
    return PyBytes_FromStringAndSize((const char *)b.data, (Py_ssize_t)b.len);
}

static PyObject *arg_value(const tracerd_fxt_arg_t *a)
{
    switch (a->type) {
    case TRACERD_FXT_ARG_NULL:
        Py_RETURN_NONE;
    case TRACERD_FXT_ARG_INT32:
    case TRACERD_FXT_ARG_INT64:
        return PyLong_FromLongLong(a->v.i64);
    case TRACERD_FXT_ARG_UINT32:
    case TRACERD_FXT_ARG_UINT64:
    case TRACERD_FXT_ARG_POINTER:
    case TRACERD_FXT_ARG_KOID:
        return PyLong_FromUnsignedLongLong(a->v.u64);
    case TRACERD_FXT_ARG_BOOL:
        return PyBool_FromLong(a->v.u64 != 0);
    case TRACERD_FXT_ARG_DOUBLE:
        return PyFloat_FromDouble(a->v.f64);
    case TRACERD_FXT_ARG_STRING:
        return str_of(a->v.str);
    default: /* BLOB, and the raw words of an unknown type */
        return bytes_of(a->v.blob);
    }
}

static PyObject *args_of(const tracerd_fxt_arg_t *args, uint32_t n)
{
    PyObject *d = PyDict_New();
    for (uint32_t i = 0; d != NULL && i < n; i++) {
        PyObject *k = str_of(args[i].name), *v = k ? arg_value(&args[i]) : NULL;
        if (v == NULL || PyDict_SetItem(d, k, v) != 0)
            Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return d;
}

#define ULL(x) ((unsigned long long)(x))

static int on_metadata(void *user, const tracerd_fxt_metadata_t *m)
{
    static const char *const names[] = {"unknown", "provider-info", "provider-section",
                                        "provider-event", "trace-info"};
    const char *type = (unsigned)m->type <= 4 ? names[m->type] : "unknown";
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_METADATA], "(KsINIIs)", ULL(m->offset), type, m->provider_id,
                             str_of(m->name), m->event, m->trace_info_type,
                             tracerd_byte_order_name(m->byte_order)));
}

static int on_init(void *user, const tracerd_fxt_init_t *i)
{
    return pytracerd_reader_push_obj(user,
                                     pytracerd_make(types[T_INIT], "(KIK)", ULL(i->offset),
                                                    i->provider_id, ULL(i->ticks_per_second)));
}

static int on_string(void *user, const tracerd_fxt_string_t *s)
{
    return pytracerd_reader_push_obj(user,
                                     pytracerd_make(types[T_STRING], "(KIHN)", ULL(s->offset),
                                                    s->provider_id, s->index, str_of(s->str)));
}

static int on_thread(void *user, const tracerd_fxt_thread_rec_t *t)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_THREAD], "(KIbKK)",
                                                          ULL(t->offset), t->provider_id, t->index,
                                                          ULL(t->pid), ULL(t->tid)));
}

static int on_event(void *user, const tracerd_fxt_event_t *e)
{
    return pytracerd_reader_push_obj(
        user,
        pytracerd_make(types[T_EVENT], "(KIsKKKKNNNKKK)", ULL(e->offset), e->provider_id,
                       tracerd_fxt_event_type_name(e->type), ULL(e->ticks), ULL(e->ns),
                       ULL(e->thread.pid), ULL(e->thread.tid), str_of(e->category), str_of(e->name),
                       args_of(e->args, e->nargs), ULL(e->id), ULL(e->end_ticks), ULL(e->end_ns)));
}

static int on_blob(void *user, const tracerd_fxt_blob_t *b)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_BLOB], "(KININ)", ULL(b->offset),
                                                          b->provider_id, str_of(b->name),
                                                          b->blob_type, bytes_of(b->payload)));
}

static int on_uobject(void *user, const tracerd_fxt_userspace_object_t *o)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_UOBJECT], "(KIKKKNN)", ULL(o->offset), o->provider_id,
                             ULL(o->pointer), ULL(o->process.pid), ULL(o->process.tid),
                             str_of(o->name), args_of(o->args, o->nargs)));
}

static int on_kobject(void *user, const tracerd_fxt_kernel_object_t *o)
{
    return pytracerd_reader_push_obj(user,
                                     pytracerd_make(types[T_KOBJECT], "(KIKINN)", ULL(o->offset),
                                                    o->provider_id, ULL(o->koid), o->object_type,
                                                    str_of(o->name), args_of(o->args, o->nargs)));
}

static int on_sched(void *user, const tracerd_fxt_scheduling_t *s)
{
    static const char *const names[] = {"legacy-context-switch", "context-switch", "thread-wakeup"};
    const char *type = (unsigned)s->type <= 2 ? names[s->type] : "unknown";
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_SCHED], "(KIsKKIIKKKKKIIN)", ULL(s->offset), s->provider_id,
                             type, ULL(s->ticks), ULL(s->ns), s->cpu, s->outgoing_state,
                             ULL(s->outgoing.pid), ULL(s->outgoing.tid), ULL(s->incoming.pid),
                             ULL(s->incoming.tid), ULL(s->waking_tid), s->outgoing_priority,
                             s->incoming_priority, args_of(s->args, s->nargs)));
}

static int on_log(void *user, const tracerd_fxt_log_t *l)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_LOG], "(KIKKKKN)", ULL(l->offset),
                                                          l->provider_id, ULL(l->ticks), ULL(l->ns),
                                                          ULL(l->thread.pid), ULL(l->thread.tid),
                                                          str_of(l->message)));
}

static int on_large_blob(void *user, const tracerd_fxt_large_blob_t *b)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_LARGE_BLOB], "(KIINNKKKKNKN)", ULL(b->offset), b->provider_id,
                             (unsigned)b->format, str_of(b->category), str_of(b->name),
                             ULL(b->ticks), ULL(b->ns), ULL(b->thread.pid), ULL(b->thread.tid),
                             args_of(b->args, b->nargs), ULL(b->size), bytes_of(b->payload)));
}

static int on_unknown(void *user, const tracerd_fxt_unknown_t *u)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_UNKNOWN], "(KIIKKN)", ULL(u->offset), (unsigned)u->kind,
                             u->type, ULL(u->header), ULL(u->size), bytes_of(u->raw)));
}

void pytracerd_fxt_callbacks(tracerd_fxt_callbacks_t *cbs)
{
    cbs->on_metadata = on_metadata;
    cbs->on_init = on_init;
    cbs->on_string = on_string;
    cbs->on_thread = on_thread;
    cbs->on_event = on_event;
    cbs->on_blob = on_blob;
    cbs->on_userspace_object = on_uobject;
    cbs->on_kernel_object = on_kobject;
    cbs->on_scheduling = on_sched;
    cbs->on_log = on_log;
    cbs->on_large_blob = on_large_blob;
    cbs->on_unknown = on_unknown;
}

int pytracerd_fxt_init_types(PyObject *module)
{
    static const char *const names[T_COUNT] = {
        "FxtMetadata",   "FxtInit", "FxtString",          "FxtThread",
        "FxtEvent",      "FxtBlob", "FxtUserspaceObject", "FxtKernelObject",
        "FxtScheduling", "FxtLog",  "FxtLargeBlob",       "FxtUnknown"};
    return pytracerd_add_types(module, descs, types, names, T_COUNT);
}
