#include "xtrace_writer.h"

#include <stdlib.h>
#include <string.h>

void xtw_init(xtw_t *w)
{
    memset(w, 0, sizeof *w);
}

void xtw_free(xtw_t *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}

static void reserve(xtw_t *w, size_t n)
{
    if (w->len + n <= w->cap)
        return;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + n)
        cap *= 2;
    uint8_t *b = realloc(w->buf, cap);
    if (b == NULL)
        abort();
    w->buf = b;
    w->cap = cap;
}

void xtw_bytes(xtw_t *w, const void *p, size_t n)
{
    reserve(w, n);
    if (n)
        memcpy(w->buf + w->len, p, n);
    w->len += n;
}

void xtw_u8(xtw_t *w, uint8_t v)
{
    xtw_bytes(w, &v, 1);
}

void xtw_u32(xtw_t *w, uint32_t v)
{
    uint8_t b[4];
    for (unsigned i = 0; i < 4; i++)
        b[w->big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
    xtw_bytes(w, b, 4);
}

void xtw_u64(xtw_t *w, uint64_t v)
{
    uint8_t b[8];
    for (unsigned i = 0; i < 8; i++)
        b[w->big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
    xtw_bytes(w, b, 8);
}

void xtw_fill(xtw_t *w, uint8_t v, size_t n)
{
    reserve(w, n);
    memset(w->buf + w->len, v, n);
    w->len += n;
}

void xtw_pcinst(xtw_t *w, unsigned el, uint64_t pc, uint32_t op)
{
    xtw_u8(w, (uint8_t)(1u | 1u << 3 | el << 6));
    xtw_u64(w, pc);
    xtw_u32(w, op);
}

void xtw_inst(xtw_t *w, unsigned el, uint32_t op)
{
    xtw_u8(w, (uint8_t)(1u | el << 6));
    xtw_u32(w, op);
}

void xtw_mem(xtw_t *w, bool store, unsigned k, uint64_t addr, const uint8_t *value)
{
    xtw_u8(w, (uint8_t)(2u | (store ? 8u : 0u) | k << 4));
    xtw_u64(w, addr);
    size_t n = (size_t)1 << k;
    if (value != NULL) {
        xtw_bytes(w, value, n);
        return;
    }
    reserve(w, n);
    for (size_t i = 0; i < n; i++)
        w->buf[w->len + i] = (uint8_t)(addr + i);
    w->len += n;
}

void xtw_val(xtw_t *w, unsigned kind, uint64_t v)
{
    xtw_u8(w, (uint8_t)(3u | kind << 3));
    xtw_u64(w, v);
}

void xtw_allgpr(xtw_t *w, uint64_t seed)
{
    xtw_u8(w, (uint8_t)(4u | 1u << 3));
    for (unsigned i = 0; i < 32; i++)
        xtw_u64(w, seed + i);
}

void xtw_flags(xtw_t *w, uint64_t v)
{
    xtw_u8(w, (uint8_t)(4u | 3u << 3));
    xtw_u64(w, v);
}

static void iov_data(xtw_t *w, uint64_t i, uint64_t len)
{
    reserve(w, (size_t)len);
    for (uint64_t j = 0; j < len; j++)
        w->buf[w->len + j] = (uint8_t)(i * 16 + j);
    w->len += (size_t)len;
}

void xtw_sysvec(xtw_t *w, unsigned layout, uint64_t n, const uint64_t *base, const uint64_t *len)
{
    xtw_u8(w, (uint8_t)(4u | 4u << 3));
    xtw_u64(w, n);
    for (uint64_t i = 0; i < n; i++) {
        xtw_u64(w, base[i]);
        xtw_u64(w, len[i]);
        if (layout == 0)
            iov_data(w, i, len[i]);
    }
    if (layout == 1)
        for (uint64_t i = 0; i < n; i++)
            iov_data(w, i, len[i]);
}

void xtw_time(xtw_t *w, unsigned payload_bytes, uint64_t v)
{
    xtw_u8(w, 7u);
    for (unsigned i = 0; i < payload_bytes; i++)
        xtw_u8(w, (uint8_t)(i < 8 ? v >> (8 * i) : 0xa0u + i));
}

static size_t r16(size_t x)
{
    return (x + 15) & ~(size_t)15;
}

size_t xtw_snap_record_bytes(const xtw_snap_opts_t *o)
{
    size_t va = (o->fixed_max ? 2048u : o->vl_bits) / 8;
    size_t sa = (o->fixed_max ? 2048u : (o->svl_bits ? o->svl_bits : o->vl_bits)) / 8;
    size_t p = o->p_per_reg ? 16 * r16(va / 8) : 16 * (va / 8);
    return 32 + 256 + 32 * va + p + r16(va / 8) + (o->za ? sa * sa : 0) + 11 * 8 + 8;
}

static void reg(xtw_t *w, unsigned k, unsigned f, unsigned i, size_t valid, size_t slot)
{
    reserve(w, slot);
    for (size_t j = 0; j < slot; j++)
        w->buf[w->len + j] = j < valid ? (uint8_t)(k * 7 + f * 31 + i * 3 + j) : 0xee;
    w->len += slot;
}

void xtw_snapshot_file(xtw_t *w, const xtw_snap_opts_t *o)
{
    w->big = o->big;
    if (o->header_bytes > 0) {
        xtw_u32(w, o->ident);
        xtw_u32(w, 7); /* global snapshot point */
        xtw_u64(w, 2); /* version */
        xtw_u8(w, 0);  /* split: user instructions */
        xtw_u8(w, 1);  /* stream type */
        xtw_u8(w, 1);  /* memory order recorded */
        xtw_fill(w, 0, (size_t)o->header_bytes - 19);
    }
    size_t v = o->vl_bits / 8, va = (o->fixed_max ? 2048u : o->vl_bits) / 8;
    size_t sa = (o->fixed_max ? 2048u : (o->svl_bits ? o->svl_bits : o->vl_bits)) / 8;
    size_t pslot = o->p_per_reg ? r16(va / 8) : va / 8;
    for (unsigned k = 0; k < o->nsnap; k++) {
        size_t start = w->len;
        uint64_t user = o->start_user + (uint64_t)k * 1000000u;
        xtw_u64(w, 1);         /* file number */
        xtw_u64(w, 4096u * k); /* index in file */
        xtw_u64(w, user);
        xtw_u64(w, user * 2 + 5);
        for (unsigned i = 0; i < 32; i++)
            xtw_u64(w, (uint64_t)k << 32 | i);
        for (unsigned i = 0; i < 32; i++)
            reg(w, k, 3, i, v, va);
        for (unsigned i = 0; i < 16; i++)
            reg(w, k, 4, i, v / 8, pslot);
        reg(w, k, 5, 0, v / 8, r16(va / 8));
        if (o->za)
            reg(w, k, 6, 0, sa * sa, sa * sa);
        for (unsigned i = 0; i < 11; i++)
            xtw_u64(w, 0x100u * k + i);
        xtw_u64(w, o->vl_bits);
        if (w->len - start != xtw_snap_record_bytes(o))
            abort();
    }
}
