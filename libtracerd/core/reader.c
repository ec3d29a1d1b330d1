/* The reader core (reader.h): what every reader shares. */
#include "reader.h"

void tracerd__reader_init(struct tracerd__reader *c, void *user)
{
    c->user = user;
    tracerd__reader_reset(c);
}

void tracerd__reader_reset(struct tracerd__reader *c)
{
    tracerd__error_clear(&c->err);
    c->in_cb = false;
    c->paused = false;
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
