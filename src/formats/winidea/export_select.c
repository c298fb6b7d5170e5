/* export_select.c - what an export of a winIDEA timeline keeps
 * (docs/export.md "Selections combine"): the contexts and areas, a
 * window's start (the state the reader needs, docs/export.md "Windows")
 * and end, and the events a filter keeps, with their calls made whole. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/winidea/export_internal.h"
#include "profview/hooks.h"
#include "profview/query.h"

/* ---- what is kept: contexts and areas */

bool wx_select(wx_ctx *c)
{
    const pv_wi_data *d = c->d;
    const pv_timeline_index *ix = c->ix;
    const pv_export_request *r = c->r;
    c->keep_area = pv_xmalloc((d->area_count ? d->area_count : 1) * sizeof *c->keep_area);
    c->keep_ix_area = pv_xmalloc((ix->area_count ? ix->area_count : 1) * sizeof *c->keep_ix_area);
    for (size_t i = 0; i < d->area_count; i++)
        c->keep_area[i] = true;
    for (size_t i = 0; i < ix->area_count; i++)
        c->keep_ix_area[i] = true;
    /* the context area and its states: what the reader needs for the contexts */
    c->context_area = pv_xcalloc(ix->area_count ? ix->area_count : 1, sizeof *c->context_area);
    if (ix->context_area != PV_WI_NONE)
        for (size_t i = 0; i < ix->area_count; i++)
            c->context_area[i] =
                i == ix->context_area ||
                (ix->areas[i].state_key &&
                 ix->areas[i].state_key == ix->areas[ix->context_area].state_key);
    if (r->context) {
        c->keep_context = pv_xcalloc(ix->context_count ? ix->context_count : 1,
                                     sizeof *c->keep_context);
        bool found = false;
        for (uint16_t k = 0; k < ix->context_count; k++)
            if (strcmp(pv_tl_context_name(ix, k), r->context) == 0)
                found = c->keep_context[k] = true;
        if (!found) {
            pv_buf names;
            pv_buf_init(&names);
            for (uint16_t k = 0; k < ix->context_count; k++)
                pv_buf_printf(&names, "%s'%s'", k ? ", " : "", pv_tl_context_name(ix, k));
            pv_error(c->err, "%s: no context '%s' (contexts: %s)", c->f->path, r->context,
                     ix->context_count ? pv_buf_cstr(&names) : "none");
            pv_buf_free(&names);
            return false;
        }
    }
    if (r->areas) {
        /* areas by name; lines follow their function, states their variable */
        for (size_t i = 0; i < ix->area_count; i++) {
            const pv_tl_area *a = &ix->areas[i];
            const char *name = a->data_area != PV_WI_NONE
                                   ? pv_strpool_get(&d->pool, d->areas[a->data_area].name)
                                   : pv_tl_area_name(ix, (uint32_t)i);
            c->keep_ix_area[i] = pv_export_glob_match(r->areas, name, strlen(name));
        }
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < ix->area_count; i++) {
                const pv_tl_area *a = &ix->areas[i];
                bool dependent = a->type == PV_WI_LINE || a->type == PV_WI_STATE ||
                                 a->type == PV_WI_AUX_STATE;
                if (dependent && a->parent != PV_WI_NONE && a->parent < ix->area_count &&
                    c->keep_ix_area[a->parent])
                    c->keep_ix_area[i] = true;
            }
        /* the context area stays, so that the export reloads with the same contexts */
        for (size_t i = 0; i < ix->area_count; i++)
            if (c->context_area[i])
                c->keep_ix_area[i] = true;
        for (size_t i = 0; i < d->area_count; i++)
            c->keep_area[i] = false;
        for (size_t i = 0; i < ix->area_count; i++)
            if (c->keep_ix_area[i] && ix->areas[i].data_area != PV_WI_NONE)
                c->keep_area[ix->areas[i].data_area] = true;
        /* a kept line keeps the mapping row of its function (its parent) */
        for (size_t i = 0; i < d->area_count; i++)
            if (c->keep_area[i] && d->areas[i].parent != PV_WI_NONE)
                c->keep_area[d->areas[i].parent] = true;
    }
    return true;
}

/* ---- replaying the call stacks (docs/formats.md §3), as the index did */

/* The (area, context) pairs met so far: an S/R/X of an area not on its
 * context's stack reveals an implicit frame the first time only (later it
 * is ignored, with a warning).  A bit per pair while that is at most 8 MB,
 * else a hash map. */
typedef struct wx_seen {
    uint8_t *bits;
    size_t contexts;
    pv_hashmap map;
} wx_seen;

static void wx_seen_init(wx_seen *s, size_t areas, size_t contexts)
{
    memset(s, 0, sizeof *s);
    s->contexts = contexts;
    if (areas * contexts <= ((size_t)1 << 26))
        s->bits = pv_xcalloc(areas * contexts / 8 + 1, 1);
    else
        pv_hashmap_init(&s->map);
}

/* Whether (area, context) was met before; it is from now on. */
static bool wx_seen_mark(wx_seen *s, uint32_t area, uint16_t ctx)
{
    if (s->bits) {
        size_t k = (size_t)area * s->contexts + ctx;
        bool met = (s->bits[k / 8] >> (k % 8)) & 1;
        s->bits[k / 8] |= (uint8_t)(1u << (k % 8));
        return met;
    }
    uint64_t key = (uint64_t)area << 16 | ctx;
    uint32_t dummy;
    if (pv_hashmap_get(&s->map, key, &dummy))
        return true;
    pv_hashmap_put(&s->map, key, 1);
    return false;
}

static void wx_seen_free(wx_seen *s)
{
    if (s->bits)
        free(s->bits);
    else
        pv_hashmap_free(&s->map);
}

/* ---- a window's start: what the reader needs to know (docs/export.md "Windows") */

typedef struct wx_frame {
    uint32_t area;
    size_t entry;   /* its E, or the S/R that revealed it (an implicit frame) */
    size_t last_sr; /* its last S or R after that, SIZE_MAX */
    size_t entry_switch, sr_switch; /* the context area's event before each, SIZE_MAX */
    bool active0;   /* active after `entry` */
    bool active;    /* active at the window's start */
} wx_frame;

typedef struct wx_stack {
    wx_frame *f;
    size_t n, cap;
} wx_stack;

/* Whether an event before the window may go in the prologue: the
 * selection's areas and contexts (a filter keeps only the context area). */
static bool wx_prologue_keeps(const wx_ctx *c, size_t i)
{
    const pv_timeline_index *ix = c->ix;
    uint32_t area = pv_tl_event_area(ix, i);
    if (c->context_area[area])
        return true;
    if (c->match || !c->keep_ix_area[area])
        return false;
    if (c->keep_context) {
        uint16_t ctx = pv_tl_event_context(ix, i);
        if (ctx != PV_TL_NO_CONTEXT && ctx < ix->context_count && !c->keep_context[ctx])
            return false;
    }
    return true;
}

static int wx_size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The events before the window that give its start's state: per context,
 * the frames open at `from` (replayed by the rules of docs/formats.md §3 as
 * the index did: their E, or the event that revealed an implicit frame, and
 * their last S/R when it changed whether they run), and each data area's
 * last event (the context area's: the running context; a state's: the
 * state at the start).  Reloaded with the window, none of them is counted:
 * they lie before it.  Plus the first event after the window's end (the
 * context area's, else another kept data area's), so that calls open at the
 * end are cut at `to`, as in the source, not at the last kept event. */
bool wx_window_edges(wx_ctx *c)
{
    const pv_timeline_index *ix = c->ix;
    const pv_wi_timeline *tl = &c->d->timeline;
    c->epilogue = SIZE_MAX;
    if (!c->carry_window)
        return true;
    size_t first = ix->has_from ? ix->window_first : 0;
    size_t nctx = (size_t)ix->context_count + 1;
    wx_stack *stacks = pv_xcalloc(nctx, sizeof *stacks);
    size_t *last_data = pv_xmalloc((ix->area_count ? ix->area_count : 1) * sizeof *last_data);
    for (size_t a = 0; a < ix->area_count; a++)
        last_data[a] = SIZE_MAX;
    wx_seen seen;
    wx_seen_init(&seen, ix->area_count, nctx);
    bool ok = true;
    size_t last_switch = SIZE_MAX; /* the context area's latest event: the running context */
    for (size_t i = 0; i < first && i < tl->count; i++) {
        if ((i & 0xFFFF) == 0 &&
            !pv_progress_step(&c->r->progress, "exporting", 0, c->total)) {
            ok = false;
            break;
        }
        pv_wi_event e;
        pv_wi_event_at(tl, i, &e);
        uint32_t area = pv_tl_event_area(ix, i);
        if (area >= ix->area_count)
            continue;
        unsigned type = ix->areas[area].type;
        if (type != PV_WI_FUNCTION && type != PV_WI_LINE) {
            last_data[area] = i;
            if (c->context_area[area])
                last_switch = i;
            continue;
        }
        if (e.kind > PV_WI_ENTRY)
            continue; /* W on a function, unknown codes: ignored by the index */
        uint16_t ctx = pv_tl_event_context(ix, i);
        if (ctx >= ix->context_count)
            continue;
        wx_stack *s = &stacks[ctx];
        bool met = wx_seen_mark(&seen, area, ctx);
        if (e.kind == PV_WI_ENTRY) {
            s->f = pv_xgrow(s->f, &s->cap, s->n + 1, sizeof *s->f);
            s->f[s->n++] = (wx_frame){area, i, SIZE_MAX, last_switch, SIZE_MAX, true, true};
            continue;
        }
        size_t k = s->n;
        while (k > 0 && s->f[k - 1].area != area)
            k--;
        if (k == 0) {
            if (met)
                continue; /* ignored, with a warning, by the index */
            if (e.kind == PV_WI_EXIT) {
                s->n = 0; /* an implicit frame, at the bottom, ends: all above it go */
                continue;
            }
            /* an implicit frame: at the very bottom */
            s->f = pv_xgrow(s->f, &s->cap, s->n + 1, sizeof *s->f);
            memmove(s->f + 1, s->f, s->n * sizeof *s->f);
            bool active = e.kind == PV_WI_RESUME;
            s->f[0] = (wx_frame){area, i, SIZE_MAX, last_switch, SIZE_MAX, active, active};
            s->n++;
            continue;
        }
        wx_frame *f = &s->f[k - 1];
        if (e.kind == PV_WI_EXIT) {
            s->n = k - 1; /* it, and any frame left open above it */
        } else {
            f->last_sr = i;
            f->sr_switch = last_switch;
            f->active = e.kind == PV_WI_RESUME;
        }
    }
    wx_seen_free(&seen);
    if (ok) {
        size_t n = 0, cap = 0;
        size_t *out = NULL;
        for (size_t k = 0; k < nctx; k++)
            for (size_t j = 0; j < stacks[k].n; j++) {
                const wx_frame *f = &stacks[k].f[j];
                /* each with the context switch it ran after, so that it
                 * reloads in its context */
                out = pv_xgrow(out, &cap, n + 4, sizeof *out);
                if (wx_prologue_keeps(c, f->entry)) {
                    out[n++] = f->entry;
                    if (f->entry_switch != SIZE_MAX)
                        out[n++] = f->entry_switch;
                }
                if (f->last_sr != SIZE_MAX && f->active != f->active0 &&
                    wx_prologue_keeps(c, f->last_sr)) {
                    out[n++] = f->last_sr;
                    if (f->sr_switch != SIZE_MAX)
                        out[n++] = f->sr_switch;
                }
            }
        for (size_t a = 0; a < ix->area_count; a++)
            if (last_data[a] != SIZE_MAX && wx_prologue_keeps(c, last_data[a])) {
                out = pv_xgrow(out, &cap, n + 1, sizeof *out);
                out[n++] = last_data[a];
            }
        if (n > 1)
            qsort(out, n, sizeof *out, wx_size_cmp);
        size_t u = 0; /* once each */
        for (size_t k = 0; k < n; k++)
            if (u == 0 || out[u - 1] != out[k])
                out[u++] = out[k];
        n = u;
        c->prologue = out;
        c->prologue_count = n;
    }
    for (size_t k = 0; k < nctx; k++)
        free(stacks[k].f);
    free(stacks);
    free(last_data);
    if (!ok || !ix->has_to)
        return ok;
    /* after the end: the context area's next event, else a kept data area's */
    size_t other = SIZE_MAX;
    for (size_t i = ix->window_end; i < tl->count; i++) {
        uint32_t area = pv_tl_event_area(ix, i);
        if (area >= ix->area_count)
            continue;
        if (c->context_area[area]) {
            c->epilogue = i;
            break;
        }
        unsigned type = ix->areas[area].type;
        if (other == SIZE_MAX && type != PV_WI_FUNCTION && type != PV_WI_LINE &&
            c->keep_ix_area[area])
            other = i;
        if (other != SIZE_MAX && ix->context_area == PV_WI_NONE)
            break;
    }
    if (c->epilogue == SIZE_MAX)
        c->epilogue = other;
    return true;
}

/* ---- a filter over the timeline: the events it keeps */

/* Whole calls (docs/export.md "Filters"): a kept event of a function or
 * line frame keeps the frame's entry and exit too (the E, or the event that
 * revealed an implicit frame, and the X that ended it), so that the kept
 * events reload on a consistent call stack, without a warning.  The stacks
 * are replayed by the rules of docs/formats.md §3, as the index did. */
static bool wx_complete_calls(wx_ctx *c)
{
    const pv_timeline_index *ix = c->ix;
    const pv_wi_timeline *tl = &c->d->timeline;
    size_t nctx = (size_t)ix->context_count + 1;
    typedef struct {
        uint32_t area;
        bool kept;
        size_t entry;
    } frame;
    typedef struct {
        frame *f;
        size_t n, cap;
    } fstack;
    fstack *stacks = pv_xcalloc(nctx, sizeof *stacks);
    wx_seen seen;
    wx_seen_init(&seen, ix->area_count, nctx);
    bool ok = true;
    for (size_t i = 0; i < tl->count; i++) {
        if ((i & 0xFFFF) == 0 && !pv_progress_step(&c->r->progress, "selecting rows", i,
                                                   tl->count)) {
            ok = false;
            break;
        }
        uint32_t area = pv_tl_event_area(ix, i);
        if (area >= ix->area_count)
            continue;
        unsigned type = ix->areas[area].type;
        if (type != PV_WI_FUNCTION && type != PV_WI_LINE)
            continue;
        pv_wi_event e;
        pv_wi_event_at(tl, i, &e);
        uint16_t ctx = pv_tl_event_context(ix, i);
        if (e.kind > PV_WI_ENTRY || ctx >= ix->context_count)
            continue;
        fstack *s = &stacks[ctx];
        bool met = wx_seen_mark(&seen, area, ctx);
        if (e.kind == PV_WI_ENTRY) {
            s->f = pv_xgrow(s->f, &s->cap, s->n + 1, sizeof *s->f);
            s->f[s->n++] = (frame){area, c->match[i] != 0, i};
            continue;
        }
        size_t k = s->n;
        while (k > 0 && s->f[k - 1].area != area)
            k--;
        if (k == 0) {
            if (met)
                continue;
            if (e.kind == PV_WI_EXIT) { /* an implicit frame that ends at once */
                for (size_t j = 0; j < s->n; j++)
                    if (s->f[j].kept)
                        c->match[s->f[j].entry] = 1;
                s->n = 0;
                continue;
            }
            s->f = pv_xgrow(s->f, &s->cap, s->n + 1, sizeof *s->f);
            memmove(s->f + 1, s->f, s->n * sizeof *s->f);
            s->f[0] = (frame){area, c->match[i] != 0, i};
            s->n++;
            continue;
        }
        frame *f = &s->f[k - 1];
        if (e.kind != PV_WI_EXIT) {
            if (c->match[i])
                f->kept = true;
            continue;
        }
        if (c->match[i])
            f->kept = true;
        for (size_t j = k - 1; j < s->n; j++)
            if (s->f[j].kept)
                c->match[s->f[j].entry] = 1;
        if (f->kept)
            c->match[i] = 1;
        s->n = k - 1;
    }
    for (size_t k = 0; k < nctx; k++) {
        for (size_t j = 0; ok && j < stacks[k].n; j++)
            if (stacks[k].f[j].kept)
                c->match[stacks[k].f[j].entry] = 1;
        free(stacks[k].f);
    }
    free(stacks);
    wx_seen_free(&seen);
    return ok;
}

/* Marks in c->match the events of the rows of the file's timeline view that
 * the request's filter (or rows) keeps; false on a bad filter (message in
 * err) or a cancel (no message). */
bool wx_match_filter(wx_ctx *c, const pv_timeline_index *file_ix)
{
    const pv_export_request *r = c->r;
    pv_view *v = NULL;
    for (size_t s = 0; s < c->f->set_count && !v; s++)
        v = pv_set_find_view(c->f->sets[s], "timeline");
    if (!v) {
        pv_error(c->err, "%s: has no timeline view to filter", c->f->path);
        return false;
    }
    /* the filter (or rows) alone: --context and --areas are the events' own
     * rules here (data events and the context area stay) */
    pv_export_request sel = *r;
    sel.context = NULL;
    sel.areas = NULL;
    size_t n = 0;
    bool ok = true;
    pv_row *rows = pv_export_select_rows(v, &sel, true, &n, c->err, &ok);
    if (!ok)
        return false;
    size_t count = c->d->timeline.count;
    c->match = pv_xcalloc(count ? count : 1, 1);
    for (size_t k = 0; k < n; k++) {
        size_t ev = (rows ? rows[k] : k) + file_ix->window_first;
        if (ev < count)
            c->match[ev] = 1;
    }
    if (rows)
        pv_export_dispose(r, rows, pv_export_selection_room(v, &sel, true) * sizeof *rows);
    return wx_complete_calls(c);
}
