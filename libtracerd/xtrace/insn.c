/* xtrace instruction-stream reader (.xinsndata.bin): a token stream decoded
 * through a 256-entry table compiled from a profile. See
 * doc/formats/xtrace.md for the byte-level reading and every choice. */
#include <stdio.h>

#include <tracerd/xtrace.h>

#include "../core/reader.h"
#include "../core/sized.h"

/* Internal operations of the compiled decode table. */
enum {
    OP_BAD = 0,   /* unassigned token byte */
    OP_INST,      /* 1 + 4 */
    OP_PCINST,    /* 1 + 8 + 4 */
    OP_MEM,       /* 1 + 8 + 2^k, whole in the stitch bound */
    OP_MEM_BIG,   /* 1 + 8, then the value as fragments */
    OP_MEM_LIMIT, /* k above max_mem_log2 */
    OP_VAL,       /* 1 + 8 */
    OP_ALLGPR,    /* 1 + 256 */
    OP_FLAGS,     /* 1 + 8 */
    OP_SYSVEC,    /* 1 + 8, then iovecs */
    OP_TIME,      /* 1 + time_payload_bytes */
    OP_PAD,       /* 0x00 with allow_trailing_zero_padding */
    OP_OPAQUE     /* 1 + payload_bytes, delivered raw */
};

struct ent {
    uint8_t op;
    uint8_t a;     /* el (INST), is_store (MEM), val kind (VAL) */
    uint8_t b;     /* size_log2 (MEM) */
    uint8_t tk;    /* token kind, for messages */
    uint32_t size; /* bytes of the fixed part, token included */
};

enum {
    S_TOKEN = 0, /* at a token boundary */
    S_FIELD,     /* inside a fragmented field (MEM value, iov data) */
    S_IOV_HDR,   /* expecting the next 16-byte iovec */
    S_SV_NEXT,   /* decide what follows in a SYSCALL_VEC */
    S_SV_END,    /* deliver on_syscall_vec_end */
    S_PROBE,     /* AUTO layout: collecting the window after a SYSCALL_VEC's count */
    S_SV_BEGIN,  /* deliver on_syscall_vec (after the decision) */
    S_ZEROS,     /* trailing zero padding */
    S_DONE       /* finish returned */
};

#define ALLGPR_SIZE 257u
#define STITCH_MIN_XTRACE 272u
#define MAX_IOV_LIMIT (1u << 20)

struct tracerd_xtrace_insn_reader {
    tracerd_xtrace_insn_config_t cfg;
    tracerd_xtrace_insn_callbacks_t cbs;
    tracerd_allocator_t alloc;
    struct ent tab[256];
    struct tracerd__stitch st;
    uint64_t *iov_lens; /* GROUPED layout: the lengths, max_iov entries */

    int state;
    uint64_t off;     /* absolute offset of the next byte */
    uint64_t rec_off; /* absolute offset of the current record */
    uint64_t pc;      /* PC of the last instruction */
    bool have_pc;
    uint64_t ninsn;
    uint8_t el; /* EL of the last instruction */
    bool finished;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */

    /* fragmented field */
    uint32_t fld_field, fld_index;
    uint64_t fld_total, fld_done;
    const char *fld_what;
    /* SYSCALL_VEC */
    uint64_t sv_n, sv_i, sv_data_i;
    bool sv_headers_done;
    /* trailing padding */
    uint64_t pad_off;
    /* AUTO SYSCALL_VEC layout: the layout in use (AUTO until decided), and the
     * window collected at the first SYSCALL_VEC with iovecs, replayed after
     * the decision (probe_pos .. probe_len) before any later input. */
    tracerd_xtrace_iov_layout_t layout;
    uint8_t *probe;
    size_t probe_len, probe_pos;
    bool replaying;
};

/* ---- profile ---------------------------------------------------------- */

const char *tracerd_xtrace_iov_layout_name(tracerd_xtrace_iov_layout_t layout)
{
    static const char *const names[] = {"interleaved", "grouped", "headers-only", "auto"};
    return (unsigned)layout < 4 ? names[layout] : "?";
}

void tracerd_xtrace_profile_default(tracerd_xtrace_profile_t *p)
{
    memset(p, 0, sizeof *p);
    for (unsigned t = 0; t < 256; t++) {
        tracerd_xtrace_token_info_t *e = &p->token[t];
        unsigned cls = t & 7u, hi = t >> 3;
        switch (cls) {
        case 1: /* INST: bits [5:3] sub-type, [7:6] EL */
            if ((hi & 7u) == 0 || (hi & 7u) == 1) {
                e->kind = (hi & 7u) == 0 ? TRACERD_XTRACE_TOK_INST : TRACERD_XTRACE_TOK_PCINST;
                e->el = (uint8_t)(t >> 6);
            }
            break;
        case 2: /* MEM: bit 3 store, bits [7:4] k */
            e->kind = (t & 8u) ? TRACERD_XTRACE_TOK_STORE : TRACERD_XTRACE_TOK_LOAD;
            e->size_log2 = (uint8_t)(t >> 4);
            break;
        case 3: /* VAL: bits [7:3] 0..5 */
            if (hi <= 5) {
                e->kind = TRACERD_XTRACE_TOK_VAL;
                e->sub = (uint8_t)hi;
            }
            break;
        case 4: /* MISC: 1 ALLGPR, 3 MISC_FLAGS, 4 SYSCALL_VEC */
            if (hi == 1)
                e->kind = TRACERD_XTRACE_TOK_ALLGPR;
            else if (hi == 3)
                e->kind = TRACERD_XTRACE_TOK_MISC_FLAGS;
            else if (hi == 4)
                e->kind = TRACERD_XTRACE_TOK_SYSCALL_VEC;
            break;
        case 7:
            if (hi == 0)
                e->kind = TRACERD_XTRACE_TOK_TIME;
            break;
        default:
            break;
        }
    }
}

const char *tracerd_xtrace_val_kind_name(tracerd_xtrace_val_kind_t kind)
{
    static const char *const names[] = {"stxr", "mrs", "svcarg", "svcret", "dc", "target-b"};
    return (unsigned)kind < 6 ? names[kind] : "?";
}

const char *tracerd_xtrace_token_kind_name(tracerd_xtrace_token_kind_t kind)
{
    static const char *const names[] = {"invalid",     "inst", "pcinst", "load",
                                        "store",       "val",  "allgpr", "misc-flags",
                                        "syscall-vec", "time", "opaque"};
    return (unsigned)kind < 11 ? names[kind] : "invalid";
}

const char *tracerd_xtrace_field_name(uint32_t field)
{
    static const char *const names[] = {"?", "mem-value", "iov-data", "z", "p", "ffr", "za"};
    return field < 7 ? names[field] : "?";
}

/* Record name of a token kind for error messages. */
static const char *rec_name(uint8_t tk)
{
    static const char *const names[] = {"token",       "INST", "PCINST",      "MEM load",
                                        "MEM store",   "VAL",  "MISC ALLGPR", "MISC_FLAGS",
                                        "SYSCALL_VEC", "TIME", "opaque"};
    return tk < 11 ? names[tk] : "token";
}

static tracerd_status_t compile(struct tracerd_xtrace_insn_reader *r,
                                const tracerd_xtrace_profile_t *prof)
{
    const tracerd_xtrace_insn_config_t *c = &r->cfg;
    for (unsigned t = 0; t < 256; t++) {
        const tracerd_xtrace_token_info_t *in = &prof->token[t];
        struct ent *e = &r->tab[t];
        memset(e, 0, sizeof *e);
        e->tk = in->kind;
        e->size = 1;
        switch (in->kind) {
        case TRACERD_XTRACE_TOK_INVALID:
            e->op = (t == 0 && c->allow_trailing_zero_padding) ? OP_PAD : OP_BAD;
            e->tk = 0;
            break;
        case TRACERD_XTRACE_TOK_INST:
        case TRACERD_XTRACE_TOK_PCINST:
            if (in->el > 3)
                return TRACERD_E_INVALID;
            e->op = in->kind == TRACERD_XTRACE_TOK_INST ? OP_INST : OP_PCINST;
            e->a = in->el;
            e->size = in->kind == TRACERD_XTRACE_TOK_INST ? 5 : 13;
            break;
        case TRACERD_XTRACE_TOK_LOAD:
        case TRACERD_XTRACE_TOK_STORE:
            if (in->size_log2 > 15)
                return TRACERD_E_INVALID;
            e->a = in->kind == TRACERD_XTRACE_TOK_STORE;
            e->b = in->size_log2;
            if (in->size_log2 > c->max_mem_log2) {
                e->op = OP_MEM_LIMIT;
            } else if (9u + (1u << in->size_log2) <= r->st.cap) {
                e->op = OP_MEM;
                e->size = 9u + (1u << in->size_log2);
            } else {
                e->op = OP_MEM_BIG;
                e->size = 9;
            }
            break;
        case TRACERD_XTRACE_TOK_VAL:
            if (in->sub > 5)
                return TRACERD_E_INVALID;
            e->op = OP_VAL;
            e->a = in->sub;
            e->size = 9;
            break;
        case TRACERD_XTRACE_TOK_ALLGPR:
            e->op = OP_ALLGPR;
            e->size = ALLGPR_SIZE;
            break;
        case TRACERD_XTRACE_TOK_MISC_FLAGS:
            e->op = OP_FLAGS;
            e->size = 9;
            break;
        case TRACERD_XTRACE_TOK_SYSCALL_VEC:
            e->op = OP_SYSVEC;
            e->size = 9;
            break;
        case TRACERD_XTRACE_TOK_TIME:
            e->op = OP_TIME;
            e->size = 1u + c->time_payload_bytes;
            break;
        case TRACERD_XTRACE_TOK_OPAQUE:
            if (in->payload_bytes > 256)
                return TRACERD_E_INVALID;
            e->op = OP_OPAQUE;
            e->size = 1u + in->payload_bytes;
            break;
        default:
            return TRACERD_E_INVALID;
        }
    }
    return TRACERD_OK;
}

/* ---- lifecycle -------------------------------------------------------- */

static void xtrace_insn_config_defaults(tracerd_xtrace_insn_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->time_payload_bytes = 8;
    cfg->max_mem_log2 = 8;
    cfg->stitch_bytes = TRACERD_STITCH_DEFAULT;
    cfg->iov_layout = TRACERD_XTRACE_IOV_AUTO;
    cfg->max_iov = 1024;
    cfg->max_iov_len = (uint64_t)64 << 20;
    cfg->iov_probe_bytes = 65536;
}

TRACERD__SIZED_INIT(tracerd_xtrace_insn_config_init, tracerd_xtrace_insn_config_t,
                    xtrace_insn_config_defaults)

static bool config_ok(const tracerd_xtrace_insn_config_t *c)
{
    return c->time_payload_bytes >= 1 && c->time_payload_bytes <= 16 && c->max_mem_log2 <= 15 &&
           c->stitch_bytes >= STITCH_MIN_XTRACE && c->stitch_bytes <= ((size_t)1 << 24) &&
           (unsigned)c->iov_layout <= TRACERD_XTRACE_IOV_AUTO && c->max_iov <= MAX_IOV_LIMIT &&
           (c->iov_layout != TRACERD_XTRACE_IOV_AUTO ||
            (c->iov_probe_bytes >= 64 && c->iov_probe_bytes <= (1u << 24)));
}

size_t tracerd_xtrace_insn_memory_bound(const tracerd_xtrace_insn_config_t *cfg)
{
    tracerd_xtrace_insn_config_t d;
    if (cfg == NULL) {
        tracerd_xtrace_insn_config_init(&d);
        cfg = &d;
    }
    size_t n = sizeof(struct tracerd_xtrace_insn_reader) + cfg->stitch_bytes;
    if (cfg->iov_layout == TRACERD_XTRACE_IOV_GROUPED || cfg->iov_layout == TRACERD_XTRACE_IOV_AUTO)
        n += (size_t)(cfg->max_iov ? cfg->max_iov : 1) * sizeof(uint64_t);
    if (cfg->iov_layout == TRACERD_XTRACE_IOV_AUTO)
        n += cfg->iov_probe_bytes;
    return n;
}

static void reset_state(struct tracerd_xtrace_insn_reader *r)
{
    r->state = S_TOKEN;
    r->off = r->cfg.start_offset;
    r->rec_off = r->cfg.start_offset;
    r->have_pc = r->cfg.has_initial_pc;
    r->pc = r->cfg.initial_pc - 4u;
    r->ninsn = r->cfg.start_index;
    r->el = 0;
    r->finished = false;
    r->st.have = 0;
    r->fld_total = r->fld_done = 0;
    r->sv_n = r->sv_i = r->sv_data_i = 0;
    r->pad_off = 0;
    r->layout = r->cfg.iov_layout;
    r->probe_len = r->probe_pos = 0;
    r->replaying = false;
    tracerd__reader_reset(&r->core);
}

tracerd_status_t tracerd_xtrace_insn_new(const tracerd_xtrace_insn_config_t *cfg,
                                         const tracerd_xtrace_insn_callbacks_t *cbs, void *user,
                                         const tracerd_allocator_t *alloc,
                                         tracerd_xtrace_insn_reader_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_xtrace_insn_config_t c;
    tracerd_xtrace_insn_config_init(&c);
    tracerd_xtrace_insn_callbacks_t cb;
    tracerd_xtrace_insn_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_xtrace_insn_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_xtrace_insn_callbacks_t, &cb, cbs) != TRACERD_OK ||
        !config_ok(&c))
        return TRACERD_E_INVALID;
    struct tracerd_xtrace_insn_reader *r =
        TRACERD__READER_ALLOC(struct tracerd_xtrace_insn_reader, alloc, user, c.stitch_bytes);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->cfg = c;
    r->cfg.profile = NULL; /* copied into the table below */
    r->cbs = cb;
    tracerd_xtrace_profile_t def;
    const tracerd_xtrace_profile_t *prof = c.profile;
    if (prof == NULL) {
        tracerd_xtrace_profile_default(&def);
        prof = &def;
    }
    tracerd_status_t st = compile(r, prof);
    bool autol = c.iov_layout == TRACERD_XTRACE_IOV_AUTO;
    if (st == TRACERD_OK && (c.iov_layout == TRACERD_XTRACE_IOV_GROUPED || autol) &&
        c.max_iov > 0) {
        r->iov_lens = tracerd__calloc(&r->alloc, (size_t)c.max_iov * sizeof(uint64_t));
        if (r->iov_lens == NULL)
            st = TRACERD_E_NOMEM;
    }
    if (st == TRACERD_OK && autol) {
        r->probe = tracerd__calloc(&r->alloc, c.iov_probe_bytes);
        if (r->probe == NULL)
            st = TRACERD_E_NOMEM;
    }
    if (st != TRACERD_OK) {
        tracerd_xtrace_insn_free(r);
        return st;
    }
    reset_state(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_xtrace_insn_reset(tracerd_xtrace_insn_reader_t *r)
{
    if (r != NULL && !r->core.in_cb)
        reset_state(r);
}

void tracerd_xtrace_insn_free(tracerd_xtrace_insn_reader_t *r)
{
    if (r == NULL || r->core.in_cb)
        return;
    tracerd_allocator_t a = r->alloc;
    if (r->iov_lens != NULL)
        tracerd__free(&a, r->iov_lens, (size_t)r->cfg.max_iov * sizeof(uint64_t));
    if (r->probe != NULL)
        tracerd__free(&a, r->probe, r->cfg.iov_probe_bytes);
    tracerd__stitch_free(&r->st, &a);
    tracerd__free(&a, r, sizeof *r);
}

uint64_t tracerd_xtrace_insn_offset(const tracerd_xtrace_insn_reader_t *r)
{
    return r->off;
}

uint64_t tracerd_xtrace_insn_record_offset(const tracerd_xtrace_insn_reader_t *r)
{
    return r->core.err.status < 0 ? r->core.err.offset : r->rec_off;
}

const char *tracerd_xtrace_insn_error_reason(const tracerd_xtrace_insn_reader_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}

int tracerd_xtrace_insn_callback_error(const tracerd_xtrace_insn_reader_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

TRACERD__READER_OPS(tracerd_xtrace_insn, "xtrace-insn", tracerd_xtrace_insn_reader_t,
                    tracerd_xtrace_insn_config_t, tracerd_xtrace_insn_callbacks_t)

uint64_t tracerd_xtrace_insn_count(const tracerd_xtrace_insn_reader_t *r)
{
    return r->ninsn;
}

/* ---- decoding --------------------------------------------------------- */

/* Outcome of delivering one record: keep going, pause, or an error set in r->core.err. */
#define GO 0
#define STOP 1

/* Handles a callback's return value after the record was delivered. */
/* A callback returned rc: the reader core's one interpretation; GO, or STOP
 * for a pause or an abort (then core.paused or the sticky error says which). */
static int after_cb(struct tracerd_xtrace_insn_reader *r, int rc, const char *what)
{
    return tracerd__cb_result(&r->core, rc, what, r->rec_off) == TRACERD__CB_GO ? GO : STOP;
}

static int bad_token(struct tracerd_xtrace_insn_reader *r, uint8_t tok, uint64_t off)
{
    static const char *const cls[8] = {"0", "INST", "MEM", "VAL", "MISC", "5", "6", "TIME"};
    unsigned c = tok & 7u;
    if (c == 0 || c == 5 || c == 6)
        tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, off,
                           "token 0x%02x: class %u (bits [2:0]) is not assigned", tok, c);
    else
        tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, off,
                           "token 0x%02x: %s sub-type %u (bits [7:3]) is not assigned", tok, cls[c],
                           (unsigned)(tok >> 3));
    return STOP;
}

static void start_field(struct tracerd_xtrace_insn_reader *r, uint32_t field, uint32_t index,
                        uint64_t total, const char *what)
{
    r->fld_field = field;
    r->fld_index = index;
    r->fld_total = total;
    r->fld_done = 0;
    r->fld_what = what;
    r->state = S_FIELD;
}

/* Little-endian value of a MEM record's 2^k bytes when k <= 3. */
static inline uint64_t small_value(const uint8_t *v, unsigned k)
{
    switch (k) {
    case 0:
        return v[0];
    case 1:
        return tracerd__le16(v);
    case 2:
        return tracerd__le32(v);
    case 3:
        return tracerd__le64(v);
    default:
        return 0;
    }
}

/* A MEM record's fields: its value is in the record (`whole`, a constant at
 * each call) or follows in fragments (OP_MEM_BIG: value NULL, value_u64 0). */
static TRACERD__INLINE void mem_record(tracerd_xtrace_mem_t *rec, const struct ent *e,
                                       const uint8_t *q, uint64_t off, uint64_t n, uint8_t el,
                                       bool whole)
{
    rec->offset = off;
    rec->insn_count = n;
    rec->addr = tracerd__le64(q + 1);
    rec->value = whole ? q + 9 : NULL;
    rec->value_u64 = whole ? small_value(q + 9, e->b) : 0;
    rec->size = 1u << e->b;
    rec->size_log2 = e->b;
    rec->el = el;
    rec->is_store = e->a != 0;
}

/* Delivers one complete fixed-size record `p` (e->size bytes at absolute
 * offset `off`) of the kinds the hot loop (fast_loop) leaves to it: INST
 * before any PC, a MEM whose value comes in fragments, and every rarer
 * record; sets the next state. fast_loop decodes INST, PCINST and whole MEM
 * records, also a stitched one, so each record has one decoding. Returns GO
 * or STOP. Kept out of line: inlined into the hot loop it costs the common
 * records registers (bench/instructions.sh xtrace). */
static TRACERD__NOINLINE int deliver(struct tracerd_xtrace_insn_reader *r, const struct ent *e,
                                     const uint8_t *p, uint64_t off)
{
    const tracerd_xtrace_insn_callbacks_t *cb = &r->cbs;
    r->rec_off = off;
    switch (e->op) {
    case OP_INST: /* fast_loop takes it once the PC is known */
        tracerd__error_set(&r->core.err, TRACERD_E_ORDER, off,
                           "INST token 0x%02x before any PCINST: the PC is unknown (set "
                           "has_initial_pc to start mid-stream)",
                           p[0]);
        return STOP;
    case OP_MEM_BIG:
        start_field(r, TRACERD_XTRACE_FIELD_MEM_VALUE, 0, (uint64_t)1 << e->b,
                    e->a ? "the value of a MEM store" : "the value of a MEM load");
        if (cb->on_mem != NULL) {
            tracerd_xtrace_mem_t rec;
            mem_record(&rec, e, p, off, r->ninsn, r->el, false);
            return after_cb(r, cb->on_mem(r->core.user, &rec), "on_mem");
        }
        return GO;
    case OP_MEM_LIMIT:
        tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, off,
                           "%s token 0x%02x: value of 2^%u bytes exceeds max_mem_log2 (%u)",
                           rec_name(e->tk), p[0], (unsigned)e->b, (unsigned)r->cfg.max_mem_log2);
        return STOP;
    case OP_VAL:
        if (cb->on_val != NULL) {
            tracerd_xtrace_val_t rec = {off, r->ninsn, (tracerd_xtrace_val_kind_t)e->a,
                                        tracerd__le64(p + 1)};
            return after_cb(r, cb->on_val(r->core.user, &rec), "on_val");
        }
        return GO;
    case OP_ALLGPR:
        if (cb->on_allgpr != NULL) {
            tracerd_xtrace_allgpr_t rec;
            rec.offset = off;
            rec.insn_count = r->ninsn;
            for (unsigned i = 0; i < 32; i++)
                rec.x[i] = tracerd__le64(p + 1 + 8 * i);
            return after_cb(r, cb->on_allgpr(r->core.user, &rec), "on_allgpr");
        }
        return GO;
    case OP_FLAGS:
        if (cb->on_misc_flags != NULL) {
            tracerd_xtrace_misc_flags_t rec = {off, r->ninsn, tracerd__le64(p + 1)};
            return after_cb(r, cb->on_misc_flags(r->core.user, &rec), "on_misc_flags");
        }
        return GO;
    case OP_SYSVEC: {
        uint64_t n = tracerd__le64(p + 1);
        if (n > r->cfg.max_iov) {
            tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, off,
                               "SYSCALL_VEC: iovec count %llu exceeds max_iov (%u)",
                               (unsigned long long)n, (unsigned)r->cfg.max_iov);
            return STOP;
        }
        r->sv_n = n;
        r->sv_i = 0;
        r->sv_data_i = 0;
        /* AUTO: the first SYSCALL_VEC with iovecs decides from what follows. */
        r->state = S_SV_BEGIN;
        if (r->layout == TRACERD_XTRACE_IOV_AUTO && n > 0) {
            r->state = S_PROBE;
            r->probe_len = 0;
        }
        return GO;
    }
    case OP_TIME:
        if (cb->on_time != NULL) {
            tracerd_xtrace_time_t rec;
            size_t n = e->size - 1u;
            rec.offset = off;
            rec.insn_count = r->ninsn;
            rec.value = 0;
            for (size_t i = n < 8 ? n : 8; i-- > 0;)
                rec.value = rec.value << 8 | p[1 + i];
            rec.raw.data = p + 1;
            rec.raw.len = n;
            return after_cb(r, cb->on_time(r->core.user, &rec), "on_time");
        }
        return GO;
    case OP_OPAQUE:
        if (cb->on_opaque != NULL) {
            tracerd_xtrace_opaque_t rec = {off, r->ninsn, p[0], {p + 1, e->size - 1u}};
            return after_cb(r, cb->on_opaque(r->core.user, &rec), "on_opaque");
        }
        return GO;
    case OP_PAD:
        r->pad_off = off;
        r->state = S_ZEROS;
        return GO;
    default:
        return bad_token(r, p[0], off);
    }
}

/* One INST (pcinst false) or PCINST record q at off, the hot loop's running
 * state in its locals (*pc, *n, *el; written back to r before the callback,
 * so the accessors stay exact). pcinst is a constant at each call: each call
 * site is its own copy. Returns false when the callback paused or failed
 * (*rc set). */
static TRACERD__INLINE bool insn_step(struct tracerd_xtrace_insn_reader *r, const uint8_t *q,
                                      uint64_t off, uint8_t el_new, bool pcinst,
                                      tracerd_xtrace_insn_cb on_insn, void *user, uint64_t *pc,
                                      uint64_t *n, uint8_t *el, int *rc)
{
    *pc = pcinst ? tracerd__le64(q + 1) : *pc + 4;
    *el = el_new;
    if (on_insn == NULL) {
        ++*n;
        return true;
    }
    tracerd_xtrace_insn_t rec = {off, *n, *pc, tracerd__le32(q + (pcinst ? 9 : 1)), el_new, pcinst};
    r->rec_off = off;
    r->off = off + (pcinst ? 13 : 5);
    r->ninsn = ++*n;
    r->pc = *pc;
    r->el = *el;
    if (pcinst)
        r->have_pc = true;
    int c = on_insn(user, &rec);
    if (TRACERD__UNLIKELY(c != 0)) {
        *rc = after_cb(r, c, "on_insn");
        return false;
    }
    return true;
}

/* The hot loop: records wholly inside the chunk, decoded in place. INST,
 * PCINST and whole MEM records are handled inline with the running state in
 * locals (written back before each callback, so the accessors stay exact);
 * everything else goes through deliver(). Stops at a record that needs
 * stitching, at the end, a pause, an error or a state change. run() also
 * hands it each stitched record alone ([rec, rec + size)). */
static int fast_loop(struct tracerd_xtrace_insn_reader *r, const uint8_t **pp, const uint8_t *end,
                     const uint8_t *chunk0, uint64_t off0)
{
    const uint8_t *p = *pp;
    const struct ent *const tab = r->tab;
    const tracerd_xtrace_insn_cb on_insn = r->cbs.on_insn;
    const tracerd_xtrace_mem_cb on_mem = r->cbs.on_mem;
    void *const user = r->core.user;
    uint64_t pc = r->pc, n = r->ninsn;
    uint8_t el = r->el;
    bool have_pc = r->have_pc, stop = false;
    int rc = GO;
    while (p < end && !stop) {
        const struct ent e = tab[*p];
        if (TRACERD__UNLIKELY((size_t)(end - p) < e.size))
            break;
        /* Each case advances p by a constant where it can: when the branch is
         * predicted, the next token's address does not wait for this table load. */
        const uint8_t *q = p;
        const uint64_t off = off0 + (uint64_t)(q - chunk0);
        int c = 0;
        if (TRACERD__LIKELY(e.op == OP_INST && have_pc)) { /* the common case first */
            p += 5;
            if (TRACERD__UNLIKELY(
                    !insn_step(r, q, off, e.a, false, on_insn, user, &pc, &n, &el, &rc)))
                stop = true;
            continue;
        }
        switch (e.op) {
        case OP_PCINST:
            p += 13;
            have_pc = true;
            if (TRACERD__UNLIKELY(
                    !insn_step(r, q, off, e.a, true, on_insn, user, &pc, &n, &el, &rc)))
                stop = true;
            continue;
        case OP_MEM:
            p += e.size;
            if (on_mem != NULL) {
                tracerd_xtrace_mem_t rec;
                mem_record(&rec, &e, q, off, n, el, true);
                r->rec_off = off;
                r->off = off + e.size;
                r->ninsn = n;
                c = on_mem(user, &rec);
                if (TRACERD__UNLIKELY(c != 0)) {
                    rc = after_cb(r, c, "on_mem");
                    stop = true;
                }
            }
            continue;
        default:
            break;
        }
        /* Everything else, and INST before any PC. */
        p += e.size;
        r->pc = pc;
        r->ninsn = n;
        r->have_pc = have_pc;
        r->el = el;
        r->off = off + e.size;
        rc = deliver(r, &tab[*q], q, off);
        pc = r->pc;
        n = r->ninsn;
        have_pc = r->have_pc;
        el = r->el;
        if (rc != GO || r->state != S_TOKEN) {
            if (r->core.err.status < 0)
                p = q;
            break;
        }
    }
    r->pc = pc;
    r->ninsn = n;
    r->have_pc = have_pc;
    r->el = el;
    *pp = p;
    return rc;
}

/* Delivers the next piece of a fragmented field from the chunk. */
static int field_step(struct tracerd_xtrace_insn_reader *r, const uint8_t **pp, const uint8_t *end)
{
    size_t avail = (size_t)(end - *pp);
    uint64_t left = r->fld_total - r->fld_done;
    size_t take = left < avail ? (size_t)left : avail;
    tracerd_span_cb cb = r->fld_field == TRACERD_XTRACE_FIELD_MEM_VALUE ? r->cbs.on_mem_fragment
                                                                        : r->cbs.on_iov_data;
    tracerd_span_t sp;
    sp.field = r->fld_field;
    sp.index = r->fld_index;
    sp.record_offset = r->rec_off;
    sp.offset = r->fld_done;
    sp.total = r->fld_total;
    sp.data = *pp;
    sp.len = take;
    *pp += take;
    r->fld_done += take;
    r->off += take;
    if (r->fld_done == r->fld_total)
        r->state = r->fld_field == TRACERD_XTRACE_FIELD_MEM_VALUE ? S_TOKEN : S_SV_NEXT;
    if (cb != NULL && take > 0)
        return after_cb(r, cb(r->core.user, &sp), "fragment");
    return GO;
}

/* Reads one 16-byte iovec (stitched if needed). */
static int iov_step(struct tracerd_xtrace_insn_reader *r, const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *before = *pp;
    uint64_t iov_off = r->off - r->st.have;
    const uint8_t *h = tracerd__gather(&r->st, pp, end, 16);
    r->off += (uint64_t)(*pp - before);
    if (h == NULL)
        return STOP; /* need more input */
    uint64_t base = tracerd__le64(h), len = tracerd__le64(h + 8);
    uint32_t i = (uint32_t)r->sv_i;
    if (len > r->cfg.max_iov_len) {
        tracerd__error_set(&r->core.err, TRACERD_E_LIMIT, r->rec_off,
                           "SYSCALL_VEC: iovec %u at byte %llu: length %llu exceeds max_iov_len "
                           "(%llu)",
                           i, (unsigned long long)iov_off, (unsigned long long)len,
                           (unsigned long long)r->cfg.max_iov_len);
        return STOP;
    }
    r->sv_i++;
    switch (r->layout) {
    case TRACERD_XTRACE_IOV_INTERLEAVED:
        start_field(r, TRACERD_XTRACE_FIELD_IOV_DATA, i, len, "iovec data of a SYSCALL_VEC");
        if (len == 0)
            r->state = S_SV_NEXT;
        break;
    case TRACERD_XTRACE_IOV_GROUPED:
        r->iov_lens[i] = len;
        r->state = S_SV_NEXT;
        break;
    default:
        r->state = S_SV_NEXT;
        break;
    }
    if (r->cbs.on_iov != NULL) {
        tracerd_xtrace_iov_t rec = {r->rec_off, iov_off, i, base, len};
        return after_cb(r, r->cbs.on_iov(r->core.user, &rec), "on_iov");
    }
    return GO;
}

/* Decides what follows inside a SYSCALL_VEC. */
static void sv_next(struct tracerd_xtrace_insn_reader *r)
{
    if (r->sv_i < r->sv_n) {
        r->state = S_IOV_HDR;
        return;
    }
    if (r->layout == TRACERD_XTRACE_IOV_GROUPED) {
        while (r->sv_data_i < r->sv_n && r->iov_lens[r->sv_data_i] == 0)
            r->sv_data_i++;
        if (r->sv_data_i < r->sv_n) {
            uint32_t i = (uint32_t)r->sv_data_i++;
            start_field(r, TRACERD_XTRACE_FIELD_IOV_DATA, i, r->iov_lens[i],
                        "iovec data of a SYSCALL_VEC");
            return;
        }
    }
    r->state = S_SV_END;
}

static tracerd_status_t finish_status(const struct tracerd_xtrace_insn_reader *r)
{
    return tracerd__reader_status(&r->core);
}

/* ---- AUTO SYSCALL_VEC layout ------------------------------------------- */

/* Whether the window b[0..n) -- the bytes right after a SYSCALL_VEC's count,
 * with first_n iovecs -- reads consistently as layout L: every iovec header
 * has a canonical user address (below 2^48) and a length within max_iov_len,
 * every token after the SYSCALL_VEC is assigned (later SYSCALL_VECs read with
 * L too), and zero padding runs to the end. A walk that leaves the window is
 * consistent so far, unless the window is the whole rest of the input
 * (complete): then a record past the end is a cut tail, consistent only when
 * allow_truncated_tail. */
static bool probe_walk(const struct tracerd_xtrace_insn_reader *r, const uint8_t *b, size_t n,
                       bool complete, uint64_t first_n, tracerd_xtrace_iov_layout_t L)
{
    const bool past_ok = !complete || r->cfg.allow_truncated_tail;
    uint64_t pos = 0, vec_n = first_n;
    for (;;) {
        /* the iovecs of a SYSCALL_VEC starting at pos */
        uint64_t data = 0;
        for (uint64_t i = 0; i < vec_n; i++) {
            uint64_t hp = L == TRACERD_XTRACE_IOV_INTERLEAVED ? pos : pos + 16 * i;
            if (hp + 16 > n)
                return past_ok;
            uint64_t base = tracerd__le64(b + hp), len = tracerd__le64(b + hp + 8);
            if ((base >> 48) != 0 || len > r->cfg.max_iov_len)
                return false;
            if (L == TRACERD_XTRACE_IOV_INTERLEAVED)
                pos += 16 + len;
            else
                data += len;
        }
        if (L != TRACERD_XTRACE_IOV_INTERLEAVED)
            pos += 16 * vec_n + (L == TRACERD_XTRACE_IOV_GROUPED ? data : 0);
        /* the tokens after it, up to the next SYSCALL_VEC */
        for (;;) {
            if (pos > n)
                return past_ok;
            if (pos == n)
                return true;
            const struct ent *e = &r->tab[b[pos]];
            if (e->op == OP_BAD)
                return false;
            if (e->op == OP_PAD) {
                for (uint64_t k = pos; k < n; k++)
                    if (b[k] != 0)
                        return false;
                return true;
            }
            if (e->op == OP_MEM_LIMIT)
                return true; /* an error of its own, whatever the layout */
            if (e->op == OP_SYSVEC) {
                if (pos + 9 > n)
                    return past_ok;
                vec_n = tracerd__le64(b + pos + 1);
                if (vec_n > r->cfg.max_iov)
                    return false;
                pos += 9;
                break;
            }
            pos += e->size + (e->op == OP_MEM_BIG ? (uint64_t)1 << e->b : 0);
        }
    }
}

/* Decides the layout from the window collected at the SYSCALL_VEC at
 * rec_off, reports it, and sets up the replay of the window. GO or STOP. */
static int probe_decide(struct tracerd_xtrace_insn_reader *r, bool complete)
{
    tracerd_xtrace_iov_decision_t d;
    d.offset = r->rec_off;
    d.candidates = 0;
    for (unsigned L = 0; L < 3; L++)
        if (probe_walk(r, r->probe, r->probe_len, complete, r->sv_n,
                       (tracerd_xtrace_iov_layout_t)L))
            d.candidates |= 1u << L;
    /* preference: interleaved > grouped > headers-only (also when none fits:
     * reading on reports the exact error) */
    unsigned pick = (d.candidates & 1u) || d.candidates == 0 ? 0u : (d.candidates & 2u) ? 1u : 2u;
    d.layout = (tracerd_xtrace_iov_layout_t)pick;
    d.assumed = d.candidates != (1u << pick);
    d.window_bytes = r->probe_len;
    d.window_complete = complete;
    r->layout = d.layout;
    r->state = S_SV_BEGIN;
    r->probe_pos = 0;
    r->replaying = true;
    if (r->cbs.on_layout != NULL)
        return after_cb(r, r->cbs.on_layout(r->core.user, &d), "on_layout");
    return GO;
}

/* Collects the window from the chunk; decides when it is full. */
static int probe_step(struct tracerd_xtrace_insn_reader *r, const uint8_t **pp, const uint8_t *end)
{
    size_t room = r->cfg.iov_probe_bytes - r->probe_len, avail = (size_t)(end - *pp);
    size_t take = avail < room ? avail : room;
    memcpy(r->probe + r->probe_len, *pp, take);
    r->probe_len += take;
    *pp += take; /* r->off moves when the window is replayed */
    if (r->probe_len < r->cfg.iov_probe_bytes)
        return GO; /* the chunk is used up: wait for more, or finish */
    return probe_decide(r, false);
}

static tracerd_status_t run(struct tracerd_xtrace_insn_reader *r, const uint8_t **pp,
                            const uint8_t *end);

/* Reads the collected window after the decision (again after a pause in it,
 * before any later input). */
static tracerd_status_t replay(struct tracerd_xtrace_insn_reader *r)
{
    const uint8_t *p = r->probe + r->probe_pos, *end = r->probe + r->probe_len;
    tracerd_status_t st = run(r, &p, end);
    r->probe_pos = (size_t)(p - r->probe);
    if (st == TRACERD_OK)
        r->replaying = false;
    return st;
}

/* Parses the chunk [*pp, end). Stops at the end, a pause or an error. */
static tracerd_status_t run(struct tracerd_xtrace_insn_reader *r, const uint8_t **pp,
                            const uint8_t *end)
{
    while (*pp < end || r->state == S_SV_NEXT || r->state == S_SV_END || r->state == S_SV_BEGIN) {
        int rc = GO;
        switch (r->state) {
        case S_TOKEN: {
            /* Records wholly in the chunk are decoded in place; one that
             * straddles its end is stitched and decoded alone, by the same
             * loop (one call site: the hot loop is inlined once). */
            const uint8_t *rec = *pp, *rec_end = end;
            uint64_t off0 = r->off;
            if (r->st.have != 0 || (size_t)(end - rec) < r->tab[*rec].size) {
                if (r->st.have == 0)
                    r->rec_off = r->off;
                const struct ent *e = &r->tab[r->st.have ? r->st.buf[0] : **pp];
                const uint8_t *before = *pp;
                rec = tracerd__gather(&r->st, pp, end, e->size);
                r->off += (uint64_t)(*pp - before);
                if (rec == NULL)
                    return TRACERD_OK;
                rec_end = rec + e->size;
                off0 = r->rec_off;
            }
            const uint8_t *q = rec;
            rc = fast_loop(r, &q, rec_end, rec, off0);
            if (rec_end == end) { /* in place (a stitched record ends in the buffer) */
                *pp = q;
                r->off = off0 + (uint64_t)(q - rec);
            }
            break;
        }
        case S_FIELD:
            rc = field_step(r, pp, end);
            break;
        case S_IOV_HDR:
            rc = iov_step(r, pp, end);
            if (rc == STOP && r->core.err.status == 0 && !r->core.paused)
                return TRACERD_OK; /* waiting for the rest of the iovec */
            break;
        case S_SV_NEXT:
            sv_next(r);
            break;
        case S_PROBE:
            rc = probe_step(r, pp, end);
            if (rc == GO && r->replaying) { /* decided: the window goes first */
                tracerd_status_t st = replay(r);
                if (st != TRACERD_OK)
                    return st;
            }
            break;
        case S_SV_BEGIN:
            r->state = S_SV_NEXT;
            if (r->cbs.on_syscall_vec != NULL) {
                tracerd_xtrace_syscall_vec_t rec = {r->rec_off, r->ninsn, r->sv_n, r->layout};
                rc = after_cb(r, r->cbs.on_syscall_vec(r->core.user, &rec), "on_syscall_vec");
            }
            break;
        case S_SV_END:
            r->state = S_TOKEN;
            if (r->cbs.on_syscall_vec_end != NULL) {
                tracerd_xtrace_syscall_vec_t rec = {r->rec_off, r->ninsn, r->sv_n, r->layout};
                rc = after_cb(r, r->cbs.on_syscall_vec_end(r->core.user, &rec),
                              "on_syscall_vec_end");
            }
            break;
        case S_ZEROS: {
            const uint8_t *p = *pp;
            while (p < end && *p == 0)
                p++;
            r->off += (uint64_t)(p - *pp);
            *pp = p;
            if (p < end) {
                tracerd__error_set(&r->core.err, TRACERD_E_BAD_TOKEN, r->pad_off,
                                   "zero byte is not a token: padding from byte %llu is followed "
                                   "by data (0x%02x at byte %llu)",
                                   (unsigned long long)r->pad_off, *p, (unsigned long long)r->off);
                rc = STOP;
            }
            break;
        }
        default:
            return tracerd__error_set(&r->core.err, TRACERD_E_INVALID, r->off, "feed after finish");
        }
        if (rc != GO)
            return finish_status(r);
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd_xtrace_insn_feed(tracerd_xtrace_insn_reader_t *r, const void *data,
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
    r->core.in_cb = true;
    tracerd_status_t st = r->replaying ? replay(r) : TRACERD_OK;
    if (st == TRACERD_OK && len)
        st = run(r, &p, end);
    r->core.in_cb = false;
    if (consumed != NULL)
        *consumed = (size_t)(p - (const uint8_t *)data);
    return st;
}

tracerd_status_t tracerd_xtrace_insn_resume(tracerd_xtrace_insn_reader_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

static const char *state_what(const struct tracerd_xtrace_insn_reader *r, char *buf, size_t n)
{
    switch (r->state) {
    case S_TOKEN: {
        const struct ent *e = &r->tab[r->st.buf[0]];
        tracerd__format(buf, n, "a %s record (%u bytes, %zu present)", rec_name(e->tk),
                        (unsigned)e->size, r->st.have);
        return buf;
    }
    case S_FIELD:
        tracerd__format(buf, n, "%s (%llu bytes, %llu present)", r->fld_what,
                        (unsigned long long)r->fld_total, (unsigned long long)r->fld_done);
        return buf;
    default:
        tracerd__format(buf, n, "iovec %llu of a SYSCALL_VEC (16 bytes, %zu present)",
                        (unsigned long long)r->sv_i, r->st.have);
        return buf;
    }
}

tracerd_status_t tracerd_xtrace_insn_finish(tracerd_xtrace_insn_reader_t *r)
{
    tracerd_status_t guard = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (guard != TRACERD_OK)
        return guard;
    if (r->finished)
        return TRACERD_OK;
    /* AUTO layout: a window cut by the end of the input decides now. */
    if (r->state == S_PROBE) {
        r->core.in_cb = true;
        int rc = probe_decide(r, true);
        r->core.in_cb = false;
        if (rc != GO)
            return finish_status(r);
    }
    if (r->replaying) {
        r->core.in_cb = true;
        tracerd_status_t st = replay(r);
        r->core.in_cb = false;
        if (st != TRACERD_OK)
            return st;
    }
    /* States that complete without more bytes (an empty SYSCALL_VEC tail). */
    static const uint8_t nothing[1] = {0};
    while (r->state == S_SV_NEXT || r->state == S_SV_END || r->state == S_SV_BEGIN) {
        const uint8_t *none = nothing;
        r->core.in_cb = true;
        tracerd_status_t st = run(r, &none, nothing);
        r->core.in_cb = false;
        if (st != TRACERD_OK)
            return st;
    }
    r->finished = true;
    bool truncated = !(r->state == S_TOKEN && r->st.have == 0) && r->state != S_ZEROS;
    if (!truncated && r->state != S_ZEROS) {
        r->state = S_DONE;
        return TRACERD_OK;
    }
    char what[160];
    tracerd_warning_t w;
    if (truncated) {
        state_what(r, what, sizeof what);
        if (!r->cfg.allow_truncated_tail) {
            r->state = S_DONE;
            return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->rec_off,
                                      "input ended inside %s", what);
        }
        char reason[200];
        tracerd__format(reason, sizeof reason, "input ended inside %s (ignored)", what);
        w = tracerd__warning(TRACERD_E_TRUNCATED, r->rec_off, r->off - r->rec_off, reason);
        r->state = S_DONE;
        if (r->cbs.on_warning == NULL)
            return TRACERD_OK;
        r->core.in_cb = true;
        int rc = after_cb(r, r->cbs.on_warning(r->core.user, &w), "on_warning");
        r->core.in_cb = false;
        return rc == GO ? TRACERD_OK : finish_status(r);
    }
    tracerd__format(what, sizeof what, "%llu bytes of trailing zero padding ignored",
                    (unsigned long long)(r->off - r->pad_off));
    w = tracerd__warning(TRACERD_E_BAD_TOKEN, r->pad_off, r->off - r->pad_off, what);
    r->state = S_DONE;
    if (r->cbs.on_warning == NULL)
        return TRACERD_OK;
    r->rec_off = r->pad_off;
    r->core.in_cb = true;
    int rc = after_cb(r, r->cbs.on_warning(r->core.user, &w), "on_warning");
    r->core.in_cb = false;
    return rc == GO ? TRACERD_OK : finish_status(r);
}

TRACERD__SIZED_INIT(tracerd_xtrace_insn_callbacks_init, tracerd_xtrace_insn_callbacks_t, NULL)
