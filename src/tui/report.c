/* report.c - the generic report core: visible rows, trees, filter, sort,
 * search and columns over any pv_view (its jobs in steps: report_job.c,
 * report_select.c, report_tree_job.c; a tree's layout: report_layout.c). */
#include "tui/report_internal.h"
#include "profview/hooks.h"
#include "tui/group.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void pv_report_discard(pv_report *r, void *p, size_t bytes)
{
    if (r->trash)
        pv_trash_add(r->trash, p, bytes);
    else
        free(p);
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

void pv_report_apply_columns(pv_report *r, const char *columns)
{
    pv_buf bad;
    pv_buf_init(&bad);
    if (!columns || !pv_report_set_columns(r, columns, &bad)) {
        /* Columns empty in the whole view are hidden too: as the view
         * knows it (pv_view_column_empty: a fact of its index, at any
         * size), else where the view is small enough to look at every cell
         * (docs/tui.md "Columns"). */
        const pv_view *v = r->view;
        bool look = pv_view_rows(v) * v->column_count <= PV_REPORT_EMPTY_SCAN_CELLS;
        for (size_t c = 0; c < v->column_count; c++) {
            int known = pv_view_column_empty(v, c);
            bool empty = known >= 0 ? known == 1 : look && pv_report_column_empty(v, c);
            r->hidden[c] = (v->columns[c].flags & PV_COL_HIDDEN) != 0 ||
                           (!(v->columns[c].flags & (PV_COL_NAME | PV_COL_TREE)) && empty);
        }
        if (columns)
            r->bad_column = pv_xstrdup(pv_buf_cstr(&bad));
    }
    pv_buf_free(&bad);
}

void pv_report_open(pv_report *r, pv_view *v, bool owned, const char *columns)
{
    memset(r, 0, sizeof *r);
    r->scrolled_to = PV_NO_ROW;
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
    r->jumped = true;
}

static void pv_report_splice_in(pv_report *r, size_t k);

/* The visible index of model row `row` in a tree, PV_NO_ROW when it is not
 * shown.  Without a selection, or with a filter's (ascending), the visible
 * list is a part of the view's pre-order, which is its row order:
 * ascending, searched by halves (a tree of millions of visible rows; a
 * scan took 1.2-1.4 ms, twice per search); sorted, a scan. */
static size_t pv_report_vis_find(const pv_report *r, size_t row)
{
    const pv_row *vis = r->vis;
    size_t n = r->vis_count;
    if (!r->sel || !r->sort_count) {
        size_t lo = pv_u32_lower_bound(vis, 0, n, row);
        if (lo < n && vis[lo] == row)
            return lo;
    }
    size_t i = pv_u32_find(vis, 0, n, (uint32_t)row);
    return i < n ? i : PV_NO_ROW;
}

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
    size_t k = r->vis ? pv_report_vis_find(r, outer) : PV_NO_ROW;
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
    r->jumped = true; /* where the row is found: centred (pv_report.jumped) */
    if (r->collapsed)
        pv_report_open_path(r, model_row);
    size_t n = pv_report_count(r);
    if (!r->vis && !r->sel) {
        r->cursor = model_row; /* every row in view order: no search */
        return true;
    }
    if (!r->vis && !r->sort_count) {
        /* filtered only: the selection is in view order, ascending */
        size_t lo = pv_u32_lower_bound(r->sel, 0, n, model_row);
        if (lo < n && r->sel[lo] == model_row) {
            r->cursor = lo;
            return true;
        }
        return false;
    }
    size_t i = PV_NO_ROW;
    if (r->vis) {
        i = pv_report_vis_find(r, model_row);
    } else {
        for (size_t k = 0; k < n && i == PV_NO_ROW; k++)
            if (pv_report_row(r, k) == model_row)
                i = k;
    }
    if (i == PV_NO_ROW)
        return false;
    r->cursor = i;
    return true;
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

size_t pv_report_pos_of(const pv_report *r, size_t row)
{
    if (!r->sel)
        return row < pv_view_rows(r->view) ? row : PV_NO_ROW;
    if (!r->sort_count) {
        /* filtered only: the selection is in view order, ascending, and
         * searched by halves (a scan reads up to the whole selection: 9.6
         * M rows in the 50 M-event call tree) */
        size_t p = pv_u32_lower_bound(r->sel, 0, r->sel_count, row);
        return p < r->sel_count && r->sel[p] == row ? p : PV_NO_ROW;
    }
    size_t p = pv_u32_find(r->sel, 0, r->sel_count, (uint32_t)row);
    return p < r->sel_count ? p : PV_NO_ROW;
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
    size_t need = r->vis_count + added;
    if (need > r->vis_cap) {
        /* a layout leaves room for every row; this grows by half, not by
         * the rows added (copying millions of rows took 2.9 ms) */
        size_t vcap = r->vis_cap + r->vis_cap / 2;
        vcap = vcap > need ? vcap : need;
        vcap = vcap ? vcap : 1;
        r->vis = pv_xrealloc(r->vis, vcap * sizeof *r->vis);
        r->vis_depth = pv_xrealloc(r->vis_depth, vcap * sizeof *r->vis_depth);
        r->vis_cap = vcap;
    }
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

bool pv_contains_ci(const char *hay, size_t hay_len, const char *needle)
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
bool pv_text_fits_type(pv_type t, const char *text)
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
