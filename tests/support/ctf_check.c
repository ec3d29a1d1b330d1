/* CTF test helpers built on Check and the drivers (ctf_check.h). */
#include "ctf_check.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_recorder.h"

/* The log without its field lines. */
char *without_fields(const char *log)
{
    char *out = malloc(strlen(log) + 1);
    size_t o = 0;
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (p[0] != 'F') {
            memcpy(out + o, p, n);
            o += n;
        }
        p += n;
    }
    out[o] = '\0';
    return out;
}

/* The log keeping only the field lines of the scopes in mask (a bit per
 * scope; "F @N sS ..."). */
static char *fields_of_scopes(const char *log, unsigned mask)
{
    char *out = malloc(strlen(log) + 1);
    size_t o = 0;
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        const char *sp = memchr(p, ' ', n);
        sp = sp ? memchr(sp + 1, ' ', n - (size_t)(sp + 1 - p)) : NULL; /* after "F @N" */
        if (p[0] != 'F' || (sp != NULL && sp[1] == 's' && sp[2] >= '0' && sp[2] <= '9' &&
                            (mask >> (sp[2] - '0') & 1u))) {
            memcpy(out + o, p, n);
            o += n;
        }
        p += n;
    }
    out[o] = '\0';
    return out;
}

tracerd_ctf_trace_t *cfg_parse_once(struct target_cfg *c)
{
    char reason[256];
    tracerd_ctf_trace_t *trace = NULL;
    ck_assert_msg(tracerd_ctf_trace_parse(c->metadata, c->metadata_len, NULL, NULL, &trace, reason,
                                          sizeof reason) == TRACERD_OK,
                  "metadata: %s", reason);
    c->trace = trace;
    return trace;
}

/* Fast path (events only, whole packets in the chunk) against the general
 * path: the same records under every split. Also with on_field limited to
 * one event context (field_scopes), which the fast path delivers too, and
 * with every scope but one of an event's (then the general interpreter, or
 * the body's plan when only the header is left out, delivers what the
 * delivery plans deliver when every scope is wanted, as in `full`). */
void check_fast_path(const char *meta, const uint8_t *data, size_t len, const char *full)
{
    struct target_cfg c;
    cfg_init(&c, meta);
    tracerd_ctf_trace_t *trace = cfg_parse_once(&c);
    char *ev = drv_check_all(&ctf_events_target, &c, data, len);
    char *want = without_fields(full);
    ck_assert_str_eq(ev, want);
    free(want);
    free(ev);
    /* on_fields: the records of on_field, in batches */
    ev = drv_check_twin(&ctf_batch_target, &c, data, len);
    ck_assert_str_eq(ev, full);
    free(ev);
    /* each event context alone, then both (the fast path's context plans,
     * or the general interpreter) */
    for (unsigned scope = TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT;
         scope <= TRACERD_CTF_SCOPE_EVENT_CONTEXT + 1; scope++) {
        unsigned mask = scope <= TRACERD_CTF_SCOPE_EVENT_CONTEXT
                            ? 1u << scope
                            : (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                  (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);
        c.stream.field_scopes = mask;
        char *sc = drv_check_all(&ctf_target, &c, data, len);
        want = fields_of_scopes(full, mask);
        ck_assert_str_eq(sc, want);
        free(sc);
        /* on_fields on the fast path (the contexts only) */
        sc = drv_check_twin(&ctf_batch_target, &c, data, len);
        ck_assert_str_eq(sc, want);
        free(want);
        free(sc);
    }
    /* event context left out: the header, stream context and fields by the
     * general interpreter (the event context by it in the run above);
     * header left out: the body's plan after the header measured again
     * (the drivers' plans make each run long under sanitizers) */
    static const unsigned left_out[] = {TRACERD_CTF_SCOPE_EVENT_HEADER,
                                        TRACERD_CTF_SCOPE_EVENT_CONTEXT};
    for (size_t k = 0; k < sizeof left_out / sizeof left_out[0]; k++) {
        unsigned scope = left_out[k];
        c.stream.field_scopes = 0x3Fu & ~(1u << scope);
        char *sc = drv_check_all(&ctf_target, &c, data, len);
        want = fields_of_scopes(full, 0x3Fu & ~(1u << scope));
        ck_assert_str_eq(sc, want);
        free(sc);
        sc = drv_check_twin(&ctf_batch_target, &c, data, len);
        ck_assert_str_eq(sc, want);
        free(want);
        free(sc);
    }
    tracerd_ctf_trace_free(trace);
}

void expect_end(const char *log, const char *end_line)
{
    const char *e = strncmp(log, "end ", 4) == 0 ? log : strstr(log, "\nend ");
    if (e && e != log)
        e++;
    ck_assert_msg(e != NULL && strncmp(e, end_line, strlen(end_line)) == 0,
                  "want '%s', got '%s'", end_line, e ? e : log);
}
