/*
 * sql_query.c - running an SQL query into a table (docs/sql.md): the values,
 * the rows whose origin is a row of a view, and the runner that reads the
 * statement as written or group by group.
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* Reads column c of the current row of st into v (text into `text`). */
static void sql_value_read(sqlite3_stmt *st, int c, sql_value *v, pv_buf *text)
{
    v->kind = sqlite3_column_type(st, c);
    switch (v->kind) {
    case SQLITE_INTEGER:
        v->v.i = sqlite3_column_int64(st, c);
        break;
    case SQLITE_FLOAT:
        v->v.f = sqlite3_column_double(st, c);
        break;
    case SQLITE_NULL:
        break;
    default: {
        const unsigned char *p = sqlite3_column_text(st, c);
        size_t len = (size_t)sqlite3_column_bytes(st, c);
        v->kind = SQLITE_TEXT;
        v->v.s.off = text->len;
        v->v.s.len = len;
        pv_buf_append(text, p ? (const char *)p : "", p ? len : 0);
        break;
    }
    }
}

/* Sets cell (row, c) of the result table from v, converted to the
 * column's type (`text`: the strings' buffer, `num`: scratch). */
static void sql_table_set(pv_table *t, size_t row, size_t c, const sql_value *v,
                          const char *text, pv_buf *num)
{
    pv_type type = pv_table_view(t)->columns[c].type;
    switch (v->kind) {
    case SQLITE_NULL:
        break;
    case SQLITE_INTEGER:
        if (type == PV_TYPE_FLOAT) {
            pv_table_set_float(t, row, c, (double)v->v.i);
        } else if (type == PV_TYPE_STRING) {
            pv_buf_clear(num);
            pv_buf_printf(num, "%" PRId64, v->v.i);
            pv_table_set_str(t, row, c, num->data, num->len);
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
            pv_buf_clear(num);
            pv_cell_format_exact(&cell, num);
            pv_table_set_str(t, row, c, num->data, num->len);
        } else {
            pv_table_set_float(t, row, c, v->v.f);
        }
        break;
    default:
        pv_table_set_str(t, row, c, text + v->v.s.off, v->v.s.len);
        break;
    }
}

pv_view *pv_sql_query(pv_sql *s, const char *query, pv_sql_error *err)
{
    memset(err, 0, sizeof *err);
    err->offset = -1;
    sql_expose_meta(s);
    s->interrupted = false;
    s->result_rows = 0;
    for (size_t i = 0; i < s->set_count; i++)
        s->sets[i].read = false;
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
            sql_value_read(row_st, (int)c, v, &text);
            any_float[c] |= v->kind == SQLITE_FLOAT;
            any_text[c] |= v->kind == SQLITE_TEXT;
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
                sql_table_set(t, row, c, &vals[r * nc + c], text.data, &num);
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

bool pv_sql_read_file(const pv_sql *s, const pv_file *f)
{
    for (size_t i = 0; i < s->set_count; i++)
        if (s->sets[i].file == f && s->sets[i].read)
            return true;
    return false;
}
