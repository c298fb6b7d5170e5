/*
 * lanes.c - the lane of one winIDEA area over time (lanes.h, docs/model.md
 * "Area lanes", docs/winidea-model.md "Area lanes").
 *
 * A lane is a step function of time: transitions (time, state or value)
 * and, for activity, the active and suspended ns before each transition.
 * What the area did in a bucket [t0, t1) is then F(t1) - F(t0), two binary
 * searches, so every zoom level is exact and costs O(log n) per bucket
 * (no pass over the events while drawing).
 *
 * Activity of a function (docs/winidea-model.md "Area lanes"): in each
 * context, active from its E or R to its S or X, suspended from an S to
 * the R (as docs/formats.md §3 reads activations); over all contexts,
 * active when active in one, suspended when suspended in one.
 * A line is active from each of its hits until the next function or line
 * event of its context.
 */
#include "formats/winidea/lanes.h"

#include <stdlib.h>
#include <string.h>

typedef struct lane_step {
    int64_t time;
    uint32_t seq; /* the order of emission: a stable sort */
    uint16_t ctx;
    uint8_t state;
} lane_step;

typedef struct lane_steps {
    lane_step *s;
    size_t n, cap;
} lane_steps;

static void steps_add(lane_steps *v, int64_t time, uint16_t ctx, uint8_t state)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 256;
        v->s = pv_xrealloc(v->s, v->cap * sizeof *v->s);
    }
    v->s[v->n] = (lane_step){time, (uint32_t)v->n, ctx, state};
    v->n++;
}

static int step_cmp(const void *pa, const void *pb)
{
    const lane_step *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int64_t ev_time(const pv_timeline_index *ix, size_t i)
{
    pv_wi_event e;
    pv_wi_event_at(ix->tl, i, &e);
    return e.time;
}

static void lane_grow(pv_wi_lane *l, size_t *cap, bool value)
{
    if (l->n < *cap)
        return;
    *cap = *cap ? *cap * 2 : 64;
    l->time = pv_xrealloc(l->time, *cap * sizeof *l->time);
    if (value) {
        l->value = pv_xrealloc(l->value, *cap * sizeof *l->value);
        l->label_area = pv_xrealloc(l->label_area, *cap * sizeof *l->label_area);
    } else {
        l->state = pv_xrealloc(l->state, *cap * sizeof *l->state);
    }
}

/* Merges the per-context steps into the lane's transitions (the strongest
 * state over the contexts) with the prefix sums. */
static void lane_merge(const pv_timeline_index *ix, pv_wi_lane *l, lane_steps *v)
{
    /* each context's steps are in time order already: sort only when
     * several contexts have some */
    bool sorted = true;
    for (size_t i = 1; i < v->n && sorted; i++)
        sorted = v->s[i - 1].time <= v->s[i].time;
    if (!sorted)
        qsort(v->s, v->n, sizeof *v->s, step_cmp);
    uint8_t *cur = pv_xcalloc(ix->context_count + 1, 1);
    size_t count[3] = {ix->context_count + 1, 0, 0};
    size_t cap = 0;
    uint8_t last = PV_WI_LANE_NONE;
    for (size_t i = 0; i < v->n;) {
        int64_t t = v->s[i].time;
        for (; i < v->n && v->s[i].time == t; i++) {
            size_t c = v->s[i].ctx < ix->context_count ? v->s[i].ctx : ix->context_count;
            count[cur[c]]--;
            cur[c] = v->s[i].state;
            count[cur[c]]++;
        }
        uint8_t st = count[PV_WI_LANE_ACTIVE]      ? PV_WI_LANE_ACTIVE
                     : count[PV_WI_LANE_SUSPENDED] ? PV_WI_LANE_SUSPENDED
                                                   : PV_WI_LANE_NONE;
        if (st == last)
            continue;
        lane_grow(l, &cap, false);
        l->time[l->n] = t;
        l->state[l->n] = st;
        l->n++;
        last = st;
    }
    free(cur);
    /* the sums before every PV_WI_LANE_CUM-th step (the rest is added up
     * when asked: at most PV_WI_LANE_CUM - 1 steps) */
    size_t blocks = l->n / PV_WI_LANE_CUM + 1;
    l->cum_active = pv_xcalloc(blocks, sizeof *l->cum_active);
    l->cum_suspended = pv_xcalloc(blocks, sizeof *l->cum_suspended);
    int64_t act = 0, sus = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (i % PV_WI_LANE_CUM == 0) {
            l->cum_active[i / PV_WI_LANE_CUM] = act;
            l->cum_suspended[i / PV_WI_LANE_CUM] = sus;
        }
        int64_t d = i + 1 < l->n ? l->time[i + 1] - l->time[i] : 0;
        act += l->state[i] == PV_WI_LANE_ACTIVE ? d : 0;
        sus += l->state[i] == PV_WI_LANE_SUSPENDED ? d : 0;
    }
    free(v->s);
}

static void occ_add(pv_wi_lane *l, size_t *cap, size_t event, int64_t length)
{
    if (l->occ_count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        l->occ_event = pv_xrealloc(l->occ_event, *cap * sizeof *l->occ_event);
        l->occ_length = pv_xrealloc(l->occ_length, *cap * sizeof *l->occ_length);
    }
    l->occ_event[l->occ_count] = (uint32_t)event;
    l->occ_length[l->occ_count] = length;
    l->occ_count++;
}

typedef struct occ_pair {
    uint32_t event;
    int64_t length;
} occ_pair;

static int occ_cmp(const void *pa, const void *pb)
{
    const occ_pair *a = pa, *b = pb;
    return a->event < b->event ? -1 : a->event > b->event;
}

/* Occurrences in event order; the longest and shortest (the first of equals). */
static void occ_finish(pv_wi_lane *l)
{
    occ_pair *p = pv_xmalloc((l->occ_count ? l->occ_count : 1) * sizeof *p);
    for (size_t i = 0; i < l->occ_count; i++)
        p[i] = (occ_pair){l->occ_event[i], l->occ_length[i]};
    qsort(p, l->occ_count, sizeof *p, occ_cmp);
    l->longest = l->shortest = SIZE_MAX;
    for (size_t i = 0; i < l->occ_count; i++) {
        l->occ_event[i] = p[i].event;
        l->occ_length[i] = p[i].length;
        if (l->longest == SIZE_MAX || p[i].length > l->occ_length[l->longest])
            l->longest = i;
        if (l->shortest == SIZE_MAX || p[i].length < l->occ_length[l->shortest])
            l->shortest = i;
    }
    free(p);
    /* the jumps need only the events from here on */
    free(l->occ_length);
    l->occ_length = NULL;
}

/* A function (docs/winidea-model.md "Area lanes", the activations and
 * active intervals of docs/formats.md §3): per context, active from an E
 * or R of the function to its S or X, suspended from an S to its R, not
 * entered outside its activations; an implicit frame (the first event of
 * the function in a context is an S, R or X) runs from the recording's
 * start.  One pass over the events (the records are read only for the
 * function's own); the occurrences are its explicit calls from the index
 * (their gross times for longest / shortest). */
static void lane_function(const pv_timeline_index *ix, pv_wi_lane *l)
{
    lane_steps v = {0};
    size_t occ_cap = 0;
    for (size_t k = 0; k < ix->call_count; k++) {
        uint32_t entry = ix->call_entry[k];
        if (entry & PV_TL_IMPLICIT_CALL)
            continue;
        const pv_tl_area *ar = &ix->areas[ix->event_area[entry]];
        if (ar->type == PV_WI_FUNCTION && ar->handle == l->handle)
            occ_add(l, &occ_cap, entry, ix->call_gross ? ix->call_gross[k] : 0);
    }
    size_t nc = ix->context_count;
    uint32_t *depth = pv_xcalloc(nc + 1, sizeof *depth);
    uint8_t *seen = pv_xcalloc(nc + 1, 1);
    for (size_t i = 0; i < ix->event_count; i++) {
        const pv_tl_area *ar = &ix->areas[ix->event_area[i]];
        uint16_t c = ix->event_context[i];
        if (ar->type != PV_WI_FUNCTION || ar->handle != l->handle || c >= nc)
            continue;
        pv_wi_event e;
        pv_wi_event_at(ix->tl, i, &e);
        if (!seen[c] && e.kind != PV_WI_ENTRY) {
            /* an implicit frame: open since the start */
            depth[c] = 1;
            steps_add(&v, ix->time_first, c,
                      e.kind == PV_WI_RESUME ? PV_WI_LANE_SUSPENDED : PV_WI_LANE_ACTIVE);
        }
        seen[c] = 1;
        switch (e.kind) {
        case PV_WI_ENTRY:
            depth[c]++;
            steps_add(&v, e.time, c, PV_WI_LANE_ACTIVE);
            break;
        case PV_WI_SUSPEND:
            if (depth[c])
                steps_add(&v, e.time, c, PV_WI_LANE_SUSPENDED);
            break;
        case PV_WI_RESUME:
            if (depth[c])
                steps_add(&v, e.time, c, PV_WI_LANE_ACTIVE);
            break;
        case PV_WI_EXIT:
            if (depth[c]) {
                depth[c]--;
                steps_add(&v, e.time, c, depth[c] ? PV_WI_LANE_ACTIVE : PV_WI_LANE_NONE);
            }
            break;
        default:
            break;
        }
    }
    for (size_t c = 0; c < nc; c++)
        if (depth[c])
            steps_add(&v, ix->time_last, (uint16_t)c, PV_WI_LANE_NONE);
    free(depth);
    free(seen);
    lane_merge(ix, l, &v);
}

/* A line: active from each hit to the next function or line event of its
 * context.  One pass over the events. */
static void lane_line(const pv_timeline_index *ix, pv_wi_lane *l)
{
    lane_steps v = {0};
    size_t occ_cap = 0;
    size_t nc = ix->context_count;
    uint8_t *on = pv_xcalloc(nc + 1, 1);
    size_t *open = pv_xmalloc((nc + 1) * sizeof *open); /* pending occurrence */
    int64_t *open_t = pv_xmalloc((nc + 1) * sizeof *open_t);
    for (size_t c = 0; c <= nc; c++)
        open[c] = SIZE_MAX;
    for (size_t i = 0; i < ix->event_count; i++) {
        const pv_tl_area *ar = &ix->areas[ix->event_area[i]];
        uint16_t c = ix->event_context[i];
        if ((ar->type != PV_WI_FUNCTION && ar->type != PV_WI_LINE) || c >= nc)
            continue;
        bool hit = ar->type == PV_WI_LINE && ar->handle == l->handle;
        if (!hit && !on[c] && open[c] == SIZE_MAX)
            continue; /* nothing changes: no need to read the record's time */
        int64_t t = ev_time(ix, i);
        if (open[c] != SIZE_MAX) {
            l->occ_length[open[c]] = t - open_t[c];
            open[c] = SIZE_MAX;
        }
        if (hit) {
            open[c] = l->occ_count;
            open_t[c] = t;
            occ_add(l, &occ_cap, i, 0);
        }
        if (hit != (on[c] != 0)) {
            on[c] = hit;
            steps_add(&v, t, c, hit ? PV_WI_LANE_ACTIVE : PV_WI_LANE_NONE);
        }
    }
    for (size_t c = 0; c < nc; c++) {
        if (open[c] != SIZE_MAX)
            l->occ_length[open[c]] = ix->time_last - open_t[c];
        if (on[c])
            steps_add(&v, ix->time_last, (uint16_t)c, PV_WI_LANE_NONE);
    }
    free(on);
    free(open);
    free(open_t);
    lane_merge(ix, l, &v);
}

/* A variable, state or AUX area: each write (each change of state) in
 * event order, as docs/winidea-model.md "Value history" reads them. */
static void lane_value(const pv_timeline_index *ix, pv_wi_lane *l)
{
    const pv_tl_area *a = &ix->areas[l->area];
    bool state = a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE || a->has_states;
    size_t cap = 0, occ_cap = 0;
    l->lo = l->hi = 0;
    for (size_t i = 0; i < ix->event_count; i++) {
        const pv_tl_area *ar = &ix->areas[ix->event_area[i]];
        pv_wi_event e;
        double value;
        uint32_t label = PV_WI_NONE;
        if (state) {
            if (ar->state_key != a->state_key || a->state_key == 0)
                continue;
            pv_wi_event_at(ix->tl, i, &e);
            bool st = ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE;
            if (st ? e.kind != PV_WI_ENTRY : e.kind != PV_WI_WRITE)
                continue;
            uint64_t sv = e.data & 0xFFFFFFFFu;
            value = (double)sv;
            /* a state named in the mapping gives its name; an unnamed one
             * (named after its variable) is a number */
            label = pv_timeline_find_area(ix, a->state_key, sv);
            if (label != PV_WI_NONE &&
                strcmp(pv_tl_area_name(ix, label), pv_tl_area_name(ix, l->area)) == 0)
                label = PV_WI_NONE;
        } else {
            if (ar->handle != l->handle)
                continue;
            pv_wi_event_at(ix->tl, i, &e);
            if (ar->value_f64)
                memcpy(&value, &e.data, sizeof value);
            else
                value = (double)(e.data & 0xFFFFFFFFu);
            if (value != value)
                value = 0; /* NaN: drawn as 0 */
        }
        if (l->occ_count)
            l->occ_length[l->occ_count - 1] = e.time - l->time[l->n - 1];
        occ_add(l, &occ_cap, i, 0);
        lane_grow(l, &cap, true);
        l->time[l->n] = e.time;
        l->value[l->n] = value;
        l->label_area[l->n] = label;
        if (!l->n || value < l->lo)
            l->lo = value;
        if (!l->n || value > l->hi)
            l->hi = value;
        l->n++;
    }
    if (l->occ_count)
        l->occ_length[l->occ_count - 1] = ix->time_last - l->time[l->n - 1];
    l->max1 = pv_xmalloc((l->n / PV_WI_LANE_B1 + 1) * sizeof *l->max1);
    l->max2 = pv_xmalloc((l->n / PV_WI_LANE_B2 + 1) * sizeof *l->max2);
    for (size_t i = 0; i < l->n; i++) {
        size_t b1 = i / PV_WI_LANE_B1, b2 = i / PV_WI_LANE_B2;
        if (i % PV_WI_LANE_B1 == 0 || l->value[i] > l->max1[b1])
            l->max1[b1] = l->value[i];
        if (i % PV_WI_LANE_B2 == 0 || l->value[i] > l->max2[b2])
            l->max2[b2] = l->value[i];
    }
}

pv_wi_lane *pv_wi_lane_build(const pv_timeline_index *ix, uint32_t handle)
{
    if (!ix->complete)
        return NULL;
    uint32_t area = PV_WI_NONE;
    for (size_t k = 0; k < ix->area_count && area == PV_WI_NONE; k++)
        if (ix->areas[k].handle == handle)
            area = (uint32_t)k;
    if (area == PV_WI_NONE)
        return NULL;
    pv_wi_lane *l = pv_xcalloc(1, sizeof *l);
    l->handle = handle;
    l->area = area;
    switch (ix->areas[area].type) {
    case PV_WI_FUNCTION:
        l->kind = PV_AREA_LANE_ACTIVITY;
        lane_function(ix, l);
        break;
    case PV_WI_LINE:
        l->kind = PV_AREA_LANE_ACTIVITY;
        lane_line(ix, l);
        break;
    case PV_WI_VARIABLE:
    case PV_WI_STATE:
    case PV_WI_AUX:
    case PV_WI_AUX_STATE:
        l->kind = PV_AREA_LANE_VALUE;
        lane_value(ix, l);
        break;
    default:
        free(l);
        return NULL;
    }
    occ_finish(l);
    return l;
}

void pv_wi_lane_free(pv_wi_lane *l)
{
    if (!l)
        return;
    free(l->time);
    free(l->state);
    free(l->cum_active);
    free(l->cum_suspended);
    free(l->value);
    free(l->label_area);
    free(l->max1);
    free(l->max2);
    free(l->occ_event);
    free(l->occ_length);
    free(l);
}

/* The last transition at or before t, or SIZE_MAX when t is before all. */
static size_t lane_at(const pv_wi_lane *l, int64_t t)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->time[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : SIZE_MAX;
}

/* Active and suspended ns before t. */
static void lane_cum(const pv_wi_lane *l, int64_t t, int64_t *active, int64_t *suspended)
{
    size_t i = lane_at(l, t);
    *active = *suspended = 0;
    if (i == SIZE_MAX)
        return;
    size_t j = i / PV_WI_LANE_CUM * PV_WI_LANE_CUM;
    int64_t act = l->cum_active[i / PV_WI_LANE_CUM], sus = l->cum_suspended[i / PV_WI_LANE_CUM];
    for (; j < i; j++) {
        int64_t d = l->time[j + 1] - l->time[j];
        act += l->state[j] == PV_WI_LANE_ACTIVE ? d : 0;
        sus += l->state[j] == PV_WI_LANE_SUSPENDED ? d : 0;
    }
    int64_t d = t - l->time[i];
    *active = act + (l->state[i] == PV_WI_LANE_ACTIVE ? d : 0);
    *suspended = sus + (l->state[i] == PV_WI_LANE_SUSPENDED ? d : 0);
}

/* The largest value of transitions [from, to): values one by one up to a
 * block boundary, then blocks of WI_LANE_B1, then of WI_LANE_B2 (at most
 * 4 * 63 values and blocks plus n / 4096 big blocks per bucket). */
static double lane_max(const pv_wi_lane *l, size_t from, size_t to)
{
    double m = l->value[from];
    size_t i = from;
    while (i < to && (i % PV_WI_LANE_B1 || i + PV_WI_LANE_B1 > to))
        m = l->value[i] > m ? l->value[i] : m, i++;
    while (i < to && (i % PV_WI_LANE_B2 || i + PV_WI_LANE_B2 > to) && i + PV_WI_LANE_B1 <= to)
        m = l->max1[i / PV_WI_LANE_B1] > m ? l->max1[i / PV_WI_LANE_B1] : m, i += PV_WI_LANE_B1;
    while (i + PV_WI_LANE_B2 <= to && i % PV_WI_LANE_B2 == 0)
        m = l->max2[i / PV_WI_LANE_B2] > m ? l->max2[i / PV_WI_LANE_B2] : m, i += PV_WI_LANE_B2;
    while (i + PV_WI_LANE_B1 <= to)
        m = l->max1[i / PV_WI_LANE_B1] > m ? l->max1[i / PV_WI_LANE_B1] : m, i += PV_WI_LANE_B1;
    for (; i < to; i++)
        m = l->value[i] > m ? l->value[i] : m;
    return m;
}

void pv_wi_lane_sample(const pv_timeline_index *ix, const pv_wi_lane *l, int64_t t0, int64_t t1,
                       pv_lane_sample *out)
{
    if (l->kind == PV_AREA_LANE_ACTIVITY) {
        int64_t a0, s0, a1, s1;
        lane_cum(l, t0, &a0, &s0);
        lane_cum(l, t1, &a1, &s1);
        out->active = a1 - a0;
        out->suspended = s1 - s0;
        return;
    }
    size_t end = lane_at(l, t1 - 1);
    if (end == SIZE_MAX)
        return;
    size_t lo = 0, hi = l->n; /* the first transition at or after t0 */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->time[mid] < t0)
            lo = mid + 1;
        else
            hi = mid;
    }
    out->has_value = true;
    out->value = l->value[end];
    out->changes = end + 1 - lo;
    size_t from = lo ? lo - 1 : 0; /* with the value in force at t0 */
    out->peak = lane_max(l, from, end + 1);
    uint32_t label = l->label_area[end];
    if (label != PV_WI_NONE) {
        const char *s = pv_tl_area_name(ix, label);
        out->label.type = PV_TYPE_STRING;
        out->label.present = true;
        out->label.v.s.ptr = s;
        out->label.v.s.len = strlen(s);
    }
}

size_t pv_wi_lane_jump(const pv_wi_lane *l, size_t event, int which)
{
    if (!l->occ_count)
        return SIZE_MAX;
    if (which == PV_JUMP_LONGEST)
        return l->occ_event[l->longest];
    if (which == PV_JUMP_SHORTEST)
        return l->occ_event[l->shortest];
    /* the first occurrence after `event` */
    size_t lo = 0, hi = l->occ_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->occ_event[mid] <= event)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (which == PV_JUMP_NEXT)
        return lo < l->occ_count ? l->occ_event[lo] : SIZE_MAX;
    /* the last before it: skip the occurrence at `event` itself */
    while (lo && l->occ_event[lo - 1] >= event)
        lo--;
    return lo ? l->occ_event[lo - 1] : SIZE_MAX;
}

size_t pv_wi_lane_memory(const pv_wi_lane *l)
{
    if (!l)
        return 0;
    size_t bytes = sizeof *l + l->n * sizeof *l->time + l->occ_count * sizeof *l->occ_event;
    if (l->kind == PV_AREA_LANE_ACTIVITY)
        bytes += l->n * sizeof *l->state + (l->n / PV_WI_LANE_CUM + 1) * 2 * sizeof(int64_t);
    else
        bytes += l->n * (sizeof *l->value + sizeof *l->label_area) +
                 (l->n / PV_WI_LANE_B1 + 1 + l->n / PV_WI_LANE_B2 + 1) * sizeof(double);
    return bytes;
}
