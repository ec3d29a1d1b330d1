/* libFuzzer target for the event view: the auto reader (detection, head
 * replay, the XRay mapping) over any input, and the XRay names reader over
 * the same bytes as an ELF image. Byte 0 selects options (bits 0-2: forced
 * format 0-4 or detect; bit 3 pause at every callback of the chunked read;
 * bit 4 names from the input; bit 5: the trace is "metadata NUL stream", the
 * metadata given first with tracerd_auto_metadata, as for CTF), the last
 * byte seeds the chunk sizes (and, one seed in nine, the callback that
 * aborts), the rest is the trace. The input is read whole and chunked
 * through the event view's recorder of the suites
 * (tests/support/event_recorder.c, hashing): the two hashes (every event,
 * source and warning, the final status, offset and reason) must agree, or
 * the target traps. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/event.h>

#include "recorded.h"
#include "support/event_recorder.h"

/* The XRay names reader's lookups fold here (only to read every byte). */
static uint64_t touch(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* The event view's recorder target over "metadata NUL stream" (bit 5): the
 * metadata given first with tracerd_auto_metadata, as for CTF. */
struct meta_cfg {
    tracerd_auto_config_t cfg;
    const uint8_t *meta;
    size_t meta_len;
};

static tracerd_status_t open_meta(const void *config, rec_t *rec,
                                  const tracerd_allocator_t *alloc, void **reader)
{
    const struct meta_cfg *m = config;
    tracerd_status_t st = ev_target.open(&m->cfg, rec, alloc, reader);
    if (st != TRACERD_OK || m->meta == NULL)
        return st;
    st = tracerd_auto_metadata(*reader, m->meta, m->meta_len);
    tlog_printf(&rec->log, "metadata %s\n", tracerd_status_name(st));
    if (st == TRACERD_E_INVALID || st == TRACERD_E_UNSUPPORTED)
        return TRACERD_OK; /* a forced other format, or no CTF reader: read the stream alone */
    if (st != TRACERD_OK) {
        tracerd_auto_free(*reader);
        *reader = NULL;
    }
    return st;
}

static const drv_target_t meta_target = {"auto+metadata", open_meta, tracerd_auto_ops, NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t opts = data[0], seed = data[size - 1];
    const uint8_t *trace = data + 1;
    size_t len = size - 2;
    /* The same bytes as an ELF image: never a crash, whatever they hold. */
    tracerd_xray_names_t *names = NULL;
    if (tracerd_xray_names_new(NULL, &names) != TRACERD_OK)
        abort();
    tracerd_status_t nst = tracerd_xray_names_load(names, trace, len);
    uint64_t touched = 0;
    for (uint32_t id = 0; nst == TRACERD_OK && id <= tracerd_xray_names_count(names) + 1; id++) {
        tracerd_str_t s;
        if (tracerd_xray_names_lookup(names, (int32_t)id, &s))
            touched = touch(touched, s.data, s.len); /* every name byte is readable */
        touched ^= tracerd_xray_names_address(names, (int32_t)id);
    }
    volatile uint64_t keep = touched; /* the reads stay */
    (void)keep;
    struct meta_cfg m;
    memset(&m, 0, sizeof m);
    tracerd_auto_config_init(&m.cfg);
    unsigned f = opts & 7u;
    m.cfg.format = f <= 4 ? (tracerd_event_format_t)f : TRACERD_EVENT_FORMAT_UNKNOWN;
    m.cfg.xray_names = (opts & 16) && nst == TRACERD_OK ? names : NULL;
    m.cfg.max_args = 4;
    if (opts & 32) {
        const uint8_t *nul = memchr(trace, 0, len);
        if (nul != NULL) {
            m.meta = trace;
            m.meta_len = (size_t)(nul - trace);
            len -= m.meta_len + 1;
            trace = nul + 1;
        }
    }
    unsigned long abort_at = seed % 9 == 0 ? (unsigned long)(seed / 9) + 1 : 0;
    fuzz_recorded_twice(&meta_target, &m, trace, len, seed, (opts & 8) != 0, abort_at);
    tracerd_xray_names_free(names);
    return 0;
}
