/*
 * tui.h - the interactive viewer (docs/tui.md): Explorer | Report over
 * Details, status bar, prompt.  It renders any pv_view generically, so every
 * format loaded now or later is shown without TUI changes.
 *
 * Nothing outside src/tui/ calls curses; the CLI calls only these functions.
 */
#ifndef PROFVIEW_TUI_H
#define PROFVIEW_TUI_H

#include <stdio.h>

#include "profview/load.h"

typedef struct pv_tui_options {
    const char *const *paths; /* files to load (in the background) */
    size_t path_count;
    pv_load_options load;
    const char *theme; /* --theme NAME, or NULL for the config's / default */
    bool ascii;        /* --ascii: ASCII line drawing */
    /* Sessions (docs/tui.md "Sessions"): where the user was in each file
     * is restored when it is opened and saved at quit; false (the
     * default, --no-session): neither. */
    bool session;
    /* Scripted-keys mode (testing): read key names from keys_path, render
     * into a virtual width x height screen (no terminal), write the final
     * screen (and one at every <Dump> key) to dump_path ("-" = stdout). */
    const char *keys_path;
    const char *dump_path;
    int width;
    int height;
} pv_tui_options;

/* Runs the viewer until the user quits.  Returns 0, or 2 when no file could
 * be loaded (messages already printed to stderr). */
int pv_tui_run(const pv_tui_options *o);

/* Writes the key table (action, keys, help) for `profview --help`; the same
 * table the help screen and the config parser use. */
void pv_tui_print_keys(FILE *fp);

/* Applies the config's cache section (docs/cache.md) to load options, and
 * adds its source_paths to the source search (docs/source.md): the
 * viewer and the commands share them.  A config that cannot be read changes
 * nothing here (the viewer reports its problems). */
void pv_tui_config_cache(pv_load_options *o);

/* Parses "WxH" (e.g. "100x30") for --size.  Returns false when malformed. */
bool pv_tui_parse_size(const char *s, int *width, int *height);

#endif
