/*
 * cache.c - the winIDEA timeline index in the index cache (docs/cache.md):
 * the complete pv_timeline_index written as raw arrays after a full index,
 * restored by mapping the cache file (the per-event and per-call arrays
 * point into the mapping; the small tables are copied), with the warnings
 * the index gave and the BIN version it settled.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/cache.h"

/* The fixed-width head of the payload. */
typedef struct wic_head {
    uint64_t sizes[5]; /* sizeof pv_tl_area, pv_tl_context, pv_tl_stat_row, size_t, wic_head */
    uint64_t event_count, area_count, context_count, call_count, line_count, stat_count;
    uint64_t pool_len, map_count;
    uint64_t window_first, window_end, warnings;
    int64_t from, to, time_first, time_last;
    pv_wi_cache_diag diag;
    uint32_t context_source, context_area;
    uint32_t has_from, has_to, time_decreased, version;
    /* the layout of the per-event and per-call columns (timeline.h) */
    uint32_t area_wide, context_wide, depth_wide, has_gross, has_net_bits, pad;
    uint64_t net_count;
    int64_t clip_lo, clip_hi;
    uint64_t late_count;
} wic_head;

#define WIC_SEGMENTS 24

bool pv_wi_cache_bool_ok(const bool *b)
{
    unsigned char v;
    memcpy(&v, b, 1);
    return v <= 1;
}

/* Bytes per event of the three per-event columns of a layout. */
static size_t wic_width(uint32_t wide, size_t narrow)
{
    return wide ? narrow * 2 : narrow;
}

void pv_wi_cache_key(pv_cache_key *k, const pv_wi_data *d, const char *input,
                     const pv_tl_options *o, int bin_version)
{
    pv_cache_key_init(k);
    pv_cache_key_add_file(k, input);
    if (d->bin_path && strcmp(d->bin_path, input) != 0)
        pv_cache_key_add_file(k, d->bin_path);
    else
        pv_cache_key_add_str(k, NULL);
    /* read as Text1 (with or without a BIN) or as a BIN alone */
    pv_cache_key_add_u64(k, (d->text_path ? 1u : 0u) | (d->bin_path ? 2u : 0u));
    pv_cache_key_add_u64(k, (uint64_t)bin_version);
    pv_cache_key_add_str(k, o->context_area);
    pv_cache_key_add_u64(k, o->has_from);
    pv_cache_key_add_u64(k, (uint64_t)(o->has_from ? o->from : 0));
    pv_cache_key_add_u64(k, o->has_to);
    pv_cache_key_add_u64(k, (uint64_t)(o->has_to ? o->to : 0));
    /* the records the index reads: a mismatch is another input */
    pv_cache_key_add_u64(k, d->timeline.count);
}

static void wic_sizes(uint64_t sizes[5])
{
    sizes[0] = sizeof(pv_tl_area);
    sizes[1] = sizeof(pv_tl_context);
    sizes[2] = sizeof(pv_tl_stat_row);
    sizes[3] = sizeof(size_t);
    sizes[4] = sizeof(wic_head);
}

bool pv_wi_cache_save(const pv_cache_key *k, const pv_timeline_index *ix, int bin_version,
                      const pv_diag *diag, size_t diag_from, size_t warnings_before,
                      size_t errors_before, uint64_t max_bytes)
{
    if (!ix->complete || !k->usable)
        return false;
    wic_head h;
    memset(&h, 0, sizeof h);
    wic_sizes(h.sizes);
    h.event_count = ix->event_count;
    h.area_count = ix->area_count;
    h.context_count = ix->context_count;
    h.call_count = ix->call_count;
    h.line_count = ix->line_count;
    h.stat_count = ix->stat_count;
    h.pool_len = ix->pool.len;
    h.map_count = ix->area_map.count;
    h.window_first = ix->window_first;
    h.window_end = ix->window_end;
    h.warnings = ix->warnings;
    h.from = ix->from;
    h.to = ix->to;
    h.time_first = ix->time_first;
    h.time_last = ix->time_last;
    h.context_source = ix->context_source;
    h.context_area = ix->context_area;
    h.has_from = ix->has_from;
    h.has_to = ix->has_to;
    h.time_decreased = ix->time_decreased;
    h.version = (uint32_t)bin_version;
    h.area_wide = ix->area_wide;
    h.context_wide = ix->context_wide;
    h.depth_wide = ix->depth_wide;
    h.has_gross = ix->call_gross != NULL;
    h.has_net_bits = ix->net_bits != NULL;
    h.net_count = ix->net_count;
    h.clip_lo = ix->clip_lo;
    h.clip_hi = ix->clip_hi;
    h.late_count = ix->late_count;
    size_t words = ix->net_bits ? (ix->call_count + 63) / 64 : 0;

    /* the area map's pairs, in slot order */
    uint64_t *keys = pv_xmalloc((h.map_count ? h.map_count : 1) * sizeof *keys);
    uint32_t *values = pv_xmalloc((h.map_count ? h.map_count : 1) * sizeof *values);
    size_t m = 0;
    for (size_t s = 0; s < ix->area_map.cap && m < h.map_count; s++)
        if (ix->area_map.used[s]) {
            keys[m] = ix->area_map.keys[s];
            values[m] = ix->area_map.values[s];
            m++;
        }
    /* the warnings (and errors) the index added to the file's diagnostics */
    pv_buf text;
    unsigned char *sev =
        pv_wi_cache_diag_pack(diag, diag_from, warnings_before, errors_before, &text, &h.diag);

    pv_cache_segment segs[WIC_SEGMENTS] = {
        {&h, sizeof h},
        {ix->event_area, ix->event_count * wic_width(h.area_wide, 2)},
        {ix->event_context, ix->event_count * wic_width(h.context_wide, 1)},
        {ix->event_depth, ix->event_count * wic_width(h.depth_wide, 1)},
        {ix->call_entry, ix->call_count * sizeof *ix->call_entry},
        {ix->call_exit, ix->call_count * sizeof *ix->call_exit},
        {ix->call_parent, ix->call_count * sizeof *ix->call_parent},
        {ix->call_gross, ix->call_gross ? ix->call_count * sizeof *ix->call_gross : 0},
        {ix->net_bits, words * sizeof *ix->net_bits},
        {ix->net_rank, words * sizeof *ix->net_rank},
        {ix->net_values, ix->net_count * sizeof *ix->net_values},
        {ix->context_call_start, (ix->context_count + 1) * sizeof *ix->context_call_start},
        {ix->line_entry, ix->line_count * sizeof *ix->line_entry},
        {ix->line_net, ix->line_count * sizeof *ix->line_net},
        {ix->areas, ix->area_count * sizeof *ix->areas},
        {ix->contexts, ix->context_count * sizeof *ix->contexts},
        {ix->stats, ix->stat_count * sizeof *ix->stats},
        {ix->pool.data, ix->pool.len},
        {keys, m * sizeof *keys},
        {values, m * sizeof *values},
        {sev, (size_t)h.diag.entries},
        {text.data, text.len},
        {ix->late, ix->late_count * sizeof *ix->late},
        {NULL, 0},
    };
    h.map_count = m;
    bool ok = pv_cache_write(k, PV_WI_CACHE_KIND, PV_TL_INDEX_VERSION, segs, WIC_SEGMENTS, max_bytes);
    free(keys);
    free(values);
    free(sev);
    pv_buf_free(&text);
    return ok;
}

unsigned char *pv_wi_cache_diag_pack(const pv_diag *diag, size_t from, size_t warnings_before,
                                     size_t errors_before, pv_buf *text, pv_wi_cache_diag *head)
{
    size_t ne = diag->entry_count > from ? diag->entry_count - from : 0;
    unsigned char *sev = pv_xmalloc(ne ? ne : 1);
    pv_buf_init(text);
    for (size_t i = 0; i < ne; i++) {
        const pv_diag_entry *e = &diag->entries[from + i];
        sev[i] = (unsigned char)e->severity;
        pv_buf_append(text, e->text, strlen(e->text) + 1);
    }
    head->entries = ne;
    head->warnings = diag->warnings - warnings_before;
    head->errors = diag->errors - errors_before;
    head->text_len = text->len;
    return sev;
}

void pv_wi_cache_diag_restore(pv_diag *diag, const unsigned char *sev, const char *text,
                              const pv_wi_cache_diag *head)
{
    size_t warnings0 = diag->warnings, errors0 = diag->errors;
    const char *text_end = text + head->text_len;
    for (size_t i = 0; i < head->entries && text < text_end; i++) {
        pv_diag_add(diag, sev[i] == PV_SEV_ERROR ? PV_SEV_ERROR : PV_SEV_WARNING, "%s", text);
        text += strlen(text) + 1;
    }
    diag->warnings = warnings0 + (size_t)head->warnings;
    diag->errors = errors0 + (size_t)head->errors;
}

const void *pv_wi_cache_take(pv_wi_cache_reader *r, uint64_t count, size_t elem)
{
    if (r->bad || (elem && count > SIZE_MAX / elem)) {
        r->bad = true;
        return NULL;
    }
    size_t len = (size_t)count * elem;
    size_t padded = pv_cache_padded(len);
    if (padded < len || padded > r->left) {
        r->bad = true;
        return NULL;
    }
    const void *at = r->p;
    r->p += padded;
    r->left -= padded;
    return at;
}

const char *pv_wi_cache_head(pv_wi_cache_reader *r, void *head, size_t size,
                             const uint64_t *sizes, size_t sizes_len)
{
    const void *at = pv_wi_cache_take(r, 1, size);
    memset(head, 0, size);
    if (!at)
        return "no head";
    memcpy(head, at, size);
    return memcmp(head, sizes, sizes_len) != 0 ? "another build's layout" : NULL;
}

const char *pv_wi_cache_fit(const pv_wi_cache_reader *r)
{
    return r->bad || r->left != 0 ? "sections do not fit the file" : NULL;
}

bool pv_wi_cache_refuse(pv_cache_entry *e, const char *why)
{
    pv_cache_debug("ignored %s: %s", e->path, why);
    pv_cache_close(e);
    return false;
}

void *pv_wi_cache_copy(const void *src, size_t len)
{
    void *p = pv_xmalloc(len ? len : 1);
    if (len)
        memcpy(p, src, len);
    return p;
}

/* The net times' ranks must count the bits, or a lookup would read past
 * the values: why they do not, or NULL. */
static const char *wic_check_net(const uint64_t *bits, const uint32_t *rank, uint64_t words,
                                 uint64_t net_count)
{
    if (!words)
        return net_count ? "net times without their bits" : NULL;
    uint64_t r2 = 0;
    for (uint64_t w = 0; w < words; w++) {
        if (rank[w] != r2)
            return "bad net time ranks";
        r2 += (uint64_t)__builtin_popcountll(bits[w]);
    }
    return r2 != net_count ? "bad net time count" : NULL;
}

/* Every index the entry holds must point inside what it indexes, so that
 * a corrupt or forged entry (the checksum is no key) is rejected, never
 * dereferenced (docs/cache.md "Trust"): NULL when it does, else what is
 * wrong.  Linear in the events and calls, as the checksum already is. */
/* The largest of n per-event values plus `plus` (wrapping at the
 * column's width): u16 or u32 when `wide` (an area), u8 or u16 (a
 * context). */
static uint64_t wic_event_max(const void *col, uint64_t n, uint32_t wide, unsigned plus)
{
    uint64_t m = 0;
    if (plus == 0 && wide) {
        const uint32_t *v = col;
        uint32_t x = 0;
        for (uint64_t i = 0; i < n; i++)
            x = v[i] > x ? v[i] : x;
        m = x;
    } else if (plus == 0) {
        const uint16_t *v = col;
        uint16_t x = 0;
        for (uint64_t i = 0; i < n; i++)
            x = v[i] > x ? v[i] : x;
        m = x;
    } else if (wide) {
        const uint16_t *v = col;
        uint16_t x = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint16_t y = (uint16_t)(v[i] + 1u);
            x = y > x ? y : x;
        }
        m = x;
    } else {
        const uint8_t *v = col;
        uint8_t x = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint8_t y = (uint8_t)(v[i] + 1u);
            x = y > x ? y : x;
        }
        m = x;
    }
    return m;
}

/* Whether a call's entry (its implicit bit aside) or exit (PV_TL_OPEN
 * aside) is no event of n, or its parent (PV_TL_OPEN aside) does not come
 * before it. With one added, PV_TL_OPEN wraps to 0. */
static bool wic_calls_bad(const uint32_t *entry, const uint32_t *exit, const uint32_t *parent,
                          uint64_t calls, uint64_t n)
{
    uint32_t entry_max = 0, exit_max = 0, late = 0;
    for (uint64_t k = 0; k < calls; k++) {
        uint32_t e = entry[k] & ~PV_TL_IMPLICIT_CALL, x = exit[k] + 1u;
        entry_max = e > entry_max ? e : entry_max;
        exit_max = x > exit_max ? x : exit_max;
        late |= (uint32_t)(parent[k] + 1u > (uint32_t)k); /* parent >= k */
    }
    return (calls && entry_max >= n) || exit_max > n || late;
}

static const char *wic_check(const wic_head *h, const void *const a[], const pv_wi_data *d)
{
    uint64_t n = h->event_count, calls = h->call_count, areas = h->area_count;
    uint64_t contexts = h->context_count, pool = h->pool_len;
    if (h->window_first > h->window_end || h->window_end > n)
        return "window out of range";
    if (pool == 0 || ((const char *)a[17])[pool - 1] != '\0')
        return "bad string pool";
    /* (each a reduction without a branch per element, which the compiler
     * vectorizes: the per-event and per-call checks were most of a cache
     * hit's time, docs/cache.md "How it is read") */
    if (wic_event_max(a[1], n, h->area_wide, 0) >= areas)
        return "an event's area out of range";
    /* the context plus one, wrapping "no context" (0xFF, PV_TL_NO_CONTEXT)
     * to 0: at most the context count */
    if (wic_event_max(a[2], n, h->context_wide, 1) > contexts)
        return "an event's context out of range";
    const uint32_t *entry = a[4], *exit = a[5], *parent = a[6];
    if (wic_calls_bad(entry, exit, parent, calls, n))
        return "a call's entry, exit or parent out of range"; /* parents come first: no loop */
    const size_t *start = a[11];
    for (uint64_t c = 0; c <= contexts; c++)
        if (start[c] > calls || (c && start[c] < start[c - 1]))
            return "a context's calls out of range";
    const uint32_t *line = a[12];
    for (uint64_t l = 0; l < h->line_count; l++)
        if ((line[l] & ~PV_TL_IMPLICIT_CALL) >= n)
            return "a line's entry out of range";
    const pv_tl_area *ar = a[14];
    for (uint64_t i = 0; i < areas; i++) {
        /* the bools as bytes first: a byte other than 0 or 1 read as a
         * bool is undefined (a forged entry) */
        if (!pv_wi_cache_bool_ok(&ar[i].implicit) || !pv_wi_cache_bool_ok(&ar[i].has_states) ||
            !pv_wi_cache_bool_ok(&ar[i].has_value) || !pv_wi_cache_bool_ok(&ar[i].value_f64))
            return "an area's flags out of range";
        if (ar[i].name >= pool || (ar[i].parent != PV_WI_NONE && ar[i].parent >= areas) ||
            (ar[i].data_area != PV_WI_NONE && ar[i].data_area >= d->area_count))
            return "an area out of range";
    }
    const pv_tl_context *cx = a[15];
    for (uint64_t i = 0; i < contexts; i++)
        if (!pv_wi_cache_bool_ok(&cx[i].has_handle) || cx[i].name >= pool)
            return "a context's name out of range";
    const pv_tl_stat_row *st = a[16];
    for (uint64_t i = 0; i < h->stat_count; i++)
        if (st[i].area >= areas || (st[i].context >= contexts && st[i].context != PV_TL_NEUTRAL &&
                                    st[i].context != PV_TL_NO_CONTEXT))
            return "a statistics row out of range";
    for (uint64_t i = 0; i < h->map_count; i++) {
        uint32_t v;
        memcpy(&v, (const unsigned char *)a[19] + i * 4, 4);
        if (v >= areas)
            return "the area map out of range";
    }
    if (h->context_area != PV_WI_NONE && h->context_area >= areas)
        return "the context area out of range";
    return NULL;
}

bool pv_wi_cache_load(const pv_cache_key *k, pv_timeline_index *ix, pv_wi_data *d, pv_diag *diag)
{
    pv_cache_entry e;
    bool found = pv_cache_open(k, PV_WI_CACHE_KIND, PV_TL_INDEX_VERSION, &e);
    char refused[700];
    if (pv_cache_take_refusal(refused, sizeof refused))
        pv_warn(diag, "%s", refused);
    if (!found)
        return false;
    pv_wi_cache_reader r = {e.payload, e.payload_size, false};
    wic_head h;
    uint64_t sizes[5];
    wic_sizes(sizes);
    const char *why = pv_wi_cache_head(&r, &h, sizeof h, sizes, sizeof sizes);
    if (!why && h.event_count != d->timeline.count)
        why = "another event count";
    if (!why && (h.context_count > PV_TL_MAX_CONTEXTS || h.area_count > UINT32_MAX ||
                 h.call_count > UINT32_MAX || h.line_count > UINT32_MAX ||
                 h.pool_len > UINT32_MAX || (h.version != 10 && h.version != 11 && h.version != 0)))
        why = "counts out of range";
    const void *a[WIC_SEGMENTS] = {0};
    uint64_t words = 0;
    if (!why) {
        words = h.has_net_bits ? (h.call_count + 63) / 64 : 0;
        a[1] = pv_wi_cache_take(&r, h.event_count, wic_width(h.area_wide, 2));
        a[2] = pv_wi_cache_take(&r, h.event_count, wic_width(h.context_wide, 1));
        a[3] = pv_wi_cache_take(&r, h.event_count, wic_width(h.depth_wide, 1));
        a[4] = pv_wi_cache_take(&r, h.call_count, sizeof(uint32_t));
        a[5] = pv_wi_cache_take(&r, h.call_count, sizeof(uint32_t));
        a[6] = pv_wi_cache_take(&r, h.call_count, sizeof(uint32_t));
        a[7] = pv_wi_cache_take(&r, h.has_gross ? h.call_count : 0, sizeof(int64_t));
        a[8] = pv_wi_cache_take(&r, words, sizeof(uint64_t));
        a[9] = pv_wi_cache_take(&r, words, sizeof(uint32_t));
        a[10] = pv_wi_cache_take(&r, h.net_count, sizeof(int64_t));
        a[11] = pv_wi_cache_take(&r, h.context_count + 1, sizeof(size_t));
        a[12] = pv_wi_cache_take(&r, h.line_count, sizeof(uint32_t));
        a[13] = pv_wi_cache_take(&r, h.line_count, sizeof(int64_t));
        a[14] = pv_wi_cache_take(&r, h.area_count, sizeof(pv_tl_area));
        a[15] = pv_wi_cache_take(&r, h.context_count, sizeof(pv_tl_context));
        a[16] = pv_wi_cache_take(&r, h.stat_count, sizeof(pv_tl_stat_row));
        a[17] = pv_wi_cache_take(&r, h.pool_len, 1);
        a[18] = pv_wi_cache_take(&r, h.map_count, sizeof(uint64_t));
        a[19] = pv_wi_cache_take(&r, h.map_count, sizeof(uint32_t));
        a[20] = pv_wi_cache_take(&r, h.diag.entries, 1);
        a[21] = pv_wi_cache_take(&r, h.diag.text_len, 1);
        a[22] = pv_wi_cache_take(&r, h.late_count, sizeof(pv_tl_late));
        why = pv_wi_cache_fit(&r);
        if (!why && h.diag.text_len && ((const char *)a[21])[h.diag.text_len - 1] != '\0')
            why = "bad warning texts";
    }
    if (!why)
        why = wic_check_net(a[8], a[9], words, h.net_count);
    if (!why)
        why = wic_check(&h, a, d);
    if (why)
        return pv_wi_cache_refuse(&e, why);

    memset(ix, 0, sizeof *ix);
    ix->tl = &d->timeline;
    if (h.version)
        d->timeline.version = (int)h.version; /* as the full index settled it */
    d->timeline.version_checked = d->timeline.count;
    ix->event_count = (size_t)h.event_count;
    ix->event_area = (void *)a[1];
    ix->event_context = (void *)a[2];
    ix->event_depth = (void *)a[3];
    ix->area_wide = h.area_wide != 0;
    ix->context_wide = h.context_wide != 0;
    ix->depth_wide = h.depth_wide != 0;
    ix->call_count = (size_t)h.call_count;
    ix->call_entry = (uint32_t *)a[4];
    ix->call_exit = (uint32_t *)a[5];
    ix->call_parent = (uint32_t *)a[6];
    ix->call_gross = h.has_gross ? (int64_t *)a[7] : NULL;
    ix->late = (pv_tl_late *)a[22];
    ix->late_count = (size_t)h.late_count;
    ix->net_bits = words ? (uint64_t *)a[8] : NULL;
    ix->net_rank = words ? (uint32_t *)a[9] : NULL;
    ix->net_values = (int64_t *)a[10];
    ix->net_count = (size_t)h.net_count;
    ix->clip_lo = h.clip_lo;
    ix->clip_hi = h.clip_hi;
    ix->line_count = (size_t)h.line_count;
    ix->line_entry = (uint32_t *)a[12];
    ix->line_net = (int64_t *)a[13];
    ix->context_call_start = pv_wi_cache_copy(a[11], (size_t)(h.context_count + 1) * sizeof(size_t));
    ix->area_count = ix->area_cap = (size_t)h.area_count;
    ix->areas = pv_wi_cache_copy(a[14], ix->area_count * sizeof *ix->areas);
    ix->context_count = ix->context_cap = (size_t)h.context_count;
    ix->contexts = pv_wi_cache_copy(a[15], ix->context_count * sizeof *ix->contexts);
    ix->stat_count = (size_t)h.stat_count;
    ix->stats = pv_wi_cache_copy(a[16], ix->stat_count * sizeof *ix->stats);
    pv_strpool_init(&ix->pool);
    free(ix->pool.data);
    ix->pool.data = pv_wi_cache_copy(a[17], (size_t)h.pool_len);
    ix->pool.len = ix->pool.cap = (size_t)h.pool_len;
    pv_hashmap_init(&ix->area_map);
    for (size_t i = 0; i < h.map_count; i++) {
        uint64_t key;
        uint32_t value;
        memcpy(&key, (const unsigned char *)a[18] + i * 8, 8);
        memcpy(&value, (const unsigned char *)a[19] + i * 4, 4);
        pv_hashmap_put(&ix->area_map, key, value);
    }
    ix->context_source = (pv_tl_context_source)h.context_source;
    ix->context_area = h.context_area;
    ix->has_from = h.has_from;
    ix->has_to = h.has_to;
    ix->from = h.from;
    ix->to = h.to;
    ix->window_first = (size_t)h.window_first;
    ix->window_end = (size_t)h.window_end;
    ix->time_first = h.time_first;
    ix->time_last = h.time_last;
    ix->warnings = (size_t)h.warnings;
    ix->indexed = ix->event_count;
    ix->complete = true;
    ix->time_decreased = h.time_decreased;

    /* the index's warnings, as a full index gives them */
    pv_wi_cache_diag_restore(diag, a[20], a[21], &h.diag);

    ix->cache = e; /* freed with the index */
    return true;
}
