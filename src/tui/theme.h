/* theme.h - colour roles and themes (docs/code-style.md habit 6: themes are data).
 * A theme maps each role to a foreground, a background and attributes; it
 * is read from YAML.  Curses-free: term.c turns a theme into colour pairs. */
#ifndef PROFVIEW_TUI_THEME_H
#define PROFVIEW_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "profview/core.h"

/* Every colour role, once: X(enum suffix, YAML key, description). */
#define PV_THEME_ROLES(X)                                                                          \
    X(NORMAL, "normal", "text")                                                                    \
    X(BORDER, "border", "pane borders")                                                            \
    X(TITLE, "title", "pane titles")                                                               \
    X(TITLE_FOCUS, "title-focus", "the focused pane's title")                                      \
    X(HEADER, "header", "column headers")                                                          \
    X(SELECTED, "selected", "the selected row in the focused pane")                                \
    X(SELECTED_DIM, "selected-unfocused", "the selected row elsewhere")                            \
    X(MATCH, "match", "search matches")                                                            \
    X(TREE, "tree", "tree lines and expanders")                                                    \
    X(NUMBER, "number", "numbers")                                                                 \
    X(DIM, "dim", "empty cells, hints")                                                            \
    X(TAB, "tab", "Details tabs")                                                                  \
    X(TAB_ACTIVE, "tab-active", "the current Details tab")                                         \
    X(STATUS, "status", "the status bar")                                                          \
    X(PROMPT, "prompt", "the prompt line")                                                         \
    X(ERROR, "error", "messages about errors")                                                     \
    X(HELP_KEY, "help-key", "keys on the help screen")                                             \
    X(FLAME_1, "flame-1", "flame graph frames of the 1st, 5th... module or context")              \
    X(FLAME_2, "flame-2", "flame graph frames of the 2nd, 6th... module or context")              \
    X(FLAME_3, "flame-3", "flame graph frames of the 3rd, 7th... module or context")              \
    X(FLAME_4, "flame-4", "flame graph frames of the 4th, 8th... module or context")              \
    X(FLAME_EDGE, "flame-edge", "the partial cell that ends a flame graph frame")                   \
    X(FLAME_MATCH, "flame-match", "flame graph frames that match the search")                       \
    X(BETTER, "better", "diff: a time or count that fell (and its flame frames)")                  \
    X(WORSE, "worse", "diff: a time or count that rose (and its flame frames)")                    \
    X(LANE_1, "lane-1", "the 1st, 7th... context: its lane and its cells in the list")            \
    X(LANE_2, "lane-2", "the 2nd, 8th... context: its lane and its cells in the list")            \
    X(LANE_3, "lane-3", "the 3rd, 9th... context: its lane and its cells in the list")            \
    X(LANE_4, "lane-4", "the 4th, 10th... context: its lane and its cells in the list")           \
    X(LANE_5, "lane-5", "the 5th, 11th... context: its lane and its cells in the list")           \
    X(LANE_6, "lane-6", "the 6th, 12th... context: its lane and its cells in the list")

#define PV_LANE_ROLES 6 /* lane-1 .. lane-6, cycled by the lane's index */

typedef enum pv_role {
#define PV_ROLE_ENUM(e, key, desc) PV_ROLE_##e,
    PV_THEME_ROLES(PV_ROLE_ENUM)
#undef PV_ROLE_ENUM
        PV_ROLE_COUNT
} pv_role;

enum {
    PV_ATTR_BOLD = 1,
    PV_ATTR_REVERSE = 2,
    PV_ATTR_UNDERLINE = 4,
    PV_ATTR_DIM = 8,
};

#define PV_COLOR_DEFAULT (-1)

typedef struct pv_style {
    int fg; /* 0-255, or PV_COLOR_DEFAULT */
    int bg;
    unsigned attrs; /* PV_ATTR_* */
} pv_style;

typedef struct pv_theme {
    char name[64];
    pv_style roles[PV_ROLE_COUNT];
} pv_theme;

const char *pv_role_name(pv_role r);

/* Parses "FG [on BG] [bold] [reverse] [underline] [dim]"; colours are names
 * (black red green yellow blue magenta cyan white, bright-NAME, default) or
 * numbers 0-255.  Returns false with a reason in why. */
bool pv_style_parse(const char *text, pv_style *out, char *why, size_t why_size);

/* Parses a theme from YAML text (a mapping `roles:` of role -> style, and an
 * optional `name:`).  Roles not given keep their value in *t.  On error
 * returns false and writes "FILE:LINE:COL: problem" into err. */
bool pv_theme_parse(pv_theme *t, const char *yaml, size_t len, const char *file, pv_buf *err);

/* Loads the built-in default theme (the same YAML a user would write). */
void pv_theme_builtin(pv_theme *t);

/* Finds and loads the theme NAME: $XDG_CONFIG_HOME/profview/themes/NAME.yaml
 * (~/.config when XDG_CONFIG_HOME is unset), then PV_THEME_DIR/NAME.yaml,
 * then the built-in "default".  On a missing or bad theme, *t is the
 * built-in default and err says why (file, line, problem). */
bool pv_theme_load(pv_theme *t, const char *name, pv_buf *err);

/* Maps a 256-colour index to one of `colors` (8 or 16) when the terminal has
 * fewer; returns the colour unchanged otherwise. */
int pv_color_fallback(int color, int colors);

#endif
