/* CTF 2 metadata: the JSON text sequence (RFC 7464) split into fragments,
 * each parsed with jansson, turned into the same trace model as TSDL builds
 * (types, clocks, stream and event classes); tracerd__ctf_compile then makes
 * the same flat programs. Locations and roles are kept in the types and
 * resolved by the compiler. */
#include <stdio.h>
#include <stdlib.h>

#include "ctf2_json.h"

static bool pow2(int64_t v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* ==== field classes ========================================================= */

static const char *const scope_names[] = {"packet-header",
                                          "packet-context",
                                          "event-record-header",
                                          "event-record-common-context",
                                          "event-record-specific-context",
                                          "event-record-payload"};

static tracerd_status_t location(struct j2 *J, const json_t *v, const char *obj, const char *key,
                                 struct ctf_type *ty)
{
    if (!json_is_object(v))
        return tracerd__ctf2_want(J, obj, key, v, "a field location object");
    const json_t *o = json_object_get(v, "origin"), *p = json_object_get(v, "path");
    int origin = -1;
    if (o != NULL) {
        for (int s = 0; s < 6 && origin < 0; s++)
            if (tracerd__ctf2_is_str(o) && !strcmp(json_string_value(o), scope_names[s]))
                origin = s;
        if (origin < 0)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "%s property '%s': unknown origin scope", obj, key);
    }
    if (!json_is_array(p) || json_array_size(p) == 0)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "%s property '%s' needs a non-empty 'path' array", obj, key);
    size_t n = json_array_size(p);
    if (n > J->m->cfg.max_depth)
        return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "%s property '%s': path longer than max_depth",
                                 obj, key);
    const char **names = tracerd__ctf_arena_alloc(J->ar, sizeof *names * n);
    struct ctf_loc *loc = tracerd__ctf_arena_alloc(J->ar, sizeof *loc);
    if (names == NULL || loc == NULL)
        return tracerd__ctf2_nomem(J);
    uint32_t nn = 0, up = 0;
    size_t text = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *it = json_array_get(p, i);
        if (json_is_null(it)) {
            if (origin >= 0)
                return tracerd__ctf2_err(
                    J, TRACERD_E_METADATA,
                    "%s property '%s': a null path item in an absolute location", obj, key);
            if (nn > 0)
                nn--; /* a null after a name cancels it */
            else
                up++;
        } else if (tracerd__ctf2_is_str(it)) {
            names[nn] = tracerd__ctf2_dup_str(J, json_string_value(it));
            if (names[nn] == NULL)
                return tracerd__ctf2_nomem(J);
            text += strlen(names[nn]) + 1;
            nn++;
        } else {
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "%s property '%s': path item %zu must be a string or null",
                                     obj, key, i);
        }
    }
    if (nn == 0 || json_is_null(json_array_get(p, n - 1)))
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s property '%s': the path names no field",
                                 obj, key);
    loc->origin = origin;
    loc->up = up;
    loc->names = names;
    loc->nnames = nn;
    ty->loc = loc;
    /* display text: "origin/a/b" or "../a" */
    size_t len = (origin >= 0 ? strlen(scope_names[origin]) + 1 : up * 3) + text + 1;
    char *s = tracerd__ctf_arena_alloc(J->ar, len);
    if (s == NULL)
        return tracerd__ctf2_nomem(J);
    size_t k = 0;
    if (origin >= 0)
        k += (size_t)snprintf(s, len, "%s/", scope_names[origin]);
    for (uint32_t i = 0; i < up; i++)
        k += (size_t)snprintf(s + k, len - k, "../");
    for (uint32_t i = 0; i < nn; i++)
        k += (size_t)snprintf(s + k, len - k, "%s%s", i ? "/" : "", names[i]);
    ty->pub.path = s;
    return TRACERD_OK;
}

static struct ctf_type *new_type(struct j2 *J, tracerd_ctf_type_kind_t k)
{
    struct ctf_type *t = tracerd__ctf_type_new(J->ar, k);
    if (t == NULL)
        return NULL;
    t->line = J->frag + 1;
    t->ctf2 = true;
    t->frag_off = J->frag_off;
    return t;
}

/* The start of a field class of kind k: its properties checked against
 * `known` (tracerd__ctf2_only), then its type, in *out. */
static tracerd_status_t begin_type(struct j2 *J, const json_t *o, const char *obj,
                                   const char *const *known, tracerd_ctf_type_kind_t k,
                                   struct ctf_type **out)
{
    tracerd_status_t st = tracerd__ctf2_only(J, o, obj, known);
    if (st != TRACERD_OK)
        return st;
    *out = new_type(J, k);
    return *out != NULL ? TRACERD_OK : tracerd__ctf2_nomem(J);
}

static const struct {
    const char *name;
    uint32_t bit;
} role_names[] = {
    {"packet-magic-number", TRACERD_CTF_ROLE_PACKET_MAGIC},
    {"metadata-stream-uuid", TRACERD_CTF_ROLE_METADATA_UUID},
    {"data-stream-class-id", TRACERD_CTF_ROLE_STREAM_CLASS_ID},
    {"data-stream-id", TRACERD_CTF_ROLE_STREAM_ID},
    {"packet-total-length", TRACERD_CTF_ROLE_PACKET_TOTAL_LENGTH},
    {"packet-content-length", TRACERD_CTF_ROLE_PACKET_CONTENT_LENGTH},
    {"default-clock-timestamp", TRACERD_CTF_ROLE_CLOCK_TIMESTAMP},
    {"packet-end-default-clock-timestamp", TRACERD_CTF_ROLE_PACKET_END_TIMESTAMP},
    {"discarded-event-record-counter-snapshot", TRACERD_CTF_ROLE_DISCARDED_COUNTER},
    {"packet-sequence-number", TRACERD_CTF_ROLE_PACKET_SEQ_NUM},
    {"event-record-class-id", TRACERD_CTF_ROLE_EVENT_CLASS_ID},
};

static tracerd_status_t roles(struct j2 *J, const json_t *o, const char *obj, uint32_t *out)
{
    const json_t *v = json_object_get(o, "roles");
    *out = 0;
    if (v == NULL)
        return TRACERD_OK;
    if (!json_is_array(v))
        return tracerd__ctf2_want(J, obj, "roles", v, "an array of role names");
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *r = json_array_get(v, i);
        if (!tracerd__ctf2_is_str(r))
            return tracerd__ctf2_want(J, obj, "roles", r, "an array of role names");
        size_t k = 0;
        while (k < sizeof role_names / sizeof role_names[0] &&
               strcmp(role_names[k].name, json_string_value(r)) != 0)
            k++;
        if (k == sizeof role_names / sizeof role_names[0])
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s: unknown role '%s'", obj,
                                     json_string_value(r));
        *out |= role_names[k].bit;
    }
    return TRACERD_OK;
}

/* Mappings (or bit map flags): name -> range set, flattened into one
 * tracerd_ctf_mapping_t per range (the label repeats). */
static tracerd_status_t mappings(struct j2 *J, const json_t *v, const char *obj, const char *key,
                                 tracerd_ctf_type_t *p)
{
    if (!json_is_object(v))
        return tracerd__ctf2_want(J, obj, key, v, "an object of range sets");
    uint32_t total = 0;
    const char *name;
    const json_t *rs;
    json_object_foreach((json_t *)(uintptr_t)v, name, rs)
    {
        if (!json_is_array(rs))
            return tracerd__ctf2_want(J, obj, key, rs, "an object of range sets");
        total += (uint32_t)json_array_size(rs);
        if (total > J->m->cfg.max_fields)
            return tracerd__ctf2_err(J, TRACERD_E_LIMIT,
                                     "%s property '%s': more than max_fields ranges", obj, key);
    }
    tracerd_ctf_mapping_t *arr = tracerd__ctf_arena_alloc(J->ar, sizeof *arr * (total + 1));
    if (arr == NULL)
        return tracerd__ctf2_nomem(J);
    uint32_t i = 0;
    json_object_foreach((json_t *)(uintptr_t)v, name, rs)
    {
        const struct ctf_rset *set;
        tracerd_status_t st = tracerd__ctf2_range_set(J, rs, obj, key, &set);
        if (st != TRACERD_OK)
            return st;
        const char *label = tracerd__ctf2_dup_str(J, name);
        if (label == NULL)
            return tracerd__ctf2_nomem(J);
        /* as the integer's values (bit map flags: raw bit indexes, checked by
         * the caller; a bound above INT64_MAX reads as negative there) */
        for (uint32_t k = 0; k < set->n; k++) {
            int64_t lo = set->lo[k], hi = set->hi[k];
            if (p->kind == TRACERD_CTF_TYPE_BIT_MAP ||
                tracerd__ctf_rset_range(set, k, p->is_signed, &lo, &hi))
                arr[i++] = (tracerd_ctf_mapping_t){label, lo, hi};
        }
    }
    p->mappings = arr;
    p->nmappings = i;
    return TRACERD_OK;
}

/* The length of a string, BLOB or array class: its `length-field-location`
 * (dynamic) or its static `length` (bounded by max_array_length). */
static tracerd_status_t length_prop(struct j2 *J, const json_t *o, const char *obj, bool dyn,
                                    struct ctf_type *ty)
{
    if (dyn)
        return location(J, json_object_get(o, "length-field-location"), obj,
                        "length-field-location", ty);
    int64_t len = 0;
    tracerd_status_t st =
        tracerd__ctf2_req_int(J, o, obj, "length", 0, (int64_t)J->m->cfg.max_array_length, &len);
    ty->pub.length = (uint64_t)len;
    return st;
}

static tracerd_status_t field_class(struct j2 *J, const json_t *v, const char *obj,
                                    const tracerd_ctf_type_t **out);

/* A string property that takes one of two values: *out tells whether it is
 * `yes` (else `no`). */
static tracerd_status_t either(struct j2 *J, const char *obj, const char *key, const char *v,
                               const char *yes, const char *no, bool *out)
{
    if (!strcmp(v, yes) || !strcmp(v, no)) {
        *out = !strcmp(v, yes);
        return TRACERD_OK;
    }
    return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s property '%s' must be \"%s\" or \"%s\"",
                             obj, key, yes, no);
}

/* byte-order, bit-order, alignment, length of every fixed-length class. */
static tracerd_status_t fixed_length(struct j2 *J, const json_t *o, const char *obj,
                                     struct ctf_type *ty, int64_t max)
{
    int64_t len = 0, align = 1;
    tracerd_status_t st = tracerd__ctf2_req_int(J, o, obj, "length", 1, INT64_MAX, &len);
    if (st != TRACERD_OK)
        return st;
    if (len > max)
        return tracerd__ctf2_err(
            J, TRACERD_E_UNSUPPORTED,
            "%s of %lld bits: fixed-length fields above %lld bits are not supported", obj,
            (long long)len, (long long)max);
    if ((st = tracerd__ctf2_opt_int(J, o, obj, "alignment", 1, 1 << 16, &align, NULL)) !=
        TRACERD_OK)
        return st;
    if (!pow2(align))
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "%s property 'alignment' %lld is not a power of two", obj,
                                 (long long)align);
    const char *bo = NULL, *bit = NULL;
    if ((st = tracerd__ctf2_req_str(J, o, obj, "byte-order", &bo)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, obj, "bit-order", &bit)) != TRACERD_OK)
        return st;
    bool big = false, ftl; /* ftl: first-to-last */
    if ((st = either(J, obj, "byte-order", bo, "big-endian", "little-endian", &big)) != TRACERD_OK)
        return st;
    ftl = !big;
    if (bit != NULL && (st = either(J, obj, "bit-order", bit, "first-to-last", "last-to-first",
                                    &ftl)) != TRACERD_OK)
        return st;
    ty->pub.size_bits = (uint32_t)len;
    ty->pub.align_bits = (uint32_t)align;
    ty->pub.byte_order = big ? TRACERD_BYTE_ORDER_BIG : TRACERD_BYTE_ORDER_LITTLE;
    ty->pub.bit_order_reversed = ftl == big;
    return TRACERD_OK;
}

static tracerd_status_t display_base(struct j2 *J, const json_t *o, const char *obj,
                                     struct ctf_type *ty)
{
    int64_t b = 10;
    tracerd_status_t st =
        tracerd__ctf2_opt_int(J, o, obj, "preferred-display-base", 2, 16, &b, NULL);
    if (st != TRACERD_OK)
        return st;
    if (b != 2 && b != 8 && b != 10 && b != 16)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "%s property 'preferred-display-base' must be 2, 8, 10 or 16",
                                 obj);
    ty->pub.base = (unsigned)b;
    return TRACERD_OK;
}

static tracerd_status_t encoding(struct j2 *J, const json_t *o, const char *obj,
                                 tracerd_ctf_encoding_t *out)
{
    const char *e = NULL;
    tracerd_status_t st = tracerd__ctf2_opt_str(J, o, obj, "encoding", &e);
    if (st != TRACERD_OK)
        return st;
    static const struct {
        const char *n;
        tracerd_ctf_encoding_t e;
    } encs[] = {{"utf-8", TRACERD_CTF_ENCODING_UTF8},
                {"utf-16be", TRACERD_CTF_ENCODING_UTF16BE},
                {"utf-16le", TRACERD_CTF_ENCODING_UTF16LE},
                {"utf-32be", TRACERD_CTF_ENCODING_UTF32BE},
                {"utf-32le", TRACERD_CTF_ENCODING_UTF32LE}};
    *out = TRACERD_CTF_ENCODING_UTF8;
    if (e == NULL)
        return TRACERD_OK;
    for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++)
        if (!strcmp(e, encs[i].n)) {
            *out = encs[i].e;
            return TRACERD_OK;
        }
    return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s property 'encoding': unknown encoding '%s'",
                             obj, e);
}

static tracerd_status_t min_align(struct j2 *J, const json_t *o, const char *obj, uint32_t *out)
{
    int64_t a = 1;
    tracerd_status_t st =
        tracerd__ctf2_opt_int(J, o, obj, "minimum-alignment", 1, 1 << 16, &a, NULL);
    if (st != TRACERD_OK)
        return st;
    if (!pow2(a))
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "%s property 'minimum-alignment' %lld is not a power of two", obj,
                                 (long long)a);
    *out = (uint32_t)a;
    return TRACERD_OK;
}

/* An integer field class's display base and roles (unsigned integers
 * only). */
static tracerd_status_t int_props(struct j2 *J, const json_t *o, const char *obj,
                                  struct ctf_type *ty)
{
    tracerd_status_t st;
    if ((st = display_base(J, o, obj, ty)) != TRACERD_OK ||
        (st = roles(J, o, obj, &ty->pub.roles)) != TRACERD_OK)
        return st;
    if (ty->pub.roles && ty->pub.is_signed)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s: only unsigned integers have roles",
                                 obj);
    return TRACERD_OK;
}

/* The 8-bit text element of a static- or dynamic-length string. */
static const tracerd_ctf_type_t *text_element(struct j2 *J, tracerd_ctf_encoding_t enc)
{
    struct ctf_type *el = new_type(J, TRACERD_CTF_TYPE_INT);
    if (el == NULL)
        return NULL;
    el->pub.size_bits = 8;
    el->pub.encoding = enc;
    return &el->pub;
}

static tracerd_status_t fc_object(struct j2 *J, const json_t *o, const char *type,
                                  const tracerd_ctf_type_t **out)
{
    char obj[96];
    tracerd__format(obj, sizeof obj, "field class '%s'", type);
    tracerd_status_t st = tracerd__ctf2_no_extensions(J, o, obj);
    if (st != TRACERD_OK)
        return st;
    const char *at = NULL;
    if ((st = tracerd__ctf2_attrs(J, o, obj, &at)) != TRACERD_OK)
        return st;
    struct ctf_type *ty = NULL;
    bool fl_int = !strcmp(type, "fixed-length-unsigned-integer") ||
                  !strcmp(type, "fixed-length-signed-integer");
    bool vl_int = !strcmp(type, "variable-length-unsigned-integer") ||
                  !strcmp(type, "variable-length-signed-integer");
    if (fl_int || !strcmp(type, "fixed-length-bit-array") ||
        !strcmp(type, "fixed-length-bit-map") || !strcmp(type, "fixed-length-boolean") ||
        !strcmp(type, "fixed-length-floating-point-number")) {
        static const char *const k_int[] = {
            "length",   "byte-order", "bit-order", "alignment", "preferred-display-base",
            "mappings", "roles",      NULL};
        static const char *const k_map[] = {"length",    "byte-order", "bit-order",
                                            "alignment", "flags",      NULL};
        static const char *const k_bits[] = {"length", "byte-order", "bit-order", "alignment",
                                             NULL};
        bool is_map = !strcmp(type, "fixed-length-bit-map");
        bool is_float = !strcmp(type, "fixed-length-floating-point-number");
        const char *const *known = fl_int ? k_int : is_map ? k_map : k_bits;
        tracerd_ctf_type_kind_t kind = fl_int || !strcmp(type, "fixed-length-bit-array")
                                           ? TRACERD_CTF_TYPE_INT
                                       : is_map   ? TRACERD_CTF_TYPE_BIT_MAP
                                       : is_float ? TRACERD_CTF_TYPE_FLOAT
                                                  : TRACERD_CTF_TYPE_BOOL;
        if ((st = begin_type(J, o, obj, known, kind, &ty)) != TRACERD_OK)
            return st;
        if ((st = fixed_length(J, o, obj, ty, is_float ? CTF_FLOAT_MAX_BITS : 64)) != TRACERD_OK)
            return st;
        if (is_float) {
            /* IEEE 754 binary16/32/64, or binary{K}, K a multiple of 32 from 128 */
            uint32_t k = ty->pub.size_bits;
            if (k != 16 && k != 32 && k != 64 && (k < 128 || k % 32 != 0))
                return tracerd__ctf2_err(
                    J, TRACERD_E_METADATA,
                    "%s of %u bits: an IEEE 754 binary interchange format has 16, 32, 64 "
                    "or a multiple of 32 from 128 bits",
                    obj, k);
            ty->pub.exp_dig = tracerd__ctf_float_exp_bits(k);
            ty->pub.mant_dig = k - ty->pub.exp_dig;
        }
        if (is_map) {
            const json_t *f = json_object_get(o, "flags");
            if (f == NULL || !json_is_object(f) || json_object_size(f) == 0)
                return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                         "%s needs a non-empty 'flags' object", obj);
            if ((st = mappings(J, f, obj, "flags", &ty->pub)) != TRACERD_OK)
                return st;
            for (uint32_t i = 0; i < ty->pub.nmappings; i++)
                if (ty->pub.mappings[i].lo < 0 ||
                    ty->pub.mappings[i].hi >= (int64_t)ty->pub.size_bits)
                    return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                             "%s: flag '%s' names a bit outside 0..%u", obj,
                                             ty->pub.mappings[i].label, ty->pub.size_bits - 1);
        }
        if (fl_int) {
            ty->pub.is_signed = !strcmp(type, "fixed-length-signed-integer");
            if ((st = int_props(J, o, obj, ty)) != TRACERD_OK)
                return st;
        }
    } else if (vl_int) {
        static const char *const k_vl[] = {"preferred-display-base", "mappings", "roles", NULL};
        if ((st = begin_type(J, o, obj, k_vl, TRACERD_CTF_TYPE_VARINT, &ty)) != TRACERD_OK)
            return st;
        ty->pub.is_signed = !strcmp(type, "variable-length-signed-integer");
        ty->pub.size_bits = 64;
        if ((st = int_props(J, o, obj, ty)) != TRACERD_OK)
            return st;
    } else if (!strcmp(type, "null-terminated-string")) {
        static const char *const k[] = {"encoding", NULL};
        if ((st = begin_type(J, o, obj, k, TRACERD_CTF_TYPE_STRING, &ty)) != TRACERD_OK)
            return st;
        if ((st = encoding(J, o, obj, &ty->pub.encoding)) != TRACERD_OK)
            return st;
    } else if (!strcmp(type, "static-length-string") || !strcmp(type, "dynamic-length-string")) {
        static const char *const ks[] = {"length", "encoding", NULL};
        static const char *const kd[] = {"length-field-location", "encoding", NULL};
        bool dyn = type[0] == 'd';
        tracerd_ctf_encoding_t enc;
        if ((st = begin_type(J, o, obj, dyn ? kd : ks,
                             dyn ? TRACERD_CTF_TYPE_SEQUENCE : TRACERD_CTF_TYPE_ARRAY, &ty)) !=
            TRACERD_OK)
            return st;
        if ((st = encoding(J, o, obj, &enc)) != TRACERD_OK)
            return st;
        if ((ty->pub.element = text_element(J, enc)) == NULL)
            return tracerd__ctf2_nomem(J);
        if ((st = length_prop(J, o, obj, dyn, ty)) != TRACERD_OK)
            return st;
    } else if (!strcmp(type, "static-length-blob") || !strcmp(type, "dynamic-length-blob")) {
        static const char *const ks[] = {"length", "media-type", "roles", NULL};
        static const char *const kd[] = {"length-field-location", "media-type", NULL};
        bool dyn = type[0] == 'd';
        if ((st = begin_type(J, o, obj, dyn ? kd : ks, TRACERD_CTF_TYPE_BLOB, &ty)) != TRACERD_OK)
            return st;
        if ((st = tracerd__ctf2_opt_str(J, o, obj, "media-type", &ty->pub.media_type)) !=
            TRACERD_OK)
            return st;
        if (ty->pub.media_type == NULL)
            ty->pub.media_type = "application/octet-stream";
        st = length_prop(J, o, obj, dyn, ty);
        if (st == TRACERD_OK && !dyn)
            st = roles(J, o, obj, &ty->pub.roles);
        if (st != TRACERD_OK)
            return st;
        if (ty->pub.roles & ~(uint32_t)TRACERD_CTF_ROLE_METADATA_UUID)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "%s: a BLOB may only have the metadata-stream-uuid role", obj);
        if (ty->pub.roles && ty->pub.length != 16)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "%s: the metadata-stream-uuid role needs a 16-byte BLOB", obj);
    } else if (!strcmp(type, "structure")) {
        static const char *const k[] = {"member-classes", "minimum-alignment", NULL};
        if ((st = begin_type(J, o, obj, k, TRACERD_CTF_TYPE_STRUCT, &ty)) != TRACERD_OK)
            return st;
        uint32_t align = 1;
        if ((st = min_align(J, o, obj, &align)) != TRACERD_OK)
            return st;
        const json_t *mc = json_object_get(o, "member-classes");
        if (mc != NULL && !json_is_array(mc))
            return tracerd__ctf2_want(J, obj, "member-classes", mc, "an array");
        size_t n = mc ? json_array_size(mc) : 0;
        if (n > J->m->cfg.max_fields)
            return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "%s: more than max_fields members", obj);
        tracerd_ctf_member_t *mem = tracerd__ctf_arena_alloc(J->ar, sizeof *mem * (n + 1));
        const char **ma = tracerd__ctf_arena_alloc(J->ar, sizeof *ma * (n + 1));
        if (mem == NULL || ma == NULL)
            return tracerd__ctf2_nomem(J);
        ty->member_attrs = ma;
        for (size_t i = 0; i < n; i++) {
            const json_t *m = json_array_get(mc, i);
            char mobj[160];
            const char *name = NULL;
            if (!json_is_object(m))
                return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                         "%s: member class %zu must be an object", obj, i);
            tracerd__format(mobj, sizeof mobj, "member class %zu of a structure", i);
            static const char *const km[] = {"name", "field-class", NULL};
            if ((st = tracerd__ctf2_req_str(J, m, mobj, "name", &name)) != TRACERD_OK ||
                (st = tracerd__ctf2_only(J, m, mobj, km)) != TRACERD_OK ||
                (st = tracerd__ctf2_no_extensions(J, m, mobj)) != TRACERD_OK ||
                (st = tracerd__ctf2_attrs(J, m, mobj, &ma[i])) != TRACERD_OK)
                return st;
            for (size_t j = 0; j < i; j++)
                if (!strcmp(mem[j].name, name))
                    return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s: duplicate member '%s'",
                                             obj, name);
            tracerd__format(mobj, sizeof mobj, "member '%s'", name);
            const json_t *f = json_object_get(m, "field-class");
            if (f == NULL)
                return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                         "%s lacks the required property 'field-class'", mobj);
            mem[i].name = name;
            mem[i].display = name;
            if ((st = field_class(J, f, mobj, &mem[i].type)) != TRACERD_OK)
                return st;
            if (mem[i].type->align_bits > align)
                align = mem[i].type->align_bits;
        }
        ty->pub.members = mem;
        ty->pub.nmembers = (uint32_t)n;
        ty->pub.align_bits = align;
    } else if (!strcmp(type, "static-length-array") || !strcmp(type, "dynamic-length-array")) {
        static const char *const ks[] = {"element-field-class", "length", "minimum-alignment",
                                         NULL};
        static const char *const kd[] = {"element-field-class", "length-field-location",
                                         "minimum-alignment", NULL};
        bool dyn = type[0] == 'd';
        if ((st = begin_type(J, o, obj, dyn ? kd : ks,
                             dyn ? TRACERD_CTF_TYPE_SEQUENCE : TRACERD_CTF_TYPE_ARRAY, &ty)) !=
            TRACERD_OK)
            return st;
        uint32_t align = 1;
        if ((st = min_align(J, o, obj, &align)) != TRACERD_OK ||
            (st = tracerd__ctf2_required(J, o, obj, "element-field-class")) != TRACERD_OK ||
            (st = field_class(J, json_object_get(o, "element-field-class"), obj,
                              &ty->pub.element)) != TRACERD_OK ||
            (st = length_prop(J, o, obj, dyn, ty)) != TRACERD_OK)
            return st;
        ty->pub.align_bits =
            ty->pub.element->align_bits > align ? ty->pub.element->align_bits : align;
    } else if (!strcmp(type, "optional")) {
        static const char *const k[] = {"field-class", "selector-field-location",
                                        "selector-field-ranges", NULL};
        if ((st = begin_type(J, o, obj, k, TRACERD_CTF_TYPE_OPTIONAL, &ty)) != TRACERD_OK)
            return st;
        ty->pub.align_bits = 1;
        const json_t *f = json_object_get(o, "field-class");
        if (f == NULL)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "%s lacks the required property 'field-class'", obj);
        if ((st = field_class(J, f, obj, &ty->pub.element)) != TRACERD_OK ||
            (st = location(J, json_object_get(o, "selector-field-location"), obj,
                           "selector-field-location", ty)) != TRACERD_OK)
            return st;
        const json_t *r = json_object_get(o, "selector-field-ranges");
        if (r != NULL && (st = tracerd__ctf2_range_set(J, r, obj, "selector-field-ranges",
                                                       &ty->sel)) != TRACERD_OK)
            return st;
    } else if (!strcmp(type, "variant")) {
        static const char *const k[] = {"selector-field-location", "options", NULL};
        if ((st = begin_type(J, o, obj, k, TRACERD_CTF_TYPE_VARIANT, &ty)) != TRACERD_OK)
            return st;
        ty->pub.align_bits = 1;
        if ((st = location(J, json_object_get(o, "selector-field-location"), obj,
                           "selector-field-location", ty)) != TRACERD_OK)
            return st;
        const json_t *opts = json_object_get(o, "options");
        if (!json_is_array(opts) || json_array_size(opts) == 0)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s needs a non-empty 'options' array",
                                     obj);
        size_t n = json_array_size(opts);
        if (n > J->m->cfg.max_fields)
            return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "%s: more than max_fields options", obj);
        tracerd_ctf_member_t *mem = tracerd__ctf_arena_alloc(J->ar, sizeof *mem * (n + 1));
        struct ctf_rset *sets = tracerd__ctf_arena_alloc(J->ar, sizeof *sets * n);
        const char **ma = tracerd__ctf_arena_alloc(J->ar, sizeof *ma * (n + 1));
        if (mem == NULL || sets == NULL || ma == NULL)
            return tracerd__ctf2_nomem(J);
        ty->member_attrs = ma;
        for (size_t i = 0; i < n; i++) {
            const json_t *m = json_array_get(opts, i);
            char mobj[160];
            tracerd__format(mobj, sizeof mobj, "option %zu of a variant", i);
            if (!json_is_object(m))
                return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s must be an object", mobj);
            static const char *const km[] = {"name", "field-class", "selector-field-ranges", NULL};
            const char *name = NULL;
            const struct ctf_rset *rs = NULL;
            if ((st = tracerd__ctf2_only(J, m, mobj, km)) != TRACERD_OK ||
                (st = tracerd__ctf2_no_extensions(J, m, mobj)) != TRACERD_OK ||
                (st = tracerd__ctf2_attrs(J, m, mobj, &ma[i])) != TRACERD_OK ||
                (st = tracerd__ctf2_opt_str(J, m, mobj, "name", &name)) != TRACERD_OK)
                return st;
            for (size_t k2 = 0; name && k2 < i; k2++)
                if (mem[k2].name[0] && !strcmp(mem[k2].name, name))
                    return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s: duplicate option '%s'",
                                             obj, name);
            const json_t *f = json_object_get(m, "field-class");
            const json_t *r = json_object_get(m, "selector-field-ranges");
            if (f == NULL || r == NULL)
                return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                         "%s lacks the required property '%s'", mobj,
                                         f == NULL ? "field-class" : "selector-field-ranges");
            if ((st = tracerd__ctf2_range_set(J, r, mobj, "selector-field-ranges", &rs)) !=
                    TRACERD_OK ||
                (st = field_class(J, f, mobj, &mem[i].type)) != TRACERD_OK)
                return st;
            mem[i].name = name ? name : "";
            mem[i].display = mem[i].name;
            sets[i] = *rs;
        }
        ty->pub.members = mem;
        ty->pub.nmembers = (uint32_t)n;
        ty->opts = sets;
    } else {
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "unknown field class type '%s'", type);
    }
    const json_t *mp = json_object_get(o, "mappings");
    if (mp != NULL) {
        if ((st = mappings(J, mp, obj, "mappings", &ty->pub)) != TRACERD_OK)
            return st;
        if (ty->pub.kind == TRACERD_CTF_TYPE_INT) {
            /* a fixed-length integer with mappings is the CTF 1.8 enum */
            struct ctf_type *cont = new_type(J, TRACERD_CTF_TYPE_INT);
            if (cont == NULL)
                return tracerd__ctf2_nomem(J);
            *cont = *ty;
            cont->pub.mappings = NULL;
            cont->pub.nmappings = 0;
            ty->pub.kind = TRACERD_CTF_TYPE_ENUM;
            ty->pub.element = &cont->pub;
        }
    }
    ty->pub.attributes = at;
    *out = &ty->pub;
    return TRACERD_OK;
}

/* A field class: an object, or the name of an earlier alias. */
static tracerd_status_t field_class(struct j2 *J, const json_t *v, const char *obj,
                                    const tracerd_ctf_type_t **out)
{
    if (tracerd__ctf2_is_str(v)) {
        const char *n = json_string_value(v);
        for (uint32_t i = J->naliases; i-- > 0;)
            if (!strcmp(J->alias_names[i], n)) {
                *out = J->alias_types[i];
                return TRACERD_OK;
            }
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s: unknown field class alias '%s'", obj,
                                 n);
    }
    if (!json_is_object(v))
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "%s: a field class must be an object or an alias name", obj);
    const json_t *t = json_object_get(v, "type");
    if (!tracerd__ctf2_is_str(t))
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "%s: field class without a 'type' string",
                                 obj);
    if (J->depth >= J->m->cfg.max_depth)
        return tracerd__ctf2_err(J, TRACERD_E_LIMIT,
                                 "%s: field classes nested deeper than max_depth (%u)", obj,
                                 J->m->cfg.max_depth);
    J->depth++;
    tracerd_status_t st = fc_object(J, v, json_string_value(t), out);
    J->depth--;
    return st;
}

/* A scope's field class: must be a structure. */
static tracerd_status_t scope_fc(struct j2 *J, const json_t *o, const char *key,
                                 const tracerd_ctf_type_t **out)
{
    const json_t *v = json_object_get(o, key);
    *out = NULL;
    if (v == NULL)
        return TRACERD_OK;
    char obj[96];
    tracerd__format(obj, sizeof obj, "'%s'", key);
    tracerd_status_t st = field_class(J, v, obj, out);
    if (st == TRACERD_OK && (*out)->kind != TRACERD_CTF_TYPE_STRUCT)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "'%s' must be a structure, got a %s", key,
                                 tracerd_ctf_type_kind_name((*out)->kind));
    return st;
}

/* ==== fragments ============================================================= */

static tracerd_status_t preamble(struct j2 *J, const json_t *o)
{
    static const char *const known[] = {"version", "uuid", NULL};
    tracerd_status_t st = tracerd__ctf2_only(J, o, "the preamble", known);
    if (st != TRACERD_OK)
        return st;
    if ((st = tracerd__ctf2_no_extensions(J, o, "the preamble")) != TRACERD_OK)
        return st;
    int64_t ver;
    if ((st = tracerd__ctf2_req_int(J, o, "the preamble", "version", INT64_MIN, INT64_MAX, &ver)) !=
        TRACERD_OK)
        return st;
    if (ver != 2)
        return tracerd__error_set(
            &J->m->err, TRACERD_E_VERSION, J->frag_off,
            "CTF 2 metadata fragment 0 (byte %llu), preamble: CTF version %lld, "
            "expected 2",
            (unsigned long long)J->frag_off, (long long)ver);
    const json_t *u = json_object_get(o, "uuid");
    if (u != NULL) {
        if (!json_is_array(u) || json_array_size(u) != 16)
            return tracerd__ctf2_err(
                J, TRACERD_E_METADATA,
                "the preamble property 'uuid' must be an array of 16 integers");
        for (size_t i = 0; i < 16; i++) {
            struct jint b;
            if (tracerd__ctf2_get_int(J, json_array_get(u, i), &b) != JINT_OK || b.neg || b.v > 255)
                return tracerd__ctf2_err(
                    J, TRACERD_E_METADATA,
                    "the preamble property 'uuid': item %zu is not an integer 0..255", i);
            J->t->info.uuid[i] = (uint8_t)b.v;
        }
        J->t->info.has_uuid = true;
    }
    return tracerd__ctf2_attrs(J, o, "the preamble", &J->t->info.preamble_attributes);
}

static tracerd_status_t alias(struct j2 *J, const json_t *o)
{
    static const char *const k[] = {"name", "field-class", NULL};
    const char *name = NULL;
    const tracerd_ctf_type_t *ty;
    tracerd_status_t st;
    if ((st = tracerd__ctf2_only(J, o, "the alias", k)) != TRACERD_OK ||
        (st = tracerd__ctf2_no_extensions(J, o, "the alias")) != TRACERD_OK ||
        (st = tracerd__ctf2_req_str(J, o, "the alias", "name", &name)) != TRACERD_OK)
        return st;
    for (uint32_t i = 0; i < J->naliases; i++)
        if (!strcmp(J->alias_names[i], name))
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "duplicate field class alias '%s'",
                                     name);
    const json_t *f = json_object_get(o, "field-class");
    if (f == NULL)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "alias '%s' lacks the required property 'field-class'", name);
    char obj[160];
    tracerd__format(obj, sizeof obj, "alias '%s'", name);
    if ((st = field_class(J, f, obj, &ty)) != TRACERD_OK)
        return st;
    uint32_t cap = J->alias_cap;
    if (!tracerd__ctf_arena_grow(J->ar, (void **)&J->alias_names, J->naliases, &cap,
                                 sizeof *J->alias_names) ||
        !tracerd__ctf_arena_grow(J->ar, (void **)&J->alias_types, J->naliases, &J->alias_cap,
                                 sizeof *J->alias_types))
        return tracerd__ctf2_nomem(J);
    J->alias_names[J->naliases] = name;
    J->alias_types[J->naliases++] = ty;
    return TRACERD_OK;
}

static tracerd_status_t trace_class(struct j2 *J, const json_t *o)
{
    static const char *const k[] = {
        "namespace", "name", "uid", "environment", "packet-header-field-class", NULL};
    tracerd_ctf_trace_info_t *in = &J->t->info;
    tracerd_status_t st;
    if (J->nstreams > 0)
        return tracerd__ctf2_err(
            J, TRACERD_E_METADATA,
            "the trace class comes after a data stream class (it must precede them)");
    if (J->have_trace_class)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "a second trace class");
    J->have_trace_class = true;
    if ((st = tracerd__ctf2_only(J, o, "the trace class", k)) != TRACERD_OK ||
        (st = tracerd__ctf2_no_extensions(J, o, "the trace class")) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the trace class", "namespace", &in->ns)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the trace class", "name", &in->name)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the trace class", "uid", &in->uid)) != TRACERD_OK ||
        (st = tracerd__ctf2_attrs(J, o, "the trace class", &in->attributes)) != TRACERD_OK ||
        (st = scope_fc(J, o, "packet-header-field-class", &in->packet_header)) != TRACERD_OK)
        return st;
    const json_t *env = json_object_get(o, "environment");
    if (env == NULL)
        return TRACERD_OK;
    if (!json_is_object(env))
        return tracerd__ctf2_want(J, "the trace class", "environment", env, "an object");
    size_t n = json_object_size(env);
    tracerd_ctf_env_t *e = tracerd__ctf_arena_alloc(J->ar, sizeof *e * (n + 1));
    if (e == NULL)
        return tracerd__ctf2_nomem(J);
    const char *key;
    const json_t *v;
    uint32_t i = 0;
    json_object_foreach((json_t *)(uintptr_t)env, key, v)
    {
        if ((e[i].key = tracerd__ctf2_dup_str(J, key)) == NULL)
            return tracerd__ctf2_nomem(J);
        if (tracerd__ctf2_is_str(v)) {
            if ((e[i].str = tracerd__ctf2_dup_str(J, json_string_value(v))) == NULL)
                return tracerd__ctf2_nomem(J);
        } else if (json_is_integer(v)) {
            e[i].value = (int64_t)json_integer_value(v);
        } else if (tracerd__ctf2_wide_of(J, v) != NULL) {
            char b[64];
            return tracerd__ctf2_err(
                J, TRACERD_E_UNSUPPORTED,
                "the trace class environment entry '%s' is %s: environment integers are "
                "signed 64-bit",
                key, tracerd__ctf2_wide_text(J, v, b, sizeof b));
        } else {
            return tracerd__ctf2_err(
                J, TRACERD_E_METADATA,
                "the trace class environment entry '%s' must be an integer or a string", key);
        }
        i++;
    }
    in->env = e;
    in->nenv = i;
    return TRACERD_OK;
}

static tracerd_status_t clock_class(struct j2 *J, const json_t *o)
{
    static const char *const k[] = {
        "id",        "namespace", "name",        "uid", "frequency", "origin", "offset-from-origin",
        "precision", "accuracy",  "description", NULL};
    tracerd_ctf_clock_t c;
    memset(&c, 0, sizeof c);
    tracerd_status_t st;
    uint64_t f = 0, prec = 0, acc = 0;
    if ((st = tracerd__ctf2_only(J, o, "the clock class", k)) != TRACERD_OK ||
        (st = tracerd__ctf2_no_extensions(J, o, "the clock class")) != TRACERD_OK ||
        (st = tracerd__ctf2_req_str(J, o, "the clock class", "id", &c.id)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the clock class", "namespace", &c.ns)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the clock class", "name", &c.name)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the clock class", "uid", &c.uid)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the clock class", "description", &c.description)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_req_u64(J, o, "the clock class", "frequency", 1, UINT64_MAX, &f)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_opt_u64(J, o, "the clock class", "precision", 0, UINT64_MAX, &prec,
                                    &c.has_precision)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_u64(J, o, "the clock class", "accuracy", 0, UINT64_MAX, &acc,
                                    &c.has_accuracy)) != TRACERD_OK ||
        (st = tracerd__ctf2_attrs(J, o, "the clock class", &c.attributes)) != TRACERD_OK)
        return st;
    for (uint32_t i = 0; i < J->nclocks; i++)
        if (!strcmp(J->clocks[i].id, c.id))
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "duplicate clock class id '%s'", c.id);
    c.freq = f;
    c.precision = prec;
    c.accuracy = acc;
    if (c.name == NULL)
        c.name = c.id;
    if (c.description == NULL)
        c.description = "";
    const json_t *og = json_object_get(o, "origin");
    if (tracerd__ctf2_is_str(og) && !strcmp(json_string_value(og), "unix-epoch")) {
        c.absolute = true;
    } else if (json_is_object(og)) {
        if ((st = tracerd__ctf2_opt_str(J, og, "the clock origin", "namespace", &c.origin_ns)) !=
                TRACERD_OK ||
            (st = tracerd__ctf2_req_str(J, og, "the clock origin", "name", &c.origin_name)) !=
                TRACERD_OK ||
            (st = tracerd__ctf2_req_str(J, og, "the clock origin", "uid", &c.origin_uid)) !=
                TRACERD_OK)
            return st;
    } else if (og != NULL) {
        return tracerd__ctf2_err(
            J, TRACERD_E_METADATA,
            "the clock class property 'origin' must be \"unix-epoch\" or an object");
    }
    const json_t *off = json_object_get(o, "offset-from-origin");
    if (off != NULL) {
        uint64_t cyc = 0;
        if (!json_is_object(off))
            return tracerd__ctf2_want(J, "the clock class", "offset-from-origin", off, "an object");
        if ((st = tracerd__ctf2_opt_int(J, off, "the clock offset", "seconds", INT64_MIN, INT64_MAX,
                                        &c.offset_s, NULL)) != TRACERD_OK ||
            (st = tracerd__ctf2_opt_u64(J, off, "the clock offset", "cycles", 0, UINT64_MAX, &cyc,
                                        NULL)) != TRACERD_OK)
            return st;
        if (cyc >= c.freq)
            return tracerd__ctf2_err(
                J, TRACERD_E_METADATA,
                "the clock offset 'cycles' (%llu) must be below the frequency (%llu)",
                (unsigned long long)cyc, (unsigned long long)c.freq);
        if (cyc <= (uint64_t)INT64_MAX) {
            c.offset = (int64_t)cyc;
        } else { /* above INT64_MAX: one second more and cycles - frequency (> -2^63) */
            if (c.offset_s == INT64_MAX)
                return tracerd__ctf2_err(
                    J, TRACERD_E_UNSUPPORTED,
                    "the clock offset (%lld s + %llu cycles) is beyond 2^63 - 1 seconds",
                    (long long)c.offset_s, (unsigned long long)cyc);
            c.offset_s++;
            c.offset = -(int64_t)(c.freq - cyc);
        }
    }
    if (J->nclocks >= J->m->cfg.max_fields)
        return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "more than max_fields clock classes");
    if (!tracerd__ctf_arena_grow(J->ar, (void **)&J->clocks, J->nclocks, &J->clock_cap,
                                 sizeof *J->clocks))
        return tracerd__ctf2_nomem(J);
    J->clocks[J->nclocks++] = c;
    return TRACERD_OK;
}

static tracerd_status_t stream_class(struct j2 *J, const json_t *o)
{
    static const char *const k[] = {"id",
                                    "namespace",
                                    "name",
                                    "uid",
                                    "default-clock-class-id",
                                    "packet-context-field-class",
                                    "event-record-header-field-class",
                                    "event-record-common-context-field-class",
                                    NULL};
    tracerd_ctf_stream_class_t *sc = tracerd__ctf_arena_alloc(J->ar, sizeof *sc);
    if (sc == NULL)
        return tracerd__ctf2_nomem(J);
    J->have_trace_class = true; /* an implicit one when none came first */
    uint64_t id = 0;
    const char *clk = NULL;
    tracerd_status_t st;
    if ((st = tracerd__ctf2_only(J, o, "the data stream class", k)) != TRACERD_OK ||
        (st = tracerd__ctf2_no_extensions(J, o, "the data stream class")) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_u64(J, o, "the data stream class", "id", 0, UINT64_MAX, &id,
                                    NULL)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the data stream class", "namespace", &sc->ns)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the data stream class", "name", &sc->name)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the data stream class", "uid", &sc->uid)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the data stream class", "default-clock-class-id",
                                    &clk)) != TRACERD_OK ||
        (st = tracerd__ctf2_attrs(J, o, "the data stream class", &sc->attributes)) != TRACERD_OK)
        return st;
    sc->id = id;
    for (uint32_t i = 0; i < J->nstreams; i++)
        if (J->streams[i]->id == sc->id)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "duplicate data stream class id %lld",
                                     (long long)id);
    sc->default_clock = -1;
    if (clk != NULL) {
        for (uint32_t i = 0; i < J->nclocks && sc->default_clock < 0; i++)
            if (!strcmp(J->clocks[i].id, clk))
                sc->default_clock = (int)i;
        if (sc->default_clock < 0)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                     "default-clock-class-id '%s' names no earlier clock class",
                                     clk);
    }
    if ((st = scope_fc(J, o, "packet-context-field-class", &sc->packet_context)) != TRACERD_OK ||
        (st = scope_fc(J, o, "event-record-header-field-class", &sc->event_header)) != TRACERD_OK ||
        (st = scope_fc(J, o, "event-record-common-context-field-class", &sc->event_context)) !=
            TRACERD_OK)
        return st;
    if (J->nstreams >= J->m->cfg.max_fields)
        return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "more than max_fields data stream classes");
    if (!tracerd__ctf_arena_grow(J->ar, (void **)&J->streams, J->nstreams, &J->stream_cap,
                                 sizeof *J->streams))
        return tracerd__ctf2_nomem(J);
    J->streams[J->nstreams++] = sc;
    return TRACERD_OK;
}

/* LTTng and babeltrace write the log level and the EMF URI as attributes. */
static void lttng_attributes(tracerd_ctf_event_class_t *ec, const json_t *o, struct j2 *J)
{
    static const char *const levels[] = {
        "emergency",    "alert",      "critical",       "error",         "warning",
        "notice",       "info",       "debug:system",   "debug:program", "debug:process",
        "debug:module", "debug:unit", "debug:function", "debug:line",    "debug"};
    const json_t *a = json_object_get(o, "attributes");
    static const char *const ns[] = {"lttng.org,2009", "babeltrace.org,2020"};
    for (size_t i = 0; a != NULL && i < 2; i++) {
        const json_t *n = json_object_get(a, ns[i]);
        const json_t *ll = n ? json_object_get(n, "log-level") : NULL;
        for (size_t k = 0; tracerd__ctf2_is_str(ll) && !ec->has_loglevel && k < 15; k++)
            if (!strcmp(json_string_value(ll), levels[k])) {
                ec->loglevel = (int64_t)k;
                ec->has_loglevel = true;
            }
        const json_t *uri = n ? json_object_get(n, "emf-uri") : NULL;
        if (uri == NULL)
            uri = json_object_get(a, "emf-uri");
        if (tracerd__ctf2_is_str(uri) && ec->emf_uri == NULL)
            ec->emf_uri = tracerd__ctf2_dup_str(J, json_string_value(uri));
    }
}

static tracerd_status_t event_class(struct j2 *J, const json_t *o)
{
    static const char *const k[] = {
        "id",  "data-stream-class-id",         "namespace",           "name",
        "uid", "specific-context-field-class", "payload-field-class", NULL};
    tracerd_ctf_event_class_t *ec = tracerd__ctf_arena_alloc(J->ar, sizeof *ec);
    if (ec == NULL)
        return tracerd__ctf2_nomem(J);
    uint64_t id = 0, sid = 0;
    tracerd_status_t st;
    if ((st = tracerd__ctf2_only(J, o, "the event record class", k)) != TRACERD_OK ||
        (st = tracerd__ctf2_no_extensions(J, o, "the event record class")) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_u64(J, o, "the event record class", "id", 0, UINT64_MAX, &id,
                                    NULL)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_u64(J, o, "the event record class", "data-stream-class-id", 0,
                                    UINT64_MAX, &sid, NULL)) != TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the event record class", "namespace", &ec->ns)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the event record class", "name", &ec->name)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_opt_str(J, o, "the event record class", "uid", &ec->uid)) !=
            TRACERD_OK ||
        (st = tracerd__ctf2_attrs(J, o, "the event record class", &ec->attributes)) != TRACERD_OK)
        return st;
    ec->id = id;
    ec->stream_id = sid;
    if (ec->name == NULL)
        ec->name = "";
    uint32_t s = 0;
    while (s < J->nstreams && J->streams[s]->id != ec->stream_id)
        s++;
    if (s == J->nstreams)
        return tracerd__ctf2_err(
            J, TRACERD_E_METADATA,
            "event record class %llu names data stream class %llu, which is not "
            "declared before it",
            (unsigned long long)id, (unsigned long long)sid);
    for (uint32_t i = 0; i < J->nevents; i++)
        if (J->events[i]->stream_id == ec->stream_id && J->events[i]->id == ec->id)
            return tracerd__ctf2_err(
                J, TRACERD_E_METADATA,
                "event record classes '%s' and '%s' share id %lld in data stream class "
                "%lld",
                J->events[i]->name, ec->name, (long long)id, (long long)sid);
    lttng_attributes(ec, o, J);
    if ((st = scope_fc(J, o, "specific-context-field-class", &ec->context)) != TRACERD_OK ||
        (st = scope_fc(J, o, "payload-field-class", &ec->fields)) != TRACERD_OK)
        return st;
    if (J->nevents >= J->m->cfg.max_fields * 16u)
        return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "too many event record classes");
    uint32_t cap = J->event_cap;
    if (!tracerd__ctf_arena_grow(J->ar, (void **)&J->events, J->nevents, &cap, sizeof *J->events) ||
        !tracerd__ctf_arena_grow(J->ar, (void **)&J->event_frag, J->nevents, &J->event_cap,
                                 sizeof *J->event_frag))
        return tracerd__ctf2_nomem(J);
    J->event_frag[J->nevents] = J->frag;
    J->events[J->nevents++] = ec;
    (void)s;
    return TRACERD_OK;
}

static tracerd_status_t fragment(struct j2 *J, const json_t *o)
{
    const json_t *t = json_object_get(o, "type");
    if (!tracerd__ctf2_is_str(t))
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "a fragment needs a 'type' string");
    const char *type = json_string_value(t);
    J->what = type;
    if (J->frag == 0 && strcmp(type, "preamble") != 0)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA, "the first fragment must be the preamble");
    if (!strcmp(type, "preamble")) {
        if (J->have_preamble)
            return tracerd__ctf2_err(J, TRACERD_E_METADATA, "a second preamble");
        J->have_preamble = true;
        return preamble(J, o);
    }
    if (!strcmp(type, "field-class-alias"))
        return alias(J, o);
    if (!strcmp(type, "trace-class"))
        return trace_class(J, o);
    if (!strcmp(type, "clock-class"))
        return clock_class(J, o);
    if (!strcmp(type, "data-stream-class"))
        return stream_class(J, o);
    if (!strcmp(type, "event-record-class"))
        return event_class(J, o);
    J->what = NULL;
    return tracerd__ctf2_err(J, TRACERD_E_METADATA, "unknown fragment type '%s'", type);
}

/* ==== the model ============================================================= */

static tracerd_status_t build(struct j2 *J)
{
    tracerd_ctf_trace_info_t *in = &J->t->info;
    J->what = NULL;
    if (J->nstreams == 0)
        return tracerd__ctf2_err(J, TRACERD_E_METADATA,
                                 "the metadata declares no data stream class");
    in->clocks = J->clocks;
    in->nclocks = J->nclocks;
    if (in->clocks == NULL &&
        (in->clocks = tracerd__ctf_arena_alloc(J->ar, sizeof(tracerd_ctf_clock_t))) == NULL)
        return tracerd__ctf2_nomem(J);
    if (in->env == NULL && (in->env = tracerd__ctf_arena_alloc(J->ar, sizeof *in->env)) == NULL)
        return tracerd__ctf2_nomem(J);
    tracerd_ctf_stream_class_t **sc = J->streams;
    for (uint32_t a = 1; a < J->nstreams; a++) /* insertion sort by id */
        for (uint32_t b = a; b > 0 && sc[b - 1]->id > sc[b]->id; b--) {
            tracerd_ctf_stream_class_t *x = sc[b];
            sc[b] = sc[b - 1];
            sc[b - 1] = x;
        }
    in->streams = (const tracerd_ctf_stream_class_t *const *)sc;
    in->nstreams = J->nstreams;
    for (uint32_t s = 0; s < J->nstreams; s++) {
        uint32_t n = 0;
        for (uint32_t e = 0; e < J->nevents; e++)
            n += J->events[e]->stream_id == sc[s]->id;
        const tracerd_ctf_event_class_t **arr =
            tracerd__ctf_arena_alloc(J->ar, sizeof *arr * (n + 1));
        if (arr == NULL)
            return tracerd__ctf2_nomem(J);
        for (uint32_t e = 0; e < J->nevents; e++)
            if (J->events[e]->stream_id == sc[s]->id)
                arr[sc[s]->nevents++] = J->events[e];
        sc[s]->events = arr;
    }
    in->nevents = J->nevents;
    /* the byte order of the first fixed-length packet header field (the magic) */
    const tracerd_ctf_type_t *ph = in->packet_header;
    in->byte_order = ph && ph->nmembers > 0 && ph->members[0].type->size_bits > 0
                         ? ph->members[0].type->byte_order
                         : TRACERD_BYTE_ORDER_LITTLE;
    return TRACERD_OK;
}

tracerd_status_t tracerd__ctf_json_parse(tracerd_ctf_metadata_t *m, struct tracerd_ctf_trace *t)
{
    struct j2 J;
    memset(&J, 0, sizeof J);
    J.m = m;
    J.t = t;
    J.ar = &t->arena;
    t->info.major = 2;
    t->info.minor = 0;
    const char *s = m->text ? m->text : "";
    size_t n = m->len, i = 0;
    tracerd_status_t st = TRACERD_OK;
    while (st == TRACERD_OK && i < n) {
        size_t b = ++i; /* s[0] is RS (how finish chose CTF 2); pieces end at the next */
        while (i < n && s[i] != 0x1E)
            i++;
        size_t e = i;
        bool blank = true;
        for (size_t k = b; k < e && blank; k++)
            blank = s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r';
        if (blank)
            continue; /* runs of RS */
        J.frag_off = b - 1;
        J.what = NULL;
        json_error_t je;
        json_t *root = NULL;
        tracerd_status_t lst = tracerd__ctf2_load(&J, s + b, e - b, &root, &je);
        if (lst != TRACERD_OK)
            return lst;
        if (root == NULL) {
            m->line = (uint32_t)(je.line > 0 ? je.line : 0);
            m->col = (uint32_t)(je.column > 0 ? je.column : 0);
            return tracerd__error_set(&m->err, TRACERD_E_METADATA, J.frag_off,
                                      "CTF 2 metadata fragment %u (byte %llu), line %d, column %d: "
                                      "JSON: %s",
                                      J.frag, (unsigned long long)J.frag_off, je.line, je.column,
                                      je.text);
        }
        if (!json_is_object(root))
            st = tracerd__ctf2_err(&J, TRACERD_E_METADATA,
                                   "a fragment must be a JSON object, got %s",
                                   tracerd__ctf2_kind_of(root));
        else
            st = fragment(&J, root);
        json_decref(root);
        J.frag++;
    }
    if (st != TRACERD_OK)
        return st;
    t->info.nfragments = J.frag;
    if (J.frag == 0)
        return tracerd__error_set(&m->err, TRACERD_E_METADATA, 0,
                                  "metadata: no CTF 2 fragment (the text is empty)");
    J.frag_off = m->len;
    return build(&J);
}
