/*
 * hooks.h - optional capabilities that a format gives its files and views
 * (docs/model.md "Capability hooks").
 *
 * The viewer, the command line and the exporters know no format: what a
 * format can do beyond rows and cells (index in steps, put rows on a time
 * axis, relate an event to its call, say what runs when) it offers through
 * these small vtables.  A NULL table or a NULL function means "not
 * supported"; the accessors below answer for that case, so a consumer calls
 * them on any view of any format.  A format sets the tables on the files
 * and views it builds (pv_file.hooks, pv_view.hooks and pv_view.hook_ctx).
 *
 * Every hook is called from the thread that reads the file's views and
 * never blocks for long: a hook that would need work it has not done yet
 * (an index being built in steps) answers "not now" (false, 0) instead.
 */
#ifndef PROFVIEW_HOOKS_H
#define PROFVIEW_HOOKS_H

#include "profview/model.h"

/* ---- file hooks
 *
 * (A format's own exports are the export layer's business: the loader
 * offers them, pv_loader.export in load.h; the model knows no export.) */

struct pv_file_hooks {
    /* Indexes about `budget` more units of work (events, calls) of a file
     * loaded with pv_load_options.defer_index.  Returns true once nothing is
     * left to do (complete, or failed: the views then stay as they are).
     * From the first call on, reading a view never indexes by itself: rows
     * not indexed yet show what is known without the index, and the views
     * that need the whole index say so (waits_for_index). */
    bool (*index_step)(pv_file *f, size_t budget);
    /* Units indexed so far and in all; true when nothing is left to index
     * (then *done == *total). */
    bool (*index_progress)(const pv_file *f, uint64_t *done, uint64_t *total);
    /* What index_progress counts, plural ("events", "rows"): the viewer's
     * rate reads "12 M events/s".  NULL: the rate has no unit. */
    const char *index_unit;
    /* Work the format does on threads of its own behind index_step (an
     * AQTime database read after its first screen) stops where it is (pause
     * true) or goes on (false): Ctrl-C in the viewer and `:index`
     * (docs/tui.md "Loading and indexing").  NULL: nothing runs between
     * index_step calls. */
    void (*index_pause)(pv_file *f, bool pause);
    /* The file's complete index is in the index cache (docs/cache.md): it
     * was read from it, or written to it, or a write is under way (freeing
     * the file waits for it).  The viewer asks before a quit drops a big
     * index that is not (docs/tui.md "Quitting").  NULL: nothing cached. */
    bool (*index_cached)(const pv_file *f);
    /* The id of the view that a load with pv_load_options.has_from/has_to
     * computes over that time window only (the statistics between two
     * times, `:stats`), or NULL when the format has none. */
    const char *range_view;
};

/* ---- view hooks */

/* An integer column that the view holds as an array, one element per row
 * (pv_view_hooks.int_column): row r's value is the unsigned integer of
 * `width` bytes (1, 2, 4 or 8) at base + r * width, present on every row. */
typedef struct pv_int_array {
    const void *base;
    unsigned width;
} pv_int_array;

/* Rows related to a row (pv_view_hooks.related). */
typedef enum pv_relation {
    /* The other end of the row's call: an entry event's exit event, an exit
     * event's entry event (in the same view). */
    PV_REL_PARTNER,
    /* The call that called the row's call (its parent in the call tree). */
    PV_REL_CALLER,
    /* The call an event belongs to (the innermost call open at it), as a
     * row of the result set's call tree. */
    PV_REL_CALL,
    /* The entry / exit event of the row's call (a call, or an event's call)
     * as a row of the result set's timeline. */
    PV_REL_ENTRY,
    PV_REL_EXIT,
    /* The first event (or call) of the row's area (routine, variable). */
    PV_REL_FIRST,
    /* Where the row is on the result set's timeline (the view of its events
     * or calls in the order they happened): an event itself, a call its
     * entry, an area its first event (`t` in the viewer). */
    PV_REL_TIMELINE,
} pv_relation;

/* A row of a view of the same result set: `view` is one of the views of
 * the set (or `v` itself), never a view the caller must free. */
typedef struct pv_row_ref {
    pv_view *view;
    size_t row;
} pv_row_ref;

/* The lane an area pinned by the user gets (pv_lane_hooks.area_kind,
 * docs/model.md "Area lanes"). */
typedef enum pv_area_lane {
    PV_AREA_LANE_NONE,     /* the area cannot be a lane (or not now) */
    PV_AREA_LANE_ACTIVITY, /* a function or line: active, suspended, not entered */
    PV_AREA_LANE_VALUE,    /* a variable, state or AUX area: its value over time */
} pv_area_lane;

/* What an area lane did in a time bucket [t0, t1) (pv_lane_hooks.area_sample). */
typedef struct pv_lane_sample {
    /* ACTIVITY: ns of the bucket the area ran (active) and was entered but
     * not running (suspended); the rest it was not entered. */
    int64_t active, suspended;
    /* VALUE: a value is in force at the end of the bucket (`value`), the
     * largest in force during it (`peak`), writes or state changes in it
     * (`changes`), and the state's name at the end (`label`: a STRING
     * cell, absent for plain numbers). */
    bool has_value;
    double value, peak;
    size_t changes;
    pv_cell label;
} pv_lane_sample;

/* Jumps among the occurrences of a row's area (pv_view_hooks.area_jump):
 * the calls of a function, the hits of a line, the changes of a value. */
typedef enum pv_area_jump {
    PV_JUMP_NEXT,     /* the first occurrence after the row */
    PV_JUMP_PREV,     /* the last occurrence before the row */
    PV_JUMP_LONGEST,  /* the longest occurrence (a call's gross time) */
    PV_JUMP_SHORTEST, /* the shortest */
} pv_area_jump;

/* Lanes: what runs when (the viewer's lane strip).  A lane is something
 * that runs over time: a context (task, core), a thread.  Rows of the view
 * belong to a lane when they show it running (an event of a function, a
 * call).  Areas that the user pins (by their row_area key) get lanes of
 * their own through the area_* members (docs/model.md "Area lanes"). */
typedef struct pv_lane_hooks {
    /* Lanes, in the order to draw them; 0 when they are not known yet. */
    size_t (*count)(const pv_view *v);
    /* The name of lane `lane` (< count) as a STRING cell, valid until the
     * view changes. */
    void (*name)(const pv_view *v, size_t lane, pv_cell *out);
    /* The lane that row `row` shows running, or PV_NO_ROW (the row is no
     * activity of a lane: a data write, a group node). */
    size_t (*row_lane)(const pv_view *v, size_t row);
    /* The kind of lane of the area with row_area key `area`, without
     * building it (PV_AREA_LANE_NONE: it cannot have one, or not now). */
    int (*area_kind)(const pv_view *v, uint64_t area);
    /* Builds the area's lane (docs/model.md "Area lanes") by about `budget`
     * more units of work (events, calls; 0: none, only the progress), so
     * that a viewer builds it between key presses.  1 when it is ready
     * (area_sample, area_value_range and area_jump answer for it only then),
     * 0 when there is more to do (*done of *total units done), -1 when the
     * area has no lane. */
    int (*area_build)(const pv_view *v, uint64_t area, size_t budget, uint64_t *done,
                      uint64_t *total);
    /* The area's name as a STRING cell, valid until the view changes. */
    void (*area_name)(const pv_view *v, uint64_t area, pv_cell *out);
    /* What the area did in [t0, t1) (t0 < t1), exact at any span and in
     * O(log n) (docs/model.md "Area lanes"); false when it has no lane. */
    bool (*area_sample)(const pv_view *v, uint64_t area, int64_t t0, int64_t t1,
                        pv_lane_sample *out);
    /* VALUE lanes: the smallest and largest value over the whole recording
     * (the sparkline's scale); false when there is none. */
    bool (*area_value_range)(const pv_view *v, uint64_t area, double *lo, double *hi);
    /* The time of the recording's first and last event (fit all). */
    bool (*time_span)(const pv_view *v, int64_t *first, int64_t *last);
    /* Whether one lane runs at a time (tasks switched by an RTOS; not
     * cores, which run side by side): a lane then runs from a row that
     * row_running names it for until the next row that names another, and
     * the strip draws those spans (docs/tui.md "Lane strip").  NULL or
     * false: the strip marks the rows' instants. */
    bool (*exclusive)(const pv_view *v);
    /* The lane that runs from row `row` on (a task's own event, a context
     * switch), or PV_NO_ROW when the row changes nothing; asked only when
     * exclusive. */
    size_t (*row_running)(const pv_view *v, size_t row);
} pv_lane_hooks;

struct pv_view_hooks {
    /* The time of a row in ns (an event's time, a call's entry), false when
     * the row has none.  Views with this hook have a time axis: markers,
     * `:goto TIME`, the lane strip's span. */
    bool (*row_time)(const pv_view *v, size_t row, int64_t *t);
    /* True when the view's rows are in time order now (row_time never
     * decreases from a row to the next), so that any subset of them in view
     * order is too and a time is found by binary search. */
    bool (*time_ordered)(const pv_view *v);
    /* True when reading the view (with `details`: opening its detail views)
     * would first wait for the file's index to be complete; the viewer then
     * says "indexing" instead of reading it. */
    bool (*waits_for_index)(const pv_view *v, bool details);
    /* The row related to `row` by `rel` (above); false when there is none
     * or it is not known now (index incomplete). */
    bool (*related)(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out);
    /* A key of the row's area (routine, variable: what `J` / `K` step
     * through): rows with equal keys are of the same area.  False when the
     * row has no area. */
    bool (*row_area)(const pv_view *v, size_t row, uint64_t *area);
    const pv_lane_hooks *lanes;
    /* The statistics of rows `from` .. `to` (inclusive, from <= to, rows of
     * this view in its order) as a new view that the caller frees: for a
     * view without a clock, what the statistics of a time window
     * (pv_file_hooks.range_view) are for a timeline (`:stats` with markers
     * on rows).  NULL when there are none. */
    pv_view *(*range_statistics)(const pv_view *v, size_t from, size_t to);
    /* The row of an occurrence of the row's area (pv_area_jump), found
     * through the area's own list (no scan of the rows); false when there
     * is none or the row has no area. */
    bool (*area_jump)(const pv_view *v, size_t row, pv_area_jump which, size_t *out);
    /* The nesting depth of a row that is not a tree node (an event's call
     * depth): the viewer indents the row's name by it.  False when none. */
    bool (*row_depth)(const pv_view *v, size_t row, size_t *depth);
    /* Call trees: frames that run inside the tree's rows without being
     * rows of it (winIDEA line areas inside their function calls,
     * docs/flame.md), as a new view that the caller frees, one row per
     * frame: `parent` (INT: the 1-based row of this view it runs in; absent
     * at the top of its context), `routine`, `module`, the tree's
     * `context` or `thread` column, `time` (self) and `time_with_children`
     * (total), typed as the tree's; when the tree has a clock, also
     * `entry_time` and `exit_time` (TIME, ns; exit absent while open at
     * the end), which lie within the call the frame runs in (a trace
     * export nests the frames by them).  NULL when there are none. */
    pv_view *(*inner_frames)(const pv_view *v);
    /* Every text a STRING column can show, when there are few and the view
     * knows them without reading its rows (a timeline's context names, its
     * event letters): `each` is called once per text.  False when the view
     * does not know (then nothing is called).  A search for a text none of
     * them contains skips the column (docs/tui.md "Long operations"). */
    bool (*column_values)(const pv_view *v, size_t col,
                          void (*each)(void *ctx, const char *s, size_t len), void *ctx);
    /* An INT column whose values the view holds as an array (above), for a
     * reader of many rows (SQL's scans, docs/sql.md) to read them without a
     * cell each; valid until the view changes (indexing).  False when the
     * column is not such an array (or not now). */
    bool (*int_column)(const pv_view *v, size_t col, pv_int_array *out);
    /* Runs of rows with one value in a column, read without a cell: rows
     * `row` .. *end - 1 (*end > row) all have the value of `row`, and
     * *code names it (rows with equal codes have equal values; a value
     * may have several codes).  A view whose rows come in blocks of one
     * value (a call tree's calls, context by context) answers a whole
     * block at once, so that grouping its rows by that column reads a
     * block, not every row (docs/tui.md "Long operations").  False when
     * the column has no such runs (or not now). */
    bool (*column_run)(const pv_view *v, size_t col, size_t row, uint64_t *code, size_t *end);
    /* A STRING column with column_values whose rows the view holds as codes
     * (an array as above, width 1 or 2): row r's text is the code-th one
     * column_values gives (counted from 0, in its order), and the cell is
     * absent when the code is not below their count.  For a reader of many
     * rows (SQL's grouped columns, docs/sql.md) to tell the rows' values
     * apart without a cell each; valid until the view changes.  False when
     * the column is not such an array (or not now). */
    bool (*code_column)(const pv_view *v, size_t col, pv_int_array *out);
    /* Why detail `detail` has no rows for any row of the view, when it was
     * left out (an export leaves out a detail of more than 1 M rows,
     * docs/export.md): a text that the Details pane and `cat --parent` show
     * ("not exported: ..."); NULL otherwise. */
    const char *(*detail_missing)(const pv_view *v, size_t detail);
    /* Whether column `col` has no value in any row (every cell absent or
     * an empty text), as the view knows it without reading its rows (a
     * timeline read from a Text1 file has no core on any event): 1 empty,
     * 0 some row has a value, -1 not known (or not now).  The viewer hides
     * empty columns (docs/tui.md "Columns"). */
    int (*column_empty)(const pv_view *v, size_t col);
    /* A TIME or INT column whose cells are converted one by one from
     * values in another unit (an AQTime time counter: machine cycles shown
     * as ns, docs/aqtime.md "Counters"): the raw value of a row's cell,
     * false when the cell is absent or the column has none.  A consumer
     * that sums the column's cells (the flame graph, docs/flame.md) sums
     * the raw values and converts the sum once (raw_sum), as the view's own
     * sums are, so that the sums agree to the unit. */
    bool (*cell_raw)(const pv_view *v, size_t row, size_t col, int64_t *raw);
    /* The value shown for a sum of raw values of column `col`. */
    int64_t (*raw_sum)(const pv_view *v, size_t col, int64_t sum);
    /* The row a reader shows first when the view opens (a source view: the
     * routine's line), PV_NO_ROW for the top. */
    size_t (*first_row)(const pv_view *v);
};

/* ---- accessors: every consumer uses these; they answer "not supported"
 * (false, 0, NULL) when a hook is missing. */

/* True when nothing is left to index (also for a file without the hook). */
bool pv_file_index_step(pv_file *f, size_t budget);
/* *done and *total (0 and 0 without the hook); true when complete. */
bool pv_file_index_progress(const pv_file *f, uint64_t *done, uint64_t *total);
/* pv_file_hooks.range_view, or NULL. */
const char *pv_file_range_view(const pv_file *f);
/* pv_file_hooks.index_unit, or "" (a rate without a unit). */
const char *pv_file_index_unit(const pv_file *f);
/* pv_file_hooks.index_pause, or nothing. */
void pv_file_index_pause(pv_file *f, bool pause);
/* pv_file_hooks.index_cached, or false. */
bool pv_file_index_cached(const pv_file *f);

bool pv_view_has_time(const pv_view *v);
bool pv_view_row_time(const pv_view *v, size_t row, int64_t *t);
bool pv_view_time_ordered(const pv_view *v);
bool pv_view_waits_for_index(const pv_view *v, bool details);
/* pv_view_hooks.column_empty, or -1 (not known). */
int pv_view_column_empty(const pv_view *v, size_t col);
/* pv_view_hooks.detail_missing, or NULL. */
const char *pv_view_detail_missing(const pv_view *v, size_t detail);
/* pv_view_hooks.first_row, or PV_NO_ROW. */
size_t pv_view_first_row(const pv_view *v);
bool pv_view_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out);
bool pv_view_row_area(const pv_view *v, size_t row, uint64_t *area);
bool pv_view_has_lanes(const pv_view *v);
size_t pv_view_lane_count(const pv_view *v);
/* An absent STRING cell when the lane has no name. */
void pv_view_lane_name(const pv_view *v, size_t lane, pv_cell *out);
size_t pv_view_row_lane(const pv_view *v, size_t row);
/* pv_lane_hooks.exclusive (false without it or row_running) and
 * row_running (PV_NO_ROW without them). */
bool pv_view_lanes_exclusive(const pv_view *v);
size_t pv_view_row_running(const pv_view *v, size_t row);
/* Area lanes (pv_lane_hooks.area_*): PV_AREA_LANE_NONE, an absent name,
 * false without the hooks. */
int pv_view_area_kind(const pv_view *v, uint64_t area);
/* pv_lane_hooks.area_build (done and total may be NULL); without the hook
 * 1 when the area has a kind of lane, else -1. */
int pv_view_area_build(const pv_view *v, uint64_t area, size_t budget, uint64_t *done,
                       uint64_t *total);
void pv_view_area_name(const pv_view *v, uint64_t area, pv_cell *out);
bool pv_view_area_sample(const pv_view *v, uint64_t area, int64_t t0, int64_t t1,
                         pv_lane_sample *out);
bool pv_view_area_value_range(const pv_view *v, uint64_t area, double *lo, double *hi);
bool pv_view_time_span(const pv_view *v, int64_t *first, int64_t *last);
bool pv_view_area_jump(const pv_view *v, size_t row, pv_area_jump which, size_t *out);
/* pv_view_hooks.column_values; false without it. */
bool pv_view_column_values(const pv_view *v, size_t col,
                           void (*each)(void *ctx, const char *s, size_t len), void *ctx);
/* pv_view_hooks.int_column (an INT column only); false without it. */
bool pv_view_int_column(const pv_view *v, size_t col, pv_int_array *out);
/* pv_view_hooks.column_run (row < rows; *end is then > row and at most
 * the row count); false without it. */
bool pv_view_column_run(const pv_view *v, size_t col, size_t row, uint64_t *code, size_t *end);
/* pv_view_hooks.code_column (a STRING column with column_values, width 1
 * or 2); false without it. */
bool pv_view_code_column(const pv_view *v, size_t col, pv_int_array *out);
/* pv_view_hooks.row_depth; false without it. */
bool pv_view_has_row_depth(const pv_view *v);
bool pv_view_row_depth(const pv_view *v, size_t row, size_t *depth);
bool pv_view_has_range_statistics(const pv_view *v);
/* NULL without the hook or for rows out of range; from and to in any order. */
pv_view *pv_view_range_statistics(const pv_view *v, size_t from, size_t to);
/* pv_view_hooks.inner_frames; NULL without it. */
pv_view *pv_view_inner_frames(const pv_view *v);
/* Raw values (cell_raw, raw_sum): whether the view has them for column
 * `col` (a row's cell may still have none), a row's, and the value shown
 * for a sum of them (the sum itself without the hook). */
bool pv_view_has_raw(const pv_view *v, size_t col);
bool pv_view_cell_raw(const pv_view *v, size_t row, size_t col, int64_t *raw);
int64_t pv_view_raw_sum(const pv_view *v, size_t col, int64_t sum);

#endif
