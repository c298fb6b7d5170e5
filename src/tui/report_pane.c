/* report_pane.c - the Report pane (panel.h): the view shown, as a table
 * (app_draw.c) with the lane strip under it (lanes.c), or the flame graph
 * (flame.c); its title says what was drilled into. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"

/* The view the drilled-down report came from, for its title. */
static const pv_view *pv_app_report_parent(const pv_app *a)
{
    if (a->loc.depth >= 2)
        return a->drill[a->loc.depth - 2].view;
    const pv_item *it = &a->items[a->loc.item];
    return pv_item_view(a, it);
}

/* "Callers of CRC_Calc (Routines)": the detail, the name of the row it was
 * opened for (its view's name column), the view that row is in. */
static void pv_app_drill_title(const pv_app *a, const pv_report *r, pv_buf *out)
{
    const pv_view *parent = pv_app_report_parent(a);
    size_t row = a->loc.chain[a->loc.depth - 1].row;
    size_t col = pv_view_name_column(parent);
    pv_buf_printf(out, "Report: %s", r->view->title);
    if (col != PV_NO_ROW && row < pv_view_rows(parent)) {
        pv_cell c;
        pv_view_cell(parent, row, col, &c);
        if (c.present) {
            pv_buf_puts(out, " of ");
            pv_cell_format_human(&c, a->unit, out);
        }
    }
    pv_buf_printf(out, " (%s)", parent->title);
}

static void pv_report_pane_draw(pv_app *a, pv_rect rc)
{
    bool focused = a->focus == PV_PANE_REPORT;
    if (a->flame.mode) {
        /* the graph draws the Details pane's body too (the frame's statistics) */
        pv_flame_ui_draw(a, &rc, &a->rect[PV_PANE_DETAILS]);
        return;
    }
    pv_report *r = pv_app_report(a);
    char title[256];
    if (r && a->loc.depth) {
        pv_buf t;
        pv_buf_init(&t);
        pv_app_drill_title(a, r, &t);
        pv_app_title(a, rc.y, rc.x, rc.w, pv_buf_cstr(&t), focused);
        pv_buf_free(&t);
    } else {
        snprintf(title, sizeof title, "Report%s%s", r ? ": " : "", r ? r->view->title : "");
        pv_app_title(a, rc.y, rc.x, rc.w, title, focused);
    }
    pv_rect body = {rc.y + 1, rc.x, rc.w, rc.h - 1};
    if (!r) {
        char text[256] = "";
        const pv_item *it = a->loc.item < a->item_count ? &a->items[a->loc.item] : NULL;
        if (it && it->kind == PV_ITEM_VIEW && !a->loc.depth) {
            snprintf(title, sizeof title, "Report: %s", pv_item_view(a, it)->title);
            pv_app_title(a, rc.y, rc.x, rc.w, title, focused);
            double pct;
            if (pv_app_opening(a, &pct)) {
                snprintf(text, sizeof text, "Opening the view: %.0f%% (Esc goes back)", pct);
            } else if (a->open_stopped == a->loc.item) {
                snprintf(text, sizeof text, "Opening stopped: Enter opens the view");
            } else {
                char progress[128];
                pv_app_index_text(a, progress, sizeof progress);
                snprintf(text, sizeof text, "This view needs the whole index: %s", progress);
            }
        }
        if (body.h > 0)
            pv_grid_str(&a->grid, body.y, body.x, body.w,
                        text[0]          ? text
                        : a->file_count ? "Select a view in the Explorer"
                                        : "Loading...",
                        PV_ROLE_DIM);
        a->rp.header_count = 0;
        return;
    }
    int strip = pv_lanes_fit(a, r, body.h);
    body.h -= strip;
    a->lanes.rect = (pv_rect){0, 0, 0, 0};
    pv_app_draw_report(a, r, body, focused, PV_PANE_REPORT, true);
    if (strip) {
        pv_rect lr = {body.y + body.h, body.x, body.w, strip};
        pv_lanes_draw(a, r, lr, focused);
    }
}

static bool pv_report_pane_mouse(pv_app *a, pv_rect rc, int y, int x, int button)
{
    pv_report *r = pv_app_focused_report(a);
    if (button == 4 || button == 5) {
        pv_app_wheel(r, button);
        return true;
    }
    if (y == a->rp.header_y && r) {
        for (size_t h = 0; h < a->rp.header_count; h++)
            if (x >= a->rp.header[h].x && x <= a->rp.header[h].x + a->rp.header[h].w)
                pv_app_sort_by(a, r, a->rp.header[h].col, true);
        return true;
    }
    pv_app_click_rows(a, r, rc, PV_PANE_REPORT, y);
    return true;
}

/* The status bar: the view shown, its row, filter and sort. */
static void pv_report_pane_state(pv_app *a, pv_status *st)
{
    pv_report *r = pv_app_report(a);
    if (r)
        pv_status_report(a, r, st);
}

const pv_panel pv_panel_report = {
    .name = "Report",
    .draw = pv_report_pane_draw,
    .action = pv_report_pane_action, /* report_keys.c */
    .mouse = pv_report_pane_mouse,
    .state = pv_report_pane_state,
};
