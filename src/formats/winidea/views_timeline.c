/*
 * views_timeline.c - the winIDEA timeline view: virtual, one row per event
 * of the window (50 M events are never materialised).
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pv_column wi_timeline_columns[TL_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {"index", "Index", PV_TYPE_INT, 0},
    {PV_COLUMN_TIME, 0},
    {PV_COLUMN_CONTEXT, PV_COL_LANE},
    {"core", "Core", PV_TYPE_INT, 0},
    {PV_COLUMN_HANDLE, PV_COL_GROUPED | PV_COL_MINOR},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_GROUPED},
    {"event", "Event", PV_TYPE_STRING, 0},
    {"value", "Value", PV_TYPE_HEX, PV_COL_MINOR},
    {PV_COLUMN_DEPTH, PV_COL_MINOR},
    {"type", "Type", PV_TYPE_STRING, PV_COL_HIDDEN | PV_COL_GROUPED},
    {"delta", "Delta", PV_TYPE_TIME, PV_COL_SINCE_PREV | PV_COL_MINOR},
    {"value_f64", "Value (F64)", PV_TYPE_FLOAT, PV_COL_MINOR},
};

static size_t wi_timeline_rows(const pv_view *v)
{
    return ((const wi_events_impl *)v->impl)->count;
}

/* delta: the time since the previous event of the window (docs/winidea-model.md
 * "Views"), absent for the first; a list of some of the events shows it from
 * the previous event shown (PV_COL_SINCE_PREV). */
static void wi_tl_delta(const wi_events_impl *im, size_t i, pv_cell *out)
{
    if (i <= im->first) {
        wi_cell_absent(out, PV_TYPE_TIME);
        return;
    }
    wi_cell_int(out, PV_TYPE_TIME, wi_event_time(&im->m->ix, i) - wi_event_time(&im->m->ix, i - 1));
}

static void wi_timeline_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_events_impl *im = v->impl;
    const pv_timeline_index *ix = &im->m->ix;
    size_t i = im->first + row;
    pv_wi_event e;
    if (i >= ix->indexed && im->m->stepped) {
        /* Not indexed yet and a viewer indexes in slices: only what the
         * record itself says; the columns of the index are absent. */
        switch (col) {
        case TL_ID:
        case TL_INDEX:
            wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
            return;
        case TL_TIME:
            wi_cell_int(out, PV_TYPE_TIME, wi_event_time(ix, i));
            return;
        case TL_DELTA:
            wi_tl_delta(im, i, out);
            return;
        case TL_EVENT:
            pv_timeline_event(ix, i, &e);
            wi_cell_str(out, wi_event_name(e.kind));
            return;
        default:
            wi_cell_absent(out, wi_timeline_columns[col].type);
            return;
        }
    }
    if (i >= ix->indexed)
        wi_model_reach(im->m, i + 1);
    uint32_t area = pv_tl_event_area(ix, i);
    switch (col) {
    case TL_ID:
    case TL_INDEX:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
        return;
    case TL_TIME:
        wi_cell_int(out, PV_TYPE_TIME, wi_event_time(ix, i));
        return;
    case TL_CONTEXT:
        if (pv_tl_event_context(ix, i) == PV_TL_NO_CONTEXT)
            wi_cell_absent(out, PV_TYPE_STRING);
        else
            wi_cell_str(out, pv_tl_context_name(ix, pv_tl_event_context(ix, i)));
        return;
    case TL_CORE:
        pv_timeline_event(ix, i, &e);
        if (e.core == PV_WI_CORE_UNKNOWN)
            wi_cell_absent(out, PV_TYPE_INT);
        else
            wi_cell_int(out, PV_TYPE_INT, e.core);
        return;
    case TL_HANDLE:
        wi_cell_uint(out, PV_TYPE_HANDLE, ix->areas[area].handle);
        return;
    case TL_NAME:
        wi_cell_str(out, pv_tl_area_name(ix, area));
        return;
    case TL_EVENT:
        pv_timeline_event(ix, i, &e);
        wi_cell_str(out, wi_event_name(e.kind));
        return;
    case TL_VALUE: {
        /* the written value or state value; none for function/line events */
        unsigned type = ix->areas[area].type;
        if (type == PV_WI_FUNCTION || type == PV_WI_LINE) {
            wi_cell_absent(out, PV_TYPE_HEX);
            return;
        }
        pv_timeline_event(ix, i, &e);
        /* an F64 area's value is all 64 bits of DATA, as read; the double
         * they hold is in value_f64 */
        wi_cell_uint(out, PV_TYPE_HEX, ix->areas[area].value_f64 ? e.data : e.data & 0xFFFFFFFFu);
        return;
    }
    case TL_VALUE_F64:
        if (!ix->areas[area].value_f64) {
            wi_cell_absent(out, PV_TYPE_FLOAT);
            return;
        }
        pv_timeline_event(ix, i, &e);
        out->type = PV_TYPE_FLOAT;
        out->present = true;
        out->v.f = wi_data_f64(e.data);
        return;
    case TL_DEPTH:
        wi_cell_int(out, PV_TYPE_INT, pv_tl_event_depth(ix, i));
        return;
    case TL_TYPE:
        wi_cell_str(out, pv_tl_type_name(ix->areas[area].type));
        return;
    case TL_DELTA:
        wi_tl_delta(im, i, out);
        return;
    default:
        wi_cell_absent(out, PV_TYPE_INT);
    }
}

static uint32_t wi_timeline_group(const pv_view *v, size_t row)
{
    const wi_events_impl *im = v->impl;
    size_t i = im->first + row;
    if (i >= im->m->ix.indexed)
        wi_model_reach(im->m, i + 1);
    return pv_tl_event_area(&im->m->ix, i);
}

enum { CS_ID, CS_POSITION, CS_ROUTINE, CS_HANDLE, CS_CONTEXT, CS_ENTRY, CS_COLUMNS };

static const pv_column wi_call_stack_columns[CS_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {"position", "Position", PV_TYPE_INT, 0},
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
    {PV_COLUMN_HANDLE, 0},
    {PV_COLUMN_CONTEXT, 0},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
};

static const pv_detail_def wi_timeline_details[] = {
    {"call-stack-at", "Call stack"},
    {"area-statistics", "Statistics of the area"},
};

/* The statistics rows of the event's area (every context, Neutral). */
static pv_view *wi_area_statistics(const wi_model *m, size_t i)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t =
        pv_table_new("area-statistics", "Statistics of the area", wi_stat_columns, ST_COLUMNS);
    uint32_t area = pv_tl_event_area(ix, i);
    for (size_t k = 0; k < ix->stat_count; k++)
        if (ix->stats[k].area == area)
            wi_stat_fill(t, pv_table_add_row(t), ix, k);
    return pv_table_view(t);
}

/* The enclosing function calls at event i, innermost first (position 0). */
static pv_view *wi_call_stack_at(const wi_model *m, size_t i)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("call-stack-at", "Call stack", wi_call_stack_columns, CS_COLUMNS);
    uint16_t c = pv_tl_event_context(ix, i);
    if (c == PV_TL_NO_CONTEXT)
        return pv_table_view(t);
    uint32_t k = pv_timeline_call_at(ix, c, i);
    for (size_t guard = 0; k != PV_TL_OPEN && guard <= ix->call_count; guard++) {
        size_t r = pv_table_add_row(t);
        uint32_t area = wi_call_area(ix, k);
        pv_table_set_int(t, r, CS_ID, (int64_t)k + 1);
        pv_table_set_int(t, r, CS_POSITION, (int64_t)r);
        pv_table_set_cstr(t, r, CS_ROUTINE, pv_tl_area_name(ix, area));
        pv_table_set_uint(t, r, CS_HANDLE, ix->areas[area].handle);
        pv_table_set_cstr(t, r, CS_CONTEXT, pv_tl_context_name(ix, c));
        pv_table_set_int(t, r, CS_ENTRY,
                         (ix->call_entry[k] & PV_TL_IMPLICIT_CALL)
                             ? ix->time_first
                             : wi_event_time(ix, ix->call_entry[k]));
        k = ix->call_parent[k];
    }
    return pv_table_view(t);
}

static pv_view *wi_timeline_detail(const pv_view *v, size_t detail, size_t row)
{
    const wi_events_impl *im = v->impl;
    wi_model_complete(im->m);
    if (detail == 1)
        return wi_hook_view(im->m, wi_area_statistics(im->m, im->first + row));
    return wi_hook_view(im->m, wi_call_stack_at(im->m, im->first + row));
}

static const pv_view_ops wi_timeline_ops = {
    wi_timeline_rows,   wi_timeline_cell,   NULL,
    wi_timeline_detail, wi_virtual_destroy, wi_timeline_group,
};

pv_view *wi_timeline_view(wi_model *m)
{
    wi_events_impl *im = pv_xcalloc(1, sizeof *im);
    im->m = m;
    im->first = m->ix.window_first;
    im->count = m->ix.window_end - m->ix.window_first;
    /* value_f64 exists only where it can hold a value, so that the
     * timeline of a file without F64 areas keeps its columns */
    bool f64 = false;
    for (size_t a = 0; a < m->ix.area_count && !f64; a++)
        f64 = m->ix.areas[a].value_f64;
    pv_view *v = wi_virtual_view("timeline", "Timeline", wi_timeline_columns,
                                 f64 ? TL_COLUMNS : TL_VALUE_F64, &wi_timeline_ops, im);
    v->details = wi_timeline_details;
    v->detail_count = PV_ARRAY_LEN(wi_timeline_details);
    v->group_count = (uint32_t)m->ix.area_count;
    return v;
}
