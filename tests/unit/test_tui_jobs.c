/* Unit tests for the viewer's jobs (docs/tui.md "Long operations"): every
 * kind of report job and of viewer job stopped at any step leaves the state
 * as it was, the index job, step deadlines, loading in the background and a
 * big sort that shows its progress first. */
#include <dirent.h>
#include <fcntl.h>
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

#include "profview/hooks.h"
#include "profview/load.h"
#include "profview/table.h"
#include "tui/app.h"
#include "tui/app_internal.h" /* the job engine's state (test_app_jobs_cancel) */
#include "tui/group.h"
#include "tui/report.h"

/* ---- one test over every kind of report job (docs/tui.md "Long
 * operations"): stopped after any number of steps, a job leaves the report
 * exactly as it was; run to its end, it changes it. */

/* Everything a job may change in a report, as bytes. */
static void tj_snap(const pv_report *r, pv_buf *out)
{
    pv_buf_clear(out);
    pv_buf_append(out, (const char *)&r->view, sizeof r->view);
    size_t rows = r->view ? pv_view_rows(r->view) : 0, bits = rows / 8 + 1;
    size_t counts[] = {r->sel_count, r->vis_count, r->cursor, r->top, r->sort_count, r->matched,
                       r->sub_count, (size_t)(r->sel != NULL), (size_t)(r->vis != NULL)};
    pv_buf_append(out, (const char *)counts, sizeof counts);
    if (r->sel)
        pv_buf_append(out, (const char *)r->sel, r->sel_count * sizeof *r->sel);
    if (r->vis) {
        pv_buf_append(out, (const char *)r->vis, r->vis_count * sizeof *r->vis);
        pv_buf_append(out, (const char *)r->vis_depth, r->vis_count * sizeof *r->vis_depth);
    }
    if (r->sub_end)
        pv_buf_append(out, (const char *)r->sub_end, r->sub_count * sizeof *r->sub_end);
    pv_buf_append(out, (const char *)r->sort, r->sort_count * sizeof *r->sort);
    pv_buf_puts(out, r->filter ? r->filter : "(closed)");
    const uint8_t *masks[] = {r->collapsed, r->has_kids, r->self_match};
    for (size_t m = 0; m < PV_ARRAY_LEN(masks); m++)
        if (masks[m])
            pv_buf_append(out, (const char *)masks[m], bits);
}

typedef struct tj_kind {
    const char *name;
    bool tree; /* over the tree (else the table) */
    bool closed; /* the report is opened by the job */
    pv_report_job *(*make)(pv_report *r, pv_view *v);
} tj_kind;

static pv_report_job *tj_search(pv_report *r, pv_view *v)
{
    (void)v;
    return pv_report_search_job(r, pv_view_is_tree(r->view) ? "r1999" : "2501", 1, 1);
}

static pv_report_job *tj_filter(pv_report *r, pv_view *v)
{
    (void)v;
    pv_query_error err;
    return pv_report_select_job(r, pv_view_is_tree(r->view) ? "routine ~ /7/" : "hits > 40",
                                r->sort, r->sort_count, &err);
}

static pv_report_job *tj_sort(pv_report *r, pv_view *v)
{
    (void)v;
    pv_query_error err;
    pv_sort_key keys[] = {{1, true}, {0, false}};
    return pv_report_select_job(r, r->filter, keys, 2, &err);
}

static pv_report_job *tj_reverse(pv_report *r, pv_view *v)
{
    (void)v;
    return pv_report_reverse_job(r);
}

static pv_report_job *tj_open(pv_report *r, pv_view *v)
{
    return pv_report_open_job(r, v, true, NULL);
}

static pv_report_job *tj_expand(pv_report *r, pv_view *v)
{
    (void)v;
    size_t i = 0; /* the first node with children */
    while (i < pv_report_count(r) && !pv_report_has_kids(r, pv_report_row(r, i)))
        i++;
    pv_report_move_to(r, i);
    return pv_report_expand_all_job(r);
}

/* The report a job of `kind` starts from: a filter and a sort in force
 * (not the opening's), the third row selected; closed for an opening. */
static void tj_prepare(pv_report *r, const tj_kind *kind, pv_view *v)
{
    memset(r, 0, sizeof *r);
    if (kind->closed)
        return;
    pv_report_open(r, kind->tree ? pv_group_by_thread(v) : v, kind->tree, NULL);
    pv_query_error err;
    pv_sort_key key = {0, true};
    assert_true(pv_report_set_filter(r, kind->tree ? "routine ~ /1/" : "hits < 90", &err));
    pv_report_set_sort(r, &key, 1);
    pv_report_move_to(r, 2);
}

static void test_report_jobs_cancel_anywhere(void **state)
{
    (void)state;
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"module", "Module", PV_TYPE_STRING, PV_COL_NAME},
        {"hits", "Hits", PV_TYPE_INT, 0},
    };
    pv_table *t = pv_table_new("routines", "Routines", cols, 3);
    static const char *const mods[] = {"mod-a", "mod-b", "mod-c", NULL};
    for (size_t i = 0; i < 3000; i++) {
        size_t row = pv_table_add_row(t);
        pv_table_set_int(t, row, 0, (int64_t)i);
        if (mods[(i * 7) % 4])
            pv_table_set_cstr(t, row, 1, mods[(i * 7) % 4]);
        pv_table_set_int(t, row, 2, (int64_t)((i * 31) % 97));
    }
    pv_view *table = pv_table_view(t);
    pv_view *tree = tg_tree(PV_REPORT_EXPAND_LIMIT + 2000, 3, false, 29u);
    static const tj_kind kinds[] = {
        {"search table", false, false, tj_search}, {"search tree", true, false, tj_search},
        {"filter table", false, false, tj_filter}, {"filter tree", true, false, tj_filter},
        {"sort table", false, false, tj_sort},     {"sort tree", true, false, tj_sort},
        {"reverse table", false, false, tj_reverse}, {"reverse tree", true, false, tj_reverse},
        {"open tree", true, true, tj_open},        {"expand tree", true, false, tj_expand},
    };
    pv_buf before, after;
    pv_buf_init(&before);
    pv_buf_init(&after);
    for (size_t k = 0; k < PV_ARRAY_LEN(kinds); k++) {
        const tj_kind *kind = &kinds[k];
        pv_view *v = kind->tree ? tree : table;
        pv_report r;
        tj_prepare(&r, kind, v);
        /* the steps the whole job takes in small budgets */
        size_t budget = kind->make == tj_search ? 20 : kind->tree ? 3000 : 400, steps = 0;
        pv_report_job *j = kind->make(&r, v);
        assert_non_null(j);
        tj_snap(&r, &before);
        while (!pv_report_job_step(j, budget))
            steps++;
        pv_report_job_free(j);
        tj_snap(&r, &after);
        print_message("%s: %zu steps\n", kind->name, steps);
        assert_true(steps >= 3); /* stopped in the middle of its work below */
        assert_true(before.len != after.len || memcmp(before.data, after.data, before.len) != 0);
        /* back to the state before, then stopped after each number of
         * steps: nothing changed */
        pv_report_close(&r);
        tj_prepare(&r, kind, v);
        for (size_t stop = 0; stop < steps; stop++) {
            j = kind->make(&r, v);
            tj_snap(&r, &before);
            for (size_t s = 0; s < stop; s++)
                assert_false(pv_report_job_step(j, budget));
            pv_report_job_free(j); /* the one cancel path: Esc, Ctrl-C, a newer job */
            tj_snap(&r, &after);
            assert_int_equal(after.len, before.len);
            assert_memory_equal(after.data, before.data, before.len);
        }
        pv_report_close(&r);
    }
    pv_buf_free(&before);
    pv_buf_free(&after);
    pv_view_free(table);
    pv_view_free(tree);
}

/* ---- the viewer's jobs (jobs.h): each kind a key starts on the Report,
 * stopped with Esc after a number of its steps, leaves the Report as it was
 * (the one cancel path); run to its end, it changes it.  A view over
 * PV_BIG_VIEW rows, so that the jobs run in steps of a fixed number of
 * rows.  (Every kind of report job after each of its steps:
 * test_report_jobs_cancel_anywhere; the scan of :goto is time-sliced, and
 * its first slice may see every row.) */

static pv_app *vj_app(void)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/big.prof");
    f->format = "test";
    pv_diag_init(&f->diag);
    /* a table, and a call tree whose flame graph is built beside the one
     * job (in steps of the test option flame-slice's rows) */
    pv_result_set *set = big_set_add(f, 1, PV_BIG_VIEW + 50000, 0, 0);
    pv_set_add_view(set, tg_tree(PV_BIG_VIEW + 50000, 3, false, 31u)); /* opened in steps */
    pv_app *a = jobs_app(f, 20000);
    pv_app_draw(a);
    return a;
}

static void vj_type(pv_app *a, const char *keys)
{
    for (const char *k = keys; *k; k++) {
        pv_app_draw(a);
        pv_app_key(a, *k == '\n' ? PV_KEY_ENTER : *k);
    }
}

/* The one job, or a job beside it. */
static pv_job *vj_job(const pv_app *a)
{
    pv_job *j = pv_jobs_get(a, -1);
    for (int k = 0; k < PV_JOB_KINDS && !j; k++)
        j = pv_jobs_beside(a, k);
    return j;
}

/* The file :copy FILE writes (test_app_jobs_cancel), in the directory
 * where :export writes too. */
static char vj_copy_path[300];
static char vj_dir[300];

/* What a job may change: the Report, the Explorer's items (a query's
 * view), the graph shown and its comparison (:diff), the files in the
 * directory copied and exported to (not even a temporary one). */
static void vj_snap(pv_app *a, pv_buf *out)
{
    tj_snap(pv_app_report(a), out);
    struct stat st;
    pv_buf_putc(out, vj_copy_path[0] && stat(vj_copy_path, &st) == 0 ? 'F' : '-');
    const void *graph[] = {a->flame.fl, a->flame.tree, a->flame.fl_b, a->flame.in_b};
    pv_buf_append(out, (const char *)&a->flame.mode, sizeof a->flame.mode);
    pv_buf_append(out, (const char *)graph, sizeof graph);
    pv_buf_puts(out, pv_buf_cstr(&a->flame.filter));
    size_t counts[] = {a->file_count, a->item_count, a->loc.item};
    pv_buf_append(out, (const char *)counts, sizeof counts);
    DIR *d = vj_dir[0] ? opendir(vj_dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            pv_buf_printf(out, "[%s]", e->d_name);
    if (d)
        closedir(d);
}

/* Keys with DIR replaced by vj_dir. */
static void vj_keys(const char *keys, char *out, size_t size)
{
    const char *at = strstr(keys, "DIR");
    if (at)
        snprintf(out, size, "%.*s%s%s", (int)(at - keys), keys, vj_dir, at + 3);
    else
        snprintf(out, size, "%s", keys);
}

static void vj_dir_clear(void)
{
    DIR *d = opendir(vj_dir);
    char path[700];
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", vj_dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
}

/* Runs the job to its end; returns its steps. */
static size_t vj_finish(pv_app *a)
{
    size_t steps = 0;
    while (vj_job(a)) {
        pv_app_draw(a);
        pv_app_work(a);
        steps++;
    }
    return steps;
}

static void test_app_jobs_cancel(void **state)
{
    (void)state;
    static const struct {
        const char *name, *prepare, *keys;
        int kind;
        bool graph; /* on the call tree of the flame graph */
    } kinds[] = {
        {"sort", "", ":sort hits\n", PV_JOB_SORT, false},
        {"filter", ":sort hits\n", ":filter hits > 40\n", PV_JOB_FILTER, false},
        {"search", "", "/n249990\n", PV_JOB_SEARCH, false},
        {"reverse", ":sort hits\n", "r", PV_JOB_REVERSE, false},
        {"flame graph", "", "F", PV_JOB_BUILD, true},
        {"copy", "", ":copy DIR/view.tsv\n", PV_JOB_COPY, false}, /* :copy FILE */
        /* the jobs whose call runs on a worker (worker.h) */
        {":sql", "", ":sql SELECT hits, count(*) FROM rows GROUP BY hits\n", PV_JOB_SQL, false},
        /* (the view's filtered rows: the set has two views of one id) */
        {":export", ":filter hits > 40\n", ":export sqlite DIR/out.db\n", PV_JOB_EXPORT, false},
        {"export dialog", ":filter hits > 40\n", "e\x15" "DIR/out.db\n", PV_JOB_EXPORT, false},
        /* the graph coloured by another's: that graph built in steps */
        {":diff (graph)", "F", ":diff 1\n", PV_JOB_DIFF, true},
    };
    char dir[] = "/tmp/profview-copy-XXXXXX", keys[700];
    assert_non_null(mkdtemp(dir));
    snprintf(vj_dir, sizeof vj_dir, "%s", dir);
    snprintf(vj_copy_path, sizeof vj_copy_path, "%s/view.tsv", dir);
    pv_buf before, after;
    pv_buf_init(&before);
    pv_buf_init(&after);
    for (size_t k = 0; k < PV_ARRAY_LEN(kinds); k++) {
        vj_keys(kinds[k].keys, keys, sizeof keys);
        /* to its end: the report changes */
        pv_app *a = vj_app();
        if (kinds[k].graph)
            pv_app_show_item(a, a->item_count - 2);
        vj_finish(a); /* (a big tree opens in steps) */
        vj_type(a, kinds[k].prepare);
        vj_finish(a);
        vj_snap(a, &before);
        vj_type(a, keys);
        pv_job *j = vj_job(a);
        assert_non_null(j);
        assert_int_equal(j->kind, kinds[k].kind);
        size_t steps = vj_finish(a);
        vj_snap(a, &after);
        print_message("%s: %zu steps\n", kinds[k].name, steps);
        assert_true(steps >= 3);
        assert_true(before.len != after.len || memcmp(before.data, after.data, before.len) != 0);
        pv_app_free(a);
        vj_dir_clear();
        /* stopped after 0, 1, 2... steps: as it was */
        a = vj_app();
        if (kinds[k].graph)
            pv_app_show_item(a, a->item_count - 2);
        vj_finish(a); /* (a big tree opens in steps) */
        vj_type(a, kinds[k].prepare);
        vj_finish(a);
        vj_snap(a, &before);
        size_t stops[] = {0, 1, 2, steps / 2, steps ? steps - 1 : 0};
        for (size_t s = 0; s < PV_ARRAY_LEN(stops); s++) {
            vj_type(a, keys);
            for (size_t i = 0; i < stops[s] && vj_job(a); i++)
                pv_app_work(a);
            assert_non_null(vj_job(a));
            pv_app_key(a, PV_KEY_ESC);
            assert_null(vj_job(a));
            vj_snap(a, &after);
            assert_int_equal(after.len, before.len);
            assert_memory_equal(after.data, before.data, before.len);
        }
        pv_app_free(a);
        vj_dir_clear();
    }
    rmdir(dir);
    vj_copy_path[0] = '\0';
    vj_dir[0] = '\0';
    pv_buf_free(&before);
    pv_buf_free(&after);
}

/* The same for the indexing job beside it (PV_JOB_INDEX): a file indexed
 * in units of its own, stopped with Ctrl-C after each number of its steps,
 * keeps what it has indexed (no slice runs after) and its format's
 * threads pause; `:index` goes on from there to the end. */
typedef struct vj_counted {
    uint64_t done, total;
    int paused; /* index_pause(true) calls minus index_pause(false) calls */
} vj_counted;

static vj_counted vj_count;

static bool vj_index_step(pv_file *f, size_t budget)
{
    (void)f;
    vj_count.done += vj_count.total - vj_count.done < budget ? vj_count.total - vj_count.done
                                                             : budget;
    return vj_count.done == vj_count.total;
}

static bool vj_index_progress(const pv_file *f, uint64_t *done, uint64_t *total)
{
    (void)f;
    *done = vj_count.done;
    *total = vj_count.total;
    return vj_count.done == vj_count.total;
}

static void vj_index_pause(pv_file *f, bool pause)
{
    (void)f;
    vj_count.paused += pause ? 1 : -1;
}

static pv_app *vj_index_app(void)
{
    static const pv_file_hooks hooks = {.index_step = vj_index_step,
                                        .index_progress = vj_index_progress,
                                        .index_unit = "units",
                                        .index_pause = vj_index_pause};
    static const pv_column cols[] = {{"id", "Id", PV_TYPE_INT, 0}};
    vj_count = (vj_counted){0, 70000, 0};
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("/data/counted.prof");
    f->format = "test";
    f->hooks = &hooks;
    pv_diag_init(&f->diag);
    pv_result_set *set = pv_file_add_set(f, 1, "Run 1", "test");
    pv_table *t = pv_table_new("rows", "Rows", cols, 1);
    pv_table_set_int(t, pv_table_add_row(t), 0, 1);
    pv_set_add_view(set, pv_table_view(t));
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_load_options_init(&o.load);
    pv_test_set(&o.load.test, PV_TEST_INDEX_SLICE, 10000); /* units per step */
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 100, 30);
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    return a;
}

static void test_app_index_job_cancel(void **state)
{
    (void)state;
    pv_app *a = vj_index_app();
    size_t steps = 0;
    while (pv_app_index_slice(a))
        steps++;
    assert_int_equal(vj_count.done, vj_count.total);
    assert_null(pv_jobs_beside(a, PV_JOB_INDEX)); /* it ended with the index */
    pv_app_free(a);
    assert_int_equal(steps, 7);
    for (size_t stop = 0; stop < steps; stop++) {
        a = vj_index_app();
        for (size_t k = 0; k < stop; k++)
            assert_true(pv_app_index_slice(a));
        assert_true(stop == 0 || pv_jobs_beside(a, PV_JOB_INDEX));
        uint64_t done = vj_count.done;
        assert_int_equal(done, stop * 10000);
        pv_app_draw(a);
        pv_app_key(a, PV_KEY_CTRL('c'));
        assert_false(pv_app_done(a));
        assert_null(pv_jobs_beside(a, PV_JOB_INDEX));
        assert_false(pv_app_indexing(a));
        assert_int_equal(vj_count.paused, 1);
        /* nothing runs any more: what was indexed stays */
        assert_false(pv_app_index_slice(a));
        pv_app_work(a);
        assert_int_equal(vj_count.done, done);
        /* :index goes on to the end */
        vj_type(a, ":index\n");
        assert_int_equal(vj_count.paused, 0);
        while (pv_app_index_slice(a))
            ;
        assert_int_equal(vj_count.done, vj_count.total);
        pv_app_free(a);
    }
}

/* The same for the jobs of a big call tree: its opening (Esc goes back
 * to the view shown before, the tree stays closed) and `*` on a thread
 * node (the tree stays as it was). */
static void vj_tree_snap(pv_app *a, size_t item, pv_buf *out)
{
    pv_buf_clear(out);
    size_t state[] = {a->loc.item, (size_t)a->items[item].opened};
    pv_buf_append(out, (const char *)state, sizeof state);
    if (a->items[item].opened)
        tj_snap(&a->items[item].report, out);
}

static void test_app_tree_jobs_cancel(void **state)
{
    (void)state;
    pv_buf before, after, tmp;
    pv_buf_init(&before);
    pv_buf_init(&after);
    pv_buf_init(&tmp);
    pv_app *a = vj_app();
    size_t tree = a->item_count - 1; /* the call tree's item */
    /* the opening: to its end, then stopped after 0, 1, 2... steps */
    vj_tree_snap(a, tree, &before);
    pv_app_show_item(a, tree);
    assert_non_null(pv_jobs_get(a, PV_JOB_OPEN));
    size_t steps = vj_finish(a);
    print_message("open: %zu steps\n", steps);
    assert_true(steps >= 3 && a->items[tree].opened);
    pv_app_free(a);
    a = vj_app();
    vj_tree_snap(a, tree, &before);
    size_t stops[] = {0, 1, 2, steps / 2, steps - 1};
    for (size_t s = 0; s < PV_ARRAY_LEN(stops); s++) {
        pv_app_show_item(a, tree);
        for (size_t i = 0; i < stops[s]; i++)
            pv_app_work(a);
        assert_non_null(pv_jobs_get(a, PV_JOB_OPEN));
        pv_app_key(a, PV_KEY_ESC);
        assert_null(pv_jobs_get(a, -1));
        vj_tree_snap(a, tree, &after);
        assert_int_equal(after.len, before.len);
        assert_memory_equal(after.data, before.data, before.len);
    }
    /* `*` on the first thread node of the opened tree */
    pv_app_show_item(a, tree);
    vj_finish(a);
    assert_true(a->items[tree].opened);
    pv_report *r = &a->items[tree].report;
    pv_report_move_to(r, 0);
    vj_tree_snap(a, tree, &before);
    vj_type(a, "*");
    assert_non_null(pv_jobs_get(a, PV_JOB_EXPAND));
    steps = vj_finish(a);
    print_message("expand: %zu steps\n", steps);
    vj_tree_snap(a, tree, &tmp);
    assert_true(steps >= 3 && (tmp.len != before.len || memcmp(tmp.data, before.data, tmp.len)));
    pv_app_free(a);
    a = vj_app();
    pv_app_show_item(a, tree);
    vj_finish(a);
    r = &a->items[tree].report;
    pv_report_move_to(r, 0);
    vj_tree_snap(a, tree, &before);
    size_t xstops[] = {0, 1, 2, steps / 2, steps - 1};
    for (size_t s = 0; s < PV_ARRAY_LEN(xstops); s++) {
        vj_type(a, "*");
        for (size_t i = 0; i < xstops[s]; i++)
            pv_app_work(a);
        assert_non_null(pv_jobs_get(a, PV_JOB_EXPAND));
        pv_app_key(a, PV_KEY_ESC);
        vj_tree_snap(a, tree, &after);
        assert_int_equal(after.len, before.len);
        assert_memory_equal(after.data, before.data, before.len);
    }
    pv_app_free(a);
    pv_buf_free(&before);
    pv_buf_free(&after);
    pv_buf_free(&tmp);
}

/* A step also ends at its deadline whatever its budget (a budget counts
 * rows, and a row may be slow): a deadline already past stops each step
 * after a little work, and the job still ends with the right result. */
static void test_report_job_deadline(void **state)
{
    (void)state;
    pv_view *base = tg_tree(60000, 3, true, 19u);
    /* the opening: grouping and layout */
    pv_report r;
    memset(&r, 0, sizeof r);
    pv_report_job *j = pv_report_open_job(&r, base, true, NULL);
    size_t steps = 0;
    for (;;) {
        pv_report_job_deadline(j, pv_clock_now() - 1);
        if (pv_report_job_step(j, SIZE_MAX))
            break;
        steps++;
    }
    pv_report_job_free(j);
    assert_true(steps > 3); /* one unbounded budget would have done it at once */
    assert_int_equal(pv_report_count(&r), 3);
    /* a filter and a sort of the tree */
    pv_query_error err;
    pv_sort_key key = {1, true};
    j = pv_report_select_job(&r, "routine ~ /1/", &key, 1, &err);
    steps = 0;
    for (;;) {
        pv_report_job_deadline(j, pv_clock_now() - 1);
        if (pv_report_job_step(j, SIZE_MAX))
            break;
        steps++;
    }
    pv_report_job_free(j);
    assert_true(steps > 3);
    pv_report want;
    pv_report_open(&want, r.view, false, NULL);
    assert_true(pv_report_set_filter(&want, "routine ~ /1/", &err));
    pv_report_set_sort(&want, &key, 1);
    assert_int_equal(r.sel_count, want.sel_count);
    assert_memory_equal(r.sel, want.sel, r.sel_count * sizeof *r.sel);
    pv_report_close(&want);
    pv_report_close(&r);
    pv_view_free(base);
}

/* Loading runs in the background: while the loader waits (here on a FIFO
 * with no writer yet) the screen is drawn and says what is loading. */
static void test_loading_in_background(void **state)
{
    (void)state;
    char dir[] = "/tmp/pv-fifo-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/slow.txt", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    const char *paths[] = {path};
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    o.paths = paths;
    o.path_count = 1;
    pv_load_options_init(&o.load);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 80, 24);
    assert_true(pv_app_loading(a));
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), " Loading slow.txt"));
    assert_non_null(strstr(pv_buf_cstr(&out), "(Ctrl-C cancels)"));
    assert_non_null(strstr(pv_buf_cstr(&out), "loading slow.txt")); /* Explorer */
    /* Keys still work while loading. */
    pv_app_key(a, '?');
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Help: keys"));
    /* The writer comes and goes: an empty file, which no loader takes. */
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    close(fd);
    pv_app_wait_loaded(a);
    assert_false(pv_app_loading(a));
    assert_int_equal(pv_app_file_count(a), 0);
    assert_non_null(strstr(pv_app_load_errors(a), "slow.txt"));
    pv_buf_free(&out);
    pv_app_free(a);
    unlink(path);
    rmdir(dir);
}

/* Sorting or filtering a big view first shows that it is working, then
 * does the work (the terminal loop paints between the two). */
static void test_big_sort_shows_progress(void **state)
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
        pv_table_set_int(t, r, R_TIME, (int64_t)i * 1000); /* not empty: shown */
    }
    pv_set_add_view(set, pv_table_view(t));
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 80, 24);
    pv_app_adopt_file(a, f);
    pv_app_draw(a);
    pv_app_key(a, ':');
    const char *cmd = "sort hits:desc";
    for (const char *c = cmd; *c; c++)
        pv_app_key(a, *c);
    pv_app_key(a, PV_KEY_ENTER);
    assert_true(pv_app_has_work(a));
    pv_buf out;
    pv_buf_init(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Sorting by hits:desc... 0% (Esc stops)"));
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_app_key(a, 'g');
    pv_app_key(a, 's'); /* sort by the next column: id, a big view */
    assert_true(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Sorting by time:desc..."));
    while (pv_app_has_work(a))
        pv_app_work(a);
    assert_false(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "sort: time:desc"));
    pv_app_key(a, 'f');
    pv_app_key(a, 'h');
    pv_app_key(a, 'i');
    pv_app_key(a, 't');
    pv_app_key(a, 's');
    pv_app_key(a, '<');
    pv_app_key(a, '5');
    pv_app_key(a, PV_KEY_ENTER);
    assert_true(pv_app_has_work(a));
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "Filtering... 0% (Esc stops)"));
    while (pv_app_has_work(a))
        pv_app_work(a);
    pv_buf_clear(&out);
    pv_grid_dump(pv_app_draw(a), &out);
    assert_non_null(strstr(pv_buf_cstr(&out), "5 of 250000 rows match"));
    assert_non_null(strstr(pv_buf_cstr(&out), "row 1/5"));
    pv_buf_free(&out);
    pv_app_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_sort_shows_progress),
        cmocka_unit_test(test_report_job_deadline),
        cmocka_unit_test(test_report_jobs_cancel_anywhere),
        cmocka_unit_test(test_app_jobs_cancel),
        cmocka_unit_test(test_app_tree_jobs_cancel),
        cmocka_unit_test(test_app_index_job_cancel),
        cmocka_unit_test(test_loading_in_background),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
