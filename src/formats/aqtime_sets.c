/* aqtime_sets.c - the result sets of an AQTime database (docs/formats.md
 * §5): one per INSTANCES row and profiler, its summary and counter, and the
 * builders of its views (aqtime_trace.c, aqtime_objects.c) run for it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aqtime.h"

static const char *const aq_profiler_name[AQ_PROF_COUNT] = {
    "Function Trace",
    "Resource",
    "Reference Count",
};
/* The table whose rows say that a result set holds this profiler's results. */
static const aq_table_id aq_profiler_main[AQ_PROF_COUNT][3] = {
    {AQ_T_FT_CALL_TRACE, AQ_T_FT_ROUTINES, AQ_T_FT_THREADS},
    {AQ_T_RS_OBJECTS, AQ_T_RS_CLASSES_DATA, AQ_T_RS_ERRORS},
    {AQ_T_RC_OBJECTS, AQ_T_RC_CLASSES_DATA, AQ_T_RC_REFERENCES},
};

void aq_warn(aq_ctx *c, const char *fmt, ...)
{
    pv_buf b;
    pv_buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pv_warn(&c->f->diag, "%s: result set %" PRId64 ": %s", c->f->path, c->inst, pv_buf_cstr(&b));
    pv_buf_free(&b);
}

/* ---- the counter of result sets, kept once per file (docs/aqtime.md,
 * Scale): the summary and the views of an empty result set depend on
 * nothing else */

struct aq_counter {
    const char *path; /* the file's (aq_db.path) */
    char *name;      /* as shown ("" for none) */
    double frequency; /* 0: none */
    bool time_counter;
    /* The views every empty result set of a profiler shows with this
     * counter (aq_shared_sets), NULL until the first. */
    struct aq_shared *empty[AQ_PROF_COUNT];
};

typedef struct aq_shared aq_shared;
static void aq_shared_free(aq_shared *sh);

static void aq_counter_free(void *p)
{
    aq_counter *k = p;
    for (size_t i = 0; i < AQ_PROF_COUNT; i++)
        aq_shared_free(k->empty[i]);
    free(k->name);
    free(k);
}

/* The file's counter of that name, frequency and kind, made once. */
static aq_counter *aq_counter_get(aq_db *a, const char *name, double frequency, bool time_counter)
{
    for (size_t i = 0; i < a->counter_count; i++) {
        aq_counter *k = a->counters[i];
        if (k->frequency == frequency && k->time_counter == time_counter &&
            strcmp(k->name, name) == 0)
            return k;
    }
    aq_counter *k = pv_xcalloc(1, sizeof *k);
    k->path = a->path;
    k->name = pv_xstrdup(name);
    k->frequency = frequency;
    k->time_counter = time_counter;
    aq_db_own(a, k, aq_counter_free);
    /* the last few are searched: a file whose every result set has a
     * counter of its own still costs no search over all of them */
    if (a->counter_count < PV_ARRAY_LEN(a->counters)) {
        a->counters[a->counter_count++] = k;
    } else {
        memmove(a->counters, a->counters + 1, sizeof a->counters - sizeof *a->counters);
        a->counters[a->counter_count - 1] = k;
    }
    return k;
}

/* ---- the summary, made when first read: until then a result set's
 * summary is a few pointers (docs/aqtime.md, Scale) */

typedef struct aq_summary_view {
    pv_view view;
    const aq_counter *k;
    const pv_result_set *set; /* its id, caption and kind; it outlives the view */
    pv_table *built;          /* NULL until a cell is read */
} aq_summary_view;

/* The summary's facts; bufs holds the texts made for them. */
static size_t aq_summary_facts(const aq_summary_view *sv, const char *facts[8][2],
                               char bufs[2][64])
{
    const aq_counter *k = sv->k;
    size_t n = 0;
    snprintf(bufs[0], 64, "%" PRId64, sv->set->id);
    facts[n][0] = "format";
    facts[n++][1] = "AQTime database";
    facts[n][0] = "file";
    facts[n++][1] = k->path;
    facts[n][0] = "result set";
    facts[n++][1] = bufs[0];
    facts[n][0] = "caption";
    facts[n++][1] = sv->set->caption;
    facts[n][0] = "profiler";
    facts[n++][1] = sv->set->kind;
    if (k->name[0]) {
        facts[n][0] = "counter";
        facts[n++][1] = k->name;
    }
    if (k->frequency > 0) {
        snprintf(bufs[1], 64, "%.17g", k->frequency);
        facts[n][0] = "counter frequency";
        facts[n++][1] = bufs[1];
        facts[n][0] = "counter unit";
        facts[n++][1] = k->time_counter ? "time (cycles converted to ns)" : "count";
    }
    return n;
}

static size_t aq_summary_rows(const pv_view *v)
{
    const aq_summary_view *sv = v->impl;
    return 5 + (sv->k->name[0] != '\0') + 2 * (sv->k->frequency > 0);
}

static void aq_summary_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    aq_summary_view *sv = v->impl;
    if (!sv->built) {
        const char *facts[8][2];
        char bufs[2][64];
        size_t n = aq_summary_facts(sv, facts, bufs);
        sv->built = pv_summary_new();
        for (size_t i = 0; i < n; i++)
            pv_summary_add(sv->built, facts[i][0], facts[i][1]);
    }
    pv_view_cell(pv_table_view(sv->built), row, col, out);
}

static void aq_summary_destroy(pv_view *v)
{
    aq_summary_view *sv = v->impl;
    if (sv->built)
        pv_view_free(pv_table_view(sv->built));
    free(sv);
}

static const pv_view_ops aq_summary_ops = {
    aq_summary_rows, aq_summary_cell, NULL, NULL, aq_summary_destroy, NULL,
};

/* Adds the summary of c's result set (its counter k). */
static void aq_summary(aq_ctx *c, const aq_counter *k)
{
    aq_db *a = c->db;
    if (!a->summary_names.id) {
        /* the names every summary shows, once per file */
        pv_table *proto = pv_summary_new();
        const pv_view *pv = pv_table_view(proto);
        pv_view_copy_names(&a->summary_names, pv->id, pv->title, pv->columns, pv->column_count);
        pv_view_free(pv_table_view(proto));
    }
    aq_summary_view *sv = pv_xcalloc(1, sizeof *sv);
    sv->view = a->summary_names;
    sv->view.ops = &aq_summary_ops;
    sv->view.impl = sv;
    sv->k = k;
    sv->set = c->set;
    pv_set_add_view(c->set, &sv->view);
}

/* ---- the views of an empty result set, shared (docs/aqtime.md, Scale):
 * a result set whose profiler's tables hold no row of it shows the same
 * empty views as any other with the same counter: they are built once and
 * every such set lists them (their destroy is left to the file) */

typedef struct aq_shared_view {
    pv_view view; /* the built view's, with ops whose destroy keeps it */
    pv_view_ops ops;
} aq_shared_view;

struct aq_shared {
    bool usable;          /* false: the build said something; each set builds its own */
    pv_result_set *proto; /* the built views */
    aq_shared_view **views;
};

static void aq_shared_keep(pv_view *v)
{
    (void)v; /* the file frees it (aq_shared_free) */
}

bool aq_view_is_shared(const pv_view *v)
{
    return v->ops->destroy == aq_shared_keep;
}

static void aq_shared_free(aq_shared *sh)
{
    if (!sh)
        return;
    for (size_t i = 0; sh->proto && i < sh->proto->view_count; i++) {
        pv_view_free(sh->proto->views[i]);
        free(sh->views[i]);
    }
    if (sh->proto) {
        free(sh->proto->notes);
        free(sh->proto->views);
        free(sh->proto);
    }
    free(sh->views);
    free(sh);
}

/* Whether no table of profiler p holds a row of the result set. */
static bool aq_set_is_empty(const aq_db *a, int64_t inst, aq_profiler p)
{
    size_t plen = strlen(aq_profiler_prefix[p]);
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        if (strncmp(a->tables[t].name, aq_profiler_prefix[p], plen) == 0 &&
            aq_has_inst(&a->tables[t], inst))
            return false;
    return true;
}

static void aq_build_views(aq_ctx *c, aq_profiler p)
{
    if (p == AQ_PROF_TRACE)
        aq_build_trace(c);
    else
        aq_build_objects(c, p);
}

/* Adds to c's empty result set the shared views of its counter k (built
 * the first time, for this set); false when they cannot be shared: the
 * build said something (a warning, a note), which every set must say. */
static bool aq_add_shared(aq_ctx *c, aq_counter *k, aq_profiler p)
{
    aq_shared *sh = k->empty[p];
    if (!sh) {
        sh = k->empty[p] = pv_xcalloc(1, sizeof *sh);
        pv_file scratch;
        memset(&scratch, 0, sizeof scratch);
        scratch.path = c->f->path;
        pv_diag_init(&scratch.diag);
        aq_ctx b = *c;
        b.f = &scratch;
        b.set = sh->proto = pv_xcalloc(1, sizeof *sh->proto);
        aq_build_views(&b, p);
        sh->usable = scratch.diag.entry_count == 0 && scratch.diag.warnings == 0 &&
                     scratch.diag.errors == 0 && sh->proto->note_count == 0;
        pv_diag_free(&scratch.diag);
        sh->views = pv_xcalloc(sh->proto->view_count + 1, sizeof *sh->views);
        for (size_t i = 0; i < sh->proto->view_count; i++) {
            aq_shared_view *v = sh->views[i] = pv_xcalloc(1, sizeof *v);
            v->view = *sh->proto->views[i];
            v->ops = *v->view.ops;
            v->ops.destroy = aq_shared_keep;
            v->view.ops = &v->ops;
        }
    }
    if (!sh->usable)
        return false;
    for (size_t i = 0; i < sh->proto->view_count; i++)
        pv_set_add_view(c->set, &sh->views[i]->view);
    return true;
}

void aq_build_threads(aq_ctx *c, aq_table_id table)
{
    static const pv_column cols[] = {
        {PV_COLUMN_ID, 0},
        {"thread", "Thread", PV_TYPE_INT, PV_COL_NAME},
    };
    static const char *const consumed[] = {"ID", "COL_WIN32THREADID", "PARENT_ID", NULL};
    aq_table *src = &c->db->tables[table];
    aq_sel s;
    aq_select(&s, src, c->inst);
    aq_view vb;
    aq_view_init(&vb, "threads", "Threads", cols, PV_ARRAY_LEN(cols), src, consumed);
    size_t id = aq_col(src, "ID"), os = aq_col(src, "COL_WIN32THREADID");
    for (size_t i = 0; i < s.n; i++) {
        size_t r = pv_table_add_row(vb.t);
        int64_t v;
        if (aq_int(src, s.rows[i], id, &v))
            pv_table_set_int(vb.t, r, 0, v);
        if (aq_int_any(src, s.rows[i], os, &v))
            pv_table_set_int(vb.t, r, 1, v);
        aq_view_fill_extras(&vb, r, s.rows[i]);
    }
    aq_sel_free(&s);
    pv_set_add_view(c->set, pv_table_view(aq_view_finish(&vb)));
}

/* Which profilers hold rows of this result set. */
static void aq_set_profilers(aq_db *a, int64_t inst, bool out[AQ_PROF_COUNT])
{
    for (size_t p = 0; p < AQ_PROF_COUNT; p++) {
        out[p] = false;
        for (size_t k = 0; k < 3 && !out[p]; k++)
            out[p] = aq_has_inst(&a->tables[aq_profiler_main[p][k]], inst);
    }
}

/* The result sets of one INST_ID: one per profiler holding its rows.  With
 * `plan` (docs/aqtime.md "First screen") the sets get their summary and,
 * for the other views, placeholders that the background read fills in;
 * nothing is reported then (the read reports it all when it is done). */
static void aq_add_sets(pv_file *f, aq_db *a, int64_t inst, const char *caption,
                        const char *counter_name, const char *counter_desc, double freq,
                        bool freq_present, pv_file *plan)
{
    bool prof[AQ_PROF_COUNT];
    aq_set_profilers(a, inst, prof);
    size_t n = 0;
    for (size_t p = 0; p < AQ_PROF_COUNT; p++)
        n += prof[p];
    if (n == 0) {
        /* An empty result set still gets its node: the profiler whose tables exist. */
        for (size_t p = 0; p < AQ_PROF_COUNT; p++)
            if (a->has_profiler[p]) {
                prof[p] = true;
                break;
            }
    }
    for (size_t p = 0; p < AQ_PROF_COUNT; p++) {
        if (!prof[p])
            continue;
        aq_ctx c;
        memset(&c, 0, sizeof c);
        c.db = a;
        c.f = plan ? plan : f; /* the plan's messages are not kept */
        c.inst = inst;
        c.set = pv_file_add_set(f, inst, caption, aq_profiler_name[p]);
        const char *cname = counter_desc && counter_desc[0] ? counter_desc : counter_name;
        c.counter_name = pv_xstrdup(cname ? cname : "");
        c.frequency = freq_present ? freq : 0;
        if (p == AQ_PROF_TRACE) {
            /* docs/formats.md §5: Elapsed Time, User Time and User+Kernel Time are
             * stored in machine cycles; COUNTER_NAME says "Time" for them. */
            bool is_time = (counter_name && strcasecmp(counter_name, "Time") == 0) ||
                           (counter_desc && (strcasecmp(counter_desc, "Elapsed Time") == 0 ||
                                             strcasecmp(counter_desc, "User Time") == 0 ||
                                             strcasecmp(counter_desc, "User+Kernel Time") == 0));
            if (!counter_name && !counter_desc)
                is_time = true; /* AQTime's default counter is Elapsed Time */
            if (is_time && freq_present && freq > 0)
                c.time_counter = true;
            else if (is_time)
                aq_warn(&c, "INSTANCES: the counter is a time counter but COUNTER_FREQUENCY is "
                            "missing or not positive: times are shown in machine cycles");
            if (c.counter_name[0] == '\0') {
                free(c.counter_name);
                c.counter_name = pv_xstrdup(is_time ? "Elapsed Time" : "Counter");
            }
            if (!plan)
                pv_set_add_note(c.set, "counter: %s, %s", c.counter_name,
                                c.time_counter ? "machine cycles shown as time" : "shown as counts");
        }
        aq_counter *k = aq_counter_get(a, c.counter_name, c.frequency, c.time_counter);
        aq_summary(&c, k);
        if (plan)
            aq_defer_placeholders(a, c.set, (aq_profiler)p);
        else if (!aq_set_is_empty(a, inst, (aq_profiler)p) ||
                 !aq_add_shared(&c, k, (aq_profiler)p))
            aq_build_views(&c, (aq_profiler)p);
        pv_set_fit(c.set);
        free(c.counter_name);
    }
}

static int aq_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void aq_make_sets(pv_file *f, aq_db *a, pv_file *plan)
{
    pv_diag *diag = plan ? &plan->diag : &f->diag;
    /* One result set per INSTANCES row (docs/formats.md §5). */
    aq_table *inst = &a->tables[AQ_T_INSTANCES];
    size_t cap_col = aq_col(inst, "CAPTION"), cn_col = aq_col(inst, "COUNTER_NAME"),
           cd_col = aq_col(inst, "COUNTER_DESCRIPTION"), fr_col = aq_col(inst, "COUNTER_FREQUENCY");
    for (size_t r = 0; r < inst->row_count; r++) {
        int64_t id = aq_inst(inst, r);
        if (!aq_first_of_inst(inst, r)) {
            pv_warn(diag, "%s: table %s row %zu: INST_ID %" PRId64 " appears twice; the "
                    "first row is used", f->path, inst->db_name, aq_row_no(inst, r), id);
            continue;
        }
        char t1[64], t2[64], t3[64], capbuf[64];
        const char *caption = aq_text(inst, r, cap_col, t1, sizeof t1);
        if (!caption) {
            snprintf(capbuf, sizeof capbuf, "Result set %" PRId64, id);
            caption = capbuf;
        }
        double freq = 0;
        bool has_freq = aq_real(inst, r, fr_col, &freq);
        aq_add_sets(f, a, id, caption, aq_text(inst, r, cn_col, t2, sizeof t2),
                    aq_text(inst, r, cd_col, t3, sizeof t3), freq, has_freq, plan);
    }
    /* Rows of result sets that INSTANCES does not list still get a node. */
    int64_t *orphans = NULL;
    size_t orphan_count = 0, orphan_cap = 0;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        aq_table *tab = &a->tables[t];
        if (t == AQ_T_INSTANCES || t == AQ_T_RELATIONS)
            continue;
        for (size_t k = 0; k < tab->inst_count; k++) {
            int64_t id = tab->insts[k];
            if (aq_has_inst(inst, id))
                continue;
            orphans = pv_xgrow(orphans, &orphan_cap, orphan_count + 1, sizeof *orphans);
            orphans[orphan_count++] = id;
        }
    }
    /* each once, ascending (several tables may hold rows of one) */
    if (orphan_count)
        qsort(orphans, orphan_count, sizeof *orphans, aq_cmp_i64);
    size_t distinct = 0;
    for (size_t k = 0; k < orphan_count; k++)
        if (distinct == 0 || orphans[distinct - 1] != orphans[k])
            orphans[distinct++] = orphans[k];
    orphan_count = distinct;
    for (size_t k = 0; k < orphan_count; k++) {
        pv_warn(diag, "%s: INST_ID %" PRId64 " has rows but no INSTANCES row: shown without "
                "caption or counter", f->path, orphans[k]);
        char capbuf[64];
        snprintf(capbuf, sizeof capbuf, "Result set %" PRId64, orphans[k]);
        aq_add_sets(f, a, orphans[k], capbuf, NULL, NULL, 0, false, plan);
    }
    free(orphans);
}
