/* Unit tests for src/model: pv_table, cell text, comparison, and the
 * machine-exact writers of src/cli/output.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "profview/output.h"
#include "profview/table.h"

enum { C_ID, C_NAME, C_TIME, C_HANDLE, C_VALUE, C_PCT, C_COUNT };

static const pv_column cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"value", "Value", PV_TYPE_HEX, 0},
    {"pct", "%", PV_TYPE_FLOAT, 0},
};

static pv_table *make_tree(void)
{
    pv_table *t = pv_table_new("call-trace", "Call trace", cols, C_COUNT);
    pv_table_make_tree(t);
    for (int i = 0; i < 4; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, C_ID, 10 + i);
        pv_table_set_int(t, r, C_TIME, i * 1000);
        pv_table_set_uint(t, r, C_HANDLE, 0x1000000Du + (unsigned)i);
        pv_table_set_uint(t, r, C_VALUE, 0x1Au);
        pv_table_set_float(t, r, C_PCT, 12.5 * i);
    }
    pv_table_set_cstr(t, 0, C_NAME, "main");
    pv_table_set_cstr(t, 1, C_NAME, "otm(a, b);");
    pv_table_set_cstr(t, 2, C_NAME, "tab\there");
    pv_table_set_str(t, 3, C_NAME, "esc\x1b[2Jx\"q\"", 12);
    pv_table_set_parent(t, 1, 0);
    pv_table_set_parent(t, 2, 1);
    pv_table_set_parent(t, 3, 0);
    pv_table_clear(t, 3, C_VALUE);
    return t;
}

static void test_table_cells_and_tree(void **state)
{
    (void)state;
    pv_table *t = make_tree();
    pv_view *v = pv_table_view(t);
    assert_int_equal(pv_view_rows(v), 4);
    assert_true(pv_view_is_tree(v));
    assert_int_equal(pv_view_depth(v, 2), 2);
    assert_int_equal(pv_view_depth(v, 3), 1);
    assert_int_equal(pv_view_parent(v, 0), PV_NO_ROW);
    assert_int_equal(pv_view_column(v, "HANDLE"), C_HANDLE);
    assert_int_equal(pv_view_column(v, "nope"), PV_NO_ROW);
    assert_int_equal(pv_view_name_column(v), C_NAME);
    assert_int_equal(pv_view_find_id(v, 12), 2);
    assert_int_equal(pv_view_find_id(v, 99), PV_NO_ROW);

    pv_cell c;
    pv_view_cell(v, 1, C_NAME, &c);
    assert_true(c.present);
    assert_int_equal(c.v.s.len, 10);
    assert_memory_equal(c.v.s.ptr, "otm(a, b);", 10);
    pv_view_cell(v, 3, C_VALUE, &c);
    assert_false(c.present);

    /* A parent after its child would break pre-order: refused. */
    pv_table_set_parent(t, 1, 2);
    assert_int_equal(pv_view_parent(v, 1), 0);
    pv_view_free(v);
}

static void test_exact_format(void **state)
{
    (void)state;
    pv_table *t = make_tree();
    pv_view *v = pv_table_view(t);
    pv_buf b;
    pv_buf_init(&b);
    pv_cell c;
    pv_view_cell(v, 0, C_HANDLE, &c);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), "0x1000000D");
    pv_buf_clear(&b);
    pv_view_cell(v, 0, C_VALUE, &c);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), "0x1A");
    pv_buf_clear(&b);
    pv_view_cell(v, 0, C_TIME, &c);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), "0");
    pv_buf_clear(&b);
    pv_view_cell(v, 1, C_PCT, &c);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), "12.5");
    pv_buf_clear(&b);
    pv_view_cell(v, 3, C_VALUE, &c);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), "");
    pv_buf_free(&b);
    pv_view_free(v);
}

static void test_compare(void **state)
{
    (void)state;
    pv_cell a = {PV_TYPE_STRING, true, {.s = {"abc", 3}}};
    pv_cell b = {PV_TYPE_STRING, true, {.s = {"abcd", 4}}};
    pv_cell none = {PV_TYPE_STRING, false, {.i = 0}};
    assert_true(pv_cell_compare(&a, &b) < 0);
    assert_true(pv_cell_compare(&b, &a) > 0);
    assert_true(pv_cell_compare(&none, &a) < 0);
    pv_cell x = {PV_TYPE_TIME, true, {.i = -5}};
    pv_cell y = {PV_TYPE_TIME, true, {.i = 3}};
    assert_true(pv_cell_compare(&x, &y) < 0);
    assert_int_equal(pv_cell_compare(&x, &x), 0);
}

static char *write_all(pv_view *v, pv_out_format format)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    size_t cols_all[C_COUNT] = {C_ID, C_NAME, C_TIME, C_HANDLE, C_VALUE, C_PCT};
    pv_row rows[4] = {0, 1, 2, 3};
    assert_true(pv_write_rows(fp, v, cols_all, C_COUNT, rows, 4, format));
    fclose(fp);
    return text;
}

static void test_writers_escape(void **state)
{
    (void)state;
    pv_table *t = make_tree();
    pv_view *v = pv_table_view(t);
    char *tsv = write_all(v, PV_OUT_TSV);
    assert_string_equal(tsv, "id\tname\ttime\thandle\tvalue\tpct\n"
                             "10\tmain\t0\t0x1000000D\t0x1A\t0\n"
                             "11\totm(a, b);\t1000\t0x1000000E\t0x1A\t12.5\n"
                             "12\ttab\\there\t2000\t0x1000000F\t0x1A\t25\n"
                             "13\tesc\\x1B[2Jx\"q\"\t3000\t0x10000010\t\t37.5\n");
    free(tsv);
    char *csv = write_all(v, PV_OUT_CSV);
    assert_string_equal(csv, "id,name,time,handle,value,pct\n"
                             "10,main,0,0x1000000D,0x1A,0\n"
                             "11,\"otm(a, b);\",1000,0x1000000E,0x1A,12.5\n"
                             "12,tab\\x09here,2000,0x1000000F,0x1A,25\n"
                             "13,\"esc\\x1B[2Jx\"\"q\"\"\",3000,0x10000010,,37.5\n");
    free(csv);
    char *json = write_all(v, PV_OUT_JSON);
    assert_non_null(strstr(json, "{\"id\":13,\"name\":\"esc\\u001B[2Jx\\\"q\\\"\",\"time\":3000,"
                                 "\"handle\":\"0x10000010\",\"value\":null,\"pct\":37.5}"));
    assert_non_null(strstr(json, "\"name\":\"tab\\u0009here\""));
    free(json);
    pv_view_free(v);
}

static void expect_float_text(double f, const char *text)
{
    pv_cell c = {PV_TYPE_FLOAT, true, {.f = f}};
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(&c, &b);
    assert_string_equal(pv_buf_cstr(&b), text);
    assert_true(strtod(pv_buf_cstr(&b), NULL) == f); /* reads back exactly */
    pv_buf_free(&b);
}

static void test_float_text_is_exact(void **state)
{
    (void)state;
    expect_float_text(90.0, "90");
    expect_float_text(12.5, "12.5");
    expect_float_text(-2.5, "-2.5");
    expect_float_text(0.1 + 0.2, "0.30000000000000004");
    expect_float_text(100.0 / 3.0, "33.333333333333336");
    expect_float_text(1e-7, "1e-07");
    expect_float_text(1.5e20, "1.5e+20");
    expect_float_text(3.3000000000000003, "3.3000000000000003"); /* an F64 sample value */
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

static void reserve_past_the_limit(void)
{
    pv_table *t = pv_table_new("routines", "Routines", cols, C_COUNT);
    pv_table_reserve(t, PV_VIEW_ROWS_MAX + 1);
}

/* A table past 2^32 - 1 rows (docs/model.md "Row selections") ends
 * profview as running out of memory does: a message, exit status 2, no
 * abort (it was SIGABRT, a core dump). */
static void test_row_limit_exits_2(void **state)
{
    (void)state;
    char err[512];
    int status = run_in_child(reserve_past_the_limit, err, sizeof err);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 2);
    assert_string_equal(err, "profview: a table of more than 4294967295 rows (routines): more "
                             "than profview can hold\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_cells_and_tree),
        cmocka_unit_test(test_exact_format),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_float_text_is_exact),
        cmocka_unit_test(test_writers_escape),
        cmocka_unit_test(test_row_limit_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
