/* Typed XRay records (tracerd.xray.open): each callback of the XRay reader
 * makes a named tuple (a struct sequence) and queues it on the reader. */
#include "pytracerd.h"

#define F(name, doc)                                                                               \
    {                                                                                              \
        name, doc                                                                                  \
    }
static PyStructSequence_Field header_fields[] = {
    F("version", NULL),     F("type", "'basic' or 'fdr'"),
    F("flags", NULL),       F("constant_tsc", NULL),
    F("nonstop_tsc", NULL), F("cycle_frequency", "Hz; 0: no ns"),
    F("buffer_size", NULL), F("byte_order", "'little' or 'big'"),
    {NULL, NULL},
};
static PyStructSequence_Field buffer_fields[] = {
    F("offset", NULL),
    F("size", NULL),
    F("tid", NULL),
    F("pid", "None if unknown"),
    F("wall_seconds", "None if no walltime"),
    F("wall_micros", NULL),
    {NULL, NULL},
};
static PyStructSequence_Field buffer_end_fields[] = {
    F("offset", NULL),
    F("filler_bytes", NULL),
    {NULL, NULL},
};
static PyStructSequence_Field function_fields[] = {
    F("offset", NULL),      F("kind", "'enter', 'exit', 'tail-exit', 'enter-args'"),
    F("function_id", NULL), F("tsc", NULL),
    F("ns", NULL),          F("delta", NULL),
    F("tid", NULL),         F("pid", NULL),
    F("cpu", NULL),         F("args", "tuple of call arguments"),
    {NULL, NULL},
};
static PyStructSequence_Field event_fields[] = {
    F("offset", NULL),     F("typed", NULL),
    F("event_type", NULL), F("tsc", NULL),
    F("ns", NULL),         F("tid", NULL),
    F("pid", NULL),        F("cpu", NULL),
    F("size", NULL),       F("payload", "bytes, or None when it arrives in fragments"),
    {NULL, NULL},
};
static PyStructSequence_Field metadata_fields[] = {
    F("offset", NULL),   F("kind", "'new-buffer', 'new-cpu', ..."),
    F("tid", NULL),      F("pid", NULL),
    F("cpu", NULL),      F("tsc", NULL),
    F("seconds", NULL),  F("micros", NULL),
    F("argument", NULL), F("extent", NULL),
    {NULL, NULL},
};
#undef F

enum { T_HEADER, T_BUFFER, T_BUFFER_END, T_FUNCTION, T_EVENT, T_METADATA, T_COUNT };

static PyStructSequence_Desc descs[T_COUNT] = {
    {"tracerd.xray.Header", "the file header", header_fields, 8},
    {"tracerd.xray.Buffer", "start of an FDR thread buffer", buffer_fields, 6},
    {"tracerd.xray.BufferEnd", "end of an FDR thread buffer", buffer_end_fields, 2},
    {"tracerd.xray.Function", "a function entry or exit", function_fields, 10},
    {"tracerd.xray.CustomEvent", "a custom or typed event", event_fields, 10},
    {"tracerd.xray.Metadata", "any other metadata record", metadata_fields, 10},
};

/* Made at module init, read-only afterwards. */
static PyTypeObject *types[T_COUNT];

static int on_header(void *user, const tracerd_xray_header_t *h)
{
    return pytracerd_reader_push_obj(
        user,
        pytracerd_make(types[T_HEADER], "(HsINNKKs)", h->version,
                       h->type == TRACERD_XRAY_TYPE_FDR ? "fdr" : "basic", (unsigned)h->flags,
                       PyBool_FromLong(h->constant_tsc), PyBool_FromLong(h->nonstop_tsc),
                       (unsigned long long)h->cycle_frequency, (unsigned long long)h->buffer_size,
                       tracerd_byte_order_name(h->byte_order)));
}

static int on_buffer(void *user, const tracerd_xray_buffer_t *b)
{
    return pytracerd_reader_push_obj(
        user,
        pytracerd_make(types[T_BUFFER], "(KKiNNN)", (unsigned long long)b->offset,
                       (unsigned long long)b->size, b->tid, pytracerd_opt_int(b->has_pid, b->pid),
                       pytracerd_opt_int(b->has_walltime, (long long)b->wall_seconds),
                       pytracerd_opt_int(b->has_walltime, b->wall_micros)));
}

static int on_buffer_end(void *user, const tracerd_xray_buffer_end_t *e)
{
    return pytracerd_reader_push_obj(user, pytracerd_make(types[T_BUFFER_END], "(KK)",
                                                          (unsigned long long)e->offset,
                                                          (unsigned long long)e->filler_bytes));
}

static int on_function(void *user, const tracerd_xray_function_t *f)
{
    PyObject *args = PyTuple_New(f->nargs);
    if (args == NULL)
        return pytracerd_reader_push_obj(user, NULL);
    for (uint32_t i = 0; i < f->nargs; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(f->args[i]);
        if (v == NULL) {
            Py_DECREF(args);
            return pytracerd_reader_push_obj(user, NULL);
        }
        PyTuple_SET_ITEM(args, i, v);
    }
    return pytracerd_reader_push_obj(
        user,
        pytracerd_make(types[T_FUNCTION], "(KsiKKIiiHN)", (unsigned long long)f->offset,
                       tracerd_xray_kind_name(f->kind), f->function_id, (unsigned long long)f->tsc,
                       (unsigned long long)f->ns, f->delta, f->tid, f->pid, f->cpu, args));
}

static int on_xevent(void *user, const tracerd_xray_event_t *e)
{
    PyObject *payload;
    if (e->payload.data != NULL)
        payload =
            PyBytes_FromStringAndSize((const char *)e->payload.data, (Py_ssize_t)e->payload.len);
    else {
        payload = Py_None;
        Py_INCREF(payload);
    }
    if (payload == NULL)
        return pytracerd_reader_push_obj(user, NULL);
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_EVENT], "(KNHKKiiHIN)", (unsigned long long)e->offset,
                             PyBool_FromLong(e->typed), e->event_type, (unsigned long long)e->tsc,
                             (unsigned long long)e->ns, e->tid, e->pid, e->cpu, e->size, payload));
}

static int on_metadata(void *user, const tracerd_xray_metadata_t *m)
{
    return pytracerd_reader_push_obj(
        user, pytracerd_make(types[T_METADATA], "(KsiiHKKIKK)", (unsigned long long)m->offset,
                             tracerd_xray_meta_kind_name(m->kind), m->tid, m->pid, m->cpu,
                             (unsigned long long)m->tsc, (unsigned long long)m->seconds, m->micros,
                             (unsigned long long)m->argument, (unsigned long long)m->extent));
}

void pytracerd_xray_callbacks(tracerd_xray_callbacks_t *cbs)
{
    cbs->on_header = on_header;
    cbs->on_buffer = on_buffer;
    cbs->on_buffer_end = on_buffer_end;
    cbs->on_function = on_function;
    cbs->on_event = on_xevent;
    cbs->on_metadata = on_metadata;
}

int pytracerd_xray_init_types(PyObject *module)
{
    static const char *const names[T_COUNT] = {"XrayHeader",   "XrayBuffer",      "XrayBufferEnd",
                                               "XrayFunction", "XrayCustomEvent", "XrayMetadata"};
    return pytracerd_add_types(module, descs, types, names, T_COUNT);
}
