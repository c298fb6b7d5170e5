/* aqtime_defer.c - the first screen of a large AQTime database before its
 * large tables are read (docs/aqtime.md "First screen").
 *
 * When the caller steps the load (pv_load_options.steps: a viewer), the
 * loader reads INSTANCES and the small tables, makes the result sets with
 * their summaries and, for every other view, a placeholder that waits for
 * the index (pv_view_hooks.waits_for_index), and returns.  A thread of its
 * own then reads the large tables and builds every result set as a load
 * without `steps` would, into a file of its own.  pv_file_index_step, on
 * the thread that reads the views, moves the built views into the
 * placeholders once the thread is done (each placeholder becomes the view:
 * its struct is copied over the placeholder's) with their notes, and adds
 * the messages of the whole load to the file in the order a load without
 * `steps` gives them.  Nothing of the file's own sets is touched by the
 * thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aqtime.h"
#include "profview/hooks.h"

typedef struct aq_defer aq_defer;

struct aq_defer {
    pv_file *f; /* the caller's file: its sets hold the placeholders */
    aq_db *a;
    sqlite3 *db; /* the thread's from its start */
    char *path;
    bool deferred[AQ_T_COUNT];
    pv_diag tdiag[AQ_T_COUNT]; /* each table's read messages */
    pv_file *built;            /* the thread's result sets */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool finished; /* under lock */
    bool complete; /* the caller's side: the views are in place */
    _Atomic uint64_t done;
    uint64_t total;
    atomic_int cancel;
    bool paused; /* under lock: Ctrl-C in the viewer (aq_defer_pause) */
    int held;    /* under lock: readers waiting at the gate while paused */
    pv_view **placeholders; /* their memory is freed here, after the sets */
    size_t placeholder_count, placeholder_cap;
};

/* ---- placeholders: no rows, waiting for the index */

static size_t aq_wait_rows(const pv_view *v)
{
    (void)v;
    return 0;
}

static void aq_wait_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    (void)v;
    (void)row;
    (void)col;
    out->present = false;
    out->v.u = 0;
}

static pv_view *aq_wait_detail(const pv_view *v, size_t detail, size_t row)
{
    (void)v;
    (void)detail;
    (void)row;
    return NULL;
}

static void aq_wait_destroy(pv_view *v)
{
    pv_view_free_names(v); /* the struct itself: aq_defer_free */
}

static const pv_view_ops aq_wait_ops = {
    aq_wait_rows, aq_wait_cell, NULL, aq_wait_detail, aq_wait_destroy, NULL,
};

static bool aq_wait_waits(const pv_view *v, bool details)
{
    (void)v;
    (void)details;
    return true;
}

static const pv_view_hooks aq_wait_hooks = {.waits_for_index = aq_wait_waits};

/* The views of each profiler after its summary, in the order the builders
 * add them (checked when they are moved in). */
static const char *const aq_view_names[AQ_PROF_COUNT][6][2] = {
    {{"threads", "Threads"},
     {"call-trace", "Call Trace"},
     {"routines", "Routines"},
     {"call-routes", "Call Routes"},
     {"lines", "Lines"},
     {NULL, NULL}},
    {{"classes", "Classes Data"},
     {"objects", "Objects"},
     {"errors", "Errors"},
     {"threads", "Threads"},
     {NULL, NULL}},
    {{"classes", "Classes Data"},
     {"objects", "Objects"},
     {"references", "References"},
     {"threads", "Threads"},
     {NULL, NULL}},
};

static aq_defer *aq_defer_new(aq_db *a)
{
    if (!a->defer) {
        aq_defer *d = pv_xcalloc(1, sizeof *d);
        pthread_mutex_init(&d->lock, NULL);
        pthread_cond_init(&d->cond, NULL);
        for (size_t t = 0; t < AQ_T_COUNT; t++)
            pv_diag_init(&d->tdiag[t]);
        d->a = a;
        a->defer = d;
    }
    return a->defer;
}

void aq_defer_placeholders(aq_db *a, pv_result_set *set, aq_profiler p)
{
    aq_defer *d = aq_defer_new(a);
    for (size_t k = 0; aq_view_names[p][k][0]; k++) {
        pv_view *v = pv_xcalloc(1, sizeof *v);
        v->ops = &aq_wait_ops;
        pv_view_copy_names(v, aq_view_names[p][k][0], aq_view_names[p][k][1], NULL, 0);
        v->hooks = &aq_wait_hooks;
        v->hook_ctx = d;
        d->placeholders = pv_xgrow(d->placeholders, &d->placeholder_cap,
                                   d->placeholder_count + 1, sizeof *d->placeholders);
        d->placeholders[d->placeholder_count++] = v;
        pv_set_add_view(set, v);
    }
}

/* ---- the thread */

/* Where a reading thread waits while the read is paused (every report,
 * about every 16 k rows, of both readers of a large table; and before the
 * views are built).  Cancelling (aq_defer_free) ends the wait. */
static void aq_defer_gate(void *user)
{
    aq_defer *d = user;
    pthread_mutex_lock(&d->lock);
    if (d->paused && !atomic_load(&d->cancel)) {
        d->held++;
        pthread_cond_broadcast(&d->cond); /* aq_defer_held may wait for it */
        while (d->paused && !atomic_load(&d->cancel))
            pthread_cond_wait(&d->cond, &d->lock);
        d->held--;
    }
    pthread_mutex_unlock(&d->lock);
}

static void aq_defer_report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)what;
    (void)total;
    aq_defer *d = user;
    atomic_store(&d->done, done);
    pthread_mutex_lock(&d->lock);
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
    aq_defer_gate(d);
}

static void *aq_defer_run(void *arg)
{
    aq_defer *d = arg;
    pv_progress p = {aq_defer_report, d, &d->cancel};
    aq_read_progress prog = {&p, 0, d->total, false, aq_defer_gate, d, &d->a->test};
    for (size_t t = 0; t < AQ_T_COUNT && !prog.cancelled; t++) {
        if (!d->deferred[t])
            continue;
        aq_read_table(d->path, &d->tdiag[t], d->db, d->a->uri, (aq_table_id)t, &d->a->tables[t],
                      &prog);
        aq_index_table(&d->a->tables[t]);
    }
    sqlite3_close(d->db);
    d->db = NULL;
    aq_defer_gate(d);
    if (!prog.cancelled && !atomic_load(&d->cancel))
        aq_make_sets(d->built, d->a, NULL);
    pthread_mutex_lock(&d->lock);
    d->finished = true;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

/* ---- the caller's side */

static bool aq_defer_step(pv_file *f, size_t budget);
static bool aq_defer_progress(const pv_file *f, uint64_t *done, uint64_t *total);
static void aq_defer_pause(pv_file *f, bool pause);

static const pv_file_hooks aq_defer_hooks = {
    .index_step = aq_defer_step,
    .index_progress = aq_defer_progress,
    .index_unit = "rows",
    .index_pause = aq_defer_pause,
};

void aq_defer_start(pv_file *f, aq_db *a, sqlite3 *db, const bool deferred[AQ_T_COUNT],
                    pv_diag tdiag[AQ_T_COUNT], uint64_t total)
{
    aq_defer *d = aq_defer_new(a);
    d->f = f;
    d->db = db;
    d->path = pv_xstrdup(f->path);
    d->total = total ? total : 1;
    memcpy(d->deferred, deferred, sizeof d->deferred);
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        pv_diag_free(&d->tdiag[t]);
        d->tdiag[t] = tdiag[t];
    }
    d->built = pv_xcalloc(1, sizeof *d->built);
    d->built->path = pv_xstrdup(f->path);
    f->hooks = &aq_defer_hooks;
    /* the tests' Ctrl-C at the first instant (docs/aqtime.md "First screen") */
    d->paused = pv_test_get(&a->test, PV_TEST_AQ_DEFER_PAUSED, 0) != 0;
    if (pthread_create(&d->thread, NULL, aq_defer_run, d) != 0)
        aq_defer_run(d); /* no thread: read it now */
    else
        d->thread_started = true;
}

/* Makes placeholder p the built view v (docs/aqtime.md "First screen"). */
static void aq_defer_become(pv_view *p, pv_view *v)
{
    pv_view_free_names(p);
    *p = *v;
    if (!aq_view_is_shared(v))
        aq_ft_view_moved(p); /* a shared view's hooks keep the view they have */
}

/* Moves the built views into the placeholders and the messages into the
 * file; called once the thread is done. */
static void aq_defer_finish(aq_defer *d)
{
    if (d->thread_started)
        pthread_join(d->thread, NULL);
    d->thread_started = false;
    pv_file *f = d->f, *b = d->built;
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        aq_diag_append(&f->diag, &d->tdiag[t]);
    aq_diag_append(&f->diag, &b->diag);
    bool *used = pv_xcalloc(b->set_count ? b->set_count : 1, sizeof *used);
    for (size_t i = 0; i < f->set_count; i++) {
        pv_result_set *s = f->sets[i];
        size_t j = 0;
        while (j < b->set_count &&
               (used[j] || b->sets[j]->id != s->id || strcmp(b->sets[j]->kind, s->kind) != 0))
            j++;
        if (j == b->set_count) {
            /* The rows read later say this result set holds another
             * profiler's results: its views stay empty (warned below). */
            for (size_t k = 1; k < s->view_count; k++)
                if (s->views[k]->ops == &aq_wait_ops)
                    s->views[k]->hooks = NULL;
            continue;
        }
        used[j] = true;
        pv_result_set *bs = b->sets[j];
        for (size_t k = 0; k < bs->note_count; k++)
            pv_set_add_note(s, "%s", bs->notes[k]);
        for (size_t k = 1; k < s->view_count; k++) {
            pv_view *p = s->views[k];
            if (p->ops != &aq_wait_ops)
                continue;
            for (size_t m = 1; m < bs->view_count; m++)
                if (bs->views[m] && strcmp(bs->views[m]->id, p->id) == 0) {
                    aq_defer_become(p, bs->views[m]);
                    bs->views[m] = NULL; /* now the placeholder's */
                    break;
                }
            if (p->ops == &aq_wait_ops)
                p->hooks = NULL; /* not built: an empty view */
        }
    }
    for (size_t j = 0; j < b->set_count; j++)
        if (!used[j])
            pv_warn(&f->diag,
                    "%s: result set %" PRId64 " (%s) has rows only in tables read after the file "
                    "was opened; the viewer does not show it ('profview info' lists it)",
                    f->path, b->sets[j]->id, b->sets[j]->kind);
    free(used);
    pv_file_free(b);
    d->built = NULL;
    d->complete = true;
}

static bool aq_defer_step(pv_file *f, size_t budget)
{
    aq_db *a = f->loader_data;
    aq_defer *d = a->defer;
    if (d->complete)
        return true;
    if (d->paused)
        aq_defer_pause(f, false); /* a step asks for the work: it goes on */
    /* Waits for about `budget` more rows of the thread's work, at most a
     * few ms (the slice a key may wait for); a budget of half the address
     * space or more waits for the end. */
    uint64_t want = atomic_load(&d->done) + budget;
    bool forever = budget >= SIZE_MAX / 2;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 4000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&d->lock);
    while (!d->finished && (forever || atomic_load(&d->done) < want)) {
        if (forever)
            pthread_cond_wait(&d->cond, &d->lock);
        else if (pthread_cond_timedwait(&d->cond, &d->lock, &until) == ETIMEDOUT)
            break;
    }
    bool finished = d->finished;
    pthread_mutex_unlock(&d->lock);
    if (!finished)
        return false;
    aq_defer_finish(d);
    return true;
}

static bool aq_defer_progress(const pv_file *f, uint64_t *done, uint64_t *total)
{
    const aq_db *a = f->loader_data;
    aq_defer *d = a->defer;
    /* the rows to read, then as many units again for building the views */
    *total = 2 * d->total;
    if (d->complete) {
        *done = *total;
        return true;
    }
    pthread_mutex_lock(&d->lock);
    bool finished = d->finished;
    pthread_mutex_unlock(&d->lock);
    uint64_t n = atomic_load(&d->done);
    *done = finished ? *total - 1 : n < d->total ? n : d->total;
    return false;
}

/* docs/aqtime.md "First screen": Ctrl-C in the viewer stops the reading
 * threads where they are (their next report), `:index` lets them go on. */
static void aq_defer_pause(pv_file *f, bool pause)
{
    aq_db *a = f->loader_data;
    aq_defer *d = a->defer;
    pthread_mutex_lock(&d->lock);
    d->paused = pause;
    pthread_cond_broadcast(&d->cond);
    pthread_mutex_unlock(&d->lock);
}

/* Waits (at most `seconds`) until a reader of f's background read is held
 * at its pause (`held`) or the thread has finished (not `held`); whether
 * it is. */
static bool aq_defer_wait(const pv_file *f, int seconds, bool held)
{
    const aq_db *a = f->loader_data;
    aq_defer *d = a ? a->defer : NULL;
    if (!d)
        return false;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    pthread_mutex_lock(&d->lock);
    int rc = 0;
    while (!(held ? d->held > 0 : d->finished) && rc == 0)
        rc = pthread_cond_timedwait(&d->cond, &d->lock, &until);
    bool there = held ? d->held > 0 : d->finished;
    pthread_mutex_unlock(&d->lock);
    return there;
}

bool aq_defer_held(const pv_file *f, int seconds)
{
    return aq_defer_wait(f, seconds, true);
}

bool aq_defer_finished(const pv_file *f, int seconds)
{
    return aq_defer_wait(f, seconds, false);
}

void aq_defer_free(aq_defer *d)
{
    if (!d)
        return;
    if (d->thread_started) {
        pthread_mutex_lock(&d->lock);
        atomic_store(&d->cancel, 1);
        pthread_cond_broadcast(&d->cond); /* a paused thread wakes and ends */
        pthread_mutex_unlock(&d->lock);
        pthread_join(d->thread, NULL);
    }
    if (d->db)
        sqlite3_close(d->db);
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        pv_diag_free(&d->tdiag[t]);
    pv_file_free(d->built);
    for (size_t i = 0; i < d->placeholder_count; i++)
        free(d->placeholders[i]);
    free(d->placeholders);
    free(d->path);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->cond);
    free(d);
}
