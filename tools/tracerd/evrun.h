/* Shared plumbing of the commands on the event view (json, stats): the auto
 * reader over any input, per-thread span stacks with bounded depth, and a
 * bounded hash table. The CLI uses the public API only. */
#ifndef TRACERD_EVRUN_H
#define TRACERD_EVRUN_H

#include <tracerd/event.h>

#include "cli.h"

/* Bounds of the commands' memory (doc/tracerd.1, "Memory"). */
#define EV_MAX_DEPTH 1024u      /* open spans tracked per thread; deeper ones are dropped */
/* open spans tracked in all: cli_t.max_open (--max-open), CLI_MAX_OPEN_DEFAULT */
#define EV_MAX_THREADS 65536u   /* distinct (pid, tid); more share one "other" entry */
#define EV_MAX_NAMES 1048576u   /* distinct names in stats; more share "(other names)" */

struct ev_run {
    cli_t *c;
    tracerd_event_cb on_event;
    tracerd_event_source_cb on_source;
    void *user;
    cli_drain_fn drain; /* called when a callback paused (output buffer full) */
    void *drain_ctx;
    /* Called (when set) once the trace has ended in an error, before the
     * error is printed: stats prints what it has, then the error. */
    void (*before_error)(void *user);
    bool no_args; /* the command reads no argument (tracerd_auto_config_t.no_args) */
    /* Set by a producer whose events' name and category texts never change
     * at their address during the run (stats_ctf.c: the trace model's
     * strings): a consumer may key them by address. */
    bool stable_names;
    tracerd_event_format_t format; /* detected, after ev_run */
    uint64_t ticks_per_second;
    /* After ev_run: the filter's range end (TRACERD_EVENT_FILTER_NO_END when
     * none), whether the trace went on past it (spans still open were cut:
     * close them at range_end), whether reading stopped there early. */
    uint64_t range_end;
    bool cut;
    bool stopped;
};

/* Zeroes *r and sets the CLI, the callbacks and their user pointer. */
void ev_run_init(struct ev_run *r, cli_t *c, tracerd_event_cb on_event,
                 tracerd_event_source_cb on_source, void *user);

/* Reads the whole input (a stream, or each stream file of a CTF directory)
 * through tracerd_auto_*, loading --instr-map names if given. Prints any
 * error as one line and returns a CLI_EXIT_* code. */
int ev_run(struct ev_run *r);

/* The exit code of a reading that ended with st (a reader of format, its
 * error at record offset, reason), the error printed as ev_run prints it
 * (r->before_error first): for commands that drive a format's reader
 * themselves. */
int ev_exit_code(struct ev_run *r, tracerd_status_t st, tracerd_event_format_t format,
                 uint64_t offset, const char *reason);

/* The exit code of a CTF directory's reading that ended with st (opened:
 * the reader was made; its error's file, offset and reason), the error
 * printed as ev_run prints it (r->before_error first). */
int ev_dir_exit_code(struct ev_run *r, tracerd_status_t st, bool opened, const char *file,
                     uint64_t offset, const char *reason);

/* Is the directory c->path a trace ev_run reads (a CTF trace)? CLI_EXIT_OK,
 * or CLI_EXIT_FORMAT with the message ev_run prints. */
int ev_dir_check(const cli_t *c);

/* Would ev_run read the input as one stream of this format, with no filter
 * (a command's fast path for the format may then read it instead)? */
bool ev_plain_stream(cli_t *c, tracerd_event_format_t format);

/* Time of an event: ns when known, else ticks. */
static inline uint64_t ev_time(const tracerd_event_t *ev)
{
    return (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->ns : ev->ticks;
}

/* ---- a small open-addressing table: (k1, k2) -> index ------------------ */
struct ev_table {
    uint64_t *k1, *k2;
    uint32_t *val; /* index + 1; 0 = empty */
    size_t cap, count;
};
void ev_table_free(struct ev_table *t);
/* Index of (k1, k2), or inserts `next` and returns it; UINT32_MAX on no memory. */
uint32_t ev_table_get(struct ev_table *t, uint64_t k1, uint64_t k2, uint32_t next, bool *inserted);
/* Index of (k1, k2), or UINT32_MAX when absent. */
uint32_t ev_table_find(const struct ev_table *t, uint64_t k1, uint64_t k2);
uint64_t ev_hash(const void *data, size_t len, uint64_t seed);

/* ---- per-thread span stacks --------------------------------------------- */
struct ev_frame {
    uint64_t key;   /* name id or name hash */
    uint64_t start;
    uint64_t child; /* time of closed children */
    uint32_t name;  /* stats: name index */
};

struct ev_thread {
    uint64_t pid, tid;
    struct ev_frame *stack;
    uint32_t depth, cap, overflow;
    uint64_t last_ts;
    uint64_t events, spans, busy; /* stats */
    uint64_t first_ts;
    bool seen_ts;
};

#define EV_RECENT_THREADS 64u
struct ev_threads {
    struct ev_table tab;
    struct ev_thread *v;
    uint32_t n, cap;
    struct ev_thread *last; /* cache of the last lookup (v may move on growth: reset then) */
    uint32_t open;          /* frames on all stacks */
    uint32_t max_open;      /* bound of open (0: CLI_MAX_OPEN_DEFAULT) */
    /* recent lookups before the table, direct-mapped by tid: index + 1, 0 for none */
    uint32_t recent[EV_RECENT_THREADS];
};

/* The thread of an event (the shared "other" thread past EV_MAX_THREADS); NULL on no memory. */
struct ev_thread *ev_thread_of(struct ev_threads *ts, const tracerd_event_t *ev);
/* (ev_thread_ids past the cache of the last thread) */
struct ev_thread *ev_thread_find(struct ev_threads *ts, uint64_t pid, uint64_t tid);
/* The same by ids (pid 0 and tid 0 when the event has none). */
static inline struct ev_thread *ev_thread_ids(struct ev_threads *ts, uint64_t pid, uint64_t tid)
{
    if (ts->last != NULL && ts->last->pid == pid && ts->last->tid == tid)
        return ts->last; /* consecutive events mostly share a thread */
    return ev_thread_find(ts, pid, tid);
}
void ev_threads_free(struct ev_threads *ts);
/* Pushes a frame: 1; 0 when a bound is hit (EV_MAX_DEPTH on the thread, or
 * ts->max_open in all: the span is dropped and its end will be dropped too);
 * -1 on no memory. */
bool ev_stack_grow(struct ev_thread *t); /* false on no memory */
static inline int ev_push(struct ev_threads *ts, struct ev_thread *t, uint64_t key,
                          uint64_t start, uint32_t name)
{
    uint32_t max_open = ts->max_open ? ts->max_open : CLI_MAX_OPEN_DEFAULT;
    if (t->overflow > 0 || t->depth >= EV_MAX_DEPTH || ts->open >= max_open) {
        t->overflow++; /* its end is dropped too */
        return 0;
    }
    if (t->depth == t->cap && !ev_stack_grow(t))
        return -1;
    struct ev_frame *f = &t->stack[t->depth++];
    ts->open++;
    f->key = key;
    f->start = start;
    f->child = 0;
    f->name = name;
    return 1;
}
/* Closes the span an END event ends: with a name id, the innermost frame with
 * that id (frames above it close at the same time, as llvm-xray account
 * does); else the innermost frame. Calls close(ctx, t, frame, end) for each
 * closed frame, innermost first. Returns the number closed (0: an unmatched
 * end, left out), EV_POP_DROPPED (the end of a span left out at a bound), or
 * -1 when close failed. */
#define EV_POP_DROPPED (-2)
typedef int (*ev_close_fn)(void *ctx, struct ev_thread *t, const struct ev_frame *f,
                           uint64_t end);
/* (ev_pop for an END with name id key (by_key) or without one; inline, so
 * that a command's close function is inlined too) */
static inline int ev_pop_key(struct ev_threads *ts, struct ev_thread *t, bool by_key, uint64_t key,
                             uint64_t end, ev_close_fn close, void *ctx)
{
    if (t->overflow > 0) {
        t->overflow--;
        return EV_POP_DROPPED;
    }
    if (t->depth == 0)
        return 0;
    uint32_t k = t->depth - 1;
    if (by_key) {
        uint32_t i = t->depth;
        while (i > 0 && t->stack[i - 1].key != key)
            i--;
        if (i == 0)
            return 0; /* no open span of this function: an unmatched end */
        k = i - 1;
    }
    int n = 0;
    while (t->depth > k) {
        struct ev_frame f = t->stack[--t->depth];
        ts->open--;
        uint64_t e = end >= f.start ? end : f.start;
        if (t->depth > 0)
            t->stack[t->depth - 1].child += e - f.start;
        if (close(ctx, t, &f, e) != 0)
            return -1;
        n++;
    }
    return n;
}

static inline int ev_pop(struct ev_threads *ts, struct ev_thread *t, const tracerd_event_t *ev,
                         uint64_t end, ev_close_fn close, void *ctx)
{
    return ev_pop_key(ts, t, (ev->flags & TRACERD_EVENT_HAS_NAME_ID) != 0, ev->name_id, end, close,
                      ctx);
}


#endif
