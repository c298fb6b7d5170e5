/*
 * sql.h - SQL over the loaded model (docs/sql.md).
 *
 * Every view of every result set added is an SQLite virtual table over the
 * view itself (no copy of the rows): table names are view ids with `-` as
 * `_`, columns are the view's column ids.  Result set k (counted over the
 * files in the order they were added, from 1) is schema `rk`; the first is
 * also `main`; every result set's view V is also `main.rk_V`.  Detail views
 * of a result set's views are table-valued functions taking the parent
 * row's id: `SELECT * FROM callers(12)`.
 * Queries are read-only: one statement, no writes, no ATTACH, no extensions.
 *
 *     pv_sql *s = pv_sql_new();
 *     pv_sql_add_file(s, f);
 *     pv_sql_error err;
 *     pv_view *result = pv_sql_query(s, "SELECT count(*) FROM timeline", &err);
 */
#ifndef PROFVIEW_SQL_H
#define PROFVIEW_SQL_H

#include "profview/model.h"

typedef struct pv_sql pv_sql;

typedef struct pv_sql_error {
    char message[512];
    /* byte offset in the query of the place the message is about, or -1 */
    int offset;
    /* true when the query was stopped by the progress callback */
    bool interrupted;
} pv_sql_error;

/* Called every few thousand steps of a running query with the number of
 * result rows so far and of view rows visited; returning false stops it. */
typedef bool (*pv_sql_progress_fn)(void *ctx, uint64_t result_rows, uint64_t rows_visited);

pv_sql *pv_sql_new(void);
void pv_sql_free(pv_sql *s);
/* Exposes every result set of f (the file must outlive s).  Result sets past
 * SQLite's limit of attached schemas have no schema `rk`: their tables are
 * `rk_VIEW` in main (made when a query names them; so are those of every
 * other result set, docs/sql.md). */
void pv_sql_add_file(pv_sql *s, const pv_file *f);
/* Warnings from pv_sql_add_file (a text, possibly empty). */
const char *pv_sql_notes(const pv_sql *s);
void pv_sql_set_progress(pv_sql *s, pv_sql_progress_fn fn, void *ctx);

/* Runs one read-only statement and returns its result as a table view
 * (column ids are the result's column names; times, handles and hex values
 * keep their types when a column is one of a view's).  The caller frees the
 * view.  NULL on error, with *err filled. */
pv_view *pv_sql_query(pv_sql *s, const char *query, pv_sql_error *err);

/* Whether the last pv_sql_query read a view of f (scanned one of its
 * tables or called one of its detail functions): a result made from f,
 * stale once f is loaded again (docs/tui.md ":reload"). */
bool pv_sql_read_file(const pv_sql *s, const pv_file *f);

/* View rows the virtual tables have visited since pv_sql_new (a cursor step
 * each): what the index use saves shows here. */
uint64_t pv_sql_rows_visited(const pv_sql *s);

/* A GROUP BY on a column of few values, in a query that reads one table
 * and nothing else, runs as one aggregate per group (docs/sql.md): on by
 * default; off, SQLite runs it as written (the tests compare the two).
 * pv_sql_group_runs counts the statements run for one group,
 * pv_sql_group_folds those of them whose aggregates profview computed. */
void pv_sql_set_group_runs(pv_sql *s, bool on);
uint64_t pv_sql_group_runs(const pv_sql *s);
uint64_t pv_sql_group_folds(const pv_sql *s);

/* Names for completion that start with `prefix` (case-insensitive): table
 * names, table-valued functions, schema names and, after "table.", that
 * table's columns.  Calls fn for each; the name is valid during the call. */
void pv_sql_complete(pv_sql *s, const char *prefix, void (*fn)(void *ctx, const char *name),
                     void *ctx);

/* The table name of a view id (`-` as `_`), into out (a NUL-terminated
 * string of at most out_size bytes). */
void pv_sql_table_name(const char *view_id, char *out, size_t out_size);

#endif
