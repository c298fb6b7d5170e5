/* Unit tests for src/tui: key names and rebinding (config), themes and bad
 * theme files, escaping names for the terminal, the history stack, the
 * scripted-keys parser, and golden screens of the viewer over views built
 * here with pv_table (every pane and view kind). */
#include <fcntl.h>
#include <locale.h>
#include <malloc.h>
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
#include "profview/load.h"
#include "profview/table.h"
#include "tui/app.h"
#include "tui/app_internal.h" /* the job engine's state (test_app_jobs_cancel) */
#include "tui/config.h"
#include "tui/group.h"
#include "tui/commands.h"
#include "tui/history.h"
#include "tui/keymap.h"
#include "tui/keyscript.h"
#include "tui/report.h"
#include "tui/text.h"
#include "tui/theme.h"

/* ---- a small profile built by hand */

enum { R_ID, R_ROUTINE, R_MODULE, R_HITS, R_TIME, R_COUNT };
static const pv_column routine_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"module", "Module", PV_TYPE_STRING, 0},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
};
enum { K_ID, K_ROUTINE, K_HITS, K_COUNT };
static const pv_column caller_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
};
static const pv_detail_def routine_details[] = {
    {"callers", "Callers"},
    {"callees", "Callees"},
};
enum { T_ID, T_PARENT, T_ROUTINE, T_DEPTH, T_TIME, T_COUNT };
static const pv_column trace_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"parent", "Parent", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
    {"depth", "Depth", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
};

static const char *const routine_names[] = {"main", "parse_args", "load\x1b[2Jevil", "compute",
                                            "print_result"};

/* Callers of routine `row`: the routines before it; callees: after it. */
static pv_view *open_callers(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)ctx;
    (void)owner;
    pv_table *t = pv_table_new(routine_details[detail].id, routine_details[detail].title,
                               caller_cols, K_COUNT);
    size_t from = detail == 0 ? 0 : row + 1, to = detail == 0 ? row : 5;
    for (size_t i = from; i < to; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, K_ID, (int64_t)i + 1);
        pv_table_set_cstr(t, r, K_ROUTINE, routine_names[i]);
        pv_table_set_int(t, r, K_HITS, (int64_t)(i * 10 + row));
    }
    return pv_table_view(t);
}

static pv_file *make_file(void)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/demo.prof");
    f->format = "test";
    pv_diag_init(&f->diag);
    pv_warn(&f->diag, "demo.prof: line 3: a warning");
    pv_result_set *set = pv_file_add_set(f, 1, "Run 1", "test");
    pv_table *t = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    for (size_t i = 0; i < 5; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, R_ID, (int64_t)i + 1);
        pv_table_set_cstr(t, r, R_ROUTINE, routine_names[i]);
        pv_table_set_cstr(t, r, R_MODULE, i % 2 ? "app.exe" : "lib.dll");
        pv_table_set_int(t, r, R_HITS, (int64_t)((i * 7) % 5 + 1));
        pv_table_set_int(t, r, R_TIME, (int64_t)(i + 1) * 1234567);
    }
    pv_table_set_details(t, routine_details, 2, open_callers, NULL, NULL);
    pv_set_add_view(set, pv_table_view(t));

    pv_table *tr = pv_table_new("call-trace", "Call trace", trace_cols, T_COUNT);
    pv_table_make_tree(tr);
    /* main > (parse_args, compute > (print_result)), main2 */
    static const struct {
        const char *name;
        int parent;
    } calls[] = {
        {"main", -1}, {"parse_args", 0}, {"compute", 0}, {"print_result", 2}, {"atexit", -1},
    };
    for (size_t i = 0; i < 5; i++) {
        size_t r = pv_table_add_row(tr);
        pv_table_set_int(tr, r, T_ID, (int64_t)i + 1);
        if (calls[i].parent >= 0) {
            pv_table_set_parent(tr, r, (size_t)calls[i].parent);
            pv_table_set_int(tr, r, T_PARENT, calls[i].parent + 1);
        }
        pv_table_set_cstr(tr, r, T_ROUTINE, calls[i].name);
        pv_table_set_int(tr, r, T_DEPTH, calls[i].parent < 0 ? 0 : calls[i].parent == 0 ? 1 : 2);
        pv_table_set_int(tr, r, T_TIME, (int64_t)(5 - i) * 1000);
    }
    pv_set_add_view(set, pv_table_view(tr));
    return f;
}

static pv_app *make_app(int w, int h, bool utf8)
{
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, utf8, !utf8, w, h);
    pv_app_adopt_file(a, make_file());
    return a;
}

/* Feeds the key names of `keys` (a scripted-keys text) and returns the
 * screen text (free it). */
static char *screen_after(pv_app *a, const char *keys)
{
    size_t n, bad = 0;
    pv_script_event *ev = pv_script_parse(keys, &n, &bad);
    assert_non_null(ev);
    for (size_t i = 0; i < n; i++) {
        pv_app_draw(a);
        if (ev[i].key == PV_SCRIPT_RESIZE)
            pv_app_resize(a, ev[i].width, ev[i].height);
        else
            pv_app_key(a, ev[i].key);
        if (pv_app_has_work(a)) {
            pv_app_draw(a);
            pv_app_work(a);
        }
    }
    free(ev);
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    return out.data;
}

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
    "                                   tab\n"
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

/* ---- keys and the config file */

static void test_key_names(void **state)
{
    (void)state;
    assert_int_equal(pv_key_parse("j"), 'j');
    assert_int_equal(pv_key_parse("Enter"), PV_KEY_ENTER);
    assert_int_equal(pv_key_parse("Ctrl-A"), 1);
    assert_int_equal(pv_key_parse("C-w"), 23);
    assert_int_equal(pv_key_parse("F1"), PV_KEY_F0 + 1);
    assert_int_equal(pv_key_parse("F12"), PV_KEY_F0 + 12);
    assert_int_equal(pv_key_parse("F13"), 0);
    assert_int_equal(pv_key_parse("PgDn"), PV_KEY_PGDN);
    assert_int_equal(pv_key_parse("Space"), ' ');
    assert_int_equal(pv_key_parse("\xc3\xa9"), 0xe9);
    assert_int_equal(pv_key_parse("Bogus"), 0);
    assert_int_equal(pv_key_parse(""), 0);
    char name[16];
    for (int k = 1; k < 0x7f; k++) {
        if (k > 26 && k < 0x20 && k != 27)
            continue; /* Ctrl-\ and friends have no name */
        pv_key_name(k, name, sizeof name);
        assert_int_equal(pv_key_parse(name), k);
    }
    pv_key_name(PV_KEY_BTAB, name, sizeof name);
    assert_string_equal(name, "Shift-Tab");
}

static void test_default_keys(void **state)
{
    (void)state;
    pv_keymap m;
    pv_keymap_init_defaults(&m);
    /* Every action of actions.def has a key, and docs/tui.md's keys act. */
    for (int act = 0; act < PV_ACT_COUNT; act++)
        assert_int_not_equal(m.keys[act][0], 0);
    assert_int_equal(pv_keymap_lookup(&m, 'j'), PV_ACT_DOWN);
    assert_int_equal(pv_keymap_lookup(&m, PV_KEY_TAB), PV_ACT_NEXT_PANE);
    assert_int_equal(pv_keymap_lookup(&m, PV_KEY_BTAB), PV_ACT_PREV_PANE);
    assert_int_equal(pv_keymap_lookup(&m, '\\'), PV_ACT_FILTER);
    assert_int_equal(pv_keymap_lookup(&m, PV_KEY_F0 + 1), PV_ACT_HELP);
    assert_int_equal(pv_keymap_lookup(&m, '['), PV_ACT_BACK);
    assert_int_equal(pv_keymap_lookup(&m, 'x'), PV_ACT_NONE);
    assert_int_equal(pv_action_find("expand-all"), PV_ACT_EXPAND_ALL);
    assert_int_equal(pv_action_find("nope"), PV_ACT_NONE);
}

static void test_config_rebinds_keys(void **state)
{
    (void)state;
    static const char yaml[] = "theme: light\n"
                               "time_unit: us\n"
                               "keys:\n"
                               "  down: \"Ctrl-N x\"\n"
                               "  up: [Ctrl-P, y]\n"
                               "columns:\n"
                               "  routines: [routine, hits]\n";
    pv_tui_config c;
    pv_config_init(&c);
    pv_buf err;
    pv_buf_init(&err);
    assert_true(pv_config_parse(&c, yaml, sizeof yaml - 1, "config.yaml", &err));
    assert_int_equal(err.len, 0);
    assert_string_equal(c.theme, "light");
    assert_int_equal(c.time_unit, PV_UNIT_US);
    assert_int_equal(pv_keymap_lookup(&c.keys, 'x'), PV_ACT_DOWN);
    assert_int_equal(pv_keymap_lookup(&c.keys, 14), PV_ACT_DOWN);
    assert_int_equal(pv_keymap_lookup(&c.keys, 'j'), PV_ACT_NONE); /* replaced */
    assert_int_equal(pv_keymap_lookup(&c.keys, 'y'), PV_ACT_UP);
    assert_string_equal(pv_config_columns(&c, "routines"), "routine,hits");
    assert_null(pv_config_columns(&c, "lines"));
    pv_config_free(&c);
    pv_buf_free(&err);
}

static void test_config_errors_name_line(void **state)
{
    (void)state;
    static const char yaml[] = "theme: light\n"
                               "keys:\n"
                               "  down: \"Ctrl-N Hyper-Q\"\n"
                               "  teleport: t\n"
                               "time_unit: fortnights\n"
                               "colour: red\n";
    pv_tui_config c;
    pv_config_init(&c);
    pv_buf err;
    pv_buf_init(&err);
    assert_false(pv_config_parse(&c, yaml, sizeof yaml - 1, "/home/u/config.yaml", &err));
    const char *e = pv_buf_cstr(&err);
    assert_non_null(strstr(e, "/home/u/config.yaml:3:9: action 'down': unknown key 'Hyper-Q'"));
    assert_non_null(strstr(e, "/home/u/config.yaml:4:3: unknown action 'teleport'"));
    assert_non_null(strstr(e, "/home/u/config.yaml:5:12: time_unit is auto, ns, us, ms or s"));
    assert_non_null(strstr(e, "/home/u/config.yaml:6:1: unknown setting 'colour'"));
    /* The good settings still apply; the bad binding left the default. */
    assert_string_equal(c.theme, "light");
    assert_int_equal(pv_keymap_lookup(&c.keys, 'j'), PV_ACT_DOWN);
    pv_buf_clear(&err);
    static const char broken[] = "keys:\n  down: [j\n  up: k\n";
    assert_false(pv_config_parse(&c, broken, sizeof broken - 1, "c.yaml", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "c.yaml:3:"));
    pv_config_free(&c);
    pv_buf_free(&err);
}

static void test_rebound_key_drives_app(void **state)
{
    (void)state;
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_buf err;
    pv_buf_init(&err);
    static const char yaml[] = "keys:\n  down: x\n  help: F2\n";
    assert_true(pv_config_parse(&cfg, yaml, sizeof yaml - 1, "c.yaml", &err));
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 80, 24);
    pv_app_adopt_file(a, make_file());
    char *s = screen_after(a, "x x j");
    assert_non_null(strstr(s, "row 3/5"));
    free(s);
    s = screen_after(a, "F2");
    assert_non_null(strstr(s, " x                  down"));
    assert_non_null(strstr(s, "F2 help") ? strstr(s, "F2 help") : strstr(s, " F2 "));
    free(s);
    pv_app_free(a);
    pv_config_free(&cfg);
    pv_buf_free(&err);
}

/* ---- themes */

static char *read_source_file(const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PV_SOURCE_DIR, rel);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    char *buf = pv_xmalloc(1 << 16);
    *len = fread(buf, 1, (1 << 16) - 1, fp);
    buf[*len] = '\0';
    fclose(fp);
    return buf;
}

static void test_theme_files(void **state)
{
    (void)state;
    static const char *const names[] = {"default", "light", "monochrome", "high-contrast"};
    pv_theme builtin;
    pv_theme_builtin(&builtin);
    assert_string_equal(builtin.name, "default");
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "themes/%s.yaml", names[i]);
        size_t len;
        char *text = read_source_file(rel, &len);
        pv_theme t;
        pv_theme_builtin(&t);
        memset(t.roles, 0x55, sizeof t.roles);
        pv_buf err;
        pv_buf_init(&err);
        assert_true(pv_theme_parse(&t, text, len, rel, &err));
        assert_string_equal(t.name, names[i]);
        /* Every role is given by every theme file. */
        for (size_t r = 0; r < PV_ROLE_COUNT; r++)
            assert_true(t.roles[r].fg >= -1 && t.roles[r].fg < 256);
        if (i == 0)
            assert_memory_equal(t.roles, builtin.roles, sizeof t.roles);
        if (strcmp(names[i], "monochrome") == 0)
            for (size_t r = 0; r < PV_ROLE_COUNT; r++)
                assert_true(t.roles[r].fg == PV_COLOR_DEFAULT && t.roles[r].bg == PV_COLOR_DEFAULT);
        pv_buf_free(&err);
        free(text);
    }
}

static void test_theme_styles(void **state)
{
    (void)state;
    pv_style s;
    char why[128];
    assert_true(pv_style_parse("bright-white on blue bold", &s, why, sizeof why));
    assert_int_equal(s.fg, 15);
    assert_int_equal(s.bg, 4);
    assert_int_equal(s.attrs, PV_ATTR_BOLD);
    assert_true(pv_style_parse("default reverse underline", &s, why, sizeof why));
    assert_int_equal(s.fg, PV_COLOR_DEFAULT);
    assert_int_equal(s.attrs, PV_ATTR_REVERSE | PV_ATTR_UNDERLINE);
    assert_true(pv_style_parse("208 on 17", &s, why, sizeof why));
    assert_int_equal(s.fg, 208);
    assert_false(pv_style_parse("purple", &s, why, sizeof why));
    assert_non_null(strstr(why, "'purple'"));
    assert_false(pv_style_parse("red on", &s, why, sizeof why));
    assert_false(pv_style_parse("256", &s, why, sizeof why));
    /* Fallback: 256 colours to 16 and 8; bright to plain on 8 colours. */
    assert_int_equal(pv_color_fallback(208, 256), 208);
    assert_int_equal(pv_color_fallback(196, 16), 9);
    assert_int_equal(pv_color_fallback(196, 8), 1);
    assert_int_equal(pv_color_fallback(12, 8), 4);
    assert_int_equal(pv_color_fallback(8, 8), 7);
    assert_int_equal(pv_color_fallback(PV_COLOR_DEFAULT, 8), PV_COLOR_DEFAULT);
}

static void test_bad_theme_names_file_and_line(void **state)
{
    (void)state;
    static const char bad[] = "name: broken\n"
                              "roles:\n"
                              "  normal: white\n"
                              "  selected: black on mauve\n"
                              "  sparkle: red\n";
    pv_theme t;
    pv_theme_builtin(&t);
    pv_theme before = t;
    pv_buf err;
    pv_buf_init(&err);
    assert_false(pv_theme_parse(&t, bad, sizeof bad - 1, "themes/broken.yaml", &err));
    const char *e = pv_buf_cstr(&err);
    assert_non_null(strstr(
        e,
        "themes/broken.yaml:4:13: role 'selected': 'on' needs a background colour, got 'mauve'"));
    assert_non_null(strstr(e, "themes/broken.yaml:5:3: unknown colour role 'sparkle'"));
    /* Nothing of a bad theme is used. */
    assert_memory_equal(&t, &before, sizeof t);
    pv_buf_clear(&err);
    static const char syntax[] = "roles:\n  normal: [white\n";
    assert_false(pv_theme_parse(&t, syntax, sizeof syntax - 1, "x.yaml", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "x.yaml:3:"));
    pv_buf_free(&err);
}

static void test_theme_lookup(void **state)
{
    (void)state;
    /* A user's theme directory comes first, then the source tree's. */
    char dir[] = "/tmp/pv-theme-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/profview", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/profview/themes", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/profview/themes/mine.yaml", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("name: mine\nroles:\n  normal: green on black\n", fp);
    fclose(fp);
    snprintf(path, sizeof path, "%s/profview/themes/bad.yaml", dir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("name: bad\nroles:\n  normal: green on black\n  header: glitter\n", fp);
    fclose(fp);
    setenv("XDG_CONFIG_HOME", dir, 1);
    pv_theme t;
    pv_buf err;
    pv_buf_init(&err);
    assert_true(pv_theme_load(&t, "mine", &err));
    assert_string_equal(t.name, "mine");
    assert_int_equal(t.roles[PV_ROLE_NORMAL].fg, 2);
    assert_true(pv_theme_load(&t, "light", &err)); /* from the source tree */
    assert_string_equal(t.name, "light");
    assert_false(pv_theme_load(&t, "bad", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "/profview/themes/bad.yaml:4:11: role 'header'"));
    assert_string_equal(t.name, "default"); /* defaults used */
    pv_buf_clear(&err);
    assert_false(pv_theme_load(&t, "no-such-theme", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "theme 'no-such-theme' not found"));
    unlink(path);
    snprintf(path, sizeof path, "%s/profview/themes/mine.yaml", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/profview/themes", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/profview", dir);
    rmdir(path);
    rmdir(dir);
    unsetenv("XDG_CONFIG_HOME");
    pv_buf_free(&err);
}

/* ---- escaping */

static char *escaped(const char *s, size_t len, bool utf8)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_text_escape(&b, s, len, utf8);
    pv_buf_puts(&b, "");
    return b.data;
}

static void test_escape(void **state)
{
    (void)state;
    if (!setlocale(LC_ALL, "C.UTF-8"))
        skip();
    char *e = escaped("a\x1b[2Jb\tc\x7f", 9, true);
    assert_string_equal(e, "a\\x1B[2Jb\\x09c\\x7F");
    free(e);
    e = escaped("caf\xc3\xa9", 5, true); /* valid UTF-8 stays */
    assert_string_equal(e, "caf\xc3\xa9");
    free(e);
    e = escaped("caf\xc3\xa9", 5, false); /* a non-UTF-8 terminal gets escapes */
    assert_string_equal(e, "caf\\xC3\\xA9");
    free(e);
    e = escaped("bad\xff\xc3(", 6, true); /* invalid UTF-8 */
    assert_string_equal(e, "bad\\xFF\\xC3(");
    free(e);
    e = escaped("\xc2\x9b"
                "31m",
                5, true); /* C1 CSI */
    assert_string_equal(e, "\\u009B31m");
    free(e);
    e = escaped("\xe2\x80\xae"
                "evil",
                7, true); /* bidi override */
    assert_string_equal(e, "\\u202Eevil");
    free(e);
    e = escaped("\xed\xa0\x80", 3, true); /* a surrogate is not UTF-8 */
    assert_string_equal(e, "\\xED\\xA0\\x80");
    free(e);
    e = escaped("nul\0x", 5, true);
    assert_string_equal(e, "nul\\x00x");
    free(e);
    assert_int_equal(pv_text_width("a\x1b", 2, true), 5);
    assert_int_equal(pv_text_width("\xe6\xbc\xa2", 3, true), 2); /* wide CJK */
    setlocale(LC_ALL, "C");
}

/* Whatever bytes a name holds, the grid holds only printable characters. */
static void test_grid_never_holds_controls(void **state)
{
    (void)state;
    pv_grid g;
    pv_grid_init(&g, true);
    pv_grid_resize(&g, 40, 2);
    char bytes[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = (char)i;
    pv_grid_text(&g, 0, 0, 40, bytes, sizeof bytes, PV_ROLE_NORMAL);
    pv_grid_text(&g, 1, 0, 40, bytes + 120, 136, PV_ROLE_NORMAL);
    for (int i = 0; i < 80; i++) {
        uint32_t c = g.cells[i].ch;
        assert_true(c == 0 || (c >= 0x20 && c != 0x7f && (c < 0x80 || c >= 0xa0)));
    }
    pv_grid_free(&g);
}

/* ---- history */

static pv_location loc(size_t item, size_t row)
{
    pv_location l;
    memset(&l, 0, sizeof l);
    l.item = item;
    l.row = row;
    return l;
}

static void test_history(void **state)
{
    (void)state;
    pv_history h;
    pv_location a = loc(1, 0), b = loc(2, 5), c = loc(3, 7), out = loc(0, 0);
    pv_history_init(&h, &a);
    assert_false(pv_history_back(&h, &a, &out));
    pv_location a_moved = loc(1, 4); /* the row moved before leaving */
    pv_history_go(&h, &a_moved, &b);
    pv_history_go(&h, &b, &c);
    assert_true(pv_history_back(&h, &c, &out));
    assert_int_equal(out.item, 2);
    assert_true(pv_history_back(&h, &out, &out));
    assert_int_equal(out.item, 1);
    assert_int_equal(out.row, 4); /* where we were, not where we arrived */
    assert_false(pv_history_back(&h, &out, &out));
    assert_true(pv_history_forward(&h, &out, &out));
    assert_int_equal(out.item, 2);
    /* Going somewhere new drops the forward entries. */
    pv_location d = loc(9, 0);
    pv_history_go(&h, &out, &d);
    assert_false(pv_history_forward(&h, &d, &out));
    assert_true(pv_history_back(&h, &d, &out));
    assert_int_equal(out.item, 2);
    pv_history_free(&h);
    /* Bounded: the oldest entries go. */
    pv_history_init(&h, &a);
    pv_location cur = a;
    for (size_t i = 0; i < PV_HISTORY_MAX * 2; i++) {
        pv_location n = loc(100 + i, 0);
        pv_history_go(&h, &cur, &n);
        cur = n;
    }
    assert_true(h.count <= PV_HISTORY_MAX);
    size_t steps = 0;
    while (pv_history_back(&h, &cur, &cur))
        steps++;
    assert_int_equal(steps, h.count - 1);
    assert_true(cur.item > 1);
    pv_history_free(&h);
}

/* The history keeps its own copies of texts of any length. */
static void test_history_long_texts(void **state)
{
    (void)state;
    char *longf = pv_xmalloc(2001);
    memset(longf, ' ', 2000);
    memcpy(longf, "hits > 50", 9);
    memcpy(longf + 1984, "&& hits > 500000", 16);
    longf[2000] = '\0';
    pv_location a = loc(1, 0), b = loc(2, 0), out = loc(0, 0);
    pv_location_set_texts(&a, longf, "hits:desc,routine");
    pv_history h;
    pv_history_init(&h, &a);
    pv_history_go(&h, &a, &b);
    pv_location_free(&a); /* the history does not borrow */
    memset(longf, 'x', 2000);
    assert_true(pv_history_back(&h, &b, &out));
    assert_int_equal(strlen(pv_location_filter(&out)), 2000);
    assert_memory_equal(pv_location_filter(&out), "hits > 50", 9);
    assert_string_equal(pv_location_filter(&out) + 1984, "&& hits > 500000");
    assert_string_equal(pv_location_sort(&out), "hits:desc,routine");
    assert_true(pv_history_forward(&h, &out, &out));
    assert_string_equal(pv_location_filter(&out), "");
    pv_location_free(&out);
    pv_history_free(&h);
    free(longf);
}

/* The : commands come from one table: names, aliases, help, dispatch. */
/* Progress rates: nothing until known, then human units and a readable ETA. */
/* Cut text (docs/tui.md "Cut text"): whole when it fits, else a mark where
 * it was cut; a path keeps its file name, a kept tail (a count) stays, and
 * the result never takes more columns than given, wide characters too. */
static void cut_is(const char *s, size_t keep, int w, pv_cut_mode mode, bool fancy, const char *want)
{
    pv_buf out;
    pv_buf_init(&out);
    int used = pv_text_cut(&out, s, strlen(s), keep, w, mode, true, fancy);
    assert_string_equal(pv_buf_cstr(&out), want);
    assert_int_equal(used, (int)pv_text_width(out.data ? out.data : "", out.len, true));
    if (used > (w > 0 ? w : 0))
        fprintf(stderr, "cut %s to %d: %s (%d)\n", s, w, pv_buf_cstr(&out), used);
    assert_true(used <= (w > 0 ? w : 0));
    pv_buf_free(&out);
}

static void test_text_cut_and_wrap(void **state)
{
    (void)state;
    /* the widths of UTF-8 characters are the locale's (wcwidth) */
    char *saved = pv_xstrdup(setlocale(LC_CTYPE, NULL));
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        free(saved);
        skip();
    }
    cut_is("rtos.txt", 0, 8, PV_CUT_END, true, "rtos.txt");
    cut_is("Statistics (as exported)", 0, 10, PV_CUT_END, true, "Statistic\xe2\x80\xa6");
    cut_is("Statistics (as exported)", 0, 10, PV_CUT_END, false, "Statistic>");
    cut_is("Statistics (as exported) (56)", 5, 16, PV_CUT_MIDDLE, true,
           "Stati\xe2\x80\xa6rted) (56)");
    cut_is("Statistics (as exported) (56)", 5, 16, PV_CUT_MIDDLE, false, "Stati~rted) (56)");
    cut_is("/work/tmp/deep/trunc_pair.txt.BIN", 0, 26, PV_CUT_AUTO, true,
           "/work/\xe2\x80\xa6/trunc_pair.txt.BIN");
    cut_is("/work/tmp/deep/trunc_pair.txt.BIN", 0, 19, PV_CUT_AUTO, true,
           "\xe2\x80\xa6trunc_pair.txt.BIN");
    cut_is("/work/tmp/deep/trunc_pair.txt.BIN", 0, 8, PV_CUT_AUTO, true,
           "trunc_p\xe2\x80\xa6");
    cut_is("C:\\src\\demo app\\view.obj", 0, 16, PV_CUT_AUTO, false, "C:\\src~\\view.obj");
    cut_is("a name with / in it", 0, 10, PV_CUT_AUTO, true, "a name wi\xe2\x80\xa6"); /* not a path */
    cut_is("operator/", 0, 5, PV_CUT_AUTO, true, "oper\xe2\x80\xa6");
    cut_is("anything", 3, 1, PV_CUT_END, true, "\xe2\x80\xa6");
    cut_is("anything", 0, 0, PV_CUT_END, true, "");
    cut_is("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 0, 4, PV_CUT_END, true, "\xe6\x97\xa5\xe2\x80\xa6");
    cut_is("bad\x01name", 0, 20, PV_CUT_END, true, "bad\\x01name"); /* escaped, whole */

    const char *m = "unknown column 'x' at column 1; columns: id, routine, module";
    pv_text_line l[8];
    size_t n = pv_text_wrap(m, strlen(m), 20, true, l, 8);
    assert_int_equal(n, 4);
    assert_int_equal((int)l[0].len, 18); /* "unknown column 'x'": at a blank */
    assert_memory_equal(m + l[1].off, "at column 1;", 12);
    for (size_t i = 0; i < n; i++)
        assert_true(pv_text_width(m + l[i].off, l[i].len, true) <= 20);
    n = pv_text_wrap("averyveryverylongword", 21, 8, true, l, 8); /* cut where it must */
    assert_int_equal(n, 3);
    assert_int_equal((int)l[0].len, 8);
    n = pv_text_wrap("one\ntwo", 7, 80, true, l, 8);
    assert_int_equal(n, 2);
    assert_int_equal((int)l[1].off, 4);
    setlocale(LC_CTYPE, saved);
    free(saved);
}

static void test_rate_text(void **state)
{
    (void)state;
    struct {
        double done, total, elapsed;
        const char *unit, *want;
    } cases[] = {
        {1000, 50e6, 0.1, " events", ""},            /* too early: not known */
        {1000, 50e6, 2.0, " events", ""},            /* less than 1 % done */
        {3.6e6, 10.8e6, 1.0, " events", " 3.6 M events/s ETA 2.0 s"},
        {357462982, 714925964, 1.0, "", " 357 M/s ETA 1.0 s"},
        {5e5, 5e7, 1.0, " rows", " 500 k rows/s ETA 1 min 39 s"},
        {1e8, 1e10, 100.0, "", " 1.0 M/s ETA 2 h 45 min"},
        {999, 999, 1.0, "", " 999/s"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pv_buf b;
        pv_buf_init(&b);
        pv_text_rate(&b, cases[i].done, cases[i].total, cases[i].elapsed, cases[i].unit);
        assert_string_equal(pv_buf_cstr(&b), cases[i].want);
        pv_buf_free(&b);
    }
}

/* A view that lists the texts of its string column (column_values): a
 * search for a text none of them holds reads no cell; one they hold finds
 * its row. */
static size_t cv_cells;
static size_t cv_rows(const pv_view *v)
{
    (void)v;
    return 100000;
}
static void cv_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    (void)v;
    cv_cells++;
    out->present = true;
    if (col == 0) {
        out->type = PV_TYPE_INT;
        out->v.i = (int64_t)row;
        return;
    }
    out->type = PV_TYPE_STRING;
    out->v.s.ptr = row == 99990 ? "beta" : "alpha";
    out->v.s.len = strlen(out->v.s.ptr);
}
static bool cv_values(const pv_view *v, size_t col,
                      void (*each)(void *ctx, const char *s, size_t len), void *ctx)
{
    (void)v;
    if (col != 1)
        return false;
    each(ctx, "alpha", 5);
    each(ctx, "beta", 4);
    return true;
}

static void test_search_skips_columns_by_their_values(void **state)
{
    (void)state;
    static const pv_view_ops ops = {.row_count = cv_rows, .cell = cv_cell};
    static const pv_view_hooks hooks = {.column_values = cv_values};
    static pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"kind", "Kind", PV_TYPE_STRING, PV_COL_NAME},
    };
    pv_view v = {.ops = &ops, .id = "kinds", .title = "Kinds", .columns = cols,
                 .column_count = 2, .hooks = &hooks};
    pv_report r;
    pv_report_open(&r, &v, false, NULL);
    cv_cells = 0;
    pv_report_job *j = pv_report_search_job(&r, "ZZQ", 0, 1);
    while (!pv_report_job_step(j, 4096))
        ;
    assert_false(pv_report_job_found(j));
    pv_report_job_free(j);
    assert_int_equal(cv_cells, 0); /* no column can hold it: no cell read */
    j = pv_report_search_job(&r, "ET", 0, 1);
    while (!pv_report_job_step(j, 4096))
        ;
    assert_true(pv_report_job_found(j));
    pv_report_job_free(j);
    assert_int_equal(pv_report_selected(&r), 99990);
    assert_true(cv_cells > 0);
    pv_report_close(&r);
}

static void test_command_table(void **state)
{
    (void)state;
    assert_true(pv_command_count >= 11);
    for (size_t i = 0; i < pv_command_count; i++) {
        const pv_command *c = &pv_commands[i];
        assert_ptr_equal(pv_command_find(c->name, strlen(c->name)), c);
        assert_non_null(c->run);
        assert_true(c->help[0] != '\0');
    }
    const pv_command *q = pv_command_find("q", 1);
    assert_non_null(q);
    assert_string_equal(q->name, "quit");
    assert_null(pv_command_find("qu", 2));
    assert_null(pv_command_find("gotox", 5));
    assert_string_equal(pv_command_find("goto 3", 4)->name, "goto");
    char usage[96];
    pv_command_usage(pv_command_find("goto", 4), usage, sizeof usage);
    assert_string_equal(usage, "goto N|#N|[+-]TIME|A|B|longest");
    pv_command_usage(pv_command_find("range", 5), usage, sizeof usage);
    assert_string_equal(usage, "range");
}

/* ---- the scripted-keys parser */

static void test_keyscript(void **state)
{
    (void)state;
    size_t n, bad = 0;
    pv_script_event *ev = pv_script_parse("# comment\nj j Enter\n:sort hits<Enter>\n<Dump>\n"
                                          "<Resize 60x20>\nCtrl-A\n",
                                          &n, &bad);
    assert_non_null(ev);
    int expect[] = {'j',
                    'j',
                    PV_KEY_ENTER,
                    ':',
                    's',
                    'o',
                    'r',
                    't',
                    ' ',
                    'h',
                    'i',
                    't',
                    's',
                    PV_KEY_ENTER,
                    PV_SCRIPT_DUMP,
                    PV_SCRIPT_RESIZE,
                    1};
    assert_int_equal(n, PV_ARRAY_LEN(expect));
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ev[i].key, expect[i]);
    assert_int_equal(ev[15].width, 60);
    assert_int_equal(ev[15].height, 20);
    free(ev);
    ev = pv_script_parse("j\n:x<Entr>\n", &n, &bad);
    assert_null(ev);
    assert_int_equal(bad, 2);
    /* the mouse: column, line */
    ev = pv_script_parse("<Click 12 3>\n<WheelUp 40 0>\n<WheelDown 0 7>\n", &n, &bad);
    assert_non_null(ev);
    assert_int_equal(n, 3);
    assert_int_equal(ev[0].key, PV_SCRIPT_CLICK);
    assert_int_equal(ev[0].width, 12);
    assert_int_equal(ev[0].height, 3);
    assert_int_equal(ev[1].key, PV_SCRIPT_WHEEL_UP);
    assert_int_equal(ev[1].width, 40);
    assert_int_equal(ev[2].key, PV_SCRIPT_WHEEL_DOWN);
    assert_int_equal(ev[2].height, 7);
    free(ev);
    assert_null(pv_script_parse("<Click 12>\n", &n, &bad));
    assert_null(pv_script_parse("<Click 1 2 3>\n", &n, &bad));
    assert_null(pv_script_parse("<WheelUp -1 2>\n", &n, &bad));
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


static void pv_bit_set_for_test(uint8_t *bits, size_t i)
{
    bits[i >> 3] = (uint8_t)(bits[i >> 3] | (1u << (i & 7)));
}

/* A report's selection is 4 bytes a row (docs/model.md "Row selections"):
 * the buffer that a sort in steps hands over, a filter's, and a tree's
 * visible list hold 32-bit row numbers, not size_t. */
static void test_report_selection_is_4_bytes_a_row(void **state)
{
    (void)state;
    pv_table *t = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    size_t n = 40000;
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, R_ID, (int64_t)i);
        pv_table_set_cstr(t, r, R_MODULE, i % 3 ? "a.dll" : "b.exe");
        pv_table_set_int(t, r, R_HITS, (int64_t)((i * 31) % 97));
    }
    pv_view *v = pv_table_view(t);
    pv_report r;
    pv_report_open(&r, v, false, NULL);
    pv_sort_key key = {R_HITS, true};
    pv_report_set_sort(&r, &key, 1);
    assert_int_equal(r.sel_count, n);
    assert_int_equal(sizeof *r.sel, 4);
    /* the memory really is 4 bytes a row (8 would be size_t) */
    assert_true(malloc_usable_size(r.sel) >= 4 * n);
    assert_true(malloc_usable_size(r.sel) < 6 * n);
    for (size_t i = 1; i < n; i++) {
        pv_cell a, b;
        pv_view_cell(v, r.sel[i - 1], R_HITS, &a);
        pv_view_cell(v, r.sel[i], R_HITS, &b);
        assert_true(a.v.i >= b.v.i);
    }
    pv_query_error err;
    assert_true(pv_report_set_filter(&r, "module = a.dll", &err));
    assert_int_equal(r.sel_count, n - (n + 2) / 3);
    assert_true(malloc_usable_size(r.sel) < 6 * n);
    pv_report_close(&r);
    pv_view_free(v);
}

/* r reverses a sorted report without sorting again: the order is the sort
 * in the other direction (rows with equal keys keep their view order), and
 * no sort runs; a job freed before its end leaves the report as it was. */
static void test_report_reverse_without_sorting(void **state)
{
    (void)state;
    static const char *const mods[] = {"b.dll", "a.exe", "c.sys", NULL};
    pv_table *t = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    size_t n = 5000;
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, R_ID, (int64_t)i);
        if (mods[(i * 7) % 4])
            pv_table_set_cstr(t, r, R_MODULE, mods[(i * 7) % 4]);
        pv_table_set_int(t, r, R_HITS, (int64_t)((i * 31) % 97));
    }
    pv_view *v = pv_table_view(t);
    pv_report r, want;
    pv_report_open(&r, v, false, NULL);
    pv_report_open(&want, v, false, NULL);
    pv_sort_key keys[] = {{R_MODULE, false}, {R_HITS, true}};
    pv_report_set_sort(&r, keys, 2);
    pv_report_move_to(&r, 1234);
    size_t selected = pv_report_selected(&r);
    pv_sort_key flipped[] = {{R_MODULE, true}, {R_HITS, false}};
    pv_report_set_sort(&want, flipped, 2);

    /* stopped half way: nothing changed */
    pv_row *before = malloc(n * sizeof *before);
    assert_non_null(before);
    memcpy(before, r.sel, n * sizeof *before);
    pv_report_job *j = pv_report_reverse_job(&r);
    assert_non_null(j);
    assert_false(pv_report_job_step(j, 3000));
    pv_report_job_free(j);
    assert_memory_equal(r.sel, before, n * sizeof *before);
    assert_false(r.sort[0].descending);

    size_t runs = pv_sort_runs();
    j = pv_report_reverse_job(&r);
    while (!pv_report_job_step(j, 777))
        ;
    pv_report_job_free(j);
    assert_int_equal(pv_sort_runs(), runs); /* no sort ran */
    assert_memory_equal(r.sel, want.sel, n * sizeof *r.sel);
    assert_true(r.sort[0].descending);
    assert_false(r.sort[1].descending);
    assert_int_equal(pv_report_selected(&r), selected); /* the cursor follows its row */

    /* back again in tiny steps: a run of equal keys is turned back across
     * steps (a run of millions cannot be swapped in one); the same order
     * as the sort, the same row selected */
    pv_report_set_sort(&want, keys, 2);
    j = pv_report_reverse_job(&r);
    size_t steps = 0;
    while (!pv_report_job_step(j, 3))
        steps++;
    pv_report_job_free(j);
    assert_true(steps > n);
    assert_memory_equal(r.sel, want.sel, n * sizeof *r.sel);
    assert_false(r.sort[0].descending);
    assert_int_equal(pv_report_selected(&r), selected);
    free(before);
    pv_report_close(&r);
    pv_report_close(&want);
    pv_view_free(v);
}


/* In a collapsed tree, a search finds rows inside collapsed nodes and opens
 * the path to the match; a filter opens the ancestors of its matches and
 * tells them (context) apart from the matches, which the screen dims. */
static void test_collapsed_tree_search_and_filter(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_view *v = f->sets[0]->views[1]; /* main > (parse_args, compute > print_result), atexit */
    pv_report r;
    pv_report_open(&r, v, false, NULL);
    assert_true(pv_report_tree(&r, PV_TREE_COLLAPSE)); /* main */
    assert_int_equal(pv_report_count(&r), 2);
    pv_report_job *j = pv_report_search_job(&r, "print", 0, 1);
    assert_true(pv_report_job_step(j, 100));
    assert_true(pv_report_job_found(j));
    pv_report_job_free(j);
    assert_int_equal(pv_report_selected(&r), 3); /* print_result, shown */
    assert_int_equal(pv_report_count(&r), 5);

    pv_report_move_to(&r, 0);
    assert_true(pv_report_tree(&r, PV_TREE_COLLAPSE));
    pv_report_move_to(&r, 0);
    assert_true(pv_report_tree(&r, PV_TREE_COLLAPSE)); /* compute too */
    pv_report_move_to(&r, 0);
    assert_int_equal(pv_report_count(&r), 2);
    pv_query_error err;
    assert_true(pv_report_set_filter(&r, "print", &err));
    assert_int_equal(r.matched, 1);
    assert_int_equal(pv_report_count(&r), 3); /* main, compute, print_result: open */
    assert_int_equal(pv_report_row(&r, 2), 3);
    assert_true(pv_report_is_context(&r, 0));
    assert_true(pv_report_is_context(&r, 2));
    assert_false(pv_report_is_context(&r, 3));
    assert_true(pv_report_set_filter(&r, "", &err));
    assert_false(pv_report_is_context(&r, 0));
    pv_report_close(&r);
    pv_file_free(f);

    /* On screen: the ancestors kept for context are dimmed, the match not. */
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, "Shift-Tab j j j Tab -\n:filter print<Enter>\nG");
    /* the collapsed main opened to show the match */
    assert_non_null(strstr(s, "filter: print (1)"));
    assert_non_null(strstr(s, "print_result"));
    const pv_grid *g = pv_app_draw(a);
    int main_y = -1, main_x = -1, print_y = -1, print_x = -1;
    for (int y = 0; y < g->height; y++)
        for (int x = 20; x + 5 < g->width; x++) {
            if (g->cells[y * g->width + x].ch == 'm' && g->cells[y * g->width + x + 1].ch == 'a' &&
                g->cells[y * g->width + x + 2].ch == 'i' && main_y < 0)
                main_y = y, main_x = x;
            if (g->cells[y * g->width + x].ch == 'p' && g->cells[y * g->width + x + 1].ch == 'r' &&
                g->cells[y * g->width + x + 2].ch == 'i' && print_y < 0)
                print_y = y, print_x = x;
        }
    free(s);
    s = screen_after(a, "g");
    g = pv_app_draw(a);
    assert_true(main_y > 0 && print_y > main_y);
    assert_int_equal(g->cells[print_y * g->width + print_x].role, PV_ROLE_NORMAL);
    s = (free(s), screen_after(a, "G"));
    g = pv_app_draw(a);
    assert_int_equal(g->cells[main_y * g->width + main_x].role, PV_ROLE_DIM);
    free(s);
    pv_app_free(a);
}

/* ---- the report core over a big view: nothing proportional to the rows
 * happens when a table is opened or scrolled */

static void test_report_big_table(void **state)
{
    (void)state;
    pv_table *t = pv_table_new("big", "Big", routine_cols, R_COUNT);
    pv_table_reserve(t, 200000);
    for (size_t i = 0; i < 200000; i++)
        pv_table_set_int(t, pv_table_add_row(t), R_HITS, (int64_t)i);
    pv_report r;
    pv_report_open(&r, pv_table_view(t), true, "hits,time");
    assert_null(r.sel); /* no materialised row list for a plain table */
    assert_null(r.vis);
    assert_int_equal(pv_report_count(&r), 200000);
    pv_report_move(&r, 150000);
    assert_int_equal(pv_report_selected(&r), 150000);
    size_t shown[8];
    assert_int_equal(pv_report_shown(&r, shown, 8), 2);
    assert_int_equal(shown[0], R_HITS);
    /* A bounded search stops at its limit and says so; a full one finds. */
    bool complete = true;
    assert_int_equal(pv_report_search_some(&r, "199999", 0, 1, 1000, &complete), PV_NO_ROW);
    assert_false(complete);
    assert_int_equal(pv_report_search(&r, "199999", 0, 1), 199999);
    assert_int_equal(pv_report_search_some(&r, "zzz", 0, 1, SIZE_MAX, &complete), PV_NO_ROW);
    assert_true(complete);
    pv_report_close(&r);
}

static void test_report_tree_ops(void **state)
{
    (void)state;
    pv_file *f = make_file();
    pv_view *v = f->sets[0]->views[1];
    pv_report r;
    pv_report_open(&r, v, false, NULL);
    assert_int_equal(pv_report_count(&r), 5);
    assert_true(r.hidden[T_PARENT]); /* PV_COL_HIDDEN */
    assert_true(pv_report_has_kids(&r, 0));
    assert_false(pv_report_has_kids(&r, 1));
    assert_int_equal(pv_report_depth(&r, 3), 2);
    pv_report_move_to(&r, 0);
    assert_true(pv_report_tree(&r, PV_TREE_COLLAPSE));
    assert_int_equal(pv_report_count(&r), 2); /* main, atexit */
    assert_int_equal(pv_report_row(&r, 1), 4);
    /* Selecting a hidden row expands its ancestors. */
    assert_true(pv_report_select_row(&r, 3));
    assert_int_equal(pv_report_count(&r), 5);
    assert_int_equal(pv_report_selected(&r), 3);
    /* Collapse on a leaf goes to its parent. */
    assert_false(pv_report_tree(&r, PV_TREE_COLLAPSE));
    assert_int_equal(pv_report_selected(&r), 2);
    pv_report_close(&r);
    pv_file_free(f);
}

/* Call trees get one node per thread; the calls keep their order. */
static void test_group_by_thread(void **state)
{
    (void)state;
    enum { G_ID, G_ROUTINE, G_THREAD, G_COUNT };
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
        {"thread", "Thread", PV_TYPE_INT, 0},
    };
    /* 0 a(7) > 1 b(7);  2 c(9);  3 d(7) > 4 e(7) */
    static const struct {
        const char *name;
        int parent;
        int thread;
    } rows[] = {
        {"a", -1, 7}, {"b", 0, 7}, {"c", -1, 9}, {"d", -1, 7}, {"e", 3, 7},
    };
    pv_table *t = pv_table_new("call-trace", "Call trace", cols, G_COUNT);
    pv_table_make_tree(t);
    for (size_t i = 0; i < 5; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, G_ID, (int64_t)i + 1);
        pv_table_set_cstr(t, r, G_ROUTINE, rows[i].name);
        pv_table_set_int(t, r, G_THREAD, rows[i].thread);
        if (rows[i].parent >= 0)
            pv_table_set_parent(t, r, (size_t)rows[i].parent);
    }
    pv_view *base = pv_table_view(t);
    pv_view *g = pv_group_by_thread(base);
    assert_non_null(g);
    assert_int_equal(pv_view_rows(g), 7);
    /* Thread 7: a b d e; Thread 9: c. */
    static const char *const expect[] = {"Thread 7", "a", "b", "d", "e", "Thread 9", "c"};
    static const size_t parents[] = {PV_NO_ROW, 0, 1, 0, 3, PV_NO_ROW, 5};
    for (size_t r = 0; r < 7; r++) {
        pv_cell c;
        pv_view_cell(g, r, G_ROUTINE, &c);
        assert_true(c.present);
        assert_int_equal(c.v.s.len, strlen(expect[r]));
        assert_memory_equal(c.v.s.ptr, expect[r], c.v.s.len);
        assert_int_equal(pv_view_parent(g, r), parents[r]);
    }
    pv_cell c;
    pv_view_cell(g, 0, G_ID, &c);
    assert_false(c.present); /* a thread node has no id */
    pv_view_cell(g, 5, G_THREAD, &c);
    assert_int_equal(c.v.i, 9); /* ... but its thread, so a filter on thread keeps it */
    assert_string_equal(g->id, "call-trace");
    pv_view_free(g);
    /* One thread only: no grouping. */
    pv_table_set_int(t, 2, G_THREAD, 7);
    assert_null(pv_group_by_thread(base));
    pv_view_free(base);
}

/* Hooks of a test base view for the grouping: the caller is the tree
 * parent, the time is 100 * row, the lane is the thread (7 -> 0, 9 -> 1). */
static bool tg_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    if (rel != PV_REL_CALLER || pv_view_parent(v, row) == PV_NO_ROW)
        return false;
    out->view = (pv_view *)v;
    out->row = pv_view_parent(v, row);
    return true;
}
static bool tg_time(const pv_view *v, size_t row, int64_t *t)
{
    (void)v;
    *t = 100 * (int64_t)row;
    return true;
}
static size_t tg_lanes(const pv_view *v)
{
    (void)v;
    return 2;
}
static void tg_lane_name(const pv_view *v, size_t lane, pv_cell *out)
{
    (void)v;
    out->type = PV_TYPE_STRING;
    out->present = true;
    out->v.s.ptr = lane ? "nine" : "seven";
    out->v.s.len = strlen(out->v.s.ptr);
}
static size_t tg_row_lane(const pv_view *v, size_t row)
{
    pv_cell c;
    pv_view_cell(v, row, 2, &c);
    return c.v.i == 9 ? 1 : 0;
}

/* The grouped view forwards its base's hooks with the rows mapped both
 * ways (docs/model.md); a thread node is no call (its lane: its thread). */
static void test_group_forwards_hooks(void **state)
{
    (void)state;
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
        {"thread", "Thread", PV_TYPE_INT, 0},
    };
    static const pv_lane_hooks lanes = {.count = tg_lanes, .name = tg_lane_name, .row_lane = tg_row_lane};
    static const pv_view_hooks hooks = {.row_time = tg_time, .related = tg_related,
                                        .lanes = &lanes};
    /* base: 0 a(7) > 1 b(7);  2 c(9) > 3 d(9);  4 e(7) */
    static const int parent[] = {-1, 0, -1, 2, -1}, thread[] = {7, 7, 9, 9, 7};
    pv_table *t = pv_table_new("call-trace", "Call trace", cols, 3);
    pv_table_make_tree(t);
    for (size_t i = 0; i < 5; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)i + 1);
        pv_table_set_cstr(t, r, 1, "x");
        pv_table_set_int(t, r, 2, thread[i]);
        if (parent[i] >= 0)
            pv_table_set_parent(t, r, (size_t)parent[i]);
    }
    pv_view *base = pv_table_view(t);
    base->hooks = &hooks;
    pv_view *g = pv_group_by_thread(base);
    assert_non_null(g);
    /* grouped: 0 [7] 1 a 2 b 3 e 4 [9] 5 c 6 d */
    static const size_t row_of[] = {1, 2, 5, 6, 3};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(pv_group_row_of(g, base, i), row_of[i]);
    assert_int_equal(pv_group_row_of(base, base, 3), 3);
    pv_row_ref ref;
    assert_true(pv_view_related(g, 6, PV_REL_CALLER, &ref)); /* d -> c */
    assert_ptr_equal(ref.view, g);
    assert_int_equal(ref.row, 5);
    assert_false(pv_view_related(g, 4, PV_REL_CALLER, &ref)); /* a node */
    assert_false(pv_view_related(g, 5, PV_REL_CALLER, &ref)); /* c at the top */
    int64_t time = 0;
    assert_true(pv_view_row_time(g, 3, &time)); /* e is base row 4 */
    assert_int_equal(time, 400);
    assert_false(pv_view_row_time(g, 0, &time));
    assert_false(pv_view_time_ordered(g));
    assert_false(pv_view_waits_for_index(g, true)); /* the base has no such hook */
    assert_int_equal(pv_view_lane_count(g), 2);
    assert_int_equal(pv_view_row_lane(g, 4), 1); /* node of thread 9 */
    assert_int_equal(pv_view_row_lane(g, 3), 0);
    pv_cell name;
    pv_view_lane_name(g, 1, &name);
    assert_int_equal(name.v.s.len, 4);
    pv_view_free(g);
    /* without hooks, the grouped view has none either */
    base->hooks = NULL;
    g = pv_group_by_thread(base);
    assert_non_null(g);
    assert_false(pv_view_has_lanes(g));
    assert_false(pv_view_has_time(g));
    pv_view_free(g);
    pv_view_free(base);
}

/* ---- the grouping and the opening in steps (docs/tui.md "Long operations") */

/* column_run of a test tree: a run is the rows with the row's thread up to
 * the next other thread, its code the thread. */
static bool tg_column_run(const pv_view *v, size_t col, size_t row, uint64_t *code, size_t *end)
{
    pv_cell c, d;
    pv_view_cell(v, row, col, &c);
    size_t e = row + 1, n = pv_view_rows(v);
    for (; e < n; e++) {
        pv_view_cell(v, e, col, &d);
        if (d.v.i != c.v.i)
            break;
    }
    *code = (uint64_t)c.v.i;
    *end = e;
    return true;
}

/* A generated call tree of n calls (pre-order, depths up to 6) whose
 * top-level calls go to `threads` threads: in blocks of one thread each
 * (blocks) or switching at random (interleaved).  Routine "rK" for call K. */
static pv_view *tg_tree(size_t n, int threads, bool blocks, unsigned seed)
{
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
        {"thread", "Thread", PV_TYPE_INT, 0},
    };
    pv_table *t = pv_table_new("call-trace", "Call trace", cols, 3);
    pv_table_make_tree(t);
    size_t stack[8], sp = 0;
    int thread = 1;
    char name[32];
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned rnd = (seed >> 16) & 0x7fff;
        size_t depth = sp ? rnd % (sp + 1) : 0;
        if (depth > 5)
            depth = 5;
        sp = depth;
        if (depth == 0) {
            if (blocks)
                thread = 1 + (int)(i * (size_t)threads / n);
            else
                thread = 1 + (int)(rnd % (unsigned)threads);
        }
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)r + 1);
        snprintf(name, sizeof name, "r%zu", r);
        pv_table_set_cstr(t, r, 1, name);
        pv_table_set_int(t, r, 2, thread);
        if (sp > 0)
            pv_table_set_parent(t, r, stack[sp - 1]);
        stack[sp++] = r;
    }
    return pv_table_view(t);
}

/* One step of the grouping within `units`, no deadline. */
static bool tg_group_step(pv_group_job *j, size_t units)
{
    pv_budget b = {units, 0};
    return pv_group_job_step(j, &b);
}

/* The grouping of `base` built in steps of `budget` equals the expected
 * one: top-level subtrees stably partitioned by thread (threads in the
 * order they first appear), a node before each thread. */
static void tg_check_grouping(pv_view *base, size_t budget)
{
    size_t n = pv_view_rows(base);
    pv_group_job *j = pv_group_job_new(base);
    assert_non_null(j);
    size_t steps = 0;
    while (!tg_group_step(j, budget))
        steps++;
    if (budget <= 3)
        assert_true(steps > 1); /* it did take steps */
    pv_view *g = pv_group_job_take(j);
    pv_group_job_free(j);
    assert_non_null(g);
    /* expected: for each thread in order of first appearance, its rows */
    int64_t order[16];
    size_t threads = 0;
    int64_t *thread_of = malloc(n * sizeof *thread_of);
    int64_t cur = 0;
    for (size_t r = 0; r < n; r++) {
        if (pv_view_parent(base, r) == PV_NO_ROW) {
            pv_cell c;
            pv_view_cell(base, r, 2, &c);
            cur = c.v.i;
            size_t k = 0;
            while (k < threads && order[k] != cur)
                k++;
            if (k == threads)
                order[threads++] = cur;
        }
        thread_of[r] = cur;
    }
    assert_int_equal(pv_view_rows(g), n + threads);
    size_t at = 0;
    for (size_t k = 0; k < threads; k++) {
        size_t node = at++;
        pv_cell c;
        pv_view_cell(g, node, 1, &c);
        char label[32];
        snprintf(label, sizeof label, "Thread %lld", (long long)order[k]);
        assert_int_equal(c.v.s.len, strlen(label));
        assert_memory_equal(c.v.s.ptr, label, c.v.s.len);
        assert_int_equal(pv_view_parent(g, node), PV_NO_ROW);
        for (size_t r = 0; r < n; r++) {
            if (thread_of[r] != order[k])
                continue;
            pv_cell id;
            pv_view_cell(g, at, 0, &id);
            assert_int_equal(id.v.i, (int64_t)r + 1);
            assert_int_equal(pv_group_row_of(g, base, r), at);
            size_t p = pv_view_parent(base, r);
            assert_int_equal(pv_view_parent(g, at),
                             p == PV_NO_ROW ? node : pv_group_row_of(g, base, p));
            at++;
        }
    }
    free(thread_of);
    pv_view_free(g);
}

static void test_group_job_steps(void **state)
{
    (void)state;
    static const pv_view_hooks run_hooks = {.column_run = tg_column_run};
    for (int blocks = 0; blocks < 2; blocks++)
        for (int hooked = 0; hooked < 2; hooked++) {
            pv_view *base = tg_tree(3000, 4, blocks, 7u + (unsigned)blocks);
            if (hooked)
                base->hooks = &run_hooks;
            tg_check_grouping(base, 3);
            tg_check_grouping(base, 100);
            tg_check_grouping(base, SIZE_MAX);
            /* stopped half way: freed with what it built */
            pv_group_job *j = pv_group_job_new(base);
            assert_false(tg_group_step(j, 20));
            assert_true(pv_group_job_progress(j) < 1.0);
            pv_group_job_free(j);
            /* stopped after every one of its steps (both phases: SCAN, and
             * FILL when threads interleave): freed with what it built, the
             * base as it was, and the next one groups it the same */
            size_t steps = 0, units = blocks && hooked ? 1 : 11; /* a block: one unit */
            j = pv_group_job_new(base);
            while (!tg_group_step(j, units))
                steps++;
            pv_group_job_free(j);
            print_message("group blocks=%d hooked=%d: %zu steps\n", blocks, hooked, steps);
            assert_true(steps >= 2); /* it was stopped in the middle below */
            for (size_t stop = 0; stop <= steps; stop++) {
                j = pv_group_job_new(base);
                for (size_t k = 0; k < stop; k++)
                    assert_false(tg_group_step(j, units));
                pv_group_job_free(j);
                assert_int_equal(pv_view_rows(base), 3000);
            }
            tg_check_grouping(base, units);
            pv_view_free(base);
        }
}

/* The report's visible list equals the one a full layout gives from the
 * same collapsed bits (pv_report_refresh on a copy of the bits). */
static void tg_check_layout(pv_report *r)
{
    size_t count = pv_report_count(r), cursor = r->cursor;
    size_t selected = pv_report_selected(r);
    pv_row *vis = malloc((count + 1) * sizeof *vis);
    uint32_t *depth = malloc((count + 1) * sizeof *depth);
    memcpy(vis, r->vis, count * sizeof *vis);
    memcpy(depth, r->vis_depth, count * sizeof *depth);
    pv_report_refresh(r);
    assert_int_equal(pv_report_count(r), count);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(r->vis[i], vis[i]);
        assert_int_equal(r->vis_depth[i], depth[i]);
    }
    assert_int_equal(pv_report_selected(r), selected);
    assert_int_equal(r->cursor, cursor);
    free(vis);
    free(depth);
}

/* Selecting a row under collapsed nodes opens only its path and splices the
 * rows shown in (no layout of the whole tree); opening and closing nodes
 * the same: each gives what the full layout gives, with a filter and a sort
 * too (docs/tui.md "Long operations"). */
static void test_report_select_row_incremental(void **state)
{
    (void)state;
    pv_view *base = tg_tree(PV_REPORT_EXPAND_LIMIT + 3000, 4, true, 17u);
    pv_view *g = pv_group_by_thread(base);
    pv_report r;
    pv_report_open(&r, g, true, NULL);
    assert_non_null(r.sub_end);
    assert_int_equal(pv_report_count(&r), 4); /* the threads, collapsed */
    size_t n = pv_view_rows(g);
    unsigned seed = 5;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 40; i++) {
            seed = seed * 1103515245u + 12345u;
            size_t row = r.sel ? r.sel[(seed >> 8) % r.sel_count] : (seed >> 8) % n;
            assert_true(pv_report_select_row(&r, row));
            assert_int_equal(pv_report_selected(&r), row);
            tg_check_layout(&r);
            if (i % 3 == 0) { /* close a node above it, open another */
                pv_report_tree(&r, PV_TREE_COLLAPSE);
                tg_check_layout(&r);
                pv_report_move(&r, -(long)(seed % 7));
                pv_report_tree(&r, PV_TREE_TOGGLE);
                tg_check_layout(&r);
            }
        }
        /* then with a filter (a selection in pre-order), then sorted */
        pv_query_error err;
        if (round == 0)
            assert_true(pv_report_set_filter(&r, "routine ~ /7/", &err));
        else if (round == 1) {
            pv_sort_key key = {1, true};
            pv_report_set_sort(&r, &key, 1);
        }
        assert_non_null(r.sub_end);
        n = pv_view_rows(g);
    }
    pv_report_close(&r);
    pv_view_free(base);
}

/* `*` in steps: everything below the node opens (the subtree's bits
 * cleared, every row of it shown at its depth), as a full layout of the
 * same bits gives it; a stopped expansion changes nothing. */
static void test_report_expand_all_job(void **state)
{
    (void)state;
    pv_view *base = tg_tree(PV_REPORT_EXPAND_LIMIT + 3000, 4, true, 23u);
    pv_view *g = pv_group_by_thread(base);
    pv_report r;
    pv_report_open(&r, g, true, NULL);
    /* a thread node, partly open already: the path to a deep row */
    size_t deep = pv_view_rows(g) / 3;
    assert_true(pv_report_select_row(&r, deep));
    pv_report_move_to(&r, 1);
    size_t node = pv_report_selected(&r), count = pv_report_count(&r);
    assert_true(pv_report_has_kids(&r, node));
    /* stopped half way: nothing changes */
    pv_report_job *j = pv_report_expand_all_job(&r);
    assert_non_null(j);
    assert_false(pv_report_job_step(j, 100));
    pv_report_job_free(j);
    assert_int_equal(pv_report_count(&r), count);
    tg_check_layout(&r);
    /* run in small steps */
    j = pv_report_expand_all_job(&r);
    size_t steps = 0;
    while (!pv_report_job_step(j, 1000))
        steps++;
    pv_report_job_free(j);
    assert_true(steps > 3);
    assert_int_equal(pv_report_selected(&r), node);
    size_t below = 0;
    for (size_t i = r.cursor + 1; i < pv_report_count(&r) && pv_report_depth(&r, i) > 0; i++) {
        assert_false(pv_report_is_collapsed(&r, pv_report_row(&r, i)));
        below++;
    }
    assert_int_equal(below, r.sub_end[node] - node - 1); /* the whole subtree shown */
    tg_check_layout(&r);
    /* pv_report_tree's * is the same job, to its end */
    pv_report_move_to(&r, pv_report_count(&r) - 1);
    while (!pv_report_has_kids(&r, pv_report_selected(&r)))
        pv_report_move(&r, -1);
    assert_true(pv_report_tree(&r, PV_TREE_EXPAND_ALL));
    tg_check_layout(&r);
    pv_report_close(&r);
    pv_view_free(base);
}

/* ---- one test over every kind of report job (docs/tui.md "Long
 * operations"): stopped after any number of steps, a job leaves the report
 * exactly as it was; run to its end, it changes it. */

/* Everything a job may change in a report, as bytes. */
static void tj_snap(const pv_report *r, pv_buf *out)
{
    pv_buf_clear(out);
    pv_buf_append(out, (const char *)&r->view, sizeof r->view);
    size_t rows = r->view ? pv_view_rows(r->view) : 0, bits = rows / 8 + 1;
    size_t counts[] = {r->sel_count, r->vis_count, r->cursor, r->top, r->sort_count, r->matched,
                       r->sub_count, (size_t)(r->sel != NULL), (size_t)(r->vis != NULL)};
    pv_buf_append(out, (const char *)counts, sizeof counts);
    if (r->sel)
        pv_buf_append(out, (const char *)r->sel, r->sel_count * sizeof *r->sel);
    if (r->vis) {
        pv_buf_append(out, (const char *)r->vis, r->vis_count * sizeof *r->vis);
        pv_buf_append(out, (const char *)r->vis_depth, r->vis_count * sizeof *r->vis_depth);
    }
    if (r->sub_end)
        pv_buf_append(out, (const char *)r->sub_end, r->sub_count * sizeof *r->sub_end);
    pv_buf_append(out, (const char *)r->sort, r->sort_count * sizeof *r->sort);
    pv_buf_puts(out, r->filter ? r->filter : "(closed)");
    const uint8_t *masks[] = {r->collapsed, r->has_kids, r->self_match};
    for (size_t m = 0; m < PV_ARRAY_LEN(masks); m++)
        if (masks[m])
            pv_buf_append(out, (const char *)masks[m], bits);
}

typedef struct tj_kind {
    const char *name;
    bool tree; /* over the tree (else the table) */
    bool closed; /* the report is opened by the job */
    pv_report_job *(*make)(pv_report *r, pv_view *v);
} tj_kind;

static pv_report_job *tj_search(pv_report *r, pv_view *v)
{
    (void)v;
    return pv_report_search_job(r, pv_view_is_tree(r->view) ? "r1999" : "2501", 1, 1);
}
static pv_report_job *tj_filter(pv_report *r, pv_view *v)
{
    (void)v;
    pv_query_error err;
    return pv_report_select_job(r, pv_view_is_tree(r->view) ? "routine ~ /7/" : "hits > 40",
                                r->sort, r->sort_count, &err);
}
static pv_report_job *tj_sort(pv_report *r, pv_view *v)
{
    (void)v;
    pv_query_error err;
    pv_sort_key keys[] = {{1, true}, {0, false}};
    return pv_report_select_job(r, r->filter, keys, 2, &err);
}
static pv_report_job *tj_reverse(pv_report *r, pv_view *v)
{
    (void)v;
    return pv_report_reverse_job(r);
}
static pv_report_job *tj_open(pv_report *r, pv_view *v)
{
    return pv_report_open_job(r, v, true, NULL);
}
static pv_report_job *tj_expand(pv_report *r, pv_view *v)
{
    (void)v;
    size_t i = 0; /* the first node with children */
    while (i < pv_report_count(r) && !pv_report_has_kids(r, pv_report_row(r, i)))
        i++;
    pv_report_move_to(r, i);
    return pv_report_expand_all_job(r);
}

/* The report a job of `kind` starts from: a filter and a sort in force
 * (not the opening's), the third row selected; closed for an opening. */
static void tj_prepare(pv_report *r, const tj_kind *kind, pv_view *v)
{
    memset(r, 0, sizeof *r);
    if (kind->closed)
        return;
    pv_report_open(r, kind->tree ? pv_group_by_thread(v) : v, kind->tree, NULL);
    pv_query_error err;
    pv_sort_key key = {0, true};
    assert_true(pv_report_set_filter(r, kind->tree ? "routine ~ /1/" : "hits < 90", &err));
    pv_report_set_sort(r, &key, 1);
    pv_report_move_to(r, 2);
}

static void test_report_jobs_cancel_anywhere(void **state)
{
    (void)state;
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"module", "Module", PV_TYPE_STRING, PV_COL_NAME},
        {"hits", "Hits", PV_TYPE_INT, 0},
    };
    pv_table *t = pv_table_new("routines", "Routines", cols, 3);
    static const char *const mods[] = {"mod-a", "mod-b", "mod-c", NULL};
    for (size_t i = 0; i < 3000; i++) {
        size_t row = pv_table_add_row(t);
        pv_table_set_int(t, row, 0, (int64_t)i);
        if (mods[(i * 7) % 4])
            pv_table_set_cstr(t, row, 1, mods[(i * 7) % 4]);
        pv_table_set_int(t, row, 2, (int64_t)((i * 31) % 97));
    }
    pv_view *table = pv_table_view(t);
    pv_view *tree = tg_tree(PV_REPORT_EXPAND_LIMIT + 2000, 3, false, 29u);
    static const tj_kind kinds[] = {
        {"search table", false, false, tj_search}, {"search tree", true, false, tj_search},
        {"filter table", false, false, tj_filter}, {"filter tree", true, false, tj_filter},
        {"sort table", false, false, tj_sort},     {"sort tree", true, false, tj_sort},
        {"reverse table", false, false, tj_reverse}, {"reverse tree", true, false, tj_reverse},
        {"open tree", true, true, tj_open},        {"expand tree", true, false, tj_expand},
    };
    pv_buf before, after;
    pv_buf_init(&before);
    pv_buf_init(&after);
    for (size_t k = 0; k < PV_ARRAY_LEN(kinds); k++) {
        const tj_kind *kind = &kinds[k];
        pv_view *v = kind->tree ? tree : table;
        pv_report r;
        tj_prepare(&r, kind, v);
        /* the steps the whole job takes in small budgets */
        size_t budget = kind->make == tj_search ? 20 : kind->tree ? 3000 : 400, steps = 0;
        pv_report_job *j = kind->make(&r, v);
        assert_non_null(j);
        tj_snap(&r, &before);
        while (!pv_report_job_step(j, budget))
            steps++;
        pv_report_job_free(j);
        tj_snap(&r, &after);
        print_message("%s: %zu steps\n", kind->name, steps);
        assert_true(steps >= 3); /* stopped in the middle of its work below */
        assert_true(before.len != after.len || memcmp(before.data, after.data, before.len) != 0);
        /* back to the state before, then stopped after each number of
         * steps: nothing changed */
        pv_report_close(&r);
        tj_prepare(&r, kind, v);
        for (size_t stop = 0; stop < steps; stop++) {
            j = kind->make(&r, v);
            tj_snap(&r, &before);
            for (size_t s = 0; s < stop; s++)
                assert_false(pv_report_job_step(j, budget));
            pv_report_job_free(j); /* the one cancel path: Esc, Ctrl-C, a newer job */
            tj_snap(&r, &after);
            assert_int_equal(after.len, before.len);
            assert_memory_equal(after.data, before.data, before.len);
        }
        pv_report_close(&r);
    }
    pv_buf_free(&before);
    pv_buf_free(&after);
    pv_view_free(table);
    pv_view_free(tree);
}

/* ---- the viewer's jobs (jobs.h): each kind a key starts on the Report,
 * stopped with Esc after a number of its steps, leaves the Report as it was
 * (the one cancel path); run to its end, it changes it.  A view over
 * PV_BIG_VIEW rows, so that the jobs run in steps of a fixed number of
 * rows.  (Every kind of report job after each of its steps:
 * test_report_jobs_cancel_anywhere; the scan of :goto is time-sliced, and
 * its first slice may see every row.) */

static pv_app *vj_app(void)
{
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
        {"hits", "Hits", PV_TYPE_INT, 0},
        {"time", "Time", PV_TYPE_TIME, 0},
    };
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/big.prof");
    f->format = "test";
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Run 1", "test");
    pv_table *t = pv_table_new("rows", "Rows", cols, 4);
    char name[32];
    for (size_t i = 0; i < PV_BIG_VIEW + 50000; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)i);
        snprintf(name, sizeof name, "n%zu", i);
        pv_table_set_cstr(t, r, 1, name);
        pv_table_set_int(t, r, 2, (int64_t)((i * 31) % 97));
        pv_table_set_int(t, r, 3, (int64_t)i * 1000);
    }
    pv_set_add_view(set, pv_table_view(t));
    /* a call tree whose flame graph is built beside the one job: loop >
     * leaf, in steps of the test option flame-slice's rows */
    static const pv_column fcols[] = {
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
        {"time", "Time", PV_TYPE_TIME, 0},
        {"time_with_children", "With children", PV_TYPE_TIME, 0},
    };
    pv_table *ft = pv_table_new("call-trace", "Call trace", fcols, 3);
    pv_table_make_tree(ft);
    for (size_t i = 0; i < PV_BIG_VIEW + 50000; i++) {
        size_t r = pv_table_add_row(ft);
        pv_table_set_cstr(ft, r, 0, i % 2 ? "leaf" : "loop");
        pv_table_set_int(ft, r, 1, 1);
        pv_table_set_int(ft, r, 2, i % 2 ? 1 : 2);
        if (i % 2)
            pv_table_set_parent(ft, r, r - 1);
    }
    pv_set_add_view(set, pv_table_view(ft));
    pv_set_add_view(set, tg_tree(PV_BIG_VIEW + 50000, 3, false, 31u)); /* opened in steps */
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    pv_test_set(&o.load.test, PV_TEST_FLAME_SLICE, 40000);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 100, 30);
    a->jobs.fixed = true; /* steps of a fixed number of rows, no deadline */
    a->jobs.budget = 20000;
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    return a;
}

static void vj_type(pv_app *a, const char *keys)
{
    for (const char *k = keys; *k; k++) {
        pv_app_draw(a);
        pv_app_key(a, *k == '\n' ? PV_KEY_ENTER : *k);
    }
}

/* The one job, or a job beside it. */
static pv_job *vj_job(const pv_app *a)
{
    pv_job *j = pv_jobs_get(a, -1);
    for (int k = 0; k < PV_JOB_KINDS && !j; k++)
        j = pv_jobs_beside(a, k);
    return j;
}

/* The file :copy FILE writes (test_app_jobs_cancel). */
static char vj_copy_path[300];

/* What a job may change: the Report, the graph shown, the file copied to. */
static void vj_snap(pv_app *a, pv_buf *out)
{
    tj_snap(pv_app_report(a), out);
    struct stat st;
    pv_buf_putc(out, vj_copy_path[0] && stat(vj_copy_path, &st) == 0 ? 'F' : '-');
    const void *graph[] = {a->flame.fl, a->flame.tree};
    pv_buf_append(out, (const char *)&a->flame.mode, sizeof a->flame.mode);
    pv_buf_append(out, (const char *)graph, sizeof graph);
    pv_buf_puts(out, pv_buf_cstr(&a->flame.filter));
}

/* Runs the job to its end; returns its steps. */
static size_t vj_finish(pv_app *a)
{
    size_t steps = 0;
    while (vj_job(a)) {
        pv_app_draw(a);
        pv_app_work(a);
        steps++;
    }
    return steps;
}

static void test_app_jobs_cancel(void **state)
{
    (void)state;
    static const struct {
        const char *name, *prepare, *keys;
        int kind;
        bool graph; /* on the call tree of the flame graph */
    } kinds[] = {
        {"sort", "", ":sort hits\n", PV_JOB_SORT, false},
        {"filter", ":sort hits\n", ":filter hits > 40\n", PV_JOB_FILTER, false},
        {"search", "", "/n249990\n", PV_JOB_SEARCH, false},
        {"reverse", ":sort hits\n", "r", PV_JOB_REVERSE, false},
        {"flame graph", "", "F", PV_JOB_BUILD, true},
        {"copy", "", NULL, PV_JOB_COPY, false}, /* :copy FILE */
    };
    char dir[] = "/tmp/profview-copy-XXXXXX", copy_keys[400];
    assert_non_null(mkdtemp(dir));
    snprintf(vj_copy_path, sizeof vj_copy_path, "%s/view.tsv", dir);
    snprintf(copy_keys, sizeof copy_keys, ":copy %s\n", vj_copy_path);
    pv_buf before, after;
    pv_buf_init(&before);
    pv_buf_init(&after);
    for (size_t k = 0; k < PV_ARRAY_LEN(kinds); k++) {
        const char *keys = kinds[k].keys ? kinds[k].keys : copy_keys;
        /* to its end: the report changes */
        pv_app *a = vj_app();
        if (kinds[k].graph)
            pv_app_show_item(a, a->item_count - 2);
        vj_type(a, kinds[k].prepare);
        vj_finish(a);
        vj_snap(a, &before);
        vj_type(a, keys);
        pv_job *j = vj_job(a);
        assert_non_null(j);
        assert_int_equal(j->kind, kinds[k].kind);
        size_t steps = vj_finish(a);
        vj_snap(a, &after);
        print_message("%s: %zu steps\n", kinds[k].name, steps);
        assert_true(steps >= 3);
        assert_true(before.len != after.len || memcmp(before.data, after.data, before.len) != 0);
        pv_app_free(a);
        unlink(vj_copy_path);
        /* stopped after 0, 1, 2... steps: as it was */
        a = vj_app();
        if (kinds[k].graph)
            pv_app_show_item(a, a->item_count - 2);
        vj_type(a, kinds[k].prepare);
        vj_finish(a);
        vj_snap(a, &before);
        size_t stops[] = {0, 1, 2, steps / 2, steps ? steps - 1 : 0};
        for (size_t s = 0; s < PV_ARRAY_LEN(stops); s++) {
            vj_type(a, keys);
            for (size_t i = 0; i < stops[s] && vj_job(a); i++)
                pv_app_work(a);
            assert_non_null(vj_job(a));
            pv_app_key(a, PV_KEY_ESC);
            assert_null(vj_job(a));
            vj_snap(a, &after);
            assert_int_equal(after.len, before.len);
            assert_memory_equal(after.data, before.data, before.len);
        }
        pv_app_free(a);
    }
    unlink(vj_copy_path);
    rmdir(dir);
    vj_copy_path[0] = '\0';
    pv_buf_free(&before);
    pv_buf_free(&after);
}

/* The same for the indexing job beside it (PV_JOB_INDEX): a file indexed
 * in units of its own, stopped with Ctrl-C after each number of its steps,
 * keeps what it has indexed (no slice runs after) and its format's
 * threads pause; `:index` goes on from there to the end. */
typedef struct vj_counted {
    uint64_t done, total;
    int paused; /* index_pause(true) calls minus index_pause(false) calls */
} vj_counted;

static vj_counted vj_count;

static bool vj_index_step(pv_file *f, size_t budget)
{
    (void)f;
    vj_count.done += vj_count.total - vj_count.done < budget ? vj_count.total - vj_count.done
                                                             : budget;
    return vj_count.done == vj_count.total;
}

static bool vj_index_progress(const pv_file *f, uint64_t *done, uint64_t *total)
{
    (void)f;
    *done = vj_count.done;
    *total = vj_count.total;
    return vj_count.done == vj_count.total;
}

static void vj_index_pause(pv_file *f, bool pause)
{
    (void)f;
    vj_count.paused += pause ? 1 : -1;
}

static pv_app *vj_index_app(void)
{
    static const pv_file_hooks hooks = {.index_step = vj_index_step,
                                        .index_progress = vj_index_progress,
                                        .index_unit = "units",
                                        .index_pause = vj_index_pause};
    static const pv_column cols[] = {{"id", "Id", PV_TYPE_INT, 0}};
    vj_count = (vj_counted){0, 70000, 0};
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/counted.prof");
    f->format = "test";
    f->hooks = &hooks;
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Run 1", "test");
    pv_table *t = pv_table_new("rows", "Rows", cols, 1);
    pv_table_set_int(t, pv_table_add_row(t), 0, 1);
    pv_set_add_view(set, pv_table_view(t));
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    pv_test_set(&o.load.test, PV_TEST_INDEX_SLICE, 10000); /* units per step */
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 100, 30);
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    return a;
}

static void test_app_index_job_cancel(void **state)
{
    (void)state;
    pv_app *a = vj_index_app();
    size_t steps = 0;
    while (pv_app_index_slice(a))
        steps++;
    assert_int_equal(vj_count.done, vj_count.total);
    assert_null(pv_jobs_beside(a, PV_JOB_INDEX)); /* it ended with the index */
    pv_app_free(a);
    assert_int_equal(steps, 7);
    for (size_t stop = 0; stop < steps; stop++) {
        a = vj_index_app();
        for (size_t k = 0; k < stop; k++)
            assert_true(pv_app_index_slice(a));
        assert_true(stop == 0 || pv_jobs_beside(a, PV_JOB_INDEX));
        uint64_t done = vj_count.done;
        assert_int_equal(done, stop * 10000);
        pv_app_draw(a);
        pv_app_key(a, PV_KEY_CTRL('c'));
        assert_false(pv_app_done(a));
        assert_null(pv_jobs_beside(a, PV_JOB_INDEX));
        assert_false(pv_app_indexing(a));
        assert_int_equal(vj_count.paused, 1);
        /* nothing runs any more: what was indexed stays */
        assert_false(pv_app_index_slice(a));
        pv_app_work(a);
        assert_int_equal(vj_count.done, done);
        /* :index goes on to the end */
        vj_type(a, ":index\n");
        assert_int_equal(vj_count.paused, 0);
        while (pv_app_index_slice(a))
            ;
        assert_int_equal(vj_count.done, vj_count.total);
        pv_app_free(a);
    }
}

/* The same for the jobs of a big call tree: its opening (Esc goes back
 * to the view shown before, the tree stays closed) and `*` on a thread
 * node (the tree stays as it was). */
static void vj_tree_snap(pv_app *a, size_t item, pv_buf *out)
{
    pv_buf_clear(out);
    size_t state[] = {a->loc.item, (size_t)a->items[item].opened};
    pv_buf_append(out, (const char *)state, sizeof state);
    if (a->items[item].opened)
        tj_snap(&a->items[item].report, out);
}

static void test_app_tree_jobs_cancel(void **state)
{
    (void)state;
    pv_buf before, after, tmp;
    pv_buf_init(&before);
    pv_buf_init(&after);
    pv_buf_init(&tmp);
    pv_app *a = vj_app();
    size_t tree = a->item_count - 1; /* the call tree's item */
    /* the opening: to its end, then stopped after 0, 1, 2... steps */
    vj_tree_snap(a, tree, &before);
    pv_app_show_item(a, tree);
    assert_non_null(pv_jobs_get(a, PV_JOB_OPEN));
    size_t steps = vj_finish(a);
    print_message("open: %zu steps\n", steps);
    assert_true(steps >= 3 && a->items[tree].opened);
    pv_app_free(a);
    a = vj_app();
    vj_tree_snap(a, tree, &before);
    size_t stops[] = {0, 1, 2, steps / 2, steps - 1};
    for (size_t s = 0; s < PV_ARRAY_LEN(stops); s++) {
        pv_app_show_item(a, tree);
        for (size_t i = 0; i < stops[s]; i++)
            pv_app_work(a);
        assert_non_null(pv_jobs_get(a, PV_JOB_OPEN));
        pv_app_key(a, PV_KEY_ESC);
        assert_null(pv_jobs_get(a, -1));
        vj_tree_snap(a, tree, &after);
        assert_int_equal(after.len, before.len);
        assert_memory_equal(after.data, before.data, before.len);
    }
    /* `*` on the first thread node of the opened tree */
    pv_app_show_item(a, tree);
    vj_finish(a);
    assert_true(a->items[tree].opened);
    pv_report *r = &a->items[tree].report;
    pv_report_move_to(r, 0);
    vj_tree_snap(a, tree, &before);
    vj_type(a, "*");
    assert_non_null(pv_jobs_get(a, PV_JOB_EXPAND));
    steps = vj_finish(a);
    print_message("expand: %zu steps\n", steps);
    vj_tree_snap(a, tree, &tmp);
    assert_true(steps >= 3 && (tmp.len != before.len || memcmp(tmp.data, before.data, tmp.len)));
    pv_app_free(a);
    a = vj_app();
    pv_app_show_item(a, tree);
    vj_finish(a);
    r = &a->items[tree].report;
    pv_report_move_to(r, 0);
    vj_tree_snap(a, tree, &before);
    size_t xstops[] = {0, 1, 2, steps / 2, steps - 1};
    for (size_t s = 0; s < PV_ARRAY_LEN(xstops); s++) {
        vj_type(a, "*");
        for (size_t i = 0; i < xstops[s]; i++)
            pv_app_work(a);
        assert_non_null(pv_jobs_get(a, PV_JOB_EXPAND));
        pv_app_key(a, PV_KEY_ESC);
        vj_tree_snap(a, tree, &after);
        assert_int_equal(after.len, before.len);
        assert_memory_equal(after.data, before.data, before.len);
    }
    pv_app_free(a);
    pv_buf_free(&before);
    pv_buf_free(&after);
    pv_buf_free(&tmp);
}

/* A step also ends at its deadline whatever its budget (a budget counts
 * rows, and a row may be slow): a deadline already past stops each step
 * after a little work, and the job still ends with the right result. */
static void test_report_job_deadline(void **state)
{
    (void)state;
    pv_view *base = tg_tree(60000, 3, true, 19u);
    /* the opening: grouping and layout */
    pv_report r;
    memset(&r, 0, sizeof r);
    pv_report_job *j = pv_report_open_job(&r, base, true, NULL);
    size_t steps = 0;
    for (;;) {
        pv_report_job_deadline(j, pv_work_clock() - 1);
        if (pv_report_job_step(j, SIZE_MAX))
            break;
        steps++;
    }
    pv_report_job_free(j);
    assert_true(steps > 3); /* one unbounded budget would have done it at once */
    assert_int_equal(pv_report_count(&r), 3);
    /* a filter and a sort of the tree */
    pv_query_error err;
    pv_sort_key key = {1, true};
    j = pv_report_select_job(&r, "routine ~ /1/", &key, 1, &err);
    steps = 0;
    for (;;) {
        pv_report_job_deadline(j, pv_work_clock() - 1);
        if (pv_report_job_step(j, SIZE_MAX))
            break;
        steps++;
    }
    pv_report_job_free(j);
    assert_true(steps > 3);
    pv_report want;
    pv_report_open(&want, r.view, false, NULL);
    assert_true(pv_report_set_filter(&want, "routine ~ /1/", &err));
    pv_report_set_sort(&want, &key, 1);
    assert_int_equal(r.sel_count, want.sel_count);
    assert_memory_equal(r.sel, want.sel, r.sel_count * sizeof *r.sel);
    pv_report_close(&want);
    pv_report_close(&r);
    pv_view_free(base);
}

/* winIDEA's call trace answers column_run on its context column: every run
 * holds one context's calls (cells agree), runs cover the calls, and the
 * grouping of the real tree equals the grouping by cells (the same tree
 * with the hook hidden). */
static void test_call_trace_column_run(void **state)
{
    (void)state;
    static const char *const samples[] = {"rtos.txt", "rtos-v11.txt", "rtos-ctx.txt"};
    size_t grouped = 0;
    for (size_t s = 0; s < sizeof samples / sizeof *samples; s++) {
        char *path = pv_xasprintf("%s/sample-data/%s", PV_SOURCE_DIR, samples[s]);
        pv_load_options o;
        pv_load_options_init(&o);
        pv_load_status st;
        pv_file *f = pv_load_file(path, &o, &st);
        assert_non_null(f);
        pv_view *ct = NULL;
        for (size_t i = 0; i < f->sets[0]->view_count; i++)
            if (strcmp(f->sets[0]->views[i]->id, "call-trace") == 0)
                ct = f->sets[0]->views[i];
        assert_non_null(ct);
        size_t col = pv_view_column(ct, "thread"), n = pv_view_rows(ct), runs = 0;
        assert_true(n > 0);
        for (size_t r = 0; r < n;) {
            uint64_t code;
            size_t end;
            assert_true(pv_view_column_run(ct, col, r, &code, &end));
            assert_true(end > r && end <= n);
            pv_cell first, c;
            pv_view_cell(ct, r, col, &first);
            for (size_t k = r; k < end; k++) {
                pv_view_cell(ct, k, col, &c);
                assert_int_equal(c.v.s.len, first.v.s.len);
                assert_memory_equal(c.v.s.ptr, first.v.s.ptr, c.v.s.len);
            }
            r = end;
            runs++;
        }
        assert_false(pv_view_column_run(ct, pv_view_column(ct, "routine"), 0, &(uint64_t){0},
                                        &(size_t){0}));
        pv_view *g = pv_group_by_thread(ct);
        const pv_view_hooks *hooks = ct->hooks;
        pv_view_hooks plain = *hooks;
        plain.column_run = NULL;
        ct->hooks = &plain;
        pv_view *h = pv_group_by_thread(ct);
        ct->hooks = hooks;
        assert_int_equal(g != NULL, h != NULL);
        assert_int_equal(g != NULL, runs > 1);
        if (g) {
            grouped++;
            assert_int_equal(pv_view_rows(g), pv_view_rows(h));
            for (size_t r = 0; r < pv_view_rows(g); r++) {
                pv_cell a, b;
                pv_view_cell(g, r, 0, &a);
                pv_view_cell(h, r, 0, &b);
                assert_int_equal(a.present, b.present);
                assert_int_equal(a.v.i, b.v.i);
                assert_int_equal(pv_view_parent(g, r), pv_view_parent(h, r));
            }
            pv_view_free(g);
            pv_view_free(h);
        }
        pv_file_free(f);
        free(path);
    }
    assert_true(grouped > 0);
}

/* pv_report_open_job in small steps gives the report pv_report_open gives
 * (over the grouped view): the same visible rows, depths and bits. */
static void tg_check_open(pv_view *base, size_t budget)
{
    pv_view *grouped = pv_group_by_thread(base);
    assert_non_null(grouped);
    pv_report want;
    pv_report_open(&want, grouped, true, NULL);
    pv_report got;
    memset(&got, 0, sizeof got);
    pv_report_job *j = pv_report_open_job(&got, base, true, NULL);
    size_t steps = 0;
    while (!pv_report_job_step(j, budget)) {
        assert_null(got.view); /* not open until the last step */
        assert_true(pv_report_job_progress(j) < 1.0);
        steps++;
    }
    pv_report_job_free(j);
    assert_true(steps > 2);
    assert_non_null(got.view);
    assert_true(got.owned);
    size_t rows = pv_view_rows(grouped);
    assert_int_equal(pv_view_rows(got.view), rows);
    assert_int_equal(pv_report_count(&got), pv_report_count(&want));
    for (size_t i = 0; i < pv_report_count(&want); i++) {
        assert_int_equal(pv_report_row(&got, i), pv_report_row(&want, i));
        assert_int_equal(pv_report_depth(&got, i), pv_report_depth(&want, i));
    }
    for (size_t r = 0; r < rows; r++) {
        assert_int_equal(pv_report_has_kids(&got, r), pv_report_has_kids(&want, r));
        assert_int_equal(pv_report_is_collapsed(&got, r), pv_report_is_collapsed(&want, r));
    }
    pv_report_close(&got);
    pv_report_close(&want);
}

static void test_report_open_job(void **state)
{
    (void)state;
    /* small: fully expanded; big: collapsed to the threads */
    pv_view *small = tg_tree(3000, 3, true, 11u);
    tg_check_open(small, 64);
    pv_view *big = tg_tree(PV_REPORT_EXPAND_LIMIT + 5000, 5, false, 13u);
    tg_check_open(big, 4096);
    /* stopped: the report stays closed, the grouped view is freed */
    pv_report r;
    memset(&r, 0, sizeof r);
    pv_report_job *j = pv_report_open_job(&r, big, true, NULL);
    assert_false(pv_report_job_step(j, 4096));
    pv_report_job_free(j);
    assert_null(r.view);
    pv_view_free(small);
    pv_view_free(big);
}

/* Loading runs in the background: while the loader waits (here on a FIFO
 * with no writer yet) the screen is drawn and says what is loading. */
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

static void test_loading_in_background(void **state)
{
    (void)state;
    char dir[] = "/tmp/pv-fifo-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/slow.txt", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
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
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 80, 24);
    assert_true(pv_app_loading(a));
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), " Loading slow.txt"));
    assert_non_null(strstr(pv_buf_cstr(&out), "(Ctrl-C cancels)"));
    assert_non_null(strstr(pv_buf_cstr(&out), "loading slow.txt")); /* Explorer */
    /* Keys still work while loading. */
    pv_app_key(a, '?');
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Help: keys"));
    /* The writer comes and goes: an empty file, which no loader takes. */
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    close(fd);
    pv_app_wait_loaded(a);
    assert_false(pv_app_loading(a));
    assert_int_equal(pv_app_file_count(a), 0);
    assert_non_null(strstr(pv_app_load_errors(a), "slow.txt"));
    pv_buf_free(&out);
    pv_app_free(a);
    unlink(path);
    rmdir(dir);
}

/* Sorting or filtering a big view first shows that it is working, then
 * does the work (the terminal loop paints between the two). */
static void test_big_sort_shows_progress(void **state)
{
    (void)state;
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("big");
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Big", "test");
    pv_table *t = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    size_t rows = 250000;
    pv_table_reserve(t, rows);
    for (size_t i = 0; i < rows; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, R_ID, (int64_t)i);
        pv_table_set_int(t, r, R_HITS, (int64_t)((i * 7919) % rows));
        pv_table_set_int(t, r, R_TIME, (int64_t)i * 1000); /* not empty: shown */
    }
    pv_set_add_view(set, pv_table_view(t));
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 80, 24);
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    pv_app_key(a, ':');
    const char *cmd = "sort hits:desc";
    for (const char *c = cmd; *c; c++)
        pv_app_key(a, *c);
    pv_app_key(a, PV_KEY_ENTER);
    assert_true(pv_app_has_work(a));
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Sorting by hits:desc... 0% (Esc stops)"));
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_app_key(a, 'g');
    pv_app_key(a, 's'); /* sort by the next column: id, a big view */
    assert_true(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Sorting by time:desc..."));
    while (pv_app_has_work(a))
        pv_app_work(a);
    assert_false(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "sort: time:desc"));
    pv_app_key(a, 'f');
    pv_app_key(a, 'h');
    pv_app_key(a, 'i');
    pv_app_key(a, 't');
    pv_app_key(a, 's');
    pv_app_key(a, '<');
    pv_app_key(a, '5');
    pv_app_key(a, PV_KEY_ENTER);
    assert_true(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Filtering... 0% (Esc stops)"));
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "5 of 250000 rows match"));
    assert_non_null(strstr(pv_buf_cstr(&out), "row 1/5"));
    pv_buf_free(&out);
    pv_app_free(a);
}

/* Expand and collapse splice the visible list; after any sequence it equals
 * the list rebuilt from scratch. */
static void test_report_splice_matches_rebuild(void **state)
{
    (void)state;
    pv_table *t = pv_table_new("tree", "Tree", trace_cols, T_COUNT);
    pv_table_make_tree(t);
    size_t path[64], depth = 0;
    unsigned seed = 12345;
    for (size_t i = 0; i < 400; i++) {
        size_t r = pv_table_add_row(t);
        seed = seed * 1103515245u + 12345u;
        size_t pop = (seed >> 16) % 3;
        while (pop-- && depth)
            depth--;
        if (depth)
            pv_table_set_parent(t, r, path[depth - 1]);
        if (depth < 64)
            path[depth++] = r;
    }
    pv_report r, fresh;
    pv_report_open(&r, pv_table_view(t), true, NULL);
    for (int step = 0; step < 300; step++) {
        seed = seed * 1103515245u + 12345u;
        pv_report_move_to(&r, (seed >> 8) % pv_report_count(&r));
        pv_tree_op op = (pv_tree_op)((seed >> 20) % 4);
        pv_report_tree(&r, op);
        pv_report_open(&fresh, r.view, false, NULL);
        memcpy(fresh.collapsed, r.collapsed, pv_view_rows(r.view) / 8 + 1);
        pv_report_refresh(&fresh);
        assert_int_equal(fresh.vis_count, r.vis_count);
        assert_memory_equal(fresh.vis, r.vis, r.vis_count * sizeof *r.vis);
        assert_memory_equal(fresh.vis_depth, r.vis_depth, r.vis_count * sizeof *r.vis_depth);
        pv_report_close(&fresh);
    }
    pv_report_close(&r);
}

static size_t (*layout_parent)(const pv_view *v, size_t row);
static size_t parent_calls;
static size_t counting_parent(const pv_view *v, size_t row)
{
    parent_calls++;
    return layout_parent(v, row);
}

/* A tree's filter and sort lay out the new visible list in job steps: the
 * report is untouched until the finishing step (a job freed half way
 * leaves it as it was), and the list laid out in steps is the one a
 * rebuild in one pass gives, with the selected row kept and its ancestors
 * opened. */
static void test_tree_layout_in_steps(void **state)
{
    (void)state;
    static const char *const names[] = {"alpha", "beta", "gamma", "delta"};
    pv_table *t = pv_table_new("tree", "Tree", trace_cols, T_COUNT);
    pv_table_make_tree(t);
    size_t path[64], depth = 0;
    unsigned seed = 4242;
    size_t n = 3000;
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        seed = seed * 1103515245u + 12345u;
        size_t pop = (seed >> 16) % 3;
        while (pop-- && depth)
            depth--;
        if (depth)
            pv_table_set_parent(t, r, path[depth - 1]);
        if (depth < 64)
            path[depth++] = r;
        pv_table_set_int(t, r, T_ID, (int64_t)i);
        pv_table_set_cstr(t, r, T_ROUTINE, names[(seed >> 20) % 4]);
        pv_table_set_int(t, r, T_TIME, (int64_t)((seed >> 8) % 1000));
    }
    /* the tree's parent calls counted: the layout reads every row's parent */
    pv_view *v = pv_table_view(t);
    static pv_view_ops counted;
    counted = *v->ops;
    layout_parent = v->ops->parent;
    counted.parent = counting_parent;
    v->ops = &counted;
    pv_report r;
    pv_report_open(&r, v, true, NULL);
    /* some nodes collapsed, a row deep down selected */
    for (size_t i = 0; i < n; i += 7)
        pv_bit_set_for_test(r.collapsed, i);
    pv_report_refresh(&r);
    pv_report_move_to(&r, r.vis_count / 2);
    size_t selected = pv_report_selected(&r);
    pv_row *vis_before = malloc(r.vis_count * sizeof *vis_before);
    assert_non_null(vis_before);
    memcpy(vis_before, r.vis, r.vis_count * sizeof *vis_before);
    size_t count_before = r.vis_count, cursor_before = r.cursor;

    pv_sort_key key = {T_TIME, true};
    pv_query_error err;
    const char *expr = "routine = gamma || time < 100";
    /* stopped half way: nothing changed */
    pv_report_job *j = pv_report_select_job(&r, expr, &key, 1, &err);
    assert_non_null(j);
    for (int i = 0; i < 5; i++)
        assert_false(pv_report_job_step(j, 500));
    pv_report_job_free(j);
    assert_int_equal(r.vis_count, count_before);
    assert_memory_equal(r.vis, vis_before, count_before * sizeof *vis_before);
    assert_int_equal(r.cursor, cursor_before);
    assert_string_equal(r.filter, "");

    /* to the end in small steps: many of them, and the layout's among them */
    j = pv_report_select_job(&r, expr, &key, 1, &err);
    size_t steps = 0;
    double progress = 0;
    size_t calls = parent_calls;
    while (!pv_report_job_step(j, 97)) {
        calls = parent_calls;
        assert_true(pv_report_job_progress(j) >= progress);
        progress = pv_report_job_progress(j);
        assert_int_equal(r.vis_count, count_before); /* not yet */
        steps++;
    }
    pv_report_job_free(j);
    assert_true(steps > 3 * n / 97); /* filter, mark and layout each in steps */
    /* the finishing step swaps the new list in: it lays out nothing */
    assert_true(parent_calls - calls < 300);
    assert_string_equal(r.filter, expr);
    pv_report fresh;
    pv_report_open(&fresh, r.view, false, NULL);
    fresh.sel = malloc(r.sel_count * sizeof *fresh.sel);
    assert_non_null(fresh.sel);
    memcpy(fresh.sel, r.sel, r.sel_count * sizeof *fresh.sel);
    fresh.sel_count = r.sel_count;
    memcpy(fresh.collapsed, r.collapsed, n / 8 + 1);
    pv_report_refresh(&fresh);
    assert_int_equal(fresh.vis_count, r.vis_count);
    assert_memory_equal(fresh.vis, r.vis, r.vis_count * sizeof *r.vis);
    assert_memory_equal(fresh.vis_depth, r.vis_depth, r.vis_count * sizeof *r.vis_depth);
    assert_memory_equal(fresh.has_kids, r.has_kids, n / 8 + 1);
    /* the selected row, if kept, is still selected and shown */
    bool kept = false;
    for (size_t i = 0; i < r.sel_count; i++)
        kept = kept || r.sel[i] == selected;
    if (kept)
        assert_int_equal(pv_report_selected(&r), selected);
    else
        assert_int_equal(r.cursor, 0);
    assert_true(kept);
    pv_report_close(&fresh);
    free(vis_before);
    pv_report_close(&r);
}

/* Backspace / [ / ] to a place whose filter or order differs re-apply them
 * as a job in steps (a big view), with its percentage; Esc stops it and
 * goes back where the step started, the report as it was; done again, it
 * ends with the place's order and row. */
static void test_history_step_is_a_job(void **state)
{
    (void)state;
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("big");
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Big", "test");
    pv_table *t = pv_table_new("routines", "Routines", routine_cols, R_COUNT);
    size_t rows = 250000;
    pv_table_reserve(t, rows);
    for (size_t i = 0; i < rows; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, R_ID, (int64_t)i);
        pv_table_set_int(t, r, R_HITS, (int64_t)((i * 7919) % rows));
        pv_table_set_int(t, r, R_TIME, (int64_t)i * 1000);
    }
    pv_set_add_view(set, pv_table_view(t));
    pv_table *small = pv_table_new("other", "Other", routine_cols, R_COUNT);
    pv_table_set_int(small, pv_table_add_row(small), R_ID, 1);
    pv_set_add_view(set, pv_table_view(small));
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 100, 24);
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    const char *cmd = ":sort hits:desc\n";
    for (const char *c = cmd; *c; c++)
        pv_app_key(a, *c == '\n' ? PV_KEY_ENTER : *c);
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_app_key(a, 'g');
    pv_app_key(a, 'j'); /* row 2 of the sorted view */
    pv_app_key(a, PV_KEY_BTAB);
    pv_app_key(a, 'j'); /* Other: the sorted Routines go into the history */
    pv_app_key(a, 'k'); /* Routines again */
    pv_app_key(a, PV_KEY_TAB);
    cmd = ":sort\n"; /* view order */
    for (const char *c = cmd; *c; c++)
        pv_app_key(a, *c == '\n' ? PV_KEY_ENTER : *c);
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_null(strstr(pv_buf_cstr(&out), "sort: hits:desc"));
    pv_app_key(a, '['); /* Other */
    assert_false(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Other"));

    /* back to Routines sorted by hits: in steps, then stopped */
    pv_app_key(a, '[');
    assert_true(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Applying its order... 0% (Esc stops)"));
    pv_app_work(a);
    pv_app_work(a);
    assert_true(pv_app_has_work(a)); /* several steps */
    pv_app_key(a, PV_KEY_ESC);
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "history step stopped"));
    assert_non_null(strstr(pv_buf_cstr(&out), "row 1/1")); /* back on Other */
    /* the history is where it was: back again, to the end this time */
    size_t work = 0;
    pv_app_key(a, '[');
    while (pv_app_has_work(a)) {
        pv_app_work(a);
        work++;
    }
    assert_true(work > 2);
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "sort: hits:desc"));
    assert_non_null(strstr(pv_buf_cstr(&out), "row 2/250000"));
    /* and forward: Other, then Routines in view order again */
    pv_app_key(a, ']');
    pv_app_key(a, ']');
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_null(strstr(pv_buf_cstr(&out), "sort: hits:desc"));
    assert_non_null(strstr(pv_buf_cstr(&out), "/250000"));
    pv_buf_free(&out);
    pv_app_free(a);
}

/* OSC 52: base64 of the text (RFC 4648 padding), BEL-terminated; for GNU
 * screen the same sequence cut into DCS pieces of at most 76 bytes. */
static void test_osc52_sequence(void **state)
{
    (void)state;
    pv_buf b;
    pv_buf_init(&b);
    pv_osc52_sequence("hello", 5, false, &b);
    assert_string_equal(pv_buf_cstr(&b), "\033]52;c;aGVsbG8=\a");
    pv_buf_clear(&b);
    pv_osc52_sequence("a\x1b]2;x\a", 7, false, &b);
    assert_string_equal(pv_buf_cstr(&b), "\033]52;c;YRtdMjt4Bw==\a");
    assert_null(memchr(b.data + 1, 0x1b, b.len - 1)); /* only the introducer */
    pv_buf_clear(&b);
    pv_osc52_sequence("", 0, false, &b);
    assert_string_equal(pv_buf_cstr(&b), "\033]52;c;\a");
    /* screen: pieces, which put together are the plain sequence */
    char text[200];
    memset(text, 'x', sizeof text);
    pv_buf plain;
    pv_buf_init(&plain);
    pv_osc52_sequence(text, sizeof text, false, &plain);
    pv_buf_clear(&b);
    pv_osc52_sequence(text, sizeof text, true, &b);
    pv_buf joined;
    pv_buf_init(&joined);
    const char *p = pv_buf_cstr(&b);
    size_t pieces = 0;
    while (*p) {
        assert_memory_equal(p, "\033P", 2);
        const char *end = strstr(p + 2, "\033\\");
        assert_non_null(end);
        assert_true(end - (p + 2) <= 76);
        pv_buf_append(&joined, p + 2, (size_t)(end - (p + 2)));
        p = end + 2;
        pieces++;
    }
    assert_true(pieces > 1);
    assert_string_equal(pv_buf_cstr(&joined), pv_buf_cstr(&plain));
    pv_buf_free(&joined);
    pv_buf_free(&plain);
    pv_buf_free(&b);
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
        cmocka_unit_test(test_key_names),
        cmocka_unit_test(test_default_keys),
        cmocka_unit_test(test_config_rebinds_keys),
        cmocka_unit_test(test_config_errors_name_line),
        cmocka_unit_test(test_rebound_key_drives_app),
        cmocka_unit_test(test_theme_files),
        cmocka_unit_test(test_theme_styles),
        cmocka_unit_test(test_bad_theme_names_file_and_line),
        cmocka_unit_test(test_theme_lookup),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_grid_never_holds_controls),
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_history_long_texts),
        cmocka_unit_test(test_command_table),
        cmocka_unit_test(test_rate_text),
        cmocka_unit_test(test_text_cut_and_wrap),
        cmocka_unit_test(test_search_skips_columns_by_their_values),
        cmocka_unit_test(test_keyscript),
        cmocka_unit_test(test_relative_goto),
        cmocka_unit_test(test_report_big_table),
        cmocka_unit_test(test_collapsed_tree_search_and_filter),
        cmocka_unit_test(test_report_reverse_without_sorting),
        cmocka_unit_test(test_report_selection_is_4_bytes_a_row),
        cmocka_unit_test(test_report_tree_ops),
        cmocka_unit_test(test_report_splice_matches_rebuild),
        cmocka_unit_test(test_tree_layout_in_steps),
        cmocka_unit_test(test_history_step_is_a_job),
        cmocka_unit_test(test_big_sort_shows_progress),
        cmocka_unit_test(test_group_by_thread),
        cmocka_unit_test(test_group_forwards_hooks),
        cmocka_unit_test(test_group_job_steps),
        cmocka_unit_test(test_report_open_job),
        cmocka_unit_test(test_call_trace_column_run),
        cmocka_unit_test(test_report_select_row_incremental),
        cmocka_unit_test(test_report_job_deadline),
        cmocka_unit_test(test_report_jobs_cancel_anywhere),
        cmocka_unit_test(test_app_jobs_cancel),
        cmocka_unit_test(test_app_tree_jobs_cancel),
        cmocka_unit_test(test_app_index_job_cancel),
        cmocka_unit_test(test_report_expand_all_job),
        cmocka_unit_test(test_loading_in_background),
        cmocka_unit_test(test_lanes_cursor_and_click),
        cmocka_unit_test(test_osc52_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
