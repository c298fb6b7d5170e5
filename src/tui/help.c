/* help.c - the help overlay (panel.h): the keys (actions.def), the
 * commands (commands.def), the legend of the timeline's event letters. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "profview/hooks.h"
#include "tui/panel.h"

/* The help's lines: the keys (actions.def), a blank, the commands
 * (commands.def), a blank, the legend of the timeline's event letters. */
enum { PV_HELP_LEGEND_LINES = 3 };
static size_t pv_help_lines(void)
{
    return PV_ACT_COUNT + 2 + pv_command_count + PV_HELP_LEGEND_LINES;
}

static void pv_app_draw_help_line(pv_app *a, size_t k, int y, pv_rect rc)
{
    size_t commands = PV_ACT_COUNT + 2;
    size_t legend = commands + pv_command_count + 1;
    if (k < PV_ACT_COUNT) {
        char keys[64];
        pv_keymap_describe(&a->cfg.keys, (pv_action)k, keys, sizeof keys);
        pv_grid_str(&a->grid, y, rc.x + 1, 18, keys, PV_ROLE_HELP_KEY);
        pv_grid_str(&a->grid, y, rc.x + 20, 14, pv_action_name((pv_action)k), PV_ROLE_NORMAL);
        pv_grid_str(&a->grid, y, rc.x + 35, rc.w - 35, pv_action_help((pv_action)k),
                    PV_ROLE_NORMAL);
    } else if (k == commands - 1) {
        pv_grid_str(&a->grid, y, rc.x + 1, rc.w - 1, "Commands (:)", PV_ROLE_TITLE);
    } else if (k >= commands && k < commands + pv_command_count) {
        /* :name ARGS, help (and aliases), from commands.def. */
        const pv_command *c = &pv_commands[k - commands];
        char usage[96];
        pv_command_usage(c, usage, sizeof usage);
        pv_grid_str(&a->grid, y, rc.x + 1, 1, ":", PV_ROLE_HELP_KEY);
        pv_grid_str(&a->grid, y, rc.x + 2, 30, usage, PV_ROLE_HELP_KEY);
        pv_buf help;
        pv_buf_init(&help);
        pv_buf_puts(&help, c->help);
        if (c->aliases[0])
            pv_buf_printf(&help, " (also :%s)", c->aliases);
        pv_grid_str(&a->grid, y, rc.x + 33, rc.w - 33, pv_buf_cstr(&help), PV_ROLE_NORMAL);
        pv_buf_free(&help);
    } else if (k == legend) {
        pv_grid_str(&a->grid, y, rc.x + 1, rc.w - 1, "Timeline events (the event column)",
                    PV_ROLE_TITLE);
    } else if (k == legend + 1) {
        pv_grid_str(&a->grid, y, rc.x + 1, rc.w - 1,
                    "E entry   X exit   S suspend   R resume   W write (a data area's value)",
                    PV_ROLE_NORMAL);
    }
}

static void pv_help_draw(pv_app *a, pv_rect rc)
{
    size_t total = pv_help_lines();
    int rows = rc.h - 1;
    a->page_rows[PV_PANE_REPORT] = rows > 1 ? rows : 1;
    if (rows > 0 && a->ov.top + (size_t)rows > total)
        a->ov.top = total > (size_t)rows ? total - (size_t)rows : 0;
    bool more = rows > 0 && a->ov.top + (size_t)rows < total;
    pv_app_title(a, rc.y, rc.x, rc.w,
                 more ? "Help: keys (q, Esc or ? closes; more below: j, PgDn, G)"
                      : "Help: keys (q, Esc or ? closes)",
                 true);
    for (int i = 0; i < rows; i++)
        pv_app_draw_help_line(a, a->ov.top + (size_t)i, rc.y + 1 + i, rc);
}

static void pv_help_key(pv_app *a, int key)
{
    pv_action act = pv_keymap_lookup(&a->cfg.keys, key);
    if (act == PV_ACT_DOWN)
        a->ov.top++;
    else if (act == PV_ACT_UP && a->ov.top)
        a->ov.top--;
    else if (act == PV_ACT_PAGE_DOWN)
        a->ov.top += (size_t)a->page_rows[PV_PANE_REPORT];
    else if (act == PV_ACT_PAGE_UP)
        a->ov.top = a->ov.top > (size_t)a->page_rows[PV_PANE_REPORT]
                        ? a->ov.top - (size_t)a->page_rows[PV_PANE_REPORT]
                        : 0;
    else if (act == PV_ACT_FIRST)
        a->ov.top = 0;
    else if (act == PV_ACT_LAST)
        a->ov.top = SIZE_MAX / 2; /* the drawing clamps it to the last page */
    else if (act == PV_ACT_QUIT || act == PV_ACT_HELP || key == PV_KEY_ESC || key == PV_KEY_ENTER)
        a->ov.kind = PV_OVERLAY_NONE;
}

const pv_panel pv_panel_help = {
    .name = "Help",
    .draw = pv_help_draw,
    .key = pv_help_key,
};
