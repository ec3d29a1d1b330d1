/* The FXT recorder (fxt_recorder.h): one line per callback (REC_LOG,
 * REC_HASH), the driver targets, and the benchmarks' counting callbacks. */
#include "fxt_recorder.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct fxrec {
    rec_t *rec;
    tracerd_fxt_reader_t *r;
    uint64_t frag_hash; /* FNV-1a over the fragments of the current payload */
    uint64_t frag_len;
    bool hide_args; /* fxt_hidden_args_target: arguments logged as their count and args=NULL|SET */
} fxrec_t;

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
#define FNV0 0xcbf29ce484222325ull

/* Fast appenders (the peer archive logs are megabytes; printf dominated). */
static void app(tlog_t *l, const char *s, size_t n)
{
    if (l->len + n + 1 > l->cap) {
        size_t cap = l->cap ? l->cap : 256;
        while (cap < l->len + n + 1)
            cap *= 2;
        char *p = realloc(l->buf, cap);
        if (p == NULL)
            abort();
        l->buf = p;
        l->cap = cap;
    }
    memcpy(l->buf + l->len, s, n);
    l->len += n;
    l->buf[l->len] = '\0';
}

static void aps(tlog_t *l, const char *s)
{
    app(l, s, strlen(s));
}

static void apu(tlog_t *l, uint64_t v)
{
    char b[24];
    size_t k = sizeof b;
    do {
        b[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    app(l, b + k, sizeof b - k);
}

static void api(tlog_t *l, int64_t v)
{
    if (v < 0) {
        aps(l, "-");
        apu(l, 0 - (uint64_t)v);
    } else {
        apu(l, (uint64_t)v);
    }
}

static void apx(tlog_t *l, uint64_t v)
{
    static const char hexd[] = "0123456789abcdef";
    char b[16];
    for (int i = 15; i >= 0; i--) {
        b[i] = hexd[v & 15];
        v >>= 4;
    }
    app(l, b, 16);
}

/* " key=value" */
static void kv(tlog_t *l, const char *key, uint64_t v)
{
    aps(l, " ");
    aps(l, key);
    aps(l, "=");
    apu(l, v);
}

/* Like tlog_text (non-printable bytes as \xNN), in one append. */
static void str(tlog_t *l, const char *key, tracerd_str_t s)
{
    static const char hexd[] = "0123456789abcdef";
    char small[512];
    size_t cap = s.len * 4 + 1;
    char *buf = cap <= sizeof small ? small : malloc(cap);
    size_t k = 0;
    const uint8_t *p = (const uint8_t *)s.data;
    for (size_t i = 0; i < s.len; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
            buf[k++] = (char)p[i];
        } else {
            buf[k++] = '\\';
            buf[k++] = 'x';
            buf[k++] = hexd[p[i] >> 4];
            buf[k++] = hexd[p[i] & 15];
        }
    }
    aps(l, " ");
    aps(l, key);
    aps(l, "=\"");
    app(l, buf, k);
    aps(l, "\"");
    if (buf != small)
        free(buf);
}

static void bytes(tlog_t *l, const char *key, const uint8_t *p, size_t n)
{
    kv(l, key, n);
    aps(l, ":");
    apx(l, fnv(FNV0, p, n));
    if (n <= 16) {
        aps(l, ":");
        tlog_hex(l, p, n);
    }
}

static void thread(tlog_t *l, const char *key, tracerd_fxt_thread_t t)
{
    kv(l, key, t.ref);
    aps(l, ":");
    apu(l, t.pid);
    aps(l, "/");
    apu(l, t.tid);
}

/* "<tag>@<offset> provider=<id>" */
static void head(tlog_t *l, const char *tag, uint64_t off, uint32_t provider)
{
    aps(l, tag);
    aps(l, "@");
    apu(l, off);
    kv(l, "provider", provider);
}

/* Arguments of the record at `rec_off` (each logged at its absolute
 * offset; hidden: only their count and whether they were handed over). */
static void args(const fxrec_t *x, uint64_t rec_off, uint32_t n, const tracerd_fxt_arg_t *a)
{
    tlog_t *l = &x->rec->log;
    if (x->hide_args) {
        kv(l, "nargs", n);
        aps(l, a == NULL ? " args=NULL" : " args=SET");
        return;
    }
    aps(l, " args=[");
    for (uint32_t i = 0; i < n; i++) {
        const tracerd_fxt_arg_t *g = &a[i];
        if (i)
            aps(l, ", ");
        aps(l, tracerd_fxt_arg_type_name(g->type));
        aps(l, "@");
        apu(l, rec_off + g->pos);
        str(l, "n", g->name);
        switch (g->type) {
        case TRACERD_FXT_ARG_NULL:
            break;
        case TRACERD_FXT_ARG_INT32:
        case TRACERD_FXT_ARG_INT64:
            aps(l, " i=");
            api(l, g->v.i64);
            break;
        case TRACERD_FXT_ARG_DOUBLE:
            tlog_printf(l, " d=%.17g u=%016" PRIx64, g->v.f64, g->v.u64);
            break;
        case TRACERD_FXT_ARG_STRING:
            str(l, "s", g->v.str);
            break;
        case TRACERD_FXT_ARG_BLOB:
            bytes(l, "blob", g->v.blob.data, g->v.blob.len);
            break;
        default:
            if (g->type > TRACERD_FXT_ARG_BLOB)
                bytes(l, "raw", g->v.blob.data, g->v.blob.len);
            else
                kv(l, "u", g->v.u64);
            break;
        }
    }
    aps(l, "]");
}

static int on_metadata(void *u, const tracerd_fxt_metadata_t *m)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    aps(l, "meta@");
    apu(l, m->offset);
    kv(l, "type", m->type);
    kv(l, "provider", m->provider_id);
    if (m->type == TRACERD_FXT_META_PROVIDER_INFO)
        str(l, "name", m->name);
    if (m->type == TRACERD_FXT_META_PROVIDER_EVENT)
        kv(l, "event", m->event);
    if (m->type == TRACERD_FXT_META_TRACE_INFO) {
        kv(l, "info", m->trace_info_type);
        aps(l, " order=");
        aps(l, tracerd_byte_order_name(m->byte_order));
    }
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_init(void *u, const tracerd_fxt_init_t *i)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "init", i->offset, i->provider_id);
    kv(l, "tps", i->ticks_per_second);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_string(void *u, const tracerd_fxt_string_t *s)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "string", s->offset, s->provider_id);
    kv(l, "index", s->index);
    str(l, "s", s->str);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_thread(void *u, const tracerd_fxt_thread_rec_t *t)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "thread", t->offset, t->provider_id);
    kv(l, "index", t->index);
    kv(l, "pid", t->pid);
    kv(l, "tid", t->tid);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_event(void *u, const tracerd_fxt_event_t *e)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "event", e->offset, e->provider_id);
    aps(l, " ");
    aps(l, tracerd_fxt_event_type_name(e->type));
    if ((unsigned)e->type > TRACERD_FXT_EVENT_FLOW_END)
        tlog_printf(l, "(%u)", (unsigned)e->type);
    kv(l, "ticks", e->ticks);
    kv(l, "ns", e->ns);
    thread(l, "thread", e->thread);
    str(l, "cat", e->category);
    str(l, "name", e->name);
    args(x, e->offset, e->nargs, e->args);
    kv(l, "id", e->id);
    kv(l, "end", e->end_ticks);
    aps(l, "/");
    apu(l, e->end_ns);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_blob(void *u, const tracerd_fxt_blob_t *b)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "blob", b->offset, b->provider_id);
    kv(l, "type", b->blob_type);
    str(l, "name", b->name);
    bytes(l, "payload", b->payload.data, b->payload.len);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_userspace(void *u, const tracerd_fxt_userspace_object_t *o)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "userspace", o->offset, o->provider_id);
    tlog_printf(l, " pointer=0x%" PRIx64, o->pointer);
    thread(l, "process", o->process);
    if (o->process_words == 1)
        aps(l, " process_words=1");
    str(l, "name", o->name);
    args(x, o->offset, o->nargs, o->args);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_kernel(void *u, const tracerd_fxt_kernel_object_t *o)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "kernel", o->offset, o->provider_id);
    kv(l, "koid", o->koid);
    kv(l, "objtype", o->object_type);
    str(l, "name", o->name);
    args(x, o->offset, o->nargs, o->args);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_sched(void *u, const tracerd_fxt_scheduling_t *s)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "sched", s->offset, s->provider_id);
    kv(l, "type", s->type);
    kv(l, "ticks", s->ticks);
    kv(l, "ns", s->ns);
    kv(l, "cpu", s->cpu);
    kv(l, "state", s->outgoing_state);
    thread(l, "out", s->outgoing);
    thread(l, "in", s->incoming);
    kv(l, "waking", s->waking_tid);
    kv(l, "prio", s->outgoing_priority);
    aps(l, "/");
    apu(l, s->incoming_priority);
    args(x, s->offset, s->nargs, s->args);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_log(void *u, const tracerd_fxt_log_t *g)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "log", g->offset, g->provider_id);
    kv(l, "ticks", g->ticks);
    kv(l, "ns", g->ns);
    thread(l, "thread", g->thread);
    str(l, "msg", g->message);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_large(void *u, const tracerd_fxt_large_blob_t *b)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "large-blob", b->offset, b->provider_id);
    kv(l, "format", b->format);
    kv(l, "ticks", b->ticks);
    kv(l, "ns", b->ns);
    str(l, "cat", b->category);
    str(l, "name", b->name);
    thread(l, "thread", b->thread);
    args(x, b->offset, b->nargs, b->args);
    kv(l, "size", b->size);
    if (b->payload.data != NULL)
        bytes(l, "payload", b->payload.data, b->payload.len);
    else
        aps(l, " payload=fragments");
    aps(l, "\n");
    x->frag_hash = FNV0;
    x->frag_len = 0;
    return rec_ret(x->rec);
}

static int on_fragment(void *u, const tracerd_span_t *s)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    if (s->offset != x->frag_len || s->field != TRACERD_FXT_FIELD_LARGE_BLOB || s->len == 0)
        tlog_printf(l, "BAD FRAGMENT offset=%" PRIu64 " want=%" PRIu64 " len=%zu\n", s->offset,
                    x->frag_len, s->len);
    x->frag_hash = fnv(x->frag_hash, s->data, s->len);
    x->frag_len += s->len;
    if (s->offset + s->len == s->total) {
        aps(l, "fragments@");
        apu(l, s->record_offset);
        kv(l, "total", s->total);
        kv(l, "hash", x->frag_len);
        aps(l, ":");
        apx(l, x->frag_hash);
        aps(l, "\n");
    }
    return rec_ret_uncounted(x->rec); /* their number depends on chunking */
}

static int on_unknown(void *u, const tracerd_fxt_unknown_t *k)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    aps(l, "unknown@");
    apu(l, k->offset);
    kv(l, "kind", k->kind);
    kv(l, "type", k->type);
    aps(l, " header=");
    apx(l, k->header);
    kv(l, "size", k->size);
    if (k->raw.data != NULL)
        bytes(l, "raw", k->raw.data, k->raw.len);
    aps(l, "\n");
    return rec_ret(x->rec);
}

static int on_warning(void *u, const tracerd_warning_t *w)
{
    fxrec_t *x = u;
    tlog_printf(&x->rec->log, "warning %s @%" PRIu64 " skipped=%" PRIu64 "%s %s\n",
                tracerd_status_name(w->status), w->offset, w->skipped_bytes, tlog_count(w),
                w->reason);
    return rec_ret(x->rec);
}

/* fxt_head_target's on_event_head: logs what the head gives and leaves out
 * the events whose name begins with "skip". It never pauses (a positive
 * value means "leave out"). */
static int on_head(void *u, const tracerd_fxt_event_t *e)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    head(l, "head", e->offset, e->provider_id);
    aps(l, " ");
    aps(l, tracerd_fxt_event_type_name(e->type));
    kv(l, "ticks", e->ticks);
    kv(l, "ns", e->ns);
    thread(l, "thread", e->thread);
    str(l, "cat", e->category);
    str(l, "name", e->name);
    kv(l, "cat_ref", e->category_ref);
    kv(l, "name_ref", e->name_ref);
    kv(l, "nargs", e->nargs);
    kv(l, "id", e->id);
    kv(l, "end", e->end_ticks);
    aps(l, e->args == NULL ? " args=NULL" : " args=SET");
    bool skip = e->name.len >= 4 && memcmp(e->name.data, "skip", 4) == 0;
    aps(l, skip ? " skip\n" : "\n");
    return skip ? TRACERD_FXT_SKIP : TRACERD_CB_CONTINUE;
}

static tracerd_status_t open_with(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                                  void **reader, bool with_head, bool hide_args)
{
    fxrec_t *x = calloc(1, sizeof *x);
    if (x == NULL)
        return TRACERD_E_NOMEM;
    x->rec = rec;
    x->hide_args = hide_args;
    tracerd_fxt_callbacks_t cbs;
    tracerd_fxt_callbacks_init(&cbs);
    if (with_head)
        cbs.on_event_head = on_head;
    cbs.on_metadata = on_metadata;
    cbs.on_init = on_init;
    cbs.on_string = on_string;
    cbs.on_thread = on_thread;
    cbs.on_event = on_event;
    cbs.on_blob = on_blob;
    cbs.on_userspace_object = on_userspace;
    cbs.on_kernel_object = on_kernel;
    cbs.on_scheduling = on_sched;
    cbs.on_log = on_log;
    cbs.on_large_blob = on_large;
    cbs.on_large_blob_fragment = on_fragment;
    cbs.on_unknown = on_unknown;
    cbs.on_warning = on_warning;
    rec->extra = x;
    tracerd_status_t st = tracerd_fxt_new(config, &cbs, x, alloc, &x->r);
    *reader = x->r;
    return st;
}

static tracerd_status_t t_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                               void **reader)
{
    return open_with(config, rec, alloc, reader, false, false);
}

static tracerd_status_t t_open_head(const void *config, rec_t *rec,
                                    const tracerd_allocator_t *alloc, void **reader)
{
    return open_with(config, rec, alloc, reader, true, false);
}

static tracerd_status_t t_open_hidden(const void *config, rec_t *rec,
                                      const tracerd_allocator_t *alloc, void **reader)
{
    return open_with(config, rec, alloc, reader, false, true);
}

const drv_target_t fxt_target = {"fxt", t_open, tracerd_fxt_ops, free};
const drv_target_t fxt_head_target = {"fxt+head", t_open_head, tracerd_fxt_ops, free};
const drv_target_t fxt_hidden_args_target = {"fxt-args", t_open_hidden, tracerd_fxt_ops, free};

/* ---- COUNT mode (bench/bench_fxt.c) ---------------------------------------- */

static int c_event(void *u, const tracerd_fxt_event_t *e)
{
    fxt_counts_t *c = u;
    c->events++;
    c->args += e->nargs;
    c->ns_sum += e->ns + e->name.len;
    return 0;
}

/* What a converter does: every argument's name and value, by type. */
static int c_event_args(void *u, const tracerd_fxt_event_t *e)
{
    fxt_counts_t *c = u;
    c->events++;
    c->args += e->nargs;
    uint64_t sum = e->ns + e->name.len + e->category.len;
    for (uint32_t i = 0; i < e->nargs; i++) {
        const tracerd_fxt_arg_t *a = &e->args[i];
        sum += a->name.len + (uint8_t)a->name.data[0];
        switch (a->type) {
        case TRACERD_FXT_ARG_INT32:
        case TRACERD_FXT_ARG_INT64:
            sum += (uint64_t)a->v.i64;
            break;
        case TRACERD_FXT_ARG_DOUBLE:
            sum += (uint64_t)(a->v.f64 * 2.0);
            break;
        case TRACERD_FXT_ARG_STRING:
            sum += a->v.str.len;
            break;
        case TRACERD_FXT_ARG_BLOB:
            sum += a->v.blob.len;
            break;
        default:
            sum += a->v.u64;
            break;
        }
    }
    c->ns_sum += sum;
    return 0;
}

static int c_string(void *u, const tracerd_fxt_string_t *s)
{
    (void)s;
    ((fxt_counts_t *)u)->strings++;
    return 0;
}

static int c_thread(void *u, const tracerd_fxt_thread_rec_t *t)
{
    (void)t;
    ((fxt_counts_t *)u)->other++;
    return 0;
}

static int c_meta(void *u, const tracerd_fxt_metadata_t *m)
{
    (void)m;
    ((fxt_counts_t *)u)->other++;
    return 0;
}

static int c_init(void *u, const tracerd_fxt_init_t *i)
{
    (void)i;
    ((fxt_counts_t *)u)->other++;
    return 0;
}

void fxt_count_callbacks(tracerd_fxt_callbacks_t *cbs, bool every_arg)
{
    memset(cbs, 0, sizeof *cbs);
    cbs->on_event = every_arg ? c_event_args : c_event;
    cbs->on_string = c_string;
    cbs->on_thread = c_thread;
    cbs->on_metadata = c_meta;
    cbs->on_init = c_init;
}
