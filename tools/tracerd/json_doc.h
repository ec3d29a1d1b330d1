/* `tracerd json`'s document: the writer's state and the pieces of an
 * event's text, shared by the event view's path (cmd_json.c) and the
 * direct paths that read a format's records themselves, so that both
 * write the same bytes. */
#ifndef TRACERD_JSON_DOC_H
#define TRACERD_JSON_DOC_H

#include <string.h>

#include "evrun.h"
#include "vcache.h"

#define OUT_HIGH (64u * 1024u)

struct jw {
    cli_t *c;
    wr_t o;
    bool first;
    struct ev_threads threads;
    struct ev_table pids;
    uint32_t npids;
    const char *fmt_name;
    uint64_t unmatched_ends, dropped_deep;
    uint64_t base;
    bool has_base;
    uint64_t last_pid;
    bool has_last_pid;
    /* ","pid":P,"tid":T of the last event, formatted once per thread change */
    char idtxt[64];
    size_t idlen;
    uint64_t id_pid, id_tid;
    wr_lead_t lead_ts;     /* the last timestamp's leading digits */
    vc_entry_t vc[VCACHE]; /* argument names, event names and categories (vcache.h) */
};

static inline void put(struct jw *w, const void *s, size_t n)
{
    wr_put(&w->o, s, n);
}

static inline void puts_(struct jw *w, const char *s)
{
    wr_put(&w->o, s, strlen(s));
}

static inline void put_u64(struct jw *w, uint64_t v)
{
    wr_u64(&w->o, v);
}

/* v / 1000 "." v % 1000 (three digits) at p (24 bytes of room): its
 * length. Microseconds from nanoseconds, written as v's digits with a
 * point put in before the last three; with lead (not NULL), v's leading
 * digits are kept there (wr_fmt_u64_lead). */
static inline size_t fmt_micros(char *p, uint64_t v, wr_lead_t *lead)
{
    if (v < 1000) {
        p[0] = '0';
        p[1] = '.';
        p[2] = (char)('0' + v / 100);
        p[3] = (char)('0' + v / 10 % 10);
        p[4] = (char)('0' + v % 10);
        return 5;
    }
    size_t n = lead != NULL ? wr_fmt_u64_lead(p, lead, v) : wr_fmt_u64(p, v);
    p[n] = p[n - 1];
    p[n - 1] = p[n - 2];
    p[n - 2] = p[n - 3];
    p[n - 3] = '.';
    return n + 1;
}

/* The same written. */
static inline void put_micros(struct jw *w, uint64_t v, wr_lead_t *lead)
{
    char *p = wr_room(&w->o, 24);
    w->o.len += fmt_micros(p, v, lead);
}

static inline void put_key(struct jw *w, const char *key)
{
    put(w, ",\"", 2);
    puts_(w, key);
    put(w, "\":", 2);
}

static inline void put_str(struct jw *w, const void *data, size_t len)
{
    wr_str(&w->o, data, len);
}

static inline void put_dur(struct jw *w, const char *key, uint64_t ns)
{
    put_key(w, key);
    put_micros(w, ns, NULL);
}

/* A timestamp's value at p (25 bytes of room): its length. Timestamps are
 * written relative to a base (the
 * first event's time rounded down to a whole second, less one second) so
 * that a double keeps every nanosecond; the base is recorded in
 * otherData.time_base. */
static inline size_t fmt_ts_value(struct jw *w, char *p, uint64_t t)
{
    if (!w->has_base) {
        w->base = t / 1000000000u * 1000000000u;
        w->base = w->base >= 1000000000u ? w->base - 1000000000u : 0;
        w->has_base = true;
    }
    if (t >= w->base)
        return fmt_micros(p, t - w->base, &w->lead_ts);
    p[0] = '-';
    return 1 + fmt_micros(p + 1, w->base - t, NULL);
}

/* The same written (25 bytes at the most). */
static inline void put_ts_value(struct jw *w, uint64_t t)
{
    char *p = wr_room(&w->o, 25);
    w->o.len += fmt_ts_value(w, p, t);
}

/* A timestamp member: "key": and its value. */
static inline void put_ts(struct jw *w, const char *key, uint64_t t)
{
    put_key(w, key);
    put_ts_value(w, t);
}

/* pid and tid as signed 64-bit integers (a negative vtid stays -42, not
 * 2^64-42), at p (at least 21 bytes); returns the length. */
static inline size_t fmt_id(char *p, uint64_t v)
{
    if ((int64_t)v >= 0)
        return wr_fmt_u64(p, v);
    p[0] = '-';
    return 1 + wr_fmt_u64(p + 1, (uint64_t)0 - v);
}

/* An event's ","pid":P,"tid":T (after its ph) at q (64 bytes of room; 57
 * at most written): its length. */
static inline size_t fmt_ids(char *q, uint64_t pid, uint64_t tid)
{
    char *const q0 = q;
    memcpy(q, "\",\"pid\":", 8);
    q += 8;
    q += fmt_id(q, pid);
    memcpy(q, ",\"tid\":", 7);
    q += 7;
    q += fmt_id(q, tid);
    return (size_t)(q - q0);
}

/* The beginning of an event's text up to its ph (its comma, ph) at p (10
 * bytes of room): its length. ph is one letter. */
static inline size_t fmt_event_ph(struct jw *w, char *p, char ph)
{
    size_t n = 0;
    if (!w->first)
        p[n++] = ',';
    w->first = false;
    memcpy(p + n, "\n{\"ph\":\"", 8);
    p[n + 8] = ph;
    return n + 9;
}

/* The beginning of an event's text (its comma, ph, pid and tid) at p (12 +
 * sizeof w->idtxt bytes of room): its length. ph is one letter. */
#define JSON_EVENT_START (12u + sizeof(((struct jw *)0)->idtxt))
static inline size_t fmt_begin_event(struct jw *w, char *p, char ph, uint64_t pid, uint64_t tid)
{
    if (w->idlen == 0 || pid != w->id_pid || tid != w->id_tid) {
        w->idlen = fmt_ids(w->idtxt, pid, tid);
        w->id_pid = pid;
        w->id_tid = tid;
    }
    size_t n = fmt_event_ph(w, p, ph);
    memcpy(p + n, w->idtxt, sizeof w->idtxt);
    return n + w->idlen;
}

/* The same written. */
static inline void begin_event(struct jw *w, char ph, uint64_t pid, uint64_t tid)
{
    char *p = wr_room(&w->o, JSON_EVENT_START);
    w->o.len += fmt_begin_event(w, p, ph, pid, tid);
}

static inline void end_event(struct jw *w)
{
    put(w, "}", 1);
}

static inline int backpressure(struct jw *w)
{
    if (w->o.failed)
        return -1;
    return w->o.len >= OUT_HIGH ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

/* The event's "name" and "cat" members (fallback: the name of an event
 * without one). */
void json_put_name(struct jw *w, const tracerd_event_t *ev, const char *fallback);
/* The event's "args" member: its arguments, plus the extra fields a kind
 * carries (numbers_only: the numeric arguments alone, as counters take). */
void json_put_args(struct jw *w, const tracerd_event_t *ev, bool numbers_only);
/* The text that opens the "args" member. */
#define JSON_ARGS_OPEN ",\"args\":{"
/* An argument's key: [,]"name": (comma: not the first). */
void json_put_key(struct jw *w, const char *name, size_t len, bool comma);
/* An argument's value. */
void json_put_arg_value(struct jw *w, const tracerd_event_arg_t *a);
/* The extra fields ev's kind carries and its cpu after its arguments (first:
 * none was written), and the end of the "args" member. */
void json_args_end(struct jw *w, const tracerd_event_t *ev, bool first);
/* What follows an instant's "ts": its scope, "name" and "cat" (fallback: the
 * name of an event without one). */
void json_instant_head(struct jw *w, const tracerd_event_t *ev, const char *fallback);
/* The end ('E') of a span of thread t at end (an ev_close_fn: ctx is the
 * struct jw). */
static inline int json_close_frame(void *ctx, struct ev_thread *t, const struct ev_frame *f, uint64_t end)
{
    struct jw *w = ctx;
    (void)f;
    begin_event(w, 'E', t->pid, t->tid);
    put_ts(w, "ts", end);
    end_event(w);
    return 0;
}
/* (json_see_pid past the last event's process) */
int json_new_pid(struct jw *w, uint64_t pid, tracerd_event_kind_t kind);
/* An event of process pid (kind: its kind) is about to be written: the
 * process's name ('M') is written first when pid is new. -1 on no memory
 * (said). */
static inline int json_see_pid(struct jw *w, uint64_t pid, tracerd_event_kind_t kind)
{
    if (w->has_last_pid && pid == w->last_pid)
        return 0;
    return json_new_pid(w, pid, kind);
}
/* An event of the event view, written (the callback of ev_run). */
int json_event(void *user, const tracerd_event_t *ev);

/* json on one XRay stream straight from the XRay reader (json_xray.c), in
 * place of ev_run(r) when ev_plain_stream(c, TRACERD_EVENT_FORMAT_XRAY):
 * the same document, exit code and messages; drain(w) writes the buffer
 * out when a callback paused. */
int json_xray_run(struct jw *w, struct ev_run *r, cli_drain_fn drain);

#endif
