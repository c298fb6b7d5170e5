/* jobs.c - the viewer's one job engine (jobs.h, docs/tui.md "Long
 * operations"): the scheduler, and report jobs and queued commands as
 * jobs. */
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/app_internal.h"
#include "tui/group.h"

static const char *const pv_job_nouns[PV_JOB_KINDS] = {
    [PV_JOB_SEARCH] = "search",
    [PV_JOB_FILTER] = "filter",
    [PV_JOB_SORT] = "sort",
    [PV_JOB_REVERSE] = "reverse",
    [PV_JOB_HISTORY] = "history step",
    [PV_JOB_OPEN] = "opening",
    [PV_JOB_EXPAND] = "expansion",
    [PV_JOB_SQL] = "query",
    [PV_JOB_EXPORT] = "export",
    [PV_JOB_FLAME] = "flame graph",
    [PV_JOB_DIFF] = "comparison",
    [PV_JOB_COPY] = "copy",
    [PV_JOB_SCAN] = "search",
    [PV_JOB_AREA] = "search",
    [PV_JOB_JUMP] = "jump to the call",
    [PV_JOB_BUILD] = "flame graph",
    [PV_JOB_INDEX] = "indexing",
    [PV_JOB_LANE] = "lane",
};

const char *pv_job_noun(int kind)
{
    return kind >= 0 && kind < PV_JOB_KINDS ? pv_job_nouns[kind] : "job";
}

pv_job *pv_job_new(size_t size, const pv_job_ops *ops, int kind)
{
    pv_job *j = pv_xcalloc(1, size);
    j->ops = ops;
    j->kind = kind;
    j->file = PV_NO_ROW;
    return j;
}

void pv_job_free(pv_job *j)
{
    if (!j)
        return;
    if (j->ops->free)
        j->ops->free(j);
    free(j);
}

pv_job *pv_jobs_get(const pv_app *a, int kind)
{
    pv_job *j = a->jobs.job;
    return j && (kind < 0 || j->kind == kind) ? j : NULL;
}

void pv_jobs_stop(pv_app *a, bool say)
{
    pv_job *j = a->jobs.job;
    if (!j)
        return;
    a->jobs.job = NULL;
    if (j->ops->stop)
        j->ops->stop(a, j, say);
    pv_job_free(j);
}

void pv_jobs_start(pv_app *a, pv_job *j)
{
    pv_jobs_stop(a, false);
    a->jobs.job = j;
}

/* The queued job j still waits for its index. */
static bool pv_jobs_waits(const pv_app *a, const pv_job *j)
{
    if (j->ops->waits && j->ops->waits(a, j))
        return true;
    if (!j->queued)
        return false;
    if (j->wait_report)
        return pv_app_report_indexing(a);
    for (size_t i = 0; i < a->file_count; i++) {
        uint64_t done, total;
        if ((j->file == PV_NO_ROW || j->file == i) &&
            !pv_file_index_progress(a->files[i], &done, &total))
            return true;
    }
    return false;
}

bool pv_jobs_waiting(const pv_app *a)
{
    return a->jobs.job && pv_jobs_waits(a, a->jobs.job);
}

void pv_jobs_say_waiting(pv_app *a, int kind, const char *verb)
{
    char progress[128];
    pv_app_index_text(a, progress, sizeof progress);
    pv_app_messagef(a, false, "%s: the %s %s when the index is ready (Esc cancels)", progress,
                    pv_job_noun(kind), verb);
}

bool pv_jobs_key(pv_app *a, int key, bool mouse)
{
    pv_job *j = a->jobs.job;
    if (!j)
        return false;
    bool stop_key = !mouse && (key == PV_KEY_ESC || key == PV_KEY_CTRL('c'));
    bool waits = j->queued || (j->ops->waits && j->ops->waits(a, j));
    switch (j->ops->keys) {
    case PV_JOB_KEYS_STOP:
        /* Esc and Ctrl-C stop a job (queued or running) and do nothing
         * else; another key stops a running job and then acts (a queued
         * one waits on; an opening goes on under other keys: moving
         * elsewhere stops it; one waiting for files waits on too) */
        if (stop_key || (!waits && j->kind != PV_JOB_OPEN)) {
            pv_jobs_stop(a, true);
            return stop_key;
        }
        return false;
    case PV_JOB_KEYS_ANY:
        if (mouse)
            return false;
        pv_jobs_stop(a, true);
        return stop_key;
    case PV_JOB_KEYS_KEEP:
        /* other keys were kept (pv_jobs_keep) */
        if (stop_key)
            pv_jobs_stop(a, true);
        return stop_key;
    default:
        return false;
    }
}

/* The job keeps keys (PV_JOB_KEYS_KEEP) while it runs. */
static bool pv_jobs_keeping(const pv_app *a)
{
    return a->jobs.job && a->jobs.job->ops->keys == PV_JOB_KEYS_KEEP;
}

bool pv_jobs_keep(pv_app *a, const pv_job_input *in)
{
    bool stop_key = !in->button && !in->paste &&
                    (in->key == PV_KEY_ESC || in->key == PV_KEY_CTRL('c'));
    if (!pv_jobs_keeping(a) || stop_key)
        return false;
    if (a->jobs.kept_count < PV_JOB_KEPT) {
        pv_job_input *k = &a->jobs.kept[a->jobs.kept_count++];
        *k = *in;
        if (in->paste) {
            k->paste = pv_xmalloc(in->paste_len + 1);
            memcpy(k->paste, in->paste, in->paste_len);
            k->paste[in->paste_len] = '\0';
        }
    }
    return true; /* (more than PV_JOB_KEPT are dropped) */
}

/* The inputs kept while a job ran, answered in order once none keeps
 * them (one that starts such a job keeps the rest again). */
static void pv_jobs_answer_kept(pv_app *a)
{
    size_t i = 0;
    for (; i < a->jobs.kept_count && !pv_jobs_keeping(a); i++) {
        pv_job_input in = a->jobs.kept[i];
        if (in.paste) {
            pv_app_paste(a, in.paste, in.paste_len);
            free(in.paste);
        } else if (in.button) {
            pv_app_draw(a); /* a click acts on what is on screen */
            pv_app_mouse(a, in.y, in.x, in.button);
        } else {
            pv_app_draw(a); /* keys act on what is on screen (page size...) */
            pv_app_key(a, in.key);
        }
    }
    /* kept again meanwhile: after those not answered yet */
    size_t left = a->jobs.kept_count - i;
    memmove(a->jobs.kept, a->jobs.kept + i, left * sizeof *a->jobs.kept);
    a->jobs.kept_count = left;
}

void pv_jobs_items_moving(pv_app *a)
{
    pv_job *j = a->jobs.job;
    if (!j || !j->ops->items_moving)
        return;
    a->jobs.job = NULL; /* while it decides (what it runs replaces nothing) */
    if (j->ops->items_moving(a, j) && !a->jobs.job)
        a->jobs.job = j;
    else
        pv_job_free(j);
}

void pv_jobs_items_moved(pv_app *a)
{
    pv_job *j = a->jobs.job;
    if (j && j->ops->items_moved)
        j->ops->items_moved(a, j);
}

/* ---- jobs beside the one job */

void pv_jobs_start_beside(pv_app *a, pv_job *j)
{
    pv_jobs_stop_beside(a, j->kind, false);
    a->jobs.beside[j->kind] = j;
}

pv_job *pv_jobs_beside(const pv_app *a, int kind)
{
    return kind >= 0 && kind < PV_JOB_KINDS ? a->jobs.beside[kind] : NULL;
}

bool pv_jobs_stop_beside(pv_app *a, int kind, bool say)
{
    pv_job *j = pv_jobs_beside(a, kind);
    if (!j)
        return false;
    a->jobs.beside[kind] = NULL;
    if (j->ops->stop)
        j->ops->stop(a, j, say);
    pv_job_free(j);
    return true;
}

void pv_jobs_free(pv_app *a)
{
    pv_jobs_stop(a, false);
    for (size_t i = 0; i < a->jobs.kept_count; i++)
        free(a->jobs.kept[i].paste);
    a->jobs.kept_count = 0;
    for (int k = 0; k < PV_JOB_KINDS; k++)
        pv_jobs_stop_beside(a, k, false);
}

void pv_app_stop_jobs(pv_app *a)
{
    pv_jobs_free(a);
}

/* The job beside runs between frames: not the scripted mode's one step per
 * key of a test's fixed units (pv_app_flame_test_slice). */
static bool pv_jobs_beside_runs(const pv_app *a, const pv_job *j)
{
    return j && !j->ops->idle && !(j->fixed_units && a->opt.keys_path);
}

static bool pv_jobs_beside_busy(const pv_app *a)
{
    for (int k = 0; k < PV_JOB_KINDS; k++)
        if (pv_jobs_beside_runs(a, a->jobs.beside[k]))
            return true;
    return false;
}

/* The units of the next step, from `units` that took `took` seconds:
 * aimed at `target`, changing by at most 2x, within min..max (capped: a
 * cheap phase must not grow the step that the next, dearer one gets). */
static size_t pv_jobs_size(size_t units, double took, double target, size_t min, size_t max)
{
    double k = target / took;
    k = k > 2 ? 2 : k < 0.5 ? 0.5 : k;
    size_t next = (size_t)((double)units * k);
    return next < min ? min : next > max ? max : next;
}

/* One step of the job of kind `kind` beside the one job: about its
 * slice_s (tests: its fixed units), its units sized by the engine when its
 * kind asks (units_max).  While it steps it is not in its place: what it
 * starts replaces nothing. */
void pv_jobs_step_beside(pv_app *a, int kind)
{
    pv_job *j = a->jobs.beside[kind];
    if (!j)
        return;
    a->jobs.beside[kind] = NULL;
    const pv_job_ops *ops = j->ops;
    bool sized = ops->units_max && !j->fixed_units;
    size_t *units = &a->jobs.units[kind];
    if (sized && !*units)
        *units = ops->units_start;
    double t0 = pv_clock_now();
    pv_budget b = {j->fixed_units ? j->fixed_units : sized ? *units : SIZE_MAX,
                   j->fixed_units ? 0 : t0 + ops->slice_s};
    size_t given = b.units;
    bool done = ops->step(a, j, &b);
    double took = pv_clock_now() - t0;
    if (sized && !done && took > 0 && given > b.units)
        *units = pv_jobs_size(given - b.units, took, ops->slice_s, ops->units_min, ops->units_max);
    if (done || a->jobs.beside[kind])
        pv_job_free(j); /* finished (or replaced by what it started) */
    else
        a->jobs.beside[kind] = j;
}

/* A step of every job beside the one job (`paced`: only the scripted
 * mode's one step per key). */
static void pv_jobs_step_besides(pv_app *a, bool paced)
{
    for (int k = 0; k < PV_JOB_KINDS; k++) {
        pv_job *j = a->jobs.beside[k];
        if (j && !j->ops->idle && (!paced || !pv_jobs_beside_runs(a, j)))
            pv_jobs_step_beside(a, k);
    }
}

bool pv_app_has_work(const pv_app *a)
{
    bool beside = pv_jobs_beside_busy(a) || !pv_trash_empty(&a->trash) ||
                  (a->jobs.kept_count && !pv_jobs_keeping(a));
    /* A job queued for the index waits while indexing goes on. */
    if (pv_jobs_waiting(a))
        return beside;
    return a->jobs.job || beside;
}

bool pv_app_work_stoppable(const pv_app *a)
{
    /* a job that keys stop stops at any key; a flame graph build answers
     * every key */
    if (a->jobs.job)
        return a->jobs.job->ops->keys != PV_JOB_KEYS_WAIT;
    return pv_jobs_beside_busy(a) || !pv_trash_empty(&a->trash);
}

bool pv_app_work_paced(const pv_app *a)
{
    return a->jobs.job && a->jobs.job->ops->paced && a->jobs.fixed;
}

void pv_app_flame_test_slice(pv_app *a)
{
    pv_jobs_step_besides(a, true);
}

/* One step of job j: about PV_SCAN_SLICE_S of rows (tests: a fixed
 * number), then the screen is drawn and keys are read.  While it steps it
 * is not the engine's job: what it starts (a command run when the index
 * is ready) replaces nothing. */
static void pv_jobs_step(pv_app *a, pv_job *j)
{
    j->queued = false;
    a->jobs.job = NULL;
    double t0 = pv_clock_now();
    /* the budget is counted in rows: the clock ends a step that a slow row
     * or a loaded machine makes overrun (docs/tui.md "Long operations") */
    pv_budget b = {a->jobs.budget, a->jobs.fixed ? 0 : pv_clock_now() + PV_SCAN_SLICE_S};
    if (j->ops->step(a, j, &b) || a->jobs.job) {
        pv_job_free(j); /* finished (or replaced by what it started) */
        return;
    }
    a->jobs.job = j;
    double took = pv_clock_now() - t0;
    if (j->ops->paced && !a->jobs.fixed && took > 0)
        a->jobs.budget = pv_jobs_size(a->jobs.budget, took, PV_SCAN_SLICE_S, 1024, PV_JOB_STEP_MAX);
}

void pv_jobs_start_now(pv_app *a, pv_job *j)
{
    pv_jobs_start(a, j);
    pv_jobs_step(a, j);
}

void pv_app_work(pv_app *a)
{
    if (a->jobs.kept_count && !pv_jobs_keeping(a)) {
        pv_jobs_answer_kept(a); /* keys typed while a job kept them */
        return;
    }
    pv_job *j = a->jobs.job;
    if (!j) {
        /* a few MB of a replaced selection back to the system */
        if (!pv_trash_empty(&a->trash))
            pv_trash_step(&a->trash, PV_TRASH_STEP);
        pv_jobs_step_besides(a, false); /* a slice of the graph being built */
        return;
    }
    if (pv_jobs_waits(a, j)) {
        if (pv_jobs_beside_busy(a)) /* the graph goes on; the job waits */
            pv_jobs_step_besides(a, false);
        return;
    }
    pv_jobs_step(a, j);
}

/* ---- report jobs */

typedef struct pv_app_report_job {
    pv_job base;
    pv_report_job *rj;
    pv_buf what;   /* "Sorting by name" */
    size_t item;   /* the item whose report it works on, while items move */
    /* a history step or an opening: where we were and the history's
     * position then; a stop goes back there (docs/tui.md "Long
     * operations") */
    bool undo;
    pv_location from;
    size_t from_pos;
} pv_app_report_job;

static void pv_app_report_job_progress(pv_app *a, pv_app_report_job *j)
{
    double pct = 100.0 * pv_report_job_progress(j->rj);
    pv_app_messagef(a, false, "%s... %.0f%% (Esc %s)", pv_buf_cstr(&j->what), pct,
                    j->base.kind == PV_JOB_OPEN ? "goes back" : "stops");
}

/* The message of a finished job. */
static void pv_app_report_job_done(pv_app *a, pv_app_report_job *j)
{
    pv_report *r = pv_report_job_report(j->rj);
    int kind = j->base.kind;
    if (kind == PV_JOB_SEARCH) {
        if (pv_report_job_found(j->rj))
            pv_buf_clear(&a->message);
        else
            pv_app_messagef(a, true, "not found: %s", pv_buf_cstr(&a->search));
    } else if (kind == PV_JOB_OPEN) {
        for (size_t i = 0; i < a->item_count; i++)
            if (&a->items[i].report == r)
                a->items[i].opened = true;
        pv_buf_clear(&a->message);
        pv_app_report_opened(a, r);
    } else if (kind == PV_JOB_FILTER) {
        if (r->filter[0])
            pv_app_messagef(a, false, "%zu of %zu rows match", r->matched, pv_view_rows(r->view));
        else
            pv_app_message(a, false, "filter cleared");
    } else {
        pv_buf_clear(&a->message);
    }
}

static bool pv_app_report_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    pv_app_report_job *j = (pv_app_report_job *)job;
    if (b->deadline > 0)
        pv_report_job_deadline(j->rj, b->deadline);
    if (pv_report_job_step(j->rj, b->units)) {
        pv_app_report_job_done(a, j);
        return true;
    }
    pv_app_report_job_progress(a, j);
    return false;
}

static void pv_app_report_job_stop(pv_app *a, pv_job *job, bool say)
{
    pv_app_report_job *j = (pv_app_report_job *)job;
    int kind = job->kind;
    if (kind == PV_JOB_OPEN && !j->undo && say)
        a->open_stopped = a->loc.item; /* not opened again until asked */
    pv_report_job_free(j->rj); /* the report is as it was */
    j->rj = NULL;
    if (j->undo && say) {
        /* a history step stopped: back where it started, the history too */
        a->history.pos = j->from_pos;
        pv_app_apply(a, &j->from);
    }
    if (!say)
        return;
    static const char *const kept[] = {
        [PV_JOB_SEARCH] = "the cursor stays",
        [PV_JOB_FILTER] = "the previous filter stays",
        [PV_JOB_SORT] = "the previous order stays",
        [PV_JOB_REVERSE] = "the previous order stays",
        [PV_JOB_HISTORY] = "the previous place, filter and order stay",
        [PV_JOB_OPEN] = "back where you were",
        [PV_JOB_EXPAND] = "the tree stays as it was",
    };
    pv_app_messagef(a, false, "%s %s: %s", pv_job_noun(kind), job->queued ? "cancelled" : "stopped",
                    kind == PV_JOB_OPEN && !j->undo ? "Enter opens the view" : kept[kind]);
}

static bool pv_app_report_job_moving(pv_app *a, pv_job *job)
{
    /* A job on an item's report follows the report when the items move. */
    pv_app_report_job *j = (pv_app_report_job *)job;
    j->item = PV_NO_ROW;
    for (size_t k = 0; k < a->item_count; k++)
        if (&a->items[k].report == pv_report_job_report(j->rj))
            j->item = k;
    return true;
}

static void pv_app_report_job_moved(pv_app *a, pv_job *job)
{
    pv_app_report_job *j = (pv_app_report_job *)job;
    if (j->item != PV_NO_ROW)
        pv_report_job_move(j->rj, &a->items[j->item].report);
}

static void pv_app_report_job_free(pv_job *job)
{
    pv_app_report_job *j = (pv_app_report_job *)job;
    pv_report_job_free(j->rj);
    pv_buf_free(&j->what);
    pv_location_free(&j->from);
}

static const pv_job_ops pv_app_report_job_ops = {
    .keys = PV_JOB_KEYS_STOP,
    .paced = true,
    .step = pv_app_report_job_step,
    .stop = pv_app_report_job_stop,
    .items_moving = pv_app_report_job_moving,
    .items_moved = pv_app_report_job_moved,
    .free = pv_app_report_job_free,
};

static pv_app_report_job *pv_app_report_job_new(pv_report_job *rj, int kind, const char *what)
{
    pv_app_report_job *j = (pv_app_report_job *)pv_job_new(sizeof *j, &pv_app_report_job_ops, kind);
    j->rj = rj;
    pv_buf_init(&j->what);
    pv_buf_puts(&j->what, what);
    j->item = PV_NO_ROW;
    return j;
}

void pv_app_job_start(pv_app *a, pv_report_job *rj, int kind, const char *what)
{
    pv_app_report_job *j = pv_app_report_job_new(rj, kind, what);
    pv_jobs_start(a, &j->base);
    pv_report *r = pv_report_job_report(rj);
    if (r == pv_app_focused_report(a) && pv_app_report_indexing(a)) {
        /* The rows not indexed yet have no names, contexts or depths:
         * queued, it runs when the index is ready (docs/tui.md). */
        j->base.queued = true;
        j->base.wait_report = true;
        pv_jobs_say_waiting(a, kind, "runs");
        return;
    }
    if (!a->jobs.fixed && pv_view_rows(r->view) <= PV_BIG_VIEW) {
        a->jobs.job = NULL;
        while (!pv_report_job_step(rj, SIZE_MAX)) /* small: at once */
            ;
        pv_app_report_job_done(a, j);
        pv_job_free(&j->base);
        return;
    }
    pv_app_report_job_progress(a, j);
}

void pv_app_job_open(pv_app *a, pv_report_job *rj, const char *what)
{
    pv_app_report_job *j = pv_app_report_job_new(rj, PV_JOB_OPEN, what);
    pv_jobs_start(a, &j->base);
    pv_app_messagef(a, false, "%s... 0%% (Esc goes back)", what);
}

void pv_app_job_undo_to(pv_app *a, const pv_location *from, size_t pos)
{
    pv_job *job = a->jobs.job;
    if (!job || job->ops != &pv_app_report_job_ops)
        return;
    pv_app_report_job *j = (pv_app_report_job *)job;
    j->undo = true;
    j->from_pos = pos;
    pv_location_free(&j->from);
    pv_location_copy(&j->from, from);
}

void pv_app_job_keep_place(pv_app *a)
{
    pv_job *job = a->jobs.job;
    if (job && job->ops == &pv_app_report_job_ops)
        ((pv_app_report_job *)job)->undo = false;
}

bool pv_app_job_select(pv_app *a, int kind, size_t row)
{
    pv_job *job = pv_jobs_get(a, kind);
    if (!job || job->ops != &pv_app_report_job_ops)
        return false;
    pv_report_job_select(((pv_app_report_job *)job)->rj, row);
    return true;
}

bool pv_app_job_progress_of(const pv_app *a, int kind, double *progress)
{
    pv_job *job = pv_jobs_get(a, kind);
    if (!job || job->ops != &pv_app_report_job_ops)
        return false;
    if (progress)
        *progress = pv_report_job_progress(((pv_app_report_job *)job)->rj);
    return true;
}

/* ---- commands queued until the index is ready */

typedef struct pv_command_job {
    pv_job base;
    pv_command_args args;
} pv_command_job;

/* The queued command, once its index is ready: run as if asked now. */
static bool pv_command_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    (void)b;
    pv_command_args *c = &((pv_command_job *)job)->args;
    const char *arg = c->arg;
    int kind = job->kind;
    pv_buf_clear(&a->message);
    bool same = a->loc.item == c->item;
    if (kind == PV_JOB_SQL) {
        pv_app_sql_start(a, arg);
    } else if (kind == PV_JOB_EXPORT) {
        pv_app_export_queued(a, c);
    } else if (kind == PV_JOB_FLAME) {
        if (same)
            pv_flame_ui_open(a, c->mode);
        else
            pv_app_message(a, false, "flame graph not opened: the view changed meanwhile");
    } else if (kind == PV_JOB_COPY) {
        if (same)
            pv_app_copy_command(a, arg);
        else
            pv_app_message(a, false, "nothing copied: the view changed meanwhile");
    } else if (kind == PV_JOB_DIFF) {
        if (same)
            pv_app_diff_queued(a, c);
        else
            pv_app_message(a, false, "comparison not made: the view changed meanwhile");
    }
    return true;
}

static void pv_command_job_stop(pv_app *a, pv_job *job, bool say)
{
    if (!say)
        return;
    static const char *const kept[] = {
        [PV_JOB_SQL] = "the view stays as it was",
        [PV_JOB_EXPORT] = "nothing written",
        [PV_JOB_FLAME] = "the view stays as it was",
        [PV_JOB_DIFF] = "the view stays as it was",
        [PV_JOB_COPY] = "nothing copied",
    };
    pv_app_messagef(a, false, "%s %s: %s", pv_job_noun(job->kind),
                    job->queued ? "cancelled" : "stopped", kept[job->kind]);
}

static void pv_command_job_free(pv_job *job)
{
    free(((pv_command_job *)job)->args.arg);
}

static const pv_job_ops pv_command_job_ops = {
    .keys = PV_JOB_KEYS_STOP,
    .paced = true,
    .step = pv_command_job_step,
    .stop = pv_command_job_stop,
    .free = pv_command_job_free,
};

pv_command_args *pv_app_command_queue(pv_app *a, int kind, size_t file, const char *arg)
{
    bool waits = false;
    for (size_t i = 0; i < a->file_count && !waits; i++) {
        uint64_t done, total;
        waits = (file == PV_NO_ROW || file == i) &&
                !pv_file_index_progress(a->files[i], &done, &total);
    }
    if (!waits)
        return NULL;
    pv_command_job *j = (pv_command_job *)pv_job_new(sizeof *j, &pv_command_job_ops, kind);
    j->base.queued = true;
    j->base.file = file;
    j->args.arg = pv_xstrdup(arg ? arg : "");
    j->args.item = a->loc.item;
    pv_jobs_start(a, &j->base);
    /* Until the index is ready, the rows not indexed have no names,
     * contexts or calls: the command would finish the index on this
     * thread (seconds) before it could start. */
    pv_jobs_say_waiting(a, kind, kind == PV_JOB_FLAME ? "opens" : "runs");
    return &j->args;
}
