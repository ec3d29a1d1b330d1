/* Writes XRay traces byte by byte, in either byte order, for tests and the
 * benchmark: FDR versions 1-5 and basic mode 1-3 (layouts in
 * doc/formats/xray.md). Aborts on allocation failure (test support only). */
#ifndef TESTS_SUPPORT_XRAY_WRITER_H
#define TESTS_SUPPORT_XRAY_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xw {
    uint8_t *buf;
    size_t len, cap;
    bool big;
    unsigned version;
} xw_t;

void xw_init(xw_t *w, bool big);
void xw_free(xw_t *w);
void xw_raw(xw_t *w, const void *data, size_t len);
void xw_u8(xw_t *w, uint8_t v);
void xw_u16(xw_t *w, uint16_t v);
void xw_u32(xw_t *w, uint32_t v);
void xw_u64(xw_t *w, uint64_t v);
void xw_zeros(xw_t *w, size_t n);

void xw_header(xw_t *w, uint16_t version, uint16_t type, uint32_t flags, uint64_t freq,
               uint64_t buffer_size);
/* FDR function record. */
void xw_func(xw_t *w, unsigned kind, uint32_t fid, uint32_t delta);
/* FDR metadata record with a 15-byte body (fill: value of unused body bytes). */
void xw_meta(xw_t *w, unsigned kind, const uint8_t body[15]);
void xw_new_buffer(xw_t *w, int32_t tid);
void xw_eob(xw_t *w);
void xw_new_cpu(xw_t *w, uint16_t cpu, uint64_t tsc);
void xw_tsc_wrap(xw_t *w, uint64_t tsc);
void xw_walltime(xw_t *w, uint64_t sec, uint32_t usec);
void xw_arg(xw_t *w, uint64_t arg);
void xw_pid(xw_t *w, int32_t pid);
/* BufferExtents: returns its position, for xw_end_extents. */
size_t xw_extents(xw_t *w, uint64_t extent);
/* Sets the extent of the BufferExtents at `mark` to what follows it. */
void xw_end_extents(xw_t *w, size_t mark);
/* Custom event: v5 writes a delta, v1-4 an absolute tsc (v4 adds cpu). */
void xw_custom(xw_t *w, int32_t size, uint64_t tsc_or_delta, uint16_t cpu, const void *payload,
               size_t payload_len);
/* Typed event: v5 delta + type; v4 absolute tsc + type. */
void xw_typed(xw_t *w, int32_t size, uint64_t tsc_or_delta, uint16_t type, const void *payload,
              size_t payload_len);
/* Basic mode records (32 bytes). */
void xw_basic_func(xw_t *w, uint8_t cpu, uint8_t kind, int32_t fid, uint64_t tsc, uint32_t tid,
                   uint32_t pid);
void xw_basic_arg(xw_t *w, int32_t fid, uint32_t tid, uint32_t pid, uint64_t arg);

/* The event view's FDR v5 sample (2 GHz, pid 7, tid 42): entries of fn#1 and
 * fn#2 (with two arguments) on cpu 3, their exits, a custom and a typed event,
 * a tail exit of fn#3 on cpu 1; ns 500, 505, 507, 2500, 2502, 2501, 4500. */
void xw_sample_v5(xw_t *w);
/* The same with these header flags (xw_sample_v5: 3, constant and nonstop TSC). */
void xw_sample_v5_flags(xw_t *w, uint32_t flags);

#endif
