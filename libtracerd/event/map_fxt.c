/* Fuchsia FXT onto events. Detection is by the magic number record
 * (0x0016547846040010 as the first word, in either byte order). The
 * record mapping plugs in here once the FXT reader (include/tracerd/fxt.h)
 * is on main: fill .open and the reader operations (see event_internal.h
 * and doc/api.md, "Adding a format"). Until then the auto reader reports
 * TRACERD_E_UNSUPPORTED for a detected FXT trace. */
#include "event_internal.h"

static int detect(const uint8_t *h, size_t n)
{
    static const uint8_t le[8] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    static const uint8_t be[8] = {0x00, 0x16, 0x54, 0x78, 0x46, 0x04, 0x00, 0x10};
    if (n < 8)
        return 0;
    return memcmp(h, le, 8) == 0 || memcmp(h, be, 8) == 0 ? 100 : 0;
}

const struct tracerd__event_backend tracerd__event_backend_fxt = {
    .format = TRACERD_EVENT_FORMAT_FXT,
    .name = "fxt",
    .detect = detect,
};
