/* hooks.c - the accessors of the optional capability hooks
 * (profview/hooks.h, docs/model.md): each answers "not supported" when the
 * format did not give the hook. */
#include "profview/hooks.h"

#include <string.h>

bool pv_file_index_step(pv_file *f, size_t budget)
{
    if (!f || !f->hooks || !f->hooks->index_step)
        return true;
    return f->hooks->index_step(f, budget ? budget : 1);
}

bool pv_file_index_progress(const pv_file *f, uint64_t *done, uint64_t *total)
{
    *done = *total = 0;
    if (!f || !f->hooks || !f->hooks->index_progress)
        return true;
    return f->hooks->index_progress(f, done, total);
}

const char *pv_file_index_unit(const pv_file *f)
{
    return f && f->hooks && f->hooks->index_unit ? f->hooks->index_unit : "";
}

void pv_file_index_pause(pv_file *f, bool pause)
{
    if (f && f->hooks && f->hooks->index_pause)
        f->hooks->index_pause(f, pause);
}

bool pv_file_index_cached(const pv_file *f)
{
    return f && f->hooks && f->hooks->index_cached && f->hooks->index_cached(f);
}

const char *pv_file_range_view(const pv_file *f)
{
    return f && f->hooks ? f->hooks->range_view : NULL;
}

bool pv_view_has_time(const pv_view *v)
{
    return v && v->hooks && v->hooks->row_time;
}

bool pv_view_row_time(const pv_view *v, size_t row, int64_t *t)
{
    if (!pv_view_has_time(v) || row >= pv_view_rows(v))
        return false;
    return v->hooks->row_time(v, row, t);
}

bool pv_view_time_ordered(const pv_view *v)
{
    return pv_view_has_time(v) && v->hooks->time_ordered && v->hooks->time_ordered(v);
}

const char *pv_view_detail_missing(const pv_view *v, size_t detail)
{
    return v->hooks && v->hooks->detail_missing ? v->hooks->detail_missing(v, detail) : NULL;
}

size_t pv_view_first_row(const pv_view *v)
{
    return v && v->hooks && v->hooks->first_row ? v->hooks->first_row(v) : PV_NO_ROW;
}

bool pv_view_waits_for_index(const pv_view *v, bool details)
{
    return v && v->hooks && v->hooks->waits_for_index && v->hooks->waits_for_index(v, details);
}

bool pv_view_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    if (!v || !v->hooks || !v->hooks->related || row >= pv_view_rows(v))
        return false;
    out->view = NULL;
    out->row = PV_NO_ROW;
    return v->hooks->related(v, row, rel, out) && out->view && out->row != PV_NO_ROW &&
           out->row < pv_view_rows(out->view);
}

bool pv_view_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    if (!v || !v->hooks || !v->hooks->row_area || row >= pv_view_rows(v))
        return false;
    return v->hooks->row_area(v, row, area);
}

bool pv_view_has_lanes(const pv_view *v)
{
    return v && v->hooks && v->hooks->lanes && v->hooks->lanes->count &&
           v->hooks->lanes->name && v->hooks->lanes->row_lane;
}

size_t pv_view_lane_count(const pv_view *v)
{
    return pv_view_has_lanes(v) ? v->hooks->lanes->count(v) : 0;
}

void pv_view_lane_name(const pv_view *v, size_t lane, pv_cell *out)
{
    out->type = PV_TYPE_STRING;
    out->present = false;
    out->v.s.ptr = "";
    out->v.s.len = 0;
    if (lane < pv_view_lane_count(v))
        v->hooks->lanes->name(v, lane, out);
}

size_t pv_view_row_lane(const pv_view *v, size_t row)
{
    if (!pv_view_has_lanes(v) || row >= pv_view_rows(v))
        return PV_NO_ROW;
    return v->hooks->lanes->row_lane(v, row);
}

bool pv_view_lanes_exclusive(const pv_view *v)
{
    return pv_view_has_lanes(v) && v->hooks->lanes->exclusive && v->hooks->lanes->row_running &&
           v->hooks->lanes->exclusive(v);
}

size_t pv_view_row_running(const pv_view *v, size_t row)
{
    if (!pv_view_has_lanes(v) || !v->hooks->lanes->row_running || row >= pv_view_rows(v))
        return PV_NO_ROW;
    return v->hooks->lanes->row_running(v, row);
}

bool pv_view_has_range_statistics(const pv_view *v)
{
    return v && v->hooks && v->hooks->range_statistics;
}

pv_view *pv_view_range_statistics(const pv_view *v, size_t from, size_t to)
{
    size_t n = v ? pv_view_rows(v) : 0;
    if (!pv_view_has_range_statistics(v) || from >= n || to >= n)
        return NULL;
    return from <= to ? v->hooks->range_statistics(v, from, to)
                      : v->hooks->range_statistics(v, to, from);
}

static const pv_lane_hooks *pv_lanes_of(const pv_view *v)
{
    return v && v->hooks ? v->hooks->lanes : NULL;
}

int pv_view_area_kind(const pv_view *v, uint64_t area)
{
    const pv_lane_hooks *l = pv_lanes_of(v);
    return l && l->area_kind ? l->area_kind(v, area) : PV_AREA_LANE_NONE;
}

int pv_view_area_build(const pv_view *v, uint64_t area, size_t budget, uint64_t *done,
                       uint64_t *total)
{
    const pv_lane_hooks *l = pv_lanes_of(v);
    uint64_t d = 0, t = 0;
    int rc;
    if (l && l->area_build)
        rc = l->area_build(v, area, budget, &d, &t);
    else
        rc = pv_view_area_kind(v, area) != PV_AREA_LANE_NONE ? 1 : -1;
    if (done)
        *done = d;
    if (total)
        *total = t;
    return rc;
}

void pv_view_area_name(const pv_view *v, uint64_t area, pv_cell *out)
{
    const pv_lane_hooks *l = pv_lanes_of(v);
    out->type = PV_TYPE_STRING;
    out->present = false;
    out->v.s.ptr = "";
    out->v.s.len = 0;
    if (l && l->area_name)
        l->area_name(v, area, out);
}

bool pv_view_area_sample(const pv_view *v, uint64_t area, int64_t t0, int64_t t1,
                         pv_lane_sample *out)
{
    const pv_lane_hooks *l = pv_lanes_of(v);
    memset(out, 0, sizeof *out);
    out->label.type = PV_TYPE_STRING;
    out->label.v.s.ptr = "";
    if (!l || !l->area_sample || t0 >= t1)
        return false;
    return l->area_sample(v, area, t0, t1, out);
}

bool pv_view_area_value_range(const pv_view *v, uint64_t area, double *lo, double *hi)
{
    const pv_lane_hooks *l = pv_lanes_of(v);
    return l && l->area_value_range && l->area_value_range(v, area, lo, hi);
}

bool pv_view_time_span(const pv_view *v, int64_t *first, int64_t *last)
{
    const pv_lane_hooks *l = pv_lanes_of(v);
    return l && l->time_span && l->time_span(v, first, last) && *first <= *last;
}

bool pv_view_area_jump(const pv_view *v, size_t row, pv_area_jump which, size_t *out)
{
    if (!v || !v->hooks || !v->hooks->area_jump || row >= pv_view_rows(v))
        return false;
    return v->hooks->area_jump(v, row, which, out) && *out < pv_view_rows(v);
}

bool pv_view_has_row_depth(const pv_view *v)
{
    return v && v->hooks && v->hooks->row_depth;
}

bool pv_view_row_depth(const pv_view *v, size_t row, size_t *depth)
{
    if (!pv_view_has_row_depth(v) || row >= pv_view_rows(v))
        return false;
    return v->hooks->row_depth(v, row, depth);
}

pv_view *pv_view_inner_frames(const pv_view *v)
{
    return v->hooks && v->hooks->inner_frames ? v->hooks->inner_frames(v) : NULL;
}

int pv_view_column_empty(const pv_view *v, size_t col)
{
    if (!v || !v->hooks || !v->hooks->column_empty || col >= v->column_count)
        return -1;
    int e = v->hooks->column_empty(v, col);
    return e == 0 || e == 1 ? e : -1;
}

bool pv_view_has_raw(const pv_view *v, size_t col)
{
    return v && v->hooks && v->hooks->cell_raw && v->hooks->raw_sum && col < v->column_count;
}

bool pv_view_cell_raw(const pv_view *v, size_t row, size_t col, int64_t *raw)
{
    return v && v->hooks && v->hooks->cell_raw && col < v->column_count &&
           row < pv_view_rows(v) && v->hooks->cell_raw(v, row, col, raw);
}

int64_t pv_view_raw_sum(const pv_view *v, size_t col, int64_t sum)
{
    return v && v->hooks && v->hooks->raw_sum ? v->hooks->raw_sum(v, col, sum) : sum;
}

bool pv_view_column_values(const pv_view *v, size_t col,
                           void (*each)(void *ctx, const char *s, size_t len), void *ctx)
{
    if (!v || !v->hooks || !v->hooks->column_values || col >= v->column_count ||
        v->columns[col].type != PV_TYPE_STRING)
        return false;
    return v->hooks->column_values(v, col, each, ctx);
}

bool pv_view_int_column(const pv_view *v, size_t col, pv_int_array *out)
{
    if (!v || !v->hooks || !v->hooks->int_column || col >= v->column_count ||
        v->columns[col].type != PV_TYPE_INT || !v->hooks->int_column(v, col, out))
        return false;
    return out->base && (out->width == 1 || out->width == 2 || out->width == 4 || out->width == 8);
}

bool pv_view_column_run(const pv_view *v, size_t col, size_t row, uint64_t *code, size_t *end)
{
    size_t n;
    if (!v || !v->hooks || !v->hooks->column_run || col >= v->column_count ||
        row >= (n = pv_view_rows(v)) || !v->hooks->column_run(v, col, row, code, end))
        return false;
    if (*end <= row || *end > n)
        *end = row + 1; /* a wrong answer costs speed, never rows */
    return true;
}

bool pv_view_code_column(const pv_view *v, size_t col, pv_int_array *out)
{
    if (!v || !v->hooks || !v->hooks->code_column || !v->hooks->column_values ||
        col >= v->column_count || v->columns[col].type != PV_TYPE_STRING ||
        !v->hooks->code_column(v, col, out))
        return false;
    return out->base && (out->width == 1 || out->width == 2);
}
