/* data.c - the raw winIDEA data shared by the parsers and the
 * timeline model: building and freeing it. */
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/winidea.h"

const char *const pv_wi_stat_macro[PV_WI_STAT_COUNT] = {
#define PV_WI_STAT_MACRO(name, macro, column) macro,
    PV_WI_STATS(PV_WI_STAT_MACRO)
#undef PV_WI_STAT_MACRO
};

const char *const pv_wi_stat_column[PV_WI_STAT_COUNT] = {
#define PV_WI_STAT_COLUMN(name, macro, column) column,
    PV_WI_STATS(PV_WI_STAT_COLUMN)
#undef PV_WI_STAT_COLUMN
};

char pv_wi_event_char(unsigned kind)
{
    static const char chars[] = "XSREW";
    return kind < 5 ? chars[kind] : '?';
}

void pv_wi_data_init(pv_wi_data *d)
{
    memset(d, 0, sizeof *d);
    pv_strpool_init(&d->pool);
    d->timeline.version = 11;
}

void pv_wi_data_free(pv_wi_data *d)
{
    if (!d)
        return;
    pv_strpool_free(&d->pool);
    free(d->contexts);
    free(d->areas);
    free(d->stats);
    free(d->timeline.owned);
    if (d->cache.map)
        pv_cache_close(&d->cache); /* records and text_context were in it */
    else
        free(d->timeline.text_context);
    if (d->bin.data)
        pv_unmap_file(&d->bin);
    free(d->bin_path);
    for (size_t i = 0; i < d->section_count; i++) {
        pv_wi_raw_section *s = &d->sections[i];
        free(s->header);
        for (size_t l = 0; l < s->line_count; l++)
            free(s->lines[l]);
        free(s->lines);
    }
    free(d->sections);
    free(d->text_path);
    memset(d, 0, sizeof *d);
}

size_t pv_wi_add_area(pv_wi_data *d, uint32_t handle, const char *name, size_t name_len)
{
    d->areas = pv_xgrow(d->areas, &d->area_cap, d->area_count + 1, sizeof *d->areas);
    pv_wi_area *a = &d->areas[d->area_count];
    memset(a, 0, sizeof *a);
    a->handle = handle;
    a->name = name ? pv_strpool_add(&d->pool, name, name_len) : 0;
    a->parent = PV_WI_NONE;
    return d->area_count++;
}

size_t pv_wi_add_context(pv_wi_data *d, uint64_t handle, const char *name, size_t name_len)
{
    d->contexts =
        pv_xgrow(d->contexts, &d->context_cap, d->context_count + 1, sizeof *d->contexts);
    d->contexts[d->context_count].handle = handle;
    d->contexts[d->context_count].name = pv_strpool_add(&d->pool, name, name_len);
    return d->context_count++;
}

void pv_wi_add_event(pv_wi_data *d, uint32_t handle, unsigned kind, uint64_t data, int64_t time)
{
    pv_wi_timeline *tl = &d->timeline;
    size_t cap = tl->owned_cap;
    tl->owned = pv_xgrow(tl->owned, &cap, tl->count + 1, PV_WI_RECORD_SIZE);
    tl->owned_cap = cap;
    tl->records = tl->owned;
    tl->version = 11;
    unsigned char *r = tl->owned + tl->count * PV_WI_RECORD_SIZE;
    uint32_t flags = (kind & 0xFu) | (PV_WI_CORE_UNKNOWN << 4);
    uint64_t t = (uint64_t)time;
    for (int b = 0; b < 4; b++) {
        r[b] = (unsigned char)(handle >> (8 * b));
        r[4 + b] = (unsigned char)(flags >> (8 * b));
    }
    for (int b = 0; b < 8; b++) {
        r[8 + b] = (unsigned char)(data >> (8 * b));
        r[16 + b] = (unsigned char)(t >> (8 * b));
    }
    tl->count++;
}

pv_wi_stat_row *pv_wi_add_stat(pv_wi_data *d)
{
    d->stats = pv_xgrow(d->stats, &d->stat_cap, d->stat_count + 1, sizeof *d->stats);
    pv_wi_stat_row *s = &d->stats[d->stat_count++];
    memset(s, 0, sizeof *s);
    return s;
}
