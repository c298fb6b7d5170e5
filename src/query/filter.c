/* filter.c - the filter language of docs/filter.md: parsing into a small tree
 * of conditions, converting every constant to the column's type once, and
 * evaluating the tree for a row through the typed cell accessor.
 *
 * Evaluation never allocates: numbers are compared as numbers, strings in
 * place, regexes are compiled once, and conditions on PV_COL_GROUPED columns
 * are decided once per row group and remembered (model.h). */
#include "query_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parentheses and `!` nest at most this deep: the parser recurses once per
 * level, and the input must not choose how deep (BRIEF: never recurse to a
 * depth the input controls). */
#define PV_QUERY_MAX_DEPTH 64

typedef enum pv_node_kind {
    PV_NODE_AND,
    PV_NODE_OR,
    PV_NODE_NOT,
    PV_NODE_COND,
} pv_node_kind;

typedef struct pv_node {
    pv_node_kind kind;
    size_t first; /* AND, OR, NOT: first child in pv_filter.kids */
    size_t count; /* number of children */
    size_t cond;  /* COND: index in pv_filter.conds */
    bool grouped; /* every condition below is on a PV_COL_GROUPED column */
    /* On the largest grouped subtrees, when the view has row groups: the
     * answer per group (0 unknown, 1 false, 2 true), so that a filter such
     * as `type = state && handle < 0x10000100` costs one lookup per row. */
    uint8_t *group_cache;
    uint32_t group_cache_len;
} pv_node;

/* What a condition compares the cell with, already in the column's type. */
typedef enum pv_cond_kind {
    PV_COND_INT,   /* INT, TIME: cell.v.i against i */
    PV_COND_UINT,  /* HANDLE, HEX: cell.v.u against u */
    PV_COND_FLOAT, /* FLOAT: cell.v.f against f */
    PV_COND_STR,   /* STRING, bytewise and case-sensitive */
    PV_COND_REGEX, /* STRING ~ / !~ */
    PV_COND_LIKE,  /* STRING like, * and ? wildcards */
    PV_COND_TEXT,  /* bare text: case-insensitive substring of the name column */
} pv_cond_kind;

typedef struct pv_cond {
    size_t column;
    pv_cond_kind kind;
    pv_query_op op;
    int64_t i;
    uint64_t u;
    double f;
    char *s; /* STR, LIKE: the text; TEXT: lower-cased; REGEX: NULL */
    size_t slen;
    regex_t re;
    bool has_re;
    bool grouped; /* the column is PV_COL_GROUPED */
    pv_type type; /* the column's type; a cell of another type never matches */
    /* STRING conditions: answers remembered by the cell's pointer (model.h:
     * the same pointer is the same text), so that `context ~ /LOG/` on a
     * timeline runs the regex once per context, not once per event. */
    struct pv_cond_memo *memo;
} pv_cond;

#define PV_COND_MEMO_SLOTS 256

typedef struct pv_cond_memo {
    struct {
        const char *ptr;
        size_t len;
        bool ans;
    } slot[PV_COND_MEMO_SLOTS];
} pv_cond_memo;

struct pv_filter {
    pv_node *nodes;
    size_t node_count, node_cap;
    size_t *kids;
    size_t kid_count, kid_cap;
    pv_cond *conds;
    size_t cond_count, cond_cap;
    size_t root;
    /* The one piece of scratch memory evaluation uses (a NUL-terminated copy
     * of a cell for regexec); it only grows.  A filter is therefore used by
     * one thread at a time. */
    pv_buf *scratch;
};

typedef struct pv_parser {
    const pv_view *view;
    const char *expr;
    pv_token *tokens;
    size_t token_count;
    size_t at;
    size_t depth;
    pv_filter *f;
    pv_query_error *err;
    bool failed;
} pv_parser;

/* ---- building the tree */

static size_t pv_filter_add_node(pv_filter *f, pv_node node)
{
    f->nodes = pv_xgrow(f->nodes, &f->node_cap, f->node_count + 1, sizeof *f->nodes);
    f->nodes[f->node_count] = node;
    return f->node_count++;
}

/* A node over `count` children (AND, OR, NOT); the children are copied. */
static size_t pv_filter_add_parent(pv_filter *f, pv_node_kind kind, const size_t *children,
                                   size_t count)
{
    f->kids = pv_xgrow(f->kids, &f->kid_cap, f->kid_count + count, sizeof *f->kids);
    memcpy(f->kids + f->kid_count, children, count * sizeof *children);
    pv_node node = {.kind = kind, .first = f->kid_count, .count = count, .grouped = true};
    for (size_t i = 0; i < count; i++)
        node.grouped = node.grouped && f->nodes[children[i]].grouped;
    f->kid_count += count;
    return pv_filter_add_node(f, node);
}

static const pv_token *pv_peek(const pv_parser *p)
{
    return &p->tokens[p->at];
}

static void pv_advance(pv_parser *p)
{
    if (p->tokens[p->at].kind != PV_TOK_END)
        p->at++;
}

/* Fails at a token: "unexpected 'X'" or "... found the end". */
static void pv_parse_unexpected(pv_parser *p, const pv_token *t, const char *expected)
{
    p->failed = true;
    if (t->kind == PV_TOK_END) {
        if (expected)
            pv_query_fail(p->err, t->pos, "%s, found the end", expected);
        else
            pv_query_fail(p->err, t->pos, "unexpected end");
        return;
    }
    int len = t->len > 24 ? 24 : (int)t->len;
    pv_query_fail(p->err, t->pos, "unexpected '%.*s%s'", len, p->expr + t->pos,
                  t->len > 24 ? "..." : "");
}

static pv_cond *pv_new_cond(pv_parser *p, size_t column, pv_cond_kind kind, pv_query_op op,
                            size_t *node)
{
    pv_filter *f = p->f;
    f->conds = pv_xgrow(f->conds, &f->cond_cap, f->cond_count + 1, sizeof *f->conds);
    pv_cond *c = &f->conds[f->cond_count];
    memset(c, 0, sizeof *c);
    c->column = column;
    c->kind = kind;
    c->op = op;
    c->grouped = (p->view->columns[column].flags & PV_COL_GROUPED) != 0;
    c->type = p->view->columns[column].type;
    if (c->type == PV_TYPE_STRING)
        c->memo = pv_xcalloc(1, sizeof *c->memo);
    pv_node n = {.kind = PV_NODE_COND, .cond = f->cond_count, .grouped = c->grouped};
    f->cond_count++;
    *node = pv_filter_add_node(f, n);
    return c;
}

/* The size a POSIX ERE compiles to, estimated from its repetitions: the C
 * library copies the repeated part once per bound of `{n,m}` and twice for
 * `+`, so stacked or nested repetitions grow as a product (`a+++...` or
 * `((a{99}){99}){99}`) and compiling one would take gigabytes.  Each atom
 * counts 1; a group is the sum of its branches; saturates at `limit`
 * (docs/filter.md "Regexes"). */
#define PV_REGEX_MAX_SIZE 20000u
#define PV_REGEX_MAX_GROUPS 256

static uint64_t pv_regex_mul(uint64_t a, uint64_t b)
{
    return b && a > PV_REGEX_MAX_SIZE / b ? PV_REGEX_MAX_SIZE + 1 : a * b;
}

static uint64_t pv_regex_add(uint64_t a, uint64_t b)
{
    return a + b > PV_REGEX_MAX_SIZE ? PV_REGEX_MAX_SIZE + 1 : a + b;
}

/* Reads `{n}`, `{n,}` or `{n,m}` at s; the largest count, 0 when s is not
 * one (regcomp then says what is wrong). */
static uint64_t pv_regex_bound(const char *s, size_t *len)
{
    const char *q = s + 1;
    uint64_t hi = 0, n = 0;
    bool digits = false;
    for (; *q >= '0' && *q <= '9'; q++, digits = true)
        n = n > 100000 ? n : n * 10 + (uint64_t)(*q - '0');
    hi = n;
    if (*q == ',') {
        q++;
        hi = n + 1; /* `{n,}`: n copies and a star */
        uint64_t m = 0;
        bool mdigits = false;
        for (; *q >= '0' && *q <= '9'; q++, mdigits = true)
            m = m > 100000 ? m : m * 10 + (uint64_t)(*q - '0');
        if (mdigits)
            hi = m > n ? m : n;
    }
    if (!digits || *q != '}')
        return 0;
    *len = (size_t)(q + 1 - s);
    return hi ? hi : 1;
}

/* A repetition of what can match the empty string (`(a*)+`, `a*+`,
 * `(x|y?){3}`) costs far more than its copies: the C library's epsilon
 * closures over the copied loops grow much faster than their size
 * (`u*+++++++++++`, 6 143 parts, took 1.2 s to compile; `u++*++++++++`,
 * 2 303 parts, 43 ms; the query fuzzer found the first). *empty_rep says
 * whether there is one: then the regex is held to PV_REGEX_MAX_EMPTY_REP
 * parts. */
#define PV_REGEX_MAX_EMPTY_REP 1000u

static uint64_t pv_regex_size(const char *s, bool *empty_rep)
{
    *empty_rep = false;
    /* per open group: the size of its branches so far and of the current
     * one; whether a finished branch can match nothing, and how many atoms
     * of the current one cannot */
    uint64_t done[PV_REGEX_MAX_GROUPS + 1], cur[PV_REGEX_MAX_GROUPS + 1];
    bool done_empty[PV_REGEX_MAX_GROUPS + 1];
    size_t cur_hard[PV_REGEX_MAX_GROUPS + 1];
    size_t depth = 0;
    done[0] = cur[0] = 0;
    done_empty[0] = false;
    cur_hard[0] = 0;
    uint64_t last = 0;       /* the size of the atom a repetition would apply to */
    bool last_empty = false; /* ... and whether it can match nothing */
    while (*s) {
        size_t len = 1;
        uint64_t factor = 0;
        bool zero = false; /* the repetition allows no copy (*, ?, {0,...}) */
        switch (*s) {
        case '\\':
            last = 1;
            last_empty = false;
            cur_hard[depth]++;
            len = s[1] ? 2 : 1;
            cur[depth] = pv_regex_add(cur[depth], 1);
            break;
        case '[': {
            const char *q = s + 1;
            if (*q == '^')
                q++;
            if (*q == ']')
                q++;
            while (*q && *q != ']') {
                if (*q == '[' && (q[1] == ':' || q[1] == '=' || q[1] == '.')) {
                    const char *e = strchr(q + 2, q[1]);
                    q = e && e[1] == ']' ? e + 2 : q + 1;
                } else {
                    q++;
                }
            }
            len = (size_t)(q - s) + (*q ? 1 : 0);
            last = 1;
            last_empty = false;
            cur_hard[depth]++;
            cur[depth] = pv_regex_add(cur[depth], 1);
            break;
        }
        case '(':
            if (depth == PV_REGEX_MAX_GROUPS)
                return PV_REGEX_MAX_SIZE + 1;
            depth++;
            done[depth] = cur[depth] = 0;
            done_empty[depth] = false;
            cur_hard[depth] = 0;
            last = 0;
            break;
        case ')':
            if (depth == 0) { /* a literal ')' in an ERE */
                last = 1;
                last_empty = false;
                cur_hard[0]++;
                cur[0] = pv_regex_add(cur[0], 1);
                break;
            }
            last = pv_regex_add(pv_regex_add(done[depth], cur[depth]), 1);
            last_empty = done_empty[depth] || cur_hard[depth] == 0;
            depth--;
            cur[depth] = pv_regex_add(cur[depth], last);
            if (!last_empty)
                cur_hard[depth]++;
            break;
        case '|':
            done[depth] = pv_regex_add(pv_regex_add(done[depth], cur[depth]), 1);
            done_empty[depth] = done_empty[depth] || cur_hard[depth] == 0;
            cur[depth] = 0;
            cur_hard[depth] = 0;
            last = 0;
            break;
        case '*':
        case '?':
            factor = 1;
            zero = true;
            break;
        case '+':
            factor = 2;
            break;
        case '{':
            factor = pv_regex_bound(s, &len);
            if (!factor) {
                len = 1;
                last = 1;
                last_empty = false;
                cur_hard[depth]++;
                cur[depth] = pv_regex_add(cur[depth], 1);
            } else {
                zero = s[1] == '0' || s[1] == ',';
            }
            break;
        default:
            last = 1;
            last_empty = false;
            cur_hard[depth]++;
            cur[depth] = pv_regex_add(cur[depth], 1);
            break;
        }
        if (factor && last) {
            /* the repeated atom, already counted once, now counts factor
             * times, plus one for the loop */
            uint64_t grown = pv_regex_add(pv_regex_mul(last, factor), 1);
            *empty_rep = *empty_rep || last_empty;
            cur[depth] = pv_regex_add(cur[depth] - last, grown);
            if (!last_empty && zero)
                cur_hard[depth]--; /* it can match nothing now */
            last = grown;
            last_empty = last_empty || zero;
        }
        s += len;
    }
    uint64_t total = 0;
    for (size_t d = 0; d <= depth; d++)
        total = pv_regex_add(total, pv_regex_add(done[d], cur[d]));
    return total;
}

static bool pv_compile_regex(pv_parser *p, pv_cond *c, const char *pattern, bool icase, size_t pos)
{
    bool empty_rep;
    uint64_t size = pv_regex_size(pattern, &empty_rep);
    if (size > PV_REGEX_MAX_SIZE) {
        p->failed = true;
        pv_query_fail(p->err, pos, "regex too large (its repetitions expand to more than %u parts)",
                      PV_REGEX_MAX_SIZE);
        return false;
    }
    if (empty_rep && size > PV_REGEX_MAX_EMPTY_REP) {
        p->failed = true;
        pv_query_fail(p->err, pos,
                      "regex too large (it repeats what can match nothing, and its repetitions "
                      "expand to more than %u parts)",
                      PV_REGEX_MAX_EMPTY_REP);
        return false;
    }
    int rc = regcomp(&c->re, pattern, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
    if (rc != 0) {
        char why[128];
        regerror(rc, &c->re, why, sizeof why);
        p->failed = true;
        pv_query_fail(p->err, pos, "bad regex (%s)", why);
        return false;
    }
    c->has_re = true;
    return true;
}

/* ---- constants in the column's type */

/* The count multipliers of docs/filter.md: 1k = 1000 (decimal, like the
 * hit counts they filter), M = 10^6, G = 10^9. */
static int64_t pv_count_multiplier(char c)
{
    switch (c) {
    case 'k':
    case 'K':
        return INT64_C(1000);
    case 'M':
        return INT64_C(1000000);
    case 'G':
    case 'g':
        return INT64_C(1000000000);
    default:
        return 0;
    }
}

/* Does the word end in a time unit after a digit ("5us", "1.5s")? */
static bool pv_word_is_time(const char *w)
{
    int64_t ns;
    size_t len = strlen(w);
    return len >= 2 && isalpha((unsigned char)w[len - 1]) && pv_parse_time(w, &ns);
}

/* Parses "[-+]digits[.digits][k|M|G]" exactly into a whole number.
 * Returns 0 on success, 1 when malformed, 2 when it is not whole, 3 on
 * overflow. */
static int pv_parse_count(const char *w, int64_t *out)
{
    size_t len = strlen(w);
    int64_t mult = 1;
    if (len && pv_count_multiplier(w[len - 1])) {
        mult = pv_count_multiplier(w[len - 1]);
        len--;
    }
    size_t i = 0;
    bool negative = false;
    if (i < len && (w[i] == '-' || w[i] == '+'))
        negative = w[i++] == '-';
    uint64_t whole = 0;
    size_t digits = 0;
    for (; i < len && isdigit((unsigned char)w[i]); i++, digits++) {
        if (whole > (UINT64_MAX - 9) / 10)
            return 3;
        whole = whole * 10 + (uint64_t)(w[i] - '0');
    }
    uint64_t frac = 0, frac_scale = 1;
    if (i < len && w[i] == '.') {
        for (i++; i < len && isdigit((unsigned char)w[i]); i++, digits++) {
            if (frac_scale >= UINT64_C(1000000000))
                return w[i] == '0' ? 0 : 2;
            frac = frac * 10 + (uint64_t)(w[i] - '0');
            frac_scale *= 10;
        }
    }
    if (i != len || digits == 0)
        return 1;
    /* frac < 10^9 and mult <= 10^9: the product fits in 64 bits. */
    uint64_t frac_value = frac * (uint64_t)mult;
    if (frac_value % frac_scale)
        return 2;
    if (whole > (uint64_t)INT64_MAX / (uint64_t)mult)
        return 3;
    uint64_t total = whole * (uint64_t)mult + frac_value / frac_scale;
    if (total > (uint64_t)INT64_MAX)
        return 3;
    *out = negative ? -(int64_t)total : (int64_t)total;
    return 0;
}

static bool pv_word_is_count_with_unit(const char *w)
{
    int64_t n;
    size_t len = strlen(w);
    return len >= 2 && pv_count_multiplier(w[len - 1]) && pv_parse_count(w, &n) == 0;
}

/* Fails with "column 'X' is a TYPE; <why>". */
static void pv_type_fail(pv_parser *p, size_t pos, size_t column, const char *fmt, ...)
    PV_PRINTF(4, 5);
static void pv_type_fail(pv_parser *p, size_t pos, size_t column, const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const pv_column *col = &p->view->columns[column];
    p->failed = true;
    pv_query_fail(p->err, pos, "column '%s' is %s %s; %s", col->id,
                  col->type == PV_TYPE_INT ? "an" : "a", pv_type_name(col->type), why);
}

static const char *pv_op_text(pv_query_op op)
{
    static const char *const text[] = {"=", "!=", "<", "<=", ">", ">=", "~", "!~", "like"};
    return text[op];
}

/* Converts the value token for `column op value` once (compile time). */
static void pv_parse_condition(pv_parser *p, const pv_token *col_tok, const pv_token *op_tok,
                               const pv_token *val, size_t *node)
{
    const pv_view *v = p->view;
    size_t column = pv_view_column(v, col_tok->text);
    if (column == PV_NO_ROW) {
        p->failed = true;
        pv_query_fail(p->err, col_tok->pos, "unknown column '%s'", col_tok->text);
        pv_query_append_columns(p->err, v);
        return;
    }
    pv_type type = v->columns[column].type;
    pv_query_op op = op_tok->op;
    const char *text = val->text;

    if (op == PV_OP_MATCH || op == PV_OP_NOMATCH || op == PV_OP_LIKE) {
        if (type != PV_TYPE_STRING) {
            pv_type_fail(p, op_tok->pos, column, "'%s' needs a string column", pv_op_text(op));
            return;
        }
        if (op == PV_OP_LIKE) {
            if (val->kind == PV_TOK_REGEX) {
                pv_type_fail(p, val->pos, column, "'like' takes a wildcard pattern, not a /regex/");
                return;
            }
            pv_cond *c = pv_new_cond(p, column, PV_COND_LIKE, op, node);
            c->s = pv_xstrdup(text);
            c->slen = strlen(text);
            return;
        }
        pv_cond *c = pv_new_cond(p, column, PV_COND_REGEX, op, node);
        pv_compile_regex(p, c, text, val->icase, val->pos);
        return;
    }
    if (val->kind == PV_TOK_REGEX) {
        p->failed = true;
        pv_query_fail(p->err, val->pos, "a /regex/ needs '~' or '!~', not '%s'", pv_op_text(op));
        return;
    }
    if (type == PV_TYPE_STRING) {
        /* A bare number with a unit is a quantity, not a name: comparing it
         * with a string column is a type error (quote it to mean the text). */
        if (val->kind == PV_TOK_WORD && pv_word_is_time(text)) {
            pv_type_fail(p, val->pos, column, "'%s' is a time (quote it to compare text)", text);
            return;
        }
        if (val->kind == PV_TOK_WORD && pv_word_is_count_with_unit(text)) {
            pv_type_fail(p, val->pos, column, "'%s' is a count (quote it to compare text)", text);
            return;
        }
        pv_cond *c = pv_new_cond(p, column, PV_COND_STR, op, node);
        c->s = pv_xstrdup(text);
        c->slen = strlen(text);
        return;
    }
    if (val->kind == PV_TOK_STRING) {
        pv_type_fail(p, val->pos, column, "\"%s\" is a string", text);
        return;
    }
    switch (type) {
    case PV_TYPE_TIME: {
        int64_t ns;
        if (pv_word_is_count_with_unit(text) && !pv_word_is_time(text)) {
            pv_type_fail(p, val->pos, column, "'%s' is a count (write a time: 5us, 2ms, 1s)", text);
            return;
        }
        if (!pv_parse_time(text, &ns)) {
            pv_type_fail(p, val->pos, column, "'%s' is not a time (write 1500, 1.5us, 2ms, 1s)",
                         text);
            return;
        }
        pv_cond *c = pv_new_cond(p, column, PV_COND_INT, op, node);
        c->i = ns;
        return;
    }
    case PV_TYPE_INT: {
        int64_t n;
        uint64_t hex;
        if (pv_word_is_time(text)) {
            pv_type_fail(p, val->pos, column, "'%s' is a time", text);
            return;
        }
        int rc = pv_parse_count(text, &n);
        if (rc != 0 && strncasecmp(text, "0x", 2) == 0 &&
            pv_parse_hex64(text, strlen(text), &hex) && hex <= (uint64_t)INT64_MAX) {
            n = (int64_t)hex;
            rc = 0;
        }
        if (rc != 0) {
            pv_type_fail(p, val->pos, column, "'%s' is %s", text,
                         rc == 2   ? "not a whole number"
                         : rc == 3 ? "out of range"
                                   : "not a number (write 42, 10k, 2M, 0x2A)");
            return;
        }
        pv_cond *c = pv_new_cond(p, column, PV_COND_INT, op, node);
        c->i = n;
        return;
    }
    case PV_TYPE_FLOAT: {
        if (pv_word_is_time(text)) {
            pv_type_fail(p, val->pos, column, "'%s' is a time", text);
            return;
        }
        size_t len = strlen(text);
        double mult = 1;
        char *copy = pv_xstrdup(text);
        if (len > 1 && pv_count_multiplier(copy[len - 1])) {
            mult = (double)pv_count_multiplier(copy[len - 1]);
            copy[len - 1] = '\0';
        }
        char *end = NULL;
        errno = 0;
        double d = strtod(copy, &end);
        bool ok = end != copy && *end == '\0' && errno == 0 && isfinite(d) &&
                  strchr(copy, 'x') == NULL && strchr(copy, 'X') == NULL;
        free(copy);
        if (!ok) {
            pv_type_fail(p, val->pos, column, "'%s' is not a number", text);
            return;
        }
        pv_cond *c = pv_new_cond(p, column, PV_COND_FLOAT, op, node);
        c->f = d * mult;
        return;
    }
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX: {
        /* Handles and state values are written in hex (docs/cli.md), so a
         * value for them is hex with or without 0x: 10000004 = 0x10000004. */
        uint64_t u;
        if (!pv_parse_hex64(text, strlen(text), &u)) {
            pv_type_fail(p, val->pos, column, "'%s' is not a hex value (write 0x1000000D)", text);
            return;
        }
        pv_cond *c = pv_new_cond(p, column, PV_COND_UINT, op, node);
        c->u = u;
        return;
    }
    case PV_TYPE_STRING:
        break;
    }
}

static size_t pv_parse_or(pv_parser *p);

/* A bare TEXT: case-insensitive substring of the name column; a bare
 * /regex/ matches the name column the same way `name ~ /regex/` does. */
static size_t pv_parse_bare(pv_parser *p, const pv_token *t)
{
    size_t column = pv_view_name_column(p->view);
    size_t node = 0;
    if (column == PV_NO_ROW) {
        p->failed = true;
        pv_query_fail(p->err, t->pos,
                      "view '%s' has no name column to search for '%s'; write COLUMN OP VALUE",
                      p->view->id, t->text);
        pv_query_append_columns(p->err, p->view);
        return 0;
    }
    if (t->kind == PV_TOK_REGEX) {
        pv_cond *c = pv_new_cond(p, column, PV_COND_REGEX, PV_OP_MATCH, &node);
        pv_compile_regex(p, c, t->text, t->icase, t->pos);
        return node;
    }
    pv_cond *c = pv_new_cond(p, column, PV_COND_TEXT, PV_OP_EQ, &node);
    c->slen = strlen(t->text);
    c->s = pv_xstrdup(t->text);
    for (size_t i = 0; i < c->slen; i++)
        c->s[i] = (char)tolower((unsigned char)c->s[i]);
    return node;
}

static size_t pv_parse_primary(pv_parser *p)
{
    const pv_token *t = pv_peek(p);
    switch (t->kind) {
    case PV_TOK_LPAREN: {
        if (++p->depth > PV_QUERY_MAX_DEPTH) {
            p->failed = true;
            pv_query_fail(p->err, t->pos, "expression nested deeper than %d levels",
                          PV_QUERY_MAX_DEPTH);
            return 0;
        }
        const pv_token *open = t;
        pv_advance(p);
        size_t node = pv_parse_or(p);
        if (p->failed)
            return 0;
        const pv_token *close = pv_peek(p);
        if (close->kind != PV_TOK_RPAREN) {
            p->failed = true;
            if (close->kind == PV_TOK_END)
                pv_query_fail(p->err, open->pos, "unclosed '('");
            else
                pv_parse_unexpected(p, close, NULL);
            return 0;
        }
        pv_advance(p);
        p->depth--;
        return node;
    }
    case PV_TOK_WORD: {
        const pv_token *next = &p->tokens[p->at + 1];
        if (next->kind != PV_TOK_OP) {
            pv_advance(p);
            return pv_parse_bare(p, t);
        }
        const pv_token *val = &p->tokens[p->at + 2];
        /* A keyword may stand as a value (`name = and`): it kept its text. */
        if (!val->text) {
            p->failed = true;
            if (val->kind == PV_TOK_END) {
                pv_query_fail(p->err, val->pos, "expected a value after '%s'",
                              pv_op_text(next->op));
            } else {
                int len = (int)val->len;
                pv_query_fail(p->err, val->pos, "expected a value after '%s', found '%.*s'",
                              pv_op_text(next->op), len, p->expr + val->pos);
            }
            return 0;
        }
        size_t node = 0;
        pv_parse_condition(p, t, next, val, &node);
        p->at += 3;
        return node;
    }
    case PV_TOK_STRING:
    case PV_TOK_REGEX:
        pv_advance(p);
        return pv_parse_bare(p, t);
    default:
        pv_parse_unexpected(p, t, "expected a condition");
        return 0;
    }
}

static size_t pv_parse_unary(pv_parser *p)
{
    const pv_token *t = pv_peek(p);
    if (t->kind != PV_TOK_NOT)
        return pv_parse_primary(p);
    if (++p->depth > PV_QUERY_MAX_DEPTH) {
        p->failed = true;
        pv_query_fail(p->err, t->pos, "expression nested deeper than %d levels",
                      PV_QUERY_MAX_DEPTH);
        return 0;
    }
    pv_advance(p);
    size_t child = pv_parse_unary(p);
    if (p->failed)
        return 0;
    p->depth--;
    return pv_filter_add_parent(p->f, PV_NODE_NOT, &child, 1);
}

/* One level of the n-ary operators: `&&` lists of unary terms, `||` lists
 * of `&&` lists, so that `&&` binds tighter (docs/filter.md). */
static size_t pv_parse_list(pv_parser *p, pv_token_kind sep, pv_node_kind kind,
                            size_t (*term)(pv_parser *))
{
    size_t *items = NULL;
    size_t count = 0, cap = 0;
    for (;;) {
        size_t node = term(p);
        if (p->failed)
            break;
        items = pv_xgrow(items, &cap, count + 1, sizeof *items);
        items[count++] = node;
        if (pv_peek(p)->kind != sep)
            break;
        pv_advance(p);
    }
    size_t result = 0;
    if (!p->failed)
        result = count == 1 ? items[0] : pv_filter_add_parent(p->f, kind, items, count);
    free(items);
    return result;
}

static size_t pv_parse_and(pv_parser *p)
{
    return pv_parse_list(p, PV_TOK_AND, PV_NODE_AND, pv_parse_unary);
}

static size_t pv_parse_or(pv_parser *p)
{
    return pv_parse_list(p, PV_TOK_OR, PV_NODE_OR, pv_parse_and);
}

/* Gives a per-group cache to every grouped node whose parent is not grouped
 * (model.h: conditions on PV_COL_GROUPED columns are decided once per
 * group).  Children are created before their parent, so one pass from the
 * root down over decreasing indices sees every parent first. */
static void pv_filter_plan_groups(pv_filter *f, const pv_view *v)
{
    if (!v->ops->row_group || v->group_count == 0)
        return;
    bool *under = pv_xcalloc(f->node_count, sizeof *under); /* below a cached node */
    for (size_t i = f->node_count; i-- > 0;) {
        pv_node *n = &f->nodes[i];
        if (i != f->root && !under[i] && !n->grouped)
            continue;
        bool cached_here = n->grouped && !under[i];
        if (cached_here) {
            n->group_cache = pv_xcalloc(v->group_count, 1);
            n->group_cache_len = v->group_count;
        }
        if (n->kind != PV_NODE_COND)
            for (size_t k = 0; k < n->count; k++)
                under[f->kids[n->first + k]] = under[i] || cached_here;
    }
    free(under);
}

pv_filter *pv_filter_compile(const pv_view *v, const char *expr, pv_query_error *err)
{
    pv_query_error scratch_err;
    if (!err)
        err = &scratch_err;
    err->position = 0;
    err->message[0] = '\0';
    pv_token *tokens;
    size_t count;
    if (!pv_query_lex(expr, &tokens, &count, err))
        return NULL;
    if (count == 1) { /* only PV_TOK_END: blank, no filter */
        pv_query_tokens_free(tokens, count);
        return NULL;
    }
    pv_filter *f = pv_xcalloc(1, sizeof *f);
    pv_parser p = {
        .view = v, .expr = expr, .tokens = tokens, .token_count = count, .f = f, .err = err};
    f->root = pv_parse_or(&p);
    if (!p.failed && pv_peek(&p)->kind != PV_TOK_END)
        pv_parse_unexpected(&p, pv_peek(&p), NULL);
    pv_query_tokens_free(tokens, count);
    if (p.failed) {
        pv_filter_free(f);
        return NULL;
    }
    f->scratch = pv_xmalloc(sizeof *f->scratch);
    pv_buf_init(f->scratch);
    pv_filter_plan_groups(f, v);
    return f;
}

void pv_filter_free(pv_filter *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->cond_count; i++) {
        free(f->conds[i].s);
        free(f->conds[i].memo);
        if (f->conds[i].has_re)
            regfree(&f->conds[i].re);
    }
    if (f->scratch) {
        pv_buf_free(f->scratch);
        free(f->scratch);
    }
    for (size_t i = 0; i < f->node_count; i++)
        free(f->nodes[i].group_cache);
    free(f->conds);
    free(f->nodes);
    free(f->kids);
    free(f);
}

/* ---- evaluation */

/* `like`: '*' any run of bytes, '?' one byte, everything else itself.
 * Iterative with one backtrack point, so linear-ish and recursion-free. */
static bool pv_like_match(const char *pat, size_t plen, const char *s, size_t slen)
{
    size_t pi = 0, si = 0, star = SIZE_MAX, mark = 0;
    while (si < slen) {
        if (pi < plen && pat[pi] == '*') {
            star = pi++;
            mark = si;
        } else if (pi < plen && (pat[pi] == '?' || pat[pi] == s[si])) {
            pi++;
            si++;
        } else if (star != SIZE_MAX) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < plen && pat[pi] == '*')
        pi++;
    return pi == plen;
}

/* Case-insensitive (ASCII) substring; `needle` is already lower-case. */
static bool pv_contains_icase(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
    if (nlen == 0)
        return true;
    if (nlen > hlen)
        return false;
    unsigned char first = (unsigned char)needle[0];
    for (size_t i = 0; i + nlen <= hlen; i++) {
        if ((unsigned char)tolower((unsigned char)hay[i]) != first)
            continue;
        size_t k = 1;
        while (k < nlen &&
               (unsigned char)tolower((unsigned char)hay[i + k]) == (unsigned char)needle[k])
            k++;
        if (k == nlen)
            return true;
    }
    return false;
}

static bool pv_op_holds(pv_query_op op, int cmp)
{
    switch (op) {
    case PV_OP_EQ:
        return cmp == 0;
    case PV_OP_NE:
        return cmp != 0;
    case PV_OP_LT:
        return cmp < 0;
    case PV_OP_LE:
        return cmp <= 0;
    case PV_OP_GT:
        return cmp > 0;
    case PV_OP_GE:
        return cmp >= 0;
    default:
        return false;
    }
}

static bool pv_cond_test_value(const pv_filter *f, const pv_cond *c, const pv_cell *cell);

/* A condition on an absent cell is false whatever the operator: an empty
 * cell is neither equal nor unequal to anything (docs/filter.md). */
static bool pv_cond_test_cell(const pv_filter *f, const pv_cond *c, const pv_view *v, size_t row)
{
    pv_cell cell;
    pv_view_cell(v, row, c->column, &cell);
    if (!cell.present || cell.type != c->type)
        return false;
    if (c->memo && cell.v.s.ptr) {
        size_t k = (((uintptr_t)cell.v.s.ptr >> 3) ^ cell.v.s.len) % PV_COND_MEMO_SLOTS;
        if (c->memo->slot[k].ptr == cell.v.s.ptr && c->memo->slot[k].len == cell.v.s.len)
            return c->memo->slot[k].ans;
        bool ans = pv_cond_test_value(f, c, &cell);
        c->memo->slot[k].ptr = cell.v.s.ptr;
        c->memo->slot[k].len = cell.v.s.len;
        c->memo->slot[k].ans = ans;
        return ans;
    }
    return pv_cond_test_value(f, c, &cell);
}

static bool pv_cond_test_value(const pv_filter *f, const pv_cond *c, const pv_cell *cp)
{
    pv_cell cell = *cp;
    switch (c->kind) {
    case PV_COND_INT:
        return pv_op_holds(c->op, (cell.v.i > c->i) - (cell.v.i < c->i));
    case PV_COND_UINT:
        return pv_op_holds(c->op, (cell.v.u > c->u) - (cell.v.u < c->u));
    case PV_COND_FLOAT:
        return pv_op_holds(c->op, (cell.v.f > c->f) - (cell.v.f < c->f));
    case PV_COND_STR: {
        size_t n = cell.v.s.len < c->slen ? cell.v.s.len : c->slen;
        int r = n ? memcmp(cell.v.s.ptr, c->s, n) : 0;
        int cmp = r ? (r < 0 ? -1 : 1) : (cell.v.s.len > c->slen) - (cell.v.s.len < c->slen);
        return pv_op_holds(c->op, cmp);
    }
    case PV_COND_REGEX: {
        /* regexec wants a NUL-terminated string and a cell is (ptr, len). */
        pv_buf *b = f->scratch;
        pv_buf_clear(b);
        pv_buf_append(b, cell.v.s.ptr, cell.v.s.len);
        bool hit = regexec(&c->re, pv_buf_cstr(b), 0, NULL, 0) == 0;
        return c->op == PV_OP_NOMATCH ? !hit : hit;
    }
    case PV_COND_LIKE:
        return pv_like_match(c->s, c->slen, cell.v.s.ptr, cell.v.s.len);
    case PV_COND_TEXT:
        return pv_contains_icase(cell.v.s.ptr, cell.v.s.len, c->s, c->slen);
    }
    return false;
}

static bool pv_node_eval(const pv_filter *f, size_t node, const pv_view *v, size_t row);

/* Recursion depth is bounded by PV_QUERY_MAX_DEPTH (parse time). */
static bool pv_node_eval_uncached(const pv_filter *f, const pv_node *n, const pv_view *v,
                                  size_t row)
{
    switch (n->kind) {
    case PV_NODE_COND:
        return pv_cond_test_cell(f, &f->conds[n->cond], v, row);
    case PV_NODE_NOT:
        return !pv_node_eval(f, f->kids[n->first], v, row);
    case PV_NODE_AND:
        for (size_t i = 0; i < n->count; i++)
            if (!pv_node_eval(f, f->kids[n->first + i], v, row))
                return false;
        return true;
    case PV_NODE_OR:
        for (size_t i = 0; i < n->count; i++)
            if (pv_node_eval(f, f->kids[n->first + i], v, row))
                return true;
        return false;
    }
    return false;
}

static bool pv_node_eval(const pv_filter *f, size_t node, const pv_view *v, size_t row)
{
    const pv_node *n = &f->nodes[node];
    if (n->group_cache) {
        uint32_t g = v->ops->row_group(v, row);
        if (g < n->group_cache_len) {
            uint8_t known = n->group_cache[g];
            if (known)
                return known == 2;
            bool r = pv_node_eval_uncached(f, n, v, row);
            n->group_cache[g] = r ? 2 : 1;
            return r;
        }
    }
    return pv_node_eval_uncached(f, n, v, row);
}

bool pv_filter_match(const pv_filter *f, const pv_view *v, size_t row)
{
    if (!f)
        return true;
    return pv_node_eval(f, f->root, v, row);
}

size_t pv_filter_mark_tree(const pv_filter *f, const pv_view *v, size_t from, size_t to,
                           uint8_t *keep)
{
    /* keep[row]: 1 = matched itself, 2 = kept as an ancestor.  Each walk up
     * stops at the first row already kept, so the whole pass is linear. */
    size_t total = pv_view_rows(v), self = 0;
    if (to > total)
        to = total;
    for (size_t row = from; row < to; row++) {
        if (!pv_filter_match(f, v, row))
            continue;
        self++;
        keep[row] |= 1;
        size_t steps = 0;
        for (size_t p = pv_view_parent(v, row);
             p != PV_NO_ROW && p < total && !keep[p] && steps < total;
             p = pv_view_parent(v, p), steps++)
            keep[p] = 2;
    }
    return self;
}

size_t pv_filter_rows(const pv_filter *f, const pv_view *v, const pv_row *in, size_t n, pv_row *out,
                      size_t *matched)
{
    if (!in)
        n = pv_view_rows(v);
    size_t kept = 0;
    if (!pv_view_is_tree(v) || !f) {
        for (size_t i = 0; i < n; i++) {
            size_t row = in ? in[i] : i;
            if (pv_filter_match(f, v, row))
                out[kept++] = (pv_row)row;
        }
        if (matched)
            *matched = kept;
        return kept;
    }
    /* A tree keeps the matching rows and their ancestors (docs/filter.md). */
    size_t total = pv_view_rows(v);
    uint8_t *keep = pv_xcalloc(total ? total : 1, 1);
    size_t self = 0;
    for (size_t i = 0; i < n; i++) {
        size_t row = in ? in[i] : i;
        if (row < total)
            self += pv_filter_mark_tree(f, v, row, row + 1, keep);
    }
    /* Only rows of the selection are written, in its order (pre-order). */
    for (size_t i = 0; i < n; i++) {
        size_t row = in ? in[i] : i;
        if (row < total && keep[row])
            out[kept++] = (pv_row)row;
    }
    free(keep);
    if (matched)
        *matched = self;
    return kept;
}
