/* Unit tests for the viewer's history (src/tui/history.c): the back and
 * forward stack of places, long texts in it, and going back as a job. */
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
#include "tui/history.h"
#include "tui/report.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_history),
        cmocka_unit_test(test_history_long_texts),
        cmocka_unit_test(test_history_step_is_a_job),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
