/*
 * sql_group.c - grouped columns of the SQL virtual tables: columns of few
 * distinct values ranked once, so that `col = x` and GROUP BY / ORDER BY
 * col visit the rows group by group (docs/sql.md "Fast paths").
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- grouped columns */

/* Two values of a column, as SQLite orders them: absent (NULL) first,
 * integers as the int64 SQLite holds, strings bytewise (BINARY). */
static int sql_value_compare(const pv_cell *a, const pv_cell *b)
{
    if (!a->present || !b->present)
        return (int)a->present - (int)b->present;
    if (a->type == PV_TYPE_STRING) {
        size_t n = a->v.s.len < b->v.s.len ? a->v.s.len : b->v.s.len;
        int d = n ? memcmp(a->v.s.ptr, b->v.s.ptr, n) : 0;
        if (d)
            return d;
        return (a->v.s.len > b->v.s.len) - (a->v.s.len < b->v.s.len);
    }
    int64_t x = sql_cell_int(a), y = sql_cell_int(b);
    return (x > y) - (x < y);
}

static bool sql_value_equal(const pv_cell *a, const pv_cell *b)
{
    if (a->present != b->present)
        return false;
    if (!a->present)
        return true;
    if (a->type == PV_TYPE_STRING)
        return a->v.s.len == b->v.s.len &&
               (a->v.s.len == 0 || memcmp(a->v.s.ptr, b->v.s.ptr, a->v.s.len) == 0);
    return sql_cell_int(a) == sql_cell_int(b);
}

void sql_group_free(sql_group *g)
{
    for (size_t i = 0; i < g->k; i++)
        if (g->values[i].present && g->values[i].type == PV_TYPE_STRING)
            free((char *)g->values[i].v.s.ptr);
    free(g->values);
    free(g->rank);
    free(g->perm);
    free(g->start);
    memset(g, 0, sizeof *g);
}

static const pv_cell *sql_sort_values;
static int sql_rank_cmp(const void *a, const void *b)
{
    return sql_value_compare(&sql_sort_values[*(const unsigned char *)a],
                             &sql_sort_values[*(const unsigned char *)b]);
}

/* Sorts g's values; new_rank[old rank] is each one's rank among them. */
static void sql_group_sort(sql_group *g, unsigned char *new_rank)
{
    unsigned char by_value[SQL_GROUP_MAX];
    for (size_t i = 0; i < g->k; i++)
        by_value[i] = (unsigned char)i;
    sql_sort_values = g->values;
    qsort(by_value, g->k, 1, sql_rank_cmp);
    pv_cell *sorted = pv_xcalloc(SQL_GROUP_MAX, sizeof *sorted);
    for (size_t i = 0; i < g->k; i++) {
        new_rank[by_value[i]] = (unsigned char)i;
        sorted[i] = g->values[by_value[i]];
    }
    free(g->values);
    g->values = sorted;
}

typedef struct sql_code_texts {
    char **text;
    size_t *len;
    size_t count, cap;
} sql_code_texts;

static void sql_code_text(void *ctx, const char *s, size_t len)
{
    sql_code_texts *t = ctx;
    if (t->count == t->cap) {
        size_t cap = t->cap;
        t->text = pv_xgrow(t->text, &cap, t->count + 1, sizeof *t->text);
        t->len = pv_xrealloc(t->len, cap * sizeof *t->len);
        t->cap = cap;
    }
    char *copy = pv_xmalloc(len + 1);
    if (len)
        memcpy(copy, s, len);
    copy[len] = '\0';
    t->text[t->count] = copy;
    t->len[t->count++] = len;
}

/* The ranks of a column the view holds as codes (the code_column hook,
 * docs/model.md): which codes the rows use (a pass over the codes), their
 * texts from column_values, then each row's rank (a second pass): no cell.
 * 1: ready, 0: more than SQL_GROUP_MAX values, -1: stopped. */
static int sql_group_by_codes(pv_sql *s, sql_group *g, const pv_view *v, size_t col,
                              const pv_int_array *codes, size_t n)
{
    sql_code_texts t = {0};
    if (!pv_view_column_values(v, col, sql_code_text, &t))
        t.count = 0;
    size_t ncodes = codes->width == 1 ? 256 : 65536;
    unsigned char *seen = pv_xcalloc(ncodes, 1);
    const uint8_t *c8 = codes->base;
    const uint16_t *c16 = codes->base;
    int ret = 1;
    enum { CHUNK = 1 << 20 };
    for (size_t lo = 0; lo < n && ret > 0; lo += CHUNK) {
        size_t hi = n - lo > CHUNK ? lo + CHUNK : n;
        if (codes->width == 1)
            for (size_t r = lo; r < hi; r++)
                seen[c8[r]] = 1;
        else
            for (size_t r = lo; r < hi; r++)
                seen[c16[r]] = 1;
        if (!sql_tick(s))
            ret = -1;
    }
    /* the values the rows have (equal texts are one value) */
    unsigned char *map = ret > 0 ? pv_xcalloc(ncodes, 1) : NULL;
    for (size_t code = 0; code < ncodes && ret > 0; code++) {
        if (!seen[code])
            continue;
        pv_cell c = {.type = PV_TYPE_STRING, .present = code < t.count};
        if (c.present) {
            c.v.s.ptr = t.text[code];
            c.v.s.len = t.len[code];
        }
        size_t k = 0;
        while (k < g->k && !sql_value_equal(&g->values[k], &c))
            k++;
        if (k == g->k) {
            if (k == SQL_GROUP_MAX) {
                ret = 0;
                break;
            }
            g->values[k] = c;
            if (c.present) {
                g->values[k].v.s.ptr = t.text[code];
                t.text[code] = NULL; /* owned by the group now */
            }
            g->k++;
        }
        map[code] = (unsigned char)k;
    }
    if (ret > 0) {
        unsigned char new_rank[SQL_GROUP_MAX] = {0}; /* unused codes map to 0 */
        sql_group_sort(g, new_rank);
        for (size_t code = 0; code < ncodes; code++)
            map[code] = new_rank[map[code]];
        for (size_t lo = 0; lo < n && ret > 0; lo += CHUNK) {
            size_t hi = n - lo > CHUNK ? lo + CHUNK : n;
            if (codes->width == 1)
                for (size_t r = lo; r < hi; r++)
                    g->rank[r] = map[c8[r]];
            else
                for (size_t r = lo; r < hi; r++)
                    g->rank[r] = map[c16[r]];
            if (!sql_tick(s))
                ret = -1;
        }
    }
    for (size_t i = 0; i < t.count; i++)
        free(t.text[i]);
    free(t.text);
    free(t.len);
    free(seen);
    free(map);
    return ret;
}

/* Does column `col` have at most SQL_GROUP_MAX distinct values (strings or
 * integers)?  Then its ranks are made: one pass over the rows (over the row
 * groups for a PV_COL_GROUPED column, docs/model.md), which stops at the
 * first value too many, once per view and column.  n bytes per view row. */
bool sql_column_grouped(pv_sql *s, sql_source *src, size_t col)
{
    sql_group *g = &src->facts->groups[col];
    if (g->state != SQL_GROUP_UNKNOWN)
        return g->state == SQL_GROUP_READY;
    const pv_view *v = src->view;
    size_t n = pv_view_rows(v);
    if (v->columns[col].type == PV_TYPE_FLOAT || n > UINT32_MAX) {
        g->state = SQL_GROUP_NONE; /* floats: -0.0 = 0.0 and NaN; SQLite's rules */
        return false;
    }
    g->rank = pv_xmalloc(n ? n : 1);
    g->values = pv_xcalloc(SQL_GROUP_MAX, sizeof *g->values);
    pv_int_array codes;
    if (pv_view_code_column(v, col, &codes)) {
        int ret = sql_group_by_codes(s, g, v, col, &codes, n);
        if (ret <= 0) {
            sql_group_free(g); /* stopped: unknown stays unknown */
            g->state = ret < 0 ? SQL_GROUP_UNKNOWN : SQL_GROUP_NONE;
            return false;
        }
        g->state = SQL_GROUP_READY;
        return true;
    }
    bool by_group = (v->columns[col].flags & PV_COL_GROUPED) && v->ops->row_group &&
                    v->group_count;
    int16_t *group_rank = NULL;
    if (by_group) {
        group_rank = pv_xmalloc(v->group_count * sizeof *group_rank);
        for (uint32_t i = 0; i < v->group_count; i++)
            group_rank[i] = -1;
    }
    struct sql_rank_memo {
        const char *ptr;
        size_t len;
        unsigned char k;
    } *memo = pv_xcalloc(SQL_GROUP_MEMO, sizeof *memo);
    size_t last = 0;
    bool ok = true, stopped = false;
    for (size_t r = 0; r < n; r++) {
        if ((r & 0xFFFFF) == 0xFFFFF && !sql_tick(s)) {
            stopped = true;
            break;
        }
        uint32_t gi = 0;
        if (by_group) {
            gi = v->ops->row_group(v, r);
            if (gi < v->group_count && group_rank[gi] >= 0) {
                g->rank[r] = (unsigned char)group_rank[gi];
                continue;
            }
        }
        pv_cell c;
        pv_view_cell(v, r, col, &c);
        size_t k = last;
        /* a string's rank remembered by its pointer (model.h: the same
         * pointer is the same text) */
        size_t slot = 0;
        if (c.present && c.type == PV_TYPE_STRING && c.v.s.ptr) {
            slot = (((uintptr_t)c.v.s.ptr >> 3) ^ c.v.s.len) & (SQL_GROUP_MEMO - 1);
            if (memo[slot].ptr == c.v.s.ptr && memo[slot].len == c.v.s.len) {
                k = memo[slot].k;
                last = k;
                g->rank[r] = (unsigned char)k;
                if (by_group && gi < v->group_count)
                    group_rank[gi] = (int16_t)k;
                continue;
            }
        }
        if (!(k < g->k && sql_value_equal(&g->values[k], &c))) {
            for (k = 0; k < g->k && !sql_value_equal(&g->values[k], &c); k++)
                ;
            if (k == g->k) {
                if (k == SQL_GROUP_MAX) {
                    ok = false;
                    break;
                }
                g->values[k] = c;
                if (c.present && c.type == PV_TYPE_STRING) {
                    char *copy = pv_xmalloc(c.v.s.len + 1);
                    if (c.v.s.len)
                        memcpy(copy, c.v.s.ptr, c.v.s.len);
                    copy[c.v.s.len] = '\0';
                    g->values[k].v.s.ptr = copy;
                }
                g->k++;
            }
        }
        last = k;
        g->rank[r] = (unsigned char)k;
        if (by_group && gi < v->group_count)
            group_rank[gi] = (int16_t)k;
        if (c.present && c.type == PV_TYPE_STRING && c.v.s.ptr) {
            memo[slot].ptr = c.v.s.ptr;
            memo[slot].len = c.v.s.len;
            memo[slot].k = (unsigned char)k;
        }
    }
    free(memo);
    free(group_rank);
    if (!ok || stopped) {
        sql_group_free(g); /* stopped: unknown stays unknown */
        g->state = stopped ? SQL_GROUP_UNKNOWN : SQL_GROUP_NONE;
        return false;
    }
    /* ranks in ascending value order */
    unsigned char new_rank[SQL_GROUP_MAX];
    sql_group_sort(g, new_rank);
    for (size_t r = 0; r < n; r++)
        g->rank[r] = new_rank[g->rank[r]];
    g->state = SQL_GROUP_READY;
    return true;
}

/* The rows of each group in row order (a counting sort of the ranks). */
void sql_group_perm(sql_group *g, size_t n)
{
    if (g->perm)
        return;
    g->start = pv_xcalloc(g->k + 1, sizeof *g->start);
    for (size_t r = 0; r < n; r++)
        g->start[g->rank[r] + 1]++;
    for (size_t i = 0; i < g->k; i++)
        g->start[i + 1] += g->start[i];
    size_t *at = pv_xmalloc((g->k + 1) * sizeof *at);
    memcpy(at, g->start, (g->k + 1) * sizeof *at);
    g->perm = pv_xmalloc((n ? n : 1) * sizeof *g->perm);
    for (size_t r = 0; r < n; r++)
        g->perm[at[g->rank[r]]++] = (uint32_t)r;
    free(at);
}

/* The rank of the value SQLite compares column `col` with (`col = x`), -1
 * when no row has it, -2 when any row may (x is not of the column's kind:
 * SQLite's conversions decide, so every group is visited). */
int sql_group_find(const sql_group *g, pv_type type, sqlite3_value *x)
{
    pv_cell c = {.type = type, .present = true};
    if (type == PV_TYPE_STRING) {
        if (sqlite3_value_type(x) != SQLITE_TEXT)
            return -2;
        c.v.s.ptr = (const char *)sqlite3_value_text(x);
        c.v.s.len = (size_t)sqlite3_value_bytes(x);
        if (!c.v.s.ptr)
            return -2;
    } else {
        int vt = sqlite3_value_type(x);
        if (vt == SQLITE_INTEGER) {
            c.v.i = sqlite3_value_int64(x);
        } else if (vt == SQLITE_FLOAT) {
            double d = sqlite3_value_double(x);
            if (!(d > -9.2e18 && d < 9.2e18))
                return -2;
            if ((double)(int64_t)d != d)
                return -1; /* an integer column never equals 1.5 */
            c.v.i = (int64_t)d;
        } else {
            return -2;
        }
        c.type = PV_TYPE_INT; /* compared as the int64 SQLite holds */
    }
    for (size_t i = 0; i < g->k; i++) {
        pv_cell v = g->values[i];
        if (!v.present)
            continue;
        if (type != PV_TYPE_STRING) {
            v.v.i = sql_cell_int(&v);
            v.type = PV_TYPE_INT;
        }
        if (sql_value_equal(&v, &c))
            return (int)i;
    }
    return -1;
}

/* The first row in [lo, hi) whose value in `col` (ascending) is >= x
 * (strict: > x). */
size_t sql_lower_bound(const pv_view *v, size_t col, size_t lo, size_t hi, int64_t x,
                              bool strict)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        pv_cell c;
        pv_view_cell(v, mid, col, &c);
        int64_t m = sql_cell_int(&c);
        if (strict ? m <= x : m < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
