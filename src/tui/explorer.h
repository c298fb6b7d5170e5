/* explorer.h - the Explorer pane's state (explorer.c).
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_EXPLORER_H
#define PROFVIEW_TUI_EXPLORER_H

#include <stddef.h>

/* The Explorer pane's own state (the items are shared: pv_app). */
typedef struct pv_explorer_state {
    size_t cursor, top;
    int width_adj;
} pv_explorer_state;

#endif
