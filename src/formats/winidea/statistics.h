/*
 * statistics.h - the exact winIDEA statistics of docs/formats.md §3, as an
 * accumulator that the timeline pass (timeline.c) feeds event by event.
 *
 * The pass owns the call stacks and decides what each event means (entry,
 * suspend, resume, exit, implicit frame, write, state change, context
 * switch); this module only turns those decisions into numbers.  Internal to
 * src/model.
 */
#ifndef PROFVIEW_MODEL_STATISTICS_H
#define PROFVIEW_MODEL_STATISTICS_H

#include "formats/winidea/timeline.h"

#define PV_STAT_NOT_ON_STACK INT32_MIN

/* Accumulator of one (area, context) pair, or of one data/state/AUX area. */
typedef struct pv_stat_acc {
    /* hot: touched by every event of the pair (first cache line) */
    uint32_t area;
    uint16_t context;
    bool seen;     /* the area had an event in this context (implicit-frame rule) */
    bool in_range; /* ... and one inside the range */
    int32_t top;   /* stack position code of the area's topmost frame (timeline.c) */
    /* unions in progress: number of open activations / active frames */
    int32_t inside_n, active_n;
    bool has_last_entry, has_last_exit;
    int64_t inside_run0, inside_clock0, active_run0;
    int64_t last_entry, last_exit; /* raw times, for period / outside */
    int64_t count;                 /* E in range / writes / state entries */
    int64_t first_entry;           /* the time of the first E (pv_stats_merge) */

    /* results */
    int64_t net, gross, call; /* totals of the unions, clipped */
    int64_t complete;         /* complete activations (for MIN/MAX) */
    int64_t net_min, net_max, gross_min, gross_max, call_min, call_max;
    int64_t period_sum, period_n, period_min, period_max;
    int64_t outside_sum, outside_n, outside_min, outside_max;
} pv_stat_acc;

/* Per-frame part of a call stack entry. */
typedef struct pv_stat_frame {
    int64_t entry_time; /* time of the E; the recording start for implicit frames */
    int64_t entry_run;  /* running clock of the context at entry */
    int64_t net;        /* net time accumulated by this frame */
    int64_t active_run; /* running clock when the frame last became active */
    bool active;
    bool implicit;
} pv_stat_frame;

typedef struct pv_stats {
    int64_t lo, hi;   /* the range: [from, to] or unbounded */
    bool ranged;      /* lo or hi bounds it: without, the checks below are no-ops */
    int64_t start;    /* recording start (time of the first event) */
    bool all_running; /* contexts run in parallel (cores) or are unknown */
    int64_t *run;     /* per context: running time accumulated until `since` */
    size_t run_count, run_cap;
    uint16_t running; /* PV_TL_NO_CONTEXT: none yet */
    int64_t since;
    pv_stat_acc *accs;
    size_t acc_count, acc_cap;
    uint32_t *slot; /* [area * stride + context] -> acc + 1 (function/line areas) */
    size_t slot_areas, stride;
    uint32_t *data_slot; /* [area] -> acc + 1 (data, state, AUX areas) */
    size_t data_slot_cap;
    /* current state of each state variable: state key -> tracker */
    pv_hashmap state_map;
    uint32_t *state_area; /* tracker -> index area of the current state, PV_WI_NONE */
    int64_t *state_since;
    uint32_t state_cache_key[16], state_cache_tracker[16]; /* in front of state_map */
    uint32_t *state_key_of;                                /* tracker -> its state key */
    int64_t *state_first; /* tracker -> the time of its first state entry */
    size_t state_count, state_cap;
} pv_stats;

void pv_stats_init(pv_stats *st, const pv_tl_options *o, int64_t start, bool all_running);
void pv_stats_free(pv_stats *st);
/* Makes room for `count` contexts (their running clocks start at 0). */
void pv_stats_set_context_count(pv_stats *st, size_t count);
/* Context `c` becomes the running one at time t (ignored with all_running). */
void pv_stats_switch(pv_stats *st, uint16_t c, int64_t t);
/* The accumulator of a function/line area in a context (created on first use). */
uint32_t pv_stats_acc_slow(pv_stats *st, uint32_t area, uint16_t context);
static inline uint32_t pv_stats_acc(pv_stats *st, uint32_t area, uint16_t context)
{
    if (area < st->slot_areas && context < st->stride) {
        uint32_t s = st->slot[(size_t)area * st->stride + context];
        if (s)
            return s - 1;
    }
    return pv_stats_acc_slow(st, area, context);
}
/* The accumulator of a data/state/AUX area. */
uint32_t pv_stats_data_acc(pv_stats *st, uint32_t area);

/* The events, already interpreted by the stack machine (the ones of every
 * event inline, below: they run in the pass's loop). */
void pv_stats_implicit(pv_stats *st, uint32_t acc, pv_stat_frame *f, bool active);
/* State variable `state_key` enters the state area `area` at t. */
void pv_stats_state(pv_stats *st, uint32_t state_key, uint32_t area, int64_t t);
/* Accumulator `area`/`context` when it exists (never creates one). */
bool pv_stats_find(const pv_stats *st, uint32_t area, uint16_t context, uint32_t *acc);
/* The time split (docs/winidea-model.md "Speed: the timeline in two halves"):
 * adds `b`, the statistics of a second half, to `st`, those of the first.
 * b's running clocks started at zero at the split; base[c] is run(c) of the
 * first half there (0 when every context runs all the time), which turns
 * b's clock readings into whole-timeline ones.  The caller has replayed onto
 * `st` every event of the second half on a frame of the first, and checked
 * that no accumulator of b began an activation while one of the first half
 * was still open.  Returns the accumulator of `st` for each of b's
 * (free it). */
uint32_t *pv_stats_merge(pv_stats *st, const pv_stats *b, const int64_t *base);
/* Closes the open states at `end` and writes the rows into ix->stats. */
void pv_stats_finish(pv_stats *st, pv_timeline_index *ix, int64_t end);

/* ---- the statistics of every event, inline in the pass's loop (the
 * vocabulary: statistics.c) */

static inline int64_t pv_stat_clock(const pv_stats *st, int64_t t)
{
    if (!st->ranged)
        return t;
    return t < st->lo ? st->lo : t > st->hi ? st->hi : t;
}

static inline bool pv_stat_in_range(const pv_stats *st, int64_t t)
{
    return !st->ranged || (t >= st->lo && t <= st->hi);
}

/* run(c, t): time c has been running since the recording start, in range. */
static inline int64_t pv_stat_run(const pv_stats *st, uint16_t c, int64_t t)
{
    if (st->all_running)
        return pv_stat_clock(st, t) - pv_stat_clock(st, st->start);
    int64_t r = c < st->run_count ? st->run[c] : 0;
    if (c == st->running)
        r += pv_stat_clock(st, t) - pv_stat_clock(st, st->since);
    return r;
}

/* run(c, t): the running time of context c from the recording start to t,
 * in range. */
static inline int64_t pv_stats_run(const pv_stats *st, uint16_t c, int64_t t)
{
    return pv_stat_run(st, c, t);
}

static inline void pv_stat_min_max(int64_t v, bool first, int64_t *min, int64_t *max)
{
    if (first || v < *min)
        *min = v;
    if (first || v > *max)
        *max = v;
}

static inline void pv_stats_entry(pv_stats *st, uint32_t acc, pv_stat_frame *f, int64_t t)
{
    pv_stat_acc *a = &st->accs[acc];
    bool in = pv_stat_in_range(st, t);
    if (in)
        a->count++;
    /* period: E to the next E, both ends inside the range, not clipped */
    if (a->has_last_entry && in && pv_stat_in_range(st, a->last_entry)) {
        int64_t p = t - a->last_entry;
        pv_stat_min_max(p, a->period_n == 0, &a->period_min, &a->period_max);
        a->period_sum += p;
        a->period_n++;
    }
    if (!a->has_last_entry)
        a->first_entry = t;
    a->has_last_entry = true;
    a->last_entry = t;
    /* outside: the X that left the area to this E, both inside the range */
    if (a->has_last_exit && in && pv_stat_in_range(st, a->last_exit)) {
        int64_t o = t - a->last_exit;
        pv_stat_min_max(o, a->outside_n == 0, &a->outside_min, &a->outside_max);
        a->outside_sum += o;
        a->outside_n++;
    }
    a->has_last_exit = false;

    int64_t r = pv_stat_run(st, a->context, t);
    f->entry_time = t;
    f->entry_run = r;
    f->net = 0;
    f->active = true;
    f->active_run = r;
    f->implicit = false;
    if (a->inside_n++ == 0) {
        a->inside_run0 = r;
        a->inside_clock0 = pv_stat_clock(st, t);
    }
    if (a->active_n++ == 0)
        a->active_run0 = r;
}

static inline void pv_stats_suspend(pv_stats *st, uint32_t acc, pv_stat_frame *f, int64_t t)
{
    pv_stat_acc *a = &st->accs[acc];
    if (!f->active)
        return;
    int64_t r = pv_stat_run(st, a->context, t);
    f->net += r - f->active_run;
    f->active = false;
    if (--a->active_n == 0)
        a->net += r - a->active_run0;
}

static inline void pv_stats_resume(pv_stats *st, uint32_t acc, pv_stat_frame *f, int64_t t)
{
    pv_stat_acc *a = &st->accs[acc];
    if (f->active)
        return;
    int64_t r = pv_stat_run(st, a->context, t);
    f->active = true;
    f->active_run = r;
    if (a->active_n++ == 0)
        a->active_run0 = r;
}

/* Ends a frame at t.  `matched`: by its own X (else popped by a mismatch or
 * closed at the end).  Stores the frame's net and gross time in the range. */
static inline void pv_stats_exit(pv_stats *st, uint32_t acc, pv_stat_frame *f, int64_t t,
                                 bool matched, int64_t *net, int64_t *gross)
{
    pv_stats_suspend(st, acc, f, t);
    pv_stat_acc *a = &st->accs[acc];
    int64_t r = pv_stat_run(st, a->context, t);
    int64_t frame_gross = r - f->entry_run;
    int64_t frame_call = pv_stat_clock(st, t) - pv_stat_clock(st, f->entry_time);
    if (--a->inside_n == 0) {
        a->gross += r - a->inside_run0;
        a->call += pv_stat_clock(st, t) - a->inside_clock0;
        if (matched) {
            a->has_last_exit = true;
            a->last_exit = t;
        }
    }
    /* MIN/MAX: complete activations only (its own E and X, both in range) */
    if (matched && !f->implicit && pv_stat_in_range(st, f->entry_time) && pv_stat_in_range(st, t)) {
        bool first = a->complete == 0;
        pv_stat_min_max(f->net, first, &a->net_min, &a->net_max);
        pv_stat_min_max(frame_gross, first, &a->gross_min, &a->gross_max);
        pv_stat_min_max(frame_call, first, &a->call_min, &a->call_max);
        a->complete++;
    }
    *net = f->net;
    *gross = frame_gross;
}

static inline void pv_stats_write(pv_stats *st, uint32_t area, int64_t t)
{
    uint32_t acc = area < st->data_slot_cap && st->data_slot[area]
                       ? st->data_slot[area] - 1
                       : pv_stats_data_acc(st, area); /* may move st->accs */
    if (pv_stat_in_range(st, t)) {
        st->accs[acc].count++;
        st->accs[acc].in_range = true;
    }
}

#endif
