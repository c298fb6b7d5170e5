/* group.h - call trees grouped by thread in the TUI (docs/cli.md:
 * "threads are a column here, and group the tree in the TUI"). */
#ifndef PROFVIEW_TUI_GROUP_H
#define PROFVIEW_TUI_GROUP_H

#include "profview/model.h"

/* When `base` is a tree with a `thread` column holding at least two
 * distinct values at its top level, returns a view over it with one node
 * per thread ("Thread 12" for a number, else the name, e.g. a winIDEA
 * context) holding that thread's calls, in their order.  Otherwise NULL.
 * The new view reads cells, parents and details through `base` (which must
 * outlive it); freeing it leaves `base` alone.  Costs 8 bytes per row
 * when threads interleave, none when each thread's calls are one block. */
pv_view *pv_group_by_thread(pv_view *base);
/* pv_group_by_thread in steps (docs/tui.md "Long operations"): NULL when
 * `base` cannot be grouped at all (not a tree, no `thread` column);
 * pv_group_job_step does about b->units units (rows), takes them from
 * b and stops at b->deadline (core.h pv_phases_run), and returns true when
 * finished; pv_group_job_take then gives the grouped view (the caller
 * frees it) or NULL when the tree is not grouped (fewer than two threads).
 * Freeing an unfinished job frees what it built.  The grouping reads a
 * block of rows at once where the base offers column_run on `thread`
 * (profview/hooks.h), and costs no memory per row when each thread's
 * calls are one block of the base. */
typedef struct pv_group_job pv_group_job;
pv_group_job *pv_group_job_new(pv_view *base);
bool pv_group_job_step(pv_group_job *j, pv_budget *b);
double pv_group_job_progress(const pv_group_job *j);
pv_view *pv_group_job_take(pv_group_job *j);
void pv_group_job_free(pv_group_job *j);
/* The row of `v` that shows row `row` of `base`: the same row when `v` is
 * `base`, its place among the thread nodes when `v` groups `base`, else
 * PV_NO_ROW.  The grouped view forwards the base's capability hooks
 * (profview/hooks.h) with the rows mapped. */
size_t pv_group_row_of(const pv_view *v, const pv_view *base, size_t row);

#endif
