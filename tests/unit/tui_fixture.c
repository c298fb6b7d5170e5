/* The small profile built by hand that the viewer's unit tests (test_tui_*.c)
 * run on, and the ways they drive the viewer over it (tui_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_fixture.h"

#include "profview/table.h"
#include "tui/app_internal.h" /* the job engine's budget */
#include "tui/config.h"
#include "tui/keyscript.h"
#include "tui/theme.h"

const pv_column routine_cols[] = {
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

const pv_column trace_cols[] = {
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

pv_file *make_file(void)
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

pv_app *make_app(int w, int h, bool utf8)
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

char *screen_after(pv_app *a, const char *keys)
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

pv_view *tg_tree(size_t n, int threads, bool blocks, unsigned seed)
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

pv_result_set *big_set_add(pv_file *f, int64_t id, size_t rows, unsigned salt, size_t name_mod)
{
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
        {"hits", "Hits", PV_TYPE_INT, 0},
        {"time", "Time", PV_TYPE_TIME, 0},
    };
    char title[32];
    snprintf(title, sizeof title, "Run %lld", (long long)id);
    pv_result_set *set = pv_file_add_set(f, id, title, "test");
    pv_table *t = pv_table_new("rows", "Rows", cols, 4);
    char name[32];
    for (size_t i = 0; i < rows; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)i);
        snprintf(name, sizeof name, "n%zu", name_mod ? i % name_mod : i);
        pv_table_set_cstr(t, r, 1, name);
        pv_table_set_int(t, r, 2, (int64_t)((i * 31 + salt) % 97));
        pv_table_set_int(t, r, 3, (int64_t)i * 1000);
    }
    pv_set_add_view(set, pv_table_view(t));
    static const pv_column fcols[] = {
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
        {"time", "Time", PV_TYPE_TIME, 0},
        {"time_with_children", "With children", PV_TYPE_TIME, 0},
    };
    pv_table *ft = pv_table_new("call-trace", "Call trace", fcols, 3);
    pv_table_make_tree(ft);
    for (size_t i = 0; i < rows; i++) {
        size_t r = pv_table_add_row(ft);
        pv_table_set_cstr(ft, r, 0, i % 2 ? "leaf" : "loop");
        pv_table_set_int(ft, r, 1, i % 2 ? (int64_t)(1 + salt) : 1);
        pv_table_set_int(ft, r, 2, i % 2 ? (int64_t)(1 + salt) : (int64_t)(2 + salt));
        if (i % 2)
            pv_table_set_parent(ft, r, r - 1);
    }
    pv_set_add_view(set, pv_table_view(ft));
    return set;
}

pv_app *jobs_app(pv_file *f, size_t budget)
{
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
    a->jobs.budget = budget;
    pv_app_adopt_file(a, f);
    return a;
}
