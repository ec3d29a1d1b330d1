/* Typed records, shared part: struct sequences made from Py_BuildValue
 * formats, the payload Fragment type, and the creation of a typed reader
 * (one per format: xray.c, fxt.c, xtrace.c) through its ops table. */
#include "pytracerd.h"

static PyStructSequence_Field fragment_fields[] = {
    {"field", "which payload (the format's TRACERD_<FMT>_FIELD_* value)"},
    {"index", NULL},
    {"record_offset", "absolute offset of the record the payload belongs to"},
    {"offset", "offset of data[0] within the whole payload"},
    {"total", "length of the whole payload"},
    {"data", "bytes"},
    {NULL, NULL},
};
static PyStructSequence_Desc fragment_desc = {
    "tracerd.Fragment", "a piece of a payload above the reader's stitch bound", fragment_fields, 6};
/* Made at module init, read-only afterwards. */
static PyTypeObject *fragment_type;

PyObject *pytracerd_make(PyTypeObject *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject *tuple = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    if (tuple == NULL)
        return NULL;
    PyObject *o = PyStructSequence_New(t);
    if (o != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++) {
            PyObject *v = PyTuple_GET_ITEM(tuple, i);
            Py_INCREF(v);
            PyStructSequence_SET_ITEM(o, i, v);
        }
    }
    Py_DECREF(tuple);
    return o;
}

PyObject *pytracerd_opt_int(int present, long long v)
{
    if (!present)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(v);
}

PyObject *pytracerd_fragment(const tracerd_span_t *s)
{
    return pytracerd_make(fragment_type, "(IIKKKy#)", s->field, s->index,
                          (unsigned long long)s->record_offset, (unsigned long long)s->offset,
                          (unsigned long long)s->total, (const char *)s->data, (Py_ssize_t)s->len);
}

int pytracerd_add_types(PyObject *module, PyStructSequence_Desc *descs, PyTypeObject **types,
                        const char *const *names, int n)
{
    for (int t = 0; t < n; t++) {
        if (types[t] == NULL && (types[t] = PyStructSequence_NewType(&descs[t])) == NULL)
            return -1;
        Py_INCREF(types[t]);
        if (PyModule_AddObject(module, names[t], (PyObject *)types[t]) != 0) {
            Py_DECREF(types[t]);
            return -1;
        }
    }
    return 0;
}

int pytracerd_typed_init_types(PyObject *module)
{
    static const char *const names[] = {"Fragment"};
    return pytracerd_add_types(module, &fragment_desc, &fragment_type, names, 1);
}

static int span_cb(void *user, const tracerd_span_t *s)
{
    return pytracerd_reader_push_obj(user, pytracerd_fragment(s));
}

/* Each typed format: its ops table and the function that fills its config
 * (byte order, leniency) and callbacks (the format's records, payload
 * fragments, warnings) into the unions below. */
union typed_config {
    tracerd_xray_config_t xray;
    tracerd_fxt_config_t fxt;
    tracerd_xtrace_insn_config_t insn;
    tracerd_xtrace_snap_config_t snap;
};
union typed_callbacks {
    tracerd_xray_callbacks_t xray;
    tracerd_fxt_callbacks_t fxt;
    tracerd_xtrace_insn_callbacks_t insn;
    tracerd_xtrace_snap_callbacks_t snap;
};

static void setup_xray(union typed_config *c, union typed_callbacks *b, int lenient,
                       tracerd_byte_order_t bo)
{
    tracerd_xray_config_init(&c->xray);
    c->xray.byte_order = bo;
    c->xray.lenient_skip_buffers = lenient != 0;
    tracerd_xray_callbacks_init(&b->xray);
    pytracerd_xray_callbacks(&b->xray);
    b->xray.on_event_fragment = span_cb;
    b->xray.on_warning = pytracerd_reader_on_warning;
}

static void setup_fxt(union typed_config *c, union typed_callbacks *b, int lenient,
                      tracerd_byte_order_t bo)
{
    tracerd_fxt_config_init(&c->fxt);
    c->fxt.byte_order = bo;
    c->fxt.lenient = lenient != 0;
    tracerd_fxt_callbacks_init(&b->fxt);
    pytracerd_fxt_callbacks(&b->fxt);
    b->fxt.on_large_blob_fragment = span_cb;
    b->fxt.on_warning = pytracerd_reader_on_warning;
}

static void setup_insn(union typed_config *c, union typed_callbacks *b, int lenient,
                       tracerd_byte_order_t bo)
{
    (void)bo; /* the instruction stream is little-endian */
    tracerd_xtrace_insn_config_init(&c->insn);
    c->insn.allow_trailing_zero_padding = lenient != 0;
    c->insn.allow_truncated_tail = lenient != 0;
    tracerd_xtrace_insn_callbacks_init(&b->insn);
    pytracerd_xtrace_callbacks(&b->insn);
    b->insn.on_mem_fragment = span_cb;
    b->insn.on_iov_data = span_cb;
    b->insn.on_warning = pytracerd_reader_on_warning;
}

static void setup_snap(union typed_config *c, union typed_callbacks *b, int lenient,
                       tracerd_byte_order_t bo)
{
    tracerd_xtrace_snap_config_init(&c->snap);
    c->snap.byte_order = bo;
    c->snap.allow_truncated_tail = lenient != 0;
    tracerd_xtrace_snap_callbacks_init(&b->snap);
    pytracerd_xtrace_snap_callbacks(&b->snap);
    b->snap.on_warning = pytracerd_reader_on_warning;
}

static const struct typed_format {
    const char *name;
    const tracerd_reader_ops_t *(*ops)(void);
    void (*setup)(union typed_config *c, union typed_callbacks *b, int lenient,
                  tracerd_byte_order_t bo);
} typed_formats[] = {
    {"xray", tracerd_xray_ops, setup_xray},
    {"fxt", tracerd_fxt_ops, setup_fxt},
    {"xtrace", tracerd_xtrace_insn_ops, setup_insn},
    {"xtrace-snap", tracerd_xtrace_snap_ops, setup_snap},
};

int pytracerd_typed_open(pyreader *r, const char *name, int lenient, tracerd_byte_order_t bo,
                         const tracerd_allocator_t *alloc)
{
    const struct typed_format *f = NULL;
    for (size_t i = 0; i < sizeof typed_formats / sizeof typed_formats[0] && f == NULL; i++)
        if (strcmp(name, typed_formats[i].name) == 0)
            f = &typed_formats[i];
    if (f == NULL) {
        PyErr_Format(PyExc_ValueError, "no typed reader for %s (xray, fxt, xtrace, xtrace-snap)",
                     name);
        return -1;
    }
    union typed_config cfg;
    union typed_callbacks cbs;
    f->setup(&cfg, &cbs, lenient, bo);
    r->ops = f->ops();
    tracerd_status_t st = r->ops->new_reader(&cfg, &cbs, r, alloc, &r->impl);
    if (st != TRACERD_OK) {
        r->impl = NULL;
        pytracerd_raise(st, 0, "cannot create the reader", NULL);
        return -1;
    }
    return 0;
}
