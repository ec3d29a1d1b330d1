/* What the event view's CTF events take besides their records (see
 * ctf_evsrc.h). */
#include "ctf_evsrc.h"

#include "writer.h"

int ctf_evsrc_send(struct ctf_evsrc *s)
{
    s->source_sent = true;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    const tracerd_ctf_dir_stream_t *d = tracerd_ctf_dir_current(s->dir);
    const tracerd_ctf_trace_t *t = d != NULL ? d->trace : NULL;
    if (t != NULL) {
        const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
        src.version = in->major * 100u + in->minor;
        src.byte_order = in->byte_order;
        src.ticks_per_second = in->nclocks > 0 ? in->clocks[0].freq : 0;
    }
    src.format = TRACERD_EVENT_FORMAT_CTF;
    src.format_name = tracerd_event_format_name(TRACERD_EVENT_FORMAT_CTF);
    struct ev_run *r = s->run;
    r->format = src.format;
    r->ticks_per_second = src.ticks_per_second;
    return r->on_source != NULL ? r->on_source(r->user, &src) : 0;
}

int ctf_evsrc_packet(struct ctf_evsrc *s, const tracerd_ctf_packet_t *p)
{
    const tracerd_ctf_dir_stream_t *d = tracerd_ctf_dir_current(s->dir);
    if (d != NULL && d->index < s->nstream_cpu)
        s->stream_cpu[d->index] = p->has_cpu_id ? (int64_t)(uint32_t)p->cpu_id : -1;
    return ctf_evsrc_source(s);
}

tracerd_status_t ctf_evsrc_open(struct ctf_evsrc *s, cli_t *c, map_files_t *files,
                                const tracerd_ctf_callbacks_t *cb, void *user,
                                const tracerd_ctf_stream_config_t *sc,
                                const tracerd_ctf_metadata_config_t *mc)
{
    tracerd_ctf_dir_config_t dc;
    tracerd_ctf_dir_config_init(&dc);
    dc.stream = sc;
    dc.metadata = mc;
    map_dir_config(c, files, &dc);
    return tracerd_ctf_dir_open(c->path, &dc, cb, user, NULL, &s->dir);
}

int ctf_evsrc_warning(struct ctf_evsrc *s, const tracerd_warning_t *w)
{
    static const cli_warn_sink_t sink = {NULL, NULL, NULL, NULL};
    return cli_warning(s->run->c, &sink, w);
}

tracerd_status_t ctf_evsrc_opened(struct ctf_evsrc *s)
{
    uint32_t n = tracerd_ctf_dir_stream_count(s->dir);
    s->stream_cpu = cli_calloc((size_t)n + 1u, sizeof *s->stream_cpu);
    if (s->stream_cpu == NULL)
        return TRACERD_E_NOMEM;
    s->nstream_cpu = n;
    for (uint32_t i = 0; i < n; i++)
        s->stream_cpu[i] = -1;
    return TRACERD_OK;
}

void ctf_evsrc_free(struct ctf_evsrc *s)
{
    cli_free(s->stream_cpu);
    s->stream_cpu = NULL;
    s->nstream_cpu = 0;
}

tracerd_str_t ctf_evsrc_category_of(struct ctf_evsrc *s, const tracerd_ctf_trace_t *t)
{
    const char *domain = t != NULL ? tracerd_ctf_trace_env(t, "domain") : NULL;
    s->category.data = domain != NULL ? domain : "ctf";
    s->category.len = strlen(s->category.data);
    s->cat_trace = t;
    return s->category;
}

tracerd_str_t ctf_evsrc_addr_name(char *buf, uint64_t addr)
{
    buf[0] = '0';
    buf[1] = 'x';
    tracerd_str_t n = {buf, 2 + wr_fmt_x64(buf + 2, addr)};
    return n;
}
