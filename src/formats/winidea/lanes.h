/*
 * lanes.h - the lane of one winIDEA area over time (docs/model.md "Area
 * lanes", docs/winidea-model.md "Area lanes"): a function's or line's
 * activity, a variable's (state's, AUX area's) value, as a list of
 * transitions with prefix sums, so that what the area did in any time
 * bucket is two binary searches, at every zoom level.  Built from the
 * complete index in steps of a bounded amount of work (a viewer builds it
 * between key presses): a pass over the calls (functions) and one over the
 * events that reads only the index's area of each event.
 */
#ifndef PROFVIEW_WINIDEA_LANES_H
#define PROFVIEW_WINIDEA_LANES_H

#include "formats/winidea/timeline.h"
#include "profview/hooks.h"

#define PV_WI_LANE_B1 64u
#define PV_WI_LANE_B2 4096u
#define PV_WI_LANE_CUM 64u /* steps per stored prefix sum */

enum { PV_WI_LANE_NONE = 0, PV_WI_LANE_SUSPENDED = 1, PV_WI_LANE_ACTIVE = 2 };

typedef struct pv_wi_lane {
    uint32_t handle;
    int kind;      /* pv_area_lane */
    uint32_t area; /* the index area named by the lane (the first with the handle) */
    /* Transitions in time order: from time[i] on the lane is state[i]
     * (ACTIVITY) or value[i] with label_area[i] (VALUE; PV_WI_NONE: a
     * number); before time[0] it is not entered / has no value. */
    size_t n;
    int64_t *time;
    uint8_t *state;
    /* ACTIVITY: ns active / suspended before step i * PV_WI_LANE_CUM */
    int64_t *cum_active, *cum_suspended;
    double *value;
    uint32_t *label_area;
    double lo, hi; /* VALUE: the range of the values */
    double *max1, *max2; /* VALUE: the largest of each block of PV_WI_LANE_B1 / B2 values */
    /* Occurrences in event order: the entry event of each call (functions),
     * each hit (lines), each change (values); their lengths in ns (a call's
     * gross time) only while building: kept are the longest and shortest. */
    size_t occ_count;
    uint32_t *occ_event;
    int64_t *occ_length;
    size_t longest, shortest; /* occurrence indices, SIZE_MAX when none */
    struct lane_job *job;     /* the build in progress (lanes.c), NULL once ready */
} pv_wi_lane;

/* The kind of lane of the area(s) with `handle` (pv_area_lane) and the
 * index area naming it, without building anything; NONE when it has none
 * or the index is not complete. */
int pv_wi_lane_kind(const pv_timeline_index *ix, uint32_t handle, uint32_t *area);
/* Begins the lane of `handle` (nothing built yet: pv_wi_lane_step), or
 * NULL when it has none (the index must be complete).  `area_events`
 * (NULL: unknown) counts the events of each index area over the whole
 * timeline: the lane's arrays are then sized once, never copied while they
 * grow.  Free with pv_wi_lane_free, also unfinished. */
pv_wi_lane *pv_wi_lane_begin(const pv_timeline_index *ix, uint32_t handle,
                             const uint32_t *area_events);
/* About `budget` more units of work (events, calls, steps) on the lane;
 * true once it is ready (then the other functions may be called). */
bool pv_wi_lane_step(const pv_timeline_index *ix, pv_wi_lane *l, size_t budget);
/* Units done and in all (done == total once ready). */
void pv_wi_lane_progress(const pv_wi_lane *l, uint64_t *done, uint64_t *total);
/* begin + step until ready: the lane of `handle`, or NULL. */
pv_wi_lane *pv_wi_lane_build(const pv_timeline_index *ix, uint32_t handle,
                             const uint32_t *area_events);
void pv_wi_lane_free(pv_wi_lane *l);
/* What the lane did in [t0, t1). */
void pv_wi_lane_sample(const pv_timeline_index *ix, const pv_wi_lane *l, int64_t t0, int64_t t1,
                       pv_lane_sample *out);
/* The event of an occurrence relative to event `event` (pv_area_jump), or
 * SIZE_MAX. */
size_t pv_wi_lane_jump(const pv_wi_lane *l, size_t event, int which);
/* Bytes the lane holds (for the benchmark). */
size_t pv_wi_lane_memory(const pv_wi_lane *l);

#endif
