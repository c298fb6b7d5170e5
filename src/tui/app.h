/* app.h - the viewer's state and behaviour, independent of the terminal:
 * keys in, a pv_grid out.  term.c drives it with curses; the scripted-keys
 * mode drives it from a file and dumps the grid. */
#ifndef PROFVIEW_TUI_APP_H
#define PROFVIEW_TUI_APP_H

#include "profview/tui.h"
#include "tui/config.h"
#include "tui/text.h"
#include "tui/theme.h"

typedef struct pv_app pv_app;

/* Creates the app and starts loading o->paths in a background thread. */
pv_app *pv_app_new(const pv_tui_options *o, const pv_tui_config *cfg, const pv_theme *theme,
                   bool utf8, bool ascii, int width, int height);
/* Stops loading (cancels), frees everything. */
void pv_app_free(pv_app *a);
/* Adds a message shown on the prompt line (is_error: in the error role). */
void pv_app_message(pv_app *a, bool is_error, const char *text);

/* Adds a loaded file to the Explorer; the app owns it from now on (the
 * loader thread's files come this way; tests hand in files they built). */
void pv_app_adopt_file(pv_app *a, pv_file *f);
/* Takes in what the loader thread finished.  Returns true when something
 * changed (redraw). */
bool pv_app_poll(pv_app *a);
bool pv_app_loading(const pv_app *a);
/* Blocks until every queued file is loaded (scripted mode). */
void pv_app_wait_loaded(pv_app *a);
/* Files that loaded; when none did after loading, the caller quits with the
 * errors (pv_app_load_errors). */
size_t pv_app_file_count(const pv_app *a);
const char *pv_app_load_errors(const pv_app *a);

void pv_app_key(pv_app *a, int key);
/* A bracketed paste (docs/tui.md "Terminals"): its text goes into the open
 * prompt as one edit (line breaks and tabs as spaces, other control
 * characters dropped); with no prompt open, a message says where a paste
 * goes and nothing else happens (its characters are never taken as keys). */
void pv_app_paste(pv_app *a, const char *text, size_t len);
/* Long work a key asked for (sorting or filtering a big view) is done by
 * pv_app_work after the screen showed that it is being done; a flame graph
 * being built is done by pv_app_work in slices (docs/flame.md "Speed"). */
bool pv_app_has_work(const pv_app *a);
/* The pending work is a scan that a key may stop, or slices of a graph
 * that keys are answered between: read keys before it. */
bool pv_app_work_stoppable(const pv_app *a);
/* Tests (the test option work-slice): the scripted keys give the work one
 * step per key, so that screens show it half done. */
bool pv_app_work_paced(const pv_app *a);
/* Tests (the test option flame-slice=N): one slice of N calls of the graph
 * being built, once per scripted key. */
void pv_app_flame_test_slice(pv_app *a);
/* A file is still being indexed (and Ctrl-C has not stopped it). */
bool pv_app_indexing(const pv_app *a);
/* Indexes one slice (about PV_INDEX_SLICE_S; tests: a fixed number of
 * events): a step of the indexing job (jobs.h, PV_JOB_INDEX), which runs
 * while no key waits; false when nothing is left to index. */
bool pv_app_index_slice(pv_app *a);
/* Tests and batch use: indexes everything now. */
void pv_app_index_all(pv_app *a);
void pv_app_work(pv_app *a);
/* A mouse event at screen (y, x): button 1 = click, 4/5 = wheel up/down. */
void pv_app_mouse(pv_app *a, int y, int x, int button);
/* Cancels long work (Ctrl-C while loading); returns true if there was any. */
bool pv_app_cancel(pv_app *a);
/* Stops every job quietly, the one and those beside it (a signal ends the
 * viewer: a job's call on a worker stops first, an export removing its
 * temporary files). */
void pv_app_stop_jobs(pv_app *a);
void pv_app_resize(pv_app *a, int width, int height);
/* The terminal's part (term.c): `clipboard` writes an OSC 52 sequence to
 * the terminal. */
void pv_app_set_terminal(pv_app *a, void (*clipboard)(void *ctx, const char *bytes, size_t len),
                         void *ctx);
/* The OSC 52 sequence that puts text on the clipboard (base64), wrapped in
 * DCS pieces for GNU screen's pass-through when `screen`. */
void pv_osc52_sequence(const char *text, size_t len, bool screen, pv_buf *out);
/* Draws everything into the grid. */
const pv_grid *pv_app_draw(pv_app *a);
/* Where the terminal cursor belongs (the prompt), or false to hide it. */
bool pv_app_cursor(const pv_app *a, int *y, int *x);
bool pv_app_done(const pv_app *a);
/* The theme, and whether it changed since the last call (for term.c). */
const pv_theme *pv_app_theme(pv_app *a, bool *changed);

#endif
