/* output.h - writing view rows as TSV, CSV or JSON (docs/cli.md): the
 * exact text of the cells, shared by the CLI (`profview cat`, `profview
 * sql`) and the viewer (y, Y, :copy). */
#ifndef PROFVIEW_OUTPUT_H
#define PROFVIEW_OUTPUT_H

#include <stdio.h>

#include "profview/model.h"

typedef enum pv_out_format {
    PV_OUT_TSV,
    PV_OUT_CSV,
    PV_OUT_JSON,
} pv_out_format;

bool pv_out_format_parse(const char *s, pv_out_format *f);
/* Writes a JSON string literal (quotes included), control characters as \u00NN. */
void pv_json_string(pv_buf *out, const char *s, size_t len);
/* Writes the header (column ids) and the rows: `rows` are row indices of v,
 * or NULL for rows 0 .. row_count-1 in view order (so that printing the
 * first rows of a 50 M-row view needs no row array); `cols` column indices.
 * Returns false on a write error. */
bool pv_write_rows(FILE *fp, const pv_view *v, const size_t *cols, size_t col_count,
                   const pv_row *rows, size_t row_count, pv_out_format format);
/* The same, the rows being the continuation of a list whose last row
 * written before is `prev_row` (PV_NO_ROW: none): a delta column
 * (PV_COL_SINCE_PREV) counts from the row before in the list. */
bool pv_write_rows_after(FILE *fp, const pv_view *v, const size_t *cols, size_t col_count,
                         const pv_row *rows, size_t row_count, pv_out_format format,
                         size_t prev_row);

#endif
