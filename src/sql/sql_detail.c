/*
 * sql_detail.c - detail views as SQL table-valued functions:
 * name(parent_id [, result_set]) (docs/sql.md).
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    s->sets[c->set_no - 1].read = true;
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

sqlite3_module sql_detail_module = {
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
