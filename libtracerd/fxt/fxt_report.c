/* FXT reader: errors, warnings, callback results and reports of unknown
 * records (fxt_reader.h). */
#include <stdio.h>

#include "fxt_reader.h"

tracerd_status_t tracerd__fxt_fail(tracerd_fxt_reader_t *r, tracerd_status_t st, const char *fmt,
                                   ...)
{
    char msg[TRACERD__REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->arg_i >= 0)
        return tracerd__error_set(&r->core.err, st, r->rec_off, "%s: argument %d: %s", r->what,
                                  r->arg_i + 1, msg);
    return tracerd__error_set(&r->core.err, st, r->rec_off, "%s: %s", r->what, msg);
}

/* A resource limit or allocation failure: never skipped in lenient mode. */
tracerd_status_t tracerd__fxt_fail_fatal(tracerd_fxt_reader_t *r, tracerd_status_t st,
                                         const char *what)
{
    r->fatal = true;
    if (st == TRACERD_E_NOMEM)
        return tracerd__fxt_fail(r, st, "out of memory for %s", what);
    return tracerd__fxt_fail(r, st, "%s", what);
}

/* A callback returned rv: the reader core's one interpretation. A pause is
 * taken at the end of the record (core.paused stops the loops); an abort is
 * never skipped in lenient mode. */
tracerd_status_t tracerd__fxt_after_cb(tracerd_fxt_reader_t *r, int rv, const char *name)
{
    r->core.in_cb = false;
    if (TRACERD__LIKELY(tracerd__cb_result(&r->core, rv, name, r->rec_off) >= 0))
        return TRACERD_OK;
    r->fatal = true;
    return r->core.err.status;
}

/* The warnings held back (a run of skips, reader.h tracerd__warn): delivered
 * before any other callback. */
TRACERD__COLD tracerd_status_t tracerd__fxt_warn_flush(tracerd_fxt_reader_t *r)
{
    r->core.in_cb = true;
    return tracerd__fxt_after_cb(r, tracerd__warn_flush(&r->core, r->cbs.on_warning), "on_warning");
}

/* A warning: held, or joined to the held run, or delivered (tracerd__warn). */
tracerd_status_t tracerd__fxt_warning(tracerd_fxt_reader_t *r, tracerd_status_t st, uint64_t offset,
                                      uint64_t skipped)
{
    tracerd_warning_t w = tracerd__warning(st, offset, skipped, r->warn_reason);
    r->core.in_cb = true;
    return tracerd__fxt_after_cb(r, tracerd__warn(&r->core, r->cbs.on_warning, &w), "on_warning");
}

/* ---- decoding primitives ---------------------------------------------- */

/* Lenient mode: turns the current error into a warning about skipping `skipped` bytes. */
tracerd_status_t tracerd__fxt_warn(tracerd_fxt_reader_t *r, uint64_t skipped)
{
    memcpy(r->warn_reason, r->core.err.reason, sizeof r->warn_reason);
    tracerd_status_t st = r->core.err.status;
    uint64_t offset = r->core.err.offset;
    tracerd__error_clear(&r->core.err);
    return tracerd__fxt_warning(r, st, offset, skipped);
}

FXT_COLD tracerd_status_t tracerd__fxt_fail_word(tracerd_fxt_reader_t *r, const char *field)
{
    return tracerd__fxt_fail(r, TRACERD_E_EXTENT, "%s word runs past the end of the %s", field,
                             r->arg_i >= 0 ? "argument" : "record");
}

FXT_COLD tracerd_status_t tracerd__fxt_fail_inline(tracerd_fxt_reader_t *r, const char *field,
                                                   size_t len)
{
    return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                             "inline %s string (%zu bytes) runs past the end of the %s", field, len,
                             r->arg_i >= 0 ? "argument" : "record");
}

FXT_COLD tracerd_status_t tracerd__fxt_fail_koids(tracerd_fxt_reader_t *r, const char *field)
{
    return tracerd__fxt_fail(r, TRACERD_E_EXTENT, "inline %s koids run past the end of the record",
                             field);
}

FXT_COLD tracerd_status_t tracerd__fxt_add_implicit_provider(tracerd_fxt_reader_t *r)
{
    tracerd_status_t st = tracerd__fxt_add(&r->tables, 0, &r->cur);
    if (st != TRACERD_OK)
        return tracerd__fxt_fail_fatal(r, st, "the implicit provider 0");
    return TRACERD_OK;
}

static const struct tracerd__fxt_provider *fallback(const tracerd_fxt_reader_t *r)
{
    if (!r->cfg.fallback_to_provider0 || r->cur->id == 0)
        return NULL;
    return tracerd__fxt_find(&r->tables, 0);
}

FXT_COLD tracerd_status_t tracerd__fxt_str_miss(tracerd_fxt_reader_t *r, uint32_t ref,
                                                tracerd_str_t *out, const char *field)
{
    const struct tracerd__fxt_provider *p0 = fallback(r);
    if (p0 != NULL && tracerd__fxt_str_get(p0, ref, out))
        return TRACERD_OK;
    return tracerd__fxt_fail(r, TRACERD_E_REFERENCE,
                             "%s string index %u is not registered in provider %u", field,
                             (unsigned)ref, (unsigned)r->cur->id);
}

FXT_COLD tracerd_status_t tracerd__fxt_thread_miss(tracerd_fxt_reader_t *r, uint32_t ref,
                                                   tracerd_fxt_thread_t *t, const char *field)
{
    const struct tracerd__fxt_provider *p0 = fallback(r);
    if (p0 == NULL || !p0->threads[ref].set)
        return tracerd__fxt_fail(r, TRACERD_E_REFERENCE,
                                 "%s thread index %u is not registered in provider %u", field,
                                 (unsigned)ref, (unsigned)r->cur->id);
    t->pid = p0->threads[ref].pid;
    t->tid = p0->threads[ref].tid;
    return TRACERD_OK;
}

static const char *const ARG_WORD_NAME[16] = {
    "", "", "", "int64 value", "uint64 value", "double value", "", "pointer value", "koid value"};

/* Argument header at q (rem bytes left in the record) that does not fit. */
FXT_COLD tracerd_status_t tracerd__fxt_fail_arg_header(tracerd_fxt_reader_t *r, const uint8_t *q,
                                                       size_t rem, bool big, uint32_t nargs)
{
    if (rem < 8)
        return tracerd__fxt_fail(
            r, TRACERD_E_EXTENT,
            "header word runs past the end of the record (%u arguments declared)", (unsigned)nargs);
    size_t size = (size_t)((ldw(big, q) >> 4) & 0xfffu) * 8u;
    if (size == 0)
        return tracerd__fxt_fail(r, TRACERD_E_BAD_RECORD, "size is 0");
    return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                             "size (%zu words) runs past the end of the record", size / 8);
}

FXT_COLD tracerd_status_t tracerd__fxt_fail_arg_word(tracerd_fxt_reader_t *r, uint32_t type)
{
    return tracerd__fxt_fail_word(r, ARG_WORD_NAME[type]);
}

FXT_COLD tracerd_status_t tracerd__fxt_fail_arg_blob(tracerd_fxt_reader_t *r, uint32_t bsize)
{
    return tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                             "blob payload (%u bytes) runs past the end of the argument",
                             (unsigned)bsize);
}

/* Reports unknown argument types of the record just validated. */
tracerd_status_t tracerd__fxt_report_unknown_args(tracerd_fxt_reader_t *r, uint32_t nargs)
{
    for (uint32_t i = 0; i < nargs && r->unknown_args != 0; i++) {
        if (!(r->unknown_args & (1u << i)))
            continue;
        const tracerd_fxt_arg_t *g = &r->args[i];
        tracerd_fxt_unknown_t u;
        u.offset = r->rec_off + g->pos;
        u.kind = TRACERD_FXT_UNKNOWN_ARGUMENT;
        u.type = g->type;
        u.raw.data = r->rec_p + g->pos;
        u.raw.len = g->v.blob.len + 8;
        u.header = ld64(r, u.raw.data);
        u.size = u.raw.len;
        tracerd_status_t st = CALL(r, on_unknown, &u);
        if (st != TRACERD_OK)
            return st;
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd__fxt_report_unknown(tracerd_fxt_reader_t *r,
                                             tracerd_fxt_unknown_kind_t kind, uint32_t type,
                                             uint64_t h, const uint8_t *p, uint64_t n)
{
    tracerd_fxt_unknown_t u;
    u.offset = r->rec_off;
    u.kind = kind;
    u.type = type;
    u.header = h;
    u.size = n;
    u.raw.data = p;
    u.raw.len = p != NULL ? (size_t)n : 0;
    return CALL(r, on_unknown, &u);
}
