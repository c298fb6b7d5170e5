/*
 * views_data.c - the winIDEA data view (areas of types 2-5) and the value
 * history of an area.
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- data (areas of types 2-5) and their value history */

const pv_column wi_data_columns[DATA_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {PV_COLUMN_HANDLE, 0},
    {"type", "Type", PV_TYPE_STRING, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"value", "Value", PV_TYPE_HEX, 0},
    {"count", "Count", PV_TYPE_INT, PV_COL_DESC},
    {"net", "Time in state", PV_TYPE_TIME, PV_COL_DESC},
};

enum { VH_ID, VH_TIME, VH_VALUE, VH_DURATION, VH_COLUMNS, VH_RAW = VH_COLUMNS, VH_F64_COLUMNS };

static const pv_column wi_value_history_columns[VH_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {PV_COLUMN_TIME, 0},
    {"value", "Value", PV_TYPE_HEX, PV_COL_NAME},
    {"duration", "Duration", PV_TYPE_TIME, PV_COL_DESC},
};

/* An F64 area (docs/formats.md §2): the value as a double, and the 64 bits of
 * DATA exactly as read in `raw`. */
static const pv_column wi_value_history_f64_columns[VH_F64_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {PV_COLUMN_TIME, 0},
    {"value", "Value", PV_TYPE_FLOAT, PV_COL_NAME},
    {"duration", "Duration", PV_TYPE_TIME, PV_COL_DESC},
    {"raw", "Raw DATA", PV_TYPE_HEX, 0},
};

const pv_detail_def wi_data_details[] = {{"value-history", "Value history"}};

bool wi_is_state_type(unsigned type)
{
    return type == PV_WI_STATE || type == PV_WI_AUX_STATE;
}

/* Does event i change the state of the variable with state key `key`, and
 * to which state value?  (E on the state handle, or W on the variable.) */
static bool wi_state_change(const pv_timeline_index *ix, size_t i, uint32_t key,
                            const pv_wi_event *e)
{
    const pv_tl_area *a = &ix->areas[pv_tl_event_area(ix, i)];
    if (a->state_key != key)
        return false;
    if (a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE)
        return e->kind == PV_WI_ENTRY;
    return e->kind == PV_WI_WRITE;
}

/* Value history: each write (variables, AUX) or each entry into the state
 * (states), with the time until the next write / state change of the
 * variable (or the end of the recording).  Only events in the window. */
static pv_view *wi_value_history(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)detail;
    const wi_model *m = ctx;
    int64_t id;
    if (!pv_table_get_int((const pv_table *)owner->impl, row, DATA_ID, &id) || id < 1 ||
        (size_t)id > m->ix.area_count)
        return NULL;
    return wi_hook_view(ctx, wi_value_history_of(m, (uint32_t)(id - 1)));
}

/* The value history of a variable whose state key no other area has, read
 * from the viewer's list of its events: every event is a change, row r is
 * event list[r], its duration runs to the next one (the last one's to the
 * end of the recording); nothing is made when it opens. */
static void wi_listed_values_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *lv = v->impl;
    const pv_timeline_index *ix = &lv->m->ix;
    pv_wi_event e;
    pv_timeline_event(ix, lv->list[row], &e);
    switch (col) {
    case VH_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)lv->list[row]);
        return;
    case VH_TIME:
        wi_cell_int(out, PV_TYPE_TIME, e.time);
        return;
    case VH_VALUE:
        if (lv->f64) {
            out->type = PV_TYPE_FLOAT;
            out->present = true;
            out->v.f = wi_data_f64(e.data);
        } else {
            wi_cell_uint(out, PV_TYPE_HEX, e.data & 0xFFFFFFFFu);
        }
        return;
    case VH_DURATION:
        wi_cell_int(out, PV_TYPE_TIME,
                    row + 1 < lv->listed ? wi_event_time(ix, lv->list[row + 1]) - e.time
                                         : ix->time_last - e.time);
        return;
    default:
        wi_cell_uint(out, PV_TYPE_HEX, e.data);
        return;
    }
}

static const pv_view_ops wi_listed_values_ops = {
    wi_listed_rows, wi_listed_values_cell, NULL, NULL, wi_virtual_destroy, NULL,
};
const size_t wi_data_detail_count = PV_ARRAY_LEN(wi_data_details);

/* The value history of a state read from the viewer's lists: row r is
 * the change changes[list[r]] of the state's key that enters its value,
 * its duration runs to the key's next change (the last one's to the end of
 * the recording); nothing is made when it opens. */
static void wi_listed_states_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *ls = v->impl;
    const pv_timeline_index *ix = &ls->m->ix;
    size_t q = ls->list[row], i = ls->changes[q];
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    switch (col) {
    case VH_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
        return;
    case VH_TIME:
        wi_cell_int(out, PV_TYPE_TIME, e.time);
        return;
    case VH_VALUE:
        wi_cell_uint(out, PV_TYPE_HEX, e.data & 0xFFFFFFFFu);
        return;
    default:
        wi_cell_int(out, PV_TYPE_TIME,
                    q + 1 < ls->changes_end ? wi_event_time(ix, ls->changes[q + 1]) - e.time
                                            : ix->time_last - e.time);
        return;
    }
}

static const pv_view_ops wi_listed_states_ops = {
    wi_listed_rows, wi_listed_states_cell, NULL, NULL, wi_virtual_destroy, NULL,
};

/* The value history from the viewer's lists (docs/winidea-model.md "The
 * viewer's area lists"), NULL when they do not hold it. */
static pv_view *wi_value_history_listed(const wi_model *m, uint32_t area)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_tl_area *a = &ix->areas[area];
    uint32_t g = m->lists_phase == WI_LISTS_DONE ? m->data_group[area] : PV_WI_NONE;
    if (g == PV_WI_NONE)
        return NULL;
    if (!wi_is_state_type(a->type)) {
        /* the variable's events are its key's list (when they are all its
         * own: a duplicate of the mapping has none): each is a change */
        if (m->data_start[g + 1] - m->data_start[g] != m->area_events[area])
            return NULL;
        bool f64 = a->value_f64;
        return wi_listed_view(m, m->data_list + m->data_start[g], m->area_events[area], f64,
                              "value-history", "Value history",
                              f64 ? wi_value_history_f64_columns : wi_value_history_columns,
                              f64 ? VH_F64_COLUMNS : VH_COLUMNS, &wi_listed_values_ops);
    }
    /* the changes into its value were listed for the key's area of that
     * value (itself, or the first of the mapping's duplicates) */
    uint32_t s = pv_timeline_find_area(ix, a->state_key, a->value & 0xFFFFFFFFu);
    if (s >= ix->area_count || m->data_group[s] != g)
        return NULL;
    pv_view *v = wi_listed_view(m, m->state_list + m->state_start[s],
                                m->state_start[s + 1] - m->state_start[s], false, "value-history",
                                "Value history", wi_value_history_columns, VH_COLUMNS,
                                &wi_listed_states_ops);
    wi_listed *ls = v->impl;
    ls->changes = m->change_list;
    ls->changes_end = m->change_end[g];
    return v;
}

pv_view *wi_value_history_of(const wi_model *m, uint32_t area)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_tl_area *a = &ix->areas[area];
    bool state = a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE;
    bool f64 = a->value_f64;
    pv_view *listed_view = wi_value_history_listed(m, area);
    if (listed_view)
        return listed_view;
    pv_table *t =
        f64 ? pv_table_new("value-history", "Value history", wi_value_history_f64_columns,
                           VH_F64_COLUMNS)
            : pv_table_new("value-history", "Value history", wi_value_history_columns, VH_COLUMNS);
    size_t open = PV_NO_ROW;
    int64_t open_time = 0;
    /* a variable: the viewer's list of its key's variable events (its own
     * among them), else every event of the window */
    bool listed = !state && m->lists_phase == WI_LISTS_DONE && m->data_group[area] != PV_WI_NONE;
    size_t from = listed ? m->data_start[m->data_group[area]] : ix->window_first;
    size_t end = listed ? m->data_start[m->data_group[area] + 1] : ix->window_end;
    for (size_t j = from; j < end; j++) {
        size_t i = listed ? m->data_list[j] : j;
        pv_wi_event e;
        pv_timeline_event(ix, i, &e);
        bool change = state ? wi_state_change(ix, i, a->state_key, &e) : pv_tl_event_area(ix, i) == area;
        if (!change)
            continue;
        if (open != PV_NO_ROW) {
            pv_table_set_int(t, open, VH_DURATION, e.time - open_time);
            open = PV_NO_ROW;
        }
        if (state && (e.data & 0xFFFFFFFFu) != (a->value & 0xFFFFFFFFu))
            continue;
        if (pv_table_row_count(t) >= WI_DETAIL_EVENT_LIMIT)
            break;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, VH_ID, (int64_t)i);
        pv_table_set_int(t, r, VH_TIME, e.time);
        if (f64) {
            pv_table_set_float(t, r, VH_VALUE, wi_data_f64(e.data));
            pv_table_set_uint(t, r, VH_RAW, e.data);
        } else {
            pv_table_set_uint(t, r, VH_VALUE, e.data & 0xFFFFFFFFu);
        }
        open = r;
        open_time = e.time;
    }
    if (open != PV_NO_ROW)
        pv_table_set_int(t, open, VH_DURATION, ix->time_last - open_time);
    return pv_table_view(t);
}

pv_view *wi_data_view(wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("data", "Data", wi_data_columns, DATA_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        const pv_tl_area *ar = &ix->areas[a];
        if (ar->type < PV_WI_VARIABLE || ar->type > PV_WI_AUX_STATE)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, DATA_ID, (int64_t)a + 1);
        pv_table_set_uint(t, r, DATA_HANDLE, ar->handle);
        pv_table_set_cstr(t, r, DATA_TYPE, pv_tl_type_name(ar->type));
        pv_table_set_cstr(t, r, DATA_NAME, pv_tl_area_name(ix, (uint32_t)a));
        if ((ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE) && ar->has_value)
            pv_table_set_uint(t, r, DATA_VALUE, ar->value);
        const pv_tl_stat_row *s = pv_timeline_find_stat(ix, (uint32_t)a, PV_TL_NO_CONTEXT);
        pv_table_set_int(t, r, DATA_COUNT, s ? s->count : 0);
        if (ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE)
            pv_table_set_int(t, r, DATA_NET, s ? s->t[PV_WI_STAT_NET] : 0);
    }
    pv_table_set_details(t, wi_data_details, PV_ARRAY_LEN(wi_data_details), wi_value_history, m,
                         NULL);
    return pv_table_view(t);
}
