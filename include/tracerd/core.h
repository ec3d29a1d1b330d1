/**
 * @file core.h
 * Common definitions shared by every tracerd reader: version, export macro,
 * status codes, callback return convention, allocator hooks, byte/string
 * views, payload fragments (spans) and warnings.
 *
 * Every reader follows one contract (see doc/api.md):
 *   tracerd_<fmt>_config_init / _new / _feed / _resume / _finish / _reset /
 *   _free, and the accessors _offset / _record_offset / _error_reason /
 *   _callback_error.
 */
#ifndef TRACERD_CORE_H
#define TRACERD_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRACERD_VERSION_MAJOR 0
#define TRACERD_VERSION_MINOR 2
#define TRACERD_VERSION_PATCH 0
#define TRACERD_VERSION_NUMBER                                                                     \
    (TRACERD_VERSION_MAJOR * 10000 + TRACERD_VERSION_MINOR * 100 + TRACERD_VERSION_PATCH)

#if defined(_WIN32) && defined(TRACERD_DLL)
#define TRACERD_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define TRACERD_API __attribute__((visibility("default")))
#else
#define TRACERD_API
#endif

/** Version number of the library actually linked (compare with TRACERD_VERSION_NUMBER). */
TRACERD_API unsigned tracerd_version_number(void);
/** Version of the linked library as "MAJOR.MINOR.PATCH"; a static string. */
TRACERD_API const char *tracerd_version_string(void);

/**
 * Status codes. Values are pinned and part of the ABI: new codes are only
 * ever appended. Negative values are errors; once a reader returns an error
 * it is sticky (every later feed/finish returns it) until _reset.
 */
#define TRACERD_STATUS_LIST(X)                                                                     \
    X(OK, 0, "success")                                                                            \
    X(PAUSED, 1, "paused by a callback; call resume, then feed the rest")                          \
    X(E_INVALID, -1, "invalid argument or call sequence")                                          \
    X(E_NOMEM, -2, "memory allocation failed")                                                     \
    X(E_TRUNCATED, -3, "input ended inside a record")                                              \
    X(E_BAD_TOKEN, -4, "byte is not a valid token or record type")                                 \
    X(E_LIMIT, -5, "a length in the input exceeds a configured limit")                             \
    X(E_LAYOUT, -6, "no record layout is consistent with the data")                                \
    X(E_AMBIGUOUS, -7, "several record layouts fit; configure one")                                \
    X(E_CALLBACK, -8, "a callback returned an error")                                              \
    X(E_VERSION, -9, "unsupported format version or type")                                         \
    X(E_BAD_RECORD, -10, "a record or field holds an invalid value")                               \
    X(E_ORDER, -11, "records appear in an order the format does not allow")                        \
    X(E_EXTENT, -12, "a record runs past the buffer, packet or record that contains it")           \
    X(E_REFERENCE, -13, "a reference to something never defined (string, thread, id, type)")       \
    X(E_METADATA, -14, "metadata syntax or semantic error")                                        \
    X(E_MAGIC, -15, "bad magic number or identifier")                                              \
    X(E_IO, -16, "input/output error")                                                             \
    X(E_UNSUPPORTED, -17, "a valid feature this reader does not support")

/** Status of a tracerd call; see TRACERD_STATUS_LIST. */
typedef enum tracerd_status {
#define TRACERD_STATUS_ENUM_(name, value, text) TRACERD_##name = (value),
    TRACERD_STATUS_LIST(TRACERD_STATUS_ENUM_)
#undef TRACERD_STATUS_ENUM_
} tracerd_status_t;

/** Short name of a status ("E_LIMIT"); "UNKNOWN" for a value not in the list. Static string. */
TRACERD_API const char *tracerd_status_name(tracerd_status_t s);
/** One-line English description of a status. Static string. */
TRACERD_API const char *tracerd_status_message(tracerd_status_t s);

/**
 * Callback return values, the same for every callback of every reader:
 * - 0 (TRACERD_CB_CONTINUE) goes on;
 * - any positive value (TRACERD_CB_PAUSE is the one to use) pauses: the
 *   record is delivered whole, then _feed (or _finish) returns TRACERD_PAUSED
 *   at once, also when that record ended the chunk (then *consumed == len);
 *   call _resume, then feed the bytes not consumed (none: the next chunk);
 * - any negative value stops: _feed returns TRACERD_E_CALLBACK (sticky) and
 *   tracerd_<fmt>_callback_error() returns the value.
 */
#define TRACERD_CB_CONTINUE 0 /**< keep going */
#define TRACERD_CB_PAUSE 1    /**< feed() returns TRACERD_PAUSED right after this record */

/**
 * Allocator hooks. A NULL allocator pointer (or NULL alloc/free members)
 * means libc malloc/free. `free` receives the size that was allocated, so
 * arenas and pools work. The allocator must outlive every object made with it.
 */
typedef struct tracerd_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} tracerd_allocator_t;

/** Byte order of a trace: AUTO detects it from the data (per-format rules). */
typedef enum tracerd_byte_order {
    TRACERD_BYTE_ORDER_AUTO = 0,
    TRACERD_BYTE_ORDER_LITTLE = 1,
    TRACERD_BYTE_ORDER_BIG = 2
} tracerd_byte_order_t;

/** Name of a byte order: "auto", "little" or "big". Static string. */
TRACERD_API const char *tracerd_byte_order_name(tracerd_byte_order_t order);

/** A borrowed view of bytes (binary payloads). Not NUL-terminated. */
typedef struct tracerd_bytes {
    const uint8_t *data;
    size_t len;
} tracerd_bytes_t;

/** A borrowed view of text (names, messages). Not NUL-terminated. */
typedef struct tracerd_str {
    const char *data;
    size_t len;
} tracerd_str_t;

/**
 * A fragment of a payload too large to reassemble (larger than the reader's
 * stitch bound). Fragments of one payload arrive in order: the first has
 * offset == 0, the last has offset + len == total. `data` is borrowed and
 * valid until the callback returns.
 */
typedef struct tracerd_span {
    uint32_t field;         /**< which payload: a TRACERD_<FMT>_FIELD_* value of the reader */
    uint32_t index;         /**< register number, iovec index, ...; 0 when not meaningful */
    uint64_t record_offset; /**< absolute offset of the record the payload belongs to */
    uint64_t offset;        /**< offset of data[0] within the whole payload */
    uint64_t total;         /**< length of the whole payload */
    const uint8_t *data;    /**< borrowed */
    size_t len;
} tracerd_span_t;

/**
 * A problem a lenient reader recovered from (a skipped buffer, packet or
 * record), or a notice about unknown-but-skippable content.
 *
 * Warnings of the same kind at consecutive positions (each starts where the
 * previous one's skipped bytes end, same status, same reason but for its
 * numbers) come as one warning with a count: `offset` and `reason` are the
 * first one's, `skipped_bytes` the sum, `count` how many. The run is
 * delivered when it ends (a warning that does not continue it, the next
 * record, or _finish), the same way for every split of the input.
 */
typedef struct tracerd_warning {
    tracerd_status_t status; /**< what the error would have been in strict mode */
    uint64_t offset;         /**< absolute offset of the (first) record or buffer concerned */
    uint64_t skipped_bytes;  /**< bytes skipped to resynchronise (0 if none) */
    const char *reason;      /**< NUL-terminated; borrowed, valid until the callback returns */
    /** sizeof(tracerd_warning_t) in the library that made it. The struct
     * had only the members above in the first 0.2 libraries: read this one
     * and the ones after it through TRACERD_WARNING_HAS (doc/api.md §7). */
    size_t size;
    /** How many warnings this one stands for (1: a single one). */
    uint64_t count;
} tracerd_warning_t;

/** sizeof(tracerd_warning_t) in the library linked. A program that calls it
 * (TRACERD_WARNING_HAS does) cannot load a library older than `size` and
 * `count`, so it never reads past a shorter struct. */
TRACERD_API size_t tracerd_warning_size(void);

/** Whether warning w has member m (`size`, `count` or a later one). */
#define TRACERD_WARNING_HAS(w, m)                                                                  \
    ((void)(w), tracerd_warning_size() >= offsetof(tracerd_warning_t, m) + sizeof((w)->m))

/** Callback for warnings. Same return convention as every callback. */
typedef int (*tracerd_warning_cb)(void *user, const tracerd_warning_t *warning);

/** Callback for payload fragments. */
typedef int (*tracerd_span_cb)(void *user, const tracerd_span_t *span);

/** Default bound of a reader's reassembly ("stitch") buffer, in bytes. */
#define TRACERD_STITCH_DEFAULT 4096u
/** Smallest accepted stitch bound. */
#define TRACERD_STITCH_MIN 64u

/**
 * The reader contract as a table of function pointers, so that code driving
 * any reader (a pump loop, a test driver, a fuzz target, the CLI) is written
 * once. Each reader exports its table: tracerd_xray_ops(), tracerd_fxt_ops(),
 * tracerd_xtrace_insn_ops(), tracerd_xtrace_snap_ops(), tracerd_ctf_stream_ops(),
 * tracerd_auto_ops().
 * `reader` is the typed reader behind void *; `new_reader` (NULL for a
 * reader made another way: tracerd_ctf_stream_ops()) takes that
 * reader's own config and callbacks structs (NULL config: the defaults).
 * `size` is sizeof(tracerd_reader_ops_t) of the library that made the table:
 * members are only ever appended, so check it before using one added later.
 */
typedef struct tracerd_reader_ops {
    size_t size;
    const char *name; /**< "xray", "fxt", "xtrace-insn", ... */
    tracerd_status_t (*new_reader)(const void *config, const void *callbacks, void *user,
                                   const tracerd_allocator_t *alloc, void **reader);
    tracerd_status_t (*feed)(void *reader, const void *data, size_t len, size_t *consumed);
    tracerd_status_t (*resume)(void *reader);
    tracerd_status_t (*finish)(void *reader);
    void (*reset)(void *reader);
    void (*free)(void *reader);
    uint64_t (*offset)(const void *reader);
    uint64_t (*record_offset)(const void *reader);
    const char *(*error_reason)(const void *reader);
    int (*callback_error)(const void *reader);
} tracerd_reader_ops_t;

/**
 * Converts ticks of a clock running at freq_hz to nanoseconds, exactly
 * (128-bit intermediate), saturating at UINT64_MAX. freq_hz == 0 returns 0.
 */
TRACERD_API uint64_t tracerd_ticks_to_ns(uint64_t ticks, uint64_t freq_hz);

#ifdef __cplusplus
}
#endif
#endif /* TRACERD_CORE_H */
