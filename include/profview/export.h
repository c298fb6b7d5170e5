/*
 * export.h - writing what is shown to Text1, BIN, SQLite or the Trace Event
 * Format (trace-json) (docs/export.md).
 *
 * The generic part (src/export/) owns the output files: each is written as
 * a temporary file in the target's directory and renamed into place only
 * when the whole export succeeded; an existing file is replaced only when
 * asked (force); an input file is never written.  On any error or a cancel
 * every temporary file is removed, so nothing is left behind.
 *
 * What goes into the files is decided by the request and read from the
 * model: the profview SQLite schema from the views (src/export/sqlite.c),
 * format-specific files (winIDEA Text1/BIN, AQTime's own SQLite schema)
 * through the file-level export hook a loader puts in its pv_file_hooks
 * (hooks.h).
 */
#ifndef PROFVIEW_EXPORT_H
#define PROFVIEW_EXPORT_H

#include <stdio.h>

#include "profview/model.h"

typedef enum pv_export_format {
    PV_EXPORT_TEXT1,
    PV_EXPORT_BIN,
    PV_EXPORT_SQLITE,
    PV_EXPORT_TRACE_JSON, /* the Trace Event Format, JSON object form (src/export/trace.c) */
    PV_EXPORT_FORMAT_COUNT
} pv_export_format;

/* "text1", "bin", "sqlite", "trace-json" -> format; false for anything else. */
bool pv_export_format_parse(const char *name, pv_export_format *out);
const char *pv_export_format_name(pv_export_format f);

/* A bookmark the user set (the viewer's `b`, docs/tui.md "Bookmarks"): a
 * row of a view, with its time when the row has one.  Written by the
 * exports that hold bookmarks (trace-json: an instant event at its time;
 * SQLite: the profview_bookmarks table; docs/export.md).  The strings are
 * the caller's, valid during the export. */
typedef struct pv_export_bookmark {
    const char *view; /* the view's id ("call-trace", "timeline", ...) */
    size_t row;       /* its row in that view (0-based, view order) */
    bool has_time;
    int64_t time;     /* ns, when has_time */
    const char *note; /* the user's note, or NULL */
} pv_export_bookmark;

/* What to export.  The time window is the one the file was loaded with
 * (pv_load_options.from/to): the views and statistics already are over it. */
typedef struct pv_export_request {
    pv_export_format format;
    int bin_version;       /* BIN: 10 or 11; 0 = the source's version (1.1 without one) */
    int64_t instance;      /* result set INST_ID; < 0: every result set of the file */
    const char *view_id;   /* NULL: whole result sets; else only this view's rows */
    const char *filter;    /* filter expression over that view (or the timeline), or NULL */
    const pv_row *rows;    /* with view_id: these rows of the view (the viewer's filtered
                              rows, in the order shown), or NULL; the filter, --context
                              and --areas apply on top (the markers' window) */
    size_t row_count;
    bool has_from, has_to; /* timelines (Text1/BIN): a window of its own, inclusive, on top
                              of the one the file was loaded with (the viewer's markers);
                              it reopens as shown (docs/export.md "Windows") */
    int64_t from, to;
    const char *context;   /* only this context (timelines) / thread, or NULL */
    const char *areas;     /* timelines: glob over area names ('*', '?'), or NULL */
    const char *profile;   /* Text1: a YAML export profile, or NULL for the default */
    bool has_mark[2];      /* markers A and B on times (the viewer's; the CLI's --from/--to): */
    int64_t mark[2];       /* trace-json writes them as instant events */
    const pv_export_bookmark *bookmarks; /* or NULL: the user's bookmarks (trace-json: */
    size_t bookmark_count;               /* instants at their times; SQLite: a table) */
    pv_progress progress;
    pv_trash *trash;       /* or NULL: the export's big work blocks (hundreds of MB at 50 M
                              rows) are put here instead of freed, for a viewer to give
                              back in steps between key presses (docs/tui.md) */
    /* or NULL: called with each temporary file's path once it is created,
     * before anything is written to it (tests: another user swapping it) */
    void (*after_create)(const char *temp_path, void *arg);
    void *after_create_arg;
    pv_test_options test; /* the tests' switches (core.h): export-grace-ms, detail-rows */
} pv_export_request;

void pv_export_request_init(pv_export_request *r);

/* True when the request selects less than the whole result set(s). */
bool pv_export_request_restricted(const pv_export_request *r);

typedef enum pv_export_status {
    PV_EXPORT_OK = 0,
    PV_EXPORT_USAGE = 1,       /* the request does not fit the file (message says what fits) */
    PV_EXPORT_FAILED = 2,      /* I/O error, or the data could not be written */
    PV_EXPORT_CANCELLED = 3,
    PV_EXPORT_UNSUPPORTED = 4, /* a hook's answer: this format is not mine to write */
} pv_export_status;

/* ---- the output files of one export */

typedef struct pv_export_target pv_export_target;

/* Creates a temporary file beside `final_path` (same directory, so the
 * rename is atomic; named `.NAME.profview-tmp-XXXXXX`) and returns its
 * path (owned by the target) in *temp: open it with pv_export_writer_open
 * or sqlite3_open_v2 only (both get the descriptor that created it, never
 * a new open by name).  The file is created empty, mode 0666 minus the
 * umask.  Returns false with
 * a message in `err` when the directory cannot be written, when
 * final_path exists and the target does not force, or when final_path is
 * one of the files the export reads. */
bool pv_export_target_add(pv_export_target *t, const char *final_path, const char **temp,
                          pv_diag *err);
/* Also protects `path` (a file the export reads, e.g. a BIN beside the
 * input) from being the target. */
void pv_export_target_protect(pv_export_target *t, const char *path);
/* The main output path (-o OUT). */
const char *pv_export_target_path(const pv_export_target *t);

/* A buffered writer on a target file that remembers the first error. */
typedef struct pv_export_writer {
    int fd;
    char *buf;
    size_t len, cap;
    int error; /* errno of the first failed write, 0 */
    uint64_t written;
    const char *path; /* the temporary file (for messages) */
    /* or NULL: reported to while pv_export_writer_close waits for the
     * disk (fsync: 0.4 s after 2 GB), which then runs on a helper thread */
    const pv_progress *progress;
    const char *what;
    uint64_t done, total;
} pv_export_writer;

bool pv_export_writer_open(pv_export_writer *w, const char *temp_path, pv_diag *err);
void pv_export_writer_write(pv_export_writer *w, const void *data, size_t len);
static inline void pv_export_writer_putc(pv_export_writer *w, char c)
{
    if (w->len == w->cap)
        pv_export_writer_write(w, &c, 1);
    else
        w->buf[w->len++] = c;
}
/* Room for `len` bytes at the end of the buffer (len <= 4096): write them,
 * then pv_export_writer_commit(w, n). */
char *pv_export_writer_reserve(pv_export_writer *w, size_t len);
static inline void pv_export_writer_commit(pv_export_writer *w, size_t n) { w->len += n; }
/* Flushes, fsyncs and closes; false (message in err, naming `final_name`)
 * on any error of the whole life of the writer. */
bool pv_export_writer_close(pv_export_writer *w, const char *final_name, pv_diag *err);
/* Closes without caring (the export failed anyway). */
void pv_export_writer_discard(pv_export_writer *w);

/* ---- the file-level hook (hooks.h: pv_file_hooks.export) */

/* A loader whose format has format-specific exports sets
 * pv_file_hooks.export to a function of this type.  It writes `r` for `f` through `t` (adding its
 * output files with pv_export_target_add) and returns PV_EXPORT_UNSUPPORTED,
 * writing nothing, for a request it does not handle (the generic writer
 * then takes it, or the export is a usage error).  Messages go to `err`. */
typedef int (*pv_export_hook)(const pv_file *f, const pv_export_request *r,
                              pv_export_target *t, pv_diag *err);

/* The format's own exports for f (docs/export.md: Text1/BIN of a winIDEA
 * timeline, AQTime's own SQLite schema): the hook of the loader that read
 * it (pv_loader.export, load.h), or NULL.  Declared here, defined by the
 * formats (src/formats/detect.c): the export layer knows no format. */
pv_export_hook pv_export_format_hook(const pv_file *f);

/* ---- running an export */

/* Exports `r` from `f` to `out` (plus `out`.BIN for a BIN export with a
 * mapping).  With `force`, existing files are replaced (never an input).
 * Messages (naming the file and what happened) go to `err`.  Nothing is
 * left behind unless PV_EXPORT_OK is returned. */
pv_export_status pv_export_file(const pv_file *f, const pv_export_request *r, const char *out,
                                bool force, pv_diag *err);

/* The generic SQLite writer (the profview schema, docs/export.md) over the
 * views of the requested result sets; used when the file's hook does not
 * write SQLite itself. */
pv_export_status pv_export_sqlite_views(const pv_file *f, const pv_export_request *r,
                                        pv_export_target *t, pv_diag *err);

/* The same tables (the profview schema's catalogue and the requested
 * views, with their details) written into `db`, an open connection inside
 * a transaction, beside what is there: an AQTime subset stores the
 * selected view as shown beside AQTime's tables (docs/export.md).  `out`
 * names the file in messages.  Sets no application_id. */
struct sqlite3;
pv_export_status pv_export_sqlite_views_into(struct sqlite3 *db, const pv_file *f,
                                             const pv_export_request *r, const char *out,
                                             pv_diag *err);

/* The rows of `v` to export: NULL with *n = every row (view order), or a
 * malloc'd selection (room for pv_export_selection_room rows).  Every part
 * of the request applies, one after the other (docs/export.md "Selections
 * combine"): when `selected_view`, its rows (else every row), then its
 * --context (rows whose `context`/`thread` column is that name; in any
 * view), when `selected_view` its --areas (rows whose `name` matches the
 * glob) and its filter (a tree keeps ancestors).  *ok false (message in
 * err) on a bad filter or --areas over a view without names, or (no
 * message) when the request's progress was cancelled: the selection
 * reports its progress ("selecting rows") every 64 K rows. */
pv_row *pv_export_select_rows(const pv_view *v, const pv_export_request *r, bool selected_view,
                              size_t *n, pv_diag *err, bool *ok);

/* The rows a selection of pv_export_select_rows has room for. */
size_t pv_export_selection_room(const pv_view *v, const pv_export_request *r, bool selected_view);

/* Frees p (malloc'd, `bytes` long): into the request's trash when it has
 * one (a big block is then given back in steps), else at once. */
void pv_export_dispose(const pv_export_request *r, void *p, size_t bytes);

/* The Trace Event Format writer (docs/export.md "Trace Event Format"): the
 * requested result sets' call trace (a track per context), line
 * activations, data areas as counters, markers and bookmarks as instants,
 * streamed from the views and hooks into one JSON file. */
pv_export_status pv_export_trace_json(const pv_file *f, const pv_export_request *r,
                                      pv_export_target *t, pv_diag *err);

/* Glob match ('*' any run, '?' one byte), case-sensitive, as --areas. */
bool pv_export_glob_match(const char *pattern, const char *s, size_t len);

#endif
