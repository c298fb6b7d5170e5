/* aqtime_db.c - AQTime databases (docs/formats.md §5): detection, the
 * seed's tables found in the schema, the load (aqtime_read.c reads the
 * tables into memory, aqtime_sets.c makes the result sets) and the loader's
 * data. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "aqtime.h"
#include "formats/profview_db.h"
#include "profview/hooks.h"

const aq_table_spec aq_table_specs[AQ_T_COUNT] = {
#define AQ_TABLE_SPEC(sym, name, cols) {name, cols},
    AQ_TABLES(AQ_TABLE_SPEC)
#undef AQ_TABLE_SPEC
};

const char *const aq_profiler_prefix[AQ_PROF_COUNT] = {
    "FUNCTION_TRACE_PROFILER_",
    "RESOURCE_PROFILER_",
    "REFERENCE_COUNT_PROFILER_",
};

void aq_db_own(aq_db *db, void *p, void (*free_fn)(void *))
{
    db->owned = pv_xgrow(db->owned, &db->owned_cap, db->owned_count + 1, sizeof *db->owned);
    db->owned_free = pv_xgrow(db->owned_free, &db->owned_free_cap, db->owned_count + 1,
                              sizeof *db->owned_free);
    db->owned[db->owned_count] = p;
    db->owned_free[db->owned_count] = free_fn;
    db->owned_count++;
}

static void aq_db_free(void *p)
{
    aq_db *db = p;
    if (!db)
        return;
    aq_defer_free(db->defer); /* first: its thread uses the tables */
    if (db->summary_names.id)
        pv_view_free_names(&db->summary_names);
    for (size_t i = 0; i < db->owned_count; i++)
        db->owned_free[i](db->owned[i]);
    free(db->owned);
    free(db->owned_free);
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        aq_table *tab = &db->tables[t];
        for (size_t c = 0; c < tab->col_count; c++)
            free(tab->col_names[c]);
        free(tab->col_names);
        free(tab->col_known);
        free(tab->col_text);
        for (size_t c = 0; tab->cols && c < tab->col_count; c++) {
            free(tab->cols[c].data);
            free(tab->cols[c].nulls);
        }
        free(tab->cols);
        free(tab->row_no);
        free(tab->insts);
        free(tab->inst_start);
        free(tab->inst_rows);
        free(tab->col_type);
        free(tab->col_any_int);
        free(tab->col_all_text);
        free(tab->db_name);
        pv_strpool_free(&tab->pool);
    }
    free(db->path);
    free(db->uri);
    free(db);
}

bool aq_table_is_aqtime(const char *name, bool *profiler)
{
    bool known = false;
    *profiler = false;
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        known = known || strcasecmp(name, aq_table_specs[t].name) == 0;
    for (size_t p = 0; p < AQ_PROF_COUNT; p++)
        if (strncasecmp(name, aq_profiler_prefix[p], strlen(aq_profiler_prefix[p])) == 0)
            known = *profiler = true;
    return known;
}

/* Finds the seed's tables by name, case-insensitively. */
static bool aq_find_tables(pv_file *f, sqlite3 *db, aq_db *a)
{
    sqlite3_stmt *st = NULL;
    /* Tables only: a view may cost anything (an endless recursive CTE);
     * one named as an AQTime table is left out, and said so. */
    int rc = sqlite3_prepare_v2(db, "SELECT name, type FROM sqlite_master WHERE type IN ('table','view')",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: byte 0: not a readable SQLite database: %s", f->path,
                 pv_db_errmsg(db));
        sqlite3_finalize(st);
        return false;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *type = (const char *)sqlite3_column_text(st, 1);
        if (!name)
            continue;
        bool view = type && strcmp(type, "view") == 0;
        for (size_t t = 0; t < AQ_T_COUNT; t++) {
            if (strcasecmp(name, aq_table_specs[t].name) != 0)
                continue;
            if (view) {
                /* one message: the table is then not "missing" as well */
                pv_warn(&f->diag, "%s: %s is a view, not a table: not read, what it holds is "
                        "shown empty (a view may cost anything to read; docs/input.md "
                        "\"Databases\")", f->path, name);
                a->tables[t].is_view = true;
                continue;
            }
            if (a->tables[t].db_name)
                pv_warn(&f->diag, "%s: tables %s and %s differ only in case; %s is used",
                        f->path, a->tables[t].db_name, name, a->tables[t].db_name);
            else
                a->tables[t].db_name = pv_xstrdup(name);
        }
        for (size_t p = 0; p < AQ_PROF_COUNT && !view; p++)
            if (strncasecmp(name, aq_profiler_prefix[p], strlen(aq_profiler_prefix[p])) == 0)
                a->has_profiler[p] = true;
    }
    if (rc == SQLITE_INTERRUPT && !pv_db_budget_spent()) {
        pv_error(&f->diag, "%s: cancelled", f->path); /* Ctrl-C */
        sqlite3_finalize(st);
        return false;
    }
    if (rc != SQLITE_DONE) {
        pv_error(&f->diag, "%s: the database schema cannot be read: %s", f->path,
                 pv_db_errmsg(db));
        sqlite3_finalize(st);
        return false;
    }
    sqlite3_finalize(st);
    return true;
}

static int aq_probe(const unsigned char *head, size_t len, uint64_t file_size, const char *path)
{
    (void)file_size;
    (void)path;
    static const char magic[16] = "SQLite format 3";
    if (len < 16 || memcmp(head, magic, 16) != 0)
        return 0;
    /* Any SQLite file is likely ours (the load checks the tables); AQTime's
     * table names in the first pages make it surer.  Another SQLite loader
     * that finds its own marker should score between 85 and 95. */
    static const char needle[] = "_PROFILER_";
    for (size_t i = 0; i + sizeof needle - 1 <= len; i++)
        if (strncasecmp((const char *)head + i, needle, sizeof needle - 1) == 0)
            return 95;
    return 85;
}

/* What an AQTime file can do beyond its views: its own exports. */
static const pv_file_hooks aq_file_hooks = {0};

/* Tables of at least this many rows (by their largest rowid) are read in
 * the background when the caller steps the load (docs/aqtime.md "First
 * screen"); the test option aq-defer-rows sets it for the tests (0: every
 * profiler table). */
#define AQ_DEFER_ROWS 200000

static pv_load_status aq_load(pv_file *f, const pv_load_options *o)
{
    sqlite3 *db = NULL;
    /* SQLite reads a path, not a pipe: a stream input goes through a private
     * temporary copy, removed as soon as SQLite holds it open (immutable: it
     * never opens the file again). */
    char *tmp;
    int err = pv_input_temp_copy(f->path, &tmp);
    if (err) {
        pv_error(&f->diag, "%s: cannot copy the input to a temporary file: %s", f->path,
                 strerror(err));
        return PV_LOAD_ERROR;
    }
    /* hostile input (docs/input.md "Databases"): hardened, its work
     * bounded, Ctrl-C honoured while the file loads; with its WAL */
    aq_db *a = pv_xcalloc(1, sizeof *a);
    struct stat fst;
    pv_db_guard_init(&a->guard, stat(tmp ? tmp : f->path, &fst) == 0 ? (uint64_t)fst.st_size : 0,
                     o->progress.cancel);
    bool wal;
    char *uri = pv_db_input_uri(tmp ? tmp : f->path, &wal);
    char *note;
    int rc = pv_db_open_input(tmp ? tmp : f->path, uri, SQLITE_OPEN_NOMUTEX, &a->guard, &db,
                              &note);
    if (note) {
        pv_warn(&f->diag, "%s", note);
        free(note);
    }
    /* Every table is read once, in order: a page cache of 256 KB does (the
     * default is 2 MB per connection; docs/aqtime.md, Scale). */
    if (rc == SQLITE_OK)
        sqlite3_exec(db, "PRAGMA cache_size = -256", NULL, NULL, NULL);
    /* A file (not a stream's copy) can be opened again: a large table is
     * then read by two threads (docs/aqtime.md, Scale). */
    if (tmp) {
        free(uri);
        uri = NULL;
    }
    pv_input_remove_temp(tmp);
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: cannot open as a SQLite database: %s", f->path,
                 db ? pv_db_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        free(uri);
        free(a);
        return PV_LOAD_ERROR;
    }
    return aq_load_db(f, o, db, uri, a);
}

pv_load_status aq_load_db(pv_file *f, const pv_load_options *o, sqlite3 *db, char *uri, aq_db *a)
{
    if (!a)
        a = pv_xcalloc(1, sizeof *a); /* its guard bounds no connection of its own */
    a->path = pv_xstrdup(f->path);
    a->uri = uri;
    a->test = o->test;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        a->tables[t].name = aq_table_specs[t].name;
        a->tables[t].inst_col = AQ_NONE;
        pv_strpool_init(&a->tables[t].pool);
    }
    f->loader_data = a;
    f->loader_free = aq_db_free;
    f->hooks = &aq_file_hooks;
    if (!aq_find_tables(f, db, a)) {
        sqlite3_close(db);
        return PV_LOAD_ERROR;
    }
    bool any = false;
    for (size_t p = 0; p < AQ_PROF_COUNT; p++)
        any = any || a->has_profiler[p];
    if (!any) {
        pv_error(&f->diag, "%s: a SQLite database without AQTime tables (no "
                 "FUNCTION_TRACE_PROFILER_*, RESOURCE_PROFILER_* or REFERENCE_COUNT_PROFILER_* "
                 "table)", f->path);
        sqlite3_close(db);
        return PV_LOAD_ERROR;
    }
    /* A subset exported with its view as shown (docs/export.md "AQTime
     * subsets") is read at once: its stored views replace the built ones,
     * which a background read would build later. */
    sqlite3_stmt *probe = NULL;
    bool stored_views =
        sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = 'profview_views'", -1,
                           &probe, NULL) == SQLITE_OK &&
        sqlite3_step(probe) == SQLITE_ROW;
    sqlite3_finalize(probe);
    bool wanted[AQ_T_COUNT], deferred[AQ_T_COUNT];
    uint64_t hint[AQ_T_COUNT];
    aq_read_progress prog = {&o->progress, 0, 0, false, NULL, NULL, &o->test};
    uint64_t defer_rows = (uint64_t)pv_test_get(&o->test, PV_TEST_AQ_DEFER_ROWS, AQ_DEFER_ROWS);
    uint64_t deferred_total = 0;
    bool any_deferred = false;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        aq_table *tab = &a->tables[t];
        wanted[t] = t == AQ_T_INSTANCES || t == AQ_T_RELATIONS;
        for (size_t p = 0; p < AQ_PROF_COUNT; p++)
            if (a->has_profiler[p] &&
                strncasecmp(tab->name, aq_profiler_prefix[p], strlen(aq_profiler_prefix[p])) == 0)
                wanted[t] = true;
        hint[t] = wanted[t] && tab->db_name ? aq_table_size_hint(db, tab->db_name) : 0;
        /* docs/aqtime.md "First screen": the large profiler tables of a load
         * that the caller steps are read by a thread of the loader. */
        deferred[t] = o->steps && !stored_views && wanted[t] && tab->db_name && t != AQ_T_INSTANCES &&
                      t != AQ_T_RELATIONS && hint[t] >= defer_rows;
        if (deferred[t]) {
            any_deferred = true;
            deferred_total += hint[t];
        } else {
            prog.total += hint[t];
        }
    }
    /* Messages of the reads, per table (the background read adds its own
     * tables' later), so that they reach the file in table order. */
    pv_diag tdiag[AQ_T_COUNT];
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        pv_diag_init(&tdiag[t]);
    for (size_t t = 0; t < AQ_T_COUNT && !prog.cancelled; t++) {
        aq_table *tab = &a->tables[t];
        if (!wanted[t] || deferred[t])
            continue;
        pv_diag *d = any_deferred ? &tdiag[t] : &f->diag;
        if (!tab->db_name) {
            if (t != AQ_T_RELATIONS && !tab->is_view)
                pv_warn(d, "%s: table %s is missing: what it holds is shown empty",
                        f->path, tab->name);
            continue;
        }
        aq_read_table(f->path, d, db, a->uri, (aq_table_id)t, tab, &prog);
        aq_index_table(tab);
    }
    if (prog.cancelled) {
        for (size_t t = 0; t < AQ_T_COUNT; t++)
            pv_diag_free(&tdiag[t]);
        sqlite3_close(db);
        pv_error(&f->diag, "%s: cancelled", f->path);
        return PV_LOAD_ERROR;
    }
    if (any_deferred) {
        /* The result sets as INSTANCES and the tables read say (the seed:
         * INSTANCES lists every result set); their views fill in when the
         * background read is done. */
        pv_file *plan = pv_xcalloc(1, sizeof *plan);
        plan->path = pv_xstrdup(f->path);
        aq_make_sets(f, a, plan);
        pv_file_free(plan);
        if (f->set_count > 0) {
            atomic_store(&a->guard.cancel, NULL); /* Ctrl-C was for the load */
            aq_defer_start(f, a, db, deferred, tdiag, deferred_total);
            return PV_LOAD_OK;
        }
        /* Nothing to show without the large tables: read them now. */
        for (size_t t = 0; t < AQ_T_COUNT && !prog.cancelled; t++) {
            if (!deferred[t])
                continue;
            prog.total += hint[t];
            aq_read_table(f->path, &tdiag[t], db, a->uri, (aq_table_id)t, &a->tables[t], &prog);
            aq_index_table(&a->tables[t]);
        }
        for (size_t t = 0; t < AQ_T_COUNT; t++) {
            aq_diag_append(&f->diag, &tdiag[t]);
            pv_diag_free(&tdiag[t]);
        }
        if (prog.cancelled) {
            sqlite3_close(db);
            pv_error(&f->diag, "%s: cancelled", f->path);
            return PV_LOAD_ERROR;
        }
    }
    atomic_store(&a->guard.cancel, NULL);
    aq_make_sets(f, a, NULL);
    bool stored_ok = !stored_views || pv_db_read_stored_views(f, db);
    sqlite3_close(db);
    if (!stored_ok)
        return PV_LOAD_ERROR;
    if (f->set_count == 0) {
        pv_error(&f->diag, "%s: no result set: INSTANCES and the profiler tables hold no rows",
                 f->path);
        return PV_LOAD_ERROR;
    }
    return PV_LOAD_OK;
}

void aq_diag_append(pv_diag *to, const pv_diag *from)
{
    size_t warnings = 0;
    for (size_t i = 0; i < from->entry_count; i++) {
        pv_diag_add(to, from->entries[i].severity, "%s", from->entries[i].text);
        warnings += from->entries[i].severity != PV_SEV_ERROR;
    }
    /* the warnings counted but not kept */
    to->warnings += from->warnings - warnings;
}

const pv_loader pv_loader_aqtime = {
    "aqtime",
    "AQTime Function Trace, Resource and Reference Count results (SQLite database)",
    aq_probe,
    aq_load,
    pv_aq_export,
};
