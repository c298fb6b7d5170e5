/* aqtime_trace_hooks.c - the Function Trace call trace as a timeline of
 * calls without a clock (docs/aqtime.md "In the viewer"): related rows,
 * areas, lanes and range statistics through the capability hooks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "aqtime_trace.h"

/* ---- capability hooks (profview/hooks.h, docs/aqtime.md "In the viewer"):
 * the call trace is the result set's timeline of calls, without a clock.
 * Each table keeps its detail context (its rows' sources) as hook_ctx. */

/* The call trace's rows by call, and every routine's first call, once. */
static void aq_ft_index_rows(aq_ft *ft)
{
    if (ft->call_row || !ft->trace_rows)
        return;
    const aq_ft_dctx *d = ft->trace_rows;
    size_t n = ft->calls.n;
    ft->call_row = pv_xmalloc((n ? n : 1) * sizeof *ft->call_row);
    for (size_t i = 0; i < n; i++)
        ft->call_row[i] = AQ_NONE;
    ft->meta_first_row = pv_xmalloc((ft->meta.n + 1) * sizeof *ft->meta_first_row);
    for (size_t m = 0; m <= ft->meta.n; m++)
        ft->meta_first_row[m] = AQ_NONE;
    for (size_t row = d->n; row-- > 0;) {
        size_t call = aq_ft_dctx_pos(d, row);
        ft->call_row[call] = row;
        size_t m = aq_u32_pos(ft->call_meta[call]);
        ft->meta_first_row[m == AQ_NONE ? ft->meta.n : m] = row;
    }
}

static bool aq_ft_trace_ref(aq_ft *ft, size_t call, pv_row_ref *out)
{
    aq_ft_index_rows(ft);
    if (!ft->trace_view || call == AQ_NONE || !ft->call_row || ft->call_row[call] == AQ_NONE)
        return false;
    out->view = ft->trace_view;
    out->row = ft->call_row[call];
    return true;
}

/* The first call of a routine (its meta position) in the call trace. */
static bool aq_ft_first_ref(aq_ft *ft, size_t meta, pv_row_ref *out)
{
    aq_ft_index_rows(ft);
    if (!ft->trace_view || meta == AQ_NONE || !ft->meta_first_row ||
        ft->meta_first_row[meta] == AQ_NONE)
        return false;
    out->view = ft->trace_view;
    out->row = ft->meta_first_row[meta];
    return true;
}

/* The source position of a row of a hooked table. */
static bool aq_ft_src(const pv_view *v, size_t row, const aq_ft_dctx **d, size_t *pos)
{
    *d = v->hook_ctx;
    if (row >= (*d)->n)
        return false;
    *pos = aq_ft_dctx_pos(*d, row);
    return true;
}

/* The meta routine of a row of the call trace, routines or call routes. */
static size_t aq_ft_row_meta(const aq_ft_dctx *d, size_t pos)
{
    const aq_ft *ft = d->ft;
    switch (d->kind) {
    case AQ_FT_CALLS:
        return aq_u32_pos(ft->call_meta[pos]);
    case AQ_FT_ROUTINES:
        return ft->routine_meta[pos];
    case AQ_FT_ROUTES:
        if (ft->route_meta[pos] != AQ_NONE)
            return ft->route_meta[pos];
        return ft->route_routine[pos] == AQ_NONE ? AQ_NONE
                                                 : ft->routine_meta[ft->route_routine[pos]];
    }
    return AQ_NONE;
}

/* Calls relate to themselves (the call trace is the timeline), their
 * caller and their routine's first call; routines and routes to the first
 * call of their routine.  A call has no separate entry and exit events. */
static bool aq_ft_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    const aq_ft_dctx *d;
    size_t pos;
    if (!aq_ft_src(v, row, &d, &pos))
        return false;
    aq_ft *ft = d->ft;
    if (d->kind == AQ_FT_CALLS && (rel == PV_REL_TIMELINE || rel == PV_REL_CALL))
        return aq_ft_trace_ref(ft, pos, out);
    if (d->kind == AQ_FT_CALLS && rel == PV_REL_CALLER)
        return aq_ft_trace_ref(ft, aq_u32_pos(ft->call_parent[pos]), out);
    if (rel == PV_REL_FIRST || (d->kind != AQ_FT_CALLS && rel == PV_REL_TIMELINE))
        return aq_ft_first_ref(ft, aq_ft_row_meta(d, pos), out);
    return false;
}

/* J / K: the routine (meta position + 1). */
static bool aq_ft_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    const aq_ft_dctx *d;
    size_t pos;
    if (!aq_ft_src(v, row, &d, &pos))
        return false;
    size_t m = aq_ft_row_meta(d, pos);
    *area = (uint64_t)m + 1;
    return m != AQ_NONE;
}

/* Lanes: the threads (THREADS order); a call shows its thread running. */
static size_t aq_ft_lane_count(const pv_view *v)
{
    const aq_ft_dctx *d = v->hook_ctx;
    return d->ft->threads.n;
}

static void aq_ft_lane_name(const pv_view *v, size_t lane, pv_cell *out)
{
    aq_ft *ft = ((const aq_ft_dctx *)v->hook_ctx)->ft;
    if (!ft->lane_names) {
        size_t col = aq_col(ft->threads.t, "COL_WIN32THREADID");
        ft->lane_names = pv_xcalloc(ft->threads.n ? ft->threads.n : 1, sizeof *ft->lane_names);
        for (size_t i = 0; i < ft->threads.n; i++) {
            int64_t os;
            ft->lane_names[i] = aq_int(ft->threads.t, ft->threads.rows[i], col, &os)
                                    ? pv_xasprintf("Thread %" PRId64, os)
                                    : pv_xasprintf("Thread #%zu", i + 1);
        }
        ft->lane_count = ft->threads.n;
    }
    out->type = PV_TYPE_STRING;
    out->present = true;
    out->v.s.ptr = ft->lane_names[lane];
    out->v.s.len = strlen(ft->lane_names[lane]);
}

static size_t aq_ft_row_lane(const pv_view *v, size_t row)
{
    const aq_ft_dctx *d;
    size_t pos;
    if (!aq_ft_src(v, row, &d, &pos))
        return PV_NO_ROW;
    size_t th = aq_u32_pos(d->ft->call_thread[pos]);
    return th == AQ_NONE ? PV_NO_ROW : th;
}

static const pv_lane_hooks aq_ft_lanes = {
    .count = aq_ft_lane_count, .name = aq_ft_lane_name, .row_lane = aq_ft_row_lane};

/* The statistics of a span of the call trace (`:stats` with markers on two
 * calls, docs/aqtime.md): per routine, its calls among rows from..to, their
 * own time (sum, min, max, average: as the routines view computes them
 * over the whole trace) and time with children (a call inside another call
 * of the same routine in the span counted once). */
enum { RS_ID, RS_ROUTINE, RS_HITS, RS_TIME, RS_TWC, RS_MIN, RS_MAX, RS_AVG, RS_COUNT };

static pv_view *aq_ft_range_statistics(const pv_view *v, size_t from, size_t to)
{
    const aq_ft_dctx *d = v->hook_ctx;
    aq_ft *ft = d->ft;
    if (d->kind != AQ_FT_CALLS || from > to || to >= d->n)
        return NULL;
    aq_ft_index_rows(ft);
    const aq_ctx *c = &ft->c;
    pv_type tt = aq_counter_type(c);
    pv_column cols[RS_COUNT] = {
        {PV_COLUMN_ID, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME},
        {PV_COLUMN_HITS, PV_COL_DESC},
        {"time", "Time", tt, PV_COL_DESC},
        {"time_with_children", "Time with children", tt, PV_COL_DESC},
        {"min_time", "Min Time", tt, PV_COL_DESC},
        {"max_time", "Max Time", tt, PV_COL_DESC},
        {"avg_time", "Avg Time", tt, PV_COL_DESC},
    };
    /* the counter's titles, as the call trace has them */
    size_t ct = pv_view_column(v, "time"), cw = pv_view_column(v, "time_with_children");
    if (ct != PV_NO_ROW)
        cols[RS_TIME].title = v->columns[ct].title;
    if (cw != PV_NO_ROW)
        cols[RS_TWC].title = v->columns[cw].title;
    pv_table *t = pv_table_new("range-routines", "Routines between the markers", cols, RS_COUNT);
    size_t nm = ft->meta.n + 1; /* last slot: calls whose routine is unknown */
    aq_routine_acc *acc = pv_xcalloc(nm, sizeof *acc);
    size_t *order = pv_xmalloc(nm * sizeof *order);
    size_t order_n = 0;
    for (size_t row = from; row <= to; row++) {
        size_t call = aq_ft_dctx_pos(d, row);
        size_t cm = aq_u32_pos(ft->call_meta[call]);
        size_t m = cm == AQ_NONE ? ft->meta.n : cm;
        aq_routine_acc *a = &acc[m];
        if (a->calls++ == 0)
            order[order_n++] = m;
        int64_t own, wc;
        if (aq_ft_own(ft, call, &own)) {
            a->own += own;
            a->min = !a->has_own || own < a->min ? own : a->min;
            a->max = !a->has_own || own > a->max ? own : a->max;
            a->has_own = true;
        }
        /* outermost in the span: no caller of the same routine in it */
        bool nested = false;
        for (size_t p = aq_u32_pos(ft->call_parent[call]), guard = 0;
             p != AQ_NONE && !nested && guard <= d->n && ft->call_row[p] >= from;
             p = aq_u32_pos(ft->call_parent[p]), guard++)
            nested = ft->call_meta[p] == ft->call_meta[call];
        if (!nested && aq_ft_wc(ft, call, &wc))
            a->wc_once += wc;
    }
    char tmp[64];
    for (size_t k = 0; k < order_n; k++) {
        size_t m = order[k];
        const aq_routine_acc *a = &acc[m];
        size_t r = pv_table_add_row(t);
        int64_t id;
        if (m < ft->meta.n && aq_ft_routine_id(ft, m, &id))
            pv_table_set_int(t, r, RS_ID, id);
        const char *name = aq_routine_name(&ft->meta, m < ft->meta.n ? m : AQ_NONE, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(t, r, RS_ROUTINE, name);
        pv_table_set_int(t, r, RS_HITS, (int64_t)a->calls);
        pv_table_set_int(t, r, RS_TWC, aq_counter_value(c, a->wc_once));
        if (!a->has_own)
            continue;
        /* docs/aqtime.md "Counters": converted from the summed cycles */
        pv_table_set_int(t, r, RS_TIME, aq_counter_value(c, a->own));
        pv_table_set_int(t, r, RS_MIN, aq_counter_value(c, a->min));
        pv_table_set_int(t, r, RS_MAX, aq_counter_value(c, a->max));
        __int128 calls = (__int128)a->calls;
        if (c->time_counter)
            pv_table_set_int(t, r, RS_AVG, aq_cycles_to_ns(a->own, c->frequency * (double)a->calls));
        else
            pv_table_set_int(t, r, RS_AVG,
                             aq_counter_value(c, (a->own >= 0 ? a->own + calls / 2
                                                              : a->own - calls / 2) / calls));
    }
    free(acc);
    free(order);
    return pv_table_view(t);
}

/* Raw values (docs/aqtime.md "Counters"): a call's own counter value and
 * the value with children as stored (cycles for a time counter), so that a
 * sum of them (the flame graph's) is converted once, as the routines' are. */
static bool aq_ft_cell_raw(const pv_view *v, size_t row, size_t col, int64_t *raw)
{
    const aq_ft_dctx *d;
    size_t call;
    if (!aq_ft_src(v, row, &d, &call) || d->kind != AQ_FT_CALLS)
        return false;
    if (strcmp(v->columns[col].id, "time") == 0)
        return aq_ft_own(d->ft, call, raw);
    if (strcmp(v->columns[col].id, "time_with_children") == 0)
        return aq_ft_wc(d->ft, call, raw);
    return false;
}

static int64_t aq_ft_raw_sum(const pv_view *v, size_t col, int64_t sum)
{
    (void)col;
    const aq_ft_dctx *d = v->hook_ctx;
    return aq_counter_value(&d->ft->c, sum);
}

static const pv_view_hooks aq_ft_trace_hooks = {
    .related = aq_ft_related,
    .row_area = aq_ft_row_area,
    .lanes = &aq_ft_lanes,
    .range_statistics = aq_ft_range_statistics,
    .cell_raw = aq_ft_cell_raw,
    .raw_sum = aq_ft_raw_sum,
};

static const pv_view_hooks aq_ft_routine_hooks = {
    .related = aq_ft_related,
    .row_area = aq_ft_row_area,
};

void aq_ft_hook(pv_table *t, aq_ft_dctx *d)
{
    aq_ft_hook_view(pv_table_view(t), d);
}

void aq_ft_hook_view(pv_view *v, aq_ft_dctx *d)
{
    v->hook_ctx = d;
    if (d->kind == AQ_FT_CALLS) {
        v->hooks = &aq_ft_trace_hooks;
        d->ft->trace_view = v;
        d->ft->trace_rows = d;
    } else {
        v->hooks = &aq_ft_routine_hooks;
    }
}

void aq_ft_view_moved(pv_view *to)
{
    if (to->hooks == &aq_ft_trace_hooks)
        ((aq_ft_dctx *)to->hook_ctx)->ft->trace_view = to;
}
