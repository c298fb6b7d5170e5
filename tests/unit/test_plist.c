/* Unit tests for src/formats/plist.c: PLIST /T text written to a temporary
 * file and loaded through pv_load_file, as a user's file is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "profview/load.h"
#include "profview/table.h"

/* ---- helpers */

static pv_file *load_text_as(const char *text, size_t len, const char *format,
                             pv_load_status *status)
{
    char path[] = "/tmp/pv_test_plist_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    pv_load_options o;
    pv_load_options_init(&o);
    o.format = format;
    pv_file *f = pv_load_file(path, &o, status);
    unlink(path);
    return f;
}

/* Loads text (by detection) and expects it to load. */
static pv_file *load_ok(const char *text)
{
    pv_load_status st;
    pv_file *f = load_text_as(text, strlen(text), NULL, &st);
    if (st != PV_LOAD_OK)
        for (size_t i = 0; i < f->diag.entry_count; i++)
            fprintf(stderr, "diag: %s\n", f->diag.entries[i].text);
    assert_int_equal(st, PV_LOAD_OK);
    assert_string_equal(f->format, "plist");
    assert_int_equal(f->set_count, 1);
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

static bool cell_present(const pv_view *v, size_t row, const char *col)
{
    pv_cell x;
    pv_view_cell(v, row, pv_view_column(v, col), &x);
    return x.present;
}

/* A FLOAT cell's value; NAN when absent. */
static double cell_float(const pv_view *v, size_t row, const char *col)
{
    pv_cell x;
    pv_view_cell(v, row, pv_view_column(v, col), &x);
    assert_int_equal(x.type, PV_TYPE_FLOAT);
    return x.present ? x.v.f : NAN;
}

/* The summary value of `key`, or NULL. */
static const char *summary(pv_file *f, const char *key)
{
    pv_view *v = view(f, "summary");
    for (size_t r = 0; r < pv_view_rows(v); r++) {
        pv_buf k;
        pv_buf_init(&k);
        pv_cell x;
        pv_view_cell(v, r, pv_view_column(v, "key"), &x);
        pv_buf_append(&k, x.v.s.ptr, x.v.s.len);
        bool match = strcmp(pv_buf_cstr(&k), key) == 0;
        pv_buf_free(&k);
        if (match)
            return cell(v, r, "value");
    }
    return NULL;
}

/* True when some diagnostic contains every one of the (NULL-ended) parts. */
static bool diag_has(const pv_file *f, ...)
{
    for (size_t i = 0; i < f->diag.entry_count; i++) {
        va_list ap;
        va_start(ap, f);
        bool all = true;
        for (const char *part = va_arg(ap, const char *); part; part = va_arg(ap, const char *))
            all = all && strstr(f->diag.entries[i].text, part) != NULL;
        va_end(ap);
        if (all)
            return true;
    }
    return false;
}

/* The row whose `routine` column is `name` (first one), or PV_NO_ROW. */
static size_t row_named(const pv_view *v, const char *col, const char *name)
{
    for (size_t r = 0; r < pv_view_rows(v); r++)
        if (strcmp(cell(v, r, col), name) == 0)
            return r;
    return PV_NO_ROW;
}

/* The call-trace row paths "a > b > c", one per row, joined with '\n'. */
static char *trace_paths(const pv_view *v)
{
    size_t n = pv_view_rows(v);
    char **path = calloc(n ? n : 1, sizeof *path);
    pv_buf all;
    pv_buf_init(&all);
    for (size_t r = 0; r < n; r++) {
        size_t p = pv_view_parent(v, r);
        assert_true(p == PV_NO_ROW || p < r);
        const char *name = cell(v, r, "routine");
        path[r] = p == PV_NO_ROW ? strdup(name) : NULL;
        if (!path[r]) {
            size_t len = strlen(path[p]) + strlen(name) + 4;
            path[r] = malloc(len);
            snprintf(path[r], len, "%s > %s", path[p], name);
        }
        /* cell() reuses one buffer: one call per printf. */
        pv_buf_printf(&all, "%s[%s,", path[r], cell(v, r, "hits"));
        pv_buf_printf(&all, "%s,", cell(v, r, "time"));
        pv_buf_printf(&all, "%s]\n", cell(v, r, "time_with_children"));
    }
    for (size_t r = 0; r < n; r++)
        free(path[r]);
    free(path);
    char *s = strdup(pv_buf_cstr(&all));
    pv_buf_free(&all);
    return s;
}

/* ---- detection */

static void test_probe(void **state)
{
    (void)state;
    const pv_loader *l = pv_loader_find("plist");
    assert_non_null(l);
#define PROBE(s) l->probe((const unsigned char *)(s), sizeof(s) - 1, sizeof(s) - 1, "x")
    assert_true(PROBE("0\t1\tbanner\r\n1\t522\tx\r\n") >= 60);
    assert_true(PROBE("\xEF\xBB\xBF\r\n\r\n  6\ta\tb\t1\t2\t3\tf\n7\ta\tb\t1\t2\n") >= 60);
    assert_true(PROBE("10\tmain\n") > 0);
    assert_int_equal(PROBE("11\tnot a tag\n"), 0);
    assert_int_equal(PROBE("6 no tab\n"), 0);
    assert_int_equal(PROBE("* INFO %NAME%\n"), 0);
    assert_int_equal(PROBE("SQLite format 3"), 0);
    assert_int_equal(PROBE(""), 0);
#undef PROBE
}

static void test_not_plist(void **state)
{
    (void)state;
    pv_load_status st;
    const char *text = "hello\tworld\nnothing here\n";
    pv_file *f = load_text_as(text, strlen(text), "plist", &st);
    assert_int_equal(st, PV_LOAD_ERROR);
    assert_true(diag_has(f, "no PLIST record", NULL));
    pv_file_free(f);
}

/* ---- global records */

static void test_global_records(void **state)
{
    (void)state;
    pv_file *f = load_ok("\xEF\xBB\xBF"
                         "0\t3\tProfiler, version 6 (test)\r\n"
                         "1\t522\tFunction timing\r\n"
                         "2\t100.5\t0.0000005\t7\r\n"
                         "3\t40\t8\t6\r\n"
                         "4\t01/02/2026 10:00:00\tPROFILE /I a.pbi a.exe\r\n"
                         "5\tsomething\t12\r\n"
                         "  \r\n"
                         "6\ta.exe\ta.obj\t40\t100\t100\tmain\r\n");
    assert_int_equal(f->diag.warnings, 0);
    assert_string_equal(summary(f, "version"), "3");
    assert_string_equal(summary(f, "banner"), "Profiler, version 6 (test)");
    assert_string_equal(summary(f, "method"), "522");
    assert_string_equal(summary(f, "method description"), "Function timing");
    assert_string_equal(summary(f, "profile"), "function timing");
    assert_string_equal(summary(f, "profile kind"), "function");
    assert_string_equal(summary(f, "total time"), "100500000");
    /* 0.0000005 ms = 0.5 ns: the 7th decimal rounds half up. */
    assert_string_equal(summary(f, "outside time"), "1");
    assert_string_equal(summary(f, "time in functions"), "100499999");
    assert_string_equal(summary(f, "call depth"), "7");
    assert_string_equal(summary(f, "total hits"), "40");
    assert_string_equal(summary(f, "units"), "8");
    assert_string_equal(summary(f, "units hit"), "6");
    assert_string_equal(summary(f, "units not hit"), "2");
    assert_string_equal(summary(f, "coverage percent"), "75.00");
    assert_string_equal(summary(f, "date"), "01/02/2026 10:00:00");
    assert_string_equal(summary(f, "command line"), "PROFILE /I a.pbi a.exe");
    /* Record 5's layout is unknown: kept raw, tabs and all. */
    assert_string_equal(summary(f, "record 5"), "something\t12");
    pv_file_free(f);
}

static void test_method_codes(void **state)
{
    (void)state;
    static const struct {
        const char *method, *profile, *kind;
        bool routines, lines;
    } cases[] = {
        {"321", "line count", "line", false, true},
        {"324", "line coverage", "line", false, true},
        {"521", "function count", "function", true, false},
        {"522", "function timing", "function", true, false},
        {"524", "function coverage", "function", true, false},
        {"777", "unknown method", "function", true, false},
        {"123", "unknown method", "line", false, true},
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(cases); i++) {
        char text[128];
        snprintf(text, sizeof text, "0\t1\tx\n1\t%s\tdescription\n", cases[i].method);
        pv_file *f = load_ok(text);
        assert_string_equal(summary(f, "method"), cases[i].method);
        assert_string_equal(summary(f, "profile"), cases[i].profile);
        assert_string_equal(summary(f, "profile kind"), cases[i].kind);
        assert_int_equal(pv_set_find_view(f->sets[0], "routines") != NULL, cases[i].routines);
        assert_int_equal(pv_set_find_view(f->sets[0], "call-trace") != NULL, cases[i].routines);
        assert_int_equal(pv_set_find_view(f->sets[0], "lines") != NULL, cases[i].lines);
        /* An unknown method is said in a note of the result set. */
        assert_int_equal(f->sets[0]->note_count > 0 && strstr(f->sets[0]->notes[0], "unknown"),
                         strcmp(cases[i].profile, "unknown method") == 0);
        pv_file_free(f);
    }
}

/* ---- function records */

static void test_routines(void **state)
{
    (void)state;
    pv_file *f =
        load_ok("1\t522\tFunction timing\n"
                "2\t200\t10\t3\n"
                "3\t50\t4\t3\n"
                "6\tC:\\Program Files\\App\\app.exe\tC:\\src\\main.obj\t1\t50\t200\tmain\n"
                "6\tapp.exe\tview.obj\t4\t10.123456\t20.5\tCView::Draw(CDC *, int, const RECT &)\n"
                "6\tapp.exe\tlib.obj\t45\t.25\t0.25\t?foo@@YAXH@Z\n"
                "6\tapp.exe\tsolve.obj\t0\t0\t0\t_SOLVE_SYSTEM@8\n");
    assert_int_equal(f->diag.warnings, 0);
    pv_view *v = view(f, "routines");
    assert_int_equal(pv_view_rows(v), 4);
    assert_string_equal(cell(v, 0, "id"), "1");
    assert_string_equal(cell(v, 0, "exe"), "C:\\Program Files\\App\\app.exe");
    assert_string_equal(cell(v, 0, "source"), "C:\\src\\main.obj");
    assert_string_equal(cell(v, 0, "module"), "C:\\src\\main.obj");
    assert_string_equal(cell(v, 1, "routine"), "CView::Draw(CDC *, int, const RECT &)");
    assert_string_equal(cell(v, 1, "time"), "10123456");
    assert_string_equal(cell(v, 1, "time_with_children"), "20500000");
    assert_string_equal(cell(v, 2, "routine"), "?foo@@YAXH@Z");
    assert_string_equal(cell(v, 2, "time"), "250000");
    assert_string_equal(cell(v, 3, "routine"), "_SOLVE_SYSTEM@8");
    /* Derived: percent of the total time of record 2 and of total hits of 3. */
    assert_string_equal(cell(v, 0, "percent_time"), "25");
    assert_string_equal(cell(v, 2, "percent_hits"), "90");
    assert_string_equal(cell(v, 1, "avg_time"), "2530864"); /* 10123456 / 4 */
    assert_string_equal(cell(v, 1, "avg_time_with_children"), "5125000");
    assert_false(cell_present(v, 3, "avg_time")); /* never hit: no average */
    assert_string_equal(cell(v, 0, "covered"), "1");
    assert_string_equal(cell(v, 3, "covered"), "0");
    assert_string_equal(summary(f, "routines never executed"), "1");
    assert_string_equal(summary(f, "routine hits"), "50");
    assert_string_equal(summary(f, "routine time"), "60373456");
    /* Name, hits and time columns are marked for the TUI and the filter. */
    assert_true(v->columns[pv_view_column(v, "routine")].flags & PV_COL_NAME);
    assert_true(v->columns[pv_view_column(v, "hits")].flags & PV_COL_DESC);
    assert_int_equal(v->columns[pv_view_column(v, "time")].type, PV_TYPE_TIME);
    pv_file_free(f);
}

static void test_name_with_tabs(void **state)
{
    (void)state;
    pv_file *f = load_ok("1\t521\tFunction count\n"
                         "6\ta.exe\ta.obj\t3\t0\t0\tname\twith\ttabs\n"
                         "6\ta.exe\ta.obj\t2\t0\t0\tplain\n");
    pv_view *v = view(f, "routines");
    assert_int_equal(pv_view_rows(v), 2);
    assert_string_equal(cell(v, 0, "routine"), "name\twith\ttabs");
    assert_string_equal(cell(v, 0, "hits"), "3");
    assert_string_equal(cell(v, 1, "routine"), "plain");
    assert_int_equal(f->diag.warnings, 1);
    assert_true(diag_has(f, ": line 2: ", "9 fields, expected 7", "function name", NULL));
    pv_file_free(f);
}

/* ---- line records */

static void test_lines_coverage(void **state)
{
    (void)state;
    pv_file *f = load_ok("0\t3\tbanner\n"
                         "1\t324\tLine coverage\n"
                         "3\t2\t3\t2\n"
                         "7\ta.exe\tC:\\src\\main.c\t10\t1\n"
                         "7\ta.exe\tC:\\src\\main.c\t11\t0\n"
                         "7\ta.exe\tutil.f90\t5\t1\n");
    assert_int_equal(f->diag.warnings, 0);
    assert_null(pv_set_find_view(f->sets[0], "routines"));
    pv_view *v = view(f, "lines");
    assert_int_equal(pv_view_rows(v), 3);
    assert_string_equal(cell(v, 1, "id"), "2");
    assert_string_equal(cell(v, 1, "exe"), "a.exe");
    assert_string_equal(cell(v, 1, "source"), "C:\\src\\main.c");
    assert_string_equal(cell(v, 1, "line"), "11");
    assert_string_equal(cell(v, 1, "hits"), "0");
    assert_string_equal(cell(v, 1, "covered"), "0");
    assert_string_equal(cell(v, 2, "covered"), "1");
    assert_string_equal(cell(v, 2, "percent_hits"), "50");
    assert_string_equal(summary(f, "lines never executed"), "1");
    assert_string_equal(summary(f, "line coverage percent"), "66.66");
    assert_string_equal(summary(f, "coverage percent"), "66.66");
    bool noted = false;
    for (size_t i = 0; i < f->sets[0]->note_count; i++)
        noted |= strstr(f->sets[0]->notes[i], "coverage profile") != NULL;
    assert_true(noted);
    pv_file_free(f);
}

/* ---- attribution stacks */

static const char stacks_one_per_record[] = "1\t522\tFunction timing\n"
                                            "6\ta.exe\ta.obj\t1\t5\t100\tmain\n"
                                            "8\t1\n"
                                            "9\t1\t1\t5\t100\n"
                                            "10\tmain\n"
                                            "6\ta.exe\ta.obj\t7\t30\t60\tparse(a, b)\n"
                                            "8\t2\n"
                                            "9\t2\t3\t10\t20\n"
                                            "10\tparse(a, b)\n"
                                            "10\tmain\n"
                                            "9\t3\t4\t20\t40\n"
                                            "10\tparse(a, b)\n"
                                            "10\tload file\n"
                                            "10\tmain\n"
                                            "6\ta.exe\ta.obj\t2\t35\t35\tload file\n"
                                            "8\t1\n"
                                            "9\t2\t2\t35\t75\n"
                                            "10\tload file\n"
                                            "10\tmain\n";

/* The same stacks, with several names on one 10 record. */
static const char stacks_several_per_record[] = "1\t522\tFunction timing\n"
                                                "6\ta.exe\ta.obj\t1\t5\t100\tmain\n"
                                                "8\t1\n"
                                                "9\t1\t1\t5\t100\n"
                                                "10\tmain\n"
                                                "6\ta.exe\ta.obj\t7\t30\t60\tparse(a, b)\n"
                                                "8\t2\n"
                                                "9\t2\t3\t10\t20\n"
                                                "10\tparse(a, b)\tmain\n"
                                                "9\t3\t4\t20\t40\n"
                                                "10\tparse(a, b)\n"
                                                "10\tload file\tmain\n"
                                                "6\ta.exe\ta.obj\t2\t35\t35\tload file\n"
                                                "8\t1\n"
                                                "9\t2\t2\t35\t75\n"
                                                "10\tload file\tmain\n";

static const char expected_trace[] = "main[1,5000000,100000000]\n"
                                     "main > parse(a, b)[3,10000000,20000000]\n"
                                     "main > load file[2,35000000,75000000]\n"
                                     "main > load file > parse(a, b)[4,20000000,40000000]\n";

static void test_attribution_names_per_record(void **state)
{
    (void)state;
    const char *texts[] = {stacks_one_per_record, stacks_several_per_record};
    for (size_t i = 0; i < 2; i++) {
        pv_file *f = load_ok(texts[i]);
        assert_int_equal(f->diag.warnings, 0);
        pv_view *ct = view(f, "call-trace");
        assert_true(pv_view_is_tree(ct));
        char *paths = trace_paths(ct);
        assert_string_equal(paths, expected_trace);
        free(paths);
        /* Contract columns: parent is the parent's id, depth, call_no, thread empty. */
        char *parent_id = strdup(cell(ct, 2, "id"));
        assert_string_equal(cell(ct, 3, "parent"), parent_id);
        assert_string_equal(parent_id, "3");
        free(parent_id);
        assert_string_equal(cell(ct, 3, "depth"), "2");
        assert_string_equal(cell(ct, 2, "call_no"), "2");
        assert_string_equal(cell(ct, 0, "parent"), "");
        assert_false(cell_present(ct, 0, "thread"));
        /* Percentages of the time with children: of the total (no record 2:
         * the routines' times, 5 + 30 + 35 ms) and of the parent row. */
        assert_float_equal(cell_float(ct, 0, "percent_time"), 100.0 * 100 / 70, 1e-9);
        assert_float_equal(cell_float(ct, 3, "percent_time"), 40.0 * 100 / 70, 1e-9);
        assert_true(isnan(cell_float(ct, 0, "percent_parent")));
        assert_float_equal(cell_float(ct, 2, "percent_parent"), 75.0, 1e-9);
        assert_float_equal(cell_float(ct, 3, "percent_parent"), 40.0 * 100 / 75, 1e-9);
        pv_view *st = view(f, "stacks");
        assert_int_equal(pv_view_rows(st), 4);
        assert_string_equal(cell(st, 2, "path"), "parse(a, b) <- load file <- main");
        assert_string_equal(cell(st, 2, "stack_size"), "3");
        assert_string_equal(cell(st, 2, "routine"), "parse(a, b)");
        assert_string_equal(summary(f, "attribution stacks"), "4");
        assert_string_equal(summary(f, "unattached stacks"), "0");
        pv_file_free(f);
    }
}

static void test_callers_callees(void **state)
{
    (void)state;
    pv_file *f = load_ok(stacks_one_per_record);
    pv_view *v = view(f, "routines");
    size_t parse = row_named(v, "routine", "parse(a, b)");
    size_t main_row = row_named(v, "routine", "main");
    assert_true(parse != PV_NO_ROW && main_row != PV_NO_ROW);

    pv_view *callers = pv_view_open_detail(v, pv_view_detail_index(v, "callers"), parse);
    assert_non_null(callers);
    assert_int_equal(pv_view_rows(callers), 2);
    assert_string_equal(cell(callers, 0, "routine"), "main");
    assert_string_equal(cell(callers, 0, "hits"), "3");
    assert_string_equal(cell(callers, 0, "time"), "20000000");
    assert_string_equal(cell(callers, 1, "routine"), "load file");
    assert_string_equal(cell(callers, 1, "hits"), "4");
    assert_string_equal(cell(callers, 1, "time"), "40000000");
    pv_view_free(callers);

    pv_view *callees = pv_view_open_detail(v, pv_view_detail_index(v, "callees"), main_row);
    assert_int_equal(pv_view_rows(callees), 2);
    assert_string_equal(cell(callees, 0, "routine"), "parse(a, b)");
    assert_string_equal(cell(callees, 1, "routine"), "load file");
    assert_string_equal(cell(callees, 1, "hits"), "2");
    assert_string_equal(cell(callees, 1, "time"), "75000000");
    pv_view_free(callees);

    /* main has no caller. */
    callers = pv_view_open_detail(v, pv_view_detail_index(v, "callers"), main_row);
    assert_int_equal(pv_view_rows(callers), 0);
    pv_view_free(callers);
    pv_file_free(f);
}

/* A stack that lists only the callers: the function is its innermost frame;
 * a recursive stack keeps its repeated frame. */
static void test_stack_without_self_and_recursion(void **state)
{
    (void)state;
    pv_file *f = load_ok("6\ta.exe\ta.obj\t3\t1\t2\tleaf\n"
                         "8\t1\n"
                         "9\t2\t3\t1\t2\n"
                         "10\tmid\n"
                         "10\tmain\n"
                         "6\ta.exe\ta.obj\t5\t4\t9\tfact(int)\n"
                         "8\t1\n"
                         "9\t3\t5\t4\t9\n"
                         "10\tfact(int)\tfact(int)\tmain\n");
    char *paths = trace_paths(view(f, "call-trace"));
    assert_string_equal(paths, "main[,,]\n"
                               "main > mid[,,]\n"
                               "main > mid > leaf[3,1000000,2000000]\n"
                               "main > fact(int)[,,]\n"
                               "main > fact(int) > fact(int)[5,4000000,9000000]\n");
    free(paths);
    pv_view *v = view(f, "routines");
    pv_view *callers = pv_view_open_detail(v, 0, row_named(v, "routine", "fact(int)"));
    assert_int_equal(pv_view_rows(callers), 1);
    assert_string_equal(cell(callers, 0, "routine"), "fact(int)");
    pv_view_free(callers);
    pv_file_free(f);
}

static void test_stray_attribution(void **state)
{
    (void)state;
    pv_file *f = load_ok("0\t3\tbanner\n"
                         "8\t1\n"
                         "9\t2\t4\t1.5\t3\n"
                         "10\tlost(void)\tmain\n"
                         "8\t0\n"
                         "10\tearly\n"
                         "6\ta.exe\ta.obj\t1\t1\t1\tmain\n");
    /* One warning per stray run: the 8 (its 9 and 10 belong to it), the next
     * 8, and the 10 that has no 9 before it. */
    assert_true(diag_has(f, ": line 2: ", "before any function record", NULL));
    assert_true(diag_has(f, ": line 5: ", "before any function record", NULL));
    assert_true(diag_has(f, ": line 6: ", "before any function record", NULL));
    assert_int_equal(f->diag.warnings, 3);
    pv_view *st = view(f, "stacks");
    assert_int_equal(pv_view_rows(st), 2);
    assert_string_equal(cell(st, 0, "attached"), "0");
    assert_string_equal(cell(st, 0, "routine"), "lost(void)");
    assert_string_equal(cell(st, 0, "hits"), "4");
    assert_string_equal(cell(st, 0, "time"), "1500000");
    assert_string_equal(cell(st, 1, "attached"), "0");
    assert_false(cell_present(st, 1, "hits"));
    assert_string_equal(summary(f, "unattached stacks"), "2");
    char *paths = trace_paths(view(f, "call-trace"));
    assert_string_equal(paths, "main[,,]\n"
                               "main > lost(void)[4,1500000,3000000]\n"
                               "early[,,]\n");
    free(paths);
    pv_file_free(f);
}

static void test_stack_count_mismatches(void **state)
{
    (void)state;
    pv_file *f = load_ok("6\ta.exe\ta.obj\t1\t1\t1\tf\n"
                         "8\t3\n"
                         "9\t3\t1\t1\t1\n"
                         "10\tf\tmain\n"
                         "9\t1\t1\t1\t1\n"
                         "10\tf\n"
                         "10\textra\n"
                         "6\ta.exe\ta.obj\t1\t1\t1\tg\n"
                         "10\tg\n");
    assert_true(diag_has(f, ": line 2: ", "announces 3 stacks but 2 follow", NULL));
    assert_true(diag_has(f, ": line 3: ", "stack size is 3 but 2 names", NULL));
    assert_true(diag_has(f, ": line 5: ", "stack size is 1 but 2 names", NULL));
    assert_true(diag_has(f, ": line 9: ", "10 record without a 9 record", NULL));
    assert_int_equal(f->diag.warnings, 4);
    assert_int_equal(pv_view_rows(view(f, "stacks")), 3);
    pv_file_free(f);
}

/* ---- bad input */

static void test_unknown_tags(void **state)
{
    (void)state;
    pv_file *f = load_ok("0\t3\tbanner\n"
                         "11\tfuture\trecord\n"
                         "1\t321\tLine count\n"
                         "garbage line\n"
                         "7\ta.exe\ta.c\t1\t2\n");
    assert_true(diag_has(f, ": line 2: ", "unknown record tag '11'", NULL));
    assert_true(diag_has(f, ": line 4: ", "not a record tag", "'garbage line'", NULL));
    pv_view *v = view(f, "records");
    assert_int_equal(pv_view_rows(v), 2);
    assert_string_equal(cell(v, 0, "file_line"), "2");
    assert_string_equal(cell(v, 0, "tag"), "11");
    assert_string_equal(cell(v, 0, "text"), "future\trecord");
    assert_string_equal(cell(v, 1, "tag"), "garbage line");
    assert_string_equal(cell(v, 1, "text"), "");
    assert_string_equal(summary(f, "unknown records"), "2");
    assert_int_equal(pv_view_rows(view(f, "lines")), 1);
    pv_file_free(f);
}

static void test_missing_and_extra_fields(void **state)
{
    (void)state;
    pv_file *f = load_ok("1\t321\tLine count\n"
                         "7\ta.exe\ta.c\n"
                         "7\ta.exe\ta.c\t3\t4\textra\tmore\n"
                         "2\t5\n"
                         "3\t1\t2\t3\t4\n");
    assert_true(diag_has(f, ": line 2: ", "3 fields, expected 5", "left empty", NULL));
    assert_true(diag_has(f, ": line 3: ", "7 fields, expected 5", "ignored", NULL));
    assert_true(diag_has(f, ": line 4: ", "2 fields, expected 4", NULL));
    assert_true(diag_has(f, ": line 5: ", "5 fields, expected 4", NULL));
    pv_view *v = view(f, "lines");
    assert_int_equal(pv_view_rows(v), 2);
    assert_string_equal(cell(v, 0, "source"), "a.c");
    assert_false(cell_present(v, 0, "line"));
    assert_false(cell_present(v, 0, "hits"));
    assert_false(cell_present(v, 0, "covered"));
    assert_string_equal(cell(v, 1, "line"), "3");
    assert_string_equal(cell(v, 1, "hits"), "4");
    assert_string_equal(summary(f, "total time"), "5000000");
    assert_null(summary(f, "outside time"));
    pv_file_free(f);
}

/* Free text with tabs in 0/1/4 records, and a global record given twice. */
static void test_global_text_and_repeats(void **state)
{
    (void)state;
    pv_file *f = load_ok("0\t3\tbanner\twith tab\n"
                         "4\tdate\tPROFILE\t/I\ta.pbi\n"
                         "2\t1\t0\t1\n"
                         "2\t2\t0\t1\n");
    assert_string_equal(summary(f, "banner"), "banner\twith tab");
    assert_string_equal(summary(f, "command line"), "PROFILE\t/I\ta.pbi");
    assert_true(diag_has(f, ": line 1: ", "taken as one banner", NULL));
    assert_true(diag_has(f, ": line 2: ", "taken as one command line", NULL));
    assert_true(diag_has(f, ": line 4: ", "a second 2 record (the first is on line 3)", NULL));
    assert_string_equal(summary(f, "total time"), "2000000");
    assert_int_equal(f->diag.warnings, 3);
    pv_file_free(f);
}

static void test_bad_numbers(void **state)
{
    (void)state;
    pv_file *f = load_ok("1\t52x\tFunction timing\n"
                         "6\ta.exe\ta.obj\tabc\t1.2.3\t-5\tbad(int)\n"
                         "6\ta.exe\ta.obj\t99999999999999999999\t99999999999999\t1e3\thuge\n"
                         "6\ta.exe\ta.obj\t 4 \t 2.5 \t3\tok\n"
                         "9\tx\t1\t1\t1\n"
                         "10\tok\n");
    assert_true(diag_has(f, ": line 1: ", "field 2 (method)", "'52x'", NULL));
    assert_true(diag_has(f, ": line 2: ", "field 4 (count)", "'abc'", "left empty", NULL));
    assert_true(diag_has(f, ": line 2: ", "field 5 (time)", "'1.2.3'", NULL));
    assert_true(diag_has(f, ": line 2: ", "field 6 (child)", "'-5'", NULL));
    assert_true(diag_has(f, ": line 3: ", "field 4 (count)", NULL));
    assert_true(diag_has(f, ": line 3: ", "field 5 (time)", NULL));
    assert_true(diag_has(f, ": line 3: ", "field 6 (child)", "'1e3'", NULL));
    assert_true(diag_has(f, ": line 5: ", "field 2 (stack size)", NULL));
    pv_view *v = view(f, "routines");
    assert_int_equal(pv_view_rows(v), 3);
    assert_string_equal(cell(v, 0, "routine"), "bad(int)");
    assert_false(cell_present(v, 0, "hits"));
    assert_false(cell_present(v, 0, "time"));
    assert_false(cell_present(v, 0, "time_with_children"));
    assert_false(cell_present(v, 0, "covered"));
    assert_string_equal(cell(v, 2, "hits"), "4"); /* blanks around numbers are fine */
    assert_string_equal(cell(v, 2, "time"), "2500000");
    /* Sums of absurd (but valid) values saturate instead of overflowing. */
    pv_file *g = load_ok("6\ta\tb\t9000000000000000000\t9000000000000\t0\tx\n"
                         "6\ta\tb\t9000000000000000000\t9000000000000\t0\ty\n");
    assert_string_equal(summary(g, "routine hits"), "9223372036854775807");
    assert_string_equal(summary(g, "routine time"), "9223372036854775807");
    pv_file_free(g);
    /* The largest time that fits, and the next one. */
    g = load_ok("2\t9223372036854.775807\t9223372036854.775808\t0\n");
    assert_string_equal(summary(g, "total time"), "9223372036854775807");
    assert_null(summary(g, "outside time"));
    assert_true(diag_has(g, "field 3 (outside time)", NULL));
    pv_file_free(g);
    /* The stack without a size still takes its names, unchecked. */
    assert_string_equal(cell(view(f, "stacks"), 0, "path"), "ok");
    pv_file_free(f);
}

static void test_crlf_bom_blank_lines(void **state)
{
    (void)state;
    pv_file *f = load_ok("\xEF\xBB\xBF\r\n\r\n1\t521\tFunction count \r\n"
                         "6\ta.exe\ta.obj\t2\t0\t0\tf(a, b)  \r\n\r\n"
                         "6\ta.exe\ta.obj\t0\t0\t0\tg\r\n");
    assert_int_equal(f->diag.warnings, 0);
    pv_view *v = view(f, "routines");
    assert_int_equal(pv_view_rows(v), 2);
    assert_string_equal(cell(v, 0, "routine"), "f(a, b)");
    assert_string_equal(cell(v, 0, "file_line"), "4");
    assert_string_equal(summary(f, "method description"), "Function count");
    pv_file_free(f);
}

/* Truncated and odd inputs load (or fail) with messages, never crash. */
static void test_odd_inputs(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "6",
        "6\t",
        "10\t",
        "9\t999999999999\t1\t1\t1\n10\ta\n",
        "8\t-1\n8\t\n",
        "1\t522\n6\ta\n",
        "0\n1\n2\n3\n4\n5\n",
        "\t\t\t\n6\t\t\t\t\t\t\n",
        "7\ta.exe\ta.c\t1\t1\n6\ta.exe\ta.obj\t1\t1\t1\tmixed\n",
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(inputs); i++) {
        pv_load_status st;
        pv_file *f = load_text_as(inputs[i], strlen(inputs[i]), "plist", &st);
        if (st == PV_LOAD_OK)
            for (size_t s = 0; s < f->sets[0]->view_count; s++) {
                pv_view *v = f->sets[0]->views[s];
                for (size_t r = 0; r < pv_view_rows(v); r++)
                    for (size_t c = 0; c < v->column_count; c++)
                        (void)cell(v, r, v->columns[c].id);
            }
        else
            assert_true(f->diag.errors > 0);
        pv_file_free(f);
    }
    /* A NUL byte inside a line does not stop the parse. */
    static const char nul[] = "6\ta.exe\ta.obj\t1\t1\t1\tna\0me\n6\tb\tb\t2\t2\t2\tnext\n";
    pv_load_status st;
    pv_file *f = load_text_as(nul, sizeof nul - 1, "plist", &st);
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(pv_view_rows(view(f, "routines")), 2);
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_not_plist),
        cmocka_unit_test(test_global_records),
        cmocka_unit_test(test_method_codes),
        cmocka_unit_test(test_routines),
        cmocka_unit_test(test_name_with_tabs),
        cmocka_unit_test(test_lines_coverage),
        cmocka_unit_test(test_attribution_names_per_record),
        cmocka_unit_test(test_callers_callees),
        cmocka_unit_test(test_stack_without_self_and_recursion),
        cmocka_unit_test(test_stray_attribution),
        cmocka_unit_test(test_stack_count_mismatches),
        cmocka_unit_test(test_unknown_tags),
        cmocka_unit_test(test_missing_and_extra_fields),
        cmocka_unit_test(test_global_text_and_repeats),
        cmocka_unit_test(test_bad_numbers),
        cmocka_unit_test(test_crlf_bom_blank_lines),
        cmocka_unit_test(test_odd_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
