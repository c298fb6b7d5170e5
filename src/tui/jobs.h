/* jobs.h - the viewer's one job engine (docs/tui.md "Long operations").
 *
 * Every long piece of work a key asks for is a job: a kind's state struct
 * that begins with pv_job, and its ops.  One job runs at a time (a newer
 * one replaces it); one that reads rows not indexed yet waits, queued,
 * until the index is ready; the terminal loop gives it a step between
 * frames (pv_app_work) within a budget of rows and a deadline; Esc and
 * Ctrl-C stop it through one path (pv_jobs_stop), which leaves everything
 * as it was before the job started.  A new long operation is a state
 * struct, a step function and an ops table, nothing else.  Work that is
 * one call into code that does not yield (:sql, an export) is a job whose
 * call runs on a worker thread in turns with this one (worker.h).
 *
 * Work that goes on beside the one job between key presses (a flame
 * graph being built, indexing, pinned lanes being built) is a job of the
 * same engine too, "beside" it: one of each kind, stepped within its own
 * slice of time (between frames, or for indexing while no key waits),
 * neither replacing the one job nor replaced by it, stopped through the
 * same path (pv_jobs_stop_beside).  (Trash is given back between frames.) */
#ifndef PROFVIEW_TUI_JOBS_H
#define PROFVIEW_TUI_JOBS_H

#include "profview/model.h"
#include "tui/history.h"
#include "tui/report.h"

typedef struct pv_app pv_app;
typedef struct pv_job pv_job;

/* What a job does, for its messages ("sort stopped: the previous order
 * stays"). */
enum {
    PV_JOB_SEARCH,
    PV_JOB_FILTER,
    PV_JOB_SORT,
    PV_JOB_REVERSE,
    PV_JOB_HISTORY,
    PV_JOB_OPEN,
    PV_JOB_EXPAND,
    PV_JOB_SQL,
    PV_JOB_EXPORT,
    PV_JOB_FLAME,
    PV_JOB_DIFF,
    PV_JOB_COPY,
    PV_JOB_SCAN, /* :goto a time, J/K: a scan over a report's rows */
    PV_JOB_AREA, /* a jump to a call waiting for its area's lane */
    PV_JOB_JUMP, /* Enter on an event: to its call once the index is ready */
    PV_JOB_BUILD, /* beside: a flame graph being built (flame.c) */
    PV_JOB_INDEX, /* beside, idle: indexing in slices (app.c) */
    PV_JOB_LANE,  /* beside: pinned lanes being built (lanes.c) */
    PV_JOB_KINDS
};

/* What a key does to a running job. */
enum {
    PV_JOB_KEYS_STOP, /* Esc and Ctrl-C stop it; another key stops it and acts (not an
                       * opening, not a queued job) */
    PV_JOB_KEYS_ANY,  /* any key stops it (Esc and Ctrl-C do nothing else) */
    PV_JOB_KEYS_WAIT, /* beside: its owner answers the keys it wants (pv_jobs_stop_beside) */
    /* Esc and Ctrl-C stop it; other keys, clicks and pastes wait, kept in
     * order, and are answered when it ends (a job on a worker, worker.h:
     * nothing may change what its call reads) */
    PV_JOB_KEYS_KEEP,
};

/* A key, a click or a paste kept while a job runs (PV_JOB_KEYS_KEEP). */
typedef struct pv_job_input {
    int key;          /* a key (button == 0 and no paste) */
    int y, x, button; /* button != 0: a click or the wheel */
    char *paste;      /* a paste's text (owned), or NULL */
    size_t paste_len;
} pv_job_input;

#define PV_JOB_KEPT 256 /* inputs kept while a job runs; more are dropped */

typedef struct pv_job_ops {
    int keys;   /* PV_JOB_KEYS_* (the one job; a job beside it: its owner's keys) */
    bool paced; /* tests' fixed slices give it one step per key */
    /* Runs beside the one job (pv_jobs_start_beside), each step about
     * slice_s seconds (or the job's fixed_units). */
    bool beside;
    double slice_s;
    /* beside: the engine sizes each step's units (b->units) to take about
     * slice_s, adapted after each step from the units it spent, from
     * units_start within units_min..units_max, as it sizes the one job's
     * (indexing); 0: a step is bounded by its deadline only */
    size_t units_start, units_min, units_max;
    /* beside, stepped only while no key waits (pv_app_index_slice), not
     * between frames (pv_app_work) */
    bool idle;
    /* One step within b->units rows and b->deadline; true when it is
     * finished (its result in place and said). */
    bool (*step)(pv_app *a, pv_job *j, pv_budget *b);
    /* Stopped before its end: everything stays as it was; says so when
     * `say`.  NULL: nothing to undo or say. */
    void (*stop)(pv_app *a, pv_job *j, bool say);
    /* The Explorer's items (and the reports in them) are about to move (a
     * file arrives): false drops the job (stopped, said); `moved` follows
     * them afterwards.  NULL: kept. */
    bool (*items_moving)(pv_app *a, pv_job *j);
    void (*items_moved)(pv_app *a, pv_job *j);
    void (*free)(pv_job *j); /* what the kind owns (not j); may be NULL */
    /* It waits for something other than the index (files the loader thread
     * reads): while true it is not stepped and keys leave it, as a queued
     * job (Esc and Ctrl-C stop it).  NULL: it waits for nothing else. */
    bool (*waits)(const pv_app *a, const pv_job *j);
} pv_job_ops;

struct pv_job {
    const pv_job_ops *ops;
    int kind;         /* PV_JOB_* */
    bool queued;      /* waits for the index (the status bar says so) */
    bool wait_report; /* ... of the focused report's file; else of `file` */
    size_t file;      /* PV_NO_ROW: of every file */
    /* beside: tests' fixed units per step, no deadline (0: slice_s); in
     * the scripted mode one step per key (pv_app_flame_test_slice) */
    size_t fixed_units;
};

/* The engine's state in the viewer. */
typedef struct pv_jobs {
    pv_job *job;   /* the one job, running or queued (NULL: none) */
    pv_job *beside[PV_JOB_KINDS]; /* the jobs beside it, by kind */
    size_t budget; /* rows per step, adapted to PV_SCAN_SLICE_S */
    size_t units[PV_JOB_KINDS]; /* beside, sized by the engine: units per step, by kind */
    bool fixed;    /* tests (the test option work-slice): one step of `budget` per key */
    pv_job_input kept[PV_JOB_KEPT]; /* kept while a job runs (PV_JOB_KEYS_KEEP) */
    size_t kept_count;
} pv_jobs;

/* A new job of `size` bytes (the kind's struct). */
pv_job *pv_job_new(size_t size, const pv_job_ops *ops, int kind);
/* A key, click or paste while a job that keeps them runs (PV_JOB_KEYS_KEEP;
 * not Esc or Ctrl-C, which stop it): kept, answered when it ends; true
 * when kept. */
bool pv_jobs_keep(pv_app *a, const pv_job_input *in);
/* Frees a job that was never started, or ran to its end outside the
 * engine (a small one at once). */
void pv_job_free(pv_job *j);
/* Makes j the job (stopping any other quietly); it steps from the next
 * frame, or waits while j->queued and what it reads is being indexed
 * (j->wait_report, j->file). */
void pv_jobs_start(pv_app *a, pv_job *j);
/* pv_jobs_start and its first step at once (the rest from the next
 * frame). */
void pv_jobs_start_now(pv_app *a, pv_job *j);
/* Stops the job, queued or running (the one cancel path); says so when
 * `say`. */
void pv_jobs_stop(pv_app *a, bool say);
/* The job when it is of kind `kind` (-1: any), else NULL. */
pv_job *pv_jobs_get(const pv_app *a, int kind);
/* The job waits for the index. */
bool pv_jobs_waiting(const pv_app *a);
/* A key or a click: stops the job as its ops say; true when that is all
 * the key does. */
bool pv_jobs_key(pv_app *a, int key, bool mouse);
/* A file arrives: the items move (pv_job_ops.items_moving, items_moved). */
void pv_jobs_items_moving(pv_app *a);
void pv_jobs_items_moved(pv_app *a);
/* Says that the job waits for the index ("the sort runs when the index is
 * ready"); `verb`: "runs", "opens". */
void pv_jobs_say_waiting(pv_app *a, int kind, const char *verb);
/* A job's noun ("sort"). */
const char *pv_job_noun(int kind);
/* Every job, the one and those beside it, stopped quietly (teardown). */
void pv_jobs_free(pv_app *a);

/* ---- jobs beside the one job */

/* Makes j the job of its kind beside the one job (stopping the previous
 * of that kind quietly); it steps from the next frame. */
void pv_jobs_start_beside(pv_app *a, pv_job *j);
/* The job of kind `kind` beside the one job, or NULL. */
pv_job *pv_jobs_beside(const pv_app *a, int kind);
/* Stops it (the one cancel path: everything stays as it was); says so
 * when `say`; true when there was one. */
bool pv_jobs_stop_beside(pv_app *a, int kind, bool say);
/* One step of it: about its slice_s (tests: its fixed_units). */
void pv_jobs_step_beside(pv_app *a, int kind);

/* ---- report jobs (report.h) as viewer jobs: search, filter, sort,
 * reverse, a history step, an opening, an expansion */

/* Runs report job rj (now when small, else in steps; queued while the
 * report's file is indexed); `what` names it in messages ("Sorting by
 * name"). */
void pv_app_job_start(pv_app *a, pv_report_job *rj, int kind, const char *what);
/* The opening of a big tree (PV_JOB_OPEN) in steps, from its first step. */
void pv_app_job_open(pv_app *a, pv_report_job *rj, const char *what);
/* A history step or an opening running in steps: a stop goes back to
 * `from` and history position `pos` (docs/tui.md "Long operations"). */
void pv_app_job_undo_to(pv_app *a, const pv_location *from, size_t pos);
/* The job's stop no longer goes back (a new place was shown). */
void pv_app_job_keep_place(pv_app *a);
/* The report job of kind `kind` selects model row `row` when it finishes
 * (pv_report_job_select); false when no such job runs. */
bool pv_app_job_select(pv_app *a, int kind, size_t row);
/* The progress (0..1) of the running job of kind `kind`; false when none. */
bool pv_app_job_progress_of(const pv_app *a, int kind, double *progress);

/* ---- commands that read the whole index (:sql, an export, a flame
 * graph, :diff, :copy), queued while it is built */

typedef struct pv_command_args {
    char *arg;                    /* the query (SQL), the path (export), the name (diff) */
    size_t item;                  /* the Explorer item asked from */
    int mode;                     /* export: format; flame graph: its mode */
    int exp_what;                 /* export: its exp_what (PV_EXPORT_PART_* bits) */
    bool force;                   /* export: replacing the file was confirmed */
    const pv_result_set *set;     /* :diff: the result set compared with */
} pv_command_args;
/* A command of `kind` that reads the whole index of file `file`
 * (PV_NO_ROW: of every file): while that is being indexed, queues it (a
 * newer job replaces it) with `arg` (copied), says so and returns its
 * arguments for the caller to fill; NULL: nothing waits, run it now. */
pv_command_args *pv_app_command_queue(pv_app *a, int kind, size_t file, const char *arg);

#endif
