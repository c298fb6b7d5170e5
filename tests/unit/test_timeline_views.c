/* Unit tests for the winIDEA views (src/formats/winidea/views.c) read through
 * pv_view_cell: the timeline, call trace, statistics and data views, the
 * --from/--to window, deferred indexing, the viewer's detail and state lists,
 * a call's events, and the capability hooks the viewer steps with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timeline_fixture.h"

#include "profview/hooks.h"

static void has_columns(const pv_view *v, const char *const *ids)
{
    for (size_t i = 0; ids[i]; i++)
        if (pv_view_column(v, ids[i]) == PV_NO_ROW)
            fail_msg("view %s lacks column %s", v->id, ids[i]);
}

/* The missing-entry recording of test_statistics (g E@10 X@20, f X@30,
 * main R@30, h E@40 X@50, main X@60) plus a line, a state variable and
 * exported statistics. */
static pv_file *build_views(void)
{
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x7, "extendedTaskFirst", 17);
    pv_wi_add_area(d, 0x0, "main", 4);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, 0x3u, "h", 1);
    size_t line = pv_wi_add_area(d, 0x10000000u, "x = 1;", 6);
    d->areas[line].has_value = true;
    d->areas[line].value = 52;
    pv_wi_add_area(d, 0x20000000u, "Mode", 4);
    add_state(d, 0x30000000u, 0);
    add_state(d, 0x30000000u, 5);
    ev(d, FN_G, 'E', 0, 10);
    ev(d, FN_G, 'X', 0, 20);
    ev(d, FN_F, 'X', 0, 30);
    ev(d, 0x0, 'R', 0, 30);
    ev(d, 0x20000000u, 'W', 5, 35);
    ev(d, 0x3u, 'E', 0, 40);
    ev(d, 0x3u, 'X', 0, 50);
    ev(d, 0x20000000u, 'W', 0, 55);
    ev(d, 0x0, 'X', 0, 60);
    pv_wi_stat_row *s = pv_wi_add_stat(d);
    s->handle = 0x0;
    s->has_count = true;
    s->count = 1;
    s->present = 1u << PV_WI_STAT_NET;
    s->t[PV_WI_STAT_NET] = 267;
    s = pv_wi_add_stat(d);
    s->handle = FN_F;
    s->context = pv_strpool_add(&d->pool, "TSK: extendedTaskFirst", 22);
    s = pv_wi_add_stat(d);
    s->handle = 0x30000000u;
    s->has_value = true;
    s->value = 5;
    s->area_class = 1;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, NULL), PV_LOAD_OK);
    return f;
}

static void test_views_timeline(void **state)
{
    (void)state;
    pv_file *f = build_views();
    const pv_view *t = view(f, "timeline");
    static const char *const cols[] = {"id",   "index", "time",  "context", "core", "handle",
                                       "name", "event", "value", "depth",   NULL};
    has_columns(t, cols);
    assert_int_equal(pv_view_rows(t), 9);
    static const int64_t depth[] = {0, 0, 0, 0, 0, 1, 1, 0, 0};
    for (size_t r = 0; r < 9; r++)
        assert_int_equal(cell_int(t, r, "depth"), depth[r]);
    assert_string_equal(cell_text(t, 2, "event"), "X");
    assert_string_equal(cell_text(t, 2, "name"), "f");
    assert_string_equal(cell_text(t, 2, "handle"), "0x00000001");
    assert_string_equal(cell_text(t, 4, "value"), "0x5");
    assert_string_equal(cell_text(t, 4, "context"), ""); /* data: no context */
    assert_false(cell_present(t, 0, "value"));
    assert_false(cell_present(t, 0, "core"));
    /* a context area is not detected (state values 0, 5 are not all handles) */
    assert_string_equal(cell_text(t, 0, "context"), "Unknown");
    /* events are grouped by area for filters */
    assert_non_null(t->ops->row_group);
    assert_int_equal(t->ops->row_group(t, 5), t->ops->row_group(t, 6));
    assert_int_not_equal(t->ops->row_group(t, 5), t->ops->row_group(t, 0));
    /* call-stack-at h E (event 5): h, then main */
    pv_view *cs = pv_view_open_detail(t, pv_view_detail_index(t, "call-stack-at"), 5);
    assert_non_null(cs);
    assert_int_equal(pv_view_rows(cs), 2);
    assert_string_equal(cell_text(cs, 0, "routine"), "h");
    assert_string_equal(cell_text(cs, 1, "routine"), "main");
    assert_int_equal(cell_int(cs, 1, "position"), 1);
    pv_view_free(cs);
    /* the statistics of h: Unknown and Neutral */
    pv_view *as = pv_view_open_detail(t, pv_view_detail_index(t, "area-statistics"), 5);
    assert_int_equal(pv_view_rows(as), 2);
    assert_string_equal(cell_text(as, 1, "context"), "Neutral");
    assert_int_equal(cell_int(as, 0, "call"), 10);
    pv_view_free(as);
    pv_file_free(f);
}

/* call-trace: main (implicit, outermost), f (implicit), g (inside f), h
 * (inside main).  time = net, time_with_children = gross (see
 * test_statistics: f 20/20, main 30/50, g 10/10, h 10/10). */
static void test_views_call_trace_routines(void **state)
{
    (void)state;
    pv_file *f = build_views();
    const pv_view *ct = view(f, "call-trace");
    static const char *const cols[] = {"id",    "parent", "call_no", "routine",
                                       "depth", "thread", "time",    "time_with_children",
                                       NULL};
    has_columns(ct, cols);
    assert_true(pv_view_is_tree(ct));
    assert_int_equal(pv_view_rows(ct), 4);
    static const char *const routine[] = {"main", "f", "g", "h"};
    static const char *const parent[] = {"", "1", "2", "1"};
    static const int64_t depth[] = {0, 1, 2, 1};
    static const int64_t net[] = {30, 20, 10, 10};
    static const int64_t gross[] = {50, 20, 10, 10};
    for (size_t r = 0; r < 4; r++) {
        assert_string_equal(cell_text(ct, r, "routine"), routine[r]);
        assert_string_equal(cell_text(ct, r, "parent"), parent[r]);
        assert_int_equal(cell_int(ct, r, "depth"), depth[r]);
        assert_int_equal(cell_int(ct, r, "call_no"), (int64_t)r + 1);
        assert_int_equal(cell_int(ct, r, "time"), net[r]);
        assert_int_equal(cell_int(ct, r, "time_with_children"), gross[r]);
        assert_string_equal(cell_text(ct, r, "thread"), "Unknown");
        assert_int_equal((int64_t)pv_view_depth(ct, r), depth[r]);
    }
    /* the events of g's call: its E and X */
    pv_view *evs = pv_view_open_detail(ct, pv_view_detail_index(ct, "call-events"), 2);
    assert_int_equal(pv_view_rows(evs), 2);
    assert_string_equal(cell_text(evs, 1, "event"), "X");
    pv_view_free(evs);

    const pv_view *rt = view(f, "routines");
    static const char *const rcols[] = {
        "id", "routine", "module", "hits", "time", "time_with_children", NULL};
    has_columns(rt, rcols);
    assert_int_equal(pv_view_rows(rt), 4);
    assert_string_equal(cell_text(rt, 2, "routine"), "g");
    assert_int_equal(cell_int(rt, 2, "hits"), 1);
    assert_int_equal(cell_int(rt, 0, "time_with_children"), 50);
    /* callers of g: f, once, g's time with children 10 */
    pv_view *callers = pv_view_open_detail(rt, pv_view_detail_index(rt, "callers"), 2);
    assert_int_equal(pv_view_rows(callers), 1);
    assert_string_equal(cell_text(callers, 0, "routine"), "f");
    assert_int_equal(cell_int(callers, 0, "hits"), 1);
    assert_int_equal(cell_int(callers, 0, "time"), 10);
    pv_view_free(callers);
    /* callees of main: f and h */
    pv_view *callees = pv_view_open_detail(rt, pv_view_detail_index(rt, "callees"), 0);
    assert_int_equal(pv_view_rows(callees), 2);
    pv_view_free(callees);
    pv_file_free(f);
}

static void test_views_statistics_and_data(void **state)
{
    (void)state;
    pv_file *f = build_views();
    const pv_view *st = view(f, "statistics");
    static const char *const cols[] = {
        "id",          "handle",      "type",       "name",       "value",    "context",
        "count",       "net",         "net_min",    "net_max",    "net_avg",  "gross",
        "gross_min",   "gross_max",   "gross_avg",  "call",       "call_min", "call_max",
        "call_avg",    "period_min",  "period_max", "period_avg", "outside",  "outside_min",
        "outside_max", "outside_avg", NULL};
    has_columns(st, cols);
    /* main, f, g, h: Unknown + Neutral each = 8; Mode, state 5, state 0 = 3 */
    assert_int_equal(pv_view_rows(st), 11);
    assert_string_equal(cell_text(st, 0, "context"), "Unknown");
    assert_string_equal(cell_text(st, 1, "context"), "Neutral");
    assert_string_equal(cell_text(st, 0, "type"), "function");
    assert_int_equal(cell_int(st, 0, "net"), 30);
    size_t state_rows = 0;
    for (size_t r = 0; r < pv_view_rows(st); r++)
        if (strcmp(cell_text(st, r, "type"), "state") == 0) {
            state_rows++;
            assert_string_equal(cell_text(st, r, "context"), "");
            /* state 5 from 35 to 55 = 20; state 0 from 55 to the end 60 = 5 */
            int64_t want = strcmp(cell_text(st, r, "value"), "0x5") == 0 ? 20 : 5;
            assert_int_equal(cell_int(st, r, "net"), want);
        }
    assert_int_equal(state_rows, 2);

    /* details: main's calls in Unknown (one, net 30); Mode state 5's history */
    pv_view *calls = pv_view_open_detail(st, pv_view_detail_index(st, "area-calls"), 0);
    assert_int_equal(pv_view_rows(calls), 1);
    assert_int_equal(cell_int(calls, 0, "time"), 30);
    assert_int_equal(cell_int(calls, 0, "call_time"), 50);
    pv_view_free(calls);
    size_t last = pv_view_rows(st) - 1; /* areas in mapping order: state 5 is last */
    assert_string_equal(cell_text(st, last, "value"), "0x5");
    pv_view *hist = pv_view_open_detail(st, pv_view_detail_index(st, "value-history"), last);
    assert_int_equal(pv_view_rows(hist), 1);
    assert_int_equal(cell_int(hist, 0, "duration"), 20);
    pv_view_free(hist);
    assert_null(pv_view_open_detail(st, pv_view_detail_index(st, "value-history"), 0));

    const pv_view *ex = view(f, "statistics-exported");
    has_columns(ex, cols);
    assert_int_equal(pv_view_rows(ex), 3);
    assert_string_equal(cell_text(ex, 0, "context"), "Unknown");
    assert_int_equal(cell_int(ex, 0, "net"), 267);
    assert_false(cell_present(ex, 0, "gross")); /* not in the file */
    assert_string_equal(cell_text(ex, 1, "context"), "extendedTaskFirst");
    assert_string_equal(cell_text(ex, 2, "context"), "");
    assert_string_equal(cell_text(ex, 2, "value"), "0x5");

    const pv_view *lines = view(f, "lines");
    static const char *const lcols[] = {"id", "handle", "name", "line", "function", NULL};
    has_columns(lines, lcols);
    assert_int_equal(pv_view_rows(lines), 1);
    assert_int_equal(cell_int(lines, 0, "line"), 52);
    assert_string_equal(cell_text(lines, 0, "function"), "h");

    const pv_view *data = view(f, "data");
    static const char *const dcols[] = {"id", "handle", "type", "name", "value", NULL};
    has_columns(data, dcols);
    assert_int_equal(pv_view_rows(data), 3);
    assert_string_equal(cell_text(data, 2, "type"), "state");
    assert_string_equal(cell_text(data, 2, "name"), "Mode");
    pv_view *vh = pv_view_open_detail(data, pv_view_detail_index(data, "value-history"), 2);
    assert_int_equal(pv_view_rows(vh), 1);
    assert_int_equal(cell_int(vh, 0, "time"), 35);
    assert_int_equal(cell_int(vh, 0, "duration"), 20);
    pv_view_free(vh);

    const pv_view *ctx = view(f, "contexts");
    static const char *const ccols[] = {"id", "handle", "name", NULL};
    has_columns(ctx, ccols);
    assert_int_equal(pv_view_rows(ctx), 1);
    pv_file_free(f);
}

/* --from/--to: the timeline holds only the events in the window. */
static void test_views_window(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    static const int64_t t[] = {0, 10, 20, 30, 40, 48, 60, 70};
    for (size_t i = 0; i < PV_ARRAY_LEN(t); i++)
        ev(d, FN_F, i % 2 ? 'X' : 'E', 0, t[i]);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    o.has_from = o.has_to = true;
    o.from = 25;
    o.to = 65;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    const pv_view *tl = view(f, "timeline");
    assert_int_equal(pv_view_rows(tl), 4);
    assert_int_equal(cell_int(tl, 0, "index"), 3);
    assert_int_equal(cell_int(tl, 0, "time"), 30);
    /* calls overlapping [25, 65]: those entered at 20, 40, 60 */
    assert_int_equal(pv_view_rows(view(f, "call-trace")), 3);
    pv_file_free(f);
}

/* Deferred indexing (cat): the first events are read after indexing only a
 * prefix; any other view finishes the index, with the same numbers as an
 * eager load. */
static void test_views_deferred_index(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    for (int i = 0; i < 200000; i++) /* f E/X pairs, 10 ns apart */
        ev(d, FN_F, i % 2 ? 'X' : 'E', 0, (int64_t)i * 10);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    o.defer_index = true;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    const pv_timeline_index *ix = pv_wi_file_index(f);
    assert_non_null(ix);
    const pv_view *tl = view(f, "timeline");
    assert_int_equal(pv_view_rows(tl), 200000);
    assert_int_equal(cell_int(tl, 1, "depth"), 0);
    assert_false(ix->complete);
    assert_true(ix->indexed < 200000);
    assert_string_equal(pv_file_index_unit(f), "events"); /* the viewer's "M events/s" */
    const pv_view *st = view(f, "statistics");
    assert_int_equal(pv_view_rows(st), 2); /* f in Unknown, Neutral */
    assert_true(ix->complete);
    /* 100000 calls of 10 ns each */
    assert_int_equal(cell_int(st, 0, "count"), 100000);
    assert_int_equal(cell_int(st, 0, "call"), 1000000);
    assert_int_equal(cell_int(st, 0, "call_max"), 10);
    assert_int_equal(pv_view_rows(view(f, "call-trace")), 100000);
    assert_int_equal(pv_view_rows(view(f, "routines")), 1);
    pv_file_free(f);
}

/* Every row and cell of a view, as `cat` writes them (exact values). */
static char *view_text(const pv_view *v)
{
    pv_buf b;
    pv_buf_init(&b);
    for (size_t row = 0; row < pv_view_rows(v); row++) {
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell x;
            pv_view_cell(v, row, c, &x);
            if (x.present)
                pv_cell_format_exact(&x, &b);
            pv_buf_putc(&b, '\t');
        }
        pv_buf_putc(&b, '\n');
    }
    pv_buf_putc(&b, '\0');
    return b.data; /* the caller frees it */
}

/* Opens detail d of `row` in two views of the same data (one from a scan,
 * one from the viewer's lists) and asserts that both have it or neither,
 * reading the same.  Returns whether they have it (*x and *y then for the
 * caller to free). */
static bool open_same_detail(const pv_view *a, const pv_view *b, size_t d, size_t row, pv_view **x,
                             pv_view **y)
{
    *x = pv_view_open_detail(a, d, row);
    *y = pv_view_open_detail(b, d, row);
    assert_int_equal(*x != NULL, *y != NULL);
    if (!*x)
        return false;
    char *tx = view_text(*x), *ty = view_text(*y);
    assert_string_equal(tx, ty);
    free(tx);
    free(ty);
    return true;
}

/* docs/winidea-model.md "The viewer's area lists": a viewer's details (the
 * calls of a statistics row, the value history of a data area or of a
 * state, a routine's callers and callees) read the lists built after its
 * index; they equal the details of a load that scans (the CLI's), on every
 * sample, whole and in a window. */
static void test_viewer_detail_lists(void **state)
{
    (void)state;
    const char *samples[] = {"rtos.txt", "rtos-v11.txt", "rtos-ctx.txt", "rtos-v10.txt"};
    size_t compared = 0, listed_rows = 0;
    for (size_t s = 0; s < 2 * sizeof samples / sizeof *samples; s++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sample-data/%s", PV_SOURCE_DIR, samples[s / 2]);
        pv_load_options o;
        pv_load_options_init(&o);
        if (s % 2) { /* a window */
            o.has_from = o.has_to = true;
            o.from = 20000;
            o.to = 150000;
        }
        pv_load_status st;
        pv_file *scan = pv_load_file(path, &o, &st);
        assert_int_equal(st, PV_LOAD_OK);
        o.defer_index = true;
        pv_file *viewer = pv_load_file(path, &o, &st);
        assert_int_equal(st, PV_LOAD_OK);
        while (!pv_file_index_step(viewer, 100))
            ;
        const char *owners[] = {"statistics", "data", "routines"};
        for (size_t w = 0; w < 3; w++) {
            const pv_view *a = view(scan, owners[w]), *b = view(viewer, owners[w]);
            assert_int_equal(pv_view_rows(a), pv_view_rows(b));
            for (size_t d = 0; d < a->detail_count; d++)
                for (size_t row = 0; row < pv_view_rows(a); row++) {
                    pv_view *x, *y;
                    if (!open_same_detail(a, b, d, row, &x, &y))
                        continue;
                    compared++;
                    listed_rows += pv_view_rows(x);
                    pv_view_free(x);
                    pv_view_free(y);
                }
        }
        pv_file_free(scan);
        pv_file_free(viewer);
    }
    assert_true(compared > 100);
    assert_true(listed_rows > 1000);
}

/* A generated timeline whose data keys have states, for the viewer's
 * state lists: a variable Mode (0x20000000) with states 0..4 written by W
 * (values 5 and 6 have no state), read by R, and entered by E/X on the state
 * handle; a mapping duplicate of state 2 and a state 0x1_00000003 (the same
 * low 32 bits as 3); a state that is never entered; AUX states entered by
 * E; a variable without states; calls of f around them.  Value 1 is written
 * most, so that its history passes the 100 000-row cut. */
static pv_wi_data *stateful_data(size_t events)
{
    pv_wi_data *d = data_new();
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, 0x20000000u, "Mode", 4);
    for (uint64_t v = 0; v < 5; v++)
        add_state(d, 0x30000000u, v);
    add_state(d, 0x30000000u, 2);
    add_state(d, 0x30000000u, UINT64_C(0x100000003));
    add_state(d, 0x30000000u, 9);
    pv_wi_add_area(d, 0x40000000u, "Aux", 3);
    for (uint64_t v = 0; v < 3; v++)
        add_state(d, 0x50000000u, v);
    pv_wi_add_area(d, 0x20000001u, "Counter", 7);
    uint64_t r = 12345;
    int64_t time = 0;
    for (size_t i = 0; i < events; i++) {
        r = r * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        unsigned pick = (unsigned)(r >> 33) % 16, value = (unsigned)(r >> 40) % 7;
        if ((r >> 50) % 2)
            value = 1;
        time += 1 + (int64_t)((r >> 20) % 5);
        if (pick < 6)
            ev(d, 0x20000000u, 'W', value, time);
        else if (pick < 7)
            pv_wi_add_event(d, 0x20000000u, PV_WI_RESUME, value, time); /* not a write */
        else if (pick < 9)
            ev(d, 0x30000000u, pick == 7 ? 'E' : 'X', value, time);
        else if (pick < 10)
            ev(d, 0x50000000u, 'E', value % 3, time);
        else if (pick < 11)
            ev(d, 0x40000000u, 'W', value, time);
        else if (pick < 13)
            ev(d, 0x20000001u, 'W', value, time);
        else
            ev(d, FN_F, pick % 2 ? 'E' : 'X', 0, time);
    }
    return d;
}

/* docs/winidea-model.md "The viewer's area lists": the value history of a
 * state (and of a variable whose key has states) in a viewer is a view
 * over the lists (nothing is made when it opens), with the rows of the
 * scan: whole and in a window, the 100 000-row cut included. */
static void test_viewer_state_lists(void **state)
{
    (void)state;
    size_t listed_states = 0, cut = 0;
    for (int round = 0; round < 2; round++) {
        pv_load_options o;
        memset(&o, 0, sizeof o);
        if (round) {
            o.has_from = o.has_to = true;
            o.from = 100000;
            o.to = 900000;
        }
        pv_file *scan = file_new();
        assert_int_equal(pv_wi_build(scan, stateful_data(600000), &o), PV_LOAD_OK);
        o.defer_index = true;
        pv_file *viewer = file_new();
        assert_int_equal(pv_wi_build(viewer, stateful_data(600000), &o), PV_LOAD_OK);
        while (!pv_file_index_step(viewer, 5000))
            ;
        const char *owners[] = {"statistics", "data"};
        for (size_t w = 0; w < 2; w++) {
            const pv_view *a = view(scan, owners[w]), *b = view(viewer, owners[w]);
            size_t detail = pv_view_detail_index(a, "value-history");
            size_t type = pv_view_column(a, "type");
            assert_int_equal(pv_view_rows(a), pv_view_rows(b));
            for (size_t row = 0; row < pv_view_rows(a); row++) {
                pv_view *x, *y;
                if (!open_same_detail(a, b, detail, row, &x, &y))
                    continue;
                pv_cell c;
                pv_view_cell(a, row, type, &c);
                if (c.present && c.v.s.len >= 5 &&
                    memcmp(c.v.s.ptr + c.v.s.len - 5, "state", 5) == 0) {
                    /* not a table made by a scan: a view over the lists */
                    assert_ptr_not_equal(y->ops, x->ops);
                    listed_states++;
                }
                if (pv_view_rows(x) == 100000)
                    cut++;
                pv_view_free(x);
                pv_view_free(y);
            }
        }
        pv_file_free(scan);
        pv_file_free(viewer);
    }
    assert_true(listed_states >= 4 * 11);
    assert_true(cut >= 2);
}

/* call-events (docs/cli.md): the events of a call are those of its
 * context from its entry to its exit, cut at 100 000 rows.  A context
 * variable Task switches between A (1) and B (2): f's call in A holds
 * 60 000 calls of h in A while g runs in B between them; its events are
 * f's E, then h's E and X (never g's), the first 100 000 of them. */
static void test_call_events_of_context(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_wi_add_context(d, 0x2, "B", 1);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, 0x00000003u, "h", 1);
    pv_wi_add_area(d, 0x20000006u, "Task", 4);
    add_state(d, 0x30000006u, 1);
    add_state(d, 0x30000006u, 2);
    size_t n = 0, in_a = 0, a_events = 0;
    size_t *expect = malloc(100000 * sizeof *expect);
    int64_t t = 0;
    ev(d, 0x20000006u, 'W', 1, t++), n++;
    expect[in_a++] = n;
    ev(d, FN_F, 'E', 0, t++), n++;
    for (int k = 0; k < 60000; k++) {
        ev(d, 0x20000006u, 'W', 2, t++), n++;
        ev(d, FN_G, 'E', 0, t++), n++;
        ev(d, FN_G, 'X', 0, t++), n++;
        ev(d, 0x20000006u, 'W', 1, t++), n++;
        for (int x = 0; x < 2; x++) {
            if (in_a < 100000)
                expect[in_a++] = n;
            a_events++;
            ev(d, 0x00000003u, x ? 'X' : 'E', 0, t++), n++;
        }
    }
    ev(d, FN_F, 'X', 0, t++), n++;
    assert_true(a_events + 2 > 100000);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    const pv_view *ct = view(f, "call-trace");
    assert_string_equal(cell_text(ct, 0, "routine"), "f");
    assert_string_equal(cell_text(ct, 0, "thread"), "A");
    pv_view *evs = pv_view_open_detail(ct, pv_view_detail_index(ct, "call-events"), 0);
    assert_int_equal(pv_view_rows(evs), 100000);
    for (size_t r = 0; r < 100000; r++)
        assert_int_equal(cell_int(evs, r, "index"), (int64_t)expect[r]);
    assert_string_equal(cell_text(evs, 0, "name"), "f");
    assert_string_equal(cell_text(evs, 0, "event"), "E");
    assert_string_equal(cell_text(evs, 99999, "name"), "h");
    /* f's E, then 49 999 pairs of h and an E */
    assert_string_equal(cell_text(evs, 99999, "event"), "E");
    assert_int_equal(cell_int(evs, 99999, "time"), (int64_t)expect[99999]);
    pv_view_free(evs);
    /* a call of g in B: its own E and X */
    size_t row = PV_NO_ROW;
    for (size_t r = 0; r < pv_view_rows(ct) && row == PV_NO_ROW; r++)
        if (strcmp(cell_text(ct, r, "routine"), "g") == 0)
            row = r;
    assert_int_not_equal(row, PV_NO_ROW);
    evs = pv_view_open_detail(ct, pv_view_detail_index(ct, "call-events"), row);
    assert_int_equal(pv_view_rows(evs), 2);
    assert_int_equal(cell_int(evs, 0, "index"), 3);
    assert_string_equal(cell_text(evs, 1, "event"), "X");
    pv_view_free(evs);
    free(expect);
    pv_file_free(f);
}

/* The capability hooks the viewer uses (profview/hooks.h): stepping, the
 * stepped timeline (rows not indexed show only their record), which views
 * wait, time order, time of a row, E/X partners, the events of a call, the
 * first event of an area, areas for J/K and the lanes. */
static void test_viewer_stepping(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    for (int i = 0; i < 2000; i++) /* f E/X pairs, 10 ns apart */
        ev(d, FN_F, i % 2 ? 'X' : 'E', 0, (int64_t)i * 10);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    o.defer_index = true;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    assert_string_equal(pv_file_range_view(f), "statistics");
    const pv_view *tl = view(f, "timeline");
    const pv_view *st = view(f, "statistics");
    const pv_view *ct = view(f, "call-trace");
    uint64_t done, total;
    pv_row_ref ref;
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(total, 2000);
    assert_false(pv_file_index_step(f, 100));
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, 100);
    assert_true(pv_view_waits_for_index(st, false));
    assert_true(pv_view_waits_for_index(ct, false));
    assert_false(pv_view_waits_for_index(tl, false));
    assert_true(pv_view_waits_for_index(tl, true));
    assert_false(pv_view_time_ordered(tl)); /* not known yet */
    assert_false(pv_view_related(tl, 0, PV_REL_PARTNER, &ref));
    assert_int_equal(pv_view_lane_count(tl), 0); /* lanes once complete */
    int64_t t = 0;
    assert_true(pv_view_has_time(tl));
    assert_true(pv_view_row_time(tl, 1500, &t)); /* the record's own time */
    assert_int_equal(t, 15000);
    uint64_t area = 0;
    assert_false(pv_view_row_area(tl, 1500, &area)); /* not indexed: no area yet */
    /* row 1500 is not indexed: its record's columns only, and reading it
     * does not index */
    assert_int_equal(cell_int(tl, 1500, "time"), 15000);
    assert_int_equal(cell_int(tl, 1500, "index"), 1500);
    assert_string_equal(cell_text(tl, 1500, "event"), "E");
    assert_false(cell_present(tl, 1500, "name"));
    assert_false(cell_present(tl, 1500, "depth"));
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, 100);
    assert_true(cell_present(tl, 99, "name"));
    size_t steps = 0;
    while (!pv_file_index_step(f, 64))
        steps++;
    assert_true(steps >= 2000 / 64);
    assert_true(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, total);
    assert_false(pv_view_waits_for_index(st, false));
    assert_false(pv_view_waits_for_index(tl, true));
    assert_true(pv_view_time_ordered(tl));
    assert_false(pv_view_time_ordered(st));
    assert_false(pv_view_time_ordered(ct));
    assert_true(cell_present(tl, 1500, "name"));
    assert_int_equal(pv_view_rows(st), 2);
    assert_int_equal(cell_int(st, 0, "count"), 1000);
    /* %: entry 1500 and exit 1501 are partners, in the timeline itself */
    assert_true(pv_view_related(tl, 1500, PV_REL_PARTNER, &ref));
    assert_ptr_equal(ref.view, tl);
    assert_int_equal(ref.row, 1501);
    assert_true(pv_view_related(tl, 1501, PV_REL_PARTNER, &ref));
    assert_int_equal(ref.row, 1500);
    /* the call of an event, and its events back */
    assert_true(pv_view_related(tl, 1501, PV_REL_CALL, &ref));
    assert_ptr_equal(ref.view, ct);
    assert_int_equal(ref.row, 750);
    /* call 751 (id; row 750) is the 751st E/X pair: events 1500 and 1501 */
    assert_true(pv_view_related(ct, 750, PV_REL_ENTRY, &ref));
    assert_ptr_equal(ref.view, tl);
    assert_int_equal(ref.row, 1500);
    assert_true(pv_view_related(ct, 750, PV_REL_EXIT, &ref));
    assert_int_equal(ref.row, 1501);
    assert_true(pv_view_related(ct, 750, PV_REL_TIMELINE, &ref));
    assert_int_equal(ref.row, 1500);
    assert_false(pv_view_related(ct, 750, PV_REL_PARTNER, &ref)); /* a call has no partner */
    assert_false(pv_view_related(ct, 750, PV_REL_CALLER, &ref));  /* f at the top */
    assert_true(pv_view_row_time(ct, 750, &t));
    assert_int_equal(t, 15000);
    /* t on a routine: the first event of its area */
    const pv_view *rt = view(f, "routines");
    assert_true(pv_view_related(rt, 0, PV_REL_TIMELINE, &ref));
    assert_ptr_equal(ref.view, tl);
    assert_int_equal(ref.row, 0);
    assert_false(pv_view_has_time(rt));
    /* J/K: the event, its call and its routine share the area key */
    uint64_t a2 = 0, a3 = 0;
    assert_true(pv_view_row_area(tl, 1500, &area));
    assert_true(pv_view_row_area(ct, 750, &a2));
    assert_true(pv_view_row_area(rt, 0, &a3));
    assert_int_equal(area, FN_F);
    assert_int_equal(a2, FN_F);
    assert_int_equal(a3, FN_F);
    /* lanes: the one context, which f's events show running */
    assert_int_equal(pv_view_lane_count(tl), 1);
    pv_cell name;
    pv_view_lane_name(tl, 0, &name);
    assert_true(name.present);
    assert_int_equal(pv_view_row_lane(tl, 1500), 0);
    assert_int_equal(pv_view_lane_count(st), 0);
    pv_file_free(f);
}

/* A mapping without a timeline: every view exists and is empty or small. */
static void test_views_empty_timeline(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, NULL), PV_LOAD_OK);
    assert_int_equal(pv_view_rows(view(f, "timeline")), 0);
    assert_int_equal(pv_view_rows(view(f, "call-trace")), 0);
    assert_int_equal(pv_view_rows(view(f, "statistics")), 0);
    assert_int_equal(pv_view_rows(view(f, "routines")), 0);
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_timeline),
        cmocka_unit_test(test_views_call_trace_routines),
        cmocka_unit_test(test_views_statistics_and_data),
        cmocka_unit_test(test_views_window),
        cmocka_unit_test(test_views_empty_timeline),
        cmocka_unit_test(test_views_deferred_index),
        cmocka_unit_test(test_viewer_stepping),
        cmocka_unit_test(test_viewer_detail_lists),
        cmocka_unit_test(test_viewer_state_lists),
        cmocka_unit_test(test_call_events_of_context),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
