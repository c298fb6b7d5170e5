/* Unit tests for the report core (src/tui/report.c): searching by column
 * values, the 4-byte row selection, reversing without sorting, search and
 * filter in collapsed trees, big tables, tree operations, the splice of the
 * visible list and its layout in steps. */
#include <malloc.h>
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
    /* the step that finds the row ends there: the tree is as it was (the
     * path is opened, and the Details follow, in a step of their own) */
    assert_false(pv_report_job_step(j, 100));
    assert_true(pv_report_job_found(j));
    assert_int_equal(pv_report_count(&r), 2);
    assert_int_equal(pv_report_selected(&r), 0);
    assert_true(pv_report_job_step(j, 100));
    pv_report_job_free(j);
    assert_int_equal(pv_report_selected(&r), 3); /* print_result, shown */
    assert_int_equal(pv_report_count(&r), 5);
    /* stopped after the step that found it: nothing moved */
    pv_report_move_to(&r, 0);
    assert_true(pv_report_tree(&r, PV_TREE_COLLAPSE));
    assert_int_equal(pv_report_count(&r), 2);
    j = pv_report_search_job(&r, "print", 0, 1);
    assert_false(pv_report_job_step(j, 100));
    pv_report_job_free(j);
    assert_int_equal(pv_report_count(&r), 2);
    assert_int_equal(pv_report_selected(&r), 0);

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_skips_columns_by_their_values),
        cmocka_unit_test(test_report_big_table),
        cmocka_unit_test(test_collapsed_tree_search_and_filter),
        cmocka_unit_test(test_report_reverse_without_sorting),
        cmocka_unit_test(test_report_selection_is_4_bytes_a_row),
        cmocka_unit_test(test_report_tree_ops),
        cmocka_unit_test(test_report_splice_matches_rebuild),
        cmocka_unit_test(test_tree_layout_in_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
