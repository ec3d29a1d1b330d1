/* xtrace onto events. An xtrace instruction stream has no magic number and
 * its snapshot header's identifier value is not published
 * (specs/xtrace-notes.md 3.2), so content detection would only guess: the
 * format is selected explicitly (tracerd_auto_config_t.format, or
 * `tracerd --format xtrace`). The record mapping plugs in here once the
 * xtrace reader (include/tracerd/xtrace.h) is on main (see event_internal.h
 * and doc/api.md, "Adding a format"). */
#include "event_internal.h"

static int detect(const uint8_t *h, size_t n)
{
    (void)h;
    (void)n;
    return 0;
}

const struct tracerd__event_backend tracerd__event_backend_xtrace = {
    .format = TRACERD_EVENT_FORMAT_XTRACE,
    .name = "xtrace",
    .detect = detect,
};
