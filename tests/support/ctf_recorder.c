/* The CTF stream recorder: every callback as one log line, and driver
 * targets for the shared split / pause / allocation-failure plans. Used by
 * the CTF 1.8 and CTF 2 suites. */
#include "ctf_recorder.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct target {
    tracerd_ctf_trace_t *trace;
    tracerd_ctf_stream_t *r;
    const tracerd_allocator_t *alloc;
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
    ck_assert_uint_ge(n, 1);
    ck_assert_uint_le(n, TRACERD_CTF_BATCH_RECORDS);
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

static tracerd_status_t t_open_cb(const void *config, rec_t *rec,
                                  const tracerd_allocator_t *alloc, void **reader, int fields)
{
    const struct target_cfg *c = config;
    struct target *t = calloc(1, sizeof *t);
    ck_assert_ptr_nonnull(t);
    t->alloc = alloc;
    char reason[256];
    tracerd_status_t st = tracerd_ctf_trace_parse(c->metadata, c->metadata_len, NULL, alloc,
                                                  &t->trace, reason, sizeof reason);
    if (st == TRACERD_OK) {
        tracerd_ctf_callbacks_t cb;
        rec_callbacks(&cb);
        if (fields != FIELDS_EACH)
            cb.on_field = NULL;
        if (fields == FIELDS_BATCH) {
            cb.size = sizeof cb; /* on_fields comes after size (doc/api.md section 7) */
            cb.on_fields = r_fields;
        }
        st = tracerd_ctf_stream_new(t->trace, &c->stream, &cb, rec, alloc, &t->r);
    }
    rec->extra = t;
    *reader = t->r;
    return st;
}

static void t_free_extra(void *p)
{
    struct target *t = p;
    tracerd_ctf_trace_free(t->trace);
    free(t);
}

const drv_target_t ctf_target = {"ctf", t_open, tracerd_ctf_stream_ops, t_free_extra};
const drv_target_t ctf_events_target = {"ctf-events", t_open_events, tracerd_ctf_stream_ops,
                                               t_free_extra};
const drv_target_t ctf_batch_target = {"ctf-batch", t_open_batch, tracerd_ctf_stream_ops,
                                       t_free_extra};

/* The log without its field lines. */
char *without_fields(const char *log)
{
    char *out = malloc(strlen(log) + 1);
    size_t o = 0;
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (p[0] != 'F') {
            memcpy(out + o, p, n);
            o += n;
        }
        p += n;
    }
    out[o] = '\0';
    return out;
}

/* The log keeping only the field lines of the scopes in mask (a bit per
 * scope; "F @N sS ..."). */
static char *fields_of_scopes(const char *log, unsigned mask)
{
    char *out = malloc(strlen(log) + 1);
    size_t o = 0;
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        const char *sp = memchr(p, ' ', n);
        sp = sp ? memchr(sp + 1, ' ', n - (size_t)(sp + 1 - p)) : NULL; /* after "F @N" */
        if (p[0] != 'F' || (sp != NULL && sp[1] == 's' && sp[2] >= '0' && sp[2] <= '9' &&
                            (mask >> (sp[2] - '0') & 1u))) {
            memcpy(out + o, p, n);
            o += n;
        }
        p += n;
    }
    out[o] = '\0';
    return out;
}

/* Fast path (events only, whole packets in the chunk) against the general
 * path: the same records under every split. Also with on_field limited to
 * one event context (field_scopes), which the fast path delivers too, and
 * with every scope but one of an event's (then the general interpreter, or
 * the body's plan when only the header is left out, delivers what the
 * delivery plans deliver when every scope is wanted, as in `full`). */
void check_fast_path(const char *meta, const uint8_t *data, size_t len, const char *full)
{
    struct target_cfg c;
    cfg_init(&c, meta);
    char *ev = drv_check_all(&ctf_events_target, &c, data, len);
    char *want = without_fields(full);
    ck_assert_str_eq(ev, want);
    free(want);
    free(ev);
    /* on_fields: the records of on_field, in batches */
    ev = drv_check_all(&ctf_batch_target, &c, data, len);
    ck_assert_str_eq(ev, full);
    free(ev);
    /* each event context alone, then both (the fast path's context plans,
     * or the general interpreter) */
    for (unsigned scope = TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT;
         scope <= TRACERD_CTF_SCOPE_EVENT_CONTEXT + 1; scope++) {
        unsigned mask = scope <= TRACERD_CTF_SCOPE_EVENT_CONTEXT
                            ? 1u << scope
                            : (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                  (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);
        c.stream.field_scopes = mask;
        char *sc = drv_check_all(&ctf_target, &c, data, len);
        want = fields_of_scopes(full, mask);
        ck_assert_str_eq(sc, want);
        free(sc);
        /* on_fields on the fast path (the contexts only) */
        sc = drv_check_all(&ctf_batch_target, &c, data, len);
        ck_assert_str_eq(sc, want);
        free(want);
        free(sc);
    }
    /* event context left out: the header, stream context and fields by the
     * general interpreter (the event context by it in the run above);
     * header left out: the body's plan after the header measured again
     * (the drivers' plans make each run long under sanitizers) */
    static const unsigned left_out[] = {TRACERD_CTF_SCOPE_EVENT_HEADER,
                                        TRACERD_CTF_SCOPE_EVENT_CONTEXT};
    for (size_t k = 0; k < sizeof left_out / sizeof left_out[0]; k++) {
        unsigned scope = left_out[k];
        c.stream.field_scopes = 0x3Fu & ~(1u << scope);
        char *sc = drv_check_all(&ctf_target, &c, data, len);
        want = fields_of_scopes(full, 0x3Fu & ~(1u << scope));
        ck_assert_str_eq(sc, want);
        free(sc);
        sc = drv_check_all(&ctf_batch_target, &c, data, len);
        ck_assert_str_eq(sc, want);
        free(want);
        free(sc);
    }
}

void cfg_init(struct target_cfg *c, const char *meta)
{
    memset(c, 0, sizeof *c);
    c->metadata = meta;
    c->metadata_len = strlen(meta);
    tracerd_ctf_stream_config_init(&c->stream);
}

