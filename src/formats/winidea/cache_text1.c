/*
 * cache_text1.c - what the Text1 parser read, in the index cache
 * (docs/cache.md "Text1 files"): the areas, contexts, statistics, sections
 * (their lines as read) and the TIMELINE's records, with the parser's
 * warnings, so that a second open of an unchanged Text1 file runs no parser
 * at all: the records point into the mapped cache file, as the index's
 * arrays do (cache.c), and the index then comes from its own entry.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/cache.h"

/* The fixed-width head of the payload. */
typedef struct wit_head {
    uint64_t sizes[4]; /* sizeof pv_wi_area, pv_wi_context, pv_wi_stat_row, wit_head */
    uint64_t pool_len, context_count, area_count, stat_count, event_count;
    uint64_t section_count, line_count, header_len, lines_len;
    pv_wi_cache_diag diag;
    int64_t total_time, window_from, window_to;
    uint32_t has_total_time, has_window_from, has_window_to, has_text_context;
    uint32_t states_as_writes, pad;
} wit_head;

/* A section without its strings. */
typedef struct wit_section {
    uint64_t line_count, first_context, first_area, first_stat, first_event, blank_after;
    uint64_t known;
} wit_section;

#define WIT_SEGMENTS 14

static void wit_sizes(uint64_t sizes[4])
{
    sizes[0] = sizeof(pv_wi_area);
    sizes[1] = sizeof(pv_wi_context);
    sizes[2] = sizeof(pv_wi_stat_row);
    sizes[3] = sizeof(wit_head);
}

void pv_wi_text1_cache_key(pv_cache_key *k, const char *path)
{
    pv_cache_key_init(k);
    pv_cache_key_add_file(k, path);
    pv_cache_key_add_str(k, "text1");
}

bool pv_wi_text1_cache_save(const pv_cache_key *k, const pv_wi_data *d, const pv_diag *diag,
                            size_t diag_from, size_t warnings_before, size_t errors_before,
                            uint64_t max_bytes)
{
    if (!k->usable || d->bin.data)
        return false; /* only what the parser read */
    wit_head h;
    memset(&h, 0, sizeof h);
    wit_sizes(h.sizes);
    h.pool_len = d->pool.len;
    h.context_count = d->context_count;
    h.area_count = d->area_count;
    h.stat_count = d->stat_count;
    h.event_count = d->timeline.count;
    h.section_count = d->section_count;
    h.total_time = d->total_time;
    h.window_from = d->window_from;
    h.window_to = d->window_to;
    h.has_total_time = d->has_total_time;
    h.has_window_from = d->has_window_from;
    h.has_window_to = d->has_window_to;
    h.has_text_context = d->timeline.text_context != NULL;
    h.states_as_writes = d->timeline.states_as_writes;

    wit_section *secs = pv_xcalloc(d->section_count ? d->section_count : 1, sizeof *secs);
    pv_buf headers, lines;
    pv_buf_init(&headers);
    pv_buf_init(&lines);
    for (size_t i = 0; i < d->section_count; i++) {
        const pv_wi_raw_section *s = &d->sections[i];
        secs[i] = (wit_section){s->line_count,  s->first_context, s->first_area, s->first_stat,
                                s->first_event, s->blank_after,   s->known};
        pv_buf_append(&headers, s->header, strlen(s->header) + 1);
        for (size_t l = 0; l < s->line_count; l++)
            pv_buf_append(&lines, s->lines[l], strlen(s->lines[l]) + 1);
        h.line_count += s->line_count;
    }
    h.header_len = headers.len;
    h.lines_len = lines.len;
    /* the parser's messages */
    pv_buf text;
    unsigned char *sev =
        pv_wi_cache_diag_pack(diag, diag_from, warnings_before, errors_before, &text, &h.diag);

    size_t n = d->timeline.count;
    pv_cache_segment segs[WIT_SEGMENTS] = {
        {&h, sizeof h},
        {d->pool.data, d->pool.len},
        {d->contexts, d->context_count * sizeof *d->contexts},
        {d->areas, d->area_count * sizeof *d->areas},
        {d->stats, d->stat_count * sizeof *d->stats},
        {d->timeline.records, n * PV_WI_RECORD_SIZE},
        {d->timeline.text_context, d->timeline.text_context ? n * sizeof(uint16_t) : 0},
        {secs, d->section_count * sizeof *secs},
        {headers.data, headers.len},
        {lines.data, lines.len},
        {sev, (size_t)h.diag.entries},
        {text.data, text.len},
        {NULL, 0},
        {NULL, 0},
    };
    bool ok = pv_cache_write(k, PV_WI_TEXT1_CACHE_KIND, PV_WI_TEXT1_CACHE_VERSION, segs,
                             WIT_SEGMENTS, max_bytes);
    free(secs);
    free(sev);
    pv_buf_free(&headers);
    pv_buf_free(&lines);
    pv_buf_free(&text);
    return ok;
}

/* `len` bytes at s hold exactly `count` NUL-terminated strings. */
static bool wit_strings(const char *s, uint64_t len, uint64_t count)
{
    uint64_t found = 0;
    for (uint64_t i = 0; i < len; i++)
        found += s[i] == '\0';
    return found == count && (len == 0 || s[len - 1] == '\0');
}

/* Every offset and index the entry holds points inside what it indexes
 * (docs/cache.md "Trust"): NULL when they do, else what is wrong. */
static const char *wit_check(const wit_head *h, const void *const a[])
{
    uint64_t pool = h->pool_len, areas = h->area_count, contexts = h->context_count;
    if (pool == 0 || ((const char *)a[1])[pool - 1] != '\0')
        return "bad string pool";
    const pv_wi_context *cx = a[2];
    for (uint64_t i = 0; i < contexts; i++)
        if (cx[i].name >= pool)
            return "a context's name out of range";
    const pv_wi_area *ar = a[3];
    for (uint64_t i = 0; i < areas; i++)
        if (!pv_wi_cache_bool_ok(&ar[i].has_value) || ar[i].name >= pool ||
            ar[i].file >= pool || ar[i].path >= pool ||
            ar[i].value_type >= pool || ar[i].value_unit >= pool ||
            (ar[i].parent != PV_WI_NONE && ar[i].parent >= areas))
            return "an area out of range";
    const pv_wi_stat_row *st = a[4];
    for (uint64_t i = 0; i < h->stat_count; i++)
        if (!pv_wi_cache_bool_ok(&st[i].has_value) || !pv_wi_cache_bool_ok(&st[i].has_count) ||
            st[i].context >= pool)
            return "a statistics row out of range";
    const uint16_t *tc = a[6];
    for (uint64_t i = 0; h->has_text_context && i < h->event_count; i++)
        if (tc[i] != UINT16_MAX && tc[i] >= contexts)
            return "an event's context out of range";
    const wit_section *sec = a[7];
    uint64_t lines = 0;
    for (uint64_t i = 0; i < h->section_count; i++) {
        if (sec[i].first_context > contexts || sec[i].first_area > areas ||
            sec[i].first_stat > h->stat_count || sec[i].first_event > h->event_count ||
            sec[i].line_count > h->line_count - lines)
            return "a section out of range";
        lines += sec[i].line_count;
    }
    if (lines != h->line_count || !wit_strings(a[8], h->header_len, h->section_count) ||
        !wit_strings(a[9], h->lines_len, h->line_count) ||
        !wit_strings(a[11], h->diag.text_len, h->diag.entries))
        return "bad section texts";
    return NULL;
}

bool pv_wi_text1_cache_load(const pv_cache_key *k, pv_wi_data *d, pv_diag *diag)
{
    pv_cache_entry e;
    if (!pv_cache_open(k, PV_WI_TEXT1_CACHE_KIND, PV_WI_TEXT1_CACHE_VERSION, &e))
        return false;
    pv_wi_cache_reader r = {e.payload, e.payload_size, false};
    wit_head h;
    uint64_t sizes[4];
    wit_sizes(sizes);
    const char *why = pv_wi_cache_head(&r, &h, sizeof h, sizes, sizeof sizes);
    if (!why && (h.pool_len > UINT32_MAX || h.context_count > UINT32_MAX ||
                 h.area_count > UINT32_MAX || h.event_count > PV_TL_MAX_EVENTS))
        why = "counts out of range";
    const void *a[WIT_SEGMENTS] = {0};
    if (!why) {
        a[1] = pv_wi_cache_take(&r, h.pool_len, 1);
        a[2] = pv_wi_cache_take(&r, h.context_count, sizeof(pv_wi_context));
        a[3] = pv_wi_cache_take(&r, h.area_count, sizeof(pv_wi_area));
        a[4] = pv_wi_cache_take(&r, h.stat_count, sizeof(pv_wi_stat_row));
        a[5] = pv_wi_cache_take(&r, h.event_count, PV_WI_RECORD_SIZE);
        a[6] = pv_wi_cache_take(&r, h.has_text_context ? h.event_count : 0, sizeof(uint16_t));
        a[7] = pv_wi_cache_take(&r, h.section_count, sizeof(wit_section));
        a[8] = pv_wi_cache_take(&r, h.header_len, 1);
        a[9] = pv_wi_cache_take(&r, h.lines_len, 1);
        a[10] = pv_wi_cache_take(&r, h.diag.entries, 1);
        a[11] = pv_wi_cache_take(&r, h.diag.text_len, 1);
        why = pv_wi_cache_fit(&r);
    }
    if (!why)
        why = wit_check(&h, a);
    if (why)
        return pv_wi_cache_refuse(&e, why);

    pv_strpool_free(&d->pool);
    d->pool.data = pv_wi_cache_copy(a[1], (size_t)h.pool_len);
    d->pool.len = d->pool.cap = (size_t)h.pool_len;
    d->context_count = d->context_cap = (size_t)h.context_count;
    d->contexts = pv_wi_cache_copy(a[2], d->context_count * sizeof *d->contexts);
    d->area_count = d->area_cap = (size_t)h.area_count;
    d->areas = pv_wi_cache_copy(a[3], d->area_count * sizeof *d->areas);
    d->stat_count = d->stat_cap = (size_t)h.stat_count;
    d->stats = pv_wi_cache_copy(a[4], d->stat_count * sizeof *d->stats);
    d->has_total_time = h.has_total_time;
    d->total_time = h.total_time;
    d->has_window_from = h.has_window_from;
    d->window_from = h.window_from;
    d->has_window_to = h.has_window_to;
    d->window_to = h.window_to;
    /* the records and the contexts of the events stay in the mapping */
    pv_wi_timeline *tl = &d->timeline;
    tl->records = a[5];
    tl->count = (size_t)h.event_count;
    tl->version = 11;
    tl->version_checked = 0;
    tl->text_context = h.has_text_context ? (uint16_t *)a[6] : NULL;
    tl->states_as_writes = h.states_as_writes;
    const wit_section *sec = a[7];
    const char *header = a[8], *line = a[9];
    d->section_count = d->section_cap = (size_t)h.section_count;
    d->sections = pv_xcalloc(d->section_count ? d->section_count : 1, sizeof *d->sections);
    for (size_t i = 0; i < d->section_count; i++) {
        pv_wi_raw_section *s = &d->sections[i];
        s->header = pv_xstrdup(header);
        header += strlen(header) + 1;
        s->line_count = s->line_cap = (size_t)sec[i].line_count;
        s->lines = pv_xmalloc((s->line_count ? s->line_count : 1) * sizeof *s->lines);
        for (size_t l = 0; l < s->line_count; l++) {
            s->lines[l] = pv_xstrdup(line);
            line += strlen(line) + 1;
        }
        s->known = sec[i].known != 0;
        s->first_context = (size_t)sec[i].first_context;
        s->first_area = (size_t)sec[i].first_area;
        s->first_stat = (size_t)sec[i].first_stat;
        s->first_event = (size_t)sec[i].first_event;
        s->blank_after = (size_t)sec[i].blank_after;
    }
    /* the parser's messages, as a parse gives them */
    pv_wi_cache_diag_restore(diag, a[10], a[11], &h.diag);
    d->cache = e; /* freed with the data */
    return true;
}
