/**
 * @file fxt.h
 * Streaming reader for the Fuchsia trace format (FXT): every record type of
 * the format (metadata, initialization, string, thread, event, blob,
 * userspace object, kernel object, scheduling, log, large blob), every
 * argument type, both byte orders, several providers per archive.
 *
 * Feed bytes in chunks of any size; the reader keeps the per-provider string
 * and thread tables, resolves every reference before the callback (clients
 * see names and koids, never indices), converts ticks to nanoseconds with the
 * provider's initialization record and calls the callbacks. Unknown record,
 * event, argument, metadata, scheduling and blob-format types are reported to
 * on_unknown and skipped by their size. See doc/api.md for the contract and
 * doc/formats/fxt.md for the byte-level reading and every choice made.
 */
#ifndef TRACERD_FXT_H
#define TRACERD_FXT_H

#include <tracerd/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque reader. */
typedef struct tracerd_fxt_reader tracerd_fxt_reader_t;

/** Record types (header bits [0..3]). */
typedef enum tracerd_fxt_record_type {
    TRACERD_FXT_RECORD_METADATA = 0,
    TRACERD_FXT_RECORD_INIT = 1,
    TRACERD_FXT_RECORD_STRING = 2,
    TRACERD_FXT_RECORD_THREAD = 3,
    TRACERD_FXT_RECORD_EVENT = 4,
    TRACERD_FXT_RECORD_BLOB = 5,
    TRACERD_FXT_RECORD_USERSPACE_OBJECT = 6,
    TRACERD_FXT_RECORD_KERNEL_OBJECT = 7,
    TRACERD_FXT_RECORD_SCHEDULING = 8,
    TRACERD_FXT_RECORD_LOG = 9,
    TRACERD_FXT_RECORD_LARGE = 15
} tracerd_fxt_record_type_t;

/** Metadata types (metadata header bits [16..19]). */
typedef enum tracerd_fxt_metadata_type {
    TRACERD_FXT_META_PROVIDER_INFO = 1,
    TRACERD_FXT_META_PROVIDER_SECTION = 2,
    TRACERD_FXT_META_PROVIDER_EVENT = 3,
    TRACERD_FXT_META_TRACE_INFO = 4
} tracerd_fxt_metadata_type_t;

/**
 * The magic number record: the 64-bit word every FXT trace starts with (a
 * trace info metadata record of type magic), read in the trace's byte order.
 * Its bits [24..55] are the magic number itself.
 */
#define TRACERD_FXT_MAGIC_RECORD 0x0016547846040010ull
/** The magic number, bits [24..55] of TRACERD_FXT_MAGIC_RECORD. */
#define TRACERD_FXT_MAGIC 0x16547846u

/**
 * How sure (0..100) it is that head[0..len) starts an FXT trace: 100 when it
 * starts with the magic number record in either byte order, else 0. The one
 * detector of the format: the event view and the CLI use it.
 */
TRACERD_API int tracerd_fxt_detect(const void *head, size_t len);

/** Trace info types (bits [20..23] of a trace info metadata record). */
#define TRACERD_FXT_TRACE_INFO_MAGIC 0u
/** Provider event ids (bits [52..55] of a provider event metadata record). */
#define TRACERD_FXT_PROVIDER_EVENT_BUFFER_FULL 0u

/** Event types (event header bits [16..19]). */
typedef enum tracerd_fxt_event_type {
    TRACERD_FXT_EVENT_INSTANT = 0,
    TRACERD_FXT_EVENT_COUNTER = 1,
    TRACERD_FXT_EVENT_DURATION_BEGIN = 2,
    TRACERD_FXT_EVENT_DURATION_END = 3,
    TRACERD_FXT_EVENT_DURATION_COMPLETE = 4,
    TRACERD_FXT_EVENT_ASYNC_BEGIN = 5,
    TRACERD_FXT_EVENT_ASYNC_INSTANT = 6,
    TRACERD_FXT_EVENT_ASYNC_END = 7,
    TRACERD_FXT_EVENT_FLOW_BEGIN = 8,
    TRACERD_FXT_EVENT_FLOW_STEP = 9,
    TRACERD_FXT_EVENT_FLOW_END = 10
} tracerd_fxt_event_type_t;

/** Argument types (argument header bits [0..3]). */
typedef enum tracerd_fxt_arg_type {
    TRACERD_FXT_ARG_NULL = 0,
    TRACERD_FXT_ARG_INT32 = 1,
    TRACERD_FXT_ARG_UINT32 = 2,
    TRACERD_FXT_ARG_INT64 = 3,
    TRACERD_FXT_ARG_UINT64 = 4,
    TRACERD_FXT_ARG_DOUBLE = 5,
    TRACERD_FXT_ARG_STRING = 6,
    TRACERD_FXT_ARG_POINTER = 7,
    TRACERD_FXT_ARG_KOID = 8,
    TRACERD_FXT_ARG_BOOL = 9,
    TRACERD_FXT_ARG_BLOB = 10
} tracerd_fxt_arg_type_t;

/** Scheduling record types (scheduling header bits [60..63]). */
typedef enum tracerd_fxt_sched_type {
    TRACERD_FXT_SCHED_LEGACY_CONTEXT_SWITCH = 0,
    TRACERD_FXT_SCHED_CONTEXT_SWITCH = 1,
    TRACERD_FXT_SCHED_THREAD_WAKEUP = 2
} tracerd_fxt_sched_type_t;

/** Large blob formats (large blob header bits [40..43]). */
typedef enum tracerd_fxt_large_blob_format {
    TRACERD_FXT_LARGE_BLOB_WITH_METADATA = 0,
    TRACERD_FXT_LARGE_BLOB_NO_METADATA = 1
} tracerd_fxt_large_blob_format_t;

/** What kind of type on_unknown reports. */
typedef enum tracerd_fxt_unknown_kind {
    TRACERD_FXT_UNKNOWN_RECORD = 1,     /**< record type 10..14 */
    TRACERD_FXT_UNKNOWN_METADATA = 2,   /**< metadata type 0 or 5..15 */
    TRACERD_FXT_UNKNOWN_TRACE_INFO = 3, /**< trace info type 1..15 */
    TRACERD_FXT_UNKNOWN_EVENT = 4,      /**< not reported: an event of type 11..15 is
                                             delivered to on_event with its raw type */
    TRACERD_FXT_UNKNOWN_ARGUMENT = 5,   /**< argument type 11..15 (the record is still delivered) */
    TRACERD_FXT_UNKNOWN_SCHEDULING = 6, /**< scheduling type 3..15 */
    TRACERD_FXT_UNKNOWN_LARGE_RECORD = 7, /**< large record type 1..15 */
    TRACERD_FXT_UNKNOWN_BLOB_FORMAT = 8   /**< large blob format 2..15 */
} tracerd_fxt_unknown_kind_t;

/** Span field id of large blob payload fragments (tracerd_span_t.field). */
#define TRACERD_FXT_FIELD_LARGE_BLOB 1u

/** Most arguments a record can carry (4-bit count). */
#define TRACERD_FXT_MAX_ARGS 15u
/** Smallest (and default) stitch bound: holds any normal record (at most 4095 words). */
#define TRACERD_FXT_STITCH_MIN 32768u

/**
 * A thread, resolved: `ref` is the thread reference as written (0 = the
 * koids were inline); pid and tid are the process and thread koids either
 * way.
 */
typedef struct tracerd_fxt_thread {
    uint8_t ref;
    uint64_t pid;
    uint64_t tid;
} tracerd_fxt_thread_t;

/**
 * One argument, decoded: its type, its name and its value, every reference
 * resolved. `name` and the views in `v` are borrowed, valid until the
 * callback returns. Read the member of `v` that matches `type`:
 *
 * | type | member |
 * |---|---|
 * | NULL | `v.u64` (0) |
 * | INT32, INT64 | `v.i64` (INT32 sign-extended) |
 * | UINT32, UINT64, POINTER, KOID | `v.u64` (UINT32 zero-extended) |
 * | BOOL | `v.u64` (0 or 1) |
 * | DOUBLE | `v.f64` |
 * | STRING | `v.str` |
 * | BLOB | `v.blob` (the payload, exactly the blob size) |
 * | unknown (11..15) | `v.blob` (the argument's words after its header, name stream included) |
 *
 * The other members hold no meaningful value.
 */
typedef struct tracerd_fxt_arg {
    uint32_t type; /**< tracerd_fxt_arg_type_t, or an unknown value 11..15 */
    /** Byte position of the argument's header word inside its record: its
     * absolute offset is the record's `offset` + `pos`. */
    uint32_t pos;
    tracerd_str_t name;
    /** The value, by `type` (see above). */
    union {
        uint64_t u64;
        int64_t i64;
        double f64;
        tracerd_str_t str;
        tracerd_bytes_t blob;
    } v;
} tracerd_fxt_arg_t;

/** Metadata record (record type 0). */
typedef struct tracerd_fxt_metadata {
    uint64_t offset; /**< absolute offset of the record */
    tracerd_fxt_metadata_type_t type;
    uint32_t provider_id;     /**< PROVIDER_*: from the record; TRACE_INFO: the current provider */
    tracerd_str_t name;       /**< PROVIDER_INFO: the name (name-length bytes) */
    uint32_t event;           /**< PROVIDER_EVENT: the event id (0 = buffer full) */
    uint32_t trace_info_type; /**< TRACE_INFO: 0 = magic */
    tracerd_byte_order_t byte_order; /**< TRACE_INFO magic: the byte order the record is in */
} tracerd_fxt_metadata_t;

/** Initialization record (record type 1). */
typedef struct tracerd_fxt_init {
    uint64_t offset;
    uint32_t provider_id;
    uint64_t ticks_per_second; /**< never 0 (that is an error) */
} tracerd_fxt_init_t;

/** String record (record type 2), after registration. */
typedef struct tracerd_fxt_string {
    uint64_t offset;
    uint32_t provider_id;
    uint16_t index;    /**< 1..0x7fff; 0 means the record was ignored (the spec reserves index 0) */
    tracerd_str_t str; /**< borrowed, valid until the callback returns */
} tracerd_fxt_string_t;

/** Thread record (record type 3), after registration. */
typedef struct tracerd_fxt_thread_rec {
    uint64_t offset;
    uint32_t provider_id;
    uint8_t index; /**< 1..255; 0 means the record was ignored (the spec reserves index 0) */
    uint64_t pid;
    uint64_t tid;
} tracerd_fxt_thread_rec_t;

/** Event record (record type 4), every reference resolved. */
typedef struct tracerd_fxt_event {
    uint64_t offset;
    uint32_t provider_id;
    /** 0..10, or the raw code 11..15 of an event type not defined yet: its
     * common part (ticks, thread, category, name, arguments) is decoded and
     * any words after the arguments are ignored (id and end are 0). */
    tracerd_fxt_event_type_t type;
    uint64_t ticks; /**< timestamp as written */
    uint64_t ns;    /**< ticks in nanoseconds (provider's ticks/s; 1 tick = 1 ns without one) */
    tracerd_fxt_thread_t thread;
    tracerd_str_t category; /**< borrowed */
    tracerd_str_t name;     /**< borrowed */
    uint32_t nargs;
    const tracerd_fxt_arg_t *args; /**< borrowed, nargs entries */
    /** COUNTER: counter id; ASYNC_*: async correlation id; FLOW_*: flow
     * correlation id; 0 otherwise. */
    uint64_t id;
    uint64_t end_ticks; /**< DURATION_COMPLETE: end time; 0 otherwise */
    uint64_t end_ns;
    /** The category's and the name's string references as written: an
     * index into the provider's string table (1..0x7fff; a later string
     * record may give the index another string), 0x8000 | length for an
     * inline string, 0 for the empty string. */
    uint16_t category_ref;
    uint16_t name_ref;
} tracerd_fxt_event_t;

/** Blob record (record type 5). */
typedef struct tracerd_fxt_blob {
    uint64_t offset;
    uint32_t provider_id;
    tracerd_str_t name;
    uint32_t blob_type;      /**< 1 data, 2 last branch, 3 perfetto; others as written */
    tracerd_bytes_t payload; /**< exactly the payload size, borrowed */
} tracerd_fxt_blob_t;

/** Userspace object record (record type 6). */
typedef struct tracerd_fxt_userspace_object {
    uint64_t offset;
    uint32_t provider_id;
    uint64_t pointer;
    /** The process reference, resolved. Indexed: the thread table's entry.
     * Inline, in one of two forms (process_words): 1 word, the process koid
     * (the spec's text; pid = koid, tid = 0), or 2 words, a full inline thread
     * reference (Fuchsia's C++ lib/fxt). */
    tracerd_fxt_thread_t process;
    tracerd_str_t name;
    uint32_t nargs;
    const tracerd_fxt_arg_t *args;
    /** Words of an inline process reference: 1 or 2, decided by the
     * record's size (fxt.md); 0 when the reference is an index. */
    uint32_t process_words;
} tracerd_fxt_userspace_object_t;

/** Kernel object record (record type 7). */
typedef struct tracerd_fxt_kernel_object {
    uint64_t offset;
    uint32_t provider_id;
    uint64_t koid;
    uint32_t object_type; /**< ZX_OBJ_TYPE_* */
    tracerd_str_t name;
    uint32_t nargs;
    const tracerd_fxt_arg_t *args;
} tracerd_fxt_kernel_object_t;

/** Scheduling record (record type 8): context switch, thread wakeup, legacy context switch. */
typedef struct tracerd_fxt_scheduling {
    uint64_t offset;
    uint32_t provider_id;
    tracerd_fxt_sched_type_t type;
    uint64_t ticks;
    uint64_t ns;
    uint32_t cpu;
    uint32_t outgoing_state; /**< context switches: thread state of the outgoing thread */
    /** CONTEXT_SWITCH: outgoing and incoming thread koids in .tid (.pid 0,
     * .ref 0). LEGACY: both resolved thread references. WAKEUP: unused. */
    tracerd_fxt_thread_t outgoing;
    tracerd_fxt_thread_t incoming;
    uint64_t waking_tid;        /**< THREAD_WAKEUP */
    uint32_t outgoing_priority; /**< LEGACY */
    uint32_t incoming_priority; /**< LEGACY */
    uint32_t nargs;             /**< CONTEXT_SWITCH and THREAD_WAKEUP */
    const tracerd_fxt_arg_t *args;
} tracerd_fxt_scheduling_t;

/** Log record (record type 9). */
typedef struct tracerd_fxt_log {
    uint64_t offset;
    uint32_t provider_id;
    uint64_t ticks;
    uint64_t ns;
    tracerd_fxt_thread_t thread;
    tracerd_str_t message; /**< borrowed, exactly the message length */
} tracerd_fxt_log_t;

/** Large blob record (record type 15, large type 0), formats 0 and 1. */
typedef struct tracerd_fxt_large_blob {
    uint64_t offset;
    uint32_t provider_id;
    tracerd_fxt_large_blob_format_t format;
    tracerd_str_t category;
    tracerd_str_t name;
    /* Format 0 only (zero for format 1): */
    uint64_t ticks;
    uint64_t ns;
    tracerd_fxt_thread_t thread;
    uint32_t nargs;
    const tracerd_fxt_arg_t *args;
    uint64_t size; /**< payload bytes */
    /** The whole payload when the record fits the stitch bound (a view into
     * the caller's chunk, or into the stitch buffer if it straddled chunks).
     * When the record is larger, payload.data is NULL and the payload follows
     * in on_large_blob_fragment calls (zero-copy pieces of the caller's
     * chunks, field TRACERD_FXT_FIELD_LARGE_BLOB). */
    tracerd_bytes_t payload;
} tracerd_fxt_large_blob_t;

/** A type this reader does not know; the record (or argument) is skipped by its size. */
typedef struct tracerd_fxt_unknown {
    uint64_t offset; /**< absolute offset of the record (of the argument for ARGUMENT) */
    tracerd_fxt_unknown_kind_t kind;
    uint32_t type;   /**< the unknown type value */
    uint64_t header; /**< the record's (argument's) header word */
    uint64_t size;   /**< bytes of the record (argument), header included */
    /** The whole record (argument) bytes, or data NULL for a large record
     * above the stitch bound. Borrowed. */
    tracerd_bytes_t raw;
} tracerd_fxt_unknown_t;

typedef int (*tracerd_fxt_metadata_cb)(void *user, const tracerd_fxt_metadata_t *m);
typedef int (*tracerd_fxt_init_cb)(void *user, const tracerd_fxt_init_t *i);
typedef int (*tracerd_fxt_string_cb)(void *user, const tracerd_fxt_string_t *s);
typedef int (*tracerd_fxt_thread_cb)(void *user, const tracerd_fxt_thread_rec_t *t);
typedef int (*tracerd_fxt_event_cb)(void *user, const tracerd_fxt_event_t *e);
typedef int (*tracerd_fxt_blob_cb)(void *user, const tracerd_fxt_blob_t *b);
typedef int (*tracerd_fxt_userspace_object_cb)(void *user, const tracerd_fxt_userspace_object_t *o);
typedef int (*tracerd_fxt_kernel_object_cb)(void *user, const tracerd_fxt_kernel_object_t *o);
typedef int (*tracerd_fxt_scheduling_cb)(void *user, const tracerd_fxt_scheduling_t *s);
typedef int (*tracerd_fxt_log_cb)(void *user, const tracerd_fxt_log_t *l);
typedef int (*tracerd_fxt_large_blob_cb)(void *user, const tracerd_fxt_large_blob_t *b);
typedef int (*tracerd_fxt_unknown_cb)(void *user, const tracerd_fxt_unknown_t *u);

/**
 * Callbacks; any may be NULL ("not interested"). Zero the struct, then set.
 * Every callback gets the user pointer first and a borrowed pointer to a
 * record struct valid until it returns; it returns TRACERD_CB_CONTINUE,
 * TRACERD_CB_PAUSE or a negative value (abort, TRACERD_E_CALLBACK). The
 * reader validates every record the same way whether its callback is set or
 * not, so the callbacks chosen never change what is an error.
 */
typedef struct tracerd_fxt_callbacks {
    tracerd_fxt_metadata_cb on_metadata;
    tracerd_fxt_init_cb on_init;
    tracerd_fxt_string_cb on_string;
    tracerd_fxt_thread_cb on_thread;
    tracerd_fxt_event_cb on_event;
    tracerd_fxt_blob_cb on_blob;
    tracerd_fxt_userspace_object_cb on_userspace_object;
    tracerd_fxt_kernel_object_cb on_kernel_object;
    tracerd_fxt_scheduling_cb on_scheduling;
    tracerd_fxt_log_cb on_log;
    tracerd_fxt_large_blob_cb on_large_blob;
    tracerd_span_cb
        on_large_blob_fragment;        /**< pieces of large blob payloads above the stitch bound */
    tracerd_fxt_unknown_cb on_unknown; /**< unknown types, skipped by size */
    tracerd_warning_cb on_warning;     /**< lenient skips */
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** Called (when set) for each event record before its arguments and the
     * words after them are decoded, to leave records out cheaply (a
     * filter): the event has its offset, provider, type, times, thread,
     * category, name and references; nargs is as written but args is NULL,
     * id, end_ticks and end_ns are 0. Return TRACERD_CB_CONTINUE to decode
     * the record and call on_event, TRACERD_FXT_SKIP (or any positive
     * value: it does not pause) to leave it out (on_event is not called;
     * its arguments are neither decoded nor checked, so an error inside them
     * is not reported), a negative value to abort as any callback. Called
     * once per record. */
    tracerd_fxt_event_cb on_event_head;
} tracerd_fxt_callbacks_t;

/** on_event_head: leave this event record out. */
#define TRACERD_FXT_SKIP 1

/** Sets every callback to NULL (not interested), the starting point before
 * setting the ones wanted (STYLE.md B.16: every callbacks struct has one). */
TRACERD_API void tracerd_fxt_callbacks_init_sized(tracerd_fxt_callbacks_t *cbs, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_fxt_callbacks_init_sized, which writes no more than that.) */
static inline void tracerd_fxt_callbacks_init(tracerd_fxt_callbacks_t *cbs)
{
    tracerd_fxt_callbacks_init_sized(cbs, sizeof *cbs);
}

/** Reader options. Initialise with tracerd_fxt_config_init. */
typedef struct tracerd_fxt_config {
    /** AUTO (default): the byte order of the magic record (either order on
     * any host; a later magic record in the other order switches). LITTLE or
     * BIG: forced; a magic record in the other order is E_MAGIC. */
    tracerd_byte_order_t byte_order;
    /** With AUTO, the byte order of an archive that does not start with a
     * magic record (default LITTLE, as every known writer). */
    tracerd_byte_order_t assume_byte_order;
    /** Reassembly bound: records up to this size that straddle chunks are
     * stitched; larger large-blob payloads arrive in fragments (default and
     * minimum TRACERD_FXT_STITCH_MIN, at most 64 MiB). */
    size_t stitch_bytes;
    /** Largest large record (32-bit word count) accepted before E_LIMIT
     * (default 1 GiB). Nothing is allocated for it: payloads stream. */
    uint64_t max_large_record_bytes;
    /** Providers (distinct provider ids, plus the implicit provider 0)
     * before E_LIMIT (default 64, at most 65536). */
    uint32_t max_providers;
    /** Bytes of string copies kept for all providers' string tables (peak,
     * growth copies included) before E_LIMIT (default 64 MiB). */
    size_t max_string_bytes;
    /** Lenient: a malformed record (bad size, field past its end, bad
     * reference, bad value, over-limit large record, truncated tail) is
     * reported to on_warning and skipped by its size; a record with size 0
     * skips one word (default false: stop with the error). Risk: the skipped
     * record is lost and later records may lack a string it registered. */
    bool lenient;
    /** A string or thread index not registered in the current provider is
     * looked up in the implicit provider 0's table before being an error
     * (what readers with one global table do; default false: per-provider
     * tables as the spec says). */
    bool fallback_to_provider0;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** No arguments (for clients that read none: counts, times, names):
     * every record is delivered with nargs as written and args NULL. The
     * arguments are checked all the same (the same errors and warnings,
     * unknown types included: what is an error does not change); event
     * records skip their decoding on the hot path. Default false. */
    bool no_args;
} tracerd_fxt_config_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_fxt_config_init_sized(tracerd_fxt_config_t *cfg, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_fxt_config_init_sized, which writes no more than that.) */
static inline void tracerd_fxt_config_init(tracerd_fxt_config_t *cfg)
{
    tracerd_fxt_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Creates a reader.
 * @param cfg   options (NULL: defaults); copied.
 * @param cbs   callbacks (NULL: none, a validator); copied.
 * @param user  passed to every callback.
 * @param alloc allocator (NULL: libc); must outlive the reader.
 * @param out   receives the reader; NULL on failure.
 * @return TRACERD_OK, TRACERD_E_INVALID (bad option), TRACERD_E_NOMEM.
 * The stitch buffer and the provider directory are allocated here; per
 * provider state and string copies are allocated when a provider (or its
 * first strings) appears, within tracerd_fxt_memory_bound.
 */
TRACERD_API tracerd_status_t tracerd_fxt_new(const tracerd_fxt_config_t *cfg,
                                             const tracerd_fxt_callbacks_t *cbs, void *user,
                                             const tracerd_allocator_t *alloc,
                                             tracerd_fxt_reader_t **out);

/**
 * Feeds the next bytes. Records wholly inside `data` are decoded in place;
 * a record straddling chunks is reassembled internally (large blob payloads
 * above the stitch bound are delivered in fragments instead).
 * @param consumed receives how many bytes were used: len on TRACERD_OK; the
 *        position right after the record (or fragment) whose callback paused
 *        on TRACERD_PAUSED (call _resume, then feed the rest); the error
 *        point on an error. A pause asked by the record that ends the chunk
 *        is reported as TRACERD_PAUSED too, with *consumed == len (core.h).
 * @return TRACERD_OK, TRACERD_PAUSED, or an error (sticky until _reset).
 * Not callable from a callback (TRACERD_E_INVALID).
 */
TRACERD_API tracerd_status_t tracerd_fxt_feed(tracerd_fxt_reader_t *r, const void *data, size_t len,
                                              size_t *consumed);
/** Clears a pause; then feed the unconsumed bytes. TRACERD_E_INVALID if not paused. */
TRACERD_API tracerd_status_t tracerd_fxt_resume(tracerd_fxt_reader_t *r);
/**
 * Declares the end of input: TRACERD_E_TRUNCATED if the input ended inside a
 * record (lenient: a warning, then TRACERD_OK). May return TRACERD_PAUSED
 * when the warning callback pauses (resume, then call again).
 */
TRACERD_API tracerd_status_t tracerd_fxt_finish(tracerd_fxt_reader_t *r);
/** This reader's entry points as a tracerd_reader_ops_t (core.h); a static table.
 * Its new_reader takes a tracerd_fxt_config_t and a tracerd_fxt_callbacks_t. */
TRACERD_API const tracerd_reader_ops_t *tracerd_fxt_ops(void);
/** Returns the reader to its state after _new (options and callbacks kept; tables freed). */
TRACERD_API void tracerd_fxt_reset(tracerd_fxt_reader_t *r);
/** Frees the reader and everything it owns. NULL is allowed. */
TRACERD_API void tracerd_fxt_free(tracerd_fxt_reader_t *r);

/** Absolute offset of the next byte the reader expects. Callable from callbacks. */
TRACERD_API uint64_t tracerd_fxt_offset(const tracerd_fxt_reader_t *r);
/** Absolute offset of the record being delivered, or of the record at fault after an error. */
TRACERD_API uint64_t tracerd_fxt_record_offset(const tracerd_fxt_reader_t *r);
/** NUL-terminated reason of the last error ("" if none); owned by the reader until _reset/_free. */
TRACERD_API const char *tracerd_fxt_error_reason(const tracerd_fxt_reader_t *r);
/** The negative value a callback returned, after TRACERD_E_CALLBACK. */
TRACERD_API int tracerd_fxt_callback_error(const tracerd_fxt_reader_t *r);
/** Byte order in use: LITTLE or BIG once the first record was seen, else AUTO. Callable from
 * callbacks. */
TRACERD_API tracerd_byte_order_t tracerd_fxt_byte_order(const tracerd_fxt_reader_t *r);
/** Upper bound of the memory a reader with these options allocates, in bytes (NULL: defaults). */
TRACERD_API size_t tracerd_fxt_memory_bound(const tracerd_fxt_config_t *cfg);

/** Name of a record type ("event", ...; "unknown" otherwise). Static string. */
TRACERD_API const char *tracerd_fxt_record_type_name(uint32_t type);
/** Name of an event type ("duration-begin", ...; "unknown" otherwise). Static string. */
TRACERD_API const char *tracerd_fxt_event_type_name(uint32_t type);
/** Name of an argument type ("int32", ...; "unknown" otherwise). Static string. */
TRACERD_API const char *tracerd_fxt_arg_type_name(uint32_t type);

#ifdef __cplusplus
}
#endif
#endif /* TRACERD_FXT_H */
