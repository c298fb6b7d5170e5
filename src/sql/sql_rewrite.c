/*
 * sql_rewrite.c - the SQL layer's own small tokenizer and the GROUP BY
 * rewriter that runs a query on a grouped column group by group
 * (docs/sql.md).
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- GROUP BY a column of few values, group by group (docs/sql.md)
 *
 * SQLite runs a GROUP BY as a loop that reads the group's value of every
 * row and compares it with the last one: even with the rows coming group
 * by group (above), that loop costs about twice a plain aggregate.  A query
 * of the shape
 *
 *     SELECT list FROM table [WHERE cond] GROUP BY col [HAVING cond]
 *
 * where col is a grouped column of the table, and nothing in it reads
 * another table or other rows (no subquery, window, DISTINCT, ORDER BY,
 * LIMIT, compound, join), is run as `SELECT list, count(*) FROM table
 * [WHERE cond] [HAVING cond]` once per group, the table giving only that
 * group's rows: SQLite computes every aggregate, over the same rows in the
 * same order, and the groups come in the order GROUP BY gives them.  The
 * added count(*) is the number of rows WHERE kept: a group it keeps none of
 * has no result row (as in GROUP BY).  Anything else runs as written. */

static bool sql_ident_char(unsigned char ch)
{
    return ch == '_' || ch == '$' || ch >= 0x80 || (ch >= '0' && ch <= '9') ||
           ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z');
}

/* The tokens of q; false for anything this reading does not know
 * (variables, an unterminated quote) or more than `cap` tokens. */
static bool sql_tokenize(const char *q, sql_tok *tok, size_t cap, size_t *count)
{
    size_t n = 0;
    int depth = 0;
    const char *p = q;
    while (*p) {
        unsigned char ch = (unsigned char)*p;
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
            p++;
            continue;
        }
        if (ch == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (ch == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                break;
            p = e + 2;
            continue;
        }
        if (n == cap)
            return false;
        sql_tok *t = &tok[n++];
        t->p = p;
        t->depth = depth;
        if (ch == '\'' || ch == '"' || ch == '`' || ch == '[' ||
            ((ch | 0x20) == 'x' && p[1] == '\'')) {
            if (ch != '\'' && ch != '"' && ch != '`' && ch != '[')
                p++; /* a blob x'..' */
            char close = *p == '[' ? ']' : *p;
            t->kind = *p == '\'' ? 's' : 'q';
            for (p++;; p++) {
                if (!*p)
                    return false;
                if (*p == close) {
                    if (close != ']' && p[1] == close) {
                        p++;
                        continue;
                    }
                    p++;
                    break;
                }
            }
        } else if (ch == '?' || ch == ':' || ch == '@' || ch == '$') {
            return false; /* a variable: bound to NULL here, not worth a reading */
        } else if ((ch >= '0' && ch <= '9') || (ch == '.' && p[1] >= '0' && p[1] <= '9')) {
            t->kind = 'n';
            while (sql_ident_char((unsigned char)*p) || *p == '.' ||
                   ((*p == '+' || *p == '-') && (p[-1] | 0x20) == 'e'))
                p++;
        } else if (sql_ident_char(ch)) {
            t->kind = 'w';
            while (sql_ident_char((unsigned char)*p))
                p++;
        } else {
            t->kind = 'p';
            if (ch == '(')
                depth++;
            else if (ch == ')')
                t->depth = --depth;
            p++;
        }
        t->n = (size_t)(p - t->p);
    }
    *count = n;
    return depth == 0;
}

bool sql_tok_is(const sql_tok *t, const char *word)
{
    return t->kind == 'w' && strlen(word) == t->n && strncasecmp(t->p, word, t->n) == 0;
}

bool sql_tok_punct(const sql_tok *t, char ch)
{
    return t->kind == 'p' && t->p[0] == ch;
}

/* Words after which the shape is not the one read here. */
static const char *const sql_not_grouped_words[] = {
    "SELECT", "OVER",    "WINDOW",  "VALUES", "UNION", "INTERSECT", "EXCEPT", "ORDER",
    "LIMIT",  "WITH",    "JOIN",    "NATURAL", "INDEXED", "ON",       "USING",  "LEFT",
    "RIGHT",  "FULL",    "INNER",   "CROSS",  "OUTER", "RETURNING",
};

static bool sql_tok_reserved(const sql_tok *t)
{
    if (t->kind != 'w')
        return false;
    for (size_t i = 0; i < PV_ARRAY_LEN(sql_not_grouped_words); i++)
        if (sql_tok_is(t, sql_not_grouped_words[i]))
            return true;
    return false;
}

bool sql_tok_name(const sql_tok *t)
{
    return (t->kind == 'w' || t->kind == 'q') && !sql_tok_reserved(t) &&
           !sql_tok_is(t, "WHERE") && !sql_tok_is(t, "GROUP") && !sql_tok_is(t, "HAVING") &&
           !sql_tok_is(t, "AS") && !sql_tok_is(t, "FROM") && !sql_tok_is(t, "DISTINCT") &&
           !sql_tok_is(t, "ALL");
}

/* When q has the shape above: the query run per group into *out and the
 * grouped column's name (unquoted) into col; with `shape`, its tokens and
 * clauses (the caller frees shape->tok). */
bool sql_group_rewrite(const char *q, pv_buf *out, char *col, size_t col_size,
                              sql_shape *shape)
{
    enum { TOKENS = 512 };
    sql_tok *tok = pv_xmalloc(TOKENS * sizeof *tok);
    size_t n = 0;
    bool ok = sql_tokenize(q, tok, TOKENS, &n);
    /* ignore one trailing ';' */
    if (ok && n && sql_tok_punct(&tok[n - 1], ';'))
        n--;
    ok = ok && n >= 6 && sql_tok_is(&tok[0], "SELECT") && !sql_tok_is(&tok[1], "DISTINCT") &&
         !sql_tok_is(&tok[1], "ALL");
    size_t from = 0, group = 0, having = 0, where = 0;
    for (size_t i = 1; ok && i < n; i++) {
        const sql_tok *t = &tok[i];
        if (sql_tok_reserved(t) || sql_tok_punct(t, ';'))
            ok = false;
        /* `x IN table`: a subquery over a table */
        else if (sql_tok_is(t, "IN") && !(i + 1 < n && sql_tok_punct(&tok[i + 1], '(')))
            ok = false;
        else if (t->depth == 0 && sql_tok_is(t, "FROM") && !from)
            from = i;
        else if (t->depth == 0 && sql_tok_is(t, "GROUP") && from && !group)
            group = i;
        else if (t->depth == 0 && sql_tok_is(t, "HAVING") && group && !having)
            having = i;
        else if (t->depth == 0 && (sql_tok_is(t, "FROM") || sql_tok_is(t, "GROUP") ||
                                   sql_tok_is(t, "HAVING") || sql_tok_is(t, "WHERE")) &&
                 (group || having))
            ok = false; /* a second clause of a kind: not this shape */
    }
    ok = ok && from > 1 && group > from;
    /* FROM name [. name] [[AS] alias] (WHERE ... | GROUP) */
    size_t i = from + 1;
    if (ok) {
        ok = sql_tok_name(&tok[i]);
        i++;
        if (ok && i + 1 < n && sql_tok_punct(&tok[i], '.')) {
            ok = sql_tok_name(&tok[i + 1]);
            i += 2;
        }
        if (ok && sql_tok_is(&tok[i], "AS")) {
            ok = i + 1 < n && sql_tok_name(&tok[i + 1]);
            i += 2;
        } else if (ok && sql_tok_name(&tok[i])) {
            i++;
        }
        ok = ok && i < n && (i == group || sql_tok_is(&tok[i], "WHERE"));
        where = ok && i != group ? i : 0;
    }
    /* GROUP BY [schema .] [table .] col, then the end or HAVING */
    size_t end = having ? having : n;
    if (ok) {
        size_t last = group + 2;
        ok = last < end && sql_tok_is(&tok[group + 1], "BY") && sql_tok_name(&tok[last]);
        for (int parts = 1; ok && parts < 3 && last + 2 < end && sql_tok_punct(&tok[last + 1], '.');
             parts++) {
            ok = sql_tok_name(&tok[last + 2]);
            last += 2;
        }
        ok = ok && last + 1 == end;
        if (ok) {
            /* the name, unquoted */
            const sql_tok *t = &tok[last];
            size_t k = 0;
            if (t->kind == 'w') {
                for (; k < t->n && k + 1 < col_size; k++)
                    col[k] = t->p[k];
                ok = k == t->n;
            } else {
                char close = t->p[0] == '[' ? ']' : t->p[0];
                for (size_t j = 1; j + 1 < t->n && k + 1 < col_size; j++) {
                    if (t->p[j] == close && close != ']')
                        j++; /* a doubled quote */
                    col[k++] = t->p[j];
                }
                ok = k + 1 < col_size;
            }
            col[k] = '\0';
        }
    }
    if (ok && having)
        ok = having + 1 < n;
    if (ok) {
        pv_buf_clear(out);
        pv_buf_append(out, q, (size_t)(tok[from].p - q));
        pv_buf_puts(out, ", count(*) ");
        pv_buf_append(out, tok[from].p, (size_t)(tok[group].p - tok[from].p));
        if (having) {
            const sql_tok *e = &tok[n - 1];
            pv_buf_puts(out, " ");
            pv_buf_append(out, tok[having].p, (size_t)(e->p + e->n - tok[having].p));
        }
        if (shape) {
            *shape = (sql_shape){.tok = tok, .n = n, .from = from, .where = where,
                                 .group = group, .having = having};
            return true;
        }
    }
    free(tok);
    return ok;
}
