/* screen.c - the screen manager (panel.h): lays the panes out (the
 * Explorer on the left, the Report over the Details; one pane when zoomed
 * or small), draws the panels, the overlays, the status bar, the message
 * box and the prompt's line, and hands a click to the panel under it. */
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"

static const pv_panel *const pv_panes[PV_PANE_COUNT] = {
    [PV_PANE_EXPLORER] = &pv_panel_explorer,
    [PV_PANE_REPORT] = &pv_panel_report,
    [PV_PANE_DETAILS] = &pv_panel_details,
};

static const pv_panel *const pv_overlays[] = {
    [PV_OVERLAY_HELP] = &pv_panel_help,
    [PV_OVERLAY_COLUMNS] = &pv_panel_chooser,
    [PV_OVERLAY_SORT] = &pv_panel_chooser,
    [PV_OVERLAY_EXPORT] = &pv_panel_export,
    [PV_OVERLAY_MESSAGES] = &pv_panel_help,
};

/* The parts of the Report that see clicks, then actions, first. */
static const pv_panel *const pv_layers[] = {&pv_panel_lanes, &pv_panel_flame, &pv_panel_diff};

const pv_panel *pv_screen_pane(int pane)
{
    return pane >= 0 && pane < PV_PANE_COUNT ? pv_panes[pane] : NULL;
}

const pv_panel *pv_screen_overlay(int overlay)
{
    return overlay > 0 && (size_t)overlay < PV_ARRAY_LEN(pv_overlays) ? pv_overlays[overlay]
                                                                        : NULL;
}

bool pv_screen_status(pv_app *a, pv_buf *out)
{
    for (int p = 0; p < PV_PANE_COUNT; p++)
        if (pv_panes[p]->status && pv_panes[p]->status(a, out))
            return true;
    for (size_t o = 1; o < PV_ARRAY_LEN(pv_overlays); o++)
        if (pv_overlays[o] && pv_overlays[o]->status && pv_overlays[o]->status(a, out))
            return true;
    return false;
}

bool pv_screen_overlay_search(pv_app *a, int how)
{
    const pv_panel *ov = pv_screen_overlay(a->ov.kind);
    if (!ov || !ov->search)
        return false;
    ov->search(a, how);
    return true;
}

bool pv_screen_action(pv_app *a, pv_action act)
{
    for (size_t l = 0; l < PV_ARRAY_LEN(pv_layers); l++)
        if (pv_layers[l]->action && pv_layers[l]->action(a, act))
            return true;
    const pv_panel *pane = pv_screen_pane(a->focus);
    if (pane && pane->action && pane->action(a, act))
        return true;
    /* What the Explorer and the Details do not take acts on the focused
     * report: the Report's keys (report_keys.c). */
    const pv_panel *report = pv_panes[PV_PANE_REPORT];
    return pane != report && report->action && report->action(a, act);
}

/* The panes' places (a->rect; zero: not shown) in the main area. */
static void pv_screen_layout(pv_app *a, int W, int main_h)
{
    memset(a->rect, 0, sizeof a->rect);
    /* Below 60 columns or 12 lines only the focused pane is shown. */
    bool single = a->zoom || W < 60 || main_h < 12;
    if (single) {
        a->rect[a->focus] = (pv_rect){0, 0, W, main_h};
        return;
    }
    int ew = pv_app_explorer_width(a, W);
    /* The Details take a third of the height, a quarter under a Report
     * with a lane strip below 30 lines (< and > change it).  Under a
     * Report with a lane strip the events come first (docs/tui.md
     * "Layout"): unless the Details have the focus, they give the Report
     * room for its title, header, PV_REPORT_ROWS_MIN rows and its whole
     * strip, down to 3 lines (title, header, a row), else they fold to
     * their title line (the tabs; Tab to them unfolds them). */
    pv_report *shown_r = a->flame.mode ? NULL : pv_app_report(a);
    int strip = shown_r ? pv_lanes_height(a, shown_r) : 0;
    int dh = (strip && main_h < 30 ? main_h / 4 : main_h / 3) + a->det.height_adj;
    if (dh < 4)
        dh = 4;
    if (dh > main_h - 5)
        dh = main_h - 5;
    if (strip && a->focus != PV_PANE_DETAILS) {
        int room = main_h - (2 + PV_REPORT_ROWS_MIN + strip);
        if (dh > room)
            dh = room >= 3 ? room : 1;
    }
    a->rect[PV_PANE_EXPLORER] = (pv_rect){0, 0, ew, main_h};
    a->rect[PV_PANE_REPORT] = (pv_rect){0, ew + 1, W - ew - 1, main_h - dh};
    a->rect[PV_PANE_DETAILS] = (pv_rect){main_h - dh, ew + 1, W - ew - 1, dh};
    for (int y = 0; y < main_h; y++)
        pv_grid_char(&a->grid, y, ew, pv_app_glyph(a, 0x2502, '|'), PV_ROLE_BORDER);
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
    pv_rect main = {0, 0, W, main_h};
    if (a->ov.kind == PV_OVERLAY_HELP || a->ov.kind == PV_OVERLAY_MESSAGES) { /* instead of the panes */
        memset(a->rect, 0, sizeof a->rect);
        pv_panel_help.draw(a, main);
    } else {
        pv_screen_layout(a, W, main_h);
        for (int p = 0; p < PV_PANE_COUNT; p++)
            if (a->rect[p].w)
                pv_panes[p]->draw(a, a->rect[p]);
        if (a->ov.kind == PV_OVERLAY_COLUMNS || a->ov.kind == PV_OVERLAY_SORT) /* over its pane */
            pv_panel_chooser.draw(a, a->rect[a->focus].w ? a->rect[a->focus] : main);
    }
    pv_app_draw_message_box(a, main_h - 1);
    pv_app_draw_status(a, H - 2);
    pv_panel_prompt.draw(a, (pv_rect){H - 1, 0, W, 1});
    if (a->ov.kind == PV_OVERLAY_EXPORT) { /* over everything */
        pv_panel_export.draw(a, main); /* it puts the cursor in its path */
    }
    return &a->grid;
}

static bool pv_in(pv_rect r, int y, int x)
{
    return r.w > 0 && y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

void pv_app_mouse(pv_app *a, int y, int x, int button)
{
    if (pv_jobs_keep(a, &(pv_job_input){.y = y, .x = x, .button = button}))
        return; /* answered when the job ends */
    pv_jobs_key(a, 0, true);
    if (a->prompt.kind || a->ov.kind)
        return;
    /* the lanes and the flame graph lie inside the Report pane */
    for (size_t l = 0; l < PV_ARRAY_LEN(pv_layers); l++)
        if (pv_layers[l]->mouse && pv_layers[l]->mouse(a, a->rect[PV_PANE_REPORT], y, x, button))
            return;
    for (int p = 0; p < PV_PANE_COUNT; p++) {
        if (!pv_in(a->rect[p], y, x))
            continue;
        a->focus = p;
        if (pv_panes[p]->mouse)
            pv_panes[p]->mouse(a, a->rect[p], y, x, button);
        return;
    }
}
