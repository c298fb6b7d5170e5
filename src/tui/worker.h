/* worker.h - a job whose work is one call into code that does not yield
 * (a `sqlite3_step` that aggregates every row, an export's writers): the
 * call runs on a thread of its own, in turns with the UI thread
 * (docs/architecture.md "The job engine").
 *
 * The worker runs only inside the job's step: pv_worker_step hands it the
 * turn and waits until the call, at its next progress report
 * (pv_worker_yield), finds the step's budget spent and hands the turn
 * back, or returns.  So the model is read by one thread at a time, as
 * everywhere in the viewer (views fill caches on read), with no lock
 * around a cell; between two steps the UI thread draws, reads keys and may
 * read any view, and the call waits where it stopped.  The rule for the
 * UI thread: between two steps, change nothing the call reads (the job
 * keeps keys until it ends, PV_JOB_KEYS_KEEP, and gives the call a copy of
 * what it reads of the viewer's own state).  Cancel: the job sets the
 * call's own cancel (SQLite's interrupt through its progress callback, the
 * export's cancel flag), then pv_worker_free runs it to its end and joins
 * the thread. */
#ifndef PROFVIEW_TUI_WORKER_H
#define PROFVIEW_TUI_WORKER_H

#include "profview/core.h"

typedef struct pv_worker pv_worker;

/* Makes the thread for fn(ctx); fn starts at the first pv_worker_step.
 * Without a thread (pthread_create failed) the first step runs fn to its
 * end on this thread. */
pv_worker *pv_worker_new(void (*fn)(void *ctx), void *ctx);
/* Lets the call run within budget b: until its deadline (b->deadline > 0),
 * else until it reported b->units more units of progress; true once it has
 * returned. */
bool pv_worker_step(pv_worker *w, const pv_budget *b);
/* Called by the call (on its thread) where it reports progress: `done`
 * units so far.  When the step's budget is spent, hands the turn back and
 * waits for the next step. */
void pv_worker_yield(pv_worker *w, uint64_t done);
/* Runs the call to its end (its cancel set by the caller, or not), joins
 * the thread and frees w.  NULL: nothing. */
void pv_worker_free(pv_worker *w);

#endif
