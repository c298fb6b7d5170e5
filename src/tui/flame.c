/* flame.c - the viewer's flame graph, icicle and sandwich (docs/flame.md).
 *
 * The graph is built from the Report's call tree through the flame module
 * (src/model/flame.c) under the Report's filter: a filter keeps the matching
 * calls and their ancestors (docs/filter.md), and a call it drops is hidden;
 * its time stays inside its parent's width (the parent's total includes it),
 * so widths never lie.  Frames are drawn level by level with the width of
 * their total time, in eighths of a cell: the cell where a frame ends shows
 * a left block of 1-7 eighths (UTF-8; `|` in ASCII), so a frame narrower
 * than a cell stays visible. */
#include "tui/flame.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profview/hooks.h"
#include "profview/query.h"
#include "tui/panel.h"

/* ---- geometry: where each node of the zoomed subtree lies, in eighths */

typedef struct fl_span {
    uint32_t node;
    int64_t s, e; /* [s, e) in eighths of a cell from the left of the pane */
} fl_span;

/* The frames of the subtree of `zoom` at least an eighth wide, parents
 * before children, siblings left to right.  `units` is the width in eighths. */
static fl_span *fl_layout(const pv_flame *fl, uint32_t zoom, int64_t units, size_t *count)
{
    size_t cap = 256, n = 0;
    fl_span *out = pv_xmalloc(cap * sizeof *out);
    double total = (double)fl->nodes[zoom].total;
    if (total <= 0) {
        *count = 0;
        return out;
    }
    out[n++] = (fl_span){zoom, 0, units};
    for (size_t i = 0; i < n; i++) {
        fl_span p = out[i];
        double x = (double)p.s;
        for (uint32_t c = fl->nodes[p.node].first_child; c != PV_FLAME_NONE;
             c = fl->nodes[c].next_sibling) {
            double w = (double)fl->nodes[c].total * (double)units / total;
            int64_t s = (int64_t)(x + 0.5), e = (int64_t)(x + w + 0.5);
            x += w;
            if (e > p.e)
                e = p.e;
            if (e - s < 1)
                continue;
            out = pv_xgrow(out, &cap, n + 1, sizeof *out);
            out[n++] = (fl_span){c, s, e};
        }
    }
    *count = n;
    return out;
}

static uint32_t fl_rel_depth(const pv_flame *fl, uint32_t zoom, uint32_t n)
{
    return fl->nodes[n].depth - fl->nodes[zoom].depth;
}

/* ---- search */

static bool fl_matches(const pv_flame *fl, uint32_t n, const char *text)
{
    if (!text[0])
        return false;
    const char *name = pv_flame_name(fl, n);
    size_t tl = strlen(text);
    for (size_t i = 0; i + tl <= fl->nodes[n].name_len; i++)
        if (strncasecmp(name + i, text, tl) == 0)
            return true;
    return false;
}

/* The share of the zoomed frame's total in frames that match (a match below
 * a match is counted once). */
static double fl_matched_share(const pv_flame *fl, uint32_t zoom, const char *text)
{
    if (!text[0] || fl->nodes[zoom].total <= 0)
        return 0;
    int64_t sum = 0;
    size_t cap = 64, top = 0;
    uint32_t *stack = pv_xmalloc(cap * sizeof *stack);
    stack[top++] = zoom;
    while (top) {
        uint32_t n = stack[--top];
        if (fl_matches(fl, n, text)) {
            sum += fl->nodes[n].total;
            continue;
        }
        for (uint32_t c = fl->nodes[n].first_child; c != PV_FLAME_NONE;
             c = fl->nodes[c].next_sibling) {
            stack = pv_xgrow(stack, &cap, top + 1, sizeof *stack);
            stack[top++] = c;
        }
    }
    free(stack);
    return (double)sum / (double)fl->nodes[zoom].total;
}

static const char *fl_search_text(const pv_app *a)
{
    if (a->prompt.kind == PV_PROMPT_SEARCH)
        return a->prompt.line.data ? a->prompt.line.data : "";
    return a->search.data ? a->search.data : "";
}

/* ---- building */

static void fl_clear_graph(pv_flame_ui *u)
{
    pv_flame_free(u->fl);
    u->fl = NULL;
    pv_flame_free(u->fl_b);
    u->fl_b = NULL;
    free(u->in_b);
    u->in_b = NULL;
    if (u->sw_valid)
        pv_sandwich_free(&u->sw);
    u->sw_valid = false;
}

/* The sandwich of `routine` in the graph (u->fl). */
static void fl_sandwich(pv_app *a, const char *routine)
{
    pv_flame_ui *u = &a->flame;
    char name[256];
    snprintf(name, sizeof name, "%s", routine); /* routine may be u->sw_name */
    if (u->sw_valid)
        pv_sandwich_free(&u->sw);
    u->sw_valid = pv_sandwich_build(u->fl, name, strlen(name), NULL, &u->sw);
    snprintf(u->sw_name, sizeof u->sw_name, "%s", name);
    if (!u->sw_valid) {
        pv_sandwich_free(&u->sw);
        pv_app_message(a, true, "the routine has no calls in the call tree");
        u->mode = u->graph_mode;
        return;
    }
    u->mode = PV_FLAME_SANDWICH;
    u->sw_callers = false;
    u->sw_sel = u->sw.callees->nodes[0].first_child;
    u->top = 0;
}

/* ---- building in slices (docs/flame.md "Speed"): the filter's pass over
 * the call tree (matching calls and their ancestors), then the merge; each
 * slice stops after FL_SLICE_S, so keys are answered between slices. */

#define FL_SLICE_S 0.004
/* Rows merged between two looks at the clock: calls cost 0.1-0.7 us each
 * (the 50 M-event BIN's call tree), so 8192 of them took up to 5.7 ms past
 * a slice's end; 1024 at most about 0.7 ms. */
#define FL_CHUNK 1024
#define FL_PROGRESS "Building the flame graph"

/* The build running, or NULL. */
static pv_flame_job *fl_job(const pv_app *a)
{
    return (pv_flame_job *)pv_jobs_beside(a, PV_JOB_BUILD);
}

static void fl_job_free(pv_job *job)
{
    pv_flame_job *j = (pv_flame_job *)job;
    pv_filter_free(j->f);
    free(j->keep);
    pv_flame_builder_free(j->fb);
    pv_buf_free(&j->filter);
}

/* The status line shows the build's progress unless it says something else. */
static bool fl_message_is_ours(pv_app *a)
{
    const char *m = pv_buf_cstr(&a->message);
    return !m[0] || strncmp(m, FL_PROGRESS, strlen(FL_PROGRESS)) == 0;
}

static void fl_progress(pv_app *a, const pv_flame_job *j)
{
    if (!fl_message_is_ours(a))
        return;
    /* the filter's pass, the merge of the calls, the frames inside them */
    size_t total = (j->keep ? j->rows : 0) + j->rows + j->inner_rows;
    size_t done = (j->pass >= 1 && j->keep ? j->rows : 0) + (j->pass == 2 ? j->rows : 0) + j->next;
    double pct = total ? 100.0 * (double)done / (double)total : 100.0;
    char text[160];
    snprintf(text, sizeof text, FL_PROGRESS ": %.0f%% of %zu calls (Esc stops)", pct, j->rows);
    pv_app_message(a, false, text);
}

/* Shows `fl` (built from `tree` under `filter`): it replaces the graph
 * shown (a rebuild) or opens in `mode`. */
static void fl_show(pv_app *a, pv_flame *fl, const pv_view *tree, const char *tree_file,
                    const char *filter, int mode, const char *routine, bool rebuild)
{
    pv_flame_ui *u = &a->flame;
    char name[256];
    snprintf(name, sizeof name, "%s", rebuild ? u->sw_name : routine);
    fl_clear_graph(u);
    u->fl = fl;
    u->tree = tree;
    if (tree_file != u->tree_file)
        snprintf(u->tree_file, sizeof u->tree_file, "%s", tree_file);
    pv_buf_clear(&u->filter);
    pv_buf_puts(&u->filter, filter);
    u->declined_set = false;
    u->problem[0] = '\0';
    u->zoom = 0;
    u->sel = fl->preorder_count ? fl->preorder[0] : 0;
    u->top = 0;
    if (!rebuild) {
        u->graph_mode = mode == PV_FLAME_SANDWICH ? PV_FLAME_FLAME : mode;
        u->mode = mode;
        a->focus = PV_PANE_REPORT;
    }
    if (u->mode == PV_FLAME_SANDWICH && name[0])
        fl_sandwich(a, name);
}

/* The build is done: its graph is shown (the job is freed after). */
static void fl_install(pv_app *a, pv_flame_job *j)
{
    pv_flame *fl = pv_flame_builder_finish(j->fb);
    j->fb = NULL;
    fl_show(a, fl, j->tree, j->tree_file, pv_buf_cstr(&j->filter), j->mode, j->routine,
            j->rebuild);
    if (fl_message_is_ours(a))
        pv_buf_clear(&a->message);
}

/* Runs the build for at most `max_rows` rows or until `until` (0: no
 * limit); installs the graph when it is done, and returns true then. */
static bool fl_run(pv_app *a, pv_flame_job *j, size_t max_rows, double until)
{
    size_t done = 0;
    for (;;) {
        size_t len = j->pass == 2 ? j->inner_rows : j->rows;
        if (j->next >= len) {
            if (j->pass < 2) {
                j->pass++;
                j->next = 0;
                continue;
            }
            /* Installing takes a step of its own: finishing and laying out
             * the graph took 6.3 ms of the 50 M-event BIN's call tree, which
             * after a step's rows made the step 9.3 ms (docs/flame.md
             * "Speed") */
            if (until > 0 && done > 0)
                return false;
            fl_install(a, j);
            return true;
        }
        if (done >= max_rows || (until > 0 && pv_clock_now() > until))
            return false;
        size_t n = max_rows - done < FL_CHUNK ? max_rows - done : FL_CHUNK;
        size_t to = len - j->next < n ? len : j->next + n;
        if (j->pass == 0)
            pv_filter_mark_tree(j->f, j->tree, j->next, to, j->keep);
        else if (j->pass == 1)
            pv_flame_builder_add(j->fb, j->next, to, j->keep);
        else
            pv_flame_builder_add_inner(j->fb, j->next, to);
        done += to - j->next;
        j->next = to;
    }
}

/* ---- the build as a job beside the one job (jobs.h) */

static bool fl_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    pv_flame_job *j = (pv_flame_job *)job;
    if (fl_run(a, j, b->units, b->deadline))
        return true;
    fl_progress(a, j);
    return false;
}

/* Esc, Ctrl-C: the graph shown stays; a rebuild's filter is not tried
 * again. */
static void fl_job_stop(pv_app *a, pv_job *job, bool say)
{
    pv_flame_job *j = (pv_flame_job *)job;
    if (!say)
        return;
    pv_flame_ui *u = &a->flame;
    if (j->rebuild) {
        pv_buf_clear(&u->declined);
        pv_buf_puts(&u->declined, pv_buf_cstr(&j->filter));
        u->declined_set = true;
    }
    pv_app_message(a, false,
                   j->rebuild ? "flame graph stopped: it still shows the previous filter"
                              : "flame graph stopped");
}

static const pv_job_ops fl_job_ops = {
    .keys = PV_JOB_KEYS_WAIT, /* Esc and Ctrl-C stop it (pv_flame_ui_stop); keys act */
    .beside = true,
    .slice_s = FL_SLICE_S,
    .step = fl_job_step,
    .stop = fl_job_stop,
    .free = fl_job_free,
};

/* Starts building the graph of `tree` under `filter`: at once for a tree of
 * at most PV_BIG_VIEW calls, else in slices between keys.  A filter that
 * does not compile on the call tree leaves no graph and says why. */
static void fl_start(pv_app *a, const pv_view *tree, const char *tree_file, const char *filter,
                     int mode, const char *routine, bool rebuild)
{
    pv_flame_ui *u = &a->flame;
    pv_jobs_stop_beside(a, PV_JOB_BUILD, false);
    if (!rebuild && u->kept && u->kept_tree == tree &&
        strcmp(pv_buf_cstr(&u->kept_filter), filter) == 0) {
        /* the graph closed last, of the same calls: shown again at once */
        pv_flame *fl = u->kept;
        u->kept = NULL;
        fl_show(a, fl, tree, tree_file, filter, mode, routine ? routine : "", false);
        return;
    }
    char err[256] = "";
    pv_filter *f = NULL;
    if (filter[0]) {
        pv_query_error qe;
        memset(&qe, 0, sizeof qe);
        f = pv_filter_compile(tree, filter, &qe);
        if (!f && qe.message[0])
            snprintf(err, sizeof err, "the filter does not apply to %.40s: %.180s", tree->id,
                     qe.message);
    }
    pv_flame_builder *fb = err[0] ? NULL : pv_flame_builder_new(tree, err, sizeof err);
    if (!fb) {
        /* no graph: the pane says why (and the filter is not tried again) */
        pv_filter_free(f);
        char file[256];
        snprintf(file, sizeof file, "%s", tree_file); /* may be u->tree_file */
        fl_clear_graph(u);
        u->tree = tree;
        snprintf(u->tree_file, sizeof u->tree_file, "%s", file);
        pv_buf_clear(&u->filter);
        pv_buf_puts(&u->filter, filter);
        snprintf(u->problem, sizeof u->problem, "%s", err);
        if (!rebuild) {
            u->graph_mode = mode == PV_FLAME_SANDWICH ? PV_FLAME_FLAME : mode;
            u->mode = mode;
            a->focus = PV_PANE_REPORT;
        }
        return;
    }
    pv_flame_job *j = (pv_flame_job *)pv_job_new(sizeof *j, &fl_job_ops, PV_JOB_BUILD);
    j->tree = tree;
    snprintf(j->tree_file, sizeof j->tree_file, "%s", tree_file);
    pv_buf_init(&j->filter);
    pv_buf_puts(&j->filter, filter);
    j->f = f;
    j->fb = fb;
    j->rows = pv_view_rows(tree);
    j->inner_rows = pv_flame_builder_inner_rows(fb);
    j->keep = f ? pv_xcalloc(j->rows ? j->rows : 1, 1) : NULL;
    j->pass = f ? 0 : 1;
    j->mode = mode;
    snprintf(j->routine, sizeof j->routine, "%s", routine ? routine : "");
    j->rebuild = rebuild;
    /* the test option flame-slice: that many rows per step, one step per
     * key in the scripted mode; in a terminal the steps are only small */
    int64_t slice = pv_test_get(&a->opt.load.test, PV_TEST_FLAME_SLICE, 0);
    j->base.fixed_units = slice > 0 ? (size_t)slice : 0;
    if (!j->base.fixed_units && j->rows <= PV_BIG_VIEW) {
        fl_run(a, j, SIZE_MAX, 0); /* small: at once */
        pv_job_free(&j->base);
    } else {
        pv_jobs_start_beside(a, &j->base);
        pv_buf_clear(&a->message); /* the newest work says how far it got */
        fl_progress(a, j);
    }
}

bool pv_flame_ui_stop(pv_app *a)
{
    return pv_jobs_stop_beside(a, PV_JOB_BUILD, true);
}

/* The node of `b` with the path of node n of `fl` (frames by name and
 * module), for every n: children are matched by walking both trees. */
static uint32_t *fl_match_paths(const pv_flame *fl, const pv_flame *b)
{
    uint32_t *in_b = pv_xmalloc((fl->count ? fl->count : 1) * sizeof *in_b);
    in_b[0] = 0;
    for (size_t i = 0; i < fl->preorder_count; i++) {
        uint32_t n = fl->preorder[i];
        uint32_t pb = in_b[fl->nodes[n].parent];
        in_b[n] = PV_FLAME_NONE;
        if (pb == PV_FLAME_NONE)
            continue;
        const char *name = pv_flame_name(fl, n);
        const char *mod = pv_strpool_get(&fl->pool, fl->nodes[n].module);
        for (uint32_t c = b->nodes[pb].first_child; c != PV_FLAME_NONE;
             c = b->nodes[c].next_sibling)
            if (b->nodes[c].name_len == fl->nodes[n].name_len &&
                memcmp(pv_flame_name(b, c), name, fl->nodes[n].name_len) == 0 &&
                strcmp(pv_strpool_get(&b->pool, b->nodes[c].module), mod) == 0) {
                in_b[n] = c;
                break;
            }
    }
    return in_b;
}

/* ---- open, close */

void pv_flame_ui_open(pv_app *a, int mode)
{
    pv_flame_ui *u = &a->flame;
    pv_flame_job *j = fl_job(a);
    if (j && !j->rebuild) {
        /* F/I while the graph is being built: what to show once it is */
        if (mode != PV_FLAME_SANDWICH)
            j->mode = mode;
        pv_buf_clear(&a->message);
        fl_progress(a, j);
        return;
    }
    if (u->mode && (mode == u->mode || (mode != PV_FLAME_SANDWICH && u->mode != PV_FLAME_SANDWICH &&
                                         mode == u->graph_mode))) {
        pv_flame_ui_close(a); /* the same key again: back to the table */
        return;
    }
    if (u->mode && mode != PV_FLAME_SANDWICH) {
        u->sw_from_table = false;
        u->mode = u->graph_mode = mode; /* flame <-> icicle, same graph */
        return;
    }
    const char *routine = NULL;
    char name[256] = "";
    if (!u->mode) {
        pv_report *r = pv_app_report(a);
        if (!r || a->loc.item >= a->item_count) {
            pv_app_message(a, true, "select a view of a result set with a call tree first");
            return;
        }
        const pv_item *it = &a->items[a->loc.item];
        const pv_file *f = a->files[it->file];
        pv_view *tree = pv_flame_source(f->sets[it->set]);
        if (!tree) {
            pv_app_message(a, true, "this result set has no call tree to draw");
            return;
        }
        if (pv_view_waits_for_index(tree, false)) {
            /* reading it now would finish the index on this thread: the
             * graph waits for it, queued (docs/tui.md "Loading and
             * indexing") */
            pv_command_args *q = pv_app_command_queue(a, PV_JOB_FLAME, it->file, NULL);
            if (q) {
                q->mode = mode;
                return;
            }
            char progress[128], text[256];
            pv_app_index_text(a, progress, sizeof progress);
            snprintf(text, sizeof text, "the call tree needs the whole index: %s", progress);
            pv_app_message(a, true, text);
            return;
        }
        if (mode == PV_FLAME_SANDWICH) {
            /* the routine of the selected row */
            size_t row = pv_report_selected(r);
            size_t col = pv_view_column(r->view, "routine");
            pv_cell c;
            if (row != PV_NO_ROW && col != PV_NO_ROW) {
                pv_view_cell(r->view, row, col, &c);
                if (c.present && c.type == PV_TYPE_STRING) {
                    snprintf(name, sizeof name, "%.*s", (int)c.v.s.len, c.v.s.ptr);
                    routine = name;
                }
            }
            if (!routine) {
                pv_app_message(a, true, "select a row with a routine for its sandwich");
                return;
            }
        }
        const char *slash = strrchr(f->path, '/');
        /* the Report's filter applies when the Report is the call tree */
        const char *filter = strcmp(r->view->id, tree->id) == 0 ? r->filter : "";
        u->sw_from_table = mode == PV_FLAME_SANDWICH;
        fl_start(a, tree, slash ? slash + 1 : f->path, filter, mode, routine, false);
        return;
    } else if (u->fl && u->mode != PV_FLAME_SANDWICH) {
        snprintf(name, sizeof name, "%s", pv_flame_name(u->fl, u->sel));
        routine = name;
        if (u->fl->nodes[u->sel].is_context || u->sel == 0) {
            pv_app_message(a, true, "select a routine's frame for its sandwich");
            return;
        }
    } else if (u->mode == PV_FLAME_SANDWICH && u->sw_valid) {
        const pv_flame *t = u->sw_callers ? u->sw.callers : u->sw.callees;
        snprintf(name, sizeof name, "%s", pv_flame_name(t, u->sw_sel));
        routine = name;
    }
    u->mode = mode;
    a->focus = PV_PANE_REPORT;
    if (mode == PV_FLAME_SANDWICH && u->fl && routine)
        fl_sandwich(a, routine);
}

void pv_flame_ui_close(pv_app *a)
{
    pv_flame_ui *u = &a->flame;
    if (u->fl && u->tree) {
        /* kept: the same key again shows it without merging every call again */
        pv_flame_free(u->kept);
        u->kept = u->fl;
        u->fl = NULL;
        u->kept_tree = u->tree;
        pv_buf_clear(&u->kept_filter);
        pv_buf_puts(&u->kept_filter, pv_buf_cstr(&u->filter));
    }
    pv_flame_job *j = fl_job(a);
    if (j && !j->rebuild && fl_message_is_ours(a))
        pv_app_message(a, false, "flame graph stopped"); /* another view was chosen */
    fl_clear_graph(u);
    pv_jobs_stop_beside(a, PV_JOB_BUILD, false);
    u->mode = PV_FLAME_OFF;
    u->tree = NULL;
    pv_buf_free(&u->filter);
    pv_buf_free(&u->declined);
    u->declined_set = false;
}

void pv_flame_ui_free(pv_app *a)
{
    pv_flame_ui_close(a);
    for (size_t k = 0; k < a->diff.win.arrived && k < 2; k++)
        pv_file_free(a->diff.win.file[k]); /* a window diff still waiting for its other half */
    a->diff.win.arrived = 0;
    pv_flame_free(a->flame.kept);
    a->flame.kept = NULL;
    a->flame.kept_tree = NULL;
    pv_buf_free(&a->flame.kept_filter);
}

/* ---- :diff with a graph shown as a job (jobs.h, PV_JOB_DIFF): the other
 * call tree's graph built in steps (its calls, then the frames inside
 * them), its frames matched to the graph's and shown only in its last
 * step; a stop leaves the graph as it was. */

typedef struct fl_diff_job {
    pv_job base;
    const pv_view *tree; /* the other call tree (its file stays open) */
    pv_flame_builder *fb;
    int pass;            /* 1: the calls, 2: the frames inside them */
    size_t next, rows, inner_rows;
    char name[256];
} fl_diff_job;

/* The other graph is built: the graph shown is coloured by it. */
static void fl_diff_done(pv_app *a, fl_diff_job *j)
{
    pv_flame_ui *u = &a->flame;
    pv_flame *b = pv_flame_builder_finish(j->fb);
    j->fb = NULL;
    if (!u->fl) { /* the graph went meanwhile */
        pv_flame_free(b);
        return;
    }
    pv_flame_free(u->fl_b);
    free(u->in_b);
    u->fl_b = b;
    u->in_b = fl_match_paths(u->fl, b);
    snprintf(u->b_name, sizeof u->b_name, "%s", j->name);
    pv_app_messagef(a, false, "frames coloured by the change of their self time in %s", j->name);
}

static bool fl_diff_step(pv_app *a, pv_job *job, pv_budget *b)
{
    fl_diff_job *j = (fl_diff_job *)job;
    for (bool first = true;; first = false) {
        size_t len = j->pass == 2 ? j->inner_rows : j->rows;
        if (j->next >= len) {
            if (j->pass == 1) {
                j->pass = 2;
                j->next = 0;
                continue;
            }
            fl_diff_done(a, j);
            return true;
        }
        if (!first && (b->units == 0 || pv_budget_late(b)))
            break;
        size_t n = b->units < FL_CHUNK ? (b->units ? b->units : 1) : FL_CHUNK;
        size_t to = len - j->next < n ? len : j->next + n;
        if (j->pass == 1)
            pv_flame_builder_add(j->fb, j->next, to, NULL);
        else
            pv_flame_builder_add_inner(j->fb, j->next, to);
        pv_budget_spend(b, to - j->next);
        j->next = to;
    }
    size_t total = j->rows + j->inner_rows;
    size_t done = (j->pass == 2 ? j->rows : 0) + j->next;
    pv_app_messagef(a, false, "Comparing... %.0f%% (Esc stops)",
                    total ? 100.0 * (double)done / (double)total : 100.0);
    return false;
}

static void fl_diff_stop(pv_app *a, pv_job *job, bool say)
{
    if (say)
        pv_app_messagef(a, false, "comparison %s: the graph stays as it was",
                        job->queued ? "cancelled" : "stopped");
}

static void fl_diff_free(pv_job *job)
{
    pv_flame_builder_free(((fl_diff_job *)job)->fb);
}

static const pv_job_ops fl_diff_ops = {
    .keys = PV_JOB_KEYS_STOP,
    .paced = true,
    .step = fl_diff_step,
    .stop = fl_diff_stop,
    .free = fl_diff_free,
};

void pv_flame_ui_diff(pv_app *a, const pv_view *other_tree, const char *name)
{
    pv_flame_ui *u = &a->flame;
    if (!u->fl)
        return;
    char err[256];
    pv_flame_builder *fb = pv_flame_builder_new(other_tree, err, sizeof err);
    if (!fb) {
        pv_app_message(a, true, err);
        return;
    }
    fl_diff_job *j = (fl_diff_job *)pv_job_new(sizeof *j, &fl_diff_ops, PV_JOB_DIFF);
    j->tree = other_tree;
    j->fb = fb;
    j->pass = 1;
    j->rows = pv_view_rows(other_tree);
    j->inner_rows = pv_flame_builder_inner_rows(fb);
    snprintf(j->name, sizeof j->name, "%s", name);
    if (!a->jobs.fixed && j->rows + j->inner_rows <= PV_BIG_VIEW) {
        pv_budget all = {SIZE_MAX, 0};
        fl_diff_step(a, &j->base, &all); /* small: at once */
        pv_job_free(&j->base);
        return;
    }
    pv_jobs_start_now(a, &j->base);
}

/* ---- keys */

/* The next frame at the same depth to the left (dir -1) or right (+1)
 * inside the zoomed subtree and wide enough to be drawn. */
static uint32_t fl_sideways(pv_app *a, const fl_span *sp, size_t n, int dir)
{
    pv_flame_ui *u = &a->flame;
    uint32_t depth = u->fl->nodes[u->sel].depth;
    size_t at = n;
    for (size_t i = 0; i < n; i++)
        if (sp[i].node == u->sel)
            at = i;
    if (at == n)
        return u->sel;
    int64_t best_s = dir > 0 ? INT64_MAX : INT64_MIN;
    uint32_t best = u->sel;
    for (size_t i = 0; i < n; i++) {
        if (u->fl->nodes[sp[i].node].depth != depth || i == at)
            continue;
        if (dir > 0 && sp[i].s >= sp[at].e && sp[i].s < best_s)
            best_s = sp[i].s, best = sp[i].node;
        if (dir < 0 && sp[i].e <= sp[at].s && sp[i].s > best_s)
            best_s = sp[i].s, best = sp[i].node;
    }
    return best;
}

/* The widest child drawn, or the node itself. */
static uint32_t fl_widest_child(const pv_flame *fl, uint32_t n)
{
    uint32_t best = PV_FLAME_NONE;
    for (uint32_t c = fl->nodes[n].first_child; c != PV_FLAME_NONE; c = fl->nodes[c].next_sibling)
        if (fl->nodes[c].total > 0 && (best == PV_FLAME_NONE || fl->nodes[c].total > fl->nodes[best].total))
            best = c;
    return best == PV_FLAME_NONE ? n : best;
}

static bool fl_sandwich_key(pv_app *a, pv_action act)
{
    pv_flame_ui *u = &a->flame;
    pv_flame *t = u->sw_callers ? u->sw.callers : u->sw.callees;
    uint32_t s = u->sw_sel;
    /* callers are drawn upwards from the routine, callees downwards */
    bool towards_leaf = (act == PV_ACT_UP) == u->sw_callers;
    switch (act) {
    case PV_ACT_UP:
    case PV_ACT_DOWN:
        if (towards_leaf) {
            u->sw_sel = fl_widest_child(t, s);
        } else if (t->nodes[s].parent != 0 && t->nodes[s].parent != PV_FLAME_NONE) {
            u->sw_sel = t->nodes[s].parent;
        } else if (u->sw_callers) {
            u->sw_callers = false;
            u->sw_sel = u->sw.callees->nodes[0].first_child;
        } else if (u->sw.callers->nodes[u->sw.callers->nodes[0].first_child].first_child !=
                   PV_FLAME_NONE) {
            u->sw_callers = true;
            u->sw_sel = fl_widest_child(u->sw.callers, u->sw.callers->nodes[0].first_child);
        }
        return true;
    case PV_ACT_LEFT:
    case PV_ACT_RIGHT: {
        uint32_t p = t->nodes[s].parent;
        if (p == PV_FLAME_NONE)
            return true;
        uint32_t prev = PV_FLAME_NONE;
        for (uint32_t c = t->nodes[p].first_child; c != PV_FLAME_NONE; c = t->nodes[c].next_sibling) {
            if (act == PV_ACT_RIGHT && prev == s) {
                u->sw_sel = c;
                break;
            }
            if (act == PV_ACT_LEFT && c == s && prev != PV_FLAME_NONE) {
                u->sw_sel = prev;
                break;
            }
            prev = c;
        }
        return true;
    }
    case PV_ACT_OPEN: {
        /* the selected caller or callee becomes the middle */
        if (t->nodes[s].is_context) {
            pv_app_message(a, true, "select a routine's frame for its sandwich");
            return true;
        }
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)t->nodes[s].name_len, pv_flame_name(t, s));
        fl_sandwich(a, name);
        return true;
    }
    case PV_ACT_QUIT:
        if (u->sw_from_table) { /* q: back where it came from (docs/tui.md "Quitting") */
            pv_flame_ui_close(a);
            return true;
        }
        u->mode = u->graph_mode;
        return true;
    case PV_ACT_BACK:
        u->sw_from_table = false; /* the graph now: q comes back to it */
        u->mode = u->graph_mode;
        return true;
    default:
        return false;
    }
}

bool pv_flame_ui_key(pv_app *a, pv_action act)
{
    pv_flame_ui *u = &a->flame;
    if (!u->mode || a->focus != PV_PANE_REPORT)
        return false;
    if (act == PV_ACT_FLAME || act == PV_ACT_ICICLE || act == PV_ACT_SANDWICH) {
        pv_flame_ui_open(a, act == PV_ACT_FLAME    ? PV_FLAME_FLAME
                            : act == PV_ACT_ICICLE ? PV_FLAME_ICICLE
                                                   : PV_FLAME_SANDWICH);
        return true;
    }
    if (!u->fl)
        return act != PV_ACT_QUIT ? false : (pv_flame_ui_close(a), true);
    if (u->mode == PV_FLAME_SANDWICH && u->sw_valid)
        return fl_sandwich_key(a, act);
    const pv_flame *fl = u->fl;
    bool icicle = u->mode == PV_FLAME_ICICLE;
    int64_t units = (int64_t)(a->rect[PV_PANE_REPORT].w > 0 ? a->rect[PV_PANE_REPORT].w : 80) * 8;
    switch (act) {
    case PV_ACT_UP:
    case PV_ACT_DOWN:
        /* up the flame is towards the leaves; in an icicle, towards the root */
        if ((act == PV_ACT_UP) != icicle) {
            u->sel = fl_widest_child(fl, u->sel);
        } else if (u->sel != u->zoom && fl->nodes[u->sel].parent != PV_FLAME_NONE &&
                   fl->nodes[u->sel].parent != 0) {
            u->sel = fl->nodes[u->sel].parent;
        }
        return true;
    case PV_ACT_LEFT:
    case PV_ACT_RIGHT: {
        size_t n;
        fl_span *sp = fl_layout(fl, u->zoom, units, &n);
        u->sel = fl_sideways(a, sp, n, act == PV_ACT_RIGHT ? 1 : -1);
        free(sp);
        return true;
    }
    case PV_ACT_OPEN:
        /* zoom into the frame: its ancestors become the breadcrumb */
        u->zoom = u->sel;
        u->top = 0;
        return true;
    case PV_ACT_BACK:
        if (u->zoom != 0) {
            u->zoom = fl->nodes[u->zoom].parent;
            u->top = 0;
        } else {
            pv_flame_ui_close(a);
        }
        return true;
    case PV_ACT_FIRST:
        u->zoom = 0;
        u->sel = fl->preorder_count ? fl->preorder[0] : 0;
        u->top = 0;
        return true;
    case PV_ACT_SEARCH_NEXT:
    case PV_ACT_SEARCH_PREV: {
        /* the next matching frame in pre-order (left to right, top down) */
        const char *text = fl_search_text(a);
        if (!text[0] || !fl->preorder_count)
            return true;
        size_t at = 0;
        for (size_t i = 0; i < fl->preorder_count; i++)
            if (fl->preorder[i] == u->sel)
                at = i;
        size_t n = fl->preorder_count;
        for (size_t k = 1; k <= n; k++) {
            size_t i = act == PV_ACT_SEARCH_NEXT ? (at + k) % n : (at + n - k) % n;
            uint32_t x = fl->preorder[i];
            if (fl_matches(fl, x, text)) {
                u->sel = x;
                /* zoom out far enough to show it */
                uint32_t z = u->zoom;
                uint32_t p = x;
                while (p != PV_FLAME_NONE && p != z)
                    p = fl->nodes[p].parent;
                if (p == PV_FLAME_NONE)
                    u->zoom = 0;
                break;
            }
        }
        return true;
    }
    case PV_ACT_QUIT:
        pv_flame_ui_close(a);
        return true;
    case PV_ACT_FILTER:
    case PV_ACT_SEARCH:
    case PV_ACT_COMMAND:
    case PV_ACT_HELP:
    case PV_ACT_NEXT_PANE:
    case PV_ACT_PREV_PANE:
    case PV_ACT_ZOOM:
    case PV_ACT_SHRINK:
    case PV_ACT_GROW:
    case PV_ACT_REDRAW:
        return false; /* as everywhere */
    default:
        return true; /* table keys mean nothing here */
    }
}

/* ---- mouse */

/* The frame drawn at screen cell (y, x), or PV_FLAME_NONE; *which = the
 * index of the graph (hit) it is in. */
static uint32_t fl_frame_at(pv_app *a, int y, int x, int *which)
{
    pv_flame_ui *u = &a->flame;
    for (int i = 0; i < u->hit_count; i++) {
        const pv_flame_hit *h = &u->hit[i];
        if (y < h->y0 || y >= h->y0 + h->h || x < h->x0 || x >= h->x0 + h->w)
            continue;
        int rel = h->upwards ? h->base - y : y - h->base;
        if (rel < 0)
            continue;
        size_t level = h->first + (size_t)rel;
        size_t n;
        fl_span *sp = fl_layout(h->fl, h->zoom, (int64_t)h->w * 8, &n);
        /* the frame under the middle of the cell, else one that ends in it */
        int64_t mid = (int64_t)(x - h->x0) * 8 + 4, cell = x - h->x0;
        uint32_t found = PV_FLAME_NONE;
        for (size_t k = 0; k < n; k++) {
            if (fl_rel_depth(h->fl, h->zoom, sp[k].node) != level)
                continue;
            if (sp[k].s <= mid && mid < sp[k].e) {
                found = sp[k].node;
                break;
            }
            if (found == PV_FLAME_NONE && sp[k].s / 8 <= cell && (sp[k].e - 1) / 8 >= cell)
                found = sp[k].node;
        }
        free(sp);
        if (found != PV_FLAME_NONE) {
            *which = i;
            return found;
        }
    }
    return PV_FLAME_NONE;
}

bool pv_flame_ui_mouse(pv_app *a, int y, int x, int button)
{
    pv_flame_ui *u = &a->flame;
    const pv_rect *rc = &a->rect[PV_PANE_REPORT];
    if (!u->mode || !u->fl || rc->w <= 0 || y < rc->y || y >= rc->y + rc->h || x < rc->x ||
        x >= rc->x + rc->w)
        return false;
    a->focus = PV_PANE_REPORT;
    if (button == 4 || button == 5) {
        pv_flame_ui_key(a, button == 4 ? PV_ACT_UP : PV_ACT_DOWN);
        return true;
    }
    if (button != 1)
        return true;
    if (y == u->crumb_y && u->mode != PV_FLAME_SANDWICH) {
        if (u->zoom != 0) { /* the breadcrumb: out one level */
            u->zoom = u->fl->nodes[u->zoom].parent;
            u->top = 0;
        }
        return true;
    }
    int which = 0;
    uint32_t node = fl_frame_at(a, y, x, &which);
    if (node == PV_FLAME_NONE)
        return true;
    if (u->mode == PV_FLAME_SANDWICH && u->sw_valid) {
        bool callers = u->hit[which].fl == u->sw.callers;
        if (callers == u->sw_callers && node == u->sw_sel) {
            fl_sandwich_key(a, PV_ACT_OPEN); /* the selected one: the new middle */
        } else {
            u->sw_callers = callers;
            u->sw_sel = node;
        }
        return true;
    }
    if (node == u->sel) {
        u->zoom = node; /* a click on the selected frame zooms into it */
        u->top = 0;
    } else {
        u->sel = node;
    }
    return true;
}

/* ---- drawing */

static pv_role fl_role(const pv_app *a, const pv_flame *fl, uint32_t n, const char *search,
                       bool diff_b, const uint32_t *in_b, const pv_flame *b)
{
    if (fl_matches(fl, n, search))
        return PV_ROLE_FLAME_MATCH;
    if (diff_b) {
        /* the change of the frame's self time, B against A, against 1% of
         * the frame's total or 1 ns */
        int64_t self_a = fl->nodes[n].self;
        int64_t self_b = in_b[n] != PV_FLAME_NONE ? b->nodes[in_b[n]].self : 0;
        int64_t d = self_b - self_a;
        int64_t quiet = fl->nodes[n].total / 100;
        if (quiet < 1)
            quiet = 1;
        if (in_b[n] == PV_FLAME_NONE || d <= -quiet)
            return PV_ROLE_BETTER;
        if (d >= quiet)
            return PV_ROLE_WORSE;
        return PV_ROLE_DIM;
    }
    (void)a;
    return (pv_role)(PV_ROLE_FLAME_1 + fl->nodes[n].group % 4);
}

/* Draws the frames of `fl` under `zoom` in rows y0 .. y0+h-1: level L (0 =
 * the zoomed frame) at row `base - L` when growing upwards, `base + L`
 * otherwise; levels below `first` are not drawn. */
static void fl_draw_graph(pv_app *a, const pv_flame *fl, uint32_t zoom, uint32_t sel, int x0,
                          int w, int y0, int h, int base, bool upwards, size_t first,
                          const uint32_t *in_b, const pv_flame *b, bool show_sel)
{
    static const uint32_t eighths[8] = {0, 0x258F, 0x258E, 0x258D, 0x258C, 0x258B, 0x258A, 0x2589};
    pv_flame_ui *u = &a->flame;
    if (u->hit_count < 2)
        u->hit[u->hit_count++] = (pv_flame_hit){fl, zoom, x0, w, y0, h, base, upwards, first};
    size_t n;
    fl_span *sp = fl_layout(fl, zoom, (int64_t)w * 8, &n);
    const char *search = fl_search_text(a);
    pv_buf label;
    pv_buf_init(&label);
    for (size_t i = 0; i < n; i++) {
        uint32_t node = sp[i].node;
        size_t level = fl_rel_depth(fl, zoom, node);
        if (level < first)
            continue;
        int y = upwards ? base - (int)(level - first) : base + (int)(level - first);
        if (y < y0 || y >= y0 + h)
            continue;
        int cs = (int)(sp[i].s / 8), ce = (int)(sp[i].e / 8), frac = (int)(sp[i].e % 8);
        pv_role role = node == sel && show_sel ? PV_ROLE_SELECTED
                                               : fl_role(a, fl, node, search, in_b != NULL, in_b, b);
        if (ce > cs) {
            pv_grid_fill(&a->grid, y, x0 + cs, ce - cs, 1, role);
            /* a thin line between frames, then the name */
            int tx = x0 + cs;
            if (ce - cs >= 3) {
                pv_grid_char(&a->grid, y, tx, a->ascii ? (uint32_t)'|' : 0x258F, role);
                tx++;
            }
            pv_buf_clear(&label);
            pv_buf_append(&label, pv_flame_name(fl, node), fl->nodes[node].name_len);
            pv_grid_text(&a->grid, y, tx, x0 + ce - tx, label.data, label.len, role);
        }
        if (frac && cs <= ce && ce < w) {
            /* the frame ends inside this cell: a left block of frac eighths */
            pv_role er = node == sel && show_sel ? PV_ROLE_SELECTED : PV_ROLE_FLAME_EDGE;
            if (ce == cs && role == PV_ROLE_FLAME_MATCH)
                er = PV_ROLE_FLAME_MATCH;
            pv_grid_char(&a->grid, y, x0 + ce, a->ascii ? (uint32_t)'|' : eighths[frac], er);
        }
    }
    pv_buf_free(&label);
    free(sp);
}

static void fl_time_text(const pv_app *a, pv_type type, int64_t t, pv_buf *out)
{
    pv_cell c = {.type = type, .present = true};
    c.v.i = t;
    pv_cell_format_human(&c, a->unit, out);
}

static void fl_details_line(pv_app *a, const pv_rect *rc, int *line, const char *key,
                            const char *text)
{
    if (*line >= rc->h)
        return;
    int y = rc->y + *line;
    pv_grid_str(&a->grid, y, rc->x, 10, key, PV_ROLE_HEADER);
    pv_grid_str(&a->grid, y, rc->x + 10, rc->w - 10, text, PV_ROLE_NORMAL);
    (*line)++;
}

/* The selected frame's statistics in the Details pane. */
static void fl_draw_details(pv_app *a, const pv_flame *fl, uint32_t n, uint32_t zoom,
                            const pv_rect *rc)
{
    pv_flame_ui *u = &a->flame;
    pv_buf t1, t2, text;
    pv_buf_init(&t1);
    pv_buf_init(&t2);
    pv_buf_init(&text);
    int line = 0;
    const pv_flame_node *node = &fl->nodes[n];
    pv_buf_append(&text, pv_flame_name(fl, n), node->name_len);
    if (node->module && !node->is_context)
        pv_buf_printf(&text, "   (%s)", pv_strpool_get(&fl->pool, node->module));
    fl_details_line(a, rc, &line, "Frame", pv_buf_cstr(&text));
    double all = fl->nodes[0].total > 0 ? (double)fl->nodes[0].total : 1;
    double zt = fl->nodes[zoom].total > 0 ? (double)fl->nodes[zoom].total : 1;
    uint32_t p = node->parent;
    double pt = p != PV_FLAME_NONE && fl->nodes[p].total > 0 ? (double)fl->nodes[p].total : 1;
    pv_buf_clear(&t1);
    fl_time_text(a, fl->time_type, node->total, &t1);
    pv_buf_clear(&text);
    pv_buf_printf(&text, "%s   %.1f%% of all, %.1f%% of the zoomed frame, %.1f%% of its caller",
                  pv_buf_cstr(&t1), 100.0 * (double)node->total / all,
                  100.0 * (double)node->total / zt, 100.0 * (double)node->total / pt);
    fl_details_line(a, rc, &line, "Total", pv_buf_cstr(&text));
    pv_buf_clear(&t1);
    fl_time_text(a, fl->time_type, node->self, &t1);
    pv_buf_clear(&text);
    pv_buf_printf(&text, "%s   %.1f%% of all", pv_buf_cstr(&t1), 100.0 * (double)node->self / all);
    fl_details_line(a, rc, &line, "Self", pv_buf_cstr(&text));
    pv_buf_clear(&text);
    pv_buf_printf(&text, "%" PRIu64 "   depth %u", node->calls, node->depth ? node->depth - 1 : 0);
    fl_details_line(a, rc, &line, "Calls", pv_buf_cstr(&text));
    if (fl == u->fl && u->in_b) {
        uint32_t nb = u->in_b[n];
        pv_buf_clear(&text);
        if (nb == PV_FLAME_NONE) {
            pv_buf_printf(&text, "not in %s", u->b_name);
        } else {
            pv_buf_clear(&t1);
            fl_time_text(a, fl->time_type, u->fl_b->nodes[nb].self, &t1);
            pv_buf_clear(&t2);
            fl_time_text(a, fl->time_type, u->fl_b->nodes[nb].self - node->self, &t2);
            pv_buf_printf(&text, "self %s in %s (delta %s)", pv_buf_cstr(&t1), u->b_name,
                          pv_buf_cstr(&t2));
        }
        fl_details_line(a, rc, &line, "Diff", pv_buf_cstr(&text));
    }
    pv_buf_clear(&text);
    pv_flame_stack(fl, n, &text);
    fl_details_line(a, rc, &line, "Stack", pv_buf_cstr(&text));
    pv_buf_free(&t1);
    pv_buf_free(&t2);
    pv_buf_free(&text);
}

static void fl_title(pv_app *a, const pv_rect *rc, const char *title)
{
    bool focused = a->focus == PV_PANE_REPORT;
    pv_role role = focused ? PV_ROLE_TITLE_FOCUS : PV_ROLE_TITLE;
    for (int i = 0; i < rc->w; i++)
        pv_grid_char(&a->grid, rc->y, rc->x + i, a->ascii ? (uint32_t)'-' : 0x2500, PV_ROLE_BORDER);
    if (rc->w > 4) {
        pv_grid_char(&a->grid, rc->y, rc->x + 1, ' ', role);
        int used = pv_grid_str(&a->grid, rc->y, rc->x + 2, rc->w - 4, title, role);
        pv_grid_char(&a->grid, rc->y, rc->x + 2 + used, ' ', role);
    }
}

static void fl_draw_sandwich(pv_app *a, const pv_rect *rc, const pv_rect *det)
{
    pv_flame_ui *u = &a->flame;
    pv_buf t;
    pv_buf_init(&t);
    fl_time_text(a, u->fl->time_type, u->sw.through, &t);
    char line[512];
    snprintf(line, sizeof line, "%s: %s through it in %" PRIu64 " calls  (callers above, callees below)",
             u->sw_name, pv_buf_cstr(&t), u->sw.calls);
    pv_buf_free(&t);
    int y0 = rc->y + 1, h = rc->h - 1;
    if (h < 3)
        return;
    pv_grid_str(&a->grid, y0, rc->x, rc->w, line, PV_ROLE_NORMAL);
    y0++, h--;
    /* the routine's row in the middle; callers grow upwards from it, callees
     * downwards (the callers tree's top level is the routine itself) */
    int mid = y0 + (h - 1) / 2;
    uint32_t croot = u->sw.callers->nodes[0].first_child;
    uint32_t eroot = u->sw.callees->nodes[0].first_child;
    fl_draw_graph(a, u->sw.callers, croot, u->sw_callers ? u->sw_sel : PV_FLAME_NONE, rc->x, rc->w,
                  y0, mid - y0, mid - 1, true, 1, NULL, NULL, u->sw_callers);
    fl_draw_graph(a, u->sw.callees, eroot, u->sw_callers ? PV_FLAME_NONE : u->sw_sel, rc->x,
                  rc->w, mid, y0 + h - mid, mid, false, 0, NULL, NULL, !u->sw_callers);
    if (det->h > 1) {
        pv_rect body = {det->y + 1, det->x, det->w, det->h - 1};
        const pv_flame *t2 = u->sw_callers ? u->sw.callers : u->sw.callees;
        fl_draw_details(a, t2, u->sw_sel, t2->nodes[0].first_child, &body);
    }
}

void pv_flame_ui_draw(pv_app *a, const pv_rect *rc, const pv_rect *det)
{
    pv_flame_ui *u = &a->flame;
    /* the Report's filter changed: the graph follows it */
    pv_report *r = pv_app_report(a);
    if (r && u->tree && strcmp(r->view->id, u->tree->id) == 0) {
        bool same = strcmp(r->filter, pv_buf_cstr(&u->filter)) == 0;
        pv_flame_job *j = fl_job(a);
        if (same && j)
            pv_jobs_stop_beside(a, PV_JOB_BUILD, false); /* back to the filter of the graph shown */
        else if (!same && !(u->declined_set && strcmp(r->filter, pv_buf_cstr(&u->declined)) == 0) &&
                 !(j && strcmp(r->filter, pv_buf_cstr(&j->filter)) == 0))
            fl_start(a, u->tree, u->tree_file, r->filter, u->mode, NULL, true);
    }
    const char *kind = u->mode == PV_FLAME_SANDWICH ? "Sandwich"
                       : u->mode == PV_FLAME_ICICLE ? "Icicle"
                                                    : "Flame graph";
    bool declined = r && u->declined_set && strcmp(r->filter, pv_buf_cstr(&u->declined)) == 0;
    char title[1024];
    snprintf(title, sizeof title, "%s: %s of %s%s%s%s%s", kind, u->tree ? u->tree->title : "",
             u->tree_file, u->filter.len ? " (filtered)" : "",
             declined ? " (previous filter)" : "", u->in_b ? " vs " : "",
             u->in_b ? u->b_name : "");
    fl_title(a, rc, title);
    a->rp.header_count = 0;
    u->hit_count = 0;
    u->crumb_y = -1;
    if (rc->h < 2 || rc->w < 4)
        return;
    if (!u->fl) {
        pv_grid_str(&a->grid, rc->y + 1, rc->x, rc->w, u->problem, PV_ROLE_ERROR);
        return;
    }
    if (u->mode == PV_FLAME_SANDWICH && u->sw_valid) {
        fl_draw_sandwich(a, rc, det);
        return;
    }
    const pv_flame *fl = u->fl;
    if (fl->nodes[0].total <= 0 || !fl->preorder_count) {
        pv_grid_str(&a->grid, rc->y + 1, rc->x, rc->w,
                    u->filter.len ? "(no call matches the filter)" : "(no time in the call tree)",
                    PV_ROLE_DIM);
        return;
    }
    /* breadcrumb: the zoomed frame's ancestors; and the search's share */
    pv_buf crumb;
    pv_buf_init(&crumb);
    uint32_t path[64];
    size_t k = 0;
    for (uint32_t x = u->zoom; x != PV_FLAME_NONE && k < 64; x = fl->nodes[x].parent)
        path[k++] = x;
    for (size_t i = k; i-- > 0;) {
        if (i + 1 < k)
            pv_buf_puts(&crumb, a->ascii ? " > " : " \xe2\x80\xba ");
        if (path[i] == 0)
            pv_buf_puts(&crumb, "all");
        else
            pv_buf_append(&crumb, pv_flame_name(fl, path[i]), fl->nodes[path[i]].name_len);
    }
    const char *search = fl_search_text(a);
    char share[96] = "";
    if (search[0])
        snprintf(share, sizeof share, "  match: %.1f%%", 100.0 * fl_matched_share(fl, u->zoom, search));
    int sw = (int)strlen(share);
    u->crumb_y = rc->y + 1;
    int used = pv_grid_text(&a->grid, rc->y + 1, rc->x, rc->w - sw, crumb.data, crumb.len,
                            PV_ROLE_DIM);
    if (sw && used + sw <= rc->w)
        pv_grid_str(&a->grid, rc->y + 1, rc->x + rc->w - sw, sw, share, PV_ROLE_FLAME_MATCH);
    pv_buf_free(&crumb);
    /* the levels: keep the selected one on screen */
    int y0 = rc->y + 2, h = rc->h - 2;
    if (h < 1)
        return;
    a->page_rows[PV_PANE_REPORT] = h;
    uint32_t sel_uint = u->sel;
    uint32_t p = sel_uint;
    while (p != PV_FLAME_NONE && p != u->zoom)
        p = fl->nodes[p].parent;
    if (p == PV_FLAME_NONE)
        u->sel = u->zoom == 0 && fl->preorder_count ? fl->preorder[0] : u->zoom;
    size_t level = fl_rel_depth(fl, u->zoom, u->sel);
    if (level < u->top)
        u->top = level;
    if (level >= u->top + (size_t)h)
        u->top = level - (size_t)h + 1;
    bool icicle = u->mode == PV_FLAME_ICICLE;
    /* the root "all" is not drawn unless zoomed into a frame */
    size_t first = u->zoom == 0 ? 1 : 0;
    if (u->top < first)
        u->top = first;
    fl_draw_graph(a, fl, u->zoom, u->sel, rc->x, rc->w, y0, h, icicle ? y0 : y0 + h - 1, !icicle,
                  u->top, u->in_b, u->fl_b, true);
    if (det->h > 1) {
        pv_rect body = {det->y + 1, det->x, det->w, det->h - 1};
        fl_draw_details(a, fl, u->sel, u->zoom, &body);
    }
}

static bool pv_flame_panel_mouse(pv_app *a, pv_rect rc, int y, int x, int button)
{
    (void)rc; /* the graph is where the Report pane is */
    return pv_flame_ui_mouse(a, y, x, button);
}

/* The graph is drawn by the Report pane (pv_flame_ui_draw, the Details'
 * body too); its keys and clicks come here first. */
const pv_panel pv_panel_flame = {
    .name = "Flame graph",
    .action = pv_flame_ui_key,
    .mouse = pv_flame_panel_mouse,
};
