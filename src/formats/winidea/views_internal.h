/*
 * views_internal.h - what the files of the winIDEA result set share (private
 * to src/formats/winidea): the model behind the views (the data, its index
 * and the views built so far), and the helpers of one file that another
 * calls.  views.c builds the set; each views_*.c builds a family of views,
 * each hooks*.c answers a family of capability hooks (profview/hooks.h).
 */
#ifndef PROFVIEW_WI_VIEWS_INTERNAL_H
#define PROFVIEW_WI_VIEWS_INTERNAL_H

#include <pthread.h>

#include "profview/hooks.h"
#include "profview/table.h"
#include "formats/winidea/cache.h"
#include "formats/winidea/lanes.h"
#include "formats/winidea/timeline.h"
#include "formats/winidea/winidea.h"

/* Detail views that list events stop here (a call of main holds them all). */
#define WI_DETAIL_EVENT_LIMIT 100000u

#define WI_LANE_CACHE 16

typedef struct wi_model {
    pv_wi_data *d;
    pv_timeline_index ix;
    bool indexed;
    bool failed;  /* the index could not be finished: its views stay as they are */
    bool stepped; /* a viewer indexes in slices (pv_wi_file_index_step): reads never advance */
    pv_file *f;
    pv_view *timeline;   /* the set's timeline and call-trace views (related rows) */
    pv_view *call_trace;
    uint32_t *area_first; /* per index area: its first event in the window, PV_WI_NONE;
                             built after the index, in steps for a viewer */
    uint32_t *area_events;  /* per index area: its events in the window (the same pass;
                               sizes the lanes' arrays, lanes.h) */
    size_t area_first_next; /* the event its pass looks at next */
    bool area_first_done;
    /* A viewer's lists for the Details pane (wi_area_lists_step, after
     * area_first; docs/winidea-model.md "The viewer's area lists"): the
     * calls of each area in call order (area a's are call_list[call_start[a]
     * .. call_start[a + 1])); per state key of the data areas (a group: a
     * variable and its states), the window's events of its variable in
     * event order (group data_group[a]'s are data_list[data_start[g] ..
     * data_start[g + 1])) and, when the key has states, its changes (an E
     * on a state, a W on the variable) in event order (change_list[
     * change_start[g] .. change_end[g])); and per state area the changes
     * that enter its value, as positions in change_list (state_list[
     * state_start[a] .. state_start[a + 1]), in order).  NULL until built:
     * then the details scan. */
    uint32_t *call_start, *call_list;
    uint32_t *data_group, *data_start, *data_list;
    uint32_t *change_start, *change_end, *change_list;
    uint32_t *state_start, *state_list;
    uint32_t *change_state; /* while filling: per change, 1 + the state area it enters, or 0 */
    bool *group_states;     /* per group: the key has a state area */
    uint32_t groups;
    uint32_t *lists_pos;    /* the fill's next slot per area or group */
    size_t lists_next;      /* the call, event or change its phase looks at next */
    enum {
        WI_LISTS_EDGES, /* the pairs of callers/callees (wi_edges_step) */
        WI_LISTS_COUNT_CALLS,
        WI_LISTS_FILL_CALLS,
        WI_LISTS_FILL_EVENTS,
        WI_LISTS_FILL_STATES,
        WI_LISTS_DONE
    } lists_phase;
    /* Lanes of the areas the viewer pinned (lanes.c), built on first use;
     * the oldest is dropped when more are asked for. */
    pv_wi_lane *lanes[WI_LANE_CACHE];
    size_t lane_next;
    /* The index cache (docs/cache.md): the key when caching, written once
     * the index is complete; the file's diagnostics before the index. */
    pv_cache_key *cache_key;
    uint64_t cache_max_bytes;
    size_t diag_from, diag_warnings, diag_errors;
    struct wi_cache_job *cache_job; /* a write in progress on cache_thread */
    bool cache_kept; /* read from the cache, written, or its write under way (index_cached) */
    pthread_t cache_thread;
    /* Caller -> callee area pairs of the calls with their hits and gross
     * times (one pass over the calls into a hash, wi_edges_step), so that
     * the Details pane following the Routines cursor does not pass over
     * millions of calls at every row: a viewer's lists make them in slices
     * (docs/winidea-model.md "The viewer's area lists"), else the first
     * callers/callees detail in one piece. */
    struct wi_edge *edges;
    size_t edge_count;
    bool edges_done;
    struct wi_edge *edge_tab; /* the hash while the pass runs */
    size_t edge_cap, edge_used, edge_next;
} wi_model;

typedef struct wi_edge {
    uint32_t caller, callee;
    int64_t hits, time;
} wi_edge;

/* The call-trace view's columns (views_calls.c). */
enum {
    CT_ID,
    CT_PARENT,
    CT_CALL_NO,
    CT_ROUTINE,
    CT_DEPTH,
    CT_THREAD,
    CT_TIME,
    CT_TWC,
    CT_CALL,
    CT_ENTRY,
    CT_EXIT,
    CT_HANDLE,
    CT_IMPLICIT,
    CT_MODULE,
    CT_COLUMNS
};

/* ---- timeline: a virtual view, one row per event of the window */

enum {
    TL_ID,
    TL_INDEX,
    TL_TIME,
    TL_CONTEXT,
    TL_CORE,
    TL_HANDLE,
    TL_NAME,
    TL_EVENT,
    TL_VALUE,
    TL_DEPTH,
    TL_TYPE,
    TL_DELTA,
    TL_VALUE_F64, /* only when the file has F64 areas (docs/winidea-model.md) */
    TL_COLUMNS
};

typedef struct wi_events_impl {
    wi_model *m;
    size_t first, count;
} wi_events_impl;

enum { CTX_ID, CTX_HANDLE, CTX_NAME, CTX_EVENTS, CTX_CALLS, CTX_SOURCE, CTX_COLUMNS };

enum {
    LINE_ID,
    LINE_HANDLE,
    LINE_NAME,
    LINE_LINE,
    LINE_FUNCTION,
    LINE_FILE,
    LINE_COUNT,
    LINE_COLUMNS
};

enum {
    ST_ID,
    ST_HANDLE,
    ST_TYPE,
    ST_NAME,
    ST_VALUE,
    ST_CONTEXT,
    ST_COUNT,
    ST_T0,
    ST_COLUMNS = ST_T0 + PV_WI_STAT_COUNT
};

/* A detail view over a run of the viewer's area lists (docs/winidea-model.md
 * "The viewer's area lists"): row r is call or event list[r]; nothing is
 * made when it opens. */
typedef struct wi_listed {
    const wi_model *m;
    const uint32_t *list;
    size_t count, listed; /* rows; entries in the list (more when cut) */
    bool f64;             /* value-history: an F64 area's columns */
    /* a state's value-history: list[r] is a position in the key's changes
     * changes[.. changes_end) */
    const uint32_t *changes;
    size_t changes_end;
} wi_listed;

enum { DATA_ID, DATA_HANDLE, DATA_TYPE, DATA_NAME, DATA_VALUE, DATA_COUNT, DATA_NET, DATA_COLUMNS };

enum {
    RT_ID,
    RT_ROUTINE,
    RT_MODULE,
    RT_HITS,
    RT_TIME,
    RT_TWC,
    RT_TIME_MIN,
    RT_TIME_MAX,
    RT_TIME_AVG,
    RT_TWC_MIN,
    RT_TWC_MAX,
    RT_TWC_AVG,
    RT_CALL,
    RT_HANDLE,
    RT_COLUMNS
};

/* views.c */
void wi_model_complete(wi_model *m);
void wi_model_reach(wi_model *m, size_t upto);
uint32_t wi_call_area(const pv_timeline_index *ix, size_t call);
uint16_t wi_call_context(const pv_timeline_index *ix, size_t call);
int64_t wi_event_time(const pv_timeline_index *ix, size_t i);
pv_view *wi_virtual_view(const char *id, const char *title, const pv_column *cols, size_t n,
                         const pv_view_ops *ops, void *impl);
void wi_virtual_destroy(pv_view *v);
void wi_cell_int(pv_cell *out, pv_type type, int64_t v);
void wi_cell_uint(pv_cell *out, pv_type type, uint64_t v);
double wi_data_f64(uint64_t data);
void wi_cell_str(pv_cell *out, const char *s);
void wi_cell_absent(pv_cell *out, pv_type type);
const char *wi_event_name(unsigned kind);
extern const pv_view_ops wi_lazy_ops;

/* views_tables.c */
pv_view *wi_summary_view(const pv_file *f, const wi_model *m);
extern const pv_column wi_context_columns[];
pv_view *wi_contexts_view(const wi_model *m);
extern const pv_column wi_line_columns[];
pv_view *wi_lines_view(const wi_model *m);
extern pv_column wi_stat_columns[];
void wi_init_stat_columns(void);
void wi_stat_fill(pv_table *t, size_t r, const pv_timeline_index *ix, size_t i);
extern const pv_detail_def wi_statistics_details[];
extern const size_t wi_statistics_detail_count;
int64_t wi_call_time_within(const pv_timeline_index *ix, size_t k);
size_t wi_listed_rows(const pv_view *v);
pv_view *wi_listed_view(const wi_model *m, const uint32_t *list, size_t listed, bool f64,
                        const char *id, const char *title, const pv_column *cols,
                        size_t n, const pv_view_ops *ops);
pv_view *wi_statistics_view(wi_model *m);
pv_view *wi_statistics_exported_view(const wi_model *m);

/* views_data.c */
extern const pv_column wi_data_columns[];
extern const pv_detail_def wi_data_details[];
extern const size_t wi_data_detail_count;
bool wi_is_state_type(unsigned type);
pv_view *wi_value_history_of(const wi_model *m, uint32_t area);
pv_view *wi_data_view(wi_model *m);

/* views_timeline.c */
pv_view *wi_timeline_view(wi_model *m);

/* views_calls.c */
int64_t wi_call_entry_time(const pv_timeline_index *ix, size_t k);
int64_t wi_call_exit_time(const pv_timeline_index *ix, size_t k);
extern const pv_view_ops wi_call_trace_ops;
pv_view *wi_call_trace_view(wi_model *m);

/* views_source.c (docs/source.md) */
extern const pv_detail_def wi_line_details[];
extern const size_t wi_line_detail_count;
pv_view *wi_line_source(void *ctx, const pv_view *owner, size_t detail, size_t row);
pv_view *wi_routine_source(const wi_model *m, uint32_t area);

/* views_routines.c */
extern const pv_column wi_routine_columns[];
extern const pv_detail_def wi_routine_details[];
extern const size_t wi_routine_detail_count;
bool wi_edges_step(wi_model *m, size_t budget);
pv_view *wi_routines_view(wi_model *m);

/* hooks.c */
bool wi_model_ready(const wi_model *m);
wi_model *wi_view_model(const pv_view *v);
bool wi_row_id(const pv_view *v, size_t row, int64_t *id);
bool wi_timeline_ref(const wi_model *m, size_t i, pv_row_ref *out);
bool wi_event_partner(const pv_timeline_index *ix, size_t event, size_t *partner);
bool wi_area_first_step(wi_model *m, size_t budget);
bool wi_area_lists_step(wi_model *m, size_t budget);
bool wi_call_related(wi_model *m, size_t k, pv_relation rel, pv_row_ref *out);
bool wi_event_related(wi_model *m, size_t i, pv_relation rel, pv_row_ref *out);
pv_view *wi_hook_view(wi_model *m, pv_view *v);

/* hooks_timeline.c */
bool wi_viewer_complete(const wi_model *m);
bool wi_waits_for_index(const pv_view *v, bool details);
extern const pv_view_hooks wi_timeline_hooks;

/* hooks_calls.c */
extern const pv_view_hooks wi_events_hooks;
extern const pv_view_hooks wi_calls_hooks;
extern const pv_view_hooks wi_call_trace_hooks;

#endif
