/* Allocator hooks and the stitch buffer. */
#include <stdlib.h>

#include "internal.h"

static void *libc_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void libc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

void tracerd__allocator_init(tracerd_allocator_t *dst, const tracerd_allocator_t *src)
{
    if (src != NULL && src->alloc != NULL && src->free != NULL) {
        *dst = *src;
    } else {
        dst->alloc = libc_alloc;
        dst->free = libc_free;
        dst->ctx = NULL;
    }
}

void *tracerd__calloc(const tracerd_allocator_t *a, size_t size)
{
    if (size == 0)
        return NULL;
    void *p = a->alloc(a->ctx, size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

void *tracerd__new_owned(size_t size, size_t alloc_off, const tracerd_allocator_t *src)
{
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, src);
    unsigned char *p = tracerd__calloc(&a, size);
    if (p != NULL)
        memcpy(p + alloc_off, &a, sizeof a);
    return p;
}

void tracerd__free(const tracerd_allocator_t *a, void *ptr, size_t size)
{
    if (ptr != NULL)
        a->free(a->ctx, ptr, size);
}

tracerd_status_t tracerd__stitch_init(struct tracerd__stitch *s, const tracerd_allocator_t *a,
                                      size_t cap)
{
    s->have = 0;
    s->cap = cap;
    s->buf = tracerd__calloc(a, cap);
    return s->buf != NULL ? TRACERD_OK : TRACERD_E_NOMEM;
}

void tracerd__stitch_free(struct tracerd__stitch *s, const tracerd_allocator_t *a)
{
    tracerd__free(a, s->buf, s->cap);
    s->buf = NULL;
    s->cap = 0;
    s->have = 0;
}
