/* tracerd._tracerd: the extension module (types, the Error exception,
 * small functions). The Python package tracerd/ wraps it. */
#include "pytracerd.h"

static PyObject *py_detect(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) != 0)
        return NULL;
    int score = 0;
    tracerd_event_format_t f = tracerd_event_detect(view.buf, (size_t)view.len, &score);
    PyBuffer_Release(&view);
    if (f == TRACERD_EVENT_FORMAT_UNKNOWN)
        return Py_BuildValue("(Oi)", Py_None, score);
    return Py_BuildValue("(Oi)", pytracerd_format_str(f), score);
}

static PyObject *py_status_names(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
#define ADD_STATUS_(name, value, text)                                                             \
    do {                                                                                           \
        PyObject *v_ = PyLong_FromLong(value);                                                     \
        if (v_ == NULL || PyDict_SetItemString(d, #name, v_) != 0) {                               \
            Py_XDECREF(v_);                                                                        \
            Py_DECREF(d);                                                                          \
            return NULL;                                                                           \
        }                                                                                          \
        Py_DECREF(v_);                                                                             \
    } while (0);
    TRACERD_STATUS_LIST(ADD_STATUS_)
#undef ADD_STATUS_
    return d;
}

static PyMethodDef module_methods[] = {
    {"detect", py_detect, METH_O,
     "detect(head_bytes) -> (format or None, score 0..100): the auto reader's detection"},
    {"status_codes", py_status_names, METH_NOARGS, "{status name: C value}"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "_tracerd",
    "tracerd readers (C extension; use the tracerd package)",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__tracerd(void);
PyMODINIT_FUNC PyInit__tracerd(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    if (PyTracerd_Error == NULL) {
        PyTracerd_Error = PyErr_NewExceptionWithDoc(
            "tracerd._tracerd.Error",
            "A trace the reader cannot read: args are (status name, C status value, byte offset, "
            "reason, file path or None).",
            PyExc_Exception, NULL);
        if (PyTracerd_Error == NULL)
            goto fail;
    }
    Py_INCREF(PyTracerd_Error);
    if (PyModule_AddObject(m, "Error", PyTracerd_Error) != 0) {
        Py_DECREF(PyTracerd_Error);
        goto fail;
    }
    if (PyType_Ready(&PyTracerdReader_Type) != 0)
        goto fail;
    Py_INCREF(&PyTracerdReader_Type);
    if (PyModule_AddObject(m, "Reader", (PyObject *)&PyTracerdReader_Type) != 0) {
        Py_DECREF(&PyTracerdReader_Type);
        goto fail;
    }
    if (pytracerd_event_init_types(m) != 0 || pytracerd_batch_init_types(m) != 0 ||
        pytracerd_typed_init_types(m) != 0 || pytracerd_xray_init_types(m) != 0 ||
        pytracerd_fxt_init_types(m) != 0 || pytracerd_xtrace_init_types(m) != 0 ||
        pytracerd_ctf_init_types(m) != 0)
        goto fail;
    if (PyModule_AddStringConstant(m, "library_version", tracerd_version_string()) != 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
