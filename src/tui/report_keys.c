/* report_keys.c - the Report pane's keys (panel.h): they act on the
 * focused report (the Report's, or the Details' when they have the focus),
 * and the Explorer and the Details pass on the keys they do not take
 * (screen.c).  Moving, scrolling, Enter, trees, search, filter, sort, the
 * choosers, jumps (t, J, K, %), markers, the lanes' keys, the graphs,
 * copying; and the filter and sort asked from keys, the prompt and
 * commands. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"

/* ---- filter, sort */

void pv_app_apply_filter(pv_app *a, const char *expr)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r) {
        pv_app_message(a, true, "no report to filter");
        return;
    }
    pv_query_error err;
    pv_report_job *j = pv_report_select_job(r, expr, r->sort, r->sort_count, &err);
    if (!j) {
        pv_buf msg;
        pv_buf_init(&msg);
        if (err.message[0] && expr[0])
            pv_query_error_render(&err, expr, &msg);
        else
            pv_buf_puts(&msg, err.message);
        pv_app_message(a, true, pv_buf_cstr(&msg));
        pv_buf_free(&msg);
        return;
    }
    pv_app_job_start(a, j, PV_JOB_FILTER, expr[0] ? "Filtering" : "Clearing the filter");
}

/* Sorts the report by keys, in steps. */
void pv_app_sort_keys(pv_app *a, pv_report *r, const pv_sort_key *keys, size_t count)
{
    pv_query_error err;
    pv_report_job *j = pv_report_select_job(r, r->filter, keys, count, &err);
    if (!j) { /* the filter in force compiled before: cannot happen */
        pv_app_message(a, true, err.message);
        return;
    }
    pv_buf what;
    pv_buf_init(&what);
    pv_report_job_select(j, PV_NO_ROW); /* a sort shows the top (docs/tui.md "Jumps") */
    pv_buf_puts(&what, "Sorting by ");
    for (size_t i = 0; i < count; i++)
        pv_buf_printf(&what, "%s%s%s", i ? "," : "", r->view->columns[keys[i].column].id,
                      keys[i].descending ? ":desc" : "");
    if (!count)
        pv_buf_puts(&what, "view order");
    pv_app_job_start(a, j, PV_JOB_SORT, pv_buf_cstr(&what));
    pv_buf_free(&what);
}

void pv_app_sort_by(pv_app *a, pv_report *r, size_t col, bool toggle_same)
{
    pv_sort_key key = {col, (r->view->columns[col].flags & PV_COL_DESC) != 0};
    if (toggle_same && r->sort_count && r->sort[0].column == col) {
        /* the same column again: the other direction, without sorting again */
        pv_report_job *j = pv_report_reverse_job(r);
        if (j) {
            pv_report_job_select(j, PV_NO_ROW); /* the top, as a sort */
            pv_app_job_start(a, j, PV_JOB_REVERSE, "Reversing the order");
            return;
        }
    }
    pv_app_sort_keys(a, r, &key, 1);
}

/* ---- keys */

/* Moves the cursor of the focused report (the Explorer moves its own:
 * explorer.c). */
static void pv_app_move(pv_app *a, long delta, bool absolute)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    if (absolute)
        r->cursor = 0;
    pv_report_move(r, delta);
}

static bool pv_app_show_ref(pv_app *a, pv_report *from, const pv_row_ref *ref);

/* True when row `row` of `v` and row `prow` of `parent` agree on every
 * identity column (PV_COL_KEY, docs/diff.md; else the name column) of
 * `parent` that `v` also has (same id, text), and there is at least one. */
static bool pv_app_same_identity(const pv_view *parent, size_t prow, const pv_view *v,
                                 size_t row)
{
    size_t compared = 0;
    bool any_key = false;
    for (size_t c = 0; c < parent->column_count; c++)
        any_key = any_key || (parent->columns[c].flags & PV_COL_KEY);
    for (size_t pc = 0; pc < parent->column_count; pc++) {
        const pv_column *col = &parent->columns[pc];
        if (col->type != PV_TYPE_STRING ||
            !(any_key ? (col->flags & PV_COL_KEY) : (col->flags & PV_COL_NAME)))
            continue;
        size_t vc = pv_view_column(v, col->id);
        if (vc == PV_NO_ROW || v->columns[vc].type != PV_TYPE_STRING)
            continue;
        pv_cell x, y;
        pv_view_cell(v, row, vc, &x);
        pv_view_cell(parent, prow, pc, &y);
        if (!x.present || !y.present || x.v.s.len != y.v.s.len ||
            memcmp(x.v.s.ptr, y.v.s.ptr, x.v.s.len) != 0)
            return false;
        compared++;
    }
    return compared > 0;
}

/* Enter on a row of a drilled-down view that has nothing to open (a caller
 * or callee of a routine): the row of the view it was opened from with the
 * same identity (that routine), selected there (docs/tui.md). */
static bool pv_app_drill_to_parent_row(pv_app *a, pv_report *r, size_t row)
{
    pv_location to;
    pv_app_here(a, &to);
    to.depth--;
    const pv_report *parent = to.depth ? &a->drill[to.depth - 1] : &a->items[to.item].report;
    size_t n = pv_view_rows(parent->view), found = PV_NO_ROW;
    for (size_t p = 0; p < n && found == PV_NO_ROW; p++)
        if (pv_app_same_identity(parent->view, p, r->view, row))
            found = p;
    if (found != PV_NO_ROW) {
        to.row = found;
        pv_app_location_texts(&to, parent);
        pv_app_go(a, &to, true);
        pv_report *now = pv_app_report(a);
        if (now && pv_report_selected(now) != found)
            pv_app_message(a, false, "that row is hidden by the filter");
    }
    pv_location_free(&to);
    return found != PV_NO_ROW;
}

/* Enter on the Report's row: a tree node opens or closes, an event goes to
 * its call, a row with details drills into the tab shown, a drilled-down
 * row back to its row in the parent.  (The Explorer's Enter shows an item:
 * explorer.c; the Details' drills: details.c.) */
static void pv_app_open(pv_app *a)
{
    if (pv_app_open_again(a))
        return;
    pv_report *r = pv_app_report(a);
    if (!r)
        return;
    size_t row = pv_report_selected(r);
    if (row == PV_NO_ROW)
        return;
    if (pv_report_has_kids(r, row)) {
        pv_report_tree(r, PV_TREE_TOGGLE);
        return;
    }
    pv_row_ref call;
    if (!a->loc.depth && pv_view_has_lanes(r->view) && pv_view_has_time(r->view) &&
        !pv_view_is_tree(r->view) && pv_view_related(r->view, row, PV_REL_CALL, &call) &&
        call.view != r->view) {
        /* an event of a timeline: its call in the call trace (docs/tui.md
         * "Jumps") */
        if (!pv_app_show_ref(a, r, &call))
            pv_app_message(a, true, "this result set has no call trace");
        return;
    }
    if (!a->loc.depth && pv_view_has_lanes(r->view) && pv_view_has_time(r->view) &&
        !pv_view_is_tree(r->view) && pv_view_waits_for_index(r->view, true)) {
        pv_app_reach_call_later(a, r, row); /* the call is known with the index */
        return;
    }
    if (r->view->detail_count) {
        if (a->det.open)
            pv_app_drill(a, a->det.tab, row, PV_NO_ROW);
        else
            pv_app_message(a, false, "nothing to open for this row");
        return;
    }
    if (a->loc.depth && !pv_app_drill_to_parent_row(a, r, row))
        pv_app_message(a, false, "nothing to open for this row");
}

/* The time of the selected row (pv_view_hooks.row_time: an event's time, a
 * call's entry).  False when the row has none. */
static bool pv_app_row_time(pv_app *a, int64_t *t)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    return row != PV_NO_ROW && pv_view_row_time(r->view, row, t);
}

/* m / M: markers A and B; the status bar shows them and B - A. */
static void pv_app_set_marker(pv_app *a, int which)
{
    int64_t t;
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (pv_app_row_time(a, &t)) {
        a->mark.at[which] = t;
        a->mark.view[which] = NULL;
    } else if (row != PV_NO_ROW && pv_view_has_range_statistics(r->view) && !a->loc.depth &&
               r == pv_app_report(a)) {
        /* no clock, but statistics of a span of rows (docs/tui.md); only in
         * an Explorer item's own report, which lives as long as the viewer */
        a->mark.at[which] = 0;
        a->mark.view[which] = r->view;
        a->mark.row[which] = row;
    } else {
        pv_app_message(a, true, "markers need an event or a call (a row with a time)");
        return;
    }
    a->mark.set[which] = true;
    if (a->range.show)
        pv_app_range_request(a); /* the statistics follow the markers */
}

/* Shows row `ref->row` of `ref->view`, a view of the Report's file: the
 * Report itself (or its Details), or the Explorer item showing that view.
 * False when no item shows it. */
static bool pv_app_show_ref(pv_app *a, pv_report *from, const pv_row_ref *ref)
{
    if (ref->view == from->view) {
        return pv_report_select_row(from, ref->row);
    }
    if (a->loc.item >= a->item_count)
        return false;
    const pv_item *here = &a->items[a->loc.item];
    for (size_t i = 0; i < a->item_count; i++) {
        const pv_item *it = &a->items[i];
        if (it->kind != PV_ITEM_VIEW || it->file != here->file || pv_item_view(a, it) != ref->view)
            continue;
        pv_location to;
        memset(&to, 0, sizeof to);
        to.item = i;
        to.row = PV_NO_ROW;
        pv_app_go(a, &to, true);
        a->focus = PV_PANE_REPORT;
        pv_app_reach_row(a, ref->view, ref->row); /* now, or once open (goto.c) */
        return true;
    }
    return false;
}

/* t (docs/tui.md): where the selected row is on the result set's timeline
 * (pv_view_hooks.related, PV_REL_TIMELINE): an event itself, a call its
 * own entry event, an area its first event. */
static void pv_app_open_timeline(pv_app *a)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW || a->loc.item >= a->item_count)
        return;
    pv_row_ref ref;
    if (!pv_view_related(r->view, row, PV_REL_TIMELINE, &ref)) {
        pv_app_message(a, true, "this row has no event or time to show in the timeline");
        return;
    }
    const pv_view *from = r->view;
    uint64_t area;
    bool has_area = pv_view_row_area(from, row, &area);
    if (!pv_app_show_ref(a, r, &ref)) {
        pv_app_message(a, true, "this result set has no timeline");
        return;
    }
    /* from a routine, call, statistics or data row: its area pinned as a
     * lane (docs/tui.md "Lane strip") */
    if (has_area && ref.view != from)
        pv_lanes_pin_area(a, ref.view, area, false);
}

/* % (docs/tui.md): the other end of the selected row's call (an entry's
 * exit and back, PV_REL_PARTNER), or for a call without events its caller
 * (PV_REL_CALLER). */
static void pv_app_match_call(pv_app *a)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW)
        return;
    pv_row_ref ref;
    bool found = pv_view_related(r->view, row, PV_REL_PARTNER, &ref) ||
                 (pv_view_related(r->view, row, PV_REL_CALLER, &ref) && ref.view == r->view);
    if (!found || !pv_app_show_ref(a, r, &ref))
        pv_app_message(a, true, "no matching entry, exit or caller in this view");
}

static void pv_key_move(pv_app *a, pv_action act)
{
    long page = a->page_rows[a->focus] > 1 ? a->page_rows[a->focus] - 1 : 1;
    switch (act) {
    case PV_ACT_UP:
        pv_app_move(a, -1, false);
        break;
    case PV_ACT_DOWN:
        pv_app_move(a, 1, false);
        break;
    case PV_ACT_PAGE_UP:
        pv_app_move(a, -page, false);
        break;
    case PV_ACT_PAGE_DOWN:
        pv_app_move(a, page, false);
        break;
    case PV_ACT_FIRST:
        pv_app_move(a, 0, true);
        break;
    default: /* PV_ACT_LAST */
        pv_app_move(a, (long)(SIZE_MAX / 4), false);
        break;
    }
}

/* Left: Details, the previous tab; Report, scroll left; Explorer, to the
 * result set or file the item belongs to. */
static void pv_key_left(pv_app *a, pv_action act)
{
    (void)act;
    /* the Report scrolls left (the Explorer and the Details take theirs) */
    pv_report *r = pv_app_focused_report(a);
    if (a->focus == PV_PANE_REPORT && r && r->hscroll > 0)
        r->hscroll--;
}

/* Right: the Report scrolls right (the Explorer opens, the Details go to
 * the next tab: theirs). */
static void pv_key_right(pv_app *a, pv_action act)
{
    (void)act;
    pv_report *r = pv_app_focused_report(a);
    if (a->focus == PV_PANE_REPORT && r) {
        size_t shown[PV_MAX_SHOWN];
        if (r->hscroll + 1 < pv_report_shown(r, shown, PV_MAX_SHOWN))
            r->hscroll++;
    }
}

static void pv_key_open(pv_app *a, pv_action act)
{
    (void)act;
    if (pv_app_bookmarks_enter(a)) /* the Bookmarks view: go to the bookmark */
        return;
    pv_app_open(a);
}

static void pv_key_tree(pv_app *a, pv_action act)
{
    if (pv_lanes_key(a, act)) /* + and - zoom the lanes of a timeline */
        return;
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    pv_tree_op op = act == PV_ACT_TOGGLE     ? PV_TREE_TOGGLE
                    : act == PV_ACT_EXPAND   ? PV_TREE_EXPAND
                    : act == PV_ACT_COLLAPSE ? PV_TREE_COLLAPSE
                                             : PV_TREE_EXPAND_ALL;
    pv_report_job *j = op == PV_TREE_EXPAND_ALL ? pv_report_expand_all_job(r) : NULL;
    if (j) { /* millions of calls below a node: in steps (docs/tui.md) */
        pv_app_job_start(a, j, PV_JOB_EXPAND, "Expanding everything below");
        return;
    }
    pv_report_tree(r, op);
}

/* Keys that type into the Report move the focus there from the Explorer. */
static pv_report *pv_app_focus_report_pane(pv_app *a)
{
    if (a->focus == PV_PANE_EXPLORER)
        a->focus = PV_PANE_REPORT;
    return pv_app_focused_report(a);
}

static void pv_key_search(pv_app *a, pv_action act)
{
    if (act == PV_ACT_SEARCH) {
        pv_report *r = pv_app_focus_report_pane(a);
        a->prompt.search_origin = r ? r->cursor : 0;
        a->prompt.search_origin_row = r && pv_report_count(r) ? pv_report_selected(r) : PV_NO_ROW;
        pv_app_prompt_open(a, PV_PROMPT_SEARCH, "");
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r || !a->search.len)
        return;
    int dir = act == PV_ACT_SEARCH_NEXT ? 1 : -1;
    size_t n = pv_report_count(r);
    size_t from = dir > 0 ? (r->cursor + 1 < n ? r->cursor + 1 : 0)
                          : (r->cursor > 0 ? r->cursor - 1 : (n ? n - 1 : 0));
    pv_app_search_from(a, r, from, dir);
}

static void pv_key_filter(pv_app *a, pv_action act)
{
    (void)act;
    pv_report *r = pv_app_focus_report_pane(a);
    pv_app_prompt_open(a, PV_PROMPT_FILTER, r ? r->filter : "");
}

/* The column chooser (c) or the sort chooser (S) over the focused report;
 * the sort chooser starts on the column sorted by. */
static void pv_app_open_chooser(pv_app *a, int overlay)
{
    pv_report *r = pv_app_focus_report_pane(a);
    if (!r)
        return;
    a->ov.kind = overlay;
    a->ov.cursor = a->ov.top = 0;
    if (overlay == PV_OVERLAY_SORT && r->sort_count)
        a->ov.cursor = r->sort[0].column;
}

/* s: the next shown column; S: choose; r: reverse. */
static void pv_key_sort(pv_app *a, pv_action act)
{
    if (act == PV_ACT_SORT_CHOOSE) {
        pv_app_open_chooser(a, PV_OVERLAY_SORT);
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    if (act == PV_ACT_SORT_REVERSE) {
        /* the order reversed, not sorted again (docs/tui.md) */
        pv_report_job *j = pv_report_reverse_job(r);
        if (j) {
            pv_report_job_select(j, PV_NO_ROW); /* the top, as a sort */
            pv_app_job_start(a, j, PV_JOB_REVERSE, "Reversing the order");
        } else {
            pv_app_message(a, false, "not sorted: s or S sorts");
        }
        return;
    }
    size_t shown[PV_MAX_SHOWN];
    size_t n = pv_report_shown(r, shown, PV_MAX_SHOWN);
    size_t next = 0;
    if (r->sort_count)
        for (size_t i = 0; i < n; i++)
            if (shown[i] == r->sort[0].column)
                next = (i + 1) % n;
    if (n)
        pv_app_sort_by(a, r, shown[next], false);
}

static void pv_key_columns(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_open_chooser(a, PV_OVERLAY_COLUMNS);
}

static void pv_key_timeline(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_open_timeline(a);
}

/* J / K: the next / previous event of the same area; %: a call's other end. */
static void pv_key_step(pv_app *a, pv_action act)
{
    if (act == PV_ACT_MATCH_CALL)
        pv_app_match_call(a);
    else
        pv_app_step_event(a, act == PV_ACT_NEXT_SAME ? 1 : -1);
}

static void pv_key_marker(pv_app *a, pv_action act)
{
    pv_app_set_marker(a, act == PV_ACT_MARK_A ? 0 : 1);
}

/* F, I, W: the flame graph, the icicle, the sandwich (docs/flame.md). */
static void pv_key_flame(pv_app *a, pv_action act)
{
    pv_flame_ui_open(a, act == PV_ACT_FLAME    ? PV_FLAME_FLAME
                        : act == PV_ACT_ICICLE ? PV_FLAME_ICICLE
                                               : PV_FLAME_SANDWICH);
}

/* y, Y: the selected cell or row to the clipboard. */
static void pv_key_copy(pv_app *a, pv_action act)
{
    pv_app_copy_selection(a, act == PV_ACT_COPY_ROW);
}

/* The lane strip's keys (src/tui/lanes.c, docs/tui.md "Lane strip"). */
static void pv_key_lanes(pv_app *a, pv_action act)
{
    pv_lanes_key(a, act);
}

/* The Report's actions and their family functions (actions.def, family
 * `panel`). */
static void (*const pv_report_keys[PV_ACT_COUNT])(pv_app *a, pv_action act) = {
    [PV_ACT_UP] = pv_key_move,
    [PV_ACT_DOWN] = pv_key_move,
    [PV_ACT_PAGE_UP] = pv_key_move,
    [PV_ACT_PAGE_DOWN] = pv_key_move,
    [PV_ACT_FIRST] = pv_key_move,
    [PV_ACT_LAST] = pv_key_move,
    [PV_ACT_LEFT] = pv_key_left,
    [PV_ACT_RIGHT] = pv_key_right,
    [PV_ACT_OPEN] = pv_key_open,
    [PV_ACT_TOGGLE] = pv_key_tree,
    [PV_ACT_EXPAND] = pv_key_tree,
    [PV_ACT_COLLAPSE] = pv_key_tree,
    [PV_ACT_EXPAND_ALL] = pv_key_tree,
    [PV_ACT_SEARCH] = pv_key_search,
    [PV_ACT_SEARCH_NEXT] = pv_key_search,
    [PV_ACT_SEARCH_PREV] = pv_key_search,
    [PV_ACT_FILTER] = pv_key_filter,
    [PV_ACT_SORT_NEXT] = pv_key_sort,
    [PV_ACT_SORT_CHOOSE] = pv_key_sort,
    [PV_ACT_SORT_REVERSE] = pv_key_sort,
    [PV_ACT_COLUMNS] = pv_key_columns,
    [PV_ACT_TIMELINE] = pv_key_timeline,
    [PV_ACT_NEXT_SAME] = pv_key_step,
    [PV_ACT_PREV_SAME] = pv_key_step,
    [PV_ACT_MATCH_CALL] = pv_key_step,
    [PV_ACT_NEXT_CALL] = pv_key_lanes,
    [PV_ACT_PREV_CALL] = pv_key_lanes,
    [PV_ACT_LONGEST] = pv_key_lanes,
    [PV_ACT_SHORTEST] = pv_key_lanes,
    [PV_ACT_PIN] = pv_key_lanes,
    [PV_ACT_LANES_LEFT] = pv_key_lanes,
    [PV_ACT_LANES_RIGHT] = pv_key_lanes,
    [PV_ACT_LANES_FIT] = pv_key_lanes,
    [PV_ACT_LANES_AB] = pv_key_lanes,
    [PV_ACT_MARK_A] = pv_key_marker,
    [PV_ACT_MARK_B] = pv_key_marker,
    [PV_ACT_COPY_CELL] = pv_key_copy,
    [PV_ACT_COPY_ROW] = pv_key_copy,
    [PV_ACT_FLAME] = pv_key_flame,
    [PV_ACT_ICICLE] = pv_key_flame,
    [PV_ACT_SANDWICH] = pv_key_flame,
};

bool pv_report_pane_action(pv_app *a, pv_action act)
{
    if (act <= PV_ACT_NONE || act >= PV_ACT_COUNT || !pv_report_keys[act])
        return false;
    pv_report_keys[act](a, act);
    return true;
}
