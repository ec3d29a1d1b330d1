/* `tracerd json` on one XRay stream, straight from the reader's records:
 * the document the event view's path writes (tests/check_stats_paths.c
 * compares the two on every XRay trace), without making an event of each
 * function record. The records come in runs of one thread (on_functions):
 * the thread, its process and the text of its ids are found once per run.
 * A function's "name" and "cat" text is made once per function id (by
 * json_put_name, kept in a direct-mapped cache), and the "args" text of an
 * entry without arguments once per CPU (by json_put_args). Entries with
 * arguments and custom or typed events are made into the event view's
 * events (xray_meaning.h) and written by json_event. Taken when the input
 * is one XRay stream and no filter is given (ev_plain_stream). */
#include <string.h>

#include "../../libtracerd/event/xray_meaning.h"
#include "json_doc.h"

#define JX_NAMES 1024u
#define JX_TEXT 80u /* a kept name text's room: ,"name":"...","cat":"xray" */

struct jx_name {
    uint64_t key; /* (id << 1) | 1; 0: empty */
    size_t len;
    char txt[JX_TEXT];
};

struct jx {
    struct jw *w;
    const tracerd_xray_names_t *names; /* --instr-map's, or NULL */
    bool has_ns;                       /* the header's frequency is not 0 */
    uint32_t max_args;                 /* the auto reader's (its config's) */
    /* ,"args":{"cpu":C} of an entry without arguments on CPU cpu */
    bool has_tail;
    uint16_t tail_cpu;
    size_t tail_len;
    char tail[32];
    /* the text before the time of an entry (heads[0]) and of an exit
     * (heads[1]) on thread (head_pid, head_tid): begin_event's and
     * put_key's, ,\n{"ph":"B","pid":P,"tid":T,"ts": */
    bool has_heads;
    uint64_t head_pid, head_tid;
    size_t head_len[2];
    char heads[2][80]; /* 72 bytes at the most (ids of 20 characters) */
    char idname[XRAY_ID_NAME_BYTES];
    /* what JX_CAPTURE captures (the writer asks for room past the text) */
    char scratch[1024];
    tracerd_event_arg_t args[XRAY_ARG_NAMES];
    struct jx_name cache[JX_NAMES];
};

static int jx_header(void *u, const tracerd_xray_header_t *h)
{
    struct jx *x = u;
    x->has_ns = h->cycle_frequency != 0;
    x->w->fmt_name = tracerd_event_format_name(TRACERD_EVENT_FORMAT_XRAY);
    return TRACERD_CB_CONTINUE;
}

/* What call writes to x's document, into p[cap] instead: outlen is its
 * length, or SIZE_MAX when it does not fit in x's scratch or p (then p is
 * left as it was). */
#define JX_CAPTURE(x, p, cap, outlen, call)                                                        \
    do {                                                                                           \
        wr_t jx_saved_ = (x)->w->o;                                                                \
        wr_init_fixed(&(x)->w->o, (x)->scratch, sizeof(x)->scratch);                               \
        call;                                                                                      \
        (outlen) = (x)->w->o.failed || (x)->w->o.len > (cap) ? SIZE_MAX : (x)->w->o.len;           \
        (x)->w->o = jx_saved_;                                                                     \
        if ((outlen) != SIZE_MAX)                                                                  \
            memcpy((p), (x)->scratch, (outlen));                                                   \
    } while (0)

/* The "name" and "cat" members of function id's entries (json_put_name's
 * text, kept for the id when it fits). */
static __attribute__((noinline)) void jx_name_slow(struct jx *x, int32_t id)
{
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.name = xray_function_name(x->names, id, x->idname);
    ev.category = xray_category;
    struct jx_name *e = &x->cache[(uint32_t)id % JX_NAMES];
    size_t len;
    JX_CAPTURE(x, e->txt, sizeof e->txt, len, json_put_name(x->w, &ev, "span"));
    if (len == SIZE_MAX) { /* too long to keep */
        e->key = 0;
        json_put_name(x->w, &ev, "span");
        return;
    }
    e->key = ((uint64_t)(uint32_t)id << 1) | 1u;
    e->len = len;
    WR_PUT_FIXED(&x->w->o, e->txt, e->len);
}

static inline void jx_name(struct jx *x, int32_t id)
{
    const struct jx_name *e = &x->cache[(uint32_t)id % JX_NAMES];
    if (__builtin_expect(e->key == (((uint64_t)(uint32_t)id << 1) | 1u), 1))
        WR_PUT_FIXED(&x->w->o, e->txt, e->len);
    else
        jx_name_slow(x, id);
}

/* The "args" member of an entry without arguments on CPU cpu
 * (json_put_args's text, kept for the CPU). */
static __attribute__((noinline)) void jx_tail_slow(struct jx *x, uint16_t cpu)
{
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    xray_event_common(&ev, 0, 0, 0, 0, 0, cpu, x->has_ns);
    ev.kind = TRACERD_EVENT_SPAN_BEGIN;
    size_t len;
    JX_CAPTURE(x, x->tail, sizeof x->tail, len, json_put_args(x->w, &ev, false));
    if (len == SIZE_MAX) { /* (cannot happen: at most 24 bytes) */
        x->has_tail = false;
        json_put_args(x->w, &ev, false);
        return;
    }
    x->has_tail = true;
    x->tail_cpu = cpu;
    x->tail_len = len;
    WR_PUT_FIXED(&x->w->o, x->tail, x->tail_len);
}

/* Keeps the texts before an entry's and an exit's time on thread (pid,
 * tid), as begin_event and put_key write them after the document's first
 * event; false when they do not fit. */
static __attribute__((noinline)) bool jx_heads(struct jx *x, uint64_t pid, uint64_t tid)
{
    struct jw *w = x->w;
    x->has_heads = false;
    if (w->first) /* (the process's name is written first: not seen) */
        return false;
    static const char ph[2] = {'B', 'E'};
    for (int k = 0; k < 2; k++) {
        JX_CAPTURE(x, x->heads[k], sizeof x->heads[k], x->head_len[k],
                   (begin_event(w, ph[k], pid, tid), put_key(w, "ts")));
        if (x->head_len[k] == SIZE_MAX)
            return false;
    }
    x->head_pid = pid;
    x->head_tid = tid;
    x->has_heads = true;
    return true;
}

/* json_close_frame's text with the kept head (an ev_close_fn: ctx is the
 * struct jx). */
static inline int jx_close(void *ctx, struct ev_thread *t, const struct ev_frame *f, uint64_t end)
{
    struct jx *x = ctx;
    (void)t;
    (void)f;
    char *p = wr_room(&x->w->o, sizeof x->heads[1] + 25 + 1), *const p0 = p;
    memcpy(p, x->heads[1], sizeof x->heads[1]);
    p += x->head_len[1];
    p += fmt_ts_value(x->w, p, end);
    *p++ = '}'; /* end_event */
    x->w->o.len += (size_t)(p - p0);
    return 0;
}

/* A record the direct path does not write itself: the event view's event
 * of it, written by json_event. */
static int jx_as_event(struct jx *x, const tracerd_xray_function_t *f)
{
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    xray_function_head(&ev, f, x->has_ns);
    ev.name = xray_function_name(x->names, f->function_id, x->idname);
    xray_function_args(&ev, f, x->args, x->max_args);
    return json_event(x->w, &ev);
}

/* A run of function records, all of one thread (on_functions): each
 * written as json_event writes the event view's SPAN_BEGIN or SPAN_END of
 * it. */
static int jx_functions(void *u, const tracerd_xray_function_t *fs, size_t n)
{
    struct jx *x = u;
    struct jw *w = x->w;
    const uint64_t pid = (uint32_t)fs[0].pid, tid = (uint32_t)fs[0].tid;
    struct ev_thread *t = ev_thread_ids(&w->threads, pid, tid);
    if (t == NULL)
        return cli_oom(w->c, "thread table"), -1;
    if (json_see_pid(w, pid, TRACERD_EVENT_SPAN_BEGIN) != 0)
        return -1;
    if (!(x->has_heads && x->head_pid == pid && x->head_tid == tid) && !jx_heads(x, pid, tid)) {
        for (size_t i = 0; i < n; i++) /* (not seen: the heads fit) */
            if (jx_as_event(x, &fs[i]) < 0)
                return -1;
        return backpressure(w);
    }
    const bool has_ns = x->has_ns;
    for (size_t i = 0; i < n; i++) {
        const tracerd_xray_function_t *f = &fs[i];
        const uint64_t ts = has_ns ? f->ns : f->tsc;
        if (ts > t->last_ts)
            t->last_ts = ts;
        if (xray_is_exit(f->kind)) {
            if (ev_pop_key(&w->threads, t, true, (uint32_t)f->function_id, ts, jx_close, x) == 0)
                w->unmatched_ends++;
            continue;
        }
        if (__builtin_expect(f->nargs > 0 && f->args != NULL, 0)) {
            if (jx_as_event(x, f) < 0)
                return -1;
            continue;
        }
        int pushed = ev_push(&w->threads, t, (uint32_t)f->function_id, ts, 0);
        if (__builtin_expect(pushed <= 0, 0)) {
            if (pushed < 0)
                return cli_oom(w->c, "span stack"), -1;
            w->dropped_deep++;
            continue;
        }
        const struct jx_name *e = &x->cache[(uint32_t)f->function_id % JX_NAMES];
        if (__builtin_expect(e->key == (((uint64_t)(uint32_t)f->function_id << 1) | 1u) &&
                                 x->has_tail && x->tail_cpu == f->cpu,
                             1)) {
            /* the name's and the CPU's texts kept: the entry in room asked once */
            char *p = wr_room(&w->o, sizeof x->heads[0] + 25 + sizeof e->txt + sizeof x->tail + 1);
            char *const p0 = p;
            memcpy(p, x->heads[0], sizeof x->heads[0]);
            p += x->head_len[0];
            p += fmt_ts_value(w, p, ts);
            memcpy(p, e->txt, sizeof e->txt);
            p += e->len;
            memcpy(p, x->tail, sizeof x->tail);
            p += x->tail_len;
            *p++ = '}'; /* end_event */
            w->o.len += (size_t)(p - p0);
            continue;
        }
        WR_PUT_FIXED(&w->o, x->heads[0], x->head_len[0]);
        put_ts_value(w, ts);
        jx_name(x, f->function_id);
        if (__builtin_expect(x->has_tail && x->tail_cpu == f->cpu, 1))
            WR_PUT_FIXED(&w->o, x->tail, x->tail_len);
        else
            jx_tail_slow(x, f->cpu);
        end_event(w);
    }
    return backpressure(w);
}

/* Custom and typed events: the event view's INSTANT, written by json_event. */
static int jx_event(void *u, const tracerd_xray_event_t *e)
{
    struct jx *x = u;
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    xray_event_event(&ev, e, x->has_ns, x->args, x->max_args);
    return json_event(x->w, &ev);
}

static int jx_warning(void *u, const tracerd_warning_t *wn)
{
    static const cli_warn_sink_t sink = {NULL, NULL, NULL, NULL};
    return cli_warning(((struct jx *)u)->w->c, &sink, wn);
}

int json_xray_run(struct jw *w, struct ev_run *r, cli_drain_fn drain)
{
    cli_t *c = w->c;
    r->range_end = TRACERD_EVENT_FILTER_NO_END; /* as ev_run leaves it: no filter */
    r->cut = false;
    tracerd_auto_config_t cfg;
    cli_config_store_t store[CLI_NFORMATS];
    int rc = cli_event_configs(c, store, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    struct jx *x = cli_calloc(1, sizeof *x);
    if (x == NULL)
        return cli_oom(c, "name cache");
    x->w = w;
    x->names = c->names;
    x->max_args = cfg.max_args < XRAY_ARG_NAMES ? cfg.max_args : XRAY_ARG_NAMES;
    tracerd_xray_callbacks_t cbs;
    tracerd_xray_callbacks_init(&cbs);
    cbs.on_header = jx_header;
    cbs.on_functions = jx_functions;
    cbs.on_event = jx_event;
    cbs.on_warning = jx_warning;
    tracerd_xray_reader_t *rd;
    tracerd_status_t st = tracerd_xray_new(cfg.xray, &cbs, x, NULL, &rd);
    if (st != TRACERD_OK) {
        cli_free(x);
        return cli_new_failed(c, st);
    }
    st = cli_pump_drain(c, tracerd_xray_ops(), rd, drain, w);
    rc = ev_exit_code(r, st, TRACERD_EVENT_FORMAT_XRAY, tracerd_xray_record_offset(rd),
                      tracerd_xray_error_reason(rd));
    tracerd_xray_free(rd);
    cli_free(x);
    return rc;
}
