/* CTF trace directories: finds every folder holding a `metadata` file,
 * parses it, opens every stream file beside it, and merges the events of all
 * streams by timestamp with a binary heap. A stream's reader runs its events
 * up to the heap's next time without asking (run_below); with two streams,
 * its event loop hands the turn to the other one and back without returning
 * here (advance, tracerd__ctf_stream_feed_merged). Each stream keeps one read buffer
 * (chunk_bytes, smaller when many streams share max_read_buffer_bytes), or
 * none when the client shows the files' bytes in place (cfg.files), and
 * one stream reader (whose stitch buffer grows only as straddling records
 * need); both are freed when the stream ends. Memory is bounded by the
 * number of streams (max_streams), not by the length of the trace. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf_internal.h"
#include "located.h"
#include "../core/sized.h"

struct dstream {
    tracerd_ctf_dir_stream_t pub;
    tracerd_ctf_stream_t *r;
    /* A stream may be split over several files (LTTng tracefile rotation):
     * files[] in order, pub.path is files[cur_file]. */
    char **files;
    uint32_t nfiles, cur_file;
    uint64_t file_base; /* reader offset where the current file starts */
    uint64_t file_off;  /* bytes of the current file read so far */
    /* first packet, for grouping */
    bool keyed, has_ts, merged;
    uint64_t key_sid, key_inst, first_ts;
    uint32_t trace_index;
    int fd;
    void *file;   /* the client's handle (cfg.files), or NULL */
    uint8_t *buf; /* buf_cap bytes, from the first read to the stream's end */
    size_t buf_cap;
    /* the bytes being fed (io.p .. io.end: of buf, or of the client's view),
     * its reader's gate bound while it runs (io.below, io.hold: run_below),
     * and the time of the next event (io.ns) while it waits in the heap */
    struct tracerd__ctf_side io;
    uint64_t size; /* largest of its files when opened (sizes its buffer) */
    bool eof, finished, done;
    struct tracerd_ctf_dir *d;
};

struct dtrace {
    char *path;
    tracerd_ctf_trace_t *trace;
};

struct tracerd_ctf_dir {
    tracerd_allocator_t alloc;
    tracerd_ctf_dir_config_t cfg; /* its stream and metadata point to the two below */
    tracerd_ctf_stream_config_t stream_cfg;
    tracerd_ctf_metadata_config_t metadata_cfg;
    tracerd_ctf_callbacks_t cb;
    void *user;
    struct dtrace *traces;
    uint32_t ntraces, cap_traces;
    struct dstream *streams;
    uint32_t nstreams, cap_streams;
    size_t read_bytes; /* read size (and buffer) per stream */
    uint32_t *heap;
    uint32_t nheap;
    uint32_t primed; /* streams primed so far */
    int32_t cur;     /* stream being advanced (-1 none) */
    tracerd_status_t status;
    char err_path[512];
    uint64_t err_offset;
    char err_reason[TRACERD__REASON_MAX + 64];
};

static void ctf_dir_config_defaults(tracerd_ctf_dir_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg); /* stream, metadata: NULL, the defaults */
    cfg->chunk_bytes = 65536;
    cfg->max_streams = 4096;
    cfg->max_traces = 256;
    cfg->max_dir_depth = 8;
    cfg->max_open_files = 256;
    cfg->max_read_buffer_bytes = (size_t)16 << 20;
}

TRACERD__SIZED_INIT(tracerd_ctf_dir_config_init, tracerd_ctf_dir_config_t, ctf_dir_config_defaults)

static char *dupstr(const tracerd_allocator_t *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = tracerd__calloc(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void freestr(const tracerd_allocator_t *a, char *s)
{
    if (s)
        tracerd__free(a, s, strlen(s) + 1);
}

static tracerd_status_t derr(struct tracerd_ctf_dir *d, tracerd_status_t st, const char *path,
                             uint64_t off, const char *fmt, ...) TRACERD__PRINTF(5, 6);
static tracerd_status_t derr(struct tracerd_ctf_dir *d, tracerd_status_t st, const char *path,
                             uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err_reason, sizeof d->err_reason, fmt, ap);
    va_end(ap);
    tracerd__format(d->err_path, sizeof d->err_path, "%s", path ? path : "");
    d->err_offset = off;
    d->status = st;
    return st;
}

/* Natural order: digit runs compare by value (chan_0_2 < chan_0_10). */
static int natcmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = 0, nb = 0;
            while (a[na] >= '0' && a[na] <= '9')
                na++;
            while (b[nb] >= '0' && b[nb] <= '9')
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int cmp_names(const void *x, const void *y)
{
    return natcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Lists the names in a folder (sorted), skipping "." and "..". */
static tracerd_status_t list_dir(struct tracerd_ctf_dir *d, const char *path, char ***out,
                                 size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    DIR *dir = opendir(path);
    if (dir == NULL)
        return derr(d, TRACERD_E_IO, path, 0, "cannot open folder: %s", TRACERD__STRERROR(errno));
    size_t n = 0, cap = 0;
    char **names = NULL;
    struct dirent *e;
    tracerd_status_t st = TRACERD_OK;
    while ((e = readdir(dir)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 32;
            if (nc > 1u << 20) {
                st = derr(d, TRACERD_E_LIMIT, path, 0, "too many entries in the folder");
                break;
            }
            char **nn = tracerd__calloc(&d->alloc, sizeof *nn * nc);
            if (nn == NULL) {
                st = derr(d, TRACERD_E_NOMEM, path, 0, "out of memory");
                break;
            }
            if (n)
                memcpy(nn, names, sizeof *nn * n);
            if (names)
                tracerd__free(&d->alloc, names, sizeof *names * cap);
            names = nn;
            cap = nc;
        }
        names[n] = dupstr(&d->alloc, e->d_name);
        if (names[n] == NULL) {
            st = derr(d, TRACERD_E_NOMEM, path, 0, "out of memory");
            break;
        }
        n++;
    }
    closedir(dir);
    if (st != TRACERD_OK) {
        for (size_t i = 0; i < n; i++)
            freestr(&d->alloc, names[i]);
        if (names)
            tracerd__free(&d->alloc, names, sizeof *names * cap);
        return st;
    }
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    *n_out = cap; /* capacity, for freeing; entries beyond n are NULL */
    return TRACERD_OK;
}

static void free_list(struct tracerd_ctf_dir *d, char **names, size_t cap)
{
    if (names == NULL)
        return;
    for (size_t i = 0; i < cap; i++)
        freestr(&d->alloc, names[i]);
    tracerd__free(&d->alloc, names, sizeof *names * cap);
}

static char *join(struct tracerd_ctf_dir *d, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = tracerd__calloc(&d->alloc, na + nb + 2);
    if (p == NULL)
        return NULL;
    memcpy(p, a, na);
    size_t o = na;
    if (na && a[na - 1] != '/')
        p[o++] = '/';
    memcpy(p + o, b, nb);
    p[o + nb] = '\0';
    return p;
}

static tracerd_status_t read_metadata(struct tracerd_ctf_dir *d, const char *path,
                                      tracerd_ctf_trace_t **out)
{
    *out = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return derr(d, TRACERD_E_IO, path, 0, "cannot open: %s", TRACERD__STRERROR(errno));
    tracerd_ctf_metadata_t *m;
    tracerd_status_t st = tracerd_ctf_metadata_new(d->cfg.metadata, &d->alloc, &m);
    if (st != TRACERD_OK) {
        close(fd);
        return derr(d, st, path, 0, "cannot make a metadata reader");
    }
    uint8_t buf[16384];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            st = derr(d, TRACERD_E_IO, path, tracerd_ctf_metadata_offset(m), "read error: %s",
                      TRACERD__STRERROR(errno));
            break;
        }
        if (n == 0) {
            st = tracerd_ctf_metadata_finish(m, out);
            if (st != TRACERD_OK)
                derr(d, st, path, tracerd_ctf_metadata_record_offset(m), "%s",
                     tracerd_ctf_metadata_error_reason(m));
            break;
        }
        st = tracerd_ctf_metadata_feed(m, buf, (size_t)n);
        if (st != TRACERD_OK) {
            derr(d, st, path, tracerd_ctf_metadata_record_offset(m), "%s",
                 tracerd_ctf_metadata_error_reason(m));
            break;
        }
    }
    tracerd_ctf_metadata_free(m);
    close(fd);
    return st;
}

/* The merge's gate, asked before each event of stream s that its reader
 * cannot let through or hold back by its time alone (run_below): the event
 * goes through when it still comes before every other stream's next event
 * (ties go to the lower stream index, as in the heap): then no pause and no
 * heap operation is needed. Else the stream waits in the heap with this
 * event's time (advance takes it from the reader). */
static bool gate(void *user, uint64_t ns)
{
    const struct dstream *s = user;
    const struct tracerd_ctf_dir *d = s->d;
    if (d->primed == d->nstreams && d->cur >= 0 && &d->streams[d->cur] == s) {
        if (d->nheap == 0)
            return true;
        const struct dstream *top = &d->streams[d->heap[0]];
        if (ns < top->io.ns || (ns == top->io.ns && (uint32_t)d->cur < d->heap[0]))
            return true;
    }
    return false;
}

static tracerd_status_t add_trace(struct tracerd_ctf_dir *d, const char *folder, char **names,
                                  size_t cap)
{
    if (d->ntraces >= d->cfg.max_traces)
        return derr(d, TRACERD_E_LIMIT, folder, 0, "more than max_traces (%u) metadata files",
                    d->cfg.max_traces);
    if (d->ntraces == d->cap_traces) {
        uint32_t nc = d->cap_traces ? d->cap_traces * 2 : 4;
        struct dtrace *nt = tracerd__calloc(&d->alloc, sizeof *nt * nc);
        if (nt == NULL)
            return derr(d, TRACERD_E_NOMEM, folder, 0, "out of memory");
        if (d->ntraces)
            memcpy(nt, d->traces, sizeof *nt * d->ntraces);
        if (d->traces)
            tracerd__free(&d->alloc, d->traces, sizeof *d->traces * d->cap_traces);
        d->traces = nt;
        d->cap_traces = nc;
    }
    struct dtrace *tr = &d->traces[d->ntraces];
    memset(tr, 0, sizeof *tr);
    tr->path = dupstr(&d->alloc, folder);
    char *mp = join(d, folder, "metadata");
    if (tr->path == NULL || mp == NULL) {
        freestr(&d->alloc, tr->path);
        freestr(&d->alloc, mp);
        return derr(d, TRACERD_E_NOMEM, folder, 0, "out of memory");
    }
    tracerd_status_t st = read_metadata(d, mp, &tr->trace);
    freestr(&d->alloc, mp);
    if (st != TRACERD_OK) {
        freestr(&d->alloc, tr->path);
        return st;
    }
    uint32_t ti = d->ntraces++, first_stream = d->nstreams;
    for (size_t i = 0; i < cap && names[i]; i++) {
        const char *nm = names[i];
        if (nm[0] == '.' || !strcmp(nm, "metadata"))
            continue;
        char *fp = join(d, folder, nm);
        if (fp == NULL)
            return derr(d, TRACERD_E_NOMEM, folder, 0, "out of memory");
        struct stat sb;
        if (stat(fp, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            freestr(&d->alloc, fp);
            continue;
        }
        if (d->nstreams >= d->cfg.max_streams) {
            freestr(&d->alloc, fp);
            /* the value asked for: every stream file of this trace counted */
            uint32_t more = 1;
            for (size_t j = i + 1; j < cap && names[j]; j++) {
                if (names[j][0] == '.' || !strcmp(names[j], "metadata"))
                    continue;
                char *p = join(d, folder, names[j]);
                more += p != NULL && stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
                freestr(&d->alloc, p);
            }
            return derr(d, TRACERD_E_LIMIT, folder, 0,
                        "%llu stream files (%llu in this trace): more than max_streams (%u)",
                        (unsigned long long)d->nstreams + more,
                        (unsigned long long)(d->nstreams - first_stream) + more,
                        d->cfg.max_streams);
        }
        if (d->nstreams == d->cap_streams) {
            uint32_t nc = d->cap_streams ? d->cap_streams * 2 : 16;
            struct dstream *ns = tracerd__calloc(&d->alloc, sizeof *ns * nc);
            if (ns == NULL) {
                freestr(&d->alloc, fp);
                return derr(d, TRACERD_E_NOMEM, folder, 0, "out of memory");
            }
            if (d->nstreams)
                memcpy(ns, d->streams, sizeof *ns * d->nstreams);
            if (d->streams)
                tracerd__free(&d->alloc, d->streams, sizeof *d->streams * d->cap_streams);
            d->streams = ns;
            d->cap_streams = nc;
        }
        char **files = tracerd__calloc(&d->alloc, sizeof *files);
        if (files == NULL) {
            freestr(&d->alloc, fp);
            return derr(d, TRACERD_E_NOMEM, folder, 0, "out of memory");
        }
        files[0] = fp;
        struct dstream *s = &d->streams[d->nstreams++];
        memset(s, 0, sizeof *s);
        s->fd = -1;
        s->files = files;
        s->nfiles = 1;
        s->trace_index = ti;
        s->pub.path = fp;
        s->pub.trace = d->traces[ti].trace;
        s->pub.trace_path = d->traces[ti].path;
        s->pub.index = d->nstreams - 1;
        s->size = (uint64_t)sb.st_size;
    }
    return TRACERD_OK;
}

/* Walks the folder tree with an explicit stack. */
static tracerd_status_t scan(struct tracerd_ctf_dir *d, const char *root)
{
    struct item {
        char *path;
        uint32_t depth;
    };
    size_t cap = 64, n = 0;
    struct item *stk = tracerd__calloc(&d->alloc, sizeof *stk * cap);
    if (stk == NULL)
        return derr(d, TRACERD_E_NOMEM, root, 0, "out of memory");
    stk[n].path = dupstr(&d->alloc, root);
    stk[n++].depth = 0;
    tracerd_status_t st =
        stk[0].path ? TRACERD_OK : derr(d, TRACERD_E_NOMEM, root, 0, "out of memory");
    while (st == TRACERD_OK && n > 0) {
        struct item it = stk[--n];
        char **names;
        size_t ncap;
        st = list_dir(d, it.path, &names, &ncap);
        if (st != TRACERD_OK) {
            freestr(&d->alloc, it.path);
            break;
        }
        bool has_meta = false;
        for (size_t i = 0; i < ncap && names[i]; i++)
            has_meta = has_meta || !strcmp(names[i], "metadata");
        if (has_meta) {
            st = add_trace(d, it.path, names, ncap);
        } else if (it.depth < d->cfg.max_dir_depth) {
            /* push subfolders in reverse so they are visited in order */
            size_t cnt = 0;
            while (cnt < ncap && names[cnt])
                cnt++;
            for (size_t i = cnt; i-- > 0 && st == TRACERD_OK;) {
                char *fp = join(d, it.path, names[i]);
                if (fp == NULL) {
                    st = derr(d, TRACERD_E_NOMEM, it.path, 0, "out of memory");
                    break;
                }
                struct stat sb;
                if (names[i][0] == '.' || stat(fp, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
                    freestr(&d->alloc, fp);
                    continue;
                }
                if (n == cap) {
                    struct item *ns = tracerd__calloc(&d->alloc, sizeof *ns * cap * 2);
                    if (ns == NULL) {
                        freestr(&d->alloc, fp);
                        st = derr(d, TRACERD_E_NOMEM, it.path, 0, "out of memory");
                        break;
                    }
                    memcpy(ns, stk, sizeof *stk * n);
                    tracerd__free(&d->alloc, stk, sizeof *stk * cap);
                    stk = ns;
                    cap *= 2;
                }
                stk[n].path = fp;
                stk[n++].depth = it.depth + 1;
            }
        }
        free_list(d, names, ncap);
        freestr(&d->alloc, it.path);
    }
    while (n > 0)
        freestr(&d->alloc, stk[--n].path);
    tracerd__free(&d->alloc, stk, sizeof *stk * cap);
    if (st == TRACERD_OK && d->ntraces == 0)
        st = derr(d, TRACERD_E_IO, root, 0, "no 'metadata' file in this folder or below");
    return st;
}

/* ---- streams split over several files ---------------------------------- */

static int peek_packet(void *user, const tracerd_ctf_packet_t *p)
{
    struct dstream *s = user;
    s->keyed = p->has_stream_instance_id;
    s->key_sid = p->stream_id;
    s->key_inst = p->stream_instance_id;
    s->has_ts = p->has_timestamp_begin;
    s->first_ts = p->timestamp_begin;
    return TRACERD_CB_PAUSE;
}

/* Reads the first packet header of a file (best effort: a file that cannot
 * be read or decoded is simply not grouped; reading it later reports why). */
static tracerd_status_t peek(struct tracerd_ctf_dir *d, struct dstream *s)
{
    tracerd_ctf_callbacks_t cb;
    memset(&cb, 0, sizeof cb);
    cb.on_packet_begin = peek_packet;
    tracerd_ctf_stream_t *r;
    tracerd_status_t st =
        tracerd_ctf_stream_new(s->pub.trace, d->cfg.stream, &cb, s, &d->alloc, &r);
    if (st != TRACERD_OK)
        return derr(d, st, s->pub.path, 0, "cannot make a stream reader");
    int fd = open(s->pub.path, O_RDONLY);
    if (fd >= 0) {
        uint8_t buf[4096];
        ssize_t n;
        do
            n = read(fd, buf, sizeof buf);
        while (n < 0 && errno == EINTR);
        close(fd);
        size_t used;
        if (n > 0)
            (void)tracerd_ctf_stream_feed(r, buf, (size_t)n, &used);
    }
    tracerd_ctf_stream_free(r);
    return TRACERD_OK;
}

/* Files of one trace with the same stream class and stream instance id are
 * one stream: their files are read one after the other, in the order of
 * their first timestamp_begin when every file of the group has one (ties and
 * files without: their name order). Groups are found by sorting (O(n log n)
 * in the number of files; a pairwise search was quadratic). */
struct gkey {
    uint64_t sid, inst, ts;
    uint32_t trace, index;
};

static int cmp_group(const void *x, const void *y)
{
    const struct gkey *a = x, *b = y;
    if (a->trace != b->trace)
        return a->trace < b->trace ? -1 : 1;
    if (a->sid != b->sid)
        return a->sid < b->sid ? -1 : 1;
    if (a->inst != b->inst)
        return a->inst < b->inst ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_first_ts(const void *x, const void *y)
{
    const struct gkey *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static tracerd_status_t group_files(struct tracerd_ctf_dir *d)
{
    for (uint32_t i = 0; i < d->nstreams; i++) {
        tracerd_status_t st = peek(d, &d->streams[i]);
        if (st != TRACERD_OK)
            return st;
    }
    uint32_t nk = 0;
    for (uint32_t i = 0; i < d->nstreams; i++)
        nk += d->streams[i].keyed;
    if (nk < 2)
        return TRACERD_OK;
    struct gkey *keys = tracerd__calloc(&d->alloc, sizeof *keys * nk);
    if (keys == NULL)
        return derr(d, TRACERD_E_NOMEM, d->streams[0].pub.path, 0, "out of memory");
    for (uint32_t i = 0, k = 0; i < d->nstreams; i++) {
        const struct dstream *s = &d->streams[i];
        if (s->keyed)
            keys[k++] = (struct gkey){s->key_sid, s->key_inst, s->first_ts, s->trace_index, i};
    }
    qsort(keys, nk, sizeof *keys, cmp_group);
    tracerd_status_t st = TRACERD_OK;
    for (uint32_t g = 0, e; g < nk; g = e) {
        const struct gkey *a = &keys[g];
        bool all_ts = d->streams[a->index].has_ts;
        for (e = g + 1; e < nk && keys[e].trace == a->trace && keys[e].sid == a->sid &&
                        keys[e].inst == a->inst;
             e++)
            all_ts = all_ts && d->streams[keys[e].index].has_ts;
        uint32_t n = e - g;
        if (n == 1)
            continue;
        /* the group keeps the place of its first file by name (keys[g]) */
        struct dstream *f = &d->streams[a->index];
        if (all_ts)
            qsort(keys + g, n, sizeof *keys, cmp_first_ts);
        char **files = tracerd__calloc(&d->alloc, sizeof *files * n);
        if (files == NULL) {
            st = derr(d, TRACERD_E_NOMEM, f->pub.path, 0, "out of memory");
            break;
        }
        for (uint32_t k = 0; k < n; k++) {
            struct dstream *b = &d->streams[keys[g + k].index];
            files[k] = b->files[0];
            tracerd__free(&d->alloc, b->files, sizeof *b->files);
            b->files = NULL;
            b->nfiles = 0;
            b->merged = b != f;
        }
        for (uint32_t k = 1; k < n; k++) {
            uint64_t z = d->streams[keys[g + k].index].size;
            f->size = z > f->size ? z : f->size;
        }
        f->files = files;
        f->nfiles = n;
        f->pub.path = files[0];
    }
    tracerd__free(&d->alloc, keys, sizeof *keys * nk);
    if (st != TRACERD_OK)
        return st;
    uint32_t o = 0;
    for (uint32_t i = 0; i < d->nstreams; i++) {
        if (d->streams[i].merged)
            continue;
        d->streams[o] = d->streams[i];
        d->streams[o].pub.index = o;
        o++;
    }
    d->nstreams = o;
    return TRACERD_OK;
}

tracerd_status_t tracerd_ctf_dir_open(const char *path, const tracerd_ctf_dir_config_t *cfg,
                                      const tracerd_ctf_callbacks_t *cbs, void *user,
                                      const tracerd_allocator_t *alloc, tracerd_ctf_dir_t **out)
{
    if (out == NULL || path == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    /* The stream and metadata configs it points to are read by their own
     * size members, and copied. */
    tracerd_ctf_dir_config_t c;
    tracerd_ctf_dir_config_init(&c);
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    tracerd_ctf_stream_config_t sc;
    tracerd_ctf_stream_config_init(&sc);
    tracerd_ctf_metadata_config_t mc;
    tracerd_ctf_metadata_config_init(&mc);
    if (TRACERD__SIZED_READ(tracerd_ctf_dir_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_ctf_callbacks_t, &cb, cbs) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &sc, c.stream) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_ctf_metadata_config_t, &mc, c.metadata) != TRACERD_OK ||
        (cb.on_field != NULL && cb.on_fields != NULL)) /* one or the other */
        return TRACERD_E_INVALID;
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, alloc);
    struct tracerd_ctf_dir *d = tracerd__calloc(&a, sizeof *d);
    if (d == NULL)
        return TRACERD_E_NOMEM;
    d->alloc = a;
    d->cfg = c;
    d->stream_cfg = sc;
    d->metadata_cfg = mc;
    d->cfg.stream = &d->stream_cfg;
    d->cfg.metadata = &d->metadata_cfg;
    const tracerd_ctf_dir_files_t *fs = &d->cfg.files;
    bool some = fs->open != NULL || fs->view != NULL || fs->close != NULL;
    bool all = fs->open != NULL && fs->view != NULL && fs->close != NULL;
    if (d->cfg.chunk_bytes < 64 || d->cfg.chunk_bytes > ((size_t)1 << 30) || some != all) {
        tracerd__free(&a, d, sizeof *d);
        return TRACERD_E_INVALID;
    }
    d->cb = cb;
    d->user = user;
    d->cur = -1;
    *out = d;
    tracerd_status_t st = scan(d, path);
    if (st == TRACERD_OK)
        st = group_files(d);
    /* Read buffers: chunk_bytes each while they fit in max_read_buffer_bytes
     * together, else that budget shared (at least 4 KiB, or chunk_bytes if
     * smaller): 4,096 streams read 4 KiB at a time at the defaults. */
    const size_t budget =
        d->cfg.max_read_buffer_bytes ? d->cfg.max_read_buffer_bytes : (size_t)16 << 20;
    d->read_bytes = d->cfg.chunk_bytes;
    if (d->nstreams > 0 && d->read_bytes > budget / d->nstreams) {
        d->read_bytes = budget / d->nstreams;
        if (d->read_bytes < 4096)
            d->read_bytes = d->cfg.chunk_bytes < 4096 ? d->cfg.chunk_bytes : 4096;
    }
    for (uint32_t i = 0; st == TRACERD_OK && i < d->nstreams; i++) {
        struct dstream *s = &d->streams[i];
        s->d = d;
        st = tracerd_ctf_stream_new(s->pub.trace, d->cfg.stream, &d->cb, d->user, &d->alloc, &s->r);
        if (st != TRACERD_OK) {
            derr(d, st, s->pub.path, 0, "cannot make a stream reader");
            break;
        }
        tracerd__ctf_stream_set_gate(s->r, gate, s);
        s->io.r = s->r;
        s->io.index = i;
    }
    if (st == TRACERD_OK) {
        d->heap = tracerd__calloc(&d->alloc, sizeof *d->heap * (d->nstreams + 1));
        if (d->heap == NULL)
            st = derr(d, TRACERD_E_NOMEM, path, 0, "out of memory");
    }
    if (st != TRACERD_OK)
        return st; /* *out stays set so the caller can read the error, then free */
    d->status = TRACERD_OK;
    return TRACERD_OK;
}

static bool heap_less(const struct tracerd_ctf_dir *d, uint32_t a, uint32_t b)
{
    const struct dstream *x = &d->streams[a], *y = &d->streams[b];
    return x->io.ns < y->io.ns || (x->io.ns == y->io.ns && a < b);
}

static void heap_push(struct tracerd_ctf_dir *d, uint32_t s)
{
    uint32_t i = d->nheap++;
    d->heap[i] = s;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!heap_less(d, d->heap[i], d->heap[p]))
            break;
        uint32_t t = d->heap[i];
        d->heap[i] = d->heap[p];
        d->heap[p] = t;
        i = p;
    }
}

/* Restores the heap order below its top (the top changed). */
static void heap_down(struct tracerd_ctf_dir *d)
{
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < d->nheap && heap_less(d, d->heap[l], d->heap[m]))
            m = l;
        if (r < d->nheap && heap_less(d, d->heap[r], d->heap[m]))
            m = r;
        if (m == i)
            break;
        uint32_t t = d->heap[i];
        d->heap[i] = d->heap[m];
        d->heap[m] = t;
        i = m;
    }
}

static uint32_t heap_pop(struct tracerd_ctf_dir *d)
{
    uint32_t top = d->heap[0];
    d->heap[0] = d->heap[--d->nheap];
    heap_down(d);
    return top;
}

/* heap_push(s) then heap_pop in one step: s itself when it comes first. */
static uint32_t heap_pushpop(struct tracerd_ctf_dir *d, uint32_t s)
{
    if (d->nheap == 0 || heap_less(d, s, d->heap[0]))
        return s;
    uint32_t top = d->heap[0];
    d->heap[0] = s;
    if (d->nheap > 1) /* (one stream in the heap: two alternate) */
        heap_down(d);
    return top;
}

static tracerd_status_t stream_fail(struct tracerd_ctf_dir *d, struct dstream *s,
                                    tracerd_status_t st)
{
    const char *path = tracerd_ctf_stream_error_path(s->r);
    uint64_t off =
        path[0] ? tracerd_ctf_stream_error_offset(s->r) : tracerd_ctf_stream_record_offset(s->r);
    /* offsets within the current file of a stream split over several */
    off = off >= s->file_base ? off - s->file_base : 0;
    if (s->nfiles > 1)
        return derr(d, st, s->pub.path, off, "%s (offset in the stream's file set: %llu)",
                    tracerd_ctf_stream_error_reason(s->r),
                    (unsigned long long)(off + s->file_base));
    return derr(d, st, s->pub.path, off, "%s", tracerd_ctf_stream_error_reason(s->r));
}

/* A stream that ended gives back its read buffer and its reader (stitch
 * buffer, tables) at once: only streams still being merged hold memory. */
static void stream_release(struct tracerd_ctf_dir *d, struct dstream *s)
{
    tracerd__free(&d->alloc, s->buf, s->buf_cap);
    s->buf = NULL;
    if (s->file != NULL)
        d->cfg.files.close(d->cfg.files.ctx, s->file);
    s->file = NULL;
    s->io.p = s->io.end = NULL;
    tracerd_ctf_stream_free(s->r);
    s->r = s->io.r = NULL;
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

/* Reads the client's view of stream s's file at file_off (cfg.files). */
static tracerd_status_t view_next(struct tracerd_ctf_dir *d, struct dstream *s, size_t *n)
{
    const tracerd_ctf_dir_files_t *fs = &d->cfg.files;
    if (s->file == NULL) {
        errno = 0;
        s->file = fs->open(fs->ctx, s->pub.path);
        if (s->file == NULL)
            return derr(d, TRACERD_E_IO, s->pub.path, 0, "cannot open: %s",
                        TRACERD__STRERROR(errno));
    }
    const uint8_t *data = NULL;
    const char *why = NULL;
    *n = 0;
    errno = 0;
    if (fs->view(fs->ctx, s->file, s->file_off, d->read_bytes, &data, n, &why) != 0)
        return derr(d, TRACERD_E_IO, s->pub.path, s->file_off, "read error: %s",
                    why != NULL  ? why
                    : errno != 0 ? TRACERD__STRERROR(errno)
                                 : "the file source gave no reason");
    if (*n > d->read_bytes || (*n > 0 && data == NULL))
        return derr(d, TRACERD_E_IO, s->pub.path, s->file_off,
                    "read error: the file source gave %zu bytes where %zu were asked", *n,
                    d->read_bytes);
    s->io.p = data;
    return TRACERD_OK;
}

/* Reads stream s's file at file_off into its buffer. */
static tracerd_status_t read_next(struct tracerd_ctf_dir *d, struct dstream *s, size_t *n)
{
    if (s->buf == NULL) {
        /* no larger than its largest file was (rounded up to 512
         * bytes): a file that grows since is read in several reads */
        uint64_t want = (s->size + 511) / 512 * 512;
        s->buf_cap = want < d->read_bytes ? (size_t)want : d->read_bytes;
        if (s->buf_cap == 0)
            s->buf_cap = d->read_bytes < 4096 ? d->read_bytes : 4096;
        s->buf = tracerd__calloc(&d->alloc, s->buf_cap);
        if (s->buf == NULL)
            return derr(d, TRACERD_E_NOMEM, s->pub.path, s->file_off, "out of memory");
    }
    if (s->fd < 0) {
        s->fd = open(s->pub.path, O_RDONLY);
        if (s->fd < 0)
            return derr(d, TRACERD_E_IO, s->pub.path, 0, "cannot open: %s",
                        TRACERD__STRERROR(errno));
    }
    ssize_t got;
    do
        got = pread(s->fd, s->buf, s->buf_cap, (off_t)s->file_off);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return derr(d, TRACERD_E_IO, s->pub.path, s->file_off, "read error: %s",
                    TRACERD__STRERROR(errno));
    *n = (size_t)got;
    s->io.p = s->buf;
    if (got == 0 || d->nstreams > d->cfg.max_open_files) {
        close(s->fd); /* reopened at file_off for the next read */
        s->fd = -1;
    }
    return TRACERD_OK;
}

/* Brings stream s's next bytes (data, len, from pos 0): from the next file
 * of the stream when one ends, or sets eof after the last. (Out of line:
 * advance, whose loop runs at every switch between streams, stays small.) */
static TRACERD__NOINLINE tracerd_status_t fill(struct tracerd_ctf_dir *d, struct dstream *s)
{
    for (;;) {
        size_t n;
        tracerd_status_t st = d->cfg.files.view != NULL ? view_next(d, s, &n) : read_next(d, s, &n);
        if (st != TRACERD_OK)
            return st;
        s->io.end = n > 0 ? s->io.p + n : s->io.p; /* (a view of none may be NULL) */
        s->file_off += n;
        if (n > 0)
            return TRACERD_OK;
        if (s->file != NULL)
            d->cfg.files.close(d->cfg.files.ctx, s->file);
        s->file = NULL;
        if (s->cur_file + 1 < s->nfiles) {
            /* the next file of the same stream: it starts with a packet */
            s->cur_file++;
            s->pub.path = s->files[s->cur_file];
            s->file_base = tracerd_ctf_stream_offset(s->r);
            s->file_off = 0;
            continue;
        }
        s->eof = true;
        return TRACERD_OK;
    }
}

static inline void run_below(struct tracerd_ctf_dir *d, uint32_t i);

/* Feeds stream d->cur until its reader is gated before an event (returns OK
 * with its done false), ends (done), pauses for the user (PAUSED) or fails.
 * With two streams merged the feed may give the turn to the other one and
 * back, without returning, as long as their readers hold their next events
 * back in their event loops: d->cur is then the stream running, the other
 * one in the heap with the time of its event held back. */
static TRACERD__INLINE tracerd_status_t advance(struct tracerd_ctf_dir *d)
{
    struct dstream *s = &d->streams[d->cur];
    for (;;) {
        if (s->io.p == s->io.end && !s->eof) {
            tracerd_status_t st = fill(d, s);
            if (st != TRACERD_OK)
                return st;
        }
        tracerd_status_t st;
        bool held = false;
        if (s->io.p != s->io.end) {
            struct tracerd__ctf_merge m;
            m.side[0] = &s->io;
            /* the other of two streams, waiting with its next event (the
             * feed sees whether its event loop holds it) */
            m.side[1] =
                d->nheap == 1 && d->primed == d->nstreams ? &d->streams[d->heap[0]].io : NULL;
            m.k = 0;
            m.cur = &d->cur;
            st = tracerd__ctf_stream_feed_merged(&m);
            if (m.k != 0) { /* the other stream runs, s waits in the heap at io.ns */
                d->heap[0] = s->io.index;
                s = &d->streams[d->cur];
                run_below(d, (uint32_t)d->cur);
            }
            held = s->io.held;
        } else {
            tracerd__ctf_stream_gate_below(s->r, s->io.below, s->io.hold);
            st = tracerd_ctf_stream_finish(s->r);
            if (st == TRACERD_OK) {
                s->done = true;
                stream_release(d, s);
                return TRACERD_OK;
            }
            if (st == TRACERD_PAUSED) {
                tracerd_ctf_stream_resume(s->r); /* (feed_merged's gate leaves none) */
                held = tracerd__ctf_stream_gated(s->r);
                if (held)
                    s->io.ns = tracerd__ctf_stream_gated_ns(s->r);
                else
                    return TRACERD_PAUSED;
            }
        }
        if (st == TRACERD_PAUSED) {
            if (held)
                return TRACERD_OK;
            tracerd_ctf_stream_resume(s->r);
            return TRACERD_PAUSED;
        }
        if (st != TRACERD_OK)
            return stream_fail(d, s, st);
    }
}

/* The time below which the events of stream i (about to run) come before
 * every other stream's next event, ties going to the lower stream index:
 * its reader lets them through without asking the gate (the heap does not
 * change while one stream runs), and holds back those at or after it
 * without asking either, but for an event at UINT64_MAX. The event the
 * heap let through is one of them: the heap orders (time, index) strictly.
 * 0 while priming (the gate is asked for every event). */
static inline void run_below(struct tracerd_ctf_dir *d, uint32_t i)
{
    uint64_t below = 0;
    bool hold = false;
    if (d->primed == d->nstreams) {
        below = UINT64_MAX; /* at UINT64_MAX itself the gate decides */
        if (d->nheap > 0) {
            below = d->streams[d->heap[0]].io.ns;
            hold = below != UINT64_MAX;
            if (i < d->heap[0] && below != UINT64_MAX)
                below++;
        }
    }
    d->streams[i].io.below = below;
    d->streams[i].io.hold = hold;
}

tracerd_status_t tracerd_ctf_dir_run(tracerd_ctf_dir_t *d)
{
    if (d == NULL)
        return TRACERD_E_INVALID;
    if (d->status < 0)
        return d->status;
    tracerd_status_t st;
    /* A stream interrupted by a user pause continues first. */
    if (d->cur >= 0) {
        const bool priming = (uint32_t)d->cur == d->primed;
        st = advance(d);
        if (st != TRACERD_OK)
            return st;
        if (!d->streams[d->cur].done)
            heap_push(d, (uint32_t)d->cur);
        if (priming)
            d->primed++;
        d->cur = -1;
    }
    while (d->primed < d->nstreams) {
        struct dstream *s = &d->streams[d->primed];
        d->cur = (int32_t)d->primed;
        run_below(d, d->primed);
        st = advance(d); /* (no turns while priming) */
        if (st != TRACERD_OK)
            return st;
        if (!s->done)
            heap_push(d, d->primed);
        d->primed++;
        d->cur = -1;
    }
    /* the stream first in the heap runs until its next event comes after
     * another's; it goes back in the heap and the first one runs */
    uint32_t i = d->nheap > 0 ? heap_pop(d) : UINT32_MAX;
    while (i != UINT32_MAX) {
        run_below(d, i);
        d->cur = (int32_t)i;
        st = advance(d);
        if (st != TRACERD_OK)
            return st;        /* stream d->cur goes back in the heap when it continues */
        i = (uint32_t)d->cur; /* (a turn may have gone to the other stream) */
        d->cur = -1;
        if (!d->streams[i].done)
            i = heap_pushpop(d, i);
        else
            i = d->nheap > 0 ? heap_pop(d) : UINT32_MAX;
    }
    return TRACERD_OK;
}

const tracerd_ctf_dir_stream_t *tracerd_ctf_dir_current(const tracerd_ctf_dir_t *d)
{
    return d && d->cur >= 0 ? &d->streams[d->cur].pub : NULL;
}
uint32_t tracerd_ctf_dir_trace_count(const tracerd_ctf_dir_t *d)
{
    return d ? d->ntraces : 0;
}
const tracerd_ctf_trace_t *tracerd_ctf_dir_trace(const tracerd_ctf_dir_t *d, uint32_t i)
{
    return d && i < d->ntraces ? d->traces[i].trace : NULL;
}
const char *tracerd_ctf_dir_trace_path(const tracerd_ctf_dir_t *d, uint32_t i)
{
    return d && i < d->ntraces ? d->traces[i].path : NULL;
}
uint32_t tracerd_ctf_dir_stream_count(const tracerd_ctf_dir_t *d)
{
    return d ? d->nstreams : 0;
}
const char *tracerd_ctf_dir_error_path(const tracerd_ctf_dir_t *d)
{
    return d->err_path;
}
uint64_t tracerd_ctf_dir_error_offset(const tracerd_ctf_dir_t *d)
{
    return d->err_offset;
}
const char *tracerd_ctf_dir_error_reason(const tracerd_ctf_dir_t *d)
{
    return d->err_reason;
}

void tracerd_ctf_dir_free(tracerd_ctf_dir_t *d)
{
    if (d == NULL)
        return;
    for (uint32_t i = 0; i < d->nstreams; i++) {
        struct dstream *s = &d->streams[i];
        stream_release(d, s);
        for (uint32_t k = 0; k < s->nfiles; k++)
            freestr(&d->alloc, s->files[k]);
        if (s->files)
            tracerd__free(&d->alloc, s->files, sizeof *s->files * s->nfiles);
    }
    for (uint32_t i = 0; i < d->ntraces; i++) {
        tracerd_ctf_trace_free(d->traces[i].trace);
        freestr(&d->alloc, d->traces[i].path);
    }
    if (d->streams)
        tracerd__free(&d->alloc, d->streams, sizeof *d->streams * d->cap_streams);
    if (d->traces)
        tracerd__free(&d->alloc, d->traces, sizeof *d->traces * d->cap_traces);
    if (d->heap)
        tracerd__free(&d->alloc, d->heap, sizeof *d->heap * (d->nstreams + 1));
    tracerd_allocator_t a = d->alloc;
    tracerd__free(&a, d, sizeof *d);
}

tracerd_status_t tracerd__ctf_dir_set_located(tracerd_ctf_dir_t *d, tracerd__ctf_located_cb cb)
{
    tracerd_status_t st = TRACERD_OK;
    for (uint32_t i = 0; d != NULL && i < d->nstreams && st == TRACERD_OK; i++)
        if (d->streams[i].r != NULL)
            st = tracerd__ctf_stream_set_located(d->streams[i].r, cb);
    return st;
}
