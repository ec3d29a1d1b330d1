/* Typed CTF records (tracerd.ctf.open): packets, events with their fields
 * as nested values (one dict per scope), and losses, from the CTF directory
 * reader or the CTF stream reader. The field tree arrives as a depth-first
 * sequence of on_field calls; a stack of open containers rebuilds it. */
#include "pytracerd.h"

#define F(name)                                                                                    \
    {                                                                                              \
        name, NULL                                                                                 \
    }
static PyStructSequence_Field packet_fields[] = {F("offset"),
                                                 F("index"),
                                                 F("stream_id"),
                                                 F("stream_instance_id"),
                                                 F("content_size_bits"),
                                                 F("packet_size_bits"),
                                                 F("timestamp_begin"),
                                                 F("timestamp_end"),
                                                 F("ns_begin"),
                                                 F("ns_end"),
                                                 F("events_discarded"),
                                                 F("packet_seq_num"),
                                                 F("cpu_id"),
                                                 F("header"),
                                                 F("context"),
                                                 {NULL, NULL}};
static PyStructSequence_Field packet_end_fields[] = {
    F("offset"), F("index"), F("events"), {NULL, NULL}};
static PyStructSequence_Field event_fields[] = {F("offset"),       F("name"),   F("id"),
                                                F("stream_id"),    F("cycles"), F("ns"),
                                                F("packet_index"), F("header"), F("stream_context"),
                                                F("context"),      F("fields"), {NULL, NULL}};
static PyStructSequence_Field loss_fields[] = {F("offset"),    F("kind"),         F("count"),
                                               F("stream_id"), F("begin_cycles"), F("end_cycles"),
                                               {NULL, NULL}};
#undef F

enum { T_PACKET, T_PACKET_END, T_EVENT, T_LOSS, T_COUNT };

static PyStructSequence_Desc descs[T_COUNT] = {
    {"tracerd.ctf.Packet", "a packet: its header and context fields as dicts", packet_fields, 15},
    {"tracerd.ctf.PacketEnd", "end of a packet's content", packet_end_fields, 3},
    {"tracerd.ctf.Event",
     "an event: header, stream_context, context and fields as dicts (None when the scope is "
     "absent)",
     event_fields, 11},
    {"tracerd.ctf.Loss", "discarded events or lost packets before the next packet", loss_fields, 6},
};

/* Made at module init, read-only afterwards. */
static PyTypeObject *types[T_COUNT];

#define ULL(x) ((unsigned long long)(x))
#define NSCOPES 6
#define MAX_DEPTH 64

/* What the field callbacks build; owned by the reader (r->ctf). */
struct pyctf {
    PyObject *scope[NSCOPES]; /* dict of each scope of the current packet/event, or NULL */
    PyObject *event;          /* the event waiting for its fields (an Event being filled) */
    struct {
        PyObject *c;    /* dict or list */
        PyObject *name; /* where it goes in its parent */
        int kind;
        uint32_t fdepth; /* depth of its BEGIN field */
        int skip;        /* a byte array given whole: its elements are not added */
    } stack[MAX_DEPTH];
    int depth;
};

void pytracerd_ctf_clear(pyreader *r)
{
    struct pyctf *s = r->ctf;
    if (s == NULL)
        return;
    for (int i = 0; i < NSCOPES; i++)
        Py_CLEAR(s->scope[i]);
    Py_CLEAR(s->event);
    for (int i = 0; i < s->depth; i++) {
        Py_CLEAR(s->stack[i].c);
        Py_CLEAR(s->stack[i].name);
    }
    PyMem_RawFree(s);
    r->ctf = NULL;
}

static PyObject *opt_u64(int present, uint64_t v)
{
    if (!present)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *take_scope(struct pyctf *s, int i)
{
    PyObject *d = s->scope[i];
    s->scope[i] = NULL;
    if (d == NULL)
        Py_RETURN_NONE;
    return d;
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    pyreader *r = user;
    struct pyctf *s = r->ctf;
    /* The packet's fields follow: its dicts are filled in place (the packet is
     * queued now, and the reader does not pause before its first event). */
    PyObject *h = PyDict_New(), *c = PyDict_New();
    if (h == NULL || c == NULL) {
        Py_XDECREF(h);
        Py_XDECREF(c);
        return pytracerd_reader_keep_exception(r);
    }
    Py_XSETREF(s->scope[TRACERD_CTF_SCOPE_PACKET_HEADER], h);
    Py_XSETREF(s->scope[TRACERD_CTF_SCOPE_PACKET_CONTEXT], c);
    Py_INCREF(h);
    Py_INCREF(c);
    PyObject *o = pytracerd_make(
        types[T_PACKET], "(KKKNKKNNKKNNNNN)", ULL(p->offset), ULL(p->index), ULL(p->stream_id),
        opt_u64(p->has_stream_instance_id, p->stream_instance_id), ULL(p->content_size_bits),
        ULL(p->packet_size_bits), opt_u64(p->has_timestamp_begin, p->timestamp_begin),
        opt_u64(p->has_timestamp_end, p->timestamp_end), ULL(p->ns_begin), ULL(p->ns_end),
        opt_u64(p->has_events_discarded, p->events_discarded),
        opt_u64(p->has_packet_seq_num, p->packet_seq_num), opt_u64(p->has_cpu_id, p->cpu_id), h, c);
    int rc = pytracerd_reader_push_obj(r, o);
    return rc < 0 ? rc : TRACERD_CB_CONTINUE;
}

static int on_packet_end(void *user, const tracerd_ctf_packet_end_t *p)
{
    pyreader *r = user;
    struct pyctf *s = r->ctf;
    Py_CLEAR(s->scope[TRACERD_CTF_SCOPE_PACKET_HEADER]);
    Py_CLEAR(s->scope[TRACERD_CTF_SCOPE_PACKET_CONTEXT]);
    return pytracerd_reader_push_obj(r, pytracerd_make(types[T_PACKET_END], "(KKK)", ULL(p->offset),
                                                       ULL(p->index), ULL(p->events)));
}

static int on_event_begin(void *user, const tracerd_ctf_event_t *e)
{
    pyreader *r = user;
    struct pyctf *s = r->ctf;
    for (int i = TRACERD_CTF_SCOPE_EVENT_HEADER; i < NSCOPES; i++)
        Py_CLEAR(s->scope[i]);
    PyObject *o = pytracerd_make(
        types[T_EVENT], "(KsKKKNKOOOO)", ULL(e->offset), e->name != NULL ? e->name : "", ULL(e->id),
        ULL(e->stream_class != NULL ? e->stream_class->id : 0), ULL(e->cycles),
        opt_u64(e->has_clock, e->ns), ULL(e->packet_index), Py_None, Py_None, Py_None, Py_None);
    if (o == NULL)
        return pytracerd_reader_keep_exception(r);
    Py_XSETREF(s->event, o);
    return TRACERD_CB_CONTINUE;
}

static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    (void)e;
    pyreader *r = user;
    struct pyctf *s = r->ctf;
    PyObject *o = s->event;
    s->event = NULL;
    if (o == NULL)
        return TRACERD_CB_CONTINUE;
    static const int slot[4] = {7, 8, 9, 10};
    for (int i = 0; i < 4; i++) {
        PyObject *old = PyStructSequence_GET_ITEM(o, slot[i]);
        PyStructSequence_SET_ITEM(o, slot[i], take_scope(s, TRACERD_CTF_SCOPE_EVENT_HEADER + i));
        Py_DECREF(old);
    }
    return pytracerd_reader_push_obj(r, o);
}

static int on_loss(void *user, const tracerd_ctf_loss_t *l)
{
    return pytracerd_reader_push_obj(
        user,
        pytracerd_make(types[T_LOSS], "(KsKKNN)", ULL(l->offset),
                       l->kind == TRACERD_CTF_LOSS_EVENTS ? "events" : "packets", ULL(l->count),
                       ULL(l->stream_id), opt_u64(l->has_clock, l->begin_cycles),
                       opt_u64(l->has_clock, l->end_cycles)));
}

/* Puts v (a new reference, stolen) into the innermost open container. */
static int add(struct pyctf *s, PyObject *name, PyObject *v)
{
    if (v == NULL)
        return -1;
    if (s->depth == 0) {
        Py_DECREF(v);
        return 0;
    }
    PyObject *c = s->stack[s->depth - 1].c;
    int rc = PyList_Check(c) ? PyList_Append(c, v) : PyDict_SetItem(c, name, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *scalar(const tracerd_ctf_field_t *f)
{
    switch (f->kind) {
    case TRACERD_CTF_VALUE_INT:
        if (f->enum_label != NULL)
            return PyUnicode_FromString(f->enum_label);
        return PyLong_FromLongLong(f->v.i);
    case TRACERD_CTF_VALUE_UINT:
        if (f->enum_label != NULL)
            return PyUnicode_FromString(f->enum_label);
        return PyLong_FromUnsignedLongLong(f->v.u);
    case TRACERD_CTF_VALUE_BOOL:
        return PyBool_FromLong(f->v.u != 0);
    case TRACERD_CTF_VALUE_FLOAT:
        return PyFloat_FromDouble(f->v.f);
    case TRACERD_CTF_VALUE_STRING:
        return PyUnicode_DecodeUTF8(f->v.str.data != NULL ? f->v.str.data : "",
                                    (Py_ssize_t)f->v.str.len, "surrogateescape");
    case TRACERD_CTF_VALUE_BYTES:
        return PyBytes_FromStringAndSize((const char *)f->bytes.data, (Py_ssize_t)f->bytes.len);
    default:
        Py_RETURN_NONE;
    }
}

static int field(struct pyctf *s, const tracerd_ctf_field_t *f)
{
    int k = f->kind;
    int begin = k == TRACERD_CTF_VALUE_STRUCT_BEGIN || k == TRACERD_CTF_VALUE_ARRAY_BEGIN ||
                k == TRACERD_CTF_VALUE_SEQUENCE_BEGIN || k == TRACERD_CTF_VALUE_VARIANT_BEGIN ||
                k == TRACERD_CTF_VALUE_OPTIONAL_BEGIN;
    int end = k == TRACERD_CTF_VALUE_STRUCT_END || k == TRACERD_CTF_VALUE_ARRAY_END ||
              k == TRACERD_CTF_VALUE_SEQUENCE_END || k == TRACERD_CTF_VALUE_VARIANT_END ||
              k == TRACERD_CTF_VALUE_OPTIONAL_END;
    /* Inside a byte array given whole, only its END matters. */
    if (s->depth > 0 && s->stack[s->depth - 1].skip &&
        !(end && f->depth == s->stack[s->depth - 1].fdepth))
        return 0;
    if (begin) {
        if (s->depth == MAX_DEPTH) {
            PyErr_SetString(PyExc_RecursionError, "CTF fields nested too deep for tracerd.ctf");
            return -1;
        }
        PyObject *c;
        int skip = 0;
        if (f->depth == 0 && k == TRACERD_CTF_VALUE_STRUCT_BEGIN) {
            PyObject **scope = &s->scope[f->scope];
            if (*scope == NULL && (*scope = PyDict_New()) == NULL)
                return -1;
            c = *scope;
            Py_INCREF(c);
        } else if (k == TRACERD_CTF_VALUE_STRUCT_BEGIN || k == TRACERD_CTF_VALUE_VARIANT_BEGIN) {
            c = PyDict_New();
        } else if (f->bytes.data != NULL &&
                   (k == TRACERD_CTF_VALUE_ARRAY_BEGIN || k == TRACERD_CTF_VALUE_SEQUENCE_BEGIN)) {
            c = PyBytes_FromStringAndSize((const char *)f->bytes.data, (Py_ssize_t)f->bytes.len);
            skip = 1;
        } else {
            c = PyList_New(0);
        }
        if (c == NULL)
            return -1;
        PyObject *name = PyUnicode_FromString(f->name != NULL ? f->name : "");
        if (name == NULL) {
            Py_DECREF(c);
            return -1;
        }
        s->stack[s->depth].c = c;
        s->stack[s->depth].name = name;
        s->stack[s->depth].kind = k;
        s->stack[s->depth].skip = skip;
        s->stack[s->depth].fdepth = f->depth;
        s->depth++;
        return 0;
    }
    if (end) {
        if (s->depth == 0)
            return 0;
        s->depth--;
        PyObject *c = s->stack[s->depth].c, *name = s->stack[s->depth].name;
        int rc = 0;
        if (f->depth == 0 && k == TRACERD_CTF_VALUE_STRUCT_END) {
            Py_DECREF(c); /* a scope root: it stays in s->scope */
        } else if (k == TRACERD_CTF_VALUE_OPTIONAL_END) {
            PyObject *v = PyList_GET_SIZE(c) > 0 ? PyList_GET_ITEM(c, 0) : Py_None;
            Py_INCREF(v);
            Py_DECREF(c);
            rc = add(s, name, v);
        } else {
            rc = add(s, name, c);
        }
        Py_DECREF(name);
        return rc;
    }
    PyObject *name = PyUnicode_FromString(f->name != NULL ? f->name : "");
    if (name == NULL)
        return -1;
    int rc = add(s, name, scalar(f));
    Py_DECREF(name);
    return rc;
}

static int on_field(void *user, const tracerd_ctf_field_t *f)
{
    pyreader *r = user;
    if (field(r->ctf, f) != 0)
        return pytracerd_reader_keep_exception(r);
    return TRACERD_CB_CONTINUE;
}

static void callbacks(tracerd_ctf_callbacks_t *cbs)
{
    memset(cbs, 0, sizeof *cbs);
    cbs->on_packet_begin = on_packet;
    cbs->on_packet_end = on_packet_end;
    cbs->on_event_begin = on_event_begin;
    cbs->on_event_end = on_event_end;
    cbs->on_field = on_field;
    cbs->on_loss = on_loss;
    cbs->on_warning = pytracerd_reader_on_warning;
}

int pytracerd_ctf_open(pyreader *r, const char *directory, const void *metadata,
                       size_t metadata_len, int lenient, const tracerd_allocator_t *alloc)
{
    r->ctf = PyMem_RawCalloc(1, sizeof(struct pyctf));
    if (r->ctf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    tracerd_ctf_callbacks_t cbs;
    callbacks(&cbs);
    tracerd_status_t st;
    if (directory != NULL) {
        tracerd_ctf_dir_config_t cfg;
        tracerd_ctf_dir_config_init(&cfg);
        tracerd_ctf_stream_config_t scfg;
        tracerd_ctf_stream_config_init(&scfg);
        scfg.lenient_skip_packets = lenient != 0;
        cfg.stream = &scfg;
        st = tracerd_ctf_dir_open(directory, &cfg, &cbs, r, alloc, &r->ctfdir);
        if (st != TRACERD_OK) {
            if (r->ctfdir != NULL)
                pytracerd_raise(st, tracerd_ctf_dir_error_offset(r->ctfdir),
                                tracerd_ctf_dir_error_reason(r->ctfdir),
                                tracerd_ctf_dir_error_path(r->ctfdir));
            else
                pytracerd_raise(st, 0, "cannot open the CTF trace directory", NULL);
            return -1;
        }
        return 0;
    }
    if (metadata == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "tracerd.ctf: a stream needs its metadata (metadata=bytes or a path)");
        return -1;
    }
    char reason[256] = "";
    st = tracerd_ctf_trace_parse(metadata, metadata_len, NULL, alloc, &r->ctftrace, reason,
                                 sizeof reason);
    if (st != TRACERD_OK) {
        pytracerd_raise(st, 0, reason, NULL);
        return -1;
    }
    tracerd_ctf_stream_config_t cfg;
    tracerd_ctf_stream_config_init(&cfg);
    cfg.lenient_skip_packets = lenient != 0;
    st = tracerd_ctf_stream_new(r->ctftrace, &cfg, &cbs, r, alloc,
                                (tracerd_ctf_stream_t **)&r->impl);
    if (st != TRACERD_OK) {
        r->impl = NULL;
        pytracerd_raise(st, 0, "cannot create the CTF stream reader", NULL);
        return -1;
    }
    r->ops = tracerd_ctf_stream_ops();
    return 0;
}

int pytracerd_ctf_init_types(PyObject *module)
{
    static const char *const names[T_COUNT] = {"CtfPacket", "CtfPacketEnd", "CtfEvent", "CtfLoss"};
    return pytracerd_add_types(module, descs, types, names, T_COUNT);
}
