/* tracerd info / dump for xtrace: .xinsndata.bin token streams and
 * .xsnapshot.bin register snapshots. Detection: snapshot files by content
 * (tracerd_xtrace_detect), with the file name as tie-breaker; token streams
 * have no magic, so by name only, with a modest score. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <tracerd/xtrace.h>

#include "cli.h"
#include "hexfmt.h"
#include "textrun.h"

/* ---- detection ---------------------------------------------------------- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* File kind from the name: exact scheme, or just the suffix. */
tracerd_xtrace_file_kind_t cli_xtrace_name_kind(const char *path, bool *exact)
{
    tracerd_xtrace_filename_t f;
    *exact = false;
    if (path == NULL)
        return TRACERD_XTRACE_FILE_UNKNOWN;
    if (tracerd_xtrace_parse_filename(path, &f) == TRACERD_OK) {
        *exact = true;
        return f.kind;
    }
    if (ends_with(path, ".xinsndata.bin"))
        return TRACERD_XTRACE_FILE_INSNDATA;
    if (ends_with(path, ".xsnapshot.bin"))
        return TRACERD_XTRACE_FILE_SNAPSHOT;
    return TRACERD_XTRACE_FILE_UNKNOWN;
}

static int detect(const uint8_t *head, size_t n, const char *path, bool is_dir)
{
    if (is_dir)
        return 0;
    bool exact;
    tracerd_xtrace_file_kind_t k = cli_xtrace_name_kind(path, &exact);
    int content = tracerd_xtrace_detect(head, n); /* snapshot files only */
    if (k == TRACERD_XTRACE_FILE_SNAPSHOT)        /* the name breaks a tie with another format */
        return content ? content + 10 : exact ? 35 : 25;
    if (k == TRACERD_XTRACE_FILE_INSNDATA) {
        /* A stream usually starts with a PCINST (the PC is unknown before). */
        bool pcinst = n > 0 && (head[0] & 0x3f) == 0x09;
        return (exact ? 30 : 20) + (pcinst ? 5 : 0);
    }
    return content;
}

/* Which reader: the name decides, else the content. */
static bool is_snapshot(const cli_t *c)
{
    bool exact;
    tracerd_xtrace_file_kind_t k = cli_xtrace_name_kind(c->path, &exact);
    if (k != TRACERD_XTRACE_FILE_UNKNOWN)
        return k == TRACERD_XTRACE_FILE_SNAPSHOT;
    return tracerd_xtrace_detect(c->head, c->head_len) > 0;
}

/* ---- xtrace ---------------------------------------------------------------- */

struct xtrace_cfgs {
    tracerd_xtrace_insn_config_t *ic;
    tracerd_xtrace_snap_config_t *sc;
};

/* Keys: header (0|19|24|32), vl, svl (bits), p (block|per-reg), za (yes|no),
 * fixed (yes|no), order (little|big), detect (1..8), advance (yes|no), ident
 * (number), time (1..16), iov (auto|interleaved|grouped|headers-only), iov_probe
 * (bytes, 64..16777216), mem_log2
 * (0..15), pc (initial PC), start_offset, start_index, padding (yes|no),
 * truncated (yes|no). The reader checks the ranges when it is made. */
static bool xtrace_item(void *p, const char *kv, const char *v)
{
    struct xtrace_cfgs *x = p;
    tracerd_xtrace_insn_config_t *ic = x->ic;
    tracerd_xtrace_snap_config_t *sc = x->sc;
    char *end;
    unsigned long long n = strtoull(v, &end, 0);
    bool num = *v != '\0' && *v != '-' && *end == '\0';
    bool yes = strcmp(v, "yes") == 0, no = strcmp(v, "no") == 0;
    if (strcmp(kv, "header") == 0 && num)
        sc->header_bytes = (int32_t)n;
    else if (strcmp(kv, "vl") == 0 && num)
        sc->vector_length_bits = (uint32_t)n;
    else if (strcmp(kv, "svl") == 0 && num)
        sc->streaming_vector_length_bits = (uint32_t)n;
    else if (strcmp(kv, "p") == 0 && (strcmp(v, "block") == 0 || strcmp(v, "per-reg") == 0))
        sc->p_layout = v[0] == 'b' ? TRACERD_XTRACE_P_BLOCK : TRACERD_XTRACE_P_PER_REG;
    else if (strcmp(kv, "za") == 0 && (yes || no))
        sc->za = yes ? TRACERD_XTRACE_YES : TRACERD_XTRACE_NO;
    else if (strcmp(kv, "fixed") == 0 && (yes || no))
        sc->fixed_max = yes ? TRACERD_XTRACE_YES : TRACERD_XTRACE_NO;
    else if (strcmp(kv, "order") == 0 && (strcmp(v, "little") == 0 || strcmp(v, "big") == 0))
        sc->byte_order = v[0] == 'l' ? TRACERD_BYTE_ORDER_LITTLE : TRACERD_BYTE_ORDER_BIG;
    else if (strcmp(kv, "detect") == 0 && num)
        sc->detect_records = (uint32_t)n;
    else if (strcmp(kv, "advance") == 0 && (yes || no))
        sc->check_advance = yes;
    else if (strcmp(kv, "ident") == 0 && num)
        sc->expect_ident = (uint32_t)n;
    else if (strcmp(kv, "time") == 0 && num)
        ic->time_payload_bytes = (uint32_t)n;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "interleaved") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_INTERLEAVED;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "grouped") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_GROUPED;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "headers-only") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_HEADERS_ONLY;
    else if (strcmp(kv, "iov") == 0 && strcmp(v, "auto") == 0)
        ic->iov_layout = TRACERD_XTRACE_IOV_AUTO;
    else if (strcmp(kv, "iov_probe") == 0 && num)
        ic->iov_probe_bytes = (uint32_t)n;
    else if (strcmp(kv, "mem_log2") == 0 && num)
        ic->max_mem_log2 = (uint32_t)n;
    else if (strcmp(kv, "pc") == 0 && num) {
        ic->has_initial_pc = true;
        ic->initial_pc = n;
    } else if (strcmp(kv, "start_offset") == 0 && num)
        ic->start_offset = n;
    else if (strcmp(kv, "start_index") == 0 && num)
        ic->start_index = n;
    else if (strcmp(kv, "padding") == 0 && (yes || no))
        ic->allow_trailing_zero_padding = yes;
    else if (strcmp(kv, "truncated") == 0 && (yes || no))
        ic->allow_truncated_tail = sc->allow_truncated_tail = yes;
    else
        return false;
    return true;
}

static int cli_config_xtrace(const cli_t *c, tracerd_xtrace_insn_config_t *ic,
                             tracerd_xtrace_snap_config_t *sc)
{
    tracerd_xtrace_insn_config_init(ic);
    tracerd_xtrace_snap_config_init(sc);
    /* A damaged tail: zero padding and a record cut short are warnings. */
    ic->allow_trailing_zero_padding = c->lenient;
    ic->allow_truncated_tail = sc->allow_truncated_tail = c->lenient;
    struct xtrace_cfgs x = {ic, sc};
    /* TRACERD_XTRACE="key=value,..." first, then -o xtrace.key=value */
    return cli_for_items(c, "xtrace.", "TRACERD_XTRACE", xtrace_item, &x) ? CLI_EXIT_OK
                                                                          : CLI_EXIT_USAGE;
}

/* -o xtrace.KEY=VALUE and TRACERD_XTRACE for the event view (struct
 * cli_format.options; the event view reads instruction streams). The
 * readers check the ranges when they are made: both are made once here, so
 * that a value out of range is a usage error naming where it came from. */
static int options(const cli_t *c, cli_config_store_t *store, tracerd_auto_config_t *cfg)
{
    struct xtrace_both {
        tracerd_xtrace_insn_config_t ic;
        tracerd_xtrace_snap_config_t sc;
    };
    _Static_assert(sizeof(struct xtrace_both) <= sizeof(cli_config_store_t), "store");
    struct xtrace_both *x = (struct xtrace_both *)(void *)store;
    tracerd_xtrace_insn_config_t ic;
    tracerd_xtrace_snap_config_t sc;
    int rc = cli_config_xtrace(c, &ic, &sc);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* The xtrace readers check their ranges when made: make them once now, so
     * that a value out of range is a usage error naming where it came from. */
    tracerd_xtrace_insn_reader_t *ir = NULL;
    tracerd_xtrace_snap_reader_t *sr = NULL;
    tracerd_status_t ist = tracerd_xtrace_insn_new(&ic, NULL, NULL, NULL, &ir);
    tracerd_status_t sst = tracerd_xtrace_snap_new(&sc, NULL, NULL, NULL, &sr);
    tracerd_xtrace_insn_free(ir);
    tracerd_xtrace_snap_free(sr);
    if (ist == TRACERD_E_INVALID || sst == TRACERD_E_INVALID) {
        const char *env = getenv("TRACERD_XTRACE");
        bool has_o = false;
        for (unsigned i = 0; i < c->nopts; i++)
            has_o = has_o || strncmp(c->opts[i], "xtrace.", 7) == 0;
        fprintf(stderr, "%s: %s: a value is out of range (doc/tracerd.1, READER OPTIONS)\n",
                c->prog,
                has_o && env != NULL && *env != '\0' ? "-o xtrace.* or TRACERD_XTRACE"
                : has_o                              ? "-o xtrace.*"
                                                     : "TRACERD_XTRACE");
        return CLI_EXIT_USAGE;
    }
    if (ist == TRACERD_E_NOMEM || sst == TRACERD_E_NOMEM) {
        fprintf(stderr, "%s: out of memory\n", c->prog);
        return CLI_EXIT_IO;
    }
    x->ic = ic;
    x->sc = sc;
    cfg->xtrace = &x->ic;
    return CLI_EXIT_OK;
}

/* ---- dump filters ----------------------------------------------------------- */

/* A dump's filter: each record is seen as an event named by its dump "type"
 * ("insn", "mem", "val", "allgpr", "misc_flags", "syscall_vec", "time";
 * snapshots: "snapshot"), category "xtrace", at its instruction count (the
 * xtrace timeline: ticks, no clock), on the thread (or CPU) the file name
 * gives. A record that belongs to another (a memory value's fragments; a
 * syscall_vec's iov, iov_data and syscall_vec_end; a snapshot's registers
 * and snapshot_end) follows it. Instruction counts only grow: a record past
 * --end ends the reading. */
typedef struct xfilter {
    cli_t *c;
    cli_dump_filter_t d;
    bool has_tid;
    uint64_t tid;
    bool skip; /* the record that the following ones belong to was left out */
} xfilter_t;

static int xfilter_init(cli_t *c, xfilter_t *x)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    tracerd_xtrace_filename_t fn;
    if (tracerd_xtrace_parse_filename(c->path, &fn) == TRACERD_OK) {
        x->has_tid = true;
        x->tid = fn.id;
    }
    return cli_dump_filter_init(c, &x->d, true);
}

/* 1: write the record; 0: leave it out; CLI_DUMP_STOP: past --end, stop. */
static int xkeep(xfilter_t *x, const char *type, uint64_t insn_count)
{
    if (x->d.f == NULL)
        return 1;
    tracerd_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.format = TRACERD_EVENT_FORMAT_XTRACE;
    ev.kind = TRACERD_EVENT_INSTANT;
    ev.ticks = insn_count;
    ev.name.data = type;
    ev.name.len = strlen(type);
    ev.category.data = "xtrace";
    ev.category.len = 6;
    if (x->has_tid) {
        ev.flags |= TRACERD_EVENT_HAS_TID;
        ev.tid = x->tid;
    }
    bool keep = cli_dump_keep(&x->d, &ev);
    x->skip = !keep;
    return x->d.stopped ? CLI_DUMP_STOP : keep;
}

/* Returns from a dump callback: leaves the record out (or stops) unless the
 * filter keeps it. */
#define XKEEP(x, type, n)                                                                          \
    do {                                                                                           \
        int k_ = xkeep((x), (type), (n));                                                          \
        if (k_ != 1)                                                                               \
            return k_;                                                                             \
    } while (0)

/* ---- instruction stream ------------------------------------------------ */

/* As dec_run (textrun.h), for a hex number whose last two digits change most often (an
 * instruction's pc: 4 bytes on from the last one's). */
typedef struct hex_run {
    uint64_t v;
    uint32_t len; /* digits in txt (0: none yet) */
    char txt[24];
} hex_run_t;

static inline char *hex_put(hex_run_t *h, char *p, uint64_t v)
{
    if (h->len >= 3 && (v ^ h->v) < 256u) { /* the same digits but the last two */
        unsigned hi = (unsigned)(v >> 4) & 15u, lo = (unsigned)v & 15u;
        h->txt[h->len - 2] = (char)(hi + (hi < 10 ? '0' : 'a' - 10));
        h->txt[h->len - 1] = (char)(lo + (lo < 10 ? '0' : 'a' - 10));
    } else {
        h->len = (uint32_t)hex_fmt_x64(h->txt, v);
    }
    h->v = v;
    memcpy(p, h->txt, sizeof h->txt);
    return p + h->len;
}

typedef struct istate {
    cli_t *c;
    bool dump;
    dec_run_t offset, index, insn_count; /* dump: the numbers of the last lines */
    hex_run_t pc;
    xfilter_t flt;
    uint64_t insns, explicit_pcs, by_el[4], loads, stores, mem_bytes, vals[6], allgpr, flags;
    uint64_t vecs, iovs, iov_bytes, times, frags, warnings;
    uint64_t pc_min, pc_max, first_pc, last_pc, first_time, last_time;
    uint64_t seq_pc; /* info: the first PC of the instructions since the last explicit one */
    bool have_dec;   /* the AUTO iov layout decision */
    tracerd_xtrace_iov_decision_t dec;
} istate_t;

static void hexu(wr_t *f, const char *key, uint64_t v)
{
    WR_LIT(f, ",\"");
    wr_cstr(f, key);
    WR_LIT(f, "\":\"0x");
    wr_x64(f, v);
    wr_ch(f, '"');
}

/* info's PC range: the PCs since the last explicit one rise by 4 from
 * seq_pc to last_pc (xtrace.h: an INST's pc is the last one's + 4), so the
 * range takes in each such sequence once, when it ends (at the next
 * explicit PC, at the end), from its ends; one that passed 2^64 covers the
 * top and the bottom of the range (pc_min starts at UINT64_MAX). */
static void pc_range_fold(istate_t *s)
{
    uint64_t lo = s->seq_pc, hi = s->last_pc;
    if (hi < lo) { /* passed 2^64: its values keep lo's remainder mod 4 */
        hi = UINT64_MAX - 3 + (lo & 3);
        lo &= 3;
    }
    s->pc_min = lo < s->pc_min ? lo : s->pc_min;
    s->pc_max = hi > s->pc_max ? hi : s->pc_max;
}

/* info's figures of an instruction (info's callbacks only count, so they
 * call nothing and save no registers: a callback runs for every 5-byte
 * record; dump's do not count, it prints no figures). An explicit PC (or
 * the first) starts a sequence of PCs, folded into the range when it ends. */
static int i_insn(void *u, const tracerd_xtrace_insn_t *x)
{
    istate_t *s = u;
    if (__builtin_expect(x->explicit_pc || s->insns == 0, 0)) {
        if (s->insns == 0)
            s->first_pc = x->pc;
        else
            pc_range_fold(s);
        s->seq_pc = x->pc;
        s->explicit_pcs += x->explicit_pc;
    }
    s->insns++;
    s->by_el[x->el & 3]++;
    s->last_pc = x->pc;
    return 0;
}

static int d_insn(void *u, const tracerd_xtrace_insn_t *x)
{
    istate_t *s = u; /* (dump prints no counts) */
    XKEEP(&s->flt, "insn", x->index);
    wr_t *f = s->c->wr;
    /* one line of at most 152 bytes (the numbers' texts are copied 24
     * bytes at a time): room asked once */
    char *p = wr_room(f, 200), *const p0 = p;
    PUT_LIT(p, "{\"type\":\"insn\",\"offset\":");
    p = dec_put(&s->offset, p, x->offset);
    PUT_LIT(p, ",\"index\":");
    p = dec_put(&s->index, p, x->index);
    PUT_LIT(p, ",\"pc\":\"0x");
    p = hex_put(&s->pc, p, x->pc);
    PUT_LIT(p, "\",\"opcode\":\"0x");
    hex_fmt_x32_8(p, x->opcode);
    p += 8;
    PUT_LIT(p, "\",\"el\":");
    if (x->el < 10)
        *p++ = (char)('0' + x->el);
    else
        p += wr_fmt_u64(p, x->el);
    if (x->explicit_pc)
        PUT_LIT(p, ",\"explicit_pc\":true}\n");
    else
        PUT_LIT(p, ",\"explicit_pc\":false}\n");
    f->len += (size_t)(p - p0);
    return 0;
}

static inline void count_mem(istate_t *s, const tracerd_xtrace_mem_t *m)
{
    s->stores += m->is_store;
    s->loads += !m->is_store;
    s->mem_bytes += m->size;
}

static int i_mem(void *u, const tracerd_xtrace_mem_t *m)
{
    count_mem(u, m);
    return 0;
}

static int d_mem(void *u, const tracerd_xtrace_mem_t *m)
{
    istate_t *s = u;
    XKEEP(&s->flt, "mem", m->insn_count);
    wr_t *f = s->c->wr;
    /* one line of at most 236 bytes with a value of up to 32 bytes (the
     * numbers' texts are copied 24 bytes at a time): room asked once */
    char *p = wr_room(f, 288), *const p0 = p;
    PUT_LIT(p, "{\"type\":\"mem\",\"offset\":");
    p = dec_put(&s->offset, p, m->offset);
    PUT_LIT(p, ",\"insn_count\":");
    p = dec_put(&s->insn_count, p, m->insn_count);
    PUT_LIT(p, ",\"el\":");
    p += wr_fmt_u64(p, m->el);
    if (m->is_store)
        PUT_LIT(p, ",\"op\":\"store\",\"addr\":\"0x");
    else
        PUT_LIT(p, ",\"op\":\"load\",\"addr\":\"0x");
    p += hex_fmt_x64(p, m->addr);
    PUT_LIT(p, "\",\"size\":");
    p += wr_fmt_u64(p, m->size);
    if (m->value != NULL && m->size <= 32) { /* the value's digits in the same room */
        PUT_LIT(p, ",\"value\":\"");
        hex_fmt_bytes(p, m->value, m->size);
        p += 2 * (size_t)m->size;
        PUT_LIT(p, "\"}\n");
        f->len += (size_t)(p - p0);
        return 0;
    }
    PUT_LIT(p, ",\"value\":");
    f->len += (size_t)(p - p0);
    if (m->value != NULL)
        cli_json_hex(f, m->value, m->size);
    else
        wr_cstr(f, "null");
    wr_cstr(f, "}\n");
    return 0;
}

static int i_frag(void *u, const tracerd_span_t *sp)
{
    istate_t *s = u;
    s->frags++;
    if (sp->field == TRACERD_XTRACE_FIELD_IOV_DATA)
        s->iov_bytes += sp->len;
    if (s->dump && !s->flt.skip) {
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"%s\",\"offset\":%" PRIu64 ",\"index\":%" PRIu32
                  ",\"data_offset\":%" PRIu64 ",\"total\":%" PRIu64 ",\"data\":",
                  sp->field == TRACERD_XTRACE_FIELD_IOV_DATA ? "iov_data" : "mem_fragment",
                  sp->record_offset, sp->index, sp->offset, sp->total);
        cli_json_hex(f, sp->data, sp->len);
        wr_cstr(f, "}\n");
    }
    return 0;
}

static int i_val(void *u, const tracerd_xtrace_val_t *v)
{
    istate_t *s = u;
    s->vals[(unsigned)v->kind % 6]++;
    if (s->dump) {
        XKEEP(&s->flt, "val", v->insn_count);
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"val\",\"offset\":%" PRIu64 ",\"insn_count\":%" PRIu64
                  ",\"kind\":\"%s\"",
                  v->offset, v->insn_count, tracerd_xtrace_val_kind_name(v->kind));
        hexu(f, "value", v->value);
        wr_cstr(f, "}\n");
    }
    return 0;
}

static int i_allgpr(void *u, const tracerd_xtrace_allgpr_t *g)
{
    istate_t *s = u;
    s->allgpr++;
    if (s->dump) {
        XKEEP(&s->flt, "allgpr", g->insn_count);
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"allgpr\",\"offset\":%" PRIu64 ",\"insn_count\":%" PRIu64 ",\"x\":[",
                  g->offset, g->insn_count);
        for (int i = 0; i < 32; i++)
            wr_printf(f, "%s\"0x%" PRIx64 "\"", i ? "," : "", g->x[i]);
        wr_cstr(f, "]}\n");
    }
    return 0;
}

static int i_flags(void *u, const tracerd_xtrace_misc_flags_t *m)
{
    istate_t *s = u;
    s->flags++;
    if (s->dump) {
        XKEEP(&s->flt, "misc_flags", m->insn_count);
        wr_t *f = s->c->wr;
        wr_printf(f, "{\"type\":\"misc_flags\",\"offset\":%" PRIu64 ",\"insn_count\":%" PRIu64,
                  m->offset, m->insn_count);
        hexu(f, "flags", m->flags);
        wr_cstr(f, "}\n");
    }
    return 0;
}

/* "interleaved, grouped" from a decision's candidate bits ("none" if 0). */
static const char *candidate_names(uint32_t bits, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned l = 0; l < 3; l++)
        if (bits & (1u << l))
            used +=
                (size_t)snprintf(buf + used, used < cap ? cap - used : 0, "%s%s", used ? ", " : "",
                                 tracerd_xtrace_iov_layout_name((tracerd_xtrace_iov_layout_t)l));
    return used ? buf : "none";
}

static int i_layout(void *u, const tracerd_xtrace_iov_decision_t *d)
{
    istate_t *s = u;
    s->have_dec = true;
    s->dec = *d;
    if (s->dump) {
        wr_t *f = s->c->wr;
        wr_printf(
            f, "{\"type\":\"iov_layout\",\"offset\":%" PRIu64 ",\"layout\":\"%s\",\"candidates\":[",
            d->offset, tracerd_xtrace_iov_layout_name(d->layout));
        for (unsigned l = 0, n = 0; l < 3; l++)
            if (d->candidates & (1u << l))
                wr_printf(f, "%s\"%s\"", n++ ? "," : "",
                          tracerd_xtrace_iov_layout_name((tracerd_xtrace_iov_layout_t)l));
        wr_printf(f, "],\"assumed\":%s,\"window_bytes\":%" PRIu64 ",\"window_complete\":%s}\n",
                  d->assumed ? "true" : "false", d->window_bytes,
                  d->window_complete ? "true" : "false");
    }
    return 0;
}

static int i_vec(void *u, const tracerd_xtrace_syscall_vec_t *v)
{
    istate_t *s = u;
    s->vecs++;
    if (s->dump)
        XKEEP(&s->flt, "syscall_vec", v->insn_count);
    if (s->dump)
        wr_printf(s->c->wr,
                  "{\"type\":\"syscall_vec\",\"offset\":%" PRIu64 ",\"insn_count\":%" PRIu64
                  ",\"count\":%" PRIu64 ",\"layout\":\"%s\"}\n",
                  v->offset, v->insn_count, v->count, tracerd_xtrace_iov_layout_name(v->layout));
    return 0;
}

static int i_vec_end(void *u, const tracerd_xtrace_syscall_vec_t *v)
{
    istate_t *s = u;
    if (s->dump && !s->flt.skip)
        wr_printf(s->c->wr,
                  "{\"type\":\"syscall_vec_end\",\"offset\":%" PRIu64 ",\"count\":%" PRIu64 "}\n",
                  v->offset, v->count);
    return 0;
}

static int i_iov(void *u, const tracerd_xtrace_iov_t *v)
{
    istate_t *s = u;
    s->iovs++;
    if (s->dump && !s->flt.skip) {
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"iov\",\"offset\":%" PRIu64 ",\"iov_offset\":%" PRIu64
                  ",\"index\":%" PRIu32,
                  v->offset, v->iov_offset, v->index);
        hexu(f, "base", v->base);
        wr_printf(f, ",\"len\":%" PRIu64 "}\n", v->len);
    }
    return 0;
}

static int i_time(void *u, const tracerd_xtrace_time_t *t)
{
    istate_t *s = u;
    if (s->times == 0)
        s->first_time = t->value;
    s->times++;
    s->last_time = t->value;
    if (s->dump) {
        XKEEP(&s->flt, "time", t->insn_count);
        wr_t *f = s->c->wr;
        wr_printf(f, "{\"type\":\"time\",\"offset\":%" PRIu64 ",\"insn_count\":%" PRIu64, t->offset,
                  t->insn_count);
        hexu(f, "value", t->value);
        wr_cstr(f, ",\"raw\":");
        cli_json_hex(f, t->raw.data, t->raw.len);
        wr_cstr(f, "}\n");
    }
    return 0;
}

static int on_warn(cli_t *c, bool dump, uint64_t *count, const tracerd_warning_t *w)
{
    *count += w->count;
    const cli_warn_sink_t sink = {dump ? c->wr : NULL, "type", "xtrace", NULL};
    return cli_warning(c, &sink, w);
}

static int i_warn(void *u, const tracerd_warning_t *w)
{
    istate_t *s = u;
    return on_warn(s->c, s->dump, &s->warnings, w);
}

static void print_name(cli_t *c)
{
    tracerd_xtrace_filename_t f;
    if (tracerd_xtrace_parse_filename(c->path, &f) == TRACERD_OK)
        fprintf(c->out, "name:        timestamp %" PRIu64 ", tid/cpu %" PRIu64 ", hint%u\n",
                f.timestamp, f.id, f.hint);
}

/* What reading an instruction stream and a snapshot file share: the reader
 * options, the dump filter, the reader (through its ops table: the
 * instruction-stream or snapshot config by ops), the pump and the error
 * report (*ic: the instruction-stream options, for info). Returns the exit
 * status; *read is false when nothing was read (bad options, no reader), and
 * the caller returns the status at once. */
static int read_xtrace(cli_t *c, bool dump, xfilter_t *flt, const tracerd_reader_ops_t *ops,
                       const void *cbs, void *user, tracerd_xtrace_insn_config_t *ic, bool *read)
{
    *read = false;
    tracerd_xtrace_snap_config_t sc;
    int orc = cli_config_xtrace(c, ic, &sc);
    if (orc != CLI_EXIT_OK)
        return orc;
    if (dump && (orc = xfilter_init(c, flt)) != CLI_EXIT_OK)
        return orc;
    const void *cfg = ops == tracerd_xtrace_snap_ops() ? (const void *)&sc : (const void *)ic;
    void *r;
    tracerd_status_t st = ops->new_reader(cfg, cbs, user, NULL, &r);
    if (st != TRACERD_OK) {
        cli_dump_filter_free(&flt->d);
        return cli_new_failed(c, st); /* options were checked: out of memory */
    }
    *read = true;
    st = cli_dump_status(&flt->d, cli_pump(c, ops, r));
    cli_dump_filter_free(&flt->d);
    int rc = CLI_EXIT_OK;
    if (st == TRACERD_E_IO) {
        rc = CLI_EXIT_IO;
    } else if (st != TRACERD_OK) {
        cli_report(c, "xtrace", st, ops->record_offset(r), ops->error_reason(r));
        rc = CLI_EXIT_TRACE;
    }
    ops->free(r);
    return rc;
}

static int run_insn(cli_t *c, bool dump)
{
    istate_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.dump = dump;
    s.pc_min = UINT64_MAX;
    tracerd_xtrace_insn_callbacks_t cb;
    tracerd_xtrace_insn_callbacks_init(&cb);
    cb.on_insn = dump ? d_insn : i_insn;
    cb.on_mem = dump ? d_mem : i_mem;
    cb.on_mem_fragment = i_frag;
    cb.on_val = i_val;
    cb.on_allgpr = i_allgpr;
    cb.on_misc_flags = i_flags;
    cb.on_syscall_vec = i_vec;
    cb.on_iov = i_iov;
    cb.on_iov_data = i_frag;
    cb.on_syscall_vec_end = i_vec_end;
    cb.on_time = i_time;
    cb.on_warning = i_warn;
    cb.on_layout = i_layout;
    bool read;
    tracerd_xtrace_insn_config_t ic;
    int rc = read_xtrace(c, dump, &s.flt, tracerd_xtrace_insn_ops(), &cb, &s, &ic, &read);
    if (!read)
        return rc;
    if (!dump) {
        FILE *f = c->out;
        if (s.insns)
            pc_range_fold(&s); /* the last sequence */
        fprintf(f, "format:      xtrace instruction stream (.xinsndata.bin)\n");
        print_name(c);
        fprintf(f, "byte order:  little\nbytes:       %" PRIu64 "\n", c->bytes_read);
        fprintf(f,
                "instructions: %" PRIu64 " (%" PRIu64 " with explicit PC; EL0 %" PRIu64
                ", EL1 %" PRIu64 ", EL2 %" PRIu64 ", EL3 %" PRIu64 ")\n",
                s.insns, s.explicit_pcs, s.by_el[0], s.by_el[1], s.by_el[2], s.by_el[3]);
        if (s.insns)
            fprintf(f,
                    "pc:          first 0x%" PRIx64 ", last 0x%" PRIx64 ", range 0x%" PRIx64
                    "..0x%" PRIx64 "\n",
                    s.first_pc, s.last_pc, s.pc_min, s.pc_max);
        fprintf(f, "mem:         %" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64 " value bytes\n",
                s.loads, s.stores, s.mem_bytes);
        fprintf(f, "val:        ");
        for (unsigned i = 0; i < 6; i++)
            fprintf(f, " %s %" PRIu64 "%s",
                    tracerd_xtrace_val_kind_name((tracerd_xtrace_val_kind_t)i), s.vals[i],
                    i < 5 ? "," : "\n");
        fprintf(f,
                "misc:        %" PRIu64 " allgpr, %" PRIu64 " misc_flags, %" PRIu64
                " syscall_vec (%" PRIu64 " iovecs, %" PRIu64 " data bytes)\n",
                s.allgpr, s.flags, s.vecs, s.iovs, s.iov_bytes);
        if (ic.iov_layout != TRACERD_XTRACE_IOV_AUTO) {
            fprintf(f, "iov layout:  %s (forced: -o xtrace.iov)\n",
                    tracerd_xtrace_iov_layout_name(ic.iov_layout));
        } else if (s.have_dec) {
            char names[64];
            fprintf(f,
                    "iov layout:  %s (%s from the data; consistent over the next %" PRIu64
                    " bytes%s: %s)\n",
                    tracerd_xtrace_iov_layout_name(s.dec.layout),
                    s.dec.assumed ? "assumed" : "decided", s.dec.window_bytes,
                    s.dec.window_complete ? " to the end" : "",
                    candidate_names(s.dec.candidates, names, sizeof names));
        }
        fprintf(f, "time:        %" PRIu64 " tokens", s.times);
        if (s.times)
            fprintf(f, ", first 0x%" PRIx64 ", last 0x%" PRIx64, s.first_time, s.last_time);
        fprintf(f, "\n");
        if (s.warnings)
            fprintf(f, "warnings:    %" PRIu64 "\n", s.warnings);
    }
    return rc;
}

/* ---- snapshots ------------------------------------------------------------ */

typedef struct sstate {
    cli_t *c;
    bool dump;
    xfilter_t flt;
    bool have_layout, have_header;
    tracerd_xtrace_snap_layout_t lay;
    tracerd_xtrace_snap_header_t hdr;
    uint64_t snaps, first_user, last_user, first_total, last_total, warnings;
} sstate_t;

static int s_layout(void *u, const tracerd_xtrace_snap_layout_t *l)
{
    sstate_t *s = u;
    s->have_layout = true;
    s->lay = *l;
    if (s->dump)
        wr_printf(s->c->wr,
                  "{\"type\":\"layout\",\"byte_order\":\"%s\",\"header_bytes\":%u,"
                  "\"vector_length_bits\":%u,\"streaming_vector_length_bits\":%u,"
                  "\"storage_vector_length_bits\":%u,\"p_layout\":\"%s\",\"za_present\":%s,"
                  "\"fixed_max\":%s,\"record_bytes\":%u,\"detected\":%s,\"records_checked\":%u}\n",
                  tracerd_byte_order_name(l->byte_order), l->header_bytes, l->vector_length_bits,
                  l->streaming_vector_length_bits, l->storage_vector_length_bits,
                  l->p_layout == TRACERD_XTRACE_P_PER_REG ? "per-reg" : "block",
                  l->za_present ? "true" : "false", l->fixed_max ? "true" : "false",
                  l->record_bytes, l->detected ? "true" : "false", l->records_checked);
    return 0;
}

static int s_header(void *u, const tracerd_xtrace_snap_header_t *h)
{
    sstate_t *s = u;
    s->have_header = true;
    s->hdr = *h;
    s->hdr.pad.data = NULL;
    if (s->dump) {
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"header\",\"offset\":0,\"header_bytes\":%u,\"ident\":\"0x%08" PRIx32
                  "\",\"global_point\":%" PRIu32 ",\"version\":%" PRIu64
                  ",\"split_type\":%u,\"stream_type\":%u,\"mem_order\":%u,\"pad\":",
                  h->header_bytes, h->ident, h->global_point, h->version, h->split_type,
                  h->stream_type, h->mem_order);
        cli_json_hex(f, h->pad.data, h->pad.len);
        wr_cstr(f, "}\n");
    }
    return 0;
}

static int s_snap(void *u, const tracerd_xtrace_snapshot_t *x)
{
    sstate_t *s = u;
    if (s->snaps == 0) {
        s->first_user = x->user_insns;
        s->first_total = x->total_insns;
    }
    s->snaps++;
    s->last_user = x->user_insns;
    s->last_total = x->total_insns;
    if (s->dump) {
        XKEEP(&s->flt, "snapshot", x->total_insns);
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"snapshot\",\"offset\":%" PRIu64 ",\"index\":%" PRIu64
                  ",\"file_no\":%" PRIu64 ",\"file_index\":%" PRIu64 ",\"user_insns\":%" PRIu64
                  ",\"total_insns\":%" PRIu64 ",\"x\":[",
                  x->offset, x->index, x->file_no, x->file_index, x->user_insns, x->total_insns);
        for (int i = 0; i < 32; i++)
            wr_printf(f, "%s\"0x%" PRIx64 "\"", i ? "," : "", x->x[i]);
        wr_cstr(f, "]}\n");
    }
    return 0;
}

static int s_reg(void *u, const tracerd_span_t *sp)
{
    sstate_t *s = u;
    if (s->dump && !s->flt.skip) {
        wr_t *f = s->c->wr;
        wr_printf(f,
                  "{\"type\":\"register\",\"offset\":%" PRIu64 ",\"reg\":\"%s\",\"index\":%" PRIu32
                  ",\"data_offset\":%" PRIu64 ",\"total\":%" PRIu64 ",\"data\":",
                  sp->record_offset, tracerd_xtrace_field_name(sp->field), sp->index, sp->offset,
                  sp->total);
        cli_json_hex(f, sp->data, sp->len);
        wr_cstr(f, "}\n");
    }
    return 0;
}

static int s_end(void *u, const tracerd_xtrace_snapshot_end_t *e)
{
    sstate_t *s = u;
    if (s->dump && !s->flt.skip) {
        wr_t *f = s->c->wr;
        wr_printf(f, "{\"type\":\"snapshot_end\",\"offset\":%" PRIu64 ",\"index\":%" PRIu64,
                  e->offset, e->index);
        hexu(f, "fpcr", e->fpcr);
        hexu(f, "fpsr", e->fpsr);
        hexu(f, "nzcv", e->nzcv);
        hexu(f, "tpidr_el0", e->tpidr_el0);
        hexu(f, "tpidrro_el0", e->tpidrro_el0);
        hexu(f, "ttbr0_el1", e->ttbr0_el1);
        hexu(f, "elr_el1", e->elr_el1);
        hexu(f, "spsr_el1", e->spsr_el1);
        hexu(f, "esr_el1", e->esr_el1);
        hexu(f, "tpidr_el1", e->tpidr_el1);
        hexu(f, "daif", e->daif);
        wr_printf(f, ",\"vector_length_bits\":%" PRIu64 "}\n", e->vector_length_bits);
    }
    return 0;
}

static int s_warn(void *u, const tracerd_warning_t *w)
{
    sstate_t *s = u;
    return on_warn(s->c, s->dump, &s->warnings, w);
}

static int run_snap(cli_t *c, bool dump)
{
    sstate_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.dump = dump;
    tracerd_xtrace_snap_callbacks_t cb;
    tracerd_xtrace_snap_callbacks_init(&cb);
    cb.on_layout = s_layout;
    cb.on_header = s_header;
    cb.on_snapshot = s_snap;
    cb.on_register = dump ? s_reg : NULL;
    cb.on_snapshot_end = s_end;
    cb.on_warning = s_warn;
    bool read;
    tracerd_xtrace_insn_config_t ic;
    int rc = read_xtrace(c, dump, &s.flt, tracerd_xtrace_snap_ops(), &cb, &s, &ic, &read);
    if (!read)
        return rc;
    if (!dump) {
        FILE *f = c->out;
        fprintf(f, "format:      xtrace register snapshots (.xsnapshot.bin)\n");
        print_name(c);
        fprintf(f, "bytes:       %" PRIu64 "\n", c->bytes_read);
        if (s.have_layout) {
            const tracerd_xtrace_snap_layout_t *l = &s.lay;
            fprintf(f, "byte order:  %s\n", tracerd_byte_order_name(l->byte_order));
            fprintf(f,
                    "layout:      %s: header %u bytes, VL %u bits, SVL %u bits, P %s, ZA %s%s, "
                    "%u-byte snapshots\n",
                    l->detected ? "detected" : "configured", l->header_bytes, l->vector_length_bits,
                    l->streaming_vector_length_bits,
                    l->p_layout == TRACERD_XTRACE_P_PER_REG ? "per-register slots" : "block",
                    l->za_present ? "present" : "absent",
                    l->fixed_max ? ", arrays sized for VL 2048" : "", l->record_bytes);
        }
        if (s.have_header)
            fprintf(f,
                    "header:      ident 0x%08" PRIx32 ", global point %" PRIu32 ", version %" PRIu64
                    ", split %u, stream %u, mem order %u\n",
                    s.hdr.ident, s.hdr.global_point, s.hdr.version, s.hdr.split_type,
                    s.hdr.stream_type, s.hdr.mem_order);
        fprintf(f, "snapshots:   %" PRIu64 "\n", s.snaps);
        if (s.snaps)
            fprintf(f,
                    "instructions: user %" PRIu64 "..%" PRIu64 ", total %" PRIu64 "..%" PRIu64 "\n",
                    s.first_user, s.last_user, s.first_total, s.last_total);
        if (s.warnings)
            fprintf(f, "warnings:    %" PRIu64 "\n", s.warnings);
    }
    return rc;
}

static int info(cli_t *c)
{
    return is_snapshot(c) ? run_snap(c, false) : run_insn(c, false);
}

static int dump(cli_t *c)
{
    int rc = cli_out_start(c);
    if (rc != CLI_EXIT_OK)
        return rc;
    return cli_out_end(c, is_snapshot(c) ? run_snap(c, true) : run_insn(c, true));
}

const struct cli_format cli_format_xtrace = {
    .name = "xtrace",
    .detect = detect,
    .info = info,
    .dump = dump,
    .options = options,
    .options_help = "xtrace.KEY=VALUE (the TRACERD_XTRACE keys, doc/tracerd.1)",
};
