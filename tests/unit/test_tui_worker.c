/* Unit tests for the viewer's jobs whose work is one call into code that
 * does not yield, run on a worker in turns with the UI thread (src/tui/
 * worker.h, docs/architecture.md "The job engine"): `:sql`, an export (the
 * dialog's and `:export`), and `:diff` with a flame graph shown.  Each is a
 * job of the one engine: run to its end it changes what it should (a new
 * view, a file, the graph's colours); stopped with Esc or Ctrl-C after any
 * number of its steps it leaves everything as it was (no view, no file, not
 * even a temporary one, the same screen).  Keys typed while such a job runs
 * wait and are answered after it, in order. */
#include <dirent.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tui_fixture.h"

#include "profview/table.h"
#include "tui/app.h"
#include "tui/app_internal.h" /* the job engine's state */
#include "tui/text.h"
#include "tui/worker.h"

/* ---- a file of two result sets, each a big table and a call tree */

#define AJ_ROWS (PV_BIG_VIEW + 50000)

/* The viewer over that file, its jobs in steps of `budget` rows (no
 * deadline), the Report on the table of run 1. */
static pv_app *aj_app(size_t budget)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/runs.prof");
    f->format = "test";
    pv_diag_init(&f->diag);
    big_set_add(f, 1, AJ_ROWS, 0, 1000);
    big_set_add(f, 2, AJ_ROWS, 3, 1000);
    pv_app *a = jobs_app(f, budget);
    /* the items: the file, run 1, its two views, run 2, its two views */
    pv_app_show_item(a, 2);
    pv_app_draw(a);
    return a;
}

static void aj_type(pv_app *a, const char *keys)
{
    for (const char *k = keys; *k; k++) {
        pv_app_draw(a);
        pv_app_key(a, *k == '\n' ? PV_KEY_ENTER : (unsigned char)*k);
    }
}

/* The one job, or a job beside it. */
static pv_job *aj_job(const pv_app *a)
{
    pv_job *j = pv_jobs_get(a, -1);
    for (int k = 0; k < PV_JOB_KINDS && !j; k++)
        j = pv_jobs_beside(a, k);
    return j;
}

/* Runs the jobs to their end (and the work after them); returns the steps
 * of the one job. */
static size_t aj_finish(pv_app *a)
{
    size_t steps = 0;
    while (pv_app_has_work(a) || aj_job(a)) {
        steps += pv_jobs_get(a, -1) != NULL;
        pv_app_draw(a);
        pv_app_work(a);
    }
    return steps;
}

/* The directory exports go to (emptied by each case). */
static char aj_dir[64];

/* The names in aj_dir, sorted by readdir's order (one or none expected). */
static void aj_dir_list(pv_buf *out)
{
    DIR *d = opendir(aj_dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            pv_buf_printf(out, "[%s]", e->d_name);
    closedir(d);
}

static void aj_dir_clear(void)
{
    DIR *d = opendir(aj_dir);
    assert_non_null(d);
    struct dirent *e;
    char path[400];
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", aj_dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

/* What a job may change: the screen (but the message line), the open files and the Explorer's items, where we are, the
 * graph's comparison, the files in aj_dir. */
static void aj_snap(pv_app *a, pv_buf *out)
{
    pv_buf_clear(out);
    pv_buf screen;
    pv_buf_init(&screen);
    pv_grid_dump(pv_app_draw(a), &screen);
    /* without the message line (the last) */
    size_t len = screen.len, lines = 0;
    while (len > 0 && lines < 2)
        if (screen.data[--len] == '\n')
            lines++;
    pv_buf_append(out, screen.data, len);
    pv_buf_free(&screen);
    size_t state[] = {a->file_count, a->item_count, a->loc.item, a->loc.depth,
                      (size_t)a->focus, (size_t)a->flame.mode};
    pv_buf_append(out, (const char *)state, sizeof state);
    const void *graph[] = {a->flame.fl, a->flame.fl_b, a->flame.in_b};
    pv_buf_append(out, (const char *)graph, sizeof graph);
    aj_dir_list(out);
}

typedef struct aj_kind {
    const char *name;
    const char *prepare; /* keys before (the graph shown) */
    const char *keys;    /* the keys that start it, %s the export's path */
    int kind;
    const char *stopped; /* the message after a stop */
} aj_kind;

static const aj_kind aj_kinds[] = {
    {":sql", "", ":sql SELECT name, sum(hits), count(*) FROM rows GROUP BY name\n", PV_JOB_SQL,
     "query stopped: the view stays as it was"},
    {":export", "", ":export sqlite %s\n", PV_JOB_EXPORT, "export cancelled: nothing written to"},
    /* the dialog: e, the path typed over the one it offers, Enter */
    {"export dialog", "", "e\x15%s\n", PV_JOB_EXPORT, "export cancelled: nothing written to"},
    /* the flame graph of run 1, coloured by run 2's (its graph built in steps) */
    {":diff (graph)", "F", ":diff 2\n", PV_JOB_DIFF, "comparison stopped: the graph stays as it was"},
};

/* The kind's keys, its "%s" replaced by the export's path. */
static void aj_keys(const aj_kind *k, char *out, size_t size)
{
    char path[200];
    snprintf(path, sizeof path, "%s/out.db", aj_dir);
    const char *at = strstr(k->keys, "%s");
    if (at)
        snprintf(out, size, "%.*s%s%s", (int)(at - k->keys), k->keys, path, at + 2);
    else
        snprintf(out, size, "%s", k->keys);
}

/* Each kind: to its end it changes the state; stopped after 0, 1, 2, ...
 * steps (Esc, or Ctrl-C) it leaves it as it was. */
static void test_worker_jobs_cancel(void **state)
{
    (void)state;
    snprintf(aj_dir, sizeof aj_dir, "/tmp/profview-jobs-XXXXXX");
    assert_non_null(mkdtemp(aj_dir));
    pv_buf before, after;
    pv_buf_init(&before);
    pv_buf_init(&after);
    char keys[400];
    for (size_t k = 0; k < PV_ARRAY_LEN(aj_kinds); k++) {
        const aj_kind *kind = &aj_kinds[k];
        aj_keys(kind, keys, sizeof keys);
        /* to its end: the state changes */
        pv_app *a = aj_app(20000);
        aj_type(a, kind->prepare);
        aj_finish(a);
        aj_snap(a, &before);
        aj_type(a, keys);
        pv_job *j = pv_jobs_get(a, -1);
        assert_non_null(j);
        assert_int_equal(j->kind, kind->kind);
        size_t steps = aj_finish(a);
        aj_snap(a, &after);
        print_message("%s: %zu steps; %s\n", kind->name, steps, pv_buf_cstr(&a->message));
        assert_true(steps >= 4);
        assert_true(before.len != after.len || memcmp(before.data, after.data, before.len) != 0);
        pv_app_free(a);
        aj_dir_clear();
        /* stopped after 0, 1, 2... steps: as it was */
        a = aj_app(20000);
        aj_type(a, kind->prepare);
        aj_finish(a);
        aj_snap(a, &before);
        size_t stops[] = {0, 1, 2, steps / 2, steps - 2, steps - 1};
        for (size_t s = 0; s < PV_ARRAY_LEN(stops); s++) {
            aj_type(a, keys);
            for (size_t i = 0; i < stops[s]; i++) {
                assert_non_null(pv_jobs_get(a, kind->kind));
                pv_app_draw(a);
                pv_app_work(a);
            }
            assert_non_null(pv_jobs_get(a, kind->kind));
            pv_app_key(a, s % 2 ? PV_KEY_CTRL('c') : PV_KEY_ESC);
            assert_null(aj_job(a));
            assert_false(pv_app_done(a)); /* Ctrl-C stopped it, did not quit */
            assert_non_null(strstr(pv_buf_cstr(&a->message), kind->stopped));
            aj_snap(a, &after);
            if (after.len != before.len || memcmp(after.data, before.data, before.len) != 0)
                fail_msg("%s stopped after %zu steps: the state changed", kind->name, stops[s]);
        }
        pv_app_free(a);
        aj_dir_clear();
    }
    rmdir(aj_dir);
    pv_buf_free(&before);
    pv_buf_free(&after);
}

/* Keys typed while such a job runs wait, and are answered after it, in
 * order (a search prompt with their text); Esc among them stops it. */
static void test_worker_job_keeps_keys(void **state)
{
    (void)state;
    pv_app *a = aj_app(20000);
    aj_type(a, aj_kinds[0].keys);
    pv_app_work(a);
    assert_non_null(pv_jobs_get(a, PV_JOB_SQL));
    aj_type(a, "/n12");
    pv_app_work(a);
    assert_non_null(pv_jobs_get(a, PV_JOB_SQL)); /* still running */
    assert_int_equal(a->prompt.kind, PV_PROMPT_NONE);
    pv_app_key(a, PV_KEY_ESC);
    assert_null(pv_jobs_get(a, PV_JOB_SQL));
    aj_finish(a);
    assert_int_equal(a->prompt.kind, PV_PROMPT_SEARCH);
    assert_string_equal(pv_buf_cstr(&a->prompt.line), "n12");
    pv_app_free(a);
}

/* ---- the worker itself: a call in turns with its caller */

typedef struct aj_count {
    pv_worker *w;
    uint64_t done, total;
    int turns_seen; /* the caller's count when the call last looked */
    int *turns;
} aj_count;

static void aj_count_call(void *ctx)
{
    aj_count *c = ctx;
    for (; c->done < c->total; c->done++) {
        c->turns_seen = *c->turns; /* written by the caller between turns */
        pv_worker_yield(c->w, c->done);
    }
}

static void test_worker_turns(void **state)
{
    (void)state;
    int turns = 0;
    aj_count c = {.total = 1000, .turns = &turns};
    c.w = pv_worker_new(aj_count_call, &c);
    pv_budget b = {100, 0};
    size_t steps = 0;
    while (!pv_worker_step(c.w, &b)) {
        /* each turn 100 units; the call waits while the caller runs */
        steps++;
        assert_int_equal(c.done, steps * 100);
        turns++;
    }
    assert_int_equal(c.done, 1000);
    assert_int_equal(steps, 9);
    assert_int_equal(c.turns_seen, 9);
    pv_worker_free(c.w);
    /* freed halfway: run to its end first */
    turns = 0;
    c = (aj_count){.total = 1000, .turns = &turns};
    c.w = pv_worker_new(aj_count_call, &c);
    assert_false(pv_worker_step(c.w, &b));
    pv_worker_free(c.w);
    assert_int_equal(c.done, 1000);
}

int main(void)
{
    setlocale(LC_ALL, "C");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worker_turns),
        cmocka_unit_test(test_worker_job_keeps_keys),
        cmocka_unit_test(test_worker_jobs_cancel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
