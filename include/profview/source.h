/* source.h - the source beside the numbers (docs/source.md): the `source`
 * detail view of a routine or a line, built by the model from a path the
 * profiler wrote, the search directories the user gave and the per-line
 * figures of a view of the profile.  Formats offer the detail (a
 * `{"source", "Source"}` entry in their detail list) and fill a
 * pv_source_req; every consumer reads the result as a plain view. */
#ifndef PROFVIEW_SOURCE_H
#define PROFVIEW_SOURCE_H

#include "profview/model.h"

/* ---- the search directories of this process (--source-path, then the
 * config's source-paths; docs/source.md "Finding the file") */

void pv_source_path_add(const char *dir);
void pv_source_path_clear(void);
size_t pv_source_path_count(void);

/* Finds the file a profiler named `path` (Windows or POSIX separators, a
 * drive letter or not): the path itself when it names a readable file,
 * else under each search directory its trailing components, longest
 * first, matched case-insensitively.  Returns the malloc'd path found, or
 * NULL with where it looked appended to `why` (may be NULL). */
char *pv_source_find(const char *path, pv_buf *why);

/* Where the figures of the gutter come from: rows of `view` whose column
 * `path_col` names the same file (compared as written, separators and
 * case aside) give, at their line (`line_col`), the cells of `cols`
 * (summed when several rows share a line and the column is INT or TIME;
 * else the first).  `text_col` (or PV_NO_ROW) is the line's text as the
 * profile carries it (PLIST text reports), used when the file is not
 * found. */
typedef struct pv_source_gutter {
    const pv_view *view;
    size_t path_col, line_col, text_col;
    const size_t *cols;
    size_t col_count;
} pv_source_gutter;

typedef struct pv_source_req {
    const char *path; /* as the profiler wrote it; NULL: no file, only the profile's text */
    /* The gutter's rows are those whose path column names this (NULL: path)
     * — with no file, what groups the lines (their function) */
    const char *key;
    int64_t line;     /* the line to show first (the routine's), 0: none */
    pv_source_gutter gutter; /* .view NULL: no figures */
    /* More of the profile's text (lines without figures), used like the
     * gutter's text_col; .view NULL: none */
    pv_source_gutter text_only;
} pv_source_req;

/* The `source` view (id "source"): `line`, `text` (tabs expanded to 8
 * columns), then the gutter's columns; its first_row hook is the row of
 * req->line.  NULL when neither the file nor the profile's own text is
 * there: why the file was not found is then appended to `why` (may be
 * NULL). */
pv_view *pv_source_open(const pv_source_req *req, const char *title, pv_buf *why);

/* The `source` detail of row `row` of `v` whose gutter is `v` itself (a
 * lines view, a routines view): the path and the line of the row from the
 * columns `path_id` and `line_id`, the profile's text from `text_id` (or
 * NULL) and from `text_only` (more of it, pv_source_req; or NULL), the
 * figures from the columns named in `figs` (NULL-ended; those the view
 * lacks are skipped).  NULL when the row has no source (no path, or an
 * empty one and none of the profile's text); why goes to pv_detail_why(). */
pv_view *pv_source_of_row(const pv_view *v, size_t row, const char *path_id, const char *line_id,
                          const char *text_id, const pv_source_gutter *text_only,
                          const char *const *figs);

#endif
