/* A small CTF 1.8 writer for tests and benchmarks: a bit-level packer and a
 * generator of a trace exercising every feature of the reader's checklist
 * (bit fields at any offset in both byte orders, compact and extended LTTng
 * headers, clock wrap, floats, strings, text arrays, multi-dimensional
 * arrays, sequences with relative and absolute length paths, enums with
 * ranges and quoted labels, variants, nested structs, empty packets,
 * padding, discarded events and lost packets). */
#ifndef TESTS_SUPPORT_CTF_WRITER_H
#define TESTS_SUPPORT_CTF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cw {
    uint8_t *buf;
    size_t cap;      /* bytes */
    uint64_t bits;   /* write position (bits from buf[0]) */
} cw_t;

void cw_init(cw_t *w);
void cw_free(cw_t *w);
void cw_align(cw_t *w, unsigned bits);
/* Writes the low `size` bits of v at the current bit position. */
void cw_int(cw_t *w, uint64_t v, unsigned size, bool big);
void cw_bytes(cw_t *w, const void *p, size_t n); /* byte-aligned */
void cw_str(cw_t *w, const char *s);             /* with its NUL */
void cw_f32(cw_t *w, float f, bool big);
void cw_f64(cw_t *w, double d, bool big);
/* Patches a byte-aligned integer at byte offset `at`. */
void cw_patch(cw_t *w, size_t at, uint64_t v, unsigned size, bool big);

/* The feature trace. The returned buffers are malloc'd. */
char *ctf_writer_metadata(bool big);
uint8_t *ctf_writer_stream(bool big, size_t *len);
/* Packetized form of a metadata text (packets of pkt_bytes), in byte order big. */
uint8_t *ctf_writer_packetize(const char *text, bool big, size_t pkt_bytes, size_t *len);

/* An LTTng-UST-like trace for benchmarks: `events` events of 40-100 bytes
 * (integers, a string, a sequence, an enum) with compact headers, in packets
 * of pkt_bytes. */
char *ctf_writer_bench_metadata(void);
uint8_t *ctf_writer_bench_stream(uint64_t target_bytes, size_t pkt_bytes, size_t *len,
                                 uint64_t *events);

/* A packet of the tests' usual layout (packet.header: a 32-bit magic and
 * stream_id 0; packet.context: 32-bit content_size and packet_size, filled
 * by cw_packet_end): its header and context; returns where it starts. */
size_t cw_packet_begin(cw_t *w, bool big);
/* The packet begun at start ends here: its content (whole bytes), pad
 * bytes of padding, then (align above 8) zero bits up to a multiple of
 * align from the stream's start; its two sizes, in bits. */
void cw_packet_end(cw_t *w, size_t start, bool big, size_t pad, unsigned align);

/* The metadata of a stream with LTTng's compact event header (its stream
 * block left open for an event context), in byte order %s (a format). */
extern const char ctf_writer_lttng_compact_meta[];
/* That header, in its compact form (id < 31, the timestamp's low 27 bits)
 * or its extended one (31, then the 32-bit id and the 64-bit timestamp). */
void cw_lttng_compact(cw_t *w, uint32_t id, uint64_t ts, bool ext, bool be);

#endif
