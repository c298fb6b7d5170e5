/*
 * timeline_internal.h - what the files of the timeline index share (private
 * to src/formats/winidea): the pass's state and its parts, the helpers of
 * one file that another calls.  The index is built by one pass
 * (timeline.c) that resolves each event's area and context
 * (timeline_areas.c), runs the call stacks (timeline_stack.h, inlined into
 * the pass's loop), is helped by a thread that maps memory ahead of it
 * (timeline_worker.c) and may run its second half on another thread
 * (timeline_split.c); finishing orders the calls (timeline_calls.c); the
 * line sweep reads the result (timeline_lines.c).
 */
#ifndef PROFVIEW_TIMELINE_INTERNAL_H
#define PROFVIEW_TIMELINE_INTERNAL_H

#include "formats/winidea/timeline.h"

#include <pthread.h>
#include <stdatomic.h>

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

/* The state of a pass, one field a line, each with how the stitch of a
 * pass in two halves (timeline_split.c) merges the second half's (b) into
 * the first half's (p), so that a field cannot be added without saying so:
 *   FIRST   the first half's stands: setup that both halves share, or state
 *           of the first half alone;
 *   SECOND  the second half's own guesses: the stitch reads them, nothing
 *           is merged;
 *   OR      p->f |= b->f;   LAST  p->f = b->f (the second half ends later);
 *   BITS    every bit of the BIN version (pv_wi_version_bits_or);
 *   STEP    merged by the named step of the stitch (it must exist).
 * X(type, name, array dimensions, kind, step) */
#define TL_PASS_FIELDS(X)                                                                          \
    /* The pass and what it reads: the second half gets its own copies (tl_split_start). */        \
    X(pv_timeline_index *, ix, , FIRST,)                                                           \
    X(const pv_wi_data *, d, , FIRST,)                                                             \
    X(pv_wi_data *, settle, , FIRST,) /* = d: finish may settle its BIN version */                 \
    X(char *, context_area_option, , FIRST,) /* a copy, for indexing again after settling */       \
    X(pv_wi_version_bits, bits, , BITS,) /* of every record (docs/formats.md §2) */                \
    X(tl_ctx_detect, cd, , FIRST,) /* context-area detection (no split then) */                    \
    X(size_t, diag_entries, , FIRST,) /* diag at begin */                                          \
    X(size_t, diag_warnings, , FIRST,)                                                             \
    X(size_t, diag_errors, , FIRST,)                                                               \
    X(pv_tl_options, opt, , FIRST,) /* a copy: the pass may outlive the caller's options */        \
    X(const pv_tl_options *, o, , FIRST,) /* = &opt */                                             \
    X(pv_diag *, diag, , FIRST,) /* each half's own (the stitch takes b's) */                      \
    X(const char *, file, , FIRST,)                                                                \
    X(pv_stats, st, , STEP, pv_stats_merge) /* the statistics */                                   \
    X(pv_hashmap, state_keys, , FIRST,) /* state keys that the mapping lists states for */         \
    X(pv_hashmap, context_map, , FIRST,) /* CONTEXTS handle -> context */                          \
    X(tl_stack *, stacks, , STEP, tl_stitch_stacks) /* per context */                              \
    X(size_t, stack_cap, , STEP, tl_stitch_stacks)                                                 \
    X(uint16_t, core_context, [256], FIRST,) /* core contexts: never split */                      \
    X(uint16_t, unknown_context, , FIRST,) /* a new one stops the second half */                   \
    X(uint32_t, context_key, , FIRST,) /* state key of the context area, 0 = none */               \
    X(bool, area_switched, , OR,) /* the context area has switched the running context */          \
    X(size_t, call_cap, , STEP, tl_split_join) /* room of the call arrays */                       \
    X(size_t *, context_calls, , STEP, tl_stitch_context_calls) /* per context: calls made */      \
    X(size_t, context_calls_cap, , STEP, tl_stitch_context_calls)                                  \
    X(size_t, line_cap, , STEP, tl_split_join) /* room of the line arrays */                       \
    X(bool, store_gross, , FIRST,) /* ix->call_gross is kept */                                    \
    /* Calls whose net differs from their gross: (call, net), in the order they ended; */          \
    /* finishing places them (FC_NET*). */                                                         \
    X(uint32_t *, net_call, , STEP, tl_stitch_calls)                                               \
    X(int64_t *, net_val, , STEP, tl_stitch_calls)                                                 \
    X(size_t, net_n, , STEP, tl_stitch_calls)                                                      \
    X(size_t, net_cap, , STEP, tl_split_join)                                                      \
    /* A direct-mapped cache in front of area_map: a nested call pattern alternates handles, */    \
    /* so "the last handle" alone rarely hits. */                                                  \
    X(uint64_t, cache_key, [TL_AREA_CACHE], FIRST,)                                                \
    X(uint32_t, cache_area, [TL_AREA_CACHE], FIRST,)                                               \
    X(size_t, i, , STEP, tl_split_stitch) /* the event being processed */                          \
    X(int64_t, time, , LAST,) /* its (effective) time */                                           \
    X(int64_t, prev, , LAST,) /* the previous event's effective time */                            \
    /* Finishing in steps (pv_timeline_index_finish_step): the end of the pass is done */          \
    /* (ended), then tl_finish_calls_step goes through its phases, fc_k being the next call of */  \
    /* the current one.  Finishing in steps gives big blocks back a few MB per step (their */      \
    /* pages first, then free: docs/winidea-model.md "Incremental indexing"); a finish in one */   \
    /* piece frees them at once (fc_stepped). */                                                   \
    X(bool, ended, , FIRST,)                                                                       \
    X(int, fc_phase, , FIRST,)                                                                     \
    X(size_t, fc_k, , FIRST,)                                                                      \
    X(size_t, fc_c, , FIRST,)                                                                      \
    X(size_t, fc_inner, , FIRST,)                                                                  \
    X(size_t, fc_array, , FIRST,) /* FC_PERMUTE / FC_COPY: the array (tl_call_arrays) */           \
    X(bool, fc_in_context, , FIRST,)                                                               \
    X(size_t *, fc_start, , FIRST,)                                                                \
    X(size_t *, fc_fill, , FIRST,)                                                                 \
    X(uint32_t *, fc_pos, , FIRST,)                                                                \
    X(int64_t *, fc_scratch, , FIRST,)                                                             \
    X(bool, fc_stepped, , FIRST,)                                                                  \
    X(pv_trash, trash, , FIRST,)                                                                   \
    X(tl_worker *, worker, , FIRST,) /* the helper thread of a long pass, or NULL */               \
    X(bool, worker_ran, , FIRST,) /* it has been started once (never again) */                     \
    X(size_t, event_room, , FIRST,) /* room of the per-event columns */                            \
    /* The time split (docs/winidea-model.md "Speed: the timeline in two halves").  In the */      \
    /* first half's pass: */                                                                       \
    X(bool, split_ok, , FIRST,) /* this advance is a whole finish: it may split */                 \
    X(bool, split_ran, , FIRST,) /* tried once (never again) */                                    \
    X(struct tl_split *, split, , FIRST,) /* the second half, running beside, or NULL */           \
    X(struct tl_split *, depths, , FIRST,) /* a stitched half, depths to fix */                    \
    /* After a stitch the calls [gap_a, call_count) lie at gap_at on in the arrays (no copy: */    \
    /* the finish's permutation reads them there, tl_phys); gap_a is SIZE_MAX otherwise. */        \
    X(size_t, gap_a, , STEP, tl_stitch_calls)                                                      \
    X(size_t, gap_at, , STEP, tl_stitch_calls)                                                     \
    X(size_t *, first_calls, , STEP, tl_stitch_context_calls) /* per context: the first half's */  \
    /* In the second half's pass (spec): what it could not know, and why its reading may be */     \
    /* wrong (spec_fail: it stops, the first half's pass indexes its events again). */             \
    X(bool, spec, , SECOND,)                                                                       \
    X(bool, spec_fail, , SECOND,)                                                                  \
    X(struct tl_split *, spec_split, , SECOND,)                                                    \
    X(struct tl_under *, under, , SECOND,) /* events on the first half's frames */                 \
    X(size_t, under_n, , SECOND,)                                                                  \
    X(size_t, under_cap, , SECOND,)                                                                \
    X(size_t *, pops, , SECOND,) /* per context: frames of the first half its X ended */           \
    X(uint8_t *, slots, , SECOND,) /* per context: the phantom slots in use (a bit each) */        \
    X(size_t, pops_cap, , SECOND,)                                                                 \
    X(struct tl_phantom *, ph, , SECOND,) /* per accumulator (tl_spec_under, tl_stitch_replay) */  \
    X(size_t, spec_acc_cap, , SECOND,)                                                             \
    X(size_t, spec_max_depth, , SECOND,) /* the deepest local stack at an E */

#define TL_PASS_FIELD(type, name, dims, kind, step) type name dims;
struct pv_tl_pass {
    TL_PASS_FIELDS(TL_PASS_FIELD)
};
#undef TL_PASS_FIELD
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

static inline bool tl_is_state_type(unsigned type)
{
    return type == PV_WI_STATE || type == PV_WI_AUX_STATE;
}

/* Marks the second half's reading as wrong (it stops at this event);
 * always true. */
static inline bool tl_split_fail(tl_pass *p)
{
    p->spec_fail = true;
    return true;
}

/* Where call k is in the arrays (see gap_a). */
static inline size_t tl_phys(const tl_pass *p, size_t k)
{
    return k < p->gap_a ? k : k - p->gap_a + p->gap_at;
}

/* timeline_worker.c */
void *tl_big_alloc(size_t bytes);
void *tl_big_realloc(void *ptr, size_t old_bytes, size_t bytes);
void tl_prefault_events(pv_timeline_index *ix, size_t i);
void tl_prefault_calls(pv_timeline_index *ix, size_t c, size_t cap);
bool tl_threads_allowed(const tl_pass *p, size_t events);
void tl_worker_start(tl_pass *p, size_t events);
void tl_worker_stop(tl_pass *p);

/* timeline.c */
void tl_warn(tl_pass *p, const char *fmt, ...) PV_PRINTF(2, 3);
void tl_widen_areas(tl_pass *p);
void tl_widen_contexts(tl_pass *p);
void tl_free_pass_state(tl_pass *p);
int tl_end_pass(pv_timeline_index *ix);

/* timeline_areas.c */
uint32_t tl_state_key(uint32_t handle);
void tl_init_areas(tl_pass *p);
uint32_t tl_lookup_area(tl_pass *p, uint32_t handle, uint64_t value);
uint16_t tl_add_context(tl_pass *p, bool has_handle, uint64_t handle, const char *name);
uint16_t tl_unknown_context(tl_pass *p);
uint16_t tl_context_of_value(tl_pass *p, uint64_t value);
void tl_ctx_detect_event(tl_pass *p, const pv_wi_event *e);
uint32_t tl_ctx_detect_decide(const tl_ctx_detect *cd);
void tl_ctx_detect_free(tl_ctx_detect *cd);
uint32_t tl_find_context_area(tl_pass *p);
void tl_setup_contexts(tl_pass *p);
void tl_context_key_label(const tl_pass *p, uint32_t key, char *out, size_t size);

/* timeline_calls.c */
bool tl_finish_calls_step(tl_pass *p, size_t budget);

/* timeline_split.c */
void tl_split_depths_wait(tl_pass *p);
void tl_split_cancel(tl_pass *p);
size_t tl_split_start(tl_pass *p, size_t upto);
bool tl_split_join(tl_pass *p);

#endif
