/* `tracerd info` on CTF: a trace directory or a single stream file (read by
 * fmt_ctf.c's runners, ctf_run.h): each trace's metadata, then the packets,
 * the events by event class name, the losses, the cpus, the distinct thread
 * ids of the contexts and the time span. See doc/formats/ctf.md. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <tracerd/ctf.h>

#include "cli.h"
#include "ctf_run.h"

struct evcount {
    const char *name;
    uint64_t n;
};

#define TID_SLOTS 65536u
#define CLASS_SLOTS 256u
#define NO_COUNT UINT32_MAX

struct info {
    cli_t *c;
    uint64_t events, packets, lost_events, lost_packets, losses;
    uint64_t warnings; /* lenient packet skips */
    uint64_t first_ns, last_ns;
    bool any_ns;
    struct evcount counts[512];
    size_t ncounts;
    /* event class -> its name's entry in counts (NO_COUNT: the table was
     * full), direct-mapped: the name is looked up once per class */
    struct {
        const tracerd_ctf_event_class_t *cls;
        uint32_t count;
    } cls[CLASS_SLOTS];
    uint64_t cpus; /* bit set of cpu_id values < 64 */
    uint64_t cpu_other;
    /* distinct vtid/tid values of the contexts */
    uint64_t *tids; /* open addressing, 0 = empty (values stored + 1) */
    size_t ntids;
    bool tids_full;
    uint64_t last_tid; /* the last id seen, + 1 */
};

/* info reads no field: the thread ids come as the events' values (value
 * slots), the context integers named vtid or tid (ctf_name_meaning's
 * CTF_NAME_TID), both contexts; the reader stays on its fast path. */
static const tracerd_ctf_value_name_t INFO_VALUES[] = {
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "vtid"},
    {TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT, "tid"},
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "vtid"},
    {TRACERD_CTF_SCOPE_EVENT_CONTEXT, "tid"},
};

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    struct info *x = user;
    x->packets++;
    if (p->has_cpu_id) {
        if (p->cpu_id < 64)
            x->cpus |= (uint64_t)1 << p->cpu_id;
        else
            x->cpu_other++;
    }
    return 0;
}

static int on_loss(void *user, const tracerd_ctf_loss_t *l)
{
    struct info *x = user;
    x->losses++;
    if (l->kind == TRACERD_CTF_LOSS_EVENTS)
        x->lost_events += l->count;
    else
        x->lost_packets += l->count;
    return 0;
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    struct info *x = user;
    x->warnings += w->count;
    const cli_warn_sink_t sink = {NULL, "type", "ctf", NULL};
    return cli_warning(x->c, &sink, w);
}

/* The entry of name in counts (made, with no events yet), or NO_COUNT when
 * it is not there and the table is full (it stays full). */
static uint32_t count_of(struct info *x, const char *name)
{
    size_t i = 0;
    while (i < x->ncounts && x->counts[i].name != name && strcmp(x->counts[i].name, name))
        i++;
    if (i == x->ncounts) {
        if (x->ncounts == sizeof x->counts / sizeof x->counts[0])
            return NO_COUNT;
        x->counts[x->ncounts].name = name;
        x->counts[x->ncounts++].n = 0;
    }
    return (uint32_t)i;
}

/* Counts thread id v (a vtid or tid context value) among the distinct ones. */
static void tid_add(struct info *x, uint64_t v)
{
    uint64_t key = v + 1;
    if (key == x->last_tid)
        return;
    x->last_tid = key;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 48) & (TID_SLOTS - 1);
    for (size_t probe = 0; probe < TID_SLOTS; probe++, h = (h + 1) & (TID_SLOTS - 1)) {
        if (x->tids[h] == key)
            return;
        if (x->tids[h] == 0) {
            if (x->ntids >= TID_SLOTS / 2) {
                x->tids_full = true;
                return;
            }
            x->tids[h] = key;
            x->ntids++;
            return;
        }
    }
}

/* An event, once its contexts were read (the reader's one callback per
 * event): counted by its class's name, its time, and the thread ids of its
 * contexts (the integers named vtid or tid: value slots, INFO_VALUES). */
static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    struct info *x = user;
    x->events++;
    if (e->has_clock) {
        if (!x->any_ns || e->ns < x->first_ns)
            x->first_ns = e->ns;
        if (!x->any_ns || e->ns > x->last_ns)
            x->last_ns = e->ns;
        x->any_ns = true;
    }
    size_t h = (size_t)(((uint64_t)(uintptr_t)e->cls >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 56);
    if (x->cls[h].cls != e->cls || e->cls == NULL) {
        x->cls[h].cls = e->cls;
        x->cls[h].count = count_of(x, e->name);
    }
    if (x->cls[h].count != NO_COUNT)
        x->counts[x->cls[h].count].n++;
    for (uint32_t set = e->values_set; set != 0; set &= set - 1)
        tid_add(x, e->values[__builtin_ctz(set)]);
    return 0;
}

static int setup(void *user, tracerd_ctf_callbacks_t *cb)
{
    struct info *x = user;
    tracerd_ctf_callbacks_init(cb);
    cb->on_packet_begin = on_packet;
    cb->on_event_end = on_event_end;
    cb->on_loss = on_loss;
    cb->on_warning = on_warning;
    x->tids = cli_calloc(TID_SLOTS, sizeof *x->tids);
    return x->tids == NULL ? cli_oom(x->c, "thread table") : CLI_EXIT_OK;
}

static const char *bo_name(tracerd_byte_order_t b)
{
    return b == TRACERD_BYTE_ORDER_BIG ? "big-endian" : "little-endian";
}

static void print_trace_info(FILE *f, const char *where, const tracerd_ctf_trace_t *t)
{
    const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
    fprintf(f, "trace:         %s\n", where);
    if (in->major == 2) {
        fprintf(f, "  version:     CTF 2, %zu bytes of JSON metadata in %u fragments\n",
                in->metadata_bytes, in->nfragments);
        if (in->ns || in->name || in->uid)
            fprintf(f, "  trace class: namespace %s, name %s, uid %s\n", in->ns ? in->ns : "-",
                    in->name && in->name[0] ? in->name : "-", in->uid ? in->uid : "-");
    } else {
        fprintf(f, "  version:     CTF %u.%u, %s, %zu bytes of TSDL\n", in->major, in->minor,
                bo_name(in->byte_order), in->metadata_bytes);
    }
    if (in->has_uuid) {
        fprintf(f, "  uuid:        ");
        for (int i = 0; i < 16; i++)
            fprintf(f, "%02x%s", in->uuid[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
        fprintf(f, "\n");
    }
    for (uint32_t i = 0; i < in->nclocks; i++) {
        const tracerd_ctf_clock_t *k = &in->clocks[i];
        fprintf(f,
                "  clock:       %s, %" PRIu64 " Hz, offset %" PRId64 " s + %" PRId64 " cycles%s\n",
                k->name, k->freq, k->offset_s, k->offset,
                in->major == 2 ? (k->absolute ? ", origin: Unix epoch" : "")
                : k->absolute  ? ", absolute"
                               : "");
        if (in->major != 2)
            continue;
        if (k->origin_name)
            fprintf(f, "    origin:    namespace %s, name %s, uid %s\n",
                    k->origin_ns ? k->origin_ns : "-", k->origin_name,
                    k->origin_uid ? k->origin_uid : "-");
        else if (!k->absolute)
            fprintf(f, "    origin:    unknown\n");
        if (k->ns || k->uid)
            fprintf(f, "    identity:  namespace %s, uid %s\n", k->ns ? k->ns : "-",
                    k->uid ? k->uid : "-");
        if (k->has_precision || k->has_accuracy) {
            fprintf(f, "    error:    ");
            if (k->has_precision)
                fprintf(f, " precision %" PRIu64 " cycles", k->precision);
            if (k->has_accuracy)
                fprintf(f, " accuracy %" PRIu64 " cycles", k->accuracy);
            fprintf(f, "\n");
        }
    }
    const char *keys[] = {"hostname", "domain", "tracer_name", "procname"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = tracerd_ctf_trace_env(t, keys[i]);
        if (v)
            fprintf(f, "  %-12s %s\n", keys[i], v);
    }
    for (uint32_t i = 0; in->major == 2 && i < in->nstreams; i++) {
        const tracerd_ctf_stream_class_t *sc = in->streams[i];
        if (sc->ns || sc->name || sc->uid || sc->default_clock >= 0)
            fprintf(f, "  stream class %" PRIu64 ": namespace %s, name %s, uid %s, clock %s\n",
                    sc->id, sc->ns ? sc->ns : "-", sc->name ? sc->name : "-",
                    sc->uid ? sc->uid : "-",
                    sc->default_clock >= 0 ? in->clocks[sc->default_clock].id : "-");
    }
    fprintf(f, "  classes:     %u stream class%s, %u event class%s\n", in->nstreams,
            in->nstreams == 1 ? "" : "es", in->nevents, in->nevents == 1 ? "" : "es");
}

/* The reader is open: the input's kind and each trace's metadata. */
static int opened(void *user, tracerd_ctf_dir_t *d, const char *metadata,
                  const tracerd_ctf_trace_t *t)
{
    struct info *x = user;
    FILE *f = x->c->out;
    if (d == NULL) {
        fprintf(f, "format:        CTF data stream\n");
        print_trace_info(f, metadata, t);
        return CLI_EXIT_OK;
    }
    fprintf(f, "format:        CTF trace directory\n");
    fprintf(f, "streams:       %u\n", tracerd_ctf_dir_stream_count(d));
    for (uint32_t i = 0; i < tracerd_ctf_dir_trace_count(d); i++)
        print_trace_info(f, tracerd_ctf_dir_trace_path(d, i), tracerd_ctf_dir_trace(d, i));
    return CLI_EXIT_OK;
}

/* The summary, after any error (a directory's: when something was read). */
static void done(void *user, tracerd_status_t st)
{
    struct info *x = user;
    if (x->c->is_dir && st != TRACERD_OK && x->events == 0)
        return;
    FILE *f = x->c->out;
    fprintf(f, "packets:       %" PRIu64 "\n", x->packets);
    fprintf(f, "events:        %" PRIu64 "\n", x->events);
    for (size_t i = 0; i < x->ncounts; i++)
        fprintf(f, "  %-40s %" PRIu64 "\n", x->counts[i].name, x->counts[i].n);
    if (x->lost_events || x->lost_packets)
        fprintf(f, "lost:          %" PRIu64 " events discarded, %" PRIu64 " packets lost\n",
                x->lost_events, x->lost_packets);
    if (x->warnings)
        fprintf(f, "skipped:       %" PRIu64 " damaged packets (lenient)\n", x->warnings);
    if (x->cpus || x->cpu_other) {
        unsigned n = 0;
        for (int i = 0; i < 64; i++)
            n += (unsigned)((x->cpus >> i) & 1u);
        fprintf(f, "cpus:          %u\n", n + (unsigned)(x->cpu_other ? 1 : 0));
    }
    if (x->ntids)
        fprintf(f, "threads:       %zu%s (distinct vtid/tid context values)\n", x->ntids,
                x->tids_full ? "+" : "");
    if (x->any_ns) {
        uint64_t span = x->last_ns - x->first_ns;
        fprintf(f,
                "time span:     %" PRIu64 ".%09" PRIu64 " .. %" PRIu64 ".%09" PRIu64
                " s since the Epoch (%" PRIu64 ".%09" PRIu64 " s)\n",
                x->first_ns / 1000000000u, x->first_ns % 1000000000u, x->last_ns / 1000000000u,
                x->last_ns % 1000000000u, span / 1000000000u, span % 1000000000u);
    }
}

int ctf_info(cli_t *c)
{
    struct info *x = cli_calloc(1, sizeof *x);
    if (x == NULL)
        return cli_oom(c, "reader context");
    x->c = c;
    tracerd_ctf_metadata_config_t mcfg;
    tracerd_ctf_metadata_config_init(&mcfg);
    mcfg.value_names = INFO_VALUES;
    mcfg.nvalue_names = sizeof INFO_VALUES / sizeof INFO_VALUES[0];
    const ctf_cmd_t cmd = {x, setup, 0, opened, NULL, done, &mcfg, NULL};
    int rc = ctf_run(c, &cmd);
    cli_free(x->tids);
    cli_free(x);
    return rc;
}
