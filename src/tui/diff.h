/* diff.h - :diff in the viewer (diff.c, docs/diff.md): its
 * state and what other files ask of it.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_DIFF_H
#define PROFVIEW_TUI_DIFF_H

#include "tui/app.h"
#include "tui/jobs.h"
#include "tui/report.h"

/* A time window of a load: --from/--to where has_lo/has_hi. */
typedef struct pv_app_window {
    bool on, has_lo, has_hi;
    int64_t lo, hi;
} pv_app_window;

/* :diff A..B: the two windows asked for, the view compared, and the two
 * windowed loads of the file once they arrived. */
typedef struct pv_diff_windows {
    int pending;          /* loads still to arrive (0: none asked) */
    int discard;          /* loads given up (Esc, :diff off, a newer :diff): freed on arrival */
    pv_app_window win[2]; /* side a, side b */
    char view_id[64];
    int64_t set_id;
    char text[2][96];     /* "10ms..20ms" of each side, for messages */
    pv_file *file[2];     /* arrived (NULL: failed) */
    size_t arrived;
    pv_file *shown[2];    /* the two windows of the diff shown (its views read them) */
} pv_diff_windows;

/* :diff (docs/diff.md): the diff view is the Report while `on`. */
typedef struct pv_diff_state {
    pv_report rep;
    bool on;
    char *pending;       /* :diff FILE: the file being loaded */
    pv_diff_windows win; /* :diff over two windows */
} pv_diff_state;

/* The comparison queued while a file was indexed (q->set, named q->arg). */
void pv_app_diff_queued(pv_app *a, const pv_command_args *q);

#endif
