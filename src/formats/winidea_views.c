/* winidea_views.c - the winIDEA result set: indexes the raw data and builds
 * the views (PRODUCT.md §2, §6). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "profview/table.h"
#include "profview/winidea.h"

enum { SUMMARY_ID, SUMMARY_KEY, SUMMARY_VALUE, SUMMARY_COLUMNS };

static const pv_column pv_wi_summary_columns[SUMMARY_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"key", "Fact", PV_TYPE_STRING, PV_COL_NAME},
    {"value", "Value", PV_TYPE_STRING, 0},
};

static void pv_wi_summary_add(pv_table *t, const char *key, const char *value)
{
    size_t r = pv_table_add_row(t);
    pv_table_set_int(t, r, SUMMARY_ID, (int64_t)r + 1);
    pv_table_set_cstr(t, r, SUMMARY_KEY, key);
    pv_table_set_cstr(t, r, SUMMARY_VALUE, value);
}

static pv_view *pv_wi_summary_view(const pv_file *f, const pv_wi_data *d)
{
    pv_table *t = pv_table_new("summary", "Summary", pv_wi_summary_columns, SUMMARY_COLUMNS);
    char num[64];
    pv_wi_summary_add(t, "format", f->format ? f->format : "winidea");
    pv_wi_summary_add(t, "file", d->text_path ? d->text_path : f->path);
    if (d->bin_path)
        pv_wi_summary_add(t, "timeline file", d->bin_path);
    if (d->has_total_time) {
        snprintf(num, sizeof num, "%" PRId64, d->total_time);
        pv_wi_summary_add(t, "total time", num);
    }
    snprintf(num, sizeof num, "%zu", d->context_count);
    pv_wi_summary_add(t, "contexts", num);
    snprintf(num, sizeof num, "%zu", d->area_count);
    pv_wi_summary_add(t, "areas", num);
    snprintf(num, sizeof num, "%zu", d->timeline.count);
    pv_wi_summary_add(t, "events", num);
    if (d->timeline.count) {
        snprintf(num, sizeof num, "%d.%d", d->timeline.version / 10, d->timeline.version % 10);
        pv_wi_summary_add(t, "timeline record version", num);
    }
    return pv_table_view(t);
}

static void pv_wi_data_destroy(void *p)
{
    pv_wi_data_free(p);
    free(p);
}

pv_load_status pv_wi_build(pv_file *f, pv_wi_data *d, const pv_load_options *o)
{
    (void)o;
    f->loader_data = d;
    f->loader_free = pv_wi_data_destroy;
    pv_result_set *set = pv_file_add_set(f, 1, "winIDEA profiler", "winIDEA timeline");
    pv_set_add_view(set, pv_wi_summary_view(f, d));
    return PV_LOAD_OK;
}
