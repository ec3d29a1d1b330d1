/* Event filters (include/tracerd/event.h, doc/api.md "Filters"): a time
 * range with bounds relative to the trace's start or absolute, name and
 * category patterns (exact or glob), pid / tid / cpu sets. A filter holds at
 * most TRACERD_EVENT_FILTER_MAX_VALUES values per field; its memory does not
 * depend on the trace. */
#include "event_internal.h"

enum { F_NAME, F_CAT, F_PID, F_TID, F_CPU, F_COUNT };

/* How a pattern is matched: the common glob shapes without the matcher. */
enum shape { P_EXACT, P_PREFIX, P_SUFFIX, P_CONTAINS, P_GLOB };

struct pattern {
    char *text; /* NUL-terminated copy */
    size_t len;
    enum shape shape;
    const char *lit; /* P_PREFIX/SUFFIX/CONTAINS: the literal part */
    size_t lit_len;
};

struct tracerd_event_filter {
    tracerd_allocator_t alloc;
    struct pattern pat[2][TRACERD_EVENT_FILTER_MAX_VALUES];
    uint32_t npat[2];
    uint64_t ids[3][TRACERD_EVENT_FILTER_MAX_VALUES];
    uint32_t nids[3];
    uint64_t begin, end; /* as given */
    bool has_begin, has_end, begin_rel, end_rel;
    bool has_start; /* the trace start is known */
    uint64_t start;
    uint64_t rbegin, rend; /* resolved (valid when has_start or absolute) */
    bool ordered;
    bool cut; /* an event past the end was seen */
};

tracerd_status_t tracerd_event_filter_new(const tracerd_allocator_t *alloc,
                                          tracerd_event_filter_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    tracerd_event_filter_t *f = TRACERD__NEW(tracerd_event_filter_t, alloc);
    *out = f;
    if (f == NULL)
        return TRACERD_E_NOMEM;
    f->rend = TRACERD_EVENT_FILTER_NO_END;
    return TRACERD_OK;
}

void tracerd_event_filter_free(tracerd_event_filter_t *f)
{
    if (f == NULL)
        return;
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < f->npat[k]; i++)
            tracerd__free(&f->alloc, f->pat[k][i].text, f->pat[k][i].len + 1);
    tracerd_allocator_t a = f->alloc;
    tracerd__free(&a, f, sizeof *f);
}

/* Absolute bounds are resolved at once; relative ones once the start is known. */
static void resolve(tracerd_event_filter_t *f)
{
    uint64_t base = f->has_start ? f->start : 0;
    f->rbegin = 0;
    if (f->has_begin && (!f->begin_rel || f->has_start)) {
        uint64_t b = f->begin_rel ? base + f->begin : f->begin;
        f->rbegin = b < base && f->begin_rel ? UINT64_MAX : b; /* saturate */
    }
    f->rend = TRACERD_EVENT_FILTER_NO_END;
    if (f->has_end && (!f->end_rel || f->has_start)) {
        uint64_t e = f->end_rel ? base + f->end : f->end;
        f->rend = e < base && f->end_rel ? TRACERD_EVENT_FILTER_NO_END : e;
    }
}

void tracerd_event_filter_reset(tracerd_event_filter_t *f)
{
    if (f == NULL)
        return;
    f->has_start = false;
    f->cut = false;
    f->start = 0;
    resolve(f);
}

/* ---- time text ------------------------------------------------------------ */

tracerd_status_t tracerd_event_filter_parse_time(const char *text, uint64_t *ns, bool *relative)
{
    if (text == NULL || ns == NULL || relative == NULL)
        return TRACERD_E_INVALID;
    const char *p = text;
    bool plus = *p == '+';
    if (plus)
        p++;
    if (*p < '0' || *p > '9')
        return TRACERD_E_INVALID;
    uint64_t whole = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (whole > (UINT64_MAX - d) / 10)
            return TRACERD_E_INVALID;
        whole = whole * 10 + d;
    }
    /* The fraction: its first nine digits, as frac / 10^9. */
    uint64_t frac = 0, fscale = 1000000000u;
    bool has_frac = *p == '.';
    if (has_frac) {
        p++;
        if (*p < '0' || *p > '9')
            return TRACERD_E_INVALID;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (fscale > 1) {
                fscale /= 10;
                frac += (uint64_t)(*p - '0') * fscale;
            }
        }
    }
    static const struct {
        const char *name;
        uint64_t ns;
    } units[] = {{"ns", 1},
                 {"us", 1000},
                 {"ms", 1000000},
                 {"s", 1000000000u},
                 {"m", 60000000000ull},
                 {"h", 3600000000000ull},
                 {"min", 60000000000ull}};
    uint64_t mult = 0;
    if (*p == '\0') {
        if (has_frac && !plus)
            return TRACERD_E_INVALID; /* "1.5": no unit, not a whole ns count */
        mult = 1;
    } else {
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (strcmp(p, units[i].name) == 0)
                mult = units[i].ns;
        if (mult == 0)
            return TRACERD_E_INVALID;
    }
    if (whole != 0 && mult > UINT64_MAX / whole)
        return TRACERD_E_INVALID;
    uint64_t v = whole * mult;
    /* frac * mult / 10^9 without overflow: every unit from us up is a
     * multiple of 1000 and at most 3.6e12 ns (frac * 3.6e9 < 2^64). */
    uint64_t part = mult >= 1000 ? frac * (mult / 1000) / 1000000u : frac * mult / 1000000000u;
    if (UINT64_MAX - v < part)
        return TRACERD_E_INVALID;
    *ns = v + part;
    *relative = plus || *p != '\0';
    return TRACERD_OK;
}

tracerd_status_t tracerd_event_filter_set_begin(tracerd_event_filter_t *f, uint64_t t,
                                                bool relative)
{
    if (f == NULL)
        return TRACERD_E_INVALID;
    f->begin = t;
    f->has_begin = true;
    f->begin_rel = relative;
    resolve(f);
    return TRACERD_OK;
}

tracerd_status_t tracerd_event_filter_set_end(tracerd_event_filter_t *f, uint64_t t, bool relative)
{
    if (f == NULL)
        return TRACERD_E_INVALID;
    f->end = t;
    f->has_end = t != TRACERD_EVENT_FILTER_NO_END;
    f->end_rel = relative;
    resolve(f);
    return TRACERD_OK;
}

void tracerd_event_filter_set_ordered(tracerd_event_filter_t *f, bool ordered)
{
    if (f != NULL)
        f->ordered = ordered;
}

bool tracerd_event_filter_ordered(const tracerd_event_filter_t *f)
{
    return f != NULL && f->ordered;
}

bool tracerd_event_filter_range(const tracerd_event_filter_t *f, uint64_t *begin, uint64_t *end)
{
    if (f == NULL)
        return false;
    if (begin != NULL)
        *begin = f->rbegin;
    if (end != NULL)
        *end = f->rend;
    return f->has_start || ((!f->has_begin || !f->begin_rel) && (!f->has_end || !f->end_rel));
}

bool tracerd_event_filter_cut(const tracerd_event_filter_t *f)
{
    return f != NULL && f->cut;
}

bool tracerd_event_filter_active(const tracerd_event_filter_t *f)
{
    return f != NULL && (f->has_begin || f->has_end || f->npat[0] || f->npat[1] || f->nids[0] ||
                         f->nids[1] || f->nids[2]);
}

/* ---- globs ------------------------------------------------------------------ */

/* The end of the bracket expression starting at p ('[' already passed), or
 * NULL when it is not closed. */
static const char *class_end(const char *p)
{
    if (*p == '!' || *p == '^')
        p++;
    if (*p == ']')
        p++;
    for (; *p != '\0'; p++) {
        if (*p == '\\' && p[1] != '\0')
            p++;
        else if (*p == ']')
            return p;
    }
    return NULL;
}

/* Does byte c match the class [p..end)? */
static bool class_match(const char *p, const char *end, unsigned char c)
{
    bool neg = *p == '!' || *p == '^';
    if (neg)
        p++;
    bool hit = false;
    bool first = true;
    while (p < end) {
        if (*p == ']' && !first)
            break;
        first = false;
        unsigned char lo = (unsigned char)*p;
        if (*p == '\\' && p + 1 < end)
            lo = (unsigned char)*++p;
        p++;
        unsigned char hi = lo;
        if (*p == '-' && p + 1 < end) {
            p++;
            hi = (unsigned char)*p;
            if (*p == '\\' && p + 1 < end)
                hi = (unsigned char)*++p;
            p++;
        }
        if (c >= lo && c <= hi)
            hit = true;
    }
    return hit != neg;
}

/* Iterative glob: on a mismatch after a '*', retry with the star taking one
 * byte more (linear in practice, O(n*m) at worst). */
bool tracerd_glob_match(const char *pattern, const void *data, size_t len)
{
    const char *p = pattern, *star_p = NULL;
    const unsigned char *t = data;
    size_t i = 0, star_i = 0;
    while (i < len) {
        if (*p == '*') {
            while (*p == '*')
                p++;
            if (*p == '\0')
                return true;
            star_p = p;
            star_i = i;
            continue;
        }
        bool ok = false;
        const char *next = p + 1;
        if (*p == '?') {
            ok = true;
        } else if (*p == '[' && class_end(p + 1) != NULL) {
            const char *e = class_end(p + 1);
            ok = class_match(p + 1, e, t[i]);
            next = e + 1;
        } else if (*p == '\\' && p[1] != '\0') {
            ok = (unsigned char)p[1] == t[i];
            next = p + 2;
        } else if (*p != '\0') {
            ok = (unsigned char)*p == t[i];
        }
        if (ok) {
            p = next;
            i++;
        } else if (star_p != NULL) {
            p = star_p;
            i = ++star_i;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

static bool is_meta(char c)
{
    return c == '*' || c == '?' || c == '[' || c == '\\';
}

/* The shape of a pattern: "lit", "lit*", "*lit", "*lit*" (no other
 * metacharacter in lit), or a general glob. */
static void classify(struct pattern *pt)
{
    const char *s = pt->text;
    size_t n = pt->len;
    size_t lead = s[0] == '*' ? 1 : 0;
    size_t trail = n > lead && s[n - 1] == '*' ? 1 : 0;
    for (size_t i = lead; i < n - trail; i++) {
        if (is_meta(s[i])) {
            pt->shape = P_GLOB;
            return;
        }
    }
    pt->lit = s + lead;
    pt->lit_len = n - lead - trail;
    pt->shape = lead && trail ? P_CONTAINS : lead ? P_SUFFIX : trail ? P_PREFIX : P_EXACT;
}

static int field_index(tracerd_event_filter_field_t field)
{
    switch (field) {
    case TRACERD_EVENT_FILTER_NAME:
        return F_NAME;
    case TRACERD_EVENT_FILTER_CATEGORY:
        return F_CAT;
    case TRACERD_EVENT_FILTER_PID:
        return F_PID;
    case TRACERD_EVENT_FILTER_TID:
        return F_TID;
    case TRACERD_EVENT_FILTER_CPU:
        return F_CPU;
    }
    return -1;
}

tracerd_status_t tracerd_event_filter_add_pattern(tracerd_event_filter_t *f,
                                                  tracerd_event_filter_field_t field,
                                                  const char *pattern)
{
    int k = field_index(field);
    if (f == NULL || pattern == NULL || (k != F_NAME && k != F_CAT))
        return TRACERD_E_INVALID;
    for (const char *q = pattern; (q = strchr(q, '[')) != NULL; q++) {
        if (q > pattern && q[-1] == '\\')
            continue;
        if (class_end(q + 1) == NULL)
            return TRACERD_E_INVALID;
    }
    if (f->npat[k] >= TRACERD_EVENT_FILTER_MAX_VALUES)
        return TRACERD_E_LIMIT;
    size_t len = strlen(pattern);
    char *copy = tracerd__calloc(&f->alloc, len + 1);
    if (copy == NULL)
        return TRACERD_E_NOMEM;
    memcpy(copy, pattern, len);
    struct pattern *pt = &f->pat[k][f->npat[k]++];
    pt->text = copy;
    pt->len = len;
    classify(pt);
    return TRACERD_OK;
}

tracerd_status_t tracerd_event_filter_add_id(tracerd_event_filter_t *f,
                                             tracerd_event_filter_field_t field, uint64_t id)
{
    int k = field_index(field);
    if (f == NULL || k < F_PID)
        return TRACERD_E_INVALID;
    k -= F_PID;
    if (f->nids[k] >= TRACERD_EVENT_FILTER_MAX_VALUES)
        return TRACERD_E_LIMIT;
    f->ids[k][f->nids[k]++] = id;
    return TRACERD_OK;
}

/* ---- matching --------------------------------------------------------------- */

/* lit in s: candidates found by memchr (vectorised in libc), checked by memcmp. */
static bool contains(tracerd_str_t s, const char *lit, size_t n)
{
    if (n == 0)
        return true;
    const char *p = s.data, *last = s.data + s.len;
    while ((size_t)(last - p) >= n) {
        p = memchr(p, lit[0], (size_t)(last - p) - n + 1);
        if (p == NULL)
            return false;
        if (memcmp(p, lit, n) == 0)
            return true;
        p++;
    }
    return false;
}

static bool any_pattern(const struct pattern *v, uint32_t n, tracerd_str_t s)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct pattern *p = &v[i];
        bool hit;
        switch (p->shape) {
        case P_EXACT:
            hit = p->len == s.len && (s.len == 0 || memcmp(p->text, s.data, s.len) == 0);
            break;
        case P_PREFIX:
            hit =
                s.len >= p->lit_len && (p->lit_len == 0 || memcmp(p->lit, s.data, p->lit_len) == 0);
            break;
        case P_SUFFIX:
            hit = s.len >= p->lit_len &&
                  (p->lit_len == 0 || memcmp(p->lit, s.data + s.len - p->lit_len, p->lit_len) == 0);
            break;
        case P_CONTAINS:
            hit = contains(s, p->lit, p->lit_len);
            break;
        default:
            hit = tracerd_glob_match(p->text, s.data, s.len);
            break;
        }
        if (hit)
            return true;
    }
    return false;
}

static bool any_id(const uint64_t *v, uint32_t n, uint64_t id)
{
    for (uint32_t i = 0; i < n; i++)
        if (v[i] == id)
            return true;
    return false;
}

/* The tests in order: ids, time, names. known (TRACERD__KNOW_*) says
 * which of the event's ids and names are set; a test on one that is not
 * known stops the match (TRACERD__FILTER_UNDECIDED) where it could change
 * the verdict: a known id that fails rejects, whatever the others. */
static int match(tracerd_event_filter_t *f, const tracerd_event_t *ev, unsigned known)
{
    bool meta = ev->kind == TRACERD_EVENT_PROCESS_NAME || ev->kind == TRACERD_EVENT_THREAD_NAME;
    bool undecided = false;
    if (f->nids[F_PID - F_PID] != 0) {
        if (!(known & TRACERD__KNOW_PID))
            undecided = true;
        else if (!(ev->flags & TRACERD_EVENT_HAS_PID) ||
                 !any_id(f->ids[F_PID - F_PID], f->nids[0], ev->pid))
            return TRACERD_EVENT_FILTER_REJECT;
    }
    if (f->nids[F_TID - F_PID] != 0 && !meta) {
        if (!(known & TRACERD__KNOW_TID))
            undecided = true;
        else if (!(ev->flags & TRACERD_EVENT_HAS_TID) || !any_id(f->ids[1], f->nids[1], ev->tid))
            return TRACERD_EVENT_FILTER_REJECT;
    }
    if (f->nids[F_CPU - F_PID] != 0 && !meta) {
        if (!(known & TRACERD__KNOW_CPU))
            undecided = true;
        else if (!(ev->flags & TRACERD_EVENT_HAS_CPU) || !any_id(f->ids[2], f->nids[2], ev->cpu))
            return TRACERD_EVENT_FILTER_REJECT;
    }
    if (undecided) /* the time test depends on the ids passing (the trace's start) */
        return TRACERD__FILTER_UNDECIDED;
    if (!(ev->flags & TRACERD_EVENT_NO_TIME) && !meta) {
        uint64_t t = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->ns : ev->ticks;
        if (!f->has_start) {
            f->has_start = true;
            f->start = t;
            resolve(f);
        }
        if (t > f->rend) {
            f->cut = true;
            return TRACERD_EVENT_FILTER_PAST_END;
        }
        uint64_t last = t;
        if (ev->kind == TRACERD_EVENT_SPAN_COMPLETE)
            last = (ev->flags & TRACERD_EVENT_HAS_NS) ? ev->end_ns : ev->end_ticks;
        if (last < f->rbegin || (last < t && t < f->rbegin))
            return TRACERD_EVENT_FILTER_REJECT;
    }
    if (meta)
        return TRACERD_EVENT_FILTER_PASS;
    if ((f->npat[F_NAME] != 0 || f->npat[F_CAT] != 0) && !(known & TRACERD__KNOW_NAMES))
        return TRACERD__FILTER_UNDECIDED;
    return tracerd__event_filter_names(f, ev->name, ev->category) ? TRACERD_EVENT_FILTER_PASS
                                                                  : TRACERD_EVENT_FILTER_REJECT;
}

bool tracerd__event_filter_names(const tracerd_event_filter_t *f, tracerd_str_t name,
                                 tracerd_str_t category)
{
    if (f->npat[F_NAME] != 0 && !any_pattern(f->pat[F_NAME], f->npat[F_NAME], name))
        return false;
    return f->npat[F_CAT] == 0 || any_pattern(f->pat[F_CAT], f->npat[F_CAT], category);
}

bool tracerd__event_filter_has_names(const tracerd_event_filter_t *f)
{
    return f != NULL && (f->npat[F_NAME] != 0 || f->npat[F_CAT] != 0);
}

int tracerd__event_filter_pre(tracerd_event_filter_t *f, const tracerd_event_t *ev, unsigned known)
{
    return match(f, ev, known);
}

int tracerd_event_filter_match(tracerd_event_filter_t *f, const tracerd_event_t *ev)
{
    if (f == NULL || ev == NULL)
        return TRACERD_EVENT_FILTER_PASS;
    return match(f, ev, TRACERD__KNOW_ALL);
}
