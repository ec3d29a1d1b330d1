/* The batch path: Reader.read_batch(n) hands out columns of the queued
 * events as memoryviews over memory this module owns (tracerd._Column,
 * a buffer-protocol exporter), so numpy.asarray() / pandas wrap them
 * without a copy and without NumPy being a dependency. */
#include "pytracerd.h"

#include <stdlib.h>

typedef struct {
    PyObject_HEAD void *data;
    Py_ssize_t n, itemsize;
    char format[2];
    Py_ssize_t shape[1], strides[1];
} pycolumn;

static void column_dealloc(pycolumn *c)
{
    PyMem_RawFree(c->data);
    PyObject_Free(c);
}

static int column_getbuffer(pycolumn *c, Py_buffer *view, int flags)
{
    view->obj = (PyObject *)c;
    Py_INCREF(c);
    view->buf = c->data;
    view->len = c->n * c->itemsize;
    view->readonly = 0;
    view->itemsize = c->itemsize;
    view->format = (flags & PyBUF_FORMAT) ? c->format : NULL;
    view->ndim = 1;
    view->shape = (flags & PyBUF_ND) ? c->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? c->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    return 0;
}

static PyBufferProcs column_as_buffer = {(getbufferproc)column_getbuffer, NULL};

PyTypeObject PyTracerdColumn_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tracerd._Column",
    .tp_basicsize = sizeof(pycolumn),
    .tp_dealloc = (destructor)column_dealloc,
    .tp_as_buffer = &column_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Memory of one batch column (use the memoryview around it).",
};

/* A column of n items of the struct-module format `fmt`; its memory is in *data. */
static pycolumn *column_new(Py_ssize_t n, Py_ssize_t itemsize, char fmt, void **data)
{
    pycolumn *c = PyObject_New(pycolumn, &PyTracerdColumn_Type);
    if (c == NULL)
        return NULL;
    c->data = PyMem_RawMalloc(n > 0 ? (size_t)(n * itemsize) : 1);
    if (c->data == NULL) {
        c->n = 0;
        Py_DECREF(c);
        PyErr_NoMemory();
        return NULL;
    }
    c->n = n;
    c->itemsize = itemsize;
    c->format[0] = fmt;
    c->format[1] = '\0';
    c->shape[0] = n;
    c->strides[0] = itemsize;
    *data = c->data;
    return c;
}

static PyStructSequence_Field batch_fields[] = {
    {"times", "uint64 (Q): ns when the trace has a clock rate, else ticks; 0 without time"},
    {"end_times", "uint64 (Q): end of complete spans (ns, else ticks), else 0"},
    {"kinds", "uint8 (B): event kind (index of tracerd.KINDS)"},
    {"names", "uint32 (I): index of the event's name in name_table"},
    {"name_table", "list of str: every name seen by the reader so far (ids are stable)"},
    {"categories", "uint32 (I): index of the category in category_table"},
    {"category_table", "list of str: every category seen so far"},
    {"pids", "int64 (q): process id, -1 when unknown"},
    {"tids", "int64 (q): thread id, -1 when unknown"},
    {"cpus", "int32 (i): cpu, -1 when unknown"},
    {NULL, NULL},
};

static PyStructSequence_Desc batch_desc = {
    "tracerd.Batch",
    "Columns of a batch of events (Reader.read_batch): memoryviews NumPy and pandas wrap "
    "without a copy (numpy.asarray(batch.times)).",
    batch_fields,
    10,
};

static PyTypeObject *batch_type;

enum { C_TIMES, C_END, C_KINDS, C_NAMES, C_CATS, C_PIDS, C_TIDS, C_CPUS, C_COUNT };

PyObject *pytracerd_batch_take(evqueue *q, size_t n)
{
    static const char fmts[C_COUNT] = {'Q', 'Q', 'B', 'I', 'I', 'q', 'q', 'i'};
    static const Py_ssize_t sizes[C_COUNT] = {8, 8, 1, 4, 4, 8, 8, 4};
    if (n > evq_count(q))
        n = evq_count(q);
    PyObject *cols[C_COUNT] = {NULL};
    void *data[C_COUNT];
    PyObject *batch = NULL;
    for (int i = 0; i < C_COUNT; i++) {
        cols[i] = (PyObject *)column_new((Py_ssize_t)n, sizes[i], fmts[i], &data[i]);
        if (cols[i] == NULL)
            goto done;
    }
    uint64_t *times = data[C_TIMES], *ends = data[C_END];
    uint8_t *kinds = data[C_KINDS];
    uint32_t *names = data[C_NAMES], *cats = data[C_CATS];
    int64_t *pids = data[C_PIDS], *tids = data[C_TIDS];
    int32_t *cpus = data[C_CPUS];
    const qev *ev = q->ev + q->head;
    for (size_t i = 0; i < n; i++) {
        const qev *e = &ev[i];
        int ns = (e->flags & TRACERD_EVENT_HAS_NS) != 0;
        times[i] = ns ? e->ns : e->ticks;
        ends[i] = e->kind == TRACERD_EVENT_SPAN_COMPLETE ? (ns ? e->end_ns : e->end_ticks) : 0;
        kinds[i] = e->kind;
        names[i] = e->name;
        cats[i] = e->category;
        pids[i] = (e->flags & TRACERD_EVENT_HAS_PID) ? (int64_t)e->pid : -1;
        tids[i] = (e->flags & TRACERD_EVENT_HAS_TID) ? (int64_t)e->tid : -1;
        cpus[i] = (e->flags & TRACERD_EVENT_HAS_CPU) ? (int32_t)e->cpu : -1;
    }
    batch = PyStructSequence_New(batch_type);
    if (batch == NULL)
        goto done;
    static const int slot[C_COUNT] = {0, 1, 2, 3, 5, 7, 8, 9};
    for (int i = 0; i < C_COUNT; i++) {
        PyObject *mv = PyMemoryView_FromObject(cols[i]);
        if (mv == NULL) {
            Py_CLEAR(batch);
            goto done;
        }
        PyStructSequence_SET_ITEM(batch, slot[i], mv);
    }
    PyObject *nt = itable_list(&q->names), *ct = nt ? itable_list(&q->categories) : NULL;
    if (ct == NULL) {
        Py_XDECREF(nt);
        Py_CLEAR(batch);
        goto done;
    }
    PyStructSequence_SET_ITEM(batch, 4, nt);
    PyStructSequence_SET_ITEM(batch, 6, ct);
    q->head += n;
    evq_compact(q);
done:
    for (int i = 0; i < C_COUNT; i++)
        Py_XDECREF(cols[i]);
    return batch;
}

int pytracerd_batch_init_types(PyObject *module)
{
    if (PyType_Ready(&PyTracerdColumn_Type) != 0)
        return -1;
    if (batch_type == NULL) {
        batch_type = PyStructSequence_NewType(&batch_desc);
        if (batch_type == NULL)
            return -1;
    }
    Py_INCREF(batch_type);
    if (PyModule_AddObject(module, "Batch", (PyObject *)batch_type) != 0) {
        Py_DECREF(batch_type);
        return -1;
    }
    return 0;
}
