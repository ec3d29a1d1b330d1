/* tracerd info / dump for LLVM XRay traces. */
#include <inttypes.h>
#include <string.h>

#include "../../libtracerd/event/xray_meaning.h"
#include "cli.h"

static int detect(const uint8_t *h, size_t n, const char *path, bool is_dir)
{
    (void)path;
    return is_dir ? 0 : tracerd_xray_detect(h, n);
}

/* ---- XRay ------------------------------------------------------------------ */

static bool xray_item(void *p, const char *k, const char *v)
{
    tracerd_xray_config_t *cfg = p;
    if (strcmp(k, "byte-order") == 0)
        return cli_opt_byte_order(v, true, &cfg->byte_order);
    return false;
}

/* cli_config_xray and the options hook (-o xray.KEY=VALUE for the event view). */
CLI_CONFIG_HOOKS(xray, tracerd_xray_config_t, tracerd_xray_config_init, lenient_skip_buffers,
                 xray_item, xray)

/* ---- info --------------------------------------------------------------- */

#define MAX_THREADS 4096

struct info {
    cli_t *c;
    tracerd_xray_header_t hdr;
    uint64_t fn[4], meta[10], custom, typed, buffers, warnings, args;
    uint64_t min_tsc, max_tsc; /* in ns at the end (every record's ns is its tsc's) */
    bool any_time;
    int32_t tids[MAX_THREADS];
    uint64_t tid_count[MAX_THREADS];
    size_t ntids, last_tid;
    bool tids_overflow;
};

/* Called for every record: min/max start at UINT64_MAX/0 (any_time says
 * whether a record was seen) and the thread of the previous record is
 * remembered, so a record costs two compares and no search. The reader
 * gives a record's ns as tracerd_ticks_to_ns(tsc, the header's frequency):
 * the span's are made from its ends when it is printed, and the function
 * records come without theirs (the reader's no_ns). */
static void see_time(struct info *in, uint64_t tsc)
{
    in->min_tsc = tsc < in->min_tsc ? tsc : in->min_tsc;
    in->max_tsc = tsc > in->max_tsc ? tsc : in->max_tsc;
    in->any_time = true;
}

static void new_tid(struct info *in, int32_t tid, uint64_t n)
{
    for (size_t i = 0; i < in->ntids; i++)
        if (in->tids[i] == tid) {
            in->tid_count[i] += n;
            in->last_tid = i;
            return;
        }
    if (in->ntids == MAX_THREADS) {
        in->tids_overflow = true;
        return;
    }
    in->tids[in->ntids] = tid;
    in->last_tid = in->ntids;
    in->tid_count[in->ntids++] = n;
}

/* n records of thread tid */
static inline void see_tid(struct info *in, int32_t tid, uint64_t n)
{
    if (in->ntids > 0 && in->tids[in->last_tid] == tid)
        in->tid_count[in->last_tid] += n;
    else
        new_tid(in, tid, n);
}

static int i_header(void *u, const tracerd_xray_header_t *h)
{
    ((struct info *)u)->hdr = *h;
    return 0;
}
static int i_buffer(void *u, const tracerd_xray_buffer_t *b)
{
    (void)b;
    ((struct info *)u)->buffers++;
    return 0;
}
/* A run of function records (on_functions, all of one thread): counted in
 * registers, the table written once per run; the same figures as a record
 * at a time. */
static int i_functions(void *u, const tracerd_xray_function_t *fs, size_t n)
{
    struct info *in = u;
    uint64_t kinds = 0, args = 0; /* four 16-bit counters: n <= 64 */
    for (size_t i = 0; i < n; i++) {
        kinds += (uint64_t)1 << ((fs[i].kind & 3u) * 16);
        args += fs[i].nargs;
    }
    for (unsigned k = 0; k < 4; k++)
        in->fn[k] += (kinds >> (k * 16)) & 0xffffu;
    in->args += args;
    see_tid(in, fs[0].tid, n); /* a run is of one thread */
    /* Each record of a run is the last one's TSC plus its delta: the times
     * only grow, unless they pass 2^64 (then the last is below the first,
     * as a run adds less than 2^38). The first and the last then stand for
     * all (a record of equal time has the same nanoseconds). */
    if (fs[n - 1].tsc >= fs[0].tsc) {
        see_time(in, fs[0].tsc);
        see_time(in, fs[n - 1].tsc);
    } else {
        for (size_t i = 0; i < n; i++)
            see_time(in, fs[i].tsc);
    }
    return 0;
}
static int i_event(void *u, const tracerd_xray_event_t *e)
{
    struct info *in = u;
    if (e->typed)
        in->typed++;
    else
        in->custom++;
    see_time(in, e->tsc);
    return 0;
}
static int i_meta(void *u, const tracerd_xray_metadata_t *m)
{
    struct info *in = u;
    if ((unsigned)m->kind < 10)
        in->meta[m->kind]++;
    return 0;
}
static int i_warning(void *u, const tracerd_warning_t *w)
{
    struct info *in = u;
    in->warnings += w->count;
    static const cli_warn_sink_t sink = {NULL, NULL, "xray", NULL};
    return cli_warning(in->c, &sink, w);
}

/* no_ns: the callbacks read no function record's ns (the reader's option). */
static int run(cli_t *c, const tracerd_xray_callbacks_t *cb, void *user, bool no_ns)
{
    tracerd_xray_config_t cfg;
    int rc = cli_config_xray(c, &cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    cfg.no_ns = no_ns;
    tracerd_xray_reader_t *r;
    tracerd_status_t st = tracerd_xray_new(&cfg, cb, user, NULL, &r);
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s: %s\n", c->prog, tracerd_status_message(st));
        return CLI_EXIT_IO;
    }
    st = cli_pump(c, tracerd_xray_ops(), r);
    if (st == TRACERD_E_IO) {
        rc = CLI_EXIT_IO;
    } else if (st != TRACERD_OK) {
        cli_report(c, "xray", st, tracerd_xray_record_offset(r), tracerd_xray_error_reason(r));
        rc = CLI_EXIT_TRACE;
    }
    tracerd_xray_free(r);
    return rc;
}

static int info(cli_t *c)
{
    static struct info in; /* large: keep it off the stack; the CLI runs one command */
    memset(&in, 0, sizeof in);
    in.c = c;
    in.min_tsc = UINT64_MAX;
    tracerd_xray_callbacks_t cb;
    tracerd_xray_callbacks_init(&cb);
    cb.on_header = i_header;
    cb.on_buffer = i_buffer;
    cb.on_functions = i_functions;
    cb.on_event = i_event;
    cb.on_metadata = i_meta;
    cb.on_warning = i_warning;
    int rc = run(c, &cb, &in, true);
    FILE *o = c->out;
    fprintf(o, "file:        %s\n", c->path);
    fprintf(o, "format:      xray %s version %u\n",
            in.hdr.type == TRACERD_XRAY_TYPE_FDR ? "fdr" : "basic", in.hdr.version);
    fprintf(o, "byte order:  %s\n", tracerd_byte_order_name(in.hdr.byte_order));
    fprintf(o, "frequency:   %" PRIu64 " Hz (constant tsc %s, non-stop tsc %s)\n",
            in.hdr.cycle_frequency, in.hdr.constant_tsc ? "yes" : "no",
            in.hdr.nonstop_tsc ? "yes" : "no");
    fprintf(o, "bytes:       %" PRIu64 "\n", c->bytes_read);
    if (in.hdr.type == TRACERD_XRAY_TYPE_FDR)
        fprintf(o, "buffers:     %" PRIu64 "\n", in.buffers);
    fprintf(o,
            "functions:   %" PRIu64 " (enter %" PRIu64 ", enter-args %" PRIu64 ", exit %" PRIu64
            ", tail-exit %" PRIu64 "), %" PRIu64 " arguments\n",
            in.fn[0] + in.fn[1] + in.fn[2] + in.fn[3], in.fn[0], in.fn[3], in.fn[1], in.fn[2],
            in.args);
    fprintf(o, "events:      %" PRIu64 " custom, %" PRIu64 " typed\n", in.custom, in.typed);
    if (in.hdr.type == TRACERD_XRAY_TYPE_FDR) {
        fprintf(o, "metadata:   ");
        for (unsigned k = 0; k < 10; k++)
            if (in.meta[k] && k != TRACERD_XRAY_META_CUSTOM_EVENT &&
                k != TRACERD_XRAY_META_TYPED_EVENT && k != TRACERD_XRAY_META_CALL_ARGUMENT)
                fprintf(o, " %s %" PRIu64, tracerd_xray_meta_kind_name((tracerd_xray_meta_kind_t)k),
                        in.meta[k]);
        fprintf(o, "\n");
    }
    fprintf(o, "threads:     %zu%s", in.ntids, in.tids_overflow ? "+ (more not counted)" : "");
    for (size_t i = 0; i < in.ntids && i < 16; i++)
        fprintf(o, "%s%d (%" PRIu64 ")", i ? ", " : " : ", in.tids[i], in.tid_count[i]);
    fprintf(o, "%s\n", in.ntids > 16 ? ", ..." : "");
    if (in.any_time)
        fprintf(o, "time span:   tsc %" PRIu64 " .. %" PRIu64 " (%.6f s)\n", in.min_tsc, in.max_tsc,
                (double)(tracerd_ticks_to_ns(in.max_tsc, in.hdr.cycle_frequency) -
                         tracerd_ticks_to_ns(in.min_tsc, in.hdr.cycle_frequency)) /
                    1e9);
    if (in.warnings)
        fprintf(o, "warnings:    %" PRIu64 "\n", in.warnings);
    return rc;
}

/* ---- dump --------------------------------------------------------------- */

/* dump's state: the CLI, the --instr-map names and the event filter (a
 * record the filter rejects is not written; records with no time, thread or
 * name -- header, buffers, metadata -- are always written). */
struct dx {
    cli_t *c;
    tracerd_event_filter_t *filter;
    cli_demangler_t *dm;
    bool skip_fragments; /* the event whose payload fragments follow was left out */
    /* ,"tid":T,"pid":P,"cpu":C of the last function record, formatted once per change */
    char ids[80];
    size_t idlen;
    int32_t id_tid, id_pid;
    uint32_t id_cpu;
    wr_lead_t lead_tsc, lead_ns; /* the last record's leading digits */
};

/* The output of a dump callback. */
static wr_t *d_out(void *u)
{
    return ((struct dx *)u)->c->wr;
}

tracerd_str_t cli_xray_fn_name(const cli_t *c, int32_t id, char buf[32])
{
    return xray_function_name(c->names, id, buf); /* the event view's name */
}

/* Does the filter keep this record (as the event view maps it)? */
static bool keep(struct dx *d, tracerd_event_kind_t kind, tracerd_str_t name, uint64_t tsc,
                 uint64_t ns, int32_t tid, int32_t pid, uint32_t cpu)
{
    if (d->filter == NULL)
        return true;
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.format = TRACERD_EVENT_FORMAT_XRAY;
    ev.kind = kind;
    ev.flags = TRACERD_EVENT_HAS_NS | TRACERD_EVENT_HAS_TID | TRACERD_EVENT_HAS_PID |
               TRACERD_EVENT_HAS_CPU;
    ev.ticks = tsc;
    ev.ns = ns;
    ev.tid = (uint64_t)(int64_t)tid;
    ev.pid = (uint64_t)(int64_t)pid;
    ev.cpu = cpu;
    ev.name = name;
    ev.category.data = "xray";
    ev.category.len = 4;
    return tracerd_event_filter_match(d->filter, &ev) == TRACERD_EVENT_FILTER_PASS;
}

static int d_header(void *u, const tracerd_xray_header_t *h)
{
    wr_t *o = d_out(u);
    wr_printf(o,
              "{\"type\":\"header\",\"version\":%u,\"mode\":\"%s\",\"byte_order\":\"%s\","
              "\"flags\":%" PRIu32 ",\"constant_tsc\":%s,\"nonstop_tsc\":%s,"
              "\"cycle_frequency\":%" PRIu64 ",\"buffer_size\":%" PRIu64 "}\n",
              h->version, h->type == TRACERD_XRAY_TYPE_FDR ? "fdr" : "basic",
              tracerd_byte_order_name(h->byte_order), h->flags, h->constant_tsc ? "true" : "false",
              h->nonstop_tsc ? "true" : "false", h->cycle_frequency, h->buffer_size);
    return 0;
}

static int d_buffer(void *u, const tracerd_xray_buffer_t *b)
{
    wr_t *o = d_out(u);
    wr_printf(o,
              "{\"type\":\"buffer\",\"offset\":%" PRIu64 ",\"size\":%" PRIu64 ",\"tid\":%" PRId32,
              b->offset, b->size, b->tid);
    if (b->has_pid)
        wr_printf(o, ",\"pid\":%" PRId32, b->pid);
    if (b->has_walltime)
        wr_printf(o, ",\"wall_seconds\":%" PRIu64 ",\"wall_micros\":%" PRIu32, b->wall_seconds,
                  b->wall_micros);
    wr_printf(o, "}\n");
    return 0;
}

static int d_buffer_end(void *u, const tracerd_xray_buffer_end_t *e)
{
    wr_printf(d_out(u),
              "{\"type\":\"buffer_end\",\"offset\":%" PRIu64 ",\"filler_bytes\":%" PRIu64 "}\n",
              e->offset, e->filler_bytes);
    return 0;
}

static int d_function(void *u, const tracerd_xray_function_t *f)
{
    struct dx *d = u;
    char buf[32];
    /* the name: for the filter, and written when it is --instr-map's */
    tracerd_str_t name = {buf, 0};
    if (d->filter != NULL || d->c->names != NULL)
        name = cli_xray_fn_name(d->c, f->function_id, buf);
    bool entry = f->kind == TRACERD_XRAY_ENTER || f->kind == TRACERD_XRAY_ENTER_ARGS;
    if (!keep(d, entry ? TRACERD_EVENT_SPAN_BEGIN : TRACERD_EVENT_SPAN_END, name, f->tsc, f->ns,
              f->tid, f->pid, f->cpu))
        return 0;
    wr_t *o = d_out(u);
    WR_LIT(o, "{\"type\":\"function\",\"offset\":");
    wr_u64(o, f->offset);
    WR_LIT(o, ",\"kind\":\"");
    wr_cstr(o, tracerd_xray_kind_name(f->kind));
    WR_LIT(o, "\",\"function_id\":");
    if (f->function_id >= 0) {
        char *p = wr_room(o, 20);
        o->len += wr_fmt_u64_small(p, (uint64_t)f->function_id);
    } else {
        wr_i64(o, f->function_id);
    }
    /* consecutive timestamps share their leading digits; at 1 GHz the
     * nanoseconds are the ticks: their digits again */
    WR_LIT(o, ",\"tsc\":");
    char *ts = wr_room(o, 24 + 6 + 24);
    size_t tn = wr_fmt_u64_lead(ts, &d->lead_tsc, f->tsc), nn = tn;
    memcpy(ts + tn, ",\"ns\":", 6);
    if (f->ns == f->tsc)
        memcpy(ts + tn + 6, ts, tn);
    else
        nn = wr_fmt_u64_lead(ts + tn + 6, &d->lead_ns, f->ns);
    o->len += tn + 6 + nn;
    WR_LIT(o, ",\"delta\":");
    char *p = wr_room(o, 20);
    o->len += wr_fmt_u64_small(p, f->delta);
    if (d->idlen == 0 || f->tid != d->id_tid || f->pid != d->id_pid || f->cpu != d->id_cpu) {
        wr_t t; /* 48 bytes at most */
        wr_init_fixed(&t, d->ids, sizeof d->ids);
        WR_LIT(&t, ",\"tid\":");
        wr_i64(&t, f->tid);
        WR_LIT(&t, ",\"pid\":");
        wr_i64(&t, f->pid);
        WR_LIT(&t, ",\"cpu\":");
        wr_u64(&t, f->cpu);
        d->idlen = t.len;
        d->id_tid = f->tid;
        d->id_pid = f->pid;
        d->id_cpu = f->cpu;
    }
    WR_PUT_FIXED(o, d->ids, d->idlen);
    if (name.data != buf) { /* from --instr-map */
        cli_json_member(o, "name", name.data, name.len);
        char dm[512];
        size_t dn = cli_demangle(d->dm, name.data, name.len, dm, sizeof dm);
        if (dn > 0)
            cli_json_member(o, "demangled", dm, dn);
    }
    if (f->nargs) {
        WR_LIT(o, ",\"args\":[");
        for (uint32_t i = 0; i < f->nargs; i++) {
            if (i)
                wr_ch(o, ',');
            wr_u64(o, f->args[i]);
        }
        wr_ch(o, ']');
    }
    WR_LIT(o, "}\n");
    return 0;
}

static int d_event(void *u, const tracerd_xray_event_t *e)
{
    struct dx *d = u;
    tracerd_str_t name = {e->typed ? "typed-event" : "custom-event", e->typed ? 11u : 12u};
    d->skip_fragments =
        !keep(d, TRACERD_EVENT_INSTANT, name, e->tsc, e->ns, e->tid, e->pid, e->cpu);
    if (d->skip_fragments)
        return 0;
    wr_t *o = d_out(u);
    wr_printf(o,
              "{\"type\":\"event\",\"offset\":%" PRIu64 ",\"event\":\"%s\",\"event_type\":%u,"
              "\"tsc\":%" PRIu64 ",\"ns\":%" PRIu64 ",\"tid\":%" PRId32 ",\"pid\":%" PRId32
              ",\"cpu\":%u,\"size\":%" PRIu32 ",\"payload\":",
              e->offset, e->typed ? "typed" : "custom", e->event_type, e->tsc, e->ns, e->tid,
              e->pid, e->cpu, e->size);
    if (e->payload.data != NULL) {
        cli_json_hex(o, e->payload.data, e->payload.len);
        wr_printf(o, "}\n");
    } else {
        wr_rec_begin(o); /* fragments follow: a record open across callbacks */
        wr_ch(o, '"');
        wr_push(o, '"');
    }
    return 0;
}

static int d_fragment(void *u, const tracerd_span_t *s)
{
    if (((struct dx *)u)->skip_fragments)
        return 0;
    wr_t *o = d_out(u);
    wr_hex(o, s->data, s->len);
    if (s->offset + s->len == s->total) {
        wr_pop(o);
        WR_LIT(o, "\"}\n");
        wr_rec_end(o);
    }
    return 0;
}

static int d_meta(void *u, const tracerd_xray_metadata_t *m)
{
    wr_t *o = d_out(u);
    wr_printf(o, "{\"type\":\"metadata\",\"offset\":%" PRIu64 ",\"kind\":\"%s\"", m->offset,
              tracerd_xray_meta_kind_name(m->kind));
    switch (m->kind) {
    case TRACERD_XRAY_META_NEW_BUFFER:
        wr_printf(o, ",\"tid\":%" PRId32, m->tid);
        break;
    case TRACERD_XRAY_META_NEW_CPU:
        wr_printf(o, ",\"cpu\":%u,\"tsc\":%" PRIu64, m->cpu, m->tsc);
        break;
    case TRACERD_XRAY_META_TSC_WRAP:
        wr_printf(o, ",\"tsc\":%" PRIu64, m->tsc);
        break;
    case TRACERD_XRAY_META_WALLTIME:
        wr_printf(o, ",\"seconds\":%" PRIu64 ",\"micros\":%" PRIu32, m->seconds, m->micros);
        break;
    case TRACERD_XRAY_META_BUFFER_EXTENTS:
        wr_printf(o, ",\"extent\":%" PRIu64, m->extent);
        break;
    case TRACERD_XRAY_META_PID:
        wr_printf(o, ",\"pid\":%" PRId32, m->pid);
        break;
    default:
        break;
    }
    wr_printf(o, "}\n");
    return 0;
}

static int d_warning(void *u, const tracerd_warning_t *w)
{
    cli_t *c = ((struct dx *)u)->c;
    const cli_warn_sink_t sink = {c->wr, "type", "xray", NULL};
    return cli_warning(c, &sink, w);
}

static int dump(cli_t *c)
{
    tracerd_xray_callbacks_t cb = {0};
    cb.on_header = d_header;
    cb.on_buffer = d_buffer;
    cb.on_buffer_end = d_buffer_end;
    cb.on_function = d_function;
    cb.on_event = d_event;
    cb.on_event_fragment = d_fragment;
    cb.on_metadata = d_meta;
    cb.on_warning = d_warning;
    struct dx d;
    memset(&d, 0, sizeof d);
    d.c = c;
    int rc = cli_filter_make(c, &d.filter);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_out_start(c);
    if (rc != CLI_EXIT_OK) {
        tracerd_event_filter_free(d.filter);
        return rc;
    }
    if (!c->no_demangle && c->names != NULL)
        d.dm = cli_demangler_open();
    rc = cli_out_end(c, run(c, &cb, &d, false));
    tracerd_event_filter_free(d.filter);
    cli_demangler_close(d.dm);
    return rc;
}

static int set_instr_map(cli_t *c, const char *value)
{
    c->instr_map = value;
    return CLI_EXIT_OK;
}

static const struct cli_flag flags[] = {
    {"instr-map", "BINARY", "XRay: name functions from the instrumented binary", set_instr_map},
    {NULL, NULL, NULL, NULL},
};

const struct cli_format cli_format_xray = {
    .name = "xray",
    .detect = detect,
    .info = info,
    .dump = dump,
    .options = options,
    .options_help = "xray.byte-order=auto|little|big",
    .flags = flags,
};
