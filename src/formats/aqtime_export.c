/*
 * aqtime_export.c - AQTime result sets exported in AQTime's own schema
 * (docs/export.md): the tables and columns as the database spelled them,
 * INSTANCES and RELATIONS included, written from the rows the loader holds
 * in memory (aqtime.h), never from the file.
 *
 * Whole result sets keep every row of their INST_ID.  A subset (a view's
 * filtered rows) keeps those rows and, by a worklist over the links below,
 * every row they refer to (threads, parent calls up to the root, routines,
 * meta routines and lines, call routes and stacks, parameters, classes,
 * creation stacks, references of kept objects ...), so that every
 * reference of the result resolves.  Where a link has two readings (ID or
 * REC_ID, docs/aqtime.md), rows matching either are kept.
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/aqtime.h"
#include "profview/export.h"

/* A reference: child.col names a row of parent by one of its keys.  `down`
 * links also pull the children of a kept parent (its details). */
typedef struct aqx_link {
    aq_table_id child;
    const char *col;
    aq_table_id parent;
    const char *key1, *key2; /* parent columns tried; key2 may be NULL */
    const char *same;        /* a column child and parent must also share (thread), or NULL */
    bool down;
} aqx_link;

static const aqx_link aqx_links[] = {
    /* Function Trace */
    {AQ_T_FT_CALL_TRACE, "PARENT_ID", AQ_T_FT_THREADS, "ID", NULL, NULL, false},
    {AQ_T_FT_CALL_TRACE, "COL_PARENT_NO", AQ_T_FT_CALL_TRACE, "REC_ID", NULL, "PARENT_ID", false},
    {AQ_T_FT_CALL_TRACE, "COL_ROUTINE_NAME", AQ_T_FT_META_ROUTINES, "ID", "REC_ID", NULL, false},
    {AQ_T_FT_CALL_TRACE, "COL_RECID", AQ_T_FT_META_ROUTINES, "ID", "REC_ID", NULL, false},
    {AQ_T_FT_PARAMS_ENTER, "PARENT_ID", AQ_T_FT_CALL_TRACE, "ID", NULL, NULL, true},
    {AQ_T_FT_PARAMS_EXIT, "PARENT_ID", AQ_T_FT_CALL_TRACE, "ID", NULL, NULL, true},
    {AQ_T_FT_CALL_ROUTES, "PARENT_ID", AQ_T_FT_ROUTINES, "ID", NULL, NULL, true},
    {AQ_T_FT_CALL_STACK, "PARENT_ID", AQ_T_FT_CALL_ROUTES, "ID", NULL, NULL, true},
    {AQ_T_FT_CALL_STACK, "COL_ROUTINE_NAME", AQ_T_FT_META_ROUTINES, "ID", "REC_ID", NULL, false},
    {AQ_T_FT_CALL_STACK, "COL_RECID", AQ_T_FT_META_ROUTINES, "ID", "REC_ID", NULL, false},
    /* down: the ROUTINES row of a kept routine (a call's `routine_id`, a
     * line's routine) */
    {AQ_T_FT_ROUTINES, "REC_ID", AQ_T_FT_META_ROUTINES, "ID", "REC_ID", NULL, true},
    {AQ_T_FT_CALL_ROUTES, "COL_RECID", AQ_T_FT_META_ROUTINES, "ID", "REC_ID", NULL, false},
    {AQ_T_FT_META_LINES, "PARENT_ID", AQ_T_FT_META_ROUTINES, "ID", NULL, NULL, true},
    {AQ_T_FT_METAPARAMETERS, "PARENT_ID", AQ_T_FT_META_ROUTINES, "ID", NULL, NULL, true},
    /* Resource */
    /* the loader's links (aqtime_objects.c): a class row and an object name
     * their META_CLASSES_DATA row; an error its thread */
    {AQ_T_RS_CLASSES_DATA, "REC_ID", AQ_T_RS_META_CLASSES_DATA, "ID", "REC_ID", NULL, true},
    {AQ_T_RS_OBJECTS, "COL_CLASSRID", AQ_T_RS_META_CLASSES_DATA, "ID", "REC_ID", NULL, false},
    {AQ_T_RS_ERRORS, "PARENT_ID", AQ_T_RS_THREADS, "ID", NULL, NULL, false},
    {AQ_T_RS_OBJECTS, "COL_CLASSRID", AQ_T_RS_CLASSES_DATA, "ID", "REC_ID", NULL, false},
    {AQ_T_RS_OBJECTS, "COL_THREADID", AQ_T_RS_THREADS, "ID", "REC_ID", NULL, false},
    {AQ_T_RS_CREATION_CALL_STACK, "PARENT_ID", AQ_T_RS_OBJECTS, "ID", NULL, NULL, true},
    {AQ_T_RS_CREATION_CALL_STACK, "COL_ROUTINERID", AQ_T_RS_META_ROUTINES, "ID", "REC_ID", NULL,
     false},
    {AQ_T_RS_CREATION_CALL_STACK, "COL_LINERID", AQ_T_RS_META_LINES, "ID", "REC_ID", NULL, false},
    {AQ_T_RS_CALL_STACK, "PARENT_ID", AQ_T_RS_ERRORS, "ID", NULL, NULL, true},
    {AQ_T_RS_CALL_STACK, "COL_ROUTINERID", AQ_T_RS_META_ROUTINES, "ID", "REC_ID", NULL, false},
    {AQ_T_RS_META_LINES, "PARENT_ID", AQ_T_RS_META_ROUTINES, "ID", NULL, NULL, true},
    {AQ_T_RS_CLASSES_DATA, "COL_CLASS_NAME", AQ_T_RS_META_CLASSES_DATA, "COL_CLASS_NAME", NULL,
     NULL, false},
    /* Reference Count */
    {AQ_T_RC_CLASSES_DATA, "REC_ID", AQ_T_RC_META_CLASSES_DATA, "ID", "REC_ID", NULL, true},
    {AQ_T_RC_OBJECTS, "COL_CLASSRID", AQ_T_RC_META_CLASSES_DATA, "ID", "REC_ID", NULL, false},
    {AQ_T_RC_OBJECTS, "COL_CLASSRID", AQ_T_RC_CLASSES_DATA, "ID", "REC_ID", NULL, false},
    {AQ_T_RC_OBJECTS, "COL_THREADRID", AQ_T_RC_THREADS, "ID", "REC_ID", NULL, false},
    {AQ_T_RC_CREATION_CALL_STACK, "PARENT_ID", AQ_T_RC_OBJECTS, "ID", NULL, NULL, true},
    {AQ_T_RC_CREATION_CALL_STACK, "COL_ROUTINERID", AQ_T_RC_META_ROUTINES, "ID", "REC_ID", NULL,
     false},
    {AQ_T_RC_CREATION_CALL_STACK, "COL_LINERID", AQ_T_RC_META_LINES, "ID", "REC_ID", NULL, false},
    {AQ_T_RC_REFERENCES, "PARENT_ID", AQ_T_RC_OBJECTS, "ID", NULL, NULL, true},
    {AQ_T_RC_ADDREF_STACK, "PARENT_ID", AQ_T_RC_REFERENCES, "ID", NULL, NULL, true},
    {AQ_T_RC_ADDREF_STACK, "COL_ROUTINE_NAME", AQ_T_RC_META_ROUTINES, "ID", "REC_ID", NULL,
     false},
    {AQ_T_RC_REFCOUNT_TREE, "PARENT_ID", AQ_T_RC_OBJECTS, "ID", NULL, NULL, true},
    {AQ_T_RC_REFCOUNT_TREE, "COL_ROUTINE_NAME", AQ_T_RC_META_ROUTINES, "ID", "REC_ID", NULL,
     false},
    {AQ_T_RC_META_LINES, "PARENT_ID", AQ_T_RC_META_ROUTINES, "ID", NULL, NULL, true},
    {AQ_T_RC_CLASSES_DATA, "COL_CLASS_NAME", AQ_T_RC_META_CLASSES_DATA, "COL_CLASS_NAME", NULL,
     NULL, false},
};

/* The table a view's rows come from (its `id` is that table's ID). */
static const struct {
    const char *view;
    aq_table_id table[3]; /* by profiler: trace, resource, reference count */
} aqx_view_tables[] = {
    {"call-trace", {AQ_T_FT_CALL_TRACE, AQ_T_COUNT, AQ_T_COUNT}},
    {"routines", {AQ_T_FT_ROUTINES, AQ_T_COUNT, AQ_T_COUNT}},
    {"call-routes", {AQ_T_FT_CALL_ROUTES, AQ_T_COUNT, AQ_T_COUNT}},
    {"lines", {AQ_T_FT_META_LINES, AQ_T_COUNT, AQ_T_COUNT}},
    {"threads", {AQ_T_FT_THREADS, AQ_T_RS_THREADS, AQ_T_RC_THREADS}},
    {"classes", {AQ_T_COUNT, AQ_T_RS_CLASSES_DATA, AQ_T_RC_CLASSES_DATA}},
    {"objects", {AQ_T_COUNT, AQ_T_RS_OBJECTS, AQ_T_RC_OBJECTS}},
    {"errors", {AQ_T_COUNT, AQ_T_RS_ERRORS, AQ_T_COUNT}},
    {"references", {AQ_T_COUNT, AQ_T_COUNT, AQ_T_RC_REFERENCES}},
};

/* A sorted index of one (table, key column) pair: (inst, same, key) -> rows. */
typedef struct aqx_entry {
    int64_t inst, same, key;
    size_t row;
} aqx_entry;

typedef struct aqx_index {
    aq_table_id table;
    size_t col, same_col;
    aqx_entry *e;
    size_t n;
} aqx_index;

static int aqx_entry_cmp(const void *a, const void *b)
{
    const aqx_entry *x = a, *y = b;
    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    if (x->same != y->same)
        return x->same < y->same ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

typedef struct aqx_ctx {
    aq_db *db;
    bool *keep[AQ_T_COUNT];
    /* the selected view's table: it holds exactly the selected rows (the
     * worklist adds none to it), AQ_T_COUNT for none */
    aq_table_id selected;
    bool closing;
    size_t *work; /* (table << 48 | row) pending */
    size_t work_n, work_cap;
    aqx_index *indexes;
    size_t index_n, index_cap;
} aqx_ctx;

static const aqx_index *aqx_get_index(aqx_ctx *x, aq_table_id t, size_t col, size_t same_col)
{
    for (size_t i = 0; i < x->index_n; i++)
        if (x->indexes[i].table == t && x->indexes[i].col == col &&
            x->indexes[i].same_col == same_col)
            return &x->indexes[i];
    const aq_table *tab = &x->db->tables[t];
    aqx_index ix = {t, col, same_col, NULL, 0};
    ix.e = pv_xmalloc((tab->row_count ? tab->row_count : 1) * sizeof *ix.e);
    for (size_t r = 0; r < tab->row_count; r++) {
        int64_t key, same = 0;
        if (!aq_int(tab, r, col, &key))
            continue;
        if (same_col != AQ_NONE && !aq_int(tab, r, same_col, &same))
            continue;
        ix.e[ix.n++] = (aqx_entry){aq_inst(tab, r), same, key, r};
    }
    qsort(ix.e, ix.n, sizeof *ix.e, aqx_entry_cmp);
    x->indexes = pv_xgrow(x->indexes, &x->index_cap, x->index_n + 1, sizeof *x->indexes);
    x->indexes[x->index_n++] = ix;
    return &x->indexes[x->index_n - 1];
}

static void aqx_keep(aqx_ctx *x, aq_table_id t, size_t row)
{
    if (x->keep[t][row] || (x->closing && t == x->selected))
        return;
    x->keep[t][row] = true;
    x->work = pv_xgrow(x->work, &x->work_cap, x->work_n + 1, sizeof *x->work);
    x->work[x->work_n++] = (size_t)t << 48 | row;
}

/* Keeps every row of `ix` with (inst, same, key). */
static void aqx_keep_matching(aqx_ctx *x, const aqx_index *ix, int64_t inst, int64_t same,
                              int64_t key)
{
    aqx_entry probe = {inst, same, key, 0};
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (aqx_entry_cmp(&ix->e[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < ix->n && ix->e[i].inst == inst && ix->e[i].same == same &&
                        ix->e[i].key == key;
         i++)
        aqx_keep(x, ix->table, ix->e[i].row);
}

/* The worklist: every kept row keeps what it refers to, and the details of
 * a kept parent. */
static void aqx_close(aqx_ctx *x)
{
    x->closing = true;
    while (x->work_n > 0) {
        size_t item = x->work[--x->work_n];
        aq_table_id t = (aq_table_id)(item >> 48);
        size_t row = item & (((size_t)1 << 48) - 1);
        const aq_table *tab = &x->db->tables[t];
        int64_t inst = aq_inst(tab, row);
        for (size_t l = 0; l < PV_ARRAY_LEN(aqx_links); l++) {
            const aqx_link *k = &aqx_links[l];
            const aq_table *pt = &x->db->tables[k->parent];
            const aq_table *ct = &x->db->tables[k->child];
            if (!pt->db_name || !ct->db_name)
                continue;
            if (k->child == t) {
                /* up: the rows this row names */
                size_t col = aq_col(tab, k->col);
                int64_t v, same = 0;
                if (col == AQ_NONE || !aq_int(tab, row, col, &v) || v < 0)
                    continue;
                size_t same_col = k->same ? aq_col(tab, k->same) : AQ_NONE;
                if (k->same && (same_col == AQ_NONE || !aq_int(tab, row, same_col, &same)))
                    continue;
                const char *keys[2] = {k->key1, k->key2};
                for (int i = 0; i < 2; i++) {
                    size_t kc = keys[i] ? aq_col(pt, keys[i]) : AQ_NONE;
                    if (kc == AQ_NONE)
                        continue;
                    size_t psame = k->same ? aq_col(pt, k->same) : AQ_NONE;
                    if (k->same && psame == AQ_NONE)
                        continue;
                    aqx_keep_matching(x, aqx_get_index(x, k->parent, kc, psame), inst, same, v);
                }
            }
            if (k->down && k->parent == t) {
                /* down: the details of this row (by either reading) */
                size_t cc = aq_col(ct, k->col);
                const char *keys[2] = {k->key1, k->key2};
                for (int i = 0; i < 2 && cc != AQ_NONE; i++) {
                    size_t kc = keys[i] ? aq_col(tab, keys[i]) : AQ_NONE;
                    int64_t v;
                    if (kc == AQ_NONE || !aq_int(tab, row, kc, &v))
                        continue;
                    aqx_keep_matching(x, aqx_get_index(x, k->child, cc, AQ_NONE), inst, 0, v);
                }
            }
        }
    }
}

/* ---- writing */

static bool aqx_exec(sqlite3 *db, const char *sql, const char *out, pv_diag *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        pv_error(err, "%s: %s", out, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return false;
    }
    return true;
}


static pv_export_status aqx_write_table(sqlite3 *db, const aq_table *t, const bool *keep,
                                        const char *out, pv_diag *err,
                                        const pv_export_request *r, uint64_t *done)
{
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "CREATE TABLE ");
    pv_buf_put_sql_ident(&sql, t->db_name);
    pv_buf_puts(&sql, " (");
    for (size_t c = 0; c < t->col_count; c++) {
        if (c)
            pv_buf_puts(&sql, ", ");
        pv_buf_put_sql_ident(&sql, t->col_names[c]);
        pv_buf_puts(&sql, t->col_known[c] && t->col_text[c] ? " TEXT" : " INTEGER");
    }
    pv_buf_puts(&sql, ")");
    pv_export_status st = PV_EXPORT_FAILED;
    sqlite3_stmt *ins = NULL;
    if (!aqx_exec(db, pv_buf_cstr(&sql), out, err))
        goto done;
    pv_buf_clear(&sql);
    pv_buf_puts(&sql, "INSERT INTO ");
    pv_buf_put_sql_ident(&sql, t->db_name);
    pv_buf_puts(&sql, " VALUES(");
    for (size_t c = 0; c < t->col_count; c++)
        pv_buf_puts(&sql, c ? ",?" : "?");
    pv_buf_puts(&sql, ")");
    if (sqlite3_prepare_v2(db, pv_buf_cstr(&sql), -1, &ins, NULL) != SQLITE_OK) {
        pv_error(err, "%s: %s: %s", out, t->db_name, sqlite3_errmsg(db));
        goto done;
    }
    for (size_t row = 0; row < t->row_count; row++) {
        if (!keep[row])
            continue;
        for (size_t c = 0; c < t->col_count; c++) {
            aq_value cell = aq_cell(t, row, c);
            const aq_value *v = &cell;
            int k = (int)c + 1;
            switch (v->kind) {
            case AQ_V_INT: sqlite3_bind_int64(ins, k, v->v.i); break;
            case AQ_V_REAL: sqlite3_bind_double(ins, k, v->v.f); break;
            case AQ_V_TEXT: {
                const char *s = pv_strpool_get(&t->pool, v->v.s);
                sqlite3_bind_text(ins, k, s, -1, SQLITE_STATIC);
                break;
            }
            default: sqlite3_bind_null(ins, k); break;
            }
        }
        if (sqlite3_step(ins) != SQLITE_DONE) {
            pv_error(err, "%s: %s: %s", out, t->db_name, sqlite3_errmsg(db));
            goto done;
        }
        sqlite3_reset(ins);
        if ((++*done & 0x3FFF) == 0 && !pv_progress_step(&r->progress, "exporting", *done, 0)) {
            st = PV_EXPORT_CANCELLED;
            goto done;
        }
    }
    st = PV_EXPORT_OK;
done:
    sqlite3_finalize(ins);
    pv_buf_free(&sql);
    return st;
}

int pv_aq_export(const pv_file *f, const pv_export_request *r, pv_export_target *target,
                 pv_diag *err)
{
    if (r->format != PV_EXPORT_SQLITE)
        return PV_EXPORT_UNSUPPORTED;
    aq_db *db = f->loader_data;
    const char *out = pv_export_target_path(target);
    if (r->instance >= 0 && !pv_file_find_set(f, r->instance)) {
        pv_error(err, "%s: no result set with INST_ID %" PRId64, f->path, r->instance);
        return PV_EXPORT_USAGE;
    }
    aqx_ctx x;
    memset(&x, 0, sizeof x);
    x.db = db;
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        x.keep[t] = pv_xcalloc(db->tables[t].row_count ? db->tables[t].row_count : 1, 1);
    pv_export_status status = PV_EXPORT_FAILED;
    sqlite3 *out_db = NULL;
    bool subset = r->view_id || r->context;
    const char *view_id = r->view_id ? r->view_id : "call-trace";
    /* docs/export.md "AQTime subsets": a view other than the call trace
     * shows values AQTime's tables cannot hold for a part of the rows (a
     * routine's times are computed from all its calls, an object's class
     * from its class row ...): it is also stored as shown, in the profview
     * schema, beside AQTime's tables; the loader shows that. */
    bool as_shown = r->view_id && strcasecmp(view_id, "call-trace") != 0;
    x.selected = AQ_T_COUNT;
    /* INSTANCES and RELATIONS of the exported result sets, always whole */
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        const aq_table *tab = &db->tables[t];
        bool whole = !subset || t == AQ_T_INSTANCES || t == AQ_T_RELATIONS;
        for (size_t row = 0; whole && row < tab->row_count; row++) {
            int64_t inst = tab->inst_col == AQ_NONE ? -1 : aq_inst(tab, row);
            if (r->instance < 0 || inst == r->instance || tab->inst_col == AQ_NONE)
                x.keep[t][row] = true;
        }
    }
    if (subset) {
        for (size_t s = 0; s < f->set_count; s++) {
            const pv_result_set *set = f->sets[s];
            if (r->instance >= 0 && set->id != r->instance)
                continue;
            const pv_view *v = pv_set_find_view(set, view_id);
            if (!v && r->view_id) {
                pv_error(err, "%s: no view '%s' in result set %" PRId64, f->path, view_id,
                         set->id);
                status = PV_EXPORT_USAGE;
                goto done;
            }
            if (!v)
                continue;
            aq_table_id table = AQ_T_COUNT;
            for (size_t i = 0; i < PV_ARRAY_LEN(aqx_view_tables); i++)
                if (strcmp(aqx_view_tables[i].view, view_id) == 0)
                    for (int p = 0; p < 3 && table == AQ_T_COUNT; p++) {
                        aq_table_id cand = aqx_view_tables[i].table[p];
                        if (cand != AQ_T_COUNT && db->tables[cand].db_name)
                            table = cand;
                    }
            if (table == AQ_T_COUNT) {
                /* a view of no table of its own (the summary): its result
                 * set whole in AQTime's tables, the view as shown beside */
                for (size_t t = 0; t < AQ_T_COUNT; t++) {
                    const aq_table *tab = &db->tables[t];
                    for (size_t row = 0; tab->inst_col != AQ_NONE && row < tab->row_count; row++)
                        if (aq_inst(tab, row) == set->id)
                            x.keep[t][row] = true;
                }
                continue;
            }
            x.selected = table;
            bool ok;
            size_t n;
            pv_row *rows = pv_export_select_rows(v, r, r->view_id != NULL, &n, err, &ok);
            if (!ok) {
                status = PV_EXPORT_USAGE;
                goto done;
            }
            size_t id_col = pv_view_column(v, "id");
            const aq_table *tab = &db->tables[table];
            size_t tid = aq_col(tab, "ID");
            const aqx_index *ix = tid != AQ_NONE ? aqx_get_index(&x, table, tid, AQ_NONE) : NULL;
            for (size_t i = 0; ix && id_col != PV_NO_ROW && i < n; i++) {
                pv_cell c;
                pv_view_cell(v, rows ? rows[i] : i, id_col, &c);
                if (c.present)
                    aqx_keep_matching(&x, ix, set->id, 0, c.v.i);
            }
            free(rows);
        }
        aqx_close(&x);
    }

    const char *temp;
    if (!pv_export_target_add(target, out, &temp, err))
        goto done;
    if (sqlite3_open_v2(temp, &out_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                               SQLITE_OPEN_NOFOLLOW,
                        NULL) !=
        SQLITE_OK) {
        pv_error(err, "%s: cannot create the database: %s", out, sqlite3_errmsg(out_db));
        goto done;
    }
    if (!aqx_exec(out_db,
                  "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode="
                  "EXCLUSIVE; BEGIN;",
                  out, err))
        goto done;
    uint64_t done_rows = 0;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        const aq_table *tab = &db->tables[t];
        if (!tab->db_name)
            continue;
        status = aqx_write_table(out_db, tab, x.keep[t], out, err, r, &done_rows);
        if (status != PV_EXPORT_OK)
            goto done;
    }
    if (as_shown) {
        status = pv_export_sqlite_views_into(out_db, f, r, out, err);
        if (status != PV_EXPORT_OK)
            goto done;
    }
    status = PV_EXPORT_FAILED;
    if (!aqx_exec(out_db, "COMMIT", out, err))
        goto done;
    status = PV_EXPORT_OK;
done:
    if (out_db && sqlite3_close(out_db) != SQLITE_OK && status == PV_EXPORT_OK)
        status = PV_EXPORT_FAILED;
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        free(x.keep[t]);
    for (size_t i = 0; i < x.index_n; i++)
        free(x.indexes[i].e);
    free(x.indexes);
    free(x.work);
    return status;
}
