/* jobs.h - the viewer's one job engine (docs/tui.md "Long operations").
 *
 * Every long piece of work a key asks for is a job: a kind's state struct
 * that begins with pv_job, and its ops.  One job runs at a time (a newer
 * one replaces it); one that reads rows not indexed yet waits, queued,
 * until the index is ready; the terminal loop gives it a step between
 * frames (pv_app_work) within a budget of rows and a deadline; Esc and
 * Ctrl-C stop it through one path (pv_jobs_stop), which leaves everything
 * as it was before the job started.  A new long operation is a state
 * struct, a step function and an ops table, nothing else.
 *
 * Jobs beside the one job (a pinned lane being built) run between key
 * presses as indexing does: keys do not stop them, Ctrl-C does
 * (pv_jobs_stop_beside); each gets a step per slice.  Other work that goes
 * on between key presses (indexing, a flame graph being built, trash given
 * back) is done in slices by its owner (app.c, flame.c). */
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
    PV_JOB_LANE, /* a pinned lane being built, beside the one job */
    PV_JOB_KINDS
};

/* What a key does to a running job. */
enum {
    PV_JOB_KEYS_STOP, /* Esc and Ctrl-C stop it; another key stops it and acts (not an
                       * opening, not a queued job) */
    PV_JOB_KEYS_ANY,  /* any key stops it (Esc and Ctrl-C do nothing else) */
    PV_JOB_KEYS_WAIT, /* keys wait: it runs at the next frame (the pump reads them) */
};

typedef struct pv_job_ops {
    int keys;   /* PV_JOB_KEYS_* */
    bool paced; /* tests' fixed slices give it one step per key */
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
    /* Its progress for the status bar ("lane NAME 42%"); NULL: none. */
    void (*progress)(const pv_app *a, const pv_job *j, char *out, size_t size);
} pv_job_ops;

struct pv_job {
    const pv_job_ops *ops;
    int kind;         /* PV_JOB_* */
    bool queued;      /* waits for the index (the status bar says so) */
    bool wait_report; /* ... of the focused report's file; else of `file` */
    size_t file;      /* PV_NO_ROW: of every file */
};

/* The engine's state in the viewer. */
#define PV_JOBS_BESIDE 8 /* jobs beside the one job at most */

typedef struct pv_jobs {
    pv_job *job;   /* the one job, running or queued (NULL: none) */
    pv_job *beside[PV_JOBS_BESIDE]; /* jobs beside it, in the order started */
    size_t beside_count;
    size_t budget; /* rows per step, adapted to PV_SCAN_SLICE_S */
    bool fixed;    /* tests (the test option work-slice): one step of `budget` per key */
} pv_jobs;

/* A new job of `size` bytes (the kind's struct). */
pv_job *pv_job_new(size_t size, const pv_job_ops *ops, int kind);
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
/* Starts j beside the one job (keys do not stop it; a full list stops
 * the oldest quietly).  pv_jobs_beside_step gives the first one a step
 * within b (it is freed when finished) and says whether any is left;
 * pv_jobs_beside finds the i-th one of kind `kind` (-1: any);
 * pv_jobs_beside_progress writes the first one's progress (empty: none);
 * pv_jobs_drop_beside stops one without a word (the owner took back what
 * it was for); pv_jobs_stop_beside stops every one of kind `kind` (-1:
 * any), saying so when `say`, and is true when there were. */
void pv_jobs_start_beside(pv_app *a, pv_job *j);
bool pv_jobs_beside_step(pv_app *a, pv_budget *b);
pv_job *pv_jobs_beside(const pv_app *a, int kind, size_t i);
void pv_jobs_beside_progress(const pv_app *a, char *out, size_t size);
void pv_jobs_drop_beside(pv_app *a, pv_job *j);
bool pv_jobs_stop_beside(pv_app *a, int kind, bool say);
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
