/* The auto reader: detects the format from the first bytes, creates that
 * format's reader and passes bytes through; the format's mapping turns its
 * records into tracerd_event_t. */
#include "../core/reader.h"
#include "../core/sized.h"
#include "event_internal.h"

static const struct tracerd__event_backend *const backends[] = {
    &tracerd__event_backend_xray,
    &tracerd__event_backend_fxt,
    &tracerd__event_backend_ctf,
    &tracerd__event_backend_xtrace,
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

struct tracerd_auto_reader {
    tracerd_allocator_t alloc;
    tracerd_auto_config_t cfg;
    tracerd_xray_config_t xray_cfg;
    bool has_xray_cfg;
    tracerd_event_callbacks_t cbs;
    void *user;

    const struct tracerd__event_backend *be; /* NULL until detected */
    const tracerd_reader_ops_t *ops;         /* the format reader's table, once opened */
    void *rd;                                /* the format's reader, once opened */
    void *map;                               /* the mapping's own state */
    bool reader_finished;                    /* rd's finish returned OK */
    bool finished_called;                    /* be->finished ran */
    bool finish_paused;                      /* ... and asked to pause */
    int score;
    uint8_t head[TRACERD_AUTO_DETECT_BYTES];
    size_t head_len;
    size_t replay; /* head bytes already fed to rd */
    bool fed;      /* any feed happened (metadata must come first) */

    bool paused;
    bool in_callback;
    bool own_error;          /* err holds the error (else rd does) */
    bool done;               /* the filter's end was passed: the rest is not read */
    tracerd_status_t status; /* sticky error, or OK */
    struct tracerd__error err;

    tracerd_event_arg_t *args;
    uint32_t max_args;
    char text[TRACERD__AUTO_TEXT];
};

static void auto_config_defaults(tracerd_auto_config_t *cfg)
{
    if (cfg == NULL)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->format = TRACERD_EVENT_FORMAT_UNKNOWN;
    cfg->max_args = 64;
}

TRACERD__SIZED_INIT(tracerd_auto_config_init, tracerd_auto_config_t, auto_config_defaults)

static const struct tracerd__event_backend *backend_of(tracerd_event_format_t f)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        if (backends[i]->format == f)
            return backends[i];
    return NULL;
}

/* Creates the format's reader and the mapping's state through the backend. */
static tracerd_status_t open_backend(tracerd_auto_reader_t *r, const tracerd_auto_config_t *oc)
{
    r->ops = r->be->ops();
    r->reader_finished = r->finished_called = r->finish_paused = false;
    tracerd_status_t st = r->be->open(r, oc, &r->alloc, &r->map, &r->rd);
    if (st != TRACERD_OK)
        r->rd = r->map = NULL;
    return st;
}

static void close_backend(tracerd_auto_reader_t *r)
{
    if (r->rd != NULL)
        r->ops->free(r->rd);
    if (r->map != NULL && r->be->close != NULL)
        r->be->close(r->map);
    r->rd = r->map = NULL;
}

tracerd_status_t tracerd_auto_new(const tracerd_auto_config_t *cfg,
                                  const tracerd_event_callbacks_t *cbs, void *user,
                                  const tracerd_allocator_t *alloc, tracerd_auto_reader_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_auto_config_t c;
    tracerd_auto_config_init(&c);
    tracerd_event_callbacks_t cb;
    tracerd_event_callbacks_init(&cb);
    tracerd_xray_config_t xc;
    tracerd_xray_config_init(&xc);
    if (TRACERD__SIZED_READ(tracerd_auto_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_event_callbacks_t, &cb, cbs) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_xray_config_t, &xc, c.xray) != TRACERD_OK)
        return TRACERD_E_INVALID;
    if (c.max_args == 0 || c.max_args > 65536)
        return TRACERD_E_INVALID;
    if (c.format != TRACERD_EVENT_FORMAT_UNKNOWN && backend_of(c.format) == NULL)
        return TRACERD_E_INVALID;
    tracerd_auto_reader_t *r = TRACERD__NEW(tracerd_auto_reader_t, alloc);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->cfg = c;
    if (c.xray != NULL) {
        r->xray_cfg = xc;
        r->has_xray_cfg = true;
    }
    r->cfg.xray = NULL; /* the copy is used; fxt/ctf/xtrace stay borrowed */
    r->cbs = cb;
    r->user = user;
    tracerd_event_filter_reset(c.filter); /* relative times: this reader's trace */
    r->max_args = c.max_args;
    r->args = tracerd__calloc(&r->alloc, (size_t)c.max_args * sizeof *r->args);
    if (r->args == NULL) {
        tracerd_allocator_t a = r->alloc;
        tracerd__free(&a, r, sizeof *r);
        return TRACERD_E_NOMEM;
    }
    if (c.format != TRACERD_EVENT_FORMAT_UNKNOWN) {
        r->be = backend_of(c.format);
        r->score = 100;
        tracerd_auto_config_t oc = c;
        oc.xray = r->has_xray_cfg ? &r->xray_cfg : NULL;
        if (r->be->open != NULL) {
            tracerd_status_t st = open_backend(r, &oc);
            if (st != TRACERD_OK) {
                tracerd_auto_free(r);
                return st;
            }
        }
    }
    *out = r;
    return TRACERD_OK;
}

void tracerd_auto_free(tracerd_auto_reader_t *r)
{
    if (r == NULL)
        return;
    close_backend(r);
    tracerd_allocator_t a = r->alloc;
    tracerd__free(&a, r->args, (size_t)r->max_args * sizeof *r->args);
    tracerd__free(&a, r, sizeof *r);
}

static tracerd_status_t fail(tracerd_auto_reader_t *r, tracerd_status_t st, uint64_t offset,
                             const char *reason)
{
    r->own_error = true;
    r->status = st;
    tracerd__error_set(&r->err, st, offset, "%s", reason);
    return st;
}

/* Result of the format reader: sticky errors, pause. */
static tracerd_status_t take(tracerd_auto_reader_t *r, tracerd_status_t st)
{
    if (r->done) /* the abort that stopped the reading at the filter's end */
        return TRACERD_OK;
    if (st == TRACERD_PAUSED)
        r->paused = true;
    else if (st < 0) {
        r->status = st;
        r->own_error = false;
    }
    return st;
}

/* Picks the format of head (or fails), then creates its reader. */
static tracerd_status_t open_reader(tracerd_auto_reader_t *r)
{
    if (r->be == NULL) {
        int score = 0;
        tracerd_event_format_t f = tracerd_event_detect(r->head, r->head_len, &score);
        if (f == TRACERD_EVENT_FORMAT_UNKNOWN)
            return fail(r, TRACERD_E_MAGIC, 0,
                        "trace: the first bytes match no format (XRay header, FXT magic "
                        "record, CTF packet or metadata magic)");
        r->be = backend_of(f);
        r->score = score;
    }
    if (r->rd != NULL)
        return TRACERD_OK;
    if (r->be->open == NULL) {
        char msg[160];
        tracerd__format(msg, sizeof msg,
                        "trace: detected %s, but this build has no event mapping for it",
                        r->be->name);
        return fail(r, TRACERD_E_UNSUPPORTED, 0, msg);
    }
    tracerd_auto_config_t oc = r->cfg;
    oc.xray = r->has_xray_cfg ? &r->xray_cfg : NULL;
    tracerd_status_t st = open_backend(r, &oc);
    if (st != TRACERD_OK)
        return fail(r, st, 0, "trace: cannot create the format reader");
    return TRACERD_OK;
}

/* Feeds the buffered head bytes not yet given to the format reader. */
static tracerd_status_t replay_head(tracerd_auto_reader_t *r)
{
    while (r->replay < r->head_len) {
        size_t used = 0;
        tracerd_status_t st =
            r->ops->feed(r->rd, r->head + r->replay, r->head_len - r->replay, &used);
        r->replay += used;
        if (st != TRACERD_OK)
            return take(r, st);
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd_auto_feed(tracerd_auto_reader_t *r, const void *data, size_t len,
                                   size_t *consumed)
{
    size_t dummy;
    if (consumed == NULL)
        consumed = &dummy;
    *consumed = 0;
    if (r == NULL || (data == NULL && len != 0))
        return TRACERD_E_INVALID;
    if (r->in_callback || r->paused)
        return TRACERD_E_INVALID;
    if (r->status != TRACERD_OK)
        return r->status;
    r->fed = true;
    if (r->done) {
        *consumed = len;
        return TRACERD_OK;
    }
    const uint8_t *p = data;
    size_t used = 0;
    if (r->be == NULL || r->rd == NULL) {
        if (r->be == NULL) {
            size_t take_n = sizeof r->head - r->head_len;
            if (take_n > len)
                take_n = len;
            if (take_n > 0)
                memcpy(r->head + r->head_len, p, take_n);
            r->head_len += take_n;
            used = take_n;
            int score = 0;
            bool sure = tracerd_event_detect(r->head, r->head_len, &score) !=
                            TRACERD_EVENT_FORMAT_UNKNOWN &&
                        score >= TRACERD_AUTO_DETECT_SURE;
            if (r->head_len < sizeof r->head && !sure) {
                *consumed = used;
                return TRACERD_OK;
            }
        }
        tracerd_status_t st = open_reader(r);
        if (st != TRACERD_OK) {
            *consumed = used;
            return st;
        }
    }
    tracerd_status_t st = replay_head(r);
    if (st != TRACERD_OK || r->done) {
        *consumed = r->done ? len : used;
        return st;
    }
    size_t c = 0;
    st = len > used ? r->ops->feed(r->rd, p + used, len - used, &c) : TRACERD_OK;
    *consumed = r->done ? len : used + c;
    return take(r, st);
}

tracerd_status_t tracerd_auto_resume(tracerd_auto_reader_t *r)
{
    if (r == NULL || r->in_callback || !r->paused)
        return TRACERD_E_INVALID;
    if (r->finish_paused) {
        r->finish_paused = false;
        r->paused = false;
        return TRACERD_OK;
    }
    tracerd_status_t st = r->ops->resume(r->rd);
    if (st == TRACERD_OK)
        r->paused = false;
    return st;
}

tracerd_status_t tracerd_auto_finish(tracerd_auto_reader_t *r)
{
    if (r == NULL || r->in_callback || r->paused)
        return TRACERD_E_INVALID;
    if (r->status != TRACERD_OK)
        return r->status;
    if (r->done)
        return TRACERD_OK;
    if (r->rd == NULL) {
        if (r->be == NULL && r->head_len == 0)
            return fail(r, TRACERD_E_TRUNCATED, 0, "trace: the input is empty");
        tracerd_status_t st = open_reader(r);
        if (st != TRACERD_OK)
            return st;
    }
    tracerd_status_t st = replay_head(r);
    if (st != TRACERD_OK || r->done)
        return st;
    if (!r->reader_finished) {
        st = take(r, r->ops->finish(r->rd));
        if (st != TRACERD_OK)
            return st;
        r->reader_finished = true;
    }
    if (r->be->finished == NULL || r->finished_called)
        return TRACERD_OK;
    r->finished_called = true;
    int rc = r->be->finished(r->map);
    if (rc < 0) {
        char msg[64];
        tracerd__format(msg, sizeof msg, "on_source callback returned %d", rc);
        fail(r, TRACERD_E_CALLBACK, r->ops->offset(r->rd), msg);
        r->err.callback_value = rc;
        return TRACERD_E_CALLBACK;
    }
    if (rc > 0) { /* core.h: any positive value pauses */
        r->paused = r->finish_paused = true;
        return TRACERD_PAUSED;
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd_auto_metadata(tracerd_auto_reader_t *r, const void *data, size_t len)
{
    if (r == NULL || r->in_callback || r->fed || (data == NULL && len != 0))
        return TRACERD_E_INVALID;
    if (r->status != TRACERD_OK)
        return r->status;
    if (r->be != NULL && r->be->format != TRACERD_EVENT_FORMAT_CTF)
        return TRACERD_E_INVALID;
    r->be = &tracerd__event_backend_ctf;
    if (r->score == 0)
        r->score = 100;
    tracerd_status_t st = open_reader(r);
    if (st != TRACERD_OK)
        return st;
    if (r->be->metadata == NULL)
        return fail(r, TRACERD_E_UNSUPPORTED, 0, "metadata: the CTF mapping takes no metadata");
    return take(r, r->be->metadata(r->rd, data, len));
}

void tracerd_auto_reset(tracerd_auto_reader_t *r)
{
    if (r == NULL || r->in_callback)
        return;
    if (r->rd != NULL && r->cfg.format == TRACERD_EVENT_FORMAT_UNKNOWN) {
        close_backend(r);
        r->be = NULL;
        r->score = 0;
    } else if (r->rd != NULL) {
        /* Forced format: a fresh reader of the same format, same options. */
        close_backend(r);
        tracerd_auto_config_t oc = r->cfg;
        oc.xray = r->has_xray_cfg ? &r->xray_cfg : NULL;
        open_backend(r,
                     &oc); /* on failure: opened again (or the error reported) at the next feed */
    }
    r->head_len = 0;
    r->replay = 0;
    r->fed = false;
    r->done = false;
    tracerd_event_filter_reset(r->cfg.filter);
    r->paused = r->finish_paused = false;
    r->own_error = false;
    r->status = TRACERD_OK;
    tracerd__error_clear(&r->err);
}

bool tracerd_auto_done(const tracerd_auto_reader_t *r)
{
    return r != NULL && r->done;
}

uint64_t tracerd_auto_offset(const tracerd_auto_reader_t *r)
{
    if (r == NULL)
        return 0;
    if (r->rd == NULL)
        return r->head_len;
    return r->ops->offset(r->rd) + (r->head_len - r->replay);
}

uint64_t tracerd_auto_record_offset(const tracerd_auto_reader_t *r)
{
    if (r == NULL)
        return 0;
    if (r->own_error || r->rd == NULL)
        return r->err.offset;
    return r->ops->record_offset(r->rd);
}

const char *tracerd_auto_error_reason(const tracerd_auto_reader_t *r)
{
    if (r == NULL)
        return "";
    if (r->own_error || r->rd == NULL)
        return r->err.reason;
    return r->ops->error_reason(r->rd);
}

int tracerd_auto_callback_error(const tracerd_auto_reader_t *r)
{
    if (r == NULL)
        return 0;
    if (r->own_error || r->rd == NULL)
        return r->err.callback_value;
    return r->ops->callback_error(r->rd);
}

TRACERD__READER_OPS(tracerd_auto, "auto", tracerd_auto_reader_t, tracerd_auto_config_t,
                    tracerd_event_callbacks_t)

tracerd_event_format_t tracerd_auto_format(const tracerd_auto_reader_t *r)
{
    return r != NULL && r->be != NULL ? r->be->format : TRACERD_EVENT_FORMAT_UNKNOWN;
}

size_t tracerd_auto_memory_bound(const tracerd_auto_config_t *cfg)
{
    tracerd_auto_config_t c;
    tracerd_auto_config_init(&c);
    (void)TRACERD__SIZED_READ(tracerd_auto_config_t, &c, cfg); /* else the defaults */
    size_t most = 0;
    for (size_t i = 0; i < NBACKENDS; i++) {
        if (backends[i]->memory_bound == NULL)
            continue;
        if (c.format != TRACERD_EVENT_FORMAT_UNKNOWN && backends[i]->format != c.format)
            continue;
        size_t m = backends[i]->memory_bound(&c);
        if (m > most)
            most = m;
    }
    return sizeof(struct tracerd_auto_reader) + (size_t)c.max_args * sizeof(tracerd_event_arg_t) +
           most;
}

void tracerd__auto_bind(tracerd_auto_reader_t *a, tracerd_event_format_t format)
{
    a->be = backend_of(format);
    a->score = 100;
}

/* ---- what the mappings call ------------------------------------------- */

/* What a mapping's callback returns for an event the filter left out (m:
 * REJECT or PAST_END). */
static int left_out(tracerd_auto_reader_t *a, const tracerd_event_t *ev, int m)
{
    if (m == TRACERD_EVENT_FILTER_PAST_END &&
        (tracerd_event_filter_ordered(a->cfg.filter) || ev->format == TRACERD_EVENT_FORMAT_CTF ||
         ev->format == TRACERD_EVENT_FORMAT_XTRACE)) {
        a->done = true; /* time-ordered: nothing after this can pass */
        return -1;      /* the format reader stops; take() turns its error into OK */
    }
    return TRACERD_CB_CONTINUE;
}

tracerd_event_filter_t *tracerd__auto_filter(const tracerd_auto_reader_t *a)
{
    return a->cfg.filter;
}

int tracerd__auto_prefilter(tracerd_auto_reader_t *a, tracerd_event_t *ev, unsigned known, int *rc)
{
    if (a->cfg.filter == NULL)
        return 1;
    ev->format = a->be->format;
    int m = tracerd__event_filter_pre(a->cfg.filter, ev, known);
    if (m == TRACERD_EVENT_FILTER_PASS)
        return 1;
    if (m == TRACERD__FILTER_UNDECIDED)
        return 2;
    *rc = left_out(a, ev, m);
    return 0;
}

int tracerd__auto_emit(tracerd_auto_reader_t *a, tracerd_event_t *ev)
{
    ev->format = a->be->format;
    if (a->cfg.no_args)
        ev->nargs = 0;
    if (a->cfg.filter != NULL) {
        int m = tracerd_event_filter_match(a->cfg.filter, ev);
        if (m != TRACERD_EVENT_FILTER_PASS)
            return left_out(a, ev, m);
    }
    return tracerd__auto_deliver(a, ev);
}

int tracerd__auto_deliver(tracerd_auto_reader_t *a, tracerd_event_t *ev)
{
    ev->format = a->be->format;
    if (a->cbs.on_event == NULL)
        return TRACERD_CB_CONTINUE;
    a->in_callback = true;
    int rc = a->cbs.on_event(a->user, ev);
    a->in_callback = false;
    return rc;
}

int tracerd__auto_source(tracerd_auto_reader_t *a, tracerd_event_source_t *src)
{
    if (a->cbs.on_source == NULL)
        return TRACERD_CB_CONTINUE;
    src->format = a->be->format;
    src->format_name = a->be->name;
    src->score = a->score;
    a->in_callback = true;
    int rc = a->cbs.on_source(a->user, src);
    a->in_callback = false;
    return rc;
}

int tracerd__auto_warning(tracerd_auto_reader_t *a, const tracerd_warning_t *w)
{
    if (a->cbs.on_warning == NULL)
        return TRACERD_CB_CONTINUE;
    a->in_callback = true;
    int rc = a->cbs.on_warning(a->user, w);
    a->in_callback = false;
    return rc;
}

tracerd_event_arg_t *tracerd__auto_args(tracerd_auto_reader_t *a, uint32_t *cap)
{
    *cap = a->max_args;
    return a->args;
}

char *tracerd__auto_text(tracerd_auto_reader_t *a)
{
    return a->text;
}

const tracerd_xray_names_t *tracerd__auto_xray_names(const tracerd_auto_reader_t *a)
{
    return a->cfg.xray_names;
}

/* ---- detection and names ---------------------------------------------- */

tracerd_event_format_t tracerd_event_detect(const void *head, size_t len, int *score)
{
    int best = 0;
    tracerd_event_format_t f = TRACERD_EVENT_FORMAT_UNKNOWN;
    if (head != NULL || len == 0) {
        for (size_t i = 0; i < NBACKENDS; i++) {
            int s = backends[i]->detect((const uint8_t *)head, head != NULL ? len : 0);
            if (s > best) {
                best = s;
                f = backends[i]->format;
            }
        }
    }
    if (score != NULL)
        *score = best;
    return f;
}

bool tracerd_event_format_supported(tracerd_event_format_t format)
{
    const struct tracerd__event_backend *be = backend_of(format);
    return be != NULL && be->open != NULL;
}

const char *tracerd_event_format_name(tracerd_event_format_t format)
{
    const struct tracerd__event_backend *be = backend_of(format);
    return be != NULL ? be->name : "unknown";
}

tracerd_event_format_t tracerd_event_format_from_name(const char *name)
{
    if (name == NULL)
        return TRACERD_EVENT_FORMAT_UNKNOWN;
    for (size_t i = 0; i < NBACKENDS; i++)
        if (strcmp(name, backends[i]->name) == 0)
            return backends[i]->format;
    return TRACERD_EVENT_FORMAT_UNKNOWN;
}

const char *tracerd_event_kind_name(tracerd_event_kind_t kind)
{
    static const char *const names[] = {
        "unknown",     "span-begin",     "span-end",  "complete",     "instant",     "counter",
        "async-begin", "async-step",     "async-end", "flow-begin",   "flow-step",   "flow-end",
        "log",         "context-switch", "wakeup",    "process-name", "thread-name", "blob",
        "mark"};
    if ((unsigned)kind >= sizeof names / sizeof names[0])
        return "unknown";
    return names[kind];
}

TRACERD__SIZED_INIT(tracerd_event_callbacks_init, tracerd_event_callbacks_t, NULL)
