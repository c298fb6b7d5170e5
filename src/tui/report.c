/* report.c - the generic report core: visible rows, trees, filter, sort,
 * search and columns over any pv_view. */
#include "tui/report.h"
#include "profview/hooks.h"
#include "tui/group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static inline bool pv_bit(const uint8_t *bits, size_t i)
{
    return bits && (bits[i >> 3] >> (i & 7)) & 1;
}
static inline void pv_bit_set(uint8_t *bits, size_t i, bool on)
{
    if (on)
        bits[i >> 3] = (uint8_t)(bits[i >> 3] | (1u << (i & 7)));
    else
        bits[i >> 3] = (uint8_t)(bits[i >> 3] & ~(1u << (i & 7)));
}

static size_t pv_report_sel_count(const pv_report *r)
{
    return r->sel ? r->sel_count : pv_view_rows(r->view);
}

static size_t pv_report_sel_row(const pv_report *r, size_t i)
{
    return r->sel ? r->sel[i] : i;
}

/* A block the report no longer needs: to its trash (given back in steps
 * between key presses) or freed now. */
static void pv_report_discard(pv_report *r, void *p, size_t bytes)
{
    if (r->trash)
        pv_trash_add(r->trash, p, bytes);
    else
        free(p);
}

/* The visible list of a tree, laid out from a selection and the collapsed
 * bits: one pass in pre-order with an explicit stack of open ancestors (no
 * recursion, whatever the depth), resumable anywhere, so that a report job
 * lays out a big tree in steps and pv_report_rebuild in one go. */
typedef struct pv_layout {
    const pv_view *v;
    const pv_row *sel; /* NULL: every row in view order */
    size_t n, at;
    const uint8_t *collapsed;
    uint8_t *has_kids; /* set for the rows with children in the selection */
    pv_row *vis;
    uint32_t *vis_depth;
    size_t count, cap;
    /* the first selection position after each position's subtree (set as
     * the subtree's rows end: the report's sub_end) */
    pv_row *sub_end;
    pv_row *stack, *stack_pos;
    uint8_t *hide;
    size_t sp, stack_cap;
    double deadline; /* pv_work_clock time a step stops at (0: none) */
} pv_layout;

static void pv_layout_init(pv_layout *l, const pv_view *v, const pv_row *sel, size_t n,
                           const uint8_t *collapsed, uint8_t *has_kids)
{
    memset(l, 0, sizeof *l);
    l->v = v;
    l->sel = sel;
    l->n = n;
    l->collapsed = collapsed;
    l->has_kids = has_kids;
    /* room for every row at once: growing a list of millions in a step
     * would copy it (measured: 12 ms at 2.4 M rows); pages never written
     * cost nothing */
    l->cap = n + 1;
    l->vis = pv_xmalloc(l->cap * sizeof *l->vis);
    l->vis_depth = pv_xmalloc(l->cap * sizeof *l->vis_depth);
    l->sub_end = pv_xmalloc((n ? n : 1) * sizeof *l->sub_end);
    l->stack_cap = 64;
    l->stack = pv_xmalloc(l->stack_cap * sizeof *l->stack);
    l->stack_pos = pv_xmalloc(l->stack_cap * sizeof *l->stack_pos);
    l->hide = pv_xmalloc(l->stack_cap);
}

/* Lays out about `budget` more rows; true when every row is placed. */
static bool pv_layout_step(pv_layout *l, size_t budget)
{
    size_t end = budget < l->n - l->at ? l->at + budget : l->n;
    for (size_t i = l->at; i < end; i++) {
        if ((i & 4095) == 4095 && i > l->at && l->deadline > 0 && pv_work_clock() >= l->deadline) {
            end = i; /* the slice is over (a slow parent, a loaded machine) */
            break;
        }
        size_t row = l->sel ? l->sel[i] : i;
        size_t parent = pv_view_parent(l->v, row);
        size_t sp = l->sp;
        while (sp > 0 && l->stack[sp - 1] != parent)
            l->sub_end[l->stack_pos[--sp]] = (pv_row)i; /* its subtree ends here */
        if (sp > 0)
            pv_bit_set(l->has_kids, parent, true);
        bool hidden = sp > 0 && l->hide[sp - 1];
        if (!hidden) {
            if (l->count == l->cap) {
                size_t c2 = l->cap;
                l->vis = pv_xgrow(l->vis, &l->cap, l->count + 1, sizeof *l->vis);
                l->vis_depth = pv_xgrow(l->vis_depth, &c2, l->count + 1, sizeof *l->vis_depth);
            }
            l->vis[l->count] = (pv_row)row;
            l->vis_depth[l->count++] = (uint32_t)(sp > UINT32_MAX ? UINT32_MAX : sp);
        }
        if (sp == l->stack_cap) {
            size_t hc = l->stack_cap, pc = l->stack_cap;
            l->stack = pv_xgrow(l->stack, &l->stack_cap, sp + 1, sizeof *l->stack);
            l->stack_pos = pv_xgrow(l->stack_pos, &pc, sp + 1, sizeof *l->stack_pos);
            l->hide = pv_xgrow(l->hide, &hc, sp + 1, 1);
        }
        l->stack_pos[sp] = (pv_row)i;
        l->stack[sp] = (pv_row)row;
        l->hide[sp] = (uint8_t)(hidden || pv_bit(l->collapsed, row));
        l->sp = sp + 1;
    }
    l->at = end;
    if (l->at < l->n)
        return false;
    while (l->sp > 0) /* the subtrees still open end with the rows */
        l->sub_end[l->stack_pos[--l->sp]] = (pv_row)l->n;
    return true;
}

/* Frees what the layout still owns (its lists unless taken). */
static void pv_layout_free(pv_layout *l)
{
    free(l->vis);
    free(l->vis_depth);
    free(l->sub_end);
    free(l->stack);
    free(l->stack_pos);
    free(l->hide);
    memset(l, 0, sizeof *l);
}

/* The finished layout's lists go into report r (its old ones to the trash). */
static void pv_layout_take(pv_layout *l, pv_report *r)
{
    pv_report_discard(r, r->vis, r->vis_count * sizeof *r->vis);
    pv_report_discard(r, r->vis_depth, r->vis_count * sizeof *r->vis_depth);
    pv_report_discard(r, r->sub_end, r->sub_count * sizeof *r->sub_end);
    r->vis = l->vis;
    r->vis_depth = l->vis_depth;
    r->vis_count = l->count;
    r->sub_end = l->sub_end;
    r->sub_count = l->n;
    l->vis = NULL;
    l->vis_depth = NULL;
    l->sub_end = NULL;
    pv_layout_free(l);
}

/* Rebuilds the visible list of a tree in one pass, so the cost is one pass
 * per call and nothing per frame; keeps the selected row selected. */
static void pv_report_rebuild(pv_report *r)
{
    if (!pv_view_is_tree(r->view))
        return;
    size_t keep = pv_report_count(r) ? pv_report_selected(r) : PV_NO_ROW;
    size_t rows = pv_view_rows(r->view);
    memset(r->has_kids, 0, rows / 8 + 1);
    pv_layout l;
    pv_layout_init(&l, r->view, r->sel, pv_report_sel_count(r), r->collapsed, r->has_kids);
    pv_layout_step(&l, SIZE_MAX);
    pv_layout_take(&l, r);
    size_t count = r->vis_count;
    r->cursor = 0;
    if (keep != PV_NO_ROW)
        for (size_t i = 0; i < count; i++)
            if (r->vis[i] == keep) {
                r->cursor = i;
                break;
            }
}

void pv_report_refresh(pv_report *r)
{
    pv_report_rebuild(r);
}

/* True when column c has no value in any row (absent or empty text): the
 * Core of a Text1 timeline, the Module of winIDEA routines. */
static bool pv_report_column_empty(const pv_view *v, size_t c)
{
    size_t n = pv_view_rows(v);
    if (n == 0)
        return false; /* nothing to judge by: the header says what would be there */
    pv_cell cell;
    for (size_t row = 0; row < n; row++) {
        pv_view_cell(v, row, c, &cell);
        if (cell.present && !(cell.type == PV_TYPE_STRING && cell.v.s.len == 0))
            return false;
    }
    return true;
}

static void pv_report_apply_columns(pv_report *r, const char *columns)
{
    pv_buf bad;
    pv_buf_init(&bad);
    if (!columns || !pv_report_set_columns(r, columns, &bad)) {
        /* Columns empty in the whole view are hidden too, where the view is
         * small enough to look at every cell (docs/tui.md "Columns"). */
        const pv_view *v = r->view;
        bool look = pv_view_rows(v) * v->column_count <= PV_REPORT_EMPTY_SCAN_CELLS;
        for (size_t c = 0; c < v->column_count; c++)
            r->hidden[c] = (v->columns[c].flags & PV_COL_HIDDEN) != 0 ||
                           (look && !(v->columns[c].flags & (PV_COL_NAME | PV_COL_TREE)) &&
                            pv_report_column_empty(v, c));
        if (columns)
            r->bad_column = pv_xstrdup(pv_buf_cstr(&bad));
    }
    pv_buf_free(&bad);
}

void pv_report_open(pv_report *r, pv_view *v, bool owned, const char *columns)
{
    memset(r, 0, sizeof *r);
    r->view = v;
    r->owned = owned;
    r->hidden = pv_xcalloc(v->column_count + 1, 1);
    r->widths = pv_xcalloc(v->column_count + 1, sizeof *r->widths);
    r->time_fmt = pv_xcalloc(v->column_count + 1, 1);
    r->filter = pv_xstrdup("");
    pv_report_apply_columns(r, columns);
    if (pv_view_is_tree(v)) {
        size_t rows = pv_view_rows(v);
        r->collapsed = pv_xcalloc(rows / 8 + 1, 1);
        r->has_kids = pv_xcalloc(rows / 8 + 1, 1);
        if (rows > PV_REPORT_EXPAND_LIMIT)
            memset(r->collapsed, 0xff, rows / 8 + 1);
        pv_report_rebuild(r);
    }
}

void pv_report_close(pv_report *r)
{
    if (!r->view)
        return;
    if (r->owned)
        pv_view_free(r->view);
    free(r->bad_column);
    free(r->time_fmt);
    free(r->sel);
    free(r->collapsed);
    free(r->has_kids);
    free(r->vis);
    free(r->vis_depth);
    free(r->sub_end);
    free(r->hidden);
    free(r->widths);
    free(r->filter);
    free(r->self_match);
    memset(r, 0, sizeof *r);
}

size_t pv_report_selected(const pv_report *r)
{
    size_t n = pv_report_count(r);
    if (!n)
        return PV_NO_ROW;
    return pv_report_row(r, r->cursor < n ? r->cursor : n - 1);
}

bool pv_report_has_kids(const pv_report *r, size_t model_row)
{
    return pv_bit(r->has_kids, model_row);
}

bool pv_report_is_collapsed(const pv_report *r, size_t model_row)
{
    return pv_bit(r->collapsed, model_row);
}

void pv_report_move(pv_report *r, long delta)
{
    size_t n = pv_report_count(r);
    if (!n) {
        r->cursor = 0;
        return;
    }
    if (delta < 0) {
        size_t d = (size_t)-delta;
        r->cursor = r->cursor > d ? r->cursor - d : 0;
    } else {
        size_t d = (size_t)delta;
        r->cursor = r->cursor + d < n ? r->cursor + d : n - 1;
    }
}

void pv_report_move_to(pv_report *r, size_t index)
{
    size_t n = pv_report_count(r);
    r->cursor = n == 0 ? 0 : index < n ? index : n - 1;
}

static void pv_report_splice_in(pv_report *r, size_t k);

/* Opens the collapsed ancestors of model_row.  Only the outermost of them
 * is visible: the rows that the opening shows are spliced in after it
 * (pv_report_splice_in, the cost of the rows shown), not laid out again
 * from the whole tree (docs/tui.md "Long operations"). */
static void pv_report_open_path(pv_report *r, size_t model_row)
{
    size_t outer = PV_NO_ROW, guard = pv_view_rows(r->view);
    for (size_t p = pv_view_parent(r->view, model_row); p != PV_NO_ROW && guard--;
         p = pv_view_parent(r->view, p))
        if (pv_bit(r->collapsed, p)) {
            pv_bit_set(r->collapsed, p, false);
            outer = p;
        }
    if (outer == PV_NO_ROW)
        return;
    size_t k = PV_NO_ROW;
    for (size_t i = 0; r->vis && i < r->vis_count && k == PV_NO_ROW; i++)
        if (r->vis[i] == outer)
            k = i;
    if (k == PV_NO_ROW || !r->sub_end) {
        pv_report_rebuild(r); /* not visible (cannot be): the whole layout */
        return;
    }
    size_t keep = pv_report_selected(r);
    pv_report_splice_in(r, k); /* it was collapsed: nothing below it shown */
    if (r->cursor > k && keep != PV_NO_ROW) /* the rows inserted push it down */
        for (size_t i = r->cursor; i < r->vis_count; i++)
            if (r->vis[i] == keep) {
                r->cursor = i;
                break;
            }
}

bool pv_report_select_row(pv_report *r, size_t model_row)
{
    if (model_row >= pv_view_rows(r->view))
        return false;
    if (r->collapsed)
        pv_report_open_path(r, model_row);
    size_t n = pv_report_count(r);
    if (!r->vis && !r->sel) {
        r->cursor = model_row; /* every row in view order: no search */
        return true;
    }
    if (!r->vis && !r->sort_count) {
        /* filtered only: the selection is in view order, ascending */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->sel[mid] < model_row)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < n && r->sel[lo] == model_row) {
            r->cursor = lo;
            return true;
        }
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if (pv_report_row(r, i) == model_row) {
            r->cursor = i;
            return true;
        }
    return false;
}

/* Removes the visible descendants of the node at visible index k. */
static void pv_report_splice_out(pv_report *r, size_t k)
{
    uint32_t d = r->vis_depth[k];
    size_t e = k + 1;
    while (e < r->vis_count && r->vis_depth[e] > d)
        e++;
    memmove(r->vis + k + 1, r->vis + e, (r->vis_count - e) * sizeof *r->vis);
    memmove(r->vis_depth + k + 1, r->vis_depth + e, (r->vis_count - e) * sizeof *r->vis_depth);
    r->vis_count -= e - (k + 1);
}

/* The selection position of model row `row` (without a selection, the
 * row itself); PV_NO_ROW when it is not in the selection. */
static size_t pv_report_pos_of(const pv_report *r, size_t row)
{
    if (!r->sel)
        return row < pv_view_rows(r->view) ? row : PV_NO_ROW;
    for (size_t p = 0; p < r->sel_count; p++)
        if (r->sel[p] == row)
            return p;
    return PV_NO_ROW;
}

/* Inserts the descendants of the (expanded) node at visible index k that
 * are visible.  With the subtree ends of the last layout (r->sub_end) it
 * goes from child to child, skipping the subtrees of collapsed ones: the
 * cost is the rows it shows, not the node's subtree (a thread of millions
 * of calls opens as fast as one of ten).  Without them, a walk over the
 * subtree with an explicit stack. */
static void pv_report_splice_in(pv_report *r, size_t k)
{
    size_t node = r->vis[k];
    size_t n = pv_report_sel_count(r), p = pv_report_pos_of(r, node);
    if (p == PV_NO_ROW)
        return;
    size_t cap = 64, sp = 0, add_cap = 64, added = 0;
    size_t *stack = pv_xmalloc(cap * sizeof *stack);
    uint8_t *hide = pv_xmalloc(cap);
    pv_row *rows = pv_xmalloc(add_cap * sizeof *rows);
    uint32_t *depths = pv_xmalloc(add_cap * sizeof *depths);
    if (r->sub_end && r->sub_count == n) {
        /* stack: the next child's position of each open node; hide[] is
         * unused (a collapsed child is not entered) */
        size_t *ends = pv_xmalloc(cap * sizeof *ends);
        stack[sp] = p + 1;
        ends[sp++] = r->sub_end[p];
        while (sp > 0) {
            size_t c = stack[sp - 1];
            if (c >= ends[sp - 1] || c >= n) {
                sp--;
                continue;
            }
            size_t c_end = r->sub_end[c] > c ? r->sub_end[c] : c + 1;
            stack[sp - 1] = c_end;
            size_t row = pv_report_sel_row(r, c);
            size_t c2 = add_cap;
            rows = pv_xgrow(rows, &add_cap, added + 1, sizeof *rows);
            depths = pv_xgrow(depths, &c2, added + 1, sizeof *depths);
            rows[added] = (pv_row)row;
            depths[added++] = r->vis_depth[k] + (uint32_t)sp;
            if (c_end > c + 1 && !pv_bit(r->collapsed, row)) {
                size_t ec = cap;
                stack = pv_xgrow(stack, &cap, sp + 1, sizeof *stack);
                ends = pv_xgrow(ends, &ec, sp + 1, sizeof *ends);
                stack[sp] = c + 1;
                ends[sp++] = c_end;
            }
        }
        free(ends);
    } else {
        stack[sp] = node;
        hide[sp++] = pv_bit(r->collapsed, node);
        for (size_t i = p + 1; i < n; i++) {
            size_t row = pv_report_sel_row(r, i);
            size_t parent = pv_view_parent(r->view, row);
            while (sp > 0 && stack[sp - 1] != parent)
                sp--;
            if (sp == 0)
                break;
            bool hidden = hide[sp - 1];
            if (!hidden) {
                size_t c2 = add_cap;
                rows = pv_xgrow(rows, &add_cap, added + 1, sizeof *rows);
                depths = pv_xgrow(depths, &c2, added + 1, sizeof *depths);
                rows[added] = (pv_row)row;
                depths[added++] = r->vis_depth[k] + (uint32_t)sp;
            }
            if (sp == cap) {
                size_t hc = cap;
                stack = pv_xgrow(stack, &cap, sp + 1, sizeof *stack);
                hide = pv_xgrow(hide, &hc, sp + 1, 1);
            }
            stack[sp] = row;
            hide[sp++] = (uint8_t)(hidden || pv_bit(r->collapsed, row));
        }
    }
    size_t vcap = r->vis_count + added;
    r->vis = pv_xrealloc(r->vis, (vcap ? vcap : 1) * sizeof *r->vis);
    r->vis_depth = pv_xrealloc(r->vis_depth, (vcap ? vcap : 1) * sizeof *r->vis_depth);
    memmove(r->vis + k + 1 + added, r->vis + k + 1, (r->vis_count - k - 1) * sizeof *r->vis);
    memmove(r->vis_depth + k + 1 + added, r->vis_depth + k + 1,
            (r->vis_count - k - 1) * sizeof *r->vis_depth);
    if (added) { /* rows and depths are NULL when nothing was added */
        memcpy(r->vis + k + 1, rows, added * sizeof *rows);
        memcpy(r->vis_depth + k + 1, depths, added * sizeof *depths);
    }
    r->vis_count += added;
    free(stack);
    free(hide);
    free(rows);
    free(depths);
}

bool pv_report_tree(pv_report *r, pv_tree_op op)
{
    size_t row = pv_report_selected(r);
    if (!r->collapsed || row == PV_NO_ROW)
        return false;
    if (!pv_bit(r->has_kids, row)) {
        if (op == PV_TREE_COLLAPSE) {
            size_t p = pv_view_parent(r->view, row);
            if (p != PV_NO_ROW)
                pv_report_select_row(r, p);
        }
        return false;
    }
    /* Expanding or collapsing splices the visible list around the node:
     * the cost is the node's subtree, not the whole view. */
    size_t k = r->cursor;
    bool was_collapsed = pv_bit(r->collapsed, row);
    switch (op) {
    case PV_TREE_TOGGLE:
        pv_bit_set(r->collapsed, row, !was_collapsed);
        if (was_collapsed)
            pv_report_splice_in(r, k);
        else
            pv_report_splice_out(r, k);
        return true;
    case PV_TREE_EXPAND:
        if (was_collapsed) {
            pv_bit_set(r->collapsed, row, false);
            pv_report_splice_in(r, k);
        }
        return true;
    case PV_TREE_COLLAPSE:
        if (!was_collapsed) {
            pv_bit_set(r->collapsed, row, true);
            pv_report_splice_out(r, k);
            return true;
        } else {
            size_t p = pv_view_parent(r->view, row);
            if (p != PV_NO_ROW)
                pv_report_select_row(r, p);
            return true;
        }
        break;
    case PV_TREE_EXPAND_ALL: {
        pv_report_job *j = pv_report_expand_all_job(r);
        if (j) { /* with the subtree ends: the job, to its end */
            while (!pv_report_job_step(j, SIZE_MAX))
                ;
            pv_report_job_free(j);
            return true;
        }
        /* The subtree follows the node in the selection (pre-order). */
        size_t n = pv_report_sel_count(r), at = r->sel ? 0 : row;
        while (at < n && pv_report_sel_row(r, at) != row)
            at++;
        size_t cap = 64, sp = 0;
        size_t *stack = pv_xmalloc(cap * sizeof *stack);
        stack[sp++] = row;
        pv_bit_set(r->collapsed, row, false);
        for (size_t i = at + 1; i < n; i++) {
            size_t child = pv_report_sel_row(r, i);
            size_t parent = pv_view_parent(r->view, child);
            while (sp > 0 && stack[sp - 1] != parent)
                sp--;
            if (sp == 0)
                break;
            pv_bit_set(r->collapsed, child, false);
            stack = pv_xgrow(stack, &cap, sp + 1, sizeof *stack);
            stack[sp++] = child;
        }
        free(stack);
        pv_report_splice_out(r, k);
        pv_report_splice_in(r, k);
        return true;
    }
    }
    return true;
}

size_t pv_report_shown(const pv_report *r, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t c = 0; c < r->view->column_count && n < max; c++)
        if (!r->hidden[c])
            out[n++] = c;
    return n;
}

bool pv_report_set_columns(pv_report *r, const char *spec, pv_buf *bad)
{
    size_t cols = r->view->column_count;
    uint8_t *hidden = pv_xmalloc(cols + 1);
    memset(hidden, 1, cols + 1);
    const char *s = spec;
    size_t shown = 0;
    while (*s) {
        while (*s == ',' || *s == ' ')
            s++;
        if (!*s)
            break;
        const char *start = s;
        while (*s && *s != ',' && *s != ' ')
            s++;
        pv_buf_clear(bad);
        pv_buf_append(bad, start, (size_t)(s - start));
        size_t c = pv_view_column(r->view, pv_buf_cstr(bad));
        if (c == PV_NO_ROW) {
            free(hidden);
            return false;
        }
        hidden[c] = 0;
        shown++;
    }
    if (!shown) {
        pv_buf_clear(bad);
        pv_buf_puts(bad, "(no column)");
        free(hidden);
        return false;
    }
    memcpy(r->hidden, hidden, cols);
    free(hidden);
    r->hscroll = 0;
    return true;
}

/* Re-derives the selection from the filter and the sort at once (a job run
 * to its end), keeping the selected row. */
static bool pv_report_reselect(pv_report *r, const char *expr, const pv_sort_key *keys,
                               size_t key_count, pv_query_error *err)
{
    pv_report_job *j = pv_report_select_job(r, expr, keys, key_count, err);
    if (!j)
        return false;
    while (!pv_report_job_step(j, SIZE_MAX))
        ;
    pv_report_job_free(j);
    return true;
}

bool pv_report_set_filter(pv_report *r, const char *expr, pv_query_error *err)
{
    memset(err, 0, sizeof *err);
    return pv_report_reselect(r, expr, r->sort, r->sort_count, err);
}

void pv_report_set_sort(pv_report *r, const pv_sort_key *keys, size_t count)
{
    pv_query_error err;
    memset(&err, 0, sizeof err);
    pv_report_reselect(r, r->filter, keys, count, &err);
}

void pv_report_sort_text(const pv_report *r, pv_buf *out)
{
    for (size_t i = 0; i < r->sort_count; i++)
        pv_buf_printf(out, "%s%s%s", i ? "," : "", r->view->columns[r->sort[i].column].id,
                      r->sort[i].descending ? ":desc" : "");
}

bool pv_report_apply_sort_text(pv_report *r, const char *spec, pv_query_error *err)
{
    memset(err, 0, sizeof *err);
    if (!spec[0]) {
        pv_report_set_sort(r, NULL, 0);
        return true;
    }
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t count = 0;
    if (!pv_sort_parse(r->view, spec, keys, &count, err))
        return false;
    pv_report_set_sort(r, keys, count);
    return true;
}

static bool pv_contains_ci(const char *hay, size_t hay_len, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return true;
    if (n > hay_len)
        return false;
    for (size_t i = 0; i + n <= hay_len; i++)
        if (strncasecmp(hay + i, needle, n) == 0)
            return true;
    return false;
}

/* A number's exact text has only these characters: a needle with any
 * other cannot match, and formatting the number is the slow part. */
static bool pv_text_fits_type(pv_type t, const char *text)
{
    static const char *const number_chars[] = {
        [PV_TYPE_INT] = "-0123456789",
        [PV_TYPE_TIME] = "-0123456789",
        [PV_TYPE_FLOAT] = "-.0123456789infa",
        [PV_TYPE_HANDLE] = "0123456789abcdefABCDEFxX",
        [PV_TYPE_HEX] = "0123456789abcdefABCDEFxX",
    };
    return t == PV_TYPE_STRING || text[strspn(text, number_chars[t])] == '\0';
}

/* One scratch buffer per search, not one allocation per cell. */
static bool pv_report_cell_matches_buf(const pv_report *r, size_t model_row, size_t col,
                                       const char *text, pv_buf *scratch)
{
    pv_cell c;
    pv_view_cell(r->view, model_row, col, &c);
    if (!c.present)
        return false;
    if (c.type == PV_TYPE_STRING)
        return pv_contains_ci(c.v.s.ptr, c.v.s.len, text);
    if (!pv_text_fits_type(c.type, text))
        return false;
    pv_buf_clear(scratch);
    pv_cell_format_exact(&c, scratch);
    return pv_contains_ci(pv_buf_cstr(scratch), scratch->len, text);
}

bool pv_report_cell_matches(const pv_report *r, size_t model_row, size_t col, const char *text)
{
    pv_buf b;
    pv_buf_init(&b);
    bool hit = pv_report_cell_matches_buf(r, model_row, col, text, &b);
    pv_buf_free(&b);
    return hit;
}

static bool pv_report_row_matches_buf(const pv_report *r, size_t model_row, const char *text,
                                      pv_buf *scratch)
{
    for (size_t c = 0; c < r->view->column_count; c++)
        if (!r->hidden[c] && pv_report_cell_matches_buf(r, model_row, c, text, scratch))
            return true;
    return false;
}

bool pv_report_row_matches(const pv_report *r, size_t model_row, const char *text)
{
    pv_buf b;
    pv_buf_init(&b);
    bool hit = pv_report_row_matches_buf(r, model_row, text, &b);
    pv_buf_free(&b);
    return hit;
}

size_t pv_report_search_some(const pv_report *r, const char *text, size_t from, int dir,
                             size_t limit, bool *complete)
{
    size_t n = pv_report_count(r);
    *complete = true;
    if (!n || !text[0])
        return PV_NO_ROW;
    if (from >= n)
        from = dir > 0 ? 0 : n - 1;
    pv_buf scratch;
    pv_buf_init(&scratch);
    size_t i = from, found = PV_NO_ROW, step;
    for (step = 0; step < n && step < limit; step++) {
        if (pv_report_row_matches_buf(r, pv_report_row(r, i), text, &scratch)) {
            found = i;
            break;
        }
        i = dir > 0 ? (i + 1 == n ? 0 : i + 1) : (i == 0 ? n - 1 : i - 1);
    }
    pv_buf_free(&scratch);
    if (found == PV_NO_ROW && step < n)
        *complete = false;
    return found;
}

size_t pv_report_search(const pv_report *r, const char *text, size_t from, int dir)
{
    bool complete;
    return pv_report_search_some(r, text, from, dir, SIZE_MAX, &complete);
}

bool pv_report_is_context(const pv_report *r, size_t model_row)
{
    return r->self_match && model_row < pv_view_rows(r->view) && !pv_bit(r->self_match, model_row);
}

/* ---- long work in steps (docs/tui.md "Long operations") */

/* What a search compares per row, decided once per search: the shown
 * columns that can hold the text at all (a number's text has only digits,
 * signs, hex digits...), the grouped ones answered once per row group
 * (model.h: PV_COL_GROUPED), and the answer for a string cell remembered by
 * its pointer (a view's strings stay put: the same pointer is the same
 * text, and a timeline has few distinct contexts and event names). */
typedef struct pv_matcher {
    const pv_report *r;
    char *text;
    size_t *cols, ncols;   /* ungrouped */
    size_t *gcols, ngcols; /* grouped */
    uint8_t *group_ans;    /* per group: 0 unknown, 1 no, 2 yes */
    uint32_t groups;
    struct {
        const char *ptr;
        size_t len;
        uint8_t ans;
    } pc[512];
    pv_buf scratch;
} pv_matcher;

typedef struct pv_values_hit {
    const char *text;
    bool hit;
} pv_values_hit;

static void pv_values_check(void *ctx, const char *s, size_t len)
{
    pv_values_hit *h = ctx;
    h->hit = h->hit || pv_contains_ci(s, len, h->text);
}

/* False when the view lists every text the column can show and none holds
 * `text` (pv_view_hooks.column_values): the column cannot match. */
static bool pv_column_may_hold(const pv_view *v, size_t col, const char *text)
{
    pv_values_hit h = {text, false};
    return !pv_view_column_values(v, col, pv_values_check, &h) || h.hit;
}

static void pv_matcher_init(pv_matcher *m, const pv_report *r, const char *text)
{
    memset(m, 0, sizeof *m);
    m->r = r;
    m->text = pv_xstrdup(text);
    const pv_view *v = r->view;
    size_t cols = v->column_count;
    m->cols = pv_xmalloc((cols + 1) * sizeof *m->cols);
    m->gcols = pv_xmalloc((cols + 1) * sizeof *m->gcols);
    bool groups = v->ops->row_group && v->group_count;
    for (size_t c = 0; c < cols; c++) {
        if (r->hidden[c] || !pv_text_fits_type(v->columns[c].type, text) ||
            !pv_column_may_hold(v, c, text))
            continue;
        if (groups && (v->columns[c].flags & PV_COL_GROUPED))
            m->gcols[m->ngcols++] = c;
        else
            m->cols[m->ncols++] = c;
    }
    if (groups && m->ngcols) {
        m->groups = v->group_count;
        m->group_ans = pv_xcalloc(m->groups, 1);
    }
    pv_buf_init(&m->scratch);
}

static void pv_matcher_free(pv_matcher *m)
{
    free(m->text);
    free(m->cols);
    free(m->gcols);
    free(m->group_ans);
    pv_buf_free(&m->scratch);
}

static bool pv_matcher_cell(pv_matcher *m, size_t row, size_t col)
{
    pv_cell c;
    pv_view_cell(m->r->view, row, col, &c);
    if (!c.present)
        return false;
    if (c.type != PV_TYPE_STRING) {
        pv_buf_clear(&m->scratch);
        pv_cell_format_exact(&c, &m->scratch);
        return pv_contains_ci(pv_buf_cstr(&m->scratch), m->scratch.len, m->text);
    }
    size_t slot = (((uintptr_t)c.v.s.ptr >> 3) ^ c.v.s.len) & 511;
    if (m->pc[slot].ptr == c.v.s.ptr && m->pc[slot].len == c.v.s.len && c.v.s.ptr)
        return m->pc[slot].ans;
    bool hit = pv_contains_ci(c.v.s.ptr, c.v.s.len, m->text);
    m->pc[slot].ptr = c.v.s.ptr;
    m->pc[slot].len = c.v.s.len;
    m->pc[slot].ans = hit;
    return hit;
}

static bool pv_matcher_row(pv_matcher *m, size_t row)
{
    for (size_t i = 0; i < m->ncols; i++)
        if (pv_matcher_cell(m, row, m->cols[i]))
            return true;
    if (!m->ngcols)
        return false;
    uint32_t g = m->group_ans ? m->r->view->ops->row_group(m->r->view, row) : UINT32_MAX;
    if (g < m->groups && m->group_ans[g])
        return m->group_ans[g] == 2;
    bool hit = false;
    for (size_t i = 0; i < m->ngcols && !hit; i++)
        hit = pv_matcher_cell(m, row, m->gcols[i]);
    if (g < m->groups)
        m->group_ans[g] = hit ? 2 : 1;
    return hit;
}

enum { PV_RJ_SEARCH = 1, PV_RJ_SELECT, PV_RJ_REVERSE, PV_RJ_OPEN, PV_RJ_EXPAND };
enum {
    PV_RJ_FILTER,
    PV_RJ_COLLECT,
    PV_RJ_SORT,
    PV_RJ_FIND,
    PV_RJ_MARK,   /* trees: the new bits (matches, opened ancestors) */
    PV_RJ_LAYOUT, /* trees: the new visible list */
    PV_RJ_LFIND,  /* trees: the selected row in it */
    PV_RJ_FLIP,
    PV_RJ_RUNS,
    PV_RJ_GROUP, /* OPEN: a call tree grouped by thread (group.c) */
    PV_RJ_XBITS, /* EXPAND: the subtree's collapsed bits cleared */
    PV_RJ_XOLD,  /* ... the node's rows shown now, counted */
    PV_RJ_XCOPY, /* ... the new visible list: the rows above, the subtree, the rows below */
    PV_RJ_DONE
};

struct pv_report_job {
    int kind;
    pv_report *r;
    int phase;
    size_t at, n;
    bool found;
    /* SEARCH: positions in the selection (pre-order, collapsed nodes too) */
    pv_matcher m;
    size_t next, looked, found_pos;
    int dir;
    /* SELECT */
    char *expr;
    pv_filter *f;
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t key_count;
    pv_row *sel; /* the new selection */
    size_t count, matched;
    uint8_t *keep; /* trees: 1 matched itself, 2 ancestor of a match */
    pv_sort_job *sort;
    size_t keep_row; /* the selected row, selected again at the end */
    size_t keep_at;  /* where it is in the new selection (FIND) or visible list (LFIND) */
    /* trees: the new bits and visible list (MARK, LAYOUT, LFIND) */
    uint8_t *new_self, *new_collapsed, *new_kids;
    pv_layout lay;
    /* OPEN: the report being opened (moved to *r when done), the grouping
     * being built, the columns asked for */
    pv_report open;
    pv_group_job *group;
    pv_view *base;
    char *columns;
    /* EXPAND: the node at visible index x_k and selection position x_p,
     * its subtree up to position x_end; the rows shown below it now end at
     * visible index x_old; the new list (x_vis, x_depth) is filled at x_at;
     * x_stack: the subtree ends of the rows open above the walk */
    size_t x_k, x_p, x_end, x_old, x_count;
    pv_row *x_vis;
    uint32_t *x_depth;
    size_t *x_stack, x_sp, x_cap, x_src;
    /* REVERSE */
    size_t run_start, keep_pos;
    size_t rev_x, rev_y; /* a run being turned back: positions still to swap */
    uint64_t done, total;
    double deadline; /* pv_work_clock time a step ends at (0: none) */
};

/* Past the step's deadline (docs/tui.md "Long operations": a step stops
 * at its slice's end whatever its budget). */
static bool pv_report_job_late(const pv_report_job *j)
{
    return j->deadline > 0 && pv_work_clock() >= j->deadline;
}

pv_report *pv_report_job_report(const pv_report_job *j)
{
    return j->r;
}

void pv_report_job_move(pv_report_job *j, pv_report *r)
{
    j->r = r;
    if (j->kind == PV_RJ_SEARCH)
        j->m.r = r;
}

bool pv_report_job_found(const pv_report_job *j)
{
    return j->found;
}

/* The selection position of visible index i: the same for a table; a
 * tree's visible row is looked up in the selection (pre-order). */
static size_t pv_report_sel_pos(const pv_report *r, size_t i)
{
    if (!r->vis)
        return i;
    size_t row = r->vis[i];
    if (!r->sel)
        return row;
    for (size_t p = 0; p < r->sel_count; p++)
        if (r->sel[p] == row)
            return p;
    return 0;
}

pv_report_job *pv_report_search_job(pv_report *r, const char *text, size_t from, int dir)
{
    pv_report_job *j = pv_xcalloc(1, sizeof *j);
    j->kind = PV_RJ_SEARCH;
    j->r = r;
    j->dir = dir;
    j->n = pv_report_sel_count(r);
    size_t count = pv_report_count(r);
    if (from >= count)
        from = dir > 0 || !count ? 0 : count - 1;
    j->next = count ? pv_report_sel_pos(r, from) : 0;
    j->total = j->n;
    pv_matcher_init(&j->m, r, text);
    /* no column can hold the text (a number column and a needle with
     * letters; listed texts without it): nothing to look at */
    if (!text[0] || !j->n || (!j->m.ncols && !j->m.ngcols))
        j->phase = PV_RJ_DONE;
    return j;
}

static void pv_report_search_finish(pv_report_job *j)
{
    pv_report *r = j->r;
    if (!j->found)
        return;
    if (r->vis)
        pv_report_select_row(r, pv_report_sel_row(r, j->found_pos)); /* expands the path */
    else
        pv_report_move_to(r, j->found_pos);
}

static bool pv_report_search_step(pv_report_job *j, size_t budget)
{
    pv_report *r = j->r;
    unsigned tick = 0;
    while (budget-- > 0 && j->looked < j->n) {
        if ((++tick & 1023) == 0 && pv_report_job_late(j))
            break;
        size_t p = j->next;
        j->looked++;
        j->next = j->dir > 0 ? (p + 1 == j->n ? 0 : p + 1) : (p == 0 ? j->n - 1 : p - 1);
        if (pv_matcher_row(&j->m, pv_report_sel_row(r, p))) {
            j->found = true;
            j->found_pos = p;
            j->phase = PV_RJ_DONE;
            pv_report_search_finish(j);
            return true;
        }
    }
    j->done = j->looked;
    if (j->looked == j->n)
        j->phase = PV_RJ_DONE;
    return j->phase == PV_RJ_DONE;
}

pv_report_job *pv_report_select_job(pv_report *r, const char *expr, const pv_sort_key *keys,
                                    size_t key_count, pv_query_error *err)
{
    memset(err, 0, sizeof *err);
    pv_filter *f = NULL;
    if (expr[0]) {
        f = pv_filter_compile(r->view, expr, err);
        if (!f && err->message[0])
            return NULL;
    }
    pv_report_job *j = pv_xcalloc(1, sizeof *j);
    j->kind = PV_RJ_SELECT;
    j->r = r;
    j->expr = pv_xstrdup(expr);
    j->f = f;
    if (key_count > PV_SORT_MAX_KEYS)
        key_count = PV_SORT_MAX_KEYS;
    if (key_count) /* keys may be NULL when the sort is cleared */
        memcpy(j->keys, keys, key_count * sizeof *keys);
    j->key_count = key_count;
    j->n = pv_view_rows(r->view);
    j->keep_row = pv_report_count(r) ? pv_report_selected(r) : PV_NO_ROW;
    j->keep_at = PV_NO_ROW;
    j->phase = f ? PV_RJ_FILTER : PV_RJ_SORT;
    if (f) {
        j->sel = pv_xmalloc((j->n ? j->n : 1) * sizeof *j->sel);
        if (pv_view_is_tree(r->view))
            j->keep = pv_xcalloc(j->n ? j->n : 1, 1);
    }
    j->total = (f ? j->n : 0) + (key_count ? 4 * j->n : 0) + 1;
    if (pv_view_is_tree(r->view))
        j->total += 3 * (uint64_t)j->n; /* MARK, LAYOUT, LFIND */
    return j;
}

void pv_report_job_select(pv_report_job *j, size_t model_row)
{
    if (j->kind == PV_RJ_SELECT && model_row < j->n)
        j->keep_row = model_row;
}

/* The finishing step of a filter and sort: the new selection (and a
 * tree's new bits and visible list, laid out by the steps before) goes in;
 * what it replaces goes to the trash. */
static void pv_report_select_finish(pv_report_job *j)
{
    pv_report *r = j->r;
    bool tree = pv_view_is_tree(r->view);
    size_t bits = j->n / 8 + 1;
    pv_report_discard(r, r->sel, r->sel_count * sizeof *r->sel);
    r->sel = j->sel;
    r->sel_count = j->sel ? j->count : 0;
    j->sel = NULL;
    r->matched = j->f ? j->matched : 0;
    pv_report_discard(r, r->self_match, r->self_match ? bits : 0);
    r->self_match = NULL;
    if (r->filter != j->expr) {
        free(r->filter);
        r->filter = j->expr;
        j->expr = NULL;
    }
    memcpy(r->sort, j->keys, j->key_count * sizeof *j->keys);
    r->sort_count = j->key_count;
    r->cursor = 0;
    r->top = 0;
    if (tree) {
        /* matched rows apart from the ancestors kept for context
         * (new_self), the ancestors of a match and of the selected row
         * opened (new_collapsed), all made by MARK and LAYOUT */
        r->self_match = j->new_self;
        j->new_self = NULL;
        pv_report_discard(r, r->collapsed, bits);
        r->collapsed = j->new_collapsed;
        j->new_collapsed = NULL;
        pv_report_discard(r, r->has_kids, bits);
        r->has_kids = j->new_kids;
        j->new_kids = NULL;
        pv_layout_take(&j->lay, r);
        r->cursor = j->keep_at != PV_NO_ROW ? j->keep_at : 0;
        return;
    }
    if (j->keep_at != PV_NO_ROW)
        r->cursor = j->keep_at; /* found in steps (FIND) */
    else if (j->keep_row != PV_NO_ROW && !pv_report_select_row(r, j->keep_row))
        r->cursor = 0;
}

/* The selection is known: what comes next. */
static void pv_report_select_chosen(pv_report_job *j)
{
    j->at = 0;
    if (pv_view_is_tree(j->r->view))
        j->phase = PV_RJ_MARK;
    else if (j->key_count && j->keep_row != PV_NO_ROW)
        j->phase = PV_RJ_FIND; /* a sorted table finds the selected row in steps too */
    else
        j->phase = PV_RJ_DONE;
}

/* MARK: a tree's new bits, about `budget` rows of them; then the ancestors
 * of the row to select open, and LAYOUT starts. */
static size_t pv_report_mark_step(pv_report_job *j, size_t budget)
{
    pv_report *r = j->r;
    size_t n = j->n, bits = n / 8 + 1;
    if (!j->new_collapsed) {
        j->new_collapsed = pv_xmalloc(bits);
        memcpy(j->new_collapsed, r->collapsed, bits);
        j->new_kids = pv_xcalloc(bits, 1);
        if (j->keep)
            j->new_self = pv_xcalloc(bits, 1);
        if (!j->keep)
            j->at = n; /* nothing to mark */
    }
    size_t end = budget < n - j->at ? j->at + budget : n;
    for (size_t i = j->at; i < end; i++) {
        if (j->keep[i] & 1)
            pv_bit_set(j->new_self, i, true);
        if (j->keep[i] & 2)
            pv_bit_set(j->new_collapsed, i, false);
    }
    size_t used = end - j->at;
    j->done += used;
    j->at = end;
    if (end < n)
        return used;
    if (j->keep_row != PV_NO_ROW) {
        size_t guard = n;
        for (size_t p = pv_view_parent(r->view, j->keep_row); p != PV_NO_ROW && p < n && guard--;
             p = pv_view_parent(r->view, p))
            pv_bit_set(j->new_collapsed, p, false);
    }
    const pv_row *sel = j->sel;
    size_t count = j->sel ? j->count : n;
    pv_layout_init(&j->lay, r->view, sel, count, j->new_collapsed, j->new_kids);
    j->phase = PV_RJ_LAYOUT;
    j->at = 0;
    return used + 1;
}

static bool pv_report_select_step(pv_report_job *j, size_t budget)
{
    pv_report *r = j->r;
    const pv_view *v = r->view;
    size_t n = j->n;
    for (bool first = true; budget > 0 && j->phase != PV_RJ_DONE; first = false) {
        if (!first && pv_report_job_late(j))
            break;
        if (j->phase == PV_RJ_FILTER) {
            size_t end = budget < n - j->at ? j->at + budget : n;
            for (size_t row = j->at; row < end; row++) {
                if ((row & 1023) == 1023 && row > j->at && pv_report_job_late(j)) {
                    end = row; /* the slice is over */
                    break;
                }
                if (!pv_filter_match(j->f, v, row))
                    continue;
                j->matched++;
                if (!j->keep) {
                    j->sel[j->count++] = (pv_row)row;
                    continue;
                }
                /* docs/filter.md: a tree keeps the ancestors of a match;
                 * each walk up stops at the first one already kept */
                j->keep[row] |= 1;
                size_t steps = 0;
                for (size_t p = pv_view_parent(v, row);
                     p != PV_NO_ROW && p < n && !(j->keep[p] & 2) && steps < n;
                     p = pv_view_parent(v, p), steps++)
                    j->keep[p] |= 2;
            }
            budget -= end - j->at;
            j->done += end - j->at;
            j->at = end;
            if (end == n) {
                j->at = 0;
                j->phase = j->keep ? PV_RJ_COLLECT : PV_RJ_SORT;
            }
        } else if (j->phase == PV_RJ_COLLECT) {
            size_t end = budget < n - j->at ? j->at + budget : n;
            for (size_t row = j->at; row < end; row++)
                if (j->keep[row])
                    j->sel[j->count++] = (pv_row)row;
            budget -= (end - j->at + 7) / 8 + 1 < budget ? (end - j->at + 7) / 8 + 1 : budget;
            j->at = end;
            if (end == n)
                j->phase = PV_RJ_SORT;
        } else if (j->phase == PV_RJ_SORT) {
            if (!j->key_count) {
                pv_report_select_chosen(j);
                continue;
            }
            if (!j->sort)
                j->sort = pv_sort_job_new(v, j->keys, j->key_count, j->f ? j->sel : NULL,
                                          j->f ? j->count : n);
            pv_sort_job_deadline(j->sort, j->deadline);
            if (pv_sort_job_step(j->sort, budget)) {
                free(j->sel);
                j->sel = pv_sort_job_take(j->sort);
                if (!j->f)
                    j->count = n;
                pv_sort_job_free(j->sort);
                j->sort = NULL;
                pv_report_select_chosen(j);
            } else {
                j->done = (j->f ? n : 0) + (uint64_t)(pv_sort_job_progress(j->sort) * 4.0 * (double)n);
            }
            budget = 0;
        } else if (j->phase == PV_RJ_FIND) {
            size_t end = budget < j->count - j->at ? j->at + budget : j->count;
            for (size_t i = j->at; i < end; i++)
                if (j->sel[i] == j->keep_row) {
                    j->keep_at = i;
                    end = j->count;
                    break;
                }
            budget -= end - j->at < budget ? end - j->at : budget;
            j->at = end;
            if (end == j->count) {
                if (j->keep_at == PV_NO_ROW)
                    j->keep_row = PV_NO_ROW; /* filtered out: the first row */
                j->phase = PV_RJ_DONE;
            }
        } else if (j->phase == PV_RJ_MARK) {
            size_t used = pv_report_mark_step(j, budget);
            budget -= used < budget ? used : budget;
        } else if (j->phase == PV_RJ_LAYOUT) {
            /* a row laid out (its parent read, through the grouping by
             * thread of a call tree, the stack walked) costs about sixteen
             * filtered ones (measured: ~400 ns a row on the 9.6 M-call tree
             * of the 50 M-event timeline): 1/16 of the budget in rows */
            size_t before = j->lay.at;
            j->lay.deadline = j->deadline;
            bool laid = pv_layout_step(&j->lay, budget / 16 + 1);
            size_t used = 16 * (j->lay.at - before);
            j->done += used / 16;
            if (!laid && pv_report_job_late(j))
                break;
            budget -= used < budget ? used : budget;
            if (laid) {
                j->phase = j->keep_row != PV_NO_ROW ? PV_RJ_LFIND : PV_RJ_DONE;
                j->at = 0;
                if (!used && budget)
                    budget--; /* an empty selection: still progress */
            }
        } else if (j->phase == PV_RJ_LFIND) {
            size_t count = j->lay.count;
            size_t end = budget < count - j->at ? j->at + budget : count;
            for (size_t i = j->at; i < end; i++)
                if (j->lay.vis[i] == j->keep_row) {
                    j->keep_at = i;
                    end = count;
                    break;
                }
            budget -= end - j->at < budget ? end - j->at : budget;
            j->done += end - j->at;
            j->at = end;
            if (end == count) {
                j->phase = PV_RJ_DONE;
                if (!count && budget)
                    budget--;
            }
        }
    }
    if (j->phase == PV_RJ_DONE) {
        pv_report_select_finish(j);
        return true;
    }
    return false;
}

/* Are the rows at selection positions a and b equal in every sort key? */
static bool pv_report_same_keys(const pv_report *r, const pv_row *sel, size_t a, size_t b)
{
    const pv_view *v = r->view;
    bool groups = v->ops->row_group && v->group_count;
    for (size_t k = 0; k < r->sort_count; k++) {
        pv_cell x, y;
        if (groups && (v->columns[r->sort[k].column].flags & PV_COL_GROUPED) &&
            v->ops->row_group(v, sel[a]) == v->ops->row_group(v, sel[b]))
            continue; /* the same group, the same value (model.h) */
        pv_view_cell(r->view, sel[a], r->sort[k].column, &x);
        pv_view_cell(r->view, sel[b], r->sort[k].column, &y);
        if (pv_cell_compare(&x, &y) != 0)
            return false;
    }
    return true;
}

pv_report_job *pv_report_reverse_job(pv_report *r)
{
    if (!r->sort_count)
        return NULL;
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    for (size_t k = 0; k < r->sort_count; k++) {
        keys[k] = r->sort[k];
        keys[k].descending = !keys[k].descending;
    }
    if (pv_view_is_tree(r->view)) {
        /* siblings reverse among themselves: the tree is sorted again */
        pv_query_error err;
        return pv_report_select_job(r, r->filter, keys, r->sort_count, &err);
    }
    pv_report_job *j = pv_xcalloc(1, sizeof *j);
    j->kind = PV_RJ_REVERSE;
    j->r = r;
    j->n = r->sel_count;
    memcpy(j->keys, keys, sizeof keys);
    j->key_count = r->sort_count;
    j->sel = pv_xmalloc((j->n ? j->n : 1) * sizeof *j->sel);
    j->phase = PV_RJ_FLIP;
    j->keep_pos = j->n ? j->n - 1 - (r->cursor < j->n ? r->cursor : j->n - 1) : 0;
    j->total = 3 * (uint64_t)j->n + 1;
    return j;
}

static bool pv_report_reverse_step(pv_report_job *j, size_t budget)
{
    pv_report *r = j->r;
    size_t n = j->n;
    for (bool first = true; budget > 0 && j->phase != PV_RJ_DONE; first = false) {
        if (!first && pv_report_job_late(j))
            break;
        if (j->phase == PV_RJ_FLIP) {
            size_t end = budget < n - j->at ? j->at + budget : n;
            for (size_t i = j->at; i < end; i++)
                j->sel[i] = r->sel[n - 1 - i];
            budget -= end - j->at;
            j->done += end - j->at;
            j->at = end;
            if (end == n) {
                j->at = 1;
                j->run_start = 0;
                j->phase = PV_RJ_RUNS;
            }
        } else {
            /* Equal keys came out reversed: each run of them back in order
             * (a run may be millions of rows: its swaps in steps too). */
            if (j->rev_x < j->rev_y) {
                size_t k = (j->rev_y - j->rev_x + 1) / 2;
                k = k < budget ? k : budget;
                for (size_t s = 0; s < k; s++, j->rev_x++, j->rev_y--) {
                    pv_row t = j->sel[j->rev_x];
                    j->sel[j->rev_x] = j->sel[j->rev_y];
                    j->sel[j->rev_y] = t;
                }
                budget -= k < budget ? k : budget;
                continue;
            }
            /* a row compares two rows' key cells: eight units of the
             * budget, as a sort's cell reading weighs four */
            size_t rows = budget / 8 + 1;
            size_t end = rows < n + 1 - j->at ? j->at + rows : n + 1;
            for (size_t i = j->at; i < end; i++) {
                if (i < n && pv_report_same_keys(r, j->sel, i - 1, i))
                    continue;
                size_t a = j->run_start, b = i;
                j->run_start = i;
                if (b - a > 1) {
                    if (j->keep_pos >= a && j->keep_pos < b)
                        j->keep_pos = a + (b - 1 - j->keep_pos);
                    j->rev_x = a; /* swapped from the next round on */
                    j->rev_y = b - 1;
                    end = i + 1;
                    break;
                }
            }
            budget -= 8 * (end - j->at) < budget ? 8 * (end - j->at) : budget;
            j->done += 2 * (end - j->at);
            j->at = end;
            if (j->rev_x < j->rev_y)
                continue; /* the run's swaps first */
            if (end >= n + 1 || n == 0)
                j->phase = PV_RJ_DONE;
        }
    }
    if (j->phase != PV_RJ_DONE)
        return false;
    pv_report_discard(r, r->sel, r->sel_count * sizeof *r->sel);
    r->sel = j->sel;
    j->sel = NULL;
    memcpy(r->sort, j->keys, j->key_count * sizeof *j->keys);
    r->cursor = j->keep_pos;
    return true;
}

/* ---- opening a tree in steps: its grouping by thread, then its first
 * layout (the report is opened into j->open, moved to *r when done) */

pv_report_job *pv_report_open_job(pv_report *r, pv_view *v, bool group, const char *columns)
{
    pv_report_job *j = pv_xcalloc(1, sizeof *j);
    j->kind = PV_RJ_OPEN;
    j->r = r;
    j->base = v;
    j->columns = columns ? pv_xstrdup(columns) : NULL;
    j->group = group ? pv_group_job_new(v) : NULL;
    j->phase = PV_RJ_GROUP;
    j->n = pv_view_rows(v);
    j->total = 2 * (uint64_t)j->n + 1; /* grouping, layout */
    return j;
}

/* The view is known: the report's columns and bits; LAYOUT next (trees). */
static void pv_report_open_view(pv_report_job *j, pv_view *v, bool owned)
{
    pv_report *o = &j->open;
    memset(o, 0, sizeof *o);
    o->view = v;
    o->owned = owned;
    o->hidden = pv_xcalloc(v->column_count + 1, 1);
    o->widths = pv_xcalloc(v->column_count + 1, sizeof *o->widths);
    o->time_fmt = pv_xcalloc(v->column_count + 1, 1);
    o->filter = pv_xstrdup("");
    pv_report_apply_columns(o, j->columns);
    j->phase = PV_RJ_DONE;
    if (!pv_view_is_tree(v))
        return;
    size_t rows = pv_view_rows(v);
    o->collapsed = pv_xcalloc(rows / 8 + 1, 1);
    o->has_kids = pv_xcalloc(rows / 8 + 1, 1);
    if (rows > PV_REPORT_EXPAND_LIMIT)
        memset(o->collapsed, 0xff, rows / 8 + 1);
    pv_layout_init(&j->lay, v, NULL, rows, o->collapsed, o->has_kids);
    j->lay.deadline = j->deadline;
    j->phase = PV_RJ_LAYOUT;
}

static bool pv_report_open_step(pv_report_job *j, size_t budget)
{
    for (bool first = true; budget > 0 && j->phase != PV_RJ_DONE; first = false) {
        if (!first && pv_report_job_late(j))
            break;
        if (j->phase == PV_RJ_GROUP) {
            if (j->group) {
                pv_group_job_deadline(j->group, j->deadline);
                if (!pv_group_job_step(j->group, budget)) {
                    j->done = (uint64_t)(pv_group_job_progress(j->group) * (double)j->n);
                    return false;
                }
            }
            pv_view *g = j->group ? pv_group_job_take(j->group) : NULL;
            pv_group_job_free(j->group);
            j->group = NULL;
            j->done = j->n;
            pv_report_open_view(j, g ? g : j->base, g != NULL);
            budget--;
        } else if (j->phase == PV_RJ_LAYOUT) {
            /* a row laid out weighs sixteen units, as in a filter's layout */
            size_t before = j->lay.at;
            j->lay.deadline = j->deadline;
            bool laid = pv_layout_step(&j->lay, budget / 16 + 1);
            size_t used = 16 * (j->lay.at - before);
            j->done = j->n + j->lay.at * j->n / (j->lay.n ? j->lay.n : 1);
            budget -= used < budget ? used : budget;
            if (laid)
                j->phase = PV_RJ_DONE;
        }
    }
    if (j->phase != PV_RJ_DONE)
        return false;
    pv_report *o = &j->open;
    if (j->lay.vis)
        pv_layout_take(&j->lay, o);
    pv_layout_free(&j->lay);
    *j->r = *o;
    memset(o, 0, sizeof *o);
    return true;
}

/* ---- expanding everything below a node in steps: with the subtree ends
 * of the layout, every position of the node's subtree is shown once all is
 * open, and its depth follows from the ends (no parent read) */

pv_report_job *pv_report_expand_all_job(pv_report *r)
{
    size_t row = pv_report_selected(r);
    if (!r->collapsed || !r->vis || row == PV_NO_ROW || !pv_bit(r->has_kids, row) ||
        !r->sub_end || r->sub_count != pv_report_sel_count(r))
        return NULL;
    size_t p = pv_report_pos_of(r, row);
    if (p == PV_NO_ROW)
        return NULL;
    pv_report_job *j = pv_xcalloc(1, sizeof *j);
    j->kind = PV_RJ_EXPAND;
    j->r = r;
    j->n = pv_view_rows(r->view);
    j->x_k = r->cursor;
    j->x_p = p;
    j->x_end = r->sub_end[p];
    j->at = p;
    j->x_old = r->cursor + 1;
    j->phase = PV_RJ_XBITS;
    size_t sub = j->x_end - p;
    j->total = 2 * (uint64_t)sub + r->vis_count + 1;
    j->new_collapsed = pv_xmalloc(j->n / 8 + 1);
    memcpy(j->new_collapsed, r->collapsed, j->n / 8 + 1);
    return j;
}

static bool pv_report_expand_step(pv_report_job *j, size_t budget)
{
    pv_report *r = j->r;
    for (bool first = true; budget > 0 && j->phase != PV_RJ_DONE; first = false) {
        if (!first && pv_report_job_late(j))
            break;
        if (j->phase == PV_RJ_XBITS) {
            size_t end = budget < j->x_end - j->at ? j->at + budget : j->x_end;
            for (size_t q = j->at; q < end; q++)
                pv_bit_set(j->new_collapsed, pv_report_sel_row(r, q), false);
            budget -= end - j->at;
            j->done += end - j->at;
            j->at = end;
            if (end == j->x_end)
                j->phase = PV_RJ_XOLD;
        } else if (j->phase == PV_RJ_XOLD) {
            uint32_t d = r->vis_depth[j->x_k];
            size_t i = j->x_old, stop = budget < r->vis_count - i ? i + budget : r->vis_count;
            while (i < stop && r->vis_depth[i] > d)
                i++;
            budget -= i - j->x_old < budget ? i - j->x_old : budget;
            if (budget)
                budget--;
            j->x_old = i;
            if (i < stop || i == r->vis_count) {
                /* the new list: the rows above and the node, its whole
                 * subtree, the rows below */
                size_t sub = j->x_end - j->x_p - 1;
                j->x_count = j->x_k + 1 + sub + (r->vis_count - j->x_old);
                j->x_vis = pv_xmalloc((j->x_count ? j->x_count : 1) * sizeof *j->x_vis);
                j->x_depth = pv_xmalloc((j->x_count ? j->x_count : 1) * sizeof *j->x_depth);
                j->x_cap = 64;
                j->x_stack = pv_xmalloc(j->x_cap * sizeof *j->x_stack);
                j->x_stack[0] = j->x_end;
                j->x_sp = 1;
                j->at = 0;
                j->x_src = 0;
                j->phase = PV_RJ_XCOPY;
            }
        } else if (j->phase == PV_RJ_XCOPY) {
            size_t sub = j->x_end - j->x_p - 1, above = j->x_k + 1;
            size_t end = budget < j->x_count - j->at ? j->at + budget : j->x_count;
            size_t i = j->at;
            if (i < above) { /* the rows above, the node */
                size_t e = end < above ? end : above;
                memcpy(j->x_vis + i, r->vis + i, (e - i) * sizeof *j->x_vis);
                memcpy(j->x_depth + i, r->vis_depth + i, (e - i) * sizeof *j->x_depth);
                i = e;
            }
            uint32_t d0 = r->vis_depth[j->x_k];
            for (; i < end && i < above + sub; i++) { /* the subtree, all open */
                size_t q = j->x_p + 1 + (i - above);
                while (j->x_sp > 0 && j->x_stack[j->x_sp - 1] <= q)
                    j->x_sp--;
                j->x_vis[i] = (pv_row)pv_report_sel_row(r, q);
                j->x_depth[i] = d0 + (uint32_t)j->x_sp;
                if (r->sub_end[q] > q + 1) {
                    j->x_stack = pv_xgrow(j->x_stack, &j->x_cap, j->x_sp + 1, sizeof *j->x_stack);
                    j->x_stack[j->x_sp++] = r->sub_end[q];
                }
            }
            if (i < end) { /* the rows below */
                size_t from = j->x_old + (i - above - sub);
                memcpy(j->x_vis + i, r->vis + from, (end - i) * sizeof *j->x_vis);
                memcpy(j->x_depth + i, r->vis_depth + from, (end - i) * sizeof *j->x_depth);
            }
            budget -= end - j->at;
            j->done += end - j->at;
            j->at = end;
            if (end == j->x_count)
                j->phase = PV_RJ_DONE;
        }
    }
    if (j->phase != PV_RJ_DONE)
        return false;
    size_t bits = j->n / 8 + 1;
    pv_report_discard(r, r->collapsed, bits);
    r->collapsed = j->new_collapsed;
    j->new_collapsed = NULL;
    pv_report_discard(r, r->vis, r->vis_count * sizeof *r->vis);
    pv_report_discard(r, r->vis_depth, r->vis_count * sizeof *r->vis_depth);
    r->vis = j->x_vis;
    r->vis_depth = j->x_depth;
    r->vis_count = j->x_count;
    j->x_vis = NULL;
    j->x_depth = NULL;
    r->cursor = j->x_k;
    return true;
}

void pv_report_job_deadline(pv_report_job *j, double deadline)
{
    j->deadline = deadline;
}

bool pv_report_job_step(pv_report_job *j, size_t budget)
{
    if (budget == 0)
        budget = 1;
    switch (j->kind) {
    case PV_RJ_SEARCH:
        if (j->phase == PV_RJ_DONE)
            return true;
        return pv_report_search_step(j, budget);
    case PV_RJ_SELECT:
        return pv_report_select_step(j, budget);
    case PV_RJ_REVERSE:
        return pv_report_reverse_step(j, budget);
    case PV_RJ_OPEN:
        return pv_report_open_step(j, budget);
    case PV_RJ_EXPAND:
        return pv_report_expand_step(j, budget);
    }
    return true;
}

double pv_report_job_progress(const pv_report_job *j)
{
    if (j->phase == PV_RJ_DONE || !j->total)
        return 1.0;
    double f = (double)j->done / (double)j->total;
    return f > 0.99 ? 0.99 : f;
}

void pv_report_job_free(pv_report_job *j)
{
    if (!j)
        return;
    if (j->kind == PV_RJ_SEARCH)
        pv_matcher_free(&j->m);
    free(j->expr);
    pv_filter_free(j->f);
    free(j->sel);
    free(j->keep);
    pv_sort_job_free(j->sort);
    free(j->new_self);
    free(j->new_collapsed);
    free(j->new_kids);
    pv_layout_free(&j->lay);
    pv_group_job_free(j->group);
    pv_report_close(&j->open); /* an unfinished opening: its grouped view too */
    free(j->x_vis);
    free(j->x_depth);
    free(j->x_stack);
    free(j->columns);
    free(j);
}
