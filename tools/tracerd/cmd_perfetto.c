/* `tracerd perfetto`: the trace as Perfetto's native protobuf format, hand
 * encoded (no protobuf runtime): a Trace of TracePackets on one sequence.
 * Tracks: a TrackDescriptor per process (ProcessDescriptor) and per thread
 * (ThreadDescriptor), per async span id and per counter series (with a
 * CounterDescriptor). Events: TrackEvents whose names and categories are
 * interned (InternedData, iids from 1, cleared state at the first packet);
 * spans as SLICE_BEGIN / SLICE_END pairs balanced per thread as in `json`
 * (an end whose begin is not in the trace is left out; spans open at the
 * end are closed), complete spans as a begin and an end, instants, logs,
 * counters (one packet per numeric argument), flows as flow_ids /
 * terminating_flow_ids on an instant of the thread, arguments as debug
 * annotations. CPU scheduling: FXT context switches and wakeups, and CTF
 * (LTTng kernel) sched_switch / sched_wakeup events, become ftrace
 * sched_switch / sched_wakeup events in FtraceEventBundles, which Perfetto
 * shows as CPU tracks. Field numbers: doc/formats/perfetto.md.
 *
 * Output goes to a bounded buffer drained when it passes OUT_HIGH, as in
 * json; tracks and interned strings are in tables bounded by EV_MAX_THREADS
 * and EV_MAX_NAMES (past them names are written inline, not interned). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evrun.h"

#define OUT_HIGH (64u * 1024u)
#define SEQ_ID 1u

/* Field numbers (perfetto/protos/perfetto/trace/...). */
enum {
    TRACE_PACKET = 1,
    TP_FTRACE_EVENTS = 1,
    TP_TIMESTAMP = 8,
    TP_SEQ_ID = 10,
    TP_TRACK_EVENT = 11,
    TP_INTERNED = 12,
    TP_SEQ_FLAGS = 13,
    TP_TRACK_DESCRIPTOR = 60,
    TE_CATEGORY_IIDS = 3,
    TE_DEBUG = 4,
    TE_TYPE = 9,
    TE_NAME_IID = 10,
    TE_TRACK_UUID = 11,
    TE_NAME = 23,
    TE_COUNTER_VALUE = 30,
    TE_DOUBLE_COUNTER_VALUE = 44,
    TE_FLOW_IDS = 47,
    TE_TERMINATING_FLOW_IDS = 48,
    DA_BOOL = 2,
    DA_UINT = 3,
    DA_INT = 4,
    DA_DOUBLE = 5,
    DA_STRING = 6,
    DA_POINTER = 7,
    DA_NAME = 10,
    ID_CATEGORIES = 1,
    ID_NAMES = 2,
    IID_IID = 1,
    IID_NAME = 2,
    TD_UUID = 1,
    TD_NAME = 2,
    TD_PROCESS = 3,
    TD_THREAD = 4,
    TD_PARENT = 5,
    TD_COUNTER = 8,
    PD_PID = 1,
    PD_NAME = 6,
    THD_PID = 1,
    THD_TID = 2,
    THD_NAME = 5,
    FB_CPU = 1,
    FB_EVENT = 2,
    FE_TIMESTAMP = 1,
    FE_PID = 2,
    FE_SCHED_SWITCH = 4,
    FE_SCHED_WAKEUP = 17,
    SS_PREV_COMM = 1,
    SS_PREV_PID = 2,
    SS_PREV_PRIO = 3,
    SS_PREV_STATE = 4,
    SS_NEXT_COMM = 5,
    SS_NEXT_PID = 6,
    SS_NEXT_PRIO = 7,
    SW_COMM = 1,
    SW_PID = 2,
    SW_PRIO = 3,
    SW_SUCCESS = 4,
    SW_TARGET_CPU = 5,
};

enum { T_SLICE_BEGIN = 1, T_SLICE_END = 2, T_INSTANT = 3, T_COUNTER = 4 };
enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2 };

struct pw {
    cli_t *c;
    uint8_t *buf;
    size_t len, cap;
    bool oom;
    bool first; /* no packet written yet: the first clears the incremental state */
    struct ev_threads threads;
    struct ev_table tracks; /* track uuid -> 0: its descriptor was written */
    uint32_t ntracks;
    struct ev_table names, cats; /* name / category keys -> iid - 1 */
    uint32_t niids;
    /* caches of the last thread track and the last category (consecutive
     * events mostly share them) */
    uint64_t last_pid, last_tid, last_track;
    bool has_last;
    char last_cat[64];
    size_t last_cat_len;
    uint64_t last_cat_iid;
    uint64_t unmatched_ends, dropped_deep;
    const char *fmt_name;
    cli_demangler_t *dm;
    /* the packet being built: interned entries first go to idata */
    uint8_t *idata;
    size_t ilen, icap;
};

/* ---- bytes ------------------------------------------------------------------ */

static bool reserve(struct pw *w, uint8_t **b, size_t *len, size_t *cap, size_t n)
{
    if (*len + n <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 2 * OUT_HIGH;
    while (ncap < *len + n)
        ncap *= 2;
    uint8_t *nb = realloc(*b, ncap);
    if (nb == NULL) {
        w->oom = true;
        return false;
    }
    *b = nb;
    *cap = ncap;
    return true;
}

static inline void put(struct pw *w, const void *p, size_t n)
{
    if (w->len + n > w->cap && !reserve(w, &w->buf, &w->len, &w->cap, n))
        return;
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static inline void varint(struct pw *w, uint64_t v)
{
    if (w->len + 10 > w->cap && !reserve(w, &w->buf, &w->len, &w->cap, 10))
        return;
    uint8_t *b = w->buf + w->len;
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    w->len += n;
}

static inline void tag(struct pw *w, unsigned field, unsigned wt)
{
    varint(w, (uint64_t)field << 3 | wt);
}

static void f_varint(struct pw *w, unsigned field, uint64_t v)
{
    tag(w, field, WT_VARINT);
    varint(w, v);
}

static void f_fixed64(struct pw *w, unsigned field, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    tag(w, field, WT_FIXED64);
    put(w, b, 8);
}

static void f_double(struct pw *w, unsigned field, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    f_fixed64(w, field, v);
}

static void f_bytes(struct pw *w, unsigned field, const void *p, size_t n)
{
    tag(w, field, WT_LEN);
    varint(w, n);
    put(w, p, n);
}

/* A nested message: the tag, then four bytes for its length (a redundant
 * varint, as protozero writes them), patched by msg_end. */
static size_t msg_begin(struct pw *w, unsigned field)
{
    tag(w, field, WT_LEN);
    static const uint8_t zero[4] = {0x80, 0x80, 0x80, 0x00};
    put(w, zero, 4);
    return w->len;
}

static void msg_end(struct pw *w, size_t start)
{
    if (w->oom)
        return;
    size_t n = w->len - start;
    uint8_t *p = w->buf + start - 4;
    p[0] = (uint8_t)(n | 0x80);
    p[1] = (uint8_t)(n >> 7 | 0x80);
    p[2] = (uint8_t)(n >> 14 | 0x80);
    p[3] = (uint8_t)(n >> 21 & 0x7f);
}

/* ---- packets ---------------------------------------------------------------- */

/* Starts a TracePacket on the sequence; returns what packet_end needs. */
static size_t packet_begin(struct pw *w, uint64_t ts, bool has_ts)
{
    size_t p = msg_begin(w, TRACE_PACKET);
    if (has_ts)
        f_varint(w, TP_TIMESTAMP, ts);
    f_varint(w, TP_SEQ_ID, SEQ_ID);
    f_varint(w, TP_SEQ_FLAGS,
             w->first ? 1u /* INCREMENTAL_STATE_CLEARED */
                      : 2u /* NEEDS_INCREMENTAL_STATE */);
    w->first = false;
    w->ilen = 0;
    return p;
}

/* Ends a packet, appending the interned entries its event introduced. */
static void packet_end(struct pw *w, size_t p)
{
    if (w->ilen > 0) {
        tag(w, TP_INTERNED, WT_LEN);
        varint(w, w->ilen);
        put(w, w->idata, w->ilen);
        w->ilen = 0;
    }
    msg_end(w, p);
}

/* The iid of the string keyed (k1, k2) in table t, of kind ID_NAMES or
 * ID_CATEGORIES: when new, text (n bytes) is interned in this packet. 0 when
 * the table is full (write the string inline). */
static uint64_t intern(struct pw *w, struct ev_table *t, unsigned kind, uint64_t k1, uint64_t k2,
                       const char *text, size_t n)
{
    uint32_t i = ev_table_find(t, k1, k2);
    if (i != UINT32_MAX)
        return i + 1u;
    if (w->niids >= EV_MAX_NAMES)
        return 0;
    bool ins;
    i = ev_table_get(t, k1, k2, w->niids, &ins);
    if (i == UINT32_MAX) {
        w->oom = true;
        return 0;
    }
    w->niids++;
    /* InternedData.{event_names|event_categories} { iid = 1, name = 2 } */
    if (!reserve(w, &w->idata, &w->ilen, &w->icap, 40 + n))
        return 0;
    uint8_t head[32];
    size_t t_len = 0, k = 0;
    head[t_len++] = IID_IID << 3 | WT_VARINT;
    for (uint64_t v = (uint64_t)i + 1u;; v >>= 7) {
        head[t_len++] = (uint8_t)(v >= 0x80 ? (v | 0x80) : v);
        if (v < 0x80)
            break;
    }
    head[t_len++] = IID_NAME << 3 | WT_LEN;
    for (uint64_t v = n;; v >>= 7) {
        head[t_len++] = (uint8_t)(v >= 0x80 ? (v | 0x80) : v);
        if (v < 0x80)
            break;
    }
    uint8_t *q = w->idata + w->ilen;
    q[k++] = (uint8_t)(kind << 3 | WT_LEN);
    for (uint64_t v = t_len + n;; v >>= 7) {
        q[k++] = (uint8_t)(v >= 0x80 ? (v | 0x80) : v);
        if (v < 0x80)
            break;
    }
    memcpy(q + k, head, t_len);
    memcpy(q + k + t_len, text, n);
    w->ilen += k + t_len + n;
    return (uint64_t)i + 1u;
}

/* ---- tracks ------------------------------------------------------------------- */

#define K_PROCESS 0xfffffffffffff001ull /* second keys of the non-thread tracks */
#define K_COUNTER 0xfffffffffffff002ull
#define K_ASYNC 0xfffffffffffff003ull

/* The uuid of the track keyed (k1, k2): small numbers from 1 in the order
 * tracks appear (short varints); *fresh when its descriptor is due. Past
 * EV_MAX_THREADS * 4 tracks, a hash of the key with the top bit set, and the
 * descriptor is written again each time (bounded memory). */
static uint64_t track_uuid(struct pw *w, uint64_t k1, uint64_t k2, bool *fresh)
{
    uint32_t i = ev_table_find(&w->tracks, k1, k2);
    *fresh = false;
    if (i != UINT32_MAX)
        return (uint64_t)i + 1u;
    *fresh = true;
    if (w->ntracks < EV_MAX_THREADS * 4u) {
        bool ins;
        i = ev_table_get(&w->tracks, k1, k2, w->ntracks, &ins);
        if (i != UINT32_MAX) {
            w->ntracks++;
            return (uint64_t)i + 1u;
        }
        w->oom = true;
    }
    uint64_t k[2] = {k1, k2};
    return ev_hash(k, sizeof k, 0) | (1ull << 63);
}

static void process_descriptor(struct pw *w, uint64_t uuid, uint64_t pid, const char *name,
                               size_t n)
{
    size_t p = packet_begin(w, 0, false);
    size_t td = msg_begin(w, TP_TRACK_DESCRIPTOR);
    f_varint(w, TD_UUID, uuid);
    size_t pd = msg_begin(w, TD_PROCESS);
    f_varint(w, PD_PID, (uint64_t)(int64_t)(int32_t)pid);
    if (name != NULL)
        f_bytes(w, PD_NAME, name, n);
    msg_end(w, pd);
    msg_end(w, td);
    packet_end(w, p);
}

static void thread_descriptor(struct pw *w, uint64_t uuid, uint64_t parent, uint64_t pid,
                              uint64_t tid, const char *name, size_t n)
{
    size_t p = packet_begin(w, 0, false);
    size_t td = msg_begin(w, TP_TRACK_DESCRIPTOR);
    f_varint(w, TD_UUID, uuid);
    f_varint(w, TD_PARENT, parent);
    size_t th = msg_begin(w, TD_THREAD);
    f_varint(w, THD_PID, (uint64_t)(int64_t)(int32_t)pid);
    f_varint(w, THD_TID, tid);
    if (name != NULL)
        f_bytes(w, THD_NAME, name, n);
    msg_end(w, th);
    msg_end(w, td);
    packet_end(w, p);
}

/* A named child track of a process (async spans, counters). */
static void child_descriptor(struct pw *w, uint64_t uuid, uint64_t parent, const char *name,
                             size_t n, bool counter)
{
    size_t p = packet_begin(w, 0, false);
    size_t td = msg_begin(w, TP_TRACK_DESCRIPTOR);
    f_varint(w, TD_UUID, uuid);
    f_varint(w, TD_PARENT, parent);
    f_bytes(w, TD_NAME, name, n);
    if (counter)
        msg_end(w, msg_begin(w, TD_COUNTER));
    msg_end(w, td);
    packet_end(w, p);
}

/* The process track, its descriptor written the first time. */
static uint64_t process_track(struct pw *w, uint64_t pid)
{
    bool fresh;
    uint64_t u = track_uuid(w, pid, K_PROCESS, &fresh);
    if (fresh) {
        char name[64];
        int n =
            snprintf(name, sizeof name, "%s process %llu", w->fmt_name, (unsigned long long)pid);
        process_descriptor(w, u, pid, name, (size_t)n);
    }
    return u;
}

/* The thread track of an event, its process and thread descriptors written first. */
static uint64_t thread_track(struct pw *w, uint64_t pid, uint64_t tid)
{
    if (w->has_last && w->last_pid == pid && w->last_tid == tid)
        return w->last_track;
    uint64_t parent = process_track(w, pid);
    bool fresh;
    uint64_t u = track_uuid(w, pid, tid, &fresh);
    if (fresh)
        thread_descriptor(w, u, parent, pid, tid, NULL, 0);
    w->last_pid = pid;
    w->last_tid = tid;
    w->last_track = u;
    w->has_last = true;
    return u;
}

/* ---- events --------------------------------------------------------------------- */

static void put_name(struct pw *w, const tracerd_event_t *ev, const char *fallback)
{
    const char *s = ev->name.len > 0 ? ev->name.data : fallback;
    size_t n = ev->name.len > 0 ? ev->name.len : strlen(fallback);
    /* keyed by the raw name (or the XRay function id), demangled once */
    uint64_t k1 = (ev->flags & TRACERD_EVENT_HAS_NAME_ID) ? ev->name_id : ev_hash(s, n, 0);
    uint64_t k2 = (ev->flags & TRACERD_EVENT_HAS_NAME_ID) ? UINT64_MAX : n;
    uint64_t iid;
    uint32_t found = ev_table_find(&w->names, k1, k2);
    char dbuf[512];
    if (found != UINT32_MAX) {
        iid = found + 1u;
    } else {
        size_t dn = cli_demangle(w->dm, s, n, dbuf, sizeof dbuf);
        iid = intern(w, &w->names, ID_NAMES, k1, k2, dn > 0 ? dbuf : s, dn > 0 ? dn : n);
        if (dn > 0) {
            s = dbuf;
            n = dn;
        }
    }
    if (iid != 0)
        f_varint(w, TE_NAME_IID, iid);
    else
        f_bytes(w, TE_NAME, s, n);
    const char *cat = ev->category.len > 0 ? ev->category.data : w->fmt_name;
    size_t cn = ev->category.len > 0 ? ev->category.len : strlen(w->fmt_name);
    if (cn != w->last_cat_len || cn > sizeof w->last_cat || memcmp(cat, w->last_cat, cn) != 0) {
        w->last_cat_iid = intern(w, &w->cats, ID_CATEGORIES, ev_hash(cat, cn, 0), cn, cat, cn);
        w->last_cat_len = cn <= sizeof w->last_cat ? cn : SIZE_MAX;
        if (cn <= sizeof w->last_cat)
            memcpy(w->last_cat, cat, cn);
    }
    if (w->last_cat_iid != 0)
        f_varint(w, TE_CATEGORY_IIDS, w->last_cat_iid);
}

static void put_annotation_u(struct pw *w, const char *name, uint64_t v)
{
    size_t d = msg_begin(w, TE_DEBUG);
    f_bytes(w, DA_NAME, name, strlen(name));
    f_varint(w, DA_UINT, v);
    msg_end(w, d);
}

static void put_args(struct pw *w, const tracerd_event_t *ev)
{
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const tracerd_event_arg_t *a = &ev->args[i];
        size_t d = msg_begin(w, TE_DEBUG);
        f_bytes(w, DA_NAME, a->name.data, a->name.len);
        switch (a->type) {
        case TRACERD_EVENT_ARG_INT:
            f_varint(w, DA_INT, (uint64_t)a->v.i);
            break;
        case TRACERD_EVENT_ARG_UINT:
        case TRACERD_EVENT_ARG_KOID:
            f_varint(w, DA_UINT, a->v.u);
            break;
        case TRACERD_EVENT_ARG_DOUBLE:
            f_double(w, DA_DOUBLE, a->v.d);
            break;
        case TRACERD_EVENT_ARG_BOOL:
            f_varint(w, DA_BOOL, a->v.b);
            break;
        case TRACERD_EVENT_ARG_STRING:
            f_bytes(w, DA_STRING, a->v.str.data, a->v.str.len);
            break;
        case TRACERD_EVENT_ARG_POINTER:
            f_varint(w, DA_POINTER, a->v.u);
            break;
        case TRACERD_EVENT_ARG_BYTES: {
            /* as hex text, like json */
            static const char hx[] = "0123456789abcdef";
            size_t n = a->v.bytes.len;
            tag(w, DA_STRING, WT_LEN);
            varint(w, 2 * n);
            for (size_t k = 0; k < n; k++) {
                char two[2] = {hx[a->v.bytes.data[k] >> 4], hx[a->v.bytes.data[k] & 15]};
                put(w, two, 2);
            }
            break;
        }
        default:
            f_bytes(w, DA_STRING, "null", 4);
            break;
        }
        msg_end(w, d);
    }
    if (ev->kind == TRACERD_EVENT_LOG) {
        size_t d = msg_begin(w, TE_DEBUG);
        f_bytes(w, DA_NAME, "message", 7);
        f_bytes(w, DA_STRING, ev->message.data, ev->message.len);
        msg_end(w, d);
    }
    if (ev->flags & TRACERD_EVENT_HAS_CPU)
        put_annotation_u(w, "cpu", ev->cpu);
}

/* One TrackEvent packet: type on track, at ts, named (unless an end). */
static void track_event(struct pw *w, const tracerd_event_t *ev, unsigned type, uint64_t track,
                        uint64_t ts, const char *fallback, bool args)
{
    size_t p = packet_begin(w, ts, true);
    size_t te = msg_begin(w, TP_TRACK_EVENT);
    f_varint(w, TE_TYPE, type);
    f_varint(w, TE_TRACK_UUID, track);
    if (ev != NULL) {
        put_name(w, ev, fallback);
        if (ev->kind == TRACERD_EVENT_FLOW_BEGIN || ev->kind == TRACERD_EVENT_FLOW_STEP)
            f_fixed64(w, TE_FLOW_IDS, ev->id);
        else if (ev->kind == TRACERD_EVENT_FLOW_END)
            f_fixed64(w, TE_TERMINATING_FLOW_IDS, ev->id);
        if (args)
            put_args(w, ev);
    }
    msg_end(w, te);
    packet_end(w, p);
}

static int close_frame(void *ctx, struct ev_thread *t, const struct ev_frame *f, uint64_t end)
{
    struct pw *w = ctx;
    (void)f;
    track_event(w, NULL, T_SLICE_END, thread_track(w, t->pid, t->tid), end, NULL, false);
    return 0;
}

/* An argument of ev by name, or NULL. */
static const tracerd_event_arg_t *arg(const tracerd_event_t *ev, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t i = 0; i < ev->nargs; i++)
        if (ev->args[i].name.len == n && memcmp(ev->args[i].name.data, name, n) == 0)
            return &ev->args[i];
    return NULL;
}

static bool arg_int(const tracerd_event_t *ev, const char *name, int64_t *v)
{
    const tracerd_event_arg_t *a = arg(ev, name);
    if (a == NULL || (a->type != TRACERD_EVENT_ARG_INT && a->type != TRACERD_EVENT_ARG_UINT))
        return false;
    *v = a->type == TRACERD_EVENT_ARG_INT ? a->v.i : (int64_t)a->v.u;
    return true;
}

static void put_comm(struct pw *w, unsigned field, const tracerd_event_t *ev, const char *name)
{
    const tracerd_event_arg_t *a = arg(ev, name);
    if (a != NULL && a->type == TRACERD_EVENT_ARG_STRING)
        f_bytes(w, field, a->v.str.data, a->v.str.len);
}

/* FtraceEventBundle { cpu, event { timestamp, pid, sched_switch | sched_wakeup } } */
static size_t ftrace_begin(struct pw *w, uint32_t cpu, uint64_t ts, uint64_t pid, size_t *bundle,
                           size_t *fe)
{
    size_t p = packet_begin(w, ts, true);
    *bundle = msg_begin(w, TP_FTRACE_EVENTS);
    f_varint(w, FB_CPU, cpu);
    *fe = msg_begin(w, FB_EVENT);
    f_varint(w, FE_TIMESTAMP, ts);
    f_varint(w, FE_PID, (uint32_t)pid);
    return p;
}

static void ftrace_end(struct pw *w, size_t p, size_t bundle, size_t fe)
{
    msg_end(w, fe);
    msg_end(w, bundle);
    packet_end(w, p);
}

/* An FXT outgoing thread state (Zircon's: 0 new, 1 running, 2 suspended,
 * 3 blocked, 4 dying, 5 dead) as Linux task state bits, which is what
 * Perfetto reads from sched_switch's prev_state: new and running (preempted)
 * are runnable (0, R), blocked is a sleep (1, S), suspended is stopped
 * (4, T), dying a zombie (0x20, Z), dead is dead (0x10, X). -1 for a state
 * Zircon does not define (prev_state is then left out). */
static int64_t zircon_state_as_linux(int64_t state)
{
    static const int64_t linux_bits[] = {0, 0, 4, 1, 0x20, 0x10};
    return state >= 0 && state < 6 ? linux_bits[state] : -1;
}

/* Scheduling: FXT context switches / wakeups, CTF sched_switch / sched_wakeup.
 * Returns false when ev is not one. */
static bool sched_event(struct pw *w, const tracerd_event_t *ev, uint64_t ts)
{
    if (!(ev->flags & TRACERD_EVENT_HAS_CPU))
        return false;
    size_t p, b, fe, m;
    int64_t prev, next, v;
    if (ev->kind == TRACERD_EVENT_CONTEXT_SWITCH) {
        p = ftrace_begin(w, ev->cpu, ts, ev->tid, &b, &fe);
        m = msg_begin(w, FE_SCHED_SWITCH);
        f_varint(w, SS_PREV_PID, (uint64_t)(int64_t)(int32_t)ev->tid);
        v = zircon_state_as_linux((int64_t)ev->level);
        if (v >= 0)
            f_varint(w, SS_PREV_STATE, (uint64_t)v);
        f_varint(w, SS_NEXT_PID, (uint64_t)(int64_t)(int32_t)ev->other_tid);
        msg_end(w, m);
        ftrace_end(w, p, b, fe);
        return true;
    }
    if (ev->kind == TRACERD_EVENT_WAKEUP) {
        p = ftrace_begin(w, ev->cpu, ts, ev->tid, &b, &fe);
        m = msg_begin(w, FE_SCHED_WAKEUP);
        f_varint(w, SW_PID, (uint64_t)(int64_t)(int32_t)ev->other_tid);
        f_varint(w, SW_SUCCESS, 1);
        f_varint(w, SW_TARGET_CPU, ev->cpu);
        msg_end(w, m);
        ftrace_end(w, p, b, fe);
        return true;
    }
    if (ev->format != TRACERD_EVENT_FORMAT_CTF || ev->kind != TRACERD_EVENT_INSTANT)
        return false;
    if (ev->name.len == 12 && memcmp(ev->name.data, "sched_switch", 12) == 0 &&
        arg_int(ev, "prev_tid", &prev) && arg_int(ev, "next_tid", &next)) {
        p = ftrace_begin(w, ev->cpu, ts, (uint64_t)prev, &b, &fe);
        m = msg_begin(w, FE_SCHED_SWITCH);
        put_comm(w, SS_PREV_COMM, ev, "prev_comm");
        f_varint(w, SS_PREV_PID, (uint64_t)prev);
        if (arg_int(ev, "prev_prio", &v))
            f_varint(w, SS_PREV_PRIO, (uint64_t)v);
        if (arg_int(ev, "prev_state", &v))
            f_varint(w, SS_PREV_STATE, (uint64_t)v);
        put_comm(w, SS_NEXT_COMM, ev, "next_comm");
        f_varint(w, SS_NEXT_PID, (uint64_t)next);
        if (arg_int(ev, "next_prio", &v))
            f_varint(w, SS_NEXT_PRIO, (uint64_t)v);
        msg_end(w, m);
        ftrace_end(w, p, b, fe);
        return true;
    }
    if (ev->name.len == 12 && memcmp(ev->name.data, "sched_wakeup", 12) == 0 &&
        arg_int(ev, "tid", &next)) {
        p = ftrace_begin(w, ev->cpu, ts, (ev->flags & TRACERD_EVENT_HAS_TID) ? ev->tid : 0, &b,
                         &fe);
        m = msg_begin(w, FE_SCHED_WAKEUP);
        put_comm(w, SW_COMM, ev, "comm");
        f_varint(w, SW_PID, (uint64_t)next);
        if (arg_int(ev, "prio", &v))
            f_varint(w, SW_PRIO, (uint64_t)v);
        f_varint(w, SW_SUCCESS, 1);
        f_varint(w, SW_TARGET_CPU, arg_int(ev, "target_cpu", &v) ? (uint64_t)v : ev->cpu);
        msg_end(w, m);
        ftrace_end(w, p, b, fe);
        return true;
    }
    return false;
}

static void counter_event(struct pw *w, const tracerd_event_t *ev, uint64_t pid, uint64_t ts)
{
    uint64_t parent = process_track(w, pid);
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const tracerd_event_arg_t *a = &ev->args[i];
        bool is_int = a->type == TRACERD_EVENT_ARG_INT || a->type == TRACERD_EVENT_ARG_UINT;
        if (!is_int && !(a->type == TRACERD_EVENT_ARG_DOUBLE && isfinite(a->v.d)))
            continue;
        char name[256];
        int n =
            snprintf(name, sizeof name, "%.*s %.*s", (int)(ev->name.len < 120 ? ev->name.len : 120),
                     ev->name.data, (int)(a->name.len < 120 ? a->name.len : 120), a->name.data);
        uint64_t key[3] = {pid, ev_hash(name, (size_t)n, 0),
                           (ev->flags & TRACERD_EVENT_HAS_ID) ? ev->id : 0};
        bool fresh;
        uint64_t uuid = track_uuid(w, ev_hash(key, sizeof key, 0), K_COUNTER, &fresh);
        if (fresh)
            child_descriptor(w, uuid, parent, name, (size_t)n, true);
        size_t p = packet_begin(w, ts, true);
        size_t te = msg_begin(w, TP_TRACK_EVENT);
        f_varint(w, TE_TYPE, T_COUNTER);
        f_varint(w, TE_TRACK_UUID, uuid);
        if (a->type == TRACERD_EVENT_ARG_INT)
            f_varint(w, TE_COUNTER_VALUE, (uint64_t)a->v.i);
        else if (a->type == TRACERD_EVENT_ARG_UINT)
            f_varint(w, TE_COUNTER_VALUE, a->v.u);
        else
            f_double(w, TE_DOUBLE_COUNTER_VALUE, a->v.d);
        msg_end(w, te);
        packet_end(w, p);
    }
}

/* The track of async span `id` in process pid (named by the span). */
static uint64_t async_track(struct pw *w, const tracerd_event_t *ev, uint64_t pid)
{
    uint64_t key[2] = {pid, ev->id};
    uint64_t parent = process_track(w, pid);
    bool fresh;
    uint64_t uuid = track_uuid(w, ev_hash(key, sizeof key, 0), K_ASYNC, &fresh);
    if (fresh) {
        const char *s = ev->name.len > 0 ? ev->name.data : "async";
        size_t n = ev->name.len > 0 ? ev->name.len : 5;
        child_descriptor(w, uuid, parent, s, n, false);
    }
    return uuid;
}

static int backpressure(struct pw *w)
{
    if (w->oom)
        return cli_oom(w->c, "perfetto output buffer"), -1;
    return w->len >= OUT_HIGH ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct pw *w = user;
    w->fmt_name = src->format_name;
    return 0;
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct pw *w = user;
    uint64_t pid = (ev->flags & TRACERD_EVENT_HAS_PID) ? ev->pid : 0;
    uint64_t tid = (ev->flags & TRACERD_EVENT_HAS_TID) ? ev->tid : 0;
    if (ev->kind == TRACERD_EVENT_PROCESS_NAME) {
        bool fresh;
        uint64_t u = track_uuid(w, pid, K_PROCESS, &fresh);
        process_descriptor(w, u, pid, ev->name.data, ev->name.len);
        return backpressure(w);
    }
    if (ev->kind == TRACERD_EVENT_THREAD_NAME) {
        uint64_t u = thread_track(w, pid, tid);
        thread_descriptor(w, u, process_track(w, pid), pid, tid, ev->name.data, ev->name.len);
        return backpressure(w);
    }
    if (ev->flags & TRACERD_EVENT_NO_TIME)
        return TRACERD_CB_CONTINUE; /* no place on a timeline */
    uint64_t ts = ev_time(ev);
    struct ev_thread *t = ev_thread_of(&w->threads, ev);
    if (t == NULL)
        return cli_oom(w->c, "thread table"), -1;
    if (ts > t->last_ts)
        t->last_ts = ts;
    if (sched_event(w, ev, ts))
        return backpressure(w);
    switch (ev->kind) {
    case TRACERD_EVENT_SPAN_BEGIN: {
        int pushed = ev_push(&w->threads, t,
                             (ev->flags & TRACERD_EVENT_HAS_NAME_ID) ? ev->name_id : 0, ts, 0);
        if (pushed < 0)
            return cli_oom(w->c, "span stack"), -1;
        if (pushed == 0) {
            w->dropped_deep++;
            break;
        }
        track_event(w, ev, T_SLICE_BEGIN, thread_track(w, t->pid, t->tid), ts, "span", true);
        break;
    }
    case TRACERD_EVENT_SPAN_END: {
        int n = ev_pop(&w->threads, t, ev, ts, close_frame, w);
        if (n == 0)
            w->unmatched_ends++;
        break;
    }
    case TRACERD_EVENT_SPAN_COMPLETE: {
        uint64_t end = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
        uint64_t u = thread_track(w, pid, tid);
        track_event(w, ev, T_SLICE_BEGIN, u, ts, "span", true);
        track_event(w, NULL, T_SLICE_END, u, end >= ts ? end : ts, NULL, false);
        break;
    }
    case TRACERD_EVENT_COUNTER:
        counter_event(w, ev, pid, ts);
        break;
    case TRACERD_EVENT_ASYNC_BEGIN:
        track_event(w, ev, T_SLICE_BEGIN, async_track(w, ev, pid), ts, "async", true);
        break;
    case TRACERD_EVENT_ASYNC_END:
        track_event(w, NULL, T_SLICE_END, async_track(w, ev, pid), ts, NULL, false);
        break;
    case TRACERD_EVENT_ASYNC_STEP:
        track_event(w, ev, T_INSTANT, async_track(w, ev, pid), ts, "async", true);
        break;
    default: {
        const char *fallback =
            ev->kind == TRACERD_EVENT_LOG                                                ? "log"
            : ev->kind >= TRACERD_EVENT_FLOW_BEGIN && ev->kind <= TRACERD_EVENT_FLOW_END ? "flow"
            : ev->kind == TRACERD_EVENT_CONTEXT_SWITCH ? "context_switch"
            : ev->kind == TRACERD_EVENT_WAKEUP         ? "wakeup"
                                                       : "instant";
        track_event(w, ev, T_INSTANT, thread_track(w, pid, tid), ts, fallback, true);
        break;
    }
    }
    return backpressure(w);
}

static int drain(void *ctx)
{
    struct pw *w = ctx;
    if (w->oom)
        return -1;
    fflush(w->c->out);
    int fd = fileno(w->c->out);
    size_t off = 0;
    while (off < w->len) {
        ssize_t n = write(fd, w->buf + off, w->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            cli_progress_done(w->c);
            fprintf(stderr, "%s: write error: %s\n", w->c->prog, strerror(errno));
            return -1;
        }
        off += (size_t)n;
    }
    w->len = 0;
    return 0;
}

int cli_cmd_perfetto(cli_t *c)
{
    struct pw w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.first = true;
    w.fmt_name = "trace";
    w.threads.max_open = c->max_open;
    if (!c->no_demangle)
        w.dm = cli_demangler_open();
    struct ev_run r;
    ev_run_init(&r, c, on_event, on_source, &w);
    r.drain = drain;
    r.drain_ctx = &w;
    int rc = ev_run(&r);
    if (rc == CLI_EXIT_OK || rc == CLI_EXIT_TRACE || c->timed_out) {
        /* spans still open: closed at the cut, else at the thread's last event */
        for (uint32_t i = 0; i < w.threads.n; i++) {
            struct ev_thread *t = &w.threads.v[i];
            uint64_t end = r.cut && r.range_end > t->last_ts ? r.range_end : t->last_ts;
            while (t->depth > 0) {
                t->depth--;
                close_frame(&w, t, &t->stack[t->depth], end);
                if (w.len >= OUT_HIGH && drain(&w) != 0)
                    break;
            }
        }
        if (drain(&w) != 0 && rc == CLI_EXIT_OK)
            rc = CLI_EXIT_IO;
        if (!c->quiet && (w.unmatched_ends > 0 || w.dropped_deep > 0))
            fprintf(stderr,
                    "%s: %s: note: %llu span ends without a begin left out, %llu spans past the "
                    "open-span bounds left out\n",
                    c->prog, c->path, (unsigned long long)w.unmatched_ends,
                    (unsigned long long)w.dropped_deep);
    }
    if (c->oom)
        rc = CLI_EXIT_IO;
    ev_threads_free(&w.threads);
    ev_table_free(&w.tracks);
    ev_table_free(&w.names);
    ev_table_free(&w.cats);
    cli_demangler_close(w.dm);
    free(w.buf);
    free(w.idata);
    return rc;
}
