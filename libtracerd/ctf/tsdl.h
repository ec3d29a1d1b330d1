/* TSDL (CTF 1.8 metadata text): the lexer's tokens, the parser's state and
 * the helpers the lexer (tsdl_lex.c), the parser (tsdl_parse.c) and the
 * model builder (tsdl_model.c) share. Never installed. */
#ifndef TRACERD_CTF_TSDL_H
#define TRACERD_CTF_TSDL_H

#include "metadata.h"

/* ==== lexer =============================================================== */

enum { K_EOF, K_IDENT, K_INT, K_STR, K_CHAR, K_PUNCT };

struct tok {
    int k;
    const char *p;
    size_t len;
    uint32_t line, col;
    uint64_t ival;
};

struct lex {
    const char *s;
    size_t n, pos;
    uint32_t line, col;
};

/* ==== parser state ======================================================== */

/* ==== parser state ======================================================== */

enum { FR_TOP, FR_BLOCK, FR_STRUCT, FR_VARIANT };
enum { BLK_TRACE, BLK_STREAM, BLK_EVENT, BLK_CLOCK, BLK_ENV, BLK_CALLSITE };
enum { P_NONE, P_FIELD, P_TYPEDEF, P_TYPEALIAS, P_ASSIGN, P_TYPESTMT };
enum { D_ALIAS, D_STRUCT, D_VARIANT, D_ENUM };

struct decl {
    struct decl *next;   /* in its frame, newest first */
    struct decl *shadow; /* the declaration with the same key before it (outer or colliding) */
    uint64_t key;        /* hash of kind and name: P->decls maps it to the newest */
    int kind;
    const char *name;
    const tracerd_ctf_type_t *type;
};

struct mnode {
    struct mnode *next;
    struct mnode *same; /* member of any frame with the same key before it */
    uint64_t key;       /* hash of the frame serial and the name: P->members */
    const char *name;
    const tracerd_ctf_type_t *type;
};

struct sc_build {
    struct sc_build *next;
    tracerd_ctf_stream_class_t *sc;
    bool has_id;
};

struct ec_build {
    struct ec_build *next;
    tracerd_ctf_event_class_t *ec;
    bool has_id, has_stream_id;
    uint32_t line, col;
};

struct clk_build {
    struct clk_build *next;
    struct clk_build *same; /* clock with the same name hash before it */
    tracerd_ctf_clock_t c;
};

struct env_build {
    struct env_build *next;
    tracerd_ctf_env_t e;
};

struct frame {
    int kind, block, pend;
    char key[64];
    struct decl *decls;
    struct mnode *mhead, *mtail;
    uint32_t nm;
    uint32_t serial; /* unique per frame pushed: member keys of different frames differ */
    const char *cname;
    const char *tag;
    uint32_t line, col;
    struct sc_build *sb;
    struct ec_build *eb;
    struct clk_build *cb;
};

struct parser {
    tracerd_ctf_metadata_t *m;
    struct tracerd_ctf_trace *t;
    struct ctf_arena *ar;
    struct lex lx;
    struct frame *fr;
    uint32_t nfr, maxfr;
    struct sc_build *streams;
    struct ec_build *events;
    struct clk_build *clocks;
    struct env_build *env;
    uint32_t nstreams, nevents, nclocks, nenv;
    bool have_trace, have_bo;
    struct tok trace_at;
    char scratch[512];
    /* Name lookups in constant time (xxHash tables, freed after parsing). */
    struct tracerd__hmap decls;       /* decl key -> newest struct decl * visible */
    struct tracerd__hmap members;     /* member key -> newest struct mnode * */
    struct tracerd__hmap stream_ids;  /* stream class id -> 1 */
    struct tracerd__hmap clock_names; /* name hash -> newest struct clk_build * */
    uint32_t ndecls, serials;
    uint64_t ndeclared;     /* types, members, enumerators, env entries (2 x max_type_nodes) */
    uint32_t nclock_blocks; /* clock blocks opened (max_stream_classes) */
};

/* Sets m's error at token t (NULL: the lexer's position) and returns
 * E_METADATA. */
tracerd_status_t tracerd__tsdl_error(struct parser *P, const struct tok *t, const char *fmt, ...)
    TRACERD__PRINTF(3, 4);
#define PERR(P, T, ...) tracerd__tsdl_error((P), (T), __VA_ARGS__)
/* The same for a bound of the configuration: returns E_LIMIT. */
tracerd_status_t tracerd__tsdl_limit(struct parser *P, const struct tok *t, const char *fmt, ...)
    TRACERD__PRINTF(3, 4);

/* Lexes the next token at l (advancing l). Returns OK or E_METADATA. */
tracerd_status_t tracerd__tsdl_lex(struct parser *P, struct lex *l, struct tok *t);
/* Unescapes a string or char literal token into the arena (NULL: no memory). */
char *tracerd__tsdl_unescape(struct parser *P, const struct tok *t);
/* One item of the innermost frame; *done at the end of the text. */
tracerd_status_t tracerd__tsdl_parse_item(struct parser *P, bool *done);

static inline tracerd_status_t nomem(struct parser *P)
{
    return tracerd__error_set(&P->m->err, TRACERD_E_NOMEM, 0, "metadata: out of memory");
}

static inline tracerd_status_t next(struct parser *P, struct tok *t)
{
    return tracerd__tsdl_lex(P, &P->lx, t);
}

static inline tracerd_status_t peek(struct parser *P, struct tok *t)
{
    struct lex save = P->lx;
    tracerd_status_t st = tracerd__tsdl_lex(P, &save, t);
    return st;
}

static inline tracerd_status_t peek2(struct parser *P, struct tok *t1, struct tok *t2)
{
    struct lex save = P->lx;
    tracerd_status_t st = tracerd__tsdl_lex(P, &save, t1);
    if (st == TRACERD_OK)
        st = tracerd__tsdl_lex(P, &save, t2);
    return st;
}

static inline bool is(const struct tok *t, const char *s)
{
    size_t n = strlen(s);
    return (t->k == K_PUNCT || t->k == K_IDENT) && t->len == n && memcmp(t->p, s, n) == 0;
}

static inline tracerd_status_t expect(struct parser *P, const char *s)
{
    struct tok t;
    tracerd_status_t st = next(P, &t);
    if (st != TRACERD_OK)
        return st;
    if (!is(&t, s))
        return PERR(P, &t, "expected '%s'", s);
    return TRACERD_OK;
}

static inline char *tokdup(struct parser *P, const struct tok *t)
{
    return tracerd__ctf_arena_strdup(P->ar, t->p, t->len);
}

#endif
