/* test_sql.c - the SQL module (docs/sql.md): plans that use the order of a
 * view's columns (asserted with the count of rows visited), result types,
 * stopping a query, completion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "profview/hooks.h"
#include "profview/load.h"
#include "profview/sql.h"
#include "profview/table.h"

enum { N = 100000 };

static const pv_column cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"depth", "Depth", PV_TYPE_INT, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"ratio", "Ratio", PV_TYPE_FLOAT, 0},
    {"context", "Context", PV_TYPE_STRING, 0},
    {"bucket", "Bucket", PV_TYPE_INT, 0},
    {"opt", "Opt", PV_TYPE_INT, 0},   /* absent on every 5th row */
    {"wide", "Wide", PV_TYPE_INT, 0}, /* sums past 2^53 */
    {"huge", "Huge", PV_TYPE_INT, 0}, /* on every 1000th row; sums past int64 */
};

static const char *const contexts[] = {"Task_B", "Idle", "Task_A", "ISR"};

/* A file with one result set: `timeline` (time ascending, N rows) and
 * `shuffled` (the same times, not in order). */
static pv_file *make_file(void)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("test.file");
    f->format = "test";
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Run", "test");
    for (int k = 0; k < 2; k++) {
        pv_table *t = pv_table_new(k ? "shuffled" : "timeline", "T", cols, PV_ARRAY_LEN(cols));
        for (int i = 0; i < N; i++) {
            size_t r = pv_table_add_row(t);
            int64_t time = k ? (int64_t)((i * 7919) % N) * 10 : (int64_t)i * 10;
            pv_table_set_int(t, r, 0, i);
            pv_table_set_int(t, r, 1, time);
            pv_table_set_int(t, r, 2, i % 7);
            pv_table_set_uint(t, r, 3, 0x10000000u + (unsigned)(i % 3));
            pv_table_set_cstr(t, r, 4, i == 5 ? "evil\x1b]52;c;AAAA\a" : "fn");
            pv_table_set_float(t, r, 5, i / 4.0);
            if (i % 11) /* every 11th row has no context */
                pv_table_set_cstr(t, r, 6, contexts[(i / 3) % 4]);
            pv_table_set_int(t, r, 7, (i * 37) % 20 - 5);
            if (i % 5)
                pv_table_set_int(t, r, 8, i % 13 - 6);
            pv_table_set_int(t, r, 9, ((int64_t)1 << 40) * (i % 16));
            if (i % 1000 == 0)
                pv_table_set_int(t, r, 10, INT64_MAX / 2 + i);
        }
        pv_set_add_view(set, pv_table_view(t));
    }
    return f;
}

/* Runs a query whose result is one integer. */
static int64_t query_int(pv_sql *s, const char *q)
{
    pv_sql_error err;
    pv_view *v = pv_sql_query(s, q, &err);
    if (!v)
        fail_msg("%s: %s", q, err.message);
    assert_int_equal(pv_view_rows(v), 1);
    pv_cell c;
    pv_view_cell(v, 0, 0, &c);
    assert_true(c.present);
    int64_t x = c.v.i;
    pv_view_free(v);
    return x;
}

static void test_time_window_visits_only_its_rows(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    /* the first use reads the column once to learn it is ascending */
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time BETWEEN 0 AND 9"), 1);
    uint64_t before = pv_sql_rows_visited(s);
    assert_int_equal(
        query_int(s, "SELECT count(*) FROM timeline WHERE time BETWEEN 5000 AND 14999"), 1000);
    assert_int_equal(pv_sql_rows_visited(s) - before, 1000);
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time > 5000 AND time < 5100"),
                     9);
    assert_int_equal(pv_sql_rows_visited(s) - before, 9);
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT id FROM timeline WHERE time = 420"), 42);
    assert_int_equal(pv_sql_rows_visited(s) - before, 1);
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT depth FROM timeline WHERE rowid = 12"), 5);
    assert_int_equal(pv_sql_rows_visited(s) - before, 1);
    /* a float bound and an empty window */
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time >= 99.5 AND time <= 130"),
                     4);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time BETWEEN 7 AND 8"), 0);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time < NULL"), 0);
    /* a condition on a column of many values scans every row */
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE ratio = 3"), 1);
    assert_int_equal(pv_sql_rows_visited(s) - before, N);
    /* the same times out of order: a scan, and the same answer */
    before = pv_sql_rows_visited(s);
    assert_int_equal(
        query_int(s, "SELECT count(*) FROM shuffled WHERE time BETWEEN 5000 AND 14999"), 1000);
    assert_int_equal(pv_sql_rows_visited(s) - before, N);
    pv_sql_free(s);
    pv_file_free(f);
}

/* The same query with the column hidden from the plan (`+col` is an
 * expression: SQLite scans and sorts) gives the same rows. */
static void assert_same_as_scan(pv_sql *s, const char *fast, const char *slow)
{
    pv_sql_error err;
    pv_view *a = pv_sql_query(s, fast, &err);
    if (!a)
        fail_msg("%s: %s", fast, err.message);
    pv_view *b = pv_sql_query(s, slow, &err);
    if (!b)
        fail_msg("%s: %s", slow, err.message);
    assert_int_equal(pv_view_rows(a), pv_view_rows(b));
    assert_int_equal(a->column_count, b->column_count);
    pv_buf x, y;
    pv_buf_init(&x);
    pv_buf_init(&y);
    for (size_t r = 0; r < pv_view_rows(a); r++)
        for (size_t c = 0; c < a->column_count; c++) {
            pv_cell ca, cb;
            pv_view_cell(a, r, c, &ca);
            pv_view_cell(b, r, c, &cb);
            pv_buf_clear(&x);
            pv_buf_clear(&y);
            pv_cell_format_exact(&ca, &x);
            pv_cell_format_exact(&cb, &y);
            if (strcmp(pv_buf_cstr(&x), pv_buf_cstr(&y)) != 0)
                fail_msg("%s: row %zu column %zu: %s, scanned: %s", fast, r, c, pv_buf_cstr(&x),
                         pv_buf_cstr(&y));
        }
    pv_buf_free(&x);
    pv_buf_free(&y);
    pv_view_free(a);
    pv_view_free(b);
}

/* Columns of few values (docs/sql.md "Fast paths"): `col = x` visits x's
 * rows only; GROUP BY and ORDER BY col come group by group, no sort. */
static void test_grouped_columns(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    int64_t task_a = 0, no_context = 0, bucket3 = 0;
    for (int i = 0; i < N; i++) {
        if (i % 11 == 0)
            no_context++;
        else if ((i / 3) % 4 == 2)
            task_a++;
        if ((i * 37) % 20 - 5 == 3)
            bucket3++;
    }
    /* the first query makes the groups (one pass), the next ones use them */
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE context = 'Task_A'"),
                     task_a);
    uint64_t before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE context = 'Task_A'"),
                     task_a);
    assert_int_equal(pv_sql_rows_visited(s) - before, task_a);
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE context = 'nope'"), 0);
    assert_int_equal(pv_sql_rows_visited(s) - before, 0);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE context IS NULL"),
                     no_context);
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE depth = 3"),
                     (N - 3 + 6) / 7);
    assert_int_equal(pv_sql_rows_visited(s) - before, (N - 3 + 6) / 7);
    /* values of another kind: SQLite's conversions decide (every group is
     * visited, SQLite checks); 3.0 is 3, 3.5 is nothing */
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE depth = '3'"),
                     (N - 3 + 6) / 7);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE depth = 3.0"),
                     (N - 3 + 6) / 7);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE depth = 3.5"), 0);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE context = 'task_a' "
                                  "COLLATE NOCASE"),
                     task_a);
    /* 20 values: the rows sorted by group */
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled WHERE bucket = 3"), bucket3);
    assert_int_equal(pv_sql_rows_visited(s) - before, bucket3);
    /* with a time window: a binary search (the groups are not made for a
     * window), then, once they are, the group's rows in the window */
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time BETWEEN 0 AND 99990 "
                                  "AND depth = 3"),
                     (10000 - 3 + 6) / 7);
    assert_int_equal(pv_sql_rows_visited(s) - before, 10000);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE depth = 3"), (N - 3 + 6) / 7);
    before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE time BETWEEN 0 AND 99990 "
                                  "AND depth = 3"),
                     (10000 - 3 + 6) / 7);
    assert_int_equal(pv_sql_rows_visited(s) - before, (10000 - 3 + 6) / 7);

    /* grouped and ordered results equal SQLite's own sort */
    assert_same_as_scan(s, "SELECT context, count(*), sum(depth), min(id) FROM shuffled GROUP BY context",
                        "SELECT +context AS context, count(*), sum(depth), min(id) FROM shuffled "
                        "GROUP BY +context");
    assert_same_as_scan(s, "SELECT bucket, count(*), sum(time) FROM shuffled GROUP BY bucket",
                        "SELECT +bucket AS bucket, count(*), sum(time) FROM shuffled GROUP BY +bucket");
    assert_same_as_scan(s, "SELECT bucket, count(*) FROM timeline WHERE time < 50000 GROUP BY bucket",
                        "SELECT +bucket AS bucket, count(*) FROM timeline WHERE time < 50000 "
                        "GROUP BY +bucket");
    assert_same_as_scan(s, "SELECT DISTINCT context FROM shuffled",
                        "SELECT DISTINCT +context AS context FROM shuffled ORDER BY 1");
    assert_same_as_scan(s, "SELECT context, id FROM shuffled ORDER BY context DESC, id LIMIT 50",
                        "SELECT context, id FROM shuffled ORDER BY +context DESC, id LIMIT 50");
    assert_same_as_scan(s, "SELECT id, bucket FROM shuffled ORDER BY bucket DESC LIMIT 3000",
                        "SELECT id, bucket FROM shuffled ORDER BY +bucket DESC, rowid LIMIT 3000");
    assert_same_as_scan(s, "SELECT id FROM shuffled WHERE context = 'ISR' ORDER BY rowid",
                        "SELECT id FROM shuffled WHERE +context = 'ISR' ORDER BY rowid");
    assert_same_as_scan(s, "SELECT context, count(*) FROM shuffled WHERE context IN ('ISR', 'Idle') "
                           "GROUP BY context",
                        "SELECT +context, count(*) FROM shuffled WHERE +context IN ('ISR', 'Idle') "
                        "GROUP BY +context");
    assert_same_as_scan(s, "SELECT bucket, id FROM shuffled WHERE bucket IN (7, -5, 2) "
                           "ORDER BY bucket DESC, id LIMIT 20",
                        "SELECT bucket, id FROM shuffled WHERE +bucket IN (7, -5, 2) "
                        "ORDER BY +bucket DESC, id LIMIT 20");
    assert_same_as_scan(s, "SELECT handle + 0, count(*) FROM shuffled GROUP BY handle",
                        "SELECT +handle, count(*) FROM shuffled GROUP BY +handle");
    /* no sort in the plans */
    pv_sql_error err;
    pv_view *plan = pv_sql_query(
        s, "EXPLAIN QUERY PLAN SELECT context, count(*) FROM shuffled GROUP BY context", &err);
    assert_non_null(plan);
    pv_buf text;
    pv_buf_init(&text);
    for (size_t r = 0; r < pv_view_rows(plan); r++) {
        pv_cell c;
        pv_view_cell(plan, r, 3, &c);
        pv_buf_append(&text, c.v.s.ptr, c.v.s.len);
        pv_buf_putc(&text, '\n');
    }
    assert_non_null(strstr(pv_buf_cstr(&text), "grouped by context"));
    assert_null(strstr(pv_buf_cstr(&text), "TEMP B-TREE"));
    pv_buf_free(&text);
    pv_view_free(plan);
    pv_sql_free(s);
    pv_file_free(f);
}

static void test_result_types(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    pv_sql_error err;
    pv_view *v = pv_sql_query(
        s,
        "SELECT time, handle, handle_hex, ratio, sum(depth) / 2.0 AS half, name, "
        "CASE WHEN id = 1 THEN 'x' ELSE 1 END AS mixed FROM timeline WHERE id < 2 GROUP BY id",
        &err);
    assert_non_null(v);
    assert_int_equal(pv_view_rows(v), 2);
    assert_int_equal(v->columns[0].type, PV_TYPE_TIME);
    assert_int_equal(v->columns[1].type, PV_TYPE_HANDLE);
    assert_int_equal(v->columns[2].type, PV_TYPE_STRING);
    assert_int_equal(v->columns[3].type, PV_TYPE_FLOAT);
    assert_int_equal(v->columns[4].type, PV_TYPE_FLOAT);
    assert_int_equal(v->columns[6].type, PV_TYPE_STRING);
    assert_string_equal(v->columns[4].id, "half");
    pv_cell c;
    pv_buf b;
    pv_buf_init(&b);
    pv_view_cell(v, 1, 1, &c);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), "0x10000001");
    pv_view_cell(v, 1, 2, &c);
    assert_int_equal(c.v.s.len, 10);
    assert_memory_equal(c.v.s.ptr, "0x10000001", 10);
    pv_view_cell(v, 0, 6, &c);
    assert_memory_equal(c.v.s.ptr, "1", 1);
    pv_buf_free(&b);
    pv_view_free(v);

    /* names pass through as they are (the writers escape them) */
    v = pv_sql_query(s, "SELECT name FROM timeline WHERE id = 5", &err);
    assert_non_null(v);
    pv_view_cell(v, 0, 0, &c);
    assert_int_equal(c.v.s.len, strlen("evil\x1b]52;c;AAAA\a"));
    assert_memory_equal(c.v.s.ptr, "evil\x1b]52;c;AAAA\a", c.v.s.len);
    pv_view_free(v);

    /* errors: the message and the place */
    assert_null(pv_sql_query(s, "SELECT id FROM timeline WHERE", &err));
    assert_non_null(strstr(err.message, "incomplete input"));
    assert_null(pv_sql_query(s, "SELECT x FROM timeline", &err));
    assert_string_equal(err.message, "no such column: x");
    assert_int_equal(err.offset, 7);
    assert_null(pv_sql_query(s, "UPDATE timeline SET depth = 1", &err));
    assert_null(pv_sql_query(s, "   ", &err));
    pv_sql_free(s);
    pv_file_free(f);
}

/* Rows of two results, cell by cell (the exact text). */
static void assert_same_rows(const char *what, pv_view *a, pv_view *b)
{
    if (pv_view_rows(a) != pv_view_rows(b))
        fail_msg("%s: %zu rows, plain: %zu", what, pv_view_rows(a), pv_view_rows(b));
    assert_int_equal(a->column_count, b->column_count);
    pv_buf x, y;
    pv_buf_init(&x);
    pv_buf_init(&y);
    for (size_t c = 0; c < a->column_count; c++) {
        assert_string_equal(a->columns[c].id, b->columns[c].id);
        assert_int_equal(a->columns[c].type, b->columns[c].type);
    }
    for (size_t r = 0; r < pv_view_rows(a); r++)
        for (size_t c = 0; c < a->column_count; c++) {
            pv_cell ca, cb;
            pv_view_cell(a, r, c, &ca);
            pv_view_cell(b, r, c, &cb);
            pv_buf_clear(&x);
            pv_buf_clear(&y);
            pv_cell_format_exact(&ca, &x);
            pv_cell_format_exact(&cb, &y);
            if (ca.present != cb.present || strcmp(pv_buf_cstr(&x), pv_buf_cstr(&y)) != 0)
                fail_msg("%s: row %zu column %zu: %s, plain: %s", what, r, c, pv_buf_cstr(&x),
                         pv_buf_cstr(&y));
        }
    pv_buf_free(&x);
    pv_buf_free(&y);
}

/* Runs q group by group and as SQLite plans it (pv_sql_set_group_runs off)
 * and asserts the same result; returns the statements run per group (0:
 * the query is not of the shape, docs/sql.md). */
static uint64_t group_runs_of(pv_sql *s, const char *q)
{
    pv_sql_error err;
    uint64_t before = pv_sql_group_runs(s);
    pv_view *fast = pv_sql_query(s, q, &err);
    if (!fast)
        fail_msg("%s: %s", q, err.message);
    uint64_t runs = pv_sql_group_runs(s) - before;
    pv_sql_set_group_runs(s, false);
    pv_view *plain = pv_sql_query(s, q, &err);
    pv_sql_set_group_runs(s, true);
    if (!plain)
        fail_msg("%s: %s", q, err.message);
    assert_int_equal(pv_sql_group_runs(s), before + runs);
    assert_same_rows(q, fast, plain);
    pv_view_free(fast);
    pv_view_free(plain);
    return runs;
}

static bool stop_now(void *ctx, uint64_t rows, uint64_t visited);

/* Runs q with the group runs and as SQLite plans it: the same rows, or the
 * same error; returns the group statements whose aggregates profview
 * computed (docs/sql.md "GROUP BY, group by group"). */
static uint64_t group_folds_of(pv_sql *s, const char *q)
{
    pv_sql_error err, err2;
    uint64_t before = pv_sql_group_folds(s);
    pv_view *fast = pv_sql_query(s, q, &err);
    uint64_t folds = pv_sql_group_folds(s) - before;
    pv_sql_set_group_runs(s, false);
    pv_view *plain = pv_sql_query(s, q, &err2);
    pv_sql_set_group_runs(s, true);
    if (!fast || !plain) {
        if (fast || plain)
            fail_msg("%s: %s", q, fast ? err2.message : err.message);
        assert_string_equal(err.message, err2.message);
        return folds;
    }
    assert_int_equal(pv_sql_group_folds(s), before + folds);
    assert_same_rows(q, fast, plain);
    pv_view_free(fast);
    pv_view_free(plain);
    return folds;
}

/* The aggregates of a GROUP BY that profview computes itself, and those it
 * leaves to SQLite: the same rows as SQLite's own GROUP BY either way. */
static void test_group_folds(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    /* context: 4 values and NULL; bucket: 20 values, of which -5, 0, 5 and
     * 10 have no `opt` on any row (sum NULL, total 0.0, count 0) */
    static const char *const folded[] = {
        "SELECT context, count(*), sum(depth), min(id), max(time), avg(bucket), total(bucket), "
        "count(opt), sum(opt), avg(opt), total(opt), min(opt), max(handle), sum(wide), "
        "max(huge), count(huge) FROM shuffled GROUP BY context",
        "SELECT bucket, count(*), count(opt), sum(opt), avg(opt), total(opt), min(opt), max(opt), "
        "sum(bucket), min(bucket) FROM shuffled GROUP BY bucket",
        "select Context, COUNT(*) from SHUFFLED group by CONTEXT;",
        "SELECT t.context AS c, count(t.depth), sum(main.t.depth) FROM main.shuffled AS t "
        "GROUP BY t.context",
        "SELECT \"context\", count(*) -- a comment\nFROM r1.shuffled t /* here */ GROUP BY "
        "\"context\" ; ",
        "SELECT upper(context), count(*) * 2, sum(depth) / count(*), coalesce(sum(opt), -1), "
        "typeof(avg(opt)), CASE WHEN min(opt) IS NULL THEN 'none' ELSE 'some' END "
        "FROM shuffled GROUP BY context",
        "SELECT bucket, sum(opt) * 1.5, max(opt) - min(opt) FROM shuffled GROUP BY bucket",
        "SELECT context, count(*) FROM shuffled WHERE context IN ('ISR', 'Idle') GROUP BY context",
        "SELECT context, count(*) FROM shuffled WHERE context = 'ISR' GROUP BY context",
        "SELECT context, count(*) FROM shuffled WHERE context IS NULL GROUP BY context",
        "SELECT bucket, count(*) FROM shuffled GROUP BY bucket HAVING count(*) > 5000",
        "SELECT context, sum(opt) AS s, avg(opt) FROM shuffled GROUP BY context "
        "HAVING s > 0 AND max(bucket) = 14",
        "SELECT bucket, count(*) FROM shuffled WHERE bucket < 0 GROUP BY bucket HAVING "
        "bucket % 2 = 0 OR sum(opt) IS NULL",
        "SELECT context FROM shuffled GROUP BY context",
        "SELECT 1 FROM shuffled GROUP BY context",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(folded); i++) {
        uint64_t n = group_folds_of(s, folded[i]);
        uint64_t groups = strstr(folded[i], "BY bucket") ? 20 : 5;
        if (n != groups)
            fail_msg("%s: %" PRIu64 " groups computed, expected %" PRIu64, folded[i], n, groups);
    }
    /* an empty view: no groups, no rows */
    assert_int_equal(group_folds_of(s, "SELECT context, count(*), sum(depth) FROM shuffled "
                                       "WHERE context = 'nope' GROUP BY context"),
                     5);
    /* anything else is left to SQLite, group by group or as written */
    static const char *const not_folded[] = {
        "SELECT context, avg(ratio) FROM shuffled GROUP BY context",
        "SELECT context, max(name) FROM shuffled GROUP BY context",
        "SELECT context, min(handle_hex) FROM shuffled GROUP BY context",
        "SELECT context, count(DISTINCT depth) FROM shuffled GROUP BY context",
        "SELECT context, group_concat(id) FROM shuffled GROUP BY context",
        "SELECT context, count(*) FILTER (WHERE depth > 2) FROM shuffled GROUP BY context",
        "SELECT context, sum(depth + 1) FROM shuffled GROUP BY context",
        "SELECT context, sum(CASE WHEN bucket < 0 THEN 1 END) FROM shuffled GROUP BY context",
        "SELECT context, id, count(*) FROM shuffled GROUP BY context",
        "SELECT context, min(time), id FROM shuffled GROUP BY context",
        "SELECT context, rowid, count(*) FROM shuffled GROUP BY context",
        "SELECT *, count(*) FROM shuffled GROUP BY depth",
        "SELECT t.*, count(*) FROM shuffled t GROUP BY depth",
        "SELECT context, count(*) FROM shuffled WHERE depth = 3 GROUP BY context",
        "SELECT context, count(*) FROM shuffled GROUP BY context HAVING max(id) > depth",
        "SELECT context AS depth, count(*) FROM shuffled GROUP BY context HAVING depth > 2",
        "SELECT context c, count(*) FROM shuffled GROUP BY context",
        "SELECT context, count(*) + random() * 0 FROM shuffled GROUP BY context",
        "SELECT context, min(depth, 3), count(*) FROM shuffled GROUP BY context",
        /* not exact as SQLite sums: past 2^53 (total, avg), past int64 (an error) */
        "SELECT context, avg(wide) FROM shuffled GROUP BY context",
        "SELECT context, total(wide) FROM shuffled GROUP BY context",
        "SELECT context, sum(huge) FROM shuffled GROUP BY context",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(not_folded); i++) {
        uint64_t n = group_folds_of(s, not_folded[i]);
        if (n)
            fail_msg("%s: %" PRIu64 " groups computed, expected none", not_folded[i], n);
    }
    pv_sql_error err;
    assert_null(pv_sql_query(s, "SELECT context, sum(huge) FROM shuffled GROUP BY context", &err));
    assert_string_equal(err.message, "integer overflow");
    /* the pass over the rows stops when asked to */
    pv_sql_set_progress(s, stop_now, NULL);
    assert_null(pv_sql_query(s, "SELECT context, sum(depth) FROM timeline GROUP BY context", &err));
    assert_true(err.interrupted);
    pv_sql_set_progress(s, NULL, NULL);
    assert_int_equal(group_folds_of(s, "SELECT context, sum(depth) FROM timeline GROUP BY context"),
                     5);
    pv_sql_free(s);
    pv_file_free(f);
}

/* A GROUP BY on a grouped column runs as one aggregate per group (docs/sql.md
 * "GROUP BY, group by group"): the same rows as SQLite's own GROUP BY. */
static void test_group_runs(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    /* context: 4 values and NULL; bucket: 20 values (the rows sorted by group) */
    static const char *const runs[] = {
        "SELECT context, count(*), sum(depth), min(id), max(time), avg(ratio), total(bucket), "
        "count(DISTINCT depth), group_concat(id) FROM shuffled GROUP BY context",
        "SELECT bucket, count(*), sum(time), max(name), min(handle_hex) FROM shuffled GROUP BY bucket",
        "select Context, COUNT(*) from SHUFFLED group by CONTEXT;",
        "SELECT t.context AS c, count(*) FROM main.shuffled AS t GROUP BY t.context",
        "SELECT \"context\", count(*) -- a comment\nFROM r1.shuffled t /* here */ GROUP BY "
        "\"context\" ; ",
        "SELECT upper(context), count(*) * 2, sum(depth) / count(*), length(group_concat(name)) "
        "FROM shuffled GROUP BY context",
        "SELECT context, count(*) FILTER (WHERE depth > 2), sum(CASE WHEN bucket < 0 THEN 1 END) "
        "FROM shuffled GROUP BY context",
        /* a condition on another grouped column, on an ordered column, on the same one */
        "SELECT context, count(*), sum(id) FROM shuffled WHERE depth = 3 GROUP BY context",
        "SELECT context, count(*) FROM shuffled WHERE context IN ('ISR', 'Idle') GROUP BY context",
        "SELECT context, count(*) FROM shuffled WHERE context = 'ISR' GROUP BY context",
        /* groups that WHERE empties have no row, even when HAVING would keep it */
        "SELECT context, count(*), sum(id) FROM shuffled WHERE bucket = 14 AND id < 500 "
        "GROUP BY context",
        "SELECT context, count(*) FROM shuffled WHERE id < 0 GROUP BY context HAVING count(*) = 0",
        "SELECT bucket, count(*) FROM shuffled GROUP BY bucket HAVING count(*) > 5000",
        "SELECT context, sum(depth) FROM shuffled WHERE id % 3 = 0 GROUP BY context "
        "HAVING sum(depth) > 0 AND max(bucket) = 14",
        /* the other columns of a group come from the same row either way */
        "SELECT context, id, time FROM shuffled GROUP BY context",
        "SELECT context, min(time), id, name FROM shuffled GROUP BY context",
        "SELECT context, max(id), time FROM shuffled GROUP BY context",
        "SELECT context FROM shuffled GROUP BY context",
        "SELECT depth AS context, count(*) FROM shuffled GROUP BY context",
        "SELECT *, count(*) FROM shuffled GROUP BY depth",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(runs); i++) {
        uint64_t n = group_runs_of(s, runs[i]);
        uint64_t groups = strstr(runs[i], "BY bucket") ? 20 : strstr(runs[i], "BY depth") ? 7 : 5;
        if (n != groups)
            fail_msg("%s: %" PRIu64 " group runs, expected %" PRIu64, runs[i], n, groups);
    }
    /* a time window (a binary search) does not make the groups: SQLite
     * sorts its rows; once they are made, it runs group by group */
    static const char *const window =
        "SELECT bucket, count(*), max(id) FROM timeline WHERE time BETWEEN 1000 AND 500000 "
        "GROUP BY bucket";
    assert_int_equal(group_runs_of(s, window), 0);
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline WHERE bucket = 7"), N / 20);
    assert_int_equal(group_runs_of(s, window), 20);
    /* every row is visited once over the runs */
    uint64_t before = pv_sql_rows_visited(s);
    assert_int_equal(query_int(s, "SELECT count(*) FROM (SELECT context, count(*) FROM shuffled "
                                  "GROUP BY context)"),
                     5);
    assert_int_equal(pv_sql_rows_visited(s) - before, N);
    /* anything else runs as written (and gives the same rows) */
    static const char *const as_written[] = {
        "SELECT ratio, count(*) FROM shuffled WHERE id < 50 GROUP BY ratio",
        "SELECT id, count(*) FROM shuffled GROUP BY id",
        "SELECT depth AS d, count(*) FROM shuffled GROUP BY d",
        "SELECT context, count(*) FROM shuffled GROUP BY context ORDER BY 2 DESC",
        "SELECT context, count(*) FROM shuffled GROUP BY context LIMIT 2",
        "SELECT context, count(*) FROM shuffled GROUP BY +context",
        "SELECT context, count(*) FROM shuffled GROUP BY context, depth",
        "SELECT context, count(*) FROM shuffled GROUP BY context COLLATE NOCASE",
        "SELECT DISTINCT count(*) FROM shuffled GROUP BY context",
        "SELECT context, count(*) OVER () FROM shuffled GROUP BY context",
        "SELECT context, (SELECT count(*) FROM timeline) FROM shuffled GROUP BY context",
        "SELECT context, count(*) FROM shuffled WHERE id IN (SELECT id FROM shuffled WHERE "
        "depth = 1) GROUP BY context",
        "SELECT a.context, count(*) FROM shuffled a, timeline b WHERE a.id = b.id AND b.id < 100 "
        "GROUP BY a.context",
        "SELECT a.context, count(*) FROM shuffled a JOIN timeline b USING (id) WHERE b.id < 100 "
        "GROUP BY a.context",
        "SELECT context, count(*) FROM shuffled GROUP BY context UNION ALL SELECT 'x', 1",
        "WITH x AS (SELECT * FROM shuffled) SELECT context, count(*) FROM x GROUP BY context",
        "SELECT type, count(*) FROM sqlite_schema GROUP BY type",
        "SELECT kind, count(*) FROM profview_tables GROUP BY kind",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(as_written); i++) {
        uint64_t n = group_runs_of(s, as_written[i]);
        if (strstr(as_written[i], "profview_tables"))
            continue; /* a table of few rows: either way */
        if (n)
            fail_msg("%s: %" PRIu64 " group runs, expected none", as_written[i], n);
    }
    /* the result's details are those of the query as written */
    pv_sql_error err;
    pv_view *v = pv_sql_query(s, "SELECT context, id FROM shuffled GROUP BY context", &err);
    assert_non_null(v);
    assert_true(v->detail_count == 0 || v->details != NULL);
    pv_view_free(v);
    /* errors are the query's own */
    assert_null(pv_sql_query(s, "SELECT nope, count(*) FROM shuffled GROUP BY context", &err));
    assert_string_equal(err.message, "no such column: nope");
    assert_int_equal(err.offset, 7);
    pv_sql_free(s);
    pv_file_free(f);
}

/* Every column of every view of a file grouped: group runs and SQLite's
 * GROUP BY agree; returns how many queries ran group by group and adds to
 * *folds the groups whose aggregates profview computed.  (A column
 * of many values runs as written: nothing to compare, not asked twice.) */
static uint64_t group_runs_on_file(const char *path, uint64_t *folds)
{
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    if (st != PV_LOAD_OK || !f)
        fail_msg("%s: cannot load", path);
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    uint64_t runs = 0;
    const pv_result_set *set = f->sets[0];
    pv_buf q;
    pv_buf_init(&q);
    for (size_t i = 0; i < set->view_count; i++) {
        const pv_view *v = set->views[i];
        char table[256];
        pv_sql_table_name(v->id, table, sizeof table);
        for (size_t c = 0; c < v->column_count; c++) {
            if (v->columns[c].type == PV_TYPE_FLOAT)
                continue;
            pv_buf_clear(&q);
            pv_buf_printf(&q, "SELECT \"%s\", count(*), min(rowid), max(rowid)", v->columns[c].id);
            for (size_t k = 0, n = 0; k < v->column_count && n < 6; k++)
                if (k != c) {
                    const char *id = v->columns[k].id;
                    pv_buf_printf(&q, ", min(\"%s\"), max(\"%s\"), count(\"%s\")", id, id, id);
                    if (v->columns[k].type != PV_TYPE_STRING)
                        pv_buf_printf(&q, ", sum(\"%s\")", id);
                    n++;
                }
            pv_buf_printf(&q, " FROM \"%s\" GROUP BY \"%s\"", table, v->columns[c].id);
            pv_buf probe;
            pv_buf_init(&probe);
            pv_buf_printf(&probe, "SELECT count(*) FROM (SELECT DISTINCT \"%s\" FROM \"%s\")",
                          v->columns[c].id, table);
            int64_t values = query_int(s, pv_buf_cstr(&probe));
            if (values == 0) { /* no rows: no groups, no runs, no result */
                assert_int_equal(group_runs_of(s, pv_buf_cstr(&q)), 0);
            } else if (values <= 256) {
                uint64_t n = group_runs_of(s, pv_buf_cstr(&q));
                if (!n)
                    fail_msg("%s: %s: no group runs", path, pv_buf_cstr(&q));
                runs++;
                /* every aggregate profview computes, of every integer column */
                pv_buf_clear(&q);
                pv_buf_printf(&q, "SELECT \"%s\", count(*)", v->columns[c].id);
                for (size_t k = 0; k < v->column_count; k++) {
                    pv_type t = v->columns[k].type;
                    if (t == PV_TYPE_FLOAT || t == PV_TYPE_STRING)
                        continue;
                    const char *id = v->columns[k].id;
                    pv_buf_printf(&q,
                                  ", count(\"%s\"), sum(\"%s\"), total(\"%s\"), avg(\"%s\"), "
                                  "min(\"%s\"), max(\"%s\")",
                                  id, id, id, id, id, id);
                }
                pv_buf_printf(&q, " FROM \"%s\" GROUP BY \"%s\"", table, v->columns[c].id);
                if (folds)
                    *folds += group_folds_of(s, pv_buf_cstr(&q));
            }
            pv_buf_free(&probe);
        }
    }
    pv_buf_free(&q);
    pv_sql_free(s);
    pv_file_free(f);
    return runs;
}

static void test_group_runs_on_samples(void **state)
{
    (void)state;
    static const char *const samples[] = {
        "aqtime-refcount.db", "aqtime-resource.db", "aqtime-trace.db", "plist-func-count.txt",
        "plist-func-timing.txt", "plist-line-count.txt", "plist-line-coverage.txt", "rtos.txt",
        "rtos-ctx.txt", "rtos-v10.txt", "rtos-v11.txt",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(samples); i++) {
        char *path = pv_xasprintf("%s/sample-data/%s", PV_SOURCE_DIR, samples[i]);
        uint64_t folds = 0;
        uint64_t runs = group_runs_on_file(path, &folds);
        if (!runs)
            fail_msg("%s: no query ran group by group", path);
        if (!folds)
            fail_msg("%s: no aggregates computed by profview", path);
        free(path);
    }
}

static char texts[64][128];
static size_t texts_seen;
static void collect_text(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    assert_true(texts_seen < 64 && len < 128);
    memcpy(texts[texts_seen], text, len);
    texts[texts_seen++][len] = '\0';
}

/* A generated timeline (BIN v1.1, indexed): the benchmark's query, and
 * every column grouped. */
static void test_group_runs_on_generated_timeline(void **state)
{
    (void)state;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/pv-sql-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *cmd = pv_xasprintf("'%s/pv_gen_winidea' --seed 7 --tasks 6 --events 100000 --format bin11 "
                             "-o '%s/gen.txt'",
                             PV_BUILD_DIR, dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    char *path = pv_xasprintf("%s/gen.txt", dir);
    uint64_t folds = 0;
    assert_true(group_runs_on_file(path, &folds) >= 4);
    assert_true(folds >= 4);
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    /* depth is read from the index's array (the int_column hook): the
     * same values as the cells */
    const pv_view *tl = pv_set_find_view(f->sets[0], "timeline");
    assert_non_null(tl);
    size_t depth = pv_view_column(tl, "depth");
    pv_int_array arr;
    assert_true(pv_view_int_column(tl, depth, &arr));
    int64_t sum = 0, max = -1;
    for (size_t r = 0; r < pv_view_rows(tl); r++) {
        pv_cell c;
        pv_view_cell(tl, r, depth, &c);
        assert_true(c.present);
        uint64_t x = arr.width == 1   ? ((const uint8_t *)arr.base)[r]
                     : arr.width == 2 ? ((const uint16_t *)arr.base)[r]
                     : arr.width == 4 ? ((const uint32_t *)arr.base)[r]
                                      : ((const uint64_t *)arr.base)[r];
        assert_int_equal(x, c.v.i);
        sum += c.v.i;
        max = c.v.i > max ? c.v.i : max;
    }
    assert_true(max > 1);
    /* context is the index's codes (the code_column hook): the cells' texts,
     * and the groups made from them count what the cells say */
    size_t context = pv_view_column(tl, "context");
    pv_int_array codes;
    assert_true(pv_view_code_column(tl, context, &codes));
    texts_seen = 0;
    assert_true(pv_view_column_values(tl, context, collect_text, NULL));
    enum { CONTEXTS = 64 };
    int64_t per_code[CONTEXTS + 1] = {0}; /* [CONTEXTS]: absent */
    for (size_t r = 0; r < pv_view_rows(tl); r++) {
        pv_cell c;
        pv_view_cell(tl, r, context, &c);
        size_t code = codes.width == 1 ? ((const uint8_t *)codes.base)[r]
                                       : ((const uint16_t *)codes.base)[r];
        if (code >= texts_seen) {
            assert_false(c.present);
            per_code[CONTEXTS]++;
            continue;
        }
        assert_true(c.present);
        assert_true(code < CONTEXTS);
        assert_int_equal(c.v.s.len, strlen(texts[code]));
        assert_memory_equal(c.v.s.ptr, texts[code], c.v.s.len);
        per_code[code]++;
    }
    pv_sql_error err;
    pv_view *counts = pv_sql_query(s, "SELECT context, count(*) FROM timeline GROUP BY context",
                                   &err);
    assert_non_null(counts);
    for (size_t r = 0; r < pv_view_rows(counts); r++) {
        pv_cell name, count;
        pv_view_cell(counts, r, 0, &name);
        pv_view_cell(counts, r, 1, &count);
        size_t code = CONTEXTS;
        for (size_t k = 0; name.present && k < texts_seen; k++)
            if (strlen(texts[k]) == name.v.s.len && !memcmp(texts[k], name.v.s.ptr, name.v.s.len))
                code = k;
        assert_true(!name.present || code < CONTEXTS);
        assert_int_equal(count.v.i, per_code[code]);
        per_code[code] = 0;
    }
    for (size_t k = 0; k <= CONTEXTS; k++)
        assert_int_equal(per_code[k], 0); /* every row counted */
    pv_view_free(counts);
    assert_int_equal(query_int(s, "SELECT sum(depth) FROM timeline"), sum);
    assert_int_equal(query_int(s, "SELECT max(depth) FROM timeline"), max);
    int64_t n_contexts = query_int(s, "SELECT count(DISTINCT coalesce(context, '')) FROM timeline");
    int64_t events = query_int(s, "SELECT count(*) FROM timeline");
    assert_true(n_contexts >= 6);
    static const char *const bench[] = {
        "SELECT context, count(*), sum(depth) FROM timeline GROUP BY context",
        ("SELECT context, sum(depth), min(time), max(time), count(DISTINCT event) FROM timeline "
         "GROUP BY context"),
        "SELECT context, count(*), max(depth) FROM timeline WHERE event = 'E' GROUP BY context",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(bench); i++) {
        uint64_t visited = pv_sql_rows_visited(s);
        uint64_t folded = pv_sql_group_folds(s);
        assert_int_equal(group_runs_of(s, bench[i]), (uint64_t)n_contexts);
        /* the first one's aggregates are computed by profview (one pass,
         * then one row per group), the others' by SQLite */
        assert_int_equal(pv_sql_group_folds(s) - folded, i == 0 ? (uint64_t)n_contexts : 0);
        if (i == 0) /* both ways: every event once (and a row per group) */
            assert_int_equal(pv_sql_rows_visited(s) - visited,
                             2 * (uint64_t)events + (uint64_t)n_contexts);
    }
    pv_sql_free(s);
    pv_file_free(f);
    free(path);
    cmd = pv_xasprintf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

static bool stop_now(void *ctx, uint64_t rows, uint64_t visited)
{
    (void)ctx;
    (void)rows;
    (void)visited;
    return false;
}

static int stop_calls;
static bool stop_soon(void *ctx, uint64_t rows, uint64_t visited)
{
    (void)ctx;
    (void)rows;
    (void)visited;
    return ++stop_calls < 3;
}

static void test_progress_stops_a_query(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    pv_sql_set_progress(s, stop_soon, NULL);
    pv_sql_error err;
    stop_calls = 0;
    pv_view *v = pv_sql_query(s, "SELECT a.id FROM timeline a, shuffled b WHERE a.depth = b.id",
                              &err);
    assert_null(v);
    assert_true(err.interrupted);
    assert_int_equal(stop_calls, 3);
    /* a GROUP BY run group by group stops too */
    stop_calls = 0;
    v = pv_sql_query(s, "SELECT context, count(*), sum(length(name || a.id)) FROM timeline a "
                        "GROUP BY context",
                     &err);
    assert_null(v);
    assert_true(err.interrupted);
    assert_int_equal(stop_calls, 3);
    /* the connection is usable again */
    pv_sql_set_progress(s, NULL, NULL);
    assert_int_equal(query_int(s, "SELECT count(*) FROM (SELECT context, count(*) FROM shuffled "
                                  "GROUP BY context)"),
                     5);
    assert_int_equal(query_int(s, "SELECT count(*) FROM shuffled"), N);
    pv_sql_free(s);
    pv_file_free(f);
}

static char completions[512];
static void collect(void *ctx, const char *name)
{
    (void)ctx;
    strncat(completions, name, sizeof completions - strlen(completions) - 2);
    strcat(completions, " ");
}

static void test_completion(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    completions[0] = '\0';
    pv_sql_complete(s, "ti", collect, NULL);
    assert_string_equal(completions, "timeline ");
    completions[0] = '\0';
    pv_sql_complete(s, "timeline.d", collect, NULL);
    assert_string_equal(completions, "timeline.depth ");
    completions[0] = '\0';
    pv_sql_complete(s, "r1.sh", collect, NULL);
    assert_string_equal(completions, "r1.shuffled ");
    completions[0] = '\0';
    pv_sql_complete(s, "r1.shuffled.ha", collect, NULL);
    assert_string_equal(completions, "r1.shuffled.handle ");
    pv_sql_free(s);
    pv_file_free(f);
}

/* Runs fn in a child process with its stderr captured into err; returns
 * its wait status (the tests of what ends profview). */
static int run_in_child(void (*fn)(void), char *err, size_t err_size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        fn();
        _exit(0);
    }
    close(fds[1]);
    size_t len = 0;
    ssize_t n;
    while (len + 1 < err_size && (n = read(fds[0], err + len, err_size - 1 - len)) > 0)
        len += (size_t)n;
    err[len] = '\0';
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void open_without_memory(void)
{
    /* SQLite may allocate nothing more: its in-memory database cannot open */
    sqlite3_initialize();
    sqlite3_hard_heap_limit64(1);
    pv_sql_new();
}

/* SQL's connection that cannot be opened for want of memory ends profview
 * as every allocation does: a message, exit status 2, no abort (it was
 * SIGABRT, a core dump). */
static void test_out_of_memory_exits_2(void **state)
{
    (void)state;
    char err[512];
    int status = run_in_child(open_without_memory, err, sizeof err);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 2);
    assert_non_null(strstr(err, "profview: out of memory (opening SQLite's in-memory database"));
}

/* pv_sql_read_file: the files the last query read (the viewer closes a
 * result of a file reloaded, docs/tui.md ":reload"). */
static void test_read_file(void **state)
{
    (void)state;
    pv_file *f1 = make_file(), *f2 = make_file();
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f1);
    pv_sql_add_file(s, f2);
    assert_int_equal(query_int(s, "SELECT count(*) FROM r2.timeline"), N);
    assert_false(pv_sql_read_file(s, f1));
    assert_true(pv_sql_read_file(s, f2));
    assert_int_equal(query_int(s, "SELECT count(*) FROM timeline"), N);
    assert_true(pv_sql_read_file(s, f1));
    assert_false(pv_sql_read_file(s, f2));
    assert_int_equal(query_int(s, "SELECT (SELECT count(*) FROM r1.timeline) + "
                                  "(SELECT count(*) FROM r2.shuffled)"),
                     2 * N);
    assert_true(pv_sql_read_file(s, f1));
    assert_true(pv_sql_read_file(s, f2));
    assert_int_equal(query_int(s, "SELECT 7"), 7);
    assert_false(pv_sql_read_file(s, f1));
    assert_false(pv_sql_read_file(s, f2));
    pv_sql_free(s);
    pv_file_free(f1);
    pv_file_free(f2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_window_visits_only_its_rows),
        cmocka_unit_test(test_grouped_columns),
        cmocka_unit_test(test_group_runs),
        cmocka_unit_test(test_group_folds),
        cmocka_unit_test(test_group_runs_on_samples),
        cmocka_unit_test(test_group_runs_on_generated_timeline),
        cmocka_unit_test(test_result_types),
        cmocka_unit_test(test_progress_stops_a_query),
        cmocka_unit_test(test_completion),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_out_of_memory_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
