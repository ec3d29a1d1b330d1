/* `tracerd json` on a CTF trace directory, straight from the CTF directory
 * reader: the text json_event writes for the events the event view would
 * give (libtracerd/event/map_ctf.c: an INSTANT named by its event class at
 * its clock time, the category the trace's "domain", the cpu of its
 * packet, LTTng-UST function entry/exit as SPAN_BEGIN/SPAN_END named by
 * their "addr"; discarded events and lost packets are timeless, which json
 * leaves out), without the event view's events. The arguments are the
 * event view's own mapping (libtracerd/event/ctf_args.h: its argument
 * plans, the same code), and for an instant whose records a plan holds
 * they are written straight from the records through a template made once
 * per plan: the event's text up to its first argument (json_instant_head),
 * each argument's key, the plan's numbers formatted from their records'
 * bytes, its other values made by the mapping and written by
 * json_put_arg_value. Every other event (a class's first, a function
 * event, a batch no plan holds, an event of a process not yet seen) is made
 * into the event view's event and written by json_event.
 *
 * An instant written from its records is written when its batch comes
 * (its thread and process are known then), before the reader has read the
 * event to its end: an event the reader then gives up (an error, a
 * --lenient skip) is taken back out of the output (the writer's length and
 * the state the text changed), as the event view never gives it.
 *
 * Taken only for a directory and no filter (json_ctf_dir_plain);
 * tests/check_dump_tpl.c compares its output with the event view's (`json
 * --begin 0`) on every CTF directory of the tests and peers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "../../libtracerd/event/ctf_args.h"
#include "../../libtracerd/event/ctf_meaning.h"
#include "ctf_evsrc.h"
#include "json_ctf.h"

#define JC_CLASSES 256u
#define JC_TAILS 8u
#define JT_KEY 32u   /* an argument's key text, at most */
#define JT_HEAD 224u /* an event's text from "s" to its first argument, at most */

/* The text of a plan's events (kept per plan slot, valid while the slot
 * holds the plan of generation gen). */
struct jtpl {
    uint32_t gen; /* 0: none */
    bool direct;  /* its texts fit: events may be written from their records */
    uint16_t head_len;
    char head[JT_HEAD]; /* ,"s":"t","name":N,"cat":C,"args":{ */
    struct {
        uint8_t len;
        uint8_t how;       /* JT_* */
        uint16_t rec;      /* the plan's record of the value */
        char text[JT_KEY]; /* [,]"name": */
    } key[PLAN_ARGS];
    /* the room the text of arguments [j, nargs) takes at most (JT_ARG_ROOM
     * each past its key): the event's room is asked once, and again after
     * a value written by json_put_arg_value */
    uint16_t rest[PLAN_ARGS + 1];
};

/* The room of an argument past its key text: its key's copy (JT_KEY bytes
 * from the key's start) and its number (wr_fmt_g17: 32; an integer 21). */
#define JT_ARG_ROOM 32u
_Static_assert(JT_ARG_ROOM >= JT_KEY, "a key's copy fits in an argument's room");
/* An event's room before its arguments: its start, ,"ts": and the time,
 * the head's copy. */
#define JT_START_ROOM (JSON_EVENT_START + 6u + 25u + JT_HEAD)

/* How a template's value is written: an unsigned or signed integer or a
 * double from its record's 8 bytes (a plan's PLAN_NUMBER), a PLAN_SCALAR
 * value by what its record holds (tracerd__ctf_scalar: JT_UINT, JT_INT,
 * JT_DOUBLE, JT_LABEL, JT_BOOL, JT_TEXT), or another value as the mapping
 * makes it (tracerd__ctf_args_value). */
enum { JT_UINT, JT_INT, JT_DOUBLE, JT_SCALAR, JT_OTHER, JT_LABEL, JT_BOOL, JT_TEXT };

/* A scalar's JT_* (tracerd__ctf_scalar's CTF_SCALAR_*, in order). */
static const uint8_t jt_scalar[] = {JT_LABEL, JT_BOOL, JT_INT, JT_UINT, JT_DOUBLE, JT_TEXT};
_Static_assert(CTF_SCALAR_LABEL == 0 && CTF_SCALAR_BOOL == 1 && CTF_SCALAR_INT == 2 &&
                   CTF_SCALAR_UINT == 3 && CTF_SCALAR_DOUBLE == 4 && CTF_SCALAR_TEXT == 5,
               "jt_scalar's order");

#define JC_LABELS 64u
#define JC_THREADS 64u
#define JT_LABEL_TEXT JT_ARG_ROOM /* an enumeration label's JSON text, at most, kept */

struct jc {
    struct ev_run *run;
    struct jw *w;
    struct ctf_evsrc src; /* the source, the streams' cpus, the category; the directory */
    map_files_t files;
    tracerd__ctf_args_t *m;
    const struct plan *plans; /* m's table of plans */
    /* the event being read: what its beginning tells (the event view's) */
    tracerd_event_t ev;
    int span;
    const void *cls_cur;     /* its class */
    bool mapping;            /* m has begun it (tracerd__ctf_args_begin) */
    const struct plan *last; /* the plan its last batch was mapped by or made, or NULL */
    /* an instant written from its records, not yet ended: its plan, and what
     * to take back if it does not end (the output's length, the writer's
     * first, the time base, its thread's last time) */
    const struct plan *open;
    bool more; /* a batch came after it */
    size_t mark;
    bool first0, has_base0;
    struct ev_thread *thread;
    uint64_t last_ts0;
    struct {
        const void *cls;
        tracerd_str_t name;
        int span;
    } cls[JC_CLASSES];
    struct jtpl tpl[2 * PLAN_SETS];
    size_t text_used; /* the bytes of its text values written from their records */
    /* enumeration labels' JSON text (the quoted label), kept by the label's
     * address (the model's) */
    struct jc_label {
        const char *label; /* NULL: none */
        uint8_t len;
        char text[JT_LABEL_TEXT];
    } lab[JC_LABELS];
    /* threads of instants written from their records: their entries in the
     * writer's table and their ","pid":P,"tid":T, kept by the ids (a
     * directory's streams take turns, and a stream's threads too) */
    struct jc_thread {
        uint64_t pid, tid;
        uint32_t idx; /* in w->threads.v */
        uint8_t len;  /* 0: none */
        char text[64];
    } thr[JC_THREADS];
    /* the text after an instant's last argument (json_args_end, end_event)
     * for cpu tail[i].cpu (UINT64_MAX: none), made the first time, kept by
     * the cpu's low bits (the streams of a directory take turns) */
    struct jc_tail {
        uint64_t cpu;
        uint8_t len; /* 0: none */
        char text[32];
    } tail[JC_TAILS];
};

bool json_ctf_dir_plain(cli_t *c)
{
    const char *general = getenv("TRACERD_CLI_GENERAL");
    return c->is_dir && c->nfilters == 0 && !(general != NULL && strcmp(general, "1") == 0);
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    return ctf_evsrc_packet(&((struct jc *)user)->src, p);
}

/* The instant written from its records did not end: its text and what it
 * changed taken back. */
static void take_back(struct jc *x)
{
    struct jw *w = x->w;
    if (w->o.len >= x->mark) /* (not spilled: an event's text is far below the buffer) */
        w->o.len = x->mark;
    w->first = x->first0;
    w->has_base = x->has_base0;
    x->thread->last_ts = x->last_ts0;
    x->open = NULL;
}

static size_t cls_slot(const void *c)
{
    return (size_t)(((uint64_t)(uintptr_t)c >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 56);
}

static int on_event_begin(void *user, const tracerd_ctf_event_t *e)
{
    struct jc *x = user;
    if (x->open != NULL)
        take_back(x);
    tracerd_event_t *ev = &x->ev;
    ctf_evsrc_event(&x->src, e, ev);
    size_t h = cls_slot(e->cls);
    if (x->cls[h].cls != e->cls || e->cls == NULL) {
        const char *name = e->name != NULL ? e->name : "";
        x->cls[h].cls = e->cls;
        x->cls[h].name.data = name;
        x->cls[h].name.len = strlen(name);
        x->cls[h].span = ctf_span_kind(name);
    }
    ev->name = x->cls[h].name;
    x->span = x->cls[h].span;
    x->last = NULL;
    x->cls_cur = e->cls;
    x->mapping = false; /* begun by its first batch not written from its records */
    x->text_used = 0;
    return ctf_evsrc_source(&x->src);
}

/* The mapping begins the event, when not yet done. */
static inline void map_begin(struct jc *x)
{
    if (!x->mapping) {
        tracerd__ctf_args_begin(x->m, x->cls_cur, x->span);
        x->mapping = true;
    }
}

/* The same for an event whose first batch p's template wrote: the mapping
 * as if it had mapped it (tracerd__ctf_args_after), for a value it makes or
 * the event's later batches. */
static inline void map_after(struct jc *x, const struct plan *p)
{
    if (!x->mapping) {
        tracerd__ctf_args_after(x->m, x->cls_cur, x->span, p, x->text_used);
        x->mapping = true;
    }
}

/* Argument j of p from batch f made by the mapping. */
static void map_value(struct jc *x, const struct plan *p, uint32_t j, const tracerd_ctf_field_t *f,
                      tracerd_event_arg_t *a)
{
    map_after(x, p);
    tracerd__ctf_args_value(x->m, p, j, f, a);
}

/* An enumeration's label as json_put_arg_value writes a STRING of it, at q
 * (JT_LABEL_TEXT bytes of room; rest: the room the text after it needs): the
 * end of its text. Kept by the label's address when its text is short. */
static char *put_label(struct jc *x, char *q, const char *label, size_t rest)
{
    struct jw *w = x->w;
    uint64_t a = (uint64_t)(uintptr_t)label;
    struct jc_label *e = &x->lab[(size_t)((a ^ a >> 17) * UINT64_C(0x9E3779B97F4A7C15) >> 58)];
    if (e->label == label) {
        memcpy(q, e->text, JT_LABEL_TEXT);
        return q + e->len;
    }
    w->o.len = (size_t)(q - w->o.buf);
    size_t n = strlen(label);
    if (n <= JT_LABEL_TEXT) { /* made once (its escapes: 6 bytes a byte at most) */
        char buf[6 * JT_LABEL_TEXT + 16];
        wr_t saved = w->o;
        wr_init_fixed(&w->o, buf, sizeof buf);
        put_str(w, label, n);
        bool fits = !w->o.failed && w->o.len <= JT_LABEL_TEXT;
        size_t len = w->o.len;
        w->o = saved;
        if (fits) {
            e->label = label;
            e->len = (uint8_t)len;
            memcpy(e->text, buf, JT_LABEL_TEXT);
        }
    }
    put_str(w, label, n);
    return wr_room(&w->o, rest);
}

/* Instant batch f, the event's first, whose records plan p holds, written
 * by its template t (the mapping not begun: its values are the plan's, made
 * here): true, or false (nothing written) when the event's process is new
 * (its name's event comes first: json_event writes it). */
static bool write_planned(struct jc *x, const struct plan *p, const struct jtpl *t,
                          const tracerd_ctf_field_t *f)
{
    struct jw *w = x->w;
    uint32_t flags = 0;
    uint64_t pid = 0, tid = 0;
    tracerd__ctf_plan_ids(p, f, &flags, &tid, &pid); /* (0 for those it has not) */
    if (!(w->has_last_pid && pid == w->last_pid) && ev_table_find(&w->pids, pid, 0) == UINT32_MAX)
        return false;
    struct jc_thread *c = &x->thr[(tid ^ (tid >> 12) ^ (pid * 7)) % JC_THREADS];
    struct ev_thread *th;
    if (c->len != 0 && c->pid == pid && c->tid == tid) {
        th = &w->threads.v[c->idx]; /* (entries stay: the table only grows) */
    } else {
        th = ev_thread_ids(&w->threads, pid, tid);
        if (th == NULL)
            return false; /* json_event says it */
        c->pid = pid;
        c->tid = tid;
        c->idx = (uint32_t)(th - w->threads.v);
        c->len = (uint8_t)fmt_ids(c->text, pid, tid);
    }
    uint64_t ts = ev_time(&x->ev);
    x->thread = th;
    x->last_ts0 = th->last_ts;
    if (ts > th->last_ts)
        th->last_ts = ts;
    (void)json_see_pid(w, pid, TRACERD_EVENT_INSTANT); /* known: writes nothing */
    x->first0 = w->first;
    x->has_base0 = w->has_base;
    x->open = p;
    x->more = false;
    /* the event's text in one room: its start, "ts", the head, the
     * arguments (the room asked again after a value json_put_arg_value
     * writes) */
    char *q = wr_room(&w->o, JT_START_ROOM + t->rest[0]);
    x->mark = w->o.len;           /* (after the room: a flush moves the text's start) */
    q += fmt_event_ph(w, q, 'i'); /* begin_event's text, the ids kept */
    memcpy(q, c->text, sizeof c->text);
    q += c->len;
    memcpy(q, ",\"ts\":", 6);
    q += 6;
    q += fmt_ts_value(w, q, ts);
    memcpy(q, t->head, JT_HEAD);
    q += t->head_len;
    x->text_used = 0;
    for (uint32_t j = 0; j < p->nargs; j++) {
        const tracerd_ctf_field_t *rec = &f[t->key[j].rec];
        memcpy(q, t->key[j].text, JT_KEY);
        q += t->key[j].len;
        unsigned how = t->key[j].how;
        if (how == JT_SCALAR)
            how = jt_scalar[tracerd__ctf_scalar(rec)];
        if (how == JT_UINT) {
            q += wr_fmt_u64_inline(q, rec->v.u);
        } else if (how == JT_INT) {
            int64_t v = rec->v.i;
            *q = '-';
            q += v < 0;
            q += wr_fmt_u64_inline(q, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
        } else if (how == JT_DOUBLE && isfinite(rec->v.f)) {
            q += wr_fmt_g17(q, rec->v.f);
        } else if (how == JT_TEXT && !x->mapping &&
                   rec->v.str.len <= TRACERD__CTF_ARGS_TEXT - x->text_used) {
            /* whole (the mapping keeps it whole): as json_put_arg_value writes it */
            x->text_used += rec->v.str.len;
            w->o.len = (size_t)(q - w->o.buf);
            put_str(w, rec->v.str.data, rec->v.str.len);
            q = wr_room(&w->o, t->rest[j + 1]);
        } else if (how == JT_LABEL) {
            q = put_label(x, q, rec->enum_label, t->rest[j + 1]);
        } else if (how == JT_BOOL) {
            memcpy(q, rec->v.u != 0 ? "true" : "false", 5);
            q += rec->v.u != 0 ? 4 : 5;
        } else {
            w->o.len = (size_t)(q - w->o.buf);
            tracerd_event_arg_t a;
            map_value(x, p, j, f, &a);
            json_put_arg_value(w, &a);
            q = wr_room(&w->o, t->rest[j + 1]);
        }
    }
    w->o.len = (size_t)(q - w->o.buf);
    return true;
}

static int on_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    struct jc *x = user;
    if (x->open != NULL) {
        x->more = true; /* (none: a batch its plan holds ends its event) */
        map_after(x, x->open);
    } else if (!x->mapping && x->span == 0 && x->cls_cur != NULL) {
        /* the event's first batch: tracerd__ctf_args_find's plan */
        const struct plan *p = tracerd__ctf_plan_find(x->plans, x->cls_cur, f, n);
        if (p != NULL) {
            const struct jtpl *t = &x->tpl[p - x->plans];
            if (t->gen == p->gen && t->direct && write_planned(x, p, t, f))
                return TRACERD_CB_CONTINUE;
        }
    }
    map_begin(x);
    tracerd__ctf_args_fields(x->m, f, n);
    x->last = tracerd__ctf_args_used(x->m);
    return TRACERD_CB_CONTINUE;
}

/* The text of plan p's events, from the event ev it was made from (its
 * class's name and category): written by json's own functions into a
 * fixed buffer. */
static void make_tpl(struct jc *x, const struct plan *p, const tracerd_event_t *ev)
{
    struct jw *w = x->w;
    struct jtpl *t = &x->tpl[p - x->plans];
    t->gen = p->gen;
    t->direct = false;
    wr_t saved = w->o;
    char buf[JT_HEAD];
    wr_init_fixed(&w->o, buf, sizeof buf);
    json_instant_head(w, ev, "instant");
    WR_LIT(&w->o, JSON_ARGS_OPEN);
    bool fits = !w->o.failed && w->o.len <= JT_HEAD;
    memcpy(t->head, buf, sizeof buf);
    t->head_len = (uint16_t)w->o.len;
    for (uint32_t j = 0; fits && j < p->nargs; j++) {
        char k[JT_KEY + 16];
        wr_init_fixed(&w->o, k, sizeof k);
        json_put_key(w, p->arg[j].name.data, p->arg[j].name.len, j > 0);
        fits = !w->o.failed && w->o.len <= JT_KEY;
        memcpy(t->key[j].text, k, JT_KEY);
        t->key[j].len = (uint8_t)w->o.len;
        t->key[j].rec = p->arg[j].rec;
        tracerd_event_arg_type_t ty = p->arg[j].type;
        t->key[j].how = p->arg[j].op == PLAN_SCALAR      ? JT_SCALAR
                        : p->arg[j].op != PLAN_NUMBER    ? JT_OTHER
                        : ty == TRACERD_EVENT_ARG_UINT   ? JT_UINT
                        : ty == TRACERD_EVENT_ARG_INT    ? JT_INT
                        : ty == TRACERD_EVENT_ARG_DOUBLE ? JT_DOUBLE
                                                         : JT_OTHER;
    }
    w->o = saved;
    t->rest[p->nargs] = 0;
    for (uint32_t j = p->nargs; fits && j-- > 0;)
        t->rest[j] = (uint16_t)(t->rest[j + 1] + t->key[j].len + JT_ARG_ROOM);
    t->direct = fits;
}

/* The end of an instant written from its records, after its last
 * argument: json_args_end's and end_event's text for its cpu, kept. */
static void put_tail(struct jc *x)
{
    struct jw *w = x->w;
    const uint64_t cpu = (x->ev.flags & TRACERD_EVENT_HAS_CPU) ? x->ev.cpu : UINT64_MAX;
    struct jc_tail *k = &x->tail[cpu % JC_TAILS];
    if (cpu != k->cpu || k->len == 0) {
        wr_t saved = w->o;
        wr_init_fixed(&w->o, k->text, sizeof k->text);
        json_args_end(w, &x->ev, false);
        end_event(w);
        k->len = (uint8_t)w->o.len; /* (at most ,"cpu":4294967295}}) */
        k->cpu = cpu;
        w->o = saved;
    }
    WR_PUT_FIXED(&w->o, k->text, k->len);
}

static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    struct jc *x = user;
    (void)e;
    struct jw *w = x->w;
    tracerd__ctf_args_out_t r;
    if (x->open != NULL) { /* an instant written from its records: its end */
        const uint32_t k = x->open->nargs;
        const struct plan *p = x->open;
        x->open = NULL;
        if (!x->more && k > 0) {
            put_tail(x);
            return backpressure(w);
        }
        map_after(x, p);
        tracerd__ctf_args_result(x->m, &r);
        for (uint32_t j = k; j < r.nargs; j++) {
            json_put_key(w, r.args[j].name.data, r.args[j].name.len, j > 0);
            json_put_arg_value(w, &r.args[j]);
        }
        json_args_end(w, &x->ev, r.nargs == 0);
        end_event(w);
        return backpressure(w);
    }
    map_begin(x); /* (an event without records) */
    tracerd__ctf_args_result(x->m, &r);
    tracerd_event_t ev = x->ev;
    char name_buf[24];
    ev.args = r.args;
    ev.nargs = r.nargs;
    ev.flags |= r.flags;
    ev.tid = r.tid;
    ev.pid = r.pid;
    if (x->span != 0 && r.has_addr) {
        ev.kind = x->span == 1 ? TRACERD_EVENT_SPAN_BEGIN : TRACERD_EVENT_SPAN_END;
        ev.name_id = r.addr;
        ev.flags |= TRACERD_EVENT_HAS_NAME_ID;
        ev.name = ctf_evsrc_addr_name(name_buf, r.addr);
    }
    int rc = json_event(w, &ev);
    const struct plan *p = x->last;
    if (rc >= 0 && p != NULL && x->span == 0 && r.nargs == p->nargs &&
        x->tpl[p - x->plans].gen != p->gen)
        make_tpl(x, p, &ev);
    return rc;
}

static int on_warning(void *user, const tracerd_warning_t *wn)
{
    return ctf_evsrc_warning(&((struct jc *)user)->src, wn);
}

static tracerd_status_t open_dir(struct jc *x, cli_t *c, const tracerd_ctf_stream_config_t *scfg)
{
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    cb.on_packet_begin = on_packet;
    cb.on_event_begin = on_event_begin;
    cb.on_event_end = on_event_end;
    cb.on_fields = on_fields;
    cb.on_warning = on_warning;
    tracerd_ctf_stream_config_t sc;
    tracerd_ctf_stream_config_init(&sc);
    if (scfg != NULL)
        sc = *scfg;
    if (sc.field_scopes == 0)
        sc.field_scopes = TRACERD__CTF_ARGS_SCOPES;
    tracerd_status_t st = ctf_evsrc_open(&x->src, c, &x->files, &cb, x, &sc, NULL);
    return st == TRACERD_OK ? ctf_evsrc_opened(&x->src) : st;
}

int json_ctf_dir(struct ev_run *r, struct jw *w)
{
    cli_t *c = r->c;
    int rc = ev_dir_check(c);
    if (rc != CLI_EXIT_OK)
        return rc;
    tracerd_auto_config_t cfg;
    cli_config_store_t store[CLI_NFORMATS];
    rc = cli_event_configs(c, store, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    struct jc *x = cli_calloc(1, sizeof *x);
    if (x == NULL)
        return cli_oom(c, "reader context");
    x->run = r;
    x->src.run = r;
    x->w = w;
    r->range_end = TRACERD_EVENT_FILTER_NO_END;
    x->ev.format = TRACERD_EVENT_FORMAT_CTF;
    x->m = tracerd__ctf_args_new(NULL, cfg.max_args);
    x->plans = x->m != NULL ? tracerd__ctf_args_plans(x->m) : NULL;
    tracerd_status_t st = x->m != NULL ? open_dir(x, c, cfg.ctf) : TRACERD_E_NOMEM;
    while (st == TRACERD_OK || st == TRACERD_PAUSED) {
        if (st == TRACERD_PAUSED && r->drain != NULL && r->drain(r->drain_ctx) != 0) {
            st = TRACERD_E_IO;
            break;
        }
        st = tracerd_ctf_dir_run(x->src.dir);
        if (st == TRACERD_OK)
            break;
    }
    if (x->open != NULL)
        take_back(x);
    const tracerd_ctf_dir_t *d = x->src.dir;
    rc = ev_dir_exit_code(r, st, d != NULL, d != NULL ? tracerd_ctf_dir_error_path(d) : "",
                          d != NULL ? tracerd_ctf_dir_error_offset(d) : 0,
                          d != NULL ? tracerd_ctf_dir_error_reason(d) : "");
    tracerd_ctf_dir_free(x->src.dir);
    tracerd__ctf_args_free(x->m);
    ctf_evsrc_free(&x->src);
    cli_free(x);
    return rc;
}
