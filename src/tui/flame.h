/* flame.h - the viewer's flame graph, icicle and sandwich (docs/flame.md),
 * drawn into the Report pane over the call tree of the Report's result set,
 * and the diff view (`:diff`, docs/diff.md).  Curses-free: it draws into the
 * app's grid like the other panes.  Part of the app: only app*.c and flame.c
 * include it. */
#ifndef PROFVIEW_TUI_FLAME_H
#define PROFVIEW_TUI_FLAME_H

#include "profview/flame.h"
#include "tui/keymap.h"

typedef struct pv_app pv_app;
typedef struct pv_rect pv_rect;

enum { PV_FLAME_OFF, PV_FLAME_FLAME, PV_FLAME_ICICLE, PV_FLAME_SANDWICH };

typedef struct pv_flame_ui {
    int mode;            /* PV_FLAME_* */
    int graph_mode;      /* flame or icicle: where W and Backspace return to */
    const pv_view *tree; /* the call tree (owned by its file) */
    char tree_file[256]; /* its file, for the title */
    pv_flame *fl;        /* the merged paths of the tree under the filter */
    pv_buf filter;       /* the filter the flame was built with (any length) */
    char problem[256];   /* why there is no graph (a filter that does not apply) */
    uint32_t zoom, sel;  /* nodes of fl */
    size_t top;          /* first level drawn (vertical scroll) */
    /* diff flame: B's merged paths; each node of fl with its node in B */
    pv_flame *fl_b;
    uint32_t *in_b;
    char b_name[256];
    /* sandwich */
    pv_sandwich sw;
    bool sw_valid;
    bool sw_callers;     /* the selection is in the callers (else the callees) */
    uint32_t sw_sel;
    char sw_name[256];
    int pending_mode;    /* a big tree: the mode to show once pv_app_work built it */
} pv_flame_ui;

/* Opens the flame graph (or icicle, or the sandwich of the selected
 * routine) of the focused Report's call tree.  Says why not otherwise. */
void pv_flame_ui_open(pv_app *a, int mode);
void pv_flame_ui_close(pv_app *a);
/* PV_WORK_FLAME: merges the big call tree that pv_flame_ui_open deferred. */
void pv_flame_ui_build_now(pv_app *a);
/* Keys while a graph is shown; true when the action was taken. */
bool pv_flame_ui_key(pv_app *a, pv_action act);
/* Draws the graph into the Report pane's rectangle, and the selected
 * frame's statistics into the Details pane's. */
void pv_flame_ui_draw(pv_app *a, const pv_rect *report, const pv_rect *details);
/* `:diff` with a graph shown: colour its frames by the change of their self
 * time against the same call tree of `other` (docs/flame.md). */
bool pv_flame_ui_diff(pv_app *a, const pv_view *other_tree, const char *name);

/* `:diff FILE` (loaded in the background, compared when it arrives), `:diff N`
 * (result set N of the same file), `:diff off`: the Report's view against
 * the view of the same id there, shown as the Report until q; with a graph
 * shown, its frames coloured by the change of their self time. */
void pv_app_diff_command(pv_app *a, const char *arg);
/* A loaded file arrives: the pending `:diff FILE` runs. */
void pv_app_diff_adopted(pv_app *a, const pv_file *f);
void pv_app_diff_close(pv_app *a);

#endif
