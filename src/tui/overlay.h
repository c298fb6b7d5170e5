/* overlay.h - the overlays over the panes (help.c, chooser.c,
 * the export dialog of app_export.c): which one is shown and its cursor.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_OVERLAY_H
#define PROFVIEW_TUI_OVERLAY_H

#include <stdbool.h>
#include <stddef.h>

enum {
    PV_OVERLAY_NONE,
    PV_OVERLAY_HELP,
    PV_OVERLAY_COLUMNS,
    PV_OVERLAY_SORT,
    PV_OVERLAY_EXPORT,
    PV_OVERLAY_MESSAGES /* :messages, drawn by the help's pager (help.c) */
};

/* An overlay over the panes: help, the column and sort choosers, the
 * export dialog. */
typedef struct pv_overlay_state {
    int kind; /* PV_OVERLAY_* */
    size_t cursor, top;
    /* the help's and the messages' search (help.c): the line it started
     * from; it set the search text (cleared when they close) */
    size_t search_from;
    bool searched;
} pv_overlay_state;

#endif
