/* Shared CTF fuzz bodies (fuzz/ctf_fuzz.c). */
#ifndef FUZZ_CTF_FUZZ_H
#define FUZZ_CTF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Feeds prefix (a NUL-terminated string, may be "") then data as metadata.
 * Returns 0. */
int fuzz_ctf_metadata_run(const char *prefix, const uint8_t *data, size_t size);

#endif
