/**
 * @file xtrace.h
 * Streaming readers for xtrace ("Workload trace") files, the AArch64
 * instruction-stream format of the Kunpeng Workload team:
 *
 *  - `xtrace.{timestamp}.{tid|cpuid}.hint{9|13}.xinsndata.bin`: a token
 *    stream (INST/PCINST, MEM, VAL, MISC, TIME), read by the
 *    tracerd_xtrace_insn_* reader, which tracks the running PC;
 *  - `xtrace.{timestamp}.{tid|cpuid}.hint{9|13}.xsnapshot.bin`: a header and
 *    full register snapshots every million user instructions, read by the
 *    tracerd_xtrace_snap_* reader, which detects the record layout (vector
 *    length and the open points of the spec) from the data.
 *
 * Both follow the common reader contract (doc/api.md): feed bytes in chunks
 * of any size, records arrive at callbacks as typed structs whose views are
 * borrowed until the callback returns, large payloads arrive as fragments
 * (tracerd_span_t). Every decision where the public description is silent is
 * an option below and is recorded in doc/formats/xtrace.md.
 */
#ifndef TRACERD_XTRACE_H
#define TRACERD_XTRACE_H

#include <tracerd/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Common                                                                    */
/* ======================================================================== */

/** Span field ids (tracerd_span_t.field) of both readers. */
#define TRACERD_XTRACE_FIELD_MEM_VALUE 1u /**< MEM value above the stitch bound; index 0 */
#define TRACERD_XTRACE_FIELD_IOV_DATA 2u  /**< SYSCALL_VEC buffer bytes; index = iovec number */
#define TRACERD_XTRACE_FIELD_Z 3u         /**< snapshot Z register; index 0..31 */
#define TRACERD_XTRACE_FIELD_P 4u         /**< snapshot P register; index 0..15 */
#define TRACERD_XTRACE_FIELD_FFR 5u       /**< snapshot FFR; index 0 */
#define TRACERD_XTRACE_FIELD_ZA 6u        /**< snapshot ZA matrix; index 0 */

/** Name of a span field id ("mem-value", "iov-data", "z", "p", "ffr", "za"; "?" if unknown). */
TRACERD_API const char *tracerd_xtrace_field_name(uint32_t field);

/** File kind, from the name (tracerd_xtrace_parse_filename). */
typedef enum tracerd_xtrace_file_kind {
    TRACERD_XTRACE_FILE_UNKNOWN = 0,
    TRACERD_XTRACE_FILE_INSNDATA = 1, /**< .xinsndata.bin: token stream */
    TRACERD_XTRACE_FILE_SNAPSHOT = 2  /**< .xsnapshot.bin: register snapshots */
} tracerd_xtrace_file_kind_t;

/** The parts of `xtrace.{timestamp}.{tid|cpuid}.hint{9|13}.{xinsndata|xsnapshot}.bin`. */
typedef struct tracerd_xtrace_filename {
    uint64_t timestamp;   /**< the timestamp digits as a number (unit not specified) */
    size_t timestamp_pos; /**< where its digits start in the name passed in */
    size_t timestamp_len; /**< number of digits */
    uint64_t id;          /**< thread id (thread capture) or cpu id (core capture) */
    unsigned hint;        /**< 9 or 13 */
    tracerd_xtrace_file_kind_t kind;
} tracerd_xtrace_filename_t;

/**
 * Parses an xtrace file name. A directory part (up to the last '/') is
 * ignored; the rest must match exactly
 * `xtrace.<digits>.<digits>.hint(9|13).(xinsndata|xsnapshot).bin`.
 * Pure function, callable from anywhere.
 * @param name  NUL-terminated path; borrowed.
 * @param out   receives the parts (zeroed on failure).
 * @return TRACERD_OK, or TRACERD_E_INVALID (NULL argument, no match, or a
 *         number above UINT64_MAX).
 */
TRACERD_API tracerd_status_t tracerd_xtrace_parse_filename(const char *name,
                                                           tracerd_xtrace_filename_t *out);

/* ======================================================================== */
/* Instruction stream (.xinsndata.bin)                                       */
/* ======================================================================== */

/** What a token byte means: the kinds of a decode profile entry. */
typedef enum tracerd_xtrace_token_kind {
    TRACERD_XTRACE_TOK_INVALID = 0,     /**< unassigned: E_BAD_TOKEN */
    TRACERD_XTRACE_TOK_INST = 1,        /**< 4-byte opcode, PC = previous PC + 4 */
    TRACERD_XTRACE_TOK_PCINST = 2,      /**< 8-byte PC + 4-byte opcode */
    TRACERD_XTRACE_TOK_LOAD = 3,        /**< 8-byte address + 2^size_log2 value bytes */
    TRACERD_XTRACE_TOK_STORE = 4,       /**< same as LOAD */
    TRACERD_XTRACE_TOK_VAL = 5,         /**< 8-byte value; `sub` = tracerd_xtrace_val_kind_t */
    TRACERD_XTRACE_TOK_ALLGPR = 6,      /**< 32 x 8-byte X0..X31 */
    TRACERD_XTRACE_TOK_MISC_FLAGS = 7,  /**< 8-byte flags (NZCV) */
    TRACERD_XTRACE_TOK_SYSCALL_VEC = 8, /**< 8-byte count N, then N iovecs (+ data) */
    TRACERD_XTRACE_TOK_TIME = 9,        /**< memory-order timestamp, time_payload_bytes */
    /** A token the spec does not describe but whose payload size is known
     * (`payload_bytes`): delivered raw to on_opaque. For real files with
     * sub-types the article omits (it announces five MISC sub-types and
     * describes three). */
    TRACERD_XTRACE_TOK_OPAQUE = 10
} tracerd_xtrace_token_kind_t;

/** VAL sub-types (token bits [7:3] in the default profile). */
typedef enum tracerd_xtrace_val_kind {
    TRACERD_XTRACE_VAL_STXR = 0,    /**< store-exclusive status */
    TRACERD_XTRACE_VAL_MRS = 1,     /**< MRS/MSR register value */
    TRACERD_XTRACE_VAL_SVCARG = 2,  /**< one SVC argument (x8, then x0..x5) */
    TRACERD_XTRACE_VAL_SVCRET = 3,  /**< system call return value */
    TRACERD_XTRACE_VAL_DC = 4,      /**< DC ZVA/GZVA address register */
    TRACERD_XTRACE_VAL_TARGET_B = 5 /**< BR/BLR/RET/ERET target */
} tracerd_xtrace_val_kind_t;

/** Name of a VAL kind ("stxr", "mrs", "svcarg", "svcret", "dc", "target-b"; "?" otherwise). */
TRACERD_API const char *tracerd_xtrace_val_kind_name(tracerd_xtrace_val_kind_t kind);
/** Name of a token kind ("inst", "pcinst", "load", ...; "invalid"). */
TRACERD_API const char *tracerd_xtrace_token_kind_name(tracerd_xtrace_token_kind_t kind);

/** One entry of a decode profile: what one token byte value means. */
typedef struct tracerd_xtrace_token_info {
    uint8_t kind;           /**< tracerd_xtrace_token_kind_t */
    uint8_t sub;            /**< VAL: tracerd_xtrace_val_kind_t; else 0 */
    uint8_t el;             /**< INST/PCINST: exception level carried by the token */
    uint8_t size_log2;      /**< LOAD/STORE: the value is 2^size_log2 bytes (0..15) */
    uint16_t payload_bytes; /**< OPAQUE: payload size (0..256); else ignored */
} tracerd_xtrace_token_info_t;

/**
 * A decode profile: the meaning of each of the 256 token byte values. The
 * reader compiles it into its own 256-entry table in _new, so a different
 * bit layout is data, not code.
 */
typedef struct tracerd_xtrace_profile {
    tracerd_xtrace_token_info_t token[256];
} tracerd_xtrace_profile_t;

/**
 * Fills *p with the profile of the published spec: class in bits [2:0]
 * (INST=1, MEM=2, VAL=3, MISC=4, TIME=7; 0, 5, 6 invalid); INST: sub-type
 * bits [5:3] (0 INST, 1 PCINST), EL bits [7:6]; MEM: bit 3 store, k bits
 * [7:4]; VAL: bits [7:3] 0..5; MISC: bits [7:3] 1 ALLGPR, 3 MISC_FLAGS,
 * 4 SYSCALL_VEC; TIME: bits [7:3] == 0. Everything else is INVALID.
 */
TRACERD_API void tracerd_xtrace_profile_default(tracerd_xtrace_profile_t *p);

/** Where the buffer bytes of a SYSCALL_VEC go (the spec does not say). */
typedef enum tracerd_xtrace_iov_layout {
    /** Each iovec {base, len} is followed by its len data bytes (default). */
    TRACERD_XTRACE_IOV_INTERLEAVED = 0,
    /** All N iovecs first, then the data of iovec 0, 1, ... */
    TRACERD_XTRACE_IOV_GROUPED = 1,
    /** Only the N iovecs; no data bytes. */
    TRACERD_XTRACE_IOV_HEADERS_ONLY = 2,
    /** Decided from the data (default): at the first SYSCALL_VEC with iovecs,
     * the layout that keeps the stream consistent over the next
     * iov_probe_bytes bytes (doc/formats/xtrace.md), reported to on_layout. */
    TRACERD_XTRACE_IOV_AUTO = 3
} tracerd_xtrace_iov_layout_t;

/** Name of an iov layout ("interleaved", "grouped", "headers-only", "auto"; "?"). */
TRACERD_API const char *tracerd_xtrace_iov_layout_name(tracerd_xtrace_iov_layout_t layout);

/** Instruction-stream reader options. Initialise with tracerd_xtrace_insn_config_init. */
typedef struct tracerd_xtrace_insn_config {
    /** Token decode profile; NULL (default) = tracerd_xtrace_profile_default. Copied in _new. */
    const tracerd_xtrace_profile_t *profile;
    /** When true, an INST before the first PCINST has PC initial_pc (then +4 each):
     * for reading from a snapshot's seek point. Default false: such an INST is E_ORDER. */
    bool has_initial_pc;
    uint64_t initial_pc;
    /** Absolute file offset of the first byte fed, when reading starts after a
     * seek (e.g. to a snapshot's index): every offset counts from it. Default 0. */
    uint64_t start_offset;
    /** Index of the first instruction delivered (e.g. a snapshot's instruction
     * count). Default 0. */
    uint64_t start_index;
    /** TIME payload size in bytes, 1..16 (default 8: a u64 sequence number). */
    uint32_t time_payload_bytes;
    /** Largest MEM value accepted, as log2 bytes, 0..15 (default 8 = 256 bytes);
     * a larger k is E_LIMIT. */
    uint32_t max_mem_log2;
    /** Reassembly bound: a MEM record (9 + 2^k bytes) up to this size arrives whole
     * in on_mem; a larger value arrives in on_mem_fragment pieces. Default 4096,
     * min 272 (an ALLGPR record, 257 bytes, must fit). */
    size_t stitch_bytes;
    /** SYSCALL_VEC data layout (default AUTO: decided from the data). */
    tracerd_xtrace_iov_layout_t iov_layout;
    /** Most iovecs in one SYSCALL_VEC (default 1024, max 1<<20); more is E_LIMIT. */
    uint32_t max_iov;
    /** Largest iovec length (default 64 MiB); larger is E_LIMIT. */
    uint64_t max_iov_len;
    /** Lenient: 0x00 bytes from some point to the end of input are padding
     * (preallocated files), reported once to on_warning. Risk: none for
     * data, 0x00 is never a valid token. Default false (E_BAD_TOKEN). */
    bool allow_trailing_zero_padding;
    /** Lenient: a record cut off at the end of input is reported to on_warning
     * and finish returns OK (killed capture tools). Default false (E_TRUNCATED). */
    bool allow_truncated_tail;
    /** AUTO layout: bytes after the first SYSCALL_VEC's count examined to
     * decide (default 65536, 64..16 MiB; allocated once, in _new, with AUTO). */
    uint32_t iov_probe_bytes;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
} tracerd_xtrace_insn_config_t;

/** An instruction, with its absolute PC. */
typedef struct tracerd_xtrace_insn {
    uint64_t offset;  /**< absolute offset of the token */
    uint64_t index;   /**< 0-based instruction number in the stream */
    uint64_t pc;      /**< absolute PC (explicit, or previous PC + 4) */
    uint32_t opcode;  /**< A64 instruction word */
    uint8_t el;       /**< exception level from the token (0 user, 1 kernel) */
    bool explicit_pc; /**< PCINST (else INST) */
} tracerd_xtrace_insn_t;

/** A memory access (MEM LOAD/STORE). */
typedef struct tracerd_xtrace_mem {
    uint64_t offset;     /**< absolute offset of the token */
    uint64_t insn_count; /**< instructions delivered before this record */
    uint64_t addr;
    /** The 2^k value bytes as stored (little-endian for scalars), borrowed
     * until the callback returns; NULL when the record is larger than the
     * stitch bound: the bytes then follow in on_mem_fragment. */
    const uint8_t *value;
    uint64_t value_u64; /**< the value as a little-endian integer when size <= 8, else 0 */
    uint32_t size;      /**< 2^k bytes */
    uint8_t size_log2;  /**< k */
    uint8_t el;         /**< exception level of the latest instruction (0 before any) */
    bool is_store;
} tracerd_xtrace_mem_t;

/** A VAL token. */
typedef struct tracerd_xtrace_val {
    uint64_t offset;
    uint64_t insn_count;
    tracerd_xtrace_val_kind_t kind;
    uint64_t value;
} tracerd_xtrace_val_t;

/** MISC ALLGPR: X0..X31 at an exception-level switch. */
typedef struct tracerd_xtrace_allgpr {
    uint64_t offset;
    uint64_t insn_count;
    uint64_t x[32]; /**< x[31] is probably SP (see doc/formats/xtrace.md) */
} tracerd_xtrace_allgpr_t;

/** MISC MISC_FLAGS: NZCV after MRS RNDR or a conditional select. */
typedef struct tracerd_xtrace_misc_flags {
    uint64_t offset;
    uint64_t insn_count;
    uint64_t flags; /**< raw 8-byte value */
} tracerd_xtrace_misc_flags_t;

/** MISC SYSCALL_VEC start and end (same struct). */
typedef struct tracerd_xtrace_syscall_vec {
    uint64_t offset;
    uint64_t insn_count;
    uint64_t count; /**< N iovecs */
    /** The layout its bytes are read with (AUTO only for a SYSCALL_VEC
     * without iovecs before the decision). */
    tracerd_xtrace_iov_layout_t layout;
} tracerd_xtrace_syscall_vec_t;

/** How an AUTO SYSCALL_VEC layout was decided (on_layout, once). */
typedef struct tracerd_xtrace_iov_decision {
    uint64_t offset;                    /**< the SYSCALL_VEC whose bytes decided */
    tracerd_xtrace_iov_layout_t layout; /**< the layout used from then on */
    /** Layouts consistent over the window: bit (1 << layout) each. */
    uint32_t candidates;
    /** Not a unique choice: several layouts (or none) were consistent and the
     * preference interleaved > grouped > headers-only chose. */
    bool assumed;
    uint64_t window_bytes; /**< bytes after the SYSCALL_VEC's count examined */
    bool window_complete;  /**< the window reached the end of the input */
} tracerd_xtrace_iov_decision_t;

/** One iovec of a SYSCALL_VEC. Its data (if the layout has data) follows in on_iov_data. */
typedef struct tracerd_xtrace_iov {
    uint64_t offset;     /**< absolute offset of the SYSCALL_VEC token */
    uint64_t iov_offset; /**< absolute offset of this 16-byte iovec */
    uint32_t index;      /**< 0..N-1 */
    uint64_t base;       /**< iov_base */
    uint64_t len;        /**< iov_len */
} tracerd_xtrace_iov_t;

/** A TIME token (memory-order timestamp). */
typedef struct tracerd_xtrace_time {
    uint64_t offset;
    uint64_t insn_count;
    uint64_t value;      /**< the first min(8, size) payload bytes, little-endian */
    tracerd_bytes_t raw; /**< the whole payload; borrowed until the callback returns */
} tracerd_xtrace_time_t;

typedef int (*tracerd_xtrace_insn_cb)(void *user, const tracerd_xtrace_insn_t *rec);
typedef int (*tracerd_xtrace_mem_cb)(void *user, const tracerd_xtrace_mem_t *rec);
typedef int (*tracerd_xtrace_val_cb)(void *user, const tracerd_xtrace_val_t *rec);
typedef int (*tracerd_xtrace_allgpr_cb)(void *user, const tracerd_xtrace_allgpr_t *rec);
typedef int (*tracerd_xtrace_misc_flags_cb)(void *user, const tracerd_xtrace_misc_flags_t *rec);
typedef int (*tracerd_xtrace_syscall_vec_cb)(void *user, const tracerd_xtrace_syscall_vec_t *rec);
typedef int (*tracerd_xtrace_iov_cb)(void *user, const tracerd_xtrace_iov_t *rec);
typedef int (*tracerd_xtrace_iov_decision_cb)(void *user, const tracerd_xtrace_iov_decision_t *d);
/** A token declared OPAQUE in the profile. */
typedef struct tracerd_xtrace_opaque {
    uint64_t offset;
    uint64_t insn_count;
    uint8_t token;           /**< the token byte */
    tracerd_bytes_t payload; /**< borrowed until the callback returns */
} tracerd_xtrace_opaque_t;

typedef int (*tracerd_xtrace_time_cb)(void *user, const tracerd_xtrace_time_t *rec);
typedef int (*tracerd_xtrace_opaque_cb)(void *user, const tracerd_xtrace_opaque_t *rec);

/** Instruction-stream callbacks; any may be NULL ("not interested"). Zero the struct, then set. */
typedef struct tracerd_xtrace_insn_callbacks {
    tracerd_xtrace_insn_cb on_insn;
    tracerd_xtrace_mem_cb on_mem;
    tracerd_span_cb on_mem_fragment; /**< MEM values above the stitch bound */
    tracerd_xtrace_val_cb on_val;
    tracerd_xtrace_allgpr_cb on_allgpr;
    tracerd_xtrace_misc_flags_cb on_misc_flags;
    tracerd_xtrace_syscall_vec_cb on_syscall_vec;     /**< start: count known */
    tracerd_xtrace_iov_cb on_iov;                     /**< each iovec header */
    tracerd_span_cb on_iov_data;                      /**< iovec data, fragments */
    tracerd_xtrace_syscall_vec_cb on_syscall_vec_end; /**< after the last iovec/data */
    tracerd_xtrace_time_cb on_time;
    tracerd_warning_cb on_warning;      /**< lenient padding / truncated tail */
    tracerd_xtrace_opaque_cb on_opaque; /**< tokens a custom profile declares OPAQUE */
    /** The AUTO SYSCALL_VEC layout decision, once, before that SYSCALL_VEC's
     * on_syscall_vec. */
    tracerd_xtrace_iov_decision_cb on_layout;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
} tracerd_xtrace_insn_callbacks_t;

/** Sets every callback to NULL (not interested), the starting point before
 * setting the ones wanted (STYLE.md B.16: every callbacks struct has one). */
TRACERD_API void tracerd_xtrace_insn_callbacks_init_sized(tracerd_xtrace_insn_callbacks_t *cbs,
                                                          size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_xtrace_insn_callbacks_init_sized, which writes no more than that.) */
static inline void tracerd_xtrace_insn_callbacks_init(tracerd_xtrace_insn_callbacks_t *cbs)
{
    tracerd_xtrace_insn_callbacks_init_sized(cbs, sizeof *cbs);
}

/** Opaque instruction-stream reader. */
typedef struct tracerd_xtrace_insn_reader tracerd_xtrace_insn_reader_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_xtrace_insn_config_init_sized(tracerd_xtrace_insn_config_t *cfg,
                                                       size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_xtrace_insn_config_init_sized, which writes no more than that.) */
static inline void tracerd_xtrace_insn_config_init(tracerd_xtrace_insn_config_t *cfg)
{
    tracerd_xtrace_insn_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Creates an instruction-stream reader.
 * @param cfg   options (NULL: defaults); copied (the profile too).
 * @param cbs   callbacks (NULL: none, a validator); copied.
 * @param user  passed to every callback.
 * @param alloc allocator (NULL: libc); must outlive the reader.
 * @param out   receives the reader; NULL on failure.
 * @return TRACERD_OK, TRACERD_E_INVALID (an option out of range), TRACERD_E_NOMEM.
 * All memory is allocated here (tracerd_xtrace_insn_memory_bound).
 */
TRACERD_API tracerd_status_t tracerd_xtrace_insn_new(const tracerd_xtrace_insn_config_t *cfg,
                                                     const tracerd_xtrace_insn_callbacks_t *cbs,
                                                     void *user, const tracerd_allocator_t *alloc,
                                                     tracerd_xtrace_insn_reader_t **out);
/**
 * Feeds the next bytes. Records wholly inside `data` are views into it; a
 * record straddling chunks is reassembled (up to the stitch bound).
 * @param consumed receives the bytes used: len on TRACERD_OK; the position
 *        right after the record whose callback paused on TRACERD_PAUSED (call
 *        _resume, then feed the rest); the error point on an error.
 * @return TRACERD_OK, TRACERD_PAUSED, or an error (sticky until _reset).
 * Not callable from a callback (TRACERD_E_INVALID).
 */
TRACERD_API tracerd_status_t tracerd_xtrace_insn_feed(tracerd_xtrace_insn_reader_t *r,
                                                      const void *data, size_t len,
                                                      size_t *consumed);
/** Clears a pause; then feed the unconsumed bytes. TRACERD_E_INVALID if not paused. */
TRACERD_API tracerd_status_t tracerd_xtrace_insn_resume(tracerd_xtrace_insn_reader_t *r);
/**
 * Declares the end of input: TRACERD_E_TRUNCATED (at the record's offset) if
 * the input ended inside a record, unless allow_truncated_tail. May return
 * TRACERD_PAUSED when a warning callback pauses (resume, then call again).
 */
TRACERD_API tracerd_status_t tracerd_xtrace_insn_finish(tracerd_xtrace_insn_reader_t *r);
/** Returns the reader to its state after _new (options and callbacks kept). */
TRACERD_API void tracerd_xtrace_insn_reset(tracerd_xtrace_insn_reader_t *r);
/** Frees the reader. NULL is allowed. Not callable from a callback. */
TRACERD_API void tracerd_xtrace_insn_free(tracerd_xtrace_insn_reader_t *r);

/** Absolute offset of the next byte the reader expects. Callable from callbacks. */
TRACERD_API uint64_t tracerd_xtrace_insn_offset(const tracerd_xtrace_insn_reader_t *r);
/** Absolute offset of the record being delivered, or of the record at fault after an error. */
TRACERD_API uint64_t tracerd_xtrace_insn_record_offset(const tracerd_xtrace_insn_reader_t *r);
/** NUL-terminated reason of the last error ("" if none); owned by the reader until _reset/_free. */
TRACERD_API const char *tracerd_xtrace_insn_error_reason(const tracerd_xtrace_insn_reader_t *r);
/** The negative value a callback returned, after TRACERD_E_CALLBACK. */
TRACERD_API int tracerd_xtrace_insn_callback_error(const tracerd_xtrace_insn_reader_t *r);
/** This reader's entry points as a tracerd_reader_ops_t (core.h); a static table.
 * Its new_reader takes a tracerd_xtrace_insn_config_t and a tracerd_xtrace_insn_callbacks_t. */
TRACERD_API const tracerd_reader_ops_t *tracerd_xtrace_insn_ops(void);
/** Instructions delivered so far. Callable from callbacks. */
TRACERD_API uint64_t tracerd_xtrace_insn_count(const tracerd_xtrace_insn_reader_t *r);
/** Upper bound of the memory a reader with these options allocates, in bytes. */
TRACERD_API size_t tracerd_xtrace_insn_memory_bound(const tracerd_xtrace_insn_config_t *cfg);

/* ======================================================================== */
/* Register snapshots (.xsnapshot.bin)                                       */
/* ======================================================================== */

/** A tri-state layout choice: AUTO decides from the data. */
typedef enum tracerd_xtrace_choice {
    TRACERD_XTRACE_AUTO = 0,
    TRACERD_XTRACE_NO = 1,
    TRACERD_XTRACE_YES = 2
} tracerd_xtrace_choice_t;

/** How the 16 P registers are stored. */
typedef enum tracerd_xtrace_p_layout {
    TRACERD_XTRACE_P_AUTO = 0,
    /** One block of 16 x VL/8 bytes (default reading). */
    TRACERD_XTRACE_P_BLOCK = 1,
    /** Each register in its own 16-byte-aligned slot (differs below VL 1024). */
    TRACERD_XTRACE_P_PER_REG = 2
} tracerd_xtrace_p_layout_t;

/** Snapshot reader options. Initialise with tracerd_xtrace_snap_config_init. */
typedef struct tracerd_xtrace_snap_config {
    /** AUTO (default) tries both and keeps the one whose trailing VL field is valid. */
    tracerd_byte_order_t byte_order;
    /** Header size: -1 = auto (default), 0 = no header (old traces), 19 (packed),
     * 24 (C struct) or 32 (16-aligned records). */
    int32_t header_bytes;
    /** Vector length in bits: 0 = auto (default), else 128..2048, a multiple of 128. */
    uint32_t vector_length_bits;
    /** Streaming vector length (ZA is (SVL/8)^2 bytes): 0 = same as VL (default). */
    uint32_t streaming_vector_length_bits;
    tracerd_xtrace_p_layout_t p_layout; /**< default AUTO */
    tracerd_xtrace_choice_t za;         /**< ZA present: AUTO (default), NO, YES */
    /** Arrays sized for VL 2048 whatever the trailing VL says: AUTO (default), NO, YES. */
    tracerd_xtrace_choice_t fixed_max;
    /** Detection lookahead in records after the header (1..8, default 2). The
     * reader allocates 32 + n x 74656 bytes for it in _new, unless every
     * layout option above is set. */
    uint32_t detect_records;
    /** Check that each snapshot's user (or total) instruction count is the
     * previous one + 1,000,000 (default true; E_LAYOUT otherwise). */
    bool check_advance;
    /** Header identifier to require (0 = any, default); mismatch is E_MAGIC. */
    uint32_t expect_ident;
    /** Lenient: a record cut off at the end of input goes to on_warning and
     * finish returns OK. Default false (E_TRUNCATED). */
    bool allow_truncated_tail;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
} tracerd_xtrace_snap_config_t;

/** The layout the reader uses, reported once before any record. */
typedef struct tracerd_xtrace_snap_layout {
    tracerd_byte_order_t byte_order;
    uint32_t header_bytes;       /**< 0, 19, 24 or 32 */
    uint32_t vector_length_bits; /**< VL the registers hold (the trailing field) */
    uint32_t streaming_vector_length_bits;
    uint32_t storage_vector_length_bits; /**< VL the arrays are sized for (2048 if fixed_max) */
    tracerd_xtrace_p_layout_t p_layout;
    bool za_present;
    bool fixed_max;
    uint32_t record_bytes;                                             /**< size of one snapshot */
    uint32_t z_offset, p_offset, ffr_offset, za_offset, sysreg_offset; /**< within a record */
    bool detected;            /**< decided from the data (else fully configured) */
    uint32_t candidates;      /**< layouts that were consistent (1 when decided) */
    uint32_t records_checked; /**< snapshots the detection looked at (0..detect_records) */
} tracerd_xtrace_snap_layout_t;

/** The file header. */
typedef struct tracerd_xtrace_snap_header {
    uint64_t offset;       /**< 0 */
    uint32_t header_bytes; /**< 19, 24 or 32 */
    uint32_t ident;        /**< 4-byte identifier (value unspecified by the spec) */
    uint32_t global_point; /**< global snapshot point (multi-thread sync) */
    uint64_t version;
    uint8_t split_type;  /**< snapshots by user or by total instructions */
    uint8_t stream_type; /**< thread or core stream */
    uint8_t mem_order;   /**< memory-order timestamps (TIME tokens) recorded */
    tracerd_bytes_t pad; /**< bytes after the 19 defined ones; borrowed */
} tracerd_xtrace_snap_header_t;

/** Start of a snapshot: counters and X0..X31. */
typedef struct tracerd_xtrace_snapshot {
    uint64_t offset;      /**< absolute offset of the snapshot */
    uint64_t index;       /**< 0-based snapshot number in this file */
    uint64_t file_no;     /**< file number */
    uint64_t file_index;  /**< index within the file (see doc: probably the insndata byte offset) */
    uint64_t user_insns;  /**< user-mode instructions before this snapshot */
    uint64_t total_insns; /**< all instructions before this snapshot */
    uint64_t x[32];       /**< X0..X31 (x[31] probably SP) */
} tracerd_xtrace_snapshot_t;

/** End of a snapshot: system registers and the trailing vector length. */
typedef struct tracerd_xtrace_snapshot_end {
    uint64_t offset;
    uint64_t index;
    uint64_t fpcr, fpsr, nzcv, tpidr_el0, tpidrro_el0, ttbr0_el1, elr_el1, spsr_el1, esr_el1,
        tpidr_el1, daif;
    uint64_t vector_length_bits; /**< the trailing field */
} tracerd_xtrace_snapshot_end_t;

typedef int (*tracerd_xtrace_snap_layout_cb)(void *user, const tracerd_xtrace_snap_layout_t *l);
typedef int (*tracerd_xtrace_snap_header_cb)(void *user, const tracerd_xtrace_snap_header_t *h);
typedef int (*tracerd_xtrace_snapshot_cb)(void *user, const tracerd_xtrace_snapshot_t *s);
typedef int (*tracerd_xtrace_snapshot_end_cb)(void *user, const tracerd_xtrace_snapshot_end_t *e);

/** Snapshot callbacks; any may be NULL. Order per snapshot: on_snapshot,
 * on_register (Z0..Z31, P0..P15, FFR, ZA, each as one or more fragments),
 * on_snapshot_end. */
typedef struct tracerd_xtrace_snap_callbacks {
    tracerd_xtrace_snap_layout_cb on_layout; /**< once, before anything else */
    tracerd_xtrace_snap_header_cb on_header;
    tracerd_xtrace_snapshot_cb on_snapshot;
    /** Register contents as zero-copy views (field Z/P/FFR/ZA, index = register);
     * a register split across chunks comes in several fragments. */
    tracerd_span_cb on_register;
    tracerd_xtrace_snapshot_end_cb on_snapshot_end;
    tracerd_warning_cb on_warning;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
} tracerd_xtrace_snap_callbacks_t;

/** Sets every callback to NULL (not interested), the starting point before
 * setting the ones wanted (STYLE.md B.16: every callbacks struct has one). */
TRACERD_API void tracerd_xtrace_snap_callbacks_init_sized(tracerd_xtrace_snap_callbacks_t *cbs,
                                                          size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_xtrace_snap_callbacks_init_sized, which writes no more than that.) */
static inline void tracerd_xtrace_snap_callbacks_init(tracerd_xtrace_snap_callbacks_t *cbs)
{
    tracerd_xtrace_snap_callbacks_init_sized(cbs, sizeof *cbs);
}

/** Opaque snapshot reader. */
typedef struct tracerd_xtrace_snap_reader tracerd_xtrace_snap_reader_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_xtrace_snap_config_init_sized(tracerd_xtrace_snap_config_t *cfg,
                                                       size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_xtrace_snap_config_init_sized, which writes no more than that.) */
static inline void tracerd_xtrace_snap_config_init(tracerd_xtrace_snap_config_t *cfg)
{
    tracerd_xtrace_snap_config_init_sized(cfg, sizeof *cfg);
}
/**
 * Creates a snapshot reader. Same conventions as tracerd_xtrace_insn_new.
 * @return TRACERD_OK, TRACERD_E_INVALID (an option out of range), TRACERD_E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_xtrace_snap_new(const tracerd_xtrace_snap_config_t *cfg,
                                                     const tracerd_xtrace_snap_callbacks_t *cbs,
                                                     void *user, const tracerd_allocator_t *alloc,
                                                     tracerd_xtrace_snap_reader_t **out);
/**
 * Feeds the next bytes. Until the layout is decided, bytes are copied into
 * the bounded lookahead (and count as consumed); then they are parsed.
 * Register blocks are views into `data` (or into the lookahead while it is
 * replayed). Same return and `consumed` rules as tracerd_xtrace_insn_feed;
 * layout errors are TRACERD_E_LAYOUT (no layout fits) or
 * TRACERD_E_AMBIGUOUS (several fit: set the options named in the reason).
 */
TRACERD_API tracerd_status_t tracerd_xtrace_snap_feed(tracerd_xtrace_snap_reader_t *r,
                                                      const void *data, size_t len,
                                                      size_t *consumed);
/** Clears a pause. TRACERD_E_INVALID if not paused. */
TRACERD_API tracerd_status_t tracerd_xtrace_snap_resume(tracerd_xtrace_snap_reader_t *r);
/**
 * End of input: decides the layout if the lookahead never filled, delivers
 * what it holds, and fails with TRACERD_E_TRUNCATED if the input ended inside
 * the header or a snapshot. May return TRACERD_PAUSED (resume, call again).
 */
TRACERD_API tracerd_status_t tracerd_xtrace_snap_finish(tracerd_xtrace_snap_reader_t *r);
/** Returns the reader to its state after _new. */
TRACERD_API void tracerd_xtrace_snap_reset(tracerd_xtrace_snap_reader_t *r);
/** Frees the reader. NULL is allowed. */
TRACERD_API void tracerd_xtrace_snap_free(tracerd_xtrace_snap_reader_t *r);

/** Absolute offset of the next byte the reader expects. Callable from callbacks. */
TRACERD_API uint64_t tracerd_xtrace_snap_offset(const tracerd_xtrace_snap_reader_t *r);
/** Absolute offset of the record being delivered, or of the record at fault. */
TRACERD_API uint64_t tracerd_xtrace_snap_record_offset(const tracerd_xtrace_snap_reader_t *r);
/** NUL-terminated reason of the last error ("" if none); owned by the reader. */
TRACERD_API const char *tracerd_xtrace_snap_error_reason(const tracerd_xtrace_snap_reader_t *r);
/** The negative value a callback returned, after TRACERD_E_CALLBACK. */
TRACERD_API int tracerd_xtrace_snap_callback_error(const tracerd_xtrace_snap_reader_t *r);
/** This reader's entry points as a tracerd_reader_ops_t (core.h); a static table.
 * Its new_reader takes a tracerd_xtrace_snap_config_t and a tracerd_xtrace_snap_callbacks_t. */
TRACERD_API const tracerd_reader_ops_t *tracerd_xtrace_snap_ops(void);
/** Copies the layout once decided; false before. Callable from callbacks. */
TRACERD_API bool tracerd_xtrace_snap_layout(const tracerd_xtrace_snap_reader_t *r,
                                            tracerd_xtrace_snap_layout_t *out);
/** Upper bound of the memory a reader with these options allocates, in bytes. */
TRACERD_API size_t tracerd_xtrace_snap_memory_bound(const tracerd_xtrace_snap_config_t *cfg);

/**
 * Computes the geometry of one candidate layout (header, VL, P layout, ZA,
 * fixed max): fills record_bytes and the offsets of *l from the other
 * fields, which the caller sets. For writers and tools. Returns
 * TRACERD_E_INVALID for an impossible combination.
 */
TRACERD_API tracerd_status_t tracerd_xtrace_snap_layout_compute(tracerd_xtrace_snap_layout_t *l);

/**
 * How sure (0..100) it is that head[0..len) starts an xtrace file, from the
 * content alone: 85 when it holds a snapshot file's header and first whole
 * record of some layout that checks out (trailing VL field, user <= total
 * instruction count: the checks of layout detection), else 0. An instruction
 * stream has no magic number and is never recognised by content (its file
 * name is: tracerd_xtrace_parse_filename). The one detector of the format.
 */
TRACERD_API int tracerd_xtrace_detect(const void *head, size_t len);

/** Largest snapshot record of any layout (VL 2048 with ZA), in bytes. */
#define TRACERD_XTRACE_SNAP_MAX_RECORD 74656u

#ifdef __cplusplus
}
#endif
#endif /* TRACERD_XTRACE_H */
