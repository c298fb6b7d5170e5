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
#include <sys/stat.h>

#include "formats/profview_db.h"
#include "profview/dbinput.h"
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
    /* An AQTime subset with views stored as shown beside AQTime's tables
     * (docs/export.md) is AQTime's: its loader reads the stored views. */
    static const char aqtime[] = "_PROFILER_";
    for (size_t i = 0; i + sizeof aqtime - 1 <= len; i++)
        if (strncasecmp((const char *)head + i, aqtime, sizeof aqtime - 1) == 0)
            return 0;
    static const char needle[] = "profview_schema";
    for (size_t i = 0; i + sizeof needle - 1 <= len; i++)
        if (memcmp(head + i, needle, sizeof needle - 1) == 0)
            return 97;
    return 0;
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
                                const char *title, bool tree, int64_t version, int64_t **of)
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
    if (of)
        pv_buf_puts(&sql, ", _of"); /* a detail table: the _row of the row it belongs to */
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
    size_t of_cap = 0;
    int base = of ? 2 : 1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        size_t row = pv_table_add_row(t);
        if (of) {
            *of = pv_xgrow(*of, &of_cap, row + 1, sizeof **of);
            (*of)[row] = sqlite3_column_int64(st, 1);
        }
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
            int k = (int)c + base;
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
    pv_error(&f->diag, "%s: table %s: %s", f->path, table, pv_db_errmsg(db));
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

/* ---- detail views (docs/export.md "Detail views"): each detail table is
 * read whole; a row's detail is a new table of its rows. */

typedef struct pvdb_detail {
    pv_table *all; /* every row of the detail, owner after owner; NULL: not exported */
    size_t *first; /* per owner row: its first row in `all`; [owner_rows]: the end */
    bool *has;     /* per owner row: it has the detail (possibly empty) */
    size_t owner_rows;
} pvdb_detail;

typedef struct pvdb_details {
    pv_detail_def *defs; /* ids and titles owned */
    pvdb_detail *d;
    size_t count;
} pvdb_details;

static void pvdb_details_free(void *ctx)
{
    pvdb_details *ds = ctx;
    for (size_t i = 0; i < ds->count; i++) {
        free((char *)ds->defs[i].id);
        free((char *)ds->defs[i].title);
        if (ds->d[i].all)
            pv_view_free(pv_table_view(ds->d[i].all));
        free(ds->d[i].first);
        free(ds->d[i].has);
    }
    free(ds->defs);
    free(ds->d);
    free(ds);
}

static pv_view *pvdb_open_detail(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)owner;
    const pvdb_details *ds = ctx;
    const pvdb_detail *d = detail < ds->count ? &ds->d[detail] : NULL;
    if (!d || !d->all || row >= d->owner_rows || !d->has[row])
        return NULL;
    const pv_view *all = pv_table_view(d->all);
    pv_table *t = pv_table_new(ds->defs[detail].id, ds->defs[detail].title, all->columns,
                               all->column_count);
    bool tree = pv_view_is_tree(all);
    if (tree)
        pv_table_make_tree(t);
    size_t from = d->first[row], to = d->first[row + 1];
    pv_table_reserve(t, to - from);
    for (size_t r = from; r < to; r++) {
        size_t n = pv_table_add_row(t);
        size_t p = tree ? pv_view_parent(all, r) : PV_NO_ROW;
        if (p != PV_NO_ROW && p >= from)
            pv_table_set_parent(t, n, p - from);
        for (size_t c = 0; c < all->column_count; c++) {
            pv_cell cell;
            pv_view_cell(all, r, c, &cell);
            if (!cell.present)
                continue;
            switch (cell.type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME: pv_table_set_int(t, n, c, cell.v.i); break;
            case PV_TYPE_FLOAT: pv_table_set_float(t, n, c, cell.v.f); break;
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX: pv_table_set_uint(t, n, c, cell.v.u); break;
            case PV_TYPE_STRING: pv_table_set_str(t, n, c, cell.v.s.ptr, cell.v.s.len); break;
            }
        }
    }
    return pv_table_view(t);
}

/* Detail table `table` of an owner of owner_rows rows into d. */
static bool pvdb_read_detail(pv_file *f, sqlite3 *db, const char *id, const char *table,
                             bool tree, size_t owner_rows, pvdb_detail *d)
{
    d->owner_rows = owner_rows;
    d->first = pv_xcalloc(owner_rows + 1, sizeof *d->first);
    d->has = pv_xcalloc(owner_rows ? owner_rows : 1, sizeof *d->has);
    int64_t *of = NULL;
    d->all = pvdb_read_view(f, db, id, table, id, tree, 2, &of);
    if (!d->all) {
        free(of);
        return false;
    }
    /* the rows of owner o are those with _of = o + 1, together, in order */
    size_t n = pv_table_row_count(d->all);
    bool ok = true;
    for (size_t r = 0; r < n && ok; r++) {
        if (of[r] < 1 || (uint64_t)of[r] > owner_rows || (r > 0 && of[r] < of[r - 1])) {
            pv_error(&f->diag, "%s: table %s, row %zu: _of %" PRId64 " is not a row of its view "
                               "(in order)",
                     f->path, table, r + 1, of[r]);
            ok = false;
            break;
        }
        d->first[of[r]]++;
    }
    free(of);
    for (size_t o = 0; ok && o < owner_rows; o++)
        d->first[o + 1] += d->first[o];
    /* the owners that have the detail */
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_printf(&b, "%s__of", table);
    pv_buf_puts(&sql, "SELECT _of FROM ");
    pv_buf_put_sql_ident(&sql, pv_buf_cstr(&b));
    pv_buf_free(&b);
    sqlite3_stmt *st = NULL;
    if (ok && sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &st, NULL) != SQLITE_OK) {
        pv_error(&f->diag, "%s: table %s__of: %s", f->path, table, pv_db_errmsg(db));
        ok = false;
    }
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        int64_t o = sqlite3_column_int64(st, 0);
        if (o >= 1 && (uint64_t)o <= owner_rows)
            d->has[o - 1] = true;
    }
    sqlite3_finalize(st);
    pv_buf_free(&sql);
    return ok;
}

/* The detail views of view table `table` (t), from profview_details. */
static bool pvdb_read_details(pv_file *f, sqlite3 *db, pv_result_set *set, const char *table,
                              pv_table *t)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT detail_id, title, detail_table, tree FROM profview_details "
                           "WHERE table_name = ? ORDER BY position",
                           -1, &st, NULL) != SQLITE_OK) {
        pv_error(&f->diag, "%s: table profview_details: %s", f->path, pv_db_errmsg(db));
        return false;
    }
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    pvdb_details *ds = pv_xcalloc(1, sizeof *ds);
    size_t cap = 0, dcap = 0;
    bool ok = true;
    size_t owner_rows = pv_table_row_count(t);
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        const char *title = (const char *)sqlite3_column_text(st, 1);
        const char *dt = (const char *)sqlite3_column_text(st, 2);
        if (!id) {
            pv_error(&f->diag, "%s: table profview_details: a row without detail_id", f->path);
            ok = false;
            break;
        }
        ds->defs = pv_xgrow(ds->defs, &cap, ds->count + 1, sizeof *ds->defs);
        ds->d = pv_xgrow(ds->d, &dcap, ds->count + 1, sizeof *ds->d);
        pvdb_detail *d = &ds->d[ds->count];
        memset(d, 0, sizeof *d);
        ds->defs[ds->count] = (pv_detail_def){pv_xstrdup(id), pv_xstrdup(title ? title : id)};
        ds->count++;
        if (!dt)
            pv_set_add_note(set,
                            "view %s: detail %s was not exported (too many rows, docs/export.md)",
                            pv_table_view(t)->id, id);
        else
            ok = pvdb_read_detail(f, db, id, dt, sqlite3_column_int(st, 3) != 0, owner_rows, d);
    }
    sqlite3_finalize(st);
    if (!ok || ds->count == 0) {
        pvdb_details_free(ds);
        return ok;
    }
    pv_table_set_details(t, ds->defs, ds->count, pvdb_open_detail, ds, pvdb_details_free);
    return true;
}

static pv_load_status pvdb_load(pv_file *f, const pv_load_options *o)
{
    sqlite3 *db = NULL;
    /* hostile input (docs/input.md "Databases"): a table of
     * profview_views may be a view, legitimately; what it may cost is
     * bounded, and Ctrl-C stops it */
    bool wal;
    char *uri = pv_db_input_uri(f->path, &wal);
    struct stat fst;
    pv_db_guard guard;
    pv_db_guard_init(&guard, stat(f->path, &fst) == 0 ? (uint64_t)fst.st_size : 0,
                     o->progress.cancel);
    char *note;
    int rc = pv_db_open_input(f->path, uri, 0, &guard, &db, &note);
    free(uri);
    if (note) {
        pv_warn(&f->diag, "%s", note);
        free(note);
    }
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: cannot open as a SQLite database: %s", f->path,
                 db ? pv_db_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return PV_LOAD_ERROR;
    }
    pv_load_status status = PV_LOAD_ERROR;
    sqlite3_stmt *sets = NULL, *views = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name, version FROM profview_schema", -1, &sets, NULL) !=
            SQLITE_OK ||
        sqlite3_step(sets) != SQLITE_ROW) {
        pv_error(&f->diag, "%s: table profview_schema: no version row (%s)", f->path,
                 pv_db_errmsg(db));
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
        pv_error(&f->diag, "%s: %s", f->path, pv_db_errmsg(db));
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
                                         sqlite3_column_int(views, 3) != 0, version, NULL);
            if (!t)
                goto done;
            pv_set_add_view(set, pv_table_view(t));
            if (version >= 2 && !pvdb_read_details(f, db, set, table, t))
                goto done;
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

bool pv_db_read_stored_views(pv_file *f, sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT v.set_id, v.view_id, v.table_name, v.title, v.tree FROM "
                           "profview_views v JOIN profview_schema s WHERE s.name = 'profview' "
                           "AND s.version = 2 ORDER BY v.rowid",
                           -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return true; /* no stored views */
    }
    bool ok = true;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        pv_result_set *set = pv_file_find_set(f, sqlite3_column_int64(st, 0));
        const char *vid = (const char *)sqlite3_column_text(st, 1);
        const char *table = (const char *)sqlite3_column_text(st, 2);
        const char *title = (const char *)sqlite3_column_text(st, 3);
        if (!set || !vid || !table)
            continue;
        pv_table *t = pvdb_read_view(f, db, vid, table, title ? title : vid,
                                     sqlite3_column_int(st, 4) != 0, PV_DB_SCHEMA_VERSION, NULL);
        if (!t || !pvdb_read_details(f, db, set, table, t)) {
            if (t)
                pv_view_free(pv_table_view(t));
            ok = false;
            break;
        }
        pv_view *v = pv_table_view(t);
        size_t i = 0;
        while (i < set->view_count && strcmp(set->views[i]->id, vid) != 0)
            i++;
        if (i < set->view_count) {
            pv_view_free(set->views[i]);
            set->views[i] = v;
        } else {
            pv_set_add_view(set, v);
        }
    }
    sqlite3_finalize(st);
    return ok;
}

const pv_loader pv_loader_profview_db = {
    .name = "profview-sqlite",
    .description = "profview's own SQLite export (the profview schema, docs/export.md)",
    .probe = pvdb_probe,
    .load = pvdb_load,
};
