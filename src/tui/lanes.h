/* lanes.h - the lane strip (lanes.c, docs/tui.md "Lane strip"):
 * its state and what other files ask of it.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_LANES_H
#define PROFVIEW_TUI_LANES_H

#include "tui/app.h"
#include "tui/keymap.h"
#include "tui/report.h"

#define PV_LANE_PINS 8 /* pinned area lanes at most (the oldest goes) */

/* The lane strip (lanes.c, docs/tui.md "Lane strip"): the areas pinned in
 * one view, the zoomed span of one view, where the lanes were drawn (for
 * the mouse). */
typedef struct pv_lanes_state {
    const pv_view *view;
    uint64_t pin[PV_LANE_PINS];
    size_t pins;
    bool zoomed;
    const pv_view *zoom_view;
    int64_t t0, t1;    /* the zoomed span, both ends shown */
    size_t cursor_row; /* the selected row when the span last followed it */
    pv_rect rect;      /* the lanes' cells, empty when none drawn */
    int64_t view_t0, view_span;
} pv_lanes_state;

/* Rows the strip takes under the Report (0: no strip). */
int pv_lanes_height(const pv_app *a, const pv_report *r);
/* Rows the strip takes under a Report body of body_h lines (docs/tui.md
 * "Layout"): all of them when the events keep PV_REPORT_ROWS_MIN rows,
 * else fewer lanes (title, at least one lane, the axis) as long as they
 * keep 5; 0: no strip. */
int pv_lanes_fit(const pv_app *a, const pv_report *r, int body_h);
void pv_lanes_draw(pv_app *a, const pv_report *r, pv_rect rc, bool focused);
/* Lane keys (zoom, pan, fit, A..B, pin, calls); false: not a lane key here. */
bool pv_lanes_key(pv_app *a, pv_action act);
bool pv_lanes_mouse(pv_app *a, int y, int x, int button);
/* :goto longest / shortest; false: another :goto. */
bool pv_lanes_goto(pv_app *a, pv_report *r, const char *arg);
/* Pins `area` in view v (toggle: unpin when pinned, and say so). */
bool pv_lanes_pin_area(pv_app *a, const pv_view *v, uint64_t area, bool toggle);
/* Pinned lanes still being built (docs/tui.md "Lane strip"): a job
 * beside the one job builds them between key presses (jobs.h).
 * pv_lanes_build_text writes "lane NAME 42%" (empty when none);
 * pv_lanes_build_stop stops the job and unpins them (Ctrl-C), true when
 * there were. */
bool pv_lanes_building(const pv_app *a);
void pv_lanes_build_text(const pv_app *a, char *out, size_t size);
bool pv_lanes_build_stop(pv_app *a);
/* An activity cell's character and a sparkline level (unit tests). */
uint32_t pv_lanes_activity_char(bool fancy, int64_t active, int64_t suspended, int64_t bucket);
/* The colour of lane `lane` (lane-1 .. lane-6, cycled), and of a cell of a
 * PV_COL_LANE column in row `row` (`role` when the row shows no lane). */
pv_role pv_lanes_role(size_t lane);
pv_role pv_lanes_row_role(const pv_view *v, size_t row, pv_role role);
int pv_lanes_level(double value, double lo, double hi);

#endif
