/* sort.c - sorting a row selection by one or more columns (PRODUCT.md §4):
 * stable, ascending or descending, absent cells first (ascending) as
 * pv_cell_compare orders them; in a tree, siblings are sorted and the
 * pre-order shape is kept.
 *
 * Speed (PRODUCT.md §7: 1 M rows in < 0.2 s): every key cell is read once
 * into an array; numbers are encoded as order-preserving 64-bit integers and
 * the first key (for strings: its first 8 bytes) travels with each element,
 * so most comparisons touch no cell at all; a bottom-up merge sort keeps the
 * sort stable, which qsort does not. */
#include "query_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct pv_sort_col {
    pv_type type;
    bool descending;
    uint64_t *num;     /* numbers, order-preserving encoding */
    const char **str;  /* strings: pointer and length */
    size_t *len;
    uint8_t *absent;   /* NULL when no cell of the selection is absent */
} pv_sort_col;

typedef struct pv_sort_ctx {
    pv_sort_col cols[PV_SORT_MAX_KEYS];
    size_t count;
    size_t tie_start; /* equal first-key prefixes compare from this key on */
} pv_sort_ctx;

typedef struct pv_sort_elem {
    uint64_t key; /* the first key, encoded; decides most comparisons alone */
    size_t index; /* position in the selection being sorted */
} pv_sort_elem;

/* Order-preserving unsigned encodings: a < b exactly when enc(a) < enc(b). */
static uint64_t pv_encode_int(int64_t v) { return (uint64_t)v ^ (UINT64_C(1) << 63); }

static uint64_t pv_encode_float(double d)
{
    if (d == 0)
        d = 0; /* -0 sorts with +0 */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (bits >> 63) ? ~bits : bits | (UINT64_C(1) << 63);
}

static uint64_t pv_string_prefix(const char *s, size_t len)
{
    uint64_t k = 0;
    for (size_t i = 0; i < 8; i++)
        k = (k << 8) | (i < len ? (uint8_t)s[i] : 0);
    return k;
}

static int pv_sort_compare_from(const pv_sort_ctx *ctx, size_t a, size_t b, size_t start)
{
    for (size_t k = start; k < ctx->count; k++) {
        const pv_sort_col *c = &ctx->cols[k];
        int r = 0;
        bool aa = c->absent && c->absent[a];
        bool ba = c->absent && c->absent[b];
        if (aa || ba) {
            r = aa == ba ? 0 : aa ? -1 : 1;
        } else if (c->str) {
            size_t la = c->len[a], lb = c->len[b];
            size_t n = la < lb ? la : lb;
            int m = n ? memcmp(c->str[a], c->str[b], n) : 0;
            r = m ? (m < 0 ? -1 : 1) : (la > lb) - (la < lb);
        } else {
            r = (c->num[a] > c->num[b]) - (c->num[a] < c->num[b]);
        }
        if (r)
            return c->descending ? -r : r;
    }
    return 0;
}

static inline bool pv_sort_less(const pv_sort_ctx *ctx, const pv_sort_elem *a,
                                const pv_sort_elem *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    return pv_sort_compare_from(ctx, a->index, b->index, ctx->tie_start) < 0;
}

/* Stable: an element moves before an earlier one only when strictly less. */
static void pv_insertion_sort(const pv_sort_ctx *ctx, pv_sort_elem *e, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        pv_sort_elem x = e[i];
        size_t j = i;
        while (j > 0 && pv_sort_less(ctx, &x, &e[j - 1])) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = x;
    }
}

/* Bottom-up merge sort of e[0..n) using tmp[0..n). */
static void pv_merge_sort(const pv_sort_ctx *ctx, pv_sort_elem *e, pv_sort_elem *tmp, size_t n)
{
    const size_t run = 32;
    for (size_t i = 0; i < n; i += run)
        pv_insertion_sort(ctx, e + i, n - i < run ? n - i : run);
    pv_sort_elem *src = e, *dst = tmp;
    for (size_t width = run; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            /* Already in order (common for presorted data): copy. */
            if (mid < hi && !pv_sort_less(ctx, &src[mid], &src[mid - 1])) {
                memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);
                continue;
            }
            while (i < mid && j < hi)
                dst[k++] = pv_sort_less(ctx, &src[j], &src[i]) ? src[j++] : src[i++];
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

static void pv_sort_ctx_load(pv_sort_ctx *ctx, const pv_view *v, const pv_sort_key *keys,
                             size_t key_count, const size_t *rows, size_t n)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->count = key_count;
    for (size_t k = 0; k < key_count; k++) {
        pv_sort_col *c = &ctx->cols[k];
        size_t col = keys[k].column;
        c->type = v->columns[col].type;
        c->descending = keys[k].descending;
        if (c->type == PV_TYPE_STRING) {
            c->str = pv_xmalloc((n ? n : 1) * sizeof *c->str);
            c->len = pv_xmalloc((n ? n : 1) * sizeof *c->len);
        } else {
            c->num = pv_xmalloc((n ? n : 1) * sizeof *c->num);
        }
        pv_cell cell;
        for (size_t i = 0; i < n; i++) {
            pv_view_cell(v, rows[i], col, &cell);
            if (!cell.present) {
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
    }
    /* A numeric first key without absent cells is exact in the element key;
     * a string prefix or an absent cell (encoded 0) needs the full compare. */
    const pv_sort_col *first = &ctx->cols[0];
    ctx->tie_start = (first->num && !first->absent) ? 1 : 0;
}

static void pv_sort_ctx_free(pv_sort_ctx *ctx)
{
    for (size_t k = 0; k < ctx->count; k++) {
        free(ctx->cols[k].num);
        free(ctx->cols[k].str);
        free(ctx->cols[k].len);
        free(ctx->cols[k].absent);
    }
}

/* Sorts the selection; returns the elements in sorted order (caller frees). */
static pv_sort_elem *pv_sort_elements(const pv_sort_ctx *ctx, size_t n)
{
    pv_sort_elem *e = pv_xmalloc((n ? n : 1) * sizeof *e);
    const pv_sort_col *first = &ctx->cols[0];
    for (size_t i = 0; i < n; i++) {
        uint64_t key;
        if (first->absent && first->absent[i])
            key = 0;
        else if (first->str)
            key = pv_string_prefix(first->str[i], first->len[i]);
        else
            key = first->num[i];
        e[i].key = first->descending ? ~key : key;
        e[i].index = i;
    }
    pv_sort_elem *tmp = pv_xmalloc((n ? n : 1) * sizeof *tmp);
    pv_merge_sort(ctx, e, tmp, n);
    free(tmp);
    return e;
}

/* Tree: sort every element globally, then hang each under its nearest
 * ancestor in the selection in that order (so siblings come out sorted and
 * stable), then write the pre-order walk.  The walk follows sibling and
 * parent links, so it needs no stack whatever the depth. */
static void pv_sort_tree(const pv_view *v, const pv_sort_elem *sorted, size_t *rows, size_t n)
{
    size_t total = pv_view_rows(v);
    size_t *pos = pv_xmalloc((total ? total : 1) * sizeof *pos);
    for (size_t r = 0; r < total; r++)
        pos[r] = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (rows[i] < total)
            pos[rows[i]] = i;
    size_t *parent = pv_xmalloc((n ? n : 1) * sizeof *parent);
    size_t *first_child = pv_xmalloc((n ? n : 1) * sizeof *first_child);
    size_t *last_child = pv_xmalloc((n ? n : 1) * sizeof *last_child);
    size_t *next = pv_xmalloc((n ? n : 1) * sizeof *next);
    for (size_t i = 0; i < n; i++) {
        parent[i] = SIZE_MAX;
        first_child[i] = last_child[i] = next[i] = SIZE_MAX;
        size_t steps = 0;
        for (size_t p = pv_view_parent(v, rows[i]); p != PV_NO_ROW && p < total && steps < total;
             p = pv_view_parent(v, p), steps++)
            if (pos[p] != SIZE_MAX) {
                parent[i] = pos[p];
                break;
            }
    }
    size_t root_first = SIZE_MAX, root_last = SIZE_MAX;
    for (size_t s = 0; s < n; s++) {
        size_t i = sorted[s].index;
        size_t p = parent[i];
        size_t *head = p == SIZE_MAX ? &root_first : &first_child[p];
        size_t *tail = p == SIZE_MAX ? &root_last : &last_child[p];
        if (*head == SIZE_MAX)
            *head = i;
        else
            next[*tail] = i;
        *tail = i;
    }
    size_t *orig = pv_xmalloc((n ? n : 1) * sizeof *orig);
    memcpy(orig, rows, n * sizeof *rows);
    size_t k = 0;
    size_t cur = root_first;
    while (cur != SIZE_MAX && k < n) {
        rows[k++] = orig[cur];
        if (first_child[cur] != SIZE_MAX) {
            cur = first_child[cur];
            continue;
        }
        while (cur != SIZE_MAX && next[cur] == SIZE_MAX)
            cur = parent[cur];
        if (cur != SIZE_MAX)
            cur = next[cur];
    }
    free(orig);
    free(pos);
    free(parent);
    free(first_child);
    free(last_child);
    free(next);
}

void pv_sort_rows(const pv_view *v, const pv_sort_key *keys, size_t key_count, size_t *rows,
                  size_t n)
{
    if (key_count == 0 || n < 2)
        return;
    if (key_count > PV_SORT_MAX_KEYS)
        key_count = PV_SORT_MAX_KEYS;
    pv_sort_ctx ctx;
    pv_sort_ctx_load(&ctx, v, keys, key_count, rows, n);
    pv_sort_elem *sorted = pv_sort_elements(&ctx, n);
    if (pv_view_is_tree(v)) {
        pv_sort_tree(v, sorted, rows, n);
    } else {
        size_t *orig = pv_xmalloc(n * sizeof *orig);
        memcpy(orig, rows, n * sizeof *rows);
        for (size_t i = 0; i < n; i++)
            rows[i] = orig[sorted[i].index];
        free(orig);
    }
    free(sorted);
    pv_sort_ctx_free(&ctx);
}

static bool pv_is_blank(char c) { return c == ' ' || c == '\t'; }

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
