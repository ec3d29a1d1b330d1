/* The CTF stream reader's interpreter: the loaders of every field kind, the
 * general program runner (run_body, measuring and delivering copies) and
 * fragments of long values (frag_value). The compiled fast forms (delivery
 * plans, fixed-layout runs) are in stream_plan.h.
 *
 * Included once, by stream.c, after the reader's structures: its functions
 * are static so that the compiler keeps inlining them into the record loop
 * (one translation unit, as before the split); this file holds one concern,
 * running programs over bytes, and stream.c the other, packets, records,
 * chunks and the stitch buffer. */
#ifndef TRACERD_CTF_STREAM_VM_H
#define TRACERD_CTF_STREAM_VM_H

#ifndef TRACERD_CTF_STREAM_C
#error "stream_vm.h is part of stream.c: include it there only"
#endif

/* ==== the interpreter ===================================================== */

/* First NUL in p[0..n), or NULL: the first 64 bytes are scanned inline
 * (with SSE2, every x86-64, sixteen bytes at a time while sixteen are
 * there, then eight at a time), the rest with memchr. */
static inline const uint8_t *find_nul(const uint8_t *p, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    for (; i + 16 <= n && i < 64; i += 16) {
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, _mm_setzero_si128()));
        if (z != 0)
            return p + i + (unsigned)__builtin_ctz(z);
    }
#endif
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

/* The low `size` bits of v (1 to 64: the metadata's bounds), sign-extended:
 * two shifts (the right shift of a negative int64_t is arithmetic in every
 * compiler the project builds with, gcc and clang). */
static inline uint64_t sext(uint64_t v, unsigned size)
{
    const unsigned sh = (64u - size) & 63u;
    return (uint64_t)((int64_t)(v << sh) >> sh);
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

/* The label of the first mapping holding v (ctf_internal.h). */
static const char *enum_label(const tracerd_ctf_type_t *ty, uint64_t v)
{
    return ctf_enum_label(ty, v);
}

/* on_fields with the records gathered so far (none: nothing). A callback
 * that fails clears the field path a data error found after these records
 * may have set: the records came first, so the error is the callback's. */
static TRACERD__NOINLINE int batch_flush(tracerd_ctf_stream_t *r)
{
    uint32_t n = r->batch_n;
    if (n == 0)
        return R_OK;
    r->batch_n = 0;
    const bool in_cb = r->core.in_cb;
    r->core.in_cb = true;
    int rc = r->cb.on_fields(r->core.user, r->batch, n);
    r->core.in_cb = in_cb;
    batch_clean(r);
    if (TRACERD__LIKELY(rc == TRACERD_CB_CONTINUE))
        return R_OK;
    if (tracerd__cb_result(&r->core, rc, "on_fields", r->rec_off) >= 0)
        return R_OK;
    r->err_path[0] = '\0';
    return R_ERR;
}

/* The records of a delivery that ended (rc: how it ended) to on_fields;
 * R_ERR when the delivery or the callback failed. */
static inline int batch_end(tracerd_ctf_stream_t *r, int rc)
{
    if (r->batch_n == 0)
        return rc;
    return batch_flush(r) != R_OK ? R_ERR : rc;
}

/* on_field for f, whose scope the client asked for (or a record for
 * on_fields, delivered when the batch is full or its delivery ends). */
static inline int call_field(tracerd_ctf_stream_t *r, const tracerd_ctf_field_t *f)
{
    if (r->batch != NULL) {
        if (TRACERD__UNLIKELY(r->batch_n < CTF_HFORM_RECORDS))
            batch_drop_hform(r); /* over a header form's records */
        batch_mark(r, r->batch_n);
        r->batch[r->batch_n++] = *f;
        return r->batch_n < TRACERD_CTF_BATCH_RECORDS ? R_OK : batch_flush(r);
    }
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
    r->slots[in->role] = v; /* (in->slot is another when a field names this one) */
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

/* The byte-aligned fixed-size load `op` (OP_U8 .. OP_U64BE) at p: the one
 * place these loads are written; with a constant op (run_plan's per-op
 * cases) the switch folds away. */
static TRACERD__INLINE uint64_t load_fixed(int op, const uint8_t *p)
{
    switch (op) {
    case OP_U8:
        return p[0];
    case OP_U16LE:
        return tracerd__le16(p);
    case OP_U16BE:
        return tracerd__be16(p);
    case OP_U32LE:
        return tracerd__le32(p);
    case OP_U32BE:
        return tracerd__be32(p);
    case OP_U64LE:
        return tracerd__le64(p);
    default: /* OP_U64BE */
        return tracerd__be64(p);
    }
}

/* The value of integer instruction `in` whose first bit is bit `rel` of
 * data (the caller checked it is all there): the fixed-size byte-aligned
 * loads, else the generic bit field; sign-extended when signed. */
static TRACERD__INLINE uint64_t load_int(const uint8_t *data, size_t nbytes, uint64_t rel,
                                         const struct ctf_insn *in)
{
    const uint8_t *p = data + (rel >> 3);
    uint64_t v;
    switch (in->op) { /* each case's load_fixed folds to its load: one dispatch */
    case OP_U8:
        v = load_fixed(OP_U8, p);
        break;
    case OP_U16LE:
        v = load_fixed(OP_U16LE, p);
        break;
    case OP_U16BE:
        v = load_fixed(OP_U16BE, p);
        break;
    case OP_U32LE:
        v = load_fixed(OP_U32LE, p);
        break;
    case OP_U32BE:
        v = load_fixed(OP_U32BE, p);
        break;
    case OP_U64LE:
        v = load_fixed(OP_U64LE, p);
        break;
    case OP_U64BE:
        v = load_fixed(OP_U64BE, p);
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
    /* on_fields: the string converted before (in the same buffer) goes first */
    if (r->batch_n != 0 && batch_flush(r) != R_OK)
        return R_ERR;
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

/* The NUL ending the string at bit `at` (*p: its first byte), or NULL
 * when it is not in the input (at past the input: *p not set). */
static TRACERD__INLINE const uint8_t *string_nul(const struct vm *vm, uint64_t at,
                                                 const uint8_t **p)
{
    if (at > vm->limit)
        return NULL;
    *p = vm->data + ((at - vm->bit0) >> 3);
    return find_nul(*p, (size_t)((vm->limit - at) >> 3));
}

/* The NUL-terminated string at bit `at`: R_OK with its bytes (*p, *n) and
 * the bit after its NUL (*next), or what vm_short says. */
static inline int load_string(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_insn *in,
                              uint64_t at, const uint8_t **p, size_t *n, uint64_t *next)
{
    const uint8_t *z = string_nul(vm, at, p);
    if (z == NULL) {
        vm->pos = at;
        return vm_short(r, vm, in,
                        at > vm->limit ? at + 8 : at + (((vm->limit - at) >> 3) + 1) * 8);
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

/* Whether n elements of `count` bits from bit `at` end by `limit`. */
static inline bool seq_fits(uint64_t at, uint64_t n, uint64_t count, uint64_t limit)
{
    if (at > limit)
        return false;
    if (((n | count) >> 32) == 0) /* the product fits: no division */
        return n * count <= limit - at;
    return count == 0 || n <= (limit - at) / count;
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

/* A fused run of scalars (compile_fast.c, mark_runs) whose first member starts
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

#endif /* TRACERD_CTF_STREAM_VM_H */
