/* What the CTF event view reads into an event, by name: the LTTng-UST
 * function events and the context fields naming a thread or a process.
 * Shared by the event view (map_ctf.c) and the CLI's CTF stats fast path
 * (tools/tracerd/stats_ctf.c), which must make the same events as the event
 * view; header-only, nothing exported. */
#ifndef TRACERD_EVENT_CTF_MEANING_H
#define TRACERD_EVENT_CTF_MEANING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <tracerd/ctf.h>

/* An integer field's name: a thread or process id (in the contexts), a
 * function event's address (in the payload), or another. */
enum { CTF_NAME_OTHER, CTF_NAME_TID, CTF_NAME_PID, CTF_NAME_ADDR };

static inline unsigned ctf_name_meaning(const char *name)
{
    if (strcmp(name, "vtid") == 0 || strcmp(name, "tid") == 0)
        return CTF_NAME_TID;
    if (strcmp(name, "vpid") == 0 || strcmp(name, "pid") == 0)
        return CTF_NAME_PID;
    return strcmp(name, "addr") == 0 ? CTF_NAME_ADDR : CTF_NAME_OTHER;
}

/* LTTng-UST function instrumentation (lttng_ust_cyg_profile[_fast]:
 * func_entry / func_exit): 1 entry, 2 exit, 0 neither. */
static inline int ctf_span_kind(const char *name)
{
    size_t a = strlen(name);
    if (strncmp(name, "lttng_ust_cyg_profile", 21) != 0)
        return 0;
    if (a >= 11 && strcmp(name + a - 11, ":func_entry") == 0)
        return 1;
    return a >= 10 && strcmp(name + a - 10, ":func_exit") == 0 ? 2 : 0;
}

/* Whether a trace has function event classes (whose payload's address the
 * event view then reads). */
static inline bool ctf_has_span_classes(const tracerd_ctf_trace_t *t)
{
    const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
    for (uint32_t i = 0; i < in->nstreams; i++)
        for (uint32_t k = 0; k < in->streams[i]->nevents; k++)
            if (ctf_span_kind(in->streams[i]->events[k]->name) != 0)
                return true;
    return false;
}

#endif
