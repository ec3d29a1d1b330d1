/* CTF data stream reader: packets, events and fields decoded by running the
 * compiled programs of the trace model over the caller's chunks.
 *
 * Every record (a packet's header + context, or an event) is first
 * "measured": the programs run without delivering anything, which finds its
 * end, its stream/event class and its timestamp. A record wholly inside the
 * chunk is then delivered straight from the chunk. A packet header and
 * context that straddles chunks is gathered in the stitch buffer first and
 * delivered from there (one longer than the buffer is E_LIMIT in every
 * split). An event that straddles chunks is "streamed" once its header is
 * read: the stitch buffer becomes a window on it, the interpreter delivers
 * its fields as far as the window goes and stops at an instruction
 * boundary, and resumes there with the next chunk (big_event), so an event
 * of any length is read in every split. Strings, text arrays and BLOBs
 * longer than half the stitch buffer come in fragments (frag_value) cut by
 * the data alone, in every path. So a record's callbacks never depend on
 * how the input was cut. */
#include <math.h>
#include <stdio.h>

#include "../core/reader.h"
#include "../core/sized.h"
#include "ctf_internal.h"

#define PACKET_MAGIC TRACERD_CTF_PACKET_MAGIC

enum { S_PACKET = 0, S_EVENTS, S_PADDING, S_END };
enum { R_OK = 0, R_MORE, R_ERR };

struct loop {
    uint64_t n, i;
};

struct vm {
    const uint8_t *data;
    uint64_t bit0;  /* packet-relative bit of data[0] */
    uint64_t limit; /* packet-relative bit where usable data ends */
    bool more_ok;   /* hitting limit means "need more input" (else an error) */
    tracerd_status_t end_status;
    uint64_t pos;
    uint64_t need;
    uint32_t sp;     /* loop stack depth */
    uint32_t depth;  /* delivery nesting */
    uint64_t bo_end; /* bit after the last generic bit field (0: none yet) */
    bool bo_be;      /* its byte order */
    uint32_t pc;     /* run: the instruction to start at (0; where it stopped on R_MORE) */
    bool big;        /* a streamed event: long values resume across calls (frag_value) */
};

struct tracerd_ctf_stream {
    tracerd_allocator_t alloc;
    const struct tracerd_ctf_trace *t;
    tracerd_ctf_stream_config_t cfg;
    tracerd_ctf_callbacks_t cb;
    struct tracerd__reader core; /* user pointer, sticky error, in-callback and pause state */
    char err_path[160];
    uint64_t err_field_off;

    int state;
    uint64_t offset;  /* absolute bytes taken from the input */
    uint64_t pkt_off; /* absolute offset of the current packet */
    uint64_t pos;     /* packet-relative bit of the next record */
    uint64_t content_bits, packet_bits;
    uint64_t pkt_index, pkt_events;
    bool in_packet_seen;
    const struct ctf_stream_rt *srt;
    uint64_t rec_off;

    /* Stitch buffer: st_alloc bytes allocated, grown (stitch_reserve) as
     * straddling records need, up to st_limit (stitch_bytes). */
    uint8_t *st;
    size_t st_limit, st_alloc, st_have;
    uint64_t st_need; /* packet-relative bits needed before measuring again */

    uint64_t *slots;
    uint32_t nslots;
    uint8_t *ubuf; /* UTF-16/32 strings converted to UTF-8 (traces that have them) */
    size_t ubuf_cap;
    uint32_t have; /* roles seen (bit per role) */
    uint8_t uuid[16];
    bool uuid_warned; /* a packet uuid differing from the trace's was reported */
    uint32_t ts_bits;
    struct loop *loops;
    uint32_t nloops;

    uint64_t clock;                     /* current clock value (cycles) */
    const struct ctf_stream_rt *ns_srt; /* stream class ns_simple/ns_base were computed for */
    bool ns_simple; /* 1 GHz clock with a non-negative offset: ns = cycles + ns_base */
    uint64_t ns_base;
    bool clock_set;
    /* previous packet, for losses */
    bool prev;
    uint64_t prev_discarded, prev_seq, prev_ts_end;
    uint32_t discarded_bits;
    bool prev_has_ts_end;

    /* An event longer than the stitch buffer, delivered while it arrives:
     * the stitch buffer is a window on it (st[0] is packet byte win_byte)
     * and bvm the interpreter stopped where the window ran out. */
    bool big;
    uint32_t big_scope; /* program running: 0 header .. 3 payload */
    struct vm bvm;
    uint64_t win_byte;
    uint64_t big_need;      /* bit the window must reach before running again */
    size_t frag;            /* TRACERD_CTF_FRAGMENT_BYTES(stitch_bytes) */
    uint64_t fr_in, fr_out; /* value being fragmented: input / delivered bytes done */
    bool fr_done;           /* ... a text array's text ended: its other bytes are skipped */

    /* the measured event */
    const struct ctf_event_rt *ev;
    uint64_t ev_cycles;
    bool ev_has_ts;

    uint32_t scopes; /* scopes on_field receives (bit per TRACERD_CTF_SCOPE_*) */
    bool fast_ok;    /* events lying in the chunk may take fast_events */
    bool fast_ctx;   /* ... which then delivers the two event contexts */
    tracerd__ctf_gate_fn gate;
    void *gate_user;
    bool gated;
    /* The event fast_events measured when the gate held it back, kept so that
     * letting it through later does not measure it again: valid while
     * held_pos == pos in the same packet (set_trace, reset and errors drop it). */
    bool held;
    uint64_t held_pos, held_pkt, held_end, held_sctx, held_cycles, held_ns;
    bool held_has_ts;
    const struct ctf_event_rt *held_ev;
};

static void ctf_stream_config_defaults(tracerd_ctf_stream_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->stitch_bytes = 65536;
    cfg->max_sequence_length = (uint64_t)1 << 24;
    cfg->max_depth = 64;
    cfg->max_packet_bytes = (uint64_t)1 << 30;
    cfg->check_uuid = false;
}

TRACERD__SIZED_INIT(tracerd_ctf_stream_config_init, tracerd_ctf_stream_config_t,
                    ctf_stream_config_defaults)

size_t tracerd_ctf_stream_memory_bound(const tracerd_ctf_trace_t *trace,
                                       const tracerd_ctf_stream_config_t *cfg)
{
    tracerd_ctf_stream_config_t c;
    tracerd_ctf_stream_config_init(&c);
    (void)TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &c, cfg); /* else the defaults */
    size_t n = sizeof(struct tracerd_ctf_stream) + c.stitch_bytes;
    if (trace)
        n += sizeof(uint64_t) * trace->nslots + sizeof(struct loop) * (trace->max_loop_depth + 1) +
             (trace->has_utf ? c.stitch_bytes * 2 : 0);
    return n;
}

static tracerd_status_t alloc_tables(tracerd_ctf_stream_t *r, const struct tracerd_ctf_trace *t)
{
    if (t->max_loop_depth > r->cfg.max_depth)
        return TRACERD_E_LIMIT;
    uint64_t *slots = tracerd__calloc(&r->alloc, sizeof *slots * t->nslots);
    struct loop *loops = tracerd__calloc(&r->alloc, sizeof *loops * (t->max_loop_depth + 1));
    if (slots == NULL || loops == NULL) {
        tracerd__free(&r->alloc, slots, sizeof *slots * t->nslots);
        tracerd__free(&r->alloc, loops, sizeof *loops * (t->max_loop_depth + 1));
        return TRACERD_E_NOMEM;
    }
    if (r->slots) {
        memcpy(slots, r->slots, sizeof *slots * (r->nslots < t->nslots ? r->nslots : t->nslots));
        tracerd__free(&r->alloc, r->slots, sizeof *r->slots * r->nslots);
    }
    if (r->loops)
        tracerd__free(&r->alloc, r->loops, sizeof *r->loops * r->nloops);
    r->slots = slots;
    r->nslots = t->nslots;
    r->loops = loops;
    r->nloops = t->max_loop_depth + 1;
    size_t ucap = t->has_utf ? r->cfg.stitch_bytes * 2 : 0;
    if (ucap > r->ubuf_cap) {
        uint8_t *u = tracerd__calloc(&r->alloc, ucap);
        if (u == NULL)
            return TRACERD_E_NOMEM;
        tracerd__free(&r->alloc, r->ubuf, r->ubuf_cap);
        r->ubuf = u;
        r->ubuf_cap = ucap;
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd_ctf_stream_new(const tracerd_ctf_trace_t *trace,
                                        const tracerd_ctf_stream_config_t *cfg,
                                        const tracerd_ctf_callbacks_t *cbs, void *user,
                                        const tracerd_allocator_t *alloc,
                                        tracerd_ctf_stream_t **out)
{
    if (out == NULL || trace == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_ctf_stream_config_t c;
    tracerd_ctf_stream_config_init(&c);
    tracerd_ctf_callbacks_t cb;
    tracerd_ctf_callbacks_init(&cb);
    if (TRACERD__SIZED_READ(tracerd_ctf_stream_config_t, &c, cfg) != TRACERD_OK ||
        TRACERD__SIZED_READ(tracerd_ctf_callbacks_t, &cb, cbs) != TRACERD_OK ||
        c.stitch_bytes < TRACERD_STITCH_MIN || c.max_depth == 0 || c.max_packet_bytes == 0)
        return TRACERD_E_INVALID;
    tracerd_allocator_t a;
    tracerd__allocator_init(&a, alloc);
    tracerd_ctf_stream_t *r = tracerd__calloc(&a, sizeof *r);
    if (r == NULL)
        return TRACERD_E_NOMEM;
    r->alloc = a;
    r->t = trace;
    r->cfg = c;
    r->cb = cb;
    tracerd__reader_init(&r->core, user);
    r->scopes = c.field_scopes != 0 ? c.field_scopes : ~0u;
    {
        const uint32_t ev_scopes = (1u << TRACERD_CTF_SCOPE_EVENT_HEADER) |
                                   (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                   (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT) |
                                   (1u << TRACERD_CTF_SCOPE_EVENT_FIELDS);
        const uint32_t ctx_scopes = (1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) |
                                    (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT);
        uint32_t want = r->cb.on_field != NULL ? r->scopes & ev_scopes : 0;
        r->fast_ok = (want & ~ctx_scopes) == 0;
        r->fast_ctx = want != 0 && r->fast_ok;
    }
    r->st_limit = c.stitch_bytes; /* the stitch buffer itself: when first needed */
    r->frag = TRACERD_CTF_FRAGMENT_BYTES(c.stitch_bytes);
    tracerd_status_t st = alloc_tables(r, trace);
    if (st != TRACERD_OK) {
        tracerd_ctf_stream_free(r);
        return st;
    }
    tracerd_ctf_stream_reset(r);
    *out = r;
    return TRACERD_OK;
}

void tracerd_ctf_stream_reset(tracerd_ctf_stream_t *r)
{
    if (r == NULL)
        return;
    tracerd__reader_reset(&r->core);
    r->err_path[0] = '\0';
    r->err_field_off = 0;
    r->state = S_PACKET;
    r->offset = r->pkt_off = r->pos = 0;
    r->content_bits = r->packet_bits = UINT64_MAX;
    r->pkt_index = r->pkt_events = 0;
    r->srt = NULL;
    r->rec_off = 0;
    r->st_have = 0;
    r->st_need = 0;
    r->have = 0;
    r->clock = 0;
    r->clock_set = false;
    r->ns_srt = NULL;
    r->prev = false;
    r->uuid_warned = false;
    r->ev = NULL;
    r->gated = false;
    r->held = false;
    r->big = false;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
}

void tracerd_ctf_stream_free(tracerd_ctf_stream_t *r)
{
    if (r == NULL)
        return;
    tracerd_allocator_t a = r->alloc;
    tracerd__free(&a, r->st, r->st_alloc);
    tracerd__free(&a, r->slots, sizeof *r->slots * r->nslots);
    tracerd__free(&a, r->loops, sizeof *r->loops * r->nloops);
    tracerd__free(&a, r->ubuf, r->ubuf_cap);
    tracerd__free(&a, r, sizeof *r);
}

tracerd_status_t tracerd_ctf_stream_set_trace(tracerd_ctf_stream_t *r,
                                              const tracerd_ctf_trace_t *trace)
{
    if (r == NULL || trace == NULL || r->core.in_cb || r->st_have != 0 || r->big)
        return TRACERD_E_INVALID;
    const struct ctf_stream_rt *s = NULL;
    if (r->srt != NULL) {
        s = tracerd__ctf_stream_rt(trace, r->srt->cls->id);
        if (s == NULL)
            return TRACERD_E_REFERENCE;
    }
    tracerd_status_t st = alloc_tables(r, trace);
    if (st != TRACERD_OK)
        return st;
    r->t = trace;
    r->srt = s;
    r->ns_srt = NULL;
    r->held = false;
    return TRACERD_OK;
}

uint64_t tracerd_ctf_stream_offset(const tracerd_ctf_stream_t *r)
{
    return r->offset;
}
uint64_t tracerd_ctf_stream_record_offset(const tracerd_ctf_stream_t *r)
{
    return r->core.err.status < 0 ? r->core.err.offset : r->rec_off;
}
uint64_t tracerd_ctf_stream_error_offset(const tracerd_ctf_stream_t *r)
{
    return r->err_path[0] ? r->err_field_off : r->core.err.offset;
}
const char *tracerd_ctf_stream_error_path(const tracerd_ctf_stream_t *r)
{
    return r->err_path;
}
const char *tracerd_ctf_stream_error_reason(const tracerd_ctf_stream_t *r)
{
    return tracerd__reader_error_reason(r != NULL ? &r->core : NULL);
}
int tracerd_ctf_stream_callback_error(const tracerd_ctf_stream_t *r)
{
    return tracerd__reader_callback_error(r != NULL ? &r->core : NULL);
}

void tracerd__ctf_stream_set_gate(tracerd_ctf_stream_t *r, tracerd__ctf_gate_fn fn, void *user)
{
    r->gate = fn;
    r->gate_user = user;
}

bool tracerd__ctf_stream_gated(const tracerd_ctf_stream_t *r)
{
    return r->gated;
}

/* ==== the interpreter ===================================================== */

/* First NUL in p[0..n), or NULL: short strings are scanned inline, eight
 * bytes at a time, longer ones with memchr. */
static inline const uint8_t *find_nul(const uint8_t *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n && i < 64; i += 8) {
        uint64_t w = tracerd__le64(p + i);
        uint64_t z = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
        if (z != 0) {
#if defined(__GNUC__)
            return p + i + ((unsigned)__builtin_ctzll(z) >> 3);
#else
            for (unsigned k = 0; k < 8; k++)
                if (p[i + k] == 0)
                    return p + i + k;
#endif
        }
    }
    if (i < 64) {
        for (; i < n; i++)
            if (p[i] == 0)
                return p + i;
        return NULL;
    }
    return memchr(p + i, 0, n - i);
}

static uint64_t read_bits(const uint8_t *d, uint64_t rel, unsigned size, bool be)
{
    size_t byte = (size_t)(rel >> 3);
    unsigned bit = (unsigned)(rel & 7);
    uint64_t v = 0;
    unsigned got = 0;
    if (!be) {
        while (got < size) {
            unsigned avail = 8 - bit, take = size - got < avail ? size - got : avail;
            uint64_t chunk = ((uint64_t)d[byte] >> bit) & ((1u << take) - 1u);
            v |= chunk << got;
            got += take;
            bit = 0;
            byte++;
        }
    } else {
        while (got < size) {
            unsigned avail = 8 - bit, take = size - got < avail ? size - got : avail;
            uint64_t chunk = ((uint64_t)d[byte] >> (avail - take)) & ((1u << take) - 1u);
            v = (v << take) | chunk;
            got += take;
            bit = 0;
            byte++;
        }
    }
    return v;
}

/* Mirrors the low `size` bits (CTF 2 bit order opposite to the byte order's). */
static uint64_t reverse_bits(uint64_t v, unsigned size)
{
    uint64_t out = 0;
    for (unsigned i = 0; i < size; i++)
        out |= ((v >> i) & 1u) << (size - 1 - i);
    return out;
}

/* A binary16, binary128 or wider float of k bits at bit `rel` of d, as the
 * nearest double (float.c); its 32-bit words gathered least significant
 * first, mirrored when its bit order is reversed. */
static TRACERD__NOINLINE double floatx(const uint8_t *d, uint64_t rel, uint32_t k, bool be,
                                       bool rev)
{
    uint32_t w[CTF_FLOAT_MAX_BITS / 32];
    uint32_t n = (k + 31) / 32;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t src = rev && k % 32 == 0 ? n - 1 - j : j; /* k < 32: one word */
        unsigned cw = k - 32 * src < 32 ? k - 32 * src : 32;
        uint64_t v =
            read_bits(d, be ? rel + k - 32 * (uint64_t)src - cw : rel + 32 * (uint64_t)src, cw, be);
        w[j] = (uint32_t)(rev ? reverse_bits(v, cw) : v);
    }
    return tracerd__ctf_float_to_double(w, k);
}

static uint64_t sext(uint64_t v, unsigned size)
{
    if (size >= 64)
        return v;
    uint64_t m = (uint64_t)1 << (size - 1);
    v &= ((uint64_t)1 << size) - 1;
    return (v ^ m) - m;
}

static int vm_fail(tracerd_ctf_stream_t *r, const struct vm *vm, const struct ctf_insn *in,
                   tracerd_status_t st, const char *fmt, ...) TRACERD__PRINTF(5, 6);
static int vm_fail(tracerd_ctf_stream_t *r, const struct vm *vm, const struct ctf_insn *in,
                   tracerd_status_t st, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *path = in && in->meta ? in->meta->path : "";
    /* a field error names the field's offset; a record error the record's */
    uint64_t at = path[0] ? r->pkt_off + (vm->pos >> 3) : r->rec_off;
    tracerd__format(r->err_path, sizeof r->err_path, "%s", path);
    r->err_field_off = at;
    const char *what = r->ev ? "event '" : r->state == S_PACKET ? "packet" : "event";
    tracerd__error_set(&r->core.err, st, r->rec_off, "%s%s%s%s%s at byte %llu: %s", what,
                       r->ev ? r->ev->cls->name : "", r->ev ? "'" : "", path[0] ? " field " : "",
                       path, (unsigned long long)at, msg);
    return R_ERR;
}

/* Hitting the end of usable data at bit `need`. */
static int vm_short(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                    uint64_t need)
{
    if (vm->more_ok) {
        vm->need = need;
        return R_MORE;
    }
    if (vm->end_status == TRACERD_E_TRUNCATED)
        return vm_fail(r, vm, in, TRACERD_E_TRUNCATED, "input ends inside the field");
    return vm_fail(r, vm, in, TRACERD_E_EXTENT, "field runs past the packet content (%llu bits)",
                   (unsigned long long)r->content_bits);
}

/* The label of the first mapping holding v: a binary search in the
 * enumeration's range table (built by the compiler). */
static const char *enum_label(const tracerd_ctf_type_t *ty, uint64_t v)
{
    const struct ctf_type *t = (const struct ctf_type *)ty;
    uint32_t i = tracerd__ctf_range_find(t->ranges, t->nranges, ctf_range_key(v, ty->is_signed));
    return i < ty->nmappings ? ty->mappings[i].label : NULL;
}

/* on_field for f, whose scope the client asked for. */
static inline int call_field(tracerd_ctf_stream_t *r, const tracerd_ctf_field_t *f)
{
    r->core.in_cb = true;
    int rc = r->cb.on_field(r->core.user, f);
    r->core.in_cb = false;
    if (TRACERD__LIKELY(rc == TRACERD_CB_CONTINUE))
        return R_OK;
    return tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0 ? R_ERR : R_OK;
}

static inline void field_init(tracerd_ctf_stream_t *r, const struct vm *vm,
                              const struct ctf_insn *in, const struct ctf_prog *prog,
                              tracerd_ctf_field_t *f, uint64_t at_bits,
                              tracerd_ctf_value_kind_t kind)
{
    (void)prog; /* f->scope is set once per program (run_body) */
    f->offset = r->pkt_off + (at_bits >> 3);
    f->kind = kind;
    f->name = in->meta->name;
    f->path = in->meta->path;
    f->index = (vm->sp > 0 && in->meta->name[0] == '\0') ? (int64_t)r->loops[vm->sp - 1].i : -1;
    f->depth = vm->depth;
    f->type = in->meta->type;
    f->v.u = 0;
    f->enum_label = NULL;
    f->option = NULL;
    f->bytes.data = NULL;
    f->bytes.len = 0;
    /* frag and frag_offset: set once by run (whole values), or by frag_value */
}

static void role(tracerd_ctf_stream_t *r, const struct vm *vm, const struct ctf_insn *in,
                 uint64_t v)
{
    r->have |= 1u << in->role;
    if (in->role == ROLE_UUID && vm->sp > 0)
        r->uuid[r->loops[vm->sp - 1].i & 15] = (uint8_t)v;
    else if (in->role == ROLE_TIMESTAMP)
        r->ts_bits = in->size;
    else if (in->role == ROLE_DISCARDED)
        r->discarded_bits = in->size;
}

/* A generic bit field at bit `at`: whether it starts inside the byte where
 * the previous bit field ended with the other byte order (CTF does not allow
 * it; babeltrace2 and yactfr refuse it). Notes this field for the next. */
static inline bool byte_order_split(struct vm *vm, const struct ctf_insn *in, uint64_t at)
{
    bool be = (in->flags & INSN_BE) != 0;
    /* the previous bit field ended inside the byte this one starts in */
    bool split =
        (at & 7) != 0 && vm->bo_end > (at & ~(uint64_t)7) && vm->bo_end <= at && vm->bo_be != be;
    vm->bo_end = at + in->size;
    vm->bo_be = be;
    return split;
}

/* ---- field loaders shared by the general and the measure-only programs -- */

/* The value of integer instruction `in` whose first bit is bit `rel` of
 * data (the caller checked it is all there): the fixed-size byte-aligned
 * loads, else the generic bit field; sign-extended when signed. */
static TRACERD__INLINE uint64_t load_int(const uint8_t *data, size_t nbytes, uint64_t rel,
                                         const struct ctf_insn *in)
{
    const uint8_t *p = data + (rel >> 3);
    uint64_t v;
    switch (in->op) {
    case OP_U8:
        v = p[0];
        break;
    case OP_U16LE:
        v = tracerd__le16(p);
        break;
    case OP_U16BE:
        v = tracerd__be16(p);
        break;
    case OP_U32LE:
        v = tracerd__le32(p);
        break;
    case OP_U32BE:
        v = tracerd__be32(p);
        break;
    case OP_U64LE:
        v = tracerd__le64(p);
        break;
    case OP_U64BE:
        v = tracerd__be64(p);
        break;
    default: {
        unsigned bit = (unsigned)(rel & 7), size = in->size;
        if (TRACERD__LIKELY(bit + size <= 64 && (rel >> 3) + 8 <= nbytes)) {
            /* one 8-byte load holds the whole bit field */
            uint64_t mask = size >= 64 ? UINT64_MAX : ((uint64_t)1 << size) - 1;
            v = (in->flags & INSN_BE) ? (tracerd__be64(p) >> (64 - bit - size)) & mask
                                      : (tracerd__le64(p) >> bit) & mask;
        } else {
            v = read_bits(data, rel, size, (in->flags & INSN_BE) != 0);
        }
        if (TRACERD__UNLIKELY(in->flags & INSN_REV))
            v = reverse_bits(v, in->size);
        break;
    }
    }
    if (in->flags & INSN_SIGNED)
        v = sext(v, in->size);
    return v;
}

/* The value of 32/64-bit float instruction `in` whose first bit is bit
 * `rel` of data (the caller checked it is all there). */
static TRACERD__INLINE double load_float(const uint8_t *data, uint64_t rel,
                                         const struct ctf_insn *in)
{
    bool be = (in->flags & INSN_BE) != 0;
    uint64_t v;
    if ((rel & 7) == 0) {
        const uint8_t *p = data + (rel >> 3);
        v = in->size == 32 ? tracerd__ld32(be, p) : tracerd__ld64(be, p);
    } else {
        v = read_bits(data, rel, in->size, be);
    }
    if (TRACERD__UNLIKELY(in->flags & INSN_REV))
        v = reverse_bits(v, in->size);
    if (in->size == 32) {
        uint32_t w = (uint32_t)v;
        float fl;
        memcpy(&fl, &w, sizeof fl);
        return fl;
    }
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Appends code point c as UTF-8 to out (room checked by the caller). */
static size_t put_utf8(uint8_t *out, uint32_t c)
{
    if (c < 0x80) {
        out[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (uint8_t)(0xC0 | (c >> 6));
        out[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (c >> 12));
        out[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (c >> 18));
    out[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* A CTF 2 UTF-16 or UTF-32 text (n bytes, code units of in->size bits in
 * the byte order of INSN_BE) converted to UTF-8 in the reader's buffer, up
 * to the first all-zero unit. Unpaired surrogates, values above U+10FFFF
 * and a trailing partial unit become U+FFFD. */
static int utf_text(tracerd_ctf_stream_t *r, const struct vm *vm, const struct ctf_insn *in,
                    const uint8_t *p, size_t n, tracerd_str_t *out)
{
    unsigned u = in->size / 8;
    bool be = (in->flags & INSN_BE) != 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i += u) {
        if (o + 4 > r->ubuf_cap)
            return vm_fail(r, vm, in, TRACERD_E_LIMIT,
                           "UTF-%u string longer than the conversion buffer (%zu bytes)", in->size,
                           r->ubuf_cap);
        if (i + u > n) {
            o += put_utf8(r->ubuf + o, 0xFFFD);
            break;
        }
        uint32_t c = u == 2 ? tracerd__ld16(be, p + i) : tracerd__ld32(be, p + i);
        if (c == 0)
            break;
        if (u == 2 && c >= 0xD800 && c < 0xDC00 && i + 4 <= n) {
            uint32_t lo = tracerd__ld16(be, p + i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                i += 2;
            }
        }
        if ((c >= 0xD800 && c < 0xE000) || c > 0x10FFFF)
            c = 0xFFFD;
        o += put_utf8(r->ubuf + o, c);
    }
    out->data = (const char *)r->ubuf;
    out->len = o;
    return R_OK;
}

/* CTF 2 LEB128 integer at bit `at` (byte-aligned): R_OK with *v and the
 * bit after it in *next. At most 10 bytes, and the 10th may only hold the
 * 64th value bit (or its sign extension). */
static int load_varint(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                       uint64_t at, uint64_t *v, uint64_t *next)
{
    uint64_t x = 0;
    unsigned n = 0;
    bool sgn = (in->flags & INSN_SIGNED) != 0;
    for (;;) {
        uint64_t bit = at + (uint64_t)n * 8;
        if (bit + 8 > vm->limit) {
            vm->pos = at;
            return vm_short(r, vm, in, bit + 8);
        }
        uint8_t b = vm->data[(bit - vm->bit0) >> 3];
        if (n == 9 && (sgn ? ((b & 0x7F) != 0 && (b & 0x7F) != 0x7F) : (b & 0x7F) > 1)) {
            vm->pos = at;
            return vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                           "variable-length integer wider than 64 bits");
        }
        x |= (uint64_t)(b & 0x7F) << (7 * n);
        n++;
        if ((b & 0x80) == 0)
            break;
        if (n == 10) {
            vm->pos = at;
            return vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                           "variable-length integer longer than 10 bytes");
        }
    }
    if (sgn && 7 * n < 64)
        x = sext(x, 7 * n);
    *v = x;
    *next = at + (uint64_t)n * 8;
    return R_OK;
}

/* An integer's value into its slot, and what its role tells the reader. */
static inline void store_int(tracerd_ctf_stream_t *r, const struct vm *vm,
                             const struct ctf_insn *in, uint64_t v)
{
    r->slots[in->slot] = v;
    if (in->role)
        role(r, vm, in, v);
}

/* The NUL-terminated string at bit `at`: R_OK with its bytes (*p, *n) and
 * the bit after its NUL (*next), or what vm_short says. */
static inline int load_string(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                              uint64_t at, const uint8_t **p, size_t *n, uint64_t *next)
{
    if (at > vm->limit) {
        vm->pos = at;
        return vm_short(r, vm, in, at + 8);
    }
    *p = vm->data + ((at - vm->bit0) >> 3);
    size_t avail = (size_t)((vm->limit - at) >> 3);
    const uint8_t *z = find_nul(*p, avail);
    if (z == NULL) {
        vm->pos = at;
        return vm_short(r, vm, in, at + ((uint64_t)avail + 1) * 8);
    }
    *n = (size_t)(z - *p);
    *next = at + ((uint64_t)*n + 1) * 8;
    return R_OK;
}

/* A sequence length against max_sequence_length. */
static inline int check_seq_length(tracerd_ctf_stream_t *r, struct vm *vm,
                                   const struct ctf_insn *in, uint64_t at, uint64_t n)
{
    if (TRACERD__LIKELY(n <= r->cfg.max_sequence_length))
        return R_OK;
    vm->pos = at;
    return vm_fail(r, vm, in, TRACERD_E_LIMIT,
                   "sequence length %llu exceeds max_sequence_length %llu", (unsigned long long)n,
                   (unsigned long long)r->cfg.max_sequence_length);
}

/* CTF 2 locations through an optional or a variant: on entry it clears the
 * validity flags of the targets inside it, then sets those of the option it
 * takes (`option`; UINT32_MAX: a disabled optional). */
static void loc_flags(uint64_t *slots, const struct ctf_meta *m, uint32_t option)
{
    for (uint32_t i = 0; i < m->kill->n; i++)
        slots[m->kill->v[i]] = 0;
    if (option != UINT32_MAX)
        for (uint32_t i = 0; i < m->valid[option].n; i++)
            slots[m->valid[option].v[i]] = 1;
}

/* A text array or sequence (8-bit units) at bit `at`: R_OK with its bytes
 * (*p, *n), or the error / need for more input of the general program. */
static inline int load_text(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                            uint64_t at, const uint8_t **p, uint64_t *n)
{
    uint64_t len = in->op == OP_TEXT_ARRAY ? in->count : r->slots[in->slot];
    if (in->op == OP_TEXT_SEQ && check_seq_length(r, vm, in, at, len) != R_OK)
        return R_ERR;
    if (at > vm->limit || len > (vm->limit - at) / 8) {
        vm->pos = at;
        return vm_short(r, vm, in, len > (UINT64_MAX - at) / 8 ? UINT64_MAX : at + len * 8);
    }
    *p = vm->data + ((at - vm->bit0) >> 3);
    *n = len;
    return R_OK;
}

/* The text of n bytes at p as a string: up to its first NUL. */
static inline tracerd_str_t text_str(const uint8_t *p, uint64_t n)
{
    const uint8_t *z = memchr(p, 0, (size_t)n);
    tracerd_str_t v = {(const char *)p, z ? (size_t)(z - p) : (size_t)n};
    return v;
}

/* A fused run of scalars (compile.c, mark_runs) whose first member starts
 * at bit `at` and whose bits the caller checked are all there: every member
 * is read at its static offset, its value stored and, when dlv and its scope
 * is wanted, delivered. No dispatch through the interpreter, no alignment
 * or bound check per field. */
static int run_scalars(tracerd_ctf_stream_t *r, const struct vm *vm, const struct ctf_insn *in,
                       const struct ctf_prog *prog, uint64_t at, bool dlv)
{
    const size_t nbytes = vm->limit > vm->bit0 ? (size_t)((vm->limit - vm->bit0) >> 3) : 0;
    const uint32_t n = in->jump;
    const bool want = dlv && (r->scopes >> prog->scope & 1u);
    const int64_t elem = vm->sp > 0 ? (int64_t)r->loops[vm->sp - 1].i : -1;
    tracerd_ctf_field_t f;
    f.scope = prog->scope;
    f.depth = vm->depth;
    f.option = NULL;
    f.bytes.data = NULL;
    f.bytes.len = 0;
    f.frag = TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST;
    f.frag_offset = 0;
    for (uint32_t k = 0; k < n; k++) {
        const struct ctf_insn *e = in + k;
        const uint64_t off = k != 0 ? e->count : 0;
        if (!want && e->slot == 0)
            continue;
        const uint64_t rel = (at - vm->bit0) + off;
        const bool flt = e->op == OP_FLOAT32 || e->op == OP_FLOAT64;
        uint64_t v = 0;
        if (!flt) {
            v = load_int(vm->data, nbytes, rel, e);
            if (e->slot)
                store_int(r, vm, e, v);
        }
        if (!want)
            continue;
        const struct ctf_meta *m = e->meta;
        f.offset = r->pkt_off + ((at + off) >> 3);
        f.name = m->name;
        f.path = m->path;
        f.type = m->type;
        f.index = m->name[0] == '\0' ? elem : -1;
        f.enum_label = NULL;
        if (flt) {
            f.kind = TRACERD_CTF_VALUE_FLOAT;
            f.v.f = load_float(vm->data, rel, e);
        } else {
            f.kind = (e->flags & INSN_BOOL)     ? TRACERD_CTF_VALUE_BOOL
                     : (e->flags & INSN_SIGNED) ? TRACERD_CTF_VALUE_INT
                                                : TRACERD_CTF_VALUE_UINT;
            f.v.u = v;
            if (e->flags & INSN_ENUM)
                f.enum_label = enum_label(m->type, v);
        }
        if (call_field(r, &f) != R_OK)
            return R_ERR;
    }
    return R_OK;
}

/* at + n bytes in bits, saturating (a need past every limit). */
static inline uint64_t bits_after(uint64_t at, uint64_t n)
{
    return n > (UINT64_MAX - at) / 8 ? UINT64_MAX : at + n * 8;
}

/* The first all-zero code unit of u bytes in p[0, n) (at a multiple of u), or SIZE_MAX. */
static size_t find_zero_unit(const uint8_t *p, size_t n, unsigned u)
{
    if (u == 1) {
        const uint8_t *z = memchr(p, 0, n);
        return z ? (size_t)(z - p) : SIZE_MAX;
    }
    for (size_t i = 0; i + u <= n; i += u)
        if (p[i] == 0 && p[i + 1] == 0 && (u == 2 || (p[i + 2] == 0 && p[i + 3] == 0)))
            return i;
    return SIZE_MAX;
}

/* Where a fragment of len input bytes (more follow: p[len] is readable)
 * ends without cutting a character: before a UTF-16 high surrogate (its
 * pair follows), or before the lead byte of a UTF-8 sequence that p[len]
 * continues. */
static size_t frag_cut(const uint8_t *p, size_t len, unsigned u, bool be)
{
    if (u == 2) {
        uint32_t c = tracerd__ld16(be, p + len - 2);
        return c >= 0xD800 && c < 0xDC00 ? len - 2 : len;
    }
    if (u == 1 && (p[len] & 0xC0) == 0x80) {
        for (size_t j = len - 1; j > 0 && j + 3 >= len; j--) {
            if ((p[j] & 0xC0) == 0xC0)
                return j;
            if ((p[j] & 0xC0) != 0x80)
                break;
        }
    }
    return len;
}

/* The value of a string, text array or BLOB instruction at bit `at` (byte
 * aligned): n input bytes, or UINT64_MAX for "up to a zero code unit".
 * Delivered (dlv) whole when it has at most r->frag input bytes, else in
 * fragments of r->frag input bytes (fewer where frag_cut says); a text
 * array's text ends at its first zero unit and its other bytes are
 * skipped. In a streamed event (vm->big) the value resumes where the
 * window ran out (r->fr_*: nothing is delivered twice). R_OK with the bit
 * after the value in *next, R_MORE (vm->pos = at) or R_ERR. */
static int frag_value(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                      tracerd_ctf_scope_t scope, uint64_t at, uint64_t n, bool dlv, uint64_t *next)
{
    const bool blob = in->op == OP_BLOB;
    const bool utf = in->op == OP_USTRING || (in->flags & INSN_UTF) != 0;
    const unsigned u = utf ? in->size / 8u : 1u;
    const uint64_t F = r->frag;
    for (;;) {
        uint64_t base = at + r->fr_in * 8;
        uint64_t avail = base <= vm->limit ? (vm->limit - base) / 8 : 0;
        uint64_t rem = n == UINT64_MAX ? UINT64_MAX : n - r->fr_in;
        if (r->fr_done) { /* a text array's bytes after its text */
            uint64_t k = rem < avail ? rem : avail;
            r->fr_in += k;
            if (k < rem) {
                vm->pos = at;
                return vm_short(r, vm, in, bits_after(base, rem));
            }
            break;
        }
        /* bytes that decide this fragment: F, and for text whether a zero
         * unit follows them */
        uint64_t scan = blob ? (rem < F ? rem : F) : (rem < F + u ? rem : F + u);
        const uint8_t *p = vm->data + ((base - vm->bit0) >> 3);
        size_t look = (size_t)(scan < avail ? scan : avail);
        size_t t = blob ? SIZE_MAX : find_zero_unit(p, look, u);
        size_t len;
        bool last;
        if (t != SIZE_MAX && t <= F) {
            len = t;
            last = true;
        } else if (avail < scan) {
            vm->pos = at;
            return vm_short(r, vm, in, bits_after(base, scan));
        } else if (rem <= F) {
            len = (size_t)rem;
            last = true;
        } else {
            len = blob ? (size_t)F : frag_cut(p, (size_t)F, u, (in->flags & INSN_BE) != 0);
            last = false;
        }
        if (dlv) {
            tracerd_ctf_field_t f;
            field_init(r, vm, in, NULL, &f, at,
                       blob ? TRACERD_CTF_VALUE_BYTES : TRACERD_CTF_VALUE_STRING);
            f.frag_offset = 0;
            f.frag =
                (r->fr_in == 0 ? TRACERD_CTF_FRAG_FIRST : 0u) | (last ? TRACERD_CTF_FRAG_LAST : 0u);
            if (blob) {
                f.bytes.data = p;
                f.bytes.len = len;
                f.v.length = n;
                f.frag_offset = r->fr_in;
            } else if (utf) {
                vm->pos = at;
                if (utf_text(r, vm, in, p, len, &f.v.str) != R_OK)
                    return R_ERR;
                f.frag_offset = r->fr_out;
                r->fr_out += f.v.str.len;
            } else {
                f.v.str.data = (const char *)p;
                f.v.str.len = len;
                f.frag_offset = r->fr_in;
            }
            f.scope = scope;
            if (call_field(r, &f) != R_OK)
                return R_ERR;
        }
        r->fr_in += len;
        if (!last)
            continue;
        if (t == len) { /* the zero unit ends the text */
            if (n == UINT64_MAX) {
                r->fr_in += u;
                break;
            }
            r->fr_done = true;
            continue;
        }
        break;
    }
    *next = at + r->fr_in * 8;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
    return R_OK;
}

/* run's R_MORE: where to start again. */
static inline int run_short(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                            uint32_t pc, uint64_t need)
{
    vm->pc = pc;
    return vm_short(r, vm, in, need);
}

/* Runs one program from vm->pos (and instruction vm->pc, where a streamed
 * event's run stopped). dlv (a constant in each copy, see run): push the
 * fields to on_field, whose scope the client asked for. A fused run is
 * taken only when all its bits are there, so a run that stops does so at an
 * instruction boundary. */
static TRACERD__INLINE int run_body(tracerd_ctf_stream_t *r, struct vm *vm,
                                    const struct ctf_prog *prog, const bool dlv)
{
    const struct ctf_insn *code = prog->code;
    uint64_t pos = vm->pos;
    const uint64_t limit = vm->limit, bit0 = vm->bit0;
    const size_t nbytes = limit > bit0 ? (size_t)((limit - bit0) >> 3) : 0; /* readable */
    const uint8_t *data = vm->data;
    uint64_t *slots = r->slots;
    uint32_t pc = vm->pc;
    vm->pc = 0;
    tracerd_ctf_field_t f;
    f.scope = prog->scope;
    f.frag = TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST; /* every field run delivers */
    f.frag_offset = 0;
    uint64_t fn; /* frag: the value's length (UINT64_MAX: up to its terminator) */
    for (;;) {
        const struct ctf_insn *in = &code[pc];
        uint64_t v;
        uint64_t at = (pos + in->align - 1) & ~((uint64_t)in->align - 1);
        if (in->jump > 1 && RUN_OP(in->op) && TRACERD__LIKELY(at + in->count <= limit)) {
            /* a fused run, all in bounds (else read one field at a time) */
            if (run_scalars(r, vm, in, prog, at, dlv) != R_OK)
                return R_ERR;
            pos = at + in->count;
            pc += in->jump;
            continue;
        }
        switch (in->op) {
        case OP_END:
            vm->pos = pos;
            return R_OK;
        case OP_U8:
        case OP_U16LE:
        case OP_U16BE:
        case OP_U32LE:
        case OP_U32BE:
        case OP_U64LE:
        case OP_U64BE:
        case OP_INT: {
            if (TRACERD__UNLIKELY(at + in->size > limit)) {
                vm->pos = at;
                return run_short(r, vm, in, pc, at + in->size);
            }
            if (in->op == OP_INT && byte_order_split(vm, in, at)) {
                vm->pos = at;
                return vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                               "byte order changes inside a byte (a %s-endian field at bit %u "
                               "of a byte that a %s-endian field began): not allowed",
                               (in->flags & INSN_BE) ? "big" : "little", (unsigned)(at & 7),
                               (in->flags & INSN_BE) ? "little" : "big");
            }
            v = load_int(data, nbytes, at - bit0, in);
            pos = at + in->size;
            if (in->slot)
                store_int(r, vm, in, v);
            if (dlv) {
                field_init(r, vm, in, prog, &f, at,
                           (in->flags & INSN_BOOL)     ? TRACERD_CTF_VALUE_BOOL
                           : (in->flags & INSN_SIGNED) ? TRACERD_CTF_VALUE_INT
                                                       : TRACERD_CTF_VALUE_UINT);
                f.v.u = v;
                if (in->flags & INSN_ENUM)
                    f.enum_label = enum_label(in->meta->type, v);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_FLOAT32:
        case OP_FLOAT64: {
            if (at + in->size > limit) {
                vm->pos = at;
                return run_short(r, vm, in, pc, at + in->size);
            }
            pos = at + in->size;
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_FLOAT);
                f.v.f = load_float(data, at - bit0, in);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_FLOATX: {
            uint64_t k = in->count;
            if (at + k > limit) {
                vm->pos = at;
                return run_short(r, vm, in, pc, at + k);
            }
            pos = at + k;
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_FLOAT);
                f.v.f = floatx(data, at - bit0, (uint32_t)k, (in->flags & INSN_BE) != 0,
                               (in->flags & INSN_REV) != 0);
                if (k >= 128 && ((at - bit0) & 7) == 0) { /* the raw bytes as written */
                    f.bytes.data = data + ((at - bit0) >> 3);
                    f.bytes.len = (size_t)(k / 8);
                }
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_STRING: {
            const uint8_t *p = NULL;
            size_t n = 0;
            fn = UINT64_MAX;
            if (TRACERD__UNLIKELY(vm->big))
                goto frag;
            int rc = load_string(r, vm, in, at, &p, &n, &pos);
            if (TRACERD__UNLIKELY(rc != R_OK || n > r->frag)) {
                if (dlv)
                    goto frag; /* fragments, and the same error after them */
                if (rc != R_OK) {
                    vm->pc = pc;
                    return rc;
                }
            }
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_STRING);
                f.v.str.data = (const char *)p;
                f.v.str.len = n;
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_TEXT_ARRAY:
        case OP_TEXT_SEQ: {
            uint64_t n = in->op == OP_TEXT_ARRAY ? in->count : slots[in->slot];
            if (in->op == OP_TEXT_SEQ && check_seq_length(r, vm, in, at, n) != R_OK)
                return R_ERR;
            if (TRACERD__UNLIKELY(vm->big || (dlv && n > r->frag))) {
                fn = n;
                goto frag;
            }
            if (at > limit || n > (limit - at) / 8) {
                vm->pos = at;
                return run_short(r, vm, in, pc,
                                 n > (UINT64_MAX - at) / 8 ? UINT64_MAX : at + n * 8);
            }
            const uint8_t *p = data + ((at - bit0) >> 3);
            pos = at + n * 8;
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_STRING);
                if (in->flags & INSN_UTF) {
                    if (utf_text(r, vm, in, p, (size_t)n, &f.v.str) != R_OK)
                        return R_ERR;
                } else {
                    f.v.str = text_str(p, n);
                }
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_STRUCT_BEGIN:
            if (at > limit) {
                vm->pos = at;
                return run_short(r, vm, in, pc, at);
            }
            pos = at;
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_STRUCT_BEGIN);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
                vm->depth++;
            }
            pc++;
            break;
        case OP_STRUCT_END:
            if (dlv) {
                vm->depth--;
                field_init(r, vm, in, prog, &f, pos, TRACERD_CTF_VALUE_STRUCT_END);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        case OP_ARRAY_BEGIN:
        case OP_SEQ_BEGIN: {
            uint64_t n = in->op == OP_ARRAY_BEGIN ? in->count : slots[in->slot];
            if (in->op == OP_SEQ_BEGIN && check_seq_length(r, vm, in, at, n) != R_OK)
                return R_ERR;
            if (at > limit) {
                vm->pos = at;
                return run_short(r, vm, in, pc, at);
            }
            pos = at;
            bool seq = in->op == OP_SEQ_BEGIN;
            if (dlv) {
                field_init(r, vm, in, prog, &f, at,
                           seq ? TRACERD_CTF_VALUE_SEQUENCE_BEGIN : TRACERD_CTF_VALUE_ARRAY_BEGIN);
                f.v.length = n;
                if ((in->flags & INSN_BYTES) && n <= r->frag) {
                    if (n <= (limit - at) / 8) {
                        f.bytes.data = data + ((at - bit0) >> 3);
                        f.bytes.len = (size_t)n;
                    } else if (vm->big && vm->more_ok) {
                        vm->pos = at; /* the view needs all its bytes in the window */
                        return run_short(r, vm, in, pc, at + n * 8);
                    }
                }
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
                vm->depth++;
            }
            if (n == 0 || in->jump == pc + 1) { /* no element, or elements without fields */
                if (dlv) {
                    vm->depth--;
                    field_init(r, vm, in, prog, &f, pos,
                               seq ? TRACERD_CTF_VALUE_SEQUENCE_END : TRACERD_CTF_VALUE_ARRAY_END);
                    if (call_field(r, &f) != R_OK)
                        return R_ERR;
                }
                pc = in->jump;
                break;
            }
            r->loops[vm->sp].n = n;
            r->loops[vm->sp].i = 0;
            vm->sp++;
            pc++;
            break;
        }
        case OP_ARRAY_NEXT:
        case OP_SEQ_NEXT: {
            struct loop *l = &r->loops[vm->sp - 1];
            if (++l->i < l->n) {
                pc = in->jump;
                break;
            }
            vm->sp--;
            if (dlv) {
                vm->depth--;
                field_init(r, vm, in, prog, &f, pos,
                           in->op == OP_SEQ_NEXT ? TRACERD_CTF_VALUE_SEQUENCE_END
                                                 : TRACERD_CTF_VALUE_ARRAY_END);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_VARIANT: {
            uint64_t tag = slots[in->slot];
            const struct ctf_meta *m = in->meta;
            bool sgn = (in->flags & INSN_SIGNED) != 0;
            uint32_t k = tracerd__ctf_range_find(m->vranges, m->nvranges, ctf_range_key(tag, sgn));
            if (k >= m->nvsel) {
                vm->pos = pos;
                return vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                               sgn ? "variant tag value %lld selects no option"
                                   : "variant tag value %llu selects no option",
                               (unsigned long long)tag);
            }
            if (TRACERD__UNLIKELY(m->kill != NULL))
                loc_flags(slots, m, m->vsel[k].option);
            if (dlv) {
                field_init(r, vm, in, prog, &f, pos, TRACERD_CTF_VALUE_VARIANT_BEGIN);
                f.option = m->option_names[m->vsel[k].option];
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
                vm->depth++;
            }
            pc = m->vsel[k].target;
            break;
        }
        case OP_JUMP:
            pc = in->jump;
            break;
        case OP_VARIANT_END:
            if (dlv) {
                vm->depth--;
                field_init(r, vm, in, prog, &f, pos, TRACERD_CTF_VALUE_VARIANT_END);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        case OP_USTRING: {
            /* UTF-16/32: code units of size/8 bytes up to an all-zero one */
            size_t u = in->size / 8, i = 0;
            fn = UINT64_MAX;
            if (TRACERD__UNLIKELY(vm->big))
                goto frag;
            if (at > limit) {
                vm->pos = at;
                return run_short(r, vm, in, pc, at + in->size);
            }
            const uint8_t *p = data + ((at - bit0) >> 3);
            size_t avail = (size_t)((limit - at) >> 3);
            while (i + u <= avail &&
                   !(p[i] == 0 && p[i + 1] == 0 && (u == 2 || (p[i + 2] == 0 && p[i + 3] == 0))))
                i += u;
            if (i + u > avail) {
                if (dlv)
                    goto frag; /* fragments, and the same error after them */
                vm->pos = at;
                return run_short(r, vm, in, pc, at + ((uint64_t)i + u) * 8);
            }
            pos = at + ((uint64_t)i + u) * 8;
            if (dlv && i > r->frag)
                goto frag;
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_STRING);
                if (utf_text(r, vm, in, p, i, &f.v.str) != R_OK || call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_VARINT: {
            v = 0;
            int rc = load_varint(r, vm, in, at, &v, &pos);
            if (rc != R_OK) {
                vm->pc = pc;
                return rc;
            }
            if (in->slot)
                store_int(r, vm, in, v);
            if (dlv) {
                field_init(r, vm, in, prog, &f, at,
                           (in->flags & INSN_SIGNED) ? TRACERD_CTF_VALUE_INT
                                                     : TRACERD_CTF_VALUE_UINT);
                f.v.u = v;
                if (in->flags & INSN_ENUM)
                    f.enum_label = enum_label(in->meta->type, v);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_BLOB: {
            uint64_t n = (in->flags & INSN_DYN) ? slots[in->slot] : in->count;
            if ((in->flags & INSN_DYN) && check_seq_length(r, vm, in, at, n) != R_OK)
                return R_ERR;
            if (TRACERD__UNLIKELY(vm->big || (dlv && n > r->frag))) {
                fn = n;
                goto frag;
            }
            if (at > limit || n > (limit - at) / 8) {
                vm->pos = at;
                return run_short(r, vm, in, pc,
                                 n > (UINT64_MAX - at) / 8 ? UINT64_MAX : at + n * 8);
            }
            const uint8_t *p = data + ((at - bit0) >> 3);
            pos = at + n * 8;
            if (in->role == ROLE_UUID) {
                memcpy(r->uuid, p, 16);
                r->have |= 1u << ROLE_UUID;
            }
            if (dlv) {
                field_init(r, vm, in, prog, &f, at, TRACERD_CTF_VALUE_BYTES);
                f.bytes.data = p;
                f.bytes.len = (size_t)n;
                f.v.length = n;
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        }
        case OP_OPTIONAL: {
            uint64_t sel = slots[in->slot];
            const struct ctf_meta *m = in->meta;
            bool on = false;
            if (in->flags & INSN_BOOL) {
                on = sel != 0;
            } else {
                bool sgn = (in->flags & INSN_SIGNED) != 0;
                for (uint32_t k = 0; k < m->nvsel && !on; k++)
                    on = sgn ? ((int64_t)sel >= m->vsel[k].lo && (int64_t)sel <= m->vsel[k].hi)
                             : (sel >= (uint64_t)m->vsel[k].lo && sel <= (uint64_t)m->vsel[k].hi);
            }
            if (TRACERD__UNLIKELY(m->kill != NULL))
                loc_flags(slots, m, on ? 0 : UINT32_MAX);
            if (dlv) {
                field_init(r, vm, in, prog, &f, pos, TRACERD_CTF_VALUE_OPTIONAL_BEGIN);
                f.v.length = on;
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
                vm->depth++;
            }
            if (on) {
                pc++;
                break;
            }
            if (dlv) {
                vm->depth--;
                field_init(r, vm, in, prog, &f, pos, TRACERD_CTF_VALUE_OPTIONAL_END);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc = in->jump;
            break;
        }
        case OP_LOC_CHECK:
            if (TRACERD__UNLIKELY(slots[in->slot] == 0)) {
                vm->pos = pos;
                return vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                               "its field location '%s' names a field this record did not "
                               "decode (a disabled optional or another variant option)",
                               in->meta->type->path);
            }
            pc++;
            break;
        case OP_OPTIONAL_END:
            if (dlv) {
                vm->depth--;
                field_init(r, vm, in, prog, &f, pos, TRACERD_CTF_VALUE_OPTIONAL_END);
                if (call_field(r, &f) != R_OK)
                    return R_ERR;
            }
            pc++;
            break;
        default:
            pos = at;
            pc++;
            break;
        frag : {
            /* a long value, or any value of a streamed event */
            int rc = frag_value(r, vm, in, prog->scope, at, fn, dlv, &pos);
            if (rc != R_OK) {
                vm->pc = pc;
                return rc;
            }
            pc++;
            break;
        }
        }
    }
}

/* One copy of the interpreter that only measures, one that delivers: the
 * delivery tests vanish from the measuring copy. */
static TRACERD__NOINLINE int run_measure(tracerd_ctf_stream_t *r, struct vm *vm,
                                         const struct ctf_prog *prog)
{
    return run_body(r, vm, prog, false);
}

static TRACERD__NOINLINE int run_deliver(tracerd_ctf_stream_t *r, struct vm *vm,
                                         const struct ctf_prog *prog)
{
    return run_body(r, vm, prog, true);
}

/* Runs one program from vm->pos; dlv: deliver its fields when the client
 * asked for its scope (else it is decoded as far as reading needs, which is
 * measuring it). */
static inline int run(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_prog *prog, bool dlv)
{
    if (prog->code == NULL)
        return R_OK;
    if (dlv && (r->scopes >> prog->scope & 1u))
        return run_deliver(r, vm, prog);
    return run_measure(r, vm, prog);
}

/* Delivers a plan (compile.c, build_plan) from vm->pos: the same records,
 * checks and errors as the general program (run_body) whose steps it
 * follows, with the fixed part of each record copied as one block from the
 * step's template and the nesting known at compile time. */
static int run_plan(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_pop *plan)
{
    uint64_t pos = vm->pos;
    const uint64_t bit0 = vm->bit0, limit = vm->limit, pkt_off = r->pkt_off;
    const size_t nbytes = limit > bit0 ? (size_t)((limit - bit0) >> 3) : 0;
    const uint8_t *data = vm->data;
    uint64_t *slots = r->slots;
    struct loop *loops = r->loops;
    const struct ctf_pop *next = plan;
    const tracerd_ctf_field_cb on_field = r->cb.on_field;
    void *user = r->core.user;
    const uint64_t frag = r->frag;
    uint64_t fn; /* frag: the value's length (UINT64_MAX: up to its NUL) */
    tracerd_ctf_field_t f;
    memset(&f, 0, sizeof f);
    f.frag = TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST; /* a plan delivers values whole */
    r->core.in_cb = true; /* between the calls only this loop runs; cleared on every return */
    int ret = R_OK;
    for (;;) {
        const struct ctf_pop *p = next++;
        const struct ctf_insn *in = &p->in;
        bool dirty = false; /* enum_label, option or bytes set */
        uint64_t at = (pos + in->align - 1) & ~((uint64_t)in->align - 1), v;
        bool end = false;      /* an empty array/sequence: its end follows at once */
        uint32_t isp = vm->sp; /* loops around the record (its index is the innermost's) */
        switch (in->op) {
        case OP_END:
            vm->pos = pos;
            goto out;
        case OP_JUMP: /* the end of a variant option */
            next = plan + in->jump;
            continue;
        case OP_U8:
        case OP_U16LE:
        case OP_U16BE:
        case OP_U32LE:
        case OP_U32BE:
        case OP_U64LE:
        case OP_U64BE:
        case OP_INT:
            if (TRACERD__UNLIKELY(at + in->size > limit))
                goto short_field;
            v = load_int(data, nbytes, at - bit0, in);
            pos = at + in->size;
            if (in->slot)
                store_int(r, vm, in, v);
            f.v.u = v;
            if (p->enum_label) {
                f.enum_label = enum_label(in->meta->type, v);
                dirty = true;
            }
            break;
        case OP_FLOAT32:
        case OP_FLOAT64: {
            if (TRACERD__UNLIKELY(at + in->size > limit))
                goto short_field;
            pos = at + in->size;
            f.v.f = load_float(data, at - bit0, in);
            break;
        }
        case OP_STRING: {
            const uint8_t *q = NULL;
            size_t n = 0;
            fn = UINT64_MAX;
            if (TRACERD__UNLIKELY(load_string(r, vm, in, at, &q, &n, &pos) != R_OK || n > frag))
                goto frag; /* fragments, and the same error after them (as run_body) */
            f.v.str.data = (const char *)q;
            f.v.str.len = n;
            break;
        }
        case OP_TEXT_ARRAY:
        case OP_TEXT_SEQ: {
            const uint8_t *q = NULL;
            uint64_t n = in->op == OP_TEXT_ARRAY ? in->count : slots[in->slot];
            if (TRACERD__UNLIKELY(n > frag)) {
                if (in->op == OP_TEXT_SEQ && check_seq_length(r, vm, in, at, n) != R_OK)
                    goto fail;
                fn = n;
                goto frag;
            }
            if ((ret = load_text(r, vm, in, at, &q, &n)) != R_OK)
                goto out;
            f.v.str = text_str(q, n);
            pos = at + n * 8;
            break;
        }
        case OP_STRUCT_BEGIN:
            if (at > limit)
                goto short_at;
            pos = at;
            f.v.u = 0;
            break;
        case OP_ARRAY_BEGIN:
        case OP_SEQ_BEGIN: {
            uint64_t n = in->op == OP_ARRAY_BEGIN ? in->count : slots[in->slot];
            if (in->op == OP_SEQ_BEGIN && check_seq_length(r, vm, in, at, n) != R_OK)
                goto fail;
            if (at > limit)
                goto short_at;
            pos = at;
            f.v.length = n;
            if ((in->flags & INSN_BYTES) && n <= frag && n <= (limit - at) / 8) {
                f.bytes.data = data + ((at - bit0) >> 3);
                f.bytes.len = (size_t)n;
                dirty = true;
            }
            if (n == 0 || plan + in->jump == next) {
                end = true;
                next = plan + in->jump;
            } else {
                loops[vm->sp].n = n;
                loops[vm->sp].i = 0;
                vm->sp++;
            }
            break;
        }
        case OP_ARRAY_NEXT:
        case OP_SEQ_NEXT:
            if (++loops[vm->sp - 1].i < loops[vm->sp - 1].n) {
                next = plan + in->jump;
                continue;
            }
            isp = --vm->sp;
            at = pos;
            f.v.u = 0;
            break;
        case OP_VARIANT: {
            const struct ctf_meta *m = in->meta;
            uint64_t tag = slots[in->slot];
            bool sgn = (in->flags & INSN_SIGNED) != 0;
            uint32_t k = tracerd__ctf_range_find(m->vranges, m->nvranges, ctf_range_key(tag, sgn));
            if (TRACERD__UNLIKELY(k >= m->nvsel)) {
                vm->pos = pos;
                ret = vm_fail(r, vm, in, TRACERD_E_BAD_RECORD,
                              sgn ? "variant tag value %lld selects no option"
                                  : "variant tag value %llu selects no option",
                              (unsigned long long)tag);
                goto out;
            }
            if (TRACERD__UNLIKELY(m->kill != NULL))
                loc_flags(slots, m, m->vsel[k].option);
            f.option = m->option_names[m->vsel[k].option];
            dirty = true;
            f.v.u = 0;
            next = plan + p->targets[k];
            break;
        }
        default: /* OP_STRUCT_END, OP_VARIANT_END */
            at = pos;
            f.v.u = 0;
            break;
        }
        memcpy((char *)&f + CTF_TMPL_FIRST, &p->t, CTF_TMPL_BYTES);
        if (p->elem)
            f.index = (int64_t)loops[isp - 1].i;
        f.offset = pkt_off + (at >> 3);
        int rc = on_field(user, &f);
        if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE) &&
            tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0)
            goto fail;
        if (TRACERD__UNLIKELY(dirty)) {
            f.enum_label = NULL;
            f.option = NULL;
            f.bytes.data = NULL;
            f.bytes.len = 0;
        }
        if (TRACERD__UNLIKELY(end)) {
            f.kind = in->op == OP_ARRAY_BEGIN ? TRACERD_CTF_VALUE_ARRAY_END
                                              : TRACERD_CTF_VALUE_SEQUENCE_END;
            f.v.u = 0;
            rc = on_field(user, &f);
            if (TRACERD__UNLIKELY(rc != TRACERD_CB_CONTINUE) &&
                tracerd__cb_result(&r->core, rc, "on_field", r->rec_off) < 0)
                goto fail;
        }
        continue;
    short_field:
        vm->pos = at;
        ret = vm_short(r, vm, in, at + in->size);
        goto out;
    short_at:
        vm->pos = at;
        ret = vm_short(r, vm, in, at);
        goto out;
    frag:
        /* a value longer than a fragment: delivered as run_body does */
        vm->depth = p->t.depth;
        ret = frag_value(r, vm, in, p->t.scope, at, fn, true, &pos);
        r->core.in_cb = true;
        if (ret != R_OK)
            goto out;
    }
fail:
    ret = R_ERR;
out:
    r->core.in_cb = false;
    return ret;
}

/* Runs a measure-only program (fused skips, stored integers, strings,
 * sequences of fixed elements, LTTng headers). */
static int run_fast(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *code)
{
    uint64_t pos = vm->pos;
    const uint64_t limit = vm->limit, bit0 = vm->bit0;
    const size_t nbytes = limit > bit0 ? (size_t)((limit - bit0) >> 3) : 0; /* readable */
    const uint8_t *data = vm->data;
    uint64_t *slots = r->slots;
    for (;; code++) {
        const struct ctf_insn *in = code;
        uint64_t v, at = (pos + in->align - 1) & ~((uint64_t)in->align - 1);
        const uint8_t *p;
        switch (in->op) {
        case OP_END:
            vm->pos = pos;
            return R_OK;
        case OP_SKIP:
            if (TRACERD__UNLIKELY(at + in->count > limit))
                goto short_at;
            pos = at + in->count;
            continue;
        case OP_STRING: {
            size_t n;
            int rc = load_string(r, vm, in, at, &p, &n, &pos);
            if (rc != R_OK)
                return rc;
            continue;
        }
        case OP_SEQ_SKIP: {
            uint64_t n = slots[in->slot];
            if (check_seq_length(r, vm, in, at, n) != R_OK)
                return R_ERR;
            uint64_t bits = n * in->count;
            if (at > limit || (in->count != 0 && n > (limit - at) / in->count) ||
                bits > limit - at) {
                vm->pos = at;
                return vm_short(r, vm, in,
                                in->count != 0 && n > (UINT64_MAX - at) / in->count ? UINT64_MAX
                                                                                    : at + bits);
            }
            pos = at + bits;
            continue;
        }
        case OP_LTTNG_COMPACT:
        case OP_LTTNG_LARGE: {
            bool big = (in->flags & INSN_BE) != 0, compact = in->op == OP_LTTNG_COMPACT;
            uint64_t hb = compact ? 32 : 48, id, ts;
            if (at + hb > limit) {
                vm->pos = at;
                return vm_short(r, vm, in, at + hb);
            }
            p = data + ((at - bit0) >> 3);
            uint32_t tsb;
            if (compact) {
                if (big) {
                    id = p[0] >> 3;
                    ts = tracerd__be32(p) & 0x7FFFFFFu;
                } else {
                    uint32_t w = tracerd__le32(p);
                    id = w & 31u;
                    ts = w >> 5;
                }
                tsb = 27;
            } else {
                id = tracerd__ld16(big, p);
                ts = tracerd__ld32(big, p + 2);
                tsb = 32;
            }
            pos = at + hb;
            if (id == (compact ? 31u : 65535u)) {
                uint64_t off = compact ? 1 : 2; /* bytes before the extended struct */
                if (at + (off + 12) * 8 > limit) {
                    vm->pos = at;
                    return vm_short(r, vm, in, at + (off + 12) * 8);
                }
                id = tracerd__ld32(big, p + off);
                ts = tracerd__ld64(big, p + off + 4);
                tsb = 64;
                pos = at + (off + 12) * 8;
            }
            slots[ROLE_EVENT_ID] = id;
            slots[ROLE_TIMESTAMP] = ts;
            r->ts_bits = tsb;
            r->have |= (1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP);
            continue;
        }
        default:
            break;
        }
        /* integers with a stored value */
        if (TRACERD__UNLIKELY(at + in->size > limit))
            goto short_at;
        v = load_int(data, nbytes, at - bit0, in);
        pos = at + in->size;
        store_int(r, vm, in, v);
        continue;
    short_at:
        vm->pos = at;
        return vm_short(r, vm, in, at + (in->op == OP_SKIP ? in->count : in->size));
    }
}

/* ==== records ============================================================= */

/* A callback returned rc: the reader core's one interpretation (a pause is
 * taken after the record, by step). */
static int cb_ret(tracerd_ctf_stream_t *r, int rc, const char *name)
{
    return tracerd__cb_result(&r->core, rc, name, r->rec_off) < 0 ? R_ERR : R_OK;
}

static uint64_t clock_ns(const struct tracerd_ctf_trace *t, int clock, uint64_t cycles)
{
    if (clock < 0)
        return cycles;
    const tracerd_ctf_clock_t *c = &t->info.clocks[clock];
    /* offset_s seconds + (offset + cycles) / freq, saturating at 0 and UINT64_MAX */
    bool neg = false;
    uint64_t cyc;
    if (c->offset >= 0) {
        if (tracerd__add64_overflows(cycles, (uint64_t)c->offset, &cyc))
            cyc = UINT64_MAX;
    } else {
        uint64_t o = (uint64_t)(-(c->offset + 1)) + 1u;
        if (cycles >= o) {
            cyc = cycles - o;
        } else {
            cyc = o - cycles;
            neg = true;
        }
    }
    uint64_t part;
    if (c->freq == 1000000000u)
        part = cyc;
    else if (c->freq <= UINT64_MAX / 1000000000u)
        part = (cyc / c->freq) * 1000000000u + (cyc % c->freq) * 1000000000u / c->freq;
    else
        part = tracerd__muldiv64(cyc, 1000000000u, c->freq);
    uint64_t base;
    if (c->offset_s >= 0) {
        if ((uint64_t)c->offset_s > UINT64_MAX / 1000000000u)
            return UINT64_MAX;
        base = (uint64_t)c->offset_s * 1000000000u;
        if (neg)
            return base >= part ? base - part : 0;
        uint64_t out;
        return tracerd__add64_overflows(base, part, &out) ? UINT64_MAX : out;
    }
    uint64_t s = (uint64_t)(-(c->offset_s + 1)) + 1u;
    if (s > UINT64_MAX / 1000000000u || neg)
        return 0;
    base = s * 1000000000u;
    return part > base ? part - base : 0;
}

static inline uint64_t event_ns(tracerd_ctf_stream_t *r, uint64_t cycles)
{
    if (r->ns_srt != r->srt) {
        r->ns_srt = r->srt;
        int ck = r->srt->clock;
        const tracerd_ctf_clock_t *c = ck >= 0 ? &r->t->info.clocks[ck] : NULL;
        r->ns_simple = c == NULL || (c->freq == 1000000000u && c->offset >= 0 && c->offset_s >= 0 &&
                                     (uint64_t)c->offset_s < UINT64_MAX / 2000000000u &&
                                     (uint64_t)c->offset < UINT64_MAX / 2);
        r->ns_base = c == NULL ? 0 : (uint64_t)c->offset_s * 1000000000u + (uint64_t)c->offset;
    }
    if (r->ns_simple && cycles < UINT64_MAX - r->ns_base)
        return cycles + r->ns_base;
    return clock_ns(r->t, r->srt->clock, cycles);
}

static inline uint64_t unwrap(uint64_t cur, uint64_t v, uint32_t bits)
{
    if (bits >= 64)
        return v;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t low = cur & mask;
    uint64_t base = cur & ~mask;
    if (v < low)
        base += mask + 1;
    return base | v;
}

/* ---- event steps shared by the general and the fast paths ---------------- */

/* The class of the event whose header was just measured: its id field, or
 * the stream's only class (else id 0). NULL when the id is not declared. */
static inline const struct ctf_event_rt *event_class(const tracerd_ctf_stream_t *r,
                                                     const struct ctf_stream_rt *s, uint64_t *id)
{
    *id = (r->have & (1u << ROLE_EVENT_ID)) ? r->slots[ROLE_EVENT_ID]
          : s->nevents == 1                 ? s->events[0].cls->id
                                            : 0;
    return s->direct ? (*id < s->ndirect ? s->direct[*id] : NULL) : tracerd__ctf_event_rt(s, *id);
}

/* The measured event's time: its header timestamp unwrapped against the
 * stream clock, or the clock when it has none. */
static inline void event_time(tracerd_ctf_stream_t *r)
{
    r->ev_has_ts = (r->have & (1u << ROLE_TIMESTAMP)) != 0;
    r->ev_cycles = r->ev_has_ts ? unwrap(r->clock, r->slots[ROLE_TIMESTAMP], r->ts_bits) : r->clock;
}

/* The gate's answer for the measured event (true: deliver it now). The
 * clock advances only when it is delivered. */
static inline bool event_open(tracerd_ctf_stream_t *r, uint64_t ns)
{
    if (r->gate && !r->gate(r->gate_user, ns)) {
        r->gated = true;
        return false;
    }
    r->clock = r->ev_cycles;
    return true;
}

/* The measured event as the callbacks see it. */
static inline void event_fill(const tracerd_ctf_stream_t *r, tracerd_ctf_event_t *e, uint64_t ns)
{
    e->offset = r->rec_off;
    e->cls = r->ev->cls;
    e->stream_class = r->srt->cls;
    e->id = e->cls->id;
    e->name = e->cls->name;
    e->cycles = r->ev_cycles;
    e->ns = ns;
    e->has_clock = r->srt->clock >= 0 || r->ev_has_ts || r->clock_set;
    e->packet_index = r->pkt_index;
}

/* on_event_begin / on_event_end (fn not NULL). */
static inline int event_cb(tracerd_ctf_stream_t *r, tracerd_ctf_event_cb fn,
                           const tracerd_ctf_event_t *e, const char *name)
{
    r->core.in_cb = true;
    int rc = fn(r->core.user, e);
    r->core.in_cb = false;
    return rc == 0 ? R_OK : cb_ret(r, rc, name);
}

/* Measures the packet header + context (pass 1) or delivers its fields. */
static int packet_programs(tracerd_ctf_stream_t *r, struct vm *vm, bool dlv)
{
    const struct tracerd_ctf_trace *t = r->t;
    if (!dlv)
        r->have = 0;
    int rc = run(r, vm, &t->packet_header, dlv);
    if (rc != R_OK)
        return rc;
    if (!dlv) {
        if ((r->have & (1u << ROLE_MAGIC)) && r->slots[ROLE_MAGIC] != PACKET_MAGIC)
            return vm_fail(r, vm, NULL, TRACERD_E_MAGIC,
                           "packet magic is 0x%08llx, expected 0xc1fc1fc1",
                           (unsigned long long)r->slots[ROLE_MAGIC]);
        if (r->cfg.check_uuid && t->info.has_uuid && (r->have & (1u << ROLE_UUID)) &&
            memcmp(r->uuid, t->info.uuid, 16) != 0)
            return vm_fail(r, vm, NULL, TRACERD_E_MAGIC,
                           "packet header uuid differs from the trace uuid");
        uint64_t sid = (r->have & (1u << ROLE_STREAM_ID)) ? r->slots[ROLE_STREAM_ID]
                       : t->info.nstreams == 1            ? t->info.streams[0]->id
                                                          : 0;
        r->srt = tracerd__ctf_stream_rt(t, sid);
        if (r->srt == NULL)
            return vm_fail(r, vm, NULL, TRACERD_E_REFERENCE,
                           "stream id %llu is not declared in the metadata",
                           (unsigned long long)sid);
    }
    return run(r, vm, &r->srt->packet_context, dlv);
}

/* Event header, then the event class and the timestamp (measure only). */
/* An event header longer than the stitch buffer (r->ev NULL: its class is
 * not known yet). */
static int header_too_big(tracerd_ctf_stream_t *r, struct vm *vm)
{
    r->ev = NULL;
    return vm_fail(r, vm, NULL, TRACERD_E_LIMIT,
                   "event header is larger than the stitch buffer (%zu bytes)", r->st_limit);
}

static int event_header_measure(tracerd_ctf_stream_t *r, struct vm *vm)
{
    const struct ctf_stream_rt *s = r->srt;
    r->have &= ~((1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP));
    r->ev = NULL;
    uint64_t start = vm->pos;
    /* An event header must fit the stitch buffer (it is measured whole
     * before anything of its event is delivered: the class and the time are
     * in it): read at most that many bytes of it, also when more lie in the
     * chunk, so that a longer one is E_LIMIT in every split. */
    const uint64_t limit = vm->limit, cap = (start >> 3 << 3) + (uint64_t)r->st_limit * 8;
    const bool more_ok = vm->more_ok, capped = limit > cap;
    if (TRACERD__UNLIKELY(capped)) {
        vm->limit = cap;
        vm->more_ok = true;
    }
    int rc = s->event_header.fast ? run_fast(r, vm, s->event_header.fast)
                                  : run(r, vm, &s->event_header, false);
    if (rc == R_ERR && s->event_header.fast) {
        vm->pos = start; /* the full program names the field at fault */
        rc = run(r, vm, &s->event_header, false);
    }
    if (TRACERD__UNLIKELY(capped)) {
        vm->limit = limit;
        vm->more_ok = more_ok;
        if (rc == R_MORE)
            return header_too_big(r, vm);
    }
    if (rc != R_OK)
        return rc;
    uint64_t id;
    r->ev = event_class(r, s, &id);
    if (r->ev == NULL)
        return vm_fail(r, vm, NULL, TRACERD_E_REFERENCE,
                       "event id %llu is not declared in stream %llu", (unsigned long long)id,
                       (unsigned long long)s->cls->id);
    event_time(r);
    return R_OK;
}

/* Contexts and fields after the header: measure (dlv false) or deliver. */
static int event_body(tracerd_ctf_stream_t *r, struct vm *vm, bool dlv)
{
    const struct ctf_stream_rt *s = r->srt;
    uint64_t start = vm->pos;
    if (!dlv && r->ev->body_fast) {
        int rc = run_fast(r, vm, r->ev->body_fast);
        if (rc != R_ERR)
            return rc;
        vm->pos = start; /* the full programs name the field at fault */
    }
    int rc = run(r, vm, &s->event_context, dlv);
    if (rc == R_OK)
        rc = run(r, vm, &r->ev->context, dlv);
    if (rc == R_OK)
        rc = run(r, vm, &r->ev->fields, dlv);
    return rc;
}

static int event_programs(tracerd_ctf_stream_t *r, struct vm *vm, bool dlv)
{
    if (!dlv) {
        int rc = event_header_measure(r, vm);
        return rc == R_OK ? event_body(r, vm, false) : rc;
    }
    int rc = run(r, vm, &r->srt->event_header, true);
    return rc == R_OK ? event_body(r, vm, true) : rc;
}

static int emit_loss(tracerd_ctf_stream_t *r, tracerd_ctf_loss_kind_t kind, uint64_t count,
                     uint64_t begin, uint64_t end, bool has_clock)
{
    if (r->cb.on_loss == NULL)
        return R_OK;
    tracerd_ctf_loss_t l = {r->pkt_off, kind, count, r->srt->cls->id, begin, end, has_clock};
    r->core.in_cb = true;
    int rc = r->cb.on_loss(r->core.user, &l);
    r->core.in_cb = false;
    return cb_ret(r, rc, "on_loss");
}

/* A warning, delivered at once: a CTF warning is about one packet (a
 * lenient skip runs to the packet's end, whose on_packet_end follows), so
 * two are never consecutive; it still goes through the reader core's run
 * (count 1, size set, as every reader's). */
static int warn_now(tracerd_ctf_stream_t *r, const tracerd_warning_t *w)
{
    if (cb_ret(r, tracerd__warn(&r->core, r->cb.on_warning, w), "on_warning") != R_OK)
        return R_ERR;
    return cb_ret(r, tracerd__warn_flush(&r->core, r->cb.on_warning), "on_warning");
}

/* A packet header uuid differs from the trace's, check_uuid off (the
 * default: babeltrace2 and yactfr read such traces): one warning per stream. */
static int uuid_warning(tracerd_ctf_stream_t *r)
{
    r->uuid_warned = true;
    if (r->cb.on_warning == NULL)
        return R_OK;
    char reason[TRACERD__REASON_MAX];
    tracerd__format(reason, sizeof reason,
                    "packet %llu: packet header uuid differs from the trace uuid (read on; "
                    "reported once per stream; check_uuid makes it an error)",
                    (unsigned long long)r->pkt_index);
    tracerd_warning_t w = tracerd__warning(TRACERD_E_MAGIC, r->pkt_off, 0, reason);
    return warn_now(r, &w);
}

/* Packet measured: check sizes, report losses and the packet. */
static int packet_deliver(tracerd_ctf_stream_t *r, struct vm *vm)
{
    uint32_t h = r->have;
    uint64_t *s = r->slots;
    uint64_t content = (h & (1u << ROLE_CONTENT_SIZE)) ? s[ROLE_CONTENT_SIZE] : UINT64_MAX;
    uint64_t size = (h & (1u << ROLE_PACKET_SIZE)) ? s[ROLE_PACKET_SIZE] : UINT64_MAX;
    if (size == UINT64_MAX && content != UINT64_MAX)
        size = (content + 7) & ~(uint64_t)7;
    if (content == UINT64_MAX && size != UINT64_MAX)
        content = size;
    if (size != UINT64_MAX) {
        if (size % 8 != 0 || size / 8 > r->cfg.max_packet_bytes || size == 0)
            return vm_fail(r, vm, NULL, size % 8 ? TRACERD_E_BAD_RECORD : TRACERD_E_LIMIT,
                           "packet_size %llu bits is not a byte multiple or exceeds "
                           "max_packet_bytes",
                           (unsigned long long)size);
        if (content > size)
            return vm_fail(r, vm, NULL, TRACERD_E_EXTENT,
                           "content_size %llu bits is beyond packet_size %llu bits",
                           (unsigned long long)content, (unsigned long long)size);
        if (vm->pos > content)
            return vm_fail(r, vm, NULL, TRACERD_E_EXTENT,
                           "packet header and context (%llu bits) run past content_size %llu "
                           "bits",
                           (unsigned long long)vm->pos, (unsigned long long)content);
    }
    r->content_bits = content;
    r->packet_bits = size;
    if (!r->uuid_warned && r->t->info.has_uuid && (h & (1u << ROLE_UUID)) &&
        memcmp(r->uuid, r->t->info.uuid, 16) != 0 && uuid_warning(r) != R_OK)
        return R_ERR;
    int clock = r->srt->clock;
    bool has_clock = clock >= 0 || (h & (1u << ROLE_TS_BEGIN));
    if (h & (1u << ROLE_TS_BEGIN)) {
        r->clock = s[ROLE_TS_BEGIN];
        r->clock_set = true;
    }
    /* losses against the previous packet of this stream */
    if (r->prev) {
        if ((h & (1u << ROLE_DISCARDED))) {
            uint64_t mask =
                r->discarded_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << r->discarded_bits) - 1;
            uint64_t diff = (s[ROLE_DISCARDED] - r->prev_discarded) & mask;
            if (diff != 0 &&
                emit_loss(r, TRACERD_CTF_LOSS_EVENTS, diff, r->prev_ts_end,
                          (h & (1u << ROLE_TS_END)) ? s[ROLE_TS_END] : r->clock, has_clock) != R_OK)
                return R_ERR;
        }
        if ((h & (1u << ROLE_SEQ_NUM)) && s[ROLE_SEQ_NUM] > r->prev_seq + 1 &&
            emit_loss(r, TRACERD_CTF_LOSS_PACKETS, s[ROLE_SEQ_NUM] - r->prev_seq - 1,
                      r->prev_ts_end, r->clock, has_clock) != R_OK)
            return R_ERR;
    }
    r->prev = true;
    r->prev_discarded = s[ROLE_DISCARDED];
    r->prev_seq = s[ROLE_SEQ_NUM];
    r->prev_ts_end = (h & (1u << ROLE_TS_END)) ? s[ROLE_TS_END] : r->clock;
    if (r->cb.on_packet_begin) {
        tracerd_ctf_packet_t p;
        memset(&p, 0, sizeof p);
        p.offset = r->pkt_off;
        p.index = r->pkt_index;
        p.stream_class = r->srt->cls;
        p.stream_id = r->srt->cls->id;
        p.has_stream_instance_id = (h & (1u << ROLE_STREAM_INSTANCE_ID)) != 0;
        p.stream_instance_id = p.has_stream_instance_id ? s[ROLE_STREAM_INSTANCE_ID] : 0;
        p.content_size_bits = content;
        p.packet_size_bits = size;
        p.has_timestamp_begin = (h & (1u << ROLE_TS_BEGIN)) != 0;
        p.timestamp_begin = p.has_timestamp_begin ? s[ROLE_TS_BEGIN] : 0;
        p.has_timestamp_end = (h & (1u << ROLE_TS_END)) != 0;
        p.timestamp_end = p.has_timestamp_end ? s[ROLE_TS_END] : 0;
        p.ns_begin = p.has_timestamp_begin ? clock_ns(r->t, clock, p.timestamp_begin) : 0;
        p.ns_end = p.has_timestamp_end ? clock_ns(r->t, clock, p.timestamp_end) : 0;
        p.has_events_discarded = (h & (1u << ROLE_DISCARDED)) != 0;
        p.events_discarded = p.has_events_discarded ? s[ROLE_DISCARDED] : 0;
        p.has_packet_seq_num = (h & (1u << ROLE_SEQ_NUM)) != 0;
        p.packet_seq_num = p.has_packet_seq_num ? s[ROLE_SEQ_NUM] : 0;
        p.has_cpu_id = (h & (1u << ROLE_CPU_ID)) != 0;
        p.cpu_id = p.has_cpu_id ? s[ROLE_CPU_ID] : 0;
        r->core.in_cb = true;
        int rc = r->cb.on_packet_begin(r->core.user, &p);
        r->core.in_cb = false;
        if (cb_ret(r, rc, "on_packet_begin") != R_OK)
            return R_ERR;
    }
    if (r->cb.on_field) {
        struct vm d = *vm;
        d.bo_end = 0;
        d.pos = r->pos;
        d.sp = d.depth = d.pc = 0;
        d.more_ok = false;
        if (packet_programs(r, &d, true) != R_OK)
            return R_ERR;
    }
    r->pkt_events = 0;
    return R_OK;
}

/* The scopes after an event's header: one delivery plan per event class. */
#define BODY_SCOPES                                                                                \
    ((1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) | (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT) |    \
     (1u << TRACERD_CTF_SCOPE_EVENT_FIELDS))

/* The measured event: on_event_begin, its fields, on_event_end. failing:
 * the measure failed; the callbacks up to the error (by the general path),
 * then R_ERR. */
static int event_deliver(tracerd_ctf_stream_t *r, struct vm *vm, bool failing)
{
    uint64_t ns = event_ns(r, r->ev_cycles);
    if (!event_open(r, ns))
        return R_MORE;
    tracerd_ctf_event_t e;
    event_fill(r, &e, ns);
    if (r->cb.on_event_begin && event_cb(r, r->cb.on_event_begin, &e, "on_event_begin") != R_OK)
        return R_ERR;
    if (r->cb.on_field) {
        struct vm d = *vm;
        d.bo_end = 0;
        d.pos = r->pos;
        d.sp = d.depth = d.pc = 0;
        d.more_ok = false;
        /* a failing event takes the general path (delivered up to its
         * error whatever the split); a plan delivers a long value in
         * fragments as the general path does */
        if (!failing && r->ev->plan != NULL && (r->scopes & BODY_SCOPES) == BODY_SCOPES) {
            /* every scope of the body wanted: the plans (the body's was
             * only made when no byte order can change inside a byte in the
             * whole event); a header not wanted is measured again (by the
             * full program: it stores every value the body may use) */
            int rc = !(r->scopes >> TRACERD_CTF_SCOPE_EVENT_HEADER & 1u)
                         ? run(r, &d, &r->srt->event_header, false)
                     : r->srt->header_plan != NULL ? run_plan(r, &d, r->srt->header_plan)
                                                   : run(r, &d, &r->srt->event_header, true);
            if (rc != R_OK || run_plan(r, &d, r->ev->plan) != R_OK)
                return R_ERR;
        } else if (event_programs(r, &d, true) != R_OK) {
            return R_ERR;
        }
        vm->pos = d.pos;
    }
    if (failing)
        return R_ERR;
    if (r->cb.on_event_end && event_cb(r, r->cb.on_event_end, &e, "on_event_end") != R_OK)
        return R_ERR;
    r->pkt_events++;
    return R_OK;
}

/* Makes the stitch buffer hold at least n bytes (n <= st_limit): it starts
 * at 1 KiB when a record first straddles chunks and doubles, keeping what it
 * holds, up to stitch_bytes. A reader whose records never straddle, or only
 * small ones, holds little: a directory of thousands of streams has a stitch
 * buffer per stream. E_NOMEM (sticky) when the allocation fails. */
static bool stitch_reserve(tracerd_ctf_stream_t *r, size_t n)
{
    if (n <= r->st_alloc)
        return true;
    size_t c = r->st_alloc ? r->st_alloc : 1024;
    while (c < n)
        c *= 2;
    if (c > r->st_limit)
        c = r->st_limit;
    uint8_t *b = tracerd__calloc(&r->alloc, c);
    if (b == NULL) {
        tracerd__error_set(&r->core.err, TRACERD_E_NOMEM, r->pkt_off + (r->pos >> 3),
                           "out of memory growing the stitch buffer to %zu bytes", c);
        return false;
    }
    if (r->st_have)
        memcpy(b, r->st, r->st_have);
    tracerd__free(&r->alloc, r->st, r->st_alloc);
    r->st = b;
    r->st_alloc = c;
    return true;
}

/* Takes bytes of the chunk into the stitch buffer for the record being
 * gathered: what the last measure said it needs (r->st_need) plus `margin`,
 * never past the packet content or the buffer. Only bytes before the
 * record's end stay in the buffer between calls (see record), so a gathered
 * record never costs more than its own size and no byte is moved twice. */
static int stitch_take(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end,
                       uint64_t start_byte, size_t margin, size_t *taken)
{
    size_t room = r->st_limit - r->st_have, avail = (size_t)(end - *pp);
    uint64_t have = start_byte + r->st_have; /* bytes up to the buffer's end */
    uint64_t want = margin;
    if (r->st_need > have * 8)
        want += (r->st_need - have * 8 + 7) / 8;
    size_t take = avail < room ? avail : room;
    if (take > want)
        take = (size_t)want;
    if (r->content_bits != UINT64_MAX) {
        uint64_t cend = r->content_bits / 8 + (r->content_bits % 8 != 0);
        uint64_t left = cend > have ? cend - have : 0;
        if (take > left)
            take = (size_t)left;
    }
    if (take == 0)
        return R_OK;
    if (!stitch_reserve(r, r->st_have + take))
        return R_ERR;
    memcpy(r->st + r->st_have, *pp, take);
    r->st_have += take;
    *pp += take;
    r->offset += take;
    *taken += take;
    return R_OK;
}

/* A gathered record was gated: give back what this call took, so that the
 * buffer holds only bytes before the record's end. */
static void stitch_untake(tracerd_ctf_stream_t *r, const uint8_t **pp, size_t taken)
{
    if (r->st_have == 0)
        return;
    r->st_have -= taken;
    *pp -= taken;
    r->offset -= taken;
}

/* A packet header and context longer than the stitch buffer. */
static int packet_too_big(tracerd_ctf_stream_t *r, struct vm *vm)
{
    return vm_fail(r, vm, NULL, TRACERD_E_LIMIT,
                   "packet header and context is larger than the stitch buffer (%zu bytes)",
                   r->st_limit);
}

/* The program of a streamed event that runs now: header, stream event
 * context, event context, payload. */
static const struct ctf_prog *big_prog(const tracerd_ctf_stream_t *r)
{
    switch (r->big_scope) {
    case 0:
        return &r->srt->event_header;
    case 1:
        return &r->srt->event_context;
    case 2:
        return &r->ev->context;
    default:
        return &r->ev->fields;
    }
}

/* A streamed event: fills the window from the chunk and runs its programs
 * on it, delivering fields as they come; when the window runs out, keeps it
 * from where the interpreter stopped (a value being fragmented: from its
 * next fragment) and fills it again. R_OK when the event was delivered
 * (bytes of the window past its end go back to the chunk, or stay at the
 * window's start for the next record), R_MORE when the chunk is used up,
 * R_ERR. taken: bytes of the window that came from this chunk before. */
static int big_event(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end, bool final,
                     size_t taken)
{
    struct vm *vm = &r->bvm;
    const bool dlv = r->cb.on_field != NULL;
    const uint64_t content = r->content_bits;
    uint64_t margin = 256; /* taken beyond what the interpreter asked for; doubles */
    for (;;) {
        size_t take = (size_t)(end - *pp), room = r->st_limit - r->st_have;
        if (take > room)
            take = room;
        /* what the last run asked for, plus the margin: bytes past the
         * event's end are handed back, so they are better not copied */
        uint64_t have_bits = (r->win_byte + r->st_have) * 8;
        uint64_t want = margin + (r->big_need > have_bits ? (r->big_need - have_bits + 7) / 8 : 0);
        if (take > want)
            take = (size_t)want;
        if (content != UINT64_MAX) {
            uint64_t cend = content / 8 + (content % 8 != 0), have = r->win_byte + r->st_have;
            uint64_t left = cend > have ? cend - have : 0;
            if (take > left)
                take = (size_t)left;
        }
        if (take != 0) {
            if (!stitch_reserve(r, r->st_have + take))
                return R_ERR;
            memcpy(r->st + r->st_have, *pp, take);
            r->st_have += take;
            *pp += take;
            r->offset += take;
            taken += take;
        }
        vm->data = r->st;
        vm->bit0 = r->win_byte * 8;
        vm->limit = vm->bit0 + (uint64_t)r->st_have * 8;
        if (content != UINT64_MAX && vm->limit >= content) {
            vm->limit = content;
            vm->more_ok = false;
            vm->end_status = TRACERD_E_EXTENT;
        } else {
            vm->more_ok = !final;
            vm->end_status = final ? TRACERD_E_TRUNCATED : TRACERD_E_EXTENT;
        }
        if (vm->more_ok && vm->limit < r->big_need && r->st_have < r->st_limit && *pp == end)
            return R_MORE; /* all of the chunk was taken, and it is not enough yet */
        int rc = R_OK;
        while (r->big_scope < 4 && (rc = run(r, vm, big_prog(r), dlv)) == R_OK)
            r->big_scope++;
        if (rc == R_ERR)
            return R_ERR;
        if (rc == R_OK) {
            r->big = false;
            if (r->cb.on_event_end) {
                tracerd_ctf_event_t e;
                event_fill(r, &e, event_ns(r, r->ev_cycles));
                if (event_cb(r, r->cb.on_event_end, &e, "on_event_end") != R_OK)
                    return R_ERR;
            }
            r->pkt_events++;
            size_t used = (size_t)((vm->pos >> 3) - r->win_byte), left = r->st_have - used;
            if (left <= taken) {
                *pp -= left;
                r->offset -= left;
                r->st_have = 0;
            } else {
                memmove(r->st, r->st + used, left);
                r->st_have = left;
            }
            r->st_need = 0;
            r->pos = vm->pos;
            return R_OK;
        }
        /* R_MORE: the window keeps what the interpreter still needs */
        r->big_need = vm->need;
        if (margin < r->st_limit)
            margin *= 2;
        uint64_t keep = (vm->pos >> 3) + r->fr_in, wend = r->win_byte + r->st_have;
        if (keep > wend)
            keep = wend;
        size_t drop = (size_t)(keep - r->win_byte);
        if (drop == 0 && r->st_have == r->st_limit)
            return vm_fail(r, vm, NULL, TRACERD_E_LIMIT,
                           "a field is larger than the stitch buffer (%zu bytes)", r->st_limit);
        memmove(r->st, r->st + drop, r->st_have - drop);
        r->st_have -= drop;
        r->win_byte += drop;
        taken = taken > r->st_have ? r->st_have : taken;
        if (*pp == end)
            return R_MORE;
    }
}

/* An event longer than the stitch buffer (its header was measured, mvm):
 * the gate, on_event_begin, then its fields while it arrives (big_event). */
static int big_begin(tracerd_ctf_stream_t *r, struct vm *mvm, const uint8_t **pp,
                     const uint8_t *end, bool final, uint64_t start_byte, size_t taken)
{
    if (r->ev == NULL)
        return header_too_big(r, mvm);
    uint64_t ns = event_ns(r, r->ev_cycles);
    if (!event_open(r, ns)) {
        stitch_untake(r, pp, taken);
        return R_MORE;
    }
    if (r->st_have == 0)
        taken = 0;
    r->win_byte = start_byte;
    if (r->cb.on_event_begin) {
        tracerd_ctf_event_t e;
        event_fill(r, &e, ns);
        if (event_cb(r, r->cb.on_event_begin, &e, "on_event_begin") != R_OK)
            return R_ERR;
    }
    memset(&r->bvm, 0, sizeof r->bvm);
    r->bvm.pos = r->pos;
    r->bvm.big = true;
    r->big = true;
    r->big_scope = 0;
    r->big_need = 0;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
    return big_event(r, pp, end, final, taken);
}

/* Decodes one record (packet header+context, or event) starting at r->pos.
 * Returns R_OK (delivered; r->pos advanced, *p advanced), R_MORE (all input
 * taken into the stitch buffer, or gated), or R_ERR. final: no more input.
 * A record that straddles chunks is gathered in the stitch buffer, which
 * then holds only bytes of that record (it was cut by the chunk's end, and
 * bytes taken beyond it are given back when it is gated or delivered): the
 * next record is read from the chunk again, without moving bytes. */
static int record(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end, bool final)
{
    const bool is_packet = r->state == S_PACKET;
    uint64_t start_byte = r->pos >> 3;
    uint64_t content = r->content_bits;
    struct vm vm;
    size_t taken = 0, margin = 256;
    int rc;
gather:
    memset(&vm, 0, sizeof vm);
    vm.bit0 = start_byte * 8;
    vm.pos = r->pos;
    vm.end_status = final ? TRACERD_E_TRUNCATED : TRACERD_E_EXTENT;
    if (r->st_have == 0) {
        vm.data = *pp;
        vm.limit = vm.bit0 + (uint64_t)(end - *pp) * 8;
    } else {
        if (stitch_take(r, pp, end, start_byte, margin, &taken) != R_OK)
            return R_ERR;
        vm.data = r->st;
        vm.limit = vm.bit0 + (uint64_t)r->st_have * 8;
        if (vm.limit < r->st_need && !final && *pp == end)
            return R_MORE;
    }
    if (content != UINT64_MAX && vm.limit >= content) {
        vm.limit = content;
        vm.end_status = TRACERD_E_EXTENT;
        vm.more_ok = false;
    } else {
        vm.more_ok = !final;
    }
    r->rec_off = r->pkt_off + start_byte;
    if (is_packet)
        r->ev = NULL;
    if (!is_packet && r->cb.on_field && !vm.more_ok) {
        /* The event cannot need more input: measure the header only, then
         * deliver (the delivery pass finds the end). */
        rc = event_header_measure(r, &vm);
        if (rc != R_OK)
            return rc;
        vm.pos = r->pos;
        rc = event_deliver(r, &vm, false);
        if (rc == R_MORE) /* gated */
            stitch_untake(r, pp, taken);
        if (rc != R_OK)
            return rc;
        goto delivered;
    }
    rc = is_packet ? packet_programs(r, &vm, false) : event_programs(r, &vm, false);
    if (rc == R_MORE && !is_packet && r->ev != NULL)
        /* an event that straddles chunks, its header read: delivered while
         * it arrives (measuring it again for each chunk would be quadratic
         * in its length, and it may be longer than the stitch buffer) */
        return big_begin(r, &vm, pp, end, final, start_byte, taken);
    if (rc == R_MORE && r->st_have != 0 && *pp < end && r->st_have < r->st_limit &&
        vm.need > vm.limit) {
        /* more of the chunk is needed: take it (with a growing margin) and measure again */
        r->st_need = vm.need;
        margin *= 2;
        goto gather;
    }
    if (rc == R_MORE) {
        /* Longer than the stitch buffer: a packet header and context is an
         * error (as when it lies in one chunk, below), an event is
         * delivered while it arrives. */
        if (r->st_have == 0) {
            size_t n = (size_t)(end - *pp);
            if (n > r->st_limit)
                return is_packet ? packet_too_big(r, &vm)
                                 : big_begin(r, &vm, pp, end, final, start_byte, 0);
            if (!stitch_reserve(r, n))
                return R_ERR;
            memcpy(r->st, *pp, n);
            r->st_have = n;
            *pp += n;
            r->offset += n;
        } else if (r->st_have == r->st_limit) {
            return is_packet ? packet_too_big(r, &vm)
                             : big_begin(r, &vm, pp, end, final, start_byte, taken);
        }
        r->st_need = vm.need;
        if (r->st_have == r->st_limit && vm.need > vm.bit0 + (uint64_t)r->st_limit * 8)
            return is_packet ? packet_too_big(r, &vm)
                             : big_begin(r, &vm, pp, end, final, start_byte, taken);
        return R_MORE;
    }
    if (rc != R_OK) {
        /* The same callbacks as a delivery straight from the chunk (or a
         * streamed event) would have given, then the same error. */
        if (!is_packet && r->ev != NULL) {
            vm.pos = r->pos;
            vm.more_ok = false;
            rc = event_deliver(r, &vm, true);
            if (rc == R_MORE) { /* gated */
                stitch_untake(r, pp, taken);
                return R_MORE;
            }
        }
        return R_ERR;
    }
    if (is_packet) {
        uint64_t end_pos = vm.pos;
        if (((end_pos + 7) >> 3) - start_byte > r->st_limit)
            return packet_too_big(r, &vm); /* the same error in every split */
        rc = packet_deliver(r, &vm);
        vm.pos = end_pos;
    } else {
        rc = event_deliver(r, &vm, false);
        if (rc == R_MORE) { /* gated: nothing consumed */
            stitch_untake(r, pp, taken);
            return R_MORE;
        }
    }
    if (rc != R_OK)
        return rc;
delivered:;
    uint64_t new_pos = vm.pos;
    if (!is_packet && new_pos == r->pos) {
        /* Nothing in its header, contexts or fields: reading would never end. */
        vm.pos = r->pos;
        return vm_fail(r, &vm, NULL, TRACERD_E_BAD_RECORD,
                       "the event is empty (0 bits); the stream cannot advance");
    }
    uint64_t used = (new_pos >> 3) - start_byte;
    if (r->st_have == 0) {
        *pp += used;
        r->offset += used;
    } else {
        size_t left = r->st_have - (size_t)used;
        if (left <= taken) { /* always, but for the last byte of a record ending inside it */
            *pp -= left;
            r->offset -= left;
            r->st_have = 0;
        } else {
            memmove(r->st, r->st + used, left);
            r->st_have = left;
        }
        r->st_need = 0;
    }
    r->pos = new_pos;
    if (is_packet)
        r->state = S_EVENTS;
    return R_OK;
}

static tracerd_status_t packet_end(tracerd_ctf_stream_t *r)
{
    r->state = S_PADDING;
    if (r->cb.on_packet_end) {
        tracerd_ctf_packet_end_t e = {r->pkt_off, r->pkt_index, r->pkt_events};
        r->rec_off = r->pkt_off;
        r->core.in_cb = true;
        int rc = r->cb.on_packet_end(r->core.user, &e);
        r->core.in_cb = false;
        if (cb_ret(r, rc, "on_packet_end") != R_OK)
            return r->core.err.status;
    }
    return TRACERD_OK;
}

static tracerd_status_t lenient_skip(tracerd_ctf_stream_t *r)
{
    tracerd_status_t st = r->core.err.status;
    if (!r->cfg.lenient_skip_packets || st == TRACERD_E_CALLBACK || st == TRACERD_E_NOMEM ||
        r->state != S_EVENTS || r->packet_bits == UINT64_MAX)
        return st;
    uint64_t pkt_end = r->pkt_off + r->packet_bits / 8;
    if (r->cb.on_warning) {
        tracerd_warning_t w = tracerd__warning(
            st, r->core.err.offset, pkt_end > r->core.err.offset ? pkt_end - r->core.err.offset : 0,
            r->core.err.reason);
        r->rec_off = r->core.err.offset;
        if (warn_now(r, &w) != R_OK)
            return TRACERD_E_CALLBACK;
    }
    tracerd__error_clear(&r->core.err);
    r->err_path[0] = '\0';
    r->st_have = 0;
    r->st_need = 0;
    r->ev = NULL;
    r->big = false;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
    return packet_end(r);
}

/* The hot path: while the rest of the packet's content is in the chunk and
 * nobody wants fields, events are measured with the fast programs and
 * delivered in a tight loop. Anything unusual (an error, a class without a
 * fast program) leaves the loop; the general path then handles that event. */
static int fast_events(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end)
{
    const struct ctf_stream_rt *s = r->srt;
    uint64_t start_byte = r->pos >> 3;
    struct vm vm;
    memset(&vm, 0, sizeof vm);
    vm.data = *pp;
    vm.bit0 = start_byte * 8;
    uint64_t avail = vm.bit0 + (uint64_t)(end - *pp) * 8;
    /* Events wholly inside the chunk: one that runs past its end (R_MORE)
     * leaves the loop and is gathered by the general path. */
    vm.limit = avail < r->content_bits ? avail : r->content_bits;
    vm.more_ok = avail < r->content_bits;
    vm.end_status = TRACERD_E_EXTENT;
    vm.pos = r->pos;
    const struct ctf_insn *hdr = s->event_header.fast;
    tracerd_ctf_event_cb on_begin = r->cb.on_event_begin, on_end = r->cb.on_event_end;
    int rc = R_OK;
    while (vm.pos < vm.limit) {
        uint64_t ev_start = vm.pos, sctx_pos, ns;
        const struct ctf_event_rt *ev;
        r->rec_off = r->pkt_off + (vm.pos >> 3);
        if (r->held && r->held_pos == vm.pos && r->held_pkt == r->pkt_off) {
            /* the event the gate held back: measured then */
            r->held = false;
            ev = r->held_ev;
            r->ev = ev;
            sctx_pos = r->held_sctx;
            vm.pos = r->held_end;
            r->ev_cycles = r->held_cycles;
            r->ev_has_ts = r->held_has_ts;
            ns = r->held_ns;
            goto measured;
        }
        r->have &= ~((1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP));
        uint64_t at = (vm.pos + 7) & ~(uint64_t)7;
        if (hdr[0].op == OP_LTTNG_COMPACT && !(hdr[0].flags & INSN_BE) && at + 32 <= vm.limit) {
            /* the most common header, inline: little-endian compact */
            uint32_t w = tracerd__le32(vm.data + ((at - vm.bit0) >> 3));
            if ((w & 31u) == 31u)
                goto general_header;
            r->slots[ROLE_EVENT_ID] = w & 31u;
            r->slots[ROLE_TIMESTAMP] = w >> 5;
            r->ts_bits = 27;
            r->have |= (1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP);
            vm.pos = at + 32;
        } else {
        general_header:
            if (run_fast(r, &vm, hdr) != R_OK ||
                ((vm.pos + 7) >> 3) - (ev_start >> 3) > r->st_limit)
                break; /* an error, or a header over the stitch buffer: the general path */
        }
        uint64_t id;
        ev = event_class(r, s, &id);
        if (ev == NULL || ev->body_fast == NULL)
            break;
        r->ev = ev;
        sctx_pos = vm.pos;
        if (run_fast(r, &vm, ev->body_fast) != R_OK || vm.pos == ev_start)
            break; /* an error or an empty event: the general path reports it */
        event_time(r);
        ns = event_ns(r, r->ev_cycles);
    measured:
        if (!event_open(r, ns)) {
            r->held = true;
            r->held_pos = ev_start;
            r->held_pkt = r->pkt_off;
            r->held_end = vm.pos;
            r->held_sctx = sctx_pos;
            r->held_ev = ev;
            r->held_cycles = r->ev_cycles;
            r->held_has_ts = r->ev_has_ts;
            r->held_ns = ns;
            rc = R_MORE;
            break;
        }
        tracerd_ctf_event_t e;
        event_fill(r, &e, ns);
        if (on_begin && event_cb(r, on_begin, &e, "on_event_begin") != R_OK) {
            rc = R_ERR;
            break;
        }
        if (r->fast_ctx) {
            /* the contexts asked for, decoded again from their start (the
             * measure above checked the whole event) */
            struct vm c = vm;
            c.pos = sctx_pos;
            c.sp = c.depth = c.pc = 0;
            c.more_ok = false;
            if (run(r, &c, &s->event_context, true) != R_OK ||
                run(r, &c, &ev->context, true) != R_OK) {
                rc = R_ERR;
                break;
            }
        }
        if (on_end && event_cb(r, on_end, &e, "on_event_end") != R_OK) {
            rc = R_ERR;
            break;
        }
        r->pkt_events++;
        r->pos = vm.pos;
        if (r->core.paused)
            break;
    }
    uint64_t used = (r->pos >> 3) - start_byte;
    *pp += used;
    r->offset += used;
    return rc;
}

/* The loop shared by feed and finish. */
static tracerd_status_t step(tracerd_ctf_stream_t *r, const uint8_t *data, size_t len,
                             size_t *consumed, bool final)
{
    const uint8_t *p = data, *end = data != NULL ? data + len : data; /* NULL + 0 is UB */
    tracerd_status_t st = TRACERD_OK;
    r->gated = false;
    for (;;) {
        if (r->core.paused) {
            /* A callback paused: reported at once, also when its record ended
             * the chunk (core.h). */
            st = TRACERD_PAUSED;
            break;
        }
        if (r->state == S_PACKET) {
            if (p == end && r->st_have == 0)
                break;
            if (r->st_have == 0) {
                r->pkt_off = r->offset;
                r->pos = 0;
                r->content_bits = r->packet_bits = UINT64_MAX;
            }
            int rc = record(r, &p, end, final);
            if (rc == R_MORE)
                break;
            if (rc == R_ERR) {
                st = r->core.err.status;
                break;
            }
            continue;
        }
        if (r->state == S_EVENTS) {
            if (r->big) { /* an event longer than the stitch buffer, arriving */
                int rc = big_event(r, &p, end, final, 0);
                if (rc == R_MORE) {
                    if (r->core.paused)
                        st = TRACERD_PAUSED; /* a callback of this call paused */
                    break;
                }
                if (rc == R_ERR) {
                    st = lenient_skip(r);
                    if (st != TRACERD_OK)
                        break;
                }
                continue;
            }
            if (r->content_bits != UINT64_MAX && r->pos >= r->content_bits && r->st_have == 0) {
                st = packet_end(r);
                if (st != TRACERD_OK)
                    break;
                continue;
            }
            if (final && r->content_bits == UINT64_MAX && r->st_have != 0 &&
                (r->pos >> 3) + r->st_have == ((r->pos + 7) >> 3) && (r->pos & 7) != 0) {
                /* only the unused bits of the last byte are left: padding */
                r->pos += 8 - (r->pos & 7);
                r->st_have = 0;
            }
            if (p == end && r->st_have == 0) {
                /* no packet size: the stream is one packet, ended by the input */
                if (final && r->content_bits == UINT64_MAX) {
                    st = packet_end(r);
                    r->state = S_END;
                    if (st == TRACERD_OK && r->core.paused)
                        st = TRACERD_PAUSED;
                }
                break;
            }
            if (r->fast_ok && r->st_have == 0 && p != end && r->srt->event_header.fast != NULL) {
                uint64_t before = r->pos;
                int frc = fast_events(r, &p, end);
                if (frc == R_ERR) {
                    st = r->core.err.status;
                    break;
                }
                if (frc == R_MORE) {
                    st = TRACERD_PAUSED;
                    r->core.paused = true;
                    break;
                }
                if (r->pos != before)
                    continue; /* packet end, pause, or an event for the general path */
            }
            int rc = record(r, &p, end, final);
            if (rc == R_MORE) {
                if (r->gated || r->core.paused) {
                    st = TRACERD_PAUSED; /* gated, or a streamed event's callback paused */
                    r->core.paused = true;
                }
                break;
            }
            if (rc == R_ERR) {
                st = lenient_skip(r);
                if (st != TRACERD_OK)
                    break;
                continue;
            }
            continue;
        }
        if (r->state == S_PADDING) {
            uint64_t pkt_end =
                r->packet_bits == UINT64_MAX ? r->offset : r->pkt_off + r->packet_bits / 8;
            uint64_t left = pkt_end > r->offset ? pkt_end - r->offset : 0;
            size_t n = (size_t)(end - p);
            if (n > left)
                n = (size_t)left;
            p += n;
            r->offset += n;
            if (r->offset >= pkt_end) {
                r->state = S_PACKET;
                r->pkt_index++;
                continue;
            }
            break;
        }
        break; /* S_END */
    }
    if (consumed)
        *consumed = (size_t)(p - data);
    return st;
}

tracerd_status_t tracerd_ctf_stream_feed(tracerd_ctf_stream_t *r, const void *data, size_t len,
                                         size_t *consumed)
{
    if (consumed)
        *consumed = 0;
    tracerd_status_t guard = tracerd__feed_guard(r != NULL ? &r->core : NULL, data, len);
    if (guard != TRACERD_OK)
        return guard;
    static const uint8_t none[1] = {0};
    if (len == 0)
        data = none;
    if (r->state == S_END && len) {
        r->rec_off = r->offset;
        return tracerd__error_set(&r->core.err, TRACERD_E_EXTENT, r->offset,
                                  "data after the end of a stream without packet sizes");
    }
    return step(r, data, len, consumed, false);
}

tracerd_status_t tracerd_ctf_stream_resume(tracerd_ctf_stream_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

tracerd_status_t tracerd_ctf_stream_finish(tracerd_ctf_stream_t *r)
{
    tracerd_status_t st = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (st != TRACERD_OK)
        return st;
    static const uint8_t none[1] = {0};
    st = step(r, none, 0, NULL, true);
    if (st != TRACERD_OK)
        return st;
    if (r->state == S_PACKET && r->st_have != 0)
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->pkt_off,
                                  "input ends inside the packet header at byte %llu",
                                  (unsigned long long)r->pkt_off);
    if (r->state == S_EVENTS && r->content_bits != UINT64_MAX) {
        r->rec_off = r->pkt_off;
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->pkt_off,
                                  "packet at byte %llu: content_size is %llu bits but the input "
                                  "ends after %llu bytes of it",
                                  (unsigned long long)r->pkt_off,
                                  (unsigned long long)r->content_bits,
                                  (unsigned long long)(r->offset - r->pkt_off));
    }
    if (r->state == S_EVENTS && r->st_have != 0)
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->rec_off,
                                  "input ends inside the event at byte %llu",
                                  (unsigned long long)r->rec_off);
    if (r->state == S_PADDING && r->packet_bits != UINT64_MAX &&
        r->offset < r->pkt_off + r->packet_bits / 8) {
        r->rec_off = r->pkt_off;
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->pkt_off,
                                  "packet at byte %llu: packet_size is %llu bytes but the input "
                                  "ends after %llu bytes of it",
                                  (unsigned long long)r->pkt_off,
                                  (unsigned long long)(r->packet_bits / 8),
                                  (unsigned long long)(r->offset - r->pkt_off));
    }
    return TRACERD_OK;
}

/* The public ops table; no new_reader (a stream reader needs its trace). */
TRACERD__READER_OPS_NO_NEW(tracerd_ctf_stream, "ctf-stream", tracerd_ctf_stream_t, NULL)

TRACERD__SIZED_INIT(tracerd_ctf_callbacks_init, tracerd_ctf_callbacks_t, NULL)
