/*
 * views_calls.c - the winIDEA call-trace view: a virtual tree, one row per
 * reconstructed call, and the details of a call.
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- call-trace: a virtual tree, one row per reconstructed call */

static const pv_column wi_call_trace_columns[CT_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_PARENT, PV_COL_HIDDEN},
    {"call_no", "Call no", PV_TYPE_INT, 0},
    {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_TREE},
    {PV_COLUMN_DEPTH, PV_COL_HIDDEN},
    {"thread", "Context", PV_TYPE_STRING, 0},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {PV_COLUMN_TIME_WITH_CHILDREN, PV_COL_DESC},
    {"call_time", "Call time", PV_TYPE_TIME, PV_COL_DESC | PV_COL_HIDDEN},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
    {"exit_time", "Exited", PV_TYPE_TIME, PV_COL_HIDDEN},
    {PV_COLUMN_HANDLE, PV_COL_HIDDEN},
    {"implicit", "Implicit", PV_TYPE_INT, PV_COL_HIDDEN},
    {PV_COLUMN_MODULE, PV_COL_HIDDEN}, /* the mapping's FILE, as in routines */
};

static const pv_detail_def wi_call_trace_details[] = {{"call-events", "Events of the call"}};

static size_t wi_calls_rows(const pv_view *v)
{
    wi_model_complete(v->impl);
    return ((const wi_model *)v->impl)->ix.call_count;
}

static size_t wi_calls_parent(const pv_view *v, size_t row)
{
    wi_model_complete(v->impl); /* rows exist only once complete */
    uint32_t p = ((const wi_model *)v->impl)->ix.call_parent[row];
    return p == PV_TL_OPEN ? PV_NO_ROW : p;
}

int64_t wi_call_entry_time(const pv_timeline_index *ix, size_t k)
{
    return (ix->call_entry[k] & PV_TL_IMPLICIT_CALL) ? ix->time_first
                                                     : wi_event_time(ix, ix->call_entry[k]);
}

int64_t wi_call_exit_time(const pv_timeline_index *ix, size_t k)
{
    return ix->call_exit[k] == PV_TL_OPEN ? ix->time_last : wi_event_time(ix, ix->call_exit[k]);
}

static void wi_calls_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    wi_model_complete(v->impl);
    const pv_timeline_index *ix = &((const wi_model *)v->impl)->ix;
    /* the context only where needed: it is a cache miss (the call's entry
     * event), and a flame graph reads the other cells of every call */
    uint16_t c;
    switch (col) {
    case CT_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)row + 1);
        return;
    case CT_PARENT:
        if (ix->call_parent[row] == PV_TL_OPEN)
            wi_cell_absent(out, PV_TYPE_INT);
        else
            wi_cell_int(out, PV_TYPE_INT, (int64_t)ix->call_parent[row] + 1);
        return;
    case CT_CALL_NO:
        c = wi_call_context(ix, row);
        wi_cell_int(out, PV_TYPE_INT, (int64_t)(row - ix->context_call_start[c]) + 1);
        return;
    case CT_ROUTINE:
        wi_cell_str(out, pv_tl_area_name(ix, wi_call_area(ix, row)));
        return;
    case CT_DEPTH: {
        int64_t depth = 0;
        for (uint32_t p = ix->call_parent[row]; p != PV_TL_OPEN && depth <= (int64_t)ix->call_count;
             p = ix->call_parent[p])
            depth++;
        wi_cell_int(out, PV_TYPE_INT, depth);
        return;
    }
    case CT_THREAD:
        c = wi_call_context(ix, row);
        wi_cell_str(out, pv_tl_context_name(ix, c));
        return;
    case CT_TIME:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_net(ix, row));
        return;
    case CT_TWC:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_gross(ix, row));
        return;
    case CT_CALL:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_time_within(ix, row));
        return;
    case CT_ENTRY:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_entry_time(ix, row));
        return;
    case CT_EXIT:
        if (ix->call_exit[row] == PV_TL_OPEN)
            wi_cell_absent(out, PV_TYPE_TIME);
        else
            wi_cell_int(out, PV_TYPE_TIME, wi_call_exit_time(ix, row));
        return;
    case CT_HANDLE:
        wi_cell_uint(out, PV_TYPE_HANDLE, ix->areas[wi_call_area(ix, row)].handle);
        return;
    case CT_IMPLICIT:
        wi_cell_int(out, PV_TYPE_INT, (ix->call_entry[row] & PV_TL_IMPLICIT_CALL) ? 1 : 0);
        return;
    case CT_MODULE: {
        const wi_model *m = v->impl;
        const pv_tl_area *ar = &ix->areas[wi_call_area(ix, row)];
        wi_cell_str(out, ar->data_area != PV_WI_NONE
                             ? pv_strpool_get(&m->d->pool, m->d->areas[ar->data_area].file)
                             : "");
        return;
    }
    default:
        wi_cell_absent(out, PV_TYPE_INT);
    }
}

enum { CE_ID, CE_INDEX, CE_TIME, CE_HANDLE, CE_NAME, CE_EVENT, CE_VALUE, CE_DEPTH, CE_COLUMNS };

static const pv_column wi_call_event_columns[CE_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {"index", "Index", PV_TYPE_INT, 0},
    {PV_COLUMN_TIME, 0},
    {PV_COLUMN_HANDLE, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"event", "Event", PV_TYPE_STRING, 0},
    {"value", "Value", PV_TYPE_HEX, 0},
    {PV_COLUMN_DEPTH, 0},
};

/* call-events: row r is event list[r] (the view owns the list). */
static void wi_call_events_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *l = v->impl;
    const pv_timeline_index *ix = &l->m->ix;
    size_t i = l->list[row];
    uint32_t area = pv_tl_event_area(ix, i);
    pv_wi_event e;
    switch (col) {
    case CE_ID:
    case CE_INDEX:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
        return;
    case CE_TIME:
        wi_cell_int(out, PV_TYPE_TIME, wi_event_time(ix, i));
        return;
    case CE_HANDLE:
        wi_cell_uint(out, PV_TYPE_HANDLE, ix->areas[area].handle);
        return;
    case CE_NAME:
        wi_cell_str(out, pv_tl_area_name(ix, area));
        return;
    case CE_EVENT:
        pv_timeline_event(ix, i, &e);
        wi_cell_str(out, wi_event_name(e.kind));
        return;
    case CE_DEPTH:
        wi_cell_int(out, PV_TYPE_INT, pv_tl_event_depth(ix, i));
        return;
    default:
        wi_cell_absent(out, PV_TYPE_HEX);
        return;
    }
}

static void wi_call_events_destroy(pv_view *v)
{
    const wi_listed *l = v->impl;
    free((void *)l->list);
    wi_virtual_destroy(v);
}

static const pv_view_ops wi_call_events_ops = {
    wi_listed_rows, wi_call_events_cell, NULL, NULL, wi_call_events_destroy, NULL,
};

/* The events of a call: every event of its context from its entry to its
 * exit (the call's own E/S/R/X and what it called), in file order, up to
 * the detail limit.  Opening it finds them by the contexts of the events
 * (a byte or two each); a row's cells are read when it is shown. */
static pv_view *wi_calls_detail(const pv_view *v, size_t detail, size_t row)
{
    (void)detail;
    const wi_model *m = v->impl;
    const pv_timeline_index *ix = &m->ix;
    uint16_t c = wi_call_context(ix, row);
    size_t from = (ix->call_entry[row] & PV_TL_IMPLICIT_CALL) ? 0 : ix->call_entry[row];
    size_t to = ix->call_exit[row] == PV_TL_OPEN ? ix->event_count - 1 : ix->call_exit[row];
    size_t cap = 64, n = 0;
    uint32_t *list = pv_xmalloc(cap * sizeof *list);
    for (size_t i = from; i <= to && i < ix->event_count && n < WI_DETAIL_EVENT_LIMIT; i++) {
        if (pv_tl_event_context(ix, i) != c)
            continue;
        if (n == cap)
            list = pv_xgrow(list, &cap, n + 1, sizeof *list);
        list[n++] = (uint32_t)i;
    }
    pv_view *ev = wi_listed_view(m, list, n, false, "call-events", "Events of the call",
                                 wi_call_event_columns, CE_COLUMNS, &wi_call_events_ops);
    return wi_hook_view(v->impl, ev);
}

static void wi_calls_destroy(pv_view *v)
{
    v->impl = NULL; /* the model belongs to the file */
    free(v->columns);
    free(v->id);
    free(v->title);
    free(v);
}

const pv_view_ops wi_call_trace_ops = {
    wi_calls_rows, wi_calls_cell, wi_calls_parent, wi_calls_detail, wi_calls_destroy, NULL,
};

pv_view *wi_call_trace_view(wi_model *m)
{
    pv_view *v = wi_virtual_view("call-trace", "Call trace", wi_call_trace_columns, CT_COLUMNS,
                                 &wi_call_trace_ops, m);
    v->details = wi_call_trace_details;
    v->detail_count = PV_ARRAY_LEN(wi_call_trace_details);
    return v;
}
