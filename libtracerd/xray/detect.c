/* XRay format detection (tracerd_xray_detect): the one detector the event
 * view and the CLI share. XRay has no magic number, so the header is checked
 * field by field and then the first records (doc/formats/xray.md,
 * "Detection"). */
#include <tracerd/xray.h>

#include "../core/internal.h"

#define HEADER_BYTES 32u
#define BASIC_BYTES 32u
/* A cycle frequency below this is no clock an XRay runtime reports (LLVM
 * writes the TSC or counter frequency, MHz to GHz): such a header is another
 * format's bytes (an xtrace snapshot header's version field, for one). */
#define MIN_FREQ_HZ 1000u
#define MAX_FREQ_HZ 100000000000ull

/* The basic-mode records in head[32, len): each must be a function record
 * (type 0, kind 0-3) or an argument record (type 1) that follows a function
 * record of the same function and thread, as the reader requires. Returns
 * how many were checked, or -1 when one fails. */
static int basic_records(const uint8_t *h, size_t len, bool big)
{
    int n = 0;
    bool fn = false;
    uint32_t fid = 0, tid = 0;
    for (size_t at = HEADER_BYTES; at + BASIC_BYTES <= len; at += BASIC_BYTES, n++) {
        const uint8_t *p = h + at;
        uint16_t type = tracerd__ld16(big, p);
        if (type == 0 && p[3] <= 3) {
            fn = true;
            fid = tracerd__ld32(big, p + 4);
            tid = tracerd__ld32(big, p + 16);
        } else if (type != 1 || !fn || tracerd__ld32(big, p + 4) != fid ||
                   tracerd__ld32(big, p + 8) != tid) {
            return -1;
        }
    }
    return n;
}

static int score_order(const uint8_t *h, size_t len, bool big)
{
    uint16_t version = tracerd__ld16(big, h);
    uint16_t type = tracerd__ld16(big, h + 2);
    bool fdr = type == 1 && version >= 1 && version <= 5;
    bool basic = type == 0 && version >= 1 && version <= 3;
    if (!fdr && !basic)
        return 0;
    int s = 30;
    if (len >= 16) {
        uint64_t freq = tracerd__ld64(big, h + 8);
        if (freq != 0 && freq < MIN_FREQ_HZ)
            return 0;
        if (freq != 0 && freq <= MAX_FREQ_HZ)
            s += 20;
        else if (freq != 0)
            s -= 20;
    }
    if (len == HEADER_BYTES) {
        s += 20; /* a header alone: an empty trace */
    } else if (len > HEADER_BYTES && fdr) {
        /* The first record is metadata: NewBuffer (v1) or BufferExtents (v2+). */
        unsigned want =
            version == 1 ? TRACERD_XRAY_META_NEW_BUFFER : TRACERD_XRAY_META_BUFFER_EXTENTS;
        uint8_t b0 = h[HEADER_BYTES];
        bool meta = big ? (b0 & 0x80u) != 0 : (b0 & 1u) != 0;
        unsigned kind = big ? (b0 & 0x7fu) : (unsigned)(b0 >> 1);
        if (!meta || kind != want)
            return 0;
        s += 40;
    } else if (len >= HEADER_BYTES + BASIC_BYTES && basic) {
        if (basic_records(h, len, big) < 0)
            return 0;
        s += 30;
    }
    return s > 100 ? 100 : s;
}

int tracerd_xray_detect(const void *head, size_t len)
{
    const uint8_t *h = head;
    if (h == NULL || len < 4)
        return 0;
    int le = score_order(h, len, false), be = score_order(h, len, true);
    return le > be ? le : be;
}
