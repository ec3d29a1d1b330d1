#include "fxt_writer.h"

#include <stdlib.h>
#include <string.h>

static void put_bytes(fxw_t *w, const void *data, size_t len)
{
    if (w->len + len > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + len)
            cap *= 2;
        w->buf = realloc(w->buf, cap);
        if (w->buf == NULL)
            abort();
        w->cap = cap;
    }
    if (len != 0)
        memcpy(w->buf + w->len, data, len);
    w->len += len;
}

static void store64(bool big, uint8_t *b, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        b[big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

void fxw_init(fxw_t *w, bool big)
{
    memset(w, 0, sizeof *w);
    w->big = big;
}

void fxw_free(fxw_t *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}

uint8_t *fxw_take(fxw_t *w, size_t *len)
{
    uint8_t *b = w->buf;
    *len = w->len;
    if (b == NULL)
        b = malloc(1);
    bool big = w->big;
    memset(w, 0, sizeof *w);
    w->big = big;
    return b;
}

void fxw_word(fxw_t *w, uint64_t v)
{
    uint8_t b[8];
    store64(w->big, b, v);
    put_bytes(w, b, 8);
}

void fxw_bytes(fxw_t *w, const void *data, size_t len)
{
    put_bytes(w, data, len);
}

void fxw_stream(fxw_t *w, const void *data, size_t len)
{
    static const uint8_t zero[8];
    put_bytes(w, data, len);
    put_bytes(w, zero, (8 - len % 8) % 8);
}

void fxw_patch(fxw_t *w, size_t pos, uint64_t v)
{
    store64(w->big, w->buf + pos, v);
}

uint64_t fxw_peek(const fxw_t *w, size_t pos)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)w->buf[pos + (w->big ? 7 - i : i)] << (8 * i);
    return v;
}

/* Starts a record: a placeholder header; fxw_end patches in the size. */
static size_t begin(fxw_t *w)
{
    size_t pos = w->len;
    fxw_word(w, 0);
    return pos;
}

static void end(fxw_t *w, size_t pos, uint64_t header)
{
    uint64_t words = (w->len - pos) / 8;
    fxw_patch(w, pos, header | (words & 0xfff) << 4);
}

static void end_large(fxw_t *w, size_t pos, uint64_t header)
{
    uint64_t words = (w->len - pos) / 8;
    fxw_patch(w, pos, header | (words & 0xffffffffu) << 4);
}

static uint64_t sref(fxw_sref_t s)
{
    if (s.str != NULL)
        return 0x8000u | (strlen(s.str) & 0x7fffu);
    return s.index;
}

static void sstream(fxw_t *w, fxw_sref_t s)
{
    if (s.str != NULL)
        fxw_stream(w, s.str, strlen(s.str));
}

static void tstream(fxw_t *w, fxw_tref_t t)
{
    if (t.index == 0) {
        fxw_word(w, t.pid);
        fxw_word(w, t.tid);
    }
}

static void args_out(fxw_t *w, const fxw_arg_t *args, size_t nargs)
{
    for (size_t i = 0; i < nargs; i++) {
        const fxw_arg_t *a = &args[i];
        size_t pos = begin(w);
        uint64_t h = (uint64_t)(a->type & 0xf) | sref(a->name) << 16;
        sstream(w, a->name);
        switch (a->type) {
        case 1:
        case 2:
            h |= (a->u & 0xffffffffu) << 32;
            break;
        case 3:
        case 4:
        case 7:
        case 8:
            fxw_word(w, a->u);
            break;
        case 5: {
            uint64_t v;
            memcpy(&v, &a->d, sizeof v);
            fxw_word(w, v);
            break;
        }
        case 6:
            h |= sref(a->s) << 32;
            sstream(w, a->s);
            break;
        case 9:
            h |= (a->u & 1) << 32;
            break;
        case 10:
            h |= (uint64_t)(uint32_t)a->blob_len << 32;
            fxw_stream(w, a->blob, a->blob_len);
            break;
        case 0:
            break;
        default:
            for (uint64_t k = 0; k < a->u; k++)
                fxw_word(w, 0);
            break;
        }
        end(w, pos, h);
    }
}

void fxw_magic(fxw_t *w)
{
    fxw_word(w, 0x0016547846040010ull);
}

void fxw_provider_info(fxw_t *w, uint32_t id, const char *name)
{
    size_t pos = begin(w);
    size_t len = strlen(name);
    fxw_stream(w, name, len);
    end(w, pos, 0 | 1u << 16 | (uint64_t)id << 20 | (uint64_t)(len & 0xff) << 52);
}

void fxw_provider_section(fxw_t *w, uint32_t id)
{
    size_t pos = begin(w);
    end(w, pos, 0 | 2u << 16 | (uint64_t)id << 20);
}

void fxw_provider_event(fxw_t *w, uint32_t id, uint32_t event)
{
    size_t pos = begin(w);
    end(w, pos, 0 | 3u << 16 | (uint64_t)id << 20 | (uint64_t)(event & 0xf) << 52);
}

void fxw_init_record(fxw_t *w, uint64_t ticks_per_second)
{
    size_t pos = begin(w);
    fxw_word(w, ticks_per_second);
    end(w, pos, 1);
}

void fxw_string(fxw_t *w, uint16_t index, const char *s)
{
    size_t pos = begin(w);
    size_t len = strlen(s);
    fxw_stream(w, s, len);
    end(w, pos, 2 | (uint64_t)(index & 0x7fff) << 16 | (uint64_t)(len & 0x7fff) << 32);
}

void fxw_thread(fxw_t *w, uint8_t index, uint64_t pid, uint64_t tid)
{
    size_t pos = begin(w);
    fxw_word(w, pid);
    fxw_word(w, tid);
    end(w, pos, 3 | (uint64_t)index << 16);
}

void fxw_event(fxw_t *w, uint32_t type, fxw_tref_t thread, fxw_sref_t category, fxw_sref_t name,
               uint64_t ticks, const fxw_arg_t *args, size_t nargs, uint64_t extra)
{
    size_t pos = begin(w);
    fxw_word(w, ticks);
    tstream(w, thread);
    sstream(w, category);
    sstream(w, name);
    args_out(w, args, nargs);
    if (type != 0 && type != 2 && type != 3 && type <= 10)
        fxw_word(w, extra);
    end(w, pos,
        4 | (uint64_t)(type & 0xf) << 16 | (uint64_t)(nargs & 0xf) << 20 |
            (uint64_t)thread.index << 24 | sref(category) << 32 | sref(name) << 48);
}

void fxw_blob(fxw_t *w, fxw_sref_t name, uint32_t blob_type, const void *data, size_t len)
{
    size_t pos = begin(w);
    sstream(w, name);
    fxw_stream(w, data, len);
    end(w, pos,
        5 | sref(name) << 16 | (uint64_t)(len & 0x7fff) << 32 | (uint64_t)(blob_type & 0xff) << 48);
}

void fxw_userspace(fxw_t *w, uint64_t pointer, fxw_tref_t process, fxw_sref_t name,
                   const fxw_arg_t *args, size_t nargs)
{
    size_t pos = begin(w);
    fxw_word(w, pointer);
    tstream(w, process);
    sstream(w, name);
    args_out(w, args, nargs);
    end(w, pos,
        6 | (uint64_t)process.index << 16 | sref(name) << 24 | (uint64_t)(nargs & 0xf) << 40);
}

void fxw_userspace_koid(fxw_t *w, uint64_t pointer, uint64_t process_koid, fxw_sref_t name,
                        const fxw_arg_t *args, size_t nargs)
{
    size_t pos = begin(w);
    fxw_word(w, pointer);
    fxw_word(w, process_koid);
    sstream(w, name);
    args_out(w, args, nargs);
    end(w, pos, 6 | sref(name) << 24 | (uint64_t)(nargs & 0xf) << 40);
}

void fxw_kernel(fxw_t *w, uint64_t koid, uint32_t obj_type, fxw_sref_t name,
                const fxw_arg_t *args, size_t nargs)
{
    size_t pos = begin(w);
    fxw_word(w, koid);
    sstream(w, name);
    args_out(w, args, nargs);
    end(w, pos,
        7 | (uint64_t)(obj_type & 0xff) << 16 | sref(name) << 24 | (uint64_t)(nargs & 0xf) << 40);
}

void fxw_context_switch(fxw_t *w, uint32_t cpu, uint32_t out_state, uint64_t ticks,
                        uint64_t out_tid, uint64_t in_tid, const fxw_arg_t *args, size_t nargs)
{
    size_t pos = begin(w);
    fxw_word(w, ticks);
    fxw_word(w, out_tid);
    fxw_word(w, in_tid);
    args_out(w, args, nargs);
    end(w, pos,
        8 | (uint64_t)(nargs & 0xf) << 16 | (uint64_t)(cpu & 0xffff) << 20 |
            (uint64_t)(out_state & 0xf) << 36 | (uint64_t)1 << 60);
}

void fxw_wakeup(fxw_t *w, uint32_t cpu, uint64_t ticks, uint64_t tid, const fxw_arg_t *args,
                size_t nargs)
{
    size_t pos = begin(w);
    fxw_word(w, ticks);
    fxw_word(w, tid);
    args_out(w, args, nargs);
    end(w, pos, 8 | (uint64_t)(nargs & 0xf) << 16 | (uint64_t)(cpu & 0xffff) << 20 | (uint64_t)2 << 60);
}

void fxw_legacy_switch(fxw_t *w, uint32_t cpu, uint32_t out_state, fxw_tref_t out, fxw_tref_t in,
                       uint32_t out_prio, uint32_t in_prio, uint64_t ticks)
{
    size_t pos = begin(w);
    fxw_word(w, ticks);
    tstream(w, out);
    tstream(w, in);
    end(w, pos,
        8 | (uint64_t)(cpu & 0xff) << 16 | (uint64_t)(out_state & 0xf) << 24 |
            (uint64_t)out.index << 28 | (uint64_t)in.index << 36 | (uint64_t)(out_prio & 0xff) << 44 |
            (uint64_t)(in_prio & 0xff) << 52);
}

void fxw_log(fxw_t *w, uint64_t ticks, fxw_tref_t thread, const char *msg)
{
    size_t pos = begin(w);
    size_t len = strlen(msg);
    fxw_word(w, ticks);
    tstream(w, thread);
    fxw_stream(w, msg, len);
    end(w, pos, 9 | (uint64_t)(len & 0x7fff) << 16 | (uint64_t)thread.index << 32);
}

void fxw_large_blob(fxw_t *w, uint32_t format, fxw_sref_t category, fxw_sref_t name,
                    uint64_t ticks, fxw_tref_t thread, const fxw_arg_t *args, size_t nargs,
                    const void *data, size_t len)
{
    size_t pos = begin(w);
    uint64_t f = sref(category) | sref(name) << 16;
    if (format == 0)
        f |= (uint64_t)(nargs & 0xf) << 32 | (uint64_t)thread.index << 36;
    fxw_word(w, f);
    sstream(w, category);
    sstream(w, name);
    if (format == 0) {
        fxw_word(w, ticks);
        tstream(w, thread);
        args_out(w, args, nargs);
    }
    fxw_word(w, len);
    fxw_stream(w, data, len);
    end_large(w, pos, 15 | (uint64_t)0 << 36 | (uint64_t)(format & 0xf) << 40);
}

void fxw_raw_record(fxw_t *w, uint64_t header_bits, size_t words)
{
    size_t pos = begin(w);
    for (size_t i = 0; i < words; i++)
        fxw_word(w, 0);
    if ((header_bits & 0xf) == 15)
        end_large(w, pos, header_bits);
    else
        end(w, pos, header_bits);
}
