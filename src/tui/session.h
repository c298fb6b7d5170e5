/* session.h - where the user was, per input file (docs/tui.md "Sessions",
 * "Bookmarks", ":reload"): the view shown, each opened view's filter,
 * sort, columns and selected row, the markers, the pinned lanes and their
 * zoom, the bookmarks.  One record (pv_session) serves three uses: saved
 * at quit and restored when the file is opened again, kept across
 * `:reload` (the file reopened in place), and the bookmarks the exports
 * receive.  Curses-free; only src/tui includes it. */
#ifndef PROFVIEW_TUI_SESSION_H
#define PROFVIEW_TUI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profview/core.h"

#define PV_SESSION_PINS 8

/* A bookmark (docs/tui.md "Bookmarks"): a row of a view of an input
 * file. */
typedef struct pv_bookmark {
    size_t file;  /* the viewer's file index (in a saved session: unused) */
    size_t set;   /* the result set's index in the file */
    char *view;   /* owned: the view id */
    size_t row;   /* the row in the view as the Explorer shows it */
    int64_t id;   /* the row's `id` cell (else the row): what exports name */
    int64_t time; /* the row's time in ns, or -1 */
    char *note;   /* owned, "" for none */
} pv_bookmark;

/* One view's place (an Explorer view of the file). */
typedef struct pv_session_view {
    size_t set;
    char *view;    /* owned: the view id */
    size_t row;    /* the selected row, or PV_NO_ROW */
    char *filter;  /* owned, "" none */
    char *sort;    /* owned ("col:desc,col"), "" view order */
    char *columns; /* owned: the shown column ids ("a,b"), NULL: as opened */
    bool current;  /* the view the Report showed */
    bool mark[2];  /* markers A, B on rows of this view (no clock) */
    size_t mark_row[2];
    uint64_t pin[PV_SESSION_PINS]; /* pinned lanes (areas) */
    size_t pins;
    bool zoomed; /* the lanes' own span */
    int64_t t0, t1;
} pv_session_view;

typedef struct pv_session {
    char *path; /* owned: the input's real path */
    uint64_t size;
    int64_t mtime_s, mtime_ns;
    pv_session_view *views;
    size_t view_count;
    bool mark_time[2]; /* markers A, B at times */
    int64_t mark_at[2];
    pv_bookmark *bookmarks;
    size_t bookmark_count;
} pv_session;

void pv_session_free(pv_session *s);
void pv_bookmark_free(pv_bookmark *b);
/* The text of a saved session (docs/tui.md "Sessions": a line format). */
void pv_session_format(const pv_session *s, pv_buf *out);
/* Parses it; false with the line and the reason in why. */
bool pv_session_parse(const char *text, size_t len, pv_session *s, pv_buf *why);

/* The directory sessions live in ($XDG_STATE_HOME/profview, else
 * ~/.local/state/profview), or NULL: no HOME, or CI=true without
 * XDG_STATE_HOME (a CI run never writes to a user's state).  Owned. */
char *pv_session_dir(void);
/* The file name of the session of the input at real path `real` (a
 * 128-bit hash: 32 lowercase hex digits, ".session").  Owned. */
char *pv_session_name(const char *real);

/* At most this many sessions are kept (pv_session_prune). */
#define PV_SESSION_KEEP 500
/* Prunes the session directory after a save (docs/tui.md "Sessions"):
 * removes the sessions of inputs that no longer exist at their real path,
 * then, past `keep`, the least recently written, and a temporary file of
 * a write that never finished after a day.  Touches nothing not named as
 * a session is, nor anything not a regular file of the user's own.
 * Returns how many files it removed. */
size_t pv_session_prune(size_t keep);

typedef struct pv_app pv_app;

/* Per file of the viewer: what waits to be restored. */
typedef struct pv_session_file {
    pv_session *pending; /* restored piece by piece as its views open */
    bool file_done;      /* markers at times and bookmarks applied */
    bool forget;         /* :session reset: not saved at quit */
    bool reloaded;       /* the pending state came from :reload */
    char *say;           /* "session restored (...)": said once its view is restored */
    bool changed;        /* changed on disk since it was read (docs/input.md) */
    bool known;          /* the input as it was read: size, modification time */
    uint64_t size;
    int64_t mtime_s, mtime_ns;
} pv_session_file;

/* A :reload waiting for the loader. */
typedef struct pv_reload {
    char *path;
    size_t file;
    pv_session *state;
    bool was_shown; /* the Report showed a view of it */
} pv_reload;

/* The viewer's sessions and bookmarks (pv_app.sess). */
typedef struct pv_session_ui {
    bool on; /* sessions read and saved (not --no-session, not off in the config) */
    pv_session_file *files;
    size_t file_cap;
    pv_bookmark *bm;
    size_t bm_count, bm_cap;
    size_t bm_pos;   /* the bookmark ' and ` stepped to last, or PV_NO_ROW */
    size_t bm_file;  /* the "Bookmarks" file of the Explorer, or PV_NO_ROW */
    pv_reload *reload;
    size_t reload_count;
} pv_session_ui;

/* session.c: the parts reload.c shares.  The session file of fi (made
 * when missing); the item of view (set, id) of file fi or PV_NO_ROW; an
 * item's view id; the input's real path, size and modification time
 * (false: not a regular file); the file :session and :reload act on (the
 * Explorer's line when it has the focus, else the Report's). */
pv_session_file *pv_app_session_file(pv_app *a, size_t fi);
size_t pv_app_session_item(const pv_app *a, size_t fi, size_t set, const char *id);
struct pv_item;
const char *pv_app_item_view_id(const pv_app *a, const struct pv_item *it);
bool pv_session_identity(const char *path, char **real, uint64_t *size, int64_t *s, int64_t *ns);
size_t pv_app_session_target(const pv_app *a);

/* session.c: hooks of the viewer */
void pv_app_session_init(pv_app *a);
void pv_app_session_free(pv_app *a);
/* A file was adopted as file `fi`: reads its saved session, and may
 * choose the view to show first (*first_view, an item). */
void pv_app_session_adopted(pv_app *a, size_t fi, size_t *first_view);
/* Each frame: restores what can be now (after the index, as views open). */
void pv_app_session_tick(pv_app *a);
/* At quit: every input's session written (those pv_app_session_unsaved
 * clears). */
void pv_app_session_save_all(pv_app *a);
/* NULL when file fi's session is saved at quit, else why not, a few words
 * for the quit question ("sessions off", ":session reset", "changed on
 * disk", ...): the one rule of pv_app_session_save_all and
 * pv_app_quit_request. */
const char *pv_app_session_unsaved(pv_app *a, size_t fi);
/* :session reset|save */
void pv_app_session_command(pv_app *a, const char *arg);
/* The state of file fi now (its views, markers, pins, bookmarks). */
void pv_app_session_capture(pv_app *a, size_t fi, pv_session *out);
/* The file of an item's view pointer, or PV_NO_ROW; its item in *item. */
size_t pv_app_view_file(const pv_app *a, const void *view, size_t *item);
/* reload.c: :reload [FILE], r on a file's line: reopens file fi in place. */
void pv_app_reload(pv_app *a, size_t fi);
void pv_app_reload_command(pv_app *a, const char *arg);
/* An input changed on disk (docs/input.md "Files that change"): says
 * so, offering :reload of the open file it belongs to. */
void pv_app_input_changed(pv_app *a, const char *path);
/* File fi changed on disk since it was read (said by pv_app_input_changed,
 * or found so when it was adopted): its Explorer line says so, and so does
 * the end of its index in place of the warnings of what was read as zeros;
 * pv_app_say_changed says it again. */
bool pv_app_file_changed(const pv_app *a, size_t fi);
void pv_app_say_changed(pv_app *a, size_t fi);
/* The :reload asked did not load (the loader said why): the old file
 * stays, and the message says so. */
void pv_app_reload_failed(pv_app *a);
/* A loaded file: true when it was a :reload, now in place. */
bool pv_app_session_reloaded(pv_app *a, void *file);

/* bookmarks.c */
/* b, :bookmark [NOTE]: bookmarks the selected row. */
void pv_app_bookmark_add(pv_app *a, const char *note);
/* ' and `: the next (dir 1) or previous bookmark. */
void pv_app_bookmark_step(pv_app *a, int dir);
/* Enter in the Bookmarks view: goes to the selected one; false when the
 * Report is not that view. */
bool pv_app_bookmarks_enter(pv_app *a);
/* Shows bookmark k (its view, its row). */
void pv_app_bookmark_go(pv_app *a, size_t k);
/* Adds a bookmark (copies its texts); makes the Bookmarks file when it is
 * the first. */
void pv_app_bookmark_push(pv_app *a, const pv_bookmark *b);
/* The Bookmarks view (NULL: no bookmarks). */
struct pv_view *pv_app_bookmarks_view(pv_app *a);
/* The bookmarks of file fi (of its result set `set`; PV_NO_ROW: of
 * every set) as an export takes them (export.h); how many there are (at
 * most `max` written to out). */
struct pv_export_bookmark;
size_t pv_app_bookmarks_of(const pv_app *a, size_t fi, size_t set, struct pv_export_bookmark *out,
                           size_t max);
/* A file of the viewer's own (SQL results, Bookmarks): NAME in the
 * Explorer, of format FORMAT, one result set CAPTION of KIND holding
 * view v. */
struct pv_file *pv_app_own_file(const char *name, const char *format, const char *caption,
                                const char *kind, struct pv_view *v);
/* The file is a pseudo-file of the viewer (SQL results, Bookmarks). */
bool pv_app_file_is_pseudo(const pv_app *a, size_t fi);

#endif
