/* `tracerd info --json`: one JSON object with the same keys for every
 * format, read through the event view (doc/tracerd.1, "info"): format,
 * version, byte order, clock, time span, event counts by kind, processes,
 * threads, CPUs. Memory: the thread table (EV_MAX_THREADS) and a process
 * table, never the trace. */
#include <string.h>

#include "evrun.h"

#define KINDS 19u /* tracerd_event_kind_t values 1..18 */

struct ij {
    cli_t *c;
    tracerd_event_source_t src;
    bool has_src;
    struct ev_threads threads;
    struct ev_table pids;
    uint32_t npids;
    uint64_t events, untimed, kinds[KINDS];
    uint64_t first, last;
    bool any_ts, ns;
    uint64_t cpus[4]; /* bit set of CPUs 0..255 seen */
    bool cpu_over;
};

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct ij *s = user;
    s->src = *src;
    s->has_src = true;
    return 0;
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct ij *s = user;
    s->events++;
    if ((unsigned)ev->kind < KINDS)
        s->kinds[ev->kind]++;
    if (ev->flags & TRACERD_EVENT_HAS_PID) {
        bool ins;
        if (ev_table_get(&s->pids, ev->pid, 0, s->npids, &ins) == UINT32_MAX)
            return cli_oom(s->c, "process table"), -1;
        s->npids += ins;
    }
    if ((ev->flags & TRACERD_EVENT_HAS_TID) && ev_thread_of(&s->threads, ev) == NULL)
        return cli_oom(s->c, "thread table"), -1;
    if (ev->flags & TRACERD_EVENT_HAS_CPU) {
        if (ev->cpu < 256)
            s->cpus[ev->cpu / 64] |= 1ull << (ev->cpu % 64);
        else
            s->cpu_over = true;
    }
    if (ev->flags & TRACERD_EVENT_NO_TIME) {
        s->untimed++;
        return 0;
    }
    uint64_t t = ev_time(ev);
    uint64_t e = t;
    if (ev->kind == TRACERD_EVENT_SPAN_COMPLETE)
        e = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
    if (!s->any_ts || t < s->first)
        s->first = t;
    if (!s->any_ts || e > s->last)
        s->last = e;
    s->any_ts = true;
    s->ns = (ev->flags & TRACERD_EVENT_HAS_NS) != 0;
    return 0;
}

static void report(struct ij *s)
{
    /* JSON text through the CLI's writer (escaping and UTF-8 repair as dump's) */
    fflush(s->c->out);
    wr_t w, *f = &w;
    if (wr_init(&w, fileno(s->c->out), 4096) != 0)
        return;
    wr_cstr(f, "{\"trace\":");
    cli_json_cstr(f, s->c->path);
    if (s->has_src)
        wr_printf(
            f, ",\"format\":\"%s\",\"version\":%u,\"byte_order\":\"%s\",\"ticks_per_second\":%llu",
            s->src.format_name, (unsigned)s->src.version,
            tracerd_byte_order_name(s->src.byte_order),
            (unsigned long long)s->src.ticks_per_second);
    else
        wr_cstr(f,
                ",\"format\":null,\"version\":null,\"byte_order\":null,\"ticks_per_second\":null");
    wr_printf(f, ",\"time_unit\":\"%s\"", s->ns ? "ns" : "ticks");
    if (s->any_ts) {
        wr_printf(f, ",\"time_begin\":%llu,\"time_end\":%llu", (unsigned long long)s->first,
                  (unsigned long long)s->last);
        if (s->ns)
            wr_printf(f, ",\"time_span_ns\":%llu", (unsigned long long)(s->last - s->first));
        else
            wr_cstr(f, ",\"time_span_ns\":null");
    } else {
        wr_cstr(f, ",\"time_begin\":null,\"time_end\":null,\"time_span_ns\":null");
    }
    unsigned ncpu = 0;
    for (int i = 0; i < 4; i++)
        ncpu += (unsigned)__builtin_popcountll(s->cpus[i]);
    wr_printf(f, ",\"events\":%llu,\"events_without_time\":%llu,\"processes\":%u,\"threads\":%u,",
              (unsigned long long)s->events, (unsigned long long)s->untimed, (unsigned)s->npids,
              (unsigned)s->threads.n);
    if (s->cpu_over)
        wr_cstr(f, "\"cpus\":null");
    else
        wr_printf(f, "\"cpus\":%u", ncpu);
    wr_cstr(f, ",\"counts\":{");
    bool first = true;
    for (unsigned k = 1; k < KINDS; k++) {
        wr_printf(f, "%s\"%s\":%llu", first ? "" : ",",
                  tracerd_event_kind_name((tracerd_event_kind_t)k),
                  (unsigned long long)s->kinds[k]);
        first = false;
    }
    wr_cstr(f, "}}\n");
    wr_flush(&w);
    wr_free(&w);
}

int cli_cmd_info_json(cli_t *c)
{
    struct ij s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.threads.max_open = c->max_open;
    struct ev_run r;
    ev_run_init(&r, c, on_event, on_source, &s);
    int rc = ev_run(&r);
    if (rc == CLI_EXIT_OK || c->timed_out)
        report(&s);
    if (c->oom)
        rc = CLI_EXIT_IO;
    ev_threads_free(&s.threads);
    ev_table_free(&s.pids);
    return rc;
}
