/* Unit tests for the AQTime loader (src/formats/aqtime*.c): the cycles-to-ns
 * conversion (hand-computed values), the sum-first rule for totals
 * (docs/formats.md §5), counter titles, extra columns, detection, and paths that
 * need escaping in a SQLite URI.  Databases are built here with the SQLite
 * C API in a temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "formats/aqtime.h"
#include "profview/flame.h"
#include "profview/hooks.h"
#include "profview/load.h"

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pv_test_aqtime.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void make_db(const char *path, const char *sql)
{
    unlink(path);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *err = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
    if (rc != SQLITE_OK)
        fprintf(stderr, "%s\n", err ? err : "?");
    assert_int_equal(rc, SQLITE_OK);
    sqlite3_close(db);
}

/* Loads path with the test options t (NULL: none). */
static pv_file *load_with(const char *path, const pv_test_options *t)
{
    pv_load_options o;
    pv_load_options_init(&o);
    if (t)
        o.test = *t;
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    for (size_t i = 0; st != PV_LOAD_OK && i < f->diag.entry_count; i++)
        fprintf(stderr, "%s\n", f->diag.entries[i].text);
    assert_int_equal(st, PV_LOAD_OK);
    assert_string_equal(f->format, "aqtime");
    return f;
}

static pv_file *load(const char *path)
{
    return load_with(path, NULL);
}

/* Loaded with the test option aq-split-rows=2: every table in two halves. */
static pv_file *load_split(const char *path)
{
    pv_test_options t = {0};
    pv_test_set(&t, PV_TEST_AQ_SPLIT_ROWS, 2);
    return load_with(path, &t);
}

/* The cell of the row whose `id` is id, in column col_id. */
static int64_t cell_int(const pv_view *v, int64_t id, const char *col_id, bool *present)
{
    size_t row = pv_view_find_id(v, id);
    assert_true(row != PV_NO_ROW);
    size_t col = pv_view_column(v, col_id);
    assert_true(col != PV_NO_ROW);
    pv_cell c;
    pv_view_cell(v, row, col, &c);
    *present = c.present;
    return c.v.i;
}

static void test_cycles_to_ns(void **state)
{
    (void)state;
    /* round(cycles * 1e9 / f), by hand. */
    assert_int_equal(aq_cycles_to_ns(3579545, 3579545.0), 1000000000);
    assert_int_equal(aq_cycles_to_ns(1, 3.0), 333333333);  /* 333333333.33 */
    assert_int_equal(aq_cycles_to_ns(2, 3.0), 666666667);  /* 666666666.67 */
    assert_int_equal(aq_cycles_to_ns(5, 2e9), 3);          /* 2.5 rounds away from 0 */
    assert_int_equal(aq_cycles_to_ns(-5, 2e9), -3);
    assert_int_equal(aq_cycles_to_ns(0, 2e9), 0);
    /* 9e15 cycles at 1 GHz: 9e24 does not fit 64 bits; 128 bits keep it exact. */
    assert_int_equal(aq_cycles_to_ns((__int128)9000000000000000LL, 1e9), 9000000000000000LL);
    /* 2^62 + 1 cycles at 1 GHz stays exact (a double would lose the +1). */
    assert_int_equal(aq_cycles_to_ns((((__int128)1) << 62) + 1, 1e9), (INT64_C(1) << 62) + 1);
    /* A fractional frequency: 5 cycles at 2.5 Hz = 2 s. */
    assert_int_equal(aq_cycles_to_ns(5, 2.5), 2000000000);
    /* Saturation instead of overflow; no frequency gives 0. */
    assert_int_equal(aq_cycles_to_ns(((__int128)1) << 80, 1.0), INT64_MAX);
    assert_int_equal(aq_cycles_to_ns(100, 0.0), 0);
}

static const char *const trace_schema =
    "CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT, COUNTER_DESCRIPTION TEXT, "
    "COUNTER_FREQUENCY NUMERIC, COUNTER_NAME TEXT);"
    "CREATE TABLE FUNCTION_TRACE_PROFILER_META_ROUTINES (COL_ROUTINE_NAME TEXT, ID INTEGER, "
    "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);"
    "CREATE TABLE FUNCTION_TRACE_PROFILER_ROUTINES (COL_HIT_COUNT INTEGER, ID INTEGER, INST_ID "
    "INTEGER, PARENT_ID INTEGER, REC_ID INTEGER, COL_FOO_BAR TEXT);"
    "CREATE TABLE FUNCTION_TRACE_PROFILER_THREADS (COL_WIN32THREADID INTEGER, ID INTEGER, "
    "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);"
    "CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE (COL__S INTEGER, COL__S_WITH_CHILDREN "
    "INTEGER, COL_CALL_NO INTEGER, COL_PARENT_NO INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, "
    "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);";

/* Two calls of one cycle each at 3 Hz: each is 333333333 ns when rounded
 * alone, but the routine's total is round(2 cycles) = 666666667 ns. */
static void test_total_from_summed_cycles(void **state)
{
    (void)state;
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/sum.db", tmpdir);
    snprintf(sql, sizeof sql,
             "%s"
             "INSERT INTO INSTANCES VALUES (4, 'timed', 'Elapsed Time', 3, 'Time');"
             "INSERT INTO INSTANCES VALUES (6, 'other', 'CPU Cache Misses', 3, 'Misses');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES ('f', 0, 4, -1, -1);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES ('g', 0, 6, -1, -1);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_ROUTINES VALUES (2, 100, 4, -1, 0, 'hello');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_ROUTINES VALUES (2, 100, 6, -1, 0, NULL);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (77, 0, 4, -1, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 2, 1, -1, 0, 1, 4, 0, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 2, 0, 0, 2, 4, 0, 1);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 9, 1, -1, 0, 1, 6, 0, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (4, 4, 2, 0, 0, 2, 6, 0, 1);",
             trace_schema);
    make_db(path, sql);
    pv_file *f = load(path);
    assert_int_equal(f->set_count, 2);

    pv_result_set *s = pv_file_find_set(f, 4);
    assert_non_null(s);
    assert_string_equal(s->kind, "Function Trace");
    pv_view *r = pv_set_find_view(s, "routines");
    assert_non_null(r);
    bool present;
    assert_int_equal(cell_int(r, 100, "time", &present), 666666667);
    assert_true(present);
    /* The recursive call is inside the first: time with children counts it once. */
    assert_int_equal(cell_int(r, 100, "time_with_children", &present), 666666667);
    assert_int_equal(cell_int(r, 100, "avg_time", &present), 333333333);
    assert_int_equal(r->columns[pv_view_column(r, "time")].type, PV_TYPE_TIME);
    /* An extra column: COL_FOO_BAR -> id foo_bar, title "Foo Bar". */
    size_t extra = pv_view_column(r, "foo_bar");
    assert_true(extra != PV_NO_ROW);
    assert_string_equal(r->columns[extra].title, "Foo Bar");
    pv_view *ct = pv_set_find_view(s, "call-trace");
    assert_int_equal(cell_int(ct, 2, "time", &present), 333333333);
    assert_int_equal(cell_int(ct, 1, "time_with_children", &present), 666666667);
    assert_int_equal(cell_int(ct, 2, "thread", &present), 77);

    /* The count counter: plain counts, titled with the counter's name. */
    s = pv_file_find_set(f, 6);
    assert_non_null(s);
    r = pv_set_find_view(s, "routines");
    size_t tc = pv_view_column(r, "time");
    assert_int_equal(r->columns[tc].type, PV_TYPE_INT);
    assert_string_equal(r->columns[tc].title, "CPU Cache Misses");
    assert_int_equal(cell_int(r, 100, "time", &present), 9);
    assert_int_equal(cell_int(r, 100, "time_with_children", &present), 9);
    ct = pv_set_find_view(s, "call-trace");
    assert_string_equal(ct->columns[pv_view_column(ct, "time_with_children")].title,
                        "CPU Cache Misses with Children");
    /* No thread row in result set 6: the thread cell is empty, not borrowed from set 4. */
    cell_int(ct, 1, "thread", &present);
    assert_false(present);
    pv_file_free(f);
}

typedef struct progress_seen {
    size_t calls;
    uint64_t last_done, total;
} progress_seen;

static void progress_report(void *user, const char *what, uint64_t done, uint64_t total)
{
    progress_seen *p = user;
    assert_string_equal(what, "reading AQTime tables");
    assert_true(done >= p->last_done);
    p->calls++;
    p->last_done = done;
    p->total = total;
}

/* A large table reports its progress (rows of about the tables' rowids) and
 * a cancel stops the read with a clear error. */
static void test_progress_and_cancel(void **state)
{
    (void)state;
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/big.db", tmpdir);
    snprintf(sql, sizeof sql,
             "%s"
             "INSERT INTO INSTANCES VALUES (1, 'big', 'Elapsed Time', 1000, 'Time');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (7, 0, 1, -1, 0);"
             "WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 39999) "
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE SELECT 1, 1, x + 1, -1, 0, x + 1, 1, "
             "0, x FROM c;",
             trace_schema);
    make_db(path, sql);
    pv_load_options o;
    pv_load_options_init(&o);
    progress_seen seen = {0, 0, 0};
    o.progress.report = progress_report;
    o.progress.user = &seen;
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(seen.calls, 2); /* rows 16384 and 32768 of the call trace */
    assert_int_equal(seen.last_done, 1 + 32768); /* the INSTANCES row was read first */
    assert_int_equal(seen.total, 40002);
    pv_view *ct = pv_set_find_view(pv_file_find_set(f, 1), "call-trace");
    assert_int_equal(pv_view_rows(ct), 40000);
    pv_file_free(f);

    atomic_int cancel = 1;
    o.progress.cancel = &cancel;
    f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_ERROR);
    bool said = false;
    for (size_t i = 0; i < f->diag.entry_count; i++)
        said = said || strstr(f->diag.entries[i].text, "big.db: cancelled") != NULL;
    assert_true(said);
    pv_file_free(f);
}

/* ---- the first screen before the large tables are read (docs/aqtime.md
 * "First screen"): a load that the caller steps, with every profiler
 * table read in the background, ends with the same file as a load
 * without steps. */

static void assert_cells_equal(const pv_view *a, const pv_view *b, size_t row)
{
    for (size_t c = 0; c < a->column_count; c++) {
        pv_cell x, y;
        pv_view_cell(a, row, c, &x);
        pv_view_cell(b, row, c, &y);
        assert_int_equal(x.type, y.type);
        assert_int_equal(x.present, y.present);
        if (!x.present)
            continue;
        if (x.type == PV_TYPE_STRING) {
            assert_int_equal(x.v.s.len, y.v.s.len);
            assert_memory_equal(x.v.s.ptr, y.v.s.ptr, x.v.s.len);
        } else if (x.type == PV_TYPE_FLOAT) {
            assert_memory_equal(&x.v.f, &y.v.f, sizeof x.v.f);
        } else {
            assert_int_equal(x.v.u, y.v.u);
        }
    }
}

/* Every column, row, parent and cell; with `details`, every detail view of
 * the first rows too (one level). */
static void assert_views_equal(const pv_view *a, const pv_view *b, bool details)
{
    assert_string_equal(a->id, b->id);
    assert_string_equal(a->title, b->title);
    assert_int_equal(a->column_count, b->column_count);
    for (size_t c = 0; c < a->column_count; c++) {
        assert_string_equal(a->columns[c].id, b->columns[c].id);
        assert_string_equal(a->columns[c].title, b->columns[c].title);
        assert_int_equal(a->columns[c].type, b->columns[c].type);
        assert_int_equal(a->columns[c].flags, b->columns[c].flags);
    }
    assert_int_equal(a->detail_count, b->detail_count);
    assert_int_equal(pv_view_is_tree(a), pv_view_is_tree(b));
    assert_true(a->hooks == b->hooks);
    assert_false(pv_view_waits_for_index(b, false));
    size_t n = pv_view_rows(a);
    assert_int_equal(n, pv_view_rows(b));
    for (size_t row = 0; row < n; row++) {
        if (pv_view_is_tree(a))
            assert_int_equal(pv_view_parent(a, row), pv_view_parent(b, row));
        assert_cells_equal(a, b, row);
    }
    for (size_t d = 0; details && d < a->detail_count; d++)
        for (size_t row = 0; row < n && row < 64; row++) {
            pv_view *x = pv_view_open_detail(a, d, row), *y = pv_view_open_detail(b, d, row);
            assert_int_equal(x != NULL, y != NULL);
            if (x)
                assert_views_equal(x, y, false);
            pv_view_free(x);
            pv_view_free(y);
        }
}

/* The related rows of the call trace point at views of the stepped file. */
static void assert_hooks_follow(const pv_file *f)
{
    for (size_t s = 0; s < f->set_count; s++)
        for (size_t vi = 0; vi < f->sets[s]->view_count; vi++) {
            const pv_view *v = f->sets[s]->views[vi];
            for (size_t row = 0; row < pv_view_rows(v) && row < 64; row++) {
                pv_row_ref ref;
                if (!pv_view_related(v, row, PV_REL_FIRST, &ref))
                    continue;
                bool found = false;
                for (size_t k = 0; k < f->sets[s]->view_count; k++)
                    found = found || f->sets[s]->views[k] == ref.view;
                assert_true(found);
            }
        }
}

/* Loaded in steps (a viewer) with every profiler's tables read after the
 * first screen (aq-defer-rows=0); `paused`: that reading starts paused
 * (aq-defer-paused=1). */
static pv_file *load_stepped_as(const char *path, bool paused)
{
    pv_load_options o;
    pv_load_options_init(&o);
    o.steps = true;
    o.defer_index = true;
    pv_test_set(&o.test, PV_TEST_AQ_DEFER_ROWS, 0);
    if (paused)
        pv_test_set(&o.test, PV_TEST_AQ_DEFER_PAUSED, 1);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    return f;
}

static pv_file *load_stepped(const char *path)
{
    return load_stepped_as(path, false);
}

static void assert_stepped_equals_eager(const char *path)
{
    pv_file *e = load(path);
    pv_file *f = load_stepped(path);
    /* The first screen: every result set with its summary; the other views
     * wait, the file is not indexed yet and says nothing yet. */
    assert_int_equal(f->set_count, e->set_count);
    uint64_t done, total;
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_true(total > 0);
    assert_string_equal(pv_file_index_unit(f), "rows"); /* the viewer's "M rows/s" */
    assert_int_equal(f->diag.entry_count, 0);
    for (size_t s = 0; s < f->set_count; s++) {
        assert_int_equal(f->sets[s]->view_count, e->sets[s]->view_count);
        assert_false(pv_view_waits_for_index(f->sets[s]->views[0], false));
        assert_views_equal(e->sets[s]->views[0], f->sets[s]->views[0], false);
        for (size_t v = 1; v < f->sets[s]->view_count; v++) {
            assert_true(pv_view_waits_for_index(f->sets[s]->views[v], false));
            assert_string_equal(f->sets[s]->views[v]->id, e->sets[s]->views[v]->id);
            assert_int_equal(pv_view_rows(f->sets[s]->views[v]), 0);
        }
    }
    /* Steps of a few rows until it is done, as a viewer does. */
    size_t steps = 0;
    while (!pv_file_index_step(f, 4096))
        steps++;
    assert_true(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, total);
    /* Then the same file: messages, result sets, notes, views. */
    assert_int_equal(f->diag.warnings, e->diag.warnings);
    assert_int_equal(f->diag.errors, e->diag.errors);
    assert_int_equal(f->diag.entry_count, e->diag.entry_count);
    for (size_t i = 0; i < e->diag.entry_count; i++)
        assert_string_equal(f->diag.entries[i].text, e->diag.entries[i].text);
    for (size_t s = 0; s < e->set_count; s++) {
        const pv_result_set *a = e->sets[s], *b = f->sets[s];
        assert_int_equal(a->id, b->id);
        assert_string_equal(a->caption, b->caption);
        assert_string_equal(a->kind, b->kind);
        assert_int_equal(a->note_count, b->note_count);
        for (size_t k = 0; k < a->note_count; k++)
            assert_string_equal(a->notes[k], b->notes[k]);
        for (size_t v = 0; v < a->view_count; v++)
            assert_views_equal(a->views[v], b->views[v], true);
    }
    assert_hooks_follow(f);
    pv_file_free(e);
    pv_file_free(f);
}

/* docs/aqtime.md "First screen": Ctrl-C in the viewer pauses the thread
 * that reads the large tables; nothing is read while paused, `:index` (or
 * a step) lets it go on to the same file, and closing a paused file ends
 * the thread. */
static void test_stepped_load_paused(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/sample-data/aqtime-trace.db", PV_SOURCE_DIR);
    pv_file *f = load_stepped_as(path, true);
    pv_file *g = load_stepped_as(path, true);
    pv_file *e = load(path);
    uint64_t done, total;
    /* paused from the start: the reader holds at its first report, nothing
     * read, nothing built (it cannot go on while held) */
    assert_true(aq_defer_held(f, 30));
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, 0);
    /* :index lets it go on: it completes without a step ... */
    pv_file_index_pause(f, false);
    assert_true(aq_defer_finished(f, 30));
    pv_file_index_progress(f, &done, &total);
    assert_int_equal(done, total - 1); /* read and built; not moved in yet */
    /* ... paused again, a step also lets it go on (never a wait for ever) */
    pv_file_index_pause(f, true);
    while (!pv_file_index_step(f, 4096))
        ;
    for (size_t s = 0; s < e->set_count; s++)
        for (size_t v = 0; v < e->sets[s]->view_count; v++)
            assert_views_equal(e->sets[s]->views[v], f->sets[s]->views[v], true);
    /* closing a file whose thread is paused ends the thread */
    pv_file_free(g);
    pv_file_free(f);
    pv_file_free(e);
}

static void test_stepped_load(void **state)
{
    (void)state;
    const char *samples[] = {"aqtime-trace.db", "aqtime-resource.db", "aqtime-refcount.db"};
    for (size_t k = 0; k < sizeof samples / sizeof *samples; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sample-data/%s", PV_SOURCE_DIR, samples[k]);
        assert_stepped_equals_eager(path);
    }
    /* a larger call trace, with a loop of parents, a text where a number
     * belongs and a call of no thread (messages from the background read
     * and from the build) */
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/stepped.db", tmpdir);
    snprintf(sql, sizeof sql,
             "%s"
             "INSERT INTO INSTANCES VALUES (1, 'big', 'Elapsed Time', 1000, 'Time');"
             "INSERT INTO INSTANCES VALUES (2, 'small', 'Elapsed Time', 0, 'Time');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (7, 0, 1, -1, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (8, 0, 2, -1, 0);"
             "WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 29999) "
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE SELECT 1, 1, x + 1, "
             "CASE WHEN x %% 7 = 0 THEN -1 ELSE x - 1 - x %% 3 END, x %% 5, x + 1, 1, 0, x FROM c;"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 'abc', 9, 40000, 0, 1, 2, "
             "0, 40000);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (2, 1, 1, -1, 0, 5, 2, 0, 0);",
             trace_schema);
    make_db(path, sql);
    assert_stepped_equals_eager(path);

    /* Calls of an INST_ID that neither INSTANCES nor a table read before the
     * first screen names: a load without steps shows them as a result set
     * of their own; the stepped one cannot add it later and says so. */
    char sql2[4096];
    snprintf(sql2, sizeof sql2,
             "%s"
             "INSERT INTO INSTANCES VALUES (1, 'big', 'Elapsed Time', 1000, 'Time');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (7, 0, 1, -1, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 1, -1, 0, 1, 1, 0, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 1, -1, 0, 1, 3, 0, 0);",
             trace_schema);
    make_db(path, sql2);
    pv_file *e = load(path), *f = load_stepped(path);
    assert_int_equal(e->set_count, 2);
    assert_int_equal(f->set_count, 1);
    assert_true(pv_file_index_step(f, SIZE_MAX));
    bool said = false;
    for (size_t i = 0; i < f->diag.entry_count; i++)
        said = said || strstr(f->diag.entries[i].text,
                              "result set 3 (Function Trace) has rows only in tables read after "
                              "the file was opened") != NULL;
    assert_true(said);
    assert_views_equal(pv_set_find_view(e->sets[0], "call-trace"),
                       pv_set_find_view(f->sets[0], "call-trace"), true);
    pv_file_free(e);
    pv_file_free(f);
}

/* A large table is read by two threads, each a half of its rowids
 * (docs/aqtime.md, Scale): the file is the same as when it is read in one,
 * with values of other kinds, NULLs, rows without INST_ID and texts where
 * numbers belong in either half (messages name the same rows). */
static void test_split_read(void **state)
{
    (void)state;
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/split.db", tmpdir);
    snprintf(sql, sizeof sql,
             "%s"
             "INSERT INTO INSTANCES VALUES (1, 'big', 'Elapsed Time', 1000, 'Time');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (7, 0, 1, -1, 0);"
             "WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 9999) "
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE SELECT "
             "CASE x WHEN 8000 THEN 2.5 WHEN 6000 THEN 9000000000 ELSE x %% 11 END, "
             "CASE x WHEN 3000 THEN 'abc' WHEN 9500 THEN 'xyz' ELSE 100 END, "
             "CASE WHEN x IN (100, 9999) THEN NULL ELSE x + 1 END, "
             "CASE WHEN x %% 5 = 0 THEN -1 ELSE x - 1 END, x %% 3, x + 1, "
             "CASE WHEN x IN (10, 7000) THEN NULL ELSE 1 END, 0, x FROM c;",
             trace_schema);
    make_db(path, sql);
    pv_file *one = load(path);
    pv_file *two = load_split(path);
    assert_int_equal(one->diag.warnings, two->diag.warnings);
    assert_int_equal(one->diag.entry_count, two->diag.entry_count);
    bool row_9501 = false;
    for (size_t i = 0; i < one->diag.entry_count; i++) {
        assert_string_equal(one->diag.entries[i].text, two->diag.entries[i].text);
        row_9501 = row_9501 || strstr(two->diag.entries[i].text, "row 9501 (ID 9501)") != NULL;
    }
    assert_true(row_9501);
    assert_int_equal(one->set_count, 1);
    assert_int_equal(two->set_count, 1);
    for (size_t v = 0; v < one->sets[0]->view_count; v++)
        assert_views_equal(one->sets[0]->views[v], two->sets[0]->views[v], true);
    assert_int_equal(pv_view_rows(pv_set_find_view(two->sets[0], "call-trace")), 9998);
    pv_file_free(one);
    pv_file_free(two);

    /* With a rowid missing the second half cannot know its first row's
     * number: the first reader reads it after its own half. */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM FUNCTION_TRACE_PROFILER_CALL_TRACE "
                                      "WHERE rowid = 2000", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    one = load(path);
    two = load_split(path);
    assert_int_equal(one->diag.entry_count, two->diag.entry_count);
    bool row_9500 = false;
    for (size_t i = 0; i < one->diag.entry_count; i++) {
        assert_string_equal(one->diag.entries[i].text, two->diag.entries[i].text);
        row_9500 = row_9500 || strstr(two->diag.entries[i].text, "row 9500 (ID 9501)") != NULL;
    }
    assert_true(row_9500);
    for (size_t v = 0; v < one->sets[0]->view_count; v++)
        assert_views_equal(one->sets[0]->views[v], two->sets[0]->views[v], true);
    pv_file_free(one);
    pv_file_free(two);
}

/* The call trace's capability hooks (docs/aqtime.md "In the viewer"): the
 * caller of a call, a routine's first call, the routine as the area, a lane
 * per thread, and no time axis. */
/* No view shows two columns with one title (a table's own COL_CALL_NO next
 * to a stack's position once did): every view and every detail view of
 * every row of the AQTime samples. */
static void assert_titles_distinct(const pv_view *v)
{
    for (size_t i = 0; i < v->column_count; i++)
        for (size_t j = i + 1; j < v->column_count; j++)
            if (strcmp(v->columns[i].title, v->columns[j].title) == 0) {
                fprintf(stderr, "view %s: columns %s and %s are both titled '%s'\n", v->id,
                        v->columns[i].id, v->columns[j].id, v->columns[i].title);
                fail();
            }
}

static void test_titles_distinct(void **state)
{
    (void)state;
    const char *samples[] = {"aqtime-trace.db", "aqtime-resource.db", "aqtime-refcount.db"};
    for (size_t k = 0; k < sizeof samples / sizeof *samples; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sample-data/%s", PV_SOURCE_DIR, samples[k]);
        pv_file *f = load(path);
        size_t details = 0;
        for (size_t s = 0; s < f->set_count; s++)
            for (size_t vi = 0; vi < f->sets[s]->view_count; vi++) {
                const pv_view *v = f->sets[s]->views[vi];
                assert_titles_distinct(v);
                for (size_t d = 0; d < v->detail_count; d++)
                    for (size_t row = 0; row < pv_view_rows(v); row++) {
                        pv_view *dv = pv_view_open_detail(v, d, row);
                        if (!dv)
                            continue;
                        assert_titles_distinct(dv);
                        details++;
                        pv_view_free(dv);
                    }
            }
        assert_true(details > 0);
        pv_file_free(f);
    }
}

static void test_trace_hooks(void **state)
{
    (void)state;
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/hooks.db", tmpdir);
    /* thread 77: f(1) > g(2) > g(3); f(4).  thread 88: g(5). */
    snprintf(sql, sizeof sql,
             "%s"
             "INSERT INTO INSTANCES VALUES (1, 'run', 'Elapsed Time', 1000000000, 'Time');"
             "INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES ('f', 10, 1, -1, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES ('g', 11, 1, -1, 1);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_ROUTINES VALUES (2, 10, 1, -1, 0, NULL);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_ROUTINES VALUES (3, 11, 1, -1, 1, NULL);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (77, 0, 1, -1, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (88, 1, 1, -1, 1);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 9, 1, -1, 10, 1, 1, 0, 0);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (2, 4, 2, 0, 11, 2, 1, 0, 1);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (2, 2, 3, 1, 11, 3, 1, 0, 2);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 4, -1, 10, 4, 1, 0, 3);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (7, 7, 1, -1, 11, 5, 1, 1, 0);",
             trace_schema);
    make_db(path, sql);
    pv_file *f = load(path);
    pv_result_set *s = pv_file_find_set(f, 1);
    pv_view *ct = pv_set_find_view(s, "call-trace");
    pv_view *rt = pv_set_find_view(s, "routines");
    assert_int_equal(pv_view_rows(ct), 5);
    /* rows in pre-order, threads in THREADS order: ids 1 2 3 4 5 */
    for (size_t r = 0; r < 5; r++)
        assert_int_equal(pv_view_find_id(ct, (int64_t)r + 1), r);
    pv_row_ref ref;
    assert_true(pv_view_related(ct, 2, PV_REL_CALLER, &ref)); /* g(3) -> g(2) */
    assert_ptr_equal(ref.view, ct);
    assert_int_equal(ref.row, 1);
    assert_true(pv_view_related(ct, 1, PV_REL_CALLER, &ref)); /* g(2) -> f(1) */
    assert_int_equal(ref.row, 0);
    assert_false(pv_view_related(ct, 0, PV_REL_CALLER, &ref)); /* top of its thread */
    assert_false(pv_view_related(ct, 1, PV_REL_PARTNER, &ref)); /* no entry/exit rows */
    assert_true(pv_view_related(ct, 3, PV_REL_TIMELINE, &ref));  /* a call: itself */
    assert_int_equal(ref.row, 3);
    assert_true(pv_view_related(ct, 4, PV_REL_FIRST, &ref)); /* g's first call: g(2) */
    assert_int_equal(ref.row, 1);
    /* t from a routine: its first call */
    size_t g_row = pv_view_find_id(rt, 11), f_row = pv_view_find_id(rt, 10);
    assert_true(pv_view_related(rt, g_row, PV_REL_TIMELINE, &ref));
    assert_ptr_equal(ref.view, ct);
    assert_int_equal(ref.row, 1);
    assert_true(pv_view_related(rt, f_row, PV_REL_TIMELINE, &ref));
    assert_int_equal(ref.row, 0);
    /* J / K: calls of g share an area with g's routine row, not with f */
    uint64_t a1, a2, a3, a4;
    assert_true(pv_view_row_area(ct, 1, &a1));
    assert_true(pv_view_row_area(ct, 4, &a2));
    assert_true(pv_view_row_area(rt, g_row, &a3));
    assert_true(pv_view_row_area(ct, 0, &a4));
    assert_true(a1 == a2 && a2 == a3 && a1 != a4);
    /* lanes: a thread each */
    assert_int_equal(pv_view_lane_count(ct), 2);
    pv_cell name;
    pv_view_lane_name(ct, 1, &name);
    assert_true(name.present);
    assert_int_equal(name.v.s.len, strlen("Thread 88"));
    assert_memory_equal(name.v.s.ptr, "Thread 88", name.v.s.len);
    assert_int_equal(pv_view_row_lane(ct, 3), 0);
    assert_int_equal(pv_view_row_lane(ct, 4), 1);
    assert_int_equal(pv_view_lane_count(rt), 0);
    /* statistics of the calls of rows 1..3 (g2 > g3, f4), at 1 GHz: g twice,
     * own 2 + 2, with children 4 once (g3 is inside g2); f once */
    pv_view *rs = pv_view_range_statistics(ct, 3, 1);
    assert_non_null(rs);
    assert_int_equal(pv_view_rows(rs), 2);
    size_t gr = pv_view_find_id(rs, 11), fr = pv_view_find_id(rs, 10);
    assert_int_equal(gr, 0);
    assert_int_equal(fr, 1);
    pv_cell c;
    static const struct {
        const char *col;
        int64_t g, f;
    } want[] = {{"hits", 2, 1}, {"time", 4, 1}, {"time_with_children", 4, 1},
                {"min_time", 2, 1}, {"max_time", 2, 1}, {"avg_time", 2, 1}};
    for (size_t k = 0; k < PV_ARRAY_LEN(want); k++) {
        pv_view_cell(rs, gr, pv_view_column(rs, want[k].col), &c);
        assert_int_equal(c.v.i, want[k].g);
        pv_view_cell(rs, fr, pv_view_column(rs, want[k].col), &c);
        assert_int_equal(c.v.i, want[k].f);
    }
    pv_view_free(rs);
    assert_null(pv_view_range_statistics(ct, 0, 5)); /* past the end */
    assert_null(pv_view_range_statistics(rt, 0, 1)); /* routines have none */
    /* no clock, nothing to index, no range view */
    int64_t t;
    assert_false(pv_view_has_time(ct));
    assert_false(pv_view_row_time(ct, 0, &t));
    assert_false(pv_view_waits_for_index(ct, true));
    assert_null(pv_file_range_view(f));
    uint64_t done, total;
    assert_true(pv_file_index_step(f, 10));
    assert_true(pv_file_index_progress(f, &done, &total));
    pv_file_free(f);
}

/* A path with characters that mean something in a URI still opens. */
static void test_uri_escaping(void **state)
{
    (void)state;
    char path[512], sql[4096];
    snprintf(path, sizeof path, "%s/odd name?#%%25.db", tmpdir);
    snprintf(sql, sizeof sql,
             "%s INSERT INTO INSTANCES VALUES (1, 'x', NULL, NULL, NULL);"
             "INSERT INTO FUNCTION_TRACE_PROFILER_THREADS VALUES (5, 0, 1, -1, 0);",
             trace_schema);
    make_db(path, sql);
    pv_file *f = load(path);
    pv_view *t = pv_set_find_view(f->sets[0], "threads");
    assert_int_equal(pv_view_rows(t), 1);
    pv_file_free(f);
}

static void test_probe(void **state)
{
    (void)state;
    const pv_loader *l = pv_loader_find("aqtime");
    assert_non_null(l);
    unsigned char head[128] = "SQLite format 3";
    assert_int_equal(l->probe(head, sizeof head, sizeof head, "x"), 85);
    memcpy(head + 100, "RESOURCE_PROFILER_OBJECTS", 25);
    assert_int_equal(l->probe(head, sizeof head, sizeof head, "x"), 95);
    memcpy(head, "SQLite format 2", 15);
    assert_int_equal(l->probe(head, sizeof head, sizeof head, "x"), 0);
    assert_int_equal(l->probe(head, 10, 10, "x"), 0);
}

/* A text cell as a NUL-terminated copy, or NULL when absent. */
static char *cell_text(const pv_view *v, size_t row, size_t col)
{
    pv_cell c;
    pv_view_cell(v, row, col, &c);
    return c.present ? pv_xstrndup(c.v.s.ptr, c.v.s.len) : NULL;
}

/* The flame graph of a time counter in cycles (docs/flame.md "Raw
 * values"): each routine's self time in the graph (its sandwich's) and the
 * time through it are its Routines time and time with children to the ns:
 * the calls' cycles summed, then converted once.  On the generated sample
 * (3579545 Hz) the calls' times converted one by one and summed differ from
 * them, which is what the graph did. */
static void test_flame_sums_cycles_first(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/sample-data/aqtime-trace.db", PV_SOURCE_DIR);
    pv_file *f = load(path);
    pv_result_set *s = pv_file_find_set(f, 1);
    assert_non_null(s);
    pv_view *routines = pv_set_find_view(s, "routines"), *tree = pv_flame_source(s);
    assert_non_null(routines);
    assert_non_null(tree);
    size_t r_name = pv_view_column(routines, "routine"), r_module = pv_view_column(routines, "module"),
           r_time = pv_view_column(routines, "time"), r_twc = pv_view_column(routines, "time_with_children"),
           r_calls = pv_view_column(routines, "calls"), r_id = pv_view_column(routines, "id");
    assert_int_equal(routines->columns[r_time].type, PV_TYPE_TIME);
    char err[256];
    pv_flame *fl = pv_flame_build(tree, NULL, 0, err, sizeof err);
    assert_non_null(fl);
    /* the calls' own times as the call trace shows them, summed per routine */
    size_t t_time = pv_view_column(tree, "time"), t_rid = pv_view_column(tree, "routine_id");
    size_t checked = 0, rounding_differs = 0;
    for (size_t r = 0; r < pv_view_rows(routines); r++) {
        pv_cell calls, time, twc, id;
        pv_view_cell(routines, r, r_calls, &calls);
        pv_view_cell(routines, r, r_time, &time);
        pv_view_cell(routines, r, r_twc, &twc);
        pv_view_cell(routines, r, r_id, &id);
        char *name = cell_text(routines, r, r_name), *module = cell_text(routines, r, r_module);
        if (calls.present && calls.v.i > 0 && time.present && name) {
            pv_sandwich sw;
            assert_true(pv_sandwich_build(fl, name, strlen(name), module, &sw));
            assert_int_equal(sw.self, time.v.i);
            assert_int_equal(sw.through, twc.v.i);
            pv_sandwich_free(&sw);
            int64_t per_call = 0;
            for (size_t k = 0; k < pv_view_rows(tree); k++) {
                pv_cell rid, t;
                pv_view_cell(tree, k, t_rid, &rid);
                pv_view_cell(tree, k, t_time, &t);
                if (rid.present && rid.v.i == id.v.i && t.present)
                    per_call += t.v.i;
            }
            rounding_differs += per_call != time.v.i;
            checked++;
        }
        free(name);
        free(module);
    }
    assert_true(checked >= 5);
    assert_true(rounding_differs > 0); /* the sample is one where it matters */
    pv_flame_free(fl);
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cycles_to_ns),
        cmocka_unit_test(test_total_from_summed_cycles),
        cmocka_unit_test(test_flame_sums_cycles_first),
        cmocka_unit_test(test_trace_hooks),
        cmocka_unit_test(test_titles_distinct),
        cmocka_unit_test(test_uri_escaping),
        cmocka_unit_test(test_progress_and_cancel),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_stepped_load),
        cmocka_unit_test(test_stepped_load_paused),
        cmocka_unit_test(test_split_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
