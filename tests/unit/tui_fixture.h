/* The viewer's unit tests (test_tui_*.c) share one small profile built by
 * hand with pv_table, and the ways they drive the viewer over it. */
#ifndef PV_TESTS_TUI_FIXTURE_H
#define PV_TESTS_TUI_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "profview/model.h"
#include "tui/app.h"

/* The columns of the Routines table (routine_cols) and of the call trace
 * (trace_cols). */
enum { R_ID, R_ROUTINE, R_MODULE, R_HITS, R_TIME, R_COUNT };
extern const pv_column routine_cols[R_COUNT];
enum { T_ID, T_PARENT, T_ROUTINE, T_DEPTH, T_TIME, T_COUNT };
extern const pv_column trace_cols[T_COUNT];

/* /data/demo.prof: one warning, one set "Run 1" with the table Routines
 * (five routines, details Callers and Callees) and the tree Call trace
 * (main > (parse_args, compute > (print_result)), atexit). */
pv_file *make_file(void);

/* A viewer of w x h cells (UTF-8 line drawing or ASCII) over make_file(),
 * with the default config and the built-in theme. */
pv_app *make_app(int w, int h, bool utf8);

/* Feeds the key names of `keys` (a scripted-keys text) and returns the
 * screen text (free it). */
char *screen_after(pv_app *a, const char *keys);

/* A generated call tree of n calls (pre-order, depths up to 6) whose
 * top-level calls go to `threads` threads: in blocks of one thread each
 * (blocks) or switching at random (interleaved).  Routine "rK" for call K. */
pv_view *tg_tree(size_t n, int threads, bool blocks, unsigned seed);

/* A big result set of f, `id` ("Run ID"): the table "rows" (id, name,
 * hits, time) and the call tree "call-trace" (loop > leaf, self time and
 * time with children), `rows` rows each.  `salt` varies the hits and the
 * tree's times (0: leaf 1, loop 1 and 2 with children); the names are
 * "nK", K = row % name_mod (0: the row). */
pv_result_set *big_set_add(pv_file *f, int64_t id, size_t rows, unsigned salt, size_t name_mod);

/* A viewer of 100 x 30 over f (adopted), the flame graph built in slices
 * of 40 000 calls and the jobs in fixed steps of `budget` rows (no
 * deadline). */
pv_app *jobs_app(pv_file *f, size_t budget);

#endif
