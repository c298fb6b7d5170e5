/* app_export.c - the export dialog (`e`) and `:export FORMAT PATH`
 * (docs/tui.md, docs/export.md): what to include, preselected from the
 * filter and the markers; a path with completion; a confirmation before
 * replacing a file; the export itself through the generic export API, with
 * its progress in the status bar and Esc or Ctrl-C to cancel (nothing is
 * left). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profview/export.h"
#include "tui/panel.h"

const char *const pv_export_what_names[PV_EXPORT_WHAT_COUNT] = {
    "the view's filtered rows",
    "the whole result set",
    "the timeline between markers A and B",
    "the selected row's context",
};

/* The file and result set of Explorer item `item` (the Report's: a->loc.item),
 * or false. */
static bool pv_app_export_source_of(pv_app *a, size_t item, pv_file **f, pv_result_set **set,
                                    pv_view **view)
{
    if (item >= a->item_count)
        return false;
    pv_item *it = &a->items[item];
    *f = a->files[it->file];
    *set = (*f)->sets[it->set];
    *view = it->kind == PV_ITEM_VIEW ? pv_item_view(a, it) : NULL;
    return true;
}

static bool pv_app_export_source(pv_app *a, pv_file **f, pv_result_set **set, pv_view **view)
{
    return pv_app_export_source_of(a, a->loc.item, f, set, view);
}

/* The report of item `item`: the one shown when it is the Report's. */
static pv_report *pv_app_export_report(pv_app *a, size_t item)
{
    if (item == a->loc.item)
        return pv_app_report(a);
    pv_item *it = &a->items[item];
    return it->opened ? &it->report : NULL;
}

/* A result set with a timeline: Text1 and BIN hold timelines. */
static bool pv_app_export_has_timeline(const pv_result_set *set)
{
    return pv_set_find_view(set, "timeline") != NULL;
}

/* The context (or thread) of the selected row, into out; false without. */
static bool pv_app_export_row_context(pv_app *a, char *out, size_t size)
{
    pv_report *r = pv_app_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW)
        return false;
    size_t col = pv_view_column(r->view, "context");
    if (col == PV_NO_ROW)
        col = pv_view_column(r->view, "thread");
    if (col == PV_NO_ROW)
        return false;
    pv_cell c;
    pv_view_cell(r->view, row, col, &c);
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(&c, &b);
    bool ok = c.present && b.len > 0 && b.len < size;
    if (ok)
        snprintf(out, size, "%s", pv_buf_cstr(&b));
    pv_buf_free(&b);
    return ok;
}

/* Preselection: the markers when both are set on a timeline file, the
 * filtered rows when a filter is in force, else the whole result set. */
static void pv_app_export_defaults(pv_app *a, int format)
{
    pv_file *f;
    pv_result_set *set;
    pv_view *view;
    pv_report *r = pv_app_report(a);
    a->exp.what = PV_EXPORT_WHAT_SET;
    bool timeline = pv_app_export_source(a, &f, &set, &view) && pv_app_export_has_timeline(set);
    if (timeline && a->mark.set[0] && a->mark.set[1])
        a->exp.what = PV_EXPORT_WHAT_MARKERS;
    else if (r && r->filter[0])
        a->exp.what = PV_EXPORT_WHAT_ROWS;
    a->exp.format = format >= 0 ? format : timeline ? PV_EXPORT_TEXT1 : PV_EXPORT_SQLITE;
    a->exp.field = 2;
    a->exp.confirm = false;
}

static const char *pv_app_export_ext(int format)
{
    return format == PV_EXPORT_SQLITE ? ".db" : ".txt";
}

void pv_app_export_open(pv_app *a)
{
    pv_file *f;
    pv_result_set *set;
    pv_view *view;
    if (!pv_app_export_source(a, &f, &set, &view)) {
        pv_app_message(a, true, "nothing to export: open a file first");
        return;
    }
    pv_app_export_defaults(a, -1);
    /* a path beside nothing: NAME-export.EXT in the current directory */
    const char *base = strrchr(f->path, '/');
    base = base ? base + 1 : f->path;
    char name[256];
    snprintf(name, sizeof name, "%s", base);
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    pv_buf_clear(&a->exp.path);
    pv_buf_printf(&a->exp.path, "%s-export%s", name, pv_app_export_ext(a->exp.format));
    a->exp.path_pos = a->exp.path.len;
    a->ov.kind = PV_OVERLAY_EXPORT;
    pv_buf_clear(&a->message);
}

/* ---- running the export */

static void pv_app_export_progress(void *user, const char *what, uint64_t done, uint64_t total)
{
    pv_app *a = user;
    snprintf(a->exp.stage, sizeof a->exp.stage, "%s", what ? what : "");
    a->exp.done = done;
    a->exp.total = total;
    if (pv_app_pump(a)) /* a frame with the status bar; Esc or Ctrl-C stop */
        a->exp.cancel = 1;
}

/* Exports from Explorer item `item` (the Report's, or the one a queued
 * export was asked from) what the dialog's fields say. */
static void pv_app_export_run(pv_app *a, size_t item, bool force)
{
    pv_file *f;
    pv_result_set *set;
    pv_view *view;
    if (!pv_app_export_source_of(a, item, &f, &set, &view))
        return;
    pv_report *r = pv_app_export_report(a, item);
    size_t depth = item == a->loc.item ? a->loc.depth : 0;
    pv_export_request req;
    pv_export_request_init(&req);
    req.format = (pv_export_format)a->exp.format;
    req.instance = set->id;
    char filter[300], context[256];
    switch (a->exp.what) {
    case PV_EXPORT_WHAT_ROWS:
        if (!r || !view || depth > 0) {
            pv_app_message(a, true, "export: a detail view's rows go with their result set "
                                    "(choose the whole result set)");
            return;
        }
        req.view_id = view->id;
        if (r->view == view && r->sel) {
            req.rows = r->sel;
            req.row_count = r->sel_count;
        } else if (r->filter[0]) {
            req.filter = r->filter; /* a call tree grouped by thread: its own filter */
        }
        break;
    case PV_EXPORT_WHAT_MARKERS: {
        if (!a->mark.set[0] || !a->mark.set[1]) {
            pv_app_message(a, true, "export: set markers A and B first (m, M)");
            return;
        }
        int64_t lo = a->mark.at[0] < a->mark.at[1] ? a->mark.at[0] : a->mark.at[1];
        int64_t hi = a->mark.at[0] < a->mark.at[1] ? a->mark.at[1] : a->mark.at[0];
        if (req.format == PV_EXPORT_SQLITE) {
            snprintf(filter, sizeof filter, "time >= %" PRId64 " && time <= %" PRId64, lo, hi);
            req.view_id = "timeline";
            req.filter = filter;
        } else {
            req.has_from = req.has_to = true;
            req.from = lo;
            req.to = hi;
        }
        break;
    }
    case PV_EXPORT_WHAT_CONTEXT:
        if (!pv_app_export_row_context(a, context, sizeof context)) {
            pv_app_message(a, true, "export: the selected row has no context or thread");
            return;
        }
        req.context = context;
        break;
    default: break;
    }
    const char *path = pv_buf_cstr(&a->exp.path);
    struct stat st;
    if (!force && stat(path, &st) == 0) {
        /* ask, in the dialog */
        a->ov.kind = PV_OVERLAY_EXPORT;
        a->exp.confirm = true;
        return;
    }
    a->ov.kind = PV_OVERLAY_NONE;
    a->exp.confirm = false;
    /* The export reads every row: while the file is indexed it waits for
     * the index, queued (docs/tui.md "Loading and indexing"). */
    pv_command_args *q = pv_app_command_queue(a, PV_JOB_EXPORT, a->items[item].file, path);
    if (q) {
        q->item = item;
        q->mode = a->exp.format;
        q->exp_what = a->exp.what;
        q->force = force;
        return;
    }
    a->exp.cancel = 0;
    a->pump.stop = false;
    a->exp.running = true;
    a->exp.done = a->exp.total = 0;
    a->exp.start = pv_app_now();
    req.progress.report = pv_app_export_progress;
    req.progress.user = a;
    req.progress.cancel = &a->exp.cancel;
    req.trash = &a->trash; /* big blocks go back between key presses */
    a->exp.stage[0] = '\0';
    pv_diag err;
    pv_diag_init(&err);
    pv_export_status st2 = pv_export_file(f, &req, path, force, &err);
    a->exp.running = false;
    char text[1024];
    if (st2 == PV_EXPORT_OK) {
        snprintf(text, sizeof text, "exported %s to %s (%s)", pv_export_what_names[a->exp.what],
                 path, pv_export_format_name(req.format));
        pv_app_message(a, false, text);
    } else if (st2 == PV_EXPORT_CANCELLED) {
        snprintf(text, sizeof text, "export cancelled: nothing written to %s", path);
        pv_app_message(a, false, text);
    } else {
        pv_buf msg;
        pv_buf_init(&msg);
        for (size_t i = 0; i < err.entry_count; i++)
            pv_buf_printf(&msg, "%s%s", i ? "; " : "", err.entries[i].text);
        snprintf(text, sizeof text, "export failed: %s", err.entry_count ? pv_buf_cstr(&msg) : "?");
        pv_buf_free(&msg);
        pv_app_message(a, true, text);
    }
    pv_diag_free(&err);
}

static size_t pv_app_export_utf8(uint32_t c, char *u)
{
    if (c < 0x80) {
        u[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        u[0] = (char)(0xc0 | (c >> 6));
        u[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        u[0] = (char)(0xe0 | (c >> 12));
        u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        u[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    u[0] = (char)(0xf0 | (c >> 18));
    u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
    u[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

/* ---- the dialog's keys: Up/Down choose the field, Left/Right the option
 * (or move in the path), typing edits the path, Tab completes it, Enter
 * exports, Esc closes. */
void pv_app_export_key(pv_app *a, int key)
{
    if (a->exp.confirm) {
        if (key == PV_KEY_ENTER || key == 'y' || key == 'Y')
            pv_app_export_run(a, a->loc.item, true);
        else if (key == PV_KEY_ESC || key == 'n' || key == 'N' || key == PV_KEY_CTRL('c'))
            a->exp.confirm = false;
        return;
    }
    if (key == PV_KEY_ESC || key == PV_KEY_CTRL('c')) {
        a->ov.kind = PV_OVERLAY_NONE;
        return;
    }
    if (key == PV_KEY_ENTER) {
        pv_app_export_run(a, a->loc.item, false);
        return;
    }
    if (key == PV_KEY_UP) {
        a->exp.field = (a->exp.field + 2) % 3;
        return;
    }
    if (key == PV_KEY_DOWN) {
        a->exp.field = (a->exp.field + 1) % 3;
        return;
    }
    if (a->exp.field < 2) {
        int d = key == PV_KEY_LEFT ? -1 : (key == PV_KEY_RIGHT || key == ' ') ? 1 : 0;
        if (!d)
            return;
        if (a->exp.field == 0) {
            int old = a->exp.format;
            a->exp.format = (a->exp.format + 3 + d) % 3;
            /* the path's extension follows the format while it is the default one */
            const char *oe = pv_app_export_ext(old), *ne = pv_app_export_ext(a->exp.format);
            size_t len = a->exp.path.len, ol = strlen(oe);
            if (len > ol && strcmp(a->exp.path.data + len - ol, oe) == 0) {
                a->exp.path.len = len - ol;
                a->exp.path.data[a->exp.path.len] = '\0';
                pv_buf_puts(&a->exp.path, ne);
                a->exp.path_pos = a->exp.path.len;
            }
        } else {
            a->exp.what = (a->exp.what + PV_EXPORT_WHAT_COUNT + d) % PV_EXPORT_WHAT_COUNT;
        }
        return;
    }
    /* the path */
    if (key == PV_KEY_TAB) {
        pv_app_complete_path(a, &a->exp.path);
        a->exp.path_pos = a->exp.path.len;
    } else if (key == PV_KEY_LEFT) {
        while (a->exp.path_pos > 0) {
            a->exp.path_pos--;
            if (((unsigned char)a->exp.path.data[a->exp.path_pos] & 0xc0) != 0x80)
                break;
        }
    } else if (key == PV_KEY_RIGHT) {
        a->exp.path_pos = pv_app_utf8_next(a->exp.path.data, a->exp.path.len, a->exp.path_pos);
    } else if (key == PV_KEY_HOME || key == PV_KEY_CTRL('a')) {
        a->exp.path_pos = 0;
    } else if (key == PV_KEY_END || key == PV_KEY_CTRL('e')) {
        a->exp.path_pos = a->exp.path.len;
    } else if (key == PV_KEY_CTRL('u')) {
        pv_buf_clear(&a->exp.path);
        a->exp.path_pos = 0;
    } else if (key == PV_KEY_BACKSPACE && a->exp.path_pos > 0) {
        size_t from = a->exp.path_pos;
        do
            from--;
        while (from > 0 && ((unsigned char)a->exp.path.data[from] & 0xc0) == 0x80);
        memmove(a->exp.path.data + from, a->exp.path.data + a->exp.path_pos,
                a->exp.path.len - a->exp.path_pos + 1);
        a->exp.path.len -= a->exp.path_pos - from;
        a->exp.path_pos = from;
    } else if (key >= 0x20 && key < 0x110000 && key != 0x7f) {
        char enc[4];
        size_t n = pv_app_export_utf8((uint32_t)key, enc);
        pv_buf tail;
        pv_buf_init(&tail);
        pv_buf_append(&tail, a->exp.path.data ? a->exp.path.data + a->exp.path_pos : "",
                      a->exp.path.len - a->exp.path_pos);
        a->exp.path.len = a->exp.path_pos;
        pv_buf_append(&a->exp.path, enc, n);
        a->exp.path_pos = a->exp.path.len;
        pv_buf_append(&a->exp.path, tail.data ? tail.data : "", tail.len);
        pv_buf_free(&tail);
    }
}

/* :export FORMAT PATH - the dialog's preselection, without the dialog. */
void pv_app_export_command(pv_app *a, const char *arg)
{
    char fmt[16];
    size_t fl = strcspn(arg, " ");
    snprintf(fmt, sizeof fmt, "%.*s", (int)(fl < sizeof fmt ? fl : sizeof fmt - 1), arg);
    const char *path = arg + fl;
    while (*path == ' ')
        path++;
    pv_export_format format;
    if (!fmt[0] || !path[0] || !pv_export_format_parse(fmt, &format)) {
        pv_app_message(a, true, ":export text1|bin|sqlite PATH (e opens the export dialog)");
        return;
    }
    pv_file *f;
    pv_result_set *set;
    pv_view *view;
    if (!pv_app_export_source(a, &f, &set, &view)) {
        pv_app_message(a, true, "nothing to export: open a file first");
        return;
    }
    pv_app_export_defaults(a, (int)format);
    pv_buf_clear(&a->exp.path);
    pv_buf_puts(&a->exp.path, path);
    a->exp.path_pos = a->exp.path.len;
    pv_app_export_run(a, a->loc.item, false);
}

void pv_app_export_queued(pv_app *a, const pv_command_args *q)
{
    size_t item = q->item;
    if (item >= a->item_count)
        return;
    a->exp.format = q->mode;
    a->exp.what = q->exp_what;
    pv_buf_clear(&a->exp.path);
    pv_buf_puts(&a->exp.path, q->arg);
    a->exp.path_pos = a->exp.path.len;
    pv_app_export_run(a, item, q->force);
}

void pv_app_set_pump(pv_app *a, void (*pump)(void *), void *user)
{
    a->pump.fn = pump;
    a->pump.user = user;
}

bool pv_app_pump(pv_app *a)
{
    if (a->pump.fn && !a->pump.stop) {
        double now = pv_app_now();
        if (now - a->pump.last >= PV_PUMP_S) {
            a->pump.fn(a->pump.user);
            a->pump.last = pv_app_now();
        }
    }
    return a->pump.stop;
}

void pv_app_long_stop(pv_app *a)
{
    a->pump.stop = true;
    a->exp.cancel = 1;
}

/* The export dialog (app_export.c): three fields and the key hints. */
static void pv_export_draw(pv_app *a, pv_rect rc)
{
    int w = rc.w < 100 ? rc.w : 100;
    int h = 7;
    if (h > rc.h)
        h = rc.h;
    pv_rect box = {rc.y + (rc.h - h) / 3, rc.x + (rc.w - w) / 2, w, h};
    pv_grid_fill(&a->grid, box.y, box.x, box.w, box.h, PV_ROLE_NORMAL);
    pv_app_title(a, box.y, box.x, box.w, "Export (Enter exports, Esc closes)", true);
    static const char *const formats[] = {"Text1", "BIN", "SQLite"};
    char line[512];
    int y = box.y + 1;
    for (int f = 0; f < 3 && y < box.y + box.h; f++, y++) {
        if (f == 0) {
            int k = snprintf(line, sizeof line, " Format  ");
            for (int i = 0; i < 3; i++)
                k += snprintf(line + k, sizeof line - (size_t)k, i == a->exp.format ? "[%s] " : " %s  ",
                              formats[i]);
        } else if (f == 1) {
            snprintf(line, sizeof line, " Include < %s >", pv_export_what_names[a->exp.what]);
        } else {
            snprintf(line, sizeof line, " Path    ");
        }
        pv_grid_str(&a->grid, y, box.x + 1, box.w - 2, line, PV_ROLE_NORMAL);
        if (f == 2) {
            int x = box.x + 10;
            int room = box.x + box.w - 1 - x;
            pv_grid_text(&a->grid, y, x, room, a->exp.path.data ? a->exp.path.data : "",
                         a->exp.path.len, PV_ROLE_PROMPT);
            if (a->exp.field == 2 && !a->exp.confirm) {
                a->cursor_y = y;
                a->cursor_x = x + (int)pv_text_width(a->exp.path.data ? a->exp.path.data : "",
                                                     a->exp.path_pos, a->utf8);
                if (a->cursor_x >= box.x + box.w - 1)
                    a->cursor_x = box.x + box.w - 2;
            }
        }
        if (f == a->exp.field)
            pv_grid_paint(&a->grid, y, box.x + 1, 8, PV_ROLE_SELECTED);
    }
    y++;
    if (y < box.y + box.h) {
        if (a->exp.confirm) {
            snprintf(line, sizeof line, " %s exists: Enter (or y) replaces it, Esc keeps it",
                     a->exp.path.data ? a->exp.path.data : "");
            pv_grid_str(&a->grid, y, box.x + 1, box.w - 2, line, PV_ROLE_ERROR);
        } else {
            pv_grid_str(&a->grid, y, box.x + 1, box.w - 2,
                        " Up/Down field  Left/Right choose  Tab completes the path", PV_ROLE_DIM);
        }
    }
}

/* The status bar while the export runs. */
static bool pv_export_dialog_status(pv_app *a, pv_buf *s)
{
    if (!a->exp.running)
        return false;
    double elapsed = pv_app_now() - a->exp.start;
    if (strcmp(a->exp.stage, "selecting rows") == 0) /* before the rows are written */
        pv_buf_printf(s, " Exporting to %s: selecting rows", pv_buf_cstr(&a->exp.path));
    else
        pv_buf_printf(s, " Exporting to %s: %" PRIu64 " rows", pv_buf_cstr(&a->exp.path),
                      a->exp.done);
    if (a->exp.total) {
        double frac = (double)a->exp.done / (double)a->exp.total;
        pv_buf_printf(s, " %3.0f%%", frac * 100);
        pv_text_rate(s, (double)a->exp.done, (double)a->exp.total, elapsed, " rows");
    }
    pv_buf_puts(s, "  (Esc cancels)");
    return true;
}

static void pv_export_panel_key(pv_app *a, int key)
{
    pv_app_export_key(a, key);
}

const pv_panel pv_panel_export = {
    .name = "Export",
    .draw = pv_export_draw,
    .key = pv_export_panel_key,
    .status = pv_export_dialog_status,
};
