/* xtrace format detection (tracerd_xtrace_detect): the one content detector
 * the CLI uses (the event view reads instruction streams, which have no magic
 * number: it never detects xtrace by content). A snapshot file is recognised
 * when a whole snapshot record of some layout follows the header and checks
 * out the way the reader's layout detection checks it (doc/formats/xtrace.md
 * §3.3): the trailing field equals the layout's VL and the user instruction
 * count is not above the total. */
#include <tracerd/xtrace.h>

#include "../core/internal.h"

/* Some layout (header size x VL x P layout x ZA, either byte order) whose
 * first record lies in head and checks out. */
static bool snapshot_fits(const uint8_t *h, size_t len)
{
    static const uint32_t headers[4] = {24, 19, 32, 0};
    for (unsigned hi = 0; hi < 4; hi++)
        for (uint32_t vl = 128; vl <= 2048; vl += 128)
            for (unsigned m = 0; m < 4; m++) {
                tracerd_xtrace_snap_layout_t l;
                memset(&l, 0, sizeof l);
                l.header_bytes = headers[hi];
                l.vector_length_bits = vl;
                l.p_layout = (m & 1) ? TRACERD_XTRACE_P_PER_REG : TRACERD_XTRACE_P_BLOCK;
                l.za_present = (m & 2) == 0;
                if (tracerd_xtrace_snap_layout_compute(&l) != TRACERD_OK)
                    continue;
                if ((size_t)l.header_bytes + l.record_bytes > len)
                    continue;
                const uint8_t *r = h + l.header_bytes;
                for (int big = 0; big < 2; big++)
                    if (tracerd__ld64(big != 0, r + l.record_bytes - 8) == vl &&
                        tracerd__ld64(big != 0, r + 16) <= tracerd__ld64(big != 0, r + 24))
                        return true;
            }
    return false;
}

int tracerd_xtrace_detect(const void *head, size_t len)
{
    return head != NULL && snapshot_fits(head, len) ? 85 : 0;
}
