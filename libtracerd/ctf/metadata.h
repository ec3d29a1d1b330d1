/* CTF metadata stream object, shared by the byte-level reader (metadata.c:
 * plain text or metadata packets, fed in chunks) and the metadata text
 * parser (tsdl_*.c). Never installed. */
#ifndef TRACERD_CTF_METADATA_H
#define TRACERD_CTF_METADATA_H

#include "ctf_internal.h"

#define META_MAGIC TRACERD_CTF_METADATA_MAGIC
#define META_HDR 37u

struct tracerd_ctf_metadata {
    tracerd_allocator_t alloc;
    tracerd_ctf_metadata_config_t cfg;
    struct tracerd__error err;
    uint32_t line, col;
    uint64_t offset;     /* bytes fed */
    uint64_t pkt_offset; /* start of the current metadata packet */
    int mode;            /* 0 undecided, 1 text, 2 packets */
    bool big;
    uint8_t hdr[META_HDR];
    size_t hdr_have;
    uint64_t content_left; /* text bytes left in the current packet */
    uint64_t pad_left;     /* padding bytes left in the current packet */
    uint8_t uuid[16];
    bool have_uuid;
    char *text;
    size_t len, cap;
    bool parse_failed;      /* the last finish failed (the error is not sticky) */
    uint64_t parse_err_off; /* ... at this byte of the metadata stream */
    /* Packetized metadata: where each packet's text starts in the text and in
     * the stream, to give a parse error's offset in the stream. */
    struct meta_seg {
        uint64_t text, file;
    } * segs;
    size_t nsegs, segcap;
};

/* Parses the TSDL text gathered in m into the model of t (arena ready).
 * On error sets m's error (and m->line/m->col) and returns its status. */
tracerd_status_t tracerd__ctf_tsdl_parse(tracerd_ctf_metadata_t *m, struct tracerd_ctf_trace *t);

/* Parses the CTF 2 JSON text sequence gathered in m into the model of t. */
tracerd_status_t tracerd__ctf_json_parse(tracerd_ctf_metadata_t *m, struct tracerd_ctf_trace *t);

#endif
