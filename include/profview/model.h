/*
 * model.h - the loaded model as the rest of profview sees it: files, result
 * sets, and views (typed columns, rows, an optional tree, detail views).
 *
 * Data flows one way: file -> loader -> model -> view -> (TUI | CLI | export).
 * A view is a small struct of function pointers over whatever the loader
 * built (docs/code-style.md habit 2); every consumer reads cells through one typed
 * accessor, pv_view_cell (habit 3).  Most views are pv_table (table.h), a
 * generic materialised table; a view over millions of events implements the
 * operations itself and computes cells on demand.
 */
#ifndef PROFVIEW_MODEL_H
#define PROFVIEW_MODEL_H

#include "profview/core.h"

#define PV_NO_ROW SIZE_MAX

/* A row of a view in a row selection (a list of rows after a filter or a
 * sort, the viewer's visible rows, the rows to export): 32 bits, 4 bytes a
 * row, for no view has more than PV_VIEW_ROWS_MAX rows (docs/model.md "Row
 * selections").  Functions that take one row keep size_t (and PV_NO_ROW). */
typedef uint32_t pv_row;
#define PV_VIEW_ROWS_MAX ((size_t)UINT32_MAX)

typedef enum pv_type {
    PV_TYPE_INT,    /* signed 64-bit count or number */
    PV_TYPE_FLOAT,  /* double (percentages, averages, analog values) */
    PV_TYPE_TIME,   /* signed 64-bit nanoseconds */
    PV_TYPE_HANDLE, /* 32-bit handle, written 0x + 8 upper-case hex digits */
    PV_TYPE_HEX,    /* unsigned value, written 0x + upper-case hex, no padding */
    PV_TYPE_STRING, /* bytes, possibly not UTF-8, never NUL */
} pv_type;

const char *pv_type_name(pv_type t);

typedef struct pv_cell {
    pv_type type;
    bool present; /* false: the value does not exist for this row (empty cell) */
    union {
        int64_t i; /* INT, TIME */
        double f;  /* FLOAT */
        uint64_t u; /* HANDLE, HEX */
        struct {
            const char *ptr;
            size_t len;
        } s; /* STRING: valid until the view is changed or freed; the same
              * (ptr, len) is the same text for the view's life, so readers
              * may remember an answer by the pointer (filters, sorts, search) */
    } v;
} pv_cell;

/* Column flags. */
enum {
    PV_COL_NAME = 1u << 0,     /* the view's name column (bare-text filter, search) */
    PV_COL_HIDDEN = 1u << 1,   /* not shown by default in the TUI */
    PV_COL_DESC = 1u << 2,     /* sorts descending by default (hits, times) */
    PV_COL_TREE = 1u << 3,     /* the TUI draws the tree indentation in this column */
    PV_COL_GROUPED = 1u << 4,  /* the value depends only on the row's group (row_group):
                                  a filter on such columns is evaluated once per group */
    PV_COL_KEY = 1u << 5,      /* part of the row's identity across files (diff matching,
                                  docs/diff.md); without any, every text column is */
    PV_COL_SINCE_PREV = 1u << 6, /* a TIME: the row's time (row_time) minus the previous
                                    row's; the view counts from its previous row, a list of
                                    some of its rows from the previous row shown
                                    (pv_view_cell_after, docs/model.md "Columns") */
    PV_COL_LANE = 1u << 7,       /* names the row's lane (pv_lane_hooks.row_lane: a
                                    context, a thread): the viewer colours it like the lane */
    PV_COL_MINOR = 1u << 8,      /* a technical detail (a handle): where the pane is too
                                    narrow for every column, the viewer draws it after the
                                    others, so that the name keeps its room (docs/tui.md
                                    "Columns") */
};

typedef struct pv_column {
    const char *id;    /* stable column id (docs/cli.md: a contract) */
    const char *title; /* shown in the TUI header */
    pv_type type;
    unsigned flags;
} pv_column;

/* The columns that several formats share, declared once (docs/model.md
 * "Columns"): the same id, title and type wherever they appear.  A column
 * array writes {PV_COLUMN_MODULE, PV_COL_KEY}; a column of the same id that
 * means something else in one view (the callers' `time`, a time with
 * children) is written out there, with a comment saying so
 * (tests/cli/columns.sh). */
#define PV_COLUMN_ID "id", "Id", PV_TYPE_INT
#define PV_COLUMN_PARENT "parent", "Parent", PV_TYPE_INT
#define PV_COLUMN_DEPTH "depth", "Depth", PV_TYPE_INT
#define PV_COLUMN_ROUTINE "routine", "Routine", PV_TYPE_STRING
#define PV_COLUMN_MODULE "module", "Module", PV_TYPE_STRING
#define PV_COLUMN_HITS "hits", "Hits", PV_TYPE_INT
#define PV_COLUMN_TIME "time", "Time", PV_TYPE_TIME
#define PV_COLUMN_TIME_WITH_CHILDREN "time_with_children", "Time with children", PV_TYPE_TIME
#define PV_COLUMN_SOURCE "source", "Source File", PV_TYPE_STRING
#define PV_COLUMN_LINE "line", "Source Line", PV_TYPE_INT
#define PV_COLUMN_HANDLE "handle", "Handle", PV_TYPE_HANDLE
#define PV_COLUMN_CONTEXT "context", "Context", PV_TYPE_STRING

typedef struct pv_view pv_view;
typedef struct pv_file pv_file;
/* Optional capabilities of views and files (profview/hooks.h). */
typedef struct pv_view_hooks pv_view_hooks;
typedef struct pv_file_hooks pv_file_hooks;

/* A detail view that a view offers for its rows (docs/cli.md). */
typedef struct pv_detail_def {
    const char *id;    /* e.g. "call-routes" */
    const char *title; /* e.g. "Call routes" */
} pv_detail_def;

typedef struct pv_view_ops {
    /* At most PV_VIEW_ROWS_MAX (docs/model.md "Row selections"). */
    size_t (*row_count)(const pv_view *v);
    /* Fills *out for (row, col); row < row_count, col < column_count. */
    void (*cell)(const pv_view *v, size_t row, size_t col, pv_cell *out);
    /* Tree views: the parent row, or PV_NO_ROW at the top.  NULL for tables.
     * Rows of a tree are stored in pre-order: every parent comes before its
     * children, and siblings are in their natural order. */
    size_t (*parent)(const pv_view *v, size_t row);
    /* Opens detail view number `detail` (index into v->details) for `row`.
     * Returns NULL when the row has none; the caller frees the result. */
    pv_view *(*open_detail)(const pv_view *v, size_t detail, size_t row);
    void (*destroy)(pv_view *v);
    /* Optional: a small number identifying what the row is "of" (the area of a
     * timeline event), so that conditions on PV_COL_GROUPED columns are
     * decided once per group instead of once per row.  NULL: no groups. */
    uint32_t (*row_group)(const pv_view *v, size_t row);
} pv_view_ops;

struct pv_view {
    const pv_view_ops *ops;
    char *id;    /* view id, e.g. "routines" */
    char *title; /* e.g. "Routines" */
    pv_column *columns;
    size_t column_count;
    const pv_detail_def *details; /* static storage, owned by the provider */
    size_t detail_count;
    uint32_t group_count; /* with ops->row_group: groups are 0 .. group_count-1 */
    void *impl;
    /* Optional capabilities (profview/hooks.h), NULL: none.  hook_ctx is
     * the format's own pointer for them (impl may be a generic pv_table);
     * it outlives the view. */
    const pv_view_hooks *hooks;
    void *hook_ctx;
};

/* ---- generic accessors; every consumer uses these */

static inline size_t pv_view_rows(const pv_view *v) { return v->ops->row_count(v); }
#ifdef PV_CHECKS
/* Checks builds (-DPV_CHECKS=ON; sanitizer, fuzz and test builds): aborts,
 * naming the view and the column, when a cell's type is not its column's. */
void pv_view_check_cell(const pv_view *v, size_t row, size_t col, const pv_cell *c);
#endif
static inline void pv_view_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    v->ops->cell(v, row, col, out);
#ifdef PV_CHECKS
    pv_view_check_cell(v, row, col, out);
#endif
}
static inline bool pv_view_is_tree(const pv_view *v) { return v->ops->parent != NULL; }
static inline size_t pv_view_parent(const pv_view *v, size_t row)
{
    return v->ops->parent ? v->ops->parent(v, row) : PV_NO_ROW;
}
/* Column index by id, case-insensitive; PV_NO_ROW when absent. */
size_t pv_view_column(const pv_view *v, const char *id);
/* The cell of `row` as shown in a list of rows whose previous row is
 * `prev` (PV_NO_ROW: the first shown): pv_view_cell, except that a
 * PV_COL_SINCE_PREV column counts from `prev` (absent for the first row;
 * a view without row_time keeps its own values).  The viewer and `profview cat` show cells through it. */
void pv_view_cell_after(const pv_view *v, size_t row, size_t prev, size_t col, pv_cell *out);

/* The name column (PV_COL_NAME), or PV_NO_ROW. */
size_t pv_view_name_column(const pv_view *v);
/* Depth of a row in a tree (0 at the top). */
size_t pv_view_depth(const pv_view *v, size_t row);
/* The first row whose column `col` (an integer or handle column) equals
 * `value`, or PV_NO_ROW: rows `value` and `value - 1` are tried first (dense
 * ids and indices), then every row. */
size_t pv_view_find_value(const pv_view *v, size_t col, int64_t value);
/* pv_view_find_value on the `id` column. */
size_t pv_view_find_id(const pv_view *v, int64_t id);
/* Index of the detail with that id, or PV_NO_ROW. */
size_t pv_view_detail_index(const pv_view *v, const char *detail_id);
pv_view *pv_view_open_detail(const pv_view *v, size_t detail, size_t row);
void pv_view_free(pv_view *v);
/* For view providers whose view owns its names: sets v's id, title and
 * columns to copies of these (a column without a title gets its id), and
 * frees them again (pv_view_free_names, from the provider's destroy). */
void pv_view_copy_names(pv_view *v, const char *id, const char *title, const pv_column *columns,
                        size_t column_count);
void pv_view_free_names(pv_view *v);

/* ---- formatting a cell */

/* Machine-exact text (docs/cli.md): times as integer ns, handles 0x%08X,
 * hex values 0x%X, floats as the shortest text that reads back as the same
 * double, strings raw (the writer escapes them).  An absent cell is "". */
void pv_cell_format_exact(const pv_cell *c, pv_buf *out);
/* Text for people: times in `unit`, thousands kept plain. */
void pv_cell_format_human(const pv_cell *c, pv_time_unit unit, pv_buf *out);
/* Compares two cells of the same type: <0, 0, >0.  Absent sorts first.
 * Strings compare bytewise. */
int pv_cell_compare(const pv_cell *a, const pv_cell *b);

/* ---- result sets and files */

typedef struct pv_result_set {
    int64_t id;    /* INST_ID for AQTime; 1.. otherwise */
    char *caption;    /* shown in the Explorer (in the set's own block) */
    const char *kind; /* e.g. "Function Trace", "winIDEA timeline" (kept once
                         per file: pv_file.kinds) */
    pv_view **views;
    size_t view_count;
    size_t view_cap;
    /* Notes for `profview info` (e.g. which key reading a link used): one
     * block, the pointers, then their texts (pv_set_add_note). */
    char **notes;
    size_t note_count;
} pv_result_set;

struct pv_file {
    char *path;
    const char *format; /* loader name, e.g. "winidea-text1" */
    pv_result_set **sets;
    size_t set_count;
    size_t set_cap;
    pv_diag diag; /* warnings and errors about this file */
    void *loader_data;
    void (*loader_free)(void *loader_data);
    const pv_file_hooks *hooks; /* optional capabilities (profview/hooks.h), NULL: none */
    /* The kinds of its result sets, each once (a file may hold a million
     * result sets of one kind, docs/aqtime.md "Scale"). */
    char **kinds;
    size_t kind_count;
};

/* The file's warnings as a view "warnings" (id, severity, file, place,
 * reason), one row per kept diagnostic and one saying how many more were
 * not kept (docs/tui.md "Warnings").  The caller frees it. */
pv_view *pv_file_warnings_view(const pv_file *f);
/* How a diagnostic's text "PATH:LINE: reason" / "PATH: PLACE: reason" is
 * split (pointers into text; lengths 0 when a part is missing). */
typedef struct pv_warning_parts {
    const char *file, *place, *reason;
    size_t file_len, place_len, reason_len;
    bool place_is_line; /* place is a line number */
} pv_warning_parts;
void pv_warning_split(const char *text, const char *path, pv_warning_parts *out);

pv_result_set *pv_file_add_set(pv_file *f, int64_t id, const char *caption, const char *kind);
void pv_set_add_view(pv_result_set *s, pv_view *v);
void pv_set_add_note(pv_result_set *s, const char *fmt, ...) PV_PRINTF(2, 3);
/* Gives back the room its list of views keeps for more: for a loader of
 * many result sets, once a set is complete. */
void pv_set_fit(pv_result_set *s);
pv_view *pv_set_find_view(const pv_result_set *s, const char *view_id);
/* The result set with that id, or the first when id < 0; NULL when absent. */
pv_result_set *pv_file_find_set(const pv_file *f, int64_t id);
void pv_file_free(pv_file *f);

#endif
