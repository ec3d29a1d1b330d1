/**
 * @file event.h
 * The format-neutral event view: one event struct for every trace format,
 * an auto reader that detects the format from the first bytes and delivers
 * events, and XRay function-name resolution from the instrumented binary.
 *
 * The auto reader follows the reader contract of every tracerd reader
 * (doc/api.md): tracerd_auto_config_init / _new / _feed / _resume / _finish /
 * _reset / _free and the accessors _offset / _record_offset / _error_reason /
 * _callback_error. It wraps the format's own typed reader and maps each
 * typed record onto tracerd_event_t (libtracerd/event/map_<fmt>.c); see
 * doc/api.md, "The event view", for the mapping of each format.
 */
#ifndef TRACERD_EVENT_H
#define TRACERD_EVENT_H

#include <tracerd/core.h>
#include <tracerd/ctf.h>
#include <tracerd/fxt.h>
#include <tracerd/xray.h>
#include <tracerd/xtrace.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Trace formats known to the event view. Values are ABI. */
typedef enum tracerd_event_format {
    TRACERD_EVENT_FORMAT_UNKNOWN = 0, /**< not detected yet, or detect (in a config) */
    TRACERD_EVENT_FORMAT_XRAY = 1,
    TRACERD_EVENT_FORMAT_FXT = 2,
    TRACERD_EVENT_FORMAT_CTF = 3,
    TRACERD_EVENT_FORMAT_XTRACE = 4
} tracerd_event_format_t;

/** What an event means on a timeline. Values are ABI. */
typedef enum tracerd_event_kind {
    TRACERD_EVENT_SPAN_BEGIN = 1, /**< a synchronous span opens on (pid, tid) */
    TRACERD_EVENT_SPAN_END = 2,   /**< the innermost open span of (pid, tid) closes */
    TRACERD_EVENT_SPAN_COMPLETE =
        3,                     /**< a whole span: starts at ticks/ns, ends at end_ticks/end_ns */
    TRACERD_EVENT_INSTANT = 4, /**< a point in time */
    TRACERD_EVENT_COUNTER = 5, /**< numeric arguments are counter values; id names the series */
    TRACERD_EVENT_ASYNC_BEGIN = 6,     /**< async span `id` begins */
    TRACERD_EVENT_ASYNC_STEP = 7,      /**< async span `id` reaches a step */
    TRACERD_EVENT_ASYNC_END = 8,       /**< async span `id` ends */
    TRACERD_EVENT_FLOW_BEGIN = 9,      /**< flow `id` starts in the enclosing span */
    TRACERD_EVENT_FLOW_STEP = 10,      /**< flow `id` passes through the enclosing span */
    TRACERD_EVENT_FLOW_END = 11,       /**< flow `id` ends in the enclosing span */
    TRACERD_EVENT_LOG = 12,            /**< a log message (`message`, `level`) */
    TRACERD_EVENT_CONTEXT_SWITCH = 13, /**< on `cpu`, tid (outgoing) gives way to other_tid */
    TRACERD_EVENT_WAKEUP = 14,         /**< other_tid (in other_pid) is woken on `cpu` */
    TRACERD_EVENT_PROCESS_NAME = 15,   /**< `name` is the name of process pid */
    TRACERD_EVENT_THREAD_NAME = 16,    /**< `name` is the name of thread (pid, tid) */
    TRACERD_EVENT_BLOB = 17,           /**< an opaque payload (argument "data") */
    TRACERD_EVENT_MARK = 18            /**< a format record with no timeline meaning kept for
                                            completeness (e.g. a clock or metadata marker) */
} tracerd_event_kind_t;

/** Type of an argument value. Values are ABI. */
typedef enum tracerd_event_arg_type {
    TRACERD_EVENT_ARG_NULL = 0,
    TRACERD_EVENT_ARG_INT = 1,     /**< v.i */
    TRACERD_EVENT_ARG_UINT = 2,    /**< v.u */
    TRACERD_EVENT_ARG_DOUBLE = 3,  /**< v.d */
    TRACERD_EVENT_ARG_BOOL = 4,    /**< v.b */
    TRACERD_EVENT_ARG_STRING = 5,  /**< v.str (borrowed) */
    TRACERD_EVENT_ARG_POINTER = 6, /**< v.u: an address */
    TRACERD_EVENT_ARG_KOID = 7,    /**< v.u: a kernel object id (FXT) */
    TRACERD_EVENT_ARG_BYTES = 8    /**< v.bytes (borrowed) */
} tracerd_event_arg_type_t;

/** One typed argument. Every view is borrowed: valid until the callback returns. */
typedef struct tracerd_event_arg {
    tracerd_str_t name;
    tracerd_event_arg_type_t type;
    union {
        int64_t i;
        uint64_t u;
        double d;
        bool b;
        tracerd_str_t str;
        tracerd_bytes_t bytes;
    } v;
} tracerd_event_arg_t;

/** Event flags. */
#define TRACERD_EVENT_HAS_NS 0x1u       /**< ns / end_ns are valid (the trace gives a clock rate) */
#define TRACERD_EVENT_HAS_PID 0x2u      /**< pid is known */
#define TRACERD_EVENT_HAS_TID 0x4u      /**< tid is known */
#define TRACERD_EVENT_HAS_CPU 0x8u      /**< cpu is known */
#define TRACERD_EVENT_HAS_ID 0x10u      /**< id is meaningful (async, flow, counter) */
#define TRACERD_EVENT_HAS_NAME_ID 0x20u /**< name_id is meaningful (XRay function id) */
#define TRACERD_EVENT_TAIL 0x40u        /**< SPAN_END from a tail call exit (XRay) */
#define TRACERD_EVENT_TRUNCATED                                                                    \
    0x80u                            /**< a payload argument was too large, or args were left out */
#define TRACERD_EVENT_NO_TIME 0x100u /**< the record has no timestamp (ticks and ns are 0) */

/**
 * One event of any format. Built on the reader's stack for each callback;
 * every view (category, name, message, args and their strings) is borrowed
 * and valid until the callback returns: copy what you keep.
 */
typedef struct tracerd_event {
    uint64_t offset; /**< absolute stream offset of the source record */
    tracerd_event_format_t format;
    tracerd_event_kind_t kind;
    uint32_t flags;         /**< TRACERD_EVENT_HAS_* and friends */
    uint64_t ticks;         /**< time in the trace's own clock ticks (absolute) */
    uint64_t ns;            /**< time in nanoseconds (when HAS_NS) */
    uint64_t end_ticks;     /**< SPAN_COMPLETE: end time in ticks */
    uint64_t end_ns;        /**< SPAN_COMPLETE: end time in ns (when HAS_NS) */
    uint64_t pid;           /**< process (FXT koid, XRay pid) when HAS_PID */
    uint64_t tid;           /**< thread when HAS_TID */
    uint32_t cpu;           /**< when HAS_CPU */
    int32_t level;          /**< LOG: severity (format's scale); CONTEXT_SWITCH: outgoing state */
    uint64_t id;            /**< async/flow correlation id, counter series id (HAS_ID) */
    uint64_t name_id;       /**< format's numeric name (XRay function id) (HAS_NAME_ID) */
    uint64_t other_pid;     /**< CONTEXT_SWITCH: incoming process; WAKEUP: woken process */
    uint64_t other_tid;     /**< CONTEXT_SWITCH: incoming thread; WAKEUP: woken thread */
    tracerd_str_t category; /**< borrowed; may be empty */
    tracerd_str_t name;     /**< borrowed; never empty for spans, instants and counters */
    tracerd_str_t message;  /**< LOG: the text; borrowed */
    const tracerd_event_arg_t *args; /**< borrowed array of nargs arguments */
    uint32_t nargs;
} tracerd_event_t;

/** What the auto reader detected, reported once before the first event. */
typedef struct tracerd_event_source {
    tracerd_event_format_t format;
    const char *format_name; /**< "xray", "fxt", "ctf", "xtrace"; static */
    uint32_t version;        /**< format version as written (0 when the format has none) */
    tracerd_byte_order_t byte_order;
    uint64_t ticks_per_second; /**< 0 when the trace gives no clock rate */
    int score;                 /**< detection confidence 0..100; 100 when forced */
} tracerd_event_source_t;

typedef int (*tracerd_event_cb)(void *user, const tracerd_event_t *ev);
typedef int (*tracerd_event_source_cb)(void *user, const tracerd_event_source_t *src);

/** Callbacks of the auto reader; any may be NULL. Same return convention as every reader. */
typedef struct tracerd_event_callbacks {
    tracerd_event_cb on_event;
    tracerd_event_source_cb on_source; /**< once, when the format header has been read */
    tracerd_warning_cb on_warning;     /**< lenient skips of the underlying reader */
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
} tracerd_event_callbacks_t;

/** Sets every callback to NULL (not interested), the starting point before
 * setting the ones wanted (STYLE.md B.16: every callbacks struct has one). */
TRACERD_API void tracerd_event_callbacks_init_sized(tracerd_event_callbacks_t *cbs, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_event_callbacks_init_sized, which writes no more than that.) */
static inline void tracerd_event_callbacks_init(tracerd_event_callbacks_t *cbs)
{
    tracerd_event_callbacks_init_sized(cbs, sizeof *cbs);
}

/** Auto reader options. Initialise with tracerd_auto_config_init. */
typedef struct tracerd_auto_config {
    /** UNKNOWN (default): detect from the first bytes; else force this format. */
    tracerd_event_format_t format;
    /** XRay options (NULL: defaults); copied by _new. */
    const tracerd_xray_config_t *xray;
    /** Options of the other formats' readers (NULL: defaults). Borrowed: each
     * must stay valid while the reader lives (the format's reader is made
     * when the format is detected, and again after _reset). */
    const tracerd_fxt_config_t *fxt;
    const tracerd_ctf_stream_config_t *ctf;
    const tracerd_xtrace_insn_config_t *xtrace;
    /** tracerd_event_dir_open only: the CTF directory reader's options (NULL:
     * defaults, with `ctf` as the stream options when set). Copied. */
    const tracerd_ctf_dir_config_t *ctf_dir;
    /** XRay function names (NULL: names are "fn#<id>"; xray.h). Borrowed: must
     * outlive the reader; may be shared by any number of readers. */
    const tracerd_xray_names_t *xray_names;
    /** Arguments delivered per event at most; more are left out and the event
     * gets TRACERD_EVENT_TRUNCATED (default 64). */
    uint32_t max_args;
    /** Event filter (NULL: every event is delivered). Borrowed and used by
     * this reader only (it resolves relative times against the first event
     * it sees): it must outlive the reader. Rejected events never reach
     * on_event; once an event lies past the filter's end in a time-ordered
     * input (see tracerd_event_filter_match), reading stops early:
     * tracerd_auto_done then returns true. */
    struct tracerd_event_filter *filter;
    /** The trace's file name, or NULL (default). Borrowed, like the configs. An
     * xtrace instruction stream whose name follows xtrace's convention
     * (tracerd_xtrace_parse_filename) gets its thread (or CPU) id from it:
     * every event has tid = that id and TRACERD_EVENT_HAS_TID. */
    const char *source_name;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** No arguments wanted (default false): every event is delivered with
     * nargs = 0, and readers that can skip decoding what only arguments need
     * do (CTF: only the context fields giving the thread and the process, and
     * the address of LTTng-UST function entry/exit events, are decoded; the
     * events lying whole in a chunk stay on the reader's fast path). For
     * clients that use names, times, threads and kinds only (`tracerd stats`). */
    bool no_args;
} tracerd_auto_config_t;

/** Opaque auto reader. */
typedef struct tracerd_auto_reader tracerd_auto_reader_t;

/** Bytes the auto reader buffers before it decides on a format (at most:
 * see TRACERD_AUTO_DETECT_SURE). */
#define TRACERD_AUTO_DETECT_BYTES 64u
/** A tracerd_event_detect score at or above this comes from a magic number
 * (FXT magic record, CTF packet or metadata magic, CTF text signature, an
 * XRay FDR header with its first metadata record) wholly inside the bytes
 * given: more bytes cannot change the answer, so the auto reader decides at
 * once instead of waiting for TRACERD_AUTO_DETECT_BYTES (a live stream's
 * first small record is decoded when it arrives). */
#define TRACERD_AUTO_DETECT_SURE 90

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_auto_config_init_sized(tracerd_auto_config_t *cfg, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_auto_config_init_sized, which writes no more than that.) */
static inline void tracerd_auto_config_init(tracerd_auto_config_t *cfg)
{
    tracerd_auto_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Creates an auto reader.
 * @param cfg   options (NULL: defaults); copied (the names table stays borrowed).
 * @param cbs   callbacks (NULL: none); copied.
 * @param user  passed to every callback.
 * @param alloc allocator (NULL: libc); must outlive the reader.
 * @param out   receives the reader; NULL on failure.
 * @return TRACERD_OK, TRACERD_E_INVALID, TRACERD_E_NOMEM.
 * The format's own reader is created when the format is known (when the
 * bytes fed so far score TRACERD_AUTO_DETECT_SURE, else once
 * TRACERD_AUTO_DETECT_BYTES bytes have been fed in total, or _finish), so a
 * later E_NOMEM can come from _feed or _finish.
 */
TRACERD_API tracerd_status_t tracerd_auto_new(const tracerd_auto_config_t *cfg,
                                              const tracerd_event_callbacks_t *cbs, void *user,
                                              const tracerd_allocator_t *alloc,
                                              tracerd_auto_reader_t **out);

/**
 * Gives CTF metadata (the whole text or packetized `metadata` file of a trace
 * directory) before the first feed of a stream file. Implies format CTF.
 * @return TRACERD_OK; TRACERD_E_INVALID after the first feed or when the
 *         format is forced to something else; TRACERD_E_UNSUPPORTED when
 *         this build has no CTF event mapping; the CTF reader's errors.
 * `data` is borrowed for the call only.
 */
TRACERD_API tracerd_status_t tracerd_auto_metadata(tracerd_auto_reader_t *r, const void *data,
                                                   size_t len);

/**
 * Feeds the next bytes of the trace. Same contract as every reader's feed:
 * @param consumed bytes used: len on TRACERD_OK; after the record whose
 *        callback paused on TRACERD_PAUSED (call _resume, then feed the
 *        rest); the error point on an error.
 * @return TRACERD_OK, TRACERD_PAUSED, or an error (sticky until _reset):
 *         TRACERD_E_MAGIC when no format matches the first bytes,
 *         TRACERD_E_UNSUPPORTED when the detected format has no event mapping
 *         in this build, or any error of the format's reader.
 * The first bytes (up to TRACERD_AUTO_DETECT_BYTES) are copied for detection;
 * after that, events are views into `data` as the format's reader gives them.
 * Not callable from a callback (TRACERD_E_INVALID).
 */
TRACERD_API tracerd_status_t tracerd_auto_feed(tracerd_auto_reader_t *r, const void *data,
                                               size_t len, size_t *consumed);
/** Clears a pause; then feed the unconsumed bytes (or call _finish again). */
TRACERD_API tracerd_status_t tracerd_auto_resume(tracerd_auto_reader_t *r);
/**
 * End of input: detects the format of a short input, delivers pending events
 * and fails with the format reader's E_TRUNCATED if the input ended inside a
 * record. An empty input is TRACERD_E_TRUNCATED. May return TRACERD_PAUSED
 * (resume, then call _finish again).
 */
TRACERD_API tracerd_status_t tracerd_auto_finish(tracerd_auto_reader_t *r);
/** Back to the state after _new: the format is detected again. */
TRACERD_API void tracerd_auto_reset(tracerd_auto_reader_t *r);
/** Frees the reader and the format reader it owns. NULL is allowed. */
TRACERD_API void tracerd_auto_free(tracerd_auto_reader_t *r);

/** Absolute offset of the next byte expected. Callable from callbacks. */
TRACERD_API uint64_t tracerd_auto_offset(const tracerd_auto_reader_t *r);
/** Absolute offset of the record being delivered, or at fault after an error. */
TRACERD_API uint64_t tracerd_auto_record_offset(const tracerd_auto_reader_t *r);
/** NUL-terminated reason of the last error ("" if none); owned by the reader until _reset/_free. */
TRACERD_API const char *tracerd_auto_error_reason(const tracerd_auto_reader_t *r);
/** The negative value a callback returned, after TRACERD_E_CALLBACK. */
TRACERD_API int tracerd_auto_callback_error(const tracerd_auto_reader_t *r);
/** The auto reader's entry points as a tracerd_reader_ops_t (core.h); a static table.
 * Its new_reader takes a tracerd_auto_config_t and a tracerd_event_callbacks_t. */
TRACERD_API const tracerd_reader_ops_t *tracerd_auto_ops(void);
/** The detected (or forced) format; UNKNOWN before detection. Callable from callbacks. */
TRACERD_API tracerd_event_format_t tracerd_auto_format(const tracerd_auto_reader_t *r);
/**
 * True once the config's filter ended the reading early (an event past the
 * filter's end in a time-ordered input): every later _feed takes all its
 * bytes and delivers nothing, and _finish returns TRACERD_OK, so a client
 * may stop reading its input. Callable from callbacks.
 */
TRACERD_API bool tracerd_auto_done(const tracerd_auto_reader_t *r);
/** Upper bound of the memory an auto reader with these options allocates (all formats). */
TRACERD_API size_t tracerd_auto_memory_bound(const tracerd_auto_config_t *cfg);

/**
 * Detects a format from the first bytes of a trace (TRACERD_AUTO_DETECT_BYTES
 * are enough; fewer give a less sure answer), by content only.
 * @param score receives the confidence 0..100 (may be NULL); 0 = no match.
 * @return the most likely format, or TRACERD_EVENT_FORMAT_UNKNOWN.
 * CTF metadata (text "/" "* CTF" or packet magic 0x75D11D57) and CTF
 * packets (magic 0xC1FC1FC1) are both reported as CTF.
 */
TRACERD_API tracerd_event_format_t tracerd_event_detect(const void *head, size_t len, int *score);

/** True when this build maps `format` onto events. */
TRACERD_API bool tracerd_event_format_supported(tracerd_event_format_t format);
/** "xray", "fxt", "ctf", "xtrace" or "unknown". Static string. */
TRACERD_API const char *tracerd_event_format_name(tracerd_event_format_t format);
/** Format by name ("xray", ...); UNKNOWN for anything else. */
TRACERD_API tracerd_event_format_t tracerd_event_format_from_name(const char *name);
/** "span-begin", "span-end", "complete", "instant", "counter", ... Static string. */
TRACERD_API const char *tracerd_event_kind_name(tracerd_event_kind_t kind);

/* ---- event filters ---------------------------------------------------------- */

/**
 * An event filter: a time range, event names and categories (exact or glob),
 * process ids, thread ids and CPUs. An event passes when it passes every kind
 * of test that has values (kinds are ANDed; the values of one kind are ORed).
 * Give one to an auto reader (tracerd_auto_config_t.filter) or call
 * tracerd_event_filter_match yourself. See doc/api.md, "Filters".
 */
typedef struct tracerd_event_filter tracerd_event_filter_t;

/** What tracerd_event_filter_add_pattern and _add_id test. Values are ABI. */
typedef enum tracerd_event_filter_field {
    TRACERD_EVENT_FILTER_NAME = 1,     /**< pattern on the event's name */
    TRACERD_EVENT_FILTER_CATEGORY = 2, /**< pattern on the event's category */
    TRACERD_EVENT_FILTER_PID = 3,      /**< id: the process (events without one fail) */
    TRACERD_EVENT_FILTER_TID = 4,      /**< id: the thread (events without one fail) */
    TRACERD_EVENT_FILTER_CPU = 5       /**< id: the CPU (events without one fail) */
} tracerd_event_filter_field_t;

/** Results of tracerd_event_filter_match. */
#define TRACERD_EVENT_FILTER_REJECT 0   /**< the event fails a test */
#define TRACERD_EVENT_FILTER_PASS 1     /**< the event passes every test */
#define TRACERD_EVENT_FILTER_PAST_END 2 /**< rejected: it starts after the range's end */

/** Patterns per field and ids per field a filter holds at most. */
#define TRACERD_EVENT_FILTER_MAX_VALUES 256u
/** No end (tracerd_event_filter_set_end). */
#define TRACERD_EVENT_FILTER_NO_END UINT64_MAX

/**
 * Creates an empty filter (everything passes).
 * @return TRACERD_OK, TRACERD_E_INVALID (out NULL), TRACERD_E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_event_filter_new(const tracerd_allocator_t *alloc,
                                                      tracerd_event_filter_t **out);
/** Frees the filter. NULL is allowed. */
TRACERD_API void tracerd_event_filter_free(tracerd_event_filter_t *f);
/** Forgets the trace start that relative times were resolved against (for a new trace). */
TRACERD_API void tracerd_event_filter_reset(tracerd_event_filter_t *f);

/**
 * Parses a time as people type it: digits with an optional fraction and a
 * unit `ns`, `us`, `ms`, `s`, `m` (minutes) or `h` ("1.5s", "200ms",
 * "10us"), optionally after a '+'. A bare integer ("1700000000123456789") is
 * absolute: nanoseconds since the trace clock's origin (the Epoch for most
 * traces); anything with a unit or a '+' is relative to the trace's start
 * (the first event with a time). In traces without a clock rate, event times
 * are ticks and the value counts ticks ("1ms" = 1,000,000 ticks).
 * @param ns       receives the value in nanoseconds (rounded down).
 * @param relative receives whether it is relative to the trace's start.
 * @return TRACERD_OK; TRACERD_E_INVALID for anything else (or on overflow).
 */
TRACERD_API tracerd_status_t tracerd_event_filter_parse_time(const char *text, uint64_t *ns,
                                                             bool *relative);
/** Events before `t` fail (a COMPLETE span fails when it ends before `t`). */
TRACERD_API tracerd_status_t tracerd_event_filter_set_begin(tracerd_event_filter_t *f, uint64_t t,
                                                            bool relative);
/** Events after `t` fail with TRACERD_EVENT_FILTER_PAST_END (NO_END: none). */
TRACERD_API tracerd_status_t tracerd_event_filter_set_end(tracerd_event_filter_t *f, uint64_t t,
                                                          bool relative);
/**
 * Adds a name or category pattern (copied): exact text, or a glob with `*`
 * (any run of bytes), `?` (one byte), `[abc]`, `[a-z]`, `[!a-z]` and `\`
 * (the next byte as is).
 * @return TRACERD_OK; TRACERD_E_INVALID (bad field, NULL, or an unclosed
 *         `[`); TRACERD_E_LIMIT past TRACERD_EVENT_FILTER_MAX_VALUES;
 *         TRACERD_E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_event_filter_add_pattern(tracerd_event_filter_t *f,
                                                              tracerd_event_filter_field_t field,
                                                              const char *pattern);
/** Adds a pid, tid or cpu value. Same returns as _add_pattern. */
TRACERD_API tracerd_status_t tracerd_event_filter_add_id(tracerd_event_filter_t *f,
                                                         tracerd_event_filter_field_t field,
                                                         uint64_t id);
/**
 * Declares that the input delivers events in time order whatever its format,
 * so an auto reader stops at the first event past the end. Without it an
 * auto reader stops early only for formats whose events arrive in time order
 * (CTF streams and directories, xtrace); XRay (per-thread buffers) and FXT
 * (per-provider records) are read to their end.
 */
TRACERD_API void tracerd_event_filter_set_ordered(tracerd_event_filter_t *f, bool ordered);
/** True when set_ordered was given true. */
TRACERD_API bool tracerd_event_filter_ordered(const tracerd_event_filter_t *f);

/**
 * Tests an event. Time is ns when the event has TRACERD_EVENT_HAS_NS, else
 * ticks. The first event with a time fixes the trace start of relative
 * times. Events without a time (TRACERD_EVENT_NO_TIME) pass the time test;
 * PROCESS_NAME and THREAD_NAME events pass the time, name and category tests
 * (they name what other events refer to). A SPAN_END passes the time test
 * when its time is in the range, so a consumer keeping span stacks drops the
 * ends whose begin was filtered out and closes, at the end of the range, the
 * spans still open.
 * @return TRACERD_EVENT_FILTER_PASS, _REJECT or _PAST_END.
 */
TRACERD_API int tracerd_event_filter_match(tracerd_event_filter_t *f, const tracerd_event_t *ev);
/**
 * The range in event time units once resolved (relative bounds need the
 * first timed event): *begin (0 when none) and *end (NO_END when none).
 * @return false while a relative bound is not resolved yet.
 */
TRACERD_API bool tracerd_event_filter_range(const tracerd_event_filter_t *f, uint64_t *begin,
                                            uint64_t *end);
/** True once an event past the range's end was seen (the trace goes on past the cut). */
TRACERD_API bool tracerd_event_filter_cut(const tracerd_event_filter_t *f);
/** True when the filter tests anything at all. */
TRACERD_API bool tracerd_event_filter_active(const tracerd_event_filter_t *f);
/** True when `text` (len bytes) matches the glob `pattern` (NUL-terminated); see _add_pattern. */
TRACERD_API bool tracerd_glob_match(const char *pattern, const void *text, size_t len);

/* ---- CTF trace directories ------------------------------------------------- */

/** Opaque reader of a whole CTF trace directory. */
typedef struct tracerd_event_dir tracerd_event_dir_t;

/**
 * Opens a CTF trace directory (every folder below `path` holding a `metadata`
 * file, every stream file beside it) with the CTF directory reader, whose
 * events of all streams arrive merged in timestamp order.
 * @param cfg   options (NULL: defaults; `ctf_dir` gives the directory
 *              reader's options); copied.
 * @param cbs   callbacks, as for the auto reader; copied.
 * @return TRACERD_OK; TRACERD_E_UNSUPPORTED when this build has no CTF reader;
 *         the CTF reader's errors (E_IO, E_METADATA, E_LIMIT); E_NOMEM.
 *         On failure *out may still be set for the error accessors: free it.
 */
TRACERD_API tracerd_status_t tracerd_event_dir_open(const char *path,
                                                    const tracerd_auto_config_t *cfg,
                                                    const tracerd_event_callbacks_t *cbs,
                                                    void *user, const tracerd_allocator_t *alloc,
                                                    tracerd_event_dir_t **out);
/**
 * Reads the streams and delivers events. Returns TRACERD_OK at the end,
 * TRACERD_PAUSED when a callback paused (call _run again to go on), or the
 * first error (see the accessors). Not callable from a callback.
 */
TRACERD_API tracerd_status_t tracerd_event_dir_run(tracerd_event_dir_t *d);
/** True once the config's filter ended the reading early (see tracerd_auto_done). */
TRACERD_API bool tracerd_event_dir_done(const tracerd_event_dir_t *d);
/** After an error: the file at fault ("" if none); owned by the reader. */
TRACERD_API const char *tracerd_event_dir_error_path(const tracerd_event_dir_t *d);
/** After an error: the absolute offset in that file. */
TRACERD_API uint64_t tracerd_event_dir_error_offset(const tracerd_event_dir_t *d);
/** After an error: the reason ("" if none); owned by the reader. */
TRACERD_API const char *tracerd_event_dir_error_reason(const tracerd_event_dir_t *d);
/** Frees the reader. NULL is allowed. */
TRACERD_API void tracerd_event_dir_free(tracerd_event_dir_t *d);

#ifdef __cplusplus
}
#endif
#endif /* TRACERD_EVENT_H */
