/* report_tree_job.c - opening a tree and expanding a whole subtree as
 * jobs in steps (report.h, report_internal.h). */
#include "tui/group.h"
#include "tui/report_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- opening a tree in steps: its grouping by thread, then its first
 * layout (the report is opened into j->open, moved to *r when done) */

enum { PV_OPEN_GROUP, PV_OPEN_LAYOUT, PV_OPEN_DONE };

typedef struct pv_open_job {
    pv_report_job base;
    size_t n;
    pv_report open;      /* the report being opened */
    pv_group_job *group; /* the grouping being built (NULL: none asked) */
    pv_view *base_view;
    char *columns; /* asked for */
    pv_layout lay;
    /* a row of base_view to select once open (PV_NO_ROW: none): its path
     * expanded, the row centred (a jump to a call, docs/tui.md "Jumps") */
    size_t select;
} pv_open_job;

/* The view is known: the report's columns and bits; LAYOUT next (trees). */
static int pv_open_view(pv_open_job *j, pv_view *v, bool owned)
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
    if (!pv_view_is_tree(v))
        return PV_OPEN_DONE;
    size_t rows = pv_view_rows(v);
    o->collapsed = pv_xcalloc(rows / 8 + 1, 1);
    o->has_kids = pv_xcalloc(rows / 8 + 1, 1);
    if (rows > PV_REPORT_EXPAND_LIMIT)
        memset(o->collapsed, 0xff, rows / 8 + 1);
    pv_layout_init(&j->lay, v, NULL, rows, o->collapsed, o->has_kids);
    j->lay.deadline = j->base.deadline;
    return PV_OPEN_LAYOUT;
}

static int pv_open_group(void *job, pv_budget *b)
{
    pv_open_job *j = job;
    if (j->group) {
        pv_budget gb = *b; /* the grouping's step is the whole step */
        if (!pv_group_job_step(j->group, &gb)) {
            j->base.done = (uint64_t)(pv_group_job_progress(j->group) * (double)j->n);
            b->units = 0; /* the grouping's step is the whole step */
            return PV_OPEN_GROUP;
        }
    }
    pv_view *g = j->group ? pv_group_job_take(j->group) : NULL;
    pv_group_job_free(j->group);
    j->group = NULL;
    j->base.done = j->n;
    b->units--;
    return pv_open_view(j, g ? g : j->base_view, g != NULL);
}

static int pv_open_layout(void *job, pv_budget *b)
{
    /* a row laid out weighs sixteen units, as in a filter's layout */
    pv_open_job *j = job;
    size_t before = j->lay.at;
    j->lay.deadline = b->deadline;
    bool laid = pv_layout_step(&j->lay, b->units / 16 + 1);
    j->base.done = j->n + j->lay.at * j->n / (j->lay.n ? j->lay.n : 1);
    pv_budget_spend(b, 16 * (j->lay.at - before));
    return laid ? PV_OPEN_DONE : PV_OPEN_LAYOUT;
}

static void pv_open_finish(pv_report_job *job)
{
    pv_open_job *j = (pv_open_job *)job;
    pv_report *o = &j->open;
    if (j->lay.vis)
        pv_layout_take(&j->lay, o);
    pv_layout_free(&j->lay);
    *job->r = *o;
    memset(o, 0, sizeof *o);
    if (j->select != PV_NO_ROW) {
        pv_report *r = job->r; /* the row among the thread nodes (group.c) */
        size_t row = r->view == j->base_view ? j->select
                                             : pv_group_row_of(r->view, j->base_view, j->select);
        if (row != PV_NO_ROW)
            pv_report_select_row(r, row);
    }
}

static void pv_open_select(pv_report_job *job, size_t model_row)
{
    ((pv_open_job *)job)->select = model_row;
}

static void pv_open_free(pv_report_job *job)
{
    pv_open_job *j = (pv_open_job *)job;
    pv_layout_free(&j->lay);
    pv_group_job_free(j->group);
    pv_report_close(&j->open); /* an unfinished opening: its grouped view too */
    free(j->columns);
}

static const pv_phase_fn pv_open_phases[] = {[PV_OPEN_GROUP] = pv_open_group,
                                            [PV_OPEN_LAYOUT] = pv_open_layout};
static const pv_report_job_ops pv_open_ops = {
    .phases = pv_open_phases,
    .done = PV_OPEN_DONE,
    .finish = pv_open_finish,
    .free = pv_open_free,
    .select = pv_open_select,
};

pv_report_job *pv_report_open_job(pv_report *r, pv_view *v, bool group, const char *columns)
{
    pv_open_job *j = (pv_open_job *)pv_report_job_new(sizeof *j, &pv_open_ops, r, PV_OPEN_GROUP);
    j->base_view = v;
    j->columns = columns ? pv_xstrdup(columns) : NULL;
    j->group = group ? pv_group_job_new(v) : NULL;
    j->n = pv_view_rows(v);
    j->select = PV_NO_ROW;
    j->base.total = 2 * (uint64_t)j->n + 1; /* grouping, layout */
    return &j->base;
}

/* ---- expanding everything below a node in steps: with the subtree ends
 * of the layout, every position of the node's subtree is shown once all is
 * open, and its depth follows from the ends (no parent read) */

enum { PV_EXP_BITS, PV_EXP_OLD, PV_EXP_COPY, PV_EXP_DONE };

typedef struct pv_expand_job {
    pv_report_job base;
    size_t n, at;
    uint8_t *new_collapsed;
    /* the node at visible index k and selection position p, its subtree
     * up to position end; the rows shown below it now end at visible index
     * old; the new list (vis, depth) is filled at `at`; stack: the subtree
     * ends of the rows open above the walk */
    size_t k, p, end, old, count, vis_cap;
    pv_row *vis;
    uint32_t *depth;
    size_t *stack, sp, cap;
} pv_expand_job;

/* BITS: the subtree's collapsed bits cleared. */
static int pv_expand_bits(void *job, pv_budget *b)
{
    pv_expand_job *j = job;
    const pv_report *r = j->base.r;
    size_t end = pv_budget_end(j->at, j->end, b->units);
    for (size_t q = j->at; q < end; q++)
        pv_bit_set(j->new_collapsed, pv_report_sel_row(r, q), false);
    b->units -= end - j->at;
    j->base.done += end - j->at;
    j->at = end;
    return end == j->end ? PV_EXP_OLD : PV_EXP_BITS;
}

/* OLD: the node's rows shown now, counted; then the new list is made. */
static int pv_expand_old(void *job, pv_budget *b)
{
    pv_expand_job *j = job;
    const pv_report *r = j->base.r;
    uint32_t d = r->vis_depth[j->k];
    size_t i = j->old, stop = pv_budget_end(i, r->vis_count, b->units);
    while (i < stop && r->vis_depth[i] > d)
        i++;
    pv_budget_spend(b, i - j->old);
    if (b->units)
        b->units--;
    j->old = i;
    if (i == stop && i != r->vis_count)
        return PV_EXP_OLD;
    /* the new list: the rows above and the node, its whole subtree, the
     * rows below */
    size_t sub = j->end - j->p - 1;
    j->count = j->k + 1 + sub + (r->vis_count - j->old);
    /* room for every row, as a layout has (report_layout.c): a path
     * opened later (a search) splices its rows in without copying the
     * list; pages never written cost nothing */
    size_t all = pv_report_sel_count(r) + 1;
    j->vis_cap = j->count > all ? j->count : all;
    j->vis = pv_xmalloc(j->vis_cap * sizeof *j->vis);
    j->depth = pv_xmalloc(j->vis_cap * sizeof *j->depth);
    j->cap = 64;
    j->stack = pv_xmalloc(j->cap * sizeof *j->stack);
    j->stack[0] = j->end;
    j->sp = 1;
    j->at = 0;
    return PV_EXP_COPY;
}

/* COPY: the new visible list: the rows above, the subtree, the rows below. */
static int pv_expand_copy(void *job, pv_budget *b)
{
    pv_expand_job *j = job;
    const pv_report *r = j->base.r;
    size_t sub = j->end - j->p - 1, above = j->k + 1;
    size_t end = pv_budget_end(j->at, j->count, b->units);
    size_t i = j->at;
    if (i < above) { /* the rows above, the node */
        size_t e = end < above ? end : above;
        memcpy(j->vis + i, r->vis + i, (e - i) * sizeof *j->vis);
        memcpy(j->depth + i, r->vis_depth + i, (e - i) * sizeof *j->depth);
        i = e;
    }
    uint32_t d0 = r->vis_depth[j->k];
    for (; i < end && i < above + sub; i++) { /* the subtree, all open */
        size_t q = j->p + 1 + (i - above);
        while (j->sp > 0 && j->stack[j->sp - 1] <= q)
            j->sp--;
        j->vis[i] = (pv_row)pv_report_sel_row(r, q);
        j->depth[i] = d0 + (uint32_t)j->sp;
        if (r->sub_end[q] > q + 1) {
            j->stack = pv_xgrow(j->stack, &j->cap, j->sp + 1, sizeof *j->stack);
            j->stack[j->sp++] = r->sub_end[q];
        }
    }
    if (i < end) { /* the rows below */
        size_t from = j->old + (i - above - sub);
        memcpy(j->vis + i, r->vis + from, (end - i) * sizeof *j->vis);
        memcpy(j->depth + i, r->vis_depth + from, (end - i) * sizeof *j->depth);
    }
    b->units -= end - j->at;
    j->base.done += end - j->at;
    j->at = end;
    return end == j->count ? PV_EXP_DONE : PV_EXP_COPY;
}

static void pv_expand_finish(pv_report_job *job)
{
    pv_expand_job *j = (pv_expand_job *)job;
    pv_report *r = job->r;
    size_t bits = j->n / 8 + 1;
    pv_report_discard(r, r->collapsed, bits);
    r->collapsed = j->new_collapsed;
    j->new_collapsed = NULL;
    pv_report_discard(r, r->vis, r->vis_count * sizeof *r->vis);
    pv_report_discard(r, r->vis_depth, r->vis_count * sizeof *r->vis_depth);
    r->vis = j->vis;
    r->vis_depth = j->depth;
    r->vis_count = j->count;
    r->vis_cap = j->vis_cap;
    j->vis = NULL;
    j->depth = NULL;
    r->cursor = j->k;
}

static void pv_expand_free(pv_report_job *job)
{
    pv_expand_job *j = (pv_expand_job *)job;
    free(j->new_collapsed);
    free(j->vis);
    free(j->depth);
    free(j->stack);
}

static const pv_phase_fn pv_expand_phases[] = {
    [PV_EXP_BITS] = pv_expand_bits, [PV_EXP_OLD] = pv_expand_old, [PV_EXP_COPY] = pv_expand_copy};
static const pv_report_job_ops pv_expand_ops = {
    .phases = pv_expand_phases,
    .done = PV_EXP_DONE,
    .finish = pv_expand_finish,
    .free = pv_expand_free,
};

pv_report_job *pv_report_expand_all_job(pv_report *r)
{
    size_t row = pv_report_selected(r);
    if (!r->collapsed || !r->vis || row == PV_NO_ROW || !pv_bit(r->has_kids, row) || !r->sub_end ||
        r->sub_count != pv_report_sel_count(r))
        return NULL;
    size_t p = pv_report_pos_of(r, row);
    if (p == PV_NO_ROW)
        return NULL;
    pv_expand_job *j = (pv_expand_job *)pv_report_job_new(sizeof *j, &pv_expand_ops, r,
                                                          PV_EXP_BITS);
    j->n = pv_view_rows(r->view);
    j->k = r->cursor;
    j->p = p;
    j->end = r->sub_end[p];
    j->at = p;
    j->old = r->cursor + 1;
    size_t sub = j->end - p;
    j->base.total = 2 * (uint64_t)sub + r->vis_count + 1;
    j->new_collapsed = pv_xmalloc(j->n / 8 + 1);
    memcpy(j->new_collapsed, r->collapsed, j->n / 8 + 1);
    return &j->base;
}
