/* diff.c - two views matched by identity, with before/after/delta/ratio
 * columns (docs/diff.md).  Reads both views only through the view API. */
#include "profview/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool diff_is_numeric(pv_type t)
{
    return t == PV_TYPE_INT || t == PV_TYPE_TIME || t == PV_TYPE_FLOAT;
}

static bool diff_is_key_type(pv_type t)
{
    return t == PV_TYPE_STRING || t == PV_TYPE_HANDLE || t == PV_TYPE_HEX;
}

/* A hash of a row's key cells, read as typed values (no text is made). */
static uint64_t diff_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h;
}

static uint64_t diff_hash_bytes(const char *s, size_t n, uint64_t h)
{
    h ^= n * UINT64_C(0x9E3779B97F4A7C15);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = diff_mix(h ^ w) + UINT64_C(0x632BE59BD9B4E019);
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    return diff_mix(h ^ w ^ ((uint64_t)n << 56));
}

static uint64_t diff_row_hash(const pv_view *v, size_t row, const size_t *cols, size_t ncols)
{
    uint64_t h = UINT64_C(0x243F6A8885A308D3);
    pv_cell c;
    for (size_t j = 0; j < ncols; j++) {
        pv_view_cell(v, row, cols[j], &c);
        if (!c.present)
            h = diff_mix(h ^ UINT64_C(0xA5A5A5A5));
        else if (c.type == PV_TYPE_STRING)
            h = diff_hash_bytes(c.v.s.ptr, c.v.s.len, h);
        else
            h = diff_mix(h ^ c.v.u) + 1; /* the union's bits: INT, HANDLE, HEX alike */
    }
    return h;
}

static bool diff_rows_equal(const pv_view *a, size_t ra, const size_t *ca, const pv_view *b,
                            size_t rb, const size_t *cb, size_t ncols)
{
    pv_cell x, y;
    for (size_t j = 0; j < ncols; j++) {
        pv_view_cell(a, ra, ca[j], &x);
        pv_view_cell(b, rb, cb[j], &y);
        if (x.present != y.present)
            return false;
        if (x.present && pv_cell_compare(&x, &y) != 0)
            return false;
    }
    return true;
}

/* INT columns that name or place a row rather than measure it: indices,
 * positions, numbers of calls and records, ids of other rows, line numbers,
 * threads and cores.  They are carried (C_a, C_b), never subtracted
 * (docs/diff.md "Columns"); `id` and `parent`, references to rows of their
 * own view, are left out. */
static bool diff_is_reference(const pv_column *c)
{
    static const char *const ids[] = {"index", "number", "next", "object", "thread",  "core",
                                      "depth", "token",  "line", "recid",  "position"};
    static const char *const ends[] = {"_id", "_no", "_line", "_number", "_index", "_code"};
    if (c->type != PV_TYPE_INT)
        return false;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcasecmp(c->id, ids[i]) == 0)
            return true;
    size_t len = strlen(c->id);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t n = strlen(ends[i]);
        if (len > n && strcasecmp(c->id + len - n, ends[i]) == 0)
            return true;
    }
    return false;
}

/* A numeric column of a compared: its column in b (PV_NO_ROW: b lacks
 * it), and whether it is carried (a reference: C_a, C_b) or measured
 * (C_a, C_b, C_delta, C_ratio). */
typedef struct diff_measure {
    size_t col_a, col_b;
    bool carried;
} diff_measure;

/* A column of the diff after the keys: the measure it shows and which
 * part of it (0 a, 1 b, 2 delta, 3 ratio). */
typedef struct diff_part {
    uint32_t measure;
    uint8_t part;
} diff_part;

/* The diff view is virtual: a (row of a, row of b) pair per row, cells
 * read from the two views when asked (docs/diff.md: they must outlive it). */
typedef struct diff_impl {
    const pv_view *a, *b;
    size_t *ra, *rb; /* PV_NO_ROW on the missing side */
    size_t rows;
    size_t nkeys, nnum, nparts;
    size_t *key_a, *key_b;
    diff_measure *num;
    diff_part *parts;
} diff_impl;

static size_t diff_rows(const pv_view *v)
{
    return ((const diff_impl *)v->impl)->rows;
}

static double diff_as_double(const pv_cell *c)
{
    return c->type == PV_TYPE_FLOAT ? c->v.f : (double)c->v.i;
}

/* The cell of measure m on a side (row PV_NO_ROW: absent), as of type
 * `type` (b's column may be of another numeric type: taken as a's). */
static void diff_side(const pv_view *v, size_t row, size_t col, pv_type type, pv_cell *c)
{
    c->present = false;
    c->type = type;
    c->v.u = 0;
    if (row == PV_NO_ROW || col == PV_NO_ROW)
        return;
    pv_view_cell(v, row, col, c);
    if (c->present && c->type != type) {
        double x = diff_as_double(c);
        c->type = type;
        if (type == PV_TYPE_FLOAT)
            c->v.f = x;
        else
            c->v.i = (int64_t)x;
    }
}

/* Part `part` (0 a, 1 b, 2 b - a, 3 b / a) of measure m on diff row `row`. */
static void diff_measure_cell(const diff_impl *d, size_t row, const diff_part *p, pv_cell *out)
{
    const diff_measure *m = &d->num[p->measure];
    pv_type type = d->a->columns[m->col_a].type;
    pv_cell ca, cb;
    diff_side(d->a, p->part != 1 ? d->ra[row] : PV_NO_ROW, m->col_a, type, &ca);
    diff_side(d->b, p->part != 0 ? d->rb[row] : PV_NO_ROW, m->col_b, type, &cb);
    if (p->part == 0 || p->part == 1) {
        *out = p->part == 0 ? ca : cb;
        return;
    }
    if (!ca.present || !cb.present)
        return;
    if (p->part == 2) {
        out->present = true;
        if (type == PV_TYPE_FLOAT)
            out->v.f = cb.v.f - ca.v.f;
        else
            out->v.i = (int64_t)((uint64_t)cb.v.i - (uint64_t)ca.v.i);
    } else if (diff_as_double(&ca) != 0.0) {
        out->present = true;
        out->v.f = diff_as_double(&cb) / diff_as_double(&ca);
    }
}

static void diff_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const diff_impl *d = v->impl;
    size_t ra = d->ra[row], rb = d->rb[row];
    out->type = v->columns[col].type;
    out->present = false;
    out->v.u = 0;
    if (col == 0) {
        out->present = true;
        out->v.i = (int64_t)row + 1;
    } else if (col == 1) {
        const char *m = ra == PV_NO_ROW ? "b" : rb == PV_NO_ROW ? "a" : "both";
        out->present = true;
        out->v.s.ptr = m;
        out->v.s.len = strlen(m);
    } else if (col - 2 < d->nkeys) {
        if (ra != PV_NO_ROW)
            pv_view_cell(d->a, ra, d->key_a[col - 2], out);
        else
            pv_view_cell(d->b, rb, d->key_b[col - 2], out);
    } else {
        diff_measure_cell(d, row, &d->parts[col - 2 - d->nkeys], out);
    }
}

static void diff_impl_free(diff_impl *d)
{
    if (!d)
        return;
    free(d->ra);
    free(d->rb);
    free(d->key_a);
    free(d->key_b);
    free(d->num);
    free(d->parts);
    free(d);
}

static void diff_destroy(pv_view *v)
{
    diff_impl_free(v->impl);
    pv_view_free_names(v);
    free(v);
}

static const pv_view_ops diff_ops = {diff_rows, diff_cell, NULL, NULL, diff_destroy, NULL};

/* ---- the columns compared */

/* The key columns: a's PV_COL_KEY columns (without any, its text, handle
 * and hex columns), each found in b; false with a message when b lacks
 * one. */
static bool diff_key_columns(diff_impl *d, char *err, size_t err_len)
{
    const pv_view *a = d->a, *b = d->b;
    d->key_a = pv_xmalloc((a->column_count + 1) * sizeof *d->key_a);
    d->key_b = pv_xmalloc((a->column_count + 1) * sizeof *d->key_b);
    bool flagged = false;
    for (size_t c = 0; c < a->column_count; c++)
        flagged |= (a->columns[c].flags & PV_COL_KEY) != 0;
    for (size_t c = 0; c < a->column_count; c++) {
        bool is_key = flagged ? (a->columns[c].flags & PV_COL_KEY) != 0
                              : diff_is_key_type(a->columns[c].type);
        if (!is_key)
            continue;
        size_t cb = pv_view_column(b, a->columns[c].id);
        if (cb == PV_NO_ROW || b->columns[cb].type != a->columns[c].type) {
            snprintf(err, err_len, "the second view '%s' has no %s column '%s' to match rows by",
                     b->id, pv_type_name(a->columns[c].type), a->columns[c].id);
            return false;
        }
        d->key_a[d->nkeys] = c;
        d->key_b[d->nkeys++] = cb;
    }
    return true;
}

/* The numeric columns of a that are not keys, `id` or `parent`: measured,
 * or carried when they are references; and the diff's columns after the
 * keys, four per measure, two per reference. */
static void diff_measure_columns(diff_impl *d)
{
    const pv_view *a = d->a, *b = d->b;
    d->num = pv_xmalloc((a->column_count + 1) * sizeof *d->num);
    d->parts = pv_xmalloc((4 * a->column_count + 1) * sizeof *d->parts);
    for (size_t c = 0; c < a->column_count; c++) {
        const pv_column *col = &a->columns[c];
        if (!diff_is_numeric(col->type) || strcasecmp(col->id, "id") == 0 ||
            strcasecmp(col->id, "parent") == 0)
            continue;
        bool is_key = false;
        for (size_t k = 0; k < d->nkeys; k++)
            is_key |= d->key_a[k] == c;
        if (is_key)
            continue;
        size_t cb = pv_view_column(b, col->id);
        if (cb != PV_NO_ROW && !diff_is_numeric(b->columns[cb].type))
            cb = PV_NO_ROW;
        diff_measure *m = &d->num[d->nnum];
        *m = (diff_measure){c, cb, diff_is_reference(col)};
        for (uint8_t part = 0; part < (m->carried ? 2 : 4); part++)
            d->parts[d->nparts++] = (diff_part){(uint32_t)d->nnum, part};
        d->nnum++;
    }
}

/* The diff's columns: `id`, `match`, the keys, then per measure C_a, C_b,
 * C_delta, C_ratio (a reference: C_a, C_b).  The titles put what tells
 * them apart first, so that a title cut to a narrow column still says
 * which it is: "a Time", "b Time", "Δ Time", "× Time" (ASCII "d", "x"). */
static pv_column *diff_columns(const diff_impl *d, bool ascii, size_t *count)
{
    static const char *const suffix[4] = {"_a", "_b", "_delta", "_ratio"};
    static const char *const utf8[4] = {"a", "b", "\xce\x94", "\xc3\x97"};
    static const char *const plain[4] = {"a", "b", "d", "x"};
    const pv_view *a = d->a;
    size_t n = 2 + d->nkeys + d->nparts, k = 0;
    pv_column *cols = pv_xcalloc(n, sizeof *cols);
    cols[k++] = (pv_column){pv_xstrdup("id"), pv_xstrdup("Id"), PV_TYPE_INT, PV_COL_HIDDEN};
    cols[k++] = (pv_column){pv_xstrdup("match"), pv_xstrdup("Match"), PV_TYPE_STRING, 0};
    for (size_t i = 0; i < d->nkeys; i++) {
        const pv_column *src = &a->columns[d->key_a[i]];
        cols[k++] = (pv_column){pv_xstrdup(src->id), pv_xstrdup(src->title), src->type,
                                (src->flags & (PV_COL_NAME | PV_COL_HIDDEN)) | PV_COL_KEY};
    }
    for (size_t i = 0; i < d->nparts; i++) {
        const diff_part *p = &d->parts[i];
        const pv_column *src = &a->columns[d->num[p->measure].col_a];
        unsigned flags = src->flags & (PV_COL_HIDDEN | PV_COL_DESC);
        cols[k++] = (pv_column){pv_xasprintf("%s%s", src->id, suffix[p->part]),
                                pv_xasprintf("%s %s", (ascii ? plain : utf8)[p->part], src->title),
                                p->part == 3 ? PV_TYPE_FLOAT : src->type, flags};
    }
    *count = n;
    return cols;
}

/* ---- matching, in steps: a hash table over a's keys (a repeated key
 * chains its rows in order), then each row of b takes the next unmatched
 * row of a with its key */

/* One slot per distinct key of a, 16 bytes: the hash's upper half, its
 * first row (an index into a's selection), the next to hand out, the last.
 * The hashes are computed in a phase of their own, so that the slot of a
 * row a few rows ahead can be prefetched: the probes are cache misses. */
typedef struct diff_slot {
    uint32_t hash, first, tail, last;
} diff_slot;

enum { DIFF_AHEAD = 16 };
enum { DIFF_HASH_A, DIFF_TABLE_A, DIFF_HASH_B, DIFF_MATCH_B, DIFF_ROWS, DIFF_DONE };

struct pv_diff_job {
    diff_impl *d;
    const pv_row *rows_a, *rows_b;
    size_t count_a, count_b;
    bool ascii;
    int phase;
    size_t at;
    uint64_t done, total; /* rows handled, of all the phases' */
    size_t cap;           /* slots, a power of two */
    uint64_t *hashes;     /* of a's rows, then of b's */
    diff_slot *slots;
    uint32_t *next;       /* the next row of a with the same key */
    size_t *partner_of_a; /* b's row matched with each row of a */
    size_t *only_b, only_b_count, matched;
};

static size_t diff_row_at(const pv_row *rows, size_t i)
{
    return rows ? rows[i] : i;
}

/* The slot of key hash h that holds row r of view v's keys (`cols`), or
 * the free slot where it would go. */
static size_t diff_probe(const pv_diff_job *j, uint64_t h, const pv_view *v, size_t r,
                         const size_t *cols)
{
    const diff_impl *d = j->d;
    size_t s = h & (j->cap - 1);
    while (j->slots[s].first != UINT32_MAX &&
           (j->slots[s].hash != (uint32_t)(h >> 32) ||
            !diff_rows_equal(d->a, diff_row_at(j->rows_a, j->slots[s].first), d->key_a, v, r, cols,
                             d->nkeys)))
        s = (s + 1) & (j->cap - 1);
    return s;
}

/* HASH_A, HASH_B: the key hashes of a piece of a's (b's) rows. */
static int diff_hash(pv_diff_job *j, pv_budget *b, bool side_b, int next)
{
    const pv_view *v = side_b ? j->d->b : j->d->a;
    const pv_row *rows = side_b ? j->rows_b : j->rows_a;
    const size_t *cols = side_b ? j->d->key_b : j->d->key_a;
    size_t n = side_b ? j->count_b : j->count_a;
    size_t end = pv_budget_end(j->at, n, b->units);
    for (size_t i = j->at; i < end; i++)
        j->hashes[i] = diff_row_hash(v, diff_row_at(rows, i), cols, j->d->nkeys);
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (end < n)
        return side_b ? DIFF_HASH_B : DIFF_HASH_A;
    j->at = 0;
    return next;
}

static int diff_hash_a(void *job, pv_budget *b)
{
    return diff_hash(job, b, false, DIFF_TABLE_A);
}

static int diff_hash_b(void *job, pv_budget *b)
{
    return diff_hash(job, b, true, DIFF_MATCH_B);
}

/* TABLE_A: a piece of a's rows into the table. */
static int diff_table_a(void *job, pv_budget *b)
{
    pv_diff_job *j = job;
    size_t end = pv_budget_end(j->at, j->count_a, b->units);
    for (size_t i = j->at; i < end; i++) {
        if (i + DIFF_AHEAD < j->count_a)
            __builtin_prefetch(&j->slots[j->hashes[i + DIFF_AHEAD] & (j->cap - 1)], 1);
        uint64_t h = j->hashes[i];
        size_t s = diff_probe(j, h, j->d->a, diff_row_at(j->rows_a, i), j->d->key_a);
        diff_slot *slot = &j->slots[s];
        j->next[i] = UINT32_MAX;
        if (slot->first == UINT32_MAX) {
            slot->first = slot->tail = (uint32_t)i;
            slot->hash = (uint32_t)(h >> 32);
        } else {
            j->next[slot->last] = (uint32_t)i;
        }
        slot->last = (uint32_t)i;
    }
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (end < j->count_a)
        return DIFF_TABLE_A;
    j->at = 0;
    return DIFF_HASH_B;
}

/* MATCH_B: each of a piece of b's rows takes the next unmatched row of a
 * with its key, or is only in b. */
static int diff_match_b(void *job, pv_budget *b)
{
    pv_diff_job *j = job;
    size_t end = pv_budget_end(j->at, j->count_b, b->units);
    for (size_t i = j->at; i < end; i++) {
        if (i + DIFF_AHEAD < j->count_b)
            __builtin_prefetch(&j->slots[j->hashes[i + DIFF_AHEAD] & (j->cap - 1)], 1);
        size_t r = diff_row_at(j->rows_b, i);
        diff_slot *slot = &j->slots[diff_probe(j, j->hashes[i], j->d->b, r, j->d->key_b)];
        if (slot->first != UINT32_MAX && slot->tail != UINT32_MAX) {
            j->partner_of_a[slot->tail] = r;
            slot->tail = j->next[slot->tail];
            j->matched++;
        } else {
            j->only_b[j->only_b_count++] = r;
        }
    }
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    if (end < j->count_b)
        return DIFF_MATCH_B;
    j->at = 0;
    return DIFF_ROWS;
}

/* ROWS: the diff's rows, a's in a's order (each with its partner), then
 * those only in b. */
static int diff_pair_rows(void *job, pv_budget *b)
{
    pv_diff_job *j = job;
    diff_impl *d = j->d;
    if (!d->ra) {
        d->rows = j->count_a + j->only_b_count;
        d->ra = pv_xmalloc((d->rows ? d->rows : 1) * sizeof *d->ra);
        d->rb = pv_xmalloc((d->rows ? d->rows : 1) * sizeof *d->rb);
    }
    size_t end = pv_budget_end(j->at, d->rows, b->units);
    for (size_t i = j->at; i < end; i++) {
        bool in_a = i < j->count_a;
        d->ra[i] = in_a ? diff_row_at(j->rows_a, i) : PV_NO_ROW;
        d->rb[i] = in_a ? j->partner_of_a[i] : j->only_b[i - j->count_a];
    }
    pv_budget_spend(b, end - j->at);
    j->done += end - j->at;
    j->at = end;
    return end < d->rows ? DIFF_ROWS : DIFF_DONE;
}

static const pv_phase_fn diff_phases[] = {
    [DIFF_HASH_A] = diff_hash_a,   [DIFF_TABLE_A] = diff_table_a, [DIFF_HASH_B] = diff_hash_b,
    [DIFF_MATCH_B] = diff_match_b, [DIFF_ROWS] = diff_pair_rows,
};

pv_diff_job *pv_diff_begin(const pv_view *a, const pv_row *rows_a, size_t count_a, const pv_view *b,
                           const pv_row *rows_b, size_t count_b, unsigned flags, char *err,
                           size_t err_len)
{
    if (!rows_a)
        count_a = pv_view_rows(a);
    if (!rows_b)
        count_b = pv_view_rows(b);
    /* the diff has at most count_a + count_b rows, and no view more than
     * PV_VIEW_ROWS_MAX (docs/model.md "Row selections") */
    if (count_a >= UINT32_MAX || count_b >= UINT32_MAX || count_a + count_b > PV_VIEW_ROWS_MAX) {
        snprintf(err, err_len, "views of more than 4 G rows in all cannot be compared");
        return NULL;
    }
    diff_impl *d = pv_xcalloc(1, sizeof *d);
    d->a = a;
    d->b = b;
    if (!diff_key_columns(d, err, err_len)) {
        diff_impl_free(d);
        return NULL;
    }
    diff_measure_columns(d);
    pv_diff_job *j = pv_xcalloc(1, sizeof *j);
    *j = (pv_diff_job){.d = d,
                       .rows_a = rows_a,
                       .rows_b = rows_b,
                       .count_a = count_a,
                       .count_b = count_b,
                       .ascii = (flags & PV_DIFF_ASCII) != 0,
                       .cap = 16};
    /* hash, insert a; hash, match b; the rows (at most a + b) */
    j->total = 3 * (uint64_t)count_a + 3 * (uint64_t)count_b;
    while (j->cap < count_a + count_a / 2 + 2)
        j->cap *= 2;
    size_t most = count_a > count_b ? count_a : count_b;
    j->hashes = pv_xmalloc((most ? most : 1) * sizeof *j->hashes);
    j->slots = pv_xmalloc(j->cap * sizeof *j->slots);
    for (size_t i = 0; i < j->cap; i++)
        j->slots[i].first = UINT32_MAX;
    j->next = pv_xmalloc((count_a ? count_a : 1) * sizeof *j->next);
    j->partner_of_a = pv_xmalloc((count_a ? count_a : 1) * sizeof *j->partner_of_a);
    for (size_t i = 0; i < count_a; i++)
        j->partner_of_a[i] = PV_NO_ROW;
    j->only_b = pv_xmalloc((count_b ? count_b : 1) * sizeof *j->only_b);
    return j;
}

bool pv_diff_step(pv_diff_job *j, pv_budget *b)
{
    return pv_phases_run(j, diff_phases, &j->phase, DIFF_DONE, b);
}

double pv_diff_progress(const pv_diff_job *j)
{
    return j->total ? (double)j->done / (double)j->total : 1.0;
}

pv_view *pv_diff_take(pv_diff_job *j, pv_diff_counts *counts)
{
    if (j->phase != DIFF_DONE)
        return NULL;
    diff_impl *d = j->d;
    pv_view *v = pv_xcalloc(1, sizeof *v);
    v->ops = &diff_ops;
    v->id = pv_xstrdup("diff");
    v->title = pv_xasprintf("Diff of %s", d->a->title);
    v->columns = diff_columns(d, j->ascii, &v->column_count);
    v->impl = d;
    j->d = NULL;
    if (counts) {
        counts->matched = j->matched;
        counts->only_a = j->count_a - j->matched;
        counts->only_b = j->only_b_count;
    }
    return v;
}

void pv_diff_job_free(pv_diff_job *j)
{
    if (!j)
        return;
    diff_impl_free(j->d);
    free(j->hashes);
    free(j->slots);
    free(j->next);
    free(j->partner_of_a);
    free(j->only_b);
    free(j);
}

pv_view *pv_diff_views(const pv_view *a, const pv_row *rows_a, size_t count_a, const pv_view *b,
                       const pv_row *rows_b, size_t count_b, pv_diff_counts *counts, char *err,
                       size_t err_len)
{
    pv_diff_job *j = pv_diff_begin(a, rows_a, count_a, b, rows_b, count_b, 0, err, err_len);
    if (!j)
        return NULL;
    pv_budget all = {SIZE_MAX, 0};
    while (!pv_diff_step(j, &all))
        all.units = SIZE_MAX;
    pv_view *v = pv_diff_take(j, counts);
    pv_diff_job_free(j);
    return v;
}

bool pv_diff_is_delta_column(const pv_view *diff, size_t col)
{
    if (strcmp(diff->id, "diff") != 0 || col >= diff->column_count)
        return false;
    const char *id = diff->columns[col].id;
    size_t len = strlen(id);
    return len > 6 && strcmp(id + len - 6, "_delta") == 0;
}
