/* tracerd CLI: CTF trace directories, and single stream files with
 * --metadata (or a `metadata` file beside them): detection, the runners
 * every CTF command reads with (ctf_run.h) and `dump` (info: info_ctf.c).
 * See doc/formats/ctf.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracerd/ctf.h>

#include "cli.h"
#include "mapped.h"
#include "ctf_run.h"
#include "ctf_tpl.h"
#include "jcache.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* A data stream's first bytes (a packet magic), as opposed to metadata: both
 * are CTF to the format's detector. */
static bool is_stream_head(const uint8_t *b, size_t n)
{
    return n >= 4 && (le32(b) == TRACERD_CTF_PACKET_MAGIC || be32(b) == TRACERD_CTF_PACKET_MAGIC);
}

/* Is this file CTF metadata (CTF 1.8 TSDL with its signature, CTF 2 JSON
 * text sequence, either plain or packetized)? The library decides. */
static bool is_metadata_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    uint8_t b[64];
    ssize_t n = read(fd, b, sizeof b);
    close(fd);
    return n > 0 && tracerd_ctf_detect(b, (size_t)n) > 0 && !is_stream_head(b, (size_t)n);
}

/* p[0..len) is a folder: does it hold `metadata`, or a folder below it,
 * `depth` levels down at most, *budget folders in all? Depth-first over one
 * path buffer: detection allocates nothing (an out-of-memory cannot make a
 * trace look like no trace). */
static bool metadata_below(char *p, size_t len, size_t cap, int depth, unsigned *budget)
{
    if (len + 10 > cap || *budget == 0)
        return false;
    --*budget;
    memcpy(p + len, "/metadata", 10);
    bool found = is_metadata_file(p);
    p[len] = '\0';
    DIR *d = found || depth == 0 ? NULL : opendir(p);
    struct dirent *e;
    while (d != NULL && !found && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.' || len + 1 + n + 1 > cap)
            continue;
        p[len] = '/';
        memcpy(p + len + 1, e->d_name, n + 1);
        struct stat sb;
        if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            found = metadata_below(p, len + 1 + n, cap, depth - 1, budget);
        p[len] = '\0';
    }
    if (d != NULL)
        closedir(d);
    return found;
}

/* A folder holding `metadata`, at the top or (bounded) below: at most 256
 * folders, `depth` levels deep. */
static bool has_metadata(const char *dir, int depth)
{
    char p[4096];
    size_t len = strlen(dir);
    if (len >= sizeof p)
        return false;
    memcpy(p, dir, len + 1);
    unsigned budget = 256;
    return metadata_below(p, len, sizeof p, depth, &budget);
}

static int detect(const uint8_t *head, size_t n, const char *path, bool is_dir)
{
    if (is_dir)
        return has_metadata(path, 4) ? 90 : 0;
    /* info and dump read a data stream file (with its metadata) or a directory */
    return is_stream_head(head, n) ? tracerd_ctf_detect(head, n) : 0;
}

/* ---- CTF ------------------------------------------------------------------- */

static bool ctf_item(void *p, const char *k, const char *v)
{
    tracerd_ctf_stream_config_t *cfg = p;
    if (strcmp(k, "check-uuid") == 0)
        return cli_opt_yes_no(v, &cfg->check_uuid);
    if (strcmp(k, "stitch-bytes") == 0) { /* largest event that may straddle chunks */
        char *end;
        unsigned long long n = strtoull(v, &end, 10);
        if (*v == '\0' || *v == '-' || *end != '\0' || n < TRACERD_STITCH_MIN || n > (1u << 30))
            return false;
        cfg->stitch_bytes = (size_t)n;
        return true;
    }
    return false;
}

/* cli_config_ctf and the options hook (-o ctf.KEY=VALUE for the event view). */
CLI_CONFIG_HOOKS(ctf, tracerd_ctf_stream_config_t, tracerd_ctf_stream_config_init,
                 lenient_skip_packets, ctf_item, ctf)

/* ---- shared reading ------------------------------------------------------ */

/* A dump's event line up to its offset, {"type":"event","stream":PATH,"offset":
 * (PATH escaped), kept per stream path (the reader's, unchanged while it
 * runs) when it fits; two-way, so that two streams never take turns in one
 * slot. */
#define STREAM_PREFIXES 64u
#define STREAM_PREFIX_TEXT 1024u
struct stream_prefix {
    const char *path;
    size_t len;
    char text[STREAM_PREFIX_TEXT];
};

/* A dump's reading state. */
struct ctx {
    cli_t *c;
    tracerd_ctf_dir_t *dir;
    const tracerd_ctf_trace_t *trace; /* a single stream's */
    const char *stream_path;
    jcache_t *names;   /* "name": of model strings (field, option and label names) */
    jcache_t *classes; /* ,"name":...,"id":N,"stream_id":M of an event class */
    struct stream_prefix prefix[STREAM_PREFIXES];
    const struct stream_prefix *last_prefix[2]; /* the last two streams' (NULL: none) */
    const jc_entry_t *last_class[2];            /* the last two classes' texts (NULL: none) */
    wr_lead_t lead_cycles, lead_ns;             /* the last event's leading digits */
    tpl_table_t *tpls;                          /* event text templates (ctf_tpl.h); NULL: none */
    bool no_tpl;                                /* TRACERD_CLI_NO_TEMPLATES=1 */
    const void *cls;                            /* the class of the event being written */
    bool first[256];
    unsigned level;
    bool in_variant[256];
    char closer[256];   /* what closes each open level: ']' or '}' ('\0': nothing) */
    bool scope_open;    /* a scope's object is open in the current dump line */
    bool pkt_open;      /* a packet line is open: its header/context fields follow */
    bool optional_null; /* a disabled CTF 2 optional was printed as null */
    /* dump filters (see dump_filter_begin) */
    cli_dump_filter_t flt;
    bool need_ids;       /* --pid/--tid: decided once the event contexts are read */
    bool undecided;      /* the event's record is held until then */
    bool skip;           /* the event is left out: its fields are not written */
    tracerd_event_t fev; /* the event as the filter sees it */
    bool has_cpu;        /* the cpu of the current packet (single stream) */
    uint32_t cpu;
    int64_t *stream_cpu; /* directory: the cpu of each stream's packet, -1 for none */
    uint32_t nstream_cpu;
    /* the event's locations when on_located declined it (its records
     * follow: tpl_event locates their template), else NULL; its header
     * records */
    const tracerd__ctf_located_t *loc;
    size_t loc_nh;
};

static const char *cur_stream(const struct ctx *x)
{
    const tracerd_ctf_dir_stream_t *s = x->dir ? tracerd_ctf_dir_current(x->dir) : NULL;
    return s ? s->path : x->stream_path;
}

/* Ends the open packet line of a dump (after its header and context fields,
 * or where they were cut by an error: the open levels are closed). */
static void close_packet(struct ctx *x)
{
    if (!x->pkt_open)
        return;
    wr_t *o = x->c->wr;
    if (x->scope_open) {
        for (; x->level > 0; x->level--)
            if (x->closer[x->level] != '\0')
                wr_ch(o, x->closer[x->level]);
        wr_ch(o, '}');
        x->scope_open = false;
    }
    WR_LIT(o, "}\n");
    x->pkt_open = false;
}

/* ,"stream":PATH (with "stream_hex" when the path is not UTF-8) */
static void put_stream(const struct ctx *x, wr_t *f)
{
    const char *p = cur_stream(x);
    cli_json_member(f, "stream", p, strlen(p));
}

/* A dump with a time range writes the packets whose time span meets it
 * (packets without times, and all of them before the range is known, are
 * written). */
static bool packet_in_range(const struct ctx *x, const tracerd_ctf_packet_t *p)
{
    uint64_t b, e;
    if (x->flt.f == NULL || !p->has_timestamp_begin || !p->has_timestamp_end ||
        !tracerd_event_filter_range(x->flt.f, &b, &e))
        return true;
    return p->ns_end >= b && p->ns_begin <= e;
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    struct ctx *x = user;
    close_packet(x);
    x->has_cpu = p->has_cpu_id;
    x->cpu = (uint32_t)p->cpu_id;
    const tracerd_ctf_dir_stream_t *ds = x->dir ? tracerd_ctf_dir_current(x->dir) : NULL;
    if (ds != NULL && ds->index < x->nstream_cpu)
        x->stream_cpu[ds->index] = p->has_cpu_id ? (int64_t)(uint32_t)p->cpu_id : -1;
    if (!packet_in_range(x, p))
        return 0;
    wr_t *f = x->c->wr;
    WR_LIT(f, "{\"type\":\"packet\"");
    put_stream(x, f);
    wr_printf(f, ",\"offset\":%" PRIu64 ",\"index\":%" PRIu64 ",\"stream_id\":%" PRIu64, p->offset,
              p->index, p->stream_id);
    if (p->has_stream_instance_id)
        wr_printf(f, ",\"stream_instance_id\":%" PRIu64, p->stream_instance_id);
    if (p->content_size_bits != UINT64_MAX)
        wr_printf(f, ",\"content_size_bits\":%" PRIu64 ",\"packet_size_bits\":%" PRIu64,
                  p->content_size_bits, p->packet_size_bits);
    if (p->has_timestamp_begin)
        wr_printf(f, ",\"timestamp_begin\":%" PRIu64 ",\"ns_begin\":%" PRIu64, p->timestamp_begin,
                  p->ns_begin);
    if (p->has_timestamp_end)
        wr_printf(f, ",\"timestamp_end\":%" PRIu64 ",\"ns_end\":%" PRIu64, p->timestamp_end,
                  p->ns_end);
    if (p->has_events_discarded)
        wr_printf(f, ",\"events_discarded\":%" PRIu64, p->events_discarded);
    if (p->has_packet_seq_num)
        wr_printf(f, ",\"packet_seq_num\":%" PRIu64, p->packet_seq_num);
    if (p->has_cpu_id)
        wr_printf(f, ",\"cpu_id\":%" PRIu64, p->cpu_id);
    x->pkt_open = true; /* closed after its fields (close_packet) */
    return 0;
}

static int on_loss(void *user, const tracerd_ctf_loss_t *l)
{
    struct ctx *x = user;
    close_packet(x);
    wr_t *f = x->c->wr;
    wr_rec_begin(f);
    wr_printf(f, "{\"type\":\"%s\"",
              l->kind == TRACERD_CTF_LOSS_EVENTS ? "discarded_events" : "lost_packets");
    put_stream(x, f);
    wr_printf(f, ",\"offset\":%" PRIu64 ",\"stream_id\":%" PRIu64 ",\"count\":%" PRIu64, l->offset,
              l->stream_id, l->count);
    if (l->has_clock)
        wr_printf(f, ",\"begin_cycles\":%" PRIu64 ",\"end_cycles\":%" PRIu64, l->begin_cycles,
                  l->end_cycles);
    WR_LIT(f, "}\n");
    wr_rec_end(f);
    return 0;
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    struct ctx *x = user;
    close_packet(x);
    const cli_warn_sink_t sink = {x->c->wr, "type", "ctf", cur_stream(x)};
    return cli_warning(x->c, &sink, w);
}

/* A dump's filter sees each event as the event view does (map_ctf.c): its
 * clock time, the cpu of its packet, its event class name, the trace's
 * "domain" (else "ctf") as category, and with --pid/--tid the vpid/pid and
 * vtid/tid fields of its contexts; for those the record is held until the
 * contexts are read (dump_filter_decide). Returns 1 to write the event, 0
 * to leave it out, CLI_DUMP_STOP past --end (streams are time-ordered). */
static int dump_filter_begin(struct ctx *x, const tracerd_ctf_event_t *e)
{
    x->skip = false;
    x->undecided = false;
    if (x->flt.f == NULL)
        return 1;
    tracerd_event_t *ev = &x->fev;
    memset(ev, 0, sizeof *ev);
    ev->format = TRACERD_EVENT_FORMAT_CTF;
    ev->kind = TRACERD_EVENT_INSTANT;
    ev->ticks = e->cycles;
    ev->ns = e->ns;
    if (e->has_clock)
        ev->flags |= TRACERD_EVENT_HAS_NS;
    const tracerd_ctf_dir_stream_t *ds = x->dir ? tracerd_ctf_dir_current(x->dir) : NULL;
    if (ds != NULL && ds->index < x->nstream_cpu) {
        if (x->stream_cpu[ds->index] >= 0) {
            ev->cpu = (uint32_t)x->stream_cpu[ds->index];
            ev->flags |= TRACERD_EVENT_HAS_CPU;
        }
    } else if (ds == NULL && x->has_cpu) {
        ev->cpu = x->cpu;
        ev->flags |= TRACERD_EVENT_HAS_CPU;
    }
    ev->name.data = e->name != NULL ? e->name : "";
    ev->name.len = strlen(ev->name.data);
    const tracerd_ctf_trace_t *t = ds != NULL ? ds->trace : x->trace;
    const char *domain = t != NULL ? tracerd_ctf_trace_env(t, "domain") : NULL;
    ev->category.data = domain != NULL ? domain : "ctf";
    ev->category.len = strlen(ev->category.data);
    if (x->need_ids) {
        x->undecided = true;
        return 1;
    }
    x->skip = !cli_dump_keep(&x->flt, ev);
    return x->flt.stopped ? CLI_DUMP_STOP : !x->skip;
}

/* The held event record: kept, or dropped. */
static int dump_filter_decide(struct ctx *x)
{
    x->undecided = false;
    x->skip = !cli_dump_keep(&x->flt, &x->fev);
    if (!x->skip || !wr_rec_drop(x->c->wr)) {
        x->c->wr->hold = false;
        x->skip = false; /* kept (or already written out past WR_HOLD_MAX) */
    }
    return x->flt.stopped ? CLI_DUMP_STOP : 0;
}

/* --pid/--tid: the thread and process of the event's contexts. */
static void dump_filter_field(struct ctx *x, const tracerd_ctf_field_t *f)
{
    if (f->depth != 1 ||
        (f->scope != TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT &&
         f->scope != TRACERD_CTF_SCOPE_EVENT_CONTEXT) ||
        (f->kind != TRACERD_CTF_VALUE_INT && f->kind != TRACERD_CTF_VALUE_UINT))
        return;
    uint64_t u = f->kind == TRACERD_CTF_VALUE_UINT ? f->v.u : (uint64_t)f->v.i;
    if (strcmp(f->name, "vtid") == 0 || strcmp(f->name, "tid") == 0) {
        x->fev.tid = u;
        x->fev.flags |= TRACERD_EVENT_HAS_TID;
    } else if (strcmp(f->name, "vpid") == 0 || strcmp(f->name, "pid") == 0) {
        x->fev.pid = u;
        x->fev.flags |= TRACERD_EVENT_HAS_PID;
    }
}

/* The kept {"type":"event","stream":PATH,"offset": of the current stream
 * (path), made when missing; NULL when the path is too long to keep. */
static const struct stream_prefix *event_prefix(struct ctx *x, const char *path)
{
    size_t h = jc_hash(path, 6); /* STREAM_PREFIXES entries, two-way: h and its neighbour */
    struct stream_prefix *p = &x->prefix[h];
    if (p->path != path && x->prefix[h ^ 1u].path == path)
        p = &x->prefix[h ^ 1u];
    else if (p->path != path && p->path != NULL && x->prefix[h ^ 1u].path == NULL)
        p = &x->prefix[h ^ 1u];
    if (p->path != path) {
        size_t n = strlen(path);
        if (8 * n + 64 > sizeof p->text) /* escaped path, its hex, the keys: not kept */
            return NULL;
        wr_t t;
        wr_init_fixed(&t, p->text, sizeof p->text);
        WR_LIT(&t, "{\"type\":\"event\"");
        cli_json_member(&t, "stream", path, n);
        WR_LIT(&t, ",\"offset\":");
        p->len = t.len;
        p->path = path;
    }
    return p;
}

/* The kept ,"name":NAME,"id":N,"stream_id":M of the event's class, made
 * when missing; NULL when it is not kept (then it is written to f). */
static const jc_entry_t *event_class(struct ctx *x, wr_t *f, const tracerd_ctf_event_t *e)
{
    const jc_entry_t *k = jc_find(x->classes, e->cls);
    if (k != NULL)
        return k;
    size_t n = strlen(e->name);
    char tmp[8 * JC_TEXT + 64];
    wr_t t;
    wr_t *o = n <= JC_TEXT ? &t : f; /* a long name is written, not kept */
    wr_init_fixed(&t, tmp, sizeof tmp);
    cli_json_member(o, "name", e->name, n);
    WR_LIT(o, ",\"id\":");
    wr_u64(o, e->id);
    WR_LIT(o, ",\"stream_id\":");
    wr_u64(o, e->stream_class->id);
    if (o == &t) {
        jc_keep(x->classes, e->cls, tmp, t.len);
        k = jc_find(x->classes, e->cls);
        if (k == NULL) /* no free slot */
            wr_put(f, tmp, t.len);
    }
    return k;
}

#define PREFIX_SHORT 128u /* a kept prefix of at most this many bytes is one fixed-size copy */

/* ,"cycles":C,"ns":NS at p (room for 64 bytes); returns the length. */
static inline size_t put_clock(struct ctx *x, char *p, const tracerd_ctf_event_t *e)
{
    static const char ns[8] = ",\"ns\":";
    memcpy(p, ",\"cycles\":", 10);
    return 10 + wr_fmt_u64_lead2(p + 10, &x->lead_cycles, e->cycles, ns, 6, &x->lead_ns, e->ns);
}

/* An event's line up to its fields: the stream's prefix, the offset, the
 * class's members, the clock; in room asked once when the prefix and the
 * class's text are kept. */
static void put_event_start(struct ctx *x, wr_t *f, const tracerd_ctf_event_t *e)
{
    const char *path = cur_stream(x);
    const struct stream_prefix *sp = x->last_prefix[0]; /* a slot: its path tells whose it is */
    if (sp == NULL || sp->path != path) {               /* a directory's streams often take turns */
        const struct stream_prefix *sp1 = x->last_prefix[1];
        x->last_prefix[1] = sp;
        x->last_prefix[0] = sp = sp1 != NULL && sp1->path == path ? sp1 : event_prefix(x, path);
    }
    if (sp != NULL && sp->len <= PREFIX_SHORT) {
        char *p = wr_room(f, PREFIX_SHORT + 20), *const p0 = p;
        memcpy(p, sp->text, PREFIX_SHORT);
        p += sp->len;
        p += wr_fmt_u64(p, e->offset);
        f->len += (size_t)(p - p0);
    } else if (sp != NULL) {
        wr_put(f, sp->text, sp->len);
        wr_u64(f, e->offset);
    } else {
        WR_LIT(f, "{\"type\":\"event\"");
        put_stream(x, f);
        WR_LIT(f, ",\"offset\":");
        wr_u64(f, e->offset);
    }
    const jc_entry_t *k = x->last_class[0]; /* kept entries stay */
    if (k == NULL || k->key != e->cls) {    /* two classes often take turns */
        const jc_entry_t *k1 = x->last_class[1];
        k = k1 != NULL && k1->key == e->cls ? k1 : event_class(x, f, e);
        x->last_class[1] = x->last_class[0];
        x->last_class[0] = k;
    }
    if (k != NULL) {
        char *p = wr_room(f, JC_TEXT + 64);
        if (k->len <= JC_SHORT)
            memcpy(p, k->text, JC_SHORT);
        else
            memcpy(p, k->text, JC_TEXT);
        f->len += k->len;
        if (e->has_clock)
            f->len += put_clock(x, p + k->len, e);
    } else if (e->has_clock) {
        f->len += put_clock(x, wr_room(f, 64), e);
    }
}

static int on_event(void *user, const tracerd_ctf_event_t *e)
{
    struct ctx *x = user;
    close_packet(x);
    int k = dump_filter_begin(x, e);
    if (k != 1)
        return k;
    wr_t *f = x->c->wr;
    x->cls = e->cls;
    x->loc = NULL;
    wr_rec_begin(f);
    if (x->undecided)
        wr_rec_hold(f);
    put_event_start(x, f, e);
    return 0;
}

static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    struct ctx *x = user;
    (void)e;
    x->loc = NULL;
    if (x->undecided) {
        int k = dump_filter_decide(x);
        if (k != 0)
            return k;
    }
    if (x->skip) {
        x->skip = false;
        return 0;
    }
    WR_LIT(x->c->wr, "}\n");
    wr_rec_end(x->c->wr);
    return 0;
}

/* ,"KEY":{ opening each scope's object */
static const struct {
    char text[24];
    size_t len;
} scope_open[] = {
#define SCOPE(k)                                                                                   \
    {                                                                                              \
        ",\"" k "\":{", sizeof(k) + 4                                                              \
    }
    SCOPE("packet_header"),  SCOPE("packet_context"), SCOPE("header"),
    SCOPE("stream_context"), SCOPE("context"),        SCOPE("fields"),
#undef SCOPE
};

/* The entry of "s": for a string of the trace model, made and kept (by
 * its address) when it was not; NULL when too long to keep. */
static const jc_entry_t *model_str_new(struct ctx *x, const char *s)
{
    size_t n = strlen(s);
    if (n + 3 > JC_TEXT)
        return NULL;
    char tmp[6 * JC_TEXT + 16];
    wr_t t;
    wr_init_fixed(&t, tmp, sizeof tmp);
    wr_str(&t, s, n);
    wr_ch(&t, ':');
    jc_keep(x->names, s, tmp, t.len);
    return jc_find(x->names, s);
}

static inline const jc_entry_t *model_str(struct ctx *x, const char *s)
{
    const jc_entry_t *k = jc_find(x->names, s);
    return k != NULL ? k : model_str_new(x, s);
}

/* "s": (a key) */
static inline void put_key(struct ctx *x, wr_t *o, const char *s)
{
    const jc_entry_t *k = model_str(x, s);
    if (k != NULL) {
        jc_put(o, k, k->len);
    } else {
        cli_json_cstr(o, s);
        wr_ch(o, ':');
    }
}

/* "s" (a value) */
static void put_model_value(struct ctx *x, wr_t *o, const char *s)
{
    const jc_entry_t *k = model_str(x, s);
    if (k != NULL)
        jc_put(o, k, k->len - 1);
    else
        cli_json_cstr(o, s);
}

/* The comma and key before a value; false for an array element or a variant's option. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline bool
member(struct ctx *x, wr_t *o, const tracerd_ctf_field_t *f)
{
    if (!x->first[x->level])
        wr_ch(o, ',');
    x->first[x->level] = false;
    if (f->index < 0 && !x->in_variant[x->level]) {
        put_key(x, o, f->name);
        return true;
    }
    return false;
}

/* A nesting level; variant: its values have no key (a variant's option, an optional's field). */
static void enter_level(struct ctx *x, bool variant, char closer)
{
    if (x->level + 1 < sizeof x->first / sizeof x->first[0])
        x->level++;
    x->first[x->level] = true;
    x->in_variant[x->level] = variant;
    x->closer[x->level] = closer;
}

static void open_level(struct ctx *x, wr_t *o, char open, char close, bool variant)
{
    wr_ch(o, open);
    wr_push(o, close);
    enter_level(x, variant, close);
}

static void close_level(struct ctx *x, wr_t *o, char close)
{
    wr_ch(o, close);
    wr_pop(o);
    x->level--;
}

/* ,"name_hex":"..." after a keyed string field whose bytes are not UTF-8. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void
put_string_hex(wr_t *o, const char *name, const void *data, size_t len)
{
    char key[300];
    int n = snprintf(key, sizeof key, "%s_hex", name);
    wr_ch(o, ',');
    wr_str(o, key, n > 0 && (size_t)n < sizeof key ? (size_t)n : strlen(key));
    wr_ch(o, ':');
    cli_json_hex(o, data, len);
}

/* A string field: with a key, "name_hex" beside it when the bytes are not
 * UTF-8; an array element or variant option then becomes {"string","hex"}. */
static void put_string_field(wr_t *o, const tracerd_ctf_field_t *f, bool keyed)
{
    const void *data = f->v.str.data;
    size_t len = f->v.str.len;
    if (keyed) { /* the text (ill-formed sequences replaced), then the bytes when it was not UTF-8
                  */
        if (!wr_str(o, data, len))
            put_string_hex(o, f->name, data, len);
    } else if (wr_utf8_ok(data, len)) {
        wr_str(o, data, len);
    } else {
        WR_LIT(o, "{\"string\":");
        wr_str(o, data, len);
        WR_LIT(o, ",\"hex\":");
        cli_json_hex(o, data, len);
        wr_ch(o, '}');
    }
}

/* A fragment of a long string (escaped text; ill-formed UTF-8 becomes
 * U+FFFD, without the "_hex" companion of a whole string) or BLOB (hex),
 * written as it comes into one JSON string: its closing quote is pushed on
 * the writer's closers, so a line cut by an error still ends well-formed. */
static void put_fragment(struct ctx *x, wr_t *o, const tracerd_ctf_field_t *f, const void *data,
                         size_t len)
{
    if (f->frag & TRACERD_CTF_FRAG_FIRST) {
        member(x, o, f);
        wr_ch(o, '"');
        wr_push(o, '"');
    }
    if (f->kind == TRACERD_CTF_VALUE_BYTES)
        wr_hex(o, data, len);
    else
        wr_str_part(o, data, len);
    if (f->frag & TRACERD_CTF_FRAG_LAST) {
        wr_ch(o, '"');
        wr_pop(o);
    }
}

/* A double's text at p (32 bytes of room): null for NaN and infinities
 * (they have no JSON form), else "%.17g". */
static inline size_t put_f64(char *p, double d)
{
    if (d != d || d - d != 0) {
        memcpy(p, "null", 4);
        return 4;
    }
    return wr_fmt_g17(p, d);
}

/* A value's text (after its comma and key; keyed: it has a key): a string
 * whole, bool, BLOB whole, float, enumeration or integer. */
static void put_value(struct ctx *x, wr_t *o, const tracerd_ctf_field_t *f, bool keyed)
{
    switch (f->kind) {
    case TRACERD_CTF_VALUE_STRING:
        put_string_field(o, f, keyed);
        return;
    case TRACERD_CTF_VALUE_BOOL:
        if (f->v.u)
            WR_LIT(o, "true");
        else
            WR_LIT(o, "false");
        return;
    case TRACERD_CTF_VALUE_BYTES: /* a CTF 2 BLOB: hexadecimal text */
        cli_json_hex(o, f->bytes.data, f->bytes.len);
        return;
    case TRACERD_CTF_VALUE_FLOAT:
        o->len += put_f64(wr_room(o, 32), f->v.f);
        return;
    default:
        if (f->type->kind == TRACERD_CTF_TYPE_ENUM) {
            WR_LIT(o, "{\"value\":");
            if (f->kind == TRACERD_CTF_VALUE_INT)
                wr_i64(o, f->v.i);
            else
                wr_u64(o, f->v.u);
            WR_LIT(o, ",\"label\":");
            if (f->enum_label)
                put_model_value(x, o, f->enum_label);
            else
                WR_LIT(o, "null");
            wr_ch(o, '}');
        } else if (f->kind == TRACERD_CTF_VALUE_INT) {
            wr_i64(o, f->v.i);
        } else {
            wr_u64(o, f->v.u);
        }
        return;
    }
}

/* The value of a field of the rarer kinds (string, bool, BLOB, optional,
 * float, enumeration), with its comma and key. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int
field_value(struct ctx *x, wr_t *o, const tracerd_ctf_field_t *f)
{
    switch (f->kind) {
    case TRACERD_CTF_VALUE_STRING:
        if (f->frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST)) {
            put_fragment(x, o, f, f->v.str.data, f->v.str.len);
            return 0;
        }
        break;
    case TRACERD_CTF_VALUE_BYTES:
        if (f->frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST)) {
            put_fragment(x, o, f, f->bytes.data, f->bytes.len);
            return 0;
        }
        break;
    case TRACERD_CTF_VALUE_OPTIONAL_BEGIN: /* null, or the field without a name */
        member(x, o, f);
        if (f->v.length == 0) {
            WR_LIT(o, "null");
            x->optional_null = true;
            return 0;
        }
        enter_level(x, true, '\0');
        return 0;
    case TRACERD_CTF_VALUE_OPTIONAL_END:
        if (x->optional_null)
            x->optional_null = false;
        else
            x->level--;
        return 0;
    default:
        break;
    }
    bool keyed = member(x, o, f);
    put_value(x, o, f, keyed);
    return 0;
}

/* A field's text: nesting (scope objects, structs, arrays, sequences,
 * variants) and integers here, the other values in field_value. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int
field_write(struct ctx *x, wr_t *o, const tracerd_ctf_field_t *f)
{
    switch (f->kind) {
    case TRACERD_CTF_VALUE_INT:
    case TRACERD_CTF_VALUE_UINT:
        if (f->type->kind == TRACERD_CTF_TYPE_ENUM)
            return field_value(x, o, f);
        member(x, o, f);
        if (f->kind == TRACERD_CTF_VALUE_INT)
            wr_i64(o, f->v.i);
        else
            wr_u64(o, f->v.u);
        return 0;
    case TRACERD_CTF_VALUE_STRUCT_BEGIN:
        if (f->depth == 0) {
            wr_put(o, scope_open[f->scope].text, scope_open[f->scope].len);
            wr_push(o, '}');
            x->scope_open = true;
            x->level = 0;
            x->first[0] = true;
            x->in_variant[0] = false;
            return 0;
        }
        member(x, o, f);
        open_level(x, o, '{', '}', false);
        return 0;
    case TRACERD_CTF_VALUE_STRUCT_END:
        if (f->depth == 0) {
            wr_ch(o, '}');
            wr_pop(o);
            x->scope_open = false;
            return 0;
        }
        close_level(x, o, '}');
        return 0;
    case TRACERD_CTF_VALUE_ARRAY_BEGIN:
    case TRACERD_CTF_VALUE_SEQUENCE_BEGIN:
        member(x, o, f);
        open_level(x, o, '[', ']', false);
        return 0;
    case TRACERD_CTF_VALUE_ARRAY_END:
    case TRACERD_CTF_VALUE_SEQUENCE_END:
        close_level(x, o, ']');
        return 0;
    case TRACERD_CTF_VALUE_VARIANT_BEGIN:
        member(x, o, f);
        open_level(x, o, '{', '}', true);
        put_key(x, o, f->option);
        return 0;
    case TRACERD_CTF_VALUE_VARIANT_END:
        close_level(x, o, '}');
        return 0;
    default:
        return field_value(x, o, f);
    }
}

/* A field that is not in an event being written as it comes: a packet's
 * (in its line, if any), or with a dump filter (the event left out, or held
 * until its contexts are read). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int
field_other(struct ctx *x, const tracerd_ctf_field_t *f)
{
    /* Packet header/context fields go in the packet's line (issue 12: all of
     * them, user-defined ones included), as an event's scopes in its line. */
    if (f->scope <= TRACERD_CTF_SCOPE_PACKET_CONTEXT && !x->pkt_open)
        return 0;
    if (x->skip)
        return 0;
    if (x->undecided) {
        if (f->scope == TRACERD_CTF_SCOPE_EVENT_FIELDS) {
            int k = dump_filter_decide(x);
            if (k != 0 || x->skip)
                return k;
        } else {
            dump_filter_field(x, f);
        }
    }
    return field_write(x, x->c->wr, f);
}

/* Values of t that write nothing (TPL_NONE): the pieces of its fixed text
 * from *mark to end but the last TPL_SHORT bytes or fewer; false when t has
 * no room for them. */
static bool tpl_pieces(tpl_t *t, size_t *mark, size_t end)
{
    for (; end - *mark > TPL_SHORT; *mark += TPL_SHORT) {
        if (t->nvals == TPL_VALS)
            return false;
        struct tpl_val *v = &t->val[t->nvals++];
        v->rec = 0;
        v->op = TPL_NONE;
        v->len = TPL_SHORT;
        v->off = (uint16_t)*mark;
        v->aux = 0;
    }
    return true;
}

/* Makes the template of records f[0, n) (ctf_tpl.h) in t: their fixed text
 * written as field_write writes it, into t's text, with a value's place
 * marked where field_write would write it; the writer's levels are left as
 * field_write leaves them. False (t stays empty) when the records do not
 * make a template: too many records, values, checks or text; a fragment;
 * a level left open. */
static bool tpl_build(struct ctx *x, tpl_t *t, const tracerd_ctf_field_t *f, size_t n)
{
    if (n > TPL_RECS)
        return false;
    char buf[TPL_TEXT + 256];
    wr_t s;
    wr_init_fixed(&s, buf, sizeof buf);
    size_t mark = 0;
    t->nvals = t->nchecks = t->nenums = 0;
    t->located = t->loc_tried = false;
    ctf_rec0_make(&t->rec0, &f[0]);
    for (size_t i = 0; i < n; i++) {
        const tracerd_ctf_field_t *r = &f[i];
        if (r->frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST) || s.len > TPL_TEXT)
            return false;
        unsigned chk = ctf_check_kind(r);
        if (chk != CTF_CHK_NONE) {
            if (t->nchecks == TPL_CHECKS || (chk == CTF_CHK_OPTION && i + 1 == n))
                return false;
            ctf_check_make(&t->check[t->nchecks++], f, i, chk);
        }
        unsigned op;
        switch (r->kind) {
        case TRACERD_CTF_VALUE_INT:
        case TRACERD_CTF_VALUE_UINT:
            op = r->type->kind == TRACERD_CTF_TYPE_ENUM ? TPL_VALUE
                 : r->kind == TRACERD_CTF_VALUE_INT     ? TPL_I64
                                                        : TPL_U64;
            break;
        case TRACERD_CTF_VALUE_FLOAT:
            op = TPL_F64;
            break;
        case TRACERD_CTF_VALUE_STRING:
        case TRACERD_CTF_VALUE_BYTES:
        case TRACERD_CTF_VALUE_BOOL:
            op = TPL_VALUE;
            break;
        default:
            field_write(x, &s, r);
            continue;
        }
        if (member(x, &s, r) && op == TPL_VALUE)
            op = r->kind == TRACERD_CTF_VALUE_STRING ? TPL_STR : TPL_VALUE_KEYED;
        if (s.len > TPL_TEXT || !tpl_pieces(t, &mark, s.len) || t->nvals == TPL_VALS)
            return false;
        struct tpl_val *v = &t->val[t->nvals++];
        v->aux = 0;
        if (op != TPL_U64 && op != TPL_I64 && op != TPL_F64 && op != TPL_STR &&
            r->kind != TRACERD_CTF_VALUE_BOOL && r->kind != TRACERD_CTF_VALUE_STRING &&
            r->kind != TRACERD_CTF_VALUE_BYTES && t->nenums < TPL_ENUMS) {
            memset(&t->enums[t->nenums], 0, sizeof t->enums[0]);
            v->aux = (uint16_t)t->nenums++;
            op = TPL_ENUM;
        }
        v->rec = (uint16_t)(i * sizeof *f);
        v->op = (uint8_t)op;
        v->off = (uint16_t)mark;
        v->len = (uint8_t)(s.len - mark);
        mark = s.len;
    }
    if (s.failed || s.len > TPL_TEXT || s.nclosers != 0 || s.lost_closers != 0 || x->level != 0 ||
        x->scope_open || x->optional_null || !tpl_pieces(t, &mark, s.len))
        return false;
    /* each piece's text, and the room from each value on: the text after
     * its piece's start, TPL_VAL_ROOM a value, the enumerations' longer
     * kept texts and the slack of the last fixed-size copy */
    size_t room = s.len - mark + TPL_SHORT + (size_t)t->nenums * (TPL_ENUM_TEXT - TPL_VAL_ROOM);
    memcpy(t->tail, buf + mark, s.len - mark);
    t->tail_len = (uint16_t)(s.len - mark);
    t->tail_room = (uint16_t)room;
    for (uint32_t i = t->nvals; i-- > 0;) {
        struct tpl_val *v = &t->val[i];
        room += v->len + (v->op == TPL_NONE ? 0 : TPL_VAL_ROOM);
        memcpy(v->text, buf + v->off, v->len);
        v->room = (uint16_t)room;
    }
    t->first0 = x->first[0];
    t->n = (uint32_t)n;
    return true;
}

/* How a located template loads the value of record r: TPL_LD_* (shift: 64
 * - its bits), or -1 when it cannot (not a byte-aligned integer or IEEE
 * float of 8 to 64 bits). */
static int tpl_loc_ld(const tracerd_ctf_field_t *r, unsigned op, uint8_t *shift)
{
    const tracerd_ctf_type_t *ty = r->type;
    unsigned sz = ty->size_bits, lg = sz == 8 ? 0 : sz == 16 ? 1 : sz == 32 ? 2 : sz == 64 ? 3 : 4;
    if (lg == 4 || ty->align_bits % 8 != 0 || ty->bit_order_reversed)
        return -1;
    if (op == TPL_F64 && (ty->kind != TRACERD_CTF_TYPE_FLOAT ||
                          !((sz == 32 && ty->exp_dig == 8 && ty->mant_dig == 24) ||
                            (sz == 64 && ty->exp_dig == 11 && ty->mant_dig == 53))))
        return -1;
    if (op != TPL_F64 && ty->kind != TRACERD_CTF_TYPE_INT && ty->kind != TRACERD_CTF_TYPE_ENUM)
        return -1;
    *shift = (uint8_t)(64u - sz);
    return (int)(lg | (ty->byte_order == TRACERD_BYTE_ORDER_BIG ? TPL_LD_BE : 0u) |
                 (op != TPL_F64 && r->kind == TRACERD_CTF_VALUE_INT ? TPL_LD_SIGNED : 0u));
}

/* The bits of located value v at b (8 bytes from b lie in the input:
 * located.h): an integer sign-extended, a float's bits. */
static TPL_INLINE uint64_t tpl_loc_bits(const struct tpl_val *v, const uint8_t *b)
{
    /* its bits at the top of a word (one load and a shift or a byte swap
     * on either kind of host), then down */
    uint64_t w = TPL_LIKELY(!(v->ld & TPL_LD_BE)) ? tracerd__le64(b) << v->shift : tracerd__be64(b);
    return v->ld & TPL_LD_SIGNED ? (uint64_t)((int64_t)w >> v->shift) : w >> v->shift;
}

/* The double of located float v of bits w (32 or 64 of them). */
static inline double tpl_loc_f64(const struct tpl_val *v, uint64_t w)
{
    if ((v->ld & TPL_LD_BYTES) == 3) {
        double d;
        memcpy(&d, &w, sizeof d);
        return d;
    }
    uint32_t u = (uint32_t)w;
    float fl;
    memcpy(&fl, &u, sizeof fl);
    return fl;
}

/* The text of a text array of n bytes at b: up to its first NUL. */
static inline size_t tpl_text_len(const uint8_t *b, size_t n)
{
    const uint8_t *z = memchr(b, 0, n);
    return z != NULL ? (size_t)(z - b) : n;
}

/* Located value v's address in an event of locations L. */
static inline const uint8_t *tpl_loc_at(const struct tpl_val *v, const tracerd__ctf_located_t *L)
{
    return L->data + (L->at[v->part] - L->off) + v->boff;
}

/* Template t, just built or found for records f[0, n) of an event the
 * reader located (x->loc, its first x->loc_nh records the header's), made
 * a located one: each value's part and offset found from its record's
 * offset, and checked to give the record's value from the event's bytes.
 * False (t unchanged but loc_tried) when a value cannot be loaded so: a
 * kind templates write through put_value, a type not loaded whole, a
 * string not where a segment's string is. */
static bool tpl_locate(struct ctx *x, tpl_t *t, const tracerd_ctf_field_t *f, size_t n)
{
    const tracerd__ctf_located_t *L = x->loc;
    const size_t nh = x->loc_nh, nparts = 2 * (size_t)L->nseg;
    t->loc_tried = true;
    if (nh == 0 || n <= nh || L->nseg > TRACERD__CTF_LOC_SEGS)
        return false;
    uint32_t nseqs = 0, nle = 0;
    for (uint32_t m = L->seqs; m != 0; m &= m - 1)
        t->seqlen[nseqs++] = L->len[__builtin_ctz(m)];
    for (uint32_t j = 0; j < t->nvals; j++) {
        struct tpl_val *v = &t->val[j];
        v->part = TPL_HDR; /* (a piece of text, or a header's value) */
        if (v->op == TPL_NONE)
            continue;
        size_t i = v->rec / sizeof *f;
        const tracerd_ctf_field_t *r = &f[i];
        if (i < nh)
            continue;
        if (v->op == TPL_ENUM)
            t->enum_val[nle++] = (uint16_t)j;
        if (v->op != TPL_U64 && v->op != TPL_I64 && v->op != TPL_F64 && v->op != TPL_ENUM &&
            v->op != TPL_STR)
            return false;
        size_t k = nparts;
        while (k > 0 && L->at[k - 1] > r->offset)
            k--;
        if (k == 0 || r->offset - L->at[k - 1] > UINT16_MAX)
            return false;
        v->part = (uint8_t)(k - 1);
        v->boff = (uint16_t)(r->offset - L->at[k - 1]);
        const uint8_t *b = tpl_loc_at(v, L);
        if (v->op == TPL_STR && v->part % 2 == 0) {
            /* a text array of its segment: its text up to a NUL */
            const tracerd_ctf_type_t *ty = r->type;
            if (ty->kind != TRACERD_CTF_TYPE_ARRAY || ty->length > UINT8_MAX ||
                ty->element == NULL || ty->element->size_bits != 8 ||
                (const char *)b != r->v.str.data ||
                tpl_text_len(b, (size_t)ty->length) != r->v.str.len)
                return false;
            v->ld = TPL_LD_TEXT;
            v->shift = (uint8_t)ty->length;
            continue;
        }
        if (v->op == TPL_STR) {
            /* the string after a segment (not a sequence), whole */
            uint32_t seg = v->part / 2;
            if (v->boff != 0 || seg + 1 >= L->nseg || (L->seqs >> seg & 1u) != 0 ||
                (const char *)b != r->v.str.data || L->len[seg] != r->v.str.len)
                return false;
            v->ld = (uint8_t)seg; /* (a string's ld: its segment) */
            continue;
        }
        int ld = tpl_loc_ld(r, v->op, &v->shift);
        if (ld < 0)
            return false;
        v->ld = (uint8_t)ld;
        uint64_t w = tpl_loc_bits(v, b);
        if (v->op == TPL_F64) {
            double d = tpl_loc_f64(v, w);
            if (memcmp(&d, &r->v.f, sizeof d) != 0)
                return false;
        } else if (w != r->v.u) {
            return false;
        }
    }
    /* keyed strings' names, for their "_hex" key */
    uint32_t ns = 0;
    for (uint32_t j = 0; j < t->nvals; j++) {
        struct tpl_val *v = &t->val[j];
        if (v->op != TPL_STR || v->part == TPL_HDR)
            continue;
        if (ns == TPL_CHECKS)
            return false;
        v->aux = (uint16_t)ns;
        t->sname[ns++] = f[v->rec / sizeof *f].name;
    }
    t->nlenums = nle;
    t->form = L->form;
    t->nseg = L->nseg;
    t->seqs = L->seqs;
    t->located = true;
    tpl_loc_add(x->tpls, t, L);
    return true;
}

/* Room for what remains of template t's text from value v on (ve: after
 * the last value). */
static inline char *tpl_room(wr_t *o, const tpl_t *t, const struct tpl_val *v,
                             const struct tpl_val *ve)
{
    return wr_room(o, v < ve ? v->room : t->tail_room);
}

/* An enumeration's value r written to o (put_value) and its text kept in
 * way w of en when it fits. */
static void tpl_enum_keep(struct ctx *x, wr_t *o, struct tpl_enum *en, size_t w,
                          const tracerd_ctf_field_t *r)
{
    char buf[TPL_ENUM_TEXT + 256]; /* room for put_value's largest ask (jc_put's) */
    wr_t t;
    wr_init_fixed(&t, buf, sizeof buf);
    put_value(x, &t, r, false);
    if (t.failed || t.len > TPL_ENUM_TEXT) {
        put_value(x, o, r, false);
        return;
    }
    memcpy(en->way[w].text, buf, t.len);
    en->way[w].len = (uint8_t)t.len;
    en->way[w].value = r->v.u;
    wr_put(o, buf, t.len);
}

/* Is the text of value u of template t's enumeration e kept? */
static inline bool tpl_enum_kept(const tpl_t *t, uint32_t e, uint64_t u)
{
    const struct tpl_enum *en = &t->enums[e];
    size_t w = (size_t)(u % TPL_ENUM_WAYS);
    return en->way[w].len != 0 && en->way[w].value == u;
}

/* The text of an event that matches template t: its pieces and their
 * integers written into room asked once (other values through put_value,
 * after which room is asked again); the writer's levels as after the
 * records. Its values are those of records f[0, ...), or (located, a
 * constant in each copy) those at the event's locations L but for the
 * header's (in f): then every enumeration's text is kept (the caller
 * checked) and no value takes put_value. */
static TPL_INLINE void tpl_write_any(struct ctx *x, wr_t *o, tpl_t *t, const tracerd_ctf_field_t *f,
                                     const tracerd__ctf_located_t *L, const bool located)
{
    const struct tpl_val *v = t->val, *const ve = v + t->nvals;
    char *p = tpl_room(o, t, v, ve);
    for (; v < ve; v++) {
        const tracerd_ctf_field_t *r =
            (const tracerd_ctf_field_t *)(const void *)((const char *)f + v->rec);
        memcpy(p, v->text, TPL_SHORT); /* (room for it: tpl_room) */
        p += v->len;
        const bool here = located && v->part != TPL_HDR; /* (NONE: TPL_HDR) */
        const uint8_t *b = here ? tpl_loc_at(v, L) : NULL;
        uint64_t u = !here ? r->v.u : v->op != TPL_STR ? tpl_loc_bits(v, b) : 0;
        if (TPL_LIKELY(v->op <= TPL_I64)) { /* the most common: no dispatch */
            if (v->op == TPL_I64) {
                *p = '-';
                p += (int64_t)u < 0;
                u = (int64_t)u < 0 ? (uint64_t)0 - u : u;
            }
            p += wr_fmt_u64_inline(p, u); /* (one copy: with two, gcc made it a call) */
            continue;
        }
        switch (v->op) {
        case TPL_F64:
            p += put_f64(p, here ? tpl_loc_f64(v, u) : r->v.f);
            break;
        case TPL_ENUM: {
            struct tpl_enum *en = &t->enums[v->aux];
            size_t w = (size_t)(u % TPL_ENUM_WAYS);
            if (here || (en->way[w].len != 0 && en->way[w].value == u)) { /* (here: checked) */
                memcpy(p, en->way[w].text, TPL_ENUM_TEXT);
                p += en->way[w].len;
                break;
            }
            o->len = (size_t)(p - o->buf);
            tpl_enum_keep(x, o, en, w, r);
            p = tpl_room(o, t, v + 1, ve);
            break;
        }
        case TPL_STR: { /* a keyed string (put_string_field's) */
            const char *s = here ? (const char *)b : r->v.str.data;
            size_t len = !here                  ? r->v.str.len
                         : v->ld == TPL_LD_TEXT ? tpl_text_len(b, v->shift)
                                                : (size_t)L->len[v->ld];
            o->len = (size_t)(p - o->buf);
            if (!wr_str(o, s, len))
                put_string_hex(o, here ? t->sname[v->aux] : r->name, s, len);
            p = tpl_room(o, t, v + 1, ve);
            break;
        }
        default: /* (four cases, no more: with five gcc makes a jump table, whose
                  * indirect branch, its target changing from value to value,
                  * cost more time than these tests) */
            if (v->op == TPL_NONE)
                break;
            o->len = (size_t)(p - o->buf);
            put_value(x, o, r, v->op == TPL_VALUE_KEYED);
            p = tpl_room(o, t, v + 1, ve);
            break;
        }
    }
    memcpy(p, t->tail, TPL_SHORT);
    p += t->tail_len;
    o->len = (size_t)(p - o->buf);
    x->level = 0;
    x->first[0] = t->first0;
    x->in_variant[0] = false;
    x->scope_open = false;
}

/* The two copies (each a function of its own: inlined into their callers,
 * gcc stopped inlining the integers' formatting into them) */
static TPL_NOINLINE void tpl_write(struct ctx *x, wr_t *o, tpl_t *t, const tracerd_ctf_field_t *f)
{
    tpl_write_any(x, o, t, f, NULL, false);
}

static TPL_NOINLINE void tpl_write_loc(struct ctx *x, wr_t *o, tpl_t *t,
                                       const tracerd_ctf_field_t *hdr,
                                       const tracerd__ctf_located_t *L)
{
    tpl_write_any(x, o, t, hdr, L, true);
}

/* The records of an event being written, when they start with a scope's
 * root, through a template: true when written. An event the reader located
 * and the dump declined (x->loc) makes its template a located one. */
static bool tpl_event(struct ctx *x, const tracerd_ctf_field_t *f, size_t n)
{
    tpl_t *t = tpl_find(x->tpls, x->cls, f, n);
    if (t == NULL) {
        tpl_t *b = tpl_slot(x->tpls, x->cls, n);
        if (!tpl_build(x, b, f, n))
            return false;
        b->cls = x->cls;
        t = b;
    }
    if (x->loc != NULL && !t->loc_tried)
        tpl_locate(x, t, f, n);
    tpl_write(x, x->c->wr, t, f);
    return true;
}

/* The reader located an event (libtracerd/ctf/located.h): written by its
 * located template when it has one whose enumerations' texts are kept for
 * its values, else declined (its records follow, and make one). */
static int on_located(void *user, const tracerd_ctf_field_t *hdr, size_t nh,
                      const tracerd__ctf_located_t *L)
{
    struct ctx *x = user;
    tpl_t *t;
    if (x->skip || x->undecided || x->cls == NULL || x->tpls == NULL || nh == 0 ||
        (t = tpl_loc_find(x->tpls, x->cls, L)) == NULL)
        goto decline;
    for (uint32_t e = 0; e < t->nlenums; e++) {
        const struct tpl_val *v = &t->val[t->enum_val[e]];
        if (!tpl_enum_kept(t, v->aux, tpl_loc_bits(v, tpl_loc_at(v, L))))
            goto decline;
    }
    tpl_write_loc(x, x->c->wr, t, hdr, L);
    return 0;
decline:
    x->loc = L;
    x->loc_nh = nh;
    return TRACERD__CTF_LOC_DECLINED;
}

/* A dump's fields, a batch at a time (one call per event on whole packets):
 * those of an event being written here (through a template when they
 * make one), the rest in field_other. */
static int on_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    struct ctx *x = user;
    if (f[0].depth == 0 && f[0].kind == TRACERD_CTF_VALUE_STRUCT_BEGIN &&
        f[0].scope > TRACERD_CTF_SCOPE_PACKET_CONTEXT && !x->skip && !x->undecided &&
        x->cls != NULL && x->tpls != NULL && tpl_event(x, f, n))
        return 0;
    for (size_t i = 0; i < n; i++) {
        int k = x->skip || x->undecided || f[i].scope <= TRACERD_CTF_SCOPE_PACKET_CONTEXT
                    ? field_other(x, f + i)
                    : field_write(x, x->c->wr, f + i);
        if (k != 0)
            return k;
    }
    return 0;
}

/* ---- dump ------------------------------------------------------------------ */

/* The callbacks, the dump's tables and its filter (CTF is read in time
 * order: past --end, reading stops). */
static int dump_setup(void *user, tracerd_ctf_callbacks_t *cb)
{
    struct ctx *x = user;
    tracerd_ctf_callbacks_init(cb);
    cb->on_packet_begin = on_packet;
    cb->on_event_begin = on_event;
    cb->on_event_end = on_event_end;
    cb->on_fields = on_fields;
    cb->on_loss = on_loss;
    cb->on_warning = on_warning;
    x->names = cli_calloc(1, sizeof *x->names);
    x->classes = cli_calloc(1, sizeof *x->classes);
    /* TRACERD_CLI_NO_TEMPLATES=1: no templates (the tests compare the two) */
    const char *nt = getenv("TRACERD_CLI_NO_TEMPLATES");
    x->no_tpl = nt != NULL && strcmp(nt, "1") == 0;
    x->tpls = x->no_tpl ? NULL : cli_calloc(1, sizeof *x->tpls);
    if (x->names == NULL || x->classes == NULL || (x->tpls == NULL && !x->no_tpl))
        return cli_oom(x->c, "dump tables");
    x->need_ids = cli_filter_given(x->c, "--pid") || cli_filter_given(x->c, "--tid");
    return cli_dump_filter_init(x->c, &x->flt, true);
}

/* The reader is open: a filtered directory's table of each stream's cpu. */
static int dump_opened(void *user, tracerd_ctf_dir_t *d, const char *metadata,
                       const tracerd_ctf_trace_t *t)
{
    struct ctx *x = user;
    (void)metadata;
    x->dir = d;
    if (d == NULL) {
        x->trace = t;
        x->stream_path = x->c->path;
        return CLI_EXIT_OK;
    }
    if (x->flt.f == NULL)
        return CLI_EXIT_OK;
    x->nstream_cpu = tracerd_ctf_dir_stream_count(d);
    x->stream_cpu = cli_calloc(x->nstream_cpu ? x->nstream_cpu : 1, sizeof *x->stream_cpu);
    if (x->stream_cpu == NULL)
        return cli_oom(x->c, "stream table");
    for (uint32_t i = 0; i < x->nstream_cpu; i++)
        x->stream_cpu[i] = -1;
    return CLI_EXIT_OK;
}

/* Reading ended: the packet line still open is closed; stopped past --end
 * is no error. */
static tracerd_status_t dump_ended(void *user, tracerd_status_t st)
{
    struct ctx *x = user;
    st = cli_dump_status(&x->flt, st);
    close_packet(x);
    return st;
}

static int dump(cli_t *c)
{
    int rc = cli_out_start(c);
    if (rc != CLI_EXIT_OK)
        return rc;
    struct ctx *x = cli_calloc(1, sizeof *x);
    if (x == NULL)
        return cli_out_end(c, cli_oom(c, "reader context"));
    x->c = c;
    /* TRACERD_CLI_NO_LOCATED=1 (or no templates): every event's records
     * made (the tests compare the two) */
    const char *nl = getenv("TRACERD_CLI_NO_LOCATED"), *nt = getenv("TRACERD_CLI_NO_TEMPLATES");
    const bool located =
        !(nl != NULL && strcmp(nl, "1") == 0) && !(nt != NULL && strcmp(nt, "1") == 0);
    const ctf_cmd_t cmd = {x,          dump_setup, 0,    dump_opened,
                           dump_ended, NULL,       NULL, located ? on_located : NULL};
    rc = ctf_run(c, &cmd);
    cli_dump_filter_free(&x->flt);
    cli_free(x->stream_cpu);
    cli_free(x->names);
    cli_free(x->classes);
    cli_free(x->tpls);
    cli_free(x);
    return cli_out_end(c, rc);
}

/* ---- the runners (ctf_run.h) ------------------------------------------------ */

static tracerd_status_t cmd_ended(const ctf_cmd_t *cmd, tracerd_status_t st)
{
    return cmd->ended ? cmd->ended(cmd->user, st) : st;
}

static void cmd_done(const ctf_cmd_t *cmd, tracerd_status_t st)
{
    if (cmd->done)
        cmd->done(cmd->user, st);
}

/* The reader's configuration (-o ctf.KEY=VALUE, the command's scopes). */
static int stream_config(cli_t *c, const ctf_cmd_t *cmd, tracerd_ctf_stream_config_t *scfg)
{
    int orc = cli_config_ctf(c, scfg);
    if (cmd->field_scopes)
        scfg->field_scopes = cmd->field_scopes;
    return orc;
}

static int run_dir(cli_t *c, const ctf_cmd_t *cmd)
{
    tracerd_ctf_callbacks_t cb;
    int rc = cmd->setup(cmd->user, &cb);
    if (rc != CLI_EXIT_OK)
        return rc;
    tracerd_ctf_dir_config_t cfg;
    tracerd_ctf_dir_config_init(&cfg);
    tracerd_ctf_stream_config_t scfg;
    rc = stream_config(c, cmd, &scfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    cfg.stream = &scfg;
    cfg.metadata = cmd->metadata;
    if (c->chunk)
        cfg.chunk_bytes = c->chunk < 64 ? 64 : c->chunk;
    map_files_t files;
    map_dir_config(c, &files, &cfg);
    tracerd_ctf_dir_t *d = NULL;
    tracerd_status_t st = tracerd_ctf_dir_open(c->path, &cfg, &cb, cmd->user, NULL, &d);
    if (st == TRACERD_OK) /* (out of memory: records, as without it) */
        (void)tracerd__ctf_dir_set_located(d, cmd->located);
    if (st == TRACERD_OK && cmd->opened) {
        rc = cmd->opened(cmd->user, d, NULL, NULL);
        if (rc != CLI_EXIT_OK) {
            tracerd_ctf_dir_free(d);
            return rc;
        }
    }
    if (st == TRACERD_OK)
        while ((st = tracerd_ctf_dir_run(d)) == TRACERD_PAUSED)
            ;
    st = cmd_ended(cmd, st);
    const char *reason = d ? tracerd_ctf_dir_error_reason(d) : tracerd_status_message(st);
    map_dir_failed(c, &st, &reason);
    if (st != TRACERD_OK && c->oom) { /* said when it happened (cli_oom) */
        cli_out_stop(c);
        rc = CLI_EXIT_IO;
    } else if (st != TRACERD_OK) {
        cli_report_in(c, d ? tracerd_ctf_dir_error_path(d) : NULL, "ctf", st,
                      d ? tracerd_ctf_dir_error_offset(d) : 0, reason);
        rc = st == TRACERD_E_IO ? CLI_EXIT_IO : CLI_EXIT_TRACE;
    }
    cmd_done(cmd, st);
    tracerd_ctf_dir_free(d);
    return rc;
}

static int read_metadata(cli_t *c, const char *path, const tracerd_ctf_metadata_config_t *mcfg,
                         tracerd_ctf_trace_t **out)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", c->prog, path, strerror(errno));
        return CLI_EXIT_IO;
    }
    tracerd_ctf_metadata_t *m;
    if (tracerd_ctf_metadata_new(mcfg, NULL, &m) != TRACERD_OK) {
        close(fd);
        return CLI_EXIT_IO;
    }
    uint8_t buf[65536];
    tracerd_status_t st = TRACERD_OK;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        st = tracerd_ctf_metadata_feed(m, buf, (size_t)n);
        if (st != TRACERD_OK)
            break;
    }
    close(fd);
    if (st == TRACERD_OK)
        st = tracerd_ctf_metadata_finish(m, out);
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s: %s: ctf metadata error %s at byte %llu: %s\n", c->prog, path,
                tracerd_status_name(st), (unsigned long long)tracerd_ctf_metadata_record_offset(m),
                tracerd_ctf_metadata_error_reason(m));
        tracerd_ctf_metadata_free(m);
        return CLI_EXIT_TRACE;
    }
    tracerd_ctf_metadata_free(m);
    return CLI_EXIT_OK;
}

/* A single stream file with its metadata (given, or the file beside it). */
static int run_stream(cli_t *c, const ctf_cmd_t *cmd, const char *mpath)
{
    tracerd_ctf_trace_t *t = NULL;
    int rc = read_metadata(c, mpath, cmd->metadata, &t);
    if (rc != CLI_EXIT_OK)
        return rc;
    tracerd_ctf_callbacks_t cb;
    rc = cmd->setup(cmd->user, &cb);
    if (rc != CLI_EXIT_OK) {
        tracerd_ctf_trace_free(t);
        return rc;
    }
    tracerd_ctf_stream_config_t scfg;
    int orc = stream_config(c, cmd, &scfg);
    tracerd_ctf_stream_t *r = NULL;
    tracerd_status_t st = orc == CLI_EXIT_OK
                              ? tracerd_ctf_stream_new(t, &scfg, &cb, cmd->user, NULL, &r)
                              : TRACERD_E_INVALID;
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s: %s: %s\n", c->prog, c->path, tracerd_status_message(st));
        tracerd_ctf_trace_free(t);
        return CLI_EXIT_TRACE;
    }
    (void)tracerd__ctf_stream_set_located(r, cmd->located);
    if (cmd->opened && (rc = cmd->opened(cmd->user, NULL, mpath, t)) != CLI_EXIT_OK) {
        tracerd_ctf_stream_free(r);
        tracerd_ctf_trace_free(t);
        return rc;
    }
    st = cmd_ended(cmd, cli_pump(c, tracerd_ctf_stream_ops(), r));
    if (st != TRACERD_OK) {
        if (st != TRACERD_E_IO) {
            const char *path = tracerd_ctf_stream_error_path(r);
            char reason[512];
            snprintf(reason, sizeof reason, "%s%s%s", tracerd_ctf_stream_error_reason(r),
                     *path ? " (field " : "", *path ? path : "");
            if (*path)
                strncat(reason, ")", sizeof reason - strlen(reason) - 1);
            cli_report(c, "ctf", st, tracerd_ctf_stream_record_offset(r), reason);
        }
        rc = st == TRACERD_E_IO ? CLI_EXIT_IO : CLI_EXIT_TRACE;
    }
    cmd_done(cmd, st);
    tracerd_ctf_stream_free(r);
    tracerd_ctf_trace_free(t);
    return rc;
}

int ctf_run(cli_t *c, const ctf_cmd_t *cmd)
{
    if (c->is_dir)
        return run_dir(c, cmd);
    char guess[4096];
    const char *mpath = c->metadata;
    if (mpath == NULL) {
        /* the `metadata` file beside the stream */
        const char *slash = strrchr(c->path, '/');
        if (slash)
            snprintf(guess, sizeof guess, "%.*s/metadata", (int)(slash - c->path), c->path);
        else
            snprintf(guess, sizeof guess, "metadata");
        mpath = guess;
        if (access(mpath, R_OK) != 0) {
            fprintf(stderr, "%s: %s: a CTF stream needs --metadata PATH\n", c->prog, c->path);
            return CLI_EXIT_USAGE;
        }
    }
    return run_stream(c, cmd, mpath);
}

static int set_metadata(cli_t *c, const char *value)
{
    c->metadata = value;
    return CLI_EXIT_OK;
}

static const struct cli_flag flags[] = {
    {"metadata", "PATH", "CTF metadata for a single stream file", set_metadata},
    {NULL, NULL, NULL, NULL},
};

const struct cli_format cli_format_ctf = {
    .name = "ctf",
    .detect = detect,
    .info = ctf_info,
    .dump = dump,
    .options = options,
    .options_help = "ctf.check-uuid=yes|no, ctf.stitch-bytes=N",
    .flags = flags,
};
