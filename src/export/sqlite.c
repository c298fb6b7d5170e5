/*
 * sqlite.c - the profview SQLite schema (docs/export.md), written from the
 * views: one table per view of each exported result set, its columns typed
 * from the view's columns, with the catalogue tables that let profview load
 * the file back (src/formats/profview_db.c) and a profview_schema version
 * row that tells it from an AQTime database.
 *
 * A view whose rows belong to groups (a timeline's events to their areas)
 * is stored narrow: the columns that depend only on the group once per
 * group, a SQL view joining them back.
 *
 * Speed (docs/export.md "Speed"): one transaction, journal_mode=OFF and
 * synchronous=OFF while writing a temporary file that is renamed into
 * place only when complete; each table filled by one INSERT ... SELECT from
 * a virtual table over the view, every row an append; a time index on rows
 * in time order built while they arrive, other indices after the rows.
 */
#include <inttypes.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "profview/export.h"
#include "profview/hooks.h"

#define PV_SCHEMA_VERSION 2
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
    struct sq_source *src; /* what the virtual table streams now */
    bool cancelled;
} sq_writer;

typedef struct sq_source sq_source;

static bool sq_fail(sq_writer *w, const char *what)
{
    pv_error(w->err, "%s: %s: %s", w->out, what, sqlite3_errmsg(w->db));
    return false;
}

static bool sq_exec(sq_writer *w, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(w->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        if (!w->cancelled) /* a cancel is no error: the caller says it */
            pv_error(w->err, "%s: %s", w->out, msg ? msg : sqlite3_errmsg(w->db));
        sqlite3_free(msg);
        return false;
    }
    return true;
}

/* Reports progress from the export's own loops; false once it is
 * cancelled. */
static bool sq_step(sq_writer *w)
{
    if (!w->cancelled &&
        !pv_progress_step(&w->r->progress, "exporting", w->rows_done, w->rows_total))
        w->cancelled = true;
    return !w->cancelled;
}

/* SQLite's progress handler: its long statements (the INSERT ... SELECT
 * of the rows) report and listen for a cancel too (docs/export.md). */
static int sq_progress(void *ctx)
{
    return sq_step(ctx) ? 0 : 1;
}

#define SQ_ASIDE_LOOK_NS 1000000 /* how often the waiting thread reports */
/* After a cancel, how long the waiting thread gives the helper to stop
 * (sqlite3_interrupt is only noticed between the sorter's runs: seconds
 * at 50 M rows) before it leaves the connection to it. */
#define SQ_ASIDE_GRACE_S 0.004

/* A statement that works inside SQLite alone (or, sql NULL, closing the
 * connection), on a helper thread.  Shared under `lock` until one side
 * leaves: the export's thread when cancelled (abandoned: the helper then
 * closes the connection and frees this), or the helper when done. */
typedef struct sq_aside {
    sqlite3 *db;
    char *sql; /* a copy; NULL: sqlite3_close */
    char *msg;
    int rc;
    pthread_mutex_t lock;
    bool done, abandoned;
} sq_aside;

static void sq_aside_free(sq_aside *j)
{
    pthread_mutex_destroy(&j->lock);
    sqlite3_free(j->msg);
    free(j->sql);
    free(j);
}

static void *sq_aside_main(void *arg)
{
    sq_aside *j = arg;
    int rc = j->sql ? sqlite3_exec(j->db, j->sql, NULL, NULL, &j->msg) : sqlite3_close(j->db);
    pthread_mutex_lock(&j->lock);
    j->rc = rc;
    j->done = true;
    bool abandoned = j->abandoned;
    pthread_mutex_unlock(&j->lock);
    if (abandoned) {
        /* the export returned (cancelled): the connection is ours to close
         * (its file is already unlinked) */
        if (j->sql)
            sqlite3_close(j->db);
        sq_aside_free(j);
    }
    return NULL;
}

static double sq_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs `sql` (NULL: closes the connection) on a detached helper thread
 * while this one reports every millisecond; once cancelled, interrupts it
 * and waits SQ_ASIDE_GRACE_S at most, then leaves the connection to the
 * helper (w->db becomes NULL: nothing may touch it any more).  *rc is
 * SQLite's answer; false when no thread could be started (nothing done). */
static bool sq_aside_run(sq_writer *w, const char *sql, int *rc, char **msg)
{
    sq_aside *j = pv_xcalloc(1, sizeof *j);
    j->db = w->db;
    j->sql = sql ? pv_xstrdup(sql) : NULL;
    pthread_mutex_init(&j->lock, NULL);
    pthread_t th;
    if (pthread_create(&th, NULL, sq_aside_main, j) != 0) {
        sq_aside_free(j);
        return false;
    }
    pthread_detach(th);
    /* tests: the test option export-grace-ms=0 leaves the connection to the
     * helper at once after a cancel (the hand-over that a 15 s sort needs) */
    double cancelled_at = 0, grace = SQ_ASIDE_GRACE_S;
    if (pv_test_has(&w->r->test, PV_TEST_EXPORT_GRACE_MS))
        grace = (double)pv_test_get(&w->r->test, PV_TEST_EXPORT_GRACE_MS, 0) / 1000;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        bool done = j->done;
        if (!done && cancelled_at > 0 && sq_now() - cancelled_at >= grace)
            j->abandoned = true;
        bool abandoned = j->abandoned;
        pthread_mutex_unlock(&j->lock);
        if (done)
            break;
        if (abandoned) {
            w->db = NULL;
            *rc = SQLITE_INTERRUPT;
            *msg = NULL;
            return true;
        }
        struct timespec nap = {0, SQ_ASIDE_LOOK_NS};
        nanosleep(&nap, NULL);
        if (!w->cancelled && !sq_step(w) && sql)
            sqlite3_interrupt(w->db);
        if (w->cancelled && cancelled_at == 0)
            cancelled_at = sq_now();
    }
    *rc = j->rc;
    *msg = j->msg;
    j->msg = NULL;
    if (!sql)
        w->db = NULL; /* closed */
    sq_aside_free(j);
    return true;
}

/* sq_exec for a statement that reads only the database (CREATE INDEX sorts
 * every row of a table: seconds at 10 M rows, and inside SQLite's sorter
 * the progress handler is not called; COMMIT writes the page cache: a
 * second).  With a progress report (a viewer: it draws a frame there), the
 * statement runs on a helper thread while this one reports every
 * millisecond and, when cancelled, interrupts it (sqlite3_interrupt) and
 * returns within SQ_ASIDE_GRACE_S, leaving the rest to the helper; the
 * connection is the helper's alone meanwhile (docs/export.md "In the
 * viewer"). */
static bool sq_exec_aside(sq_writer *w, const char *sql)
{
    if (!w->r->progress.report)
        return sq_exec(w, sql);
    sqlite3_progress_handler(w->db, 0, NULL, NULL); /* it would report from the helper */
    int rc;
    char *msg;
    if (!sq_aside_run(w, sql, &rc, &msg)) {
        sqlite3_progress_handler(w->db, 1 << 14, sq_progress, w);
        return sq_exec(w, sql);
    }
    if (w->db)
        sqlite3_progress_handler(w->db, 1 << 14, sq_progress, w);
    if (rc != SQLITE_OK && !w->cancelled)
        pv_error(w->err, "%s: %s", w->out, msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return rc == SQLITE_OK && !w->cancelled;
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

/* ---- the rows of a table, streamed into SQLite by a virtual table
 *
 * Each table is filled by one `INSERT INTO t(...) SELECT ... FROM
 * temp.pv_export_src`: the virtual table hands SQLite the cells of the
 * view's rows, and the rowid (_row) is SQLite's own next rowid, so every row
 * is an append and the INSERT runs as one statement with its cursors open
 * (docs/export.md "Speed": this is what a row costs least). */

typedef enum sq_slot_kind {
    SQ_SLOT_CELL,   /* a view column */
    SQ_SLOT_PARENT, /* _parent: the _row of the row's nearest kept ancestor */
    SQ_SLOT_GROUP,  /* _group: the item's group (item_group) */
    SQ_SLOT_ITEM,   /* the item itself + 1 (a position, as a _row) */
} sq_slot_kind;

typedef struct sq_slot {
    sq_slot_kind kind;
    size_t col;
} sq_slot;

/* What the virtual table streams: `count` items, rows `rows` (NULL: 0 ..
 * count-1) of `v`, the slots as its columns. */
struct sq_source {
    const pv_view *v;
    const pv_row *rows;
    size_t count;
    const size_t *position_of; /* trees with a selection: view row -> position, or PV_NO_ROW */
    const sq_slot *slots;
    size_t slot_count;
    const uint32_t *item_group; /* with a _group slot: the group of each item */
    bool progress;              /* count the items as rows in the export's progress */
};

typedef struct sq_vtab {
    sqlite3_vtab base;
    sq_writer *w;
} sq_vtab;

typedef struct sq_cursor {
    sqlite3_vtab_cursor base;
    size_t i;
} sq_cursor;

static int sq_vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                         sqlite3_vtab **out, char **errmsg)
{
    (void)argc;
    (void)argv;
    (void)errmsg;
    sq_writer *w = aux;
    pv_buf decl;
    pv_buf_init(&decl);
    pv_buf_puts(&decl, "CREATE TABLE x(");
    for (size_t k = 0; k < w->src->slot_count; k++)
        pv_buf_printf(&decl, "%sc%zu", k ? "," : "", k);
    pv_buf_puts(&decl, ")");
    int rc = sqlite3_declare_vtab(db, pv_buf_cstr(&decl));
    pv_buf_free(&decl);
    if (rc != SQLITE_OK)
        return rc;
    sq_vtab *vt = sqlite3_malloc(sizeof *vt);
    if (!vt)
        return SQLITE_NOMEM;
    memset(vt, 0, sizeof *vt);
    vt->w = w;
    *out = &vt->base;
    return SQLITE_OK;
}

static int sq_vt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    (void)vt;
    info->estimatedCost = 1e9;
    return SQLITE_OK;
}

static int sq_vt_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int sq_vt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    sq_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int sq_vt_close(sqlite3_vtab_cursor *c)
{
    sqlite3_free(c);
    return SQLITE_OK;
}

static int sq_vt_filter(sqlite3_vtab_cursor *c, int idx_num, const char *idx_str, int argc,
                        sqlite3_value **argv)
{
    (void)idx_num;
    (void)idx_str;
    (void)argc;
    (void)argv;
    ((sq_cursor *)c)->i = 0;
    return SQLITE_OK;
}

static int sq_vt_next(sqlite3_vtab_cursor *c)
{
    sq_cursor *cur = (sq_cursor *)c;
    sq_writer *w = ((sq_vtab *)c->pVtab)->w;
    cur->i++;
    if (w->src->progress)
        w->rows_done++;
    /* every table may be long (T_by_group has a row per row): all of them
     * listen for a cancel */
    if ((cur->i & 0xFFF) == 0 &&
        !pv_progress_step(&w->r->progress, "exporting", w->rows_done, w->rows_total)) {
        w->cancelled = true;
        sqlite3_free(c->pVtab->zErrMsg);
        c->pVtab->zErrMsg = sqlite3_mprintf("cancelled");
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

static int sq_vt_eof(sqlite3_vtab_cursor *c)
{
    const sq_writer *w = ((sq_vtab *)c->pVtab)->w;
    return ((sq_cursor *)c)->i >= w->src->count;
}

static int sq_vt_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid)
{
    *rowid = (sqlite3_int64)((sq_cursor *)c)->i + 1;
    return SQLITE_OK;
}

static int sq_vt_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int k)
{
    const sq_source *src = ((sq_vtab *)c->pVtab)->w->src;
    size_t i = ((sq_cursor *)c)->i;
    size_t row = src->rows ? src->rows[i] : i;
    const sq_slot *slot = &src->slots[k];
    switch (slot->kind) {
    case SQ_SLOT_PARENT: {
        /* In a tree selection a row's parent is its nearest kept ancestor
         * (pv_filter_rows keeps ancestors, so it is the parent itself). */
        size_t p = pv_view_parent(src->v, row);
        if (src->position_of) {
            while (p != PV_NO_ROW && src->position_of[p] == PV_NO_ROW)
                p = pv_view_parent(src->v, p);
            if (p != PV_NO_ROW)
                p = src->position_of[p];
        }
        if (p == PV_NO_ROW)
            sqlite3_result_null(ctx);
        else
            sqlite3_result_int64(ctx, (sqlite3_int64)p + 1);
        return SQLITE_OK;
    }
    case SQ_SLOT_GROUP: sqlite3_result_int64(ctx, src->item_group[i]); return SQLITE_OK;
    case SQ_SLOT_ITEM: sqlite3_result_int64(ctx, (sqlite3_int64)row + 1); return SQLITE_OK;
    case SQ_SLOT_CELL: break;
    }
    pv_cell cell;
    /* as cat writes the rows: a delta from the row written before
     * (PV_COL_SINCE_PREV, docs/model.md "Columns") */
    pv_view_cell_after(src->v, row, i ? (src->rows ? src->rows[i - 1] : i - 1) : PV_NO_ROW,
                       slot->col, &cell);
    if (!cell.present) {
        sqlite3_result_null(ctx);
        return SQLITE_OK;
    }
    switch (cell.type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME: sqlite3_result_int64(ctx, cell.v.i); break;
    case PV_TYPE_FLOAT: sqlite3_result_double(ctx, cell.v.f); break;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX: sqlite3_result_int64(ctx, (sqlite3_int64)cell.v.u); break;
    case PV_TYPE_STRING:
        sqlite3_result_text(ctx, cell.v.s.len ? cell.v.s.ptr : "", (int)cell.v.s.len,
                            SQLITE_STATIC);
        break;
    }
    return SQLITE_OK;
}

static const sqlite3_module sq_source_module = {
    .iVersion = 0,
    .xCreate = sq_vt_connect,
    .xConnect = sq_vt_connect,
    .xBestIndex = sq_vt_best_index,
    .xDisconnect = sq_vt_disconnect,
    .xDestroy = sq_vt_disconnect,
    .xOpen = sq_vt_open,
    .xClose = sq_vt_close,
    .xFilter = sq_vt_filter,
    .xNext = sq_vt_next,
    .xEof = sq_vt_eof,
    .xColumn = sq_vt_column,
    .xRowid = sq_vt_rowid,
};

/* Runs `INSERT INTO table(names) SELECT c0.. FROM temp.pv_export_src` over
 * `src`. */
static pv_export_status sq_stream(sq_writer *w, sq_source *src, const char *table,
                                  pv_buf *names)
{
    w->src = src;
    pv_buf *sql = &w->sql;
    if (!sq_exec(w, "CREATE VIRTUAL TABLE temp.pv_export_src USING pv_export_rows"))
        return PV_EXPORT_FAILED;
    pv_buf_clear(sql);
    pv_buf_puts(sql, "INSERT INTO ");
    sq_ident(sql, table);
    pv_buf_printf(sql, "(%s) SELECT ", pv_buf_cstr(names));
    for (size_t k = 0; k < src->slot_count; k++)
        pv_buf_printf(sql, "%sc%zu", k ? "," : "", k);
    pv_buf_puts(sql, " FROM temp.pv_export_src");
    bool ok = sq_exec(w, pv_buf_cstr(sql));
    bool dropped = sq_exec(w, "DROP TABLE temp.pv_export_src");
    w->src = NULL;
    if (w->cancelled)
        return PV_EXPORT_CANCELLED;
    return ok && dropped ? PV_EXPORT_OK : PV_EXPORT_FAILED;
}

/* sqlite3_close, on a helper thread when there is a progress report (the
 * page cache: up to 256 MB to free); w->db is NULL after it. */
static int sq_close(sq_writer *w)
{
    sqlite3_progress_handler(w->db, 0, NULL, NULL);
    int rc;
    char *msg = NULL;
    if (!w->r->progress.report || !sq_aside_run(w, NULL, &rc, &msg)) {
        rc = sqlite3_close(w->db);
        w->db = NULL;
    } else if (rc == SQLITE_INTERRUPT) {
        rc = SQLITE_OK; /* cancelled while closing: the helper finishes it */
    }
    sqlite3_free(msg);
    return rc;
}

/* CREATE INDEX "<name>_by_<col>" ON "<on>"("<col>"). */
static bool sq_index(sq_writer *w, const char *name, const char *on, const char *col)
{
    pv_buf index, *sql = &w->sql;
    pv_buf_init(&index);
    pv_buf_printf(&index, "%s_by_%s", name, col[0] == '_' ? col + 1 : col);
    pv_buf_clear(sql);
    pv_buf_puts(sql, "CREATE INDEX ");
    sq_ident(sql, pv_buf_cstr(&index));
    pv_buf_puts(sql, " ON ");
    sq_ident(sql, on);
    pv_buf_putc(sql, '(');
    sq_ident(sql, col);
    pv_buf_putc(sql, ')');
    pv_buf_free(&index);
    return sq_exec_aside(w, pv_buf_cstr(sql));
}

/* Appends `, "col" TYPE` to a CREATE TABLE, and the quoted name to
 * `names`. */
static void sq_add_column(pv_buf *create, pv_buf *names, const pv_column *col)
{
    pv_buf_puts(create, ", ");
    sq_ident(create, col->id);
    pv_buf_printf(create, " %s", sq_type(col->type));
    if (names->len)
        pv_buf_putc(names, ',');
    sq_ident(names, col->id);
}

static pv_export_status sq_write_columns(sq_writer *w, const char *table, const pv_view *v);

static pv_export_status sq_write_catalogue(sq_writer *w, const pv_result_set *set,
                                           const pv_view *v, const char *table, size_t position,
                                           size_t count)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO profview_views VALUES(?,?,?,?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(st, 1, set->id);
    sqlite3_bind_text(st, 2, v->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, v->title ? v->title : v->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)position);
    sqlite3_bind_int(st, 6, pv_view_is_tree(v));
    sqlite3_bind_int64(st, 7, (sqlite3_int64)count);
    if (sqlite3_step(st) != SQLITE_DONE)
        goto fail;
    sqlite3_finalize(st);
    return sq_write_columns(w, table, v);
fail:
    sqlite3_finalize(st);
    sq_fail(w, table);
    return PV_EXPORT_FAILED;
}

/* The view's columns in profview_columns, for `table`. */
static pv_export_status sq_write_columns(sq_writer *w, const char *table, const pv_view *v)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO profview_columns VALUES(?,?,?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK)
        goto fail;
    for (size_t c = 0; c < v->column_count; c++) {
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)c);
        sqlite3_bind_text(st, 3, v->columns[c].id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, v->columns[c].title, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, pv_type_name(v->columns[c].type), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 6, v->columns[c].flags);
        if (sqlite3_step(st) != SQLITE_DONE)
            goto fail;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return PV_EXPORT_OK;
fail:
    sqlite3_finalize(st);
    sq_fail(w, table);
    return PV_EXPORT_FAILED;
}

/* ---- detail views (docs/export.md "Detail views")
 *
 * With whole result sets, the detail views of every row are written too,
 * each detail of a view as one table `T__D` (the detail's id with '-' as
 * '_'): `_of` (the _row of the row it is a detail of), `_row`, `_parent`
 * (trees) and the detail's columns, the rows of each parent together, in
 * view order.  A detail of a view of more rows than SQ_DETAIL_ROW_CAP, or
 * whose rows would pass it, is left out (a timeline's call stack at every
 * event of a long recording), and profview_details says so. */

#define SQ_DETAIL_ROW_CAP 1000000

/* The cap; the test option detail-rows=N lowers it. */
static uint64_t sq_detail_cap(const sq_writer *w)
{
    return (uint64_t)pv_test_get(&w->r->test, PV_TEST_DETAIL_ROWS, SQ_DETAIL_ROW_CAP);
}

static bool sq_same_columns(const pv_view *a, const pv_view *b)
{
    if (a->column_count != b->column_count || pv_view_is_tree(a) != pv_view_is_tree(b))
        return false;
    for (size_t c = 0; c < a->column_count; c++)
        if (strcmp(a->columns[c].id, b->columns[c].id) != 0 ||
            a->columns[c].type != b->columns[c].type)
            return false;
    return true;
}

static bool sq_bind_cell(sqlite3_stmt *st, int k, const pv_cell *cell)
{
    if (!cell->present)
        return sqlite3_bind_null(st, k) == SQLITE_OK;
    switch (cell->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME: return sqlite3_bind_int64(st, k, cell->v.i) == SQLITE_OK;
    case PV_TYPE_FLOAT: return sqlite3_bind_double(st, k, cell->v.f) == SQLITE_OK;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX: return sqlite3_bind_int64(st, k, (sqlite3_int64)cell->v.u) == SQLITE_OK;
    case PV_TYPE_STRING:
        return sqlite3_bind_text(st, k, cell->v.s.len ? cell->v.s.ptr : "", (int)cell->v.s.len,
                                 SQLITE_TRANSIENT) == SQLITE_OK;
    }
    return false;
}

/* The tables of detail D, named after the first detail opened (dv): D
 * (its rows: _of, _row, _parent for a tree, the columns) and D__of (the
 * rows that have the detail), and their insert statements in *st and *of.
 * False (the message said) when they cannot be made. */
static bool sq_detail_tables(sq_writer *w, const char *D, const pv_view *dv, bool tree,
                             sqlite3_stmt **st, sqlite3_stmt **of)
{
    bool ok = false;
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "CREATE TABLE ");
    sq_ident(&sql, D);
    pv_buf_puts(&sql, "(_of INTEGER, _row INTEGER PRIMARY KEY");
    if (tree)
        pv_buf_puts(&sql, ", _parent INTEGER");
    pv_buf names;
    pv_buf_init(&names);
    for (size_t c = 0; c < dv->column_count; c++)
        sq_add_column(&sql, &names, &dv->columns[c]);
    pv_buf_free(&names);
    pv_buf_puts(&sql, ")");
    if (!sq_exec(w, pv_buf_cstr(&sql)) || sq_write_columns(w, D, dv) != PV_EXPORT_OK)
        goto out;
    pv_buf_clear(&sql);
    pv_buf_puts(&sql, "INSERT INTO ");
    sq_ident(&sql, D);
    pv_buf_puts(&sql, " VALUES(?,?");
    for (size_t c = 0; c < dv->column_count + tree; c++)
        pv_buf_puts(&sql, ",?");
    pv_buf_puts(&sql, ")");
    if (sqlite3_prepare_v2(w->db, pv_buf_cstr(&sql), -1, st, NULL) != SQLITE_OK) {
        sq_fail(w, D);
        goto out;
    }
    /* the rows that have the detail (it may be empty) */
    pv_buf_clear(&sql);
    pv_buf_printf(&sql, "%s__of", D);
    pv_buf names2;
    pv_buf_init(&names2);
    pv_buf_puts(&names2, "CREATE TABLE ");
    sq_ident(&names2, pv_buf_cstr(&sql));
    pv_buf_puts(&names2, "(_of INTEGER PRIMARY KEY)");
    bool created = sq_exec(w, pv_buf_cstr(&names2));
    pv_buf_clear(&names2);
    pv_buf_puts(&names2, "INSERT INTO ");
    sq_ident(&names2, pv_buf_cstr(&sql));
    pv_buf_puts(&names2, " VALUES(?)");
    bool prepared = created && sqlite3_prepare_v2(w->db, pv_buf_cstr(&names2), -1, of,
                                                  NULL) == SQLITE_OK;
    pv_buf_free(&names2);
    if (!prepared) {
        if (created)
            sq_fail(w, D);
        goto out;
    }
    ok = true;
out:
    pv_buf_free(&sql);
    return ok;
}

/* Detail `d` of view v (table T) for the exported rows. */
static pv_export_status sq_write_detail(sq_writer *w, const pv_view *v, const char *T, size_t d,
                                        const pv_row *rows, size_t count)
{
    pv_buf table, sql;
    pv_buf_init(&table);
    pv_buf_init(&sql);
    pv_buf_printf(&table, "%s__", T);
    for (const char *s = v->details[d].id; *s; s++)
        pv_buf_putc(&table, *s == '-' ? '_' : *s);
    const char *D = pv_buf_cstr(&table);
    pv_view *first = NULL; /* the first detail opened: its columns are the table's */
    sqlite3_stmt *st = NULL, *of = NULL;
    uint64_t written = 0;
    uint64_t cap = sq_detail_cap(w);
    /* a view of more rows than the cap: left out without opening them */
    bool capped = count > cap, tree = false;
    pv_export_status status = PV_EXPORT_FAILED;
    for (size_t i = 0; i < count && !capped; i++) {
        size_t row = rows ? rows[i] : i;
        pv_view *dv = pv_view_open_detail(v, d, row);
        if (!dv)
            continue;
        if (!first) {
            first = dv;
            tree = pv_view_is_tree(dv);
            if (!sq_detail_tables(w, D, dv, tree, &st, &of))
                goto done;
        } else if (!sq_same_columns(first, dv)) {
            pv_error(w->err, "%s: detail %s of view %s: the columns differ from row to row",
                     w->out, v->details[d].id, v->id);
            pv_view_free(dv);
            goto done;
        }
        sqlite3_bind_int64(of, 1, (sqlite3_int64)i + 1);
        if (sqlite3_step(of) != SQLITE_DONE) {
            if (dv != first)
                pv_view_free(dv);
            sq_fail(w, D);
            goto done;
        }
        sqlite3_reset(of);
        size_t n = pv_view_rows(dv);
        if (written + n > cap) {
            capped = true;
        } else {
            sqlite3_int64 base = (sqlite3_int64)written + 1;
            for (size_t r = 0; r < n; r++) {
                sqlite3_bind_int64(st, 1, (sqlite3_int64)i + 1);
                sqlite3_bind_int64(st, 2, base + (sqlite3_int64)r);
                int k = 3;
                if (tree) {
                    size_t p = pv_view_parent(dv, r);
                    if (p == PV_NO_ROW)
                        sqlite3_bind_null(st, k++);
                    else
                        sqlite3_bind_int64(st, k++, base + (sqlite3_int64)p);
                }
                for (size_t c = 0; c < dv->column_count; c++) {
                    pv_cell cell;
                    pv_view_cell(dv, r, c, &cell);
                    sq_bind_cell(st, k++, &cell);
                }
                if (sqlite3_step(st) != SQLITE_DONE) {
                    if (dv != first)
                        pv_view_free(dv);
                    sq_fail(w, D);
                    goto done;
                }
                sqlite3_reset(st);
            }
            written += n;
        }
        if (dv != first)
            pv_view_free(dv);
        /* after every row's detail: opening one may take milliseconds (a
         * pass over calls), and the viewer's pump wants a call every 4 ms */
        if (!pv_progress_step(&w->r->progress, "exporting", w->rows_done, w->rows_total)) {
            w->cancelled = true;
            status = PV_EXPORT_CANCELLED;
            goto done;
        }
    }
    sqlite3_finalize(st);
    sqlite3_finalize(of);
    st = of = NULL;
    if (capped && first) {
        pv_buf_clear(&sql);
        pv_buf_puts(&sql, "DROP TABLE ");
        sq_ident(&sql, D);
        pv_buf_puts(&sql, "; DROP TABLE ");
        pv_buf names3;
        pv_buf_init(&names3);
        pv_buf_printf(&names3, "%s__of", D);
        sq_ident(&sql, pv_buf_cstr(&names3));
        pv_buf_free(&names3);
        if (!sq_exec(w, pv_buf_cstr(&sql)))
            goto done;
        if (sqlite3_prepare_v2(w->db, "DELETE FROM profview_columns WHERE table_name = ?", -1,
                               &st, NULL) != SQLITE_OK) {
            sq_fail(w, "profview_columns");
            goto done;
        }
        sqlite3_bind_text(st, 1, D, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        st = NULL;
        if (rc != SQLITE_DONE) {
            sq_fail(w, "profview_columns");
            goto done;
        }
    } else if (first && !sq_index(w, D, D, "_of")) {
        goto done;
    }
    if (sqlite3_prepare_v2(w->db, "INSERT INTO profview_details VALUES(?,?,?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK) {
        sq_fail(w, "profview_details");
        goto done;
    }
    sqlite3_bind_text(st, 1, T, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)d);
    sqlite3_bind_text(st, 3, v->details[d].id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, v->details[d].title, -1, SQLITE_STATIC);
    if (first && !capped)
        sqlite3_bind_text(st, 5, D, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, 5);
    sqlite3_bind_int(st, 6, tree);
    if (sqlite3_step(st) != SQLITE_DONE) {
        sq_fail(w, "profview_details");
        goto done;
    }
    status = PV_EXPORT_OK;
done:
    sqlite3_finalize(st);
    sqlite3_finalize(of);
    if (first)
        pv_view_free(first);
    pv_buf_free(&table);
    pv_buf_free(&sql);
    return status;
}

/* True when column c of v is stored once per group (docs/export.md). */
static bool sq_grouped(const pv_view *v, size_t c)
{
    return (v->columns[c].flags & PV_COL_GROUPED) != 0;
}

/* One view as a table (docs/export.md "the profview schema"): `T` with
 * _row, _parent (trees) and the columns; or, for a view whose rows belong
 * to groups (a timeline's events to their areas), `T_rows` (_row, _group
 * and the columns that vary per row), `T_groups` (_group and the columns
 * that depend only on the group) and `T`, a SQL view joining them. */
/* A grouped view's rows by group (sq_write_view, sq_write_groups): the
 * group of each row, a row of each group that occurs, and the rows in
 * (group, position) order.  Selections are 4 bytes a row (model.h). */
typedef struct sq_grouping {
    uint32_t *item_group;   /* per exported row: its group */
    pv_row *group_rep;      /* a row of each group that occurs */
    uint32_t *rep_group;    /* ... and its group */
    size_t reps;
    pv_row *order;          /* the positions in (group, position) order */
    uint32_t *sorted_group; /* ... and their groups */
} sq_grouping;

/* Fills gr for the `count` rows (rows, or the view's first count rows);
 * PV_EXPORT_CANCELLED when stopped (gr holds what was allocated). */
static pv_export_status sq_group_rows(sq_writer *w, const pv_view *v, const pv_row *rows,
                                      size_t count, sq_grouping *gr)
{
    uint32_t groups = v->group_count;
    uint32_t *item_group = gr->item_group = pv_xmalloc((count ? count : 1) * sizeof *item_group);
    size_t *first = pv_xcalloc((size_t)groups + 1, sizeof *first);
    pv_row *group_rep = gr->group_rep = pv_xmalloc(groups * sizeof *group_rep);
    uint32_t *rep_group = gr->rep_group = pv_xmalloc(groups * sizeof *rep_group);
    size_t reps = 0;
    const pv_row none = UINT32_MAX; /* no row: rows are below PV_VIEW_ROWS_MAX */
    for (uint32_t g = 0; g < groups; g++)
        group_rep[g] = none;
    for (size_t i = 0; i < count; i++) {
        if ((i & 0xFFFF) == 0xFFFF && !sq_step(w)) {
            free(first);
            return PV_EXPORT_CANCELLED;
        }
        size_t row = rows ? rows[i] : i;
        uint32_t g = v->ops->row_group(v, row);
        if (g >= groups)
            g = groups - 1; /* not expected: a group out of range */
        item_group[i] = g;
        first[g + 1]++;
        if (group_rep[g] == none)
            group_rep[g] = (pv_row)row;
    }
    for (uint32_t g = 0; g < groups; g++) {
        first[g + 1] += first[g];
        if (group_rep[g] != none) {
            rep_group[reps] = g;
            group_rep[reps++] = group_rep[g];
        }
    }
    gr->reps = reps;
    /* the positions in (group, position) order: a counting sort */
    pv_row *order = gr->order = pv_xmalloc((count ? count : 1) * sizeof *order);
    uint32_t *sorted_group = gr->sorted_group =
        pv_xmalloc((count ? count : 1) * sizeof *sorted_group);
    for (size_t i = 0; i < count; i++) {
        if ((i & 0xFFFF) == 0xFFFF && !sq_step(w)) {
            free(first);
            return PV_EXPORT_CANCELLED;
        }
        size_t k = first[item_group[i]]++;
        order[k] = (pv_row)i;
        sorted_group[k] = item_group[i];
    }
    free(first);
    return PV_EXPORT_OK;
}

/* A grouped view's tables beside T_rows (docs/export.md): T_groups (the
 * grouped columns, a row per group), T_by_group (the rows of each group) and
 * T, a view of the view's columns in its order. */
static pv_export_status sq_write_groups(sq_writer *w, const pv_view *v, const char *T,
                                        const char *rows_table, sq_slot *slots,
                                        const sq_grouping *gr, size_t count)
{
    bool tree = pv_view_is_tree(v);
    pv_buf groups_table, by_group, create, names;
    pv_buf_init(&groups_table);
    pv_buf_init(&by_group);
    pv_buf_init(&create);
    pv_buf_init(&names);
    pv_export_status status = PV_EXPORT_FAILED;
    size_t n;
    pv_buf_printf(&groups_table, "%s_groups", T);
    pv_buf_clear(&create);
    pv_buf_clear(&names);
    pv_buf_puts(&create, "CREATE TABLE ");
    sq_ident(&create, pv_buf_cstr(&groups_table));
    pv_buf_puts(&create, "(_group INTEGER PRIMARY KEY");
    pv_buf_puts(&names, "_group");
    n = 0;
    slots[n++] = (sq_slot){SQ_SLOT_GROUP, 0};
    for (size_t c = 0; c < v->column_count; c++)
        if (sq_grouped(v, c)) {
            sq_add_column(&create, &names, &v->columns[c]);
            slots[n++] = (sq_slot){SQ_SLOT_CELL, c};
        }
    pv_buf_puts(&create, ")");
    if (!sq_exec(w, pv_buf_cstr(&create)))
        goto out;
    sq_source gsrc = {v, gr->group_rep, gr->reps, NULL, slots, n, gr->rep_group, false};
    status = sq_stream(w, &gsrc, pv_buf_cstr(&groups_table), &names);
    if (status != PV_EXPORT_OK)
        goto out;
    status = PV_EXPORT_FAILED;
    for (size_t c = 0; c < v->column_count; c++)
        if (sq_grouped(v, c) && sq_indexed_column(v->columns[c].id) &&
            !sq_index(w, pv_buf_cstr(&groups_table), pv_buf_cstr(&groups_table),
                      v->columns[c].id))
            goto out;
    /* the rows of each group (events by area): a table in the order of
     * its key, filled in that order, so that it only ever grows at its
     * end; an index on T_rows(_group) would sort every row (measured:
     * more than the rows themselves, docs/export.md "Speed") */
    pv_buf_clear(&by_group);
    pv_buf_printf(&by_group, "%s_by_group", T);
    pv_buf_clear(&create);
    pv_buf_puts(&create, "CREATE TABLE ");
    sq_ident(&create, pv_buf_cstr(&by_group));
    pv_buf_puts(&create, "(_group INTEGER, _row INTEGER, PRIMARY KEY(_group, _row)) "
                         "WITHOUT ROWID");
    if (!sq_exec(w, pv_buf_cstr(&create)))
        goto out;
    pv_buf_clear(&names);
    pv_buf_puts(&names, "_group,_row");
    slots[0] = (sq_slot){SQ_SLOT_GROUP, 0};
    slots[1] = (sq_slot){SQ_SLOT_ITEM, 0};
    sq_source bsrc = {v, gr->order, count, NULL, slots, 2, gr->sorted_group, false};
    status = sq_stream(w, &bsrc, pv_buf_cstr(&by_group), &names);
    if (status != PV_EXPORT_OK)
        goto out;
    status = PV_EXPORT_FAILED;
    /* T: the view's columns in its order, as one table would have them */
    pv_buf_clear(&create);
    pv_buf_puts(&create, "CREATE VIEW ");
    sq_ident(&create, T);
    pv_buf_puts(&create, " AS SELECT r._row AS _row");
    if (tree)
        pv_buf_puts(&create, ", r._parent AS _parent");
    for (size_t c = 0; c < v->column_count; c++) {
        pv_buf_puts(&create, sq_grouped(v, c) ? ", g." : ", r.");
        sq_ident(&create, v->columns[c].id);
        pv_buf_puts(&create, " AS ");
        sq_ident(&create, v->columns[c].id);
    }
    pv_buf_puts(&create, " FROM ");
    sq_ident(&create, rows_table);
    pv_buf_puts(&create, " AS r JOIN ");
    sq_ident(&create, pv_buf_cstr(&groups_table));
    pv_buf_puts(&create, " AS g ON g._group = r._group");
    if (!sq_exec(w, pv_buf_cstr(&create)))
        goto out;
    status = PV_EXPORT_OK;
out:
    pv_buf_free(&groups_table);
    pv_buf_free(&by_group);
    pv_buf_free(&create);
    pv_buf_free(&names);
    return status;
}

static pv_export_status sq_write_view(sq_writer *w, const pv_result_set *set, bool first_set,
                                      const pv_view *v, size_t position, bool selected_view)
{
    pv_buf table, rows_table, create, names;
    pv_buf_init(&table);
    pv_buf_init(&rows_table);
    pv_buf_init(&create);
    pv_buf_init(&names);
    sq_table_name(&table, set, first_set, v->id);
    const char *T = pv_buf_cstr(&table);
    bool tree = pv_view_is_tree(v);
    bool grouped = false;
    if (v->ops->row_group && v->group_count > 0)
        for (size_t c = 0; c < v->column_count; c++)
            grouped = grouped || sq_grouped(v, c);
    size_t count = 0;
    bool ok;
    pv_row *rows = pv_export_select_rows(v, w->r, selected_view, &count, w->err, &ok);
    sq_slot *slots = pv_xcalloc(v->column_count + 2, sizeof *slots);
    size_t *position_of = NULL;
    sq_grouping gr = {0};
    pv_export_status status = PV_EXPORT_FAILED;
    if (!ok) {
        /* a bad filter (its message is in err), or cancelled */
        bool cancelled = w->r->progress.cancel && atomic_load(w->r->progress.cancel);
        w->cancelled = w->cancelled || cancelled;
        status = cancelled ? PV_EXPORT_CANCELLED : PV_EXPORT_USAGE;
        goto done;
    }
    status = sq_write_catalogue(w, set, v, T, position, count);
    if (status != PV_EXPORT_OK)
        goto done;
    status = PV_EXPORT_FAILED;

    /* the rows table: _row (view order, from 1), _parent, _group, columns */
    pv_buf_printf(&rows_table, grouped ? "%s_rows" : "%s", T);
    pv_buf_puts(&create, "CREATE TABLE ");
    sq_ident(&create, pv_buf_cstr(&rows_table));
    pv_buf_puts(&create, "(_row INTEGER PRIMARY KEY");
    size_t n = 0;
    if (tree) {
        pv_buf_puts(&create, ", _parent INTEGER");
        pv_buf_puts(&names, "_parent");
        slots[n++] = (sq_slot){SQ_SLOT_PARENT, 0};
    }
    if (grouped) {
        pv_buf_puts(&create, ", _group INTEGER");
        pv_buf_puts(&names, names.len ? ",_group" : "_group");
        slots[n++] = (sq_slot){SQ_SLOT_GROUP, 0};
    }
    size_t time_col = PV_NO_ROW;
    for (size_t c = 0; c < v->column_count; c++) {
        if (grouped && sq_grouped(v, c))
            continue;
        sq_add_column(&create, &names, &v->columns[c]);
        slots[n++] = (sq_slot){SQ_SLOT_CELL, c};
        if (strcasecmp(v->columns[c].id, "time") == 0)
            time_col = c;
    }
    pv_buf_puts(&create, ")");
    if (!sq_exec(w, pv_buf_cstr(&create)))
        goto done;
    /* Rows in time order (the view says so) arrive in the order of their
     * time index, so it grows at its end while they are inserted: cheaper
     * than sorting them afterwards. */
    bool time_first = time_col != PV_NO_ROW && pv_view_time_ordered(v);
    if (time_first && !sq_index(w, T, pv_buf_cstr(&rows_table), v->columns[time_col].id))
        goto done;

    if (tree && rows) {
        size_t total = pv_view_rows(v);
        position_of = pv_xmalloc((total ? total : 1) * sizeof *position_of);
        for (size_t i = 0; i < total; i++)
            position_of[i] = PV_NO_ROW;
        for (size_t i = 0; i < count; i++)
            position_of[rows[i]] = i;
    }
    /* the group of each row, and a row of each group that occurs */
    if (grouped) {
        status = sq_group_rows(w, v, rows, count, &gr);
        if (status != PV_EXPORT_OK)
            goto done;
        status = PV_EXPORT_FAILED;
    }
    sq_source src = {v, rows, count, position_of, slots, n, gr.item_group, true};
    status = sq_stream(w, &src, pv_buf_cstr(&rows_table), &names);
    if (status != PV_EXPORT_OK)
        goto done;
    status = PV_EXPORT_FAILED;

    /* indices after the rows: events by time (unless built above), by
     * area (handle), calls by parent */
    for (size_t c = 0; c < v->column_count; c++) {
        if ((grouped && sq_grouped(v, c)) || (time_first && c == time_col) ||
            !sq_indexed_column(v->columns[c].id))
            continue;
        if (!sq_index(w, T, pv_buf_cstr(&rows_table), v->columns[c].id))
            goto done;
    }

    if (grouped) {
        status = sq_write_groups(w, v, T, pv_buf_cstr(&rows_table), slots, &gr, count);
        if (status != PV_EXPORT_OK)
            goto done;
    }
    /* the detail views of the exported rows too (a selection's: of the
     * rows kept, so that `cat --parent` of a kept row is the source's) */
    for (size_t d = 0; d < v->detail_count; d++) {
        if (pv_detail_outside(&v->details[d]))
            continue; /* not the file's data (the source view) */
        status = sq_write_detail(w, v, T, d, rows, count);
        if (status != PV_EXPORT_OK)
            goto done;
    }
    status = PV_EXPORT_OK;
done:
    /* hundreds of MB at 50 M rows: a viewer gives them back in steps
     * (pv_export_request.trash) */
    pv_export_dispose(w->r, position_of, pv_view_rows(v) * sizeof *position_of);
    free(gr.group_rep);
    free(gr.rep_group);
    pv_export_dispose(w->r, gr.item_group, (count ? count : 1) * sizeof *gr.item_group);
    pv_export_dispose(w->r, gr.order, (count ? count : 1) * sizeof *gr.order);
    pv_export_dispose(w->r, gr.sorted_group, (count ? count : 1) * sizeof *gr.sorted_group);
    free(slots);
    pv_export_dispose(w->r, rows, pv_export_selection_room(v, w->r, selected_view) * sizeof *rows);
    pv_buf_free(&table);
    pv_buf_free(&rows_table);
    pv_buf_free(&create);
    pv_buf_free(&names);
    return status;
}

static const char sq_catalogue[] =
    "CREATE TABLE profview_schema(name TEXT NOT NULL, version INTEGER NOT NULL);"
    "CREATE TABLE profview_sets(set_id INTEGER PRIMARY KEY, caption TEXT, kind TEXT,"
    " source_format TEXT, source_path TEXT);"
    "CREATE TABLE profview_views(set_id INTEGER, view_id TEXT, table_name TEXT, title TEXT,"
    " position INTEGER, tree INTEGER, row_count INTEGER);"
    "CREATE TABLE profview_columns(table_name TEXT, position INTEGER, column_id TEXT,"
    " title TEXT, type TEXT, flags INTEGER);"
    "CREATE TABLE profview_details(table_name TEXT, position INTEGER, detail_id TEXT,"
    " title TEXT, detail_table TEXT, tree INTEGER);";

/* The result sets and views `r` asks for: their rows in total, or false
 * (a usage error in err) when one is missing. */
static bool sq_count_rows(const pv_file *f, const pv_export_request *r, uint64_t *total,
                          pv_diag *err)
{
    *total = 0;
    if (r->instance >= 0 && !pv_file_find_set(f, r->instance)) {
        pv_error(err, "%s: no result set with id %" PRId64, f->path, r->instance);
        return false;
    }
    for (size_t s = 0; s < f->set_count; s++) {
        const pv_result_set *set = f->sets[s];
        if (r->instance >= 0 && set->id != r->instance)
            continue;
        if (r->view_id && !pv_set_find_view(set, r->view_id)) {
            pv_error(err, "%s: no view '%s' in result set %" PRId64, f->path, r->view_id,
                     set->id);
            return false;
        }
        for (size_t v = 0; v < set->view_count; v++)
            if (!r->view_id || strcasecmp(set->views[v]->id, r->view_id) == 0)
                *total += pv_view_rows(set->views[v]);
    }
    return true;
}

/* The viewer's bookmarks of the file (docs/export.md, the profview
 * schema): one row each, the view's id, the row (from 0, view order), its
 * time (NULL: none) and the note. */
static pv_export_status sq_write_bookmarks(sq_writer *w, const pv_export_request *r)
{
    if (!r->bookmark_count)
        return PV_EXPORT_OK;
    if (!sq_exec(w, "CREATE TABLE profview_bookmarks(view_id TEXT, view_row INTEGER,"
                    " time INTEGER, note TEXT);"))
        return PV_EXPORT_FAILED;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO profview_bookmarks VALUES(?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK) {
        sq_fail(w, "profview_bookmarks");
        return PV_EXPORT_FAILED;
    }
    for (size_t i = 0; i < r->bookmark_count; i++) {
        const pv_export_bookmark *b = &r->bookmarks[i];
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, b->view ? b->view : "", -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)b->row);
        if (b->has_time)
            sqlite3_bind_int64(st, 3, b->time);
        else
            sqlite3_bind_null(st, 3);
        sqlite3_bind_text(st, 4, b->note ? b->note : "", -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE) {
            sqlite3_finalize(st);
            sq_fail(w, "profview_bookmarks");
            return PV_EXPORT_FAILED;
        }
    }
    sqlite3_finalize(st);
    return PV_EXPORT_OK;
}

/* The catalogue, the schema row and every requested view, into w->db (a
 * transaction is open). */
static pv_export_status sq_write_sets(sq_writer *w, const pv_file *f, const pv_export_request *r)
{
    if (sqlite3_create_module(w->db, "pv_export_rows", &sq_source_module, w) != SQLITE_OK) {
        sq_fail(w, "cannot create the database");
        return PV_EXPORT_FAILED;
    }
    if (!sq_exec(w, sq_catalogue))
        return PV_EXPORT_FAILED;
    pv_buf_clear(&w->sql);
    pv_buf_printf(&w->sql, "INSERT INTO profview_schema VALUES('profview', %d)",
                  PV_SCHEMA_VERSION);
    if (!sq_exec(w, pv_buf_cstr(&w->sql)))
        return PV_EXPORT_FAILED;
    bool first = true;
    for (size_t s = 0; s < f->set_count; s++) {
        const pv_result_set *set = f->sets[s];
        if (r->instance >= 0 && set->id != r->instance)
            continue;
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(w->db, "INSERT INTO profview_sets VALUES(?,?,?,?,?)", -1, &st,
                               NULL) != SQLITE_OK) {
            sq_fail(w, "profview_sets");
            return PV_EXPORT_FAILED;
        }
        sqlite3_bind_int64(st, 1, set->id);
        sqlite3_bind_text(st, 2, set->caption, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, set->kind, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, f->format ? f->format : "", -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, f->path, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE) {
            sq_fail(w, "profview_sets");
            return PV_EXPORT_FAILED;
        }
        size_t position = 0;
        for (size_t v = 0; v < set->view_count; v++) {
            const pv_view *view = set->views[v];
            bool selected = r->view_id && strcasecmp(view->id, r->view_id) == 0;
            if (r->view_id && !selected)
                continue;
            pv_export_status status = sq_write_view(w, set, first, view, position++, selected);
            if (status != PV_EXPORT_OK)
                return status;
        }
        first = false;
    }
    return sq_write_bookmarks(w, r);
}

pv_export_status pv_export_sqlite_views_into(sqlite3 *db, const pv_file *f,
                                             const pv_export_request *r, const char *out,
                                             pv_diag *err)
{
    uint64_t total;
    if (!sq_count_rows(f, r, &total, err))
        return PV_EXPORT_USAGE;
    sq_writer w;
    memset(&w, 0, sizeof w);
    w.db = db;
    w.out = out;
    w.err = err;
    w.r = r;
    w.rows_total = total;
    pv_buf_init(&w.sql);
    sqlite3_progress_handler(db, 1 << 14, sq_progress, &w);
    pv_export_status status = sq_write_sets(&w, f, r);
    if (w.cancelled && status != PV_EXPORT_OK)
        status = PV_EXPORT_CANCELLED;
    if (w.db)
        sqlite3_progress_handler(w.db, 0, NULL, NULL);
    pv_buf_free(&w.sql);
    return status;
}

pv_export_status pv_export_sqlite_views(const pv_file *f, const pv_export_request *r,
                                        pv_export_target *t, pv_diag *err)
{
    const char *out = pv_export_target_path(t);
    uint64_t total;
    if (!sq_count_rows(f, r, &total, err))
        return PV_EXPORT_USAGE;
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
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
                            SQLITE_OPEN_NOFOLLOW,
                        NULL) != SQLITE_OK) {
        sq_fail(&w, "cannot create the database");
        goto done;
    }
    /* the page size first: it is fixed once the file has its header.  Big
     * pages cost a row less (measured: 15 % of the inserts at 10 M rows),
     * but every table and index takes at least one: for small exports,
     * SQLite's default (docs/export.md "Speed") */
    pv_buf_printf(&w.sql, "PRAGMA page_size=%d;", total >= 100000 ? 65536 : 4096);
    sqlite3_progress_handler(w.db, 1 << 14, sq_progress, &w);
    if (!sq_exec(&w, pv_buf_cstr(&w.sql)) ||
        !sq_exec(&w, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-262144;"
                     "PRAGMA temp_store=MEMORY; BEGIN;") ||
        /* the header's id once there is no journal: written before, it
         * made a -journal file beside the temporary one */
        !sq_exec(&w, "PRAGMA application_id=1347835697;")) /* PV_SCHEMA_APPLICATION_ID */
        goto done;
    status = sq_write_sets(&w, f, r);
    if (status != PV_EXPORT_OK)
        goto done;
    status = PV_EXPORT_FAILED;
    if (!sq_exec_aside(&w, "COMMIT"))
        goto done;
    status = PV_EXPORT_OK;
done:
    if (w.cancelled && status != PV_EXPORT_OK)
        status = PV_EXPORT_CANCELLED; /* a statement stopped by the progress handler */
    /* closing frees the page cache (up to 256 MB, 16 ms): aside too */
    if (w.db && sq_close(&w) != SQLITE_OK && status == PV_EXPORT_OK) {
        pv_error(err, "%s: cannot close the database", out);
        status = PV_EXPORT_FAILED;
    }
    pv_buf_free(&w.sql);
    return status;
}
