/* app.c - the viewer (docs/tui.md): loading in the background, creation,
 * and which view the Report shows (locations, history, drill-down, the
 * Details of the selected row).  Terminal-independent: keys in, grid out. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profview/hooks.h"
#include "profview/sql.h"
#include "tui/panel.h"
#include "tui/group.h"

/* ---- loading in the background (docs/code-style.md habit 5) */

static void pv_app_progress(void *user, const char *what, uint64_t done, uint64_t total)
{
    pv_app *a = user;
    pthread_mutex_lock(&a->load.lock);
    pv_buf_clear(&a->load.what);
    pv_buf_puts(&a->load.what, what ? what : "");
    a->load.units_done = done;
    a->load.units_total = total;
    pthread_mutex_unlock(&a->load.lock);
}

/* The loader's side of :stats (called and returning with a->load.lock held):
 * the pending request's file over its window, with the options of the
 * first load, indexed in full so that its statistics are complete. */
static void pv_app_load_range(pv_app *a)
{
    char *path = a->load.range_path;
    a->load.range_path = NULL;
    a->load.range_want = false;
    a->load.range_busy = true;
    a->load.range_cancel = 0;
    uint64_t gen = a->load.range_gen;
    pv_load_options o = a->opt.load;
    o.has_from = o.has_to = true;
    o.from = a->load.range_lo;
    o.to = a->load.range_hi;
    o.defer_index = false;
    o.progress.report = NULL;
    o.progress.user = NULL;
    o.progress.cancel = &a->load.range_cancel;
    pthread_mutex_unlock(&a->load.lock);

    pv_load_status status;
    pv_file *f = pv_load_file(path, &o, &status);

    pthread_mutex_lock(&a->load.lock);
    if (gen != a->load.range_gen) {
        pv_file_free(f); /* a newer request replaced this one */
    } else if (status != PV_LOAD_OK) {
        for (size_t i = 0; i < f->diag.entry_count; i++)
            pv_buf_printf(&a->load.range_errors, "%s\n", f->diag.entries[i].text);
        if (f->diag.entry_count == 0)
            pv_buf_printf(&a->load.range_errors, "%s: not loaded\n", path);
        pv_file_free(f);
    } else {
        if (a->load.range_done)
            pv_file_free(a->load.range_done);
        a->load.range_done = f;
    }
    free(path);
    a->load.range_busy = false;
    pthread_cond_broadcast(&a->load.cond);
}

static void *pv_app_loader(void *arg)
{
    pv_app *a = arg;
    pthread_mutex_lock(&a->load.lock);
    for (;;) {
        while (!a->load.stopping && a->load.queue_next == a->load.queue_count && !a->load.range_want)
            pthread_cond_wait(&a->load.cond, &a->load.lock);
        if (a->load.stopping)
            break;
        if (a->load.queue_next == a->load.queue_count) {
            pv_app_load_range(a);
            continue;
        }
        const char *path = a->load.queue[a->load.queue_next];
        pv_app_window win = a->load.queue_window[a->load.queue_next];
        a->load.busy = true;
        pv_buf_clear(&a->load.path);
        pv_buf_puts(&a->load.path, path);
        pv_buf_clear(&a->load.what);
        a->load.units_done = a->load.units_total = 0;
        a->load.start = pv_clock_now();
        pv_load_options o = a->opt.load;
        /* The first screen must not wait for a timeline's index: the UI
         * thread indexes it in slices once the file is adopted. */
        o.defer_index = true;
        o.steps = true; /* pv_app_index_slice steps it */
        o.progress.report = pv_app_progress;
        o.progress.user = a;
        o.progress.cancel = &a->load.cancel;
        if (win.on) {
            /* a window for :diff (docs/diff.md): indexed in full here */
            o.has_from = win.has_lo;
            o.from = win.lo;
            o.has_to = win.has_hi;
            o.to = win.hi;
            o.defer_index = false;
            o.steps = false;
        }
        pthread_mutex_unlock(&a->load.lock);

        pv_load_status status;
        pv_file *f = pv_load_file(path, &o, &status);

        pthread_mutex_lock(&a->load.lock);
        if (win.on) {
            if (status != PV_LOAD_OK) {
                for (size_t i = 0; i < f->diag.entry_count; i++)
                    pv_buf_printf(&a->load.errors, "%s\n", f->diag.entries[i].text);
                pv_file_free(f);
                f = NULL;
            }
            if (a->load.win_done_count < 2)
                a->load.win_done[a->load.win_done_count++] = f;
            else
                pv_file_free(f);
        } else if (status != PV_LOAD_OK) {
            for (size_t i = 0; i < f->diag.entry_count; i++)
                pv_buf_printf(&a->load.errors, "%s\n", f->diag.entries[i].text);
            if (f->diag.entry_count == 0)
                pv_buf_printf(&a->load.errors, "%s: not loaded\n", path);
            pv_file_free(f);
        } else {
            a->load.done = pv_xgrow(a->load.done, &a->load.done_cap, a->load.done_count + 1, sizeof *a->load.done);
            a->load.done[a->load.done_count++] = f;
        }
        a->load.queue_next++;
        a->load.busy = false;
        a->load.cancel = 0;
        pthread_cond_broadcast(&a->load.cond);
    }
    pthread_mutex_unlock(&a->load.lock);
    return NULL;
}

void pv_app_enqueue(pv_app *a, const char *path)
{
    pv_app_window none = {0};
    pv_app_enqueue_window(a, path, &none);
}

void pv_app_enqueue_window(pv_app *a, const char *path, const pv_app_window *win)
{
    pthread_mutex_lock(&a->load.lock);
    size_t cap = a->load.queue_cap;
    a->load.queue = pv_xgrow(a->load.queue, &a->load.queue_cap, a->load.queue_count + 1, sizeof *a->load.queue);
    if (cap != a->load.queue_cap)
        a->load.queue_window = pv_xrealloc(a->load.queue_window, a->load.queue_cap * sizeof *a->load.queue_window);
    a->load.queue_window[a->load.queue_count] = *win;
    a->load.queue[a->load.queue_count++] = pv_xstrdup(path);
    pthread_cond_broadcast(&a->load.cond);
    pthread_mutex_unlock(&a->load.lock);
}

bool pv_app_loading(const pv_app *a)
{
    pv_loader_state *m = (pv_loader_state *)&a->load;
    pthread_mutex_lock(&m->lock);
    bool busy = m->queue_next < m->queue_count || m->done_count > 0 || m->win_done_count > 0 ||
                m->range_want || m->range_busy || m->range_done || m->range_errors.len;
    pthread_mutex_unlock(&m->lock);
    return busy;
}

void pv_app_wait_loaded(pv_app *a)
{
    pthread_mutex_lock(&a->load.lock);
    while (a->load.queue_next < a->load.queue_count || a->load.range_want || a->load.range_busy)
        pthread_cond_wait(&a->load.cond, &a->load.lock);
    pthread_mutex_unlock(&a->load.lock);
    pv_app_poll(a);
}

bool pv_app_cancel(pv_app *a)
{
    pthread_mutex_lock(&a->load.lock);
    bool busy = a->load.busy;
    if (busy)
        a->load.cancel = 1;
    pthread_mutex_unlock(&a->load.lock);
    return busy;
}

size_t pv_app_file_count(const pv_app *a)
{
    return a->file_count;
}
const char *pv_app_load_errors(const pv_app *a)
{
    return pv_buf_cstr((pv_buf *)&a->load.errors);
}

pv_item *pv_app_add_item(pv_app *a, int kind, size_t file, size_t set, size_t view)
{
    a->items = pv_xgrow(a->items, &a->item_cap, a->item_count + 1, sizeof *a->items);
    pv_item *it = &a->items[a->item_count++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->file = file;
    it->set = set;
    it->view = view;
    return it;
}

/* A file item shows the file's warnings when it has some (docs/tui.md
 * "Warnings"): its report owns the view, made when first shown. */
static bool pv_item_has_warnings(const pv_app *a, const pv_item *it)
{
    const pv_file *f = a->files[it->file];
    return it->kind == PV_ITEM_FILE && f->diag.warnings + f->diag.errors > 0;
}

pv_view *pv_item_view(const pv_app *a, const pv_item *it)
{
    if (it->kind == PV_ITEM_FILE)
        return it->opened ? it->report.view : NULL;
    if (it->kind != PV_ITEM_VIEW)
        return NULL;
    return a->files[it->file]->sets[it->set]->views[it->view];
}

/* A small timeline is indexed before its first screen (within a fraction
 * of the 0.2 s first-screen budget), so that it opens on its summary like
 * any other file; a large one opens at once and goes on indexing between
 * key presses. */
static void pv_app_index_briefly(pv_file *f)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (pv_file_index_step(f, 65536))
            return;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double ms = (double)(now.tv_sec - start.tv_sec) * 1e3 +
                    (double)(now.tv_nsec - start.tv_nsec) / 1e6;
        if (ms > 50)
            return;
    }
}

void pv_app_adopt_file(pv_app *a, pv_file *f)
{
    if (pv_app_session_reloaded(a, f))
        return; /* :reload: in place of the file it reopens (session.c) */
    /* A job on an item's report follows the report when the items move
     * (a scan stops: jobs.h). */
    pv_jobs_items_moving(a);
    size_t cap = a->file_cap;
    a->files = pv_xgrow(a->files, &a->file_cap, a->file_count + 1, sizeof *a->files);
    if (cap != a->file_cap)
        a->index.warnings = pv_xrealloc(a->index.warnings, a->file_cap * sizeof *a->index.warnings);
    size_t fi = a->file_count++;
    a->files[fi] = f;
    if (a->opt.keys_path && !a->index.fixed_slice)
        pv_file_index_step(f, SIZE_MAX); /* scripted keys: as if long ago */
    else if (!a->index.fixed_slice)
        pv_app_index_briefly(f);
    a->index.warnings[fi] = f->diag.warnings + f->diag.errors;
    size_t first_view = PV_NO_ROW, any_view = PV_NO_ROW;
    pv_app_add_item(a, PV_ITEM_FILE, fi, 0, 0);
    for (size_t s = 0; s < f->set_count; s++) {
        pv_app_add_item(a, PV_ITEM_SET, fi, s, 0);
        for (size_t v = 0; v < f->sets[s]->view_count; v++) {
            /* The first view that can show rows now (a timeline's summary
             * waits for its index; the timeline itself does not). */
            if (first_view == PV_NO_ROW &&
                !pv_view_waits_for_index(f->sets[s]->views[v], false))
                first_view = a->item_count;
            if (any_view == PV_NO_ROW)
                any_view = a->item_count;
            pv_app_add_item(a, PV_ITEM_VIEW, fi, s, v);
        }
    }
    /* changed on disk while it loaded (docs/input.md "Files that change"):
     * that, not the warnings of what was read as zeros */
    bool changed = pv_input_changed(f->path);
    if (!changed && f->diag.warnings + f->diag.errors)
        pv_app_messagef(a, false, "%s: %zu warning%s (the file's line in the Explorer lists them)",
                        f->path, f->diag.warnings + f->diag.errors,
                        f->diag.warnings + f->diag.errors == 1 ? "" : "s");
    if (first_view == PV_NO_ROW)
        first_view = any_view;
    pv_app_session_adopted(a, fi, &first_view); /* its saved session (docs/tui.md "Sessions") */
    if (changed) {
        pv_app_session_file(a, fi)->changed = true;
        pv_app_say_changed(a, fi);
    }
    pv_jobs_items_moved(a);
    pv_app_diff_adopted(a, f);
    /* The first view of the first file is shown as soon as it exists. */
    if (first_view != PV_NO_ROW && !a->history_started) {
        pv_location loc;
        memset(&loc, 0, sizeof loc);
        loc.item = first_view;
        loc.row = PV_NO_ROW;
        a->ex.cursor = first_view;
        pv_app_go(a, &loc, false);
        pv_history_init(&a->history, &loc);
        a->history_started = true;
    }
}

/* ---- statistics between the markers (:stats) */

static void pv_app_range_close(pv_app *a)
{
    if (a->range.open)
        pv_report_close(&a->range.rep);
    a->range.open = false;
    pv_file_free(a->range.file);
    a->range.file = NULL;
    pv_view_free(a->range.view);
    a->range.view = NULL;
    a->range.rows = false;
}

/* :stats with both markers on rows of one view without a clock: its
 * range_statistics hook computes them here, at once. */
static void pv_app_range_rows(pv_app *a)
{
    if (a->mark.view[0] != a->mark.view[1]) {
        pv_app_message(a, true, ":stats needs both markers in one view");
        return;
    }
    pv_app_range_hide(a);
    size_t lo = a->mark.row[0] < a->mark.row[1] ? a->mark.row[0] : a->mark.row[1];
    size_t hi = a->mark.row[0] < a->mark.row[1] ? a->mark.row[1] : a->mark.row[0];
    a->range.show = true;
    a->range.rows = true;
    a->range.shown_lo = (int64_t)lo;
    a->range.shown_hi = (int64_t)hi;
    a->range.view = pv_view_range_statistics(a->mark.view[0], lo, hi);
    if (!a->range.view) {
        a->range.failed = true;
        return;
    }
    pv_report_open(&a->range.rep, a->range.view, false,
                   pv_config_columns(&a->cfg, a->range.view->id));
    a->range.open = true;
}

void pv_app_range_hide(pv_app *a)
{
    pthread_mutex_lock(&a->load.lock);
    a->load.range_gen++; /* whatever is pending or loading is not wanted */
    a->load.range_want = false;
    free(a->load.range_path);
    a->load.range_path = NULL;
    if (a->load.range_busy)
        a->load.range_cancel = 1;
    pthread_mutex_unlock(&a->load.lock);
    pv_app_range_close(a);
    a->range.show = false;
    a->range.failed = false;
}

void pv_app_range_request(pv_app *a)
{
    if (!a->mark.set[0] || !a->mark.set[1]) {
        pv_app_message(a, true, ":stats needs both markers (m sets A, M sets B)");
        return;
    }
    if (a->mark.view[0] || a->mark.view[1]) {
        pv_app_range_rows(a);
        return;
    }
    if (a->loc.item >= a->item_count) {
        pv_app_message(a, true, ":stats needs a file");
        return;
    }
    const pv_file *f = a->files[a->items[a->loc.item].file];
    if (!pv_file_range_view(f)) {
        pv_app_message(a, true, "this file has no statistics over a time range");
        return;
    }
    int64_t lo = a->mark.at[0] < a->mark.at[1] ? a->mark.at[0] : a->mark.at[1];
    int64_t hi = a->mark.at[0] < a->mark.at[1] ? a->mark.at[1] : a->mark.at[0];
    pv_app_range_close(a);
    a->range.show = true;
    a->range.failed = false;
    a->range.shown_lo = lo;
    a->range.shown_hi = hi;
    pthread_mutex_lock(&a->load.lock);
    a->load.range_gen++;
    free(a->load.range_path);
    a->load.range_path = pv_xstrdup(f->path);
    a->load.range_lo = lo;
    a->load.range_hi = hi;
    a->load.range_want = true;
    if (a->load.range_busy)
        a->load.range_cancel = 1; /* the loading one is out of date */
    pthread_cond_broadcast(&a->load.cond);
    pthread_mutex_unlock(&a->load.lock);
}

/* The UI side: the newest window's statistics go into the Details pane. */
static void pv_app_range_adopt(pv_app *a, pv_file *f, const char *errors)
{
    if (!a->range.show) {
        pv_file_free(f);
        return;
    }
    if (!f) {
        a->range.failed = true;
        pv_app_message(a, true, errors[0] ? errors : "the statistics could not be computed");
        return;
    }
    pv_app_range_close(a);
    a->range.file = f;
    /* The view the format computes over the window (pv_file_hooks). */
    const char *id = pv_file_range_view(f);
    for (size_t s = 0; id && s < f->set_count && !a->range.open; s++) {
        pv_view *view = pv_set_find_view(f->sets[s], id);
        if (view) {
            pv_app_open_report(a, &a->range.rep, view, false);
            a->range.open = true;
        }
    }
    if (!a->range.open) {
        a->range.failed = true;
        pv_app_message(a, true, "this file has no statistics view");
    }
}

bool pv_app_poll(pv_app *a)
{
    pthread_mutex_lock(&a->load.lock);
    size_t n = a->load.done_count;
    pv_file **got = NULL;
    if (n) {
        got = pv_xmalloc(n * sizeof *got);
        memcpy(got, a->load.done, n * sizeof *got);
        a->load.done_count = 0;
    }
    bool errors = a->load.errors.len > 0;
    pv_file *win[2] = {a->load.win_done[0], a->load.win_done[1]};
    size_t win_n = a->load.win_done_count;
    a->load.win_done_count = 0;
    pv_file *range = a->load.range_done;
    a->load.range_done = NULL;
    bool range_news = range || a->load.range_errors.len;
    char range_text[1024];
    snprintf(range_text, sizeof range_text, "%s", pv_buf_cstr(&a->load.range_errors));
    pv_buf_clear(&a->load.range_errors);
    pthread_mutex_unlock(&a->load.lock);
    for (size_t i = 0; i < n; i++)
        pv_app_adopt_file(a, got[i]);
    free(got);
    for (size_t i = 0; i < win_n; i++)
        pv_app_diff_window_arrived(a, win[i]);
    if (range_news)
        pv_app_range_adopt(a, range, range_text);
    if (errors && a->file_count) {
        pthread_mutex_lock(&a->load.lock);
        char text[1024];
        snprintf(text, sizeof text, "%s", pv_buf_cstr(&a->load.errors));
        size_t len = strlen(text);
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        pv_buf_clear(&a->load.errors);
        pthread_mutex_unlock(&a->load.lock);
        pv_app_message(a, true, text);
        /* the log keeps them after the next key (docs/tui.md "Messages") */
        pv_buf_puts(&a->message, "\n(:messages shows them again)");
    }
    pv_app_session_tick(a); /* a session restored as the index and the views get ready */
    return n > 0 || errors || range_news || win_n > 0;
}

/* ---- creation */

pv_app *pv_app_new(const pv_tui_options *o, const pv_tui_config *cfg, const pv_theme *theme,
                   bool utf8, bool ascii, int width, int height)
{
    pv_app *a = pv_xcalloc(1, sizeof *a);
    a->opt = *o;
    pv_config_copy(&a->cfg, cfg);
    a->theme = *theme;
    a->utf8 = utf8;
    a->ascii = ascii;
    a->unit = cfg->time_unit;
    a->focus = PV_PANE_EXPLORER;
    pv_grid_init(&a->grid, utf8);
    pv_buf_init(&a->prompt.line);
    pv_buf_init(&a->load.errors);
    pv_buf_init(&a->exp.path);
    pv_buf_init(&a->exp.summary);
    pv_buf_init(&a->exp.error);
    pv_buf_init(&a->exp.last_dir);
    pv_buf_init(&a->load.range_errors);
    pv_buf_init(&a->clip.copied);
    pv_buf_init(&a->sql.names.text);
    a->sql.file = PV_NO_ROW;
    pthread_mutex_init(&a->load.lock, NULL);
    pthread_cond_init(&a->load.cond, NULL);
    pv_app_resize(a, width, height);
    /* Tests only (docs/tui.md "Testing options"): index N events per key. */
    int64_t slice = pv_test_get(&o->load.test, PV_TEST_INDEX_SLICE, 0);
    if (slice > 0) {
        a->index.slice = (size_t)slice;
        a->index.fixed_slice = true;
    }
    /* Tests only: search, filter and sort look at N rows per key. */
    int64_t work_slice = pv_test_get(&o->load.test, PV_TEST_WORK_SLICE, 0);
    a->jobs.budget = 1u << 16;
    a->open_stopped = PV_NO_ROW;
    if (work_slice > 0) {
        a->jobs.budget = (size_t)work_slice;
        a->jobs.fixed = true;
    }
    a->prompt.search_origin_row = PV_NO_ROW;
    pv_app_session_init(a);
    for (size_t i = 0; i < o->path_count; i++)
        pv_app_enqueue(a, o->paths[i]);
    if (pthread_create(&a->load.thread, NULL, pv_app_loader, a) == 0)
        a->load.thread_started = true;
    else
        pv_app_message(a, true, "cannot start the loading thread");
    a->focus = PV_PANE_REPORT;
    return a;
}

static void pv_app_close_details(pv_app *a)
{
    pv_report_close(&a->det.rep);
    a->det.open = false;
    a->det.tried = false;
    pv_buf_clear(&a->det.why);
}

void pv_app_free(pv_app *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->load.lock);
    a->load.stopping = true;
    a->load.cancel = 1;
    pthread_cond_broadcast(&a->load.cond);
    pthread_mutex_unlock(&a->load.lock);
    if (a->load.thread_started)
        pthread_join(a->load.thread, NULL);
    /* first: a job's call on a worker (worker.h) reads the files, the SQL
     * connection and the trash freed below */
    pv_jobs_free(a);
    pv_buf_free(&a->det.why);
    for (size_t i = 0; i < a->load.done_count; i++)
        pv_file_free(a->load.done[i]);
    free(a->load.done);
    pv_app_close_details(a);
    pv_flame_ui_free(a);
    pv_app_diff_close(a);
    free(a->diff.pending);
    pv_app_range_close(a);
    pv_file_free(a->load.range_done);
    free(a->load.range_path);
    pv_buf_free(&a->load.range_errors);
    for (size_t i = PV_LOC_MAX_DEPTH; i-- > 0;)
        pv_report_close(&a->drill[i]);
    for (size_t i = 0; i < a->item_count; i++)
        pv_report_close(&a->items[i].report);
    free(a->items);
    pv_sql_free(a->sql.conn);
    for (size_t i = 0; i < a->sql.from_count; i++) {
        pv_location_free(&a->sql.from[i]);
        free(a->sql.read[i]);
    }
    free(a->sql.from);
    free(a->sql.read);
    free(a->sql.read_n);
    pv_buf_free(&a->clip.copied);
    pv_app_session_free(a);
    pv_trash_free(&a->trash);
    pv_buf_free(&a->sql.names.text);
    for (size_t i = 0; i < a->file_count; i++)
        pv_file_free(a->files[i]);
    free(a->files);
    free(a->index.warnings);
    for (size_t i = 0; i < a->load.queue_count; i++)
        free(a->load.queue[i]);
    free(a->load.queue);
    free(a->load.queue_window);
    for (size_t i = 0; i < a->load.win_done_count; i++)
        pv_file_free(a->load.win_done[i]);
    for (int k = 0; k < PV_PROMPT_KINDS; k++)
        for (size_t i = 0; i < a->prompt.history_count[k]; i++)
            free(a->prompt.history[k][i]);
    if (a->history_started)
        pv_history_free(&a->history);
    pv_buf_free(&a->prompt.line);
    pv_buf_free(&a->load.errors);
    pv_config_free(&a->cfg);
    pv_buf_free(&a->load.what);
    pv_buf_free(&a->load.path);
    pv_buf_free(&a->search);
    pv_buf_free(&a->message);
    for (size_t i = 0; i < a->log.count; i++)
        free(a->log.text[i]);
    pv_buf_free(&a->exp.path);
    pv_buf_free(&a->exp.summary);
    pv_buf_free(&a->exp.error);
    pv_buf_free(&a->exp.last_dir);
    pv_grid_free(&a->grid);
    pthread_mutex_destroy(&a->load.lock);
    pthread_cond_destroy(&a->load.cond);
    free(a);
}

void pv_app_message(pv_app *a, bool is_error, const char *text)
{
    size_t len = strlen(text);
    while (len && text[len - 1] == '\n')
        len--;
    pv_buf_clear(&a->message);
    pv_buf_append(&a->message, text, len);
    a->message_error = is_error;
    /* the log keeps it (:messages), a repeated one once */
    pv_message_log *log = &a->log;
    if (!len || (log->count && strlen(log->text[log->count - 1]) == len &&
                 memcmp(log->text[log->count - 1], text, len) == 0))
        return;
    if (log->count == PV_MESSAGE_LOG) {
        free(log->text[0]);
        memmove(log->text, log->text + 1, (PV_MESSAGE_LOG - 1) * sizeof *log->text);
        memmove(log->error, log->error + 1, (PV_MESSAGE_LOG - 1) * sizeof *log->error);
        log->count--;
    }
    log->text[log->count] = pv_xstrndup(text, len);
    log->error[log->count++] = is_error;
}

void pv_app_messagef(pv_app *a, bool is_error, const char *fmt, ...)
{
    pv_buf text;
    pv_buf_init(&text);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&text, fmt, ap);
    va_end(ap);
    pv_app_message(a, is_error, pv_buf_cstr(&text));
    pv_buf_free(&text);
}

void pv_app_resize(pv_app *a, int width, int height)
{
    a->width = width < 1 ? 1 : width;
    a->height = height < 1 ? 1 : height;
    pv_grid_resize(&a->grid, a->width, a->height);
}

bool pv_app_done(const pv_app *a)
{
    return a->quit;
}

const pv_theme *pv_app_theme(pv_app *a, bool *changed)
{
    *changed = a->theme_changed;
    a->theme_changed = false;
    return &a->theme;
}

bool pv_app_cursor(const pv_app *a, int *y, int *x)
{
    *y = a->cursor_y;
    *x = a->cursor_x;
    return a->cursor_on;
}

/* ---- locations: which view the Report shows */

/* Opens report r over v with the configured columns of v; a configured
 * list naming a column v does not have is reported with its place in the
 * config, and v's own columns are shown (docs/tui.md "Configuration"). */
void pv_app_open_report(pv_app *a, pv_report *r, pv_view *v, bool owned)
{
    pv_report_open(r, v, owned, pv_config_columns(&a->cfg, v->id));
    pv_app_report_opened(a, r);
}

/* A report just opened (at once or by an opening job): its trash, and a
 * configured column it does not have said. */
void pv_app_report_opened(pv_app *a, pv_report *r)
{
    const pv_view *v = r->view;
    r->trash = &a->trash;
    if (!r->bad_column)
        return;
    pv_buf known;
    pv_buf_init(&known);
    for (size_t c = 0; c < v->column_count; c++)
        pv_buf_printf(&known, "%s%s", c ? ", " : "", v->columns[c].id);
    const char *where = pv_config_columns_where(&a->cfg, v->id);
    pv_app_messagef(a, true, "%s: columns of '%s': no column '%s' (known: %s); its default columns are shown",
                    where ? where : "config", v->id, r->bad_column, pv_buf_cstr(&known));
    pv_buf_free(&known);
}

/* The report the Report pane shows, or NULL. */
pv_report *pv_app_report(pv_app *a)
{
    if (a->diff.on)
        return &a->diff.rep;
    if (a->loc.depth)
        return a->drill[a->loc.depth - 1].view ? &a->drill[a->loc.depth - 1] : NULL;
    if (a->loc.item >= a->item_count)
        return NULL;
    pv_item *it = &a->items[a->loc.item];
    if (pv_item_has_warnings(a, it) && !it->opened) {
        pv_view *w = pv_file_warnings_view(a->files[it->file]);
        pv_app_open_report(a, &it->report, w, true);
        it->opened = true;
    }
    if (it->kind == PV_ITEM_FILE && it->opened)
        return &it->report;
    if (it->kind != PV_ITEM_VIEW)
        return NULL;
    if (!it->opened) {
        pv_view *v = pv_item_view(a, it);
        if (pv_view_waits_for_index(v, false))
            return NULL; /* the Report says "indexing" until it is complete */
        if (pv_app_opening(a, NULL) || a->open_stopped == a->loc.item)
            return NULL; /* the Report says "opening" until it is open */
        if (pv_view_is_tree(v) && pv_view_rows(v) > PV_BIG_VIEW) {
            /* grouping and laying out millions of calls: a job in steps
             * that Esc stops (docs/tui.md "Long operations") */
            pv_report_job *j =
                pv_report_open_job(&it->report, v, true, pv_config_columns(&a->cfg, v->id));
            pv_buf what;
            pv_buf_init(&what);
            pv_buf_printf(&what, "Opening %s", v->title);
            pv_app_job_open(a, j, pv_buf_cstr(&what)); /* replaces a job on a report not shown */
            pv_buf_free(&what);
            return NULL;
        }
        /* Call trees show one node per thread (docs/cli.md). */
        pv_view *grouped = pv_group_by_thread(v);
        pv_app_open_report(a, &it->report, grouped ? grouped : v, grouped != NULL);
        it->opened = true;
    }
    return &it->report;
}

/* The report of the focused pane (the Report's when the Explorer has focus
 * or the Details pane is empty). */
pv_report *pv_app_focused_report(pv_app *a)
{
    /* An empty Details pane hands its keys to the Report. */
    if (a->focus == PV_PANE_DETAILS && a->range.show)
        return a->range.open ? &a->range.rep : pv_app_report(a);
    if (a->focus == PV_PANE_DETAILS && a->det.open)
        return &a->det.rep;
    return pv_app_report(a);
}

/* Sets the location's filter and sort texts to those of report r. */
void pv_app_location_texts(pv_location *l, const pv_report *r)
{
    pv_buf sort;
    pv_buf_init(&sort);
    pv_report_sort_text(r, &sort);
    pv_location_set_texts(l, r->filter, pv_buf_cstr(&sort));
    pv_buf_free(&sort);
}

void pv_app_here(pv_app *a, pv_location *out)
{
    *out = a->loc; /* a->loc holds no texts: the report does */
    pv_report *r = pv_app_report(a);
    out->row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (r)
        pv_app_location_texts(out, r);
}

void pv_app_apply(pv_app *a, const pv_location *to)
{
    pv_app_job_keep_place(a); /* a new place: a stopped history step stays stopped */
    pv_jobs_stop(a, true);     /* its report may close below */
    a->open_stopped = PV_NO_ROW;
    pv_app_close_details(a);
    pv_app_diff_close(a); /* a diff or a graph belongs to the view it was made of */
    pv_flame_ui_close(a);
    for (size_t i = PV_LOC_MAX_DEPTH; i-- > 0;)
        pv_report_close(&a->drill[i]);
    a->loc = *to;
    a->loc.filter = a->loc.sort = NULL; /* the report holds them */
    a->loc.depth = 0;
    if (to->item < a->item_count)
        a->ex.cursor = to->item;
    for (size_t i = 0; i < to->depth && i < PV_LOC_MAX_DEPTH; i++) {
        pv_report *parent = pv_app_report(a);
        if (!parent)
            break;
        pv_view *v = pv_view_open_detail(parent->view, to->chain[i].detail, to->chain[i].row);
        if (!v)
            break;
        pv_app_open_report(a, &a->drill[i], v, true);
        a->loc.depth = i + 1;
    }
    pv_report *r = pv_app_report(a);
    if (!r)
        return;
    pv_query_error err;
    const char *filter = pv_location_filter(to);
    bool new_filter = strcmp(r->filter, filter) != 0;
    pv_buf sort;
    pv_buf_init(&sort);
    pv_report_sort_text(r, &sort);
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t key_count = r->sort_count;
    memcpy(keys, r->sort, sizeof keys);
    bool new_sort = strcmp(pv_buf_cstr(&sort), pv_location_sort(to)) != 0;
    if (new_sort && !pv_location_sort(to)[0]) {
        key_count = 0; /* view order */
    } else if (new_sort && !pv_sort_parse(r->view, pv_location_sort(to), keys, &key_count, &err)) {
        key_count = r->sort_count; /* cannot happen: the text was the report's */
        memcpy(keys, r->sort, sizeof keys);
        new_sort = false;
    }
    pv_buf_free(&sort);
    pv_report_job *j = NULL;
    if (new_filter || new_sort) {
        /* filter and sort at once, as a job: a big view in steps that a
         * key stops (docs/tui.md "Long operations") */
        j = pv_report_select_job(r, new_filter ? filter : r->filter, keys, key_count, &err);
        if (!j && new_filter) /* a filter that no longer compiles: the sort alone */
            j = pv_report_select_job(r, r->filter, keys, key_count, &err);
    }
    if (!j) {
        if (to->row != PV_NO_ROW)
            pv_report_select_row(r, to->row);
        return;
    }
    if (to->row != PV_NO_ROW)
        pv_report_job_select(j, to->row);
    pv_app_job_start(a, j, PV_JOB_HISTORY,
                     new_filter && new_sort ? "Applying its filter and order"
                     : new_filter           ? "Applying its filter"
                                            : "Applying its order");
}

/* Shows `to`; with push, the place we leave goes into the history. */
void pv_app_go(pv_app *a, const pv_location *to, bool push)
{
    pv_location here;
    size_t pos = a->history.pos;
    bool pushed = push && a->history_started;
    if (pushed) {
        pv_app_here(a, &here);
        pv_history_go(&a->history, &here, to);
    }
    pv_app_apply(a, to);
    if (pushed && pv_jobs_get(a, PV_JOB_OPEN))
        pv_app_job_undo_to(a, &here, pos); /* a view opened in steps: Esc comes back here */
    if (pushed)
        pv_location_free(&here);
}

/* The item's report that the opening job opens (the Report says so),
 * with its progress in *pct (0..100). */
bool pv_app_opening(const pv_app *a, double *pct)
{
    double p;
    if (!pv_app_job_progress_of(a, PV_JOB_OPEN, &p))
        return false;
    if (pct)
        *pct = 100.0 * p;
    return true;
}

void pv_app_show_item(pv_app *a, size_t item)
{
    if (item >= a->item_count ||
        (a->items[item].kind != PV_ITEM_VIEW && !pv_item_has_warnings(a, &a->items[item])))
        return;
    if (a->loc.item == item && a->loc.depth == 0)
        return;
    pv_location to;
    memset(&to, 0, sizeof to);
    to.item = item;
    to.row = PV_NO_ROW;
    pv_item *it = &a->items[item];
    if (it->opened) {
        to.row = pv_report_selected(&it->report);
        pv_app_location_texts(&to, &it->report);
    }
    pv_app_go(a, &to, true);
    pv_location_free(&to);
}

/* Opens detail tab `detail` of the selected row of `owner` as the Report. */
void pv_app_drill(pv_app *a, size_t detail, size_t owner_row, size_t select_row)
{
    if (a->loc.depth >= PV_LOC_MAX_DEPTH) {
        pv_app_message(a, true, "drilled down as far as profview goes");
        return;
    }
    pv_location to;
    pv_app_here(a, &to);
    to.chain[to.depth].detail = detail;
    to.chain[to.depth].row = owner_row;
    to.depth++;
    to.row = select_row;
    pv_location_free(&to); /* the detail view starts unfiltered, unsorted */
    pv_app_go(a, &to, true);
    a->focus = PV_PANE_REPORT;
}

/* Keeps the Details pane on the selected row of the Report: the detail view
 * is opened again only when the row, the view or the tab changed. */
void pv_app_sync_details(pv_app *a)
{
    pv_report *r = pv_app_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    const pv_view *owner = r ? r->view : NULL;
    if (owner && owner->detail_count && a->det.tab >= owner->detail_count)
        a->det.tab = owner->detail_count - 1;
    a->det.waiting = owner && owner->detail_count && row != PV_NO_ROW &&
                     pv_view_waits_for_index(owner, true);
    if (a->det.waiting) {
        pv_app_close_details(a); /* opened again once the index is complete */
        return;
    }
    if (owner != a->det.owner)
        a->det.chosen = false; /* another view: its first tab with rows */
    if (a->det.tried && a->det.owner == owner && a->det.row == row && a->det.tab_open == a->det.tab)
        return;
    pv_app_close_details(a);
    a->det.tried = true;
    a->det.owner = owner;
    a->det.row = row;
    a->det.tab_open = a->det.tab;
    if (!owner || row == PV_NO_ROW || owner->detail_count == 0)
        return;
    pv_buf_clear(&a->det.why);
    pv_view *v = a->det.chosen ? pv_view_open_detail_why(owner, a->det.tab, row, &a->det.why)
                               : pv_details_open_first(owner, row, &a->det.tab, &a->det.why);
    a->det.tab_open = a->det.tab;
    if (v) {
        pv_app_open_report(a, &a->det.rep, v, true);
        a->det.open = true;
        /* a source view opens at the routine's line (docs/source.md) */
        size_t first = pv_view_first_row(v);
        if (first != PV_NO_ROW && pv_report_select_row(&a->det.rep, first))
            a->det.rep.jumped = true;
    }
}

/* ---- indexing in slices (docs/tui.md "Loading and indexing") */

bool pv_app_indexing(const pv_app *a)
{
    if (a->index.stopped)
        return false;
    for (size_t i = 0; i < a->file_count; i++) {
        uint64_t done, total;
        if (!pv_file_index_progress(a->files[i], &done, &total))
            return true;
    }
    return false;
}

bool pv_app_open_again(pv_app *a)
{
    if (a->open_stopped != a->loc.item || a->loc.depth)
        return false;
    a->open_stopped = PV_NO_ROW; /* opened again (pv_app_report) */
    return true;
}

/* ---- quitting (docs/tui.md "Quitting"): what a quit would lose */

/* a plural is its singular shifted by one (pv_quit_state) */
enum {
    PV_LOSS_MARKER = 1,
    PV_LOSS_MARKERS = 2,
    PV_LOSS_PINS = 4,
    PV_LOSS_FILTER = 8,
    PV_LOSS_FILTERS = 16
};

typedef struct pv_quit_loss {
    unsigned what;   /* PV_LOSS_*: the state no session saves */
    size_t file;     /* the first file it belongs to, PV_NO_ROW: a drill-down's */
    const char *why; /* why that file's session does not save it */
    size_t others;   /* more files losing state */
    size_t index;    /* the first file whose big index is lost, or PV_NO_ROW */
    bool index_partial;
} pv_quit_loss;

/* The file whose session saves the state on `view` (row markers, pinned
 * lanes): a view opened from the Explorer; PV_NO_ROW for a drill-down's,
 * which no session keeps. */
static size_t pv_app_state_file(const pv_app *a, const pv_view *view)
{
    for (size_t k = 0; view && k < a->item_count; k++)
        if (a->items[k].kind == PV_ITEM_VIEW && a->items[k].opened && a->items[k].report.view == view)
            return a->items[k].file;
    return PV_NO_ROW;
}

/* State `what` belongs to file fi (PV_NO_ROW: a drill-down): noted when
 * its session will not save it. */
static void pv_quit_state(pv_app *a, pv_quit_loss *l, unsigned what, size_t fi)
{
    const char *why = fi == PV_NO_ROW ? "a drill-down" : pv_app_session_unsaved(a, fi);
    if (!why)
        return;
    if (!l->what) {
        l->file = fi;
        l->why = why;
    } else if (fi != l->file) {
        l->others++;
    }
    if ((what & l->what & PV_LOSS_FILTER) || (what & l->what & PV_LOSS_MARKER))
        what <<= 1; /* a second one: plural */
    l->what |= what;
}

/* What quitting now would lose: state the user made (markers, pinned
 * lanes, filters) that no session saves (docs/tui.md "Sessions"), an
 * index of more than PV_BIG_VIEW events that the index cache does not
 * keep (docs/cache.md; minutes to build again). */
static void pv_app_quit_loss(pv_app *a, pv_quit_loss *l)
{
    memset(l, 0, sizeof *l);
    l->index = PV_NO_ROW;
    size_t shown = a->loc.item < a->item_count ? a->items[a->loc.item].file : PV_NO_ROW;
    for (int m = 0; m < 2; m++) {
        if (!a->mark.set[m])
            continue;
        if (a->mark.view[m]) {
            pv_quit_state(a, l, PV_LOSS_MARKER, pv_app_state_file(a, a->mark.view[m]));
            continue;
        }
        /* a marker at a time goes to the file shown; with a pseudo file
         * shown, to every input file (pv_app_session_capture) */
        if (shown == PV_NO_ROW || pv_app_file_is_pseudo(a, shown)) {
            bool saved = false;
            for (size_t i = 0; i < a->file_count && !saved; i++)
                saved = !pv_app_session_unsaved(a, i);
            if (saved || !a->file_count)
                continue;
        }
        pv_quit_state(a, l, PV_LOSS_MARKER, shown != PV_NO_ROW ? shown : 0);
    }
    if (a->lanes.pins && a->lanes.view)
        pv_quit_state(a, l, PV_LOSS_PINS, pv_app_state_file(a, a->lanes.view));
    for (size_t i = 0; i < a->item_count; i++)
        if (a->items[i].opened && a->items[i].report.filter && a->items[i].report.filter[0])
            pv_quit_state(a, l, PV_LOSS_FILTER, a->items[i].file);
    for (size_t i = 0; i < PV_LOC_MAX_DEPTH; i++)
        if (a->drill[i].view && a->drill[i].filter && a->drill[i].filter[0])
            pv_quit_state(a, l, PV_LOSS_FILTER, PV_NO_ROW);
    for (size_t i = 0; i < a->file_count && l->index == PV_NO_ROW; i++) {
        uint64_t done, total;
        bool complete = pv_file_index_progress(a->files[i], &done, &total);
        /* (the index of a file changed on disk is of zeros: nothing lost) */
        if (done > PV_BIG_VIEW && !pv_app_file_changed(a, i) &&
            (!complete || !pv_file_index_cached(a->files[i]))) {
            l->index = i;
            l->index_partial = !complete;
        }
    }
}

void pv_app_quit_request(pv_app *a)
{
    pv_quit_loss l;
    pv_app_quit_loss(a, &l);
    if (!l.what && l.index == PV_NO_ROW) {
        a->quit = true;
        return;
    }
    pv_buf m;
    pv_buf_init(&m);
    pv_buf_puts(&m, "Quit? the ");
    if (l.what) {
        const char *part[3];
        size_t n = 0;
        if (l.what & (PV_LOSS_MARKER | PV_LOSS_MARKERS))
            part[n++] = (l.what & PV_LOSS_MARKERS) ? "markers" : "marker";
        if (l.what & PV_LOSS_PINS)
            part[n++] = "pinned lanes";
        if (l.what & (PV_LOSS_FILTER | PV_LOSS_FILTERS))
            part[n++] = (l.what & PV_LOSS_FILTERS) ? "filters" : "filter";
        for (size_t i = 0; i < n; i++)
            pv_buf_printf(&m, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", part[i]);
        bool plural = n > 1 || !(l.what == PV_LOSS_FILTER || l.what == PV_LOSS_MARKER);
        if (l.file == PV_NO_ROW)
            pv_buf_puts(&m, " of a drill-down");
        else
            pv_buf_printf(&m, " of %s", pv_basename(a->files[l.file]->path));
        if (l.others)
            pv_buf_puts(&m, " and more");
        if (l.index != PV_NO_ROW) {
            if (l.file != PV_NO_ROW)
                pv_buf_printf(&m, " (%s)", l.why);
            pv_buf_printf(&m, " and the index of %s are lost", pv_basename(a->files[l.index]->path));
        } else {
            pv_buf_printf(&m, " %s not saved", plural ? "are" : "is");
            if (l.file != PV_NO_ROW)
                pv_buf_printf(&m, " (%s)", l.why);
        }
    } else {
        pv_buf_printf(&m, "index of %s is lost (%s)", pv_basename(a->files[l.index]->path),
                      l.index_partial ? "not complete" : "not in the cache");
    }
    pv_buf_puts(&m, " y/n");
    a->quit_ask = true;
    pv_app_message(a, false, pv_buf_cstr(&m));
    pv_buf_free(&m);
}

bool pv_app_report_indexing(const pv_app *a)
{
    if (a->loc.item >= a->item_count)
        return false;
    uint64_t done, total;
    return !pv_file_index_progress(a->files[a->items[a->loc.item].file], &done, &total);
}

void pv_app_index_text(const pv_app *a, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < a->file_count; i++) {
        uint64_t done, total;
        if (pv_file_index_progress(a->files[i], &done, &total) || !total)
            continue;
        double frac = (double)done / (double)total;
        if (done >= total) {
            /* every unit read: the format finishes (a timeline puts its
             * calls in order, the viewer's lists are built) */
            snprintf(out, size, "%s", a->index.stopped ? "finishing the index stopped (:index resumes)"
                                                        : "finishing the index");
            return;
        }
        if (a->index.stopped) {
            snprintf(out, size, "indexing stopped at %.0f%% (:index resumes)", frac * 100);
            return;
        }
        int n = snprintf(out, size, "indexing %.0f%%", frac * 100);
        double elapsed = pv_clock_now() - a->index.start;
        if (i == a->index.file && done > a->index.start_done && n > 0 && (size_t)n < size) {
            pv_buf rate;
            pv_buf_init(&rate);
            char unit[32];
            const char *u = pv_file_index_unit(a->files[i]);
            snprintf(unit, sizeof unit, "%s%s", u[0] ? " " : "", u);
            pv_text_rate(&rate, (double)(done - a->index.start_done),
                         (double)(total - a->index.start_done), elapsed, unit);
            snprintf(out + n, size - (size_t)n, "%s", pv_buf_cstr(&rate));
            pv_buf_free(&rate);
        }
        return;
    }
    pv_lanes_build_text(a, out, size);
}

/* ---- indexing as a job beside the one job (jobs.h, PV_JOB_INDEX):
 * stepped while no key waits, stopped by Ctrl-C (the index keeps what it
 * has; :index starts it again) */

/* The first file not indexed yet, or PV_NO_ROW. */
static size_t pv_app_index_pending(const pv_app *a)
{
    for (size_t i = 0; i < a->file_count; i++) {
        uint64_t done, total;
        if (!pv_file_index_progress(a->files[i], &done, &total))
            return i;
    }
    return PV_NO_ROW;
}

/* One slice of file i's index: b's units (sized by the engine to take
 * about PV_INDEX_SLICE_S, or the tests' fixed number), ending at b's
 * deadline. */
static void pv_app_index_file(pv_app *a, size_t i, pv_budget *b)
{
    pv_file *f = a->files[i];
    uint64_t done, total;
    pv_file_index_progress(f, &done, &total);
    if (a->index.file != i || a->index.start == 0) {
        a->index.file = i;
        a->index.start = pv_clock_now();
        a->index.start_done = done;
    }
    /* In quarters, stopping once the deadline is passed: a slice whose
     * work costs more than the last one's (a page fault burst, a dearer
     * finishing phase) overshoots by at most a quarter (docs/tui.md
     * "Loading and indexing"); the tests' fixed units in one piece. */
    size_t part = b->deadline > 0 && b->units / 4 ? b->units / 4 : b->units ? b->units : 1;
    bool complete;
    do {
        complete = pv_file_index_step(f, part);
        pv_budget_spend(b, part);
    } while (!complete && b->units > 0 && !pv_budget_late(b));
    if (complete) {
        a->index.start = 0;
        if (strncmp(pv_buf_cstr(&a->message), "indexing ", 9) == 0)
            pv_buf_clear(&a->message); /* "... work once it is done": it is */
        a->det.tried = false; /* the Details may open now */
        size_t w = f->diag.warnings + f->diag.errors;
        if (w > a->index.warnings[i]) {
            if (pv_app_file_changed(a, i)) /* warnings of zeros: the change is the news */
                pv_app_say_changed(a, i);
            else
                pv_app_messagef(a, false,
                                "%s: %zu warning%s (the file's line in the Explorer lists them)",
                                f->path, w, w == 1 ? "" : "s");
            a->index.warnings[i] = w;
            pv_app_warnings_changed(a, i);
        }
    }
}

static bool pv_index_job_step(pv_app *a, pv_job *j, pv_budget *b)
{
    (void)j;
    size_t i = pv_app_index_pending(a);
    if (i != PV_NO_ROW)
        pv_app_index_file(a, i, b);
    return pv_app_index_pending(a) == PV_NO_ROW;
}

/* Ctrl-C: no more slices (a format's own threads pause too); the views
 * keep what is indexed. */
static void pv_index_job_stop(pv_app *a, pv_job *j, bool say)
{
    (void)j;
    if (!say)
        return; /* the viewer ends */
    a->index.stopped = true;
    for (size_t i = 0; i < a->file_count; i++)
        pv_file_index_pause(a->files[i], true);
    pv_app_message(a, false, "indexing stopped (:index resumes; Ctrl-C again quits)");
}

static const pv_job_ops pv_index_job_ops = {
    .keys = PV_JOB_KEYS_WAIT, /* Ctrl-C stops it (pv_app_index_stop) */
    .beside = true,
    .idle = true,
    .slice_s = PV_INDEX_SLICE_S,
    /* The cap: the steps that finish the index cost 2-10 times less per
     * unit than the pass, and a cheap step must not grow the slice that
     * the next, dearer one gets. */
    .units_start = 1u << 16,
    .units_min = 4096,
    .units_max = PV_INDEX_SLICE_MAX,
    .step = pv_index_job_step,
    .stop = pv_index_job_stop,
};

/* The indexing job, started when none runs. */
static pv_job *pv_app_index_job(pv_app *a)
{
    pv_job *j = pv_jobs_beside(a, PV_JOB_INDEX);
    if (!j) {
        j = pv_job_new(sizeof *j, &pv_index_job_ops, PV_JOB_INDEX);
        pv_jobs_start_beside(a, j);
    }
    return j;
}

void pv_app_index_stop(pv_app *a)
{
    pv_app_index_job(a);
    pv_jobs_stop_beside(a, PV_JOB_INDEX, true);
}

bool pv_app_index_slice(pv_app *a)
{
    if (a->index.stopped)
        return false;
    if (pv_app_index_pending(a) != PV_NO_ROW) {
        pv_job *j = pv_app_index_job(a);
        j->fixed_units = a->index.fixed_slice ? a->index.slice : 0;
        pv_jobs_step_beside(a, PV_JOB_INDEX);
        return true;
    }
    return false; /* the pinned lanes are built by a job beside the one job (lanes.c) */
}

/* File `fi` has new warnings: its item's list is made again when shown. */
void pv_app_warnings_changed(pv_app *a, size_t fi)
{
    for (size_t k = 0; k < a->item_count; k++) {
        pv_item *it = &a->items[k];
        if (it->kind != PV_ITEM_FILE || it->file != fi || !it->opened)
            continue;
        if (a->loc.item == k && a->loc.depth == 0)
            pv_app_close_details(a);
        pv_report_close(&it->report);
        it->opened = false;
    }
}

void pv_app_index_all(pv_app *a)
{
    bool fixed = a->index.fixed_slice;
    size_t slice = a->index.slice;
    a->index.fixed_slice = true;
    a->index.slice = SIZE_MAX / 2;
    while (pv_app_index_slice(a))
        ;
    a->index.fixed_slice = fixed;
    a->index.slice = slice;
}
