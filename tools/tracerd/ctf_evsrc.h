/* What the event view's CTF events take from the directory reader besides
 * their field records (libtracerd/event/map_ctf.c): the source, sent once
 * from the trace of the stream read first; the cpu of each stream's current
 * packet; the category, the trace's "domain" (else "ctf"). Shared by the
 * CLI's commands that read a CTF directory straight from the directory
 * reader and give what the event view would (stats_ctf.c, json_ctf.c). */
#ifndef TRACERD_CLI_CTF_EVSRC_H
#define TRACERD_CLI_CTF_EVSRC_H

#include <string.h>

#include <tracerd/ctf.h>

#include "evrun.h"
#include "mapped.h"

struct ctf_evsrc {
    struct ev_run *run; /* its on_source gets the source */
    tracerd_ctf_dir_t *dir;
    bool source_sent;
    /* the cpu of each stream's current packet, -1 for none */
    int64_t *stream_cpu;
    uint32_t nstream_cpu;
    /* the category of the last trace seen */
    const tracerd_ctf_trace_t *cat_trace;
    tracerd_str_t category;
};

/* (ctf_evsrc_source the first time) */
int ctf_evsrc_send(struct ctf_evsrc *s);
/* The source, once (r->format and r->ticks_per_second set): r->on_source's
 * return, or 0. */
static inline int ctf_evsrc_source(struct ctf_evsrc *s)
{
    return s->source_sent ? 0 : ctf_evsrc_send(s);
}
/* A packet begins (the reader's on_packet_begin). */
int ctf_evsrc_packet(struct ctf_evsrc *s, const tracerd_ctf_packet_t *p);
/* Opens the directory c->path into s->dir with callbacks cb (user: their
 * argument), the stream config sc and the metadata config mc (NULL: the
 * defaults), its files mapped (files: mapped.h). */
tracerd_status_t ctf_evsrc_open(struct ctf_evsrc *s, cli_t *c, map_files_t *files,
                                const tracerd_ctf_callbacks_t *cb, void *user,
                                const tracerd_ctf_stream_config_t *sc,
                                const tracerd_ctf_metadata_config_t *mc);
/* The directory s->dir is open: the table of its streams' cpus. */
tracerd_status_t ctf_evsrc_opened(struct ctf_evsrc *s);
/* A reader's warning, as ev_run says it. */
int ctf_evsrc_warning(struct ctf_evsrc *s, const tracerd_warning_t *w);
void ctf_evsrc_free(struct ctf_evsrc *s);
/* The category of the trace t (the domain looked up once per trace). */
tracerd_str_t ctf_evsrc_category_of(struct ctf_evsrc *s, const tracerd_ctf_trace_t *t);

/* The members of event ev that the event view sets when CTF event e begins
 * (its class's name aside): offset, kind (an INSTANT), ticks, ns, flags
 * (HAS_NS, HAS_CPU), cpu, category; pid, tid and name_id 0. */
static inline void ctf_evsrc_event(struct ctf_evsrc *s, const tracerd_ctf_event_t *e,
                                   tracerd_event_t *ev)
{
    ev->offset = e->offset;
    ev->kind = TRACERD_EVENT_INSTANT;
    ev->ticks = e->cycles;
    ev->ns = e->ns;
    ev->flags = e->has_clock ? TRACERD_EVENT_HAS_NS : 0;
    ev->pid = ev->tid = 0;
    ev->cpu = 0;
    ev->name_id = 0;
    const tracerd_ctf_dir_stream_t *d = tracerd_ctf_dir_current(s->dir);
    if (d != NULL && d->index < s->nstream_cpu && s->stream_cpu[d->index] >= 0) {
        ev->cpu = (uint32_t)s->stream_cpu[d->index];
        ev->flags |= TRACERD_EVENT_HAS_CPU;
    }
    const tracerd_ctf_trace_t *t = d != NULL ? d->trace : NULL;
    ev->category =
        t == s->cat_trace && s->category.data != NULL ? s->category : ctf_evsrc_category_of(s, t);
}

/* A function entry/exit's name: "0x" and its address in hex, in buf[24]. */
tracerd_str_t ctf_evsrc_addr_name(char *buf, uint64_t addr);

#endif
