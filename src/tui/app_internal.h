/* app_internal.h - the viewer's state: what the panels share (the open
 * files and their items, where we are, the focus, the message line) and
 * one struct per panel or service (docs/tui.md "The viewer's design"),
 * and the functions the viewer's files call across.  Not an API: only
 * src/tui includes it (the panels through panel.h). */
#ifndef PROFVIEW_TUI_APP_INTERNAL_H
#define PROFVIEW_TUI_APP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "tui/app.h"
#include "tui/flame.h"
#include "tui/history.h"
#include "tui/jobs.h"
#include "tui/keymap.h"
#include "tui/report.h"

enum { PV_PANE_EXPLORER, PV_PANE_REPORT, PV_PANE_DETAILS, PV_PANE_COUNT };
enum { PV_ITEM_FILE, PV_ITEM_SET, PV_ITEM_VIEW };
enum { PV_PROMPT_NONE, PV_PROMPT_SEARCH, PV_PROMPT_FILTER, PV_PROMPT_COMMAND, PV_PROMPT_KINDS };
enum { PV_OVERLAY_NONE, PV_OVERLAY_HELP, PV_OVERLAY_COLUMNS, PV_OVERLAY_SORT, PV_OVERLAY_EXPORT };
/* The parts of what the export dialog exports, each its own choice (bit
 * 1 << part of pv_export_dialog.what; docs/tui.md "Export"). */
enum {
    PV_EXPORT_PART_FILTER,  /* the Report's filter */
    PV_EXPORT_PART_WINDOW,  /* between markers A and B */
    PV_EXPORT_PART_CONTEXT, /* the selected row's context (or thread) */
    PV_EXPORT_PART_AREA,    /* the selected row's area (its name) */
    PV_EXPORT_PART_VIEW,    /* only this view (else the whole result set) */
    PV_EXPORT_PART_COUNT
};

#define PV_PROMPT_HISTORY 50
#define PV_LANE_PINS 8 /* pinned area lanes at most (the oldest goes) */
#define PV_MAX_SHOWN 256

typedef struct pv_item {
    int kind;
    size_t file, set, view;
    bool opened;
    pv_report report; /* views (and files with warnings: their list), opened when first shown */
} pv_item;

/* Names offered by :sql completion (offsets into text, NUL-separated). */
typedef struct pv_app_sql_names {
    pv_buf text;
    size_t count;
    size_t offsets[256];
} pv_app_sql_names;

typedef struct pv_rect {
    int y, x, w, h;
} pv_rect;

/* A scan over a report's rows that a key may stop (PV_JOB_SCAN): each
 * frame looks at rows for about PV_SCAN_SLICE_S, then the screen is drawn
 * and keys are read (docs/quality.md: no key blocks for more than 16 ms). */
#define PV_SCAN_SLICE_S 0.005
/* A long call on the UI thread (`:sql`, an export) draws a frame and reads
 * the keys this often (wall time), from its progress callback. */
#define PV_PUMP_S 0.004
enum { PV_SCAN_TIME = 1, PV_SCAN_AREA };
typedef struct pv_scan {
    int kind;
    pv_report *r;
    size_t next;  /* the report position looked at next */
    size_t first; /* where it started, for the percentage */
    int dir;
    int64_t time;  /* PV_SCAN_TIME: the first row whose time (row_time) >= this */
    uint64_t area; /* PV_SCAN_AREA: the next row with this area (row_area) */
} pv_scan;

/* A time window of a load: --from/--to where has_lo/has_hi. */
typedef struct pv_app_window {
    bool on, has_lo, has_hi;
    int64_t lo, hi;
} pv_app_window;

/* :diff A..B: the two windows asked for, the view compared, and the two
 * windowed loads of the file once they arrived. */
typedef struct pv_diff_windows {
    int pending;          /* loads still to arrive (0: none asked) */
    int discard;          /* loads of a request given up (:diff off): freed on arrival */
    pv_app_window win[2]; /* side a, side b */
    char view_id[64];
    int64_t set_id;
    char text[2][96];     /* "10ms..20ms" of each side, for messages */
    pv_file *file[2];     /* arrived (NULL: failed) */
    size_t arrived;
    pv_file *shown[2];    /* the two windows of the diff shown (its views read them) */
} pv_diff_windows;

/* The loader thread and what it shares with the UI thread (app.c): it
 * takes paths from the queue and hands back files.  Under lock unless
 * said. */
typedef struct pv_loader_state {
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    char **queue;
    size_t queue_count, queue_cap, queue_next;
    /* :diff over two windows of the Report's timeline (docs/diff.md): the
     * loader loads its file twice, cut to each window (queue_window); the
     * two files arrive in win_done (NULL: one did not load) and are kept
     * while the diff is shown. */
    pv_app_window *queue_window; /* parallel to queue */
    pv_file *win_done[2];
    size_t win_done_count;
    pv_file **done;
    size_t done_count, done_cap;
    bool busy;
    bool stopping;
    atomic_int cancel; /* set by the UI thread, read by the loader's loops */
    pv_buf what;       /* what the loader does now */
    pv_buf path;       /* the file it loads */
    uint64_t units_done, units_total;
    double start;
    pv_buf errors;
    /* Statistics between the markers (:stats, docs/tui.md): the loader
     * loads the Report's file again over [lo, hi]; a newer request
     * replaces a pending one (range_gen counts them). */
    char *range_path;           /* the file of the pending request */
    bool range_want;            /* a request waits for the loader */
    bool range_busy;            /* the loader is loading one */
    atomic_int range_cancel;    /* set by the UI thread, read by the loader's loops */
    int64_t range_lo, range_hi; /* of the pending request */
    uint64_t range_gen;         /* the newest request */
    pv_file *range_done;        /* loaded, not yet adopted */
    pv_buf range_errors;
} pv_loader_state;

/* The Explorer pane's own state (the items are shared: pv_app). */
typedef struct pv_explorer_state {
    size_t cursor, top;
    int width_adj;
} pv_explorer_state;

/* The Details pane: the detail of the Report's selected row. */
typedef struct pv_details_state {
    pv_report rep;
    const pv_view *owner;
    size_t row, tab, tab_open;
    bool open;
    bool tried;   /* owner/row/tab_open say what was opened */
    bool waiting; /* the Details wait for the index */
    int height_adj;
    int tabs_y; /* where the tabs were drawn (for the mouse) */
    struct {
        int x, w;
    } tabs[32];
    size_t tab_count;
} pv_details_state;

/* The Report pane: where its header's columns were drawn (for the mouse). */
typedef struct pv_report_panel {
    int header_y;
    size_t header_count;
    struct {
        int x, w;
        size_t col;
    } header[PV_MAX_SHOWN];
} pv_report_panel;

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

/* An overlay over the panes: help, the column and sort choosers, the
 * export dialog. */
typedef struct pv_overlay_state {
    int kind; /* PV_OVERLAY_* */
    size_t cursor, top;
} pv_overlay_state;

/* Markers A and B (docs/tui.md), times in ns; a marker on a row of a
 * view without a clock ("Markers without a clock"): that view (NULL for a
 * time marker) and its row. */
typedef struct pv_markers {
    bool set[2];
    int64_t at[2];
    const pv_view *view[2];
    size_t row[2];
} pv_markers;

/* Indexing in slices on this (the UI) thread between key presses
 * (docs/tui.md "Loading and indexing"): the loader thread never touches
 * an adopted file, so nothing is shared. */
typedef struct pv_indexer {
    bool stopped;     /* Ctrl-C: no more slices */
    size_t slice;     /* events per slice, adapted to PV_INDEX_SLICE_S */
    bool fixed_slice; /* tests: the test option index-slice, one slice per key */
    double start;     /* when the current file's indexing started */
    uint64_t start_done;
    size_t file;      /* the file being indexed */
    size_t *warnings; /* per file: warnings when adopted */
} pv_indexer;

/* :stats as the Details pane shows it (UI thread only; the request is the
 * loader's). */
typedef struct pv_range_state {
    bool show; /* :stats is on */
    bool failed;
    int64_t shown_lo, shown_hi; /* the range asked for last */
    pv_file *file;              /* the adopted window, with its report */
    bool rows;                  /* the markers are rows: shown_* are rows */
    pv_view *view;              /* ... and these their statistics (range_statistics) */
    pv_report rep;
    bool open;
} pv_range_state;

/* :sql (app_sql.c, docs/sql.md): one connection over every file. */
typedef struct pv_app_sql {
    struct pv_sql *conn; /* made at the first query */
    size_t files;        /* files[0 .. files) are exposed to it */
    size_t file;         /* the file holding the results, or PV_NO_ROW */
    size_t count;        /* queries shown (numbers the result views) */
    char *pending;       /* the query to run (a PV_JOB_SQL job runs it) */
    double start;
    bool running; /* the status bar shows the query's progress */
    uint64_t rows, visited;
    pv_app_sql_names names; /* completion candidates of :sql */
    /* Per result view (its index in the results' set): where its query
     * was run from, where q goes back to (docs/tui.md "Quitting"). */
    pv_location *from;
    size_t from_count;
} pv_app_sql;

/* The clipboard (y, Y, :copy): the terminal (term.c; NULL in the scripted
 * mode) writes bytes to the terminal. */
typedef struct pv_clipboard {
    void (*send)(void *ctx, const char *bytes, size_t len);
    void *ctx;
    pv_buf copied; /* the text last copied */
} pv_clipboard;

/* :diff (docs/diff.md): the diff view is the Report while `on`. */
typedef struct pv_diff_state {
    pv_report rep;
    bool on;
    char *pending;       /* :diff FILE: the file being loaded */
    pv_diff_windows win; /* :diff over two windows */
} pv_diff_state;

/* The export dialog (app_export.c). */
typedef struct pv_export_dialog {
    int format; /* pv_export_format */
    int what;   /* bits 1 << PV_EXPORT_PART_*: the parts chosen */
    int field;  /* format, the parts, path (app_export.c) */
    pv_buf summary;   /* what will be written ("182 rows: ..."), or why not */
    bool summary_bad; /* the choices do not fit together */
    pv_buf error;     /* the last failure, shown in the dialog */
    int last_format;  /* the session's last export: 1 + its format, 0 none */
    pv_buf last_dir;  /* ... and its directory, with its '/' ("" none) */
    pv_buf path;
    size_t path_pos;
    bool confirm; /* the path exists: Enter replaces it, Esc keeps it */
    bool running; /* the status bar shows the export's progress */
    atomic_int cancel;
    uint64_t done, total;
    char stage[32]; /* the progress's `what`: "exporting", "selecting rows" */
    double start;
} pv_export_dialog;

/* A long call on this thread (`:sql`, an export; docs/tui.md "Long
 * operations"): its progress callback calls pv_app_pump, which calls the
 * terminal driver's pump about every PV_PUMP_S to draw a frame and read
 * the keys (Esc and Ctrl-C set `stop`; other keys wait). */
typedef struct pv_pump {
    void (*fn)(void *user);
    void *user;
    double last;
    bool stop;
} pv_pump;

/* The lane strip (lanes.c, docs/tui.md "Lane strip"): the areas pinned in
 * one view, the zoomed span of one view, where the lanes were drawn (for
 * the mouse). */
typedef struct pv_lanes_state {
    const pv_view *view;
    uint64_t pin[PV_LANE_PINS];
    size_t pins;
    bool zoomed;
    const pv_view *zoom_view;
    int64_t t0, t1;    /* the zoomed span, both ends shown */
    size_t cursor_row; /* the selected row when the span last followed it */
    pv_rect rect;      /* the lanes' cells, empty when none drawn */
    int64_t view_t0, view_span;
} pv_lanes_state;

/* The viewer: what the panes share (the open files and their items, where
 * we are, the focus, the message line, the screen) and each pane's and
 * service's own state. */
struct pv_app {
    pv_tui_options opt;
    pv_tui_config cfg;
    pv_theme theme;
    bool theme_changed;
    bool utf8, ascii;
    pv_time_unit unit;
    pv_grid grid;
    int width, height;
    int cursor_y, cursor_x;
    bool cursor_on;

    /* the open files, and the Explorer's items over them */
    pv_file **files;
    size_t file_count, file_cap;
    pv_item *items;
    size_t item_count, item_cap;
    pv_loader_state load;
    pv_indexer index;

    /* where we are: the view, its drill-down, the history */
    pv_location loc;
    pv_report drill[PV_LOC_MAX_DEPTH];
    pv_history history;
    bool history_started;
    size_t open_stopped; /* the item whose opening Esc stopped, or PV_NO_ROW */

    /* the screen: focus, layout, the message line */
    int focus;
    bool zoom;
    int page_rows[PV_PANE_COUNT];
    pv_rect rect[PV_PANE_COUNT];
    pv_buf message; /* the status line's message ("" = none), any length */
    bool message_error;
    pv_buf search;  /* the search text in force, any length */
    bool quit;
    bool quit_armed; /* Ctrl-C once after indexing stopped: again quits */
    bool quit_ask;   /* "Quit profview? y/n" is asked: y quits, any other key stays */

    /* the panes and overlays */
    pv_explorer_state ex;
    pv_report_panel rp;
    pv_details_state det;
    pv_prompt_state prompt;
    pv_overlay_state ov;
    pv_export_dialog exp;
    pv_lanes_state lanes;
    pv_flame_ui flame; /* flame graph, icicle, sandwich (docs/flame.md) */
    pv_diff_state diff;
    pv_range_state range;
    pv_markers mark;

    /* long work: the one job (jobs.h), a long call's frames, the blocks
     * the reports no longer need (a replaced selection), given back in
     * steps between key presses (core.h pv_trash) */
    pv_jobs jobs;
    pv_pump pump;
    pv_trash trash;
    pv_app_sql sql;
    pv_clipboard clip;
};

/* One slice of background indexing takes about this long, so that a key
 * pressed meanwhile waits less than a frame (docs/quality.md: 16 ms). */
#define PV_INDEX_SLICE_S 0.004
/* At most this many events (or calls) per slice: about 6 ms of the pass on
 * the build machine (24 ns per event), the dearest unit of work. */
#define PV_INDEX_SLICE_MAX (1u << 18)

/* Views with more rows than this are filtered and sorted only after the
 * screen shows "Sorting N rows..." (docs/tui.md: long work shows itself). */
#define PV_BIG_VIEW 200000

/* Bytes of trash given back per step of idle work: about 1-3 ms. */
#define PV_TRASH_STEP (16u << 20)

/* The most text `y`, `Y` and `:copy view` send to the clipboard: the OSC 52
 * sequence (base64, 4/3 of it) stays under tmux's 1 MiB limit. */
#define PV_COPY_MAX (512 * 1024)

/* At most this many rows per step of a search, sort or filter: about 8 ms
 * of the dearest phase (reading cells, ~60 ns a row on the build machine). */
#define PV_JOB_STEP_MAX (1u << 17)

/* Rows the incremental search looks at per key press. */
#define PV_SEARCH_STEP 30000

/* app.c */
double pv_app_now(void);
/* pv_app_message with printf formatting (the text may be of any length). */
void pv_app_messagef(pv_app *a, bool is_error, const char *fmt, ...) PV_PRINTF(3, 4);
pv_item *pv_app_add_item(pv_app *a, int kind, size_t file, size_t set, size_t view);
void pv_app_enqueue(pv_app *a, const char *path);
/* The same, cut to a time window (win->on) and indexed in full by the
 * loader; it arrives in pv_app_diff_window_arrived, not in the Explorer. */
void pv_app_enqueue_window(pv_app *a, const char *path, const pv_app_window *win);
pv_view *pv_item_view(const pv_app *a, const pv_item *it);
/* The report the Report pane shows (opened on first use), or NULL. */
pv_report *pv_app_report(pv_app *a);
/* The report of the focused pane (the Report's when the Explorer has focus
 * or the Details pane is empty). */
pv_report *pv_app_focused_report(pv_app *a);
/* Where we are now (view, drill-down, selection, filter, sort). */
void pv_app_here(pv_app *a, pv_location *out);
/* Sets a location's filter and sort texts to those of report r. */
void pv_app_location_texts(pv_location *l, const pv_report *r);
/* Shows `to` without touching the history. */
void pv_app_apply(pv_app *a, const pv_location *to);
/* Shows `to`; with push, the place we leave goes into the history. */
void pv_app_go(pv_app *a, const pv_location *to, bool push);
void pv_app_warnings_changed(pv_app *a, size_t fi);
void pv_app_open_report(pv_app *a, pv_report *r, pv_view *v, bool owned);
void pv_app_report_opened(pv_app *a, pv_report *r);
/* An item's view is being opened in steps (PV_JOB_OPEN); its progress
 * (0..100) in *pct when not NULL. */
bool pv_app_opening(const pv_app *a, double *pct);
void pv_app_show_item(pv_app *a, size_t item);
/* Opens detail tab `detail` of `owner_row` as the Report. */
void pv_app_drill(pv_app *a, size_t detail, size_t owner_row, size_t select_row);
void pv_app_sync_details(pv_app *a);
/* :stats: asks the loader for the statistics between the markers (both
 * set) of the Report's file; the Details pane shows them when they come. */
void pv_app_range_request(pv_app *a);
/* Hides the range statistics and frees the window file. */
void pv_app_range_hide(pv_app *a);
/* q at the top level, Ctrl-C with nothing to stop: quits, or asks first
 * ("Quit profview? y/n") when a big index or state the user made (markers,
 * pinned lanes, a filter) would be lost (docs/tui.md "Quitting"). */
void pv_app_quit_request(pv_app *a);

/* A file holds an index of more than PV_BIG_VIEW events (Ctrl-C asks
 * before quitting). */
bool pv_app_big_index(const pv_app *a);
/* The file of the focused Report's view is still being indexed. */
bool pv_app_report_indexing(const pv_app *a);
/* Indexing progress of the file being indexed, for the screen ("indexing
 * 34% 25 M events/s ETA 1.4 s"); empty when nothing is indexed. */
void pv_app_index_text(const pv_app *a, char *out, size_t size);

/* app_draw.c */
void pv_app_title(pv_app *a, int y, int x, int w, const char *title, bool focused);

/* lanes.c (docs/tui.md "Lane strip") */
/* Rows the strip takes under the Report (0: no strip). */
int pv_lanes_height(const pv_app *a, const pv_report *r);
/* Rows the strip takes under a Report body of body_h lines (docs/tui.md
 * "Layout"): all of them when the events keep PV_REPORT_ROWS_MIN rows,
 * else fewer lanes (title, at least one lane, the axis) as long as they
 * keep 5; 0: no strip. */
int pv_lanes_fit(const pv_app *a, const pv_report *r, int body_h);
void pv_lanes_draw(pv_app *a, const pv_report *r, pv_rect rc, bool focused);
/* Lane keys (zoom, pan, fit, A..B, pin, calls); false: not a lane key here. */
bool pv_lanes_key(pv_app *a, pv_action act);
bool pv_lanes_mouse(pv_app *a, int y, int x, int button);
/* :goto longest / shortest; false: another :goto. */
bool pv_lanes_goto(pv_app *a, pv_report *r, const char *arg);
/* Pins `area` in view v (toggle: unpin when pinned, and say so). */
bool pv_lanes_pin_area(pv_app *a, const pv_view *v, uint64_t area, bool toggle);
/* Pinned lanes still being built (docs/tui.md "Lane strip"): building them
 * goes on between key presses like indexing.  pv_lanes_build_slice builds
 * for about `seconds` (or `budget` units when budget != 0) and returns true
 * while one is left; pv_lanes_build_text writes "lane NAME 42%" (empty when
 * none); pv_lanes_build_stop unpins them (Ctrl-C), true when there were. */
bool pv_lanes_building(const pv_app *a);
bool pv_lanes_build_slice(pv_app *a, size_t budget, double seconds);
void pv_lanes_build_text(const pv_app *a, char *out, size_t size);
bool pv_lanes_build_stop(pv_app *a);
/* An activity cell's character and a sparkline level (unit tests). */
uint32_t pv_lanes_activity_char(bool fancy, int64_t active, int64_t suspended, int64_t bucket);
/* The colour of lane `lane` (lane-1 .. lane-6, cycled), and of a cell of a
 * PV_COL_LANE column in row `row` (`role` when the row shows no lane). */
pv_role pv_lanes_role(size_t lane);
pv_role pv_lanes_row_role(const pv_view *v, size_t row, pv_role role);
int pv_lanes_level(double value, double lo, double hi);

/* app_sql.c */
/* :sql QUERY: runs it (as work, after the screen says so). */
void pv_app_sql_start(pv_app *a, const char *query);
void pv_app_sql_run(pv_app *a);
/* From a long call's progress callback: a frame and the keys when
 * PV_PUMP_S passed since the last; true once Esc or Ctrl-C asked it to
 * stop. */
bool pv_app_pump(pv_app *a);
/* Table, function and column names for the prompt's completion. */
void pv_app_sql_complete(pv_app *a, const char *prefix, void (*fn)(void *ctx, const char *name),
                         void *ctx);
/* y / Y: the selected cell (the leftmost column shown) or row as TSV. */
void pv_app_copy_selection(pv_app *a, bool whole_row);
/* :copy view|row|cell|FILE */
void pv_app_copy_command(pv_app *a, const char *arg);
/* app_export.c */
/* Tab on a file name being typed (the export dialog's path): completes it
 * to the longest common prefix of the matching files (a directory with its
 * '/'), listing them in the message line when there are several; the same
 * completion as :open's (prompt.c). */
void pv_app_complete_path(pv_app *a, pv_buf *path);
void pv_app_export_open(pv_app *a);
void pv_app_export_key(pv_app *a, int key);
void pv_app_export_command(pv_app *a, const char *arg);
/* The comparison queued while a file was indexed (q->set, named q->arg). */
void pv_app_diff_queued(pv_app *a, const pv_command_args *q);
/* The export queued while its file was indexed (pv_app_command_queue). */
void pv_app_export_queued(pv_app *a, const pv_command_args *q);

/* app_input.c: keys, filter and sort asked from keys */
/* Sorts by column col (the same column again: the other direction). */
void pv_app_sort_by(pv_app *a, pv_report *r, size_t col, bool toggle_same);
void pv_app_sort_keys(pv_app *a, pv_report *r, const pv_sort_key *keys, size_t count);
/* Filters the focused report (a big one after the screen says so). */
void pv_app_apply_filter(pv_app *a, const char *expr);

/* prompt.c: the prompt and its line editor */
void pv_app_prompt_open(pv_app *a, int kind, const char *initial);
void pv_app_prompt_key(pv_app *a, int key);
/* Searches the focused report from `from` in direction dir, in steps. */
void pv_app_search_from(pv_app *a, pv_report *r, size_t from, int dir);

/* goto.c: J / K: the next row (dir) of the selected row's area. */
void pv_app_step_event(pv_app *a, int dir);
/* :goto N|TIME|A|B on the focused report. */
void pv_app_goto(pv_app *a, const char *arg);

/* app_commands.c: runs a : command line (commands.def). */
void pv_app_run_command(pv_app *a, const char *cmd);

size_t pv_app_utf8_next(const char *s, size_t len, size_t pos);
void pv_app_search_now(pv_app *a, pv_report *r, size_t from, int dir);

#endif
