/*
 * timeline.c - the winIDEA timeline index (docs/formats.md §3): one pass over the
 * event records that resolves each event's area and context
 * (timeline_areas.c), runs one call stack per context (timeline_stack.h),
 * gives every event its depth, reconstructs the function calls and feeds the
 * statistics (statistics.c); then finishes the calls (timeline_calls.c).
 * A long pass is helped by a thread (timeline_worker.c) and may index its
 * second half on another (timeline_split.c).
 */
#include "formats/winidea/timeline_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "formats/winidea/timeline_stack.h"

const char *pv_tl_type_name(unsigned type)
{
    static const char *const names[] = {"function", "line", "variable",
                                        "state",    "aux",  "aux-state"};
    return type < PV_ARRAY_LEN(names) ? names[type] : "unknown";
}

void tl_warn(tl_pass *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pv_warn(p->diag, "%s: timeline event %zu (time %" PRId64 "): %s", p->file, p->i, p->time, msg);
    p->ix->warnings++;
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

void tl_widen_areas(tl_pass *p)
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

void tl_widen_contexts(tl_pass *p)
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

/* The effective time of event i (docs/winidea-model.md "The index"): its
 * record's, or the one before for an event earlier than that (ix->late). */
static int64_t tl_effective_time(const pv_timeline_index *ix, size_t i)
{
    size_t a = 0, b = ix->late_count;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (ix->late[mid].event < i)
            a = mid + 1;
        else
            b = mid;
    }
    if (a < ix->late_count && ix->late[a].event == i)
        return ix->late[a].time;
    pv_wi_event e;
    pv_timeline_event(ix, i, &e);
    return e.time;
}

/* An event earlier than the one before: the time the statistics take for it. */
static void tl_add_late(pv_timeline_index *ix, size_t i, int64_t time)
{
    size_t n = ix->late_count;
    if ((n & (n - 1)) == 0) /* 0, 1, 2, 4, ...: the room doubles */
        ix->late = pv_xrealloc(ix->late, (n ? 2 * n : 1) * sizeof *ix->late);
    ix->late[ix->late_count++] = (pv_tl_late){(uint32_t)i, time};
}

/* docs/winidea-model.md "Memory": the gross time of a call from its records
 * when every context runs all the time (run(c, t) is then the clipped time
 * of the statistics: the effective time). */
static int64_t tl_derived_gross(const pv_timeline_index *ix, size_t k, int64_t end)
{
    int64_t t0 = ix->time_first, t1 = end;
    if (!(ix->call_entry[k] & PV_TL_IMPLICIT_CALL))
        t0 = tl_effective_time(ix, ix->call_entry[k]);
    if (ix->call_exit[k] != PV_TL_OPEN)
        t1 = tl_effective_time(ix, ix->call_exit[k]);
    int64_t lo = ix->clip_lo, hi = ix->clip_hi;
    t0 = t0 < lo ? lo : t0 > hi ? hi : t0;
    t1 = t1 < lo ? lo : t1 > hi ? hi : t1;
    return t1 - t0;
}

int64_t pv_timeline_call_gross(const pv_timeline_index *ix, size_t k)
{
    return ix->call_gross ? ix->call_gross[k] : tl_derived_gross(ix, k, ix->time_last);
}

/* ---- the pass */

/* What every pass owns, a second half's too. */
void tl_free_pass_state(tl_pass *p)
{
    for (size_t c = 0; c < p->stack_cap; c++) {
        free(p->stacks[c].ex);
        free(p->stacks[c].im);
        free(p->stacks[c].im_calls);
    }
    free(p->stacks);
    pv_hashmap_free(&p->state_keys);
    pv_hashmap_free(&p->context_map);
    pv_stats_free(&p->st);
    free(p->context_calls);
}

static void tl_free_pass(tl_pass *p)
{
    tl_split_cancel(p);
    tl_split_depths_wait(p);
    tl_worker_stop(p);
    tl_free_pass_state(p);
    tl_ctx_detect_free(&p->cd);
    free(p->context_area_option);
    free(p->first_calls);
    free(p->fc_start);
    free(p->fc_fill);
    free(p->fc_pos);
    free(p->fc_scratch);
    free(p->net_call);
    free(p->net_val);
    pv_trash_free(&p->trash);
}

static uint16_t tl_event_context(tl_pass *p, const pv_wi_event *e)
{
    switch (p->ix->context_source) {
    case PV_TL_CONTEXT_TEXT: {
        /* %CONTEXT% attributes the event.  The running context is the
         * context area's once it has switched; without an area (or before
         * its first switch) it is the one of the latest function event. */
        /* (through the index's timeline: read beside a growing one, its own
         * copy, docs/winidea-input.md "Reading and indexing at once") */
        uint16_t c = p->ix->tl->text_context[p->i];
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
     * are kept only where the records cannot give them (contexts that run
     * one at a time; else tl_derived_gross, with the effective times). */
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
    while (i < end) {
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
        /* the events up to the next multiple of 65536: the checks above
         * and the progress report below once per block, not per event */
        size_t from = i, stop = (i | 0xFFFF) + 1 < end ? (i | 0xFFFF) + 1 : end;
        for (; i < stop; i++) {
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
                tl_add_late(ix, i, p->prev);
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
        }
        if (stop > from && (stop & 0xFFFFF) == 0 &&
            !pv_progress_step(&p->opt.progress, "indexing timeline",
                              stop + (p->split ? atomic_load(&p->split->done) : 0), n)) {
            tl_split_cancel(p);
            ix->indexed = stop;
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
int tl_end_pass(pv_timeline_index *ix)
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
        free(ix->late);
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
    bytes += ix->late_count * sizeof(pv_tl_late);
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
