/*
 * text1_resolve.c - the Text1 parser's work after the whole file is read
 * (docs/formats.md §1, §3): links that may point forward (a line's function,
 * a state's variable, %CONTEXT% names to CONTEXTS), and how the file writes
 * its state changes.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/text1_internal.h"

/* ---- after the whole file: links that may point forward */

/* docs/formats.md §3: a context name matches a CONTEXTS entry with that name, or
 * whose name equals it after removing a leading type prefix ("TSK: "). */
static size_t text1_find_context(const pv_wi_data *d, size_t first, size_t count,
                                 const char *s, size_t n, size_t passes)
{
    for (size_t pass = 0; pass < passes; pass++) {
        if (pass == 1) {
            size_t i = 0;
            while (i < n && i < 16 && text1_is_word_char(s[i]))
                i++;
            if (i == 0 || i + 1 >= n || s[i] != ':' || !text1_is_blank(s[i + 1]))
                return SIZE_MAX;
            i++;
            while (i < n && text1_is_blank(s[i]))
                i++;
            s += i;
            n -= i;
        }
        for (size_t c = first; c < count; c++) {
            const char *name = pv_strpool_get(&d->pool, d->contexts[c].name);
            if (strlen(name) == n && memcmp(name, s, n) == 0)
                return c;
        }
    }
    return SIZE_MAX;
}

size_t text1_context_named(const pv_wi_data *d, size_t count, const char *s, size_t n)
{
    return text1_find_context(d, 0, count, s, n, 1);
}

void text1_resolve_contexts(text1_parser *p, size_t first_event)
{
    pv_wi_data *d = p->d;
    if (!d->timeline.text_context || p->ctx_name_count == 0)
        return;
    size_t known = d->context_count;
    uint16_t *map = pv_xmalloc(p->ctx_name_count * sizeof *map);
    for (size_t i = 0; i < p->ctx_name_count; i++) {
        const char *s = p->names + p->ctx_names[i].off;
        size_t n = p->ctx_names[i].len;
        size_t c = text1_find_context(d, 0, known, s, n, 2);
        if (c == SIZE_MAX) /* kept as written, with no handle */
            c = pv_wi_add_context(d, UINT64_MAX, s, n);
        map[i] = c < UINT16_MAX ? (uint16_t)c : UINT16_MAX;
    }
    /* (the events handed out carry their context already: the same, since
     * the name equals it and CONTEXTS entries are only ever added after it) */
    uint16_t *tc = d->timeline.text_context;
    size_t skip_from = p->direct_from > first_event ? p->direct_from : first_event;
    size_t skip_to = p->direct_to > skip_from ? p->direct_to : skip_from;
    for (size_t e = first_event; e < skip_from; e++)
        if (tc[e] != UINT16_MAX)
            tc[e] = map[tc[e]];
    for (size_t e = skip_to; e < d->timeline.count; e++)
        if (tc[e] != UINT16_MAX)
            tc[e] = map[tc[e]];
    free(map);
}

static uint32_t text1_parent_handle(uint32_t state_handle)
{
    /* A state (type 3/5) belongs to the variable/AUX (type 2/4) with the same
     * low 28 bits (docs/formats.md §1: all states of one variable share one handle). */
    return (state_handle & 0x0FFFFFFFu) | ((pv_wi_handle_type(state_handle) - 1u) << 28);
}

void text1_resolve_areas(text1_parser *p)
{
    pv_wi_data *d = p->d;
    pv_hashmap owners; /* handle -> first area with it, states excluded */
    pv_hashmap_init(&owners);
    for (size_t i = 0; i < d->area_count; i++) {
        uint32_t h = d->areas[i].handle;
        unsigned type = pv_wi_handle_type(h);
        if (type == PV_WI_STATE || type == PV_WI_AUX_STATE)
            continue; /* states share their handle by design */
        uint32_t first;
        if (!pv_hashmap_get(&owners, h, &first)) {
            pv_hashmap_put(&owners, h, (uint32_t)i);
        } else if (i >= p->first_area) {
            p->line = p->area_line[i - p->first_area];
            if (first >= p->first_area)
                text1_warn(p, "handle %08X defined again (first at line %zu); both kept, links "
                              "go to the first", h, p->area_line[first - p->first_area]);
            else
                text1_warn(p, "handle %08X defined again; both kept, links go to the first", h);
        }
    }
    for (size_t i = 0; i < p->pending_count; i++) {
        const text1_pending_parent *pp = &p->pending[i];
        uint32_t parent;
        if (pv_hashmap_get(&owners, pp->handle, &parent) && parent != pp->area) {
            d->areas[pp->area].parent = parent;
        } else {
            p->line = pp->line;
            d->areas[pp->area].parent = (uint32_t)pp->fallback;
            text1_warn(p, "HANDLE.PARENT %08X is not an area of the file; %s", pp->handle,
                       pp->fallback != PV_WI_NONE ? "the nearest preceding function is used"
                                                  : "no parent");
        }
    }
    for (size_t i = p->first_area; i < d->area_count; i++) {
        pv_wi_area *a = &d->areas[i];
        unsigned type = pv_wi_handle_type(a->handle);
        if (a->parent != PV_WI_NONE || (type != PV_WI_STATE && type != PV_WI_AUX_STATE))
            continue;
        uint32_t parent;
        if (pv_hashmap_get(&owners, text1_parent_handle(a->handle), &parent))
            a->parent = parent;
    }
    pv_hashmap_free(&owners);
}

/* TimelineStates (docs/formats.md §1): a state change arrives as W on a variable
 * that has states, or as E on a state handle.  Remember which. */
void text1_detect_state_style(text1_parser *p, size_t first_event)
{
    pv_wi_data *d = p->d;
    pv_hashmap with_states;
    pv_hashmap_init(&with_states);
    if (p->saw_variable_write)
        for (size_t i = 0; i < d->area_count; i++) {
            unsigned type = pv_wi_handle_type(d->areas[i].handle);
            if (type == PV_WI_STATE || type == PV_WI_AUX_STATE)
                pv_hashmap_put(&with_states, text1_parent_handle(d->areas[i].handle), 1);
        }
    /* The parse noted the first E on a state and each variable's first W
     * (text1_note_event): the first W on a variable with states is the
     * earliest of those, found with no pass over the events (a pass cost
     * 10% of a load: 20 ms at 15 M events when there is no such W). */
    size_t first_write = SIZE_MAX;
    size_t first_entry = p->saw_state_entry ? p->first_state_entry : SIZE_MAX;
    const pv_hashmap *noted = &p->first_write;
    uint32_t unused;
    if (with_states.count > 0 && !p->first_write_lost) {
        for (size_t i = 0; i < noted->cap; i++)
            if (noted->used[i] && noted->values[i] < first_write &&
                pv_hashmap_get(&with_states, noted->keys[i], &unused))
                first_write = noted->values[i];
    } else if (with_states.count > 0) { /* an index beyond 32 bits: the pass */
        const pv_wi_timeline *tl = &d->timeline;
        for (size_t e = first_event; e < tl->count && first_write == SIZE_MAX; e++) {
            pv_wi_event ev;
            pv_wi_event_at(tl, e, &ev);
            unsigned type = pv_wi_handle_type(ev.handle);
            if (ev.kind == PV_WI_WRITE && (type == PV_WI_VARIABLE || type == PV_WI_AUX) &&
                pv_hashmap_get(&with_states, ev.handle, &unused))
                first_write = e;
        }
    }
    pv_hashmap_free(&with_states);
    if (first_write == SIZE_MAX && first_entry == SIZE_MAX)
        return;
    d->timeline.states_as_writes = first_write < first_entry;
    if (first_write != SIZE_MAX && first_entry != SIZE_MAX)
        pv_warn(p->diag,
                "%s: TIMELINE mixes both TimelineStates styles (W on a state variable at event "
                "%zu, E on a state handle at event %zu); both are read, an export writes %s",
                p->path, first_write, first_entry,
                d->timeline.states_as_writes ? "W on the variable" : "E on the state");
}

