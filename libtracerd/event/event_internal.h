/* The event view's internals: the backend interface each format's mapping
 * (libtracerd/event/map_<fmt>.c) implements, and the auto reader state the
 * mappings emit through. Never installed.
 *
 * Adding a format: write map_<fmt>.c defining
 *   const struct tracerd__event_backend tracerd__event_backend_<fmt>
 * with detect() and, when the format's reader exists, open() and the reader
 * operations; its callbacks fill a tracerd_event_t and return
 * tracerd__auto_emit(a, &ev). The four backends are listed in auto.c. */
#ifndef TRACERD_EVENT_INTERNAL_H
#define TRACERD_EVENT_INTERNAL_H

#include <tracerd/event.h>

#include "../core/internal.h"

struct tracerd__event_backend {
    tracerd_event_format_t format;
    const char *name;
    /* Confidence 0..100 that head[0..len) starts a trace of this format: the
     * format's own public detector (tracerd_<format>_detect), shared with
     * the CLI. */
    int (*detect)(const void *head, size_t len);
    /* NULL when this build has no mapping for the format: the auto reader
     * then reports TRACERD_E_UNSUPPORTED. Creates the mapping: *map, its own
     * state (the user pointer of the format reader's callbacks, which emit
     * through tracerd__auto_emit(a, ...)), and *reader, driven through
     * ops(): the format reader's public table (tracerd_<reader>_ops()). */
    tracerd_status_t (*open)(tracerd_auto_reader_t *a, const tracerd_auto_config_t *cfg,
                             const tracerd_allocator_t *alloc, void **map, void **reader);
    const tracerd_reader_ops_t *(*ops)(void);
    /* Frees *map, after ops()->free(reader). NULL: no state of its own. */
    void (*close)(void *map);
    /* Optional: called once after the reader's finish returned OK (records
     * the mapping still owes, e.g. the source of an empty trace); returns a
     * callback value (positive: pause, negative: abort). */
    int (*finished)(void *map);
    /* Optional: separate metadata (CTF), on the reader. */
    tracerd_status_t (*metadata)(void *reader, const void *data, size_t len);
    /* Upper bound of the reader's memory with default options. */
    size_t (*memory_bound)(const tracerd_auto_config_t *cfg);
};

extern const struct tracerd__event_backend tracerd__event_backend_xray;
extern const struct tracerd__event_backend tracerd__event_backend_fxt;
extern const struct tracerd__event_backend tracerd__event_backend_ctf;
extern const struct tracerd__event_backend tracerd__event_backend_xtrace;

/* Delivers ev (format filled in here) to the user's on_event; returns the
 * callback's value (0 continue, 1 pause, negative abort), so a mapping's
 * callback returns it as is. */
int tracerd__auto_emit(tracerd_auto_reader_t *a, tracerd_event_t *ev);
/* Filtering before mapping (doc/PERFORMANCE.md, "Event filters"): a
 * mapping tests what it knows of an event (its time; the ids and names
 * that `known` says, TRACERD__KNOW_*) before it maps the rest (arguments,
 * a name made from an id, context fields). Returns 0 when the event is
 * left out (*rc is what the mapping's callback returns: continue, or -1
 * past the filter's end in a time-ordered input, as tracerd__auto_emit),
 * 1 when it passes every test (deliver it with tracerd__auto_deliver), 2
 * when the rest decides (emit it with tracerd__auto_emit). */
#define TRACERD__KNOW_PID 1u
#define TRACERD__KNOW_TID 2u
#define TRACERD__KNOW_CPU 4u
#define TRACERD__KNOW_IDS 7u
#define TRACERD__KNOW_NAMES 8u /* name and category */
#define TRACERD__KNOW_ALL 15u
int tracerd__auto_prefilter(tracerd_auto_reader_t *a, tracerd_event_t *ev, unsigned known, int *rc);
/* tracerd__auto_emit without the filter (the event passed tracerd__auto_prefilter). */
int tracerd__auto_deliver(tracerd_auto_reader_t *a, tracerd_event_t *ev);
/* The config's filter (NULL: none). */
tracerd_event_filter_t *tracerd__auto_filter(const tracerd_auto_reader_t *a);
/* The filter's tests on what is known (tracerd_event_filter_match when
 * known is TRACERD__KNOW_ALL): PASS, REJECT, PAST_END, or UNDECIDED when a
 * test needs what is not known. */
#define TRACERD__FILTER_UNDECIDED 3
int tracerd__event_filter_pre(tracerd_event_filter_t *f, const tracerd_event_t *ev, unsigned known);
/* The name and category tests alone; does the filter have any? */
bool tracerd__event_filter_names(const tracerd_event_filter_t *f, tracerd_str_t name,
                                 tracerd_str_t category);
bool tracerd__event_filter_has_names(const tracerd_event_filter_t *f);
/* Reports the source once (format filled in here); returns the callback's value. */
int tracerd__auto_source(tracerd_auto_reader_t *a, tracerd_event_source_t *src);
/* Passes a warning of the format's reader on. */
int tracerd__auto_warning(tracerd_auto_reader_t *a, const tracerd_warning_t *w);
/* Scratch array of max_args arguments owned by the auto reader, and its size. */
tracerd_event_arg_t *tracerd__auto_args(tracerd_auto_reader_t *a, uint32_t *cap);
/* A scratch text buffer of TRACERD__AUTO_TEXT bytes owned by the auto reader,
 * for names a mapping has to format (valid until the next emit). */
/* An all-zero event to start each mapped event from: a copy of it compiles to
 * vector moves, where memset of the ~200-byte struct became `rep stos`, about
 * a tenth of `tracerd json` on an XRay trace. */
static const tracerd_event_t tracerd__event_zero;

#define TRACERD__AUTO_TEXT 64u
char *tracerd__auto_text(tracerd_auto_reader_t *a);
/* Makes a reader that has no format reader of its own an event sink for
 * `format` (the CTF directory reader emits through it). */
void tracerd__auto_bind(tracerd_auto_reader_t *a, tracerd_event_format_t format);
/* The XRay names table of the config (may be NULL). */
const tracerd_xray_names_t *tracerd__auto_xray_names(const tracerd_auto_reader_t *a);

#endif
