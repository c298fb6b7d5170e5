/*
 * table.h - pv_table, the generic materialised view.
 *
 * A loader declares the columns, adds rows and sets cells; the table is then
 * a pv_view like any other.  Cells are stored column by column as 8-byte
 * values with a presence bit; strings live in the table's own pool.  Rows of
 * a tree must be added in pre-order (parent before children).
 *
 *     pv_table *t = pv_table_new("routines", "Routines", cols, n);
 *     size_t r = pv_table_add_row(t);
 *     pv_table_set_int(t, r, COL_HITS, 12);
 *     pv_set_add_view(set, pv_table_view(t));
 */
#ifndef PROFVIEW_TABLE_H
#define PROFVIEW_TABLE_H

#include "profview/model.h"

typedef struct pv_table pv_table;

/* Opens detail `detail` of `row` of `owner`; `ctx` is the pointer given to
 * pv_table_set_details.  Returns NULL when the row has no such detail. */
typedef pv_view *(*pv_table_detail_fn)(void *ctx, const pv_view *owner, size_t detail,
                                       size_t row);

/* Column ids and titles are copied. */
pv_table *pv_table_new(const char *id, const char *title, const pv_column *columns,
                       size_t column_count);
/* The table's pv_view (the same object for its whole life). */
pv_view *pv_table_view(pv_table *t);
/* Makes the table a tree (every row starts at the top). */
void pv_table_make_tree(pv_table *t);
void pv_table_reserve(pv_table *t, size_t rows);
/* Appends an empty row and returns its index. */
size_t pv_table_add_row(pv_table *t);
size_t pv_table_row_count(const pv_table *t);
/* Tree tables: parent < row (pre-order), or PV_NO_ROW. */
void pv_table_set_parent(pv_table *t, size_t row, size_t parent);

void pv_table_set_int(pv_table *t, size_t row, size_t col, int64_t value);   /* INT, TIME */
void pv_table_set_float(pv_table *t, size_t row, size_t col, double value);  /* FLOAT */
void pv_table_set_uint(pv_table *t, size_t row, size_t col, uint64_t value); /* HANDLE, HEX */
void pv_table_set_str(pv_table *t, size_t row, size_t col, const char *s, size_t len);
void pv_table_set_cstr(pv_table *t, size_t row, size_t col, const char *s);
void pv_table_clear(pv_table *t, size_t row, size_t col); /* make the cell absent */
/* Reads back a stored value (for loaders that derive columns). */
bool pv_table_get_int(const pv_table *t, size_t row, size_t col, int64_t *value);

/* Declares detail views (static array) opened through `fn`.  `ctx_free`, if
 * given, is called on ctx when the table is freed. */
void pv_table_set_details(pv_table *t, const pv_detail_def *details, size_t count,
                          pv_table_detail_fn fn, void *ctx, void (*ctx_free)(void *));
/* Changes a column's title (e.g. the counter name of an AQTime result). */
void pv_table_set_column_title(pv_table *t, size_t col, const char *title);

/* A summary ("Fact" / "Value" rows, view id "summary"): columns id, key,
 * value (the exact text) and time (the value as a time in ns, for the facts
 * that are times, so that the viewer shows them with units; docs/cli.md). */
pv_table *pv_summary_new(void);
const pv_column *pv_summary_columns(size_t *count);
void pv_summary_add(pv_table *t, const char *key, const char *value);
void pv_summary_add_time(pv_table *t, const char *key, int64_t ns);

#endif
