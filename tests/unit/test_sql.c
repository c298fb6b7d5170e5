/* test_sql.c - the SQL module (docs/sql.md): plans that use the order of a
 * view's columns (asserted with the count of rows visited), result types,
 * stopping a query, completion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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
    /* the connection is usable again */
    pv_sql_set_progress(s, NULL, NULL);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_window_visits_only_its_rows),
        cmocka_unit_test(test_grouped_columns),
        cmocka_unit_test(test_result_types),
        cmocka_unit_test(test_progress_stops_a_query),
        cmocka_unit_test(test_completion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
