/* details.h - the Details pane's state (details.c), and :stats
 * as it shows them.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_DETAILS_H
#define PROFVIEW_TUI_DETAILS_H

#include "tui/report.h"

/* The Details pane: the detail of the Report's selected row. */
typedef struct pv_details_state {
    pv_report rep;
    const pv_view *owner;
    size_t row, tab, tab_open;
    bool chosen; /* the user chose the tab: it stays (else the first with rows) */
    bool open;
    bool tried;   /* owner/row/tab_open say what was opened */
    bool waiting; /* the Details wait for the index */
    pv_buf why;   /* why the detail has nothing, when it said (a source file not found) */
    int height_adj;
    int tabs_y; /* where the tabs were drawn (for the mouse) */
    struct {
        int x, w;
    } tabs[32];
    size_t tab_count;
} pv_details_state;

/* :stats as the Details pane shows it (UI thread only; the request is the
 * loader's). */
typedef struct pv_range_state {
    bool show; /* :stats is on */
    bool failed;
    int64_t shown_lo, shown_hi; /* the range asked for last */
    pv_file *file;              /* the adopted window, with its report */
    bool rows;                  /* the markers are rows: shown_* are rows */
    pv_view *view;              /* ... and these their statistics (range_statistics) */
    pv_report rep;
    bool open;
} pv_range_state;

#endif
