/* views.c - the winIDEA result set: indexes the raw data
 * (src/formats/winidea/timeline.c) and builds the views (docs/cli.md).
 *
 * `timeline` and `call-trace` are virtual views over the index (50 M events
 * are never materialised); the other views are small pv_tables. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The cache write of a viewer's index, on a thread of its own: a complete
 * index is never written to again, and the warnings are a copy. */
typedef struct wi_cache_job {
    pv_cache_key *key;
    const pv_timeline_index *ix;
    int version;
    pv_diag diag;
    uint64_t max_bytes;
} wi_cache_job;

static void *wi_cache_job_run(void *arg)
{
    wi_cache_job *j = arg;
    pv_wi_cache_save(j->key, j->ix, j->version, &j->diag, 0, 0, 0, j->max_bytes);
    return NULL;
}

static void wi_cache_job_free(wi_cache_job *j)
{
    pv_cache_key_free(j->key);
    free(j->key);
    pv_diag_free(&j->diag);
    free(j);
}

/* Waits for the viewer's cache write, if any. */
static void wi_model_cache_join(wi_model *m)
{
    if (!m->cache_job)
        return;
    pthread_join(m->cache_thread, NULL);
    wi_cache_job_free(m->cache_job);
    m->cache_job = NULL;
}

/* Writes the index to the cache once it is complete (a full index only:
 * never one that failed or was cancelled).  A viewer that indexes in
 * slices writes on a thread, so that no key waits for hundreds of MB. */
static void wi_model_cache_save(wi_model *m)
{
    if (!m->cache_key || !m->ix.complete || m->failed)
        return;
    pv_cache_key *key = m->cache_key;
    m->cache_key = NULL;
    if (m->stepped) {
        wi_cache_job *j = pv_xcalloc(1, sizeof *j);
        j->key = key;
        j->ix = &m->ix;
        j->version = m->d->timeline.version;
        j->max_bytes = m->cache_max_bytes;
        pv_diag_init(&j->diag);
        const pv_diag *d = &m->f->diag;
        for (size_t i = m->diag_from; i < d->entry_count; i++)
            pv_diag_add(&j->diag, d->entries[i].severity, "%s", d->entries[i].text);
        j->diag.warnings = d->warnings - m->diag_warnings;
        j->diag.errors = d->errors - m->diag_errors;
        if (pthread_create(&m->cache_thread, NULL, wi_cache_job_run, j) == 0) {
            m->cache_job = j;
            return;
        }
        wi_cache_job_run(j); /* no thread: write it here */
        wi_cache_job_free(j);
        return;
    }
    pv_wi_cache_save(key, &m->ix, m->d->timeline.version, &m->f->diag, m->diag_from,
                     m->diag_warnings, m->diag_errors, m->cache_max_bytes);
    pv_cache_key_free(key);
    free(key);
}

/* The whole index (deferred loads finish it when a view needs it). */
static void wi_model_complete(wi_model *m)
{
    if (!m->ix.complete) {
        pv_timeline_index_finish(&m->ix);
        wi_model_cache_save(m);
    }
}

/* Events [0, upto) indexed; sequential readers advance in large steps. */
static void wi_model_reach(wi_model *m, size_t upto)
{
    if (upto > m->ix.indexed) {
        size_t step = m->ix.indexed + (1u << 16);
        pv_timeline_index_advance(&m->ix, upto > step ? upto : step);
        /* A reader that went through every event (`cat` of the whole
         * timeline) has paid for the full index: finish it, so that it is
         * cached and the next open is instant (docs/cache.md). */
        if (!m->stepped && m->ix.indexed >= m->ix.event_count)
            wi_model_complete(m);
    }
}

static void wi_model_destroy(void *p)
{
    wi_model *m = p;
    wi_model_cache_join(m); /* before the index it reads goes */
    /* the index and the mapped BIN: their pages back on two threads */
    pv_span spans[16];
    size_t ns = m->indexed ? pv_timeline_index_spans(&m->ix, spans, 15) : 0;
    if (m->d->bin.mapped)
        spans[ns++] = (pv_span){(void *)m->d->bin.data, m->d->bin.size};
    pv_release_spans(spans, ns);
    if (m->indexed)
        pv_timeline_index_free(&m->ix);
    free(m->area_first);
    free(m->area_events);
    free(m->call_start);
    free(m->call_list);
    free(m->data_group);
    free(m->data_start);
    free(m->data_list);
    free(m->change_start);
    free(m->change_end);
    free(m->change_list);
    free(m->state_start);
    free(m->state_list);
    free(m->change_state);
    free(m->group_states);
    free(m->lists_pos);
    free(m->edges);
    free(m->edge_tab);
    if (m->cache_key) {
        pv_cache_key_free(m->cache_key);
        free(m->cache_key);
    }
    for (size_t k = 0; k < WI_LANE_CACHE; k++)
        pv_wi_lane_free(m->lanes[k]);
    pv_wi_data_free(m->d);
    free(m->d);
    free(m);
}

static pv_view *wi_hook_view(wi_model *m, pv_view *v);
static const pv_file_hooks wi_file_hooks;

static uint32_t wi_call_area(const pv_timeline_index *ix, size_t call)
{
    return pv_tl_event_area(ix, ix->call_entry[call] & ~PV_TL_IMPLICIT_CALL);
}

static uint16_t wi_call_context(const pv_timeline_index *ix, size_t call)
{
    return pv_tl_event_context(ix, ix->call_entry[call] & ~PV_TL_IMPLICIT_CALL);
}

static int64_t wi_event_time(const pv_timeline_index *ix, size_t i)
{
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    return e.time;
}

/* A virtual view: columns copied, ops and impl given. */
static pv_view *wi_virtual_view(const char *id, const char *title, const pv_column *cols, size_t n,
                                const pv_view_ops *ops, void *impl)
{
    pv_view *v = pv_xcalloc(1, sizeof *v);
    v->ops = ops;
    v->id = pv_xstrdup(id);
    v->title = pv_xstrdup(title);
    v->columns = pv_xcalloc(n, sizeof *v->columns);
    memcpy(v->columns, cols, n * sizeof *cols);
    v->column_count = n;
    v->impl = impl;
    return v;
}

static void wi_virtual_destroy(pv_view *v)
{
    free(v->impl);
    free(v->columns);
    free(v->id);
    free(v->title);
    free(v);
}

static void wi_cell_int(pv_cell *out, pv_type type, int64_t v)
{
    out->type = type;
    out->present = true;
    out->v.i = v;
}

static void wi_cell_uint(pv_cell *out, pv_type type, uint64_t v)
{
    out->type = type;
    out->present = true;
    out->v.u = v;
}

/* docs/formats.md §2: the DATA of an F64 area is an IEEE double, all 64 bits. */
static double wi_data_f64(uint64_t data)
{
    double f;
    memcpy(&f, &data, sizeof f);
    return f;
}

static void wi_cell_str(pv_cell *out, const char *s)
{
    out->type = PV_TYPE_STRING;
    out->present = true;
    out->v.s.ptr = s;
    out->v.s.len = strlen(s);
}

static void wi_cell_absent(pv_cell *out, pv_type type)
{
    out->type = type;
    out->present = false;
    out->v.u = 0;
}

static const char *wi_event_name(unsigned kind)
{
    static const char *const names[] = {"X", "S", "R", "E", "W"};
    return kind < 5 ? names[kind] : "?";
}

/* ---- summary */

static void wi_summary_add(pv_table *t, const char *key, const char *fmt, ...) PV_PRINTF(3, 4);
static void wi_summary_add(pv_table *t, const char *key, const char *fmt, ...)
{
    char value[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    pv_summary_add(t, key, value);
}

static const char *wi_context_source_name(pv_tl_context_source s)
{
    switch (s) {
    case PV_TL_CONTEXT_TEXT:
        return "timeline %CONTEXT%";
    case PV_TL_CONTEXT_AREA:
        return "context area";
    case PV_TL_CONTEXT_CORE:
        return "core index";
    case PV_TL_CONTEXT_UNKNOWN:
        return "unknown";
    }
    return "?";
}

static pv_view *wi_summary_view(const pv_file *f, const wi_model *m)
{
    const pv_wi_data *d = m->d;
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_summary_new();
    wi_summary_add(t, "format", "%s", f->format ? f->format : "winidea");
    wi_summary_add(t, "file", "%s", d->text_path ? d->text_path : f->path);
    if (d->bin_path)
        wi_summary_add(t, "timeline file", "%s", d->bin_path);
    if (d->has_total_time)
        pv_summary_add_time(t, "total time", d->total_time);
    wi_summary_add(t, "contexts", "%zu", ix->context_count);
    wi_summary_add(t, "context source", "%s", wi_context_source_name(ix->context_source));
    if (ix->context_area != PV_WI_NONE)
        wi_summary_add(t, "context area", "%s (0x%08" PRIX32 ")",
                       pv_tl_area_name(ix, ix->context_area), ix->areas[ix->context_area].handle);
    wi_summary_add(t, "areas", "%zu", d->area_count);
    size_t implicit = ix->area_count - d->area_count;
    if (implicit)
        wi_summary_add(t, "areas not in the mapping", "%zu", implicit);
    wi_summary_add(t, "events", "%zu", d->timeline.count);
    if (d->timeline.count) {
        wi_summary_add(t, "timeline record version", "%d.%d", d->timeline.version / 10,
                       d->timeline.version % 10);
        pv_summary_add_time(t, "first event time", ix->time_first);
        pv_summary_add_time(t, "last event time", ix->time_last);
        pv_summary_add_time(t, "recorded time", ix->time_last - ix->time_first);
    }
    if (ix->has_from)
        pv_summary_add_time(t, "window from", ix->from);
    if (ix->has_to)
        pv_summary_add_time(t, "window to", ix->to);
    if (ix->has_from || ix->has_to)
        wi_summary_add(t, "events in window", "%zu", ix->window_end - ix->window_first);
    wi_summary_add(t, "calls", "%zu", ix->call_count);
    /* every warning of the file (loading and indexing), as `profview info`
     * counts them and the viewer lists them (docs/tui.md "Warnings") */
    wi_summary_add(t, "warnings", "%zu", f->diag.warnings + f->diag.errors);
    return pv_table_view(t);
}

/* ---- contexts */

enum { CTX_ID, CTX_HANDLE, CTX_NAME, CTX_EVENTS, CTX_CALLS, CTX_SOURCE, CTX_COLUMNS };

static const pv_column wi_context_columns[CTX_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"handle", "Handle", PV_TYPE_HEX, 0},
    {"name", "Context", PV_TYPE_STRING, PV_COL_NAME},
    {"events", "Events", PV_TYPE_INT, PV_COL_DESC},
    {"calls", "Calls", PV_TYPE_INT, PV_COL_DESC},
    {"source", "Source", PV_TYPE_STRING, PV_COL_HIDDEN},
};

static pv_view *wi_contexts_view(const wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("contexts", "Contexts", wi_context_columns, CTX_COLUMNS);
    for (size_t c = 0; c < ix->context_count; c++) {
        const pv_tl_context *ctx = &ix->contexts[c];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, CTX_ID, (int64_t)c + 1);
        if (ctx->has_handle)
            pv_table_set_uint(t, r, CTX_HANDLE, ctx->handle);
        pv_table_set_cstr(t, r, CTX_NAME, pv_tl_context_name(ix, (uint16_t)c));
        pv_table_set_int(t, r, CTX_EVENTS, (int64_t)ctx->events);
        pv_table_set_int(t, r, CTX_CALLS,
                         (int64_t)(ix->context_call_start[c + 1] - ix->context_call_start[c]));
        pv_table_set_cstr(t, r, CTX_SOURCE, wi_context_source_name(ix->context_source));
    }
    return pv_table_view(t);
}

/* ---- lines */

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

static const pv_column wi_line_columns[LINE_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"name", "Source line", PV_TYPE_STRING, PV_COL_NAME},
    {"line", "Line", PV_TYPE_INT, 0},
    {"function", "Function", PV_TYPE_STRING, 0},
    {"file", "File", PV_TYPE_STRING, PV_COL_HIDDEN},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
};

static pv_view *wi_lines_view(const wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_wi_data *d = m->d;
    pv_table *t = pv_table_new("lines", "Lines", wi_line_columns, LINE_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        const pv_tl_area *ar = &ix->areas[a];
        if (ar->type != PV_WI_LINE)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, LINE_ID, (int64_t)a + 1);
        pv_table_set_uint(t, r, LINE_HANDLE, ar->handle);
        pv_table_set_cstr(t, r, LINE_NAME, pv_tl_area_name(ix, (uint32_t)a));
        if (ar->has_value)
            pv_table_set_int(t, r, LINE_LINE, (int64_t)ar->value);
        if (ar->parent != PV_WI_NONE)
            pv_table_set_cstr(t, r, LINE_FUNCTION, pv_tl_area_name(ix, ar->parent));
        if (ar->data_area != PV_WI_NONE && d->areas[ar->data_area].file)
            pv_table_set_cstr(t, r, LINE_FILE,
                              pv_strpool_get(&d->pool, d->areas[ar->data_area].file));
        const pv_tl_stat_row *s = pv_timeline_find_stat(ix, (uint32_t)a, PV_TL_NEUTRAL);
        pv_table_set_int(t, r, LINE_COUNT, s ? s->count : 0);
    }
    return pv_table_view(t);
}

/* ---- statistics (recomputed) and statistics-exported */

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

static pv_column wi_stat_columns[ST_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, PV_COL_KEY},
    {"type", "Type", PV_TYPE_STRING, PV_COL_KEY},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
    {"value", "Value", PV_TYPE_HEX, PV_COL_KEY},
    {"context", "Context", PV_TYPE_STRING, PV_COL_KEY},
    {"count", "Count", PV_TYPE_INT, PV_COL_DESC},
};

static void wi_init_stat_columns(void)
{
    static const char *const titles[PV_WI_STAT_COUNT] = {
        "Net",       "Net min",     "Net max",     "Net avg",    "Gross",
        "Gross min", "Gross max",   "Gross avg",   "Call",       "Call min",
        "Call max",  "Call avg",    "Period min",  "Period max", "Period avg",
        "Outside",   "Outside min", "Outside max", "Outside avg"};
    for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
        wi_stat_columns[ST_T0 + k] =
            (pv_column){pv_wi_stat_column[k], titles[k], PV_TYPE_TIME, PV_COL_DESC};
}

static const char *wi_stat_context_label(const pv_timeline_index *ix, uint16_t c)
{
    if (c == PV_TL_NEUTRAL)
        return "Neutral";
    if (c == PV_TL_NO_CONTEXT)
        return "";
    return pv_tl_context_name(ix, c);
}

/* Row r of `t` from statistics row i of the index. */
static void wi_stat_fill(pv_table *t, size_t r, const pv_timeline_index *ix, size_t i)
{
    const pv_tl_stat_row *s = &ix->stats[i];
    const pv_tl_area *a = &ix->areas[s->area];
    pv_table_set_int(t, r, ST_ID, (int64_t)i + 1);
    pv_table_set_uint(t, r, ST_HANDLE, a->handle);
    pv_table_set_cstr(t, r, ST_TYPE, pv_tl_type_name(a->type));
    pv_table_set_cstr(t, r, ST_NAME, pv_tl_area_name(ix, s->area));
    if ((a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE) && a->has_value)
        pv_table_set_uint(t, r, ST_VALUE, a->value);
    pv_table_set_cstr(t, r, ST_CONTEXT, wi_stat_context_label(ix, s->context));
    pv_table_set_int(t, r, ST_COUNT, s->count);
    for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
        pv_table_set_int(t, r, ST_T0 + k, s->t[k]);
}

enum { AC_ID, AC_THREAD, AC_ENTRY, AC_TIME, AC_TWC, AC_CALL, AC_COLUMNS };

static const pv_column wi_area_call_columns[AC_COLUMNS] = {
    {"id", "Call", PV_TYPE_INT, 0},
    {"thread", "Context", PV_TYPE_STRING, PV_COL_NAME},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
    {"time", "Time (net)", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children", "Time with children (gross)", PV_TYPE_TIME, PV_COL_DESC},
    {"call_time", "Call time", PV_TYPE_TIME, PV_COL_DESC},
};

static const pv_detail_def wi_statistics_details[] = {
    {"area-calls", "Calls"},
    {"value-history", "Value history"},
};

static pv_view *wi_value_history_of(const wi_model *m, uint32_t area);
static int64_t wi_call_entry_time(const pv_timeline_index *ix, size_t k);
static int64_t wi_call_exit_time(const pv_timeline_index *ix, size_t k);

/* A call's wall time within the range (its entry to its exit, clipped). */
static int64_t wi_call_time_within(const pv_timeline_index *ix, size_t k)
{
    int64_t from = wi_call_entry_time(ix, k), to = wi_call_exit_time(ix, k);
    if (ix->has_from && from < ix->from)
        from = ix->from;
    if (ix->has_to && to > ix->to)
        to = ix->to;
    return to > from ? to - from : 0;
}

/* One row of area-calls: call k's cells (both the table and the view
 * that reads the viewer's lists below). */
static void wi_area_call_cell(const pv_timeline_index *ix, size_t k, size_t col, pv_cell *out)
{
    switch (col) {
    case AC_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)k + 1);
        return;
    case AC_THREAD:
        wi_cell_str(out, pv_tl_context_name(ix, wi_call_context(ix, k)));
        return;
    case AC_ENTRY:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_entry_time(ix, k));
        return;
    case AC_TIME:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_net(ix, k));
        return;
    case AC_TWC:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_gross(ix, k));
        return;
    default:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_time_within(ix, k));
        return;
    }
}


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

static size_t wi_listed_rows(const pv_view *v)
{
    return ((const wi_listed *)v->impl)->count;
}

/* The view of list[0, listed), cut at the detail limit. */
static pv_view *wi_listed_view(const wi_model *m, const uint32_t *list, size_t listed, bool f64,
                               const char *id, const char *title, const pv_column *cols,
                               size_t n, const pv_view_ops *ops)
{
    wi_listed *l = pv_xmalloc(sizeof *l);
    l->m = m;
    l->list = list;
    l->listed = listed;
    l->count = listed < WI_DETAIL_EVENT_LIMIT ? listed : WI_DETAIL_EVENT_LIMIT;
    l->f64 = f64;
    l->changes = NULL;
    l->changes_end = 0;
    return wi_virtual_view(id, title, cols, n, ops, l);
}

/* area-calls: call list[r] */
static void wi_listed_calls_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *lc = v->impl;
    wi_area_call_cell(&lc->m->ix, lc->list[row], col, out);
}

static const pv_view_ops wi_listed_calls_ops = {
    wi_listed_rows, wi_listed_calls_cell, NULL, NULL, wi_virtual_destroy, NULL,
};

/* The first position of list[lo, hi) (ascending) whose call is >= k. */
static size_t wi_list_lower(const uint32_t *list, size_t lo, size_t hi, size_t k)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The calls of a function area in one context (all contexts for Neutral);
 * `id` is the call's id in `call-trace`. */
static pv_view *wi_area_calls(const wi_model *m, uint32_t area, uint16_t context)
{
    const pv_timeline_index *ix = &m->ix;
    if (m->lists_phase == WI_LISTS_DONE && area < ix->area_count &&
        (context == PV_TL_NEUTRAL || (context < ix->context_count && ix->context_call_start))) {
        /* the area's calls in call order; a context's calls are a block of
         * the calls, so its calls of the area a run of the area's list */
        size_t lo = m->call_start[area], hi = m->call_start[area + 1];
        if (context != PV_TL_NEUTRAL) {
            size_t a = wi_list_lower(m->call_list, lo, hi, ix->context_call_start[context]);
            hi = wi_list_lower(m->call_list, a, hi, ix->context_call_start[context + 1]);
            lo = a;
        }
        return wi_listed_view(m, m->call_list + lo, hi - lo, false, "area-calls", "Calls",
                              wi_area_call_columns, AC_COLUMNS, &wi_listed_calls_ops);
    }
    pv_table *t = pv_table_new("area-calls", "Calls", wi_area_call_columns, AC_COLUMNS);
    for (size_t k = 0; k < ix->call_count; k++) {
        if (wi_call_area(ix, k) != area)
            continue;
        uint16_t c = wi_call_context(ix, k);
        if (context != PV_TL_NEUTRAL && c != context)
            continue;
        if (pv_table_row_count(t) >= WI_DETAIL_EVENT_LIMIT)
            break;
        size_t r = pv_table_add_row(t);
        for (size_t col = 0; col < AC_COLUMNS; col++) {
            pv_cell cell;
            wi_area_call_cell(ix, k, col, &cell);
            if (col == AC_THREAD)
                pv_table_set_str(t, r, col, cell.v.s.ptr, cell.v.s.len);
            else
                pv_table_set_int(t, r, col, cell.v.i);
        }
    }
    return pv_table_view(t);
}

/* Details of a statistics row (docs/cli.md): the area's calls (function
 * rows), or its value history (data rows).  Row i is ix->stats[i]. */
static pv_view *wi_statistics_detail(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)owner;
    const wi_model *m = ctx;
    if (row >= m->ix.stat_count)
        return NULL;
    const pv_tl_stat_row *s = &m->ix.stats[row];
    unsigned type = m->ix.areas[s->area].type;
    bool function = type == PV_WI_FUNCTION || type == PV_WI_LINE;
    wi_model *mm = ctx;
    if (detail == 0)
        return type == PV_WI_FUNCTION ? wi_hook_view(mm, wi_area_calls(m, s->area, s->context))
                                      : NULL;
    return function ? NULL : wi_hook_view(mm, wi_value_history_of(m, s->area));
}

static pv_view *wi_statistics_view(wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("statistics", "Statistics", wi_stat_columns, ST_COLUMNS);
    pv_table_reserve(t, ix->stat_count);
    for (size_t i = 0; i < ix->stat_count; i++)
        wi_stat_fill(t, pv_table_add_row(t), ix, i);
    pv_table_set_details(t, wi_statistics_details, PV_ARRAY_LEN(wi_statistics_details),
                         wi_statistics_detail, m, NULL);
    return pv_table_view(t);
}

/* docs/formats.md §1/§3: Functions blocks without CONTEXT(...) belong to
 * `Unknown`; with it, to the CONTEXTS entry it matches (then named as in
 * CONTEXTS), else the label as written; Data and AUX rows have no context. */
static pv_view *wi_statistics_exported_view(const wi_model *m)
{
    const pv_wi_data *d = m->d;
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("statistics-exported", "Statistics (as exported)", wi_stat_columns,
                               ST_COLUMNS);
    pv_table_reserve(t, d->stat_count);
    for (size_t i = 0; i < d->stat_count; i++) {
        const pv_wi_stat_row *s = &d->stats[i];
        unsigned type = pv_wi_handle_type(s->handle);
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, ST_ID, (int64_t)i + 1);
        pv_table_set_uint(t, r, ST_HANDLE, s->handle);
        pv_table_set_cstr(t, r, ST_TYPE, pv_tl_type_name(type));
        uint32_t area = pv_timeline_find_area(ix, s->handle, s->value);
        if (area != PV_WI_NONE)
            pv_table_set_cstr(t, r, ST_NAME, pv_tl_area_name(ix, area));
        if ((type == PV_WI_STATE || type == PV_WI_AUX_STATE) && s->has_value)
            pv_table_set_uint(t, r, ST_VALUE, s->value);
        const char *label = "";
        if (s->area_class == 0) {
            const char *written = pv_strpool_get(&d->pool, s->context);
            if (!s->context || !*written) {
                label = "Unknown";
            } else {
                uint32_t c = pv_wi_match_context(d, written);
                label = c == PV_WI_NONE ? written : pv_strpool_get(&d->pool, d->contexts[c].name);
            }
        }
        pv_table_set_cstr(t, r, ST_CONTEXT, label);
        if (s->has_count)
            pv_table_set_int(t, r, ST_COUNT, s->count);
        for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
            if (s->present & (1u << k))
                pv_table_set_int(t, r, ST_T0 + k, s->t[k]);
    }
    return pv_table_view(t);
}

/* ---- data (areas of types 2-5) and their value history */

enum { DATA_ID, DATA_HANDLE, DATA_TYPE, DATA_NAME, DATA_VALUE, DATA_COUNT, DATA_NET, DATA_COLUMNS };

static const pv_column wi_data_columns[DATA_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"type", "Type", PV_TYPE_STRING, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"value", "Value", PV_TYPE_HEX, 0},
    {"count", "Count", PV_TYPE_INT, PV_COL_DESC},
    {"net", "Time in state", PV_TYPE_TIME, PV_COL_DESC},
};

enum { VH_ID, VH_TIME, VH_VALUE, VH_DURATION, VH_COLUMNS, VH_RAW = VH_COLUMNS, VH_F64_COLUMNS };

static const pv_column wi_value_history_columns[VH_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"value", "Value", PV_TYPE_HEX, PV_COL_NAME},
    {"duration", "Duration", PV_TYPE_TIME, PV_COL_DESC},
};

/* An F64 area (docs/formats.md §2): the value as a double, and the 64 bits of
 * DATA exactly as read in `raw`. */
static const pv_column wi_value_history_f64_columns[VH_F64_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"value", "Value", PV_TYPE_FLOAT, PV_COL_NAME},
    {"duration", "Duration", PV_TYPE_TIME, PV_COL_DESC},
    {"raw", "Raw DATA", PV_TYPE_HEX, 0},
};

static const pv_detail_def wi_data_details[] = {{"value-history", "Value history"}};

static bool wi_is_state_type(unsigned type)
{
    return type == PV_WI_STATE || type == PV_WI_AUX_STATE;
}

/* Does event i change the state of the variable with state key `key`, and
 * to which state value?  (E on the state handle, or W on the variable.) */
static bool wi_state_change(const pv_timeline_index *ix, size_t i, uint32_t key,
                            const pv_wi_event *e)
{
    const pv_tl_area *a = &ix->areas[pv_tl_event_area(ix, i)];
    if (a->state_key != key)
        return false;
    if (a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE)
        return e->kind == PV_WI_ENTRY;
    return e->kind == PV_WI_WRITE;
}

/* Value history: each write (variables, AUX) or each entry into the state
 * (states), with the time until the next write / state change of the
 * variable (or the end of the recording).  Only events in the window. */
static pv_view *wi_value_history(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)detail;
    const wi_model *m = ctx;
    int64_t id;
    if (!pv_table_get_int((const pv_table *)owner->impl, row, DATA_ID, &id) || id < 1 ||
        (size_t)id > m->ix.area_count)
        return NULL;
    return wi_hook_view(ctx, wi_value_history_of(m, (uint32_t)(id - 1)));
}

/* The value history of a variable whose state key no other area has, read
 * from the viewer's list of its events: every event is a change, row r is
 * event list[r], its duration runs to the next one (the last one's to the
 * end of the recording); nothing is made when it opens. */
static void wi_listed_values_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *lv = v->impl;
    const pv_timeline_index *ix = &lv->m->ix;
    pv_wi_event e;
    pv_timeline_event(ix, lv->list[row], &e);
    switch (col) {
    case VH_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)lv->list[row]);
        return;
    case VH_TIME:
        wi_cell_int(out, PV_TYPE_TIME, e.time);
        return;
    case VH_VALUE:
        if (lv->f64) {
            out->type = PV_TYPE_FLOAT;
            out->present = true;
            out->v.f = wi_data_f64(e.data);
        } else {
            wi_cell_uint(out, PV_TYPE_HEX, e.data & 0xFFFFFFFFu);
        }
        return;
    case VH_DURATION:
        wi_cell_int(out, PV_TYPE_TIME,
                    row + 1 < lv->listed ? wi_event_time(ix, lv->list[row + 1]) - e.time
                                         : ix->time_last - e.time);
        return;
    default:
        wi_cell_uint(out, PV_TYPE_HEX, e.data);
        return;
    }
}

static const pv_view_ops wi_listed_values_ops = {
    wi_listed_rows, wi_listed_values_cell, NULL, NULL, wi_virtual_destroy, NULL,
};

/* The value history of a state read from the viewer's lists: row r is
 * the change changes[list[r]] of the state's key that enters its value,
 * its duration runs to the key's next change (the last one's to the end of
 * the recording); nothing is made when it opens. */
static void wi_listed_states_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *ls = v->impl;
    const pv_timeline_index *ix = &ls->m->ix;
    size_t q = ls->list[row], i = ls->changes[q];
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    switch (col) {
    case VH_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
        return;
    case VH_TIME:
        wi_cell_int(out, PV_TYPE_TIME, e.time);
        return;
    case VH_VALUE:
        wi_cell_uint(out, PV_TYPE_HEX, e.data & 0xFFFFFFFFu);
        return;
    default:
        wi_cell_int(out, PV_TYPE_TIME,
                    q + 1 < ls->changes_end ? wi_event_time(ix, ls->changes[q + 1]) - e.time
                                            : ix->time_last - e.time);
        return;
    }
}

static const pv_view_ops wi_listed_states_ops = {
    wi_listed_rows, wi_listed_states_cell, NULL, NULL, wi_virtual_destroy, NULL,
};

/* The value history from the viewer's lists (docs/winidea-model.md "The
 * viewer's area lists"), NULL when they do not hold it. */
static pv_view *wi_value_history_listed(const wi_model *m, uint32_t area)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_tl_area *a = &ix->areas[area];
    uint32_t g = m->lists_phase == WI_LISTS_DONE ? m->data_group[area] : PV_WI_NONE;
    if (g == PV_WI_NONE)
        return NULL;
    if (!wi_is_state_type(a->type)) {
        /* the variable's events are its key's list (when they are all its
         * own: a duplicate of the mapping has none): each is a change */
        if (m->data_start[g + 1] - m->data_start[g] != m->area_events[area])
            return NULL;
        bool f64 = a->value_f64;
        return wi_listed_view(m, m->data_list + m->data_start[g], m->area_events[area], f64,
                              "value-history", "Value history",
                              f64 ? wi_value_history_f64_columns : wi_value_history_columns,
                              f64 ? VH_F64_COLUMNS : VH_COLUMNS, &wi_listed_values_ops);
    }
    /* the changes into its value were listed for the key's area of that
     * value (itself, or the first of the mapping's duplicates) */
    uint32_t s = pv_timeline_find_area(ix, a->state_key, a->value & 0xFFFFFFFFu);
    if (s >= ix->area_count || m->data_group[s] != g)
        return NULL;
    pv_view *v = wi_listed_view(m, m->state_list + m->state_start[s],
                                m->state_start[s + 1] - m->state_start[s], false, "value-history",
                                "Value history", wi_value_history_columns, VH_COLUMNS,
                                &wi_listed_states_ops);
    wi_listed *ls = v->impl;
    ls->changes = m->change_list;
    ls->changes_end = m->change_end[g];
    return v;
}

static pv_view *wi_value_history_of(const wi_model *m, uint32_t area)
{
    const pv_timeline_index *ix = &m->ix;
    const pv_tl_area *a = &ix->areas[area];
    bool state = a->type == PV_WI_STATE || a->type == PV_WI_AUX_STATE;
    bool f64 = a->value_f64;
    pv_view *listed_view = wi_value_history_listed(m, area);
    if (listed_view)
        return listed_view;
    pv_table *t =
        f64 ? pv_table_new("value-history", "Value history", wi_value_history_f64_columns,
                           VH_F64_COLUMNS)
            : pv_table_new("value-history", "Value history", wi_value_history_columns, VH_COLUMNS);
    size_t open = PV_NO_ROW;
    int64_t open_time = 0;
    /* a variable: the viewer's list of its key's variable events (its own
     * among them), else every event of the window */
    bool listed = !state && m->lists_phase == WI_LISTS_DONE && m->data_group[area] != PV_WI_NONE;
    size_t from = listed ? m->data_start[m->data_group[area]] : ix->window_first;
    size_t end = listed ? m->data_start[m->data_group[area] + 1] : ix->window_end;
    for (size_t j = from; j < end; j++) {
        size_t i = listed ? m->data_list[j] : j;
        pv_wi_event e;
        pv_timeline_event(ix, i, &e);
        bool change = state ? wi_state_change(ix, i, a->state_key, &e) : pv_tl_event_area(ix, i) == area;
        if (!change)
            continue;
        if (open != PV_NO_ROW) {
            pv_table_set_int(t, open, VH_DURATION, e.time - open_time);
            open = PV_NO_ROW;
        }
        if (state && (e.data & 0xFFFFFFFFu) != (a->value & 0xFFFFFFFFu))
            continue;
        if (pv_table_row_count(t) >= WI_DETAIL_EVENT_LIMIT)
            break;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, VH_ID, (int64_t)i);
        pv_table_set_int(t, r, VH_TIME, e.time);
        if (f64) {
            pv_table_set_float(t, r, VH_VALUE, wi_data_f64(e.data));
            pv_table_set_uint(t, r, VH_RAW, e.data);
        } else {
            pv_table_set_uint(t, r, VH_VALUE, e.data & 0xFFFFFFFFu);
        }
        open = r;
        open_time = e.time;
    }
    if (open != PV_NO_ROW)
        pv_table_set_int(t, open, VH_DURATION, ix->time_last - open_time);
    return pv_table_view(t);
}

static pv_view *wi_data_view(wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("data", "Data", wi_data_columns, DATA_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        const pv_tl_area *ar = &ix->areas[a];
        if (ar->type < PV_WI_VARIABLE || ar->type > PV_WI_AUX_STATE)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, DATA_ID, (int64_t)a + 1);
        pv_table_set_uint(t, r, DATA_HANDLE, ar->handle);
        pv_table_set_cstr(t, r, DATA_TYPE, pv_tl_type_name(ar->type));
        pv_table_set_cstr(t, r, DATA_NAME, pv_tl_area_name(ix, (uint32_t)a));
        if ((ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE) && ar->has_value)
            pv_table_set_uint(t, r, DATA_VALUE, ar->value);
        const pv_tl_stat_row *s = pv_timeline_find_stat(ix, (uint32_t)a, PV_TL_NO_CONTEXT);
        pv_table_set_int(t, r, DATA_COUNT, s ? s->count : 0);
        if (ar->type == PV_WI_STATE || ar->type == PV_WI_AUX_STATE)
            pv_table_set_int(t, r, DATA_NET, s ? s->t[PV_WI_STAT_NET] : 0);
    }
    pv_table_set_details(t, wi_data_details, PV_ARRAY_LEN(wi_data_details), wi_value_history, m,
                         NULL);
    return pv_table_view(t);
}

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

static const pv_column wi_timeline_columns[TL_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"index", "Index", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"context", "Context", PV_TYPE_STRING, PV_COL_LANE},
    {"core", "Core", PV_TYPE_INT, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, PV_COL_GROUPED},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_GROUPED},
    {"event", "Event", PV_TYPE_STRING, 0},
    {"value", "Value", PV_TYPE_HEX, 0},
    {"depth", "Depth", PV_TYPE_INT, 0},
    {"type", "Type", PV_TYPE_STRING, PV_COL_HIDDEN | PV_COL_GROUPED},
    {"delta", "Delta", PV_TYPE_TIME, PV_COL_SINCE_PREV},
    {"value_f64", "Value (F64)", PV_TYPE_FLOAT, 0},
};

typedef struct wi_events_impl {
    wi_model *m;
    size_t first, count;
} wi_events_impl;

static size_t wi_timeline_rows(const pv_view *v)
{
    return ((const wi_events_impl *)v->impl)->count;
}

/* delta: the time since the previous event of the window (docs/winidea-model.md
 * "Views"), absent for the first; a list of some of the events shows it from
 * the previous event shown (PV_COL_SINCE_PREV). */
static void wi_tl_delta(const wi_events_impl *im, size_t i, pv_cell *out)
{
    if (i <= im->first) {
        wi_cell_absent(out, PV_TYPE_TIME);
        return;
    }
    wi_cell_int(out, PV_TYPE_TIME, wi_event_time(&im->m->ix, i) - wi_event_time(&im->m->ix, i - 1));
}

static void wi_timeline_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_events_impl *im = v->impl;
    const pv_timeline_index *ix = &im->m->ix;
    size_t i = im->first + row;
    pv_wi_event e;
    if (i >= ix->indexed && im->m->stepped) {
        /* Not indexed yet and a viewer indexes in slices: only what the
         * record itself says; the columns of the index are absent. */
        switch (col) {
        case TL_ID:
        case TL_INDEX:
            wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
            return;
        case TL_TIME:
            wi_cell_int(out, PV_TYPE_TIME, wi_event_time(ix, i));
            return;
        case TL_DELTA:
            wi_tl_delta(im, i, out);
            return;
        case TL_EVENT:
            pv_timeline_event(ix, i, &e);
            wi_cell_str(out, wi_event_name(e.kind));
            return;
        default:
            wi_cell_absent(out, wi_timeline_columns[col].type);
            return;
        }
    }
    if (i >= ix->indexed)
        wi_model_reach(im->m, i + 1);
    uint32_t area = pv_tl_event_area(ix, i);
    switch (col) {
    case TL_ID:
    case TL_INDEX:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
        return;
    case TL_TIME:
        wi_cell_int(out, PV_TYPE_TIME, wi_event_time(ix, i));
        return;
    case TL_CONTEXT:
        if (pv_tl_event_context(ix, i) == PV_TL_NO_CONTEXT)
            wi_cell_absent(out, PV_TYPE_STRING);
        else
            wi_cell_str(out, pv_tl_context_name(ix, pv_tl_event_context(ix, i)));
        return;
    case TL_CORE:
        pv_timeline_event(ix, i, &e);
        if (e.core == PV_WI_CORE_UNKNOWN)
            wi_cell_absent(out, PV_TYPE_INT);
        else
            wi_cell_int(out, PV_TYPE_INT, e.core);
        return;
    case TL_HANDLE:
        wi_cell_uint(out, PV_TYPE_HANDLE, ix->areas[area].handle);
        return;
    case TL_NAME:
        wi_cell_str(out, pv_tl_area_name(ix, area));
        return;
    case TL_EVENT:
        pv_timeline_event(ix, i, &e);
        wi_cell_str(out, wi_event_name(e.kind));
        return;
    case TL_VALUE: {
        /* the written value or state value; none for function/line events */
        unsigned type = ix->areas[area].type;
        if (type == PV_WI_FUNCTION || type == PV_WI_LINE) {
            wi_cell_absent(out, PV_TYPE_HEX);
            return;
        }
        pv_timeline_event(ix, i, &e);
        /* an F64 area's value is all 64 bits of DATA, as read; the double
         * they hold is in value_f64 */
        wi_cell_uint(out, PV_TYPE_HEX, ix->areas[area].value_f64 ? e.data : e.data & 0xFFFFFFFFu);
        return;
    }
    case TL_VALUE_F64:
        if (!ix->areas[area].value_f64) {
            wi_cell_absent(out, PV_TYPE_FLOAT);
            return;
        }
        pv_timeline_event(ix, i, &e);
        out->type = PV_TYPE_FLOAT;
        out->present = true;
        out->v.f = wi_data_f64(e.data);
        return;
    case TL_DEPTH:
        wi_cell_int(out, PV_TYPE_INT, pv_tl_event_depth(ix, i));
        return;
    case TL_TYPE:
        wi_cell_str(out, pv_tl_type_name(ix->areas[area].type));
        return;
    case TL_DELTA:
        wi_tl_delta(im, i, out);
        return;
    default:
        wi_cell_absent(out, PV_TYPE_INT);
    }
}

static uint32_t wi_timeline_group(const pv_view *v, size_t row)
{
    const wi_events_impl *im = v->impl;
    size_t i = im->first + row;
    if (i >= im->m->ix.indexed)
        wi_model_reach(im->m, i + 1);
    return pv_tl_event_area(&im->m->ix, i);
}

enum { CS_ID, CS_POSITION, CS_ROUTINE, CS_HANDLE, CS_CONTEXT, CS_ENTRY, CS_COLUMNS };

static const pv_column wi_call_stack_columns[CS_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"position", "Position", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"context", "Context", PV_TYPE_STRING, 0},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
};

static const pv_detail_def wi_timeline_details[] = {
    {"call-stack-at", "Call stack"},
    {"area-statistics", "Statistics of the area"},
};

/* The statistics rows of the event's area (every context, Neutral). */
static pv_view *wi_area_statistics(const wi_model *m, size_t i)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t =
        pv_table_new("area-statistics", "Statistics of the area", wi_stat_columns, ST_COLUMNS);
    uint32_t area = pv_tl_event_area(ix, i);
    for (size_t k = 0; k < ix->stat_count; k++)
        if (ix->stats[k].area == area)
            wi_stat_fill(t, pv_table_add_row(t), ix, k);
    return pv_table_view(t);
}

/* The enclosing function calls at event i, innermost first (position 0). */
static pv_view *wi_call_stack_at(const wi_model *m, size_t i)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("call-stack-at", "Call stack", wi_call_stack_columns, CS_COLUMNS);
    uint16_t c = pv_tl_event_context(ix, i);
    if (c == PV_TL_NO_CONTEXT)
        return pv_table_view(t);
    uint32_t k = pv_timeline_call_at(ix, c, i);
    for (size_t guard = 0; k != PV_TL_OPEN && guard <= ix->call_count; guard++) {
        size_t r = pv_table_add_row(t);
        uint32_t area = wi_call_area(ix, k);
        pv_table_set_int(t, r, CS_ID, (int64_t)k + 1);
        pv_table_set_int(t, r, CS_POSITION, (int64_t)r);
        pv_table_set_cstr(t, r, CS_ROUTINE, pv_tl_area_name(ix, area));
        pv_table_set_uint(t, r, CS_HANDLE, ix->areas[area].handle);
        pv_table_set_cstr(t, r, CS_CONTEXT, pv_tl_context_name(ix, c));
        pv_table_set_int(t, r, CS_ENTRY,
                         (ix->call_entry[k] & PV_TL_IMPLICIT_CALL)
                             ? ix->time_first
                             : wi_event_time(ix, ix->call_entry[k]));
        k = ix->call_parent[k];
    }
    return pv_table_view(t);
}

static pv_view *wi_timeline_detail(const pv_view *v, size_t detail, size_t row)
{
    const wi_events_impl *im = v->impl;
    wi_model_complete(im->m);
    if (detail == 1)
        return wi_hook_view(im->m, wi_area_statistics(im->m, im->first + row));
    return wi_hook_view(im->m, wi_call_stack_at(im->m, im->first + row));
}

static const pv_view_ops wi_timeline_ops = {
    wi_timeline_rows,   wi_timeline_cell,   NULL,
    wi_timeline_detail, wi_virtual_destroy, wi_timeline_group,
};

static pv_view *wi_timeline_view(wi_model *m)
{
    wi_events_impl *im = pv_xcalloc(1, sizeof *im);
    im->m = m;
    im->first = m->ix.window_first;
    im->count = m->ix.window_end - m->ix.window_first;
    /* value_f64 exists only where it can hold a value, so that the
     * timeline of a file without F64 areas keeps its columns */
    bool f64 = false;
    for (size_t a = 0; a < m->ix.area_count && !f64; a++)
        f64 = m->ix.areas[a].value_f64;
    pv_view *v = wi_virtual_view("timeline", "Timeline", wi_timeline_columns,
                                 f64 ? TL_COLUMNS : TL_VALUE_F64, &wi_timeline_ops, im);
    v->details = wi_timeline_details;
    v->detail_count = PV_ARRAY_LEN(wi_timeline_details);
    v->group_count = (uint32_t)m->ix.area_count;
    return v;
}

/* ---- call-trace: a virtual tree, one row per reconstructed call */

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

static const pv_column wi_call_trace_columns[CT_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"parent", "Parent", PV_TYPE_INT, PV_COL_HIDDEN},
    {"call_no", "Call no", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
    {"depth", "Depth", PV_TYPE_INT, PV_COL_HIDDEN},
    {"thread", "Context", PV_TYPE_STRING, 0},
    {"time", "Time (net)", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children", "Time with children (gross)", PV_TYPE_TIME, PV_COL_DESC},
    {"call_time", "Call time", PV_TYPE_TIME, PV_COL_DESC | PV_COL_HIDDEN},
    {"entry_time", "Entered", PV_TYPE_TIME, 0},
    {"exit_time", "Exited", PV_TYPE_TIME, PV_COL_HIDDEN},
    {"handle", "Handle", PV_TYPE_HANDLE, PV_COL_HIDDEN},
    {"implicit", "Implicit", PV_TYPE_INT, PV_COL_HIDDEN},
    {"module", "Module", PV_TYPE_STRING, PV_COL_HIDDEN}, /* the mapping's FILE, as in routines */
};

static const pv_detail_def wi_call_trace_details[] = {{"call-events", "Events of the call"}};

static size_t wi_calls_rows(const pv_view *v)
{
    wi_model_complete(v->impl);
    return ((const wi_model *)v->impl)->ix.call_count;
}

static size_t wi_calls_parent(const pv_view *v, size_t row)
{
    wi_model_complete(v->impl); /* rows exist only once complete */
    uint32_t p = ((const wi_model *)v->impl)->ix.call_parent[row];
    return p == PV_TL_OPEN ? PV_NO_ROW : p;
}

static int64_t wi_call_entry_time(const pv_timeline_index *ix, size_t k)
{
    return (ix->call_entry[k] & PV_TL_IMPLICIT_CALL) ? ix->time_first
                                                     : wi_event_time(ix, ix->call_entry[k]);
}

static int64_t wi_call_exit_time(const pv_timeline_index *ix, size_t k)
{
    return ix->call_exit[k] == PV_TL_OPEN ? ix->time_last : wi_event_time(ix, ix->call_exit[k]);
}

static void wi_calls_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    wi_model_complete(v->impl);
    const pv_timeline_index *ix = &((const wi_model *)v->impl)->ix;
    /* the context only where needed: it is a cache miss (the call's entry
     * event), and a flame graph reads the other cells of every call */
    uint16_t c;
    switch (col) {
    case CT_ID:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)row + 1);
        return;
    case CT_PARENT:
        if (ix->call_parent[row] == PV_TL_OPEN)
            wi_cell_absent(out, PV_TYPE_INT);
        else
            wi_cell_int(out, PV_TYPE_INT, (int64_t)ix->call_parent[row] + 1);
        return;
    case CT_CALL_NO:
        c = wi_call_context(ix, row);
        wi_cell_int(out, PV_TYPE_INT, (int64_t)(row - ix->context_call_start[c]) + 1);
        return;
    case CT_ROUTINE:
        wi_cell_str(out, pv_tl_area_name(ix, wi_call_area(ix, row)));
        return;
    case CT_DEPTH: {
        int64_t depth = 0;
        for (uint32_t p = ix->call_parent[row]; p != PV_TL_OPEN && depth <= (int64_t)ix->call_count;
             p = ix->call_parent[p])
            depth++;
        wi_cell_int(out, PV_TYPE_INT, depth);
        return;
    }
    case CT_THREAD:
        c = wi_call_context(ix, row);
        wi_cell_str(out, pv_tl_context_name(ix, c));
        return;
    case CT_TIME:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_net(ix, row));
        return;
    case CT_TWC:
        wi_cell_int(out, PV_TYPE_TIME, pv_timeline_call_gross(ix, row));
        return;
    case CT_CALL:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_time_within(ix, row));
        return;
    case CT_ENTRY:
        wi_cell_int(out, PV_TYPE_TIME, wi_call_entry_time(ix, row));
        return;
    case CT_EXIT:
        if (ix->call_exit[row] == PV_TL_OPEN)
            wi_cell_absent(out, PV_TYPE_TIME);
        else
            wi_cell_int(out, PV_TYPE_TIME, wi_call_exit_time(ix, row));
        return;
    case CT_HANDLE:
        wi_cell_uint(out, PV_TYPE_HANDLE, ix->areas[wi_call_area(ix, row)].handle);
        return;
    case CT_IMPLICIT:
        wi_cell_int(out, PV_TYPE_INT, (ix->call_entry[row] & PV_TL_IMPLICIT_CALL) ? 1 : 0);
        return;
    case CT_MODULE: {
        const wi_model *m = v->impl;
        const pv_tl_area *ar = &ix->areas[wi_call_area(ix, row)];
        wi_cell_str(out, ar->data_area != PV_WI_NONE
                             ? pv_strpool_get(&m->d->pool, m->d->areas[ar->data_area].file)
                             : "");
        return;
    }
    default:
        wi_cell_absent(out, PV_TYPE_INT);
    }
}

enum { CE_ID, CE_INDEX, CE_TIME, CE_HANDLE, CE_NAME, CE_EVENT, CE_VALUE, CE_DEPTH, CE_COLUMNS };

static const pv_column wi_call_event_columns[CE_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"index", "Index", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"event", "Event", PV_TYPE_STRING, 0},
    {"value", "Value", PV_TYPE_HEX, 0},
    {"depth", "Depth", PV_TYPE_INT, 0},
};

/* call-events: row r is event list[r] (the view owns the list). */
static void wi_call_events_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const wi_listed *l = v->impl;
    const pv_timeline_index *ix = &l->m->ix;
    size_t i = l->list[row];
    uint32_t area = pv_tl_event_area(ix, i);
    pv_wi_event e;
    switch (col) {
    case CE_ID:
    case CE_INDEX:
        wi_cell_int(out, PV_TYPE_INT, (int64_t)i);
        return;
    case CE_TIME:
        wi_cell_int(out, PV_TYPE_TIME, wi_event_time(ix, i));
        return;
    case CE_HANDLE:
        wi_cell_uint(out, PV_TYPE_HANDLE, ix->areas[area].handle);
        return;
    case CE_NAME:
        wi_cell_str(out, pv_tl_area_name(ix, area));
        return;
    case CE_EVENT:
        pv_timeline_event(ix, i, &e);
        wi_cell_str(out, wi_event_name(e.kind));
        return;
    case CE_DEPTH:
        wi_cell_int(out, PV_TYPE_INT, pv_tl_event_depth(ix, i));
        return;
    default:
        wi_cell_absent(out, PV_TYPE_HEX);
        return;
    }
}

static void wi_call_events_destroy(pv_view *v)
{
    const wi_listed *l = v->impl;
    free((void *)l->list);
    wi_virtual_destroy(v);
}

static const pv_view_ops wi_call_events_ops = {
    wi_listed_rows, wi_call_events_cell, NULL, NULL, wi_call_events_destroy, NULL,
};

/* The events of a call: every event of its context from its entry to its
 * exit (the call's own E/S/R/X and what it called), in file order, up to
 * the detail limit.  Opening it finds them by the contexts of the events
 * (a byte or two each); a row's cells are read when it is shown. */
static pv_view *wi_calls_detail(const pv_view *v, size_t detail, size_t row)
{
    (void)detail;
    const wi_model *m = v->impl;
    const pv_timeline_index *ix = &m->ix;
    uint16_t c = wi_call_context(ix, row);
    size_t from = (ix->call_entry[row] & PV_TL_IMPLICIT_CALL) ? 0 : ix->call_entry[row];
    size_t to = ix->call_exit[row] == PV_TL_OPEN ? ix->event_count - 1 : ix->call_exit[row];
    size_t cap = 64, n = 0;
    uint32_t *list = pv_xmalloc(cap * sizeof *list);
    for (size_t i = from; i <= to && i < ix->event_count && n < WI_DETAIL_EVENT_LIMIT; i++) {
        if (pv_tl_event_context(ix, i) != c)
            continue;
        if (n == cap)
            list = pv_xgrow(list, &cap, n + 1, sizeof *list);
        list[n++] = (uint32_t)i;
    }
    pv_view *ev = wi_listed_view(m, list, n, false, "call-events", "Events of the call",
                                 wi_call_event_columns, CE_COLUMNS, &wi_call_events_ops);
    return wi_hook_view(v->impl, ev);
}

static void wi_calls_destroy(pv_view *v)
{
    v->impl = NULL; /* the model belongs to the file */
    free(v->columns);
    free(v->id);
    free(v->title);
    free(v);
}

static const pv_view_ops wi_call_trace_ops = {
    wi_calls_rows, wi_calls_cell, wi_calls_parent, wi_calls_detail, wi_calls_destroy, NULL,
};

static pv_view *wi_call_trace_view(wi_model *m)
{
    pv_view *v = wi_virtual_view("call-trace", "Call trace", wi_call_trace_columns, CT_COLUMNS,
                                 &wi_call_trace_ops, m);
    v->details = wi_call_trace_details;
    v->detail_count = PV_ARRAY_LEN(wi_call_trace_details);
    return v;
}

/* ---- routines: function areas with their Neutral statistics */

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

static const pv_column wi_routine_columns[RT_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
    {"module", "Module", PV_TYPE_STRING, PV_COL_KEY},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time (net)", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children", "Time with children (gross)", PV_TYPE_TIME, PV_COL_DESC},
    {"time_min", "Min time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_max", "Max time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_avg", "Avg time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children_min", "Min time with children", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children_max", "Max time with children", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children_avg", "Avg time with children", PV_TYPE_TIME, PV_COL_DESC},
    {"call_time", "Call time", PV_TYPE_TIME, PV_COL_DESC | PV_COL_HIDDEN},
    {"handle", "Handle", PV_TYPE_HANDLE, PV_COL_HIDDEN},
};

enum { CC_ID, CC_ROUTINE, CC_HITS, CC_TIME, CC_COLUMNS };

static const pv_column wi_caller_columns[CC_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time with children", PV_TYPE_TIME, PV_COL_DESC},
};

static const pv_detail_def wi_routine_details[] = {
    {"callers", "Callers"},
    {"callees", "Callees"},
};

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
static bool wi_edges_step(wi_model *m, size_t budget)
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

static pv_view *wi_routines_view(wi_model *m)
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

/* ---- deferred loads: a view built from the whole index on first use */

typedef pv_view *(*wi_make_fn)(wi_model *m);

typedef struct wi_lazy {
    wi_model *m;
    wi_make_fn make;
    pv_view *inner;
} wi_lazy;

static pv_view *wi_lazy_inner(const pv_view *v)
{
    wi_lazy *l = v->impl;
    if (!l->inner) {
        wi_model_complete(l->m);
        l->inner = l->make(l->m);
    }
    return l->inner;
}

static size_t wi_lazy_rows(const pv_view *v)
{
    return pv_view_rows(wi_lazy_inner(v));
}

static void wi_lazy_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    pv_view_cell(wi_lazy_inner(v), row, col, out);
}

static pv_view *wi_lazy_detail(const pv_view *v, size_t detail, size_t row)
{
    pv_view *inner = wi_lazy_inner(v);
    return inner->ops->open_detail ? inner->ops->open_detail(inner, detail, row) : NULL;
}

static void wi_lazy_destroy(pv_view *v)
{
    wi_lazy *l = v->impl;
    pv_view_free(l->inner);
    wi_virtual_destroy(v); /* frees l */
}

static const pv_view_ops wi_lazy_ops = {
    wi_lazy_rows, wi_lazy_cell, NULL, wi_lazy_detail, wi_lazy_destroy, NULL,
};

/* The columns and details of a (flat) view that `make` will build. */
static pv_view *wi_lazy_view(wi_model *m, wi_make_fn make, const char *id, const char *title,
                             const pv_column *cols, size_t n, const pv_detail_def *details,
                             size_t detail_count)
{
    wi_lazy *l = pv_xcalloc(1, sizeof *l);
    l->m = m;
    l->make = make;
    pv_view *v = wi_virtual_view(id, title, cols, n, &wi_lazy_ops, l);
    v->details = details;
    v->detail_count = detail_count;
    return v;
}

static pv_view *wi_make_summary(wi_model *m)
{
    return wi_summary_view(m->f, m);
}
static pv_view *wi_make_contexts(wi_model *m)
{
    return wi_contexts_view(m);
}
static pv_view *wi_make_statistics(wi_model *m)
{
    return wi_statistics_view(m);
}
static pv_view *wi_make_routines(wi_model *m)
{
    return wi_routines_view(m);
}
static pv_view *wi_make_lines(wi_model *m)
{
    return wi_lines_view(m);
}
static pv_view *wi_make_data(wi_model *m)
{
    return wi_data_view(m);
}

/* ---- the result set */

/* Adds a view to the set with the hooks of its kind of rows. */
static void wi_add_view(pv_result_set *set, wi_model *m, pv_view *v)
{
    pv_set_add_view(set, wi_hook_view(m, v));
    if (strcmp(v->id, "timeline") == 0)
        m->timeline = v;
    else if (strcmp(v->id, "call-trace") == 0)
        m->call_trace = v;
}

void pv_wi_index_options(pv_tl_options *to, const pv_wi_data *d, const char *path,
                         const pv_load_options *o)
{
    memset(to, 0, sizeof *to);
    if (o) {
        to->context_area = o->context_area;
        to->has_from = o->has_from;
        to->from = o->from;
        to->has_to = o->has_to;
        to->to = o->to;
        if (!o->defer_index)
            to->progress = o->progress; /* the caller's progress lives only while loading */
    }
    to->file = d->bin_path ? d->bin_path : (d->text_path ? d->text_path : path);
}

pv_load_status pv_wi_build(pv_file *f, pv_wi_data *d, const pv_load_options *o)
{
    return pv_wi_build_stream(f, d, o, NULL);
}

pv_load_status pv_wi_build_stream(pv_file *f, pv_wi_data *d, const pv_load_options *o,
                                  pv_wi_stream *stream)
{
    wi_model *m = pv_xcalloc(1, sizeof *m);
    m->d = d;
    m->f = f;
    f->loader_data = m;
    f->loader_free = wi_model_destroy;
    f->hooks = &wi_file_hooks;
    bool defer = o && o->defer_index;
    pv_tl_options to;
    pv_wi_index_options(&to, d, f->path, o);
    /* docs/cache.md: a valid cached index replaces the whole pass */
    bool cached = false;
    if (o && o->cache && !pv_input_is_stream(f->path)) {
        m->cache_key = pv_xmalloc(sizeof *m->cache_key);
        pv_wi_cache_key(m->cache_key, d, f->path, &to, o->bin_version);
        m->cache_max_bytes = o->cache_max_bytes;
        cached = pv_wi_cache_load(m->cache_key, &m->ix, d, &f->diag);
    }
    m->diag_from = f->diag.entry_count;
    m->diag_warnings = f->diag.warnings;
    m->diag_errors = f->diag.errors;
    /* an index begun while the Text1 file was read (load.c) goes on here */
    bool streamed = !cached && stream && pv_wi_stream_take(stream, &m->ix, &f->diag, &to, !defer);
    if (cached && stream)
        pv_wi_stream_free(stream);
    if (!cached && !streamed && !pv_timeline_index_begin(&m->ix, d, &to, &f->diag))
        return PV_LOAD_ERROR;
    m->indexed = true;
    if (cached)
        defer = false; /* complete already: the views are built at once */
    else if (!defer && !pv_timeline_index_finish(&m->ix))
        return PV_LOAD_ERROR; /* cancelled */
    if (!cached)
        wi_model_cache_save(m);
    wi_init_stat_columns();
    pv_result_set *set = pv_file_add_set(f, 1, "winIDEA profiler", "winIDEA timeline");
    if (!defer) {
        wi_add_view(set, m, wi_summary_view(f, m));
        wi_add_view(set, m, wi_contexts_view(m));
        wi_add_view(set, m, wi_statistics_view(m));
    } else {
        size_t summary_columns;
        const pv_column *summary_cols = pv_summary_columns(&summary_columns);
        wi_add_view(set, m, wi_lazy_view(m, wi_make_summary, "summary", "Summary",
                                          summary_cols, summary_columns, NULL, 0));
        wi_add_view(set, m, wi_lazy_view(m, wi_make_contexts, "contexts", "Contexts",
                                          wi_context_columns, CTX_COLUMNS, NULL, 0));
        wi_add_view(set, m, wi_lazy_view(m, wi_make_statistics, "statistics", "Statistics",
                                          wi_stat_columns, ST_COLUMNS, wi_statistics_details,
                                          PV_ARRAY_LEN(wi_statistics_details)));
    }
    wi_add_view(set, m, wi_statistics_exported_view(m));
    wi_add_view(set, m, wi_timeline_view(m));
    wi_add_view(set, m, wi_call_trace_view(m));
    if (!defer) {
        wi_add_view(set, m, wi_routines_view(m));
        wi_add_view(set, m, wi_lines_view(m));
        wi_add_view(set, m, wi_data_view(m));
    } else {
        wi_add_view(set, m, wi_lazy_view(m, wi_make_routines, "routines", "Routines",
                                          wi_routine_columns, RT_COLUMNS, wi_routine_details,
                                          PV_ARRAY_LEN(wi_routine_details)));
        wi_add_view(set, m, wi_lazy_view(m, wi_make_lines, "lines", "Lines", wi_line_columns,
                                          LINE_COLUMNS, NULL, 0));
        wi_add_view(set, m,
                        wi_lazy_view(m, wi_make_data, "data", "Data", wi_data_columns, DATA_COLUMNS,
                                     wi_data_details, PV_ARRAY_LEN(wi_data_details)));
    }
    return PV_LOAD_OK;
}

/* ---- capability hooks (profview/hooks.h, docs/winidea-model.md "What the
 * viewer asks the model"): every view of the set carries the hooks of its
 * kind of rows, with the model as hook_ctx. */

static bool wi_model_ready(const wi_model *m)
{
    return m && m->indexed && m->ix.complete;
}

/* A view's model (its hook_ctx). */
static wi_model *wi_view_model(const pv_view *v)
{
    return v->hook_ctx;
}

/* The int in column 0 (the `id` of every winIDEA view) of a row. */
static bool wi_row_id(const pv_view *v, size_t row, int64_t *id)
{
    pv_cell c;
    pv_view_cell(v, row, 0, &c);
    *id = c.v.i;
    return c.present && (c.type == PV_TYPE_INT || c.type == PV_TYPE_TIME);
}

/* The timeline row of event i, or PV_NO_ROW outside the window. */
static bool wi_timeline_ref(const wi_model *m, size_t i, pv_row_ref *out)
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
static bool wi_event_partner(const pv_timeline_index *ix, size_t event, size_t *partner)
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
static bool wi_area_first_step(wi_model *m, size_t budget)
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
static bool wi_area_lists_step(wi_model *m, size_t budget)
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
static bool wi_call_related(wi_model *m, size_t k, pv_relation rel, pv_row_ref *out)
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
static bool wi_event_related(wi_model *m, size_t i, pv_relation rel, pv_row_ref *out)
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
static bool wi_viewer_complete(const wi_model *m)
{
    return !m || !m->indexed || m->failed ||
           (m->ix.complete &&
            ((m->area_first_done && m->lists_phase == WI_LISTS_DONE) || !m->stepped));
}

static bool wi_waits_for_index(const pv_view *v, bool details)
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

static const pv_view_hooks wi_timeline_hooks = {
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

/* ---- event lists (call-events, value-history): `id` is the event */

static bool wi_ev_event(const pv_view *v, size_t row, size_t *event)
{
    const wi_model *m = wi_view_model(v);
    int64_t id;
    if (!wi_model_ready(m) || !wi_row_id(v, row, &id) || id < 0 ||
        (uint64_t)id >= m->ix.event_count)
        return false;
    *event = (size_t)id;
    return true;
}

static bool wi_ev_row_time(const pv_view *v, size_t row, int64_t *t)
{
    size_t i;
    if (!wi_ev_event(v, row, &i))
        return false;
    *t = wi_event_time(&wi_view_model(v)->ix, i);
    return true;
}

static bool wi_ev_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    wi_model *m = wi_view_model(v);
    size_t i, partner;
    if (!wi_ev_event(v, row, &i))
        return false;
    if (rel != PV_REL_PARTNER)
        return wi_event_related(m, i, rel, out);
    if (!wi_event_partner(&m->ix, i, &partner))
        return false;
    /* the partner's row in this list (rows ascend by event) */
    size_t lo = 0, hi = pv_view_rows(v);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, at;
        if (wi_ev_event(v, mid, &at) && at < partner)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t at;
    if (lo >= pv_view_rows(v) || !wi_ev_event(v, lo, &at) || at != partner)
        return false;
    out->view = (pv_view *)v;
    out->row = lo;
    return true;
}

static bool wi_ev_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    size_t i;
    if (!wi_ev_event(v, row, &i))
        return false;
    const pv_timeline_index *ix = &wi_view_model(v)->ix;
    *area = ix->areas[pv_tl_event_area(ix, i)].handle;
    return true;
}

static const pv_view_hooks wi_events_hooks = {
    .row_time = wi_ev_row_time,
    .waits_for_index = wi_waits_for_index,
    .related = wi_ev_related,
    .row_area = wi_ev_row_area,
};

/* ---- calls (call-trace: row k is call k; area-calls, call-stack-at:
 * `id` is call k + 1) */

static bool wi_calls_call(const pv_view *v, size_t row, size_t *call)
{
    const wi_model *m = wi_view_model(v);
    if (!wi_model_ready(m))
        return false;
    if (v->ops == &wi_call_trace_ops) {
        *call = row;
        return row < m->ix.call_count;
    }
    int64_t id;
    if (!wi_row_id(v, row, &id) || id < 1 || (uint64_t)id > m->ix.call_count)
        return false;
    *call = (size_t)(id - 1);
    return true;
}

static bool wi_calls_row_time(const pv_view *v, size_t row, int64_t *t)
{
    size_t k;
    if (!wi_calls_call(v, row, &k))
        return false;
    *t = wi_call_entry_time(&wi_view_model(v)->ix, k);
    return true;
}

static bool wi_calls_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    size_t k;
    return wi_calls_call(v, row, &k) && wi_call_related(wi_view_model(v), k, rel, out);
}

static bool wi_calls_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    size_t k;
    if (!wi_calls_call(v, row, &k))
        return false;
    const pv_timeline_index *ix = &wi_view_model(v)->ix;
    *area = ix->areas[wi_call_area(ix, k)].handle;
    return true;
}

static const pv_view_hooks wi_calls_hooks = {
    .row_time = wi_calls_row_time,
    .waits_for_index = wi_waits_for_index,
    .related = wi_calls_related,
    .row_area = wi_calls_row_area,
};

/* ---- line areas as frames inside the call trace (docs/flame.md "winIDEA
 * line areas"): one row per line activation, under the function call it
 * runs in; self and total are its net time (the time it is active while
 * its context runs). */

enum { LF_PARENT, LF_ROUTINE, LF_MODULE, LF_THREAD, LF_TIME, LF_TWC, LF_COLUMNS };

static const pv_column wi_line_frame_columns[LF_COLUMNS] = {
    {"parent", "Parent", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"module", "Module", PV_TYPE_STRING, 0},
    {"thread", "Context", PV_TYPE_STRING, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"time_with_children", "With children", PV_TYPE_TIME, 0},
};

typedef struct wi_line_frames {
    const wi_model *m;
    uint32_t *line;   /* the line activations shown (a window), NULL: all */
    uint32_t *parent; /* per line activation: the call it runs in, PV_TL_OPEN */
    size_t count;
    pv_tl_line_sweep sweep; /* parents are found as the rows are read */
} wi_line_frames;

static size_t wi_lines_rows(const pv_view *v)
{
    return ((const wi_line_frames *)v->impl)->count;
}

static void wi_lines_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    wi_line_frames *lf = v->impl;
    const pv_timeline_index *ix = &lf->m->ix;
    uint32_t k = lf->line ? lf->line[row] : (uint32_t)row;
    uint32_t e = ix->line_entry[k] & ~PV_TL_IMPLICIT_CALL;
    switch (col) {
    case LF_PARENT:
        if (k >= lf->sweep.done) /* a step of the sweep: a flame graph reads in slices */
            pv_timeline_line_sweep_step(ix, &lf->sweep, (size_t)k + 65536, lf->parent);
        if (lf->parent[k] == PV_TL_OPEN)
            wi_cell_absent(out, PV_TYPE_INT);
        else
            wi_cell_int(out, PV_TYPE_INT, (int64_t)lf->parent[k] + 1);
        return;
    case LF_ROUTINE:
        wi_cell_str(out, pv_tl_area_name(ix, pv_tl_event_area(ix, e)));
        return;
    case LF_MODULE: {
        const pv_tl_area *ar = &ix->areas[pv_tl_event_area(ix, e)];
        wi_cell_str(out, ar->data_area != PV_WI_NONE
                             ? pv_strpool_get(&lf->m->d->pool, lf->m->d->areas[ar->data_area].file)
                             : "");
        return;
    }
    case LF_THREAD:
        wi_cell_str(out, pv_tl_context_name(ix, pv_tl_event_context(ix, e)));
        return;
    case LF_TIME:
    case LF_TWC:
        wi_cell_int(out, PV_TYPE_TIME, ix->line_net[k]);
        return;
    default:
        wi_cell_absent(out, PV_TYPE_INT);
    }
}

static void wi_lines_destroy(pv_view *v)
{
    wi_line_frames *lf = v->impl;
    free(lf->line);
    free(lf->parent);
    pv_timeline_line_sweep_end(&lf->sweep);
    wi_virtual_destroy(v);
}

static const pv_view_ops wi_line_frames_ops = {
    wi_lines_rows, wi_lines_cell, NULL, NULL, wi_lines_destroy, NULL,
};

static pv_view *wi_calls_inner_frames(const pv_view *v)
{
    wi_model *m = wi_view_model(v);
    wi_model_complete(m);
    const pv_timeline_index *ix = &m->ix;
    if (!ix->line_count)
        return NULL;
    wi_line_frames *lf = pv_xcalloc(1, sizeof *lf);
    lf->m = m;
    lf->parent = pv_xmalloc(ix->line_count * sizeof *lf->parent);
    pv_timeline_line_sweep_begin(ix, &lf->sweep);
    lf->count = ix->line_count;
    if (ix->has_from || ix->has_to) {
        /* with --from/--to, a line with no time in the window is no frame */
        lf->line = pv_xmalloc(ix->line_count * sizeof *lf->line);
        lf->count = 0;
        for (size_t k = 0; k < ix->line_count; k++)
            if (ix->line_net[k] != 0)
                lf->line[lf->count++] = (uint32_t)k;
    }
    return wi_virtual_view("line-frames", "Line areas in calls", wi_line_frame_columns, LF_COLUMNS,
                           &wi_line_frames_ops, lf);
}

/* The context column: the calls come context by context (the index orders
 * them so, timeline.c), context c's from context_call_start[c]: a run is a
 * context's calls, its code the context. */
static bool wi_calls_column_run(const pv_view *v, size_t col, size_t row, uint64_t *code,
                                size_t *end)
{
    const wi_model *m = wi_view_model(v);
    if (col != CT_THREAD || v->ops != &wi_call_trace_ops || !wi_model_ready(m) ||
        !m->ix.context_call_start || !m->ix.context_count || row >= m->ix.call_count)
        return false;
    const pv_timeline_index *ix = &m->ix;
    size_t lo = 0, hi = ix->context_count; /* the last c with start[c] <= row */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->context_call_start[mid] <= row)
            lo = mid;
        else
            hi = mid;
    }
    if (ix->context_call_start[lo] > row || ix->context_call_start[lo + 1] <= row)
        return false;
    *code = lo;
    *end = ix->context_call_start[lo + 1];
    return true;
}

static const pv_view_hooks wi_call_trace_hooks = {
    .column_run = wi_calls_column_run,
    .row_time = wi_calls_row_time,
    .waits_for_index = wi_waits_for_index,
    .related = wi_calls_related,
    .row_area = wi_calls_row_area,
    .inner_frames = wi_calls_inner_frames,
};

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
static pv_view *wi_hook_view(wi_model *m, pv_view *v)
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

/* ---- file hooks */

static wi_model *wi_model_of(const pv_file *f)
{
    if (!f || f->hooks != &wi_file_hooks || !f->loader_data)
        return NULL;
    return f->loader_data;
}

static bool wi_file_index_step(pv_file *f, size_t events)
{
    wi_model *m = wi_model_of(f);
    if (!m || !m->indexed || m->failed)
        return true;
    m->stepped = true;
    if (!m->ix.complete) {
        int r = pv_timeline_index_finish_step(&m->ix, events ? events : 1);
        if (r < 0)
            m->failed = true;
        if (r <= 0)
            return r < 0;
        wi_model_cache_save(m);
        if (events != SIZE_MAX)
            return false; /* the first events of the areas in the next slices */
    }
    bool first_done = m->area_first_done;
    if (!wi_area_first_step(m, events ? events : 1))
        return false;
    if (!first_done && events != SIZE_MAX)
        return false; /* the area lists in the next slices */
    return wi_area_lists_step(m, events ? events : 1);
}

static bool wi_file_index_progress(const pv_file *f, uint64_t *done, uint64_t *total)
{
    const wi_model *m = wi_model_of(f);
    bool complete = wi_viewer_complete(m);
    *done = m && m->indexed ? m->ix.indexed : 0;
    *total = m && m->indexed ? m->ix.event_count : 0;
    if (complete)
        *done = *total;
    return complete;
}

static const pv_file_hooks wi_file_hooks = {
    .index_step = wi_file_index_step,
    .index_progress = wi_file_index_progress,
    .index_unit = "events",
    .range_view = "statistics",
    .export = pv_wi_export,
};


const pv_wi_data *pv_wi_file_data(const pv_file *f)
{
    const wi_model *m = wi_model_of(f);
    return m ? m->d : NULL;
}

const pv_timeline_index *pv_wi_file_index(const pv_file *f)
{
    const wi_model *m = wi_model_of(f);
    return m ? &m->ix : NULL;
}
