/* Unit tests for the grouping of call trees by thread (src/tui/group.c) and
 * the report's opening, selection and expansion in steps over it (docs/tui.md
 * "Long operations"), with winIDEA's column runs. */
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
#include "tui/group.h"
#include "tui/report.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_by_thread),
        cmocka_unit_test(test_group_forwards_hooks),
        cmocka_unit_test(test_group_job_steps),
        cmocka_unit_test(test_report_open_job),
        cmocka_unit_test(test_call_trace_column_run),
        cmocka_unit_test(test_report_select_row_incremental),
        cmocka_unit_test(test_report_expand_all_job),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
