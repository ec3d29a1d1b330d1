/* CTF format detection (tracerd_ctf_detect): the one detector the event view
 * and the CLI share, on the magic numbers the readers check (ctf.h). */
#include "ctf_internal.h"

int tracerd_ctf_detect(const void *head, size_t len)
{
    const uint8_t *h = head;
    if (h == NULL)
        return 0;
    int version = tracerd_ctf_metadata_version(h, len);
    if (version == 1)
        return 90; /* plain TSDL metadata with its signature */
    if (version == 2 && h[0] == 0x1E) {
        /* plain CTF 2 metadata: the record separator, then (after blanks) a JSON
         * object (packetized CTF 2 metadata is recognised by its magic below) */
        size_t i = 1;
        while (i < len && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
            i++;
        return i < len && h[i] == '{' ? 90 : 0;
    }
    if (len < 4)
        return 0;
    uint32_t le = tracerd__le32(h), be = tracerd__be32(h);
    if (le == TRACERD_CTF_PACKET_MAGIC || be == TRACERD_CTF_PACKET_MAGIC)
        return 100;
    if (le == TRACERD_CTF_METADATA_MAGIC || be == TRACERD_CTF_METADATA_MAGIC)
        return 100;
    return 0;
}
