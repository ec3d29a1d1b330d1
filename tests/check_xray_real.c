/* XRay against reality: traces recorded from programs built with Debian 12's
 * clang 14 -fxray-instrument (tests/xray/record.sh), decoded by our reader
 * through every chunking, pause and allocation-failure strategy of the shared
 * driver, and compared record by record with the output of
 * `llvm-xray convert --output-format=yaml` stored beside each trace.
 *
 * Single-buffer traces (one thread): every record must match llvm-xray's in
 * order (function id, kind, TSC, thread, process, CPU, arguments, event
 * payload). Multi-buffer traces: llvm-xray orders buffers its own way, so the
 * records are compared as sets, plus counts and per-thread enter/exit balance.
 * The full log of each trace is also kept as a golden file
 * (tests/data/xray/real/<name>.gold; TRACERD_UPDATE_GOLDEN=1 rewrites it). */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/tracerd.h>

#include "support/driver.h"
#include "support/xray_recorder.h"

#define REAL_DIR "tests/data/xray/real/"

/* ---- one comparable record: ours or llvm-xray's --------------------------- */

/* Kinds as llvm-xray names them. */
enum rkind { K_ENTER, K_EXIT, K_TAIL, K_ENTER_ARG, K_CUSTOM, K_TYPED, K_UNKNOWN };

static const char *const kind_names[] = {"function-enter", "function-exit", "function-tail-exit",
                                         "function-enter-arg", "custom-event", "typed-event",
                                         "unknown"};

#define MAX_ARGS 8

typedef struct item {
    enum rkind kind;
    int32_t fid;     /* functions only (llvm-xray gives events the last function's id) */
    uint64_t tsc;
    int64_t tid, pid;
    unsigned cpu;
    uint32_t nargs;
    uint64_t args[MAX_ARGS];
    char *data;      /* event payload (NUL-terminated copy); NULL for functions */
    size_t dlen;
    size_t seq;      /* position in its list */
} item_t;

typedef struct items {
    item_t *v;
    size_t n, cap;
} items_t;

static item_t *items_push(items_t *l)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        ck_assert_ptr_nonnull(l->v);
    }
    item_t *it = &l->v[l->n];
    memset(it, 0, sizeof *it);
    it->seq = l->n++;
    return it;
}

static void items_free(items_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].data);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static char *dup_bytes(const void *p, size_t n)
{
    char *s = malloc(n + 1);
    ck_assert_ptr_nonnull(s);
    if (n != 0)
        memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

/* Little-endian u64 from the raw file (the recorded traces are x86-64). */
static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* ---- our side: a plain whole-file decode into items ------------------------ */

typedef struct ours {
    items_t items;
    tracerd_xray_header_t hdr;
    bool have_header;
    size_t nbuffers, nwraps, nnewcpu, ncallargs;
    int32_t buffer_tids[256];
    uint64_t wrap_offsets[16];
    item_t *frag_target; /* event whose payload arrives in fragments */
} ours_t;

static int c_header(void *u, const tracerd_xray_header_t *h)
{
    ours_t *o = u;
    o->hdr = *h;
    o->have_header = true;
    return TRACERD_CB_CONTINUE;
}

static int c_buffer(void *u, const tracerd_xray_buffer_t *b)
{
    ours_t *o = u;
    if (o->nbuffers < 256)
        o->buffer_tids[o->nbuffers] = b->tid;
    o->nbuffers++;
    return TRACERD_CB_CONTINUE;
}

static int c_function(void *u, const tracerd_xray_function_t *f)
{
    ours_t *o = u;
    /* Nanoseconds are the TSC scaled by the header's frequency. */
    ck_assert_uint_eq(f->ns, tracerd_ticks_to_ns(f->tsc, o->hdr.cycle_frequency));
    item_t *it = items_push(&o->items);
    it->kind = (enum rkind)f->kind; /* same order: enter, exit, tail, enter-args */
    it->fid = f->function_id;
    it->tsc = f->tsc;
    it->tid = f->tid;
    it->pid = f->pid;
    it->cpu = f->cpu;
    ck_assert_uint_le(f->nargs, MAX_ARGS);
    it->nargs = f->nargs;
    for (uint32_t i = 0; i < f->nargs; i++)
        it->args[i] = f->args[i];
    return TRACERD_CB_CONTINUE;
}

static int c_event(void *u, const tracerd_xray_event_t *e)
{
    ours_t *o = u;
    ck_assert_uint_eq(e->ns, tracerd_ticks_to_ns(e->tsc, o->hdr.cycle_frequency));
    item_t *it = items_push(&o->items);
    it->kind = e->typed ? K_TYPED : K_CUSTOM;
    it->fid = -1;
    it->tsc = e->tsc;
    it->tid = e->tid;
    it->pid = e->pid;
    it->cpu = e->cpu;
    it->nargs = e->event_type; /* kept for the typed-event checks */
    if (e->payload.data != NULL) {
        it->data = dup_bytes(e->payload.data, e->payload.len);
        it->dlen = e->payload.len;
    } else {
        it->data = calloc(1, (size_t)e->size + 1);
        ck_assert_ptr_nonnull(it->data);
        it->dlen = e->size;
    }
    return TRACERD_CB_CONTINUE;
}

static int c_fragment(void *u, const tracerd_span_t *s)
{
    ours_t *o = u;
    ck_assert_uint_gt(o->items.n, 0);
    item_t *it = &o->items.v[o->items.n - 1];
    ck_assert_uint_le(s->offset + s->len, it->dlen);
    memcpy(it->data + s->offset, s->data, s->len);
    return TRACERD_CB_CONTINUE;
}

static int c_metadata(void *u, const tracerd_xray_metadata_t *m)
{
    ours_t *o = u;
    if (m->kind == TRACERD_XRAY_META_TSC_WRAP) {
        if (o->nwraps < 16)
            o->wrap_offsets[o->nwraps] = m->offset;
        o->nwraps++;
    } else if (m->kind == TRACERD_XRAY_META_NEW_CPU) {
        o->nnewcpu++;
    } else if (m->kind == TRACERD_XRAY_META_CALL_ARGUMENT) {
        o->ncallargs++;
    }
    return TRACERD_CB_CONTINUE;
}

/* Decodes the whole file in one feed; asserts it reads cleanly. */
static void decode_ours(const uint8_t *data, size_t len, ours_t *o)
{
    memset(o, 0, sizeof *o);
    tracerd_xray_callbacks_t cbs;
    memset(&cbs, 0, sizeof cbs);
    cbs.on_header = c_header;
    cbs.on_buffer = c_buffer;
    cbs.on_function = c_function;
    cbs.on_event = c_event;
    cbs.on_event_fragment = c_fragment;
    cbs.on_metadata = c_metadata;
    tracerd_xray_reader_t *r;
    ck_assert_int_eq(tracerd_xray_new(NULL, &cbs, o, NULL, &r), TRACERD_OK);
    size_t used = 0;
    tracerd_status_t st = tracerd_xray_feed(r, data, len, &used);
    ck_assert_msg(st == TRACERD_OK, "feed: %s @%" PRIu64 " %s", tracerd_status_name(st),
                  tracerd_xray_record_offset(r), tracerd_xray_error_reason(r));
    ck_assert_uint_eq(used, len);
    st = tracerd_xray_finish(r);
    ck_assert_msg(st == TRACERD_OK, "finish: %s @%" PRIu64 " %s", tracerd_status_name(st),
                  tracerd_xray_record_offset(r), tracerd_xray_error_reason(r));
    tracerd_xray_free(r);
    ck_assert(o->have_header);
}

/* ---- llvm-xray's side: its YAML, parsed minimally ------------------------- */

typedef struct theirs {
    items_t items;
    unsigned version, type;
    bool constant_tsc, nonstop_tsc;
    uint64_t freq;
} theirs_t;

/* Value after `key` (e.g. " tsc: ") within [s, end), or NULL. */
static const char *field(const char *s, const char *end, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = s; p + kl <= end; p++)
        if (memcmp(p, key, kl) == 0)
            return p + kl;
    return NULL;
}

static uint64_t num_field(const char *s, const char *end, const char *key, const char *line)
{
    const char *v = field(s, end, key);
    ck_assert_msg(v != NULL, "YAML record without%s: %s", key, line);
    char *e;
    uint64_t x = strtoull(v, &e, 10);
    ck_assert_msg(e != v, "YAML bad number for%s: %s", key, line);
    return x;
}

static int64_t snum_field(const char *s, const char *end, const char *key, const char *line)
{
    const char *v = field(s, end, key);
    ck_assert_msg(v != NULL, "YAML record without%s: %s", key, line);
    char *e;
    long long x = strtoll(v, &e, 10);
    ck_assert_msg(e != v, "YAML bad number for%s: %s", key, line);
    return (int64_t)x;
}

/* One flow-mapping record line: "  - { type: 0, func-id: 2, ..., data: ... }". */
static void parse_record(theirs_t *t, char *line)
{
    char *data = strstr(line, ", data: ");
    ck_assert_msg(data != NULL, "YAML record without data: %s", line);
    const char *s = line, *end = data;
    item_t *it = items_push(&t->items);
    it->fid = (int32_t)snum_field(s, end, " func-id: ", line);
    it->cpu = (unsigned)num_field(s, end, " cpu: ", line);
    it->tid = snum_field(s, end, " thread: ", line);
    it->pid = snum_field(s, end, " process: ", line);
    it->tsc = num_field(s, end, " tsc: ", line);
    const char *k = field(s, end, " kind: ");
    ck_assert_msg(k != NULL, "YAML record without kind: %s", line);
    size_t kl = strcspn(k, ",");
    it->kind = K_UNKNOWN;
    for (int i = 0; i < K_UNKNOWN; i++)
        if (strlen(kind_names[i]) == kl && memcmp(kind_names[i], k, kl) == 0)
            it->kind = (enum rkind)i;
    ck_assert_msg(it->kind != K_UNKNOWN, "YAML record of unknown kind: %s", line);
    const char *a = field(s, end, " args: [ ");
    if (a != NULL) {
        for (;;) {
            char *e;
            uint64_t x = strtoull(a, &e, 10);
            ck_assert_msg(e != a, "YAML bad argument list: %s", line);
            ck_assert_uint_lt(it->nargs, MAX_ARGS);
            it->args[it->nargs++] = x;
            a = e;
            if (a[0] == ',' && a[1] == ' ')
                a += 2;
            else
                break;
        }
    }
    /* data: the rest of the line up to " }": '' (empty), a plain scalar, or a
     * single-quoted one ('' inside stands for '). */
    char *v = data + strlen(", data: ");
    size_t vl = strlen(v);
    ck_assert_msg(vl >= 2 && strcmp(v + vl - 2, " }") == 0, "YAML record not closed: %s", line);
    vl -= 2;
    if (vl >= 2 && v[0] == '\'' && v[vl - 1] == '\'') {
        char *o = malloc(vl);
        ck_assert_ptr_nonnull(o);
        size_t n = 0;
        for (size_t i = 1; i + 1 < vl; i++) {
            o[n++] = v[i];
            if (v[i] == '\'' && v[i + 1] == '\'')
                i++;
        }
        o[n] = '\0';
        it->data = o;
        it->dlen = n;
    } else {
        it->data = dup_bytes(v, vl);
        it->dlen = vl;
    }
}

static void load_yaml(const char *name, theirs_t *t)
{
    char path[256];
    snprintf(path, sizeof path, REAL_DIR "%s.yaml", name);
    size_t len;
    uint8_t *raw = drv_read_file(path, &len);
    ck_assert_msg(raw != NULL, "cannot read %s (run from the repository root)", path);
    char *text = dup_bytes(raw, len);
    free(raw);
    memset(t, 0, sizeof *t);
    bool in_records = false;
    for (char *line = text, *next; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        if (strncmp(line, "  version:", 10) == 0)
            t->version = (unsigned)strtoul(line + 10, NULL, 10);
        else if (strncmp(line, "  type:", 7) == 0)
            t->type = (unsigned)strtoul(line + 7, NULL, 10);
        else if (strncmp(line, "  constant-tsc:", 15) == 0)
            t->constant_tsc = strstr(line, "true") != NULL;
        else if (strncmp(line, "  nonstop-tsc:", 14) == 0)
            t->nonstop_tsc = strstr(line, "true") != NULL;
        else if (strncmp(line, "  cycle-frequency:", 18) == 0)
            t->freq = strtoull(line + 18, NULL, 10);
        else if (strcmp(line, "records:") == 0)
            in_records = true;
        else if (in_records && strncmp(line, "  - { ", 6) == 0)
            parse_record(t, line);
    }
    ck_assert_msg(in_records, "%s: no records: section", path);
    free(text);
}

/* ---- comparisons ----------------------------------------------------------- */

static void describe(char *buf, size_t n, const item_t *it)
{
    int w = snprintf(buf, n, "#%zu %s fid=%d tsc=%" PRIu64 " tid=%" PRId64 " pid=%" PRId64
                             " cpu=%u nargs=%u",
                     it->seq, kind_names[it->kind], it->fid, it->tsc, it->tid, it->pid, it->cpu,
                     it->nargs);
    if (it->nargs > 0 && it->kind <= K_ENTER_ARG && w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " arg0=%" PRIu64, it->args[0]);
    else if (it->data != NULL && w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, " data=\"%.60s\"", it->data);
}

/* Same record? Event records: llvm-xray gives them the last function's id and
 * no arguments, so those are not compared. */
static bool same_item(const item_t *a, const item_t *b)
{
    if (a->kind != b->kind || a->tsc != b->tsc || a->tid != b->tid || a->pid != b->pid ||
        a->cpu != b->cpu)
        return false;
    if (a->kind == K_CUSTOM || a->kind == K_TYPED)
        return a->dlen == b->dlen && memcmp(a->data, b->data, a->dlen) == 0;
    if (a->fid != b->fid || a->nargs != b->nargs)
        return false;
    for (uint32_t i = 0; i < a->nargs; i++)
        if (a->args[i] != b->args[i])
            return false;
    return true;
}

static void assert_same_list(const char *name, const items_t *ours, const items_t *theirs)
{
    size_t n = ours->n < theirs->n ? ours->n : theirs->n;
    for (size_t i = 0; i < n; i++) {
        if (!same_item(&ours->v[i], &theirs->v[i])) {
            char a[256], b[256];
            describe(a, sizeof a, &ours->v[i]);
            describe(b, sizeof b, &theirs->v[i]);
            ck_abort_msg("%s: record %zu differs\n  ours:     %s\n  llvm-xray: %s", name, i, a, b);
        }
    }
    ck_assert_msg(ours->n == theirs->n, "%s: we give %zu records, llvm-xray %zu", name, ours->n,
                  theirs->n);
}

static int cmp_item(const void *pa, const void *pb)
{
    const item_t *a = pa, *b = pb;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->tsc != b->tsc)
        return a->tsc < b->tsc ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->fid != b->fid)
        return a->fid < b->fid ? -1 : 1;
    if (a->nargs != 0 && b->nargs != 0 && a->args[0] != b->args[0])
        return a->args[0] < b->args[0] ? -1 : 1;
    if (a->dlen != b->dlen)
        return a->dlen < b->dlen ? -1 : 1;
    return a->dlen == 0 ? 0 : memcmp(a->data, b->data, a->dlen);
}

/* The same records, in any order (llvm-xray reorders multi-buffer traces). */
static void assert_same_set(const char *name, items_t *ours, items_t *theirs)
{
    ck_assert_msg(ours->n == theirs->n, "%s: we give %zu records, llvm-xray %zu", name, ours->n,
                  theirs->n);
    qsort(ours->v, ours->n, sizeof *ours->v, cmp_item);
    qsort(theirs->v, theirs->n, sizeof *theirs->v, cmp_item);
    for (size_t i = 0; i < ours->n; i++) {
        if (!same_item(&ours->v[i], &theirs->v[i])) {
            char a[256], b[256];
            describe(a, sizeof a, &ours->v[i]);
            describe(b, sizeof b, &theirs->v[i]);
            ck_abort_msg("%s: sorted record %zu differs\n  ours:     %s\n  llvm-xray: %s", name, i,
                         a, b);
        }
    }
}

static void assert_header(const char *name, const ours_t *o, const theirs_t *t)
{
    ck_assert_msg(o->hdr.version == t->version && (unsigned)o->hdr.type == t->type,
                  "%s: header v%u type %d, llvm-xray v%u type %u", name, o->hdr.version,
                  (int)o->hdr.type, t->version, t->type);
    ck_assert_int_eq(o->hdr.constant_tsc, t->constant_tsc);
    ck_assert_int_eq(o->hdr.nonstop_tsc, t->nonstop_tsc);
    ck_assert_uint_eq(o->hdr.cycle_frequency, t->freq);
    ck_assert_int_eq(o->hdr.byte_order, TRACERD_BYTE_ORDER_LITTLE);
}

/* Per thread, in file order: depth never below zero, and every enter closed. */
static void assert_balanced(const char *name, const items_t *l)
{
    int64_t tids[64];
    long depth[64];
    size_t nt = 0;
    for (size_t i = 0; i < l->n; i++) {
        const item_t *it = &l->v[i];
        if (it->kind == K_CUSTOM || it->kind == K_TYPED)
            continue;
        size_t j = 0;
        while (j < nt && tids[j] != it->tid)
            j++;
        if (j == nt) {
            ck_assert_uint_lt(nt, 64);
            tids[nt] = it->tid;
            depth[nt++] = 0;
        }
        depth[j] += (it->kind == K_ENTER || it->kind == K_ENTER_ARG) ? 1 : -1;
        ck_assert_msg(depth[j] >= 0, "%s: thread %" PRId64 " exits more than it enters at #%zu",
                      name, it->tid, it->seq);
    }
    for (size_t j = 0; j < nt; j++)
        ck_assert_msg(depth[j] == 0, "%s: thread %" PRId64 " ends at depth %ld", name, tids[j],
                      depth[j]);
}

static size_t count_threads(const items_t *l)
{
    int64_t tids[64];
    size_t nt = 0;
    for (size_t i = 0; i < l->n; i++) {
        size_t j = 0;
        while (j < nt && tids[j] != l->v[i].tid)
            j++;
        if (j == nt) {
            ck_assert_uint_lt(nt, 64);
            tids[nt++] = l->v[i].tid;
        }
    }
    return nt;
}

/* Loads a trace, feeds it whole through the recorder (returns that log,
 * checked against the golden file; test_driver covers the other feeding
 * strategies), decodes it plainly and loads llvm-xray's YAML. */
static char *load_trace(const char *name, uint8_t **data, size_t *len, ours_t *o, theirs_t *t)
{
    char path[256];
    snprintf(path, sizeof path, REAL_DIR "%s.xray", name);
    *data = drv_read_file(path, len);
    ck_assert_msg(*data != NULL, "cannot read %s (run from the repository root)", path);
    ck_assert_uint_lt(*len, 100000);
    drv_plan_t whole = {0};
    char *log = drv_run(&xray_golden_target, NULL, *data, *len, &whole);
    snprintf(path, sizeof path, "xray/real/%s.gold", name);
    drv_golden(path, log);
    decode_ours(*data, *len, o);
    load_yaml(name, t);
    assert_header(name, o, t);
    return log;
}

static void done(uint8_t *data, char *log, ours_t *o, theirs_t *t)
{
    free(data);
    free(log);
    items_free(&o->items);
    items_free(&t->items);
}

/* Record-by-record comparison of a single-buffer trace. */
static void check_single(const char *name, unsigned want_version, size_t want_records)
{
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace(name, &data, &len, &o, &t);
    ck_assert_uint_eq(o.hdr.version, want_version);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "%s: log does not end OK:\n%s", name, log);
    if (o.hdr.type == TRACERD_XRAY_TYPE_FDR)
        ck_assert_uint_eq(o.nbuffers, 1);
    assert_same_list(name, &o.items, &t.items);
    ck_assert_uint_eq(o.items.n, want_records);
    ck_assert_uint_eq(count_threads(&o.items), 1);
    assert_balanced(name, &o.items);
    done(data, log, &o, &t);
}

/* ---- the traces ------------------------------------------------------------ */

static const char *const trace_names[] = {"fdr_simple", "fdr_args",     "fdr_custom",
                                          "fdr_events", "fdr_tscwrap",  "fdr_threads",
                                          "fdr_midcall", "fdr_exhausted", "fdr_default",
                                          "basic_simple", "basic_threads", "basic_quickstart"};
#define NTRACES (int)(sizeof trace_names / sizeof trace_names[0])

/* Every trace through every chunking, pause and allocation-failure strategy:
 * all must give the whole-feed log (checked against the golden file by the
 * tests above), which must end OK. */
START_TEST(test_driver)
{
    const char *name = trace_names[_i];
    char path[256];
    snprintf(path, sizeof path, REAL_DIR "%s.xray", name);
    size_t len;
    uint8_t *data = drv_read_file(path, &len);
    ck_assert_msg(data != NULL, "cannot read %s (run from the repository root)", path);
    char *log = drv_check_all(&xray_golden_target, NULL, data, len);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "%s: log does not end OK", name);
    free(log);
    free(data);
}
END_TEST

/* Nested calls and a tail call, FDR v5, one buffer; also the demo sample. */
START_TEST(test_fdr_simple)
{
    check_single("fdr_simple", 5, 22);
    /* The demo is the same trace. */
    size_t a_len, b_len;
    uint8_t *a = drv_read_file(REAL_DIR "fdr_simple.xray", &a_len);
    uint8_t *b = drv_read_file("tests/data/xray/demo-fdr.xray", &b_len);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(a_len, b_len);
    ck_assert_mem_eq(a, b, a_len);
    free(a);
    free(b);
}
END_TEST

/* The tail call: an enter of `tail` (id 3), its tail exit, then leaf's enter
 * and exit; and the buffer's framing as LLVM 14 writes it. */
START_TEST(test_fdr_simple_details)
{
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_simple", &data, &len, &o, &t);
    ck_assert_uint_eq(o.items.n, 22);
    ck_assert_int_eq(o.items.v[18].kind, K_ENTER);
    ck_assert_int_eq(o.items.v[18].fid, 3);
    ck_assert_int_eq(o.items.v[19].kind, K_TAIL);
    ck_assert_int_eq(o.items.v[19].fid, 3);
    ck_assert_int_eq(o.items.v[20].fid, 1);
    /* BufferExtents, NewBuffer, WalltimeMarker, PIDEntry, NewCPUId, in that order. */
    const char *e = strstr(log, "meta @32 buffer-extents extent=");
    const char *nb = strstr(log, "meta @48 new-buffer tid=");
    const char *w = strstr(log, "meta @64 walltime");
    const char *p = strstr(log, "meta @80 pid pid=");
    const char *c = strstr(log, "meta @96 new-cpu cpu=0 tsc=");
    ck_assert_msg(e && nb && w && p && c && e < nb && nb < w && w < p && p < c,
                  "unexpected preamble:\n%.800s", log);
    /* The extent covers the rest of the file exactly. */
    char want[64];
    snprintf(want, sizeof want, "meta @32 buffer-extents extent=%zu\n", len - 48);
    ck_assert_msg(strstr(log, want) != NULL, "no \"%s\" in:\n%.300s", want, log);
    /* Thread and process are the same in a one-thread program. */
    ck_assert_int_eq(o.items.v[0].tid, o.items.v[0].pid);
    done(data, log, &o, &t);
}
END_TEST

/* Argument logging: EnterArg records with their CallArgument. */
START_TEST(test_fdr_args)
{
    check_single("fdr_args", 5, 14);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_args", &data, &len, &o, &t);
    const item_t *v = o.items.v;
    ck_assert_int_eq(v[0].kind, K_ENTER_ARG);
    ck_assert_uint_eq(v[0].nargs, 1);
    ck_assert_uint_eq(v[0].args[0], 0x1122334455667788ull);
    ck_assert_int_eq(v[4].kind, K_ENTER_ARG);
    ck_assert_uint_eq(v[4].args[0], (uint64_t)-3);
    ck_assert_uint_eq(v[6].args[0], 0);
    ck_assert_int_eq(v[8].kind, K_ENTER); /* plain(): no xray_log_args */
    ck_assert_uint_eq(v[8].nargs, 0);
    ck_assert_uint_eq(v[10].args[0], UINT64_MAX);
    /* Six arguments in all (the reader folds CallArgument records into their
     * function; whether it also reports them to on_metadata is its choice). */
    ck_assert(o.ncallargs == 0 || o.ncallargs == 6);
    uint32_t nargs = 0;
    for (size_t i = 0; i < o.items.n; i++)
        nargs += o.items.v[i].nargs;
    ck_assert_uint_eq(nargs, 6);
    done(data, log, &o, &t);
}
END_TEST

/* Custom events (v5: size and TSC delta in the marker) between functions. */
START_TEST(test_fdr_custom)
{
    check_single("fdr_custom", 5, 15);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_custom", &data, &len, &o, &t);
    ck_assert_int_eq(o.items.v[3].kind, K_CUSTOM);
    ck_assert_str_eq(o.items.v[3].data, "hello, xray");
    ck_assert_int_eq(o.items.v[11].kind, K_CUSTOM);
    ck_assert_str_eq(o.items.v[11].data, "x");
    done(data, log, &o, &t);
}
END_TEST

/* Custom and typed events. LLVM 14 counts a typed event's payload but not
 * its 16-byte marker in the buffer extent, and writes buffers by their
 * extent: the file is consistent, but its last 16 bytes are lost. Here those
 * are the enter and exit of work(4), called after the typed event. */
START_TEST(test_fdr_events)
{
    check_single("fdr_events", 5, 15);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_events", &data, &len, &o, &t);
    const item_t *v = o.items.v;
    ck_assert_int_eq(v[3].kind, K_CUSTOM);
    ck_assert_str_eq(v[3].data, "hello, xray");
    ck_assert_int_eq(v[8].kind, K_CUSTOM);
    ck_assert_str_eq(v[8].data, "second custom event, a little longer than the first one");
    ck_assert_int_eq(v[13].kind, K_TYPED);
    ck_assert_str_eq(v[13].data, "typed payload");
    ck_assert_uint_eq(v[13].nargs, 0); /* event type: the first registered type is 0 */
    ck_assert_int_eq(v[14].kind, K_EXIT);
    ck_assert_int_eq(v[14].fid, 3);
    /* work() (id 1) ran 4 times; the trace shows 3 calls. */
    size_t work_records = 0;
    for (size_t i = 0; i < o.items.n; i++)
        work_records += v[i].fid == 1 && v[i].kind <= K_ENTER_ARG;
    ck_assert_uint_eq(work_records, 6);
    ck_assert_ptr_null(v[0].data);
    ck_assert_msg(strstr(log, "event @") != NULL && strstr(log, " typed type=0 ") != NULL,
                  "no typed event in the log");
    done(data, log, &o, &t);
}
END_TEST

/* A 3-second sleep: the runtime writes TSCWrap, and the next function record
 * has delta 0. */
START_TEST(test_fdr_tscwrap)
{
    check_single("fdr_tscwrap", 5, 6);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_tscwrap", &data, &len, &o, &t);
    ck_assert_uint_eq(o.nwraps, 1);
    ck_assert_uint_eq(o.nnewcpu, 1);
    ck_assert_uint_gt(o.items.v[2].tsc - o.items.v[1].tsc, (uint64_t)INT32_MAX);
    char want[64];
    snprintf(want, sizeof want, "meta @%" PRIu64 " tsc-wrap tsc=%" PRIu64 "\n",
             o.wrap_offsets[0], o.items.v[2].tsc);
    ck_assert_msg(strstr(log, want) != NULL, "no \"%s\" in:\n%s", want, log);
    snprintf(want, sizeof want, "fn @%" PRIu64 " enter id=2 tsc=%" PRIu64 " ", o.wrap_offsets[0] + 16,
             o.items.v[2].tsc);
    const char *f = strstr(log, want);
    ck_assert_msg(f != NULL && strstr(f, " delta=0 ") != NULL && strstr(f, " delta=0 ") < strchr(f, '\n'),
                  "the record after TSCWrap is not \"%s... delta=0\":\n%s", want, log);
    done(data, log, &o, &t);
}
END_TEST

/* Four threads, several 256-byte buffers each. */
START_TEST(test_fdr_threads)
{
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_threads", &data, &len, &o, &t);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "log does not end OK");
    /* 4 threads x 12 iterations x (2 enters + 2 exits). */
    ck_assert_uint_eq(o.items.n, 192);
    ck_assert_uint_eq(t.items.n, 192);
    ck_assert_uint_eq(count_threads(&o.items), 4);
    ck_assert_uint_ge(o.nbuffers, 8);
    /* Every thread has at least two buffers. */
    for (size_t i = 0; i < o.nbuffers && i < 256; i++) {
        size_t same = 0;
        for (size_t j = 0; j < o.nbuffers && j < 256; j++)
            same += o.buffer_tids[j] == o.buffer_tids[i];
        ck_assert_uint_ge(same, 2);
    }
    assert_balanced("fdr_threads", &o.items);
    assert_same_set("fdr_threads", &o.items, &t.items);
    done(data, log, &o, &t);
}
END_TEST

/* The typed-event extent bug cutting a record: typed event, then a custom
 * event with a 5-byte payload last in the buffer. The file ends 13 bytes into
 * the custom event's marker (llvm-xray refuses the file). Strict: a clean
 * E_EXTENT at the marker, after the six records before it. Lenient: a
 * warning, the rest of the buffer skipped, end OK. */
START_TEST(test_fdr_typed_cut)
{
    size_t len;
    uint8_t *data = drv_read_file(REAL_DIR "fdr_typed_cut.xray", &len);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_gt(len, 48 + 13);
    uint64_t marker = len - 13;
    ck_assert_uint_eq(data[marker], 1u | (5u << 1)); /* CustomEventMarker */
    ck_assert_uint_eq(le64(data + 33), len - 48); /* the extent */

    char *log = drv_check_all(&xray_golden_target, NULL, data, len);
    char want[256];
    snprintf(want, sizeof want,
             "end E_EXTENT @%" PRIu64 " metadata record (16 bytes) runs past the buffer extent "
             "(ends at %zu)\n",
             marker, len);
    const char *end = strstr(log, "end ");
    ck_assert_msg(end != NULL && strcmp(end, want) == 0, "want \"%s\", log:\n%s", want, log);
    /* Delivered before the error: work() enter/exit, typed() enter, the typed
     * event, typed() exit, custom() enter. */
    ck_assert_msg(strstr(log, "payload=\"abc\"") != NULL, "no typed event:\n%s", log);
    size_t nfn = 0;
    for (const char *q = log; (q = strstr(q, "\nfn @")) != NULL; q++)
        nfn++;
    ck_assert_uint_eq(nfn, 5);
    ck_assert_ptr_null(strstr(log, "payload=\"12345\""));
    free(log);

    tracerd_xray_config_t cfg;
    tracerd_xray_config_init(&cfg);
    cfg.lenient_skip_buffers = true;
    log = drv_check_all(&xray_golden_target, &cfg, data, len);
    ck_assert_msg(strstr(log, "warning E_EXTENT @32 skipped=13 ") != NULL, "no warning:\n%s", log);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "lenient run does not end OK:\n%s", log);
    nfn = 0;
    for (const char *q = log; (q = strstr(q, "\nfn @")) != NULL; q++)
        nfn++;
    ck_assert_uint_eq(nfn, 5);
    free(log);
    free(data);
}
END_TEST

/* One long call making 100 short ones in a ring of two buffers: the ring
 * wraps, the surviving buffers start mid-call. The long call's exit is in
 * the file, its enter is not (llvm-xray account rejects such a file). */
START_TEST(test_fdr_midcall)
{
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_midcall", &data, &len, &o, &t);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "log does not end OK");
    ck_assert_uint_eq(o.nbuffers, 2);
    ck_assert_uint_eq(count_threads(&o.items), 1);
    size_t outer_enter = 0, outer_exit = 0, leaf_enter = 0, leaf_exit = 0;
    for (size_t i = 0; i < o.items.n; i++) {
        const item_t *it = &o.items.v[i];
        bool enter = it->kind == K_ENTER || it->kind == K_ENTER_ARG;
        if (it->fid == 2)
            *(enter ? &outer_enter : &outer_exit) += 1;
        else if (it->fid == 1)
            *(enter ? &leaf_enter : &leaf_exit) += 1;
    }
    ck_assert_uint_eq(outer_enter, 0);
    ck_assert_uint_eq(outer_exit, 1);
    ck_assert_uint_le(leaf_exit - leaf_enter + 1, 2); /* at most one leaf cut in two */
    ck_assert_int_eq(o.items.v[o.items.n - 1].fid, 2); /* the long call ends the trace */
    assert_same_set("fdr_midcall", &o.items, &t.items);
    done(data, log, &o, &t);
}
END_TEST

/* The same four threads with only three buffers in the queue: released
 * buffers are taken again and overwritten (a ring), so the file holds the
 * last three buffers and fewer records; whose they are depends on
 * scheduling. */
START_TEST(test_fdr_exhausted)
{
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_exhausted", &data, &len, &o, &t);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "log does not end OK");
    ck_assert_uint_eq(o.nbuffers, 3);
    ck_assert_uint_gt(o.items.n, 0);
    ck_assert_uint_lt(o.items.n, 192);
    assert_same_set("fdr_exhausted", &o.items, &t.items);
    done(data, log, &o, &t);
}
END_TEST

/* No fid in the list? */
static bool absent(const items_t *l, int32_t fid)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].fid == fid)
            return false;
    return true;
}

/* FDR with the runtime's default options: calls under 5 us are rewound, so
 * fast() (id 2) is gone and only both() (3) around slow() (1) stays. */
START_TEST(test_fdr_default)
{
    check_single("fdr_default", 5, 12);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("fdr_default", &data, &len, &o, &t);
    ck_assert(absent(&o.items, 2));
    ck_assert_int_eq(o.items.v[0].fid, 3);
    ck_assert_int_eq(o.items.v[1].fid, 1);
    done(data, log, &o, &t);
}
END_TEST

/* Basic mode started by the runtime before main (the documented way), with
 * the default 5 us threshold: main (3) around three slow() (1); fast() (2)
 * dropped; the main thread's records written at exit. */
START_TEST(test_basic_quickstart)
{
    check_single("basic_quickstart", 3, 8);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("basic_quickstart", &data, &len, &o, &t);
    ck_assert(absent(&o.items, 2));
    ck_assert_int_eq(o.items.v[0].fid, 3);
    ck_assert_int_eq(o.items.v[7].fid, 3);
    ck_assert_int_eq(o.items.v[7].kind, K_EXIT);
    ck_assert_int_eq(o.items.v[0].tid, o.items.v[0].pid); /* the main thread */
    done(data, log, &o, &t);
}
END_TEST

/* Basic mode v3, one traced thread: absolute TSCs, an argument record. */
START_TEST(test_basic_simple)
{
    check_single("basic_simple", 3, 20);
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("basic_simple", &data, &len, &o, &t);
    ck_assert_int_eq(o.hdr.type, TRACERD_XRAY_TYPE_BASIC);
    ck_assert_int_eq(o.items.v[13].kind, K_TAIL);
    ck_assert_int_eq(o.items.v[16].kind, K_ENTER_ARG);
    ck_assert_uint_eq(o.items.v[16].args[0], 0x123456789abcdefull);
    ck_assert_int_eq(o.items.v[18].kind, K_ENTER_ARG);
    ck_assert_uint_eq(o.items.v[18].args[0], UINT64_MAX);
    ck_assert_uint_eq(o.items.v[14].nargs, 0);
    /* The worker thread is not the main thread: tid != pid. */
    ck_assert_int_ne(o.items.v[0].tid, o.items.v[0].pid);
    done(data, log, &o, &t);
}
END_TEST

/* Basic mode v3, three threads: each thread's records written at its exit. */
START_TEST(test_basic_threads)
{
    uint8_t *data;
    size_t len;
    ours_t o;
    theirs_t t;
    char *log = load_trace("basic_threads", &data, &len, &o, &t);
    ck_assert_msg(strstr(log, "end OK\n") != NULL, "log does not end OK");
    ck_assert_uint_eq(o.items.n, 120); /* 3 threads x 10 x 4 */
    ck_assert_uint_eq(count_threads(&o.items), 3);
    assert_balanced("basic_threads", &o.items);
    assert_same_set("basic_threads", &o.items, &t.items);
    done(data, log, &o, &t);
}
END_TEST

/* If llvm-xray is installed, the stored YAML must be what it prints today
 * (the traces and their references were committed together). Skipped when
 * llvm-xray is absent or fails to run. */
START_TEST(test_yaml_current)
{
    const char *name = trace_names[_i];
    if (system("command -v llvm-xray >/dev/null 2>&1") != 0)
        return;
    char cmd[512], path[256];
    snprintf(cmd, sizeof cmd,
             "llvm-xray convert --output-format=yaml --symbolize=false " REAL_DIR
             "%s.xray 2>/dev/null",
             name);
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return;
    tlog_t out = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        tlog_printf(&out, "%.*s", (int)n, buf);
    int rc = pclose(f);
    char *got = tlog_take(&out);
    if (rc == 0) {
        snprintf(path, sizeof path, REAL_DIR "%s.yaml", name);
        size_t len;
        uint8_t *want = drv_read_file(path, &len);
        ck_assert_ptr_nonnull(want);
        ck_assert_msg(strlen(got) == len && memcmp(got, want, len) == 0,
                      "%s: llvm-xray's YAML today differs from the stored %s (re-run "
                      "tests/xray/record.sh?)",
                      name, path);
        free(want);
    }
    free(got);
}
END_TEST

Suite *suite_xray_real(void)
{
    Suite *s = suite_create("xray_real");
    TCase *tc = tcase_create("llvm14");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fdr_simple);
    tcase_add_test(tc, test_fdr_simple_details);
    tcase_add_test(tc, test_fdr_args);
    tcase_add_test(tc, test_fdr_custom);
    tcase_add_test(tc, test_fdr_events);
    tcase_add_test(tc, test_fdr_tscwrap);
    tcase_add_test(tc, test_fdr_threads);
    tcase_add_test(tc, test_fdr_midcall);
    tcase_add_test(tc, test_fdr_exhausted);
    tcase_add_test(tc, test_fdr_typed_cut);
    tcase_add_test(tc, test_fdr_default);
    tcase_add_test(tc, test_basic_quickstart);
    tcase_add_test(tc, test_basic_simple);
    tcase_add_test(tc, test_basic_threads);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("driver");
    tcase_set_timeout(td, 120);
    tcase_add_loop_test(td, test_driver, 0, NTRACES);
    tcase_add_loop_test(td, test_yaml_current, 0, NTRACES);
    suite_add_tcase(s, td);
    return s;
}
