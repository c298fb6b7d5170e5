/* prompt.h - the prompt and its line editor (prompt.c): its
 * state and what other files ask of it.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_PROMPT_H
#define PROFVIEW_TUI_PROMPT_H

#include "tui/app.h"
#include "tui/report.h"

enum { PV_PROMPT_NONE, PV_PROMPT_SEARCH, PV_PROMPT_FILTER, PV_PROMPT_COMMAND, PV_PROMPT_KINDS };
#define PV_PROMPT_HISTORY 50

/* The prompt (/ search, \ filter, : command) and its line editor. */
typedef struct pv_prompt_state {
    int kind; /* PV_PROMPT_* (NONE: closed) */
    pv_buf line;
    size_t pos;
    char *history[PV_PROMPT_KINDS][PV_PROMPT_HISTORY];
    size_t history_count[PV_PROMPT_KINDS];
    size_t history_pos;
    size_t search_origin;
    size_t search_origin_row; /* the model row selected when / opened (trees expand) */
} pv_prompt_state;

void pv_app_prompt_open(pv_app *a, int kind, const char *initial);
void pv_app_prompt_key(pv_app *a, int key);
/* Searches the focused report from `from` in direction dir, in steps. */
void pv_app_search_from(pv_app *a, pv_report *r, size_t from, int dir);
/* Tab on a file name being typed (the export dialog's path, :open):
 * completes it to the longest common prefix of the matching files (a
 * directory with its '/'), listing them in the message line when there
 * are several. */
void pv_app_complete_path(pv_app *a, pv_buf *path);

#endif
