/*
 * timeline_areas.c - resolving the areas and contexts of the timeline's
 * events (docs/formats.md §1, §3): the areas from the mapping and implicit
 * ones, the contexts, and which area switches the running context.
 */
#include "formats/winidea/timeline_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Variables and their states share a state key: the state handle
 * (docs/formats.md §1, TimelineStates: 20000000 writes select 30000000 states). */
uint32_t tl_state_key(uint32_t handle)
{
    unsigned type = pv_wi_handle_type(handle);
    if (type == PV_WI_VARIABLE || type == PV_WI_STATE)
        return (handle & 0x0FFFFFFFu) | 0x30000000u;
    if (type == PV_WI_AUX || type == PV_WI_AUX_STATE)
        return (handle & 0x0FFFFFFFu) | 0x50000000u;
    return 0;
}

static uint64_t tl_area_key(uint32_t handle, uint64_t value)
{
    if (tl_is_state_type(pv_wi_handle_type(handle)))
        return handle | (value & 0xFFFFFFFFu) << 32;
    return handle;
}

/* ---- areas */

static uint32_t tl_add_area(tl_pass *p, const pv_tl_area *a)
{
    pv_timeline_index *ix = p->ix;
    if (ix->area_count >= UINT16_MAX && !ix->area_wide)
        tl_widen_areas(p);
    ix->areas = pv_xgrow(ix->areas, &ix->area_cap, ix->area_count + 1, sizeof *ix->areas);
    ix->areas[ix->area_count] = *a;
    return (uint32_t)ix->area_count++;
}

uint32_t pv_timeline_find_area(const pv_timeline_index *ix, uint32_t handle, uint64_t value)
{
    uint32_t area;
    return pv_hashmap_get(&ix->area_map, tl_area_key(handle, value), &area) ? area : PV_WI_NONE;
}

/* Copies the mapping into the index and names every area for display: its
 * own name, else (a state) its variable's name, else its hex handle. */
void tl_init_areas(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    const pv_wi_data *d = p->d;
    uint32_t last_function = PV_WI_NONE;
    for (size_t i = 0; i < d->area_count; i++) {
        const pv_wi_area *src = &d->areas[i];
        pv_tl_area a = {0};
        a.handle = src->handle;
        a.type = (uint8_t)pv_wi_handle_type(src->handle);
        a.has_value = src->has_value;
        a.value = src->value;
        a.data_area = (uint32_t)i;
        a.parent = src->parent < d->area_count ? src->parent : PV_WI_NONE;
        if (a.type == PV_WI_FUNCTION)
            last_function = (uint32_t)i;
        else if (a.type == PV_WI_LINE && a.parent == PV_WI_NONE)
            a.parent = last_function; /* docs/formats.md §1: nearest preceding function */
        a.state_key = tl_state_key(src->handle);
        a.value_f64 = !tl_is_state_type(a.type) &&
                      strcasecmp(pv_strpool_get(&d->pool, src->value_type), "F64") == 0;
        tl_add_area(p, &a);
        uint64_t key = tl_area_key(a.handle, a.value);
        uint32_t existing;
        if (!pv_hashmap_get(&p->ix->area_map, key, &existing))
            pv_hashmap_put(&p->ix->area_map, key, (uint32_t)i);
        if (tl_is_state_type(a.type))
            pv_hashmap_put(&p->state_keys, a.state_key, 1);
    }
    for (size_t i = 0; i < ix->area_count; i++) {
        uint32_t one;
        pv_tl_area *a = &ix->areas[i];
        a->has_states = (a->type == PV_WI_VARIABLE || a->type == PV_WI_AUX) &&
                        pv_hashmap_get(&p->state_keys, a->state_key, &one);
    }
    /* states without a parent: their variable, when the mapping has it */
    for (size_t i = 0; i < ix->area_count; i++) {
        pv_tl_area *a = &ix->areas[i];
        uint32_t var;
        if (tl_is_state_type(a->type) && a->parent == PV_WI_NONE &&
            pv_hashmap_get(&p->ix->area_map, a->state_key - 0x10000000u, &var))
            a->parent = var;
    }
    for (size_t i = 0; i < ix->area_count; i++) {
        pv_tl_area *a = &ix->areas[i];
        const char *name = pv_strpool_get(&d->pool, d->areas[i].name);
        if (!*name && a->parent != PV_WI_NONE && tl_is_state_type(a->type))
            name = pv_strpool_get(&d->pool, d->areas[a->parent].name);
        if (*name) {
            a->name = pv_strpool_add(&ix->pool, name, strlen(name));
        } else {
            char hex[16];
            int n = snprintf(hex, sizeof hex, "0x%08" PRIX32, a->handle);
            a->name = pv_strpool_add(&ix->pool, hex, (size_t)n);
        }
    }
}

/* The area of (handle, value); an unknown one gets an implicit entry named
 * by its hex handle, with its type from the top nibble. */
uint32_t tl_lookup_area(tl_pass *p, uint32_t handle, uint64_t value)
{
    uint64_t key = tl_area_key(handle, value);
    size_t slot = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 54) & (TL_AREA_CACHE - 1);
    if (p->cache_key[slot] == key)
        return p->cache_area[slot];
    uint32_t area;
    if (pv_hashmap_get(&p->ix->area_map, key, &area)) {
        p->cache_key[slot] = key;
        p->cache_area[slot] = area;
        return area;
    }
    if (p->spec && tl_split_fail(p))
        return 0; /* an area the first half may add too: its pass decides */
    pv_tl_area a = {0};
    a.handle = handle;
    a.type = (uint8_t)pv_wi_handle_type(handle);
    a.implicit = true;
    a.data_area = PV_WI_NONE;
    a.parent = PV_WI_NONE;
    a.state_key = tl_state_key(handle);
    uint32_t one;
    a.has_states = (a.type == PV_WI_VARIABLE || a.type == PV_WI_AUX) && a.state_key &&
                   pv_hashmap_get(&p->state_keys, a.state_key, &one);
    if (tl_is_state_type(a.type)) {
        a.has_value = true;
        a.value = value & 0xFFFFFFFFu;
        uint32_t var;
        if (pv_hashmap_get(&p->ix->area_map, a.state_key - 0x10000000u, &var))
            a.parent = var;
    }
    if (a.parent != PV_WI_NONE) {
        a.name = p->ix->areas[a.parent].name;
    } else {
        char hex[16];
        int n = snprintf(hex, sizeof hex, "0x%08" PRIX32, handle);
        a.name = pv_strpool_add(&p->ix->pool, hex, (size_t)n);
    }
    area = tl_add_area(p, &a);
    pv_hashmap_put(&p->ix->area_map, key, area);
    return area;
}

/* ---- contexts */

uint16_t tl_add_context(tl_pass *p, bool has_handle, uint64_t handle, const char *name)
{
    pv_timeline_index *ix = p->ix;
    if (p->spec && tl_split_fail(p))
        return 0; /* contexts are numbered in the order they appear */
    if (ix->context_count >= PV_TL_MAX_CONTEXTS)
        return (uint16_t)(ix->context_count - 1); /* saturate: never overflow u16 */
    if (ix->context_count >= 0xFF && !ix->context_wide)
        tl_widen_contexts(p); /* a u8 holds contexts 0..254, 0xFF is none */
    ix->contexts =
        pv_xgrow(ix->contexts, &ix->context_cap, ix->context_count + 1, sizeof *ix->contexts);
    pv_tl_context *c = &ix->contexts[ix->context_count];
    memset(c, 0, sizeof *c);
    c->has_handle = has_handle;
    c->handle = handle;
    c->name = pv_strpool_add(&ix->pool, name, strlen(name));
    pv_stats_set_context_count(&p->st, ix->context_count + 1);
    return (uint16_t)ix->context_count++;
}

uint16_t tl_unknown_context(tl_pass *p)
{
    if (p->unknown_context == PV_TL_NO_CONTEXT)
        p->unknown_context = tl_add_context(p, false, 0, "Unknown");
    return p->unknown_context;
}

/* The context selected by a state value of the context area: the CONTEXTS
 * entry with that handle, or a new context named by the hex value. */
uint16_t tl_context_of_value(tl_pass *p, uint64_t value)
{
    uint32_t c;
    if (pv_hashmap_get(&p->context_map, value, &c))
        return (uint16_t)c;
    if (p->spec && tl_split_fail(p))
        return 0;
    char hex[24];
    snprintf(hex, sizeof hex, "0x%" PRIX64, value);
    tl_warn(p, "context area value %s is not a CONTEXTS handle; new context", hex);
    uint16_t n = tl_add_context(p, true, value, hex);
    pv_hashmap_put(&p->context_map, value, n);
    return n;
}

static bool tl_all_contexts(const pv_hashmap *context_map, uint64_t value)
{
    uint32_t c;
    return pv_hashmap_get(context_map, value, &c);
}

/* One event for the written-values detection: a W on a variable/AUX or an
 * E on a state. */
void tl_ctx_detect_event(tl_pass *p, const pv_wi_event *e)
{
    unsigned type = pv_wi_handle_type(e->handle);
    bool write = (type == PV_WI_VARIABLE || type == PV_WI_AUX) && e->kind == PV_WI_WRITE;
    bool state = tl_is_state_type(type) && e->kind == PV_WI_ENTRY;
    if (!write && !state)
        return;
    tl_ctx_detect *cd = &p->cd;
    uint32_t key = tl_state_key(e->handle), k;
    if (!pv_hashmap_get(&cd->keys, key, &k)) {
        cd->cands = pv_xgrow(cd->cands, &cd->cand_cap, cd->cand_n + 1, sizeof *cd->cands);
        cd->cands[cd->cand_n] = (tl_ctx_cand){key, true, 0};
        k = (uint32_t)cd->cand_n++;
        pv_hashmap_put(&cd->keys, key, k);
    }
    tl_ctx_cand *c = &cd->cands[k];
    if (!c->all)
        return;
    uint32_t ctx, one;
    /* only the CONTEXTS of the file: the pass adds a context for each value
     * of the context area that is not one (tl_context_of_value) */
    if (!pv_hashmap_get(&p->context_map, e->data, &ctx) || ctx >= p->d->context_count) {
        c->all = false;
        return;
    }
    uint64_t pair = (uint64_t)k << 32 | ctx;
    if (!pv_hashmap_get(&cd->seen, pair, &one)) {
        pv_hashmap_put(&cd->seen, pair, 1);
        c->distinct++;
    }
}

/* The candidate covering the most contexts (ties: the first written), or 0. */
uint32_t tl_ctx_detect_decide(const tl_ctx_detect *cd)
{
    uint32_t best = 0;
    size_t best_cover = 0;
    for (size_t k = 0; k < cd->cand_n; k++)
        if (cd->cands[k].all && cd->cands[k].distinct >= cd->need &&
            cd->cands[k].distinct > best_cover) {
            best = cd->cands[k].key;
            best_cover = cd->cands[k].distinct;
        }
    return best;
}

void tl_ctx_detect_free(tl_ctx_detect *cd)
{
    free(cd->cands);
    pv_hashmap_free(&cd->keys);
    pv_hashmap_free(&cd->seen);
    memset(cd, 0, sizeof *cd);
}

/* docs/formats.md §3 source (2): the context area.  Explicit (o->context_area,
 * a name or a hex handle), else detected: a state variable whose state
 * values in the mapping all are CONTEXTS handles, else a variable whose
 * values written in the timeline all are CONTEXTS handles.  Decision: a
 * candidate must also cover at least half of the CONTEXTS handles (and two
 * of them when there are several), so that an ordinary flag with states 0
 * and 1 is not taken for the running task because CONTEXTS happens to list
 * handles 0x0 and 0x1 (the seed's own example); the candidate covering the
 * most contexts wins, ties go to the first.  Returns the state key, or 0. */
uint32_t tl_find_context_area(tl_pass *p)
{
    const pv_timeline_index *ix = p->ix;
    const char *want = p->o ? p->o->context_area : NULL;
    if (want && *want) {
        for (size_t a = 0; a < ix->area_count; a++)
            if (ix->areas[a].state_key && ix->areas[a].data_area != PV_WI_NONE &&
                strcmp(pv_strpool_get(&p->d->pool, p->d->areas[a].name), want) == 0)
                return ix->areas[a].state_key;
        uint64_t h;
        if (pv_parse_hex64(want, strlen(want), &h) && h <= UINT32_MAX && tl_state_key((uint32_t)h))
            return tl_state_key((uint32_t)h);
        pv_warn(p->diag,
                "%s: context area '%s' is neither a data area name nor a hex handle; "
                "contexts are detected automatically",
                p->file, want);
        p->ix->warnings++;
    }
    if (p->d->context_count == 0)
        return 0;
    size_t need = (p->d->context_count + 1) / 2;
    if (need < 2 && p->d->context_count > 1)
        need = 2;
    uint32_t best = 0;
    size_t best_cover = 0;
    {
        /* per state key of the mapping: do all its states name contexts? */
        pv_hashmap slots;
        pv_hashmap_init(&slots);
        uint32_t *keys = pv_xcalloc(ix->area_count + 1, sizeof *keys);
        size_t *cover = pv_xcalloc(ix->area_count + 1, sizeof *cover);
        bool *all = pv_xcalloc(ix->area_count + 1, sizeof *all);
        size_t nkeys = 0;
        for (size_t a = 0; a < ix->area_count; a++) {
            const pv_tl_area *t = &ix->areas[a];
            if (!tl_is_state_type(t->type))
                continue;
            uint32_t k;
            if (!pv_hashmap_get(&slots, t->state_key, &k)) {
                k = (uint32_t)nkeys++;
                keys[k] = t->state_key;
                all[k] = true;
                pv_hashmap_put(&slots, t->state_key, k);
            }
            if (!t->has_value || !tl_all_contexts(&p->context_map, t->value))
                all[k] = false;
            else
                cover[k]++;
        }
        for (size_t k = 0; k < nkeys; k++)
            if (all[k] && cover[k] >= need && cover[k] > best_cover) {
                best = keys[k];
                best_cover = cover[k];
            }
        free(keys);
        free(cover);
        free(all);
        pv_hashmap_free(&slots);
    }
    if (best)
        return best;
    /* From the written values: over the first 1 M events, so that the first
     * screen does not wait for a pass over the whole timeline; the index
     * pass gathers the rest and pv_timeline_index_finish confirms. */
    tl_ctx_detect *cd = &p->cd;
    cd->need = need;
    const pv_wi_timeline *tl = &p->d->timeline;
    size_t upto = tl->count < PV_WI_BIN_EARLY_RECORDS ? tl->count : PV_WI_BIN_EARLY_RECORDS;
    for (size_t i = 0; i < upto; i++) {
        pv_wi_event e;
        pv_wi_event_at(tl, i, &e);
        tl_ctx_detect_event(p, &e);
    }
    best = tl_ctx_detect_decide(cd);
    if (upto < tl->count) {
        cd->active = true;
        cd->from = upto;
        cd->early = best;
    }
    return best;
}

void tl_setup_contexts(tl_pass *p)
{
    pv_timeline_index *ix = p->ix;
    const pv_wi_data *d = p->d;
    for (size_t c = 0; c < d->context_count && c < PV_TL_MAX_CONTEXTS - 1; c++)
        pv_hashmap_put(&p->context_map, d->contexts[c].handle, (uint32_t)c);
    /* The context area is looked for even when %CONTEXT% attributes the
     * events: then running(c) follows the area (docs/winidea-model.md,
     * "Which context runs"). */
    p->context_key = p->opt.context_decided ? p->opt.context_key : tl_find_context_area(p);
    if (d->timeline.text_context) {
        ix->context_source = PV_TL_CONTEXT_TEXT;
    } else if (p->context_key != 0) {
        ix->context_source = PV_TL_CONTEXT_AREA;
    } else if (d->timeline.version == 11 && d->timeline.count > 0) {
        ix->context_source = PV_TL_CONTEXT_CORE;
    } else {
        ix->context_source = PV_TL_CONTEXT_UNKNOWN;
    }
    if (ix->context_source == PV_TL_CONTEXT_TEXT || ix->context_source == PV_TL_CONTEXT_AREA) {
        for (size_t c = 0; c < d->context_count && c < PV_TL_MAX_CONTEXTS - 1; c++)
            tl_add_context(p, true, d->contexts[c].handle,
                           pv_strpool_get(&d->pool, d->contexts[c].name));
    }
    if (p->context_key != 0) {
        for (size_t a = 0; a < ix->area_count; a++)
            if (ix->areas[a].state_key == p->context_key && ix->context_area == PV_WI_NONE &&
                (ix->areas[a].type == PV_WI_VARIABLE || ix->areas[a].type == PV_WI_AUX))
                ix->context_area = (uint32_t)a;
        if (ix->context_area == PV_WI_NONE)
            for (size_t a = 0; a < ix->area_count; a++)
                if (ix->areas[a].state_key == p->context_key) {
                    ix->context_area = (uint32_t)a;
                    break;
                }
    }
    if (ix->context_source == PV_TL_CONTEXT_UNKNOWN)
        tl_unknown_context(p);
}

/* "NAME (0xHANDLE)" of the variable (else the state) with state key `key`,
 * or "none". */
void tl_context_key_label(const tl_pass *p, uint32_t key, char *out, size_t size)
{
    const pv_timeline_index *ix = p->ix;
    uint32_t found = PV_WI_NONE;
    for (size_t a = 0; a < ix->area_count && key; a++)
        if (ix->areas[a].state_key == key &&
            (found == PV_WI_NONE || ix->areas[a].type == PV_WI_VARIABLE ||
             ix->areas[a].type == PV_WI_AUX)) {
            found = (uint32_t)a;
            if (ix->areas[a].type == PV_WI_VARIABLE || ix->areas[a].type == PV_WI_AUX)
                break;
        }
    if (!key)
        snprintf(out, size, "none");
    else if (found == PV_WI_NONE)
        snprintf(out, size, "0x%08" PRIX32, key);
    else
        snprintf(out, size, "%s (0x%08" PRIX32 ")", pv_tl_area_name(ix, found),
                 ix->areas[found].handle);
}

/* The text after a leading type prefix ("TSK: name" -> "name"; the prefix
 * is one word), or NULL when there is none. */
static const char *tl_strip_type_prefix(const char *s)
{
    const char *colon = strstr(s, ": ");
    if (!colon || colon == s)
        return NULL;
    for (const char *q = s; q < colon; q++)
        if (*q == ' ')
            return NULL;
    return colon + 2;
}

uint32_t pv_wi_match_context(const pv_wi_data *d, const char *label)
{
    for (size_t c = 0; c < d->context_count; c++)
        if (strcmp(pv_strpool_get(&d->pool, d->contexts[c].name), label) == 0)
            return (uint32_t)c;
    /* docs/formats.md §3: equal after removing a leading type prefix ("TSK: ",
     * "ISR: ") from the label, or (read the other way) from the name */
    const char *bare = tl_strip_type_prefix(label);
    for (size_t c = 0; c < d->context_count; c++) {
        const char *name = pv_strpool_get(&d->pool, d->contexts[c].name);
        if (bare && strcmp(name, bare) == 0)
            return (uint32_t)c;
        const char *bare_name = tl_strip_type_prefix(name);
        if (bare_name && strcmp(bare_name, label) == 0)
            return (uint32_t)c;
    }
    return PV_WI_NONE;
}
