#include "xray_writer.h"

#include <stdlib.h>
#include <string.h>

void xw_init(xw_t *w, bool big)
{
    memset(w, 0, sizeof *w);
    w->big = big;
}

void xw_free(xw_t *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}

void xw_raw(xw_t *w, const void *data, size_t len)
{
    if (w->len + len > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + len)
            cap *= 2;
        uint8_t *p = realloc(w->buf, cap);
        if (p == NULL)
            abort();
        w->buf = p;
        w->cap = cap;
    }
    if (len)
        memcpy(w->buf + w->len, data, len);
    w->len += len;
}

static void put(xw_t *w, uint64_t v, unsigned n)
{
    uint8_t b[8];
    for (unsigned i = 0; i < n; i++)
        b[w->big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
    xw_raw(w, b, n);
}

void xw_u8(xw_t *w, uint8_t v)
{
    xw_raw(w, &v, 1);
}
void xw_u16(xw_t *w, uint16_t v)
{
    put(w, v, 2);
}
void xw_u32(xw_t *w, uint32_t v)
{
    put(w, v, 4);
}
void xw_u64(xw_t *w, uint64_t v)
{
    put(w, v, 8);
}
void xw_zeros(xw_t *w, size_t n)
{
    while (n--)
        xw_u8(w, 0);
}

void xw_header(xw_t *w, uint16_t version, uint16_t type, uint32_t flags, uint64_t freq,
               uint64_t buffer_size)
{
    w->version = version;
    xw_u16(w, version);
    xw_u16(w, type);
    xw_u32(w, flags);
    xw_u64(w, freq);
    xw_u64(w, buffer_size);
    xw_u64(w, 0xdeadbeefcafef00dull); /* padding: garbage in real files */
}

void xw_func(xw_t *w, unsigned kind, uint32_t fid, uint32_t delta)
{
    uint32_t word = w->big ? ((kind & 7u) << 28) | (fid & 0x0fffffffu) : (fid << 4) | (kind << 1);
    xw_u32(w, word);
    xw_u32(w, delta);
}

void xw_meta(xw_t *w, unsigned kind, const uint8_t body[15])
{
    xw_u8(w, (uint8_t)(w->big ? 0x80u | kind : 1u | kind << 1));
    xw_raw(w, body, 15);
}

/* Builds a body: fields, then leftover bytes 0xa5 (real runtimes leave garbage). */
typedef struct body {
    uint8_t b[15];
    unsigned n;
    bool big;
} body_t;

static void body_init(body_t *b, const xw_t *w)
{
    memset(b->b, 0xa5, sizeof b->b);
    b->n = 0;
    b->big = w->big;
}

static void body_put(body_t *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b->b[b->n + (b->big ? n - 1 - i : i)] = (uint8_t)(v >> (8 * i));
    b->n += n;
}

void xw_new_buffer(xw_t *w, int32_t tid)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, (uint32_t)tid, 4);
    xw_meta(w, 0, b.b);
}

void xw_eob(xw_t *w)
{
    body_t b;
    body_init(&b, w);
    xw_meta(w, 1, b.b);
}

void xw_new_cpu(xw_t *w, uint16_t cpu, uint64_t tsc)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, cpu, 2);
    body_put(&b, tsc, 8);
    xw_meta(w, 2, b.b);
}

void xw_tsc_wrap(xw_t *w, uint64_t tsc)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, tsc, 8);
    xw_meta(w, 3, b.b);
}

void xw_walltime(xw_t *w, uint64_t sec, uint32_t usec)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, sec, 8);
    body_put(&b, usec, 4);
    xw_meta(w, 4, b.b);
}

void xw_arg(xw_t *w, uint64_t arg)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, arg, 8);
    xw_meta(w, 6, b.b);
}

void xw_pid(xw_t *w, int32_t pid)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, (uint32_t)pid, 4);
    xw_meta(w, 9, b.b);
}

size_t xw_extents(xw_t *w, uint64_t extent)
{
    size_t mark = w->len;
    body_t b;
    body_init(&b, w);
    body_put(&b, extent, 8);
    xw_meta(w, 7, b.b);
    return mark;
}

void xw_end_extents(xw_t *w, size_t mark)
{
    uint64_t v = w->len - mark - 16;
    for (unsigned i = 0; i < 8; i++)
        w->buf[mark + 1 + (w->big ? 7 - i : i)] = (uint8_t)(v >> (8 * i));
}

void xw_custom(xw_t *w, int32_t size, uint64_t tsc_or_delta, uint16_t cpu, const void *payload,
               size_t payload_len)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, (uint32_t)size, 4);
    if (w->version >= 5) {
        body_put(&b, (uint32_t)tsc_or_delta, 4);
    } else {
        body_put(&b, tsc_or_delta, 8);
        if (w->version == 4)
            body_put(&b, cpu, 2);
    }
    xw_meta(w, 5, b.b);
    xw_raw(w, payload, payload_len);
}

void xw_typed(xw_t *w, int32_t size, uint64_t tsc_or_delta, uint16_t type, const void *payload,
              size_t payload_len)
{
    body_t b;
    body_init(&b, w);
    body_put(&b, (uint32_t)size, 4);
    if (w->version >= 5) {
        body_put(&b, (uint32_t)tsc_or_delta, 4);
    } else {
        body_put(&b, tsc_or_delta, 8);
    }
    body_put(&b, type, 2);
    xw_meta(w, 8, b.b);
    xw_raw(w, payload, payload_len);
}

void xw_basic_func(xw_t *w, uint8_t cpu, uint8_t kind, int32_t fid, uint64_t tsc, uint32_t tid,
                   uint32_t pid)
{
    xw_u16(w, 0);
    xw_u8(w, cpu);
    xw_u8(w, kind);
    xw_u32(w, (uint32_t)fid);
    xw_u64(w, tsc);
    xw_u32(w, tid);
    xw_u32(w, w->version >= 3 ? pid : 0);
    xw_zeros(w, 8);
}

void xw_basic_arg(xw_t *w, int32_t fid, uint32_t tid, uint32_t pid, uint64_t arg)
{
    xw_u16(w, 1);
    xw_zeros(w, 2);
    xw_u32(w, (uint32_t)fid);
    xw_u32(w, tid);
    xw_u32(w, pid);
    xw_u64(w, arg);
    xw_zeros(w, 8);
}

void xw_sample_v5(xw_t *w)
{
    xw_sample_v5_flags(w, 3u);
}

void xw_sample_v5_flags(xw_t *w, uint32_t flags)
{
    xw_header(w, 5, 1, flags, 2000000000u, 0);
    size_t m = xw_extents(w, 0);
    xw_new_buffer(w, 42);
    xw_walltime(w, 1700000000u, 123456);
    xw_pid(w, 7);
    xw_new_cpu(w, 3, 1000);
    xw_func(w, 0, 1, 0);           /* enter f1 @1000 */
    xw_func(w, 3, 2, 10);          /* enter-args f2 @1010 */
    xw_arg(w, 0x1234);
    xw_arg(w, 5);
    xw_func(w, 1, 2, 5);           /* exit f2 @1015 */
    xw_tsc_wrap(w, 5000);
    xw_func(w, 1, 1, 1);           /* exit f1 @5001 */
    xw_custom(w, 5, 3, 0, "hello", 5); /* @5004 */
    xw_typed(w, 3, (uint64_t)(uint32_t)-2, 9, "abc", 3); /* @5002 */
    xw_new_cpu(w, 1, 9000);
    xw_func(w, 2, 3, 1);           /* tail-exit f3 @9001 */
    xw_end_extents(w, m);
}
