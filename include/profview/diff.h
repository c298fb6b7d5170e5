/*
 * diff.h - the difference of two views of the same kind (two files, two
 * result sets, two time windows): rows matched by identity, and for every
 * numeric column C the columns C_a, C_b, C_delta (b - a) and C_ratio (b / a).
 * The result is a view like any other (docs/diff.md), computed on demand
 * from the two views, which must outlive it.
 */
#ifndef PROFVIEW_DIFF_H
#define PROFVIEW_DIFF_H

#include "profview/model.h"

typedef struct pv_diff_counts {
    size_t matched; /* rows found in both */
    size_t only_a;  /* rows of a without a partner in b */
    size_t only_b;
} pv_diff_counts;

/* Matches the rows of a and b by their key columns (PV_COL_KEY columns of a;
 * without any, every text, handle and hex column) and builds the diff view:
 * `id`, `match` (`both`, `a`, `b`), the key columns, then C_a, C_b, C_delta,
 * C_ratio for each INT/TIME/FLOAT column C of a that measures (except `id`
 * and `parent`); an INT column that names or places a row (an index, a
 * line, another row's id: docs/diff.md "Columns") gives C_a and C_b only.
 * A key repeated within one side is matched in order of appearance (the
 * n-th row with that key in a with the n-th in b).  Rows of a come first in
 * a's order, then the rows only in b in b's order.  `rows_a`/`rows_b`
 * select rows (NULL: all).  The view reads a and b (free it first).
 * Returns NULL with a message when b lacks a key
 * column of a.  `counts` may be NULL.  At once: pv_diff_views; in steps
 * (the viewer's :diff): pv_diff_begin, pv_diff_step until true,
 * pv_diff_take, pv_diff_job_free (at any step: nothing else changes). */
pv_view *pv_diff_views(const pv_view *a, const pv_row *rows_a, size_t count_a, const pv_view *b,
                       const pv_row *rows_b, size_t count_b, pv_diff_counts *counts, char *err,
                       size_t err_len);

typedef struct pv_diff_job pv_diff_job;
enum {
    PV_DIFF_ASCII = 1u << 0, /* titles in ASCII: "d Time", "x Time" for "Δ Time", "× Time" */
};
/* The comparison of pv_diff_views as a job (flags: PV_DIFF_*); NULL with
 * a message as pv_diff_views. */
pv_diff_job *pv_diff_begin(const pv_view *a, const pv_row *rows_a, size_t count_a, const pv_view *b,
                           const pv_row *rows_b, size_t count_b, unsigned flags, char *err,
                           size_t err_len);
/* Matches about b->units rows, stopping once b->deadline has passed; true
 * when all is matched. */
bool pv_diff_step(pv_diff_job *j, pv_budget *b);
/* 0..1 */
double pv_diff_progress(const pv_diff_job *j);
/* The diff view once pv_diff_step said true (NULL before); counts may be
 * NULL. */
pv_view *pv_diff_take(pv_diff_job *j, pv_diff_counts *counts);
void pv_diff_job_free(pv_diff_job *j);

/* Whether column `col` of a diff view is a C_delta column (the viewer colours
 * it), and the sign that is an improvement: the columns of times and counts
 * improve when they fall. */
bool pv_diff_is_delta_column(const pv_view *diff, size_t col);

#endif
