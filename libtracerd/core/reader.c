/* The reader core (reader.h): what every reader shares. */
#include "reader.h"

void tracerd__reader_init(struct tracerd__reader *c, void *user)
{
    c->user = user;
    tracerd__reader_reset(c);
}

void *tracerd__reader_alloc(size_t size, size_t alloc_off, size_t core_off, size_t st_off,
                            const tracerd_allocator_t *alloc, void *user, size_t stitch_bytes)
{
    unsigned char *r = tracerd__new_owned(size, alloc_off, alloc);
    if (r == NULL)
        return NULL;
    tracerd_allocator_t a;
    memcpy(&a, r + alloc_off, sizeof a);
    tracerd__reader_init((struct tracerd__reader *)(void *)(r + core_off), user);
    if (tracerd__stitch_init((struct tracerd__stitch *)(void *)(r + st_off), &a, stitch_bytes) !=
        TRACERD_OK) {
        tracerd__free(&a, r, size);
        return NULL;
    }
    return r;
}

void tracerd__reader_reset(struct tracerd__reader *c)
{
    tracerd__error_clear(&c->err);
    c->in_cb = false;
    c->paused = false;
    c->warn.pending = false;
}

int tracerd__cb_failed(struct tracerd__reader *c, int rc, const char *which, uint64_t offset)
{
    tracerd__error_set(&c->err, TRACERD_E_CALLBACK, offset, "%s callback returned %d", which, rc);
    c->err.callback_value = rc;
    return TRACERD__CB_FAILED;
}

tracerd_status_t tracerd__resume(struct tracerd__reader *c)
{
    if (c == NULL || c->in_cb || !c->paused)
        return TRACERD_E_INVALID;
    c->paused = false;
    return TRACERD_OK;
}
