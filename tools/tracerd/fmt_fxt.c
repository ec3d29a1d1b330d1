/* tracerd info / dump for the Fuchsia trace format (FXT). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/fxt.h>

#include "cli.h"
#include "textrun.h"
#include "vcache.h"

static int detect(const uint8_t *head, size_t n, const char *path, bool is_dir)
{
    if (is_dir)
        return 0;
    int s = tracerd_fxt_detect(head, n);
    if (s > 0)
        return s;
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".fxt") == 0)
        return 40;
    return 0;
}

/* ---- FXT ------------------------------------------------------------------- */

static bool fxt_item(void *p, const char *k, const char *v)
{
    tracerd_fxt_config_t *cfg = p;
    if (strcmp(k, "byte-order") == 0)
        return cli_opt_byte_order(v, true, &cfg->byte_order);
    if (strcmp(k, "no-magic-order") == 0)
        return cli_opt_byte_order(v, false, &cfg->assume_byte_order);
    if (strcmp(k, "provider0-fallback") == 0)
        return cli_opt_yes_no(v, &cfg->fallback_to_provider0);
    return false;
}

/* cli_config_fxt and the options hook (-o fxt.KEY=VALUE for the event view). */
CLI_CONFIG_HOOKS(fxt, tracerd_fxt_config_t, tracerd_fxt_config_init, lenient, fxt_item, fxt)

/* no_args: the callbacks read no event arguments (the reader's option of
 * that name: the arguments are checked all the same, so the errors and
 * warnings do not change). */
static int run(cli_t *c, const tracerd_fxt_callbacks_t *cbs, void *user, bool no_args)
{
    tracerd_fxt_config_t cfg;
    int orc = cli_config_fxt(c, &cfg);
    if (orc != CLI_EXIT_OK)
        return orc;
    cfg.no_args = no_args;
    tracerd_fxt_reader_t *r;
    tracerd_status_t st = tracerd_fxt_new(&cfg, cbs, user, NULL, &r);
    if (st != TRACERD_OK) {
        cli_report(c, "fxt", st, 0, "cannot create the reader");
        return CLI_EXIT_TRACE;
    }
    st = cli_pump(c, tracerd_fxt_ops(), r);
    int rc = CLI_EXIT_OK;
    if (st == TRACERD_E_IO) {
        rc = CLI_EXIT_IO;
    } else if (st != TRACERD_OK) {
        cli_report(c, "fxt", st, tracerd_fxt_record_offset(r), tracerd_fxt_error_reason(r));
        rc = CLI_EXIT_TRACE;
    }
    tracerd_fxt_free(r);
    return rc;
}

/* ---- info ------------------------------------------------------------- */

#define MAX_PROVIDERS 64
#define THREAD_SLOTS 8192

struct info {
    cli_t *c;
    uint64_t warnings; /* lenient skips */
    tracerd_byte_order_t order;
    uint64_t records[16];
    uint64_t events[16];
    uint64_t unknown;
    uint64_t nprov;
    struct {
        uint32_t id;
        char name[64];
        bool named;
        uint64_t tps;
    } prov[MAX_PROVIDERS];
    uint64_t min_ns, max_ns; /* UINT64_MAX, 0 until a time is seen: min > max */
    uint64_t *threads;       /* (pid, tid) pairs, open addressing; 0,0 = empty */
    uint64_t nthreads;
    bool threads_full;
    /* The thread an event's thread reference (0: inline) last gave, already
     * noted: events name their thread by reference, and the same few
     * threads come again and again. (0, 0), the start, is never noted. */
    struct {
        uint64_t pid, tid;
    } by_ref[256];
};

static void prov_note(struct info *in, uint32_t id, const tracerd_str_t *name, uint64_t tps)
{
    uint64_t i = 0;
    while (i < in->nprov && in->prov[i].id != id)
        i++;
    if (i == in->nprov) {
        if (in->nprov == MAX_PROVIDERS)
            return;
        in->nprov++;
        memset(&in->prov[i], 0, sizeof in->prov[i]);
        in->prov[i].id = id;
    }
    if (name != NULL) {
        size_t n =
            name->len < sizeof in->prov[i].name - 1 ? name->len : sizeof in->prov[i].name - 1;
        memcpy(in->prov[i].name, name->data, n);
        in->prov[i].name[n] = '\0';
        in->prov[i].named = true;
    }
    if (tps != 0)
        in->prov[i].tps = tps;
}

static void time_note(struct info *in, uint64_t ns)
{
    in->min_ns = ns < in->min_ns ? ns : in->min_ns;
    in->max_ns = ns > in->max_ns ? ns : in->max_ns;
}

static void thread_note(struct info *in, uint64_t pid, uint64_t tid)
{
    if (in->threads == NULL || (pid == 0 && tid == 0))
        return;
    uint64_t h = (pid * 0x9e3779b97f4a7c15ull) ^ (tid * 0xc2b2ae3d27d4eb4full);
    for (uint64_t k = 0; k < THREAD_SLOTS; k++) {
        uint64_t *s = &in->threads[2 * ((h + k) % THREAD_SLOTS)];
        if (s[0] == pid && s[1] == tid)
            return;
        if (s[0] == 0 && s[1] == 0) {
            if (in->nthreads + 1 >= THREAD_SLOTS / 2) {
                in->threads_full = true;
                return;
            }
            s[0] = pid;
            s[1] = tid;
            in->nthreads++;
            return;
        }
    }
}

static int i_meta(void *u, const tracerd_fxt_metadata_t *m)
{
    struct info *in = u;
    in->records[0]++;
    if (m->type == TRACERD_FXT_META_PROVIDER_INFO)
        prov_note(in, m->provider_id, &m->name, 0);
    else if (m->type == TRACERD_FXT_META_PROVIDER_SECTION)
        prov_note(in, m->provider_id, NULL, 0);
    else if (m->type == TRACERD_FXT_META_TRACE_INFO)
        in->order = m->byte_order;
    return 0;
}

static int i_init(void *u, const tracerd_fxt_init_t *i)
{
    struct info *in = u;
    in->records[1]++;
    prov_note(in, i->provider_id, NULL, i->ticks_per_second);
    return 0;
}

static int i_string(void *u, const tracerd_fxt_string_t *s)
{
    (void)s;
    ((struct info *)u)->records[2]++;
    return 0;
}

static int i_thread(void *u, const tracerd_fxt_thread_rec_t *t)
{
    struct info *in = u;
    in->records[3]++;
    thread_note(in, t->pid, t->tid);
    return 0;
}

static int i_event(void *u, const tracerd_fxt_event_t *e)
{
    struct info *in = u;
    in->records[4]++;
    in->events[e->type & 15]++;
    time_note(in, e->ns);
    if (e->type == TRACERD_FXT_EVENT_DURATION_COMPLETE)
        time_note(in, e->end_ns);
    uint64_t pid = e->thread.pid, tid = e->thread.tid;
    uint8_t ref = e->thread.ref;
    if (in->by_ref[ref].pid != pid || in->by_ref[ref].tid != tid) {
        thread_note(in, pid, tid);
        in->by_ref[ref].pid = pid;
        in->by_ref[ref].tid = tid;
    }
    return 0;
}

static int i_blob(void *u, const tracerd_fxt_blob_t *b)
{
    (void)b;
    ((struct info *)u)->records[5]++;
    return 0;
}

static int i_user(void *u, const tracerd_fxt_userspace_object_t *o)
{
    (void)o;
    ((struct info *)u)->records[6]++;
    return 0;
}

static int i_kernel(void *u, const tracerd_fxt_kernel_object_t *o)
{
    (void)o;
    ((struct info *)u)->records[7]++;
    return 0;
}

static int i_sched(void *u, const tracerd_fxt_scheduling_t *s)
{
    struct info *in = u;
    in->records[8]++;
    time_note(in, s->ns);
    return 0;
}

static int i_log(void *u, const tracerd_fxt_log_t *l)
{
    struct info *in = u;
    in->records[9]++;
    time_note(in, l->ns);
    thread_note(in, l->thread.pid, l->thread.tid);
    return 0;
}

static int i_large(void *u, const tracerd_fxt_large_blob_t *b)
{
    struct info *in = u;
    in->records[15]++;
    if (b->format == TRACERD_FXT_LARGE_BLOB_WITH_METADATA)
        time_note(in, b->ns);
    return 0;
}

static int i_unknown(void *u, const tracerd_fxt_unknown_t *k)
{
    (void)k;
    ((struct info *)u)->unknown++;
    return 0;
}

static int i_warning(void *u, const tracerd_warning_t *w)
{
    struct info *in = u;
    in->warnings += w->count;
    static const cli_warn_sink_t sink = {NULL, NULL, "fxt", NULL};
    return cli_warning(in->c, &sink, w);
}

static int info(cli_t *c)
{
    struct info *in = cli_calloc(1, sizeof *in);
    if (in == NULL || (in->threads = cli_calloc(2 * THREAD_SLOTS, sizeof *in->threads)) == NULL) {
        cli_free(in);
        return cli_oom(c, "thread table");
    }
    in->min_ns = UINT64_MAX;
    tracerd_fxt_callbacks_t cbs;
    tracerd_fxt_callbacks_init(&cbs);
    cbs.on_init = i_init;
    cbs.on_string = i_string;
    cbs.on_thread = i_thread;
    cbs.on_event = i_event;
    cbs.on_blob = i_blob;
    cbs.on_userspace_object = i_user;
    cbs.on_kernel_object = i_kernel;
    cbs.on_scheduling = i_sched;
    cbs.on_log = i_log;
    cbs.on_large_blob = i_large;
    cbs.on_unknown = i_unknown;
    cbs.on_metadata = i_meta;
    cbs.on_warning = i_warning;
    in->c = c;
    int rc = run(c, &cbs, in, true); /* info reads no arguments */
    FILE *o = c->out;
    fprintf(o, "format: fxt (Fuchsia trace format)\n");
    fprintf(o, "byte order: %s\n",
            in->order == TRACERD_BYTE_ORDER_AUTO ? "little (no magic record)"
                                                 : tracerd_byte_order_name(in->order));
    fprintf(o, "providers: %" PRIu64 "\n", in->nprov);
    for (uint64_t i = 0; i < in->nprov; i++)
        if (in->prov[i].tps != 0)
            fprintf(o, "  provider %u \"%s\": clock %" PRIu64 " ticks/s\n",
                    (unsigned)in->prov[i].id,
                    in->prov[i].named ? in->prov[i].name : "(no provider info)", in->prov[i].tps);
        else
            fprintf(o, "  provider %u \"%s\": no initialization record (1 tick = 1 ns)\n",
                    (unsigned)in->prov[i].id,
                    in->prov[i].named ? in->prov[i].name : "(no provider info)");
    uint64_t total = in->unknown;
    for (int t = 0; t < 16; t++)
        total += in->records[t];
    fprintf(o, "records: %" PRIu64 "\n", total);
    for (uint32_t t = 0; t < 16; t++)
        if (in->records[t] != 0)
            fprintf(o, "  %-17s %" PRIu64 "\n", tracerd_fxt_record_type_name(t), in->records[t]);
    if (in->unknown != 0)
        fprintf(o, "  %-17s %" PRIu64 "\n", "unknown types", in->unknown);
    if (in->warnings != 0)
        fprintf(o, "  %-17s %" PRIu64 "\n", "skipped (lenient)", in->warnings);
    for (uint32_t t = 0; t < 16; t++)
        if (in->events[t] != 0)
            fprintf(o, "  event %-17s %" PRIu64 "\n", tracerd_fxt_event_type_name(t),
                    in->events[t]);
    fprintf(o, "threads: %" PRIu64 "%s\n", in->nthreads, in->threads_full ? "+" : "");
    if (in->min_ns <= in->max_ns)
        fprintf(o, "time span: %" PRIu64 " .. %" PRIu64 " ns (%.6f s)\n", in->min_ns, in->max_ns,
                (double)(in->max_ns - in->min_ns) / 1e9);
    else
        fprintf(o, "time span: none\n");
    cli_free(in->threads);
    cli_free(in);
    return rc;
}

/* ---- dump ------------------------------------------------------------- */

/* The text a string member of an event was written as, per string
 * reference (provider, index): most events name their category and name by
 * reference, and the escaping scan of the same few strings was a fifth of
 * `dump`. A string record for the index, or a metadata record (which may
 * switch to a fresh provider context), drops it. */
#define SCACHE 256u
struct scache {
    uint32_t provider;
    uint16_t ref;
    uint8_t len; /* 0: empty slot */
    char txt[64];
};

struct dump {
    wr_t *f;
    cli_t *c;
    tracerd_event_filter_t *filter; /* the event filters (NULL: none) */
    /* ,"type":"T"[,"type_id":N],"value": for each argument type (4 bits), made once */
    char argtype[16][48];
    uint8_t argtype_len[16];
    /* ,"type":"T","ticks": for each event type (4 bits), made once */
    char evtype[16][48];
    uint8_t evtype_len[16];
    /* ,"thread_ref":R,"pid":P,"tid":T per thread reference (0: the last inline thread) */
    char th[256][80];
    uint8_t thlen[256];
    tracerd_fxt_thread_t th_last[256];
    /* ,"category":"..." and ,"name":"..." of events, per string reference */
    struct scache cat[SCACHE], name[SCACHE];
    vc_entry_t val[VCACHE]; /* argument names and string values (vcache.h) */
    /* the text of the last record's offset and the last event's ticks */
    dec_run_t off, ticks;
};

/* Does the filter keep an event, log or scheduling record? (It sees what the
 * event view makes of it: time, thread, cpu, name, category; other records
 * -- strings, threads, objects, blobs -- are always written.) */
static bool keep(struct dump *d, tracerd_event_kind_t kind, uint64_t ticks, uint64_t ns,
                 uint64_t end_ns, tracerd_fxt_thread_t th, bool has_cpu, uint32_t cpu,
                 tracerd_str_t category, tracerd_str_t name)
{
    if (d->filter == NULL)
        return true;
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.format = TRACERD_EVENT_FORMAT_FXT;
    ev.kind = kind;
    ev.flags = TRACERD_EVENT_HAS_NS | TRACERD_EVENT_HAS_PID | TRACERD_EVENT_HAS_TID |
               (has_cpu ? TRACERD_EVENT_HAS_CPU : 0u);
    ev.ticks = ticks;
    ev.ns = ns;
    ev.end_ns = end_ns;
    ev.pid = th.pid;
    ev.tid = th.tid;
    ev.cpu = cpu;
    ev.category = category;
    ev.name = name;
    return tracerd_event_filter_match(d->filter, &ev) == TRACERD_EVENT_FILTER_PASS;
}

/* The output of a dump callback. */
static wr_t *d_out(void *u)
{
    struct dump *d = u;
    return d->f;
}

static inline void jstr(wr_t *f, const char *k, tracerd_str_t s)
{
    cli_json_member(f, k, s.data, s.len);
}

/* jstr for a string given by reference ref of provider (the event's
 * category or name), from cache when written before. */
static void jstr_ref(struct scache *cache, wr_t *f, const char *k, uint32_t provider, uint16_t ref,
                     tracerd_str_t s)
{
    if (ref == 0 || ref >= 0x8000 || s.len > 48) { /* inline, empty or long */
        jstr(f, k, s);
        return;
    }
    struct scache *e = &cache[ref % SCACHE];
    if (e->len != 0 && e->ref == ref && e->provider == provider) {
        WR_PUT_FIXED(f, e->txt, e->len);
        return;
    }
    char tmp[512]; /* 48 bytes escaped (6 each), the key and a _hex member at most */
    wr_t w;
    wr_init_fixed(&w, tmp, sizeof tmp);
    jstr(&w, k, s);
    wr_put(f, tmp, w.len);
    if (w.len <= sizeof e->txt) {
        memcpy(e->txt, tmp, w.len);
        e->len = (uint8_t)w.len;
        e->ref = ref;
        e->provider = provider;
    }
}

/* A string record gave index a string (or a metadata record, index 0, may
 * have reset a provider's strings): the cached texts that may be stale go. */
static void scache_drop(struct dump *d, uint32_t index)
{
    if (index != 0) { /* its one slot */
        if (d->cat[index % SCACHE].ref == index)
            d->cat[index % SCACHE].len = 0;
        if (d->name[index % SCACHE].ref == index)
            d->name[index % SCACHE].len = 0;
        return;
    }
    for (unsigned i = 0; i < SCACHE; i++)
        d->cat[i].len = d->name[i].len = 0;
}

/* ,"key": (key: a plain literal) */
#define JKEY(f, key) WR_LIT((f), ",\"" key "\":")

/* {"record":"REC","offset":O,"provider":P (rec: a literal; d: the dump) */
#define jhead(d, f, rec, off, provider)                                                            \
    jhead_n((d), (f), "{\"record\":\"" rec "\",\"offset\":", sizeof(rec) + 21, (off), (provider))
static void jhead_n(void *d, wr_t *f, const char *head, size_t headlen, uint64_t off,
                    uint32_t provider)
{
    char *p = wr_room(f, 64 + 24 + 32), *const p0 = p; /* heads are below 64 bytes */
    memcpy(p, head, headlen);
    p = dec_put(&((struct dump *)d)->off, p + headlen, off);
    PUT_LIT(p, ",\"provider\":");
    p += wr_fmt_u64(p, provider);
    f->len += (size_t)(p - p0);
}

static void jthread(wr_t *f, const char *prefix, tracerd_fxt_thread_t t)
{
    static const char *const key[3] = {"thread_ref\":", "pid\":", "tid\":"};
    const uint64_t v[3] = {t.ref, t.pid, t.tid};
    for (int i = 0; i < 3; i++) {
        WR_LIT(f, ",\"");
        wr_cstr(f, prefix);
        wr_cstr(f, key[i]);
        wr_u64(f, v[i]);
    }
}

/* jthread(f, "", t), formatted once per thread reference and change of thread */
static void jthread_cached(struct dump *d, wr_t *f, tracerd_fxt_thread_t t)
{
    unsigned i = t.ref & 255u;
    if (d->thlen[i] == 0 || t.ref != d->th_last[i].ref || t.pid != d->th_last[i].pid ||
        t.tid != d->th_last[i].tid) {
        wr_t w; /* 75 bytes at most */
        wr_init_fixed(&w, d->th[i], sizeof d->th[i]);
        jthread(&w, "", t);
        d->thlen[i] = (uint8_t)w.len;
        d->th_last[i] = t;
    }
    WR_PUT_FIXED(f, d->th[i], d->thlen[i]);
}

static void types_make(struct dump *d)
{
    for (uint32_t t = 0; t < 16; t++) {
        wr_t w; /* 40 bytes at most */
        wr_init_fixed(&w, d->evtype[t], sizeof d->evtype[t]);
        WR_LIT(&w, ",\"type\":\"");
        wr_cstr(&w, tracerd_fxt_event_type_name(t));
        WR_LIT(&w, "\",\"ticks\":");
        d->evtype_len[t] = (uint8_t)w.len;
        wr_init_fixed(&w, d->argtype[t], sizeof d->argtype[t]);
        WR_LIT(&w, ",\"type\":\"");
        wr_cstr(&w, tracerd_fxt_arg_type_name(t));
        wr_ch(&w, '"');
        if (t > TRACERD_FXT_ARG_BLOB) {
            JKEY(&w, "type_id");
            wr_u64(&w, t);
        }
        WR_LIT(&w, ",\"value\":");
        d->argtype_len[t] = (uint8_t)w.len;
    }
}

/* An argument whose name's text is in the cache and whose value is a
 * number, a pointer or a string whose text is in the cache, written into
 * room asked once: false (nothing written) for any other. */
static inline bool jarg_fast(struct dump *d, wr_t *f, const tracerd_fxt_arg_t *g, bool comma)
{
    const vc_entry_t *e, *v = NULL;
    if (g->type > TRACERD_FXT_ARG_KOID ||
        (e = vc_find(d->val, g->name.data, g->name.len)) == NULL ||
        (g->type == TRACERD_FXT_ARG_STRING &&
         (v = vc_find(d->val, g->v.str.data, g->v.str.len)) == NULL))
        return false;
    /* ,{"name": + the name + the type + a value of at most 32 bytes + } */
    char *p = wr_room(f, 10 + sizeof e->txt + sizeof d->argtype[0] + 32 + 1), *const p0 = p;
    *p = ',';
    p += comma;
    PUT_LIT(p, "{\"name\":");
    memcpy(p, e->txt, sizeof e->txt);
    p += e->len + 2;
    memcpy(p, d->argtype[g->type & 15], sizeof d->argtype[0]);
    p += d->argtype_len[g->type & 15];
    switch (g->type) {
    case TRACERD_FXT_ARG_NULL:
        PUT_LIT(p, "null");
        break;
    case TRACERD_FXT_ARG_INT32:
    case TRACERD_FXT_ARG_INT64:
        *p = '-';
        p += g->v.i64 < 0;
        p += wr_fmt_u64(p, g->v.i64 < 0 ? (uint64_t)0 - (uint64_t)g->v.i64 : (uint64_t)g->v.i64);
        break;
    case TRACERD_FXT_ARG_UINT32:
    case TRACERD_FXT_ARG_UINT64:
    case TRACERD_FXT_ARG_KOID:
        p += wr_fmt_u64(p, g->v.u64);
        break;
    case TRACERD_FXT_ARG_DOUBLE:
        if (!isfinite(g->v.f64))
            return false;
        p += wr_fmt_g17(p, g->v.f64);
        break;
    case TRACERD_FXT_ARG_POINTER:
        PUT_LIT(p, "\"0x");
        p += wr_fmt_x64(p, g->v.u64);
        *p++ = '"';
        break;
    case TRACERD_FXT_ARG_STRING:
        memcpy(p, v->txt, sizeof v->txt);
        p += v->len + 2;
        break;
    default:
        return false;
    }
    *p++ = '}';
    f->len += (size_t)(p - p0);
    return true;
}

static void jargs(void *u, wr_t *f, uint32_t n, const tracerd_fxt_arg_t *a)
{
    struct dump *d = u;
    JKEY(f, "args");
    wr_ch(f, '[');
    for (uint32_t i = 0; i < n; i++) {
        const tracerd_fxt_arg_t *g = &a[i];
        if (jarg_fast(d, f, g, i != 0))
            continue;
        if (i)
            wr_ch(f, ',');
        WR_LIT(f, "{\"name\":");
        if (!vc_str(d->val, f, g->name.data, g->name.len)) {
            WR_LIT(f, ",\"name_hex\":");
            cli_json_hex(f, g->name.data, g->name.len);
        }
        WR_PUT_FIXED(f, d->argtype[g->type & 15], d->argtype_len[g->type & 15]);
        switch (g->type) {
        case TRACERD_FXT_ARG_NULL:
            WR_LIT(f, "null");
            break;
        case TRACERD_FXT_ARG_INT32:
        case TRACERD_FXT_ARG_INT64:
            wr_i64(f, g->v.i64);
            break;
        case TRACERD_FXT_ARG_UINT32:
        case TRACERD_FXT_ARG_UINT64:
        case TRACERD_FXT_ARG_KOID:
            wr_u64(f, g->v.u64);
            break;
        case TRACERD_FXT_ARG_DOUBLE:
            if (isfinite(g->v.f64))
                wr_g17(f, g->v.f64);
            else
                wr_cstr(f, isnan(g->v.f64) ? "\"nan\"" : g->v.f64 > 0 ? "\"inf\"" : "\"-inf\"");
            break;
        case TRACERD_FXT_ARG_STRING:
            if (!vc_str(d->val, f, g->v.str.data, g->v.str.len)) {
                WR_LIT(f, ",\"value_hex\":");
                cli_json_hex(f, g->v.str.data, g->v.str.len);
            }
            break;
        case TRACERD_FXT_ARG_POINTER:
            WR_LIT(f, "\"0x");
            wr_x64(f, g->v.u64);
            wr_ch(f, '"');
            break;
        case TRACERD_FXT_ARG_BOOL:
            wr_cstr(f, g->v.u64 ? "true" : "false");
            break;
        default: /* blob, unknown: hex bytes */
            cli_json_hex(f, g->v.blob.data, g->v.blob.len);
            break;
        }
        wr_ch(f, '}');
    }
    wr_ch(f, ']');
}

static int d_meta(void *u, const tracerd_fxt_metadata_t *m)
{
    scache_drop(u, 0);
    wr_t *f = d_out(u);
    static const char *const kinds[5] = {"", "provider-info", "provider-section", "provider-event",
                                         "trace-info"};
    jhead(u, f, "metadata", m->offset, m->provider_id);
    wr_printf(f, ",\"type\":\"%s\"", m->type <= 4 ? kinds[m->type] : "unknown");
    if (m->type == TRACERD_FXT_META_PROVIDER_INFO)
        jstr(f, "name", m->name);
    if (m->type == TRACERD_FXT_META_PROVIDER_EVENT)
        wr_printf(f, ",\"event\":%u", (unsigned)m->event);
    if (m->type == TRACERD_FXT_META_TRACE_INFO)
        wr_printf(f, ",\"trace_info_type\":%u,\"magic\":true,\"byte_order\":\"%s\"",
                  (unsigned)m->trace_info_type, tracerd_byte_order_name(m->byte_order));
    wr_printf(f, "}\n");
    return 0;
}

static int d_init(void *u, const tracerd_fxt_init_t *i)
{
    wr_t *f = d_out(u);
    jhead(u, f, "init", i->offset, i->provider_id);
    wr_printf(f, ",\"ticks_per_second\":%" PRIu64 "}\n", i->ticks_per_second);
    return 0;
}

static int d_string(void *u, const tracerd_fxt_string_t *s)
{
    if (s->index != 0)
        scache_drop(u, s->index);
    wr_t *f = d_out(u);
    jhead(u, f, "string", s->offset, s->provider_id);
    wr_printf(f, ",\"index\":%u", (unsigned)s->index);
    jstr(f, "value", s->str);
    wr_printf(f, "}\n");
    return 0;
}

static int d_thread(void *u, const tracerd_fxt_thread_rec_t *t)
{
    wr_t *f = d_out(u);
    jhead(u, f, "thread", t->offset, t->provider_id);
    wr_printf(f, ",\"index\":%u,\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 "}\n", (unsigned)t->index,
              t->pid, t->tid);
    return 0;
}

static int d_event(void *u, const tracerd_fxt_event_t *e)
{
    bool complete = e->type == TRACERD_FXT_EVENT_DURATION_COMPLETE;
    if (!keep(u, complete ? TRACERD_EVENT_SPAN_COMPLETE : TRACERD_EVENT_INSTANT, e->ticks, e->ns,
              e->end_ns, e->thread, false, 0, e->category, e->name))
        return 0;
    wr_t *f = d_out(u);
    struct dump *d = u;
    jhead(u, f, "event", e->offset, e->provider_id);
    WR_PUT_FIXED(f, d->evtype[e->type & 15], d->evtype_len[e->type & 15]);
    char *p = wr_room(f, 56);
    size_t n = (size_t)(dec_put(&d->ticks, p, e->ticks) - p);
    memcpy(p + n, ",\"ns\":", 6);
    if (e->ns == e->ticks) { /* ns ticks: the same digits */
        memcpy(p + n + 6, p, n);
        f->len += 2 * n + 6;
    } else {
        f->len += n + 6;
        wr_u64(f, e->ns);
    }
    if ((unsigned)e->type > TRACERD_FXT_EVENT_FLOW_END) {
        JKEY(f, "type_id");
        wr_u64(f, (unsigned)e->type);
    }
    jthread_cached(u, f, e->thread);
    jstr_ref(((struct dump *)u)->cat, f, "category", e->provider_id, e->category_ref, e->category);
    jstr_ref(((struct dump *)u)->name, f, "name", e->provider_id, e->name_ref, e->name);
    jargs(u, f, e->nargs, e->args);
    switch (e->type) {
    case TRACERD_FXT_EVENT_COUNTER:
        JKEY(f, "counter_id");
        wr_u64(f, e->id);
        break;
    case TRACERD_FXT_EVENT_DURATION_COMPLETE:
        JKEY(f, "end_ticks");
        wr_u64(f, e->end_ticks);
        JKEY(f, "end_ns");
        wr_u64(f, e->end_ns);
        break;
    case TRACERD_FXT_EVENT_ASYNC_BEGIN:
    case TRACERD_FXT_EVENT_ASYNC_INSTANT:
    case TRACERD_FXT_EVENT_ASYNC_END:
        JKEY(f, "async_id");
        wr_u64(f, e->id);
        break;
    case TRACERD_FXT_EVENT_FLOW_BEGIN:
    case TRACERD_FXT_EVENT_FLOW_STEP:
    case TRACERD_FXT_EVENT_FLOW_END:
        JKEY(f, "flow_id");
        wr_u64(f, e->id);
        break;
    default:
        break;
    }
    WR_LIT(f, "}\n");
    return 0;
}

static int d_blob(void *u, const tracerd_fxt_blob_t *b)
{
    wr_t *f = d_out(u);
    jhead(u, f, "blob", b->offset, b->provider_id);
    wr_printf(f, ",\"blob_type\":%u", (unsigned)b->blob_type);
    jstr(f, "name", b->name);
    wr_printf(f, ",\"size\":%zu,\"payload\":", b->payload.len);
    cli_json_hex(f, b->payload.data, b->payload.len);
    wr_printf(f, "}\n");
    return 0;
}

static int d_user(void *u, const tracerd_fxt_userspace_object_t *o)
{
    wr_t *f = d_out(u);
    jhead(u, f, "userspace-object", o->offset, o->provider_id);
    wr_printf(f, ",\"pointer\":\"0x%" PRIx64 "\"", o->pointer);
    jthread(f, "process_", o->process);
    if (o->process_words != 0)
        wr_printf(f, ",\"process_words\":%u", (unsigned)o->process_words);
    jstr(f, "name", o->name);
    jargs(u, f, o->nargs, o->args);
    wr_printf(f, "}\n");
    return 0;
}

static int d_kernel(void *u, const tracerd_fxt_kernel_object_t *o)
{
    wr_t *f = d_out(u);
    jhead(u, f, "kernel-object", o->offset, o->provider_id);
    wr_printf(f, ",\"koid\":%" PRIu64 ",\"object_type\":%u", o->koid, (unsigned)o->object_type);
    jstr(f, "name", o->name);
    jargs(u, f, o->nargs, o->args);
    wr_printf(f, "}\n");
    return 0;
}

static int d_sched(void *u, const tracerd_fxt_scheduling_t *s)
{
    wr_t *f = d_out(u);
    static const char *const kinds[3] = {"legacy-context-switch", "context-switch",
                                         "thread-wakeup"};
    jhead(u, f, "scheduling", s->offset, s->provider_id);
    wr_printf(f, ",\"type\":\"%s\",\"ticks\":%" PRIu64 ",\"ns\":%" PRIu64 ",\"cpu\":%u",
              kinds[s->type], s->ticks, s->ns, (unsigned)s->cpu);
    if (s->type == TRACERD_FXT_SCHED_THREAD_WAKEUP) {
        wr_printf(f, ",\"waking_tid\":%" PRIu64, s->waking_tid);
    } else {
        wr_printf(f, ",\"outgoing_state\":%u", (unsigned)s->outgoing_state);
        if (s->type == TRACERD_FXT_SCHED_CONTEXT_SWITCH) {
            wr_printf(f, ",\"outgoing_tid\":%" PRIu64 ",\"incoming_tid\":%" PRIu64, s->outgoing.tid,
                      s->incoming.tid);
        } else {
            jthread(f, "outgoing_", s->outgoing);
            jthread(f, "incoming_", s->incoming);
            wr_printf(f, ",\"outgoing_priority\":%u,\"incoming_priority\":%u",
                      (unsigned)s->outgoing_priority, (unsigned)s->incoming_priority);
        }
    }
    if (s->type != TRACERD_FXT_SCHED_LEGACY_CONTEXT_SWITCH)
        jargs(u, f, s->nargs, s->args);
    wr_printf(f, "}\n");
    return 0;
}

static int d_log(void *u, const tracerd_fxt_log_t *l)
{
    const tracerd_str_t none = {"", 0}, log = {"log", 3};
    if (!keep(u, TRACERD_EVENT_LOG, l->ticks, l->ns, 0, l->thread, false, 0, none, log))
        return 0;
    wr_t *f = d_out(u);
    jhead(u, f, "log", l->offset, l->provider_id);
    wr_printf(f, ",\"ticks\":%" PRIu64 ",\"ns\":%" PRIu64, l->ticks, l->ns);
    jthread(f, "", l->thread);
    jstr(f, "message", l->message);
    wr_printf(f, "}\n");
    return 0;
}

static int d_large(void *u, const tracerd_fxt_large_blob_t *b)
{
    wr_t *f = d_out(u);
    jhead(u, f, "large-blob", b->offset, b->provider_id);
    wr_printf(f, ",\"format\":%u", (unsigned)b->format);
    jstr(f, "category", b->category);
    jstr(f, "name", b->name);
    if (b->format == TRACERD_FXT_LARGE_BLOB_WITH_METADATA) {
        wr_printf(f, ",\"ticks\":%" PRIu64 ",\"ns\":%" PRIu64, b->ticks, b->ns);
        jthread(f, "", b->thread);
        jargs(u, f, b->nargs, b->args);
    }
    wr_printf(f, ",\"size\":%" PRIu64 ",\"payload\":", b->size);
    if (b->payload.data != NULL)
        cli_json_hex(f, b->payload.data, b->payload.len);
    else
        wr_printf(f, "null,\"fragmented\":true");
    wr_printf(f, "}\n");
    return 0;
}

static int d_fragment(void *u, const tracerd_span_t *s)
{
    wr_t *f = d_out(u);
    wr_printf(f,
              "{\"record\":\"large-blob-fragment\",\"offset\":%" PRIu64 ",\"data_offset\":%" PRIu64
              ",\"total\":%" PRIu64 ",\"data\":",
              s->record_offset, s->offset, s->total);
    cli_json_hex(f, s->data, s->len);
    wr_printf(f, "}\n");
    return 0;
}

static int d_unknown(void *u, const tracerd_fxt_unknown_t *k)
{
    wr_t *f = d_out(u);
    static const char *const kinds[9] = {"",           "record",       "metadata",
                                         "trace-info", "event",        "argument",
                                         "scheduling", "large-record", "blob-format"};
    wr_printf(f,
              "{\"record\":\"unknown\",\"offset\":%" PRIu64 ",\"kind\":\"%s\",\"type\":%u,"
              "\"header\":\"0x%016" PRIx64 "\",\"size\":%" PRIu64 ",\"raw\":",
              k->offset, k->kind <= 8 ? kinds[k->kind] : "?", (unsigned)k->type, k->header,
              k->size);
    if (k->raw.data != NULL)
        cli_json_hex(f, k->raw.data, k->raw.len);
    else
        wr_printf(f, "null");
    wr_printf(f, "}\n");
    return 0;
}

/* A lenient skip, as an FXT dump line: "record" names the kind, as in every
 * FXT dump object. */
static int d_warning(void *u, const tracerd_warning_t *w)
{
    struct dump *d = u;
    const cli_warn_sink_t sink = {d->f, "record", "fxt", NULL};
    return cli_warning(d->c, &sink, w);
}

static int dump(cli_t *c)
{
    static struct dump d; /* one dump per process */
    memset(&d, 0, sizeof d);
    d.c = c;
    types_make(&d);
    int rc = cli_filter_make(c, &d.filter);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_out_start(c);
    if (rc != CLI_EXIT_OK) {
        tracerd_event_filter_free(d.filter);
        return rc;
    }
    d.f = c->wr;
    tracerd_fxt_callbacks_t cbs;
    tracerd_fxt_callbacks_init(&cbs);
    cbs.on_metadata = d_meta;
    cbs.on_init = d_init;
    cbs.on_string = d_string;
    cbs.on_thread = d_thread;
    cbs.on_event = d_event;
    cbs.on_blob = d_blob;
    cbs.on_userspace_object = d_user;
    cbs.on_kernel_object = d_kernel;
    cbs.on_scheduling = d_sched;
    cbs.on_log = d_log;
    cbs.on_large_blob = d_large;
    cbs.on_large_blob_fragment = d_fragment;
    cbs.on_unknown = d_unknown;
    cbs.on_warning = d_warning;
    rc = cli_out_end(c, run(c, &cbs, &d, false));
    tracerd_event_filter_free(d.filter);
    return rc;
}

const struct cli_format cli_format_fxt = {
    .name = "fxt",
    .detect = detect,
    .info = info,
    .dump = dump,
    .options = options,
    .options_help = "fxt.byte-order=auto|little|big, fxt.no-magic-order=little|big,\n"
                    "                      fxt.provider0-fallback=yes|no",
};
