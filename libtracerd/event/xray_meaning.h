/* What the XRay event view makes of each record: a function entry is a
 * SPAN_BEGIN with its arguments (arg0, arg1, ... as unsigned integers), an
 * exit or tail exit a SPAN_END (tail exits flagged), both named by the
 * function id (an --instr-map name, else "fn#<id>"); a custom or typed
 * event an INSTANT with its type, size and payload. Shared by the event
 * view (map_xray.c) and the CLI's direct XRay paths (tools/tracerd), which
 * must make the same events as the event view; header-only, nothing
 * exported. Every function fills an event the caller has zeroed. */
#ifndef TRACERD_EVENT_XRAY_MEANING_H
#define TRACERD_EVENT_XRAY_MEANING_H

#include <tracerd/event.h>
#include <tracerd/xray.h>

#define XRAY_ARGN(n)                                                                               \
    {                                                                                              \
        "arg" #n, sizeof("arg" #n) - 1                                                             \
    }
static const tracerd_str_t xray_arg_names[] = {
    XRAY_ARGN(0),  XRAY_ARGN(1),  XRAY_ARGN(2),  XRAY_ARGN(3),  XRAY_ARGN(4),  XRAY_ARGN(5),
    XRAY_ARGN(6),  XRAY_ARGN(7),  XRAY_ARGN(8),  XRAY_ARGN(9),  XRAY_ARGN(10), XRAY_ARGN(11),
    XRAY_ARGN(12), XRAY_ARGN(13), XRAY_ARGN(14), XRAY_ARGN(15), XRAY_ARGN(16), XRAY_ARGN(17),
    XRAY_ARGN(18), XRAY_ARGN(19), XRAY_ARGN(20), XRAY_ARGN(21), XRAY_ARGN(22), XRAY_ARGN(23),
    XRAY_ARGN(24), XRAY_ARGN(25), XRAY_ARGN(26), XRAY_ARGN(27), XRAY_ARGN(28), XRAY_ARGN(29),
    XRAY_ARGN(30), XRAY_ARGN(31),
};
#undef XRAY_ARGN
/* arguments past this many are left out (the event is TRUNCATED) */
#define XRAY_ARG_NAMES ((uint32_t)(sizeof xray_arg_names / sizeof xray_arg_names[0]))

/* Every XRay event's category. */
static const tracerd_str_t xray_category = {"xray", 4};

/* At least this many bytes hold any "fn#<id>". */
#define XRAY_ID_NAME_BYTES 16u

/* "fn#<id>" at t (XRAY_ID_NAME_BYTES): the name of a function that the
 * names (--instr-map) do not give. */
static inline tracerd_str_t xray_id_name(char *t, int32_t id)
{
    char digits[12];
    size_t n = 0;
    uint32_t v = id < 0 ? (uint32_t)0 - (uint32_t)id : (uint32_t)id;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    size_t k = 0;
    t[k++] = 'f';
    t[k++] = 'n';
    t[k++] = '#';
    if (id < 0)
        t[k++] = '-';
    while (n > 0)
        t[k++] = digits[--n];
    tracerd_str_t s = {t, k};
    return s;
}

/* The name of function id: from names (may be NULL) when they give it,
 * else "fn#<id>" written at t (XRAY_ID_NAME_BYTES). */
static inline tracerd_str_t xray_function_name(const tracerd_xray_names_t *names, int32_t id,
                                               char *t)
{
    tracerd_str_t s;
    if (names != NULL && tracerd_xray_names_lookup(names, id, &s))
        return s;
    return xray_id_name(t, id);
}

/* What every event of a record has: its offset, time (ns when has_ns: the
 * header's frequency is not 0), thread, process (when not 0), CPU and the
 * category. */
static inline void xray_event_common(tracerd_event_t *ev, uint64_t offset, uint64_t tsc,
                                     uint64_t ns, int32_t tid, int32_t pid, uint16_t cpu,
                                     bool has_ns)
{
    ev->format = TRACERD_EVENT_FORMAT_XRAY;
    ev->offset = offset;
    ev->ticks = tsc;
    ev->ns = ns;
    ev->flags = TRACERD_EVENT_HAS_TID | TRACERD_EVENT_HAS_CPU;
    if (has_ns)
        ev->flags |= TRACERD_EVENT_HAS_NS;
    if (pid != 0)
        ev->flags |= TRACERD_EVENT_HAS_PID;
    ev->pid = (uint64_t)(uint32_t)pid;
    ev->tid = (uint64_t)(uint32_t)tid;
    ev->cpu = cpu;
    ev->category = xray_category;
}

/* Is a function record of this kind an exit (the end of a span)? */
static inline bool xray_is_exit(tracerd_xray_kind_t kind)
{
    return kind == TRACERD_XRAY_EXIT || kind == TRACERD_XRAY_TAIL_EXIT;
}

/* A function record's event without its name and arguments. */
static inline void xray_function_head(tracerd_event_t *ev, const tracerd_xray_function_t *f,
                                      bool has_ns)
{
    xray_event_common(ev, f->offset, f->tsc, f->ns, f->tid, f->pid, f->cpu, has_ns);
    ev->kind = xray_is_exit(f->kind) ? TRACERD_EVENT_SPAN_END : TRACERD_EVENT_SPAN_BEGIN;
    if (f->kind == TRACERD_XRAY_TAIL_EXIT)
        ev->flags |= TRACERD_EVENT_TAIL;
    ev->name_id = (uint64_t)(uint32_t)f->function_id;
    ev->flags |= TRACERD_EVENT_HAS_NAME_ID;
}

/* A function record's arguments as the event's, in args[0, cap) (the auto
 * reader's max_args). */
static inline void xray_function_args(tracerd_event_t *ev, const tracerd_xray_function_t *f,
                                      tracerd_event_arg_t *args, uint32_t cap)
{
    if (f->nargs == 0 || f->args == NULL)
        return;
    uint32_t n = f->nargs;
    if (n > cap || n > XRAY_ARG_NAMES) {
        n = cap < XRAY_ARG_NAMES ? cap : XRAY_ARG_NAMES;
        ev->flags |= TRACERD_EVENT_TRUNCATED;
    }
    for (uint32_t i = 0; i < n; i++) {
        args[i].name = xray_arg_names[i];
        args[i].type = TRACERD_EVENT_ARG_UINT;
        args[i].v.u = f->args[i];
    }
    ev->args = args;
    ev->nargs = n;
}

/* A custom or typed event record's event without its arguments. */
static inline void xray_event_head(tracerd_event_t *ev, const tracerd_xray_event_t *e, bool has_ns)
{
    xray_event_common(ev, e->offset, e->tsc, e->ns, e->tid, e->pid, e->cpu, has_ns);
    ev->kind = TRACERD_EVENT_INSTANT;
    static const tracerd_str_t custom = {"custom-event", 12}, typed = {"typed-event", 11};
    ev->name = e->typed ? typed : custom;
}

/* A custom or typed event record's event, its arguments in args[0, cap). */
static inline void xray_event_event(tracerd_event_t *ev, const tracerd_xray_event_t *e, bool has_ns,
                                    tracerd_event_arg_t *args, uint32_t cap)
{
    xray_event_head(ev, e, has_ns);
    static const tracerd_str_t n_type = {"type", 4}, n_size = {"size", 4},
                               n_payload = {"payload", 7};
    uint32_t n = 0;
    if (e->typed && n < cap) {
        args[n].name = n_type;
        args[n].type = TRACERD_EVENT_ARG_UINT;
        args[n++].v.u = e->event_type;
    }
    if (n < cap) {
        args[n].name = n_size;
        args[n].type = TRACERD_EVENT_ARG_UINT;
        args[n++].v.u = e->size;
    }
    if (e->payload.data != NULL && n < cap) {
        args[n].name = n_payload;
        args[n].type = TRACERD_EVENT_ARG_BYTES;
        args[n++].v.bytes = e->payload;
    } else if (e->size > 0) {
        ev->flags |= TRACERD_EVENT_TRUNCATED;
    }
    ev->args = args;
    ev->nargs = n;
}

#endif
