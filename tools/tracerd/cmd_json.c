/* `tracerd json`: Chrome Trace Event Format, streamed as events arrive.
 * Output goes to a bounded buffer; when it passes the high-water mark the
 * event callback asks the reader to pause, the pump drains the buffer to
 * standard output (blocking), then resumes: memory stays flat however long
 * the trace, and a slow consumer stops the reading (and a TCP sender). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_ctf.h"
#include "json_doc.h"

void json_put_name(struct jw *w, const tracerd_event_t *ev, const char *fallback)
{
    const vc_entry_t *n = vc_find(w->vc, ev->name.data, ev->name.len), *k;
    if (n != NULL && (k = vc_find(w->vc, ev->category.data, ev->category.len)) != NULL) {
        /* both texts kept: in room asked once */
        char *p = wr_room(&w->o, 8 + sizeof n->txt + 7 + sizeof k->txt), *const p0 = p;
        memcpy(p, ",\"name\":", 8);
        p += 8;
        memcpy(p, n->txt, sizeof n->txt);
        p += n->len + 2;
        memcpy(p, ",\"cat\":", 7);
        p += 7;
        memcpy(p, k->txt, sizeof k->txt);
        p += k->len + 2;
        w->o.len += (size_t)(p - p0);
        return;
    }
    WR_LIT(&w->o, ",\"name\":");
    if (ev->name.len > 0)
        vc_str(w->vc, &w->o, ev->name.data, ev->name.len);
    else
        put_str(w, fallback, strlen(fallback));
    WR_LIT(&w->o, ",\"cat\":");
    if (ev->category.len > 0)
        vc_str(w->vc, &w->o, ev->category.data, ev->category.len);
    else
        put_str(w, w->fmt_name, strlen(w->fmt_name));
}

void json_put_arg_value(struct jw *w, const tracerd_event_arg_t *a)
{
    switch (a->type) {
    case TRACERD_EVENT_ARG_INT:
        wr_i64(&w->o, a->v.i);
        break;
    case TRACERD_EVENT_ARG_UINT:
    case TRACERD_EVENT_ARG_KOID:
        put_u64(w, a->v.u);
        break;
    case TRACERD_EVENT_ARG_DOUBLE:
        if (isfinite(a->v.d))
            wr_g17(&w->o, a->v.d);
        else
            puts_(w, isnan(a->v.d) ? "\"NaN\"" : a->v.d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        break;
    case TRACERD_EVENT_ARG_BOOL:
        puts_(w, a->v.b ? "true" : "false");
        break;
    case TRACERD_EVENT_ARG_STRING:
        put_str(w, a->v.str.data, a->v.str.len);
        break;
    case TRACERD_EVENT_ARG_POINTER:
        put(w, "\"0x", 3);
        wr_x64(&w->o, a->v.u);
        put(w, "\"", 1);
        break;
    case TRACERD_EVENT_ARG_BYTES:
        put(w, "\"", 1);
        wr_hex(&w->o, a->v.bytes.data, a->v.bytes.len);
        put(w, "\"", 1);
        break;
    default:
        puts_(w, "null");
        break;
    }
}

static bool is_number(const tracerd_event_arg_t *a)
{
    return a->type == TRACERD_EVENT_ARG_INT || a->type == TRACERD_EVENT_ARG_UINT ||
           (a->type == TRACERD_EVENT_ARG_DOUBLE && isfinite(a->v.d));
}

/* An argument whose name's text is in the cache: [,]"name": and, for an
 * integer, its value, written into room asked once (another value through
 * json_put_arg_value); false (nothing written) when the name is not cached. */
static inline bool put_arg_fast(struct jw *w, const tracerd_event_arg_t *a, bool comma)
{
    const vc_entry_t *e = vc_find(w->vc, a->name.data, a->name.len);
    if (e == NULL)
        return false;
    char *p = wr_room(&w->o, 1 + sizeof e->txt + 1 + 21), *const p0 = p;
    *p = ',';
    p += comma;
    memcpy(p, e->txt, sizeof e->txt);
    p += e->len + 2;
    *p++ = ':';
    if (a->type == TRACERD_EVENT_ARG_UINT) {
        p += wr_fmt_u64(p, a->v.u);
    } else if (a->type == TRACERD_EVENT_ARG_INT) {
        *p = '-';
        p += a->v.i < 0;
        p += wr_fmt_u64(p, a->v.i < 0 ? (uint64_t)0 - (uint64_t)a->v.i : (uint64_t)a->v.i);
    } else {
        w->o.len += (size_t)(p - p0);
        json_put_arg_value(w, a);
        return true;
    }
    w->o.len += (size_t)(p - p0);
    return true;
}

/* [,]"name": (the name's text kept in the cache). */
static inline void arg_key(struct jw *w, const char *name, size_t len, bool comma)
{
    if (comma)
        put(w, ",", 1);
    vc_str(w->vc, &w->o, name, len);
    put(w, ":", 1);
}

void json_put_key(struct jw *w, const char *name, size_t len, bool comma)
{
    if (comma)
        put(w, ",", 1);
    wr_str(&w->o, name, len); /* arg_key's text, not kept (vc_str writes wr_str's) */
    put(w, ":", 1);
}

static inline __attribute__((always_inline)) void args_end(struct jw *w, const tracerd_event_t *ev,
                                                           bool first)
{
    if (ev->kind == TRACERD_EVENT_LOG) {
        if (!first)
            put(w, ",", 1);
        puts_(w, "\"message\":");
        put_str(w, ev->message.data, ev->message.len);
        puts_(w, ",\"level\":");
        wr_i64(&w->o, (int)ev->level);
        first = false;
    }
    if (ev->kind == TRACERD_EVENT_CONTEXT_SWITCH || ev->kind == TRACERD_EVENT_WAKEUP) {
        if (!first)
            put(w, ",", 1);
        puts_(w, "\"other_pid\":");
        put_u64(w, ev->other_pid);
        puts_(w, ",\"other_tid\":");
        put_u64(w, ev->other_tid);
        if (ev->kind == TRACERD_EVENT_CONTEXT_SWITCH) {
            puts_(w, ",\"out_state\":");
            wr_i64(&w->o, (int)ev->level);
        }
        first = false;
    }
    if (ev->flags & TRACERD_EVENT_HAS_CPU) {
        puts_(w, first ? "\"cpu\":" : ",\"cpu\":");
        put_u64(w, ev->cpu);
    }
    put(w, "}", 1);
}

void json_args_end(struct jw *w, const tracerd_event_t *ev, bool first)
{
    args_end(w, ev, first);
}

/* The event's arguments, plus the extra fields a kind carries. */
void json_put_args(struct jw *w, const tracerd_event_t *ev, bool numbers_only)
{
    WR_LIT(&w->o, JSON_ARGS_OPEN);
    bool first = true;
    for (uint32_t i = 0; i < ev->nargs; i++) {
        const tracerd_event_arg_t *a = &ev->args[i];
        if (numbers_only && !is_number(a))
            continue;
        bool comma = !first;
        first = false;
        if (put_arg_fast(w, a, comma))
            continue;
        arg_key(w, a->name.data, a->name.len, comma);
        json_put_arg_value(w, a);
    }
    if (numbers_only)
        put(w, "}", 1);
    else
        args_end(w, ev, first);
}

/* ,"id":"0xHEX" */
static void put_hex_id(struct jw *w, uint64_t id)
{
    puts_(w, ",\"id\":\"0x");
    wr_x64(&w->o, id);
    put(w, "\"", 1);
}

static void meta_name(struct jw *w, const char *what, uint64_t pid, uint64_t tid, const char *name,
                      size_t len)
{
    begin_event(w, 'M', pid, tid);
    puts_(w, ",\"name\":\"");
    puts_(w, what);
    puts_(w, "\",\"args\":{\"name\":");
    put_str(w, name, len);
    puts_(w, "}}");
}

int json_new_pid(struct jw *w, uint64_t pid, tracerd_event_kind_t kind)
{
    bool ins = false;
    if (ev_table_get(&w->pids, pid, 0, w->npids, &ins) == UINT32_MAX)
        return cli_oom(w->c, "process table"), -1;
    w->last_pid = pid;
    w->has_last_pid = true;
    if (ins) {
        char name[64];
        int n =
            snprintf(name, sizeof name, "%s process %llu", w->fmt_name, (unsigned long long)pid);
        w->npids++;
        if (kind != TRACERD_EVENT_PROCESS_NAME)
            meta_name(w, "process_name", pid, 0, name, (size_t)n);
    }
    return 0;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct jw *w = user;
    w->fmt_name = src->format_name;
    return 0;
}

void json_instant_head(struct jw *w, const tracerd_event_t *ev, const char *fallback)
{
    puts_(w, ",\"s\":\"t\"");
    json_put_name(w, ev, fallback);
}

int json_event(void *user, const tracerd_event_t *ev)
{
    struct jw *w = user;
    if ((ev->flags & TRACERD_EVENT_NO_TIME) && ev->kind != TRACERD_EVENT_PROCESS_NAME &&
        ev->kind != TRACERD_EVENT_THREAD_NAME)
        return TRACERD_CB_CONTINUE; /* no place on a timeline */
    uint64_t ts = ev_time(ev);
    uint64_t pid = (ev->flags & TRACERD_EVENT_HAS_PID) ? ev->pid : 0;
    uint64_t tid = (ev->flags & TRACERD_EVENT_HAS_TID) ? ev->tid : 0;
    struct ev_thread *t = ev_thread_of(&w->threads, ev);
    if (t == NULL)
        return cli_oom(w->c, "thread table"), -1;
    if (ts > t->last_ts)
        t->last_ts = ts;
    if (json_see_pid(w, pid, ev->kind) != 0)
        return -1;
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
        begin_event(w, 'B', t->pid, t->tid);
        put_ts(w, "ts", ts);
        json_put_name(w, ev, "span");
        json_put_args(w, ev, false);
        end_event(w);
        break;
    }
    case TRACERD_EVENT_SPAN_END: {
        int n = ev_pop(&w->threads, t, ev, ts, json_close_frame, w);
        if (n == 0)
            w->unmatched_ends++;
        break;
    }
    case TRACERD_EVENT_SPAN_COMPLETE: {
        uint64_t end = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
        begin_event(w, 'X', pid, tid);
        put_ts(w, "ts", ts);
        put_dur(w, "dur", end >= ts ? end - ts : 0);
        json_put_name(w, ev, "span");
        json_put_args(w, ev, false);
        end_event(w);
        break;
    }
    case TRACERD_EVENT_COUNTER:
        begin_event(w, 'C', pid, tid);
        put_ts(w, "ts", ts);
        json_put_name(w, ev, "counter");
        if (ev->flags & TRACERD_EVENT_HAS_ID)
            put_hex_id(w, ev->id);
        json_put_args(w, ev, true);
        end_event(w);
        break;
    case TRACERD_EVENT_ASYNC_BEGIN:
    case TRACERD_EVENT_ASYNC_STEP:
    case TRACERD_EVENT_ASYNC_END:
    case TRACERD_EVENT_FLOW_BEGIN:
    case TRACERD_EVENT_FLOW_STEP:
    case TRACERD_EVENT_FLOW_END: {
        static const char ph[] = {'b', 'n', 'e', 's', 't', 'f'};
        begin_event(w, ph[ev->kind - TRACERD_EVENT_ASYNC_BEGIN], pid, tid);
        put_ts(w, "ts", ts);
        json_put_name(w, ev, ev->kind >= TRACERD_EVENT_FLOW_BEGIN ? "flow" : "async");
        put_hex_id(w, ev->id);
        if (ev->kind == TRACERD_EVENT_FLOW_END)
            puts_(w, ",\"bp\":\"e\"");
        json_put_args(w, ev, false);
        end_event(w);
        break;
    }
    case TRACERD_EVENT_PROCESS_NAME:
        meta_name(w, "process_name", pid, 0, ev->name.data, ev->name.len);
        break;
    case TRACERD_EVENT_THREAD_NAME:
        meta_name(w, "thread_name", pid, tid, ev->name.data, ev->name.len);
        break;
    default: {
        /* Instants, logs, scheduling, blobs, marks: thread-scoped instants. */
        const char *fallback = ev->kind == TRACERD_EVENT_LOG              ? "log"
                               : ev->kind == TRACERD_EVENT_CONTEXT_SWITCH ? "context_switch"
                               : ev->kind == TRACERD_EVENT_WAKEUP         ? "wakeup"
                                                                          : "instant";
        begin_event(w, 'i', pid, tid);
        put_ts(w, "ts", ts);
        json_instant_head(w, ev, fallback);
        json_put_args(w, ev, false);
        end_event(w);
        break;
    }
    }
    return backpressure(w);
}

static int drain(void *ctx)
{
    struct jw *w = ctx;
    if (wr_flush(&w->o) != 0) {
        cli_progress_done(w->c);
        fprintf(stderr, "%s: write error: %s\n", w->c->prog, strerror(w->o.errnum));
        return -1;
    }
    return 0;
}

/* Closes every span still open, so each thread's B/E pairs balance: at the
 * end of the filter's range when the trace went on past it (the span was
 * cut), else at the thread's last event. */
static int close_all(struct jw *w, const struct ev_run *r)
{
    for (uint32_t i = 0; i < w->threads.n; i++) {
        struct ev_thread *t = &w->threads.v[i];
        uint64_t end = r->cut && r->range_end > t->last_ts ? r->range_end : t->last_ts;
        while (t->depth > 0) {
            t->depth--;
            w->threads.open--;
            json_close_frame(w, t, &t->stack[t->depth], end);
            if (w->o.len >= OUT_HIGH && drain(w) != 0) /* flush as it is written */
                return -1;
        }
    }
    return 0;
}

int cli_cmd_json(cli_t *c)
{
    struct jw w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.first = true;
    fflush(c->out);
    if (wr_init(&w.o, fileno(c->out), 4 * OUT_HIGH) != 0) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    w.fmt_name = "trace";
    w.threads.max_open = c->max_open;
    static const char head[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
    puts_(&w, head);
    struct ev_run r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.on_event = json_event;
    r.on_source = on_source;
    r.user = &w;
    r.drain = drain;
    r.drain_ctx = &w;
    /* one XRay stream, no filter: straight from the XRay reader; a CTF
     * directory, no filter: straight from the directory reader (the same
     * document; TRACERD_CLI_GENERAL=1 takes the event view) */
    int rc = ev_plain_stream(c, TRACERD_EVENT_FORMAT_XRAY) ? json_xray_run(&w, &r, drain)
             : json_ctf_dir_plain(c)                       ? json_ctf_dir(&r, &w)
                                                           : ev_run(&r);
    if (rc == CLI_EXIT_OK || rc == CLI_EXIT_TRACE || c->timed_out || c->oom || c->read_failed) {
        /* A bad trace (or a --timeout, an out-of-memory, an input that
         * could not be read to its end) still leaves valid JSON with what
         * was written before. */
        int wrc = close_all(&w, &r);
        wr_printf(&w.o, "\n],\"otherData\":{\"format\":\"%s\",\"time_base\":%llu}}\n", w.fmt_name,
                  (unsigned long long)w.base);
        if ((wrc != 0 || drain(&w) != 0) && rc == CLI_EXIT_OK)
            rc = CLI_EXIT_IO;
        if (!c->quiet && (w.unmatched_ends > 0 || w.dropped_deep > 0))
            fprintf(stderr,
                    "%s: %s: note: %llu span ends without a begin left out, %llu spans past "
                    "the open-span bounds (%u per thread, %u in all) left out\n",
                    c->prog, c->path, (unsigned long long)w.unmatched_ends,
                    (unsigned long long)w.dropped_deep, EV_MAX_DEPTH,
                    c->max_open ? c->max_open : CLI_MAX_OPEN_DEFAULT);
    }
    ev_threads_free(&w.threads);
    ev_table_free(&w.pids);
    wr_free(&w.o);
    return rc;
}
