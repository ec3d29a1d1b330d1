/* CTF onto events. Detection: a packet magic 0xC1FC1FC1, a metadata packet
 * magic 0x75D11D57 (either byte order) or text metadata starting with
 * the CTF signature comment. The record mapping plugs in here once the CTF
 * reader (include/tracerd/ctf.h) is on main: fill .open, .metadata and the
 * reader operations (see event_internal.h and doc/api.md, "Adding a
 * format"). Until then the auto reader reports TRACERD_E_UNSUPPORTED for a
 * detected CTF trace. */
#include "event_internal.h"

static int detect(const uint8_t *h, size_t n)
{
    static const char sig[] = "/* CTF ";
    if (n >= sizeof sig - 1 && memcmp(h, sig, sizeof sig - 1) == 0)
        return 90;
    if (n < 4)
        return 0;
    uint32_t le = tracerd__le32(h);
    if (le == 0xC1FC1FC1u || tracerd__be32(h) == 0xC1FC1FC1u)
        return 100;
    if (le == 0x75D11D57u || tracerd__be32(h) == 0x75D11D57u)
        return 100;
    return 0;
}

const struct tracerd__event_backend tracerd__event_backend_ctf = {
    .format = TRACERD_EVENT_FORMAT_CTF,
    .name = "ctf",
    .detect = detect,
};
