/* reload.c - :reload, and r on a file's line in the Explorer (docs/tui.md
 * ":reload"): the file loaded again and put in place of the old one, its
 * place kept through the session's record (session.c); the message about
 * a file changed on disk offers it (docs/input.md "Files that change"). */
#include <stdio.h>
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

static void pv_app_say_changed_path(pv_app *a, const char *path, const char *name)
{
    pv_app_messagef(a, true,
                    "%s changed on disk while it was open: `:reload%s%s` (r on its line in the "
                    "Explorer) reopens it; what is shown of it is no longer read from it",
                    pv_basename(path), name ? " " : "", name ? name : "");
}

void pv_app_input_changed(pv_app *a, const char *path)
{
    /* the open file it belongs to: itself, or the file it goes with (a
     * Text1 file's run.txt.BIN) */
    size_t fi = PV_NO_ROW;
    for (size_t i = 0; i < a->file_count && fi == PV_NO_ROW; i++) {
        const char *p = a->files[i]->path;
        if (!pv_app_file_is_pseudo(a, i) &&
            (strcmp(p, path) == 0 || (strncmp(p, path, strlen(p)) == 0 && path[strlen(p)] == '.')))
            fi = i;
    }
    if (fi != PV_NO_ROW)
        pv_app_session_file(a, fi)->changed = true;
    pv_app_say_changed_path(a, path, fi != PV_NO_ROW ? pv_basename(a->files[fi]->path) : NULL);
}

bool pv_app_file_changed(const pv_app *a, size_t fi)
{
    return fi < a->sess.file_cap && a->sess.files[fi].changed;
}

void pv_app_say_changed(pv_app *a, size_t fi)
{
    const char *base = pv_basename(a->files[fi]->path);
    pv_app_say_changed_path(a, a->files[fi]->path, base);
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
    for (size_t i = 0; i < a->sql.from_count; i++) {
        pv_location *l = &a->sql.from[i];
        if (l->item >= first && l->item < first + n) {
            l->depth = 0; /* rows of the old recording */
            l->row = PV_NO_ROW;
        }
        l->item = PV_RELOAD_MAP(l->item);
    }
    keep->item = PV_RELOAD_MAP(keep->item);
#undef PV_RELOAD_MAP
    for (size_t j = 0; j < n; j++)
        free(gone_ids[j]);
    free(gone_ids);
    free(gone);
    free(map);
}

/* Item `gone` removed from the Explorer: the item numbers after it move
 * up; what showed it (the history, `keep`, where :sql results go back to)
 * goes to the SQL results' line `to` (numbered after the removal). */
static void pv_reload_remove_item(pv_app *a, size_t gone, size_t to, pv_location *keep)
{
    pv_report_close(&a->items[gone].report);
    memmove(a->items + gone, a->items + gone + 1, (a->item_count - gone - 1) * sizeof *a->items);
    a->item_count--;
#define PV_REMOVED_MAP(k) ((k) == PV_NO_ROW || (k) < gone ? (k) : (k) == gone ? to : (k) - 1)
    a->ex.cursor = PV_REMOVED_MAP(a->ex.cursor);
    for (size_t i = 0; a->history_started && i < a->history.count; i++) {
        pv_location *l = &a->history.entries[i];
        if (l->item == gone) {
            l->depth = 0;
            l->row = PV_NO_ROW;
        }
        l->item = PV_REMOVED_MAP(l->item);
    }
    for (size_t i = 0; i < a->sql.from_count; i++)
        a->sql.from[i].item = PV_REMOVED_MAP(a->sql.from[i].item);
    if (keep->item == gone) {
        keep->depth = 0;
        keep->row = PV_NO_ROW;
    }
    keep->item = PV_REMOVED_MAP(keep->item);
#undef PV_REMOVED_MAP
}

/* The :sql results whose query read file fi are closed (docs/tui.md
 * ":reload"): their rows are the old recording's, and a result's Details
 * read the old file's views.  Their views leave the SQL results, their
 * lines the Explorer (a heading left with no result under it too).
 * Returns how many. */
static size_t pv_reload_close_sql(pv_app *a, size_t fi, pv_location *keep)
{
    size_t sf = a->sql.file, closed = 0;
    if (sf == PV_NO_ROW)
        return 0;
    pv_result_set *set = a->files[sf]->sets[0];
    size_t line = 0; /* the SQL results' line */
    while (line < a->item_count &&
           !(a->items[line].file == sf && a->items[line].kind == PV_ITEM_FILE))
        line++;
    for (size_t k = set->view_count; k-- > 0;) {
        if (k >= a->sql.from_count || fi >= a->sql.read_n[k] || !a->sql.read[k][fi])
            continue;
        pv_view *v = set->views[k];
        for (int m = 0; m < 2; m++)
            if (a->mark.view[m] == v) {
                a->mark.set[m] = false;
                a->mark.view[m] = NULL;
            }
        if (a->lanes.view == v) {
            a->lanes.view = NULL;
            a->lanes.pins = 0;
        }
        if (a->lanes.zoom_view == v) {
            a->lanes.zoomed = false;
            a->lanes.zoom_view = NULL;
        }
        if (keep->item < a->item_count && a->items[keep->item].file == sf &&
            a->items[keep->item].kind == PV_ITEM_VIEW && a->items[keep->item].view == k &&
            a->sql.from[k].item < a->item_count) {
            /* it was shown: where its query was run from, as q goes */
            pv_location_free(keep);
            memset(keep, 0, sizeof *keep);
            pv_location_copy(keep, &a->sql.from[k]);
        }
        for (size_t i = 0; i < a->item_count; i++) {
            pv_item *it = &a->items[i];
            if (it->file == sf && it->kind == PV_ITEM_VIEW && it->view == k) {
                pv_reload_remove_item(a, i, line, keep);
                i--;
            } else if (it->file == sf && it->kind == PV_ITEM_VIEW && it->view > k) {
                it->view--;
            }
        }
        pv_view_free(v);
        memmove(set->views + k, set->views + k + 1, (set->view_count - k - 1) * sizeof *set->views);
        set->view_count--;
        pv_location_free(&a->sql.from[k]);
        free(a->sql.read[k]);
        size_t after = a->sql.from_count - k - 1;
        memmove(a->sql.from + k, a->sql.from + k + 1, after * sizeof *a->sql.from);
        memmove(a->sql.read + k, a->sql.read + k + 1, after * sizeof *a->sql.read);
        memmove(a->sql.read_n + k, a->sql.read_n + k + 1, after * sizeof *a->sql.read_n);
        a->sql.from_count--;
        closed++;
    }
    /* a heading of the results with no result under it any more (the
     * first stays, under the results' line) */
    for (size_t i = line + 2; closed && i < a->item_count; i++) {
        const pv_item *next = i + 1 < a->item_count ? &a->items[i + 1] : NULL;
        if (a->items[i].file == sf && a->items[i].kind == PV_ITEM_SET &&
            !(next && next->file == sf && next->kind == PV_ITEM_VIEW)) {
            pv_reload_remove_item(a, i, line, keep);
            i--;
        }
    }
    return closed;
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
    size_t closed = pv_reload_close_sql(a, fi, &keep);
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
    sf->changed = false; /* the recording as it is now */
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
    char sql[120] = "";
    if (closed)
        snprintf(sql, sizeof sql, "; %zu :sql result%s of it closed (run again to see the new rows)",
                 closed, closed == 1 ? "" : "s");
    if (w)
        pv_app_messagef(a, false, "%s reloaded, with %zu warning%s (the file's line lists them)%s",
                        pv_basename(nf->path), w, w == 1 ? "" : "s", sql);
    else
        pv_app_messagef(a, false, "%s reloaded: your place is kept%s", pv_basename(nf->path), sql);
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
