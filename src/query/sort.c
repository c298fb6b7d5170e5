/* sort.c - sorting a row selection by one or more columns (docs/filter.md):
 * stable, ascending or descending, absent cells first (ascending) as
 * pv_cell_compare orders them; in a tree, siblings are sorted and the
 * pre-order shape is kept.
 *
 * Speed (docs/quality.md: 1 M rows in < 0.2 s): every key cell is read once
 * into an array, and all comparisons are of 64-bit integers carried in the
 * sorted elements.  Numbers are encoded order-preserving; a string is sorted
 * 8 bytes at a time (bytes 0-7 first, then each run of equal prefixes by
 * bytes 8-15, ...), and each run of equal keys is then sorted by the next
 * key.  Every pass is a bottom-up merge sort, which is stable (qsort is not);
 * pending runs sit on an explicit work list, never on the call stack. */
#include "query_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define PV_SORT_CHUNKS 4

/* How many sorts pv_sort_rows and pv_sort_job did (pv_sort_runs: tests). */
static size_t pv_sort_runs_count;

size_t pv_sort_runs(void)
{
    return pv_sort_runs_count;
}

typedef struct pv_sort_col {
    bool descending;
    uint64_t *num;    /* numbers, order-preserving encoding */
    const char **str; /* strings: pointer and length */
    size_t *len;
    uint8_t *absent; /* NULL when no cell of the selection is absent */
    /* Strings: bytes 8*d .. 8*d+7 of every string for d < chunk_count, read
     * in selection order at load time, so the refining passes do not chase
     * string pointers in random order (cache misses dominate otherwise). */
    uint64_t *chunks[PV_SORT_CHUNKS];
    size_t chunk_count;
} pv_sort_col;

typedef struct pv_sort_ctx {
    pv_sort_col cols[PV_SORT_MAX_KEYS];
    size_t count;
} pv_sort_ctx;

typedef struct pv_sort_elem {
    uint64_t key; /* the part of the current sort key being ordered */
    size_t index; /* position in the selection being sorted */
} pv_sort_elem;

/* A run of elements [start, end) still to be ordered by `key`; for a string
 * key, its elements are equal in the first `depth` bytes. */
typedef struct pv_sort_run {
    size_t start, end;
    size_t key;
    size_t depth;
} pv_sort_run;

/* Order-preserving unsigned encodings: a < b exactly when enc(a) < enc(b). */
static uint64_t pv_encode_int(int64_t v)
{
    return (uint64_t)v ^ (UINT64_C(1) << 63);
}

static uint64_t pv_encode_float(double d)
{
    if (d == 0)
        d = 0; /* -0 sorts with +0 */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (bits >> 63) ? ~bits : bits | (UINT64_C(1) << 63);
}

/* Bytes depth .. depth+7 of a string, big-endian, zero-padded: strings hold
 * no NUL, so the padding sorts a shorter string first, as memcmp would. */
static uint64_t pv_string_chunk(const char *s, size_t len, size_t depth)
{
    if (depth >= len)
        return 0;
    unsigned char b[8] = {0};
    memcpy(b, s + depth, len - depth < 8 ? len - depth : 8);
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t k;
    memcpy(&k, b, sizeof k);
    return __builtin_bswap64(k);
#else
    uint64_t k = 0;
    for (size_t i = 0; i < 8; i++)
        k = (k << 8) | b[i];
    return k;
#endif
}

/* Stable: an element moves before an earlier one only when strictly less. */
static void pv_insertion_sort(pv_sort_elem *e, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        pv_sort_elem x = e[i];
        size_t j = i;
        while (j > 0 && x.key < e[j - 1].key) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = x;
    }
}

/* Bottom-up merge sort of e[0..n) by key, using tmp[0..n). */
static void pv_merge_sort(pv_sort_elem *e, pv_sort_elem *tmp, size_t n)
{
    const size_t run = 32;
    for (size_t i = 0; i < n; i += run)
        pv_insertion_sort(e + i, n - i < run ? n - i : run);
    pv_sort_elem *src = e, *dst = tmp;
    for (size_t width = run; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            /* Already in order (common for presorted data): copy. */
            if (mid < hi && src[mid].key >= src[mid - 1].key) {
                memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);
                continue;
            }
            while (i < mid && j < hi)
                dst[k++] = src[j].key < src[i].key ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        pv_sort_elem *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, n * sizeof *e);
}

/* LSD radix sort by key, 8 bits a pass (stable); a pass whose byte is the
 * same for every element is skipped, so small numbers take few passes. */
static void pv_radix_sort(pv_sort_elem *e, pv_sort_elem *tmp, size_t n)
{
    size_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = e[i].key;
        for (unsigned b = 0; b < 8; b++)
            count[b][(k >> (8 * b)) & 0xFF]++;
    }
    pv_sort_elem *src = e, *dst = tmp;
    for (unsigned b = 0; b < 8; b++) {
        if (count[b][(src[0].key >> (8 * b)) & 0xFF] == n)
            continue;
        size_t offset[256];
        size_t sum = 0;
        for (unsigned d = 0; d < 256; d++) {
            offset[d] = sum;
            sum += count[b][d];
        }
        for (size_t i = 0; i < n; i++)
            dst[offset[(src[i].key >> (8 * b)) & 0xFF]++] = src[i];
        pv_sort_elem *t = src;
        src = dst;
        dst = t;
    }
    if (src != e)
        memcpy(e, src, n * sizeof *e);
}

static void pv_sort_ctx_load(pv_sort_ctx *ctx, const pv_view *v, const pv_sort_key *keys,
                             size_t key_count, const pv_row *rows, size_t n)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->count = key_count;
    for (size_t k = 0; k < key_count; k++) {
        pv_sort_col *c = &ctx->cols[k];
        size_t col = keys[k].column;
        c->descending = keys[k].descending;
        if (v->columns[col].type == PV_TYPE_STRING) {
            c->str = pv_xmalloc((n ? n : 1) * sizeof *c->str);
            c->len = pv_xmalloc((n ? n : 1) * sizeof *c->len);
        } else {
            c->num = pv_xmalloc((n ? n : 1) * sizeof *c->num);
        }
        pv_cell cell;
        for (size_t i = 0; i < n; i++) {
            pv_view_cell(v, rows[i], col, &cell);
            /* A cell of another type than its column (a view's bug) is
             * treated as absent rather than read through the wrong member. */
            if (!cell.present || cell.type != v->columns[col].type) {
                if (!c->absent)
                    c->absent = pv_xcalloc(n, 1);
                c->absent[i] = 1;
                if (c->str) {
                    c->str[i] = "";
                    c->len[i] = 0;
                } else {
                    c->num[i] = 0;
                }
                continue;
            }
            switch (cell.type) {
            case PV_TYPE_INT:
            case PV_TYPE_TIME:
                c->num[i] = pv_encode_int(cell.v.i);
                break;
            case PV_TYPE_FLOAT:
                c->num[i] = pv_encode_float(cell.v.f);
                break;
            case PV_TYPE_HANDLE:
            case PV_TYPE_HEX:
                c->num[i] = cell.v.u;
                break;
            case PV_TYPE_STRING:
                c->str[i] = cell.v.s.ptr;
                c->len[i] = cell.v.s.len;
                break;
            }
        }
        if (!c->str)
            continue;
        size_t longest = 0;
        for (size_t i = 0; i < n; i++)
            if (c->len[i] > longest)
                longest = c->len[i];
        c->chunk_count = (longest + 7) / 8;
        if (c->chunk_count > PV_SORT_CHUNKS)
            c->chunk_count = PV_SORT_CHUNKS;
        if (c->chunk_count == 0)
            c->chunk_count = 1;
        for (size_t d = 0; d < c->chunk_count; d++)
            c->chunks[d] = pv_xmalloc((n ? n : 1) * sizeof *c->chunks[d]);
        for (size_t i = 0; i < n; i++)
            for (size_t d = 0; d < c->chunk_count; d++)
                c->chunks[d][i] = pv_string_chunk(c->str[i], c->len[i], 8 * d);
    }
}

static void pv_sort_ctx_free(pv_sort_ctx *ctx)
{
    for (size_t k = 0; k < ctx->count; k++) {
        free(ctx->cols[k].num);
        free(ctx->cols[k].str);
        free(ctx->cols[k].len);
        free(ctx->cols[k].absent);
        for (size_t d = 0; d < ctx->cols[k].chunk_count; d++)
            free(ctx->cols[k].chunks[d]);
    }
}

/* Compares two elements by key k alone (for small runs, where reading the
 * cells directly beats more passes). */
static int pv_sort_compare_key(const pv_sort_ctx *ctx, size_t a, size_t b, size_t k)
{
    const pv_sort_col *c = &ctx->cols[k];
    int r = 0;
    bool aa = c->absent && c->absent[a];
    bool ba = c->absent && c->absent[b];
    if (aa || ba) {
        r = aa == ba ? 0 : aa ? -1 : 1;
    } else if (c->str) {
        size_t la = c->len[a], lb = c->len[b];
        size_t m = la < lb ? la : lb;
        int d = m ? memcmp(c->str[a], c->str[b], m) : 0;
        r = d ? (d < 0 ? -1 : 1) : (la > lb) - (la < lb);
    } else {
        r = (c->num[a] > c->num[b]) - (c->num[a] < c->num[b]);
    }
    return c->descending ? -r : r;
}

/* Stable insertion sort of a small run by key k. */
static void pv_insertion_sort_key(const pv_sort_ctx *ctx, pv_sort_elem *e, size_t n, size_t k)
{
    for (size_t i = 1; i < n; i++) {
        pv_sort_elem x = e[i];
        size_t j = i;
        while (j > 0 && pv_sort_compare_key(ctx, x.index, e[j - 1].index, k) < 0) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = x;
    }
}

static void pv_run_push(pv_sort_run **runs, size_t *count, size_t *cap, pv_sort_run r)
{
    if (r.end - r.start < 2)
        return;
    *runs = pv_xgrow(*runs, cap, *count + 1, sizeof **runs);
    (*runs)[(*count)++] = r;
}

/* Orders one run by key r.key (at string depth r.depth), stably, and queues
 * the runs of equal 8-byte string chunks for the next 8 bytes. */
static void pv_sort_run_step(const pv_sort_ctx *ctx, pv_sort_elem *e, pv_sort_elem *tmp,
                             pv_sort_run r, pv_sort_run **runs, size_t *count, size_t *cap)
{
    const pv_sort_col *c = &ctx->cols[r.key];
    size_t s = r.start, end = r.end;
    if (end - s <= 16) {
        /* Equal in the first r.depth bytes of this key, which the
         * comparison re-reads harmlessly. */
        pv_insertion_sort_key(ctx, e + s, end - s, r.key);
        return;
    }
    if (r.depth == 0 && c->absent) {
        /* Absent cells first ascending, last descending (pv_cell_compare
         * order, reversed); stable partition through tmp. */
        size_t k = s;
        for (int pass = 0; pass < 2; pass++) {
            bool want_absent = (pass == 0) != c->descending;
            for (size_t i = s; i < end; i++)
                if ((c->absent[e[i].index] != 0) == want_absent)
                    tmp[k++] = e[i];
        }
        memcpy(e + s, tmp + s, (end - s) * sizeof *e);
        size_t absent = 0;
        for (size_t i = s; i < end; i++)
            absent += c->absent[e[i].index];
        if (c->descending)
            end -= absent;
        else
            s += absent;
    }
    if (end - s < 2)
        return;
    uint64_t flip = c->descending ? UINT64_MAX : 0;
    const uint64_t *src = c->num;
    if (c->str && r.depth / 8 < c->chunk_count)
        src = c->chunks[r.depth / 8];
    if (src) {
        for (size_t i = s; i < end; i++)
            e[i].key = src[e[i].index] ^ flip;
    } else {
        for (size_t i = s; i < end; i++) {
            size_t x = e[i].index;
            e[i].key = pv_string_chunk(c->str[x], c->len[x], r.depth) ^ flip;
        }
    }
    if (end - s > 1024)
        pv_radix_sort(e + s, tmp + s, end - s);
    else
        pv_merge_sort(e + s, tmp + s, end - s);
    for (size_t a = s; a < end;) {
        size_t b = a + 1;
        bool longer = c->str && c->len[e[a].index] > r.depth + 8;
        while (b < end && e[b].key == e[a].key) {
            longer = longer || (c->str && c->len[e[b].index] > r.depth + 8);
            b++;
        }
        if (longer)
            pv_run_push(runs, count, cap, (pv_sort_run){a, b, r.key, r.depth + 8});
        a = b;
    }
}

/* Sorts the selection; returns the elements in sorted order (caller frees). */
static pv_sort_elem *pv_sort_elements(const pv_sort_ctx *ctx, size_t n)
{
    pv_sort_elem *e = pv_xmalloc((n ? n : 1) * sizeof *e);
    pv_sort_elem *tmp = pv_xmalloc((n ? n : 1) * sizeof *tmp);
    for (size_t i = 0; i < n; i++)
        e[i].index = i;
    pv_sort_run *runs = NULL;
    size_t count = 0, cap = 0;
    /* One stable pass per key, the last key first: afterwards the order is
     * by the first key, ties by the second, and so on.  Whole-array passes
     * beat refining many small runs of ties, whose cells would be read in
     * random order. */
    for (size_t k = ctx->count; k-- > 0;) {
        pv_run_push(&runs, &count, &cap, (pv_sort_run){0, n, k, 0});
        while (count > 0) {
            pv_sort_run r = runs[--count];
            pv_sort_run_step(ctx, e, tmp, r, &runs, &count, &cap);
        }
    }
    free(runs);
    free(tmp);
    return e;
}

/* Tree: sort every element globally, then hang each under its nearest
 * ancestor in the selection in that order (so siblings come out sorted and
 * stable), then write the pre-order walk.  The walk follows sibling and
 * parent links, so it needs no stack whatever the depth.  It runs in
 * resumable phases (a sort job gives it a budget per step: docs/tui.md
 * "Long operations"); pv_sort_rows runs it to the end at once. */
enum { PV_TO_POS_CLEAR, PV_TO_POS_SET, PV_TO_PARENT, PV_TO_LINK, PV_TO_COPY, PV_TO_WALK, PV_TO_DONE };

typedef struct pv_tree_order {
    const pv_view *v;
    const pv_sort_elem *sorted; /* the order: sorted[s].index, or perm[s] */
    const uint32_t *perm;
    pv_row *rows; /* in: the selection (pre-order); out: sorted pre-order */
    size_t n, total;
    int phase;
    size_t at;
    /* Positions in the selection are below n <= PV_VIEW_ROWS_MAX: 32 bits,
     * UINT32_MAX for none (a position n - 1 < UINT32_MAX). */
    uint32_t *pos, *parent, *first_child, *last_child, *next;
    uint32_t root_first, root_last, cur;
    pv_row *orig;
} pv_tree_order;

#define PV_TO_NONE UINT32_MAX

static void pv_tree_order_init(pv_tree_order *t, const pv_view *v, const pv_sort_elem *sorted,
                               const uint32_t *perm, pv_row *rows, size_t n)
{
    memset(t, 0, sizeof *t);
    t->v = v;
    t->sorted = sorted;
    t->perm = perm;
    t->rows = rows;
    t->n = n;
    t->total = pv_view_rows(v);
    t->pos = pv_xmalloc((t->total ? t->total : 1) * sizeof *t->pos);
    t->parent = pv_xmalloc((n ? n : 1) * sizeof *t->parent);
    t->first_child = pv_xmalloc((n ? n : 1) * sizeof *t->first_child);
    t->last_child = pv_xmalloc((n ? n : 1) * sizeof *t->last_child);
    t->next = pv_xmalloc((n ? n : 1) * sizeof *t->next);
    t->root_first = t->root_last = PV_TO_NONE;
}

/* Frees the work arrays, or hands each to `spend` (a sort job frees its
 * arrays in pieces later). */
static void pv_tree_order_free(pv_tree_order *t, void (*spend)(void *ctx, void *p, size_t bytes),
                               void *ctx)
{
    void *p[] = {t->pos, t->parent, t->first_child, t->last_child, t->next, t->orig};
    size_t bytes[] = {(t->total ? t->total : 1) * sizeof *t->pos,
                      (t->n ? t->n : 1) * sizeof(uint32_t),
                      (t->n ? t->n : 1) * sizeof(uint32_t),
                      (t->n ? t->n : 1) * sizeof(uint32_t),
                      (t->n ? t->n : 1) * sizeof(uint32_t),
                      (t->n ? t->n : 1) * sizeof(pv_row)};
    for (size_t i = 0; i < PV_ARRAY_LEN(p); i++) {
        if (spend)
            spend(ctx, p[i], bytes[i]);
        else
            free(p[i]);
    }
    memset(t, 0, sizeof *t);
}

/* Work units between two looks at the clock: each phase goes in pieces of
 * at most about a millisecond (the walk reads memory at random: 1 K rows),
 * so that a step ends at its deadline as the sort's other phases do
 * (docs/tui.md "Long operations"). */
#define PV_TO_PIECE ((size_t)1 << 14)

static size_t pv_to_piece(const pv_budget *b)
{
    return b->units < PV_TO_PIECE ? b->units : PV_TO_PIECE;
}

static int pv_to_pos_clear(void *job, pv_budget *b)
{
    pv_tree_order *t = job;
    size_t end = pv_budget_end(t->at, t->total, pv_to_piece(b));
    for (size_t r = t->at; r < end; r++)
        t->pos[r] = PV_TO_NONE;
    pv_budget_spend(b, end - t->at);
    t->at = end;
    if (t->at < t->total)
        return PV_TO_POS_CLEAR;
    t->at = 0;
    return PV_TO_POS_SET;
}

static int pv_to_pos_set(void *job, pv_budget *b)
{
    pv_tree_order *t = job;
    size_t end = pv_budget_end(t->at, t->n, pv_to_piece(b));
    for (size_t i = t->at; i < end; i++)
        if (t->rows[i] < t->total)
            t->pos[t->rows[i]] = (uint32_t)i;
    pv_budget_spend(b, end - t->at);
    t->at = end;
    if (t->at < t->n)
        return PV_TO_POS_SET;
    t->at = 0;
    return PV_TO_PARENT;
}

static int pv_to_parent(void *job, pv_budget *b)
{
    /* a parent lookup costs about four simple steps */
    pv_tree_order *t = job;
    size_t n = t->n, total = t->total, want = pv_to_piece(b) / 4;
    size_t end = pv_budget_end(t->at, n, want ? want : 1);
    for (size_t i = t->at; i < end; i++) {
        t->parent[i] = PV_TO_NONE;
        t->first_child[i] = t->last_child[i] = t->next[i] = PV_TO_NONE;
        size_t steps = 0;
        for (size_t p = pv_view_parent(t->v, t->rows[i]); p != PV_NO_ROW && p < total && steps < total;
             p = pv_view_parent(t->v, p), steps++)
            if (t->pos[p] != PV_TO_NONE) {
                t->parent[i] = t->pos[p];
                break;
            }
    }
    pv_budget_spend(b, (end - t->at) * 4);
    t->at = end;
    if (t->at < n)
        return PV_TO_PARENT;
    t->at = 0;
    return PV_TO_LINK;
}

static int pv_to_link(void *job, pv_budget *b)
{
    /* random reads and writes: three units a row */
    pv_tree_order *t = job;
    size_t n = t->n, want = pv_to_piece(b) / 3;
    size_t end = pv_budget_end(t->at, n, want ? want : 1);
    for (size_t s = t->at; s < end; s++) {
        uint32_t i = (uint32_t)(t->sorted ? t->sorted[s].index : t->perm[s]);
        uint32_t p = t->parent[i];
        uint32_t *head = p == PV_TO_NONE ? &t->root_first : &t->first_child[p];
        uint32_t *tail = p == PV_TO_NONE ? &t->root_last : &t->last_child[p];
        if (*head == PV_TO_NONE)
            *head = i;
        else
            t->next[*tail] = i;
        *tail = i;
    }
    pv_budget_spend(b, (end - t->at) * 3);
    t->at = end;
    if (t->at < n)
        return PV_TO_LINK;
    t->at = 0;
    t->orig = pv_xmalloc((n ? n : 1) * sizeof *t->orig);
    return PV_TO_COPY;
}

static int pv_to_copy(void *job, pv_budget *b)
{
    /* the walk reads the rows as they were */
    pv_tree_order *t = job;
    size_t end = pv_budget_end(t->at, t->n, pv_to_piece(b));
    memcpy(t->orig + t->at, t->rows + t->at, (end - t->at) * sizeof *t->rows);
    pv_budget_spend(b, end - t->at);
    t->at = end;
    if (t->at < t->n)
        return PV_TO_COPY;
    t->at = 0;
    t->cur = t->root_first;
    return PV_TO_WALK;
}

static int pv_to_walk(void *job, pv_budget *b)
{
    /* t->at rows written; each climb is paid by the rows below it;
     * random reads: four units a row, in pieces of 1024 rows at most: a
     * row's four reads miss the caches, and on the 50 M-event timeline's
     * call tree pieces of 4096 rows ran up to 2.9 ms of CPU past the
     * step's deadline */
    pv_tree_order *t = job;
    size_t want = pv_to_piece(b) / 16;
    size_t end = pv_budget_end(t->at, t->n, want ? want : 1), before = t->at;
    uint32_t cur = t->cur;
    while (cur != PV_TO_NONE && t->at < end) {
        t->rows[t->at++] = t->orig[cur];
        if (t->first_child[cur] != PV_TO_NONE) {
            cur = t->first_child[cur];
            continue;
        }
        while (cur != PV_TO_NONE && t->next[cur] == PV_TO_NONE)
            cur = t->parent[cur];
        if (cur != PV_TO_NONE)
            cur = t->next[cur];
    }
    t->cur = cur;
    pv_budget_spend(b, (t->at - before) * 4);
    return cur == PV_TO_NONE || t->at == t->n ? PV_TO_DONE : PV_TO_WALK;
}

static const pv_phase_fn pv_to_phases[] = {
    [PV_TO_POS_CLEAR] = pv_to_pos_clear, [PV_TO_POS_SET] = pv_to_pos_set,
    [PV_TO_PARENT] = pv_to_parent,       [PV_TO_LINK] = pv_to_link,
    [PV_TO_COPY] = pv_to_copy,           [PV_TO_WALK] = pv_to_walk,
};

/* Does about b->units units of work (one per row and phase, more where a
 * row's work reads memory at random), stopping early once the deadline has
 * passed; true once the rows are in sorted pre-order. */
static bool pv_tree_order_step(pv_tree_order *t, pv_budget *b)
{
    return pv_phases_run(t, pv_to_phases, &t->phase, PV_TO_DONE, b);
}

static void pv_sort_tree(const pv_view *v, const pv_sort_elem *sorted, pv_row *rows, size_t n)
{
    pv_tree_order t;
    pv_tree_order_init(&t, v, sorted, NULL, rows, n);
    pv_budget budget = {SIZE_MAX, 0};
    pv_tree_order_step(&t, &budget);
    pv_tree_order_free(&t, NULL, NULL);
}

void pv_sort_rows(const pv_view *v, const pv_sort_key *keys, size_t key_count, pv_row *rows,
                  size_t n)
{
    if (key_count == 0 || n < 2)
        return;
    pv_sort_runs_count++;
    if (key_count > PV_SORT_MAX_KEYS)
        key_count = PV_SORT_MAX_KEYS;
    pv_sort_ctx ctx;
    pv_sort_ctx_load(&ctx, v, keys, key_count, rows, n);
    pv_sort_elem *sorted = pv_sort_elements(&ctx, n);
    if (pv_view_is_tree(v)) {
        pv_sort_tree(v, sorted, rows, n);
    } else {
        pv_row *orig = pv_xmalloc(n * sizeof *orig);
        memcpy(orig, rows, n * sizeof *rows);
        for (size_t i = 0; i < n; i++)
            rows[i] = orig[sorted[i].index];
        free(orig);
    }
    free(sorted);
    pv_sort_ctx_free(&ctx);
}

/* ---- sorting in slices (docs/tui.md "Long operations")
 *
 * The same order as pv_sort_rows, computed in steps of a bounded amount of
 * work, for views too big to sort between two key presses.  Every key is
 * reduced to a 64-bit value per row: numbers are encoded order-preserving;
 * strings are interned (a view has few distinct names, contexts or events)
 * and replaced by the rank of their text among the distinct texts, so no
 * string is compared per row.  A column that depends only on the row's
 * group (PV_COL_GROUPED) reads one cell per group.  The values are then
 * ordered by a stable LSD radix sort of a permutation, one byte a pass,
 * skipping the bytes that are equal in every row (a rank below 256 takes one
 * pass), the last key first; absent cells go first (ascending) or last
 * (descending) by one more pass per key.  Every pass, and the loading, is a
 * loop over positions that a step may stop anywhere. */

#define PV_SJ_PTR_CACHE 1024

typedef struct pv_sj_col {
    size_t column;
    bool str, descending;
    uint64_t *val;   /* per position: encoded number; string: class, then rank */
    uint8_t *absent; /* per position, NULL until a cell is absent */
    size_t absent_count;
    size_t hist[8][256]; /* byte histograms of the values as ordered (flipped when descending) */
    /* strings: the distinct texts */
    const char **cls_ptr;
    size_t *cls_len;
    size_t cls_count, cls_cap;
    uint32_t *hash; /* open addressing: class + 1, 0 empty */
    size_t hash_cap;
    uint32_t *group_cls; /* per row group: 0 unknown, 1 absent, class + 2 */
    struct {
        const char *ptr;
        size_t len;
        uint32_t cls;
    } pcache[PV_SJ_PTR_CACHE]; /* a view's strings stay put: same pointer, same text */
    uint32_t *rank;
} pv_sj_col;

enum { PV_SJ_LOAD, PV_SJ_RANK, PV_SJ_PASS, PV_SJ_APPLY, PV_SJ_RELEASE, PV_SJ_DONE };

struct pv_sort_job {
    double deadline; /* CLOCK_MONOTONIC seconds a step ends at (0: none) */
    const pv_view *v;
    const pv_row *rows; /* NULL: every row in view order */
    size_t n;
    size_t key_count;
    pv_sj_col cols[PV_SORT_MAX_KEYS];
    uint32_t *perm, *tmp;
    /* The key being ordered, in permutation order (sequential reads in
     * every pass), and its absent flags; moved with perm. */
    uint64_t *kv, *tmpk;
    uint8_t *ka, *tmpa;
    bool gathered; /* kv holds the key j->key */
    pv_row *out;
    size_t release_block, release_at; /* RELEASE: the block and the byte in it */
    int phase;
    size_t key;    /* LOAD, RANK: the key loaded; PASS: the key ordered */
    unsigned byte; /* PASS: 0..7 the value's bytes, 8 the absent cells */
    bool pass_open;
    size_t at;
    size_t offs[256];
    uint64_t done, total;
    /* work arrays no longer needed, released by RELEASE with the others
     * (freeing 50-400 MB in the middle of a step would make it long) */
    void *spent[4 * PV_SORT_MAX_KEYS + 4 + 6];
    size_t spent_bytes[4 * PV_SORT_MAX_KEYS + 4 + 6];
    size_t spent_count;
    /* APPLY of a tree: the sorted pre-order, built in steps */
    pv_tree_order tree;
    bool tree_started;
    uint64_t tree_spent; /* budget units spent on it */
};

static void pv_sj_spend(pv_sort_job *j, void *p, size_t bytes)
{
    if (!p)
        return;
    if (j->spent_count == PV_ARRAY_LEN(j->spent)) {
        free(p); /* cannot happen: at most four per key */
        return;
    }
    j->spent[j->spent_count] = p;
    j->spent_bytes[j->spent_count++] = bytes;
}

static void pv_sj_spend_cb(void *ctx, void *p, size_t bytes)
{
    pv_sj_spend(ctx, p, bytes);
}

static size_t pv_sj_row(const pv_sort_job *j, size_t i)
{
    return j->rows ? j->rows[i] : i;
}

static uint64_t pv_sj_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

static void pv_sj_hash_insert(pv_sj_col *c, uint32_t cls)
{
    size_t mask = c->hash_cap - 1;
    size_t at = pv_sj_hash(c->cls_ptr[cls], c->cls_len[cls]) & mask;
    while (c->hash[at])
        at = (at + 1) & mask;
    c->hash[at] = cls + 1;
}

/* The class of a text, added when new. */
static uint32_t pv_sj_intern(pv_sj_col *c, const char *ptr, size_t len)
{
    size_t slot = (((uintptr_t)ptr >> 3) ^ len) & (PV_SJ_PTR_CACHE - 1);
    if (c->pcache[slot].ptr == ptr && c->pcache[slot].len == len && ptr)
        return c->pcache[slot].cls;
    if (c->cls_count * 2 >= c->hash_cap) {
        free(c->hash);
        c->hash_cap = c->hash_cap ? c->hash_cap * 2 : 1024;
        c->hash = pv_xcalloc(c->hash_cap, sizeof *c->hash);
        for (size_t k = 0; k < c->cls_count; k++)
            pv_sj_hash_insert(c, (uint32_t)k);
    }
    size_t mask = c->hash_cap - 1;
    size_t at = pv_sj_hash(ptr, len) & mask;
    uint32_t cls;
    for (;;) {
        uint32_t h = c->hash[at];
        if (!h) {
            size_t cap = c->cls_cap;
            c->cls_ptr = pv_xgrow(c->cls_ptr, &c->cls_cap, c->cls_count + 1, sizeof *c->cls_ptr);
            c->cls_len = pv_xgrow(c->cls_len, &cap, c->cls_count + 1, sizeof *c->cls_len);
            cls = (uint32_t)c->cls_count++;
            c->cls_ptr[cls] = ptr;
            c->cls_len[cls] = len;
            c->hash[at] = cls + 1;
            break;
        }
        uint32_t k = h - 1;
        if (c->cls_len[k] == len && (len == 0 || memcmp(c->cls_ptr[k], ptr, len) == 0)) {
            cls = k;
            break;
        }
        at = (at + 1) & mask;
    }
    c->pcache[slot].ptr = ptr;
    c->pcache[slot].len = len;
    c->pcache[slot].cls = cls;
    return cls;
}

pv_sort_job *pv_sort_job_new(const pv_view *v, const pv_sort_key *keys, size_t key_count,
                             const pv_row *rows, size_t n)
{
    pv_sort_job *j = pv_xcalloc(1, sizeof *j);
    j->v = v;
    j->rows = rows;
    j->n = n;
    if (key_count > PV_SORT_MAX_KEYS)
        key_count = PV_SORT_MAX_KEYS;
    j->key_count = key_count;
    /* n <= PV_VIEW_ROWS_MAX: positions (perm) fit in 32 bits */
    if (key_count == 0 || n < 2) {
        j->phase = PV_SJ_DONE;
        j->out = pv_xmalloc((n ? n : 1) * sizeof *j->out);
        for (size_t i = 0; i < n; i++)
            j->out[i] = (pv_row)pv_sj_row(j, i);
        return j;
    }
    pv_sort_runs_count++;
    for (size_t k = 0; k < key_count; k++) {
        pv_sj_col *c = &j->cols[k];
        c->column = keys[k].column;
        c->descending = keys[k].descending;
        c->str = v->columns[c->column].type == PV_TYPE_STRING;
        c->val = pv_xmalloc(n * sizeof *c->val);
        if (c->str && (v->columns[c->column].flags & PV_COL_GROUPED) && v->ops->row_group &&
            v->group_count)
            c->group_cls = pv_xcalloc(v->group_count, sizeof *c->group_cls);
    }
    j->perm = pv_xmalloc(n * sizeof *j->perm); /* the identity, written by the first LOAD */
    j->tmp = pv_xmalloc(n * sizeof *j->tmp);
    /* load + rank per key, about two passes per key, the placing */
    j->total = (uint64_t)n * (4 * key_count + 1);
    return j;
}

/* Reads the key cell of position i into c (LOAD). */
static void pv_sj_load_one(pv_sort_job *j, pv_sj_col *c, size_t i)
{
    const pv_view *v = j->v;
    size_t row = pv_sj_row(j, i);
    uint32_t g = UINT32_MAX;
    if (c->group_cls) {
        g = v->ops->row_group(v, row);
        if (g < v->group_count && c->group_cls[g]) {
            if (c->group_cls[g] == 1)
                goto absent;
            c->val[i] = c->group_cls[g] - 2;
            return;
        }
    }
    pv_cell cell;
    pv_view_cell(v, row, c->column, &cell);
    if (!cell.present || cell.type != v->columns[c->column].type) {
        if (g < v->group_count)
            c->group_cls[g] = 1;
        goto absent;
    }
    switch (cell.type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        c->val[i] = pv_encode_int(cell.v.i);
        break;
    case PV_TYPE_FLOAT:
        c->val[i] = pv_encode_float(cell.v.f);
        break;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX:
        c->val[i] = cell.v.u;
        break;
    case PV_TYPE_STRING: {
        uint32_t cls = pv_sj_intern(c, cell.v.s.ptr, cell.v.s.len);
        c->val[i] = cls;
        if (g < v->group_count)
            c->group_cls[g] = cls + 2;
        break;
    }
    }
    return;
absent:
    if (!c->absent)
        c->absent = pv_xcalloc(j->n, 1);
    c->absent[i] = 1;
    c->absent_count++;
    c->val[i] = 0;
}

static void pv_sj_hist(pv_sj_col *c, uint64_t x)
{
    if (c->descending)
        x = ~x;
    for (unsigned b = 0; b < 8; b++)
        c->hist[b][(x >> (8 * b)) & 0xFF]++;
}

typedef struct pv_sj_text {
    const char *ptr;
    size_t len;
    uint32_t cls;
} pv_sj_text;

static int pv_sj_text_cmp(const void *pa, const void *pb)
{
    const pv_sj_text *a = pa, *b = pb;
    size_t m = a->len < b->len ? a->len : b->len;
    int d = m ? memcmp(a->ptr, b->ptr, m) : 0;
    return d ? d : (a->len > b->len) - (a->len < b->len);
}

/* Is byte `b` of every value the same (a pass that would change nothing)? */
static bool pv_sj_skip(const pv_sort_job *j, const pv_sj_col *c, unsigned b)
{
    if (b == 8)
        return c->absent_count == 0 || c->absent_count == j->n;
    for (unsigned d = 0; d < 256; d++)
        if (c->hist[b][d])
            return c->hist[b][d] == j->n;
    return true;
}

/* After loading and ranking: the exact work left, for the percentage. */
static void pv_sj_count_passes(pv_sort_job *j)
{
    uint64_t passes = 0;
    for (size_t k = 0; k < j->key_count; k++)
        for (unsigned b = 0; b <= 8; b++)
            passes += !pv_sj_skip(j, &j->cols[k], b);
    j->total = j->done + (passes + 1) * j->n;
}

void pv_sort_job_deadline(pv_sort_job *j, double deadline)
{
    j->deadline = deadline;
}

/* The keys are loaded (and ranked): the passes, from the last key. */
static int pv_sj_loaded(pv_sort_job *j)
{
    j->key = j->key_count - 1;
    pv_sj_count_passes(j);
    return PV_SJ_PASS;
}

static int pv_sj_load(void *job, pv_budget *b)
{
    /* reading a cell is the dearest work per row (a timeline's context is
     * looked up, a text interned): four units of the budget (docs/tui.md
     * "Long operations") */
    pv_sort_job *j = job;
    pv_sj_col *c = &j->cols[j->key];
    size_t n = j->n, end = pv_budget_end(j->at, n, b->units / 4 + 1);
    for (size_t i = j->at; i < end; i++) {
        if ((i & 1023) == 1023 && i > j->at && pv_budget_late(b)) {
            end = i; /* a view whose cells are slow */
            break;
        }
        pv_sj_load_one(j, c, i);
        if (!c->str)
            pv_sj_hist(c, c->val[i]);
    }
    if (j->key == 0)
        for (size_t i = j->at; i < end; i++)
            j->perm[i] = (uint32_t)i;
    pv_budget_spend(b, 4 * (end - j->at));
    j->done += end - j->at;
    j->at = end;
    if (end < n)
        return PV_SJ_LOAD;
    j->at = 0;
    if (c->str)
        return PV_SJ_RANK;
    return ++j->key == j->key_count ? pv_sj_loaded(j) : PV_SJ_LOAD;
}

/* The distinct texts of a string key in order: few, so sorted at once. */
static void pv_sj_rank_texts(pv_sj_col *c, pv_budget *b)
{
    pv_sj_text *t = pv_xmalloc((c->cls_count ? c->cls_count : 1) * sizeof *t);
    for (size_t k = 0; k < c->cls_count; k++)
        t[k] = (pv_sj_text){c->cls_ptr[k], c->cls_len[k], (uint32_t)k};
    qsort(t, c->cls_count, sizeof *t, pv_sj_text_cmp);
    c->rank = pv_xmalloc((c->cls_count ? c->cls_count : 1) * sizeof *c->rank);
    for (size_t k = 0; k < c->cls_count; k++)
        c->rank[t[k].cls] = (uint32_t)k;
    free(t);
    size_t cost = c->cls_count / 8;
    b->units -= cost < b->units ? cost : b->units - 1;
}

static int pv_sj_rank(void *job, pv_budget *b)
{
    pv_sort_job *j = job;
    pv_sj_col *c = &j->cols[j->key];
    if (!c->rank)
        pv_sj_rank_texts(c, b);
    size_t n = j->n, end = pv_budget_end(j->at, n, b->units);
    for (size_t i = j->at; i < end; i++) {
        if (!c->absent || !c->absent[i])
            c->val[i] = c->rank[c->val[i]];
        pv_sj_hist(c, c->val[i]);
    }
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (end < n)
        return PV_SJ_RANK;
    j->at = 0;
    return ++j->key == j->key_count ? pv_sj_loaded(j) : PV_SJ_LOAD;
}

/* The byte pass after this one (the next key's, APPLY after the first's). */
static int pv_sj_next_pass(pv_sort_job *j)
{
    if (++j->byte <= 8)
        return PV_SJ_PASS;
    size_t n = j->n;
    j->byte = 0;
    j->gathered = false;
    j->at = 0;
    pv_sj_spend(j, j->ka, n);
    pv_sj_spend(j, j->tmpa, n);
    j->ka = j->tmpa = NULL;
    if (j->key > 0) {
        j->key--;
        return PV_SJ_PASS;
    }
    j->out = pv_xmalloc(n * sizeof *j->out);
    return PV_SJ_APPLY;
}

/* The key being ordered, gathered into kv (and ka) in permutation order,
 * about b->units rows of it; its values are spent once gathered. */
static int pv_sj_gather(pv_sort_job *j, pv_budget *b)
{
    size_t n = j->n;
    pv_sj_col *c = &j->cols[j->key];
    bool any = false;
    for (unsigned byte = 0; byte <= 8 && !any; byte++)
        any = !pv_sj_skip(j, c, byte);
    if (!any) { /* every row has the same value */
        j->byte = 8;
        return pv_sj_next_pass(j);
    }
    bool need_abs = !pv_sj_skip(j, c, 8);
    /* The first key ordered: perm is the identity, so its values are
     * already in that order (taken over, flipped in place when
     * descending). */
    bool first = j->key == j->key_count - 1;
    uint64_t flip = c->descending ? UINT64_MAX : 0;
    if (first && c->val) {
        pv_sj_spend(j, j->kv, n * sizeof *j->kv);
        j->kv = c->val;
        c->val = NULL;
        pv_sj_spend(j, j->ka, n);
        j->ka = NULL;
        if (need_abs) {
            j->ka = c->absent;
            c->absent = NULL;
        }
        j->at = 0;
    }
    if (!first && !j->kv)
        j->kv = pv_xmalloc(n * sizeof *j->kv);
    if (!first && need_abs && !j->ka)
        j->ka = pv_xmalloc(n);
    size_t end = pv_budget_end(j->at, n, b->units);
    if (first && !flip)
        end = n;
    for (size_t i = j->at; i < end && first && flip; i++)
        j->kv[i] = ~j->kv[i];
    for (size_t i = j->at; i < end && !first; i++) {
        uint32_t p = j->perm[i];
        j->kv[i] = c->val[p] ^ flip;
        if (need_abs)
            j->ka[i] = c->absent[p];
    }
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (end < n)
        return PV_SJ_PASS;
    j->at = 0;
    if (!need_abs) {
        pv_sj_spend(j, j->ka, n);
        j->ka = NULL;
    }
    pv_sj_spend(j, c->val, n * sizeof *c->val); /* in kv now */
    c->val = NULL;
    j->gathered = true;
    return PV_SJ_PASS;
}

/* A pass starts: where each byte value's rows go. */
static void pv_sj_pass_open(pv_sort_job *j, const pv_sj_col *c)
{
    size_t sum = 0;
    if (j->byte == 8) {
        size_t first = c->descending ? j->n - c->absent_count : c->absent_count;
        j->offs[0] = 0;
        j->offs[1] = first;
    } else {
        for (unsigned d = 0; d < 256; d++) { /* histograms are of the ordered values */
            j->offs[d] = sum;
            sum += c->hist[j->byte][d];
        }
    }
    j->pass_open = true;
    j->at = 0;
}

/* Places rows [j->at, end) by the pass's byte. */
static void pv_sj_place(pv_sort_job *j, const pv_sj_col *c, size_t end)
{
    unsigned b = j->byte;
    if (b == 8) { /* absent first ascending, last descending */
        for (size_t i = j->at; i < end; i++) {
            size_t o = j->offs[(j->ka[i] != 0) == c->descending]++;
            j->tmp[o] = j->perm[i];
            j->tmpk[o] = j->kv[i];
            j->tmpa[o] = j->ka[i];
        }
    } else if (j->ka) {
        for (size_t i = j->at; i < end; i++) {
            size_t o = j->offs[(j->kv[i] >> (8 * b)) & 0xFF]++;
            j->tmp[o] = j->perm[i];
            j->tmpk[o] = j->kv[i];
            j->tmpa[o] = j->ka[i];
        }
    } else {
        for (size_t i = j->at; i < end; i++) {
            size_t o = j->offs[(j->kv[i] >> (8 * b)) & 0xFF]++;
            j->tmp[o] = j->perm[i];
            j->tmpk[o] = j->kv[i];
        }
    }
}

static int pv_sj_pass(void *job, pv_budget *b)
{
    pv_sort_job *j = job;
    size_t n = j->n;
    pv_sj_col *c = &j->cols[j->key];
    if (!j->gathered && j->byte == 0)
        return pv_sj_gather(j, b);
    if (!j->pass_open) {
        if (pv_sj_skip(j, c, j->byte))
            return pv_sj_next_pass(j);
        pv_sj_pass_open(j, c);
    }
    if (!j->tmpk)
        j->tmpk = pv_xmalloc(n * sizeof *j->tmpk);
    if (j->ka && !j->tmpa)
        j->tmpa = pv_xmalloc(n);
    size_t end = pv_budget_end(j->at, n, b->units);
    pv_sj_place(j, c, end);
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (end < n)
        return PV_SJ_PASS;
    uint32_t *t = j->perm;
    j->perm = j->tmp;
    j->tmp = t;
    uint64_t *tk = j->kv;
    j->kv = j->tmpk;
    j->tmpk = tk;
    uint8_t *ta = j->ka;
    j->ka = j->tmpa;
    j->tmpa = ta;
    j->pass_open = false;
    j->at = 0;
    return pv_sj_next_pass(j);
}

/* APPLY of a tree: the selection in pre-order, then siblings among
 * themselves (pv_tree_order), in steps. */
static int pv_sj_apply_tree(pv_sort_job *j, pv_budget *b)
{
    size_t n = j->n;
    if (!j->tree_started) {
        size_t end = pv_budget_end(j->at, n, b->units);
        for (size_t i = j->at; i < end; i++)
            j->out[i] = (pv_row)pv_sj_row(j, i);
        pv_budget_spend(b, end - j->at);
        j->at = end;
        if (j->at == n) {
            pv_tree_order_init(&j->tree, j->v, NULL, j->perm, j->out, n);
            j->tree_started = true;
            j->at = 0;
        }
        return PV_SJ_APPLY;
    }
    size_t before = b->units;
    bool finished = pv_tree_order_step(&j->tree, b);
    uint64_t work = (uint64_t)j->tree.total + 14 * (uint64_t)n;
    uint64_t was = j->tree_spent * n / (work ? work : 1);
    j->tree_spent += before - b->units;
    j->done += j->tree_spent * n / (work ? work : 1) - was;
    if (!finished)
        return PV_SJ_APPLY;
    pv_tree_order_free(&j->tree, pv_sj_spend_cb, j);
    j->tree_started = false;
    j->at = n;
    j->done = j->total;
    return PV_SJ_RELEASE;
}

static int pv_sj_apply(void *job, pv_budget *b)
{
    pv_sort_job *j = job;
    if (pv_view_is_tree(j->v))
        return pv_sj_apply_tree(j, b);
    size_t n = j->n, end = pv_budget_end(j->at, n, b->units);
    for (size_t i = j->at; i < end; i++)
        j->out[i] = (pv_row)pv_sj_row(j, j->perm[i]);
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (j->at < n)
        return PV_SJ_APPLY;
    j->done = j->total;
    return PV_SJ_RELEASE;
}

static int pv_sj_release(void *job, pv_budget *b)
{
    /* The work arrays (gigabytes at 50 M rows) go back to the system in
     * pieces, so that freeing them is no long pause. */
    pv_sort_job *j = job;
    size_t n = j->n;
    void *blocks[2 * PV_SORT_MAX_KEYS + 6 + PV_ARRAY_LEN(j->spent)];
    size_t sizes[PV_ARRAY_LEN(blocks)], count = 0;
#define PV_SJ_BLOCK(p, sz)            \
    do {                              \
        if (p) {                      \
            blocks[count] = (p);      \
            sizes[count++] = (sz);    \
        }                             \
    } while (0)
    for (size_t k = 0; k < j->key_count; k++) {
        PV_SJ_BLOCK(j->cols[k].val, n * sizeof(uint64_t));
        PV_SJ_BLOCK(j->cols[k].absent, n);
    }
    PV_SJ_BLOCK(j->perm, n * sizeof(uint32_t));
    PV_SJ_BLOCK(j->tmp, n * sizeof(uint32_t));
    PV_SJ_BLOCK(j->kv, n * sizeof(uint64_t));
    PV_SJ_BLOCK(j->tmpk, n * sizeof(uint64_t));
    PV_SJ_BLOCK(j->ka, n);
    PV_SJ_BLOCK(j->tmpa, n);
    for (size_t k = 0; k < j->spent_count; k++)
        PV_SJ_BLOCK(j->spent[k], j->spent_bytes[k]);
#undef PV_SJ_BLOCK
    size_t bytes = b->units > SIZE_MAX / 64 ? SIZE_MAX : b->units * 64;
    b->units = 0;
    while (bytes > 0 && j->release_block < count) {
        size_t k = j->release_block, left = sizes[k] - j->release_at;
        size_t piece = left < bytes ? left : bytes;
        pv_release((char *)blocks[k] + j->release_at, piece);
        j->release_at += piece;
        bytes -= piece;
        if (j->release_at == sizes[k]) {
            j->release_block++;
            j->release_at = 0;
        }
    }
    return j->release_block >= count ? PV_SJ_DONE : PV_SJ_RELEASE;
}

static const pv_phase_fn pv_sj_phases[] = {
    [PV_SJ_LOAD] = pv_sj_load,   [PV_SJ_RANK] = pv_sj_rank,       [PV_SJ_PASS] = pv_sj_pass,
    [PV_SJ_APPLY] = pv_sj_apply, [PV_SJ_RELEASE] = pv_sj_release,
};

bool pv_sort_job_step(pv_sort_job *j, size_t budget)
{
    pv_budget b = {budget, j->deadline};
    return pv_phases_run(j, pv_sj_phases, &j->phase, PV_SJ_DONE, &b);
}

double pv_sort_job_progress(const pv_sort_job *j)
{
    if (j->phase == PV_SJ_DONE || !j->total)
        return 1.0;
    double f = (double)j->done / (double)j->total;
    return f > 0.99 ? 0.99 : f;
}

pv_row *pv_sort_job_take(pv_sort_job *j)
{
    if (j->phase != PV_SJ_DONE)
        return NULL;
    pv_row *out = j->out;
    j->out = NULL;
    return out;
}

void pv_sort_job_free(pv_sort_job *j)
{
    if (!j)
        return;
    for (size_t k = 0; k < j->key_count; k++) {
        pv_sj_col *c = &j->cols[k];
        free(c->val);
        free(c->absent);
        free(c->cls_ptr);
        free(c->cls_len);
        free(c->hash);
        free(c->group_cls);
        free(c->rank);
    }
    if (j->tree_started)
        pv_tree_order_free(&j->tree, NULL, NULL);
    free(j->perm);
    free(j->tmp);
    free(j->kv);
    free(j->tmpk);
    free(j->ka);
    free(j->tmpa);
    for (size_t k = 0; k < j->spent_count; k++)
        free(j->spent[k]);
    free(j->out);
    free(j);
}

static bool pv_is_blank(char c)
{
    return c == ' ' || c == '\t';
}

bool pv_sort_parse(const pv_view *v, const char *spec, pv_sort_key *keys, size_t *key_count,
                   pv_query_error *err)
{
    pv_query_error scratch_err;
    if (!err)
        err = &scratch_err;
    err->position = 0;
    err->message[0] = '\0';
    *key_count = 0;
    size_t i = 0;
    for (;;) {
        while (pv_is_blank(spec[i]))
            i++;
        size_t start = i;
        while (spec[i] && spec[i] != ',' && spec[i] != ':' && !pv_is_blank(spec[i]))
            i++;
        if (i == start) {
            pv_query_fail(err, start, "expected a column id");
            return false;
        }
        char *name = pv_xstrndup(spec + start, i - start);
        size_t col = pv_view_column(v, name);
        if (col == PV_NO_ROW) {
            pv_query_fail(err, start, "unknown column '%s'", name);
            pv_query_append_columns(err, v);
            free(name);
            return false;
        }
        free(name);
        bool descending = false;
        while (pv_is_blank(spec[i]))
            i++;
        if (spec[i] == ':') {
            i++;
            while (pv_is_blank(spec[i]))
                i++;
            size_t dstart = i;
            while (isalpha((unsigned char)spec[i]))
                i++;
            size_t dlen = i - dstart;
            if (dlen == 4 && strncasecmp(spec + dstart, "desc", 4) == 0) {
                descending = true;
            } else if (!(dlen == 3 && strncasecmp(spec + dstart, "asc", 3) == 0)) {
                pv_query_fail(err, dstart, "expected 'asc' or 'desc' after ':'");
                return false;
            }
            while (pv_is_blank(spec[i]))
                i++;
        }
        if (*key_count == PV_SORT_MAX_KEYS) {
            pv_query_fail(err, start, "more than %d sort keys", PV_SORT_MAX_KEYS);
            return false;
        }
        keys[*key_count].column = col;
        keys[*key_count].descending = descending;
        (*key_count)++;
        if (spec[i] == '\0')
            return true;
        if (spec[i] != ',') {
            pv_query_fail(err, i, "unexpected '%c' (write COL[:desc],COL...)", spec[i]);
            return false;
        }
        i++;
    }
}
