/* aqtime_columns.c - what the AQTime views' columns show: the counter's
 * values and types (docs/formats.md §5) and a table's remaining columns
 * appended to the view built from it. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aqtime.h"

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
