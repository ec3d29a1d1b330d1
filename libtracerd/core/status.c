/* Status names and messages, versions, byte-order names, time conversion. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define STR_(x) #x
#define STR(x) STR_(x)

unsigned tracerd_version_number(void)
{
    return TRACERD_VERSION_NUMBER;
}

const char *tracerd_version_string(void)
{
    return STR(TRACERD_VERSION_MAJOR) "." STR(TRACERD_VERSION_MINOR) "." STR(TRACERD_VERSION_PATCH);
}

const char *tracerd_status_name(tracerd_status_t s)
{
    switch (s) {
#define NAME_(name, value, text)                                                                   \
    case TRACERD_##name:                                                                           \
        return #name;
        TRACERD_STATUS_LIST(NAME_)
#undef NAME_
    }
    return "UNKNOWN";
}

const char *tracerd_status_message(tracerd_status_t s)
{
    switch (s) {
#define MSG_(name, value, text)                                                                    \
    case TRACERD_##name:                                                                           \
        return text;
        TRACERD_STATUS_LIST(MSG_)
#undef MSG_
    }
    return "unknown status";
}

const char *tracerd_byte_order_name(tracerd_byte_order_t order)
{
    switch (order) {
    case TRACERD_BYTE_ORDER_LITTLE:
        return "little";
    case TRACERD_BYTE_ORDER_BIG:
        return "big";
    case TRACERD_BYTE_ORDER_AUTO:
        break;
    }
    return "auto";
}

void tracerd__error_clear(struct tracerd__error *e)
{
    e->status = TRACERD_OK;
    e->offset = 0;
    e->callback_value = 0;
    e->reason[0] = '\0';
}

tracerd_status_t tracerd__error_set(struct tracerd__error *e, tracerd_status_t st, uint64_t offset,
                                    const char *fmt, ...)
{
    va_list ap;
    e->status = st;
    e->offset = offset;
    va_start(ap, fmt);
    vsnprintf(e->reason, sizeof e->reason, fmt, ap);
    va_end(ap);
    return st;
}

void tracerd__format(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

const char *tracerd__strerror(int err, char *buf, size_t size)
{
    /* The XSI strerror_r (the build defines _POSIX_C_SOURCE, not _GNU_SOURCE). */
    if (strerror_r(err, buf, size) != 0)
        tracerd__format(buf, size, "errno %d", err);
    return buf;
}

uint64_t tracerd__muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t hi, lo;
    if (c == 0)
        return 0;
    tracerd__mul128(a, b, &hi, &lo);
    if (hi == 0)
        return lo / c;
    if (hi >= c)
        return UINT64_MAX; /* the quotient does not fit */
    /* Long division of (hi:lo) by c, one bit at a time; hi < c throughout. */
    uint64_t q = 0;
    for (int i = 63; i >= 0; i--) {
        bool carry = (hi >> 63) != 0;
        hi = (hi << 1) | (lo >> 63);
        lo <<= 1;
        q <<= 1;
        if (carry || hi >= c) {
            hi -= c;
            q |= 1;
        }
    }
    return q;
}

void tracerd__tick_conv_init(struct tracerd__tick_conv *c, uint64_t freq_hz)
{
    memset(c, 0, sizeof *c);
    c->freq = freq_hz;
    if (freq_hz == 0)
        return; /* max_fast 0: everything but 0 takes the slow path, which returns 0 */
    c->a = 1000000000u / freq_hz;
    c->b = 1000000000u % freq_hz;
    /* m = floor(2^64 * b / freq), b < freq: long division of b:0 by freq. */
    c->m = tracerd__muldiv64(c->b, UINT64_MAX, freq_hz);
    {
        /* muldiv gave floor(b * (2^64 - 1) / freq); add the missing b / freq share. */
        uint64_t hi, lo;
        tracerd__mul128(c->m + 1, freq_hz, &hi, &lo);
        /* (m + 1) * freq <= b * 2^64  <=>  hi < b, or hi == b and lo == 0 */
        if (hi < c->b || (hi == c->b && lo == 0))
            c->m++;
    }
    c->max_fast = c->a ? UINT64_MAX / (c->a + 1) : UINT64_MAX;
}

uint64_t tracerd_ticks_to_ns(uint64_t ticks, uint64_t freq_hz)
{
    if (freq_hz == 1000000000u)
        return ticks;
    return tracerd__muldiv64(ticks, 1000000000u, freq_hz);
}
