/* worker.c - a call that does not yield, on a thread of its own that runs
 * in turns with the UI thread (worker.h, docs/architecture.md "The job
 * engine"). */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "tui/worker.h"

/* The share of a step's time the call runs in (pv_worker_step). */
#define PV_WORKER_SHARE 0.6

enum { PV_TURN_UI, PV_TURN_WORKER };

struct pv_worker {
    void (*fn)(void *ctx);
    void *ctx;
    pthread_t thread;
    bool threaded; /* it has a thread (else the first step runs fn) */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int turn;  /* PV_TURN_*: who runs (under lock) */
    bool done; /* fn has returned (under lock) */
    /* the step's budget: written by the UI thread before it hands the
     * turn over, read by the worker during its turn */
    double deadline;
    uint64_t units, from;
    bool counting; /* `from` is set (by the call's first report) */
};

static void pv_worker_wait_turn(pv_worker *w, int turn)
{
    while (w->turn != turn)
        pthread_cond_wait(&w->cond, &w->lock);
}

static void *pv_worker_main(void *arg)
{
    pv_worker *w = arg;
    pthread_mutex_lock(&w->lock);
    pv_worker_wait_turn(w, PV_TURN_WORKER);
    pthread_mutex_unlock(&w->lock);
    w->fn(w->ctx);
    pthread_mutex_lock(&w->lock);
    w->done = true;
    w->turn = PV_TURN_UI;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

pv_worker *pv_worker_new(void (*fn)(void *ctx), void *ctx)
{
    pv_worker *w = pv_xcalloc(1, sizeof *w);
    w->fn = fn;
    w->ctx = ctx;
    w->turn = PV_TURN_UI;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    /* signals go to the UI thread (its handler only sets a flag; a write
     * of the call is not interrupted) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    w->threaded = pthread_create(&w->thread, NULL, pv_worker_main, w) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return w;
}

bool pv_worker_step(pv_worker *w, const pv_budget *b)
{
    if (!w->threaded) {
        if (!w->done)
            w->fn(w->ctx);
        w->done = true;
        return true;
    }
    pthread_mutex_lock(&w->lock);
    if (w->done) {
        pthread_mutex_unlock(&w->lock);
        return true;
    }
    /* The call hands the turn back only at its next progress report
     * after the deadline, and the hand-back wakes this thread: it gets
     * 60 % of the step's time, so the frame still comes within the
     * step's budget (bench_long_calls: the longest gap between frames). */
    double now = b && b->deadline > 0 ? pv_clock_now() : 0;
    w->deadline = b ? (b->deadline > now ? now + (b->deadline - now) * PV_WORKER_SHARE : b->deadline) : 0;
    w->units = b && b->deadline <= 0 ? b->units : UINT64_MAX;
    w->turn = PV_TURN_WORKER;
    pthread_cond_broadcast(&w->cond);
    pv_worker_wait_turn(w, PV_TURN_UI);
    bool done = w->done;
    pthread_mutex_unlock(&w->lock);
    if (done) {
        pthread_join(w->thread, NULL);
        w->threaded = false; /* joined */
    }
    return done;
}

void pv_worker_yield(pv_worker *w, uint64_t done)
{
    if (!w || !w->threaded)
        return;
    if (!w->counting) {
        w->counting = true;
        w->from = done;
    }
    bool spent = w->deadline > 0 ? pv_clock_now() >= w->deadline
                                 : w->units != UINT64_MAX && done - w->from >= w->units;
    if (!spent)
        return;
    pthread_mutex_lock(&w->lock);
    w->turn = PV_TURN_UI;
    pthread_cond_broadcast(&w->cond);
    pv_worker_wait_turn(w, PV_TURN_WORKER);
    pthread_mutex_unlock(&w->lock);
    w->from = done; /* the next step counts from here */
}

void pv_worker_free(pv_worker *w)
{
    if (!w)
        return;
    while (!pv_worker_step(w, NULL)) /* to its end: no budget */
        ;
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->cond);
    free(w);
}
