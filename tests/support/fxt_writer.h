/* A test-trace writer for the Fuchsia trace format: every record and
 * argument type, in either byte order. Used by the Check suite, the fuzz
 * corpus generator and the benchmark's generator (which has its own copy to
 * stay a single file). Records are built in a growing buffer; sizes are
 * computed, so the writer emits valid records unless told otherwise. */
#ifndef TESTS_SUPPORT_FXT_WRITER_H
#define TESTS_SUPPORT_FXT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fxw {
    uint8_t *buf;
    size_t len, cap;
    bool big;
} fxw_t;

/* A string reference: index (1..0x7fff), inline text (str != NULL), or empty (both 0). */
typedef struct fxw_sref {
    uint16_t index;
    const char *str;
} fxw_sref_t;
#define FXS_IDX(i) ((fxw_sref_t){(uint16_t)(i), NULL})
#define FXS_INL(s) ((fxw_sref_t){0, (s)})
#define FXS_EMPTY ((fxw_sref_t){0, NULL})

/* A thread reference: index 1..255, or 0 with inline koids. */
typedef struct fxw_tref {
    uint8_t index;
    uint64_t pid, tid;
} fxw_tref_t;
#define FXT_IDX(i) ((fxw_tref_t){(uint8_t)(i), 0, 0})
#define FXT_INL(p, t) ((fxw_tref_t){0, (p), (t)})

typedef struct fxw_arg {
    uint32_t type; /* tracerd_fxt_arg_type_t value, or 11..15 for an unknown one */
    fxw_sref_t name;
    uint64_t u;    /* uint32/uint64/pointer/koid/bool; raw value of int32/int64 */
    double d;
    fxw_sref_t s;  /* string value */
    const void *blob;
    size_t blob_len;
} fxw_arg_t;

#define FXA_NULL(n) ((fxw_arg_t){0, (n), 0, 0, FXS_EMPTY, NULL, 0})
#define FXA_I32(n, v) ((fxw_arg_t){1, (n), (uint64_t)(uint32_t)(int32_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_U32(n, v) ((fxw_arg_t){2, (n), (uint64_t)(uint32_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_I64(n, v) ((fxw_arg_t){3, (n), (uint64_t)(int64_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_U64(n, v) ((fxw_arg_t){4, (n), (uint64_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_DBL(n, v) ((fxw_arg_t){5, (n), 0, (v), FXS_EMPTY, NULL, 0})
#define FXA_STR(n, s) ((fxw_arg_t){6, (n), 0, 0, (s), NULL, 0})
#define FXA_PTR(n, v) ((fxw_arg_t){7, (n), (uint64_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_KOID(n, v) ((fxw_arg_t){8, (n), (uint64_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_BOOL(n, v) ((fxw_arg_t){9, (n), (uint64_t)(v), 0, FXS_EMPTY, NULL, 0})
#define FXA_BLOB(n, p, l) ((fxw_arg_t){10, (n), 0, 0, FXS_EMPTY, (p), (l)})
/* An argument of unknown type t (11..15) carrying `w` extra zero words. */
#define FXA_UNKNOWN(t, n, w) ((fxw_arg_t){(t), (n), (w), 0, FXS_EMPTY, NULL, 0})

void fxw_init(fxw_t *w, bool big);
void fxw_free(fxw_t *w);
/* Hands the bytes over (malloc'd) and resets the writer. */
uint8_t *fxw_take(fxw_t *w, size_t *len);

void fxw_word(fxw_t *w, uint64_t v);
void fxw_bytes(fxw_t *w, const void *data, size_t len); /* raw, unpadded */
void fxw_stream(fxw_t *w, const void *data, size_t len); /* zero-padded to 8 */
/* Patches the word at byte position pos. */
void fxw_patch(fxw_t *w, size_t pos, uint64_t v);
uint64_t fxw_peek(const fxw_t *w, size_t pos);

void fxw_magic(fxw_t *w);
void fxw_provider_info(fxw_t *w, uint32_t id, const char *name);
void fxw_provider_section(fxw_t *w, uint32_t id);
void fxw_provider_event(fxw_t *w, uint32_t id, uint32_t event);
void fxw_init_record(fxw_t *w, uint64_t ticks_per_second);
void fxw_string(fxw_t *w, uint16_t index, const char *s);
void fxw_thread(fxw_t *w, uint8_t index, uint64_t pid, uint64_t tid);
/* `extra` is the counter/async/flow id or the end time, written when the type needs it. */
void fxw_event(fxw_t *w, uint32_t type, fxw_tref_t thread, fxw_sref_t category, fxw_sref_t name,
               uint64_t ticks, const fxw_arg_t *args, size_t nargs, uint64_t extra);
void fxw_blob(fxw_t *w, fxw_sref_t name, uint32_t blob_type, const void *data, size_t len);
void fxw_userspace(fxw_t *w, uint64_t pointer, fxw_tref_t process, fxw_sref_t name,
                   const fxw_arg_t *args, size_t nargs);
/* The one-word inline process form (the spec's text: the process koid only);
 * fxw_userspace with FXT_INL writes the two-word form of Fuchsia's C++ writer. */
void fxw_userspace_koid(fxw_t *w, uint64_t pointer, uint64_t process_koid, fxw_sref_t name,
                        const fxw_arg_t *args, size_t nargs);
void fxw_kernel(fxw_t *w, uint64_t koid, uint32_t obj_type, fxw_sref_t name,
                const fxw_arg_t *args, size_t nargs);
void fxw_context_switch(fxw_t *w, uint32_t cpu, uint32_t out_state, uint64_t ticks,
                        uint64_t out_tid, uint64_t in_tid, const fxw_arg_t *args, size_t nargs);
void fxw_wakeup(fxw_t *w, uint32_t cpu, uint64_t ticks, uint64_t tid, const fxw_arg_t *args,
                size_t nargs);
void fxw_legacy_switch(fxw_t *w, uint32_t cpu, uint32_t out_state, fxw_tref_t out, fxw_tref_t in,
                       uint32_t out_prio, uint32_t in_prio, uint64_t ticks);
void fxw_log(fxw_t *w, uint64_t ticks, fxw_tref_t thread, const char *msg);
/* format 0 (with metadata) or 1 (category and name only). */
void fxw_large_blob(fxw_t *w, uint32_t format, fxw_sref_t category, fxw_sref_t name,
                    uint64_t ticks, fxw_tref_t thread, const fxw_arg_t *args, size_t nargs,
                    const void *data, size_t len);
/* A record of an unknown (or any) type: header bits above the size, `words` zero words. */
void fxw_raw_record(fxw_t *w, uint64_t header_bits, size_t words);

#endif
