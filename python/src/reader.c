/* tracerd.Reader: one tracerd reader (the auto reader of the event view, the
 * CTF directory reader, or a typed XRay reader) driven from Python.
 *
 * Pull mode: the reader has a source (a readinto(buffer) callable, or a CTF
 * directory) and reads chunks itself when the consumer wants events.
 * Feed mode: the caller gives bytes with feed(); a callback pauses the C
 * reader once max_pending events are queued, so feed() returns how many bytes
 * it took (back-pressure): drain the events, then feed the rest.
 *
 * Errors (and exceptions raised by Python callbacks) are kept and raised once
 * the events queued before them have been consumed. */
#include "pytracerd.h"

#include <structmember.h>

#define DEFAULT_CHUNK ((size_t)1 << 20)
#define DEFAULT_PENDING ((size_t)4096)

/* ---- the C reader behind --------------------------------------------------- */

/* The library allocates through Python's raw allocator: thread-safe without
 * the GIL, and seen by tracemalloc (the leak test counts it). */
static void *py_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return PyMem_RawMalloc(size);
}
static void py_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    PyMem_RawFree(ptr);
}
static const tracerd_allocator_t py_allocator = {py_alloc, py_free, NULL};

static tracerd_status_t c_feed(pyreader *r, const void *d, size_t n, size_t *used)
{
    return r->ops->feed(r->impl, d, n, used);
}
static tracerd_status_t c_resume(pyreader *r)
{
    return r->ops->resume(r->impl);
}
static tracerd_status_t c_finish(pyreader *r)
{
    return r->ops->finish(r->impl);
}

static size_t pending(const pyreader *r)
{
    if (r->kind == READER_EVENTS)
        return evq_count(&r->q);
    return r->objs ? (size_t)(PyList_GET_SIZE(r->objs) - r->objs_head) : 0;
}

static void free_c_reader(pyreader *r)
{
    if (r->impl != NULL)
        r->ops->free(r->impl);
    r->impl = NULL;
    r->autor = NULL;
    tracerd_event_dir_free(r->dir);
    r->dir = NULL;
    tracerd_ctf_dir_free(r->ctfdir);
    r->ctfdir = NULL;
    tracerd_ctf_trace_free(r->ctftrace); /* after its stream reader */
    r->ctftrace = NULL;
    pytracerd_ctf_clear(r);
    Py_CLEAR(r->part);
    tracerd_xray_names_free(r->names);
    r->names = NULL;
}

/* ---- errors ---------------------------------------------------------------- */

PyObject *PyTracerd_Error;

PyObject *pytracerd_raise(tracerd_status_t st, uint64_t offset, const char *reason,
                          const char *path)
{
    if (reason == NULL || *reason == '\0')
        reason = tracerd_status_message(st);
    PyObject *args = Py_BuildValue("(siKsz)", tracerd_status_name(st), (int)st,
                                   (unsigned long long)offset, reason, path);
    if (args != NULL) {
        PyErr_SetObject(PyTracerd_Error, args);
        Py_DECREF(args);
    }
    return NULL;
}

int pytracerd_reader_keep_exception(pyreader *r)
{
    if (r->cb_exc == NULL) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        if (tb != NULL && v != NULL)
            PyException_SetTraceback(v, tb);
        r->cb_exc = v;
        Py_XDECREF(t);
        Py_XDECREF(tb);
    } else {
        PyErr_Clear();
    }
    return -1;
}

/* Keeps the reader's error after status `st`. */
static void keep_error(pyreader *r, tracerd_status_t st)
{
    r->done = 1;
    if (r->err != TRACERD_OK)
        return;
    r->err = st;
    const char *reason, *path = NULL;
    if (r->ctfdir) {
        r->err_offset = tracerd_ctf_dir_error_offset(r->ctfdir);
        reason = tracerd_ctf_dir_error_reason(r->ctfdir);
        path = tracerd_ctf_dir_error_path(r->ctfdir);
    } else if (r->dir) {
        r->err_offset = tracerd_event_dir_error_offset(r->dir);
        reason = tracerd_event_dir_error_reason(r->dir);
        path = tracerd_event_dir_error_path(r->dir);
    } else {
        r->err_offset = r->ops->record_offset(r->impl);
        reason = r->ops->error_reason(r->impl);
    }
    r->err_reason = PyUnicode_DecodeUTF8(reason, (Py_ssize_t)strlen(reason), "replace");
    if (path != NULL && *path != '\0')
        r->err_path = PyUnicode_DecodeFSDefault(path);
    PyErr_Clear();
}

/* Raises the kept error; NULL. */
static PyObject *raise_kept(pyreader *r)
{
    if (r->cb_exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(r->cb_exc), r->cb_exc);
        return NULL;
    }
    const char *reason = r->err_reason ? PyUnicode_AsUTF8(r->err_reason) : NULL;
    const char *path = r->err_path ? PyUnicode_AsUTF8(r->err_path) : NULL;
    return pytracerd_raise(r->err, r->err_offset, reason, path);
}

static int has_error(const pyreader *r)
{
    return r->err != TRACERD_OK || r->cb_exc != NULL;
}

/* After a C call: 0 when it went on, 1 when paused, -1 when it stopped with an error. */
static int after(pyreader *r, tracerd_status_t st)
{
    if (st == TRACERD_OK)
        return 0;
    if (st == TRACERD_PAUSED)
        return 1;
    keep_error(r, st);
    return -1;
}

/* ---- callbacks of the C reader --------------------------------------------- */

static int on_event(void *user, const tracerd_event_t *ev)
{
    pyreader *r = user;
    if (evq_push(&r->q, ev, r->with_args) != 0) {
        r->nomem = 1;
        return -1;
    }
    return evq_count(&r->q) >= r->limit ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    pyreader *r = user;
    r->src = *src;
    r->has_src = 1;
    return TRACERD_CB_CONTINUE;
}

int pytracerd_reader_on_warning(void *user, const tracerd_warning_t *w)
{
    pyreader *r = user;
    r->warnings += w->count; /* skips: a run of them comes as one warning with a count */
    if (r->on_warning == NULL || r->on_warning == Py_None)
        return TRACERD_CB_CONTINUE;
    PyObject *res = PyObject_CallFunction(r->on_warning, "(sKKs)", tracerd_status_name(w->status),
                                          (unsigned long long)w->offset,
                                          (unsigned long long)w->skipped_bytes, w->reason);
    if (res == NULL)
        return pytracerd_reader_keep_exception(r);
    Py_DECREF(res);
    return TRACERD_CB_CONTINUE;
}

int pytracerd_reader_push_obj(pyreader *r, PyObject *obj)
{
    if (obj == NULL)
        return pytracerd_reader_keep_exception(r);
    int rc = PyList_Append(r->objs, obj);
    Py_DECREF(obj);
    if (rc != 0)
        return pytracerd_reader_keep_exception(r);
    return pending(r) >= r->limit ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

/* ---- driving ------------------------------------------------------------------ */

/* The GIL is released around C calls whose callbacks never touch Python. */
static int gil_free(const pyreader *r)
{
    return r->kind == READER_EVENTS && (r->on_warning == NULL || r->on_warning == Py_None);
}

#define CALL(r, expr, st)                                                                          \
    do {                                                                                           \
        if (gil_free(r)) {                                                                         \
            PyThreadState *save_ = PyEval_SaveThread();                                            \
            (st) = (expr);                                                                         \
            PyEval_RestoreThread(save_);                                                           \
        } else {                                                                                   \
            (st) = (expr);                                                                         \
        }                                                                                          \
    } while (0)

static void fix_nomem(pyreader *r)
{
    if (r->nomem && r->cb_exc == NULL) {
        PyErr_NoMemory();
        pytracerd_reader_keep_exception(r);
    }
}

/* Reads one chunk from the source: 0, or -1 with an exception set. */
static int read_chunk(pyreader *r)
{
    PyObject *mv = PyMemoryView_FromObject(r->chunk);
    if (mv == NULL)
        return -1;
    PyObject *res = PyObject_CallOneArg(r->readinto, mv);
    Py_DECREF(mv);
    if (res == NULL)
        return -1;
    if (res == Py_None) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_BlockingIOError, "the source has no data now (non-blocking)");
        return -1;
    }
    Py_ssize_t n = PyLong_AsSsize_t(res);
    Py_DECREF(res);
    if (n < 0 || (size_t)n > r->chunk_size) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "readinto returned a bad length");
        return -1;
    }
    if (n == 0)
        r->eof = 1;
    r->pos = 0;
    r->len = (size_t)n;
    return 0;
}

/* Pull mode: decodes until `want` items are queued, the end, or an error.
 * -1 (exception set) only when the source raised. */
static int pump(pyreader *r, size_t want)
{
    r->limit = want;
    r->busy = 1;
    int rc = 0;
    while (pending(r) < want && !r->done) {
        tracerd_status_t st;
        if (r->ctfdir != NULL) {
            CALL(r, tracerd_ctf_dir_run(r->ctfdir), st);
            fix_nomem(r);
            if (after(r, st) == 0)
                r->done = 1;
            continue;
        }
        if (r->dir != NULL) {
            CALL(r, tracerd_event_dir_run(r->dir), st);
            fix_nomem(r);
            if (after(r, st) == 0)
                r->done = 1;
            continue;
        }
        if (r->paused) {
            r->paused = 0;
            CALL(r, c_resume(r), st);
            if (after(r, st) < 0)
                break;
        }
        if (r->pos < r->len) {
            size_t used = 0;
            const char *base = PyByteArray_AS_STRING(r->chunk);
            CALL(r, c_feed(r, base + r->pos, r->len - r->pos, &used), st);
            fix_nomem(r);
            r->pos += used;
            if (after(r, st) == 1)
                r->paused = 1;
            continue;
        }
        if (r->eof) {
            CALL(r, c_finish(r), st);
            fix_nomem(r);
            int a = after(r, st);
            if (a == 1)
                r->paused = 1;
            else if (a == 0)
                r->done = 1;
            continue;
        }
        if (r->readinto == NULL)
            break; /* feed mode: wants more input */
        if (read_chunk(r) != 0) {
            rc = -1;
            break;
        }
    }
    r->busy = 0;
    return rc;
}

/* Pull mode: the reader reads its own source. */
static int pulls(const pyreader *r)
{
    return r->readinto != NULL || r->dir != NULL || r->ctfdir != NULL;
}

static int check_usable(pyreader *r)
{
    if (r->busy) {
        PyErr_SetString(PyExc_RuntimeError, "tracerd.Reader used from one of its own callbacks");
        return -1;
    }
    if (r->closed) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on a closed tracerd.Reader");
        return -1;
    }
    return 0;
}

static PyObject *pop_one(pyreader *r)
{
    if (r->kind == READER_EVENTS) {
        PyObject *ev = pytracerd_event_new(&r->q, &r->q.ev[r->q.head]);
        if (ev != NULL) {
            r->q.head++;
            evq_compact(&r->q);
        }
        return ev;
    }
    PyObject *o = PyList_GET_ITEM(r->objs, r->objs_head);
    Py_INCREF(o);
    if (++r->objs_head == PyList_GET_SIZE(r->objs)) {
        r->objs_head = 0;
        if (PyList_SetSlice(r->objs, 0, PY_SSIZE_T_MAX, NULL) != 0) {
            Py_DECREF(o);
            return NULL;
        }
    }
    return o;
}

static PyObject *reader_next(pyreader *r)
{
    if (check_usable(r) != 0)
        return NULL;
    if (pending(r) == 0 && (pulls(r))) {
        r->with_args = 1;
        if (pump(r, r->max_pending) != 0)
            return NULL;
    }
    if (pending(r) == 0) {
        if (has_error(r))
            return raise_kept(r);
        return NULL; /* StopIteration */
    }
    return pop_one(r);
}

static PyObject *reader_read_batch(pyreader *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"n", NULL};
    Py_ssize_t n = 65536;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|n:read_batch", kwlist, &n))
        return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "read_batch: n must be positive");
        return NULL;
    }
    if (r->kind != READER_EVENTS) {
        PyErr_SetString(PyExc_TypeError, "read_batch needs an event reader (tracerd.open)");
        return NULL;
    }
    if (check_usable(r) != 0)
        return NULL;
    if (pending(r) < (size_t)n && (pulls(r))) {
        /* Events decoded now all go into this batch, which has no arguments. */
        r->with_args = 0;
        int rc = pump(r, (size_t)n);
        r->with_args = 1;
        if (rc != 0)
            return NULL;
    }
    if (pending(r) == 0) {
        if (has_error(r))
            return raise_kept(r);
        Py_RETURN_NONE;
    }
    return pytracerd_batch_take(&r->q, (size_t)n);
}

/* Feed mode: gives bytes; returns how many were taken. */
static PyObject *reader_feed(pyreader *r, PyObject *arg)
{
    if (check_usable(r) != 0)
        return NULL;
    if (pulls(r)) {
        PyErr_SetString(PyExc_TypeError, "feed() on a reader that reads its own source");
        return NULL;
    }
    if (has_error(r))
        return raise_kept(r);
    if (r->eof) {
        PyErr_SetString(PyExc_ValueError, "feed() after finish()");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) != 0)
        return NULL;
    size_t used = 0;
    r->limit = r->max_pending;
    r->with_args = 1;
    if (pending(r) < r->max_pending && view.len > 0) {
        tracerd_status_t st = TRACERD_OK;
        r->busy = 1;
        if (r->paused) {
            r->paused = 0;
            CALL(r, c_resume(r), st);
        }
        if (st == TRACERD_OK)
            CALL(r, c_feed(r, view.buf, (size_t)view.len, &used), st);
        r->busy = 0;
        fix_nomem(r);
        if (after(r, st) == 1)
            r->paused = 1;
    }
    PyBuffer_Release(&view);
    if (has_error(r))
        return raise_kept(r);
    return PyLong_FromSize_t(used);
}

/* Feed mode: end of input. True when done, False when paused (drain, call again). */
static PyObject *reader_finish(pyreader *r, PyObject *unused)
{
    (void)unused;
    if (check_usable(r) != 0)
        return NULL;
    if (pulls(r)) {
        PyErr_SetString(PyExc_TypeError, "finish() on a reader that reads its own source");
        return NULL;
    }
    if (has_error(r))
        return raise_kept(r);
    r->eof = 1;
    if (r->done)
        Py_RETURN_TRUE;
    if (pending(r) >= r->max_pending)
        Py_RETURN_FALSE;
    tracerd_status_t st = TRACERD_OK;
    r->limit = r->max_pending;
    r->busy = 1;
    if (r->paused) {
        r->paused = 0;
        CALL(r, c_resume(r), st);
    }
    if (st == TRACERD_OK)
        CALL(r, c_finish(r), st);
    r->busy = 0;
    fix_nomem(r);
    int a = after(r, st);
    if (a < 0)
        return raise_kept(r);
    if (a == 1) {
        r->paused = 1;
        Py_RETURN_FALSE;
    }
    r->done = 1;
    Py_RETURN_TRUE;
}

static PyObject *reader_close(pyreader *r, PyObject *unused)
{
    (void)unused;
    if (r->busy) {
        PyErr_SetString(PyExc_RuntimeError, "tracerd.Reader closed from one of its own callbacks");
        return NULL;
    }
    r->closed = 1;
    free_c_reader(r);
    evq_free(&r->q);
    Py_CLEAR(r->objs);
    Py_CLEAR(r->chunk);
    Py_CLEAR(r->readinto);
    if (r->owned != NULL) {
        PyObject *o = r->owned;
        r->owned = NULL;
        PyObject *res = PyObject_CallMethod(o, "close", NULL);
        Py_DECREF(o);
        if (res == NULL)
            return NULL;
        Py_DECREF(res);
    }
    Py_RETURN_NONE;
}

static PyObject *reader_enter(PyObject *self, PyObject *unused)
{
    (void)unused;
    Py_INCREF(self);
    return self;
}

static PyObject *reader_exit(pyreader *r, PyObject *args)
{
    (void)args;
    PyObject *res = reader_close(r, NULL);
    if (res == NULL)
        return NULL;
    Py_DECREF(res);
    Py_RETURN_FALSE;
}

/* ---- creation --------------------------------------------------------------- */

static int parse_format(PyObject *o, tracerd_event_format_t *f)
{
    *f = TRACERD_EVENT_FORMAT_UNKNOWN;
    if (o == NULL || o == Py_None)
        return 0;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s != NULL)
        *f = tracerd_event_format_from_name(s);
    if (s == NULL || *f == TRACERD_EVENT_FORMAT_UNKNOWN) {
        PyErr_Format(PyExc_ValueError, "unknown format %R (xray, fxt, ctf, xtrace)", o);
        return -1;
    }
    return 0;
}

static int parse_byte_order(PyObject *o, tracerd_byte_order_t *b)
{
    *b = TRACERD_BYTE_ORDER_AUTO;
    if (o == NULL || o == Py_None)
        return 0;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s != NULL && strcmp(s, "little") == 0)
        *b = TRACERD_BYTE_ORDER_LITTLE;
    else if (s != NULL && strcmp(s, "big") == 0)
        *b = TRACERD_BYTE_ORDER_BIG;
    else if (s == NULL || strcmp(s, "auto") != 0) {
        PyErr_Format(PyExc_ValueError, "byte_order must be 'little', 'big' or 'auto', not %R", o);
        return -1;
    }
    return 0;
}

static int load_names(pyreader *r, PyObject *elf)
{
    Py_buffer view;
    if (PyObject_GetBuffer(elf, &view, PyBUF_SIMPLE) != 0)
        return -1;
    tracerd_status_t st = tracerd_xray_names_new(&py_allocator, &r->names);
    if (st == TRACERD_OK)
        st = tracerd_xray_names_load(r->names, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (st != TRACERD_OK) {
        pytracerd_raise(st, 0, r->names ? tracerd_xray_names_error_reason(r->names) : NULL, NULL);
        return -1;
    }
    r->acfg.xray_names = r->names;
    return 0;
}

static int reader_init(pyreader *r, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"format",      "source",     "owned",      "directory", "metadata",
                             "xray_names",  "lenient",    "byte_order", "max_args",  "chunk_size",
                             "max_pending", "on_warning", "typed",      NULL};
    PyObject *format = NULL, *source = NULL, *owned = NULL, *directory = NULL, *metadata = NULL;
    PyObject *names = NULL, *byte_order = NULL, *onw = NULL;
    int lenient = 0;
    unsigned int max_args = 0;
    Py_ssize_t chunk = (Py_ssize_t)DEFAULT_CHUNK, maxp = (Py_ssize_t)DEFAULT_PENDING;
    const char *typed = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$OOOOOpOInnOz:Reader", kwlist, &format, &source,
                                     &owned, &directory, &metadata, &names, &lenient, &byte_order,
                                     &max_args, &chunk, &maxp, &onw, &typed))
        return -1;
    if (r->impl || r->dir || r->ctfdir || r->closed) {
        PyErr_SetString(PyExc_RuntimeError, "tracerd.Reader initialised twice");
        return -1;
    }
    if (chunk < 64 || maxp < 1) {
        PyErr_SetString(PyExc_ValueError, "chunk_size must be >= 64 and max_pending >= 1");
        return -1;
    }
    tracerd_event_format_t f;
    tracerd_byte_order_t bo;
    if (parse_format(format, &f) != 0 || parse_byte_order(byte_order, &bo) != 0)
        return -1;
    r->chunk_size = (size_t)chunk;
    r->max_pending = (size_t)maxp;
    r->limit = r->max_pending;
    r->with_args = 1;
    if (onw != NULL && onw != Py_None) {
        Py_INCREF(onw);
        r->on_warning = onw;
    }
    if (source != NULL && source != Py_None) {
        if (!PyCallable_Check(source)) {
            PyErr_SetString(PyExc_TypeError, "source must be a readinto(buffer) callable");
            return -1;
        }
        Py_INCREF(source);
        r->readinto = source;
        r->chunk = PyByteArray_FromStringAndSize(NULL, chunk);
        if (r->chunk == NULL)
            return -1;
    }
    if (owned != NULL && owned != Py_None) {
        Py_INCREF(owned);
        r->owned = owned;
    }

    tracerd_xray_config_init(&r->xcfg);
    r->xcfg.byte_order = bo;
    r->xcfg.lenient_skip_buffers = lenient != 0;
    if (typed != NULL) {
        r->kind = READER_TYPED;
        r->objs = PyList_New(0);
        if (r->objs == NULL)
            return -1;
        if (strcmp(typed, "ctf") != 0)
            return pytracerd_typed_open(r, typed, lenient != 0, bo, &py_allocator);
        PyObject *path = NULL;
        Py_buffer meta = {0};
        int rc = -1;
        if ((directory == NULL || directory == Py_None ||
             PyUnicode_FSConverter(directory, &path)) &&
            (metadata == NULL || metadata == Py_None ||
             PyObject_GetBuffer(metadata, &meta, PyBUF_SIMPLE) == 0))
            rc = pytracerd_ctf_open(r, path ? PyBytes_AS_STRING(path) : NULL, meta.buf,
                                    (size_t)meta.len, lenient != 0, &py_allocator);
        if (meta.obj != NULL)
            PyBuffer_Release(&meta);
        Py_XDECREF(path);
        return rc;
    }

    r->kind = READER_EVENTS;
    tracerd_auto_config_init(&r->acfg);
    r->acfg.format = f;
    if (max_args != 0)
        r->acfg.max_args = max_args;
    r->acfg.xray = &r->xcfg;
    tracerd_fxt_config_init(&r->fcfg);
    r->fcfg.byte_order = bo;
    r->fcfg.lenient = lenient != 0;
    r->acfg.fxt = &r->fcfg;
    tracerd_ctf_stream_config_init(&r->ccfg);
    r->ccfg.lenient_skip_packets = lenient != 0;
    r->acfg.ctf = &r->ccfg;
    tracerd_xtrace_insn_config_init(&r->tcfg);
    r->tcfg.allow_trailing_zero_padding = lenient != 0;
    r->tcfg.allow_truncated_tail = lenient != 0;
    r->acfg.xtrace = &r->tcfg;
    if (names != NULL && names != Py_None && load_names(r, names) != 0)
        return -1;

    tracerd_event_callbacks_t cbs;
    tracerd_event_callbacks_init(&cbs);
    cbs.on_event = on_event;
    cbs.on_source = on_source;
    cbs.on_warning = pytracerd_reader_on_warning;
    tracerd_status_t st;
    if (directory != NULL && directory != Py_None) {
        PyObject *path = NULL;
        if (!PyUnicode_FSConverter(directory, &path))
            return -1;
        tracerd_ctf_dir_config_init(&r->dcfg);
        tracerd_ctf_stream_config_init(&r->dscfg);
        r->dscfg.lenient_skip_packets = lenient != 0;
        r->dcfg.stream = &r->dscfg;
        r->acfg.ctf_dir = &r->dcfg;
        st = tracerd_event_dir_open(PyBytes_AS_STRING(path), &r->acfg, &cbs, r, &py_allocator,
                                    &r->dir);
        Py_DECREF(path);
        if (st != TRACERD_OK) {
            if (r->dir != NULL) {
                keep_error(r, st);
                raise_kept(r);
            } else {
                pytracerd_raise(st, 0, "cannot open the CTF trace directory", NULL);
            }
            return -1;
        }
        return 0;
    }
    r->ops = tracerd_auto_ops();
    st = tracerd_auto_new(&r->acfg, &cbs, r, &py_allocator, &r->autor);
    r->impl = r->autor;
    if (st != TRACERD_OK) {
        pytracerd_raise(st, 0, "cannot create the reader", NULL);
        return -1;
    }
    if (metadata != NULL && metadata != Py_None) {
        Py_buffer view;
        if (PyObject_GetBuffer(metadata, &view, PyBUF_SIMPLE) != 0)
            return -1;
        st = tracerd_auto_metadata(r->autor, view.buf, (size_t)view.len);
        PyBuffer_Release(&view);
        if (st != TRACERD_OK) {
            keep_error(r, st);
            raise_kept(r);
            return -1;
        }
    }
    return 0;
}

/* ---- attributes ------------------------------------------------------------- */

static PyObject *get_format(pyreader *r, void *c)
{
    (void)c;
    if (r->kind == READER_TYPED && r->ops == NULL)
        return PyUnicode_FromString("ctf"); /* a typed CTF directory */
    if (r->kind == READER_TYPED)            /* "xtrace-insn" is xtrace, "ctf-stream" ctf */
        return PyUnicode_FromStringAndSize(r->ops->name, (Py_ssize_t)strcspn(r->ops->name, "-"));
    tracerd_event_format_t f = r->dir     ? TRACERD_EVENT_FORMAT_CTF
                               : r->autor ? tracerd_auto_format(r->autor)
                                          : (r->has_src ? r->src.format : 0);
    if (f == TRACERD_EVENT_FORMAT_UNKNOWN)
        Py_RETURN_NONE;
    PyObject *s = pytracerd_format_str(f);
    Py_INCREF(s);
    return s;
}

static PyObject *get_source(pyreader *r, void *c)
{
    (void)c;
    if (!r->has_src)
        Py_RETURN_NONE;
    const char *bo = tracerd_byte_order_name(r->src.byte_order);
    return Py_BuildValue("{s:s,s:I,s:s,s:K,s:i}", "format", r->src.format_name, "version",
                         (unsigned)r->src.version, "byte_order", bo, "ticks_per_second",
                         (unsigned long long)r->src.ticks_per_second, "score", r->src.score);
}

static PyObject *get_offset(pyreader *r, void *c)
{
    (void)c;
    uint64_t off = r->impl != NULL ? r->ops->offset(r->impl) : 0;
    return PyLong_FromUnsignedLongLong(off);
}

static PyObject *get_pending(pyreader *r, void *c)
{
    (void)c;
    return PyLong_FromSize_t(pending(r));
}

static PyObject *get_name_table(pyreader *r, void *c)
{
    (void)c;
    return itable_list(&r->q.names);
}

static PyObject *get_warnings(pyreader *r, void *c)
{
    (void)c;
    return PyLong_FromUnsignedLongLong(r->warnings);
}

static PyObject *get_closed(pyreader *r, void *c)
{
    (void)c;
    return PyBool_FromLong(r->closed);
}

static PyGetSetDef reader_getset[] = {
    {"format", (getter)get_format, NULL, "detected format ('xray', ...) or None", NULL},
    {"source", (getter)get_source, NULL, "what the reader detected (dict) or None", NULL},
    {"offset", (getter)get_offset, NULL, "absolute offset of the next byte expected", NULL},
    {"pending", (getter)get_pending, NULL, "events decoded and not yet taken", NULL},
    {"name_table", (getter)get_name_table, NULL, "every event name seen so far (batch ids)", NULL},
    {"warning_count", (getter)get_warnings, NULL, "lenient warnings so far", NULL},
    {"closed", (getter)get_closed, NULL, "True after close()", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef reader_methods[] = {
    {"read_batch", (PyCFunction)(void (*)(void))reader_read_batch, METH_VARARGS | METH_KEYWORDS,
     "read_batch(n=65536): the next n events (fewer at the end) as a tracerd.Batch of columns; "
     "None when no event is left (feed mode: none queued)."},
    {"feed", (PyCFunction)reader_feed, METH_O,
     "feed(data): gives bytes; returns how many were taken (fewer when max_pending events are "
     "queued: take events, then feed the rest)."},
    {"finish", (PyCFunction)reader_finish, METH_NOARGS,
     "finish(): end of input; True when done, False when events must be taken first."},
    {"close", (PyCFunction)reader_close, METH_NOARGS, "frees the reader (and closes its file)"},
    {"__enter__", reader_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)reader_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* ---- object protocol -------------------------------------------------------- */

static int reader_traverse(pyreader *r, visitproc visit, void *arg)
{
    Py_VISIT(r->readinto);
    Py_VISIT(r->owned);
    Py_VISIT(r->objs);
    Py_VISIT(r->on_warning);
    Py_VISIT(r->cb_exc);
    return 0;
}

static int reader_clear(pyreader *r)
{
    Py_CLEAR(r->readinto);
    Py_CLEAR(r->owned);
    Py_CLEAR(r->objs);
    Py_CLEAR(r->on_warning);
    Py_CLEAR(r->cb_exc);
    return 0;
}

static void reader_dealloc(pyreader *r)
{
    PyObject_GC_UnTrack(r);
    free_c_reader(r);
    evq_free(&r->q);
    reader_clear(r);
    Py_CLEAR(r->chunk);
    Py_CLEAR(r->err_reason);
    Py_CLEAR(r->err_path);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

static PyObject *reader_iter(PyObject *self)
{
    Py_INCREF(self);
    return self;
}

PyTypeObject PyTracerdReader_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tracerd.Reader",
    .tp_basicsize = sizeof(pyreader),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Reader(format=None, **options): a tracerd reader; feed it bytes with feed(), or "
              "use tracerd.open() for a file, socket or directory.",
    .tp_traverse = (traverseproc)reader_traverse,
    .tp_clear = (inquiry)reader_clear,
    .tp_iter = reader_iter,
    .tp_iternext = (iternextfunc)reader_next,
    .tp_methods = reader_methods,
    .tp_getset = reader_getset,
    .tp_init = (initproc)reader_init,
    .tp_new = PyType_GenericNew,
};
