/* Streaming reader for the Fuchsia trace format (FXT): the public API
 * (fxt.h). How the reader is organised: fxt_reader.h. */
#include "../core/sized.h"
#include "fxt_reader.h"

int tracerd_fxt_detect(const void *head, size_t len)
{
    const uint8_t *h = head;
    return h != NULL && len >= 8 && (magic_le(h) || magic_be(h)) ? 100 : 0;
}

#define MAX_STITCH ((size_t)64 << 20)

/* ---- public API ------------------------------------------------------- */

static void fxt_config_defaults(tracerd_fxt_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->byte_order = TRACERD_BYTE_ORDER_AUTO;
    cfg->assume_byte_order = TRACERD_BYTE_ORDER_LITTLE;
    cfg->stitch_bytes = TRACERD_FXT_STITCH_MIN;
    cfg->max_large_record_bytes = (uint64_t)1 << 30;
    cfg->max_providers = 64;
    cfg->max_string_bytes = (size_t)64 << 20;
    cfg->lenient = false;
    cfg->fallback_to_provider0 = false;
}

TRACERD__SIZED_INIT(tracerd_fxt_config_init, tracerd_fxt_config_t, fxt_config_defaults)

static bool config_ok(const tracerd_fxt_config_t *c)
{
    return c->byte_order <= TRACERD_BYTE_ORDER_BIG &&
           c->assume_byte_order >= TRACERD_BYTE_ORDER_LITTLE &&
           c->assume_byte_order <= TRACERD_BYTE_ORDER_BIG &&
           c->stitch_bytes >= TRACERD_FXT_STITCH_MIN && c->stitch_bytes <= MAX_STITCH &&
           c->max_large_record_bytes >= 8 && c->max_providers >= 1 && c->max_providers <= 65536 &&
           c->max_string_bytes <= (size_t)UINT32_MAX;
}

size_t tracerd_fxt_memory_bound(const tracerd_fxt_config_t *cfg)
{
    tracerd_fxt_config_t d;
    if (cfg == NULL) {
        tracerd_fxt_config_init(&d);
        cfg = &d;
    }
    return sizeof(struct tracerd_fxt_reader) + cfg->stitch_bytes +
           (size_t)cfg->max_providers *
               (sizeof(struct tracerd__fxt_provider *) + tracerd__fxt_provider_bytes()) +
           cfg->max_string_bytes;
}

tracerd_status_t tracerd_fxt_new(const tracerd_fxt_config_t *cfg,
                                 const tracerd_fxt_callbacks_t *cbs, void *user,
                                 const tracerd_allocator_t *alloc, tracerd_fxt_reader_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_fxt_config_t c;
    tracerd_fxt_config_init(&c);
    tracerd_fxt_callbacks_t cb;
    tracerd_fxt_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_fxt_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_fxt_callbacks_t, &cb, cbs) != TRACERD_OK || !config_ok(&c))
        return TRACERD_E_INVALID;
    tracerd_fxt_reader_t *r =
        TRACERD__READER_ALLOC(struct tracerd_fxt_reader, alloc, user, c.stitch_bytes);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->cfg = c;
    r->cbs = cb;
    if (tracerd__fxt_tables_init(&r->tables, &r->alloc, c.max_providers, c.max_string_bytes) !=
        TRACERD_OK) {
        tracerd_fxt_free(r);
        return TRACERD_E_NOMEM;
    }
    tracerd_fxt_reset(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_fxt_reset(tracerd_fxt_reader_t *r)
{
    if (r == NULL || r->core.in_cb)
        return;
    tracerd__fxt_tables_clear(&r->tables);
    tracerd__reader_reset(&r->core);
    tracerd__stitch_drop(&r->st);
    r->cur = NULL;
    r->state = S_RECORD;
    r->big = false;
    r->order_known = false;
    r->fatal = false;
    r->chunk = NULL;
    r->chunk_off = 0;
    r->next_off = 0;
    r->rec_off = 0;
    r->rec_p = NULL;
    r->what = "record";
    r->arg_i = -1;
    r->rec_size = 0;
    r->unknown_args = 0;
    r->head_kept = UINT64_MAX;
}

void tracerd_fxt_free(tracerd_fxt_reader_t *r)
{
    if (r == NULL)
        return;
    tracerd__fxt_tables_free(&r->tables);
    tracerd__stitch_free(&r->st, &r->alloc);
    tracerd_allocator_t a = r->alloc;
    tracerd__free(&a, r, sizeof *r);
}

tracerd_status_t tracerd_fxt_feed(tracerd_fxt_reader_t *r, const void *data, size_t len,
                                  size_t *consumed)
{
    if (consumed != NULL)
        *consumed = 0;
    tracerd_status_t st = tracerd__feed_guard(r != NULL ? &r->core : NULL, data, len);
    if (st != TRACERD_OK)
        return st;
    if (len == 0)
        return TRACERD_OK;
    const uint8_t *start = data, *pos = start;
    r->chunk = start;
    st = tracerd__fxt_run(r, &pos, start + len);
    size_t used = (size_t)(pos - start);
    r->chunk_off += used;
    r->next_off = r->chunk_off;
    r->chunk = NULL;
    if (consumed != NULL)
        *consumed = used;
    if (st != TRACERD_OK)
        return tracerd__warn_at_error(&r->core, r->cbs.on_warning, st);
    /* A pause is reported even when its record ends the chunk (core.h). */
    return tracerd__reader_status(&r->core);
}

tracerd_status_t tracerd_fxt_resume(tracerd_fxt_reader_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

tracerd_status_t tracerd_fxt_finish(tracerd_fxt_reader_t *r)
{
    tracerd_status_t st = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (st != TRACERD_OK)
        return st;
    if (r->state == S_RECORD && r->st.have == 0) {
        st = tracerd__fxt_warn_flush(r); /* a run of skips that reached the end */
        return st != TRACERD_OK ? st : tracerd__reader_status(&r->core);
    }
    r->arg_i = -1;
    uint64_t have = r->chunk_off - r->rec_off;
    if (r->state == S_RECORD && r->st.have < 8) {
        r->what = "record";
        st = tracerd__fxt_fail(r, TRACERD_E_TRUNCATED,
                               "input ended inside the header word (%llu of 8 bytes)",
                               (unsigned long long)have);
    } else {
        if (r->state == S_RECORD)
            r->what = tracerd__fxt_record_what[ldw(r->big, r->st.buf) & 0xfu];
        else
            r->what = r->state == S_SKIP ? "large record" : "large blob record";
        st = tracerd__fxt_fail(r, TRACERD_E_TRUNCATED,
                               "input ended inside the record (%llu of %llu bytes)",
                               (unsigned long long)have, (unsigned long long)r->rec_size);
    }
    if (!skippable(r, st))
        return tracerd__warn_at_error(&r->core, r->cbs.on_warning, st);
    tracerd__stitch_drop(&r->st);
    r->state = S_RECORD;
    st = tracerd__fxt_warn(r, have);
    if (st == TRACERD_OK)
        st = tracerd__fxt_warn_flush(r);
    return st != TRACERD_OK ? st : tracerd__reader_status(&r->core);
}

uint64_t tracerd_fxt_offset(const tracerd_fxt_reader_t *r)
{
    return r != NULL ? r->next_off : 0;
}

uint64_t tracerd_fxt_record_offset(const tracerd_fxt_reader_t *r)
{
    if (r == NULL)
        return 0;
    return r->core.err.status != TRACERD_OK ? r->core.err.offset : r->rec_off;
}

const char *tracerd_fxt_error_reason(const tracerd_fxt_reader_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}

int tracerd_fxt_callback_error(const tracerd_fxt_reader_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

TRACERD__READER_OPS(tracerd_fxt, "fxt", tracerd_fxt_reader_t, tracerd_fxt_config_t,
                    tracerd_fxt_callbacks_t)

tracerd_byte_order_t tracerd_fxt_byte_order(const tracerd_fxt_reader_t *r)
{
    if (r == NULL || !r->order_known)
        return TRACERD_BYTE_ORDER_AUTO;
    return r->big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE;
}

const char *tracerd_fxt_record_type_name(uint32_t type)
{
    static const char *const names[16] = {
        "metadata",         "init",          "string",     "thread", "event",   "blob",
        "userspace-object", "kernel-object", "scheduling", "log",    "unknown", "unknown",
        "unknown",          "unknown",       "unknown",    "large"};
    return type < 16 ? names[type] : "unknown";
}

const char *tracerd_fxt_event_type_name(uint32_t type)
{
    static const char *const names[11] = {"instant",       "counter",           "duration-begin",
                                          "duration-end",  "duration-complete", "async-begin",
                                          "async-instant", "async-end",         "flow-begin",
                                          "flow-step",     "flow-end"};
    return type < 11 ? names[type] : "unknown";
}

const char *tracerd_fxt_arg_type_name(uint32_t type)
{
    static const char *const names[11] = {"null",   "int32",  "uint32", "int64",
                                          "uint64", "double", "string", "pointer",
                                          "koid",   "bool",   "blob"};
    return type < 11 ? names[type] : "unknown";
}

TRACERD__SIZED_INIT(tracerd_fxt_callbacks_init, tracerd_fxt_callbacks_t, NULL)
