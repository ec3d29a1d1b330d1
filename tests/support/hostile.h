/* Hostile inputs: one generator per way a trace can ask for unbounded time
 * or memory (issue 14), and a runner that reads one through the event view
 * with a counting allocator and reports the status, the error position and
 * reason, the allocator's peak and total bytes and the growth of the
 * process's peak RSS (getrusage). Generators take a size parameter: tests use
 * small ones; tests/hostile/gen_hostile.c writes any of them to a file with
 * large ones, to reproduce the table with the CLI. */
#ifndef TRACERD_TEST_HOSTILE_H
#define TRACERD_TEST_HOSTILE_H

#include <stddef.h>
#include <stdint.h>

#include <tracerd/event.h>

/* A generated input: `data` (malloc'd) and, for CTF, its metadata text. */
typedef struct hostile {
    uint8_t *data;
    size_t len;
    char *metadata; /* CTF: TSDL text (malloc'd), else NULL */
    tracerd_event_format_t format; /* forced format (xtrace), else UNKNOWN */
} hostile_t;

void hostile_free(hostile_t *h);

/* FXT */
void hg_fxt_large_record(hostile_t *h, uint64_t words); /* a large blob declaring `words` words */
void hg_fxt_string_churn(hostile_t *h, unsigned n);     /* n string records over few indices */
void hg_fxt_thread_churn(hostile_t *h, unsigned n);     /* n thread records + events using them */
void hg_fxt_providers(hostile_t *h, unsigned n);        /* n distinct providers */
/* XRay */
void hg_xray_event_size(hostile_t *h, int32_t size); /* a custom event declaring `size` bytes */
void hg_xray_args(hostile_t *h, unsigned n);          /* one entry with n call arguments */
void hg_xray_buffer_churn(hostile_t *h, unsigned n);  /* n buffers of distinct threads and CPUs */
/* xtrace (instruction stream) */
void hg_xtrace_iov_count(hostile_t *h, uint64_t n);  /* SYSCALL_VEC declaring n iovecs */
void hg_xtrace_iov_len(hostile_t *h, uint64_t len);  /* one iovec of `len` bytes */
void hg_xtrace_mem_size(hostile_t *h, unsigned k);   /* a load of 2^k bytes */

/* What a run cost and how it ended. */
typedef struct hostile_result {
    tracerd_status_t status;
    uint64_t record_offset;
    char reason[512];
    unsigned long events;
    size_t peak_bytes;  /* allocator hooks: largest live total */
    size_t total_bytes; /* allocator hooks: every byte allocated */
    long rss_growth_kib; /* getrusage ru_maxrss after the run minus before */
} hostile_result_t;

/* Reads h through the auto reader (metadata first for CTF), default options
 * unless cfg is given, in 64 KiB chunks. */
void hostile_run(const hostile_t *h, const tracerd_auto_config_t *cfg, hostile_result_t *res);

#endif
