/*
 * timeline_worker.c - the big arrays of the timeline index and the helper
 * thread that maps their pages ahead of the pass.
 */
#include "formats/winidea/timeline_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- big arrays (one place to change how they are allocated; huge pages
 * were tried and made the pass slower when memory is fragmented) */

void *tl_big_alloc(size_t bytes)
{
    return pv_xmalloc(bytes ? bytes : 1);
}

void *tl_big_realloc(void *ptr, size_t old_bytes, size_t bytes)
{
    (void)old_bytes;
    return pv_xrealloc(ptr, bytes ? bytes : 1);
}

/* The per-event arrays from event i on (at most 65536 events) are about to
 * be written in full: map their pages in one call each rather than one
 * page fault per 4 KB (docs/winidea-input.md, Speed: with the event array,
 * faults were 20% of a Text1 load); the contents are unchanged. */
void tl_prefault_events(pv_timeline_index *ix, size_t i)
{
    size_t k = ix->event_count - i < 65536 ? ix->event_count - i : 65536;
    size_t aw = ix->area_wide ? 4 : 2, cw = ix->context_wide ? 2 : 1, dw = ix->depth_wide ? 2 : 1;
    pv_prefault((char *)ix->event_area + i * aw, k * aw);
    pv_prefault((char *)ix->event_context + i * cw, k * cw);
    pv_prefault((char *)ix->event_depth + i * dw, k * dw);
}

/* The same for the call arrays from call c on (at most 65536 calls, within
 * the capacity): each new call writes all five. */
void tl_prefault_calls(pv_timeline_index *ix, size_t c, size_t cap)
{
    size_t k = cap - c < 65536 ? cap - c : 65536;
    pv_prefault(ix->call_entry + c, k * sizeof *ix->call_entry);
    pv_prefault(ix->call_exit + c, k * sizeof *ix->call_exit);
    pv_prefault(ix->call_parent + c, k * sizeof *ix->call_parent);
    if (ix->call_gross)
        pv_prefault(ix->call_gross + c, k * sizeof *ix->call_gross);
}

/* ---- the helper thread of a long pass (docs/winidea-model.md "Speed")
 *
 * Fresh memory costs a page fault and the kernel's zero-filling of each
 * 4 KB page when it is first written, and the mapped records a fault per
 * few pages when first read: about a quarter of the pass's time on one
 * core.  While the pass runs, a second thread maps those pages ahead of
 * it (MADV_POPULATE_WRITE / _READ, which never change what a page holds):
 * the per-event columns and the records from the start to the end, the
 * call columns up to 1 M calls beyond the pass.  It writes no byte the pass
 * reads, so the index is the same with it or without it; the pass stops it
 * (and goes on alone) before it moves any array it touches. */

static void *tl_worker_run(void *arg)
{
    tl_worker *w = arg;
    size_t ev = 0, calls = 0;
    while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
        bool did = false;
        if (ev < w->n) {
            size_t k = w->n - ev < TL_WORKER_CHUNK ? w->n - ev : TL_WORKER_CHUNK;
            for (size_t c = 0; c < 3; c++)
                pv_prefault(w->col[c] + ev * w->col_width[c], k * w->col_width[c]);
            if (w->records)
                pv_prefault_read(w->records + ev * PV_WI_RECORD_SIZE, k * PV_WI_RECORD_SIZE);
            ev += k;
            did = true;
        }
        size_t want = atomic_load_explicit(&w->calls, memory_order_relaxed) + TL_WORKER_CALLS_AHEAD;
        if (want > w->call_cap)
            want = w->call_cap;
        if (calls < want) {
            size_t k = want - calls < TL_WORKER_CHUNK ? want - calls : TL_WORKER_CHUNK;
            for (size_t c = 0; c < w->call_cols; c++)
                pv_prefault(w->call_col[c] + calls * w->call_width[c], k * w->call_width[c]);
            calls += k;
            did = true;
        }
        if (!did) {
            if (ev >= w->n && calls >= w->call_cap)
                break;
            struct timespec ts = {0, 500000};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

/* How many threads this pass of `events` events may use: one when the
 * options or the test option index-threads=1 say so; two from
 * TL_WORKER_MIN_EVENTS events on, or for any pass with index-threads=2
 * (the tests compare the two). */
bool tl_threads_allowed(const tl_pass *p, size_t events)
{
    int64_t threads = pv_test_get(&p->opt.test, PV_TEST_INDEX_THREADS, 0);
    if (p->opt.single_thread || threads == 1)
        return false;
    return events >= TL_WORKER_MIN_EVENTS || threads == 2;
}

void tl_worker_start(tl_pass *p, size_t events)
{
    pv_timeline_index *ix = p->ix;
    if (p->worker || p->worker_ran || !tl_threads_allowed(p, events))
        return;
    p->worker_ran = true;
    tl_worker *w = pv_xcalloc(1, sizeof *w);
    w->col[0] = ix->event_area;
    w->col_width[0] = ix->area_wide ? 4 : 2;
    w->col[1] = ix->event_context;
    w->col_width[1] = ix->context_wide ? 2 : 1;
    w->col[2] = ix->event_depth;
    w->col_width[2] = ix->depth_wide ? 2 : 1;
    w->n = ix->event_count;
    w->call_col[0] = (char *)ix->call_entry;
    w->call_col[1] = (char *)ix->call_exit;
    w->call_col[2] = (char *)ix->call_parent;
    w->call_width[0] = w->call_width[1] = w->call_width[2] = 4;
    w->call_cols = 3;
    if (ix->call_gross) {
        w->call_col[3] = (char *)ix->call_gross;
        w->call_width[3] = 8;
        w->call_cols = 4;
    }
    w->call_cap = p->call_cap;
    /* the records of a mapped BIN (those built from text are in memory already) */
    w->records = ix->tl->owned ? NULL : ix->tl->records;
    atomic_init(&w->stop, false);
    atomic_init(&w->calls, ix->call_count);
    if (pthread_create(&w->thread, NULL, tl_worker_run, w) != 0) {
        free(w);
        return;
    }
    p->worker = w;
}

void tl_worker_stop(tl_pass *p)
{
    tl_worker *w = p->worker;
    if (!w)
        return;
    atomic_store(&w->stop, true);
    pthread_join(w->thread, NULL);
    free(w);
    p->worker = NULL;
}
