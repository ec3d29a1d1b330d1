#include "fxt_recorder.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct fxrec {
    rec_t *rec;
    tracerd_fxt_reader_t *r;
    uint64_t frag_hash; /* FNV-1a over the fragments of the current payload */
    uint64_t frag_len;
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

static void str(tlog_t *l, const char *key, tracerd_str_t s)
{
    tlog_printf(l, " %s=\"", key);
    tlog_text(l, s.data, s.len);
    tlog_printf(l, "\"");
}

static void bytes(tlog_t *l, const char *key, const uint8_t *p, size_t n)
{
    tlog_printf(l, " %s=%zu:%016" PRIx64, key, n, fnv(FNV0, p, n));
    if (n <= 16) {
        tlog_printf(l, ":");
        tlog_hex(l, p, n);
    }
}

static void thread(tlog_t *l, const char *key, tracerd_fxt_thread_t t)
{
    tlog_printf(l, " %s=%u:%" PRIu64 "/%" PRIu64, key, (unsigned)t.ref, t.pid, t.tid);
}

static void args(tlog_t *l, uint32_t n, const tracerd_fxt_arg_t *a)
{
    tlog_printf(l, " args=[");
    for (uint32_t i = 0; i < n; i++) {
        const tracerd_fxt_arg_t *g = &a[i];
        tlog_printf(l, "%s%s@%" PRIu64, i ? ", " : "", tracerd_fxt_arg_type_name(g->type),
                    g->offset);
        str(l, "n", g->name);
        switch (g->type) {
        case TRACERD_FXT_ARG_NULL:
            break;
        case TRACERD_FXT_ARG_INT32:
        case TRACERD_FXT_ARG_INT64:
            tlog_printf(l, " i=%" PRId64, g->i64);
            break;
        case TRACERD_FXT_ARG_DOUBLE:
            tlog_printf(l, " d=%.17g u=%016" PRIx64, g->f64, g->u64);
            break;
        case TRACERD_FXT_ARG_STRING:
            str(l, "s", g->str);
            break;
        case TRACERD_FXT_ARG_BLOB:
            bytes(l, "blob", g->blob.data, g->blob.len);
            break;
        default:
            if (g->type > TRACERD_FXT_ARG_BLOB)
                bytes(l, "raw", g->blob.data, g->blob.len);
            else
                tlog_printf(l, " u=%" PRIu64, g->u64);
            break;
        }
    }
    tlog_printf(l, "]");
}

static int on_metadata(void *u, const tracerd_fxt_metadata_t *m)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "meta@%" PRIu64 " type=%u provider=%u", m->offset, (unsigned)m->type,
                (unsigned)m->provider_id);
    if (m->type == TRACERD_FXT_META_PROVIDER_INFO)
        str(l, "name", m->name);
    if (m->type == TRACERD_FXT_META_PROVIDER_EVENT)
        tlog_printf(l, " event=%u", (unsigned)m->event);
    if (m->type == TRACERD_FXT_META_TRACE_INFO)
        tlog_printf(l, " info=%u order=%s", (unsigned)m->trace_info_type,
                    tracerd_byte_order_name(m->byte_order));
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_init(void *u, const tracerd_fxt_init_t *i)
{
    fxrec_t *x = u;
    tlog_printf(&x->rec->log, "init@%" PRIu64 " provider=%u tps=%" PRIu64 "\n", i->offset,
                (unsigned)i->provider_id, i->ticks_per_second);
    return rec_ret(x->rec);
}

static int on_string(void *u, const tracerd_fxt_string_t *s)
{
    fxrec_t *x = u;
    tlog_printf(&x->rec->log, "string@%" PRIu64 " provider=%u index=%u", s->offset,
                (unsigned)s->provider_id, (unsigned)s->index);
    str(&x->rec->log, "s", s->str);
    tlog_printf(&x->rec->log, "\n");
    return rec_ret(x->rec);
}

static int on_thread(void *u, const tracerd_fxt_thread_rec_t *t)
{
    fxrec_t *x = u;
    tlog_printf(&x->rec->log, "thread@%" PRIu64 " provider=%u index=%u pid=%" PRIu64 " tid=%" PRIu64 "\n",
                t->offset, (unsigned)t->provider_id, (unsigned)t->index, t->pid, t->tid);
    return rec_ret(x->rec);
}

static int on_event(void *u, const tracerd_fxt_event_t *e)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "event@%" PRIu64 " provider=%u %s ticks=%" PRIu64 " ns=%" PRIu64, e->offset,
                (unsigned)e->provider_id, tracerd_fxt_event_type_name(e->type), e->ticks, e->ns);
    thread(l, "thread", e->thread);
    str(l, "cat", e->category);
    str(l, "name", e->name);
    args(l, e->nargs, e->args);
    tlog_printf(l, " id=%" PRIu64 " end=%" PRIu64 "/%" PRIu64 "\n", e->id, e->end_ticks, e->end_ns);
    return rec_ret(x->rec);
}

static int on_blob(void *u, const tracerd_fxt_blob_t *b)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "blob@%" PRIu64 " provider=%u type=%u", b->offset, (unsigned)b->provider_id,
                (unsigned)b->blob_type);
    str(l, "name", b->name);
    bytes(l, "payload", b->payload.data, b->payload.len);
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_userspace(void *u, const tracerd_fxt_userspace_object_t *o)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "userspace@%" PRIu64 " provider=%u pointer=0x%" PRIx64, o->offset,
                (unsigned)o->provider_id, o->pointer);
    thread(l, "process", o->process);
    str(l, "name", o->name);
    args(l, o->nargs, o->args);
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_kernel(void *u, const tracerd_fxt_kernel_object_t *o)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "kernel@%" PRIu64 " provider=%u koid=%" PRIu64 " objtype=%u", o->offset,
                (unsigned)o->provider_id, o->koid, (unsigned)o->object_type);
    str(l, "name", o->name);
    args(l, o->nargs, o->args);
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_sched(void *u, const tracerd_fxt_scheduling_t *s)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "sched@%" PRIu64 " provider=%u type=%u ticks=%" PRIu64 " ns=%" PRIu64 " cpu=%u state=%u",
                s->offset, (unsigned)s->provider_id, (unsigned)s->type, s->ticks, s->ns,
                (unsigned)s->cpu, (unsigned)s->outgoing_state);
    thread(l, "out", s->outgoing);
    thread(l, "in", s->incoming);
    tlog_printf(l, " waking=%" PRIu64 " prio=%u/%u", s->waking_tid, (unsigned)s->outgoing_priority,
                (unsigned)s->incoming_priority);
    args(l, s->nargs, s->args);
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_log(void *u, const tracerd_fxt_log_t *g)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "log@%" PRIu64 " provider=%u ticks=%" PRIu64 " ns=%" PRIu64, g->offset,
                (unsigned)g->provider_id, g->ticks, g->ns);
    thread(l, "thread", g->thread);
    str(l, "msg", g->message);
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_large(void *u, const tracerd_fxt_large_blob_t *b)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "large-blob@%" PRIu64 " provider=%u format=%u ticks=%" PRIu64 " ns=%" PRIu64,
                b->offset, (unsigned)b->provider_id, (unsigned)b->format, b->ticks, b->ns);
    str(l, "cat", b->category);
    str(l, "name", b->name);
    thread(l, "thread", b->thread);
    args(l, b->nargs, b->args);
    tlog_printf(l, " size=%" PRIu64, b->size);
    if (b->payload.data != NULL)
        bytes(l, "payload", b->payload.data, b->payload.len);
    else
        tlog_printf(l, " payload=fragments");
    tlog_printf(l, "\n");
    x->frag_hash = FNV0;
    x->frag_len = 0;
    return rec_ret(x->rec);
}

static int on_fragment(void *u, const tracerd_span_t *s)
{
    fxrec_t *x = u;
    if (s->offset != x->frag_len || s->field != TRACERD_FXT_FIELD_LARGE_BLOB || s->len == 0)
        tlog_printf(&x->rec->log, "BAD FRAGMENT offset=%" PRIu64 " want=%" PRIu64 " len=%zu\n",
                    s->offset, x->frag_len, s->len);
    x->frag_hash = fnv(x->frag_hash, s->data, s->len);
    x->frag_len += s->len;
    if (s->offset + s->len == s->total)
        tlog_printf(&x->rec->log, "fragments@%" PRIu64 " total=%" PRIu64 " hash=%zu:%016" PRIx64 "\n",
                    s->record_offset, s->total, (size_t)x->frag_len, x->frag_hash);
    return rec_ret(x->rec);
}

static int on_unknown(void *u, const tracerd_fxt_unknown_t *k)
{
    fxrec_t *x = u;
    tlog_t *l = &x->rec->log;
    tlog_printf(l, "unknown@%" PRIu64 " kind=%u type=%u header=%016" PRIx64 " size=%" PRIu64,
                k->offset, (unsigned)k->kind, (unsigned)k->type, k->header, k->size);
    if (k->raw.data != NULL)
        bytes(l, "raw", k->raw.data, k->raw.len);
    tlog_printf(l, "\n");
    return rec_ret(x->rec);
}

static int on_warning(void *u, const tracerd_warning_t *w)
{
    fxrec_t *x = u;
    tlog_printf(&x->rec->log, "warning %s @%" PRIu64 " skipped=%" PRIu64 " %s\n",
                tracerd_status_name(w->status), w->offset, w->skipped_bytes, w->reason);
    return rec_ret(x->rec);
}

static tracerd_status_t t_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                               void **reader)
{
    fxrec_t *x = calloc(1, sizeof *x);
    if (x == NULL)
        return TRACERD_E_NOMEM;
    x->rec = rec;
    tracerd_fxt_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
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
    tracerd_status_t st = tracerd_fxt_new(config, &cbs, x, alloc, &x->r);
    if (st != TRACERD_OK) {
        free(x);
        return st;
    }
    *reader = x;
    return TRACERD_OK;
}

static tracerd_status_t t_feed(void *r, const void *d, size_t n, size_t *used)
{
    return tracerd_fxt_feed(((fxrec_t *)r)->r, d, n, used);
}

static tracerd_status_t t_resume(void *r)
{
    return tracerd_fxt_resume(((fxrec_t *)r)->r);
}

static tracerd_status_t t_finish(void *r)
{
    return tracerd_fxt_finish(((fxrec_t *)r)->r);
}

static void t_close(void *r)
{
    tracerd_fxt_free(((fxrec_t *)r)->r);
    free(r);
}

static uint64_t t_off(const void *r)
{
    return tracerd_fxt_record_offset(((const fxrec_t *)r)->r);
}

static const char *t_reason(const void *r)
{
    return tracerd_fxt_error_reason(((const fxrec_t *)r)->r);
}

const drv_target_t fxt_target = {"fxt",   t_open, t_feed,   t_resume,
                                 t_finish, t_close, t_off, t_reason};

char *fxt_log(const tracerd_fxt_config_t *cfg, const uint8_t *data, size_t len)
{
    drv_plan_t whole = {0};
    return drv_run(&fxt_target, cfg, data, len, &whole);
}
