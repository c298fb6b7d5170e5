/*
 * timeline_stack.h - the call stacks of the timeline pass (docs/formats.md
 * §3): one stack per context, frames, calls and line activations as they
 * begin and end, and the second half's guesses.  Included by timeline.c
 * only: tl_stack_event runs once per event, inlined into the pass's loop.
 *
 * The call stack of a context is kept as two arrays so that no frame ever
 * moves: explicit frames (pushed by E) grow upwards, implicit frames (areas
 * whose first event in the context was R, S or X, docs/formats.md §3) are listed
 * in discovery order, the first discovered being the innermost.  Live
 * implicit frames are implicit[lo .. n); implicit frames are popped
 * innermost first, so lo only grows.  A frame is named by a position code:
 * explicit i -> i, implicit j -> -(j + 1).
 */
#ifndef PROFVIEW_TIMELINE_STACK_H
#define PROFVIEW_TIMELINE_STACK_H

#include <inttypes.h>
#include <string.h>

#include "formats/winidea/timeline_internal.h"

/* ---- stacks */

static inline tl_stack *tl_stack_of(tl_pass *p, uint16_t c)
{
    if (c >= p->stack_cap) {
        size_t old = p->stack_cap;
        p->stacks = pv_xgrow(p->stacks, &p->stack_cap, (size_t)c + 1, sizeof *p->stacks);
        memset(p->stacks + old, 0, (p->stack_cap - old) * sizeof *p->stacks);
    }
    return &p->stacks[c];
}

static inline tl_frame *tl_frame_at(tl_stack *s, int32_t code)
{
    return code >= 0 ? &s->ex[code] : &s->im[-(code + 1)];
}

/* docs/formats.md §3: the number of frames below, implicit frames known by now included. */
static inline size_t tl_depth_of(const tl_stack *s, int32_t code)
{
    if (code >= 0)
        return (s->im_n - s->im_lo) + (size_t)code;
    return s->im_n - 1 - (size_t)(-(code + 1));
}

static inline size_t tl_stack_size(const tl_stack *s)
{
    return (s->im_n - s->im_lo) + s->ex_n;
}

static inline uint16_t tl_depth16(size_t depth)
{
    return depth > UINT16_MAX ? UINT16_MAX : (uint16_t)depth;
}

static inline void tl_grow_calls(tl_pass *p, size_t want)
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

static inline uint32_t tl_new_call(tl_pass *p, uint32_t entry, uint32_t parent, uint16_t context)
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
static inline uint32_t tl_new_line(tl_pass *p, uint32_t entry)
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
static inline void tl_end_frame(tl_pass *p, tl_frame *f, bool matched, bool at_end)
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
static inline void tl_pop_above(tl_pass *p, tl_stack *s, int32_t code, uint32_t area)
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
static inline int32_t tl_push_implicit(tl_pass *p, tl_stack *s, uint16_t c, uint32_t area, uint32_t acc,
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

static inline void tl_spec_room(tl_pass *p, uint32_t acc, uint16_t c)
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
static inline uint32_t tl_spec_entry(tl_pass *p, uint32_t acc, uint16_t c, size_t depth,
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
static inline size_t tl_spec_under(tl_pass *p, tl_stack *s, uint32_t area, uint32_t acc, uint16_t c,
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
    a->in_range |= pv_stat_in_range(&p->st, p->time);
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

#endif
