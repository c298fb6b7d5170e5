/*
 * timeline_calls.c - finishing the calls of the timeline index: their order
 * by context, their parents, the net times and the --from/--to window, in
 * steps (tl_finish_calls_step).
 */
#include "formats/winidea/timeline_internal.h"

#include <stdlib.h>
#include <string.h>

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

/* FC_POS: the place of every explicit call, in entry order within its
 * context; `fill` is each context's next place. */
static void tl_fc_pos_range(tl_pass *p, size_t k, size_t end, size_t *fill)
{
    const pv_timeline_index *ix = p->ix;
    for (; k < end; k++) {
        uint32_t entry = ix->call_entry[tl_phys(p, k)];
        if (!(entry & PV_TL_IMPLICIT_CALL))
            p->fc_pos[k] = (uint32_t)fill[pv_tl_event_context(ix, entry)]++;
    }
}

static size_t tl_fc_pos(tl_pass *p, size_t left)
{
    pv_timeline_index *ix = p->ix;
    size_t k = p->fc_k, end = tl_fc_piece_end(p, left);
    tl_fc_pos_range(p, k, end, p->fc_fill);
    k = end;
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
    tl_fc_pos_range(j->p, j->from, j->to, j->fill);
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
 * moves the arrays from `first` on.  Each thread permutes its widest array
 * into a new block, and every next one into the block the one before it
 * left (as wide or wider, and as long: each holds every call), so that
 * nothing is copied back and a thread needs one new block only; the result
 * is the same as one array after the other. */
typedef struct tl_permute_job {
    tl_call_array arrays[TL_CALL_ARRAYS]; /* their blocks, the new ones once done */
    size_t first, count, n;
    size_t gap_a, gap_at;
    const uint32_t *pos;
} tl_permute_job;

static void tl_permute_arrays(tl_permute_job *j, size_t from, size_t to)
{
    size_t order[TL_CALL_ARRAYS], m = 0;
    for (size_t a = from; a < to; a++) { /* widest first */
        size_t at = m++;
        while (at > 0 && j->arrays[order[at - 1]].size < j->arrays[a].size) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = a;
    }
    void *spare = NULL;
    for (size_t q = 0; q < m; q++) {
        tl_call_array *a = &j->arrays[order[q]];
        void *dst = spare ? spare : tl_big_alloc((j->n ? j->n : 1) * a->size);
        tl_permute_gap(a, j->pos, dst, 0, j->n, j->gap_a, j->gap_at);
        if (j->gap_a < j->n) { /* the second half's calls: their pages go back */
            size_t lo = j->gap_at > j->n ? j->gap_at : j->n, hi = j->gap_at + (j->n - j->gap_a);
            if (hi > lo)
                pv_release((char *)a->base + lo * a->size, (hi - lo) * a->size);
        }
        spare = a->base;
        a->base = dst;
    }
    free(spare);
}

static void *tl_permute_run(void *arg)
{
    tl_permute_job *j = arg;
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
    /* the blocks in tl_call_arrays' order */
    ix->call_parent = j.arrays[0].base;
    ix->call_entry = j.arrays[1].base;
    ix->call_exit = j.arrays[2].base;
    if (j.count > 3)
        ix->call_gross = j.arrays[3].base;
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
static void tl_fc_top_implicit(pv_timeline_index *ix, size_t first, size_t m)
{
    for (size_t q = 0; q < m; q++)
        ix->call_parent[first + q] = q == 0 ? PV_TL_OPEN : (uint32_t)(first + q - 1);
}

/* The explicit calls [q, end) of the context whose calls begin at `first`;
 * `inner` implicit calls are candidates (the innermost first+inner-1).
 * Returns the candidates left for the calls after `end`. */
static size_t tl_fc_top_calls(pv_timeline_index *ix, size_t first, size_t inner, size_t q,
                              size_t end)
{
    for (; q < end; q++) {
        if (ix->call_parent[q] != TL_TOP_LEVEL)
            continue;
        uint32_t entry = ix->call_entry[q];
        while (inner > 0 && ix->call_exit[first + inner - 1] != PV_TL_OPEN &&
               ix->call_exit[first + inner - 1] <= entry)
            inner--;
        ix->call_parent[q] = inner > 0 ? (uint32_t)(first + inner - 1) : PV_TL_OPEN;
    }
    return inner;
}

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
            tl_fc_top_implicit(ix, first, m);
            p->fc_inner = m; /* candidates: innermost = first+m-1, moving outwards */
            p->fc_k = first + m;
            p->fc_in_context = true;
            work += m;
        }
        size_t q = p->fc_k, room = work < left ? left - work : 0;
        size_t end = start[c + 1] - q <= room ? start[c + 1] : q + room;
        p->fc_inner = tl_fc_top_calls(ix, first, p->fc_inner, q, end);
        work += end - q;
        p->fc_k = end;
        if (end >= start[c + 1]) {
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
        tl_fc_top_implicit(ix, start[c], m);
        (void)tl_fc_top_calls(ix, start[c], m, start[c] + m, start[c + 1]);
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
bool tl_finish_calls_step(tl_pass *p, size_t budget)
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
