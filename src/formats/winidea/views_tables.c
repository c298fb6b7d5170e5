/*
 * views_tables.c - the small winIDEA views built as tables: summary,
 * contexts, lines, statistics (recomputed) and statistics-exported, with
 * the details of a statistics row (docs/cli.md).
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- summary */

static void wi_summary_add(pv_table *t, const char *key, const char *fmt, ...) PV_PRINTF(3, 4);
static void wi_summary_add(pv_table *t, const char *key, const char *fmt, ...)
{
    char value[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    pv_summary_add(t, key, value);
}

static const char *wi_context_source_name(pv_tl_context_source s)
{
    switch (s) {
    case PV_TL_CONTEXT_TEXT:
        return "timeline %CONTEXT%";
    case PV_TL_CONTEXT_AREA:
        return "context area";
    case PV_TL_CONTEXT_CORE:
        return "core index";
    case PV_TL_CONTEXT_UNKNOWN:
        return "unknown";
    }
    return "?";
}

pv_view *wi_summary_view(const pv_file *f, const wi_model *m)
{
    const pv_wi_data *d = m->d;
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_summary_new();
    wi_summary_add(t, "format", "%s", f->format ? f->format : "winidea");
    wi_summary_add(t, "file", "%s", d->text_path ? d->text_path : f->path);
    if (d->bin_path)
        wi_summary_add(t, "timeline file", "%s", d->bin_path);
    if (d->has_total_time)
        pv_summary_add_time(t, "total time", d->total_time);
    wi_summary_add(t, "contexts", "%zu", ix->context_count);
    wi_summary_add(t, "context source", "%s", wi_context_source_name(ix->context_source));
    if (ix->context_area != PV_WI_NONE)
        wi_summary_add(t, "context area", "%s (0x%08" PRIX32 ")",
                       pv_tl_area_name(ix, ix->context_area), ix->areas[ix->context_area].handle);
    wi_summary_add(t, "areas", "%zu", d->area_count);
    size_t implicit = ix->area_count - d->area_count;
    if (implicit)
        wi_summary_add(t, "areas not in the mapping", "%zu", implicit);
    wi_summary_add(t, "events", "%zu", d->timeline.count);
    if (d->timeline.count) {
        wi_summary_add(t, "timeline record version", "%d.%d", d->timeline.version / 10,
                       d->timeline.version % 10);
        pv_summary_add_time(t, "first event time", ix->time_first);
        pv_summary_add_time(t, "last event time", ix->time_last);
        pv_summary_add_time(t, "recorded time", ix->time_last - ix->time_first);
    }
    if (ix->has_from)
        pv_summary_add_time(t, "window from", ix->from);
    if (ix->has_to)
        pv_summary_add_time(t, "window to", ix->to);
    if (ix->has_from || ix->has_to)
        wi_summary_add(t, "events in window", "%zu", ix->window_end - ix->window_first);
    wi_summary_add(t, "calls", "%zu", ix->call_count);
    /* every warning of the file (loading and indexing), as `profview info`
     * counts them and the viewer lists them (docs/tui.md "Warnings") */
    wi_summary_add(t, "warnings", "%zu", f->diag.warnings + f->diag.errors);
    return pv_table_view(t);
}

/* ---- contexts */

const pv_column wi_context_columns[CTX_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {"handle", "Handle", PV_TYPE_HEX, 0},
    {"name", "Context", PV_TYPE_STRING, PV_COL_NAME},
    {"events", "Events", PV_TYPE_INT, PV_COL_DESC},
    {"calls", "Calls", PV_TYPE_INT, PV_COL_DESC},
    {PV_COLUMN_SOURCE, PV_COL_HIDDEN},
};

pv_view *wi_contexts_view(const wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("contexts", "Contexts", wi_context_columns, CTX_COLUMNS);
    for (size_t c = 0; c < ix->context_count; c++) {
        const pv_tl_context *ctx = &ix->contexts[c];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, CTX_ID, (int64_t)c + 1);
        if (ctx->has_handle)
            pv_table_set_uint(t, r, CTX_HANDLE, ctx->handle);
        pv_table_set_cstr(t, r, CTX_NAME, pv_tl_context_name(ix, (uint16_t)c));
        pv_table_set_int(t, r, CTX_EVENTS, (int64_t)ctx->events);
        pv_table_set_int(t, r, CTX_CALLS,
                         (int64_t)(ix->context_call_start[c + 1] - ix->context_call_start[c]));
        pv_table_set_cstr(t, r, CTX_SOURCE, wi_context_source_name(ix->context_source));
    }
    return pv_table_view(t);
}

/* ---- lines */

const pv_column wi_line_columns[LINE_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {PV_COLUMN_HANDLE, 0},
    {"name", "Source line", PV_TYPE_STRING, PV_COL_NAME},
    {PV_COLUMN_LINE, 0},
    {"function", "Function", PV_TYPE_STRING, 0},
    {"file", "File", PV_TYPE_STRING, PV_COL_HIDDEN},
    {PV_COLUMN_HITS, PV_COL_DESC},
};

pv_view *wi_lines_view(const wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_wi_data *d = m->d;
    pv_table *t = pv_table_new("lines", "Lines", wi_line_columns, LINE_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        const pv_tl_area *ar = &ix->areas[a];
        if (ar->type != PV_WI_LINE)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, LINE_ID, (int64_t)a + 1);
        pv_table_set_uint(t, r, LINE_HANDLE, ar->handle);
        pv_table_set_cstr(t, r, LINE_NAME, pv_tl_area_name(ix, (uint32_t)a));
        if (ar->has_value)
            pv_table_set_int(t, r, LINE_LINE, (int64_t)ar->value);
        if (ar->parent != PV_WI_NONE)
            pv_table_set_cstr(t, r, LINE_FUNCTION, pv_tl_area_name(ix, ar->parent));
        if (ar->data_area != PV_WI_NONE && d->areas[ar->data_area].file)
            pv_table_set_cstr(t, r, LINE_FILE,
                              pv_strpool_get(&d->pool, d->areas[ar->data_area].file));
        const pv_tl_stat_row *s = pv_timeline_find_stat(ix, (uint32_t)a, PV_TL_NEUTRAL);
        pv_table_set_int(t, r, LINE_COUNT, s ? s->count : 0);
    }
    pv_table_set_details(t, wi_line_details, wi_line_detail_count, wi_line_source, (void *)m,
                         NULL);
    return pv_table_view(t);
}

/* ---- statistics (recomputed) and statistics-exported */

pv_column wi_stat_columns[ST_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {PV_COLUMN_HANDLE, PV_COL_KEY},
    {"type", "Type", PV_TYPE_STRING, PV_COL_KEY},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
    {"value", "Value", PV_TYPE_HEX, PV_COL_KEY},
    {PV_COLUMN_CONTEXT, PV_COL_KEY},
    {"count", "Count", PV_TYPE_INT, PV_COL_DESC},
};

void wi_init_stat_columns(void)
{
    static const char *const titles[PV_WI_STAT_COUNT] = {
        "Net",       "Net min",     "Net max",     "Net avg",    "Gross",
        "Gross min", "Gross max",   "Gross avg",   "Call",       "Call min",
        "Call max",  "Call avg",    "Period min",  "Period max", "Period avg",
        "Outside",   "Outside min", "Outside max", "Outside avg"};
    for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
        wi_stat_columns[ST_T0 + k] =
            (pv_column){pv_wi_stat_column[k], titles[k], PV_TYPE_TIME, PV_COL_DESC};
}

static const char *wi_stat_context_label(const pv_timeline_index *ix, uint16_t c)
{
    if (c == PV_TL_NEUTRAL)
        return "Neutral";
    if (c == PV_TL_NO_CONTEXT)
        return "";
    return pv_tl_context_name(ix, c);
}

/* Row r of `t` from statistics row i of the index. */
void wi_stat_fill(pv_table *t, size_t r, const pv_timeline_index *ix, size_t i)
{
    const pv_tl_stat_row *s = &ix->stats[i];
    const pv_tl_area *a = &ix->areas[s->area];
    pv_table_set_int(t, r, ST_ID, (int64_t)i + 1);
    pv_table_set_uint(t, r, ST_HANDLE, a->handle);
    pv_table_set_cstr(t, r, ST_TYPE, pv_tl_type_name(a->type));
    pv_table_set_cstr(t, r, ST_NAME, pv_tl_area_name(ix, s->area));
    if ((a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE) && a->has_value)
        pv_table_set_uint(t, r, ST_VALUE, a->value);
    pv_table_set_cstr(t, r, ST_CONTEXT, wi_stat_context_label(ix, s->context));
    pv_table_set_int(t, r, ST_COUNT, s->count);
    for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
        pv_table_set_int(t, r, ST_T0 + k, s->t[k]);
}

enum { AC_ID, AC_THREAD, AC_ENTRY, AC_TIME, AC_TWC, AC_CALL, AC_COLUMNS };

static const pv_column wi_area_call_columns[AC_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {"thread", "Context", PV_TYPE_STRING, PV_COL_NAME},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {PV_COLUMN_TIME_WITH_CHILDREN, PV_COL_DESC},
    {"call_time", "Call time", PV_TYPE_TIME, PV_COL_DESC},
};

const pv_detail_def wi_statistics_details[] = {
    {"area-calls", "Calls"},
    {"value-history", "Value history"},
};
const size_t wi_statistics_detail_count = PV_ARRAY_LEN(wi_statistics_details);

/* A call's wall time within the range (its entry to its exit, clipped). */
int64_t wi_call_time_within(const pv_timeline_index *ix, size_t k)
{
    int64_t from = wi_call_entry_time(ix, k), to = wi_call_exit_time(ix, k);
    if (ix->has_from && from < ix->from)
        from = ix->from;
    if (ix->has_to && to > ix->to)
        to = ix->to;
    return to > from ? to - from : 0;
}

/* One row of area-calls: call k's cells (both the table and the view
 * that reads the viewer's lists below). */
static void wi_area_call_cell(const pv_timeline_index *ix, size_t k, size_t col, pv_cell *out)
{
    switch (col) {
    case AC_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)k + 1);
        return;
    case AC_THREAD:
        wi_cell_str(out, pv_tl_context_name(ix, wi_call_context(ix, k)));
        return;
    case AC_ENTRY:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_entry_time(ix, k));
        return;
    case AC_TIME:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_net(ix, k));
        return;
    case AC_TWC:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_gross(ix, k));
        return;
    default:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_time_within(ix, k));
        return;
    }
}

size_t wi_listed_rows(const pv_view *v)
{
    return ((const wi_listed *)v->impl)->count;
}

/* The view of list[0, listed), cut at the detail limit. */
pv_view *wi_listed_view(const wi_model *m, const uint32_t *list, size_t listed, bool f64,
                               const char *id, const char *title, const pv_column *cols,
                               size_t n, const pv_view_ops *ops)
{
    wi_listed *l = pv_xmalloc(sizeof *l);
    l->m = m;
    l->list = list;
    l->listed = listed;
    l->count = listed < WI_DETAIL_EVENT_LIMIT ? listed : WI_DETAIL_EVENT_LIMIT;
    l->f64 = f64;
    l->changes = NULL;
    l->changes_end = 0;
    return wi_virtual_view(id, title, cols, n, ops, l);
}

/* area-calls: call list[r] */
static void wi_listed_calls_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *lc = v->impl;
    wi_area_call_cell(&lc->m->ix, lc->list[row], col, out);
}

static const pv_view_ops wi_listed_calls_ops = {
    wi_listed_rows, wi_listed_calls_cell, NULL, NULL, wi_virtual_destroy, NULL,
};

/* The calls of a function area in one context (all contexts for Neutral);
 * `id` is the call's id in `call-trace`. */
static pv_view *wi_area_calls(const wi_model *m, uint32_t area, uint16_t context)
{
    const pv_timeline_index *ix = &m->ix;
    if (m->lists_phase == WI_LISTS_DONE && area < ix->area_count &&
        (context == PV_TL_NEUTRAL || (context < ix->context_count && ix->context_call_start))) {
        /* the area's calls in call order; a context's calls are a block of
         * the calls, so its calls of the area a run of the area's list */
        size_t lo = m->call_start[area], hi = m->call_start[area + 1];
        if (context != PV_TL_NEUTRAL) {
            size_t a = pv_u32_lower_bound(m->call_list, lo, hi, ix->context_call_start[context]);
            hi = pv_u32_lower_bound(m->call_list, a, hi, ix->context_call_start[context + 1]);
            lo = a;
        }
        return wi_listed_view(m, m->call_list + lo, hi - lo, false, "area-calls", "Calls",
                              wi_area_call_columns, AC_COLUMNS, &wi_listed_calls_ops);
    }
    pv_table *t = pv_table_new("area-calls", "Calls", wi_area_call_columns, AC_COLUMNS);
    for (size_t k = 0; k < ix->call_count; k++) {
        if (wi_call_area(ix, k) != area)
            continue;
        uint16_t c = wi_call_context(ix, k);
        if (context != PV_TL_NEUTRAL && c != context)
            continue;
        if (pv_table_row_count(t) >= WI_DETAIL_EVENT_LIMIT)
            break;
        size_t r = pv_table_add_row(t);
        for (size_t col = 0; col < AC_COLUMNS; col++) {
            pv_cell cell;
            wi_area_call_cell(ix, k, col, &cell);
            if (col == AC_THREAD)
                pv_table_set_str(t, r, col, cell.v.s.ptr, cell.v.s.len);
            else
                pv_table_set_int(t, r, col, cell.v.i);
        }
    }
    return pv_table_view(t);
}

/* Details of a statistics row (docs/cli.md): the area's calls (function
 * rows), or its value history (data rows).  Row i is ix->stats[i]. */
static pv_view *wi_statistics_detail(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)owner;
    const wi_model *m = ctx;
    if (row >= m->ix.stat_count)
        return NULL;
    const pv_tl_stat_row *s = &m->ix.stats[row];
    unsigned type = m->ix.areas[s->area].type;
    bool function = type == PV_WI_FUNCTION || type == PV_WI_LINE;
    wi_model *mm = ctx;
    if (detail == 0)
        return type == PV_WI_FUNCTION ? wi_hook_view(mm, wi_area_calls(m, s->area, s->context))
                                      : NULL;
    return function ? NULL : wi_hook_view(mm, wi_value_history_of(m, s->area));
}

pv_view *wi_statistics_view(wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("statistics", "Statistics", wi_stat_columns, ST_COLUMNS);
    pv_table_reserve(t, ix->stat_count);
    for (size_t i = 0; i < ix->stat_count; i++)
        wi_stat_fill(t, pv_table_add_row(t), ix, i);
    pv_table_set_details(t, wi_statistics_details, PV_ARRAY_LEN(wi_statistics_details),
                         wi_statistics_detail, m, NULL);
    return pv_table_view(t);
}

/* docs/formats.md §1/§3: Functions blocks without CONTEXT(...) belong to
 * `Unknown`; with it, to the CONTEXTS entry it matches (then named as in
 * CONTEXTS), else the label as written; Data and AUX rows have no context. */
pv_view *wi_statistics_exported_view(const wi_model *m)
{
    const pv_wi_data *d = m->d;
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("statistics-exported", "Statistics (as exported)", wi_stat_columns,
                               ST_COLUMNS);
    pv_table_reserve(t, d->stat_count);
    for (size_t i = 0; i < d->stat_count; i++) {
        const pv_wi_stat_row *s = &d->stats[i];
        unsigned type = pv_wi_handle_type(s->handle);
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, ST_ID, (int64_t)i + 1);
        pv_table_set_uint(t, r, ST_HANDLE, s->handle);
        pv_table_set_cstr(t, r, ST_TYPE, pv_tl_type_name(type));
        uint32_t area = pv_timeline_find_area(ix, s->handle, s->value);
        if (area != PV_WI_NONE)
            pv_table_set_cstr(t, r, ST_NAME, pv_tl_area_name(ix, area));
        if ((type == PV_WI_STATE || type == PV_WI_AUX_STATE) && s->has_value)
            pv_table_set_uint(t, r, ST_VALUE, s->value);
        const char *label = "";
        if (s->area_class == 0) {
            const char *written = pv_strpool_get(&d->pool, s->context);
            if (!s->context || !*written) {
                label = "Unknown";
            } else {
                uint32_t c = pv_wi_match_context(d, written);
                label = c == PV_WI_NONE ? written : pv_strpool_get(&d->pool, d->contexts[c].name);
            }
        }
        pv_table_set_cstr(t, r, ST_CONTEXT, label);
        if (s->has_count)
            pv_table_set_int(t, r, ST_COUNT, s->count);
        for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
            if (s->present & (1u << k))
                pv_table_set_int(t, r, ST_T0 + k, s->t[k]);
    }
    return pv_table_view(t);
}
