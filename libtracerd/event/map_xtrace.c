/* xtrace onto events. An xtrace instruction stream has no magic number and
 * its snapshot header's identifier value is not published
 * (specs/xtrace-notes.md 3.2), so content detection would only guess: the
 * format is selected explicitly (tracerd_auto_config_t.format, or
 * `tracerd --format xtrace`), and the input is an instruction stream
 * (.xinsndata.bin).
 *
 * xtrace has no clock: the timeline is the instruction count (ticks = the
 * number of instructions executed before the record; no nanoseconds).
 * Mapping:
 *   SVCARG tokens (x8 = the number, then x0..x5) up to the SVCRET token
 *       -> one SPAN_COMPLETE "syscall#<nr>" from the first argument to the
 *          return, arguments nr, x0..x5 (those present) and ret;
 *   exception-level changes of the instruction tokens -> SPAN_BEGIN "el<N>"
 *       when the level rises above 0, SPAN_END when it returns to 0;
 *   TIME tokens -> MARK "time" with the value;
 *   SYSCALL_VEC -> INSTANT "syscall_vec" with the iovec count.
 * Left out (no meaning on a timeline): the instructions themselves, memory
 * accesses, the other VAL tokens, ALLGPR and flag dumps, iovec contents,
 * opaque tokens. Snapshot files (.xsnapshot.bin) are not read as events. */
#include "event_internal.h"

/* An instruction stream has no magic number: never detected by content
 * (tracerd_xtrace_detect recognises snapshot files, which are not events);
 * the format is forced (the CLI does it from the file name). */
static int detect(const void *h, size_t n)
{
    (void)h;
    (void)n;
    return 0;
}

#include <tracerd/xtrace.h>

struct xtmap {
    tracerd_auto_reader_t *a;
    tracerd_xtrace_insn_reader_t *rd;
    const tracerd_allocator_t *alloc;
    bool source_sent;
    uint8_t el;        /* exception level of the latest instruction */
    uint64_t el_since; /* insn count when it rose above 0 */
    uint32_t nsvc;     /* SVCARG values collected */
    uint64_t svc[7];
    uint64_t svc_start; /* insn count of the first SVCARG */
    uint64_t svc_offset;
    char name_buf[32];
    bool has_tid; /* the file name gave the thread (or CPU) id */
    uint64_t tid;
};

static const tracerd_str_t cat = {"xtrace", 6};

static int send_source(struct xtmap *m)
{
    if (m->source_sent)
        return TRACERD_CB_CONTINUE;
    m->source_sent = true;
    tracerd_event_source_t src;
    memset(&src, 0, sizeof src);
    src.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    return tracerd__auto_source(m->a, &src);
}

static int emit(struct xtmap *m, tracerd_event_t *ev)
{
    if (m->has_tid) {
        ev->tid = m->tid;
        ev->flags |= TRACERD_EVENT_HAS_TID;
    }
    int rc = send_source(m);
    if (rc < 0)
        return rc;
    int rc2 = tracerd__auto_emit(m->a, ev);
    return rc2 < 0 ? rc2 : (rc2 > 0 || rc > 0) ? TRACERD_CB_PAUSE : TRACERD_CB_CONTINUE;
}

static tracerd_str_t num_name(char *buf, const char *prefix, uint64_t v)
{
    char d[20];
    size_t n = 0, k = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (prefix[k] != '\0') {
        buf[k] = prefix[k];
        k++;
    }
    while (n > 0)
        buf[k++] = d[--n];
    tracerd_str_t s = {buf, k};
    return s;
}

static int on_insn(void *user, const tracerd_xtrace_insn_t *i)
{
    struct xtmap *m = user;
    if (i->el == m->el)
        return TRACERD_CB_CONTINUE; /* the common case: nothing to say */
    tracerd_event_t ev = tracerd__event_zero;
    ev.offset = i->offset;
    ev.ticks = i->index;
    ev.category = cat;
    uint8_t was = m->el;
    m->el = i->el;
    if (was == 0) {
        ev.kind = TRACERD_EVENT_SPAN_BEGIN;
        ev.name = num_name(m->name_buf, "el", i->el);
        return emit(m, &ev);
    }
    if (i->el == 0) {
        ev.kind = TRACERD_EVENT_SPAN_END;
        ev.name = num_name(m->name_buf, "el", was);
        return emit(m, &ev);
    }
    return TRACERD_CB_CONTINUE; /* EL1 <-> EL2: still out of user mode */
}

static int on_val(void *user, const tracerd_xtrace_val_t *v)
{
    static const tracerd_str_t names[] = {{"nr", 2}, {"x0", 2}, {"x1", 2}, {"x2", 2},
                                          {"x3", 2}, {"x4", 2}, {"x5", 2}};
    static const tracerd_str_t n_ret = {"ret", 3};
    struct xtmap *m = user;
    if (v->kind == TRACERD_XTRACE_VAL_SVCARG) {
        if (m->nsvc == 0) {
            m->svc_start = v->insn_count;
            m->svc_offset = v->offset;
        }
        if (m->nsvc < 7)
            m->svc[m->nsvc++] = v->value;
        return TRACERD_CB_CONTINUE;
    }
    if (v->kind != TRACERD_XTRACE_VAL_SVCRET)
        return TRACERD_CB_CONTINUE;
    tracerd_event_t ev = tracerd__event_zero;
    ev.kind = TRACERD_EVENT_SPAN_COMPLETE;
    ev.category = cat;
    bool have_args = m->nsvc > 0;
    ev.offset = have_args ? m->svc_offset : v->offset;
    ev.ticks = have_args ? m->svc_start : v->insn_count;
    ev.end_ticks = v->insn_count;
    if (have_args) {
        ev.name = num_name(m->name_buf, "syscall#", m->svc[0]);
        ev.name_id = m->svc[0];
        ev.flags |= TRACERD_EVENT_HAS_NAME_ID;
    } else {
        static const tracerd_str_t n_sys = {"syscall", 7};
        ev.name = n_sys;
    }
    uint32_t cap, n = 0;
    tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
    for (uint32_t i = 0; i < m->nsvc && n < cap; i++, n++) {
        args[n].name = names[i];
        args[n].type = TRACERD_EVENT_ARG_UINT;
        args[n].v.u = m->svc[i];
    }
    if (n < cap) {
        args[n].name = n_ret;
        args[n].type = TRACERD_EVENT_ARG_INT;
        args[n++].v.i = (int64_t)v->value;
    } else {
        ev.flags |= TRACERD_EVENT_TRUNCATED;
    }
    ev.args = args;
    ev.nargs = n;
    m->nsvc = 0;
    return emit(m, &ev);
}

/* A mark or instant with one unsigned argument (TIME, SYSCALL_VEC). */
static int one_uint(struct xtmap *m, tracerd_event_kind_t kind, uint64_t offset, uint64_t ticks,
                    tracerd_str_t name, tracerd_str_t arg, uint64_t value)
{
    tracerd_event_t ev = tracerd__event_zero;
    ev.offset = offset;
    ev.kind = kind;
    ev.ticks = ticks;
    ev.category = cat;
    ev.name = name;
    uint32_t cap;
    tracerd_event_arg_t *args = tracerd__auto_args(m->a, &cap);
    if (cap > 0) {
        args[0].name = arg;
        args[0].type = TRACERD_EVENT_ARG_UINT;
        args[0].v.u = value;
        ev.args = args;
        ev.nargs = 1;
    }
    return emit(m, &ev);
}

static int on_time(void *user, const tracerd_xtrace_time_t *t)
{
    static const tracerd_str_t n_time = {"time", 4}, n_value = {"value", 5};
    return one_uint(user, TRACERD_EVENT_MARK, t->offset, t->insn_count, n_time, n_value, t->value);
}

static int on_syscall_vec(void *user, const tracerd_xtrace_syscall_vec_t *s)
{
    static const tracerd_str_t n_vec = {"syscall_vec", 11}, n_count = {"count", 5};
    return one_uint(user, TRACERD_EVENT_INSTANT, s->offset, s->insn_count, n_vec, n_count,
                    s->count);
}

static int on_warning(void *user, const tracerd_warning_t *w)
{
    struct xtmap *m = user;
    return tracerd__auto_warning(m->a, w);
}

static tracerd_status_t t_open(tracerd_auto_reader_t *a, const tracerd_auto_config_t *cfg,
                               const tracerd_allocator_t *alloc, void **out, void **reader)
{
    struct xtmap *m = tracerd__calloc(alloc, sizeof *m);
    if (m == NULL)
        return TRACERD_E_NOMEM;
    m->a = a;
    m->alloc = alloc;
    tracerd_xtrace_filename_t fn;
    if (cfg->source_name != NULL &&
        tracerd_xtrace_parse_filename(cfg->source_name, &fn) == TRACERD_OK &&
        fn.kind == TRACERD_XTRACE_FILE_INSNDATA) {
        m->has_tid = true;
        m->tid = fn.id;
    }
    tracerd_xtrace_insn_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.on_insn = on_insn;
    cbs.on_val = on_val;
    cbs.on_time = on_time;
    cbs.on_syscall_vec = on_syscall_vec;
    cbs.on_warning = on_warning;
    tracerd_status_t st = tracerd_xtrace_insn_new(cfg->xtrace, &cbs, m, alloc, &m->rd);
    if (st != TRACERD_OK) {
        tracerd__free(alloc, m, sizeof *m);
        return st;
    }
    *out = m;
    *reader = m->rd;
    return TRACERD_OK;
}

static void t_close(void *map)
{
    struct xtmap *m = map;
    tracerd__free(m->alloc, m, sizeof *m);
}

/* A stream without an instruction still reports its source, at the end. */
static int t_finished(void *map)
{
    struct xtmap *m = map;
    return m->source_sent ? TRACERD_CB_CONTINUE : send_source(m);
}

static size_t t_memory_bound(const tracerd_auto_config_t *cfg)
{
    return sizeof(struct xtmap) + tracerd_xtrace_insn_memory_bound(cfg->xtrace);
}

const struct tracerd__event_backend tracerd__event_backend_xtrace = {
    .format = TRACERD_EVENT_FORMAT_XTRACE,
    .name = "xtrace",
    .detect = detect,
    .open = t_open,
    .ops = tracerd_xtrace_insn_ops,
    .close = t_close,
    .finished = t_finished,
    .metadata = NULL,
    .memory_bound = t_memory_bound,
};
