/* bookmarks.c - bookmarks (docs/tui.md "Bookmarks"): `b` (`:bookmark
 * NOTE`) marks the selected row of a view; the Explorer's "Bookmarks"
 * lists them (a view of the viewer's own, read live from the list), Enter
 * there goes back to one, ' and ` step through them; sessions keep them
 * (session.c), exports receive them (app_export.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/export.h"
#include "profview/hooks.h"
#include "tui/panel.h"

/* ---- the Bookmarks view: file, view, row, time, note */

enum { PV_BM_FILE, PV_BM_VIEW, PV_BM_ROW, PV_BM_TIME, PV_BM_NOTE, PV_BM_COLUMNS };

static const pv_column pv_bm_columns[PV_BM_COLUMNS] = {
    {"file", "File", PV_TYPE_STRING, 0},
    {"view", "View", PV_TYPE_STRING, PV_COL_NAME},
    {"row", "Row", PV_TYPE_INT, 0},
    {PV_COLUMN_TIME, 0},
    {"note", "Note", PV_TYPE_STRING, 0},
};

static size_t pv_bm_rows(const pv_view *v)
{
    const pv_app *a = v->impl;
    return a->sess.bm_count;
}

static void pv_bm_str(pv_cell *out, const char *s)
{
    out->type = PV_TYPE_STRING;
    out->present = true;
    out->v.s.ptr = s;
    out->v.s.len = strlen(s);
}

/* The title of a bookmark's view (its id when the file no longer has it). */
static const char *pv_bm_view_title(const pv_app *a, const pv_bookmark *b)
{
    if (b->file >= a->file_count)
        return b->view;
    const pv_file *f = a->files[b->file];
    if (b->set >= f->set_count)
        return b->view;
    const pv_result_set *s = f->sets[b->set];
    for (size_t i = 0; i < s->view_count; i++)
        if (strcmp(s->views[i]->id, b->view) == 0)
            return s->views[i]->title;
    return b->view;
}

static void pv_bm_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const pv_app *a = v->impl;
    const pv_bookmark *b = &a->sess.bm[row];
    memset(out, 0, sizeof *out);
    out->type = v->columns[col].type;
    switch (col) {
    case PV_BM_FILE:
        pv_bm_str(out, b->file < a->file_count ? pv_basename(a->files[b->file]->path) : "");
        break;
    case PV_BM_VIEW:
        pv_bm_str(out, pv_bm_view_title(a, b));
        break;
    case PV_BM_ROW:
        out->present = b->row != PV_NO_ROW;
        out->v.i = (int64_t)b->row + 1;
        break;
    case PV_BM_TIME:
        out->present = b->time >= 0;
        out->v.i = b->time;
        break;
    default:
        pv_bm_str(out, b->note ? b->note : "");
        break;
    }
}

static void pv_bm_destroy(pv_view *v)
{
    pv_view_free_names(v);
    free(v);
}

static const pv_view_ops pv_bm_ops = {
    .row_count = pv_bm_rows,
    .cell = pv_bm_cell,
    .destroy = pv_bm_destroy,
};

/* The Explorer's "Bookmarks" (a file of the viewer's own, as "SQL
 * results" is), made at the first bookmark. */
static void pv_app_bookmarks_file(pv_app *a)
{
    if (a->sess.bm_file != PV_NO_ROW)
        return;
    pv_view *v = pv_xcalloc(1, sizeof *v);
    v->ops = &pv_bm_ops;
    v->impl = a;
    pv_view_copy_names(v, "bookmarks", "Bookmarks", pv_bm_columns, PV_BM_COLUMNS);
    a->sess.bm_file = a->file_count;
    size_t cursor = a->ex.cursor;
    pv_app_adopt_file(a, pv_app_own_file("Bookmarks", "bookmarks", "of every file (b adds)", "bookmarks", v));
    a->ex.cursor = cursor;
}

pv_file *pv_app_own_file(const char *name, const char *format, const char *caption,
                         const char *kind, pv_view *v)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup(name);
    f->format = format;
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, caption, kind);
    pv_set_add_view(set, v);
    return f;
}

void pv_app_bookmark_push(pv_app *a, const pv_bookmark *b)
{
    a->sess.bm = pv_xgrow(a->sess.bm, &a->sess.bm_cap, a->sess.bm_count + 1, sizeof *a->sess.bm);
    pv_bookmark *d = &a->sess.bm[a->sess.bm_count++];
    *d = *b;
    d->view = pv_xstrdup(b->view);
    d->note = pv_xstrdup(b->note ? b->note : "");
    pv_app_bookmarks_file(a);
}

void pv_app_bookmark_add(pv_app *a, const char *note)
{
    while (*note == ' ')
        note++;
    pv_report *r = pv_app_report(a);
    const pv_item *it = a->loc.item < a->item_count ? &a->items[a->loc.item] : NULL;
    if (!r || !it || it->kind != PV_ITEM_VIEW || a->loc.depth || a->diff.on ||
        pv_app_file_is_pseudo(a, it->file) || a->focus == PV_PANE_DETAILS) {
        pv_app_message(a, true,
                       "bookmarks are of rows of a file's view in the Report (not a drill-down, "
                       "the Details or a view of the viewer's own)");
        return;
    }
    size_t row = pv_report_selected(r);
    if (row == PV_NO_ROW) {
        pv_app_message(a, true, "no row to bookmark");
        return;
    }
    pv_bookmark b = {.file = it->file, .set = it->set, .row = row, .time = -1};
    b.view = a->files[it->file]->sets[it->set]->views[it->view]->id;
    b.note = (char *)note;
    int64_t t;
    if (pv_view_row_time(r->view, row, &t) && t >= 0)
        b.time = t;
    b.id = (int64_t)row;
    size_t idc = pv_view_column(r->view, "id");
    if (idc != PV_NO_ROW) {
        pv_cell c;
        pv_view_cell(r->view, row, idc, &c);
        if (c.present && (c.type == PV_TYPE_INT || c.type == PV_TYPE_TIME))
            b.id = c.v.i;
        else if (c.present && (c.type == PV_TYPE_HANDLE || c.type == PV_TYPE_HEX))
            b.id = (int64_t)c.v.u;
    }
    for (size_t k = 0; k < a->sess.bm_count; k++) {
        pv_bookmark *o = &a->sess.bm[k];
        if (o->file == b.file && o->set == b.set && o->row == row && strcmp(o->view, b.view) == 0) {
            free(o->note);
            o->note = pv_xstrdup(note);
            a->sess.bm_pos = k;
            pv_app_messagef(a, false, "bookmark %zu of %zu: its note is now '%s'", k + 1,
                            a->sess.bm_count, note);
            return;
        }
    }
    pv_app_bookmark_push(a, &b);
    a->sess.bm_pos = a->sess.bm_count - 1;
    pv_app_messagef(a, false, "bookmark %zu: %s row %zu%s%s%s (' next, ` previous; the Explorer's Bookmarks list them)",
                    a->sess.bm_count, pv_bm_view_title(a, &a->sess.bm[a->sess.bm_count - 1]),
                    row + 1, note[0] ? " '" : "", note, note[0] ? "'" : "");
}

void pv_app_bookmark_go(pv_app *a, size_t k)
{
    if (k >= a->sess.bm_count)
        return;
    const pv_bookmark *b = &a->sess.bm[k];
    size_t item = PV_NO_ROW;
    for (size_t i = 0; i < a->item_count && item == PV_NO_ROW; i++) {
        const pv_item *it = &a->items[i];
        if (it->file == b->file && it->kind == PV_ITEM_VIEW && it->set == b->set &&
            strcmp(a->files[it->file]->sets[it->set]->views[it->view]->id, b->view) == 0)
            item = i;
    }
    a->sess.bm_pos = k;
    if (item == PV_NO_ROW) {
        pv_app_messagef(a, true, "bookmark %zu: its view is no longer there", k + 1);
        return;
    }
    pv_location to;
    memset(&to, 0, sizeof to);
    to.item = item;
    to.row = b->row;
    pv_item *it = &a->items[item];
    if (it->opened) {
        if (b->row >= pv_view_rows(it->report.view))
            to.row = PV_NO_ROW;
        pv_app_location_texts(&to, &it->report);
    }
    pv_app_go(a, &to, true);
    pv_location_free(&to);
    a->focus = PV_PANE_REPORT;
    pv_report *r = pv_app_report(a);
    bool there = r && pv_report_selected(r) == b->row;
    const char *note = a->sess.bm[k].note;
    pv_app_messagef(a, !there && r, "bookmark %zu of %zu%s%s%s%s", k + 1, a->sess.bm_count,
                    note[0] ? ": " : "", note,
                    there || !r ? "" : " (its row is not shown: the filter hides it)",
                    r ? "" : " (its view opens when the index is ready)");
}

void pv_app_bookmark_step(pv_app *a, int dir)
{
    size_t n = a->sess.bm_count;
    if (!n) {
        pv_app_message(a, true, "no bookmarks (b bookmarks the selected row)");
        return;
    }
    size_t k = a->sess.bm_pos;
    if (k >= n)
        k = dir > 0 ? 0 : n - 1;
    else
        k = dir > 0 ? (k + 1) % n : (k + n - 1) % n;
    pv_app_bookmark_go(a, k);
}

bool pv_app_bookmarks_enter(pv_app *a)
{
    if (a->sess.bm_file == PV_NO_ROW || a->loc.depth || a->diff.on || a->focus != PV_PANE_REPORT ||
        a->loc.item >= a->item_count || a->items[a->loc.item].file != a->sess.bm_file)
        return false;
    pv_report *r = pv_app_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW || row >= a->sess.bm_count)
        return false;
    pv_app_bookmark_go(a, row);
    return true;
}

pv_view *pv_app_bookmarks_view(pv_app *a)
{
    if (a->sess.bm_file == PV_NO_ROW || a->sess.bm_count == 0)
        return NULL;
    return a->files[a->sess.bm_file]->sets[0]->views[0];
}

/* The bookmark's row in its file's view (view order from 0): a call tree
 * grouped by thread numbers its rows otherwise, so the row is found again
 * by its id. */
static size_t pv_bookmark_view_row(const pv_app *a, const pv_bookmark *b)
{
    const pv_file *f = b->file < a->file_count ? a->files[b->file] : NULL;
    const pv_view *v = f && b->set < f->set_count ? pv_set_find_view(f->sets[b->set], b->view) : NULL;
    if (v && pv_view_column(v, "id") != PV_NO_ROW) {
        size_t row = pv_view_find_id(v, b->id);
        if (row != PV_NO_ROW)
            return row;
    }
    return b->row;
}

size_t pv_app_bookmarks_of(const pv_app *a, size_t fi, size_t set, pv_export_bookmark *out,
                           size_t max)
{
    size_t n = 0;
    for (size_t k = 0; k < a->sess.bm_count; k++) {
        const pv_bookmark *b = &a->sess.bm[k];
        if (b->file != fi || (set != PV_NO_ROW && b->set != set))
            continue;
        if (out && n < max) {
            out[n].view = b->view;
            out[n].row = pv_bookmark_view_row(a, b);
            out[n].has_time = b->time >= 0;
            out[n].time = b->time;
            out[n].note = b->note;
        }
        n++;
    }
    return n;
}
