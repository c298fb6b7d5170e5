/* table.c - pv_table: a materialised view stored column by column. */
#include "profview/table.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef union pv_table_value {
    int64_t i;
    uint64_t u;
    double f;
    uint32_t str; /* offset in the pool; length = strlen (pool strings have no NUL) */
} pv_table_value;

struct pv_table {
    pv_view view; /* first: a pv_table is its own view */
    pv_table_value **values; /* [column][row] */
    uint8_t **present;       /* [column][row / 8] bit set */
    size_t *parents;         /* tree tables only */
    size_t rows;
    size_t row_cap;
    pv_strpool pool;
    pv_table_detail_fn detail_fn;
    void *detail_ctx;
    void (*detail_ctx_free)(void *);
};

static size_t pv_table_ops_rows(const pv_view *v)
{
    return ((const pv_table *)v->impl)->rows;
}

static void pv_table_ops_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const pv_table *t = v->impl;
    out->type = v->columns[col].type;
    out->present = (t->present[col][row >> 3] >> (row & 7)) & 1;
    if (!out->present) {
        out->v.u = 0;
        return;
    }
    const pv_table_value *val = &t->values[col][row];
    switch (out->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        out->v.i = val->i;
        break;
    case PV_TYPE_FLOAT:
        out->v.f = val->f;
        break;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX:
        out->v.u = val->u;
        break;
    case PV_TYPE_STRING: {
        const char *s = pv_strpool_get(&t->pool, val->str);
        out->v.s.ptr = s;
        out->v.s.len = strlen(s);
        break;
    }
    }
}

static size_t pv_table_ops_parent(const pv_view *v, size_t row)
{
    return ((const pv_table *)v->impl)->parents[row];
}

static pv_view *pv_table_ops_detail(const pv_view *v, size_t detail, size_t row)
{
    const pv_table *t = v->impl;
    if (!t->detail_fn)
        return NULL;
    return t->detail_fn(t->detail_ctx, v, detail, row);
}

static void pv_table_ops_destroy(pv_view *v)
{
    pv_table *t = v->impl;
    for (size_t c = 0; c < v->column_count; c++) {
        free(t->values[c]);
        free(t->present[c]);
    }
    free(t->values);
    free(t->present);
    free(t->parents);
    pv_view_free_names(v);
    pv_strpool_free(&t->pool);
    if (t->detail_ctx_free)
        t->detail_ctx_free(t->detail_ctx);
    free(t);
}

static const pv_view_ops pv_table_flat_ops = {
    pv_table_ops_rows, pv_table_ops_cell, NULL, pv_table_ops_detail, pv_table_ops_destroy,
    NULL,
};
static const pv_view_ops pv_table_tree_ops = {
    pv_table_ops_rows, pv_table_ops_cell, pv_table_ops_parent, pv_table_ops_detail,
    pv_table_ops_destroy, NULL,
};

pv_table *pv_table_new(const char *id, const char *title, const pv_column *columns,
                       size_t column_count)
{
    pv_table *t = pv_xcalloc(1, sizeof *t);
    t->view.ops = &pv_table_flat_ops;
    t->view.impl = t;
    pv_view_copy_names(&t->view, id, title, columns, column_count);
    t->values = pv_xcalloc(column_count, sizeof *t->values);
    t->present = pv_xcalloc(column_count, sizeof *t->present);
    pv_strpool_init(&t->pool);
    return t;
}

pv_view *pv_table_view(pv_table *t)
{
    return &t->view;
}

void pv_table_make_tree(pv_table *t)
{
    if (t->view.ops == &pv_table_tree_ops)
        return;
    t->view.ops = &pv_table_tree_ops;
    t->parents = pv_xmalloc((t->row_cap ? t->row_cap : 1) * sizeof *t->parents);
    for (size_t r = 0; r < t->rows; r++)
        t->parents[r] = PV_NO_ROW;
}

void pv_table_reserve(pv_table *t, size_t rows)
{
    if (rows <= t->row_cap)
        return;
    if (rows > PV_VIEW_ROWS_MAX) {
        /* docs/model.md "Row selections": like running out of memory,
         * which a table of 4 G rows would do long before: a message and
         * exit status 2, no core dump */
        char msg[128];
        snprintf(msg, sizeof msg,
                 "a table of more than %zu rows (%s): more than profview can hold",
                 PV_VIEW_ROWS_MAX, t->view.id ? t->view.id : "?");
        pv_fatal(msg);
    }
    size_t cap = t->row_cap ? t->row_cap : 16;
    while (cap < rows)
        cap *= 2;
    for (size_t c = 0; c < t->view.column_count; c++) {
        t->values[c] = pv_xrealloc(t->values[c], cap * sizeof(pv_table_value));
        size_t old_bytes = (t->row_cap + 7) / 8;
        size_t new_bytes = (cap + 7) / 8;
        t->present[c] = pv_xrealloc(t->present[c], new_bytes);
        memset(t->present[c] + old_bytes, 0, new_bytes - old_bytes);
    }
    if (t->parents)
        t->parents = pv_xrealloc(t->parents, cap * sizeof *t->parents);
    t->row_cap = cap;
}

size_t pv_table_add_row(pv_table *t)
{
    pv_table_reserve(t, t->rows + 1);
    size_t r = t->rows++;
    for (size_t c = 0; c < t->view.column_count; c++) {
        t->present[c][r >> 3] &= (uint8_t) ~(1u << (r & 7));
        t->values[c][r].u = 0;
    }
    if (t->parents)
        t->parents[r] = PV_NO_ROW;
    return r;
}

size_t pv_table_row_count(const pv_table *t)
{
    return t->rows;
}

void pv_table_set_parent(pv_table *t, size_t row, size_t parent)
{
    if (!t->parents)
        pv_table_make_tree(t);
    if (row >= t->rows || (parent != PV_NO_ROW && parent >= row))
        return; /* pre-order violated: keep the row at the top */
    t->parents[row] = parent;
}

static pv_table_value *pv_table_slot(pv_table *t, size_t row, size_t col)
{
    if (row >= t->rows || col >= t->view.column_count)
        abort(); /* a loader bug, not bad input */
    t->present[col][row >> 3] |= (uint8_t)(1u << (row & 7));
    return &t->values[col][row];
}

void pv_table_set_int(pv_table *t, size_t row, size_t col, int64_t value)
{
    pv_table_slot(t, row, col)->i = value;
}

void pv_table_set_float(pv_table *t, size_t row, size_t col, double value)
{
    pv_table_slot(t, row, col)->f = value;
}

void pv_table_set_uint(pv_table *t, size_t row, size_t col, uint64_t value)
{
    pv_table_slot(t, row, col)->u = value;
}

void pv_table_set_str(pv_table *t, size_t row, size_t col, const char *s, size_t len)
{
    /* The pool stores NUL-terminated strings: a NUL inside a name ends it. */
    const char *nul = memchr(s, '\0', len);
    if (nul)
        len = (size_t)(nul - s);
    pv_table_slot(t, row, col)->str = pv_strpool_add(&t->pool, s, len);
}

void pv_table_set_cstr(pv_table *t, size_t row, size_t col, const char *s)
{
    pv_table_set_str(t, row, col, s ? s : "", s ? strlen(s) : 0);
}

void pv_table_clear(pv_table *t, size_t row, size_t col)
{
    if (row < t->rows && col < t->view.column_count)
        t->present[col][row >> 3] &= (uint8_t) ~(1u << (row & 7));
}

bool pv_table_get_int(const pv_table *t, size_t row, size_t col, int64_t *value)
{
    if (row >= t->rows || col >= t->view.column_count)
        return false;
    if (!((t->present[col][row >> 3] >> (row & 7)) & 1))
        return false;
    *value = t->values[col][row].i;
    return true;
}

void pv_table_set_details(pv_table *t, const pv_detail_def *details, size_t count,
                          pv_table_detail_fn fn, void *ctx, void (*ctx_free)(void *))
{
    t->view.details = details;
    t->view.detail_count = count;
    t->detail_fn = fn;
    t->detail_ctx = ctx;
    t->detail_ctx_free = ctx_free;
}

void pv_table_set_column_title(pv_table *t, size_t col, const char *title)
{
    if (col >= t->view.column_count)
        return;
    free((char *)t->view.columns[col].title);
    t->view.columns[col].title = pv_xstrdup(title);
}

/* ---- summaries */

enum { PV_SUM_ID, PV_SUM_KEY, PV_SUM_VALUE, PV_SUM_TIME, PV_SUM_COLUMNS };

static const pv_column pv_summary_cols[PV_SUM_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {"key", "Fact", PV_TYPE_STRING, PV_COL_NAME},
    {"value", "Value", PV_TYPE_STRING, 0},
    {PV_COLUMN_TIME, 0},
};

const pv_column *pv_summary_columns(size_t *count)
{
    *count = PV_SUM_COLUMNS;
    return pv_summary_cols;
}

pv_table *pv_summary_new(void)
{
    return pv_table_new("summary", "Summary", pv_summary_cols, PV_SUM_COLUMNS);
}

void pv_summary_add(pv_table *t, const char *key, const char *value)
{
    size_t r = pv_table_add_row(t);
    pv_table_set_int(t, r, PV_SUM_ID, (int64_t)r + 1);
    pv_table_set_cstr(t, r, PV_SUM_KEY, key);
    pv_table_set_cstr(t, r, PV_SUM_VALUE, value);
}

void pv_summary_add_time(pv_table *t, const char *key, int64_t ns)
{
    char num[32];
    snprintf(num, sizeof num, "%" PRId64, ns);
    pv_summary_add(t, key, num);
    pv_table_set_int(t, pv_table_row_count(t) - 1, PV_SUM_TIME, ns);
}
