/* Mapped windows of regular files (mapped.h). */
#include "mapped.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* What the SIGBUS handler reads (see mapped.h): each slot's mapping (base
 * set last, cleared first) and whether its file was cut. */
static struct {
    uint8_t *volatile base;
    volatile size_t len;
    volatile sig_atomic_t cut;
} slots[MAP_SLOTS];
static volatile sig_atomic_t any_cut;
static volatile size_t page;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uint8_t *a = si->si_addr;
    for (int i = 0; i < MAP_SLOTS; i++) {
        uint8_t *b = slots[i].base;
        if (b == NULL || a < b || a >= b + slots[i].len)
            continue;
        uintptr_t pg = (uintptr_t)a & ~(uintptr_t)(page - 1);
        size_t n = (size_t)((uintptr_t)(b + slots[i].len) - pg);
        if (mmap((void *)pg, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
            MAP_FAILED)
            break;
        slots[i].cut = 1;
        any_cut = 1;
        return; /* the load is retried and reads zeros */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The page size, once the handler is installed; 0 when mapping cannot be
 * used (the callers read instead). */
static size_t installed_page(void)
{
    if (page != 0)
        return page;
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0 || ((size_t)pg & ((size_t)pg - 1)) != 0)
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, NULL) != 0)
        return 0;
    page = (size_t)pg;
    return page;
}

const uint8_t *map_window(int fd, uint64_t off, size_t len, int *slot)
{
    size_t pg = installed_page();
    if (pg == 0 || len == 0)
        return NULL;
    int i = 0;
    while (i < MAP_SLOTS && slots[i].base != NULL)
        i++;
    if (i == MAP_SLOTS)
        return NULL;
    uint64_t start = off & ~(uint64_t)(pg - 1);
    size_t delta = (size_t)(off - start);
    if (len > SIZE_MAX - delta || start > (uint64_t)INT64_MAX)
        return NULL;
    void *m = mmap(NULL, len + delta, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
    if (m == MAP_FAILED)
        return NULL;
    slots[i].cut = 0;
    slots[i].len = len + delta;
    slots[i].base = m;
    *slot = i;
    return (const uint8_t *)m + delta;
}

bool map_release(int slot)
{
    uint8_t *b = slots[slot].base;
    size_t n = slots[slot].len;
    slots[slot].base = NULL;
    munmap(b, n);
    return slots[slot].cut != 0;
}

bool map_slot_cut(int slot)
{
    return slots[slot].cut != 0;
}

bool map_any_cut(void)
{
    return any_cut != 0;
}

/* ---- a CTF directory reader's file source ------------------------------------- */

/* Handles kept with their file descriptor open between views; past this
 * many, a handle opens its file again for each view. */
#define FDS_KEPT 64

struct mfile {
    char *path;
    int fd;
    int slot;     /* the window of the last view, or -1 */
    uint8_t *buf; /* when read() stands in for a window: cap bytes */
    size_t cap;
};

static void *mf_open(void *ctx, const char *path)
{
    map_files_t *x = ctx;
    struct mfile *f = cli_malloc(sizeof *f);
    size_t n = strlen(path) + 1;
    char *p = f != NULL ? cli_malloc(n) : NULL;
    if (p == NULL) {
        cli_free(f);
        cli_oom(x->c, "stream file handle");
        errno = ENOMEM;
        return NULL;
    }
    memcpy(p, path, n);
    *f = (struct mfile){p, -1, -1, NULL, 0};
    return f;
}

/* Reads up to want bytes at off into the handle's buffer: the bytes, *len
 * of them, or NULL with errno set. */
static const uint8_t *mf_read(map_files_t *x, struct mfile *f, uint64_t off, size_t want,
                              size_t *len)
{
    if (f->cap < want) {
        uint8_t *b = cli_malloc(want);
        if (b == NULL) {
            cli_oom(x->c, "read buffer");
            errno = ENOMEM;
            return NULL;
        }
        cli_free(f->buf);
        f->buf = b;
        f->cap = want;
    }
    ssize_t got;
    do
        got = pread(f->fd, f->buf, want, (off_t)off);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return NULL;
    *len = (size_t)got;
    return f->buf;
}

static int mf_view(void *ctx, void *file, uint64_t off, size_t want, const uint8_t **data,
                   size_t *len, const char **reason)
{
    map_files_t *x = ctx;
    struct mfile *f = file;
    if (f->slot >= 0) {
        bool cut = map_release(f->slot);
        f->slot = -1;
        if (cut) {
            *reason = MAP_CUT_REASON;
            return -1;
        }
    }
    if (f->fd < 0) {
        f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
        if (f->fd < 0)
            return -1;
        x->fds++;
    }
    int rc = 0;
    struct stat sb;
    *data = NULL;
    *len = 0;
    if (off > (uint64_t)INT64_MAX || fstat(f->fd, &sb) != 0) {
        rc = -1;
    } else if (!S_ISREG(sb.st_mode)) {
        *data = mf_read(x, f, off, want, len);
        rc = *data == NULL ? -1 : 0;
    } else if ((uint64_t)sb.st_size > off) {
        /* what the file holds now; a file cut later reads zeros, then the
         * next view says so */
        uint64_t left = (uint64_t)sb.st_size - off;
        size_t k = left < want ? (size_t)left : want;
        *data = map_window(f->fd, off, k, &f->slot);
        *len = k;
        if (*data == NULL)
            *data = mf_read(x, f, off, k, len);
        rc = *data == NULL ? -1 : 0;
    }
    if (x->fds > FDS_KEPT) {
        int err = errno;
        close(f->fd);
        f->fd = -1;
        x->fds--;
        errno = err;
    }
    return rc;
}

static void mf_close(void *ctx, void *file)
{
    map_files_t *x = ctx;
    struct mfile *f = file;
    if (f->slot >= 0)
        (void)map_release(f->slot); /* a cut is seen by map_any_cut */
    if (f->fd >= 0) {
        close(f->fd);
        x->fds--;
    }
    cli_free(f->buf);
    cli_free(f->path);
    cli_free(f);
}

void map_dir_files(cli_t *c, map_files_t *ctx, tracerd_ctf_dir_files_t *out)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->c = c;
    out->ctx = ctx;
    out->open = mf_open;
    out->view = mf_view;
    out->close = mf_close;
}

void map_dir_config(cli_t *c, map_files_t *ctx, tracerd_ctf_dir_config_t *dc)
{
    if (c->chunk != 0)
        return; /* --chunk: read() in chunks of that size, as for a file */
    map_dir_files(c, ctx, &dc->files);
    dc->chunk_bytes = MAP_DIR_WINDOW;
    dc->max_read_buffer_bytes = MAP_DIR_BUDGET;
}

void map_dir_failed(cli_t *c, tracerd_status_t *st, const char **reason)
{
    if (*st == TRACERD_OK || !map_any_cut())
        return;
    *st = TRACERD_E_IO;
    *reason = "read error: " MAP_CUT_REASON;
    c->read_failed = true;
}
