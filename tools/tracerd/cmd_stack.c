/* `tracerd stack`: the trace's call stacks, aggregated in one pass. Every
 * closed span adds its time to the node of its stack (the path of span names
 * from the thread's outermost span down to it) in a tree bounded by
 * STACK_MAX_NODES nodes; names are interned once (demangled). Output: folded
 * stacks ("a;b;c VALUE", what flamegraph.pl, speedscope and inferno read),
 * by self time (default) or total time, merged or per thread; or, with
 * --format text, the top N heaviest stacks like `llvm-xray stack`.
 * Spans come from SPAN_BEGIN/END pairs (XRay entries/exits, FXT duration
 * begin/end, LTTng-UST function entry/exit, xtrace exception levels) and
 * SPAN_COMPLETE events (FXT duration complete, xtrace syscalls).
 *
 * Nesting: begin/end pairs nest as they open and close; a span that comes
 * while a begin/end span is open on its thread is inside it; and a
 * complete span holds the spans of its thread whose interval it holds,
 * whether it comes after them (a writer that records a scope when it ends,
 * as FXT's do) or before them (parent first), be they complete or
 * begin/end spans. So a span's stack is known only when nothing can hold it
 * any more: closed spans wait, per thread, in a post-order array (each
 * subtree contiguous, its root last; `level` = the begin/end spans open
 * around it) and are added to the tree when the trace ends, or when
 * STACK_MAX_PENDING wait on a thread (STACK_MAX_PENDING_ALL on all): then
 * that thread's are added as they stand, under the begin/end spans still
 * open, whose stacks are fixed from then on. In formats without complete
 * spans (XRay, CTF) nothing waits: a span is added when it ends. Memory:
 * the node tree, the name table and the waiting spans, never the trace. */
#include <stdlib.h>
#include <string.h>

#include "evrun.h"

#define STACK_MAX_NODES 1048576u       /* more stacks share one "(other stacks)" node */
#define STACK_MAX_PENDING 16384u       /* complete events waiting on one thread */
#define STACK_MAX_PENDING_ALL 1048576u /* ... on all threads */

/* A closed span waiting for its place: level is the number of begin/end
 * spans open on its thread when it came (began); size counts its subtree
 * (itself and the spans it holds). */
struct pend {
    uint64_t start, end;
    uint32_t name, level, size;
};

/* A begin/end span still open: its node once its stack is fixed (spans
 * inside it were added as they stand), and the time of its children added
 * under it so far. */
struct open_span {
    uint32_t node;
    uint64_t child;
};

/* Per thread: the waiting spans and the state of its open begin/end spans
 * (by depth, as ev_thread.stack). */
struct pendq {
    struct pend *v;
    uint32_t n, cap;
    struct open_span *open;
    uint32_t open_cap;
};

/* A span being added: its node, where its subtree begins, its time and
 * its children's. */
struct adding {
    uint32_t node, lo;
    uint64_t time, child;
};

struct node {
    uint32_t parent; /* node index; 0 is the root */
    uint32_t name;   /* index in names */
    uint32_t depth;
    uint32_t last_name, last_child; /* the child looked up last (loops call the same one) */
    uint64_t count, total, self;
};

struct sk {
    cli_t *c;
    struct ev_threads threads;
    struct ev_table name_tab; /* (hash, name id) -> names index */
    char **names;
    uint32_t nnames, cap_names;
    struct ev_table node_tab; /* (parent, name) -> node index */
    struct node *nodes;
    uint32_t nnodes, cap_nodes;
    uint32_t other; /* "(other stacks)" node, or 0 */
    uint64_t spans, unmatched, dropped, unclosed;
    bool clock;
    bool no_complete; /* the format has no complete spans: spans are added when they end */
    cli_demangler_t *dm;
    struct pendq *pq; /* per thread (index in threads.v) */
    uint32_t npq;
    uint64_t pending;    /* in all */
    struct adding *work; /* spans being added (add_range) */
    uint32_t nwork, cap_work;
};

static uint32_t intern_text(struct sk *s, uint64_t h, uint64_t id, const char *text, size_t len)
{
    bool ins;
    uint32_t i = ev_table_get(&s->name_tab, h, id, s->nnames, &ins);
    if (i == UINT32_MAX || !ins)
        return i;
    if (s->nnames == s->cap_names && cli_grow(&s->names, &s->cap_names, 64, sizeof *s->names) != 0)
        return UINT32_MAX;
    char *copy = cli_malloc(len + 1);
    if (copy == NULL)
        return UINT32_MAX;
    memcpy(copy, text, len);
    copy[len] = '\0';
    /* ';' separates frames and ' ' the value in folded stacks */
    for (size_t k = 0; k < len; k++)
        if (copy[k] == ';' || copy[k] == '\n')
            copy[k] = ':';
    s->names[s->nnames] = copy;
    return s->nnames++;
}

/* The interned (demangled) name of an event. */
static uint32_t name_of(struct sk *s, const tracerd_event_t *ev)
{
    uint64_t id = (ev->flags & TRACERD_EVENT_HAS_NAME_ID) ? ev->name_id : UINT64_MAX;
    uint64_t h = id != UINT64_MAX ? 0x6e616d655f6964ull : ev_hash(ev->name.data, ev->name.len, 0);
    uint32_t i = ev_table_find(&s->name_tab, h, id);
    if (i != UINT32_MAX)
        return i;
    if (s->nnames >= EV_MAX_NAMES)
        return intern_text(s, 0, UINT64_MAX - 1, "(other names)", 13);
    char buf[512];
    size_t n = cli_demangle(s->dm, ev->name.data, ev->name.len, buf, sizeof buf);
    if (n > 0)
        return intern_text(s, h, id, buf, n);
    if (ev->name.len == 0)
        return intern_text(s, h, id, "span", 4);
    return intern_text(s, h, id, ev->name.data, ev->name.len);
}

static uint32_t new_node(struct sk *s, uint32_t parent, uint32_t name)
{
    if (s->nnodes == s->cap_nodes &&
        cli_grow(&s->nodes, &s->cap_nodes, 1024, sizeof *s->nodes) != 0)
        return UINT32_MAX;
    bool ins;
    uint32_t i = ev_table_get(&s->node_tab, parent, name, s->nnodes, &ins);
    if (i == UINT32_MAX || !ins)
        return i;
    s->nodes[i] = (struct node){parent, name, s->nodes[parent].depth + 1, UINT32_MAX, 0, 0, 0, 0};
    s->nnodes++;
    return i;
}

/* The child of node `parent` named `name`; past STACK_MAX_NODES new stacks
 * share one "(other stacks)" node; UINT32_MAX on no memory. */
static uint32_t child_of(struct sk *s, uint32_t parent, uint32_t name)
{
    if (s->nodes[parent].last_name == name)
        return s->nodes[parent].last_child;
    uint32_t i = ev_table_find(&s->node_tab, parent, name);
    if (i == UINT32_MAX && s->nnodes < STACK_MAX_NODES)
        i = new_node(s, parent, name);
    if (i != UINT32_MAX) {
        s->nodes[parent].last_name = name;
        s->nodes[parent].last_child = i;
        return i;
    }
    if (s->nnodes < STACK_MAX_NODES)
        return UINT32_MAX; /* no memory */
    if (s->other == 0) {
        uint32_t nm = intern_text(s, 0, UINT64_MAX - 2, "(other stacks)", 14);
        uint32_t o = nm != UINT32_MAX ? new_node(s, 0, nm) : UINT32_MAX;
        if (o == UINT32_MAX)
            return UINT32_MAX;
        s->other = o;
    }
    return s->other;
}

/* The node of the thread's stacks: itself (per thread) or the root. */
static uint32_t thread_node(struct sk *s, const struct ev_thread *t)
{
    if (!s->c->per_thread)
        return 0;
    char text[64];
    int n = snprintf(text, sizeof text, "%llu/%llu", (unsigned long long)t->pid,
                     (unsigned long long)t->tid);
    uint32_t nm = intern_text(s, t->pid ^ 0x7468726561640000ull, t->tid, text, (size_t)n);
    return nm == UINT32_MAX ? UINT32_MAX : child_of(s, 0, nm);
}

static void add(struct sk *s, uint32_t node, uint64_t d, uint64_t child)
{
    struct node *nd = &s->nodes[node];
    nd->count++;
    nd->total += d;
    nd->self += d >= child ? d - child : 0;
    s->spans++;
}

/* ---- waiting spans -------------------------------------------------------- */

static uint64_t dur(const struct pend *p)
{
    return p->end >= p->start ? p->end - p->start : 0;
}

/* The innermost span being added is complete: its time goes to its node
 * and to its parent's children (or to *time at the top). */
static void added(struct sk *s, uint32_t base, uint64_t *time)
{
    const struct adding *a = &s->work[--s->nwork];
    add(s, a->node, a->time, a->child);
    if (s->nwork > base)
        s->work[s->nwork - 1].child += a->time;
    else
        *time += a->time;
}

/* Adds the subtrees q->v[lo, hi) under node parent; *time grows by their
 * durations. Scanned backward (a post-order array read backward lists each
 * span before its children), so each span's parent is the innermost one
 * being added whose subtree holds it: no recursion. */
static int add_range(struct sk *s, const struct pendq *q, uint32_t lo, uint32_t hi, uint32_t parent,
                     uint64_t *time)
{
    uint32_t base = s->nwork;
    for (uint32_t i = hi; i > lo;) {
        i--;
        while (s->nwork > base && s->work[s->nwork - 1].lo > i)
            added(s, base, time);
        uint32_t node =
            child_of(s, s->nwork > base ? s->work[s->nwork - 1].node : parent, q->v[i].name);
        if (node == UINT32_MAX)
            return -1;
        if (s->nwork == s->cap_work && cli_grow(&s->work, &s->cap_work, 64, sizeof *s->work) != 0)
            return -1;
        s->work[s->nwork++] = (struct adding){node, i + 1 - q->v[i].size, dur(&q->v[i]), 0};
    }
    while (s->nwork > base)
        added(s, base, time);
    return 0;
}

/* The node of the begin/end span open at depth d on thread t, fixed from
 * now on (and those around it). */
static uint32_t open_node(struct sk *s, struct ev_thread *t, struct pendq *q, uint32_t d)
{
    uint32_t lo = d + 1;
    while (lo > 0 && q->open[lo - 1].node == UINT32_MAX)
        lo--;
    for (uint32_t k = lo; k <= d; k++) {
        uint32_t parent = k > 0 ? q->open[k - 1].node : thread_node(s, t);
        uint32_t node = parent != UINT32_MAX ? child_of(s, parent, t->stack[k].name) : UINT32_MAX;
        if (node == UINT32_MAX)
            return UINT32_MAX;
        q->open[k].node = node;
    }
    return q->open[d].node;
}

/* Adds all the waiting spans of thread t as they stand: each subtree under
 * the begin/end span open around it (whose stack is then fixed), of the
 * `depth` outermost of t->stack (one more than t->depth while ev_pop closes
 * a span). */
static int flush_pending(struct sk *s, struct ev_thread *t, struct pendq *q, uint32_t depth)
{
    for (uint32_t i = q->n; i > 0;) {
        uint32_t lo = i - q->v[i - 1].size;
        uint32_t level = q->v[i - 1].level < depth ? q->v[i - 1].level : depth;
        uint32_t parent = level > 0 ? open_node(s, t, q, level - 1) : thread_node(s, t);
        uint64_t time = 0;
        if (parent == UINT32_MAX || add_range(s, q, lo, i, parent, &time) != 0)
            return -1;
        if (level > 0)
            q->open[level - 1].child += time;
        i = lo;
    }
    s->pending -= q->n;
    q->n = 0;
    return 0;
}

static struct pendq *pendq_of(struct sk *s, const struct ev_thread *t)
{
    uint32_t k = (uint32_t)(t - s->threads.v);
    if (k >= s->npq) {
        uint32_t ncap = s->threads.cap > k ? s->threads.cap : k + 1;
        struct pendq *v = cli_realloc(s->pq, (size_t)ncap * sizeof *v);
        if (v == NULL)
            return NULL;
        memset(v + s->npq, 0, (size_t)(ncap - s->npq) * sizeof *v);
        s->pq = v;
        s->npq = ncap;
    }
    return &s->pq[k];
}

/* Room for one more waiting span on thread t (its waiting spans added as
 * they stand past the bounds; depth as for flush_pending). */
static int pend_room(struct sk *s, struct ev_thread *t, struct pendq *q, uint32_t depth)
{
    if (q->n >= STACK_MAX_PENDING || s->pending >= STACK_MAX_PENDING_ALL)
        if (flush_pending(s, t, q, depth) != 0)
            return -1;
    return q->n == q->cap ? cli_grow(&q->v, &q->cap, 16, sizeof *q->v) : 0;
}

static void reverse(struct pend *v, uint32_t lo, uint32_t hi)
{
    while (hi > lo + 1) {
        struct pend x = v[lo];
        v[lo++] = v[--hi];
        v[hi] = x;
    }
}

/* A closed span e: it holds the waiting spans that came while it was open
 * (deeper levels: a begin/end span's content) and, unless one holds it,
 * the roots of its level whose interval it holds (they came first); it
 * goes under the innermost of the chain of last roots of its level that
 * holds it (it came after its parent), or waits as a root. */
static void place(struct sk *s, struct pendq *q, struct pend e)
{
    uint32_t lo = q->n;
    while (lo > 0 && q->v[lo - 1].level > e.level) /* its content */
        lo -= q->v[lo - 1].size;
    uint32_t at = lo;
    while (at > 0) { /* down the chain of last children that hold it */
        const struct pend *r = &q->v[at - 1];
        if (r->level != e.level || r->start > e.start || r->end < e.end ||
            (r->start == e.start && r->end == e.end))
            break;
        at--;
        if (r->size == 1)
            break;
    }
    if (at == lo) /* no holder: it adopts the roots of its level it holds */
        while (lo > 0 && q->v[lo - 1].level == e.level && q->v[lo - 1].start >= e.start &&
               q->v[lo - 1].end <= e.end)
            lo -= q->v[lo - 1].size;
    e.size = 1 + (q->n - lo);
    q->v[q->n++] = e;
    s->pending++;
    if (at < lo) { /* its subtree goes before its holders, which grow */
        reverse(q->v, at, lo);
        reverse(q->v, lo, q->n);
        reverse(q->v, at, q->n);
        for (uint32_t i = at + e.size; i < q->n; i++)
            q->v[i].size += e.size;
    }
}

/* A begin/end span closed: it waits for its place, or, when its stack was
 * fixed while it was open, its time and its content's are added. */
static int close_frame(void *ctx, struct ev_thread *t, const struct ev_frame *f, uint64_t end)
{
    struct sk *s = ctx;
    struct pendq *q = pendq_of(s, t);
    if (q == NULL)
        return -1;
    uint32_t d = t->depth; /* ev_pop took it off the stack */
    uint64_t time = end - f->start;
    if (q->open[d].node == UINT32_MAX && s->no_complete && open_node(s, t, q, d) == UINT32_MAX)
        return -1;
    if (q->open[d].node == UINT32_MAX) {
        if (pend_room(s, t, q, d + 1) != 0)
            return -1;
        if (q->open[d].node == UINT32_MAX) { /* (pend_room may have fixed it) */
            place(s, q, (struct pend){f->start, end, f->name, d, 1});
            return 0;
        }
    }
    uint32_t node = q->open[d].node, lo = q->n;
    while (lo > 0 && q->v[lo - 1].level > d)
        lo -= q->v[lo - 1].size;
    uint64_t child = q->open[d].child;
    if (add_range(s, q, lo, q->n, node, &child) != 0)
        return -1;
    s->pending -= q->n - lo;
    q->n = lo;
    add(s, node, time, child);
    if (d > 0)
        q->open[d - 1].child += time;
    return 0;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct sk *s = user;
    s->clock = src->ticks_per_second != 0;
    /* no complete spans (doc/api.md's mapping table): nothing can hold a
     * closed span that is not already open around it */
    s->no_complete =
        src->format == TRACERD_EVENT_FORMAT_XRAY || src->format == TRACERD_EVENT_FORMAT_CTF;
    return 0;
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct sk *s = user;
    tracerd_event_kind_t k = ev->kind;
    if ((k != TRACERD_EVENT_SPAN_BEGIN && k != TRACERD_EVENT_SPAN_END &&
         k != TRACERD_EVENT_SPAN_COMPLETE) ||
        (ev->flags & TRACERD_EVENT_NO_TIME))
        return 0;
    uint64_t ts = ev_time(ev);
    struct ev_thread *t = ev_thread_of(&s->threads, ev);
    if (t == NULL)
        return cli_oom(s->c, "thread table"), -1;
    if (ts > t->last_ts)
        t->last_ts = ts;
    if (k == TRACERD_EVENT_SPAN_END) {
        int n = ev_pop(&s->threads, t, ev, ts, close_frame, s);
        if (n == 0)
            s->unmatched++;
        if (n < 0 && n != EV_POP_DROPPED)
            return cli_oom(s->c, "stack tree"), -1;
        return 0;
    }
    uint32_t nm = name_of(s, ev);
    struct pendq *q = nm != UINT32_MAX ? pendq_of(s, t) : NULL;
    if (q == NULL)
        return cli_oom(s->c, "stack tree"), -1;
    if (k == TRACERD_EVENT_SPAN_COMPLETE) {
        uint64_t end = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
        if (pend_room(s, t, q, t->depth) != 0)
            return cli_oom(s->c, "complete events"), -1;
        place(s, q, (struct pend){ts, end >= ts ? end : ts, nm, t->depth, 1});
        return 0;
    }
    if (q->open_cap <= t->depth && cli_grow(&q->open, &q->open_cap, 16, sizeof *q->open) != 0)
        return cli_oom(s->c, "span stack"), -1;
    int pushed =
        ev_push(&s->threads, t, (ev->flags & TRACERD_EVENT_HAS_NAME_ID) ? ev->name_id : 0, ts, nm);
    if (pushed < 0)
        return cli_oom(s->c, "span stack"), -1;
    if (pushed > 0)
        q->open[t->depth - 1] = (struct open_span){UINT32_MAX, 0};
    s->dropped += pushed == 0;
    return 0;
}

/* "a;b;c": the names from the root's child down to node. */
static void put_path(struct sk *s, FILE *f, uint32_t node)
{
    uint32_t path[EV_MAX_DEPTH + 2];
    uint32_t n = 0;
    for (uint32_t i = node; i != 0 && n < sizeof path / sizeof path[0]; i = s->nodes[i].parent)
        path[n++] = i;
    while (n > 0) {
        fputs(s->names[s->nodes[path[--n]].name], f);
        if (n > 0)
            fputc(';', f);
    }
}

static void put_time(FILE *f, uint64_t v)
{
    fprintf(f, "%llu.%06llu", (unsigned long long)(v / 1000000), (unsigned long long)(v % 1000000));
}

struct heavy {
    uint64_t total;
    uint32_t node;
};

static int cmp_heavy(const void *x, const void *y)
{
    const struct heavy *a = x, *b = y;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return a->node < b->node ? -1 : 1;
}

/* The N stacks whose innermost span has the most total time, frame by frame
 * (like llvm-xray stack: level, count, time, name). */
static void report_text(struct sk *s)
{
    FILE *f = s->c->out;
    const char *unit = s->clock ? "ms" : "Mticks";
    struct heavy *v = cli_malloc((size_t)(s->nnodes ? s->nnodes : 1) * sizeof *v);
    if (v == NULL) {
        cli_oom(s->c, "report table");
        return;
    }
    uint32_t n = 0;
    for (uint32_t i = 1; i < s->nnodes; i++)
        if (s->nodes[i].count > 0)
            v[n++] = (struct heavy){s->nodes[i].total, i};
    qsort(v, n, sizeof *v, cmp_heavy);
    unsigned top = s->c->top ? s->c->top : n;
    fprintf(f, "unique stacks: %u  spans: %llu  unmatched ends: %llu  unclosed spans: %llu\n",
            (unsigned)n, (unsigned long long)s->spans, (unsigned long long)s->unmatched,
            (unsigned long long)s->unclosed);
    fprintf(f, "top %u stacks by the total time of their innermost span (%s):\n", n < top ? n : top,
            unit);
    for (uint32_t r = 0; r < n && r < top; r++) {
        uint32_t path[EV_MAX_DEPTH + 2], d = 0;
        for (uint32_t i = v[r].node; i != 0 && d < sizeof path / sizeof path[0];
             i = s->nodes[i].parent)
            path[d++] = i;
        fprintf(f, "\n#%u  total ", r + 1);
        put_time(f, s->nodes[v[r].node].total);
        fprintf(f, "\n%5s %10s %21s  %s\n", "level", "count", "total", "function");
        for (uint32_t l = 0; d > 0; l++) {
            const struct node *nd = &s->nodes[path[--d]];
            fprintf(f, "%5u %10llu %14llu.%06llu  %s\n", l, (unsigned long long)nd->count,
                    (unsigned long long)(nd->total / 1000000),
                    (unsigned long long)(nd->total % 1000000), s->names[nd->name]);
        }
    }
    cli_free(v);
}

static void report_folded(struct sk *s)
{
    FILE *f = s->c->out;
    bool total = s->c->stack_total;
    for (uint32_t i = 1; i < s->nnodes; i++) {
        uint64_t v = total ? s->nodes[i].total : s->nodes[i].self;
        if (v == 0)
            continue;
        put_path(s, f, i);
        fprintf(f, " %llu\n", (unsigned long long)v);
    }
}

int cli_cmd_stack(cli_t *c)
{
    struct sk s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.threads.max_open = c->max_open;
    s.nodes = cli_calloc(1024, sizeof *s.nodes); /* node 0: the root */
    if (s.nodes == NULL)
        return cli_oom(c, "stack tree");
    s.nodes[0].last_name = UINT32_MAX;
    s.cap_nodes = 1024;
    s.nnodes = 1;
    if (!c->no_demangle)
        s.dm = cli_demangler_open();
    struct ev_run r;
    ev_run_init(&r, c, on_event, on_source, &s);
    int rc = ev_run(&r);
    for (uint32_t i = 0; i < s.threads.n && i < s.npq; i++)
        if (flush_pending(&s, &s.threads.v[i], &s.pq[i], s.threads.v[i].depth) != 0 && !c->oom)
            cli_oom(c, "stack tree");
    for (uint32_t i = 0; i < s.threads.n; i++)
        s.unclosed += s.threads.v[i].depth;
    if (rc == CLI_EXIT_OK || c->timed_out) {
        if (c->stats_format == CLI_STATS_TEXT && c->out_format_given)
            report_text(&s);
        else
            report_folded(&s);
        if (!c->quiet && (s.unmatched || s.unclosed || s.dropped))
            fprintf(stderr,
                    "%s: %s: note: %llu span ends without a begin, %llu spans still open at "
                    "the end, %llu spans past the open-span bounds: not counted\n",
                    c->prog, c->path, (unsigned long long)s.unmatched,
                    (unsigned long long)s.unclosed, (unsigned long long)s.dropped);
    }
    if (c->oom)
        rc = CLI_EXIT_IO;
    for (uint32_t i = 0; i < s.nnames; i++)
        cli_free(s.names[i]);
    cli_free(s.names);
    cli_free(s.nodes);
    for (uint32_t i = 0; i < s.npq; i++) {
        cli_free(s.pq[i].v);
        cli_free(s.pq[i].open);
    }
    cli_free(s.pq);
    cli_free(s.work);
    ev_table_free(&s.name_tab);
    ev_table_free(&s.node_tab);
    ev_threads_free(&s.threads);
    cli_demangler_close(s.dm);
    return rc;
}
