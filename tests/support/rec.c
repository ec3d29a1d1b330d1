/* The recorders' shared state and callback results (rec.h). */
#include "rec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

void rec_init(rec_t *rec, rec_mode_t mode)
{
    memset(rec, 0, sizeof *rec);
    rec->mode = mode;
    rec->hash = FNV_OFFSET;
}

void rec_fold_bytes(rec_t *rec, const void *data, size_t len)
{
    if (rec->mode != REC_HASH)
        return;
    uint64_t h = rec->hash;
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * FNV_PRIME;
    rec->hash = h;
}

static void fold(rec_t *rec)
{
    if (rec->mode != REC_HASH || rec->log.len == 0)
        return;
    rec_fold_bytes(rec, rec->log.buf, rec->log.len);
    tlog_reset(&rec->log);
}

int rec_ret_uncounted(rec_t *rec)
{
    fold(rec);
    rec->nreturns++;
    if (!rec->pause_every)
        return TRACERD_CB_CONTINUE;
    return rec->pause_value != 0 ? rec->pause_value : TRACERD_CB_PAUSE;
}

int rec_ret(rec_t *rec)
{
    fold(rec);
    rec->ncallbacks++;
    if (rec->abort_at != 0 && rec->ncallbacks == rec->abort_at)
        return -7;
    rec->nreturns++;
    if (!rec->pause_every)
        return TRACERD_CB_CONTINUE;
    return rec->pause_value != 0 ? rec->pause_value : TRACERD_CB_PAUSE;
}

void rec_log_end(rec_t *rec, const tracerd_reader_ops_t *ops, void *reader, tracerd_status_t st)
{
    if (st < 0)
        tlog_printf(&rec->log, "end %s @%llu %s\n", tracerd_status_name(st),
                    (unsigned long long)ops->record_offset(reader), ops->error_reason(reader));
    else
        tlog_printf(&rec->log, "end %s\n", tracerd_status_name(st));
    fold(rec);
}

void rec_failed(const rec_t *rec, const char *file, int line, const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s:%d: recorder check failed: %s", file, line, what);
    if (rec != NULL && rec->fail != NULL)
        rec->fail(msg);
    fprintf(stderr, "%s\n", msg);
    abort();
}
