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

/* ---- result sets */

static void aq_summary(aq_ctx *c, const char *caption, aq_profiler p)
{
    pv_table *t = pv_summary_new();
    const char *facts[8][2];
    size_t n = 0;
    char inst[32], freq[64];
    snprintf(inst, sizeof inst, "%" PRId64, c->inst);
    facts[n][0] = "format";
    facts[n++][1] = "AQTime database";
    facts[n][0] = "file";
    facts[n++][1] = c->f->path;
    facts[n][0] = "result set";
    facts[n++][1] = inst;
    facts[n][0] = "caption";
    facts[n++][1] = caption;
    facts[n][0] = "profiler";
    facts[n++][1] = aq_profiler_name[p];
    if (c->counter_name && c->counter_name[0]) {
        facts[n][0] = "counter";
        facts[n++][1] = c->counter_name;
    }
    if (c->frequency > 0) {
        snprintf(freq, sizeof freq, "%.17g", c->frequency);
        facts[n][0] = "counter frequency";
        facts[n++][1] = freq;
        facts[n][0] = "counter unit";
        facts[n++][1] = c->time_counter ? "time (cycles converted to ns)" : "count";
    }
    for (size_t i = 0; i < n; i++)
        pv_summary_add(t, facts[i][0], facts[i][1]);
    pv_set_add_view(c->set, pv_table_view(t));
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
        aq_summary(&c, caption, (aq_profiler)p);
        if (plan)
            aq_defer_placeholders(a, c.set, (aq_profiler)p);
        else if (p == AQ_PROF_TRACE)
            aq_build_trace(&c);
        else
            aq_build_objects(&c, (aq_profiler)p);
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
    pv_hashmap seen;
    pv_hashmap_init(&seen);
    size_t cap_col = aq_col(inst, "CAPTION"), cn_col = aq_col(inst, "COUNTER_NAME"),
           cd_col = aq_col(inst, "COUNTER_DESCRIPTION"), fr_col = aq_col(inst, "COUNTER_FREQUENCY");
    for (size_t r = 0; r < inst->row_count; r++) {
        int64_t id = aq_inst(inst, r);
        uint32_t dummy;
        if (pv_hashmap_get(&seen, (uint64_t)id, &dummy)) {
            pv_warn(diag, "%s: table %s row %zu: INST_ID %" PRId64 " appears twice; the "
                    "first row is used", f->path, inst->db_name, aq_row_no(inst, r), id);
            continue;
        }
        pv_hashmap_put(&seen, (uint64_t)id, 1);
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
            uint32_t dummy;
            if (pv_hashmap_get(&seen, (uint64_t)id, &dummy))
                continue;
            pv_hashmap_put(&seen, (uint64_t)id, 2);
            orphans = pv_xgrow(orphans, &orphan_cap, orphan_count + 1, sizeof *orphans);
            orphans[orphan_count++] = id;
        }
    }
    pv_hashmap_free(&seen);
    if (orphan_count)
        qsort(orphans, orphan_count, sizeof *orphans, aq_cmp_i64);
    for (size_t k = 0; k < orphan_count; k++) {
        pv_warn(diag, "%s: INST_ID %" PRId64 " has rows but no INSTANCES row: shown without "
                "caption or counter", f->path, orphans[k]);
        char capbuf[64];
        snprintf(capbuf, sizeof capbuf, "Result set %" PRId64, orphans[k]);
        aq_add_sets(f, a, orphans[k], capbuf, NULL, NULL, 0, false, plan);
    }
    free(orphans);
}
