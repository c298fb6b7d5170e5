/* details.c - the Details pane (panel.h): the detail tabs of the Report's
 * selected row (callers, callees, source...), or with :stats the
 * statistics between the markers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"

/* :stats: the statistics between the markers instead of the row's details. */
static void pv_app_draw_range(pv_app *a, pv_rect rc, bool focused)
{
    char lo[32], hi[32], title[96];
    if (a->range.rows) {
        snprintf(lo, sizeof lo, "row %" PRId64, a->range.shown_lo + 1);
        snprintf(hi, sizeof hi, "%" PRId64, a->range.shown_hi + 1);
    } else {
        pv_format_time_human(a->range.shown_lo, a->unit, lo, sizeof lo);
        pv_format_time_human(a->range.shown_hi, a->unit, hi, sizeof hi);
    }
    snprintf(title, sizeof title, "statistics %s..%s", lo, hi);
    int x = rc.x + 11;
    int w = (int)pv_text_width(title, strlen(title), a->utf8) + 2;
    if (x + w <= rc.x + rc.w) {
        pv_grid_fill(&a->grid, rc.y, x, w, 1, PV_ROLE_TAB_ACTIVE);
        pv_grid_char(&a->grid, rc.y, x, '[', PV_ROLE_TAB_ACTIVE);
        pv_grid_str(&a->grid, rc.y, x + 1, w - 2, title, PV_ROLE_TAB_ACTIVE);
        pv_grid_char(&a->grid, rc.y, x + w - 1, ']', PV_ROLE_TAB_ACTIVE);
    }
    pv_rect body = {rc.y + 1, rc.x, rc.w, rc.h - 1};
    if (body.h <= 0)
        return;
    if (a->range.open) {
        pv_app_draw_report(a, &a->range.rep, body, focused, PV_PANE_DETAILS, false);
    } else {
        char text[160];
        snprintf(text, sizeof text,
                 a->range.failed ? "no statistics for %s..%s (:stats off hides this)"
                                 : "computing statistics for %s..%s...",
                 lo, hi);
        pv_grid_str(&a->grid, body.y, body.x, body.w, text, PV_ROLE_DIM);
    }
}

static void pv_details_draw(pv_app *a, pv_rect rc)
{
    bool focused = a->focus == PV_PANE_DETAILS;
    pv_report *owner = pv_app_report(a);
    a->det.tab_count = 0;
    a->det.tabs_y = rc.y;
    pv_app_title(a, rc.y, rc.x, rc.w, "Details", focused);
    if (a->flame.mode)
        return; /* drawn with the graph */
    if (a->range.show) {
        pv_app_draw_range(a, rc, focused);
        return;
    }
    if (owner && owner->view->detail_count) {
        int x = rc.x + 11;
        for (size_t d = 0; d < owner->view->detail_count && d < 32; d++) {
            const char *t = owner->view->details[d].title;
            int w = (int)pv_text_width(t, strlen(t), a->utf8) + 2;
            if (x + w > rc.x + rc.w)
                break;
            pv_role role = d == a->det.tab ? PV_ROLE_TAB_ACTIVE : PV_ROLE_TAB;
            pv_grid_fill(&a->grid, rc.y, x, w, 1, role);
            pv_grid_char(&a->grid, rc.y, x, d == a->det.tab ? (uint32_t)'[' : ' ', role);
            pv_grid_str(&a->grid, rc.y, x + 1, w - 2, t, role);
            pv_grid_char(&a->grid, rc.y, x + w - 1, d == a->det.tab ? (uint32_t)']' : ' ', role);
            a->det.tabs[d].x = x;
            a->det.tabs[d].w = w;
            a->det.tab_count = d + 1;
            x += w + 1;
        }
    }
    pv_rect body = {rc.y + 1, rc.x, rc.w, rc.h - 1};
    if (body.h <= 0)
        return;
    if (a->det.open) {
        pv_app_draw_report(a, &a->det.rep, body, focused, PV_PANE_DETAILS, false);
    } else if (a->det.waiting) {
        char progress[128], text[256];
        pv_app_index_text(a, progress, sizeof progress);
        snprintf(text, sizeof text, "The details need the whole index: %s", progress);
        pv_grid_str(&a->grid, body.y, body.x, body.w, text, PV_ROLE_DIM);
    } else {
        /* a detail left out of an export for its size says so */
        const char *missing = owner && a->det.tab < owner->view->detail_count
                                  ? pv_view_detail_missing(owner->view, a->det.tab)
                                  : NULL;
        const char *why = !owner                           ? ""
                          : owner->view->detail_count == 0 ? "This view has no details"
                          : pv_report_count(owner) == 0    ? "No row selected"
                          : missing                        ? missing
                          : a->det.why.len                 ? pv_buf_cstr(&a->det.why)
                                                           : "Nothing of this kind for the selected row";
        pv_grid_str(&a->grid, body.y, body.x, body.w, why, PV_ROLE_DIM);
    }
}

static bool pv_details_mouse(pv_app *a, pv_rect rc, int y, int x, int button)
{
    pv_report *r = pv_app_focused_report(a);
    if (button == 4 || button == 5) {
        pv_app_wheel(r, button);
        return true;
    }
    if (y == a->det.tabs_y) {
        for (size_t t = 0; t < a->det.tab_count; t++)
            if (x >= a->det.tabs[t].x && x < a->det.tabs[t].x + a->det.tabs[t].w) {
                a->det.tab = t;
                a->det.chosen = true;
            }
        return true;
    }
    pv_app_click_rows(a, r, rc, PV_PANE_DETAILS, y);
    return true;
}

pv_view *pv_details_open_first(const pv_view *owner, size_t row, size_t *tab, pv_buf *why)
{
    pv_view *first = NULL;
    *tab = 0;
    for (size_t d = 0; d < owner->detail_count; d++) {
        /* the first tab's reason for having nothing: it is shown then */
        pv_view *v = d == 0 ? pv_view_open_detail_why(owner, d, row, why)
                            : pv_view_open_detail(owner, d, row);
        if (v && pv_view_rows(v)) {
            pv_view_free(first);
            *tab = d;
            if (d)
                pv_buf_clear(why);
            return v;
        }
        if (d == 0)
            first = v;
        else
            pv_view_free(v);
    }
    return first;
}

/* Left and Right: the previous and the next detail tab; Enter drills into
 * the detail's row.  The keys it does not take act on the focused report,
 * the Details' (the Report's keys, screen.c). */
static bool pv_details_action(pv_app *a, pv_action act)
{
    if (a->focus != PV_PANE_DETAILS)
        return false;
    if (act == PV_ACT_OPEN) {
        if (pv_app_open_again(a))
            return true;
        pv_report *owner = pv_app_report(a);
        if (a->range.show)
            return true; /* the range statistics have nothing to drill into */
        if (a->det.open && owner)
            pv_app_drill(a, a->det.tab, pv_report_selected(owner), pv_report_selected(&a->det.rep));
        return true;
    }
    if (act != PV_ACT_LEFT && act != PV_ACT_RIGHT)
        return false;
    pv_report *owner = pv_app_report(a);
    a->det.chosen = true; /* the tab stays while the rows change */
    if (act == PV_ACT_LEFT && a->det.tab > 0)
        a->det.tab--;
    else if (act == PV_ACT_RIGHT && owner && a->det.tab + 1 < owner->view->detail_count)
        a->det.tab++;
    return true;
}

/* The status bar: the Details' own list (its view, row, filter, sort),
 * or, when they are empty, the Report's (which then has their keys). */
static void pv_details_bar(pv_app *a, pv_status *st)
{
    pv_report *r = pv_app_focused_report(a);
    if (r)
        pv_status_report(a, r, st);
}

const pv_panel pv_panel_details = {
    .name = "Details",
    .draw = pv_details_draw,
    .action = pv_details_action,
    .mouse = pv_details_mouse,
    .state = pv_details_bar,
};
