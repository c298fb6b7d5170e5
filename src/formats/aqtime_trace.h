/*
 * aqtime_trace.h - internal to the Function Trace result set (docs/formats.md
 * §5): what its builder (aqtime_trace.c), the call trace view
 * (aqtime_calltree.c) and its capability hooks (aqtime_trace_hooks.c)
 * share.
 */
#ifndef PROFVIEW_AQTIME_TRACE_H
#define PROFVIEW_AQTIME_TRACE_H

#include "aqtime.h"

#define AQ_NONE32 UINT32_MAX

static inline size_t aq_u32_pos(uint32_t v)
{
    return v == AQ_NONE32 ? AQ_NONE : v;
}

typedef struct aq_ft {
    aq_ctx c; /* copy; c.f and c.set are valid during the load only */
    aq_sel threads, calls, meta, routines, routes, stacks, lines, enter, exit, mparams;
    /* per call, 32 bits each (docs/aqtime.md, Scale); AQ_NONE32: none */
    uint32_t *call_thread; /* call -> thread pos */
    uint32_t *call_meta;   /* call -> meta pos */
    uint32_t *call_parent; /* call -> parent call pos (after cycles are broken) */
    size_t col_own, col_wc; /* COL__S, COL__S_WITH_CHILDREN of the calls */
    size_t *routine_meta; /* routines pos -> meta pos */
    size_t *meta_routine; /* meta pos -> routines pos */
    size_t *route_routine;
    size_t *route_meta;
    size_t *stack_route;
    size_t *stack_meta;
    size_t *line_meta;
    size_t *enter_call, *exit_call;
    size_t *mparam_meta;
    /* Capability hooks (profview/hooks.h, docs/aqtime.md "In the viewer"):
     * the call-trace view and, built on first use, its rows by call and the
     * first row of every routine. */
    pv_view *trace_view;
    struct aq_ft_dctx *trace_rows; /* call-trace row -> call */
    size_t *call_row;              /* call -> call-trace row */
    size_t *meta_first_row;        /* meta pos (meta.n: unknown) -> first row, AQ_NONE */
    char **lane_names;             /* thread pos -> "Thread <OS id>" */
    size_t lane_count;
} aq_ft;

/* ---- detail plumbing: each table with details keeps its rows' sources */

enum aq_ft_kind { AQ_FT_CALLS, AQ_FT_ROUTINES, AQ_FT_ROUTES };

typedef struct aq_ft_dctx {
    aq_ft *ft;
    enum aq_ft_kind kind;
    size_t *src; /* view row -> position in the kind's selection */
    size_t n;
    size_t cap;
    /* the call trace (a view of its own): its row -> call array instead */
    const uint32_t *pos32;
} aq_ft_dctx;

/* The position in the kind's selection of view row `row` (< d->n). */
static inline size_t aq_ft_dctx_pos(const aq_ft_dctx *d, size_t row)
{
    return d->pos32 ? d->pos32[row] : d->src[row];
}

aq_ft_dctx *aq_ft_dctx_new(aq_ft *ft, enum aq_ft_kind kind);
void aq_ft_dctx_free(void *p);
/* The call trace's details (parameters on enter and on exit). */
extern const pv_detail_def aq_ft_call_details[2];

/* A call's own time and time with children, in the file's unit (cycles). */
bool aq_ft_own(const aq_ft *ft, size_t call, int64_t *v);
bool aq_ft_wc(const aq_ft *ft, size_t call, int64_t *v);
/* A routines-view id for a meta routine: its ROUTINES ID, else its META ID. */
bool aq_ft_routine_id(const aq_ft *ft, size_t meta, int64_t *id);
/* The parameters on enter (on exit) of a call: a detail view. */
pv_view *aq_ft_parameters(aq_ft *ft, bool on_exit, size_t call);

/* What the call trace gathers per routine (its META_ROUTINES position). */
typedef struct aq_routine_acc {
    size_t calls;
    __int128 own, wc_once;
    int64_t min, max;
    bool has_own;
} aq_routine_acc;

/* ---- the call trace (aqtime_calltree.c) */

/* Builds the call trace view into the result set, and gathers the
 * routines' figures into acc (meta.n + 1 entries, the last: no routine). */
void aq_ft_call_trace(aq_ft *ft, aq_routine_acc *acc);

/* ---- capability hooks (aqtime_trace_hooks.c) */

/* Gives a table (a view) of the result set its hooks; d is its rows'
 * sources (the hooks' context). */
void aq_ft_hook(pv_table *t, aq_ft_dctx *d);
void aq_ft_hook_view(pv_view *v, aq_ft_dctx *d);

#endif
