/* lexer.c - splits a filter expression (docs/filter.md) into tokens, and
 * renders an error with a caret under the offending character. */
#include "query_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void pv_query_fail(pv_query_error *err, size_t pos, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    size_t used = strlen(err->message);
    snprintf(err->message + used, sizeof err->message - used, " at column %zu", pos + 1);
    err->position = pos;
}

void pv_query_append_columns(pv_query_error *err, const pv_view *v)
{
    size_t used = strlen(err->message);
    for (size_t c = 0; c < v->column_count && used < sizeof err->message - 1; c++) {
        snprintf(err->message + used, sizeof err->message - used, "%s%s",
                 c ? ", " : "; columns: ", v->columns[c].id);
        used = strlen(err->message);
    }
}

/* A bare word runs until blank space or a character that starts another
 * token; '/' and '-' may occur inside it (paths, view ids, negative numbers). */
static bool pv_is_word_char(char c)
{
    return c != '\0' && strchr(" \t\n\r\f\v()\"'=<>!~&|", c) == NULL;
}

static void pv_token_push(pv_token **tokens, size_t *count, size_t *cap, pv_token t)
{
    *tokens = pv_xgrow(*tokens, cap, *count + 1, sizeof **tokens);
    (*tokens)[(*count)++] = t;
}

static int pv_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The escapes that `profview cat` writes (docs/cli.md: \t \n \r \\ and
 * \xNN for other control characters), so that a value copied from its
 * output matches.  At expr[i] == '\\': stores the byte and returns the
 * length of the escape, or 0 when it is not one of these (NUL is never
 * produced: cell strings hold none). */
static size_t pv_lex_escape(const char *expr, size_t i, char *byte)
{
    switch (expr[i + 1]) {
    case 't':
        *byte = '\t';
        return 2;
    case 'n':
        *byte = '\n';
        return 2;
    case 'r':
        *byte = '\r';
        return 2;
    case 'x': {
        int hi = pv_hex_digit(expr[i + 2]);
        int lo = hi < 0 ? -1 : pv_hex_digit(expr[i + 3]);
        if (lo < 0 || (hi == 0 && lo == 0))
            return 0;
        *byte = (char)(hi * 16 + lo);
        return 4;
    }
    default:
        return 0;
    }
}

/* Reads a quoted string starting at expr[i] (the quote).  Besides the
 * escapes above, a backslash before a backslash or a quote takes it
 * literally; any other backslash is kept (so C:\src\main.c needs no
 * doubling).  Returns the index after the closing quote, or 0 when the
 * string is not closed. */
static size_t pv_lex_string(const char *expr, size_t i, pv_buf *out)
{
    char quote = expr[i++];
    pv_buf_clear(out);
    while (expr[i]) {
        char byte;
        size_t esc;
        if (expr[i] == '\\' && (esc = pv_lex_escape(expr, i, &byte)) != 0) {
            pv_buf_putc(out, byte);
            i += esc;
        } else if (expr[i] == '\\' &&
                   (expr[i + 1] == '\\' || expr[i + 1] == '"' || expr[i + 1] == '\'')) {
            pv_buf_putc(out, expr[i + 1]);
            i += 2;
        } else if (expr[i] == quote) {
            return i + 1;
        } else {
            pv_buf_putc(out, expr[i++]);
        }
    }
    return 0;
}

/* Reads /regex/flags starting at expr[i].  Inside, "\/" stands for '/', and
 * \t \n \r \xNN for control characters (as `cat` writes them); every
 * other backslash sequence is left for regcomp. */
static size_t pv_lex_regex(const char *expr, size_t i, pv_buf *out)
{
    i++;
    pv_buf_clear(out);
    while (expr[i]) {
        char byte;
        size_t esc;
        if (expr[i] == '\\' && expr[i + 1] == '/') {
            pv_buf_putc(out, '/');
            i += 2;
        } else if (expr[i] == '\\' && (esc = pv_lex_escape(expr, i, &byte)) != 0 &&
                   ((unsigned char)byte < 0x20 || byte == 0x7f)) {
            pv_buf_putc(out, byte);
            i += esc;
        } else if (expr[i] == '\\' && expr[i + 1]) {
            pv_buf_putc(out, '\\');
            pv_buf_putc(out, expr[i + 1]);
            i += 2;
        } else if (expr[i] == '/') {
            return i + 1;
        } else {
            pv_buf_putc(out, expr[i++]);
        }
    }
    return 0;
}

bool pv_query_lex(const char *expr, pv_token **tokens_out, size_t *count_out, pv_query_error *err)
{
    pv_token *tokens = NULL;
    size_t count = 0, cap = 0;
    pv_buf text;
    pv_buf_init(&text);
    size_t i = 0;
    for (;;) {
        while (expr[i] == ' ' || expr[i] == '\t' || expr[i] == '\n' || expr[i] == '\r' ||
               expr[i] == '\f' || expr[i] == '\v')
            i++;
        pv_token t = {.kind = PV_TOK_END, .pos = i, .len = 1};
        char c = expr[i];
        char next = c ? expr[i + 1] : '\0';
        if (c == '\0') {
            t.len = 0;
            pv_token_push(&tokens, &count, &cap, t);
            break;
        }
        if (c == '(' || c == ')') {
            t.kind = c == '(' ? PV_TOK_LPAREN : PV_TOK_RPAREN;
        } else if (c == '&' || c == '|') {
            if (next != c) {
                pv_query_fail(err, i, "unexpected '%c' (write %c%c or %s)", c, c, c,
                              c == '&' ? "and" : "or");
                goto fail;
            }
            t.kind = c == '&' ? PV_TOK_AND : PV_TOK_OR;
            t.len = 2;
        } else if (c == '!') {
            if (next == '=' || next == '~') {
                t.kind = PV_TOK_OP;
                t.op = next == '=' ? PV_OP_NE : PV_OP_NOMATCH;
                t.len = 2;
            } else {
                t.kind = PV_TOK_NOT;
            }
        } else if (c == '=') {
            t.kind = PV_TOK_OP;
            t.op = PV_OP_EQ;
            t.len = next == '=' ? 2 : 1;
        } else if (c == '<' || c == '>') {
            t.kind = PV_TOK_OP;
            t.op = c == '<' ? (next == '=' ? PV_OP_LE : PV_OP_LT)
                            : (next == '=' ? PV_OP_GE : PV_OP_GT);
            t.len = next == '=' ? 2 : 1;
        } else if (c == '~') {
            t.kind = PV_TOK_OP;
            t.op = PV_OP_MATCH;
        } else if (c == '"' || c == '\'') {
            size_t end = pv_lex_string(expr, i, &text);
            if (!end) {
                pv_query_fail(err, i, "unterminated string starting");
                goto fail;
            }
            t.kind = PV_TOK_STRING;
            t.len = end - i;
            t.text = pv_xstrndup(pv_buf_cstr(&text), text.len);
        } else if (c == '/') {
            size_t end = pv_lex_regex(expr, i, &text);
            if (!end) {
                pv_query_fail(err, i, "unterminated /regex/ starting");
                goto fail;
            }
            while (pv_is_word_char(expr[end]) && expr[end] != '/') {
                if (expr[end] != 'i') {
                    pv_query_fail(err, end, "unknown regex flag '%c' (only i is known)", expr[end]);
                    goto fail;
                }
                t.icase = true;
                end++;
            }
            t.kind = PV_TOK_REGEX;
            t.len = end - i;
            t.text = pv_xstrndup(pv_buf_cstr(&text), text.len);
        } else {
            size_t end = i;
            while (pv_is_word_char(expr[end]))
                end++;
            t.kind = PV_TOK_WORD;
            t.len = end - i;
            t.text = pv_xstrndup(expr + i, t.len);
            /* Keywords are case-insensitive (docs/filter.md); they keep their
             * text so that a keyword can still stand as a value. */
            if (strcasecmp(t.text, "and") == 0) {
                t.kind = PV_TOK_AND;
            } else if (strcasecmp(t.text, "or") == 0) {
                t.kind = PV_TOK_OR;
            } else if (strcasecmp(t.text, "not") == 0) {
                t.kind = PV_TOK_NOT;
            } else if (strcasecmp(t.text, "like") == 0) {
                t.kind = PV_TOK_OP;
                t.op = PV_OP_LIKE;
            }
        }
        pv_token_push(&tokens, &count, &cap, t);
        i += t.len;
    }
    pv_buf_free(&text);
    *tokens_out = tokens;
    *count_out = count;
    return true;
fail:
    pv_buf_free(&text);
    pv_query_tokens_free(tokens, count);
    *tokens_out = NULL;
    *count_out = 0;
    return false;
}

void pv_query_tokens_free(pv_token *tokens, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(tokens[i].text);
    free(tokens);
}

void pv_query_error_render(const pv_query_error *err, const char *expr, pv_buf *out)
{
    size_t len = strlen(expr);
    size_t pos = err->position > len ? len : err->position;
    /* The expression is shown with control characters escaped so that it
     * cannot reach a terminal raw; the caret line follows the escaped text. */
    pv_buf line;
    pv_buf_init(&line);
    size_t caret = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == pos)
            caret = line.len;
        if (i == len)
            break;
        unsigned char c = (unsigned char)expr[i];
        if (c < 0x20 || c == 0x7f)
            pv_buf_printf(&line, "\\x%02X", c);
        else
            pv_buf_putc(&line, (char)c);
    }
    pv_buf_append(out, line.data ? line.data : "", line.len);
    pv_buf_putc(out, '\n');
    /* One column per character: UTF-8 continuation bytes take no column. */
    for (size_t i = 0; i < caret; i++)
        if (((unsigned char)line.data[i] & 0xC0) != 0x80)
            pv_buf_putc(out, ' ');
    pv_buf_puts(out, "^\n");
    pv_escape_controls(out, err->message, strlen(err->message));
    pv_buf_putc(out, '\n');
    pv_buf_free(&line);
}
