/* Fuzz runs through the recorders (recorded.h). */
#include "recorded.h"

#include <stdlib.h>

uint64_t fuzz_recorded(const drv_target_t *t, const void *config, const uint8_t *data,
                       size_t size, fuzz_chunker_t *ch, bool pause, unsigned long abort_at)
{
    rec_t rec;
    rec_init(&rec, REC_HASH);
    rec.pause_every = pause;
    rec.abort_at = abort_at;
    const tracerd_reader_ops_t *ops = t->ops();
    void *r = NULL;
    tracerd_status_t st = t->open(config, &rec, NULL, &r);
    if (st == TRACERD_OK) {
        st = fuzz_pump(ops, r, data, size, ch);
        if (st < 0 && ops->error_reason(r)[0] == '\0')
            __builtin_trap(); /* every error names its record and field */
        rec_log_end(&rec, ops, r, st);
        ops->free(r);
    } else {
        tlog_printf(&rec.log, "open %s\n", tracerd_status_name(st));
        rec_fold_bytes(&rec, rec.log.buf, rec.log.len);
    }
    if (t->free_extra != NULL && rec.extra != NULL)
        t->free_extra(rec.extra);
    free(tlog_take(&rec.log));
    return rec.hash;
}

void fuzz_recorded_twice(const drv_target_t *t, const void *config, const uint8_t *data,
                         size_t size, uint8_t seed, bool pause, unsigned long abort_at)
{
    uint64_t whole = fuzz_recorded(t, config, data, size, NULL, false, abort_at);
    fuzz_chunker_t ch;
    fuzz_chunker_init(&ch, seed);
    uint64_t chunked = fuzz_recorded(t, config, data, size, &ch, pause, abort_at);
    if (whole != chunked)
        __builtin_trap();
}
