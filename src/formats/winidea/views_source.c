/*
 * views_source.c - the `source` detail of winIDEA line and function areas
 * (docs/source.md): the source file the mapping names for the area, with
 * each line area's hits and times in the gutter.  A line area's name is its
 * source text: without the file (or without a file in the mapping), the
 * function's line areas are shown by their names.
 */
#include "formats/winidea/views_internal.h"
#include "profview/source.h"

#include <stdlib.h>
#include <string.h>

const pv_detail_def wi_line_details[] = {{PV_DETAIL_SOURCE, "Source"}};
const size_t wi_line_detail_count = PV_ARRAY_LEN(wi_line_details);

enum { SG_SOURCE, SG_FUNCTION, SG_LINE, SG_TEXT, SG_HITS, SG_TIME, SG_TWC, SG_COLUMNS };
static const pv_column wi_source_gutter_columns[SG_COLUMNS] = {
    {PV_COLUMN_SOURCE, 0},
    {"function", "Function", PV_TYPE_STRING, 0},
    {PV_COLUMN_LINE, 0},
    {"text", "Text", PV_TYPE_STRING, 0},
    {PV_COLUMN_HITS, 0},
    {PV_COLUMN_TIME, 0},
    {PV_COLUMN_TIME_WITH_CHILDREN, 0},
};

/* The file the mapping names for area `a`, or NULL. */
static const char *wi_area_file(const wi_model *m, uint32_t a)
{
    const pv_tl_area *ar = &m->ix.areas[a];
    if (ar->data_area == PV_WI_NONE || !m->d->areas[ar->data_area].file)
        return NULL;
    return pv_strpool_get(&m->d->pool, m->d->areas[ar->data_area].file);
}

/* Every line area with its file, line and Neutral statistics: the gutter. */
static pv_view *wi_source_gutter(const wi_model *m)
{
    const pv_timeline_index *ix = &m->ix;
    pv_table *t = pv_table_new("source-lines", "Source lines", wi_source_gutter_columns,
                               SG_COLUMNS);
    for (size_t a = 0; a < ix->area_count; a++) {
        const pv_tl_area *ar = &ix->areas[a];
        const char *file = wi_area_file(m, (uint32_t)a);
        if (ar->type != PV_WI_LINE || !ar->has_value)
            continue;
        size_t r = pv_table_add_row(t);
        if (file)
            pv_table_set_cstr(t, r, SG_SOURCE, file);
        if (ar->parent != PV_WI_NONE)
            pv_table_set_cstr(t, r, SG_FUNCTION, pv_tl_area_name(ix, ar->parent));
        pv_table_set_int(t, r, SG_LINE, (int64_t)ar->value);
        pv_table_set_cstr(t, r, SG_TEXT, pv_tl_area_name(ix, (uint32_t)a));
        const pv_tl_stat_row *s = pv_timeline_find_stat(ix, (uint32_t)a, PV_TL_NEUTRAL);
        pv_table_set_int(t, r, SG_HITS, s ? s->count : 0);
        if (s) {
            pv_table_set_int(t, r, SG_TIME, s->t[PV_WI_STAT_NET]);
            pv_table_set_int(t, r, SG_TWC, s->t[PV_WI_STAT_GROSS]);
        }
    }
    return pv_table_view(t);
}

/* The source view of area `a` (a line area, or the function `fn`) at
 * `line` (0: the top). */
static pv_view *wi_source_of(const wi_model *m, uint32_t a, uint32_t fn, int64_t line)
{
    const char *file = wi_area_file(m, a);
    if (!file && fn != PV_WI_NONE)
        file = wi_area_file(m, fn);
    pv_view *g = wi_source_gutter(m);
    static const size_t figs[] = {SG_HITS, SG_TIME, SG_TWC};
    pv_source_req req = {
        .path = file,
        .line = line,
        .gutter = {g, SG_SOURCE, SG_LINE, SG_TEXT, figs, PV_ARRAY_LEN(figs)},
    };
    if (!file && fn != PV_WI_NONE) { /* the function's lines, by their names */
        req.key = pv_tl_area_name(&m->ix, fn);
        req.gutter.path_col = SG_FUNCTION;
    }
    pv_view *v = pv_source_open(&req, NULL, pv_detail_why());
    pv_view_free(g);
    return v;
}

/* Of a `lines` row (its id is the area's index + 1). */
pv_view *wi_line_source(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)detail;
    const wi_model *m = ctx;
    int64_t id;
    if (!pv_table_get_int((const pv_table *)owner->impl, row, LINE_ID, &id) || id < 1 ||
        (size_t)id > m->ix.area_count)
        return NULL;
    const pv_tl_area *ar = &m->ix.areas[id - 1];
    return wi_source_of(m, (uint32_t)(id - 1), ar->parent,
                        ar->has_value ? (int64_t)ar->value : 0);
}

/* Of a function area: the file of its first line area, at that line
 * (the mapping gives FILE to line areas). */
pv_view *wi_routine_source(const wi_model *m, uint32_t area)
{
    int64_t first = 0;
    uint32_t first_area = area;
    for (size_t a = 0; a < m->ix.area_count; a++) {
        const pv_tl_area *ar = &m->ix.areas[a];
        if (ar->type == PV_WI_LINE && ar->parent == area && ar->has_value &&
            (first == 0 || (int64_t)ar->value < first)) {
            first = (int64_t)ar->value;
            first_area = (uint32_t)a;
        }
    }
    return wi_source_of(m, first_area, area, first);
}
