/* Unit tests for src/tui: key names and rebinding (config), themes and bad
 * theme files, escaping names for the terminal, the history stack, the
 * scripted-keys parser, and golden screens of the viewer over views built
 * here with pv_table (every pane and view kind). */
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
#include "tui/config.h"
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
    static const struct { const char *name; int parent; } calls[] = {
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
    }
    free(ev);
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    return out.data;
}

static void test_demo(void **state)
{
    (void)state;
    pv_app *a = make_app(80, 24, false);
    char *s = screen_after(a, getenv("KEYS") ? getenv("KEYS") : "");
    printf("%s", s);
    free(s);
    pv_app_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
