/* keyscript.h - the scripted-keys mode's input (testing, like tig's test
 * suite): a text of key names, one or more per line.
 *
 *   j j Enter          a line of key names (all must be names): those keys
 *   :filter hits>3<Enter>   any other line is typed as text, with <Name>
 *                           for a named key inside it
 *   <Dump>             writes the screen to the dump file now
 *   <Resize 60x20>     resizes the virtual screen
 *   <Click 30 12>      a mouse click at column 30, line 12 (0-based, as in
 *                      the dump); <WheelUp 30 12>, <WheelDown 30 12>
 *   # comment
 */
#ifndef PROFVIEW_TUI_KEYSCRIPT_H
#define PROFVIEW_TUI_KEYSCRIPT_H

#include <stddef.h>

enum {
    PV_SCRIPT_DUMP = -1,   /* event: dump the screen */
    PV_SCRIPT_RESIZE = -2, /* event: resize to width x height */
    PV_SCRIPT_CLICK = -3,  /* event: mouse button 1 at (width = x, height = y) */
    PV_SCRIPT_WHEEL_UP = -4,
    PV_SCRIPT_WHEEL_DOWN = -5,
};

typedef struct pv_script_event {
    int key; /* a key (keymap.h), or PV_SCRIPT_* */
    int width, height;
} pv_script_event;

/* Parses the script.  Returns the events (free them) and their count; on an
 * unknown <Name> returns NULL with the line number in *bad_line. */
pv_script_event *pv_script_parse(const char *text, size_t *count, size_t *bad_line);

#endif
