/* xtrace file names: xtrace.{timestamp}.{tid|cpuid}.hint{9|13}.{xinsndata|xsnapshot}.bin */
#include <tracerd/xtrace.h>

#include "../core/internal.h"

/* Parses decimal digits at s[*i]; false if none or the value overflows. */
static bool digits(const char *s, size_t *i, uint64_t *out, size_t *ndigits)
{
    uint64_t v = 0;
    size_t start = *i;
    while (s[*i] >= '0' && s[*i] <= '9') {
        unsigned d = (unsigned)(s[*i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
        (*i)++;
    }
    *out = v;
    *ndigits = *i - start;
    return *ndigits > 0;
}

static bool lit(const char *s, size_t *i, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(s + *i, word, n) != 0)
        return false;
    *i += n;
    return true;
}

tracerd_status_t tracerd_xtrace_parse_filename(const char *name, tracerd_xtrace_filename_t *out)
{
    if (out == NULL)
        return TRACERD_E_INVALID;
    memset(out, 0, sizeof *out);
    if (name == NULL)
        return TRACERD_E_INVALID;
    const char *slash = strrchr(name, '/');
    size_t base = slash != NULL ? (size_t)(slash - name) + 1 : 0;
    const char *s = name + base;
    size_t i = 0, nd;
    tracerd_xtrace_filename_t f;
    memset(&f, 0, sizeof f);
    uint64_t hint;
    if (!lit(s, &i, "xtrace."))
        return TRACERD_E_INVALID;
    f.timestamp_pos = base + i;
    if (!digits(s, &i, &f.timestamp, &f.timestamp_len) || !lit(s, &i, "."))
        return TRACERD_E_INVALID;
    if (!digits(s, &i, &f.id, &nd) || !lit(s, &i, ".hint"))
        return TRACERD_E_INVALID;
    if (!digits(s, &i, &hint, &nd) || (hint != 9 && hint != 13) || s[i - nd] == '0' ||
        !lit(s, &i, "."))
        return TRACERD_E_INVALID;
    f.hint = (unsigned)hint;
    if (lit(s, &i, "xinsndata.bin"))
        f.kind = TRACERD_XTRACE_FILE_INSNDATA;
    else if (lit(s, &i, "xsnapshot.bin"))
        f.kind = TRACERD_XTRACE_FILE_SNAPSHOT;
    else
        return TRACERD_E_INVALID;
    if (s[i] != '\0')
        return TRACERD_E_INVALID;
    *out = f;
    return TRACERD_OK;
}
