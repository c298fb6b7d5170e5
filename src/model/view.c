/* view.c - the generic side of views: lookup, tree depth, cell text and
 * comparison.  Every consumer (CLI, TUI, query, export) goes through here. */
#include "profview/model.h"
#include "profview/hooks.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *pv_type_name(pv_type t)
{
    switch (t) {
    case PV_TYPE_INT: return "int";
    case PV_TYPE_FLOAT: return "float";
    case PV_TYPE_TIME: return "time";
    case PV_TYPE_HANDLE: return "handle";
    case PV_TYPE_HEX: return "hex";
    case PV_TYPE_STRING: return "string";
    }
    return "?";
}

#ifdef PV_CHECKS
/* The typed-cell contract: every cell of a column, present or empty, has the
 * column's declared type (filters, sorts and exporters rely on it). */
void pv_view_check_cell(const pv_view *v, size_t row, size_t col, const pv_cell *c)
{
    if (col < v->column_count && c->type == v->columns[col].type)
        return;
    fprintf(stderr,
            "profview: internal error: view %s row %zu column %zu (%s): a %s cell in a %s "
            "column\n",
            v->id ? v->id : "?", row, col, col < v->column_count ? v->columns[col].id : "?",
            pv_type_name(c->type), col < v->column_count ? pv_type_name(v->columns[col].type) : "?");
    abort();
}
#endif

size_t pv_view_column(const pv_view *v, const char *id)
{
    for (size_t i = 0; i < v->column_count; i++)
        if (strcasecmp(v->columns[i].id, id) == 0)
            return i;
    return PV_NO_ROW;
}

size_t pv_view_name_column(const pv_view *v)
{
    for (size_t i = 0; i < v->column_count; i++)
        if (v->columns[i].flags & PV_COL_NAME)
            return i;
    return PV_NO_ROW;
}

size_t pv_view_depth(const pv_view *v, size_t row)
{
    size_t depth = 0;
    size_t limit = pv_view_rows(v);
    for (size_t p = pv_view_parent(v, row); p != PV_NO_ROW && depth <= limit;
         p = pv_view_parent(v, p))
        depth++;
    return depth;
}

static bool pv_cell_is(const pv_cell *c, int64_t value)
{
    if (!c->present)
        return false;
    if (c->type == PV_TYPE_INT || c->type == PV_TYPE_TIME)
        return c->v.i == value;
    if (c->type == PV_TYPE_HANDLE || c->type == PV_TYPE_HEX)
        return c->v.u == (uint64_t)value;
    return false;
}

size_t pv_view_find_value(const pv_view *v, size_t col, int64_t value)
{
    size_t n = pv_view_rows(v);
    if (col >= v->column_count)
        return PV_NO_ROW;
    pv_cell c;
    /* Ids and indices are usually dense from 0 or 1: try those rows first. */
    for (int64_t k = value; k >= value - 1; k--)
        if (k >= 0 && (uint64_t)k < n) {
            pv_view_cell(v, (size_t)k, col, &c);
            if (pv_cell_is(&c, value))
                return (size_t)k;
        }
    for (size_t r = 0; r < n; r++) {
        pv_view_cell(v, r, col, &c);
        if (pv_cell_is(&c, value))
            return r;
    }
    return PV_NO_ROW;
}

size_t pv_view_find_id(const pv_view *v, int64_t id)
{
    size_t col = pv_view_column(v, "id");
    return col == PV_NO_ROW ? PV_NO_ROW : pv_view_find_value(v, col, id);
}

size_t pv_view_detail_index(const pv_view *v, const char *detail_id)
{
    for (size_t i = 0; i < v->detail_count; i++)
        if (strcasecmp(v->details[i].id, detail_id) == 0)
            return i;
    return PV_NO_ROW;
}

bool pv_detail_outside(const pv_detail_def *d) { return strcmp(d->id, PV_DETAIL_SOURCE) == 0; }

pv_view *pv_view_open_detail(const pv_view *v, size_t detail, size_t row)
{
    if (!v->ops->open_detail || detail >= v->detail_count || row >= pv_view_rows(v))
        return NULL;
    return v->ops->open_detail(v, detail, row);
}

/* Where a detail being opened on this thread says why it has nothing. */
static _Thread_local pv_buf *pv_detail_why_to;

pv_view *pv_view_open_detail_why(const pv_view *v, size_t detail, size_t row, pv_buf *why)
{
    pv_buf *outer = pv_detail_why_to;
    pv_detail_why_to = why;
    pv_view *d = pv_view_open_detail(v, detail, row);
    pv_detail_why_to = outer;
    return d;
}

pv_buf *pv_detail_why(void) { return pv_detail_why_to; }

void pv_view_free(pv_view *v)
{
    if (v)
        v->ops->destroy(v);
}

void pv_view_copy_names(pv_view *v, const char *id, const char *title, const pv_column *columns,
                        size_t column_count)
{
    v->id = pv_xstrdup(id);
    v->title = pv_xstrdup(title);
    v->column_count = column_count;
    v->columns = pv_xcalloc(column_count ? column_count : 1, sizeof *v->columns);
    for (size_t c = 0; c < column_count; c++) {
        v->columns[c] = columns[c];
        v->columns[c].id = pv_xstrdup(columns[c].id);
        v->columns[c].title = pv_xstrdup(columns[c].title ? columns[c].title : columns[c].id);
    }
}

void pv_view_free_names(pv_view *v)
{
    for (size_t c = 0; c < v->column_count; c++) {
        free((char *)v->columns[c].id);
        free((char *)v->columns[c].title);
    }
    free(v->columns);
    free(v->id);
    free(v->title);
}

/* The shortest decimal text that reads back as the same double (docs/cli.md:
 * output is machine-exact): 12.5, 0.30000000000000004, 1e-07.  An
 * F64 value from a winIDEA area survives a round trip through `cat`. */
static void pv_format_float(double f, pv_buf *out)
{
    if (isnan(f)) {
        pv_buf_puts(out, "nan");
        return;
    }
    if (isinf(f)) {
        pv_buf_puts(out, f < 0 ? "-inf" : "inf");
        return;
    }
    if (f == 0) {
        pv_buf_putc(out, '0'); /* -0 too: a zero is written 0 */
        return;
    }
    char tmp[400];
    double mag = fabs(f);
    if (mag >= 1e-6 && mag < 1e16) {
        /* Plain decimals, as few as round-trip: 90, 12.5, 33.333333333333336. */
        for (int decimals = 0; decimals <= 24; decimals++) {
            snprintf(tmp, sizeof tmp, "%.*f", decimals, f);
            if (strtod(tmp, NULL) == f) {
                pv_buf_puts(out, tmp);
                return;
            }
        }
    }
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(tmp, sizeof tmp, "%.*g", precision, f);
        if (strtod(tmp, NULL) == f)
            break;
    }
    pv_buf_puts(out, tmp);
}

void pv_cell_format_exact(const pv_cell *c, pv_buf *out)
{
    if (!c->present)
        return;
    switch (c->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        pv_buf_printf(out, "%" PRId64, c->v.i);
        break;
    case PV_TYPE_FLOAT:
        pv_format_float(c->v.f, out);
        break;
    case PV_TYPE_HANDLE:
        pv_buf_printf(out, "0x%08" PRIX64, c->v.u);
        break;
    case PV_TYPE_HEX:
        pv_buf_printf(out, "0x%" PRIX64, c->v.u);
        break;
    case PV_TYPE_STRING:
        pv_buf_append(out, c->v.s.ptr, c->v.s.len);
        break;
    }
}

void pv_cell_format_human(const pv_cell *c, pv_time_unit unit, pv_buf *out)
{
    if (!c->present)
        return;
    if (c->type == PV_TYPE_TIME) {
        char tmp[48];
        pv_format_time_human(c->v.i, unit, tmp, sizeof tmp);
        pv_buf_puts(out, tmp);
    } else if (c->type == PV_TYPE_FLOAT) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%.2f", c->v.f);
        pv_buf_puts(out, tmp);
    } else {
        pv_cell_format_exact(c, out);
    }
}

int pv_cell_compare(const pv_cell *a, const pv_cell *b)
{
    if (!a->present || !b->present)
        return (int)a->present - (int)b->present;
    switch (a->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        return (a->v.i > b->v.i) - (a->v.i < b->v.i);
    case PV_TYPE_FLOAT:
        return (a->v.f > b->v.f) - (a->v.f < b->v.f);
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX:
        return (a->v.u > b->v.u) - (a->v.u < b->v.u);
    case PV_TYPE_STRING: {
        size_t n = a->v.s.len < b->v.s.len ? a->v.s.len : b->v.s.len;
        int r = n ? memcmp(a->v.s.ptr, b->v.s.ptr, n) : 0;
        if (r)
            return r < 0 ? -1 : 1;
        return (a->v.s.len > b->v.s.len) - (a->v.s.len < b->v.s.len);
    }
    }
    return 0;
}

void pv_view_cell_after(const pv_view *v, size_t row, size_t prev, size_t col, pv_cell *out)
{
    /* a view without times (a table read back from an export) keeps its
     * stored values */
    if (!(v->columns[col].flags & PV_COL_SINCE_PREV) || !pv_view_has_time(v)) {
        pv_view_cell(v, row, col, out);
        return;
    }
    int64_t t, tp;
    memset(out, 0, sizeof *out);
    out->type = PV_TYPE_TIME;
    if (prev != PV_NO_ROW && pv_view_row_time(v, row, &t) && pv_view_row_time(v, prev, &tp)) {
        out->present = true;
        out->v.i = t - tp;
    }
}
