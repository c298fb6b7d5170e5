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
        if (pv_flame_ui_diff(a, vb, name)) {
            char text[300];
            snprintf(text, sizeof text, "frames coloured by the change of their self time in %s",
                     name);
            pv_app_message(a, false, text);
        }
        return;
    }
    char err[256];
    pv_diff_counts counts;
    pv_view *d = pv_diff_views(va, NULL, 0, vb, NULL, 0, &counts, err, sizeof err);
    if (!d) {
        pv_app_message(a, true, err);
        return;
    }
    pv_app_diff_close(a);
    pv_report_open(&a->diff.rep, d, true, NULL);
    a->diff.on = true;
    a->focus = PV_PANE_REPORT;
    char text[300];
    snprintf(text, sizeof text, "diff with %s: %zu rows in both, %zu only here, %zu only there",
             name, counts.matched, counts.only_a, counts.only_b);
    pv_app_message(a, false, text);
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
    pv_diff_windows *d = &a->diff.win;
    if (d->pending) {
        pv_app_message(a, true, "the windows of the last :diff are still loading (:diff off stops)");
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
            pv_app_message(a, true, "with start or end, give both windows: :diff FROM..TO FROM..TO");
            return true;
        }
        w[0] = w[1];
        int64_t len = w[1].hi - w[1].lo;
        w[0].hi = w[1].lo;
        w[0].lo = w[1].lo - len;
    }
    memset(d->text, 0, sizeof d->text);
    for (int k = 0; k < 2; k++) {
        df_window_text(a, &w[k], d->text[k], sizeof d->text[k]);
        d->win[k] = w[k];
        d->file[k] = NULL;
    }
    snprintf(d->view_id, sizeof d->view_id, "%s", va->id);
    d->set_id = set_id;
    d->arrived = 0;
    d->pending = 2;
    pv_app_enqueue_window(a, f->path, &w[0]);
    pv_app_enqueue_window(a, f->path, &w[1]);
    char text[300];
    snprintf(text, sizeof text, "loading %s over %s and %s to compare...", va->id, d->text[0],
             d->text[1]);
    pv_app_message(a, false, text);
    return true;
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
    pv_file *fa = d->file[0], *fb = d->file[1];
    d->file[0] = d->file[1] = NULL;
    const pv_view *v[2] = {NULL, NULL};
    pv_file *both[2] = {fa, fb};
    for (int k = 0; k < 2; k++) {
        if (!both[k])
            continue;
        const pv_result_set *set = pv_file_find_set(both[k], d->set_id);
        if (!set && both[k]->set_count)
            set = both[k]->sets[0];
        v[k] = set ? pv_set_find_view(set, d->view_id) : NULL;
    }
    char err[256] = "";
    pv_diff_counts counts;
    pv_view *diff = NULL;
    if (!fa || !fb)
        snprintf(err, sizeof err, "a window of the diff did not load");
    else if (!v[0] || !v[1])
        snprintf(err, sizeof err, "the window has no view '%s' to compare", d->view_id);
    else
        diff = pv_diff_views(v[0], NULL, 0, v[1], NULL, 0, &counts, err, sizeof err);
    if (!diff) {
        pv_file_free(fa);
        pv_file_free(fb);
        pv_app_message(a, true, err);
        return;
    }
    pv_app_diff_close(a); /* frees the windows of a diff shown before */
    d->shown[0] = fa;
    d->shown[1] = fb;
    pv_report_open(&a->diff.rep, diff, true, NULL);
    a->diff.on = true;
    a->focus = PV_PANE_REPORT;
    char text[400];
    snprintf(text, sizeof text,
             "diff of %s (a) with %s (b): %zu rows in both, %zu only in a, %zu only in b",
             d->text[0], d->text[1], counts.matched, counts.only_a, counts.only_b);
    pv_app_message(a, false, text);
}

void pv_app_diff_command(pv_app *a, const char *arg)
{
    int64_t set_id = 0;
    if (!arg[0]) {
        pv_app_message(a, true,
                       ":diff FILE, :diff N (result set N of this file), :diff A..B (this "
                       "timeline's window A..B against the one before it), :diff X..Y X..Y, :diff off");
        return;
    }
    if (strcmp(arg, "off") == 0) {
        a->diff.win.discard += a->diff.win.pending; /* windows on their way */
        a->diff.win.pending = 0;
        for (size_t k = 0; k < a->diff.win.arrived; k++) {
            pv_file_free(a->diff.win.file[k]);
            a->diff.win.file[k] = NULL;
        }
        a->diff.win.arrived = 0;
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
