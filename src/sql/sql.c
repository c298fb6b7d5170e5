/* sql.c - the model's views as SQLite virtual tables (docs/sql.md).
 *
 * A virtual table reads its view through the generic accessors only
 * (pv_view_rows, pv_view_cell, the int_column hook): nothing is copied.  xBestIndex turns
 * conditions on rowid (the row index) and on columns whose values never
 * decrease (the timeline's time, index and id; checked once per view and
 * column, then remembered) into a binary search, so a time window of a
 * 50 M-event timeline visits only its own rows.  Columns of few values are
 * grouped, and a GROUP BY on one runs as one aggregate per group (below). */
#include "profview/sql.h"

#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profview/hooks.h"
#include "profview/table.h"

/* What the view's column order is known to be (checked lazily). */
enum { SQL_ORDER_UNKNOWN, SQL_ORDER_ASCENDING, SQL_ORDER_NONE };

/* A column of few distinct values, grouped (docs/sql.md "Fast paths"):
 * every row's value as a rank, the ranks in ascending value order, so that
 * a condition `col = x` visits only the rows of x and GROUP BY / ORDER BY
 * col gets the rows group by group without a sort. */
enum { SQL_GROUP_UNKNOWN, SQL_GROUP_READY, SQL_GROUP_NONE };
enum {
    SQL_GROUP_MAX = 256,  /* distinct values at most (a rank is a byte) */
    SQL_GROUP_SCAN = 8, /* visiting at most this many groups scans the ranks;
                             more use the rows sorted by rank */
    SQL_SCAN_CHUNK = 512, /* rank bytes scanned at a time for a group's rows */
    SQL_GROUP_MEMO = 512, /* string pointers remembered while ranking (a power of 2) */
};

typedef struct sql_group {
    unsigned char state; /* SQL_GROUP_* */
    size_t k;            /* distinct values */
    unsigned char *rank; /* per row */
    pv_cell *values;     /* by rank (ascending); strings are owned copies */
    uint32_t *perm;      /* rows by rank then row, made when first needed */
    size_t *start;       /* group g is perm[start[g] .. start[g + 1]) */
} sql_group;

/* What is known about a view's columns, learnt once and shared by its
 * tables (`r1.t` and `main.t` are one view). */
typedef struct sql_facts {
    unsigned char *order; /* per column, SQL_ORDER_* */
    sql_group *groups;    /* per column */
    size_t columns;
} sql_facts;

typedef struct sql_source {
    const pv_view *view;
    char *schema, *table; /* where SQLite has it */
    size_t set;           /* index into pv_sql.sets */
    sql_facts *facts;     /* owned unless shares_facts */
    bool shares_facts;
    size_t *companion_of; /* hidden `<col>_hex` columns: the column they write */
    size_t companion_count;
} sql_source;

typedef struct sql_set {
    const pv_file *file;
    const pv_result_set *set;
    char schema[24]; /* "rK"; "" past the attached limit (tables rK_view in main) */
    bool *prefixed;  /* per view: its table rK_view exists in main */
} sql_set;

/* A detail id offered as a table-valued function. */
typedef struct sql_detail_fn {
    struct pv_sql *sql;
    char *detail_id;
    char *name;
    char *owner; /* the id of the view whose rows it takes; NULL: the first that offers it */
} sql_detail_fn;

struct pv_sql {
    sqlite3 *db;
    bool setting_up; /* the authorizer lets the setup through */
    sql_set *sets;
    size_t set_count, set_cap;
    sql_source **sources;
    size_t source_count, source_cap;
    sql_detail_fn **details;
    size_t detail_count, detail_cap;
    int attach_limit; /* schemas rK for K <= this (SQLite's attached limit) */
    pv_table *meta_sets, *meta_tables;
    pv_buf notes;
    uint64_t rows_visited;
    uint64_t result_rows;
    pv_sql_progress_fn progress;
    void *progress_ctx;
    bool interrupted;
    /* A GROUP BY run group by group (docs/sql.md "GROUP BY, group by
     * group"): while force_facts is set, every scan of that view gets only
     * the rows whose value in column force_col has rank force_rank. */
    const sql_facts *force_facts;
    size_t force_col;
    unsigned char force_rank;
    bool group_runs_off;       /* pv_sql_set_group_runs(s, false) */
    uint64_t group_runs;       /* statements run for one group (pv_sql_group_runs) */
    uint64_t group_folds;      /* ... of them with the aggregates computed (pv_sql_group_folds) */
    const sql_source *planned; /* the one view table xBestIndex saw, NULL: none */
    bool planned_several;      /* ... or more than one */
};

void pv_sql_table_name(const char *view_id, char *out, size_t out_size)
{
    size_t i = 0;
    for (; view_id[i] && i + 1 < out_size; i++)
        out[i] = view_id[i] == '-' ? '_' : view_id[i];
    if (out_size)
        out[i] = '\0';
}


/* The declared type of a view column: its affinity (INTEGER for the INT_
 * types, so that arithmetic and comparisons are numeric) and the profview
 * type, read back by pv_sql_query to write the result like `cat`. */
static const char *sql_decltype(pv_type t)
{
    switch (t) {
    case PV_TYPE_INT: return "INTEGER";
    case PV_TYPE_FLOAT: return "REAL";
    case PV_TYPE_TIME: return "INT_TIME";
    case PV_TYPE_HANDLE: return "INT_HANDLE";
    case PV_TYPE_HEX: return "INT_HEX";
    case PV_TYPE_STRING: return "TEXT";
    }
    return "";
}

static bool sql_is_integer_type(pv_type t)
{
    return t == PV_TYPE_INT || t == PV_TYPE_TIME || t == PV_TYPE_HANDLE || t == PV_TYPE_HEX;
}

/* The value of an integer cell as SQLite stores it. */
static int64_t sql_cell_int(const pv_cell *c)
{
    return (c->type == PV_TYPE_HANDLE || c->type == PV_TYPE_HEX) ? (int64_t)c->v.u : c->v.i;
}

static void sql_result_cell(sqlite3_context *ctx, const pv_cell *c)
{
    if (!c->present) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (c->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        sqlite3_result_int64(ctx, c->v.i);
        return;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX:
        sqlite3_result_int64(ctx, (int64_t)c->v.u);
        return;
    case PV_TYPE_FLOAT:
        sqlite3_result_double(ctx, c->v.f);
        return;
    case PV_TYPE_STRING:
        sqlite3_result_text(ctx, c->v.s.ptr, (int)(c->v.s.len > INT32_MAX ? INT32_MAX : c->v.s.len),
                            SQLITE_TRANSIENT);
        return;
    }
    sqlite3_result_null(ctx);
}

/* Reports progress; false once the caller asked to stop. */
static bool sql_tick(pv_sql *s)
{
    if (s->interrupted)
        return false;
    if (s->progress && !s->progress(s->progress_ctx, s->result_rows, s->rows_visited)) {
        s->interrupted = true;
        return false;
    }
    return true;
}

/* Is time column `col` the time of the rows of a view that says its rows
 * are in time order (docs/model.md, the time_ordered and row_time hooks)?
 * Then it never decreases, and no pass over the rows is needed.  The column
 * is taken for the row time when they agree on 64 rows spread over the
 * view (a view may have other time columns: a call's net time). */
static bool sql_is_row_time(const pv_view *v, size_t col, size_t n)
{
    if (!n || !pv_view_time_ordered(v))
        return false;
    for (size_t k = 0; k < 64; k++) {
        size_t r = k == 63 ? n - 1 : (size_t)((double)n / 63.0 * (double)k);
        if (r >= n)
            r = n - 1;
        int64_t t;
        pv_cell c;
        pv_view_cell(v, r, col, &c);
        if (!pv_view_row_time(v, r, &t) || !c.present || c.type != PV_TYPE_TIME || c.v.i != t)
            return false;
    }
    return true;
}

/* Is column `col` present on every row and never decreasing?  Read once per
 * view and column (an early way out at the first decrease). */
static bool sql_column_ascending(pv_sql *s, sql_source *src, size_t col)
{
    unsigned char *order = src->facts->order;
    if (order[col] != SQL_ORDER_UNKNOWN)
        return order[col] == SQL_ORDER_ASCENDING;
    const pv_view *v = src->view;
    if (!sql_is_integer_type(v->columns[col].type)) {
        order[col] = SQL_ORDER_NONE;
        return false;
    }
    size_t n = pv_view_rows(v);
    if (v->columns[col].type == PV_TYPE_TIME && sql_is_row_time(v, col, n)) {
        order[col] = SQL_ORDER_ASCENDING;
        return true;
    }
    int64_t prev = INT64_MIN;
    for (size_t r = 0; r < n; r++) {
        if ((r & 0xFFFFF) == 0xFFFFF && !sql_tick(s))
            return false; /* stopped: unknown stays unknown */
        pv_cell c;
        pv_view_cell(v, r, col, &c);
        if (!c.present || c.type != v->columns[col].type || sql_cell_int(&c) < prev) {
            order[col] = SQL_ORDER_NONE;
            return false;
        }
        prev = sql_cell_int(&c);
    }
    order[col] = SQL_ORDER_ASCENDING;
    return true;
}

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

static void sql_group_free(sql_group *g)
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
static bool sql_column_grouped(pv_sql *s, sql_source *src, size_t col)
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
static void sql_group_perm(sql_group *g, size_t n)
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
static int sql_group_find(const sql_group *g, pv_type type, sqlite3_value *x)
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
static size_t sql_lower_bound(const pv_view *v, size_t col, size_t lo, size_t hi, int64_t x,
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

/* ---- the virtual table over a view */

typedef struct sql_vtab {
    sqlite3_vtab base;
    pv_sql *sql;
    sql_source *src; /* NULL for a detail function */
    sql_detail_fn *detail;
    /* detail functions: the declared columns (ids), and the hidden ones */
    char **detail_cols;
    size_t detail_col_count;
} sql_vtab;

typedef struct sql_cursor {
    sqlite3_vtab_cursor base;
    const pv_view *view;
    pv_view *owned; /* an opened detail view */
    /* per view column: its values as an array (pv_view_int_column), base
     * NULL when not; read at each xFilter (valid while the query runs) */
    pv_int_array *ints;
    size_t *col_map; /* detail functions: declared column -> view column */
    size_t row, end;
    int64_t parent_id, set_no;
    /* grouped delivery (grp != NULL): the rows of [lo, end) of each group
     * in `groups`, in that order; with use_perm pos/pos_end walk grp->perm,
     * otherwise a scan of grp->rank finds the group's rows (hit) */
    const sql_group *grp;
    size_t lo, gi, group_count, pos, pos_end;
    bool done, use_perm;
    /* scanning the ranks: the rows found in the last chunk, and where the
     * next chunk starts */
    unsigned hit_pos, hit_count;
    size_t scan;
    uint32_t hit[SQL_SCAN_CHUNK];
    /* a group run of another grouped column (pv_sql.force_*): only the
     * rows whose rank there is keep_rank */
    const unsigned char *keep;
    unsigned char keep_rank;
    unsigned char groups[SQL_GROUP_MAX];
} sql_cursor;

/* idxNum of a view table: the plan.  Bits 0-3: which bounds are given
 * (argv in this order: lower, upper), bit 4: one `=` argument gives both;
 * bits 8-19: their column + 1, 0 = rowid.  Bit 5: a `=` argument on the
 * grouped column follows (its rows only); bit 6: the rows come group by
 * group (GROUP BY / ORDER BY the grouped column), bit 7: in descending
 * order; bits 20-30: the grouped column + 1. */
enum {
    PLAN_LO_GE = 1,
    PLAN_LO_GT = 2,
    PLAN_HI_LE = 4,
    PLAN_HI_LT = 8,
    PLAN_EQ = 16,
    PLAN_GROUP_EQ = 32,
    PLAN_GROUPED = 64,
    PLAN_GROUPED_DESC = 128,
    PLAN_COLUMN_MAX = 0x7FF, /* columns past this are never planned on */
};

static int sql_source_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                              sqlite3_vtab **out, char **errmsg)
{
    pv_sql *s = aux;
    (void)errmsg;
    if (argc < 4)
        return SQLITE_ERROR;
    size_t k = (size_t)strtoull(argv[3], NULL, 10);
    if (k >= s->source_count)
        return SQLITE_ERROR;
    sql_source *src = s->sources[k];
    const pv_view *v = src->view;
    pv_buf decl;
    pv_buf_init(&decl);
    pv_buf_puts(&decl, "CREATE TABLE x(");
    for (size_t c = 0; c < v->column_count; c++) {
        if (c)
            pv_buf_puts(&decl, ", ");
        pv_buf_put_sql_ident(&decl, v->columns[c].id);
        pv_buf_printf(&decl, " %s", sql_decltype(v->columns[c].type));
    }
    for (size_t h = 0; h < src->companion_count; h++) {
        pv_buf_puts(&decl, ", ");
        char *name = pv_xasprintf("%s_hex", v->columns[src->companion_of[h]].id);
        pv_buf_put_sql_ident(&decl, name);
        free(name);
        pv_buf_puts(&decl, " TEXT HIDDEN");
    }
    pv_buf_puts(&decl, ")");
    bool was = s->setting_up;
    s->setting_up = true; /* the declaration is not the user's statement */
    int rc = sqlite3_declare_vtab(db, pv_buf_cstr(&decl));
    s->setting_up = was;
    pv_buf_free(&decl);
    if (rc != SQLITE_OK)
        return rc;
    sql_vtab *t = pv_xcalloc(1, sizeof *t);
    t->sql = s;
    t->src = src;
    *out = &t->base;
    return SQLITE_OK;
}

static int sql_vtab_disconnect(sqlite3_vtab *vt)
{
    sql_vtab *t = (sql_vtab *)vt;
    for (size_t i = 0; i < t->detail_col_count; i++)
        free(t->detail_cols[i]);
    free(t->detail_cols);
    free(t);
    return SQLITE_OK;
}

/* The bound a constraint value sets on an integer column, or false when the
 * value is not a number (then the plan scans; SQLite checks every row). */
static bool sql_bound_value(sqlite3_value *v, bool lower, bool *strict, int64_t *out)
{
    switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER:
        *out = sqlite3_value_int64(v);
        return true;
    case SQLITE_FLOAT: {
        double d = sqlite3_value_double(v);
        if (isnan(d))
            return false;
        if (d >= 9.2e18 || d <= -9.2e18)
            return false;
        double r = lower ? ceil(d) : floor(d);
        if (r != d)
            *strict = false; /* x > 1.5 is x >= 2; x < 1.5 is x <= 1 */
        *out = (int64_t)r;
        return true;
    }
    default:
        return false;
    }
}

/* Is constraint i's value a constant integer (known now)? */
static unsigned char sql_exact_bound(sqlite3_index_info *info, int i)
{
    sqlite3_value *v = NULL;
    if (sqlite3_vtab_rhs_value(info, i, &v) != SQLITE_OK || !v)
        return 0;
    return sqlite3_value_type(v) == SQLITE_INTEGER;
}

/* Is constraint i's value known now and of the column's own kind (text for
 * a text column, an integer otherwise), compared with BINARY?  Then the rows
 * a plan picks are exactly those that match, and SQLite need not check. */
static unsigned char sql_exact_group_value(sqlite3_index_info *info, int i, pv_type type)
{
    const char *coll = sqlite3_vtab_collation(info, i);
    if (coll && strcasecmp(coll, "BINARY") != 0)
        return 0;
    sqlite3_value *v = NULL;
    if (sqlite3_vtab_rhs_value(info, i, &v) != SQLITE_OK || !v)
        return 0;
    return sqlite3_value_type(v) == (type == PV_TYPE_STRING ? SQLITE_TEXT : SQLITE_INTEGER);
}

static int sql_source_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    sql_vtab *t = (sql_vtab *)vt;
    const pv_view *v = t->src->view;
    double n = (double)pv_view_rows(v) + 1;
    if (t->sql->planned && t->sql->planned != t->src)
        t->sql->planned_several = true;
    t->sql->planned = t->src;
    /* the best usable column: rowid first, then an ascending column */
    int best_col = -2;
    int best_score = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (!c->usable)
            continue;
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ && c->op != SQLITE_INDEX_CONSTRAINT_GT &&
            c->op != SQLITE_INDEX_CONSTRAINT_GE && c->op != SQLITE_INDEX_CONSTRAINT_LT &&
            c->op != SQLITE_INDEX_CONSTRAINT_LE)
            continue;
        int col = c->iColumn;
        if (col >= (int)v->column_count || col >= PLAN_COLUMN_MAX)
            continue;
        int score = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 4 : 2;
        if (col < 0)
            score += 1;
        if (score <= best_score || (col == best_col))
            continue;
        if (col >= 0 && !sql_column_ascending(t->sql, t->src, (size_t)col))
            continue;
        best_score = score;
        best_col = col;
    }
    int plan = 0, arg = 1;
    double rows = n;
    pv_buf how;
    pv_buf_init(&how);
    if (best_col != -2) {
        int lo = -1, hi = -1;
        for (int i = 0; i < info->nConstraint; i++) {
            const struct sqlite3_index_constraint *c = &info->aConstraint[i];
            if (!c->usable || c->iColumn != best_col)
                continue;
            if ((c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_GE ||
                 c->op == SQLITE_INDEX_CONSTRAINT_GT) &&
                lo < 0) {
                lo = i;
                plan |= c->op == SQLITE_INDEX_CONSTRAINT_GT ? PLAN_LO_GT : PLAN_LO_GE;
            }
            if ((c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_LE ||
                 c->op == SQLITE_INDEX_CONSTRAINT_LT) &&
                hi < 0) {
                hi = i;
                plan |= c->op == SQLITE_INDEX_CONSTRAINT_LT ? PLAN_HI_LT : PLAN_HI_LE;
            }
        }
        /* The range is exact for integer values: when the value is a
         * constant integer SQLite need not check the rows again (omit);
         * otherwise (a float, text, a value known only later) it does, and
         * the range is a superset. */
        if (lo >= 0) {
            info->aConstraintUsage[lo].argvIndex = arg++;
            info->aConstraintUsage[lo].omit = sql_exact_bound(info, lo);
        }
        if (hi >= 0 && hi != lo) {
            info->aConstraintUsage[hi].argvIndex = arg++;
            info->aConstraintUsage[hi].omit = sql_exact_bound(info, hi);
        }
        else if (hi == lo && hi >= 0)
            plan |= PLAN_EQ; /* one EQ argument gives both bounds */
        plan |= (best_col + 1) << 8;
        bool eq = (plan & PLAN_EQ) != 0;
        rows = eq ? (best_col < 0 ? 1 : 2) : (lo >= 0 && hi >= 0 ? n / 100 : n / 4);
        if (eq && best_col < 0)
            info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
        pv_buf_printf(&how, "binary search on %s", best_col < 0 ? "rowid" : v->columns[best_col].id);
    }
    /* A column of few values: `col = x` visits x's rows only, and GROUP BY
     * or ORDER BY col gets the rows group by group.  Making the groups is
     * a pass over the view; it is not made for a query that a binary search
     * narrows already (SQLite sorts or checks the fewer rows). */
    bool narrow = best_col != -2;
    bool point = (plan & PLAN_EQ) != 0;
    int eq_col = -1, eq_arg = -1;
    for (int i = 0; i < info->nConstraint && !point; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int col = c->iColumn;
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ || col < 0 ||
            col >= (int)v->column_count || col >= PLAN_COLUMN_MAX || col == best_col)
            continue;
        const char *coll = sqlite3_vtab_collation(info, i);
        if (coll && strcasecmp(coll, "BINARY") != 0)
            continue;
        sql_group *g = &t->src->facts->groups[col];
        if (narrow && g->state != SQL_GROUP_READY)
            continue;
        if (!sql_column_grouped(t->sql, t->src, (size_t)col))
            continue;
        eq_col = col;
        eq_arg = i;
        break;
    }
    int order_col = -1;
    bool order_desc = false;
    if (!point && info->nOrderBy == 1 && info->aOrderBy[0].iColumn >= 0) {
        int col = info->aOrderBy[0].iColumn;
        order_desc = info->aOrderBy[0].desc != 0;
        bool sorted = !order_desc && col < (int)v->column_count &&
                      t->src->facts->order[col] == SQL_ORDER_ASCENDING;
        if (!sorted && col < (int)v->column_count && col < PLAN_COLUMN_MAX &&
            (eq_col < 0 || eq_col == col) &&
            (!narrow || t->src->facts->groups[col].state == SQL_GROUP_READY) &&
            sql_column_grouped(t->sql, t->src, (size_t)col))
            order_col = col;
    }
    int group_col = eq_col >= 0 ? eq_col : order_col;
    if (group_col >= 0) {
        const sql_group *g = &t->src->facts->groups[group_col];
        const char *id = v->columns[group_col].id;
        plan |= (group_col + 1) << 20;
        if (eq_col >= 0) {
            plan |= PLAN_GROUP_EQ;
            info->aConstraintUsage[eq_arg].argvIndex = arg++;
            info->aConstraintUsage[eq_arg].omit =
                sql_exact_group_value(info, eq_arg, v->columns[eq_col].type);
            rows = rows / (double)(g->k ? g->k : 1);
            pv_buf_printf(&how, "%srows of one %s", how.len ? ", " : "", id);
        }
        if (order_col >= 0) {
            plan |= PLAN_GROUPED | (order_desc ? PLAN_GROUPED_DESC : 0);
            if (eq_col < 0)
                pv_buf_printf(&how, "%sgrouped by %s%s", how.len ? ", " : "", id,
                              order_desc ? " (descending)" : "");
        }
    }
    info->idxNum = plan;
    info->estimatedRows = (sqlite3_int64)rows + 1;
    info->estimatedCost = plan ? log2(n) + rows : n;
    if (how.len) {
        info->idxStr = sqlite3_mprintf("%s", pv_buf_cstr(&how));
        info->needToFreeIdxStr = 1;
    }
    pv_buf_free(&how);
    /* ORDER BY rowid or an ascending column (ascending) is the view's order,
     * and a grouped column's order is its groups'; rows of one group are in
     * view order */
    if (info->nOrderBy == 1) {
        int col = info->aOrderBy[0].iColumn;
        bool desc = info->aOrderBy[0].desc != 0;
        if (group_col >= 0 && col == group_col)
            info->orderByConsumed = 1; /* one group, or the groups in order */
        else if (!(plan & PLAN_GROUPED) && !desc &&
                 (col < 0 || (col < (int)v->column_count &&
                              sql_column_ascending(t->sql, t->src, (size_t)col))))
            info->orderByConsumed = 1;
    }
    return SQLITE_OK;
}

static int sql_cursor_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    sql_cursor *c = pv_xcalloc(1, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int sql_cursor_close(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    if (c->owned)
        pv_view_free(c->owned);
    free(c->ints);
    free(c->col_map);
    free(c);
    return SQLITE_OK;
}

/* Grouped delivery: the start of group number c->gi (of c->groups). */
static void sql_group_enter(sql_cursor *c)
{
    if (c->gi >= c->group_count)
        return;
    if (!c->use_perm) {
        c->scan = c->lo;
        c->hit_pos = c->hit_count = 0;
        return;
    }
    /* the group's rows are ascending in perm: the first one >= lo */
    const sql_group *g = c->grp;
    unsigned char r = c->groups[c->gi];
    size_t a = g->start[r], b = g->start[r + 1];
    c->pos_end = b;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (g->perm[mid] < c->lo)
            a = mid + 1;
        else
            b = mid;
    }
    c->pos = a;
}

/* The rows of the current group in the next chunks of [scan, end) that
 * have one, into c->hit (8 ranks at a time: a word's bytes equal to the
 * group's rank, with no branch per row); false at the end. */
static bool sql_group_scan(sql_cursor *c)
{
    const unsigned char *rank = c->grp->rank;
    unsigned char want = c->groups[c->gi];
    size_t i = c->scan, end = c->end;
    unsigned n = 0;
    while (n == 0 && i < end) {
        size_t stop = end - i > SQL_SCAN_CHUNK ? i + SQL_SCAN_CHUNK : end;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        const uint64_t ones = 0x0101010101010101u, low7 = 0x7F7F7F7F7F7F7F7Fu;
        const uint64_t pattern = ones * want;
        for (; i + 8 <= stop; i += 8) {
            uint64_t w;
            memcpy(&w, rank + i, sizeof w);
            uint64_t x = w ^ pattern; /* zero bytes: the group's rows */
            uint64_t z = ~(((x & low7) + low7) | x | low7);
            if (!z)
                continue;
            for (unsigned b = 0; b < 8; b++) {
                c->hit[n] = (uint32_t)(i + b);
                n += (unsigned)(z >> (8 * b + 7)) & 1;
            }
        }
#endif
        for (; i < stop; i++) {
            c->hit[n] = (uint32_t)i;
            n += rank[i] == want;
        }
        if (c->keep) { /* a group run of another column: its rows only */
            unsigned kept = 0;
            for (unsigned h = 0; h < n; h++)
                if (c->keep[c->hit[h]] == c->keep_rank)
                    c->hit[kept++] = c->hit[h];
            n = kept;
        }
    }
    c->scan = i;
    c->hit_pos = 0;
    c->hit_count = n;
    return n > 0;
}

/* Moves to the current group's next row in [lo, end) at or after the
 * current place, or to the next groups; done after the last. */
static void sql_group_settle(sql_cursor *c)
{
    const sql_group *g = c->grp;
    while (c->gi < c->group_count) {
        if (!c->use_perm) {
            if (c->hit_pos < c->hit_count || sql_group_scan(c)) {
                c->row = c->hit[c->hit_pos];
                return;
            }
        } else {
            for (; c->pos < c->pos_end && g->perm[c->pos] < c->end; c->pos++) {
                c->row = g->perm[c->pos];
                if (!c->keep || c->keep[c->row] == c->keep_rank)
                    return;
            }
        }
        c->gi++;
        sql_group_enter(c);
    }
    c->done = true;
    c->row = c->end;
}

static int sql_source_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                             sqlite3_value **argv)
{
    (void)idx_str;
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    const pv_view *v = t->src->view;
    c->view = v;
    c->row = 0;
    c->end = pv_view_rows(v);
    c->grp = NULL;
    c->keep = NULL;
    if (v->hooks && v->hooks->int_column) {
        if (!c->ints)
            c->ints = pv_xcalloc(v->column_count, sizeof *c->ints);
        for (size_t k = 0; k < v->column_count; k++)
            if (!pv_view_int_column(v, k, &c->ints[k]))
                c->ints[k].base = NULL;
    }
    c->done = false;
    int col = ((idx_num >> 8) & 0xFFF) - 1;
    int arg = 0;
    bool has_lo = (idx_num & (PLAN_LO_GE | PLAN_LO_GT)) != 0;
    bool has_hi = (idx_num & (PLAN_HI_LE | PLAN_HI_LT)) != 0;
    sqlite3_value *lo_v = has_lo && arg < argc ? argv[arg++] : NULL;
    sqlite3_value *hi_v = NULL;
    if (has_hi)
        hi_v = (idx_num & PLAN_EQ) ? lo_v : (arg < argc ? argv[arg++] : NULL);
    int64_t x;
    if (lo_v) {
        bool strict = (idx_num & PLAN_LO_GT) != 0;
        if (sqlite3_value_type(lo_v) == SQLITE_NULL) {
            c->row = c->end; /* comparisons with NULL are never true */
            return SQLITE_OK;
        }
        if (sql_bound_value(lo_v, true, &strict, &x)) {
            if (col < 0) {
                int64_t first = strict ? (x == INT64_MAX ? x : x + 1) : x;
                c->row = first <= 0 ? 0 : (uint64_t)first > c->end ? c->end : (size_t)first;
            } else {
                c->row = sql_lower_bound(v, (size_t)col, 0, c->end, x, strict);
            }
        }
    }
    if (hi_v) {
        bool strict = (idx_num & PLAN_HI_LT) != 0;
        if (sqlite3_value_type(hi_v) == SQLITE_NULL) {
            c->row = c->end;
            return SQLITE_OK;
        }
        if (sql_bound_value(hi_v, false, &strict, &x)) {
            size_t end;
            if (col < 0) {
                int64_t last = strict ? x - 1 : x; /* last row index included */
                end = last < 0 ? 0 : (uint64_t)last >= c->end ? c->end : (size_t)last + 1;
            } else {
                /* the first row past the bound: > x (<= x kept) or >= x */
                end = sql_lower_bound(v, (size_t)col, c->row, c->end, x, !strict);
            }
            if (end < c->end)
                c->end = end;
        }
    }
    if (c->row > c->end)
        c->row = c->end;
    sql_facts *facts = t->src->facts;
    int gcol = ((idx_num >> 20) & PLAN_COLUMN_MAX) - 1;
    if (!(idx_num & (PLAN_GROUP_EQ | PLAN_GROUPED)) ||
        (gcol >= 0 && facts->groups[gcol].state != SQL_GROUP_READY))
        gcol = -1; /* not reached for a plan's column: plans use ready groups only */
    /* a GROUP BY run group by group: this scan gets one group's rows */
    int force = t->sql->force_facts == facts ? (int)t->sql->force_col : -1;
    if (force >= 0 && facts->groups[force].state != SQL_GROUP_READY)
        force = -1; /* not reached: group runs use ready groups only */
    if (gcol < 0 && force < 0)
        return SQLITE_OK;
    sql_group *g = gcol >= 0 ? &facts->groups[gcol] : NULL;
    int only = -2;
    if (gcol >= 0 && (idx_num & PLAN_GROUP_EQ)) {
        sqlite3_value *val = arg < argc ? argv[arg++] : NULL;
        only = !val || sqlite3_value_type(val) == SQLITE_NULL
                   ? -1
                   : sql_group_find(g, v->columns[gcol].type, val);
        if (only == -1) {
            c->row = c->end; /* no row has that value */
            return SQLITE_OK;
        }
    }
    bool forced_one = false; /* one group of a group run: its rows sorted by rank */
    if (force >= 0 && (gcol < 0 || gcol == force)) {
        if (only >= 0 && only != t->sql->force_rank) {
            c->row = c->end; /* `col = x` and the run of another value */
            return SQLITE_OK;
        }
        gcol = force;
        g = &facts->groups[gcol];
        only = t->sql->force_rank;
        forced_one = true;
    } else if (force >= 0) {
        c->keep = facts->groups[force].rank;
        c->keep_rank = t->sql->force_rank;
    }
    if (only >= 0) {
        c->groups[0] = (unsigned char)only;
        c->group_count = 1;
    } else {
        bool desc = (idx_num & PLAN_GROUPED_DESC) != 0;
        for (size_t i = 0; i < g->k; i++)
            c->groups[i] = (unsigned char)(desc ? g->k - 1 - i : i);
        c->group_count = g->k;
    }
    /* a group of few: a scan of the ranks; a group run of a column of
     * many groups would scan the ranks once per group: the sorted rows */
    c->use_perm = c->group_count > SQL_GROUP_SCAN || (forced_one && g->k > SQL_GROUP_SCAN);
    if (c->use_perm)
        sql_group_perm(g, pv_view_rows(v));
    c->grp = g;
    c->lo = c->row;
    c->gi = 0;
    sql_group_enter(c);
    sql_group_settle(c);
    return SQLITE_OK;
}

static int sql_cursor_next(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    t->sql->rows_visited++;
    if (!c->grp) {
        c->row++;
        return SQLITE_OK;
    }
    if (c->use_perm) {
        c->pos++;
    } else if (++c->hit_pos < c->hit_count) {
        c->row = c->hit[c->hit_pos];
        return SQLITE_OK;
    }
    sql_group_settle(c);
    return SQLITE_OK;
}

static int sql_cursor_eof(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    return c->grp ? c->done : c->row >= c->end;
}

static int sql_cursor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = (sqlite3_int64)((sql_cursor *)cur)->row;
    return SQLITE_OK;
}

/* Writes the `<col>_hex` text of an integer column like `cat` does. */
static void sql_result_hex(sqlite3_context *ctx, const pv_cell *cell)
{
    if (!cell->present) {
        sqlite3_result_null(ctx);
        return;
    }
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(cell, &b);
    sqlite3_result_text(ctx, pv_buf_cstr(&b), (int)b.len, SQLITE_TRANSIENT);
    pv_buf_free(&b);
}

static int sql_source_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    const pv_view *v = c->view;
    pv_cell cell;
    if (c->ints && (size_t)col < v->column_count && c->ints[col].base) {
        const pv_int_array *a = &c->ints[col];
        switch (a->width) {
        case 1: sqlite3_result_int64(ctx, ((const uint8_t *)a->base)[c->row]); break;
        case 2: sqlite3_result_int64(ctx, ((const uint16_t *)a->base)[c->row]); break;
        case 4: sqlite3_result_int64(ctx, ((const uint32_t *)a->base)[c->row]); break;
        default: sqlite3_result_int64(ctx, (int64_t)((const uint64_t *)a->base)[c->row]); break;
        }
        return SQLITE_OK;
    }
    if ((size_t)col < v->column_count) {
        const sql_group *g = &t->src->facts->groups[col];
        if (g->state == SQL_GROUP_READY) {
            /* a grouped column: the row's value is its group's (a string
             * that lives as long as the connection: no copy) */
            const pv_cell *gv = &g->values[g->rank[c->row]];
            if (gv->present && gv->type == PV_TYPE_STRING)
                sqlite3_result_text(ctx, gv->v.s.ptr, (int)gv->v.s.len, SQLITE_STATIC);
            else
                sql_result_cell(ctx, gv);
            return SQLITE_OK;
        }
        pv_view_cell(v, c->row, (size_t)col, &cell);
        sql_result_cell(ctx, &cell);
        return SQLITE_OK;
    }
    size_t h = (size_t)col - v->column_count;
    if (h < t->src->companion_count) {
        pv_view_cell(v, c->row, t->src->companion_of[h], &cell);
        sql_result_hex(ctx, &cell);
        return SQLITE_OK;
    }
    sqlite3_result_null(ctx);
    return SQLITE_OK;
}

static sqlite3_module sql_source_module = {
    .iVersion = 0,
    .xCreate = sql_source_connect,
    .xConnect = sql_source_connect,
    .xBestIndex = sql_source_best_index,
    .xDisconnect = sql_vtab_disconnect,
    .xDestroy = sql_vtab_disconnect,
    .xOpen = sql_cursor_open,
    .xClose = sql_cursor_close,
    .xFilter = sql_source_filter,
    .xNext = sql_cursor_next,
    .xEof = sql_cursor_eof,
    .xColumn = sql_source_column,
    .xRowid = sql_cursor_rowid,
};

/* ---- detail views as table-valued functions: name(parent_id [, result_set]) */

/* Detail `id` of the row whose id is `parent` in the first view of result
 * set `set` that offers the detail (or in view `owner_id`), as `cat --view
 * ID --parent PARENT` opens it; with parent_any, of any row of any view
 * that offers it (the first one found). */
static pv_view *sql_open_detail(const pv_result_set *set, const char *id, const char *owner_id,
                                bool parent_any, int64_t parent)
{
    for (size_t i = 0; i < set->view_count; i++) {
        const pv_view *owner = set->views[i];
        size_t d = pv_view_detail_index(owner, id);
        if (d == PV_NO_ROW || (owner_id && strcmp(owner->id, owner_id) != 0))
            continue;
        if (parent_any) {
            size_t n = pv_view_rows(owner);
            for (size_t r = 0; r < n && r < 65536; r++) {
                pv_view *dv = pv_view_open_detail(owner, d, r);
                if (dv)
                    return dv;
            }
            continue;
        }
        size_t row = pv_view_find_id(owner, parent);
        return row == PV_NO_ROW ? NULL : pv_view_open_detail(owner, d, row);
    }
    return NULL;
}

static int sql_detail_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                              sqlite3_vtab **out, char **errmsg)
{
    (void)argc;
    (void)argv;
    sql_detail_fn *fn = aux;
    pv_sql *s = fn->sql;
    /* The columns come from the detail itself: open it once for a row of
     * the first result set that has one. */
    pv_view *sample = NULL;
    for (size_t k = 0; k < s->set_count && !sample; k++)
        sample = sql_open_detail(s->sets[k].set, fn->detail_id, fn->owner, true, 0);
    if (!sample) {
        *errmsg = sqlite3_mprintf("no row has the detail view '%s'", fn->detail_id);
        return SQLITE_ERROR;
    }
    sql_vtab *t = pv_xcalloc(1, sizeof *t);
    t->sql = s;
    t->detail = fn;
    t->detail_col_count = sample->column_count;
    t->detail_cols = pv_xmalloc((sample->column_count + 1) * sizeof *t->detail_cols);
    pv_buf decl;
    pv_buf_init(&decl);
    pv_buf_puts(&decl, "CREATE TABLE x(");
    for (size_t c = 0; c < sample->column_count; c++) {
        t->detail_cols[c] = pv_xstrdup(sample->columns[c].id);
        pv_buf_put_sql_ident(&decl, sample->columns[c].id);
        pv_buf_printf(&decl, " %s, ", sql_decltype(sample->columns[c].type));
    }
    pv_buf_puts(&decl, "parent_id HIDDEN, result_set HIDDEN)");
    pv_view_free(sample);
    bool was = s->setting_up;
    s->setting_up = true; /* the declaration is not the user's statement */
    int rc = sqlite3_declare_vtab(db, pv_buf_cstr(&decl));
    s->setting_up = was;
    if (rc != SQLITE_OK)
        *errmsg = sqlite3_mprintf("%s: %s", fn->name, sqlite3_errmsg(db));
    pv_buf_free(&decl);
    if (rc != SQLITE_OK) {
        sql_vtab_disconnect(&t->base);
        return rc;
    }
    *out = &t->base;
    return SQLITE_OK;
}

static int sql_detail_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    sql_vtab *t = (sql_vtab *)vt;
    int parent = -1, set = -1;
    int parent_col = (int)t->detail_col_count, set_col = parent_col + 1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ)
            continue;
        if (c->iColumn == parent_col) {
            if (!c->usable)
                return SQLITE_CONSTRAINT;
            parent = i;
        } else if (c->iColumn == set_col) {
            if (!c->usable)
                return SQLITE_CONSTRAINT;
            set = i;
        }
    }
    if (parent < 0) {
        sqlite3_free(vt->zErrMsg);
        vt->zErrMsg = sqlite3_mprintf("%s(PARENT_ID [, RESULT_SET]) needs the id of a row",
                                      t->detail->name);
        return SQLITE_ERROR;
    }
    info->aConstraintUsage[parent].argvIndex = 1;
    info->aConstraintUsage[parent].omit = 1;
    info->idxNum = 1;
    if (set >= 0) {
        info->aConstraintUsage[set].argvIndex = 2;
        info->aConstraintUsage[set].omit = 1;
        info->idxNum = 2;
    }
    info->estimatedCost = 100;
    info->estimatedRows = 100;
    return SQLITE_OK;
}

static int sql_detail_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                             sqlite3_value **argv)
{
    (void)idx_str;
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    pv_sql *s = t->sql;
    if (c->owned)
        pv_view_free(c->owned);
    c->owned = NULL;
    c->view = NULL;
    c->row = c->end = 0;
    if (idx_num < 1 || argc < 1 || sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER)
        return SQLITE_OK;
    c->parent_id = sqlite3_value_int64(argv[0]);
    c->set_no = 1;
    if (idx_num == 2 && argc >= 2)
        c->set_no = sqlite3_value_int64(argv[1]);
    if (c->set_no < 1 || (uint64_t)c->set_no > s->set_count)
        return SQLITE_OK;
    c->owned = sql_open_detail(s->sets[c->set_no - 1].set, t->detail->detail_id,
                               t->detail->owner, false, c->parent_id);
    if (!c->owned)
        return SQLITE_OK;
    c->view = c->owned;
    c->end = pv_view_rows(c->owned);
    free(c->col_map);
    c->col_map = pv_xmalloc((t->detail_col_count + 1) * sizeof *c->col_map);
    for (size_t i = 0; i < t->detail_col_count; i++)
        c->col_map[i] = pv_view_column(c->owned, t->detail_cols[i]);
    return SQLITE_OK;
}

static int sql_detail_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    if ((size_t)col == t->detail_col_count) {
        sqlite3_result_int64(ctx, c->parent_id);
        return SQLITE_OK;
    }
    if ((size_t)col == t->detail_col_count + 1) {
        sqlite3_result_int64(ctx, c->set_no);
        return SQLITE_OK;
    }
    size_t vc = (size_t)col < t->detail_col_count ? c->col_map[col] : PV_NO_ROW;
    if (vc == PV_NO_ROW) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    pv_cell cell;
    pv_view_cell(c->view, c->row, vc, &cell);
    sql_result_cell(ctx, &cell);
    return SQLITE_OK;
}

static sqlite3_module sql_detail_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: a table-valued function */
    .xConnect = sql_detail_connect,
    .xBestIndex = sql_detail_best_index,
    .xDisconnect = sql_vtab_disconnect,
    .xDestroy = sql_vtab_disconnect,
    .xOpen = sql_cursor_open,
    .xClose = sql_cursor_close,
    .xFilter = sql_detail_filter,
    .xNext = sql_cursor_next,
    .xEof = sql_cursor_eof,
    .xColumn = sql_detail_column,
    .xRowid = sql_cursor_rowid,
};

/* ---- the connection: read-only by construction */

/* Functions that reach outside the model (none of them is compiled into
 * the library SQLite today, but a system SQLite may have them). */
static const char *const sql_refused_functions[] = {
    "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer", "zipfile",
};

/* Pragmas that only read (the others are refused, and so are arguments). */
static const char *const sql_read_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "database_list", "function_list", "module_list",
    "collation_list",
};

static int sql_authorize(void *ctx, int action, const char *a1, const char *a2, const char *db,
                         const char *trigger)
{
    (void)db;
    (void)trigger;
    pv_sql *s = ctx;
    if (s->setting_up)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        for (size_t i = 0; i < PV_ARRAY_LEN(sql_refused_functions); i++)
            if (a2 && strcasecmp(a2, sql_refused_functions[i]) == 0)
                return SQLITE_DENY;
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        if (!a1)
            return SQLITE_DENY;
        for (size_t i = 0; i < PV_ARRAY_LEN(sql_read_pragmas); i++)
            if (strcasecmp(a1, sql_read_pragmas[i]) == 0)
                return SQLITE_OK;
        (void)a2;
        return SQLITE_DENY;
    default:
        return SQLITE_DENY; /* writes, ATTACH, DETACH, transactions, ... */
    }
}

static int sql_progress(void *ctx)
{
    return sql_tick(ctx) ? 0 : 1;
}

static const pv_column sql_meta_set_columns[] = {
    {"schema", "Schema", PV_TYPE_STRING, PV_COL_NAME},
    {"file", "File", PV_TYPE_STRING, 0},
    {"format", "Format", PV_TYPE_STRING, 0},
    {"result_set", "Result set", PV_TYPE_INT, 0},
    {"caption", "Caption", PV_TYPE_STRING, 0},
    {"kind", "Kind", PV_TYPE_STRING, 0},
};

static const pv_column sql_meta_table_columns[] = {
    {"schema", "Schema", PV_TYPE_STRING, 0},
    {"name", "Table", PV_TYPE_STRING, PV_COL_NAME},
    {"view", "View", PV_TYPE_STRING, 0},
    {"kind", "Kind", PV_TYPE_STRING, 0},
    {"rows", "Rows", PV_TYPE_INT, 0},
};

pv_sql *pv_sql_new(void)
{
    pv_sql *s = pv_xcalloc(1, sizeof *s);
    pv_buf_init(&s->notes);
    if (sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK)
    {
        fprintf(stderr, "profview: out of memory (sqlite3_open_v2)\n");
        abort();
    }
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_create_module(s->db, "profview_view", &sql_source_module, s);
    sqlite3_set_authorizer(s->db, sql_authorize, s);
    sqlite3_progress_handler(s->db, 4096, sql_progress, s);
    /* The reading pragmas as table-valued functions (`SELECT name FROM
     * pragma_table_info('timeline')`): SQLite makes each one's table the
     * first time a query names it, with a statement of its own on the
     * schema that the authorizer would refuse; made here, while setting
     * up.  Reading them is then authorized as the pragma itself. */
    s->setting_up = true;
    for (size_t i = 0; i < PV_ARRAY_LEN(sql_read_pragmas); i++) {
        char q[80];
        snprintf(q, sizeof q, "SELECT * FROM pragma_%s", sql_read_pragmas[i]);
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK)
            sqlite3_finalize(st);
    }
    s->setting_up = false;
    /* as many attached schemas as this SQLite allows (SQLITE_MAX_ATTACHED,
     * 10 by default, 125 at most); docs/sql.md "Result sets" */
    sqlite3_limit(s->db, SQLITE_LIMIT_ATTACHED, 125);
    s->attach_limit = sqlite3_limit(s->db, SQLITE_LIMIT_ATTACHED, -1);
    s->meta_sets = pv_table_new("profview-sets", "Result sets", sql_meta_set_columns,
                                PV_ARRAY_LEN(sql_meta_set_columns));
    s->meta_tables = pv_table_new("profview-tables", "Tables", sql_meta_table_columns,
                                  PV_ARRAY_LEN(sql_meta_table_columns));
    return s;
}

const char *pv_sql_notes(const pv_sql *s)
{
    return s->notes.len ? s->notes.data : "";
}

void pv_sql_set_progress(pv_sql *s, pv_sql_progress_fn fn, void *ctx)
{
    s->progress = fn;
    s->progress_ctx = ctx;
}

uint64_t pv_sql_rows_visited(const pv_sql *s)
{
    return s->rows_visited;
}

void pv_sql_set_group_runs(pv_sql *s, bool on)
{
    s->group_runs_off = !on;
}

uint64_t pv_sql_group_runs(const pv_sql *s)
{
    return s->group_runs;
}

uint64_t pv_sql_group_folds(const pv_sql *s)
{
    return s->group_folds;
}

/* Lists a table in profview_tables. */
static void sql_list_table(pv_sql *s, const char *schema, const char *name, const pv_view *v)
{
    size_t r = pv_table_add_row(s->meta_tables);
    pv_table_set_cstr(s->meta_tables, r, 0, schema);
    pv_table_set_cstr(s->meta_tables, r, 1, name);
    pv_table_set_cstr(s->meta_tables, r, 2, v->id);
    pv_table_set_cstr(s->meta_tables, r, 3, "table");
    pv_table_set_int(s->meta_tables, r, 4, (int64_t)pv_view_rows(v));
}

static sql_facts *sql_facts_new(size_t columns)
{
    sql_facts *fa = pv_xcalloc(1, sizeof *fa);
    fa->columns = columns;
    fa->order = pv_xcalloc(columns ? columns : 1, 1);
    fa->groups = pv_xcalloc(columns ? columns : 1, sizeof *fa->groups);
    return fa;
}

static void sql_facts_free(sql_facts *fa)
{
    for (size_t c = 0; c < fa->columns; c++)
        sql_group_free(&fa->groups[c]);
    free(fa->groups);
    free(fa->order);
    free(fa);
}

/* Registers `v` and creates its table in `schema`; with `share`, another
 * table of the same view, what is learnt about the columns is shared. */
static sql_source *sql_create_table(pv_sql *s, const pv_view *v, size_t set, const char *schema,
                                    const char *table, bool listed, sql_source *share)
{
    sql_source *src = pv_xcalloc(1, sizeof *src);
    src->view = v;
    src->set = set;
    src->shares_facts = share != NULL;
    src->facts = share ? share->facts : sql_facts_new(v->column_count);
    src->companion_of = pv_xmalloc((v->column_count + 1) * sizeof *src->companion_of);
    for (size_t c = 0; c < v->column_count; c++) {
        if (v->columns[c].type != PV_TYPE_HANDLE && v->columns[c].type != PV_TYPE_HEX)
            continue;
        /* no companion when the view has a column of that name already */
        char *name = pv_xasprintf("%s_hex", v->columns[c].id);
        if (pv_view_column(v, name) == PV_NO_ROW)
            src->companion_of[src->companion_count++] = c;
        free(name);
    }
    s->sources = pv_xgrow(s->sources, &s->source_cap, s->source_count + 1, sizeof *s->sources);
    size_t k = s->source_count++;
    s->sources[k] = src;

    char name[360];
    if (table)
        snprintf(name, sizeof name, "%s", table);
    else
        pv_sql_table_name(v->id, name, sizeof name);
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "CREATE VIRTUAL TABLE ");
    pv_buf_put_sql_ident(&sql, schema);
    pv_buf_putc(&sql, '.');
    pv_buf_put_sql_ident(&sql, name);
    pv_buf_printf(&sql, " USING profview_view(%zu)", k);
    src->schema = pv_xstrdup(schema);
    src->table = pv_xstrdup(name);
    char *err = NULL;
    if (sqlite3_exec(s->db, pv_buf_cstr(&sql), NULL, NULL, &err) != SQLITE_OK) {
        pv_buf_printf(&s->notes, "view '%s' is not a table in %s: %s\n", v->id, schema,
                      err ? err : "?");
    } else if (listed) {
        sql_list_table(s, schema, name, v);
    }
    sqlite3_free(err);
    pv_buf_free(&sql);
    return src;
}

/* A table-valued function for detail `id` of the rows of view `owner` (NULL:
 * of the first view that offers it), named `name`, unless one has that
 * name already. */
static void sql_add_detail_function(pv_sql *s, const char *id, const char *owner,
                                    const char *owner_shown, const char *name)
{
    for (size_t k = 0; k < s->detail_count; k++)
        if (strcasecmp(s->details[k]->name, name) == 0)
            return;
    sql_detail_fn *fn = pv_xcalloc(1, sizeof *fn);
    fn->sql = s;
    fn->detail_id = pv_xstrdup(id);
    fn->name = pv_xstrdup(name);
    fn->owner = owner ? pv_xstrdup(owner) : NULL;
    s->details = pv_xgrow(s->details, &s->detail_cap, s->detail_count + 1, sizeof *s->details);
    s->details[s->detail_count++] = fn;
    sqlite3_create_module(s->db, fn->name, &sql_detail_module, fn);
    size_t r = pv_table_add_row(s->meta_tables);
    pv_table_set_cstr(s->meta_tables, r, 0, "main");
    pv_table_set_cstr(s->meta_tables, r, 1, fn->name);
    pv_table_set_cstr(s->meta_tables, r, 2, id);
    char *kind = pv_xasprintf("function of %s rows", owner_shown);
    pv_table_set_cstr(s->meta_tables, r, 3, kind);
    free(kind);
}

/* Detail views as functions (docs/sql.md "Detail views"): `detail(id)` of
 * the first view that offers it, as `cat --parent`; a detail that several
 * views offer is also `view_detail(id)` for each of them. */
static void sql_add_detail_functions(pv_sql *s, const pv_result_set *set)
{
    for (size_t i = 0; i < set->view_count; i++) {
        const pv_view *v = set->views[i];
        for (size_t d = 0; d < v->detail_count; d++) {
            const char *id = v->details[d].id;
            char name[300];
            pv_sql_table_name(id, name, sizeof name);
            sql_add_detail_function(s, id, NULL, v->id, name);
            size_t owners = 0;
            for (size_t j = 0; j < set->view_count; j++)
                owners += pv_view_detail_index(set->views[j], id) != PV_NO_ROW;
            if (owners < 2)
                continue;
            char table[300], both[620];
            pv_sql_table_name(v->id, table, sizeof table);
            snprintf(both, sizeof both, "%s_%s", table, name);
            sql_add_detail_function(s, id, v->id, v->id, both);
        }
    }
}

void pv_sql_add_file(pv_sql *s, const pv_file *f)
{
    s->setting_up = true;
    for (size_t i = 0; i < f->set_count; i++) {
        const pv_result_set *set = f->sets[i];
        size_t k = s->set_count;
        char schema[24];
        snprintf(schema, sizeof schema, "r%zu", k + 1);
        bool attached = false;
        if (k < (size_t)s->attach_limit) {
            char *attach = pv_xasprintf("ATTACH ':memory:' AS %s", schema);
            char *err = NULL;
            attached = sqlite3_exec(s->db, attach, NULL, NULL, &err) == SQLITE_OK;
            free(attach);
            if (!attached)
                pv_buf_printf(&s->notes,
                              "%s: result set %" PRId64 " (%s): no schema %s (%s): its tables "
                              "are %s_VIEW\n",
                              f->path, set->id, set->caption, schema, err ? err : "?", schema);
            sqlite3_free(err);
        }
        s->sets = pv_xgrow(s->sets, &s->set_cap, s->set_count + 1, sizeof *s->sets);
        sql_set *ss = &s->sets[s->set_count++];
        ss->file = f;
        ss->set = set;
        ss->prefixed = pv_xcalloc(set->view_count + 1, sizeof *ss->prefixed);
        size_t r = pv_table_add_row(s->meta_sets);
        char shown[32];
        snprintf(shown, sizeof shown, attached ? "%s" : "%s_", schema);
        pv_table_set_cstr(s->meta_sets, r, 0, shown);
        pv_table_set_cstr(s->meta_sets, r, 1, f->path);
        pv_table_set_cstr(s->meta_sets, r, 2, f->format ? f->format : "");
        pv_table_set_int(s->meta_sets, r, 3, set->id);
        pv_table_set_cstr(s->meta_sets, r, 4, set->caption);
        pv_table_set_cstr(s->meta_sets, r, 5, set->kind);
        if (attached) {
            memcpy(ss->schema, schema, sizeof schema);
            for (size_t v = 0; v < set->view_count; v++) {
                sql_source *src = sql_create_table(s, set->views[v], k, schema, NULL, true, NULL);
                if (k == 0)
                    sql_create_table(s, set->views[v], k, "main", NULL, true, src);
            }
        } else {
            /* past the limit: main.rK_VIEW, made when a query names it */
            ss->schema[0] = '\0';
            for (size_t v = 0; v < set->view_count; v++) {
                char name[300], *table = pv_xasprintf("r%zu_%s", k + 1, set->views[v]->id);
                pv_sql_table_name(table, name, sizeof name);
                free(table);
                sql_list_table(s, "main", name, set->views[v]);
            }
        }
        sql_add_detail_functions(s, set);
    }
    s->setting_up = false;
}

/* The source that owns what is known about view v, or NULL. */
static sql_source *sql_source_of(pv_sql *s, const pv_view *v)
{
    for (size_t i = 0; i < s->source_count; i++)
        if (s->sources[i]->view == v && !s->sources[i]->shares_facts)
            return s->sources[i];
    return NULL;
}

/* Makes the tables main.rK_VIEW that the query names (any identifier of
 * that form, quoted or not; docs/sql.md "Result sets"): every result set's
 * views are reachable that way, past SQLite's limit of attached schemas
 * too.  A view of the first result set with such a name wins. */
static void sql_make_prefixed(pv_sql *s, const char *query)
{
    const char *p = query;
    while (*p) {
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z'))) {
            p++;
            continue;
        }
        const char *w = p;
        while (*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
               (*p >= 'A' && *p <= 'Z'))
            p++;
        size_t len = (size_t)(p - w);
        if (len < 4 || (w[0] != 'r' && w[0] != 'R') || w[1] < '1' || w[1] > '9')
            continue;
        size_t d = 1;
        uint64_t k = 0;
        while (d < len && w[d] >= '0' && w[d] <= '9' && k < 1000000000)
            k = k * 10 + (uint64_t)(w[d++] - '0');
        if (d >= len - 1 || w[d] != '_' || k < 1 || k > s->set_count)
            continue;
        const char *rest = w + d + 1;
        size_t rest_len = len - d - 1;
        sql_set *ss = &s->sets[k - 1];
        bool clash = false;
        for (size_t v = 0; v < s->sets[0].set->view_count && !clash; v++) {
            char tname[300];
            pv_sql_table_name(s->sets[0].set->views[v]->id, tname, sizeof tname);
            clash = strlen(tname) == len && strncasecmp(tname, w, len) == 0;
        }
        for (size_t v = 0; v < ss->set->view_count && !clash; v++) {
            const pv_view *view = ss->set->views[v];
            char tname[300];
            pv_sql_table_name(view->id, tname, sizeof tname);
            if (ss->prefixed[v] || strlen(tname) != rest_len ||
                strncasecmp(tname, rest, rest_len) != 0)
                continue;
            char name[340];
            snprintf(name, sizeof name, "r%" PRIu64 "_%s", k, tname);
            s->setting_up = true;
            sql_create_table(s, view, (size_t)k - 1, "main", name, false, sql_source_of(s, view));
            s->setting_up = false;
            ss->prefixed[v] = true;
        }
    }
}

static void sql_expose_meta(pv_sql *s)
{
    static const char *const names[] = {"profview_sets", "profview_tables"};
    pv_view *views[] = {pv_table_view(s->meta_sets), pv_table_view(s->meta_tables)};
    for (size_t i = 0; i < 2; i++) {
        sqlite3_stmt *st = NULL;
        char *q = pv_xasprintf("SELECT 1 FROM main.sqlite_master WHERE name = '%s'", names[i]);
        bool exists = sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK &&
                      sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        free(q);
        if (exists)
            continue;
        s->setting_up = true;
        sql_source *src = pv_xcalloc(1, sizeof *src);
        src->view = views[i];
        src->facts = sql_facts_new(views[i]->column_count);
        src->companion_of = pv_xmalloc(sizeof *src->companion_of);
        s->sources = pv_xgrow(s->sources, &s->source_cap, s->source_count + 1, sizeof *s->sources);
        s->sources[s->source_count] = src;
        char *create = pv_xasprintf("CREATE VIRTUAL TABLE main.%s USING profview_view(%zu)",
                                    names[i], s->source_count);
        s->source_count++;
        sqlite3_exec(s->db, create, NULL, NULL, NULL);
        free(create);
        s->setting_up = false;
    }
}

void pv_sql_free(pv_sql *s)
{
    if (!s)
        return;
    sqlite3_close(s->db); /* disconnects every table first */
    for (size_t i = 0; i < s->source_count; i++) {
        if (!s->sources[i]->shares_facts)
            sql_facts_free(s->sources[i]->facts);
        free(s->sources[i]->schema);
        free(s->sources[i]->table);
        free(s->sources[i]->companion_of);
        free(s->sources[i]);
    }
    free(s->sources);
    for (size_t i = 0; i < s->detail_count; i++) {
        free(s->details[i]->detail_id);
        free(s->details[i]->name);
        free(s->details[i]->owner);
        free(s->details[i]);
    }
    free(s->details);
    for (size_t k = 0; k < s->set_count; k++)
        free(s->sets[k].prefixed);
    free(s->sets);
    pv_view_free(pv_table_view(s->meta_sets));
    pv_view_free(pv_table_view(s->meta_tables));
    pv_buf_free(&s->notes);
    free(s);
}

/* ---- running a query into a table */

/* A result cell while the rows are read (the column types are decided at
 * the end: a column is INT only if every value is an integer, and so on). */
typedef struct sql_value {
    int kind; /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_NULL (a blob is text) */
    union {
        int64_t i;
        double f;
        struct {
            size_t off, len;
        } s;
    } v;
} sql_value;

static void sql_set_error(pv_sql_error *err, pv_sql *s, const char *fmt, ...) PV_PRINTF(3, 4);
static void sql_set_error(pv_sql_error *err, pv_sql *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->offset = s ? sqlite3_error_offset(s->db) : -1;
}

/* The profview type of result column c, from its declared type (a column
 * of a view) and the kinds of value it holds. */
static pv_type sql_result_type(const char *decl, bool any_float, bool any_text)
{
    if (any_text)
        return PV_TYPE_STRING;
    if (any_float)
        return PV_TYPE_FLOAT;
    if (decl && strcmp(decl, "INT_TIME") == 0)
        return PV_TYPE_TIME;
    if (decl && strcmp(decl, "INT_HANDLE") == 0)
        return PV_TYPE_HANDLE;
    if (decl && strcmp(decl, "INT_HEX") == 0)
        return PV_TYPE_HEX;
    return PV_TYPE_INT;
}

static bool sql_blank(const char *p)
{
    for (; *p; p++) {
        if (*p == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
            if (!*p)
                return true;
        } else if (*p == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                return true;
            p = e + 1;
        } else if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != ';') {
            return false;
        }
    }
    return true;
}

/* ---- results whose rows are rows of a view: its Details (docs/sql.md) */

typedef struct sql_origin {
    const pv_view *view; /* the view the rows are rows of */
    size_t key;          /* the result column with the row's id or rowid */
    size_t id_col;       /* the view's id column; PV_NO_ROW: the key is the rowid */
    bool ascending;      /* the id column never decreases: binary search */
} sql_origin;

static pv_view *sql_origin_detail(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    const sql_origin *o = ctx;
    pv_cell c;
    pv_view_cell(owner, row, o->key, &c);
    if (!c.present || c.type == PV_TYPE_STRING || c.type == PV_TYPE_FLOAT)
        return NULL;
    int64_t key = sql_cell_int(&c);
    size_t n = pv_view_rows(o->view), at = PV_NO_ROW;
    if (o->id_col == PV_NO_ROW) {
        at = key >= 0 && (uint64_t)key < n ? (size_t)key : PV_NO_ROW;
    } else if (o->ascending) {
        at = sql_lower_bound(o->view, o->id_col, 0, n, key, false);
        if (at < n) {
            pv_view_cell(o->view, at, o->id_col, &c);
            if (!c.present || sql_cell_int(&c) != key)
                at = PV_NO_ROW;
        } else {
            at = PV_NO_ROW;
        }
    } else {
        at = pv_view_find_id(o->view, key);
    }
    return at == PV_NO_ROW ? NULL : pv_view_open_detail(o->view, detail, at);
}

/* When the result's columns that come straight from a table (SQLite's
 * column metadata) all come from one view's table, and one of them is its
 * `id` or its rowid, every result row is that view's row with that id:
 * the result offers the view's details for it. */
static void sql_offer_origin_details(pv_sql *s, sqlite3_stmt *st, pv_table *t)
{
    int ncol = sqlite3_column_count(st);
    const sql_source *src = NULL;
    size_t key = PV_NO_ROW, id_col = PV_NO_ROW;
    for (int c = 0; c < ncol; c++) {
        const char *db = sqlite3_column_database_name(st, c);
        const char *table = sqlite3_column_table_name(st, c);
        const char *origin = sqlite3_column_origin_name(st, c);
        if (!db || !table || !origin)
            continue; /* computed */
        const sql_source *from = NULL;
        for (size_t i = 0; i < s->source_count && !from; i++)
            if (s->sources[i]->schema && strcmp(s->sources[i]->schema, db) == 0 &&
                strcmp(s->sources[i]->table, table) == 0)
                from = s->sources[i];
        if (!from || (src && from->view != src->view))
            return; /* a table-valued function, profview_sets, or two views */
        src = from;
        if (key != PV_NO_ROW)
            continue;
        if (strcmp(origin, "rowid") == 0) {
            key = (size_t)c;
            id_col = PV_NO_ROW;
        } else if (strcasecmp(origin, "id") == 0) {
            key = (size_t)c;
            id_col = pv_view_column(src->view, "id");
        }
    }
    if (!src || key == PV_NO_ROW || !src->view->detail_count)
        return;
    if (id_col != PV_NO_ROW && !sql_is_integer_type(src->view->columns[id_col].type))
        return;
    sql_origin *o = pv_xcalloc(1, sizeof *o);
    o->view = src->view;
    o->key = key;
    o->id_col = id_col;
    o->ascending = id_col != PV_NO_ROW && src->facts->order[id_col] == SQL_ORDER_ASCENDING;
    if (id_col != PV_NO_ROW && !o->ascending && pv_view_rows(src->view) > 4096)
        o->ascending = sql_column_ascending(s, (sql_source *)src, id_col);
    pv_table_set_details(t, src->view->details, src->view->detail_count, sql_origin_detail, o,
                         free);
}

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

typedef struct sql_tok {
    const char *p;
    size_t n;
    char kind; /* 'w' word, 'q' quoted name, 's' string or blob, 'n' number, 'p' punctuation */
    int depth; /* parentheses around it */
} sql_tok;

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

static bool sql_tok_is(const sql_tok *t, const char *word)
{
    return t->kind == 'w' && strlen(word) == t->n && strncasecmp(t->p, word, t->n) == 0;
}

static bool sql_tok_punct(const sql_tok *t, char ch)
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

static bool sql_tok_name(const sql_tok *t)
{
    return (t->kind == 'w' || t->kind == 'q') && !sql_tok_reserved(t) &&
           !sql_tok_is(t, "WHERE") && !sql_tok_is(t, "GROUP") && !sql_tok_is(t, "HAVING") &&
           !sql_tok_is(t, "AS") && !sql_tok_is(t, "FROM") && !sql_tok_is(t, "DISTINCT") &&
           !sql_tok_is(t, "ALL");
}

/* The clauses of a query of the shape above (token indexes; where is 0
 * without WHERE, having 0 without HAVING). */
typedef struct sql_shape {
    sql_tok *tok;
    size_t n, from, where, group, having;
} sql_shape;

/* When q has the shape above: the query run per group into *out and the
 * grouped column's name (unquoted) into col; with `shape`, its tokens and
 * clauses (the caller frees shape->tok). */
static bool sql_group_rewrite(const char *q, pv_buf *out, char *col, size_t col_size,
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

enum { FOLD_COUNT_STAR, FOLD_COUNT, FOLD_SUM, FOLD_TOTAL, FOLD_AVG, FOLD_MIN, FOLD_MAX };
enum { SQL_FOLD_MAX = 128 }; /* aggregates at most */

typedef struct sql_fold_agg {
    unsigned char fn; /* FOLD_* */
    size_t slot;      /* index into sql_fold.cols (not for count(*)) */
} sql_fold_agg;

/* Per aggregated column and group: the non-NULL values' count, sum (exact
 * while !overflow), smallest and largest. */
typedef struct sql_fold_acc {
    int64_t count, sum, min, max;
} sql_fold_acc;

typedef struct sql_fold {
    const pv_view *view;
    size_t gcol;
    sql_fold_agg agg[SQL_FOLD_MAX];
    size_t agg_count;
    size_t cols[SQL_FOLD_MAX]; /* the aggregated view columns */
    size_t col_count;
    const sql_tok *aliases[SQL_FOLD_MAX]; /* names given with AS in the list */
    size_t alias_count;
    /* computed (sql_fold_compute) */
    size_t k;
    uint64_t *rows; /* per group */
    size_t *first;  /* per group: its first row */
    sql_fold_acc *acc; /* [slot * k + group] */
    /* per aggregated column: a sum left int64; a value or partial sum past
     * 2^53 (SQLite's double sum, for total and avg, may round) */
    bool overflow[SQL_FOLD_MAX], inexact[SQL_FOLD_MAX];
} sql_fold;

static void sql_fold_free(sql_fold *f)
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
static sql_fold *sql_fold_plan(const sql_shape *sh, const pv_view *v, size_t gcol, pv_buf *out)
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
static int sql_fold_compute(pv_sql *s, sql_fold *f, const sql_group *g)
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
static void sql_fold_bind(const sql_fold *f, sqlite3_stmt *st, size_t gi)
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

/* Reads the rows of a query: the statement as written, or its group runs. */
typedef struct sql_runner {
    pv_sql *s;
    sqlite3_stmt *st;    /* the user's statement */
    sqlite3_stmt *group; /* the statement run per group, or NULL */
    const sql_source *src;
    size_t col, groups, next;
    bool running;
    /* the aggregates computed by profview (above): the statement per
     * group and what it binds; fold_state 0 before the pass, 1 after */
    sqlite3_stmt *fold;
    sql_fold *fd;
    int fold_state;
} sql_runner;

/* Prepares the group runs of r->st when the query has the shape. */
static void sql_runner_plan(sql_runner *r, const char *query)
{
    pv_sql *s = r->s;
    char col[256];
    pv_buf q;
    pv_buf_init(&q);
    sql_shape shape = {0};
    if (s->group_runs_off || !sql_group_rewrite(query, &q, col, sizeof col, &shape)) {
        pv_buf_free(&q);
        return;
    }
    s->planned = NULL;
    s->planned_several = false;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, pv_buf_cstr(&q), -1, &st, NULL) != SQLITE_OK || !st ||
        sqlite3_column_count(st) != sqlite3_column_count(r->st) + 1 || !s->planned ||
        s->planned_several) {
        sqlite3_finalize(st);
        pv_buf_free(&q);
        free(shape.tok);
        return;
    }
    /* the groups are made when the query as written is planned, unless a
     * binary search narrows it (then SQLite sorts the fewer rows) */
    sql_source *src = (sql_source *)s->planned;
    size_t c = pv_view_column(src->view, col);
    if (c == PV_NO_ROW || c >= PLAN_COLUMN_MAX ||
        src->facts->groups[c].state != SQL_GROUP_READY) {
        sqlite3_finalize(st);
        pv_buf_free(&q);
        free(shape.tok);
        return;
    }
    r->group = st;
    r->src = src;
    r->col = c;
    r->groups = src->facts->groups[c].k;
    /* aggregates profview computes itself, when the query allows */
    sql_fold *fd = sql_fold_plan(&shape, src->view, c, &q);
    free(shape.tok);
    if (fd) {
        s->planned = NULL;
        s->planned_several = false;
        st = NULL;
        if (sqlite3_prepare_v2(s->db, pv_buf_cstr(&q), -1, &st, NULL) == SQLITE_OK && st &&
            sqlite3_column_count(st) == sqlite3_column_count(r->st) &&
            sqlite3_bind_parameter_count(st) == (int)fd->agg_count + 1 && s->planned == src &&
            !s->planned_several) {
            r->fold = st;
            r->fd = fd;
        } else {
            sqlite3_finalize(st);
            sql_fold_free(fd);
        }
    }
    pv_buf_free(&q);
}

/* The next row of the statement per group with the aggregates computed
 * (SQLITE_DONE after the last group), or -1: the aggregates are not exact
 * here, the plain group runs go on. */
static int sql_runner_fold_step(sql_runner *r)
{
    pv_sql *s = r->s;
    if (r->fold_state == 0) {
        int ok = sql_fold_compute(s, r->fd, &r->src->facts->groups[r->col]);
        if (ok < 0)
            return SQLITE_INTERRUPT;
        if (ok == 0)
            return -1;
        r->fold_state = 1;
    }
    for (;;) {
        if (!r->running) {
            while (r->next < r->groups && !r->fd->rows[r->next])
                r->next++;
            if (r->next >= r->groups)
                return SQLITE_DONE;
            sqlite3_reset(r->fold);
            sql_fold_bind(r->fd, r->fold, r->next++);
            s->group_runs++;
            s->group_folds++;
            r->running = true;
        }
        int rc = sqlite3_step(r->fold);
        if (rc == SQLITE_ROW)
            return rc;
        r->running = false;
        if (rc != SQLITE_DONE)
            return rc;
    }
}

/* sqlite3_step of the query: SQLITE_ROW (the row is in sql_runner_stmt),
 * SQLITE_DONE or an error. */
static int sql_runner_step(sql_runner *r)
{
    if (!r->group)
        return sqlite3_step(r->st);
    pv_sql *s = r->s;
    if (r->fold) {
        int rc = sql_runner_fold_step(r);
        if (rc != -1)
            return rc;
        sqlite3_finalize(r->fold); /* not exact here: the plain group runs */
        r->fold = NULL;
        r->running = false;
        r->next = 0;
    }
    for (;;) {
        if (!r->running) {
            if (r->next >= r->groups)
                return SQLITE_DONE;
            sqlite3_reset(r->group);
            s->force_facts = r->src->facts;
            s->force_col = r->col;
            s->force_rank = (unsigned char)r->next++;
            s->group_runs++;
            r->running = true;
        }
        int rc = sqlite3_step(r->group);
        if (rc == SQLITE_ROW) {
            if (sqlite3_column_int64(r->group, sqlite3_column_count(r->group) - 1) > 0)
                return SQLITE_ROW;
            continue; /* WHERE kept none of the group's rows */
        }
        r->running = false;
        s->force_facts = NULL;
        if (rc != SQLITE_DONE)
            return rc;
    }
}

static sqlite3_stmt *sql_runner_stmt(const sql_runner *r)
{
    return r->fold ? r->fold : r->group ? r->group : r->st;
}

pv_view *pv_sql_query(pv_sql *s, const char *query, pv_sql_error *err)
{
    memset(err, 0, sizeof *err);
    err->offset = -1;
    sql_expose_meta(s);
    s->interrupted = false;
    s->result_rows = 0;
    sql_make_prefixed(s, query);
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(s->db, query, -1, &st, &tail);
    if (rc != SQLITE_OK) {
        sql_set_error(err, s, "%s", sqlite3_errmsg(s->db));
        err->interrupted = s->interrupted;
        return NULL;
    }
    if (!st) {
        sql_set_error(err, NULL, "the query is empty");
        return NULL;
    }
    if (tail && !sql_blank(tail)) {
        sqlite3_finalize(st);
        snprintf(err->message, sizeof err->message, "one statement at a time");
        err->offset = (int)(tail - query);
        while (query[err->offset] == ' ' || query[err->offset] == ';' ||
               query[err->offset] == '\n' || query[err->offset] == '\t')
            err->offset++;
        return NULL;
    }
    if (!sqlite3_stmt_readonly(st)) {
        sqlite3_finalize(st);
        sql_set_error(err, NULL, "only read-only statements (SELECT, WITH, EXPLAIN) are allowed");
        return NULL;
    }
    int ncol = sqlite3_column_count(st);
    size_t cap = 0, count = 0;
    sql_value *vals = NULL;
    pv_buf text;
    pv_buf_init(&text);
    size_t nc = (size_t)ncol;
    bool *any_float = pv_xcalloc(nc + 1, sizeof *any_float);
    bool *any_text = pv_xcalloc(nc + 1, sizeof *any_text);
    sql_runner run = {.s = s, .st = st};
    sql_runner_plan(&run, query);
    while ((rc = sql_runner_step(&run)) == SQLITE_ROW) {
        sqlite3_stmt *row_st = sql_runner_stmt(&run);
        vals = pv_xgrow(vals, &cap, count + nc, sizeof *vals);
        for (size_t c = 0; c < nc; c++) {
            sql_value *v = &vals[count + c];
            v->kind = sqlite3_column_type(row_st, (int)c);
            switch (v->kind) {
            case SQLITE_INTEGER:
                v->v.i = sqlite3_column_int64(row_st, (int)c);
                break;
            case SQLITE_FLOAT:
                v->v.f = sqlite3_column_double(row_st, (int)c);
                any_float[c] = true;
                break;
            case SQLITE_NULL:
                break;
            default: {
                const unsigned char *p = sqlite3_column_text(row_st, (int)c);
                size_t len = (size_t)sqlite3_column_bytes(row_st, (int)c);
                v->kind = SQLITE_TEXT;
                v->v.s.off = text.len;
                v->v.s.len = len;
                pv_buf_append(&text, p ? (const char *)p : "", p ? len : 0);
                any_text[c] = true;
                break;
            }
            }
        }
        count += nc;
        s->result_rows++;
    }
    pv_view *result = NULL;
    if (rc != SQLITE_DONE) {
        err->interrupted = s->interrupted;
        if (s->interrupted)
            sql_set_error(err, NULL, "stopped after %" PRIu64 " rows", s->result_rows);
        else
            sql_set_error(err, s, "%s", sqlite3_errmsg(s->db));
    } else {
        pv_column *cols = pv_xcalloc(nc + 1, sizeof *cols);
        for (size_t c = 0; c < nc; c++) {
            const char *name = sqlite3_column_name(st, (int)c);
            cols[c].id = name ? name : "?";
            cols[c].title = cols[c].id;
            cols[c].type = sql_result_type(sqlite3_column_decltype(st, (int)c), any_float[c],
                                           any_text[c]);
            if (c == 0 && cols[c].type == PV_TYPE_STRING)
                cols[c].flags |= PV_COL_NAME;
        }
        pv_table *t = pv_table_new("sql", "SQL", cols, nc);
        free(cols);
        size_t rows = nc ? count / nc : 0;
        pv_table_reserve(t, rows);
        pv_buf num;
        pv_buf_init(&num);
        for (size_t r = 0; r < rows; r++) {
            size_t row = pv_table_add_row(t);
            for (size_t c = 0; c < nc; c++) {
                const sql_value *v = &vals[r * nc + c];
                pv_type type = pv_table_view(t)->columns[c].type;
                switch (v->kind) {
                case SQLITE_NULL:
                    break;
                case SQLITE_INTEGER:
                    if (type == PV_TYPE_FLOAT) {
                        pv_table_set_float(t, row, c, (double)v->v.i);
                    } else if (type == PV_TYPE_STRING) {
                        pv_buf_clear(&num);
                        pv_buf_printf(&num, "%" PRId64, v->v.i);
                        pv_table_set_str(t, row, c, num.data, num.len);
                    } else if (type == PV_TYPE_HANDLE || type == PV_TYPE_HEX) {
                        uint64_t u = (uint64_t)v->v.i;
                        if (type == PV_TYPE_HANDLE)
                            u &= 0xFFFFFFFFu;
                        pv_table_set_uint(t, row, c, u);
                    } else {
                        pv_table_set_int(t, row, c, v->v.i);
                    }
                    break;
                case SQLITE_FLOAT:
                    if (type == PV_TYPE_STRING) {
                        pv_cell cell = {.type = PV_TYPE_FLOAT, .present = true, .v.f = v->v.f};
                        pv_buf_clear(&num);
                        pv_cell_format_exact(&cell, &num);
                        pv_table_set_str(t, row, c, num.data, num.len);
                    } else {
                        pv_table_set_float(t, row, c, v->v.f);
                    }
                    break;
                default:
                    pv_table_set_str(t, row, c, text.data + v->v.s.off, v->v.s.len);
                    break;
                }
            }
        }
        pv_buf_free(&num);
        sql_offer_origin_details(s, st, t);
        result = pv_table_view(t);
    }
    s->force_facts = NULL;
    sqlite3_finalize(run.fold);
    sql_fold_free(run.fd);
    sqlite3_finalize(run.group);
    sqlite3_finalize(st);
    free(vals);
    free(any_float);
    free(any_text);
    pv_buf_free(&text);
    return result;
}

/* ---- completion */

typedef struct sql_complete_ctx {
    const char *prefix;
    size_t len;
    void (*fn)(void *ctx, const char *name);
    void *ctx;
} sql_complete_ctx;

static void sql_offer(const sql_complete_ctx *c, const char *name)
{
    if (strncasecmp(name, c->prefix, c->len) == 0)
        c->fn(c->ctx, name);
}

void pv_sql_complete(pv_sql *s, const char *prefix, void (*fn)(void *ctx, const char *name),
                     void *ctx)
{
    sql_expose_meta(s);
    sql_complete_ctx c = {prefix, strlen(prefix), fn, ctx};
    const char *dot = strrchr(prefix, '.');
    if (dot) {
        /* "table." or "schema.table.": that table's columns; "schema.": its tables */
        char table[256];
        size_t tlen = (size_t)(dot - prefix);
        const char *start = prefix;
        const char *first_dot = memchr(prefix, '.', tlen);
        if (first_dot)
            start = first_dot + 1;
        tlen = (size_t)(dot - start);
        if (tlen >= sizeof table)
            return;
        memcpy(table, start, tlen);
        table[tlen] = '\0';
        sql_complete_ctx after = {dot + 1, strlen(dot + 1), fn, ctx};
        pv_buf name;
        pv_buf_init(&name);
        /* rK_VIEW is VIEW's table of result set K */
        const char *bare = table;
        if ((table[0] == 'r' || table[0] == 'R') && table[1] >= '1' && table[1] <= '9') {
            const char *u = table + 1;
            while (*u >= '0' && *u <= '9')
                u++;
            if (*u == '_')
                bare = u + 1;
        }
        for (size_t i = 0; i < s->source_count; i++) {
            const pv_view *v = s->sources[i]->view;
            char tname[256];
            pv_sql_table_name(v->id, tname, sizeof tname);
            if (strcasecmp(tname, table) == 0 || strcasecmp(tname, bare) == 0) {
                for (size_t col = 0; col < v->column_count; col++) {
                    pv_buf_clear(&name);
                    pv_buf_append(&name, prefix, (size_t)(dot - prefix) + 1);
                    pv_buf_puts(&name, v->columns[col].id);
                    if (strncasecmp(v->columns[col].id, after.prefix, after.len) == 0)
                        fn(ctx, pv_buf_cstr(&name));
                }
                break;
            }
        }
        for (size_t k = 0; k < s->set_count && !first_dot; k++) {
            if (!s->sets[k].schema[0] || strcasecmp(s->sets[k].schema, table) != 0)
                continue;
            for (size_t v = 0; v < s->sets[k].set->view_count; v++) {
                char tname[256];
                pv_sql_table_name(s->sets[k].set->views[v]->id, tname, sizeof tname);
                pv_buf_clear(&name);
                pv_buf_printf(&name, "%s.%s", s->sets[k].schema, tname);
                if (strncasecmp(tname, after.prefix, after.len) == 0)
                    fn(ctx, pv_buf_cstr(&name));
            }
        }
        pv_buf_free(&name);
        return;
    }
    if (s->set_count) {
        const pv_result_set *first = s->sets[0].set;
        for (size_t v = 0; v < first->view_count; v++) {
            char tname[256];
            pv_sql_table_name(first->views[v]->id, tname, sizeof tname);
            sql_offer(&c, tname);
        }
    }
    for (size_t i = 0; i < s->detail_count; i++)
        sql_offer(&c, s->details[i]->name);
    for (size_t k = 0; k < s->set_count; k++)
        if (s->sets[k].schema[0])
            sql_offer(&c, s->sets[k].schema);
    /* "rK_": the tables of result set K in main (docs/sql.md "Result sets") */
    char *end = NULL;
    unsigned long long k = (c.prefix[0] == 'r' || c.prefix[0] == 'R') && c.prefix[1] >= '1' &&
                                   c.prefix[1] <= '9'
                               ? strtoull(c.prefix + 1, &end, 10)
                               : 0;
    if (k >= 1 && k <= s->set_count && end && *end == '_') {
        const pv_result_set *set = s->sets[k - 1].set;
        for (size_t v = 0; v < set->view_count; v++) {
            char tname[300], name[340];
            pv_sql_table_name(set->views[v]->id, tname, sizeof tname);
            snprintf(name, sizeof name, "r%llu_%s", k, tname);
            sql_offer(&c, name);
        }
    }
    sql_offer(&c, "profview_sets");
    sql_offer(&c, "profview_tables");
}
