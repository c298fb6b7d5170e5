/*
 * sql_fold.c - the GROUP BY aggregates that profview computes itself, per
 * group, over the rows of a grouped column (docs/sql.md).
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- GROUP BY aggregates that profview computes (docs/sql.md "GROUP BY,
 * group by group": the aggregates of the rows).  A query of the shape
 * above whose aggregates are all count(*), or count, sum, total, avg, min
 * or max of one integer column of the table, and which reads no other
 * column of a row than the grouped one, runs per group as
 *
 *     SELECT list' FROM table WHERE rowid = ?1 [AND (cond')] [AND (having')]
 *
 * where ?1 is the group's first row and each aggregate is a parameter bound
 * to its value, computed by one pass over the ranks and the column.
 * Anything else, or a sum that would not be exact as SQLite computes it,
 * runs as the plain group runs above. */

void sql_fold_free(sql_fold *f)
{
    if (!f)
        return;
    free(f->rows);
    free(f->first);
    free(f->acc);
    free(f);
}

/* t's name, unquoted, into buf ("" when it does not fit). */
static const char *sql_tok_text(const sql_tok *t, char *buf, size_t size)
{
    size_t k = 0;
    if (t->kind == 'w') {
        if (t->n >= size)
            return "";
        memcpy(buf, t->p, t->n);
        buf[t->n] = '\0';
        return buf;
    }
    char close = t->p[0] == '[' ? ']' : t->p[0];
    for (size_t j = 1; j + 1 < t->n; j++) {
        if (k + 1 >= size)
            return "";
        if (t->p[j] == close && close != ']')
            j++; /* a doubled quote */
        buf[k++] = t->p[j];
    }
    buf[k] = '\0';
    return buf;
}

static bool sql_tok_same_name(const sql_tok *a, const sql_tok *b)
{
    char x[256], y[256];
    const char *p = sql_tok_text(a, x, sizeof x), *q = sql_tok_text(b, y, sizeof y);
    return *p && strcasecmp(p, q) == 0;
}

static int sql_fold_fn(const sql_tok *t)
{
    static const char *const names[] = {"count", "sum", "total", "avg", "min", "max"};
    static const unsigned char fns[] = {FOLD_COUNT, FOLD_SUM, FOLD_TOTAL,
                                        FOLD_AVG,   FOLD_MIN, FOLD_MAX};
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++)
        if (sql_tok_is(t, names[i]))
            return fns[i];
    return -1;
}

/* Deterministic scalar functions that read nothing but their arguments. */
static bool sql_fold_scalar(const sql_tok *t)
{
    static const char *const names[] = {
        "abs",  "coalesce", "ifnull", "iif",    "nullif", "length", "lower",  "upper",
        "hex",  "round",    "substr", "substring", "instr", "trim", "ltrim",  "rtrim",
        "replace", "printf", "format", "typeof", "quote",  "char",  "unicode", "sign",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++)
        if (sql_tok_is(t, names[i]))
            return true;
    return false;
}

/* Words of an expression that name no column. */
static bool sql_fold_keyword(const sql_tok *t)
{
    static const char *const words[] = {
        "AND",  "OR",   "NOT",  "NULL", "IS",      "ISNULL", "NOTNULL", "CASE", "WHEN",
        "THEN", "ELSE", "END",  "BETWEEN", "LIKE", "GLOB",   "IN",      "CAST", "TRUE",
        "FALSE", "ESCAPE",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(words); i++)
        if (sql_tok_is(t, words[i]))
            return true;
    return false;
}

/* Appends clause tok[a, b) (its text up to `end`) to out with each
 * aggregate replaced by its parameter; false when the clause is not one
 * whose aggregates profview computes (above). */
static bool sql_fold_clause(sql_fold *f, const sql_shape *sh, size_t a, size_t b, const char *end,
                            bool aggregates, bool list, pv_buf *out)
{
    const sql_tok *tok = sh->tok;
    const pv_view *v = f->view;
    const char *copied = tok[a].p;
    char name[256];
    for (size_t i = a; i < b;) {
        const sql_tok *t = &tok[i];
        bool call = i + 1 < b && sql_tok_punct(&tok[i + 1], '(');
        bool is_name = t->kind == 'w' || t->kind == 'q';
        if (t->kind == 'w' && call && sql_fold_fn(t) >= 0) {
            if (!aggregates || f->agg_count == SQL_FOLD_MAX)
                return false;
            sql_fold_agg ag = {.fn = (unsigned char)sql_fold_fn(t)};
            size_t j = i + 2, close;
            if (ag.fn == FOLD_COUNT && j + 1 < b && sql_tok_punct(&tok[j], '*') &&
                sql_tok_punct(&tok[j + 1], ')')) {
                ag.fn = FOLD_COUNT_STAR;
                close = j + 1;
            } else {
                if (j >= b || !sql_tok_name(&tok[j]))
                    return false;
                while (j + 2 < b && sql_tok_punct(&tok[j + 1], '.') && sql_tok_name(&tok[j + 2]))
                    j += 2;
                if (j + 1 >= b || !sql_tok_punct(&tok[j + 1], ')'))
                    return false;
                close = j + 1;
                size_t c = pv_view_column(v, sql_tok_text(&tok[j], name, sizeof name));
                if (c == PV_NO_ROW || !sql_is_integer_type(v->columns[c].type))
                    return false;
                size_t slot = 0;
                while (slot < f->col_count && f->cols[slot] != c)
                    slot++;
                if (slot == f->col_count)
                    f->cols[f->col_count++] = c;
                ag.slot = slot;
            }
            if (close + 1 < b && (sql_tok_is(&tok[close + 1], "FILTER") ||
                                  sql_tok_is(&tok[close + 1], "OVER")))
                return false;
            f->agg[f->agg_count++] = ag;
            pv_buf_append(out, copied, (size_t)(t->p - copied));
            pv_buf_printf(out, "?%zu", f->agg_count + 1);
            copied = tok[close].p + tok[close].n;
            i = close + 1;
            continue;
        }
        if (t->kind == 'w' && sql_fold_keyword(t)) {
            i++; /* `IN (`, `CAST (` too */
            continue;
        }
        if (call) {
            if (t->kind != 'w' || !sql_fold_scalar(t))
                return false;
            i++;
            continue;
        }
        if (is_name && i + 1 < b && sql_tok_punct(&tok[i + 1], '.')) {
            i += 2; /* a schema or table: the name after it is checked */
            continue;
        }
        if (sql_tok_is(t, "AS") || sql_tok_is(t, "COLLATE")) {
            if (list && sql_tok_is(t, "AS") && i + 1 < b && f->alias_count < SQL_FOLD_MAX)
                f->aliases[f->alias_count++] = &tok[i + 1];
            i += 2;
            continue;
        }
        if (is_name) {
            const char *s = sql_tok_text(t, name, sizeof name);
            size_t c = *s ? pv_view_column(v, s) : PV_NO_ROW;
            if (c == f->gcol) {
                i++;
                continue;
            }
            if (c != PV_NO_ROW)
                return false; /* another column of the row */
            bool alias = false;
            for (size_t k = 0; k < f->alias_count && !alias; k++)
                alias = sql_tok_same_name(f->aliases[k], t);
            if (!alias)
                return false; /* rowid, a `_hex` companion, a word not read here */
            i++;
            continue;
        }
        if (sql_tok_punct(t, '*')) {
            /* a product, not `*` or `t.*` */
            const sql_tok *p = i > a ? &tok[i - 1] : NULL;
            if (!p || !(p->kind == 'n' || p->kind == 's' || p->kind == 'w' || p->kind == 'q' ||
                        sql_tok_punct(p, ')')) ||
                (p->kind == 'w' && (sql_fold_keyword(p) || sql_tok_is(p, "SELECT"))))
                return false;
        }
        i++;
    }
    pv_buf_append(out, copied, (size_t)(end - copied));
    return true;
}

/* The statement per group (above) for a query of shape sh grouped by
 * column gcol of view v, into out; NULL when it has not the form. */
sql_fold *sql_fold_plan(const sql_shape *sh, const pv_view *v, size_t gcol, pv_buf *out)
{
    if (pv_view_column(v, "rowid") != PV_NO_ROW)
        return NULL; /* `rowid` would be that column */
    sql_fold *f = pv_xcalloc(1, sizeof *f);
    f->view = v;
    f->gcol = gcol;
    const sql_tok *tok = sh->tok;
    const sql_tok *last = &tok[sh->n - 1];
    size_t from_end = sh->where ? sh->where : sh->group;
    pv_buf_clear(out);
    pv_buf_puts(out, "SELECT ");
    bool ok = sql_fold_clause(f, sh, 1, sh->from, tok[sh->from].p, true, true, out);
    if (ok) {
        pv_buf_puts(out, " ");
        pv_buf_append(out, tok[sh->from].p, (size_t)(tok[from_end].p - tok[sh->from].p));
        pv_buf_puts(out, " WHERE rowid = ?1");
    }
    if (ok && sh->where) {
        pv_buf_puts(out, " AND (");
        ok = sql_fold_clause(f, sh, sh->where + 1, sh->group, tok[sh->group].p, false, false, out);
        pv_buf_puts(out, ")");
    }
    if (ok && sh->having) {
        pv_buf_puts(out, " AND (");
        ok = sql_fold_clause(f, sh, sh->having + 1, sh->n, last->p + last->n, true, false, out);
        pv_buf_puts(out, ")");
    }
    if (!ok) {
        sql_fold_free(f);
        return NULL;
    }
    return f;
}

/* Adds x to an accumulator; for the double sum SQLite keeps beside the
 * integer one (total, avg) to equal it, every x and partial sum must be
 * within 2^53. */
#define SQL_FOLD_EXACT (INT64_C(1) << 53)
static inline void sql_fold_add(sql_fold_acc *a, int64_t x, bool check_exact, bool *overflow,
                                bool *inexact)
{
    a->count++;
    if (__builtin_add_overflow(a->sum, x, &a->sum))
        *overflow = true;
    if (check_exact && ((uint64_t)x + (uint64_t)SQL_FOLD_EXACT > 2 * (uint64_t)SQL_FOLD_EXACT ||
                        (uint64_t)a->sum + (uint64_t)SQL_FOLD_EXACT > 2 * (uint64_t)SQL_FOLD_EXACT))
        *inexact = true;
    a->min = x < a->min ? x : a->min;
    a->max = x > a->max ? x : a->max;
}

enum { SQL_FOLD_CHUNK = 1 << 16 }; /* rows between progress ticks */

/* The aggregates of every group: 1 done, 0 not exact here (the group runs
 * do it), -1 stopped (sql_tick). */
int sql_fold_compute(pv_sql *s, sql_fold *f, const sql_group *g)
{
    const pv_view *v = f->view;
    size_t n = pv_view_rows(v), k = g->k;
    const unsigned char *rank = g->rank;
    f->k = k;
    f->rows = pv_xcalloc(k ? k : 1, sizeof *f->rows);
    f->first = pv_xcalloc(k ? k : 1, sizeof *f->first);
    f->acc = pv_xcalloc((f->col_count ? f->col_count : 1) * (k ? k : 1), sizeof *f->acc);
    for (size_t i = 0; i < f->col_count * k; i++) {
        f->acc[i].min = INT64_MAX;
        f->acc[i].max = INT64_MIN;
    }
    for (size_t lo = 0; lo < n; lo += SQL_FOLD_CHUNK) {
        size_t hi = n - lo > SQL_FOLD_CHUNK ? lo + SQL_FOLD_CHUNK : n;
        for (size_t r = lo; r < hi; r++) {
            unsigned char gi = rank[r];
            if (!f->rows[gi])
                f->first[gi] = r;
            f->rows[gi]++;
        }
        for (size_t slot = 0; slot < f->col_count; slot++) {
            size_t col = f->cols[slot];
            sql_fold_acc *acc = f->acc + slot * k;
            bool *over = &f->overflow[slot], *inexact = &f->inexact[slot];
            pv_int_array a;
            if (!pv_view_int_column(v, col, &a)) {
                for (size_t r = lo; r < hi; r++) {
                    pv_cell c;
                    pv_view_cell(v, r, col, &c);
                    if (!c.present)
                        continue;
                    if (!sql_is_integer_type(c.type))
                        return 0; /* what SQLite would get is not an integer */
                    sql_fold_add(&acc[rank[r]], sql_cell_int(&c), true, over, inexact);
                }
                continue;
            }
            /* unsigned values of at most 4 bytes: the sums only grow, the
             * last one is checked below */
            switch (a.width) {
            case 1:
                for (size_t r = lo; r < hi; r++)
                    sql_fold_add(&acc[rank[r]], ((const uint8_t *)a.base)[r], false, over,
                                 inexact);
                break;
            case 2:
                for (size_t r = lo; r < hi; r++)
                    sql_fold_add(&acc[rank[r]], ((const uint16_t *)a.base)[r], false, over,
                                 inexact);
                break;
            case 4:
                for (size_t r = lo; r < hi; r++)
                    sql_fold_add(&acc[rank[r]], ((const uint32_t *)a.base)[r], false, over,
                                 inexact);
                break;
            default:
                for (size_t r = lo; r < hi; r++)
                    sql_fold_add(&acc[rank[r]], (int64_t)((const uint64_t *)a.base)[r], true, over,
                                 inexact);
                break;
            }
        }
        s->rows_visited += hi - lo;
        if (!sql_tick(s))
            return -1;
    }
    for (size_t i = 0; i < f->col_count * k; i++)
        if (f->acc[i].sum > SQL_FOLD_EXACT || f->acc[i].sum < -SQL_FOLD_EXACT)
            f->inexact[i / k] = true;
    for (size_t i = 0; i < f->agg_count; i++) {
        const sql_fold_agg *ag = &f->agg[i];
        if (ag->fn == FOLD_COUNT_STAR)
            continue;
        bool over = f->overflow[ag->slot], inexact = f->inexact[ag->slot] || over;
        if ((ag->fn == FOLD_SUM && over) ||
            ((ag->fn == FOLD_TOTAL || ag->fn == FOLD_AVG) && inexact))
            return 0;
    }
    return 1;
}

/* Binds group gi's first row and aggregates to the statement per group. */
void sql_fold_bind(const sql_fold *f, sqlite3_stmt *st, size_t gi)
{
    sqlite3_bind_int64(st, 1, (sqlite3_int64)f->first[gi]);
    for (size_t i = 0; i < f->agg_count; i++) {
        int p = (int)i + 2;
        const sql_fold_agg *ag = &f->agg[i];
        if (ag->fn == FOLD_COUNT_STAR) {
            sqlite3_bind_int64(st, p, (sqlite3_int64)f->rows[gi]);
            continue;
        }
        const sql_fold_acc *a = &f->acc[ag->slot * f->k + gi];
        switch (ag->fn) {
        case FOLD_COUNT: sqlite3_bind_int64(st, p, a->count); break;
        case FOLD_TOTAL: sqlite3_bind_double(st, p, (double)a->sum); break;
        case FOLD_SUM:
        case FOLD_AVG:
        case FOLD_MIN:
        case FOLD_MAX:
            if (!a->count)
                sqlite3_bind_null(st, p);
            else if (ag->fn == FOLD_SUM)
                sqlite3_bind_int64(st, p, a->sum);
            else if (ag->fn == FOLD_AVG)
                sqlite3_bind_double(st, p, (double)a->sum / (double)a->count);
            else
                sqlite3_bind_int64(st, p, ag->fn == FOLD_MIN ? a->min : a->max);
            break;
        default: sqlite3_bind_null(st, p); break;
        }
    }
}
