/*
 * views_routines.c - the winIDEA routines view (function areas with their
 * Neutral statistics) and its callers and callees.
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- routines: function areas with their Neutral statistics */

const pv_column wi_routine_columns[RT_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_KEY},
    {PV_COLUMN_MODULE, PV_COL_KEY},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {PV_COLUMN_TIME_WITH_CHILDREN, PV_COL_DESC},
    {"time_min", "Min time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_max", "Max time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_avg", "Avg time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children_min", "Min time with children", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children_max", "Max time with children", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children_avg", "Avg time with children", PV_TYPE_TIME, PV_COL_DESC},
    {"call_time", "Call time", PV_TYPE_TIME, PV_COL_DESC | PV_COL_HIDDEN},
    {PV_COLUMN_HANDLE, PV_COL_HIDDEN},
};

enum { CC_ID, CC_ROUTINE, CC_HITS, CC_TIME, CC_COLUMNS };

static const pv_column wi_caller_columns[CC_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {"time", "Time with children", PV_TYPE_TIME, PV_COL_DESC}, /* not the shared column */
};

const pv_detail_def wi_routine_details[] = {
    {"callers", "Callers"},
    {"callees", "Callees"},
    {PV_DETAIL_SOURCE, "Source"}, /* views_source.c */
};
const size_t wi_routine_detail_count = PV_ARRAY_LEN(wi_routine_details);

/* Callers (detail 0) or callees (detail 1) of a routine: per other routine,
 * the number of calls between the two and their total time with children. */
/* An empty hash of area pairs with room for cap (a power of two). */
static wi_edge *wi_edge_tab_new(size_t cap)
{
    wi_edge *tab = pv_xmalloc(cap * sizeof *tab);
    for (size_t i = 0; i < cap; i++)
        tab[i].hits = 0;
    return tab;
}

/* m->edges: the calls [edge_next, + budget) into the hash of area pairs;
 * true once every call is in and the pairs are listed. */
bool wi_edges_step(wi_model *m, size_t budget)
{
    if (m->edges_done)
        return true;
    const pv_timeline_index *ix = &m->ix;
    if (!m->edge_tab) {
        m->edge_cap = 1024;
        m->edge_used = 0;
        m->edge_next = 0;
        m->edge_tab = wi_edge_tab_new(m->edge_cap);
    }
    size_t end = ix->call_count - m->edge_next > budget ? m->edge_next + budget : ix->call_count;
    wi_edge *tab = m->edge_tab;
    size_t cap = m->edge_cap, count = m->edge_used;
    for (size_t k = m->edge_next; k < end; k++) {
        uint32_t p = ix->call_parent[k];
        if (p == PV_TL_OPEN)
            continue;
        uint32_t child = wi_call_area(ix, k), parent = wi_call_area(ix, p);
        if (2 * (count + 1) > cap) { /* grow: rehash */
            size_t ncap = 2 * cap;
            wi_edge *n = wi_edge_tab_new(ncap);
            for (size_t i = 0; i < cap; i++) {
                if (!tab[i].hits)
                    continue;
                size_t h = ((size_t)tab[i].caller * 2654435761u ^ tab[i].callee) & (ncap - 1);
                while (n[h].hits)
                    h = (h + 1) & (ncap - 1);
                n[h] = tab[i];
            }
            free(tab);
            tab = n;
            cap = ncap;
        }
        size_t h = ((size_t)parent * 2654435761u ^ child) & (cap - 1);
        while (tab[h].hits && (tab[h].caller != parent || tab[h].callee != child))
            h = (h + 1) & (cap - 1);
        if (!tab[h].hits) {
            tab[h] = (wi_edge){parent, child, 0, 0};
            count++;
        }
        tab[h].hits++;
        /* many calls: saturates */
        tab[h].time = pv_add_sat(tab[h].time, pv_timeline_call_gross(ix, k));
    }
    m->edge_tab = tab;
    m->edge_cap = cap;
    m->edge_used = count;
    m->edge_next = end;
    if (end < ix->call_count)
        return false;
    m->edges = pv_xmalloc((count ? count : 1) * sizeof *m->edges);
    for (size_t i = 0; i < cap; i++)
        if (tab[i].hits)
            m->edges[m->edge_count++] = tab[i];
    free(tab);
    m->edge_tab = NULL;
    m->edges_done = true;
    return true;
}

/* m->edges, once (the rest of the pass when a viewer's lists began it). */
static void wi_model_edges(wi_model *m)
{
    wi_edges_step(m, SIZE_MAX);
}

static pv_view *wi_routine_detail(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    wi_model *m = ctx;
    const pv_timeline_index *ix = &m->ix;
    int64_t id;
    if (!pv_table_get_int((const pv_table *)owner->impl, row, RT_ID, &id) || id < 1 ||
        (size_t)id > ix->area_count)
        return NULL;
    uint32_t area = (uint32_t)(id - 1);
    if (detail == 2)
        return wi_routine_source(m, area);
    wi_model_edges(m);
    int64_t *hits = pv_xcalloc(ix->area_count, sizeof *hits);
    int64_t *time = pv_xcalloc(ix->area_count, sizeof *time);
    for (size_t e = 0; e < m->edge_count; e++) {
        const wi_edge *w = &m->edges[e];
        uint32_t other;
        if (detail == 0 && w->callee == area)
            other = w->caller;
        else if (detail == 1 && w->caller == area)
            other = w->callee;
        else
            continue;
        hits[other] += w->hits;
        time[other] = pv_add_sat(time[other], w->time);
    }
    pv_table *t = pv_table_new(wi_routine_details[detail].id, wi_routine_details[detail].title,
                               wi_caller_columns, CC_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        if (!hits[a])
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, CC_ID, (int64_t)a + 1);
        pv_table_set_cstr(t, r, CC_ROUTINE, pv_tl_area_name(ix, (uint32_t)a));
        pv_table_set_int(t, r, CC_HITS, hits[a]);
        pv_table_set_int(t, r, CC_TIME, time[a]);
    }
    free(hits);
    free(time);
    return wi_hook_view(m, pv_table_view(t));
}

pv_view *wi_routines_view(wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_wi_data *d = m->d;
    pv_table *t = pv_table_new("routines", "Routines", wi_routine_columns, RT_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        const pv_tl_area *ar = &ix->areas[a];
        if (ar->type != PV_WI_FUNCTION)
            continue;
        const pv_tl_stat_row *s = pv_timeline_find_stat(ix, (uint32_t)a, PV_TL_NEUTRAL);
        if (!s)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, RT_ID, (int64_t)a + 1);
        pv_table_set_cstr(t, r, RT_ROUTINE, pv_tl_area_name(ix, (uint32_t)a));
        const char *module = "";
        if (ar->data_area != PV_WI_NONE)
            module = pv_strpool_get(&d->pool, d->areas[ar->data_area].file);
        pv_table_set_cstr(t, r, RT_MODULE, module);
        pv_table_set_int(t, r, RT_HITS, s->count);
        pv_table_set_int(t, r, RT_TIME, s->t[PV_WI_STAT_NET]);
        pv_table_set_int(t, r, RT_TWC, s->t[PV_WI_STAT_GROSS]);
        pv_table_set_int(t, r, RT_TIME_MIN, s->t[PV_WI_STAT_NET_MIN]);
        pv_table_set_int(t, r, RT_TIME_MAX, s->t[PV_WI_STAT_NET_MAX]);
        pv_table_set_int(t, r, RT_TIME_AVG, s->t[PV_WI_STAT_NET_AVG]);
        pv_table_set_int(t, r, RT_TWC_MIN, s->t[PV_WI_STAT_GROSS_MIN]);
        pv_table_set_int(t, r, RT_TWC_MAX, s->t[PV_WI_STAT_GROSS_MAX]);
        pv_table_set_int(t, r, RT_TWC_AVG, s->t[PV_WI_STAT_GROSS_AVG]);
        pv_table_set_int(t, r, RT_CALL, s->t[PV_WI_STAT_CALL]);
        pv_table_set_uint(t, r, RT_HANDLE, ar->handle);
    }
    pv_table_set_details(t, wi_routine_details, PV_ARRAY_LEN(wi_routine_details), wi_routine_detail,
                         m, NULL);
    return pv_table_view(t);
}
