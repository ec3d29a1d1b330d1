/* The event queue between the reader's callbacks and Python: copies of
 * tracerd_event_t (whose views are borrowed until the callback returns),
 * names interned into tables with stable ids, arguments in an arena. */
#include "pytracerd.h"

#include <stdlib.h>
#include <string.h>

struct ientry {
    char *s;
    uint32_t len;
    uint32_t hash;
    PyObject *py;
};

/* ---- interned strings ----------------------------------------------------- */

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void itable_clear(itable *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        PyMem_RawFree(t->e[i].s);
        Py_XDECREF(t->e[i].py);
    }
    PyMem_RawFree(t->e);
    PyMem_RawFree(t->slots);
    Py_XDECREF(t->list);
    memset(t, 0, sizeof *t);
}

static int itable_grow_slots(itable *t)
{
    uint32_t ns = t->nslots ? t->nslots * 2 : 64;
    uint32_t *slots = PyMem_RawCalloc(ns, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t k = t->e[i].hash & (ns - 1);
        while (slots[k] != 0)
            k = (k + 1) & (ns - 1);
        slots[k] = i + 1;
    }
    PyMem_RawFree(t->slots);
    t->slots = slots;
    t->nslots = ns;
    return 0;
}

uint32_t itable_intern(itable *t, const char *s, size_t len)
{
    if (len > UINT32_MAX - 1)
        len = UINT32_MAX - 1;
    uint32_t h = hash_bytes(s, len);
    if (t->nslots != 0) {
        uint32_t k = h & (t->nslots - 1);
        for (uint32_t id; (id = t->slots[k]) != 0; k = (k + 1) & (t->nslots - 1)) {
            const struct ientry *e = &t->e[id - 1];
            if (e->hash == h && e->len == len && (len == 0 || memcmp(e->s, s, len) == 0))
                return id - 1;
        }
    }
    if (t->n == ITABLE_NONE - 1)
        return ITABLE_NONE;
    if ((uint64_t)(t->n + 1) * 2 > t->nslots && itable_grow_slots(t) != 0)
        return ITABLE_NONE;
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 32;
        struct ientry *ne = PyMem_RawRealloc(t->e, (size_t)nc * sizeof *ne);
        if (ne == NULL)
            return ITABLE_NONE;
        t->e = ne;
        t->cap = nc;
    }
    char *copy = PyMem_RawMalloc(len + 1);
    if (copy == NULL)
        return ITABLE_NONE;
    if (len != 0)
        memcpy(copy, s, len);
    copy[len] = '\0';
    struct ientry *e = &t->e[t->n];
    e->s = copy;
    e->len = (uint32_t)len;
    e->hash = h;
    e->py = NULL;
    uint32_t k = h & (t->nslots - 1);
    while (t->slots[k] != 0)
        k = (k + 1) & (t->nslots - 1);
    t->slots[k] = t->n + 1;
    return t->n++;
}

PyObject *itable_str(itable *t, uint32_t id)
{
    struct ientry *e = &t->e[id];
    if (e->py == NULL) {
        /* Trace text is not always UTF-8: keep every byte (surrogateescape). */
        e->py = PyUnicode_DecodeUTF8(e->s, e->len, "surrogateescape");
        if (e->py == NULL)
            return NULL;
        PyUnicode_InternInPlace(&e->py);
    }
    return e->py;
}

PyObject *itable_list(itable *t)
{
    if (t->list == NULL && (t->list = PyList_New(0)) == NULL)
        return NULL;
    for (uint32_t i = (uint32_t)PyList_GET_SIZE(t->list); i < t->n; i++) {
        PyObject *s = itable_str(t, i);
        if (s == NULL || PyList_Append(t->list, s) != 0)
            return NULL;
    }
    Py_INCREF(t->list);
    return t->list;
}

/* ---- the queue ------------------------------------------------------------ */

void evq_free(evqueue *q)
{
    PyMem_RawFree(q->ev);
    PyMem_RawFree(q->arena);
    itable_clear(&q->names);
    itable_clear(&q->categories);
    itable_clear(&q->argnames);
    memset(q, 0, sizeof *q);
}

void evq_compact(evqueue *q)
{
    if (q->head == q->len) {
        q->head = q->len = 0;
        q->arena_len = 0;
    }
}

static unsigned char *arena_take(evqueue *q, size_t n, size_t *off)
{
    size_t at = (q->arena_len + 7) & ~(size_t)7;
    if (at + n < at)
        return NULL;
    if (at + n > q->arena_cap) {
        size_t nc = q->arena_cap ? q->arena_cap : 4096;
        while (nc < at + n)
            nc *= 2;
        unsigned char *na = PyMem_RawRealloc(q->arena, nc);
        if (na == NULL)
            return NULL;
        q->arena = na;
        q->arena_cap = nc;
    }
    *off = at;
    q->arena_len = at + n;
    return q->arena + at;
}

/* Arguments in the arena: a qarg each, then the bytes of a string or byte
 * value (len bytes), the next qarg 8-aligned. */
static int push_args(evqueue *q, const tracerd_event_t *ev, qev *e)
{
    size_t first = 0;
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const tracerd_event_arg_t *a = &ev->args[i];
        struct qarg qa;
        memset(&qa, 0, sizeof qa);
        qa.name = itable_intern(&q->argnames, a->name.data, a->name.len);
        if (qa.name == ITABLE_NONE)
            return -1;
        qa.type = (uint32_t)a->type;
        const void *data = NULL;
        switch (a->type) {
        case TRACERD_EVENT_ARG_INT:
            qa.v.i = a->v.i;
            break;
        case TRACERD_EVENT_ARG_UINT:
        case TRACERD_EVENT_ARG_POINTER:
        case TRACERD_EVENT_ARG_KOID:
            qa.v.u = a->v.u;
            break;
        case TRACERD_EVENT_ARG_DOUBLE:
            qa.v.d = a->v.d;
            break;
        case TRACERD_EVENT_ARG_BOOL:
            qa.v.u = a->v.b;
            break;
        case TRACERD_EVENT_ARG_STRING:
            data = a->v.str.data;
            qa.len = a->v.str.len;
            break;
        case TRACERD_EVENT_ARG_BYTES:
            data = a->v.bytes.data;
            qa.len = a->v.bytes.len;
            break;
        default:
            break;
        }
        size_t off;
        unsigned char *p = arena_take(q, sizeof qa + qa.len, &off);
        if (p == NULL)
            return -1;
        memcpy(p, &qa, sizeof qa);
        if (qa.len != 0)
            memcpy(p + sizeof qa, data, qa.len);
        if (i == 0)
            first = off;
    }
    e->args_off = first;
    e->nargs = ev->nargs;
    return 0;
}

int evq_push(evqueue *q, const tracerd_event_t *ev, int with_args)
{
    if (q->len == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 1024;
        qev *n = PyMem_RawRealloc(q->ev, nc * sizeof *n);
        if (n == NULL)
            return -1;
        q->ev = n;
        q->cap = nc;
    }
    qev *e = &q->ev[q->len];
    e->offset = ev->offset;
    e->ticks = ev->ticks;
    e->ns = ev->ns;
    e->end_ticks = ev->end_ticks;
    e->end_ns = ev->end_ns;
    e->pid = ev->pid;
    e->tid = ev->tid;
    e->id = ev->id;
    e->name_id = ev->name_id;
    e->other_pid = ev->other_pid;
    e->other_tid = ev->other_tid;
    e->cpu = ev->cpu;
    e->flags = ev->flags;
    e->level = ev->level;
    e->kind = (uint8_t)ev->kind;
    e->format = (uint8_t)ev->format;
    e->name = itable_intern(&q->names, ev->name.data, ev->name.len);
    e->category = itable_intern(&q->categories, ev->category.data, ev->category.len);
    if (e->name == ITABLE_NONE || e->category == ITABLE_NONE)
        return -1;
    e->nargs = 0;
    e->args_off = 0;
    e->msg_len = 0;
    e->msg_off = 0;
    e->has_args = (uint8_t)(with_args != 0);
    if (with_args) {
        if (push_args(q, ev, e) != 0)
            return -1;
        if (ev->message.len != 0) {
            unsigned char *p = arena_take(q, ev->message.len, &e->msg_off);
            if (p == NULL)
                return -1;
            memcpy(p, ev->message.data, ev->message.len);
            e->msg_len = ev->message.len;
        }
    }
    q->len++;
    return 0;
}
