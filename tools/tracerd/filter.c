/* Event filter options of the CLI (doc/tracerd.1, FILTERS): --begin, --end,
 * --name, --category, --pid, --tid, --cpu build one tracerd_event_filter_t
 * (the library's event view filter) that json, stats, stack, perfetto and
 * dump apply. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct {
    const char *opt;
    tracerd_event_filter_field_t field; /* 0: a time bound */
    bool is_end;
} filter_opts[] = {
    {"--begin", 0, false},
    {"--end", 0, true},
    {"--name", TRACERD_EVENT_FILTER_NAME, false},
    {"--category", TRACERD_EVENT_FILTER_CATEGORY, false},
    {"--pid", TRACERD_EVENT_FILTER_PID, false},
    {"--tid", TRACERD_EVENT_FILTER_TID, false},
    {"--cpu", TRACERD_EVENT_FILTER_CPU, false},
};

/* Adds one option's value to f; prints what is wrong. */
static int apply(const cli_t *c, tracerd_event_filter_t *f, size_t k, const char *value)
{
    const char *opt = filter_opts[k].opt;
    tracerd_event_filter_field_t field = filter_opts[k].field;
    tracerd_status_t st;
    if (field == 0) {
        uint64_t t;
        bool rel;
        if (tracerd_event_filter_parse_time(value, &t, &rel) != TRACERD_OK) {
            fprintf(stderr,
                    "%s: %s %s: not a time (ns since the epoch, or relative to the trace's "
                    "start with a unit: 1.5s, 200ms, +10us, 500ns)\n",
                    c->prog, opt, value);
            return CLI_EXIT_USAGE;
        }
        st = filter_opts[k].is_end ? tracerd_event_filter_set_end(f, t, rel)
                                   : tracerd_event_filter_set_begin(f, t, rel);
    } else if (field == TRACERD_EVENT_FILTER_NAME || field == TRACERD_EVENT_FILTER_CATEGORY) {
        st = tracerd_event_filter_add_pattern(f, field, value);
    } else {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(value, &end, 0);
        if (*value == '\0' || *value == '-' || *end != '\0' || errno != 0) {
            fprintf(stderr, "%s: %s %s: not a number\n", c->prog, opt, value);
            return CLI_EXIT_USAGE;
        }
        st = tracerd_event_filter_add_id(f, field, v);
    }
    if (st == TRACERD_E_LIMIT) {
        fprintf(stderr, "%s: %s: more than %u values\n", c->prog, opt,
                TRACERD_EVENT_FILTER_MAX_VALUES);
        return CLI_EXIT_USAGE;
    }
    if (st == TRACERD_E_NOMEM) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s: %s %s: bad pattern (an unclosed '[')\n", c->prog, opt, value);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static size_t find(const char *opt)
{
    size_t k = 0;
    while (k < sizeof filter_opts / sizeof filter_opts[0] && strcmp(filter_opts[k].opt, opt) != 0)
        k++;
    return k;
}

int cli_filter_option(cli_t *c, const char *opt, const char *value)
{
    size_t k = find(opt);
    if (k == sizeof filter_opts / sizeof filter_opts[0])
        return -1;
    if (value == NULL) {
        fprintf(stderr, "%s: %s needs a value\n", c->prog, opt);
        return CLI_EXIT_USAGE;
    }
    if (c->nfilters == CLI_FILTERS_MAX) {
        fprintf(stderr, "%s: more than %d filter options\n", c->prog, CLI_FILTERS_MAX);
        return CLI_EXIT_USAGE;
    }
    /* Checked now, on a scratch filter, so a bad value is a usage error
     * before any input is read. */
    tracerd_event_filter_t *f;
    if (tracerd_event_filter_new(NULL, &f) != TRACERD_OK) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    int rc = apply(c, f, k, value);
    tracerd_event_filter_free(f);
    if (rc != CLI_EXIT_OK)
        return rc;
    c->filters[c->nfilters].opt = filter_opts[k].opt;
    c->filters[c->nfilters].value = value;
    c->nfilters++;
    return CLI_EXIT_OK;
}

int cli_filter_make(const cli_t *c, tracerd_event_filter_t **out)
{
    *out = NULL;
    if (c->nfilters == 0)
        return CLI_EXIT_OK;
    if (tracerd_event_filter_new(NULL, out) != TRACERD_OK) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    for (unsigned i = 0; i < c->nfilters; i++) {
        int rc = apply(c, *out, find(c->filters[i].opt), c->filters[i].value);
        if (rc != CLI_EXIT_OK) {
            tracerd_event_filter_free(*out);
            *out = NULL;
            return rc;
        }
    }
    return CLI_EXIT_OK;
}

bool cli_filter_given(const cli_t *c, const char *opt)
{
    for (unsigned i = 0; i < c->nfilters; i++)
        if (strcmp(c->filters[i].opt, opt) == 0)
            return true;
    return false;
}

int cli_dump_filter_init(const cli_t *c, cli_dump_filter_t *d, bool ordered)
{
    d->ordered = ordered;
    d->stopped = false;
    return cli_filter_make(c, &d->f);
}

void cli_dump_filter_free(cli_dump_filter_t *d)
{
    tracerd_event_filter_free(d->f);
    d->f = NULL;
}

bool cli_dump_keep(cli_dump_filter_t *d, const tracerd_event_t *ev)
{
    if (d->f == NULL)
        return true;
    int m = tracerd_event_filter_match(d->f, ev);
    if (m == TRACERD_EVENT_FILTER_PAST_END && d->ordered)
        d->stopped = true;
    return m == TRACERD_EVENT_FILTER_PASS;
}

tracerd_status_t cli_dump_status(const cli_dump_filter_t *d, tracerd_status_t st)
{
    return d->stopped && st == TRACERD_E_CALLBACK ? TRACERD_OK : st;
}
