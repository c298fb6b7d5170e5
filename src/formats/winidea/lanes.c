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
 *
 * The build is a job in phases, each done in steps of a bounded number of
 * units (pv_wi_lane_step), so that a viewer builds a lane between key
 * presses and never waits for it (docs/winidea-model.md "Area lanes"):
 * the calls (a function's occurrences, longest and shortest), the events
 * (only the index's area of each event is read, through a per-area table,
 * the records only of the lane's own events), the merge of the contexts'
 * steps into transitions with their prefix sums, the occurrences in event
 * order.  Nothing is sorted: the steps come in time order (an implicit
 * frame's start is kept apart and goes first), the calls of each context
 * are in entry order (merged through a heap).  Only a timeline whose times
 * decrease somewhere has its steps sorted, at once.
 */
#include "formats/winidea/lanes.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct lane_step {
    int64_t time;
    uint32_t seq; /* the order of emission: a stable sort */
    uint16_t ctx;
    uint8_t state;
} lane_step;

/* Steps in chunks of LANE_CHUNK: never copied while they grow, each chunk
 * given back as soon as the merge is past it (no long pause for one big
 * allocation or free).  The chunks are mapped, not malloc'ed: freed malloc
 * chunks coalesce and are returned to the system all at once when the last
 * goes (17 ms for 160 MB of steps, measured), a mapping alone. */
#define LANE_CHUNK_BITS 12
#define LANE_CHUNK ((size_t)1 << LANE_CHUNK_BITS)
#define LANE_CHUNK_BYTES (LANE_CHUNK * sizeof(lane_step))

typedef struct lane_steps {
    lane_step **chunk;
    size_t n, chunks, cap;
} lane_steps;

static void steps_add(lane_steps *v, int64_t time, uint16_t ctx, uint8_t state)
{
    if (v->n % LANE_CHUNK == 0) {
        v->chunk = pv_xgrow(v->chunk, &v->cap, v->chunks + 1, sizeof *v->chunk);
        void *p = mmap(NULL, LANE_CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (p == MAP_FAILED)
            p = pv_xmalloc(SIZE_MAX); /* pv_xmalloc's out-of-memory exit */
        v->chunk[v->chunks++] = p;
    }
    v->chunk[v->n >> LANE_CHUNK_BITS][v->n & (LANE_CHUNK - 1)] =
        (lane_step){time, (uint32_t)v->n, ctx, state};
    v->n++;
}

static void lane_chunk_free(lane_step *c)
{
    if (c)
        munmap(c, LANE_CHUNK_BYTES);
}

static lane_step *steps_at(const lane_steps *v, size_t k)
{
    return &v->chunk[k >> LANE_CHUNK_BITS][k & (LANE_CHUNK - 1)];
}

static void steps_free(lane_steps *v)
{
    for (size_t c = 0; c < v->chunks; c++)
        lane_chunk_free(v->chunk[c]);
    free(v->chunk);
    *v = (lane_steps){0};
}

static int step_cmp(const void *pa, const void *pb)
{
    const lane_step *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

enum { LJ_CALLS, LJ_EVENTS, LJ_MERGE, LJ_OCC, LJ_FINISH, LJ_DONE };

/* What the per-area table says of an event's area. */
enum { LM_NONE = 0, LM_OTHER = 1 /* another function or line (line lanes) */, LM_OWN = 2 };

typedef struct lane_job {
    int phase;
    size_t pos;       /* the next call, event, step or occurrence of the phase */
    uint8_t *match;   /* per index area: LM_* */
    size_t nc;        /* contexts */
    bool state;       /* a value lane of a state variable (keyed by state_key) */
    /* function and line lanes */
    uint32_t *depth;  /* per context: open activations of the function */
    uint8_t *seen;    /* per context: an event of the function was met */
    uint8_t *on;      /* per context: the line is active */
    size_t *open;     /* per context: the line's hit still without a length */
    int64_t *open_t;
    lane_steps steps, implicit; /* implicit: starts of implicit frames (time_first) */
    bool unsorted;    /* a step earlier than the one before it */
    int64_t last_t;
    /* merge */
    uint8_t *cur;     /* per context (+1): its state */
    size_t count[3];  /* contexts in each state */
    uint8_t last;     /* the state of the last transition */
    int64_t group_t;  /* time of the steps being merged */
    int64_t act, sus; /* running sums */
    size_t cap, cum_cap, max1_cap, max2_cap, occ_cap;
    /* function occurrences: in call order, ascending runs (one per context) */
    uint32_t *calls;
    size_t call_n, call_cap;
    size_t *run_pos, *run_end, *heap, runs, heap_n, runs_cap;
    int64_t long_len, short_len;
    uint32_t long_ev, short_ev; /* UINT32_MAX: none */
    uint64_t total, events; /* units of the calls and events; the events */
} lane_job;

int pv_wi_lane_kind(const pv_timeline_index *ix, uint32_t handle, uint32_t *area)
{
    if (!ix->complete)
        return PV_AREA_LANE_NONE;
    for (size_t k = 0; k < ix->area_count; k++)
        if (ix->areas[k].handle == handle) {
            if (area)
                *area = (uint32_t)k;
            switch (ix->areas[k].type) {
            case PV_WI_FUNCTION:
            case PV_WI_LINE:
                return PV_AREA_LANE_ACTIVITY;
            case PV_WI_VARIABLE:
            case PV_WI_STATE:
            case PV_WI_AUX:
            case PV_WI_AUX_STATE:
                return PV_AREA_LANE_VALUE;
            default:
                return PV_AREA_LANE_NONE;
            }
        }
    return PV_AREA_LANE_NONE;
}

static void lane_add_transition(pv_wi_lane *l, lane_job *j, int64_t t, uint8_t st)
{
    if (l->n == j->cap) {
        size_t cap = j->cap;
        l->time = pv_xgrow(l->time, &j->cap, l->n + 1, sizeof *l->time);
        l->state = pv_xgrow(l->state, &cap, l->n + 1, sizeof *l->state);
    }
    if (l->n) {
        int64_t d = t - l->time[l->n - 1];
        j->act += l->state[l->n - 1] == PV_WI_LANE_ACTIVE ? d : 0;
        j->sus += l->state[l->n - 1] == PV_WI_LANE_SUSPENDED ? d : 0;
    }
    if (l->n % PV_WI_LANE_CUM == 0) {
        size_t b = l->n / PV_WI_LANE_CUM, cap = j->cum_cap;
        if (b == j->cum_cap) {
            l->cum_active = pv_xgrow(l->cum_active, &j->cum_cap, b + 1, sizeof *l->cum_active);
            l->cum_suspended = pv_xgrow(l->cum_suspended, &cap, b + 1, sizeof *l->cum_suspended);
        }
        l->cum_active[b] = j->act;
        l->cum_suspended[b] = j->sus;
    }
    l->time[l->n] = t;
    l->state[l->n] = st;
    l->n++;
}

/* The steps at one time are merged: the strongest state over the contexts
 * becomes a transition when it changed. */
static void lane_flush(pv_wi_lane *l, lane_job *j)
{
    uint8_t st = j->count[PV_WI_LANE_ACTIVE]      ? PV_WI_LANE_ACTIVE
                 : j->count[PV_WI_LANE_SUSPENDED] ? PV_WI_LANE_SUSPENDED
                                                  : PV_WI_LANE_NONE;
    if (st != j->last)
        lane_add_transition(l, j, j->group_t, st);
    j->last = st;
}

static const lane_step *lane_step_at(const lane_job *j, size_t k)
{
    return k < j->implicit.n ? steps_at(&j->implicit, k) : steps_at(&j->steps, k - j->implicit.n);
}

/* LJ_MERGE: the contexts' steps (implicit starts first, then in time
 * order) into the lane's transitions. */
static size_t lane_merge(pv_wi_lane *l, lane_job *j, size_t budget)
{
    size_t total = j->implicit.n + j->steps.n, work = 0;
    if (j->pos == 0) {
        if (j->unsorted) {
            /* decreasing times (a corrupt recording): sort, at once */
            lane_step *all = pv_xmalloc((total ? total : 1) * sizeof *all);
            for (size_t k = 0; k < total; k++) {
                all[k] = *lane_step_at(j, k);
                all[k].seq = (uint32_t)k;
            }
            qsort(all, total, sizeof *all, step_cmp);
            steps_free(&j->implicit);
            steps_free(&j->steps);
            for (size_t k = 0; k < total; k++)
                steps_add(&j->steps, all[k].time, all[k].ctx, all[k].state);
            free(all);
            work += total;
        }
        j->cur = pv_xcalloc(j->nc + 1, 1);
        j->count[PV_WI_LANE_NONE] = j->nc + 1;
        j->last = PV_WI_LANE_NONE;
    }
    for (; j->pos < total && work < budget; j->pos++, work++) {
        const lane_step *s = lane_step_at(j, j->pos);
        if (j->pos && s->time != j->group_t)
            lane_flush(l, j);
        j->group_t = s->time;
        size_t c = s->ctx < j->nc ? s->ctx : j->nc;
        j->count[j->cur[c]]--;
        j->cur[c] = s->state;
        j->count[j->cur[c]]++;
        /* a chunk of steps behind: free it */
        size_t k = j->pos - j->implicit.n + 1;
        if (j->pos >= j->implicit.n && k % LANE_CHUNK == 0) {
            lane_chunk_free(j->steps.chunk[(k >> LANE_CHUNK_BITS) - 1]);
            j->steps.chunk[(k >> LANE_CHUNK_BITS) - 1] = NULL;
        }
    }
    if (j->pos < total)
        return work;
    if (total)
        lane_flush(l, j);
    if (!l->cum_active) {
        l->cum_active = pv_xcalloc(1, sizeof *l->cum_active);
        l->cum_suspended = pv_xcalloc(1, sizeof *l->cum_suspended);
    }
    steps_free(&j->steps);
    steps_free(&j->implicit);
    j->phase = l->kind == PV_AREA_LANE_ACTIVITY && j->calls ? LJ_OCC : LJ_FINISH;
    j->pos = 0;
    return work;
}

static void occ_add(pv_wi_lane *l, lane_job *j, size_t event, bool length)
{
    if (l->occ_count == j->occ_cap) {
        size_t cap = j->occ_cap;
        l->occ_event = pv_xgrow(l->occ_event, &j->occ_cap, l->occ_count + 1, sizeof *l->occ_event);
        if (length)
            l->occ_length = pv_xgrow(l->occ_length, &cap, l->occ_count + 1, sizeof *l->occ_length);
    }
    l->occ_event[l->occ_count] = (uint32_t)event;
    if (length)
        l->occ_length[l->occ_count] = 0;
    l->occ_count++;
}

/* LJ_CALLS (functions): the explicit calls of the index in call order
 * (each context's in entry order: ascending runs), the longest and the
 * shortest by gross time (the first in event order of equals). */
static size_t lane_calls(const pv_timeline_index *ix, lane_job *j, size_t budget)
{
    size_t work = 0;
    for (; j->pos < ix->call_count && work < budget; j->pos++, work++) {
        uint32_t entry = ix->call_entry[j->pos];
        if ((entry & PV_TL_IMPLICIT_CALL) || j->match[pv_tl_event_area(ix, entry)] != LM_OWN)
            continue;
        if (!j->call_n || entry < j->calls[j->call_n - 1]) {
            /* a new ascending run */
            size_t cap = j->runs_cap;
            if (j->runs == j->runs_cap) {
                j->run_pos = pv_xgrow(j->run_pos, &j->runs_cap, j->runs + 1, sizeof *j->run_pos);
                j->run_end = pv_xgrow(j->run_end, &cap, j->runs + 1, sizeof *j->run_end);
            }
            j->run_pos[j->runs] = j->call_n;
            if (j->runs)
                j->run_end[j->runs - 1] = j->call_n;
            j->runs++;
        }
        if (j->call_n == j->call_cap)
            j->calls = pv_xgrow(j->calls, &j->call_cap, j->call_n + 1, sizeof *j->calls);
        j->calls[j->call_n++] = entry;
        int64_t g = pv_timeline_call_gross(ix, j->pos);
        if (j->long_ev == UINT32_MAX || g > j->long_len || (g == j->long_len && entry < j->long_ev))
            j->long_len = g, j->long_ev = entry;
        if (j->short_ev == UINT32_MAX || g < j->short_len ||
            (g == j->short_len && entry < j->short_ev))
            j->short_len = g, j->short_ev = entry;
    }
    if (j->pos < ix->call_count)
        return work;
    if (j->runs)
        j->run_end[j->runs - 1] = j->call_n;
    j->phase = LJ_EVENTS;
    j->pos = 0;
    return work;
}

/* A function (docs/winidea-model.md "Area lanes", the activations and
 * active intervals of docs/formats.md §3): per context, active from an E
 * or R of the function to its S or X, suspended from an S to its R, not
 * entered outside its activations; an implicit frame (the first event of
 * the function in a context is an S, R or X) runs from the recording's
 * start. */
static void lane_function_event(const pv_timeline_index *ix, lane_job *j, size_t i, uint16_t c)
{
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    if (!j->seen[c] && e.kind != PV_WI_ENTRY) {
        /* an implicit frame: open since the start */
        j->depth[c] = 1;
        steps_add(&j->implicit, ix->time_first, c,
                  e.kind == PV_WI_RESUME ? PV_WI_LANE_SUSPENDED : PV_WI_LANE_ACTIVE);
    }
    j->seen[c] = 1;
    uint8_t st = UINT8_MAX;
    switch (e.kind) {
    case PV_WI_ENTRY:
        j->depth[c]++;
        st = PV_WI_LANE_ACTIVE;
        break;
    case PV_WI_SUSPEND:
        st = j->depth[c] ? PV_WI_LANE_SUSPENDED : UINT8_MAX;
        break;
    case PV_WI_RESUME:
        st = j->depth[c] ? PV_WI_LANE_ACTIVE : UINT8_MAX;
        break;
    case PV_WI_EXIT:
        if (j->depth[c]) {
            j->depth[c]--;
            st = j->depth[c] ? PV_WI_LANE_ACTIVE : PV_WI_LANE_NONE;
        }
        break;
    default:
        break;
    }
    if (st != UINT8_MAX) {
        j->unsorted |= j->steps.n && e.time < j->last_t;
        j->last_t = e.time;
        steps_add(&j->steps, e.time, c, st);
    }
}

/* A line: active from each hit to the next function or line event of its
 * context; the hits are its occurrences, each as long as it is active. */
static void lane_line_event(const pv_timeline_index *ix, pv_wi_lane *l, lane_job *j, size_t i,
                            uint16_t c, bool hit)
{
    if (!hit && !j->on[c] && j->open[c] == SIZE_MAX)
        return; /* nothing changes: no need to read the record's time */
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    if (j->open[c] != SIZE_MAX) {
        l->occ_length[j->open[c]] = e.time - j->open_t[c];
        j->open[c] = SIZE_MAX;
    }
    if (hit) {
        j->open[c] = l->occ_count;
        j->open_t[c] = e.time;
        occ_add(l, j, i, true);
    }
    if (hit != (j->on[c] != 0)) {
        j->on[c] = hit;
        j->unsorted |= j->steps.n && e.time < j->last_t;
        j->last_t = e.time;
        steps_add(&j->steps, e.time, c, hit ? PV_WI_LANE_ACTIVE : PV_WI_LANE_NONE);
    }
}

/* A variable, state or AUX area: each write (each change of state) in
 * event order, as docs/winidea-model.md "Value history" reads them. */
static void lane_value_event(const pv_timeline_index *ix, pv_wi_lane *l, lane_job *j, size_t i)
{
    const pv_tl_area *ar = &ix->areas[pv_tl_event_area(ix, i)];
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    double value;
    uint32_t label = PV_WI_NONE;
    if (j->state) {
        bool st = ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE;
        if (st ? e.kind != PV_WI_ENTRY : e.kind != PV_WI_WRITE)
            return;
        uint64_t sv = e.data & 0xFFFFFFFFu;
        value = (double)sv;
        /* a state named in the mapping gives its name; an unnamed one
         * (named after its variable) is a number */
        label = pv_timeline_find_area(ix, ix->areas[l->area].state_key, sv);
        if (label != PV_WI_NONE &&
            strcmp(pv_tl_area_name(ix, label), pv_tl_area_name(ix, l->area)) == 0)
            label = PV_WI_NONE;
    } else {
        if (ar->value_f64)
            memcpy(&value, &e.data, sizeof value);
        else
            value = (double)(e.data & 0xFFFFFFFFu);
        if (value != value)
            value = 0; /* NaN: drawn as 0 */
    }
    if (l->occ_count)
        l->occ_length[l->occ_count - 1] = e.time - l->time[l->n - 1];
    occ_add(l, j, i, true);
    if (l->n == j->cap) {
        size_t c1 = j->cap, c2 = j->cap;
        l->time = pv_xgrow(l->time, &j->cap, l->n + 1, sizeof *l->time);
        l->value = pv_xgrow(l->value, &c1, l->n + 1, sizeof *l->value);
        l->label_area = pv_xgrow(l->label_area, &c2, l->n + 1, sizeof *l->label_area);
    }
    size_t n = l->n;
    l->time[n] = e.time;
    l->value[n] = value;
    l->label_area[n] = label;
    if (!n || value < l->lo)
        l->lo = value;
    if (!n || value > l->hi)
        l->hi = value;
    size_t b1 = n / PV_WI_LANE_B1, b2 = n / PV_WI_LANE_B2;
    if (b1 == j->max1_cap)
        l->max1 = pv_xgrow(l->max1, &j->max1_cap, b1 + 1, sizeof *l->max1);
    if (b2 == j->max2_cap)
        l->max2 = pv_xgrow(l->max2, &j->max2_cap, b2 + 1, sizeof *l->max2);
    if (n % PV_WI_LANE_B1 == 0 || value > l->max1[b1])
        l->max1[b1] = value;
    if (n % PV_WI_LANE_B2 == 0 || value > l->max2[b2])
        l->max2[b2] = value;
    l->n++;
}

/* LJ_EVENTS: the events, reading only the index's area of each (and the
 * record of those the lane needs). */
static size_t lane_events(const pv_timeline_index *ix, pv_wi_lane *l, lane_job *j, size_t budget)
{
    size_t end = ix->event_count - j->pos > budget ? j->pos + budget : ix->event_count;
    size_t start = j->pos;
    const uint8_t *match = j->match;
    const uint32_t *area32 = ix->area_wide ? ix->event_area : NULL;
    const uint16_t *area16 = ix->area_wide ? NULL : ix->event_area;
    int type = ix->areas[l->area].type;
    for (size_t i = start; i < end; i++) {
        uint8_t m = match[area16 ? area16[i] : area32[i]];
        if (!m)
            continue;
        if (l->kind == PV_AREA_LANE_VALUE) {
            lane_value_event(ix, l, j, i);
            continue;
        }
        uint16_t c = pv_tl_event_context(ix, i);
        if (c >= j->nc)
            continue;
        if (type == PV_WI_FUNCTION)
            lane_function_event(ix, j, i, c);
        else
            lane_line_event(ix, l, j, i, c, m == LM_OWN);
    }
    j->pos = end;
    if (end < ix->event_count)
        return end - start;
    /* the end of the recording closes what is still open */
    for (size_t c = 0; c < j->nc; c++) {
        if (type == PV_WI_FUNCTION && l->kind == PV_AREA_LANE_ACTIVITY && j->depth[c])
            steps_add(&j->steps, ix->time_last, (uint16_t)c, PV_WI_LANE_NONE);
        if (type == PV_WI_LINE) {
            if (j->open[c] != SIZE_MAX)
                l->occ_length[j->open[c]] = ix->time_last - j->open_t[c];
            if (j->on[c])
                steps_add(&j->steps, ix->time_last, (uint16_t)c, PV_WI_LANE_NONE);
        }
    }
    if (l->kind == PV_AREA_LANE_VALUE) {
        if (l->occ_count)
            l->occ_length[l->occ_count - 1] = ix->time_last - l->time[l->n - 1];
        if (!l->max1) {
            l->max1 = pv_xcalloc(1, sizeof *l->max1);
            l->max2 = pv_xcalloc(1, sizeof *l->max2);
        }
        j->phase = LJ_FINISH;
    } else {
        j->phase = LJ_MERGE;
    }
    j->pos = 0;
    return end - start;
}

/* Heap of runs by their next call's entry event (LJ_OCC). */
static bool run_less(const lane_job *j, size_t a, size_t b)
{
    return j->calls[j->run_pos[a]] < j->calls[j->run_pos[b]];
}

static void heap_down(lane_job *j, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < j->heap_n && run_less(j, j->heap[l], j->heap[m]))
            m = l;
        if (r < j->heap_n && run_less(j, j->heap[r], j->heap[m]))
            m = r;
        if (m == i)
            return;
        size_t t = j->heap[i];
        j->heap[i] = j->heap[m];
        j->heap[m] = t;
        i = m;
    }
}

/* LJ_OCC (functions): the calls' runs merged into event order. */
static size_t lane_occ(pv_wi_lane *l, lane_job *j, size_t budget)
{
    size_t work = 0;
    if (!j->heap) {
        j->heap = pv_xmalloc((j->runs ? j->runs : 1) * sizeof *j->heap);
        for (size_t r = 0; r < j->runs; r++)
            j->heap[j->heap_n++] = r;
        for (size_t k = j->heap_n / 2; k-- > 0;)
            heap_down(j, k);
        l->occ_event = pv_xmalloc((j->call_n ? j->call_n : 1) * sizeof *l->occ_event);
        work += j->runs;
    }
    for (; j->heap_n && work < budget; work++) {
        size_t r = j->heap[0];
        l->occ_event[l->occ_count++] = j->calls[j->run_pos[r]++];
        if (j->run_pos[r] == j->run_end[r])
            j->heap[0] = j->heap[--j->heap_n];
        heap_down(j, 0);
    }
    if (!j->heap_n)
        j->phase = LJ_FINISH;
    return work;
}

static size_t occ_find(const pv_wi_lane *l, uint32_t event)
{
    size_t lo = pv_u32_lower_bound(l->occ_event, 0, l->occ_count, event);
    return lo < l->occ_count && l->occ_event[lo] == event ? lo : SIZE_MAX;
}

/* LJ_FINISH: the longest and the shortest occurrence (the first of equals);
 * the lengths go (the jumps need only the events). */
static size_t lane_finish(pv_wi_lane *l, lane_job *j, size_t budget)
{
    size_t work = 0;
    if (!l->occ_length) {
        /* a function: known from its calls */
        l->longest = j->long_ev == UINT32_MAX ? SIZE_MAX : occ_find(l, j->long_ev);
        l->shortest = j->short_ev == UINT32_MAX ? SIZE_MAX : occ_find(l, j->short_ev);
        j->phase = LJ_DONE;
        return 1;
    }
    for (; j->pos < l->occ_count && work < budget; j->pos++, work++) {
        size_t i = j->pos;
        if (l->longest == SIZE_MAX || l->occ_length[i] > l->occ_length[l->longest])
            l->longest = i;
        if (l->shortest == SIZE_MAX || l->occ_length[i] < l->occ_length[l->shortest])
            l->shortest = i;
    }
    if (j->pos < l->occ_count)
        return work;
    free(l->occ_length);
    l->occ_length = NULL;
    j->phase = LJ_DONE;
    return work;
}

static void lane_job_free(lane_job *j)
{
    if (!j)
        return;
    free(j->match);
    free(j->depth);
    free(j->seen);
    free(j->on);
    free(j->open);
    free(j->open_t);
    steps_free(&j->steps);
    steps_free(&j->implicit);
    free(j->cur);
    free(j->calls);
    free(j->run_pos);
    free(j->run_end);
    free(j->heap);
    free(j);
}

/* Exact sizes up front from the events of the lane's areas (`own`), so
 * that no array is copied while it grows: a function has at most one step
 * per own event (plus the implicit starts and the ends at the end of the
 * recording) and one call per own event; a line's steps are at most two
 * per hit (on, then off) plus one per context; a value has one change per
 * own event. */
static void lane_reserve(pv_wi_lane *l, lane_job *j, int type, uint64_t own)
{
    size_t nc = j->nc;
    size_t trans = 0, occ = 0;
    if (type == PV_WI_FUNCTION) {
        trans = (size_t)own + 2 * nc + 1;
        j->calls = pv_xmalloc(((size_t)own + 1) * sizeof *j->calls);
        j->call_cap = (size_t)own + 1;
    } else if (type == PV_WI_LINE) {
        trans = 2 * (size_t)own + nc + 1;
        occ = (size_t)own + 1;
    } else {
        size_t n = (size_t)own + 1;
        l->time = pv_xmalloc(n * sizeof *l->time);
        l->value = pv_xmalloc(n * sizeof *l->value);
        l->label_area = pv_xmalloc(n * sizeof *l->label_area);
        j->cap = n;
        l->max1 = pv_xmalloc((n / PV_WI_LANE_B1 + 1) * sizeof *l->max1);
        j->max1_cap = n / PV_WI_LANE_B1 + 1;
        l->max2 = pv_xmalloc((n / PV_WI_LANE_B2 + 1) * sizeof *l->max2);
        j->max2_cap = n / PV_WI_LANE_B2 + 1;
        occ = n;
    }
    if (trans) {
        l->time = pv_xmalloc(trans * sizeof *l->time);
        l->state = pv_xmalloc(trans * sizeof *l->state);
        j->cap = trans;
        j->cum_cap = trans / PV_WI_LANE_CUM + 1;
        l->cum_active = pv_xmalloc(j->cum_cap * sizeof *l->cum_active);
        l->cum_suspended = pv_xmalloc(j->cum_cap * sizeof *l->cum_suspended);
    }
    if (occ) {
        l->occ_event = pv_xmalloc(occ * sizeof *l->occ_event);
        l->occ_length = pv_xmalloc(occ * sizeof *l->occ_length);
        j->occ_cap = occ;
    }
}

/* The arrays of a ready lane at their exact sizes (shrinking is cheap). */
static void lane_shrink(pv_wi_lane *l)
{
    size_t n = l->n ? l->n : 1;
    if (l->time)
        l->time = pv_xrealloc(l->time, n * sizeof *l->time);
    if (l->state)
        l->state = pv_xrealloc(l->state, n * sizeof *l->state);
    if (l->value)
        l->value = pv_xrealloc(l->value, n * sizeof *l->value);
    if (l->label_area)
        l->label_area = pv_xrealloc(l->label_area, n * sizeof *l->label_area);
    if (l->occ_event)
        l->occ_event = pv_xrealloc(l->occ_event, (l->occ_count ? l->occ_count : 1) *
                                                     sizeof *l->occ_event);
}

pv_wi_lane *pv_wi_lane_begin(const pv_timeline_index *ix, uint32_t handle,
                             const uint32_t *area_events)
{
    uint32_t area = PV_WI_NONE;
    int kind = pv_wi_lane_kind(ix, handle, &area);
    if (kind == PV_AREA_LANE_NONE)
        return NULL;
    pv_wi_lane *l = pv_xcalloc(1, sizeof *l);
    lane_job *j = pv_xcalloc(1, sizeof *j);
    l->handle = handle;
    l->area = area;
    l->kind = kind;
    l->longest = l->shortest = SIZE_MAX;
    l->job = j;
    const pv_tl_area *a = &ix->areas[area];
    j->nc = ix->context_count;
    j->match = pv_xcalloc(ix->area_count ? ix->area_count : 1, 1);
    j->long_ev = j->short_ev = UINT32_MAX;
    j->state = kind == PV_AREA_LANE_VALUE &&
               (a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE || a->has_states);
    for (size_t k = 0; k < ix->area_count; k++) {
        const pv_tl_area *ar = &ix->areas[k];
        bool own = j->state ? a->state_key != 0 && ar->state_key == a->state_key
                            : ar->handle == handle && ar->type == a->type;
        if (own)
            j->match[k] = LM_OWN;
        else if (a->type == PV_WI_LINE && (ar->type == PV_WI_FUNCTION || ar->type == PV_WI_LINE))
            j->match[k] = LM_OTHER;
    }
    if (a->type == PV_WI_FUNCTION) {
        j->depth = pv_xcalloc(j->nc + 1, sizeof *j->depth);
        j->seen = pv_xcalloc(j->nc + 1, 1);
        j->phase = LJ_CALLS;
        j->total = ix->call_count;
    } else {
        if (a->type == PV_WI_LINE) {
            j->on = pv_xcalloc(j->nc + 1, 1);
            j->open = pv_xmalloc((j->nc + 1) * sizeof *j->open);
            j->open_t = pv_xmalloc((j->nc + 1) * sizeof *j->open_t);
            for (size_t c = 0; c <= j->nc; c++)
                j->open[c] = SIZE_MAX;
        }
        j->phase = LJ_EVENTS;
    }
    if (area_events) {
        uint64_t own = 0;
        for (size_t k = 0; k < ix->area_count; k++)
            own += j->match[k] == LM_OWN ? area_events[k] : 0;
        lane_reserve(l, j, a->type, own);
    }
    j->events = ix->event_count;
    j->total += ix->event_count;
    return l;
}

bool pv_wi_lane_step(const pv_timeline_index *ix, pv_wi_lane *l, size_t budget)
{
    lane_job *j = l->job;
    size_t work = 0;
    while (j && j->phase != LJ_DONE && work < budget) {
        size_t left = budget - work;
        switch (j->phase) {
        case LJ_CALLS:
            work += lane_calls(ix, j, left);
            break;
        case LJ_EVENTS:
            work += lane_events(ix, l, j, left);
            break;
        case LJ_MERGE:
            work += lane_merge(l, j, left);
            break;
        case LJ_OCC:
            work += lane_occ(l, j, left);
            break;
        default:
            work += lane_finish(l, j, left);
            break;
        }
    }
    if (j && j->phase == LJ_DONE) {
        lane_shrink(l);
        lane_job_free(j);
        l->job = NULL;
    }
    return !l->job;
}

void pv_wi_lane_progress(const pv_wi_lane *l, uint64_t *done, uint64_t *total)
{
    const lane_job *j = l->job;
    if (!j) {
        *done = *total = 1;
        return;
    }
    /* the calls, then the events; the phases after them count as the last
     * unit (they take a fraction of the events' pass) */
    *total = j->total + 1;
    *done = j->phase == LJ_CALLS    ? j->pos
            : j->phase == LJ_EVENTS ? j->total - j->events + j->pos
                                    : j->total;
}

pv_wi_lane *pv_wi_lane_build(const pv_timeline_index *ix, uint32_t handle,
                             const uint32_t *area_events)
{
    pv_wi_lane *l = pv_wi_lane_begin(ix, handle, area_events);
    if (l)
        pv_wi_lane_step(ix, l, SIZE_MAX);
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
    lane_job_free(l->job);
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
