/* aqtime_db.c - AQTime databases (docs/formats.md §5): detection, reading the
 * seed's tables read-only into memory, result sets, and the helpers the view
 * builders share (links, extra columns, counters). */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "aqtime.h"
#include "formats/profview_db.h"
#include "profview/hooks.h"

static const struct {
    const char *name;
    const char *columns;
} aq_table_specs[AQ_T_COUNT] = {
#define AQ_TABLE_SPEC(sym, name, cols) {name, cols},
    AQ_TABLES(AQ_TABLE_SPEC)
#undef AQ_TABLE_SPEC
};

static const char *const aq_profiler_prefix[AQ_PROF_COUNT] = {
    "FUNCTION_TRACE_PROFILER_",
    "RESOURCE_PROFILER_",
    "REFERENCE_COUNT_PROFILER_",
};
static const char *const aq_profiler_name[AQ_PROF_COUNT] = {
    "Function Trace",
    "Resource",
    "Reference Count",
};
/* The table whose rows say that a result set holds this profiler's results. */
static const aq_table_id aq_profiler_main[AQ_PROF_COUNT][3] = {
    {AQ_T_FT_CALL_TRACE, AQ_T_FT_ROUTINES, AQ_T_FT_THREADS},
    {AQ_T_RS_OBJECTS, AQ_T_RS_CLASSES_DATA, AQ_T_RS_ERRORS},
    {AQ_T_RC_OBJECTS, AQ_T_RC_CLASSES_DATA, AQ_T_RC_REFERENCES},
};

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
    if (cs->nulls && (cs->nulls[row >> 3] >> (row & 7)) & 1)
        return v;
    v.kind = AQ_V_INT;
    v.v.i = cs->kind == AQ_COL_I32 ? ((const int32_t *)cs->data)[row]
                                   : ((const int64_t *)cs->data)[row];
    return v;
}

/* Makes room for one more row in every column. */
/* Room for `cap` rows (a multiple of 8) in every column. */
static void aq_table_resize(aq_table *t, size_t cap)
{
    for (size_t c = 0; c < t->col_count; c++) {
        aq_colstore *cs = &t->cols[c];
        size_t w = cs->kind == AQ_COL_I32 ? 4 : cs->kind == AQ_COL_I64 ? 8 : sizeof(aq_value);
        cs->data = pv_xrealloc(cs->data, cap * w);
        if (cs->nulls) {
            cs->nulls = pv_xrealloc(cs->nulls, cap / 8);
            memset(cs->nulls + t->row_cap / 8, 0, (cap - t->row_cap) / 8);
        }
    }
    if (t->row_no)
        t->row_no = pv_xrealloc(t->row_no, cap * sizeof *t->row_no);
    t->row_cap = cap;
}

static void aq_table_grow(aq_table *t)
{
    if (t->row_count >= t->row_cap)
        aq_table_resize(t, t->row_cap < 1024 ? 1024 : t->row_cap * 2);
}

/* Gives t a row_no array (rows numbered as they are so far). */
static void aq_row_no_materialise(aq_table *t)
{
    if (t->row_no)
        return;
    t->row_no = pv_xmalloc((t->row_cap ? t->row_cap : 1) * sizeof *t->row_no);
    for (size_t r = 0; r < t->row_count; r++)
        t->row_no[r] = (uint32_t)(t->row_no_base + r + 1);
}

/* Widens an integer column to 64 bits or to cells. */
static void aq_col_widen(aq_table *t, aq_colstore *cs, uint8_t kind)
{
    size_t n = t->row_count, cap = t->row_cap;
    if (kind == AQ_COL_I64) {
        int64_t *d = pv_xmalloc(cap * sizeof *d);
        const int32_t *o = cs->data;
        for (size_t r = 0; r < n; r++)
            d[r] = o[r];
        free(cs->data);
        cs->data = d;
        cs->kind = AQ_COL_I64;
        return;
    }
    aq_value *d = pv_xmalloc(cap * sizeof *d);
    for (size_t r = 0; r < n; r++) {
        d[r] = aq_cell(t, r, (size_t)(cs - t->cols));
    }
    free(cs->data);
    free(cs->nulls);
    cs->data = d;
    cs->nulls = NULL;
    cs->null_count = 0;
    cs->kind = AQ_COL_VAL;
}

/* Appends a row of cells (the table has room: aq_table_grow). */
static void aq_table_store(aq_table *t, const aq_value *row)
{
    size_t r = t->row_count;
    for (size_t c = 0; c < t->col_count; c++) {
        aq_colstore *cs = &t->cols[c];
        const aq_value *v = &row[c];
        if (cs->kind != AQ_COL_VAL && (v->kind == AQ_V_REAL || v->kind == AQ_V_TEXT))
            aq_col_widen(t, cs, AQ_COL_VAL);
        else if (cs->kind == AQ_COL_I32 && v->kind == AQ_V_INT &&
                 (v->v.i < INT32_MIN || v->v.i > INT32_MAX))
            aq_col_widen(t, cs, AQ_COL_I64);
        switch (cs->kind) {
        case AQ_COL_VAL: ((aq_value *)cs->data)[r] = *v; break;
        case AQ_COL_I32:
        case AQ_COL_I64: {
            int64_t i = v->kind == AQ_V_INT ? v->v.i : 0;
            if (cs->kind == AQ_COL_I32)
                ((int32_t *)cs->data)[r] = (int32_t)i;
            else
                ((int64_t *)cs->data)[r] = i;
            if (v->kind == AQ_V_NULL) {
                if (!cs->nulls)
                    cs->nulls = pv_xcalloc(t->row_cap / 8, 1);
                cs->nulls[r >> 3] |= (uint8_t)(1u << (r & 7));
                cs->null_count++;
            }
            break;
        }
        }
    }
    t->row_count++;
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

static bool aq_parse_number(const char *s, aq_value *out);

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

void aq_warn(aq_ctx *c, const char *fmt, ...)
{
    pv_buf b;
    pv_buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pv_warn(&c->f->diag, "%s: result set %" PRId64 ": %s", c->f->path, c->inst, pv_buf_cstr(&b));
    pv_buf_free(&b);
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

/* ---- counters (docs/formats.md §5) */

int64_t aq_cycles_to_ns(__int128 cycles, double frequency)
{
    if (!(frequency > 0) || !isfinite(frequency))
        return 0;
    const __int128 limit = (__int128)INT64_MAX;
    if (frequency == floor(frequency) && frequency < 9.0e18) {
        /* Exact: round half away from zero of cycles * 1e9 / f in 128 bits. */
        __int128 f = (__int128)(int64_t)frequency;
        bool neg = cycles < 0;
        __int128 mag = neg ? -cycles : cycles;
        if (mag > ((__int128)1 << 90))
            return neg ? INT64_MIN : INT64_MAX;
        __int128 num = mag * 1000000000;
        __int128 q = (num + f / 2) / f;
        if (q > limit)
            return neg ? INT64_MIN : INT64_MAX;
        return neg ? -(int64_t)q : (int64_t)q;
    }
    long double v = roundl((long double)cycles * 1e9L / (long double)frequency);
    if (v >= 9.2e18L)
        return INT64_MAX;
    if (v <= -9.2e18L)
        return INT64_MIN;
    return (int64_t)v;
}

int64_t aq_counter_value(const aq_ctx *c, __int128 cycles)
{
    if (c->time_counter)
        return aq_cycles_to_ns(cycles, c->frequency);
    if (cycles > (__int128)INT64_MAX)
        return INT64_MAX;
    if (cycles < (__int128)INT64_MIN)
        return INT64_MIN;
    return (int64_t)cycles;
}

pv_type aq_counter_type(const aq_ctx *c)
{
    return c->time_counter ? PV_TYPE_TIME : PV_TYPE_INT;
}

const char *aq_routine_name(const aq_sel *meta, size_t pos, char *tmp, size_t tmp_size)
{
    if (pos == AQ_NONE || pos >= meta->n)
        return NULL;
    size_t col = aq_col2(meta->t, "COL_ROUTINE_NAME", "COL_ROUTINENAME");
    /* Reference Count spells it COL_ROUTINENAME; prefer a column holding text. */
    size_t alt = aq_col(meta->t, "COL_ROUTINENAME");
    if (alt != AQ_NONE && aq_cell(meta->t, meta->rows[pos], alt).kind != AQ_V_NULL)
        col = alt;
    return aq_text(meta->t, meta->rows[pos], col, tmp, tmp_size);
}

/* ---- extra columns */

/* COL_FOO_BAR -> "Foo Bar"; id "foo_bar". */
static void aq_column_names(const char *name, char **id, char **title)
{
    const char *s = name;
    if (strncasecmp(s, "COL_", 4) == 0)
        s += 4;
    size_t len = strlen(s);
    while (len > 0 && s[len - 1] == '_')
        len--;
    while (len > 0 && *s == '_') {
        s++;
        len--;
    }
    pv_buf i, t;
    pv_buf_init(&i);
    pv_buf_init(&t);
    bool word_start = true;
    for (size_t k = 0; k < len; k++) {
        unsigned char ch = (unsigned char)s[k];
        pv_buf_putc(&i, (char)tolower(ch));
        if (ch == '_') {
            if (!word_start)
                pv_buf_putc(&t, ' ');
            word_start = true;
            continue;
        }
        pv_buf_putc(&t, (char)(word_start ? toupper(ch) : tolower(ch)));
        word_start = false;
    }
    *id = pv_xstrdup(len ? pv_buf_cstr(&i) : "col");
    *title = pv_xstrdup(len ? pv_buf_cstr(&t) : name);
    pv_buf_free(&i);
    pv_buf_free(&t);
}

pv_type aq_column_type(const aq_table *t, size_t col)
{
    return t->col_type && col < t->col_count ? t->col_type[col] : PV_TYPE_STRING;
}

void aq_view_init(aq_view *vb, const char *id, const char *title, const pv_column *cols,
                  size_t n, const aq_table *src, const char *const *consumed)
{
    vb->src = src;
    vb->fixed = n;
    vb->extra_count = 0;
    size_t total = n + (src ? src->col_count : 0);
    pv_column *all = pv_xcalloc(total ? total : 1, sizeof *all);
    memcpy(all, cols, n * sizeof *cols);
    vb->extra_src = pv_xmalloc((src && src->col_count ? src->col_count : 1) * sizeof(size_t));
    char **names = pv_xcalloc(total ? total : 1, 2 * sizeof(char *));
    size_t name_count = 0;
    for (size_t c = 0; src && c < src->col_count; c++) {
        const char *cn = src->col_names[c];
        if (strcasecmp(cn, "INST_ID") == 0)
            continue;
        bool skip = false;
        for (size_t k = 0; consumed && consumed[k]; k++)
            if (strcasecmp(consumed[k], cn) == 0)
                skip = true;
        if (skip)
            continue;
        char *cid, *ctitle;
        aq_column_names(cn, &cid, &ctitle);
        bool clash = false;
        for (size_t k = 0; k < n + vb->extra_count; k++)
            if (strcasecmp(all[k].id, cid) == 0)
                clash = true;
        if (clash) {
            /* Keep the contract's column ids: the raw name, lower-case. */
            free(cid);
            cid = pv_xstrdup(cn);
            for (char *p = cid; *p; p++)
                *p = (char)tolower((unsigned char)*p);
        }
        names[name_count++] = cid;
        names[name_count++] = ctitle;
        pv_column *col = &all[n + vb->extra_count];
        col->id = cid;
        col->title = ctitle;
        col->type = aq_column_type(src, c);
        col->flags = 0;
        vb->extra_src[vb->extra_count++] = c;
    }
    vb->t = pv_table_new(id, title, all, n + vb->extra_count);
    for (size_t k = 0; k < name_count; k++)
        free(names[k]);
    free(names);
    free(all);
}

bool aq_is_address_column(const char *name)
{
    size_t n = strlen(name);
    return n >= 7 && strcasecmp(name + n - 7, "ADDRESS") == 0;
}

void aq_view_fill_extras(aq_view *vb, size_t row, size_t src_row)
{
    const pv_view *v = pv_table_view(vb->t);
    for (size_t e = 0; e < vb->extra_count; e++) {
        size_t col = vb->fixed + e;
        size_t sc = vb->extra_src[e];
        aq_value val = aq_cell(vb->src, src_row, sc);
        char tmp[64];
        switch (v->columns[col].type) {
        case PV_TYPE_STRING: {
            const char *s = aq_text(vb->src, src_row, sc, tmp, sizeof tmp);
            if (s)
                pv_table_set_cstr(vb->t, row, col, s);
            break;
        }
        case PV_TYPE_FLOAT: {
            double d;
            if (aq_real(vb->src, src_row, sc, &d))
                pv_table_set_float(vb->t, row, col, d);
            break;
        }
        case PV_TYPE_HEX: {
            int64_t i;
            if (val.kind != AQ_V_TEXT && aq_int(vb->src, src_row, sc, &i))
                pv_table_set_uint(vb->t, row, col, (uint64_t)i);
            break;
        }
        default: {
            int64_t i;
            if (val.kind != AQ_V_TEXT && aq_int(vb->src, src_row, sc, &i))
                pv_table_set_int(vb->t, row, col, i);
            break;
        }
        }
    }
}

pv_table *aq_view_finish(aq_view *vb)
{
    free(vb->extra_src);
    vb->extra_src = NULL;
    return vb->t;
}

void aq_db_own(aq_db *db, void *p, void (*free_fn)(void *))
{
    db->owned = pv_xgrow(db->owned, &db->owned_cap, db->owned_count + 1, sizeof *db->owned);
    db->owned_free = pv_xgrow(db->owned_free, &db->owned_free_cap, db->owned_count + 1,
                              sizeof *db->owned_free);
    db->owned[db->owned_count] = p;
    db->owned_free[db->owned_count] = free_fn;
    db->owned_count++;
}

static void aq_db_free(void *p)
{
    aq_db *db = p;
    if (!db)
        return;
    aq_defer_free(db->defer); /* first: its thread uses the tables */
    for (size_t i = 0; i < db->owned_count; i++)
        db->owned_free[i](db->owned[i]);
    free(db->owned);
    free(db->owned_free);
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        aq_table *tab = &db->tables[t];
        for (size_t c = 0; c < tab->col_count; c++)
            free(tab->col_names[c]);
        free(tab->col_names);
        free(tab->col_known);
        free(tab->col_text);
        for (size_t c = 0; tab->cols && c < tab->col_count; c++) {
            free(tab->cols[c].data);
            free(tab->cols[c].nulls);
        }
        free(tab->cols);
        free(tab->row_no);
        free(tab->insts);
        free(tab->inst_start);
        free(tab->inst_rows);
        free(tab->col_type);
        free(tab->col_any_int);
        free(tab->col_all_text);
        free(tab->db_name);
        pv_strpool_free(&tab->pool);
    }
    free(db->path);
    free(db->uri);
    free(db);
}

/* ---- reading the database */

/* Is `name` documented for this table, and is it text? */
static bool aq_spec_column(aq_table_id id, const char *name, bool *text)
{
    const char *s = aq_table_specs[id].columns;
    size_t nl = strlen(name);
    while (*s) {
        while (*s == ' ')
            s++;
        const char *e = s;
        while (*e && *e != ' ' && *e != ':')
            e++;
        bool is_text = *e == ':';
        size_t len = (size_t)(e - s);
        if (len == nl && strncasecmp(s, name, len) == 0) {
            *text = is_text;
            return true;
        }
        s = e;
        while (*s && *s != ' ')
            s++;
    }
    return false;
}

/* Parses text where a number is expected: decimal, 0x-hex, or a real. */
static bool aq_parse_number(const char *s, aq_value *out)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0)
        return false;
    int64_t i;
    uint64_t u;
    if (pv_parse_int64(s, len, &i)) {
        out->kind = AQ_V_INT;
        out->v.i = i;
        return true;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && pv_parse_hex64(s, len, &u) &&
        u <= (uint64_t)INT64_MAX) {
        out->kind = AQ_V_INT;
        out->v.i = (int64_t)u;
        return true;
    }
    char *buf = pv_xstrndup(s, len);
    char *end;
    double d = strtod(buf, &end);
    bool ok = *end == '\0' && end != buf && isfinite(d);
    free(buf);
    if (!ok)
        return false;
    if (d == floor(d) && fabs(d) < 9.0e18) {
        out->kind = AQ_V_INT;
        out->v.i = (int64_t)d;
    } else {
        out->kind = AQ_V_REAL;
        out->v.f = d;
    }
    return true;
}

static char *aq_quote_ident(const char *name)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_put_sql_ident(&b, name);
    return b.data;
}


/* The largest rowid of a table (its row count when nothing was deleted),
 * found in the b-tree without a scan; 0 when it has none (a view). */
uint64_t aq_table_size_hint(sqlite3 *db, const char *name)
{
    char *q = aq_quote_ident(name);
    char *sql = pv_xasprintf("SELECT max(rowid) FROM %s", q);
    free(q);
    sqlite3_stmt *st = NULL;
    uint64_t n = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_int64(st, 0) > 0)
        n = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    free(sql);
    return n;
}

/* The rows of one statement over a table (all of it, or a range of its
 * rowids), appended to t; what went wrong is left in r for the caller to
 * report (aq_read_table). */
typedef struct aq_rows_read {
    const pv_progress *p;
    uint64_t done_before, total;
    _Atomic uint64_t *rows_read;  /* this reader's rows, for another's progress */
    _Atomic uint64_t *other_rows; /* another reader's, added to the progress */
    size_t row_no;                /* in: the rows before the first one; out: the last row's */
    size_t rows;
    size_t dropped, first_dropped;
    int rc;
    char *errmsg;
    bool cancelled;
} aq_rows_read;

static void aq_read_rows(const char *path, pv_diag *diag, sqlite3_stmt *st, aq_table *t,
                         aq_rows_read *r)
{
    size_t id_col = aq_col(t, "ID");
    size_t row_no = r->row_no;
    aq_value *rowbuf = pv_xmalloc((t->col_count ? t->col_count : 1) * sizeof *rowbuf);
    size_t dropped = 0, first_dropped = 0;
    int rc;
    for (;;) {
        rc = sqlite3_step(st);
        if (rc != SQLITE_ROW)
            break;
        row_no++;
        if ((row_no & 0x3FFF) == 0) {
            if (r->rows_read)
                atomic_store(r->rows_read, row_no - r->row_no);
            uint64_t more = r->other_rows ? atomic_load(r->other_rows) : 0;
            if (!pv_progress_step(r->p, "reading AQTime tables", r->done_before + row_no + more,
                                  r->total)) {
                r->cancelled = true;
                break;
            }
        }
        aq_value *row = rowbuf;
        for (size_t c = 0; c < t->col_count; c++) {
            aq_value *v = &row[c];
            v->kind = AQ_V_NULL;
            v->v.i = 0;
            /* One API call per cell: the value's accessors are cheap, each
             * sqlite3_column_* call is not (docs/aqtime.md, Scale). */
            sqlite3_value *sv = sqlite3_column_value(st, (int)c);
            switch (sqlite3_value_type(sv)) {
            case SQLITE_INTEGER:
                v->kind = AQ_V_INT;
                v->v.i = sqlite3_value_int64(sv);
                break;
            case SQLITE_FLOAT:
                v->kind = AQ_V_REAL;
                v->v.f = sqlite3_value_double(sv);
                if (!isfinite(v->v.f))
                    v->kind = AQ_V_NULL;
                break;
            case SQLITE_TEXT:
            case SQLITE_BLOB: {
                const char *s = (const char *)sqlite3_value_text(sv);
                size_t len = (size_t)sqlite3_value_bytes(sv);
                v->kind = AQ_V_TEXT;
                v->v.s = pv_strpool_add(&t->pool, s ? s : "", s ? strnlen(s, len) : 0);
                break;
            }
            default:
                break;
            }
        }
        /* docs/formats.md §5: text where the seed documents a number is reported
         * (table, row, column) and the cell is left empty. */
        char idtxt[32] = "";
        for (size_t c = 0; c < t->col_count; c++) {
            aq_value *v = &row[c];
            if (v->kind != AQ_V_TEXT || !t->col_known[c] || t->col_text[c])
                continue;
            const char *s = pv_strpool_get(&t->pool, v->v.s);
            if (aq_parse_number(s, v))
                continue;
            pv_buf esc;
            pv_buf_init(&esc);
            pv_escape_controls(&esc, s, strnlen(s, 60));
            if (id_col != AQ_NONE && row[id_col].kind == AQ_V_INT)
                snprintf(idtxt, sizeof idtxt, " (ID %" PRId64 ")", row[id_col].v.i);
            pv_warn(diag,
                    "%s: table %s row %zu%s: column %s: '%s' is not a number; the cell is left "
                    "empty",
                    path, t->db_name, row_no, idtxt, t->col_names[c], pv_buf_cstr(&esc));
            pv_buf_free(&esc);
            v->kind = AQ_V_NULL;
        }
        /* A whole REAL INST_ID is an integer, when int64_t holds it (the
         * same bound as aq_parse_number's); otherwise the row has none. */
        if (row[t->inst_col].kind == AQ_V_REAL &&
            row[t->inst_col].v.f == floor(row[t->inst_col].v.f) &&
            fabs(row[t->inst_col].v.f) < 9.0e18) {
            row[t->inst_col].kind = AQ_V_INT;
            row[t->inst_col].v.i = (int64_t)row[t->inst_col].v.f;
        }
        if (row[t->inst_col].kind != AQ_V_INT) {
            if (dropped++ == 0)
                first_dropped = row_no;
            continue;
        }
        aq_table_grow(t);
        if (row_no != t->row_no_base + t->row_count + 1)
            aq_row_no_materialise(t);
        if (t->row_no)
            t->row_no[t->row_count] = (uint32_t)row_no;
        aq_table_store(t, row);
    }
    free(rowbuf);
    r->rows = row_no - r->row_no;
    r->row_no = row_no;
    r->dropped = dropped;
    r->first_dropped = first_dropped;
    r->rc = rc;
    if (rc == SQLITE_INTERRUPT && !pv_db_budget_spent())
        r->cancelled = true; /* Ctrl-C, through the connection's progress handler */
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        r->errmsg = pv_xstrdup(pv_db_errmsg(sqlite3_db_handle(st)));
}

/* ---- a large table read by two threads (docs/aqtime.md, Scale) */

#define AQ_SPLIT_ROWS 1000000

/* The integer that `SELECT what FROM q` gives. */
static bool aq_query_i64(sqlite3 *db, const char *what, const char *q, int64_t *out)
{
    char *sql = pv_xasprintf("SELECT %s FROM %s", what, q);
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER;
    if (ok)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    free(sql);
    return ok;
}

/* The last rowid of the first half of a table whose rowids start at 1 and
 * go up to at least AQ_SPLIT_ROWS (the test option aq-split-rows for the
 * tests), and that largest rowid in *last; 0: read it in one. */
static size_t aq_split_point(sqlite3 *db, const char *q, int64_t *last,
                             const pv_test_options *test)
{
    int64_t lo, hi;
    uint64_t least = (uint64_t)pv_test_get(test, PV_TEST_AQ_SPLIT_ROWS, AQ_SPLIT_ROWS);
    if (!aq_query_i64(db, "max(rowid)", q, &hi) || hi < 2 || (uint64_t)hi < least ||
        hi > (int64_t)UINT32_MAX)
        return 0;
    if (!aq_query_i64(db, "min(rowid)", q, &lo) || lo != 1)
        return 0;
    *last = hi;
    return (size_t)(hi / 2);
}

/* The second half's reader: its own connection, statement, rows (a table
 * that shares the first's names) and messages. */
typedef struct aq_split {
    sqlite3 *db;
    sqlite3_stmt *st;
    char *q;          /* the table, quoted */
    int64_t last;     /* its largest rowid */
    bool declined;    /* its rowids are not 1..last: the first reader goes on */
    const char *path;
    aq_table part;
    pv_diag diag;
    pv_progress p;
    atomic_int cancel;
    atomic_int *outer_cancel;
    void (*gate)(void *user); /* the read's pause (aq_read_progress) */
    void *gate_user;
    _Atomic uint64_t r_rows;
    aq_rows_read r;
    pthread_t thread;
    bool started;
    bool stop;
} aq_split;

static void aq_split_free(aq_split *sp)
{
    if (!sp)
        return;
    if (sp->started)
        pthread_join(sp->thread, NULL);
    sqlite3_finalize(sp->st);
    sqlite3_close(sp->db);
    for (size_t c = 0; sp->part.cols && c < sp->part.col_count; c++) {
        free(sp->part.cols[c].data);
        free(sp->part.cols[c].nulls);
    }
    free(sp->part.cols);
    free(sp->part.row_no);
    pv_strpool_free(&sp->part.pool);
    pv_diag_free(&sp->diag);
    free(sp->r.errmsg);
    free(sp->q);
    free(sp);
}

/* Opens the file again for the rows after rowid `split`; NULL when it cannot
 * (then the table is read in one). */
static aq_split *aq_split_open(const char *uri, const char *q, size_t split, int64_t last)
{
    aq_split *sp = pv_xcalloc(1, sizeof *sp);
    sp->q = pv_xstrdup(q);
    sp->last = last;
    pv_diag_init(&sp->diag);
    pv_strpool_init(&sp->part.pool);
    char *sql = pv_xasprintf("SELECT * FROM %s WHERE rowid > %zu", q, split);
    bool ok = sqlite3_open_v2(uri, &sp->db,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                              NULL) == SQLITE_OK &&
              (pv_db_harden(sp->db, NULL), true) &&
              sqlite3_exec(sp->db, "PRAGMA cache_size = -256", NULL, NULL, NULL) == SQLITE_OK &&
              sqlite3_prepare_v2(sp->db, sql, -1, &sp->st, NULL) == SQLITE_OK;
    free(sql);
    if (!ok) {
        aq_split_free(sp);
        return NULL;
    }
    return sp;
}

static void aq_split_report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)what;
    (void)done;
    (void)total;
    aq_split *sp = user;
    if (sp->gate)
        sp->gate(sp->gate_user);
    if (sp->outer_cancel && atomic_load(sp->outer_cancel))
        atomic_store(&sp->cancel, 1);
}

static void *aq_split_run(void *arg)
{
    aq_split *sp = arg;
    /* Its first row is row S + 1 only when no rowid is missing: SQLite's
     * b-tree count (no row is decoded) equals the largest rowid. */
    int64_t n;
    if (!aq_query_i64(sp->db, "count(*)", sp->q, &n) || n != sp->last) {
        sp->declined = true;
        return NULL;
    }
    aq_read_rows(sp->path, &sp->diag, sp->st, &sp->part, &sp->r);
    return NULL;
}

/* Starts the second half's reader once t's columns are known (without a
 * thread it reads its half here, before the first). */
static void aq_split_start(aq_split *sp, const char *path, aq_table *t, size_t split,
                           const aq_read_progress *prog)
{
    sp->path = path;
    aq_table *b = &sp->part;
    b->name = t->name;
    b->db_name = t->db_name;
    b->col_count = t->col_count;
    b->col_names = t->col_names;
    b->col_known = t->col_known;
    b->col_text = t->col_text;
    b->inst_col = t->inst_col;
    b->row_no_base = split;
    b->cols = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *b->cols);
    sp->outer_cancel = prog->p ? prog->p->cancel : NULL;
    sp->gate = prog->gate;
    sp->gate_user = prog->gate_user;
    sp->p = (pv_progress){aq_split_report, sp, &sp->cancel};
    sp->r = (aq_rows_read){&sp->p, 0, 0, &sp->r_rows, NULL, split, 0, 0, 0, SQLITE_DONE, NULL,
                           false};
    sp->started = pthread_create(&sp->thread, NULL, aq_split_run, sp) == 0;
    if (!sp->started)
        aq_split_run(sp);
}

/* Makes room for `rows` rows in every column. */
static void aq_table_reserve(aq_table *t, size_t rows)
{
    if (rows > t->row_cap)
        aq_table_resize(t, (rows + 1023) / 1024 * 1024);
}

/* Appends b's rows (the same columns) to t: a column takes the wider kind of
 * the two; texts move to t's pool. */
static void aq_table_append(aq_table *t, const aq_table *b)
{
    size_t n = t->row_count, m = b->row_count;
    if (m == 0)
        return;
    aq_table_reserve(t, n + m);
    for (size_t c = 0; c < t->col_count; c++) {
        aq_colstore *cs = &t->cols[c];
        const aq_colstore *bs = &b->cols[c];
        uint8_t kind = cs->kind > bs->kind ? cs->kind : bs->kind;
        if (cs->kind != kind)
            aq_col_widen(t, cs, kind);
        if (kind == bs->kind && kind != AQ_COL_VAL) {
            size_t w = kind == AQ_COL_I32 ? 4 : 8;
            memcpy((char *)cs->data + n * w, bs->data, m * w);
            if (bs->nulls) {
                if (!cs->nulls)
                    cs->nulls = pv_xcalloc(t->row_cap / 8, 1);
                for (size_t r = 0; r < m; r++)
                    if ((bs->nulls[r >> 3] >> (r & 7)) & 1)
                        cs->nulls[(n + r) >> 3] |= (uint8_t)(1u << ((n + r) & 7));
                cs->null_count += bs->null_count;
            }
            continue;
        }
        /* cells (t's column holds aq_value cells here) */
        aq_value *d = cs->data;
        for (size_t r = 0; r < m; r++) {
            aq_value v = aq_cell(b, r, c);
            if (v.kind == AQ_V_TEXT) {
                const char *txt = pv_strpool_get(&b->pool, v.v.s);
                v.v.s = pv_strpool_add(&t->pool, txt, strlen(txt));
            }
            d[n + r] = v;
        }
    }
    if (t->row_no || b->row_no || b->row_no_base != t->row_no_base + n) {
        aq_row_no_materialise(t);
        for (size_t r = 0; r < m; r++)
            t->row_no[n + r] = (uint32_t)aq_row_no(b, r);
    }
    t->row_count = n + m;
}

/* Reads one table.  A read error (a corrupted page) keeps the rows read so
 * far and says where it stopped. */
void aq_read_table(const char *path, pv_diag *diag, sqlite3 *db, const char *uri, aq_table_id id,
                   aq_table *t, aq_read_progress *prog)
{
    char *q = aq_quote_ident(t->db_name);
    /* docs/aqtime.md, Scale: a large table is read by two threads, each a
     * half of its rowids (they are 1..N, so the second half's first row is
     * row S + 1), when the file can be opened again. */
    int64_t last = 0;
    size_t split = uri ? aq_split_point(db, q, &last, prog->test) : 0;
    aq_split *half = split ? aq_split_open(uri, q, split, last) : NULL;
    if (!half)
        split = 0;
    char *sql = split ? pv_xasprintf("SELECT * FROM %s WHERE rowid <= %zu", q, split)
                      : pv_xasprintf("SELECT * FROM %s", q);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK) {
        pv_error(diag, "%s: table %s: cannot be read: %s", path, t->db_name,
                 pv_db_errmsg(db));
        sqlite3_finalize(st);
        t->col_count = 0;
        free(q);
        aq_split_free(half);
        return;
    }
    t->col_count = (size_t)sqlite3_column_count(st);
    t->col_names = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->col_names);
    t->col_known = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->col_known);
    t->col_text = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->col_text);
    t->cols = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->cols);
    t->inst_col = AQ_NONE;
    for (size_t c = 0; c < t->col_count; c++) {
        const char *n = sqlite3_column_name(st, (int)c);
        t->col_names[c] = pv_xstrdup(n ? n : "");
        t->col_known[c] = aq_spec_column(id, t->col_names[c], &t->col_text[c]);
        if (strcasecmp(t->col_names[c], "INST_ID") == 0 && t->inst_col == AQ_NONE)
            t->inst_col = c;
    }
    /* docs/formats.md §5: missing columns are shown empty; say which. */
    pv_buf missing;
    pv_buf_init(&missing);
    for (const char *sp = aq_table_specs[id].columns; *sp;) {
        while (*sp == ' ')
            sp++;
        const char *e = sp;
        while (*e && *e != ' ' && *e != ':')
            e++;
        char *name = pv_xstrndup(sp, (size_t)(e - sp));
        if (name[0] && aq_col(t, name) == AQ_NONE)
            pv_buf_printf(&missing, "%s%s", missing.len ? ", " : "", name);
        free(name);
        sp = e;
        while (*sp && *sp != ' ')
            sp++;
    }
    if (missing.len)
        pv_warn(diag, "%s: table %s has no column %s: shown empty", path, t->db_name,
                pv_buf_cstr(&missing));
    pv_buf_free(&missing);
    if (t->inst_col == AQ_NONE) {
        pv_error(diag, "%s: table %s has no INST_ID column: its rows belong to no result set "
                 "and are ignored", path, t->db_name);
        sqlite3_finalize(st);
        free(q);
        aq_split_free(half);
        return;
    }
    if (half)
        aq_split_start(half, path, t, split, prog);
    _Atomic uint64_t mine = 0;
    aq_rows_read r = {prog->p, prog->done, prog->total, half ? &mine : NULL,
                      half ? &half->r_rows : NULL, 0, 0, 0, 0, SQLITE_DONE, NULL, false};
    aq_read_rows(path, diag, st, t, &r);
    sqlite3_finalize(st);
    size_t dropped = r.dropped, first_dropped = r.first_dropped;
    const aq_rows_read *end = &r; /* the reader whose end is the table's */
    aq_rows_read rest = r;
    rest.errmsg = NULL;
    if (half) {
        /* the second half counts only when the first read to its end */
        half->stop = r.rc != SQLITE_DONE || r.cancelled;
        if (half->stop)
            atomic_store(&half->cancel, 1);
        if (half->started)
            pthread_join(half->thread, NULL);
        half->started = false;
        if (!half->stop && half->declined) {
            /* rowids are missing: the second half is read here, after the
             * first, its rows numbered on from it */
            char *sql2 = pv_xasprintf("SELECT * FROM %s WHERE rowid > %zu", q, split);
            sqlite3_stmt *st2 = NULL;
            rest.rows_read = rest.other_rows = NULL;
            rest.done_before = prog->done + r.rows;
            if (sqlite3_prepare_v2(db, sql2, -1, &st2, NULL) == SQLITE_OK) {
                aq_read_rows(path, diag, st2, t, &rest);
            } else {
                rest.rc = SQLITE_ERROR;
                rest.errmsg = pv_xstrdup(pv_db_errmsg(db));
            }
            sqlite3_finalize(st2);
            free(sql2);
            if (!dropped)
                first_dropped = rest.first_dropped;
            dropped += rest.dropped;
            r.rows += rest.rows;
            r.cancelled = r.cancelled || rest.cancelled;
            end = &rest;
        } else if (!half->stop && !half->r.cancelled) {
            aq_table_append(t, &half->part);
            aq_diag_append(diag, &half->diag);
            if (!dropped)
                first_dropped = half->r.first_dropped;
            dropped += half->r.dropped;
            end = &half->r;
        }
        if (!half->declined) {
            r.cancelled = r.cancelled || (!half->stop && half->r.cancelled);
            r.rows += half->stop ? 0 : half->r.rows;
        }
    }
    free(q);
    if (dropped)
        pv_warn(diag, "%s: table %s: %zu rows have no usable INST_ID (first: row %zu) and "
                "are ignored", path, t->db_name, dropped, first_dropped);
    prog->done += r.rows;
    prog->cancelled = r.cancelled;
    if (end->rc != SQLITE_DONE && !r.cancelled)
        pv_error(diag, "%s: table %s row %zu: %s; the rows after it are missing", path,
                 t->db_name, end->row_no + 1, end->errmsg ? end->errmsg : "?");
    free(r.errmsg);
    free(rest.errmsg);
    aq_split_free(half);
}

typedef struct aq_inst_pair {
    int64_t id;
    size_t group;
} aq_inst_pair;

static int aq_inst_pair_cmp(const void *a, const void *b)
{
    const aq_inst_pair *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Groups the rows by INST_ID and derives the column types, once per table
 * (docs/aqtime.md, Scale): result sets then find their rows by a binary
 * search instead of a table scan each.  Rows of one INST_ID usually come in
 * runs, so the last group is tried before the map. */
void aq_index_table(aq_table *t)
{
    size_t n = t->row_count;
    pv_hashmap m;
    pv_hashmap_init(&m);
    int64_t *ids = NULL;
    size_t id_count = 0, id_cap = 0;
    size_t *counts = NULL, counts_cap = 0;
    uint32_t *group = pv_xmalloc((n ? n : 1) * sizeof *group);
    int64_t last = 0;
    uint32_t last_group = UINT32_MAX;
    for (size_t r = 0; r < n; r++) {
        int64_t id = aq_inst(t, r);
        uint32_t gi;
        if (last_group != UINT32_MAX && id == last) {
            gi = last_group;
        } else if (!pv_hashmap_get(&m, (uint64_t)id, &gi)) {
            gi = (uint32_t)id_count;
            ids = pv_xgrow(ids, &id_cap, id_count + 1, sizeof *ids);
            size_t cc = counts_cap;
            counts = pv_xgrow(counts, &cc, id_count + 1, sizeof *counts);
            counts_cap = cc;
            ids[id_count] = id;
            counts[id_count] = 0;
            id_count++;
            pv_hashmap_put(&m, (uint64_t)id, gi);
        }
        last = id;
        last_group = gi;
        group[r] = gi;
        counts[gi]++;
    }
    pv_hashmap_free(&m);
    /* The distinct INST_IDs ascending, each with its group (first-seen order). */
    aq_inst_pair *pairs = pv_xmalloc((id_count ? id_count : 1) * sizeof *pairs);
    for (size_t k = 0; k < id_count; k++)
        pairs[k] = (aq_inst_pair){ids[k], k};
    qsort(pairs, id_count, sizeof *pairs, aq_inst_pair_cmp);
    t->inst_count = id_count;
    t->insts = pv_xmalloc((id_count ? id_count : 1) * sizeof *t->insts);
    t->inst_start = pv_xmalloc((id_count + 1) * sizeof *t->inst_start);
    size_t *next = pv_xmalloc((id_count ? id_count : 1) * sizeof *next);
    size_t at = 0;
    for (size_t k = 0; k < id_count; k++) {
        t->insts[k] = pairs[k].id;
        t->inst_start[k] = at;
        next[pairs[k].group] = at;
        at += counts[pairs[k].group];
    }
    t->inst_start[id_count] = at;
    t->inst_rows = pv_xmalloc((n ? n : 1) * sizeof *t->inst_rows);
    for (size_t r = 0; r < n; r++)
        t->inst_rows[next[group[r]]++] = (uint32_t)r;
    free(next);
    free(pairs);
    free(group);
    free(counts);
    free(ids);

    /* Column types of extra columns: text anywhere makes a string column, a
     * fractional number a float one, else integers. */
    size_t nc = t->col_count;
    t->col_type = pv_xmalloc((nc ? nc : 1) * sizeof *t->col_type);
    t->col_any_int = pv_xcalloc(nc ? nc : 1, sizeof *t->col_any_int);
    t->col_all_text = pv_xcalloc(nc ? nc : 1, sizeof *t->col_all_text);
    bool *any_text = pv_xcalloc(nc ? nc : 1, sizeof *any_text);
    bool *any_real = pv_xcalloc(nc ? nc : 1, sizeof *any_real);
    for (size_t c = 0; c < nc; c++) {
        const aq_colstore *cs = &t->cols[c];
        if (cs->kind != AQ_COL_VAL) {
            t->col_any_int[c] = cs->null_count < n;
            t->col_all_text[c] = !t->col_any_int[c];
            continue;
        }
        const aq_value *v = cs->data;
        t->col_all_text[c] = true;
        for (size_t r = 0; r < n; r++) {
            if (v[r].kind == AQ_V_INT || v[r].kind == AQ_V_REAL)
                t->col_all_text[c] = false;
            switch (v[r].kind) {
            case AQ_V_TEXT: any_text[c] = true; break;
            case AQ_V_INT: t->col_any_int[c] = true; break;
            case AQ_V_REAL:
                if (v[r].v.f != floor(v[r].v.f))
                    any_real[c] = true;
                break;
            default: break;
            }
        }
    }
    for (size_t c = 0; c < nc; c++) {
        t->col_type[c] = any_text[c] || t->col_text[c] ? PV_TYPE_STRING
                         : any_real[c]                ? PV_TYPE_FLOAT
                                                      : PV_TYPE_INT;
        /* Addresses read as a debugger shows them (docs/aqtime.md). */
        if (t->col_type[c] == PV_TYPE_INT && aq_is_address_column(t->col_names[c]))
            t->col_type[c] = PV_TYPE_HEX;
    }
    free(any_text);
    free(any_real);
}

bool aq_table_is_aqtime(const char *name, bool *profiler)
{
    bool known = false;
    *profiler = false;
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        known = known || strcasecmp(name, aq_table_specs[t].name) == 0;
    for (size_t p = 0; p < AQ_PROF_COUNT; p++)
        if (strncasecmp(name, aq_profiler_prefix[p], strlen(aq_profiler_prefix[p])) == 0)
            known = *profiler = true;
    return known;
}

/* Finds the seed's tables by name, case-insensitively. */
static bool aq_find_tables(pv_file *f, sqlite3 *db, aq_db *a)
{
    sqlite3_stmt *st = NULL;
    /* Tables only: a view may cost anything (an endless recursive CTE);
     * one named as an AQTime table is left out, and said so. */
    int rc = sqlite3_prepare_v2(db, "SELECT name, type FROM sqlite_master WHERE type IN ('table','view')",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: byte 0: not a readable SQLite database: %s", f->path,
                 pv_db_errmsg(db));
        sqlite3_finalize(st);
        return false;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        const char *type = (const char *)sqlite3_column_text(st, 1);
        if (!name)
            continue;
        bool view = type && strcmp(type, "view") == 0;
        for (size_t t = 0; t < AQ_T_COUNT; t++) {
            if (strcasecmp(name, aq_table_specs[t].name) != 0)
                continue;
            if (view) {
                /* one message: the table is then not "missing" as well */
                pv_warn(&f->diag, "%s: %s is a view, not a table: not read, what it holds is "
                        "shown empty (a view may cost anything to read; docs/input.md "
                        "\"Databases\")", f->path, name);
                a->tables[t].is_view = true;
                continue;
            }
            if (a->tables[t].db_name)
                pv_warn(&f->diag, "%s: tables %s and %s differ only in case; %s is used",
                        f->path, a->tables[t].db_name, name, a->tables[t].db_name);
            else
                a->tables[t].db_name = pv_xstrdup(name);
        }
        for (size_t p = 0; p < AQ_PROF_COUNT && !view; p++)
            if (strncasecmp(name, aq_profiler_prefix[p], strlen(aq_profiler_prefix[p])) == 0)
                a->has_profiler[p] = true;
    }
    if (rc == SQLITE_INTERRUPT && !pv_db_budget_spent()) {
        pv_error(&f->diag, "%s: cancelled", f->path); /* Ctrl-C */
        sqlite3_finalize(st);
        return false;
    }
    if (rc != SQLITE_DONE) {
        pv_error(&f->diag, "%s: the database schema cannot be read: %s", f->path,
                 pv_db_errmsg(db));
        sqlite3_finalize(st);
        return false;
    }
    sqlite3_finalize(st);
    return true;
}

static int aq_probe(const unsigned char *head, size_t len, uint64_t file_size, const char *path)
{
    (void)file_size;
    (void)path;
    static const char magic[16] = "SQLite format 3";
    if (len < 16 || memcmp(head, magic, 16) != 0)
        return 0;
    /* Any SQLite file is likely ours (the load checks the tables); AQTime's
     * table names in the first pages make it surer.  Another SQLite loader
     * that finds its own marker should score between 85 and 95. */
    static const char needle[] = "_PROFILER_";
    for (size_t i = 0; i + sizeof needle - 1 <= len; i++)
        if (strncasecmp((const char *)head + i, needle, sizeof needle - 1) == 0)
            return 95;
    return 85;
}

/* ---- result sets */

static void aq_summary(aq_ctx *c, const char *caption, aq_profiler p)
{
    pv_table *t = pv_summary_new();
    const char *facts[8][2];
    size_t n = 0;
    char inst[32], freq[64];
    snprintf(inst, sizeof inst, "%" PRId64, c->inst);
    facts[n][0] = "format";
    facts[n++][1] = "AQTime database";
    facts[n][0] = "file";
    facts[n++][1] = c->f->path;
    facts[n][0] = "result set";
    facts[n++][1] = inst;
    facts[n][0] = "caption";
    facts[n++][1] = caption;
    facts[n][0] = "profiler";
    facts[n++][1] = aq_profiler_name[p];
    if (c->counter_name && c->counter_name[0]) {
        facts[n][0] = "counter";
        facts[n++][1] = c->counter_name;
    }
    if (c->frequency > 0) {
        snprintf(freq, sizeof freq, "%.17g", c->frequency);
        facts[n][0] = "counter frequency";
        facts[n++][1] = freq;
        facts[n][0] = "counter unit";
        facts[n++][1] = c->time_counter ? "time (cycles converted to ns)" : "count";
    }
    for (size_t i = 0; i < n; i++)
        pv_summary_add(t, facts[i][0], facts[i][1]);
    pv_set_add_view(c->set, pv_table_view(t));
}

void aq_build_threads(aq_ctx *c, aq_table_id table)
{
    static const pv_column cols[] = {
        {PV_COLUMN_ID, 0},
        {"thread", "Thread", PV_TYPE_INT, PV_COL_NAME},
    };
    static const char *const consumed[] = {"ID", "COL_WIN32THREADID", "PARENT_ID", NULL};
    aq_table *src = &c->db->tables[table];
    aq_sel s;
    aq_select(&s, src, c->inst);
    aq_view vb;
    aq_view_init(&vb, "threads", "Threads", cols, PV_ARRAY_LEN(cols), src, consumed);
    size_t id = aq_col(src, "ID"), os = aq_col(src, "COL_WIN32THREADID");
    for (size_t i = 0; i < s.n; i++) {
        size_t r = pv_table_add_row(vb.t);
        int64_t v;
        if (aq_int(src, s.rows[i], id, &v))
            pv_table_set_int(vb.t, r, 0, v);
        if (aq_int_any(src, s.rows[i], os, &v))
            pv_table_set_int(vb.t, r, 1, v);
        aq_view_fill_extras(&vb, r, s.rows[i]);
    }
    aq_sel_free(&s);
    pv_set_add_view(c->set, pv_table_view(aq_view_finish(&vb)));
}

/* Which profilers hold rows of this result set. */
static void aq_set_profilers(aq_db *a, int64_t inst, bool out[AQ_PROF_COUNT])
{
    for (size_t p = 0; p < AQ_PROF_COUNT; p++) {
        out[p] = false;
        for (size_t k = 0; k < 3 && !out[p]; k++)
            out[p] = aq_has_inst(&a->tables[aq_profiler_main[p][k]], inst);
    }
}

/* The result sets of one INST_ID: one per profiler holding its rows.  With
 * `plan` (docs/aqtime.md "First screen") the sets get their summary and,
 * for the other views, placeholders that the background read fills in;
 * nothing is reported then (the read reports it all when it is done). */
static void aq_add_sets(pv_file *f, aq_db *a, int64_t inst, const char *caption,
                        const char *counter_name, const char *counter_desc, double freq,
                        bool freq_present, pv_file *plan)
{
    bool prof[AQ_PROF_COUNT];
    aq_set_profilers(a, inst, prof);
    size_t n = 0;
    for (size_t p = 0; p < AQ_PROF_COUNT; p++)
        n += prof[p];
    if (n == 0) {
        /* An empty result set still gets its node: the profiler whose tables exist. */
        for (size_t p = 0; p < AQ_PROF_COUNT; p++)
            if (a->has_profiler[p]) {
                prof[p] = true;
                break;
            }
    }
    for (size_t p = 0; p < AQ_PROF_COUNT; p++) {
        if (!prof[p])
            continue;
        aq_ctx c;
        memset(&c, 0, sizeof c);
        c.db = a;
        c.f = plan ? plan : f; /* the plan's messages are not kept */
        c.inst = inst;
        c.set = pv_file_add_set(f, inst, caption, aq_profiler_name[p]);
        const char *cname = counter_desc && counter_desc[0] ? counter_desc : counter_name;
        c.counter_name = pv_xstrdup(cname ? cname : "");
        c.frequency = freq_present ? freq : 0;
        if (p == AQ_PROF_TRACE) {
            /* docs/formats.md §5: Elapsed Time, User Time and User+Kernel Time are
             * stored in machine cycles; COUNTER_NAME says "Time" for them. */
            bool is_time = (counter_name && strcasecmp(counter_name, "Time") == 0) ||
                           (counter_desc && (strcasecmp(counter_desc, "Elapsed Time") == 0 ||
                                             strcasecmp(counter_desc, "User Time") == 0 ||
                                             strcasecmp(counter_desc, "User+Kernel Time") == 0));
            if (!counter_name && !counter_desc)
                is_time = true; /* AQTime's default counter is Elapsed Time */
            if (is_time && freq_present && freq > 0)
                c.time_counter = true;
            else if (is_time)
                aq_warn(&c, "INSTANCES: the counter is a time counter but COUNTER_FREQUENCY is "
                            "missing or not positive: times are shown in machine cycles");
            if (c.counter_name[0] == '\0') {
                free(c.counter_name);
                c.counter_name = pv_xstrdup(is_time ? "Elapsed Time" : "Counter");
            }
            if (!plan)
                pv_set_add_note(c.set, "counter: %s, %s", c.counter_name,
                                c.time_counter ? "machine cycles shown as time" : "shown as counts");
        }
        aq_summary(&c, caption, (aq_profiler)p);
        if (plan)
            aq_defer_placeholders(a, c.set, (aq_profiler)p);
        else if (p == AQ_PROF_TRACE)
            aq_build_trace(&c);
        else
            aq_build_objects(&c, (aq_profiler)p);
        free(c.counter_name);
    }
}

static int aq_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void aq_make_sets(pv_file *f, aq_db *a, pv_file *plan)
{
    pv_diag *diag = plan ? &plan->diag : &f->diag;
    /* One result set per INSTANCES row (docs/formats.md §5). */
    aq_table *inst = &a->tables[AQ_T_INSTANCES];
    pv_hashmap seen;
    pv_hashmap_init(&seen);
    size_t cap_col = aq_col(inst, "CAPTION"), cn_col = aq_col(inst, "COUNTER_NAME"),
           cd_col = aq_col(inst, "COUNTER_DESCRIPTION"), fr_col = aq_col(inst, "COUNTER_FREQUENCY");
    for (size_t r = 0; r < inst->row_count; r++) {
        int64_t id = aq_inst(inst, r);
        uint32_t dummy;
        if (pv_hashmap_get(&seen, (uint64_t)id, &dummy)) {
            pv_warn(diag, "%s: table %s row %zu: INST_ID %" PRId64 " appears twice; the "
                    "first row is used", f->path, inst->db_name, aq_row_no(inst, r), id);
            continue;
        }
        pv_hashmap_put(&seen, (uint64_t)id, 1);
        char t1[64], t2[64], t3[64], capbuf[64];
        const char *caption = aq_text(inst, r, cap_col, t1, sizeof t1);
        if (!caption) {
            snprintf(capbuf, sizeof capbuf, "Result set %" PRId64, id);
            caption = capbuf;
        }
        double freq = 0;
        bool has_freq = aq_real(inst, r, fr_col, &freq);
        aq_add_sets(f, a, id, caption, aq_text(inst, r, cn_col, t2, sizeof t2),
                    aq_text(inst, r, cd_col, t3, sizeof t3), freq, has_freq, plan);
    }
    /* Rows of result sets that INSTANCES does not list still get a node. */
    int64_t *orphans = NULL;
    size_t orphan_count = 0, orphan_cap = 0;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        aq_table *tab = &a->tables[t];
        if (t == AQ_T_INSTANCES || t == AQ_T_RELATIONS)
            continue;
        for (size_t k = 0; k < tab->inst_count; k++) {
            int64_t id = tab->insts[k];
            uint32_t dummy;
            if (pv_hashmap_get(&seen, (uint64_t)id, &dummy))
                continue;
            pv_hashmap_put(&seen, (uint64_t)id, 2);
            orphans = pv_xgrow(orphans, &orphan_cap, orphan_count + 1, sizeof *orphans);
            orphans[orphan_count++] = id;
        }
    }
    pv_hashmap_free(&seen);
    if (orphan_count)
        qsort(orphans, orphan_count, sizeof *orphans, aq_cmp_i64);
    for (size_t k = 0; k < orphan_count; k++) {
        pv_warn(diag, "%s: INST_ID %" PRId64 " has rows but no INSTANCES row: shown without "
                "caption or counter", f->path, orphans[k]);
        char capbuf[64];
        snprintf(capbuf, sizeof capbuf, "Result set %" PRId64, orphans[k]);
        aq_add_sets(f, a, orphans[k], capbuf, NULL, NULL, 0, false, plan);
    }
    free(orphans);
}

/* What an AQTime file can do beyond its views: its own exports. */
static const pv_file_hooks aq_file_hooks = {0};

/* Tables of at least this many rows (by their largest rowid) are read in
 * the background when the caller steps the load (docs/aqtime.md "First
 * screen"); the test option aq-defer-rows sets it for the tests (0: every
 * profiler table). */
#define AQ_DEFER_ROWS 200000

static pv_load_status aq_load(pv_file *f, const pv_load_options *o)
{
    sqlite3 *db = NULL;
    /* SQLite reads a path, not a pipe: a stream input goes through a private
     * temporary copy, removed as soon as SQLite holds it open (immutable: it
     * never opens the file again). */
    char *tmp;
    int err = pv_input_temp_copy(f->path, &tmp);
    if (err) {
        pv_error(&f->diag, "%s: cannot copy the input to a temporary file: %s", f->path,
                 strerror(err));
        return PV_LOAD_ERROR;
    }
    /* hostile input (docs/input.md "Databases"): hardened, its work
     * bounded, Ctrl-C honoured while the file loads; with its WAL */
    aq_db *a = pv_xcalloc(1, sizeof *a);
    struct stat fst;
    pv_db_guard_init(&a->guard, stat(tmp ? tmp : f->path, &fst) == 0 ? (uint64_t)fst.st_size : 0,
                     o->progress.cancel);
    bool wal;
    char *uri = pv_db_input_uri(tmp ? tmp : f->path, &wal);
    char *note;
    int rc = pv_db_open_input(tmp ? tmp : f->path, uri, SQLITE_OPEN_NOMUTEX, &a->guard, &db,
                              &note);
    if (note) {
        pv_warn(&f->diag, "%s", note);
        free(note);
    }
    /* Every table is read once, in order: a page cache of 256 KB does (the
     * default is 2 MB per connection; docs/aqtime.md, Scale). */
    if (rc == SQLITE_OK)
        sqlite3_exec(db, "PRAGMA cache_size = -256", NULL, NULL, NULL);
    /* A file (not a stream's copy) can be opened again: a large table is
     * then read by two threads (docs/aqtime.md, Scale). */
    if (tmp) {
        free(uri);
        uri = NULL;
    }
    pv_input_remove_temp(tmp);
    if (rc != SQLITE_OK) {
        pv_error(&f->diag, "%s: cannot open as a SQLite database: %s", f->path,
                 db ? pv_db_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        free(uri);
        free(a);
        return PV_LOAD_ERROR;
    }
    return aq_load_db(f, o, db, uri, a);
}

pv_load_status aq_load_db(pv_file *f, const pv_load_options *o, sqlite3 *db, char *uri, aq_db *a)
{
    if (!a)
        a = pv_xcalloc(1, sizeof *a); /* its guard bounds no connection of its own */
    a->path = pv_xstrdup(f->path);
    a->uri = uri;
    a->test = o->test;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        a->tables[t].name = aq_table_specs[t].name;
        a->tables[t].inst_col = AQ_NONE;
        pv_strpool_init(&a->tables[t].pool);
    }
    f->loader_data = a;
    f->loader_free = aq_db_free;
    f->hooks = &aq_file_hooks;
    if (!aq_find_tables(f, db, a)) {
        sqlite3_close(db);
        return PV_LOAD_ERROR;
    }
    bool any = false;
    for (size_t p = 0; p < AQ_PROF_COUNT; p++)
        any = any || a->has_profiler[p];
    if (!any) {
        pv_error(&f->diag, "%s: a SQLite database without AQTime tables (no "
                 "FUNCTION_TRACE_PROFILER_*, RESOURCE_PROFILER_* or REFERENCE_COUNT_PROFILER_* "
                 "table)", f->path);
        sqlite3_close(db);
        return PV_LOAD_ERROR;
    }
    /* A subset exported with its view as shown (docs/export.md "AQTime
     * subsets") is read at once: its stored views replace the built ones,
     * which a background read would build later. */
    sqlite3_stmt *probe = NULL;
    bool stored_views =
        sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = 'profview_views'", -1,
                           &probe, NULL) == SQLITE_OK &&
        sqlite3_step(probe) == SQLITE_ROW;
    sqlite3_finalize(probe);
    bool wanted[AQ_T_COUNT], deferred[AQ_T_COUNT];
    uint64_t hint[AQ_T_COUNT];
    aq_read_progress prog = {&o->progress, 0, 0, false, NULL, NULL, &o->test};
    uint64_t defer_rows = (uint64_t)pv_test_get(&o->test, PV_TEST_AQ_DEFER_ROWS, AQ_DEFER_ROWS);
    uint64_t deferred_total = 0;
    bool any_deferred = false;
    for (size_t t = 0; t < AQ_T_COUNT; t++) {
        aq_table *tab = &a->tables[t];
        wanted[t] = t == AQ_T_INSTANCES || t == AQ_T_RELATIONS;
        for (size_t p = 0; p < AQ_PROF_COUNT; p++)
            if (a->has_profiler[p] &&
                strncasecmp(tab->name, aq_profiler_prefix[p], strlen(aq_profiler_prefix[p])) == 0)
                wanted[t] = true;
        hint[t] = wanted[t] && tab->db_name ? aq_table_size_hint(db, tab->db_name) : 0;
        /* docs/aqtime.md "First screen": the large profiler tables of a load
         * that the caller steps are read by a thread of the loader. */
        deferred[t] = o->steps && !stored_views && wanted[t] && tab->db_name && t != AQ_T_INSTANCES &&
                      t != AQ_T_RELATIONS && hint[t] >= defer_rows;
        if (deferred[t]) {
            any_deferred = true;
            deferred_total += hint[t];
        } else {
            prog.total += hint[t];
        }
    }
    /* Messages of the reads, per table (the background read adds its own
     * tables' later), so that they reach the file in table order. */
    pv_diag tdiag[AQ_T_COUNT];
    for (size_t t = 0; t < AQ_T_COUNT; t++)
        pv_diag_init(&tdiag[t]);
    for (size_t t = 0; t < AQ_T_COUNT && !prog.cancelled; t++) {
        aq_table *tab = &a->tables[t];
        if (!wanted[t] || deferred[t])
            continue;
        pv_diag *d = any_deferred ? &tdiag[t] : &f->diag;
        if (!tab->db_name) {
            if (t != AQ_T_RELATIONS && !tab->is_view)
                pv_warn(d, "%s: table %s is missing: what it holds is shown empty",
                        f->path, tab->name);
            continue;
        }
        aq_read_table(f->path, d, db, a->uri, (aq_table_id)t, tab, &prog);
        aq_index_table(tab);
    }
    if (prog.cancelled) {
        for (size_t t = 0; t < AQ_T_COUNT; t++)
            pv_diag_free(&tdiag[t]);
        sqlite3_close(db);
        pv_error(&f->diag, "%s: cancelled", f->path);
        return PV_LOAD_ERROR;
    }
    if (any_deferred) {
        /* The result sets as INSTANCES and the tables read say (the seed:
         * INSTANCES lists every result set); their views fill in when the
         * background read is done. */
        pv_file *plan = pv_xcalloc(1, sizeof *plan);
        plan->path = pv_xstrdup(f->path);
        aq_make_sets(f, a, plan);
        pv_file_free(plan);
        if (f->set_count > 0) {
            atomic_store(&a->guard.cancel, NULL); /* Ctrl-C was for the load */
            aq_defer_start(f, a, db, deferred, tdiag, deferred_total);
            return PV_LOAD_OK;
        }
        /* Nothing to show without the large tables: read them now. */
        for (size_t t = 0; t < AQ_T_COUNT && !prog.cancelled; t++) {
            if (!deferred[t])
                continue;
            prog.total += hint[t];
            aq_read_table(f->path, &tdiag[t], db, a->uri, (aq_table_id)t, &a->tables[t], &prog);
            aq_index_table(&a->tables[t]);
        }
        for (size_t t = 0; t < AQ_T_COUNT; t++) {
            aq_diag_append(&f->diag, &tdiag[t]);
            pv_diag_free(&tdiag[t]);
        }
        if (prog.cancelled) {
            sqlite3_close(db);
            pv_error(&f->diag, "%s: cancelled", f->path);
            return PV_LOAD_ERROR;
        }
    }
    atomic_store(&a->guard.cancel, NULL);
    aq_make_sets(f, a, NULL);
    bool stored_ok = !stored_views || pv_db_read_stored_views(f, db);
    sqlite3_close(db);
    if (!stored_ok)
        return PV_LOAD_ERROR;
    if (f->set_count == 0) {
        pv_error(&f->diag, "%s: no result set: INSTANCES and the profiler tables hold no rows",
                 f->path);
        return PV_LOAD_ERROR;
    }
    return PV_LOAD_OK;
}

void aq_diag_append(pv_diag *to, const pv_diag *from)
{
    size_t warnings = 0;
    for (size_t i = 0; i < from->entry_count; i++) {
        pv_diag_add(to, from->entries[i].severity, "%s", from->entries[i].text);
        warnings += from->entries[i].severity != PV_SEV_ERROR;
    }
    /* the warnings counted but not kept */
    to->warnings += from->warnings - warnings;
}

const pv_loader pv_loader_aqtime = {
    "aqtime",
    "AQTime Function Trace, Resource and Reference Count results (SQLite database)",
    aq_probe,
    aq_load,
    pv_aq_export,
};
