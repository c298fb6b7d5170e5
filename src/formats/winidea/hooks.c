/*
 * hooks.c - the winIDEA views' capability hooks (profview/hooks.h) that all
 * kinds of rows share, the hooks of views whose rows are areas, and which
 * view carries which hooks.
 */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- capability hooks (profview/hooks.h, docs/winidea-model.md "What the
 * viewer asks the model"): every view of the set carries the hooks of its
 * kind of rows, with the model as hook_ctx. */

bool wi_model_ready(const wi_model *m)
{
    return m && m->indexed && m->ix.complete;
}

/* A view's model (its hook_ctx). */
wi_model *wi_view_model(const pv_view *v)
{
    return v->hook_ctx;
}

/* The int in column 0 (the `id` of every winIDEA view) of a row. */
bool wi_row_id(const pv_view *v, size_t row, int64_t *id)
{
    pv_cell c;
    pv_view_cell(v, row, 0, &c);
    *id = c.v.i;
    return c.present && (c.type == PV_TYPE_INT || c.type == PV_TYPE_TIME);
}

/* The timeline row of event i, or PV_NO_ROW outside the window. */
bool wi_timeline_ref(const wi_model *m, size_t i, pv_row_ref *out)
{
    if (!m->timeline || i < m->ix.window_first || i >= m->ix.window_end)
        return false;
    out->view = m->timeline;
    out->row = i - m->ix.window_first;
    return true;
}

static bool wi_call_ref(const wi_model *m, size_t k, pv_row_ref *out)
{
    if (!m->call_trace || k >= m->ix.call_count)
        return false;
    out->view = m->call_trace;
    out->row = k;
    return true;
}

/* The first timeline row at or after time t (binary search over the
 * window's times, as the rows are in file order). */
static bool wi_timeline_at_time(const wi_model *m, int64_t t, pv_row_ref *out)
{
    const pv_timeline_index *ix = &m->ix;
    size_t lo = ix->window_first, hi = ix->window_end;
    if (!m->timeline || lo >= hi)
        return false;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (wi_event_time(ix, mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return wi_timeline_ref(m, lo < ix->window_end ? lo : ix->window_end - 1, out);
}

/* The matching event of an entry (its exit) or an exit (its entry) from the
 * reconstructed calls (docs/winidea-model.md); false when the call has no
 * such event (open at the end, entered before the recording) or the event
 * is neither. */
bool wi_event_partner(const pv_timeline_index *ix, size_t event, size_t *partner)
{
    uint16_t c = pv_tl_event_context(ix, event);
    if (c == PV_TL_NO_CONTEXT)
        return false;
    pv_wi_event e;
    pv_timeline_event(ix, event, &e);
    uint32_t k = pv_timeline_call_at(ix, c, event);
    if (e.kind == PV_WI_ENTRY) {
        /* the innermost call open at an E is the one it enters */
        if (k == PV_TL_OPEN || ix->call_entry[k] != event || ix->call_exit[k] == PV_TL_OPEN)
            return false;
        *partner = ix->call_exit[k];
        return true;
    }
    if (e.kind != PV_WI_EXIT)
        return false;
    /* An X ends the call of its area; calls above it that it popped end
     * there too (mismatched exits, docs/winidea-model.md). */
    for (size_t guard = 0; k != PV_TL_OPEN && guard <= ix->call_count; guard++) {
        if (ix->call_exit[k] != event)
            return false;
        if (wi_call_area(ix, k) == pv_tl_event_area(ix, event)) {
            if (ix->call_entry[k] & PV_TL_IMPLICIT_CALL)
                return false; /* entered before the recording: no E */
            *partner = ix->call_entry[k];
            return true;
        }
        k = ix->call_parent[k];
    }
    return false;
}

/* The first event of every area in the window: one pass over the index's
 * area of each event (28 ms per 10 M events), up to `budget` events per
 * call; true once done.  A viewer runs it in slices after the index
 * (wi_file_index_step), so that no key waits for it. */
bool wi_area_first_step(wi_model *m, size_t budget)
{
    const pv_timeline_index *ix = &m->ix;
    if (m->area_first_done)
        return true;
    if (!m->area_first) {
        m->area_first = pv_xmalloc((ix->area_count ? ix->area_count : 1) * sizeof *m->area_first);
        for (size_t a = 0; a < ix->area_count; a++)
            m->area_first[a] = PV_WI_NONE;
        m->area_events = pv_xcalloc(ix->area_count ? ix->area_count : 1, sizeof *m->area_events);
        m->area_first_next = ix->window_first;
    }
    size_t end = ix->window_end - m->area_first_next > budget ? m->area_first_next + budget
                                                              : ix->window_end;
    uint32_t *first = m->area_first, *count = m->area_events;
    for (size_t i = m->area_first_next; i < end; i++) {
        uint32_t a = pv_tl_event_area(ix, i);
        if (first[a] == PV_WI_NONE)
            first[a] = (uint32_t)i;
        count[a]++;
    }
    m->area_first_next = end;
    m->area_first_done = end == ix->window_end;
    return m->area_first_done;
}

static bool wi_is_data_type(unsigned type)
{
    return type >= PV_WI_VARIABLE && type <= PV_WI_AUX_STATE;
}

/* Sets up the fill of the data lists: a group per state key of the data
 * areas (a variable, its states; every data area has a key), sized from
 * the window's counts of area_first's pass: the variable's events, and
 * when the key has states room for its changes (every event of the key's
 * areas at most; change_end[g] is the fill's next slot, then the end). */
static void wi_data_lists_begin(wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    size_t n = ix->area_count ? ix->area_count : 1;
    m->data_group = pv_xmalloc(n * sizeof *m->data_group);
    pv_hashmap keys;
    pv_hashmap_init(&keys);
    uint32_t groups = 0;
    for (size_t a = 0; a < ix->area_count; a++) {
        m->data_group[a] = PV_WI_NONE;
        if (!wi_is_data_type(ix->areas[a].type))
            continue;
        uint32_t g;
        if (!pv_hashmap_get(&keys, ix->areas[a].state_key, &g)) {
            g = groups++;
            pv_hashmap_put(&keys, ix->areas[a].state_key, g);
        }
        m->data_group[a] = g;
    }
    pv_hashmap_free(&keys);
    m->groups = groups;
    m->group_states = pv_xcalloc((size_t)groups + 1, sizeof *m->group_states);
    for (size_t a = 0; a < ix->area_count; a++)
        if (m->data_group[a] != PV_WI_NONE && wi_is_state_type(ix->areas[a].type))
            m->group_states[m->data_group[a]] = true;
    m->data_start = pv_xcalloc((size_t)groups + 1, sizeof *m->data_start);
    m->change_start = pv_xcalloc((size_t)groups + 1, sizeof *m->change_start);
    for (size_t a = 0; a < ix->area_count; a++) {
        uint32_t g = m->data_group[a];
        if (g == PV_WI_NONE)
            continue;
        if (!wi_is_state_type(ix->areas[a].type))
            m->data_start[g + 1] += m->area_events[a];
        if (m->group_states[g])
            m->change_start[g + 1] += m->area_events[a];
    }
    for (uint32_t g = 0; g < groups; g++) {
        m->data_start[g + 1] += m->data_start[g];
        m->change_start[g + 1] += m->change_start[g];
    }
    m->data_list = pv_xmalloc(((size_t)m->data_start[groups] + 1) * sizeof *m->data_list);
    m->change_list = pv_xmalloc(((size_t)m->change_start[groups] + 1) * sizeof *m->change_list);
    m->change_state =
        pv_xcalloc((size_t)m->change_start[groups] + 1, sizeof *m->change_state);
    m->change_end = pv_xmalloc(((size_t)groups + 1) * sizeof *m->change_end);
    memcpy(m->change_end, m->change_start, ((size_t)groups + 1) * sizeof *m->change_end);
    m->state_start = pv_xcalloc(n + 1, sizeof *m->state_start);
    free(m->lists_pos);
    m->lists_pos = pv_xmalloc(((size_t)groups + 1) * sizeof *m->lists_pos);
    memcpy(m->lists_pos, m->data_start, ((size_t)groups + 1) * sizeof *m->lists_pos);
}

/* Events [from, upto) of the window into the data lists: a variable's
 * event into its group's list; a change of a key with states (an E on a
 * state, a W on the variable: wi_state_change) into the key's changes,
 * marked with the state area of its value (the value's area of the key
 * in the index, none when the key has no state of that value) and
 * counted for that area. */
static void wi_data_lists_fill(wi_model *m, size_t from, size_t upto)
{
    const pv_timeline_index *ix = &m->ix;
    const uint32_t *group = m->data_group;
    uint32_t *pos = m->lists_pos;
    for (size_t i = from; i < upto; i++) {
        uint32_t a = pv_tl_event_area(ix, i);
        uint32_t g = group[a];
        if (g == PV_WI_NONE)
            continue;
        bool state = wi_is_state_type(ix->areas[a].type);
        if (!state)
            m->data_list[pos[g]++] = (uint32_t)i;
        if (!m->group_states[g])
            continue;
        pv_wi_event e;
        pv_timeline_event(ix, i, &e);
        if (e.kind != (state ? PV_WI_ENTRY : PV_WI_WRITE))
            continue;
        uint32_t q = m->change_end[g]++;
        m->change_list[q] = (uint32_t)i;
        uint32_t s = pv_timeline_find_area(ix, ix->areas[a].state_key, e.data & 0xFFFFFFFFu);
        if (s < ix->area_count && group[s] == g && wi_is_state_type(ix->areas[s].type)) {
            m->change_state[q] = s + 1;
            m->state_start[s + 1]++;
        }
    }
}

/* The viewer's area lists (wi_model), up to `budget` calls, events or
 * changes per call, after area_first's pass; true once done.  Five
 * passes: the calls into the pairs of callers and callees (m->edges),
 * the calls counted by area, the calls put in their area's list, the
 * window's events put in the data lists (wi_data_lists_fill), the changes
 * put in the list of the state they enter. */
bool wi_area_lists_step(wi_model *m, size_t budget)
{
    const pv_timeline_index *ix = &m->ix;
    if (m->lists_phase == WI_LISTS_DONE)
        return true;
    if (m->lists_phase == WI_LISTS_EDGES) {
        size_t from = m->edges_done ? ix->call_count : m->edge_next;
        if (!wi_edges_step(m, budget))
            return false;
        size_t used = ix->call_count - from;
        budget = budget > used ? budget - used : 1;
        m->lists_phase = WI_LISTS_COUNT_CALLS;
    }
    size_t calls = ix->call_count, n = ix->area_count ? ix->area_count : 1;
    if (m->lists_phase == WI_LISTS_COUNT_CALLS && !m->call_start) {
        m->call_start = pv_xcalloc(n + 1, sizeof *m->call_start);
        m->lists_next = 0;
    }
    while (budget > 0 && m->lists_phase < WI_LISTS_DONE) {
        size_t from = m->lists_next;
        size_t end = m->lists_phase < WI_LISTS_FILL_EVENTS  ? calls
                     : m->lists_phase == WI_LISTS_FILL_EVENTS ? ix->window_end
                                                              : m->change_start[m->groups];
        size_t upto = end - from > budget ? from + budget : end;
        budget -= upto - from;
        if (m->lists_phase == WI_LISTS_COUNT_CALLS) {
            uint32_t *count = m->call_start + 1;
            for (size_t k = from; k < upto; k++)
                count[wi_call_area(ix, k)]++;
        } else if (m->lists_phase == WI_LISTS_FILL_CALLS) {
            uint32_t *pos = m->lists_pos;
            for (size_t k = from; k < upto; k++)
                m->call_list[pos[wi_call_area(ix, k)]++] = (uint32_t)k;
        } else if (m->lists_phase == WI_LISTS_FILL_EVENTS) {
            wi_data_lists_fill(m, from, upto);
        } else {
            const uint32_t *state = m->change_state;
            uint32_t *pos = m->lists_pos;
            for (size_t q = from; q < upto; q++)
                if (state[q])
                    m->state_list[pos[state[q] - 1]++] = (uint32_t)q;
        }
        m->lists_next = upto;
        if (upto < end)
            break;
        /* the phase is done: set up the next one */
        if (m->lists_phase == WI_LISTS_COUNT_CALLS) {
            for (size_t a = 0; a < n; a++)
                m->call_start[a + 1] += m->call_start[a];
            m->call_list = pv_xmalloc(((size_t)m->call_start[n] + 1) * sizeof *m->call_list);
            m->lists_pos = pv_xmalloc(n * sizeof *m->lists_pos);
            memcpy(m->lists_pos, m->call_start, n * sizeof *m->lists_pos);
            m->lists_next = 0;
        } else if (m->lists_phase == WI_LISTS_FILL_CALLS) {
            wi_data_lists_begin(m);
            m->lists_next = ix->window_first;
        } else if (m->lists_phase == WI_LISTS_FILL_EVENTS) {
            for (size_t a = 0; a < n; a++)
                m->state_start[a + 1] += m->state_start[a];
            m->state_list = pv_xmalloc(((size_t)m->state_start[n] + 1) * sizeof *m->state_list);
            free(m->lists_pos);
            m->lists_pos = pv_xmalloc(n * sizeof *m->lists_pos);
            memcpy(m->lists_pos, m->state_start, n * sizeof *m->lists_pos);
            m->lists_next = 0;
        } else {
            free(m->lists_pos);
            m->lists_pos = NULL;
            free(m->change_state);
            m->change_state = NULL;
        }
        m->lists_phase = m->lists_phase == WI_LISTS_COUNT_CALLS  ? WI_LISTS_FILL_CALLS
                         : m->lists_phase == WI_LISTS_FILL_CALLS ? WI_LISTS_FILL_EVENTS
                         : m->lists_phase == WI_LISTS_FILL_EVENTS ? WI_LISTS_FILL_STATES
                                                                  : WI_LISTS_DONE;
    }
    return m->lists_phase == WI_LISTS_DONE;
}

static uint32_t wi_area_first(wi_model *m, uint32_t area)
{
    wi_area_first_step(m, SIZE_MAX);
    return area < m->ix.area_count ? m->area_first[area] : PV_WI_NONE;
}

/* Relations of a call k, shared by every view whose rows are calls. */
bool wi_call_related(wi_model *m, size_t k, pv_relation rel, pv_row_ref *out)
{
    const pv_timeline_index *ix = &m->ix;
    bool implicit = (ix->call_entry[k] & PV_TL_IMPLICIT_CALL) != 0;
    switch (rel) {
    case PV_REL_TIMELINE:
        /* A call entered before the recording has no E: the first event
         * at its entry time (the recording's start). */
        if (implicit)
            return wi_timeline_at_time(m, wi_call_entry_time(ix, k), out);
        return wi_timeline_ref(m, ix->call_entry[k], out);
    case PV_REL_ENTRY:
        return !implicit && wi_timeline_ref(m, ix->call_entry[k], out);
    case PV_REL_EXIT:
        return ix->call_exit[k] != PV_TL_OPEN && wi_timeline_ref(m, ix->call_exit[k], out);
    case PV_REL_CALLER:
        return ix->call_parent[k] != PV_TL_OPEN && wi_call_ref(m, ix->call_parent[k], out);
    case PV_REL_CALL:
        return wi_call_ref(m, k, out);
    case PV_REL_FIRST: {
        uint32_t first = wi_area_first(m, wi_call_area(ix, k));
        return first != PV_WI_NONE && wi_timeline_ref(m, first, out);
    }
    case PV_REL_PARTNER:
        break;
    }
    return false;
}

/* Relations of an event i (rows of the timeline and of event lists). */
bool wi_event_related(wi_model *m, size_t i, pv_relation rel, pv_row_ref *out)
{
    const pv_timeline_index *ix = &m->ix;
    if (rel == PV_REL_TIMELINE)
        return wi_timeline_ref(m, i, out);
    if (rel == PV_REL_FIRST) {
        uint32_t first = wi_area_first(m, pv_tl_event_area(ix, i));
        return first != PV_WI_NONE && wi_timeline_ref(m, first, out);
    }
    uint16_t c = pv_tl_event_context(ix, i);
    uint32_t k = c == PV_TL_NO_CONTEXT ? PV_TL_OPEN : pv_timeline_call_at(ix, c, i);
    if (k == PV_TL_OPEN)
        return false;
    return wi_call_related(m, k, rel, out);
}

/* ---- areas: `id` is area + 1 (routines, lines, data, callers, callees),
 * a statistics row + 1 (statistics, area-statistics) or an exported
 * statistics row + 1 (statistics-exported) */

typedef enum { WI_ID_AREA, WI_ID_STAT, WI_ID_EXPORTED } wi_id_kind;

static bool wi_area_of(const pv_view *v, size_t row, wi_id_kind kind, uint32_t *area)
{
    const wi_model *m = wi_view_model(v);
    int64_t id;
    if (!wi_model_ready(m) || !wi_row_id(v, row, &id) || id < 1)
        return false;
    size_t i = (size_t)(id - 1);
    if (kind == WI_ID_AREA) {
        *area = (uint32_t)i;
        return i < m->ix.area_count;
    }
    if (kind == WI_ID_STAT) {
        if (i >= m->ix.stat_count)
            return false;
        *area = m->ix.stats[i].area;
        return true;
    }
    if (i >= m->d->stat_count)
        return false;
    *area = pv_timeline_find_area(&m->ix, m->d->stats[i].handle, m->d->stats[i].value);
    return *area != PV_WI_NONE;
}

static bool wi_areas_related(const pv_view *v, size_t row, wi_id_kind kind, pv_relation rel,
                             pv_row_ref *out)
{
    uint32_t area;
    if ((rel != PV_REL_FIRST && rel != PV_REL_TIMELINE) || !wi_area_of(v, row, kind, &area))
        return false;
    uint32_t first = wi_area_first(wi_view_model(v), area);
    return first != PV_WI_NONE && wi_timeline_ref(wi_view_model(v), first, out);
}

static bool wi_areas_row_area(const pv_view *v, size_t row, wi_id_kind kind, uint64_t *key)
{
    uint32_t area;
    if (!wi_area_of(v, row, kind, &area))
        return false;
    *key = wi_view_model(v)->ix.areas[area].handle;
    return true;
}

#define WI_AREA_HOOKS(name, kind)                                                                 \
    static bool name##_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)    \
    {                                                                                             \
        return wi_areas_related(v, row, kind, rel, out);                                          \
    }                                                                                             \
    static bool name##_row_area(const pv_view *v, size_t row, uint64_t *key)                      \
    {                                                                                             \
        return wi_areas_row_area(v, row, kind, key);                                              \
    }                                                                                             \
    static const pv_view_hooks name = {                                                           \
        .waits_for_index = wi_waits_for_index,                                                    \
        .related = name##_related,                                                                \
        .row_area = name##_row_area,                                                              \
    };
WI_AREA_HOOKS(wi_area_hooks, WI_ID_AREA)
WI_AREA_HOOKS(wi_stat_hooks, WI_ID_STAT)
WI_AREA_HOOKS(wi_exported_hooks, WI_ID_EXPORTED)
#undef WI_AREA_HOOKS

/* summary, contexts: they only wait for the index. */
static const pv_view_hooks wi_plain_hooks = {.waits_for_index = wi_waits_for_index};

static pv_view *wi_hooked(wi_model *m, pv_view *v, const pv_view_hooks *hooks)
{
    if (v) {
        v->hooks = hooks;
        v->hook_ctx = m;
    }
    return v;
}

/* The hooks of a view by its id (the set's views and their details). */
pv_view *wi_hook_view(wi_model *m, pv_view *v)
{
    static const struct {
        const char *id;
        const pv_view_hooks *hooks;
    } kinds[] = {
        {"timeline", &wi_timeline_hooks},   {"call-trace", &wi_call_trace_hooks},
        {"area-calls", &wi_calls_hooks},    {"call-stack-at", &wi_calls_hooks},
        {"call-events", &wi_events_hooks},  {"value-history", &wi_events_hooks},
        {"routines", &wi_area_hooks},       {"lines", &wi_area_hooks},
        {"data", &wi_area_hooks},           {"callers", &wi_area_hooks},
        {"callees", &wi_area_hooks},        {"statistics", &wi_stat_hooks},
        {"area-statistics", &wi_stat_hooks}, {"statistics-exported", &wi_exported_hooks},
    };
    if (!v)
        return NULL;
    for (size_t k = 0; k < PV_ARRAY_LEN(kinds); k++)
        if (strcmp(v->id, kinds[k].id) == 0)
            return wi_hooked(m, v, kinds[k].hooks);
    return wi_hooked(m, v, &wi_plain_hooks);
}
