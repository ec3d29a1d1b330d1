/* Reader options from the command line: --lenient, and -o FORMAT.KEY=VALUE
 * (doc/tracerd.1, READER OPTIONS). One place builds each format's config, so
 * info, dump, json and stats read a trace the same way. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The value of -o PREFIX.KEY=VALUE items: calls item() for each item whose
 * key starts with prefix (and for each key=value of env, when set), with the
 * key after the prefix. item() returns false for an unknown key or bad value,
 * which is reported naming where it came from. */
typedef bool (*opt_item_fn)(void *cfg, const char *key, const char *value);

static bool for_items(const cli_t *c, const char *prefix, const char *env, opt_item_fn item,
                      void *cfg)
{
    char buf[512];
    const char *envv = env != NULL ? getenv(env) : NULL;
    if (envv != NULL && *envv != '\0') {
        if (strlen(envv) >= sizeof buf) {
            fprintf(stderr, "%s: %s is too long\n", c->prog, env);
            return false;
        }
        strcpy(buf, envv);
        for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv != NULL;
             kv = strtok_r(NULL, ",", &save)) {
            char *v = strchr(kv, '=');
            if (v == NULL) {
                fprintf(stderr, "%s: %s: '%s' is not key=value\n", c->prog, env, kv);
                return false;
            }
            *v++ = '\0';
            if (!item(cfg, kv, v)) {
                fprintf(stderr, "%s: %s: bad option %s=%s\n", c->prog, env, kv, v);
                return false;
            }
        }
    }
    size_t plen = strlen(prefix);
    for (unsigned i = 0; i < c->nopts; i++) {
        const char *o = c->opts[i];
        if (strncmp(o, prefix, plen) != 0)
            continue;
        const char *eq = strchr(o, '=');
        if (eq == NULL || (size_t)(eq - (o + plen)) >= sizeof buf) {
            fprintf(stderr, "%s: -o %s: not FORMAT.KEY=VALUE\n", c->prog, o);
            return false;
        }
        size_t klen = (size_t)(eq - (o + plen));
        memcpy(buf, o + plen, klen);
        buf[klen] = '\0';
        if (!item(cfg, buf, eq + 1)) {
            fprintf(stderr, "%s: -o %s: unknown key or bad value\n", c->prog, o);
            return false;
        }
    }
    return true;
}

static bool yes_no(const char *v, bool *out)
{
    if (strcmp(v, "yes") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
        *out = true;
    else if (strcmp(v, "no") == 0 || strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
        *out = false;
    else
        return false;
    return true;
}

static bool byte_order(const char *v, bool allow_auto, tracerd_byte_order_t *out)
{
    if (allow_auto && strcmp(v, "auto") == 0)
        *out = TRACERD_BYTE_ORDER_AUTO;
    else if (strcmp(v, "little") == 0)
        *out = TRACERD_BYTE_ORDER_LITTLE;
    else if (strcmp(v, "big") == 0)
        *out = TRACERD_BYTE_ORDER_BIG;
    else
        return false;
    return true;
}

/* ---- XRay ------------------------------------------------------------------ */

static bool xray_item(void *p, const char *k, const char *v)
{
    tracerd_xray_config_t *cfg = p;
    if (strcmp(k, "byte-order") == 0)
        return byte_order(v, true, &cfg->byte_order);
    return false;
}

int cli_config_xray(const cli_t *c, tracerd_xray_config_t *cfg)
{
    tracerd_xray_config_init(cfg);
    cfg->lenient_skip_buffers = c->lenient;
    return for_items(c, "xray.", NULL, xray_item, cfg) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

/* ---- FXT ------------------------------------------------------------------- */

static bool fxt_item(void *p, const char *k, const char *v)
{
    tracerd_fxt_config_t *cfg = p;
    if (strcmp(k, "byte-order") == 0)
        return byte_order(v, true, &cfg->byte_order);
    if (strcmp(k, "no-magic-order") == 0)
        return byte_order(v, false, &cfg->assume_byte_order);
    if (strcmp(k, "provider0-fallback") == 0)
        return yes_no(v, &cfg->fallback_to_provider0);
    return false;
}

int cli_config_fxt(const cli_t *c, tracerd_fxt_config_t *cfg)
{
    tracerd_fxt_config_init(cfg);
    cfg->lenient = c->lenient;
    return for_items(c, "fxt.", NULL, fxt_item, cfg) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

/* ---- CTF ------------------------------------------------------------------- */

static bool ctf_item(void *p, const char *k, const char *v)
{
    tracerd_ctf_stream_config_t *cfg = p;
    if (strcmp(k, "check-uuid") == 0)
        return yes_no(v, &cfg->check_uuid);
    if (strcmp(k, "stitch-bytes") == 0) { /* largest event that may straddle chunks */
        char *end;
        unsigned long long n = strtoull(v, &end, 10);
        if (*v == '\0' || *v == '-' || *end != '\0' || n < TRACERD_STITCH_MIN || n > (1u << 30))
            return false;
        cfg->stitch_bytes = (size_t)n;
        return true;
    }
    return false;
}

int cli_config_ctf(const cli_t *c, tracerd_ctf_stream_config_t *cfg)
{
    tracerd_ctf_stream_config_init(cfg);
    cfg->lenient_skip_packets = c->lenient;
    return for_items(c, "ctf.", NULL, ctf_item, cfg) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

/* ---- xtrace ---------------------------------------------------------------- */

struct xtrace_cfgs {
    tracerd_xtrace_insn_config_t *ic;
    tracerd_xtrace_snap_config_t *sc;
};

/* Keys: header (0|19|24|32), vl, svl (bits), p (block|per-reg), za (yes|no),
 * fixed (yes|no), order (little|big), detect (1..8), advance (yes|no), ident
 * (number), time (1..16), iov (auto|interleaved|grouped|headers-only), iov_probe
 * (bytes, 64..16777216), mem_log2
 * (0..15), pc (initial PC), start_offset, start_index, padding (yes|no),
 * truncated (yes|no). The reader checks the ranges when it is made. */
static bool xtrace_item(void *p, const char *kv, const char *v)
{
    struct xtrace_cfgs *x = p;
    tracerd_xtrace_insn_config_t *ic = x->ic;
    tracerd_xtrace_snap_config_t *sc = x->sc;
    char *end;
    unsigned long long n = strtoull(v, &end, 0);
    bool num = *v != '\0' && *v != '-' && *end == '\0';
    bool yes = strcmp(v, "yes") == 0, no = strcmp(v, "no") == 0;
    if (strcmp(kv, "header") == 0 && num)
        sc->header_bytes = (int32_t)n;
    else if (strcmp(kv, "vl") == 0 && num)
        sc->vector_length_bits = (uint32_t)n;
    else if (strcmp(kv, "svl") == 0 && num)
        sc->streaming_vector_length_bits = (uint32_t)n;
    else if (strcmp(kv, "p") == 0 && (strcmp(v, "block") == 0 || strcmp(v, "per-reg") == 0))
        sc->p_layout = v[0] == 'b' ? TRACERD_XTRACE_P_BLOCK : TRACERD_XTRACE_P_PER_REG;
    else if (strcmp(kv, "za") == 0 && (yes || no))
        sc->za = yes ? TRACERD_XTRACE_YES : TRACERD_XTRACE_NO;
    else if (strcmp(kv, "fixed") == 0 && (yes || no))
        sc->fixed_max = yes ? TRACERD_XTRACE_YES : TRACERD_XTRACE_NO;
    else if (strcmp(kv, "order") == 0 && (strcmp(v, "little") == 0 || strcmp(v, "big") == 0))
        sc->byte_order = v[0] == 'l' ? TRACERD_BYTE_ORDER_LITTLE : TRACERD_BYTE_ORDER_BIG;
    else if (strcmp(kv, "detect") == 0 && num)
        sc->detect_records = (uint32_t)n;
    else if (strcmp(kv, "advance") == 0 && (yes || no))
        sc->check_advance = yes;
    else if (strcmp(kv, "ident") == 0 && num)
        sc->expect_ident = (uint32_t)n;
    else if (strcmp(kv, "time") == 0 && num)
        ic->time_payload_bytes = (uint32_t)n;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "interleaved") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_INTERLEAVED;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "grouped") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_GROUPED;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "headers-only") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_HEADERS_ONLY;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "auto") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_AUTO;
    else if (strcmp(kv, "iov_probe") == 0 && num)
        ic->iov_probe_bytes = (uint32_t)n;
    else if (strcmp(kv, "mem_log2") == 0 && num)
        ic->max_mem_log2 = (uint32_t)n;
    else if (strcmp(kv, "pc") == 0 && num) {
        ic->has_initial_pc = true;
        ic->initial_pc = n;
    } else if (strcmp(kv, "start_offset") == 0 && num)
        ic->start_offset = n;
    else if (strcmp(kv, "start_index") == 0 && num)
        ic->start_index = n;
    else if (strcmp(kv, "padding") == 0 && (yes || no))
        ic->allow_trailing_zero_padding = yes;
    else if (strcmp(kv, "truncated") == 0 && (yes || no))
        ic->allow_truncated_tail = sc->allow_truncated_tail = yes;
    else
        return false;
    return true;
}

int cli_config_xtrace(const cli_t *c, tracerd_xtrace_insn_config_t *ic,
                      tracerd_xtrace_snap_config_t *sc)
{
    tracerd_xtrace_insn_config_init(ic);
    tracerd_xtrace_snap_config_init(sc);
    /* A damaged tail: zero padding and a record cut short are warnings. */
    ic->allow_trailing_zero_padding = c->lenient;
    ic->allow_truncated_tail = sc->allow_truncated_tail = c->lenient;
    struct xtrace_cfgs x = {ic, sc};
    /* TRACERD_XTRACE="key=value,..." first, then -o xtrace.key=value */
    return for_items(c, "xtrace.", "TRACERD_XTRACE", xtrace_item, &x) ? CLI_EXIT_OK
                                                                      : CLI_EXIT_USAGE;
}

/* ---- all ------------------------------------------------------------------- */

int cli_config_check(const cli_t *c)
{
    static const char *const prefixes[] = {"xray.", "fxt.", "ctf.", "xtrace."};
    for (unsigned i = 0; i < c->nopts; i++) {
        const char *o = c->opts[i];
        bool known = false;
        for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++)
            known = known || strncmp(o, prefixes[k], strlen(prefixes[k])) == 0;
        if (!known || strchr(o, '=') == NULL) {
            fprintf(stderr,
                    "%s: -o %s: not FORMAT.KEY=VALUE with FORMAT one of xray, fxt, ctf, "
                    "xtrace\n",
                    c->prog, o);
            return CLI_EXIT_USAGE;
        }
    }
    tracerd_xray_config_t xc;
    tracerd_fxt_config_t fc;
    tracerd_ctf_stream_config_t cc;
    tracerd_xtrace_insn_config_t ic;
    tracerd_xtrace_snap_config_t sc;
    int rc;
    if ((rc = cli_config_xray(c, &xc)) != CLI_EXIT_OK || (rc = cli_config_fxt(c, &fc)) != 0 ||
        (rc = cli_config_ctf(c, &cc)) != 0)
        return rc;
    if ((rc = cli_config_xtrace(c, &ic, &sc)) != CLI_EXIT_OK)
        return rc;
    /* The xtrace readers check their ranges when made: make them once now, so
     * that a value out of range is a usage error naming where it came from. */
    tracerd_xtrace_insn_reader_t *ir = NULL;
    tracerd_xtrace_snap_reader_t *sr = NULL;
    tracerd_status_t ist = tracerd_xtrace_insn_new(&ic, NULL, NULL, NULL, &ir);
    tracerd_status_t sst = tracerd_xtrace_snap_new(&sc, NULL, NULL, NULL, &sr);
    tracerd_xtrace_insn_free(ir);
    tracerd_xtrace_snap_free(sr);
    if (ist == TRACERD_E_INVALID || sst == TRACERD_E_INVALID) {
        const char *env = getenv("TRACERD_XTRACE");
        bool has_o = false;
        for (unsigned i = 0; i < c->nopts; i++)
            has_o = has_o || strncmp(c->opts[i], "xtrace.", 7) == 0;
        fprintf(stderr, "%s: %s: a value is out of range (doc/tracerd.1, READER OPTIONS)\n",
                c->prog,
                has_o && env != NULL && *env != '\0' ? "-o xtrace.* or TRACERD_XTRACE"
                : has_o                              ? "-o xtrace.*"
                                                     : "TRACERD_XTRACE");
        return CLI_EXIT_USAGE;
    }
    if (ist == TRACERD_E_NOMEM || sst == TRACERD_E_NOMEM) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    return CLI_EXIT_OK;
}
