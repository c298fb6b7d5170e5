/* diff.c - :diff in the viewer (docs/diff.md): the Report's view against
 * another file's, another result set's, or the same timeline's over two
 * time windows; with a flame graph shown, its frames coloured by the
 * change (pv_flame_ui_diff).  The comparison itself is the model's
 * (profview/diff.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profview/diff.h"
#include "profview/hooks.h"
#include "tui/panel.h"

static void df_time_text(const pv_app *a, int64_t t, pv_buf *out)
{
    pv_cell c = {.type = PV_TYPE_TIME, .present = true};
    c.v.i = t;
    pv_cell_format_human(&c, a->unit, out);
}

/* ---- the comparison as a job (jobs.h): the matching in steps
 * (pv_diff_step), its percentage, Esc and Ctrl-C stop it and leave the
 * Report as it was; for two windows it first waits for their loads */

typedef struct df_job {
    pv_job base;
    pv_diff_job *dj; /* NULL: the windows are still loading */
    bool windows;    /* of a->diff.win: the two windows of the Report's file */
    pv_file *win[2]; /* their files, owned until the diff is shown */
    char name[300];  /* what it is compared with, for messages */
} df_job;

/* The diff view becomes the Report. */
static void df_show(pv_app *a, df_job *j, pv_view *d, const pv_diff_counts *n)
{
    pv_app_diff_close(a); /* frees the windows of a diff shown before */
    for (int k = 0; k < 2; k++) {
        a->diff.win.shown[k] = j->win[k];
        j->win[k] = NULL;
    }
    pv_report_open(&a->diff.rep, d, true, NULL);
    a->diff.on = true;
    a->focus = PV_PANE_REPORT;
    if (j->windows)
        pv_app_messagef(a, false, "%s: %zu rows in both, %zu only in a, %zu only in b", j->name,
                        n->matched, n->only_a, n->only_b);
    else
        pv_app_messagef(a, false, "diff with %s: %zu rows in both, %zu only here, %zu only there",
                        j->name, n->matched, n->only_a, n->only_b);
}

static bool df_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    df_job *j = (df_job *)job;
    if (!j->dj)
        return true; /* the windows did not load (said) */
    if (!pv_diff_step(j->dj, b)) {
        pv_app_messagef(a, false, "Comparing... %.0f%% (Esc stops)",
                        100.0 * pv_diff_progress(j->dj));
        return false;
    }
    pv_diff_counts n;
    pv_view *d = pv_diff_take(j->dj, &n);
    df_show(a, j, d, &n);
    return true;
}

/* The loads of the windows still to arrive. */
static bool df_job_waits(const pv_app *a, const pv_job *job)
{
    return ((const df_job *)job)->windows && a->diff.win.pending > 0;
}

/* The loads on their way are freed when they arrive. */
static void df_windows_forget(pv_app *a)
{
    pv_diff_windows *d = &a->diff.win;
    d->discard += d->pending;
    d->pending = 0;
    for (size_t k = 0; k < d->arrived; k++) {
        pv_file_free(d->file[k]);
        d->file[k] = NULL;
    }
    d->arrived = 0;
}

static void df_job_stop(pv_app *a, pv_job *job, bool say)
{
    df_job *j = (df_job *)job;
    bool loading = j->windows && !j->dj;
    if (loading)
        df_windows_forget(a);
    if (say)
        pv_app_messagef(a, false, "comparison %s: the view stays as it was",
                        loading ? "cancelled" : "stopped");
}

static void df_job_free(pv_job *job)
{
    df_job *j = (df_job *)job;
    pv_diff_job_free(j->dj); /* before the windows its views read */
    pv_file_free(j->win[0]);
    pv_file_free(j->win[1]);
}

static const pv_job_ops df_job_ops = {
    .keys = PV_JOB_KEYS_STOP,
    .paced = true,
    .step = df_job_step,
    .stop = df_job_stop,
    .free = df_job_free,
    .waits = df_job_waits,
};

/* Starts the comparison of job j (pv_diff_begin); false with a message
 * when the views cannot be compared (j is left to free). */
static bool df_job_begin(pv_app *a, df_job *j, const pv_view *va, const pv_view *vb)
{
    char err[256];
    j->dj = pv_diff_begin(va, NULL, 0, vb, NULL, 0, a->ascii ? PV_DIFF_ASCII : 0, err, sizeof err);
    if (!j->dj)
        pv_app_message(a, true, err);
    return j->dj != NULL;
}

/* Compares va with vb: at once when they are small, else in steps. */
static void df_job_start(pv_app *a, const pv_view *va, const pv_view *vb, const char *name)
{
    df_job *j = (df_job *)pv_job_new(sizeof *j, &df_job_ops, PV_JOB_DIFF);
    snprintf(j->name, sizeof j->name, "%s", name);
    if (!df_job_begin(a, j, va, vb)) {
        df_job_free(&j->base);
        free(j);
        return;
    }
    if (!a->jobs.fixed && pv_view_rows(va) + pv_view_rows(vb) <= PV_BIG_VIEW) {
        pv_budget all = {SIZE_MAX, 0};
        df_job_step(a, &j->base, &all); /* small: at once */
        df_job_free(&j->base);
        free(j);
        return;
    }
    pv_jobs_start_now(a, &j->base);
}

/* ---- :diff (docs/diff.md) */

/* The view to compare: the Report's own (a top-level view), or with a graph
 * shown, the call tree. */
static const pv_view *df_view_a(pv_app *a, int64_t *set_id)
{
    if (a->loc.item >= a->item_count || a->loc.depth)
        return NULL;
    const pv_item *it = &a->items[a->loc.item];
    if (it->kind != PV_ITEM_VIEW)
        return NULL;
    const pv_result_set *set = a->files[it->file]->sets[it->set];
    *set_id = set->id;
    if (a->flame.mode)
        return a->flame.tree;
    return set->views[it->view];
}

/* Compares the view of the Report with the view of the same id in `set`. */
static void df_start(pv_app *a, const pv_result_set *set, const char *name)
{
    int64_t set_id = 0;
    const pv_view *va = df_view_a(a, &set_id);
    if (!va)
        return;
    pv_view *vb = pv_set_find_view(set, va->id);
    if (!vb) {
        char text[300];
        snprintf(text, sizeof text, "%s has no view '%s' to compare", name, va->id);
        pv_app_message(a, true, text);
        return;
    }
    /* Reading a view that needs the whole index would finish it on this
     * thread first: the comparison waits for the index of every file,
     * queued (docs/tui.md "Loading and indexing"). */
    pv_command_args *q = NULL;
    if ((pv_view_waits_for_index(va, false) || pv_view_waits_for_index(vb, false)) &&
        (q = pv_app_command_queue(a, PV_JOB_DIFF, PV_NO_ROW, name))) {
        q->set = set;
        return;
    }
    if (a->flame.mode) {
        pv_flame_ui_diff(a, vb, name); /* the graph's frames coloured (a job when big) */
        return;
    }
    df_job_start(a, va, vb, name);
}

/* ---- :diff over two time windows of the Report's file (docs/diff.md) */

/* One end of a window: `A`/`B` (a time marker), `start` (as lo) or `end`
 * (as hi): no bound, or a time with a unit.  False with *why set. */
static bool df_window_end(pv_app *a, const char *s, size_t len, bool lo, bool *has, int64_t *t,
                          const char **why)
{
    char text[64];
    if (len == 0 || len >= sizeof text) {
        *why = "a window is FROM..TO";
        return false;
    }
    memcpy(text, s, len);
    text[len] = '\0';
    *has = true;
    if ((lo && strcmp(text, "start") == 0) || (!lo && strcmp(text, "end") == 0)) {
        *has = false;
        return true;
    }
    if ((text[0] == 'A' || text[0] == 'B') && !text[1]) {
        int m = text[0] - 'A';
        if (!a->mark.set[m] || a->mark.view[m]) {
            *why = !a->mark.set[m] ? "that marker is not set (m sets A, M sets B)"
                                   : "that marker is on a row, not at a time";
            return false;
        }
        *t = a->mark.at[m];
        return true;
    }
    if (!pv_parse_time(text, t)) {
        *why = "a window's ends are A, B, start, end or times with a unit (12ms)";
        return false;
    }
    return true;
}

/* "FROM..TO" into a window; false with *why set. */
static bool df_window(pv_app *a, const char *s, size_t len, pv_app_window *w, const char **why)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '.' && s[i + 1] == '.') {
            dots = s + i;
            break;
        }
    memset(w, 0, sizeof *w);
    if (!dots) {
        *why = "a window is FROM..TO";
        return false;
    }
    if (!df_window_end(a, s, (size_t)(dots - s), true, &w->has_lo, &w->lo, why) ||
        !df_window_end(a, dots + 2, len - (size_t)(dots + 2 - s), false, &w->has_hi, &w->hi, why))
        return false;
    if (w->has_lo && w->has_hi && w->lo > w->hi) {
        int64_t x = w->lo; /* B before A: the same window */
        w->lo = w->hi;
        w->hi = x;
    }
    w->on = true;
    return true;
}

static void df_window_text(const pv_app *a, const pv_app_window *w, char *out, size_t size)
{
    pv_buf lo, hi;
    pv_buf_init(&lo);
    pv_buf_init(&hi);
    df_time_text(a, w->lo, &lo);
    df_time_text(a, w->hi, &hi);
    snprintf(out, size, "%s..%s", w->has_lo ? pv_buf_cstr(&lo) : "start",
             w->has_hi ? pv_buf_cstr(&hi) : "end");
    pv_buf_free(&lo);
    pv_buf_free(&hi);
}

/* The view the two windows compare: the Report's when its rows have an
 * identity of their own (PV_COL_KEY: statistics, routines); else (events,
 * calls, a summary: rows without one) the view the format computes over a
 * window, each area's statistics (pv_file_hooks.range_view, docs/diff.md). */
static const char *df_window_view(const pv_view *va, const pv_file *f)
{
    for (size_t c = 0; c < va->column_count; c++)
        if (va->columns[c].flags & PV_COL_KEY)
            return va->id;
    return pv_file_range_view(f);
}

/* True when `arg` is one or two windows (it has `..` and no `/`); then the
 * diff is asked for or refused with a message. */
static bool df_windows_command(pv_app *a, const char *arg)
{
    if (!strstr(arg, "..") || strchr(arg, '/'))
        return false;
    int64_t set_id = 0;
    const pv_view *va = df_view_a(a, &set_id);
    const pv_file *f = a->files[a->items[a->loc.item].file];
    if (a->flame.mode) {
        pv_app_message(a, true, "the diff of two windows compares a view: leave the graph first");
        return true;
    }
    if (!pv_file_range_view(f)) {
        pv_app_message(a, true, "this file has no time axis to cut into windows");
        return true;
    }
    const char *space = strchr(arg, ' ');
    const char *why = NULL;
    pv_app_window w[2];
    if (space) {
        const char *second = space;
        while (*second == ' ')
            second++;
        if (!df_window(a, arg, (size_t)(space - arg), &w[0], &why) ||
            !df_window(a, second, strlen(second), &w[1], &why)) {
            pv_app_message(a, true, why);
            return true;
        }
    } else {
        /* one window: against the window of the same length just before it */
        if (!df_window(a, arg, strlen(arg), &w[1], &why)) {
            pv_app_message(a, true, why);
            return true;
        }
        if (!w[1].has_lo || !w[1].has_hi) {
            pv_app_message(a, true,
                           "with start or end, give both windows: :diff FROM..TO FROM..TO");
            return true;
        }
        w[0] = w[1];
        int64_t len = w[1].hi - w[1].lo;
        w[0].hi = w[1].lo;
        w[0].lo = w[1].lo - len;
    }
    /* the job first: it replaces a comparison still loading its windows */
    df_job *j = (df_job *)pv_job_new(sizeof *j, &df_job_ops, PV_JOB_DIFF);
    j->windows = true;
    pv_jobs_start(a, &j->base);
    pv_diff_windows *d = &a->diff.win;
    memset(d->text, 0, sizeof d->text);
    for (int k = 0; k < 2; k++) {
        df_window_text(a, &w[k], d->text[k], sizeof d->text[k]);
        d->win[k] = w[k];
        d->file[k] = NULL;
    }
    const char *id = df_window_view(va, f);
    snprintf(d->view_id, sizeof d->view_id, "%s", id);
    snprintf(j->name, sizeof j->name, "diff of %s (a) with %s (b)%s", d->text[0], d->text[1],
             strcmp(id, va->id) != 0 ? ", the statistics of each area" : "");
    d->set_id = set_id;
    d->arrived = 0;
    d->pending = 2;
    pv_app_enqueue_window(a, f->path, &w[0]);
    pv_app_enqueue_window(a, f->path, &w[1]);
    pv_app_messagef(a, false, "loading %s over %s and %s to compare... (Esc cancels)", id,
                    d->text[0], d->text[1]);
    return true;
}

/* The view of each window that the two windows compare (a view of that
 * id in the file's result set of the Report's, else in its first). */
static const pv_view *df_window_view_of(const pv_diff_windows *d, const pv_file *f)
{
    const pv_result_set *set = f ? pv_file_find_set(f, d->set_id) : NULL;
    if (!set && f && f->set_count)
        set = f->sets[0];
    return set ? pv_set_find_view(set, d->view_id) : NULL;
}

void pv_app_diff_window_arrived(pv_app *a, pv_file *f)
{
    pv_diff_windows *d = &a->diff.win;
    if (d->discard) {
        d->discard--;
        pv_file_free(f);
        return;
    }
    if (!d->pending || d->arrived >= 2) {
        pv_file_free(f);
        return;
    }
    d->file[d->arrived++] = f;
    if (--d->pending)
        return;
    /* both arrived: the job waiting for them compares their views */
    pv_job *job = pv_jobs_get(a, PV_JOB_DIFF);
    df_job *j = job && job->ops == &df_job_ops ? (df_job *)job : NULL;
    for (int k = 0; k < 2; k++) {
        if (j)
            j->win[k] = d->file[k];
        else
            pv_file_free(d->file[k]);
        d->file[k] = NULL;
    }
    d->arrived = 0;
    if (!j)
        return;
    const pv_view *va = df_window_view_of(d, j->win[0]), *vb = df_window_view_of(d, j->win[1]);
    if (!j->win[0] || !j->win[1] || !va || !vb) {
        pv_app_messagef(a, true,
                        !j->win[0] || !j->win[1] ? "a window of the diff did not load"
                                                 : "the window has no view '%s' to compare",
                        d->view_id);
        pv_jobs_stop(a, false);
        return;
    }
    if (!df_job_begin(a, j, va, vb)) {
        pv_jobs_stop(a, false);
        return;
    }
    pv_budget all = {SIZE_MAX, 0};
    if (!a->jobs.fixed && pv_view_rows(va) + pv_view_rows(vb) <= PV_BIG_VIEW &&
        df_job_step(a, &j->base, &all))
        pv_jobs_stop(a, false); /* small: done at once (the diff is shown) */
}

void pv_app_diff_command(pv_app *a, const char *arg)
{
    int64_t set_id = 0;
    if (!arg[0]) {
        pv_app_message(
            a, true,
            ":diff FILE, :diff N (result set N of this file), :diff A..B (this "
            "timeline's window A..B against the one before it), :diff X..Y X..Y, :diff off");
        return;
    }
    if (strcmp(arg, "off") == 0) {
        if (pv_jobs_get(a, PV_JOB_DIFF))
            pv_jobs_stop(a, false); /* a comparison, its windows on their way */
        df_windows_forget(a);
        pv_app_diff_close(a);
        if (a->flame.in_b) {
            free(a->flame.in_b);
            a->flame.in_b = NULL;
            pv_flame_free(a->flame.fl_b);
            a->flame.fl_b = NULL;
        }
        return;
    }
    if (!df_view_a(a, &set_id)) {
        pv_app_message(a, true, "show a view (not a drilled-down detail) to compare it");
        return;
    }
    if (access(arg, F_OK) != 0 && df_windows_command(a, arg))
        return;
    const pv_file *f = a->files[a->items[a->loc.item].file];
    int64_t n;
    if (pv_parse_int64(arg, strlen(arg), &n) && access(arg, F_OK) != 0) {
        const pv_result_set *set = pv_file_find_set(f, n);
        if (!set) {
            char text[160];
            snprintf(text, sizeof text, "this file has no result set %" PRId64, n);
            pv_app_message(a, true, text);
            return;
        }
        char name[64];
        snprintf(name, sizeof name, "result set %" PRId64, n);
        df_start(a, set, name);
        return;
    }
    /* a file: loaded by the loader thread; compared when it arrives */
    free(a->diff.pending);
    a->diff.pending = pv_xstrdup(arg);
    pv_app_enqueue(a, arg);
    char text[300];
    snprintf(text, sizeof text, "loading %s to compare...", arg);
    pv_app_message(a, false, text);
}

void pv_app_diff_queued(pv_app *a, const pv_command_args *q)
{
    /* the result set is one of a file still open (files stay while the
     * viewer runs; checked all the same) */
    for (size_t i = 0; i < a->file_count; i++)
        for (size_t s = 0; s < a->files[i]->set_count; s++)
            if (a->files[i]->sets[s] == q->set) {
                df_start(a, q->set, q->arg);
                return;
            }
}

void pv_app_diff_adopted(pv_app *a, const pv_file *f)
{
    if (!a->diff.pending || strcmp(a->diff.pending, f->path) != 0)
        return;
    free(a->diff.pending);
    a->diff.pending = NULL;
    if (f->set_count == 0)
        return;
    int64_t set_id = 0;
    if (!df_view_a(a, &set_id))
        return;
    /* the result set with the same id, else the first */
    const pv_result_set *set = pv_file_find_set(f, set_id);
    const char *slash = strrchr(f->path, '/');
    df_start(a, set ? set : f->sets[0], slash ? slash + 1 : f->path);
}

void pv_app_diff_close(pv_app *a)
{
    if (a->diff.on)
        pv_report_close(&a->diff.rep);
    a->diff.on = false;
    for (int k = 0; k < 2; k++) { /* after the diff view that read them */
        pv_file_free(a->diff.win.shown[k]);
        a->diff.win.shown[k] = NULL;
    }
}

/* The diff view is the Report while it is on: q and Backspace there go
 * back to the view it was made of. */
static bool pv_diff_action(pv_app *a, pv_action act)
{
    if (!a->diff.on || a->focus == PV_PANE_EXPLORER || (act != PV_ACT_QUIT && act != PV_ACT_BACK))
        return false;
    pv_app_diff_close(a);
    return true;
}

const pv_panel pv_panel_diff = {
    .name = "Diff",
    .action = pv_diff_action,
};
