/* Test-side writer for xtrace files: token streams and snapshot files under
 * every interpretation the readers' options allow (specs/xtrace-notes.md §5).
 * Independent of the library's own geometry code, so the two check each other. */
#ifndef TESTS_SUPPORT_XTRACE_WRITER_H
#define TESTS_SUPPORT_XTRACE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xtw {
    uint8_t *buf;
    size_t len, cap;
    bool big; /* snapshot files only: byte order of the integers */
} xtw_t;

void xtw_init(xtw_t *w);
void xtw_free(xtw_t *w);
void xtw_bytes(xtw_t *w, const void *p, size_t n);
void xtw_u8(xtw_t *w, uint8_t v);
void xtw_u32(xtw_t *w, uint32_t v);
void xtw_u64(xtw_t *w, uint64_t v);
void xtw_fill(xtw_t *w, uint8_t v, size_t n);

/* ---- instruction stream (little-endian, default profile) ---- */
void xtw_pcinst(xtw_t *w, unsigned el, uint64_t pc, uint32_t op);
void xtw_inst(xtw_t *w, unsigned el, uint32_t op);
/* value NULL: bytes (addr + i) & 0xff. */
void xtw_mem(xtw_t *w, bool store, unsigned k, uint64_t addr, const uint8_t *value);
void xtw_val(xtw_t *w, unsigned kind, uint64_t v);
void xtw_allgpr(xtw_t *w, uint64_t seed); /* x[i] = seed + i */
void xtw_flags(xtw_t *w, uint64_t v);
/* layout: 0 interleaved, 1 grouped, 2 headers only; data bytes of iovec i are (i*16 + j) & 0xff */
void xtw_sysvec(xtw_t *w, unsigned layout, uint64_t n, const uint64_t *base, const uint64_t *len);
void xtw_time(xtw_t *w, unsigned payload_bytes, uint64_t v);

/* ---- snapshot files ---- */
typedef struct xtw_snap_opts {
    int header_bytes;  /* 0, 19, 24, 32 */
    unsigned vl_bits;  /* 128..2048 */
    unsigned svl_bits; /* 0 = vl */
    bool p_per_reg;
    bool za;
    bool fixed_max;
    bool big;
    unsigned nsnap;
    uint64_t start_user; /* user count of the first snapshot */
    uint32_t ident;
} xtw_snap_opts_t;

/* Record size of a layout, computed from the notes' formula. */
size_t xtw_snap_record_bytes(const xtw_snap_opts_t *o);
/* Appends header + nsnap snapshots. Register byte j of field f, register i,
 * snapshot k is (k*7 + f*31 + i*3 + j) & 0xff; padding bytes are 0xee. */
void xtw_snapshot_file(xtw_t *w, const xtw_snap_opts_t *o);

#endif
