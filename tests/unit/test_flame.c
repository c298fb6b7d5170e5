/* Unit tests for src/model/flame.c and src/model/diff.c: paths merged from
 * the root, context frames, the folded escaping, the sandwich of a routine
 * (recursion counted once), frames inside the rows (pv_view_inner_frames:
 * under the row they run in, hidden with it, at the top of their thread
 * without one), the builder in slices, and the diff's matching (repeated keys in
 * order, unmatched rows on either side, ratios). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profview/diff.h"
#include "profview/flame.h"
#include "profview/hooks.h"
#include "profview/table.h"

enum { T_ID, T_ROUTINE, T_THREAD, T_TIME, T_TWC, T_COUNT };

static const pv_column tree_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"thread", "Thread", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"time_with_children", "With children", PV_TYPE_TIME, 0},
};

/* thread 7: main(10/100) -> a(20/50) -> a(30/30)
 *                        -> b(5/5)
 *           main(1/11)   -> a;x(10/10)
 * thread 9: b(4/4) */
static pv_view *make_calls(void)
{
    static const struct {
        int parent;
        const char *name;
        int thread;
        int self, total;
    } calls[] = {
        {-1, "main", 7, 10, 100}, {0, "a", 7, 20, 50}, {1, "a", 7, 30, 30}, {0, "b", 7, 5, 5},
        {-1, "main", 7, 1, 11},   {4, "a;x", 7, 10, 10}, {-1, "b", 9, 4, 4},
    };
    pv_table *t = pv_table_new("call-trace", "Call trace", tree_cols, T_COUNT);
    pv_table_make_tree(t);
    for (size_t i = 0; i < PV_ARRAY_LEN(calls); i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, T_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, T_ROUTINE, calls[i].name);
        pv_table_set_int(t, r, T_THREAD, calls[i].thread);
        pv_table_set_int(t, r, T_TIME, calls[i].self);
        pv_table_set_int(t, r, T_TWC, calls[i].total);
        if (calls[i].parent >= 0)
            pv_table_set_parent(t, r, (size_t)calls[i].parent);
    }
    return pv_table_view(t);
}

static uint32_t find_path(const pv_flame *fl, const char *stack)
{
    pv_buf b;
    pv_buf_init(&b);
    uint32_t found = PV_FLAME_NONE;
    for (size_t i = 0; i < fl->preorder_count; i++) {
        pv_buf_clear(&b);
        pv_flame_stack(fl, fl->preorder[i], &b);
        if (strcmp(pv_buf_cstr(&b), stack) == 0)
            found = fl->preorder[i];
    }
    pv_buf_free(&b);
    return found;
}

static void test_flame_merges_paths(void **state)
{
    (void)state;
    pv_view *calls = make_calls();
    char err[128];
    pv_flame *fl = pv_flame_build(calls, NULL, 0, err, sizeof err);
    assert_non_null(fl);
    uint32_t main = find_path(fl, "Thread 7;main");
    assert_int_not_equal(main, PV_FLAME_NONE);
    assert_int_equal(fl->nodes[main].self, 11);
    assert_int_equal(fl->nodes[main].total, 111);
    assert_int_equal(fl->nodes[main].calls, 2);
    uint32_t aa = find_path(fl, "Thread 7;main;a;a");
    assert_int_equal(fl->nodes[aa].self, 30);
    assert_int_equal(fl->nodes[aa].depth, 4);
    uint32_t esc = find_path(fl, "Thread 7;main;a%3Bx");
    assert_int_not_equal(esc, PV_FLAME_NONE);
    assert_string_equal(pv_flame_name(fl, esc), "a;x");
    uint32_t t7 = find_path(fl, "Thread 7");
    assert_true(fl->nodes[t7].is_context);
    assert_int_equal(fl->nodes[t7].total, 111);
    assert_int_equal(fl->nodes[0].total, 115);
    /* no modules: colours by thread */
    assert_false(fl->by_module);
    assert_int_not_equal(fl->nodes[find_path(fl, "Thread 9;b")].group, fl->nodes[main].group);
    assert_int_equal(fl->nodes[aa].group, fl->nodes[main].group);
    /* siblings by name: a, a;x sort after a, b */
    uint32_t first = fl->nodes[main].first_child;
    assert_string_equal(pv_flame_name(fl, first), "a");
    assert_string_equal(pv_flame_name(fl, fl->nodes[first].next_sibling), "a;x");
    /* a subset of rows (a filter's result): a row whose parent is not taken
     * starts at the top of its thread */
    pv_row rows[] = {1, 2, 6};
    pv_flame *part = pv_flame_build(calls, rows, 3, err, sizeof err);
    assert_non_null(part);
    assert_int_not_equal(find_path(part, "Thread 7;a;a"), PV_FLAME_NONE);
    assert_int_equal(find_path(part, "Thread 7;main"), PV_FLAME_NONE);
    pv_flame_free(part);

    /* the `flame` view: pre-order rows, depth 0 at the top, context as the tree writes it */
    pv_view *v = pv_flame_view(fl);
    assert_int_equal(pv_view_rows(v), fl->preorder_count);
    pv_cell c;
    pv_view_cell(v, 0, pv_view_column(v, "stack"), &c);
    assert_memory_equal(c.v.s.ptr, "Thread 7", 8);
    pv_view_cell(v, 1, pv_view_column(v, "context"), &c);
    assert_int_equal(c.v.s.len, 1);
    assert_memory_equal(c.v.s.ptr, "7", 1);
    pv_view_cell(v, 1, pv_view_column(v, "depth"), &c);
    assert_int_equal(c.v.i, 1);
    pv_view_free(v);
    pv_flame_free(fl);

    /* no call tree */
    pv_table *flat = pv_table_new("routines", "Routines", tree_cols, T_COUNT);
    assert_null(pv_flame_build(pv_table_view(flat), NULL, 0, err, sizeof err));
    assert_non_null(strstr(err, "no call tree"));
    pv_view_free(pv_table_view(flat));
    pv_view_free(calls);
}

static void test_sandwich(void **state)
{
    (void)state;
    pv_view *calls = make_calls();
    char err[128];
    pv_flame *fl = pv_flame_build(calls, NULL, 0, err, sizeof err);
    pv_sandwich s;
    assert_true(pv_sandwich_build(fl, "a", 1, NULL, &s));
    /* outermost a only: through = 50, self = 20 + 30 (the inner a too) */
    assert_int_equal(s.through, 50);
    assert_int_equal(s.self, 50);
    assert_int_equal(s.calls, 1);
    uint32_t top = s.callees->nodes[0].first_child;
    assert_string_equal(pv_flame_name(s.callees, top), "a");
    uint32_t inner = s.callees->nodes[top].first_child;
    assert_string_equal(pv_flame_name(s.callees, inner), "a");
    assert_int_equal(s.callees->nodes[inner].total, 30);
    /* callers: a <- main <- Thread 7 */
    uint32_t ctop = s.callers->nodes[0].first_child;
    uint32_t caller = s.callers->nodes[ctop].first_child;
    assert_string_equal(pv_flame_name(s.callers, caller), "main");
    assert_int_equal(s.callers->nodes[caller].total, 50);
    uint32_t thread = s.callers->nodes[caller].first_child;
    assert_string_equal(pv_flame_name(s.callers, thread), "Thread 7");
    pv_sandwich_free(&s);
    /* b: called from main (thread 7) and at the top of thread 9 */
    assert_true(pv_sandwich_build(fl, "b", 1, NULL, &s));
    assert_int_equal(s.through, 9);
    assert_int_equal(s.calls, 2);
    pv_sandwich_free(&s);
    assert_false(pv_sandwich_build(fl, "nope", 4, NULL, &s));
    pv_sandwich_free(&s);
    pv_flame_free(fl);
    pv_view_free(calls);
}

enum { D_ID, D_NAME, D_HITS, D_PCT, D_COUNT };
static const pv_column diff_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"hits", "Hits", PV_TYPE_INT, 0},
    {"pct", "%", PV_TYPE_FLOAT, 0},
};

static pv_view *make_table(const char *const *names, const int *hits, size_t n)
{
    pv_table *t = pv_table_new("routines", "Routines", diff_cols, D_COUNT);
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, D_ID, (int64_t)i + 100);
        pv_table_set_cstr(t, r, D_NAME, names[i]);
        pv_table_set_int(t, r, D_HITS, hits[i]);
        pv_table_set_float(t, r, D_PCT, hits[i] / 2.0);
    }
    return pv_table_view(t);
}

static void cell_text(const pv_view *v, size_t row, const char *col, char *out, size_t len)
{
    pv_cell c;
    pv_view_cell(v, row, pv_view_column(v, col), &c);
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(&c, &b);
    snprintf(out, len, "%s", pv_buf_cstr(&b));
    pv_buf_free(&b);
}

static void test_diff_matching(void **state)
{
    (void)state;
    static const char *const na[] = {"f", "g", "f", "h"};
    static const int ha[] = {2, 0, 4, 5};
    static const char *const nb[] = {"f", "k", "g", "f", "f"};
    static const int hb[] = {3, 1, 6, 8, 9};
    pv_view *a = make_table(na, ha, 4), *b = make_table(nb, hb, 5);
    char err[128], text[64];
    pv_diff_counts counts;
    pv_view *d = pv_diff_views(a, NULL, 0, b, NULL, 0, &counts, err, sizeof err);
    assert_non_null(d);
    assert_int_equal(counts.matched, 3);
    assert_int_equal(counts.only_a, 1);
    assert_int_equal(counts.only_b, 2);
    assert_int_equal(pv_view_rows(d), 6);
    assert_int_not_equal(pv_view_column(d, "hits_ratio"), PV_NO_ROW);
    assert_int_equal(pv_view_column(d, "id_a"), PV_NO_ROW); /* ids are no measure */
    /* row 0: first f of a with first f of b */
    cell_text(d, 0, "hits_delta", text, sizeof text);
    assert_string_equal(text, "1");
    cell_text(d, 0, "hits_ratio", text, sizeof text);
    assert_string_equal(text, "1.5");
    /* row 1: g, a = 0: no ratio */
    cell_text(d, 1, "hits_delta", text, sizeof text);
    assert_string_equal(text, "6");
    cell_text(d, 1, "hits_ratio", text, sizeof text);
    assert_string_equal(text, "");
    /* row 2: second f with second f */
    cell_text(d, 2, "hits_b", text, sizeof text);
    assert_string_equal(text, "8");
    cell_text(d, 2, "pct_delta", text, sizeof text);
    assert_string_equal(text, "2");
    /* row 3: h only in a */
    cell_text(d, 3, "match", text, sizeof text);
    assert_string_equal(text, "a");
    cell_text(d, 3, "hits_b", text, sizeof text);
    assert_string_equal(text, "");
    /* rows 4, 5: only in b, in b's order: k, then the third f */
    cell_text(d, 4, "name", text, sizeof text);
    assert_string_equal(text, "k");
    cell_text(d, 5, "name", text, sizeof text);
    assert_string_equal(text, "f");
    cell_text(d, 5, "match", text, sizeof text);
    assert_string_equal(text, "b");
    assert_true(pv_diff_is_delta_column(d, pv_view_column(d, "hits_delta")));
    assert_false(pv_diff_is_delta_column(d, pv_view_column(d, "hits_a")));
    pv_view_free(d);
    pv_view_free(a);
    pv_view_free(b);
}


/* Columns that name or place a row (an index, a line, another row's id)
 * are carried as C_a and C_b, never subtracted; titles put the side or the
 * operation first ("a Hits", "Δ Hits") so that a cut title still tells
 * them apart (docs/diff.md "Columns"). */
static void test_diff_references(void **state)
{
    (void)state;
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},          {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
        {"index", "Index", PV_TYPE_INT, 0},    {"line", "Source Line", PV_TYPE_INT, 0},
        {"routine_id", "Routine", PV_TYPE_INT, 0}, {"hits", "Hits", PV_TYPE_INT, 0},
    };
    pv_table *ta = pv_table_new("t", "T", cols, 6), *tb = pv_table_new("t", "T", cols, 6);
    for (int k = 0; k < 2; k++) {
        pv_table *t = k ? tb : ta;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, 1);
        pv_table_set_cstr(t, r, 1, "f");
        pv_table_set_int(t, r, 2, k ? 40 : 7);
        pv_table_set_int(t, r, 3, k ? 12 : 10);
        pv_table_set_int(t, r, 4, 100);
        pv_table_set_int(t, r, 5, k ? 5 : 2);
    }
    pv_view *a = pv_table_view(ta), *b = pv_table_view(tb);
    char err[128], text[64];
    pv_view *d = pv_diff_views(a, NULL, 0, b, NULL, 0, NULL, err, sizeof err);
    assert_non_null(d);
    static const char *const carried[] = {"index", "line", "routine_id"};
    for (size_t i = 0; i < 3; i++) {
        char id[64];
        snprintf(id, sizeof id, "%s_a", carried[i]);
        assert_int_not_equal(pv_view_column(d, id), PV_NO_ROW);
        snprintf(id, sizeof id, "%s_b", carried[i]);
        assert_int_not_equal(pv_view_column(d, id), PV_NO_ROW);
        snprintf(id, sizeof id, "%s_delta", carried[i]);
        assert_int_equal(pv_view_column(d, id), PV_NO_ROW);
        snprintf(id, sizeof id, "%s_ratio", carried[i]);
        assert_int_equal(pv_view_column(d, id), PV_NO_ROW);
    }
    cell_text(d, 0, "line_b", text, sizeof text);
    assert_string_equal(text, "12");
    cell_text(d, 0, "hits_delta", text, sizeof text);
    assert_string_equal(text, "3");
    assert_string_equal(d->columns[pv_view_column(d, "hits_a")].title, "a Hits");
    assert_string_equal(d->columns[pv_view_column(d, "hits_b")].title, "b Hits");
    assert_string_equal(d->columns[pv_view_column(d, "hits_delta")].title, "\xce\x94 Hits");
    assert_string_equal(d->columns[pv_view_column(d, "hits_ratio")].title, "\xc3\x97 Hits");
    pv_view_free(d);
    /* ASCII titles */
    pv_diff_job *j = pv_diff_begin(a, NULL, 0, b, NULL, 0, PV_DIFF_ASCII, err, sizeof err);
    pv_budget all = {SIZE_MAX, 0};
    assert_true(pv_diff_step(j, &all));
    d = pv_diff_take(j, NULL);
    pv_diff_job_free(j);
    assert_string_equal(d->columns[pv_view_column(d, "hits_delta")].title, "d Hits");
    assert_string_equal(d->columns[pv_view_column(d, "hits_ratio")].title, "x Hits");
    pv_view_free(d);
    pv_view_free(a);
    pv_view_free(b);
}

/* The diff in steps of a few rows gives what the diff at once gives, its
 * progress grows to 1, and a job freed at any step leaves nothing behind
 * (the sanitizer build checks the leaks). */
static void test_diff_steps(void **state)
{
    (void)state;
    enum { N = 300 };
    static char names[N][8];
    const char *na[N], *nb[N];
    int ha[N], hb[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "r%d", i % 120); /* repeated keys */
        na[i] = names[i];
        nb[N - 1 - i] = names[(i * 7) % N];
        ha[i] = i;
        hb[i] = 3 * i;
    }
    pv_view *a = make_table(na, ha, N), *b = make_table(nb, hb, N);
    char err[128];
    pv_diff_counts at_once, stepped;
    pv_view *want = pv_diff_views(a, NULL, 0, b, NULL, 0, &at_once, err, sizeof err);
    for (size_t stop = 0; stop < 8; stop++) {
        pv_diff_job *j = pv_diff_begin(a, NULL, 0, b, NULL, 0, 0, err, sizeof err);
        assert_non_null(j);
        double last = 0;
        size_t steps = 0;
        bool done = false;
        while (!done && (stop == 7 || steps < stop * 40)) {
            pv_budget b7 = {7, 0};
            done = pv_diff_step(j, &b7);
            assert_true(pv_diff_progress(j) >= last);
            last = pv_diff_progress(j);
            steps++;
            if (!done)
                assert_null(pv_diff_take(j, NULL));
        }
        if (!done) {
            pv_diff_job_free(j); /* cancelled half way */
            continue;
        }
        assert_true(steps > 100);
        pv_view *got = pv_diff_take(j, &stepped);
        pv_diff_job_free(j);
        assert_int_equal(stepped.matched, at_once.matched);
        assert_int_equal(stepped.only_b, at_once.only_b);
        assert_int_equal(pv_view_rows(got), pv_view_rows(want));
        for (size_t r = 0; r < pv_view_rows(want); r++)
            for (size_t c = 0; c < want->column_count; c++) {
                char x[64], y[64];
                cell_text(want, r, want->columns[c].id, x, sizeof x);
                cell_text(got, r, want->columns[c].id, y, sizeof y);
                assert_string_equal(x, y);
            }
        pv_view_free(got);
    }
    pv_view_free(want);
    pv_view_free(a);
    pv_view_free(b);
}

/* Inner frames of make_calls(): "L1" (3 ns) inside row 1 (main;a), "L1"
 * (2 ns) again inside row 1, "L2" (4 ns) inside row 6 (thread 9's b),
 * "L3" (7 ns) at the top of thread 7. */
static pv_view *inner_of_calls(const pv_view *v)
{
    (void)v;
    static const pv_column cols[] = {
        {"parent", "Parent", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, 0},
        {"thread", "Thread", PV_TYPE_INT, 0},
        {"time", "Time", PV_TYPE_TIME, 0},
        {"time_with_children", "With children", PV_TYPE_TIME, 0},
    };
    static const struct {
        int parent; /* 1-based, 0 = none */
        const char *name;
        int thread, t;
    } lines[] = {{2, "L1", 7, 3}, {2, "L1", 7, 2}, {7, "L2", 9, 4}, {0, "L3", 7, 7}};
    pv_table *t = pv_table_new("inner", "Inner", cols, PV_ARRAY_LEN(cols));
    for (size_t i = 0; i < PV_ARRAY_LEN(lines); i++) {
        size_t r = pv_table_add_row(t);
        if (lines[i].parent)
            pv_table_set_int(t, r, 0, lines[i].parent);
        pv_table_set_cstr(t, r, 1, lines[i].name);
        pv_table_set_int(t, r, 2, lines[i].thread);
        pv_table_set_int(t, r, 3, lines[i].t);
        pv_table_set_int(t, r, 4, lines[i].t);
    }
    return pv_table_view(t);
}

static void test_flame_inner_frames(void **state)
{
    (void)state;
    static const pv_view_hooks hooks = {.inner_frames = inner_of_calls};
    pv_view *v = make_calls();
    v->hooks = &hooks;
    char err[256];
    pv_flame *fl = pv_flame_build(v, NULL, 0, err, sizeof err);
    assert_non_null(fl);
    uint32_t l1 = find_path(fl, "Thread 7;main;a;L1");
    assert_int_not_equal(l1, PV_FLAME_NONE);
    assert_int_equal(fl->nodes[l1].self, 5); /* two frames merged by path */
    assert_int_equal(fl->nodes[l1].total, 5);
    assert_int_equal(fl->nodes[l1].calls, 2);
    uint32_t l2 = find_path(fl, "Thread 9;b;L2");
    assert_int_not_equal(l2, PV_FLAME_NONE);
    assert_int_equal(fl->nodes[l2].self, 4);
    uint32_t l3 = find_path(fl, "Thread 7;L3");
    assert_int_not_equal(l3, PV_FLAME_NONE);
    assert_int_equal(fl->nodes[l3].self, 7);
    /* the thread frame's total now has the top-level inner frame too */
    assert_int_equal(fl->nodes[find_path(fl, "Thread 7")].total, 100 + 11 + 7);
    pv_flame_free(fl);

    /* in slices, with row 1 (main;a and what is inside it) not taken: its
     * inner frames are hidden with it */
    pv_flame_builder *fb = pv_flame_builder_new(v, err, sizeof err);
    assert_non_null(fb);
    assert_int_equal(pv_flame_builder_inner_rows(fb), 4);
    uint8_t keep[7] = {1, 0, 0, 1, 1, 1, 1};
    pv_flame_builder_add(fb, 0, 3, keep);
    pv_flame_builder_add(fb, 3, 7, keep);
    pv_flame_builder_add_inner(fb, 0, 1);
    pv_flame_builder_add_inner(fb, 1, 4);
    fl = pv_flame_builder_finish(fb);
    assert_int_equal(find_path(fl, "Thread 7;main;a"), PV_FLAME_NONE);
    assert_int_equal(find_path(fl, "Thread 7;main;a;L1"), PV_FLAME_NONE);
    assert_int_not_equal(find_path(fl, "Thread 9;b;L2"), PV_FLAME_NONE);
    assert_int_not_equal(find_path(fl, "Thread 7;main;b"), PV_FLAME_NONE);
    pv_flame_free(fl);
    pv_view_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flame_merges_paths),
        cmocka_unit_test(test_flame_inner_frames),
        cmocka_unit_test(test_sandwich),
        cmocka_unit_test(test_diff_matching),
        cmocka_unit_test(test_diff_references),
        cmocka_unit_test(test_diff_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
