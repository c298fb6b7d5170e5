/* config.h - the user's $XDG_CONFIG_HOME/profview/config.yaml: theme, time
 * unit, key bindings, default columns per view.  Read only: profview never
 * writes it. */
#ifndef PROFVIEW_TUI_CONFIG_H
#define PROFVIEW_TUI_CONFIG_H

#include "profview/core.h"
#include "tui/keymap.h"

#define PV_CONFIG_MAX_VIEWS 32

typedef struct pv_tui_config {
    char *theme;            /* owned; NULL = default */
    pv_time_unit time_unit; /* PV_UNIT_AUTO unless set */
    bool ascii;
    pv_keymap keys;
    size_t column_view_count;
    struct {
        char *view;    /* owned: the view id */
        char *columns; /* owned: "routine,hits,time" */
        char *where;   /* owned: "FILE:LINE:COLUMN" of the list, for messages */
    } columns[PV_CONFIG_MAX_VIEWS];
    /* cache: (docs/cache.md) */
    bool cache_off;           /* enabled: false */
    uint64_t cache_max_bytes; /* max_size, 0 = the default */
    char *source_paths;       /* owned: source_paths, one directory per line; NULL = none */
    bool session_off;         /* session: false (docs/tui.md "Sessions") */
} pv_tui_config;

/* The texts of a config are owned strings of any length: a config made by
 * pv_config_init or pv_config_copy is freed by pv_config_free. */
void pv_config_init(pv_tui_config *c);
void pv_config_copy(pv_tui_config *dst, const pv_tui_config *src);
void pv_config_free(pv_tui_config *c);
/* Parses config YAML.  Every valid setting is applied even when others are
 * bad; each problem is appended to err as "FILE:LINE:COL: problem".  Returns
 * false when there was any problem. */
bool pv_config_parse(pv_tui_config *c, const char *yaml, size_t len, const char *file, pv_buf *err);
/* Reads $XDG_CONFIG_HOME/profview/config.yaml (or ~/.config/...) if it
 * exists.  A missing file is not an error. */
bool pv_config_load(pv_tui_config *c, pv_buf *err);
/* The configured default columns of view `id`, or NULL. */
const char *pv_config_columns(const pv_tui_config *c, const char *view_id);
/* Where that list was written ("FILE:LINE:COLUMN"), or NULL. */
const char *pv_config_columns_where(const pv_tui_config *c, const char *view_id);

#endif
