/* CTF data stream reader: packets, events and fields decoded by running the
 * compiled programs of the trace model over the caller's chunks.
 *
 * Every record (a packet's header + context, or an event) is first
 * "measured": the programs run without delivering anything, which finds its
 * end, its stream/event class and its timestamp. A record wholly inside the
 * chunk is then delivered straight from the chunk. A packet header and
 * context that straddles chunks is gathered in the stitch buffer first and
 * delivered from there (one longer than the buffer is E_LIMIT in every
 * split). An event that straddles chunks is "streamed" once its header is
 * read: the stitch buffer becomes a window on it, the interpreter delivers
 * its fields as far as the window goes and stops at an instruction
 * boundary, and resumes there with the next chunk (big_event), so an event
 * of any length is read in every split. Strings, text arrays and BLOBs
 * longer than half the stitch buffer come in fragments (frag_value) cut by
 * the data alone, in every path. So a record's callbacks never depend on
 * how the input was cut.
 *
 * The interpreter that runs the programs (field loaders, run_body,
 * fragments) is in stream_vm.h, its compiled fast forms (run_plan, run_fast)
 * in stream_plan.h, the records across chunks (the stitch buffer, streamed
 * events) in stream_big.h, all included below: one concern per file, one
 * translation unit so that it still inlines. The reader's state is
 * stream_state.h; creating, resetting and freeing a reader and its
 * accessors are in stream_life.c. */
#include <math.h>
#include <stdio.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h> /* find_nul (stream_vm.h) */
#endif

#define TRACERD_CTF_STREAM_C
#include "stream_state.h"

/* ==== the interpreter: stream_vm.h, stream_plan.h ========================= */

#include "stream_vm.h"
#include "stream_plan.h"

/* ==== records ============================================================= */

/* A callback returned rc: the reader core's one interpretation (a pause is
 * taken after the record, by step). */
static int cb_ret(tracerd_ctf_stream_t *r, int rc, const char *name)
{
    return tracerd__cb_result(&r->core, rc, name, r->rec_off) < 0 ? R_ERR : R_OK;
}

static uint64_t clock_ns(const struct tracerd_ctf_trace *t, int clock, uint64_t cycles)
{
    if (clock < 0)
        return cycles;
    const tracerd_ctf_clock_t *c = &t->info.clocks[clock];
    /* offset_s seconds + (offset + cycles) / freq, saturating at 0 and UINT64_MAX */
    bool neg = false;
    uint64_t cyc;
    if (c->offset >= 0) {
        if (tracerd__add64_overflows(cycles, (uint64_t)c->offset, &cyc))
            cyc = UINT64_MAX;
    } else {
        uint64_t o = (uint64_t)(-(c->offset + 1)) + 1u;
        if (cycles >= o) {
            cyc = cycles - o;
        } else {
            cyc = o - cycles;
            neg = true;
        }
    }
    uint64_t part;
    if (c->freq == 1000000000u)
        part = cyc;
    else if (c->freq <= UINT64_MAX / 1000000000u)
        part = (cyc / c->freq) * 1000000000u + (cyc % c->freq) * 1000000000u / c->freq;
    else
        part = tracerd__muldiv64(cyc, 1000000000u, c->freq);
    uint64_t base;
    if (c->offset_s >= 0) {
        if ((uint64_t)c->offset_s > UINT64_MAX / 1000000000u)
            return UINT64_MAX;
        base = (uint64_t)c->offset_s * 1000000000u;
        if (neg)
            return base >= part ? base - part : 0;
        uint64_t out;
        return tracerd__add64_overflows(base, part, &out) ? UINT64_MAX : out;
    }
    uint64_t s = (uint64_t)(-(c->offset_s + 1)) + 1u;
    if (s > UINT64_MAX / 1000000000u || neg)
        return 0;
    base = s * 1000000000u;
    return part > base ? part - base : 0;
}

static inline uint64_t event_ns(tracerd_ctf_stream_t *r, uint64_t cycles)
{
    if (r->ns_srt != r->srt) {
        r->ns_srt = r->srt;
        int ck = r->srt->clock;
        const tracerd_ctf_clock_t *c = ck >= 0 ? &r->t->info.clocks[ck] : NULL;
        r->ns_simple = c == NULL || (c->freq == 1000000000u && c->offset >= 0 && c->offset_s >= 0 &&
                                     (uint64_t)c->offset_s < UINT64_MAX / 2000000000u &&
                                     (uint64_t)c->offset < UINT64_MAX / 2);
        r->ns_base = c == NULL ? 0 : (uint64_t)c->offset_s * 1000000000u + (uint64_t)c->offset;
    }
    if (r->ns_simple && cycles < UINT64_MAX - r->ns_base)
        return cycles + r->ns_base;
    return clock_ns(r->t, r->srt->clock, cycles);
}

static inline uint64_t unwrap(uint64_t cur, uint64_t v, uint32_t bits)
{
    if (bits >= 64)
        return v;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t low = cur & mask;
    uint64_t base = cur & ~mask;
    if (v < low)
        base += mask + 1;
    return base | v;
}

/* ---- event steps shared by the general and the fast paths ---------------- */

/* The class of the event whose header was just measured: its id field, or
 * the stream's only class (else id 0). NULL when the id is not declared. */
static inline const struct ctf_event_rt *event_class(const tracerd_ctf_stream_t *r,
                                                     const struct ctf_stream_rt *s, uint64_t *id)
{
    *id = (r->have & (1u << ROLE_EVENT_ID)) ? r->slots[ROLE_EVENT_ID]
          : s->nevents == 1                 ? s->events[0].cls->id
                                            : 0;
    return s->direct ? (*id < s->ndirect ? s->direct[*id] : NULL) : tracerd__ctf_event_rt(s, *id);
}

/* The measured event's time: its header timestamp unwrapped against the
 * stream clock, or the clock when it has none. */
static inline void event_time(tracerd_ctf_stream_t *r)
{
    r->ev_has_ts = (r->have & (1u << ROLE_TIMESTAMP)) != 0;
    r->ev_cycles = r->ev_has_ts ? unwrap(r->clock, r->slots[ROLE_TIMESTAMP], r->ts_bits) : r->clock;
}

/* The gate's answer for the measured event (true: deliver it now). The
 * clock advances only when it is delivered. */
static inline bool event_open(tracerd_ctf_stream_t *r, uint64_t ns)
{
    if (r->gate && ns >= r->gate_below && (r->gate_hold || !r->gate(r->gate_user, ns))) {
        r->gated = true;
        r->gated_ns = ns;
        return false;
    }
    r->clock = r->ev_cycles;
    return true;
}

size_t tracerd_ctf_event_size(void)
{
    return sizeof(tracerd_ctf_event_t);
}

/* The measured event's record shape (tracerd_ctf_event_t.shape). */
static inline uint32_t event_shape(const tracerd_ctf_stream_t *r)
{
    const struct ctf_event_rt *ev = r->ev;
    const uint32_t dlv = r->shape_scopes;
    if (TRACERD__UNLIKELY((ev->shape_vary & dlv) != 0))
        return 0;
    return ev->shape + ((ev->shape_hdr2 & dlv) != 0 && r->ts_bits == 64);
}

/* The measured event's own members (event_fill_packet made the others). */
static inline void event_fill_own(const tracerd_ctf_stream_t *r, tracerd_ctf_event_t *e,
                                  uint64_t ns)
{
    e->offset = r->rec_off;
    e->cls = r->ev->cls;
    e->id = e->cls->id;
    e->name = e->cls->name;
    e->cycles = r->ev_cycles;
    e->ns = ns;
    e->has_clock = r->srt->clock >= 0 || r->ev_has_ts || r->clock_set;
    e->shape = event_shape(r);
    e->values_set = r->ev->vset;
}

/* The measured event as the callbacks see it. */
static inline void event_fill(const tracerd_ctf_stream_t *r, tracerd_ctf_event_t *e, uint64_t ns)
{
    event_fill_packet(r, e);
    event_fill_own(r, e, ns);
}

/* on_event_begin / on_event_end (fn not NULL). */
static inline int event_cb(tracerd_ctf_stream_t *r, tracerd_ctf_event_cb fn,
                           const tracerd_ctf_event_t *e, const char *name)
{
    r->core.in_cb = true;
    int rc = fn(r->core.user, e);
    r->core.in_cb = false;
    return rc == 0 ? R_OK : cb_ret(r, rc, name);
}

/* The start of an event a chunk loop (fast_events, plan_events) delivers:
 * e's own members filled (the loop filled the packet's once, by
 * event_fill_packet), on_event_begin (on_begin not NULL). Whether the loop
 * goes on: not after an error (*rc R_ERR). */
static inline bool event_begin(tracerd_ctf_stream_t *r, tracerd_ctf_event_cb on_begin,
                               tracerd_ctf_event_t *e, uint64_t ns, int *rc)
{
    event_fill_own(r, e, ns);
    if (on_begin && event_cb(r, on_begin, e, "on_event_begin") != R_OK) {
        *rc = R_ERR;
        return false;
    }
    return true;
}

/* The end of an event a chunk loop (fast_events, plan_events) delivered:
 * on_event_end (on_end not NULL), the event counted, r->pos after it (pos).
 * Whether the loop goes on: not after an error (*rc R_ERR) or a pause. */
static inline bool event_end(tracerd_ctf_stream_t *r, tracerd_ctf_event_cb on_end,
                             const tracerd_ctf_event_t *e, uint64_t pos, int *rc)
{
    if (on_end && event_cb(r, on_end, e, "on_event_end") != R_OK) {
        *rc = R_ERR;
        return false;
    }
    r->pkt_events++;
    r->pos = pos;
    return !r->core.paused;
}

/* Measures the packet header + context (pass 1) or delivers its fields. */
static int packet_programs(tracerd_ctf_stream_t *r, struct vm *vm, bool dlv)
{
    const struct tracerd_ctf_trace *t = r->t;
    if (!dlv)
        r->have = 0;
    int rc = run(r, vm, &t->packet_header, dlv);
    if (rc != R_OK)
        return rc;
    if (!dlv) {
        if ((r->have & (1u << ROLE_MAGIC)) && r->slots[ROLE_MAGIC] != PACKET_MAGIC)
            return vm_fail(r, vm, NULL, TRACERD_E_MAGIC,
                           "packet magic is 0x%08llx, expected 0xc1fc1fc1",
                           (unsigned long long)r->slots[ROLE_MAGIC]);
        if (r->cfg.check_uuid && t->info.has_uuid && (r->have & (1u << ROLE_UUID)) &&
            memcmp(r->uuid, t->info.uuid, 16) != 0)
            return vm_fail(r, vm, NULL, TRACERD_E_MAGIC,
                           "packet header uuid differs from the trace uuid");
        uint64_t sid = (r->have & (1u << ROLE_STREAM_ID)) ? r->slots[ROLE_STREAM_ID]
                       : t->info.nstreams == 1            ? t->info.streams[0]->id
                                                          : 0;
        r->srt = tracerd__ctf_stream_rt(t, sid);
        if (r->srt == NULL)
            return vm_fail(r, vm, NULL, TRACERD_E_REFERENCE,
                           "stream id %llu is not declared in the metadata",
                           (unsigned long long)sid);
        r->hdr_inline = hdr_inline_of(r->srt);
    }
    return run(r, vm, &r->srt->packet_context, dlv);
}

/* Event header, then the event class and the timestamp (measure only). */
/* An event header longer than the stitch buffer (r->ev NULL: its class is
 * not known yet). */
static int header_too_big(tracerd_ctf_stream_t *r, struct vm *vm)
{
    r->ev = NULL;
    return vm_fail(r, vm, NULL, TRACERD_E_LIMIT,
                   "event header is larger than the stitch buffer (%zu bytes)", r->st_limit);
}

static int event_header_measure(tracerd_ctf_stream_t *r, struct vm *vm)
{
    const struct ctf_stream_rt *s = r->srt;
    r->have &= ~((1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP));
    r->ev = NULL;
    uint64_t start = vm->pos;
    /* An event header must fit the stitch buffer (it is measured whole
     * before anything of its event is delivered: the class and the time are
     * in it): read at most that many bytes of it, also when more lie in the
     * chunk, so that a longer one is E_LIMIT in every split. */
    const uint64_t limit = vm->limit, cap = (start >> 3 << 3) + (uint64_t)r->st_limit * 8;
    const bool more_ok = vm->more_ok, capped = limit > cap;
    if (TRACERD__UNLIKELY(capped)) {
        vm->limit = cap;
        vm->more_ok = true;
    }
    const struct ctf_insn *hf = s->event_header.fast;
    int rc = hf == NULL ? run(r, vm, &s->event_header, false)
             : hf->op == OP_LTTNG_COMPACT || hf->op == OP_LTTNG_LARGE
                 ? lttng_measure(r, vm, hf, vm->pos)
                 : run_fast(r, vm, hf);
    if (rc == R_ERR && s->event_header.fast) {
        vm->pos = start; /* the full program names the field at fault */
        rc = run(r, vm, &s->event_header, false);
    }
    if (TRACERD__UNLIKELY(capped)) {
        vm->limit = limit;
        vm->more_ok = more_ok;
        if (rc == R_MORE)
            return header_too_big(r, vm);
    }
    if (rc != R_OK)
        return rc;
    uint64_t id;
    r->ev = event_class(r, s, &id);
    if (r->ev == NULL)
        return vm_fail(r, vm, NULL, TRACERD_E_REFERENCE,
                       "event id %llu is not declared in stream %llu", (unsigned long long)id,
                       (unsigned long long)s->cls->id);
    event_time(r);
    return R_OK;
}

/* Contexts and fields after the header: measure (dlv false) or deliver. */
static int event_body(tracerd_ctf_stream_t *r, struct vm *vm, bool dlv)
{
    const struct ctf_stream_rt *s = r->srt;
    uint64_t start = vm->pos;
    if (!dlv && r->ev->body_fast) {
        int rc = run_fast(r, vm, r->ev->body_fast);
        if (rc != R_ERR)
            return rc;
        vm->pos = start; /* the full programs name the field at fault */
    }
    int rc = run(r, vm, &s->event_context, dlv);
    if (rc == R_OK)
        rc = run(r, vm, &r->ev->context, dlv);
    if (rc == R_OK)
        rc = run(r, vm, &r->ev->fields, dlv);
    return rc;
}

static int event_programs(tracerd_ctf_stream_t *r, struct vm *vm, bool dlv)
{
    if (!dlv) {
        int rc = event_header_measure(r, vm);
        return rc == R_OK ? event_body(r, vm, false) : rc;
    }
    int rc = run(r, vm, &r->srt->event_header, true);
    return rc == R_OK ? event_body(r, vm, true) : rc;
}

static int emit_loss(tracerd_ctf_stream_t *r, tracerd_ctf_loss_kind_t kind, uint64_t count,
                     uint64_t begin, uint64_t end, bool has_clock)
{
    if (r->cb.on_loss == NULL)
        return R_OK;
    tracerd_ctf_loss_t l = {r->pkt_off, kind, count, r->srt->cls->id, begin, end, has_clock};
    r->core.in_cb = true;
    int rc = r->cb.on_loss(r->core.user, &l);
    r->core.in_cb = false;
    return cb_ret(r, rc, "on_loss");
}

/* A warning, delivered at once: a CTF warning is about one packet (a
 * lenient skip runs to the packet's end, whose on_packet_end follows), so
 * two are never consecutive; it still goes through the reader core's run
 * (count 1, size set, as every reader's). */
static int warn_now(tracerd_ctf_stream_t *r, const tracerd_warning_t *w)
{
    if (cb_ret(r, tracerd__warn(&r->core, r->cb.on_warning, w), "on_warning") != R_OK)
        return R_ERR;
    return cb_ret(r, tracerd__warn_flush(&r->core, r->cb.on_warning), "on_warning");
}

/* A packet header uuid differs from the trace's, check_uuid off (the
 * default: babeltrace2 and yactfr read such traces): one warning per stream. */
static int uuid_warning(tracerd_ctf_stream_t *r)
{
    r->uuid_warned = true;
    if (r->cb.on_warning == NULL)
        return R_OK;
    char reason[TRACERD__REASON_MAX];
    tracerd__format(reason, sizeof reason,
                    "packet %llu: packet header uuid differs from the trace uuid (read on; "
                    "reported once per stream; check_uuid makes it an error)",
                    (unsigned long long)r->pkt_index);
    tracerd_warning_t w = tracerd__warning(TRACERD_E_MAGIC, r->pkt_off, 0, reason);
    return warn_now(r, &w);
}

/* vm made ready to deliver from pos: nothing on its stacks, no streaming. */
static inline void vm_rewind(struct vm *vm, uint64_t pos)
{
    vm->bo_end = 0;
    vm->pos = pos;
    vm->sp = vm->depth = vm->pc = 0;
    vm->more_ok = false;
}

/* A copy of the measuring vm that delivers what it measured: from the
 * record's start. */
static struct vm delivery_vm(const tracerd_ctf_stream_t *r, const struct vm *vm)
{
    struct vm d = *vm;
    vm_rewind(&d, r->pos);
    return d;
}

/* Packet measured: check sizes, report losses and the packet. */
static int packet_deliver(tracerd_ctf_stream_t *r, struct vm *vm)
{
    uint32_t h = r->have;
    uint64_t *s = r->slots;
    uint64_t content = (h & (1u << ROLE_CONTENT_SIZE)) ? s[ROLE_CONTENT_SIZE] : UINT64_MAX;
    uint64_t size = (h & (1u << ROLE_PACKET_SIZE)) ? s[ROLE_PACKET_SIZE] : UINT64_MAX;
    if (size == UINT64_MAX && content != UINT64_MAX)
        size = (content + 7) & ~(uint64_t)7;
    if (content == UINT64_MAX && size != UINT64_MAX)
        content = size;
    if (size != UINT64_MAX) {
        if (size % 8 != 0 || size / 8 > r->cfg.max_packet_bytes || size == 0)
            return vm_fail(r, vm, NULL, size % 8 ? TRACERD_E_BAD_RECORD : TRACERD_E_LIMIT,
                           "packet_size %llu bits is not a byte multiple or exceeds "
                           "max_packet_bytes",
                           (unsigned long long)size);
        if (content > size)
            return vm_fail(r, vm, NULL, TRACERD_E_EXTENT,
                           "content_size %llu bits is beyond packet_size %llu bits",
                           (unsigned long long)content, (unsigned long long)size);
        if (vm->pos > content)
            return vm_fail(r, vm, NULL, TRACERD_E_EXTENT,
                           "packet header and context (%llu bits) run past content_size %llu "
                           "bits",
                           (unsigned long long)vm->pos, (unsigned long long)content);
    }
    r->content_bits = content;
    r->packet_bits = size;
    if (!r->uuid_warned && r->t->info.has_uuid && (h & (1u << ROLE_UUID)) &&
        memcmp(r->uuid, r->t->info.uuid, 16) != 0 && uuid_warning(r) != R_OK)
        return R_ERR;
    int clock = r->srt->clock;
    bool has_clock = clock >= 0 || (h & (1u << ROLE_TS_BEGIN));
    if (h & (1u << ROLE_TS_BEGIN)) {
        r->clock = s[ROLE_TS_BEGIN];
        r->clock_set = true;
    }
    /* losses against the previous packet of this stream */
    if (r->prev) {
        if ((h & (1u << ROLE_DISCARDED))) {
            uint64_t mask =
                r->discarded_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << r->discarded_bits) - 1;
            uint64_t diff = (s[ROLE_DISCARDED] - r->prev_discarded) & mask;
            if (diff != 0 &&
                emit_loss(r, TRACERD_CTF_LOSS_EVENTS, diff, r->prev_ts_end,
                          (h & (1u << ROLE_TS_END)) ? s[ROLE_TS_END] : r->clock, has_clock) != R_OK)
                return R_ERR;
        }
        if ((h & (1u << ROLE_SEQ_NUM)) && s[ROLE_SEQ_NUM] > r->prev_seq + 1 &&
            emit_loss(r, TRACERD_CTF_LOSS_PACKETS, s[ROLE_SEQ_NUM] - r->prev_seq - 1,
                      r->prev_ts_end, r->clock, has_clock) != R_OK)
            return R_ERR;
    }
    r->prev = true;
    r->prev_discarded = s[ROLE_DISCARDED];
    r->prev_seq = s[ROLE_SEQ_NUM];
    r->prev_ts_end = (h & (1u << ROLE_TS_END)) ? s[ROLE_TS_END] : r->clock;
    if (r->cb.on_packet_begin) {
        tracerd_ctf_packet_t p;
        memset(&p, 0, sizeof p);
        p.offset = r->pkt_off;
        p.index = r->pkt_index;
        p.stream_class = r->srt->cls;
        p.stream_id = r->srt->cls->id;
        p.has_stream_instance_id = (h & (1u << ROLE_STREAM_INSTANCE_ID)) != 0;
        p.stream_instance_id = p.has_stream_instance_id ? s[ROLE_STREAM_INSTANCE_ID] : 0;
        p.content_size_bits = content;
        p.packet_size_bits = size;
        p.has_timestamp_begin = (h & (1u << ROLE_TS_BEGIN)) != 0;
        p.timestamp_begin = p.has_timestamp_begin ? s[ROLE_TS_BEGIN] : 0;
        p.has_timestamp_end = (h & (1u << ROLE_TS_END)) != 0;
        p.timestamp_end = p.has_timestamp_end ? s[ROLE_TS_END] : 0;
        p.ns_begin = p.has_timestamp_begin ? clock_ns(r->t, clock, p.timestamp_begin) : 0;
        p.ns_end = p.has_timestamp_end ? clock_ns(r->t, clock, p.timestamp_end) : 0;
        p.has_events_discarded = (h & (1u << ROLE_DISCARDED)) != 0;
        p.events_discarded = p.has_events_discarded ? s[ROLE_DISCARDED] : 0;
        p.has_packet_seq_num = (h & (1u << ROLE_SEQ_NUM)) != 0;
        p.packet_seq_num = p.has_packet_seq_num ? s[ROLE_SEQ_NUM] : 0;
        p.has_cpu_id = (h & (1u << ROLE_CPU_ID)) != 0;
        p.cpu_id = p.has_cpu_id ? s[ROLE_CPU_ID] : 0;
        r->core.in_cb = true;
        int rc = r->cb.on_packet_begin(r->core.user, &p);
        r->core.in_cb = false;
        if (cb_ret(r, rc, "on_packet_begin") != R_OK)
            return R_ERR;
    }
    if (r->fields) {
        struct vm d = delivery_vm(r, vm);
        if (batch_end(r, packet_programs(r, &d, true)) != R_OK)
            return R_ERR;
    }
    r->pkt_events = 0;
    event_fill_packet(r, &r->fe);
    return R_OK;
}

/* The scopes after an event's header: one delivery plan per event class. */
#define BODY_SCOPES                                                                                \
    ((1u << TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT) | (1u << TRACERD_CTF_SCOPE_EVENT_CONTEXT) |    \
     (1u << TRACERD_CTF_SCOPE_EVENT_FIELDS))

/* The measured event: on_event_begin, its fields, on_event_end. failing:
 * the measure failed; the callbacks up to the error (by the general path),
 * then R_ERR. */
static int event_deliver(tracerd_ctf_stream_t *r, struct vm *vm, bool failing)
{
    uint64_t ns = event_ns(r, r->ev_cycles);
    if (!event_open(r, ns))
        return R_MORE;
    tracerd_ctf_event_t e;
    event_fill(r, &e, ns);
    if (r->cb.on_event_begin && event_cb(r, r->cb.on_event_begin, &e, "on_event_begin") != R_OK)
        return R_ERR;
    if (r->fields) {
        struct vm d = delivery_vm(r, vm);
        int rc;
        /* a failing event takes the general path (delivered up to its
         * error whatever the split); a plan delivers a long value in
         * fragments as the general path does */
        if (!failing && r->ev->plan != NULL && (r->scopes & BODY_SCOPES) == BODY_SCOPES) {
            /* every scope of the body wanted: the plans (the body's was
             * only made when no byte order can change inside a byte in the
             * whole event); a header not wanted is measured again (by the
             * full program: it stores every value the body may use) */
            rc = !(r->scopes >> TRACERD_CTF_SCOPE_EVENT_HEADER & 1u)
                     ? run(r, &d, &r->srt->event_header, false)
                 : r->srt->hform[0].recs != NULL ? run_lttng_header(r, &d)
                 : r->srt->header_plan != NULL   ? run_plan(r, &d, r->srt->header_plan)
                                                 : run(r, &d, &r->srt->event_header, true);
            if (rc == R_OK)
                rc = run_plan(r, &d, r->ev->plan);
        } else {
            rc = event_programs(r, &d, true);
        }
        if (batch_end(r, rc) != R_OK)
            return R_ERR;
        vm->pos = d.pos;
    }
    if (failing)
        return R_ERR;
    if (r->cb.on_event_end && event_cb(r, r->cb.on_event_end, &e, "on_event_end") != R_OK)
        return R_ERR;
    r->pkt_events++;
    return R_OK;
}

/* Whether plan_events may deliver the events of the packet: every scope of
 * an event wanted (the header by its LTTng form, the body by the plans), no
 * fast path to try first. */
static inline bool plan_events_ok(const tracerd_ctf_stream_t *r)
{
    const struct ctf_stream_rt *s = r->srt;
    const uint32_t all = BODY_SCOPES | 1u << TRACERD_CTF_SCOPE_EVENT_HEADER;
    const struct ctf_insn *hf = s->event_header.fast;
    return !r->fast_ok && (r->scopes & all) == all && s->hform[0].recs != NULL && hf != NULL &&
           (hf->op == OP_LTTNG_COMPACT || hf->op == OP_LTTNG_LARGE);
}

/* plan_events' turn to the merge's other stream (below, after fast_turn). */
static inline bool plan_turn(struct tracerd__ctf_merge *m, tracerd_ctf_stream_t **rp, struct vm *vm,
                             const uint8_t ***ppp, uint64_t ns, uint64_t start_byte);

/* An event's body given to the located callback (located.h), after its
 * header's records (below, after fixed_measure). */
static int plan_located(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_event_rt *ev);
enum { R_LOC_NO = R_ERR + 1 }; /* plan_located: declined, or not located */

/* The events of a packet whose content ends in the chunk (vm: from r->pos
 * to the content's end, read from the chunk), when plan_events_ok: each
 * LTTng header measured, then the event delivered by its header form and
 * its plan (as event_deliver does, with this vm as the delivery's), one
 * after another. It stops before an event it does not take (a header cut
 * short, a class without a plan: the general path measures and delivers
 * it, and reports its error), at the content's end, after a pause, a gated
 * event (R_MORE) or an error (R_ERR); r->pos, *pp and r->offset are after
 * the last event delivered. m (the directory's merge, from feed_merged; NULL
 * from record): an event held back when the other stream waits with an
 * event its own plan loop held back passes the turn to that loop (plan_turn)
 * without returning; r, vm and pp are then the other stream's, what is
 * returned is about it. */
static int plan_events(tracerd_ctf_stream_t *r, struct vm *vm, const uint8_t **pp,
                       struct tracerd__ctf_merge *m)
{
turn:;
    const struct ctf_stream_rt *s = r->srt;
    const struct ctf_insn *hf = s->event_header.fast;
    const tracerd_ctf_event_cb on_begin = r->cb.on_event_begin, on_end = r->cb.on_event_end;
    const uint64_t start_byte = vm->bit0 >> 3;
    int rc = R_OK;
    /* (on the stack: the reader's own, r->fe, made dump 1.5 % slower in CPU
     * time on ctf-writer with fewer instructions) */
    tracerd_ctf_event_t ee, *const e = &ee;
    event_fill_packet(r, e);
    while (r->pos < vm->limit) {
        const uint64_t ev_start = r->pos;
        r->rec_off = r->pkt_off + (ev_start >> 3);
        const struct ctf_event_rt *ev;
        uint64_t ns;
        if (r->plan_held && r->held_pos == ev_start && r->held_pkt == r->pkt_off) {
            /* the event the gate held back: measured then (its header's
             * values, class and time are still the reader's: nothing ran) */
            r->plan_held = false;
            ev = r->ev;
            ns = r->held_ns;
        } else {
            r->have &= ~((1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP));
            r->ev = NULL;
            if (lttng_measure(r, vm, hf, ev_start) != R_OK)
                break; /* the general path measures it again (the full program's error) */
            uint64_t id;
            ev = event_class(r, s, &id);
            if (ev == NULL || ev->plan == NULL)
                break;
            r->ev = ev;
            event_time(r);
            ns = event_ns(r, r->ev_cycles);
        }
        if (!event_open(r, ns)) {
            r->plan_held = true;
            r->held_pos = ev_start;
            r->held_pkt = r->pkt_off;
            r->held_ns = ns;
            rc = R_MORE; /* gated: nothing of it consumed */
            if (m != NULL && plan_turn(m, &r, vm, &pp, ns, start_byte))
                goto turn; /* the other stream's loop, from its held event */
            break;
        }
        if (!event_begin(r, on_begin, e, ns, &rc))
            break;
        vm_rewind(vm, ev_start);
        rc = run_lttng_header(r, vm);
        if (rc == R_OK && (r->located == NULL || ev->body_fixed == NULL ||
                           (rc = plan_located(r, vm, ev)) == R_LOC_NO))
            rc = run_plan(r, vm, ev->plan);
        if (batch_end(r, rc) != R_OK) {
            rc = R_ERR;
            break;
        }
        if (!event_end(r, on_end, e, vm->pos, &rc)) /* (past its header: never empty) */
            break;
    }
    uint64_t used = (r->pos >> 3) - start_byte;
    *pp += used;
    r->offset += used;
    return rc;
}

/* ==== records across chunks: stream_big.h ================================= */

#include "stream_big.h"

/* Decodes one record (packet header+context, or event) starting at r->pos.
 * Returns R_OK (delivered; r->pos advanced, *p advanced), R_MORE (all input
 * taken into the stitch buffer, or gated), or R_ERR. final: no more input.
 * A record that straddles chunks is gathered in the stitch buffer, which
 * then holds only bytes of that record (it was cut by the chunk's end, and
 * bytes taken beyond it are given back when it is gated or delivered): the
 * next record is read from the chunk again, without moving bytes. */
static int record(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end, bool final)
{
    const bool is_packet = r->state == S_PACKET;
    uint64_t start_byte = r->pos >> 3;
    uint64_t content = r->content_bits;
    struct vm vm;
    size_t taken = 0, margin = 256;
    int rc;
    bool in_chunk = false;  /* an event read from the chunk, the packet's content end in it */
    bool plan_left = false; /* plan_events left the event at r->pos */
gather:
    memset(&vm, 0, sizeof vm);
    vm.bit0 = start_byte * 8;
    vm.pos = r->pos;
    vm.end_status = final ? TRACERD_E_TRUNCATED : TRACERD_E_EXTENT;
    if (r->st_have == 0) {
        vm.data = *pp;
        vm.limit = vm.bit0 + (uint64_t)(end - *pp) * 8;
    } else {
        if (stitch_take(r, pp, end, start_byte, margin, &taken) != R_OK)
            return R_ERR;
        vm.data = r->st;
        vm.limit = vm.bit0 + (uint64_t)r->st_have * 8;
        if (vm.limit < r->st_need && !final && *pp == end)
            return R_MORE;
    }
    if (content != UINT64_MAX && vm.limit >= content) {
        vm.limit = content;
        vm.end_status = TRACERD_E_EXTENT;
        vm.more_ok = false;
    } else {
        vm.more_ok = !final;
    }
    r->rec_off = r->pkt_off + start_byte;
    if (is_packet)
        r->ev = NULL;
    if (!is_packet && r->fields && !vm.more_ok) {
        /* The event cannot need more input: measure the header only, then
         * deliver (the delivery pass finds the end). */
        in_chunk = r->st_have == 0 && content != UINT64_MAX;
        if (in_chunk && !plan_left && plan_events_ok(r)) {
            rc = plan_events(r, &vm, pp, NULL);
            if (rc != R_OK || r->pos >= content || r->core.paused)
                return rc;
            plan_left = true; /* the event it left: the general path, below */
            start_byte = r->pos >> 3;
            goto gather;
        }
        plan_left = false;
        rc = event_header_measure(r, &vm);
        if (rc != R_OK)
            return rc;
        vm.pos = r->pos;
        rc = event_deliver(r, &vm, false);
        if (rc == R_MORE) /* gated */
            stitch_untake(r, pp, taken);
        if (rc != R_OK)
            return rc;
        goto delivered;
    }
    rc = is_packet ? packet_programs(r, &vm, false) : event_programs(r, &vm, false);
    if (rc == R_MORE && !is_packet && r->ev != NULL)
        /* an event that straddles chunks, its header read: delivered while
         * it arrives (measuring it again for each chunk would be quadratic
         * in its length, and it may be longer than the stitch buffer) */
        return big_begin(r, &vm, pp, end, final, start_byte, taken);
    if (rc == R_MORE && r->st_have != 0 && *pp < end && r->st_have < r->st_limit &&
        vm.need > vm.limit) {
        /* more of the chunk is needed: take it (with a growing margin) and measure again */
        r->st_need = vm.need;
        margin *= 2;
        goto gather;
    }
    if (rc == R_MORE) {
        /* Longer than the stitch buffer: a packet header and context is an
         * error (as when it lies in one chunk, below), an event is
         * delivered while it arrives. */
        if (r->st_have == 0) {
            size_t n = (size_t)(end - *pp);
            if (n > r->st_limit)
                return is_packet ? packet_too_big(r, &vm)
                                 : big_begin(r, &vm, pp, end, final, start_byte, 0);
            if (!stitch_reserve(r, n))
                return R_ERR;
            memcpy(r->st, *pp, n);
            r->st_have = n;
            *pp += n;
            r->offset += n;
        } else if (r->st_have == r->st_limit) {
            return is_packet ? packet_too_big(r, &vm)
                             : big_begin(r, &vm, pp, end, final, start_byte, taken);
        }
        r->st_need = vm.need;
        if (r->st_have == r->st_limit && vm.need > vm.bit0 + (uint64_t)r->st_limit * 8)
            return is_packet ? packet_too_big(r, &vm)
                             : big_begin(r, &vm, pp, end, final, start_byte, taken);
        return R_MORE;
    }
    if (rc != R_OK) {
        /* The same callbacks as a delivery straight from the chunk (or a
         * streamed event) would have given, then the same error. */
        if (!is_packet && r->ev != NULL) {
            vm.pos = r->pos;
            vm.more_ok = false;
            rc = event_deliver(r, &vm, true);
            if (rc == R_MORE) { /* gated */
                stitch_untake(r, pp, taken);
                return R_MORE;
            }
        }
        return R_ERR;
    }
    if (is_packet) {
        uint64_t end_pos = vm.pos;
        if (((end_pos + 7) >> 3) - start_byte > r->st_limit)
            return packet_too_big(r, &vm); /* the same error in every split */
        rc = packet_deliver(r, &vm);
        vm.pos = end_pos;
    } else {
        rc = event_deliver(r, &vm, false);
        if (rc == R_MORE) { /* gated: nothing consumed */
            stitch_untake(r, pp, taken);
            return R_MORE;
        }
    }
    if (rc != R_OK)
        return rc;
delivered:;
    uint64_t new_pos = vm.pos;
    if (!is_packet && new_pos == r->pos) {
        /* Nothing in its header, contexts or fields: reading would never end. */
        vm.pos = r->pos;
        return vm_fail(r, &vm, NULL, TRACERD_E_BAD_RECORD,
                       "the event is empty (0 bits); the stream cannot advance");
    }
    uint64_t used = (new_pos >> 3) - start_byte;
    if (r->st_have == 0) {
        *pp += used;
        r->offset += used;
    } else {
        stitch_release(r, pp, (size_t)used, taken);
    }
    r->pos = new_pos;
    if (is_packet)
        r->state = S_EVENTS;
    else if (in_chunk && new_pos < content && !r->core.paused && !r->fast_ok) {
        /* the next event lies in the chunk too: read here, as step would
         * (not the packet's end, no pause, no fast path to try first) */
        start_byte = new_pos >> 3;
        goto gather;
    }
    return R_OK;
}

static tracerd_status_t packet_end(tracerd_ctf_stream_t *r)
{
    r->state = S_PADDING;
    if (r->cb.on_packet_end) {
        tracerd_ctf_packet_end_t e = {r->pkt_off, r->pkt_index, r->pkt_events};
        r->rec_off = r->pkt_off;
        r->core.in_cb = true;
        int rc = r->cb.on_packet_end(r->core.user, &e);
        r->core.in_cb = false;
        if (cb_ret(r, rc, "on_packet_end") != R_OK)
            return r->core.err.status;
    }
    return TRACERD_OK;
}

static tracerd_status_t lenient_skip(tracerd_ctf_stream_t *r)
{
    tracerd_status_t st = r->core.err.status;
    if (!r->cfg.lenient_skip_packets || st == TRACERD_E_CALLBACK || st == TRACERD_E_NOMEM ||
        r->state != S_EVENTS || r->packet_bits == UINT64_MAX)
        return st;
    uint64_t pkt_end = r->pkt_off + r->packet_bits / 8;
    if (r->cb.on_warning) {
        tracerd_warning_t w = tracerd__warning(
            st, r->core.err.offset, pkt_end > r->core.err.offset ? pkt_end - r->core.err.offset : 0,
            r->core.err.reason);
        r->rec_off = r->core.err.offset;
        if (warn_now(r, &w) != R_OK)
            return TRACERD_E_CALLBACK;
    }
    tracerd__error_clear(&r->core.err);
    r->err_path[0] = '\0';
    r->st_have = 0;
    r->st_need = 0;
    r->ev = NULL;
    r->big = false;
    r->fr_in = r->fr_out = 0;
    r->fr_done = false;
    return packet_end(r);
}

/* fast_events' contexts (field_scopes asks for one or both event contexts,
 * nothing else), decoded again from their start after the measure checked
 * the whole event: by their plans when the event has one (no byte order
 * can change inside a byte in it), else by the general interpreter. */
static int fast_contexts(tracerd_ctf_stream_t *r, struct vm *c, const struct ctf_event_rt *ev)
{
    const struct ctf_stream_rt *s = r->srt;
    if (ev->plan != NULL && (s->event_context.code == NULL || s->sec_plan != NULL)) {
        const bool sec = r->scopes >> TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT & 1u;
        const bool ec =
            ev->context.code != NULL && (r->scopes >> TRACERD_CTF_SCOPE_EVENT_CONTEXT & 1u);
        int rc = R_OK;
        if (s->event_context.code != NULL && (sec || ec))
            rc = sec ? run_plan(r, c, s->sec_plan) : run(r, c, &s->event_context, false);
        if (rc == R_OK && ec)
            rc = run_plan(r, c, ev->ctx_plan);
        return rc;
    }
    int rc = run(r, c, &s->event_context, true);
    return rc == R_OK ? run(r, c, &ev->context, true) : rc;
}

/* A fixed segment's stored integers into their slots, its aligned start at
 * p (in the input: the caller checked). `wide`: every one is little-endian
 * and 8 bytes from each are in the input, so each is one 8-byte read and
 * two shifts, without a dispatch on its size. */
static TRACERD__INLINE void fixed_loads(uint64_t *slots, const uint8_t *p,
                                        const struct ctf_fseg *sg, bool wide)
{
    const struct ctf_fload *ld = sg->ld, *e = ld + sg->nld;
    if (wide) {
        do {
            uint64_t v = tracerd__le64(p + ld->off) << ld->shift >> ld->shift;
            slots[ld->slot] = (v ^ ld->sign) - ld->sign;
        } while (++ld < e);
    } else {
        do {
            uint64_t v = load_fixed(ld->op, p + ld->off);
            slots[ld->slot] = (v ^ ld->sign) - ld->sign;
        } while (++ld < e);
    }
}

/* Measures an event of a class of fixed segments (ctf_event_rt.body_fixed)
 * from vm->pos, its stored integers loaded at their offsets (the input's
 * bytes end at bit `avail`): the bit after it, or UINT64_MAX when a part of
 * it lies past vm->limit or a sequence is longer than max_sequence_length
 * (the general path then reads the event and says why). L (a constant NULL
 * in the measure-only copy): where its parts begin, and the lengths of its
 * strings and sequences (located.h); UINT64_MAX too when it has more than
 * TRACERD__CTF_LOC_SEGS segments, a part begins inside a byte or a string
 * is longer than a fragment (then its records are made). */
static TRACERD__INLINE uint64_t fixed_measure(tracerd_ctf_stream_t *r, const struct vm *vm,
                                              const struct ctf_fseg *sg, uint64_t avail,
                                              tracerd__ctf_located_t *L)
{
    uint64_t pos = vm->pos, bits = 0; /* (L: the parts' starts ORed: inside a byte?) */
    uint32_t k = 0;
    if (L != NULL)
        L->seqs = 0;
    for (;; sg++, k++) {
        const uint64_t b = (pos + sg->amask) & ~(uint64_t)sg->amask;
        if (b + sg->bits > vm->limit || (L != NULL && k == TRACERD__CTF_LOC_SEGS))
            return UINT64_MAX;
        pos = b + sg->bits;
        if (sg->nld != 0) /* b is byte-aligned (compile_fast.c, fixed_segments) */
            fixed_loads(r->slots, vm->data + ((b - vm->bit0) >> 3), sg, sg->reach <= avail - b);
        if (L != NULL) {
            bits |= b;
            L->at[2 * k] = b;
            L->len[k] = 0;
        }
        if (sg->end == FSEG_END) {
            if (L != NULL) {
                L->at[2 * k + 1] = pos;
                L->nseg = k + 1;
                if (((bits | pos) & 7) != 0)
                    return UINT64_MAX;
                for (uint32_t i = 0; i < 2 * k + 2; i++)
                    L->at[i] = r->pkt_off + (L->at[i] >> 3);
            }
            return pos;
        }
        const uint64_t at = (pos + sg->next_amask) & ~(uint64_t)sg->next_amask;
        if (L != NULL) {
            bits |= at;
            L->at[2 * k + 1] = at;
        }
        if (sg->end == FSEG_STRING) {
            const uint8_t *p, *z = string_nul(vm, at, &p);
            if (z == NULL || (L != NULL && (uint64_t)(z - p) > r->frag))
                return UINT64_MAX;
            pos = at + ((uint64_t)(z - p) + 1) * 8;
            if (L != NULL)
                L->len[k] = (uint64_t)(z - p);
        } else { /* FSEG_SEQ */
            uint64_t n = r->slots[sg->len_slot];
            if (n > r->cfg.max_sequence_length || !seq_fits(at, n, sg->elem, vm->limit))
                return UINT64_MAX;
            pos = at + n * sg->elem;
            if (L != NULL) {
                L->len[k] = n;
                L->seqs |= (uint32_t)1 << k;
            }
        }
    }
}

/* An event of plan_events whose header's records are in the batch, its
 * body of fixed segments (ev->body_fixed) from vm->pos: located and given
 * to the located callback with those records. R_OK (the client wrote it;
 * vm->pos after it, the batch empty) or R_ERR (its callback failed), or
 * R_LOC_NO: declined, or not located (its records are to be made, as
 * without the callback: the measure changed nothing but value slots, which
 * the plan stores again). */
static int plan_located(tracerd_ctf_stream_t *r, struct vm *vm, const struct ctf_event_rt *ev)
{
    tracerd__ctf_located_t *L = r->loc; /* (set with the callback) */
    const uint64_t after = fixed_measure(r, vm, ev->body_fixed, vm->limit, L);
    if (after == UINT64_MAX || after + 64 > vm->limit) /* (the 8 bytes after it too) */
        return R_LOC_NO;
    L->data = vm->data;
    L->off = r->pkt_off + (vm->bit0 >> 3);
    L->form = &r->srt->hform[r->ts_bits == 64];
    r->core.in_cb = true;
    int rc = r->located(r->core.user, r->batch, r->batch_n, L);
    r->core.in_cb = false;
    if (rc == TRACERD__CTF_LOC_DECLINED)
        return R_LOC_NO;
    r->batch_n = 0; /* (the header form's records stay kept in their slots) */
    vm->pos = after;
    if (TRACERD__LIKELY(rc == TRACERD_CB_CONTINUE) ||
        tracerd__cb_result(&r->core, rc, "on_fields", r->rec_off) >= 0)
        return R_OK;
    r->err_path[0] = '\0';
    return R_ERR;
}

/* The turn from the merge m's running side, whose reader r held back an
 * event at time ns, to the other side, which waits with its next event
 * held back by its own event loop: the bytes r used since start_byte are
 * taken, its side held at ns, the other's gate bound set as the
 * directory's would be (its next event before ns, or at ns when its index
 * is the lower). Returns the other side, now the running one. */
static inline struct tracerd__ctf_side *
merge_turn(struct tracerd__ctf_merge *m, tracerd_ctf_stream_t *r, uint64_t ns, uint64_t start_byte)
{
    struct tracerd__ctf_side *c = m->side[m->k], *o = m->side[m->k ^ 1];
    uint64_t used = (r->pos >> 3) - start_byte;
    c->p += used;
    r->offset += used;
    c->held = true;
    c->ns = ns;
    o->held = false;
    m->k ^= 1;
    *m->cur = (int32_t)o->index;
    tracerd_ctf_stream_t *q = o->r;
    q->gate_below = ns + (o->index < c->index);
    q->gate_hold = true;
    q->gated = false;
    return o;
}

/* fast_events held back an event at time ns of *rp (of the merge m's
 * running side): when the merge's other stream waits with its next event
 * held back by its own event loop, and ns is not UINT64_MAX (the gate then
 * decides, which takes the directory's state), the turn goes to it
 * (merge_turn) and *rp, *ppp, *endp are made its. Whether the turn went
 * over. */
static inline bool fast_turn(struct tracerd__ctf_merge *m, tracerd_ctf_stream_t **rp,
                             const uint8_t ***ppp, const uint8_t **endp, uint64_t ns,
                             uint64_t start_byte)
{
    struct tracerd__ctf_side *o = m->side[m->k ^ 1];
    if (o == NULL || !o->r->held || ns == UINT64_MAX)
        return false;
    merge_turn(m, *rp, ns, start_byte);
    *rp = o->r;
    *ppp = &o->p;
    *endp = o->end;
    return true;
}

/* What feed_merged needs to enter an event loop straight with r's bytes p
 * to end: in a packet's events, nothing stitched or streamed, bytes to
 * read, no pause, callback or error. */
static inline bool loop_entry_ok(const tracerd_ctf_stream_t *r, const uint8_t *p,
                                 const uint8_t *end)
{
    return r->state == S_EVENTS && !r->big && r->st_have == 0 && p != end && !r->core.paused &&
           !r->core.in_cb && r->core.err.status >= 0;
}

/* Whether plan_events may go on, from feed_merged or a turn, with r's held
 * event (plan_held, at r->pos), its bytes from p to end: in a packet's
 * events, nothing stitched or streamed, the packet's content ending in
 * them (as record() calls plan_events), no pause, callback or error. */
static inline bool plan_entry_ok(const tracerd_ctf_stream_t *r, const uint8_t *p,
                                 const uint8_t *end)
{
    return r->plan_held && r->held_pos == r->pos && r->held_pkt == r->pkt_off &&
           loop_entry_ok(r, p, end) && r->content_bits != UINT64_MAX &&
           (r->pos >> 3) * 8 + (uint64_t)(end - p) * 8 >= r->content_bits && plan_events_ok(r);
}

/* The vm record() makes for plan_events (plan_entry_ok holds): from r->pos,
 * its bytes at p, up to the packet's content end. */
static inline void plan_vm(const tracerd_ctf_stream_t *r, struct vm *vm, const uint8_t *p)
{
    memset(vm, 0, sizeof *vm);
    vm->bit0 = (r->pos >> 3) * 8;
    vm->data = p;
    vm->pos = r->pos;
    vm->limit = r->content_bits;
    vm->end_status = TRACERD_E_EXTENT;
    vm->more_ok = false;
}

/* plan_events held back an event at time ns of *rp (the merge m's running
 * side): as fast_turn, the turn goes to the other stream when its plan loop
 * held back an event of its own (plan_entry_ok) and ns is not UINT64_MAX;
 * *rp, *vm and *ppp are made its. Whether the turn went over. */
static inline bool plan_turn(struct tracerd__ctf_merge *m, tracerd_ctf_stream_t **rp, struct vm *vm,
                             const uint8_t ***ppp, uint64_t ns, uint64_t start_byte)
{
    struct tracerd__ctf_side *o = m->side[m->k ^ 1];
    if (o == NULL || ns == UINT64_MAX || !plan_entry_ok(o->r, o->p, o->end))
        return false;
    merge_turn(m, *rp, ns, start_byte);
    plan_vm(o->r, vm, o->p);
    *rp = o->r;
    *ppp = &o->p;
    return true;
}

/* The hot path: while the rest of the packet's content is in the chunk and
 * nobody wants fields, events are measured with the fast programs and
 * delivered in a tight loop. Anything unusual (an error, a class without a
 * fast program) leaves the loop; the general path then handles that event. */
static int fast_events(tracerd_ctf_stream_t *r, const uint8_t **pp, const uint8_t *end,
                       struct tracerd__ctf_merge *m)
{
turn:;
    const struct ctf_stream_rt *s = r->srt;
    uint64_t start_byte = r->pos >> 3;
    struct vm vm;
    memset(&vm, 0, sizeof vm);
    vm.data = *pp;
    vm.bit0 = start_byte * 8;
    uint64_t avail = vm.bit0 + (uint64_t)(end - *pp) * 8;
    /* Events wholly inside the chunk: one that runs past its end (R_MORE)
     * leaves the loop and is gathered by the general path. */
    vm.limit = avail < r->content_bits ? avail : r->content_bits;
    vm.more_ok = avail < r->content_bits;
    vm.end_status = TRACERD_E_EXTENT;
    vm.pos = r->pos;
    const struct ctf_insn *hdr = s->event_header.fast;
    const int hdr_inline = r->hdr_inline;
    tracerd_ctf_event_cb on_begin = r->cb.on_event_begin, on_end = r->cb.on_event_end;
    tracerd_ctf_event_t *const e = &r->fe; /* its packet's members made by packet_deliver */
    int rc = R_OK;
    while (vm.pos < vm.limit) {
        uint64_t ev_start = vm.pos, sctx_pos, ns;
        const struct ctf_event_rt *ev;
        r->rec_off = r->pkt_off + (vm.pos >> 3);
        if (r->held && r->held_pos == vm.pos && r->held_pkt == r->pkt_off) {
            /* the event the gate held back: measured then */
            r->held = false;
            ev = r->held_ev;
            r->ev = ev;
            sctx_pos = r->held_sctx;
            vm.pos = r->held_end;
            r->ev_cycles = r->held_cycles;
            r->ev_has_ts = r->held_has_ts;
            ns = r->held_ns;
            goto measured;
        }
        uint64_t at = (vm.pos + 7) & ~(uint64_t)7;
        /* an inline header's id, and its time (event_time with the
         * timestamp's width known); both UINT64_MAX after run_fast */
        uint64_t id = UINT64_MAX, cycles = UINT64_MAX;
        if (hdr_inline == 1 && at + 32 <= vm.limit) {
            /* the most common headers, inline: little-endian compact (LTTng
             * kernel) ... */
            uint32_t w = tracerd__le32(vm.data + ((at - vm.bit0) >> 3));
            if ((w & 31u) == 31u)
                goto general_header;
            r->slots[ROLE_EVENT_ID] = id = w & 31u;
            r->slots[ROLE_TIMESTAMP] = w >> 5;
            cycles = unwrap(r->clock, w >> 5, 27);
            r->ts_bits = 27;
            r->have |= (1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP);
            vm.pos = at + 32;
        } else if (hdr_inline == 2 && at + 48 <= vm.limit) {
            /* ... and large (LTTng-UST): 16-bit id, 32-bit timestamp */
            const uint8_t *h = vm.data + ((at - vm.bit0) >> 3);
            uint32_t id16 = tracerd__le16(h);
            if (id16 == 65535u)
                goto general_header;
            r->slots[ROLE_EVENT_ID] = id = id16;
            r->slots[ROLE_TIMESTAMP] = tracerd__le32(h + 2);
            cycles = unwrap(r->clock, r->slots[ROLE_TIMESTAMP], 32);
            r->ts_bits = 32;
            r->have |= (1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP);
            vm.pos = at + 48;
        } else {
        general_header:
            r->have &= ~((1u << ROLE_EVENT_ID) | (1u << ROLE_TIMESTAMP));
            if (run_fast(r, &vm, hdr) != R_OK ||
                ((vm.pos + 7) >> 3) - (ev_start >> 3) > r->st_limit)
                break; /* an error, or a header over the stitch buffer: the general path */
        }
        /* (ndirect is 0 without a direct table) */
        ev = id < s->ndirect ? s->direct[id] : event_class(r, s, &id);
        if (ev == NULL || ev->body_fast == NULL)
            break;
        r->ev = ev;
        sctx_pos = vm.pos;
        const struct ctf_fseg *bx = ev->body_fixed;
        if (bx != NULL) {
            /* a class of fixed segments (fields at offsets fixed once the
             * segment's first is aligned, between strings and sequences):
             * measured here, its stored integers (value slots) loaded at
             * their offsets */
            uint64_t after = fixed_measure(r, &vm, bx, avail, NULL);
            if (after == UINT64_MAX || after == ev_start)
                break; /* past the content or the chunk, too long, or empty: the general path */
            vm.pos = after;
        } else if (run_fast(r, &vm, ev->body_fast) != R_OK || vm.pos == ev_start) {
            break; /* an error or an empty event: the general path reports it */
        }
        if (cycles != UINT64_MAX) {
            r->ev_has_ts = true;
            r->ev_cycles = cycles;
        } else {
            event_time(r); /* (also an inline header's time that is UINT64_MAX: the same) */
        }
        ns = event_ns(r, r->ev_cycles);
    measured:
        if (!event_open(r, ns)) {
            r->held = true;
            r->held_pos = ev_start;
            r->held_pkt = r->pkt_off;
            r->held_end = vm.pos;
            r->held_sctx = sctx_pos;
            r->held_ev = ev;
            r->held_cycles = r->ev_cycles;
            r->held_has_ts = r->ev_has_ts;
            r->held_ns = ns;
            rc = R_MORE;
            if (m != NULL && fast_turn(m, &r, &pp, &end, ns, start_byte))
                goto turn; /* the other stream's loop, from its held event */
            break;
        }
        if (!event_begin(r, on_begin, e, ns, &rc))
            break;
        if (r->fast_ctx) {
            /* the contexts asked for, decoded again from their start (the
             * measure above checked the whole event) */
            struct vm c = vm;
            c.pos = sctx_pos;
            c.sp = c.depth = c.pc = 0;
            c.more_ok = false;
            if (batch_end(r, fast_contexts(r, &c, ev)) != R_OK) {
                rc = R_ERR;
                break;
            }
        }
        if (!event_end(r, on_end, e, vm.pos, &rc))
            break;
    }
    uint64_t used = (r->pos >> 3) - start_byte;
    *pp += used;
    r->offset += used;
    return rc;
}

/* The loop shared by feed and finish. */
static tracerd_status_t step(tracerd_ctf_stream_t *r, const uint8_t *data, size_t len,
                             size_t *consumed, bool final)
{
    const uint8_t *p = data, *end = data != NULL ? data + len : data; /* NULL + 0 is UB */
    tracerd_status_t st = TRACERD_OK;
    r->gated = false;
    for (;;) {
        if (r->core.paused) {
            /* A callback paused: reported at once, also when its record ended
             * the chunk (core.h). */
            st = TRACERD_PAUSED;
            break;
        }
        if (r->state == S_PACKET) {
            if (p == end && r->st_have == 0)
                break;
            if (r->st_have == 0) {
                r->pkt_off = r->offset;
                r->pos = 0;
                r->content_bits = r->packet_bits = UINT64_MAX;
            }
            int rc = record(r, &p, end, final);
            if (rc == R_MORE)
                break;
            if (rc == R_ERR) {
                st = r->core.err.status;
                break;
            }
            continue;
        }
        if (r->state == S_EVENTS) {
            if (r->big) { /* an event longer than the stitch buffer, arriving */
                int rc = big_event(r, &p, end, final, 0);
                if (rc == R_MORE) {
                    if (r->core.paused)
                        st = TRACERD_PAUSED; /* a callback of this call paused */
                    break;
                }
                if (rc == R_ERR) {
                    st = lenient_skip(r);
                    if (st != TRACERD_OK)
                        break;
                }
                continue;
            }
            if (r->content_bits != UINT64_MAX && r->pos >= r->content_bits && r->st_have == 0) {
                st = packet_end(r);
                if (st != TRACERD_OK)
                    break;
                continue;
            }
            if (final && r->content_bits == UINT64_MAX && r->st_have != 0 &&
                (r->pos >> 3) + r->st_have == ((r->pos + 7) >> 3) && (r->pos & 7) != 0) {
                /* only the unused bits of the last byte are left: padding */
                r->pos += 8 - (r->pos & 7);
                r->st_have = 0;
            }
            if (p == end && r->st_have == 0) {
                /* no packet size: the stream is one packet, ended by the input */
                if (final && r->content_bits == UINT64_MAX) {
                    st = packet_end(r);
                    r->state = S_END;
                    if (st == TRACERD_OK && r->core.paused)
                        st = TRACERD_PAUSED;
                }
                break;
            }
            if (r->fast_ok && r->st_have == 0 && p != end && r->srt->event_header.fast != NULL) {
                uint64_t before = r->pos;
                int frc = fast_events(r, &p, end, NULL);
                if (frc == R_ERR) {
                    st = r->core.err.status;
                    break;
                }
                if (frc == R_MORE) {
                    st = TRACERD_PAUSED;
                    r->core.paused = true;
                    break;
                }
                if (r->pos != before)
                    continue; /* packet end, pause, or an event for the general path */
            }
            int rc = record(r, &p, end, final);
            if (rc == R_MORE) {
                if (r->gated || r->core.paused) {
                    st = TRACERD_PAUSED; /* gated, or a streamed event's callback paused */
                    r->core.paused = true;
                }
                break;
            }
            if (rc == R_ERR) {
                st = lenient_skip(r);
                if (st != TRACERD_OK)
                    break;
                continue;
            }
            continue;
        }
        if (r->state == S_PADDING) {
            uint64_t pkt_end =
                r->packet_bits == UINT64_MAX ? r->offset : r->pkt_off + r->packet_bits / 8;
            uint64_t left = pkt_end > r->offset ? pkt_end - r->offset : 0;
            size_t n = (size_t)(end - p);
            if (n > left)
                n = (size_t)left;
            p += n;
            r->offset += n;
            if (r->offset >= pkt_end) {
                r->state = S_PACKET;
                r->pkt_index++;
                continue;
            }
            break;
        }
        break; /* S_END */
    }
    if (consumed)
        *consumed = (size_t)(p - data);
    return st;
}

tracerd_status_t tracerd_ctf_stream_feed(tracerd_ctf_stream_t *r, const void *data, size_t len,
                                         size_t *consumed)
{
    if (consumed)
        *consumed = 0;
    tracerd_status_t guard = tracerd__feed_guard(r != NULL ? &r->core : NULL, data, len);
    if (guard != TRACERD_OK)
        return guard;
    static const uint8_t none[1] = {0};
    if (len == 0)
        data = none;
    if (r->state == S_END && len) {
        r->rec_off = r->offset;
        return tracerd__error_set(&r->core.err, TRACERD_E_EXTENT, r->offset,
                                  "data after the end of a stream without packet sizes");
    }
    return step(r, data, len, consumed, false);
}

/* (feed_merged past its event loop: the rest of c's bytes, by step as it
 * goes on when the loop ran (delivered something), else all of them by the
 * feed) */
static TRACERD__NOINLINE tracerd_status_t feed_rest(tracerd_ctf_stream_t *r,
                                                    struct tracerd__ctf_side *c, bool ran)
{
    size_t used = 0, len = (size_t)(c->end - c->p);
    tracerd_status_t st =
        ran ? step(r, c->p, len, &used, false) : tracerd_ctf_stream_feed(r, c->p, len, &used);
    c->p += used;
    if (st == TRACERD_PAUSED && r->gated) {
        r->core.paused = false; /* (not the user's pause: nothing to resume) */
        c->held = true;
        c->ns = r->gated_ns;
    }
    return st;
}

/* feed_merged after an event loop (fast_events or plan_events) that began
 * on side k0 at data returned rc: about the side running now (a turn to the
 * other stream may have happened: its loop delivered its held event), held
 * (R_MORE: PAUSED), failed, or fed the rest of its bytes by step. */
static tracerd_status_t merged_end(struct tracerd__ctf_merge *m, int rc, uint32_t k0,
                                   const uint8_t *data)
{
    const bool ran = m->k != k0 || m->side[k0]->p != data;
    struct tracerd__ctf_side *c = m->side[m->k];
    tracerd_ctf_stream_t *r = c->r;
    if (rc == R_MORE) { /* the gate held an event back */
        c->held = true;
        c->ns = r->gated_ns;
        return TRACERD_PAUSED;
    }
    if (rc == R_ERR)
        return r->core.err.status;
    return feed_rest(r, c, ran);
}

tracerd_status_t tracerd__ctf_stream_feed_merged(struct tracerd__ctf_merge *m)
{
    struct tracerd__ctf_side *c = m->side[m->k];
    tracerd_ctf_stream_t *r = c->r;
    r->gate_below = c->below;
    r->gate_hold = c->hold;
    c->held = false;
    /* An event held back by plan_events: its loop again, straight (with
     * turns to the other stream's) */
    if (plan_entry_ok(r, c->p, c->end)) {
        r->gated = false;
        const uint32_t k0 = m->k;
        const uint8_t *const data = c->p;
        struct vm vm;
        plan_vm(r, &vm, c->p);
        return merged_end(m, plan_events(r, &vm, &c->p, m), k0, data);
    }
    /* An event held back by fast_events (r->held) was in a packet's events,
     * nothing stitched or streamed, no pause, callback or error: it still is
     * (nothing ran since) */
    if (!(r->held && c->p != c->end) &&
        !(loop_entry_ok(r, c->p, c->end) && r->fast_ok && r->pos < r->content_bits &&
          r->srt->event_header.fast != NULL))
        return feed_rest(r, c, false);
    /* step's first turn, straight: the event loop from the held event */
    r->gated = false;
    const uint32_t k0 = m->k;
    const uint8_t *const data = c->p;
    return merged_end(m, fast_events(r, &c->p, c->end, m), k0, data);
}

tracerd_status_t tracerd_ctf_stream_resume(tracerd_ctf_stream_t *r)
{
    return tracerd__resume(r != NULL ? &r->core : NULL);
}

tracerd_status_t tracerd_ctf_stream_finish(tracerd_ctf_stream_t *r)
{
    tracerd_status_t st = tracerd__finish_guard(r != NULL ? &r->core : NULL);
    if (st != TRACERD_OK)
        return st;
    static const uint8_t none[1] = {0};
    st = step(r, none, 0, NULL, true);
    if (st != TRACERD_OK)
        return st;
    if (r->state == S_PACKET && r->st_have != 0)
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->pkt_off,
                                  "input ends inside the packet header at byte %llu",
                                  (unsigned long long)r->pkt_off);
    if (r->state == S_EVENTS && r->content_bits != UINT64_MAX) {
        r->rec_off = r->pkt_off;
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->pkt_off,
                                  "packet at byte %llu: content_size is %llu bits but the input "
                                  "ends after %llu bytes of it",
                                  (unsigned long long)r->pkt_off,
                                  (unsigned long long)r->content_bits,
                                  (unsigned long long)(r->offset - r->pkt_off));
    }
    if (r->state == S_EVENTS && r->st_have != 0)
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->rec_off,
                                  "input ends inside the event at byte %llu",
                                  (unsigned long long)r->rec_off);
    if (r->state == S_PADDING && r->packet_bits != UINT64_MAX &&
        r->offset < r->pkt_off + r->packet_bits / 8) {
        r->rec_off = r->pkt_off;
        return tracerd__error_set(&r->core.err, TRACERD_E_TRUNCATED, r->pkt_off,
                                  "packet at byte %llu: packet_size is %llu bytes but the input "
                                  "ends after %llu bytes of it",
                                  (unsigned long long)r->pkt_off,
                                  (unsigned long long)(r->packet_bits / 8),
                                  (unsigned long long)(r->offset - r->pkt_off));
    }
    return TRACERD_OK;
}

/* The public ops table; no new_reader (a stream reader needs its trace). */
TRACERD__READER_OPS_NO_NEW(tracerd_ctf_stream, "ctf-stream", tracerd_ctf_stream_t, NULL)
