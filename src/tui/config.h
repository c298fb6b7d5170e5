/* config.h - the user's $XDG_CONFIG_HOME/profview/config.yaml: theme, time
 * unit, key bindings, default columns per view.  Read only: profview never
 * writes it. */
#ifndef PROFVIEW_TUI_CONFIG_H
#define PROFVIEW_TUI_CONFIG_H

#include "profview/core.h"
#include "tui/keymap.h"

#define PV_CONFIG_MAX_VIEWS 32

typedef struct pv_tui_config {
    char theme[64];         /* "" = default */
    pv_time_unit time_unit; /* PV_UNIT_AUTO unless set */
    bool ascii;
    pv_keymap keys;
    size_t column_view_count;
    struct {
        char view[48];     /* view id */
        char columns[256]; /* "routine,hits,time" */
    } columns[PV_CONFIG_MAX_VIEWS];
} pv_tui_config;

void pv_config_init(pv_tui_config *c);
/* Parses config YAML.  Every valid setting is applied even when others are
 * bad; each problem is appended to err as "FILE:LINE:COL: problem".  Returns
 * false when there was any problem. */
bool pv_config_parse(pv_tui_config *c, const char *yaml, size_t len, const char *file, pv_buf *err);
/* Reads $XDG_CONFIG_HOME/profview/config.yaml (or ~/.config/...) if it
 * exists.  A missing file is not an error. */
bool pv_config_load(pv_tui_config *c, pv_buf *err);
/* The configured default columns of view `id`, or NULL. */
const char *pv_config_columns(const pv_tui_config *c, const char *view_id);

#endif
