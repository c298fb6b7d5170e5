/* aqtime_rows.c - the AQTime tables' rows in memory (docs/aqtime.md,
 * Scale): reading a cell, a result set's rows (grouped by INST_ID), key
 * maps and the links between tables (docs/formats.md §5). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aqtime.h"

/* ---- reading cells */

size_t aq_col(const aq_table *t, const char *name)
{
    for (size_t c = 0; c < t->col_count; c++)
        if (strcasecmp(t->col_names[c], name) == 0)
            return c;
    return AQ_NONE;
}

size_t aq_col2(const aq_table *t, const char *a, const char *b)
{
    size_t c = aq_col(t, a);
    return c != AQ_NONE ? c : aq_col(t, b);
}

aq_value aq_cell(const aq_table *t, size_t row, size_t col)
{
    aq_value v = {{0}, AQ_V_NULL};
    if (col == AQ_NONE || row >= t->row_count || col >= t->col_count)
        return v;
    const aq_colstore *cs = &t->cols[col];
    if (cs->kind == AQ_COL_VAL)
        return ((const aq_value *)cs->data)[row];
    if (cs->kind == AQ_COL_TEXT) {
        uint32_t off = ((const uint32_t *)cs->data)[row];
        if (off != AQ_NO_TEXT) {
            v.kind = AQ_V_TEXT;
            v.v.s = off;
        }
        return v;
    }
    if (cs->nulls && (cs->nulls[row >> 3] >> (row & 7)) & 1)
        return v;
    v.kind = AQ_V_INT;
    v.v.i = cs->kind == AQ_COL_I32 ? ((const int32_t *)cs->data)[row]
                                   : ((const int64_t *)cs->data)[row];
    return v;
}

bool aq_int(const aq_table *t, size_t row, size_t col, int64_t *out)
{
    aq_value cell = aq_cell(t, row, col);
    const aq_value *v = &cell;
    if (v->kind == AQ_V_INT) {
        *out = v->v.i;
        return true;
    }
    if (v->kind == AQ_V_REAL && isfinite(v->v.f) && fabs(v->v.f) < 9.2e18) {
        *out = (int64_t)llround(v->v.f);
        return true;
    }
    return false;
}

bool aq_real(const aq_table *t, size_t row, size_t col, double *out)
{
    aq_value cell = aq_cell(t, row, col);
    const aq_value *v = &cell;
    if (v->kind == AQ_V_INT) {
        *out = (double)v->v.i;
        return true;
    }
    if (v->kind == AQ_V_REAL) {
        *out = v->v.f;
        return true;
    }
    return false;
}

bool aq_int_any(const aq_table *t, size_t row, size_t col, int64_t *out)
{
    if (aq_int(t, row, col, out))
        return true;
    aq_value cell = aq_cell(t, row, col);
    const aq_value *v = &cell;
    aq_value parsed;
    if (v->kind != AQ_V_TEXT || !aq_parse_number(pv_strpool_get(&t->pool, v->v.s), &parsed) ||
        parsed.kind != AQ_V_INT)
        return false;
    *out = parsed.v.i;
    return true;
}

const char *aq_text(const aq_table *t, size_t row, size_t col, char *tmp, size_t tmp_size)
{
    aq_value cell = aq_cell(t, row, col);
    const aq_value *v = &cell;
    switch (v->kind) {
    case AQ_V_TEXT: return pv_strpool_get(&t->pool, v->v.s);
    case AQ_V_INT: snprintf(tmp, tmp_size, "%" PRId64, v->v.i); return tmp;
    case AQ_V_REAL: snprintf(tmp, tmp_size, "%.17g", v->v.f); return tmp;
    default: return NULL;
    }
}

int64_t aq_inst(const aq_table *t, size_t row)
{
    return aq_cell(t, row, t->inst_col).v.i;
}

/* Position of `inst` among the table's distinct INST_IDs, or AQ_NONE. */
static size_t aq_inst_group(const aq_table *t, int64_t inst)
{
    size_t lo = 0, hi = t->inst_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->insts[mid] < inst)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->inst_count && t->insts[lo] == inst ? lo : AQ_NONE;
}

bool aq_first_of_inst(const aq_table *t, size_t row)
{
    size_t k = aq_inst_group(t, aq_inst(t, row));
    return k == AQ_NONE || t->inst_rows[t->inst_start[k]] == row;
}

bool aq_has_inst(const aq_table *t, int64_t inst)
{
    return aq_inst_group(t, inst) != AQ_NONE;
}

void aq_select(aq_sel *s, aq_table *t, int64_t inst)
{
    s->t = t;
    s->n = 0;
    size_t g = aq_inst_group(t, inst);
    s->rows = g == AQ_NONE ? NULL : t->inst_rows + t->inst_start[g];
    s->n = g == AQ_NONE ? 0 : t->inst_start[g + 1] - t->inst_start[g];
}

void aq_sel_free(aq_sel *s)
{
    s->rows = NULL;
    s->n = 0;
}

void aq_keymap(aq_keymap_t *m, const aq_sel *s, size_t col)
{
    pv_hashmap_init(&m->m);
    m->dense = NULL;
    m->lo = 0;
    m->span = 0;
    if (col == AQ_NONE)
        return;
    /* Keys in a range not much wider than the rows (ids 0..n, the usual
     * case) get a direct table: a lookup per child row is then one load
     * instead of a hash probe (docs/aqtime.md, Scale). */
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t have = 0;
    for (size_t i = 0; i < s->n; i++) {
        int64_t k;
        if (aq_int(s->t, s->rows[i], col, &k)) {
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
            have++;
        }
    }
    if (have && (uint64_t)hi - (uint64_t)lo < 4 * (uint64_t)have + 64) {
        m->lo = lo;
        m->span = (size_t)((uint64_t)hi - (uint64_t)lo) + 1;
        m->dense = pv_xmalloc(m->span * sizeof *m->dense);
        for (size_t k = 0; k < m->span; k++)
            m->dense[k] = UINT32_MAX;
        for (size_t i = 0; i < s->n; i++) {
            int64_t k;
            if (aq_int(s->t, s->rows[i], col, &k) && m->dense[(uint64_t)k - (uint64_t)lo] == UINT32_MAX)
                m->dense[(uint64_t)k - (uint64_t)lo] = (uint32_t)i;
        }
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        int64_t k;
        uint32_t old;
        if (aq_int(s->t, s->rows[i], col, &k) && !pv_hashmap_get(&m->m, (uint64_t)k, &old))
            pv_hashmap_put(&m->m, (uint64_t)k, (uint32_t)i);
    }
}

bool aq_keymap_get(const aq_keymap_t *m, int64_t key, size_t *pos)
{
    if (m->dense) {
        uint64_t off = (uint64_t)key - (uint64_t)m->lo;
        if (off >= m->span || m->dense[off] == UINT32_MAX)
            return false;
        *pos = m->dense[off];
        return true;
    }
    uint32_t v;
    if (!pv_hashmap_get(&m->m, (uint64_t)key, &v))
        return false;
    *pos = v;
    return true;
}

void aq_keymap_free(aq_keymap_t *m)
{
    pv_hashmap_free(&m->m);
    free(m->dense);
    m->dense = NULL;
}

size_t *aq_link(aq_ctx *c, const aq_sel *child, size_t child_col, const char *child_col_name,
                const aq_sel *parent, const char *const *readings, size_t reading_count)
{
    size_t *out = pv_xmalloc((child->n ? child->n : 1) * sizeof *out);
    for (size_t i = 0; i < child->n; i++)
        out[i] = AQ_NONE;
    if (child_col == AQ_NONE || child->n == 0)
        return out;
    size_t wanted = 0;
    for (size_t i = 0; i < child->n; i++) {
        int64_t k;
        if (aq_int(child->t, child->rows[i], child_col, &k) && k >= 0)
            wanted++;
    }
    size_t best = AQ_NONE, best_count = 0;
    size_t counts[4] = {0};
    for (size_t r = 0; r < reading_count && r < 4; r++) {
        size_t pcol = aq_col(parent->t, readings[r]);
        if (pcol == AQ_NONE)
            continue;
        aq_keymap_t m;
        aq_keymap(&m, parent, pcol);
        /* The first reading's links are kept: when it wins (the usual case)
         * the rows are not looked up again. */
        for (size_t i = 0; i < child->n; i++) {
            int64_t k;
            size_t pos;
            if (aq_int(child->t, child->rows[i], child_col, &k) && k >= 0 &&
                aq_keymap_get(&m, k, &pos)) {
                counts[r]++;
                if (r == 0)
                    out[i] = pos;
            }
        }
        if (best == AQ_NONE || counts[r] > best_count) {
            best = r;
            best_count = counts[r];
        }
        aq_keymap_free(&m);
    }
    if (best == AQ_NONE) {
        if (parent->t->db_name) /* a missing table was reported already */
            aq_warn(c, "table %s has no %s column: %s cannot be linked", parent->t->name,
                readings[0], child_col_name);
        return out;
    }
    size_t first_bad = AQ_NONE;
    int64_t first_bad_value = 0;
    if (best == 0) {
        for (size_t i = 0; i < child->n && best_count < wanted; i++) {
            int64_t k;
            if (out[i] == AQ_NONE && aq_int(child->t, child->rows[i], child_col, &k) && k >= 0) {
                first_bad = i;
                first_bad_value = k;
                break;
            }
        }
    } else {
        aq_keymap_t m;
        aq_keymap(&m, parent, aq_col(parent->t, readings[best]));
        for (size_t i = 0; i < child->n; i++) {
            int64_t k;
            size_t pos;
            out[i] = AQ_NONE;
            if (!aq_int(child->t, child->rows[i], child_col, &k) || k < 0)
                continue;
            if (aq_keymap_get(&m, k, &pos))
                out[i] = pos;
            else if (first_bad == AQ_NONE) {
                first_bad = i;
                first_bad_value = k;
            }
        }
        aq_keymap_free(&m);
    }
    if (reading_count > 1) {
        pv_buf b;
        pv_buf_init(&b);
        pv_buf_printf(&b, "%s.%s -> %s.%s (%zu of %zu rows resolved", child->t->name,
                      child_col_name, parent->t->name, readings[best], best_count, wanted);
        for (size_t r = 0; r < reading_count && r < 4; r++)
            if (r != best && aq_col(parent->t, readings[r]) != AQ_NONE)
                pv_buf_printf(&b, "; as %s: %zu", readings[r], counts[r]);
        pv_buf_puts(&b, ")");
        pv_set_add_note(c->set, "%s", pv_buf_cstr(&b));
        pv_buf_free(&b);
    }
    if (best_count < wanted)
        aq_warn(c,
                "table %s: %zu of %zu rows have a %s that matches no %s of %s (first: row %zu, "
                "value %" PRId64 "); those links are left empty",
                child->t->name, wanted - best_count, wanted, child_col_name, readings[best],
                parent->t->name, aq_row_no(child->t, child->rows[first_bad]), first_bad_value);
    return out;
}
