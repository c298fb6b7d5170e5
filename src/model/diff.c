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

/* The diff view is virtual: a (row of a, row of b) pair per row, cells
 * read from the two views when asked (docs/diff.md: they must outlive it). */
typedef struct diff_impl {
    const pv_view *a, *b;
    size_t *ra, *rb; /* PV_NO_ROW on the missing side */
    size_t rows;
    size_t nkeys, nnum;
    size_t *key_a, *key_b, *num_a, *num_b;
} diff_impl;

static size_t diff_rows(const pv_view *v)
{
    return ((const diff_impl *)v->impl)->rows;
}

static void diff_numeric(const pv_view *v, size_t row, size_t col, pv_cell *c)
{
    pv_view_cell(v, row, col, c);
}

static double diff_as_double(const pv_cell *c)
{
    return c->type == PV_TYPE_FLOAT ? c->v.f : (double)c->v.i;
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
        return;
    }
    if (col == 1) {
        const char *m = ra == PV_NO_ROW ? "b" : rb == PV_NO_ROW ? "a" : "both";
        out->present = true;
        out->v.s.ptr = m;
        out->v.s.len = strlen(m);
        return;
    }
    col -= 2;
    if (col < d->nkeys) {
        if (ra != PV_NO_ROW)
            pv_view_cell(d->a, ra, d->key_a[col], out);
        else
            pv_view_cell(d->b, rb, d->key_b[col], out);
        return;
    }
    col -= d->nkeys;
    size_t q = col / 4, part = col % 4;
    pv_type type = d->a->columns[d->num_a[q]].type;
    pv_cell ca, cb;
    ca.present = cb.present = false;
    if (ra != PV_NO_ROW && (part != 1))
        diff_numeric(d->a, ra, d->num_a[q], &ca);
    if (rb != PV_NO_ROW && d->num_b[q] != PV_NO_ROW && part != 0) {
        diff_numeric(d->b, rb, d->num_b[q], &cb);
        /* b's column may be of another numeric type: take it as a's */
        if (cb.present && cb.type != type) {
            double x = diff_as_double(&cb);
            cb.type = type;
            if (type == PV_TYPE_FLOAT)
                cb.v.f = x;
            else
                cb.v.i = (int64_t)x;
        }
    }
    switch (part) {
    case 0:
        *out = ca;
        out->type = type;
        return;
    case 1:
        *out = cb;
        out->type = type;
        return;
    case 2:
        if (!ca.present || !cb.present)
            return;
        out->present = true;
        if (type == PV_TYPE_FLOAT)
            out->v.f = cb.v.f - ca.v.f;
        else
            out->v.i = (int64_t)((uint64_t)cb.v.i - (uint64_t)ca.v.i);
        return;
    default:
        if (!ca.present || !cb.present || diff_as_double(&ca) == 0.0)
            return;
        out->present = true;
        out->v.f = diff_as_double(&cb) / diff_as_double(&ca);
        return;
    }
}

static void diff_destroy(pv_view *v)
{
    diff_impl *d = v->impl;
    free(d->ra);
    free(d->rb);
    free(d->key_a);
    free(d->key_b);
    free(d->num_a);
    free(d->num_b);
    free(d);
    pv_view_free_names(v);
    free(v);
}

static const pv_view_ops diff_ops = {diff_rows, diff_cell, NULL, NULL, diff_destroy, NULL};

pv_view *pv_diff_views(const pv_view *a, const pv_row *rows_a, size_t count_a, const pv_view *b,
                       const pv_row *rows_b, size_t count_b, pv_diff_counts *counts, char *err,
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
    /* key columns */
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
            d->ra = d->rb = NULL;
            free(d->key_a);
            free(d->key_b);
            free(d);
            return NULL;
        }
        d->key_a[d->nkeys] = c;
        d->key_b[d->nkeys++] = cb;
    }
    /* numeric columns */
    d->num_a = pv_xmalloc((a->column_count + 1) * sizeof *d->num_a);
    d->num_b = pv_xmalloc((a->column_count + 1) * sizeof *d->num_b);
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
        d->num_a[d->nnum] = c;
        d->num_b[d->nnum++] = cb;
    }

    /* match: a hash table over a's keys; a repeated key chains its rows in
     * order, and each b row takes the next unmatched one */
    size_t cap = 16;
    while (cap < count_a + count_a / 2 + 2)
        cap *= 2;
    /* one slot per distinct key of a, 16 bytes: the hash's upper half, its
     * first row (an index into a's selection), the next to hand out, the
     * last.  The hashes are computed first, so that the slot of a row a
     * few rows ahead can be prefetched: the probes are cache misses. */
    typedef struct {
        uint32_t hash, first, tail, last;
    } diff_slot;
    enum { AHEAD = 16 };
    size_t most = count_a > count_b ? count_a : count_b;
    uint64_t *hashes = pv_xmalloc((most ? most : 1) * sizeof *hashes);
    diff_slot *slots = pv_xmalloc(cap * sizeof *slots);
    for (size_t i = 0; i < cap; i++)
        slots[i].first = UINT32_MAX;
    for (size_t i = 0; i < count_a; i++)
        hashes[i] = diff_row_hash(a, rows_a ? rows_a[i] : i, d->key_a, d->nkeys);
    uint32_t *next = pv_xmalloc((count_a ? count_a : 1) * sizeof *next);
    for (size_t i = 0; i < count_a; i++) {
        if (i + AHEAD < count_a)
            __builtin_prefetch(&slots[hashes[i + AHEAD] & (cap - 1)], 1);
        size_t r = rows_a ? rows_a[i] : i;
        uint64_t h = hashes[i];
        size_t j = h & (cap - 1);
        while (slots[j].first != UINT32_MAX &&
               (slots[j].hash != (uint32_t)(h >> 32) ||
                !diff_rows_equal(a, rows_a ? rows_a[slots[j].first] : slots[j].first, d->key_a,
                                 a, r, d->key_a, d->nkeys)))
            j = (j + 1) & (cap - 1);
        next[i] = UINT32_MAX;
        if (slots[j].first == UINT32_MAX) {
            slots[j].first = slots[j].tail = (uint32_t)i;
            slots[j].hash = (uint32_t)(h >> 32);
        } else {
            next[slots[j].last] = (uint32_t)i;
        }
        slots[j].last = (uint32_t)i;
    }
    size_t *partner_of_a = pv_xmalloc((count_a ? count_a : 1) * sizeof *partner_of_a);
    for (size_t i = 0; i < count_a; i++)
        partner_of_a[i] = PV_NO_ROW;
    size_t *only_b = pv_xmalloc((count_b ? count_b : 1) * sizeof *only_b);
    size_t only_b_count = 0, matched = 0;
    for (size_t i = 0; i < count_b; i++)
        hashes[i] = diff_row_hash(b, rows_b ? rows_b[i] : i, d->key_b, d->nkeys);
    for (size_t i = 0; i < count_b; i++) {
        if (i + AHEAD < count_b)
            __builtin_prefetch(&slots[hashes[i + AHEAD] & (cap - 1)], 1);
        size_t r = rows_b ? rows_b[i] : i;
        uint64_t h = hashes[i];
        size_t j = h & (cap - 1);
        while (slots[j].first != UINT32_MAX &&
               (slots[j].hash != (uint32_t)(h >> 32) ||
                !diff_rows_equal(a, rows_a ? rows_a[slots[j].first] : slots[j].first, d->key_a,
                                 b, r, d->key_b, d->nkeys)))
            j = (j + 1) & (cap - 1);
        if (slots[j].first != UINT32_MAX && slots[j].tail != UINT32_MAX) {
            partner_of_a[slots[j].tail] = r;
            slots[j].tail = next[slots[j].tail];
            matched++;
        } else {
            only_b[only_b_count++] = r;
        }
    }
    free(hashes);
    free(slots);
    free(next);

    /* rows: a's in a's order, then those only in b */
    d->rows = count_a + only_b_count;
    d->ra = pv_xmalloc((d->rows ? d->rows : 1) * sizeof *d->ra);
    d->rb = pv_xmalloc((d->rows ? d->rows : 1) * sizeof *d->rb);
    for (size_t i = 0; i < count_a; i++) {
        d->ra[i] = rows_a ? rows_a[i] : i;
        d->rb[i] = partner_of_a[i];
    }
    for (size_t i = 0; i < only_b_count; i++) {
        d->ra[count_a + i] = PV_NO_ROW;
        d->rb[count_a + i] = only_b[i];
    }
    free(partner_of_a);
    free(only_b);

    /* the columns */
    size_t ncols = 2 + d->nkeys + 4 * d->nnum;
    pv_column *cols = pv_xcalloc(ncols, sizeof *cols);
    size_t k = 0;
    cols[k++] = (pv_column){pv_xstrdup("id"), pv_xstrdup("Id"), PV_TYPE_INT, PV_COL_HIDDEN};
    cols[k++] = (pv_column){pv_xstrdup("match"), pv_xstrdup("Match"), PV_TYPE_STRING, 0};
    for (size_t i = 0; i < d->nkeys; i++) {
        const pv_column *src = &a->columns[d->key_a[i]];
        cols[k++] = (pv_column){pv_xstrdup(src->id), pv_xstrdup(src->title), src->type,
                                (src->flags & (PV_COL_NAME | PV_COL_HIDDEN)) | PV_COL_KEY};
    }
    static const char *const suffix[4] = {"_a", "_b", "_delta", "_ratio"};
    static const char *const title_suffix[4] = {" (a)", " (b)", " delta", " b/a"};
    for (size_t i = 0; i < d->nnum; i++) {
        const pv_column *src = &a->columns[d->num_a[i]];
        for (size_t s = 0; s < 4; s++) {
            unsigned flags = src->flags & (PV_COL_HIDDEN | PV_COL_DESC);
            cols[k++] = (pv_column){pv_xasprintf("%s%s", src->id, suffix[s]),
                                    pv_xasprintf("%s%s", src->title, title_suffix[s]),
                                    s == 3 ? PV_TYPE_FLOAT : src->type, flags};
        }
    }
    pv_view *v = pv_xcalloc(1, sizeof *v);
    v->ops = &diff_ops;
    v->id = pv_xstrdup("diff");
    v->title = pv_xasprintf("Diff of %s", a->title);
    v->columns = cols;
    v->column_count = ncols;
    v->impl = d;
    if (counts) {
        counts->matched = matched;
        counts->only_a = count_a - matched;
        counts->only_b = only_b_count;
    }
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
