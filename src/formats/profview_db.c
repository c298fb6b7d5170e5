/*
 * profview_db.c - the profview-sqlite loader: reads profview's own SQLite
 * exports back (the profview schema, docs/export.md) into views with the
 * same columns and rows, in the same order, trees included.
 *
 * Detection: a SQLite file whose first pages name the profview_schema
 * table; the load checks its version row, so an AQTime database (which has
 * no such table) is never taken for one.
 */
#include <ctype.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profview/load.h"
#include "profview/table.h"

#define PV_DB_SCHEMA_VERSION 2
#define PV_DB_APPLICATION_ID 0x50565731u /* "PVW1", as src/export/sqlite.c writes it */

static uint32_t pv_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int pvdb_probe(const unsigned char *head, size_t len, uint64_t file_size,
                      const char *path)
{
    (void)file_size;
    (void)path;
    static const char magic[16] = "SQLite format 3";
    if (len < 16 || memcmp(head, magic, 16) != 0)
        return 0;
    /* above the AQTime loader's 85/95 for a SQLite file (aqtime_db.c): the
     * header's application_id (offset 68) that the writer sets, or the
     * table's name on the first pages */
    if (len >= 72 && pv_be32(head + 68) == PV_DB_APPLICATION_ID)
        return 97;
    static const char needle[] = "profview_schema";
    for (size_t i = 0; i + sizeof needle - 1 <= len; i++)
        if (memcmp(head + i, needle, sizeof needle - 1) == 0)
            return 97;
    return 0;
}

static char *pvdb_uri(const char *path)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_put_immutable_uri(&b, path);
    return b.data;
}

static bool pvdb_type(const char *name, pv_type *out)
{
    static const pv_type types[] = {PV_TYPE_INT,    PV_TYPE_FLOAT, PV_TYPE_TIME,
                                    PV_TYPE_HANDLE, PV_TYPE_HEX,   PV_TYPE_STRING};
    for (size_t i = 0; i < PV_ARRAY_LEN(types); i++)
        if (strcmp(name, pv_type_name(types[i])) == 0) {
            *out = types[i];
            return true;
        }
    return false;
}


/* Reads one exported table into a pv_table; NULL (with an error) when the
 * table does not match its catalogue. */
static pv_table *pvdb_read_view(pv_file *f, sqlite3 *db, const char *view_id, const char *table,
                                const char *title, bool tree, int64_t version)
{
    sqlite3_stmt *st = NULL;
    pv_column *cols = NULL;
    char **names = NULL;
    size_t n = 0, cap = 0;
    pv_table *t = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT column_id, title, type, flags FROM profview_columns WHERE "
                           "table_name = ? ORDER BY position",
                           -1, &st, NULL) != SQLITE_OK)
        goto sql_error;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        const char *ttl = (const char *)sqlite3_column_text(st, 1);
        const char *type = (const char *)sqlite3_column_text(st, 2);
        pv_type ty;
        if (!id || !type || !pvdb_type(type, &ty)) {
            pv_error(&f->diag, "%s: table profview_columns, table '%s': bad column type '%s'",
                     f->path, table, type ? type : "NULL");
            goto fail;
        }
        cols = pv_xgrow(cols, &cap, n + 1, sizeof *cols);
        names = realloc(names, (n + 1) * 2 * sizeof *names);
        names[2 * n] = pv_xstrdup(id);
        names[2 * n + 1] = pv_xstrdup(ttl ? ttl : id);
        cols[n] = (pv_column){names[2 * n], names[2 * n + 1], ty,
                              (unsigned)sqlite3_column_int64(st, 3)};
        n++;
    }
    sqlite3_finalize(st);
    st = NULL;
    t = pv_table_new(view_id, title, cols, n);
    if (tree)
        pv_table_make_tree(t);
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "SELECT ");
    pv_buf_puts(&sql, tree ? "_parent" : "NULL");
    for (size_t c = 0; c < n; c++) {
        pv_buf_puts(&sql, ", ");
        pv_buf_put_sql_ident(&sql, cols[c].id);
    }
    pv_buf_puts(&sql, " FROM ");
    pv_buf_put_sql_ident(&sql, table);
    pv_buf_puts(&sql, " ORDER BY _row");
    int rc = sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &st, NULL);
    pv_buf_free(&sql);
    if (rc != SQLITE_OK)
        goto sql_error;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        size_t row = pv_table_add_row(t);
        if (tree && sqlite3_column_type(st, 0) != SQLITE_NULL) {
            /* _parent is a _row: from 0 in version 1, from 1 since */
            int64_t p = sqlite3_column_int64(st, 0) - (version >= 2);
            if (p < 0 || (uint64_t)p >= row) {
                pv_error(&f->diag, "%s: table %s, row %zu: _parent %" PRId64
                                   " is not an earlier row",
                         f->path, table, row + (version >= 2), p + (version >= 2));
                goto fail;
            }
            pv_table_set_parent(t, row, (size_t)p);
        }
        for (size_t c = 0; c < n; c++) {
            int k = (int)c + 1;
            if (sqlite3_column_type(st, k) == SQLITE_NULL)
                continue;
            switch (cols[c].type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME: pv_table_set_int(t, row, c, sqlite3_column_int64(st, k)); break;
            case PV_TYPE_FLOAT: pv_table_set_float(t, row, c, sqlite3_column_double(st, k)); break;
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX:
                pv_table_set_uint(t, row, c, (uint64_t)sqlite3_column_int64(st, k));
                break;
            case PV_TYPE_STRING: {
                const char *s = (const char *)sqlite3_column_text(st, k);
                pv_table_set_str(t, row, c, s ? s : "", (size_t)sqlite3_column_bytes(st, k));
                break;
            }
            }
        }
    }
    if (rc != SQLITE_DONE)
        goto sql_error;
    goto done;
sql_error:
    pv_error(&f->diag, "%s: table %s: %s", f->path, table, sqlite3_errmsg(db));
fail:
    if (t)
        pv_view_free(pv_table_view(t));
    t = NULL;
done:
    sqlite3_finalize(st);
    for (size_t i = 0; i < 2 * n; i++)
        free(names[i]);
    free(names);
    free(cols);
    return t;
}

static pv_load_status pvdb_load(pv_file *f, const pv_load_options *o)
{
    (void)o;
    sqlite3 *db = NULL;
    char *uri = pvdb_uri(f->path);
    int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: cannot open as a SQLite database: %s", f->path,
                 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return PV_LOAD_ERROR;
    }
    pv_load_status status = PV_LOAD_ERROR;
    sqlite3_stmt *sets = NULL, *views = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name, version FROM profview_schema", -1, &sets, NULL) !=
            SQLITE_OK ||
        sqlite3_step(sets) != SQLITE_ROW) {
        pv_error(&f->diag, "%s: table profview_schema: no version row (%s)", f->path,
                 sqlite3_errmsg(db));
        goto done;
    }
    const char *name = (const char *)sqlite3_column_text(sets, 0);
    int64_t version = sqlite3_column_int64(sets, 1);
    if (!name || strcmp(name, "profview") != 0 || version < 1 ||
        version > PV_DB_SCHEMA_VERSION) {
        pv_error(&f->diag,
                 "%s: table profview_schema: version %" PRId64 " of '%s' (this profview reads "
                 "versions 1 to %d)",
                 f->path, version, name ? name : "NULL", PV_DB_SCHEMA_VERSION);
        goto done;
    }
    sqlite3_finalize(sets);
    sets = NULL;
    if (sqlite3_prepare_v2(db, "SELECT set_id, caption, kind FROM profview_sets ORDER BY rowid",
                           -1, &sets, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT view_id, table_name, title, tree FROM profview_views WHERE "
                           "set_id = ? ORDER BY position",
                           -1, &views, NULL) != SQLITE_OK) {
        pv_error(&f->diag, "%s: %s", f->path, sqlite3_errmsg(db));
        goto done;
    }
    while (sqlite3_step(sets) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(sets, 0);
        const char *caption = (const char *)sqlite3_column_text(sets, 1);
        const char *kind = (const char *)sqlite3_column_text(sets, 2);
        pv_result_set *set = pv_file_add_set(f, id, caption, kind);
        sqlite3_bind_int64(views, 1, id);
        while (sqlite3_step(views) == SQLITE_ROW) {
            const char *vid = (const char *)sqlite3_column_text(views, 0);
            const char *table = (const char *)sqlite3_column_text(views, 1);
            const char *title = (const char *)sqlite3_column_text(views, 2);
            if (!vid || !table) {
                pv_error(&f->diag, "%s: table profview_views: a row without view_id/table_name",
                         f->path);
                goto done;
            }
            pv_table *t = pvdb_read_view(f, db, vid, table, title ? title : vid,
                                         sqlite3_column_int(views, 3) != 0, version);
            if (!t)
                goto done;
            pv_set_add_view(set, pv_table_view(t));
        }
        sqlite3_reset(views);
    }
    if (f->set_count == 0) {
        pv_error(&f->diag, "%s: table profview_sets: no result set", f->path);
        goto done;
    }
    status = PV_LOAD_OK;
done:
    sqlite3_finalize(sets);
    sqlite3_finalize(views);
    sqlite3_close(db);
    return status;
}

const pv_loader pv_loader_profview_db = {
    .name = "profview-sqlite",
    .description = "profview's own SQLite export (the profview schema, docs/export.md)",
    .probe = pvdb_probe,
    .load = pvdb_load,
};
