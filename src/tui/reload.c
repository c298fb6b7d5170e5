/* reload.c - :reload, and r on a file's line in the Explorer (docs/tui.md
 * ":reload"): the file loaded again and put in place of the old one, its
 * place kept through the session's record (session.c); the message about
 * a file changed on disk offers it (docs/input.md "Files that change"). */
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "profview/sql.h"
#include "tui/panel.h"

void pv_app_reload(pv_app *a, size_t fi)
{
    if (fi >= a->file_count || pv_app_file_is_pseudo(a, fi)) {
        pv_app_message(a, true, ":reload reopens an input file (its line in the Explorer, or a view of it)");
        return;
    }
    const char *path = a->files[fi]->path;
    for (size_t i = 0; i < a->sess.reload_count; i++)
        if (a->sess.reload[i].file == fi) {
            pv_app_messagef(a, false, "%s is being reloaded", pv_basename(path));
            return;
        }
    if (a->sql.count && a->sql.conn && fi < a->sql.files) {
        pv_app_messagef(a, true,
                        "%s cannot be reloaded: the SQL results read its views; open it again with `:open %s`",
                        pv_basename(path), path);
        return;
    }
    a->sess.reload = pv_xrealloc(a->sess.reload, (a->sess.reload_count + 1) * sizeof *a->sess.reload);
    pv_reload *e = &a->sess.reload[a->sess.reload_count++];
    e->path = pv_xstrdup(path);
    e->file = fi;
    e->state = pv_xcalloc(1, sizeof *e->state);
    pv_app_session_capture(a, fi, e->state);
    e->was_shown = a->loc.item < a->item_count && a->items[a->loc.item].file == fi;
    pv_app_enqueue(a, path);
    pv_app_messagef(a, false, "reloading %s...", pv_basename(path));
}

void pv_app_input_changed(pv_app *a, const char *path)
{
    /* the open file it belongs to: itself, or the file it goes with (a
     * Text1 file's run.txt.BIN) */
    const char *name = NULL;
    for (size_t i = 0; i < a->file_count && !name; i++) {
        const char *p = a->files[i]->path;
        if (!pv_app_file_is_pseudo(a, i) &&
            (strcmp(p, path) == 0 || (strncmp(p, path, strlen(p)) == 0 && path[strlen(p)] == '.')))
            name = pv_basename(p);
    }
    pv_app_messagef(a, true,
                    "%s changed on disk while it was open: `:reload%s%s` (r on its line in the "
                    "Explorer) reopens it; what is shown of it is no longer read from it",
                    pv_basename(path), name ? " " : "", name ? name : "");
}

void pv_app_reload_command(pv_app *a, const char *arg)
{
    while (*arg == ' ')
        arg++;
    size_t fi = PV_NO_ROW;
    if (!*arg) {
        fi = pv_app_session_target(a);
    } else {
        for (size_t i = 0; i < a->file_count && fi == PV_NO_ROW; i++)
            if (!pv_app_file_is_pseudo(a, i) &&
                (strcmp(a->files[i]->path, arg) == 0 || strcmp(pv_basename(a->files[i]->path), arg) == 0))
                fi = i;
        if (fi == PV_NO_ROW) {
            pv_app_messagef(a, true, ":reload: no open file is named %s", arg);
            return;
        }
    }
    pv_app_reload(a, fi);
}

/* Nothing may show or hold file fi's views any more: the job, :stats,
 * markers on its rows, its pins and zoom, the Details, drill-downs,
 * graphs, the diff, the SQL tables over it, a search or filter being
 * typed, the choosers and the export dialog. */
static void pv_reload_release(pv_app *a, size_t fi)
{
    pv_jobs_stop(a, false);
    /* what acts on the Report's rows: a search or filter being typed, the
     * choosers, the export dialog (the help stays) */
    if (a->prompt.kind == PV_PROMPT_SEARCH || a->prompt.kind == PV_PROMPT_FILTER) {
        a->prompt.kind = PV_PROMPT_NONE;
        pv_buf_clear(&a->prompt.line);
        a->prompt.pos = 0;
    }
    if (a->ov.kind != PV_OVERLAY_HELP)
        a->ov.kind = PV_OVERLAY_NONE;
    pv_app_range_hide(a);
    for (int m = 0; m < 2; m++)
        if (a->mark.set[m] && a->mark.view[m] && pv_app_view_file(a, a->mark.view[m], NULL) == fi) {
            a->mark.set[m] = false;
            a->mark.view[m] = NULL;
        }
    if (a->lanes.view && pv_app_view_file(a, a->lanes.view, NULL) == fi) {
        a->lanes.view = NULL;
        a->lanes.pins = 0;
    }
    if (a->lanes.zoom_view && pv_app_view_file(a, a->lanes.zoom_view, NULL) == fi) {
        a->lanes.zoomed = false;
        a->lanes.zoom_view = NULL;
    }
    pv_location none;
    memset(&none, 0, sizeof none);
    none.item = a->item_count;
    none.row = PV_NO_ROW;
    pv_app_apply(a, &none); /* closes the Details, drill-downs, graphs, diff */
    if (a->sql.conn && fi < a->sql.files) {
        pv_sql_free(a->sql.conn); /* its tables read the old views */
        a->sql.conn = NULL;
        a->sql.files = 0;
    }
}

/* File fi's items replaced by those of nf, in place; the item numbers
 * that moved (the Explorer's cursor, the history, where :sql results go
 * back to, `keep`) follow, a view of the file by its set and view id. */
static void pv_reload_items(pv_app *a, size_t fi, pv_file *nf, pv_location *keep)
{
    size_t first = 0;
    while (first < a->item_count && a->items[first].file != fi)
        first++;
    size_t n = 0;
    while (first + n < a->item_count && a->items[first + n].file == fi)
        n++;
    pv_item *gone = pv_xmalloc((n ? n : 1) * sizeof *gone);
    memcpy(gone, a->items + first, n * sizeof *gone);
    char **gone_ids = pv_xcalloc(n ? n : 1, sizeof *gone_ids);
    for (size_t j = 0; j < n; j++) {
        if (gone[j].kind == PV_ITEM_VIEW)
            gone_ids[j] = pv_xstrdup(pv_app_item_view_id(a, &gone[j]));
        pv_report_close(&gone[j].report);
    }
    size_t tail = a->item_count - first - n;
    pv_item *rest = pv_xmalloc((tail ? tail : 1) * sizeof *rest);
    memcpy(rest, a->items + first + n, tail * sizeof *rest);
    a->item_count = first;
    a->files[fi] = nf;
    pv_app_add_item(a, PV_ITEM_FILE, fi, 0, 0);
    for (size_t s = 0; s < nf->set_count; s++) {
        pv_app_add_item(a, PV_ITEM_SET, fi, s, 0);
        for (size_t v = 0; v < nf->sets[s]->view_count; v++)
            pv_app_add_item(a, PV_ITEM_VIEW, fi, s, v);
    }
    size_t m = a->item_count - first;
    a->items = pv_xgrow(a->items, &a->item_cap, a->item_count + tail, sizeof *a->items);
    memcpy(a->items + a->item_count, rest, tail * sizeof *rest);
    a->item_count += tail;
    free(rest);
    size_t *map = pv_xmalloc((n ? n : 1) * sizeof *map);
    for (size_t j = 0; j < n; j++) {
        map[j] = first; /* gone: the file's line */
        for (size_t k = first; k < first + m; k++) {
            const pv_item *it = &a->items[k];
            if (it->kind == gone[j].kind && it->set == gone[j].set &&
                (it->kind != PV_ITEM_VIEW || strcmp(pv_app_item_view_id(a, it), gone_ids[j]) == 0)) {
                map[j] = k;
                break;
            }
        }
    }
#define PV_RELOAD_MAP(k)                                                                           \
    ((k) == PV_NO_ROW || (k) < first ? (k) : (k) >= first + n ? (k) - n + m : map[(k) - first])
    a->ex.cursor = PV_RELOAD_MAP(a->ex.cursor);
    a->open_stopped = PV_NO_ROW;
    for (size_t i = 0; a->history_started && i < a->history.count; i++) {
        pv_location *l = &a->history.entries[i];
        bool in_file = l->item >= first && l->item < first + n;
        l->item = PV_RELOAD_MAP(l->item);
        if (in_file) {
            l->depth = 0; /* rows of the old recording */
            l->row = PV_NO_ROW;
        }
    }
    for (size_t i = 0; i < a->sql.from_count; i++)
        a->sql.from[i].item = PV_RELOAD_MAP(a->sql.from[i].item);
    keep->item = PV_RELOAD_MAP(keep->item);
#undef PV_RELOAD_MAP
    for (size_t j = 0; j < n; j++)
        free(gone_ids[j]);
    free(gone_ids);
    free(gone);
    free(map);
}

bool pv_app_session_reloaded(pv_app *a, void *file)
{
    pv_file *nf = file;
    size_t ei = PV_NO_ROW;
    for (size_t i = 0; i < a->sess.reload_count && ei == PV_NO_ROW; i++)
        if (strcmp(a->sess.reload[i].path, nf->path) == 0)
            ei = i;
    if (ei == PV_NO_ROW)
        return false;
    pv_reload e = a->sess.reload[ei];
    a->sess.reload[ei] = a->sess.reload[--a->sess.reload_count];
    size_t fi = e.file;
    pv_file *old = a->files[fi];
    pv_location keep; /* where we are, when it is another file's view */
    pv_app_here(a, &keep);
    pv_reload_release(a, fi);
    pv_reload_items(a, fi, nf, &keep);
    pv_file_free(old);
    a->index.warnings[fi] = nf->diag.warnings + nf->diag.errors;
    a->index.start = 0;
    a->index.stopped = false; /* the new recording is indexed (Ctrl-C stops it again) */
    if (a->opt.keys_path && !a->index.fixed_slice)
        pv_file_index_step(nf, SIZE_MAX); /* scripted keys: as if long ago */

    /* its place: restored as its views open, as a session is */
    pv_session_file *sf = pv_app_session_file(a, fi);
    pv_session_free(sf->pending);
    free(sf->pending);
    sf->pending = e.state;
    sf->file_done = true; /* its bookmarks and markers at times stayed */
    sf->reloaded = true;
    char *real;
    sf->known = pv_session_identity(nf->path, &real, &sf->size, &sf->mtime_s, &sf->mtime_ns);
    free(real);
    size_t item = PV_NO_ROW;
    for (size_t i = 0; i < e.state->view_count; i++)
        if (e.state->views[i].current)
            item = pv_app_session_item(a, fi, e.state->views[i].set, e.state->views[i].view);
    if (e.was_shown) {
        pv_location to;
        memset(&to, 0, sizeof to);
        to.item = item != PV_NO_ROW ? item : keep.item;
        to.row = PV_NO_ROW;
        pv_app_apply(a, &to);
    } else {
        pv_app_apply(a, &keep);
    }
    pv_location_free(&keep);
    size_t w = nf->diag.warnings + nf->diag.errors;
    if (w)
        pv_app_messagef(a, false, "%s reloaded, with %zu warning%s (the file's line lists them)",
                        pv_basename(nf->path), w, w == 1 ? "" : "s");
    else
        pv_app_messagef(a, false, "%s reloaded: your place is kept", pv_basename(nf->path));
    free(sf->say); /* said again once the place is restored */
    sf->say = pv_xstrdup(pv_buf_cstr(&a->message));
    free(e.path);
    return true;
}

void pv_app_reload_failed(pv_app *a)
{
    pv_buf text;
    pv_buf_init(&text);
    pv_buf_append(&text, a->message.data ? a->message.data : "", a->message.len);
    for (size_t i = 0; i < a->sess.reload_count; i++) {
        pv_reload *e = &a->sess.reload[i];
        pv_buf_printf(&text, "%s%s was not reloaded: what was shown of it stays", text.len ? "; " : "",
                      pv_basename(e->path));
        free(e->path);
        pv_session_free(e->state);
        free(e->state);
    }
    a->sess.reload_count = 0;
    pv_app_message(a, true, pv_buf_cstr(&text));
    pv_buf_free(&text);
}
