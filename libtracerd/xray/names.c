/* XRay function ids to names, from the instrumented ELF binary: the
 * xray_instr_map section numbers the functions (as the XRay runtime and
 * llvm-xray's InstrumentationMap do), the symbol table names their entry
 * addresses. ELF32/ELF64, either byte order; the whole file is in memory and
 * every table is bounds-checked against it. */
#include <stdlib.h>

#include <tracerd/xray.h>

#include "../core/internal.h"

#define MAX_SLEDS (16u << 20)
#define SHT_SYMTAB 2u
#define SHT_NOBITS 8u
#define SHT_DYNSYM 11u
#define STT_FUNC 2u

struct tracerd_xray_names {
    tracerd_allocator_t alloc;
    uint32_t count;     /* function ids 1..count */
    uint64_t *addr;     /* [count + 1] */
    uint32_t *name_off; /* [count + 1] into pool; UINT32_MAX = no name */
    uint32_t *name_len; /* [count + 1] */
    char *pool;
    size_t pool_size;
    struct tracerd__error err;
};

struct elf {
    const uint8_t *p;
    size_t len;
    bool big;
    bool is64;
};

struct section {
    uint32_t name;
    uint32_t type;
    uint64_t addr;
    uint64_t offset;
    uint64_t size;
    uint32_t link;
    uint64_t entsize;
};

struct sym {
    uint64_t value;
    uint64_t size;
    uint32_t name; /* offset in the string table */
    bool func;
};

tracerd_status_t tracerd_xray_names_new(const tracerd_allocator_t *alloc,
                                        tracerd_xray_names_t **out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    *out = TRACERD__NEW(tracerd_xray_names_t, alloc);
    return *out != NULL ? TRACERD_OK : TRACERD_E_NOMEM;
}

static void clear(tracerd_xray_names_t *n)
{
    size_t k = (size_t)n->count + 1;
    if (n->addr != NULL)
        tracerd__free(&n->alloc, n->addr, k * sizeof *n->addr);
    if (n->name_off != NULL)
        tracerd__free(&n->alloc, n->name_off, k * sizeof *n->name_off);
    if (n->name_len != NULL)
        tracerd__free(&n->alloc, n->name_len, k * sizeof *n->name_len);
    if (n->pool != NULL)
        tracerd__free(&n->alloc, n->pool, n->pool_size);
    n->addr = NULL;
    n->name_off = NULL;
    n->name_len = NULL;
    n->pool = NULL;
    n->pool_size = 0;
    n->count = 0;
}

void tracerd_xray_names_free(tracerd_xray_names_t *n)
{
    if (n == NULL)
        return;
    clear(n);
    tracerd_allocator_t a = n->alloc;
    tracerd__free(&a, n, sizeof *n);
}

static uint64_t ldw(const struct elf *e, const uint8_t *b)
{
    return e->is64 ? tracerd__ld64(e->big, b) : tracerd__ld32(e->big, b);
}

/* True when [off, off + size) lies inside the file. */
static bool inside(const struct elf *e, uint64_t off, uint64_t size)
{
    return off <= e->len && size <= e->len - off;
}

static tracerd_status_t section_at(tracerd_xray_names_t *n, const struct elf *e, uint64_t shoff,
                                   uint64_t shentsize, uint64_t i, struct section *s)
{
    uint64_t off = shoff + i * shentsize;
    if (!inside(e, off, shentsize))
        return tracerd__error_set(&n->err, TRACERD_E_EXTENT, off,
                                  "ELF section header %llu: runs past the end of the file",
                                  (unsigned long long)i);
    const uint8_t *h = e->p + off;
    s->name = tracerd__ld32(e->big, h);
    s->type = tracerd__ld32(e->big, h + 4);
    if (e->is64) {
        s->addr = tracerd__ld64(e->big, h + 16);
        s->offset = tracerd__ld64(e->big, h + 24);
        s->size = tracerd__ld64(e->big, h + 32);
        s->link = tracerd__ld32(e->big, h + 40);
        s->entsize = tracerd__ld64(e->big, h + 56);
    } else {
        s->addr = tracerd__ld32(e->big, h + 12);
        s->offset = tracerd__ld32(e->big, h + 16);
        s->size = tracerd__ld32(e->big, h + 20);
        s->link = tracerd__ld32(e->big, h + 24);
        s->entsize = tracerd__ld32(e->big, h + 36);
    }
    if (s->type != SHT_NOBITS && !inside(e, s->offset, s->size))
        return tracerd__error_set(&n->err, TRACERD_E_EXTENT, off,
                                  "ELF section %llu: offset %llu + size %llu runs past the end "
                                  "of the file (%llu bytes)",
                                  (unsigned long long)i, (unsigned long long)s->offset,
                                  (unsigned long long)s->size, (unsigned long long)e->len);
    return TRACERD_OK;
}

static bool name_is(const struct elf *e, const struct section *strtab, uint32_t name,
                    const char *want)
{
    size_t wl = strlen(want);
    if (strtab->type == SHT_NOBITS || name >= strtab->size || strtab->size - name < wl + 1)
        return false;
    const uint8_t *s = e->p + strtab->offset + name;
    return memcmp(s, want, wl) == 0 && s[wl] == 0;
}

static int cmp_sym(const void *x, const void *y)
{
    const struct sym *a = x, *b = y;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    if (a->func != b->func)
        return a->func ? -1 : 1; /* functions first among equals */
    return a->name < b->name ? -1 : a->name > b->name;
}

/* Index of the symbol naming addr, or -1: an exact match, else the closest
 * symbol below that has a size covering addr. */
static long find_sym(const struct sym *s, size_t n, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    size_t i = lo - 1;
    if (s[i].value == addr) {
        while (i > 0 && s[i - 1].value == addr)
            i--;
        return (long)i;
    }
    if (s[i].size != 0 && addr - s[i].value < s[i].size)
        return (long)i;
    return -1;
}

static tracerd_status_t parse_header(tracerd_xray_names_t *n, struct elf *e, uint64_t *shoff,
                                     uint64_t *shentsize, uint64_t *shnum, uint64_t *shstrndx)
{
    const uint8_t *p = e->p;
    if (e->len < 16 || p[0] != 0x7f || p[1] != 'E' || p[2] != 'L' || p[3] != 'F')
        return tracerd__error_set(&n->err, TRACERD_E_MAGIC, 0, "ELF header: no \\x7fELF magic");
    if ((p[4] != 1 && p[4] != 2) || (p[5] != 1 && p[5] != 2) || p[6] != 1)
        return tracerd__error_set(&n->err, TRACERD_E_VERSION, 4,
                                  "ELF header: class %u, data %u, version %u not supported", p[4],
                                  p[5], p[6]);
    e->is64 = p[4] == 2;
    e->big = p[5] == 2;
    size_t ehsize = e->is64 ? 64 : 52;
    if (e->len < ehsize)
        return tracerd__error_set(&n->err, TRACERD_E_EXTENT, 0,
                                  "ELF header: file shorter than the header (%zu bytes)", e->len);
    *shoff = e->is64 ? tracerd__ld64(e->big, p + 0x28) : tracerd__ld32(e->big, p + 0x20);
    *shentsize = tracerd__ld16(e->big, p + (e->is64 ? 0x3A : 0x2E));
    *shnum = tracerd__ld16(e->big, p + (e->is64 ? 0x3C : 0x30));
    *shstrndx = tracerd__ld16(e->big, p + (e->is64 ? 0x3E : 0x32));
    if (*shoff == 0)
        return tracerd__error_set(&n->err, TRACERD_E_REFERENCE, 0,
                                  "ELF header: no section headers (stripped of sections?)");
    if (*shentsize != (e->is64 ? 64u : 40u))
        return tracerd__error_set(&n->err, TRACERD_E_BAD_RECORD, 0,
                                  "ELF header: e_shentsize %llu is not %u",
                                  (unsigned long long)*shentsize, e->is64 ? 64u : 40u);
    if (*shnum == 0 || *shstrndx == 0xffffu) {
        struct section s0;
        tracerd_status_t st = section_at(n, e, *shoff, *shentsize, 0, &s0);
        if (st != TRACERD_OK)
            return st;
        if (*shnum == 0)
            *shnum = s0.size;
        if (*shstrndx == 0xffffu)
            *shstrndx = s0.link;
    }
    if (*shnum > e->len / *shentsize || *shstrndx >= *shnum)
        return tracerd__error_set(&n->err, TRACERD_E_EXTENT, 0,
                                  "ELF header: %llu section headers (string table %llu) do not "
                                  "fit the file",
                                  (unsigned long long)*shnum, (unsigned long long)*shstrndx);
    return TRACERD_OK;
}

/* Reads the sleds: fills addr[1..count] with each function's address. With
 * addr NULL only counts. */
static tracerd_status_t read_sleds(tracerd_xray_names_t *n, const struct elf *e,
                                   const struct section *map, uint64_t *addr, uint32_t *count)
{
    uint64_t esz = e->is64 ? 32 : 16, ws = e->is64 ? 8 : 4;
    if (map->size % esz != 0)
        return tracerd__error_set(&n->err, TRACERD_E_BAD_RECORD, map->offset,
                                  "xray_instr_map: size %llu is not a multiple of the %llu-byte "
                                  "sled entry",
                                  (unsigned long long)map->size, (unsigned long long)esz);
    uint64_t nsleds = map->size / esz;
    if (nsleds > MAX_SLEDS)
        return tracerd__error_set(&n->err, TRACERD_E_LIMIT, map->offset,
                                  "xray_instr_map: %llu sleds exceed the limit of %u",
                                  (unsigned long long)nsleds, MAX_SLEDS);
    uint32_t id = 0;
    uint64_t cur = 0;
    for (uint64_t i = 0; i < nsleds; i++) {
        const uint8_t *s = e->p + map->offset + i * esz;
        uint64_t fn = ldw(e, s + ws);
        uint8_t version = s[2 * ws + 2];
        if (version >= 2) /* PC-relative to the field itself */
            fn += map->addr + i * esz + ws;
        if (!e->is64)
            fn &= 0xffffffffu;
        if (id == 0 || fn != cur) {
            id++;
            cur = fn;
            if (addr != NULL)
                addr[id] = fn;
        }
    }
    *count = id;
    return TRACERD_OK;
}

static tracerd_status_t read_symbols(tracerd_xray_names_t *n, const struct elf *e,
                                     const struct section *symtab, const struct section *strtab,
                                     struct sym **out, size_t *nout)
{
    uint64_t esz = e->is64 ? 24 : 16;
    *out = NULL;
    *nout = 0;
    if (symtab->entsize != esz && symtab->entsize != 0)
        return tracerd__error_set(&n->err, TRACERD_E_BAD_RECORD, symtab->offset,
                                  "symbol table: sh_entsize %llu is not %llu",
                                  (unsigned long long)symtab->entsize, (unsigned long long)esz);
    uint64_t nsyms = symtab->size / esz;
    if (nsyms == 0)
        return TRACERD_OK;
    struct sym *s = tracerd__calloc(&n->alloc, (size_t)nsyms * sizeof *s);
    if (s == NULL)
        return tracerd__error_set(&n->err, TRACERD_E_NOMEM, 0, "symbol table: out of memory");
    size_t k = 0;
    for (uint64_t i = 1; i < nsyms; i++) {
        const uint8_t *b = e->p + symtab->offset + i * esz;
        struct sym y;
        uint8_t info;
        uint16_t shndx;
        y.name = tracerd__ld32(e->big, b);
        if (e->is64) {
            info = b[4];
            shndx = tracerd__ld16(e->big, b + 6);
            y.value = tracerd__ld64(e->big, b + 8);
            y.size = tracerd__ld64(e->big, b + 16);
        } else {
            y.value = tracerd__ld32(e->big, b + 4);
            y.size = tracerd__ld32(e->big, b + 8);
            info = b[12];
            shndx = tracerd__ld16(e->big, b + 14);
        }
        y.func = (info & 0xfu) == STT_FUNC;
        if (shndx == 0 || y.name == 0 || y.name >= strtab->size)
            continue;
        if (!y.func && (info & 0xfu) != 0)
            continue; /* objects, sections, files: never function names */
        s[k++] = y;
    }
    qsort(s, k, sizeof *s, cmp_sym);
    *out = s;
    *nout = k;
    (void)nsyms;
    return TRACERD_OK;
}

/* Copies the names of every function id into one pool. */
static tracerd_status_t build_names(tracerd_xray_names_t *n, const struct elf *e,
                                    const struct section *strtab, const struct sym *syms,
                                    size_t nsyms)
{
    size_t k = (size_t)n->count + 1, total = 0;
    const char *base = (const char *)(e->p + strtab->offset);
    for (size_t pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (uint32_t id = 1; id <= n->count; id++) {
            long si = find_sym(syms, nsyms, n->addr[id]);
            if (si < 0) {
                n->name_off[id] = UINT32_MAX;
                continue;
            }
            uint32_t no = syms[si].name;
            const char *nm = base + no;
            size_t max = (size_t)(strtab->size - no);
            const char *z = memchr(nm, 0, max);
            size_t len = z != NULL ? (size_t)(z - nm) : max;
            if (len > 4096)
                len = 4096;
            if (pass == 1) {
                memcpy(n->pool + at, nm, len);
                n->name_off[id] = (uint32_t)at;
                n->name_len[id] = (uint32_t)len;
            }
            at += len;
        }
        if (pass == 0) {
            total = at;
            if (total > UINT32_MAX - 1)
                return tracerd__error_set(&n->err, TRACERD_E_LIMIT, strtab->offset,
                                          "symbol names: %zu bytes in all exceed 4 GiB", total);
            n->pool_size = total + 1;
            n->pool = tracerd__calloc(&n->alloc, n->pool_size);
            if (n->pool == NULL)
                return tracerd__error_set(&n->err, TRACERD_E_NOMEM, 0, "names: out of memory");
        }
    }
    (void)k;
    return TRACERD_OK;
}

static tracerd_status_t load(tracerd_xray_names_t *n, struct elf *e)
{
    uint64_t shoff = 0, shentsize = 0, shnum = 0, shstrndx = 0;
    tracerd_status_t st = parse_header(n, e, &shoff, &shentsize, &shnum, &shstrndx);
    if (st != TRACERD_OK)
        return st;
    struct section shstr, map, symtab, strtab, s;
    memset(&map, 0, sizeof map);
    memset(&symtab, 0, sizeof symtab);
    memset(&strtab, 0, sizeof strtab);
    bool have_map = false, have_sym = false;
    st = section_at(n, e, shoff, shentsize, shstrndx, &shstr);
    if (st != TRACERD_OK)
        return st;
    for (uint64_t i = 1; i < shnum; i++) {
        st = section_at(n, e, shoff, shentsize, i, &s);
        if (st != TRACERD_OK)
            return st;
        if (!have_map && name_is(e, &shstr, s.name, "xray_instr_map")) {
            map = s;
            have_map = true;
        } else if (s.type == SHT_SYMTAB || (s.type == SHT_DYNSYM && !have_sym)) {
            if (have_sym && symtab.type == SHT_SYMTAB)
                continue;
            if (s.link == 0 || s.link >= shnum)
                continue;
            st = section_at(n, e, shoff, shentsize, s.link, &strtab);
            if (st != TRACERD_OK)
                return st;
            symtab = s;
            have_sym = true;
        }
    }
    if (!have_map || map.type == SHT_NOBITS)
        return tracerd__error_set(&n->err, TRACERD_E_REFERENCE, 0,
                                  "ELF: no xray_instr_map section (not built with "
                                  "-fxray-instrument?)");
    uint32_t count = 0;
    st = read_sleds(n, e, &map, NULL, &count);
    if (st != TRACERD_OK)
        return st;
    size_t k = (size_t)count + 1;
    n->addr = tracerd__calloc(&n->alloc, k * sizeof *n->addr);
    n->name_off = tracerd__calloc(&n->alloc, k * sizeof *n->name_off);
    n->name_len = tracerd__calloc(&n->alloc, k * sizeof *n->name_len);
    n->count = count;
    if (n->addr == NULL || n->name_off == NULL || n->name_len == NULL)
        return tracerd__error_set(&n->err, TRACERD_E_NOMEM, 0, "names: out of memory");
    st = read_sleds(n, e, &map, n->addr, &count);
    if (st != TRACERD_OK)
        return st;
    for (size_t i = 0; i < k; i++)
        n->name_off[i] = UINT32_MAX;
    if (!have_sym)
        return TRACERD_OK; /* ids and addresses only */
    struct sym *syms;
    size_t nsyms;
    st = read_symbols(n, e, &symtab, &strtab, &syms, &nsyms);
    if (st != TRACERD_OK)
        return st;
    st = build_names(n, e, &strtab, syms, nsyms);
    if (syms != NULL)
        tracerd__free(&n->alloc, syms, (size_t)(symtab.size / (e->is64 ? 24 : 16)) * sizeof *syms);
    return st;
}

tracerd_status_t tracerd_xray_names_load(tracerd_xray_names_t *n, const void *elf, size_t len)
{
    if (n == NULL || (elf == NULL && len != 0))
        return TRACERD_E_INVALID;
    clear(n);
    tracerd__error_clear(&n->err);
    struct elf e = {elf, len, false, false};
    tracerd_status_t st = load(n, &e);
    if (st != TRACERD_OK)
        clear(n);
    return st;
}

uint32_t tracerd_xray_names_count(const tracerd_xray_names_t *n)
{
    return n != NULL ? n->count : 0;
}

bool tracerd_xray_names_lookup(const tracerd_xray_names_t *n, int32_t id, tracerd_str_t *name)
{
    if (name != NULL) {
        name->data = "";
        name->len = 0;
    }
    if (n == NULL || id <= 0 || (uint32_t)id > n->count || n->name_off[id] == UINT32_MAX)
        return false;
    if (name != NULL) {
        name->data = n->pool + n->name_off[id];
        name->len = n->name_len[id];
    }
    return true;
}

uint64_t tracerd_xray_names_address(const tracerd_xray_names_t *n, int32_t id)
{
    if (n == NULL || id <= 0 || (uint32_t)id > n->count)
        return 0;
    return n->addr[id];
}

const char *tracerd_xray_names_error_reason(const tracerd_xray_names_t *n)
{
    return n != NULL ? n->err.reason : "";
}
