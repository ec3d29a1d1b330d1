/* xtrace register-snapshot reader (.xsnapshot.bin): a header, then
 * snapshots whose size depends on the vector length stored at their end.
 * The layout is configured or detected from a bounded lookahead; then the
 * records are streamed through a small segment program (stitched counters
 * and system registers, zero-copy register views). */
#include <stdio.h>

#include <tracerd/xtrace.h>

#include "../core/reader.h"
#include "../core/sized.h"

#define BEGIN_BYTES 288u /* 4 counters + X0..X31 */
#define END_BYTES 96u    /* 11 system registers + trailing VL */
#define STITCH_BYTES 288u
#define MAX_SEGS 112
#define ADVANCE 1000000u
#define MAX_DETECT_RECORDS 8u
#define MAX_HEADER 32u

enum { SEG_BEGIN = 0, SEG_SPAN, SEG_SKIP, SEG_END };

struct seg {
    uint8_t kind;
    uint8_t field;
    uint8_t index;
    uint32_t len;
};

enum {
    S_LOOK = 0, /* filling the detection lookahead */
    S_REPORT,   /* report the layout */
    S_HEADER,
    S_SEG,
    S_DONE
};

struct tracerd_xtrace_snap_reader {
    tracerd_xtrace_snap_config_t cfg;
    tracerd_xtrace_snap_callbacks_t cbs;
    tracerd_allocator_t alloc;
    struct tracerd__stitch st;
    uint8_t *look;
    size_t look_cap, look_len, replay_pos;
    bool replaying;

    bool have_layout;
    tracerd_xtrace_snap_layout_t lay;
    struct seg segs[MAX_SEGS];
    unsigned nsegs;
    bool big;

    int state;
    unsigned si;    /* current segment */
    uint64_t sdone; /* bytes of it done */
    uint64_t off, rec_off;
    uint64_t nsnap;
    bool have_prev;
    uint64_t prev_user, prev_total;
    bool finished;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */
};

/* ---- layout geometry -------------------------------------------------- */

static uint32_t round16(uint32_t x)
{
    return (x + 15u) & ~15u;
}

static bool vl_ok(uint32_t bits)
{
    return bits >= 128 && bits <= 2048 && bits % 128 == 0;
}

tracerd_status_t tracerd_xtrace_snap_layout_compute(tracerd_xtrace_snap_layout_t *l)
{
    if (l == NULL)
        return TRACERD_E_INVALID;
    uint32_t h = l->header_bytes;
    if (h != 0 && h != 19 && h != 24 && h != 32)
        return TRACERD_E_INVALID;
    if (l->streaming_vector_length_bits == 0)
        l->streaming_vector_length_bits = l->vector_length_bits;
    if (!vl_ok(l->vector_length_bits) || !vl_ok(l->streaming_vector_length_bits))
        return TRACERD_E_INVALID;
    if (l->p_layout != TRACERD_XTRACE_P_BLOCK && l->p_layout != TRACERD_XTRACE_P_PER_REG)
        return TRACERD_E_INVALID;
    uint32_t sv = l->fixed_max ? 2048u : l->vector_length_bits;
    uint32_t ssv = l->fixed_max ? 2048u : l->streaming_vector_length_bits;
    l->storage_vector_length_bits = sv;
    uint32_t va = sv / 8, sa = ssv / 8;
    uint32_t pslot = l->p_layout == TRACERD_XTRACE_P_BLOCK ? va / 8 : round16(va / 8);
    l->z_offset = BEGIN_BYTES;
    l->p_offset = l->z_offset + 32u * va;
    l->ffr_offset = l->p_offset + 16u * pslot;
    l->za_offset = l->ffr_offset + round16(va / 8);
    l->sysreg_offset = l->za_offset + (l->za_present ? sa * sa : 0u);
    l->record_bytes = l->sysreg_offset + END_BYTES;
    return TRACERD_OK;
}

static void add_seg(struct tracerd_xtrace_snap_reader *r, uint8_t kind, uint8_t field,
                    uint8_t index, uint32_t len)
{
    if (len == 0 && kind == SEG_SKIP)
        return;
    struct seg *s = &r->segs[r->nsegs++];
    s->kind = kind;
    s->field = field;
    s->index = index;
    s->len = len;
}

/* Builds the segment program of the locked layout. */
static void build_program(struct tracerd_xtrace_snap_reader *r)
{
    const tracerd_xtrace_snap_layout_t *l = &r->lay;
    uint32_t v = l->vector_length_bits / 8, va = l->storage_vector_length_bits / 8;
    uint32_t pslot = (l->ffr_offset - l->p_offset) / 16u;
    r->nsegs = 0;
    r->big = l->byte_order == TRACERD_BYTE_ORDER_BIG;
    add_seg(r, SEG_BEGIN, 0, 0, BEGIN_BYTES);
    for (uint8_t i = 0; i < 32; i++) {
        add_seg(r, SEG_SPAN, TRACERD_XTRACE_FIELD_Z, i, v);
        add_seg(r, SEG_SKIP, 0, 0, va - v);
    }
    for (uint8_t i = 0; i < 16; i++) {
        add_seg(r, SEG_SPAN, TRACERD_XTRACE_FIELD_P, i, v / 8);
        add_seg(r, SEG_SKIP, 0, 0, pslot - v / 8);
    }
    add_seg(r, SEG_SPAN, TRACERD_XTRACE_FIELD_FFR, 0, v / 8);
    add_seg(r, SEG_SKIP, 0, 0, l->za_offset - l->ffr_offset - v / 8);
    if (l->za_present)
        add_seg(r, SEG_SPAN, TRACERD_XTRACE_FIELD_ZA, 0, l->sysreg_offset - l->za_offset);
    add_seg(r, SEG_END, 0, 0, END_BYTES);
}

static const char *p_name(tracerd_xtrace_p_layout_t p)
{
    return p == TRACERD_XTRACE_P_BLOCK     ? "block"
           : p == TRACERD_XTRACE_P_PER_REG ? "per-reg"
                                           : "auto";
}

static void describe(char *buf, size_t n, const tracerd_xtrace_snap_layout_t *l)
{
    tracerd__format(buf, n, "header %u/VL %u%s/P %s/%s/%s (%u B)", (unsigned)l->header_bytes,
                    (unsigned)l->vector_length_bits, l->fixed_max ? " fixed-max" : "",
                    p_name(l->p_layout), l->za_present ? "ZA" : "no ZA",
                    l->byte_order == TRACERD_BYTE_ORDER_BIG ? "BE" : "LE",
                    (unsigned)l->record_bytes);
}

/* ---- config and lifecycle --------------------------------------------- */

static void xtrace_snap_config_defaults(tracerd_xtrace_snap_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->byte_order = TRACERD_BYTE_ORDER_AUTO;
    cfg->header_bytes = -1;
    cfg->p_layout = TRACERD_XTRACE_P_AUTO;
    cfg->za = TRACERD_XTRACE_AUTO;
    cfg->fixed_max = TRACERD_XTRACE_AUTO;
    cfg->detect_records = 2;
    cfg->check_advance = true;
}

TRACERD__SIZED_INIT(tracerd_xtrace_snap_config_init, tracerd_xtrace_snap_config_t,
                    xtrace_snap_config_defaults)

static bool fully_configured(const tracerd_xtrace_snap_config_t *c)
{
    return c->byte_order != TRACERD_BYTE_ORDER_AUTO && c->header_bytes >= 0 &&
           c->vector_length_bits != 0 && c->p_layout != TRACERD_XTRACE_P_AUTO &&
           c->za != TRACERD_XTRACE_AUTO && c->fixed_max != TRACERD_XTRACE_AUTO;
}

static bool snap_config_ok(const tracerd_xtrace_snap_config_t *c)
{
    if ((unsigned)c->byte_order > 2 || (unsigned)c->p_layout > 2 || (unsigned)c->za > 2 ||
        (unsigned)c->fixed_max > 2)
        return false;
    if (c->header_bytes != -1 && c->header_bytes != 0 && c->header_bytes != 19 &&
        c->header_bytes != 24 && c->header_bytes != 32)
        return false;
    if (c->vector_length_bits != 0 && !vl_ok(c->vector_length_bits))
        return false;
    if (c->streaming_vector_length_bits != 0 && !vl_ok(c->streaming_vector_length_bits))
        return false;
    return c->detect_records >= 1 && c->detect_records <= MAX_DETECT_RECORDS;
}

static size_t look_bytes(const tracerd_xtrace_snap_config_t *c)
{
    if (fully_configured(c))
        return 0;
    return MAX_HEADER + (size_t)c->detect_records * TRACERD_XTRACE_SNAP_MAX_RECORD;
}

size_t tracerd_xtrace_snap_memory_bound(const tracerd_xtrace_snap_config_t *cfg)
{
    tracerd_xtrace_snap_config_t d;
    if (cfg == NULL) {
        tracerd_xtrace_snap_config_init(&d);
        cfg = &d;
    }
    return sizeof(struct tracerd_xtrace_snap_reader) + STITCH_BYTES + look_bytes(cfg);
}

static tracerd_status_t lock_configured(struct tracerd_xtrace_snap_reader *r)
{
    const tracerd_xtrace_snap_config_t *c = &r->cfg;
    tracerd_xtrace_snap_layout_t *l = &r->lay;
    memset(l, 0, sizeof *l);
    l->byte_order = c->byte_order;
    l->header_bytes = (uint32_t)c->header_bytes;
    l->vector_length_bits = c->vector_length_bits;
    l->streaming_vector_length_bits = c->streaming_vector_length_bits;
    l->p_layout = c->p_layout;
    l->za_present = c->za == TRACERD_XTRACE_YES;
    l->fixed_max = c->fixed_max == TRACERD_XTRACE_YES;
    l->candidates = 1;
    tracerd_status_t st = tracerd_xtrace_snap_layout_compute(l);
    if (st != TRACERD_OK)
        return st;
    build_program(r);
    r->have_layout = true;
    return TRACERD_OK;
}

static void snap_reset_state(struct tracerd_xtrace_snap_reader *r)
{
    r->look_len = r->replay_pos = 0;
    r->replaying = false;
    r->st.have = 0;
    r->si = 0;
    r->sdone = 0;
    r->off = r->rec_off = 0;
    r->nsnap = 0;
    r->have_prev = false;
    r->prev_user = r->prev_total = 0;
    r->finished = false;
    tracerd__reader_reset(&r->core);
    if (fully_configured(&r->cfg)) {
        r->state = S_REPORT;
    } else {
        r->have_layout = false;
        r->state = S_LOOK;
    }
}

tracerd_status_t tracerd_xtrace_snap_new(const tracerd_xtrace_snap_config_t *cfg,
                                         const tracerd_xtrace_snap_callbacks_t *cbs, void *user,
                                         const tracerd_allocator_t *alloc,
                                         tracerd_xtrace_snap_reader_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_xtrace_snap_config_t c;
    tracerd_xtrace_snap_config_init(&c);
    tracerd_xtrace_snap_callbacks_t cb;
    tracerd_xtrace_snap_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_xtrace_snap_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_xtrace_snap_callbacks_t, &cb, cbs) != TRACERD_OK ||
        !snap_config_ok(&c))
        return TRACERD_E_INVALID;
    struct tracerd_xtrace_snap_reader *r =
        TRACERD__READER_ALLOC(struct tracerd_xtrace_snap_reader, alloc, user, STITCH_BYTES);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->cfg = c;
    r->cbs = cb;
    if (fully_configured(&c) && lock_configured(r) != TRACERD_OK) {
        tracerd_xtrace_snap_free(r);
        return TRACERD_E_INVALID;
    }
    r->look_cap = look_bytes(&c);
    if (r->look_cap != 0) {
        /* not zeroed: only bytes fed are read */
        r->look = r->alloc.alloc(r->alloc.ctx, r->look_cap);
        if (r->look == NULL) {
            tracerd_xtrace_snap_free(r);
            return TRACERD_E_NOMEM;
        }
    }
    snap_reset_state(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_xtrace_snap_reset(tracerd_xtrace_snap_reader_t *r)
{
    if (r != NULL && !r->core.in_cb)
        snap_reset_state(r);
}

void tracerd_xtrace_snap_free(tracerd_xtrace_snap_reader_t *r)
{
    if (r == NULL || r->core.in_cb)
        return;
    tracerd_allocator_t a = r->alloc;
    tracerd__free(&a, r->look, r->look_cap);
    tracerd__stitch_free(&r->st, &a);
    tracerd__free(&a, r, sizeof *r);
}

uint64_t tracerd_xtrace_snap_offset(const tracerd_xtrace_snap_reader_t *r)
{
    return r->state == S_LOOK ? r->look_len : r->off;
}

uint64_t tracerd_xtrace_snap_record_offset(const tracerd_xtrace_snap_reader_t *r)
{
    return r->core.err.status < 0 ? r->core.err.offset : r->rec_off;
}

const char *tracerd_xtrace_snap_error_reason(const tracerd_xtrace_snap_reader_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}

int tracerd_xtrace_snap_callback_error(const tracerd_xtrace_snap_reader_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

TRACERD__READER_OPS(tracerd_xtrace_snap, "xtrace-snap", tracerd_xtrace_snap_reader_t,
                    tracerd_xtrace_snap_config_t, tracerd_xtrace_snap_callbacks_t)

bool tracerd_xtrace_snap_layout(const tracerd_xtrace_snap_reader_t *r,
                                tracerd_xtrace_snap_layout_t *out)
{
    if (r == NULL || !r->have_layout)
        return false;
    if (out != NULL)
        *out = r->lay;
    return true;
}

/* ---- detection -------------------------------------------------------- */

/* Checks candidate l against look[0, n). Returns -1 when it is
 * inconsistent, else its rank: 2 x the records verified (trailing VL,
 * counters, +1,000,000 between them), + 1 when the input ended and holds a
 * whole number of records. */
static int check_candidate(const struct tracerd_xtrace_snap_reader *r,
                           const tracerd_xtrace_snap_layout_t *l, size_t n, bool eof, int *nrec)
{
    bool big = l->byte_order == TRACERD_BYTE_ORDER_BIG;
    size_t h = l->header_bytes, S = l->record_bytes;
    if (n < h)
        return -1;
    if (h > 0 && r->cfg.expect_ident != 0 && tracerd__ld32(big, r->look) != r->cfg.expect_ident)
        return -1;
    bool whole = eof && (n - h) % S == 0;
    size_t avail = (n - h) / S;
    if (avail > r->cfg.detect_records)
        avail = r->cfg.detect_records;
    *nrec = (int)avail;
    if (avail == 0)
        return eof && n == h ? 1 : -1;
    uint64_t pu = 0, pt = 0, pf = 0, pi = 0;
    for (size_t k = 0; k < avail; k++) {
        const uint8_t *b = r->look + h + k * S;
        if (tracerd__ld64(big, b + S - 8) != l->vector_length_bits)
            return -1;
        uint64_t f = tracerd__ld64(big, b), i = tracerd__ld64(big, b + 8);
        uint64_t u = tracerd__ld64(big, b + 16), t = tracerd__ld64(big, b + 24);
        if (u > t)
            return -1;
        if (k > 0) {
            if (r->cfg.check_advance && u - pu != ADVANCE && t - pt != ADVANCE)
                return -1;
            if (f < pf || (f == pf && i < pi))
                return -1;
        }
        pu = u;
        pt = t;
        pf = f;
        pi = i;
    }
    return (int)avail * 2 + (whole ? 1 : 0);
}

static bool same_geometry(const tracerd_xtrace_snap_layout_t *a,
                          const tracerd_xtrace_snap_layout_t *b)
{
    return a->byte_order == b->byte_order && a->header_bytes == b->header_bytes &&
           a->vector_length_bits == b->vector_length_bits &&
           a->storage_vector_length_bits == b->storage_vector_length_bits &&
           a->record_bytes == b->record_bytes && a->p_offset == b->p_offset &&
           a->ffr_offset == b->ffr_offset && a->za_offset == b->za_offset &&
           a->sysreg_offset == b->sysreg_offset && a->za_present == b->za_present;
}

/* The best-ranked consistent layouts seen so far. */
struct detect_acc {
    tracerd_xtrace_snap_layout_t first, second;
    uint32_t distinct;
    int rank, records;
    uint32_t tried, too_short; /* candidates, and those the input was too short for */
};

static void try_candidate(const struct tracerd_xtrace_snap_reader *r,
                          tracerd_xtrace_snap_layout_t *l, size_t n, bool eof,
                          struct detect_acc *acc)
{
    if (tracerd_xtrace_snap_layout_compute(l) != TRACERD_OK)
        return;
    int k = 0;
    int rank = check_candidate(r, l, n, eof, &k);
    acc->tried++;
    if (n < (size_t)l->header_bytes + l->record_bytes)
        acc->too_short++;
    if (rank < 0 || (acc->distinct > 0 && rank < acc->rank))
        return;
    if (acc->distinct > 0 && rank > acc->rank)
        acc->distinct = 0; /* stronger evidence: forget the weaker layouts */
    if (acc->distinct > 0 && k == 0 && acc->first.header_bytes == l->header_bytes)
        return; /* header only: nothing tells the record layouts apart */
    if (acc->distinct > 0 && same_geometry(&acc->first, l))
        return;
    if (acc->distinct > 1 && same_geometry(&acc->second, l))
        return;
    if (acc->distinct == 0) {
        acc->first = *l;
        acc->rank = rank;
        acc->records = k;
    } else if (acc->distinct == 1) {
        acc->second = *l;
    }
    acc->distinct++;
}

/* Decides the layout from look[0, look_len). */
static tracerd_status_t decide(struct tracerd_xtrace_snap_reader *r, bool eof)
{
    const tracerd_xtrace_snap_config_t *c = &r->cfg;
    static const int32_t hs[4] = {24, 19, 32, 0};
    static const uint8_t bos[2] = {TRACERD_BYTE_ORDER_LITTLE, TRACERD_BYTE_ORDER_BIG};
    struct detect_acc acc;
    memset(&acc, 0, sizeof acc);
    size_t n = r->look_len;
    for (unsigned bi = 0; bi < 2; bi++) {
        if (c->byte_order != TRACERD_BYTE_ORDER_AUTO && c->byte_order != bos[bi])
            continue;
        for (unsigned hi = 0; hi < 4; hi++) {
            if (c->header_bytes >= 0 && c->header_bytes != hs[hi])
                continue;
            for (uint32_t vl = 128; vl <= 2048; vl += 128) {
                if (c->vector_length_bits != 0 && c->vector_length_bits != vl)
                    continue;
                for (unsigned fx = 0; fx < 2; fx++) {
                    if (c->fixed_max != TRACERD_XTRACE_AUTO &&
                        (c->fixed_max == TRACERD_XTRACE_YES) != (fx == 1))
                        continue;
                    for (unsigned za = 0; za < 2; za++) {
                        bool zp = za == 0; /* present first: the spec lists ZA */
                        if (c->za != TRACERD_XTRACE_AUTO && (c->za == TRACERD_XTRACE_YES) != zp)
                            continue;
                        for (unsigned pi = 1; pi <= 2; pi++) {
                            if (c->p_layout != TRACERD_XTRACE_P_AUTO && (unsigned)c->p_layout != pi)
                                continue;
                            tracerd_xtrace_snap_layout_t l;
                            memset(&l, 0, sizeof l);
                            l.byte_order = (tracerd_byte_order_t)bos[bi];
                            l.header_bytes = (uint32_t)hs[hi];
                            l.vector_length_bits = vl;
                            l.streaming_vector_length_bits = c->streaming_vector_length_bits;
                            l.p_layout = (tracerd_xtrace_p_layout_t)pi;
                            l.za_present = zp;
                            l.fixed_max = fx == 1;
                            try_candidate(r, &l, n, eof, &acc);
                        }
                    }
                }
            }
        }
    }
    char a[160], b[160];
    if (acc.distinct == 0 && eof && acc.too_short == acc.tried) {
        if (c->header_bytes > 0 && n < (size_t)c->header_bytes)
            return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, 0,
                                      "input ended inside the snapshot header (%d bytes, %zu "
                                      "present)",
                                      (int)c->header_bytes, n);
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED,
                                  c->header_bytes > 0 ? (uint64_t)c->header_bytes : 0,
                                  "input ended inside the first snapshot (%zu bytes in the file, "
                                  "too few to detect the layout)",
                                  n);
    }
    if (acc.distinct == 0)
        return tracerd__error_set(&r->core.err, TRACERD_E_LAYOUT, 0,
                                  "snapshot file: no layout fits the first %zu bytes (trailing "
                                  "vector length, user <= total, +%u instructions per snapshot)",
                                  n, ADVANCE);
    if (acc.distinct > 1) {
        describe(a, sizeof a, &acc.first);
        describe(b, sizeof b, &acc.second);
        return tracerd__error_set(&r->core.err, TRACERD_E_AMBIGUOUS, 0,
                                  "snapshot file: %u layouts fit, e.g. %s and %s; configure the "
                                  "layout",
                                  (unsigned)acc.distinct, a, b);
    }
    r->lay = acc.first;
    r->lay.detected = true;
    r->lay.candidates = 1;
    r->lay.records_checked = (uint32_t)acc.records;
    if (acc.records == 0) { /* a header and no snapshot: nothing to decode but the header */
        r->lay.vector_length_bits = 0;
        r->lay.record_bytes = 0;
    }
    build_program(r);
    r->have_layout = true;
    return TRACERD_OK;
}

/* ---- streaming -------------------------------------------------------- */

#define GO 0
#define STOP 1

/* A callback returned rc: the reader core's one interpretation; GO, or STOP
 * for a pause or an abort (then core.paused or the sticky error says which). */
static int snap_after_cb(struct tracerd_xtrace_snap_reader *r, int rc, const char *what)
{
    return tracerd__cb_result(&r->core, rc, what, r->rec_off) == TRACERD__CB_GO ? GO : STOP;
}

static int do_header(struct tracerd_xtrace_snap_reader *r, const uint8_t *p)
{
    bool big = r->big;
    tracerd_xtrace_snap_header_t h;
    h.offset = 0;
    h.header_bytes = r->lay.header_bytes;
    h.ident = tracerd__ld32(big, p);
    h.global_point = tracerd__ld32(big, p + 4);
    h.version = tracerd__ld64(big, p + 8);
    h.split_type = p[16];
    h.stream_type = p[17];
    h.mem_order = p[18];
    h.pad.data = p + 19;
    h.pad.len = r->lay.header_bytes - 19u;
    if (r->cfg.expect_ident != 0 && h.ident != r->cfg.expect_ident) {
        tracerd__error_set(&r->core.err, TRACERD_E_MAGIC, 0,
                           "snapshot header: identifier 0x%08x is not the expected 0x%08x",
                           (unsigned)h.ident, (unsigned)r->cfg.expect_ident);
        return STOP;
    }
    if (r->cbs.on_header != NULL)
        return snap_after_cb(r, r->cbs.on_header(r->core.user, &h), "on_header");
    return GO;
}

static int do_begin(struct tracerd_xtrace_snap_reader *r, const uint8_t *p)
{
    bool big = r->big;
    tracerd_xtrace_snapshot_t s;
    s.offset = r->rec_off;
    s.index = r->nsnap;
    s.file_no = tracerd__ld64(big, p);
    s.file_index = tracerd__ld64(big, p + 8);
    s.user_insns = tracerd__ld64(big, p + 16);
    s.total_insns = tracerd__ld64(big, p + 24);
    if (s.user_insns > s.total_insns) {
        tracerd__error_set(&r->core.err, TRACERD_E_BAD_RECORD, r->rec_off,
                           "snapshot %llu: user instruction count %llu exceeds the total %llu",
                           (unsigned long long)s.index, (unsigned long long)s.user_insns,
                           (unsigned long long)s.total_insns);
        return STOP;
    }
    if (r->cfg.check_advance && r->have_prev && s.user_insns - r->prev_user != ADVANCE &&
        s.total_insns - r->prev_total != ADVANCE) {
        tracerd__error_set(&r->core.err, TRACERD_E_LAYOUT, r->rec_off,
                           "snapshot %llu: counts (user %llu, total %llu) do not advance by %u "
                           "from the previous snapshot (user %llu, total %llu)",
                           (unsigned long long)s.index, (unsigned long long)s.user_insns,
                           (unsigned long long)s.total_insns, ADVANCE,
                           (unsigned long long)r->prev_user, (unsigned long long)r->prev_total);
        return STOP;
    }
    r->have_prev = true;
    r->prev_user = s.user_insns;
    r->prev_total = s.total_insns;
    if (r->cbs.on_snapshot == NULL)
        return GO;
    for (unsigned i = 0; i < 32; i++)
        s.x[i] = tracerd__ld64(big, p + 32 + 8 * i);
    return snap_after_cb(r, r->cbs.on_snapshot(r->core.user, &s), "on_snapshot");
}

static int do_end(struct tracerd_xtrace_snap_reader *r, const uint8_t *p)
{
    bool big = r->big;
    tracerd_xtrace_snapshot_end_t e;
    uint64_t v[12];
    for (unsigned i = 0; i < 12; i++)
        v[i] = tracerd__ld64(big, p + 8 * i);
    uint64_t index = r->nsnap++;
    if (v[11] != r->lay.vector_length_bits) {
        tracerd__error_set(&r->core.err, TRACERD_E_LAYOUT, r->rec_off,
                           "snapshot %llu: trailing vector length %llu disagrees with the "
                           "%u-bit layout",
                           (unsigned long long)index, (unsigned long long)v[11],
                           (unsigned)r->lay.vector_length_bits);
        return STOP;
    }
    if (r->cbs.on_snapshot_end == NULL)
        return GO;
    e.offset = r->rec_off;
    e.index = index;
    e.fpcr = v[0];
    e.fpsr = v[1];
    e.nzcv = v[2];
    e.tpidr_el0 = v[3];
    e.tpidrro_el0 = v[4];
    e.ttbr0_el1 = v[5];
    e.elr_el1 = v[6];
    e.spsr_el1 = v[7];
    e.esr_el1 = v[8];
    e.tpidr_el1 = v[9];
    e.daif = v[10];
    e.vector_length_bits = v[11];
    return snap_after_cb(r, r->cbs.on_snapshot_end(r->core.user, &e), "on_snapshot_end");
}

static tracerd_status_t snap_status(const struct tracerd_xtrace_snap_reader *r)
{
    return tracerd__reader_status(&r->core);
}

/* Parses [*pp, end) with the locked layout. */
static tracerd_status_t parse(struct tracerd_xtrace_snap_reader *r, const uint8_t **pp,
                              const uint8_t *end)
{
    while (*pp < end || r->state == S_REPORT) {
        int rc = GO;
        switch (r->state) {
        case S_REPORT:
            r->state = r->lay.header_bytes > 0 ? S_HEADER : S_SEG;
            if (r->cbs.on_layout != NULL)
                rc = snap_after_cb(r, r->cbs.on_layout(r->core.user, &r->lay), "on_layout");
            break;
        case S_HEADER: {
            const uint8_t *before = *pp;
            const uint8_t *h = tracerd__gather(&r->st, pp, end, r->lay.header_bytes);
            r->off += (uint64_t)(*pp - before);
            if (h == NULL)
                return TRACERD_OK;
            r->state = r->lay.record_bytes > 0 ? S_SEG : S_DONE;
            r->si = 0;
            r->sdone = 0;
            rc = do_header(r, h);
            break;
        }
        case S_SEG: {
            const struct seg *s = &r->segs[r->si];
            if (r->si == 0 && r->st.have == 0)
                r->rec_off = r->off;
            if (s->kind == SEG_BEGIN || s->kind == SEG_END) {
                const uint8_t *before = *pp;
                const uint8_t *p = tracerd__gather(&r->st, pp, end, s->len);
                r->off += (uint64_t)(*pp - before);
                if (p == NULL)
                    return TRACERD_OK;
                r->si = s->kind == SEG_END ? 0 : r->si + 1;
                rc = s->kind == SEG_BEGIN ? do_begin(r, p) : do_end(r, p);
                break;
            }
            size_t avail = (size_t)(end - *pp);
            uint64_t left = s->len - r->sdone;
            size_t take = left < avail ? (size_t)left : avail;
            tracerd_span_t sp;
            sp.field = s->field;
            sp.index = s->index;
            sp.record_offset = r->rec_off;
            sp.offset = r->sdone;
            sp.total = s->len;
            sp.data = *pp;
            sp.len = take;
            *pp += take;
            r->off += take;
            r->sdone += take;
            if (r->sdone == s->len) {
                r->si++;
                r->sdone = 0;
            }
            if (s->kind == SEG_SPAN && r->cbs.on_register != NULL && take > 0)
                rc = snap_after_cb(r, r->cbs.on_register(r->core.user, &sp), "on_register");
            break;
        }
        case S_DONE:
            return tracerd__error_set(&r->core.err, TRACERD_E_EXTENT, r->off,
                                      "snapshot file: %zu bytes after a header-only file",
                                      (size_t)(end - *pp));
        default:
            return TRACERD_E_INVALID;
        }
        if (rc != GO)
            return snap_status(r);
    }
    return TRACERD_OK;
}

/* Continues replaying the lookahead after detection. */
static tracerd_status_t replay(struct tracerd_xtrace_snap_reader *r)
{
    if (!r->replaying)
        return TRACERD_OK;
    const uint8_t *q = r->look + r->replay_pos;
    tracerd_status_t st = parse(r, &q, r->look + r->look_len);
    r->replay_pos = (size_t)(q - r->look);
    if (st == TRACERD_OK)
        r->replaying = false;
    return st;
}

static tracerd_status_t start_replay(struct tracerd_xtrace_snap_reader *r, bool eof)
{
    if (eof && r->look_len == 0) {
        r->state = S_DONE;
        return TRACERD_OK;
    }
    tracerd_status_t st = decide(r, eof);
    if (st != TRACERD_OK)
        return st;
    r->state = S_REPORT;
    r->replaying = true;
    r->replay_pos = 0;
    return replay(r);
}

tracerd_status_t tracerd_xtrace_snap_feed(tracerd_xtrace_snap_reader_t *r, const void *data,
                                          size_t len, size_t *consumed)
{
    if (consumed != NULL)
        *consumed = 0;
    tracerd_status_t guard = tracerd__feed_guard(r != NULL ? &r->core : NULL, data, len);
    if (guard != TRACERD_OK)
        return guard;
    if (r->finished)
        return TRACERD_E_INVALID;
    const uint8_t *p = data, *end = p + len;
    tracerd_status_t st = TRACERD_OK;
    r->core.in_cb = true;
    if (r->state == S_LOOK) {
        size_t take = r->look_cap - r->look_len;
        if (take > len)
            take = len;
        if (take > 0)
            memcpy(r->look + r->look_len, p, take);
        r->look_len += take;
        p += take;
        if (r->look_len == r->look_cap)
            st = start_replay(r, false);
    } else if (r->replaying) {
        st = replay(r);
    }
    if (st == TRACERD_OK && p < end)
        st = parse(r, &p, end);
    r->core.in_cb = false;
    if (consumed != NULL)
        *consumed = (size_t)(p - (const uint8_t *)data);
    return st;
}

tracerd_status_t tracerd_xtrace_snap_resume(tracerd_xtrace_snap_reader_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

tracerd_status_t tracerd_xtrace_snap_finish(tracerd_xtrace_snap_reader_t *r)
{
    tracerd_status_t guard = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (guard != TRACERD_OK)
        return guard;
    if (r->finished)
        return TRACERD_OK;
    tracerd_status_t st = TRACERD_OK;
    r->core.in_cb = true;
    if (r->state == S_LOOK)
        st = start_replay(r, true);
    else if (r->replaying)
        st = replay(r);
    r->core.in_cb = false;
    if (st != TRACERD_OK)
        return st;
    r->finished = true;
    bool clean = r->state == S_DONE || r->state == S_REPORT ||
                 (r->state == S_SEG && r->si == 0 && r->st.have == 0);
    if (r->state == S_REPORT && r->off == 0)
        clean = true; /* configured layout, empty input */
    if (clean)
        return TRACERD_OK;
    char what[160];
    uint64_t at = r->state == S_HEADER ? 0 : r->rec_off;
    if (r->state == S_HEADER)
        tracerd__format(what, sizeof what, "the snapshot header (%u bytes, %zu present)",
                        (unsigned)r->lay.header_bytes, r->st.have);
    else
        tracerd__format(what, sizeof what, "snapshot %llu (%u bytes, %llu present)",
                        (unsigned long long)r->nsnap, (unsigned)r->lay.record_bytes,
                        (unsigned long long)(r->off - r->rec_off));
    if (!r->cfg.allow_truncated_tail)
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, at, "input ended inside %s",
                                  what);
    if (r->cbs.on_warning == NULL)
        return TRACERD_OK;
    char reason[200];
    tracerd__format(reason, sizeof reason, "input ended inside %s (ignored)", what);
    tracerd_warning_t w = tracerd__warning(TRACERD_E_TRUNCATED, at, r->off - at, reason);
    r->core.in_cb = true;
    int rc = snap_after_cb(r, r->cbs.on_warning(r->core.user, &w), "on_warning");
    r->core.in_cb = false;
    return rc == GO ? TRACERD_OK : snap_status(r);
}

TRACERD__SIZED_INIT(tracerd_xtrace_snap_callbacks_init, tracerd_xtrace_snap_callbacks_t, NULL)
