/* The CLI's own allocations (buffers and tables; the readers use their own
 * allocator) go through cli_malloc & co., so that tests can fail the n-th
 * one and check that nothing leaks: with TRACERD_CLI_FAIL_ALLOC=N in the
 * environment the N-th allocation fails (0: none fails), and at exit
 * cli_alloc_end reports allocations not freed and the count made. This is a
 * test hook of the program, not of the library: the state is the process's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static struct {
    bool on;
    unsigned long long made, fail_at;
    long long live;
} hook;

void cli_alloc_init(void)
{
    const char *e = getenv("TRACERD_CLI_FAIL_ALLOC");
    if (e != NULL && *e != '\0') {
        hook.on = true;
        hook.fail_at = strtoull(e, NULL, 10);
    }
}

static bool fail_now(void)
{
    if (!hook.on || ++hook.made != hook.fail_at)
        return false;
    errno = ENOMEM; /* as libc's allocator sets it */
    return true;
}

void *cli_malloc(size_t n)
{
    if (fail_now())
        return NULL;
    void *p = malloc(n != 0 ? n : 1);
    hook.live += p != NULL;
    return p;
}

void *cli_calloc(size_t n, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = calloc(n != 0 ? n : 1, size != 0 ? size : 1);
    hook.live += p != NULL;
    return p;
}

void *cli_realloc(void *p, size_t n)
{
    if (fail_now())
        return NULL;
    void *q = realloc(p, n != 0 ? n : 1);
    hook.live += q != NULL && p == NULL;
    return q;
}

int cli_grow(void *array, uint32_t *cap, uint32_t first, size_t size)
{
    void *v;
    memcpy(&v, array, sizeof v);
    uint32_t ncap = *cap ? *cap * 2 : first;
    if (ncap <= *cap)
        return -1; /* the count would wrap */
    void *w = cli_realloc(v, (size_t)ncap * size);
    if (w == NULL)
        return -1;
    memcpy(array, &w, sizeof w);
    *cap = ncap;
    return 0;
}

void cli_free(void *p)
{
    if (p != NULL) {
        hook.live--;
        free(p);
    }
}

char *cli_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cli_malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

int cli_alloc_end(int rc)
{
    if (!hook.on)
        return rc;
    fprintf(stderr, "tracerd: TRACERD_CLI_FAIL_ALLOC: %llu allocations, %lld not freed\n",
            hook.made, hook.live);
    return hook.live != 0 ? 70 : rc;
}
