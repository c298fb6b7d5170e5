/* bench_tui - how long one frame of the viewer takes on a huge view.
 *
 * Builds a synthetic view of N rows (default 50 M) whose cells are computed
 * from the row number (as a timeline view does: nothing is materialised),
 * as a table and as a tree, and times key + draw for the moves a user makes
 * (j, PgDn, G, g, search of a near row).  A frame must not depend on N.
 *
 *     bench_tui [ROWS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profview/model.h"
#include "tui/app.h"
#include "tui/keymap.h"

static const pv_column bench_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
};

static const char *const bench_names[] = {"main", "worker_loop", "isr_timer", "memcpy", "idle"};

typedef struct bench_impl {
    size_t rows;
} bench_impl;

static size_t bench_rows(const pv_view *v)
{
    return ((const bench_impl *)v->impl)->rows;
}

static void bench_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    (void)v;
    out->type = bench_cols[col].type;
    out->present = true;
    switch (col) {
    case 0:
        out->v.i = (int64_t)row;
        break;
    case 1:
        out->v.s.ptr = bench_names[row % 5];
        out->v.s.len = strlen(bench_names[row % 5]);
        break;
    case 2:
        out->v.i = (int64_t)(row * 37 % 100000);
        break;
    default:
        out->v.u = 0x10000000u + row % 64;
        break;
    }
}

/* Chains of 10 calls: row r's parent is r-1 unless r is a multiple of 10. */
static size_t bench_parent(const pv_view *v, size_t row)
{
    (void)v;
    return row % 10 ? row - 1 : PV_NO_ROW;
}

static void bench_destroy(pv_view *v)
{
    free(v->impl);
    free(v->id);
    free(v->title);
    free(v->columns);
    free(v);
}

static pv_view *bench_view(size_t rows, bool tree)
{
    static const pv_view_ops table_ops = {bench_rows, bench_cell, NULL, NULL, bench_destroy, NULL};
    static const pv_view_ops tree_ops = {bench_rows, bench_cell,    bench_parent,
                                         NULL,       bench_destroy, NULL};
    pv_view *v = pv_xcalloc(1, sizeof *v);
    v->ops = tree ? &tree_ops : &table_ops;
    v->id = pv_xstrdup(tree ? "call-trace" : "timeline");
    v->title = pv_xstrdup(tree ? "Big tree" : "Big table");
    v->columns = pv_xmalloc(sizeof bench_cols);
    memcpy(v->columns, bench_cols, sizeof bench_cols);
    v->column_count = PV_ARRAY_LEN(bench_cols);
    bench_impl *impl = pv_xmalloc(sizeof *impl);
    impl->rows = rows;
    v->impl = impl;
    return v;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void frame(pv_app *a, const char *what, int key, int repeat)
{
    double worst = 0, total = 0;
    for (int i = 0; i < repeat; i++) {
        double t0 = now();
        pv_app_key(a, key);
        pv_app_draw(a);
        double dt = now() - t0;
        total += dt;
        if (dt > worst)
            worst = dt;
    }
    printf("  %-12s avg %8.3f ms  worst %8.3f ms  (%d frames)\n", what, total / repeat * 1e3,
           worst * 1e3, repeat);
}

int main(int argc, char **argv)
{
    size_t rows = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 50000000;
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("synthetic");
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Synthetic", "bench");
    pv_set_add_view(set, bench_view(rows, false));
    pv_set_add_view(set, bench_view(rows, true));

    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 200, 60);
    double t0 = now();
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    printf("%zu rows\ntable: first screen %.3f ms\n", rows, (now() - t0) * 1e3);
    frame(a, "j", 'j', 200);
    frame(a, "PgDn", PV_KEY_PGDN, 200);
    frame(a, "G (last)", 'G', 20);
    frame(a, "k", 'k', 200);
    frame(a, "g (first)", 'g', 20);
    /* Incremental search: one key of a text that matches nothing looks at a
     * bounded number of rows (PV_SEARCH_STEP), whatever the view's size. */
    pv_app_key(a, '/');
    frame(a, "/ key (none)", 'Q', 5);
    pv_app_key(a, PV_KEY_BACKSPACE);
    frame(a, "/ key digits", '7', 3); /* digits: numbers are formatted too */
    pv_app_key(a, PV_KEY_ESC);
    /* The tree: opening builds the visible list once (collapsed: one pass). */
    pv_app_key(a, PV_KEY_BTAB);
    t0 = now();
    pv_app_key(a, 'j');
    pv_app_draw(a);
    printf("tree: open (one pass over the rows) %.3f ms\n", (now() - t0) * 1e3);
    pv_app_key(a, PV_KEY_TAB);
    frame(a, "j", 'j', 200);
    frame(a, "PgDn", PV_KEY_PGDN, 200);
    frame(a, "G (last)", 'G', 20);
    frame(a, "g (first)", 'g', 20);
    t0 = now();
    pv_app_key(a, ' ');
    pv_app_draw(a);
    printf("tree: expand one node (splices the visible list) %.3f ms\n", (now() - t0) * 1e3);
    pv_app_free(a);
    return 0;
}
