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
 * outlive it); freeing it leaves `base` alone.  Costs 8 bytes per row. */
pv_view *pv_group_by_thread(pv_view *base);
/* The row of `v` that shows row `row` of `base`: the same row when `v` is
 * `base`, its place among the thread nodes when `v` groups `base`, else
 * PV_NO_ROW.  The grouped view forwards the base's capability hooks
 * (profview/hooks.h) with the rows mapped. */
size_t pv_group_row_of(const pv_view *v, const pv_view *base, size_t row);

#endif
