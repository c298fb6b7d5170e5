/* group.c - a view that puts a tree's top-level rows under one node per
 * thread, without copying the tree: two index arrays map rows both ways. */
#include "tui/group.h"

#include "profview/hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pv_group_impl {
    pv_view *base;
    size_t thread_col;
    size_t label_col; /* the tree/name column that shows the thread's label */
    size_t groups;
    size_t rows;    /* base rows + groups */
    uint32_t *map;  /* row -> base row, UINT32_MAX for a thread node */
    uint32_t *inv;  /* base row -> row */
    uint32_t *node; /* group -> its row */
    char **labels;  /* group -> "Thread 12" or the context name */
    pv_buf *values; /* group -> the thread cell's exact text */
    /* The base's hooks (profview/hooks.h), forwarded with rows mapped: only
     * those the base has. */
    pv_view_hooks hooks;
    pv_lane_hooks lanes;
} pv_group_impl;

static size_t pv_group_rows(const pv_view *v)
{
    return ((const pv_group_impl *)v->impl)->rows;
}

/* The group whose node is `row`, or SIZE_MAX (binary search: nodes ascend). */
static size_t pv_group_of_node(const pv_group_impl *g, size_t row)
{
    size_t lo = 0, hi = g->groups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->node[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->groups && g->node[lo] == row ? lo : SIZE_MAX;
}

static void pv_group_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const pv_group_impl *g = v->impl;
    if (g->map[row] != UINT32_MAX) {
        pv_view_cell(g->base, g->map[row], col, out);
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
        pv_view_cell(g->base, g->map[row + 1], col, out);
    }
}

static size_t pv_group_parent(const pv_view *v, size_t row)
{
    const pv_group_impl *g = v->impl;
    uint32_t b = g->map[row];
    if (b == UINT32_MAX)
        return PV_NO_ROW;
    size_t p = pv_view_parent(g->base, b);
    if (p != PV_NO_ROW)
        return g->inv[p];
    /* A top-level call: its thread's node is the nearest node above it. */
    size_t lo = 0, hi = g->groups;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->node[mid] < row)
            lo = mid;
        else
            hi = mid;
    }
    return g->node[lo];
}

static pv_view *pv_group_detail(const pv_view *v, size_t detail, size_t row)
{
    const pv_group_impl *g = v->impl;
    if (g->map[row] == UINT32_MAX)
        return NULL;
    return pv_view_open_detail(g->base, detail, g->map[row]);
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
    return g->map[row] != UINT32_MAX && pv_view_row_time(g->base, g->map[row], t);
}

static bool pv_group_waits(const pv_view *v, bool details)
{
    return pv_view_waits_for_index(((const pv_group_impl *)v->impl)->base, details);
}

static bool pv_group_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    const pv_group_impl *g = v->impl;
    if (g->map[row] == UINT32_MAX || !pv_view_related(g->base, g->map[row], rel, out))
        return false;
    if (out->view == g->base) {
        out->view = (pv_view *)v;
        out->row = g->inv[out->row];
    }
    return true;
}

static bool pv_group_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    const pv_group_impl *g = v->impl;
    return g->map[row] != UINT32_MAX && pv_view_row_area(g->base, g->map[row], area);
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
    uint32_t b = g->map[row];
    if (b == UINT32_MAX && row + 1 < g->rows)
        b = g->map[row + 1]; /* a node: its thread's first call */
    return b == UINT32_MAX ? PV_NO_ROW : pv_view_row_lane(g->base, b);
}

/* The base rows from the first call at or after `from` to the last one at
 * or before `to` (the grouping keeps the base's order within a thread). */
static pv_view *pv_group_range_statistics(const pv_view *v, size_t from, size_t to)
{
    const pv_group_impl *g = v->impl;
    while (from < to && g->map[from] == UINT32_MAX)
        from++;
    while (to > from && g->map[to] == UINT32_MAX)
        to--;
    if (g->map[from] == UINT32_MAX || g->map[to] == UINT32_MAX)
        return NULL;
    return pv_view_range_statistics(g->base, g->map[from], g->map[to]);
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
    return g->base == base && row < pv_view_rows(base) ? g->inv[row] : PV_NO_ROW;
}

pv_view *pv_group_by_thread(pv_view *base)
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

    /* Pass 1: the group of every top-level subtree (pre-order: a subtree
     * runs until the next top-level row) and the size of every group. */
    uint32_t *group_of = pv_xmalloc(n * sizeof *group_of);
    pv_buf *values = NULL;
    size_t *sizes = NULL, groups = 0, vcap = 0, scap = 0;
    pv_buf text;
    pv_buf_init(&text);
    uint32_t current = 0;
    for (size_t r = 0; r < n; r++) {
        if (pv_view_parent(base, r) == PV_NO_ROW || r == 0) {
            pv_cell c;
            pv_view_cell(base, r, col, &c);
            pv_buf_clear(&text);
            pv_cell_format_exact(&c, &text);
            const char *t = pv_buf_cstr(&text);
            size_t g = 0;
            /* Few threads: the last one found is the likely one. */
            if (groups && strcmp(pv_buf_cstr(&values[current]), t) == 0)
                g = current;
            else
                for (g = 0; g < groups && strcmp(pv_buf_cstr(&values[g]), t) != 0; g++)
                    ;
            if (g == groups) {
                if (groups == 4096) /* not threads: leave the tree alone */
                    break;
                values = pv_xgrow(values, &vcap, groups + 1, sizeof *values);
                sizes = pv_xgrow(sizes, &scap, groups + 1, sizeof *sizes);
                pv_buf_init(&values[groups]);
                pv_buf_puts(&values[groups], t);
                sizes[groups++] = 0;
            }
            current = (uint32_t)g;
        }
        group_of[r] = current;
        sizes[current]++;
    }
    pv_buf_free(&text);
    bool all_empty = groups == 1 && pv_buf_cstr(&values[0])[0] == '\0';
    if (groups < 2 || groups == 4096 || all_empty) {
        for (size_t g = 0; g < groups; g++)
            pv_buf_free(&values[g]);
        free(values);
        free(sizes);
        free(group_of);
        return NULL;
    }

    /* Pass 2: rows of each group after its node, in their order. */
    pv_group_impl *g = pv_xcalloc(1, sizeof *g);
    g->base = base;
    g->thread_col = col;
    g->label_col = label_col;
    g->groups = groups;
    g->rows = n + groups;
    g->map = pv_xmalloc(g->rows * sizeof *g->map);
    g->inv = pv_xmalloc(n * sizeof *g->inv);
    g->node = pv_xmalloc(groups * sizeof *g->node);
    g->labels = pv_xmalloc(groups * sizeof *g->labels);
    g->values = values;
    size_t *next = pv_xmalloc(groups * sizeof *next);
    size_t at = 0;
    for (size_t k = 0; k < groups; k++) {
        g->node[k] = (uint32_t)at;
        g->map[at] = UINT32_MAX;
        next[k] = at + 1;
        at += sizes[k] + 1;
        const char *t = pv_buf_cstr(&values[k]);
        bool number = t[0] && strspn(t, "0123456789") == strlen(t);
        g->labels[k] = number ? pv_xasprintf("Thread %s", t) : pv_xstrdup(t[0] ? t : "(no thread)");
    }
    for (size_t r = 0; r < n; r++) {
        size_t pos = next[group_of[r]]++;
        g->map[pos] = (uint32_t)r;
        g->inv[r] = (uint32_t)pos;
    }
    free(next);
    free(sizes);
    free(group_of);

    pv_view *v = pv_xcalloc(1, sizeof *v);
    *v = *base; /* id, title, columns, details: borrowed from the base */
    v->ops = &pv_group_ops;
    v->group_count = 0;
    v->impl = g;
    pv_group_set_hooks(v, g);
    return v;
}
