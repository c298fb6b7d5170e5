/* app_sql.h - :sql in the viewer (app_sql.c, docs/sql.md): its
 * state.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_APP_SQL_H
#define PROFVIEW_TUI_APP_SQL_H

#include "tui/report.h"
#include "tui/history.h"

/* Names offered by :sql completion (offsets into text, NUL-separated). */
typedef struct pv_app_sql_names {
    pv_buf text;
    size_t count;
    size_t offsets[256];
} pv_app_sql_names;

/* :sql (app_sql.c, docs/sql.md): one connection over every file. */
typedef struct pv_app_sql {
    struct pv_sql *conn; /* made at the first query */
    size_t files;        /* files[0 .. files) are exposed to it */
    size_t file;         /* the file holding the results, or PV_NO_ROW */
    size_t count;        /* queries shown (numbers the result views) */
    double start;
    bool running; /* the status bar shows the query's progress (its job's step copies it) */
    uint64_t rows, visited;
    pv_app_sql_names names; /* completion candidates of :sql */
    /* Per result view (its index in the results' set): where its query
     * was run from, where q goes back to (docs/tui.md "Quitting"). */
    pv_location *from;
    size_t from_count;
    /* Per result view: the files its query read (read[k][fi] for the
     * files fi < read_n[k] exposed then): :reload of one closes them. */
    bool **read;
    size_t *read_n;
} pv_app_sql;

#endif
