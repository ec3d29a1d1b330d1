/* `tracerd stack`: the trace's call stacks, aggregated in one pass. Every
 * closed span adds its time to the node of its stack (the path of span names
 * from the thread's outermost open span down to it) in a tree bounded by
 * STACK_MAX_NODES nodes; names are interned once (demangled). Output: folded
 * stacks ("a;b;c VALUE", what flamegraph.pl, speedscope and inferno read),
 * by self time (default) or total time, merged or per thread; or, with
 * --format text, the top N heaviest stacks like `llvm-xray stack`.
 * Spans come from SPAN_BEGIN/END pairs (XRay entries/exits, FXT duration
 * begin/end, LTTng-UST function entry/exit, xtrace exception levels) and
 * SPAN_COMPLETE events (FXT duration complete, xtrace syscalls). Complete
 * events nest by time: one whose interval holds others is their parent,
 * whether it comes after them (a writer that records a scope when it ends,
 * as FXT's do) or before them; and they nest under the begin/end spans
 * open on their thread. So they wait, per thread, in a post-order array
 * (each subtree contiguous, its root last) until nothing can adopt them
 * any more: those inside a begin/end span are added when it ends, those at
 * the thread's top at the end, or when STACK_MAX_PENDING wait on a thread
 * (STACK_MAX_PENDING_ALL on all): then all of that thread's are added as
 * they stand. Begin/end spans inside a complete event are not nested
 * under it (their stack is fixed when they begin). Memory: the node tree,
 * the name table and the waiting complete events, never the trace. */
#include <stdlib.h>
#include <string.h>

#include "evrun.h"

#define STACK_MAX_NODES 1048576u       /* more stacks share one "(other stacks)" node */
#define STACK_MAX_PENDING 16384u       /* complete events waiting on one thread */
#define STACK_MAX_PENDING_ALL 1048576u /* ... on all threads */

/* A complete event waiting for its place: level is the number of
 * begin/end spans open on its thread when it came; size counts its
 * subtree (itself and the complete events it holds). */
struct pend {
    uint64_t start, end;
    uint32_t name, level, size;
};

struct pendq {
    struct pend *v;
    uint32_t n, cap;
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
    cli_demangler_t *dm;
    struct pendq *pq; /* per thread (index in threads.v) */
    uint32_t npq;
    uint64_t pending; /* in all */
};

static uint32_t intern_text(struct sk *s, uint64_t h, uint64_t id, const char *text, size_t len)
{
    bool ins;
    uint32_t i = ev_table_get(&s->name_tab, h, id, s->nnames, &ins);
    if (i == UINT32_MAX || !ins)
        return i;
    if (s->nnames == s->cap_names) {
        uint32_t ncap = s->cap_names ? s->cap_names * 2 : 64;
        char **v = realloc(s->names, (size_t)ncap * sizeof *v);
        if (v == NULL)
            return UINT32_MAX;
        s->names = v;
        s->cap_names = ncap;
    }
    char *copy = malloc(len + 1);
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
    if (s->nnodes == s->cap_nodes) {
        uint32_t ncap = s->cap_nodes * 2;
        struct node *v = realloc(s->nodes, (size_t)ncap * sizeof *v);
        if (v == NULL)
            return UINT32_MAX;
        s->nodes = v;
        s->cap_nodes = ncap;
    }
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

/* The node a span of the thread hangs from when `depth` spans are open on
 * it: the innermost of those, else the thread's node (per thread) or the
 * root. */
static uint32_t parent_at(struct sk *s, struct ev_thread *t, uint32_t depth)
{
    if (depth > 0)
        return t->stack[depth - 1].name;
    if (!s->c->per_thread)
        return 0;
    char text[64];
    int n = snprintf(text, sizeof text, "%llu/%llu", (unsigned long long)t->pid,
                     (unsigned long long)t->tid);
    uint32_t nm = intern_text(s, t->pid ^ 0x7468726561640000ull, t->tid, text, (size_t)n);
    return nm == UINT32_MAX ? UINT32_MAX : child_of(s, 0, nm);
}

static uint32_t parent_of(struct sk *s, struct ev_thread *t)
{
    return parent_at(s, t, t->depth);
}

static void add(struct sk *s, uint32_t node, uint64_t d, uint64_t child)
{
    struct node *nd = &s->nodes[node];
    nd->count++;
    nd->total += d;
    nd->self += d >= child ? d - child : 0;
    s->spans++;
}

/* ---- complete events ------------------------------------------------------ */

static uint64_t dur(const struct pend *p)
{
    return p->end >= p->start ? p->end - p->start : 0;
}

/* Adds the subtree whose root is q->v[i] under node parent. */
static int add_tree(struct sk *s, struct pendq *q, uint32_t i, uint32_t parent)
{
    const struct pend *r = &q->v[i];
    uint32_t nm = r->name, lo = i + 1 - r->size;
    uint32_t node = child_of(s, parent, nm);
    if (node == UINT32_MAX)
        return -1;
    uint64_t child = 0;
    for (uint32_t j = i; j > lo;) { /* the children's roots, last first */
        uint32_t c = j - 1;
        child += dur(&q->v[c]);
        if (add_tree(s, q, c, node) != 0)
            return -1;
        j = c + 1 - q->v[c].size;
    }
    add(s, node, dur(&q->v[i]), child);
    return 0;
}

/* Adds the waiting complete events of level >= min (the last ones). */
static int flush_pending(struct sk *s, struct ev_thread *t, struct pendq *q, uint32_t min)
{
    while (q->n > 0 && q->v[q->n - 1].level >= min) {
        uint32_t i = q->n - 1;
        uint32_t level = q->v[i].level < t->depth ? q->v[i].level : t->depth;
        uint32_t parent = parent_at(s, t, level);
        if (parent == UINT32_MAX || add_tree(s, q, i, parent) != 0)
            return -1;
        q->n -= q->v[i].size;
        s->pending -= q->v[i].size;
    }
    return 0;
}

/* The depth of the outermost span an END event closes (as ev_pop finds
 * it), or 0 when it closes none. */
static uint32_t closed_depth(const struct ev_thread *t, const tracerd_event_t *ev)
{
    if (t->overflow > 0 || t->depth == 0)
        return 0;
    if (!(ev->flags & TRACERD_EVENT_HAS_NAME_ID))
        return t->depth;
    uint32_t i = t->depth;
    while (i > 0 && t->stack[i - 1].key != ev->name_id)
        i--;
    return i;
}

static struct pendq *pendq_of(struct sk *s, const struct ev_thread *t)
{
    uint32_t k = (uint32_t)(t - s->threads.v);
    if (k >= s->npq) {
        uint32_t ncap = s->threads.cap > k ? s->threads.cap : k + 1;
        struct pendq *v = realloc(s->pq, (size_t)ncap * sizeof *v);
        if (v == NULL)
            return NULL;
        memset(v + s->npq, 0, (size_t)(ncap - s->npq) * sizeof *v);
        s->pq = v;
        s->npq = ncap;
    }
    return &s->pq[k];
}

/* A complete event [start, end] named nm on thread t: it adopts the
 * waiting events of its level that it holds (they came first), or goes
 * under the innermost waiting one that holds it (it came after its
 * parent), then waits. */
static int complete(struct sk *s, struct ev_thread *t, uint32_t nm, uint64_t start, uint64_t end)
{
    struct pendq *q = pendq_of(s, t);
    if (q == NULL)
        return -1;
    if (q->n >= STACK_MAX_PENDING || s->pending >= STACK_MAX_PENDING_ALL)
        if (flush_pending(s, t, q, 0) != 0)
            return -1;
    if (q->n == q->cap) {
        uint32_t ncap = q->cap ? q->cap * 2 : 16;
        struct pend *v = realloc(q->v, (size_t)ncap * sizeof *v);
        if (v == NULL)
            return -1;
        q->v = v;
        q->cap = ncap;
    }
    uint32_t level = t->depth;
    struct pend e = {start, end, nm, level, 1};
    /* it came after its parent: down the chain of last children that hold it */
    uint32_t at = q->n;
    while (at > 0) {
        const struct pend *r = &q->v[at - 1];
        if (r->level != level || r->start > start || r->end < end ||
            (r->start == start && r->end == end))
            break;
        at--;
    }
    if (at < q->n) { /* inserted before its innermost holder: the holders grow */
        memmove(&q->v[at + 1], &q->v[at], (size_t)(q->n - at) * sizeof *q->v);
        q->v[at] = e;
        q->n++;
        s->pending++;
        for (uint32_t i = at + 1; i < q->n; i++)
            q->v[i].size++;
        return 0; /* its time is already in its holder's */
    }
    /* it came after its children: adopt the roots it holds */
    uint64_t adopted = 0;
    for (uint32_t i = q->n; i > 0;) {
        const struct pend *r = &q->v[i - 1];
        if (r->level != level || r->start < start || r->end > end)
            break;
        e.size += r->size;
        adopted += dur(r);
        i -= r->size;
    }
    q->v[q->n++] = e;
    s->pending++;
    if (t->depth > 0)
        t->stack[t->depth - 1].child += dur(&e) - adopted;
    return 0;
}

static int close_frame(void *ctx, struct ev_thread *t, const struct ev_frame *f, uint64_t end)
{
    (void)t;
    add(ctx, f->name, end - f->start, f->child);
    return 0;
}

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct sk *s = user;
    s->clock = src->ticks_per_second != 0;
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
        /* the complete events inside the spans it closes are in place */
        uint32_t closes = closed_depth(t, ev);
        struct pendq *q = closes > 0 ? pendq_of(s, t) : NULL;
        if (closes > 0 && (q == NULL || flush_pending(s, t, q, closes) != 0))
            return cli_oom(s->c, "stack tree"), -1;
        int n = ev_pop(&s->threads, t, ev, ts, close_frame, s);
        if (n == 0)
            s->unmatched++;
        return n < 0 && n != EV_POP_DROPPED ? -1 : 0;
    }
    if (k == TRACERD_EVENT_SPAN_COMPLETE) {
        uint32_t nm = name_of(s, ev);
        uint64_t end = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
        if (nm == UINT32_MAX || complete(s, t, nm, ts, end >= ts ? end : ts) != 0)
            return cli_oom(s->c, "complete events"), -1;
        return 0;
    }
    uint32_t parent = parent_of(s, t);
    uint32_t nm = parent != UINT32_MAX ? name_of(s, ev) : UINT32_MAX;
    uint32_t node = nm != UINT32_MAX ? child_of(s, parent, nm) : UINT32_MAX;
    if (node == UINT32_MAX)
        return cli_oom(s->c, "stack tree"), -1;
    int pushed = ev_push(&s->threads, t, (ev->flags & TRACERD_EVENT_HAS_NAME_ID) ? ev->name_id : 0,
                         ts, node);
    if (pushed < 0)
        return cli_oom(s->c, "span stack"), -1;
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
    struct heavy *v = malloc((size_t)(s->nnodes ? s->nnodes : 1) * sizeof *v);
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
    free(v);
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
    s.nodes = calloc(1024, sizeof *s.nodes); /* node 0: the root */
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
        if (flush_pending(&s, &s.threads.v[i], &s.pq[i], 0) != 0 && !c->oom)
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
        free(s.names[i]);
    free(s.names);
    free(s.nodes);
    for (uint32_t i = 0; i < s.npq; i++)
        free(s.pq[i].v);
    free(s.pq);
    ev_table_free(&s.name_tab);
    ev_table_free(&s.node_tab);
    ev_threads_free(&s.threads);
    cli_demangler_close(s.dm);
    return rc;
}
