/* libFuzzer target: CTF metadata (TSDL text, CTF 2 JSON fragments, or
 * packetized: the bytes decide), fed in chunks chosen by the last input byte,
 * parsed and compiled; a model also decodes the input as a stream. */
#include <stdint.h>

#include "ctf_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_ctf_metadata_run("", data, size);
}
