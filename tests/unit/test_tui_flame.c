/* Unit tests for src/tui/flame.c: the flame graph, icicle and sandwich in
 * the viewer (frames, their colour roles, the eighth-block ends, zoom and
 * breadcrumb, search share, the filter), and :diff (the diff view with its
 * falls and rises coloured, a diff flame graph). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profview/table.h"
#include "tui/app.h"
#include "tui/keyscript.h"

enum { T_ID, T_ROUTINE, T_MODULE, T_THREAD, T_TIME, T_TWC, T_COUNT };
static const pv_column trace_cols[] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
    {"module", "Module", PV_TYPE_STRING, 0},
    {"thread", "Thread", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"time_with_children", "With children", PV_TYPE_TIME, 0},
};
enum { R_ID, R_ROUTINE, R_MODULE, R_TIME, R_COUNT };
static const pv_column routine_cols[] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
    {"module", "Module", PV_TYPE_STRING, PV_COL_KEY},
    {"time", "Time", PV_TYPE_TIME, 0},
};

/* Thread 7: main (total 1000) > work (600) > tiny (1: narrower than a
 * cell), main > io (300); set 2: work's self time doubled, io gone. */
static void add_set(pv_file *f, int64_t id, int64_t work_self, bool with_io)
{
    pv_result_set *set = pv_file_add_set(f, id, id == 1 ? "Run 1" : "Run 2", "test");
    pv_table *t = pv_table_new("call-trace", "Call trace", trace_cols, T_COUNT);
    pv_table_make_tree(t);
    static const struct {
        const char *name;
        int parent;
        int64_t self, total;
    } calls[] = {{"main", -1, 100, 1000}, {"work", 0, 599, 600}, {"tiny", 1, 1, 1}, {"io", 0, 300, 300}};
    for (size_t i = 0; i < 4; i++) {
        if (!with_io && i == 3)
            break;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, T_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, T_ROUTINE, calls[i].name);
        pv_table_set_cstr(t, r, T_MODULE, i == 3 ? "io.dll" : "app.exe");
        pv_table_set_int(t, r, T_THREAD, 7);
        pv_table_set_int(t, r, T_TIME, i == 1 ? work_self : calls[i].self);
        pv_table_set_int(t, r, T_TWC, calls[i].total);
        if (calls[i].parent >= 0)
            pv_table_set_parent(t, r, (size_t)calls[i].parent);
    }
    pv_set_add_view(set, pv_table_view(t));
    pv_table *rt = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    for (size_t i = 0; i < 4; i++) {
        if (!with_io && i == 3)
            break;
        size_t r = pv_table_add_row(rt);
        pv_table_set_int(rt, r, R_ID, (int64_t)r + 1);
        pv_table_set_cstr(rt, r, R_ROUTINE, calls[i].name);
        pv_table_set_cstr(rt, r, R_MODULE, i == 3 ? "io.dll" : "app.exe");
        pv_table_set_int(rt, r, R_TIME, i == 1 ? work_self : calls[i].self);
    }
    pv_set_add_view(set, pv_table_view(rt));
}

static pv_app *make_app(bool utf8)
{
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, utf8, !utf8, 100, 24);
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/demo.prof");
    f->format = "test";
    pv_diag_init(&f->diag);
    add_set(f, 1, 599, true);
    add_set(f, 2, 1198, false);
    pv_app_adopt_file(a, f);
    return a;
}

static char *screen_after(pv_app *a, const char *keys)
{
    size_t n, bad = 0;
    pv_script_event *ev = pv_script_parse(keys, &n, &bad);
    assert_non_null(ev);
    for (size_t i = 0; i < n; i++) {
        pv_app_draw(a);
        pv_app_key(a, ev[i].key);
    }
    free(ev);
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    return out.data;
}

/* The screen line that contains `text` (or -1), and the column of it. */
static int find_text(const char *screen, const char *text, int *col)
{
    int y = 0;
    for (const char *line = screen; *line; y++) {
        const char *end = strchr(line, '\n');
        const char *hit = strstr(line, text);
        if (hit && (!end || hit < end)) {
            /* columns: count UTF-8 characters before the hit */
            int c = 0;
            for (const char *p = line; p < hit; p++)
                c += ((unsigned char)*p & 0xC0) != 0x80;
            *col = c;
            return y;
        }
        if (!end)
            break;
        line = end + 1;
    }
    return -1;
}

static pv_role role_at(pv_app *a, int y, int x)
{
    const pv_grid *g = pv_app_draw(a);
    return (pv_role)g->cells[y * g->width + x].role;
}

static void test_flame_frames(void **state)
{
    (void)state;
    pv_app *a = make_app(true);
    char *s = screen_after(a, "Tab F");
    assert_non_null(strstr(s, "Flame graph: Call trace of demo.prof"));
    int x, y_main = find_text(s, "main", &x);
    int xw = 0, y_work = find_text(s, "work", &xw);
    int xi = 0, y_io = find_text(s, "io", &xi);
    int xt = 0, y_thread = find_text(s, "Thread 7", &xt);
    /* flame: the root at the bottom, callees above */
    assert_true(y_thread > y_main && y_main > y_work && y_work == y_io);
    /* siblings by name: io left of work; io has 300/1000 of the width */
    assert_true(xi < xw);
    /* the selected frame (the top: Thread 7) is drawn selected; the others
     * in their module's colour, io (io.dll) in another than work (app.exe) */
    assert_int_equal(role_at(a, y_thread, xt), PV_ROLE_SELECTED);
    pv_role rw = role_at(a, y_work, xw), ri = role_at(a, y_io, xi);
    assert_true(rw >= PV_ROLE_FLAME_1 && rw <= PV_ROLE_FLAME_4);
    assert_true(ri >= PV_ROLE_FLAME_1 && ri <= PV_ROLE_FLAME_4);
    assert_int_not_equal(rw, ri);
    /* tiny (1/1000 of the width) is narrower than a cell: an eighth block */
    const pv_grid *g = pv_app_draw(a);
    int y_tiny = y_work - 1;
    bool eighth = false;
    for (int i = 0; i < g->width; i++) {
        uint32_t ch = g->cells[y_tiny * g->width + i].ch;
        if (ch >= 0x2589 && ch <= 0x258F)
            eighth = true;
    }
    assert_true(eighth);
    /* Details: the selected frame's statistics */
    assert_non_null(strstr(s, "Total     1.000 us"));
    free(s);

    /* k twice: to main, to its widest child (work); Enter zooms into it,
     * its ancestors become the breadcrumb; Backspace goes out again */
    s = screen_after(a, "k k Enter");
    /* line 1: the breadcrumb */
    int xb;
    assert_int_equal(find_text(s, "Thread 7", &xb), 1);
    assert_int_equal(find_text(s, " main ", &xb), 1);
    assert_int_equal(find_text(s, " work", &xb), 1);
    assert_non_null(strstr(s, "Frame     work   (app.exe)"));
    assert_null(strstr(s, "io"));
    free(s);
    s = screen_after(a, "Backspace");
    assert_int_equal(find_text(s, " main\n", &xb), 1);
    assert_true(find_text(s, "io", &xb) > 1);
    free(s);
    /* h/l move between frames of a level: from work left to io */
    s = screen_after(a, "g k k h");
    assert_non_null(strstr(s, "Frame     io   (io.dll)"));
    free(s);
    /* search: the matching frames and the share of the total they hold */
    s = screen_after(a, "/ w o r k Enter");
    assert_non_null(strstr(s, "match: 60.0%"));
    y_work = find_text(s, "work", &xw);
    assert_int_equal(role_at(a, y_work, xw), PV_ROLE_FLAME_MATCH);
    free(s);
    /* I: the same graph top-down; again: back to the table */
    s = screen_after(a, "I");
    assert_non_null(strstr(s, "Icicle: Call trace"));
    y_main = find_text(s, "main", &x);
    y_work = find_text(s, "work", &xw);
    assert_true(y_main < y_work);
    free(s);
    s = screen_after(a, "I");
    assert_null(strstr(s, "Icicle"));
    free(s);
    pv_app_free(a);
}

static void test_flame_filter_and_ascii(void **state)
{
    (void)state;
    pv_app *a = make_app(false);
    /* the Report is the call tree: its filter applies to the graph (a
     * dropped call's time stays in its parent's width) */
    char *s = screen_after(a, "Tab j : f i l t e r Space r o u t i n e Space = Space i o Enter F");
    assert_non_null(strstr(s, "(filtered)"));
    int x;
    assert_true(find_text(s, "io", &x) >= 0);
    assert_int_equal(find_text(s, "work", &x), -1);
    /* ASCII: no block characters */
    const pv_grid *g = pv_app_draw(a);
    for (int i = 0; i < g->width * g->height; i++)
        assert_true(g->cells[i].ch < 0x80);
    free(s);
    pv_app_free(a);
}

static void test_sandwich_screen(void **state)
{
    (void)state;
    pv_app *a = make_app(true);
    /* W on a routine of the Routines table: work's callers and callees */
    /* W on a row of the call tree: main's sandwich */
    char *s = screen_after(a, "Tab W");
    assert_non_null(strstr(s, "Sandwich: Call trace"));
    assert_non_null(strstr(s, "main: 1.000 us through it in 1 calls"));
    free(s);
    /* Backspace: to the flame graph (q would go back to the table it
     * was opened from); the sandwich of its selected frame */
    s = screen_after(a, "Backspace g k k W");
    assert_non_null(strstr(s, "work: 600 ns through it in 1 calls"));
    int xm, y_main = find_text(s, "main", &xm);
    int xw = 0, y_work = find_text(s, "\xe2\x96\x8fwork", &xw);
    int xt = 0, y_tiny = find_text(s, "tiny", &xt);
    (void)y_tiny;
    /* callers above the routine */
    assert_true(y_main >= 0 && y_main < y_work);
    free(s);
    pv_app_free(a);
}

static void test_diff_screen(void **state)
{
    (void)state;
    pv_app *a = make_app(true);
    /* Routines of run 1 against run 2: work rose, io only in run 1 */
    char *s = screen_after(a, "Shift-Tab j Tab : d i f f Space 2 Enter");
    assert_non_null(strstr(s, "Diff of Routines"));
    assert_non_null(strstr(s, "1 only here"));
    int x, y = find_text(s, "599 ns", &x);
    assert_true(y >= 0);
    /* the time_delta cell of work (+599 ns): a rise */
    const pv_grid *g = pv_app_draw(a);
    bool worse = false, better = false;
    for (int i = 0; i < g->width * g->height; i++) {
        worse |= g->cells[i].role == PV_ROLE_WORSE;
        better |= g->cells[i].role == PV_ROLE_BETTER;
    }
    assert_true(worse);
    free(s);
    /* q: back to the routines */
    s = screen_after(a, "q");
    assert_null(strstr(s, "Diff of"));
    free(s);
    /* a diff flame graph: frames coloured by the change of their self time */
    s = screen_after(a, "F : d i f f Space 2 Enter");
    assert_non_null(strstr(s, "vs result set 2"));
    int xw = 0, y_work = find_text(s, "work", &xw);
    int xi = 0, y_io = find_text(s, "io", &xi);
    assert_int_equal(role_at(a, y_work, xw), PV_ROLE_WORSE);
    assert_int_equal(role_at(a, y_io, xi), PV_ROLE_BETTER); /* gone in run 2 */
    (void)better;
    free(s);
    pv_app_free(a);
}

/* An app over a call tree of 200001 calls (more than PV_BIG_VIEW): loop >
 * leaf, 100001 loops. */
static pv_app *big_tree_app(int64_t flame_slice)
{
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    if (flame_slice > 0) /* the test option flame-slice */
        pv_test_set(&o.load.test, PV_TEST_FLAME_SLICE, flame_slice);
    o.keys_path = "(scripted)"; /* flame-slice: one slice per key */
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, true, false, 100, 24);
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/big.prof");
    f->format = "test";
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Run 1", "test");
    pv_table *t = pv_table_new("call-trace", "Call trace", trace_cols, T_COUNT);
    pv_table_make_tree(t);
    size_t n = 200001;
    pv_table_reserve(t, n);
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, T_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, T_ROUTINE, i % 2 ? "leaf" : "loop");
        pv_table_set_int(t, r, T_THREAD, 1);
        pv_table_set_int(t, r, T_TIME, 1);
        pv_table_set_int(t, r, T_TWC, i % 2 ? 1 : 2);
        if (i % 2)
            pv_table_set_parent(t, r, r - 1);
    }
    pv_set_add_view(set, pv_table_view(t));
    pv_table *rt = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    size_t r = pv_table_add_row(rt);
    pv_table_set_int(rt, r, R_ID, 1);
    pv_table_set_cstr(rt, r, R_ROUTINE, "loop");
    pv_set_add_view(set, pv_table_view(rt));
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    /* a tree this big opens in steps (docs/tui.md "Long operations") */
    for (size_t steps = 0; pv_app_has_work(a) && steps < 1000000; steps++)
        pv_app_work(a);
    pv_app_draw(a);
    return a;
}

static char *screen_of(pv_app *a)
{
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    return out.data;
}

/* A big call tree is built in slices between keys: the previous screen
 * stays with the percentage in the status line, keys are answered
 * meanwhile, and the graph appears when the last slice is done. */
static void test_big_tree_in_slices(void **state)
{
    (void)state;
    pv_app *a = big_tree_app(0);
    pv_app_key(a, 'F');
    assert_true(pv_app_has_work(a));
    assert_true(pv_app_work_stoppable(a)); /* keys are read between slices */
    char *s = screen_of(a);
    assert_non_null(strstr(s, "Building the flame graph: 0% of 200001 calls (Esc stops)"));
    assert_null(strstr(s, "Flame graph:")); /* the table stays until it is built */
    free(s);
    pv_app_key(a, 'j'); /* answered: the table's cursor moves */
    s = screen_of(a);
    assert_non_null(strstr(s, "row 2/100001"));
    free(s);
    size_t slices = 0;
    while (pv_app_has_work(a) && slices < 1000000) {
        pv_app_work(a);
        slices++;
    }
    assert_false(pv_app_has_work(a));
    s = screen_of(a);
    int x;
    assert_non_null(strstr(s, "Flame graph: Call trace of big.prof"));
    assert_true(find_text(s, "loop", &x) >= 0);
    assert_true(find_text(s, "leaf", &x) >= 0);
    assert_null(strstr(s, "Building"));
    free(s);
    /* back to the table and F again: the graph kept is shown at once */
    pv_app_key(a, 'F');
    s = screen_of(a);
    assert_null(strstr(s, "Flame graph:"));
    free(s);
    pv_app_key(a, 'F');
    assert_false(pv_app_has_work(a));
    s = screen_of(a);
    assert_non_null(strstr(s, "Flame graph: Call trace of big.prof"));
    free(s);
    pv_app_free(a);
}

/* With the test option flame-slice, one slice per scripted key: the
 * percentage grows, Esc and Ctrl-C stop the build and keep the screen
 * (Ctrl-C does not quit), a build run to its end shows the graph. */
static void test_big_tree_stops(void **state)
{
    (void)state;
    pv_app *a = big_tree_app(50000);
    pv_app_key(a, 'F');
    assert_false(pv_app_has_work(a)); /* the tests' slices: one per key */
    pv_app_flame_test_slice(a);
    char *s = screen_of(a);
    assert_non_null(strstr(s, "Building the flame graph: 25% of 200001 calls"));
    free(s);
    pv_app_key(a, PV_KEY_ESC);
    s = screen_of(a);
    assert_non_null(strstr(s, "flame graph stopped"));
    assert_null(strstr(s, "Flame graph:"));
    free(s);
    pv_app_flame_test_slice(a); /* nothing runs any more */
    s = screen_of(a);
    assert_null(strstr(s, "Flame graph:"));
    free(s);
    /* Ctrl-C: stops it and does not quit */
    pv_app_key(a, 'F');
    pv_app_flame_test_slice(a);
    pv_app_key(a, PV_KEY_CTRL('c'));
    assert_false(pv_app_done(a));
    s = screen_of(a);
    assert_non_null(strstr(s, "flame graph stopped"));
    free(s);
    /* choosing another item in the Explorer stops it (the graph belongs to
     * the view it was made of) */
    pv_app_key(a, 'F');
    pv_app_flame_test_slice(a);
    pv_app_key(a, PV_KEY_BTAB);
    pv_app_key(a, 'j'); /* the Routines view */
    for (int i = 0; i < 6; i++)
        pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "flame graph stopped"));
    assert_null(strstr(s, "Flame graph:"));
    assert_non_null(strstr(s, "Report: Routines"));
    free(s);
    pv_app_key(a, 'k'); /* back to the call tree */
    pv_app_key(a, PV_KEY_TAB);
    /* I during the build: the icicle is what it shows once built */
    pv_app_key(a, 'F');
    pv_app_key(a, 'I');
    for (int i = 0; i < 4; i++)
        pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "Building the flame graph: 100% of 200001 calls"));
    free(s);
    pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "Icicle: Call trace of big.prof"));
    free(s);
    /* a filter on the call tree rebuilds it in slices (the filter's pass,
     * then the merge); Esc keeps the graph of the previous filter */
    pv_app_key(a, 'I'); /* back to the table */
    for (const char *k = ":filter routine == \"leaf\"\n"; *k; k++)
        pv_app_key(a, *k);
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_app_key(a, 'F');
    pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "Building the flame graph: 12% of 200001 calls"));
    free(s);
    for (int i = 0; i < 4; i++)
        pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "Building the flame graph: 62% of 200001 calls"));
    free(s);
    for (int i = 0; i < 4; i++)
        pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "Flame graph: Call trace of big.prof (filtered)"));
    assert_non_null(strstr(s, "leaf"));
    free(s);
    /* another filter while the graph is shown: rebuilt in slices, the graph
     * of the previous filter stays meanwhile; Esc keeps it, says so in the
     * title, and does not try that filter again */
    for (const char *k = ":filter routine == \"loop\"\n"; *k; k++)
        pv_app_key(a, *k);
    while (pv_app_has_work(a))
        pv_app_work(a);
    s = screen_of(a);
    assert_non_null(strstr(s, "Building the flame graph: 0% of 200001 calls"));
    assert_non_null(strstr(s, "Flame graph: Call trace of big.prof (filtered)"));
    assert_non_null(strstr(s, "leaf")); /* still the graph of the previous filter */
    free(s);
    pv_app_flame_test_slice(a);
    pv_app_key(a, PV_KEY_ESC);
    s = screen_of(a);
    assert_non_null(strstr(s, "flame graph stopped: it still shows the previous filter"));
    assert_non_null(strstr(s, "(previous filter)"));
    free(s);
    pv_app_flame_test_slice(a);
    s = screen_of(a);
    assert_null(strstr(s, "Building the flame graph"));
    free(s);
    pv_app_free(a);
}

/* The scripted mode's mouse events: <Click X Y>, <WheelUp X Y>,
 * <WheelDown X Y>; a malformed one is an error naming its line. */
static void test_script_mouse(void **state)
{
    (void)state;
    size_t n, bad = 0;
    pv_script_event *ev =
        pv_script_parse("F\n<Click 30 12>\n<WheelUp 1 2>\n<WheelDown 3 4>\n", &n, &bad);
    assert_non_null(ev);
    assert_int_equal(n, 4);
    assert_int_equal(ev[1].key, PV_SCRIPT_CLICK);
    assert_int_equal(ev[1].width, 30);
    assert_int_equal(ev[1].height, 12);
    assert_int_equal(ev[2].key, PV_SCRIPT_WHEEL_UP);
    assert_int_equal(ev[2].width, 1);
    assert_int_equal(ev[2].height, 2);
    assert_int_equal(ev[3].key, PV_SCRIPT_WHEEL_DOWN);
    free(ev);
    assert_null(pv_script_parse("F\n<Click 30>\n", &n, &bad));
    assert_int_equal(bad, 2);
    assert_null(pv_script_parse("<Click 30 12 4>\n", &n, &bad));
    assert_null(pv_script_parse("<Click -1 2>\n", &n, &bad));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flame_frames),
        cmocka_unit_test(test_flame_filter_and_ascii),
        cmocka_unit_test(test_sandwich_screen),
        cmocka_unit_test(test_diff_screen),
        cmocka_unit_test(test_big_tree_in_slices),
        cmocka_unit_test(test_big_tree_stops),
        cmocka_unit_test(test_script_mouse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
