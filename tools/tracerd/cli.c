#include "cli.h"
#include "mapped.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress(cli_t *c)
{
    if (!c->progress)
        return;
    double t = now_seconds();
    if (t - c->progress_last < 0.25)
        return;
    c->progress_last = t;
    double mib = (double)c->bytes_read / (1024.0 * 1024.0);
    if (c->total_size > 0)
        fprintf(stderr, "\r%s: %s: %.1f MiB read (%.0f%%)\033[K", c->prog, c->path, mib,
                100.0 * (double)c->bytes_read / (double)c->total_size);
    else
        fprintf(stderr, "\r%s: %s: %.1f MiB read\033[K", c->prog, c->path, mib);
    c->progress_shown = true;
}

ssize_t cli_read(cli_t *c, void *buf, size_t cap)
{
    for (;;) {
        ssize_t n = read(c->fd, buf, cap);
        if (n >= 0)
            return n;
        if (errno == EINTR)
            continue;
        int err = errno;
        cli_progress_done(c);
        if ((err == EAGAIN || err == EWOULDBLOCK) && c->timeout > 0) {
            c->timed_out = true;
            fprintf(stderr,
                    "%s: %s: no data for %u s (--timeout %u): stopped after %llu bytes; what "
                    "was read is kept\n",
                    c->prog, c->path, c->timeout, c->timeout, (unsigned long long)c->bytes_read);
        } else {
            c->read_failed = true;
            fprintf(stderr, "%s: %s: read error: %s\n", c->prog, c->path, strerror(err));
        }
        return -1;
    }
}

void cli_progress_done(cli_t *c)
{
    if (c->progress_shown) {
        fputs("\r\033[K", stderr);
        c->progress_shown = false;
    }
}

static tracerd_status_t feed_all(cli_t *c, const tracerd_reader_ops_t *ops, void *reader,
                                 cli_drain_fn drain, void *ctx, const uint8_t *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        size_t used = 0;
        tracerd_status_t st = ops->feed(reader, data + off, len - off, &used);
        off += used;
        if (st == TRACERD_PAUSED) {
            if (drain != NULL && drain(ctx) != 0)
                return TRACERD_E_IO;
            st = ops->resume(reader);
            if (st != TRACERD_OK)
                return st;
            continue;
        }
        if (st != TRACERD_OK)
            return st;
    }
    /* Everything that arrived is decoded: write it out before waiting for
     * more, so live input (a pipe or socket that stays open) shows its
     * records at once. One write per read chunk at most. */
    if (drain != NULL && drain(ctx) != 0)
        return TRACERD_E_IO;
    if (c->wr != NULL && wr_flush(c->wr) != 0)
        return TRACERD_E_IO;
    fflush(c->out);
    return TRACERD_OK;
}

static tracerd_status_t pump(cli_t *c, const tracerd_reader_ops_t *ops, void *reader,
                             cli_drain_fn drain, void *ctx);

tracerd_status_t cli_pump_drain(cli_t *c, const tracerd_reader_ops_t *ops, void *reader,
                                cli_drain_fn drain, void *ctx)
{
    return pump(c, ops, reader, drain, ctx);
}

/* ---- a regular file, mapped ---------------------------------------------------
 * A regular file read with the default chunk size is mapped in windows of
 * MAP_WINDOW bytes (unmapped after their feed) instead of copied by read():
 * the copy was a quarter to a third of `info`'s CPU time. The pages are
 * mapped by the faults of the first reads (the kernel maps the cached pages
 * around each fault, 16 at a time): MAP_POPULATE, which walks every page at
 * mmap, took twice the system time (2.1 against 1.2 ms for 32 MiB).
 * Peak RSS grows by one window, whatever the file's size. A file cut short
 * by another process is seen before each read size is fed (fstat) and is a
 * read error; one cut in the middle of a feed reads zeros to the end of
 * that read size (mapped.h), then the same read error. */
#define MAP_WINDOW ((size_t)4 << 20)
#define CHUNK_DEFAULT ((size_t)1 << 18)

/* Feeds the file's bytes [0, total_size) through mapped windows; *done is
 * the file offset reached (a failed mapping leaves the rest to read(), which
 * also reads what was appended meanwhile), *stop is set when the filter
 * needs no more input. */
static tracerd_status_t pump_mapped(cli_t *c, const tracerd_reader_ops_t *ops, void *reader,
                                    cli_drain_fn drain, void *ctx, uint64_t *done, bool *stop)
{
    *done = 0;
    *stop = false;
    tracerd_status_t st = TRACERD_OK;
    uint64_t off = 0, end = c->total_size;
    while (st == TRACERD_OK && off < end) {
        size_t len = end - off < MAP_WINDOW ? (size_t)(end - off) : MAP_WINDOW;
        int slot;
        const uint8_t *m = map_window(c->fd, off, len, &slot);
        if (m == NULL)
            break; /* read() takes over from off */
        /* fed a read size at a time, as read() would: output is written
         * after each, and a file found shorter stops the feed before it */
        bool cut = false;
        for (size_t at = 0; at < len && st == TRACERD_OK && !cut;) {
            size_t k = len - at < CHUNK_DEFAULT ? len - at : CHUNK_DEFAULT;
            struct stat sb;
            if (fstat(c->fd, &sb) != 0 || (uint64_t)sb.st_size < off + at + k)
                cut = true;
            else
                st = feed_all(c, ops, reader, drain, ctx, m + at, k);
            cut = cut || map_slot_cut(slot);
            at += k;
        }
        if (map_release(slot) || cut) {
            cli_progress_done(c);
            fprintf(stderr, "%s: %s: read error: " MAP_CUT_REASON "\n", c->prog, c->path);
            c->read_failed = true;
            st = TRACERD_E_IO;
            break;
        }
        off += len;
        if (off > c->bytes_read)
            c->bytes_read = off;
        progress(c);
        if (st == TRACERD_OK && c->input_done != NULL && c->input_done(reader)) {
            *stop = true;
            break;
        }
    }
    *done = off;
    return st;
}

static tracerd_status_t pump(cli_t *c, const tracerd_reader_ops_t *ops, void *reader,
                             cli_drain_fn drain, void *ctx)
{
    size_t cap = c->chunk ? c->chunk : CHUNK_DEFAULT;
    uint8_t *buf = cli_malloc(cap);
    if (buf == NULL) {
        cli_oom(c, "read buffer");
        return TRACERD_E_IO; /* said: the commands exit 3 without a word more */
    }
    /* A file's head goes with its first chunk (--chunk bytes in one feed:
     * a record up to that size is never cut at the head's end); live input's
     * head is fed at once, before waiting for more. */
    size_t pre = 0;
    tracerd_status_t st = TRACERD_OK;
    uint64_t mapped = 0;
    bool stop = false;
    if (c->total_size > c->head_len && c->chunk == 0 && c->fd >= 0) {
        st = pump_mapped(c, ops, reader, drain, ctx, &mapped, &stop);
        if (st == TRACERD_OK && !stop && mapped > 0 &&
            lseek(c->fd, (off_t)mapped, SEEK_SET) != (off_t)mapped) {
            cli_progress_done(c);
            fprintf(stderr, "%s: %s: read error: %s\n", c->prog, c->path, strerror(errno));
            st = TRACERD_E_IO;
        }
    }
    if (mapped > 0 || st != TRACERD_OK) {
        /* the head was in the first window */
    } else if (c->total_size > 0 && c->head_len < cap) {
        memcpy(buf, c->head, c->head_len);
        pre = c->head_len;
    } else {
        st = feed_all(c, ops, reader, drain, ctx, c->head, c->head_len);
    }
    if (st == TRACERD_OK && c->timed_out) /* the head read timed out (and said so) */
        st = TRACERD_E_IO;
    while (st == TRACERD_OK && !stop) {
        ssize_t n = cli_read(c, buf + pre, cap - pre);
        if (n < 0) {
            st = TRACERD_E_IO;
            break;
        }
        if (n == 0 && pre == 0)
            break;
        c->bytes_read += (uint64_t)n;
        progress(c);
        st = feed_all(c, ops, reader, drain, ctx, buf, pre + (size_t)n);
        pre = 0;
        if (n == 0 || (st == TRACERD_OK && c->input_done != NULL && c->input_done(reader)))
            break; /* the end, or the rest cannot pass the filter */
    }
    if (st != TRACERD_OK) {
        cli_free(buf);
        cli_progress_done(c);
        return st;
    }
    cli_free(buf);
    cli_progress_done(c);
    for (;;) {
        st = ops->finish(reader);
        if (st != TRACERD_PAUSED)
            return st;
        if (drain != NULL && drain(ctx) != 0)
            return TRACERD_E_IO;
        st = ops->resume(reader);
        if (st != TRACERD_OK)
            return st;
    }
}

tracerd_status_t cli_pump(cli_t *c, const tracerd_reader_ops_t *ops, void *reader)
{
    return cli_pump_drain(c, ops, reader, NULL, NULL);
}

int cli_out_start(cli_t *c)
{
    static wr_t w; /* one dump per process */
    fflush(c->out);
    if (wr_init(&w, fileno(c->out), (size_t)1 << 18) != 0) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    c->wr = &w;
    return CLI_EXIT_OK;
}

void cli_out_stop(cli_t *c)
{
    if (c->wr == NULL)
        return;
    wr_rec_abort(c->wr);
    wr_flush(c->wr);
}

int cli_out_end(cli_t *c, int rc)
{
    if (c->wr == NULL)
        return rc;
    cli_out_stop(c);
    if (c->wr->failed) {
        if (c->wr->errnum != EPIPE)
            fprintf(stderr, "%s: write error: %s\n", c->prog, strerror(c->wr->errnum));
        if (rc == CLI_EXIT_OK)
            rc = CLI_EXIT_IO;
    }
    wr_free(c->wr);
    c->wr = NULL;
    return rc;
}

void cli_report_in(const cli_t *c, const char *file, const char *format, tracerd_status_t st,
                   uint64_t offset, const char *reason)
{
    cli_out_stop((cli_t *)(uintptr_t)c);
    cli_progress_done((cli_t *)(uintptr_t)c);
    fprintf(stderr, "%s: %s: %s error %s at byte %llu: %s\n", c->prog,
            file && *file ? file : c->path, format, tracerd_status_name(st),
            (unsigned long long)offset, reason && *reason ? reason : tracerd_status_message(st));
}

void cli_report(const cli_t *c, const char *format, tracerd_status_t st, uint64_t offset,
                const char *reason)
{
    cli_report_in(c, NULL, format, st, offset, reason);
}

int cli_oom(cli_t *c, const char *what)
{
    if (!c->oom) {
        c->oom = true;
        cli_progress_done(c);
        fprintf(stderr, "%s: %s: out of memory (%s)\n", c->prog, c->path, what);
    }
    return CLI_EXIT_IO;
}

int cli_new_failed(const cli_t *c, tracerd_status_t st)
{
    fprintf(stderr, "%s: %s: cannot create a reader: %s\n", c->prog, c->path,
            tracerd_status_message(st));
    return st == TRACERD_E_INVALID ? CLI_EXIT_USAGE : CLI_EXIT_IO;
}

int cli_unknown_format(const cli_t *c)
{
    cli_progress_done((cli_t *)(uintptr_t)c);
    const char *from = c->listen != NULL || strncmp(c->path, "tcp://", 6) == 0 ? "a connection"
                       : strcmp(c->path, "-") == 0                             ? "standard input"
                                                                               : NULL;
    if (from == NULL)
        fprintf(stderr, "%s: %s: not a trace format tracerd recognises%s\n", c->prog, c->path,
                c->is_dir ? " (a directory without CTF metadata)" : "");
    else
        fprintf(stderr,
                "%s: %s: not a trace format tracerd recognises from its content; %s has no "
                "file name to tell it: give --format (an xtrace instruction stream, which has "
                "no magic number, needs --format xtrace)\n",
                c->prog, c->path, from);
    return CLI_EXIT_FORMAT;
}

void cli_json_str(wr_t *w, const void *data, size_t len)
{
    wr_str(w, data, len);
}

void cli_json_cstr(wr_t *w, const char *s)
{
    wr_str(w, s, strlen(s));
}

void cli_json_hex(wr_t *w, const void *data, size_t len)
{
    wr_ch(w, '"');
    wr_hex(w, data, len);
    wr_ch(w, '"');
}

void cli_json_member_hex(wr_t *w, const char *key, const void *data, size_t len)
{
    WR_LIT(w, ",\"");
    wr_cstr(w, key);
    WR_LIT(w, "_hex\":");
    cli_json_hex(w, data, len);
}
