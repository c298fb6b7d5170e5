/*
 * timeline.h - the winIDEA timeline index (docs/formats.md §3): areas, contexts,
 * per-context call stacks, event depths, reconstructed calls and the exact
 * statistics, built in one pass over the 24-byte event records.
 *
 * Memory per event: area, context and depth, each as narrow as its values
 * allow (2 + 1 + 1 = 4 bytes, widened when a value needs it); per
 * reconstructed function call 12 bytes (entry, exit, parent), plus its gross
 * time only where it cannot be read from the records, plus its net time only
 * where it differs from the gross (docs/winidea-model.md "Memory").
 * The records themselves stay where they are (mapped BIN or text-built).
 */
#ifndef PROFVIEW_TIMELINE_H
#define PROFVIEW_TIMELINE_H

#include "formats/winidea/winidea.h"
#include "profview/cache.h"

/* The version of the index's layout and meaning: a cached index of another
 * version is never read (docs/cache.md).  Raise it with any change to what
 * the index holds or how it is computed. */
#define PV_TL_INDEX_VERSION 4u

#define PV_TL_NO_CONTEXT UINT16_MAX    /* data/AUX events, data statistics rows */
#define PV_TL_NEUTRAL (UINT16_MAX - 1) /* the Neutral statistics row of an area */
#define PV_TL_MAX_CONTEXTS 60000u
#define PV_TL_IMPLICIT_CALL 0x80000000u /* bit of call_entry: an implicit frame */
#define PV_TL_OPEN UINT32_MAX           /* call_exit of a call still open at the end */
#define PV_TL_MAX_EVENTS 0x7FFFFFF0u    /* event indices are stored in 31 bits */

/* One area as the index knows it: a mapping row, or an implicit entry for a
 * handle (or state value) that the mapping does not list. */
typedef struct pv_tl_area {
    uint32_t handle;
    uint8_t type;    /* top nibble of the handle (pv_wi_area_type; > 5 unknown) */
    bool implicit;   /* not in the mapping: named by its hex handle */
    bool has_states; /* a variable whose states the mapping lists: writes select them */
    bool has_value;
    bool value_f64;     /* the mapping's VALUE.TYPE is F64: written DATA is an IEEE double
                           (docs/formats.md §2); state values stay integers */
    uint64_t value;     /* line number / state value */
    uint32_t data_area; /* index into pv_wi_data.areas, PV_WI_NONE when implicit */
    uint32_t parent;    /* index area of the function of a line / variable of a state */
    uint32_t name;      /* display name, offset in the index pool */
    uint32_t state_key; /* variables and states: the state handle (3/5xxxxxxx) they share */
} pv_tl_area;

/* An event whose time is earlier than the one before (a warning): the time
 * the statistics took for it, the one before (docs/winidea-model.md "The
 * index", effective time). */
typedef struct pv_tl_late {
    uint32_t event;
    int64_t time;
} pv_tl_late;

typedef enum pv_tl_context_source {
    PV_TL_CONTEXT_TEXT = 1,    /* %CONTEXT% of the TIMELINE section */
    PV_TL_CONTEXT_AREA = 2,    /* a context area (state variable holding CONTEXTS handles) */
    PV_TL_CONTEXT_CORE = 3,    /* v1.1 core index: "core N" */
    PV_TL_CONTEXT_UNKNOWN = 4, /* the single context "Unknown" */
} pv_tl_context_source;

typedef struct pv_tl_context {
    bool has_handle;
    uint64_t handle; /* CONTEXTS handle (or core number for core contexts) */
    uint32_t name;   /* index pool */
    uint64_t events; /* function/line events attributed to it */
} pv_tl_context;

/* One statistics row (docs/formats.md §3), values in PV_WI_STATS order. */
typedef struct pv_tl_stat_row {
    uint32_t area;    /* index area */
    uint16_t context; /* context index, PV_TL_NEUTRAL, or PV_TL_NO_CONTEXT (data) */
    int64_t count;
    int64_t t[PV_WI_STAT_COUNT];
} pv_tl_stat_row;

typedef struct pv_tl_options {
    const char *context_area; /* name or hex handle, or NULL: detect */
    bool has_from, has_to;
    int64_t from, to; /* inclusive window */
    pv_progress progress;
    const char *file; /* for messages */
    /* Set by the index itself when it indexes again (timeline.c): the
     * context-area state key decided over the whole timeline (0 = none).
     * Callers leave both zero. */
    bool context_decided;
    uint32_t context_key;
    /* 0: the timeline is complete.  Else it is still being read (a Text1
     * file indexed while it is parsed, docs/winidea-input.md "Reading and
     * indexing at once"): the per-event arrays have room for this many
     * events, the events so far are indexed as they come
     * (pv_timeline_index_grow), and there is no window (has_from, has_to). */
    size_t event_capacity;
    /* Index on this thread alone (docs/winidea-model.md "Speed"; the tests
     * compare it with the default, as the test option index-threads=1 does). */
    bool single_thread;
    /* Keep every call's gross time even where the records give it (the
     * tests compare both). */
    bool keep_gross;
    /* The tests' switches (core.h): index-threads, index-split. */
    pv_test_options test;
} pv_tl_options;

/* The index, one field a line, each with how the stitch of a pass in two
 * halves (timeline_split.c, docs/winidea-model.md "Speed: the timeline in
 * two halves") merges the second half's index (b) into the first half's
 * (ix), as TL_PASS_FIELDS does for the pass, so that a field cannot be
 * added without saying so:
 *   FIRST   the first half's stands: shared by both halves (the second half
 *           writes into the first half's arrays, and stops rather than
 *           widen them or add an area or a context), or made after the
 *           stitch (the end of the pass, the finish);
 *   OR      ix->f |= b->f;   ADD  ix->f += b->f;
 *   STEP    merged by the named step of the stitch (it must exist).
 * X(type, name, array dimensions, kind, step) */
#define PV_TL_INDEX_FIELDS(X)                                                                      \
    X(const pv_wi_timeline *, tl, , FIRST,)                                                        \
    X(size_t, event_count, , FIRST,)                                                               \
    /* Per event, read through pv_tl_event_area/_context/_depth: the index area (u16, u32 */       \
    /* once an area index needs it), the context (u8 with 0xFF = PV_TL_NO_CONTEXT, u16 once */     \
    /* 255 contexts exist; PV_TL_NO_CONTEXT for data/AUX) and the docs/formats.md §3 depth */      \
    /* (u8, u16 once a depth exceeds 254; saturated at 65535). */                                  \
    X(void *, event_area, , FIRST,)                                                                \
    X(void *, event_context, , FIRST,)                                                             \
    X(void *, event_depth, , FIRST,)                                                               \
    X(bool, area_wide, , FIRST,)                                                                   \
    X(bool, context_wide, , FIRST,)                                                                \
    X(bool, depth_wide, , FIRST,)                                                                  \
    X(pv_strpool, pool, , FIRST,)                                                                  \
    X(pv_tl_area *, areas, , FIRST,)                                                               \
    X(size_t, area_count, , FIRST,)                                                                \
    X(size_t, area_cap, , FIRST,)                                                                  \
    X(pv_hashmap, area_map, , FIRST,) /* handle (| state value << 32) -> index area */             \
    X(pv_tl_context *, contexts, , STEP, tl_stitch_context_events) /* their events add up */     \
    X(size_t, context_count, , FIRST,)                                                             \
    X(size_t, context_cap, , FIRST,)                                                               \
    X(pv_tl_context_source, context_source, , FIRST,)                                              \
    X(uint32_t, context_area, , FIRST,) /* index area of the context variable, PV_WI_NONE */      \
    X(bool, has_from, , FIRST,)                                                                    \
    X(bool, has_to, , FIRST,)                                                                      \
    X(int64_t, from, , FIRST,)                                                                     \
    X(int64_t, to, , FIRST,)                                                                       \
    /* events with from <= time <= to: [window_first, window_end) */                               \
    X(size_t, window_first, , FIRST,)                                                              \
    X(size_t, window_end, , FIRST,)                                                                \
    X(int64_t, time_first, , FIRST,) /* recording start */                                         \
    X(int64_t, time_last, , FIRST,) /* and end (the end of the pass) */                            \
    /* Reconstructed function calls (type-0 areas), grouped by context; within a context */        \
    /* implicit frames first (outermost first), then calls in entry order: that is pre-order */    \
    /* of each context's call tree. */                                                             \
    X(size_t, call_count, , STEP, tl_stitch_calls)                                                 \
    /* event index (| PV_TL_IMPLICIT_CALL: the event that revealed it) */                          \
    X(uint32_t *, call_entry, , FIRST,)                                                            \
    X(uint32_t *, call_exit, , FIRST,) /* event index of the X (or the mismatching one), OPEN */   \
    X(uint32_t *, call_parent, , FIRST,) /* call index, PV_TL_OPEN at the top */                   \
    /* Net and gross time of a call within the range: pv_timeline_call_net, */                     \
    /* pv_timeline_call_gross.  call_gross is NULL when every context runs all the time: the */    \
    /* gross time is then the clipped difference of the effective times of the entry and the */    \
    /* exit (their records', or late's).  The net time is kept only for the calls whose net */     \
    /* differs from their gross (a bit per call, a rank per 64 calls, the values in call order). */ \
    X(int64_t *, call_gross, , FIRST,)                                                             \
    X(uint64_t *, net_bits, , FIRST,) /* (call_count + 63) / 64 words */                           \
    X(uint32_t *, net_rank, , FIRST,) /* per word: the set bits before it */                       \
    X(int64_t *, net_values, , FIRST,) /* net_count */                                             \
    X(size_t, net_count, , FIRST,)                                                                 \
    X(int64_t, clip_lo, , FIRST,) /* the range the statistics clip to (docs/formats.md §3) */      \
    X(int64_t, clip_hi, , FIRST,)                                                                  \
    X(size_t *, context_call_start, , FIRST,) /* context_count + 1 offsets into the calls */       \
    /* Activations of line areas (docs/flame.md "winIDEA line areas"), in the order they */        \
    /* began: the E, or for an implicit frame the event that revealed it */                        \
    /* (| PV_TL_IMPLICIT_CALL); the net time of each within the range (as a call's). */            \
    /* pv_timeline_line_parents places them. */                                                    \
    X(size_t, line_count, , STEP, tl_stitch_calls)                                                 \
    X(uint32_t *, line_entry, , STEP, tl_stitch_calls)                                             \
    X(int64_t *, line_net, , STEP, tl_stitch_calls)                                                \
    X(pv_tl_stat_row *, stats, , FIRST,) /* sorted by area, then context, Neutral last */          \
    X(size_t, stat_count, , FIRST,)                                                                \
    X(size_t, warnings, , ADD,)                                                                    \
    /* Incremental indexing: events [0, indexed) have their area, context and depth; calls, */     \
    /* statistics and time_last exist once complete. */                                            \
    X(size_t, indexed, , FIRST,)                                                                   \
    X(bool, complete, , FIRST,)                                                                    \
    X(struct pv_tl_pass *, pass, , FIRST,) /* the pass in progress (timeline.c), or NULL */        \
    X(bool, time_decreased, , OR,) /* an event of [0, indexed) is earlier than the one before */   \
    /* those events, in event order, with their effective time (the gross times read it) */        \
    X(pv_tl_late *, late, , STEP, tl_stitch_late)                                                  \
    X(size_t, late_count, , STEP, tl_stitch_late)                                                  \
    /* The pass indexed its second half on another thread and stitched it on */                    \
    /* (docs/winidea-model.md "Speed: the timeline in two halves"); the index is the same. */     \
    X(bool, halves, , FIRST,)                                                                      \
    /* Restored from the index cache (src/formats/winidea/cache.c): the per-event, call and */     \
    /* line arrays point into this mapping. */                                                     \
    X(pv_cache_entry, cache, , FIRST,)

#define PV_TL_INDEX_FIELD(type, name, dims, kind, step) type name dims;
typedef struct pv_timeline_index {
    PV_TL_INDEX_FIELDS(PV_TL_INDEX_FIELD)
} pv_timeline_index;
#undef PV_TL_INDEX_FIELD

/* Incremental form of pv_timeline_index_build, so that a first screen of
 * events needs only a prefix of the pass: begin sets up areas, contexts and
 * the window (window_first/window_end by binary search over the times);
 * advance indexes the events up to `upto` (exclusive); finish indexes the
 * rest and computes the calls and statistics.  advance/finish return false
 * when cancelled through the options' progress (the index then stays
 * incomplete; free it).  `d` and `diag` must outlive the index. */
bool pv_timeline_index_begin(pv_timeline_index *ix, pv_wi_data *d, const pv_tl_options *o,
                             pv_diag *diag);
bool pv_timeline_index_advance(pv_timeline_index *ix, size_t upto);
/* finish also confirms a BIN version detected over the first records only
 * (d->timeline.version_checked < count, docs/formats.md §2) with the bits its
 * pass gathered from every record; when the whole file decides otherwise it
 * settles d->timeline.version, drops the warnings of the wrong reading,
 * warns (naming the byte offset of the first record that contradicts) and
 * indexes again.  When no version fits the whole file, the early reading is
 * kept with a warning. */
bool pv_timeline_index_finish(pv_timeline_index *ix);
/* For every line activation (complete index), the function call it runs
 * in: the innermost call of its context open at its E (an implicit line
 * frame: the innermost implicit call found after it, which lies below it),
 * or PV_TL_OPEN when there is none.
 * One pass over the lines and calls; `out` has line_count entries. */
void pv_timeline_line_parents(const pv_timeline_index *ix, uint32_t *out);
/* The same in steps, lines in order: `step` fills out[done .. upto). */
typedef struct pv_tl_line_sweep {
    size_t done;
    size_t *next, *first; /* per context: the next call to pass, the first explicit one */
} pv_tl_line_sweep;
void pv_timeline_line_sweep_begin(const pv_timeline_index *ix, pv_tl_line_sweep *sw);
void pv_timeline_line_sweep_step(const pv_timeline_index *ix, pv_tl_line_sweep *sw, size_t upto,
                                 uint32_t *out);
void pv_timeline_line_sweep_end(pv_tl_line_sweep *sw);
/* finish in steps of about `budget` events or calls of work (a viewer calls
 * it between key presses): 1 when complete, 0 when there is more to do, -1
 * when cancelled or failed.  Indexing again after settling the BIN version
 * or the context area (see finish) happens in one step. */
int pv_timeline_index_finish_step(pv_timeline_index *ix, size_t budget);

/* Builds the index over d's timeline, areas and contexts, with the
 * statistics over the window of `o` (docs/formats.md §3).  Warnings (mismatched X,
 * decreasing times, unknown event codes, ...) go to `diag`, each naming the
 * event index and time.  Returns false only when cancelled or when the
 * timeline is too large to index; `ix` is then freed. */
bool pv_timeline_index_build(pv_timeline_index *ix, pv_wi_data *d, const pv_tl_options *o,
                             pv_diag *diag);
void pv_timeline_index_free(pv_timeline_index *ix);

/* An index begun with o->event_capacity over a timeline that is still
 * growing (docs/winidea-input.md "Reading and indexing at once"): grow says
 * the timeline now has `count` events (at most the capacity), which advance
 * and finish then reach; rebase sends the index's further warnings to
 * `diag` (a rollback of the pass returns to diag as it is now) and its
 * progress to `progress` (NULL: none); move hands an index (complete or not)
 * to another place, `from` is left empty. */
void pv_timeline_index_grow(pv_timeline_index *ix, size_t count);
void pv_timeline_index_rebase(pv_timeline_index *ix, pv_diag *diag, const pv_progress *progress);
void pv_timeline_index_move(pv_timeline_index *to, pv_timeline_index *from);
/* Whether begin read the first events (up to PV_WI_BIN_EARLY_RECORDS) to
 * detect a context area from written values: then an index begun over
 * fewer events than the timeline will have is not the same. */
bool pv_timeline_index_begin_read_events(const pv_timeline_index *ix);

/* The options pv_wi_build indexes a loaded file with (views.c). */
void pv_wi_index_options(pv_tl_options *to, const pv_wi_data *d, const char *path,
                         const pv_load_options *o);

/* An index begun while a Text1 file was read (load.c, docs/winidea-input.md
 * "Reading and indexing at once"): take moves it into `ix` (events
 * indexed as far as the worker got, or all of them when `whole`; its
 * warnings so far appended to `diag`, later ones go there, its progress
 * then is o->progress) and frees the stream; false (nothing moved, the
 * stream freed too) when there is none to take.  free drops it. */
bool pv_wi_stream_take(pv_wi_stream *s, pv_timeline_index *ix, pv_diag *diag,
                       const pv_tl_options *o, bool whole);
void pv_wi_stream_free(pv_wi_stream *s);
/* The index's big blocks, for pv_release_spans before it is freed: at
 * most `max`; returns how many. */
size_t pv_timeline_index_spans(const pv_timeline_index *ix, pv_span *out, size_t max);
/* Bytes the index holds beyond the records (for the benchmark). */
size_t pv_timeline_index_memory(const pv_timeline_index *ix);

/* docs/winidea-model.md "Times": the index reads every event time within
 * ±PV_TL_TIME_LIMIT (just under 2^62 ns, 146 years), so that a difference of
 * two times, or a sum of differences along the timeline, fits in int64_t.
 * A record's time beyond it is clamped, with a warning naming the record
 * when the pass indexes it. */
#define PV_TL_TIME_LIMIT ((INT64_C(1) << 62) - 1)

static inline int64_t pv_tl_clamp_time(int64_t t)
{
    return t > PV_TL_TIME_LIMIT ? PV_TL_TIME_LIMIT : t < -PV_TL_TIME_LIMIT ? -PV_TL_TIME_LIMIT : t;
}
/* Event i as the index reads it: its record, the time clamped.  Everything
 * above the records (index, statistics, views) reads events through it. */
static inline void pv_timeline_event(const pv_timeline_index *ix, size_t i, pv_wi_event *e)
{
    pv_wi_event_at(ix->tl, i, e);
    e->time = pv_tl_clamp_time(e->time);
}

/* The per-event columns of the index (events [0, indexed)). */
static inline uint32_t pv_tl_event_area(const pv_timeline_index *ix, size_t i)
{
    return ix->area_wide ? ((const uint32_t *)ix->event_area)[i]
                         : ((const uint16_t *)ix->event_area)[i];
}
static inline uint16_t pv_tl_event_context(const pv_timeline_index *ix, size_t i)
{
    if (ix->context_wide)
        return ((const uint16_t *)ix->event_context)[i];
    uint8_t c = ((const uint8_t *)ix->event_context)[i];
    return c == 0xFF ? PV_TL_NO_CONTEXT : c;
}
static inline uint16_t pv_tl_event_depth(const pv_timeline_index *ix, size_t i)
{
    return ix->depth_wide ? ((const uint16_t *)ix->event_depth)[i]
                          : ((const uint8_t *)ix->event_depth)[i];
}

/* The gross and net time of call k within the range (docs/formats.md §3). */
int64_t pv_timeline_call_gross(const pv_timeline_index *ix, size_t k);
static inline int64_t pv_timeline_call_net(const pv_timeline_index *ix, size_t k)
{
    uint64_t w = ix->net_bits ? ix->net_bits[k / 64] : 0;
    uint64_t bit = UINT64_C(1) << (k % 64);
    if (!(w & bit))
        return pv_timeline_call_gross(ix, k);
    return ix->net_values[ix->net_rank[k / 64] + (size_t)__builtin_popcountll(w & (bit - 1))];
}

static inline const char *pv_tl_area_name(const pv_timeline_index *ix, uint32_t area)
{
    return pv_strpool_get(&ix->pool, ix->areas[area].name);
}
static inline const char *pv_tl_context_name(const pv_timeline_index *ix, uint16_t c)
{
    return c < ix->context_count ? pv_strpool_get(&ix->pool, ix->contexts[c].name) : "";
}
/* "function", "line", "variable", "state", "aux", "aux-state" or "unknown". */
const char *pv_tl_type_name(unsigned type);
/* The index area of a handle (states: of (handle, value)), or PV_WI_NONE. */
uint32_t pv_timeline_find_area(const pv_timeline_index *ix, uint32_t handle, uint64_t value);
/* The statistics row of (area, context) (PV_TL_NEUTRAL / PV_TL_NO_CONTEXT), or NULL. */
const pv_tl_stat_row *pv_timeline_find_stat(const pv_timeline_index *ix, uint32_t area,
                                            uint16_t context);
/* The innermost reconstructed call of context `c` open at event `event`, or
 * PV_TL_OPEN.  Walk call_parent from it for the enclosing call stack. */
uint32_t pv_timeline_call_at(const pv_timeline_index *ix, uint16_t c, size_t event);
/* A CONTEXT(...) label of a STATISTICS header matched to a context (docs/formats.md
 * §3: equal, or equal after removing a leading "XXX: " type prefix); the
 * index into d->contexts or PV_WI_NONE. */
uint32_t pv_wi_match_context(const pv_wi_data *d, const char *label);

#endif
