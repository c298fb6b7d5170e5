/*
 * aqtime.h - internal to the AQTime database loader (docs/formats.md §5).
 *
 * aqtime_db.c opens a SQLite file read-only and finds the seed's tables
 * (aqtime-*-db.txt); aqtime_read.c reads them into memory, converting and
 * checking every value once; aqtime_rows.c reads their cells and links
 * their rows; aqtime_sets.c makes the result sets, whose views
 * aqtime_trace.c and aqtime_objects.c build from those rows (with the
 * columns of aqtime_columns.c).  Nothing here draws, and nothing writes to
 * the database.
 */
#ifndef PROFVIEW_AQTIME_H
#define PROFVIEW_AQTIME_H

#include "profview/dbinput.h"
#include "profview/load.h"
#include "profview/table.h"

#include <sqlite3.h>

/* Every table the seeds document, once: X(enum suffix, table name, columns).
 * Columns are separated by blanks; ":t" marks a text column, every other
 * documented column holds a number (text there is reported and left empty). */
#define AQ_TABLES(X)                                                                              \
    X(INSTANCES, "INSTANCES", "INST_ID CAPTION:t COUNTER_DESCRIPTION:t COUNTER_FREQUENCY "       \
                              "COUNTER_NAME:t")                                                  \
    X(RELATIONS, "RELATIONS", "ID INST_ID COL_CHILD_TABLE:t COL_PARENT_TABLE:t")                 \
    X(FT_CALL_ROUTES, "FUNCTION_TRACE_PROFILER_CALL_ROUTES",                                     \
      "ID INST_ID PARENT_ID REC_ID COL_RECID COL_HIT_COUNT COL_ROUTE_NO")                        \
    X(FT_CALL_STACK, "FUNCTION_TRACE_PROFILER_CALL_STACK",                                       \
      "ID INST_ID PARENT_ID REC_ID COL_CALL_NO COL_MODULE_NAME:t COL_RECID COL_ROUTINE_NAME "     \
      "COL_SOURCE_FILE:t COL_SOURCE_LINE")                                                       \
    X(FT_CALL_TRACE, "FUNCTION_TRACE_PROFILER_CALL_TRACE",                                       \
      "ID INST_ID PARENT_ID REC_ID COL__S COL__S_WITH_CHILDREN COL_CALL_NO COL_LINE_NUMBER "     \
      "COL_NEXT COL_PARENT_NO COL_RECID COL_ROUTINE_NAME")                                       \
    X(FT_META_LINES, "FUNCTION_TRACE_PROFILER_META_LINES",                                       \
      "ID INST_ID PARENT_ID REC_ID COL_SOURCE_LINE")                                             \
    X(FT_META_ROUTINES, "FUNCTION_TRACE_PROFILER_META_ROUTINES",                                 \
      "ID INST_ID PARENT_ID REC_ID COL_ACTIONACTIVE COL_ACTIONDISABLEROUTINE "                   \
      "COL_ACTIONPLACEMENT COL_ACTIONTYPE COL_ADDRESS COL_ANALYSIS_RESULT:t "                    \
      "COL_CALLINGCONVETION COL_CLASS_NAME:t COL_CODE_TYPE:t COL_ISCLASSFUNCTION "               \
      "COL_LANGUAGEID COL_MODULE_NAME:t COL_NAMESPACE:t COL_PROFILELINES COL_ROUTINE_NAME:t "    \
      "COL_SOURCE_FILE:t COL_SOURCE_LINE COL_SYMBOL_MONIKER:t COL_TOKEN COL_UNIT_NAME:t "        \
      "COL_TRIGGERACTIVE COL_TRIGGERCYCLING COL_TRIGGERDISABLEROUTINE COL_TRIGGERENABLING "      \
      "COL_TRIGGERGLOBAL COL_TRIGGERGLOBALHITCOUNT COL_TRIGGERPASSCOUNT COL_TRIGGERWORKCOUNT")   \
    X(FT_METAPARAMETERS, "FUNCTION_TRACE_PROFILER_METAPARAMETERS",                               \
      "ID INST_ID PARENT_ID REC_ID COL_TYPEID COL_TYPEMEMSIZE COL_TYPENAME:t")                   \
    X(FT_PARAMS_ENTER, "FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER",                            \
      "ID INST_ID PARENT_ID REC_ID COL_PARAM_NO COL_PARAM_TYPE:t COL_PARAM_VALUE:t")             \
    X(FT_PARAMS_EXIT, "FUNCTION_TRACE_PROFILER_PARAMETERS_ON_EXIT",                              \
      "ID INST_ID PARENT_ID REC_ID COL_PARAM_NO COL_PARAM_TYPE:t COL_PARAM_VALUE:t "             \
      "COL_COMMENT:t")                                                                           \
    X(FT_ROUTINES, "FUNCTION_TRACE_PROFILER_ROUTINES",                                           \
      "ID INST_ID PARENT_ID REC_ID COL_ADDRESS COL_ANALYSIS_RESULT:t COL_CLASS_NAME:t "          \
      "COL_CODE_TYPE:t COL_HIT_COUNT COL_MODULE_NAME:t COL_NAMESPACE:t COL_SOURCE_FILE:t "       \
      "COL_SOURCE_LINE COL_TOKEN COL_UNIT_NAME:t")                                               \
    X(FT_THREADS, "FUNCTION_TRACE_PROFILER_THREADS",                                             \
      "ID INST_ID PARENT_ID REC_ID COL_LINE_NUMBER COL_WIN32THREADID")                           \
    X(RS_CALL_STACK, "RESOURCE_PROFILER_CALL_STACK", "ID INST_ID PARENT_ID REC_ID COL_ROUTINERID") \
    X(RS_CLASSES_DATA, "RESOURCE_PROFILER_CLASSES_DATA",                                         \
      "ID INST_ID PARENT_ID REC_ID COL_CLASS_NAME:t COL_LIVE_COUNT COL_LIVE_SIZE "               \
      "COL_MODULE_NAME:t COL_PEAK_CREATED COL_PEAK_SIZE COL_TOTAL_CREATED COL_TOTAL_SIZE")       \
    X(RS_CREATION_CALL_STACK, "RESOURCE_PROFILER_CREATION_CALL_STACK",                           \
      "ID INST_ID PARENT_ID REC_ID COL_HIT_COUNT COL_LINERID COL_ROUTINERID")                    \
    X(RS_ERRORS, "RESOURCE_PROFILER_ERRORS",                                                     \
      "ID INST_ID PARENT_ID REC_ID COL__ COL_DESCRIPTION:t COL_ERROR_CODE COL_KIND COL_NAME:t")  \
    X(RS_META_CLASSES_DATA, "RESOURCE_PROFILER_META_CLASSES_DATA",                               \
      "ID INST_ID PARENT_ID REC_ID COL_CLASS_NAME:t COL_MODULE_NAME:t COL_SYMBOL_MONIKER:t")     \
    X(RS_META_LINES, "RESOURCE_PROFILER_META_LINES", "ID INST_ID PARENT_ID REC_ID COL_SOURCE_LINE") \
    X(RS_META_ROUTINES, "RESOURCE_PROFILER_META_ROUTINES",                                       \
      "ID INST_ID PARENT_ID REC_ID COL_HIT_COUNT COL_COMPILER COL_ADDRESS "                      \
      "COL_ANALISYS_RESULT:t COL_CLASS_NAME:t COL_CODE_TYPE:t COL_MODULE_NAME:t "                \
      "COL_NAMESPACE:t COL_PROFILELINES COL_ROUTINE_NAME:t COL_SOURCE_FILE:t COL_SOURCE_LINE "   \
      "COL_SYMBOL_MONIKER:t COL_TOKEN COL_UNIT_NAME:t")                                          \
    X(RS_OBJECTS, "RESOURCE_PROFILER_OBJECTS",                                                   \
      "ID INST_ID PARENT_ID REC_ID COL__ COL_ADDRESS COL_CLASSRID COL_GET_ COL_SIZE "            \
      "COL_THREADID")                                                                            \
    X(RS_THREADS, "RESOURCE_PROFILER_THREADS",                                                   \
      "ID INST_ID PARENT_ID REC_ID COL_SIZE COL_WIN32THREADID")                                  \
    X(RC_ADDREF_STACK, "REFERENCE_COUNT_PROFILER_ADDREF_RELEASE_CALL_STACK",                     \
      "ID INST_ID PARENT_ID REC_ID COL_CALL_NO COL_ROUTINE_NAME COL_SOURCE_LINE:t")              \
    X(RC_CLASSES_DATA, "REFERENCE_COUNT_PROFILER_CLASSES_DATA",                                  \
      "ID INST_ID PARENT_ID REC_ID COL_CLASS_NAME:t COL_LIVE_COUNT COL_LIVE_SIZE "               \
      "COL_MODULE_NAME:t COL_PEAK_CREATED COL_PEAK_SIZE COL_TOTAL_CREATED COL_TOTAL_SIZE")       \
    X(RC_CREATION_CALL_STACK, "REFERENCE_COUNT_PROFILER_CREATION_CALL_STACK",                    \
      "ID INST_ID PARENT_ID REC_ID COL_HIT_COUNT COL_LINERID COL_ROUTINERID")                    \
    X(RC_META_CLASSES_DATA, "REFERENCE_COUNT_PROFILER_META_CLASSES_DATA",                        \
      "ID INST_ID PARENT_ID REC_ID COL_CLASS_NAME:t COL_MODULE_NAME:t COL_SYMBOL_MONIKER:t")     \
    X(RC_META_LINES, "REFERENCE_COUNT_PROFILER_META_LINES",                                      \
      "ID INST_ID PARENT_ID REC_ID COL_SOURCE_LINE")                                             \
    X(RC_META_ROUTINES, "REFERENCE_COUNT_PROFILER_META_ROUTINES",                                \
      "ID INST_ID PARENT_ID REC_ID COL_ADDRESS COL_ANALYSIS_RESULT:t COL_CLASS_NAME:t "          \
      "COL_CODE_TYPE:t COL_HIT_COUNT COL_MODULE_NAME:t COL_NAMESPACE:t COL_PROFILELINES "        \
      "COL_ROUTINENAME:t COL_SOURCE_FILE:t COL_SOURCE_LINE "                  \
      "COL_SYMBOL_MONIKER:t COL_TOKEN COL_UNIT_NAME:t")                                          \
    X(RC_OBJECTS, "REFERENCE_COUNT_PROFILER_OBJECTS",                                            \
      "ID INST_ID PARENT_ID REC_ID COL__ COL_ADDRESS COL_CLASSRID COL_GET_ "                     \
      "COL_LIVE_REFERENCES COL_PEAK_REFERENCES COL_SIZE COL_THREADRID COL_TOTAL_REFERENCES")     \
    X(RC_REFCOUNT_TREE, "REFERENCE_COUNT_PROFILER_REFCOUNT_TREE",                                \
      "ID INST_ID PARENT_ID REC_ID COL_ROUTINE_HITCOUNT_ON_ENTER COL_PARENT_INDEX "              \
      "COL_RESULT_REFCOUNT COL_ROUTINE_NAME COL_SOURCE_LINE")                                    \
    X(RC_REFERENCES, "REFERENCE_COUNT_PROFILER_REFERENCES",                                      \
      "ID INST_ID PARENT_ID REC_ID COL__ COL_ADDREF_RELEASE")                                    \
    X(RC_THREADS, "REFERENCE_COUNT_PROFILER_THREADS",                                            \
      "ID INST_ID PARENT_ID REC_ID COL_NAME:t COL_SIZE COL_WIN32THREADID:t")

typedef enum aq_table_id {
#define AQ_TABLE_ENUM(sym, name, cols) AQ_T_##sym,
    AQ_TABLES(AQ_TABLE_ENUM)
#undef AQ_TABLE_ENUM
    AQ_T_COUNT
} aq_table_id;

typedef enum aq_profiler {
    AQ_PROF_TRACE,
    AQ_PROF_RESOURCE,
    AQ_PROF_REFCOUNT,
    AQ_PROF_COUNT
} aq_profiler;

/* The seed's tables (AQ_TABLES) and the profilers' name prefixes
 * (aqtime_db.c). */
typedef struct aq_table_spec {
    const char *name;
    const char *columns;
} aq_table_spec;

extern const aq_table_spec aq_table_specs[AQ_T_COUNT];
extern const char *const aq_profiler_prefix[AQ_PROF_COUNT];

#define AQ_NONE SIZE_MAX

/* One cell as read.  Numbers expected by the seed are converted once at
 * load (text that is not a number becomes NULL with a warning). */
enum { AQ_V_NULL, AQ_V_INT, AQ_V_REAL, AQ_V_TEXT };
typedef struct aq_value {
    union {
        int64_t i;
        double f;
        uint32_t s; /* offset in the table's pool */
    } v;
    uint8_t kind;
} aq_value;

/* A column as stored (docs/aqtime.md, Scale): integers in 32 bits while they
 * fit, then 64; a column the seed documents as text holds the texts' pool
 * offsets (4 bytes a row) while it holds only text; any other mix makes the
 * column hold aq_value cells. */
enum { AQ_COL_I32, AQ_COL_I64, AQ_COL_VAL, AQ_COL_TEXT };
#define AQ_NO_TEXT UINT32_MAX /* AQ_COL_TEXT: NULL */
typedef struct aq_colstore {
    uint8_t kind;
    void *data;        /* int32_t[], int64_t[], aq_value[] or uint32_t[], row_cap entries */
    uint8_t *nulls;    /* AQ_COL_I32/I64: bit set = NULL; NULL while none is */
    size_t null_count; /* AQ_COL_I32/I64/TEXT */
} aq_colstore;

typedef struct aq_table {
    const char *name;   /* the seed's name */
    char *db_name;      /* as spelled in the database; NULL when absent */
    bool is_view;       /* the name is a view's, not read (said once) */
    size_t col_count;
    char **col_names;   /* as spelled in the database */
    bool *col_known;    /* documented by the seed */
    bool *col_text;     /* documented as text */
    size_t inst_col;    /* AQ_NONE when the table has no INST_ID */
    size_t row_count;
    size_t row_cap;
    aq_colstore *cols;  /* col_count columns of row_count values */
    /* 1-based position in the table, for messages; NULL while every row is
     * row_no_base + its index + 1 (no row was left out: 4 bytes per row
     * saved, docs/aqtime.md, Scale) */
    uint32_t *row_no;
    size_t row_no_base;
    pv_strpool pool;
    /* Built once after reading (docs/aqtime.md, Scale): the rows grouped by
     * INST_ID, so that a result set finds its rows without a table scan. */
    size_t inst_count;
    int64_t *insts;       /* the distinct INST_IDs, ascending */
    size_t *inst_start;   /* inst_count + 1 offsets into inst_rows */
    uint32_t *inst_rows;  /* rows of insts[k] at inst_start[k].., table order */
    /* Derived once per table, not per view: the type of an extra column and
     * whether a column holds any integer. */
    pv_type *col_type;
    bool *col_any_int;
    bool *col_all_text; /* every cell that is not NULL is text */
} aq_table;

struct aq_defer;
typedef struct aq_counter aq_counter;

typedef struct aq_db {
    char *path;
    char *uri; /* to open the file again, NULL for a stream's copy */
    pv_test_options test; /* the load's (aq-split-rows, aq-defer-paused) */
    pv_db_guard guard; /* its connections' bounds (profview/dbinput.h) */
    /* The background read of the large tables (aqtime_defer.c), or NULL. */
    struct aq_defer *defer;
    aq_table tables[AQ_T_COUNT];
    bool has_profiler[AQ_PROF_COUNT];
    /* The counters of the result sets, each once (aqtime_sets.c): the last
     * few made, for the next set to find its own. */
    aq_counter *counters[8];
    size_t counter_count;
    /* What every result set's summary is called, once (aqtime_sets.c). */
    pv_view summary_names;
    void **owned; /* per-result-set data, freed with the file */
    size_t owned_count;
    size_t owned_cap;
    void (**owned_free)(void *);
    size_t owned_free_cap;
} aq_db;

/* ---- reading cells (aqtime_rows.c) */

/* Column index by name, case-insensitive (docs/formats.md §5), or AQ_NONE. */
size_t aq_col(const aq_table *t, const char *name);
/* The first of two spellings that exists (COL_ROUTINENAME / COL_ROUTINE_NAME). */
size_t aq_col2(const aq_table *t, const char *a, const char *b);
aq_value aq_cell(const aq_table *t, size_t row, size_t col);
/* The 1-based position of a row in the database table, for messages. */
static inline size_t aq_row_no(const aq_table *t, size_t row)
{
    return t->row_no ? t->row_no[row] : t->row_no_base + row + 1;
}
/* A number as int64 (reals rounded to nearest); false when absent. */
bool aq_int(const aq_table *t, size_t row, size_t col, int64_t *out);
bool aq_real(const aq_table *t, size_t row, size_t col, double *out);
/* Like aq_int, and also reads a number written as text (decimal or 0x-hex)
 * in a column the seed documents as text (e.g. a thread id "String"). */
bool aq_int_any(const aq_table *t, size_t row, size_t col, int64_t *out);
/* A number written as text (decimal, 0x hex, real) as a cell; false when
 * it is none (aqtime_read.c). */
bool aq_parse_number(const char *s, aq_value *out);
/* Text of a cell (numbers are written in decimal into `tmp`); NULL when absent. */
const char *aq_text(const aq_table *t, size_t row, size_t col, char *tmp, size_t tmp_size);
int64_t aq_inst(const aq_table *t, size_t row);
/* Does the table hold rows of this INST_ID? */
bool aq_has_inst(const aq_table *t, int64_t inst);
/* Is the row the first of its INST_ID (in table order)? */
bool aq_first_of_inst(const aq_table *t, size_t row);
/* The type an extra column of the table is shown with (derived at load). */
pv_type aq_column_type(const aq_table *t, size_t col);

/* Rows of one result set, in table order (they point into the table's
 * grouping by INST_ID: nothing to free). */
typedef struct aq_sel {
    aq_table *t;
    const uint32_t *rows;
    size_t n;
} aq_sel;

void aq_select(aq_sel *s, aq_table *t, int64_t inst);
void aq_sel_free(aq_sel *s);

/* A link from a column of the child rows to the rows of a parent selection
 * (docs/formats.md §5): the readings are tried in order (e.g. "ID" then
 * "REC_ID"), the one that resolves more rows is kept (the first on a tie) and
 * named in a note of the result set; unresolved rows are reported.  Returns,
 * per child, the position in `parent` or AQ_NONE.  Child values < 0 mean
 * "none" and are not counted as unresolved. */
typedef struct aq_ctx aq_ctx;
size_t *aq_link(aq_ctx *c, const aq_sel *child, size_t child_col, const char *child_col_name,
                const aq_sel *parent, const char *const *readings, size_t reading_count);
/* A map from the value of `col` to the position in `s` (first wins): a
 * direct table when the keys are dense, else a hash map. */
typedef struct aq_keymap_t {
    pv_hashmap m;
    int64_t lo;
    size_t span;
    uint32_t *dense; /* span entries, UINT32_MAX: none; NULL: the hash map */
} aq_keymap_t;
void aq_keymap(aq_keymap_t *m, const aq_sel *s, size_t col);
bool aq_keymap_get(const aq_keymap_t *m, int64_t key, size_t *pos);
void aq_keymap_free(aq_keymap_t *m);

/* ---- views built over one table, with its remaining columns appended
 * (aqtime_columns.c; docs/formats.md §5: extra columns are shown,
 * COL_FOO_BAR -> "Foo Bar"). */
typedef struct aq_view {
    pv_table *t;
    const aq_table *src;
    size_t fixed;
    size_t extra_count;
    size_t *extra_src;
} aq_view;

/* `consumed`: table columns already shown by the fixed columns (or not worth
 * showing), NULL-terminated; INST_ID is never appended. */
void aq_view_init(aq_view *vb, const char *id, const char *title, const pv_column *cols,
                  size_t n, const aq_table *src, const char *const *consumed);
void aq_view_fill_extras(aq_view *vb, size_t row, size_t src_row);
/* Columns whose name ends in ADDRESS hold addresses: shown in hex. */
bool aq_is_address_column(const char *name);
pv_table *aq_view_finish(aq_view *vb);

/* ---- what a result set's builders share */

struct aq_ctx {
    aq_db *db;
    pv_file *f;          /* for diagnostics during the load only */
    pv_result_set *set;
    int64_t inst;
    /* counter (docs/formats.md §5) */
    bool time_counter;   /* COL__S in cycles converted to ns */
    double frequency;
    char *counter_name;  /* e.g. "Elapsed Time", "Misses" */
};

/* Keeps `p` alive until the file is freed (aqtime_db.c). */
void aq_db_own(aq_db *db, void *p, void (*free_fn)(void *));
/* Converts a counter value (aqtime_columns.c): ns for a time counter, the value otherwise
 * (round(cycles * 1e9 / frequency), exact for integral frequencies). */
int64_t aq_counter_value(const aq_ctx *c, __int128 cycles);
/* Time columns of the counter: PV_TYPE_TIME or PV_TYPE_INT. */
pv_type aq_counter_type(const aq_ctx *c);
/* Exposed for the tests: round(cycles * 1e9 / frequency), saturated. */
int64_t aq_cycles_to_ns(__int128 cycles, double frequency);

/* Name of a routine of a META_ROUTINES selection row, or NULL. */
const char *aq_routine_name(const aq_sel *meta, size_t pos, char *tmp, size_t tmp_size);

/* ---- reading the database (aqtime_read.c) */

/* Progress of a read (docs/aqtime.md, Scale): rows read of about `total`
 * (the tables' largest rowids), reported every 16 k rows. */
typedef struct aq_read_progress {
    const pv_progress *p;
    uint64_t done, total;
    bool cancelled;
    /* Called by every reading thread at each report: returns once the read
     * may go on (a paused read waits there; aqtime_defer.c).  NULL: none. */
    void (*gate)(void *user);
    void *gate_user;
    const pv_test_options *test; /* aq-split-rows, or NULL */
} aq_read_progress;

/* The largest rowid of a table (its row count when nothing was deleted). */
uint64_t aq_table_size_hint(sqlite3 *db, const char *name);
/* Reads one table into memory, its messages to `diag` (naming `path`);
 * with `uri` (the file's, when it can be opened again) a large one by two
 * threads. */
void aq_read_table(const char *path, pv_diag *diag, sqlite3 *db, const char *uri, aq_table_id id,
                   aq_table *t, aq_read_progress *prog);
/* Groups a table's rows by INST_ID and derives its column types. */
void aq_index_table(aq_table *t);
/* Adds the result sets of the tables read to f (aqtime_sets.c).  With `plan` (a file for
 * the messages, which are dropped) only their summaries and placeholders
 * (docs/aqtime.md "First screen"). */
void aq_make_sets(pv_file *f, aq_db *a, pv_file *plan);
/* Loads the AQTime tables of an open database into f (aqtime_db.c; the rest of a load
 * once the file is open; it takes db, `uri` if the file can be opened
 * again, else NULL, and `a`, the file's data with the guard of db's
 * connection, or NULL).  The Access reader hands it the tables it copied
 * into a database in memory (aqtime_mdb.c). */
pv_load_status aq_load_db(pv_file *f, const pv_load_options *o, sqlite3 *db, char *uri, aq_db *a);
/* Whether a table of that name is read by the loader: a table of the seed,
 * or any other of a profiler's (*profiler: its name has a profiler's
 * prefix, FUNCTION_TRACE_PROFILER_ ...). */
bool aq_table_is_aqtime(const char *name, bool *profiler);
/* Appends from's messages (and its count of those not kept) to `to`. */
void aq_diag_append(pv_diag *to, const pv_diag *from);

/* ---- the background read (aqtime_defer.c, docs/aqtime.md "First screen") */

/* Adds to `set` placeholders of profiler p's views after its summary. */
void aq_defer_placeholders(aq_db *a, pv_result_set *set, aq_profiler p);
/* Starts reading the `deferred` tables on a thread of its own, which then
 * builds the views; takes db and the per-table messages tdiag. */
void aq_defer_start(pv_file *f, aq_db *a, sqlite3 *db, const bool deferred[AQ_T_COUNT],
                    pv_diag tdiag[AQ_T_COUNT], uint64_t total);
/* Stops the read (when it runs) and frees what it holds. */
void aq_defer_free(struct aq_defer *d);
/* Waits (at most `seconds`) until a reader of f's background read is held
 * at its pause; whether one is (the tests' condition for "paused"). */
bool aq_defer_held(const pv_file *f, int seconds);
/* Waits (at most `seconds`) until f's background read has finished on its
 * own (read and built, not yet moved into the file); whether it has (the
 * tests' condition for "done without a step"). */
bool aq_defer_finished(const pv_file *f, int seconds);
/* A call-trace view moved to `to` (its struct copied there): its hooks'
 * references to the view follow it. */
void aq_ft_view_moved(pv_view *to);
/* Whether v is a view that the empty result sets share (aqtime_sets.c):
 * the file frees it, not a result set. */
bool aq_view_is_shared(const pv_view *v);

/* ---- the builders */
void aq_build_trace(aq_ctx *c);
void aq_build_objects(aq_ctx *c, aq_profiler p);
/* A `threads` view (FT/RS/RC THREADS). */
void aq_build_threads(aq_ctx *c, aq_table_id table);
/* The format's export hook (pv_file.export, export.h): AQTime's own schema
 * from the rows in memory (aqtime_export.c, docs/export.md). */
struct pv_export_request;
struct pv_export_target;
int pv_aq_export(const pv_file *f, const struct pv_export_request *r,
                 struct pv_export_target *t, pv_diag *err);
/* Adds a warning about the file, naming it. */
void aq_warn(aq_ctx *c, const char *fmt, ...) PV_PRINTF(2, 3);

#endif
