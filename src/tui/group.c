/* group.c - a view that puts a tree's top-level rows under one node per
 * thread, without copying the tree: two index arrays map rows both ways. */
#include "tui/group.h"

#include "profview/hooks.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pv_group_impl {
    pv_view *base;
    size_t thread_col;
    size_t label_col; /* the tree/name column that shows the thread's label */
    size_t groups;
    size_t rows;    /* base rows + groups */
    /* When each thread's calls are one block of base rows, in the threads'
     * order (a winIDEA call tree: its calls come context by context), the
     * rows map by an offset: base row b of group k is row b + k + 1, and
     * start[k] .. start[k + 1] - 1 are group k's base rows (map and inv
     * are NULL).  Otherwise map and inv map the rows both ways. */
    size_t *start;  /* groups + 1, or NULL */
    uint32_t *map;  /* row -> base row, UINT32_MAX for a thread node */
    uint32_t *inv;  /* base row -> row */
    uint32_t *node; /* group -> its row */
    char **labels;  /* group -> "Thread 12" or the context name */
    pv_buf *values; /* group -> the thread cell's exact text */
    /* The base's hooks (profview/hooks.h), forwarded with rows mapped: only
     * those the base has. */
    pv_view_hooks hooks;
    pv_lane_hooks lanes;
    /* The group pv_group_at found last: rows are mostly read in order, so
     * the next row is most likely in it (atomic: views may be read from
     * more than one thread; a stale hint is only a miss). */
    _Atomic size_t hint;
} pv_group_impl;

static size_t pv_group_rows(const pv_view *v)
{
    return ((const pv_group_impl *)v->impl)->rows;
}

/* The group whose rows hold `row`: the last node at or above it. */
static size_t pv_group_at(const pv_group_impl *g, size_t row)
{
    _Atomic size_t *hint = (_Atomic size_t *)&g->hint;
    size_t k = atomic_load_explicit(hint, memory_order_relaxed);
    if (k < g->groups && g->node[k] <= row && (k + 1 == g->groups || row < g->node[k + 1]))
        return k;
    size_t lo = 0, hi = g->groups;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->node[mid] <= row)
            lo = mid;
        else
            hi = mid;
    }
    atomic_store_explicit(hint, lo, memory_order_relaxed);
    return lo;
}

/* The base row shown by `row`, UINT32_MAX for a thread node. */
static uint32_t pv_group_map(const pv_group_impl *g, size_t row)
{
    if (g->map)
        return g->map[row];
    size_t k = pv_group_at(g, row);
    return g->node[k] == row ? UINT32_MAX : (uint32_t)(row - k - 1);
}

/* The row that shows base row `b`. */
static size_t pv_group_inv(const pv_group_impl *g, size_t b)
{
    if (g->inv)
        return g->inv[b];
    size_t lo = 0, hi = g->groups;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->start[mid] <= b)
            lo = mid;
        else
            hi = mid;
    }
    return b + lo + 1;
}

/* The group whose node is `row`, or SIZE_MAX. */
static size_t pv_group_of_node(const pv_group_impl *g, size_t row)
{
    size_t k = pv_group_at(g, row);
    return k < g->groups && g->node[k] == row ? k : SIZE_MAX;
}

static void pv_group_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = pv_group_map(g, row);
    if (b != UINT32_MAX) {
        pv_view_cell(g->base, b, col, out);
        return;
    }
    size_t grp = pv_group_of_node(g, row);
    out->type = v->columns[col].type;
    out->present = false;
    out->v.u = 0;
    if (grp == SIZE_MAX)
        return;
    if (col == g->label_col && out->type == PV_TYPE_STRING) {
        out->present = true;
        out->v.s.ptr = g->labels[grp];
        out->v.s.len = strlen(g->labels[grp]);
    } else if (col == g->thread_col) {
        /* The thread's own value, so a filter on `thread` keeps the node. */
        pv_view_cell(g->base, pv_group_map(g, row + 1), col, out);
    }
}

static size_t pv_group_parent(const pv_view *v, size_t row)
{
    const pv_group_impl *g = v->impl;
    if (g->map) {
        uint32_t b = g->map[row];
        if (b == UINT32_MAX)
            return PV_NO_ROW;
        size_t p = pv_view_parent(g->base, b);
        if (p != PV_NO_ROW)
            return g->inv[p];
        return g->node[pv_group_at(g, row)]; /* a top-level call: its thread's node */
    }
    size_t k = pv_group_at(g, row);
    if (g->node[k] == row)
        return PV_NO_ROW;
    size_t p = pv_view_parent(g->base, row - k - 1);
    if (p == PV_NO_ROW)
        return g->node[k];
    /* a call's caller is in its block (the grouping keeps subtrees whole) */
    return p >= g->start[k] && p < g->start[k + 1] ? p + k + 1 : pv_group_inv(g, p);
}

static pv_view *pv_group_detail(const pv_view *v, size_t detail, size_t row)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = pv_group_map(g, row);
    if (b == UINT32_MAX)
        return NULL;
    return pv_view_open_detail(g->base, detail, b);
}

static void pv_group_destroy(pv_view *v)
{
    pv_group_impl *g = v->impl;
    for (size_t i = 0; i < g->groups; i++) {
        free(g->labels[i]);
        pv_buf_free(&g->values[i]);
    }
    free(g->labels);
    free(g->values);
    free(g->start);
    free(g->map);
    free(g->inv);
    free(g->node);
    free(g);
    free(v);
}

static const pv_view_ops pv_group_ops = {
    pv_group_rows, pv_group_cell, pv_group_parent, pv_group_detail, pv_group_destroy, NULL,
};

/* ---- the base's hooks, rows mapped both ways; a thread node is the row
 * of no call (its lane is its thread's) */

static bool pv_group_row_time(const pv_view *v, size_t row, int64_t *t)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = pv_group_map(g, row);
    return b != UINT32_MAX && pv_view_row_time(g->base, b, t);
}

static bool pv_group_waits(const pv_view *v, bool details)
{
    return pv_view_waits_for_index(((const pv_group_impl *)v->impl)->base, details);
}

static bool pv_group_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = pv_group_map(g, row);
    if (b == UINT32_MAX || !pv_view_related(g->base, b, rel, out))
        return false;
    if (out->view == g->base) {
        out->view = (pv_view *)v;
        out->row = pv_group_inv(g, out->row);
    }
    return true;
}

static bool pv_group_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = pv_group_map(g, row);
    return b != UINT32_MAX && pv_view_row_area(g->base, b, area);
}

static size_t pv_group_lane_count(const pv_view *v)
{
    return pv_view_lane_count(((const pv_group_impl *)v->impl)->base);
}

static void pv_group_lane_name(const pv_view *v, size_t lane, pv_cell *out)
{
    pv_view_lane_name(((const pv_group_impl *)v->impl)->base, lane, out);
}

static size_t pv_group_row_lane(const pv_view *v, size_t row)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = pv_group_map(g, row);
    if (b == UINT32_MAX && row + 1 < g->rows)
        b = pv_group_map(g, row + 1); /* a node: its thread's first call */
    return b == UINT32_MAX ? PV_NO_ROW : pv_view_row_lane(g->base, b);
}

/* The base rows from the first call at or after `from` to the last one at
 * or before `to` (the grouping keeps the base's order within a thread). */
static pv_view *pv_group_range_statistics(const pv_view *v, size_t from, size_t to)
{
    const pv_group_impl *g = v->impl;
    while (from < to && pv_group_map(g, from) == UINT32_MAX)
        from++;
    while (to > from && pv_group_map(g, to) == UINT32_MAX)
        to--;
    uint32_t bf = pv_group_map(g, from), bt = pv_group_map(g, to);
    if (bf == UINT32_MAX || bt == UINT32_MAX)
        return NULL;
    return pv_view_range_statistics(g->base, bf, bt);
}

/* The column_run of the base's column (a thread's block is one run of the
 * grouped view too, its node apart). */
static bool pv_group_column_run(const pv_view *v, size_t col, size_t row, uint64_t *code,
                                size_t *end)
{
    const pv_group_impl *g = v->impl;
    if (g->map)
        return false;
    size_t k = pv_group_at(g, row);
    if (g->node[k] == row)
        return false;
    if (!pv_view_column_run(g->base, col, row - k - 1, code, end))
        return false;
    size_t e = *end < g->start[k + 1] ? *end : g->start[k + 1];
    *end = e + k + 1;
    return true;
}

static void pv_group_set_hooks(pv_view *v, pv_group_impl *g)
{
    const pv_view_hooks *h = g->base->hooks;
    v->hooks = NULL;
    v->hook_ctx = NULL;
    if (!h)
        return;
    g->hooks.row_time = h->row_time ? pv_group_row_time : NULL;
    g->hooks.time_ordered = NULL; /* the nodes and the grouping reorder the rows */
    g->hooks.waits_for_index = h->waits_for_index ? pv_group_waits : NULL;
    g->hooks.related = h->related ? pv_group_related : NULL;
    g->hooks.row_area = h->row_area ? pv_group_row_area : NULL;
    g->hooks.range_statistics = h->range_statistics ? pv_group_range_statistics : NULL;
    g->hooks.column_run = h->column_run && !g->map ? pv_group_column_run : NULL;
    if (pv_view_has_lanes(g->base)) {
        g->lanes.count = pv_group_lane_count;
        g->lanes.name = pv_group_lane_name;
        g->lanes.row_lane = pv_group_row_lane;
        g->hooks.lanes = &g->lanes;
    }
    v->hooks = &g->hooks;
}

size_t pv_group_row_of(const pv_view *v, const pv_view *base, size_t row)
{
    if (v == base)
        return row;
    if (v->ops != &pv_group_ops)
        return PV_NO_ROW;
    const pv_group_impl *g = v->impl;
    return g->base == base && row < pv_view_rows(base) ? pv_group_inv(g, row) : PV_NO_ROW;
}

/* ---- building the grouping in steps
 *
 * SCAN reads the thread of every top-level call (a call's subtree runs
 * until the next top-level row, pre-order) and notes the segments: the
 * base rows from a row on that go to one group.  A view with column_run
 * (profview/hooks.h) answers a block of rows at once: every top-level call
 * of a run has its value, and the calls inside a run belong to a subtree
 * of it, so only the run's first row is read.  When each group is one
 * segment, in the groups' order, the grouping is an offset (no arrays);
 * otherwise FILL writes map and inv segment by segment. */

enum { PV_GJ_SCAN, PV_GJ_FILL, PV_GJ_DONE };

/* Units of the step budget: a row whose parent is read; a cell read and
 * formatted (a top-level call without column_run) weighs more. */
#define PV_GJ_CELL_UNITS 8

struct pv_group_job {
    pv_view *base;
    size_t col, label_col, n;
    int phase; /* PV_GJ_*; DONE: result holds the grouping, or NULL (none) */
    size_t at;
    /* the groups found: their exact texts and sizes */
    pv_buf *values;
    size_t *sizes, groups, vcap, scap;
    /* column_run codes already met -> group */
    uint64_t *codes;
    uint32_t *code_group;
    size_t ncodes, ccap, gcap;
    const char *last_ptr; /* the text of the current group's last cell */
    size_t last_len;
    size_t current;
    /* segments: seg_start[s] .. seg_start[s + 1] - 1 go to seg_group[s] */
    size_t *seg_start;
    uint32_t *seg_group;
    size_t segs, seg_cap, seg_gcap;
    bool interleaved; /* a group has two segments */
    pv_buf text;
    /* FILL */
    pv_group_impl *g;
    size_t *next;
    size_t fill_seg, fill_row;
    pv_view *result;
};

pv_group_job *pv_group_job_new(pv_view *base)
{
    if (!pv_view_is_tree(base))
        return NULL;
    size_t col = pv_view_column(base, "thread");
    size_t n = pv_view_rows(base);
    if (col == PV_NO_ROW || n == 0 || n >= UINT32_MAX - 4096)
        return NULL;
    size_t label_col = PV_NO_ROW;
    for (size_t c = 0; c < base->column_count && label_col == PV_NO_ROW; c++)
        if (base->columns[c].flags & PV_COL_TREE)
            label_col = c;
    if (label_col == PV_NO_ROW)
        label_col = pv_view_name_column(base);
    if (label_col == PV_NO_ROW)
        return NULL;
    pv_group_job *j = pv_xcalloc(1, sizeof *j);
    j->base = base;
    j->col = col;
    j->label_col = label_col;
    j->n = n;
    j->phase = PV_GJ_SCAN;
    pv_buf_init(&j->text);
    return j;
}

/* The group of the top-level row `r` (by its cell's exact text), a new one
 * when the text is new; SIZE_MAX past 4096 groups (not threads). */
static size_t pv_group_job_find(pv_group_job *j, size_t r)
{
    pv_cell c;
    pv_view_cell(j->base, r, j->col, &c);
    /* a view's strings stay put: the pointer of the current group's last
     * text is that text (report_job.c's matcher does the same) */
    if (j->groups && c.present && c.type == PV_TYPE_STRING && c.v.s.ptr &&
        c.v.s.ptr == j->last_ptr && c.v.s.len == j->last_len)
        return j->current;
    pv_buf_clear(&j->text);
    pv_cell_format_exact(&c, &j->text);
    const char *t = pv_buf_cstr(&j->text);
    size_t g = 0;
    /* Few threads: the last one found is the likely one. */
    if (j->groups && strcmp(pv_buf_cstr(&j->values[j->current]), t) == 0)
        g = j->current;
    else
        for (g = 0; g < j->groups && strcmp(pv_buf_cstr(&j->values[g]), t) != 0; g++)
            ;
    if (g == j->groups) {
        if (j->groups == 4096)
            return SIZE_MAX;
        j->values = pv_xgrow(j->values, &j->vcap, j->groups + 1, sizeof *j->values);
        j->sizes = pv_xgrow(j->sizes, &j->scap, j->groups + 1, sizeof *j->sizes);
        pv_buf_init(&j->values[j->groups]);
        pv_buf_puts(&j->values[j->groups], t);
        j->sizes[j->groups++] = 0;
    }
    bool str = c.present && c.type == PV_TYPE_STRING;
    j->last_ptr = str ? c.v.s.ptr : NULL;
    j->last_len = str ? c.v.s.len : 0;
    return g;
}

/* Row `r` (top-level) starts a subtree of group g. */
static void pv_group_job_segment(pv_group_job *j, size_t r, size_t g)
{
    if (j->segs && j->seg_group[j->segs - 1] == g)
        return;
    if (j->segs && j->sizes[g]) /* g had rows before the current group's */
        j->interleaved = true;
    j->seg_start = pv_xgrow(j->seg_start, &j->seg_cap, j->segs + 2, sizeof *j->seg_start);
    j->seg_group = pv_xgrow(j->seg_group, &j->seg_gcap, j->segs + 1, sizeof *j->seg_group);
    j->seg_start[j->segs] = r;
    j->seg_group[j->segs++] = (uint32_t)g;
    j->current = g;
}

/* SCAN: about `budget` units; false when the tree cannot be grouped. */
static bool pv_group_job_scan(pv_group_job *j, pv_budget *b)
{
    const pv_view *base = j->base;
    size_t budget = b->units;
    unsigned tick = 0;
    while (budget > 0 && j->at < j->n) {
        if ((++tick & 255) == 0 && pv_budget_late(b))
            break;
        size_t r = j->at;
        bool top = r == 0 || pv_view_parent(base, r) == PV_NO_ROW;
        if (!top) { /* inside the current subtree */
            j->sizes[j->current]++;
            j->at++;
            budget--;
            continue;
        }
        uint64_t code;
        size_t end;
        if (pv_view_column_run(base, j->col, r, &code, &end)) {
            size_t k = 0;
            while (k < j->ncodes && j->codes[k] != code)
                k++;
            size_t g;
            if (k < j->ncodes) {
                g = j->code_group[k];
            } else {
                g = pv_group_job_find(j, r);
                if (g == SIZE_MAX)
                    return false;
                j->codes = pv_xgrow(j->codes, &j->ccap, j->ncodes + 1, sizeof *j->codes);
                j->code_group =
                    pv_xgrow(j->code_group, &j->gcap, j->ncodes + 1, sizeof *j->code_group);
                j->codes[j->ncodes] = code;
                j->code_group[j->ncodes++] = (uint32_t)g;
                budget -= budget < PV_GJ_CELL_UNITS ? budget : PV_GJ_CELL_UNITS;
            }
            pv_group_job_segment(j, r, g);
            j->sizes[g] += end - r;
            j->at = end;
            if (budget)
                budget--;
            continue;
        }
        size_t g = pv_group_job_find(j, r);
        if (g == SIZE_MAX)
            return false;
        pv_group_job_segment(j, r, g);
        j->sizes[g]++;
        j->at++;
        budget -= budget < PV_GJ_CELL_UNITS ? budget : PV_GJ_CELL_UNITS;
    }
    b->units = budget;
    return true;
}

/* The grouping's view, its arrays still to fill when interleaved. */
static pv_group_impl *pv_group_job_impl(pv_group_job *j)
{
    size_t n = j->n, groups = j->groups;
    pv_group_impl *g = pv_xcalloc(1, sizeof *g);
    g->base = j->base;
    g->thread_col = j->col;
    g->label_col = j->label_col;
    g->groups = groups;
    g->rows = n + groups;
    g->node = pv_xmalloc(groups * sizeof *g->node);
    g->labels = pv_xmalloc(groups * sizeof *g->labels);
    g->values = j->values;
    j->values = NULL;
    if (j->interleaved) {
        g->map = pv_xmalloc(g->rows * sizeof *g->map);
        g->inv = pv_xmalloc(n * sizeof *g->inv);
        j->next = pv_xmalloc(groups * sizeof *j->next);
    } else {
        g->start = pv_xmalloc((groups + 1) * sizeof *g->start);
        for (size_t k = 0; k < groups; k++)
            g->start[k] = j->seg_start[k]; /* segment k is group k's */
        g->start[groups] = n;
    }
    size_t at = 0;
    for (size_t k = 0; k < groups; k++) {
        g->node[k] = (uint32_t)at;
        if (g->map) {
            g->map[at] = UINT32_MAX;
            j->next[k] = at + 1;
        }
        at += j->sizes[k] + 1;
        const char *t = pv_buf_cstr(&g->values[k]);
        bool number = t[0] && strspn(t, "0123456789") == strlen(t);
        g->labels[k] = number ? pv_xasprintf("Thread %s", t) : pv_xstrdup(t[0] ? t : "(no thread)");
    }
    return g;
}

static pv_view *pv_group_view(pv_group_impl *g)
{
    pv_view *v = pv_xcalloc(1, sizeof *v);
    *v = *g->base; /* id, title, columns, details: borrowed from the base */
    v->ops = &pv_group_ops;
    v->group_count = 0;
    v->impl = g;
    pv_group_set_hooks(v, g);
    return v;
}

/* FILL: about `budget` rows of map and inv, segment by segment. */
static bool pv_group_job_fill(pv_group_job *j, pv_budget *b)
{
    pv_group_impl *g = j->g;
    size_t budget = b->units;
    j->seg_start[j->segs] = j->n;
    while (budget > 0 && j->fill_seg < j->segs) {
        size_t s = j->fill_seg, grp = j->seg_group[s];
        size_t end = j->seg_start[s + 1];
        if (j->fill_row < j->seg_start[s])
            j->fill_row = j->seg_start[s];
        size_t stop = end - j->fill_row > budget ? j->fill_row + budget : end;
        size_t pos = j->next[grp];
        for (size_t r = j->fill_row; r < stop; r++, pos++) {
            g->map[pos] = (uint32_t)r;
            g->inv[r] = (uint32_t)pos;
        }
        j->next[grp] = pos;
        budget -= stop - j->fill_row;
        j->fill_row = stop;
        if (stop == end)
            j->fill_seg++;
        if (pv_budget_late(b))
            break;
    }
    b->units = budget;
    return j->fill_seg == j->segs;
}

/* The phases (core.h pv_phases_run).  SCAN: the top-level rows' threads;
 * then no grouping (fewer than two threads, more than 4096 values), the
 * grouping at once (each thread one block), or FILL. */
static int pv_gj_scan(void *job, pv_budget *b)
{
    pv_group_job *j = job;
    if (!pv_group_job_scan(j, b))
        return PV_GJ_DONE; /* not grouped */
    if (j->at < j->n)
        return PV_GJ_SCAN;
    bool all_empty = j->groups == 1 && pv_buf_cstr(&j->values[0])[0] == '\0';
    if (j->groups < 2 || all_empty)
        return PV_GJ_DONE; /* not grouped */
    j->g = pv_group_job_impl(j);
    if (j->interleaved)
        return PV_GJ_FILL;
    j->result = pv_group_view(j->g);
    j->g = NULL;
    return PV_GJ_DONE;
}

static int pv_gj_fill(void *job, pv_budget *b)
{
    pv_group_job *j = job;
    if (!pv_group_job_fill(j, b))
        return PV_GJ_FILL;
    j->result = pv_group_view(j->g);
    j->g = NULL;
    return PV_GJ_DONE;
}

static const pv_phase_fn pv_gj_phases[] = {[PV_GJ_SCAN] = pv_gj_scan, [PV_GJ_FILL] = pv_gj_fill};

bool pv_group_job_step(pv_group_job *j, pv_budget *b)
{
    return pv_phases_run(j, pv_gj_phases, &j->phase, PV_GJ_DONE, b);
}

double pv_group_job_progress(const pv_group_job *j)
{
    if (j->phase == PV_GJ_DONE || !j->n)
        return 1.0;
    double scan = (double)j->at / (double)j->n;
    if (j->phase == PV_GJ_SCAN)
        return j->interleaved || j->segs > j->groups ? scan / 2 : scan;
    return 0.5 + 0.5 * (double)j->fill_row / (double)j->n;
}

pv_view *pv_group_job_take(pv_group_job *j)
{
    pv_view *v = j->result;
    j->result = NULL;
    return v;
}

void pv_group_job_free(pv_group_job *j)
{
    if (!j)
        return;
    if (j->values)
        for (size_t g = 0; g < j->groups; g++)
            pv_buf_free(&j->values[g]);
    free(j->values);
    if (j->g) { /* FILL stopped: the unfinished grouping */
        for (size_t g = 0; g < j->g->groups; g++) {
            free(j->g->labels[g]);
            pv_buf_free(&j->g->values[g]);
        }
        free(j->g->labels);
        free(j->g->values);
        free(j->g->start);
        free(j->g->map);
        free(j->g->inv);
        free(j->g->node);
        free(j->g);
    }
    if (j->result)
        pv_view_free(j->result);
    free(j->sizes);
    free(j->codes);
    free(j->code_group);
    free(j->seg_start);
    free(j->seg_group);
    free(j->next);
    pv_buf_free(&j->text);
    free(j);
}

pv_view *pv_group_by_thread(pv_view *base)
{
    pv_group_job *j = pv_group_job_new(base);
    if (!j)
        return NULL;
    pv_budget b = {SIZE_MAX, 0};
    while (!pv_group_job_step(j, &b))
        b.units = SIZE_MAX;
    pv_view *v = pv_group_job_take(j);
    pv_group_job_free(j);
    return v;
}
