/* report_job.c - a report's long work in steps (report.h, docs/tui.md
 * "Long operations"): the jobs' common part over the engine of core.h, and
 * the search. */
#include "profview/hooks.h"
#include "tui/group.h"
#include "tui/report_internal.h"

#include <stdlib.h>
#include <string.h>

pv_report_job *pv_report_job_new(size_t size, const pv_report_job_ops *ops, pv_report *r,
                                 int phase)
{
    pv_report_job *j = pv_xcalloc(1, size);
    j->ops = ops;
    j->r = r;
    j->phase = phase;
    return j;
}

pv_report *pv_report_job_report(const pv_report_job *j)
{
    return j->r;
}

void pv_report_job_move(pv_report_job *j, pv_report *r)
{
    j->r = r;
    if (j->ops->move)
        j->ops->move(j);
}

bool pv_report_job_found(const pv_report_job *j)
{
    return j->found;
}

void pv_report_job_select(pv_report_job *j, size_t model_row)
{
    if (j->ops->select)
        j->ops->select(j, model_row);
}

void pv_report_job_deadline(pv_report_job *j, double deadline)
{
    j->deadline = deadline;
}

bool pv_report_job_step(pv_report_job *j, size_t budget)
{
    if (j->finished)
        return true;
    pv_budget b = {budget, j->deadline};
    if (!pv_phases_run(j, j->ops->phases, &j->phase, j->ops->done, &b))
        return false;
    j->finished = true;
    j->ops->finish(j);
    return true;
}

double pv_report_job_progress(const pv_report_job *j)
{
    if (j->phase == j->ops->done || !j->total)
        return 1.0;
    double f = (double)j->done / (double)j->total;
    return f > 0.99 ? 0.99 : f;
}

void pv_report_job_free(pv_report_job *j)
{
    if (!j)
        return;
    j->ops->free(j);
    free(j);
}

/* ---- search */

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

/* LOOK finds the row; FOUND ends the job at the start of the next step,
 * whose finish moves the cursor to it. */
enum { PV_SEARCH_LOOK, PV_SEARCH_FOUND, PV_SEARCH_DONE };

typedef struct pv_search_job {
    pv_report_job base;
    /* positions in the selection (pre-order, collapsed nodes too) */
    pv_matcher m;
    size_t n, next, looked, found_pos;
    int dir;
} pv_search_job;

static int pv_search_look(void *job, pv_budget *b)
{
    pv_search_job *s = job;
    pv_report *r = s->base.r;
    unsigned tick = 0;
    size_t budget = b->units;
    while (budget-- > 0 && s->looked < s->n) {
        if ((++tick & 1023) == 0 && pv_budget_late(b))
            break;
        size_t p = s->next;
        s->looked++;
        s->next = s->dir > 0 ? (p + 1 == s->n ? 0 : p + 1) : (p == 0 ? s->n - 1 : p - 1);
        if (pv_matcher_row(&s->m, pv_report_sel_row(r, p))) {
            s->base.found = true;
            s->found_pos = p;
            s->base.done = s->looked;
            /* The step that found the row ends here: moving to it (in a
             * tree, opening its path, a splice of the visible list) and
             * the Details that follow the cursor are a step of their own,
             * not added to a step that has spent its time looking
             * (docs/tui.md "Long operations"). */
            b->units = 0;
            return PV_SEARCH_FOUND;
        }
    }
    b->units = 0;
    s->base.done = s->looked;
    return s->looked == s->n ? PV_SEARCH_DONE : PV_SEARCH_LOOK;
}

static int pv_search_found(void *job, pv_budget *b)
{
    (void)job;
    (void)b;
    return PV_SEARCH_DONE;
}

static void pv_search_finish(pv_report_job *j)
{
    pv_search_job *s = (pv_search_job *)j;
    pv_report *r = j->r;
    if (!j->found)
        return;
    if (r->vis)
        pv_report_select_row(r, pv_report_sel_row(r, s->found_pos)); /* expands the path */
    else
        pv_report_move_to(r, s->found_pos);
}

static void pv_search_free(pv_report_job *j)
{
    pv_matcher_free(&((pv_search_job *)j)->m);
}

static void pv_search_move(pv_report_job *j)
{
    ((pv_search_job *)j)->m.r = j->r;
}

static const pv_phase_fn pv_search_phases[] = {
    [PV_SEARCH_LOOK] = pv_search_look, [PV_SEARCH_FOUND] = pv_search_found};
static const pv_report_job_ops pv_search_ops = {
    .phases = pv_search_phases,
    .done = PV_SEARCH_DONE,
    .finish = pv_search_finish,
    .free = pv_search_free,
    .move = pv_search_move,
};

pv_report_job *pv_report_search_job(pv_report *r, const char *text, size_t from, int dir)
{
    pv_search_job *s = (pv_search_job *)pv_report_job_new(sizeof *s, &pv_search_ops, r,
                                                          PV_SEARCH_LOOK);
    s->dir = dir;
    s->n = pv_report_sel_count(r);
    size_t count = pv_report_count(r);
    if (from >= count)
        from = dir > 0 || !count ? 0 : count - 1;
    s->next = count ? pv_report_sel_pos(r, from) : 0;
    s->base.total = s->n;
    pv_matcher_init(&s->m, r, text);
    /* no column can hold the text (a number column and a needle with
     * letters; listed texts without it): nothing to look at */
    if (!text[0] || !s->n || (!s->m.ncols && !s->m.ngcols))
        s->base.phase = PV_SEARCH_DONE;
    return &s->base;
}
