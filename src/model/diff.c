/* diff.c - two views matched by identity, with before/after/delta/ratio
 * columns (docs/diff.md).  Reads both views only through the view API. */
#include "profview/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profview/table.h"

static bool diff_is_numeric(pv_type t)
{
    return t == PV_TYPE_INT || t == PV_TYPE_TIME || t == PV_TYPE_FLOAT;
}

static bool diff_is_key_type(pv_type t)
{
    return t == PV_TYPE_STRING || t == PV_TYPE_HANDLE || t == PV_TYPE_HEX;
}

/* The keys of every selected row, each as the exact text of its key cells
 * separated by 0x1F, in one buffer. */
typedef struct diff_keys {
    pv_buf text;
    size_t *start; /* count + 1 offsets */
    uint64_t *hash;
    size_t count;
} diff_keys;

static void diff_keys_build(diff_keys *k, const pv_view *v, const size_t *cols, size_t ncols,
                            const size_t *rows, size_t count)
{
    pv_buf_init(&k->text);
    k->count = count;
    k->start = pv_xmalloc((count + 1) * sizeof *k->start);
    k->hash = pv_xmalloc((count ? count : 1) * sizeof *k->hash);
    pv_cell c;
    for (size_t i = 0; i < count; i++) {
        size_t r = rows ? rows[i] : i;
        k->start[i] = k->text.len;
        for (size_t j = 0; j < ncols; j++) {
            pv_view_cell(v, r, cols[j], &c);
            if (c.present)
                pv_cell_format_exact(&c, &k->text);
            pv_buf_putc(&k->text, c.present ? '\x1f' : '\x1e');
        }
        k->hash[i] = pv_hash_bytes(k->text.data + k->start[i], k->text.len - k->start[i]);
    }
    k->start[count] = k->text.len;
}

static void diff_keys_free(diff_keys *k)
{
    pv_buf_free(&k->text);
    free(k->start);
    free(k->hash);
}

static bool diff_keys_equal(const diff_keys *a, size_t i, const diff_keys *b, size_t j)
{
    size_t la = a->start[i + 1] - a->start[i], lb = b->start[j + 1] - b->start[j];
    return a->hash[i] == b->hash[j] && la == lb &&
           memcmp(a->text.data + a->start[i], b->text.data + b->start[j], la) == 0;
}

static void diff_copy_cell(pv_table *t, size_t row, size_t col, const pv_cell *c)
{
    if (!c->present) {
        pv_table_clear(t, row, col);
        return;
    }
    switch (c->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        pv_table_set_int(t, row, col, c->v.i);
        break;
    case PV_TYPE_FLOAT:
        pv_table_set_float(t, row, col, c->v.f);
        break;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX:
        pv_table_set_uint(t, row, col, c->v.u);
        break;
    case PV_TYPE_STRING:
        pv_table_set_str(t, row, col, c->v.s.ptr, c->v.s.len);
        break;
    }
}

static double diff_as_double(const pv_cell *c)
{
    return c->type == PV_TYPE_FLOAT ? c->v.f : (double)c->v.i;
}

pv_view *pv_diff_views(const pv_view *a, const size_t *rows_a, size_t count_a, const pv_view *b,
                       const size_t *rows_b, size_t count_b, pv_diff_counts *counts, char *err,
                       size_t err_len)
{
    if (!rows_a)
        count_a = pv_view_rows(a);
    if (!rows_b)
        count_b = pv_view_rows(b);
    /* key columns */
    size_t *key_a = pv_xmalloc((a->column_count + 1) * sizeof *key_a);
    size_t *key_b = pv_xmalloc((a->column_count + 1) * sizeof *key_b);
    size_t nkeys = 0;
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
            free(key_a);
            free(key_b);
            return NULL;
        }
        key_a[nkeys] = c;
        key_b[nkeys++] = cb;
    }
    /* numeric columns */
    size_t *num_a = pv_xmalloc((a->column_count + 1) * sizeof *num_a);
    size_t *num_b = pv_xmalloc((a->column_count + 1) * sizeof *num_b);
    size_t nnum = 0;
    for (size_t c = 0; c < a->column_count; c++) {
        const pv_column *col = &a->columns[c];
        if (!diff_is_numeric(col->type) || strcasecmp(col->id, "id") == 0 ||
            strcasecmp(col->id, "parent") == 0)
            continue;
        bool is_key = false;
        for (size_t k = 0; k < nkeys; k++)
            is_key |= key_a[k] == c;
        if (is_key)
            continue;
        size_t cb = pv_view_column(b, col->id);
        if (cb != PV_NO_ROW && !diff_is_numeric(b->columns[cb].type))
            cb = PV_NO_ROW;
        num_a[nnum] = c;
        num_b[nnum++] = cb;
    }

    /* the output columns */
    size_t ncols = 2 + nkeys + 4 * nnum;
    pv_column *cols = pv_xcalloc(ncols, sizeof *cols);
    char **names = pv_xcalloc(ncols * 2, sizeof *names);
    size_t k = 0;
    cols[k++] = (pv_column){"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN};
    cols[k++] = (pv_column){"match", "Match", PV_TYPE_STRING, 0};
    for (size_t i = 0; i < nkeys; i++) {
        const pv_column *src = &a->columns[key_a[i]];
        cols[k++] = (pv_column){src->id, src->title, src->type,
                                (src->flags & (PV_COL_NAME | PV_COL_HIDDEN)) | PV_COL_KEY};
    }
    static const char *const suffix[4] = {"_a", "_b", "_delta", "_ratio"};
    static const char *const title_suffix[4] = {" (a)", " (b)", " Δ", " b/a"};
    size_t name_count = 0;
    for (size_t i = 0; i < nnum; i++) {
        const pv_column *src = &a->columns[num_a[i]];
        for (size_t s = 0; s < 4; s++) {
            char *id = pv_xasprintf("%s%s", src->id, suffix[s]);
            char *title = pv_xasprintf("%s%s", src->title, title_suffix[s]);
            names[name_count++] = id;
            names[name_count++] = title;
            unsigned flags = (src->flags & (PV_COL_HIDDEN | PV_COL_DESC));
            cols[k++] = (pv_column){id, title, s == 3 ? PV_TYPE_FLOAT : src->type, flags};
        }
    }
    pv_table *t = pv_table_new("diff", "Diff", cols, ncols);
    for (size_t i = 0; i < name_count; i++)
        free(names[i]);
    free(names);
    free(cols);

    /* match */
    diff_keys ka, kb;
    diff_keys_build(&ka, a, key_a, nkeys, rows_a, count_a);
    diff_keys_build(&kb, b, key_b, nkeys, rows_b, count_b);
    size_t cap = 16;
    while (cap < count_a * 2 + 2)
        cap *= 2;
    uint32_t *slot = pv_xmalloc(cap * sizeof *slot); /* first a-row index of a key */
    uint32_t *tail = pv_xmalloc(cap * sizeof *tail); /* the next one to hand out */
    for (size_t i = 0; i < cap; i++)
        slot[i] = tail[i] = UINT32_MAX;
    uint32_t *next = pv_xmalloc((count_a ? count_a : 1) * sizeof *next);
    uint32_t *last = pv_xmalloc(cap * sizeof *last);
    for (size_t i = 0; i < count_a; i++) {
        size_t j = ka.hash[i] & (cap - 1);
        while (slot[j] != UINT32_MAX && !diff_keys_equal(&ka, slot[j], &ka, i))
            j = (j + 1) & (cap - 1);
        next[i] = UINT32_MAX;
        if (slot[j] == UINT32_MAX) {
            slot[j] = tail[j] = (uint32_t)i;
        } else {
            next[last[j]] = (uint32_t)i;
        }
        last[j] = (uint32_t)i;
    }
    free(last);
    size_t *partner_of_a = pv_xmalloc((count_a ? count_a : 1) * sizeof *partner_of_a);
    for (size_t i = 0; i < count_a; i++)
        partner_of_a[i] = PV_NO_ROW;
    size_t *only_b = pv_xmalloc((count_b ? count_b : 1) * sizeof *only_b);
    size_t only_b_count = 0, matched = 0;
    for (size_t i = 0; i < count_b; i++) {
        size_t j = kb.hash[i] & (cap - 1);
        while (slot[j] != UINT32_MAX && !diff_keys_equal(&ka, slot[j], &kb, i))
            j = (j + 1) & (cap - 1);
        if (slot[j] != UINT32_MAX && tail[j] != UINT32_MAX) {
            partner_of_a[tail[j]] = i;
            tail[j] = next[tail[j]];
            matched++;
        } else {
            only_b[only_b_count++] = i;
        }
    }
    free(slot);
    free(tail);
    free(next);
    diff_keys_free(&ka);
    diff_keys_free(&kb);

    /* fill */
    pv_table_reserve(t, count_a + only_b_count);
    pv_cell ca, cb;
    for (size_t pass = 0; pass < 2; pass++) {
        size_t n = pass == 0 ? count_a : only_b_count;
        for (size_t i = 0; i < n; i++) {
            size_t ra = PV_NO_ROW, rb = PV_NO_ROW;
            if (pass == 0) {
                ra = rows_a ? rows_a[i] : i;
                if (partner_of_a[i] != PV_NO_ROW)
                    rb = rows_b ? rows_b[partner_of_a[i]] : partner_of_a[i];
            } else {
                rb = rows_b ? rows_b[only_b[i]] : only_b[i];
            }
            size_t r = pv_table_add_row(t);
            pv_table_set_int(t, r, 0, (int64_t)r + 1);
            pv_table_set_cstr(t, r, 1, ra == PV_NO_ROW ? "b" : rb == PV_NO_ROW ? "a" : "both");
            for (size_t q = 0; q < nkeys; q++) {
                if (ra != PV_NO_ROW)
                    pv_view_cell(a, ra, key_a[q], &ca);
                else
                    pv_view_cell(b, rb, key_b[q], &ca);
                diff_copy_cell(t, r, 2 + q, &ca);
            }
            for (size_t q = 0; q < nnum; q++) {
                size_t col = 2 + nkeys + 4 * q;
                pv_type type = a->columns[num_a[q]].type;
                ca.present = cb.present = false;
                if (ra != PV_NO_ROW)
                    pv_view_cell(a, ra, num_a[q], &ca);
                if (rb != PV_NO_ROW && num_b[q] != PV_NO_ROW)
                    pv_view_cell(b, rb, num_b[q], &cb);
                /* b's column may be of another numeric type: take it as a's */
                if (cb.present && cb.type != type) {
                    double d = diff_as_double(&cb);
                    cb.type = type;
                    if (type == PV_TYPE_FLOAT)
                        cb.v.f = d;
                    else
                        cb.v.i = (int64_t)d;
                }
                if (ca.present)
                    diff_copy_cell(t, r, col, &ca);
                if (cb.present)
                    diff_copy_cell(t, r, col + 1, &cb);
                if (ca.present && cb.present) {
                    if (type == PV_TYPE_FLOAT)
                        pv_table_set_float(t, r, col + 2, cb.v.f - ca.v.f);
                    else
                        pv_table_set_int(t, r, col + 2, (int64_t)((uint64_t)cb.v.i - (uint64_t)ca.v.i));
                    double da = diff_as_double(&ca);
                    if (da != 0.0)
                        pv_table_set_float(t, r, col + 3, diff_as_double(&cb) / da);
                }
            }
        }
    }
    free(partner_of_a);
    free(only_b);
    free(key_a);
    free(key_b);
    free(num_a);
    free(num_b);
    if (counts) {
        counts->matched = matched;
        counts->only_a = count_a - matched;
        counts->only_b = only_b_count;
    }
    return pv_table_view(t);
}

bool pv_diff_is_delta_column(const pv_view *diff, size_t col)
{
    if (strcmp(diff->id, "diff") != 0 || col >= diff->column_count)
        return false;
    const char *id = diff->columns[col].id;
    size_t len = strlen(id);
    return len > 6 && strcmp(id + len - 6, "_delta") == 0;
}
