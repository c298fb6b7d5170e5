/* text.h - safe display text and the character grid the TUI draws into.
 *
 * Names from input files can contain anything (docs/tui.md): control
 * characters, escape sequences, invalid UTF-8.  Everything drawn goes
 * through pv_text_escape, so no byte of a name reaches the terminal raw.
 * Panes draw into a pv_grid (characters + colour roles); term.c paints the
 * grid with curses, and the scripted-keys mode dumps it as text (docs/code-style.md
 * habit 4: format into a line buffer, then paint). */
#ifndef PROFVIEW_TUI_TEXT_H
#define PROFVIEW_TUI_TEXT_H

#include <stdint.h>

#include "profview/core.h"
#include "tui/theme.h"

/* Appends `len` bytes as printable text: control characters (C0, DEL, C1)
 * and invalid UTF-8 bytes become \xNN (C1 as \u0080..), and, when `utf8` is
 * false (a non-UTF-8 terminal), so does every byte >= 0x80. */
void pv_text_escape(pv_buf *out, const char *s, size_t len, bool utf8);
/* Columns that escaped text needs on screen. */
size_t pv_text_width(const char *s, size_t len, bool utf8);

typedef struct pv_gcell {
    uint32_t ch;  /* code point; 0 in the second column of a wide character */
    uint8_t role; /* pv_role */
} pv_gcell;

typedef struct pv_grid {
    int width;
    int height;
    bool utf8; /* the terminal takes UTF-8 */
    pv_gcell *cells;
    pv_buf scratch;
} pv_grid;

void pv_grid_init(pv_grid *g, bool utf8);
void pv_grid_free(pv_grid *g);
void pv_grid_resize(pv_grid *g, int width, int height);
/* Fills a rectangle with spaces of `role`. */
void pv_grid_fill(pv_grid *g, int y, int x, int w, int h, pv_role role);
/* Sets the role of w cells without changing their characters. */
void pv_grid_paint(pv_grid *g, int y, int x, int w, pv_role role);
void pv_grid_char(pv_grid *g, int y, int x, uint32_t ch, pv_role role);
/* Draws escaped text at (y, x), at most max_w columns (clipped, never
 * wrapped).  Returns the columns used. */
int pv_grid_text(pv_grid *g, int y, int x, int max_w, const char *s, size_t len, pv_role role);
int pv_grid_str(pv_grid *g, int y, int x, int max_w, const char *s, pv_role role);
/* The grid as UTF-8 text, one line per row, trailing blanks removed. */
void pv_grid_dump(const pv_grid *g, pv_buf *out);

/* How text that does not fit in its cells is cut (docs/tui.md "Cut
 * text"): at its end, in its middle, or by what it is (PV_CUT_AUTO: a
 * path in the middle, keeping its file name; other text at its end). */
typedef enum { PV_CUT_END, PV_CUT_MIDDLE, PV_CUT_AUTO } pv_cut_mode;
/* A path: a `/` or `\` followed by a file name without blanks. */
bool pv_text_is_path(const char *s, size_t len);
/* The escaped text of s in at most w columns: whole when it fits, else
 * cut as `mode` says with a mark where it was cut (`…`; in ASCII `>` at
 * the end, `~` in the middle); the last `keep` bytes of s (a count:
 * " (83)") are kept whole when they fit.  Returns the columns of out. */
int pv_text_cut(pv_buf *out, const char *s, size_t len, size_t keep, int w, pv_cut_mode mode,
                bool utf8, bool fancy);

/* A line of wrapped text: bytes [off, off + len) of the text. */
typedef struct pv_text_line {
    size_t off, len;
} pv_text_line;
/* Wraps s into lines of at most `width` columns, at blanks where it can
 * (a word longer than a line is cut), at every '\n'; blanks at a break
 * are dropped.  Fills lines[0 .. max) and returns the number of lines
 * (which may be more than max). */
size_t pv_text_wrap(const char *s, size_t len, int width, bool utf8, pv_text_line *lines,
                    size_t max);

/* " 3.6 M events/s ETA 2 min 05 s": the rate of `done` of `total` units
 * in `elapsed` seconds and the time left, in human units; nothing until the
 * rate is known (half a second and 1 % done). */
void pv_text_rate(pv_buf *out, double done, double total, double elapsed, const char *unit);

/* Two times that bound a span (a lane strip's START..END): as
 * pv_format_time_human, or with one unit and enough digits when those
 * would read the same (docs/tui.md "Times"). */
void pv_text_time_span(int64_t t0, int64_t t1, pv_time_unit unit, char *lo, char *hi,
                       size_t size);

/* A rectangle of the grid: a pane's or a part's place. */
typedef struct pv_rect {
    int y, x, w, h;
} pv_rect;

#endif
