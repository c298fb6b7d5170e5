/* app_internal.h - the viewer's state: what the panels share (the open
 * files and their items, where we are, the focus, the message line) and
 * one struct per panel or service, each declared in its panel's header
 * (docs/tui.md "The viewer's design"), and the functions the viewer's
 * files call across.  Not an API: only
 * src/tui includes it (the panels through panel.h). */
#ifndef PROFVIEW_TUI_APP_INTERNAL_H
#define PROFVIEW_TUI_APP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "tui/app.h"
#include "tui/app_export.h"
#include "tui/app_sql.h"
#include "tui/details.h"
#include "tui/diff.h"
#include "tui/explorer.h"
#include "tui/flame.h"
#include "tui/history.h"
#include "tui/jobs.h"
#include "tui/keymap.h"
#include "tui/lanes.h"
#include "tui/overlay.h"
#include "tui/prompt.h"
#include "tui/report.h"
#include "tui/report_pane.h"
#include "tui/session.h"

enum { PV_PANE_EXPLORER, PV_PANE_REPORT, PV_PANE_DETAILS, PV_PANE_COUNT };
enum { PV_ITEM_FILE, PV_ITEM_SET, PV_ITEM_VIEW };

typedef struct pv_item {
    int kind;
    size_t file, set, view;
    bool opened;
    pv_report report; /* views (and files with warnings: their list), opened when first shown */
} pv_item;

/* A scan over a report's rows that a key may stop (PV_JOB_SCAN): each
 * frame looks at rows for about PV_SCAN_SLICE_S, then the screen is drawn
 * and keys are read (docs/quality.md: no key blocks for more than 16 ms). */
#define PV_SCAN_SLICE_S 0.005
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
    size_t slice;     /* tests: events per slice (the engine sizes the others) */
    bool fixed_slice; /* tests: the test option index-slice, one slice per key */
    double start;     /* when the current file's indexing started */
    uint64_t start_done;
    size_t file;      /* the file being indexed */
    size_t *warnings; /* per file: warnings when adopted */
} pv_indexer;

/* The clipboard (y, Y, :copy): the terminal (term.c; NULL in the scripted
 * mode) writes bytes to the terminal. */
typedef struct pv_clipboard {
    void (*send)(void *ctx, const char *bytes, size_t len);
    void *ctx;
    pv_buf copied; /* the text last copied */
} pv_clipboard;

/* The session's messages, the last PV_MESSAGE_LOG (:messages, help.c):
 * a message goes with the next key, the log keeps it (a load error of a
 * file of the command line, docs/tui.md "Prompt line"). */
#define PV_MESSAGE_LOG 200
typedef struct pv_message_log {
    char *text[PV_MESSAGE_LOG];
    bool error[PV_MESSAGE_LOG];
    size_t count;
} pv_message_log;

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
    pv_message_log log; /* the messages shown, for :messages */
    pv_buf search;  /* the search text in force, any length */
    bool quit;
    bool quit_armed; /* Ctrl-C once after indexing stopped: again quits */
    bool quit_ask;   /* "Quit? ... y/n" is asked: y quits, any other key stays */

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

    /* long work: the one job and those beside it (jobs.h), the blocks
     * the reports no longer need (a replaced selection), given back in
     * steps between key presses (core.h pv_trash) */
    pv_jobs jobs;
    pv_trash trash;
    pv_app_sql sql;
    pv_clipboard clip;
    pv_session_ui sess; /* sessions, bookmarks, :reload (session.h) */
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
/* Enter after Esc stopped the opening of the item shown: it opens again
 * (pv_app_report); true then, and the key does nothing else. */
bool pv_app_open_again(pv_app *a);
/* Opens detail tab `detail` of `owner_row` as the Report. */
void pv_app_drill(pv_app *a, size_t detail, size_t owner_row, size_t select_row);
void pv_app_sync_details(pv_app *a);
/* :stats: asks the loader for the statistics between the markers (both
 * set) of the Report's file; the Details pane shows them when they come. */
void pv_app_range_request(pv_app *a);
/* Hides the range statistics and frees the window file. */
void pv_app_range_hide(pv_app *a);
/* q at the top level, Ctrl-C with nothing to stop: quits, or asks first
 * ("Quit? the filter of run.txt is not saved (sessions off) y/n") when
 * state the user made (markers, pinned lanes, a filter) that no session
 * saves, or a big index the index cache does not keep, would be lost
 * (docs/tui.md "Quitting"). */
void pv_app_quit_request(pv_app *a);
/* Ctrl-C: stops indexing (the job beside the one job, jobs.h): the views
 * keep what is indexed, :index goes on; says so. */
void pv_app_index_stop(pv_app *a);
/* The file of the focused Report's view is still being indexed. */
bool pv_app_report_indexing(const pv_app *a);
/* Indexing progress of the file being indexed, for the screen ("indexing
 * 34% 25 M events/s ETA 1.4 s"); empty when nothing is indexed. */
void pv_app_index_text(const pv_app *a, char *out, size_t size);

/* app_draw.c */
void pv_app_title(pv_app *a, int y, int x, int w, const char *title, bool focused);

/* app_sql.c */
/* :sql QUERY: runs it (as work, after the screen says so). */
void pv_app_sql_start(pv_app *a, const char *query);
/* Table, function and column names for the prompt's completion. */
void pv_app_sql_complete(pv_app *a, const char *prefix, void (*fn)(void *ctx, const char *name),
                         void *ctx);
/* y / Y: the selected cell (the key column, or the column scrolled to)
 * or the row as TSV. */
void pv_app_copy_selection(pv_app *a, bool whole_row);
/* :copy view|row|cell|FILE */
void pv_app_copy_command(pv_app *a, const char *arg);

/* app_input.c: keys, filter and sort asked from keys */
/* Sorts by column col (the same column again: the other direction). */
void pv_app_sort_by(pv_app *a, pv_report *r, size_t col, bool toggle_same);
void pv_app_sort_keys(pv_app *a, pv_report *r, const pv_sort_key *keys, size_t count);
/* Filters the focused report (a big one after the screen says so). */
void pv_app_apply_filter(pv_app *a, const char *expr);

/* goto.c: J / K: the next row (dir) of the selected row's area. */
void pv_app_step_event(pv_app *a, int dir);
/* :goto N|TIME|A|B on the focused report. */
void pv_app_goto(pv_app *a, const char *arg);
/* Row `row` of `v`, the view of the Explorer item just shown (pv_app_go),
 * selected with its path expanded and centred: now, or when the opening
 * of a big tree in steps ends (the Report may group v by thread). */
void pv_app_reach_row(pv_app *a, const pv_view *v, size_t row);
/* Enter on event `row` of report r before the index tells its call: Enter
 * again once the index is ready, if the event is still selected. */
void pv_app_reach_call_later(pv_app *a, pv_report *r, size_t row);

/* app_commands.c: runs a : command line (commands.def). */
void pv_app_run_command(pv_app *a, const char *cmd);

size_t pv_app_utf8_next(const char *s, size_t len, size_t pos);
void pv_app_search_now(pv_app *a, pv_report *r, size_t from, int dir);

#endif
