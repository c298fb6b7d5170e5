/* report_select.c - a report's filter and sort, and the reverse of its
 * order, as jobs in steps (report.h, report_internal.h): the new
 * selection is built apart and goes in at the last step. */
#include "tui/group.h"
#include "tui/report_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    PV_SEL_FILTER,
    PV_SEL_COLLECT, /* trees: the rows kept (matches and their ancestors) */
    PV_SEL_SORT,
    PV_SEL_FIND,   /* tables: the selected row in the new selection */
    PV_SEL_MARK,   /* trees: the new bits (matches, opened ancestors) */
    PV_SEL_LAYOUT, /* trees: the new visible list */
    PV_SEL_LFIND,  /* trees: the selected row in it */
    PV_SEL_DONE
};

typedef struct pv_select_job {
    pv_report_job base;
    size_t n, at;
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
} pv_select_job;

/* The selection is known: what comes next. */
static int pv_select_chosen(pv_select_job *j)
{
    j->at = 0;
    if (pv_view_is_tree(j->base.r->view))
        return PV_SEL_MARK;
    if (j->key_count && j->keep_row != PV_NO_ROW)
        return PV_SEL_FIND; /* a sorted table finds the selected row in steps too */
    return PV_SEL_DONE;
}

/* Row `row` matched: kept, and in a tree its ancestors too (docs/filter.md:
 * each walk up stops at the first one already kept). */
static void pv_select_keep(pv_select_job *j, size_t row)
{
    const pv_view *v = j->base.r->view;
    size_t n = j->n, steps = 0;
    j->matched++;
    if (!j->keep) {
        j->sel[j->count++] = (pv_row)row;
        return;
    }
    j->keep[row] |= 1;
    for (size_t p = pv_view_parent(v, row); p != PV_NO_ROW && p < n && !(j->keep[p] & 2) && steps < n;
         p = pv_view_parent(v, p), steps++)
        j->keep[p] |= 2;
}

static int pv_select_filter(void *job, pv_budget *b)
{
    pv_select_job *j = job;
    const pv_view *v = j->base.r->view;
    size_t n = j->n, end = pv_budget_end(j->at, n, b->units);
    for (size_t row = j->at; row < end; row++) {
        if ((row & 1023) == 1023 && row > j->at && pv_budget_late(b)) {
            end = row; /* the slice is over */
            break;
        }
        if (pv_filter_match(j->f, v, row))
            pv_select_keep(j, row);
    }
    b->units -= end - j->at;
    j->base.done += end - j->at;
    j->at = end;
    if (end < n)
        return PV_SEL_FILTER;
    j->at = 0;
    return j->keep ? PV_SEL_COLLECT : PV_SEL_SORT;
}

static int pv_select_collect(void *job, pv_budget *b)
{
    pv_select_job *j = job;
    size_t n = j->n, end = pv_budget_end(j->at, n, b->units);
    for (size_t row = j->at; row < end; row++)
        if (j->keep[row])
            j->sel[j->count++] = (pv_row)row;
    pv_budget_spend(b, (end - j->at + 7) / 8 + 1);
    j->at = end;
    return end == n ? PV_SEL_SORT : PV_SEL_COLLECT;
}

static int pv_select_sort(void *job, pv_budget *b)
{
    pv_select_job *j = job;
    const pv_view *v = j->base.r->view;
    size_t n = j->n;
    if (!j->key_count)
        return pv_select_chosen(j);
    if (!j->sort)
        j->sort = pv_sort_job_new(v, j->keys, j->key_count, j->f ? j->sel : NULL, j->f ? j->count : n);
    pv_sort_job_deadline(j->sort, b->deadline);
    size_t budget = b->units;
    b->units = 0; /* the sort's step is the whole step */
    if (!pv_sort_job_step(j->sort, budget)) {
        j->base.done = (j->f ? n : 0) + (uint64_t)(pv_sort_job_progress(j->sort) * 4.0 * (double)n);
        return PV_SEL_SORT;
    }
    free(j->sel);
    j->sel = pv_sort_job_take(j->sort);
    if (!j->f)
        j->count = n;
    pv_sort_job_free(j->sort);
    j->sort = NULL;
    return pv_select_chosen(j);
}

/* FIND and LFIND: where the row to select is in `rows` (count of them). */
static bool pv_select_find(pv_select_job *j, const pv_row *rows, size_t count, pv_budget *b)
{
    size_t end = pv_budget_end(j->at, count, b->units);
    for (size_t i = j->at; i < end; i++)
        if (rows[i] == j->keep_row) {
            j->keep_at = i;
            end = count;
            break;
        }
    pv_budget_spend(b, end - j->at);
    j->at = end;
    return end == count;
}

static int pv_select_find_table(void *job, pv_budget *b)
{
    pv_select_job *j = job;
    if (!pv_select_find(j, j->sel, j->count, b))
        return PV_SEL_FIND;
    if (j->keep_at == PV_NO_ROW)
        j->keep_row = PV_NO_ROW; /* filtered out: the first row */
    return PV_SEL_DONE;
}

/* MARK: a tree's new bits, about b->units rows of them; then the ancestors
 * of the row to select open, and LAYOUT starts. */
static int pv_select_mark(void *job, pv_budget *b)
{
    pv_select_job *j = job;
    pv_report *r = j->base.r;
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
    size_t end = pv_budget_end(j->at, n, b->units);
    for (size_t i = j->at; i < end; i++) {
        if (j->keep[i] & 1)
            pv_bit_set(j->new_self, i, true);
        if (j->keep[i] & 2)
            pv_bit_set(j->new_collapsed, i, false);
    }
    size_t used = end - j->at;
    j->base.done += used;
    j->at = end;
    if (end < n) {
        pv_budget_spend(b, used);
        return PV_SEL_MARK;
    }
    pv_budget_spend(b, used + 1);
    if (j->keep_row != PV_NO_ROW) {
        size_t guard = n;
        for (size_t p = pv_view_parent(r->view, j->keep_row); p != PV_NO_ROW && p < n && guard--;
             p = pv_view_parent(r->view, p))
            pv_bit_set(j->new_collapsed, p, false);
    }
    pv_layout_init(&j->lay, r->view, j->sel, j->sel ? j->count : n, j->new_collapsed, j->new_kids);
    j->at = 0;
    return PV_SEL_LAYOUT;
}

static int pv_select_layout(void *job, pv_budget *b)
{
    /* a row laid out (its parent read, through the grouping by thread of a
     * call tree, the stack walked) costs about sixteen filtered ones
     * (measured: ~400 ns a row on the 9.6 M-call tree of the 50 M-event
     * timeline): 1/16 of the budget in rows */
    pv_select_job *j = job;
    size_t before = j->lay.at;
    j->lay.deadline = b->deadline;
    bool laid = pv_layout_step(&j->lay, b->units / 16 + 1);
    size_t used = 16 * (j->lay.at - before);
    j->base.done += used / 16;
    if (!laid && pv_budget_late(b))
        return PV_SEL_LAYOUT; /* the engine ends the step */
    pv_budget_spend(b, used);
    if (!laid)
        return PV_SEL_LAYOUT;
    j->at = 0;
    if (!used && b->units)
        b->units--; /* an empty selection: still progress */
    return j->keep_row != PV_NO_ROW ? PV_SEL_LFIND : PV_SEL_DONE;
}

static int pv_select_find_tree(void *job, pv_budget *b)
{
    pv_select_job *j = job;
    size_t before = j->at, count = j->lay.count;
    bool found = pv_select_find(j, j->lay.vis, count, b);
    j->base.done += j->at - before;
    if (!found)
        return PV_SEL_LFIND;
    if (!count && b->units)
        b->units--;
    return PV_SEL_DONE;
}

/* The finishing step of a filter and sort: the new selection (and a
 * tree's new bits and visible list, laid out by the steps before) goes in;
 * what it replaces goes to the trash. */
static void pv_select_finish(pv_report_job *job)
{
    pv_select_job *j = (pv_select_job *)job;
    pv_report *r = job->r;
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
        r->jumped = j->keep_at != PV_NO_ROW;
        return;
    }
    if (j->keep_at != PV_NO_ROW) {
        r->cursor = j->keep_at; /* found in steps (FIND) */
        r->jumped = true;
    }
    else if (j->keep_row != PV_NO_ROW && !pv_report_select_row(r, j->keep_row))
        r->cursor = 0;
}

static void pv_select_free(pv_report_job *job)
{
    pv_select_job *j = (pv_select_job *)job;
    free(j->expr);
    pv_filter_free(j->f);
    free(j->sel);
    free(j->keep);
    pv_sort_job_free(j->sort);
    free(j->new_self);
    free(j->new_collapsed);
    free(j->new_kids);
    pv_layout_free(&j->lay);
}

static void pv_select_select(pv_report_job *job, size_t model_row)
{
    pv_select_job *j = (pv_select_job *)job;
    if (model_row < j->n || model_row == PV_NO_ROW)
        j->keep_row = model_row; /* none: the first row */
}

static const pv_phase_fn pv_select_phases[] = {
    [PV_SEL_FILTER] = pv_select_filter, [PV_SEL_COLLECT] = pv_select_collect,
    [PV_SEL_SORT] = pv_select_sort,     [PV_SEL_FIND] = pv_select_find_table,
    [PV_SEL_MARK] = pv_select_mark,     [PV_SEL_LAYOUT] = pv_select_layout,
    [PV_SEL_LFIND] = pv_select_find_tree,
};
static const pv_report_job_ops pv_select_ops = {
    .phases = pv_select_phases,
    .done = PV_SEL_DONE,
    .finish = pv_select_finish,
    .free = pv_select_free,
    .select = pv_select_select,
};

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
    pv_select_job *j = (pv_select_job *)pv_report_job_new(sizeof *j, &pv_select_ops, r,
                                                          f ? PV_SEL_FILTER : PV_SEL_SORT);
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
    if (f) {
        j->sel = pv_xmalloc((j->n ? j->n : 1) * sizeof *j->sel);
        if (pv_view_is_tree(r->view))
            j->keep = pv_xcalloc(j->n ? j->n : 1, 1);
    }
    j->base.total = (f ? j->n : 0) + (key_count ? 4 * j->n : 0) + 1;
    if (pv_view_is_tree(r->view))
        j->base.total += 3 * (uint64_t)j->n; /* MARK, LAYOUT, LFIND */
    return &j->base;
}

/* ---- reverse: a sorted table's order turned around without sorting again */

enum { PV_REV_FLIP, PV_REV_RUNS, PV_REV_DONE };

typedef struct pv_reverse_job {
    pv_report_job base;
    size_t n, at;
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t key_count;
    pv_row *sel; /* the new selection */
    size_t run_start, keep_pos;
    bool top; /* the cursor goes to the first row (pv_report_job_select) */
    size_t rev_x, rev_y; /* a run being turned back: positions still to swap */
} pv_reverse_job;

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

static int pv_reverse_flip(void *job, pv_budget *b)
{
    pv_reverse_job *j = job;
    const pv_report *r = j->base.r;
    size_t n = j->n, end = pv_budget_end(j->at, n, b->units);
    for (size_t i = j->at; i < end; i++)
        j->sel[i] = r->sel[n - 1 - i];
    b->units -= end - j->at;
    j->base.done += end - j->at;
    j->at = end;
    if (end < n)
        return PV_REV_FLIP;
    j->at = 1;
    j->run_start = 0;
    return PV_REV_RUNS;
}

/* Equal keys came out reversed: each run of them back in order (a run may
 * be millions of rows: its swaps in steps too). */
static int pv_reverse_runs(void *job, pv_budget *b)
{
    pv_reverse_job *j = job;
    const pv_report *r = j->base.r;
    size_t n = j->n;
    if (j->rev_x < j->rev_y) {
        size_t k = (j->rev_y - j->rev_x + 1) / 2;
        k = k < b->units ? k : b->units;
        for (size_t s = 0; s < k; s++, j->rev_x++, j->rev_y--) {
            pv_row t = j->sel[j->rev_x];
            j->sel[j->rev_x] = j->sel[j->rev_y];
            j->sel[j->rev_y] = t;
        }
        pv_budget_spend(b, k);
        return PV_REV_RUNS;
    }
    /* a row compares two rows' key cells: eight units of the budget, as a
     * sort's cell reading weighs four */
    size_t end = pv_budget_end(j->at, n + 1, b->units / 8 + 1);
    for (size_t i = j->at; i < end; i++) {
        if (i < n && pv_report_same_keys(r, j->sel, i - 1, i))
            continue;
        size_t x = j->run_start, y = i;
        j->run_start = i;
        if (y - x > 1) {
            if (j->keep_pos >= x && j->keep_pos < y)
                j->keep_pos = x + (y - 1 - j->keep_pos);
            j->rev_x = x; /* swapped from the next round on */
            j->rev_y = y - 1;
            end = i + 1;
            break;
        }
    }
    pv_budget_spend(b, 8 * (end - j->at));
    j->base.done += 2 * (end - j->at);
    j->at = end;
    if (j->rev_x < j->rev_y)
        return PV_REV_RUNS; /* the run's swaps first */
    return end >= n + 1 || n == 0 ? PV_REV_DONE : PV_REV_RUNS;
}

static void pv_reverse_finish(pv_report_job *job)
{
    pv_reverse_job *j = (pv_reverse_job *)job;
    pv_report *r = job->r;
    pv_report_discard(r, r->sel, r->sel_count * sizeof *r->sel);
    r->sel = j->sel;
    j->sel = NULL;
    memcpy(r->sort, j->keys, j->key_count * sizeof *j->keys);
    r->cursor = j->top ? 0 : j->keep_pos;
    if (j->top)
        r->top = 0;
}

/* PV_NO_ROW: the first row instead of the row selected (the viewer's
 * sorts show the top); another row is not asked for. */
static void pv_reverse_select(pv_report_job *job, size_t model_row)
{
    ((pv_reverse_job *)job)->top = model_row == PV_NO_ROW;
}

static void pv_reverse_free(pv_report_job *job)
{
    free(((pv_reverse_job *)job)->sel);
}

static const pv_phase_fn pv_reverse_phases[] = {[PV_REV_FLIP] = pv_reverse_flip,
                                               [PV_REV_RUNS] = pv_reverse_runs};
static const pv_report_job_ops pv_reverse_ops = {
    .phases = pv_reverse_phases,
    .done = PV_REV_DONE,
    .finish = pv_reverse_finish,
    .free = pv_reverse_free,
    .select = pv_reverse_select,
};

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
    pv_reverse_job *j = (pv_reverse_job *)pv_report_job_new(sizeof *j, &pv_reverse_ops, r,
                                                            PV_REV_FLIP);
    j->n = r->sel_count;
    memcpy(j->keys, keys, sizeof keys);
    j->key_count = r->sort_count;
    j->sel = pv_xmalloc((j->n ? j->n : 1) * sizeof *j->sel);
    j->keep_pos = j->n ? j->n - 1 - (r->cursor < j->n ? r->cursor : j->n - 1) : 0;
    j->base.total = 3 * (uint64_t)j->n + 1;
    return &j->base;
}
