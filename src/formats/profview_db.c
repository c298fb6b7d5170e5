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
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "formats/profview_db.h"
#include "profview/dbinput.h"
#include "profview/hooks.h"
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



/* Why a detail has no rows: left out of the export for its size. */
#define PVDB_NOT_EXPORTED                                                                      \
    "not exported: the export leaves out a detail of more than 1 M rows (docs/export.md)"

static void pvdb_columns_free(pv_column *cols, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)cols[i].id);
        free((char *)cols[i].title);
    }
    free(cols);
}

/* The columns profview_columns lists for `table` (owned: pvdb_columns_free);
 * false with an error when one has no known type. */
static bool pvdb_columns_read(pv_file *f, sqlite3 *db, const char *table, pv_column **out,
                              size_t *count)
{
    sqlite3_stmt *st = NULL;
    pv_column *cols = NULL;
    size_t n = 0, cap = 0;
    *out = NULL;
    *count = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT column_id, title, type, flags FROM profview_columns WHERE "
                           "table_name = ? ORDER BY position",
                           -1, &st, NULL) != SQLITE_OK) {
        pv_error(&f->diag, "%s: table %s: %s", f->path, table, pv_db_errmsg(db));
        return false;
    }
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    bool ok = true;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        const char *ttl = (const char *)sqlite3_column_text(st, 1);
        const char *type = (const char *)sqlite3_column_text(st, 2);
        pv_type ty;
        if (!id || !type || !pvdb_type(type, &ty)) {
            pv_error(&f->diag, "%s: table profview_columns, table '%s': bad column type '%s'",
                     f->path, table, type ? type : "NULL");
            ok = false;
            break;
        }
        cols = pv_xgrow(cols, &cap, n + 1, sizeof *cols);
        cols[n++] = (pv_column){pv_xstrdup(id), pv_xstrdup(ttl ? ttl : id), ty,
                                (unsigned)sqlite3_column_int64(st, 3)};
    }
    sqlite3_finalize(st);
    if (!ok) {
        pvdb_columns_free(cols, n);
        return false;
    }
    *out = cols;
    *count = n;
    return true;
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

static const char *pvdb_eager_missing(const pv_view *v, size_t d)
{
    const pvdb_details *ds = v->hook_ctx;
    return d < ds->count && !ds->d[d].all ? PVDB_NOT_EXPORTED : NULL;
}

static const pv_view_hooks pvdb_eager_hooks = {.detail_missing = pvdb_eager_missing};

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

/* What one row of profview_details asks of a reader: to fill `item`
 * (zeroed) for detail `id`, whose rows are in table `rows` (NULL: not
 * exported), a tree or not; false (with an error) to stop. */
typedef bool (*pvdb_detail_fn)(pv_file *f, sqlite3 *db, void *ctx, void *item, const char *id,
                               const char *rows, bool tree);

/* The details view `view_id` (view table `table`) offers, from
 * profview_details in their order: each one's id and title appended to
 * *defs (owned strings, *count of them), an item of `item_size` bytes to
 * *items (the reader's own per detail) that `each` fills, and a note in
 * `set` for a detail that was not exported.  False (with an error) when the
 * catalogue cannot be read or `each` fails; what was appended stays. */
static bool pvdb_details_read(pv_file *f, sqlite3 *db, pv_result_set *set, const char *table,
                              const char *view_id, pv_detail_def **defs, size_t *count,
                              void **items, size_t item_size, pvdb_detail_fn each, void *ctx)
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
    size_t cap = 0, item_cap = 0;
    bool ok = true;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        const char *title = (const char *)sqlite3_column_text(st, 1);
        const char *dt = (const char *)sqlite3_column_text(st, 2);
        if (!id) {
            pv_error(&f->diag, "%s: table profview_details: a row without detail_id", f->path);
            ok = false;
            break;
        }
        *defs = pv_xgrow(*defs, &cap, *count + 1, sizeof **defs);
        *items = pv_xgrow(*items, &item_cap, *count + 1, item_size);
        void *item = (char *)*items + *count * item_size;
        memset(item, 0, item_size);
        (*defs)[*count] = (pv_detail_def){pv_xstrdup(id), pv_xstrdup(title ? title : id)};
        (*count)++;
        if (!dt)
            pv_set_add_note(set,
                            "view %s: detail %s was not exported (too many rows, docs/export.md)",
                            view_id, id);
        ok = each(f, db, ctx, item, id, dt, sqlite3_column_int(st, 3) != 0);
    }
    sqlite3_finalize(st);
    return ok;
}

/* Eager: the rows of an exported detail, read now (pvdb_detail_fn; ctx:
 * the owner's count of rows). */
static bool pvdb_eager_detail(pv_file *f, sqlite3 *db, void *ctx, void *item, const char *id,
                              const char *rows, bool tree)
{
    return !rows || pvdb_read_detail(f, db, id, rows, tree, *(const size_t *)ctx, item);
}

/* The detail views of view table `table` (t), from profview_details. */
static bool pvdb_read_details(pv_file *f, sqlite3 *db, pv_result_set *set, const char *table,
                              pv_table *t)
{
    pvdb_details *ds = pv_xcalloc(1, sizeof *ds);
    size_t owner_rows = pv_table_row_count(t);
    void *items = NULL;
    bool ok = pvdb_details_read(f, db, set, table, pv_table_view(t)->id, &ds->defs, &ds->count,
                                &items, sizeof *ds->d, pvdb_eager_detail, &owner_rows);
    ds->d = items;
    if (!ok || ds->count == 0) {
        pvdb_details_free(ds);
        return ok;
    }
    pv_table_set_details(t, ds->defs, ds->count, pvdb_open_detail, ds, pvdb_details_free);
    pv_view *tv = pv_table_view(t);
    tv->hooks = &pvdb_eager_hooks;
    tv->hook_ctx = ds;
    return true;
}

/* ---- views read on demand (docs/export.md "Reading an export back")
 *
 * A view of a version-2 file keeps its rows in the file until a reader asks
 * for them: they are read in blocks of PVDB_BLOCK rows, one statement a
 * block (a range of the _row key), and kept for the view's life; a grouped
 * view (the timeline) reads its narrow rows table and its groups once.  So
 * opening an export costs its catalogue, not its rows, and reading every
 * row costs one pass over them.  Details are read when opened (the rows of
 * one owner, found by the _of index).  The connection stays open, shared by
 * the file's views under one lock (a viewer reads views from more than one
 * thread). */

#define PVDB_BLOCK_BITS 12
#define PVDB_BLOCK ((size_t)1 << PVDB_BLOCK_BITS)
#define PVDB_TOP UINT32_MAX /* a block's parent: none */

typedef struct pvdb_conn {
    sqlite3 *db;
    pv_db_guard guard; /* the statements' bounds (docs/input.md "Databases") */
    pthread_mutex_t lock;
    size_t refs;
} pvdb_conn;

static pvdb_conn *pvdb_conn_ref(pvdb_conn *c)
{
    pthread_mutex_lock(&c->lock);
    c->refs++;
    pthread_mutex_unlock(&c->lock);
    return c;
}

static void pvdb_conn_unref(pvdb_conn *c)
{
    pthread_mutex_lock(&c->lock);
    bool last = --c->refs == 0;
    pthread_mutex_unlock(&c->lock);
    if (last) {
        sqlite3_close(c->db);
        pthread_mutex_destroy(&c->lock);
        free(c);
    }
}

/* A text of a cell, kept once for the view's life: a cell's pointer names
 * its text (model.h). */
typedef struct pvdb_text {
    struct pvdb_text *next; /* same hash */
    size_t len;
    char s[];
} pvdb_text;

typedef struct pvdb_block {
    uint32_t *parent; /* trees: the parent row, PVDB_TOP at the top */
    uint32_t *group;  /* grouped views: the row's group */
    uint8_t *present; /* [col * PVDB_BLOCK + i] */
    int64_t *val;     /* [col * PVDB_BLOCK + i]: the value, a double's bits or a pvdb_text * */
} pvdb_block;

typedef struct pvdb_ldetail {
    char *table; /* NULL: not exported */
    pv_column *cols;
    size_t col_count;
    bool tree;
    sqlite3_stmt *has, *rows; /* prepared when first opened */
} pvdb_ldetail;

typedef struct pvdb_lazy {
    pv_view view;
    pvdb_conn *conn;
    sqlite3_stmt *read; /* a block's rows; under conn->lock */
    size_t rows;
    bool tree, grouped;
    size_t *sel;       /* per column: its place in `read`'s result, or PV_NO_ROW */
    size_t *group_col; /* per column: its column in `groups`, or PV_NO_ROW */
    pv_table *groups;  /* grouped: row g holds group g's columns */
    _Atomic(pvdb_block *) *blocks;
    size_t block_count;
    pv_hashmap texts; /* hash -> text, under conn->lock */
    pvdb_text **text_list;
    size_t text_count, text_cap;
    pv_detail_def *defs;
    pvdb_ldetail *details;
    size_t detail_count;
} pvdb_lazy;

static const char *pvdb_intern(pvdb_lazy *l, const char *s, size_t len)
{
    uint64_t h = pv_hash_bytes(s, len);
    uint32_t at;
    if (pv_hashmap_get(&l->texts, h, &at))
        for (pvdb_text *t = l->text_list[at]; t; t = t->next)
            if (t->len == len && memcmp(t->s, s, len) == 0)
                return t->s;
    pvdb_text *t = pv_xmalloc(sizeof *t + len + 1);
    t->len = len;
    memcpy(t->s, s, len);
    t->s[len] = '\0';
    if (pv_hashmap_get(&l->texts, h, &at)) {
        t->next = l->text_list[at]->next;
        l->text_list[at]->next = t; /* chained behind the first */
    } else {
        t->next = NULL;
        l->text_list = pv_xgrow(l->text_list, &l->text_cap, l->text_count + 1,
                                sizeof *l->text_list);
        l->text_list[l->text_count] = t;
        pv_hashmap_put(&l->texts, h, (uint32_t)l->text_count++);
    }
    return t->s;
}

/* Block b's rows from the file (under conn->lock). */
static pvdb_block *pvdb_block_read(pvdb_lazy *l, size_t b)
{
    size_t cols = l->view.column_count;
    pvdb_block *blk = pv_xcalloc(1, sizeof *blk);
    blk->present = pv_xcalloc(cols ? cols * PVDB_BLOCK : 1, 1);
    blk->val = pv_xmalloc((cols ? cols : 1) * PVDB_BLOCK * sizeof *blk->val);
    if (l->tree) {
        blk->parent = pv_xmalloc(PVDB_BLOCK * sizeof *blk->parent);
        for (size_t i = 0; i < PVDB_BLOCK; i++)
            blk->parent[i] = PVDB_TOP;
    }
    if (l->grouped)
        blk->group = pv_xcalloc(PVDB_BLOCK, sizeof *blk->group);
    size_t first = b << PVDB_BLOCK_BITS;
    sqlite3_stmt *st = l->read;
    atomic_store(&l->conn->guard.used, 0); /* a statement's budget, not the file's life's */
    sqlite3_bind_int64(st, 1, (sqlite3_int64)first + 1);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)(first + PVDB_BLOCK));
    while (sqlite3_step(st) == SQLITE_ROW) {
        int64_t r = sqlite3_column_int64(st, 0) - 1 - (int64_t)first;
        if (r < 0 || (size_t)r >= PVDB_BLOCK)
            continue;
        size_t i = (size_t)r;
        int k = 1;
        if (l->tree) {
            sqlite3_value *p = sqlite3_column_value(st, k++);
            if (sqlite3_value_type(p) != SQLITE_NULL) {
                /* _parent is a _row from 1, and an earlier row */
                int64_t pr = sqlite3_value_int64(p) - 1;
                if (pr >= 0 && (size_t)pr < first + i)
                    blk->parent[i] = (uint32_t)pr;
            }
        }
        if (l->grouped) {
            int64_t g = sqlite3_column_int64(st, k++);
            blk->group[i] = g >= 0 && (uint64_t)g < l->view.group_count ? (uint32_t)g : 0;
        }
        for (size_t c = 0; c < cols; c++) {
            if (l->sel[c] == PV_NO_ROW)
                continue;
            sqlite3_value *v = sqlite3_column_value(st, (int)l->sel[c]);
            if (sqlite3_value_type(v) == SQLITE_NULL)
                continue;
            size_t at = c * PVDB_BLOCK + i;
            blk->present[at] = 1;
            switch (l->view.columns[c].type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME:
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX: blk->val[at] = sqlite3_value_int64(v); break;
            case PV_TYPE_FLOAT: {
                double d = sqlite3_value_double(v);
                memcpy(&blk->val[at], &d, sizeof d);
                break;
            }
            case PV_TYPE_STRING: {
                const char *s = (const char *)sqlite3_value_text(v);
                size_t len = (size_t)sqlite3_value_bytes(v);
                blk->val[at] = (int64_t)(uintptr_t)pvdb_intern(l, s ? s : "", s ? len : 0);
                break;
            }
            }
        }
    }
    sqlite3_reset(st);
    return blk;
}

static const pvdb_block *pvdb_block_get(const pv_view *v, size_t row)
{
    pvdb_lazy *l = v->impl;
    size_t b = row >> PVDB_BLOCK_BITS;
    pvdb_block *blk = atomic_load_explicit(&l->blocks[b], memory_order_acquire);
    if (blk)
        return blk;
    pthread_mutex_lock(&l->conn->lock);
    blk = atomic_load_explicit(&l->blocks[b], memory_order_relaxed);
    if (!blk) {
        blk = pvdb_block_read(l, b);
        atomic_store_explicit(&l->blocks[b], blk, memory_order_release);
    }
    pthread_mutex_unlock(&l->conn->lock);
    return blk;
}

static size_t pvdb_lazy_rows(const pv_view *v)
{
    return ((const pvdb_lazy *)v->impl)->rows;
}

static void pvdb_lazy_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const pvdb_lazy *l = v->impl;
    const pvdb_block *blk = pvdb_block_get(v, row);
    size_t i = row & (PVDB_BLOCK - 1);
    out->type = v->columns[col].type;
    out->present = false;
    if (l->group_col[col] != PV_NO_ROW) {
        const pv_view *g = pv_table_view(l->groups);
        if (blk->group[i] < pv_view_rows(g))
            pv_view_cell(g, blk->group[i], l->group_col[col], out);
        return;
    }
    size_t at = col * PVDB_BLOCK + i;
    if (!blk->present[at])
        return;
    out->present = true;
    int64_t x = blk->val[at];
    switch (out->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME: out->v.i = x; break;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX: out->v.u = (uint64_t)x; break;
    case PV_TYPE_FLOAT: memcpy(&out->v.f, &x, sizeof out->v.f); break;
    case PV_TYPE_STRING: {
        const char *s = (const char *)(uintptr_t)x;
        out->v.s.ptr = s;
        out->v.s.len = ((const pvdb_text *)(s - offsetof(pvdb_text, s)))->len;
        break;
    }
    }
}

static size_t pvdb_lazy_parent(const pv_view *v, size_t row)
{
    const pvdb_block *blk = pvdb_block_get(v, row);
    uint32_t p = blk->parent[row & (PVDB_BLOCK - 1)];
    return p == PVDB_TOP ? PV_NO_ROW : p;
}

static uint32_t pvdb_lazy_group(const pv_view *v, size_t row)
{
    return pvdb_block_get(v, row)->group[row & (PVDB_BLOCK - 1)];
}

/* The rows of detail d of `row` (under conn->lock): NULL when it has none. */
static pv_view *pvdb_lazy_read_detail(pvdb_lazy *l, size_t d, size_t row)
{
    pvdb_ldetail *dd = &l->details[d];
    sqlite3 *db = l->conn->db;
    if (!dd->has) {
        pv_buf sql;
        pv_buf_init(&sql);
        pv_buf_puts(&sql, "SELECT 1 FROM ");
        pv_buf b;
        pv_buf_init(&b);
        pv_buf_printf(&b, "%s__of", dd->table);
        pv_buf_put_sql_ident(&sql, pv_buf_cstr(&b));
        pv_buf_free(&b);
        pv_buf_puts(&sql, " WHERE _of = ?");
        int rc = sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &dd->has, NULL);
        pv_buf_clear(&sql);
        pv_buf_puts(&sql, dd->tree ? "SELECT _row, _parent" : "SELECT _row, NULL");
        for (size_t c = 0; c < dd->col_count; c++) {
            pv_buf_puts(&sql, ", ");
            pv_buf_put_sql_ident(&sql, dd->cols[c].id);
        }
        pv_buf_puts(&sql, " FROM ");
        pv_buf_put_sql_ident(&sql, dd->table);
        pv_buf_puts(&sql, " WHERE _of = ? ORDER BY _row");
        if (rc == SQLITE_OK)
            rc = sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &dd->rows, NULL);
        pv_buf_free(&sql);
        if (rc != SQLITE_OK) {
            sqlite3_finalize(dd->has);
            dd->has = NULL;
            return NULL;
        }
    }
    atomic_store(&l->conn->guard.used, 0);
    sqlite3_bind_int64(dd->has, 1, (sqlite3_int64)row + 1);
    bool has = sqlite3_step(dd->has) == SQLITE_ROW;
    sqlite3_reset(dd->has);
    if (!has)
        return NULL;
    pv_table *t = pv_table_new(l->defs[d].id, l->defs[d].title, dd->cols, dd->col_count);
    if (dd->tree)
        pv_table_make_tree(t);
    sqlite3_stmt *st = dd->rows;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)row + 1);
    int64_t base = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t n = pv_table_add_row(t);
        if (n == 0)
            base = sqlite3_column_int64(st, 0);
        if (sqlite3_column_type(st, 1) != SQLITE_NULL) {
            int64_t p = sqlite3_column_int64(st, 1) - base;
            if (p >= 0 && (uint64_t)p < n)
                pv_table_set_parent(t, n, (size_t)p);
        }
        for (size_t c = 0; c < dd->col_count; c++) {
            sqlite3_value *v = sqlite3_column_value(st, (int)c + 2);
            if (sqlite3_value_type(v) == SQLITE_NULL)
                continue;
            switch (dd->cols[c].type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME: pv_table_set_int(t, n, c, sqlite3_value_int64(v)); break;
            case PV_TYPE_FLOAT: pv_table_set_float(t, n, c, sqlite3_value_double(v)); break;
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX: pv_table_set_uint(t, n, c, (uint64_t)sqlite3_value_int64(v)); break;
            case PV_TYPE_STRING: {
                const char *s = (const char *)sqlite3_value_text(v);
                pv_table_set_str(t, n, c, s ? s : "", s ? (size_t)sqlite3_value_bytes(v) : 0);
                break;
            }
            }
        }
    }
    sqlite3_reset(st);
    return pv_table_view(t);
}

static pv_view *pvdb_lazy_open_detail(const pv_view *v, size_t d, size_t row)
{
    pvdb_lazy *l = v->impl;
    if (d >= l->detail_count || !l->details[d].table || row >= l->rows)
        return NULL;
    pthread_mutex_lock(&l->conn->lock);
    pv_view *dv = pvdb_lazy_read_detail(l, d, row);
    pthread_mutex_unlock(&l->conn->lock);
    return dv;
}

static void pvdb_lazy_destroy(pv_view *v)
{
    pvdb_lazy *l = v->impl;
    for (size_t b = 0; b < l->block_count; b++) {
        pvdb_block *blk = atomic_load(&l->blocks[b]);
        if (!blk)
            continue;
        free(blk->parent);
        free(blk->group);
        free(blk->present);
        free(blk->val);
        free(blk);
    }
    free((void *)l->blocks);
    for (size_t i = 0; i < l->text_count; i++)
        for (pvdb_text *t = l->text_list[i]; t;) {
            pvdb_text *next = t->next;
            free(t);
            t = next;
        }
    free(l->text_list);
    pv_hashmap_free(&l->texts);
    pthread_mutex_lock(&l->conn->lock);
    sqlite3_finalize(l->read);
    for (size_t d = 0; d < l->detail_count; d++) {
        sqlite3_finalize(l->details[d].has);
        sqlite3_finalize(l->details[d].rows);
    }
    pthread_mutex_unlock(&l->conn->lock);
    pvdb_conn_unref(l->conn);
    for (size_t d = 0; d < l->detail_count; d++) {
        free(l->details[d].table);
        pvdb_columns_free(l->details[d].cols, l->details[d].col_count);
        free((char *)l->defs[d].id);
        free((char *)l->defs[d].title);
    }
    free(l->details);
    free(l->defs);
    if (l->groups)
        pv_view_free(pv_table_view(l->groups));
    free(l->sel);
    free(l->group_col);
    pv_view_free_names(v);
    free(l);
}

static const char *pvdb_lazy_missing(const pv_view *v, size_t d)
{
    const pvdb_lazy *l = v->hook_ctx;
    return d < l->detail_count && !l->details[d].table ? PVDB_NOT_EXPORTED : NULL;
}

static const pv_view_ops pvdb_lazy_ops[4] = {
    /* [tree * 2 + grouped] */
    {.row_count = pvdb_lazy_rows, .cell = pvdb_lazy_cell, .open_detail = pvdb_lazy_open_detail,
     .destroy = pvdb_lazy_destroy},
    {.row_count = pvdb_lazy_rows, .cell = pvdb_lazy_cell, .open_detail = pvdb_lazy_open_detail,
     .destroy = pvdb_lazy_destroy, .row_group = pvdb_lazy_group},
    {.row_count = pvdb_lazy_rows, .cell = pvdb_lazy_cell, .parent = pvdb_lazy_parent,
     .open_detail = pvdb_lazy_open_detail, .destroy = pvdb_lazy_destroy},
    {.row_count = pvdb_lazy_rows, .cell = pvdb_lazy_cell, .parent = pvdb_lazy_parent,
     .open_detail = pvdb_lazy_open_detail, .destroy = pvdb_lazy_destroy,
     .row_group = pvdb_lazy_group},
};

static const pv_view_hooks pvdb_lazy_hooks = {.detail_missing = pvdb_lazy_missing};

/* True when `name` is a table (not a view: a view's rows are no range of
 * a key that a block could be read by). */
static bool pvdb_table_exists(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st = NULL;
    bool found = sqlite3_prepare_v2(db,
                                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                    "name = ? COLLATE NOCASE",
                                    -1, &st, NULL) == SQLITE_OK;
    if (found) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

/* The groups of a grouped view: row g of the result holds group g. */
static pv_table *pvdb_read_groups(pv_file *f, sqlite3 *db, const char *table,
                                  const pv_view *v, const size_t *group_col, uint32_t *count)
{
    pv_column *cols = pv_xcalloc(v->column_count ? v->column_count : 1, sizeof *cols);
    size_t n = 0;
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "SELECT _group");
    for (size_t c = 0; c < v->column_count; c++)
        if (group_col[c] != PV_NO_ROW) {
            cols[n++] = v->columns[c];
            pv_buf_puts(&sql, ", ");
            pv_buf_put_sql_ident(&sql, v->columns[c].id);
        }
    pv_buf_puts(&sql, " FROM ");
    pv_buf_put_sql_ident(&sql, table);
    pv_buf_puts(&sql, " ORDER BY _group");
    pv_table *t = pv_table_new("groups", "groups", cols, n);
    free(cols);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &st, NULL);
    bool prepared = rc == SQLITE_OK;
    pv_buf_free(&sql);
    while (prepared && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t g = sqlite3_column_int64(st, 0);
        if (g < 0 || g >= (int64_t)UINT32_MAX - 1 || (size_t)g < pv_table_row_count(t))
            continue; /* not a group number, or one seen */
        while (pv_table_row_count(t) <= (size_t)g)
            pv_table_add_row(t);
        const pv_view *tv = pv_table_view(t);
        for (size_t k = 0; k < n; k++) {
            sqlite3_value *x = sqlite3_column_value(st, (int)k + 1);
            if (sqlite3_value_type(x) == SQLITE_NULL)
                continue;
            switch (tv->columns[k].type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME: pv_table_set_int(t, (size_t)g, k, sqlite3_value_int64(x)); break;
            case PV_TYPE_FLOAT: pv_table_set_float(t, (size_t)g, k, sqlite3_value_double(x)); break;
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX:
                pv_table_set_uint(t, (size_t)g, k, (uint64_t)sqlite3_value_int64(x));
                break;
            case PV_TYPE_STRING: {
                const char *s = (const char *)sqlite3_value_text(x);
                pv_table_set_str(t, (size_t)g, k, s ? s : "",
                                 s ? (size_t)sqlite3_value_bytes(x) : 0);
                break;
            }
            }
        }
    }
    if (rc != SQLITE_DONE) {
        pv_error(&f->diag, "%s: table %s: %s", f->path, table, pv_db_errmsg(db));
        pv_view_free(pv_table_view(t));
        t = NULL;
    }
    sqlite3_finalize(st);
    *count = t ? (uint32_t)pv_table_row_count(t) : 0;
    return t;
}

/* Lazy: the columns of an exported detail, its rows read when opened
 * (pvdb_detail_fn). */
static bool pvdb_lazy_detail(pv_file *f, sqlite3 *db, void *ctx, void *item, const char *id,
                             const char *rows, bool tree)
{
    (void)ctx;
    (void)id;
    pvdb_ldetail *d = item;
    if (!rows)
        return true;
    d->table = pv_xstrdup(rows);
    d->tree = tree;
    return pvdb_columns_read(f, db, rows, &d->cols, &d->col_count);
}

/* The details view table `table` offers, from profview_details, for l. */
static bool pvdb_lazy_details(pv_file *f, sqlite3 *db, pv_result_set *set, const char *table,
                              pvdb_lazy *l)
{
    void *items = NULL;
    bool ok = pvdb_details_read(f, db, set, table, l->view.id, &l->defs, &l->detail_count,
                                &items, sizeof *l->details, pvdb_lazy_detail, NULL);
    l->details = items;
    l->view.details = l->defs;
    l->view.detail_count = l->detail_count;
    return ok;
}

/* True when view table `table` can be read on demand: it is a table, or a
 * grouped view's SQL view over its two tables (else it is read whole). */
static bool pvdb_lazy_readable(sqlite3 *db, const char *table)
{
    if (pvdb_table_exists(db, table))
        return true;
    pv_buf a, b;
    pv_buf_init(&a);
    pv_buf_init(&b);
    pv_buf_printf(&a, "%s_rows", table);
    pv_buf_printf(&b, "%s_groups", table);
    bool ok = pvdb_table_exists(db, pv_buf_cstr(&a)) && pvdb_table_exists(db, pv_buf_cstr(&b));
    pv_buf_free(&a);
    pv_buf_free(&b);
    return ok;
}

/* View table `table` of a version-2 file, read on demand; NULL (with an
 * error) when it does not match its catalogue. */
static pv_view *pvdb_lazy_open(pv_file *f, pvdb_conn *conn, pv_result_set *set,
                               const char *view_id, const char *table, const char *title,
                               bool tree, int64_t catalogue_rows)
{
    sqlite3 *db = conn->db;
    pv_column *cols;
    size_t n;
    if (!pvdb_columns_read(f, db, table, &cols, &n))
        return NULL;
    pvdb_lazy *l = pv_xcalloc(1, sizeof *l);
    pv_view *v = &l->view;
    pv_view_copy_names(v, view_id, title, cols, n);
    pvdb_columns_free(cols, n);
    v->impl = l;
    v->hooks = &pvdb_lazy_hooks;
    v->hook_ctx = l;
    l->conn = pvdb_conn_ref(conn);
    l->tree = tree;
    pv_hashmap_init(&l->texts);
    l->sel = pv_xmalloc((n ? n : 1) * sizeof *l->sel);
    l->group_col = pv_xmalloc((n ? n : 1) * sizeof *l->group_col);
    /* grouped: T_rows with the columns that vary per row, T_groups */
    pv_buf rows_table, groups_table, sql;
    pv_buf_init(&rows_table);
    pv_buf_init(&groups_table);
    pv_buf_init(&sql);
    pv_buf_printf(&rows_table, "%s_rows", table);
    pv_buf_printf(&groups_table, "%s_groups", table);
    bool any_grouped = false;
    for (size_t c = 0; c < n; c++)
        any_grouped = any_grouped || (v->columns[c].flags & PV_COL_GROUPED);
    l->grouped = any_grouped && pvdb_table_exists(db, pv_buf_cstr(&rows_table)) &&
                 pvdb_table_exists(db, pv_buf_cstr(&groups_table));
    if (!l->grouped) {
        pv_buf_clear(&rows_table);
        pv_buf_puts(&rows_table, table);
    }
    pv_buf_puts(&sql, "SELECT _row");
    int k = 1;
    if (tree) {
        pv_buf_puts(&sql, ", _parent");
        k++;
    }
    if (l->grouped) {
        pv_buf_puts(&sql, ", _group");
        k++;
    }
    size_t gk = 0;
    for (size_t c = 0; c < n; c++) {
        l->sel[c] = l->group_col[c] = PV_NO_ROW;
        if (l->grouped && (v->columns[c].flags & PV_COL_GROUPED)) {
            l->group_col[c] = gk++;
            continue;
        }
        l->sel[c] = (size_t)k++;
        pv_buf_puts(&sql, ", ");
        pv_buf_put_sql_ident(&sql, v->columns[c].id);
    }
    pv_buf_puts(&sql, " FROM ");
    pv_buf_put_sql_ident(&sql, pv_buf_cstr(&rows_table));
    pv_buf_puts(&sql, " WHERE _row BETWEEN ?1 AND ?2 ORDER BY _row");
    bool ok = sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &l->read, NULL) == SQLITE_OK;
    if (ok) {
        /* _row counts the rows from 1 (the writer appends them) */
        sqlite3_stmt *st = NULL;
        pv_buf_clear(&sql);
        pv_buf_puts(&sql, "SELECT max(_row) FROM ");
        pv_buf_put_sql_ident(&sql, pv_buf_cstr(&rows_table));
        ok = sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &st, NULL) == SQLITE_OK &&
             sqlite3_step(st) == SQLITE_ROW;
        int64_t max = ok ? sqlite3_column_int64(st, 0) : 0;
        sqlite3_finalize(st);
        l->rows = max > 0 && (uint64_t)max <= PV_VIEW_ROWS_MAX ? (size_t)max : 0;
        if (ok && catalogue_rows >= 0 && (max < 0 ? 0 : max) != catalogue_rows) {
            /* the rows are _row 1 .. N, as many as the catalogue says */
            pv_error(&f->diag, "%s: table %s: its last _row is %" PRId64 ", profview_views "
                               "says %" PRId64 " rows",
                     f->path, pv_buf_cstr(&rows_table), max, catalogue_rows);
            pv_buf_free(&rows_table);
            pv_buf_free(&groups_table);
            pv_buf_free(&sql);
            v->ops = &pvdb_lazy_ops[0];
            pv_view_free(v);
            return NULL;
        }
    }
    if (!ok)
        pv_error(&f->diag, "%s: table %s: %s", f->path, pv_buf_cstr(&rows_table),
                 pv_db_errmsg(db));
    if (ok && l->grouped) {
        l->groups = pvdb_read_groups(f, db, pv_buf_cstr(&groups_table), v, l->group_col,
                                     &v->group_count);
        ok = l->groups != NULL;
        if (ok && v->group_count == 0)
            v->group_count = 1; /* no row: a group that no row names */
    }
    pv_buf_free(&rows_table);
    pv_buf_free(&groups_table);
    pv_buf_free(&sql);
    l->block_count = (l->rows + PVDB_BLOCK - 1) / PVDB_BLOCK;
    l->blocks = pv_xcalloc(l->block_count ? l->block_count : 1, sizeof *l->blocks);
    v->ops = &pvdb_lazy_ops[(tree ? 2 : 0) + (l->grouped ? 1 : 0)];
    if (ok)
        ok = pvdb_lazy_details(f, db, set, table, l);
    if (!ok) {
        pv_view_free(v);
        return NULL;
    }
    return v;
}

static pv_load_status pvdb_load(pv_file *f, const pv_load_options *o)
{
    sqlite3 *db = NULL;
    /* hostile input (docs/input.md "Databases"): a table of
     * profview_views may be a view, legitimately; what it may cost is
     * bounded, and Ctrl-C stops it.  The connection (and its guard) stays
     * open for the views read on demand. */
    bool wal;
    char *uri = pv_db_input_uri(f->path, &wal);
    struct stat fst;
    pvdb_conn *conn = pv_xcalloc(1, sizeof *conn);
    pthread_mutex_init(&conn->lock, NULL);
    conn->refs = 1;
    pv_db_guard_init(&conn->guard, stat(f->path, &fst) == 0 ? (uint64_t)fst.st_size : 0,
                     o->progress.cancel);
    char *note;
    int rc = pv_db_open_input(f->path, uri, SQLITE_OPEN_NOMUTEX, &conn->guard, &db, &note);
    conn->db = db;
    free(uri);
    if (note) {
        pv_warn(&f->diag, "%s", note);
        free(note);
    }
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: cannot open as a SQLite database: %s", f->path,
                 db ? pv_db_errmsg(db) : sqlite3_errstr(rc));
        pvdb_conn_unref(conn);
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
                           "SELECT view_id, table_name, title, tree, row_count FROM "
                           "profview_views WHERE set_id = ? ORDER BY position",
                           -1, &views, NULL) != SQLITE_OK) {
        pv_error(&f->diag, "%s: %s", f->path, pv_db_errmsg(db));
        goto done;
    }
    /* a row of profview_sets takes some tens of bytes of the file: more
     * rows than a 16th of its bytes come from a damaged b-tree that loops
     * (found by fuzz_profview_db: 5.5 M rows out of 38 KB), not from data */
    uint64_t max_sets = (uint64_t)(fst.st_size > 0 ? fst.st_size : 0) / 16 + 16, set_rows = 0;
    while (sqlite3_step(sets) == SQLITE_ROW) {
        if (++set_rows > max_sets) {
            pv_error(&f->diag, "%s: table profview_sets: more rows than the file can hold "
                     "(a damaged database)", f->path);
            goto done;
        }
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
            bool tree = sqlite3_column_int(views, 3) != 0;
            if (version >= 2 && pvdb_lazy_readable(db, table)) {
                /* read on demand (above) */
                pv_view *v = pvdb_lazy_open(f, conn, set, vid, table, title ? title : vid, tree,
                                            sqlite3_column_type(views, 4) == SQLITE_NULL
                                                ? -1
                                                : sqlite3_column_int64(views, 4));
                if (!v)
                    goto done;
                pv_set_add_view(set, v);
                continue;
            }
            pv_table *t = pvdb_read_view(f, db, vid, table, title ? title : vid, tree, version,
                                         NULL);
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
    /* the views read on demand outlive the load's Ctrl-C */
    atomic_store(&conn->guard.cancel, NULL);
    pvdb_conn_unref(conn);
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
