/* FXT reader: the state machine over the caller's chunks (fxt_reader.h):
 * whole records straight from the chunk (the hot loop), the others through
 * the stitch buffer, streamed large blobs, skipped bytes. */
#include "fxt_decode.h"

/* Decides the byte order at the first record and handles magic records in
 * the other byte order. Returns 1 when hp is such a magic record (8 bytes,
 * handled), 0 otherwise, or an error. */
static int other_magic(tracerd_fxt_reader_t *r, const uint8_t *hp, tracerd_status_t *st)
{
    bool le = magic_le(hp), be = magic_be(hp);
    if (!r->order_known) {
        r->order_known = true;
        if (r->cfg.byte_order != TRACERD_BYTE_ORDER_AUTO)
            r->big = r->cfg.byte_order == TRACERD_BYTE_ORDER_BIG;
        else if (le || be)
            r->big = be;
        else
            r->big = r->cfg.assume_byte_order == TRACERD_BYTE_ORDER_BIG;
    }
    if (!(r->big ? le : be))
        return 0;
    /* A magic record in the other byte order. */
    r->what = "magic record";
    r->rec_p = hp;
    r->arg_i = -1;
    r->next_off = r->rec_off + 8;
    if (r->cfg.byte_order != TRACERD_BYTE_ORDER_AUTO) {
        *st = tracerd__fxt_fail(
            r, TRACERD_E_MAGIC,
            "written in %s-endian order but the reader is configured for %s-endian",
            r->big ? "little" : "big", r->big ? "big" : "little");
        if (skippable(r, *st))
            *st = tracerd__fxt_warn(r, 8);
        return 1;
    }
    r->big = !r->big;
    *st = tracerd__fxt_record(r, hp, 8);
    return 1;
}

/* Size in bytes of the record whose header is h; sets *st on an invalid size. */
static uint64_t record_size(tracerd_fxt_reader_t *r, uint64_t h, tracerd_status_t *st)
{
    uint32_t type = (uint32_t)(h & 0xfu);
    r->what = tracerd__fxt_record_what[type];
    r->arg_i = -1;
    uint64_t n =
        type == TRACERD_FXT_RECORD_LARGE ? ((h >> 4) & 0xffffffffu) * 8u : ((h >> 4) & 0xfffu) * 8u;
    if (n == 0) {
        *st = tracerd__fxt_fail(r, TRACERD_E_BAD_RECORD, "size is 0");
        return 0;
    }
    if (type == TRACERD_FXT_RECORD_LARGE && n > r->cfg.max_large_record_bytes) {
        *st = tracerd__fxt_fail(
            r, TRACERD_E_LIMIT, "size (%llu bytes) exceeds max_large_record_bytes (%llu)",
            (unsigned long long)n, (unsigned long long)r->cfg.max_large_record_bytes);
        return n; /* lenient mode skips it by this size */
    }
    *st = TRACERD_OK;
    return n;
}

/* Consumes `k` bytes that were peeked (in the chunk or in the stitch buffer). */
static void take_peeked(tracerd_fxt_reader_t *r, const uint8_t **pos, size_t k)
{
    if (r->st.have != 0)
        tracerd__stitch_drop(&r->st);
    else
        *pos += k;
}

/* Skips the rest of the current record (its first `have` bytes are consumed). */
static void skip_rest(tracerd_fxt_reader_t *r, const uint8_t **pos, size_t peeked)
{
    uint64_t done = r->st.have != 0 ? r->st.have : peeked;
    take_peeked(r, pos, peeked);
    r->skip_left = r->rec_size - done;
    r->state = r->skip_left != 0 ? S_SKIP : S_RECORD;
}

/* S_RECORD on the slow path: the header and the record via the stitch buffer. */
static tracerd_status_t slow_record(tracerd_fxt_reader_t *r, const uint8_t **pos,
                                    const uint8_t *end)
{
    if (r->st.have == 0)
        r->rec_off = r->chunk_off + (uint64_t)(*pos - r->chunk);
    const uint8_t *hp = tracerd__peek(&r->st, pos, end, 8);
    if (hp == NULL)
        return TRACERD_OK;
    tracerd_status_t st = TRACERD_OK;
    if (other_magic(r, hp, &st)) {
        take_peeked(r, pos, 8);
        return st;
    }
    uint64_t h = ld64(r, hp);
    uint64_t n = record_size(r, h, &st);
    if (st != TRACERD_OK) {
        if (!skippable(r, st))
            return st;
        r->rec_size = n == 0 ? 8 : n;
        skip_rest(r, pos, 8);
        return tracerd__fxt_warn(r, r->rec_size);
    }
    r->rec_size = n;
    if (n <= r->st.cap) {
        const uint8_t *p = tracerd__gather(&r->st, pos, end, (size_t)n);
        if (p == NULL)
            return TRACERD_OK;
        return tracerd__fxt_record(r, p, (size_t)n);
    }
    /* A large record above the stitch bound (normal records always fit). */
    uint32_t ltype = (uint32_t)(h >> 36) & 0xfu, format = (uint32_t)(h >> 40) & 0xfu;
    if (ltype != 0 || format > TRACERD_FXT_LARGE_BLOB_NO_METADATA) {
        r->rec_p = hp;
        r->next_off = r->rec_off + n;
        r->what = ltype != 0 ? "large record" : "large blob record";
        skip_rest(r, pos, 8);
        return tracerd__fxt_report_unknown(
            r, ltype != 0 ? TRACERD_FXT_UNKNOWN_LARGE_RECORD : TRACERD_FXT_UNKNOWN_BLOB_FORMAT,
            ltype != 0 ? ltype : format, h, NULL, n);
    }
    r->head_need = 16;
    r->state = S_LARGE_HEAD;
    return TRACERD_OK;
}

/* S_LARGE_HEAD: gathers the head of a streamed large blob, then delivers it. */
static tracerd_status_t large_head(tracerd_fxt_reader_t *r, const uint8_t **pos, const uint8_t *end)
{
    const uint8_t *hp;
    for (;;) {
        size_t need = r->head_need;
        tracerd_status_t st = TRACERD_OK;
        if (need > r->rec_size) {
            r->what = "large blob record";
            r->arg_i = -1;
            st = tracerd__fxt_fail(r, TRACERD_E_EXTENT,
                                   "metadata (%zu bytes) runs past the end of the record", need);
        } else if (need > r->st.cap) {
            r->what = "large blob record";
            r->arg_i = -1;
            st = tracerd__fxt_fail(r, TRACERD_E_LIMIT,
                                   "metadata (%zu bytes) exceeds the stitch bound (%zu)", need,
                                   r->st.cap);
        }
        if (st != TRACERD_OK) {
            if (!skippable(r, st))
                return st;
            skip_rest(r, pos, 0);
            return tracerd__fxt_warn(r, r->rec_size);
        }
        hp = tracerd__peek(&r->st, pos, end, need);
        if (hp == NULL)
            return TRACERD_OK;
        size_t more = tracerd__fxt_large_head_need(r, hp, need, ld64(r, hp));
        if (more <= need)
            break;
        r->head_need = more;
    }
    r->rec_p = hp;
    r->arg_i = -1;
    r->next_off = r->rec_off + r->rec_size;
    tracerd_fxt_large_blob_t b;
    size_t head;
    uint64_t h = ld64(r, hp);
    tracerd_status_t st =
        tracerd__fxt_large_blob_head(r, hp, r->head_need, r->rec_size, h, &b, &head);
    if (st == TRACERD_OK && head != r->head_need) /* defensive: the two walks must agree */
        st = tracerd__fxt_fail(r, TRACERD_E_BAD_RECORD, "metadata is %zu bytes, expected %zu", head,
                               r->head_need);
    if (st != TRACERD_OK) {
        if (!skippable(r, st))
            return st;
        skip_rest(r, pos, r->head_need);
        return tracerd__fxt_warn(r, r->rec_size);
    }
    b.payload.data = b.size == 0 ? hp + head : NULL;
    b.payload.len = 0;
    if (r->unknown_args != 0)
        st = tracerd__fxt_report_unknown_args(r, b.nargs);
    if (st == TRACERD_OK)
        st = CALL(r, on_large_blob, &b);
    take_peeked(r, pos, r->head_need);
    r->pay_total = b.size;
    r->pay_done = 0;
    r->skip_left = r->rec_size - head - b.size;
    r->state = b.size != 0 ? S_LARGE_PAYLOAD : r->skip_left != 0 ? S_SKIP : S_RECORD;
    return st;
}

/* Whole normal records straight from the chunk, while they lie in it:
 * events through event_dec (not exact), the others and the events it
 * bails on through tracerd__fxt_record(). */
static FXT_INLINE tracerd_status_t fast_records(tracerd_fxt_reader_t *r, const uint8_t **ppos,
                                                const uint8_t *end, bool big)
{
    const uint8_t *pos = *ppos;
    tracerd_status_t st = TRACERD_OK;
    /* Absolute offset of pos = base + pos (modulo 2^64). */
    const uint64_t base = r->chunk_off - (uint64_t)(uintptr_t)r->chunk;
    while ((size_t)(end - pos) >= 8) {
        uint64_t h = ldw(big, pos);
        size_t n = (size_t)((h >> 4) & 0xfffu) * 8u;
        uint32_t type = (uint32_t)(h & 0xfu);
        if (TRACERD__UNLIKELY(n == 0 || n > (size_t)(end - pos) ||
                              type == TRACERD_FXT_RECORD_METADATA ||
                              type == TRACERD_FXT_RECORD_LARGE))
            break;
        uint64_t off = base + (uint64_t)(uintptr_t)pos;
        r->rec_off = off;
        if (type == TRACERD_FXT_RECORD_EVENT) {
            int k = event_dec(r, pos, n, h, off, big, false, &st);
            if (TRACERD__LIKELY(k == FAST_DONE)) {
                pos += n;
                continue;
            }
            if (k == FAST_STOP) {
                pos += n;
                break;
            }
        }
        st = tracerd__fxt_record(r, pos, n);
        pos += n;
        if (TRACERD__UNLIKELY(st != TRACERD_OK || r->core.paused))
            break;
    }
    *ppos = pos;
    return st;
}

tracerd_status_t tracerd__fxt_run(tracerd_fxt_reader_t *r, const uint8_t **ppos, const uint8_t *end)
{
    const uint8_t *pos = *ppos;
    tracerd_status_t st = TRACERD_OK;
    while (pos < end) {
        if (r->state == S_RECORD) {
            if (r->st.have == 0 && r->order_known) {
                st = r->big ? fast_records(r, &pos, end, true) : fast_records(r, &pos, end, false);
                if (pos == end || st != TRACERD_OK || r->core.paused)
                    break;
            }
            st = slow_record(r, &pos, end);
        } else if (r->state == S_LARGE_HEAD) {
            st = large_head(r, &pos, end);
        } else if (r->state == S_LARGE_PAYLOAD) {
            size_t avail = (size_t)(end - pos);
            uint64_t left = r->pay_total - r->pay_done;
            size_t take = left < avail ? (size_t)left : avail;
            if (r->cbs.on_large_blob_fragment != NULL) {
                tracerd_span_t sp;
                sp.field = TRACERD_FXT_FIELD_LARGE_BLOB;
                sp.index = 0;
                sp.record_offset = r->rec_off;
                sp.offset = r->pay_done;
                sp.total = r->pay_total;
                sp.data = pos;
                sp.len = take;
                st = CALL(r, on_large_blob_fragment, &sp);
            }
            pos += take;
            r->pay_done += take;
            if (r->pay_done == r->pay_total)
                r->state = r->skip_left != 0 ? S_SKIP : S_RECORD;
        } else { /* S_SKIP */
            size_t avail = (size_t)(end - pos);
            size_t take = r->skip_left < avail ? (size_t)r->skip_left : avail;
            pos += take;
            r->skip_left -= take;
            if (r->skip_left == 0)
                r->state = S_RECORD;
        }
        if (st != TRACERD_OK || r->core.paused)
            break;
    }
    *ppos = pos;
    return st;
}
