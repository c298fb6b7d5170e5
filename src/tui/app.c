/* app.c - the viewer: Explorer | Report over Details, status bar, prompt
 * (PRODUCT.md §3).  Terminal-independent: keys in, grid out. */
#include "tui/app.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tui/group.h"
#include "tui/history.h"
#include "tui/keymap.h"
#include "tui/report.h"

enum { PV_PANE_EXPLORER, PV_PANE_REPORT, PV_PANE_DETAILS, PV_PANE_COUNT };
enum { PV_ITEM_FILE, PV_ITEM_SET, PV_ITEM_VIEW };
enum { PV_PROMPT_NONE, PV_PROMPT_SEARCH, PV_PROMPT_FILTER, PV_PROMPT_COMMAND, PV_PROMPT_KINDS };
enum { PV_OVERLAY_NONE, PV_OVERLAY_HELP, PV_OVERLAY_COLUMNS, PV_OVERLAY_SORT };

#define PV_PROMPT_HISTORY 50
#define PV_MAX_SHOWN 256

typedef struct pv_item {
    int kind;
    size_t file, set, view;
    bool opened;
    pv_report report; /* views only, opened when first shown */
} pv_item;

typedef struct pv_rect {
    int y, x, w, h;
} pv_rect;

struct pv_app {
    pv_tui_options opt;
    pv_tui_config cfg;
    pv_theme theme;
    bool theme_changed;
    bool utf8, ascii;
    pv_time_unit unit;
    pv_grid grid;
    int width, height;

    pv_file **files;
    size_t file_count, file_cap;
    pv_item *items;
    size_t item_count, item_cap;
    size_t ex_cursor, ex_top;

    /* Loading: the thread takes paths from the queue and hands back files. */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    char **queue;
    size_t queue_count, queue_cap, queue_next;
    pv_file **done;
    size_t done_count, done_cap;
    bool loader_busy;
    bool stopping;
    volatile int cancel;
    char load_what[64];
    char load_path[256];
    uint64_t load_done, load_total;
    double load_start;
    pv_buf load_errors;

    pv_location loc;
    pv_report drill[PV_LOC_MAX_DEPTH];
    pv_history history;
    bool history_started;

    pv_report det;
    const pv_view *det_owner;
    size_t det_row, det_tab, det_tab_open;
    bool det_open;
    bool det_tried; /* det_owner/det_row/det_tab_open say what was opened */

    int focus;
    bool zoom;
    int ex_width_adj, det_height_adj;
    int page_rows[PV_PANE_COUNT];
    pv_rect rect[PV_PANE_COUNT];
    int header_y;
    size_t header_count;
    struct {
        int x, w;
        size_t col;
    } header[PV_MAX_SHOWN];
    int tabs_y;
    struct {
        int x, w;
    } tabs[32];
    size_t tab_count;

    int prompt;
    pv_buf line;
    size_t line_pos;
    char *prompt_history[PV_PROMPT_KINDS][PV_PROMPT_HISTORY];
    size_t prompt_history_count[PV_PROMPT_KINDS];
    size_t prompt_history_pos;
    size_t search_origin;
    char search[128];
    int cursor_y, cursor_x;
    bool cursor_on;

    char message[2048];
    bool message_error;

    int overlay;
    size_t ov_cursor, ov_top;
    bool quit;

    /* Work on a big view waits until the screen says it is being done. */
    int work;
    pv_report *work_report;
    pv_sort_key work_keys[PV_SORT_MAX_KEYS];
    size_t work_key_count;
    char work_filter[256];
};

/* Views with more rows than this are filtered and sorted only after the
 * screen shows "Sorting N rows..." (PRODUCT.md §3: long work shows itself). */
#define PV_BIG_VIEW 200000
enum { PV_WORK_NONE, PV_WORK_FILTER, PV_WORK_SORT };

static double pv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- loading in the background (STYLE.md habit 5) */

static void pv_app_progress(void *user, const char *what, uint64_t done, uint64_t total)
{
    pv_app *a = user;
    pthread_mutex_lock(&a->lock);
    snprintf(a->load_what, sizeof a->load_what, "%s", what ? what : "");
    a->load_done = done;
    a->load_total = total;
    pthread_mutex_unlock(&a->lock);
}

static void *pv_app_loader(void *arg)
{
    pv_app *a = arg;
    pthread_mutex_lock(&a->lock);
    for (;;) {
        while (!a->stopping && a->queue_next == a->queue_count)
            pthread_cond_wait(&a->cond, &a->lock);
        if (a->stopping)
            break;
        const char *path = a->queue[a->queue_next];
        a->loader_busy = true;
        snprintf(a->load_path, sizeof a->load_path, "%s", path);
        a->load_what[0] = '\0';
        a->load_done = a->load_total = 0;
        a->load_start = pv_now();
        pv_load_options o = a->opt.load;
        o.progress.report = pv_app_progress;
        o.progress.user = a;
        o.progress.cancel = &a->cancel;
        pthread_mutex_unlock(&a->lock);

        pv_load_status status;
        pv_file *f = pv_load_file(path, &o, &status);

        pthread_mutex_lock(&a->lock);
        if (status != PV_LOAD_OK) {
            for (size_t i = 0; i < f->diag.entry_count; i++)
                pv_buf_printf(&a->load_errors, "%s\n", f->diag.entries[i].text);
            if (f->diag.entry_count == 0)
                pv_buf_printf(&a->load_errors, "%s: not loaded\n", path);
            pv_file_free(f);
        } else {
            a->done = pv_xgrow(a->done, &a->done_cap, a->done_count + 1, sizeof *a->done);
            a->done[a->done_count++] = f;
        }
        a->queue_next++;
        a->loader_busy = false;
        a->cancel = 0;
        pthread_cond_broadcast(&a->cond);
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

static void pv_app_enqueue(pv_app *a, const char *path)
{
    pthread_mutex_lock(&a->lock);
    a->queue = pv_xgrow(a->queue, &a->queue_cap, a->queue_count + 1, sizeof *a->queue);
    a->queue[a->queue_count++] = pv_xstrdup(path);
    pthread_cond_broadcast(&a->cond);
    pthread_mutex_unlock(&a->lock);
}

bool pv_app_loading(const pv_app *a)
{
    pv_app *m = (pv_app *)a;
    pthread_mutex_lock(&m->lock);
    bool busy = m->queue_next < m->queue_count || m->done_count > 0;
    pthread_mutex_unlock(&m->lock);
    return busy;
}

void pv_app_wait_loaded(pv_app *a)
{
    pthread_mutex_lock(&a->lock);
    while (a->queue_next < a->queue_count)
        pthread_cond_wait(&a->cond, &a->lock);
    pthread_mutex_unlock(&a->lock);
    pv_app_poll(a);
}

bool pv_app_cancel(pv_app *a)
{
    pthread_mutex_lock(&a->lock);
    bool busy = a->loader_busy;
    if (busy)
        a->cancel = 1;
    pthread_mutex_unlock(&a->lock);
    return busy;
}

size_t pv_app_file_count(const pv_app *a)
{
    return a->file_count;
}
const char *pv_app_load_errors(const pv_app *a)
{
    return pv_buf_cstr((pv_buf *)&a->load_errors);
}

static pv_item *pv_app_add_item(pv_app *a, int kind, size_t file, size_t set, size_t view)
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

static pv_view *pv_item_view(const pv_app *a, const pv_item *it)
{
    if (it->kind != PV_ITEM_VIEW)
        return NULL;
    return a->files[it->file]->sets[it->set]->views[it->view];
}

static void pv_app_go(pv_app *a, const pv_location *to, bool push);

void pv_app_adopt_file(pv_app *a, pv_file *f)
{
    a->files = pv_xgrow(a->files, &a->file_cap, a->file_count + 1, sizeof *a->files);
    size_t fi = a->file_count++;
    a->files[fi] = f;
    size_t first_view = PV_NO_ROW;
    pv_app_add_item(a, PV_ITEM_FILE, fi, 0, 0);
    for (size_t s = 0; s < f->set_count; s++) {
        pv_app_add_item(a, PV_ITEM_SET, fi, s, 0);
        for (size_t v = 0; v < f->sets[s]->view_count; v++) {
            if (first_view == PV_NO_ROW)
                first_view = a->item_count;
            pv_app_add_item(a, PV_ITEM_VIEW, fi, s, v);
        }
    }
    if (f->diag.warnings + f->diag.errors) {
        char text[512];
        snprintf(text, sizeof text, "%s: %zu warning%s (see 'profview info')", f->path,
                 f->diag.warnings + f->diag.errors,
                 f->diag.warnings + f->diag.errors == 1 ? "" : "s");
        pv_app_message(a, false, text);
    }
    /* The first view of the first file is shown as soon as it exists. */
    if (first_view != PV_NO_ROW && !a->history_started) {
        pv_location loc;
        memset(&loc, 0, sizeof loc);
        loc.item = first_view;
        loc.row = PV_NO_ROW;
        a->ex_cursor = first_view;
        pv_app_go(a, &loc, false);
        pv_history_init(&a->history, &loc);
        a->history_started = true;
    }
}

bool pv_app_poll(pv_app *a)
{
    pthread_mutex_lock(&a->lock);
    size_t n = a->done_count;
    pv_file **got = NULL;
    if (n) {
        got = pv_xmalloc(n * sizeof *got);
        memcpy(got, a->done, n * sizeof *got);
        a->done_count = 0;
    }
    bool errors = a->load_errors.len > 0;
    pthread_mutex_unlock(&a->lock);
    for (size_t i = 0; i < n; i++)
        pv_app_adopt_file(a, got[i]);
    free(got);
    if (errors && a->file_count) {
        pthread_mutex_lock(&a->lock);
        char text[1024];
        snprintf(text, sizeof text, "%s", pv_buf_cstr(&a->load_errors));
        size_t len = strlen(text);
        while (len && text[len - 1] == '\n')
            text[--len] = '\0';
        pv_buf_clear(&a->load_errors);
        pthread_mutex_unlock(&a->lock);
        pv_app_message(a, true, text);
    }
    return n > 0 || errors;
}

/* ---- creation */

pv_app *pv_app_new(const pv_tui_options *o, const pv_tui_config *cfg, const pv_theme *theme,
                   bool utf8, bool ascii, int width, int height)
{
    pv_app *a = pv_xcalloc(1, sizeof *a);
    a->opt = *o;
    a->cfg = *cfg;
    a->theme = *theme;
    a->utf8 = utf8;
    a->ascii = ascii;
    a->unit = cfg->time_unit;
    a->focus = PV_PANE_EXPLORER;
    pv_grid_init(&a->grid, utf8);
    pv_buf_init(&a->line);
    pv_buf_init(&a->load_errors);
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->cond, NULL);
    pv_app_resize(a, width, height);
    for (size_t i = 0; i < o->path_count; i++)
        pv_app_enqueue(a, o->paths[i]);
    if (pthread_create(&a->thread, NULL, pv_app_loader, a) == 0)
        a->thread_started = true;
    else
        pv_app_message(a, true, "cannot start the loading thread");
    a->focus = PV_PANE_REPORT;
    return a;
}

static void pv_app_close_details(pv_app *a)
{
    pv_report_close(&a->det);
    a->det_open = false;
    a->det_tried = false;
}

void pv_app_free(pv_app *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stopping = true;
    a->cancel = 1;
    pthread_cond_broadcast(&a->cond);
    pthread_mutex_unlock(&a->lock);
    if (a->thread_started)
        pthread_join(a->thread, NULL);
    for (size_t i = 0; i < a->done_count; i++)
        pv_file_free(a->done[i]);
    free(a->done);
    pv_app_close_details(a);
    for (size_t i = PV_LOC_MAX_DEPTH; i-- > 0;)
        pv_report_close(&a->drill[i]);
    for (size_t i = 0; i < a->item_count; i++)
        pv_report_close(&a->items[i].report);
    free(a->items);
    for (size_t i = 0; i < a->file_count; i++)
        pv_file_free(a->files[i]);
    free(a->files);
    for (size_t i = 0; i < a->queue_count; i++)
        free(a->queue[i]);
    free(a->queue);
    for (int k = 0; k < PV_PROMPT_KINDS; k++)
        for (size_t i = 0; i < a->prompt_history_count[k]; i++)
            free(a->prompt_history[k][i]);
    if (a->history_started)
        pv_history_free(&a->history);
    pv_buf_free(&a->line);
    pv_buf_free(&a->load_errors);
    pv_grid_free(&a->grid);
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->cond);
    free(a);
}

void pv_app_message(pv_app *a, bool is_error, const char *text)
{
    snprintf(a->message, sizeof a->message, "%s", text);
    size_t len = strlen(a->message);
    while (len && a->message[len - 1] == '\n')
        a->message[--len] = '\0';
    a->message_error = is_error;
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

/* The report the Report pane shows, or NULL. */
static pv_report *pv_app_report(pv_app *a)
{
    if (a->loc.depth)
        return a->drill[a->loc.depth - 1].view ? &a->drill[a->loc.depth - 1] : NULL;
    if (a->loc.item >= a->item_count)
        return NULL;
    pv_item *it = &a->items[a->loc.item];
    if (it->kind != PV_ITEM_VIEW)
        return NULL;
    if (!it->opened) {
        pv_view *v = pv_item_view(a, it);
        /* Call trees show one node per thread (PRODUCT.md §6). */
        pv_view *grouped = pv_group_by_thread(v);
        pv_report_open(&it->report, grouped ? grouped : v, grouped != NULL,
                       pv_config_columns(&a->cfg, v->id));
        it->opened = true;
    }
    return &it->report;
}

/* The report of the focused pane (the Report's when the Explorer has focus
 * or the Details pane is empty). */
static pv_report *pv_app_focused_report(pv_app *a)
{
    /* An empty Details pane hands its keys to the Report. */
    if (a->focus == PV_PANE_DETAILS && a->det_open)
        return &a->det;
    return pv_app_report(a);
}

static void pv_app_here(pv_app *a, pv_location *out)
{
    *out = a->loc;
    pv_report *r = pv_app_report(a);
    out->row = r ? pv_report_selected(r) : PV_NO_ROW;
    out->filter[0] = out->sort[0] = '\0';
    if (r) {
        snprintf(out->filter, sizeof out->filter, "%s", r->filter);
        pv_report_sort_text(r, out->sort, sizeof out->sort);
    }
}

static void pv_app_apply(pv_app *a, const pv_location *to)
{
    pv_app_close_details(a);
    for (size_t i = PV_LOC_MAX_DEPTH; i-- > 0;)
        pv_report_close(&a->drill[i]);
    a->loc = *to;
    a->loc.depth = 0;
    if (to->item < a->item_count)
        a->ex_cursor = to->item;
    for (size_t i = 0; i < to->depth && i < PV_LOC_MAX_DEPTH; i++) {
        pv_report *parent = pv_app_report(a);
        if (!parent)
            break;
        pv_view *v = pv_view_open_detail(parent->view, to->chain[i].detail, to->chain[i].row);
        if (!v)
            break;
        pv_report_open(&a->drill[i], v, true, pv_config_columns(&a->cfg, v->id));
        a->loc.depth = i + 1;
    }
    pv_report *r = pv_app_report(a);
    if (!r)
        return;
    pv_query_error err;
    if (strcmp(r->filter, to->filter) != 0)
        pv_report_set_filter(r, to->filter, &err);
    char sort[128];
    pv_report_sort_text(r, sort, sizeof sort);
    if (strcmp(sort, to->sort) != 0)
        pv_report_apply_sort_text(r, to->sort, &err);
    if (to->row != PV_NO_ROW)
        pv_report_select_row(r, to->row);
}

/* Shows `to`; with push, the place we leave goes into the history. */
static void pv_app_go(pv_app *a, const pv_location *to, bool push)
{
    if (push && a->history_started) {
        pv_location here;
        pv_app_here(a, &here);
        pv_history_go(&a->history, &here, to);
    }
    pv_app_apply(a, to);
}

static void pv_app_show_item(pv_app *a, size_t item)
{
    if (item >= a->item_count || a->items[item].kind != PV_ITEM_VIEW)
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
        snprintf(to.filter, sizeof to.filter, "%s", it->report.filter);
        pv_report_sort_text(&it->report, to.sort, sizeof to.sort);
    }
    pv_app_go(a, &to, true);
}

/* Opens detail tab `detail` of the selected row of `owner` as the Report. */
static void pv_app_drill(pv_app *a, size_t detail, size_t owner_row, size_t select_row)
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
    to.filter[0] = to.sort[0] = '\0';
    pv_app_go(a, &to, true);
    a->focus = PV_PANE_REPORT;
}

/* Keeps the Details pane on the selected row of the Report: the detail view
 * is opened again only when the row, the view or the tab changed. */
static void pv_app_sync_details(pv_app *a)
{
    pv_report *r = pv_app_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    const pv_view *owner = r ? r->view : NULL;
    if (owner && owner->detail_count && a->det_tab >= owner->detail_count)
        a->det_tab = owner->detail_count - 1;
    if (a->det_tried && a->det_owner == owner && a->det_row == row && a->det_tab_open == a->det_tab)
        return;
    pv_app_close_details(a);
    a->det_tried = true;
    a->det_owner = owner;
    a->det_row = row;
    a->det_tab_open = a->det_tab;
    if (!owner || row == PV_NO_ROW || owner->detail_count == 0)
        return;
    pv_view *v = pv_view_open_detail(owner, a->det_tab, row);
    if (v) {
        pv_report_open(&a->det, v, true, pv_config_columns(&a->cfg, v->id));
        a->det_open = true;
    }
}

/* ---- drawing */

static uint32_t pv_app_glyph(const pv_app *a, uint32_t fancy, char plain)
{
    return a->ascii ? (uint32_t)plain : fancy;
}

static void pv_app_title(pv_app *a, int y, int x, int w, const char *title, bool focused)
{
    pv_role role = focused ? PV_ROLE_TITLE_FOCUS : PV_ROLE_TITLE;
    for (int i = 0; i < w; i++)
        pv_grid_char(&a->grid, y, x + i, pv_app_glyph(a, 0x2500, '-'), PV_ROLE_BORDER);
    if (w > 4) {
        pv_grid_char(&a->grid, y, x + 1, ' ', role);
        int used = pv_grid_str(&a->grid, y, x + 2, w - 4, title, role);
        pv_grid_char(&a->grid, y, x + 2 + used, ' ', role);
    }
}

static const char *pv_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void pv_app_item_label(const pv_app *a, const pv_item *it, pv_buf *out)
{
    const pv_file *f = a->files[it->file];
    if (it->kind == PV_ITEM_FILE) {
        pv_buf_puts(out, pv_basename(f->path));
    } else if (it->kind == PV_ITEM_SET) {
        const pv_result_set *s = f->sets[it->set];
        pv_buf_printf(out, "  %s", s->caption);
    } else {
        const pv_view *v = f->sets[it->set]->views[it->view];
        pv_buf_printf(out, "    %s (%zu)", v->title, pv_view_rows(v));
    }
}

static void pv_app_draw_explorer(pv_app *a, pv_rect r)
{
    bool focused = a->focus == PV_PANE_EXPLORER;
    pv_app_title(a, r.y, r.x, r.w, "Explorer", focused);
    int rows = r.h - 1;
    a->page_rows[PV_PANE_EXPLORER] = rows > 1 ? rows : 1;
    if (rows <= 0)
        return;
    if (a->ex_cursor < a->ex_top)
        a->ex_top = a->ex_cursor;
    if (a->ex_cursor >= a->ex_top + (size_t)rows)
        a->ex_top = a->ex_cursor - (size_t)rows + 1;
    pv_buf label;
    pv_buf_init(&label);
    int y = r.y + 1;
    for (size_t i = a->ex_top; i < a->item_count && y < r.y + r.h; i++, y++) {
        pv_buf_clear(&label);
        pv_app_item_label(a, &a->items[i], &label);
        pv_role role = a->items[i].kind == PV_ITEM_FILE ? PV_ROLE_TITLE : PV_ROLE_NORMAL;
        pv_grid_text(&a->grid, y, r.x, r.w, label.data, label.len, role);
        if (i == a->ex_cursor)
            pv_grid_paint(&a->grid, y, r.x, r.w, focused ? PV_ROLE_SELECTED : PV_ROLE_SELECTED_DIM);
        else if (i == a->loc.item && a->items[i].kind == PV_ITEM_VIEW)
            pv_grid_paint(&a->grid, y, r.x, r.w, PV_ROLE_TITLE);
    }
    pthread_mutex_lock(&a->lock);
    bool busy = a->queue_next < a->queue_count;
    char what[300];
    snprintf(what, sizeof what, "loading %s", busy ? pv_basename(a->queue[a->queue_next]) : "");
    pthread_mutex_unlock(&a->lock);
    if (busy && y < r.y + r.h)
        pv_grid_str(&a->grid, y, r.x, r.w, what, PV_ROLE_DIM);
    pv_buf_free(&label);
}

static bool pv_type_numeric(pv_type t)
{
    return t != PV_TYPE_STRING;
}

static int pv_type_min_width(pv_type t)
{
    switch (t) {
    case PV_TYPE_TIME:
        return 9;
    case PV_TYPE_HANDLE:
        return 10;
    case PV_TYPE_FLOAT:
        return 6;
    default:
        return 3;
    }
}

static void pv_app_cell_text(const pv_app *a, const pv_view *v, size_t row, size_t col, pv_buf *out)
{
    pv_cell c;
    pv_view_cell(v, row, col, &c);
    pv_buf_clear(out);
    pv_cell_format_human(&c, a->unit, out);
}

static size_t pv_app_tree_column(const pv_report *r, const size_t *shown, size_t n)
{
    if (!pv_view_is_tree(r->view) || n == 0)
        return PV_NO_ROW;
    for (size_t i = 0; i < n; i++)
        if (r->view->columns[shown[i]].flags & PV_COL_TREE)
            return shown[i];
    for (size_t i = 0; i < n; i++)
        if (r->view->columns[shown[i]].flags & PV_COL_NAME)
            return shown[i];
    return shown[0];
}

/* Width of the last column: its content on screen, up to all the room. */
static int pv_app_last_width(const pv_app *a, const pv_report *r, size_t c, int room,
                             size_t tree_col, size_t count, int rows)
{
    int w = r->widths[c];
    pv_buf text;
    pv_buf_init(&text);
    for (size_t k = r->top; k < count && k < r->top + (size_t)(rows > 0 ? rows : 0); k++) {
        size_t row = pv_report_row(r, k);
        pv_app_cell_text(a, r->view, row, c, &text);
        int cw = (int)pv_text_width(text.data ? text.data : "", text.len, a->utf8);
        if (c == tree_col)
            cw += 2 * (int)pv_report_depth(r, k) + 2;
        if (cw > w)
            w = cw;
    }
    pv_buf_free(&text);
    return w < room ? w : room;
}

/* Draws a report: header (with sort indicator) and the visible rows only. */
static void pv_app_draw_report(pv_app *a, pv_report *r, pv_rect rc, bool focused, int pane,
                               bool record_header)
{
    if (rc.h < 1 || rc.w < 1)
        return;
    int rows = rc.h - 1;
    a->page_rows[pane] = rows > 1 ? rows : 1;
    size_t count = pv_report_count(r);
    if (count && r->cursor >= count)
        r->cursor = count - 1;
    if (r->cursor < r->top)
        r->top = r->cursor;
    if (rows > 0 && r->cursor >= r->top + (size_t)rows)
        r->top = r->cursor - (size_t)rows + 1;
    if (count <= (size_t)(rows > 0 ? rows : 0))
        r->top = 0;

    size_t shown[PV_MAX_SHOWN];
    size_t n = pv_report_shown(r, shown, PV_MAX_SHOWN);
    size_t tree_col = pv_app_tree_column(r, shown, n);
    pv_buf text;
    pv_buf_init(&text);
    /* Column widths: learnt from the rows on screen (never from all rows),
     * and only ever grow so that columns do not jump while scrolling. */
    int cap = rc.w / 2 > 24 ? rc.w / 2 : 24;
    for (size_t i = 0; i < n; i++) {
        size_t c = shown[i];
        const pv_column *col = &r->view->columns[c];
        int w = (int)pv_text_width(col->title, strlen(col->title), a->utf8) + 1;
        if (w < pv_type_min_width(col->type))
            w = pv_type_min_width(col->type);
        for (size_t k = r->top; k < count && k < r->top + (size_t)(rows > 0 ? rows : 0); k++) {
            size_t row = pv_report_row(r, k);
            pv_app_cell_text(a, r->view, row, c, &text);
            int cw = (int)pv_text_width(text.data ? text.data : "", text.len, a->utf8);
            if (c == tree_col)
                cw += 2 * (int)pv_report_depth(r, k) + 2;
            if (cw > w)
                w = cw;
        }
        if (w > cap)
            w = cap;
        if (w > r->widths[c])
            r->widths[c] = w;
    }
    if (r->hscroll >= n)
        r->hscroll = n ? n - 1 : 0;

    /* Header. */
    int x = rc.x;
    if (record_header) {
        a->header_y = rc.y;
        a->header_count = 0;
    }
    pv_grid_fill(&a->grid, rc.y, rc.x, rc.w, 1, PV_ROLE_HEADER);
    int xs[PV_MAX_SHOWN];
    size_t end = r->hscroll; /* columns hscroll .. end-1 are on screen */
    for (size_t i = r->hscroll; i < n && x < rc.x + rc.w; i++, end = i) {
        size_t c = shown[i];
        const pv_column *col = &r->view->columns[c];
        int room = rc.x + rc.w - x;
        /* The last column may use all the room that is left. */
        if (i + 1 == n && r->widths[c] < room)
            r->widths[c] = pv_app_last_width(a, r, c, room, tree_col, count, rows);
        int w = r->widths[c];
        char title[160];
        const char *ind = "";
        if (r->sort_count && r->sort[0].column == c)
            ind = r->sort[0].descending ? (a->ascii ? "v" : "\xe2\x96\xbc")
                                        : (a->ascii ? "^" : "\xe2\x96\xb2");
        snprintf(title, sizeof title, "%s%s", col->title, ind);
        int tw = (int)pv_text_width(title, strlen(title), a->utf8);
        int off = pv_type_numeric(col->type) && tw < w ? w - tw : 0;
        pv_grid_str(&a->grid, rc.y, x + off, (w < room ? w : room) - off, title, PV_ROLE_HEADER);
        xs[i] = x;
        if (record_header && a->header_count < PV_MAX_SHOWN) {
            a->header[a->header_count].x = x;
            a->header[a->header_count].w = w;
            a->header[a->header_count].col = c;
            a->header_count++;
        }
        x += w + 1;
    }

    /* Rows: only the ones on screen. */
    for (int line = 0; line < rows; line++) {
        size_t k = r->top + (size_t)line;
        int y = rc.y + 1 + line;
        if (k >= count)
            break;
        size_t row = pv_report_row(r, k);
        bool selected = k == r->cursor;
        for (size_t i = r->hscroll; i < end; i++) {
            size_t c = shown[i];
            const pv_column *col = &r->view->columns[c];
            int w = r->widths[c];
            int room = rc.x + rc.w - xs[i];
            if (w > room)
                w = room;
            int cx = xs[i];
            if (c == tree_col) {
                int indent = 2 * (int)pv_report_depth(r, k);
                if (indent > w - 2)
                    indent = w > 2 ? w - 2 : 0;
                cx += indent;
                uint32_t mark = ' ';
                if (pv_report_has_kids(r, row))
                    mark = pv_report_is_collapsed(r, row) ? pv_app_glyph(a, 0x25b8, '+')
                                                          : pv_app_glyph(a, 0x25be, '-');
                if (w - indent >= 2) {
                    pv_grid_char(&a->grid, y, cx, mark, PV_ROLE_TREE);
                    cx += 2;
                }
                w -= (cx - xs[i]);
            }
            pv_app_cell_text(a, r->view, row, c, &text);
            const char *s = text.data ? text.data : "";
            pv_role role = pv_type_numeric(col->type) ? PV_ROLE_NUMBER : PV_ROLE_NORMAL;
            int tw = (int)pv_text_width(s, text.len, a->utf8);
            int off = pv_type_numeric(col->type) && tw < w ? w - tw : 0;
            int used = pv_grid_text(&a->grid, y, cx + off, w - off, s, text.len, role);
            if (a->search[0] && pv_report_cell_matches(r, row, c, a->search))
                pv_grid_paint(&a->grid, y, cx + off, used, PV_ROLE_MATCH);
        }
        if (selected)
            pv_grid_paint(&a->grid, y, rc.x, rc.w,
                          focused ? PV_ROLE_SELECTED : PV_ROLE_SELECTED_DIM);
    }
    if (count == 0 && rows > 0)
        pv_grid_str(&a->grid, rc.y + 1, rc.x, rc.w,
                    r->filter[0] ? "(no row matches the filter)" : "(no rows)", PV_ROLE_DIM);
    pv_buf_free(&text);
}

/* The view the drilled-down report came from, for its title. */
static const char *pv_app_report_parent_title(const pv_app *a)
{
    if (a->loc.depth >= 2)
        return a->drill[a->loc.depth - 2].view->title;
    const pv_item *it = &a->items[a->loc.item];
    return pv_item_view(a, it)->title;
}

static void pv_app_draw_report_pane(pv_app *a, pv_rect rc)
{
    bool focused = a->focus == PV_PANE_REPORT;
    pv_report *r = pv_app_report(a);
    char title[256];
    if (r) {
        if (a->loc.depth)
            snprintf(title, sizeof title, "Report: %s (%s)", r->view->title,
                     pv_app_report_parent_title(a));
        else
            snprintf(title, sizeof title, "Report: %s", r->view->title);
    } else {
        snprintf(title, sizeof title, "Report");
    }
    pv_app_title(a, rc.y, rc.x, rc.w, title, focused);
    pv_rect body = {rc.y + 1, rc.x, rc.w, rc.h - 1};
    if (!r) {
        if (body.h > 0)
            pv_grid_str(&a->grid, body.y, body.x, body.w,
                        a->file_count ? "Select a view in the Explorer" : "Loading...",
                        PV_ROLE_DIM);
        a->header_count = 0;
        return;
    }
    pv_app_draw_report(a, r, body, focused, PV_PANE_REPORT, true);
}

static void pv_app_draw_details(pv_app *a, pv_rect rc)
{
    bool focused = a->focus == PV_PANE_DETAILS;
    pv_report *owner = pv_app_report(a);
    a->tab_count = 0;
    a->tabs_y = rc.y;
    pv_app_title(a, rc.y, rc.x, rc.w, "Details", focused);
    if (owner && owner->view->detail_count) {
        int x = rc.x + 11;
        for (size_t d = 0; d < owner->view->detail_count && d < 32; d++) {
            const char *t = owner->view->details[d].title;
            int w = (int)pv_text_width(t, strlen(t), a->utf8) + 2;
            if (x + w > rc.x + rc.w)
                break;
            pv_role role = d == a->det_tab ? PV_ROLE_TAB_ACTIVE : PV_ROLE_TAB;
            pv_grid_fill(&a->grid, rc.y, x, w, 1, role);
            pv_grid_char(&a->grid, rc.y, x, d == a->det_tab ? (uint32_t)'[' : ' ', role);
            pv_grid_str(&a->grid, rc.y, x + 1, w - 2, t, role);
            pv_grid_char(&a->grid, rc.y, x + w - 1, d == a->det_tab ? (uint32_t)']' : ' ', role);
            a->tabs[d].x = x;
            a->tabs[d].w = w;
            a->tab_count = d + 1;
            x += w + 1;
        }
    }
    pv_rect body = {rc.y + 1, rc.x, rc.w, rc.h - 1};
    if (body.h <= 0)
        return;
    if (a->det_open) {
        pv_app_draw_report(a, &a->det, body, focused, PV_PANE_DETAILS, false);
    } else {
        const char *why = !owner                           ? ""
                          : owner->view->detail_count == 0 ? "This view has no details"
                          : pv_report_count(owner) == 0
                              ? "No row selected"
                              : "Nothing of this kind for the selected row";
        pv_grid_str(&a->grid, body.y, body.x, body.w, why, PV_ROLE_DIM);
    }
}

static void pv_app_draw_status(pv_app *a, int y)
{
    pv_grid_fill(&a->grid, y, 0, a->width, 1, PV_ROLE_STATUS);
    pv_buf s;
    pv_buf_init(&s);
    const char *sep = a->ascii ? " | " : " \xe2\x94\x82 ";
    pthread_mutex_lock(&a->lock);
    bool busy = a->queue_next < a->queue_count;
    if (busy) {
        double elapsed = pv_now() - a->load_start;
        pv_buf_printf(&s, " Loading %s", pv_basename(a->queue[a->queue_next]));
        if (a->load_what[0])
            pv_buf_printf(&s, ": %s", a->load_what);
        if (a->load_total) {
            double frac = (double)a->load_done / (double)a->load_total;
            pv_buf_printf(&s, " %3.0f%%", frac * 100);
            if (elapsed > 0.2 && frac > 0) {
                pv_buf_printf(&s, " %.0f/s ETA %.0fs", (double)a->load_done / elapsed,
                              elapsed / frac - elapsed);
            }
        }
        pv_buf_puts(&s, "  (Ctrl-C cancels)");
    }
    pthread_mutex_unlock(&a->lock);
    if (!busy) {
        pv_report *r = pv_app_report(a);
        pv_item *it = a->loc.item < a->item_count ? &a->items[a->loc.item] : NULL;
        if (it)
            pv_buf_printf(&s, " %s", pv_basename(a->files[it->file]->path));
        else
            pv_buf_puts(&s, " profview");
        if (r) {
            pv_report *fr = pv_app_focused_report(a);
            if (!fr)
                fr = r;
            size_t count = pv_report_count(fr);
            pv_buf_printf(&s, "%s%s%srow %zu/%zu", sep, fr->view->id, sep,
                          count ? fr->cursor + 1 : 0, count);
            if (r->filter[0])
                pv_buf_printf(&s, "%sfilter: %s (%zu)", sep, r->filter, r->matched);
            if (r->sort_count) {
                char sort[128];
                pv_report_sort_text(r, sort, sizeof sort);
                pv_buf_printf(&s, "%ssort: %s", sep, sort);
            }
        }
        size_t warnings = 0;
        for (size_t i = 0; i < a->file_count; i++)
            warnings += a->files[i]->diag.warnings + a->files[i]->diag.errors;
        if (warnings)
            pv_buf_printf(&s, "%s%zu warning%s", sep, warnings, warnings == 1 ? "" : "s");
    }
    pv_grid_text(&a->grid, y, 0, a->width, s.data ? s.data : "", s.len, PV_ROLE_STATUS);
    char help[32];
    pv_keymap_describe(&a->cfg.keys, PV_ACT_HELP, help, sizeof help);
    char *space = strchr(help, ' ');
    if (space)
        *space = '\0';
    char hint[48];
    snprintf(hint, sizeof hint, "%s help ", help);
    int hw = (int)strlen(hint);
    if ((int)s.len + hw + 2 < a->width)
        pv_grid_str(&a->grid, y, a->width - hw, hw, hint, PV_ROLE_STATUS);
    pv_buf_free(&s);
}

static const char *pv_prompt_prefix(int kind)
{
    switch (kind) {
    case PV_PROMPT_SEARCH:
        return "/";
    case PV_PROMPT_FILTER:
        return "filter: ";
    case PV_PROMPT_COMMAND:
        return ":";
    }
    return "";
}

static void pv_app_draw_prompt(pv_app *a, int y)
{
    a->cursor_on = false;
    if (a->prompt) {
        const char *pre = pv_prompt_prefix(a->prompt);
        int x = pv_grid_str(&a->grid, y, 0, a->width, pre, PV_ROLE_PROMPT);
        /* Scroll the line so that the cursor stays visible. */
        size_t start = 0;
        size_t before = pv_text_width(a->line.data ? a->line.data : "", a->line_pos, a->utf8);
        int room = a->width - x - 1;
        if (room < 1)
            room = 1;
        if ((int)before > room) {
            while (start < a->line_pos &&
                   (int)pv_text_width(a->line.data + start, a->line_pos - start, a->utf8) > room)
                start++;
        }
        pv_grid_text(&a->grid, y, x, a->width - x, a->line.data ? a->line.data + start : "",
                     a->line.len - start, PV_ROLE_PROMPT);
        a->cursor_y = y;
        a->cursor_x = x + (int)pv_text_width(a->line.data ? a->line.data + start : "",
                                             a->line_pos - start, a->utf8);
        a->cursor_on = true;
        return;
    }
    const char *nl = strchr(a->message, '\n');
    if (!nl)
        pv_grid_str(&a->grid, y, 0, a->width, a->message,
                    a->message_error ? PV_ROLE_ERROR : PV_ROLE_PROMPT);
}

static size_t pv_utf8_next(const char *s, size_t len, size_t pos);

/* A multi-line message (a filter error with its caret, a bad config) stands
 * above the status bar until the next key; long lines are wrapped. */
static void pv_app_draw_message_box(pv_app *a, int bottom)
{
    if (a->prompt || !strchr(a->message, '\n'))
        return;
    struct {
        const char *p;
        size_t len;
    } lines[64];
    int count = 0;
    size_t width = (size_t)a->width;
    for (const char *p = a->message; *p && count < 64;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t start = 0;
        do {
            size_t end = start, cols = 0;
            while (end < len && cols < width) {
                end = pv_utf8_next(p, len, end);
                cols++;
            }
            if (count < 64) {
                lines[count].p = p + start;
                lines[count].len = end - start;
                count++;
            }
            start = end;
        } while (start < len);
        p = e ? e + 1 : p + len;
    }
    pv_role role = a->message_error ? PV_ROLE_ERROR : PV_ROLE_NORMAL;
    int y = bottom - count + 1;
    for (int i = 0; i < count; i++, y++) {
        if (y < 0)
            continue;
        pv_grid_fill(&a->grid, y, 0, a->width, 1, role);
        pv_grid_text(&a->grid, y, 0, a->width, lines[i].p, lines[i].len, role);
    }
}

static const char *const pv_commands[] = {"filter", "sort", "goto", "columns", "theme",
                                          "set",    "open", "help", "quit"};
static const char *const pv_command_help[] = {
    "filter EXPR      filter the report (empty clears)",
    "sort COL[:desc],...  sort the report (empty: view order)",
    "goto N|TIME      row N (1-based), or the first row at or after TIME",
    "columns C1,C2,...  show these columns",
    "theme NAME       default, light, monochrome, high-contrast, or your own",
    "set unit=auto|ns|us|ms|s   set ascii=on|off",
    "open FILE        load another file",
    "help             this help",
    "quit             quit",
};

static void pv_app_draw_help(pv_app *a, pv_rect rc)
{
    pv_app_title(a, rc.y, rc.x, rc.w, "Help: keys (q, Esc or ? closes)", true);
    size_t total = PV_ACT_COUNT + 2 + PV_ARRAY_LEN(pv_commands);
    int rows = rc.h - 1;
    a->page_rows[PV_PANE_REPORT] = rows > 1 ? rows : 1;
    if (rows > 0 && a->ov_top + (size_t)rows > total)
        a->ov_top = total > (size_t)rows ? total - (size_t)rows : 0;
    for (int i = 0; i < rows; i++) {
        size_t k = a->ov_top + (size_t)i;
        int y = rc.y + 1 + i;
        if (k < PV_ACT_COUNT) {
            char keys[64];
            pv_keymap_describe(&a->cfg.keys, (pv_action)k, keys, sizeof keys);
            pv_grid_str(&a->grid, y, rc.x + 1, 18, keys, PV_ROLE_HELP_KEY);
            pv_grid_str(&a->grid, y, rc.x + 20, 14, pv_action_name((pv_action)k), PV_ROLE_NORMAL);
            pv_grid_str(&a->grid, y, rc.x + 35, rc.w - 35, pv_action_help((pv_action)k),
                        PV_ROLE_NORMAL);
        } else if (k == PV_ACT_COUNT + 1) {
            pv_grid_str(&a->grid, y, rc.x + 1, rc.w - 1, "Commands (:)", PV_ROLE_TITLE);
        } else if (k > PV_ACT_COUNT + 1 && k < total) {
            pv_grid_str(&a->grid, y, rc.x + 1, 1, ":", PV_ROLE_HELP_KEY);
            pv_grid_str(&a->grid, y, rc.x + 2, rc.w - 2, pv_command_help[k - PV_ACT_COUNT - 2],
                        PV_ROLE_NORMAL);
        }
    }
}

static void pv_app_draw_chooser(pv_app *a, pv_rect rc)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    size_t n = r->view->column_count;
    int w = 44 < rc.w ? 44 : rc.w;
    int h = (int)n + 1 < rc.h ? (int)n + 1 : rc.h;
    pv_rect box = {rc.y, rc.x + (rc.w - w) / 2, w, h};
    pv_grid_fill(&a->grid, box.y, box.x, box.w, box.h, PV_ROLE_NORMAL);
    pv_app_title(a, box.y, box.x, box.w,
                 a->overlay == PV_OVERLAY_COLUMNS ? "Columns (Space toggles, Enter closes)"
                                                  : "Sort by (Enter sorts, Esc)",
                 true);
    int rows = box.h - 1;
    if (a->ov_cursor < a->ov_top)
        a->ov_top = a->ov_cursor;
    if (rows > 0 && a->ov_cursor >= a->ov_top + (size_t)rows)
        a->ov_top = a->ov_cursor - (size_t)rows + 1;
    for (int i = 0; i < rows; i++) {
        size_t c = a->ov_top + (size_t)i;
        if (c >= n)
            break;
        char line[200];
        if (a->overlay == PV_OVERLAY_COLUMNS)
            snprintf(line, sizeof line, "[%c] %-20s %s", r->hidden[c] ? ' ' : 'x',
                     r->view->columns[c].id, r->view->columns[c].title);
        else
            snprintf(line, sizeof line, "%c %-20s %s",
                     r->sort_count && r->sort[0].column == c ? '*' : ' ', r->view->columns[c].id,
                     r->view->columns[c].title);
        pv_grid_str(&a->grid, box.y + 1 + i, box.x + 1, box.w - 2, line, PV_ROLE_NORMAL);
        if (c == a->ov_cursor)
            pv_grid_paint(&a->grid, box.y + 1 + i, box.x, box.w, PV_ROLE_SELECTED);
    }
}

const pv_grid *pv_app_draw(pv_app *a)
{
    pv_app_sync_details(a);
    pv_grid_fill(&a->grid, 0, 0, a->width, a->height, PV_ROLE_NORMAL);
    int W = a->width, H = a->height;
    if (W < 20 || H < 5) {
        /* Too small for panes: say so rather than draw garbage. */
        pv_grid_str(&a->grid, 0, 0, W, "too small", PV_ROLE_ERROR);
        a->cursor_on = false;
        return &a->grid;
    }
    int main_h = H - 2;
    memset(a->rect, 0, sizeof a->rect);
    if (a->overlay == PV_OVERLAY_HELP) {
        pv_app_draw_help(a, (pv_rect){0, 0, W, main_h});
    } else {
        /* Below 60 columns or 12 lines only the focused pane is shown. */
        bool single = a->zoom || W < 60 || main_h < 12;
        if (single) {
            a->rect[a->focus] = (pv_rect){0, 0, W, main_h};
        } else {
            int ew = W / 4 + a->ex_width_adj;
            if (ew < 14)
                ew = 14;
            if (ew > W / 2)
                ew = W / 2;
            int dh = main_h / 3 + a->det_height_adj;
            if (dh < 4)
                dh = 4;
            if (dh > main_h - 5)
                dh = main_h - 5;
            a->rect[PV_PANE_EXPLORER] = (pv_rect){0, 0, ew, main_h};
            a->rect[PV_PANE_REPORT] = (pv_rect){0, ew + 1, W - ew - 1, main_h - dh};
            a->rect[PV_PANE_DETAILS] = (pv_rect){main_h - dh, ew + 1, W - ew - 1, dh};
            for (int y = 0; y < main_h; y++)
                pv_grid_char(&a->grid, y, ew, pv_app_glyph(a, 0x2502, '|'), PV_ROLE_BORDER);
        }
        if (a->rect[PV_PANE_EXPLORER].w)
            pv_app_draw_explorer(a, a->rect[PV_PANE_EXPLORER]);
        if (a->rect[PV_PANE_REPORT].w)
            pv_app_draw_report_pane(a, a->rect[PV_PANE_REPORT]);
        if (a->rect[PV_PANE_DETAILS].w)
            pv_app_draw_details(a, a->rect[PV_PANE_DETAILS]);
        if (a->overlay == PV_OVERLAY_COLUMNS || a->overlay == PV_OVERLAY_SORT) {
            pv_rect host = a->rect[a->focus].w ? a->rect[a->focus] : (pv_rect){0, 0, W, main_h};
            pv_app_draw_chooser(a, host);
        }
    }
    pv_app_draw_message_box(a, main_h - 1);
    pv_app_draw_status(a, H - 2);
    pv_app_draw_prompt(a, H - 1);
    return &a->grid;
}

/* ---- the prompt: readline-style editing, history, completion */

static void pv_app_prompt_open(pv_app *a, int kind, const char *initial)
{
    a->prompt = kind;
    pv_buf_clear(&a->line);
    pv_buf_puts(&a->line, initial ? initial : "");
    a->line_pos = a->line.len;
    a->prompt_history_pos = a->prompt_history_count[kind];
    a->message[0] = '\0';
}

static void pv_app_prompt_remember(pv_app *a)
{
    int k = a->prompt;
    const char *text = pv_buf_cstr(&a->line);
    if (!text[0])
        return;
    size_t n = a->prompt_history_count[k];
    if (n && strcmp(a->prompt_history[k][n - 1], text) == 0)
        return;
    if (n == PV_PROMPT_HISTORY) {
        free(a->prompt_history[k][0]);
        memmove(a->prompt_history[k], a->prompt_history[k] + 1,
                (PV_PROMPT_HISTORY - 1) * sizeof(char *));
        n--;
    }
    a->prompt_history[k][n++] = pv_xstrdup(text);
    a->prompt_history_count[k] = n;
}

static void pv_app_line_set(pv_app *a, const char *text)
{
    pv_buf_clear(&a->line);
    pv_buf_puts(&a->line, text);
    a->line_pos = a->line.len;
}

static void pv_app_line_delete(pv_app *a, size_t from, size_t to)
{
    if (to <= from || to > a->line.len)
        return;
    memmove(a->line.data + from, a->line.data + to, a->line.len - to + 1);
    a->line.len -= to - from;
    a->line_pos = from;
}

static void pv_app_line_insert(pv_app *a, const char *s, size_t len)
{
    pv_buf tail;
    pv_buf_init(&tail);
    pv_buf_append(&tail, a->line.data ? a->line.data + a->line_pos : "", a->line.len - a->line_pos);
    a->line.len = a->line_pos;
    pv_buf_append(&a->line, s, len);
    a->line_pos = a->line.len;
    pv_buf_append(&a->line, tail.data ? tail.data : "", tail.len);
    pv_buf_free(&tail);
}

/* Moves over one UTF-8 character. */
static size_t pv_utf8_prev(const char *s, size_t pos)
{
    if (pos == 0)
        return 0;
    pos--;
    while (pos > 0 && ((unsigned char)s[pos] & 0xc0) == 0x80)
        pos--;
    return pos;
}

static size_t pv_utf8_next(const char *s, size_t len, size_t pos)
{
    if (pos >= len)
        return len;
    pos++;
    while (pos < len && ((unsigned char)s[pos] & 0xc0) == 0x80)
        pos++;
    return pos;
}

static const char *const pv_theme_names[] = {"default", "light", "monochrome", "high-contrast"};

/* Completes the word before the cursor: command names, then column ids (for
 * filter, sort, columns) or theme names. */
static void pv_app_complete(pv_app *a)
{
    const char *line = pv_buf_cstr(&a->line);
    size_t start = a->line_pos;
    while (start > 0 && !strchr(" ,:!()<>=~&|", line[start - 1]))
        start--;
    char word[128];
    size_t wl = a->line_pos - start < sizeof word - 1 ? a->line_pos - start : sizeof word - 1;
    memcpy(word, line + start, wl);
    word[wl] = '\0';
    const char *cands[256];
    size_t nc = 0;
    bool first_word = a->prompt == PV_PROMPT_COMMAND && strspn(line, " ") == start;
    if (first_word) {
        for (size_t i = 0; i < PV_ARRAY_LEN(pv_commands); i++)
            cands[nc++] = pv_commands[i];
    } else if (a->prompt == PV_PROMPT_COMMAND && strncmp(line, "theme ", 6) == 0) {
        for (size_t i = 0; i < PV_ARRAY_LEN(pv_theme_names); i++)
            cands[nc++] = pv_theme_names[i];
    } else {
        pv_report *r = pv_app_focused_report(a);
        for (size_t c = 0; r && c < r->view->column_count && nc < PV_ARRAY_LEN(cands); c++)
            cands[nc++] = r->view->columns[c].id;
    }
    const char *match = NULL;
    size_t common = 0, hits = 0;
    for (size_t i = 0; i < nc; i++) {
        if (strncasecmp(cands[i], word, wl) != 0)
            continue;
        if (!match) {
            match = cands[i];
            common = strlen(match);
        } else {
            size_t k = 0;
            while (k < common && cands[i][k] &&
                   tolower((unsigned char)cands[i][k]) == tolower((unsigned char)match[k]))
                k++;
            common = k;
        }
        hits++;
    }
    if (!match)
        return;
    pv_app_line_delete(a, start, a->line_pos);
    pv_app_line_insert(a, match, common);
    if (hits == 1 && first_word)
        pv_app_line_insert(a, " ", 1);
    if (hits > 1) {
        char list[512];
        size_t used = 0;
        for (size_t i = 0; i < nc && used < sizeof list - 40; i++)
            if (strncasecmp(cands[i], word, wl) == 0)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s ", cands[i]);
        pv_app_message(a, false, list);
    }
}

static void pv_app_run_command(pv_app *a, const char *cmd);
static void pv_app_apply_filter(pv_app *a, const char *expr);

static void pv_app_search_update(pv_app *a)
{
    pv_report *r = pv_app_focused_report(a);
    snprintf(a->search, sizeof a->search, "%s", pv_buf_cstr(&a->line));
    if (!r)
        return;
    if (!a->search[0]) {
        pv_report_move_to(r, a->search_origin);
        return;
    }
    size_t k = pv_report_search(r, a->search, a->search_origin, +1);
    if (k != PV_NO_ROW)
        pv_report_move_to(r, k);
}

static void pv_app_prompt_key(pv_app *a, int key)
{
    int kind = a->prompt;
    const char *line = pv_buf_cstr(&a->line);
    switch (key) {
    case PV_KEY_ENTER: {
        pv_app_prompt_remember(a);
        char *text = pv_xstrdup(pv_buf_cstr(&a->line));
        a->prompt = PV_PROMPT_NONE;
        if (kind == PV_PROMPT_SEARCH) {
            snprintf(a->search, sizeof a->search, "%s", text);
            if (text[0] && pv_app_focused_report(a) &&
                pv_report_search(pv_app_focused_report(a), text, a->search_origin, +1) ==
                    PV_NO_ROW) {
                char msg[200];
                snprintf(msg, sizeof msg, "not found: %s", text);
                pv_app_message(a, true, msg);
            }
        } else if (kind == PV_PROMPT_FILTER) {
            pv_app_apply_filter(a, text);
        } else if (kind == PV_PROMPT_COMMAND) {
            pv_app_run_command(a, text);
        }
        free(text);
        return;
    }
    case PV_KEY_ESC:
    case PV_KEY_CTRL('c'):
    case PV_KEY_CTRL('g'):
        if (kind == PV_PROMPT_SEARCH) {
            pv_report *r = pv_app_focused_report(a);
            if (r)
                pv_report_move_to(r, a->search_origin);
            a->search[0] = '\0';
        }
        a->prompt = PV_PROMPT_NONE;
        return;
    case PV_KEY_BACKSPACE:
    case PV_KEY_CTRL('h'):
        if (a->line_pos == 0 && a->line.len == 0) {
            a->prompt = PV_PROMPT_NONE;
            return;
        }
        pv_app_line_delete(a, pv_utf8_prev(line, a->line_pos), a->line_pos);
        break;
    case PV_KEY_DELETE:
    case PV_KEY_CTRL('d'):
        pv_app_line_delete(a, a->line_pos, pv_utf8_next(line, a->line.len, a->line_pos));
        break;
    case PV_KEY_LEFT:
    case PV_KEY_CTRL('b'):
        a->line_pos = pv_utf8_prev(line, a->line_pos);
        return;
    case PV_KEY_RIGHT:
    case PV_KEY_CTRL('f'):
        a->line_pos = pv_utf8_next(line, a->line.len, a->line_pos);
        return;
    case PV_KEY_HOME:
    case PV_KEY_CTRL('a'):
        a->line_pos = 0;
        return;
    case PV_KEY_END:
    case PV_KEY_CTRL('e'):
        a->line_pos = a->line.len;
        return;
    case PV_KEY_CTRL('k'):
        pv_app_line_delete(a, a->line_pos, a->line.len);
        break;
    case PV_KEY_CTRL('u'):
        pv_app_line_delete(a, 0, a->line_pos);
        break;
    case PV_KEY_CTRL('w'): {
        size_t p = a->line_pos;
        while (p > 0 && line[p - 1] == ' ')
            p--;
        while (p > 0 && line[p - 1] != ' ')
            p--;
        pv_app_line_delete(a, p, a->line_pos);
        break;
    }
    case PV_KEY_UP:
    case PV_KEY_CTRL('p'):
        if (a->prompt_history_pos > 0)
            pv_app_line_set(a, a->prompt_history[kind][--a->prompt_history_pos]);
        return;
    case PV_KEY_DOWN:
    case PV_KEY_CTRL('n'):
        if (a->prompt_history_pos + 1 < a->prompt_history_count[kind])
            pv_app_line_set(a, a->prompt_history[kind][++a->prompt_history_pos]);
        else {
            a->prompt_history_pos = a->prompt_history_count[kind];
            pv_app_line_set(a, "");
        }
        return;
    case PV_KEY_TAB:
        if (kind != PV_PROMPT_SEARCH)
            pv_app_complete(a);
        return;
    default:
        if (key >= 0x20 && key < 0x110000 && key != 0x7f) {
            char u[4];
            size_t n;
            uint32_t c = (uint32_t)key;
            if (c < 0x80) {
                u[0] = (char)c, n = 1;
            } else if (c < 0x800) {
                u[0] = (char)(0xc0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3f)), n = 2;
            } else if (c < 0x10000) {
                u[0] = (char)(0xe0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
                u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
            } else {
                u[0] = (char)(0xf0 | (c >> 18)), u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
                u[2] = (char)(0x80 | ((c >> 6) & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
            }
            pv_app_line_insert(a, u, n);
        } else {
            return;
        }
    }
    if (kind == PV_PROMPT_SEARCH)
        pv_app_search_update(a);
}

/* ---- filter, sort, commands */

static void pv_app_filter_now(pv_app *a, pv_report *r, const char *expr)
{
    size_t rows = pv_view_rows(r->view);
    pv_query_error err;
    if (!pv_report_set_filter(r, expr, &err)) {
        pv_buf msg;
        pv_buf_init(&msg);
        if (err.message[0] && expr[0])
            pv_query_error_render(&err, expr, &msg);
        else
            pv_buf_puts(&msg, err.message);
        pv_app_message(a, true, pv_buf_cstr(&msg));
        pv_buf_free(&msg);
        return;
    }
    char text[300];
    if (expr[0])
        snprintf(text, sizeof text, "%zu of %zu rows match", r->matched, rows);
    else
        snprintf(text, sizeof text, "filter cleared");
    pv_app_message(a, false, text);
}

static void pv_app_apply_filter(pv_app *a, const char *expr)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r) {
        pv_app_message(a, true, "no report to filter");
        return;
    }
    size_t rows = pv_view_rows(r->view);
    if (rows > PV_BIG_VIEW) {
        char text[128];
        snprintf(text, sizeof text, "Filtering %zu rows...", rows);
        pv_app_message(a, false, text);
        a->work = PV_WORK_FILTER;
        a->work_report = r;
        snprintf(a->work_filter, sizeof a->work_filter, "%s", expr);
        return;
    }
    pv_app_filter_now(a, r, expr);
}

static void pv_app_sort_by(pv_app *a, pv_report *r, size_t col, bool toggle_same)
{
    pv_sort_key key = {col, (r->view->columns[col].flags & PV_COL_DESC) != 0};
    if (toggle_same && r->sort_count && r->sort[0].column == col)
        key.descending = !r->sort[0].descending;
    size_t rows = pv_view_rows(r->view);
    if (rows > PV_BIG_VIEW) {
        char text[128];
        snprintf(text, sizeof text, "Sorting %zu rows by %s...", rows, r->view->columns[col].id);
        pv_app_message(a, false, text);
        a->work = PV_WORK_SORT;
        a->work_report = r;
        a->work_keys[0] = key;
        a->work_key_count = 1;
        return;
    }
    pv_report_set_sort(r, &key, 1);
    a->message[0] = '\0';
}

bool pv_app_has_work(const pv_app *a)
{
    return a->work != PV_WORK_NONE;
}

void pv_app_work(pv_app *a)
{
    int work = a->work;
    a->work = PV_WORK_NONE;
    if (work == PV_WORK_FILTER) {
        pv_app_filter_now(a, a->work_report, a->work_filter);
    } else if (work == PV_WORK_SORT) {
        pv_report_set_sort(a->work_report, a->work_keys, a->work_key_count);
        a->message[0] = '\0';
    }
}

static void pv_app_goto(pv_app *a, const char *arg)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    int64_t n;
    if (pv_parse_int64(arg, strlen(arg), &n)) {
        if (n < 1) {
            pv_app_message(a, true, ":goto takes a row number from 1, or a time with a unit");
            return;
        }
        pv_report_move_to(r, (size_t)(n - 1));
        return;
    }
    int64_t t;
    size_t col = pv_view_column(r->view, "time");
    if (!pv_parse_time(arg, &t) || col == PV_NO_ROW) {
        pv_app_message(a, true,
                       col == PV_NO_ROW ? "this view has no time column: :goto takes a row number"
                                        : ":goto takes a row number or a time (12ms, 4.5us)");
        return;
    }
    size_t count = pv_report_count(r);
    for (size_t i = 0; i < count; i++) {
        pv_cell c;
        pv_view_cell(r->view, pv_report_row(r, i), col, &c);
        if (c.present && c.v.i >= t) {
            pv_report_move_to(r, i);
            return;
        }
    }
    pv_app_message(a, true, "no row at or after that time");
}

static void pv_app_set_theme(pv_app *a, const char *name)
{
    pv_buf err;
    pv_buf_init(&err);
    pv_theme t;
    if (pv_theme_load(&t, name, &err)) {
        a->theme = t;
        a->theme_changed = true;
        char text[128];
        snprintf(text, sizeof text, "theme %s", t.name[0] ? t.name : name);
        pv_app_message(a, false, text);
    } else {
        pv_app_message(a, true, pv_buf_cstr(&err));
    }
    pv_buf_free(&err);
}

static void pv_app_run_command(pv_app *a, const char *cmd)
{
    while (*cmd == ' ')
        cmd++;
    char word[32];
    size_t wl = strcspn(cmd, " ");
    if (wl >= sizeof word)
        wl = sizeof word - 1;
    memcpy(word, cmd, wl);
    word[wl] = '\0';
    const char *arg = cmd + strcspn(cmd, " ");
    while (*arg == ' ')
        arg++;
    pv_report *r = pv_app_focused_report(a);
    if (!word[0])
        return;
    if (strcmp(word, "q") == 0 || strcmp(word, "quit") == 0) {
        a->quit = true;
    } else if (strcmp(word, "help") == 0) {
        a->overlay = PV_OVERLAY_HELP;
        a->ov_top = 0;
    } else if (strcmp(word, "filter") == 0) {
        pv_app_apply_filter(a, arg);
    } else if (strcmp(word, "sort") == 0) {
        pv_query_error err;
        memset(&err, 0, sizeof err);
        if (r && arg[0] && pv_view_rows(r->view) > PV_BIG_VIEW) {
            if (pv_sort_parse(r->view, arg, a->work_keys, &a->work_key_count, &err)) {
                char text[200];
                snprintf(text, sizeof text, "Sorting %zu rows by %s...", pv_view_rows(r->view),
                         arg);
                pv_app_message(a, false, text);
                a->work = PV_WORK_SORT;
                a->work_report = r;
            } else {
                pv_app_message(a, true, err.message);
            }
        } else if (r && !pv_report_apply_sort_text(r, arg, &err)) {
            pv_app_message(a, true, err.message);
        }
    } else if (strcmp(word, "goto") == 0) {
        pv_app_goto(a, arg);
    } else if (strcmp(word, "columns") == 0) {
        char bad[64];
        if (r && !pv_report_set_columns(r, arg, bad, sizeof bad)) {
            char text[200];
            snprintf(text, sizeof text, "no column '%s' in view '%s'", bad, r->view->id);
            pv_app_message(a, true, text);
        }
    } else if (strcmp(word, "theme") == 0) {
        pv_app_set_theme(a, arg);
    } else if (strcmp(word, "set") == 0) {
        if (strncmp(arg, "unit=", 5) == 0 && pv_time_unit_parse(arg + 5, &a->unit)) {
            for (size_t i = 0; i < a->item_count; i++)
                if (a->items[i].opened)
                    memset(a->items[i].report.widths, 0,
                           a->items[i].report.view->column_count * sizeof(int));
        } else if (strcmp(arg, "ascii=on") == 0 || strcmp(arg, "ascii=off") == 0) {
            a->ascii = strcmp(arg, "ascii=on") == 0 || !a->utf8;
        } else {
            pv_app_message(a, true, ":set unit=auto|ns|us|ms|s or :set ascii=on|off");
        }
    } else if (strcmp(word, "open") == 0) {
        if (!arg[0])
            pv_app_message(a, true, ":open FILE");
        else
            pv_app_enqueue(a, arg);
    } else {
        char text[160];
        snprintf(text, sizeof text, "unknown command '%s' (try :help)", word);
        pv_app_message(a, true, text);
    }
}

/* ---- keys */

static void pv_app_explorer_move(pv_app *a, long delta)
{
    if (!a->item_count)
        return;
    size_t c = a->ex_cursor;
    if (delta < 0)
        c = (size_t)-delta > c ? 0 : c - (size_t)-delta;
    else
        c = c + (size_t)delta >= a->item_count ? a->item_count - 1 : c + (size_t)delta;
    a->ex_cursor = c;
    pv_app_show_item(a, c);
}

static void pv_app_move(pv_app *a, long delta, bool absolute)
{
    if (a->focus == PV_PANE_EXPLORER) {
        if (absolute)
            a->ex_cursor = 0;
        pv_app_explorer_move(a, delta);
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    if (absolute)
        r->cursor = 0;
    pv_report_move(r, delta);
}

static void pv_app_open(pv_app *a)
{
    if (a->focus == PV_PANE_EXPLORER) {
        pv_app_show_item(a, a->ex_cursor);
        if (pv_app_report(a))
            a->focus = PV_PANE_REPORT;
        return;
    }
    if (a->focus == PV_PANE_DETAILS) {
        pv_report *owner = pv_app_report(a);
        if (a->det_open && owner)
            pv_app_drill(a, a->det_tab, pv_report_selected(owner), pv_report_selected(&a->det));
        return;
    }
    pv_report *r = pv_app_report(a);
    if (!r)
        return;
    size_t row = pv_report_selected(r);
    if (row == PV_NO_ROW)
        return;
    if (pv_report_has_kids(r, row)) {
        pv_report_tree(r, PV_TREE_TOGGLE);
        return;
    }
    if (r->view->detail_count) {
        if (a->det_open)
            pv_app_drill(a, a->det_tab, row, PV_NO_ROW);
        else
            pv_app_message(a, false, "nothing to open for this row");
    }
}

static void pv_app_history_step(pv_app *a, bool back)
{
    if (!a->history_started)
        return;
    pv_location here, to;
    pv_app_here(a, &here);
    bool ok = back ? pv_history_back(&a->history, &here, &to)
                   : pv_history_forward(&a->history, &here, &to);
    if (!ok) {
        pv_app_message(a, false,
                       back ? "at the start of the history" : "at the end of the history");
        return;
    }
    pv_app_apply(a, &to);
}

static void pv_app_overlay_key(pv_app *a, int key)
{
    pv_action act = pv_keymap_lookup(&a->cfg.keys, key);
    if (a->overlay == PV_OVERLAY_HELP) {
        if (act == PV_ACT_DOWN)
            a->ov_top++;
        else if (act == PV_ACT_UP && a->ov_top)
            a->ov_top--;
        else if (act == PV_ACT_PAGE_DOWN)
            a->ov_top += (size_t)a->page_rows[PV_PANE_REPORT];
        else if (act == PV_ACT_PAGE_UP)
            a->ov_top = a->ov_top > (size_t)a->page_rows[PV_PANE_REPORT]
                            ? a->ov_top - (size_t)a->page_rows[PV_PANE_REPORT]
                            : 0;
        else if (act == PV_ACT_FIRST)
            a->ov_top = 0;
        else if (act == PV_ACT_QUIT || act == PV_ACT_HELP || key == PV_KEY_ESC ||
                 key == PV_KEY_ENTER)
            a->overlay = PV_OVERLAY_NONE;
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r) {
        a->overlay = PV_OVERLAY_NONE;
        return;
    }
    size_t n = r->view->column_count;
    if (act == PV_ACT_DOWN && a->ov_cursor + 1 < n) {
        a->ov_cursor++;
    } else if (act == PV_ACT_UP && a->ov_cursor > 0) {
        a->ov_cursor--;
    } else if (act == PV_ACT_FIRST) {
        a->ov_cursor = 0;
    } else if (act == PV_ACT_LAST) {
        a->ov_cursor = n ? n - 1 : 0;
    } else if (a->overlay == PV_OVERLAY_COLUMNS && (key == ' ' || act == PV_ACT_TOGGLE)) {
        size_t shown[PV_MAX_SHOWN];
        bool last = !r->hidden[a->ov_cursor] && pv_report_shown(r, shown, PV_MAX_SHOWN) == 1;
        if (!last)
            r->hidden[a->ov_cursor] = !r->hidden[a->ov_cursor];
    } else if (a->overlay == PV_OVERLAY_SORT && key == PV_KEY_ENTER) {
        a->overlay = PV_OVERLAY_NONE;
        pv_app_sort_by(a, r, a->ov_cursor, true);
    } else if (key == PV_KEY_ENTER || key == PV_KEY_ESC || act == PV_ACT_QUIT ||
               (a->overlay == PV_OVERLAY_COLUMNS && act == PV_ACT_COLUMNS)) {
        a->overlay = PV_OVERLAY_NONE;
    }
}

void pv_app_key(pv_app *a, int key)
{
    if (key == PV_KEY_RESIZE || key == 0)
        return;
    if (a->prompt) {
        pv_app_prompt_key(a, key);
        return;
    }
    if (strchr(a->message, '\n'))
        a->message[0] = '\0'; /* a caret message goes with the next key */
    if (a->overlay) {
        pv_app_overlay_key(a, key);
        return;
    }
    if (key == PV_KEY_CTRL('c')) {
        if (!pv_app_cancel(a))
            a->quit = true;
        return;
    }
    if (key == PV_KEY_ESC) {
        a->message[0] = '\0';
        a->search[0] = '\0';
        return;
    }
    pv_action act = pv_keymap_lookup(&a->cfg.keys, key);
    pv_report *r = pv_app_focused_report(a);
    long page = a->page_rows[a->focus] > 1 ? a->page_rows[a->focus] - 1 : 1;
    switch (act) {
    case PV_ACT_NONE:
        break;
    case PV_ACT_QUIT:
        if (a->loc.depth > 0) {
            pv_location to;
            pv_app_here(a, &to);
            to.depth--;
            to.row = to.chain[to.depth].row;
            to.filter[0] = to.sort[0] = '\0';
            pv_report *parent = to.depth ? &a->drill[to.depth - 1] : &a->items[to.item].report;
            snprintf(to.filter, sizeof to.filter, "%s", parent->filter);
            pv_report_sort_text(parent, to.sort, sizeof to.sort);
            pv_app_go(a, &to, true);
        } else {
            a->quit = true;
        }
        break;
    case PV_ACT_NEXT_PANE:
    case PV_ACT_PREV_PANE:
        a->focus = (a->focus + (act == PV_ACT_NEXT_PANE ? 1 : PV_PANE_COUNT - 1)) % PV_PANE_COUNT;
        break;
    case PV_ACT_UP:
        pv_app_move(a, -1, false);
        break;
    case PV_ACT_DOWN:
        pv_app_move(a, 1, false);
        break;
    case PV_ACT_PAGE_UP:
        pv_app_move(a, -page, false);
        break;
    case PV_ACT_PAGE_DOWN:
        pv_app_move(a, page, false);
        break;
    case PV_ACT_FIRST:
        pv_app_move(a, 0, true);
        break;
    case PV_ACT_LAST:
        pv_app_move(a, (long)(SIZE_MAX / 4), false);
        break;
    case PV_ACT_LEFT:
        if (a->focus == PV_PANE_DETAILS) {
            if (a->det_tab > 0)
                a->det_tab--;
        } else if (a->focus == PV_PANE_REPORT && r && r->hscroll > 0) {
            r->hscroll--;
        }
        break;
    case PV_ACT_RIGHT:
        if (a->focus == PV_PANE_EXPLORER) {
            pv_app_open(a);
        } else if (a->focus == PV_PANE_DETAILS) {
            pv_report *owner = pv_app_report(a);
            if (owner && a->det_tab + 1 < owner->view->detail_count)
                a->det_tab++;
        } else if (r) {
            size_t shown[PV_MAX_SHOWN];
            if (r->hscroll + 1 < pv_report_shown(r, shown, PV_MAX_SHOWN))
                r->hscroll++;
        }
        break;
    case PV_ACT_OPEN:
        pv_app_open(a);
        break;
    case PV_ACT_TOGGLE:
        if (r)
            pv_report_tree(r, PV_TREE_TOGGLE);
        break;
    case PV_ACT_EXPAND:
        if (r)
            pv_report_tree(r, PV_TREE_EXPAND);
        break;
    case PV_ACT_COLLAPSE:
        if (r)
            pv_report_tree(r, PV_TREE_COLLAPSE);
        break;
    case PV_ACT_EXPAND_ALL:
        if (r)
            pv_report_tree(r, PV_TREE_EXPAND_ALL);
        break;
    case PV_ACT_BACK:
        pv_app_history_step(a, true);
        break;
    case PV_ACT_FORWARD:
        pv_app_history_step(a, false);
        break;
    case PV_ACT_SEARCH:
        if (a->focus == PV_PANE_EXPLORER)
            a->focus = PV_PANE_REPORT;
        r = pv_app_focused_report(a);
        a->search_origin = r ? r->cursor : 0;
        pv_app_prompt_open(a, PV_PROMPT_SEARCH, "");
        break;
    case PV_ACT_SEARCH_NEXT:
    case PV_ACT_SEARCH_PREV:
        if (r && a->search[0]) {
            int dir = act == PV_ACT_SEARCH_NEXT ? 1 : -1;
            size_t n = pv_report_count(r);
            size_t from = dir > 0 ? (r->cursor + 1 < n ? r->cursor + 1 : 0)
                                  : (r->cursor > 0 ? r->cursor - 1 : (n ? n - 1 : 0));
            size_t k = pv_report_search(r, a->search, from, dir);
            if (k == PV_NO_ROW)
                pv_app_message(a, true, "no match");
            else
                pv_report_move_to(r, k);
        }
        break;
    case PV_ACT_FILTER:
        if (a->focus == PV_PANE_EXPLORER)
            a->focus = PV_PANE_REPORT;
        r = pv_app_focused_report(a);
        pv_app_prompt_open(a, PV_PROMPT_FILTER, r ? r->filter : "");
        break;
    case PV_ACT_SORT_NEXT:
        if (r) {
            size_t shown[PV_MAX_SHOWN];
            size_t n = pv_report_shown(r, shown, PV_MAX_SHOWN);
            size_t next = 0;
            if (r->sort_count)
                for (size_t i = 0; i < n; i++)
                    if (shown[i] == r->sort[0].column)
                        next = (i + 1) % n;
            if (n)
                pv_app_sort_by(a, r, shown[next], false);
        }
        break;
    case PV_ACT_SORT_CHOOSE:
    case PV_ACT_COLUMNS:
        if (a->focus == PV_PANE_EXPLORER)
            a->focus = PV_PANE_REPORT;
        if (pv_app_focused_report(a)) {
            a->overlay = act == PV_ACT_COLUMNS ? PV_OVERLAY_COLUMNS : PV_OVERLAY_SORT;
            a->ov_cursor = a->ov_top = 0;
        }
        break;
    case PV_ACT_SORT_REVERSE:
        if (r && r->sort_count)
            pv_app_sort_by(a, r, r->sort[0].column, true);
        else if (r)
            pv_app_message(a, false, "not sorted: s or S sorts");
        break;
    case PV_ACT_COMMAND:
        pv_app_prompt_open(a, PV_PROMPT_COMMAND, "");
        break;
    case PV_ACT_ZOOM:
        a->zoom = !a->zoom;
        break;
    case PV_ACT_SHRINK:
    case PV_ACT_GROW: {
        int d = act == PV_ACT_GROW ? 1 : -1;
        if (a->focus == PV_PANE_DETAILS)
            a->det_height_adj += 2 * d;
        else
            a->ex_width_adj += 4 * d;
        break;
    }
    case PV_ACT_HELP:
        a->overlay = PV_OVERLAY_HELP;
        a->ov_top = 0;
        break;
    case PV_ACT_REDRAW:
    case PV_ACT_COUNT:
        break;
    }
}

static bool pv_in(pv_rect r, int y, int x)
{
    return r.w > 0 && y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

void pv_app_mouse(pv_app *a, int y, int x, int button)
{
    if (a->prompt || a->overlay)
        return;
    for (int p = 0; p < PV_PANE_COUNT; p++) {
        pv_rect rc = a->rect[p];
        if (!pv_in(rc, y, x))
            continue;
        a->focus = p;
        pv_report *r = pv_app_focused_report(a);
        if (button == 4 || button == 5) {
            long d = button == 4 ? -3 : 3;
            if (p == PV_PANE_EXPLORER)
                pv_app_explorer_move(a, d);
            else if (r)
                pv_report_move(r, d);
            return;
        }
        if (p == PV_PANE_EXPLORER) {
            if (y > rc.y && a->ex_top + (size_t)(y - rc.y - 1) < a->item_count) {
                a->ex_cursor = a->ex_top + (size_t)(y - rc.y - 1);
                pv_app_show_item(a, a->ex_cursor);
            }
            return;
        }
        if (p == PV_PANE_DETAILS && y == a->tabs_y) {
            for (size_t t = 0; t < a->tab_count; t++)
                if (x >= a->tabs[t].x && x < a->tabs[t].x + a->tabs[t].w)
                    a->det_tab = t;
            return;
        }
        if (p == PV_PANE_REPORT && y == a->header_y && r) {
            for (size_t h = 0; h < a->header_count; h++)
                if (x >= a->header[h].x && x <= a->header[h].x + a->header[h].w)
                    pv_app_sort_by(a, r, a->header[h].col, true);
            return;
        }
        /* Rows start two lines below the pane top (title, header). */
        if (r && y >= rc.y + 2) {
            size_t k = r->top + (size_t)(y - rc.y - 2);
            if (k < pv_report_count(r))
                pv_report_move_to(r, k);
        }
        return;
    }
}
