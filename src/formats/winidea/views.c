/* views.c - the winIDEA result set: indexes the raw data
 * (src/formats/winidea/timeline.c) and builds the views (docs/cli.md):
 * the model and its cache, the cells every view shares, the views built on
 * first use, and the file hooks.  The views are in views_*.c, their
 * capability hooks in hooks*.c.
 *
 * `timeline` and `call-trace` are virtual views over the index (50 M events
 * are never materialised); the other views are small pv_tables. */
#include "formats/winidea/views_internal.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cache write of a viewer's index, on a thread of its own: a complete
 * index is never written to again, and the warnings are a copy. */
typedef struct wi_cache_job {
    pv_cache_key *key;
    const pv_timeline_index *ix;
    int version;
    pv_diag diag;
    uint64_t max_bytes;
    atomic_bool failed; /* the write ended without a cache file (read by index_cached) */
} wi_cache_job;

static void *wi_cache_job_run(void *arg)
{
    wi_cache_job *j = arg;
    if (!pv_wi_cache_save(j->key, j->ix, j->version, &j->diag, 0, 0, 0, j->max_bytes))
        atomic_store(&j->failed, true);
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
    m->cache_kept = !atomic_load(&m->cache_job->failed);
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
        atomic_init(&j->failed, false);
        if (pthread_create(&m->cache_thread, NULL, wi_cache_job_run, j) == 0) {
            m->cache_job = j;
            m->cache_kept = true; /* under way: index_cached asks how it ended */
            return;
        }
        wi_cache_job_run(j); /* no thread: write it here */
        m->cache_kept = !atomic_load(&j->failed);
        wi_cache_job_free(j);
        return;
    }
    m->cache_kept = pv_wi_cache_save(key, &m->ix, m->d->timeline.version, &m->f->diag,
                                     m->diag_from, m->diag_warnings, m->diag_errors,
                                     m->cache_max_bytes);
    pv_cache_key_free(key);
    free(key);
}

/* The whole index (deferred loads finish it when a view needs it). */
void wi_model_complete(wi_model *m)
{
    if (!m->ix.complete) {
        pv_timeline_index_finish(&m->ix);
        wi_model_cache_save(m);
    }
}

/* Events [0, upto) indexed; sequential readers advance in large steps. */
void wi_model_reach(wi_model *m, size_t upto)
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
    /* the index, the mapped BIN and the records read from a Text1 file (24
     * bytes an event, the largest block: in two halves, one per thread):
     * their pages back on two threads */
    pv_span spans[16];
    size_t ns = m->indexed ? pv_timeline_index_spans(&m->ix, spans, 13) : 0;
    if (m->d->bin.mapped)
        spans[ns++] = (pv_span){(void *)m->d->bin.data, m->d->bin.size};
    const pv_wi_timeline *tl = &m->d->timeline;
    if (tl->owned) {
        size_t half = tl->count / 2 * PV_WI_RECORD_SIZE;
        spans[ns++] = (pv_span){tl->owned, half};
        spans[ns++] = (pv_span){tl->owned + half, tl->count * PV_WI_RECORD_SIZE - half};
    }
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

static const pv_file_hooks wi_file_hooks;

uint32_t wi_call_area(const pv_timeline_index *ix, size_t call)
{
    return pv_tl_event_area(ix, ix->call_entry[call] & ~PV_TL_IMPLICIT_CALL);
}

uint16_t wi_call_context(const pv_timeline_index *ix, size_t call)
{
    return pv_tl_event_context(ix, ix->call_entry[call] & ~PV_TL_IMPLICIT_CALL);
}

int64_t wi_event_time(const pv_timeline_index *ix, size_t i)
{
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    return e.time;
}

/* A virtual view: columns copied, ops and impl given. */
pv_view *wi_virtual_view(const char *id, const char *title, const pv_column *cols, size_t n,
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

void wi_virtual_destroy(pv_view *v)
{
    free(v->impl);
    free(v->columns);
    free(v->id);
    free(v->title);
    free(v);
}

void wi_cell_int(pv_cell *out, pv_type type, int64_t v)
{
    out->type = type;
    out->present = true;
    out->v.i = v;
}

void wi_cell_uint(pv_cell *out, pv_type type, uint64_t v)
{
    out->type = type;
    out->present = true;
    out->v.u = v;
}

/* docs/formats.md §2: the DATA of an F64 area is an IEEE double, all 64 bits. */
double wi_data_f64(uint64_t data)
{
    double f;
    memcpy(&f, &data, sizeof f);
    return f;
}

void wi_cell_str(pv_cell *out, const char *s)
{
    out->type = PV_TYPE_STRING;
    out->present = true;
    out->v.s.ptr = s;
    out->v.s.len = strlen(s);
}

void wi_cell_absent(pv_cell *out, pv_type type)
{
    out->type = type;
    out->present = false;
    out->v.u = 0;
}

const char *wi_event_name(unsigned kind)
{
    static const char *const names[] = {"X", "S", "R", "E", "W"};
    return kind < 5 ? names[kind] : "?";
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

const pv_view_ops wi_lazy_ops = {
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
        to->test = o->test;
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
    m->cache_kept = cached;
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
                                          wi_statistics_detail_count));
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
                                          wi_routine_detail_count));
        wi_add_view(set, m, wi_lazy_view(m, wi_make_lines, "lines", "Lines", wi_line_columns,
                                          LINE_COLUMNS, wi_line_details, wi_line_detail_count));
        wi_add_view(set, m,
                        wi_lazy_view(m, wi_make_data, "data", "Data", wi_data_columns, DATA_COLUMNS,
                                     wi_data_details, wi_data_detail_count));
    }
    return PV_LOAD_OK;
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

/* The index is in the cache: read from it, written, or a write under way
 * that has not failed yet (freeing the file waits for it). */
static bool wi_file_index_cached(const pv_file *f)
{
    const wi_model *m = wi_model_of(f);
    if (!m || !m->cache_kept)
        return false;
    return !m->cache_job || !atomic_load(&m->cache_job->failed);
}

static const pv_file_hooks wi_file_hooks = {
    .index_step = wi_file_index_step,
    .index_progress = wi_file_index_progress,
    .index_cached = wi_file_index_cached,
    .index_unit = "events",
    .range_view = "statistics",
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
