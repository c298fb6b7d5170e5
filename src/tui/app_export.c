/* app_export.c - the export dialog (`e`) and `:export FORMAT PATH`
 * (docs/tui.md "Export", docs/export.md): the parts of a selection (the
 * filter, the markers' window, the selected row's context and area, this
 * view or the whole result set), each its own choice, preselected from what
 * is active; what will be written, said before writing; a path with
 * completion, in the directory of the last export; a confirmation before
 * replacing a file; the export itself through the generic export API, as a
 * job on a worker (worker.h), with its progress in the status bar and Esc
 * or Ctrl-C to cancel (nothing is left); a failure keeps the dialog open with its message, in the viewer's
 * words. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profview/export.h"
#include "tui/app_internal.h"
#include "tui/panel.h"
#include "tui/worker.h"

/* The dialog's fields, top to bottom. */
enum {
    PV_EXP_F_FORMAT,
    PV_EXP_F_FILTER,
    PV_EXP_F_WINDOW,
    PV_EXP_F_CONTEXT,
    PV_EXP_F_AREA,
    PV_EXP_F_VIEW,
    PV_EXP_F_PATH,
    PV_EXP_F_COUNT
};

static const char *const pv_export_format_titles[PV_EXPORT_FORMAT_COUNT] = {"Text1", "BIN", "SQLite",
                                                                             "trace-json"};
/* The formats in the dialog's order (Left/Right step through it). */
static const int pv_export_format_order[PV_EXPORT_FORMAT_COUNT] = {
    PV_EXPORT_TEXT1, PV_EXPORT_BIN, PV_EXPORT_TRACE_JSON, PV_EXPORT_SQLITE};

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

/* trace-json writes a call trace or a timeline. */
static bool pv_app_export_has_trace(const pv_result_set *set)
{
    return pv_set_find_view(set, "call-trace") || pv_set_find_view(set, "timeline");
}

/* The text of column `id` (or `alt`) of the selected row, into out; false
 * without one. */
static bool pv_app_export_row_cell(pv_app *a, const char *id, const char *alt, char *out,
                                   size_t size)
{
    pv_report *r = pv_app_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW)
        return false;
    size_t col = pv_view_column(r->view, id);
    if (col == PV_NO_ROW && alt)
        col = pv_view_column(r->view, alt);
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

/* ---- what can be chosen, and what is */

/* The parts of the selection, as the dialog offers them (exp_what bits). */
typedef struct pv_export_parts {
    pv_file *f;
    pv_result_set *set;
    pv_view *view;        /* the Report's view (a top-level one), or NULL */
    pv_report *r;
    bool timeline;        /* the result set has one: Text1 and BIN are possible */
    bool has[PV_EXPORT_PART_COUNT];
    char context[256];    /* the selected row's context (or thread) */
    char area[256];       /* the selected row's area (its name) */
    int64_t lo, hi;       /* the markers' window */
    bool grouped;         /* the Report shows the view grouped by thread (group.h): its
                             filter is handed over as text, not as its rows */
} pv_export_parts;

/* What item `item` offers: a part is there when it is in force (a filter,
 * both markers on times) or the selected row has it. */
static bool pv_app_export_parts(pv_app *a, size_t item, pv_export_parts *p)
{
    memset(p, 0, sizeof *p);
    if (!pv_app_export_source_of(a, item, &p->f, &p->set, &p->view))
        return false;
    p->r = pv_app_export_report(a, item);
    if (item == a->loc.item && a->loc.depth > 0)
        p->view = NULL; /* a detail's rows go with their result set */
    p->timeline = pv_app_export_has_timeline(p->set);
    p->grouped = p->r && p->view && p->r->view != p->view &&
                 strcmp(p->r->view->id, p->view->id) == 0;
    p->has[PV_EXPORT_PART_FILTER] = p->r && p->view && (p->r->view == p->view || p->grouped) &&
                                    p->r->filter && p->r->filter[0];
    p->has[PV_EXPORT_PART_WINDOW] = a->mark.set[0] && a->mark.set[1] && !a->mark.view[0] &&
                                    !a->mark.view[1] && p->timeline;
    p->lo = a->mark.at[0] < a->mark.at[1] ? a->mark.at[0] : a->mark.at[1];
    p->hi = a->mark.at[0] < a->mark.at[1] ? a->mark.at[1] : a->mark.at[0];
    bool here = item == a->loc.item;
    p->has[PV_EXPORT_PART_CONTEXT] =
        here && pv_app_export_row_cell(a, "context", "thread", p->context, sizeof p->context);
    /* an area: the name of a row that is one (an event's, a statistic's, a
     * variable's, a line's), not a context's */
    pv_report *shown = here ? pv_app_report(a) : NULL;
    bool areas = shown && (pv_view_column(shown->view, "type") != PV_NO_ROW ||
                           pv_view_column(shown->view, "function") != PV_NO_ROW);
    p->has[PV_EXPORT_PART_AREA] =
        areas && pv_app_export_row_cell(a, "name", NULL, p->area, sizeof p->area);
    p->has[PV_EXPORT_PART_VIEW] = p->view != NULL;
    return true;
}

/* Preselection: every part in force (the filter, the markers), and this
 * view's rows when one of them is; the format of the last export of the
 * session when it fits, else Text1 for a timeline, SQLite otherwise. */
static void pv_app_export_defaults(pv_app *a, int format)
{
    pv_export_parts p;
    a->exp.what = 0;
    a->exp.field = PV_EXP_F_PATH;
    a->exp.confirm = false;
    pv_buf_clear(&a->exp.error);
    if (!pv_app_export_parts(a, a->loc.item, &p))
        return;
    if (p.has[PV_EXPORT_PART_FILTER])
        a->exp.what |= 1 << PV_EXPORT_PART_FILTER;
    if (p.has[PV_EXPORT_PART_WINDOW])
        a->exp.what |= 1 << PV_EXPORT_PART_WINDOW;
    if (a->exp.what && p.has[PV_EXPORT_PART_VIEW])
        a->exp.what |= 1 << PV_EXPORT_PART_VIEW;
    int last = a->exp.last_format - 1;
    if (format < 0 && last >= 0 &&
        (last == PV_EXPORT_SQLITE || p.timeline ||
         (last == PV_EXPORT_TRACE_JSON && pv_app_export_has_trace(p.set))))
        format = last;
    a->exp.format = format >= 0 ? format : p.timeline ? PV_EXPORT_TEXT1 : PV_EXPORT_SQLITE;
}

static bool pv_app_export_on(const pv_app *a, int part)
{
    return (a->exp.what >> part) & 1;
}

/* ---- the request */

typedef struct pv_export_plan {
    pv_export_request req;
    char filter[600];   /* the filter text handed over (a window in SQLite) */
    pv_buf describe;    /* what will be written: "name = CRC_Calc, between A and B" */
    const pv_view *count_view; /* the view whose rows are written, or NULL */
} pv_export_plan;

/* trace-json: the call trace's calls (docs/export.md "Trace Event
 * Format"), with the markers as instants; false with the reason in `why`. */
static bool pv_app_export_plan_trace(const pv_app *a, const pv_export_parts *p, bool filter,
                                     bool window, pv_export_plan *pl, pv_buf *why)
{
    pv_export_request *q = &pl->req;
    if (!pv_app_export_has_trace(p->set)) {
        pv_buf_printf(why, "%s holds no call trace or timeline: trace-json writes calls on "
                           "a time axis; choose SQLite",
                      p->f->path);
        return false;
    }
    if (filter && strcmp(p->view->id, "call-trace") != 0) {
        pv_buf_printf(why, "the filter is over the %s view, and trace-json writes the "
                           "calls: filter the call trace, or choose SQLite",
                      p->view->id);
        return false;
    }
    if (filter) {
        q->view_id = "call-trace";
        if (p->r->sel && !p->grouped) {
            q->rows = p->r->sel;
            q->row_count = p->r->sel_count;
        } else {
            q->filter = p->r->filter;
        }
    }
    if (window) {
        q->has_from = q->has_to = true;
        q->from = p->lo;
        q->to = p->hi;
    }
    for (int k = 0; k < 2; k++) {
        q->has_mark[k] = a->mark.set[k] && !a->mark.view[k];
        q->mark[k] = a->mark.at[k];
    }
    pl->count_view = pv_set_find_view(p->set, "call-trace");
    pv_buf_puts(&pl->describe, filter ? "" : "the call trace");
    return true;
}

/* The request the chosen parts make, with what it writes in words; false
 * with the reason in `why` (in the viewer's words: what was chosen, never a
 * command-line option) when they do not fit together. */
static bool pv_app_export_plan(pv_app *a, size_t item, pv_export_plan *pl, pv_buf *why)
{
    pv_export_parts p;
    pv_export_request_init(&pl->req);
    pl->filter[0] = '\0';
    pl->count_view = NULL;
    pv_buf_clear(&pl->describe);
    if (!pv_app_export_parts(a, item, &p)) {
        pv_buf_puts(why, "nothing to export: open a file first");
        return false;
    }
    pv_export_request *q = &pl->req;
    q->format = (pv_export_format)a->exp.format;
    q->instance = p.set->id;
    bool filter = pv_app_export_on(a, PV_EXPORT_PART_FILTER) && p.has[PV_EXPORT_PART_FILTER];
    bool window = pv_app_export_on(a, PV_EXPORT_PART_WINDOW) && p.has[PV_EXPORT_PART_WINDOW];
    bool context = pv_app_export_on(a, PV_EXPORT_PART_CONTEXT) && p.has[PV_EXPORT_PART_CONTEXT];
    bool area = pv_app_export_on(a, PV_EXPORT_PART_AREA) && p.has[PV_EXPORT_PART_AREA];
    bool only_view = pv_app_export_on(a, PV_EXPORT_PART_VIEW) && p.has[PV_EXPORT_PART_VIEW];
    /* a part chosen that is gone (a queued export, the row moved since) */
    static const char *const gone[PV_EXPORT_PART_COUNT] = {
        "the filter", "the markers", "the selected row's context", "the selected row's area",
        "this view"};
    for (int k = 0; k < PV_EXPORT_PART_COUNT; k++)
        if (pv_app_export_on(a, k) && !p.has[k]) {
            pv_buf_printf(why, "%s, chosen for the export, is no longer there", gone[k]);
            return false;
        }
    bool timeline_rows = p.view && strcmp(p.view->id, "timeline") == 0;
    char lo[32], hi[32];
    pv_format_time_human(p.lo, a->unit, lo, sizeof lo);
    pv_format_time_human(p.hi, a->unit, hi, sizeof hi);
    if (q->format == PV_EXPORT_TRACE_JSON) {
        if (!pv_app_export_plan_trace(a, &p, filter, window, pl, why))
            return false;
    } else if (q->format != PV_EXPORT_SQLITE) {
        /* Text1 and BIN: the timeline's events */
        if (!p.timeline) {
            pv_buf_printf(why, "%s holds no timeline: Text1 and BIN hold winIDEA timelines; "
                               "choose SQLite",
                          p.f->path);
            return false;
        }
        if (filter && !timeline_rows) {
            pv_buf_printf(why, "the filter is over the %s view, and Text1 and BIN write the "
                               "timeline's events: choose SQLite, or filter the timeline",
                          p.view->id);
            return false;
        }
        if (filter) {
            q->view_id = "timeline";
            if (p.r->sel) {
                q->rows = p.r->sel;
                q->row_count = p.r->sel_count;
            } else {
                q->filter = p.r->filter;
            }
            pl->count_view = p.view;
        }
        if (window) {
            q->has_from = q->has_to = true;
            q->from = p.lo;
            q->to = p.hi;
        }
        pv_buf_puts(&pl->describe, filter ? "" : "the timeline");
    } else if (!only_view) {
        if (filter || window || area) {
            pv_buf_printf(why, "SQLite keeps %s in the rows of one view: choose \"this view\" "
                               "(View)",
                          filter ? "the filter" : window ? "the markers' window" : "an area");
            return false;
        }
        pv_buf_puts(&pl->describe, "the whole result set");
    } else {
        /* SQLite, one view: the Report's, or the timeline for the markers
         * (a `time` elsewhere is a duration: a call's, a routine's) */
        const pv_view *v = p.view;
        if (window && strcmp(v->id, "timeline") != 0) {
            if (filter) {
                pv_buf_printf(why, "the filter is over the %s view and the markers over the "
                                   "timeline: export one of them",
                              p.view->id);
                return false;
            }
            v = pv_set_find_view(p.set, "timeline");
        }
        if (area && pv_view_column(v, "name") == PV_NO_ROW) {
            pv_buf_printf(why, "the %s view has no names to keep an area by", v->id);
            return false;
        }
        q->view_id = v->id;
        pl->count_view = v;
        if (filter && p.r->sel && !p.grouped) {
            q->rows = p.r->sel;
            q->row_count = p.r->sel_count;
        }
        const char *text = filter && (!p.r->sel || p.grouped) ? p.r->filter : NULL;
        if (window)
            snprintf(pl->filter, sizeof pl->filter,
                     "%s%s%stime >= %" PRId64 " && time <= %" PRId64, text ? "(" : "",
                     text ? text : "", text ? ") && " : "", p.lo, p.hi);
        else if (text)
            snprintf(pl->filter, sizeof pl->filter, "%s", text);
        if (pl->filter[0])
            q->filter = pl->filter;
        pv_buf_printf(&pl->describe, "%s", filter ? "" : "the ");
        if (!filter)
            pv_buf_printf(&pl->describe, "%s view", v->id);
    }
    /* the rest in words, in the dialog's order */
    if (filter)
        pv_buf_printf(&pl->describe, "%s", p.r->filter);
    if (window)
        pv_buf_printf(&pl->describe, ", between A and B (%s .. %s)", lo, hi);
    if (context) {
        q->context = pv_xstrdup(p.context);
        pv_buf_printf(&pl->describe, ", context %s", p.context);
    }
    if (area) {
        q->areas = pv_xstrdup(p.area);
        pv_buf_printf(&pl->describe, ", area %s", p.area);
    }
    if (q->format != PV_EXPORT_SQLITE && !pl->count_view)
        pl->count_view = pv_set_find_view(p.set, "timeline");
    return true;
}

static void pv_app_export_plan_free(pv_export_plan *pl)
{
    free((char *)pl->req.context);
    free((char *)pl->req.areas);
    pl->req.context = pl->req.areas = NULL;
    pv_buf_free(&pl->describe);
}

/* Rows counted before the dialog says "N+ rows": a count reads a cell a
 * row, about 0.2 s for a million. */
#define PV_EXPORT_COUNT_MAX ((size_t)1 << 20)

/* "182 rows: name = CRC_Calc, between A and B (...)", or why the choices do
 * not fit, into a->exp.summary (on opening the dialog and at every change:
 * not at every frame). */
static void pv_app_export_describe(pv_app *a)
{
    pv_buf_clear(&a->exp.summary);
    pv_export_plan pl;
    pv_buf_init(&pl.describe);
    pv_buf why;
    pv_buf_init(&why);
    if (!pv_app_export_plan(a, a->loc.item, &pl, &why)) {
        pv_buf_printf(&a->exp.summary, "cannot export this: %s", pv_buf_cstr(&why));
        a->exp.summary_bad = true;
    } else {
        a->exp.summary_bad = false;
        const pv_view *v = pl.count_view;
        const pv_export_request *q = &pl.req;
        if (v) {
            /* the rows of v the selection keeps, counted as the export selects
             * them (pv_export_select_rows) up to a bound */
            pv_export_request sel = *q;
            memset(&sel.progress, 0, sizeof sel.progress);
            sel.trash = NULL;
            size_t total = q->rows ? q->row_count : pv_view_rows(v);
            size_t n = total;
            bool more = false;
            bool narrowed = q->filter || q->context || (q->areas && q->format == PV_EXPORT_SQLITE);
            if (q->format != PV_EXPORT_SQLITE) {
                /* Text1/BIN: the timeline's rows between the markers */
                narrowed |= q->has_from;
            }
            if (q->format == PV_EXPORT_TRACE_JSON && (q->has_from || q->areas)) {
                /* calls of the window or of an area: at most those */
                sel.has_from = sel.has_to = false;
                more = narrowed = true;
            }
            if (narrowed && total > PV_EXPORT_COUNT_MAX) {
                more = true;
            } else if (narrowed) {
                if (q->format != PV_EXPORT_SQLITE && q->format != PV_EXPORT_TRACE_JSON &&
                    q->has_from) {
                    /* the window as a filter over the timeline's rows */
                    snprintf(pl.filter, sizeof pl.filter,
                             "%s%s%stime >= %" PRId64 " && time <= %" PRId64,
                             q->filter ? "(" : "", q->filter ? q->filter : "",
                             q->filter ? ") && " : "", q->from, q->to);
                    sel.filter = pl.filter;
                }
                if (q->format != PV_EXPORT_SQLITE)
                    sel.areas = NULL; /* the timeline's areas: by name, as below */
                pv_diag err;
                pv_diag_init(&err);
                bool ok = true;
                pv_row *rows = pv_export_select_rows(v, &sel, true, &n, &err, &ok);
                free(rows);
                pv_diag_free(&err);
                if (!ok)
                    more = true;
                if (ok && q->format != PV_EXPORT_SQLITE && q->areas)
                    more = true; /* an area keeps its lines and states too: at least */
            }
            if (more && (n == total || q->format == PV_EXPORT_TRACE_JSON) && narrowed)
                pv_buf_printf(&a->exp.summary, "up to %zu rows: ", n);
            else
                pv_buf_printf(&a->exp.summary, "%zu%s rows: ", n, more ? "+" : "");
        }
        pv_buf_append(&a->exp.summary, pl.describe.data ? pl.describe.data : "",
                      pl.describe.len);
        if (q->format != PV_EXPORT_SQLITE && q->format != PV_EXPORT_TRACE_JSON &&
            (q->filter || q->rows || q->context || q->areas))
            pv_buf_puts(&a->exp.summary,
                        " (with the context area's events, and the calls' entries and exits)");
    }
    pv_buf_free(&why);
    pv_app_export_plan_free(&pl);
}

static const char *pv_app_export_ext(int format)
{
    return format == PV_EXPORT_SQLITE        ? ".db"
           : format == PV_EXPORT_TRACE_JSON ? ".json"
                                             : ".txt";
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
    /* NAME-export.EXT, in the directory of the session's last export (else
     * the current one) */
    const char *base = strrchr(f->path, '/');
    base = base ? base + 1 : f->path;
    char name[256];
    snprintf(name, sizeof name, "%s", base);
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    pv_buf_clear(&a->exp.path);
    if (a->exp.last_dir.len)
        pv_buf_puts(&a->exp.path, pv_buf_cstr(&a->exp.last_dir));
    pv_buf_printf(&a->exp.path, "%s-export%s", name, pv_app_export_ext(a->exp.format));
    a->exp.path_pos = a->exp.path.len;
    a->ov.kind = PV_OVERLAY_EXPORT;
    pv_buf_clear(&a->message);
    pv_app_export_describe(a);
}

/* ---- running the export */

/* The library's messages name command-line options where the viewer has
 * choices: said in the viewer's words. */
static void pv_app_export_viewer_words(pv_buf *msg)
{
    static const char *const words[][2] = {
        {" (use --force to replace it)", ""},
        {"even with --force", "even when confirmed"},
        {"use --format sqlite", "choose SQLite"},
        {"(--format sqlite --view timeline)", "(SQLite, this view)"},
        {"(--format sqlite)", "(SQLite)"},
        {"give --view ID", "choose \"this view\" (View)"},
        {"--filter", "the filter"},
        {"--areas", "the area"},
        {"--context", "the context"},
        {"--from/--to", "the markers"},
    };
    for (size_t k = 0; k < PV_ARRAY_LEN(words); k++) {
        const char *at;
        size_t from = 0;
        while (msg->data && (at = strstr(msg->data + from, words[k][0])) != NULL) {
            size_t pos = (size_t)(at - msg->data), ol = strlen(words[k][0]);
            pv_buf rest;
            pv_buf_init(&rest);
            pv_buf_puts(&rest, at + ol);
            msg->len = pos;
            msg->data[pos] = '\0';
            pv_buf_puts(msg, words[k][1]);
            from = msg->len;
            pv_buf_append(msg, rest.data ? rest.data : "", rest.len);
            pv_buf_free(&rest);
        }
    }
}

/* `text` broken at blanks into lines of at most `width` columns (a word
 * longer than a line is cut), each line appended to `out` after a '\n'
 * (none before the first). */
static void pv_app_export_wrap(const char *text, size_t width, bool utf8, pv_buf *out)
{
    size_t len = strlen(text), at = 0;
    if (width < 10)
        width = 10;
    bool first = true;
    while (at < len) {
        /* the longest run of whole words that fits */
        size_t end = at, cols = 0, cut = SIZE_MAX;
        while (end < len && cols < width) {
            if (text[end] == ' ')
                cut = end;
            end = pv_app_utf8_next(text, len, end);
            cols++;
        }
        if (end < len && text[end] != ' ' && cut != SIZE_MAX && cut > at)
            end = cut;
        if (!first)
            pv_buf_putc(out, '\n');
        first = false;
        pv_buf_append(out, text + at, end - at);
        at = end;
        while (at < len && text[at] == ' ')
            at++;
    }
    (void)utf8;
}

/* A message for the message line, broken into lines of the screen's width
 * (the message box shows them all: never cut). */
static void pv_app_export_say(pv_app *a, bool error, const char *text)
{
    pv_buf out;
    pv_buf_init(&out);
    pv_app_export_wrap(text, (size_t)a->width, a->utf8, &out);
    pv_app_message(a, error, pv_buf_cstr(&out));
    pv_buf_free(&out);
}

/* ---- the export as a job (jobs.h) whose call runs on a worker
 * (worker.h): the writers do not yield, so the call runs in turns with the
 * UI thread, within each step's budget, and reports its progress from the
 * export's pv_progress; a stop sets the export's cancel flag (the export
 * removes its temporary files; a file it was to replace keeps its
 * content); the message and the dialog are the UI thread's, in the last
 * step. */

typedef struct pv_export_job {
    pv_job base;
    pv_worker *w; /* made at the first step */
    const pv_file *f;
    /* the request, with a copy of what it reads of the viewer's state
     * (the report's rows and filter, the bookmarks) */
    pv_export_request req;
    pv_row *rows;
    char *filter, *view_id, *context, *areas;
    pv_export_bookmark *bm;
    size_t bm_count;
    char *path;
    bool force;
    int format;
    pv_buf describe; /* what is written, in words */
    atomic_int cancel;
    /* the call's: its progress (read between turns) and its result */
    char stage[32];
    uint64_t done, total;
    pv_export_status st;
    pv_diag err;
} pv_export_job;

/* The export's progress (on the worker): the counts for the status bar;
 * the turn goes back to the UI thread when the step's budget is spent. */
static void pv_export_job_progress(void *user, const char *what, uint64_t done, uint64_t total)
{
    pv_export_job *j = user;
    snprintf(j->stage, sizeof j->stage, "%s", what ? what : "");
    j->done = done;
    j->total = total;
    pv_worker_yield(j->w, done);
}

static void pv_export_job_call(void *ctx)
{
    pv_export_job *j = ctx;
    j->st = pv_export_file(j->f, &j->req, j->path, j->force, &j->err);
}

/* The call has returned: what was written, or why not. */
static void pv_export_job_done(pv_app *a, pv_export_job *j)
{
    const char *path = j->path;
    pv_buf text;
    pv_buf_init(&text);
    if (j->st == PV_EXPORT_OK) {
        /* the session remembers the format and the directory */
        a->exp.last_format = j->format + 1;
        const char *slash = strrchr(path, '/');
        pv_buf_clear(&a->exp.last_dir);
        if (slash) /* with its '/' */
            pv_buf_append(&a->exp.last_dir, path, (size_t)(slash - path) + 1);
        pv_buf_printf(&text, "exported %s to %s (%s)", pv_buf_cstr(&j->describe), path,
                      pv_export_format_name(j->req.format));
        pv_app_export_say(a, false, pv_buf_cstr(&text));
    } else if (j->st == PV_EXPORT_CANCELLED) {
        pv_buf_printf(&text, "export cancelled: nothing written to %s", path);
        pv_app_export_say(a, false, pv_buf_cstr(&text));
    } else {
        /* the dialog stays open with the message, to change a choice or
         * the path */
        for (size_t i = 0; i < j->err.entry_count; i++)
            pv_buf_printf(&text, "%s%s", i ? "; " : "", j->err.entries[i].text);
        pv_app_export_viewer_words(&text);
        pv_buf_clear(&a->exp.error);
        pv_buf_printf(&a->exp.error, "export failed: %s",
                      j->err.entry_count ? pv_buf_cstr(&text) : "?");
        a->ov.kind = PV_OVERLAY_EXPORT;
        a->exp.field = PV_EXP_F_PATH;
        pv_app_export_describe(a);
    }
    pv_buf_free(&text);
}

/* The call, run to its end (cancelled first when `cancel`), its thread
 * gone. */
static void pv_export_job_end(pv_app *a, pv_export_job *j, bool cancel)
{
    if (cancel)
        atomic_store(&j->cancel, 1);
    pv_worker_free(j->w);
    j->w = NULL;
    a->exp.running = false;
}

static bool pv_export_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    pv_export_job *j = (pv_export_job *)job;
    if (!j->w) {
        a->exp.running = true;
        a->exp.done = a->exp.total = 0;
        a->exp.start = pv_clock_now();
        a->exp.stage[0] = '\0';
        j->w = pv_worker_new(pv_export_job_call, j);
    }
    bool done = pv_worker_step(j->w, b);
    snprintf(a->exp.stage, sizeof a->exp.stage, "%s", j->stage);
    a->exp.done = j->done;
    a->exp.total = j->total;
    if (!done)
        return false;
    pv_export_job_end(a, j, false);
    pv_export_job_done(a, j);
    return true;
}

/* Esc, Ctrl-C (pv_jobs_stop): the export is cancelled, nothing written. */
static void pv_export_job_stop(pv_app *a, pv_job *job, bool say)
{
    pv_export_job *j = (pv_export_job *)job;
    if (j->w) {
        pv_export_job_end(a, j, true);
        if (say || j->st == PV_EXPORT_OK)
            pv_export_job_done(a, j); /* (finished before it saw the cancel: said) */
    } else if (say) {
        pv_buf text;
        pv_buf_init(&text);
        pv_buf_printf(&text, "export cancelled: nothing written to %s", j->path);
        pv_app_export_say(a, false, pv_buf_cstr(&text));
        pv_buf_free(&text);
    }
}

static void pv_export_job_free(pv_job *job)
{
    pv_export_job *j = (pv_export_job *)job;
    if (j->w) { /* freed without a stop (not by the engine) */
        atomic_store(&j->cancel, 1);
        pv_worker_free(j->w);
    }
    for (size_t i = 0; i < j->bm_count; i++) {
        free((char *)j->bm[i].view);
        free((char *)j->bm[i].note);
    }
    free(j->bm);
    free(j->rows);
    free(j->filter);
    free(j->view_id);
    free(j->context);
    free(j->areas);
    free(j->path);
    pv_buf_free(&j->describe);
    pv_diag_free(&j->err);
}

static const pv_job_ops pv_export_job_ops = {
    .keys = PV_JOB_KEYS_KEEP,
    .step = pv_export_job_step,
    .stop = pv_export_job_stop,
    .free = pv_export_job_free,
};

static char *pv_app_export_dup(const char *s)
{
    return s ? pv_xstrdup(s) : NULL;
}

/* The export of plan pl from item `item` to `path` as a job: it runs from
 * the next frame, on a copy of what it reads of the viewer. */
static void pv_app_export_job_start(pv_app *a, size_t item, const pv_file *f,
                                    const pv_export_plan *pl, const char *path, bool force)
{
    pv_export_job *j = (pv_export_job *)pv_job_new(sizeof *j, &pv_export_job_ops, PV_JOB_EXPORT);
    j->f = f;
    j->req = pl->req;
    if (pl->req.rows) {
        j->rows = pv_xmalloc((pl->req.row_count ? pl->req.row_count : 1) * sizeof *j->rows);
        memcpy(j->rows, pl->req.rows, pl->req.row_count * sizeof *j->rows);
        j->req.rows = j->rows;
    }
    j->req.filter = j->filter = pv_app_export_dup(pl->req.filter);
    j->req.view_id = j->view_id = pv_app_export_dup(pl->req.view_id);
    j->req.context = j->context = pv_app_export_dup(pl->req.context);
    j->req.areas = j->areas = pv_app_export_dup(pl->req.areas);
    j->path = pv_xstrdup(path);
    j->force = force;
    j->format = a->exp.format;
    pv_buf_init(&j->describe);
    pv_buf_append(&j->describe, pl->describe.data ? pl->describe.data : "", pl->describe.len);
    atomic_init(&j->cancel, 0);
    pv_diag_init(&j->err);
    j->req.progress.report = pv_export_job_progress;
    j->req.progress.user = j;
    j->req.progress.cancel = &j->cancel;
    j->req.trash = &a->trash; /* big blocks go back between key presses */
    /* the bookmarks of what is exported (docs/tui.md "Bookmarks") */
    size_t bm_set = j->req.instance >= 0 ? a->items[item].set : PV_NO_ROW;
    size_t n = pv_app_bookmarks_of(a, a->items[item].file, bm_set, NULL, 0);
    j->bm = pv_xcalloc(n ? n : 1, sizeof *j->bm);
    j->bm_count = pv_app_bookmarks_of(a, a->items[item].file, bm_set, j->bm, n);
    for (size_t i = 0; i < j->bm_count; i++) {
        j->bm[i].view = pv_app_export_dup(j->bm[i].view);
        j->bm[i].note = pv_app_export_dup(j->bm[i].note);
    }
    j->req.bookmarks = j->bm;
    j->req.bookmark_count = j->bm_count;
    pv_jobs_start(a, &j->base);
}

/* Exports from Explorer item `item` (the Report's, or the one a queued
 * export was asked from) what the dialog's choices say. */
static void pv_app_export_run(pv_app *a, size_t item, bool force)
{
    pv_export_plan pl;
    pv_buf_init(&pl.describe);
    pv_buf why;
    pv_buf_init(&why);
    pv_file *f;
    pv_result_set *set;
    pv_view *view;
    if (!pv_app_export_source_of(a, item, &f, &set, &view) ||
        !pv_app_export_plan(a, item, &pl, &why)) {
        /* the choices do not fit: said in the dialog, which stays open */
        pv_buf_clear(&a->exp.error);
        pv_buf_puts(&a->exp.error, why.len ? pv_buf_cstr(&why) : "nothing to export");
        a->ov.kind = PV_OVERLAY_EXPORT;
        pv_buf_free(&why);
        pv_app_export_plan_free(&pl);
        return;
    }
    pv_buf_free(&why);
    const char *path = pv_buf_cstr(&a->exp.path);
    struct stat st;
    if (!path[0]) {
        pv_buf_clear(&a->exp.error);
        pv_buf_puts(&a->exp.error, "no path: type the file to write");
        a->ov.kind = PV_OVERLAY_EXPORT;
        pv_app_export_plan_free(&pl);
        return;
    }
    if (!force && stat(path, &st) == 0) {
        /* ask, in the dialog */
        a->ov.kind = PV_OVERLAY_EXPORT;
        a->exp.confirm = true;
        pv_app_export_plan_free(&pl);
        return;
    }
    a->ov.kind = PV_OVERLAY_NONE;
    a->exp.confirm = false;
    pv_buf_clear(&a->exp.error);
    /* The export reads every row: while the file is indexed it waits for
     * the index, queued (docs/tui.md "Loading and indexing"). */
    pv_command_args *q = pv_app_command_queue(a, PV_JOB_EXPORT, a->items[item].file, path);
    if (q) {
        q->item = item;
        q->mode = a->exp.format;
        q->exp_what = a->exp.what;
        q->force = force;
        pv_app_export_plan_free(&pl);
        return;
    }
    pv_app_export_job_start(a, item, f, &pl, path, force);
    pv_app_export_plan_free(&pl);
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

/* ---- the dialog's keys: Up/Down choose the field, Left/Right the format
 * (Space, Left or Right turn a part on or off; move in the path), typing
 * edits the path, Tab completes it, Enter exports, Esc closes. */
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
        pv_buf_clear(&a->exp.error);
        return;
    }
    if (key == PV_KEY_ENTER) {
        pv_app_export_run(a, a->loc.item, false);
        return;
    }
    if (key == PV_KEY_UP) {
        a->exp.field = (a->exp.field + PV_EXP_F_COUNT - 1) % PV_EXP_F_COUNT;
        return;
    }
    if (key == PV_KEY_DOWN) {
        a->exp.field = (a->exp.field + 1) % PV_EXP_F_COUNT;
        return;
    }
    if (a->exp.field != PV_EXP_F_PATH) {
        int d = key == PV_KEY_LEFT ? -1 : (key == PV_KEY_RIGHT || key == ' ') ? 1 : 0;
        if (!d)
            return;
        pv_buf_clear(&a->exp.error);
        if (a->exp.field == PV_EXP_F_FORMAT) {
            int old = a->exp.format;
            int at = 0;
            while (at < PV_EXPORT_FORMAT_COUNT - 1 && pv_export_format_order[at] != old)
                at++;
            a->exp.format = pv_export_format_order[(at + PV_EXPORT_FORMAT_COUNT + d) %
                                                   PV_EXPORT_FORMAT_COUNT];
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
            int part = a->exp.field - PV_EXP_F_FILTER;
            pv_export_parts p;
            if (!pv_app_export_parts(a, a->loc.item, &p) || !p.has[part]) {
                pv_buf_puts(&a->exp.error, "that is not there to choose (see its line)");
                return;
            }
            a->exp.what ^= 1 << part;
        }
        pv_app_export_describe(a);
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

/* ---- the dialog on screen */

/* One part's line: "[x] what", "[ ] what", or " -  why it is not there". */
static void pv_app_export_part_line(pv_app *a, const pv_export_parts *p, int part, pv_buf *out)
{
    static const char *const titles[PV_EXPORT_PART_COUNT] = {"Filter", "Window", "Context",
                                                             "Area", "View"};
    pv_buf_printf(out, " %-8s", titles[part]);
    if (!p->has[part]) {
        static const char *const why[PV_EXPORT_PART_COUNT] = {
            " -  no filter in force (f)",
            " -  set markers A and B on times (m, M)",
            " -  the selected row has no context or thread",
            " -  the selected row is not of an area",
            " -  a detail view's rows go with the whole result set",
        };
        pv_buf_puts(out, why[part]);
        return;
    }
    if (part == PV_EXPORT_PART_VIEW && a->exp.format == PV_EXPORT_TRACE_JSON) {
        pv_buf_puts(out, " -  the call trace (trace-json writes the calls)");
        return;
    }
    if (part == PV_EXPORT_PART_VIEW && a->exp.format != PV_EXPORT_SQLITE) {
        pv_buf_puts(out, " -  the timeline's events (Text1 and BIN hold the timeline)");
        return;
    }
    pv_buf_puts(out, pv_app_export_on(a, part) ? "[x] " : "[ ] ");
    char lo[32], hi[32];
    switch (part) {
    case PV_EXPORT_PART_FILTER: pv_buf_puts(out, p->r->filter); break;
    case PV_EXPORT_PART_WINDOW:
        pv_format_time_human(p->lo, a->unit, lo, sizeof lo);
        pv_format_time_human(p->hi, a->unit, hi, sizeof hi);
        pv_buf_printf(out, "between markers A and B (%s .. %s)", lo, hi);
        break;
    case PV_EXPORT_PART_CONTEXT: pv_buf_printf(out, "%s (the selected row's)", p->context); break;
    case PV_EXPORT_PART_AREA: pv_buf_printf(out, "%s (the selected row's)", p->area); break;
    default:
        pv_buf_printf(out, "only this view (%s); off: the whole result set", p->view->id);
        break;
    }
}

/* The export dialog, over the panes (pv_panel_export.draw; screen.c draws it last). */
static void pv_export_draw(pv_app *a, pv_rect rc)
{
    pv_export_parts p;
    bool have = pv_app_export_parts(a, a->loc.item, &p);
    int w = rc.w < 100 ? rc.w : 100;
    /* the summary and a message, wrapped to the box */
    size_t inner = w > 4 ? (size_t)w - 4 : 1;
    pv_buf summary, error;
    pv_buf_init(&summary);
    pv_buf_init(&error);
    pv_app_export_wrap(pv_buf_cstr(&a->exp.summary), inner, a->utf8, &summary);
    if (a->exp.confirm) {
        pv_buf msg;
        pv_buf_init(&msg);
        pv_buf_printf(&msg, "%s exists: Enter (or y) replaces it, Esc keeps it",
                      pv_buf_cstr(&a->exp.path));
        pv_app_export_wrap(pv_buf_cstr(&msg), inner, a->utf8, &error);
        pv_buf_free(&msg);
    } else if (a->exp.error.len &&
               !(a->exp.summary_bad && strstr(pv_buf_cstr(&a->exp.summary), pv_buf_cstr(&a->exp.error)))) {
        pv_app_export_wrap(pv_buf_cstr(&a->exp.error), inner, a->utf8, &error);
    }
    int sum_lines = 1, err_lines = error.len ? 1 : 0;
    for (size_t i = 0; i < summary.len; i++)
        sum_lines += summary.data[i] == '\n';
    for (size_t i = 0; i < error.len; i++)
        err_lines += error.data[i] == '\n';
    /* the title, the fields, a blank, the summary, a message, the keys, a blank */
    int h = 1 + PV_EXP_F_COUNT + 1 + sum_lines + err_lines + 1 + 1;
    if (h > rc.h)
        h = rc.h;
    pv_rect box = {rc.y + (rc.h - h) / 3, rc.x + (rc.w - w) / 2, w, h};
    pv_grid_fill(&a->grid, box.y, box.x, box.w, box.h, PV_ROLE_NORMAL);
    pv_app_title(a, box.y, box.x, box.w, "Export (Enter exports, Esc closes)", true);
    int y = box.y + 1, bottom = box.y + box.h - 2; /* the keys' line */
    pv_buf line;
    pv_buf_init(&line);
    a->cursor_on = false;
    for (int f = 0; f < PV_EXP_F_COUNT && y < bottom; f++, y++) {
        pv_buf_clear(&line);
        pv_role role = PV_ROLE_NORMAL;
        if (f == PV_EXP_F_FORMAT) {
            pv_buf_puts(&line, " Format  ");
            for (int k = 0; k < PV_EXPORT_FORMAT_COUNT; k++) {
                int i = pv_export_format_order[k];
                pv_buf_printf(&line, i == a->exp.format ? "[%s] " : " %s  ",
                              pv_export_format_titles[i]);
            }
        } else if (f == PV_EXP_F_PATH) {
            pv_buf_puts(&line, " Path    ");
        } else if (have) {
            int part = f - PV_EXP_F_FILTER;
            pv_app_export_part_line(a, &p, part, &line);
            if (!p.has[part] || (part == PV_EXPORT_PART_VIEW && a->exp.format != PV_EXPORT_SQLITE))
                role = PV_ROLE_DIM;
        }
        pv_grid_str(&a->grid, y, box.x + 1, box.w - 2, pv_buf_cstr(&line), role);
        if (f == PV_EXP_F_PATH) {
            int x = box.x + 10;
            int room = box.x + box.w - 1 - x;
            pv_grid_text(&a->grid, y, x, room, a->exp.path.data ? a->exp.path.data : "",
                         a->exp.path.len, PV_ROLE_PROMPT);
            if (a->exp.field == PV_EXP_F_PATH && !a->exp.confirm) {
                a->cursor_on = true;
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
    /* what will be written, then a question or an error */
    const pv_buf *blocks[2] = {&summary, &error};
    for (int b = 0; b < 2; b++) {
        const char *s = blocks[b]->data ? blocks[b]->data : "";
        pv_role role = b == 1 || a->exp.summary_bad ? PV_ROLE_ERROR : PV_ROLE_NORMAL;
        while (blocks[b]->len && y < bottom) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            pv_grid_text(&a->grid, y++, box.x + 2, box.w - 4, s, n, role);
            if (!e)
                break;
            s = e + 1;
        }
    }
    if (y <= bottom)
        pv_grid_str(&a->grid, y, box.x + 1, box.w - 2,
                    " Up/Down field  Space/Left/Right choose  Tab completes the path",
                    PV_ROLE_DIM);
    pv_buf_free(&line);
    pv_buf_free(&summary);
    pv_buf_free(&error);
}

/* :export FORMAT PATH - what is active (the dialog's preselection), without
 * the dialog. */
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
        pv_app_message(a, true,
                       ":export text1|bin|sqlite|trace-json PATH (e opens the export dialog)");
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
    if (a->ov.kind == PV_OVERLAY_EXPORT)
        pv_app_export_describe(a); /* it asks, or says why not: in the dialog */
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

/* The status bar while the export runs. */
static bool pv_export_dialog_status(pv_app *a, pv_buf *s)
{
    if (!a->exp.running)
        return false;
    double elapsed = pv_clock_now() - a->exp.start;
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
