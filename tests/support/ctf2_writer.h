/* A small CTF 2 writer for tests (as ctf_writer.h is for CTF 1.8): JSON
 * metadata fragments and a data stream exercising the field classes the
 * peer traces lack: booleans, bit arrays and bit maps, both bit orders,
 * LEB128 integers (unsigned, signed, 64-bit), optionals (boolean and
 * integer-range selectors), static and dynamic BLOBs, UTF-16 and UTF-32
 * strings of both byte orders (null-terminated, static and dynamic),
 * variants with signed ranges and relative locations climbing with null,
 * arrays with a minimum alignment, aliases of aliases, attributes, an empty
 * extensions object, a custom clock origin. Packet layout and sizes are the
 * same in both byte orders, so both give the same log. */
#ifndef TESTS_SUPPORT_CTF2_WRITER_H
#define TESTS_SUPPORT_CTF2_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The feature trace's metadata: RS-separated JSON fragments (malloc'd). */
char *ctf2_writer_metadata(bool big);
/* Its data stream: two packets (malloc'd). */
uint8_t *ctf2_writer_stream(bool big, size_t *len);

/* A trace whose dynamic lengths and selectors are found through arrays,
 * optionals and variants (including an earlier scope's optional): its
 * metadata and its two packets (malloc'd). */
char *ctf2_writer_loc_metadata(bool big);
uint8_t *ctf2_writer_loc_stream(bool big, size_t *len);

/* A CTF 2 version of ctf_writer_bench_metadata (same data stream). */
char *ctf2_writer_bench_metadata(void);

#endif
