/* app_input.c - keys (through the action table: one function per family
 * of actions), the overlays' keys, filter and sort asked from keys, the
 * routing of a key (a job, the prompt, an overlay, Ctrl-C, the action) and
 * the mouse.  The prompt is prompt.c, :goto goto.c, the commands
 * app_commands.c. */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "profview/export.h"
#include "profview/hooks.h"
#include "tui/group.h"
#include "tui/panel.h"
#include "tui/commands.h"

/* ---- filter, sort, commands */

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

static void pv_app_open(pv_app *a)
{
    if (a->open_stopped == a->loc.item && !a->loc.depth) {
        a->open_stopped = PV_NO_ROW; /* opened again (pv_app_report) */
        return;
    }
    if (a->focus == PV_PANE_EXPLORER) {
        pv_app_show_item(a, a->ex.cursor);
        if (pv_app_report(a))
            a->focus = PV_PANE_REPORT;
        return;
    }
    if (a->focus == PV_PANE_DETAILS) {
        pv_report *owner = pv_app_report(a);
        if (a->range.show)
            return; /* the range statistics have nothing to drill into */
        if (a->det.open && owner)
            pv_app_drill(a, a->det.tab, pv_report_selected(owner), pv_report_selected(&a->det.rep));
        return;
    }
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
        pv_report *r = pv_app_report(a);
        /* the Report may show the view grouped by thread (group.c) */
        size_t row = r ? pv_group_row_of(r->view, ref->view, ref->row) : PV_NO_ROW;
        if (row != PV_NO_ROW)
            pv_report_select_row(r, row);
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

static void pv_app_history_step(pv_app *a, bool back)
{
    if (!a->history_started)
        return;
    pv_location here, to;
    memset(&to, 0, sizeof to);
    pv_app_here(a, &here);
    size_t pos = a->history.pos;
    bool ok = back ? pv_history_back(&a->history, &here, &to)
                   : pv_history_forward(&a->history, &here, &to);
    if (ok) {
        pv_app_apply(a, &to);
        if (pv_jobs_get(a, PV_JOB_HISTORY) || pv_jobs_get(a, PV_JOB_OPEN))
            pv_app_job_undo_to(a, &here, pos); /* it runs in steps: a stop comes back here */
    } else
        pv_app_message(a, false,
                       back ? "at the start of the history" : "at the end of the history");
    pv_location_free(&here);
    pv_location_free(&to);
}

/* ---- keys: one function per family of actions (actions.def) */

/* q: up from a drilled-down view (to its parent, with the parent's filter
 * and sort), back from an :sql result to where its query was run,
 * otherwise quit (asking first when that loses something:
 * pv_app_quit_request). The diff and the graphs take q themselves. */
static void pv_key_quit(pv_app *a, pv_action act)
{
    (void)act;
    if (a->loc.depth == 0) {
        const pv_item *it = a->loc.item < a->item_count ? &a->items[a->loc.item] : NULL;
        if (it && it->kind == PV_ITEM_VIEW && it->file == a->sql.file &&
            it->view < a->sql.from_count && a->sql.from[it->view].item < a->item_count) {
            pv_location to = {0};
            pv_location_copy(&to, &a->sql.from[it->view]);
            pv_app_go(a, &to, true);
            pv_location_free(&to);
            return;
        }
        pv_app_quit_request(a);
        return;
    }
    pv_location to;
    pv_app_here(a, &to);
    to.depth--;
    to.row = to.chain[to.depth].row;
    pv_report *parent = to.depth ? &a->drill[to.depth - 1] : &a->items[to.item].report;
    pv_app_location_texts(&to, parent);
    pv_app_go(a, &to, true);
    pv_location_free(&to);
}

static void pv_key_pane(pv_app *a, pv_action act)
{
    a->focus = (a->focus + (act == PV_ACT_NEXT_PANE ? 1 : PV_PANE_COUNT - 1)) % PV_PANE_COUNT;
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

/* Right: Explorer, open; Details, the next tab; Report, scroll right. */
static void pv_key_right(pv_app *a, pv_action act)
{
    (void)act;
    /* the Report scrolls right, the Explorer opens (the Details take
     * theirs) */
    pv_report *r = pv_app_focused_report(a);
    if (a->focus == PV_PANE_EXPLORER) {
        pv_app_open(a);
    } else if (a->focus == PV_PANE_REPORT && r) {
        size_t shown[PV_MAX_SHOWN];
        if (r->hscroll + 1 < pv_report_shown(r, shown, PV_MAX_SHOWN))
            r->hscroll++;
    }
}

static void pv_key_open(pv_app *a, pv_action act)
{
    (void)act;
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

static void pv_key_history(pv_app *a, pv_action act)
{
    pv_app_history_step(a, act == PV_ACT_BACK);
}

/* J/K and % read the names, contexts and depths of the rows around: while
 * the focused report's file is indexed, the rows not indexed yet have none,
 * and indexing them now would block.  Says so and returns true then.
 * (Search, filter and sort are queued instead: pv_app_job_start.) */
static bool pv_app_refused_while_indexing(pv_app *a)
{
    if (!pv_app_focused_report(a) || !pv_app_report_indexing(a))
        return false;
    char progress[128];
    pv_app_index_text(a, progress, sizeof progress);
    pv_app_messagef(a, true, "%s: J/K and %% work once it is done", progress);
    return true;
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

static void pv_key_export(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_export_open(a);
}

static void pv_key_command(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_prompt_open(a, PV_PROMPT_COMMAND, "");
}

/* z zooms; < and > resize the Explorer, or the Details when focused. */
static void pv_key_layout(pv_app *a, pv_action act)
{
    if (act == PV_ACT_ZOOM) {
        a->zoom = !a->zoom;
        return;
    }
    int d = act == PV_ACT_GROW ? 1 : -1;
    if (a->focus == PV_PANE_DETAILS)
        a->det.height_adj += 2 * d;
    else
        a->ex.width_adj += 4 * d;
}

static void pv_key_help(pv_app *a, pv_action act)
{
    (void)act;
    a->ov.kind = PV_OVERLAY_HELP;
    a->ov.top = 0;
}

/* Ctrl-L: the terminal layer redraws; nothing changes here. */
/* The lane strip's keys (src/tui/lanes.c, docs/tui.md "Lane strip"). */
static void pv_key_lanes(pv_app *a, pv_action act)
{
    pv_lanes_key(a, act);
}

static void pv_key_none(pv_app *a, pv_action act)
{
    (void)a;
    (void)act;
}

/* Every action's family function, from actions.def. */
static void (*const pv_key_handlers[PV_ACT_COUNT])(pv_app *a, pv_action act) = {
#define PV_ACTION(e, name, keys, help, family) [PV_ACT_##e] = pv_key_##family,
#include "tui/actions.def"
#undef PV_ACTION
};

/* The families whose actions read the rows around the cursor: they wait
 * for the index (pv_app_refused_while_indexing). */
static bool pv_action_reads_every_row(pv_action act)
{
    void (*h)(pv_app *, pv_action) = pv_key_handlers[act];
    return h == pv_key_step;
}

/* An action: refused while the rows it reads are indexed, then the graphs
 * (docs/flame.md) and the diff take the keys they use, then the action's
 * family function. */
static void pv_app_action(pv_app *a, pv_action act)
{
    bool valid = act > PV_ACT_NONE && act < PV_ACT_COUNT;
    if (valid && pv_action_reads_every_row(act) && pv_app_refused_while_indexing(a))
        return;
    if (pv_screen_action(a, act)) /* the graph's keys; the diff's q and Backspace */
        return;
    if (valid)
        pv_key_handlers[act](a, act);
}

/* A key while a scan runs stops it; true when that is all the key does
 * (Esc, Ctrl-C). */
static bool pv_app_key_stops_scan(pv_app *a, int key)
{
    if (a->quit_armed && key != PV_KEY_CTRL('c')) {
        a->quit_armed = false;
        pv_buf_clear(&a->message);
    }
    if (a->quit_ask) {
        /* "Quit profview? y/n": y (or Ctrl-C again) quits, any other key
         * stays and does nothing else */
        a->quit_ask = false;
        pv_buf_clear(&a->message);
        a->quit = key == 'y' || key == 'Y' || key == PV_KEY_CTRL('c');
        return true;
    }
    return pv_jobs_key(a, key, false);
}

/* Ctrl-C stops what runs, innermost first: loading, the range statistics
 * being computed, indexing (the timeline keeps what is indexed; the views
 * that need the whole index stay empty); with nothing running it quits. */
static void pv_app_interrupt(pv_app *a)
{
    if (pv_app_cancel(a))
        return;
    if (a->range.show && !a->range.open && !a->range.failed) {
        pv_app_range_hide(a);
        pv_app_message(a, false, "statistics stopped");
    } else if (pv_lanes_build_stop(a)) {
        pv_app_message(a, false, "stopped building the pinned lane (unpinned)");
    } else if (pv_app_indexing(a)) {
        a->index.stopped = true;
        a->quit_armed = true;
        for (size_t i = 0; i < a->file_count; i++)
            pv_file_index_pause(a->files[i], true); /* a format's own threads too */
        pv_app_message(a, false, "indexing stopped (:index resumes; Ctrl-C again quits)");
    } else if (a->quit_armed) {
        a->quit = true; /* "Ctrl-C again quits" after indexing stopped */
    } else {
        pv_app_quit_request(a);
    }
}

/* A key goes to the first that takes it: a running scan, the prompt, an
 * overlay, Ctrl-C and Esc, then the action bound to it (actions.def). */
void pv_app_key(pv_app *a, int key)
{
    /* Ctrl-L only redraws: the terminal layer takes it before it comes
     * here, and scripted keys pass time with it (it changes nothing). */
    if (key == PV_KEY_RESIZE || key == 0 || key == PV_KEY_CTRL('l') ||
        pv_app_key_stops_scan(a, key))
        return;
    /* Esc and Ctrl-C stop a graph being built (and do nothing else: the
     * screen stays, Ctrl-C does not quit); other keys act as always */
    if (!a->prompt.kind && !a->ov.kind && (key == PV_KEY_ESC || key == PV_KEY_CTRL('c')) &&
        pv_flame_ui_stop(a))
        return;
    if (a->prompt.kind) {
        pv_panel_prompt.key(a, key);
        return;
    }
    if (strchr(pv_buf_cstr(&a->message), '\n'))
        pv_buf_clear(&a->message); /* a caret message goes with the next key */
    if (a->ov.kind) {
        pv_screen_overlay(a->ov.kind)->key(a, key);
    } else if (key == PV_KEY_CTRL('c')) {
        pv_app_interrupt(a);
    } else if (key == PV_KEY_ESC) {
        pv_buf_clear(&a->message);
        pv_buf_clear(&a->search);
    } else {
        /* A message answers the key before: the next action clears it
         * (docs/tui.md); work in progress keeps its own. */
        if (!a->jobs.job && !a->exp.running)
            pv_buf_clear(&a->message);
        pv_app_action(a, pv_keymap_lookup(&a->cfg.keys, key));
    }
}

