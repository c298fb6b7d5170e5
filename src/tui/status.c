/* status.c - the screen's own lines (panel.h): the status bar (what is
 * shown, where, what is in force; or the long work that runs) and the
 * message box over it.  The bar keeps what matters when it is narrow:
 * its parts are shortened, then cut, then dropped in the order of their
 * priority, and the room left is given back in that order (docs/tui.md
 * "Status bar"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panel.h"

/* The status of long work that takes the whole bar: loading, an export,
 * a query; false when none runs. */
static bool pv_status_busy(pv_app *a, pv_buf *s)
{
    pthread_mutex_lock(&a->load.lock);
    bool busy = a->load.queue_next < a->load.queue_count;
    if (busy) {
        double elapsed = pv_clock_now() - a->load.start;
        pv_buf_printf(s, " Loading %s", pv_basename(a->load.queue[a->load.queue_next]));
        if (a->load.what.len)
            pv_buf_printf(s, ": %s", pv_buf_cstr(&a->load.what));
        if (a->load.units_total) {
            double frac = (double)a->load.units_done / (double)a->load.units_total;
            pv_buf_printf(s, " %3.0f%%", frac * 100);
            pv_text_rate(s, (double)a->load.units_done, (double)a->load.units_total, elapsed, "");
        }
        pv_buf_puts(s, "  (Ctrl-C cancels)");
    }
    pthread_mutex_unlock(&a->load.lock);
    if (busy)
        return true;
    if (pv_screen_status(a, s)) /* a panel's long work: an export */
        return true;
    if (a->sql.running) {
        pv_buf_printf(s, " Running the query: %.1f s, %.1f M rows read, %" PRIu64
                         " result rows  (Esc stops)",
                      pv_clock_now() - a->sql.start, (double)a->sql.visited / 1e6, a->sql.rows);
        return true;
    }
    return false;
}

/* The parts from the most important: what is shown (file, view) and
 * where (row), what is in force (filter, markers), then the rest; the
 * help hint last (docs/tui.md "Status bar"). */
static const int pv_status_priority[PV_STATUS_PARTS] = {
    PV_STATUS_FILE,    PV_STATUS_VIEW, PV_STATUS_ROW,      PV_STATUS_FILTER, PV_STATUS_MARKERS,
    PV_STATUS_INDEX,   PV_STATUS_SORT, PV_STATUS_WARNINGS, PV_STATUS_HINT,
};

static void pv_status_set(pv_status *st, int part, int cut, int min, size_t keep)
{
    st->part[part].cut = cut;
    st->part[part].min = min;
    st->part[part].keep = keep;
}

void pv_status_report(pv_app *a, const pv_report *r, pv_status *st)
{
    (void)a;
    size_t count = pv_report_count(r);
    pv_buf_puts(&st->part[PV_STATUS_VIEW].text, r->view->id);
    pv_status_set(st, PV_STATUS_VIEW, PV_CUT_END, 6, 0);
    pv_buf_printf(&st->part[PV_STATUS_ROW].text, "row %zu/%zu", count ? r->cursor + 1 : 0, count);
    pv_buf_printf(&st->part[PV_STATUS_ROW].brief, "%zu/%zu", count ? r->cursor + 1 : 0, count);
    if (r->filter[0]) {
        pv_status_part *p = &st->part[PV_STATUS_FILTER];
        pv_buf_printf(&p->text, "filter: %s (%zu)", r->filter, r->matched);
        pv_buf_printf(&p->brief, "f: %s (%zu)", r->filter, r->matched);
        char n[32];
        pv_status_set(st, PV_STATUS_FILTER, PV_CUT_END, 16, (size_t)snprintf(n, sizeof n, " (%zu)", r->matched));
    }
    if (r->sort_count) {
        pv_status_part *p = &st->part[PV_STATUS_SORT];
        pv_buf_puts(&p->text, "sort: ");
        pv_report_sort_text(r, &p->text);
        pv_report_sort_text(r, &p->brief);
        pv_status_set(st, PV_STATUS_SORT, PV_CUT_END, 6, 0);
    }
}

static void pv_status_markers(pv_app *a, pv_status_part *p)
{
    char t[2][48];
    for (int m = 0; m < 2; m++) {
        if (!a->mark.set[m])
            continue;
        if (a->mark.view[m])
            snprintf(t[m], sizeof t[m], "row %zu", a->mark.row[m] + 1);
        else
            pv_format_time_human(a->mark.at[m], a->unit, t[m], sizeof t[m]);
        pv_buf_printf(&p->text, "%s%c %s", p->text.len ? " " : "", m == 0 ? 'A' : 'B', t[m]);
        if (a->mark.view[m])
            pv_buf_printf(&p->brief, "%s%c%zu", p->brief.len ? " " : "", m == 0 ? 'A' : 'B',
                          a->mark.row[m] + 1);
    }
    if (a->mark.set[0] && a->mark.set[1] && !a->mark.view[0] && !a->mark.view[1]) {
        char d[48];
        /* exact: 1 999 769 ns reads 1.999 769 ms, not 1.999 ms (docs/tui.md "Times") */
        pv_format_time_exact(pv_sub_sat(a->mark.at[1], a->mark.at[0]), a->unit, d, sizeof d);
        pv_buf_printf(&p->text, " B-A %s", d);
        pv_buf_clear(&p->brief);
        pv_buf_printf(&p->brief, "B-A %s", d); /* the span: what the markers are for */
    } else if (!(a->mark.view[0] || a->mark.view[1])) {
        pv_buf_clear(&p->brief);
    }
    p->cut = -1;
}

/* The parts' texts (empty when there is nothing to say): the focused
 * pane's own state (its panel's `state`), the rest the screen's. */
static void pv_status_parts(pv_app *a, pv_status *st)
{
    pv_report *r = pv_app_report(a);
    pv_item *it = a->loc.item < a->item_count ? &a->items[a->loc.item] : NULL;
    pv_buf_puts(&st->part[PV_STATUS_FILE].text,
                it ? pv_basename(a->files[it->file]->path) : "profview");
    pv_status_set(st, PV_STATUS_FILE, PV_CUT_MIDDLE, 8, 0);
    const pv_panel *pane = pv_screen_pane(a->focus);
    if (!pane || !pane->state)
        pane = pv_screen_pane(PV_PANE_REPORT);
    if (pane->state)
        pane->state(a, st);
    else if (r)
        pv_status_report(a, r, st);
    char progress[128];
    pv_app_index_text(a, progress, sizeof progress);
    if (progress[0]) {
        pv_status_part *p = &st->part[PV_STATUS_INDEX];
        pv_buf_printf(&p->text, "%s%s", progress, a->index.stopped ? "" : " (Ctrl-C stops)");
        const char *pct = strchr(progress, '%');
        pv_buf_append(&p->brief, progress, pct ? (size_t)(pct - progress) + 1 : strlen(progress));
        pv_status_set(st, PV_STATUS_INDEX, PV_CUT_END, 8, 0);
    }
    size_t warnings = 0;
    for (size_t i = 0; i < a->file_count; i++)
        warnings += a->files[i]->diag.warnings + a->files[i]->diag.errors;
    if (warnings) {
        pv_buf_printf(&st->part[PV_STATUS_WARNINGS].text, "%zu warning%s", warnings,
                      warnings == 1 ? "" : "s");
    }
    pv_status_markers(a, &st->part[PV_STATUS_MARKERS]);
    /* the help hint: the first key of help */
    char help[32];
    pv_keymap_describe(&a->cfg.keys, PV_ACT_HELP, help, sizeof help);
    char *space = strchr(help, ' ');
    if (space)
        *space = '\0';
    pv_buf_printf(&st->part[PV_STATUS_HINT].text, "%s help", help);
}

static int pv_status_width(const pv_app *a, const pv_buf *b)
{
    return (int)pv_text_width(b->data ? b->data : "", b->len, a->utf8);
}

/* The columns of each part at least (its shorter form, cut to its
 * `min`) and at most (its whole text). */
static void pv_status_bounds(const pv_app *a, const pv_status_part *p, int *lo, int *hi)
{
    *hi = pv_status_width(a, &p->text);
    int brief = p->brief.len ? pv_status_width(a, &p->brief) : *hi;
    *lo = brief;
    if (p->cut >= 0) {
        int keep = (int)pv_text_width(
            (p->brief.len ? &p->brief : &p->text)->data +
                ((p->brief.len ? p->brief.len : p->text.len) - p->keep),
            p->keep, a->utf8);
        int min = p->min + keep + 1;
        *lo = min < brief ? min : brief;
    }
}

/* Part p in exactly `w` columns or fewer (w between its bounds). */
static void pv_status_form(pv_app *a, const pv_status_part *p, int w, pv_buf *out)
{
    pv_buf_clear(out);
    /* the whole text, cut when it may be and its label fits; else the
     * shorter form */
    const pv_buf *src = &p->text;
    int hi = pv_status_width(a, &p->text);
    if (hi > w && p->brief.len) {
        int label = hi - pv_status_width(a, &p->brief);
        int keep = (int)pv_text_width(p->text.data + p->text.len - p->keep, p->keep, a->utf8);
        if (p->cut < 0 || w < label + p->min + keep + 1)
            src = &p->brief;
    }
    pv_text_cut(out, src->data ? src->data : "", src->len, p->keep, w,
                p->cut >= 0 ? (pv_cut_mode)p->cut : PV_CUT_END, a->utf8, !a->ascii);
}

/* Fits the parts into `room` columns with `sep` columns between two:
 * the least important go while even their shortest forms do not fit;
 * then every part kept starts at its shortest and gets, in the order of
 * priority, as much as it can use of what is left.  Writes each part's
 * columns in w[] (0: dropped). */
static void pv_status_fit(const pv_app *a, const pv_status *st, int room, int sep,
                          int w[PV_STATUS_PARTS])
{
    int lo[PV_STATUS_PARTS], hi[PV_STATUS_PARTS];
    bool kept[PV_STATUS_PARTS];
    for (int i = 0; i < PV_STATUS_PARTS; i++) {
        kept[i] = st->part[i].text.len > 0;
        pv_status_bounds(a, &st->part[i], &lo[i], &hi[i]);
        w[i] = 0;
    }
    int need;
    for (int drop = PV_STATUS_PARTS - 1;; drop--) {
        need = 0;
        int parts = 0;
        for (int i = 0; i < PV_STATUS_PARTS; i++)
            if (kept[i]) {
                need += lo[i] + (parts ? sep : 0);
                parts++;
            }
        if (need <= room || parts <= 1 || drop < 0)
            break;
        while (drop >= 0 && !kept[pv_status_priority[drop]])
            drop--;
        if (drop >= 0)
            kept[pv_status_priority[drop]] = false;
    }
    int left = room - need;
    for (int k = 0; k < PV_STATUS_PARTS; k++) {
        int i = pv_status_priority[k];
        if (!kept[i])
            continue;
        w[i] = lo[i];
        int more = hi[i] - lo[i];
        if (more <= 0)
            continue;
        if (more > left && i != PV_STATUS_HINT && kept[PV_STATUS_HINT] &&
            more <= left + lo[PV_STATUS_HINT] + sep) {
            kept[PV_STATUS_HINT] = false; /* the hint gives way to a whole part */
            left += lo[PV_STATUS_HINT] + sep;
        }
        if (more <= left) {
            w[i] = hi[i];
            left -= more;
            continue;
        }
        /* not whole: cut to what is left, or its shorter form */
        const pv_status_part *p = &st->part[i];
        int brief = p->brief.len ? pv_status_width(a, &p->brief) : hi[i];
        more = p->cut >= 0 ? left : brief - lo[i] <= left ? brief - lo[i] : 0;
        if (more > 0) {
            w[i] += more;
            left -= more;
        }
    }
}

void pv_app_draw_status(pv_app *a, int y)
{
    pv_grid_fill(&a->grid, y, 0, a->width, 1, PV_ROLE_STATUS);
    pv_buf s;
    pv_buf_init(&s);
    if (pv_status_busy(a, &s)) {
        pv_grid_text(&a->grid, y, 0, a->width, s.data ? s.data : "", s.len, PV_ROLE_STATUS);
        pv_buf_free(&s);
        return;
    }
    const char *sep = a->ascii ? " | " : " \xe2\x94\x82 ";
    pv_status st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < PV_STATUS_PARTS; i++) {
        pv_buf_init(&st.part[i].text);
        pv_buf_init(&st.part[i].brief);
        st.part[i].cut = -1;
    }
    pv_status_parts(a, &st);
    int w[PV_STATUS_PARTS];
    /* a blank at each end; the hint is as far as a separator */
    pv_status_fit(a, &st, a->width - 2, 3, w);
    pv_buf_puts(&s, " ");
    pv_buf part;
    pv_buf_init(&part);
    bool first = true;
    for (int i = 0; i < PV_STATUS_HINT; i++) {
        if (!w[i])
            continue;
        pv_status_form(a, &st.part[i], w[i], &part);
        if (!first)
            pv_buf_puts(&s, sep);
        pv_buf_append(&s, part.data ? part.data : "", part.len);
        first = false;
    }
    pv_grid_text(&a->grid, y, 0, a->width, s.data ? s.data : "", s.len, PV_ROLE_STATUS);
    if (w[PV_STATUS_HINT]) {
        pv_status_form(a, &st.part[PV_STATUS_HINT], w[PV_STATUS_HINT], &part);
        int hw = pv_status_width(a, &part);
        pv_grid_text(&a->grid, y, a->width - hw - 1, hw, part.data, part.len, PV_ROLE_STATUS);
    }
    pv_buf_free(&part);
    for (int i = 0; i < PV_STATUS_PARTS; i++) {
        pv_buf_free(&st.part[i].text);
        pv_buf_free(&st.part[i].brief);
    }
    pv_buf_free(&s);
}

/* ---- the message */

/* The lines of the message, wrapped at blanks to the screen's width. */
static size_t pv_message_lines(const pv_app *a, pv_text_line *lines, size_t max)
{
    const char *m = a->message.data ? a->message.data : "";
    return pv_text_wrap(m, strlen(m), a->width, a->utf8, lines, max);
}

bool pv_app_message_fits_line(const pv_app *a)
{
    const char *m = a->message.data ? a->message.data : "";
    return !strchr(m, '\n') && (int)pv_text_width(m, strlen(m), a->utf8) <= a->width;
}

/* A message of several lines (a filter error with its caret, a bad
 * config, one longer than the screen: wrapped at blanks) stands above
 * the status bar until the next key.  While the prompt is open (it has
 * the last line), any message stands there: the completions of Tab. */
void pv_app_draw_message_box(pv_app *a, int bottom)
{
    if (!a->message.len || (!a->prompt.kind && pv_app_message_fits_line(a)))
        return;
    pv_text_line lines[64];
    size_t count = pv_message_lines(a, lines, 64);
    if (count > 64)
        count = 64;
    const char *m = pv_buf_cstr(&a->message);
    pv_role role = a->message_error ? PV_ROLE_ERROR : PV_ROLE_NORMAL;
    int y = bottom - (int)count + 1;
    for (size_t i = 0; i < count; i++, y++) {
        if (y < 0)
            continue;
        pv_grid_fill(&a->grid, y, 0, a->width, 1, role);
        pv_grid_text(&a->grid, y, 0, a->width, m + lines[i].off, lines[i].len, role);
    }
}
