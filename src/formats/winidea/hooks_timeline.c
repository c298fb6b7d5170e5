/*
 * hooks_timeline.c - the capability hooks of the winIDEA timeline view.
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the timeline: rows are events im->first + row */

static bool wi_tl_row_time(const pv_view *v, size_t row, int64_t *t)
{
    const wi_events_impl *im = v->impl;
    *t = wi_event_time(&im->m->ix, im->first + row);
    return true;
}

static bool wi_tl_time_ordered(const pv_view *v)
{
    const wi_model *m = wi_view_model(v);
    return wi_model_ready(m) && !m->ix.time_decreased;
}

/* Nothing left for a viewer to wait for: the index, and after it (in a
 * viewer's slices) the first event of every area. */
bool wi_viewer_complete(const wi_model *m)
{
    return !m || !m->indexed || m->failed ||
           (m->ix.complete &&
            ((m->area_first_done && m->lists_phase == WI_LISTS_DONE) || !m->stepped));
}

bool wi_waits_for_index(const pv_view *v, bool details)
{
    const wi_model *m = wi_view_model(v);
    if (wi_viewer_complete(m))
        return false;
    if (details)
        return true; /* call stacks, statistics of the area: the whole index */
    return v->ops == &wi_lazy_ops || v->ops == &wi_call_trace_ops;
}

static bool wi_tl_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    const wi_events_impl *im = v->impl;
    wi_model *m = im->m;
    size_t i = im->first + row;
    if (rel == PV_REL_TIMELINE)
        return wi_timeline_ref(m, i, out);
    if (!wi_model_ready(m))
        return false;
    if (rel != PV_REL_PARTNER)
        return wi_event_related(m, i, rel, out);
    size_t partner;
    if (!wi_event_partner(&m->ix, i, &partner) || partner < im->first ||
        partner - im->first >= im->count)
        return false;
    out->view = (pv_view *)v;
    out->row = partner - im->first;
    return true;
}

/* The area key of J / K: the handle (the events of a state variable's
 * states share it). */
static bool wi_tl_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    const wi_events_impl *im = v->impl;
    size_t i = im->first + row;
    if (i >= im->m->ix.indexed && im->m->stepped)
        return false;
    if (i >= im->m->ix.indexed)
        wi_model_reach(im->m, i + 1);
    *area = im->m->ix.areas[pv_tl_event_area(&im->m->ix, i)].handle;
    return true;
}

/* Lanes: the contexts, once the index is complete (docs/tui.md "Lane
 * strip"); function and line events show their context running. */
static size_t wi_tl_lane_count(const pv_view *v)
{
    const wi_model *m = wi_view_model(v);
    return wi_model_ready(m) ? m->ix.context_count : 0;
}

static void wi_tl_lane_name(const pv_view *v, size_t lane, pv_cell *out)
{
    const wi_model *m = wi_view_model(v);
    wi_cell_str(out, pv_tl_context_name(&m->ix, (uint16_t)lane));
}

static size_t wi_tl_row_lane(const pv_view *v, size_t row)
{
    const wi_events_impl *im = v->impl;
    const pv_timeline_index *ix = &im->m->ix;
    size_t i = im->first + row;
    if (!wi_model_ready(im->m))
        return PV_NO_ROW;
    unsigned type = ix->areas[pv_tl_event_area(ix, i)].type;
    if (type != PV_WI_FUNCTION && type != PV_WI_LINE)
        return PV_NO_ROW;
    uint16_t c = pv_tl_event_context(ix, i);
    return c == PV_TL_NO_CONTEXT ? PV_NO_ROW : c;
}

/* One context runs at a time when a context area or %CONTEXT% says which
 * (docs/winidea-model.md "Which context runs"); cores and the single
 * Unknown context run side by side. */
static bool wi_tl_lanes_exclusive(const pv_view *v)
{
    const wi_model *m = wi_view_model(v);
    return wi_model_ready(m) &&
           (m->ix.context_source == PV_TL_CONTEXT_TEXT ||
            m->ix.context_source == PV_TL_CONTEXT_AREA || m->ix.context_area != PV_WI_NONE);
}

/* The context that runs from event `row` on, as running(c) reads it
 * (docs/winidea-model.md "Which context runs"): with a context area, the
 * context its change switches to (a W on the variable, an E on one of its
 * states), and, when the area alone names the contexts, a function or line
 * event's own context (the one running then); without one, a function or
 * line event's context. */
static size_t wi_tl_row_running(const pv_view *v, size_t row)
{
    const wi_events_impl *im = v->impl;
    const pv_timeline_index *ix = &im->m->ix;
    if (!wi_model_ready(im->m) || ix->context_area == PV_WI_NONE)
        return wi_tl_row_lane(v, row);
    size_t i = im->first + row;
    const pv_tl_area *ar = &ix->areas[pv_tl_event_area(ix, i)];
    uint32_t key = ix->areas[ix->context_area].state_key;
    if (ar->type == PV_WI_FUNCTION || ar->type == PV_WI_LINE)
        return ix->context_source == PV_TL_CONTEXT_AREA ? wi_tl_row_lane(v, row) : PV_NO_ROW;
    if (!key || ar->state_key != key)
        return PV_NO_ROW;
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    bool state = ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE; /* an E selects it */
    if (e.kind != (state ? PV_WI_ENTRY : PV_WI_WRITE))
        return PV_NO_ROW;
    for (size_t c = 0; c < ix->context_count; c++)
        if (ix->contexts[c].has_handle && ix->contexts[c].handle == e.data)
            return c;
    return PV_NO_ROW;
}

/* Area lanes (lanes.c, docs/winidea-model.md "Area lanes"): the lane of a
 * handle from the cache, begun there (`begin`) when it is not; NULL when it
 * has none.  Lanes are built by area_build, a bounded step at a time. */
static pv_wi_lane *wi_lane_find(const pv_view *v, uint64_t area, bool begin)
{
    wi_model *m = wi_view_model(v);
    if (!wi_model_ready(m) || area > UINT32_MAX)
        return NULL;
    for (size_t k = 0; k < WI_LANE_CACHE; k++)
        if (m->lanes[k] && m->lanes[k]->handle == (uint32_t)area)
            return m->lanes[k];
    /* the events of each area size the lane's arrays when they are known
     * for the whole timeline (lanes.h) */
    const uint32_t *counts = m->area_first_done && m->ix.window_first == 0 &&
                                     m->ix.window_end == m->ix.event_count
                                 ? m->area_events
                                 : NULL;
    pv_wi_lane *l = begin ? pv_wi_lane_begin(&m->ix, (uint32_t)area, counts) : NULL;
    if (!l)
        return NULL;
    size_t k = m->lane_next++ % WI_LANE_CACHE;
    pv_wi_lane_free(m->lanes[k]);
    m->lanes[k] = l;
    return l;
}

/* The lane once it is built (the hooks below never build). */
static const pv_wi_lane *wi_lane_of(const pv_view *v, uint64_t area)
{
    const pv_wi_lane *l = wi_lane_find(v, area, false);
    return l && !l->job ? l : NULL;
}

static int wi_tl_area_build(const pv_view *v, uint64_t area, size_t budget, uint64_t *done,
                            uint64_t *total)
{
    pv_wi_lane *l = wi_lane_find(v, area, true);
    if (!l)
        return -1;
    bool ready = pv_wi_lane_step(&wi_view_model(v)->ix, l, budget);
    pv_wi_lane_progress(l, done, total);
    return ready ? 1 : 0;
}

static int wi_tl_area_kind(const pv_view *v, uint64_t area)
{
    const wi_model *m = wi_view_model(v);
    if (!wi_model_ready(m) || area > UINT32_MAX)
        return PV_AREA_LANE_NONE;
    return pv_wi_lane_kind(&m->ix, (uint32_t)area, NULL);
}

static void wi_tl_area_name(const pv_view *v, uint64_t area, pv_cell *out)
{
    const wi_model *m = wi_view_model(v);
    uint32_t a;
    if (wi_model_ready(m) && area <= UINT32_MAX &&
        pv_wi_lane_kind(&m->ix, (uint32_t)area, &a) != PV_AREA_LANE_NONE)
        wi_cell_str(out, pv_tl_area_name(&m->ix, a));
}

static bool wi_tl_area_sample(const pv_view *v, uint64_t area, int64_t t0, int64_t t1,
                              pv_lane_sample *out)
{
    const pv_wi_lane *l = wi_lane_of(v, area);
    if (!l)
        return false;
    pv_wi_lane_sample(&wi_view_model(v)->ix, l, t0, t1, out);
    return true;
}

static bool wi_tl_area_value_range(const pv_view *v, uint64_t area, double *lo, double *hi)
{
    const pv_wi_lane *l = wi_lane_of(v, area);
    if (!l || l->kind != PV_AREA_LANE_VALUE || !l->n)
        return false;
    *lo = l->lo;
    *hi = l->hi;
    return true;
}

static bool wi_tl_time_span(const pv_view *v, int64_t *first, int64_t *last)
{
    const wi_events_impl *im = v->impl;
    if (!wi_model_ready(im->m) || !im->count)
        return false;
    *first = wi_event_time(&im->m->ix, im->first);
    *last = wi_event_time(&im->m->ix, im->first + im->count - 1);
    return true;
}

/* J-like jumps through the lane's own list of occurrences (no scan). */
static bool wi_tl_area_jump(const pv_view *v, size_t row, pv_area_jump which, size_t *out)
{
    const wi_events_impl *im = v->impl;
    uint64_t key;
    if (!wi_tl_row_area(v, row, &key))
        return false;
    const pv_wi_lane *l = wi_lane_of(v, key);
    if (!l)
        return false;
    size_t e = pv_wi_lane_jump(l, im->first + row, which);
    if (e == SIZE_MAX || e < im->first || e - im->first >= im->count)
        return false;
    *out = e - im->first;
    return true;
}

/* The event's depth (docs/winidea-model.md "Call stacks and depth"): the
 * viewer indents its name by it; not known before the event is indexed. */
static bool wi_tl_row_depth(const pv_view *v, size_t row, size_t *depth)
{
    const wi_events_impl *im = v->impl;
    size_t i = im->first + row;
    if (i >= im->m->ix.indexed)
        return false;
    *depth = pv_tl_event_depth(&im->m->ix, i);
    return true;
}

static const pv_lane_hooks wi_tl_lanes = {
    .count = wi_tl_lane_count,
    .name = wi_tl_lane_name,
    .row_lane = wi_tl_row_lane,
    .area_kind = wi_tl_area_kind,
    .area_build = wi_tl_area_build,
    .area_name = wi_tl_area_name,
    .area_sample = wi_tl_area_sample,
    .area_value_range = wi_tl_area_value_range,
    .time_span = wi_tl_time_span,
    .exclusive = wi_tl_lanes_exclusive,
    .row_running = wi_tl_row_running,
};

/* The texts of the context and event columns: the contexts' names, the
 * event letters (and "?", which wi_event_name gives an unknown kind). */
static bool wi_tl_column_values(const pv_view *v, size_t col,
                                void (*each)(void *ctx, const char *s, size_t len), void *ctx)
{
    const wi_events_impl *im = v->impl;
    const pv_timeline_index *ix = &im->m->ix;
    if (col == TL_CONTEXT) {
        for (size_t c = 0; c < ix->context_count; c++) {
            const char *name = pv_tl_context_name(ix, (uint16_t)c);
            each(ctx, name, strlen(name));
        }
        return true;
    }
    if (col == TL_EVENT) {
        for (unsigned k = 0; k <= 5; k++) {
            const char *name = wi_event_name(k);
            each(ctx, name, strlen(name));
        }
        return true;
    }
    return false;
}

/* One of the index's narrow per-event arrays as the view's rows see it
 * (once they are all indexed): 1 byte an event, 2 when `wide`. */
static bool wi_tl_event_array(const pv_view *v, const void *base, bool wide, pv_int_array *out)
{
    const wi_events_impl *im = v->impl;
    if (im->m->ix.indexed < im->first + im->count || !base)
        return false;
    out->width = wide ? 2 : 1;
    out->base = (const char *)base + im->first * out->width;
    return true;
}

/* The depth column is the index's per-event array (as pv_tl_event_depth
 * reads it). */
static bool wi_tl_int_column(const pv_view *v, size_t col, pv_int_array *out)
{
    const pv_timeline_index *ix = &((const wi_events_impl *)v->impl)->m->ix;
    return col == TL_DEPTH && wi_tl_event_array(v, ix->event_depth, ix->depth_wide, out);
}

/* The context column is the index's per-event context, a code into the
 * contexts wi_tl_column_values gives (0xFF / PV_TL_NO_CONTEXT: none). */
static bool wi_tl_code_column(const pv_view *v, size_t col, pv_int_array *out)
{
    const pv_timeline_index *ix = &((const wi_events_impl *)v->impl)->m->ix;
    return col == TL_CONTEXT && wi_tl_event_array(v, ix->event_context, ix->context_wide, out);
}

/* The core column is empty in a timeline that records no core: BIN v1.0
 * and one read from a Text1 TIMELINE (its events are built without one,
 * data.c); a v1.1 BIN may carry cores (not known without its records). */
static int wi_tl_column_empty(const pv_view *v, size_t col)
{
    const pv_wi_timeline *tl = &wi_view_model(v)->d->timeline;
    if (col != TL_CORE)
        return -1;
    return tl->version == 10 || tl->owned ? 1 : -1;
}

const pv_view_hooks wi_timeline_hooks = {
    .column_empty = wi_tl_column_empty,
    .column_values = wi_tl_column_values,
    .int_column = wi_tl_int_column,
    .code_column = wi_tl_code_column,
    .row_time = wi_tl_row_time,
    .time_ordered = wi_tl_time_ordered,
    .waits_for_index = wi_waits_for_index,
    .related = wi_tl_related,
    .row_area = wi_tl_row_area,
    .lanes = &wi_tl_lanes,
    .area_jump = wi_tl_area_jump,
    .row_depth = wi_tl_row_depth,
};
