/* CTF metadata stream: the byte level (plain text or metadata packets, fed
 * in chunks of any size) and the entry points that parse and compile it. */
#include <stdio.h>

#include "metadata.h"
#include "../core/sized.h"

static void ctf_metadata_config_defaults(tracerd_ctf_metadata_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_metadata_bytes = (size_t)16 << 20;
    cfg->max_depth = 64;
    cfg->max_fields = 16384;
    cfg->max_array_length = (uint64_t)1 << 24;
    cfg->byte_order = TRACERD_BYTE_ORDER_AUTO;
    cfg->max_aliases = 16384;
    cfg->max_event_classes = 8192;
    cfg->max_stream_classes = 4096;
    cfg->max_type_nodes = (uint64_t)1 << 15;
}

TRACERD__SIZED_INIT(tracerd_ctf_metadata_config_init, tracerd_ctf_metadata_config_t,
                    ctf_metadata_config_defaults)

/* The value names of a config: at most TRACERD_CTF_MAX_VALUE_NAMES, each
 * of an event context scope with a name. */
static bool value_names_ok(const tracerd_ctf_metadata_config_t *c)
{
    if (c->nvalue_names == 0)
        return true;
    if (c->value_names == NULL || c->nvalue_names > TRACERD_CTF_MAX_VALUE_NAMES)
        return false;
    for (uint32_t i = 0; i < c->nvalue_names; i++)
        if (c->value_names[i].name == NULL ||
            (c->value_names[i].scope != TRACERD_CTF_SCOPE_STREAM_EVENT_CONTEXT &&
             c->value_names[i].scope != TRACERD_CTF_SCOPE_EVENT_CONTEXT))
            return false;
    return true;
}

/* The trace model's copy of the value names (compile.c gives them slots). */
static tracerd_status_t copy_value_names(const tracerd_ctf_metadata_config_t *c,
                                         struct tracerd_ctf_trace *t)
{
    if (c->nvalue_names == 0)
        return TRACERD_OK;
    t->vnames = tracerd__ctf_arena_alloc(&t->arena, sizeof *t->vnames * c->nvalue_names);
    if (t->vnames == NULL)
        return TRACERD_E_NOMEM;
    for (uint32_t i = 0; i < c->nvalue_names; i++) {
        const char *n = c->value_names[i].name;
        t->vnames[i].scope = (uint8_t)c->value_names[i].scope;
        t->vnames[i].name = tracerd__ctf_arena_strdup(&t->arena, n, strlen(n));
        if (t->vnames[i].name == NULL)
            return TRACERD_E_NOMEM;
    }
    t->nvnames = c->nvalue_names;
    return TRACERD_OK;
}

tracerd_status_t tracerd_ctf_metadata_new(const tracerd_ctf_metadata_config_t *cfg,
                                          const tracerd_allocator_t *alloc,
                                          tracerd_ctf_metadata_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_ctf_metadata_config_t c;
    tracerd_ctf_metadata_config_init(&c);
    if (TRACERD__SIZED_READ(tracerd_ctf_metadata_config_t, &c, cfg) != TRACERD_OK ||
        c.max_depth < 4 || c.max_depth > 4096 || c.max_fields == 0 || c.max_metadata_bytes == 0 ||
        c.max_aliases == 0 || c.max_event_classes == 0 || c.max_stream_classes == 0 ||
        c.max_type_nodes == 0 || !value_names_ok(&c))
        return TRACERD_E_INVALID;
    tracerd_ctf_metadata_t *m = TRACERD__NEW(tracerd_ctf_metadata_t, alloc);
    if (m == NULL)
        return TRACERD_E_NOMEM;
    m->cfg = c;
    tracerd__error_clear(&m->err);
    *out = m;
    return TRACERD_OK;
}

void tracerd_ctf_metadata_reset(tracerd_ctf_metadata_t *m)
{
    if (m == NULL)
        return;
    char *text = m->text;
    size_t cap = m->cap;
    struct meta_seg *segs = m->segs;
    size_t segcap = m->segcap;
    tracerd_allocator_t a = m->alloc;
    tracerd_ctf_metadata_config_t c = m->cfg;
    memset(m, 0, sizeof *m);
    m->alloc = a;
    m->cfg = c;
    m->text = text;
    m->cap = cap;
    m->segs = segs;
    m->segcap = segcap;
    tracerd__error_clear(&m->err);
}

void tracerd_ctf_metadata_free(tracerd_ctf_metadata_t *m)
{
    if (m == NULL)
        return;
    tracerd_allocator_t a = m->alloc;
    if (m->text)
        tracerd__free(&a, m->text, m->cap);
    if (m->segs)
        tracerd__free(&a, m->segs, m->segcap * sizeof *m->segs);
    tracerd__free(&a, m, sizeof *m);
}

uint64_t tracerd_ctf_metadata_offset(const tracerd_ctf_metadata_t *m)
{
    return m->offset;
}
uint64_t tracerd_ctf_metadata_record_offset(const tracerd_ctf_metadata_t *m)
{
    if (m->err.status < 0)
        return m->err.offset;
    return m->parse_failed ? m->parse_err_off : m->pkt_offset;
}
uint32_t tracerd_ctf_metadata_line(const tracerd_ctf_metadata_t *m)
{
    return m->line;
}
uint32_t tracerd_ctf_metadata_column(const tracerd_ctf_metadata_t *m)
{
    return m->col;
}
const char *tracerd_ctf_metadata_error_reason(const tracerd_ctf_metadata_t *m)
{
    return m->err.reason;
}
tracerd_str_t tracerd_ctf_metadata_text(const tracerd_ctf_metadata_t *m)
{
    tracerd_str_t s = {m->text ? m->text : "", m->len};
    return s;
}

static tracerd_status_t append_text(tracerd_ctf_metadata_t *m, const uint8_t *p, size_t n)
{
    if (n == 0)
        return TRACERD_OK;
    if (n > m->cfg.max_metadata_bytes - m->len || m->len > m->cfg.max_metadata_bytes)
        return tracerd__error_set(&m->err, TRACERD_E_LIMIT, m->offset,
                                  "metadata: text exceeds max_metadata_bytes (%zu)",
                                  m->cfg.max_metadata_bytes);
    if (m->len + n + 1 > m->cap) {
        size_t nc = m->cap ? m->cap : 4096;
        while (nc < m->len + n + 1)
            nc *= 2;
        char *t = tracerd__calloc(&m->alloc, nc);
        if (t == NULL)
            return tracerd__error_set(&m->err, TRACERD_E_NOMEM, m->offset,
                                      "metadata: out of memory for the text");
        if (m->len)
            memcpy(t, m->text, m->len);
        if (m->text)
            tracerd__free(&m->alloc, m->text, m->cap);
        m->text = t;
        m->cap = nc;
    }
    memcpy(m->text + m->len, p, n);
    m->len += n;
    m->text[m->len] = '\0';
    return TRACERD_OK;
}

static tracerd_status_t packet_header(tracerd_ctf_metadata_t *m)
{
    const uint8_t *h = m->hdr;
    uint32_t magic = tracerd__ld32(m->big, h);
    if (magic != META_MAGIC)
        return tracerd__error_set(&m->err, TRACERD_E_MAGIC, m->pkt_offset,
                                  "metadata packet: magic is 0x%08x, expected 0x75d11d57", magic);
    uint32_t content = tracerd__ld32(m->big, h + 24), size = tracerd__ld32(m->big, h + 28);
    if (h[32] != 0 || h[33] != 0 || h[34] != 0)
        return tracerd__error_set(
            &m->err, TRACERD_E_UNSUPPORTED, m->pkt_offset,
            "metadata packet: compression/encryption/checksum scheme %u/%u/%u "
            "is not supported",
            h[32], h[33], h[34]);
    if (h[35] != 1 || h[36] != 8)
        return tracerd__error_set(&m->err, TRACERD_E_VERSION, m->pkt_offset,
                                  "metadata packet: version %u.%u, expected 1.8", h[35], h[36]);
    if (content % 8 != 0 || size % 8 != 0 || content < META_HDR * 8 || content > size)
        return tracerd__error_set(&m->err, TRACERD_E_EXTENT, m->pkt_offset,
                                  "metadata packet: content_size %u / packet_size %u bits are "
                                  "inconsistent",
                                  content, size);
    if (m->have_uuid && memcmp(m->uuid, h + 4, 16) != 0)
        return tracerd__error_set(&m->err, TRACERD_E_MAGIC, m->pkt_offset,
                                  "metadata packet: uuid differs from the first packet's");
    memcpy(m->uuid, h + 4, 16);
    m->have_uuid = true;
    m->content_left = content / 8 - META_HDR;
    m->pad_left = (size - content) / 8;
    if (m->content_left == 0)
        return TRACERD_OK;
    if (m->nsegs == m->segcap) { /* where this packet's text starts */
        size_t nc = m->segcap ? m->segcap * 2 : 16;
        struct meta_seg *ns = tracerd__calloc(&m->alloc, nc * sizeof *ns);
        if (ns == NULL)
            return tracerd__error_set(&m->err, TRACERD_E_NOMEM, m->pkt_offset,
                                      "metadata: out of memory for the packet table");
        if (m->nsegs)
            memcpy(ns, m->segs, m->nsegs * sizeof *ns);
        if (m->segs)
            tracerd__free(&m->alloc, m->segs, m->segcap * sizeof *m->segs);
        m->segs = ns;
        m->segcap = nc;
    }
    m->segs[m->nsegs].text = m->len;
    m->segs[m->nsegs].file = m->offset; /* the header has been taken */
    m->nsegs++;
    return TRACERD_OK;
}

/* The byte of the metadata stream that holds byte `off` of the text (packet
 * headers and padding are not in the text). */
static uint64_t stream_offset(const tracerd_ctf_metadata_t *m, uint64_t off)
{
    if (m->mode != 2)
        return off;
    size_t lo = 0, hi = m->nsegs; /* the last packet whose text starts at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->segs[mid].text <= off)
            lo = mid;
        else
            hi = mid;
    }
    return m->nsegs == 0 ? off : m->segs[lo].file + (off - m->segs[lo].text);
}

/* The byte of the text at TSDL line `line`, column `col` (both from 1; the
 * lexer counts columns in bytes). */
static uint64_t text_offset(const tracerd_ctf_metadata_t *m, uint32_t line, uint32_t col)
{
    size_t i = 0;
    for (uint32_t l = 1; l < line && i < m->len; i++)
        if (m->text[i] == '\n')
            l++;
    uint64_t off = (uint64_t)i + (col > 0 ? col - 1 : 0);
    return off < m->len ? off : m->len;
}

int tracerd_ctf_metadata_version(const void *data, size_t len)
{
    const uint8_t *p = data;
    if (p == NULL || len == 0)
        return 0;
    if (len >= 4 && (tracerd__le32(p) == META_MAGIC || tracerd__be32(p) == META_MAGIC)) {
        if (len <= META_HDR)
            return 0; /* the first content byte is not there yet */
        p += META_HDR;
        len -= META_HDR;
    }
    if (p[0] == 0x1E)
        return 2;
    static const char sig[] = "/* CTF 1.";
    size_t n = len < sizeof sig - 1 ? len : sizeof sig - 1;
    if (memcmp(p, sig, n) != 0)
        return 0;
    return n == sizeof sig - 1 ? 1 : 0;
}

tracerd_status_t tracerd_ctf_metadata_feed(tracerd_ctf_metadata_t *m, const void *data, size_t len)
{
    if (m == NULL || (data == NULL && len))
        return TRACERD_E_INVALID;
    if (m->err.status < 0)
        return m->err.status;
    const uint8_t *p = data, *end = p + len;
    while (p < end) {
        if (m->mode == 0) {
            /* Decide from the first four bytes. */
            while (m->hdr_have < 4 && p < end) {
                m->hdr[m->hdr_have++] = *p++;
                m->offset++;
            }
            if (m->hdr_have < 4)
                return TRACERD_OK;
            uint32_t le = tracerd__le32(m->hdr), be = tracerd__be32(m->hdr);
            if (le == META_MAGIC || be == META_MAGIC) {
                m->mode = 2;
                m->big = m->cfg.byte_order == TRACERD_BYTE_ORDER_AUTO
                             ? be == META_MAGIC
                             : m->cfg.byte_order == TRACERD_BYTE_ORDER_BIG;
            } else {
                m->mode = 1;
                tracerd_status_t st = append_text(m, m->hdr, 4);
                if (st != TRACERD_OK)
                    return st;
                m->hdr_have = 0;
            }
            continue;
        }
        if (m->mode == 1) {
            size_t n = (size_t)(end - p);
            tracerd_status_t st = append_text(m, p, n);
            if (st != TRACERD_OK)
                return st;
            m->offset += n;
            return TRACERD_OK;
        }
        if (m->content_left == 0 && m->pad_left == 0 && m->hdr_have < META_HDR) {
            if (m->hdr_have == 0)
                m->pkt_offset = m->offset;
            size_t n = META_HDR - m->hdr_have;
            if (n > (size_t)(end - p))
                n = (size_t)(end - p);
            memcpy(m->hdr + m->hdr_have, p, n);
            m->hdr_have += n;
            p += n;
            m->offset += n;
            if (m->hdr_have < META_HDR)
                return TRACERD_OK;
            tracerd_status_t st = packet_header(m);
            if (st != TRACERD_OK)
                return st;
            m->hdr_have = 0;
            if (m->content_left == 0 && m->pad_left == 0)
                continue;
            m->hdr_have = META_HDR; /* inside a packet */
        }
        if (m->content_left) {
            size_t n = (size_t)(end - p);
            if (n > m->content_left)
                n = (size_t)m->content_left;
            tracerd_status_t st = append_text(m, p, n);
            if (st != TRACERD_OK)
                return st;
            p += n;
            m->offset += n;
            m->content_left -= n;
        } else if (m->pad_left) {
            size_t n = (size_t)(end - p);
            if (n > m->pad_left)
                n = (size_t)m->pad_left;
            p += n;
            m->offset += n;
            m->pad_left -= n;
        }
        if (m->content_left == 0 && m->pad_left == 0)
            m->hdr_have = 0;
    }
    return TRACERD_OK;
}

tracerd_status_t tracerd_ctf_metadata_finish(tracerd_ctf_metadata_t *m, tracerd_ctf_trace_t **out)
{
    if (m == NULL || out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    if (m->err.status < 0)
        return m->err.status;
    m->parse_failed = false;
    if (m->mode == 2 && m->content_left != 0)
        return tracerd__error_set(&m->err, TRACERD_E_TRUNCATED, m->pkt_offset,
                                  "metadata packet: input ended inside the packet");
    if (m->mode == 2 && m->hdr_have != 0 && m->hdr_have < META_HDR) {
        /* A stray tail too short to be a metadata packet (a real LTTng quirk;
         * babeltrace2 reads such traces): ignored, with a warning. */
        char reason[TRACERD__REASON_MAX];
        tracerd__format(reason, sizeof reason,
                        "metadata stream: %zu bytes after the last packet are too short to be a "
                        "metadata packet (%u-byte header): ignored",
                        m->hdr_have, (unsigned)META_HDR);
        /* kept: live metadata may append the rest of that packet */
        if (m->cfg.on_warning != NULL) {
            tracerd_warning_t w = tracerd__warning(TRACERD_E_TRUNCATED, m->pkt_offset,
                                                   m->offset - m->pkt_offset, reason);
            (void)m->cfg.on_warning(m->cfg.user, &w);
        }
    }
    if (m->mode == 0 && m->hdr_have > 0) {
        tracerd_status_t st = append_text(m, m->hdr, m->hdr_have);
        if (st != TRACERD_OK)
            return st;
        m->hdr_have = 0;
        m->mode = 1;
    }
    m->line = m->col = 0;
    struct tracerd_ctf_trace *t = tracerd__calloc(&m->alloc, sizeof *t);
    if (t == NULL)
        return tracerd__error_set(&m->err, TRACERD_E_NOMEM, 0, "metadata: out of memory");
    t->alloc = m->alloc;
    tracerd__ctf_arena_init(&t->arena, &t->alloc);
    t->info.byte_order = TRACERD_BYTE_ORDER_LITTLE;
    t->info.metadata_bytes = m->len;
    t->limits = m->cfg;           /* the compiler's bounds, whatever the metadata version */
    t->limits.value_names = NULL; /* not kept: the copy below */
    t->limits.nvalue_names = 0;
    if (copy_value_names(&m->cfg, t) != TRACERD_OK) {
        tracerd_ctf_trace_free(t);
        return tracerd__error_set(&m->err, TRACERD_E_NOMEM, 0, "metadata: out of memory");
    }
    /* CTF 2 when the text (packet headers stripped) starts with the JSON
     * text sequence's record separator. */
    tracerd_status_t st = m->len > 0 && m->text[0] == 0x1E ? tracerd__ctf_json_parse(m, t)
                                                           : tracerd__ctf_tsdl_parse(m, t);
    if (st == TRACERD_OK) {
        char reason[TRACERD__REASON_MAX];
        uint32_t line = 0, col = 0;
        st = tracerd__ctf_compile(t, reason, sizeof reason, &line, &col);
        if (st != TRACERD_OK) {
            m->line = line;
            m->col = col;
            tracerd__error_set(&m->err, st, t->err_offset, "%s", reason);
        }
    }
    if (st != TRACERD_OK) {
        tracerd_ctf_trace_free(t);
        /* A parse error is not sticky: more metadata may be appended and
         * parsed again; the reason stays readable until then. */
        tracerd_status_t ret = m->err.status;
        m->err.status = TRACERD_OK;
        /* Where in the metadata stream: CTF 2 gives the fragment's offset in
         * the text, TSDL the line and column. */
        bool ctf2 = m->len > 0 && m->text[0] == 0x1E;
        uint64_t off = ctf2 ? m->err.offset : m->line > 0 ? text_offset(m, m->line, m->col) : 0;
        m->parse_failed = ctf2 || m->line > 0;
        m->parse_err_off = m->err.offset = stream_offset(m, off);
        return ret != TRACERD_OK ? ret : st;
    }
    *out = t;
    return TRACERD_OK;
}

tracerd_status_t tracerd_ctf_trace_parse(const void *data, size_t len,
                                         const tracerd_ctf_metadata_config_t *cfg,
                                         const tracerd_allocator_t *alloc,
                                         tracerd_ctf_trace_t **out, char *reason,
                                         size_t reason_size)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = NULL;
    tracerd_ctf_metadata_t *m;
    tracerd_status_t st = tracerd_ctf_metadata_new(cfg, alloc, &m);
    if (st != TRACERD_OK) {
        if (reason && reason_size)
            tracerd__format(reason, reason_size, "%s", tracerd_status_message(st));
        return st;
    }
    st = tracerd_ctf_metadata_feed(m, data, len);
    if (st == TRACERD_OK)
        st = tracerd_ctf_metadata_finish(m, out);
    if (st != TRACERD_OK && reason && reason_size)
        tracerd__format(reason, reason_size, "%s", m->err.reason);
    tracerd_ctf_metadata_free(m);
    return st;
}
