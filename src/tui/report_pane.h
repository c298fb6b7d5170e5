/* report_pane.h - the Report pane's own state (report_pane.c).
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_REPORT_PANE_H
#define PROFVIEW_TUI_REPORT_PANE_H

#include <stddef.h>

#include "tui/keymap.h"

/* Columns a report shows at most (pv_report_shown). */
#define PV_MAX_SHOWN 256

typedef struct pv_app pv_app;
/* The Report pane's keys (report_keys.c): act on the focused report (the
 * Details' when they have the focus); true when taken. */
bool pv_report_pane_action(pv_app *a, pv_action act);

/* The Report pane: where its header's columns were drawn (for the mouse). */
typedef struct pv_report_panel {
    int header_y;
    size_t header_count;
    struct {
        int x, w;
        size_t col;
    } header[PV_MAX_SHOWN];
} pv_report_panel;

#endif
