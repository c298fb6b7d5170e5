/*
 * sql_internal.h - what the files of the SQL layer share (private to
 * src/sql): the connection, its tables and their sources, and the helpers
 * of one file that another calls.  sql.c is the connection; sql_vtab.c the
 * virtual table over a view, sql_group.c its grouped columns, sql_detail.c
 * the detail views as table-valued functions; sql_query.c runs a query,
 * with sql_rewrite.c (the tokenizer and the GROUP BY rewriter) and sql_fold.c
 * (the aggregates profview computes); sql_complete.c completes names.
 */
#ifndef PROFVIEW_SQL_INTERNAL_H
#define PROFVIEW_SQL_INTERNAL_H

#include <sqlite3.h>

#include "profview/hooks.h"
#include "profview/sql.h"
#include "profview/table.h"

/* What the view's column order is known to be (checked lazily). */
enum { SQL_ORDER_UNKNOWN, SQL_ORDER_ASCENDING, SQL_ORDER_NONE };

/* A column of few distinct values, grouped (docs/sql.md "Fast paths"):
 * every row's value as a rank, the ranks in ascending value order, so that
 * a condition `col = x` visits only the rows of x and GROUP BY / ORDER BY
 * col gets the rows group by group without a sort. */
enum { SQL_GROUP_UNKNOWN, SQL_GROUP_READY, SQL_GROUP_NONE };
enum {
    SQL_GROUP_MAX = 256,  /* distinct values at most (a rank is a byte) */
    SQL_GROUP_SCAN = 8, /* visiting at most this many groups scans the ranks;
                             more use the rows sorted by rank */
    SQL_SCAN_CHUNK = 512, /* rank bytes scanned at a time for a group's rows */
    SQL_GROUP_MEMO = 512, /* string pointers remembered while ranking (a power of 2) */
};

typedef struct sql_group {
    unsigned char state; /* SQL_GROUP_* */
    size_t k;            /* distinct values */
    unsigned char *rank; /* per row */
    pv_cell *values;     /* by rank (ascending); strings are owned copies */
    uint32_t *perm;      /* rows by rank then row, made when first needed */
    size_t *start;       /* group g is perm[start[g] .. start[g + 1]) */
} sql_group;

/* What is known about a view's columns, learnt once and shared by its
 * tables (`r1.t` and `main.t` are one view). */
typedef struct sql_facts {
    unsigned char *order; /* per column, SQL_ORDER_* */
    sql_group *groups;    /* per column */
    size_t columns;
} sql_facts;

typedef struct sql_source {
    const pv_view *view;
    char *schema, *table; /* where SQLite has it */
    size_t set;           /* index into pv_sql.sets */
    sql_facts *facts;     /* owned unless shares_facts */
    bool shares_facts;
    size_t *companion_of; /* hidden `<col>_hex` columns: the column they write */
    size_t companion_count;
} sql_source;

typedef struct sql_set {
    const pv_file *file;
    const pv_result_set *set;
    char schema[24]; /* "rK"; "" past the attached limit (tables rK_view in main) */
    bool *prefixed;  /* per view: its table rK_view exists in main */
    bool read;       /* the last query read a view of it (pv_sql_read_file) */
} sql_set;

/* A detail id offered as a table-valued function. */
typedef struct sql_detail_fn {
    struct pv_sql *sql;
    char *detail_id;
    char *name;
    char *owner; /* the id of the view whose rows it takes; NULL: the first that offers it */
} sql_detail_fn;

struct pv_sql {
    sqlite3 *db;
    bool setting_up; /* the authorizer lets the setup through */
    sql_set *sets;
    size_t set_count, set_cap;
    sql_source **sources;
    size_t source_count, source_cap;
    sql_detail_fn **details;
    size_t detail_count, detail_cap;
    int attach_limit; /* schemas rK for K <= this (SQLite's attached limit) */
    pv_table *meta_sets, *meta_tables;
    pv_buf notes;
    uint64_t rows_visited;
    uint64_t result_rows;
    pv_sql_progress_fn progress;
    void *progress_ctx;
    bool interrupted;
    /* A GROUP BY run group by group (docs/sql.md "GROUP BY, group by
     * group"): while force_facts is set, every scan of that view gets only
     * the rows whose value in column force_col has rank force_rank. */
    const sql_facts *force_facts;
    size_t force_col;
    unsigned char force_rank;
    bool group_runs_off;       /* pv_sql_set_group_runs(s, false) */
    uint64_t group_runs;       /* statements run for one group (pv_sql_group_runs) */
    uint64_t group_folds;      /* ... of them with the aggregates computed (pv_sql_group_folds) */
    const sql_source *planned; /* the one view table xBestIndex saw, NULL: none */
    bool planned_several;      /* ... or more than one */
};

typedef struct sql_tok {
    const char *p;
    size_t n;
    char kind; /* 'w' word, 'q' quoted name, 's' string or blob, 'n' number, 'p' punctuation */
    int depth; /* parentheses around it */
} sql_tok;

/* The clauses of a query of the shape above (token indexes; where is 0
 * without WHERE, having 0 without HAVING). */
typedef struct sql_shape {
    sql_tok *tok;
    size_t n, from, where, group, having;
} sql_shape;

typedef struct sql_vtab {
    sqlite3_vtab base;
    pv_sql *sql;
    sql_source *src; /* NULL for a detail function */
    sql_detail_fn *detail;
    /* detail functions: the declared columns (ids), and the hidden ones */
    char **detail_cols;
    size_t detail_col_count;
} sql_vtab;

typedef struct sql_cursor {
    sqlite3_vtab_cursor base;
    const pv_view *view;
    pv_view *owned; /* an opened detail view */
    /* per view column: its values as an array (pv_view_int_column), base
     * NULL when not; read at each xFilter (valid while the query runs) */
    pv_int_array *ints;
    size_t *col_map; /* detail functions: declared column -> view column */
    size_t row, end;
    int64_t parent_id, set_no;
    /* grouped delivery (grp != NULL): the rows of [lo, end) of each group
     * in `groups`, in that order; with use_perm pos/pos_end walk grp->perm,
     * otherwise a scan of grp->rank finds the group's rows (hit) */
    const sql_group *grp;
    size_t lo, gi, group_count, pos, pos_end;
    bool done, use_perm;
    /* scanning the ranks: the rows found in the last chunk, and where the
     * next chunk starts */
    unsigned hit_pos, hit_count;
    size_t scan;
    uint32_t hit[SQL_SCAN_CHUNK];
    /* a group run of another grouped column (pv_sql.force_*): only the
     * rows whose rank there is keep_rank */
    const unsigned char *keep;
    unsigned char keep_rank;
    unsigned char groups[SQL_GROUP_MAX];
} sql_cursor;

enum { FOLD_COUNT_STAR, FOLD_COUNT, FOLD_SUM, FOLD_TOTAL, FOLD_AVG, FOLD_MIN, FOLD_MAX };

enum { SQL_FOLD_MAX = 128 }; /* aggregates at most */

typedef struct sql_fold_agg {
    unsigned char fn; /* FOLD_* */
    size_t slot;      /* index into sql_fold.cols (not for count(*)) */
} sql_fold_agg;

/* Per aggregated column and group: the non-NULL values' count, sum (exact
 * while !overflow), smallest and largest. */
typedef struct sql_fold_acc {
    int64_t count, sum, min, max;
} sql_fold_acc;

typedef struct sql_fold {
    const pv_view *view;
    size_t gcol;
    sql_fold_agg agg[SQL_FOLD_MAX];
    size_t agg_count;
    size_t cols[SQL_FOLD_MAX]; /* the aggregated view columns */
    size_t col_count;
    const sql_tok *aliases[SQL_FOLD_MAX]; /* names given with AS in the list */
    size_t alias_count;
    /* computed (sql_fold_compute) */
    size_t k;
    uint64_t *rows; /* per group */
    size_t *first;  /* per group: its first row */
    sql_fold_acc *acc; /* [slot * k + group] */
    /* per aggregated column: a sum left int64; a value or partial sum past
     * 2^53 (SQLite's double sum, for total and avg, may round) */
    bool overflow[SQL_FOLD_MAX], inexact[SQL_FOLD_MAX];
} sql_fold;

/* idxNum of a view table: the plan.  Bits 0-3: which bounds are given
 * (argv in this order: lower, upper), bit 4: one `=` argument gives both;
 * bits 8-19: their column + 1, 0 = rowid.  Bit 5: a `=` argument on the
 * grouped column follows (its rows only); bit 6: the rows come group by
 * group (GROUP BY / ORDER BY the grouped column), bit 7: in descending
 * order; bits 20-30: the grouped column + 1. */
enum {
    PLAN_LO_GE = 1,
    PLAN_LO_GT = 2,
    PLAN_HI_LE = 4,
    PLAN_HI_LT = 8,
    PLAN_EQ = 16,
    PLAN_GROUP_EQ = 32,
    PLAN_GROUPED = 64,
    PLAN_GROUPED_DESC = 128,
    PLAN_COLUMN_MAX = 0x7FF, /* columns past this are never planned on */
};

/* sql.c */
const char *sql_decltype(pv_type t);
bool sql_is_integer_type(pv_type t);
int64_t sql_cell_int(const pv_cell *c);
void sql_result_cell(sqlite3_context *ctx, const pv_cell *c);
bool sql_tick(pv_sql *s);
bool sql_column_ascending(pv_sql *s, sql_source *src, size_t col);
void sql_make_prefixed(pv_sql *s, const char *query);
void sql_expose_meta(pv_sql *s);

/* sql_detail.c */
extern sqlite3_module sql_detail_module;

/* sql_fold.c */
void sql_fold_free(sql_fold *f);
sql_fold *sql_fold_plan(const sql_shape *sh, const pv_view *v, size_t gcol, pv_buf *out);
int sql_fold_compute(pv_sql *s, sql_fold *f, const sql_group *g);
void sql_fold_bind(const sql_fold *f, sqlite3_stmt *st, size_t gi);

/* sql_group.c */
void sql_group_free(sql_group *g);
bool sql_column_grouped(pv_sql *s, sql_source *src, size_t col);
void sql_group_perm(sql_group *g, size_t n);
int sql_group_find(const sql_group *g, pv_type type, sqlite3_value *x);
size_t sql_lower_bound(const pv_view *v, size_t col, size_t lo, size_t hi, int64_t x,
                       bool strict);

/* sql_rewrite.c */
bool sql_tok_is(const sql_tok *t, const char *word);
bool sql_tok_punct(const sql_tok *t, char ch);
bool sql_tok_name(const sql_tok *t);
bool sql_group_rewrite(const char *q, pv_buf *out, char *col, size_t col_size,
                       sql_shape *shape);

/* sql_vtab.c */
int sql_vtab_disconnect(sqlite3_vtab *vt);
int sql_cursor_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out);
int sql_cursor_close(sqlite3_vtab_cursor *cur);
int sql_cursor_next(sqlite3_vtab_cursor *cur);
int sql_cursor_eof(sqlite3_vtab_cursor *cur);
int sql_cursor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid);
extern sqlite3_module sql_source_module;

#endif
