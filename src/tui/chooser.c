/* chooser.c - the column chooser and the sort chooser (panel.h): a list
 * of the focused report's columns over its pane. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"

static void pv_chooser_draw(pv_app *a, pv_rect rc)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    size_t n = r->view->column_count;
    int w = 48 < rc.w ? 48 : rc.w;
    int h = (int)n + 2 < rc.h ? (int)n + 2 : rc.h;
    pv_rect box = {rc.y, rc.x + (rc.w - w) / 2, w, h};
    pv_app_box(a, box,
               a->ov.kind == PV_OVERLAY_COLUMNS ? "Columns (Space toggles, Enter closes)"
                                                : "Sort by (Enter sorts, Esc)");
    int rows = box.h - 2;
    if (a->ov.cursor < a->ov.top)
        a->ov.top = a->ov.cursor;
    if (rows > 0 && a->ov.cursor >= a->ov.top + (size_t)rows)
        a->ov.top = a->ov.cursor - (size_t)rows + 1;
    for (int i = 0; i < rows; i++) {
        size_t c = a->ov.top + (size_t)i;
        if (c >= n)
            break;
        pv_buf line;
        pv_buf_init(&line);
        if (a->ov.kind == PV_OVERLAY_COLUMNS)
            pv_buf_printf(&line, "[%c] %-20s %s", r->hidden[c] ? ' ' : 'x',
                          r->view->columns[c].id, r->view->columns[c].title);
        else
            pv_buf_printf(&line, "%c %-20s %s",
                          r->sort_count && r->sort[0].column == c ? '*' : ' ',
                          r->view->columns[c].id, r->view->columns[c].title);
        pv_grid_str(&a->grid, box.y + 1 + i, box.x + 1, box.w - 2, pv_buf_cstr(&line),
                    PV_ROLE_NORMAL);
        pv_buf_free(&line);
        if (c == a->ov.cursor)
            pv_grid_paint(&a->grid, box.y + 1 + i, box.x + 1, box.w - 2, PV_ROLE_SELECTED);
    }
}

static void pv_chooser_key(pv_app *a, int key)
{
    pv_action act = pv_keymap_lookup(&a->cfg.keys, key);
    pv_report *r = pv_app_focused_report(a);
    if (!r) {
        a->ov.kind = PV_OVERLAY_NONE;
        return;
    }
    size_t n = r->view->column_count;
    if (act == PV_ACT_DOWN && a->ov.cursor + 1 < n) {
        a->ov.cursor++;
    } else if (act == PV_ACT_UP && a->ov.cursor > 0) {
        a->ov.cursor--;
    } else if (act == PV_ACT_FIRST) {
        a->ov.cursor = 0;
    } else if (act == PV_ACT_LAST) {
        a->ov.cursor = n ? n - 1 : 0;
    } else if (a->ov.kind == PV_OVERLAY_COLUMNS && (key == ' ' || act == PV_ACT_TOGGLE)) {
        size_t shown[PV_MAX_SHOWN];
        bool last = !r->hidden[a->ov.cursor] && pv_report_shown(r, shown, PV_MAX_SHOWN) == 1;
        if (!last)
            r->hidden[a->ov.cursor] = !r->hidden[a->ov.cursor];
    } else if (a->ov.kind == PV_OVERLAY_SORT && key == PV_KEY_ENTER) {
        a->ov.kind = PV_OVERLAY_NONE;
        pv_app_sort_by(a, r, a->ov.cursor, true);
    } else if (key == PV_KEY_ENTER || key == PV_KEY_ESC || act == PV_ACT_QUIT ||
               (a->ov.kind == PV_OVERLAY_COLUMNS && act == PV_ACT_COLUMNS)) {
        a->ov.kind = PV_OVERLAY_NONE;
    }
}

const pv_panel pv_panel_chooser = {
    .name = "Columns",
    .draw = pv_chooser_draw,
    .key = pv_chooser_key,
};
