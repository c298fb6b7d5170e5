/*
 * timeline_split.c - the timeline pass in two halves on two threads.
 */
#include "formats/winidea/timeline_internal.h"

#include <stdlib.h>
#include <string.h>

#include "formats/winidea/timeline_stack.h"

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
 * cannot read alone (an area or context the mapping does not list, a
 * column to widen) stops it.  The stitch checks every guess against the first half's
 * stacks before it changes anything, replays the guessed events on them,
 * adds the statistics, moves the calls, lines and net times into place and
 * adds the first half's frames to the depths.  When a check fails, this
 * thread indexes the second half itself: the index is the same either way
 * (tests/cli/winidea_index_threads.sh compares them). */

#define TL_SPLIT_MIN_EVENTS (4u << 20) /* a shorter timeline is indexed in one piece */
#define TL_SPLIT_SEEK (1u << 20)       /* events searched for a context switch */
#define TL_SPLIT_SLACK 4096u           /* implicit calls the first half may add */

/* The same, not inlined: for the stitch's replay. */
static size_t tl_stack_event_replay(tl_pass *p, uint32_t area, uint16_t c, unsigned kind)
{
    return tl_stack_event(p, area, c, kind);
}

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
    tl_free_pass_state(b);
    free(b->under);
    free(b->pops);
    free(b->slots);
    free(b->ph);
    pv_timeline_index *bx = &sp->ix;
    pv_hashmap_free(&bx->area_map);
    pv_strpool_free(&bx->pool);
    free(bx->areas);
    free(bx->contexts);
    free(bx->late);
    pv_diag_free(&sp->diag);
    free(sp->below);
    free(sp);
}

/* Waits for the depths of a stitched second half (docs/winidea-model.md
 * "Speed: the timeline in two halves"): nothing reads them before the
 * index is complete. */
void tl_split_depths_wait(tl_pass *p)
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

void tl_split_cancel(tl_pass *p)
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
    int64_t split = pv_test_get(&p->opt.test, PV_TEST_INDEX_SPLIT, -1);
    bool force = split == 1;
    if (!p->split_ok || p->split_ran || split == 0 ||
        !tl_threads_allowed(p, TL_SPLIT_MIN_EVENTS) || events < 2 ||
        (!force && events < TL_SPLIT_MIN_EVENTS))
        return false;
    return (ix->context_source == PV_TL_CONTEXT_AREA ||
            ix->context_source == PV_TL_CONTEXT_UNKNOWN) &&
           !p->cd.active && ix->area_count > 0 && ix->context_count > 0 &&
           ix->context_count < 0xFF && !p->worker;
}

/* Grows a block to `bytes` (never shrinks it): false, the block as it was,
 * when the system refuses. */
static bool tl_try_grow(void **block, size_t bytes)
{
    void *p = realloc(*block, bytes ? bytes : 1);
    if (!p)
        return false;
    *block = p;
    return true;
}

/* Starts the second half when this advance may split; returns where the
 * first half ends (upto when it does not split). */
size_t tl_split_start(tl_pass *p, size_t upto)
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
    sp->call_cap = sp->call_at + second + 16;
    sp->line_at = ix->line_count + first + TL_SPLIT_SLACK;
    sp->line_cap = sp->line_at + second + 16;
    sp->net_at = p->net_n + ix->call_count + first + TL_SPLIT_SLACK;
    sp->net_cap = sp->net_at + second + 16;
    /* (address space that a system without overcommit may refuse: then
     * the pass stays in one piece, in arrays that may have grown) */
    bool room = true;
    if (sp->call_cap > p->call_cap) {
        room = tl_try_grow((void **)&ix->call_entry, sp->call_cap * 4) &&
               tl_try_grow((void **)&ix->call_exit, sp->call_cap * 4) &&
               tl_try_grow((void **)&ix->call_parent, sp->call_cap * 4) &&
               (!ix->call_gross || tl_try_grow((void **)&ix->call_gross, sp->call_cap * 8));
        if (room)
            p->call_cap = sp->call_cap;
    }
    if (room && sp->line_cap > p->line_cap) {
        room = tl_try_grow((void **)&ix->line_entry, sp->line_cap * sizeof *ix->line_entry) &&
               tl_try_grow((void **)&ix->line_net, sp->line_cap * sizeof *ix->line_net);
        if (room)
            p->line_cap = sp->line_cap;
    }
    if (room && sp->net_cap > p->net_cap) {
        room = tl_try_grow((void **)&p->net_call, sp->net_cap * sizeof *p->net_call) &&
               tl_try_grow((void **)&p->net_val, sp->net_cap * sizeof *p->net_val);
        if (room)
            p->net_cap = sp->net_cap;
    }
    if (!room) {
        free(sp);
        return upto;
    }
    /* the real room, given back when the split ends */
    sp->call_cap = p->call_cap;
    sp->line_cap = p->line_cap;
    sp->net_cap = p->net_cap;
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

/* The stitch: the guessed events replayed on the first half's
 * frames (their depths written), then the frames whose S and R the second
 * half followed, as they are at the end.  `base`: the running clocks at
 * the split. */
static void tl_stitch_replay(tl_pass *p, tl_split *sp, const int64_t *base)
{
    pv_timeline_index *ix = p->ix;
    tl_pass *b = &sp->pass;
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
    for (size_t j = 0; j < b->spec_acc_cap && j < b->st.acc_count; j++) {
        const tl_phantom *ph = &b->ph[j];
        if (ph->known && ph->used)
            tl_split_phantom(p, b->st.accs[j].area, b->st.accs[j].context, ph->active,
                             ph->active_run, ph->net, base);
    }
}

/* The stitch: the second half's calls, lines and net times into place
 * (its calls stay where they are: tl_phys).  a_calls, a_lines: the first
 * half's. */
static void tl_stitch_calls(tl_pass *p, tl_split *sp, const size_t *ex0, size_t a_calls,
                            size_t a_lines)
{
    pv_timeline_index *ix = p->ix;
    pv_timeline_index *bx = &sp->ix;
    tl_pass *b = &sp->pass;
    size_t b_calls = bx->call_count;
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
    size_t b_lines = bx->line_count;
    tl_split_move(ix->line_entry, 4, sp->line_at, a_lines, b_lines, a_lines + b_lines);
    tl_split_move(ix->line_net, 8, sp->line_at, a_lines, b_lines, a_lines + b_lines);
    ix->line_count = a_lines + b_lines;
    for (size_t k = 0; k < b->net_n; k++)
        b->net_call[k] += (uint32_t)a_calls;
    tl_split_move(p->net_call, 4, sp->net_at, p->net_n, b->net_n, p->net_n + b->net_n);
    tl_split_move(p->net_val, 8, sp->net_at, p->net_n, b->net_n, p->net_n + b->net_n);
    p->net_n += b->net_n;
}

/* The stitch: the second half's open frames on top of the first half's
 * (acc_map: its accumulators' in the merged statistics). */
static void tl_stitch_stacks(tl_pass *p, tl_split *sp, const size_t *ex0, const int64_t *base,
                             const uint32_t *acc_map, size_t a_calls, size_t a_lines)
{
    tl_pass *b = &sp->pass;
    size_t nrun = p->st.run_count;
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
}

/* The stitch: the calls made per context (the first half's kept apart for
 * finishing). */
static void tl_stitch_context_calls(tl_pass *p, const tl_pass *b)
{
    pv_timeline_index *ix = p->ix;
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
}

/* The stitch: the events each context ran, counted by both halves. */
static void tl_stitch_context_events(pv_timeline_index *ix, const pv_timeline_index *bx)
{
    for (size_t c = 0; c < bx->context_count; c++)
        ix->contexts[c].events += bx->contexts[c].events;
}

/* The stitch: the events earlier than the one before, the second half's
 * after the first's. */
static void tl_stitch_late(pv_timeline_index *ix, const pv_timeline_index *bx)
{
    if (!bx->late_count)
        return;
    size_t n = ix->late_count + bx->late_count, cap = 1;
    while (cap < n)
        cap *= 2; /* the room tl_add_late expects */
    ix->late = pv_xrealloc(ix->late, cap * sizeof *ix->late);
    memcpy(ix->late + ix->late_count, bx->late, bx->late_count * sizeof *bx->late);
    ix->late_count = n;
}

/* The stitch: every field of the pass by its kind in TL_PASS_FIELDS, then
 * every field of the index by its kind in PV_TL_INDEX_FIELDS (timeline.h). */
#define TL_MERGE_FIRST(name, step)
#define TL_MERGE_SECOND(name, step)
#define TL_MERGE_OR(name, step) p->name |= b->name;
#define TL_MERGE_ADD(name, step) p->name += b->name;
#define TL_MERGE_LAST(name, step) p->name = b->name;
#define TL_MERGE_BITS(name, step) pv_wi_version_bits_or(&p->name, &b->name);
#define TL_MERGE_STEP(name, step) (void)step;
#define TL_MERGE(type, name, dims, kind, step) TL_MERGE_##kind(name, step)
static void tl_split_stitch(tl_pass *p, tl_split *sp);
static void tl_stitch_fields(tl_pass *p, const tl_pass *b)
{
    TL_PASS_FIELDS(TL_MERGE)
}
#undef TL_MERGE_STEP
/* the index's steps take (ix, bx); the others were run by tl_split_stitch */
#define TL_MERGE_STEP(name, step) TL_STITCH_INDEX_STEP_##step
#define TL_STITCH_INDEX_STEP_tl_stitch_calls (void)tl_stitch_calls;
#define TL_STITCH_INDEX_STEP_tl_stitch_context_events tl_stitch_context_events(p, b);
#define TL_STITCH_INDEX_STEP_tl_stitch_late (void)tl_stitch_late;
static void tl_stitch_index_fields(pv_timeline_index *p, const pv_timeline_index *b)
{
    PV_TL_INDEX_FIELDS(TL_MERGE)
}
#undef TL_STITCH_INDEX_STEP_tl_stitch_late
#undef TL_STITCH_INDEX_STEP_tl_stitch_context_events
#undef TL_STITCH_INDEX_STEP_tl_stitch_calls
#undef TL_MERGE
#undef TL_MERGE_STEP
#undef TL_MERGE_BITS
#undef TL_MERGE_LAST
#undef TL_MERGE_ADD
#undef TL_MERGE_OR
#undef TL_MERGE_SECOND
#undef TL_MERGE_FIRST

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

    tl_stitch_replay(p, sp, base);
    uint32_t *acc_map = pv_stats_merge(&p->st, &b->st, base);
    size_t a_calls = ix->call_count, a_lines = ix->line_count;
    tl_stitch_calls(p, sp, ex0, a_calls, a_lines);
    tl_stitch_stacks(p, sp, ex0, base, acc_map, a_calls, a_lines);
    free(acc_map);
    tl_stitch_context_calls(p, b);
    tl_stitch_fields(p, b);
    tl_stitch_index_fields(ix, bx);
    tl_stitch_late(ix, bx);
    pv_diag_take(p->diag, &sp->diag);
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
bool tl_split_join(tl_pass *p)
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
