/* Shared plumbing of the json and stats commands (see evrun.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evrun.h"
#include "mapped.h"

/* ---- table ---------------------------------------------------------------- */

uint64_t ev_hash(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6) + (a >> 2));
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return h;
}

void ev_table_free(struct ev_table *t)
{
    cli_free(t->k1);
    cli_free(t->k2);
    cli_free(t->val);
    memset(t, 0, sizeof *t);
}

static bool grow(struct ev_table *t)
{
    size_t ncap = t->cap ? t->cap * 2 : 64;
    uint64_t *k1 = cli_calloc(ncap, sizeof *k1), *k2 = cli_calloc(ncap, sizeof *k2);
    uint32_t *val = cli_calloc(ncap, sizeof *val);
    if (k1 == NULL || k2 == NULL || val == NULL) {
        cli_free(k1);
        cli_free(k2);
        cli_free(val);
        return false;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (t->val[i] == 0)
            continue;
        size_t j = mix(t->k1[i], t->k2[i]) & (ncap - 1);
        while (val[j] != 0)
            j = (j + 1) & (ncap - 1);
        k1[j] = t->k1[i];
        k2[j] = t->k2[i];
        val[j] = t->val[i];
    }
    cli_free(t->k1);
    cli_free(t->k2);
    cli_free(t->val);
    t->k1 = k1;
    t->k2 = k2;
    t->val = val;
    t->cap = ncap;
    return true;
}

uint32_t ev_table_get(struct ev_table *t, uint64_t k1, uint64_t k2, uint32_t next, bool *inserted)
{
    *inserted = false;
    if ((t->count + 1) * 4 > t->cap * 3 && !grow(t))
        return UINT32_MAX;
    size_t j = mix(k1, k2) & (t->cap - 1);
    while (t->val[j] != 0) {
        if (t->k1[j] == k1 && t->k2[j] == k2)
            return t->val[j] - 1;
        j = (j + 1) & (t->cap - 1);
    }
    t->k1[j] = k1;
    t->k2[j] = k2;
    t->val[j] = next + 1;
    t->count++;
    *inserted = true;
    return next;
}

uint32_t ev_table_find(const struct ev_table *t, uint64_t k1, uint64_t k2)
{
    if (t->cap == 0)
        return UINT32_MAX;
    size_t j = mix(k1, k2) & (t->cap - 1);
    while (t->val[j] != 0) {
        if (t->k1[j] == k1 && t->k2[j] == k2)
            return t->val[j] - 1;
        j = (j + 1) & (t->cap - 1);
    }
    return UINT32_MAX;
}

/* ---- threads and stacks ------------------------------------------------------ */

struct ev_thread *ev_thread_of(struct ev_threads *ts, const tracerd_event_t *ev)
{
    uint64_t pid = (ev->flags & TRACERD_EVENT_HAS_PID) ? ev->pid : 0;
    uint64_t tid = (ev->flags & TRACERD_EVENT_HAS_TID) ? ev->tid : 0;
    return ev_thread_ids(ts, pid, tid);
}

struct ev_thread *ev_thread_find(struct ev_threads *ts, uint64_t pid, uint64_t tid)
{
    /* Threads interleave (FXT, CTF directories): the recent ones first. */
    uint32_t *slot = &ts->recent[(tid ^ (tid >> 12) ^ (pid * 7)) % EV_RECENT_THREADS];
    if (*slot != 0 && ts->n < EV_MAX_THREADS) {
        struct ev_thread *t = &ts->v[*slot - 1];
        if (t->pid == pid && t->tid == tid)
            return ts->last = t;
    }
    if (ts->n >= EV_MAX_THREADS) {
        /* Past the bound every new thread shares the last entry. */
        pid = UINT64_MAX;
        tid = UINT64_MAX;
    }
    bool ins;
    uint32_t i = ev_table_get(&ts->tab, pid, tid, ts->n, &ins);
    if (i == UINT32_MAX)
        return NULL;
    if (ins) {
        if (ts->n == ts->cap) {
            uint32_t ncap = ts->cap ? ts->cap * 2 : 16;
            struct ev_thread *v = cli_realloc(ts->v, (size_t)ncap * sizeof *v);
            if (v == NULL)
                return NULL;
            ts->v = v;
            ts->cap = ncap;
        }
        memset(&ts->v[ts->n], 0, sizeof ts->v[ts->n]);
        ts->v[ts->n].pid = pid;
        ts->v[ts->n].tid = tid;
        ts->n++;
    }
    if (ts->n < EV_MAX_THREADS)
        *slot = i + 1;
    ts->last = &ts->v[i];
    return ts->last;
}

void ev_threads_free(struct ev_threads *ts)
{
    for (uint32_t i = 0; i < ts->n; i++)
        cli_free(ts->v[i].stack);
    cli_free(ts->v);
    ev_table_free(&ts->tab);
    memset(ts, 0, sizeof *ts);
}

bool ev_stack_grow(struct ev_thread *t)
{
    return cli_grow(&t->stack, &t->cap, 16, sizeof *t->stack) == 0;
}

/* ---- running the auto reader --------------------------------------------------- */

struct src_ctx {
    struct ev_run *run;
};

static int on_source(void *user, const tracerd_event_source_t *src)
{
    struct ev_run *r = user;
    r->format = src->format;
    r->ticks_per_second = src->ticks_per_second;
    return r->on_source != NULL ? r->on_source(r->user, src) : 0;
}

static int on_event(void *user, const tracerd_event_t *ev)
{
    struct ev_run *r = user;
    return r->on_event(r->user, ev);
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    static const cli_warn_sink_t sink = {NULL, NULL, NULL, NULL};
    struct ev_run *r = user;
    return cli_warning(r->c, &sink, w);
}

static int exit_code(struct ev_run *r, tracerd_auto_reader_t *a, tracerd_status_t st)
{
    if (st == TRACERD_OK)
        return CLI_EXIT_OK;
    return ev_exit_code(r, st, tracerd_auto_format(a), tracerd_auto_record_offset(a),
                        tracerd_auto_error_reason(a));
}

int ev_exit_code(struct ev_run *r, tracerd_status_t st, tracerd_event_format_t format,
                 uint64_t offset, const char *reason)
{
    cli_t *c = r->c;
    if (st == TRACERD_OK)
        return CLI_EXIT_OK;
    const char *fname = tracerd_event_format_name(format);
    if (st == TRACERD_E_IO) /* the drain or the read already printed it */
        return CLI_EXIT_IO;
    if (st == TRACERD_E_CALLBACK && c->oom) /* said when it happened (cli_oom) */
        return CLI_EXIT_IO;
    if (st == TRACERD_E_CALLBACK) {
        fprintf(stderr, "%s: %s: output error: %s\n", c->prog, c->path, strerror(errno));
        return CLI_EXIT_IO;
    }
    if (st == TRACERD_E_NOMEM) {
        fprintf(stderr, "%s: %s: out of memory\n", c->prog, c->path);
        return CLI_EXIT_IO;
    }
    if (format == TRACERD_EVENT_FORMAT_UNKNOWN && st == TRACERD_E_MAGIC) {
        return cli_unknown_format(c);
    }
    if (st == TRACERD_E_UNSUPPORTED && !tracerd_event_format_supported(format)) {
        fprintf(stderr, "%s: %s: %s trace: `%s` is not available for this format in this build\n",
                c->prog, c->path, fname, c->cmd);
        return CLI_EXIT_UNSUPPORTED;
    }
    if (r->before_error != NULL)
        r->before_error(r->user);
    cli_report(c, fname, st, offset, reason);
    return CLI_EXIT_TRACE;
}

int cli_load_instr_map(cli_t *c)
{
    tracerd_xray_names_t **out = &c->names;
    *out = NULL;
    if (c->instr_map == NULL)
        return CLI_EXIT_OK;
    int fd = open(c->instr_map, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        fprintf(stderr, "%s: --instr-map %s: %s\n", c->prog, c->instr_map, strerror(errno));
        if (fd >= 0)
            close(fd);
        return CLI_EXIT_IO;
    }
    size_t len = (size_t)sb.st_size;
    void *map = len > 0 ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (len > 0 && map == MAP_FAILED) {
        fprintf(stderr, "%s: --instr-map %s: %s\n", c->prog, c->instr_map, strerror(errno));
        return CLI_EXIT_IO;
    }
    tracerd_xray_names_t *n;
    tracerd_status_t st = tracerd_xray_names_new(NULL, &n);
    if (st == TRACERD_OK)
        st = tracerd_xray_names_load(n, map, len);
    if (len > 0)
        munmap(map, len);
    if (st != TRACERD_OK) {
        fprintf(stderr, "%s: --instr-map %s: instrumentation map error %s: %s\n", c->prog,
                c->instr_map, tracerd_status_name(st),
                n ? tracerd_xray_names_error_reason(n) : "out of memory");
        tracerd_xray_names_free(n);
        return CLI_EXIT_USAGE;
    }
    *out = n;
    return CLI_EXIT_OK;
}

/* The formats' reader configs from --lenient and -o, which the auto config
 * borrows: they live in the caller's frame as long as the reader. */
struct ev_configs {
    cli_config_store_t store[CLI_NFORMATS]; /* each format's reader config(s) */
};

static int ev_configs(const cli_t *c, struct ev_configs *fc, tracerd_auto_config_t *cfg)
{
    int rc = cli_event_configs(c, fc->store, cfg);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* a file's name: xtrace takes the thread (or CPU) id from it */
    bool named =
        c->listen == NULL && strcmp(c->path, "-") != 0 && strncmp(c->path, "tcp://", 6) != 0;
    cfg->source_name = named ? c->path : NULL;
    return CLI_EXIT_OK;
}

static bool auto_done(const void *a)
{
    return tracerd_auto_done(a);
}

/* The filter's range end once the reading is over. */
static void note_range(struct ev_run *r, const tracerd_event_filter_t *f)
{
    uint64_t b;
    r->range_end = TRACERD_EVENT_FILTER_NO_END;
    if (f != NULL && !tracerd_event_filter_range(f, &b, &r->range_end))
        r->range_end = TRACERD_EVENT_FILTER_NO_END;
    r->cut = tracerd_event_filter_cut(f);
}

/* The format a stream is read as (UNKNOWN: the auto reader detects it). */
static tracerd_event_format_t stream_format(const cli_t *c)
{
    bool exact;
    if (c->format != NULL)
        return tracerd_event_format_from_name(c->format);
    if (cli_xtrace_name_kind(c->path, &exact) == TRACERD_XTRACE_FILE_INSNDATA)
        return TRACERD_EVENT_FORMAT_XTRACE; /* no magic number: the name says it */
    /* the format info and dump would read it as (a .fxt archive without a
     * magic record, ...); xtrace snapshots are not events */
    const struct cli_format *f = cli_pick_format(c);
    tracerd_event_format_t ef =
        f != NULL ? tracerd_event_format_from_name(f->name) : TRACERD_EVENT_FORMAT_UNKNOWN;
    return ef != TRACERD_EVENT_FORMAT_XTRACE ? ef : TRACERD_EVENT_FORMAT_UNKNOWN;
}

static int run_stream(struct ev_run *r, const tracerd_xray_names_t *names, const void *meta,
                      size_t meta_len)
{
    cli_t *c = r->c;
    tracerd_auto_config_t cfg;
    struct ev_configs fc;
    int orc = ev_configs(c, &fc, &cfg);
    if (orc != CLI_EXIT_OK)
        return orc;
    tracerd_event_filter_t *filter;
    if ((orc = cli_filter_make(c, &filter)) != CLI_EXIT_OK)
        return orc;
    cfg.filter = filter;
    cfg.xray_names = names;
    cfg.no_args = r->no_args;
    cfg.format = stream_format(c);
    tracerd_event_callbacks_t cbs;
    tracerd_event_callbacks_init(&cbs);
    cbs.on_event = on_event;
    cbs.on_source = on_source;
    cbs.on_warning = on_warning;
    tracerd_auto_reader_t *a;
    tracerd_status_t st = tracerd_auto_new(&cfg, &cbs, r, NULL, &a);
    if (st != TRACERD_OK) {
        tracerd_event_filter_free(filter);
        return cli_new_failed(c, st);
    }
    if (meta != NULL)
        st = tracerd_auto_metadata(a, meta, meta_len);
    c->input_done = filter != NULL ? auto_done : NULL;
    if (st == TRACERD_OK)
        st = cli_pump_drain(c, tracerd_auto_ops(), a, r->drain, r->drain_ctx);
    c->input_done = NULL;
    int rc = exit_code(r, a, st);
    r->stopped = tracerd_auto_done(a);
    note_range(r, filter);
    tracerd_auto_free(a);
    tracerd_event_filter_free(filter);
    return rc;
}

static uint8_t *read_file(const char *path, size_t max, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    size_t cap = 65536, n = 0;
    uint8_t *buf = cli_malloc(cap);
    while (buf != NULL) {
        if (n == cap) {
            if (cap >= max) {
                cli_free(buf);
                buf = NULL;
                errno = EFBIG;
                break;
            }
            uint8_t *nb = cli_realloc(buf, cap * 2);
            if (nb == NULL) {
                cli_free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k < 0) {
                cli_free(buf);
                buf = NULL;
            }
            break;
        }
        n += (size_t)k;
    }
    close(fd);
    *len = n;
    return buf;
}

/* Does some format plugin recognise this directory (a CTF trace: a
 * `metadata` file in it or below)? */
static bool dir_is_trace(const cli_t *c)
{
    static const struct cli_format *const fmts[] = {
#define X(name) &cli_format_##name,
#include "formats.h"
#undef X
        NULL};
    for (size_t i = 0; fmts[i] != NULL; i++)
        if (fmts[i]->detect(c->head, 0, c->path, true) > 0)
            return true;
    return false;
}

int ev_dir_exit_code(struct ev_run *r, tracerd_status_t st, bool opened, const char *file,
                     uint64_t offset, const char *reason)
{
    cli_t *c = r->c;
    if (st == TRACERD_OK)
        return CLI_EXIT_OK;
    if (st == TRACERD_E_UNSUPPORTED && !opened) {
        fprintf(stderr, "%s: %s: CTF trace directory: `%s` is not available in this build\n",
                c->prog, c->path, c->cmd);
        return CLI_EXIT_UNSUPPORTED;
    }
    if (st == TRACERD_E_IO && !opened)
        return CLI_EXIT_IO;
    if (st == TRACERD_E_NOMEM) {
        fprintf(stderr, "%s: %s: out of memory\n", c->prog, c->path);
        return CLI_EXIT_IO;
    }
    if (c->oom) /* said when it happened (cli_oom) */
        return CLI_EXIT_IO;
    map_dir_failed(c, &st, &reason);
    if (st != TRACERD_E_IO && r->before_error != NULL)
        r->before_error(r->user);
    cli_report_in(c, file, "ctf", st, offset, reason);
    return st == TRACERD_E_IO ? CLI_EXIT_IO : CLI_EXIT_TRACE;
}

int ev_dir_check(const cli_t *c)
{
    return dir_is_trace(c) ? CLI_EXIT_OK : cli_unknown_format(c);
}

/* A CTF trace directory: every stream, events merged in time order. */
static int run_dir(struct ev_run *r, const tracerd_xray_names_t *names)
{
    cli_t *c = r->c;
    int drc = ev_dir_check(c);
    if (drc != CLI_EXIT_OK)
        return drc;
    tracerd_auto_config_t cfg;
    struct ev_configs fc;
    int orc = ev_configs(c, &fc, &cfg);
    if (orc != CLI_EXIT_OK)
        return orc;
    tracerd_ctf_dir_config_t dc; /* the directory reader takes a directory config */
    tracerd_ctf_dir_config_init(&dc);
    dc.stream = cfg.ctf; /* NULL: the defaults */
    map_files_t files;
    map_dir_config(c, &files, &dc);
    cfg.ctf_dir = &dc;
    tracerd_event_filter_t *filter;
    if ((orc = cli_filter_make(c, &filter)) != CLI_EXIT_OK)
        return orc;
    cfg.filter = filter;
    cfg.xray_names = names;
    cfg.no_args = r->no_args;
    tracerd_event_callbacks_t cbs;
    tracerd_event_callbacks_init(&cbs);
    cbs.on_event = on_event;
    cbs.on_source = on_source;
    cbs.on_warning = on_warning;
    tracerd_event_dir_t *d = NULL;
    tracerd_status_t st = tracerd_event_dir_open(c->path, &cfg, &cbs, r, NULL, &d);
    while (st == TRACERD_OK || st == TRACERD_PAUSED) {
        if (st == TRACERD_PAUSED && r->drain != NULL && r->drain(r->drain_ctx) != 0) {
            st = TRACERD_E_IO;
            break;
        }
        st = tracerd_event_dir_run(d);
        if (st == TRACERD_OK)
            break;
    }
    int rc = ev_dir_exit_code(r, st, d != NULL, tracerd_event_dir_error_path(d),
                              tracerd_event_dir_error_offset(d), tracerd_event_dir_error_reason(d));
    r->stopped = tracerd_event_dir_done(d);
    note_range(r, filter);
    tracerd_event_dir_free(d);
    tracerd_event_filter_free(filter);
    return rc;
}

/* A CTF data stream file given alone: use the `metadata` file beside it, as
 * trace directories have it (sets c->metadata to a static path buffer). */
static bool ctf_stream_beside_metadata(cli_t *c)
{
    static char path[4096];
    int score;
    if (c->is_dir || c->head_len < 4 || c->listen != NULL || strcmp(c->path, "-") == 0 ||
        strncmp(c->path, "tcp://", 6) == 0)
        return false;
    if (tracerd_event_detect(c->head, c->head_len, &score) != TRACERD_EVENT_FORMAT_CTF ||
        !((c->head[0] == 0xc1 && c->head[3] == 0xc1)))
        return false;
    const char *slash = strrchr(c->path, '/');
    size_t dl = slash != NULL ? (size_t)(slash - c->path) : 0;
    if (dl + 10 >= sizeof path)
        return false;
    memcpy(path, c->path, dl);
    memcpy(path + dl, dl ? "/metadata" : "metadata", dl ? 10 : 9);
    if (access(path, R_OK) != 0)
        return false;
    c->metadata = path;
    return true;
}

void ev_run_init(struct ev_run *r, cli_t *c, tracerd_event_cb event_cb,
                 tracerd_event_source_cb source_cb, void *user)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->on_event = event_cb;
    r->on_source = source_cb;
    r->user = user;
}

int ev_run(struct ev_run *r)
{
    cli_t *c = r->c;
    const tracerd_xray_names_t *names = c->names;
    int rc;
    r->range_end = TRACERD_EVENT_FILTER_NO_END;
    if (c->is_dir) {
        rc = run_dir(r, names);
    } else if (c->metadata != NULL || ctf_stream_beside_metadata(c)) {
        size_t mlen = 0;
        uint8_t *meta = read_file(c->metadata, (size_t)1 << 28, &mlen);
        if (meta == NULL && errno == ENOMEM) {
            rc = cli_oom(c, "metadata buffer");
        } else if (meta == NULL) {
            fprintf(stderr, "%s: %s: %s\n", c->prog, c->metadata, strerror(errno));
            rc = CLI_EXIT_IO;
        } else {
            rc = run_stream(r, names, meta, mlen);
            cli_free(meta);
        }
    } else {
        rc = run_stream(r, names, NULL, 0);
    }
    return rc;
}

bool ev_plain_stream(cli_t *c, tracerd_event_format_t format)
{
    /* TRACERD_CLI_GENERAL=1: the event view always (tests compare the two) */
    const char *general = getenv("TRACERD_CLI_GENERAL");
    if (general != NULL && strcmp(general, "1") == 0)
        return false;
    return !c->is_dir && c->metadata == NULL && c->nfilters == 0 &&
           !ctf_stream_beside_metadata(c) && stream_format(c) == format;
}
