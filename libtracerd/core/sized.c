/* Config and callbacks structs that grow: sized.h. */
#include "sized.h"

#include <string.h>

void tracerd__sized_init(void *p, size_t size, const void *def, size_t def_size, size_t size_off)
{
    if (p == NULL || size < size_off + sizeof size)
        return;
    size_t known = size < def_size ? size : def_size;
    if (def != NULL)
        memcpy(p, def, known);
    else
        memset(p, 0, known);
    if (size > known)
        memset((unsigned char *)p + known, 0, size - known);
    memcpy((unsigned char *)p + size_off, &size, sizeof size);
}

tracerd_status_t tracerd__sized_read(void *dst, size_t dst_size, const void *src, size_t size_off,
                                     size_t base)
{
    if (src == NULL)
        return TRACERD_OK;
    const unsigned char *s = src;
    size_t size;
    memcpy(&size, s + size_off, sizeof size);
    if (size == 0)
        size = base;
    if (size < base)
        return TRACERD_E_INVALID;
    for (size_t i = dst_size; i < size; i++)
        if (s[i] != 0)
            return TRACERD_E_INVALID; /* a member this library does not know */
    memcpy(dst, s, size < dst_size ? size : dst_size);
    memcpy((unsigned char *)dst + size_off, &dst_size, sizeof dst_size);
    return TRACERD_OK;
}
