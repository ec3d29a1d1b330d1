/* The CTF stream reader's records across chunks: the stitch buffer (grown on
 * demand up to stitch_bytes, bytes taken and given back), and the records
 * longer than it: packet headers refused, events streamed through a window
 * of the buffer (big_event, big_begin), the interpreter stopping at an
 * instruction boundary and resuming with the next chunk.
 *
 * Included once, by stream.c, before record(), which calls it: static
 * functions in one translation unit. */
#ifndef TRACERD_CTF_STREAM_BIG_H
#define TRACERD_CTF_STREAM_BIG_H

#ifndef TRACERD_CTF_STREAM_C
#error "stream_big.h is part of stream.c: include it there only"
#endif

/* Makes the stitch buffer hold at least n bytes (n <= st_limit): it starts
 * at 1 KiB when a record first straddles chunks and doubles, keeping what it
 * holds, up to stitch_bytes. A reader whose records never straddle, or only
 * small ones, holds little: a directory of thousands of streams has a stitch
 * buffer per stream. E_NOMEM (sticky) when the allocation fails. */
static bool stitch_reserve(tracerd_ctf_stream_t *r, size_t n)
{
    if (n <= r->st_alloc)
        return true;
    size_t c = r->st_alloc ? r->st_alloc : 1024;
    while (c < n)
        c *= 2;
    if (c > r->st_limit)
        c = r->st_limit;
    uint8_t *b = tracerd__calloc(&r->alloc, c);
    if (b == NULL) {
        tracerd__error_set(&r->core.err, TRACERD_E_NOMEM, r->pkt_off + (r->pos >> 3),
                           "out of memory growing the stitch buffer to %zu bytes", c);
        return false;
    }
    if (r->st_have)
        memcpy(b, r->st, r->st_have);
    tracerd__free(&r->alloc, r->st, r->st_alloc);
    r->st = b;
    r->st_alloc = c;
    return true;
}

/* Takes bytes of the chunk into the stitch buffer for the record being
 * gathered: what the last measure said it needs (r->st_need) plus `margin`,
 * never past the packet content or the buffer. Only bytes before the
 * record's end stay in the buffer between calls (see record), so a gathered
 * record never costs more than its own size and no byte is moved twice. */
static int stitch_take(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end,
                       uint64_t start_byte, size_t margin, size_t *taken)
{
    size_t room = r->st_limit - r->st_have, avail = (size_t)(end - *pp);
    uint64_t have = start_byte + r->st_have; /* bytes up to the buffer's end */
    uint64_t want = margin;
    if (r->st_need > have * 8)
        want += (r->st_need - have * 8 + 7) / 8;
    size_t take = avail < room ? avail : room;
    if (take > want)
        take = (size_t)want;
    if (r->content_bits != UINT64_MAX) {
        uint64_t cend = r->content_bits / 8 + (r->content_bits % 8 != 0);
        uint64_t left = cend > have ? cend - have : 0;
        if (take > left)
            take = (size_t)left;
    }
    if (take == 0)
        return R_OK;
    if (!stitch_reserve(r, r->st_have + take))
        return R_ERR;
    memcpy(r->st + r->st_have, *pp, take);
    r->st_have += take;
    *pp += take;
    r->offset += take;
    *taken += take;
    return R_OK;
}

/* A gathered record was gated: give back what this call took, so that the
 * buffer holds only bytes before the record's end. */
static void stitch_untake(tracerd_ctf_stream_t *r, const uint8_t **pp, size_t taken)
{
    if (r->st_have == 0)
        return;
    r->st_have -= taken;
    *pp -= taken;
    r->offset -= taken;
}

/* A record read from the stitch buffer ended `used` bytes into it: the
 * bytes after its end go back to the chunk when this call took them (always,
 * but for the last byte of a record ending inside it, which stays at the
 * buffer's start for the next record), so the next record is read from the
 * chunk again without moving bytes. taken: bytes of the buffer that came
 * from this chunk. */
static void stitch_release(tracerd_ctf_stream_t *r, const uint8_t **pp, size_t used, size_t taken)
{
    size_t left = r->st_have - used;
    if (left <= taken) {
        *pp -= left;
        r->offset -= left;
        r->st_have = 0;
    } else {
        memmove(r->st, r->st + used, left);
        r->st_have = left;
    }
    r->st_need = 0;
}

/* A packet header and context longer than the stitch buffer. */
static int packet_too_big(tracerd_ctf_stream_t *r, struct vm *vm)
{
    return vm_fail(r, vm, NULL, TRACERD_E_LIMIT,
                   "packet header and context is larger than the stitch buffer (%zu bytes)",
                   r->st_limit);
}

/* The program of a streamed event that runs now: header, stream event
 * context, event context, payload. */
static const struct ctf_prog *big_prog(const tracerd_ctf_stream_t *r)
{
    switch (r->big_scope) {
    case 0:
        return &r->srt->event_header;
    case 1:
        return &r->srt->event_context;
    case 2:
        return &r->ev->context;
    default:
        return &r->ev->fields;
    }
}

/* A streamed event: fills the window from the chunk and runs its programs
 * on it, delivering fields as they come; when the window runs out, keeps it
 * from where the interpreter stopped (a value being fragmented: from its
 * next fragment) and fills it again. R_OK when the event was delivered
 * (bytes of the window past its end go back to the chunk, or stay at the
 * window's start for the next record), R_MORE when the chunk is used up,
 * R_ERR. taken: bytes of the window that came from this chunk before. */
static int big_event(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end, bool final,
                     size_t taken)
{
    struct vm *vm = &r->bvm;
    const bool dlv = r->fields;
    const uint64_t content = r->content_bits;
    uint64_t margin = 256; /* taken beyond what the interpreter asked for; doubles */
    for (;;) {
        size_t take = (size_t)(end - *pp), room = r->st_limit - r->st_have;
        if (take > room)
            take = room;
        /* what the last run asked for, plus the margin: bytes past the
         * event's end are handed back, so they are better not copied */
        uint64_t have_bits = (r->win_byte + r->st_have) * 8;
        uint64_t gap = r->big_need > have_bits ? (r->big_need - have_bits + 7) / 8 : 0;
        /* ... but the window at most doubles (plus the margin) before the
         * next run: what the interpreter asks for may be a whole fragment
         * of a string whose NUL it has not seen yet, a few bytes on */
        if (gap > r->st_have)
            gap = r->st_have;
        uint64_t want = margin + gap;
        if (take > want)
            take = (size_t)want;
        if (content != UINT64_MAX) {
            uint64_t cend = content / 8 + (content % 8 != 0), have = r->win_byte + r->st_have;
            uint64_t left = cend > have ? cend - have : 0;
            if (take > left)
                take = (size_t)left;
        }
        if (take != 0) {
            if (!stitch_reserve(r, r->st_have + take))
                return R_ERR;
            memcpy(r->st + r->st_have, *pp, take);
            r->st_have += take;
            *pp += take;
            r->offset += take;
            taken += take;
        }
        vm->data = r->st;
        vm->bit0 = r->win_byte * 8;
        vm->limit = vm->bit0 + (uint64_t)r->st_have * 8;
        if (content != UINT64_MAX && vm->limit >= content) {
            vm->limit = content;
            vm->more_ok = false;
            vm->end_status = TRACERD_E_EXTENT;
        } else {
            vm->more_ok = !final;
            vm->end_status = final ? TRACERD_E_TRUNCATED : TRACERD_E_EXTENT;
        }
        if (vm->more_ok && vm->limit < r->big_need && r->st_have < r->st_limit && *pp == end &&
            vm->limit - r->big_ran < r->big_ran - vm->bit0)
            /* all of the chunk was taken, it is not enough yet, and the
             * window has not doubled since the last run: running again
             * only when it has keeps the rescans of a value that is still
             * arriving (a string's NUL) linear in its length */
            return R_MORE;
        int rc = R_OK;
        while (r->big_scope < 4 && (rc = run(r, vm, big_prog(r), dlv)) == R_OK)
            r->big_scope++;
        rc = batch_end(r, rc); /* on_fields: before the window moves or the event ends */
        if (rc == R_ERR)
            return R_ERR;
        if (rc == R_OK) {
            r->big = false;
            if (r->cb.on_event_end) {
                tracerd_ctf_event_t e;
                event_fill(r, &e, event_ns(r, r->ev_cycles));
                if (event_cb(r, r->cb.on_event_end, &e, "on_event_end") != R_OK)
                    return R_ERR;
            }
            r->pkt_events++;
            stitch_release(r, pp, (size_t)((vm->pos >> 3) - r->win_byte), taken);
            r->pos = vm->pos;
            return R_OK;
        }
        /* R_MORE: the window keeps what the interpreter still needs */
        r->big_need = vm->need;
        r->big_ran = vm->limit;
        if (margin < r->st_limit)
            margin *= 2;
        uint64_t keep = (vm->pos >> 3) + r->fr_in, wend = r->win_byte + r->st_have;
        if (keep > wend)
            keep = wend;
        size_t drop = (size_t)(keep - r->win_byte);
        if (drop == 0 && r->st_have == r->st_limit)
            return vm_fail(r, vm, NULL, TRACERD_E_LIMIT,
                           "a field is larger than the stitch buffer (%zu bytes)", r->st_limit);
        memmove(r->st, r->st + drop, r->st_have - drop);
        r->st_have -= drop;
        r->win_byte += drop;
        taken = taken > r->st_have ? r->st_have : taken;
        if (*pp == end)
            return R_MORE;
    }
}

/* An event longer than the stitch buffer (its header was measured, mvm):
 * the gate, on_event_begin, then its fields while it arrives (big_event). */
static int big_begin(tracerd_ctf_stream_t *r, struct vm *mvm, const uint8_t **pp,
                     const uint8_t *end, bool final, uint64_t start_byte, size_t taken)
{
    if (r->ev == NULL)
        return header_too_big(r, mvm);
    uint64_t ns = event_ns(r, r->ev_cycles);
    if (!event_open(r, ns)) {
        stitch_untake(r, pp, taken);
        return R_MORE;
    }
    if (r->st_have == 0)
        taken = 0;
    r->win_byte = start_byte;
    if (r->cb.on_event_begin) {
        tracerd_ctf_event_t e;
        event_fill(r, &e, ns);
        if (event_cb(r, r->cb.on_event_begin, &e, "on_event_begin") != R_OK)
            return R_ERR;
    }
    memset(&r->bvm, 0, sizeof r->bvm);
    r->bvm.pos = r->pos;
    r->bvm.big = true;
    r->big = true;
    r->big_scope = 0;
    r->big_need = 0;
    r->big_ran = (uint64_t)start_byte * 8;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
    return big_event(r, pp, end, final, taken);
}

#endif /* TRACERD_CTF_STREAM_BIG_H */
