/* flame.h - the viewer's flame graph, icicle and sandwich (docs/flame.md),
 * drawn into the Report pane over the call tree of the Report's result set,
 * and the diff view (`:diff`, docs/diff.md, in diff.c).  Curses-free: it
 * draws into the app's grid like the other panes.  Part of the app: only
 * the viewer's files include it. */
#ifndef PROFVIEW_TUI_FLAME_H
#define PROFVIEW_TUI_FLAME_H

#include "profview/flame.h"
#include "profview/query.h"
#include "tui/jobs.h"
#include "tui/keymap.h"

typedef struct pv_app pv_app;
typedef struct pv_rect pv_rect;

enum { PV_FLAME_OFF, PV_FLAME_FLAME, PV_FLAME_ICICLE, PV_FLAME_SANDWICH };

/* A graph being built in slices between key presses (docs/flame.md
 * "Speed"): the filter's pass over the call tree, then the merge; a job
 * beside the one job (jobs.h, PV_JOB_BUILD). */
typedef struct pv_flame_job {
    pv_job base;
    const pv_view *tree;
    char tree_file[256];
    pv_buf filter;        /* the filter's text */
    pv_filter *f;         /* compiled; NULL: every call */
    uint8_t *keep;        /* with f: the calls the filter keeps */
    pv_flame_builder *fb;
    size_t rows, next;    /* the tree's rows; the next row of this pass */
    size_t inner_rows;    /* frames inside the rows (winIDEA line areas) */
    int pass;             /* 0: the filter's, 1: the merge, 2: the frames inside */
    int mode;             /* what to show once built */
    char routine[256];    /* PV_FLAME_SANDWICH: its routine */
    bool rebuild;         /* the graph shown follows a new filter */
} pv_flame_job;

/* Where a graph was drawn (for the mouse): the frames of `fl` below `zoom`,
 * level `first` on line `base`, growing up or down. */
typedef struct pv_flame_hit {
    const pv_flame *fl;
    uint32_t zoom;
    int x0, w, y0, h, base;
    bool upwards;
    size_t first;
} pv_flame_hit;

typedef struct pv_flame_ui {
    int mode;            /* PV_FLAME_* */
    int graph_mode;      /* flame or icicle: where W and Backspace return to */
    bool sw_from_table;  /* the sandwich was opened from the table: q goes back there */
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
    pv_buf declined;     /* a filter whose rebuild Esc stopped: not tried again */
    bool declined_set;
    pv_flame_hit hit[2]; /* the graphs drawn last (the sandwich draws two) */
    int hit_count;
    int crumb_y;         /* the breadcrumb's line, -1 when none */
    /* the graph closed last (F again shows it at once) and what it was made of */
    pv_flame *kept;
    const pv_view *kept_tree;
    pv_buf kept_filter;
} pv_flame_ui;

/* Opens the flame graph (or icicle, or the sandwich of the selected
 * routine) of the focused Report's call tree.  Says why not otherwise. */
void pv_flame_ui_open(pv_app *a, int mode);
void pv_flame_ui_close(pv_app *a);
/* Closes it and frees the graph kept for showing it again (app teardown). */
void pv_flame_ui_free(pv_app *a);
/* Esc, Ctrl-C: stops a running build (pv_jobs_stop_beside), the screen
 * stays as it is; true when one ran. */
bool pv_flame_ui_stop(pv_app *a);
/* Keys while a graph is shown; true when the action was taken. */
bool pv_flame_ui_key(pv_app *a, pv_action act);
/* A mouse event in the Report pane while a graph is shown (button 1 =
 * click, 4/5 = wheel up/down): a click selects a frame, a click on the
 * selected frame zooms into it (in the sandwich: makes it the middle), a
 * click on the breadcrumb zooms out; the wheel moves the selection up and
 * down as k and j do.  False when no graph takes it. */
bool pv_flame_ui_mouse(pv_app *a, int y, int x, int button);
/* Draws the graph into the Report pane's rectangle, and the selected
 * frame's statistics into the Details pane's. */
void pv_flame_ui_draw(pv_app *a, const pv_rect *report, const pv_rect *details);
/* `:diff` with a graph shown: colour its frames by the change of their self
 * time against the same call tree of `other` (docs/flame.md): its graph
 * built at once when small, else a job in steps (PV_JOB_DIFF); said in
 * the message line. */
void pv_flame_ui_diff(pv_app *a, const pv_view *other_tree, const char *name);

/* `:diff FILE` (loaded in the background, compared when it arrives), `:diff N`
 * (result set N of the same file), `:diff X..Y [X..Y]` (two time windows of
 * the Report's timeline, docs/diff.md), `:diff off`: the Report's view against
 * the view of the same id there, shown as the Report until q; with a graph
 * shown, its frames coloured by the change of their self time. */
void pv_app_diff_command(pv_app *a, const char *arg);
/* A loaded file arrives: the pending `:diff FILE` runs. */
void pv_app_diff_adopted(pv_app *a, const pv_file *f);
/* A window of `:diff A..B` arrives (NULL: it did not load); with both,
 * the diff runs.  Takes f. */
void pv_app_diff_window_arrived(pv_app *a, pv_file *f);
void pv_app_diff_close(pv_app *a);

#endif
