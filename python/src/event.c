/* tracerd.Event: one event of the format-neutral view, made from a queued
 * copy. Numbers stay C values until read (getters); the name and category
 * are the reader's interned strs; the args dict is built once, here. */
#include "pytracerd.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD qev e;
    PyObject *name, *category, *message, *args;
} pyevent;

#define KIND_MAX 18
#define FORMAT_MAX 4
/* Static strs made at module init, read-only afterwards. */
static PyObject *kind_strs[KIND_MAX + 1];
static PyObject *format_strs[FORMAT_MAX + 1];

PyObject *pytracerd_kind_str(unsigned kind)
{
    return kind <= KIND_MAX ? kind_strs[kind] : kind_strs[0];
}

PyObject *pytracerd_format_str(unsigned format)
{
    return format <= FORMAT_MAX ? format_strs[format] : format_strs[0];
}

static PyObject *arg_value(const struct qarg *qa, const unsigned char *data)
{
    switch (qa->type) {
    case TRACERD_EVENT_ARG_INT:
        return PyLong_FromLongLong(qa->v.i);
    case TRACERD_EVENT_ARG_UINT:
    case TRACERD_EVENT_ARG_POINTER:
    case TRACERD_EVENT_ARG_KOID:
        return PyLong_FromUnsignedLongLong(qa->v.u);
    case TRACERD_EVENT_ARG_DOUBLE:
        return PyFloat_FromDouble(qa->v.d);
    case TRACERD_EVENT_ARG_BOOL:
        return PyBool_FromLong(qa->v.u != 0);
    case TRACERD_EVENT_ARG_STRING:
        return PyUnicode_DecodeUTF8((const char *)data, (Py_ssize_t)qa->len, "surrogateescape");
    case TRACERD_EVENT_ARG_BYTES:
        return PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)qa->len);
    default:
        Py_RETURN_NONE;
    }
}

static PyObject *make_args(evqueue *q, const qev *e)
{
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    size_t off = e->args_off;
    for (uint32_t i = 0; i < e->nargs; i++) {
        struct qarg qa;
        memcpy(&qa, q->arena + off, sizeof qa);
        PyObject *k = itable_str(&q->argnames, qa.name);
        PyObject *v = k != NULL ? arg_value(&qa, q->arena + off + sizeof qa) : NULL;
        if (v == NULL || PyDict_SetItem(d, k, v) != 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
        off = qarg_next(q->arena, off);
    }
    return d;
}

PyObject *pytracerd_event_new(evqueue *q, const qev *e)
{
    pyevent *ev = PyObject_New(pyevent, &PyTracerdEvent_Type);
    if (ev == NULL)
        return NULL;
    ev->e = *e;
    ev->name = itable_str(&q->names, e->name);
    ev->category = itable_str(&q->categories, e->category);
    ev->message = NULL;
    ev->args = NULL;
    Py_XINCREF(ev->name);
    Py_XINCREF(ev->category);
    if (ev->name == NULL || ev->category == NULL)
        goto fail;
    if (e->nargs != 0) {
        ev->args = make_args(q, e);
        if (ev->args == NULL)
            goto fail;
    }
    if (e->msg_len != 0) {
        ev->message = PyUnicode_DecodeUTF8((const char *)q->arena + e->msg_off,
                                           (Py_ssize_t)e->msg_len, "surrogateescape");
        if (ev->message == NULL)
            goto fail;
    }
    return (PyObject *)ev;
fail:
    Py_DECREF(ev);
    return NULL;
}

static void event_dealloc(pyevent *ev)
{
    Py_XDECREF(ev->name);
    Py_XDECREF(ev->category);
    Py_XDECREF(ev->message);
    Py_XDECREF(ev->args);
    PyObject_Free(ev);
}

/* ---- getters -------------------------------------------------------------- */

#define FLAG(ev, f) (((ev)->e.flags & TRACERD_EVENT_##f) != 0)

static PyObject *u64_if(int ok, uint64_t v)
{
    if (!ok)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *get_time(pyevent *ev, void *c)
{
    (void)c;
    if (FLAG(ev, NO_TIME))
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(FLAG(ev, HAS_NS) ? ev->e.ns : ev->e.ticks);
}
static PyObject *get_end_time(pyevent *ev, void *c)
{
    (void)c;
    if (ev->e.kind != TRACERD_EVENT_SPAN_COMPLETE)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(FLAG(ev, HAS_NS) ? ev->e.end_ns : ev->e.end_ticks);
}
static PyObject *get_ns(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_NS) && !FLAG(ev, NO_TIME), ev->e.ns);
}
static PyObject *get_end_ns(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_NS) && ev->e.kind == TRACERD_EVENT_SPAN_COMPLETE, ev->e.end_ns);
}
static PyObject *get_ticks(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(!FLAG(ev, NO_TIME), ev->e.ticks);
}
static PyObject *get_end_ticks(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(ev->e.kind == TRACERD_EVENT_SPAN_COMPLETE, ev->e.end_ticks);
}
static PyObject *get_pid(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_PID), ev->e.pid);
}
static PyObject *get_tid(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_TID), ev->e.tid);
}
static PyObject *get_cpu(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_CPU), ev->e.cpu);
}
static PyObject *get_id(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_ID), ev->e.id);
}
static PyObject *get_name_id(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(FLAG(ev, HAS_NAME_ID), ev->e.name_id);
}
static int has_other(const pyevent *ev)
{
    return ev->e.kind == TRACERD_EVENT_CONTEXT_SWITCH || ev->e.kind == TRACERD_EVENT_WAKEUP;
}
static PyObject *get_other_pid(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(has_other(ev), ev->e.other_pid);
}
static PyObject *get_other_tid(pyevent *ev, void *c)
{
    (void)c;
    return u64_if(has_other(ev), ev->e.other_tid);
}
static PyObject *get_level(pyevent *ev, void *c)
{
    (void)c;
    if (ev->e.kind != TRACERD_EVENT_LOG && ev->e.kind != TRACERD_EVENT_CONTEXT_SWITCH)
        Py_RETURN_NONE;
    return PyLong_FromLong(ev->e.level);
}
static PyObject *get_offset(pyevent *ev, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLongLong(ev->e.offset);
}
static PyObject *get_flags(pyevent *ev, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLong(ev->e.flags);
}
static PyObject *get_kind(pyevent *ev, void *c)
{
    (void)c;
    PyObject *s = pytracerd_kind_str(ev->e.kind);
    Py_INCREF(s);
    return s;
}
static PyObject *get_kind_id(pyevent *ev, void *c)
{
    (void)c;
    return PyLong_FromLong(ev->e.kind);
}
static PyObject *get_format(pyevent *ev, void *c)
{
    (void)c;
    PyObject *s = pytracerd_format_str(ev->e.format);
    Py_INCREF(s);
    return s;
}
static PyObject *get_tail(pyevent *ev, void *c)
{
    (void)c;
    return PyBool_FromLong(FLAG(ev, TAIL));
}
static PyObject *get_truncated(pyevent *ev, void *c)
{
    (void)c;
    return PyBool_FromLong(FLAG(ev, TRUNCATED));
}
static PyObject *get_message(pyevent *ev, void *c)
{
    (void)c;
    if (ev->message == NULL)
        Py_RETURN_NONE;
    Py_INCREF(ev->message);
    return ev->message;
}
static PyObject *get_args(pyevent *ev, void *c)
{
    (void)c;
    if (ev->args == NULL && (ev->args = PyDict_New()) == NULL)
        return NULL;
    Py_INCREF(ev->args);
    return ev->args;
}

#define G(name, doc)                                                                               \
    {                                                                                              \
#name, (getter)get_##name, NULL, doc, NULL                                                 \
    }
static PyGetSetDef event_getset[] = {
    G(time, "ns when the trace has a clock rate, else ticks; None when the record has no time"),
    G(end_time, "end of a complete span (ns, else ticks); None for other kinds"),
    G(ns, "time in ns, None without a clock rate"),
    G(end_ns, "end of a complete span in ns"),
    G(ticks, "time in the trace's own clock ticks"),
    G(end_ticks, "end of a complete span in ticks"),
    G(pid, "process id, None when unknown"),
    G(tid, "thread id, None when unknown"),
    G(cpu, "cpu, None when unknown"),
    G(id, "async/flow correlation id or counter series, None when not meaningful"),
    G(name_id, "the format's numeric name (XRay function id), None when not meaningful"),
    G(other_pid, "context switch: incoming process; wakeup: woken process"),
    G(other_tid, "context switch: incoming thread; wakeup: woken thread"),
    G(level, "log severity; context switch: outgoing thread state"),
    G(offset, "absolute byte offset of the source record"),
    G(flags, "TRACERD_EVENT_* flags of the C event"),
    G(kind, "'span-begin', 'span-end', 'complete', 'instant', 'counter', ..."),
    G(kind_id, "the kind as its C value (index of tracerd.KINDS)"),
    G(format, "'xray', 'fxt', 'ctf' or 'xtrace'"),
    G(tail, "a span end from an XRay tail call exit"),
    G(truncated, "arguments were left out (too many, or a payload too large)"),
    G(message, "log message, None for other kinds"),
    G(args, "arguments as a dict"),
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef event_members[] = {
    {"name", T_OBJECT, offsetof(pyevent, name), READONLY, "event name"},
    {"category", T_OBJECT, offsetof(pyevent, category), READONLY, "category ('' when none)"},
    {NULL, 0, 0, 0, NULL},
};

static PyObject *event_repr(pyevent *ev)
{
    PyObject *t = get_time(ev, NULL), *tid = get_tid(ev, NULL), *a = get_args(ev, NULL);
    PyObject *s = NULL;
    if (t != NULL && tid != NULL && a != NULL)
        s = PyUnicode_FromFormat("tracerd.Event(time=%R, kind=%R, name=%R, category=%R, "
                                 "tid=%R, args=%R)",
                                 t, pytracerd_kind_str(ev->e.kind), ev->name, ev->category, tid, a);
    Py_XDECREF(t);
    Py_XDECREF(tid);
    Py_XDECREF(a);
    return s;
}

static PyObject *event_asdict(pyevent *ev, PyObject *unused)
{
    (void)unused;
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (PyGetSetDef *g = event_getset; g->name != NULL; g++) {
        PyObject *v = g->get((PyObject *)ev, NULL);
        if (v == NULL || PyDict_SetItemString(d, g->name, v) != 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    if (PyDict_SetItemString(d, "name", ev->name) != 0 ||
        PyDict_SetItemString(d, "category", ev->category) != 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyMethodDef event_methods[] = {
    {"asdict", (PyCFunction)event_asdict, METH_NOARGS, "every field as a dict"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject PyTracerdEvent_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tracerd.Event",
    .tp_basicsize = sizeof(pyevent),
    .tp_dealloc = (destructor)event_dealloc,
    .tp_repr = (reprfunc)event_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One event of the format-neutral view (read-only).",
    .tp_getset = event_getset,
    .tp_members = event_members,
    .tp_methods = event_methods,
};

int pytracerd_event_init_types(PyObject *module)
{
    if (PyType_Ready(&PyTracerdEvent_Type) != 0)
        return -1;
    Py_INCREF(&PyTracerdEvent_Type);
    if (PyModule_AddObject(module, "Event", (PyObject *)&PyTracerdEvent_Type) != 0)
        return -1;
    PyObject *kinds = PyTuple_New(KIND_MAX + 1);
    if (kinds == NULL)
        return -1;
    for (unsigned k = 0; k <= KIND_MAX; k++) {
        if (kind_strs[k] == NULL) {
            const char *n = k == 0 ? "unknown" : tracerd_event_kind_name((tracerd_event_kind_t)k);
            kind_strs[k] = PyUnicode_InternFromString(n);
            if (kind_strs[k] == NULL) {
                Py_DECREF(kinds);
                return -1;
            }
        }
        Py_INCREF(kind_strs[k]);
        PyTuple_SET_ITEM(kinds, k, kind_strs[k]);
    }
    if (PyModule_AddObject(module, "KINDS", kinds) != 0) {
        Py_DECREF(kinds);
        return -1;
    }
    for (unsigned f = 0; f <= FORMAT_MAX; f++) {
        if (format_strs[f] == NULL &&
            (format_strs[f] = PyUnicode_InternFromString(
                 tracerd_event_format_name((tracerd_event_format_t)f))) == NULL)
            return -1;
    }
    return 0;
}
