/* Warnings coalesced (reader.h, tracerd__warn): a lenient reader that skips
 * 100 MB of garbage in 8-byte steps says so once, with a count, instead of
 * 13 million times. */
#include "reader.h"

size_t tracerd_warning_size(void)
{
    return sizeof(tracerd_warning_t);
}

/* Reasons a and b are the same but for their numbers (reasons quote
 * offsets and values): runs of digits count as one character. */
static bool same_kind(const char *a, const char *b)
{
    for (;;) {
        bool da = *a >= '0' && *a <= '9', db = *b >= '0' && *b <= '9';
        if (da != db)
            return false;
        if (da) {
            while (*a >= '0' && *a <= '9')
                a++;
            while (*b >= '0' && *b <= '9')
                b++;
            continue;
        }
        if (*a != *b)
            return false;
        if (*a == '\0')
            return true;
        a++;
        b++;
    }
}

int tracerd__warn_flush_run(struct tracerd__reader *c, tracerd_warning_cb cb)
{
    c->warn.pending = false;
    if (cb == NULL)
        return TRACERD_CB_CONTINUE;
    bool in = c->in_cb;
    c->in_cb = true;
    int rc = cb(c->user, &c->warn.w);
    c->in_cb = in;
    return rc;
}

int tracerd__warn(struct tracerd__reader *c, tracerd_warning_cb cb, const tracerd_warning_t *w)
{
    if (cb == NULL)
        return TRACERD_CB_CONTINUE;
    struct tracerd__warn_run *p = &c->warn;
    const char *reason = w->reason != NULL ? w->reason : "";
    if (p->pending && p->w.status == w->status && w->offset == p->w.offset + p->w.skipped_bytes &&
        same_kind(p->reason, reason)) {
        p->w.skipped_bytes += w->skipped_bytes;
        p->w.count += w->count;
        return TRACERD_CB_CONTINUE;
    }
    int rc = tracerd__warn_flush(c, cb);
    p->w = *w;
    p->w.size = sizeof p->w;
    tracerd__format(p->reason, sizeof p->reason, "%s", reason);
    p->w.reason = p->reason;
    p->pending = true;
    return rc;
}
