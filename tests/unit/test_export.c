/* test_export.c - the generic SQLite export (src/export) as a viewer runs
 * it: the selection of a filtered export reports its progress before any
 * row is written and stops when cancelled (leaving no file); the
 * statements that work inside SQLite alone (CREATE INDEX, COMMIT) keep
 * reporting while they run; big work blocks go to the request's trash
 * (docs/export.md "In the viewer"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "profview/export.h"
#include "profview/load.h"
#include "profview/table.h"

enum { N = 300000 };

static const pv_column cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
};

/* One result set with a `timeline` of N rows; handles in no order, so
 * that their index is a real sort. */
static pv_file *make_file(void)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("test.file");
    f->format = "test";
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Run", "test");
    pv_table *t = pv_table_new("timeline", "Timeline", cols, PV_ARRAY_LEN(cols));
    for (int i = 0; i < N; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, i);
        pv_table_set_int(t, r, 1, (int64_t)i * 10);
        pv_table_set_uint(t, r, 2, (uint64_t)((i * 7919u) % 100003u));
        pv_table_set_cstr(t, r, 3, i % 3 ? "fn" : "other");
    }
    pv_set_add_view(set, pv_table_view(t));
    return f;
}

/* What the progress reports saw. */
static struct {
    int calls;
    char first[32];
    uint64_t first_done;
    int selecting;      /* reports while selecting the rows */
    int cancel_after;   /* > 0: cancel at that report */
    bool cancel_at_end; /* cancel once every row is written (the index, the COMMIT) */
    int at_end;         /* reports after every row was written */
    atomic_int cancel;
} seen;

static void report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)user;
    (void)total;
    if (!seen.calls++) {
        snprintf(seen.first, sizeof seen.first, "%s", what);
        seen.first_done = done;
    }
    if (strcmp(what, "selecting rows") == 0)
        seen.selecting++;
    if (seen.cancel_after && seen.calls >= seen.cancel_after)
        atomic_store(&seen.cancel, 1);
    if (strcmp(what, "exporting") == 0 && total && done == total) {
        /* the third such report: the helper thread's statements (the
         * waiting thread reports every millisecond while they run) */
        if (++seen.at_end == 3 && seen.cancel_at_end)
            atomic_store(&seen.cancel, 1);
    }
}

static void request(pv_export_request *r, const char *filter)
{
    memset(&seen, 0, sizeof seen);
    pv_export_request_init(r);
    r->format = PV_EXPORT_SQLITE;
    r->view_id = "timeline";
    r->filter = filter;
    r->progress.report = report;
    r->progress.cancel = &seen.cancel;
}

static int64_t count_rows(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static void out_path(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/pv-test-export-%ld-%s.db", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid(), name);
    remove(path);
}

/* A filtered export reads every row before it writes one: it says so
 * ("selecting rows") from the start, then writes what matched. */
static void test_selection_reports_before_rows(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "filtered");
    pv_export_request r;
    request(&r, "name == \"other\"");
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, &r, path, false, &err), PV_EXPORT_OK);
    assert_string_equal(seen.first, "selecting rows");
    assert_true(seen.first_done == 0);
    /* every 64 K rows of the N: the identity, then the filter */
    assert_true(seen.selecting >= 2 * (N / 65536));
    assert_int_equal(count_rows(path, "SELECT count(*) FROM timeline"), (N + 2) / 3);
    assert_int_equal(count_rows(path, "SELECT count(*) FROM timeline WHERE name <> 'other'"), 0);
    remove(path);
    pv_diag_free(&err);
    pv_file_free(f);
}

/* Cancelled while selecting: nothing is written, no file is left. */
static void test_cancel_while_selecting(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "cancelled");
    pv_export_request r;
    request(&r, "name == \"other\"");
    seen.cancel_after = 3;
    pv_trash trash = {0};
    r.trash = &trash;
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, &r, path, false, &err), PV_EXPORT_CANCELLED);
    assert_int_equal(seen.calls, 3);
    assert_string_equal(seen.first, "selecting rows");
    assert_int_not_equal(access(path, F_OK), 0);
    pv_trash_free(&trash);
    pv_diag_free(&err);
    pv_file_free(f);
}

/* Every row of the view: its handle index (a sort inside SQLite) and the
 * COMMIT run on a helper thread while this one reports; the database is
 * whole.  The work blocks go to the trash, which a viewer empties in
 * steps. */
static void test_reports_through_index_and_commit(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "whole");
    pv_export_request r;
    request(&r, "id >= 0");
    pv_trash trash = {0};
    r.trash = &trash;
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, &r, path, false, &err), PV_EXPORT_OK);
    assert_int_equal(count_rows(path, "SELECT count(*) FROM timeline"), N);
    /* the index exists and is the handles' */
    assert_int_equal(count_rows(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
                                      "AND name = 'timeline_by_handle'"),
                     1);
    assert_int_equal(count_rows(path, "SELECT min(handle) FROM timeline INDEXED BY "
                                      "timeline_by_handle WHERE handle >= 0"),
                     0);
    assert_true(seen.at_end > 0);
    pv_trash_free(&trash); /* what went there is not leaked (ASan) */
    remove(path);
    pv_diag_free(&err);
    pv_file_free(f);
}

/* Cancelled once the rows are written (in the index, on the helper
 * thread: sqlite3_interrupt, and past a grace time the connection is left
 * to the helper, which closes it): CANCELLED, no file; ASan and TSan see
 * the connection handed over cleanly. */
static void test_cancel_in_index(void **state)
{
    (void)state;
    pv_file *f = make_file();
    char path[512];
    out_path(path, sizeof path, "late");
    pv_export_request r;
    request(&r, NULL);
    r.view_id = NULL; /* the whole result set */
    seen.cancel_at_end = true;
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, &r, path, false, &err), PV_EXPORT_CANCELLED);
    assert_int_not_equal(access(path, F_OK), 0);
    pv_diag_free(&err);
    pv_file_free(f);
}

/* The same with no grace (PROFVIEW_TEST_EXPORT_GRACE=0): the export's
 * thread leaves the connection to the helper at once, as it does when a
 * sort runs on for seconds after the interrupt. */
static void test_cancel_leaves_the_helper(void **state)
{
    setenv("PROFVIEW_TEST_EXPORT_GRACE", "0", 1);
    test_cancel_in_index(state);
    unsetenv("PROFVIEW_TEST_EXPORT_GRACE");
}

/* ---- another user swapping the temporary file (docs/export.md "Safety") */

typedef struct swap_ctx {
    char victim[512];
    int swaps;
} swap_ctx;

/* What another user with write access to the directory does between the
 * creation of the temporary file and the first write: the name now links
 * to a file of the user's that the export was never asked to write. */
static void swap_temp(const char *temp, void *arg)
{
    swap_ctx *c = arg;
    assert_true(strstr(temp, ".profview-tmp-") != NULL);
    assert_int_equal(unlink(temp), 0);
    assert_int_equal(symlink(c->victim, temp), 0);
    c->swaps++;
}

static char *read_all(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[256];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

/* The swapped name is never written through: the export fails with a
 * message, the victim keeps its bytes, OUT is not created, and no file of
 * ours is left (the link, which is the other user's, is not removed). */
static void swapped(pv_file *f, pv_export_format format, const char *name, const char *precious)
{
    char dir[] = "/tmp/pv-test-swap-XXXXXX";
    assert_non_null(mkdtemp(dir));
    swap_ctx c = {.swaps = 0};
    snprintf(c.victim, sizeof c.victim, "%s/victim", dir);
    FILE *fp = fopen(c.victim, "w");
    fputs(precious, fp);
    fclose(fp);
    char out[600];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    pv_export_request r;
    pv_export_request_init(&r);
    r.format = format;
    r.after_create = swap_temp;
    r.after_create_arg = &c;
    pv_diag err;
    pv_diag_init(&err);
    assert_int_equal(pv_export_file(f, &r, out, true, &err), PV_EXPORT_FAILED);
    assert_true(c.swaps >= 1);
    assert_string_equal(read_all(c.victim), precious);
    struct stat st;
    assert_int_not_equal(lstat(out, &st), 0);
    assert_true(err.entry_count >= 1 && strstr(err.entries[0].text, name) != NULL);
    printf("# %s\n", err.entries[0].text);
    pv_diag_free(&err);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_swapped_temp_sqlite(void **state)
{
    (void)state;
    pv_file *f = make_file();
    swapped(f, PV_EXPORT_SQLITE, "out.db", "precious\n");
    swapped(f, PV_EXPORT_SQLITE, "out.db", ""); /* SQLite would make a database of it */
    pv_file_free(f);
}

static void test_swapped_temp_text1_bin(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/sample-data/rtos.txt",
             getenv("PV_SOURCE_DIR") ? getenv("PV_SOURCE_DIR") : ".");
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    swapped(f, PV_EXPORT_TEXT1, "out.txt", "precious\n");
    swapped(f, PV_EXPORT_BIN, "out.txt", "");
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selection_reports_before_rows),
        cmocka_unit_test(test_cancel_while_selecting),
        cmocka_unit_test(test_reports_through_index_and_commit),
        cmocka_unit_test(test_cancel_in_index),
        cmocka_unit_test(test_cancel_leaves_the_helper),
        cmocka_unit_test(test_swapped_temp_sqlite),
        cmocka_unit_test(test_swapped_temp_text1_bin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
