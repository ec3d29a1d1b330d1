/* CTF 2 metadata: reading JSON properties (ctf2_json.h). */
#include <stdio.h>
#include <stdlib.h>

#include "ctf2_json.h"

tracerd_status_t tracerd__ctf2_err(struct j2 *J, tracerd_status_t st, const char *fmt, ...)
{
    char msg[240];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tracerd__error_set(
        &J->m->err, st, J->frag_off, "CTF 2 metadata fragment %u (byte %llu)%s%s: %s", J->frag,
        (unsigned long long)J->frag_off, J->what ? ", " : "", J->what ? J->what : "", msg);
}

tracerd_status_t tracerd__ctf2_nomem(struct j2 *J)
{
    return tracerd__error_set(&J->m->err, TRACERD_E_NOMEM, J->frag_off,
                              "CTF 2 metadata: out of memory");
}

/* A marker string standing for a wide integer (the only strings holding a
 * NUL: tracerd__ctf2_load() proved the text has none), or NULL. */
const struct wide_int *tracerd__ctf2_wide_of(const struct j2 *J, const json_t *v)
{
    if (!json_is_string(v) || json_string_length(v) < 2 || json_string_value(v)[0] != '\0')
        return NULL;
    unsigned long i = strtoul(json_string_value(v) + 1, NULL, 10);
    return i < J->nwide ? &J->wide[i] : NULL;
}

/* A JSON string (not a marker). */
bool tracerd__ctf2_is_str(const json_t *v)
{
    return json_is_string(v) && (json_string_length(v) == 0 || json_string_value(v)[0] != '\0');
}

const char *tracerd__ctf2_kind_of(const json_t *v)
{
    if (json_is_string(v) && !tracerd__ctf2_is_str(v))
        return "an integer";
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number with a fraction or exponent";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

tracerd_status_t tracerd__ctf2_want(struct j2 *J, const char *obj, const char *key, const json_t *v,
                                    const char *type)
{
    return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s property '%s' must be %s, got %s", obj, key,
                             type, tracerd__ctf2_kind_of(v));
}

char *tracerd__ctf2_dup_str(struct j2 *J, const char *s)
{
    return tracerd__ctf_arena_strdup(J->ar, s, strlen(s));
}

/* Optional string property: *out NULL when absent. */
tracerd_status_t tracerd__ctf2_opt_str(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, const char **out)
{
    const json_t *v = json_object_get(o, key);
    *out = NULL;
    if (v == NULL)
        return TRACERD_OK;
    if (!tracerd__ctf2_is_str(v))
        return tracerd__ctf2_want(J, obj, key, v, "a string");
    *out = tracerd__ctf2_dup_str(J, json_string_value(v));
    return *out ? TRACERD_OK : tracerd__ctf2_nomem(J);
}

/* Reads an integer (jansson's, or a wide one's marker). */
int tracerd__ctf2_get_int(const struct j2 *J, const json_t *v, struct jint *out)
{
    if (json_is_integer(v)) {
        json_int_t x = json_integer_value(v);
        *out = (struct jint){(uint64_t)x, x < 0};
        return JINT_OK;
    }
    const struct wide_int *w = tracerd__ctf2_wide_of(J, v);
    if (w == NULL)
        return JINT_NONE;
    if (w->over)
        return JINT_OVER;
    *out = (struct jint){w->mag, false};
    return JINT_OK;
}

/* The text of a wide integer for messages. */
const char *tracerd__ctf2_wide_text(const struct j2 *J, const json_t *v, char *buf, size_t size)
{
    const struct wide_int *w = tracerd__ctf2_wide_of(J, v);
    snprintf(buf, size, "%.*s", w ? (int)(w->len < 60 ? w->len : 60) : 0,
             w ? J->text + w->off : "");
    return buf;
}

/* An integer property's value, or its error (not an integer, or beyond
 * -2^63..2^64-1). */
static tracerd_status_t int_prop(struct j2 *J, const json_t *v, const char *obj, const char *key,
                                 struct jint *x)
{
    char b[64];
    switch (tracerd__ctf2_get_int(J, v, x)) {
    case JINT_OK:
        return TRACERD_OK;
    case JINT_OVER:
        return tracerd__ctf2_err(
            J, TRACERD_E_METADATA,
            "%s property '%s' is %s, beyond the 64-bit integers (-2^63..2^64-1)", obj, key,
            tracerd__ctf2_wide_text(J, v, b, sizeof b));
    default:
        return tracerd__ctf2_want(J, obj, key, v, "an integer");
    }
}

/* a < b for integers of -2^63..2^64-1 */
static bool jint_lt(struct jint a, struct jint b)
{
    return a.neg != b.neg ? a.neg : a.neg ? (int64_t)a.v < (int64_t)b.v : a.v < b.v;
}

static const char *jint_text(struct jint x, char *buf, size_t size)
{
    if (x.neg)
        snprintf(buf, size, "%lld", (long long)x.v);
    else
        snprintf(buf, size, "%llu", (unsigned long long)x.v);
    return buf;
}

/* Optional integer property within [lo, hi]; *present (may be NULL) tells. */
static tracerd_status_t opt_num(struct j2 *J, const json_t *o, const char *obj, const char *key,
                                struct jint lo, struct jint hi, struct jint *out, bool *present)
{
    const json_t *v = json_object_get(o, key);
    if (present)
        *present = v != NULL;
    if (v == NULL)
        return TRACERD_OK;
    tracerd_status_t st = int_prop(J, v, obj, key, out);
    if (st == TRACERD_OK && (jint_lt(*out, lo) || jint_lt(hi, *out))) {
        char a[24], b[24], c[24];
        st = tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s property '%s' is %s, outside %s..%s", obj,
                               key, jint_text(*out, a, sizeof a), jint_text(lo, b, sizeof b),
                               jint_text(hi, c, sizeof c));
    }
    return st;
}

static struct jint s64(int64_t v)
{
    return (struct jint){(uint64_t)v, v < 0};
}

tracerd_status_t tracerd__ctf2_opt_int(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, int64_t lo, int64_t hi, int64_t *out,
                                       bool *present)
{
    struct jint x;
    tracerd_status_t st = opt_num(J, o, obj, key, s64(lo), s64(hi), &x, present);
    if (st == TRACERD_OK && json_object_get(o, key) != NULL)
        *out = (int64_t)x.v;
    return st;
}

/* A required property: its error when absent. */
tracerd_status_t tracerd__ctf2_required(struct j2 *J, const json_t *o, const char *obj,
                                        const char *key)
{
    if (json_object_get(o, key) == NULL)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s lacks the required property '%s'", obj,
                                 key);
    return TRACERD_OK;
}

tracerd_status_t tracerd__ctf2_req_int(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    tracerd_status_t st = tracerd__ctf2_required(J, o, obj, key);
    return st != TRACERD_OK ? st : tracerd__ctf2_opt_int(J, o, obj, key, lo, hi, out, NULL);
}

tracerd_status_t tracerd__ctf2_req_str(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, const char **out)
{
    tracerd_status_t st = tracerd__ctf2_required(J, o, obj, key);
    return st != TRACERD_OK ? st : tracerd__ctf2_opt_str(J, o, obj, key, out);
}

/* Optional unsigned 64-bit property within [lo, hi]; *present tells. */
tracerd_status_t tracerd__ctf2_opt_u64(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, uint64_t lo, uint64_t hi, uint64_t *out,
                                       bool *present)
{
    struct jint x;
    tracerd_status_t st =
        opt_num(J, o, obj, key, (struct jint){lo, false}, (struct jint){hi, false}, &x, present);
    if (st == TRACERD_OK && json_object_get(o, key) != NULL)
        *out = x.v;
    return st;
}

tracerd_status_t tracerd__ctf2_req_u64(struct j2 *J, const json_t *o, const char *obj,
                                       const char *key, uint64_t lo, uint64_t hi, uint64_t *out)
{
    tracerd_status_t st = tracerd__ctf2_required(J, o, obj, key);
    return st != TRACERD_OK ? st : tracerd__ctf2_opt_u64(J, o, obj, key, lo, hi, out, NULL);
}

/* Compact JSON text of v, with the original text of every wide integer in
 * place of its marker (dumped as "\u0000<index>": no other string holds a
 * NUL), in the arena. */
static tracerd_status_t dump_json(struct j2 *J, const json_t *v, const char **out)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (s == NULL)
        return tracerd__ctf2_nomem(J);
    size_t n = strlen(s), extra = 0;
    for (uint32_t k = 0; k < J->nwide; k++)
        extra += J->wide[k].len;
    char *o = tracerd__ctf_arena_alloc(J->ar, n + extra + 1);
    if (o == NULL) {
        free(s);
        return tracerd__ctf2_nomem(J);
    }
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        char *end;
        unsigned long k;
        if (J->nwide > 0 && strncmp(s + i, "\"\\u0000", 7) == 0 &&
            (k = strtoul(s + i + 7, &end, 10)) < J->nwide && *end == '"') {
            memcpy(o + w, J->text + J->wide[k].off, J->wide[k].len);
            w += J->wide[k].len;
            i = (size_t)(end + 1 - s);
        } else {
            o[w++] = s[i++];
        }
    }
    o[w] = '\0';
    free(s);
    *out = o;
    return TRACERD_OK;
}

/* The `attributes` object as compact JSON text (NULL when absent). */
tracerd_status_t tracerd__ctf2_attrs(struct j2 *J, const json_t *o, const char *obj,
                                     const char **out)
{
    const json_t *v = json_object_get(o, "attributes");
    *out = NULL;
    if (v == NULL)
        return TRACERD_OK;
    if (!json_is_object(v))
        return tracerd__ctf2_want(J, obj, "attributes", v, "an object");
    return dump_json(J, v, out);
}

/* `extensions`: the preamble enables extensions; we support none, so any
 * non-empty object anywhere refuses the trace. */
tracerd_status_t tracerd__ctf2_no_extensions(struct j2 *J, const json_t *o, const char *obj)
{
    const json_t *v = json_object_get(o, "extensions");
    if (v == NULL)
        return TRACERD_OK;
    if (!json_is_object(v))
        return tracerd__ctf2_want(J, obj, "extensions", v, "an object");
    const char *ns;
    const json_t *e;
    json_object_foreach((json_t *)(uintptr_t)v, ns, e)
    {
        if (json_is_object(e) && json_object_size(e) == 0)
            continue;
        const char *name = json_is_object(e) && json_object_size(e) > 0
                               ? json_object_iter_key(json_object_iter((json_t *)(uintptr_t)e))
                               : "";
        return tracerd__ctf2_err(
            J, TRACERD_E_UNSUPPORTED,
            "%s requires the extension '%s' of namespace '%s', which tracerd does not "
            "support",
            obj, name, ns);
    }
    return TRACERD_OK;
}

/* Refuses a property that is not in `known` (NULL-terminated). */
tracerd_status_t tracerd__ctf2_only(struct j2 *J, const json_t *o, const char *obj,
                                    const char *const *known)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)(uintptr_t)o, key, v)
    {
        bool ok = !strcmp(key, "type") || !strcmp(key, "attributes") || !strcmp(key, "extensions");
        for (const char *const *k = known; !ok && *k; k++)
            ok = strcmp(key, *k) == 0;
        if (!ok)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s has an unknown property '%s'", obj,
                                     key);
    }
    return TRACERD_OK;
}

/* Integer range set: non-empty array of [lo, hi] with lo <= hi (bounds
 * -2^63..2^64-1; those above INT64_MAX flagged in `big`). */
tracerd_status_t tracerd__ctf2_range_set(struct j2 *J, const json_t *v, const char *obj,
                                         const char *key, const struct ctf_rset **out)
{
    if (!json_is_array(v) || json_array_size(v) == 0)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "%s property '%s' must be a non-empty array of ranges", obj, key);
    size_t n = json_array_size(v);
    if (n > J->m->cfg.max_fields)
        return tracerd__ctf2_err(J, TRACERD_E_LIMIT,
                                 "%s property '%s': more than max_fields ranges", obj, key);
    struct ctf_rset *rs = tracerd__ctf_arena_alloc(J->ar, sizeof *rs);
    int64_t *lo = tracerd__ctf_arena_alloc(J->ar, sizeof *lo * n);
    int64_t *hi = tracerd__ctf_arena_alloc(J->ar, sizeof *hi * n);
    uint8_t *big = tracerd__ctf_arena_alloc(J->ar, n);
    if (rs == NULL || lo == NULL || hi == NULL || big == NULL)
        return tracerd__ctf2_nomem(J);
    for (size_t i = 0; i < n; i++) {
        const json_t *r = json_array_get(v, i);
        struct jint b[2];
        int k0 = JINT_NONE, k1 = JINT_NONE;
        if (json_is_array(r) && json_array_size(r) == 2) {
            k0 = tracerd__ctf2_get_int(J, json_array_get(r, 0), &b[0]);
            k1 = tracerd__ctf2_get_int(J, json_array_get(r, 1), &b[1]);
        }
        if (k0 == JINT_OVER || k1 == JINT_OVER) {
            char t[64];
            return tracerd__ctf2_err(
                J, TRACERD_E_METADATA,
                "%s property '%s': range %zu: %s is beyond the 64-bit integers "
                "(-2^63..2^64-1)",
                obj, key, i,
                tracerd__ctf2_wide_text(J, json_array_get(r, k0 == JINT_OVER ? 0 : 1), t,
                                        sizeof t));
        }
        if (k0 != JINT_OK || k1 != JINT_OK)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "%s property '%s': range %zu must be [lower, upper] integers",
                                     obj, key, i);
        lo[i] = (int64_t)b[0].v;
        hi[i] = (int64_t)b[1].v;
        bool lb = !b[0].neg && b[0].v > (uint64_t)INT64_MAX,
             hb = !b[1].neg && b[1].v > (uint64_t)INT64_MAX;
        big[i] = (uint8_t)((lb ? 1 : 0) | (hb ? 2 : 0));
        if ((lb && !hb) || (lb == hb && (lb ? b[0].v > b[1].v : lo[i] > hi[i])))
            return tracerd__ctf2_err(
                J, TRACERD_E_METADATA,
                lb ? "%s property '%s': range %zu has lower %llu above upper %llu"
                   : "%s property '%s': range %zu has lower %lld above upper %lld",
                obj, key, i, (unsigned long long)lo[i], (unsigned long long)hi[i]);
    }
    rs->lo = lo;
    rs->hi = hi;
    rs->big = big;
    rs->n = (uint32_t)n;
    *out = rs;
    return TRACERD_OK;
}
