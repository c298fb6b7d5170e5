/* panel.h - the viewer's screen as panels (docs/tui.md "The viewer's
 * design").
 *
 * A panel owns its state (its struct in its own header, explorer.h,
 * details.h, ..., embedded in pv_app by app_internal.h) and answers draw,
 * key, action, mouse and status.  The screen manager (screen.c) lays the
 * panels out, draws them, hands a click to the panel under it and an
 * action to the panels (pv_screen_action); app_input.c hands a key to the
 * panel that has the input (the prompt, an overlay) before that.  What
 * the panels share stays in pv_app (the open files and their items, where
 * we are, the focus, the message line).  Adding a panel: its file and its
 * header with its state, its member in pv_app, and its place in
 * screen.c's tables; no other panel changes.
 * Part of the viewer: only src/tui includes it. */
#ifndef PROFVIEW_TUI_PANEL_H
#define PROFVIEW_TUI_PANEL_H

#include "tui/app_internal.h"

/* The status bar's parts (status.c, docs/tui.md "Status bar"), in the
 * order drawn; which stay when the bar is narrow is their priority
 * (pv_status_priority). */
enum {
    PV_STATUS_FILE,
    PV_STATUS_VIEW,
    PV_STATUS_ROW,
    PV_STATUS_FILTER,
    PV_STATUS_SORT,
    PV_STATUS_INDEX,
    PV_STATUS_WARNINGS,
    PV_STATUS_MARKERS,
    PV_STATUS_HINT,
    PV_STATUS_PARTS
};
/* A part: its text, a shorter form (empty: none), and how the shorter
 * (else the whole) one may be cut: `cut` a pv_cut_mode or -1 (never), to
 * `min` columns at least, its last `keep` bytes kept ("(6)"). */
typedef struct pv_status_part {
    pv_buf text, brief;
    int cut, min;
    size_t keep;
} pv_status_part;
typedef struct pv_status {
    pv_status_part part[PV_STATUS_PARTS];
} pv_status;

typedef struct pv_panel {
    const char *name;
    /* Draws the panel into the grid, within rc. */
    void (*draw)(pv_app *a, pv_rect rc);
    /* A key while the panel has the input (an overlay, the prompt); NULL:
     * its keys are actions (actions.def), which `action` answers. */
    void (*key)(pv_app *a, int key);
    /* An action (actions.def) while the panel is shown (a pane: while it
     * has the focus), before the action table; true when taken.  NULL:
     * none. */
    bool (*action)(pv_app *a, pv_action act);
    /* A click or the wheel (button 4, 5) at y, x: a pane's inside rc (the
     * pane has the focus then); a part of the Report (the lanes, the
     * graph) where it lies.  True when taken.  NULL: none. */
    bool (*mouse)(pv_app *a, pv_rect rc, int y, int x, int button);
    /* The status bar's line while the panel's long work runs (an export);
     * false when it has none.  NULL: never. */
    bool (*status)(pv_app *a, pv_buf *out);
    /* The pane's own state in the status bar while it has the focus: its
     * view, row, filter, sort (PV_STATUS_VIEW...).  NULL: the Report's. */
    void (*state)(pv_app *a, pv_status *st);
    /* An overlay that searches itself (the help): the prompt's search
     * text (a->search) changed (how 0), Enter (1), Esc (-1).  NULL: the
     * prompt searches the focused report. */
    void (*search)(pv_app *a, int how);
} pv_panel;

/* The panes (PV_PANE_*) and the overlays (PV_OVERLAY_*). */
extern const pv_panel pv_panel_explorer; /* explorer.c */
extern const pv_panel pv_panel_report;   /* report_pane.c */
extern const pv_panel pv_panel_details;  /* details.c */
extern const pv_panel pv_panel_help;     /* help.c */
extern const pv_panel pv_panel_chooser;  /* chooser.c: columns and sort */
extern const pv_panel pv_panel_export;   /* app_export.c */
extern const pv_panel pv_panel_prompt;   /* prompt.c: its line (the last) */
/* Parts of the Report pane, drawn by it, that see clicks and actions
 * first: the lane strip, the flame graph (icicle, sandwich), the diff. */
extern const pv_panel pv_panel_lanes; /* lanes.c */
extern const pv_panel pv_panel_flame; /* flame.c */
extern const pv_panel pv_panel_diff;  /* diff.c */
/* screen.c: the pane of each PV_PANE_*, the overlay of each PV_OVERLAY_*. */
const pv_panel *pv_screen_pane(int pane);
const pv_panel *pv_screen_overlay(int overlay);
/* The status bar's line of the first panel whose long work runs; false:
 * none runs. */
bool pv_screen_status(pv_app *a, pv_buf *out);
/* The prompt's search, given to the overlay shown when it searches
 * itself (pv_panel.search); false: none does. */
bool pv_screen_overlay_search(pv_app *a, int how);
/* :messages: the session's messages in the help's pager (help.c). */
void pv_app_messages_open(pv_app *a);
/* An action for the parts of the Report (the graph, the diff), then the
 * focused pane, then the Report (the keys of the focused report), before
 * the action table; true when taken. */
bool pv_screen_action(pv_app *a, pv_action act);

/* The screen's own lines (status.c): the status bar at y, the message
 * box ending at line `bottom`; the message fits the prompt's line (one
 * line, not wider than the screen). */
void pv_app_draw_status(pv_app *a, int y);
void pv_app_draw_message_box(pv_app *a, int bottom);
bool pv_app_message_fits_line(const pv_app *a);
/* The parts of report r's state: its view, row, filter, sort (a pane's
 * `state`). */
void pv_status_report(pv_app *a, const pv_report *r, pv_status *st);
/* details.c: the detail of owner's row on its first tab that has rows
 * (the first tab when none has; *tab gets it): what the Details show
 * until a tab is chosen (docs/tui.md "Details"). */
pv_view *pv_details_open_first(const pv_view *owner, size_t row, size_t *tab, pv_buf *why);
/* explorer.c: its width on a screen W wide (the layout asks); moves its
 * cursor by delta and shows the item. */
int pv_app_explorer_width(const pv_app *a, int W);
void pv_app_explorer_move(pv_app *a, long delta);

/* ---- drawing that panels share (app_draw.c) */

uint32_t pv_app_glyph(const pv_app *a, uint32_t fancy, char plain);
/* A popup: a framed box, its inside cleared, the title in the top line. */
void pv_app_box(pv_app *a, pv_rect b, const char *title);
const char *pv_basename(const char *path);
/* Draws text cut to w cells (a mark where cut); returns the cells used. */
int pv_app_cut_text(pv_app *a, int y, int x, int w, const char *s, size_t len, pv_role role);
/* Draws report r as a table (header and the rows on screen) in rc;
 * page_rows[pane] learns its height; record_header: where the columns
 * were drawn, for the mouse (the Report pane). */
void pv_app_draw_report(pv_app *a, pv_report *r, pv_rect rc, bool focused, int pane,
                        bool record_header);
/* A click on the rows of report r drawn in rc (rows from rc.y + 2). */
void pv_app_click_rows(pv_app *a, pv_report *r, pv_rect rc, int pane, int y);
/* The wheel over a report: three rows a notch. */
void pv_app_wheel(pv_report *r, int button);

#endif
