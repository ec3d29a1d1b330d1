/* Config and callbacks structs that grow (doc/api.md §7, doc/design.md
 * "Structs that grow"). Every public config and callbacks struct has a
 * `size_t size` member after the members it had in 0.2, and members added
 * later come after it, so `size` stays at one offset in every version. It
 * holds sizeof the struct as the caller's header declares it: the header's
 * inline `_init` passes sizeof to the library's `_init_sized`, which writes
 * no more than that and sets the member. The library reads such a struct
 * through TRACERD__SIZED_READ, the rule of Linux's extensible structs
 * (copy_struct_from_user):
 *   - the members the caller's struct has are read; the ones it lacks (a
 *     caller built against an older header) keep their defaults;
 *   - bytes past the library's own struct (a caller built against a newer
 *     header) must be zero: a member this library does not know, set, is
 *     TRACERD_E_INVALID, never silently ignored;
 *   - size 0 (a struct zeroed or initialised by hand, not through _init)
 *     is read as the 0.2 struct: the members up to `size`.
 * Members added later must take zero as "absent" or "default". Never
 * installed. */
#ifndef TRACERD_CORE_SIZED_H
#define TRACERD_CORE_SIZED_H

#include <stdalign.h>
#include <stddef.h>

#include "internal.h"

/* The size a struct type has up to and including `member`, rounded up to the
 * type's alignment. */
#define TRACERD__SIZE_TO(type, member)                                                             \
    ((offsetof(type, member) + sizeof(((type *)0)->member) + alignof(type) - 1) / alignof(type) *  \
     alignof(type))

/* The work of every `_init_sized`: writes the defaults `def` (def_size bytes;
 * NULL: all zero, as for callbacks) into the caller's struct p of `size`
 * bytes, zeroes the bytes this library does not know and sets p's size member
 * (at size_off) to `size`. A size too small to reach the size member (not a
 * struct of ours) writes nothing. */
void tracerd__sized_init(void *p, size_t size, const void *def, size_t def_size, size_t size_off);

/* Reads the caller's struct src (NULL: nothing) over dst, which holds the
 * defaults (dst_size bytes); dst's size member (at size_off) is dst_size
 * afterwards. `base` is the 0.2 size, what a size of 0 means.
 * TRACERD_E_INVALID for a size below base, or non-zero bytes past dst_size. */
tracerd_status_t tracerd__sized_read(void *dst, size_t dst_size, const void *src, size_t size_off,
                                     size_t base);

/* tracerd__sized_read for a public struct type with its `size` member. */
#define TRACERD__SIZED_READ(type, dst, src)                                                        \
    tracerd__sized_read((dst), sizeof(type), (src), offsetof(type, size),                          \
                        TRACERD__SIZE_TO(type, size))

/* Defines `name`_sized, the exported half of a public `_init`: the defaults
 * from `defaults(type *)` (NULL for callbacks: all zero). */
#define TRACERD__SIZED_INIT(name, type, defaults)                                                  \
    void name##_sized(type *p, size_t size)                                                        \
    {                                                                                              \
        type d;                                                                                    \
        memset(&d, 0, sizeof d);                                                                   \
        void (*fill)(type *) = (defaults);                                                         \
        if (fill != NULL)                                                                          \
            fill(&d);                                                                              \
        tracerd__sized_init(p, size, &d, sizeof d, offsetof(type, size));                          \
    }

#endif
