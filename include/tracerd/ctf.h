/**
 * @file ctf.h
 * Reader for the Common Trace Format 1.8 and 2 (LTTng, barectf, babeltrace2).
 *
 * Three layers:
 *  - tracerd_ctf_metadata_*: an incremental metadata reader (CTF 1.8 TSDL or
 *    CTF 2 JSON fragments, plain-text or packetized, fed in chunks of any
 *    size, appendable) that builds
 *    an immutable trace model (tracerd_ctf_trace_t) and compiles every
 *    dynamic scope into a flat decoding program.
 *  - tracerd_ctf_stream_*: the reader contract for one data stream (a file or
 *    a socket), created from a trace model: packets, events and every field,
 *    pushed to callbacks.
 *  - tracerd_ctf_dir_*: a whole trace directory (recursively: every folder
 *    that holds a `metadata` file), every stream file read in fixed chunks,
 *    events of all streams merged in timestamp order with a heap.
 *
 * See doc/formats/ctf.md for the byte-level reading and every choice made
 * where the specification is silent.
 */
#ifndef TRACERD_CTF_H
#define TRACERD_CTF_H

#include <tracerd/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Magic number of a CTF packet header's `magic` field. */
#define TRACERD_CTF_PACKET_MAGIC 0xC1FC1FC1u
/** Magic number of a metadata packet (packetized metadata). */
#define TRACERD_CTF_METADATA_MAGIC 0x75D11D57u

/**
 * How sure (0..100) it is that head[0..len) starts CTF bytes: 100 for a data
 * stream (packet magic) or packetized metadata (metadata magic), in either
 * byte order; 90 for plain metadata (tracerd_ctf_metadata_version: CTF 1.8
 * TSDL with its signature comment, or a CTF 2 JSON text sequence); else 0.
 * The one detector of the format: the event view and the CLI use it (a trace
 * directory is recognised by its `metadata` file, tracerd_ctf_dir_*).
 */
TRACERD_API int tracerd_ctf_detect(const void *head, size_t len);

/* ==== the trace model ==================================================== */

/** Kind of a field type. */
typedef enum tracerd_ctf_type_kind {
    TRACERD_CTF_TYPE_INT = 0,
    TRACERD_CTF_TYPE_FLOAT = 1,
    TRACERD_CTF_TYPE_STRING = 2,
    TRACERD_CTF_TYPE_ENUM = 3,
    TRACERD_CTF_TYPE_STRUCT = 4,
    TRACERD_CTF_TYPE_VARIANT = 5,
    TRACERD_CTF_TYPE_ARRAY = 6,
    TRACERD_CTF_TYPE_SEQUENCE = 7,
    /* CTF 2 only: a CTF 1.8 trace never has these kinds. */
    TRACERD_CTF_TYPE_BOOL = 8,     /**< fixed-length boolean: size_bits, false iff all bits 0 */
    TRACERD_CTF_TYPE_BIT_MAP = 9,  /**< fixed-length bit map: mappings are the flags (bit ranges) */
    TRACERD_CTF_TYPE_VARINT = 10,  /**< variable-length (LEB128) integer; is_signed, mappings */
    TRACERD_CTF_TYPE_BLOB = 11,    /**< bytes: length (static) or path (dynamic), media_type */
    TRACERD_CTF_TYPE_OPTIONAL = 12 /**< element, present when the selector at path says so */
} tracerd_ctf_type_kind_t;

/** Text encoding of an integer (byte arrays) or a string. */
typedef enum tracerd_ctf_encoding {
    TRACERD_CTF_ENCODING_NONE = 0,
    TRACERD_CTF_ENCODING_UTF8 = 1,
    TRACERD_CTF_ENCODING_ASCII = 2,
    /* CTF 2 strings (delivered converted to UTF-8) */
    TRACERD_CTF_ENCODING_UTF16BE = 3,
    TRACERD_CTF_ENCODING_UTF16LE = 4,
    TRACERD_CTF_ENCODING_UTF32BE = 5,
    TRACERD_CTF_ENCODING_UTF32LE = 6
} tracerd_ctf_encoding_t;

/** CTF 2 roles (bits of tracerd_ctf_type_t.roles). CTF 1.8 gives the same
 * meaning to well-known member names; its types have roles 0. */
enum {
    TRACERD_CTF_ROLE_PACKET_MAGIC = 1u << 0,          /**< packet-magic-number */
    TRACERD_CTF_ROLE_METADATA_UUID = 1u << 1,         /**< metadata-stream-uuid (BLOB) */
    TRACERD_CTF_ROLE_STREAM_CLASS_ID = 1u << 2,       /**< data-stream-class-id */
    TRACERD_CTF_ROLE_STREAM_ID = 1u << 3,             /**< data-stream-id */
    TRACERD_CTF_ROLE_PACKET_TOTAL_LENGTH = 1u << 4,   /**< packet-total-length */
    TRACERD_CTF_ROLE_PACKET_CONTENT_LENGTH = 1u << 5, /**< packet-content-length */
    TRACERD_CTF_ROLE_CLOCK_TIMESTAMP = 1u << 6,       /**< default-clock-timestamp */
    TRACERD_CTF_ROLE_PACKET_END_TIMESTAMP = 1u << 7,  /**< packet-end-default-clock-timestamp */
    TRACERD_CTF_ROLE_DISCARDED_COUNTER = 1u << 8, /**< discarded-event-record-counter-snapshot */
    TRACERD_CTF_ROLE_PACKET_SEQ_NUM = 1u << 9,    /**< packet-sequence-number */
    TRACERD_CTF_ROLE_EVENT_CLASS_ID = 1u << 10    /**< event-record-class-id */
};

typedef struct tracerd_ctf_type tracerd_ctf_type_t;

/** A named member of a structure or an option of a variant. */
typedef struct tracerd_ctf_member {
    const char *name;    /**< as written in the metadata (NUL-terminated) */
    const char *display; /**< name with one leading '_' removed (TSDL escape) */
    const tracerd_ctf_type_t *type;
} tracerd_ctf_member_t;

/** One enumeration mapping: label for the values lo..hi (inclusive). */
typedef struct tracerd_ctf_mapping {
    const char *label;
    int64_t lo; /**< as signed when the container is signed, else cast from uint64 */
    int64_t hi;
} tracerd_ctf_mapping_t;

/**
 * A field type of the model. Read-only; owned by the trace. Only the members
 * of its kind are meaningful.
 */
struct tracerd_ctf_type {
    tracerd_ctf_type_kind_t kind;
    uint32_t align_bits; /**< alignment in bits (power of two) */
    /* INT, ENUM (its container), FLOAT */
    uint32_t size_bits; /**< INT/ENUM: 1-64; FLOAT: 32 or 64 (CTF 2: also 16, 128..65536) */
    bool is_signed;
    tracerd_byte_order_t byte_order; /**< LITTLE or BIG (native resolved) */
    unsigned base;                   /**< 2, 8, 10 or 16 */
    tracerd_ctf_encoding_t encoding; /**< INT and STRING */
    int clock;                       /**< index in trace clocks of `map`, or -1 */
    uint32_t exp_dig, mant_dig;      /**< FLOAT */
    /* ENUM */
    const tracerd_ctf_mapping_t *mappings;
    uint32_t nmappings;
    /* STRUCT, VARIANT */
    const tracerd_ctf_member_t *members;
    uint32_t nmembers;
    /* VARIANT: tag path; SEQUENCE: length path (as written) */
    const char *path;
    /* ARRAY, SEQUENCE */
    const tracerd_ctf_type_t *element; /**< OPTIONAL: the contained type */
    uint64_t length;                   /**< ARRAY; BLOB: bytes (static) */
    /* CTF 2 (zero / NULL in a CTF 1.8 trace) */
    bool bit_order_reversed; /**< bits read last-to-first (little-endian) or first-to-last (big) */
    uint32_t roles;          /**< TRACERD_CTF_ROLE_* */
    const char *media_type;  /**< BLOB: IANA media type */
    const char *attributes;  /**< the `attributes` object as compact JSON text, or NULL */
};

/** A clock block. */
typedef struct tracerd_ctf_clock {
    const char *name;
    const char *description; /**< "" when absent */
    uint8_t uuid[16];
    bool has_uuid;
    uint64_t freq; /**< Hz (default 1000000000) */
    uint64_t precision;
    int64_t offset_s;
    int64_t offset; /**< cycles */
    bool absolute;  /**< CTF 2: origin is the Unix epoch */
    /* CTF 2 (NULL / 0 in a CTF 1.8 trace) */
    const char *id;        /**< clock class id (what data stream classes name) */
    const char *ns, *uid;  /**< identity: namespace and uid (name is above) */
    const char *origin_ns; /**< custom origin (namespace, name, uid), NULL otherwise */
    const char *origin_name, *origin_uid;
    uint64_t accuracy;
    bool has_precision, has_accuracy;
    const char *attributes; /**< compact JSON text, or NULL */
} tracerd_ctf_clock_t;

/** An environment entry (env block). */
typedef struct tracerd_ctf_env {
    const char *key;
    const char *str; /**< string value, or NULL for an integer */
    int64_t value;   /**< integer value */
} tracerd_ctf_env_t;

/** An event class. */
typedef struct tracerd_ctf_event_class {
    const char *name;
    uint64_t id;
    uint64_t stream_id;
    int64_t loglevel;
    bool has_loglevel;
    const char *emf_uri;               /**< NULL when absent */
    const tracerd_ctf_type_t *context; /**< NULL when absent */
    const tracerd_ctf_type_t *fields;  /**< NULL when absent */
    const char *ns, *uid;              /**< CTF 2 identity, or NULL */
    const char *attributes;            /**< CTF 2: compact JSON text, or NULL */
} tracerd_ctf_event_class_t;

/** A stream class. */
typedef struct tracerd_ctf_stream_class {
    uint64_t id;
    const tracerd_ctf_type_t *packet_context;
    const tracerd_ctf_type_t *event_header;
    const tracerd_ctf_type_t *event_context;
    const tracerd_ctf_event_class_t *const *events; /**< in declaration order */
    uint32_t nevents;
    const char *ns, *name, *uid; /**< CTF 2 identity, or NULL */
    int default_clock;           /**< CTF 2: index in the trace's clocks, or -1 */
    const char *attributes;      /**< CTF 2: compact JSON text, or NULL */
} tracerd_ctf_stream_class_t;

/** Opaque immutable trace model (owned by the caller; see tracerd_ctf_trace_free). */
typedef struct tracerd_ctf_trace tracerd_ctf_trace_t;

/** Top-level facts of a trace model (pointers owned by the trace). */
typedef struct tracerd_ctf_trace_info {
    uint32_t major, minor;
    uint8_t uuid[16];
    bool has_uuid;
    tracerd_byte_order_t byte_order;
    const tracerd_ctf_type_t *packet_header; /**< NULL when absent */
    const tracerd_ctf_clock_t *clocks;
    uint32_t nclocks;
    const tracerd_ctf_env_t *env;
    uint32_t nenv;
    const tracerd_ctf_stream_class_t *const *streams;
    uint32_t nstreams;
    uint32_t nevents;      /**< event classes over all streams */
    size_t metadata_bytes; /**< metadata text bytes parsed */
    /* CTF 2 (major 2, minor 0; NULL / 0 for CTF 1.8) */
    const char *ns, *name, *uid; /**< trace class identity */
    const char *attributes;      /**< trace class attributes: compact JSON text, or NULL */
    const char *preamble_attributes;
    uint32_t nfragments; /**< metadata fragments parsed */
} tracerd_ctf_trace_info_t;

/** The trace's top-level facts; the pointer is owned by the trace. */
TRACERD_API const tracerd_ctf_trace_info_t *tracerd_ctf_trace_info(const tracerd_ctf_trace_t *t);
/** Stream class by id, or NULL. */
TRACERD_API const tracerd_ctf_stream_class_t *
tracerd_ctf_trace_stream_class(const tracerd_ctf_trace_t *t, uint64_t id);
/** Event class by stream class id and event id, or NULL. */
TRACERD_API const tracerd_ctf_event_class_t *
tracerd_ctf_trace_event_class(const tracerd_ctf_trace_t *t, uint64_t stream_id, uint64_t id);
/** Environment string by key, or NULL (integer entries give NULL). */
TRACERD_API const char *tracerd_ctf_trace_env(const tracerd_ctf_trace_t *t, const char *key);
/** Frees a trace model. Every stream reader made from it must be freed first. NULL ok. */
TRACERD_API void tracerd_ctf_trace_free(tracerd_ctf_trace_t *t);
/** CTF 2: the `attributes` of member class / variant option i of a STRUCT or
 * VARIANT type, as compact JSON text owned by the trace, or NULL (none, or
 * CTF 1.8). */
TRACERD_API const char *tracerd_ctf_member_attributes(const tracerd_ctf_type_t *compound,
                                                      uint32_t i);
/** Name of a type kind ("integer", "struct", ...). Static string. */
TRACERD_API const char *tracerd_ctf_type_kind_name(tracerd_ctf_type_kind_t k);

/* ==== metadata reader ==================================================== */

/** Opaque metadata reader. */
typedef struct tracerd_ctf_metadata tracerd_ctf_metadata_t;

/** Metadata reader options. Initialise with tracerd_ctf_metadata_config_init. */
typedef struct tracerd_ctf_metadata_config {
    /* Every resource the metadata can ask for is bounded by one of these;
     * over a bound, _finish returns E_LIMIT with the metadata line and column,
     * a reason naming the bound and the value asked for (doc/formats/ctf.md,
     * "Limits"). The defaults read every real trace we know and stop hostile
     * metadata within about a second and a few MB. */
    size_t max_metadata_bytes; /**< text bound (default 16 MiB); CTF 2: also bounds the
                                  estimated JSON tree of one fragment (jansson's memory) */
    uint32_t max_depth;        /**< nesting of blocks and compound types (default 64) */
    uint32_t max_fields; /**< members of one struct/variant, mappings of one enum (default 16384) */
    uint64_t max_array_length;       /**< static array length (default 1<<24) */
    tracerd_byte_order_t byte_order; /**< packetized metadata: AUTO (from the magic) */
    tracerd_warning_cb on_warning;   /**< unknown attributes and the like; may be NULL */
    void *user;                      /**< passed to on_warning */
    /** Named types declared (typealias, typedef, named struct, variant and
     * enum), all scopes together (default 16384). */
    uint32_t max_aliases;
    uint32_t max_event_classes;  /**< event classes, all streams together (default 8192) */
    uint32_t max_stream_classes; /**< stream classes; TSDL: also clock blocks (default 4096) */
    /** Fields (integers, strings, compound and array types, variant
     * options) that the dynamic scopes of every stream and event class
     * expand to, summed: a named type used twice counts twice (default
     * 1<<15 = 32768; every LTTng kernel event of a recent x86-64 kernel is
     * some 10,000, the largest real trace measured 5,059, the peer suites
     * at most 201: doc/formats/ctf.md, "Limits"). Counted before anything
     * is expanded. TSDL: the types, members, enumerators and env entries
     * the text declares, used or not, are bounded by twice this. Memory near the
     * bound: about 0.8 KiB per field, declarations included. */
    uint64_t max_type_nodes;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** Value slots (doc/api.md, "Context values without field records"):
     * integers of the stream event context and the event context, named by
     * scope and member name, whose values every event then carries in
     * tracerd_ctf_event_t.values with no field record made (NULL, 0: none,
     * the default; at most TRACERD_CTF_MAX_VALUE_NAMES). Read at
     * tracerd_ctf_metadata_finish (the array and names must live until
     * then; the trace model keeps its own copy). */
    const struct tracerd_ctf_value_name *value_names;
    uint32_t nvalue_names; /**< entries of value_names */
} tracerd_ctf_metadata_config_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_ctf_metadata_config_init_sized(tracerd_ctf_metadata_config_t *cfg,
                                                        size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_ctf_metadata_config_init_sized, which writes no more than that.) */
static inline void tracerd_ctf_metadata_config_init(tracerd_ctf_metadata_config_t *cfg)
{
    tracerd_ctf_metadata_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Creates a metadata reader.
 * @param cfg   options (NULL: defaults); copied.
 * @param alloc allocator (NULL: libc); must outlive the reader and the traces it makes.
 * @param out   receives the reader; NULL on failure.
 * @return TRACERD_OK, TRACERD_E_INVALID, TRACERD_E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_ctf_metadata_new(const tracerd_ctf_metadata_config_t *cfg,
                                                      const tracerd_allocator_t *alloc,
                                                      tracerd_ctf_metadata_t **out);
/**
 * Feeds metadata bytes (plain text, or metadata packets: the first bytes
 * decide). Packet headers are checked and stripped as they arrive; the text
 * is kept (bounded by max_metadata_bytes). Allocates (the text buffer grows).
 * @return TRACERD_OK, or an error (sticky until _reset): E_MAGIC, E_UNSUPPORTED
 *         (compressed, encrypted metadata), E_LIMIT, E_EXTENT, E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_ctf_metadata_feed(tracerd_ctf_metadata_t *m, const void *data,
                                                       size_t len);
/**
 * Parses all text fed so far and returns a new immutable trace model, owned
 * by the caller (tracerd_ctf_trace_free). May be called again after more
 * feeds (live traces append metadata): each call returns a model of all the
 * text so far; earlier models stay valid until freed.
 * @return TRACERD_OK; TRACERD_E_METADATA with line, column and reason
 *         (tracerd_ctf_metadata_error_reason); E_TRUNCATED when packetized
 *         input ended inside a packet; E_LIMIT; E_UNSUPPORTED; E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_ctf_metadata_finish(tracerd_ctf_metadata_t *m,
                                                         tracerd_ctf_trace_t **out);
/** Returns the reader to its state after _new. */
TRACERD_API void tracerd_ctf_metadata_reset(tracerd_ctf_metadata_t *m);
/** Frees the reader (not the traces it made). NULL ok. */
TRACERD_API void tracerd_ctf_metadata_free(tracerd_ctf_metadata_t *m);
/** Bytes fed so far (absolute offset). */
TRACERD_API uint64_t tracerd_ctf_metadata_offset(const tracerd_ctf_metadata_t *m);
/** After an error: offset of the metadata packet at fault (packetized input), else 0. */
TRACERD_API uint64_t tracerd_ctf_metadata_record_offset(const tracerd_ctf_metadata_t *m);
/** After a TSDL error: 1-based line and column in the text (0 when not a text error). */
TRACERD_API uint32_t tracerd_ctf_metadata_line(const tracerd_ctf_metadata_t *m);
TRACERD_API uint32_t tracerd_ctf_metadata_column(const tracerd_ctf_metadata_t *m);
/** NUL-terminated reason of the last error ("" if none), e.g. "line 3, column 5: expected ';' ...".
 */
TRACERD_API const char *tracerd_ctf_metadata_error_reason(const tracerd_ctf_metadata_t *m);
/** The TSDL text gathered so far (packet headers stripped); valid until the next feed/reset/free.
 */
TRACERD_API tracerd_str_t tracerd_ctf_metadata_text(const tracerd_ctf_metadata_t *m);

/**
 * Which CTF version the first bytes of a metadata stream are (plain text, or
 * a metadata packet whose first content byte follows its 37-byte header):
 * 2 for a CTF 2 JSON text sequence (first byte 0x1E), 1 for CTF 1.8 TSDL
 * starting with its signature comment, 0 when neither (or too few bytes).
 * TSDL without the signature is still read by tracerd_ctf_metadata_finish.
 */
TRACERD_API int tracerd_ctf_metadata_version(const void *data, size_t len);

/**
 * Convenience: parses a whole metadata buffer.
 * On failure *out is NULL and, when reason is not NULL, reason receives the
 * error text (NUL-terminated, truncated to reason_size).
 */
TRACERD_API tracerd_status_t tracerd_ctf_trace_parse(const void *data, size_t len,
                                                     const tracerd_ctf_metadata_config_t *cfg,
                                                     const tracerd_allocator_t *alloc,
                                                     tracerd_ctf_trace_t **out, char *reason,
                                                     size_t reason_size);

/* ==== stream reader ======================================================= */

/** Opaque data stream reader. */
typedef struct tracerd_ctf_stream tracerd_ctf_stream_t;

/** Dynamic scope a field belongs to. */
typedef enum tracerd_ctf_scope {
    TRACERD_CTF_SCOPE_PACKET_HEADER = 0,
    TRACERD_CTF_SCOPE_PACKET_CONTEXT = 1,
    TRACERD_CTF_SCOPE_EVENT_HEADER = 2,
    TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT = 3,
    TRACERD_CTF_SCOPE_EVENT_CONTEXT = 4,
    TRACERD_CTF_SCOPE_EVENT_FIELDS = 5
} tracerd_ctf_scope_t;

/** A context integer whose value every event carries (value slots): `name`
 * is a member of the scope's structure (its name as field records give
 * it, TSDL's leading underscore removed). It is given to the event when
 * the member is an integer, an enumeration or a variable-length integer
 * (what on_field delivers as TRACERD_CTF_VALUE_INT or _UINT); a member of
 * another type (a string, a boolean, a compound) or a name the class lacks
 * gives it nothing. */
typedef struct tracerd_ctf_value_name {
    tracerd_ctf_scope_t scope; /**< STREAM_EVENT_CONTEXT or EVENT_CONTEXT */
    const char *name;
} tracerd_ctf_value_name_t;

/** Most value names one metadata reader takes. */
#define TRACERD_CTF_MAX_VALUE_NAMES 32u

/** What a field callback carries. */
typedef enum tracerd_ctf_value_kind {
    TRACERD_CTF_VALUE_INT = 0,    /**< signed integer (or enum with a signed container): i */
    TRACERD_CTF_VALUE_UINT = 1,   /**< unsigned integer (or enum): u */
    TRACERD_CTF_VALUE_FLOAT = 2,  /**< f */
    TRACERD_CTF_VALUE_STRING = 3, /**< str: string, or text array/sequence up to its first NUL */
    TRACERD_CTF_VALUE_STRUCT_BEGIN = 4,
    TRACERD_CTF_VALUE_STRUCT_END = 5,
    TRACERD_CTF_VALUE_ARRAY_BEGIN = 6, /**< length */
    TRACERD_CTF_VALUE_ARRAY_END = 7,
    TRACERD_CTF_VALUE_SEQUENCE_BEGIN = 8, /**< length */
    TRACERD_CTF_VALUE_SEQUENCE_END = 9,
    TRACERD_CTF_VALUE_VARIANT_BEGIN = 10, /**< option: the selected member's display name */
    TRACERD_CTF_VALUE_VARIANT_END = 11,
    /* CTF 2 only */
    TRACERD_CTF_VALUE_BOOL = 12,           /**< u: the raw bits (true iff not 0) */
    TRACERD_CTF_VALUE_BYTES = 13,          /**< BLOB: bytes */
    TRACERD_CTF_VALUE_OPTIONAL_BEGIN = 14, /**< length: 1 when the field follows, else 0 */
    TRACERD_CTF_VALUE_OPTIONAL_END = 15
} tracerd_ctf_value_kind_t;

/**
 * One field value, pushed in declaration order (depth-first). Scope roots
 * (the struct of each scope) are delivered as STRUCT_BEGIN/END with depth 0.
 * All pointers are borrowed, valid until the callback returns.
 */
typedef struct tracerd_ctf_field {
    uint64_t offset; /**< absolute stream byte offset where the field starts */
    tracerd_ctf_scope_t scope;
    tracerd_ctf_value_kind_t kind;
    const char *name; /**< display name (leading '_' removed); "" for elements */
    const char *path; /**< e.g. "event.fields.seq"; elements share their array's path */
    int64_t index;    /**< element index inside the enclosing array/sequence, or -1 */
    uint32_t depth;   /**< nesting depth (scope root = 0) */
    const tracerd_ctf_type_t *type;
    union {
        int64_t i;
        uint64_t u;
        double f;
        tracerd_str_t str; /**< view into the input (or the stitch buffer) */
        uint64_t length;   /**< ARRAY/SEQUENCE_BEGIN */
    } v;
    const char *enum_label; /**< first matching label of an enum value; NULL otherwise or if none */
    const char *option;     /**< VARIANT_BEGIN: selected option (display name) */
    /** ARRAY/SEQUENCE_BEGIN of byte-aligned 8-bit integers: all the bytes as
     * one view into the input (the elements still follow one by one) when
     * there are at most TRACERD_CTF_FRAGMENT_BYTES(stitch_bytes) of them;
     * FLOAT of 128 bits or more (CTF 2) starting on a byte boundary: its raw
     * bytes as written (v.f is the nearest double); BYTES: this fragment's
     * bytes; data NULL otherwise. */
    tracerd_bytes_t bytes;
    /** STRING and BYTES values: TRACERD_CTF_FRAG_FIRST | TRACERD_CTF_FRAG_LAST
     * when the value comes whole (always, for values of at most
     * TRACERD_CTF_FRAGMENT_BYTES(stitch_bytes) input bytes). A longer value
     * comes in several on_field calls of the same kind, name, path, index and
     * offset, in order: the first has FRAG_FIRST, the last FRAG_LAST, the
     * ones between neither. Fragments depend only on the data and
     * stitch_bytes, never on how the input was cut. Other kinds: FIRST|LAST. */
    uint32_t frag;
    /** Offset of this fragment's first byte in the whole value as delivered
     * (v.str for STRING, converted UTF-8 for UTF-16/32 text; bytes for
     * BYTES); 0 for a whole value. BYTES: v.length is the whole length. */
    uint64_t frag_offset;
} tracerd_ctf_field_t;

/** tracerd_ctf_field_t.frag: the value's first fragment. */
#define TRACERD_CTF_FRAG_FIRST 1u
/** tracerd_ctf_field_t.frag: the value's last fragment. */
#define TRACERD_CTF_FRAG_LAST 2u
/** Input bytes of a fragment for a stream reader with stitch_bytes s: a
 * STRING (or text array) or BYTES value longer than this comes in fragments
 * of at most this many input bytes (fewer where a fragment would end inside
 * a UTF-8 character or a UTF-16 surrogate pair). */
#define TRACERD_CTF_FRAGMENT_BYTES(s) (((size_t)(s) / 2u) & ~(size_t)3u)

/** A packet, reported once its header and context are read (fields follow via on_field). */
typedef struct tracerd_ctf_packet {
    uint64_t offset; /**< absolute offset of the packet */
    uint64_t index;  /**< 0-based packet number in this stream */
    const tracerd_ctf_stream_class_t *stream_class;
    uint64_t stream_id;
    uint64_t stream_instance_id;
    bool has_stream_instance_id;
    uint64_t content_size_bits; /**< UINT64_MAX when the stream has no size (one packet) */
    uint64_t packet_size_bits;
    uint64_t timestamp_begin;
    bool has_timestamp_begin;
    uint64_t timestamp_end;
    bool has_timestamp_end;
    uint64_t ns_begin, ns_end; /**< nanoseconds from the Epoch (clock offsets applied) */
    uint64_t events_discarded;
    bool has_events_discarded; /**< cumulative counter */
    uint64_t packet_seq_num;
    bool has_packet_seq_num;
    uint64_t cpu_id;
    bool has_cpu_id;
} tracerd_ctf_packet_t;

/** End of a packet's content (padding follows). */
typedef struct tracerd_ctf_packet_end {
    uint64_t offset; /**< absolute offset of the packet */
    uint64_t index;
    uint64_t events; /**< events read in this packet */
} tracerd_ctf_packet_end_t;

/** An event (fields follow via on_field, then on_event_end). */
typedef struct tracerd_ctf_event {
    uint64_t offset; /**< absolute offset of the event header */
    const tracerd_ctf_event_class_t *cls;
    const tracerd_ctf_stream_class_t *stream_class;
    uint64_t id;
    const char *name;
    uint64_t cycles; /**< reconstructed clock value */
    uint64_t ns;     /**< nanoseconds from the Epoch (offsets applied) */
    bool has_clock;
    uint64_t packet_index;
    /** sizeof(tracerd_ctf_event_t) in the library that made it. The struct
     * had only the members above in 0.2: read this one and the ones after
     * it through TRACERD_CTF_EVENT_HAS (doc/api.md §7). */
    size_t size;
    /**
     * The event's record shape, or 0. Not 0: the field records this event
     * delivers (on_field / on_fields, between on_event_begin and
     * on_event_end) are, record for record, those of every other event of
     * the same shape read with the same field_scopes: the same number of
     * records with the same scope, kind, name, path, index, depth and type
     * (the same pointers) in the same order; only offsets and values (v,
     * enum_label, bytes) differ, and, as always, a STRING or BYTES value
     * longer than TRACERD_CTF_FRAGMENT_BYTES(stitch_bytes) comes as its
     * fragment records (frag not FIRST|LAST, each with its value's
     * description) where one record would be. So a client can prepare its
     * output for a shape once and check one number per event (and `frag` on
     * string and BYTES records) instead of each record's description. A
     * shape belongs to one event class (an LTTng compact and extended
     * event header are two shapes of a class); the numbers are small (from
     * 1, at most two per event class), given when the trace model is
     * compiled, the same for every reader of that model (per field_scopes):
     * in a directory of several traces, key them with the trace
     * (tracerd_ctf_dir_current) or the class. 0 when the class's records
     * may vary in number in a scope delivered (a sequence, variant or
     * optional; an event header with a variant other than LTTng's). A read
     * that stops inside the event (an error, a callback's negative return)
     * delivers fewer records.
     */
    uint32_t shape;
    /**
     * The values of the context integers the metadata config named
     * (value_names): values[i] is the i-th name's, valid when bit i of
     * values_set is set, i.e. when the event's stream class (stream event
     * context) or event class (event context) has that member as an
     * integer; the same bits for every event of a class. The value is the
     * one on_field would give (TRACERD_CTF_VALUE_UINT's v.u, or _INT's v.i
     * as uint64_t). Read them in on_event_end: they are the event's once
     * its contexts were read (in on_event_begin they may still be the
     * previous event's). values_set is 0 when no names were given; values
     * then points to unused storage. Valid during the callback.
     */
    const uint64_t *values;
    uint32_t values_set;
} tracerd_ctf_event_t;

/** sizeof(tracerd_ctf_event_t) in the library linked. A program that calls it
 * (TRACERD_CTF_EVENT_HAS does) cannot load a library older than `size` and
 * `shape`, so it never reads past a shorter struct. */
TRACERD_API size_t tracerd_ctf_event_size(void);

/** Whether event e has member m (`size`, `shape` or a later one). */
#define TRACERD_CTF_EVENT_HAS(e, m)                                                                \
    ((void)(e), tracerd_ctf_event_size() >= offsetof(tracerd_ctf_event_t, m) + sizeof((e)->m))

/** Loss reported between packets. */
typedef enum tracerd_ctf_loss_kind {
    TRACERD_CTF_LOSS_EVENTS = 0, /**< events_discarded grew */
    TRACERD_CTF_LOSS_PACKETS = 1 /**< packet_seq_num skipped */
} tracerd_ctf_loss_kind_t;

/** Discarded events or lost packets, reported before the packet that shows them. */
typedef struct tracerd_ctf_loss {
    uint64_t offset; /**< absolute offset of the packet that shows the loss */
    tracerd_ctf_loss_kind_t kind;
    uint64_t count;
    uint64_t stream_id;
    uint64_t begin_cycles,
        end_cycles; /**< time range (previous packet end .. this one's end/begin) */
    bool has_clock;
} tracerd_ctf_loss_t;

typedef int (*tracerd_ctf_packet_cb)(void *user, const tracerd_ctf_packet_t *p);
typedef int (*tracerd_ctf_packet_end_cb)(void *user, const tracerd_ctf_packet_end_t *p);
typedef int (*tracerd_ctf_event_cb)(void *user, const tracerd_ctf_event_t *e);
typedef int (*tracerd_ctf_field_cb)(void *user, const tracerd_ctf_field_t *f);
typedef int (*tracerd_ctf_loss_cb)(void *user, const tracerd_ctf_loss_t *l);
/**
 * Field records in a batch: f[0..n) (n >= 1, at most TRACERD_CTF_BATCH_RECORDS)
 * are the records on_field would have received, in the same order, with the
 * same values. See tracerd_ctf_callbacks_t.on_fields.
 */
typedef int (*tracerd_ctf_fields_cb)(void *user, const tracerd_ctf_field_t *f, size_t n);

/** Most records one on_fields call carries. */
#define TRACERD_CTF_BATCH_RECORDS 256u

/** Callbacks; any may be NULL ("not interested"). A NULL on_field skips value conversion. */
typedef struct tracerd_ctf_callbacks {
    tracerd_ctf_packet_cb on_packet_begin;
    tracerd_ctf_packet_end_cb on_packet_end;
    tracerd_ctf_event_cb on_event_begin;
    tracerd_ctf_event_cb on_event_end;
    tracerd_ctf_field_cb on_field;
    tracerd_ctf_loss_cb on_loss;
    tracerd_warning_cb on_warning; /**< lenient packet skips; a foreign packet uuid */
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /**
     * (After 0.2: set it after tracerd_ctf_callbacks_init.) The field
     * records in batches, instead of one on_field call per record: set
     * on_field or on_fields, not both (tracerd_ctf_stream_new returns
     * E_INVALID). The concatenation of the calls is exactly the records
     * on_field would receive (same order, values, field_scopes, fragments,
     * errors: what precedes a data error is delivered, then the error).
     * A call never holds records of two packets or two events, and comes
     * before that event's on_event_end (the packet's: after on_packet_begin).
     * The records of a packet's header and context, and those of an
     * event (header to payload), come in ONE call, unless: there are more
     * than TRACERD_CTF_BATCH_RECORDS of them (then full calls, the rest
     * last); a record holds a UTF-16/32 string (converted into a buffer
     * the next such string reuses: a call ends before the next one
     * is converted); the event straddles
     * chunks (it is delivered while it arrives: a call ends where the
     * reader waits for the next chunk). A value longer than a fragment still comes as its
     * fragment records (frag, frag_offset), in the same calls as the others.
     * f and every pointer in the records are borrowed until the call
     * returns. The return value is read as on_field's (core.h): a pause is
     * taken after the event, a negative value stops at once (later records
     * of the event are not delivered). doc/api.md, section 4, "CTF: field
     * batches".
     */
    tracerd_ctf_fields_cb on_fields;
} tracerd_ctf_callbacks_t;

/** Sets every callback to NULL (not interested), the starting point before
 * setting the ones wanted (STYLE.md B.16: every callbacks struct has one). */
TRACERD_API void tracerd_ctf_callbacks_init_sized(tracerd_ctf_callbacks_t *cbs, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_ctf_callbacks_init_sized, which writes no more than that.) */
static inline void tracerd_ctf_callbacks_init(tracerd_ctf_callbacks_t *cbs)
{
    tracerd_ctf_callbacks_init_sized(cbs, sizeof *cbs);
}

/** Stream reader options. Initialise with tracerd_ctf_stream_config_init. */
typedef struct tracerd_ctf_stream_config {
    size_t stitch_bytes;          /**< largest packet header+context (default 65536, min 64);
                                       events of any size are read: a longer one
                                       is delivered while it arrives, its long
                                       strings and BLOBs in fragments of
                                       TRACERD_CTF_FRAGMENT_BYTES(stitch_bytes) */
    uint64_t max_sequence_length; /**< sequence length bound (default 1<<24) */
    uint32_t max_depth;           /**< nesting of arrays/sequences (default 64) */
    uint64_t max_packet_bytes;    /**< packet size bound (default 1 GiB) */
    /** A packet header uuid that differs from the trace's is E_MAGIC (true),
     * or (false, the default, as babeltrace2 and yactfr) read on with one
     * on_warning per stream (status E_MAGIC, the first such packet). */
    bool check_uuid;
    /** Lenient: skip a packet with damaged content to the next packet by its
     * packet size, report it to on_warning (default false). Risk: its events are lost. */
    bool lenient_skip_packets;
    /** The scopes on_field receives: a bit (1u << TRACERD_CTF_SCOPE_*) per
     * scope; 0 = every scope (default). Fields of other scopes are still
     * decoded as far as reading needs, but not delivered. A reader that asks
     * for event contexts only (e.g. thread ids) reads events lying whole in a
     * chunk on the fast path and decodes only the contexts' values. */
    uint32_t field_scopes;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
} tracerd_ctf_stream_config_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_ctf_stream_config_init_sized(tracerd_ctf_stream_config_t *cfg,
                                                      size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_ctf_stream_config_init_sized, which writes no more than that.) */
static inline void tracerd_ctf_stream_config_init(tracerd_ctf_stream_config_t *cfg)
{
    tracerd_ctf_stream_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Creates a stream reader for one data stream of `trace`.
 * @param trace the model; must outlive the reader (or be replaced with _set_trace).
 * @return TRACERD_OK, TRACERD_E_INVALID, TRACERD_E_NOMEM. All memory is allocated
 *         here but the stitch buffer, which _feed allocates when a record first
 *         straddles chunks and grows (doubling from 1 KiB) up to stitch_bytes.
 */
TRACERD_API tracerd_status_t tracerd_ctf_stream_new(const tracerd_ctf_trace_t *trace,
                                                    const tracerd_ctf_stream_config_t *cfg,
                                                    const tracerd_ctf_callbacks_t *cbs, void *user,
                                                    const tracerd_allocator_t *alloc,
                                                    tracerd_ctf_stream_t **out);
/**
 * Feeds the next bytes of the stream (chunks of any size). Allocates only the
 * stitch buffer, as records straddling chunks need it (at most stitch_bytes;
 * tracerd_ctf_stream_memory_bound counts it whole).
 * @return TRACERD_OK (all consumed), TRACERD_PAUSED (*consumed is just past the
 *         record whose callback paused, == len when it ended the chunk: see
 *         core.h), or an error (sticky until _reset):
 *         E_MAGIC (magic, uuid), E_REFERENCE (unknown stream or event id),
 *         E_EXTENT (content beyond the packet size, field past the content),
 *         E_LIMIT (sequence length, stitch bound, packet size), E_BAD_RECORD
 *         (variant tag with no option, content_size > packet_size), E_CALLBACK,
 *         E_NOMEM (growing the stitch buffer).
 * Not callable from a callback.
 */
TRACERD_API tracerd_status_t tracerd_ctf_stream_feed(tracerd_ctf_stream_t *r, const void *data,
                                                     size_t len, size_t *consumed);
/** Clears a pause. */
TRACERD_API tracerd_status_t tracerd_ctf_stream_resume(tracerd_ctf_stream_t *r);
/** End of input: E_TRUNCATED if it ended inside a packet's content or an event. */
TRACERD_API tracerd_status_t tracerd_ctf_stream_finish(tracerd_ctf_stream_t *r);
/** Back to the state after _new (trace, options, callbacks kept). */
TRACERD_API void tracerd_ctf_stream_reset(tracerd_ctf_stream_t *r);
/** Frees the reader. NULL ok. */
TRACERD_API void tracerd_ctf_stream_free(tracerd_ctf_stream_t *r);
/**
 * Switches to a newer model of the same trace (appended metadata). Allowed
 * between events; the current stream class is looked up again by id.
 * @return TRACERD_OK, TRACERD_E_REFERENCE (the stream class vanished),
 *         TRACERD_E_INVALID (inside a record or a callback).
 */
TRACERD_API tracerd_status_t tracerd_ctf_stream_set_trace(tracerd_ctf_stream_t *r,
                                                          const tracerd_ctf_trace_t *trace);
/** Absolute offset of the next byte expected. Callable from callbacks. */
TRACERD_API uint64_t tracerd_ctf_stream_offset(const tracerd_ctf_stream_t *r);
/** Offset of the record being delivered, or of the record at fault after an error. */
TRACERD_API uint64_t tracerd_ctf_stream_record_offset(const tracerd_ctf_stream_t *r);
/** After a data error: absolute offset of the field at fault (else the record offset). */
TRACERD_API uint64_t tracerd_ctf_stream_error_offset(const tracerd_ctf_stream_t *r);
/** After a data error: path of the field at fault ("" when not a field error). */
TRACERD_API const char *tracerd_ctf_stream_error_path(const tracerd_ctf_stream_t *r);
/** NUL-terminated reason of the last error ("" if none). */
TRACERD_API const char *tracerd_ctf_stream_error_reason(const tracerd_ctf_stream_t *r);
/** The negative value a callback returned, after TRACERD_E_CALLBACK. */
TRACERD_API int tracerd_ctf_stream_callback_error(const tracerd_ctf_stream_t *r);
/** This reader's entry points as a tracerd_reader_ops_t (core.h); a static
 * table. Its new_reader is NULL: make the reader with tracerd_ctf_stream_new. */
TRACERD_API const tracerd_reader_ops_t *tracerd_ctf_stream_ops(void);
/** Upper bound of the memory a reader for `trace` with these options allocates. */
TRACERD_API size_t tracerd_ctf_stream_memory_bound(const tracerd_ctf_trace_t *trace,
                                                   const tracerd_ctf_stream_config_t *cfg);

/* ==== trace directory reader ============================================== */

/** Opaque directory reader. */
typedef struct tracerd_ctf_dir tracerd_ctf_dir_t;

/** A stream file of a directory, as seen by callbacks (tracerd_ctf_dir_current). */
typedef struct tracerd_ctf_dir_stream {
    const char *path;                 /**< file being read (of the stream's files) */
    const tracerd_ctf_trace_t *trace; /**< model of its trace */
    const char *trace_path;           /**< directory holding its metadata */
    uint32_t index;                   /**< stream number in the directory reader */
} tracerd_ctf_dir_stream_t;

/**
 * Where a directory reader's stream files come from. By default (open,
 * view and close all NULL) it opens each stream file itself and reads it
 * with pread() into a buffer of its own (chunk_bytes). A client that can
 * show a file's bytes where they lie (a mapped window of the file, a file
 * already in memory) sets all three: the reader then feeds its stream
 * readers those bytes, with no read buffer and no copy. Metadata files and
 * the first 4 KiB of each stream file (read once at open, to group them)
 * are still read with read().
 */
typedef struct tracerd_ctf_dir_files {
    /** Handed to the three functions. */
    void *ctx;
    /** The handle of the file at path (not NULL), or NULL with errno set
     * (the reader fails with E_IO, "cannot open: <strerror(errno)>"). */
    void *(*open)(void *ctx, const char *path);
    /** The file's bytes from `offset`: sets *data and *len (1 to `want`
     * bytes, or *len 0 at the end of the file) and returns 0; or returns
     * -1 for a read error (E_IO, "read error: " and *reason when set, a text
     * that lives until the next call, else strerror(errno)). The bytes stay
     * valid and unchanged until the next view or close of the same handle.
     * `want` is chunk_bytes (less when many streams share
     * max_read_buffer_bytes). */
    int (*view)(void *ctx, void *file, uint64_t offset, size_t want, const uint8_t **data,
                size_t *len, const char **reason);
    /** Ends a handle, with its last view. Each stream holds at most one
     * handle at a time (max_open_files does not apply to handles: a view
     * must outlive the read, so a client whose handles keep a file
     * descriptor each should let it go between views when streams are
     * many). */
    void (*close)(void *ctx, void *file);
} tracerd_ctf_dir_files_t;

/** Directory reader options. */
typedef struct tracerd_ctf_dir_config {
    /** Options of every stream reader; NULL (the default): the defaults.
     * Pointed to, not embedded, so that the stream and metadata configs
     * grow by their own size members without moving the members below
     * (doc/api.md §7). Read by tracerd_ctf_dir_open, not kept after it. */
    const tracerd_ctf_stream_config_t *stream;
    /** Options of every metadata reader; NULL (the default): the defaults. */
    const tracerd_ctf_metadata_config_t *metadata;
    size_t chunk_bytes;     /**< read size per stream (default 65536) */
    uint32_t max_streams;   /**< stream files (default 4096) */
    uint32_t max_traces;    /**< metadata files found recursively (default 256) */
    uint32_t max_dir_depth; /**< folder depth searched (default 8) */
    /** Files kept open between reads (default 256). With more streams than
     * this, each read opens the file, reads at its offset and closes it. */
    uint32_t max_open_files;
    /** sizeof this struct in the caller's build, set by the _init function
     * (0, as in a struct zeroed by hand: the members above). Members added
     * after 0.2 come after it (doc/api.md §7). */
    size_t size;
    /** Read buffers of all streams together (default, and 0: 16 MiB). With more
     * streams than max_read_buffer_bytes / chunk_bytes (256 at the
     * defaults), each stream reads max_read_buffer_bytes / streams at a
     * time, but at least 4 KiB (or chunk_bytes if smaller): 4 KiB for 4,096
     * streams. A stream's reader and buffer are freed when it ends. */
    size_t max_read_buffer_bytes;
    /** Where the stream files' bytes come from (default: all NULL, the
     * reader reads them itself; see tracerd_ctf_dir_files_t). Set all three
     * functions or none (else _open returns E_INVALID). */
    tracerd_ctf_dir_files_t files;
} tracerd_ctf_dir_config_t;

/** Fills *cfg with the defaults. */
TRACERD_API void tracerd_ctf_dir_config_init_sized(tracerd_ctf_dir_config_t *cfg, size_t size);
/** (The same, as an inline function: it passes sizeof the caller's struct to
 * tracerd_ctf_dir_config_init_sized, which writes no more than that.) */
static inline void tracerd_ctf_dir_config_init(tracerd_ctf_dir_config_t *cfg)
{
    tracerd_ctf_dir_config_init_sized(cfg, sizeof *cfg);
}

/**
 * Opens a trace directory: finds every folder holding a `metadata` file
 * (the folder itself and below), parses each metadata, and opens every
 * regular file beside it (except `metadata` and hidden files; `index`
 * folders are ignored) as a data stream.
 * @param cfg  options (NULL: defaults); copied.
 * @param cbs  callbacks (NULL: none); copied. They receive `user`.
 * @param alloc allocator (NULL: libc); must outlive the reader.
 * @param out  receives the reader. When the failure comes after the reader
 *             itself was made (every status but E_INVALID and an E_NOMEM of
 *             the first allocation), *out is set so that the error can be
 *             read (tracerd_ctf_dir_error_*); free it with tracerd_ctf_dir_free.
 * @return TRACERD_OK, E_IO, E_METADATA (reason names the file, line and
 *         column), E_VERSION, E_LIMIT, E_NOMEM.
 */
TRACERD_API tracerd_status_t tracerd_ctf_dir_open(const char *path,
                                                  const tracerd_ctf_dir_config_t *cfg,
                                                  const tracerd_ctf_callbacks_t *cbs, void *user,
                                                  const tracerd_allocator_t *alloc,
                                                  tracerd_ctf_dir_t **out);
/**
 * Reads every stream, merging events by timestamp (nanoseconds from the
 * Epoch, ties by stream order). Packet and loss records of a stream are
 * delivered when its reader reaches them. Memory is bounded by the number of
 * streams. Returns TRACERD_OK at the end, TRACERD_PAUSED when a callback
 * paused (call _run again), or the first error.
 */
TRACERD_API tracerd_status_t tracerd_ctf_dir_run(tracerd_ctf_dir_t *d);
/** The stream being delivered (callable from callbacks), or NULL. */
TRACERD_API const tracerd_ctf_dir_stream_t *tracerd_ctf_dir_current(const tracerd_ctf_dir_t *d);
/** Number of traces (metadata files) and of streams (a stream split over
 * several files counts once). */
TRACERD_API uint32_t tracerd_ctf_dir_trace_count(const tracerd_ctf_dir_t *d);
TRACERD_API const tracerd_ctf_trace_t *tracerd_ctf_dir_trace(const tracerd_ctf_dir_t *d,
                                                             uint32_t i);
/** Folder holding the metadata of trace i (owned by the reader), or NULL. */
TRACERD_API const char *tracerd_ctf_dir_trace_path(const tracerd_ctf_dir_t *d, uint32_t i);
TRACERD_API uint32_t tracerd_ctf_dir_stream_count(const tracerd_ctf_dir_t *d);
/** After an error: file at fault, absolute offset in it, reason. */
TRACERD_API const char *tracerd_ctf_dir_error_path(const tracerd_ctf_dir_t *d);
TRACERD_API uint64_t tracerd_ctf_dir_error_offset(const tracerd_ctf_dir_t *d);
TRACERD_API const char *tracerd_ctf_dir_error_reason(const tracerd_ctf_dir_t *d);
/** Frees everything (models included). NULL ok. */
TRACERD_API void tracerd_ctf_dir_free(tracerd_ctf_dir_t *d);

#ifdef __cplusplus
}
#endif
#endif /* TRACERD_CTF_H */
