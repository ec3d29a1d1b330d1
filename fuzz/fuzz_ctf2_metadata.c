/* libFuzzer target: CTF 2 metadata. The input follows a record separator
 * (0x1E), so it is always read as a JSON text sequence: fragments, field
 * classes, locations, roles; a model also decodes the input as a stream. */
#include <stdint.h>

#include "ctf_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_ctf_metadata_run("\x1e", data, size);
}
