/* Unit tests for src/model/source.c (docs/source.md): finding the file a
 * profiler named (Windows paths, drives, case, the longest matching tail),
 * and the source view's rows, gutter and first row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "profview/hooks.h"
#include "profview/source.h"
#include "profview/table.h"

static char root[64];

static void put(const char *rel, const char *text)
{
    char path[256], dir[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
        memcpy(dir, path, (size_t)(p - path));
        dir[p - path] = '\0';
        mkdir(dir, 0700);
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/pv-source-XXXXXX");
    assert_non_null(mkdtemp(root));
    put("a/Parser/PARSER.cpp", "one\n\ttwo\r\nthree\n");
    put("b/parser.cpp", "other\n");
    put("c/deep/er/x/util.h", "u\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    pv_source_path_clear();
    return system(cmd);
}

static void expect_found(const char *path, const char *want_rel)
{
    char *got = pv_source_find(path, NULL);
    char want[256];
    snprintf(want, sizeof want, "%s/%s", root, want_rel);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_find(void **state)
{
    (void)state;
    pv_buf why;
    pv_buf_init(&why);
    assert_null(pv_source_find("C:\\src\\parser\\parser.cpp", &why));
    assert_non_null(strstr(pv_buf_cstr(&why), "no source directory given"));
    char dir[128];
    snprintf(dir, sizeof dir, "%s/b", root);
    pv_source_path_add(dir);
    snprintf(dir, sizeof dir, "%s", root);
    pv_source_path_add(dir);
    /* under b/ only the last component matches: found there, first dir */
    expect_found("C:\\src\\parser\\parser.cpp", "b/parser.cpp");
    pv_source_path_clear();
    pv_source_path_add(dir);
    /* under the root: two candidates by name; a/Parser/PARSER.cpp ends
     * with two of the path's components, b/parser.cpp with one */
    expect_found("C:\\src\\parser\\parser.cpp", "a/Parser/PARSER.cpp");
    expect_found("d:/x/A\\parser\\Parser.CPP", "a/Parser/PARSER.cpp");
    expect_found(".\\deep\\ER\\x\\UTIL.H", "c/deep/er/x/util.h");
    pv_buf_clear(&why);
    assert_null(pv_source_find("src\\missing.c", &why));
    assert_non_null(strstr(pv_buf_cstr(&why), "src\\missing.c: not found under"));
    assert_non_null(strstr(pv_buf_cstr(&why), root));
    pv_buf_free(&why);
}

enum { G_SRC, G_LINE, G_HITS, G_NAME, G_COUNT };
static const pv_column gcols[G_COUNT] = {
    {PV_COLUMN_SOURCE, 0},
    {PV_COLUMN_LINE, 0},
    {PV_COLUMN_HITS, 0},
    {PV_COLUMN_ROUTINE, 0},
};

static void test_view(void **state)
{
    (void)state;
    pv_source_path_clear();
    pv_source_path_add(root);
    pv_table *t = pv_table_new("lines", "Lines", gcols, G_COUNT);
    const struct {
        const char *src;
        int64_t line, hits;
        const char *name;
    } rows[] = {
        {"X:\\parser\\parser.cpp", 2, 5, "f"},
        {"x:/PARSER/parser.cpp", 2, 7, "g"}, /* the same file and line: summed */
        {"parser\\parser.cpp", 5, 1, "h"},   /* past the end of the file */
        {"other.cpp", 1, 99, "o"},           /* another file: not in the gutter */
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(rows); i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_cstr(t, r, G_SRC, rows[i].src);
        pv_table_set_int(t, r, G_LINE, rows[i].line);
        pv_table_set_int(t, r, G_HITS, rows[i].hits);
        pv_table_set_cstr(t, r, G_NAME, rows[i].name);
    }
    static const char *const figs[] = {"hits", "routine", "nosuch", NULL};
    pv_view *v = pv_source_of_row(pv_table_view(t), 2, "source", "line", NULL, NULL, figs);
    assert_non_null(v);
    assert_string_equal(v->id, "source");
    assert_int_equal(v->column_count, 4); /* line, text, hits, routine */
    assert_int_equal(pv_view_rows(v), 4); /* three lines of the file, and line 5 */
    pv_cell c;
    pv_view_cell(v, 1, 1, &c);
    assert_true(c.present);
    assert_int_equal(c.v.s.len, 11);
    assert_memory_equal(c.v.s.ptr, "        two", 11); /* tab expanded, CR dropped */
    pv_view_cell(v, 1, 2, &c);
    assert_int_equal(c.v.i, 12);
    pv_view_cell(v, 1, 3, &c);
    assert_memory_equal(c.v.s.ptr, "f", 1); /* the first */
    pv_view_cell(v, 0, 2, &c);
    assert_false(c.present);
    assert_int_equal(c.type, PV_TYPE_INT);
    pv_view_cell(v, 3, 0, &c);
    assert_int_equal(c.v.i, 5);
    pv_view_cell(v, 3, 1, &c);
    assert_false(c.present);
    assert_int_equal(pv_view_first_row(v), 3); /* the row's line, 5 */
    pv_view_free(v);
    pv_view_free(pv_table_view(t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_view),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
