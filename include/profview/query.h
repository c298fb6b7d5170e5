/*
 * query.h - the filter language (docs/filter.md) and sorting, over any view.
 *
 * A filter is compiled once against a view's columns and evaluated through
 * the typed cell accessor; it never allocates per row.  Row selections are
 * arrays of row numbers (pv_row, 32 bits: model.h) into the view, so the
 * view itself is never copied.
 */
#ifndef PROFVIEW_QUERY_H
#define PROFVIEW_QUERY_H

#include "profview/model.h"

typedef struct pv_query_error {
    size_t position;    /* 0-based byte offset of the offending character */
    char message[256];  /* e.g. "unexpected ')' at column 14" */
} pv_query_error;

/* Writes the expression, a caret line under the offending character and the
 * message (three lines) into out. */
void pv_query_error_render(const pv_query_error *err, const char *expr, pv_buf *out);

typedef struct pv_filter pv_filter;

/* Compiles `expr` for the columns of `v`.  Returns NULL and fills *err on a
 * malformed expression, an unknown column or incompatible types.  An empty
 * or all-blank expression compiles to NULL with err->message[0] == 0 (no
 * filter).  Compiling touches nothing else, so a caller keeps its previous
 * filter in force simply by replacing it only on success.  The grammar and
 * the type rules are in docs/filter.md. */
pv_filter *pv_filter_compile(const pv_view *v, const char *expr, pv_query_error *err);
/* True when `row` of `v` matches; `v` must be the view the filter was
 * compiled for.  A filter keeps per-group answers and one scratch buffer, so
 * it is evaluated by one thread at a time.  f == NULL matches every row. */
bool pv_filter_match(const pv_filter *f, const pv_view *v, size_t row);
void pv_filter_free(pv_filter *f);

/* Selects the rows of `v` (all rows in view order when `in` is NULL, else
 * the `n` rows of `in`) that match; in a tree, keeps the matching rows and
 * their ancestors, in pre-order.  Returns the number of rows written to
 * `out` (room for n, or pv_view_rows(v) when in is NULL); *matched (if not
 * NULL) receives the number of rows that matched themselves.  `out` may be
 * `in` (filtering in place).  A filter with f == NULL keeps every row.  In a
 * tree, an ancestor that is not in `in` is not added (there is no room for
 * it): pass every row (in == NULL) to keep whole ancestor chains. */
size_t pv_filter_rows(const pv_filter *f, const pv_view *v, const pv_row *in, size_t n,
                      pv_row *out, size_t *matched);
/* One slice of a tree's filter (the viewer filters a big call tree between
 * key presses): marks in keep (pv_view_rows(v) bytes, zeroed before the
 * first slice) the rows of [from, to) that match (1) and their ancestors
 * (2, where not yet marked).  Returns how many of those rows matched.  After
 * every slice, the rows with keep[row] != 0 are what pv_filter_rows keeps. */
size_t pv_filter_mark_tree(const pv_filter *f, const pv_view *v, size_t from, size_t to,
                           uint8_t *keep);

typedef struct pv_sort_key {
    size_t column;
    bool descending;
} pv_sort_key;

#define PV_SORT_MAX_KEYS 8

/* Parses "COL[:desc|:asc][,COL...]" (column ids case-insensitive; the
 * default is ascending).  Returns false and fills *err (position = the
 * offending character) on an unknown column, a bad direction or more than
 * PV_SORT_MAX_KEYS keys. */
bool pv_sort_parse(const pv_view *v, const char *spec, pv_sort_key *keys, size_t *key_count,
                   pv_query_error *err);
/* Sorts the selection `rows` stably by the keys.  In a tree, siblings are
 * sorted among themselves and the pre-order shape is kept. */
void pv_sort_rows(const pv_view *v, const pv_sort_key *keys, size_t key_count, pv_row *rows,
                  size_t n);

/* Sorting in steps (the same order as pv_sort_rows), for a viewer that must
 * not block: pv_sort_job_step does about `budget` rows of work and returns
 * true when the order is known; pv_sort_job_take then hands over the sorted
 * selection (n rows; the caller frees it).  `rows` (NULL: every row of v in
 * view order) must stay unchanged until the job is freed.  Freeing an
 * unfinished job changes nothing. */
typedef struct pv_sort_job pv_sort_job;
pv_sort_job *pv_sort_job_new(const pv_view *v, const pv_sort_key *keys, size_t key_count,
                             const pv_row *rows, size_t n);
/* Every later step also ends at this CLOCK_MONOTONIC time in seconds (0:
 * none), whatever is left of its budget (docs/tui.md "Long operations"). */
void pv_sort_job_deadline(pv_sort_job *j, double deadline);
bool pv_sort_job_step(pv_sort_job *j, size_t budget);
double pv_sort_job_progress(const pv_sort_job *j);
pv_row *pv_sort_job_take(pv_sort_job *j);
void pv_sort_job_free(pv_sort_job *j);
/* How many sorts were made (pv_sort_rows and jobs), for tests that check
 * that something did not sort again. */
size_t pv_sort_runs(void);

#endif
