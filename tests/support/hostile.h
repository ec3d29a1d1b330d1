/* Hostile inputs: one generator per way a trace can ask for unbounded time
 * or memory (issue 14), and a runner that reads one through the event view
 * with a counting allocator and reports the status, the error position and
 * reason, the allocator's peak and total bytes and the growth of the
 * process's peak RSS (getrusage). Generators take a size parameter: tests use
 * small ones; tests/hostile/gen_hostile.c writes any of them to a file with
 * large ones, to reproduce the table with the CLI. */
#ifndef TRACERD_TEST_HOSTILE_H
#define TRACERD_TEST_HOSTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tracerd/event.h>

/* A generated input: `data` (malloc'd) and, for CTF, its metadata text. */
typedef struct hostile {
    uint8_t *data;
    size_t len;
    char *metadata; /* CTF: TSDL text (malloc'd), else NULL */
    tracerd_event_format_t format; /* forced format (xtrace), else UNKNOWN */
    bool snapshot; /* an xtrace snapshot file: read with the snapshot reader */
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
/* xtrace snapshot files (24-byte header, VL 512: hg_xtrace_snap_record_bytes()
 * a snapshot): nsnap snapshots, snapshot `at` changed by the fault. */
enum hg_snap_fault {
    HG_SNAP_NONE,
    HG_SNAP_VL,     /* its trailing vector length is `value` */
    HG_SNAP_COUNTS, /* its user and total instruction counts are `value` */
    HG_SNAP_CUT     /* the file ends `value` bytes into it */
};
void hg_xtrace_snap(hostile_t *h, unsigned nsnap, enum hg_snap_fault fault, unsigned at,
                    uint64_t value);
size_t hg_xtrace_snap_record_bytes(void);

/* CTF 1.8 (metadata text + one stream of one packet) */
void hg_ctf_laughs(hostile_t *h, unsigned levels);      /* each alias doubles the previous one */
void hg_ctf_empty_array(hostile_t *h, uint32_t len);    /* len x len elements of an empty struct */
void hg_ctf_empty_sequence(hostile_t *h, uint32_t len); /* a sequence of len empty structs */
void hg_ctf_enum(hostile_t *h, unsigned mappings, unsigned events); /* a big enum, events using it */
void hg_ctf_aliases(hostile_t *h, unsigned n);          /* n type aliases */
void hg_ctf_event_classes(hostile_t *h, unsigned n);    /* n event classes */
void hg_ctf_unused_structs(hostile_t *h, unsigned n, unsigned members); /* never used */
void hg_ctf_clocks(hostile_t *h, unsigned n); /* n clock blocks */
void hg_ctf_env(hostile_t *h, unsigned n);    /* an env block of n entries */
/* n event classes of `fields` 64-bit integers each declared in place, as LTTng does */
void hg_ctf_kernel_like(hostile_t *h, unsigned classes, unsigned fields);
void hg_ctf_struct_fields(hostile_t *h, unsigned n);    /* a payload struct of n fields */
void hg_ctf_stream_classes(hostile_t *h, unsigned n);   /* n stream classes */
void hg_ctf_variant_options(hostile_t *h, unsigned n, unsigned events); /* tag enum and variant */
/* Overlapping enumeration ranges (A 0..10, B 5..20, C 3, D 15..30, E 40)
 * and a variant on them; 33 events with the values 0..30, 40, then 31 (in
 * no range: the variant selects no option). */
void hg_ctf_enum_overlap(hostile_t *h);

/* A CTF trace directory of n stream files (stream_0 ...: n stream
 * instances of one stream class, files in packets of 64 events) of `events`
 * events each, written under dir (created): event k of stream i has the
 * timestamp k * n + i, so the merge takes every stream in turn. Returns 0,
 * or -1 (errno) when a file cannot be written. */
int hg_ctf_dir_streams(const char *dir, unsigned n, unsigned events);

/* What a run cost and how it ended. */
typedef struct hostile_result {
    tracerd_status_t status;
    uint64_t record_offset;
    char reason[512];
    unsigned long events;
    size_t peak_bytes;  /* allocator hooks: largest live total */
    size_t total_bytes; /* allocator hooks: every byte allocated */
    long rss_growth_kib; /* getrusage ru_maxrss after the run minus before */
    char log[4096];      /* the first events' arguments: "name=value ..." one line each */
    unsigned long out_of_order; /* directories: events earlier than the one before */
    uint64_t last_ns;
} hostile_result_t;

/* Reads h through the auto reader (metadata first for CTF), default options
 * unless cfg is given, in 64 KiB chunks; an xtrace snapshot file through the
 * snapshot reader (default options: layout detected; events counts the
 * snapshots). */
void hostile_run(const hostile_t *h, const tracerd_auto_config_t *cfg, hostile_result_t *res);

/* Reads a trace directory with tracerd_ctf_dir_open/run (cfg NULL:
 * defaults) with the counting allocator; counts the events and those out of
 * time order. On error, reason is the reader's reason and log its path. */
struct tracerd_ctf_dir_config;
void hostile_run_dir(const char *dir, const struct tracerd_ctf_dir_config *cfg,
                     hostile_result_t *res);

#endif
