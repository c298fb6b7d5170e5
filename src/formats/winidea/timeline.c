/*
 * timeline.c - the winIDEA timeline index (docs/formats.md §3): one pass over the
 * event records that resolves each event's area and context, runs one call
 * stack per context, gives every event its depth, reconstructs the function
 * calls and feeds the statistics (statistics.c).
 *
 * The call stack of a context is kept as two arrays so that no frame ever
 * moves: explicit frames (pushed by E) grow upwards, implicit frames (areas
 * whose first event in the context was R, S or X, docs/formats.md §3) are listed
 * in discovery order, the first discovered being the innermost.  Live
 * implicit frames are implicit[lo .. n); implicit frames are popped
 * innermost first, so lo only grows.  A frame is named by a position code:
 * explicit i -> i, implicit j -> -(j + 1).
 */
#include "formats/winidea/timeline.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "formats/winidea/statistics.h"

#define TL_TOP_LEVEL UINT32_MAX /* call parent still to resolve (below: implicit or none) */
#define TL_AREA_CACHE 1024      /* entries of the area cache: small enough for L1 */

typedef struct tl_frame {
    uint32_t area;
    uint32_t acc;
    int32_t prev_same; /* position code of the area's next frame below, or NOT_ON_STACK */
    uint32_t call;     /* call index (function areas), TL_TOP_LEVEL otherwise */
    uint32_t fn_call;  /* the innermost function call at or below this frame */
    uint32_t line;     /* line activation (line areas), TL_TOP_LEVEL otherwise */
    pv_stat_frame sf;
} tl_frame;

typedef struct tl_stack {
    tl_frame *ex;
    size_t ex_n, ex_cap;
    tl_frame *im;
    size_t im_lo, im_n, im_cap;
    uint32_t *im_calls; /* implicit function calls, in discovery order */
    size_t im_call_n, im_call_cap;
} tl_stack;

/* The context-area detection from written values (tl_find_context_area):
 * per candidate state key, whether every value written is a CONTEXTS handle
 * and how many distinct ones.  Decided over the first 1 M events for the
 * first screen, gathered on by the index pass and confirmed at its end. */
typedef struct tl_ctx_cand {
    uint32_t key;
    bool all;
    size_t distinct;
} tl_ctx_cand;

typedef struct tl_worker tl_worker;

typedef struct tl_ctx_detect {
    bool active; /* the index pass gathers from `from` on, finish confirms */
    size_t from;
    size_t need;     /* distinct contexts a candidate must cover */
    uint32_t early;  /* the state key decided over the first events, 0 = none */
    pv_hashmap keys; /* state key -> candidate */
    pv_hashmap seen; /* candidate << 32 | context -> 1 */
    tl_ctx_cand *cands;
    size_t cand_n, cand_cap;
} tl_ctx_detect;

struct pv_tl_pass {
    pv_timeline_index *ix;
    const pv_wi_data *d;
    pv_wi_data *settle;        /* = d: finish may settle its BIN version */
    char *context_area_option; /* a copy, for indexing again after settling */
    pv_wi_version_bits bits;   /* gathered over every record (docs/formats.md §2) */
    tl_ctx_detect cd;
    size_t diag_entries, diag_warnings, diag_errors; /* diag at begin */
    pv_tl_options opt;      /* a copy: the pass may outlive the caller's options */
    const pv_tl_options *o; /* = &opt */
    pv_diag *diag;
    const char *file;
    pv_stats st;
    pv_hashmap state_keys;  /* state keys that the mapping lists states for */
    pv_hashmap context_map; /* CONTEXTS handle -> context */
    tl_stack *stacks;
    size_t stack_cap;
    uint16_t core_context[256];
    uint16_t unknown_context;
    uint32_t context_key; /* state key of the context area, 0 = none */
    bool area_switched;   /* the context area has switched the running context */
    size_t call_cap;
    size_t *context_calls; /* per context: the calls made (FC_COUNT) */
    size_t context_calls_cap;
    size_t line_cap;
    bool store_gross; /* ix->call_gross is kept (the gross cannot be read from the records) */
    /* calls whose net differs from their gross: (call, net), in the order
     * they ended; finishing places them (FC_NET*) */
    uint32_t *net_call;
    int64_t *net_val;
    size_t net_n, net_cap;
    /* direct-mapped cache in front of area_map: a nested call pattern
     * alternates handles, so "the last handle" alone rarely hits */
    uint64_t cache_key[TL_AREA_CACHE];
    uint32_t cache_area[TL_AREA_CACHE];
    size_t i;     /* the event being processed */
    int64_t time; /* its (effective) time */
    int64_t prev; /* the previous event's effective time */
    /* Finishing in steps (pv_timeline_index_finish_step): the end of the
     * pass is done (ended), then tl_finish_calls_step goes through its
     * phases, fc_k being the next call of the current one. */
    bool ended;
    int fc_phase;
    size_t fc_k, fc_c, fc_inner;
    size_t fc_array; /* FC_PERMUTE / FC_COPY: the array (tl_call_arrays) */
    bool fc_in_context;
    size_t *fc_start, *fc_fill;
    uint32_t *fc_pos;
    int64_t *fc_scratch;
    /* Finishing in steps gives big blocks back a few MB per step (their
     * pages first, then free: docs/winidea-model.md "Incremental
     * indexing"); a finish in one piece frees them at once. */
    bool fc_stepped;
    pv_trash trash;
    tl_worker *worker; /* the helper thread of a long pass, or NULL */
    bool worker_ran;   /* it has been started once (never again) */
    size_t event_room; /* room of the per-event columns (pv_tl_options.event_capacity) */
    /* The time split (docs/winidea-model.md "Speed: the timeline in two
     * halves").  In the first half's pass: */
    bool split_ok;            /* this advance is a whole finish: it may split */
    bool split_ran;           /* tried once (never again) */
    struct tl_split *split;   /* the second half, running beside, or NULL */
    struct tl_split *depths;  /* a stitched second half whose depths a thread fixes */
    /* After a stitch the calls [gap_a, call_count) lie at gap_at on in the
     * arrays (no copy: the finish's permutation reads them there, tl_phys);
     * gap_a is SIZE_MAX otherwise. */
    size_t gap_a, gap_at;
    size_t *first_calls; /* after a stitch: per context, the calls of the first half */
    /* In the second half's pass (spec): what it could not know, and why
     * its reading may be wrong (spec_fail: it stops, the first half's pass
     * indexes its events again). */
    bool spec;
    bool spec_fail;
    struct tl_split *spec_split;
    struct tl_under *under; /* events on frames of the first half, in order */
    size_t under_n, under_cap;
    size_t *pops;           /* per context: frames of the first half its X ended */
    uint8_t *slots;         /* per context: the phantom slots in use (a bit each) */
    size_t pops_cap;
    struct tl_phantom *ph;  /* per accumulator (tl_spec_under) */
    size_t spec_acc_cap;
    size_t spec_max_depth;  /* the deepest local stack at an E */
};
typedef struct pv_tl_pass tl_pass;

/* An event of the second half on a frame that the first half opened: the
 * first S or R on such a frame, or its X. */
typedef struct tl_under {
    uint32_t event;
    uint32_t area;
    uint32_t acc;   /* the second half's accumulator */
    uint16_t context;
    uint8_t kind;
    uint8_t slot;   /* an S or R: the phantom's slot (TL_NO_SLOT: none) */
    bool known;     /* an X on a frame whose S and R the second half followed: */
    bool active;    /* whether it is active, */
    int64_t active_run; /* since when (running clock), */
    int64_t net;    /* and its net time since its first S or R */
    int64_t time;   /* effective */
    int64_t run;    /* the second half's running clock of the context then */
    size_t depth;   /* the stitch's: the depth of the frame */
} tl_under;

/* Per accumulator of the second half: its first E, its last event on a
 * frame of the first half, and that frame as far as its S and R after the
 * first tell (the "phantom": its first S or R decides whether it is active,
 * which the first half knows; each later one the second half follows). */
typedef struct tl_phantom {
    uint32_t first_e, last_under; /* event, or TL_NONE */
    bool known, active, used;     /* used: an S or R followed here */
    uint8_t slot;                 /* while known: its slot in the context, or TL_NO_SLOT */
    int64_t active_run, net;
} tl_phantom;

/* The depth written for an S or R followed on a phantom frame: the stitch
 * writes the frame's.  A phantom with a slot (up to TL_SLOTS in a context at
 * a time) is written TL_SLOT_DEPTH + slot, so that the stitch's depths are
 * one table lookup per event (tl_split_depths); others TL_PHANTOM_DEPTH (a
 * narrow depth is at most 0xFE), looked up.  The second half's own depths
 * stay under TL_SLOT_DEPTH (checked). */
#define TL_PHANTOM_DEPTH 0xFFu
#define TL_SLOT_DEPTH 0xF8u
#define TL_SLOTS 7u
#define TL_NO_SLOT 0xFFu

#define TL_NONE UINT32_MAX
/* A call parent (or fn_call) of the second half that is the frame of the
 * first half under its own bottom: TL_BELOW + the number of the first
 * half's frames of that context ended before. */
#define TL_BELOW 0x80000000u

static void tl_split_cancel(tl_pass *p);
static bool tl_split_fail(tl_pass *p);
static void tl_split_depths_wait(tl_pass *p);

const char *pv_tl_type_name(unsigned type)
{
    static const char *const names[] = {"function", "line", "variable",
                                        "state",    "aux",  "aux-state"};
    return type < PV_ARRAY_LEN(names) ? names[type] : "unknown";
}

static bool tl_is_state_type(unsigned type)
{
    return type == PV_WI_STATE || type == PV_WI_AUX_STATE;
}

/* Variables and their states share a state key: the state handle
 * (docs/formats.md §1, TimelineStates: 20000000 writes select 30000000 states). */
static uint32_t tl_state_key(uint32_t handle)
{
    unsigned type = pv_wi_handle_type(handle);
    if (type == PV_WI_VARIABLE || type == PV_WI_STATE)
        return (handle & 0x0FFFFFFFu) | 0x30000000u;
    if (type == PV_WI_AUX || type == PV_WI_AUX_STATE)
        return (handle & 0x0FFFFFFFu) | 0x50000000u;
    return 0;
}

static uint64_t tl_area_key(uint32_t handle, uint64_t value)
{
    if (tl_is_state_type(pv_wi_handle_type(handle)))
        return handle | (value & 0xFFFFFFFFu) << 32;
    return handle;
}

static void tl_warn(tl_pass *p, const char *fmt, ...) PV_PRINTF(2, 3);
static void tl_warn(tl_pass *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pv_warn(p->diag, "%s: timeline event %zu (time %" PRId64 "): %s", p->file, p->i, p->time, msg);
    p->ix->warnings++;
}

/* ---- big arrays (one place to change how they are allocated; huge pages
 * were tried and made the pass slower when memory is fragmented) */

static void *tl_big_alloc(size_t bytes)
{
    return pv_xmalloc(bytes ? bytes : 1);
}

static void *tl_big_realloc(void *ptr, size_t old_bytes, size_t bytes)
{
    (void)old_bytes;
    return pv_xrealloc(ptr, bytes ? bytes : 1);
}

/* The per-event arrays from event i on (at most 65536 events) are about to
 * be written in full: map their pages in one call each rather than one
 * page fault per 4 KB (docs/winidea-input.md, Speed: with the event array,
 * faults were 20% of a Text1 load); the contents are unchanged. */
static void tl_prefault_events(pv_timeline_index *ix, size_t i)
{
    size_t k = ix->event_count - i < 65536 ? ix->event_count - i : 65536;
    size_t aw = ix->area_wide ? 4 : 2, cw = ix->context_wide ? 2 : 1, dw = ix->depth_wide ? 2 : 1;
    pv_prefault((char *)ix->event_area + i * aw, k * aw);
    pv_prefault((char *)ix->event_context + i * cw, k * cw);
    pv_prefault((char *)ix->event_depth + i * dw, k * dw);
}

/* The same for the call arrays from call c on (at most 65536 calls, within
 * the capacity): each new call writes all five. */
static void tl_prefault_calls(pv_timeline_index *ix, size_t c, size_t cap)
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

#define TL_WORKER_MIN_EVENTS (1u << 20) /* a pass over fewer events runs alone */
#define TL_WORKER_CHUNK 65536u          /* events or calls per populate call */
#define TL_WORKER_CALLS_AHEAD (1u << 20)

struct tl_worker {
    pthread_t thread;
    atomic_bool stop;
    atomic_size_t calls; /* calls made by the pass, published every 64 K */
    /* what it touches, fixed while it runs */
    char *col[3];
    size_t col_width[3];
    size_t n;
    char *call_col[4];
    size_t call_width[4], call_cols, call_cap;
    const unsigned char *records;
};

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
 * options or PROFVIEW_INDEX_THREADS=1 say so; two from
 * TL_WORKER_MIN_EVENTS events on, or for any pass with
 * PROFVIEW_INDEX_THREADS=2 (the tests compare the two). */
static bool tl_threads_allowed(const tl_pass *p, size_t events)
{
    if (p->opt.single_thread)
        return false;
    const char *env = getenv("PROFVIEW_INDEX_THREADS");
    if (env && strcmp(env, "1") == 0)
        return false;
    return events >= TL_WORKER_MIN_EVENTS || (env && strcmp(env, "2") == 0);
}

static void tl_worker_start(tl_pass *p, size_t events)
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

static void tl_worker_stop(tl_pass *p)
{
    tl_worker *w = p->worker;
    if (!w)
        return;
    atomic_store(&w->stop, true);
    pthread_join(w->thread, NULL);
    free(w);
    p->worker = NULL;
}

/* ---- the per-event columns, narrow until a value needs more */

/* Events [0, done) have their columns written. */
static size_t tl_events_written(const tl_pass *p)
{
    return p->i > p->ix->indexed ? p->i : p->ix->indexed;
}

/* Copies events [0, done) of a column of `from`-byte values into a new one of
 * `to`-byte values; `narrow_none` (from == 1: 0xFF) becomes `wide_none`. */
static void *tl_widen(void *old, size_t n, size_t done, unsigned from, unsigned to)
{
    void *neu = tl_big_alloc((n ? n : 1) * to);
    for (size_t i = 0; i < done; i++) {
        uint32_t v = from == 1 ? ((const uint8_t *)old)[i] : ((const uint16_t *)old)[i];
        if (to == 2)
            ((uint16_t *)neu)[i] = (uint16_t)v;
        else
            ((uint32_t *)neu)[i] = v;
    }
    free(old);
    return neu;
}

static void tl_widen_areas(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    if (p->spec && tl_split_fail(p))
        return;
    tl_split_cancel(p); /* the second half writes into the columns */
    tl_worker_stop(p);
    ix->area_wide = true;
    if (!ix->event_area)
        return; /* before the columns exist: begin makes them wide */
    ix->event_area = tl_widen(ix->event_area, p->event_room, tl_events_written(p), 2, 4);
}

static void tl_widen_contexts(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    if (p->spec && tl_split_fail(p))
        return;
    tl_split_cancel(p); /* the second half writes into the columns */
    tl_worker_stop(p);
    ix->context_wide = true;
    if (!ix->event_context)
        return;
    size_t done = tl_events_written(p);
    uint8_t *old = ix->event_context;
    uint16_t *neu = tl_big_alloc((p->event_room ? p->event_room : 1) * sizeof *neu);
    for (size_t i = 0; i < done; i++)
        neu[i] = old[i] == 0xFF ? PV_TL_NO_CONTEXT : old[i];
    free(old);
    ix->event_context = neu;
}

static void tl_widen_depths(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    if (p->spec && tl_split_fail(p))
        return;
    tl_split_cancel(p); /* the second half writes into the columns */
    tl_worker_stop(p);
    ix->depth_wide = true;
    if (!ix->event_depth)
        return;
    ix->event_depth = tl_widen(ix->event_depth, p->event_room, tl_events_written(p), 1, 2);
}

/* docs/winidea-model.md "Memory": the gross time of a call from its records
 * when every context runs all the time (run(c, t) is then the clipped time)
 * and no time decreases (each event's effective time is its own). */
static int64_t tl_derived_gross(const pv_timeline_index *ix, size_t k, int64_t end)
{
    pv_wi_event e;
    int64_t t0 = ix->time_first, t1 = end;
    if (!(ix->call_entry[k] & PV_TL_IMPLICIT_CALL)) {
        pv_timeline_event(ix, ix->call_entry[k], &e);
        t0 = e.time;
    }
    if (ix->call_exit[k] != PV_TL_OPEN) {
        pv_timeline_event(ix, ix->call_exit[k], &e);
        t1 = e.time;
    }
    int64_t lo = ix->clip_lo, hi = ix->clip_hi;
    t0 = t0 < lo ? lo : t0 > hi ? hi : t0;
    t1 = t1 < lo ? lo : t1 > hi ? hi : t1;
    return t1 - t0;
}

int64_t pv_timeline_call_gross(const pv_timeline_index *ix, size_t k)
{
    return ix->call_gross ? ix->call_gross[k] : tl_derived_gross(ix, k, ix->time_last);
}

/* The first decreasing time: from now on the gross times are kept.  The
 * calls ended so far get theirs from the records (their events came before
 * any decrease); the open ones get theirs when they end. */
static void tl_keep_gross(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    if (p->store_gross)
        return;
    if (p->spec && tl_split_fail(p))
        return;
    tl_split_cancel(p); /* the second half keeps no gross times */
    tl_worker_stop(p);
    p->store_gross = true;
    ix->call_gross = tl_big_alloc((p->call_cap ? p->call_cap : 1) * sizeof *ix->call_gross);
    for (size_t k = 0; k < ix->call_count; k++)
        ix->call_gross[k] = ix->call_exit[k] == PV_TL_OPEN ? 0 : tl_derived_gross(ix, k, 0);
}

/* ---- areas */

static uint32_t tl_add_area(tl_pass *p, const pv_tl_area *a)
{
    pv_timeline_index *ix = p->ix;
    if (ix->area_count >= UINT16_MAX && !ix->area_wide)
        tl_widen_areas(p);
    ix->areas = pv_xgrow(ix->areas, &ix->area_cap, ix->area_count + 1, sizeof *ix->areas);
    ix->areas[ix->area_count] = *a;
    return (uint32_t)ix->area_count++;
}

uint32_t pv_timeline_find_area(const pv_timeline_index *ix, uint32_t handle, uint64_t value)
{
    uint32_t area;
    return pv_hashmap_get(&ix->area_map, tl_area_key(handle, value), &area) ? area : PV_WI_NONE;
}

/* Copies the mapping into the index and names every area for display: its
 * own name, else (a state) its variable's name, else its hex handle. */
static void tl_init_areas(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    const pv_wi_data *d = p->d;
    uint32_t last_function = PV_WI_NONE;
    for (size_t i = 0; i < d->area_count; i++) {
        const pv_wi_area *src = &d->areas[i];
        pv_tl_area a = {0};
        a.handle = src->handle;
        a.type = (uint8_t)pv_wi_handle_type(src->handle);
        a.has_value = src->has_value;
        a.value = src->value;
        a.data_area = (uint32_t)i;
        a.parent = src->parent < d->area_count ? src->parent : PV_WI_NONE;
        if (a.type == PV_WI_FUNCTION)
            last_function = (uint32_t)i;
        else if (a.type == PV_WI_LINE && a.parent == PV_WI_NONE)
            a.parent = last_function; /* docs/formats.md §1: nearest preceding function */
        a.state_key = tl_state_key(src->handle);
        a.value_f64 = !tl_is_state_type(a.type) &&
                      strcasecmp(pv_strpool_get(&d->pool, src->value_type), "F64") == 0;
        tl_add_area(p, &a);
        uint64_t key = tl_area_key(a.handle, a.value);
        uint32_t existing;
        if (!pv_hashmap_get(&p->ix->area_map, key, &existing))
            pv_hashmap_put(&p->ix->area_map, key, (uint32_t)i);
        if (tl_is_state_type(a.type))
            pv_hashmap_put(&p->state_keys, a.state_key, 1);
    }
    for (size_t i = 0; i < ix->area_count; i++) {
        uint32_t one;
        pv_tl_area *a = &ix->areas[i];
        a->has_states = (a->type == PV_WI_VARIABLE || a->type == PV_WI_AUX) &&
                        pv_hashmap_get(&p->state_keys, a->state_key, &one);
    }
    /* states without a parent: their variable, when the mapping has it */
    for (size_t i = 0; i < ix->area_count; i++) {
        pv_tl_area *a = &ix->areas[i];
        uint32_t var;
        if (tl_is_state_type(a->type) && a->parent == PV_WI_NONE &&
            pv_hashmap_get(&p->ix->area_map, a->state_key - 0x10000000u, &var))
            a->parent = var;
    }
    for (size_t i = 0; i < ix->area_count; i++) {
        pv_tl_area *a = &ix->areas[i];
        const char *name = pv_strpool_get(&d->pool, d->areas[i].name);
        if (!*name && a->parent != PV_WI_NONE && tl_is_state_type(a->type))
            name = pv_strpool_get(&d->pool, d->areas[a->parent].name);
        if (*name) {
            a->name = pv_strpool_add(&ix->pool, name, strlen(name));
        } else {
            char hex[16];
            int n = snprintf(hex, sizeof hex, "0x%08" PRIX32, a->handle);
            a->name = pv_strpool_add(&ix->pool, hex, (size_t)n);
        }
    }
}

/* The area of (handle, value); an unknown one gets an implicit entry named
 * by its hex handle, with its type from the top nibble. */
static uint32_t tl_lookup_area(tl_pass *p, uint32_t handle, uint64_t value)
{
    uint64_t key = tl_area_key(handle, value);
    size_t slot = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 54) & (TL_AREA_CACHE - 1);
    if (p->cache_key[slot] == key)
        return p->cache_area[slot];
    uint32_t area;
    if (pv_hashmap_get(&p->ix->area_map, key, &area)) {
        p->cache_key[slot] = key;
        p->cache_area[slot] = area;
        return area;
    }
    if (p->spec && tl_split_fail(p))
        return 0; /* an area the first half may add too: its pass decides */
    pv_tl_area a = {0};
    a.handle = handle;
    a.type = (uint8_t)pv_wi_handle_type(handle);
    a.implicit = true;
    a.data_area = PV_WI_NONE;
    a.parent = PV_WI_NONE;
    a.state_key = tl_state_key(handle);
    uint32_t one;
    a.has_states = (a.type == PV_WI_VARIABLE || a.type == PV_WI_AUX) && a.state_key &&
                   pv_hashmap_get(&p->state_keys, a.state_key, &one);
    if (tl_is_state_type(a.type)) {
        a.has_value = true;
        a.value = value & 0xFFFFFFFFu;
        uint32_t var;
        if (pv_hashmap_get(&p->ix->area_map, a.state_key - 0x10000000u, &var))
            a.parent = var;
    }
    if (a.parent != PV_WI_NONE) {
        a.name = p->ix->areas[a.parent].name;
    } else {
        char hex[16];
        int n = snprintf(hex, sizeof hex, "0x%08" PRIX32, handle);
        a.name = pv_strpool_add(&p->ix->pool, hex, (size_t)n);
    }
    area = tl_add_area(p, &a);
    pv_hashmap_put(&p->ix->area_map, key, area);
    return area;
}

/* ---- contexts */

static uint16_t tl_add_context(tl_pass *p, bool has_handle, uint64_t handle, const char *name)
{
    pv_timeline_index *ix = p->ix;
    if (p->spec && tl_split_fail(p))
        return 0; /* contexts are numbered in the order they appear */
    if (ix->context_count >= PV_TL_MAX_CONTEXTS)
        return (uint16_t)(ix->context_count - 1); /* saturate: never overflow u16 */
    if (ix->context_count >= 0xFF && !ix->context_wide)
        tl_widen_contexts(p); /* a u8 holds contexts 0..254, 0xFF is none */
    ix->contexts =
        pv_xgrow(ix->contexts, &ix->context_cap, ix->context_count + 1, sizeof *ix->contexts);
    pv_tl_context *c = &ix->contexts[ix->context_count];
    memset(c, 0, sizeof *c);
    c->has_handle = has_handle;
    c->handle = handle;
    c->name = pv_strpool_add(&ix->pool, name, strlen(name));
    pv_stats_set_context_count(&p->st, ix->context_count + 1);
    return (uint16_t)ix->context_count++;
}

static uint16_t tl_unknown_context(tl_pass *p)
{
    if (p->unknown_context == PV_TL_NO_CONTEXT)
        p->unknown_context = tl_add_context(p, false, 0, "Unknown");
    return p->unknown_context;
}

/* The context selected by a state value of the context area: the CONTEXTS
 * entry with that handle, or a new context named by the hex value. */
static uint16_t tl_context_of_value(tl_pass *p, uint64_t value)
{
    uint32_t c;
    if (pv_hashmap_get(&p->context_map, value, &c))
        return (uint16_t)c;
    if (p->spec && tl_split_fail(p))
        return 0;
    char hex[24];
    snprintf(hex, sizeof hex, "0x%" PRIX64, value);
    tl_warn(p, "context area value %s is not a CONTEXTS handle; new context", hex);
    uint16_t n = tl_add_context(p, true, value, hex);
    pv_hashmap_put(&p->context_map, value, n);
    return n;
}

static bool tl_all_contexts(const pv_hashmap *context_map, uint64_t value)
{
    uint32_t c;
    return pv_hashmap_get(context_map, value, &c);
}

/* One event for the written-values detection: a W on a variable/AUX or an
 * E on a state. */
static void tl_ctx_detect_event(tl_pass *p, const pv_wi_event *e)
{
    unsigned type = pv_wi_handle_type(e->handle);
    bool write = (type == PV_WI_VARIABLE || type == PV_WI_AUX) && e->kind == PV_WI_WRITE;
    bool state = tl_is_state_type(type) && e->kind == PV_WI_ENTRY;
    if (!write && !state)
        return;
    tl_ctx_detect *cd = &p->cd;
    uint32_t key = tl_state_key(e->handle), k;
    if (!pv_hashmap_get(&cd->keys, key, &k)) {
        cd->cands = pv_xgrow(cd->cands, &cd->cand_cap, cd->cand_n + 1, sizeof *cd->cands);
        cd->cands[cd->cand_n] = (tl_ctx_cand){key, true, 0};
        k = (uint32_t)cd->cand_n++;
        pv_hashmap_put(&cd->keys, key, k);
    }
    tl_ctx_cand *c = &cd->cands[k];
    if (!c->all)
        return;
    uint32_t ctx, one;
    /* only the CONTEXTS of the file: the pass adds a context for each value
     * of the context area that is not one (tl_context_of_value) */
    if (!pv_hashmap_get(&p->context_map, e->data, &ctx) || ctx >= p->d->context_count) {
        c->all = false;
        return;
    }
    uint64_t pair = (uint64_t)k << 32 | ctx;
    if (!pv_hashmap_get(&cd->seen, pair, &one)) {
        pv_hashmap_put(&cd->seen, pair, 1);
        c->distinct++;
    }
}

/* The candidate covering the most contexts (ties: the first written), or 0. */
static uint32_t tl_ctx_detect_decide(const tl_ctx_detect *cd)
{
    uint32_t best = 0;
    size_t best_cover = 0;
    for (size_t k = 0; k < cd->cand_n; k++)
        if (cd->cands[k].all && cd->cands[k].distinct >= cd->need &&
            cd->cands[k].distinct > best_cover) {
            best = cd->cands[k].key;
            best_cover = cd->cands[k].distinct;
        }
    return best;
}

static void tl_ctx_detect_free(tl_ctx_detect *cd)
{
    free(cd->cands);
    pv_hashmap_free(&cd->keys);
    pv_hashmap_free(&cd->seen);
    memset(cd, 0, sizeof *cd);
}

/* docs/formats.md §3 source (2): the context area.  Explicit (o->context_area,
 * a name or a hex handle), else detected: a state variable whose state
 * values in the mapping all are CONTEXTS handles, else a variable whose
 * values written in the timeline all are CONTEXTS handles.  Decision: a
 * candidate must also cover at least half of the CONTEXTS handles (and two
 * of them when there are several), so that an ordinary flag with states 0
 * and 1 is not taken for the running task because CONTEXTS happens to list
 * handles 0x0 and 0x1 (the seed's own example); the candidate covering the
 * most contexts wins, ties go to the first.  Returns the state key, or 0. */
static uint32_t tl_find_context_area(tl_pass *p)
{
    const pv_timeline_index *ix = p->ix;
    const char *want = p->o ? p->o->context_area : NULL;
    if (want && *want) {
        for (size_t a = 0; a < ix->area_count; a++)
            if (ix->areas[a].state_key && ix->areas[a].data_area != PV_WI_NONE &&
                strcmp(pv_strpool_get(&p->d->pool, p->d->areas[a].name), want) == 0)
                return ix->areas[a].state_key;
        uint64_t h;
        if (pv_parse_hex64(want, strlen(want), &h) && h <= UINT32_MAX && tl_state_key((uint32_t)h))
            return tl_state_key((uint32_t)h);
        pv_warn(p->diag,
                "%s: context area '%s' is neither a data area name nor a hex handle; "
                "contexts are detected automatically",
                p->file, want);
        p->ix->warnings++;
    }
    if (p->d->context_count == 0)
        return 0;
    size_t need = (p->d->context_count + 1) / 2;
    if (need < 2 && p->d->context_count > 1)
        need = 2;
    uint32_t best = 0;
    size_t best_cover = 0;
    {
        /* per state key of the mapping: do all its states name contexts? */
        pv_hashmap slots;
        pv_hashmap_init(&slots);
        uint32_t *keys = pv_xcalloc(ix->area_count + 1, sizeof *keys);
        size_t *cover = pv_xcalloc(ix->area_count + 1, sizeof *cover);
        bool *all = pv_xcalloc(ix->area_count + 1, sizeof *all);
        size_t nkeys = 0;
        for (size_t a = 0; a < ix->area_count; a++) {
            const pv_tl_area *t = &ix->areas[a];
            if (!tl_is_state_type(t->type))
                continue;
            uint32_t k;
            if (!pv_hashmap_get(&slots, t->state_key, &k)) {
                k = (uint32_t)nkeys++;
                keys[k] = t->state_key;
                all[k] = true;
                pv_hashmap_put(&slots, t->state_key, k);
            }
            if (!t->has_value || !tl_all_contexts(&p->context_map, t->value))
                all[k] = false;
            else
                cover[k]++;
        }
        for (size_t k = 0; k < nkeys; k++)
            if (all[k] && cover[k] >= need && cover[k] > best_cover) {
                best = keys[k];
                best_cover = cover[k];
            }
        free(keys);
        free(cover);
        free(all);
        pv_hashmap_free(&slots);
    }
    if (best)
        return best;
    /* From the written values: over the first 1 M events, so that the first
     * screen does not wait for a pass over the whole timeline; the index
     * pass gathers the rest and pv_timeline_index_finish confirms. */
    tl_ctx_detect *cd = &p->cd;
    cd->need = need;
    const pv_wi_timeline *tl = &p->d->timeline;
    size_t upto = tl->count < PV_WI_BIN_EARLY_RECORDS ? tl->count : PV_WI_BIN_EARLY_RECORDS;
    for (size_t i = 0; i < upto; i++) {
        pv_wi_event e;
        pv_wi_event_at(tl, i, &e);
        tl_ctx_detect_event(p, &e);
    }
    best = tl_ctx_detect_decide(cd);
    if (upto < tl->count) {
        cd->active = true;
        cd->from = upto;
        cd->early = best;
    }
    return best;
}

/* ---- stacks */

static tl_stack *tl_stack_of(tl_pass *p, uint16_t c)
{
    if (c >= p->stack_cap) {
        size_t old = p->stack_cap;
        p->stacks = pv_xgrow(p->stacks, &p->stack_cap, (size_t)c + 1, sizeof *p->stacks);
        memset(p->stacks + old, 0, (p->stack_cap - old) * sizeof *p->stacks);
    }
    return &p->stacks[c];
}

static tl_frame *tl_frame_at(tl_stack *s, int32_t code)
{
    return code >= 0 ? &s->ex[code] : &s->im[-(code + 1)];
}

/* docs/formats.md §3: the number of frames below, implicit frames known by now included. */
static size_t tl_depth_of(const tl_stack *s, int32_t code)
{
    if (code >= 0)
        return (s->im_n - s->im_lo) + (size_t)code;
    return s->im_n - 1 - (size_t)(-(code + 1));
}

static size_t tl_stack_size(const tl_stack *s)
{
    return (s->im_n - s->im_lo) + s->ex_n;
}

static uint16_t tl_depth16(size_t depth)
{
    return depth > UINT16_MAX ? UINT16_MAX : (uint16_t)depth;
}

static void tl_grow_calls(tl_pass *p, size_t want)
{
    pv_timeline_index *ix = p->ix;
    if (want <= p->call_cap)
        return;
    if (p->split) {
        tl_split_cancel(p); /* the second half's calls lie beyond call_cap */
        if (want <= p->call_cap)
            return;
    }
    if (p->spec && tl_split_fail(p)) {
        ix->call_count = 0; /* stops at this event: stay inside the arrays */
        return;
    }
    size_t cap = p->call_cap ? p->call_cap : 1024;
    while (cap < want)
        cap *= 2;
    tl_worker_stop(p); /* the arrays may move */
    size_t old = p->call_cap;
    ix->call_entry = tl_big_realloc(ix->call_entry, old * 4, cap * 4);
    ix->call_exit = tl_big_realloc(ix->call_exit, old * 4, cap * 4);
    ix->call_parent = tl_big_realloc(ix->call_parent, old * 4, cap * 4);
    if (p->store_gross)
        ix->call_gross = tl_big_realloc(ix->call_gross, old * 8, cap * 8);
    p->call_cap = cap;
}

static uint32_t tl_new_call(tl_pass *p, uint32_t entry, uint32_t parent, uint16_t context)
{
    pv_timeline_index *ix = p->ix;
    if (context >= p->context_calls_cap) {
        size_t old = p->context_calls_cap;
        p->context_calls = pv_xgrow(p->context_calls, &p->context_calls_cap, (size_t)context + 1,
                                    sizeof(size_t));
        memset(p->context_calls + old, 0, (p->context_calls_cap - old) * sizeof(size_t));
    }
    p->context_calls[context]++;
    if (ix->call_count >= p->call_cap)
        tl_grow_calls(p, ix->call_count + 1);
    size_t c = ix->call_count++;
    if ((c & 0xFFFF) == 0) {
        if (p->worker)
            atomic_store_explicit(&p->worker->calls, c, memory_order_relaxed);
        else
            tl_prefault_calls(ix, c, p->call_cap);
    }
    ix->call_entry[c] = entry;
    ix->call_exit[c] = PV_TL_OPEN;
    ix->call_parent[c] = parent;
    if (ix->call_gross)
        ix->call_gross[c] = 0;
    return (uint32_t)c;
}

/* A line activation beginning at event `entry` (docs/flame.md). */
static uint32_t tl_new_line(tl_pass *p, uint32_t entry)
{
    pv_timeline_index *ix = p->ix;
    if (ix->line_count >= p->line_cap && p->split)
        tl_split_cancel(p);
    if (ix->line_count >= p->line_cap && p->spec && tl_split_fail(p))
        ix->line_count = 0;
    if (ix->line_count >= p->line_cap) {
        size_t cap = p->line_cap ? p->line_cap * 2 : 1024;
        ix->line_entry = pv_xrealloc(ix->line_entry, cap * sizeof *ix->line_entry);
        ix->line_net = pv_xrealloc(ix->line_net, cap * sizeof *ix->line_net);
        p->line_cap = cap;
    }
    size_t k = ix->line_count++;
    ix->line_entry[k] = entry;
    ix->line_net[k] = 0;
    return (uint32_t)k;
}

/* Ends frame `f` at the current event. */
static void tl_end_frame(tl_pass *p, tl_frame *f, bool matched, bool at_end)
{
    int64_t net, gross;
    pv_stats_exit(&p->st, f->acc, &f->sf, p->time, matched, &net, &gross);
    p->st.accs[f->acc].top = f->prev_same;
    if (f->line != TL_TOP_LEVEL)
        p->ix->line_net[f->line] = net;
    if (f->call != TL_TOP_LEVEL) {
        if (p->ix->call_gross)
            p->ix->call_gross[f->call] = gross;
        if (net != gross) {
            if (p->net_n == p->net_cap && p->split)
                tl_split_cancel(p);
            if (p->net_n == p->net_cap && p->spec && tl_split_fail(p))
                p->net_n = 0;
            if (p->net_n == p->net_cap) {
                p->net_cap = p->net_cap ? p->net_cap * 2 : 4096;
                p->net_call = pv_xrealloc(p->net_call, p->net_cap * sizeof *p->net_call);
                p->net_val = pv_xrealloc(p->net_val, p->net_cap * sizeof *p->net_val);
            }
            p->net_call[p->net_n] = f->call;
            p->net_val[p->net_n++] = net;
        }
        p->ix->call_exit[f->call] = at_end ? PV_TL_OPEN : (uint32_t)p->i;
    }
}

/* Pops every frame above position `code` (each a mismatch, with a warning). */
static void tl_pop_above(tl_pass *p, tl_stack *s, int32_t code, uint32_t area)
{
    size_t keep_ex = code >= 0 ? (size_t)code + 1 : 0;
    while (s->ex_n > keep_ex) {
        tl_frame *f = &s->ex[s->ex_n - 1];
        tl_warn(p, "exit of %s while %s is open above it: %s closed here",
                pv_tl_area_name(p->ix, area), pv_tl_area_name(p->ix, f->area),
                pv_tl_area_name(p->ix, f->area));
        tl_end_frame(p, f, false, false);
        s->ex_n--;
    }
    if (code < 0) {
        size_t j = (size_t)(-(code + 1));
        while (s->im_lo < j) {
            tl_frame *f = &s->im[s->im_lo];
            tl_warn(p, "implicit frame of %s ends while %s is open above it: %s closed here",
                    pv_tl_area_name(p->ix, area), pv_tl_area_name(p->ix, f->area),
                    pv_tl_area_name(p->ix, f->area));
            tl_end_frame(p, f, false, false);
            s->im_lo++;
        }
    }
}

/* docs/formats.md §3: an implicit frame goes to the very bottom of the stack. */
static int32_t tl_push_implicit(tl_pass *p, tl_stack *s, uint16_t c, uint32_t area, uint32_t acc,
                                bool active)
{
    s->im = pv_xgrow(s->im, &s->im_cap, s->im_n + 1, sizeof *s->im);
    tl_frame *f = &s->im[s->im_n];
    f->area = area;
    f->acc = acc;
    f->prev_same = PV_STAT_NOT_ON_STACK;
    f->call = TL_TOP_LEVEL;
    f->fn_call = TL_TOP_LEVEL;
    f->line = TL_TOP_LEVEL;
    if (p->ix->areas[area].type == PV_WI_LINE)
        f->line = tl_new_line(p, (uint32_t)p->i | PV_TL_IMPLICIT_CALL);
    if (p->ix->areas[area].type == PV_WI_FUNCTION) {
        f->call = tl_new_call(p, (uint32_t)p->i | PV_TL_IMPLICIT_CALL, TL_TOP_LEVEL, c);
        f->fn_call = f->call;
        s->im_calls = pv_xgrow(s->im_calls, &s->im_call_cap, s->im_call_n + 1, sizeof *s->im_calls);
        s->im_calls[s->im_call_n++] = f->call;
    }
    pv_stats_implicit(&p->st, acc, &f->sf, active);
    int32_t code = -(int32_t)s->im_n - 1;
    s->im_n++;
    p->st.accs[acc].top = code;
    return code;
}

/* ---- the second half's guesses (docs/winidea-model.md "Speed: the
 * timeline in two halves") */

/* Marks the second half's reading as wrong (it stops at this event);
 * always true. */
static bool tl_split_fail(tl_pass *p)
{
    p->spec_fail = true;
    return true;
}

static void tl_spec_room(tl_pass *p, uint32_t acc, uint16_t c)
{
    if (acc >= p->spec_acc_cap) {
        size_t old = p->spec_acc_cap;
        p->ph = pv_xgrow(p->ph, &p->spec_acc_cap, (size_t)acc + 1, sizeof *p->ph);
        for (size_t j = old; j < p->spec_acc_cap; j++)
            p->ph[j] = (tl_phantom){TL_NONE, TL_NONE, false, false, false, TL_NO_SLOT, 0, 0};
    }
    if (c >= p->pops_cap) {
        size_t old = p->pops_cap, cap = old;
        p->slots = pv_xgrow(p->slots, &cap, (size_t)c + 1, sizeof *p->slots);
        p->pops = pv_xgrow(p->pops, &p->pops_cap, (size_t)c + 1, sizeof *p->pops);
        memset(p->pops + old, 0, (p->pops_cap - old) * sizeof *p->pops);
        memset(p->slots + old, 0, (p->pops_cap - old) * sizeof *p->slots);
    }
}

/* An E in the second half: notes the accumulator's first E and the depth;
 * with nothing of its own below, the frame below is the first half's (the
 * calls' parents name it, TL_BELOW, until the stitch knows it). */
static uint32_t tl_spec_entry(tl_pass *p, uint32_t acc, uint16_t c, size_t depth,
                              uint32_t below_fn, bool has_below)
{
    tl_spec_room(p, acc, c);
    if (p->ph[acc].first_e == TL_NONE)
        p->ph[acc].first_e = (uint32_t)p->i;
    if (depth > p->spec_max_depth)
        p->spec_max_depth = depth;
    return has_below ? below_fn : TL_BELOW + (uint32_t)p->pops[c];
}

/* An S, R or X in the second half whose area has no frame of its own in
 * the context: the guess is that it is on a frame the first half opened
 * (an X: the topmost one, with nothing of the second half above it).  The
 * stitch checks the guess and replays the event; its depth is written
 * then. */
static size_t tl_spec_under(tl_pass *p, tl_stack *s, uint32_t area, uint32_t acc, uint16_t c,
                            unsigned kind)
{
    if (kind == PV_WI_EXIT && s->ex_n > 0) {
        tl_split_fail(p); /* would end the frames above it with warnings */
        return 0;
    }
    tl_spec_room(p, acc, c);
    tl_phantom *ph = &p->ph[acc];
    ph->last_under = (uint32_t)p->i;
    int64_t r = pv_stats_run(&p->st, c, p->time);
    if (kind != PV_WI_EXIT && ph->known && !p->ix->depth_wide) {
        /* as pv_stats_suspend / _resume would: with its frame the only
         * one of the area in the context (checked), the area's active
         * union is the frame's */
        ph->used = true;
        if (kind == PV_WI_SUSPEND && ph->active) {
            ph->net += r - ph->active_run;
            ph->active = false;
        } else if (kind == PV_WI_RESUME && !ph->active) {
            ph->active = true;
            ph->active_run = r;
        }
        return ph->slot == TL_NO_SLOT ? TL_PHANTOM_DEPTH : TL_SLOT_DEPTH + ph->slot;
    }
    if (ph->known && ph->slot != TL_NO_SLOT) /* it ends, or is seen afresh */
        p->slots[c] &= (uint8_t) ~(1u << ph->slot);
    uint8_t slot = TL_NO_SLOT;
    if (kind != PV_WI_EXIT)
        for (unsigned k = 0; k < TL_SLOTS && slot == TL_NO_SLOT; k++)
            if (!(p->slots[c] & (1u << k))) {
                slot = (uint8_t)k;
                p->slots[c] |= (uint8_t)(1u << k);
            }
    p->under = pv_xgrow(p->under, &p->under_cap, p->under_n + 1, sizeof *p->under);
    p->under[p->under_n++] =
        (tl_under){(uint32_t)p->i, area, acc, c, (uint8_t)kind, slot, ph->known, ph->active,
                   ph->active_run, ph->net, p->time, r, 0};
    ph->slot = slot;
    if (kind == PV_WI_EXIT) {
        p->pops[c]++;
        ph->known = false;
    } else {
        ph->known = true;
        ph->active = kind == PV_WI_RESUME;
        ph->active_run = r;
        ph->net = 0;
    }
    return 0;
}

/* One function/line event in context c.  Returns its depth. */
static inline __attribute__((always_inline)) size_t tl_stack_event(tl_pass *p, uint32_t area,
                                                                   uint16_t c, unsigned kind)
{
    tl_stack *s = tl_stack_of(p, c);
    uint32_t acc = pv_stats_acc(&p->st, area, c);
    pv_stat_acc *a = &p->st.accs[acc];
    bool first = !a->seen;
    a->seen = true;
    a->in_range |= p->time >= p->st.lo && p->time <= p->st.hi;
    int32_t code = a->top;
    if (kind == PV_WI_ENTRY) {
        if (s->ex_n >= (size_t)INT32_MAX) {
            tl_warn(p, "call stack too deep; entry ignored");
            return tl_stack_size(s);
        }
        size_t depth = tl_stack_size(s);
        if (s->ex_n == s->ex_cap)
            s->ex = pv_xgrow(s->ex, &s->ex_cap, s->ex_n + 1, sizeof *s->ex);
        tl_frame *below = s->ex_n ? &s->ex[s->ex_n - 1] : NULL;
        tl_frame *f = &s->ex[s->ex_n];
        f->area = area;
        f->acc = acc;
        f->prev_same = code;
        uint32_t below_fn = below ? below->fn_call : TL_TOP_LEVEL;
        if (p->spec)
            below_fn = tl_spec_entry(p, acc, c, depth, below_fn, below != NULL);
        f->call = TL_TOP_LEVEL;
        f->fn_call = below_fn;
        f->line = p->ix->areas[area].type == PV_WI_LINE ? tl_new_line(p, (uint32_t)p->i)
                                                         : TL_TOP_LEVEL;
        if (p->ix->areas[area].type == PV_WI_FUNCTION) {
            f->call = tl_new_call(p, (uint32_t)p->i, below_fn, c);
            f->fn_call = f->call;
        }
        p->st.accs[acc].top = (int32_t)s->ex_n;
        s->ex_n++;
        pv_stats_entry(&p->st, acc, &f->sf, p->time);
        return depth;
    }
    if (code == PV_STAT_NOT_ON_STACK && p->spec)
        return tl_spec_under(p, s, area, acc, c, kind);
    if (code == PV_STAT_NOT_ON_STACK) {
        if (!first) {
            tl_warn(p, "%c of %s, which is not on the call stack of %s; ignored",
                    pv_wi_event_char(kind), pv_tl_area_name(p->ix, area),
                    pv_tl_context_name(p->ix, c));
            return tl_stack_size(s);
        }
        code = tl_push_implicit(p, s, c, area, acc, kind != PV_WI_RESUME);
    }
    size_t depth = tl_depth_of(s, code);
    tl_frame *f = tl_frame_at(s, code);
    if (kind == PV_WI_SUSPEND) {
        pv_stats_suspend(&p->st, acc, &f->sf, p->time);
    } else if (kind == PV_WI_RESUME) {
        pv_stats_resume(&p->st, acc, &f->sf, p->time);
    } else {
        tl_pop_above(p, s, code, area);
        f = tl_frame_at(s, code);
        tl_end_frame(p, f, true, false);
        if (code >= 0)
            s->ex_n--;
        else
            s->im_lo++;
    }
    return depth;
}

/* The same, not inlined: for the stitch's replay. */
static size_t tl_stack_event_replay(tl_pass *p, uint32_t area, uint16_t c, unsigned kind)
{
    return tl_stack_event(p, area, c, kind);
}

/* ---- calls: order and parents */

/* Orders the calls by context (implicit frames outermost first, then entry
 * order: the pre-order of each context's tree), resolves the parents of
 * calls with no function frame below them (the innermost implicit function
 * frame still open at their entry, docs/formats.md §3: implicit frames lie below
 * every frame entered during the recording), and keeps only the calls that
 * overlap the window.  The steps, in order: */
enum {
    FC_COUNT,   /* calls per context */
    FC_PLACE,   /* offsets, implicit frames' places (few) */
    FC_POS,     /* every other call's place */
    FC_PERMUTE, /* one per-call array (tl_call_arrays[fc_array]) into the scratch buffer */
    FC_COPY,    /* ... and back; then FC_PERMUTE of the next array */
    FC_TOP,     /* parents of top-level calls */
    FC_NETPOS,  /* the calls of the kept net times, renumbered */
    FC_WINDOW,  /* --from/--to */
    FC_NETBITS, /* the bit of each call with a net time of its own */
    FC_NETRANK, /* the rank of each word of bits */
    FC_NETVALS, /* the net times in call order */
    FC_DONE,
};

/* A per-call array that finishing permutes into context order. */
typedef struct tl_call_array {
    void *base;
    size_t size;     /* bytes per element: 4 (uint32_t) or 8 (int64_t) */
    bool call_index; /* its values are call indices, renumbered with the calls */
} tl_call_array;

#define TL_CALL_ARRAYS 4

/* The per-call arrays of the index, all of which the permutation moves;
 * returns how many there are (the gross times only when kept). */
static size_t tl_call_arrays(pv_timeline_index *ix, tl_call_array out[TL_CALL_ARRAYS])
{
    out[0] = (tl_call_array){ix->call_parent, sizeof *ix->call_parent, true};
    out[1] = (tl_call_array){ix->call_entry, sizeof *ix->call_entry, false};
    out[2] = (tl_call_array){ix->call_exit, sizeof *ix->call_exit, false};
    out[3] = (tl_call_array){ix->call_gross, sizeof *ix->call_gross, false};
    return ix->call_gross ? 4 : 3;
}

/* Where call k is in the arrays (see gap_a). */
static inline size_t tl_phys(const tl_pass *p, size_t k)
{
    return k < p->gap_a ? k : k - p->gap_a + p->gap_at;
}

/* The end of the next piece of calls [fc_k, end) of a step with `left` budget. */
static size_t tl_fc_piece_end(const tl_pass *p, size_t left)
{
    size_t n = p->ix->call_count, k = p->fc_k;
    return left >= n - k ? n : k + left;
}

/* Records that the current step reached call `k`; once past the last call,
 * moves on to step `next`.  Returns the work done since fc_k. */
static size_t tl_fc_reach(tl_pass *p, size_t k, int next)
{
    size_t work = k - p->fc_k;
    p->fc_k = k;
    if (k >= p->ix->call_count) {
        p->fc_phase = next;
        p->fc_k = 0;
    }
    return work;
}

/* Frees a big block of the finish: at once, or in the steps to come when
 * the finish goes in steps (freeing the 76 MB scratch buffer of 9.6 M
 * calls at once took 6.5 ms of one slice). */
static void tl_fc_drop(tl_pass *p, void *block, size_t bytes)
{
    if (p->fc_stepped)
        pv_trash_add(&p->trash, block, bytes);
    else
        free(block);
}

/* FC_COUNT: the number of calls of each context, in fc_start[c + 1] (the
 * pass counted them: tl_new_call). */
static size_t tl_fc_count(tl_pass *p, size_t left)
{
    (void)left;
    pv_timeline_index *ix = p->ix;
    size_t n = ix->call_count;
    p->fc_start = pv_xcalloc((size_t)ix->context_count + 1, sizeof *p->fc_start);
    p->fc_pos = tl_big_alloc((n ? n : 1) * sizeof *p->fc_pos);
    for (size_t c = 0; c < ix->context_count && c < p->context_calls_cap; c++)
        p->fc_start[c + 1] = p->context_calls[c];
    p->fc_phase = FC_PLACE;
    p->fc_k = 0;
    return ix->context_count;
}

/* FC_PLACE: each context's first call (fc_start), the places of its implicit
 * calls (outermost first) and where its explicit calls begin (fc_fill).
 * Little work: no budget. */
static size_t tl_fc_place(tl_pass *p, size_t left)
{
    (void)left;
    size_t nctx = p->ix->context_count;
    size_t *start = p->fc_start;
    for (size_t c = 0; c < nctx; c++)
        start[c + 1] += start[c];
    size_t *fill = p->fc_fill = pv_xmalloc((nctx + 1) * sizeof *fill);
    for (size_t c = 0; c < nctx; c++) {
        fill[c] = start[c];
        tl_stack *st = c < p->stack_cap ? &p->stacks[c] : NULL;
        size_t m = st ? st->im_call_n : 0;
        for (size_t q = 0; q < m; q++)
            p->fc_pos[st->im_calls[q]] = (uint32_t)(start[c] + m - 1 - q);
        fill[c] += m;
    }
    p->fc_phase = FC_POS;
    p->fc_k = 0;
    return 0;
}

/* FC_POS: the place of every explicit call, in entry order within its context. */
static size_t tl_fc_pos(tl_pass *p, size_t left)
{
    pv_timeline_index *ix = p->ix;
    size_t k = p->fc_k, end = tl_fc_piece_end(p, left);
    for (; k < end; k++) {
        uint32_t entry = ix->call_entry[tl_phys(p, k)];
        if (entry & PV_TL_IMPLICIT_CALL)
            continue;
        uint16_t c = pv_tl_event_context(ix, entry);
        p->fc_pos[k] = (uint32_t)p->fc_fill[c]++;
    }
    if (k == ix->call_count) {
        free(p->fc_fill);
        p->fc_fill = NULL;
    }
    return tl_fc_reach(p, k, FC_PERMUTE);
}

/* FC_POS in one go on two threads after a stitch: the second half's calls
 * [gap_a, n) on a helper, whose places in each context follow the first
 * half's (first_calls; every implicit call is the first half's). */
typedef struct tl_pos_job {
    tl_pass *p;
    size_t from, to;
    size_t *fill;
} tl_pos_job;

static void *tl_pos_run(void *arg)
{
    tl_pos_job *j = arg;
    tl_pass *p = j->p;
    const pv_timeline_index *ix = p->ix;
    for (size_t k = j->from; k < j->to; k++) {
        uint32_t entry = ix->call_entry[tl_phys(p, k)];
        if (entry & PV_TL_IMPLICIT_CALL)
            continue;
        p->fc_pos[k] = (uint32_t)j->fill[pv_tl_event_context(ix, entry)]++;
    }
    return NULL;
}

static bool tl_fc_pos_parallel(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    size_t nctx = ix->context_count, n = ix->call_count;
    if (p->fc_phase != FC_POS || p->fc_k != 0 || !p->first_calls || p->gap_a >= n)
        return false;
    tl_pos_job j[2] = {{p, 0, p->gap_a, p->fc_fill}, {p, p->gap_a, n, NULL}};
    j[1].fill = pv_xmalloc((nctx + 1) * sizeof *j[1].fill);
    for (size_t c = 0; c < nctx; c++)
        j[1].fill[c] = p->fc_start[c] + p->first_calls[c];
    pthread_t helper;
    if (pthread_create(&helper, NULL, tl_pos_run, &j[1]) != 0) {
        free(j[1].fill);
        return false;
    }
    tl_pos_run(&j[0]);
    pthread_join(helper, NULL);
    free(j[1].fill);
    free(p->fc_fill);
    p->fc_fill = NULL;
    p->fc_phase = FC_PERMUTE;
    p->fc_k = 0;
    return true;
}

/* FC_PERMUTE: array fc_array, calls [fc_k, ...), to their places in the
 * scratch buffer.  The writes go to one sequential stream per context, which
 * caches well; following the permutation's cycles in place instead was 6
 * times slower at 50 M events (a cache miss per step on each of the five
 * arrays). */
static void tl_permute_range(const tl_call_array *a, const uint32_t *pos, void *scratch, size_t k,
                             size_t end)
{
    if (a->size == sizeof(uint32_t)) {
        const uint32_t *src = a->base;
        uint32_t *dst = scratch;
        if (a->call_index)
            for (; k < end; k++)
                dst[pos[k]] = src[k] == TL_TOP_LEVEL ? TL_TOP_LEVEL : pos[src[k]];
        else
            for (; k < end; k++)
                dst[pos[k]] = src[k];
    } else {
        const int64_t *src = a->base;
        int64_t *dst = scratch;
        for (; k < end; k++)
            dst[pos[k]] = src[k];
    }
}

/* The same over calls that may lie in two places (gap_a, gap_at). */
static void tl_permute_gap(const tl_call_array *a, const uint32_t *pos, void *scratch, size_t k,
                           size_t end, size_t gap_a, size_t gap_at)
{
    if (k < gap_a)
        tl_permute_range(a, pos, scratch, k, end < gap_a ? end : gap_a);
    if (end > gap_a) {
        tl_call_array moved = *a; /* moved.base[q] is the call q */
        moved.base = (char *)a->base + (gap_at - gap_a) * a->size;
        tl_permute_range(&moved, pos, scratch, k > gap_a ? k : gap_a, end);
    }
}

static size_t tl_fc_permute(tl_pass *p, size_t left)
{
    pv_timeline_index *ix = p->ix;
    size_t n = ix->call_count;
    if (!p->fc_scratch)
        p->fc_scratch = tl_big_alloc((n ? n : 1) * (ix->call_gross ? sizeof(int64_t) : 4));
    tl_call_array arrays[TL_CALL_ARRAYS];
    tl_call_arrays(ix, arrays);
    size_t k = p->fc_k, end = tl_fc_piece_end(p, left);
    tl_permute_gap(&arrays[p->fc_array], p->fc_pos, p->fc_scratch, k, end, p->gap_a, p->gap_at);
    return tl_fc_reach(p, end, FC_COPY);
}

/* FC_PERMUTE and FC_COPY of every array in one go, on two threads (a
 * finish without a budget, docs/winidea-model.md "Speed"): the helper
 * moves the arrays from `first` on, each thread through a scratch buffer of
 * its own; the result is the same as one array after the other. */
typedef struct tl_permute_job {
    tl_call_array arrays[TL_CALL_ARRAYS];
    size_t first, count, n;
    size_t gap_a, gap_at;
    const uint32_t *pos;
} tl_permute_job;

static void tl_permute_arrays(const tl_permute_job *j, size_t from, size_t to)
{
    size_t widest = 4;
    for (size_t a = from; a < to; a++)
        widest = j->arrays[a].size > widest ? j->arrays[a].size : widest;
    void *scratch = tl_big_alloc((j->n ? j->n : 1) * widest);
    for (size_t a = from; a < to; a++) {
        tl_permute_gap(&j->arrays[a], j->pos, scratch, 0, j->n, j->gap_a, j->gap_at);
        if (j->gap_a < j->n) { /* the second half's calls: their pages go back */
            size_t lo = j->gap_at > j->n ? j->gap_at : j->n, hi = j->gap_at + (j->n - j->gap_a);
            if (hi > lo)
                pv_release((char *)j->arrays[a].base + lo * j->arrays[a].size,
                           (hi - lo) * j->arrays[a].size);
        }
        memcpy(j->arrays[a].base, scratch, j->n * j->arrays[a].size);
    }
    free(scratch);
}

static void *tl_permute_run(void *arg)
{
    const tl_permute_job *j = arg;
    tl_permute_arrays(j, j->first, j->count);
    return NULL;
}

/* Whether the permutation went in one go on two threads (then FC_TOP is next). */
static bool tl_fc_permute_parallel(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    if (p->fc_phase != FC_PERMUTE || p->fc_array != 0 || p->fc_k != 0 || p->fc_scratch ||
        !tl_threads_allowed(p, ix->event_count))
        return false;
    tl_permute_job j;
    j.count = tl_call_arrays(ix, j.arrays);
    j.first = 2;
    j.n = ix->call_count;
    j.gap_a = p->gap_a;
    j.gap_at = p->gap_at;
    j.pos = p->fc_pos;
    pthread_t helper;
    if (pthread_create(&helper, NULL, tl_permute_run, &j) != 0)
        return false;
    tl_permute_arrays(&j, 0, j.first);
    pthread_join(helper, NULL);
    p->gap_a = SIZE_MAX; /* every array is in place now */
    p->fc_phase = FC_TOP;
    p->fc_k = 0;
    return true;
}

/* FC_COPY: the scratch buffer back into array fc_array; then the next array,
 * or FC_TOP after the last one. */
static size_t tl_fc_copy(tl_pass *p, size_t left)
{
    tl_call_array arrays[TL_CALL_ARRAYS];
    size_t count = tl_call_arrays(p->ix, arrays);
    const tl_call_array *a = &arrays[p->fc_array];
    size_t k = p->fc_k, end = tl_fc_piece_end(p, left);
    memcpy((char *)a->base + k * a->size, (char *)p->fc_scratch + k * a->size, (end - k) * a->size);
    bool last = p->fc_array + 1 == count;
    if (end == p->ix->call_count) {
        if (last) {
            tl_fc_drop(p, p->fc_scratch, p->ix->call_count * (p->ix->call_gross ? 8 : 4));
            p->fc_scratch = NULL;
            p->gap_a = SIZE_MAX; /* every array is in place now */
        } else {
            p->fc_array++;
        }
    }
    return tl_fc_reach(p, end, last ? FC_TOP : FC_PERMUTE);
}

/* FC_TOP: the parents of top-level calls, context by context (fc_c).  The
 * implicit calls of a context are at first .. first+m-1, outermost first:
 * the parent of each is the next one out; an explicit top-level call's
 * parent is the innermost implicit call still open at its entry. */
static size_t tl_fc_top(tl_pass *p, size_t left)
{
    pv_timeline_index *ix = p->ix;
    size_t nctx = ix->context_count;
    const size_t *start = p->fc_start;
    size_t work = 0;
    while (p->fc_c < nctx && work < left) {
        size_t c = p->fc_c;
        size_t m = c < p->stack_cap ? p->stacks[c].im_call_n : 0;
        size_t first = start[c];
        if (!p->fc_in_context) {
            for (size_t q = 0; q < m; q++)
                ix->call_parent[first + q] = q == 0 ? PV_TL_OPEN : (uint32_t)(first + q - 1);
            p->fc_inner = m; /* candidates: innermost = first+m-1, moving outwards */
            p->fc_k = first + m;
            p->fc_in_context = true;
            work += m;
        }
        size_t inner = p->fc_inner;
        size_t q = p->fc_k;
        for (; q < start[c + 1] && work < left; q++, work++) {
            if (ix->call_parent[q] != TL_TOP_LEVEL)
                continue;
            uint32_t entry = ix->call_entry[q];
            while (inner > 0 && ix->call_exit[first + inner - 1] != PV_TL_OPEN &&
                   ix->call_exit[first + inner - 1] <= entry)
                inner--;
            ix->call_parent[q] = inner > 0 ? (uint32_t)(first + inner - 1) : PV_TL_OPEN;
        }
        p->fc_inner = inner;
        p->fc_k = q;
        if (q >= start[c + 1]) {
            p->fc_c++;
            p->fc_in_context = false;
        }
    }
    if (p->fc_c >= nctx) {
        p->fc_phase = FC_NETPOS;
        p->fc_k = 0;
    }
    return work;
}

/* FC_TOP of contexts [from, to) in one piece (the contexts are apart). */
typedef struct tl_top_job {
    tl_pass *p;
    size_t from, to;
} tl_top_job;

static void *tl_top_run(void *arg)
{
    const tl_top_job *j = arg;
    tl_pass *p = j->p;
    pv_timeline_index *ix = p->ix;
    const size_t *start = p->fc_start;
    for (size_t c = j->from; c < j->to; c++) {
        size_t m = c < p->stack_cap ? p->stacks[c].im_call_n : 0;
        size_t first = start[c], inner = m;
        for (size_t q = 0; q < m; q++)
            ix->call_parent[first + q] = q == 0 ? PV_TL_OPEN : (uint32_t)(first + q - 1);
        for (size_t q = first + m; q < start[c + 1]; q++) {
            if (ix->call_parent[q] != TL_TOP_LEVEL)
                continue;
            uint32_t entry = ix->call_entry[q];
            while (inner > 0 && ix->call_exit[first + inner - 1] != PV_TL_OPEN &&
                   ix->call_exit[first + inner - 1] <= entry)
                inner--;
            ix->call_parent[q] = inner > 0 ? (uint32_t)(first + inner - 1) : PV_TL_OPEN;
        }
    }
    return NULL;
}

/* FC_TOP in one go on two threads (a finish without a budget): the
 * contexts of the second half of the calls on a helper. */
static bool tl_fc_top_parallel(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    size_t nctx = ix->context_count, n = ix->call_count;
    if (p->fc_phase != FC_TOP || p->fc_c != 0 || p->fc_in_context || nctx < 2 ||
        !tl_threads_allowed(p, ix->event_count) || n < TL_WORKER_MIN_EVENTS)
        return false;
    size_t mid = 1;
    while (mid + 1 < nctx && p->fc_start[mid] < n / 2)
        mid++;
    tl_top_job j[2] = {{p, 0, mid}, {p, mid, nctx}};
    pthread_t helper;
    if (pthread_create(&helper, NULL, tl_top_run, &j[1]) != 0)
        return false;
    tl_top_run(&j[0]);
    pthread_join(helper, NULL);
    p->fc_c = nctx;
    p->fc_phase = FC_NETPOS;
    p->fc_k = 0;
    return true;
}

/* The end of the next piece [fc_k, end) of the kept net times. */
static size_t tl_fc_net_piece_end(const tl_pass *p, size_t left)
{
    size_t n = p->net_n, k = p->fc_k;
    return left >= n - k ? n : k + left;
}

/* Moves on to phase `next` once fc_k has passed the last net time. */
static size_t tl_fc_net_reach(tl_pass *p, size_t k, int next)
{
    size_t work = k - p->fc_k;
    p->fc_k = k;
    if (k >= p->net_n) {
        p->fc_phase = next;
        p->fc_k = 0;
    }
    return work;
}

/* FC_NETPOS: each kept net time's call, in the calls' new order. */
static size_t tl_fc_netpos(tl_pass *p, size_t left)
{
    size_t k = p->fc_k, end = tl_fc_net_piece_end(p, left);
    for (; k < end; k++)
        p->net_call[k] = p->fc_pos[p->net_call[k]];
    return tl_fc_net_reach(p, k, FC_WINDOW);
}

/* FC_NETBITS: a bit per call, set where the net time differs from the gross. */
static size_t tl_fc_netbits(tl_pass *p, size_t left)
{
    pv_timeline_index *ix = p->ix;
    if (p->net_n == 0) { /* every net time is the gross: no bits at all */
        p->fc_phase = FC_DONE;
        return 0;
    }
    if (!ix->net_bits) {
        size_t words = (ix->call_count + 63) / 64;
        ix->net_bits = pv_xcalloc(words ? words : 1, sizeof *ix->net_bits);
    }
    size_t k = p->fc_k, end = tl_fc_net_piece_end(p, left);
    for (; k < end; k++)
        ix->net_bits[p->net_call[k] / 64] |= UINT64_C(1) << (p->net_call[k] % 64);
    return tl_fc_net_reach(p, k, FC_NETRANK);
}

/* FC_NETRANK: the set bits before each word (one piece: a word per 64 calls). */
static size_t tl_fc_netrank(tl_pass *p, size_t left)
{
    (void)left;
    pv_timeline_index *ix = p->ix;
    size_t words = (ix->call_count + 63) / 64;
    ix->net_rank = pv_xmalloc((words ? words : 1) * sizeof *ix->net_rank);
    uint32_t r = 0;
    for (size_t w = 0; w < words; w++) {
        ix->net_rank[w] = r;
        r += (uint32_t)__builtin_popcountll(ix->net_bits[w]);
    }
    ix->net_count = r;
    ix->net_values = tl_big_alloc((r ? r : 1) * sizeof *ix->net_values);
    p->fc_phase = FC_NETVALS;
    p->fc_k = 0;
    return 0;
}

/* FC_NETVALS: each kept net time to its call's place. */
static size_t tl_fc_netvals(tl_pass *p, size_t left)
{
    pv_timeline_index *ix = p->ix;
    size_t k = p->fc_k, end = tl_fc_net_piece_end(p, left);
    for (; k < end; k++) {
        uint32_t q = p->net_call[k];
        uint64_t w = ix->net_bits[q / 64];
        size_t at = ix->net_rank[q / 64] +
                    (size_t)__builtin_popcountll(w & ((UINT64_C(1) << (q % 64)) - 1));
        ix->net_values[at] = p->net_val[k];
    }
    size_t work = tl_fc_net_reach(p, k, FC_DONE);
    if (p->fc_phase == FC_DONE) {
        tl_fc_drop(p, p->net_call, p->net_n * sizeof *p->net_call);
        tl_fc_drop(p, p->net_val, p->net_n * sizeof *p->net_val);
        p->net_call = NULL;
        p->net_val = NULL;
        p->net_n = p->net_cap = 0;
    }
    return work;
}

/* Whether call q overlaps the --from/--to window. */
static bool tl_call_in_window(const pv_timeline_index *ix, size_t q)
{
    pv_wi_event e;
    int64_t t_entry = ix->time_first;
    if (!(ix->call_entry[q] & PV_TL_IMPLICIT_CALL)) {
        pv_timeline_event(ix, ix->call_entry[q], &e);
        t_entry = e.time;
    }
    int64_t t_exit = ix->time_last;
    if (ix->call_exit[q] != PV_TL_OPEN) {
        pv_timeline_event(ix, ix->call_exit[q], &e);
        t_exit = e.time;
    }
    return (!ix->has_to || t_entry <= ix->to) && (!ix->has_from || t_exit >= ix->from);
}

/* Keeps the calls that overlap the window, in order, renumbering parents
 * (fc_pos is reused as the old -> new map: every entry is spent), and
 * counts each context's calls again. */
static void tl_fc_keep_window(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    size_t n = ix->call_count, nctx = ix->context_count;
    size_t kept = 0;
    uint32_t *map = p->fc_pos;
    for (size_t q = 0; q < n; q++) {
        bool keep = tl_call_in_window(ix, q);
        map[q] = keep ? (uint32_t)kept : PV_TL_OPEN;
        if (!keep)
            continue;
        ix->call_entry[kept] = ix->call_entry[q];
        ix->call_exit[kept] = ix->call_exit[q];
        ix->call_parent[kept] =
            ix->call_parent[q] == PV_TL_OPEN ? PV_TL_OPEN : map[ix->call_parent[q]];
        if (ix->call_gross)
            ix->call_gross[kept] = ix->call_gross[q];
        kept++;
    }
    /* the kept net times of the calls kept */
    size_t nets = 0;
    for (size_t k = 0; k < p->net_n; k++)
        if (map[p->net_call[k]] != PV_TL_OPEN) {
            p->net_call[nets] = map[p->net_call[k]];
            p->net_val[nets++] = p->net_val[k];
        }
    p->net_n = nets;
    size_t *start = pv_xcalloc(nctx + 1, sizeof *start);
    for (size_t q = 0; q < kept; q++) {
        uint32_t e = ix->call_entry[q] & ~PV_TL_IMPLICIT_CALL;
        start[pv_tl_event_context(ix, e) + 1]++;
    }
    for (size_t c = 0; c < nctx; c++)
        start[c + 1] += start[c];
    free(p->fc_start);
    p->fc_start = start;
    ix->call_count = kept;
}

/* FC_WINDOW: --from/--to (in one piece), then hands the context offsets to
 * the index. */
static size_t tl_fc_window(tl_pass *p, size_t left)
{
    (void)left;
    pv_timeline_index *ix = p->ix;
    if (ix->has_from || ix->has_to)
        tl_fc_keep_window(p);
    tl_fc_drop(p, p->fc_pos, ix->call_count * sizeof *p->fc_pos);
    p->fc_pos = NULL;
    ix->context_call_start = p->fc_start;
    p->fc_start = NULL;
    p->fc_phase = FC_NETBITS;
    p->fc_k = 0;
    return 0;
}

/* The steps of finishing the calls, in the order of the FC_ phases; each
 * does at most about `left` calls of work and returns the work done. */
typedef size_t tl_fc_step(tl_pass *p, size_t left);
static tl_fc_step *const tl_fc_steps[FC_DONE] = {
    [FC_COUNT] = tl_fc_count,     [FC_PLACE] = tl_fc_place, [FC_POS] = tl_fc_pos,
    [FC_PERMUTE] = tl_fc_permute, [FC_COPY] = tl_fc_copy,   [FC_TOP] = tl_fc_top,
    [FC_NETPOS] = tl_fc_netpos,   [FC_WINDOW] = tl_fc_window, [FC_NETBITS] = tl_fc_netbits,
    [FC_NETRANK] = tl_fc_netrank, [FC_NETVALS] = tl_fc_netvals,
};

/* One step of finishing the calls: at most about `budget` calls of work
 * (the --from/--to step goes in one piece); true when done.  Keeps its state
 * in p (fc_*), so that a viewer can finish the index between key presses. */
static bool tl_finish_calls_step(tl_pass *p, size_t budget)
{
    size_t left = budget ? budget : 1;
    p->fc_stepped = budget != SIZE_MAX;
    for (;;) {
        if (!p->fc_stepped) {
            pv_trash_free(&p->trash);
        } else if (!pv_trash_empty(&p->trash)) {
            /* 16 bytes of pages given back per unit of work: about as long
             * as a call's share of a phase */
            size_t pending = 0;
            for (size_t b = 0; b < p->trash.count; b++)
                pending += p->trash.blocks[b].bytes - p->trash.blocks[b].released;
            size_t can = left > SIZE_MAX / 16 ? SIZE_MAX : left * 16;
        if (!pv_trash_step(&p->trash, can))
                return false;
            left -= pending / 16 < left ? pending / 16 : left;
        }
        if (p->fc_phase == FC_DONE)
            return true;
        if (left == 0)
            return false;
        if (budget == SIZE_MAX &&
            (tl_fc_pos_parallel(p) || tl_fc_permute_parallel(p) || tl_fc_top_parallel(p)))
            continue;
        size_t work = tl_fc_steps[p->fc_phase](p, left);
        left -= work < left ? work : left;
    }
}

uint32_t pv_timeline_call_at(const pv_timeline_index *ix, uint16_t c, size_t event)
{
    if (c >= ix->context_count || !ix->context_call_start)
        return PV_TL_OPEN;
    size_t lo = ix->context_call_start[c], hi = ix->context_call_start[c + 1];
    /* implicit calls first (all "entered" before everything), then by entry */
    size_t first_explicit = lo;
    while (first_explicit < hi && (ix->call_entry[first_explicit] & PV_TL_IMPLICIT_CALL))
        first_explicit++;
    size_t a = first_explicit, b = hi; /* last explicit call with entry <= event */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (ix->call_entry[mid] <= event)
            a = mid + 1;
        else
            b = mid;
    }
    uint32_t k = a > first_explicit    ? (uint32_t)(a - 1)
                 : first_explicit > lo ? (uint32_t)(first_explicit - 1)
                                       : PV_TL_OPEN;
    size_t guard = 0;
    while (k != PV_TL_OPEN && guard++ <= ix->call_count) {
        bool entered = (ix->call_entry[k] & PV_TL_IMPLICIT_CALL) || ix->call_entry[k] <= event;
        if (entered && (ix->call_exit[k] == PV_TL_OPEN || ix->call_exit[k] >= event))
            return k;
        k = ix->call_parent[k];
    }
    return PV_TL_OPEN;
}

void pv_timeline_line_sweep_begin(const pv_timeline_index *ix, pv_tl_line_sweep *sw)
{
    /* Lines in entry order; per context, the last explicit call entered
     * before the line (a pointer that only moves forward), then up its
     * parents to the first still open at the line's E.  Parents of
     * top-level explicit calls are the implicit calls (finishing), so the
     * walk reaches those too. */
    size_t nctx = ix->context_count;
    sw->done = 0;
    sw->next = pv_xmalloc((nctx ? nctx : 1) * sizeof *sw->next);  /* first call not yet passed */
    sw->first = pv_xmalloc((nctx ? nctx : 1) * sizeof *sw->first); /* first explicit call */
    for (size_t c = 0; c < nctx; c++) {
        size_t lo = ix->context_call_start ? ix->context_call_start[c] : 0;
        size_t hi = ix->context_call_start ? ix->context_call_start[c + 1] : 0;
        while (lo < hi && (ix->call_entry[lo] & PV_TL_IMPLICIT_CALL))
            lo++;
        sw->next[c] = sw->first[c] = lo;
    }
}

void pv_timeline_line_sweep_step(const pv_timeline_index *ix, pv_tl_line_sweep *sw, size_t upto,
                                 uint32_t *out)
{
    size_t nctx = ix->context_count;
    size_t *next = sw->next, *first = sw->first;
    if (upto > ix->line_count)
        upto = ix->line_count;
    for (size_t k = sw->done; k < upto; k++) {
        uint32_t e = ix->line_entry[k];
        out[k] = PV_TL_OPEN;
        bool implicit = (e & PV_TL_IMPLICIT_CALL) != 0;
        e &= ~PV_TL_IMPLICIT_CALL;
        if (e >= ix->event_count)
            continue;
        uint16_t c = pv_tl_event_context(ix, e);
        if (c >= nctx || !ix->context_call_start)
            continue;
        if (implicit) {
            /* an implicit frame lies above the implicit frames found after
             * it (docs/formats.md §3): it runs in the innermost implicit
             * call revealed later (they are stored outermost first) */
            size_t lo = ix->context_call_start[c];
            for (size_t q = first[c]; q-- > lo;)
                if ((ix->call_entry[q] & ~PV_TL_IMPLICIT_CALL) > e) {
                    out[k] = (uint32_t)q;
                    break;
                }
            continue;
        }
        size_t hi = ix->context_call_start[c + 1];
        size_t q = next[c];
        while (q < hi && ix->call_entry[q] < e)
            q++;
        next[c] = q;
        /* the last call entered before e: explicit, else the innermost implicit */
        size_t lo = ix->context_call_start[c];
        uint32_t cand = q > first[c] ? (uint32_t)(q - 1)
                        : first[c] > lo ? (uint32_t)(first[c] - 1)
                                        : PV_TL_OPEN;
        size_t guard = 0;
        while (cand != PV_TL_OPEN && guard++ <= ix->call_count) {
            if (ix->call_exit[cand] == PV_TL_OPEN || ix->call_exit[cand] > e)
                break;
            cand = ix->call_parent[cand];
        }
        out[k] = cand;
    }
    if (upto > sw->done)
        sw->done = upto;
}

void pv_timeline_line_sweep_end(pv_tl_line_sweep *sw)
{
    free(sw->next);
    free(sw->first);
    sw->next = sw->first = NULL;
}

void pv_timeline_line_parents(const pv_timeline_index *ix, uint32_t *out)
{
    pv_tl_line_sweep sw;
    pv_timeline_line_sweep_begin(ix, &sw);
    pv_timeline_line_sweep_step(ix, &sw, ix->line_count, out);
    pv_timeline_line_sweep_end(&sw);
}

/* ---- the pass */

static void tl_free_pass(tl_pass *p)
{
    tl_split_cancel(p);
    tl_split_depths_wait(p);
    tl_worker_stop(p);
    for (size_t c = 0; c < p->stack_cap; c++) {
        free(p->stacks[c].ex);
        free(p->stacks[c].im);
        free(p->stacks[c].im_calls);
    }
    free(p->stacks);
    pv_hashmap_free(&p->state_keys);
    pv_hashmap_free(&p->context_map);
    pv_stats_free(&p->st);
    tl_ctx_detect_free(&p->cd);
    free(p->context_area_option);
    free(p->context_calls);
    free(p->first_calls);
    free(p->fc_start);
    free(p->fc_fill);
    free(p->fc_pos);
    free(p->fc_scratch);
    free(p->net_call);
    free(p->net_val);
    pv_trash_free(&p->trash);
}

static void tl_setup_contexts(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    const pv_wi_data *d = p->d;
    for (size_t c = 0; c < d->context_count && c < PV_TL_MAX_CONTEXTS - 1; c++)
        pv_hashmap_put(&p->context_map, d->contexts[c].handle, (uint32_t)c);
    /* The context area is looked for even when %CONTEXT% attributes the
     * events: then running(c) follows the area (docs/winidea-model.md,
     * "Which context runs"). */
    p->context_key = p->opt.context_decided ? p->opt.context_key : tl_find_context_area(p);
    if (d->timeline.text_context) {
        ix->context_source = PV_TL_CONTEXT_TEXT;
    } else if (p->context_key != 0) {
        ix->context_source = PV_TL_CONTEXT_AREA;
    } else if (d->timeline.version == 11 && d->timeline.count > 0) {
        ix->context_source = PV_TL_CONTEXT_CORE;
    } else {
        ix->context_source = PV_TL_CONTEXT_UNKNOWN;
    }
    if (ix->context_source == PV_TL_CONTEXT_TEXT || ix->context_source == PV_TL_CONTEXT_AREA) {
        for (size_t c = 0; c < d->context_count && c < PV_TL_MAX_CONTEXTS - 1; c++)
            tl_add_context(p, true, d->contexts[c].handle,
                           pv_strpool_get(&d->pool, d->contexts[c].name));
    }
    if (p->context_key != 0) {
        for (size_t a = 0; a < ix->area_count; a++)
            if (ix->areas[a].state_key == p->context_key && ix->context_area == PV_WI_NONE &&
                (ix->areas[a].type == PV_WI_VARIABLE || ix->areas[a].type == PV_WI_AUX))
                ix->context_area = (uint32_t)a;
        if (ix->context_area == PV_WI_NONE)
            for (size_t a = 0; a < ix->area_count; a++)
                if (ix->areas[a].state_key == p->context_key) {
                    ix->context_area = (uint32_t)a;
                    break;
                }
    }
    if (ix->context_source == PV_TL_CONTEXT_UNKNOWN)
        tl_unknown_context(p);
}

static uint16_t tl_event_context(tl_pass *p, const pv_wi_event *e)
{
    switch (p->ix->context_source) {
    case PV_TL_CONTEXT_TEXT: {
        /* %CONTEXT% attributes the event.  The running context is the
         * context area's once it has switched; without an area (or before
         * its first switch) it is the one of the latest function event. */
        uint16_t c = p->d->timeline.text_context[p->i];
        if (c >= p->d->context_count || c >= PV_TL_MAX_CONTEXTS - 1)
            c = tl_unknown_context(p);
        if (!p->area_switched)
            pv_stats_switch(&p->st, c, p->time);
        return c;
    }
    case PV_TL_CONTEXT_AREA:
        if (p->st.running == PV_TL_NO_CONTEXT) {
            /* before the first context switch the context is unknown
             * (docs/formats.md §3); it has been running since the start */
            uint16_t u = tl_unknown_context(p);
            p->st.running = u;
            p->st.since = p->st.start;
        }
        return p->st.running;
    case PV_TL_CONTEXT_CORE:
        if (e->core == PV_WI_CORE_UNKNOWN)
            return tl_unknown_context(p);
        if (p->core_context[e->core] == PV_TL_NO_CONTEXT) {
            char name[16];
            snprintf(name, sizeof name, "core %u", (unsigned)e->core);
            p->core_context[e->core] = tl_add_context(p, false, e->core, name);
        }
        return p->core_context[e->core];
    case PV_TL_CONTEXT_UNKNOWN:
        break;
    }
    return tl_unknown_context(p);
}

bool pv_timeline_index_begin(pv_timeline_index *ix, pv_wi_data *d, const pv_tl_options *o,
                             pv_diag *diag)
{
    memset(ix, 0, sizeof *ix);
    pv_strpool_init(&ix->pool);
    ix->tl = &d->timeline;
    ix->context_area = PV_WI_NONE;
    const pv_wi_timeline *tl = &d->timeline;
    size_t n = tl->count;
    tl_pass *p = pv_xcalloc(1, sizeof *p);
    ix->pass = p;
    p->ix = ix;
    p->d = d;
    p->settle = d;
    p->diag_entries = diag->entry_count;
    p->diag_warnings = diag->warnings;
    p->diag_errors = diag->errors;
    if (o && o->context_area)
        p->context_area_option = pv_xstrdup(o->context_area);
    if (o)
        p->opt = *o;
    p->o = &p->opt;
    p->opt.context_area = NULL; /* only read here, below; the caller's string may go */
    p->opt.event_capacity = 0;  /* indexing again (tl_end_pass) is over the whole timeline */
    p->diag = diag;
    p->file = o && o->file ? o->file : (d->bin_path ? d->bin_path : "timeline");
    p->unknown_context = PV_TL_NO_CONTEXT;
    p->gap_a = SIZE_MAX;
    memset(p->core_context, 0xFF, sizeof p->core_context);
    memset(p->cache_key, 0xFF, sizeof p->cache_key); /* UINT64_MAX is never a key */
    pv_hashmap_init(&ix->area_map);
    pv_hashmap_init(&p->state_keys);
    pv_hashmap_init(&p->context_map);
    if (n > PV_TL_MAX_EVENTS) {
        pv_error(diag, "%s: %zu timeline events; at most %u can be indexed", p->file, n,
                 PV_TL_MAX_EVENTS);
        pv_timeline_index_free(ix);
        return false;
    }
    ix->has_from = o && o->has_from;
    ix->has_to = o && o->has_to;
    ix->from = ix->has_from ? o->from : INT64_MIN;
    ix->to = ix->has_to ? o->to : INT64_MAX;

    int64_t start = 0;
    if (n) {
        pv_wi_event e;
        pv_timeline_event(ix, 0, &e);
        start = e.time;
    }
    ix->time_first = start;
    p->prev = start;
    tl_init_areas(p);
    pv_stats_init(&p->st, o, start, false); /* all_running: once the source is known */
    ix->clip_lo = p->st.lo;
    ix->clip_hi = p->st.hi;
    p->opt.context_area = o ? o->context_area : NULL;
    tl_setup_contexts(p);
    p->opt.context_area = NULL;
    p->st.all_running =
        ix->context_source == PV_TL_CONTEXT_CORE || ix->context_source == PV_TL_CONTEXT_UNKNOWN;

    /* The window's events, by binary search over the recorded times (which
     * ascend in a valid file), so that the timeline view knows its rows
     * before the pass reaches them. */
    size_t lo = 0, hi = n;
    while (ix->has_from && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        pv_wi_event e;
        pv_timeline_event(ix, mid, &e);
        if (e.time < ix->from)
            lo = mid + 1;
        else
            hi = mid;
    }
    ix->window_first = lo;
    hi = n;
    while (ix->has_to && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        pv_wi_event e;
        pv_timeline_event(ix, mid, &e);
        if (e.time <= ix->to)
            lo = mid + 1;
        else
            hi = mid;
    }
    ix->window_end = ix->has_to ? lo : n;

    /* the call arrays always exist; a call needs an E (and usually an X):
     * room for n / 2 avoids growing in the common case.  The gross times
     * are kept only where the records cannot give them (see
     * tl_derived_gross; tl_keep_gross when a time decreases). */
    p->store_gross = !p->st.all_running || p->opt.keep_gross;
    tl_grow_calls(p, n / 2 + 16);
    ix->event_count = n;
    /* a timeline still being read (o->event_capacity): room for all it can hold */
    p->event_room = o && o->event_capacity > n ? o->event_capacity : n;
    size_t room = p->event_room ? p->event_room : 1;
    ix->event_area = tl_big_alloc(room * (ix->area_wide ? 4 : 2));
    ix->event_context = tl_big_alloc(room * (ix->context_wide ? 2 : 1));
    ix->event_depth = tl_big_alloc(room * (ix->depth_wide ? 2 : 1));
    return true;
}

void pv_timeline_index_grow(pv_timeline_index *ix, size_t count)
{
    ix->event_count = count;
    ix->window_end = count; /* a growing timeline has no window */
}

void pv_timeline_index_rebase(pv_timeline_index *ix, pv_diag *diag, const pv_progress *progress)
{
    tl_pass *p = ix->pass;
    if (!p)
        return;
    p->diag = diag;
    p->diag_entries = diag->entry_count;
    p->diag_warnings = diag->warnings;
    p->diag_errors = diag->errors;
    if (progress)
        p->opt.progress = *progress;
    else
        memset(&p->opt.progress, 0, sizeof p->opt.progress);
}

bool pv_timeline_index_begin_read_events(const pv_timeline_index *ix)
{
    return ix->pass && ix->pass->cd.need != 0; /* set only when tl_find_context_area scans */
}

void pv_timeline_index_move(pv_timeline_index *to, pv_timeline_index *from)
{
    *to = *from;
    if (to->pass)
        to->pass->ix = to;
    memset(from, 0, sizeof *from);
}

/* ---- the time split (docs/winidea-model.md "Speed: the timeline in two
 * halves")
 *
 * A whole finish of a long timeline indexes its second half on a second
 * thread while this one does the first.  The second half starts with empty
 * stacks at a context switch (so that it knows the running context) and
 * guesses what it cannot know: an S, R or X whose area has no frame of its
 * own is on a frame the first half left open (tl_spec_under), a call with
 * nothing of its own below has the first half's frame there as parent
 * (TL_BELOW), and its running clocks start at zero.  Anything else it
 * cannot read alone (an area or context the mapping does not list, a time
 * that decreases while the gross times are not kept, a column to widen)
 * stops it.  The stitch checks every guess against the first half's
 * stacks before it changes anything, replays the guessed events on them,
 * adds the statistics, moves the calls, lines and net times into place and
 * adds the first half's frames to the depths.  When a check fails, this
 * thread indexes the second half itself: the index is the same either way
 * (tests/cli/winidea_index_threads.sh compares them). */

#define TL_SPLIT_MIN_EVENTS (4u << 20) /* a shorter timeline is indexed in one piece */
#define TL_SPLIT_SEEK (1u << 20)       /* events searched for a context switch */
#define TL_SPLIT_SLACK 4096u           /* implicit calls the first half may add */

typedef struct tl_split {
    pthread_t thread;
    atomic_bool stop;
    atomic_size_t done; /* events of the second half indexed (progress) */
    size_t from;        /* its first event */
    int64_t prev;       /* the effective time of event from - 1 (checked) */
    /* where its calls, lines and net times begin in the shared arrays, and
     * their real capacities (the first half sees only up to *_at) */
    size_t call_at, line_at, net_at;
    size_t call_cap, line_cap, net_cap;
    pv_timeline_index ix; /* its index: the shared columns and arrays, copies of the rest */
    tl_pass pass;
    pv_diag diag;
    /* after the stitch: the depths of its events get the first half's
     * frames below them (tl_split_depths, on a thread of its own) */
    pv_timeline_index *whole;
    size_t *below; /* per context: the first half's frames at the split */
    size_t nstack;
    pthread_t depth_thread;
} tl_split;

static void tl_hashmap_copy(pv_hashmap *to, const pv_hashmap *from)
{
    pv_hashmap_init(to);
    for (size_t i = 0; i < from->cap; i++)
        if (from->used[i])
            pv_hashmap_put(to, from->keys[i], from->values[i]);
}

static void *tl_memdup(const void *src, size_t bytes)
{
    void *p = pv_xmalloc(bytes ? bytes : 1);
    if (bytes)
        memcpy(p, src, bytes);
    return p;
}

/* A context switch at or after event `from` (to a CONTEXTS handle): the
 * second half begins there, knowing the running context.  Without a
 * context area every context runs all the time: any event will do. */
static size_t tl_split_point(const tl_pass *p, size_t from, size_t n)
{
    const pv_timeline_index *ix = p->ix;
    if (ix->context_source == PV_TL_CONTEXT_UNKNOWN)
        return from;
    size_t end = n - from > TL_SPLIT_SEEK ? from + TL_SPLIT_SEEK : n;
    for (size_t i = from; i < end; i++) {
        pv_wi_event e;
        pv_wi_event_at(ix->tl, i, &e);
        unsigned type = pv_wi_handle_type(e.handle);
        bool write = (type == PV_WI_VARIABLE || type == PV_WI_AUX) && e.kind == PV_WI_WRITE;
        bool state = tl_is_state_type(type) && e.kind == PV_WI_ENTRY;
        uint32_t c;
        if ((write || state) && tl_state_key(e.handle) == p->context_key &&
            pv_hashmap_get(&p->context_map, e.data, &c) && c < ix->context_count) {
            if (write) {
                uint32_t area;
                if (!pv_hashmap_get(&ix->area_map, e.handle, &area) ||
                    !(ix->areas[area].has_states || ix->areas[area].state_key == p->context_key))
                    continue;
            }
            return i;
        }
    }
    return n;
}

static void *tl_split_run(void *arg)
{
    tl_split *sp = arg;
    (void)pv_timeline_index_advance(&sp->ix, sp->ix.event_count);
    return NULL;
}

/* Frees what the second half owns (the shared arrays stay). */
static void tl_split_free(tl_split *sp)
{
    tl_pass *b = &sp->pass;
    for (size_t c = 0; c < b->stack_cap; c++) {
        free(b->stacks[c].ex);
        free(b->stacks[c].im);
        free(b->stacks[c].im_calls);
    }
    free(b->stacks);
    pv_hashmap_free(&b->state_keys);
    pv_hashmap_free(&b->context_map);
    pv_stats_free(&b->st);
    free(b->under);
    free(b->pops);
    free(b->slots);
    free(b->ph);
    free(b->context_calls);
    pv_timeline_index *bx = &sp->ix;
    pv_hashmap_free(&bx->area_map);
    pv_strpool_free(&bx->pool);
    free(bx->areas);
    free(bx->contexts);
    pv_diag_free(&sp->diag);
    free(sp->below);
    free(sp);
}

/* Waits for the depths of a stitched second half (docs/winidea-model.md
 * "Speed: the timeline in two halves"): nothing reads them before the
 * index is complete. */
static void tl_split_depths_wait(tl_pass *p)
{
    if (!p->depths)
        return;
    pthread_join(p->depths->depth_thread, NULL);
    tl_split_free(p->depths);
    p->depths = NULL;
}

/* Ends the split: the first half's arrays get their whole room back. */
static void tl_split_end(tl_pass *p)
{
    tl_split *sp = p->split;
    p->split = NULL;
    p->call_cap = sp->call_cap;
    p->line_cap = sp->line_cap;
    p->net_cap = sp->net_cap;
    tl_split_free(sp);
}

static void tl_split_cancel(tl_pass *p)
{
    if (!p->split)
        return;
    atomic_store(&p->split->stop, true);
    pthread_join(p->split->thread, NULL);
    tl_split_end(p);
}

/* Whether this advance (events [indexed, n), a whole finish) may split. */
static bool tl_split_allowed(const tl_pass *p, size_t events)
{
    const pv_timeline_index *ix = p->ix;
    const char *env = getenv("PROFVIEW_INDEX_SPLIT");
    bool force = env && strcmp(env, "1") == 0;
    if (!p->split_ok || p->split_ran || (env && strcmp(env, "0") == 0) ||
        !tl_threads_allowed(p, TL_SPLIT_MIN_EVENTS) || events < 2 ||
        (!force && events < TL_SPLIT_MIN_EVENTS))
        return false;
    return (ix->context_source == PV_TL_CONTEXT_AREA ||
            ix->context_source == PV_TL_CONTEXT_UNKNOWN) &&
           !p->cd.active && ix->area_count > 0 && ix->context_count > 0 &&
           ix->context_count < 0xFF && !p->worker;
}

/* Starts the second half when this advance may split; returns where the
 * first half ends (upto when it does not split). */
static size_t tl_split_start(tl_pass *p, size_t upto)
{
    pv_timeline_index *ix = p->ix;
    if (!tl_split_allowed(p, upto - ix->indexed))
        return upto;
    p->split_ran = true;
    /* the second half does a little more per event (tl_spec_under): 51% / 49% */
    size_t from = tl_split_point(p, ix->indexed + (upto - ix->indexed) / 100 * 51, upto);
    if (from <= ix->indexed || from >= upto)
        return upto;
    size_t first = from - ix->indexed, second = upto - from;
    tl_split *sp = pv_xcalloc(1, sizeof *sp);
    sp->from = from;
    /* Room: the first half's calls, lines and net times stay below *_at
     * (it cancels the split if it reaches them), the second half's go
     * from there.  Untouched room costs address space only. */
    sp->call_at = ix->call_count + first + TL_SPLIT_SLACK;
    tl_grow_calls(p, sp->call_at + second + 16);
    sp->call_cap = p->call_cap;
    sp->line_at = ix->line_count + first + TL_SPLIT_SLACK;
    sp->line_cap = sp->line_at + second + 16;
    ix->line_entry = pv_xrealloc(ix->line_entry, sp->line_cap * sizeof *ix->line_entry);
    ix->line_net = pv_xrealloc(ix->line_net, sp->line_cap * sizeof *ix->line_net);
    sp->net_at = p->net_n + ix->call_count + first + TL_SPLIT_SLACK;
    sp->net_cap = sp->net_at + second + 16;
    p->net_call = pv_xrealloc(p->net_call, sp->net_cap * sizeof *p->net_call);
    p->net_val = pv_xrealloc(p->net_val, sp->net_cap * sizeof *p->net_val);
    p->line_cap = sp->line_at;
    p->net_cap = sp->net_at;
    p->call_cap = sp->call_at;

    pv_timeline_index *bx = &sp->ix;
    bx->tl = ix->tl;
    bx->event_count = ix->event_count;
    bx->event_area = ix->event_area;
    bx->event_context = ix->event_context;
    bx->event_depth = ix->event_depth;
    bx->area_wide = ix->area_wide;
    bx->context_wide = ix->context_wide;
    bx->depth_wide = ix->depth_wide;
    bx->pool.data = tl_memdup(ix->pool.data, ix->pool.len);
    bx->pool.len = bx->pool.cap = ix->pool.len;
    bx->areas = tl_memdup(ix->areas, ix->area_count * sizeof *ix->areas);
    bx->area_count = bx->area_cap = ix->area_count;
    tl_hashmap_copy(&bx->area_map, &ix->area_map);
    bx->contexts = tl_memdup(ix->contexts, ix->context_count * sizeof *ix->contexts);
    bx->context_count = bx->context_cap = ix->context_count;
    for (size_t c = 0; c < bx->context_count; c++)
        bx->contexts[c].events = 0;
    bx->context_source = ix->context_source;
    bx->context_area = ix->context_area;
    bx->has_from = ix->has_from;
    bx->has_to = ix->has_to;
    bx->from = ix->from;
    bx->to = ix->to;
    bx->window_first = ix->window_first;
    bx->window_end = ix->window_end;
    bx->time_first = ix->time_first;
    bx->time_last = ix->time_last;
    bx->clip_lo = ix->clip_lo;
    bx->clip_hi = ix->clip_hi;
    bx->call_entry = ix->call_entry + sp->call_at;
    bx->call_exit = ix->call_exit + sp->call_at;
    bx->call_parent = ix->call_parent + sp->call_at;
    bx->call_gross = ix->call_gross ? ix->call_gross + sp->call_at : NULL;
    bx->line_entry = ix->line_entry + sp->line_at;
    bx->line_net = ix->line_net + sp->line_at;
    bx->indexed = from;
    bx->pass = &sp->pass;

    tl_pass *b = &sp->pass;
    b->ix = bx;
    b->d = p->d;
    b->opt = p->opt;
    memset(&b->opt.progress, 0, sizeof b->opt.progress);
    b->o = &b->opt;
    pv_diag_init(&sp->diag);
    b->diag = &sp->diag;
    b->file = p->file;
    pv_stats_init(&b->st, &p->opt, p->st.start, p->st.all_running);
    pv_stats_set_context_count(&b->st, ix->context_count);
    pv_hashmap_init(&b->state_keys);
    tl_hashmap_copy(&b->context_map, &p->context_map);
    memcpy(b->core_context, p->core_context, sizeof b->core_context);
    b->unknown_context = p->unknown_context;
    b->context_key = p->context_key;
    b->call_cap = sp->call_cap - sp->call_at;
    b->line_cap = sp->line_cap - sp->line_at;
    b->store_gross = p->store_gross;
    b->net_call = p->net_call + sp->net_at;
    b->net_val = p->net_val + sp->net_at;
    b->net_cap = sp->net_cap - sp->net_at;
    memset(b->cache_key, 0xFF, sizeof b->cache_key);
    pv_wi_event e;
    pv_timeline_event(ix, from - 1, &e);
    b->prev = sp->prev = e.time;
    b->worker_ran = true;
    b->gap_a = SIZE_MAX;
    b->split_ran = true;
    b->event_room = p->event_room;
    b->spec = true;
    b->spec_split = sp;
    atomic_init(&sp->stop, false);
    atomic_init(&sp->done, 0);
    p->split = sp;
    if (pthread_create(&sp->thread, NULL, tl_split_run, sp) != 0) {
        tl_split_end(p);
        return upto;
    }
    return from;
}

/* The stitch, step 1 (nothing changes yet): whether every guess of the
 * second half holds against the first half as it ended. */
static bool tl_split_check(const tl_pass *p, const tl_split *sp)
{
    const pv_timeline_index *ix = p->ix;
    const tl_pass *b = &sp->pass;
    if (b->spec_fail || atomic_load(&sp->stop) || p->prev != sp->prev ||
        p->store_gross != b->store_gross || ix->depth_wide != sp->ix.depth_wide)
        return false;
    size_t nctx = p->stack_cap;
    size_t *ex_n = pv_xcalloc(nctx + 1, sizeof *ex_n);
    size_t *im_lo = pv_xcalloc(nctx + 1, sizeof *im_lo);
    int32_t *top = pv_xmalloc((p->st.acc_count + 1) * sizeof *top);
    size_t deepest = 0;
    for (size_t c = 0; c < nctx; c++) {
        ex_n[c] = p->stacks[c].ex_n;
        im_lo[c] = p->stacks[c].im_lo;
        size_t size = tl_stack_size(&p->stacks[c]);
        deepest = size > deepest ? size : deepest;
    }
    for (size_t a = 0; a < p->st.acc_count; a++)
        top[a] = p->st.accs[a].top;
    bool ok = ix->depth_wide ||
              (b->spec_max_depth + deepest <= 0xFE && b->spec_max_depth < TL_SLOT_DEPTH);
    /* the guessed events, in order, against the first half's stacks */
    for (size_t k = 0; ok && k < b->under_n; k++) {
        const tl_under *u = &b->under[k];
        uint32_t acc;
        if (u->context >= nctx || !pv_stats_find(&p->st, u->area, u->context, &acc) ||
            top[acc] == PV_STAT_NOT_ON_STACK) {
            ok = false;
            break;
        }
        if (u->kind != PV_WI_EXIT)
            continue;
        int32_t code = top[acc];
        size_t c = u->context;
        if (code >= 0 ? (size_t)code + 1 != ex_n[c]
                      : ex_n[c] != 0 || (size_t)(-(code + 1)) != im_lo[c]) {
            ok = false; /* frames above it: the X would end them with warnings */
            break;
        }
        top[acc] = tl_frame_at(&p->stacks[c], code)->prev_same;
        if (code >= 0)
            ex_n[c]--;
        else
            im_lo[c]++;
    }
    /* an activation of the second half began only once the first half's
     * of the same area and context had ended */
    for (size_t j = 0; ok && j < b->st.acc_count && j < b->spec_acc_cap; j++) {
        const tl_phantom *ph = &b->ph[j];
        const pv_stat_acc *y = &b->st.accs[j];
        uint32_t acc;
        bool found = pv_stats_find(&p->st, y->area, y->context, &acc);
        /* S and R followed here: the frame is its area's only one in the
         * context (before the replay, as at the split) */
        if (ph->used && (!found || p->st.accs[acc].inside_n != 1))
            ok = false;
        if (ph->first_e == TL_NONE)
            continue;
        if (found && top[acc] != PV_STAT_NOT_ON_STACK)
            ok = false;
        if (ph->last_under != TL_NONE && ph->last_under > ph->first_e)
            ok = false;
    }
    free(ex_n);
    free(im_lo);
    free(top);
    return ok;
}

/* A call index of the second half as the whole index numbers it: its own
 * calls follow the first half's; TL_BELOW + k is the frame of the first
 * half k ends below the top of context c's explicit frames (ex0[c] of
 * them at the split), or none. */
static uint32_t tl_split_call(const tl_pass *p, const size_t *ex0, size_t a_calls, uint32_t v,
                              uint16_t c)
{
    if (v == TL_TOP_LEVEL)
        return v;
    if (v < TL_BELOW)
        return v + (uint32_t)a_calls;
    size_t k = v - TL_BELOW;
    if (c >= p->stack_cap || k >= ex0[c])
        return TL_TOP_LEVEL;
    return p->stacks[c].ex[ex0[c] - 1 - k].fn_call;
}

/* Moves n elements of `size` bytes from index `from` to index `to` (<= from)
 * of an array, giving back the pages of the source beyond the array's new
 * end (`end` elements) as it goes: the peak memory stays that of the
 * index. */
static void tl_split_move(void *base, size_t size, size_t from, size_t to, size_t n, size_t end)
{
    const size_t piece = (1u << 20) / size;
    char *b = base;
    for (size_t k = 0; k < n; k += piece) {
        size_t m = n - k < piece ? n - k : piece;
        memmove(b + (to + k) * size, b + (from + k) * size, m * size);
        size_t lo = from + k > end ? from + k : end;
        if (lo < from + k + m)
            pv_release(b + lo * size, (from + k + m - lo) * size);
    }
}

/* A frame of the first half whose S and R the second half followed (its
 * area's only one in context c): its net time grows by `net`, and it is
 * active since `active_run` (the second half's running clock) or not. */
static void tl_split_phantom(tl_pass *p, uint32_t area, uint16_t c, bool active, int64_t active_run,
                             int64_t net, const int64_t *base)
{
    uint32_t acc;
    if (!pv_stats_find(&p->st, area, c, &acc))
        return; /* checked: never */
    pv_stat_acc *a = &p->st.accs[acc];
    tl_frame *f = tl_frame_at(&p->stacks[c], a->top);
    int64_t r = active_run + (p->st.all_running ? 0 : base[c]);
    f->sf.net += net;
    a->net += net;
    if (active) {
        if (!f->sf.active)
            a->active_n++;
        f->sf.active = true;
        f->sf.active_run = r;
        a->active_run0 = r;
    } else if (f->sf.active) {
        f->sf.active = false;
        a->active_n--;
    }
}

/* The stitch, step 3, beside the rest of the finish (which reads no depth):
 * the depths of the second half's events.  Each gets the first half's
 * frames below it, fewer after each X that ended one; an S or R followed on
 * a phantom frame gets that frame's depth. */
static void tl_split_depths_wide(tl_split *sp)
{
    pv_timeline_index *ix = sp->whole;
    const tl_pass *b = &sp->pass;
    size_t n = ix->event_count, nstack = sp->nstack;
    size_t *below = sp->below;
    size_t u = 0;
    for (size_t i = sp->from; i < n; i++) {
        uint16_t c = pv_tl_event_context(ix, i);
        if (c == PV_TL_NO_CONTEXT)
            continue;
        if (u < b->under_n && b->under[u].event == i) {
            if (b->under[u].kind == PV_WI_EXIT)
                below[c]--;
            u++;
            continue;
        }
        if (c < nstack && below[c] > 0) {
            uint16_t *d = (uint16_t *)ix->event_depth + i;
            *d = tl_depth16((size_t)*d + below[c]);
        }
    }
}

/* Row c of the depth table: a depth of the second half's own plus the
 * first half's frames below (phantom slots stay as they are). */
static void tl_split_depth_row(uint8_t *row, size_t below)
{
    for (unsigned d = 0; d < TL_SLOT_DEPTH; d++)
        row[d] = (uint8_t)(d + below);
}

static void *tl_split_depths(void *arg)
{
    tl_split *sp = arg;
    pv_timeline_index *ix = sp->whole;
    if (ix->depth_wide) {
        tl_split_depths_wide(sp);
        return NULL;
    }
    const tl_pass *b = &sp->pass;
    size_t n = ix->event_count, nstack = sp->nstack;
    size_t *below = sp->below;
    /* table[context][depth written] = the depth (context 0xFF: data
     * events, kept), rewritten at each event of `under` */
    uint8_t(*table)[256] = pv_xmalloc(256 * sizeof *table);
    for (unsigned c = 0; c < 256; c++) {
        for (unsigned d = 0; d < 256; d++)
            table[c][d] = (uint8_t)d;
        if (c < nstack && c != 0xFF)
            tl_split_depth_row(table[c], below[c]);
    }
    size_t *phantom_depth = pv_xcalloc(b->spec_acc_cap + 1, sizeof *phantom_depth);
    const uint8_t *ctx = ix->event_context;
    uint8_t *dep = ix->event_depth;
    size_t i = sp->from;
    for (size_t u = 0;; u++) {
        size_t end = u < b->under_n ? b->under[u].event : n;
        for (; i < end; i++) {
            uint8_t d = table[ctx[i]][dep[i]];
            if (d == TL_PHANTOM_DEPTH && ctx[i] != 0xFF) { /* a phantom with no slot */
                uint32_t acc = 0;
                (void)pv_stats_find(&b->st, pv_tl_event_area(ix, i), ctx[i], &acc);
                d = (uint8_t)phantom_depth[acc];
            }
            dep[i] = d;
        }
        if (u >= b->under_n)
            break;
        const tl_under *x = &b->under[u];
        i = x->event + 1; /* its depth is the replay's */
        if (x->kind == PV_WI_EXIT) {
            below[x->context]--;
            tl_split_depth_row(table[x->context], below[x->context]);
        } else {
            phantom_depth[x->acc] = x->depth;
            if (x->slot != TL_NO_SLOT)
                table[x->context][TL_SLOT_DEPTH + x->slot] = (uint8_t)x->depth;
        }
    }
    free(phantom_depth);
    free(table);
    return NULL;
}

/* The stitch, step 2: the second half's events become the index's. */
static void tl_split_stitch(tl_pass *p, tl_split *sp)
{
    pv_timeline_index *ix = p->ix;
    pv_timeline_index *bx = &sp->ix;
    tl_pass *b = &sp->pass;
    size_t n = ix->event_count;
    size_t nstack = p->stack_cap;
    size_t *below = pv_xcalloc(nstack + 1, sizeof *below);
    size_t *ex0 = pv_xcalloc(nstack + 1, sizeof *ex0);
    for (size_t c = 0; c < nstack; c++) {
        below[c] = tl_stack_size(&p->stacks[c]);
        ex0[c] = p->stacks[c].ex_n;
    }
    /* the running clocks at the split */
    pv_wi_event e;
    pv_timeline_event(ix, sp->from, &e);
    int64_t t0 = e.time < p->prev ? p->prev : e.time;
    size_t nrun = p->st.run_count;
    int64_t *base = pv_xcalloc(nrun + 1, sizeof *base);
    for (size_t c = 0; c < nrun && !p->st.all_running; c++)
        base[c] = pv_stats_run(&p->st, (uint16_t)c, t0);

    /* the guessed events, on the first half's frames */
    for (size_t k = 0; k < b->under_n; k++) {
        tl_under *u = &b->under[k];
        p->i = u->event;
        p->time = u->time;
        if (!p->st.all_running) {
            p->st.running = PV_TL_NO_CONTEXT;
            p->st.run[u->context] = base[u->context] + u->run;
        }
        if (u->known)
            tl_split_phantom(p, u->area, u->context, u->active, u->active_run, u->net, base);
        size_t depth = tl_stack_event_replay(p, u->area, u->context, u->kind);
        u->depth = depth;
        if (ix->depth_wide)
            ((uint16_t *)ix->event_depth)[u->event] = tl_depth16(depth);
        else
            ((uint8_t *)ix->event_depth)[u->event] = (uint8_t)depth;
    }
    /* the frames whose S and R the second half followed, as they are at the end */
    for (size_t j = 0; j < b->spec_acc_cap && j < b->st.acc_count; j++) {
        const tl_phantom *ph = &b->ph[j];
        if (ph->known && ph->used)
            tl_split_phantom(p, b->st.accs[j].area, b->st.accs[j].context, ph->active,
                             ph->active_run, ph->net, base);
    }
    uint32_t *acc_map = pv_stats_merge(&p->st, &b->st, base);

    /* calls, lines and net times into place */
    size_t a_calls = ix->call_count, b_calls = bx->call_count;
    size_t end = a_calls + b_calls;
    for (size_t k = 0; k < b_calls; k++) {
        uint32_t v = bx->call_parent[k];
        if (v < TL_BELOW) {
            bx->call_parent[k] = v + (uint32_t)a_calls;
        } else if (v != TL_TOP_LEVEL) {
            uint16_t c = pv_tl_event_context(ix, bx->call_entry[k] & ~PV_TL_IMPLICIT_CALL);
            bx->call_parent[k] = tl_split_call(p, ex0, a_calls, v, c);
        }
    }
    p->gap_a = a_calls; /* the calls stay where they are: tl_phys */
    p->gap_at = sp->call_at;
    ix->call_count = end;
    size_t a_lines = ix->line_count, b_lines = bx->line_count;
    tl_split_move(ix->line_entry, 4, sp->line_at, a_lines, b_lines, a_lines + b_lines);
    tl_split_move(ix->line_net, 8, sp->line_at, a_lines, b_lines, a_lines + b_lines);
    ix->line_count = a_lines + b_lines;
    for (size_t k = 0; k < b->net_n; k++)
        b->net_call[k] += (uint32_t)a_calls;
    tl_split_move(p->net_call, 4, sp->net_at, p->net_n, b->net_n, p->net_n + b->net_n);
    tl_split_move(p->net_val, 8, sp->net_at, p->net_n, b->net_n, p->net_n + b->net_n);
    p->net_n += b->net_n;

    /* the second half's open frames on top of the first half's */
    for (size_t c = 0; c < b->stack_cap; c++) {
        tl_stack *bs = &b->stacks[c];
        if (bs->ex_n == 0)
            continue;
        tl_frame *fr = pv_xmalloc(bs->ex_n * sizeof *fr);
        for (size_t q = 0; q < bs->ex_n; q++) {
            tl_frame f = bs->ex[q];
            f.acc = acc_map[f.acc];
            /* its X at the end writes where the call is (tl_end_pass) */
            f.call = f.call == TL_TOP_LEVEL ? f.call : f.call + (uint32_t)sp->call_at;
            f.fn_call = tl_split_call(p, ex0, a_calls, f.fn_call, (uint16_t)c);
            f.line = f.line == TL_TOP_LEVEL ? f.line : f.line + (uint32_t)a_lines;
            int64_t off = p->st.all_running || c >= nrun ? 0 : base[c];
            f.sf.entry_run += off;
            f.sf.active_run += off;
            fr[q] = f;
        }
        tl_stack *s = tl_stack_of(p, (uint16_t)c);
        size_t off = s->ex_n;
        s->ex = pv_xgrow(s->ex, &s->ex_cap, off + bs->ex_n, sizeof *s->ex);
        for (size_t q = 0; q < bs->ex_n; q++) {
            if (fr[q].prev_same >= 0)
                fr[q].prev_same += (int32_t)off;
            s->ex[off + q] = fr[q];
        }
        s->ex_n += bs->ex_n;
        free(fr);
        for (size_t j = 0; j < b->st.acc_count; j++)
            if (b->st.accs[j].context == c && b->st.accs[j].top >= 0)
                p->st.accs[acc_map[j]].top = b->st.accs[j].top + (int32_t)off;
    }
    free(acc_map);

    for (size_t c = 0; c < bx->context_count; c++)
        ix->contexts[c].events += bx->contexts[c].events;
    p->first_calls = pv_xcalloc(ix->context_count + 1, sizeof *p->first_calls);
    for (size_t c = 0; c < ix->context_count && c < p->context_calls_cap; c++)
        p->first_calls[c] = p->context_calls[c];
    for (size_t c = 0; c < b->context_calls_cap; c++) {
        if (!b->context_calls[c])
            continue;
        if (c >= p->context_calls_cap) {
            size_t old = p->context_calls_cap;
            p->context_calls =
                pv_xgrow(p->context_calls, &p->context_calls_cap, c + 1, sizeof(size_t));
            memset(p->context_calls + old, 0, (p->context_calls_cap - old) * sizeof(size_t));
        }
        p->context_calls[c] += b->context_calls[c];
    }
    p->area_switched |= b->area_switched;
    ix->time_decreased |= bx->time_decreased;
    p->bits.v10_type |= b->bits.v10_type;
    p->bits.v10_low |= b->bits.v10_low;
    p->bits.v11_bad |= b->bits.v11_bad;
    ix->warnings += bx->warnings;
    pv_diag_take(p->diag, &sp->diag);
    p->prev = b->prev;
    p->time = b->time;
    p->i = n - 1;
    free(ex0);
    free(base);
    sp->whole = ix;
    sp->below = below;
    sp->nstack = nstack;
    p->depths = sp;
    if (pthread_create(&sp->depth_thread, NULL, tl_split_depths, sp) != 0) {
        tl_split_depths(sp);
        p->depths = NULL;
        tl_split_free(sp);
    }
}

/* The first half has reached the split: waits for the second, stitches
 * (true) or, when a guess was wrong, leaves the second half to this pass
 * (false). */
static bool tl_split_join(tl_pass *p)
{
    tl_split *sp = p->split;
    pthread_join(sp->thread, NULL);
    p->split = NULL;
    p->call_cap = sp->call_cap;
    p->line_cap = sp->line_cap;
    p->net_cap = sp->net_cap;
    bool ok = tl_split_check(p, sp);
    p->ix->halves = ok;
    if (ok)
        tl_split_stitch(p, sp); /* hands sp to the depths' thread */
    else
        tl_split_free(sp);
    return ok;
}

bool pv_timeline_index_advance(pv_timeline_index *ix, size_t upto)
{
    tl_pass *p = ix->pass;
    if (!p)
        return true; /* complete */
    const pv_wi_timeline *tl = ix->tl;
    size_t n = ix->event_count;
    if (upto > n)
        upto = n;
    pv_wi_event e;
    pv_wi_version_bits bits = p->bits; /* a local: stays in registers */
    size_t end = upto == n ? tl_split_start(p, upto) : upto;
    if (upto > ix->indexed && !p->split)
        tl_worker_start(p, upto - ix->indexed);
    size_t i = ix->indexed;
again:
    for (; i < end; i++) {
        if ((i & 0xFFFF) == 0 && !p->worker) {
            tl_prefault_events(ix, i);
            if (p->split || p->spec) {
                size_t k = n - i < 65536 ? n - i : 65536;
                if (!tl->owned)
                    pv_prefault_read(tl->records + i * PV_WI_RECORD_SIZE, k * PV_WI_RECORD_SIZE);
                if (p->spec) {
                    atomic_store_explicit(&p->spec_split->done, i - p->spec_split->from,
                                          memory_order_relaxed);
                    if (atomic_load_explicit(&p->spec_split->stop, memory_order_relaxed))
                        tl_split_fail(p);
                    /* a failed guess stops it here; until then (at most 64 K
                     * events) every write stays inside its own part */
                    if (p->spec_fail)
                        break;
                }
            }
        }
        pv_wi_version_bits_add(&bits, pv_wi_le32(tl->records + i * PV_WI_RECORD_SIZE + 4));
        pv_wi_event_at(tl, i, &e);
        if (p->cd.active && i >= p->cd.from)
            tl_ctx_detect_event(p, &e);
        p->i = i;
        if (e.time != pv_tl_clamp_time(e.time)) {
            p->time = e.time;
            tl_warn(p, "time beyond +/-2^62 ns; read as %" PRId64, pv_tl_clamp_time(e.time));
            e.time = pv_tl_clamp_time(e.time);
        }
        if (e.time < p->prev) {
            ix->time_decreased = true; /* rows are no longer in time order */
            tl_keep_gross(p);
            p->time = e.time;
            tl_warn(p,
                    "time decreases (previous event at %" PRId64 "); event kept in place, "
                    "timed at %" PRId64 " for the statistics",
                    p->prev, p->prev);
            e.time = p->prev; /* statistics use the non-decreasing effective time */
        }
        p->prev = e.time;
        p->time = e.time;
        unsigned type = pv_wi_handle_type(e.handle);
        bool state = tl_is_state_type(type);
        /* the area: the direct-mapped cache inline, the hash map behind it */
        uint64_t area_key = state ? e.handle | (e.data & 0xFFFFFFFFu) << 32 : e.handle;
        size_t slot =
            (size_t)((area_key * UINT64_C(0x9E3779B97F4A7C15)) >> 54) & (TL_AREA_CACHE - 1);
        uint32_t area = p->cache_key[slot] == area_key ? p->cache_area[slot]
                                                       : tl_lookup_area(p, e.handle, e.data);
        uint16_t ctx = PV_TL_NO_CONTEXT;
        size_t depth = 0;
        if (e.kind > PV_WI_WRITE) {
            tl_warn(p, "unknown event code %u on 0x%08" PRIX32 "; ignored", (unsigned)e.kind,
                    e.handle);
        } else if (type == PV_WI_FUNCTION || type == PV_WI_LINE) {
            if (e.kind == PV_WI_WRITE) {
                tl_warn(p, "W on function/line area 0x%08" PRIX32 "; ignored", e.handle);
            } else {
                ctx = tl_event_context(p, &e);
                ix->contexts[ctx].events++;
                depth = tl_stack_event(p, area, ctx, e.kind);
            }
        } else if (state) {
            /* docs/formats.md §1 TimelineStates: E on the state handle selects the state */
            if (e.kind == PV_WI_ENTRY) {
                if (p->context_key && ix->areas[area].state_key == p->context_key) {
                    pv_stats_switch(&p->st, tl_context_of_value(p, e.data), e.time);
                    p->area_switched = true;
                }
                pv_stats_state(&p->st, ix->areas[area].state_key, area, e.time);
                /* The same write as a W on the variable would be: it counts as a
                 * write of the variable the state belongs to. */
                uint32_t variable = ix->areas[area].parent;
                if (variable != PV_WI_NONE && variable < ix->area_count)
                    pv_stats_write(&p->st, variable, e.time);
            }
        } else {
            /* variables, AUX (and unknown types): every event is a write */
            pv_stats_write(&p->st, area, e.time);
            uint32_t key = ix->areas[area].state_key;
            if (key && e.kind == PV_WI_WRITE &&
                (ix->areas[area].has_states || key == p->context_key)) {
                if (key == p->context_key) {
                    pv_stats_switch(&p->st, tl_context_of_value(p, e.data), e.time);
                    p->area_switched = true;
                }
                uint32_t s = tl_lookup_area(p, key, e.data);
                pv_stats_state(&p->st, key, s, e.time);
            }
        }
        if (ix->area_wide)
            ((uint32_t *)ix->event_area)[i] = area;
        else
            ((uint16_t *)ix->event_area)[i] = (uint16_t)area;
        if (ix->context_wide)
            ((uint16_t *)ix->event_context)[i] = ctx;
        else
            ((uint8_t *)ix->event_context)[i] = (uint8_t)ctx; /* NO_CONTEXT -> 0xFF */
        if (depth > 0xFE && !ix->depth_wide && !(p->spec && depth == TL_PHANTOM_DEPTH))
            tl_widen_depths(p);
        if (ix->depth_wide)
            ((uint16_t *)ix->event_depth)[i] = tl_depth16(depth);
        else
            ((uint8_t *)ix->event_depth)[i] = (uint8_t)depth;
        if ((i & 0xFFFFF) == 0xFFFFF &&
            !pv_progress_step(&p->opt.progress, "indexing timeline",
                              i + 1 + (p->split ? atomic_load(&p->split->done) : 0), n)) {
            tl_split_cancel(p);
            ix->indexed = i + 1;
            p->bits = bits;
            return false;
        }
    }
    if (end < upto) {
        /* the first half is done: the second half stitched on, or indexed here */
        ix->indexed = end;
        p->bits = bits;
        if (p->split && !pv_progress_step(&p->opt.progress, "indexing timeline",
                                          end + atomic_load(&p->split->done), n)) {
            tl_split_cancel(p);
            return false;
        }
        if (p->split && tl_split_join(p))
            i = upto;
        bits = p->bits;
        end = upto;
        goto again;
    }
    ix->indexed = upto;
    p->bits = bits;
    if (upto == n)
        tl_worker_stop(p); /* its work is done: the pass has been everywhere */
    return true;
}

/* "NAME (0xHANDLE)" of the variable (else the state) with state key `key`,
 * or "none". */
static void tl_context_key_label(const tl_pass *p, uint32_t key, char *out, size_t size)
{
    const pv_timeline_index *ix = p->ix;
    uint32_t found = PV_WI_NONE;
    for (size_t a = 0; a < ix->area_count && key; a++)
        if (ix->areas[a].state_key == key &&
            (found == PV_WI_NONE || ix->areas[a].type == PV_WI_VARIABLE ||
             ix->areas[a].type == PV_WI_AUX)) {
            found = (uint32_t)a;
            if (ix->areas[a].type == PV_WI_VARIABLE || ix->areas[a].type == PV_WI_AUX)
                break;
        }
    if (!key)
        snprintf(out, size, "none");
    else if (found == PV_WI_NONE)
        snprintf(out, size, "0x%08" PRIX32, key);
    else
        snprintf(out, size, "%s (0x%08" PRIX32 ")", pv_tl_area_name(ix, found),
                 ix->areas[found].handle);
}

/* Drops the diagnostics added since the pass began (those of a reading that
 * turned out wrong). */
static void tl_diag_rollback(tl_pass *p)
{
    pv_diag *diag = p->diag;
    for (size_t i = p->diag_entries; i < diag->entry_count; i++)
        free(diag->entries[i].text);
    if (diag->entry_count > p->diag_entries)
        diag->entry_count = p->diag_entries;
    diag->warnings = p->diag_warnings;
    diag->errors = p->diag_errors;
}

/* docs/formats.md §2: a BIN version decided over the first records is confirmed
 * by the whole file.  Returns the version to index again with (then *at is
 * the first record that contradicts the early one), or 0 when the early
 * decision stands. */
static int tl_confirm_version(tl_pass *p, size_t *at)
{
    pv_wi_timeline *tl = &p->settle->timeline;
    size_t checked = tl->version_checked;
    if (checked == 0 || checked >= tl->count)
        return 0;
    int early = tl->version;
    int full = pv_wi_version_of_bits(&p->bits);
    tl->version_checked = tl->count;
    if (full == early)
        return 0;
    /* Only here, on a contradiction: find the record that caused it. */
    *at = checked;
    while (*at < tl->count &&
           pv_wi_word_fits_version(pv_wi_le32(tl->records + *at * PV_WI_RECORD_SIZE + 4), early))
        ++*at;
    if (full == 0) {
        pv_warn(p->diag,
                "%s: byte offset %zu (record %zu, word 0x%08" PRIX32 "): not a v1.%d record, "
                "as the first %zu records decided; the records mix both versions, and the "
                "v1.%d reading is kept (--bin-version 1.0|1.1 forces a reading)",
                p->file, *at * PV_WI_RECORD_SIZE, *at,
                pv_wi_le32(tl->records + *at * PV_WI_RECORD_SIZE + 4), early - 10, checked,
                early - 10);
        p->ix->warnings++;
        return 0;
    }
    return full;
}

/* The end of the pass once every event is indexed: confirms the BIN version
 * and the context area (indexing again when the whole file decides
 * otherwise: then complete, 1), ends the frames still open and computes the
 * statistics (0: the calls are left to tl_finish_calls_step).  -1: failed. */
static int tl_end_pass(pv_timeline_index *ix)
{
    tl_pass *p = ix->pass;
    size_t n = ix->event_count;
    size_t at = 0;
    int settled = tl_confirm_version(p, &at);
    bool context_changed = false;
    uint32_t context_key = 0;
    if (!settled && p->cd.active) {
        /* the context area from written values, over every event */
        context_key = tl_ctx_detect_decide(&p->cd);
        context_changed = context_key != p->cd.early;
        p->cd.active = false;
    }
    if (settled || context_changed) {
        /* Everything the index holds depends on the reading and on the
         * contexts: index again, without the warnings of the wrong one. */
        pv_wi_data *d = p->settle;
        pv_diag *diag = p->diag;
        const char *file = p->file;
        pv_tl_options o = p->opt;
        tl_diag_rollback(p);
        if (settled) {
            int early = d->timeline.version;
            pv_warn(diag,
                    "%s: byte offset %zu (record %zu, word 0x%08" PRIX32 "): the file is "
                    "v1.%d, not v1.%d as its first %zu records decided; indexed again as v1.%d",
                    file, at * PV_WI_RECORD_SIZE, at,
                    pv_wi_le32(d->timeline.records + at * PV_WI_RECORD_SIZE + 4), settled - 10,
                    early - 10, PV_WI_BIN_EARLY_RECORDS, settled - 10);
            d->timeline.version = settled;
        } else {
            char early_name[64], full_name[64];
            tl_context_key_label(p, p->cd.early, early_name, sizeof early_name);
            tl_context_key_label(p, context_key, full_name, sizeof full_name);
            pv_warn(diag,
                    "%s: the context area is %s over the whole timeline, not %s as its first "
                    "%zu events decided; indexed again",
                    file, full_name, early_name, PV_WI_BIN_EARLY_RECORDS);
            o.context_decided = true;
            o.context_key = context_key;
        }
        char *context_area = p->context_area_option; /* must outlive begin */
        p->context_area_option = NULL;
        o.context_area = context_area;
        pv_timeline_index_free(ix);
        bool ok = pv_timeline_index_begin(ix, d, &o, diag);
        free(context_area);
        if (!ok || !pv_timeline_index_finish(ix))
            return -1;
        ix->warnings++; /* the warning above, which names the reason */
        return 1;
    }
    ix->time_last = p->prev;
    bool any_core = false;
    for (size_t c = 0; c < 256; c++)
        any_core |= p->core_context[c] != PV_TL_NO_CONTEXT;
    if (ix->context_source == PV_TL_CONTEXT_CORE && !any_core)
        ix->context_source = PV_TL_CONTEXT_UNKNOWN; /* no record carried a core index */
    /* Calls still open at the end of the recording end there (cut: they add
     * to the totals, not to MIN/MAX). */
    p->time = p->prev;
    p->i = n;
    size_t nets = p->net_n;
    for (size_t c = 0; c < p->stack_cap; c++) {
        tl_stack *s = &p->stacks[c];
        while (s->ex_n > 0) {
            tl_end_frame(p, &s->ex[s->ex_n - 1], false, true);
            s->ex_n--;
        }
        while (s->im_lo < s->im_n) {
            tl_end_frame(p, &s->im[s->im_lo], false, true);
            s->im_lo++;
        }
    }
    for (size_t k = nets; k < p->net_n && p->gap_a != SIZE_MAX; k++)
        if (p->net_call[k] >= p->gap_at)
            p->net_call[k] = p->net_call[k] - (uint32_t)p->gap_at + (uint32_t)p->gap_a;
    pv_stats_finish(&p->st, ix, p->prev);
    return 0;
}

int pv_timeline_index_finish_step(pv_timeline_index *ix, size_t budget)
{
    tl_pass *p = ix->pass;
    if (!p)
        return 1;
    size_t n = ix->event_count;
    if (budget == 0)
        budget = 1;
    if (ix->indexed < n) {
        size_t upto = budget >= n - ix->indexed ? n : ix->indexed + budget;
        p->split_ok = budget == SIZE_MAX; /* a whole finish: the time split */
        bool ok = pv_timeline_index_advance(ix, upto);
        p->split_ok = false;
        if (!ok)
            return -1;
        if (budget != SIZE_MAX)
            return 0;
    }
    if (!p->ended) {
        int r = tl_end_pass(ix);
        if (r != 0)
            return r; /* failed, or indexed again (and complete) */
        p->ended = true;
        if (budget != SIZE_MAX)
            return 0;
    }
    if (!tl_finish_calls_step(p, budget))
        return 0;
    tl_free_pass(p);
    free(p);
    ix->pass = NULL;
    ix->complete = true;
    return 1;
}

bool pv_timeline_index_finish(pv_timeline_index *ix)
{
    for (;;) {
        int r = pv_timeline_index_finish_step(ix, SIZE_MAX);
        if (r != 0)
            return r > 0;
    }
}

bool pv_timeline_index_build(pv_timeline_index *ix, pv_wi_data *d, const pv_tl_options *o,
                             pv_diag *diag)
{
    if (!pv_timeline_index_begin(ix, d, o, diag))
        return false;
    if (!pv_timeline_index_finish(ix)) {
        pv_timeline_index_free(ix);
        return false;
    }
    return true;
}

void pv_timeline_index_free(pv_timeline_index *ix)
{
    if (ix->pass) {
        tl_free_pass(ix->pass);
        free(ix->pass);
    }
    pv_hashmap_free(&ix->area_map);
    if (!ix->cache.map) { /* else they are in the cache's mapping */
        free(ix->event_area);
        free(ix->event_context);
        free(ix->event_depth);
        free(ix->call_entry);
        free(ix->call_exit);
        free(ix->call_parent);
        free(ix->call_gross);
        free(ix->net_bits);
        free(ix->net_rank);
        free(ix->net_values);
        free(ix->line_entry);
        free(ix->line_net);
    }
    pv_cache_close(&ix->cache);
    pv_strpool_free(&ix->pool);
    free(ix->areas);
    free(ix->contexts);
    free(ix->context_call_start);
    free(ix->stats);
    memset(ix, 0, sizeof *ix);
}

size_t pv_timeline_index_spans(const pv_timeline_index *ix, pv_span *out, size_t max)
{
    size_t n = 0;
#define TL_SPAN(ptr, bytes)                                                                        \
    do {                                                                                           \
        if ((ptr) && n < max)                                                                      \
            out[n++] = (pv_span){(void *)(ptr), (bytes)};                                          \
    } while (0)
    if (ix->cache.map) {
        TL_SPAN(ix->cache.map, ix->cache.map_size);
        return n;
    }
    size_t events = ix->event_count;
    TL_SPAN(ix->event_area, events * (ix->area_wide ? 4u : 2u));
    TL_SPAN(ix->event_context, events * (ix->context_wide ? 2u : 1u));
    TL_SPAN(ix->event_depth, events * (ix->depth_wide ? 2u : 1u));
    TL_SPAN(ix->call_entry, ix->call_count * sizeof *ix->call_entry);
    TL_SPAN(ix->call_exit, ix->call_count * sizeof *ix->call_exit);
    TL_SPAN(ix->call_parent, ix->call_count * sizeof *ix->call_parent);
    TL_SPAN(ix->call_gross, ix->call_count * sizeof *ix->call_gross);
    TL_SPAN(ix->net_values, ix->net_count * sizeof *ix->net_values);
    TL_SPAN(ix->line_entry, ix->line_count * sizeof *ix->line_entry);
    TL_SPAN(ix->line_net, ix->line_count * sizeof *ix->line_net);
#undef TL_SPAN
    return n;
}

size_t pv_timeline_index_memory(const pv_timeline_index *ix)
{
    size_t bytes = ix->event_count * ((ix->area_wide ? 4u : 2u) + (ix->context_wide ? 2u : 1u) +
                                      (ix->depth_wide ? 2u : 1u));
    bytes += ix->call_count * 3 * sizeof(uint32_t);
    if (ix->call_gross)
        bytes += ix->call_count * sizeof(int64_t);
    if (ix->net_bits)
        bytes += (ix->call_count + 63) / 64 * (sizeof(uint64_t) + sizeof(uint32_t));
    bytes += ix->net_count * sizeof(int64_t);
    bytes += ix->line_count * (sizeof(uint32_t) + sizeof(int64_t));
    bytes += ix->area_count * sizeof(pv_tl_area) + ix->context_count * sizeof(pv_tl_context);
    bytes += ix->stat_count * sizeof(pv_tl_stat_row) + ix->pool.cap;
    return bytes;
}

const pv_tl_stat_row *pv_timeline_find_stat(const pv_timeline_index *ix, uint32_t area,
                                            uint16_t context)
{
    size_t a = 0, b = ix->stat_count;
    while (a < b) { /* rows sorted by area */
        size_t mid = a + (b - a) / 2;
        if (ix->stats[mid].area < area)
            a = mid + 1;
        else
            b = mid;
    }
    for (; a < ix->stat_count && ix->stats[a].area == area; a++)
        if (ix->stats[a].context == context)
            return &ix->stats[a];
    return NULL;
}

/* The text after a leading type prefix ("TSK: name" -> "name"; the prefix
 * is one word), or NULL when there is none. */
static const char *tl_strip_type_prefix(const char *s)
{
    const char *colon = strstr(s, ": ");
    if (!colon || colon == s)
        return NULL;
    for (const char *q = s; q < colon; q++)
        if (*q == ' ')
            return NULL;
    return colon + 2;
}

uint32_t pv_wi_match_context(const pv_wi_data *d, const char *label)
{
    for (size_t c = 0; c < d->context_count; c++)
        if (strcmp(pv_strpool_get(&d->pool, d->contexts[c].name), label) == 0)
            return (uint32_t)c;
    /* docs/formats.md §3: equal after removing a leading type prefix ("TSK: ",
     * "ISR: ") from the label, or (read the other way) from the name */
    const char *bare = tl_strip_type_prefix(label);
    for (size_t c = 0; c < d->context_count; c++) {
        const char *name = pv_strpool_get(&d->pool, d->contexts[c].name);
        if (bare && strcmp(name, bare) == 0)
            return (uint32_t)c;
        const char *bare_name = tl_strip_type_prefix(name);
        if (bare_name && strcmp(bare_name, label) == 0)
            return (uint32_t)c;
    }
    return PV_WI_NONE;
}
