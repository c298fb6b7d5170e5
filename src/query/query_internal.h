/* query_internal.h - what the filter lexer, parser and sort share inside
 * src/query/ (not API: include/profview/query.h is). */
#ifndef PROFVIEW_QUERY_INTERNAL_H
#define PROFVIEW_QUERY_INTERNAL_H

#include "profview/query.h"

typedef enum pv_token_kind {
    PV_TOK_END,
    PV_TOK_LPAREN,
    PV_TOK_RPAREN,
    PV_TOK_AND,    /* && and */
    PV_TOK_OR,     /* || or */
    PV_TOK_NOT,    /* ! not */
    PV_TOK_OP,     /* = == != < <= > >= ~ !~ like */
    PV_TOK_WORD,   /* bare word: a column, a number, a text */
    PV_TOK_STRING, /* "text" or 'text' */
    PV_TOK_REGEX,  /* /regex/ with optional flag i */
} pv_token_kind;

typedef enum pv_query_op {
    PV_OP_EQ,
    PV_OP_NE,
    PV_OP_LT,
    PV_OP_LE,
    PV_OP_GT,
    PV_OP_GE,
    PV_OP_MATCH,   /* ~ */
    PV_OP_NOMATCH, /* !~ */
    PV_OP_LIKE,
} pv_query_op;

typedef struct pv_token {
    pv_token_kind kind;
    size_t pos; /* 0-based byte offset of the first character */
    size_t len; /* bytes of source text */
    pv_query_op op;   /* PV_TOK_OP */
    char *text;       /* WORD, STRING (unescaped), REGEX (the pattern): owned */
    bool icase;       /* REGEX with the i flag */
} pv_token;

/* Splits `expr` into tokens (the last is PV_TOK_END).  Returns false and
 * fills *err on an unterminated string or regex or a stray character. */
bool pv_query_lex(const char *expr, pv_token **tokens, size_t *count, pv_query_error *err);
void pv_query_tokens_free(pv_token *tokens, size_t count);

/* Fills err with a message followed by " at column N" (N = pos + 1). */
void pv_query_fail(pv_query_error *err, size_t pos, const char *fmt, ...) PV_PRINTF(3, 4);

/* Appends "; columns: a, b, c" to the message (as much as it holds). */
void pv_query_append_columns(pv_query_error *err, const pv_view *v);

#endif
