#include "ctf_text.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void ctf_text_quote(tlog_t *l, const char *s, size_t n)
{
    tlog_printf(l, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\a': tlog_printf(l, "\\a"); break;
        case '\b': tlog_printf(l, "\\b"); break;
        case '\f': tlog_printf(l, "\\f"); break;
        case '\n': tlog_printf(l, "\\n"); break;
        case '\r': tlog_printf(l, "\\r"); break;
        case '\t': tlog_printf(l, "\\t"); break;
        case '\v': tlog_printf(l, "\\v"); break;
        case '\\': tlog_printf(l, "\\\\"); break;
        case '\'': tlog_printf(l, "\\'"); break;
        case '"': tlog_printf(l, "\\\""); break;
        case '?': tlog_printf(l, "\\?"); break;
        default: tlog_printf(l, "%c", c); break;
        }
    }
    tlog_printf(l, "\"");
}

static bool filtered(const tracerd_ctf_field_t *f)
{
    static const char *const names[] = {"content_size",     "packet_size",   "timestamp_begin",
                                        "timestamp_end",    "events_discarded", "packet_seq_num"};
    if (f->scope != TRACERD_CTF_SCOPE_PACKET_CONTEXT || f->depth != 1)
        return false;
    if (f->type->roles != 0)
        return true; /* CTF 2: babeltrace2 shows no field with a role */
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(f->name, names[i]) == 0)
            return true;
    return false;
}

static void member(ctf_text_t *t, const tracerd_ctf_field_t *f, bool named)
{
    tlog_t *l = t->cur;
    tlog_printf(l, t->first[t->level] ? " " : ", ");
    t->first[t->level] = false;
    if (f->index >= 0)
        tlog_printf(l, "[%" PRId64 "] = ", f->index);
    else if (named && f->name[0] && !t->variant[t->level])
        tlog_printf(l, "%s = ", f->name);
}

static void int_text(tlog_t *l, const tracerd_ctf_field_t *f)
{
    const tracerd_ctf_type_t *ty = f->type;
    unsigned base = ty->base;
    uint64_t v = f->v.u;
    bool sgn = f->kind == TRACERD_CTF_VALUE_INT;
    if (base == 16) {
        if (ty->size_bits < 64)
            v &= ((uint64_t)1 << ty->size_bits) - 1;
        tlog_printf(l, "0x%" PRIX64, v);
    } else if (base == 8) {
        if (ty->size_bits < 64)
            v &= ((uint64_t)1 << ty->size_bits) - 1;
        tlog_printf(l, "0%" PRIo64, v);
    } else if (base == 2) {
        if (ty->size_bits < 64)
            v &= ((uint64_t)1 << ty->size_bits) - 1;
        tlog_printf(l, "0b");
        for (unsigned i = ty->size_bits; i-- > 0;)
            tlog_printf(l, "%c", (v >> i) & 1 ? '1' : '0');
    } else if (sgn) {
        tlog_printf(l, "%" PRId64, f->v.i);
    } else {
        tlog_printf(l, "%" PRIu64, v);
    }
}

static int cmp_label(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The labels of every mapping (or bit map flag) the value matches, sorted
 * and deduplicated, as babeltrace2 2.1 prints them: { "A", "B" }. Returns
 * the count. */
static size_t labels_text(tlog_t *l, const tracerd_ctf_type_t *ty, uint64_t v, bool sgn,
                          bool print)
{
    const char *found[64];
    size_t n = 0;
    bool flags = ty->kind == TRACERD_CTF_TYPE_BIT_MAP;
    for (uint32_t i = 0; i < ty->nmappings && n < 64; i++) {
        const tracerd_ctf_mapping_t *m = &ty->mappings[i];
        bool hit;
        if (flags) {
            hit = false;
            for (int64_t b = m->lo; b <= m->hi && b < 64; b++)
                hit = hit || ((v >> b) & 1u);
        } else {
            hit = sgn ? ((int64_t)v >= m->lo && (int64_t)v <= m->hi)
                      : (v >= (uint64_t)m->lo && v <= (uint64_t)m->hi);
        }
        bool dup = false;
        for (size_t k = 0; k < n; k++)
            dup = dup || strcmp(found[k], m->label) == 0;
        if (hit && !dup)
            found[n++] = m->label;
    }
    if (!print)
        return n;
    qsort(found, n, sizeof found[0], cmp_label);
    tlog_printf(l, "{ ");
    for (size_t k = 0; k < n; k++) {
        if (k)
            tlog_printf(l, ", ");
        ctf_text_quote(l, found[k], strlen(found[k]));
    }
    tlog_printf(l, " }");
    return n;
}

static tlog_t *pctx_of(ctf_text_t *t)
{
    const tracerd_ctf_dir_stream_t *s = t->dir ? tracerd_ctf_dir_current(t->dir) : NULL;
    if (s && s->index < 64)
        return &t->spctx[s->index];
    return &t->pctx;
}

static int on_field(void *user, const tracerd_ctf_field_t *f)
{
    ctf_text_t *t = user;
    if (f->scope == TRACERD_CTF_SCOPE_PACKET_HEADER || f->scope == TRACERD_CTF_SCOPE_EVENT_HEADER)
        return 0;
    if (t->skip_depth > 0) {
        if (f->kind == TRACERD_CTF_VALUE_STRUCT_BEGIN || f->kind == TRACERD_CTF_VALUE_ARRAY_BEGIN ||
            f->kind == TRACERD_CTF_VALUE_SEQUENCE_BEGIN || f->kind == TRACERD_CTF_VALUE_VARIANT_BEGIN)
            t->skip_depth++;
        else if (f->kind == TRACERD_CTF_VALUE_STRUCT_END || f->kind == TRACERD_CTF_VALUE_ARRAY_END ||
                 f->kind == TRACERD_CTF_VALUE_SEQUENCE_END ||
                 f->kind == TRACERD_CTF_VALUE_VARIANT_END)
            t->skip_depth--;
        return 0;
    }
    if (filtered(f)) {
        if (f->kind == TRACERD_CTF_VALUE_STRUCT_BEGIN || f->kind == TRACERD_CTF_VALUE_ARRAY_BEGIN ||
            f->kind == TRACERD_CTF_VALUE_SEQUENCE_BEGIN || f->kind == TRACERD_CTF_VALUE_VARIANT_BEGIN)
            t->skip_depth = 1;
        return 0;
    }
    tlog_t *l = f->scope == TRACERD_CTF_SCOPE_PACKET_CONTEXT ? pctx_of(t) : &t->ev;
    t->cur = l;
    bool in_variant = t->level > 0 && t->first[t->level] && false;
    (void)in_variant;
    switch (f->kind) {
    case TRACERD_CTF_VALUE_STRUCT_BEGIN:
        if (f->depth == 0) {
            if (f->scope == TRACERD_CTF_SCOPE_PACKET_CONTEXT)
                tlog_reset(l);
            else if (l->len)
                tlog_printf(l, ", ");
            t->level = 0;
        } else {
            member(t, f, true);
        }
        tlog_printf(l, "{");
        t->level++;
        t->first[t->level] = true;
        t->variant[t->level] = false;
        break;
    case TRACERD_CTF_VALUE_STRUCT_END:
    case TRACERD_CTF_VALUE_VARIANT_END:
        tlog_printf(l, " }");
        t->level--;
        break;
    case TRACERD_CTF_VALUE_ARRAY_BEGIN:
    case TRACERD_CTF_VALUE_SEQUENCE_BEGIN:
        member(t, f, true);
        tlog_printf(l, "[");
        t->level++;
        t->first[t->level] = true;
        t->variant[t->level] = false;
        break;
    case TRACERD_CTF_VALUE_ARRAY_END:
    case TRACERD_CTF_VALUE_SEQUENCE_END:
        tlog_printf(l, " ]");
        t->level--;
        break;
    case TRACERD_CTF_VALUE_VARIANT_BEGIN:
        member(t, f, true);
        tlog_printf(l, "{");
        t->level++;
        t->first[t->level] = true;
        t->variant[t->level] = true; /* the option is printed without its name */
        break;
    case TRACERD_CTF_VALUE_STRING:
        member(t, f, true);
        ctf_text_quote(l, f->v.str.data, f->v.str.len);
        break;
    case TRACERD_CTF_VALUE_BOOL:
        member(t, f, true);
        tlog_printf(l, "%s", f->v.u ? "true" : "false");
        break;
    case TRACERD_CTF_VALUE_BYTES:
        member(t, f, true);
        tlog_printf(l, "[");
        for (size_t i = 0; i < f->bytes.len; i++)
            tlog_printf(l, "%s%02x", i ? " " : " ", f->bytes.data[i]);
        tlog_printf(l, " ]");
        break;
    case TRACERD_CTF_VALUE_OPTIONAL_BEGIN:
    case TRACERD_CTF_VALUE_OPTIONAL_END:
        break;
    case TRACERD_CTF_VALUE_FLOAT:
        member(t, f, true);
        tlog_printf(l, "%g", f->v.f);
        break;
    case TRACERD_CTF_VALUE_INT:
    case TRACERD_CTF_VALUE_UINT:
        member(t, f, true);
        if (f->type->kind == TRACERD_CTF_TYPE_BIT_MAP) {
            uint64_t v = f->v.u;
            tlog_printf(l, "0x%" PRIX64, v);
            if (labels_text(l, f->type, v, false, false) > 0) {
                tlog_printf(l, " ");
                labels_text(l, f->type, v, false, true);
            }
        } else if (f->type->mappings != NULL) {
            bool sgn = f->kind == TRACERD_CTF_VALUE_INT;
            tlog_printf(l, "( ");
            if (t->bt21 && labels_text(l, f->type, f->v.u, sgn, false) > 1) {
                labels_text(l, f->type, f->v.u, sgn, true);
            } else if (f->enum_label) {
                ctf_text_quote(l, f->enum_label, strlen(f->enum_label));
            } else {
                tlog_printf(l, "<unknown>");
            }
            tlog_printf(l, " : container = ");
            if (f->kind == TRACERD_CTF_VALUE_INT)
                tlog_printf(l, "%" PRId64, f->v.i);
            else
                tlog_printf(l, "%" PRIu64, f->v.u);
            tlog_printf(l, " )");
        } else {
            int_text(l, f);
        }
        break;
    default:
        break;
    }
    return 0;
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    ctf_text_t *t = user;
    (void)p;
    t->packets++;
    tlog_reset(pctx_of(t));
    return 0;
}

static int on_event_begin(void *user, const tracerd_ctf_event_t *e)
{
    ctf_text_t *t = user;
    tlog_reset(&t->ev);
    t->has_clock = e->has_clock;
    t->cycles = e->cycles;
    t->name = e->name;
    return 0;
}

static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    ctf_text_t *t = user;
    t->events++;
    if (e->has_clock)
        tlog_printf(&t->out, "[%020" PRIu64 "] ", e->cycles);
    tlog_printf(&t->out, "%s: ", e->name);
    bool any = false;
    tlog_t *pc = pctx_of(t);
    if (pc->len && strcmp(pc->buf, "{ }") != 0) {
        tlog_printf(&t->out, "%s", pc->buf);
        any = true;
    }
    if (t->ev.len)
        tlog_printf(&t->out, "%s%s", any ? ", " : "", t->ev.buf);
    tlog_printf(&t->out, "\n");
    return 0;
}

static int on_loss(void *user, const tracerd_ctf_loss_t *l)
{
    ctf_text_t *t = user;
    t->losses++;
    if (l->kind == TRACERD_CTF_LOSS_EVENTS)
        t->lost_events += l->count;
    else
        t->lost_packets += l->count;
    return 0;
}

void ctf_text_callbacks(tracerd_ctf_callbacks_t *cb)
{
    memset(cb, 0, sizeof *cb);
    cb->on_field = on_field;
    cb->on_packet_begin = on_packet;
    cb->on_event_begin = on_event_begin;
    cb->on_event_end = on_event_end;
    cb->on_loss = on_loss;
}

void ctf_text_free(ctf_text_t *t)
{
    free(t->out.buf);
    free(t->pctx.buf);
    free(t->ev.buf);
    for (int i = 0; i < 64; i++)
        free(t->spctx[i].buf);
    memset(t, 0, sizeof *t);
}
