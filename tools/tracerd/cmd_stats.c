/* `tracerd stats`: per-thread and per-name counts, total and self time,
 * duration percentiles, top N, in one pass without keeping the trace:
 * per-thread span stacks with a depth bound (EV_MAX_DEPTH), per-name
 * aggregates in a hash table bounded by the number of distinct names
 * (EV_MAX_NAMES; more share one entry), threads bounded by EV_MAX_THREADS,
 * a log-bucketed duration histogram (hist.h) for each of the first
 * STATS_MAX_HISTS span names. Memory grows with distinct names and threads,
 * never with the length of the trace. Output as text, CSV or JSON
 * (--format), sorted by --sort; C++ names demangled (demangle.c). */
#include <stdlib.h>
#include <string.h>

#include "../../libtracerd/event/fxt_meaning.h"
#include "../../libtracerd/event/xray_meaning.h"
#include "evrun.h"
#include "hist.h"
#include "stats_ctf.h"

/* Span names with a percentile histogram; later ones show no percentiles. */
#define STATS_MAX_HISTS 65536u
#define STATS_RECENT_NAMES 256u

struct agg {
    char *name;     /* "category/name" copy, or the name alone (NULL: fn_id's, made at the end) */
    int32_t fn_id;  /* XRay fast path: the function id whose name this is */
    uint64_t count; /* events of this name (spans: completed spans) */
    uint64_t total; /* inclusive time of completed spans */
    uint64_t self;  /* total minus time in child spans */
    uint64_t min, max;
    bool span;
    tracerd_event_kind_t kind; /* of the first event of this name */
    struct hist *h;            /* durations, or &st.nohist (none yet, or past STATS_MAX_HISTS) */
};

struct st {
    cli_t *c;
    struct ev_threads threads;
    struct ev_table names;
    struct agg *v;
    uint32_t n, cap;
    uint32_t other; /* index of "(other names)" or UINT32_MAX */
    uint64_t events, spans, unmatched, deep, unclosed;
    uint64_t first_ts, last_ts;
    bool any_ts;
    tracerd_event_source_t src;
    bool has_src;
    bool reported;
    uint32_t nhists;
    struct hist nohist;  /* every name's until its first span: empty, never added to */
    cli_demangler_t *dm; /* NULL with --no-demangle */
    /* recent name keys before the name table, direct-mapped: (h, id) -> index + 1 */
    struct {
        uint64_t h, id;
        uint32_t index;
    } recent[STATS_RECENT_NAMES];
    /* text names by address (ev_run.stable_names), direct-mapped: (name,
     * category) -> index + 1 */
    const bool *stable_names;
    struct {
        const char *name, *cat;
        size_t nlen, clen;
        uint32_t index;
    } by_addr[STATS_RECENT_NAMES];
};

/* A new aggregate named text (len bytes), or with no name yet (text NULL). */
static uint32_t add_name(struct st *s, const char *text, size_t len)
{
    if (s->n == s->cap) {
        uint32_t ncap = s->cap ? s->cap * 2 : 64;
        struct agg *v = cli_realloc(s->v, (size_t)ncap * sizeof *v);
        if (v == NULL)
            return UINT32_MAX;
        s->v = v;
        s->cap = ncap;
    }
    struct agg *a = &s->v[s->n];
    memset(a, 0, sizeof *a);
    a->min = UINT64_MAX;
    a->h = &s->nohist;
    if (text != NULL) {
        a->name = cli_malloc(len + 1);
        if (a->name == NULL)
            return UINT32_MAX;
        memcpy(a->name, text, len);
        a->name[len] = '\0';
    }
    return s->n++;
}

/* The aggregate of key (h, id) (bounded: past EV_MAX_NAMES new keys share
 * "(other names)"); *ins when it is new and needs its name. UINT32_MAX on
 * no memory. */
static uint32_t name_slot(struct st *s, uint64_t h, uint64_t id, bool *ins)
{
    *ins = false;
    /* a key's index never changes once given (past the bound, the keys not
     * in the table all share "(other names)") */
    uint32_t r = (uint32_t)((h ^ (id * 0x9e3779b97f4a7c15ull)) >> 56) % STATS_RECENT_NAMES;
    if (s->recent[r].index != 0 && s->recent[r].h == h && s->recent[r].id == id)
        return s->recent[r].index - 1;
    uint32_t i;
    if (s->n >= EV_MAX_NAMES) {
        /* Known names keep their entry; new ones share "(other names)". */
        i = ev_table_find(&s->names, h, id);
        if (i == UINT32_MAX) {
            if (s->other == UINT32_MAX)
                s->other = add_name(s, "(other names)", 13);
            i = s->other;
        }
    } else {
        i = ev_table_get(&s->names, h, id, s->n, ins);
    }
    if (i != UINT32_MAX) {
        s->recent[r].h = h;
        s->recent[r].id = id;
        s->recent[r].index = i + 1;
    }
    return i;
}

/* The text of a name: "category/" (when with_cat and there is one), then the
 * name demangled when it is a C++ one, cut to fit buf (512 bytes). */
static size_t name_text(const struct st *s, bool with_cat, tracerd_str_t cat, tracerd_str_t name,
                        char buf[512])
{
    size_t len = 0;
    if (with_cat && cat.len > 0) {
        size_t cl = cat.len < 200 ? cat.len : 200;
        memcpy(buf, cat.data, cl);
        buf[cl] = '/';
        len = cl + 1;
    }
    size_t room = 512 - len;
    size_t nl = name.len < room ? name.len : room;
    size_t dl = cli_demangle(s->dm, name.data, name.len, buf + len, room);
    if (dl == 0)
        memcpy(buf + len, name.data, nl);
    return len + (dl > 0 ? dl : nl);
}

/* The key of a numeric name (XRay function id): spans and instants of one id stay apart. */
#define NAME_ID_KEY(kind) (0x6e616d655f6964ull ^ (uint64_t)(kind))

/* Bytes folded into h 8 at a time (names are identified by this hash: it
 * runs for every FXT and CTF event; the byte-at-a-time ev_hash was a tenth
 * of `stats` on FXT). */
static uint64_t fold(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    h ^= (uint64_t)len * 0x9e3779b97f4a7c15ull;
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    if (len > 0) {
        uint64_t w = 0;
        if (len >= 4) { /* two overlapping 4-byte words */
            uint32_t a, b;
            memcpy(&a, p, 4);
            memcpy(&b, p + len - 4, 4);
            w = ((uint64_t)a << 32) | b;
        } else {
            w = ((uint64_t)p[0] << 16) | ((uint64_t)p[len / 2] << 8) | p[len - 1];
        }
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
        h ^= h >> 29;
    }
    return h;
}

/* The key of a name given by its text: name and category. */
static uint64_t text_key(tracerd_str_t name, tracerd_str_t cat)
{
    uint64_t h = fold(0xcbf29ce484222325ull, name.data, name.len);
    h = fold(h * 0x100000001b3ull, cat.data, cat.len);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
}

/* Index of the aggregate of key (h, id) (bounded), made when new with the
 * text of name (after "category/" when with_cat) and kind (its first
 * event's); UINT32_MAX on no memory. */
static uint32_t name_key(struct st *s, uint64_t h, uint64_t id, bool with_cat, tracerd_str_t cat,
                         tracerd_str_t name, tracerd_event_kind_t kind)
{
    bool ins;
    uint32_t i = name_slot(s, h, id, &ins);
    if (i == UINT32_MAX || !ins)
        return i;
    char buf[512];
    size_t len = name_text(s, with_cat, cat, name, buf);
    uint32_t k = add_name(s, buf, len);
    if (k != UINT32_MAX)
        s->v[k].kind = kind;
    return k;
}

/* Index of the event's name aggregate (bounded); UINT32_MAX on no memory. */
static uint32_t name_of(struct st *s, const tracerd_event_t *ev)
{
    /* A numeric name (XRay function id) stands for its text: no hashing of bytes. */
    uint64_t h, id;
    if (ev->flags & TRACERD_EVENT_HAS_NAME_ID) {
        h = NAME_ID_KEY(ev->kind);
        id = ev->name_id;
    } else if (*s->stable_names) { /* the texts' addresses before their bytes */
        const tracerd_str_t n = ev->name, c = ev->category;
        size_t k =
            (size_t)((((uintptr_t)n.data >> 3) ^ (uintptr_t)c.data) * 0x9e3779b97f4a7c15ull >> 56) %
            STATS_RECENT_NAMES;
        if (s->by_addr[k].index != 0 && s->by_addr[k].name == n.data &&
            s->by_addr[k].cat == c.data && s->by_addr[k].nlen == n.len &&
            s->by_addr[k].clen == c.len)
            return s->by_addr[k].index - 1;
        uint32_t i = name_key(s, text_key(n, c), UINT64_MAX,
                              ev->format != TRACERD_EVENT_FORMAT_XRAY, c, n, ev->kind);
        if (i != UINT32_MAX) {
            s->by_addr[k].name = n.data;
            s->by_addr[k].cat = c.data;
            s->by_addr[k].nlen = n.len;
            s->by_addr[k].clen = c.len;
            s->by_addr[k].index = i + 1;
        }
        return i;
    } else {
        h = text_key(ev->name, ev->category);
        id = UINT64_MAX;
    }
    return name_key(s, h, id, ev->format != TRACERD_EVENT_FORMAT_XRAY, ev->category, ev->name,
                    ev->kind);
}

/* (record's histogram past hist_add_fast: a's first span makes its
 * histogram, unless past STATS_MAX_HISTS or on no memory) */
__attribute__((noinline)) static void record_slow(struct st *s, struct agg *a, uint64_t d)
{
    if (a->h == &s->nohist) {
        if (s->nhists >= STATS_MAX_HISTS)
            return;
        struct hist *h = cli_malloc(sizeof *h);
        if (h == NULL) {
            cli_oom(s->c, "duration histogram");
            return;
        }
        hist_init(h);
        a->h = h;
        s->nhists++;
    }
    if (!hist_add_slow(a->h, d))
        cli_oom(s->c, "duration histogram");
}

/* One finished span of duration d (ns or ticks) under name a. (Inlined in
 * the span loops: a call per span was a fifth of `stats` on XRay.) */
__attribute__((always_inline)) static inline void record(struct st *s, struct agg *a, uint64_t d)
{
    a->span = true;
    a->total += d;
    if (d < a->min)
        a->min = d;
    if (d > a->max)
        a->max = d;
    if (__builtin_expect(!hist_add_fast(a->h, d), 0))
        record_slow(s, a, d);
}

/* A span of frame f closed after d: its name's figures (count, self time
 * net of the child spans, and record's). */
__attribute__((always_inline)) static inline void frame_done(struct st *s, const struct ev_frame *f,
                                                             uint64_t d)
{
    struct agg *a = &s->v[f->name];
    record(s, a, d);
    a->count++;
    a->self += d >= f->child ? d - f->child : 0;
}

__attribute__((always_inline)) static inline int close_frame(void *ctx, struct ev_thread *t,
                                                             const struct ev_frame *f, uint64_t end)
{
    struct st *s = ctx;
    uint64_t d = end - f->start;
    frame_done(s, f, d);
    t->spans++;
    s->spans++;
    if (t->depth == 0)
        t->busy += d;
    return 0;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct st *s = user;
    s->src = *src;
    s->has_src = true;
    return 0;
}

/* n events on thread t, the first at time first, all within [lo, hi]:
 * counted, the time spans widened. */
static inline void see_events(struct st *s, struct ev_thread *t, uint64_t n, uint64_t first,
                              uint64_t lo, uint64_t hi)
{
    s->events += n;
    t->events += n;
    if (!t->seen_ts) {
        t->first_ts = first;
        t->seen_ts = true;
    }
    if (hi > t->last_ts)
        t->last_ts = hi;
    if (!s->any_ts || lo < s->first_ts)
        s->first_ts = lo;
    if (!s->any_ts || hi > s->last_ts)
        s->last_ts = hi;
    s->any_ts = true;
}

/* An event on thread t at time ts. */
static inline void see_event(struct st *s, struct ev_thread *t, uint64_t ts)
{
    see_events(s, t, 1, ts, ts, ts);
}

/* A span begins (name ni, key: its name id or 0): -1 on no memory. */
static inline int span_begin(struct st *s, struct ev_thread *t, uint64_t key, uint64_t ts,
                             uint32_t ni)
{
    int pushed = ev_push(&s->threads, t, key, ts, ni);
    if (pushed < 0)
        return cli_oom(s->c, "span stack"), -1;
    if (pushed == 0)
        s->deep++;
    return 0;
}

/* A span ends (by_key: the innermost span of name id key). */
static inline void span_end(struct st *s, struct ev_thread *t, bool by_key, uint64_t key,
                            uint64_t ts)
{
    int n = ev_pop_key(&s->threads, t, by_key, key, ts, close_frame, s);
    if (n == 0)
        s->unmatched++;
}

/* An event of kind (not SPAN_END) on thread t at ts, seen (see_event),
 * of name aggregate ni (UINT32_MAX: no memory): a span opened under key, a
 * complete span ending at end, or counted. */
static inline int named_event(struct st *s, struct ev_thread *t, tracerd_event_kind_t kind,
                              uint64_t ts, uint64_t end, uint64_t key, uint32_t ni)
{
    if (ni == UINT32_MAX)
        return cli_oom(s->c, "name table"), -1;
    if (kind == TRACERD_EVENT_SPAN_BEGIN)
        return span_begin(s, t, key, ts, ni);
    struct agg *a = &s->v[ni];
    if (kind == TRACERD_EVENT_SPAN_COMPLETE) {
        uint64_t d = end >= ts ? end - ts : 0;
        record(s, a, d);
        a->self += d;
        s->spans++;
        t->spans++;
        if (t->depth == 0)
            t->busy += d;
        else
            t->stack[t->depth - 1].child += d;
    }
    a->count++;
    return 0;
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct st *s = user;
    if (ev->kind == TRACERD_EVENT_PROCESS_NAME || ev->kind == TRACERD_EVENT_THREAD_NAME)
        return 0;                            /* names are not events */
    if (ev->flags & TRACERD_EVENT_NO_TIME) { /* counted by name, on no thread's timeline */
        uint32_t ni = name_of(s, ev);
        if (ni == UINT32_MAX)
            return cli_oom(s->c, "name table"), -1;
        s->v[ni].count++;
        s->events++;
        return 0;
    }
    uint64_t ts = ev_time(ev);
    struct ev_thread *t = ev_thread_of(&s->threads, ev);
    if (t == NULL)
        return cli_oom(s->c, "thread table"), -1;
    see_event(s, t, ts);
    bool has_id = (ev->flags & TRACERD_EVENT_HAS_NAME_ID) != 0;
    if (ev->kind == TRACERD_EVENT_SPAN_END) {
        span_end(s, t, has_id, ev->name_id, ts);
        return 0;
    }
    uint64_t end = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
    return named_event(s, t, ev->kind, ts, end, has_id ? ev->name_id : 0, name_of(s, ev));
}

/* ---- CTF directories: the hooks of stats_ctf.c ---------------------------
 * stats_ctf.c sends the first event of each event class through on_event,
 * then asks for its name's aggregate once (stats_name_index) and counts the
 * class's later instants itself: the first of a run of a thread's events
 * by stats_instant, the run's later ones folded in once (stats_run), the
 * class's count too (stats_count). What on_event does for them, without
 * the name's lookup or the thread's per event. */

uint32_t stats_name_index(struct st *s, const tracerd_event_t *ev)
{
    return name_of(s, ev);
}

uint32_t stats_instant(struct st *s, uint32_t ni, uint64_t pid, uint64_t tid, uint64_t ts)
{
    struct ev_thread *t = ev_thread_ids(&s->threads, pid, tid);
    if (t == NULL)
        return cli_oom(s->c, "thread table"), UINT32_MAX;
    see_event(s, t, ts);
    s->v[ni].count++;
    return (uint32_t)(t - s->threads.v);
}

void stats_run(struct st *s, uint32_t ti, uint64_t n, uint64_t lo, uint64_t hi)
{
    struct ev_thread *t = &s->threads.v[ti]; /* seen (stats_instant): first_ts set */
    see_events(s, t, n, lo, lo, hi);
}

void stats_count(struct st *s, uint32_t ni, uint64_t n)
{
    s->v[ni].count += n;
}

/* The --sort key of an aggregate (descending), ties by count then name. */
static uint64_t sort_key(const struct agg *a, cli_stats_sort_t key)
{
    switch (key) {
    case CLI_SORT_COUNT:
        return a->count;
    case CLI_SORT_SELF:
        return a->self;
    case CLI_SORT_P99:
        return hist_quantile(a->h, 0.99, a->min, a->max); /* 0 when empty */
    case CLI_SORT_TOTAL:
        break;
    }
    return a->total;
}

struct sorted {
    const struct agg *a;
    uint64_t key;
};

static int cmp_agg(const void *x, const void *y)
{
    const struct sorted *p = x, *q = y;
    if (p->key != q->key)
        return p->key > q->key ? -1 : 1;
    if (p->a->count != q->a->count)
        return p->a->count > q->a->count ? -1 : 1;
    return strcmp(p->a->name, q->a->name);
}

static int cmp_thr(const void *x, const void *y)
{
    const struct ev_thread *a = *(const struct ev_thread *const *)x,
                           *b = *(const struct ev_thread *const *)y;
    if (a->busy != b->busy)
        return a->busy > b->busy ? -1 : 1;
    if (a->events != b->events)
        return a->events > b->events ? -1 : 1;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* Nanoseconds (or ticks) as milliseconds with 6 decimals. */
static void put_ms(FILE *f, uint64_t v)
{
    fprintf(f, " %14llu.%06llu", (unsigned long long)(v / 1000000),
            (unsigned long long)(v % 1000000));
}

static const char *const sort_names[] = {"total time", "count", "self time", "p99"};

/* The per-name columns every format writes: count, total, self, min, p50,
 * p90, p99, max (durations; 0 for names without spans). */
static void columns(const struct agg *a, uint64_t v[8])
{
    v[0] = a->count;
    v[1] = a->total;
    v[2] = a->self;
    v[3] = a->span && a->min != UINT64_MAX ? a->min : 0;
    v[4] = hist_quantile(a->h, 0.50, a->min, a->max); /* 0 when empty */
    v[5] = hist_quantile(a->h, 0.90, a->min, a->max);
    v[6] = hist_quantile(a->h, 0.99, a->min, a->max);
    v[7] = a->max;
}

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void report_text(struct st *s, struct ev_thread **tv, const struct sorted *av,
                        const char *unit)
{
    FILE *f = s->c->out;
    fprintf(f, "trace: %s", s->c->path);
    if (s->has_src)
        fprintf(f, " (%s v%u, %s-endian, %llu ticks/s)", s->src.format_name,
                (unsigned)s->src.version, tracerd_byte_order_name(s->src.byte_order),
                (unsigned long long)s->src.ticks_per_second);
    fprintf(f, "\nevents: %llu  spans: %llu  threads: %u  names: %u\n",
            (unsigned long long)s->events, (unsigned long long)s->spans, (unsigned)s->threads.n,
            (unsigned)s->n);
    fprintf(f,
            "unmatched ends: %llu  unclosed spans: %llu  spans past the open-span bounds (%u "
            "per thread, %u in all): %llu\n",
            (unsigned long long)s->unmatched, (unsigned long long)s->unclosed, EV_MAX_DEPTH,
            s->c->max_open ? s->c->max_open : CLI_MAX_OPEN_DEFAULT, (unsigned long long)s->deep);
    fprintf(f, "time span (%s):", unit);
    put_ms(f, s->any_ts ? s->last_ts - s->first_ts : 0);
    fputc('\n', f);
    unsigned top = s->c->top;
    fprintf(f, "\nthreads (by busy time, %s):\n%10s %10s %10s %10s %21s\n", unit, "pid", "tid",
            "events", "spans", "busy");
    for (uint32_t i = 0; i < s->threads.n && (top == 0 || i < top); i++) {
        fprintf(f, "%10llu %10llu %10llu %10llu", (unsigned long long)tv[i]->pid,
                (unsigned long long)tv[i]->tid, (unsigned long long)tv[i]->events,
                (unsigned long long)tv[i]->spans);
        put_ms(f, tv[i]->busy);
        fputc('\n', f);
    }
    fprintf(f,
            "\nnames (top %u by %s, %s):\n%10s %21s %21s %21s %21s %21s "
            "%21s %21s  %s\n",
            top ? top : s->n, sort_names[s->c->stats_sort], unit, "count", "total", "self", "min",
            "p50", "p90", "p99", "max", "name");
    for (uint32_t i = 0; i < s->n && (top == 0 || i < top); i++) {
        const struct agg *a = av[i].a;
        uint64_t v[8];
        columns(a, v);
        fprintf(f, "%10llu", (unsigned long long)v[0]);
        for (int k = 1; k < 8; k++)
            put_ms(f, v[k]);
        if (a->span)
            fprintf(f, "  %s\n", a->name);
        else
            fprintf(f, "  %s (%s)\n", a->name, tracerd_event_kind_name(a->kind));
    }
    fprintf(f, "(percentiles from a log-bucketed histogram: within 1.6%% of the value of "
               "that rank)\n");
}

static const char *const col_names[] = {"count", "total", "self", "min",
                                        "p50",   "p90",   "p99",  "max"};

static void report_csv(struct st *s, const struct sorted *av, const char *unit)
{
    FILE *f = s->c->out;
    fputs("name,kind", f);
    for (int k = 0; k < 8; k++)
        fprintf(f, k == 0 ? ",%s" : ",%s_%s", col_names[k], unit);
    fputc('\n', f);
    unsigned top = s->c->top;
    for (uint32_t i = 0; i < s->n && (top == 0 || i < top); i++) {
        const struct agg *a = av[i].a;
        uint64_t v[8];
        columns(a, v);
        csv_field(f, a->name);
        fprintf(f, ",%s", a->span ? "span" : tracerd_event_kind_name(a->kind));
        for (int k = 0; k < 8; k++)
            fprintf(f, ",%llu", (unsigned long long)v[k]);
        fputc('\n', f);
    }
}

static void report_json(struct st *s, struct ev_thread **tv, const struct sorted *av,
                        const char *unit)
{
    /* JSON text through the CLI's writer (escaping and UTF-8 repair as dump's) */
    fflush(s->c->out);
    wr_t w, *f = &w;
    if (wr_init(&w, fileno(s->c->out), (size_t)1 << 16) != 0)
        return;
    wr_cstr(f, "{\"trace\":");
    cli_json_cstr(f, s->c->path);
    wr_printf(f, ",\"format\":\"%s\",\"unit\":\"%s\",\"ticks_per_second\":%llu,",
              s->has_src ? s->src.format_name : "unknown", unit,
              (unsigned long long)(s->has_src ? s->src.ticks_per_second : 0));
    wr_printf(f,
              "\"percentile_error\":0.015625,\"sort\":\"%s\",\"events\":%llu,\"spans\":%llu,"
              "\"unmatched_ends\":%llu,\"unclosed_spans\":%llu,\"spans_past_depth\":%llu,"
              "\"time_span\":%llu,\"threads\":[",
              s->c->stats_sort == CLI_SORT_COUNT  ? "count"
              : s->c->stats_sort == CLI_SORT_SELF ? "self"
              : s->c->stats_sort == CLI_SORT_P99  ? "p99"
                                                  : "total",
              (unsigned long long)s->events, (unsigned long long)s->spans,
              (unsigned long long)s->unmatched, (unsigned long long)s->unclosed,
              (unsigned long long)s->deep,
              (unsigned long long)(s->any_ts ? s->last_ts - s->first_ts : 0));
    unsigned top = s->c->top;
    for (uint32_t i = 0; i < s->threads.n && (top == 0 || i < top); i++)
        wr_printf(f, "%s{\"pid\":%llu,\"tid\":%llu,\"events\":%llu,\"spans\":%llu,\"busy\":%llu}",
                  i ? "," : "", (unsigned long long)tv[i]->pid, (unsigned long long)tv[i]->tid,
                  (unsigned long long)tv[i]->events, (unsigned long long)tv[i]->spans,
                  (unsigned long long)tv[i]->busy);
    wr_cstr(f, "],\"names\":[");
    for (uint32_t i = 0; i < s->n && (top == 0 || i < top); i++) {
        const struct agg *a = av[i].a;
        uint64_t v[8];
        columns(a, v);
        wr_cstr(f, i ? ",{\"name\":" : "{\"name\":");
        cli_json_cstr(f, a->name);
        wr_printf(f, ",\"kind\":\"%s\"", a->span ? "span" : tracerd_event_kind_name(a->kind));
        for (int k = 0; k < 8; k++)
            wr_printf(f, ",\"%s\":%llu", col_names[k], (unsigned long long)v[k]);
        wr_ch(f, '}');
    }
    wr_cstr(f, "]}\n");
    wr_flush(&w);
    wr_free(&w);
}

/* The names the XRay fast path left to the end: one per function id. */
static bool name_functions(struct st *s)
{
    static const tracerd_str_t none = {"", 0};
    for (uint32_t i = 0; i < s->n; i++) {
        struct agg *a = &s->v[i];
        if (a->name != NULL)
            continue;
        char id[32], buf[512];
        size_t len = name_text(s, false, none, cli_xray_fn_name(s->c, a->fn_id, id), buf);
        a->name = cli_malloc(len + 1);
        if (a->name == NULL)
            return false;
        memcpy(a->name, buf, len);
        a->name[len] = '\0';
    }
    return true;
}

static void report(struct st *s)
{
    if (!name_functions(s)) {
        cli_oom(s->c, "name table");
        return;
    }
    for (uint32_t i = 0; i < s->threads.n; i++)
        s->unclosed += s->threads.v[i].depth + s->threads.v[i].overflow;
    bool clock = s->has_src && s->src.ticks_per_second != 0;
    struct ev_thread **tv = cli_malloc((size_t)(s->threads.n ? s->threads.n : 1) * sizeof *tv);
    struct sorted *av = cli_malloc((size_t)(s->n ? s->n : 1) * sizeof *av);
    if (tv == NULL || av == NULL) {
        cli_free(tv);
        cli_free(av);
        cli_oom(s->c, "report tables");
        return;
    }
    for (uint32_t i = 0; i < s->threads.n; i++)
        tv[i] = &s->threads.v[i];
    qsort(tv, s->threads.n, sizeof *tv, cmp_thr);
    for (uint32_t i = 0; i < s->n; i++) {
        av[i].a = &s->v[i];
        av[i].key = sort_key(&s->v[i], s->c->stats_sort);
    }
    qsort(av, s->n, sizeof *av, cmp_agg);
    if (s->c->stats_format == CLI_STATS_CSV)
        report_csv(s, av, clock ? "ns" : "ticks");
    else if (s->c->stats_format == CLI_STATS_JSON)
        report_json(s, tv, av, clock ? "ns" : "ticks");
    else
        report_text(s, tv, av, clock ? "ms" : "Mticks");
    cli_free(tv);
    cli_free(av);
}

/* The trace ended in an error: what was read so far, before the error line. */
static void report_before_error(void *user)
{
    struct st *s = user;
    report(s);
    s->reported = true;
    fprintf(s->c->out, "(incomplete: the trace ends in an error)\n");
    fflush(s->c->out);
}

/* ---- XRay: straight from the reader's records ---------------------------
 * The same figures as through the event view (tests/check_cli_stats.c
 * compares the two on every XRay trace), without mapping each record to an
 * event: the name aggregate of a function id is looked up in a small
 * direct-mapped cache before the name table, and names are made once per
 * id when the report is written. Taken when the input is one XRay stream and
 * no filter is given (ev_plain_stream). */

#define XF_CACHE 1024u
/* function ids below this have their aggregate in a table indexed by the id
 * (instrumented binaries number their functions from 1; the table's pages
 * are touched as ids are seen: at most 256 KiB) */
#define XF_DIRECT 65536u

/* What every direct reading's context starts with (run_direct sets it). */
struct fast_hdr {
    struct st *s;
    void *rd; /* the format's reader */
};

struct xfast {
    struct fast_hdr h; /* first */
    bool has_ns;
    /* function id (>= XF_DIRECT) -> aggregate: (id << 32) | (index + 1), 0 for none */
    uint64_t cache[XF_CACHE];
    /* function id (< XF_DIRECT) -> aggregate index + 1, 0 for none */
    uint32_t direct[XF_DIRECT];
};

static int xf_header(void *u, const tracerd_xray_header_t *h)
{
    struct xfast *x = u;
    x->has_ns = h->cycle_frequency != 0;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    src.format = TRACERD_EVENT_FORMAT_XRAY;
    src.format_name = tracerd_event_format_name(TRACERD_EVENT_FORMAT_XRAY);
    src.version = h->version;
    src.byte_order = h->byte_order;
    src.ticks_per_second = h->cycle_frequency;
    return on_source(x->h.s, &src);
}

/* (xf_name past its tables) */
static __attribute__((noinline)) uint32_t xf_name_slow(struct xfast *x, uint32_t id)
{
    struct st *s = x->h.s;
    uint64_t *slot = &x->cache[id % XF_CACHE];
    if (id >= XF_DIRECT && (*slot >> 32) == id && (uint32_t)*slot != 0)
        return (uint32_t)*slot - 1;
    bool ins;
    uint32_t i = name_slot(s, NAME_ID_KEY(TRACERD_EVENT_SPAN_BEGIN), id, &ins);
    if (i == UINT32_MAX)
        return i;
    if (ins) {
        i = add_name(s, NULL, 0);
        if (i == UINT32_MAX)
            return i;
        s->v[i].fn_id = (int32_t)id;
        s->v[i].kind = TRACERD_EVENT_SPAN_BEGIN;
    }
    if (id < XF_DIRECT)
        x->direct[id] = i + 1u;
    else
        *slot = ((uint64_t)id << 32) | (i + 1u);
    return i;
}

/* The aggregate of function id's entries (the event view's SPAN_BEGIN name). */
static inline uint32_t xf_name(struct xfast *x, uint32_t id)
{
    if (__builtin_expect(id < XF_DIRECT && x->direct[id] != 0, 1))
        return x->direct[id] - 1;
    return xf_name_slow(x, id);
}

/* Records fs[i..n-1] of a run on thread t, one by one: each opens or closes
 * a span as the event view's SPAN_BEGIN and SPAN_END do (ev_push, ev_pop_key,
 * with their bounds). Returns -1 on no memory (*done: the records read, the
 * failing one included), else 0. */
static int xf_records(struct xfast *x, struct ev_thread *t, const tracerd_xray_function_t *fs,
                      size_t i, size_t n, size_t *done)
{
    struct st *s = x->h.s;
    int rc = 0;
    while (i < n) {
        const tracerd_xray_function_t *f = &fs[i++];
        uint64_t ts = x->has_ns ? f->ns : f->tsc;
        uint32_t id = (uint32_t)f->function_id;
        if (f->kind == TRACERD_XRAY_EXIT || f->kind == TRACERD_XRAY_TAIL_EXIT) {
            span_end(s, t, true, id, ts);
            continue;
        }
        uint32_t ni = xf_name(x, id);
        if (ni == UINT32_MAX) {
            cli_oom(s->c, "name table");
            rc = -1;
            break;
        }
        if (span_begin(s, t, id, ts, ni) != 0) {
            rc = -1;
            break;
        }
    }
    *done = i;
    return rc;
}

/* Closes *top, the top of t's stack (from stk) once popped, at ts (a later
 * start makes it empty): its duration to its parent's child time or the
 * thread's busy time, and to its name's figures (as close_frame). */
__attribute__((always_inline)) static inline void
xf_close(struct st *s, struct ev_thread *t, struct ev_frame *stk, struct ev_frame *top, uint64_t ts)
{
    const struct ev_frame fr = *top;
    uint64_t e = ts >= fr.start ? ts : fr.start, d = e - fr.start;
    if (top > stk)
        top[-1].child += d;
    else
        t->busy += d;
    frame_done(s, &fr, d);
}

/* The frames of the open spans from stk[0] to below top, while no bound is
 * reached: the same pushes and pops as ev_push and ev_pop_key, the same
 * closing as close_frame, the stack's top a pointer in a register. Records
 * fs[i..n-1] (the time of each its ns or its tsc: has_ns is a constant at
 * each call); returns the index of the first record not read (a bound, or
 * n); *rc -1 on no memory (the failing record read). */
__attribute__((always_inline)) static inline size_t
xf_run(struct xfast *x, struct ev_thread *t, const tracerd_xray_function_t *fs, size_t n,
       struct ev_frame **topp, struct ev_frame *bound, uint64_t *spansp, int *rc, const bool has_ns)
{
    struct st *s = x->h.s;
    struct ev_frame *stk = t->stack, *top = *topp;
    /* lim: the least of the bound and the stack's room */
    struct ev_frame *lim = bound < stk + t->cap ? bound : stk + t->cap;
    uint64_t spans = 0;
    size_t i = 0;
    for (; i < n; i++) {
        const tracerd_xray_function_t *f = &fs[i];
        const uint64_t ts = has_ns ? f->ns : f->tsc;
        const uint32_t id = (uint32_t)f->function_id;
        if ((unsigned)f->kind - TRACERD_XRAY_EXIT <= TRACERD_XRAY_TAIL_EXIT - TRACERD_XRAY_EXIT) {
            /* the innermost open span of id, and those above it; the
             * common case, id's span on top, without the loop (its
             * registers cost more than its one pass) */
            if (__builtin_expect(top > stk && top[-1].key == id, 1)) {
                top--;
                xf_close(s, t, stk, top, ts);
                spans++;
                continue;
            }
            struct ev_frame *k = top;
            while (k > stk && k[-1].key != id)
                k--;
            if (k == stk) {
                s->unmatched++;
                continue;
            }
            k--;
            do {
                top--;
                xf_close(s, t, stk, top, ts);
                spans++;
            } while (top > k);
            continue;
        }
        uint32_t ni = xf_name(x, id);
        if (__builtin_expect(ni == UINT32_MAX, 0)) {
            cli_oom(s->c, "name table");
            *rc = -1;
            i++; /* read */
            break;
        }
        if (__builtin_expect(top >= lim, 0)) {
            if (top >= bound)
                break;                        /* record by record from here (the name is kept) */
            t->depth = (uint32_t)(top - stk); /* the stack is full: grow it */
            if (!ev_stack_grow(t)) {
                cli_oom(s->c, "span stack");
                *rc = -1;
                i++; /* read */
                break;
            }
            top = t->stack + (top - stk);
            bound = t->stack + (bound - stk);
            stk = t->stack;
            lim = bound < stk + t->cap ? bound : stk + t->cap;
        }
        top->key = id;
        top->start = ts;
        top->child = 0;
        top->name = ni;
        top++;
    }
    *topp = top;
    *spansp = spans;
    return i;
}

/* A run of function records (on_functions: one thread's). The thread is
 * looked up and the time spans widened once per run. While no bound is
 * reached (the thread's depth, the open spans in all, the stack's room,
 * none dropped before) the thread's stack depth stays in a register for
 * the run (xf_run; the loop of ev_push and ev_pop_key stored and reloaded
 * the depth, the open count and the counters at every record); at a bound
 * the rest of the run goes record by record (xf_records). */
static int xf_functions(void *u, const tracerd_xray_function_t *fs, size_t n)
{
    struct xfast *x = u;
    struct st *s = x->h.s;
    struct ev_threads *ths = &s->threads;
    struct ev_thread *t = ev_thread_ids(ths, (uint32_t)fs[0].pid, (uint32_t)fs[0].tid);
    if (t == NULL)
        return cli_oom(s->c, "thread table"), -1;
    const bool has_ns = x->has_ns;
    size_t i = 0;
    int rc = 0;
    if (t->overflow == 0 && t->stack != NULL) {
        /* (a thread's first span is pushed record by record: its stack is
         * made then) open - depth does not change while only this thread's
         * stack does: one bound, the least of EV_MAX_DEPTH and the depth at
         * which the open spans reach max_open */
        const uint32_t max_open = ths->max_open ? ths->max_open : CLI_MAX_OPEN_DEFAULT;
        const uint32_t others = ths->open - t->depth;
        const uint32_t bound = max_open - others < EV_MAX_DEPTH ? max_open - others : EV_MAX_DEPTH;
        struct ev_frame *top = t->stack + t->depth;
        uint64_t spans;
        if (has_ns)
            i = xf_run(x, t, fs, n, &top, t->stack + bound, &spans, &rc, true);
        else
            i = xf_run(x, t, fs, n, &top, t->stack + bound, &spans, &rc, false);
        t->depth = (uint32_t)(top - t->stack);
        ths->open = others + t->depth;
        t->spans += spans;
        s->spans += spans;
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    if (i < n && rc == 0)
        rc = xf_records(x, t, fs, i, n, &i);
    /* the time spans: each record's tsc is the last one's plus its delta
     * (xray.h), so they rise through the run unless the TSC passed 2^64 */
    if (i > 0 && fs[i - 1].tsc >= fs[0].tsc) {
        lo = has_ns ? fs[0].ns : fs[0].tsc;
        hi = has_ns ? fs[i - 1].ns : fs[i - 1].tsc;
    } else {
        for (size_t k = 0; k < i; k++) {
            uint64_t ts = has_ns ? fs[k].ns : fs[k].tsc;
            lo = ts < lo ? ts : lo;
            hi = ts > hi ? ts : hi;
        }
    }
    /* see_event for each record read */
    see_events(s, t, i, has_ns ? fs[0].ns : fs[0].tsc, lo, hi);
    return rc;
}

/* Custom and typed events: the event view's INSTANT (xray_meaning.h). */
static int xf_event(void *u, const tracerd_xray_event_t *e)
{
    struct xfast *x = u;
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    xray_event_head(&ev, e, x->has_ns); /* (stats reads no argument) */
    return on_event(x->h.s, &ev);
}

/* The warnings of a direct reading. */
static int fast_warning(void *u, const tracerd_warning_t *w)
{
    static const cli_warn_sink_t sink = {NULL, NULL, NULL, NULL};
    return cli_warning(((struct fast_hdr *)u)->s->c, &sink, w);
}

/* Reads the input with the reader of ops (format XRay or FXT: its config
 * from the options, as the event view's) and callbacks cbs, their context a
 * zeroed block of ctx_size bytes starting with a struct fast_hdr (the
 * reader set before any callback). Returns a CLI_EXIT_* code, the error
 * printed as the event view prints it. */
static int run_direct(struct st *s, struct ev_run *run, tracerd_event_format_t format,
                      const tracerd_reader_ops_t *ops, const void *cbs, size_t ctx_size)
{
    cli_t *c = s->c;
    tracerd_auto_config_t cfg;
    cli_config_store_t store[CLI_NFORMATS];
    int rc = cli_event_configs(c, store, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    struct fast_hdr *h = cli_calloc(1, ctx_size);
    if (h == NULL)
        return cli_oom(c, "name cache");
    h->s = s;
    const void *fcfg = cfg.xray;
    tracerd_fxt_config_t fxt;
    if (format == TRACERD_EVENT_FORMAT_FXT) { /* stats reads no argument */
        if (cfg.fxt != NULL)
            fxt = *cfg.fxt;
        else
            tracerd_fxt_config_init(&fxt);
        fxt.no_args = true;
        fcfg = &fxt;
    }
    tracerd_status_t st = ops->new_reader(fcfg, cbs, h, NULL, &h->rd);
    if (st != TRACERD_OK) {
        cli_free(h);
        return cli_new_failed(c, st);
    }
    st = cli_pump(c, ops, h->rd);
    rc = ev_exit_code(run, st, format, ops->record_offset(h->rd), ops->error_reason(h->rd));
    ops->free(h->rd);
    cli_free(h);
    return rc;
}

static int run_xray(struct st *s, struct ev_run *run)
{
    tracerd_xray_callbacks_t cbs;
    tracerd_xray_callbacks_init(&cbs);
    cbs.on_header = xf_header;
    cbs.on_functions = xf_functions;
    cbs.on_event = xf_event;
    cbs.on_warning = fast_warning;
    return run_direct(s, run, TRACERD_EVENT_FORMAT_XRAY, tracerd_xray_ops(), &cbs,
                      sizeof(struct xfast));
}

/* ---- FXT: straight from the reader's records -----------------------------
 * The same figures as through the event view (map_fxt.c's mapping; compared
 * on every FXT trace by tests/check_stats_paths.c), without making an event
 * of each record: an event record's name aggregate is found by its string
 * references (provider, category index, name index) in a direct-mapped
 * cache before its text is hashed, and its thread by its thread reference
 * (checked against the koids: a thread record may give the index another
 * thread). A string is a function of its index until a string record gives
 * the index another: such a record empties the cache when one of the
 * indices it holds is redefined. Inline strings and threads take the
 * text's and the koids' ways. Taken when the input is one FXT stream and no
 * filter is given (ev_plain_stream). */

#define FF_NAMES 1024u
#define FF_THREADS 256u

struct ffast {
    struct fast_hdr h; /* first */
    bool source_sent;
    /* (provider << 32 | category_ref << 16 | name_ref) -> aggregate index + 1 (0: none) */
    uint64_t nkey[FF_NAMES];
    uint32_t nval[FF_NAMES];
    /* string indices in some key (a string record redefining one empties nval) */
    uint64_t used[32768u / 64u];
    /* (provider, thread ref) -> thread index + 1 (0: none) */
    uint32_t thr[FF_THREADS];
};

/* The event view's source line, once: at the initialization record (its
 * clock) or before the first event (no clock), as map_fxt.c sends it. */
static void ff_source(struct ffast *x, uint64_t ticks_per_second)
{
    if (x->source_sent)
        return;
    x->source_sent = true;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    src.format = TRACERD_EVENT_FORMAT_FXT;
    src.format_name = tracerd_event_format_name(TRACERD_EVENT_FORMAT_FXT);
    src.byte_order = tracerd_fxt_byte_order(x->h.rd);
    src.ticks_per_second = ticks_per_second;
    on_source(x->h.s, &src);
}

static int ff_init(void *u, const tracerd_fxt_init_t *i)
{
    ff_source(u, i->ticks_per_second);
    return 0;
}

static int ff_string(void *u, const tracerd_fxt_string_t *str)
{
    struct ffast *x = u;
    if (x->used[str->index / 64u] & (1ull << (str->index % 64u))) {
        memset(x->nval, 0, sizeof x->nval);
        memset(x->used, 0, sizeof x->used);
    }
    return 0;
}

/* (ff_thread past its cache) */
static __attribute__((noinline)) struct ev_thread *ff_thread_slow(struct ffast *x, uint32_t *slot,
                                                                  const tracerd_fxt_thread_t *th)
{
    struct ev_threads *ths = &x->h.s->threads;
    struct ev_thread *t = ev_thread_ids(ths, th->pid, th->tid);
    if (t != NULL && slot != NULL)
        *slot = (uint32_t)(t - ths->v) + 1u;
    return t;
}

/* The thread of a record's thread reference of provider (NULL on no memory). */
static inline struct ev_thread *ff_thread(struct ffast *x, uint32_t provider,
                                          const tracerd_fxt_thread_t *th)
{
    if (th->ref == 0) /* inline koids */
        return ff_thread_slow(x, NULL, th);
    uint32_t *slot = &x->thr[(th->ref ^ provider * 61u) % FF_THREADS];
    if (*slot != 0) {
        struct ev_thread *t = &x->h.s->threads.v[*slot - 1];
        if (t->pid == th->pid && t->tid == th->tid)
            return t;
    }
    return ff_thread_slow(x, slot, th);
}

/* (ff_name past its cache) */
static __attribute__((noinline)) uint32_t ff_name_slow(struct ffast *x,
                                                       const tracerd_fxt_event_t *e,
                                                       tracerd_event_kind_t kind, uint32_t slot,
                                                       uint64_t key)
{
    uint32_t i = name_key(x->h.s, text_key(e->name, e->category), UINT64_MAX, true, e->category,
                          e->name, kind);
    if (i != UINT32_MAX && slot < FF_NAMES) {
        x->nkey[slot] = key;
        x->nval[slot] = i + 1u;
        x->used[e->name_ref / 64u] |= 1ull << (e->name_ref % 64u);
        x->used[e->category_ref / 64u] |= 1ull << (e->category_ref % 64u);
    }
    return i;
}

/* The name aggregate of event record e (first seen as kind). */
static inline uint32_t ff_name(struct ffast *x, const tracerd_fxt_event_t *e,
                               tracerd_event_kind_t kind)
{
    if ((e->name_ref | e->category_ref) & 0x8000u) /* inline: no index */
        return ff_name_slow(x, e, kind, FF_NAMES, 0);
    uint64_t key = (uint64_t)e->provider_id << 32 | (uint64_t)e->category_ref << 16 | e->name_ref;
    uint32_t slot = (e->name_ref ^ (uint32_t)e->category_ref * 97u) % FF_NAMES;
    if (x->nkey[slot] == key && x->nval[slot] != 0)
        return x->nval[slot] - 1;
    return ff_name_slow(x, e, kind, slot, key);
}

static int ff_event(void *u, const tracerd_fxt_event_t *e)
{
    struct ffast *x = u;
    struct st *s = x->h.s;
    if ((unsigned)e->type >= FXT_EVENT_TYPES)
        return 0; /* a type not defined yet: no event */
    ff_source(x, 0);
    struct ev_thread *t = ff_thread(x, e->provider_id, &e->thread);
    if (t == NULL)
        return cli_oom(s->c, "thread table"), -1;
    see_event(s, t, e->ns);
    if (e->type == TRACERD_FXT_EVENT_DURATION_END) {
        span_end(s, t, false, 0, e->ns);
        return 0;
    }
    tracerd_event_kind_t kind = fxt_event_kind(e->type);
    return named_event(s, t, kind, e->ns, e->end_ns, 0, ff_name(x, e, kind));
}

/* The other records, as the event view's events of them (fxt_meaning.h). */
static int ff_emit(struct ffast *x, tracerd_event_t *ev)
{
    ff_source(x, 0);
    ev->format = TRACERD_EVENT_FORMAT_FXT;
    return on_event(x->h.s, ev);
}

static int ff_kernel_object(void *u, const tracerd_fxt_kernel_object_t *o)
{
    /* processes and threads: names, not events (on_event leaves them out);
     * the other objects are no events */
    if (o->object_type == ZX_OBJ_TYPE_PROCESS || o->object_type == ZX_OBJ_TYPE_THREAD)
        ff_source(u, 0);
    return 0;
}

#define FF_OTHER(fn, type, head)                                                                   \
    static int fn(void *u, const type *rec)                                                        \
    {                                                                                              \
        tracerd_event_t ev;                                                                        \
        memset(&ev, 0, sizeof ev);                                                                 \
        head(&ev, rec);                                                                            \
        return ff_emit(u, &ev);                                                                    \
    }
FF_OTHER(ff_scheduling, tracerd_fxt_scheduling_t, fxt_sched_head)
FF_OTHER(ff_log, tracerd_fxt_log_t, fxt_log_head)
FF_OTHER(ff_blob, tracerd_fxt_blob_t, fxt_blob_head)
FF_OTHER(ff_large_blob, tracerd_fxt_large_blob_t, fxt_large_blob_head)
FF_OTHER(ff_userspace_object, tracerd_fxt_userspace_object_t, fxt_userspace_head)
#undef FF_OTHER

static int run_fxt(struct st *s, struct ev_run *run)
{
    tracerd_fxt_callbacks_t cbs;
    tracerd_fxt_callbacks_init(&cbs);
    cbs.on_init = ff_init;
    cbs.on_string = ff_string;
    cbs.on_event = ff_event;
    cbs.on_kernel_object = ff_kernel_object;
    cbs.on_scheduling = ff_scheduling;
    cbs.on_log = ff_log;
    cbs.on_blob = ff_blob;
    cbs.on_large_blob = ff_large_blob;
    cbs.on_userspace_object = ff_userspace_object;
    cbs.on_warning = fast_warning;
    return run_direct(s, run, TRACERD_EVENT_FORMAT_FXT, tracerd_fxt_ops(), &cbs,
                      sizeof(struct ffast));
}

int cli_cmd_stats(cli_t *c)
{
    struct st s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.other = UINT32_MAX;
    hist_init(&s.nohist);
    s.threads.max_open = c->max_open;
    struct ev_run r;
    ev_run_init(&r, c, on_event, on_source, &s);
    s.stable_names = &r.stable_names;
    r.no_args = true; /* names, times, threads and kinds only */
    r.before_error = report_before_error;
    if (!c->no_demangle)
        s.dm = cli_demangler_open();
    int rc = ev_plain_stream(c, TRACERD_EVENT_FORMAT_XRAY)  ? run_xray(&s, &r)
             : ev_plain_stream(c, TRACERD_EVENT_FORMAT_FXT) ? run_fxt(&s, &r)
             : stats_ctf_dir_plain(c, &r)                   ? stats_ctf_dir(&r, &s)
                                                            : ev_run(&r);
    /* --timeout, out of memory: the figures of what was read */
    if ((rc == CLI_EXIT_OK || c->timed_out || c->oom) && !s.reported)
        report(&s);
    if (c->oom)
        rc = CLI_EXIT_IO; /* said when it happened (cli_oom) */
    for (uint32_t i = 0; i < s.n; i++) {
        cli_free(s.v[i].name);
        if (s.v[i].h != &s.nohist) {
            hist_free(s.v[i].h);
            cli_free(s.v[i].h);
        }
    }
    cli_demangler_close(s.dm);
    cli_free(s.v);
    ev_threads_free(&s.threads);
    ev_table_free(&s.names);
    return rc;
}
