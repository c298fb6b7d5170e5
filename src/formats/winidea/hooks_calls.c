/*
 * hooks_calls.c - the capability hooks of the winIDEA views whose rows are
 * events (call-events, value-history) or calls (call-trace, area-calls,
 * call-stack-at), and the line areas shown as frames inside the call trace.
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- event lists (call-events, value-history): `id` is the event */

static bool wi_ev_event(const pv_view *v, size_t row, size_t *event)
{
    const wi_model *m = wi_view_model(v);
    int64_t id;
    if (!wi_model_ready(m) || !wi_row_id(v, row, &id) || id < 0 ||
        (uint64_t)id >= m->ix.event_count)
        return false;
    *event = (size_t)id;
    return true;
}

static bool wi_ev_row_time(const pv_view *v, size_t row, int64_t *t)
{
    size_t i;
    if (!wi_ev_event(v, row, &i))
        return false;
    *t = wi_event_time(&wi_view_model(v)->ix, i);
    return true;
}

static bool wi_ev_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    wi_model *m = wi_view_model(v);
    size_t i, partner;
    if (!wi_ev_event(v, row, &i))
        return false;
    if (rel != PV_REL_PARTNER)
        return wi_event_related(m, i, rel, out);
    if (!wi_event_partner(&m->ix, i, &partner))
        return false;
    /* the partner's row in this list (rows ascend by event) */
    size_t lo = 0, hi = pv_view_rows(v);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, at;
        if (wi_ev_event(v, mid, &at) && at < partner)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t at;
    if (lo >= pv_view_rows(v) || !wi_ev_event(v, lo, &at) || at != partner)
        return false;
    out->view = (pv_view *)v;
    out->row = lo;
    return true;
}

static bool wi_ev_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    size_t i;
    if (!wi_ev_event(v, row, &i))
        return false;
    const pv_timeline_index *ix = &wi_view_model(v)->ix;
    *area = ix->areas[pv_tl_event_area(ix, i)].handle;
    return true;
}

const pv_view_hooks wi_events_hooks = {
    .row_time = wi_ev_row_time,
    .waits_for_index = wi_waits_for_index,
    .related = wi_ev_related,
    .row_area = wi_ev_row_area,
};

/* ---- calls (call-trace: row k is call k; area-calls, call-stack-at:
 * `id` is call k + 1) */

static bool wi_calls_call(const pv_view *v, size_t row, size_t *call)
{
    const wi_model *m = wi_view_model(v);
    if (!wi_model_ready(m))
        return false;
    if (v->ops == &wi_call_trace_ops) {
        *call = row;
        return row < m->ix.call_count;
    }
    int64_t id;
    if (!wi_row_id(v, row, &id) || id < 1 || (uint64_t)id > m->ix.call_count)
        return false;
    *call = (size_t)(id - 1);
    return true;
}

static bool wi_calls_row_time(const pv_view *v, size_t row, int64_t *t)
{
    size_t k;
    if (!wi_calls_call(v, row, &k))
        return false;
    *t = wi_call_entry_time(&wi_view_model(v)->ix, k);
    return true;
}

static bool wi_calls_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    size_t k;
    return wi_calls_call(v, row, &k) && wi_call_related(wi_view_model(v), k, rel, out);
}

static bool wi_calls_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    size_t k;
    if (!wi_calls_call(v, row, &k))
        return false;
    const pv_timeline_index *ix = &wi_view_model(v)->ix;
    *area = ix->areas[wi_call_area(ix, k)].handle;
    return true;
}

const pv_view_hooks wi_calls_hooks = {
    .row_time = wi_calls_row_time,
    .waits_for_index = wi_waits_for_index,
    .related = wi_calls_related,
    .row_area = wi_calls_row_area,
};

/* ---- line areas as frames inside the call trace (docs/flame.md "winIDEA
 * line areas"): one row per line activation, under the function call it
 * runs in; self and total are its net time (the time it is active while
 * its context runs). */

enum { LF_PARENT, LF_ROUTINE, LF_MODULE, LF_THREAD, LF_TIME, LF_TWC, LF_ENTRY, LF_EXIT, LF_COLUMNS };

static const pv_column wi_line_frame_columns[LF_COLUMNS] = {
    {PV_COLUMN_PARENT, 0},
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
    {PV_COLUMN_MODULE, 0},
    {"thread", "Context", PV_TYPE_STRING, 0},
    {PV_COLUMN_TIME, 0},
    {PV_COLUMN_TIME_WITH_CHILDREN, 0},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
    {"exit_time", "Exited", PV_TYPE_TIME, 0},
};

/* The exits of the line activations (entry_time, exit_time: a trace
 * export nests them in their calls), found by a sweep over the events in
 * order that runs only as far as a cell asks: per context, the open line
 * activations in stack order; an X of a line area ends the innermost open
 * activation of that area and those above it (as the index pops them,
 * docs/formats.md §3).  An activation left open ends with the call it runs
 * in (a function's X pops the frames above it). */
typedef struct wi_line_exits {
    uint32_t *exit;   /* per line activation: its X, PV_TL_OPEN (none, or not yet) */
    uint32_t *order;  /* the activations by their first event, NULL: already so */
    size_t next;      /* the next activation (in `order`) to open */
    size_t event;     /* the next event to sweep */
    uint32_t **open;  /* per context: open activations, innermost last */
    size_t *open_n, *open_cap;
    bool started;
} wi_line_exits;

typedef struct wi_line_frames {
    const wi_model *m;
    uint32_t *line;   /* the line activations shown (a window), NULL: all */
    uint32_t *parent; /* per line activation: the call it runs in, PV_TL_OPEN */
    size_t count;
    pv_tl_line_sweep sweep; /* parents are found as the rows are read */
    wi_line_exits ex;
} wi_line_frames;

static int wi_lx_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void wi_lx_begin(const pv_timeline_index *ix, wi_line_exits *lx)
{
    size_t n = ix->line_count, nctx = ix->context_count ? ix->context_count : 1;
    lx->started = true;
    lx->exit = pv_xmalloc((n ? n : 1) * sizeof *lx->exit);
    for (size_t k = 0; k < n; k++)
        lx->exit[k] = PV_TL_OPEN;
    bool sorted = true;
    for (size_t k = 1; k < n && sorted; k++)
        sorted = (ix->line_entry[k - 1] & ~PV_TL_IMPLICIT_CALL) <=
                 (ix->line_entry[k] & ~PV_TL_IMPLICIT_CALL);
    if (!sorted) {
        /* by (first event, activation) */
        uint64_t *key = pv_xmalloc(n * sizeof *key);
        for (size_t k = 0; k < n; k++)
            key[k] = (uint64_t)(ix->line_entry[k] & ~PV_TL_IMPLICIT_CALL) << 32 | k;
        qsort(key, n, sizeof *key, wi_lx_cmp);
        lx->order = pv_xmalloc(n * sizeof *lx->order);
        for (size_t k = 0; k < n; k++)
            lx->order[k] = (uint32_t)key[k];
        free(key);
    }
    lx->open = pv_xcalloc(nctx, sizeof *lx->open);
    lx->open_n = pv_xcalloc(nctx, sizeof *lx->open_n);
    lx->open_cap = pv_xcalloc(nctx, sizeof *lx->open_cap);
}

static void wi_lx_end(const pv_timeline_index *ix, wi_line_exits *lx)
{
    for (size_t c = 0; lx->open && c < (ix->context_count ? ix->context_count : 1); c++)
        free(lx->open[c]);
    free(lx->open);
    free(lx->open_n);
    free(lx->open_cap);
    free(lx->exit);
    free(lx->order);
}

/* Sweeps the events until line activation k's exit is known, or to the end. */
static void wi_lx_until(const pv_timeline_index *ix, wi_line_exits *lx, size_t k)
{
    if (!lx->started)
        wi_lx_begin(ix, lx);
    size_t n = ix->line_count;
    while (lx->exit[k] == PV_TL_OPEN && lx->event < ix->event_count) {
        size_t i = lx->event++;
        /* the activations that begin at this event: an implicit one (the
         * recording began inside it) lies under those open, and under the
         * implicit ones revealed before it */
        while (lx->next < n) {
            uint32_t q = lx->order ? lx->order[lx->next] : (uint32_t)lx->next;
            uint32_t e = ix->line_entry[q];
            if ((e & ~PV_TL_IMPLICIT_CALL) != i)
                break;
            lx->next++;
            uint16_t c = pv_tl_event_context(ix, i);
            if (c >= ix->context_count)
                continue;
            lx->open[c] = pv_xgrow(lx->open[c], &lx->open_cap[c], lx->open_n[c] + 1,
                                   sizeof *lx->open[c]);
            if (e & PV_TL_IMPLICIT_CALL) {
                memmove(lx->open[c] + 1, lx->open[c], lx->open_n[c] * sizeof *lx->open[c]);
                lx->open[c][0] = q;
            } else {
                lx->open[c][lx->open_n[c]] = q;
            }
            lx->open_n[c]++;
        }
        uint32_t a = pv_tl_event_area(ix, i);
        uint16_t c = pv_tl_event_context(ix, i);
        if (ix->areas[a].type != PV_WI_LINE || c >= ix->context_count)
            continue;
        pv_wi_event ev;
        pv_timeline_event(ix, i, &ev);
        if (ev.kind != PV_WI_EXIT)
            continue;
        size_t at = lx->open_n[c];
        while (at > 0 &&
               pv_tl_event_area(ix, ix->line_entry[lx->open[c][at - 1]] & ~PV_TL_IMPLICIT_CALL) != a)
            at--;
        if (at == 0)
            continue; /* not open: the index ignores it too */
        for (size_t p = at - 1; p < lx->open_n[c]; p++)
            lx->exit[lx->open[c][p]] = (uint32_t)i;
        lx->open_n[c] = at - 1;
    }
}

static size_t wi_lines_rows(const pv_view *v)
{
    return ((const wi_line_frames *)v->impl)->count;
}

static void wi_lines_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    wi_line_frames *lf = v->impl;
    const pv_timeline_index *ix = &lf->m->ix;
    uint32_t k = lf->line ? lf->line[row] : (uint32_t)row;
    uint32_t e = ix->line_entry[k] & ~PV_TL_IMPLICIT_CALL;
    switch (col) {
    case LF_PARENT:
        if (k >= lf->sweep.done) /* a step of the sweep: a flame graph reads in slices */
            pv_timeline_line_sweep_step(ix, &lf->sweep, (size_t)k + 65536, lf->parent);
        if (lf->parent[k] == PV_TL_OPEN)
            wi_cell_absent(out, PV_TYPE_INT);
        else
            wi_cell_int(out, PV_TYPE_INT, (int64_t)lf->parent[k] + 1);
        return;
    case LF_ROUTINE:
        wi_cell_str(out, pv_tl_area_name(ix, pv_tl_event_area(ix, e)));
        return;
    case LF_MODULE: {
        const pv_tl_area *ar = &ix->areas[pv_tl_event_area(ix, e)];
        wi_cell_str(out, ar->data_area != PV_WI_NONE
                             ? pv_strpool_get(&lf->m->d->pool, lf->m->d->areas[ar->data_area].file)
                             : "");
        return;
    }
    case LF_THREAD:
        wi_cell_str(out, pv_tl_context_name(ix, pv_tl_event_context(ix, e)));
        return;
    case LF_TIME:
    case LF_TWC:
        wi_cell_int(out, PV_TYPE_TIME, ix->line_net[k]);
        return;
    case LF_ENTRY:
        wi_cell_int(out, PV_TYPE_TIME,
                    (ix->line_entry[k] & PV_TL_IMPLICIT_CALL) ? ix->time_first
                                                              : wi_event_time(ix, e));
        return;
    case LF_EXIT: {
        /* its X, or the exit of the call it runs in when that is earlier
         * (a function's X pops the frames above it); absent when both
         * are open at the end */
        if (k >= lf->sweep.done)
            pv_timeline_line_sweep_step(ix, &lf->sweep, (size_t)k + 65536, lf->parent);
        wi_lx_until(ix, &lf->ex, k);
        uint32_t x = lf->ex.exit[k], p = lf->parent[k];
        bool open = x == PV_TL_OPEN;
        int64_t t = open ? 0 : wi_event_time(ix, x);
        if (p != PV_TL_OPEN && ix->call_exit[p] != PV_TL_OPEN) {
            int64_t pt = wi_call_exit_time(ix, p);
            if (open || pt < t)
                t = pt;
            open = false;
        }
        if (open)
            wi_cell_absent(out, PV_TYPE_TIME);
        else
            wi_cell_int(out, PV_TYPE_TIME, t);
        return;
    }
    default:
        wi_cell_absent(out, PV_TYPE_INT);
    }
}

static void wi_lines_destroy(pv_view *v)
{
    wi_line_frames *lf = v->impl;
    free(lf->line);
    free(lf->parent);
    pv_timeline_line_sweep_end(&lf->sweep);
    wi_lx_end(&lf->m->ix, &lf->ex);
    wi_virtual_destroy(v);
}

static const pv_view_ops wi_line_frames_ops = {
    wi_lines_rows, wi_lines_cell, NULL, NULL, wi_lines_destroy, NULL,
};

static pv_view *wi_calls_inner_frames(const pv_view *v)
{
    wi_model *m = wi_view_model(v);
    wi_model_complete(m);
    const pv_timeline_index *ix = &m->ix;
    if (!ix->line_count)
        return NULL;
    wi_line_frames *lf = pv_xcalloc(1, sizeof *lf);
    lf->m = m;
    lf->parent = pv_xmalloc(ix->line_count * sizeof *lf->parent);
    pv_timeline_line_sweep_begin(ix, &lf->sweep);
    lf->count = ix->line_count;
    if (ix->has_from || ix->has_to) {
        /* with --from/--to, a line with no time in the window is no frame */
        lf->line = pv_xmalloc(ix->line_count * sizeof *lf->line);
        lf->count = 0;
        for (size_t k = 0; k < ix->line_count; k++)
            if (ix->line_net[k] != 0)
                lf->line[lf->count++] = (uint32_t)k;
    }
    return wi_virtual_view("line-frames", "Line areas in calls", wi_line_frame_columns, LF_COLUMNS,
                           &wi_line_frames_ops, lf);
}

/* The context column: the calls come context by context (the index orders
 * them so, timeline.c), context c's from context_call_start[c]: a run is a
 * context's calls, its code the context. */
static bool wi_calls_column_run(const pv_view *v, size_t col, size_t row, uint64_t *code,
                                size_t *end)
{
    const wi_model *m = wi_view_model(v);
    if (col != CT_THREAD || v->ops != &wi_call_trace_ops || !wi_model_ready(m) ||
        !m->ix.context_call_start || !m->ix.context_count || row >= m->ix.call_count)
        return false;
    const pv_timeline_index *ix = &m->ix;
    size_t lo = 0, hi = ix->context_count; /* the last c with start[c] <= row */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->context_call_start[mid] <= row)
            lo = mid;
        else
            hi = mid;
    }
    if (ix->context_call_start[lo] > row || ix->context_call_start[lo + 1] <= row)
        return false;
    *code = lo;
    *end = ix->context_call_start[lo + 1];
    return true;
}

const pv_view_hooks wi_call_trace_hooks = {
    .column_run = wi_calls_column_run,
    .row_time = wi_calls_row_time,
    .waits_for_index = wi_waits_for_index,
    .related = wi_calls_related,
    .row_area = wi_calls_row_area,
    .inner_frames = wi_calls_inner_frames,
};
