/* report.h - the generic report core shared by the Report and Details panes
 * (docs/code-style.md habit 2): selection, scrolling, tree expand/collapse, filter,
 * sort, search and column choice over any pv_view.  Curses-free.
 *
 * Rows are addressed three ways: the model row (index in the view), the
 * selection (model rows after filter and sort, in pre-order for trees; the
 * identity when neither is set, without materialising it), and the visible
 * list (the selection minus the descendants of collapsed tree nodes).
 * Drawing asks only for the visible rows it shows, so a 50 M-row view
 * scrolls like a 50-row one. */
#ifndef PROFVIEW_TUI_REPORT_H
#define PROFVIEW_TUI_REPORT_H

#include "profview/model.h"
#include "profview/query.h"

typedef struct pv_report {
    pv_view *view;
    bool owned;  /* free the view with the report (drilled-down details) */
    pv_row *sel; /* NULL: every row, in view order (4 bytes a row, model.h) */
    size_t sel_count;
    /* Trees only (visible list built from pv_view_parent, pre-order). */
    uint8_t *collapsed;  /* bit per model row */
    uint8_t *has_kids;   /* bit per model row: has children in the selection */
    pv_row *vis;         /* NULL for tables: the selection is the visible list */
    uint32_t *vis_depth; /* depth of each visible row */
    size_t vis_count;
    size_t vis_cap; /* rows vis and vis_depth have room for (>= vis_count) */
    /* Trees: the first selection position after the subtree of each
     * position (sub_count of them, from the last layout), so that opening
     * a node or the path to a row skips the collapsed subtrees below it. */
    pv_row *sub_end;
    size_t sub_count;
    size_t cursor;   /* index in the visible list */
    size_t top;      /* first visible index drawn */
    /* The cursor was put on a row of its own choosing (a jump: :goto, t,
     * search, J/K, a drill-down...), not moved by a step: the next drawing
     * centres it unless it is on screen (docs/tui.md "Jumps"). */
    bool jumped;
    size_t hscroll;  /* the column scrolled to (a position in the drawing order) */
    size_t scrolled_to; /* that column as last drawn (PV_NO_ROW: none), the
                           first after those that stay (the first, the key) */
    uint8_t *hidden; /* per column: not shown */
    int *widths;     /* per column: width learnt from the rows drawn so far */
    pv_sort_key sort[PV_SORT_MAX_KEYS];
    size_t sort_count;
    char *filter;   /* owned: the expression in force ("" = none), any length */
    size_t matched; /* rows that matched the filter themselves */
    /* Trees with a filter: bit per model row, set when the row matched
     * itself (the others are kept as context: ancestors of a match). */
    uint8_t *self_match;
    char *bad_column; /* owned: the configured column id that is not the view's, or NULL */
    /* Per column, how its times are drawn now (app_draw.c, docs/tui.md
     * "Times"): 0 each in its own unit; else unit * 16 + decimals, one unit
     * and enough digits to tell the rows on screen apart. */
    uint8_t *time_fmt;
    /* Where the blocks the report no longer needs go (the previous
     * selection, visible list...: hundreds of MB on a big view), to be
     * given back in steps between key presses (core.h); NULL: freed at
     * once.  Set by the viewer; outlives the report. */
    pv_trash *trash;
} pv_report;

/* Views with at most this many cells have their empty columns hidden when
 * opened (a scan of every cell; bigger views show them unless the view
 * knows: pv_view_column_empty). */
#define PV_REPORT_EMPTY_SCAN_CELLS 4000000

/* Opens a report over v.  `columns` ("a,b,c", from the config) picks the
 * shown columns when not NULL; otherwise PV_COL_HIDDEN columns are hidden.
 * Trees with more than PV_REPORT_EXPAND_LIMIT rows start with only their
 * top level shown, smaller ones fully expanded. */
#define PV_REPORT_EXPAND_LIMIT 20000
/* Rows a Report with a lane strip keeps for its events before the strip
 * and the Details give up lines (docs/tui.md "Layout"). */
#define PV_REPORT_ROWS_MIN 12
void pv_report_open(pv_report *r, pv_view *v, bool owned, const char *columns);
void pv_report_close(pv_report *r);

static inline size_t pv_report_count(const pv_report *r)
{
    return r->vis ? r->vis_count : r->sel ? r->sel_count : pv_view_rows(r->view);
}
/* Model row at visible index i (< count). */
static inline size_t pv_report_row(const pv_report *r, size_t i)
{
    return r->vis ? r->vis[i] : r->sel ? r->sel[i] : i;
}
/* The selected model row, or PV_NO_ROW when the report is empty. */
size_t pv_report_selected(const pv_report *r);
static inline size_t pv_report_depth(const pv_report *r, size_t i)
{
    return r->vis_depth ? r->vis_depth[i] : 0;
}
bool pv_report_has_kids(const pv_report *r, size_t model_row);
bool pv_report_is_collapsed(const pv_report *r, size_t model_row);

/* Moves the cursor by delta (clamped). */
void pv_report_move(pv_report *r, long delta);
void pv_report_move_to(pv_report *r, size_t index);
/* Selects the model row (expanding its ancestors); false when it is not in
 * the selection (filtered out). */
bool pv_report_select_row(pv_report *r, size_t model_row);

typedef enum pv_tree_op {
    PV_TREE_TOGGLE,
    PV_TREE_EXPAND,
    PV_TREE_COLLAPSE,
    PV_TREE_EXPAND_ALL,
} pv_tree_op;
/* Applies op to the selected node.  Returns false when it is not a node
 * with children (COLLAPSE on a leaf moves to its parent). */
bool pv_report_tree(pv_report *r, pv_tree_op op);

/* Rebuilds a tree's visible list from the collapsed bits in one pass (what
 * the splicing of pv_report_tree must always agree with). */
void pv_report_refresh(pv_report *r);

/* Shown columns, in view order; returns how many were written to out. */
size_t pv_report_shown(const pv_report *r, size_t *out, size_t max);
/* Sets the shown columns from "a,b,c"; false (nothing changed) when a name
 * is unknown, naming it in bad (replaced). */
bool pv_report_set_columns(pv_report *r, const char *spec, pv_buf *bad);

/* Compiles and applies a filter (docs/filter.md); "" clears it.  On error the
 * previous filter stays and err says where. */
bool pv_report_set_filter(pv_report *r, const char *expr, pv_query_error *err);
/* Sorts by keys (count 0: view order); keeps the selected row selected. */
void pv_report_set_sort(pv_report *r, const pv_sort_key *keys, size_t count);
/* Appends the sort as "col:desc,col" text (for history and the status bar). */
void pv_report_sort_text(const pv_report *r, pv_buf *out);
bool pv_report_apply_sort_text(pv_report *r, const char *spec, pv_query_error *err);

/* Does the text occur (case-insensitive) in a shown cell of the model row?
 * Searches the data (strings as stored; numbers in their exact text), not
 * what is drawn. */
bool pv_report_row_matches(const pv_report *r, size_t model_row, const char *text);
bool pv_report_cell_matches(const pv_report *r, size_t model_row, size_t col, const char *text);
/* Finds the next (dir > 0) or previous visible row from index `from`
 * (inclusive) that matches, wrapping around.  Returns the visible index or
 * PV_NO_ROW. */
size_t pv_report_search(const pv_report *r, const char *text, size_t from, int dir);
/* The same, looking at no more than `limit` rows; *complete is false when it
 * stopped at the limit without a match (the incremental search of a huge
 * view must not block a key press). */
size_t pv_report_search_some(const pv_report *r, const char *text, size_t from, int dir,
                             size_t limit, bool *complete);

/* A tree row kept by the filter only as the ancestor of a match (drawn
 * apart from the matches, docs/tui.md). */
bool pv_report_is_context(const pv_report *r, size_t model_row);

/* ---- long work in steps (docs/tui.md "Long operations")
 *
 * Search, filter, sort and reverse as jobs that do about `budget` rows of
 * work per pv_report_job_step, so that a viewer shows their progress and
 * reads keys between steps.  The report is changed only by the step that
 * finishes; freeing an unfinished job leaves it as it was (the previous
 * filter, sort and cursor).  A tree's new visible list is laid out in
 * steps too, and the finishing step only swaps it in (the old one goes to
 * r->trash). */
typedef struct pv_report_job pv_report_job;
/* Finds text from visible index `from` (inclusive) in direction dir,
 * wrapping around; in a tree it looks into collapsed nodes too.  The step
 * that finds the match ends there; the next, finishing, step selects it
 * (in a tree, expands the path to it). */
pv_report_job *pv_report_search_job(pv_report *r, const char *text, size_t from, int dir);
/* A new filter (docs/filter.md) and sort; NULL with *err filled when the
 * expression does not compile (nothing else happens then).  A tree's
 * filter expands the ancestors of its matches. */
pv_report_job *pv_report_select_job(pv_report *r, const char *expr, const pv_sort_key *keys,
                                    size_t key_count, pv_query_error *err);
/* Reverses the order of a sorted report without sorting again (every key's
 * direction flips; rows with equal keys keep their order, as a sort in the
 * other direction gives them).  NULL when the report is not sorted. */
pv_report_job *pv_report_reverse_job(pv_report *r);
/* The finishing step selects this model row (when it is in the new
 * selection; a tree opens its ancestors) instead of the row selected now:
 * history back and forward (docs/tui.md "Long operations"); an opening
 * (pv_report_open_job): a row of the view opened, before its grouping by
 * thread, centred (a jump to a call).  PV_NO_ROW (a sort, a reverse):
 * none, the first row (the viewer's sorts show the top: docs/tui.md
 * "Jumps"). */
void pv_report_job_select(pv_report_job *j, size_t model_row);
/* Opens report r (closed) over v as pv_report_open does (owned false),
 * in steps: with `group`, a call tree grouped by thread first (group.c:
 * then the report owns the grouped view), then a tree's first layout.  r
 * is open only once the job finishes; freeing an unfinished job leaves it
 * closed. */
pv_report_job *pv_report_open_job(pv_report *r, pv_view *v, bool group, const char *columns);
/* Expands everything below the selected node (PV_TREE_EXPAND_ALL) in
 * steps: the visible list is replaced by the last step; freeing an
 * unfinished job leaves the tree as it was.  NULL when the selected row is
 * not a node or the tree has no subtree ends (then pv_report_tree). */
pv_report_job *pv_report_expand_all_job(pv_report *r);
/* Every later step also stops at this pv_clock_now() time, 0:
 * none: a budget is counted in rows, and a slow row or a loaded machine
 * must not make a step overrun its slice (docs/tui.md "Long operations"). */
void pv_report_job_deadline(pv_report_job *j, double deadline);
/* True when the job is finished (the report has its result). */
bool pv_report_job_step(pv_report_job *j, size_t budget);
/* 0..1 */
double pv_report_job_progress(const pv_report_job *j);
/* A finished search: did it find a row? */
bool pv_report_job_found(const pv_report_job *j);
pv_report *pv_report_job_report(const pv_report_job *j);
/* The report moved (the same report at another address). */
void pv_report_job_move(pv_report_job *j, pv_report *r);
void pv_report_job_free(pv_report_job *j);

#endif
