/* CTF onto events. Detection: a packet magic 0xC1FC1FC1, a metadata packet
 * magic 0x75D11D57 (either byte order) or text metadata starting with the
 * CTF signature comment.
 *
 * Mapping:
 * every event becomes an INSTANT named by its event class, at its clock time
 * (nanoseconds from the Epoch when the stream has a clock), with the CPU of
 * its packet context (cpu_id). The fields of the stream event context, event
 * context and payload scopes become typed arguments (integers, enumerations
 * by their label, floats, strings and text arrays); the scalars inside
 * compound fields are flattened into arguments named by their path:
 * "s.member" inside a structure, "a[2]" for an array or sequence element,
 * "v.option" for a variant's selected member; an array or sequence of bytes
 * (8-bit integers that are not text) is one BYTES argument. Context
 * fields vtid/tid and vpid/pid give the thread and process. LTTng-UST's
 * function instrumentation (lttng_ust_cyg_profile[_fast]:func_entry /
 * func_exit) becomes SPAN_BEGIN / SPAN_END with name_id = the function
 * address (its name "0x<addr>"). Discarded events and lost packets become a
 * MARK without a time carrying "count". Category: the trace environment's
 * "domain" (LTTng: "ust", "kernel"), else "ctf".
 *
 * A stream is read after its metadata (tracerd_auto_metadata); input that is
 * itself metadata (text or packetized) is parsed and gives no events; a data
 * stream with no metadata is E_METADATA. A trace directory is read by
 * tracerd_event_dir_*, through the CTF directory reader (streams merged in
 * time order). */
#include <stdlib.h>

#include "../core/sized.h"
#include "ctf_args.h"
#include "ctf_choices.h"
#include "ctf_meaning.h"
#include "event_internal.h"

#include <tracerd/ctf.h>

#define CTF_TEXT TRACERD__CTF_ARGS_TEXT /* string and bytes argument bytes kept per event */
#define CTF_NAMES 2048u                 /* bytes of flattened argument names kept per event */
#define CTF_DEPTH 32u /* nesting depth flattened; deeper fields are left out (TRUNCATED) */

/* Metadata (text, or packetized: magic 0x75D11D57 in either order), not a
 * data stream? Decided on the first byte so that it does not depend on how
 * the input is cut (the metadata reader checks the rest). */
static bool is_metadata(const uint8_t *h, size_t n)
{
    return n > 0 && (h[0] == '/' || h[0] == 0x57 || h[0] == 0x75);
}

#define NAME_SLOTS 256u
#define CLASS_SLOTS 64u

/* A field name of the model (kept by its address, unchanged while events
 * are read): its length and what it means (CTF_NAME_*). */
struct name_info {
    const char *name;
    size_t len;
    unsigned kind;
};

/* An event class (kept by its address): its name and span kind. */
struct class_info {
    const void *cls;
    tracerd_str_t name;
    int span;
};

/* An argument plan: what the record-by-record mapping made of one batch of
 * field records (one on_fields call starting an event: its contexts and
 * payload), kept so that a later batch of the same records (ctf_choices.h:
 * the same class, first record and count, the same choices, whole strings)
 * is mapped without the per-record work: each argument from its record
 * (name kept, value by scalar_value or a BYTES view), the thread, process
 * and address from theirs. Made only from a batch that starts and ends at a
 * scope's top (depth 0: no path or skip state carried into the event's next
 * batch), when no filter tests the event mid-way, nothing was truncated, no
 * value came in fragments and no byte array was gathered element by
 * element. Kept per event class and record count, two per set (struct plan:
 * ctf_args.h). */
struct cmap {
    tracerd_auto_reader_t *a;
    const tracerd_allocator_t *alloc;
    tracerd_ctf_stream_config_t scfg;
    tracerd_ctf_metadata_t *meta; /* stream mode */
    tracerd_ctf_trace_t *trace;   /* stream mode: owned */
    tracerd_ctf_stream_t *rd;     /* stream mode */
    tracerd_ctf_dir_t *dir;       /* directory mode */
    bool meta_mode;               /* the fed bytes are metadata */
    bool meta_given;
    bool source_sent;
    bool meta_finished;        /* metadata alone: finish is done */
    bool finish_paused;        /* ... and the source callback paused it */
    struct tracerd__error err; /* own errors (no metadata, metadata errors) */
    bool own_error;
    /* the event being built */
    bool in_event;
    bool checked;    /* it passed the filter at its beginning (delivered without a test) */
    bool ctx_tested; /* tested again when its payload began (the contexts read) */
    tracerd_event_t ev;
    uint32_t nargs;
    int span; /* 0 none, 1 function entry, 2 function exit */
    bool has_addr;
    uint64_t addr;
    size_t text_len;
    char text[CTF_TEXT];
    /* flattened names of nested fields: path[0, plen[d]) names the field at depth d */
    char path[256];
    uint16_t plen[CTF_DEPTH + 1];
    uint32_t skip_depth; /* inside a byte array delivered whole: skip deeper fields (0: none) */
    /* a byte array longer than a fragment (no whole view): its elements
     * appended to argument collect_arg (depth 0: none) */
    uint32_t collect_depth, collect_arg;
    uint32_t frag_arg; /* argument of the long value whose fragments arrive, or UINT32_MAX */
    size_t names_len;
    char names[CTF_NAMES];
    char name_buf[24];
    bool has_cpu;
    uint32_t cpu;
    /* directory mode: the cpu of each stream's current packet (streams are
     * interleaved by time, so the last packet seen may be another stream's);
     * -1 when that packet has none */
    int64_t *stream_cpu;
    uint32_t nstream_cpu;
    bool no_args; /* tracerd_auto_config_t.no_args: threads, processes and addresses only */
    /* the category of the last trace seen (the env lookup once per trace) */
    const tracerd_ctf_trace_t *cat_trace;
    tracerd_str_t category;
    bool filtered; /* the auto reader has a filter */
    /* the auto reader's argument array, taken at each event's beginning */
    tracerd_event_arg_t *args;
    uint32_t cap;
    struct name_info names_seen[NAME_SLOTS];
    struct class_info classes[CLASS_SLOTS];
    /* argument plans (above): the event's class, the plan being made (NULL:
     * none) and whether it still can be, the record being mapped */
    const void *cls;
    struct plan *making;
    bool plan_ok;
    uint32_t rec;
    struct plan plans[2 * PLAN_SETS];
    uint8_t plan_older[PLAN_SETS];
    uint32_t plan_gen;       /* plans made */
    const struct plan *used; /* the plan the last batch was mapped by or made, or NULL */
};

/* What on_field needs when no argument is wanted: the event contexts (thread
 * and process), and the payloads when the trace has LTTng-UST function
 * events (their address). */
static const uint32_t no_args_scopes_none =
    (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) | (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);

/* What the reader delivers when arguments are wanted, unless the caller's
 * config names the scopes: the contexts and the payload, which on_field maps
 * into arguments, and the event header, which it maps into nothing
 * (field_arg) but which costs the reader less delivered by its plan than
 * measured by the general program (the LTTng header's variant: json -6 %
 * instructions on the LTTng bench cut); not the packets' fields. */
static const uint32_t args_scopes = TRACERD__CTF_ARGS_SCOPES;

static uint32_t no_args_scopes(const tracerd_ctf_trace_t *t)
{
    return ctf_has_span_classes(t) ? no_args_scopes_none | (1u << TRACERD_CTF_SCOPE_EVENT_FIELDS)
                                   : no_args_scopes_none;
}

/* The stream being read in directory mode, or NULL. */
static const tracerd_ctf_dir_stream_t *cur_stream(const struct cmap *m)
{
    return m->dir != NULL ? tracerd_ctf_dir_current(m->dir) : NULL;
}

static const tracerd_ctf_trace_t *cur_trace(const struct cmap *m)
{
    if (m->dir != NULL) {
        const tracerd_ctf_dir_stream_t *s = tracerd_ctf_dir_current(m->dir);
        return s != NULL ? s->trace : NULL;
    }
    return m->trace;
}

static int send_source(struct cmap *m)
{
    if (m->source_sent)
        return TRACERD_CB_CONTINUE;
    m->source_sent = true;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    const tracerd_ctf_trace_t *t = cur_trace(m);
    if (t != NULL) {
        const tracerd_ctf_trace_info_t *in = tracerd_ctf_trace_info(t);
        src.version = in->major * 100u + in->minor;
        src.byte_order = in->byte_order;
        src.ticks_per_second = in->nclocks > 0 ? in->clocks[0].freq : 0;
    }
    return tracerd__auto_source(m->a, &src);
}

static tracerd_str_t cstr(const char *s)
{
    tracerd_str_t v = {s != NULL ? s : "", s != NULL ? strlen(s) : 0};
    return v;
}

static int on_packet(void *user, const tracerd_ctf_packet_t *p)
{
    struct cmap *m = user;
    m->has_cpu = p->has_cpu_id;
    m->cpu = (uint32_t)p->cpu_id;
    const tracerd_ctf_dir_stream_t *s = cur_stream(m);
    if (s != NULL && s->index < m->nstream_cpu)
        m->stream_cpu[s->index] = p->has_cpu_id ? (int64_t)(uint32_t)p->cpu_id : -1;
    return send_source(m);
}

/* An event class's name and span kind, kept by the class's address (the
 * model's, unchanged while events are read). */
static const struct class_info *class_of(struct cmap *m, const tracerd_ctf_event_t *e,
                                         struct class_info *scratch)
{
    const char *name = e->name != NULL ? e->name : "";
    struct class_info *c = scratch;
    if (e->cls != NULL) {
        uint64_t x = (uint64_t)(uintptr_t)e->cls;
        x ^= x >> 29;
        c = &m->classes[(size_t)((x * UINT64_C(0x9E3779B97F4A7C15)) >> 58)];
        if (c->cls == e->cls && c->name.data == name)
            return c;
    }
    c->cls = e->cls;
    c->name = cstr(name);
    c->span = ctf_span_kind(name);
    return c;
}

/* An event of class cls begins: nothing of it mapped yet. */
static inline void event_reset(struct cmap *m, const void *cls)
{
    m->in_event = true;
    m->nargs = 0;
    m->text_len = 0;
    m->names_len = 0;
    m->skip_depth = 0;
    m->collect_depth = 0;
    m->frag_arg = UINT32_MAX;
    m->has_addr = false;
    m->cls = cls;
}

static int on_event_begin(void *user, const tracerd_ctf_event_t *e)
{
    struct cmap *m = user;
    m->args = tracerd__auto_args(m->a, &m->cap);
    memset(&m->ev, 0, sizeof m->ev);
    event_reset(m, e->cls);
    m->ev.offset = e->offset;
    m->ev.kind = TRACERD_EVENT_INSTANT;
    m->ev.ticks = e->cycles;
    m->ev.ns = e->ns;
    if (e->has_clock)
        m->ev.flags |= TRACERD_EVENT_HAS_NS;
    const tracerd_ctf_dir_stream_t *s = cur_stream(m);
    const tracerd_ctf_trace_t *t = m->dir != NULL ? (s != NULL ? s->trace : NULL) : m->trace;
    if (s != NULL && s->index < m->nstream_cpu) {
        if (m->stream_cpu[s->index] >= 0) {
            m->ev.cpu = (uint32_t)m->stream_cpu[s->index];
            m->ev.flags |= TRACERD_EVENT_HAS_CPU;
        }
    } else if (m->has_cpu) {
        m->ev.cpu = m->cpu;
        m->ev.flags |= TRACERD_EVENT_HAS_CPU;
    }
    struct class_info scratch;
    const struct class_info *ci = class_of(m, e, &scratch);
    m->ev.name = ci->name;
    if (t != m->cat_trace || m->category.data == NULL) {
        const char *domain = t != NULL ? tracerd_ctf_trace_env(t, "domain") : NULL;
        m->category = cstr(domain != NULL ? domain : "ctf");
        m->cat_trace = t;
    }
    m->ev.category = m->category;
    m->span = ci->span;
    /* Filtered before its fields are mapped: time, cpu and (but for a
     * function entry/exit, named by its address) name and category; the
     * process and thread come from the contexts. */
    int rc = TRACERD_CB_CONTINUE;
    int pre =
        !m->filtered
            ? 1
            : tracerd__auto_prefilter(
                  m->a, &m->ev, TRACERD__KNOW_CPU | (m->span == 0 ? TRACERD__KNOW_NAMES : 0u), &rc);
    m->checked = pre == 1;
    m->ctx_tested = false;
    if (pre == 0)
        m->in_event = false; /* left out: its fields are not mapped */
    int src = m->source_sent ? TRACERD_CB_CONTINUE : send_source(m);
    return src < 0 || rc >= 0 ? src : rc;
}

/* Copies a view into a per-event buffer (cut when full, with TRUNCATED). */
static const char *keep(struct cmap *m, char *buf, size_t cap, size_t *used, const void *data,
                        size_t len, size_t *kept)
{
    size_t room = cap - *used;
    size_t n = len < room ? len : room;
    if (n < len)
        m->ev.flags |= TRACERD_EVENT_TRUNCATED;
    if (n > 0)
        memcpy(buf + *used, data, n);
    const char *at = buf + *used;
    *used += n;
    *kept = n;
    return at;
}

static tracerd_str_t keep_text(struct cmap *m, tracerd_str_t s)
{
    tracerd_str_t v;
    v.data = keep(m, m->text, CTF_TEXT, &m->text_len, s.data, s.len, &v.len);
    return v;
}

/* A model string's length and, as a field name, its CTF_NAME_*: remembered by
 * its address (the model's strings do not move while events are read). */
static const struct name_info *name_seen(const char *name, struct name_info *n)
{
    n->name = name;
    n->len = strlen(name);
    n->kind = ctf_name_meaning(name);
    return n;
}

static inline const struct name_info *name_of(struct cmap *m, const char *name)
{
    uint64_t x = (uint64_t)(uintptr_t)name; /* mixed: names lie at regular distances */
    x ^= x >> 17;
    struct name_info *n = &m->names_seen[(size_t)((x * UINT64_C(0x9E3779B97F4A7C15)) >> 56)];
    if (TRACERD__LIKELY(n->name == name))
        return n;
    return name_seen(name, n);
}

/* Sets path[0, plen[depth]) to the name of field f at depth (>= 1): its
 * parent's path, then "[index]" for an element or ".name" for a member (just
 * "name" at the top of a scope). False when it does not fit. */
static bool set_path(struct cmap *m, const tracerd_ctf_field_t *f, const char *name)
{
    size_t at = f->depth > 1 ? m->plen[f->depth - 1] : 0, room = sizeof m->path - at, n;
    char *p = m->path + at;
    if (f->index >= 0) { /* "[index]" */
        char dg[20];
        size_t k = 0;
        uint64_t v = (uint64_t)f->index;
        do {
            dg[k++] = (char)('0' + v % 10u);
            v /= 10u;
        } while (v != 0);
        n = k + 2;
        if (n >= room)
            return false;
        p[0] = '[';
        for (size_t i = 0; i < k; i++)
            p[1 + i] = dg[k - 1 - i];
        p[k + 1] = ']';
    } else { /* ".name", or "name" at the top */
        size_t len = name_of(m, name)->len, dot = at > 0;
        n = dot + len;
        if (n >= room)
            return false;
        p[0] = '.';
        memcpy(p + dot, name, len);
    }
    p[n] = '\0';
    m->plen[f->depth] = (uint16_t)(at + n);
    return true;
}

static tracerd_event_arg_t *new_arg(struct cmap *m)
{
    if (TRACERD__UNLIKELY(m->nargs >= m->cap)) {
        m->ev.flags |= TRACERD_EVENT_TRUNCATED;
        return NULL;
    }
    tracerd_event_arg_t *o = &m->args[m->nargs++];
    memset(o, 0, sizeof *o);
    return o;
}

/* Integer, float, string (or text array) and CTF 2 boolean fields. */
static bool is_scalar(tracerd_ctf_value_kind_t k)
{
    return k == TRACERD_CTF_VALUE_INT || k == TRACERD_CTF_VALUE_UINT ||
           k == TRACERD_CTF_VALUE_FLOAT || k == TRACERD_CTF_VALUE_STRING ||
           k == TRACERD_CTF_VALUE_BOOL;
}

/* The value of a scalar field (integer, enum by its label, float, string or
 * text array, boolean) as an argument's type and value. */
static inline void scalar_value(struct cmap *m, tracerd_event_arg_t *o,
                                const tracerd_ctf_field_t *f)
{
    switch (tracerd__ctf_scalar(f)) { /* (the CLI's json writes these itself: json_ctf.c) */
    case CTF_SCALAR_LABEL: {
        const struct name_info *l = name_of(m, f->enum_label); /* owned by the trace model */
        o->type = TRACERD_EVENT_ARG_STRING;
        o->v.str.data = l->name;
        o->v.str.len = l->len;
        break;
    }
    case CTF_SCALAR_BOOL:
        o->type = TRACERD_EVENT_ARG_BOOL;
        o->v.b = f->v.u != 0;
        break;
    case CTF_SCALAR_INT:
        o->type = TRACERD_EVENT_ARG_INT;
        o->v.i = f->v.i;
        break;
    case CTF_SCALAR_UINT:
        o->type = TRACERD_EVENT_ARG_UINT;
        o->v.u = f->v.u;
        break;
    case CTF_SCALAR_DOUBLE:
        o->type = TRACERD_EVENT_ARG_DOUBLE;
        o->v.d = f->v.f;
        break;
    default:
        o->type = TRACERD_EVENT_ARG_STRING;
        o->v.str = keep_text(m, f->v.str);
        break;
    }
}

/* A field below the top of its scope: flattened into an argument named by
 * its path, or a byte array as one BYTES argument. */
/* An array or sequence of byte-aligned 8-bit integers that are not text. */
static bool is_byte_array(const tracerd_ctf_type_t *t)
{
    const tracerd_ctf_type_t *e = t != NULL ? t->element : NULL;
    return e != NULL && e->kind == TRACERD_CTF_TYPE_INT && e->size_bits == 8 &&
           e->align_bits % 8 == 0 && e->encoding == TRACERD_CTF_ENCODING_NONE;
}

/* Appends data to argument i when its value is the last text kept (else
 * the event is TRUNCATED): the later fragments of a long value, the
 * elements of a long byte array. */
static void append_to_arg(struct cmap *m, uint32_t i, const void *data, size_t len)
{
    if (i >= m->nargs)
        return;
    tracerd_event_arg_t *o = &m->args[i];
    bool str = o->type == TRACERD_EVENT_ARG_STRING;
    const char *vend =
        str ? o->v.str.data + o->v.str.len : (const char *)o->v.bytes.data + o->v.bytes.len;
    if (vend != m->text + m->text_len) {
        m->ev.flags |= TRACERD_EVENT_TRUNCATED;
        return;
    }
    size_t kept;
    keep(m, m->text, CTF_TEXT, &m->text_len, data, len, &kept);
    if (str)
        o->v.str.len += kept;
    else
        o->v.bytes.len += kept;
}

static int nested_field(struct cmap *m, const tracerd_ctf_field_t *f, const char *name)
{
    if (m->collect_depth != 0) {
        if (f->depth > m->collect_depth) { /* an element of a long byte array */
            uint8_t b = (uint8_t)f->v.u;
            if (f->depth == m->collect_depth + 1)
                append_to_arg(m, m->collect_arg, &b, 1);
            return TRACERD_CB_CONTINUE;
        }
        m->collect_depth = 0; /* its END */
        return TRACERD_CB_CONTINUE;
    }
    if (m->skip_depth != 0) {
        if (f->depth > m->skip_depth)
            return TRACERD_CB_CONTINUE; /* the elements of a byte array given whole */
        m->skip_depth = 0;              /* its END */
        return TRACERD_CB_CONTINUE;
    }
    if (f->depth > CTF_DEPTH || !set_path(m, f, name)) {
        m->ev.flags |= TRACERD_EVENT_TRUNCATED;
        return TRACERD_CB_CONTINUE;
    }
    bool begin =
        f->kind == TRACERD_CTF_VALUE_ARRAY_BEGIN || f->kind == TRACERD_CTF_VALUE_SEQUENCE_BEGIN;
    if (begin && f->bytes.data != NULL) {
        m->skip_depth = f->depth;
    } else if (begin && f->v.length > 0 && is_byte_array(f->type)) {
        m->collect_depth = f->depth; /* longer than a fragment: from its elements */
        m->collect_arg = m->nargs;
    } else if (f->kind == TRACERD_CTF_VALUE_BYTES) {
        begin = true; /* a CTF 2 BLOB: one BYTES argument */
    } else if (!is_scalar(f->kind)) {
        return TRACERD_CB_CONTINUE; /* a structure, array, variant or optional opens or closes */
    }
    tracerd_event_arg_t *o = new_arg(m);
    if (o == NULL)
        return TRACERD_CB_CONTINUE;
    o->name.data =
        keep(m, m->names, CTF_NAMES, &m->names_len, m->path, m->plen[f->depth], &o->name.len);
    if (begin) {
        o->type = TRACERD_EVENT_ARG_BYTES;
        const char *d =
            keep(m, m->text, CTF_TEXT, &m->text_len, f->bytes.data, f->bytes.len, &o->v.bytes.len);
        o->v.bytes.data = (const uint8_t *)d;
    } else {
        scalar_value(m, o, f);
    }
    return TRACERD_CB_CONTINUE;
}

/* The payload begins: the contexts are read, so the process and thread are
 * known (and the name, but for a function entry/exit, named by its
 * address): the event is tested again, and left out before its payload is
 * mapped. */
static int payload_test(struct cmap *m)
{
    m->ctx_tested = true;
    int rc = TRACERD_CB_CONTINUE;
    int pre = tracerd__auto_prefilter(
        m->a, &m->ev, TRACERD__KNOW_IDS | (m->span == 0 ? TRACERD__KNOW_NAMES : 0u), &rc);
    m->checked = pre == 1;
    if (pre == 0)
        m->in_event = false;
    return rc;
}

/* Value kinds (bits 1u << TRACERD_CTF_VALUE_*): the integers, the scalars
 * (is_scalar), the kinds that open a compound field. */
#define KINDS_INT ((1u << TRACERD_CTF_VALUE_INT) | (1u << TRACERD_CTF_VALUE_UINT))
#define KINDS_SCALAR                                                                               \
    (KINDS_INT | (1u << TRACERD_CTF_VALUE_FLOAT) | (1u << TRACERD_CTF_VALUE_STRING) |              \
     (1u << TRACERD_CTF_VALUE_BOOL))
#define KINDS_OPEN                                                                                 \
    ((1u << TRACERD_CTF_VALUE_OPTIONAL_BEGIN) | (1u << TRACERD_CTF_VALUE_STRUCT_BEGIN) |           \
     (1u << TRACERD_CTF_VALUE_ARRAY_BEGIN) | (1u << TRACERD_CTF_VALUE_SEQUENCE_BEGIN) |            \
     (1u << TRACERD_CTF_VALUE_VARIANT_BEGIN))

/* An integer at the top of a scope whose name means a thread or process id
 * (in the contexts) or, for a function event, its address (the payload). */
static inline void note_id(struct cmap *m, const tracerd_ctf_field_t *f, unsigned k)
{
    bool is_ctx = f->scope != TRACERD_CTF_SCOPE_EVENT_FIELDS;
    uint64_t u = f->kind == TRACERD_CTF_VALUE_UINT ? f->v.u : (uint64_t)f->v.i;
    if (is_ctx && k == CTF_NAME_TID) {
        m->ev.tid = u;
        m->ev.flags |= TRACERD_EVENT_HAS_TID;
    } else if (is_ctx && k == CTF_NAME_PID) {
        m->ev.pid = u;
        m->ev.flags |= TRACERD_EVENT_HAS_PID;
    } else if (!is_ctx && m->span != 0 && k == CTF_NAME_ADDR) {
        m->addr = u;
        m->has_addr = true;
    } else {
        return;
    }
    if (TRACERD__UNLIKELY(m->making != NULL)) { /* a plan keeps it */
        struct plan *p = m->making;
        if (p->nids == PLAN_IDS) {
            m->plan_ok = false;
            return;
        }
        p->id[p->nids].rec = (uint16_t)m->rec;
        p->id[p->nids++].kind = (uint16_t)k;
    }
}

static inline int field_arg(struct cmap *m, const tracerd_ctf_field_t *f)
{
    if (!m->in_event || f->depth == 0 || f->scope < TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT)
        return TRACERD_CB_CONTINUE;
    if (f->scope == TRACERD_CTF_SCOPE_EVENT_FIELDS && !m->checked && !m->ctx_tested) {
        int rc = payload_test(m);
        if (!m->in_event)
            return rc;
    }
    const char *name = f->name != NULL ? f->name : "";
    if (m->no_args && f->depth > 1)
        return TRACERD_CB_CONTINUE;
    unsigned kind = 1u << f->kind;
    if (f->depth > 1 || m->skip_depth != 0 || m->collect_depth != 0 || f->bytes.data != NULL ||
        (kind & KINDS_OPEN) != 0)
        return nested_field(m, f, name);
    if (!(kind & KINDS_SCALAR))
        return TRACERD_CB_CONTINUE; /* the END of a compound field */
    const struct name_info *ni = name_of(m, name);
    unsigned k = ni->kind;
    if (TRACERD__UNLIKELY(k != CTF_NAME_OTHER) && (kind & KINDS_INT))
        note_id(m, f, k);
    if (m->no_args)
        return TRACERD_CB_CONTINUE; /* no argument wanted */
    tracerd_event_arg_t *o = new_arg(m);
    if (o == NULL)
        return TRACERD_CB_CONTINUE;
    o->name.data = name;
    o->name.len = ni->len;
    scalar_value(m, o, f);
    return TRACERD_CB_CONTINUE;
}

/* A field; the fragments of a long string or BLOB join into one argument
 * (as far as the event's text bound goes). */
static inline int on_field(struct cmap *m, const tracerd_ctf_field_t *f)
{
    if (TRACERD__LIKELY(f->frag == (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST)))
        return field_arg(m, f);
    if (!(f->frag & TRACERD_CTF_FRAG_FIRST)) {
        if (m->in_event && m->frag_arg != UINT32_MAX) {
            if (f->kind == TRACERD_CTF_VALUE_STRING)
                append_to_arg(m, m->frag_arg, f->v.str.data, f->v.str.len);
            else
                append_to_arg(m, m->frag_arg, f->bytes.data, f->bytes.len);
        }
        return TRACERD_CB_CONTINUE;
    }
    uint32_t before = m->nargs;
    int rc = field_arg(m, f);
    m->frag_arg = m->nargs > before ? m->nargs - 1 : UINT32_MAX;
    return rc;
}

/* The fields in batches (on_fields): each as on_field. A positive return
 * (a pause after the event) lets the event's later records be mapped, as
 * they would be one by one; a negative one stops at its record. */
static int fields_each(struct cmap *m, const tracerd_ctf_field_t *f, size_t n)
{
    int ret = TRACERD_CB_CONTINUE;
    for (size_t i = 0; i < n; i++) {
        int rc = on_field(m, &f[i]);
        if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE)) {
            if (rc < 0)
                return rc;
            ret = rc;
        }
    }
    return ret;
}

_Static_assert(sizeof(((tracerd_ctf_field_t *)0)->v.u) == 8 &&
                   sizeof(((tracerd_ctf_field_t *)0)->v.i) == 8 &&
                   sizeof(((tracerd_ctf_field_t *)0)->v.f) == 8 &&
                   sizeof(((tracerd_event_arg_t *)0)->v.u) == 8 &&
                   sizeof(((tracerd_event_arg_t *)0)->v.i) == 8 &&
                   sizeof(((tracerd_event_arg_t *)0)->v.d) == 8,
               "a number's value: 8 bytes in a field record and in an argument");

/* Batch f's thread, process and address by plan p (its records are p's). */
static inline void plan_ids(struct cmap *m, const struct plan *p, const tracerd_ctf_field_t *f)
{
    for (uint32_t i = 0; i < p->nids; i++)
        note_id(m, &f[p->id[i].rec], p->id[i].kind);
}

/* Argument j of plan p from batch f (p's records). */
static inline void plan_value(struct cmap *m, const struct plan *p, uint32_t j,
                              const tracerd_ctf_field_t *f, tracerd_event_arg_t *o)
{
    const tracerd_ctf_field_t *r = &f[p->arg[j].rec];
    memset(o, 0, sizeof *o);
    o->name = p->arg[j].name;
    if (p->arg[j].op == PLAN_NUMBER) {
        o->type = p->arg[j].type;
        o->v.u = r->v.u; /* v.i, v.u and v.f: the same 8 bytes (a static_assert above) */
    } else if (p->arg[j].op == PLAN_BYTES) {
        o->type = TRACERD_EVENT_ARG_BYTES;
        o->v.bytes.data = (const uint8_t *)keep(m, m->text, CTF_TEXT, &m->text_len, r->bytes.data,
                                                r->bytes.len, &o->v.bytes.len);
    } else {
        scalar_value(m, o, r);
    }
}

/* Batch f[0, n) mapped by plan p (its records are p's). */
static void plan_run(struct cmap *m, const struct plan *p, const tracerd_ctf_field_t *f)
{
    plan_ids(m, p, f);
    for (uint32_t j = 0; j < p->nargs; j++)
        plan_value(m, p, j, f, &m->args[j]);
    m->nargs = p->nargs;
}

/* Maps f[0, n) record by record into a new plan of (m->cls, n), kept when
 * the batch allows one (struct plan). */
static int plan_make(struct cmap *m, const tracerd_ctf_field_t *f, size_t n)
{
    size_t h = tracerd__ctf_plan_set(m->cls, n);
    unsigned way = m->plan_older[h];
    m->plan_older[h] = (uint8_t)(way ^ 1u);
    struct plan *p = &m->plans[2 * h + way];
    p->cls = NULL;
    p->n = (uint32_t)n;
    p->nchecks = p->nargs = p->nids = 0;
    ctf_rec0_make(&p->rec0, &f[0]);
    m->making = p;
    m->plan_ok = n <= UINT16_MAX && f[0].depth == 0 && f[n - 1].depth == 0;
    int ret = TRACERD_CB_CONTINUE;
    size_t i = 0; /* the next record to map */
    while (m->plan_ok && i < n) {
        const tracerd_ctf_field_t *r = &f[i];
        unsigned chk = ctf_check_kind(r);
        if (r->frag != (TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST) ||
            (chk != CTF_CHK_NONE &&
             (p->nchecks == PLAN_CHECKS || (chk == CTF_CHK_OPTION && i + 1 == n)))) {
            m->plan_ok = false;
            break;
        }
        if (chk != CTF_CHK_NONE)
            ctf_check_make(&p->check[p->nchecks++], f, i, chk);
        uint32_t before = m->nargs;
        m->rec = (uint32_t)i++;
        int rc = on_field(m, r);
        if (rc != TRACERD_CB_CONTINUE || m->collect_depth != 0 || m->nargs > PLAN_ARGS) {
            m->plan_ok = false;
            ret = rc;
            if (rc < 0) {
                m->making = NULL;
                return rc;
            }
            break;
        }
        for (uint32_t j = before; j < m->nargs; j++) {
            p->arg[j].rec = (uint16_t)m->rec;
            tracerd_event_arg_type_t t = m->args[j].type;
            bool number =
                (t == TRACERD_EVENT_ARG_INT || t == TRACERD_EVENT_ARG_UINT ||
                 t == TRACERD_EVENT_ARG_DOUBLE) &&
                r->type != NULL && r->type->nmappings == 0 &&
                (r->type->kind == TRACERD_CTF_TYPE_INT || r->type->kind == TRACERD_CTF_TYPE_FLOAT);
            p->arg[j].op = t == TRACERD_EVENT_ARG_BYTES ? PLAN_BYTES
                           : number                     ? PLAN_NUMBER
                                                        : PLAN_SCALAR;
            p->arg[j].type = t;
            p->arg[j].name = m->args[j].name;
        }
    }
    m->making = NULL;
    if (m->plan_ok) { /* the whole batch mapped: kept if it left nothing behind */
        if ((m->ev.flags & TRACERD_EVENT_TRUNCATED) != 0 || !m->in_event || m->skip_depth != 0 ||
            m->names_len > PLAN_NAMES)
            return ret;
        memcpy(p->names, m->names, m->names_len);
        for (uint32_t j = 0; j < m->nargs; j++) {
            const char *a = p->arg[j].name.data;
            if (a >= m->names && a < m->names + m->names_len)
                p->arg[j].name.data = p->names + (a - m->names);
        }
        p->nargs = m->nargs;
        p->gen = ++m->plan_gen;
        p->cls = m->cls;
        m->used = p;
        return ret;
    }
    /* no plan: the rest of the batch record by record */
    int rc = i < n ? fields_each(m, f + i, n - i) : TRACERD_CB_CONTINUE;
    return rc != TRACERD_CB_CONTINUE ? rc : ret;
}

/* Can the event's next batch be mapped by a plan (nothing of the event
 * mapped yet, no filter to test it mid-way)? */
static inline bool plan_ready(const struct cmap *m)
{
    return !(m->filtered || m->no_args || m->cls == NULL || !m->in_event || m->nargs != 0 ||
             m->text_len != 0 || m->names_len != 0 || m->skip_depth != 0 || m->collect_depth != 0 ||
             m->frag_arg != UINT32_MAX);
}

/* The plan of the event's class that batch f[0, n) matches, or NULL. */
static inline const struct plan *plan_find(const struct cmap *m, const tracerd_ctf_field_t *f,
                                           size_t n)
{
    return tracerd__ctf_plan_find(m->plans, m->cls, f, n);
}

/* The fields in batches (on_fields): each as on_field, or by a plan. A
 * positive return (a pause after the event) lets the event's later records
 * be mapped, as they would be one by one; a negative one stops at its
 * record. */
static int on_fields(void *user, const tracerd_ctf_field_t *f, size_t n)
{
    struct cmap *m = user;
    m->used = NULL;
    if (!plan_ready(m))
        return fields_each(m, f, n);
    const struct plan *p = plan_find(m, f, n);
    if (p != NULL) {
        plan_run(m, p, f);
        m->used = p;
        return TRACERD_CB_CONTINUE;
    }
    return plan_make(m, f, n);
}

static tracerd_str_t hex_name(char *buf, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    size_t n = 0;
    do {
        tmp[n++] = digits[v & 15];
        v >>= 4;
    } while (v != 0);
    size_t k = 0;
    buf[k++] = '0';
    buf[k++] = 'x';
    while (n > 0)
        buf[k++] = tmp[--n];
    tracerd_str_t s = {buf, k};
    return s;
}

static int on_event_end(void *user, const tracerd_ctf_event_t *e)
{
    struct cmap *m = user;
    (void)e;
    if (!m->in_event)
        return TRACERD_CB_CONTINUE;
    m->in_event = false;
    uint32_t cap;
    m->ev.args = tracerd__auto_args(m->a, &cap);
    m->ev.nargs = m->nargs;
    if (m->span != 0 && m->has_addr) {
        m->ev.kind = m->span == 1 ? TRACERD_EVENT_SPAN_BEGIN : TRACERD_EVENT_SPAN_END;
        m->ev.name_id = m->addr;
        m->ev.flags |= TRACERD_EVENT_HAS_NAME_ID;
        m->ev.name = hex_name(m->name_buf, m->addr);
    }
    return m->checked ? tracerd__auto_deliver(m->a, &m->ev) : tracerd__auto_emit(m->a, &m->ev);
}

static int on_loss(void *user, const tracerd_ctf_loss_t *l)
{
    struct cmap *m = user;
    static const tracerd_str_t n_ev = {"events discarded", 16}, n_pk = {"packets lost", 12},
                               n_count = {"count", 5}, n_stream = {"stream_id", 9};
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.offset = l->offset;
    ev.kind = TRACERD_EVENT_MARK;
    ev.flags = TRACERD_EVENT_NO_TIME;
    ev.name = l->kind == TRACERD_CTF_LOSS_EVENTS ? n_ev : n_pk;
    ev.category = cstr("ctf");
    uint32_t cap;
    tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
    uint32_t n = 0;
    if (cap >= 2) {
        args[0].name = n_count;
        args[0].type = TRACERD_EVENT_ARG_UINT;
        args[0].v.u = l->count;
        args[1].name = n_stream;
        args[1].type = TRACERD_EVENT_ARG_UINT;
        args[1].v.u = l->stream_id;
        n = 2;
    }
    ev.args = args;
    ev.nargs = n;
    return tracerd__auto_emit(m->a, &ev);
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    struct cmap *m = user;
    return tracerd__auto_warning(m->a, w);
}

static void callbacks(tracerd_ctf_callbacks_t *cbs)
{
    tracerd_ctf_callbacks_init(cbs); /* sets size: on_fields is after it */
    cbs->on_packet_begin = on_packet;
    cbs->on_event_begin = on_event_begin;
    cbs->on_event_end = on_event_end;
    cbs->on_fields = on_fields;
    cbs->on_loss = on_loss;
    cbs->on_warning = on_warning;
}

static tracerd_status_t fail(struct cmap *m, tracerd_status_t st, uint64_t off, const char *why)
{
    m->own_error = true;
    return tracerd__error_set(&m->err, st, off, "%s", why);
}

static tracerd_status_t c_open(tracerd_auto_reader_t *a, const tracerd_auto_config_t *cfg,
                               const tracerd_allocator_t *alloc, void **map, void **reader)
{
    struct cmap *m = tracerd__calloc(alloc, sizeof *m);
    if (m == NULL)
        return TRACERD_E_NOMEM;
    m->a = a;
    m->alloc = alloc;
    tracerd_ctf_stream_config_init(&m->scfg);
    tracerd_status_t st = TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &m->scfg, cfg->ctf);
    if (st == TRACERD_OK)
        st = tracerd_ctf_metadata_new(NULL, alloc, &m->meta);
    m->no_args = cfg->no_args;
    m->filtered = tracerd__auto_filter(a) != NULL;
    if (st != TRACERD_OK) {
        tracerd__free(alloc, m, sizeof *m);
        return st;
    }
    *map = NULL; /* the mapping is the reader (metadata, then the stream): see c_ops */
    *reader = m;
    return TRACERD_OK;
}

static void c_free(void *r)
{
    struct cmap *m = r;
    if (m == NULL)
        return;
    tracerd_ctf_stream_free(m->rd);
    tracerd_ctf_trace_free(m->trace);
    tracerd_ctf_metadata_free(m->meta);
    tracerd__free(m->alloc, m, sizeof *m);
}

static tracerd_status_t c_metadata(void *r, const void *data, size_t len)
{
    struct cmap *m = r;
    tracerd_status_t st = tracerd_ctf_metadata_feed(m->meta, data, len);
    if (st == TRACERD_OK)
        st = tracerd_ctf_metadata_finish(m->meta, &m->trace);
    if (st != TRACERD_OK) {
        m->own_error = true;
        return tracerd__error_set(&m->err, st, tracerd_ctf_metadata_record_offset(m->meta),
                                  "metadata: %s", tracerd_ctf_metadata_error_reason(m->meta));
    }
    tracerd_ctf_callbacks_t cbs;
    callbacks(&cbs);
    if (m->no_args)
        m->scfg.field_scopes = no_args_scopes(m->trace);
    else if (m->scfg.field_scopes == 0)
        m->scfg.field_scopes = args_scopes;
    st = tracerd_ctf_stream_new(m->trace, &m->scfg, &cbs, m, m->alloc, &m->rd);
    if (st != TRACERD_OK)
        return fail(m, st, 0, "stream: cannot create the CTF stream reader");
    m->meta_given = true;
    return TRACERD_OK;
}

static tracerd_status_t c_feed(void *r, const void *data, size_t len, size_t *consumed)
{
    struct cmap *m = r;
    *consumed = 0;
    if (m->own_error)
        return m->err.status;
    if (m->rd != NULL)
        return tracerd_ctf_stream_feed(m->rd, data, len, consumed);
    if (len == 0)
        return TRACERD_OK;
    if (!m->meta_mode) {
        if (!is_metadata(data, len))
            return fail(m, TRACERD_E_METADATA, 0,
                        "stream: a CTF data stream needs its metadata (tracerd_auto_metadata, "
                        "or tracerd --metadata PATH)");
        m->meta_mode = true;
    }
    tracerd_status_t st = tracerd_ctf_metadata_feed(m->meta, data, len);
    if (st != TRACERD_OK) {
        m->own_error = true;
        return tracerd__error_set(&m->err, st, tracerd_ctf_metadata_record_offset(m->meta),
                                  "metadata: %s", tracerd_ctf_metadata_error_reason(m->meta));
    }
    *consumed = len;
    return TRACERD_OK;
}

static tracerd_status_t c_resume(void *r)
{
    struct cmap *m = r;
    if (m->rd != NULL)
        return tracerd_ctf_stream_resume(m->rd);
    if (!m->finish_paused)
        return TRACERD_E_INVALID;
    m->finish_paused = false;
    return TRACERD_OK;
}

static tracerd_status_t c_finish(void *r)
{
    struct cmap *m = r;
    if (m->own_error)
        return m->err.status;
    if (m->rd != NULL)
        return tracerd_ctf_stream_finish(m->rd);
    if (m->meta_finished)
        return m->finish_paused ? TRACERD_E_INVALID : TRACERD_OK;
    /* Metadata alone: parse it (its errors are real errors), no events. */
    tracerd_status_t st = tracerd_ctf_metadata_finish(m->meta, &m->trace);
    if (st != TRACERD_OK) {
        m->own_error = true;
        return tracerd__error_set(&m->err, st, tracerd_ctf_metadata_record_offset(m->meta),
                                  "metadata: %s", tracerd_ctf_metadata_error_reason(m->meta));
    }
    int rc = send_source(m);
    if (rc < 0)
        return fail(m, TRACERD_E_CALLBACK, 0, "a callback returned an error");
    m->meta_finished = true;
    m->finish_paused = rc > 0; /* core.h: any positive value pauses */
    return m->finish_paused ? TRACERD_PAUSED : TRACERD_OK;
}

static uint64_t c_offset(const void *r)
{
    const struct cmap *m = r;
    return m->rd != NULL ? tracerd_ctf_stream_offset(m->rd) : tracerd_ctf_metadata_offset(m->meta);
}

static uint64_t c_record_offset(const void *r)
{
    const struct cmap *m = r;
    if (m->own_error || m->rd == NULL)
        return m->err.offset;
    return tracerd_ctf_stream_record_offset(m->rd);
}

static const char *c_error_reason(const void *r)
{
    const struct cmap *m = r;
    if (m->own_error || m->rd == NULL)
        return m->err.reason;
    return tracerd_ctf_stream_error_reason(m->rd);
}

static int c_callback_error(const void *r)
{
    const struct cmap *m = r;
    return m->rd != NULL ? tracerd_ctf_stream_callback_error(m->rd) : 0;
}

/* The mapping is itself the reader the auto reader drives (metadata first,
 * then the CTF stream reader it makes): its own table, made like the
 * readers' public ones but without new_reader and reset (auto.c uses
 * neither). */
static const tracerd_reader_ops_t *c_ops(void)
{
    static const tracerd_reader_ops_t ops = {
        .size = sizeof(tracerd_reader_ops_t),
        .name = "ctf-event-mapping",
        .feed = c_feed,
        .resume = c_resume,
        .finish = c_finish,
        .free = c_free,
        .offset = c_offset,
        .record_offset = c_record_offset,
        .error_reason = c_error_reason,
        .callback_error = c_callback_error,
    };
    return &ops;
}

const struct tracerd__event_backend tracerd__event_backend_ctf = {
    .format = TRACERD_EVENT_FORMAT_CTF,
    .name = "ctf",
    .detect = tracerd_ctf_detect,
    .open = c_open,
    .ops = c_ops,
    .close = NULL,
    .finished = NULL,
    .metadata = c_metadata,
    .memory_bound = NULL, /* depends on the metadata: tracerd_ctf_stream_memory_bound */
};

/* ---- the mapping for a client that reads CTF itself (ctf_args.h) ------------ */

/* A mapping of its own: the allocator it was made with, its arguments. */
struct args_own {
    tracerd_allocator_t alloc;
    uint32_t max_args;
    struct cmap m;
};

static struct args_own *args_own(tracerd__ctf_args_t *m)
{
    return (struct args_own *)(void *)((char *)m - offsetof(struct args_own, m));
}

tracerd__ctf_args_t *tracerd__ctf_args_new(const tracerd_allocator_t *alloc, uint32_t max_args)
{
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, alloc);
    struct args_own *o = tracerd__calloc(&a, sizeof *o);
    if (o == NULL)
        return NULL;
    o->alloc = a;
    o->max_args = max_args;
    o->m.alloc = &o->alloc;
    o->m.frag_arg = UINT32_MAX;
    o->m.args = tracerd__calloc(&o->alloc, (size_t)max_args * sizeof *o->m.args);
    if (o->m.args == NULL && max_args > 0) {
        tracerd__free(&a, o, sizeof *o);
        return NULL;
    }
    o->m.cap = max_args;
    return &o->m;
}

void tracerd__ctf_args_free(tracerd__ctf_args_t *m)
{
    if (m == NULL)
        return;
    struct args_own *o = args_own(m);
    tracerd_allocator_t a = o->alloc;
    tracerd__free(&a, m->args, (size_t)o->max_args * sizeof *m->args);
    tracerd__free(&a, o, sizeof *o);
}

void tracerd__ctf_args_begin(tracerd__ctf_args_t *m, const void *cls, int span)
{
    event_reset(m, cls);
    m->checked = true; /* no filter */
    m->span = span;
    m->ev.flags = 0;
    m->ev.tid = m->ev.pid = 0;
    m->used = NULL;
}

const struct plan *tracerd__ctf_args_find(tracerd__ctf_args_t *m, const tracerd_ctf_field_t *f,
                                          size_t n)
{
    return plan_ready(m) ? plan_find(m, f, n) : NULL;
}

void tracerd__ctf_args_planned(tracerd__ctf_args_t *m, const struct plan *p,
                               const tracerd_ctf_field_t *f, tracerd__ctf_args_out_t *out)
{
    plan_ids(m, p, f);
    m->nargs = p->nargs;
    m->used = p;
    tracerd__ctf_args_result(m, out);
}

void tracerd__ctf_args_value(tracerd__ctf_args_t *m, const struct plan *p, uint32_t j,
                             const tracerd_ctf_field_t *f, tracerd_event_arg_t *o)
{
    plan_value(m, p, j, f, o);
}

void tracerd__ctf_args_fields(tracerd__ctf_args_t *m, const tracerd_ctf_field_t *f, size_t n)
{
    (void)on_fields(m, f, n); /* no callback of its own: nothing to stop or pause */
}

const struct plan *tracerd__ctf_args_used(const tracerd__ctf_args_t *m)
{
    return m->used;
}

const struct plan *tracerd__ctf_args_plans(const tracerd__ctf_args_t *m)
{
    return m->plans;
}

void tracerd__ctf_args_after(tracerd__ctf_args_t *m, const void *cls, int span,
                             const struct plan *p, size_t text)
{
    tracerd__ctf_args_begin(m, cls, span);
    m->nargs = p->nargs;
    m->used = p;
    m->text_len = text < CTF_TEXT ? text : CTF_TEXT;
}

void tracerd__ctf_args_result(const tracerd__ctf_args_t *m, tracerd__ctf_args_out_t *out)
{
    out->args = m->args;
    out->nargs = m->nargs;
    out->flags = m->ev.flags;
    out->tid = m->ev.tid;
    out->pid = m->ev.pid;
    out->has_addr = m->has_addr;
    out->addr = m->addr;
}

/* ---- directories ---------------------------------------------------------- */

struct tracerd_event_dir {
    tracerd_allocator_t alloc;
    tracerd_auto_reader_t *sink; /* emits events to the user's callbacks */
    struct cmap *m;
};

tracerd_status_t tracerd_event_dir_open(const char *path, const tracerd_auto_config_t *cfg,
                                        const tracerd_event_callbacks_t *cbs, void *user,
                                        const tracerd_allocator_t *alloc, tracerd_event_dir_t **out)
{
    if (out == NULL || path == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_auto_config_t sc;
    tracerd_auto_config_init(&sc);
    if (TRACERD__SIZED_READ(tracerd_auto_config_t, &sc, cfg) != TRACERD_OK)
        return TRACERD_E_INVALID;
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, alloc);
    tracerd_event_dir_t *d = tracerd__calloc(&a, sizeof *d);
    if (d == NULL)
        return TRACERD_E_NOMEM;
    d->alloc = a;
    const tracerd_ctf_dir_config_t *dcfg = sc.ctf_dir;
    const tracerd_ctf_stream_config_t *scfg = sc.ctf;
    sc.format = TRACERD_EVENT_FORMAT_UNKNOWN;
    sc.ctf = NULL;
    tracerd_status_t st = tracerd_auto_new(&sc, cbs, user, &d->alloc, &d->sink);
    if (st == TRACERD_OK) {
        tracerd__auto_bind(d->sink, TRACERD_EVENT_FORMAT_CTF);
        d->m = tracerd__calloc(&d->alloc, sizeof *d->m);
        st = d->m != NULL ? TRACERD_OK : TRACERD_E_NOMEM;
    }
    if (st == TRACERD_OK) {
        d->m->a = d->sink;
        d->m->alloc = &d->alloc;
        d->m->filtered = tracerd__auto_filter(d->sink) != NULL;
        tracerd_ctf_callbacks_t ccb;
        callbacks(&ccb);
        tracerd_ctf_dir_config_t dc;
        tracerd_ctf_dir_config_init(&dc);
        tracerd_ctf_stream_config_t ds; /* the stream config, of dcfg's or scfg */
        tracerd_ctf_stream_config_init(&ds);
        if (dcfg != NULL)
            st = TRACERD__SIZED_READ(tracerd_ctf_dir_config_t, &dc, dcfg);
        if (st == TRACERD_OK)
            st = TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &ds,
                                     dcfg != NULL ? dc.stream : scfg);
        dc.stream = &ds;
        d->m->no_args = sc.no_args;
        if (sc.no_args) /* contexts only, unless a trace has function events */
            ds.field_scopes = no_args_scopes_none;
        else if (ds.field_scopes == 0)
            ds.field_scopes = args_scopes;
        if (st == TRACERD_OK)
            st = tracerd_ctf_dir_open(path, &dc, &ccb, d->m, &d->alloc, &d->m->dir);
        uint32_t want = ds.field_scopes;
        for (uint32_t i = 0;
             sc.no_args && st == TRACERD_OK && i < tracerd_ctf_dir_trace_count(d->m->dir); i++)
            want |= no_args_scopes(tracerd_ctf_dir_trace(d->m->dir, i));
        if (st == TRACERD_OK && want != ds.field_scopes) {
            /* opened again with the payloads (the readers were made for a config) */
            tracerd_ctf_dir_free(d->m->dir);
            d->m->dir = NULL;
            ds.field_scopes = want;
            st = tracerd_ctf_dir_open(path, &dc, &ccb, d->m, &d->alloc, &d->m->dir);
        }
    }
    if (st == TRACERD_OK) {
        uint32_t n = tracerd_ctf_dir_stream_count(d->m->dir);
        d->m->stream_cpu = tracerd__calloc(&d->alloc, sizeof *d->m->stream_cpu * (n + 1u));
        if (d->m->stream_cpu == NULL)
            st = TRACERD_E_NOMEM;
        else
            d->m->nstream_cpu = n;
        for (uint32_t i = 0; i < d->m->nstream_cpu; i++)
            d->m->stream_cpu[i] = -1;
    }
    *out = d;
    return st;
}

tracerd_status_t tracerd_event_dir_run(tracerd_event_dir_t *d)
{
    if (d == NULL || d->m == NULL || d->m->dir == NULL)
        return TRACERD_E_INVALID;
    tracerd_status_t st = tracerd_ctf_dir_run(d->m->dir);
    /* The filter's end stopped the reading: the callback's abort is the end. */
    return st == TRACERD_E_CALLBACK && tracerd_auto_done(d->sink) ? TRACERD_OK : st;
}

bool tracerd_event_dir_done(const tracerd_event_dir_t *d)
{
    return d != NULL && tracerd_auto_done(d->sink);
}

const char *tracerd_event_dir_error_path(const tracerd_event_dir_t *d)
{
    if (d == NULL || d->m == NULL || d->m->dir == NULL)
        return "";
    const char *p = tracerd_ctf_dir_error_path(d->m->dir);
    return p != NULL ? p : "";
}

uint64_t tracerd_event_dir_error_offset(const tracerd_event_dir_t *d)
{
    return d != NULL && d->m != NULL && d->m->dir != NULL ? tracerd_ctf_dir_error_offset(d->m->dir)
                                                          : 0;
}

const char *tracerd_event_dir_error_reason(const tracerd_event_dir_t *d)
{
    if (d == NULL || d->m == NULL || d->m->dir == NULL)
        return "";
    const char *p = tracerd_ctf_dir_error_reason(d->m->dir);
    return p != NULL ? p : "";
}

void tracerd_event_dir_free(tracerd_event_dir_t *d)
{
    if (d == NULL)
        return;
    tracerd_allocator_t a = d->alloc;
    if (d->m != NULL) {
        tracerd_ctf_dir_free(d->m->dir);
        tracerd__free(&a, d->m->stream_cpu, sizeof *d->m->stream_cpu * (d->m->nstream_cpu + 1u));
        tracerd__free(&a, d->m, sizeof *d->m);
    }
    tracerd_auto_free(d->sink);
    tracerd__free(&a, d, sizeof *d);
}
