#include "tlog.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(tlog_t *l, size_t more)
{
    if (l->len + more + 1 <= l->cap)
        return;
    size_t cap = l->cap ? l->cap : 256;
    while (cap < l->len + more + 1)
        cap *= 2;
    char *p = realloc(l->buf, cap);
    if (p == NULL)
        abort(); /* test support only */
    l->buf = p;
    l->cap = cap;
}

/* Formats once into the room left (at least 128 bytes), and a second time
 * only when the line did not fit: the split drivers log millions of lines,
 * and measuring each one first doubled the suite's formatting time. */
void tlog_printf(tlog_t *l, const char *fmt, ...)
{
    reserve(l, 128);
    size_t room = l->cap - l->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->len, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
        l->buf[l->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        reserve(l, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(l->buf + l->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    l->len += (size_t)n;
}

void tlog_hex(tlog_t *l, const void *data, size_t len)
{
    static const char hexd[] = "0123456789abcdef";
    const uint8_t *p = data;
    reserve(l, 2 * len);
    for (size_t i = 0; i < len; i++) {
        l->buf[l->len++] = hexd[p[i] >> 4];
        l->buf[l->len++] = hexd[p[i] & 15];
    }
    l->buf[l->len] = '\0';
}

void tlog_text(tlog_t *l, const void *data, size_t len)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
            tlog_printf(l, "%c", p[i]);
        else
            tlog_printf(l, "\\x%02x", p[i]);
    }
}

char *tlog_take(tlog_t *l)
{
    reserve(l, 0);
    l->buf[l->len] = '\0';
    char *s = l->buf;
    l->buf = NULL;
    l->len = l->cap = 0;
    return s;
}

void tlog_reset(tlog_t *l)
{
    l->len = 0;
    if (l->buf)
        l->buf[0] = '\0';
}

const char *tlog_count_(const tracerd_warning_t *w, char *buf, size_t size)
{
    if (!TRACERD_WARNING_HAS(w, count) || w->size != sizeof(tracerd_warning_t))
        return " BAD-SIZE";
    if (w->count == 0)
        return " BAD-COUNT";
    if (w->count == 1)
        return "";
    snprintf(buf, size, " count=%llu", (unsigned long long)w->count);
    return buf;
}
