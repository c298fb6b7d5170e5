/* Unit tests for the viewer's screen (src/tui): golden screens of every
 * pane and view kind over the profile of tui_fixture.c (tig's habit: keys,
 * a fixed size, the screen), the Explorer, pane sizes, search, the mouse,
 * the prompt, UTF-8 line drawing, relative :goto and the lane strip. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_fixture.h"

#include "profview/hooks.h"
#include "profview/load.h"
#include "profview/table.h"
#include "tui/app.h"
#include "tui/report.h"

static void check_screen(const char *keys, int w, int h, const char *expected)
{
    pv_app *a = make_app(w, h, false);
    char *s = screen_after(a, keys);
    if (strcmp(s, expected) != 0)
        fprintf(stderr, "keys: %s\n--- expected\n%s--- got\n%s", keys, expected, s);
    assert_string_equal(s, expected);
    free(s);
    pv_app_free(a);
}

/* ---- golden screens (tig's habit: keys, a fixed size, the screen) */

static const char golden_table_with_details[] =
    "- Explorer ---------|- Report: Routines ----------------------------------------\n"
    "demo~rof (1 warning)| Id Routine         Module   Hits      Time\n"
    "  Run 1             |  1 main            lib.dll     1  1.234 ms\n"
    "    Routines (5)    |  2 parse_args      app.exe     3  2.469 ms\n"
    "    Call trace (5)  |  3 load\\x1B[2Jevil lib.dll     5  3.703 ms\n"
    "                    |  4 compute         app.exe     2  4.938 ms\n"
    "                    |  5 print_result    lib.dll     4  6.172 ms\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |- Details -[Callers]- Callees -----------------------------\n"
    "                    | Id Routine     Hits\n"
    "                    |  1 main           2\n"
    "                    |  2 parse_args    12\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    " demo.prof | routines | row 3/5 | 1 warning                              ? help\n"
    "\n";

static const char golden_details_tabs[] =
    "- Explorer ---------|- Report: Routines ----------------------------------------\n"
    "demo~rof (1 warning)| Id Routine         Module   Hits      Time\n"
    "  Run 1             |  1 main            lib.dll     1  1.234 ms\n"
    "    Routines (5)    |  2 parse_args      app.exe     3  2.469 ms\n"
    "    Call trace (5)  |  3 load\\x1B[2Jevil lib.dll     5  3.703 ms\n"
    "                    |  4 compute         app.exe     2  4.938 ms\n"
    "                    |  5 print_result    lib.dll     4  6.172 ms\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |- Details - Callers -[Callees]-----------------------------\n"
    "                    | Id Routine          Hits\n"
    "                    |  2 parse_args         10\n"
    "                    |  3 load\\x1B[2Jevil    20\n"
    "                    |  4 compute            30\n"
    "                    |  5 print_result       40\n"
    "                    |\n"
    " demo.prof | callees | row 1/4 | 1 warning                               ? help\n"
    "\n";

static const char golden_tree_collapse[] =
    "- Explorer ---------|- Report: Call trace --------------------------------------\n"
    "demo~rof (1 warning)| Id Routine             Depth      Time\n"
    "  Run 1             |  1 - main                  0  5.000 us\n"
    "    Routines (5)    |  2     parse_args          1  4.000 us\n"
    "    Call trace (5)  |  3   + compute             1  3.000 us\n"
    "                    |  5   atexit                0  1.000 us\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |- Details -------------------------------------------------\n"
    "                    |This view has no details\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    " demo.prof | call-trace | row 3/4 | 1 warning                            ? help\n"
    "\n";

static const char golden_help_screen[] =
    "- Help: keys (q, Esc or ? closes; / searches; more below: j, PgDn, G) ----------\n"
    " q                  quit           close the help or a view opened from\n"
    "                                   another; quit (asks if state would be lost)\n"
    " Tab                next-pane      focus the next pane\n"
    " Shift-Tab          prev-pane      focus the previous pane\n"
    " Up k               up             move up\n"
    " Down j             down           move down\n"
    " Left h             left           scroll left; Explorer: to the parent;\n"
    "                                   Details: previous tab\n"
    " Right l            right          scroll right; Explorer: open; Details: next\n"
    "                                   tab (callers, callees, source...)\n"
    " PgUp Ctrl-B        page-up        one page up\n"
    " PgDn Ctrl-F        page-down      one page down\n"
    " Home g             first          first row\n"
    " End G              last           last row\n"
    " Enter              open           open / drill down; in a tree, expand or\n"
    "                                   collapse\n"
    " Space              toggle         expand or collapse the tree node\n"
    " +                  expand         expand the tree node; timeline: zoom in\n"
    " -                  collapse       collapse the tree node; timeline: zoom out\n"
    " *                  expand-all     expand everything below the node\n"
    " Backspace [        back           back in the navigation history\n"
    " demo.prof | routines | row 1/5 | 1 warning                              ? help\n"
    "\n";

static const char golden_zoom_report[] =
    "- Report: Routines -------------------------------------------------------------\n"
    " Id Routine         Module   Hits      Time\n"
    "  1 main            lib.dll     1  1.234 ms\n"
    "  2 parse_args      app.exe     3  2.469 ms\n"
    "  3 load\\x1B[2Jevil lib.dll     5  3.703 ms\n"
    "  4 compute         app.exe     2  4.938 ms\n"
    "  5 print_result    lib.dll     4  6.172 ms\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "\n"
    " demo.prof | routines | row 1/5 | 1 warning                              ? help\n"
    "\n";

static const char golden_drill_down[] =
    "- Explorer ---------|- Report: Callers of parse_args (Routines) ----------------\n"
    "demo~rof (1 warning)| Id Routine   Hits\n"
    "  Run 1             |  1 main         1\n"
    "    Routines (5)    |\n"
    "    Call trace (5)  |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |- Details -------------------------------------------------\n"
    "                    |This view has no details\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    " demo.prof | callers | row 1/1 | 1 warning                               ? help\n"
    "\n";

static const char golden_columns_chooser[] =
    "- Explorer ---------|- Report: Routines ----------------------------------------\n"
    "demo~rof (1 warning)| Id Routine          Hits      Time\n"
    "  Run 1             |  1 main                1  1.234 ms\n"
    "    Routines (5)    |  2 parse_args          3  2.469 ms\n"
    "    Call trace (5)  |  3 load\\x1B[2Jevil     5  3.703 ms\n"
    "                    |  4 compute             2  4.938 ms\n"
    "                    |  5 print_result        4  6.172 ms\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |\n"
    "                    |- Details - Callers -[Callees]-----------------------------\n"
    "                    | Id Routine          Hits\n"
    "                    |  2 parse_args         10\n"
    "                    |  3 load\\x1B[2Jevil    20\n"
    "                    |  4 compute            30\n"
    "                    |  5 print_result       40\n"
    "                    |\n"
    " demo.prof | routines | row 1/5 | 1 warning                              ? help\n"
    "\n";

static const char golden_narrow_terminal[] = "- Report: Routines -------------------------------\n"
                                             " Id Routine         Module   Hits      Time\n"
                                             "  1 main            lib.dll     1  1.234 ms\n"
                                             "  2 parse_args      app.exe     3  2.469 ms\n"
                                             "  3 load\\x1B[2Jevil lib.dll     5  3.703 ms\n"
                                             "  4 compute         app.exe     2  4.938 ms\n"
                                             "  5 print_result    lib.dll     4  6.172 ms\n"
                                             "\n"
                                             "\n"
                                             "\n"
                                             "/data/demo.prof: 1 warning (the file's line in the\n"
                                             "Explorer lists them)\n"
                                             " demo.prof | routines | row 1/5 | 1 warning\n"
                                             "\n";

static void test_screen_table_with_details(void **state)
{
    (void)state;
    /* Row 3 selected: its callers (rows before it) show in Details. */
    check_screen("j j", 80, 24, golden_table_with_details);
}

static void test_screen_details_tabs(void **state)
{
    (void)state;
    check_screen("Tab Right", 80, 24, golden_details_tabs);
}

static void test_screen_tree_collapse(void **state)
{
    (void)state;
    check_screen("Shift-Tab j Tab j j Space", 80, 24, golden_tree_collapse);
    /* Expanding again brings the child back; * expands everything below. */
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "Shift-Tab j Tab j j Space Space");
    assert_non_null(strstr(s, "print_result"));
    free(s);
    s = screen_after(a, "g - *");
    assert_non_null(strstr(s, "print_result"));
    assert_non_null(strstr(s, "- main"));
    free(s);
    pv_app_free(a);
}

static void test_screen_help(void **state)
{
    (void)state;
    check_screen("?", 80, 24, golden_help_screen);
    /* The help shows the live bindings: rebinding changes the screen. */
    pv_app *a = make_app(80, 24, false);
    char *s0 = screen_after(a, "j k"); /* a key: the load's message goes */
    char *s1 = screen_after(a, "? q");
    assert_string_equal(s0, s1); /* q closes the help, does not quit */
    assert_false(pv_app_done(a));
    free(s0);
    free(s1);
    pv_app_free(a);
}

static void test_screen_zoom(void **state)
{
    (void)state;
    check_screen("z", 80, 24, golden_zoom_report);
}

static void test_screen_drill_down_and_back(void **state)
{
    (void)state;
    check_screen("j Enter", 80, 24, golden_drill_down);
    /* Backspace returns to the routines with row 2 still selected. */
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "j Enter Backspace");
    assert_non_null(strstr(s, "Report: Routines"));
    assert_non_null(strstr(s, "row 2/5"));
    free(s);
    s = screen_after(a, "]");
    assert_non_null(strstr(s, "Report: Callers of parse_args (Routines)"));
    free(s);
    s = screen_after(a, "q");
    assert_non_null(strstr(s, "Report: Routines"));
    assert_false(pv_app_done(a));
    free(s);
    pv_app_free(a);
}

static void test_screen_columns(void **state)
{
    (void)state;
    check_screen("c j j Space Enter", 80, 24, golden_columns_chooser);
}

static void test_screen_narrow(void **state)
{
    (void)state;
    check_screen("<Resize 50x14>", 80, 24, golden_narrow_terminal);
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "<Resize 15x4>");
    assert_string_equal(s, "too small\n\n\n\n");
    free(s);
    pv_app_free(a);
}

/* h in the Explorer goes to the result set, then the file. */
static void test_explorer_parent(void **state)
{
    (void)state;
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "Shift-Tab j h");
    free(s);
    const pv_grid *g = pv_app_draw(a);
    /* Line 2 is "  Run 1": selected (the focused Explorer's cursor). */
    assert_int_equal(g->cells[2 * g->width + 2].role, PV_ROLE_SELECTED);
    s = screen_after(a, "h");
    free(s);
    g = pv_app_draw(a);
    assert_int_equal(g->cells[1 * g->width + 0].role, PV_ROLE_SELECTED);
    s = screen_after(a, "h");
    free(s);
    g = pv_app_draw(a);
    assert_int_equal(g->cells[1 * g->width + 0].role, PV_ROLE_SELECTED); /* stays at the top */
    pv_app_free(a);
}

/* < and > resize the Explorer (or the Details pane when it has focus). */
static void test_pane_sizes(void **state)
{
    (void)state;
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "> >");
    /* The separator moves from column 20 to 28 (4 columns a step). */
    assert_int_equal(strchr(s, '|') - s, 28);
    free(s);
    s = screen_after(a, "< < < < < <");
    assert_int_equal(strchr(s, '|') - s, 14); /* never narrower than 14 */
    free(s);
    s = screen_after(a, "Tab > >");
    /* Details grows by 2 lines a step: its title moves from line 15 to 11. */
    const char *line = s;
    for (int i = 0; i < 11; i++)
        line = strchr(line, '\n') + 1;
    assert_non_null(strstr(line, "- Details -"));
    assert_true(strstr(line, "- Details -") < strchr(line, '\n'));
    free(s);
    pv_app_free(a);
}

/* Search finds the data, moves the cursor and paints the matched cell. */
static void test_search(void **state)
{
    (void)state;
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "/comp");
    assert_non_null(strstr(s, "row 4/5"));
    assert_non_null(strstr(s, "\n/comp\n"));
    free(s);
    s = screen_after(a, "<Enter>");
    const pv_grid *g = pv_app_draw(a);
    /* "compute" is on screen line 5 (title, header, rows 1-3 before it). */
    int y = 5, x = 0;
    while (x < g->width && g->cells[y * g->width + x].ch != 'c')
        x++;
    assert_true(x < g->width);
    /* on the selected row the match stays marked, the rest is selected */
    assert_int_equal(g->cells[y * g->width + x].role, PV_ROLE_MATCH);
    assert_int_equal(g->cells[y * g->width + g->width - 1].role, PV_ROLE_SELECTED);
    free(s);
    /* Moving away shows the match highlight on the cell. */
    s = screen_after(a, "g");
    g = pv_app_draw(a);
    assert_int_equal(g->cells[y * g->width + x].role, PV_ROLE_MATCH);
    free(s);
    /* Numbers are searched in their exact text, not the drawn one: 3703701 ns
     * is shown as 3.703 ms. */
    s = screen_after(a, "/3703701<Enter>");
    assert_non_null(strstr(s, "row 3/5"));
    free(s);
    s = screen_after(a, "/nothing-like-this<Enter>");
    assert_non_null(strstr(s, "not found: nothing-like-this"));
    free(s);
    pv_app_free(a);
}

/* Mouse: click focuses and selects, the wheel scrolls, tabs switch. */
static void test_mouse(void **state)
{
    (void)state;
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "");
    free(s);
    pv_app_mouse(a, 4, 30, 1); /* the third row of the report */
    s = screen_after(a, "");
    assert_non_null(strstr(s, "row 3/5"));
    free(s);
    pv_app_mouse(a, 15, 45, 1); /* the "Callees" tab */
    s = screen_after(a, "");
    assert_non_null(strstr(s, "-[Callees]-"));
    free(s);
    pv_app_mouse(a, 5, 30, 5); /* wheel down over the report: 3 rows */
    s = screen_after(a, "");
    assert_non_null(strstr(s, "row 5/5"));
    free(s);
    pv_app_mouse(a, 1, 52, 1); /* the "Hits" header: sorts, descending first */
    s = screen_after(a, "");
    assert_non_null(strstr(s, "sort: hits:desc"));
    free(s);
    pv_app_mouse(a, 1, 52, 1); /* again: reversed */
    s = screen_after(a, "");
    if (!strstr(s, "| sort: hits "))
        fprintf(stderr, "%s", s);
    assert_non_null(strstr(s, "| sort: hits "));
    assert_null(strstr(s, "hits:desc"));
    free(s);
    pv_app_mouse(a, 4, 5, 1); /* "Call trace (5)" in the Explorer */
    s = screen_after(a, "");
    assert_non_null(strstr(s, "Report: Call trace"));
    free(s);
    pv_app_free(a);
}

/* The command prompt: completion, readline keys, history. */
static void test_prompt(void **state)
{
    (void)state;
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, ":the<Tab>");
    assert_non_null(strstr(s, "\n:theme\n"));
    free(s);
    s = screen_after(a, "mono<Tab>");
    assert_non_null(strstr(s, "\n:theme monochrome\n"));
    free(s);
    s = screen_after(a, "<Ctrl-A>x<Ctrl-E>y<Ctrl-W>");
    assert_non_null(strstr(s, "\n:xtheme\n"));
    free(s);
    s = screen_after(a, "<Ctrl-U><Ctrl-K>goto 4<Enter>");
    assert_non_null(strstr(s, "row 4/5"));
    free(s);
    s = screen_after(a, ":<Up>");
    assert_non_null(strstr(s, "\n:goto 4\n"));
    free(s);
    s = screen_after(a, "<Esc>:columns routine,time<Enter>");
    assert_non_null(strstr(s, "|Routine              Time\n"));
    free(s);
    s = screen_after(a, ":columns nope<Enter>");
    assert_non_null(strstr(s, "no column 'nope' in view 'routines'"));
    free(s);
    s = screen_after(a, ":frobnicate<Enter>");
    assert_non_null(strstr(s, "unknown command 'frobnicate'"));
    free(s);
    s = screen_after(a, ":set unit=us<Enter>");
    assert_non_null(strstr(s, "1234.567 us"));
    free(s);
    s = screen_after(a, ":quit<Enter>");
    assert_true(pv_app_done(a));
    free(s);
    pv_app_free(a);
}

/* UTF-8 terminals get line drawing; names stay escaped. */
static void test_screen_utf8(void **state)
{
    (void)state;
    if (!setlocale(LC_ALL, "C.UTF-8"))
        skip();
    pv_app *a = make_app(80, 24, true);
    char *s = screen_after(a, "");
    assert_non_null(strstr(s, "\xe2\x94\x80 Explorer \xe2\x94\x80"));
    assert_non_null(strstr(s, "load\\x1B[2Jevil"));
    assert_null(strchr(s, '\x1b'));
    free(s);
    pv_app_free(a);
    setlocale(LC_ALL, "C");
}

/* ---- relative :goto (docs/tui.md "Jumps") on a real timeline: from each
 * row, +/- a time goes to the first row at or after the row's time moved
 * by it, as found here by walking the view's times */

static size_t status_row(const char *screen)
{
    const char *p = NULL, *q = screen;
    while ((q = strstr(q, " row ")) != NULL) {
        if (q[5] >= '0' && q[5] <= '9')
            p = q; /* the status bar's "row N/M", not a message's words */
        q++;
    }
    assert_non_null(p);
    return (size_t)strtoul(p + 5, NULL, 10);
}

static void test_relative_goto(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/screen/data/two-contexts.txt", PV_SOURCE_DIR);
    pv_load_options lo;
    pv_load_options_init(&lo);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &lo, &st);
    assert_int_equal(st, PV_LOAD_OK);
    const pv_view *v = pv_set_find_view(f->sets[0], "timeline");
    assert_non_null(v);
    size_t n = pv_view_rows(v);
    assert_true(n > 10);
    int64_t times[64];
    for (size_t i = 0; i < n && i < 64; i++)
        assert_true(pv_view_row_time(v, i, &times[i]));
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, true, false, 110, 30);
    pv_app_adopt_file(a, f);
    free(screen_after(a, "Shift-Tab\nj j j j\nTab\n"));
    static const struct {
        const char *arg;
        int64_t d;
    } steps[] = {{"+250ns", 250}, {"+0.6us", 600}, {"-450ns", -450}, {"+1ns", 1},
                 {"-1ns", -1},    {"+0ns", 0},     {"+2us", 2000},  {"-2us", -2000}};
    size_t checked = 0;
    for (size_t from = 0; from < n; from += 3) {
        for (size_t k = 0; k < PV_ARRAY_LEN(steps); k++) {
            char keys[128];
            snprintf(keys, sizeof keys, ":goto #%zu<Enter>\n:goto %s<Enter>\n", from + 1,
                     steps[k].arg);
            char *s = screen_after(a, keys);
            int64_t t = times[from] + steps[k].d;
            size_t want = n;
            for (size_t i = 0; i < n && want == n; i++)
                if (times[i] >= t)
                    want = i;
            if (want == n) {
                /* past the last event: the cursor stays, and says so */
                if (!strstr(s, "no row at or after that time") || status_row(s) != from + 1)
                    fail_msg("from row %zu, :goto %s: row %zu, want it to stay\n%s", from + 1,
                             steps[k].arg, status_row(s), s);
            } else if (status_row(s) != want + 1) {
                fail_msg("from row %zu, :goto %s: row %zu, want %zu", from + 1, steps[k].arg,
                         status_row(s), want + 1);
            }
            checked++;
            free(s);
        }
    }
    assert_true(checked > 40);
    pv_app_free(a);
}

/* The lane strip under a winIDEA timeline: the cursor column is drawn in the
 * selected-row role, and a click on the strip selects no row (the rows end
 * above it). */
static void test_lanes_cursor_and_click(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/sample-data/rtos.txt", PV_SOURCE_DIR);
    const char *paths[] = {path};
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    o.paths = paths;
    o.path_count = 1;
    pv_load_options_init(&o.load);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 100, 30);
    pv_app_wait_loaded(a);
    pv_app_index_all(a);
    char *s = screen_after(a, "Shift-Tab j j j j Tab j j");
    assert_non_null(strstr(s, "|- Lanes "));
    assert_non_null(strstr(s, "row 3/3000"));
    /* The ID_TASK_FAST lane has no event before 1 us: the cursor column is
     * its only '|' right of the pane border. */
    const char *lane = strstr(s, "| ID_TASK_FAST ");
    assert_non_null(lane);
    const char *line = lane;
    while (line > s && line[-1] != '\n')
        line--;
    int y = 0;
    for (const char *p = s; p < line; p++)
        y += *p == '\n';
    const char *bar = strchr(lane + 1, '|');
    const char *eol = strchr(lane, '\n');
    assert_non_null(bar);
    assert_true(eol == NULL || bar < eol);
    int x = (int)(bar - line);
    const pv_grid *g = pv_app_draw(a);
    assert_int_equal(g->cells[y * g->width + x].role, PV_ROLE_SELECTED);
    free(s);
    pv_app_mouse(a, y, x, 1);
    s = screen_after(a, "");
    assert_non_null(strstr(s, "row 3/3000"));
    free(s);
    pv_app_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_screen_table_with_details),
        cmocka_unit_test(test_screen_details_tabs),
        cmocka_unit_test(test_screen_tree_collapse),
        cmocka_unit_test(test_screen_help),
        cmocka_unit_test(test_screen_zoom),
        cmocka_unit_test(test_screen_drill_down_and_back),
        cmocka_unit_test(test_screen_columns),
        cmocka_unit_test(test_screen_narrow),
        cmocka_unit_test(test_pane_sizes),
        cmocka_unit_test(test_explorer_parent),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_prompt),
        cmocka_unit_test(test_mouse),
        cmocka_unit_test(test_screen_utf8),
        cmocka_unit_test(test_relative_goto),
        cmocka_unit_test(test_lanes_cursor_and_click),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
