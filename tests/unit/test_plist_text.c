/* Unit tests for src/formats/plist_text.c: PLIST text reports (PLIST
 * without /T) written to a temporary file and loaded through pv_load_file,
 * by detection, as a user's file is (docs/plist.md "Text reports"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profview/load.h"
#include "profview/table.h"

/* ---- helpers */

static pv_file *load(const char *text, pv_load_status *status)
{
    char path[] = "/tmp/pv_test_plist_text_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    pv_load_options o;
    pv_load_options_init(&o);
    pv_file *f = pv_load_file(path, &o, status);
    unlink(path);
    return f;
}

static void dump_diag(const pv_file *f)
{
    for (size_t i = 0; i < f->diag.entry_count; i++)
        fprintf(stderr, "diag: %s\n", f->diag.entries[i].text);
}

/* Loads a report that must load as plist-text with `warnings` warnings. */
static pv_file *load_ok(const char *text, size_t warnings)
{
    pv_load_status st;
    pv_file *f = load(text, &st);
    if (st != PV_LOAD_OK || f->diag.entry_count != warnings)
        dump_diag(f);
    assert_int_equal(st, PV_LOAD_OK);
    assert_string_equal(f->format, "plist-text");
    assert_int_equal(f->diag.entry_count, warnings);
    return f;
}

static pv_view *view(pv_file *f, const char *id)
{
    pv_view *v = pv_set_find_view(f->sets[0], id);
    if (!v)
        fail_msg("no view '%s'", id);
    return v;
}

/* The exact text of a cell ("" when absent); valid until the next call. */
static const char *cell(const pv_view *v, size_t row, const char *col)
{
    static pv_buf b;
    size_t c = pv_view_column(v, col);
    if (c == PV_NO_ROW)
        fail_msg("view '%s' has no column '%s'", v->id, col);
    assert_true(row < pv_view_rows(v));
    pv_cell x;
    pv_view_cell(v, row, c, &x);
    pv_buf_clear(&b);
    pv_cell_format_exact(&x, &b);
    return pv_buf_cstr(&b);
}

static bool diag_has(const pv_file *f, const char *part)
{
    for (size_t i = 0; i < f->diag.entry_count; i++)
        if (strstr(f->diag.entries[i].text, part))
            return true;
    return false;
}

#define HEAD_COUNT                                                                                 \
    "Profile: Function counting, sorted by counts\n"                                               \
    "Date: today\n\nProgram Statistics\n------------------\n    Total functions: 3\n\n"            \
    "Module Statistics for m.exe\n---------------------------\n    Functions in module: 3\n\n"     \
    "     Hit\n    Count     %  Function\n-------------------------\n"

/* ---- tests */

/* The module is the last parenthesised group when it looks like a file. */
static void test_module_split(void **state)
{
    (void)state;
    pv_file *f = load_ok(HEAD_COUNT "        9  10.0  f(void)\n"
                                    "        8  10.0  g(void) (a.obj)\n"
                                    "        7  10.0  LoadCursorA@8(user32.def)\n"
                                    "        6  10.0  operator()(int) (C:\\a b\\x.obj)\n"
                                    "        5  10.0  parse, then check (v2)\n"
                                    "        4  10.0  (a.obj)\n"
                                    "        3  10.0  h (ab.toolong)\n",
                         0);
    pv_view *r = view(f, "routines");
    assert_int_equal(pv_view_rows(r), 7);
    static const char *const want[7][2] = {
        {"f(void)", ""},
        {"g(void)", "a.obj"},
        {"LoadCursorA@8", "user32.def"},
        {"operator()(int)", "C:\\a b\\x.obj"},
        {"parse, then check (v2)", ""},
        {"(a.obj)", ""},
        {"h (ab.toolong)", ""},
    };
    for (size_t i = 0; i < 7; i++) {
        assert_string_equal(cell(r, i, "routine"), want[i][0]);
        assert_string_equal(cell(r, i, "module"), want[i][1]);
        assert_string_equal(cell(r, i, "exe"), "m.exe");
        assert_string_equal(cell(r, i, "time"), "");
    }
    assert_string_equal(cell(r, 0, "hits"), "9");
    pv_file_free(f);
}

/* A wrapped name continues from the name's column (leading blanks of the
 * piece kept); a blank line ends a row; a page break repeats the titles. */
static void test_wrapped_names_and_pages(void **state)
{
    (void)state;
    pv_file *f = load_ok(HEAD_COUNT "        9  10.0  std::map<int,\n"
                                    "                 int>::find(int\n"
                                    "                  const &) (a.obj)\n"
                                    "        8  10.0  short (b.obj)\n"
                                    "\f\n"
                                    "Profile: Function counting, sorted by counts\n"
                                    "     Hit\n    Count     %  Function\n"
                                    "-------------------------\n"
                                    "        7  10.0  last (c.obj)\t\n",
                         0);
    pv_view *r = view(f, "routines");
    assert_int_equal(pv_view_rows(r), 3);
    assert_string_equal(cell(r, 0, "routine"), "std::map<int,int>::find(int const &)");
    assert_string_equal(cell(r, 0, "module"), "a.obj");
    assert_string_equal(cell(r, 1, "routine"), "short");
    assert_string_equal(cell(r, 2, "routine"), "last");
    assert_string_equal(cell(r, 2, "file_line"), "24");
    pv_file_free(f);

    /* After a blank line, an indented line is not a continuation. */
    f = load_ok(HEAD_COUNT "        9  10.0  a (a.obj)\n\n                  stray\n", 1);
    assert_true(diag_has(f, "line 17: not a row of a Function counting table"));
    assert_string_equal(cell(view(f, "routines"), 0, "routine"), "a");
    pv_file_free(f);
}

/* Coverage: `*` ran, `.` did not; in a line report the marker may come
 * first, and a `*` in the source text of a line without a count is text. */
static void test_coverage_markers(void **state)
{
    (void)state;
    pv_file *f = load_ok("Profile: Function coverage, sorted by function name\r\n"
                         "Program Statistics\r\n    Function coverage: 50.0%\r\n"
                         "Covered  Function\r\n-----------------\r\n"
                         "   *     ran (a.obj)\r\n   .     idle (a.obj)\r\n",
                         0);
    pv_view *r = view(f, "routines");
    assert_int_equal(pv_view_rows(r), 2);
    assert_string_equal(cell(r, 0, "hits"), "1");
    assert_string_equal(cell(r, 0, "covered"), "1");
    assert_string_equal(cell(r, 1, "hits"), "0");
    assert_string_equal(cell(r, 1, "covered"), "0");
    assert_string_equal(cell(r, 0, "exe"), "");
    pv_file_free(f);

    f = load_ok("\xEF\xBB\xBFProfile: Line coverage, sorted by line\n"
                "Program Statistics\n    Total lines: 3\n"
                "Module Statistics for t.exe\n    Lines in module: 3\n"
                "Source file: t.c\n"
                "    Line  Covered  Source\n--------------------------\n"
                "      1:     *     int a;\n"
                "      2:            * not a marker\n"
                "  .   3:  x = 1;\n"
                "      4:     .     \tb();\n",
                0);
    pv_view *l = view(f, "lines");
    assert_int_equal(pv_view_rows(l), 3);
    assert_string_equal(cell(l, 0, "line"), "1");
    assert_string_equal(cell(l, 0, "hits"), "1");
    assert_string_equal(cell(l, 0, "text"), "int a;");
    assert_string_equal(cell(l, 1, "line"), "3");
    assert_string_equal(cell(l, 1, "hits"), "0");
    assert_string_equal(cell(l, 1, "text"), "x = 1;");
    assert_string_equal(cell(l, 2, "text"), "\tb();");
    assert_string_equal(cell(l, 2, "source"), "t.c");
    assert_string_equal(cell(l, 2, "exe"), "t.exe");
    pv_file_free(f);
}

/* A second, different Profile line is a warning; detection looks at the
 * first five lines that are not blank. */
static void test_header_and_detection(void **state)
{
    (void)state;
    pv_file *f = load_ok(HEAD_COUNT "        1  10.0  a (a.obj)\n"
                                    "Profile: Function timing, sorted by time\n",
                         1);
    assert_true(diag_has(f, "line 16: a second Profile line (the first is on line 1)"));
    pv_file_free(f);

    pv_load_status st;
    f = load("1\n2\n3\n4\n5\nProfile: Function counting\n", &st);
    assert_int_not_equal(st, PV_LOAD_OK);
    assert_true(f->format == NULL || strcmp(f->format, "plist-text") != 0);
    pv_file_free(f);

    f = load_ok("logo\n\nProfile: Function counting\n", 2);
    assert_true(diag_has(f, "line 3: 1 line before the Profile line is not part"));
    assert_true(diag_has(f, "the report has no table rows"));
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_module_split),
        cmocka_unit_test(test_wrapped_names_and_pages),
        cmocka_unit_test(test_coverage_markers),
        cmocka_unit_test(test_header_and_detection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
