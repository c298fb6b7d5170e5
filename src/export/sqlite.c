/*
 * sqlite.c - the profview SQLite schema (docs/export.md), written from the
 * views: one table per view of each exported result set, its columns typed
 * from the view's columns, with the catalogue tables that let profview load
 * the file back (src/formats/profview_db.c) and a profview_schema version
 * row that tells it from an AQTime database.
 *
 * Speed (docs/export.md): one transaction, one prepared statement per table,
 * journal_mode=OFF and synchronous=OFF while writing a temporary file that
 * is renamed into place only when complete, indices built after the rows.
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profview/export.h"

#define PV_SCHEMA_VERSION 1
/* The database header's application_id: "PVW1" (the loader's probe,
 * src/formats/profview_db.c, finds it at byte 68). */
#define PV_SCHEMA_APPLICATION_ID 0x50565731

typedef struct sq_writer {
    sqlite3 *db;
    const char *out; /* the final name, for messages */
    pv_diag *err;
    const pv_export_request *r;
    uint64_t rows_done, rows_total;
    pv_buf sql;
} sq_writer;

static bool sq_fail(sq_writer *w, const char *what)
{
    pv_error(w->err, "%s: %s: %s", w->out, what, sqlite3_errmsg(w->db));
    return false;
}

static bool sq_exec(sq_writer *w, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(w->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        pv_error(w->err, "%s: %s", w->out, msg ? msg : sqlite3_errmsg(w->db));
        sqlite3_free(msg);
        return false;
    }
    return true;
}

/* A SQL identifier: the view/column id with anything but [A-Za-z0-9_] as
 * '_', double-quoted. */
static void sq_ident(pv_buf *b, const char *s)
{
    pv_buf_putc(b, '"');
    for (; *s; s++) {
        char c = *s;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '_';
        pv_buf_putc(b, ok ? c : '_');
    }
    pv_buf_putc(b, '"');
}

static const char *sq_type(pv_type t)
{
    switch (t) {
    case PV_TYPE_FLOAT: return "REAL";
    case PV_TYPE_STRING: return "TEXT";
    default: return "INTEGER";
    }
}

/* Columns that get an index (docs/export.md: events by time and by area,
 * calls by parent). */
static bool sq_indexed_column(const char *id)
{
    static const char *const names[] = {"time", "handle", "parent"};
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++)
        if (strcasecmp(id, names[i]) == 0)
            return true;
    return false;
}

/* The table name of a view: its id with '-' as '_'; prefixed s<N>_ for
 * every result set but the first. */
static void sq_table_name(pv_buf *b, const pv_result_set *set, bool first_set, const char *view)
{
    pv_buf_clear(b);
    if (!first_set)
        pv_buf_printf(b, "s%" PRId64 "_", set->id);
    for (const char *s = view; *s; s++)
        pv_buf_putc(b, *s == '-' ? '_' : *s);
}

static pv_export_status sq_write_view(sq_writer *w, const pv_result_set *set, bool first_set,
                                      const pv_view *v, size_t position, bool selected_view)
{
    pv_buf table;
    pv_buf_init(&table);
    sq_table_name(&table, set, first_set, v->id);
    bool tree = pv_view_is_tree(v);
    size_t count;
    bool ok;
    size_t *rows = pv_export_select_rows(v, w->r, selected_view, &count, w->err, &ok);
    if (!ok) {
        pv_buf_free(&table);
        return PV_EXPORT_USAGE;
    }

    /* the catalogue */
    sqlite3_stmt *st = NULL;
    pv_export_status status = PV_EXPORT_FAILED;
    pv_buf *sql = &w->sql;
    pv_buf_clear(sql);
    pv_buf_puts(sql, "INSERT INTO profview_views VALUES(?,?,?,?,?,?,?)");
    if (sqlite3_prepare_v2(w->db, pv_buf_cstr(sql), -1, &st, NULL) != SQLITE_OK)
        goto fail_sql;
    sqlite3_bind_int64(st, 1, set->id);
    sqlite3_bind_text(st, 2, v->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, pv_buf_cstr(&table), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, v->title ? v->title : v->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)position);
    sqlite3_bind_int(st, 6, tree);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)count);
    if (sqlite3_step(st) != SQLITE_DONE)
        goto fail_sql;
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO profview_columns VALUES(?,?,?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK)
        goto fail_sql;
    for (size_t c = 0; c < v->column_count; c++) {
        sqlite3_bind_text(st, 1, pv_buf_cstr(&table), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)c);
        sqlite3_bind_text(st, 3, v->columns[c].id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, v->columns[c].title, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, pv_type_name(v->columns[c].type), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 6, v->columns[c].flags);
        if (sqlite3_step(st) != SQLITE_DONE)
            goto fail_sql;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    st = NULL;

    /* the table: _row (view order) and _parent (trees) before the columns */
    pv_buf_clear(sql);
    pv_buf_puts(sql, "CREATE TABLE ");
    sq_ident(sql, pv_buf_cstr(&table));
    pv_buf_puts(sql, "(_row INTEGER PRIMARY KEY");
    if (tree)
        pv_buf_puts(sql, ", _parent INTEGER");
    for (size_t c = 0; c < v->column_count; c++) {
        pv_buf_puts(sql, ", ");
        sq_ident(sql, v->columns[c].id);
        pv_buf_printf(sql, " %s", sq_type(v->columns[c].type));
    }
    pv_buf_puts(sql, ")");
    if (!sq_exec(w, pv_buf_cstr(sql)))
        goto fail;
    pv_buf_clear(sql);
    pv_buf_puts(sql, "INSERT INTO ");
    sq_ident(sql, pv_buf_cstr(&table));
    pv_buf_puts(sql, " VALUES(?");
    for (size_t c = 0; c < v->column_count + (tree ? 1 : 0); c++)
        pv_buf_puts(sql, ",?");
    pv_buf_puts(sql, ")");
    if (sqlite3_prepare_v2(w->db, pv_buf_cstr(sql), -1, &st, NULL) != SQLITE_OK)
        goto fail_sql;

    /* In a tree selection a row's parent is its nearest kept ancestor
     * (pv_filter_rows keeps ancestors, so it is the parent itself). */
    size_t *position_of = NULL;
    if (tree && rows) {
        size_t total = pv_view_rows(v);
        position_of = pv_xmalloc((total ? total : 1) * sizeof *position_of);
        for (size_t i = 0; i < total; i++)
            position_of[i] = PV_NO_ROW;
        for (size_t i = 0; i < count; i++)
            position_of[rows[i]] = i;
    }
    int base = tree ? 3 : 2;
    for (size_t i = 0; i < count; i++) {
        size_t row = rows ? rows[i] : i;
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        if (tree) {
            size_t p = pv_view_parent(v, row);
            while (position_of && p != PV_NO_ROW && position_of[p] == PV_NO_ROW)
                p = pv_view_parent(v, p);
            if (p != PV_NO_ROW && position_of)
                p = position_of[p];
            if (p == PV_NO_ROW)
                sqlite3_bind_null(st, 2);
            else
                sqlite3_bind_int64(st, 2, (sqlite3_int64)p);
        }
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell cell;
            /* as cat writes the rows: a delta from the row written before
             * (PV_COL_SINCE_PREV, docs/model.md "Columns") */
            pv_view_cell_after(v, row, i ? (rows ? rows[i - 1] : i - 1) : PV_NO_ROW, c, &cell);
            int k = base + (int)c;
            if (!cell.present) {
                sqlite3_bind_null(st, k);
                continue;
            }
            switch (cell.type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME: sqlite3_bind_int64(st, k, cell.v.i); break;
            case PV_TYPE_FLOAT: sqlite3_bind_double(st, k, cell.v.f); break;
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX: sqlite3_bind_int64(st, k, (sqlite3_int64)cell.v.u); break;
            case PV_TYPE_STRING:
                sqlite3_bind_text(st, k, cell.v.s.len ? cell.v.s.ptr : "", (int)cell.v.s.len,
                                  SQLITE_STATIC);
                break;
            }
        }
        if (sqlite3_step(st) != SQLITE_DONE) {
            free(position_of);
            goto fail_sql;
        }
        sqlite3_reset(st);
        if ((++w->rows_done & 0xFFFF) == 0 &&
            !pv_progress_step(&w->r->progress, "exporting", w->rows_done, w->rows_total)) {
            free(position_of);
            status = PV_EXPORT_CANCELLED;
            goto fail;
        }
    }
    free(position_of);
    sqlite3_finalize(st);
    st = NULL;
    status = PV_EXPORT_OK;
    goto done;
fail_sql:
    sq_fail(w, pv_buf_cstr(&table));
fail:
    if (status == PV_EXPORT_OK)
        status = PV_EXPORT_FAILED;
done:
    sqlite3_finalize(st);
    free(rows);
    pv_buf_free(&table);
    return status;
}

/* Builds the indices of every exported table, after the rows. */
static bool sq_write_indices(sq_writer *w)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(w->db,
                           "SELECT table_name, column_id FROM profview_columns ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        return sq_fail(w, "indices");
    pv_buf sql;
    pv_buf_init(&sql);
    char **stmts = NULL;
    size_t n = 0, cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(st, 0);
        const char *col = (const char *)sqlite3_column_text(st, 1);
        if (!table || !col || !sq_indexed_column(col))
            continue;
        pv_buf_clear(&sql);
        pv_buf_puts(&sql, "CREATE INDEX ");
        pv_buf tmp;
        pv_buf_init(&tmp);
        pv_buf_printf(&tmp, "%s_by_%s", table, col);
        sq_ident(&sql, pv_buf_cstr(&tmp));
        pv_buf_free(&tmp);
        pv_buf_puts(&sql, " ON ");
        sq_ident(&sql, table);
        pv_buf_putc(&sql, '(');
        sq_ident(&sql, col);
        pv_buf_putc(&sql, ')');
        stmts = pv_xgrow(stmts, &cap, n + 1, sizeof *stmts);
        stmts[n++] = pv_xstrdup(pv_buf_cstr(&sql));
    }
    sqlite3_finalize(st);
    pv_buf_free(&sql);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        if (ok)
            ok = sq_exec(w, stmts[i]);
        free(stmts[i]);
    }
    free(stmts);
    return ok;
}

static const char sq_catalogue[] =
    "CREATE TABLE profview_schema(name TEXT NOT NULL, version INTEGER NOT NULL);"
    "CREATE TABLE profview_sets(set_id INTEGER PRIMARY KEY, caption TEXT, kind TEXT,"
    " source_format TEXT, source_path TEXT);"
    "CREATE TABLE profview_views(set_id INTEGER, view_id TEXT, table_name TEXT, title TEXT,"
    " position INTEGER, tree INTEGER, row_count INTEGER);"
    "CREATE TABLE profview_columns(table_name TEXT, position INTEGER, column_id TEXT,"
    " title TEXT, type TEXT, flags INTEGER);";

pv_export_status pv_export_sqlite_views(const pv_file *f, const pv_export_request *r,
                                        pv_export_target *t, pv_diag *err)
{
    const char *out = pv_export_target_path(t);
    /* which result sets and views */
    if (r->instance >= 0 && !pv_file_find_set(f, r->instance)) {
        pv_error(err, "%s: no result set with id %" PRId64, f->path, r->instance);
        return PV_EXPORT_USAGE;
    }
    uint64_t total = 0;
    for (size_t s = 0; s < f->set_count; s++) {
        const pv_result_set *set = f->sets[s];
        if (r->instance >= 0 && set->id != r->instance)
            continue;
        if (r->view_id && !pv_set_find_view(set, r->view_id)) {
            pv_error(err, "%s: no view '%s' in result set %" PRId64, f->path, r->view_id,
                     set->id);
            return PV_EXPORT_USAGE;
        }
        for (size_t v = 0; v < set->view_count; v++)
            total += pv_view_rows(set->views[v]);
    }
    const char *temp;
    if (!pv_export_target_add(t, out, &temp, err))
        return PV_EXPORT_FAILED;

    sq_writer w;
    memset(&w, 0, sizeof w);
    w.out = out;
    w.err = err;
    w.r = r;
    w.rows_total = total;
    pv_buf_init(&w.sql);
    pv_export_status status = PV_EXPORT_FAILED;
    if (sqlite3_open_v2(temp, &w.db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        sq_fail(&w, "cannot create the database");
        goto done;
    }
    pv_buf_printf(&w.sql, "PRAGMA application_id=%d;", PV_SCHEMA_APPLICATION_ID);
    if (!sq_exec(&w, pv_buf_cstr(&w.sql)) ||
        !sq_exec(&w, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-262144;"
                     "PRAGMA temp_store=MEMORY; BEGIN;") ||
        !sq_exec(&w, sq_catalogue))
        goto done;
    {
        pv_buf_clear(&w.sql);
        pv_buf_printf(&w.sql, "INSERT INTO profview_schema VALUES('profview', %d)",
                      PV_SCHEMA_VERSION);
        if (!sq_exec(&w, pv_buf_cstr(&w.sql)))
            goto done;
    }
    bool first = true;
    for (size_t s = 0; s < f->set_count; s++) {
        const pv_result_set *set = f->sets[s];
        if (r->instance >= 0 && set->id != r->instance)
            continue;
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(w.db, "INSERT INTO profview_sets VALUES(?,?,?,?,?)", -1, &st,
                               NULL) != SQLITE_OK) {
            sq_fail(&w, "profview_sets");
            goto done;
        }
        sqlite3_bind_int64(st, 1, set->id);
        sqlite3_bind_text(st, 2, set->caption, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, set->kind, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, f->format ? f->format : "", -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, f->path, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            sq_fail(&w, "profview_sets");
            goto done;
        }
        size_t position = 0;
        for (size_t v = 0; v < set->view_count; v++) {
            const pv_view *view = set->views[v];
            bool selected = r->view_id && strcasecmp(view->id, r->view_id) == 0;
            if (r->view_id && !selected)
                continue;
            status = sq_write_view(&w, set, first, view, position++, selected);
            if (status != PV_EXPORT_OK)
                goto done;
        }
        first = false;
    }
    status = PV_EXPORT_FAILED;
    if (!sq_write_indices(&w) || !sq_exec(&w, "COMMIT"))
        goto done;
    status = PV_EXPORT_OK;
done:
    if (w.db && sqlite3_close(w.db) != SQLITE_OK && status == PV_EXPORT_OK) {
        pv_error(err, "%s: cannot close the database", out);
        status = PV_EXPORT_FAILED;
    }
    pv_buf_free(&w.sql);
    return status;
}
