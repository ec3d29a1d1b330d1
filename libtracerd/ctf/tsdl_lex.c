/* TSDL lexer: tokens with their line and column, literal unescaping, and
 * the parser's error message format. */
#include <stdio.h>

#include "tsdl.h"

static tracerd_status_t verror(struct parser *P, tracerd_status_t st, const struct tok *t,
                               const char *fmt, va_list ap) TRACERD__PRINTF(4, 0);
static tracerd_status_t verror(struct parser *P, tracerd_status_t st, const struct tok *t,
                               const char *fmt, va_list ap)
{
    char msg[200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    P->m->line = t ? t->line : P->lx.line;
    P->m->col = t ? t->col : P->lx.col;
    if (t && t->k == K_EOF)
        return tracerd__error_set(&P->m->err, st, 0,
                                  "metadata line %u, column %u: %s, got end of text", P->m->line,
                                  P->m->col, msg);
    if (t)
        return tracerd__error_set(&P->m->err, st, 0, "metadata line %u, column %u: %s, got '%.*s'",
                                  P->m->line, P->m->col, msg, (int)(t->len > 40 ? 40 : t->len),
                                  t->p);
    return tracerd__error_set(&P->m->err, st, 0, "metadata line %u, column %u: %s", P->m->line,
                              P->m->col, msg);
}

tracerd_status_t tracerd__tsdl_error(struct parser *P, const struct tok *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tracerd_status_t st = verror(P, TRACERD_E_METADATA, t, fmt, ap);
    va_end(ap);
    return st;
}

tracerd_status_t tracerd__tsdl_limit(struct parser *P, const struct tok *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tracerd_status_t st = verror(P, TRACERD_E_LIMIT, t, fmt, ap);
    va_end(ap);
    return st;
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void lx_adv(struct lex *l, size_t n)
{
    while (n-- && l->pos < l->n) {
        if (l->s[l->pos] == '\n') {
            l->line++;
            l->col = 1;
        } else {
            l->col++;
        }
        l->pos++;
    }
}

tracerd_status_t tracerd__tsdl_lex(struct parser *P, struct lex *l, struct tok *t)
{
    for (;;) {
        while (l->pos < l->n &&
               (l->s[l->pos] == ' ' || l->s[l->pos] == '\t' || l->s[l->pos] == '\n' ||
                l->s[l->pos] == '\r' || l->s[l->pos] == '\f' || l->s[l->pos] == '\v'))
            lx_adv(l, 1);
        if (l->pos + 1 < l->n && l->s[l->pos] == '/' && l->s[l->pos + 1] == '*') {
            struct tok c = {K_PUNCT, l->s + l->pos, 2, l->line, l->col, 0};
            lx_adv(l, 2);
            while (l->pos + 1 < l->n && !(l->s[l->pos] == '*' && l->s[l->pos + 1] == '/'))
                lx_adv(l, 1);
            if (l->pos + 1 >= l->n)
                return PERR(P, &c, "comment is not closed");
            lx_adv(l, 2);
            continue;
        }
        if (l->pos + 1 < l->n && l->s[l->pos] == '/' && l->s[l->pos + 1] == '/') {
            while (l->pos < l->n && l->s[l->pos] != '\n')
                lx_adv(l, 1);
            continue;
        }
        break;
    }
    t->line = l->line;
    t->col = l->col;
    t->p = l->s + l->pos;
    t->ival = 0;
    if (l->pos >= l->n || l->s[l->pos] == '\0') {
        t->k = K_EOF;
        t->len = 0;
        return TRACERD_OK;
    }
    char c = l->s[l->pos];
    size_t i = l->pos;
    if (is_ident_start(c)) {
        while (i < l->n && is_ident_char(l->s[i]))
            i++;
        t->k = K_IDENT;
    } else if (c >= '0' && c <= '9') {
        uint64_t v = 0;
        unsigned base = 10;
        if (c == '0' && i + 1 < l->n && (l->s[i + 1] == 'x' || l->s[i + 1] == 'X')) {
            base = 16;
            i += 2;
        } else if (c == '0') {
            base = 8;
        }
        size_t digits = 0;
        for (; i < l->n; i++) {
            char d = l->s[i];
            unsigned dv;
            if (d >= '0' && d <= '9')
                dv = (unsigned)(d - '0');
            else if (base == 16 && d >= 'a' && d <= 'f')
                dv = (unsigned)(d - 'a' + 10);
            else if (base == 16 && d >= 'A' && d <= 'F')
                dv = (unsigned)(d - 'A' + 10);
            else
                break;
            if (dv >= base) {
                t->k = K_INT;
                t->len = i + 1 - l->pos;
                return PERR(P, t, "bad digit in an integer literal");
            }
            if (v > (UINT64_MAX - dv) / base) {
                t->k = K_INT;
                t->len = i + 1 - l->pos;
                return PERR(P, t, "integer literal does not fit in 64 bits");
            }
            v = v * base + dv;
            digits++;
        }
        if (base == 16 && digits == 0) {
            t->k = K_INT;
            t->len = i - l->pos;
            return PERR(P, t, "hexadecimal literal without digits");
        }
        while (i < l->n && (l->s[i] == 'u' || l->s[i] == 'U' || l->s[i] == 'l' || l->s[i] == 'L'))
            i++;
        t->k = K_INT;
        t->ival = v;
    } else if (c == '"' || c == '\'') {
        i++;
        while (i < l->n && l->s[i] != c && l->s[i] != '\n') {
            if (l->s[i] == '\\' && i + 1 < l->n)
                i++;
            i++;
        }
        if (i >= l->n || l->s[i] != c) {
            t->k = K_STR;
            t->len = 1;
            return PERR(P, t, "string literal is not closed on its line");
        }
        i++;
        t->k = c == '"' ? K_STR : K_CHAR;
    } else {
        t->k = K_PUNCT;
        if (i + 2 < l->n && c == '.' && l->s[i + 1] == '.' && l->s[i + 2] == '.')
            i += 3;
        else if (i + 1 < l->n &&
                 ((c == ':' && l->s[i + 1] == '=') || (c == '-' && l->s[i + 1] == '>')))
            i += 2;
        else if (strchr("{}[]()<>;,:=.+-*", c) != NULL)
            i++;
        else {
            t->len = 1;
            return PERR(P, t, "unexpected character");
        }
    }
    t->len = i - l->pos;
    lx_adv(l, t->len);
    return TRACERD_OK;
}

/* Unescapes a string or char literal token into the arena. */
char *tracerd__tsdl_unescape(struct parser *P, const struct tok *t)
{
    const char *s = t->p + 1;
    size_t n = t->len - 2;
    char *d = tracerd__ctf_arena_alloc(P->ar, n + 1);
    if (d == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\' && i + 1 < n) {
            char e = s[++i];
            switch (e) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'a':
                c = '\a';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'v':
                c = '\v';
                break;
            case 'x': {
                unsigned v = 0, k = 0;
                while (k < 2 && i + 1 < n) {
                    char h = s[i + 1];
                    unsigned hv = h >= '0' && h <= '9'   ? (unsigned)(h - '0')
                                  : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10)
                                  : h >= 'A' && h <= 'F' ? (unsigned)(h - 'A' + 10)
                                                         : 16u;
                    if (hv == 16)
                        break;
                    v = v * 16 + hv;
                    i++;
                    k++;
                }
                c = (char)v;
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    unsigned v = (unsigned)(e - '0'), k = 1;
                    while (k < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
                        v = v * 8 + (unsigned)(s[++i] - '0');
                        k++;
                    }
                    c = (char)v;
                } else {
                    c = e;
                }
            }
        }
        d[o++] = c;
    }
    d[o] = '\0';
    return d;
}
