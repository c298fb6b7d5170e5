/* test_export.c - the generic SQLite export (src/export) as a viewer runs
 * it: the selection of a filtered export reports its progress before any
 * row is written and stops when cancelled (leaving no file); the
 * statements that work inside SQLite alone (CREATE INDEX, COMMIT) keep
 * reporting while they run; big work blocks go to the request's trash
 * (docs/export.md "In the viewer"); trace-json's instants, exact times and
 * cancel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "profview/diff.h"
#include "profview/export.h"
#include "profview/load.h"
#include "profview/query.h"
#include "profview/sql.h"
#include "profview/table.h"

enum { N = 300000 };

static const pv_column cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
};

/* A file named `path` of `format` with one result set, empty. */
static pv_file *one_set_file(const char *path, const char *format, const char *caption,
                             const char *kind)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup(path);
    f->format = format;
    pv_diag_init(&f->diag);
    pv_file_add_set(f, 1, caption, kind);
    return f;
}

/* One result set with a `timeline` of N rows; handles in no order, so
 * that their index is a real sort. */
static pv_file *make_file(void)
{
    pv_file *f = one_set_file("test.file", "test", "Run", "test");
    pv_result_set *set = f->sets[0];
    pv_table *t = pv_table_new("timeline", "Timeline", cols, PV_ARRAY_LEN(cols));
    for (int i = 0; i < N; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, i);
        pv_table_set_int(t, r, 1, (int64_t)i * 10);
        pv_table_set_uint(t, r, 2, (uint64_t)((i * 7919u) % 100003u));
        pv_table_set_cstr(t, r, 3, i % 3 ? "fn" : "other");
    }
    pv_set_add_view(set, pv_table_view(t));
    return f;
}

/* What the progress reports saw. */
static struct {
    int calls;
    char first[32];
    uint64_t first_done;
    int selecting;      /* reports while selecting the rows */
    int cancel_after;   /* > 0: cancel at that report */
    bool cancel_at_end; /* cancel once every row is written (the index, the COMMIT) */
    int at_end;         /* reports after every row was written */
    atomic_int cancel;
} seen;

static void report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)user;
    (void)total;
    if (!seen.calls++) {
        snprintf(seen.first, sizeof seen.first, "%s", what);
        seen.first_done = done;
    }
    if (strcmp(what, "selecting rows") == 0)
        seen.selecting++;
    if (seen.cancel_after && seen.calls >= seen.cancel_after)
        atomic_store(&seen.cancel, 1);
    if (strcmp(what, "exporting") == 0 && total && done == total) {
        /* the third such report: the helper thread's statements (the
         * waiting thread reports every millisecond while they run) */
        if (++seen.at_end == 3 && seen.cancel_at_end)
            atomic_store(&seen.cancel, 1);
    }
}

static void request(pv_export_request *r, const char *filter)
{
    memset(&seen, 0, sizeof seen);
    pv_export_request_init(r);
    r->format = PV_EXPORT_SQLITE;
    r->view_id = "timeline";
    r->filter = filter;
    r->progress.report = report;
    r->progress.cancel = &seen.cancel;
}

static int64_t count_rows(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* Exports f as r asks to path (no file replaced): the status is `want`. */
static void export_to(const pv_file *f, const pv_export_request *r, const char *path,
                      pv_export_status want)
{
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, r, path, false, &err), want);
    pv_diag_free(&err);
}

/* The text of the file at path (its first 8 K bytes at most; valid until
 * the next call). */
static char *read_all(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void out_path(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/pv-test-export-%ld-%s.db", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid(), name);
    remove(path);
}

/* A filtered export reads every row before it writes one: it says so
 * ("selecting rows") from the start, then writes what matched. */
static void test_selection_reports_before_rows(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "filtered");
    pv_export_request r;
    request(&r, "name == \"other\"");
    export_to(f, &r, path, PV_EXPORT_OK);
    assert_string_equal(seen.first, "selecting rows");
    assert_true(seen.first_done == 0);
    /* every 64 K rows of the N: the identity, then the filter */
    assert_true(seen.selecting >= 2 * (N / 65536));
    assert_int_equal(count_rows(path, "SELECT count(*) FROM timeline"), (N + 2) / 3);
    assert_int_equal(count_rows(path, "SELECT count(*) FROM timeline WHERE name <> 'other'"), 0);
    remove(path);
    pv_file_free(f);
}

/* The parts of a selection combine (docs/export.md "Selections combine"):
 * the viewer's rows (in the order shown), then --areas (names matching the
 * glob), then the filter (the markers' window) on top, in that order; and
 * --areas over a view without names is an error, not every row. */
static void test_selection_parts_combine(void **state)
{
    (void)state;
    pv_file *f = make_file();
    const pv_view *v = pv_set_find_view(f->sets[0], "timeline");
    enum { SHOWN = 1000 };
    pv_row *shown = pv_xmalloc(SHOWN * sizeof *shown);
    for (size_t k = 0; k < SHOWN; k++)
        shown[k] = (pv_row)(2 * (SHOWN - 1 - k)); /* even rows, last first */
    pv_export_request r;
    request(&r, "time <= 5000");
    r.rows = shown;
    r.row_count = SHOWN;
    r.areas = "oth*";
    pv_diag err;
    pv_diag_init(&err);
    size_t n = 0;
    bool ok = false;
    pv_row *rows = pv_export_select_rows(v, &r, true, &n, &err, &ok);
    assert_true(ok);
    assert_non_null(rows);
    /* even, at most 500 (time = 10 * row), named "other" (row % 3 == 0):
     * the multiples of 6 up to 498, in the order given */
    assert_int_equal(n, 84);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(rows[k], 498 - 6 * k);
    free(rows);
    /* none of the parts: every row, no selection made */
    pv_export_request all;
    request(&all, NULL);
    assert_null(pv_export_select_rows(v, &all, true, &n, &err, &ok));
    assert_true(ok);
    assert_int_equal(n, N);
    assert_int_equal(err.entry_count, 0);
    free(shown);
    pv_diag_free(&err);
    pv_file_free(f);
}

/* Cancelled while selecting: nothing is written, no file is left. */
static void test_cancel_while_selecting(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "cancelled");
    pv_export_request r;
    request(&r, "name == \"other\"");
    seen.cancel_after = 3;
    pv_trash trash = {0};
    r.trash = &trash;
    export_to(f, &r, path, PV_EXPORT_CANCELLED);
    assert_int_equal(seen.calls, 3);
    assert_string_equal(seen.first, "selecting rows");
    assert_int_not_equal(access(path, F_OK), 0);
    pv_trash_free(&trash);
    pv_file_free(f);
}

/* Every row of the view: its handle index (a sort inside SQLite) and the
 * COMMIT run on a helper thread while this one reports; the database is
 * whole.  The work blocks go to the trash, which a viewer empties in
 * steps. */
static void test_reports_through_index_and_commit(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "whole");
    pv_export_request r;
    request(&r, "id >= 0");
    pv_trash trash = {0};
    r.trash = &trash;
    export_to(f, &r, path, PV_EXPORT_OK);
    assert_int_equal(count_rows(path, "SELECT count(*) FROM timeline"), N);
    /* the index exists and is the handles' */
    assert_int_equal(count_rows(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
                                      "AND name = 'timeline_by_handle'"),
                     1);
    assert_int_equal(count_rows(path, "SELECT min(handle) FROM timeline INDEXED BY "
                                      "timeline_by_handle WHERE handle >= 0"),
                     0);
    assert_true(seen.at_end > 0);
    pv_trash_free(&trash); /* what went there is not leaked (ASan) */
    remove(path);
    pv_file_free(f);
}

/* Cancelled once the rows are written (in the index, on the helper
 * thread: sqlite3_interrupt, and past a grace time the connection is left
 * to the helper, which closes it): CANCELLED, no file; ASan and TSan see
 * the connection handed over cleanly. */
static void cancel_in_index(bool no_grace)
{
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "late");
    pv_export_request r;
    request(&r, NULL);
    r.view_id = NULL; /* the whole result set */
    if (no_grace)
        pv_test_set(&r.test, PV_TEST_EXPORT_GRACE_MS, 0);
    seen.cancel_at_end = true;
    export_to(f, &r, path, PV_EXPORT_CANCELLED);
    assert_int_not_equal(access(path, F_OK), 0);
    pv_file_free(f);
}

static void test_cancel_in_index(void **state)
{
    (void)state;
    cancel_in_index(false);
}

/* The same with no grace (the test option export-grace-ms=0): the export's
 * thread leaves the connection to the helper at once, as it does when a
 * sort runs on for seconds after the interrupt. */
static void test_cancel_leaves_the_helper(void **state)
{
    (void)state;
    cancel_in_index(true);
}

/* ---- another user swapping the temporary file (docs/export.md "Safety") */

typedef struct swap_ctx {
    char victim[512];
    int swaps;
} swap_ctx;

/* What another user with write access to the directory does between the
 * creation of the temporary file and the first write: the name now links
 * to a file of the user's that the export was never asked to write. */
static void swap_temp(const char *temp, void *arg)
{
    swap_ctx *c = arg;
    assert_true(strstr(temp, ".profview-tmp-") != NULL);
    assert_int_equal(unlink(temp), 0);
    assert_int_equal(symlink(c->victim, temp), 0);
    c->swaps++;
}

/* The swapped name is never written through: the export fails with a
 * message, the victim keeps its bytes, OUT is not created, and no file of
 * ours is left (the link, which is the other user's, is not removed). */
static void swapped(pv_file *f, pv_export_format format, const char *name, const char *precious)
{
    char dir[] = "/tmp/pv-test-swap-XXXXXX";
    assert_non_null(mkdtemp(dir));
    swap_ctx c = {.swaps = 0};
    snprintf(c.victim, sizeof c.victim, "%s/victim", dir);
    FILE *fp = fopen(c.victim, "w");
    fputs(precious, fp);
    fclose(fp);
    char out[600];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    pv_export_request r;
    pv_export_request_init(&r);
    r.format = format;
    r.after_create = swap_temp;
    r.after_create_arg = &c;
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, &r, out, true, &err), PV_EXPORT_FAILED);
    assert_true(c.swaps >= 1);
    assert_string_equal(read_all(c.victim), precious);
    struct stat st;
    assert_int_not_equal(lstat(out, &st), 0);
    assert_true(err.entry_count >= 1 && strstr(err.entries[0].text, name) != NULL);
    printf("# %s\n", err.entries[0].text);
    pv_diag_free(&err);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_swapped_temp_sqlite(void **state)
{
    (void)state;
    pv_file *f = make_file();
    swapped(f, PV_EXPORT_SQLITE, "out.db", "precious\n");
    swapped(f, PV_EXPORT_SQLITE, "out.db", ""); /* SQLite would make a database of it */
    pv_file_free(f);
}

static void test_swapped_temp_text1_bin(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/sample-data/rtos.txt",
             getenv("PV_SOURCE_DIR") ? getenv("PV_SOURCE_DIR") : ".");
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    swapped(f, PV_EXPORT_TEXT1, "out.txt", "precious\n");
    swapped(f, PV_EXPORT_BIN, "out.txt", "");
    pv_file_free(f);
}

/* ---- what you export is what you saw (docs/export.md "What a subset
 * promises") for the views the viewer makes itself: a diff window's and a
 * `:sql` result's, exported with a filter and read back. */

static pv_file *load_sample(const char *name)
{
    char path[1024];
    const char *dir = getenv("PV_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/sample-data/%s", dir ? dir : ".", name);
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_non_null(f);
    assert_int_equal(st, PV_LOAD_OK);
    return f;
}

/* The exact text of every cell of the rows, one line a row. */
static void rows_text(const pv_view *v, const pv_row *rows, size_t n, pv_buf *out)
{
    for (size_t i = 0; i < n; i++) {
        size_t row = rows ? rows[i] : i;
        size_t p = pv_view_parent(v, row);
        pv_buf_printf(out, "%s", p == PV_NO_ROW ? "-" : "p");
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell cell;
            pv_view_cell_after(v, row, i ? (rows ? rows[i - 1] : i - 1) : PV_NO_ROW, c, &cell);
            pv_buf_putc(out, '\t');
            pv_cell_format_exact(&cell, out);
        }
        pv_buf_putc(out, '\n');
    }
}

/* Exports view `id` of f filtered by `filter`, reads the export back and
 * compares its rows with the filter's on the source. */
static void check_filtered_export(pv_file *f, const char *id, const char *filter)
{
    const pv_view *v = pv_set_find_view(f->sets[0], id);
    assert_non_null(v);
    pv_query_error qe;
    pv_filter *flt = pv_filter_compile(v, filter, &qe);
    assert_non_null(flt);
    size_t total = pv_view_rows(v);
    pv_row *rows = malloc((total ? total : 1) * sizeof *rows);
    for (size_t i = 0; i < total; i++)
        rows[i] = (pv_row)i;
    size_t n = pv_filter_rows(flt, v, rows, total, rows, NULL);
    pv_filter_free(flt);
    assert_true(n > 0 && n < total); /* a real subset */

    char path[512];
    out_path(path, sizeof path, id);
    pv_export_request r;
    pv_export_request_init(&r);
    r.format = PV_EXPORT_SQLITE;
    r.view_id = id;
    r.filter = filter;
    export_to(f, &r, path, PV_EXPORT_OK);
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    pv_file *back = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    const pv_view *w = pv_set_find_view(back->sets[0], id);
    assert_non_null(w);
    assert_int_equal(w->column_count, v->column_count);
    pv_buf want, got;
    pv_buf_init(&want);
    pv_buf_init(&got);
    rows_text(v, rows, n, &want);
    rows_text(w, NULL, pv_view_rows(w), &got);
    assert_string_equal(pv_buf_cstr(&got), pv_buf_cstr(&want));
    pv_buf_free(&want);
    pv_buf_free(&got);
    free(rows);
    pv_file_free(back);
    remove(path);
}

static void test_diff_and_sql_views_reopen_as_shown(void **state)
{
    (void)state;
    pv_file *trace = load_sample("aqtime-trace.db");
    pv_file *rtos = load_sample("rtos.txt");
    pv_file *f = one_set_file("views made by the viewer", "sql", "Queries", "SQL");
    pv_result_set *set = f->sets[0];
    /* a diff window: the routines of the two result sets */
    char msg[256];
    pv_view *d = pv_diff_views(pv_set_find_view(trace->sets[0], "routines"), NULL, 0,
                               pv_set_find_view(trace->sets[1], "routines"), NULL, 0, NULL, msg,
                               sizeof msg);
    assert_non_null(d);
    free(d->id);
    d->id = pv_xstrdup("diff");
    pv_set_add_view(set, d);
    /* a :sql result */
    pv_sql *sql = pv_sql_new();
    pv_sql_add_file(sql, rtos);
    pv_sql_error se;
    pv_view *q = pv_sql_query(sql, "SELECT id, time, handle, name, event, context FROM timeline "
                                   "WHERE event IN ('E', 'X')", &se);
    assert_non_null(q);
    free(q->id);
    q->id = pv_xstrdup("sql-1");
    pv_set_add_view(set, q);

    check_filtered_export(f, "diff", "id <= 4");
    check_filtered_export(f, "sql-1", "time <= 150us");
    pv_file_free(f);
    pv_sql_free(sql);
    pv_file_free(rtos);
    pv_file_free(trace);
}

/* trace-json (docs/export.md "Trace Event Format"): the request's markers
 * and bookmarks are instants at their exact times (ns as us.fff, a
 * negative time too), a bookmark of a row without a time is listed in the
 * file's metadata, names and notes are escaped. */
static void test_trace_json_bookmarks(void **state)
{
    (void)state;
    static const pv_column calls[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
        {"thread", "Context", PV_TYPE_STRING, 0},
        {"depth", "Depth", PV_TYPE_INT, 0},
        {"time", "Time", PV_TYPE_TIME, 0},
        {"entry_time", "Entered", PV_TYPE_TIME, 0},
        {"exit_time", "Exited", PV_TYPE_TIME, 0},
    };
    pv_file *f = one_set_file("calls.test", "test", "Run", "test");
    pv_result_set *set = f->sets[0];
    pv_table *t = pv_table_new("call-trace", "Call trace", calls, PV_ARRAY_LEN(calls));
    size_t r0 = pv_table_add_row(t);
    pv_table_set_int(t, r0, 0, 1);
    pv_table_set_cstr(t, r0, 1, "main\x01\"q\"");
    pv_table_set_cstr(t, r0, 2, "T1");
    pv_table_set_int(t, r0, 3, 0);
    pv_table_set_int(t, r0, 4, 7);
    pv_table_set_int(t, r0, 5, -5);
    pv_table_set_int(t, r0, 6, 1234567);
    pv_set_add_view(set, pv_table_view(t));

    pv_export_bookmark marks[2] = {
        {.view = "call-trace", .row = 0, .has_time = true, .time = 1000001, .note = "look \"here\"\n"},
        {.view = "routines", .row = 7, .has_time = false, .note = NULL},
    };
    char path[512];
    out_path(path, sizeof path, "trace");
    pv_export_request r;
    pv_export_request_init(&r);
    r.format = PV_EXPORT_TRACE_JSON;
    r.has_mark[0] = r.has_mark[1] = true;
    r.mark[0] = 999;
    r.mark[1] = 2000000;
    r.bookmarks = marks;
    r.bookmark_count = 2;
    export_to(f, &r, path, PV_EXPORT_OK);
    const char *text = read_all(path);
    assert_non_null(strstr(text, "{\"ph\":\"X\",\"cat\":\"call\",\"pid\":1,\"tid\":1,\"ts\":-0.005,"
                                 "\"dur\":1234.572,\"name\":\"main\\u0001\\\"q\\\"\",\"args\":{\"id\":1,"
                                 "\"net\":7,\"depth\":0}}"));
    assert_non_null(strstr(text, "\"ts\":0.999,\"name\":\"marker A\"}"));
    assert_non_null(strstr(text, "\"ts\":2000.000,\"name\":\"marker B\"}"));
    assert_non_null(strstr(text, "\"ts\":1000.001,\"name\":\"bookmark: look \\\"here\\\"\\u000A\","
                                 "\"args\":{\"view\":\"call-trace\",\"row\":0,"
                                 "\"note\":\"look \\\"here\\\"\\u000A\"}}"));
    assert_non_null(strstr(text, "\"bookmarks without a time\":[{\"view\":\"routines\",\"row\":7}]"));
    assert_non_null(strstr(text, "\"displayTimeUnit\":\"ns\""));
    remove(path);
    pv_file_free(f);
}

/* trace-json of calls without a clock: each placed after the one before
 * on its thread (no tree: every call a root), and a bookmark of a call at
 * the call's place. */
static void test_trace_json_placed_bookmark(void **state)
{
    (void)state;
    static const pv_column calls[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
        {"thread", "Thread", PV_TYPE_STRING, 0},
        {"time_with_children", "Total", PV_TYPE_TIME, 0},
    };
    pv_file *f = one_set_file("placed.test", "test", "Run", "test");
    pv_result_set *set = f->sets[0];
    pv_table *t = pv_table_new("call-trace", "Call trace", calls, PV_ARRAY_LEN(calls));
    static const char *const threads[] = {"A", "B", "A"};
    static const int64_t twc[] = {1500, 7, 2001};
    for (int i = 0; i < 3; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, i + 1);
        pv_table_set_cstr(t, r, 1, "f");
        pv_table_set_cstr(t, r, 2, threads[i]);
        pv_table_set_int(t, r, 3, twc[i]);
    }
    pv_set_add_view(set, pv_table_view(t));
    pv_export_bookmark mark = {.view = "call-trace", .row = 2, .note = "third"};
    char path[512];
    out_path(path, sizeof path, "placed");
    pv_export_request r;
    pv_export_request_init(&r);
    r.format = PV_EXPORT_TRACE_JSON;
    r.bookmarks = &mark;
    r.bookmark_count = 1;
    export_to(f, &r, path, PV_EXPORT_OK);
    const char *text = read_all(path);
    /* A: 0 + 1.5 us, then 1.5 + 2.001; B: 0 + 0.007 */
    assert_non_null(strstr(text, "\"tid\":1,\"ts\":0.000,\"dur\":1.500,"));
    assert_non_null(strstr(text, "\"tid\":2,\"ts\":0.000,\"dur\":0.007,"));
    assert_non_null(strstr(text, "\"tid\":1,\"ts\":1.500,\"dur\":2.001,"));
    assert_non_null(strstr(text, "\"ts\":1.500,\"name\":\"bookmark: third\""));
    assert_null(strstr(text, "bookmarks without a time"));
    assert_non_null(strstr(text, "\"none: the call trace has no clock"));
    remove(path);
    pv_file_free(f);
}

/* A trace-json export reports its progress as it writes and stops when
 * cancelled, leaving no file. */
static void test_trace_json_cancel(void **state)
{
    (void)state;
    static const pv_column calls[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
        {"thread", "Context", PV_TYPE_STRING, 0},
        {"entry_time", "Entered", PV_TYPE_TIME, 0},
        {"exit_time", "Exited", PV_TYPE_TIME, 0},
    };
    pv_file *f = one_set_file("calls.test", "test", "Run", "test");
    pv_result_set *set = f->sets[0];
    pv_table *t = pv_table_new("call-trace", "Call trace", calls, PV_ARRAY_LEN(calls));
    for (int i = 0; i < N; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, i + 1);
        pv_table_set_cstr(t, r, 1, i % 2 ? "f" : "g");
        pv_table_set_cstr(t, r, 2, "T");
        pv_table_set_int(t, r, 3, (int64_t)i * 10);
        pv_table_set_int(t, r, 4, (int64_t)i * 10 + 5);
    }
    pv_set_add_view(set, pv_table_view(t));
    char path[512];
    out_path(path, sizeof path, "trace-cancel");
    pv_export_request r;
    request(&r, NULL);
    r.format = PV_EXPORT_TRACE_JSON;
    r.view_id = NULL;
    seen.cancel_after = 5;
    export_to(f, &r, path, PV_EXPORT_CANCELLED);
    assert_true(seen.calls >= 5);
    assert_string_equal(seen.first, "exporting");
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0); /* nothing left */
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selection_reports_before_rows),
        cmocka_unit_test(test_selection_parts_combine),
        cmocka_unit_test(test_cancel_while_selecting),
        cmocka_unit_test(test_reports_through_index_and_commit),
        cmocka_unit_test(test_cancel_in_index),
        cmocka_unit_test(test_cancel_leaves_the_helper),
        cmocka_unit_test(test_swapped_temp_sqlite),
        cmocka_unit_test(test_swapped_temp_text1_bin),
        cmocka_unit_test(test_diff_and_sql_views_reopen_as_shown),
        cmocka_unit_test(test_trace_json_bookmarks),
        cmocka_unit_test(test_trace_json_placed_bookmark),
        cmocka_unit_test(test_trace_json_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
