/**
 * @file xray.h
 * Streaming reader for LLVM XRay traces: flight-data-recorder (FDR) mode,
 * versions 1-5, and basic ("naive") mode, versions 1-3, in either byte order.
 *
 * Feed bytes in chunks of any size; the reader reconstructs absolute TSCs,
 * nanoseconds, thread, process and CPU for every record and calls the
 * callbacks. See doc/api.md for the contract and doc/formats/xray.md for the
 * byte-level reading.
 */
#ifndef TRACERD_XRAY_H
#define TRACERD_XRAY_H

#include <tracerd/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque reader. */
typedef struct tracerd_xray_reader tracerd_xray_reader_t;

/** File type (header bytes 2-3). */
typedef enum tracerd_xray_type {
    TRACERD_XRAY_TYPE_BASIC = 0,
    TRACERD_XRAY_TYPE_FDR = 1
} tracerd_xray_type_t;

/** Function record kinds (FDR and basic). */
typedef enum tracerd_xray_kind {
    TRACERD_XRAY_ENTER = 0,
    TRACERD_XRAY_EXIT = 1,
    TRACERD_XRAY_TAIL_EXIT = 2,
    TRACERD_XRAY_ENTER_ARGS = 3
} tracerd_xray_kind_t;

/** FDR metadata record kinds (byte 0 = 1 | kind << 1 on little-endian files). */
typedef enum tracerd_xray_meta_kind {
    TRACERD_XRAY_META_NEW_BUFFER = 0,
    TRACERD_XRAY_META_END_OF_BUFFER = 1,
    TRACERD_XRAY_META_NEW_CPU = 2,
    TRACERD_XRAY_META_TSC_WRAP = 3,
    TRACERD_XRAY_META_WALLTIME = 4,
    TRACERD_XRAY_META_CUSTOM_EVENT = 5,
    TRACERD_XRAY_META_CALL_ARGUMENT = 6,
    TRACERD_XRAY_META_BUFFER_EXTENTS = 7,
    TRACERD_XRAY_META_TYPED_EVENT = 8,
    TRACERD_XRAY_META_PID = 9
} tracerd_xray_meta_kind_t;

/** Span field ids for payload fragments. */
#define TRACERD_XRAY_FIELD_CUSTOM_PAYLOAD 1u
#define TRACERD_XRAY_FIELD_TYPED_PAYLOAD 2u

/** The 32-byte file header. */
typedef struct tracerd_xray_header {
    uint16_t version;
    tracerd_xray_type_t type;
    uint32_t flags;                  /**< raw bitfield word; only bits 0-1 are meaningful */
    bool constant_tsc;               /**< flags bit 0 */
    bool nonstop_tsc;                /**< flags bit 1 */
    uint64_t cycle_frequency;        /**< Hz; 0 means nanoseconds are unavailable */
    uint64_t buffer_size;            /**< FDR v1: bytes per thread buffer; else as written */
    tracerd_byte_order_t byte_order; /**< LITTLE or BIG, as detected or configured */
} tracerd_xray_header_t;

/** Start of a thread buffer (FDR), reported once its preamble is read. */
typedef struct tracerd_xray_buffer {
    uint64_t offset; /**< absolute offset of its first record (BufferExtents, or NewBuffer in v1) */
    uint64_t size;   /**< v2+: bytes after BufferExtents; v1: the header's buffer size */
    int32_t tid;     /**< from NewBuffer */
    int32_t pid;     /**< from PIDEntry (v3+); 0 when has_pid is false */
    bool has_pid;
    bool has_walltime;
    uint64_t wall_seconds; /**< from WalltimeMarker */
    uint32_t wall_micros;
} tracerd_xray_buffer_t;

/** A function entry or exit, with everything reconstructed. */
typedef struct tracerd_xray_function {
    uint64_t offset; /**< absolute offset of the function record */
    tracerd_xray_kind_t kind;
    int32_t function_id;
    uint64_t tsc;   /**< absolute TSC */
    uint64_t ns;    /**< tsc in nanoseconds (0 when the frequency is 0) */
    uint32_t delta; /**< FDR TSC delta as written (0 in basic mode) */
    int32_t tid;
    int32_t pid; /**< 0 when unknown (FDR v1-2, basic v1-2) */
    uint16_t cpu;
    uint32_t nargs;       /**< arguments attached to an entry (CallArgument records) */
    const uint64_t *args; /**< borrowed; valid until the callback returns */
} tracerd_xray_function_t;

/** A custom or typed event (FDR), or its header when fragmented. */
typedef struct tracerd_xray_event {
    uint64_t offset;     /**< absolute offset of the marker record */
    bool typed;          /**< TypedEventMarker (else CustomEventMarker) */
    uint16_t event_type; /**< typed events only */
    uint64_t tsc;        /**< absolute TSC of the event */
    uint64_t ns;
    int32_t tid;
    int32_t pid;
    uint16_t cpu;
    uint32_t size; /**< payload bytes */
    /** The whole payload when size <= the stitch bound (a view into the
     * caller's chunk, or into the reader's stitch buffer when it straddled
     * chunks); borrowed, valid until the callback returns. When size is
     * larger, payload.data is NULL and the payload follows in
     * on_event_fragment calls (zero-copy pieces of the caller's chunks). */
    tracerd_bytes_t payload;
} tracerd_xray_event_t;

/** Any FDR metadata record other than event markers, decoded. */
typedef struct tracerd_xray_metadata {
    uint64_t offset;
    tracerd_xray_meta_kind_t kind;
    int32_t tid;       /**< NEW_BUFFER */
    int32_t pid;       /**< PID */
    uint16_t cpu;      /**< NEW_CPU */
    uint64_t tsc;      /**< NEW_CPU, TSC_WRAP: the absolute TSC */
    uint64_t seconds;  /**< WALLTIME */
    uint32_t micros;   /**< WALLTIME */
    uint64_t argument; /**< CALL_ARGUMENT */
    uint64_t extent;   /**< BUFFER_EXTENTS */
} tracerd_xray_metadata_t;

/** The end of a thread buffer (FDR): EndOfBuffer in v1, the extent in v2+. */
typedef struct tracerd_xray_buffer_end {
    uint64_t offset;       /**< absolute offset just past the buffer (after any v1 filler) */
    uint64_t filler_bytes; /**< v1: bytes skipped after EndOfBuffer */
} tracerd_xray_buffer_end_t;

typedef int (*tracerd_xray_header_cb)(void *user, const tracerd_xray_header_t *h);
typedef int (*tracerd_xray_buffer_cb)(void *user, const tracerd_xray_buffer_t *b);
typedef int (*tracerd_xray_buffer_end_cb)(void *user, const tracerd_xray_buffer_end_t *e);
typedef int (*tracerd_xray_function_cb)(void *user, const tracerd_xray_function_t *f);
typedef int (*tracerd_xray_functions_cb)(void *user, const tracerd_xray_function_t *fs, size_t n);
typedef int (*tracerd_xray_event_cb)(void *user, const tracerd_xray_event_t *e);
typedef int (*tracerd_xray_metadata_cb)(void *user, const tracerd_xray_metadata_t *m);

/** Callbacks; any may be NULL ("not interested"). Zero the struct, then set. */
typedef struct tracerd_xray_callbacks {
    tracerd_xray_header_cb on_header;
    tracerd_xray_buffer_cb on_buffer;         /**< FDR buffer start */
    tracerd_xray_buffer_end_cb on_buffer_end; /**< FDR buffer end */
    tracerd_xray_function_cb on_function;
    tracerd_xray_event_cb on_event;
    tracerd_span_cb on_event_fragment;    /**< pieces of payloads above the stitch bound */
    tracerd_xray_metadata_cb on_metadata; /**< every other metadata record, raw facts */
    tracerd_warning_cb on_warning;        /**< lenient skips */
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** Called (when set) instead of on_function, with function records in
     * runs: fs[0..n-1] (1 <= n <= 64), in the order of the trace, each with
     * all its arguments, consecutive records of one buffer and one CPU
     * (the same tid, pid and cpu; only CallArguments lie between them, so
     * each record's tsc is the last one's plus its delta, modulo 2^64); the
     * array and each record's args are borrowed, valid until the callback
     * returns. A run ends before any other record is delivered, so the
     * order of every callback is on_function's. Runs end where the trace
     * says, never where a chunk ends (after 64 records, before any other
     * record, before the first CallArgument of a record with records before
     * it, before a record that is an error, at finish), so they are the
     * same for every split: a run's records are held across feeds until it
     * ends (at most 64; a chunk ending at a buffer's end leaves none held),
     * doc/api.md "records in runs" says why. Basic-mode records come alone
     * (n = 1). The return value is on_function's for the whole run: a
     * pause takes effect after fs[n-1], and during the call and after an
     * abort tracerd_xray_record_offset names fs[n-1]. For clients that do
     * little per record (counting, aggregating): one call per run instead
     * of one per record. */
    tracerd_xray_functions_cb on_functions;
} tracerd_xray_callbacks_t;

/** Sets every callback to NULL (not interested), the starting point before
 * setting the ones wanted (STYLE.md B.16: every callbacks struct has one). */
TRACERD_API void tracerd_xray_callbacks_init_sized(tracerd_xray_callbacks_t *cbs, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_xray_callbacks_init_sized, which writes no more than that.) */
static inline void tracerd_xray_callbacks_init(tracerd_xray_callbacks_t *cbs)
{
    tracerd_xray_callbacks_init_sized(cbs, sizeof *cbs);
}

/** Reader options. Initialise with tracerd_xray_config_init. */
typedef struct tracerd_xray_config {
    tracerd_byte_order_t byte_order; /**< AUTO (default): from the header's version and type */
    size_t stitch_bytes;      /**< reassembly bound for event payloads (default 4096, min 64) */
    uint32_t max_args;        /**< CallArguments per entry before E_LIMIT (default 64) */
    uint32_t max_event_bytes; /**< largest custom/typed event payload (default 1 GiB) */
    /** Lenient: skip a damaged FDR v2+ buffer by its extent, report it to
     * on_warning and go on (default false: stop with the error). Risk: the
     * skipped buffer's records are lost. */
    bool lenient_skip_buffers;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** Function records come with ns 0: their tsc is not converted (about
     * a fifth of the reader's work per record). A caller that needs the
     * nanoseconds of a few records converts their tsc with
     * tracerd_ticks_to_ns(tsc, the header's cycle_frequency), which gives
     * the reader's value exactly. Events and every other record keep their
     * ns; errors and offsets do not change. Default false. */
    bool no_ns;
} tracerd_xray_config_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_xray_config_init_sized(tracerd_xray_config_t *cfg, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_xray_config_init_sized, which writes no more than that.) */
static inline void tracerd_xray_config_init(tracerd_xray_config_t *cfg)
{
    tracerd_xray_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Creates a reader.
 * @param cfg   options (NULL: defaults); copied.
 * @param cbs   callbacks (NULL: none, a validator); copied.
 * @param user  passed to every callback.
 * @param alloc allocator (NULL: libc); must outlive the reader.
 * @param out   receives the reader; NULL on failure.
 * @return TRACERD_OK, TRACERD_E_INVALID (bad option), TRACERD_E_NOMEM.
 * All memory is allocated here (tracerd_xray_memory_bound).
 */
TRACERD_API tracerd_status_t tracerd_xray_new(const tracerd_xray_config_t *cfg,
                                              const tracerd_xray_callbacks_t *cbs, void *user,
                                              const tracerd_allocator_t *alloc,
                                              tracerd_xray_reader_t **out);

/**
 * Feeds the next bytes. Records wholly inside `data` are delivered as views
 * into it; a record straddling chunks is reassembled internally.
 * @param consumed receives how many bytes were used: len on TRACERD_OK; the
 *        position right after the record whose callback paused on
 *        TRACERD_PAUSED (call _resume, then feed the rest); the error point on
 *        an error.
 * @return TRACERD_OK, TRACERD_PAUSED, or an error (sticky until _reset).
 * Not callable from a callback (TRACERD_E_INVALID).
 */
TRACERD_API tracerd_status_t tracerd_xray_feed(tracerd_xray_reader_t *r, const void *data,
                                               size_t len, size_t *consumed);
/** Clears a pause; then feed the unconsumed bytes. TRACERD_E_INVALID if not paused. */
TRACERD_API tracerd_status_t tracerd_xray_resume(tracerd_xray_reader_t *r);
/**
 * Declares the end of input: delivers a pending function record and fails
 * with TRACERD_E_TRUNCATED if the input ended inside a record, header or
 * (v2+) buffer extent. May return TRACERD_PAUSED (resume, then call again).
 */
TRACERD_API tracerd_status_t tracerd_xray_finish(tracerd_xray_reader_t *r);
/** Returns the reader to its state after _new (options and callbacks kept). */
TRACERD_API void tracerd_xray_reset(tracerd_xray_reader_t *r);
/** Frees the reader and everything it owns. NULL is allowed. */
TRACERD_API void tracerd_xray_free(tracerd_xray_reader_t *r);

/** Absolute offset of the next byte the reader expects. Callable from callbacks. */
TRACERD_API uint64_t tracerd_xray_offset(const tracerd_xray_reader_t *r);
/** Absolute offset of the record being delivered, or of the record at fault after an error. */
TRACERD_API uint64_t tracerd_xray_record_offset(const tracerd_xray_reader_t *r);
/** NUL-terminated reason of the last error ("" if none); owned by the reader until _reset/_free. */
TRACERD_API const char *tracerd_xray_error_reason(const tracerd_xray_reader_t *r);
/** The negative value a callback returned, after TRACERD_E_CALLBACK. */
TRACERD_API int tracerd_xray_callback_error(const tracerd_xray_reader_t *r);
/** This reader's entry points as a tracerd_reader_ops_t (core.h); a static table.
 * Its new_reader takes a tracerd_xray_config_t and a tracerd_xray_callbacks_t. */
TRACERD_API const tracerd_reader_ops_t *tracerd_xray_ops(void);
/** Copies the header once it has been read; returns false before. */
TRACERD_API bool tracerd_xray_header(const tracerd_xray_reader_t *r, tracerd_xray_header_t *h);
/** Upper bound of the memory a reader with these options allocates, in bytes. */
TRACERD_API size_t tracerd_xray_memory_bound(const tracerd_xray_config_t *cfg);

/**
 * How sure (0..100) it is that head[0..len) starts an XRay log. XRay has no
 * magic number: the header's version and type must be a known pair (FDR 1-5,
 * basic 1-3) in one byte order, its cycle frequency 0 or at least 1 kHz, and
 * the first records present in head must be valid (FDR: NewBuffer (v1) or
 * BufferExtents (v2+) first; basic: function records, and argument records
 * after a function record of the same function and thread). Anything else is
 * 0 (doc/formats/xray.md, "Detection"). The one detector of the format: the
 * event view and the CLI use it. Pass 64 bytes or more for a sure answer.
 */
TRACERD_API int tracerd_xray_detect(const void *head, size_t len);

/** Name of a function kind ("enter", "exit", "tail-exit", "enter-args"). */
TRACERD_API const char *tracerd_xray_kind_name(tracerd_xray_kind_t kind);
/** Name of a metadata kind ("new-buffer", ...). */
TRACERD_API const char *tracerd_xray_meta_kind_name(tracerd_xray_meta_kind_t kind);

/** Opaque table of XRay function names (see tracerd_xray_names_load). */
typedef struct tracerd_xray_names tracerd_xray_names_t;

/* ---- XRay function names from the instrumented binary -------------------- */

/**
 * Creates an empty names table.
 * @param alloc allocator (NULL: libc); must outlive the table.
 * @return TRACERD_OK, TRACERD_E_NOMEM, TRACERD_E_INVALID (out NULL).
 */
TRACERD_API tracerd_status_t tracerd_xray_names_new(const tracerd_allocator_t *alloc,
                                                    tracerd_xray_names_t **out);

/**
 * Loads function ids and names from an XRay-instrumented ELF executable or
 * shared object held in memory (32 or 64 bit, either byte order): reads the
 * `xray_instr_map` section (sled versions 0-2; version 2 addresses are
 * PC-relative) and numbers functions the way the XRay runtime and
 * `llvm-xray --instr_map` do (ids from 1, a new id whenever the sled's
 * function changes), then names each function address from `.symtab` (else
 * `.dynsym`). Names are copied: `elf` is borrowed for the call only.
 * Replaces any table loaded before. Names are not demangled.
 * @return TRACERD_OK; TRACERD_E_MAGIC (not ELF), TRACERD_E_VERSION (ELF class
 *         or version), TRACERD_E_EXTENT (a table runs past the file),
 *         TRACERD_E_BAD_RECORD (bad section or entry size),
 *         TRACERD_E_REFERENCE (no xray_instr_map section), TRACERD_E_LIMIT
 *         (more than 16 M sleds), TRACERD_E_NOMEM.
 *         Reason in tracerd_xray_names_error_reason.
 */
TRACERD_API tracerd_status_t tracerd_xray_names_load(tracerd_xray_names_t *names, const void *elf,
                                                     size_t len);
/** Number of function ids loaded (ids are 1..count). */
TRACERD_API uint32_t tracerd_xray_names_count(const tracerd_xray_names_t *names);
/**
 * Name of function `id`: true and *name set (borrowed, valid until the table
 * is loaded again or freed) when the id is known and its address has a symbol;
 * false otherwise (*name then empty).
 */
TRACERD_API bool tracerd_xray_names_lookup(const tracerd_xray_names_t *names, int32_t id,
                                           tracerd_str_t *name);
/** Entry address of function `id` (link-time address), or 0 if unknown. */
TRACERD_API uint64_t tracerd_xray_names_address(const tracerd_xray_names_t *names, int32_t id);
/** Reason of the last load error ("" if none); owned by the table. */
TRACERD_API const char *tracerd_xray_names_error_reason(const tracerd_xray_names_t *names);
/** Frees the table. NULL is allowed. */
TRACERD_API void tracerd_xray_names_free(tracerd_xray_names_t *names);

#ifdef __cplusplus
}
#endif
#endif /* TRACERD_XRAY_H */
