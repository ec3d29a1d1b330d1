/* `tracerd stats` on a CTF trace directory, straight from the CTF directory
 * reader: the events the event view would give stats (libtracerd/event/
 * map_ctf.c without arguments: an INSTANT named by its event class at its
 * clock time, the category the trace's "domain", the process and thread
 * from the context fields vpid/pid and vtid/tid, LTTng-UST function
 * entry/exit as SPAN_BEGIN/SPAN_END named by their "addr", discarded events
 * and lost packets as timeless MARKs), made without the event view's
 * per-event work: no argument records, no filter tests (taken only when no
 * filter is given), what a name means remembered by its address in the
 * trace model, the event class's name and kind by the class; in a
 * directory without function events, one callback per event and each
 * class's instants counted into its name's aggregate found once per class
 * (cmd_stats.c's stats_instant), not made into events.
 * tests/check_stats_paths.c compares the output with the event view's on
 * every CTF directory of the tests (TRACERD_CLI_GENERAL=1 takes the event
 * view). */
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "../../libtracerd/event/ctf_meaning.h"
#include "ctf_evsrc.h"
#include "mapped.h"
#include "stats_ctf.h"

#define SC_NAMES 256u
#define SC_CLASSES 256u
#define SC_RUNS 16u

/* A thread's run of instants (direct-mapped by its tid): its first event
 * counted by stats_instant, the later ones here until the slot goes to
 * another thread or the trace ends (sc_flush), then by stats_run. A slot
 * without a thread holds a tid that is not its own (index + 1): no thread
 * matches it. */
struct sc_run {
    uint64_t pid, tid;
    uint32_t ti;     /* the thread's index (stats_instant) */
    uint64_t n;      /* events after the first not yet counted */
    uint64_t lo, hi; /* their times' bounds */
};

struct sc {
    struct ev_run *run;
    struct st *stats;
    tracerd_ctf_dir_t *dir;
    map_files_t files;    /* the directory's stream files, mapped */
    struct ctf_evsrc src; /* the source, the streams' cpus, the category */
    tracerd_event_t ev;
    int span; /* of the event being read: 0, 1 function entry, 2 function exit */
    bool has_addr;
    uint64_t addr;
    char name_buf[24];
    /* event class -> its name (length known), span kind and the values
     * (SC_VALUES) giving the thread and process ids, direct-mapped */
    struct {
        const tracerd_ctf_event_class_t *cls;
        tracerd_str_t name;
        int span;
        int8_t tid, pid; /* index in e->values, -1: none */
        uint32_t ni;     /* the name's aggregate + 1 (stats_name_index), 0: not known */
        uint64_t n;      /* its instants not yet counted in aggregate ni - 1 */
        /* cls when ni is known (on_event_only's one test), else
         * &sc_no_class; then the ids are e->values[tid_at] & tid_mask
         * (the mask 0 when the class has no tid), the same for pid: no
         * test */
        const tracerd_ctf_event_class_t *fast;
        uint8_t tid_at, pid_at;
        uint64_t tid_mask, pid_mask;
    } cls[SC_CLASSES];
    struct sc_run runs[SC_RUNS];
    int8_t tid, pid; /* the event's (its class's) */
    /* field name (model address) -> CTF_NAME_* */
    const char *kind_name[SC_NAMES];
    uint8_t name_kind[SC_NAMES];
};

/* The context integers the event view reads (ctf_name_meaning's
 * CTF_NAME_TID and CTF_NAME_PID), as value slots: per scope, the four
 * names in this order. */
static const tracerd_ctf_value_name_t SC_VALUES[] = {
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "vtid"},
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "tid"},
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "vpid"},
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "pid"},
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "vtid"},
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "tid"},
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "vpid"},
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "pid"},
};
#define SC_NVALUES (sizeof SC_VALUES / sizeof SC_VALUES[0])

/* No event's class (a class slot's `fast` when its events take the longer
 * way). */
static const tracerd_ctf_event_class_t sc_no_class;

/* The value (index in SC_VALUES) of a class's thread id (meaning
 * CTF_NAME_TID) or process id (CTF_NAME_PID), or -1: as the event view
 * reads them, the last such integer of the stream event context's and
 * then the event context's members (set: the values the class has). */
static int8_t value_of(const tracerd_ctf_event_t *e, uint32_t set, unsigned meaning)
{
    const tracerd_ctf_type_t *const scopes[2] = {
        e->stream_class != NULL ? e->stream_class->event_context : NULL,
        e->cls != NULL ? e->cls->context : NULL};
    int8_t found = -1;
    for (unsigned s = 0; s < 2; s++) {
        const tracerd_ctf_type_t *t = scopes[s];
        if (t == NULL || t->kind != TRACERD_CTF_TYPE_STRUCT)
            continue;
        for (uint32_t k = 0; k < t->nmembers; k++)
            for (unsigned i = 4 * s; i < 4 * s + 4; i++)
                if ((set >> i & 1u) && strcmp(t->members[k].display, SC_VALUES[i].name) == 0 &&
                    ctf_name_meaning(SC_VALUES[i].name) == meaning)
                    found = (int8_t)i;
    }
    return found;
}

static size_t ptr_slot(const void *p, unsigned bits)
{
    uint64_t x = (uint64_t)(uintptr_t)p; /* mixed: model strings lie at regular distances */
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 29;
    return (size_t)((x * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
}

/* An event class's slot in cls[] (classes are separate allocations: the
 * address's upper bits, multiplied, suffice). */
static size_t cls_slot(const tracerd_ctf_event_class_t *c)
{
    return (size_t)(((uint64_t)(uintptr_t)c >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 56);
}

static unsigned name_kind(struct sc *x, const char *name)
{
    size_t h = ptr_slot(name, 8);
    if (x->kind_name[h] == name)
        return x->name_kind[h];
    unsigned k = ctf_name_meaning(name);
    x->kind_name[h] = name;
    x->name_kind[h] = (uint8_t)k;
    return k;
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    return ctf_evsrc_packet(&((struct sc *)user)->src, p);
}

static int on_event_begin(void *user, const tracerd_ctf_event_t *e)
{
    struct sc *x = user;
    tracerd_event_t *ev = &x->ev;
    /* the members an event sets; the others stay as stats_ctf_dir zeroed them */
    ctf_evsrc_event(&x->src, e, ev);
    size_t h = cls_slot(e->cls);
    if (x->cls[h].cls != e->cls || e->cls == NULL) {
        if (x->cls[h].n != 0) /* the class in the slot: its instants counted */
            stats_count(x->stats, x->cls[h].ni - 1, x->cls[h].n);
        x->cls[h].n = 0;
        x->cls[h].fast = &sc_no_class;
        const char *name = e->name != NULL ? e->name : "";
        x->cls[h].cls = e->cls;
        x->cls[h].name.data = name;
        x->cls[h].name.len = strlen(name);
        x->cls[h].span = ctf_span_kind(name);
        x->cls[h].tid = value_of(e, e->values_set, CTF_NAME_TID);
        x->cls[h].pid = value_of(e, e->values_set, CTF_NAME_PID);
        x->cls[h].ni = 0;
    }
    ev->name = x->cls[h].name;
    x->span = x->cls[h].span;
    x->tid = x->cls[h].tid;
    x->pid = x->cls[h].pid;
    x->has_addr = false;
    return ctf_evsrc_source(&x->src);
}

/* A function event's address (the reader delivers the payloads when a
 * trace has function events). */
static int on_field(void *user, const tracerd_ctf_field_t *f)
{
    struct sc *x = user;
    if (x->span == 0 || f->depth != 1 ||
        (f->kind != TRACERD_CTF_VALUE_INT && f->kind != TRACERD_CTF_VALUE_UINT) ||
        f->scope != TRACERD_CTF_SCOPE_EVENT_FIELDS)
        return 0;
    if (name_kind(x, f->name != NULL ? f->name : "") == CTF_NAME_ADDR) {
        x->addr = f->kind == TRACERD_CTF_VALUE_UINT ? f->v.u : (uint64_t)f->v.i;
        x->has_addr = true;
    }
    return 0;
}

static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    struct sc *x = user;
    if (x->tid >= 0) { /* the contexts' thread and process ids (value slots) */
        x->ev.tid = e->values[x->tid];
        x->ev.flags |= TRACERD_EVENT_HAS_TID;
    }
    if (x->pid >= 0) {
        x->ev.pid = e->values[x->pid];
        x->ev.flags |= TRACERD_EVENT_HAS_PID;
    }
    if (x->span != 0 && x->has_addr) {
        x->ev.kind = x->span == 1 ? TRACERD_EVENT_SPAN_BEGIN : TRACERD_EVENT_SPAN_END;
        x->ev.name_id = x->addr;
        x->ev.flags |= TRACERD_EVENT_HAS_NAME_ID;
        x->ev.name = ctf_evsrc_addr_name(x->name_buf, x->addr);
    }
    return x->run->on_event(x->run->user, &x->ev);
}

/* An event of a trace without function events (the reader's one callback
 * per event): an INSTANT of its class's name. The class's first event goes
 * through on_event_begin and on_event_end (the name's aggregate made as the
 * event view's event makes it), the later ones straight to stats_instant
 * with the aggregate found then. */
/* (on_event_only for the first event of a class, out of line) */
static __attribute__((noinline)) int first_of_class(struct sc *x, const tracerd_ctf_event_t *e)
{
    int rc = on_event_begin(x, e);
    if (rc == 0)
        rc = on_event_end(x, e);
    if (rc == 0 && e->cls != NULL && x->span == 0) { /* (the slot is e->cls's) */
        uint32_t ni = stats_name_index(x->stats, &x->ev);
        size_t h = cls_slot(e->cls);
        x->cls[h].ni = ni != UINT32_MAX ? ni + 1u : 0;
        if (x->cls[h].ni != 0) {
            x->cls[h].fast = e->cls;
            x->cls[h].tid_mask = x->cls[h].tid >= 0 ? UINT64_MAX : 0;
            x->cls[h].pid_mask = x->cls[h].pid >= 0 ? UINT64_MAX : 0;
            /* an id the class lacks reads the other's slot, masked (a
             * slot the event has: never another event's value) */
            const int8_t t = x->cls[h].tid, p = x->cls[h].pid;
            x->cls[h].tid_at = (uint8_t)(t >= 0 ? t : p >= 0 ? p : 0);
            x->cls[h].pid_at = (uint8_t)(p >= 0 ? p : t >= 0 ? t : 0);
        }
    }
    return rc;
}

/* (count_instant for the first event of a run: the thread's run in slot
 * u, of another thread or none, ends; (pid, tid)'s starts with this event,
 * an instant of class slot h, counted) */
static __attribute__((noinline)) int run_start(struct sc *x, struct sc_run *u, size_t h,
                                               uint64_t pid, uint64_t tid, uint64_t ts)
{
    if (u->n != 0)
        stats_run(x->stats, u->ti, u->n, u->lo, u->hi);
    u->n = 0;
    u->lo = UINT64_MAX;
    u->hi = 0;
    u->ti = stats_instant(x->stats, x->cls[h].ni - 1, pid, tid, ts);
    u->pid = pid;
    u->tid = u->ti != UINT32_MAX ? tid : (uint64_t)(u - x->runs) + 1u; /* (none on no memory) */
    return u->ti != UINT32_MAX ? 0 : -1;
}

/* An instant of class slot h (its name's aggregate known) on thread (pid,
 * tid) at ts: counted in the thread's run. */
__attribute__((always_inline)) static inline int count_instant(struct sc *x, size_t h, uint64_t pid,
                                                               uint64_t tid, uint64_t ts)
{
    struct sc_run *u = &x->runs[tid % SC_RUNS];
    if (__builtin_expect(u->tid != tid || u->pid != pid, 0))
        return run_start(x, u, h, pid, tid, ts);
    u->n++;
    u->lo = ts < u->lo ? ts : u->lo;
    u->hi = ts > u->hi ? ts : u->hi;
    x->cls[h].n++;
    return 0;
}

static int on_event_only(void *user, const tracerd_ctf_event_t *e)
{
    struct sc *x = user;
    size_t h = cls_slot(e->cls);
    if (__builtin_expect(x->cls[h].fast != e->cls, 0))
        return first_of_class(x, e);
    return count_instant(x, h, e->values[x->cls[h].pid_at] & x->cls[h].pid_mask,
                         e->values[x->cls[h].tid_at] & x->cls[h].tid_mask,
                         e->has_clock ? e->ns : e->cycles);
}

/* The runs' and the classes' instants not yet counted, counted (at the
 * end: before the report). */
static void sc_flush(struct sc *x)
{
    for (uint32_t i = 0; i < SC_RUNS; i++) {
        struct sc_run *u = &x->runs[i];
        if (u->n != 0)
            stats_run(x->stats, u->ti, u->n, u->lo, u->hi);
        u->n = 0;
    }
    for (uint32_t h = 0; h < SC_CLASSES; h++) {
        if (x->cls[h].n != 0)
            stats_count(x->stats, x->cls[h].ni - 1, x->cls[h].n);
        x->cls[h].n = 0;
    }
}

static int on_loss(void *user, const tracerd_ctf_loss_t *l)
{
    struct sc *x = user;
    static const tracerd_str_t n_ev = {"events discarded", 16}, n_pk = {"packets lost", 12},
                               cat = {"ctf", 3};
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.format = TRACERD_EVENT_FORMAT_CTF;
    ev.offset = l->offset;
    ev.kind = TRACERD_EVENT_MARK;
    ev.flags = TRACERD_EVENT_NO_TIME;
    ev.name = l->kind == TRACERD_CTF_LOSS_EVENTS ? n_ev : n_pk;
    ev.category = cat;
    return x->run->on_event(x->run->user, &ev);
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    return ctf_evsrc_warning(&((struct sc *)user)->src, w);
}

bool stats_ctf_dir_plain(cli_t *c, const struct ev_run *r)
{
    const char *general = getenv("TRACERD_CLI_GENERAL");
    return c->is_dir && c->nfilters == 0 && r->no_args &&
           !(general != NULL && strcmp(general, "1") == 0);
}

/* Opens the directory: the contexts with one callback per event, or, when a
 * trace has function events (known once the metadata is read: opened again
 * then), the payloads too. */
static tracerd_status_t open_dir(struct sc *x, cli_t *c, const tracerd_ctf_stream_config_t *scfg)
{
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    cb.on_packet_begin = on_packet;
    cb.on_event_end = on_event_only;
    cb.on_loss = on_loss;
    cb.on_warning = on_warning;
    tracerd_ctf_stream_config_t sc;
    tracerd_ctf_stream_config_init(&sc);
    if (scfg != NULL)
        sc = *scfg;
    tracerd_ctf_metadata_config_t mc;
    tracerd_ctf_metadata_config_init(&mc);
    mc.value_names = SC_VALUES;
    mc.nvalue_names = SC_NVALUES;
    tracerd_status_t st = ctf_evsrc_open(&x->src, c, &x->files, &cb, x, &sc, &mc);
    x->dir = x->src.dir;
    bool spans = false;
    for (uint32_t i = 0; st == TRACERD_OK && i < tracerd_ctf_dir_trace_count(x->dir); i++)
        spans = spans || ctf_has_span_classes(tracerd_ctf_dir_trace(x->dir, i));
    if (spans) {
        tracerd_ctf_dir_free(x->dir);
        x->dir = NULL;
        cb.on_event_begin = on_event_begin;
        cb.on_event_end = on_event_end;
        cb.on_field = on_field;
        sc.field_scopes = 1u << TRACERD_CTF_SCOPE_EVENT_FIELDS;
        st = ctf_evsrc_open(&x->src, c, &x->files, &cb, x, &sc, &mc);
        x->dir = x->src.dir;
    }
    return st == TRACERD_OK ? ctf_evsrc_opened(&x->src) : st;
}

int stats_ctf_dir(struct ev_run *r, struct st *s)
{
    cli_t *c = r->c;
    int rc = ev_dir_check(c); /* as the event view's directory path */
    if (rc != CLI_EXIT_OK)
        return rc;
    tracerd_auto_config_t cfg;
    cli_config_store_t store[CLI_NFORMATS];
    rc = cli_event_configs(c, store, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    struct sc *x = cli_calloc(1, sizeof *x);
    if (x == NULL)
        return cli_oom(c, "reader context");
    x->run = r;
    x->src.run = r;
    x->stats = s;
    for (uint32_t h = 0; h < SC_CLASSES; h++)
        x->cls[h].fast = &sc_no_class;
    for (uint32_t i = 0; i < SC_RUNS; i++)
        x->runs[i].tid = i + 1u; /* (no thread's: see sc_run) */
    r->range_end = TRACERD_EVENT_FILTER_NO_END;
    r->stable_names = true; /* event class names and the domain: the trace models' strings */
    x->ev.format = TRACERD_EVENT_FORMAT_CTF;
    tracerd_status_t st = open_dir(x, c, cfg.ctf);
    while (st == TRACERD_OK) {
        st = tracerd_ctf_dir_run(x->dir);
        if (st != TRACERD_PAUSED)
            break;
        st = TRACERD_OK; /* stats never pauses: a pause is read on */
    }
    sc_flush(x);
    const tracerd_ctf_dir_t *d = x->dir;
    rc = ev_dir_exit_code(r, st, d != NULL, d != NULL ? tracerd_ctf_dir_error_path(d) : "",
                          d != NULL ? tracerd_ctf_dir_error_offset(d) : 0,
                          d != NULL ? tracerd_ctf_dir_error_reason(d) : "");
    tracerd_ctf_dir_free(x->dir);
    ctf_evsrc_free(&x->src);
    cli_free(x);
    return rc;
}
