/* CTF 2 metadata: a fragment's text into a jansson tree (ctf2_json.h). */
#include <stdio.h>

#include "ctf2_json.h"

static bool json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* One pass over a fragment's text before jansson parses it:
 * - *cost: an upper bound of what jansson will allocate for its tree (it
 *   allocates with malloc, outside the reader's allocator: its hooks are
 *   process-global). Measured with jansson 2.14 on 64-bit: 208 bytes per
 *   empty object, 112 per empty array, 32 per integer, ~100 per object
 *   member; counted here as 256 per '{', 128 per '[', 64 per ',' or ':'
 *   (each a value or member), plus twice the text (string copies);
 * - the integer tokens jansson cannot hold (above INT64_MAX or below
 *   INT64_MIN), recorded in J->wide. A token counts only where a JSON value
 *   may start and end (after '[', ',', ':' or space, before ',', ']', '}',
 *   space or the end) and has no leading zero: elsewhere jansson reports its
 *   own error.
 * Strings (escapes included) are skipped. */
static tracerd_status_t scan(struct j2 *J, const char *text, size_t n, uint64_t *cost)
{
    bool in_str = false;
    uint64_t c = 2 * (uint64_t)n + 64;
    for (size_t i = 0; i < n; i++) {
        char ch = text[i];
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = false;
            continue;
        }
        c += ch == '{' ? 256u : ch == '[' ? 128u : ch == ',' || ch == ':' ? 64u : 0u;
        if (ch == '"') {
            in_str = true;
            continue;
        }
        if (ch != '-' && (ch < '0' || ch > '9'))
            continue;
        size_t start = i, d = i + (ch == '-');
        size_t end = d;
        while (end < n && text[end] >= '0' && text[end] <= '9')
            end++;
        char before = start > 0 ? text[start - 1] : ' ';
        char after = end < n ? text[end] : ' ';
        bool value = (before == '[' || before == ',' || before == ':' || json_space(before)) &&
                     (after == ',' || after == ']' || after == '}' || json_space(after));
        i = end - 1; /* the rest of a number with a fraction or exponent is skipped */
        while (i + 1 < n && (text[i + 1] == '.' || text[i + 1] == 'e' || text[i + 1] == 'E' ||
                             text[i + 1] == '+' || text[i + 1] == '-' ||
                             (text[i + 1] >= '0' && text[i + 1] <= '9')))
            i++;
        if (!value || end - d < 19 || text[d] == '0')
            continue;
        uint64_t mag = 0;
        bool over = false;
        for (size_t k = d; k < end && !over; k++) {
            unsigned dig = (unsigned)(text[k] - '0');
            over = mag > (UINT64_MAX - dig) / 10;
            mag = mag * 10 + dig;
        }
        bool neg = ch == '-';
        if (!over && (neg ? mag <= (uint64_t)1 << 63 : mag <= (uint64_t)INT64_MAX))
            continue; /* jansson holds it */
        if (end > UINT32_MAX)
            return tracerd__ctf2_err(J, TRACERD_E_LIMIT, "an integer token beyond 4 GiB");
        if (!tracerd__ctf_arena_grow(J->ar, (void **)&J->wide, J->nwide, &J->wide_cap,
                                     sizeof *J->wide))
            return tracerd__ctf2_nomem(J);
        J->wide[J->nwide++] =
            (struct wide_int){mag, over || neg, (uint32_t)start, (uint32_t)(end - start)};
    }
    *cost = c;
    return TRACERD_OK;
}

/* Parses one fragment with jansson, after scan() (its tree's memory bound
 * against max_metadata_bytes: E_LIMIT). jansson's integers are int64
 * (json_int_t), so a fragment with an integer above INT64_MAX (UINT64
 * range bounds, clock offsets, ids) fails with a numeric overflow; then
 * jansson parses the text twice more,
 * with each such token replaced by text of the same length: "0" and spaces
 * (strict parse: everything else is valid JSON, with no NUL in any string,
 * and positions in errors are the original ones), then the marker string
 * "\u0000<index>" and spaces (JSON_ALLOW_NUL: the tree read; the only
 * strings holding a NUL are the markers, so get_int reads them exactly and
 * is_str refuses them). *root NULL with *je filled: a JSON error. */
tracerd_status_t tracerd__ctf2_load(struct j2 *J, const char *text, size_t n, json_t **root,
                                    json_error_t *je)
{
    J->text = text;
    J->nwide = 0;
    uint64_t cost = 0;
    tracerd_status_t st = scan(J, text, n, &cost);
    if (st != TRACERD_OK)
        return st;
    if (cost > J->m->cfg.max_metadata_bytes)
        return tracerd__ctf2_err(
            J, TRACERD_E_LIMIT,
            "its JSON (%zu bytes) may take up to %llu bytes to parse, more than "
            "max_metadata_bytes (%zu)",
            n, (unsigned long long)cost, J->m->cfg.max_metadata_bytes);
    *root = json_loadb(text, n, JSON_REJECT_DUPLICATES, je);
    if (*root != NULL || json_error_code(je) != json_error_numeric_overflow || J->nwide == 0)
        return TRACERD_OK;
    char *copy = tracerd__calloc(&J->t->alloc, n + 1);
    if (copy == NULL)
        return tracerd__ctf2_nomem(J);
    for (int pass = 0; pass < 2; pass++) {
        memcpy(copy, text, n);
        for (uint32_t k = 0; k < J->nwide; k++) {
            char *at = copy + J->wide[k].off;
            memset(at, ' ', J->wide[k].len);
            if (pass == 0)
                at[0] = '0';
            else { /* at most 18 characters: fits the 19 or more of the token */
                char mk[24];
                int ml = snprintf(mk, sizeof mk, "\"\\u0000%u\"", k);
                memcpy(at, mk, (size_t)ml);
            }
        }
        *root = json_loadb(
            copy, n, pass == 0 ? JSON_REJECT_DUPLICATES : JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
            je);
        if (*root == NULL || pass == 1)
            break;
        json_decref(*root);
        *root = NULL;
    }
    tracerd__free(&J->t->alloc, copy, n + 1);
    return TRACERD_OK;
}
