/*
 * statistics.c - the exact winIDEA statistics (docs/formats.md §3, "Decision -
 * statistics").
 *
 * Vocabulary (as in docs/formats.md §3), for an area a in a context c:
 *   activation  an E and its matching X, an implicit frame's start, or the end
 *               of the recording for a call still open;
 *   inside(a,c) the union of a's activations in c;
 *   active(a,c) the union of a's [E|R, S|X) intervals in c;
 *   running(c)  the time during which c is the running context.
 *
 * Every interval is clipped to the range [lo, hi] (the window, or unbounded):
 * clock(t) = min(max(t, lo), hi), and the clipped length of [s, e) is
 * clock(e) - clock(s).  Time inside running(c) is measured with a *running
 * clock* per context: run(c, t) = |running(c) ∩ [start, t] ∩ [lo, hi]|,
 * so that |[s, e) ∩ running(c)| = run(c, e) - run(c, s) is known from the two
 * ends of an interval alone, without visiting the contexts that ran between.
 *
 *   net    total = |active(a,c) ∩ running(c)|   (union: counter active_n)
 *   gross  total = |inside(a,c) ∩ running(c)|   (union: counter inside_n)
 *   call   total = |inside(a,c)|                (wall time, suspension included)
 *   per activation (for MIN/MAX, complete activations only, i.e. an E and
 *   its own X both inside the range): net = the frame's own active time
 *   while c runs, gross = run(c, X) - run(c, E), call = X - E.
 *   count  = E events inside the range; AVG = total / count (rounded down).
 *   period = E to the next E, outside = the X that ends the union to the next
 *   E; both only when both ends lie inside the range, never clipped.
 */
#include "formats/winidea/statistics.h"

#include <stdlib.h>
#include <string.h>

bool pv_stats_find(const pv_stats *st, uint32_t area, uint16_t context, uint32_t *acc)
{
    if (area >= st->slot_areas || context >= st->stride)
        return false;
    uint32_t s = st->slot[(size_t)area * st->stride + context];
    if (s)
        *acc = s - 1;
    return s != 0;
}

void pv_stats_init(pv_stats *st, const pv_tl_options *o, int64_t start, bool all_running)
{
    memset(st, 0, sizeof *st);
    st->lo = o && o->has_from ? o->from : INT64_MIN;
    st->hi = o && o->has_to ? o->to : INT64_MAX;
    if (st->hi < st->lo)
        st->hi = st->lo; /* an empty window: every clipped length is 0 */
    st->ranged = st->lo != INT64_MIN || st->hi != INT64_MAX;
    st->start = start;
    st->since = start;
    st->all_running = all_running;
    st->running = PV_TL_NO_CONTEXT;
    pv_hashmap_init(&st->state_map);
}

void pv_stats_free(pv_stats *st)
{
    free(st->run);
    free(st->accs);
    free(st->slot);
    free(st->data_slot);
    pv_hashmap_free(&st->state_map);
    free(st->state_area);
    free(st->state_since);
    free(st->state_key_of);
    free(st->state_first);
    memset(st, 0, sizeof *st);
}

void pv_stats_set_context_count(pv_stats *st, size_t count)
{
    if (count > st->run_count) {
        st->run = pv_xgrow(st->run, &st->run_cap, count, sizeof *st->run);
        memset(st->run + st->run_count, 0, (count - st->run_count) * sizeof *st->run);
        st->run_count = count;
    }
    if (count <= st->stride)
        return;
    size_t stride = st->stride ? st->stride : 4;
    while (stride < count)
        stride *= 2;
    if (st->slot) {
        /* Re-lay the slot table with a wider stride (rare: a context that
         * appeared in the middle of the timeline). */
        uint32_t *slot = pv_xcalloc(st->slot_areas * stride, sizeof *slot);
        for (size_t a = 0; a < st->slot_areas; a++)
            memcpy(slot + a * stride, st->slot + a * st->stride, st->stride * sizeof *slot);
        free(st->slot);
        st->slot = slot;
    }
    st->stride = stride;
}

void pv_stats_switch(pv_stats *st, uint16_t c, int64_t t)
{
    if (st->all_running || c == st->running)
        return;
    if (st->running < st->run_count)
        st->run[st->running] += pv_stat_clock(st, t) - pv_stat_clock(st, st->since);
    st->running = c;
    st->since = t;
}

static uint32_t stats_new_acc(pv_stats *st, uint32_t area, uint16_t context)
{
    st->accs = pv_xgrow(st->accs, &st->acc_cap, st->acc_count + 1, sizeof *st->accs);
    pv_stat_acc *a = &st->accs[st->acc_count];
    memset(a, 0, sizeof *a);
    a->area = area;
    a->context = context;
    a->top = PV_STAT_NOT_ON_STACK;
    return (uint32_t)st->acc_count++;
}

uint32_t pv_stats_acc_slow(pv_stats *st, uint32_t area, uint16_t context)
{
    if (context >= st->stride)
        pv_stats_set_context_count(st, (size_t)context + 1);
    if (area >= st->slot_areas) {
        size_t n = st->slot_areas ? st->slot_areas : 64;
        while (n <= area)
            n *= 2;
        st->slot = pv_xrealloc(st->slot, n * st->stride * sizeof *st->slot);
        memset(st->slot + st->slot_areas * st->stride, 0,
               (n - st->slot_areas) * st->stride * sizeof *st->slot);
        st->slot_areas = n;
    }
    uint32_t *s = &st->slot[(size_t)area * st->stride + context];
    if (*s == 0)
        *s = stats_new_acc(st, area, context) + 1;
    return *s - 1;
}

uint32_t pv_stats_data_acc(pv_stats *st, uint32_t area)
{
    if (area >= st->data_slot_cap) {
        size_t old = st->data_slot_cap;
        st->data_slot =
            pv_xgrow(st->data_slot, &st->data_slot_cap, (size_t)area + 1, sizeof *st->data_slot);
        memset(st->data_slot + old, 0, (st->data_slot_cap - old) * sizeof *st->data_slot);
    }
    if (st->data_slot[area] == 0)
        st->data_slot[area] = stats_new_acc(st, area, PV_TL_NO_CONTEXT) + 1;
    return st->data_slot[area] - 1;
}

/* docs/formats.md §3: an implicit frame was entered at the start of the
 * recording, where every running clock is 0.  It is active from the start
 * when its first event is S or X, suspended from the start when it is R. */
void pv_stats_implicit(pv_stats *st, uint32_t acc, pv_stat_frame *f, bool active)
{
    pv_stat_acc *a = &st->accs[acc];
    f->entry_time = st->start;
    f->entry_run = 0;
    f->net = 0;
    f->active = active;
    f->active_run = 0;
    f->implicit = true;
    if (a->inside_n++ == 0) {
        a->inside_run0 = 0;
        a->inside_clock0 = pv_stat_clock(st, st->start);
    }
    if (active && a->active_n++ == 0)
        a->active_run0 = 0;
}

/* docs/formats.md §3: a state's net is the time from its entry to the variable's
 * next state change (or the end of the range), clipped to the range. */
static void stats_state_close(pv_stats *st, uint32_t tracker, int64_t t)
{
    uint32_t cur = st->state_area[tracker];
    if (cur == PV_WI_NONE)
        return;
    uint32_t acc = pv_stats_data_acc(st, cur); /* may move st->accs */
    st->accs[acc].net += pv_stat_clock(st, t) - pv_stat_clock(st, st->state_since[tracker]);
}

/* A tracker for state key `key`, whose first state entry is at t. */
static uint32_t stats_new_tracker(pv_stats *st, uint32_t key, int64_t t)
{
    size_t cap = st->state_cap;
    st->state_area = pv_xgrow(st->state_area, &cap, st->state_count + 1, sizeof *st->state_area);
    cap = st->state_cap;
    st->state_since = pv_xgrow(st->state_since, &cap, st->state_count + 1, sizeof *st->state_since);
    cap = st->state_cap;
    st->state_key_of =
        pv_xgrow(st->state_key_of, &cap, st->state_count + 1, sizeof *st->state_key_of);
    cap = st->state_cap;
    st->state_first = pv_xgrow(st->state_first, &cap, st->state_count + 1, sizeof *st->state_first);
    st->state_cap = cap;
    uint32_t tracker = (uint32_t)st->state_count++;
    st->state_area[tracker] = PV_WI_NONE;
    st->state_since[tracker] = t;
    st->state_key_of[tracker] = key;
    st->state_first[tracker] = t;
    pv_hashmap_put(&st->state_map, key, tracker);
    return tracker;
}

void pv_stats_state(pv_stats *st, uint32_t state_key, uint32_t area, int64_t t)
{
    uint32_t tracker;
    size_t cache = (state_key ^ (state_key >> 4)) & 15;
    if (st->state_cache_key[cache] == state_key && state_key != 0) {
        tracker = st->state_cache_tracker[cache];
    } else if (!pv_hashmap_get(&st->state_map, state_key, &tracker)) {
        tracker = stats_new_tracker(st, state_key, t);
    }
    st->state_cache_key[cache] = state_key;
    st->state_cache_tracker[cache] = tracker;
    stats_state_close(st, tracker, t);
    st->state_area[tracker] = area;
    st->state_since[tracker] = t;
    uint32_t acc = pv_stats_data_acc(st, area);
    if (pv_stat_in_range(st, t)) {
        st->accs[acc].count++;
        st->accs[acc].in_range = true;
    }
}

/* ---- the time split */

/* min/max of two accumulators' ranges: (min, max) of y into x, where x has
 * `xn` values so far and y `yn`. */
static void stats_join_range(int64_t *xmin, int64_t *xmax, int64_t xn, int64_t ymin, int64_t ymax,
                             int64_t yn)
{
    if (yn == 0)
        return;
    pv_stat_min_max(ymin, xn == 0, xmin, xmax);
    pv_stat_min_max(ymax, false, xmin, xmax);
}

/* x (the first half's, after the replay) += y (the second half's).  `off`
 * turns y's running-clock readings into whole-timeline ones. */
static void stats_merge_acc(const pv_stats *st, pv_stat_acc *x, const pv_stat_acc *y, int64_t off)
{
    x->seen |= y->seen;
    x->in_range |= y->in_range;
    if (y->has_last_entry) {
        /* y's first E: its period and outside reach back into the first half */
        int64_t f = y->first_entry;
        bool in = pv_stat_in_range(st, f);
        if (x->has_last_entry && in && pv_stat_in_range(st, x->last_entry)) {
            int64_t p = f - x->last_entry;
            pv_stat_min_max(p, x->period_n == 0, &x->period_min, &x->period_max);
            x->period_sum += p;
            x->period_n++;
        }
        if (x->has_last_exit && in && pv_stat_in_range(st, x->last_exit)) {
            int64_t o = f - x->last_exit;
            pv_stat_min_max(o, x->outside_n == 0, &x->outside_min, &x->outside_max);
            x->outside_sum += o;
            x->outside_n++;
        }
        x->has_last_entry = true;
        x->last_entry = y->last_entry;
        x->has_last_exit = y->has_last_exit;
        x->last_exit = y->last_exit;
    }
    if (y->inside_n > 0) {
        x->inside_run0 = y->inside_run0 + off;
        x->inside_clock0 = y->inside_clock0;
    }
    if (y->active_n > 0)
        x->active_run0 = y->active_run0 + off;
    x->inside_n += y->inside_n;
    x->active_n += y->active_n;
    x->count += y->count;
    x->net += y->net;
    x->gross += y->gross;
    x->call += y->call;
    stats_join_range(&x->net_min, &x->net_max, x->complete, y->net_min, y->net_max, y->complete);
    stats_join_range(&x->gross_min, &x->gross_max, x->complete, y->gross_min, y->gross_max,
                     y->complete);
    stats_join_range(&x->call_min, &x->call_max, x->complete, y->call_min, y->call_max,
                     y->complete);
    x->complete += y->complete;
    stats_join_range(&x->period_min, &x->period_max, x->period_n, y->period_min, y->period_max,
                     y->period_n);
    x->period_sum += y->period_sum;
    x->period_n += y->period_n;
    stats_join_range(&x->outside_min, &x->outside_max, x->outside_n, y->outside_min, y->outside_max,
                     y->outside_n);
    x->outside_sum += y->outside_sum;
    x->outside_n += y->outside_n;
}

uint32_t *pv_stats_merge(pv_stats *st, const pv_stats *b, const int64_t *base)
{
    uint32_t *map = pv_xmalloc((b->acc_count ? b->acc_count : 1) * sizeof *map);
    for (size_t j = 0; j < b->acc_count; j++) {
        const pv_stat_acc *y = &b->accs[j];
        bool data = y->context == PV_TL_NO_CONTEXT;
        uint32_t k = data ? pv_stats_data_acc(st, y->area) : pv_stats_acc(st, y->area, y->context);
        map[j] = k;
        int64_t off = data || st->all_running ? 0 : base[y->context];
        stats_merge_acc(st, &st->accs[k], y, off);
    }
    /* each state variable: the second half's first state entry ends the
     * first half's current state; then the second half's is current */
    for (size_t t = 0; t < b->state_count; t++) {
        uint32_t tracker;
        if (pv_hashmap_get(&st->state_map, b->state_key_of[t], &tracker))
            stats_state_close(st, tracker, b->state_first[t]);
        else
            tracker = stats_new_tracker(st, b->state_key_of[t], b->state_first[t]);
        st->state_area[tracker] = b->state_area[t];
        st->state_since[tracker] = b->state_since[t];
    }
    memset(st->state_cache_key, 0, sizeof st->state_cache_key);
    if (!st->all_running) {
        for (size_t c = 0; c < st->run_count; c++)
            st->run[c] = base[c] + (c < b->run_count ? b->run[c] : 0);
        st->running = b->running;
        st->since = b->since;
    }
    return map;
}

static int64_t stats_avg(int64_t total, int64_t n)
{
    return n > 0 ? total / n : 0; /* integer ns, rounded down (totals are >= 0) */
}

/* Writes one row from an accumulator (for Neutral: from the summed one). */
static void stats_fill_row(pv_tl_stat_row *row, const pv_stat_acc *a, bool function)
{
    memset(row->t, 0, sizeof row->t);
    row->count = a->count;
    if (!function) {
        row->t[PV_WI_STAT_NET] = a->net; /* states: time in the state; variables: 0 */
        return;
    }
    int64_t *t = row->t;
    t[PV_WI_STAT_NET] = a->net;
    t[PV_WI_STAT_GROSS] = a->gross;
    t[PV_WI_STAT_CALL] = a->call;
    if (a->complete > 0) {
        t[PV_WI_STAT_NET_MIN] = a->net_min;
        t[PV_WI_STAT_NET_MAX] = a->net_max;
        t[PV_WI_STAT_GROSS_MIN] = a->gross_min;
        t[PV_WI_STAT_GROSS_MAX] = a->gross_max;
        t[PV_WI_STAT_CALL_MIN] = a->call_min;
        t[PV_WI_STAT_CALL_MAX] = a->call_max;
    }
    t[PV_WI_STAT_NET_AVG] = stats_avg(a->net, a->count);
    t[PV_WI_STAT_GROSS_AVG] = stats_avg(a->gross, a->count);
    t[PV_WI_STAT_CALL_AVG] = stats_avg(a->call, a->count);
    if (a->period_n > 0) {
        t[PV_WI_STAT_PERIOD_MIN] = a->period_min;
        t[PV_WI_STAT_PERIOD_MAX] = a->period_max;
    }
    t[PV_WI_STAT_PERIOD_AVG] = stats_avg(a->period_sum, a->period_n);
    t[PV_WI_STAT_OUTSIDE] = a->outside_sum;
    if (a->outside_n > 0) {
        t[PV_WI_STAT_OUTSIDE_MIN] = a->outside_min;
        t[PV_WI_STAT_OUTSIDE_MAX] = a->outside_max;
    }
    t[PV_WI_STAT_OUTSIDE_AVG] = stats_avg(a->outside_sum, a->outside_n);
}

/* docs/formats.md §3 Neutral: counts and totals summed over the contexts; MIN =
 * the smallest MIN among the contexts that have one, MAX the largest;
 * averages = summed totals / summed counts (or interval numbers). */
static void stats_neutral_add(pv_stat_acc *n, const pv_stat_acc *a)
{
    /* A context's totals are bounded by the recorded time (< 2^63 ns:
     * docs/winidea-model.md, "Times"); their sum over contexts is not, so it
     * saturates. */
    n->count += a->count;
    n->net = pv_add_sat(n->net, a->net);
    n->gross = pv_add_sat(n->gross, a->gross);
    n->call = pv_add_sat(n->call, a->call);
    if (a->complete > 0) {
        bool first = n->complete == 0;
        pv_stat_min_max(a->net_min, first, &n->net_min, &n->net_max);
        pv_stat_min_max(a->net_max, false, &n->net_min, &n->net_max);
        pv_stat_min_max(a->gross_min, first, &n->gross_min, &n->gross_max);
        pv_stat_min_max(a->gross_max, false, &n->gross_min, &n->gross_max);
        pv_stat_min_max(a->call_min, first, &n->call_min, &n->call_max);
        pv_stat_min_max(a->call_max, false, &n->call_min, &n->call_max);
        n->complete += a->complete;
    }
    if (a->period_n > 0) {
        bool first = n->period_n == 0;
        pv_stat_min_max(a->period_min, first, &n->period_min, &n->period_max);
        pv_stat_min_max(a->period_max, false, &n->period_min, &n->period_max);
        n->period_sum = pv_add_sat(n->period_sum, a->period_sum);
        n->period_n += a->period_n;
    }
    if (a->outside_n > 0) {
        bool first = n->outside_n == 0;
        pv_stat_min_max(a->outside_min, first, &n->outside_min, &n->outside_max);
        pv_stat_min_max(a->outside_max, false, &n->outside_min, &n->outside_max);
        n->outside_sum = pv_add_sat(n->outside_sum, a->outside_sum);
        n->outside_n += a->outside_n;
    }
}

static bool stats_row_is_zero(const pv_tl_stat_row *row)
{
    if (row->count)
        return false;
    for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
        if (row->t[k])
            return false;
    return true;
}

static int stats_compare_acc(const void *x, const void *y)
{
    const pv_stat_acc *a = x, *b = y;
    if (a->area != b->area)
        return a->area < b->area ? -1 : 1;
    return (a->context > b->context) - (a->context < b->context);
}

void pv_stats_finish(pv_stats *st, pv_timeline_index *ix, int64_t end)
{
    for (size_t k = 0; k < st->state_count; k++)
        stats_state_close(st, (uint32_t)k, end);
    /* Rows only for pairs with at least one event: every accumulator was
     * created by an event.  Sorted by area, then context. */
    if (st->acc_count > 1)
        qsort(st->accs, st->acc_count, sizeof *st->accs, stats_compare_acc);
    free(st->slot);
    st->slot = NULL;
    free(st->data_slot);
    st->data_slot = NULL;
    st->slot_areas = st->data_slot_cap = 0;
    ix->stats = pv_xcalloc(st->acc_count * 2 + 1, sizeof *ix->stats);
    bool windowed = st->ranged;
    size_t n = 0;
    for (size_t i = 0; i < st->acc_count;) {
        uint32_t area = st->accs[i].area;
        unsigned type = ix->areas[area].type;
        bool function = type == PV_WI_FUNCTION || type == PV_WI_LINE;
        pv_stat_acc neutral;
        memset(&neutral, 0, sizeof neutral);
        size_t rows = 0;
        for (; i < st->acc_count && st->accs[i].area == area; i++) {
            pv_tl_stat_row *row = &ix->stats[n];
            row->area = area;
            row->context = st->accs[i].context;
            stats_fill_row(row, &st->accs[i], function);
            /* With a window, a pair whose events all lie outside it and
             * whose activations do not reach into it has no row. */
            if (windowed && !st->accs[i].in_range && stats_row_is_zero(row))
                continue;
            n++;
            rows++;
            if (function)
                stats_neutral_add(&neutral, &st->accs[i]);
        }
        if (function && rows > 0) {
            pv_tl_stat_row *row = &ix->stats[n++];
            row->area = area;
            row->context = PV_TL_NEUTRAL;
            stats_fill_row(row, &neutral, true);
        }
    }
    ix->stat_count = n;
}
