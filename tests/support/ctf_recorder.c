/* The CTF stream recorder (ctf_recorder.h): every callback as one log line
 * (REC_LOG, REC_HASH), driver targets for the shared split / pause /
 * allocation-failure plans, and the counting callbacks of the benchmarks.
 * Used by the CTF 1.8 and CTF 2 suites, fuzz/fuzz_ctf_stream.c and
 * bench/bench_ctf.c. */
#include "ctf_recorder.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A record shape seen (tracerd_ctf_event_t.shape): its records' descriptions. */
struct shape_seen {
    uint64_t sig, n; /* hash of the descriptions, records (n 0: not seen yet) */
};

struct target {
    tracerd_ctf_trace_t *trace; /* parsed by open (NULL: the config's was used) */
    tracerd_ctf_stream_t *r;
    const tracerd_allocator_t *alloc;
    bool log_shape; /* event lines carry the shape */
    /* the event being read: its shape, and its records' descriptions so far */
    bool in_event;
    uint32_t shape;
    uint64_t sig, n;
    struct shape_seen *seen; /* by shape number */
    size_t nseen;
};

static const char *const kind_names[] = {"INT", "UINT", "FLOAT", "STR", "S{", "S}", "A[", "A]",
                                         "Q[",  "Q]",   "V<",    "V>",  "BOOL", "BLOB", "O<", "O>"};

static int r_packet(void *user, const tracerd_ctf_packet_t *p)
{
    rec_t *rec = user;
    tlog_printf(&rec->log,
                "P @%" PRIu64 " i=%" PRIu64 " sid=%" PRIu64 " inst=%" PRIu64 " content=%" PRIu64
                " size=%" PRIu64 " tsb=%" PRIu64 " tse=%" PRIu64 " nsb=%" PRIu64 " disc=%" PRIu64
                " seq=%" PRIu64 " cpu=%" PRIu64 "\n",
                p->offset, p->index, p->stream_id, p->stream_instance_id, p->content_size_bits,
                p->packet_size_bits, p->timestamp_begin, p->timestamp_end, p->ns_begin,
                p->events_discarded, p->packet_seq_num, p->cpu_id);
    return rec_ret(rec);
}

static int r_packet_end(void *user, const tracerd_ctf_packet_end_t *p)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "p @%" PRIu64 " i=%" PRIu64 " n=%" PRIu64 "\n", p->offset, p->index,
                p->events);
    return rec_ret(rec);
}

static int r_event(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "E @%" PRIu64 " %s id=%" PRIu64 " cyc=%" PRIu64 " ns=%" PRIu64 "\n",
                e->offset, e->name, e->id, e->cycles, e->ns);
    return rec_ret(rec);
}

static int r_event_end(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "e %s\n", e->name);
    return rec_ret(rec);
}

static int r_field(void *user, const tracerd_ctf_field_t *f)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "F @%" PRIu64 " s%d d%u %s %s %s", f->offset, (int)f->scope, f->depth,
                kind_names[f->kind], f->path, f->name);
    if (f->index >= 0)
        tlog_printf(&rec->log, " [%" PRId64 "]", f->index);
    switch (f->kind) {
    case TRACERD_CTF_VALUE_INT: tlog_printf(&rec->log, " = %" PRId64, f->v.i); break;
    case TRACERD_CTF_VALUE_UINT: tlog_printf(&rec->log, " = %" PRIu64, f->v.u); break;
    case TRACERD_CTF_VALUE_FLOAT:
        tlog_printf(&rec->log, " = %.17g", f->v.f);
        if (f->bytes.data) /* the raw bytes differ between byte orders: their count only */
            tlog_printf(&rec->log, " raw=%zu", f->bytes.len);
        break;
    case TRACERD_CTF_VALUE_STRING:
        tlog_printf(&rec->log, " = \"");
        tlog_text(&rec->log, f->v.str.data, f->v.str.len);
        tlog_printf(&rec->log, "\"");
        break;
    case TRACERD_CTF_VALUE_ARRAY_BEGIN:
    case TRACERD_CTF_VALUE_SEQUENCE_BEGIN:
        tlog_printf(&rec->log, " n=%" PRIu64, f->v.length);
        if (f->bytes.data) {
            tlog_printf(&rec->log, " bytes=");
            tlog_hex(&rec->log, f->bytes.data, f->bytes.len);
        }
        break;
    case TRACERD_CTF_VALUE_VARIANT_BEGIN: tlog_printf(&rec->log, " opt=%s", f->option); break;
    case TRACERD_CTF_VALUE_BOOL:
        tlog_printf(&rec->log, " = %s (%" PRIu64 ")", f->v.u ? "true" : "false", f->v.u);
        break;
    case TRACERD_CTF_VALUE_BYTES:
        tlog_printf(&rec->log, " n=%zu bytes=", f->bytes.len);
        tlog_hex(&rec->log, f->bytes.data, f->bytes.len);
        break;
    case TRACERD_CTF_VALUE_OPTIONAL_BEGIN: tlog_printf(&rec->log, " on=%" PRIu64, f->v.length); break;
    default: break;
    }
    if (f->enum_label)
        tlog_printf(&rec->log, " (%s)", f->enum_label);
    /* members a record of its kind does not set (a batch slot that kept
     * another record's would show here, and differ from on_field's log) */
    if (f->option != NULL && f->kind != TRACERD_CTF_VALUE_VARIANT_BEGIN)
        tlog_printf(&rec->log, " option=%s", f->option);
    if ((f->bytes.data != NULL || f->bytes.len != 0) && f->kind != TRACERD_CTF_VALUE_FLOAT &&
        f->kind != TRACERD_CTF_VALUE_ARRAY_BEGIN && f->kind != TRACERD_CTF_VALUE_SEQUENCE_BEGIN &&
        f->kind != TRACERD_CTF_VALUE_BYTES)
        tlog_printf(&rec->log, " bytes=%zu", f->bytes.len);
    if (f->frag == (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST) && f->frag_offset != 0)
        tlog_printf(&rec->log, " frag_offset=%" PRIu64, f->frag_offset);
    if (f->frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST)) /* a fragment */
        tlog_printf(&rec->log, " frag%s%s@%" PRIu64, (f->frag & TRACERD_CTF_FRAG_FIRST) ? "F" : "",
                    (f->frag & TRACERD_CTF_FRAG_LAST) ? "L" : "", f->frag_offset);
    if (f->kind == TRACERD_CTF_VALUE_BYTES && f->v.length != f->bytes.len)
        tlog_printf(&rec->log, " of %" PRIu64, f->v.length);
    tlog_printf(&rec->log, "\n");
    return rec_ret(rec);
}

/* on_fields: each record as on_field would log it; a negative value stops
 * there (the records after it are not delivered, as with on_field), a
 * pause is passed on after the rest. */
static int r_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    REC_CHECK(user, n >= 1 && n <= TRACERD_CTF_BATCH_RECORDS);
    int ret = 0;
    for (size_t i = 0; i < n; i++) {
        int rc = r_field(user, &f[i]);
        if (rc < 0)
            return rc;
        if (rc > 0)
            ret = rc;
    }
    return ret;
}

static int r_loss(void *user, const tracerd_ctf_loss_t *l)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "L @%" PRIu64 " %s %" PRIu64 " %" PRIu64 "..%" PRIu64 "\n", l->offset,
                l->kind == TRACERD_CTF_LOSS_EVENTS ? "events" : "packets", l->count,
                l->begin_cycles, l->end_cycles);
    return rec_ret(rec);
}

static int r_warning(void *user, const tracerd_warning_t *w)
{
    rec_t *rec = user;
    tlog_printf(&rec->log, "W %s @%" PRIu64 " skip=%" PRIu64 "%s %s\n",
                tracerd_status_name(w->status), w->offset, w->skipped_bytes, tlog_count(w),
                w->reason);
    return rec_ret(rec);
}

void rec_callbacks(tracerd_ctf_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->on_packet_begin = r_packet;
    cb->on_packet_end = r_packet_end;
    cb->on_event_begin = r_event;
    cb->on_event_end = r_event_end;
    cb->on_field = r_field;
    cb->on_loss = r_loss;
    cb->on_warning = r_warning;
}

enum { FIELDS_NONE, FIELDS_EACH, FIELDS_BATCH };

static tracerd_status_t t_open_cb(const void *config, rec_t *rec,
                                  const tracerd_allocator_t *alloc, void **reader, int fields);

static tracerd_status_t t_open(const void *config, rec_t *rec, const tracerd_allocator_t *alloc,
                               void **reader)
{
    return t_open_cb(config, rec, alloc, reader, FIELDS_EACH);
}

/* Without on_field: the reader's fast path (fused measure programs). */
static tracerd_status_t t_open_events(const void *config, rec_t *rec,
                                      const tracerd_allocator_t *alloc, void **reader)
{
    return t_open_cb(config, rec, alloc, reader, FIELDS_NONE);
}

/* on_fields instead of on_field: the same log. */
static tracerd_status_t t_open_batch(const void *config, rec_t *rec,
                                     const tracerd_allocator_t *alloc, void **reader)
{
    return t_open_cb(config, rec, alloc, reader, FIELDS_BATCH);
}

/* ---- the targets' record shape check ------------------------------------- */

/* A record description (all but the offset and the value) into sig. */
static uint64_t shape_fold(uint64_t h, const tracerd_ctf_field_t *f)
{
    const uint64_t v[6] = {(uint64_t)f->scope,        (uint64_t)f->kind,         (uint64_t)f->index,
                           (uint64_t)f->depth,        (uint64_t)(uintptr_t)f->type,
                           (uint64_t)(uintptr_t)f->name ^ ((uint64_t)(uintptr_t)f->path << 1)};
    for (int i = 0; i < 6; i++)
        h = (h ^ v[i]) * 0x100000001B3ull;
    return h;
}

static int t_event(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    struct target *t = rec->extra;
    REC_CHECK(rec, TRACERD_CTF_EVENT_HAS(e, shape) && e->size == sizeof *e);
    t->in_event = true;
    t->shape = e->shape;
    t->sig = 0xCBF29CE484222325ull;
    t->n = 0;
    int rc = r_event(user, e);
    if (t->log_shape)
        tlog_printf(&rec->log, "shape %u\n", (unsigned)e->shape);
    return rc;
}

/* The event's records: those of every other event of its shape. */
static int t_event_end(void *user, const tracerd_ctf_event_t *e)
{
    rec_t *rec = user;
    struct target *t = rec->extra;
    REC_CHECK(rec, t->in_event && e->shape == t->shape);
    t->in_event = false;
    if (e->shape != 0) {
        if (e->shape >= t->nseen) {
            size_t n = (size_t)e->shape * 2 + 8;
            struct shape_seen *g = realloc(t->seen, sizeof *g * n);
            REC_CHECK(rec, g != NULL);
            if (g == NULL)
                return -1;
            memset(g + t->nseen, 0, sizeof *g * (n - t->nseen));
            t->seen = g;
            t->nseen = n;
        }
        struct shape_seen *g = &t->seen[e->shape];
        if (g->n == 0) {
            g->sig = t->sig;
            g->n = t->n + 1;
        } else {
            REC_CHECK(rec, g->sig == t->sig && g->n == t->n + 1);
        }
    }
    return r_event_end(user, e);
}

static int t_field(void *user, const tracerd_ctf_field_t *f)
{
    rec_t *rec = user;
    struct target *t = rec->extra;
    if (t->in_event && (f->frag & TRACERD_CTF_FRAG_FIRST)) { /* a value's first record */
        t->sig = shape_fold(t->sig, f);
        t->n++;
    }
    return r_field(user, f);
}

static int t_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    rec_t *rec = user;
    struct target *t = rec->extra;
    for (size_t i = 0; t->in_event && i < n; i++)
        if (f[i].frag & TRACERD_CTF_FRAG_FIRST) {
            t->sig = shape_fold(t->sig, f + i);
            t->n++;
        }
    return r_fields(user, f, n);
}

static tracerd_status_t t_open_cb(const void *config, rec_t *rec,
                                  const tracerd_allocator_t *alloc, void **reader, int fields)
{
    const struct target_cfg *c = config;
    struct target *t = calloc(1, sizeof *t);
    REC_CHECK(rec, t != NULL);
    t->alloc = alloc;
    char reason[256];
    const tracerd_ctf_trace_t *trace = c->trace;
    tracerd_status_t st = TRACERD_OK;
    if (trace == NULL) {
        st = tracerd_ctf_trace_parse(c->metadata, c->metadata_len, NULL, alloc, &t->trace, reason,
                                     sizeof reason);
        trace = t->trace;
    }
    if (st == TRACERD_OK) {
        tracerd_ctf_callbacks_t cb;
        rec_callbacks(&cb);
        /* every event's records checked against its shape's */
        cb.on_event_begin = t_event;
        cb.on_event_end = t_event_end;
        cb.on_field = fields == FIELDS_EACH ? t_field : NULL;
        if (fields == FIELDS_BATCH) {
            cb.size = sizeof cb; /* on_fields comes after size (doc/api.md section 7) */
            cb.on_fields = t_fields;
        }
        t->log_shape = c->log_shape;
        st = tracerd_ctf_stream_new(trace, &c->stream, &cb, rec, alloc, &t->r);
    }
    rec->extra = t;
    *reader = t->r;
    return st;
}

static void t_free_extra(void *p)
{
    struct target *t = p;
    tracerd_ctf_trace_free(t->trace);
    free(t->seen);
    free(t);
}

const drv_target_t ctf_target = {"ctf", t_open, tracerd_ctf_stream_ops, t_free_extra};
const drv_target_t ctf_events_target = {"ctf-events", t_open_events, tracerd_ctf_stream_ops,
                                               t_free_extra};
const drv_target_t ctf_batch_target = {"ctf-batch", t_open_batch, tracerd_ctf_stream_ops,
                                       t_free_extra};

void cfg_init(struct target_cfg *c, const char *meta)
{
    memset(c, 0, sizeof *c);
    c->metadata = meta;
    c->metadata_len = strlen(meta);
    tracerd_ctf_stream_config_init(&c->stream);
}


/* ---- COUNT mode (bench/bench_ctf.c) ---------------------------------------- */

static int c_event(void *user, const tracerd_ctf_event_t *e)
{
    ctf_counts_t *c = user;
    c->events++;
    c->bytes += e->cycles & 1;
    return 0;
}

static int c_field(void *user, const tracerd_ctf_field_t *f)
{
    ctf_counts_t *c = user;
    c->fields++;
    if (f->kind == TRACERD_CTF_VALUE_STRING)
        c->bytes += f->v.str.len;
    return 0;
}

/* on_fields: the same counting, one call per batch */
static int c_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    ctf_counts_t *c = user;
    c->fields += n;
    for (size_t i = 0; i < n; i++)
        if (f[i].kind == TRACERD_CTF_VALUE_STRING)
            c->bytes += f[i].v.str.len;
    return 0;
}

static int c_packet(void *user, const tracerd_ctf_packet_t *p)
{
    ctf_counts_t *c = user;
    c->packets++;
    (void)p;
    return 0;
}

void ctf_count_callbacks(tracerd_ctf_callbacks_t *cb, bool fields, bool batch)
{
    tracerd_ctf_callbacks_init(cb);
    cb->on_event_begin = c_event;
    cb->on_packet_begin = c_packet;
    if (fields && batch)
        cb->on_fields = c_fields;
    else if (fields)
        cb->on_field = c_field;
}
