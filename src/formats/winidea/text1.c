/*
 * text1.c - the winIDEA Text1 parser (docs/formats.md §1).
 *
 * A Text1 file is a list of sections; each header `* NAME[(CLASS)]
 * [CONTEXT(name)] FORMAT` is compiled once into a template (the macros and
 * the literal text between them) and every entry line is split by that
 * template, never by fixed columns.  Entry lines are scanned with
 * memchr/memmem and parsed with hand-written number readers, without
 * allocating, so that TIMELINE-heavy files read at hundreds of MB/s.
 * The templates and number readers are in text1_template.c, the links
 * resolved after the whole file in text1_resolve.c (text1_internal.h).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/text1_internal.h"

/* ---- the parser */

static const struct {
    const char *name;
    text1_kind kind;
} text1_sections[] = {
    {"INFO", SECTION_INFO},         {"CONTEXTS", SECTION_CONTEXTS},
    {"HANDLE", SECTION_HANDLE},     {"STATISTICS", SECTION_STATISTICS},
    {"TIMELINE", SECTION_TIMELINE},
};

static const char *const text1_classes[] = {"Functions", "Data", "AUX"};

static void text1_stream_stop(text1_parser *p, bool tell_sink);

/* Quotes a field for a message: control bytes escaped, at most ~40 bytes. */
const char *text1_quote(pv_buf *b, const char *s, size_t n)
{
    pv_buf_clear(b);
    pv_buf_putc(b, '\'');
    pv_escape_controls(b, s, n > 40 ? 40 : n);
    if (n > 40)
        pv_buf_puts(b, "...");
    pv_buf_putc(b, '\'');
    return pv_buf_cstr(b);
}

void text1_warn(text1_parser *p, const char *fmt, ...) PV_PRINTF(2, 3);
void text1_warn(text1_parser *p, const char *fmt, ...)
{
    if (p->quiet)
        return;
    if (p->diag->entry_count >= PV_DIAG_KEEP) {
        pv_warn(p->diag, "%s", ""); /* counted, not kept: no need to format it */
        return;
    }
    pv_buf b;
    pv_buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pv_warn(p->diag, "%s:%zu: %s", p->path, p->line, pv_buf_cstr(&b));
    pv_buf_free(&b);
}

/* The first W on `handle` (a variable or AUX) may be event `event`: kept
 * unless one was noted before (text1_note_event). */
void text1_note_first_write(text1_parser *p, uint32_t handle, size_t event)
{
    p->write_seen[handle & 15] = handle; /* never 0: a 2/4 handle */
    uint32_t first;
    if (pv_hashmap_get(&p->first_write, handle, &first))
        return;
    if (event > UINT32_MAX) {
        p->first_write_lost = true;
        return;
    }
    pv_hashmap_put(&p->first_write, handle, (uint32_t)event);
}

/* Warns about a field that does not hold what its macro needs. */
static void text1_warn_field(text1_parser *p, const char *what, const text1_slice *f)
{
    pv_buf q;
    pv_buf_init(&q);
    text1_warn(p, "%s %s; line skipped", what, text1_quote(&q, f->s, f->n));
    pv_buf_free(&q);
}

static pv_wi_raw_section *text1_section_add(pv_wi_data *d, const char *header, size_t n,
                                            bool known)
{
    d->sections =
        pv_xgrow(d->sections, &d->section_cap, d->section_count + 1, sizeof *d->sections);
    pv_wi_raw_section *s = &d->sections[d->section_count++];
    memset(s, 0, sizeof *s);
    s->header = pv_xstrndup(header, n);
    s->known = known;
    s->first_context = d->context_count;
    s->first_area = d->area_count;
    s->first_stat = d->stat_count;
    s->first_event = d->timeline.count;
    return s;
}

static void text1_section_keep_line(text1_parser *p, const char *s, size_t n)
{
    pv_wi_raw_section *sec = &p->d->sections[p->section];
    sec->lines = pv_xgrow(sec->lines, &sec->line_cap, sec->line_count + 1, sizeof *sec->lines);
    sec->lines[sec->line_count++] = pv_xstrndup(s, n);
}

static bool text1_word_equals(const char *s, size_t n, const char *word)
{
    size_t len = strlen(word);
    if (n != len)
        return false;
    for (size_t i = 0; i < n; i++)
        if (text1_ascii_upper((unsigned char)s[i]) != text1_ascii_upper((unsigned char)word[i]))
            return false;
    return true;
}


/* The known section named s[0..n), or SECTION_OPAQUE. */
static text1_kind text1_section_kind(const char *s, size_t n)
{
    for (size_t i = 0; i < PV_ARRAY_LEN(text1_sections); i++)
        if (text1_word_equals(s, n, text1_sections[i].name))
            return text1_sections[i].kind;
    return SECTION_OPAQUE;
}

/* The macros a section cannot do without. */
static const char *text1_missing_macro(const text1_template *t, text1_kind kind)
{
    static const struct {
        text1_kind kind;
        unsigned macro;
        const char *name;
    } required[] = {
        {SECTION_CONTEXTS, T1_NAME, "%NAME%"},       {SECTION_HANDLE, T1_HANDLE, "%HANDLE%"},
        {SECTION_STATISTICS, T1_HANDLE, "%HANDLE%"}, {SECTION_TIMELINE, T1_HANDLE, "%HANDLE%"},
        {SECTION_TIMELINE, T1_EVENT, "%EVENT%"},     {SECTION_TIMELINE, T1_TIME, "%TIME%"},
    };
    for (size_t i = 0; i < PV_ARRAY_LEN(required); i++)
        if (required[i].kind == kind && t->field_of[required[i].macro] == SIZE_MAX)
            return required[i].name;
    return NULL;
}

static void text1_stream_start(text1_parser *p, size_t rest);

/* Starts a section from its header line s[0..n) (leading blanks and the
 * line break already removed; s[0] == '*'); `rest` bytes follow the line. */
static void text1_begin_section(text1_parser *p, const char *s, size_t n, size_t rest)
{
    pv_wi_data *d = p->d;
    if (p->streaming)
        text1_stream_stop(p, true); /* the mapping may change: what was handed out goes */
    text1_template_free(&p->tpl);
    p->kind = SECTION_OPAQUE;
    p->area_class = -1;
    p->context = 0;
    p->keep_lines = true;
    p->fast = false;
    p->seed = false;
    p->last_function = PV_WI_NONE;
    p->sections_seen++;

    size_t i = 1;
    while (i < n && text1_is_blank(s[i]))
        i++;
    size_t name_start = i;
    while (i < n && text1_is_word_char(s[i]))
        i++;
    text1_kind kind = text1_section_kind(s + name_start, i - name_start);
    if (kind != SECTION_OPAQUE && i < n && s[i] == '(') {
        const char *close = memchr(s + i, ')', n - i);
        size_t class_start = i + 1;
        size_t class_len = close ? (size_t)(close - s) - class_start : 0;
        p->area_class = -2;
        for (int c = 0; close && c < (int)PV_ARRAY_LEN(text1_classes); c++)
            if (text1_word_equals(s + class_start, class_len, text1_classes[c]))
                p->area_class = c;
        if (p->area_class == -2)
            kind = SECTION_OPAQUE; /* HANDLE(OS) or a broken class: kept as text */
        else
            i = (size_t)(close - s) + 1;
    } else if (kind != SECTION_OPAQUE && i < n && !text1_is_blank(s[i])) {
        kind = SECTION_OPAQUE; /* "* TIMELINEX": another section */
    }
    p->section = d->section_count;
    text1_section_add(d, s, n, kind != SECTION_OPAQUE);
    if (kind == SECTION_OPAQUE)
        return;

    while (i < n && text1_is_blank(s[i]))
        i++;
    if (n - i >= 8 && text1_word_equals(s + i, 8, "CONTEXT(")) {
        /* The context name ends at the first ')' followed by a blank, a '%'
         * or the end of the line: "TSK: a(b)" keeps its parentheses. */
        size_t start = i + 8, j = start;
        while (j < n &&
               !(s[j] == ')' && (j + 1 == n || text1_is_blank(s[j + 1]) || s[j + 1] == '%')))
            j++;
        if (j < n) {
            p->context = pv_strpool_add(&d->pool, s + start, j - start);
            i = j + 1;
            while (i < n && text1_is_blank(s[i]))
                i++;
        }
    }
    text1_template_compile(&p->tpl, s + i, n - i);
    if (p->tpl.count == 0) {
        text1_warn(p, "%s section has no %%MACRO%% in its format; its lines are kept as text",
                   text1_sections[kind - SECTION_INFO].name);
        return;
    }
    const char *missing = text1_missing_macro(&p->tpl, kind);
    if (missing) {
        text1_warn(p, "%s section format has no %s; its lines are kept as text",
                   text1_sections[kind - SECTION_INFO].name, missing);
        return;
    }
    if (p->tpl.adjacent)
        text1_warn(p, "two macros with no separator between them: one of them is read empty");
    p->kind = kind;
    /* Lines with unknown macros are kept whole (one per entry read) so that
     * an export can write those fields back (docs/formats.md §1). */
    p->keep_lines = p->tpl.has_unknown;
    p->fast = kind == SECTION_TIMELINE && text1_fast_template(&p->tpl);
    const text1_template *t = &p->tpl;
    if (p->fast) {
        p->fast_macro = pv_xrealloc(p->fast_macro, t->count);
        p->fast_sep = pv_xrealloc(p->fast_sep, t->count);
        for (size_t k = 0; k < t->count; k++) {
            p->fast_macro[k] = (unsigned char)(t->field_of[t->macro[k]] == k ? t->macro[k]
                                                                            : T1_UNKNOWN);
            p->fast_sep[k] = k + 1 == t->count ? '\n' : t->text[t->lit_off[k + 1]];
        }
    }
    p->seed = p->fast && t->count == 4 && t->macro[0] == T1_HANDLE && t->macro[1] == T1_EVENT &&
              t->macro[2] == T1_VALUE && t->macro[3] == T1_TIME;
    if (p->seed)
        for (size_t k = 0; k < 3; k++)
            p->seed_sep[k] = t->text[t->lit_off[k + 1]];
    if (kind == SECTION_TIMELINE && p->sink && !p->stream_tried)
        text1_stream_start(p, rest);
}

/* ---- reading and indexing at once (pv_wi_text1_sink) */

/* A TIMELINE section starts: hand its events out when room for all the
 * events it can hold fits in memory.  Every event line has at least a
 * handle digit, the event letter, a time digit, the template's literals and
 * a line break, so the bytes left bound the events; the room is reserved,
 * not touched (untouched pages cost nothing), and the records (and the
 * events' contexts) never move while an index reads them.  Not when an
 * earlier section attributed contexts by name.  With %CONTEXT%, each event
 * carries the CONTEXTS entry of its name while names are found there
 * exactly (text1_add_event): a name found otherwise is resolved after the
 * whole file, and the stream stops there. */
static void text1_stream_start(text1_parser *p, size_t rest)
{
    const text1_template *t = &p->tpl;
    pv_wi_timeline *tl = &p->d->timeline;
    p->stream_tried = true;
    if (tl->text_context || p->ctx_name_count > 0)
        return;
    size_t min_line = 4;
    for (size_t i = 0; i <= t->count; i++)
        min_line += t->lit_len[i];
    size_t room = rest / min_line + 2;
    if (room > SIZE_MAX / PV_WI_RECORD_SIZE - tl->count)
        return;
    size_t cap = tl->count + room;
    if (cap > tl->owned_cap) {
        unsigned char *r = realloc(tl->owned, cap * PV_WI_RECORD_SIZE);
        if (!r)
            return; /* no such room: read as without a sink */
        tl->owned = r;
        tl->owned_cap = cap;
    }
    tl->records = tl->owned;
    tl->version = 11;
    if (t->field_of[T1_CONTEXT] != SIZE_MAX) {
        p->direct = true;
        p->direct_from = p->direct_to = tl->count;
    }
    p->stream_chunk = p->sink->chunk ? p->sink->chunk : 65536;
    p->stream_next = (tl->count / p->stream_chunk + 1) * p->stream_chunk;
    p->streaming = true;
}

/* Stops handing out events; `tell_sink`: the sink drops what it had.  The
 * parents resolved early are put back as they were, so that the end of the
 * parse resolves them (with its warnings) from what the file says. */
static void text1_stream_stop(text1_parser *p, bool tell_sink)
{
    p->streaming = false;
    if (p->direct) {
        p->direct = false;
        p->direct_to = p->d->timeline.count;
    }
    if (tell_sink)
        p->sink->abort(p->sink->user);
    if (p->stream_resolved) {
        for (size_t i = 0; i < p->saved_count; i++)
            p->d->areas[p->first_area + i].parent = p->saved_parent[i];
        p->stream_resolved = false;
    }
}


/* Events [0, count) are read: hand them out.  The first time, the parents
 * of the areas are resolved as the end of the parse will resolve them
 * (nothing can be added to the mapping while the stream lasts), without
 * warnings: those come at the end, in their place. */
static void text1_stream_events(text1_parser *p, size_t done)
{
    pv_wi_data *d = p->d;
    if (!p->stream_resolved) {
        p->saved_count = d->area_count - p->first_area;
        p->saved_parent = pv_xrealloc(p->saved_parent,
                                      (p->saved_count ? p->saved_count : 1) * sizeof(uint32_t));
        for (size_t i = 0; i < p->saved_count; i++)
            p->saved_parent[i] = d->areas[p->first_area + i].parent;
        size_t line = p->line;
        p->quiet = true;
        text1_resolve_areas(p);
        p->quiet = false;
        p->line = line;
        p->stream_resolved = true;
    }
    size_t count = d->timeline.count;
    p->stream_next = (count / p->stream_chunk + 1) * p->stream_chunk;
    if (!p->sink->events(p->sink->user, d, count, done))
        text1_stream_stop(p, false);
}

/* The field carrying `macro`, or NULL. */
static const text1_slice *text1_field(const text1_parser *p, unsigned macro)
{
    size_t i = p->tpl.field_of[macro];
    return i == SIZE_MAX ? NULL : &p->tpl.fields[i];
}

static uint32_t text1_pool_field(text1_parser *p, unsigned macro)
{
    const text1_slice *f = text1_field(p, macro);
    return f ? pv_strpool_add(&p->d->pool, f->s, f->n) : 0;
}

/* VALUE of a mapping or statistics row (docs/formats.md §1 decision): the decimal
 * line number of a line area, the hex state value of a state area; ignored
 * for other areas.  Returns false (after a warning) when it is malformed. */
static bool text1_area_value(text1_parser *p, uint32_t handle, bool *has, uint64_t *value)
{
    const text1_slice *f = text1_field(p, T1_VALUE);
    *has = false;
    *value = 0;
    if (!f || text1_is_empty(f))
        return true;
    unsigned type = pv_wi_handle_type(handle);
    if (type == PV_WI_LINE) {
        int64_t line;
        if (!text1_parse_dec(f->s, f->n, &line) || line < 0) {
            text1_warn_field(p, "bad line number", f);
            return false;
        }
        *value = (uint64_t)line;
        *has = true;
    } else if (type == PV_WI_STATE || type == PV_WI_AUX_STATE) {
        if (!text1_parse_hex(f->s, f->n, 16, value)) {
            text1_warn_field(p, "bad hex state value", f);
            return false;
        }
        *has = true;
    }
    return true;
}

static bool text1_handle(text1_parser *p, uint32_t *handle)
{
    const text1_slice *f = text1_field(p, T1_HANDLE);
    uint64_t h;
    if (!text1_parse_hex(f->s, f->n, 8, &h)) {
        text1_warn_field(p, "bad hex handle", f);
        return false;
    }
    *handle = (uint32_t)h;
    return true;
}

static void text1_entry_info(text1_parser *p)
{
    /* the window of a windowed export: empty for an open end */
    static const struct {
        unsigned macro;
        const char *what;
    } bounds[] = {{T1_WINDOW_FROM, "bad decimal WINDOW.FROM"}, {T1_WINDOW_TO, "bad decimal WINDOW.TO"}};
    for (size_t k = 0; k < PV_ARRAY_LEN(bounds); k++) {
        const text1_slice *w = text1_field(p, bounds[k].macro);
        int64_t t;
        if (!w || w->n == 0)
            continue;
        if (!text1_parse_dec(w->s, w->n, &t)) {
            text1_warn_field(p, bounds[k].what, w);
            continue;
        }
        if (k == 0) {
            p->d->has_window_from = true;
            p->d->window_from = t;
        } else {
            p->d->has_window_to = true;
            p->d->window_to = t;
        }
    }
    const text1_slice *f = text1_field(p, T1_TOTAL_TIME);
    if (!f)
        return;
    int64_t t;
    if (!text1_parse_dec(f->s, f->n, &t)) {
        text1_warn_field(p, "bad decimal TOTAL_TIME", f);
        return;
    }
    p->d->has_total_time = true;
    p->d->total_time = t;
}

static void text1_entry_context(text1_parser *p)
{
    const text1_slice *name = text1_field(p, T1_NAME);
    const text1_slice *hf = text1_field(p, T1_HANDLE);
    uint64_t handle = UINT64_MAX;
    if (hf && !text1_parse_hex(hf->s, hf->n, 16, &handle)) {
        text1_warn_field(p, "bad hex context handle", hf);
        return;
    }
    pv_wi_add_context(p->d, handle, name->s, name->n);
}

static void text1_entry_area(text1_parser *p)
{
    pv_wi_data *d = p->d;
    uint32_t handle;
    if (!text1_handle(p, &handle))
        return;
    bool has_value;
    uint64_t value;
    if (!text1_area_value(p, handle, &has_value, &value))
        return;
    const text1_slice *pf = text1_field(p, T1_HANDLE_PARENT);
    uint64_t parent = 0;
    bool has_parent = pf && !text1_is_empty(pf);
    if (has_parent && !text1_parse_hex(pf->s, pf->n, 8, &parent)) {
        text1_warn_field(p, "bad hex HANDLE.PARENT", pf);
        return;
    }
    const text1_slice *name = text1_field(p, T1_NAME);
    size_t index = pv_wi_add_area(d, handle, name ? name->s : NULL, name ? name->n : 0);
    pv_wi_area *a = &d->areas[index];
    a->file = text1_pool_field(p, T1_FILE);
    a->path = text1_pool_field(p, T1_PATH);
    a->value_type = text1_pool_field(p, T1_VALUE_TYPE);
    a->value_unit = text1_pool_field(p, T1_VALUE_UNIT);
    a->has_value = has_value;
    a->value = value;

    size_t slot = index - p->first_area;
    p->area_line = pv_xgrow(p->area_line, &p->area_line_cap, slot + 1, sizeof *p->area_line);
    p->area_line[slot] = p->line;

    /* docs/formats.md §1: a line's parent is HANDLE.PARENT when present, else
     * the nearest preceding type-0 row of the same HANDLE section.  Parent
     * handles are resolved once the whole file is read. */
    unsigned type = pv_wi_handle_type(handle);
    if (has_parent) {
        p->pending = pv_xgrow(p->pending, &p->pending_cap, p->pending_count + 1,
                              sizeof *p->pending);
        p->pending[p->pending_count++] =
            (text1_pending_parent){index, (uint32_t)parent, p->line,
                                   type == PV_WI_LINE ? p->last_function : PV_WI_NONE};
    } else if (type == PV_WI_LINE && p->last_function != PV_WI_NONE) {
        a->parent = (uint32_t)p->last_function;
    }
    if (type == PV_WI_FUNCTION)
        p->last_function = index;
}

static void text1_entry_stat(text1_parser *p)
{
    pv_wi_stat_row row;
    memset(&row, 0, sizeof row);
    if (!text1_handle(p, &row.handle))
        return;
    if (!text1_area_value(p, row.handle, &row.has_value, &row.value))
        return;
    const text1_slice *cf = text1_field(p, T1_COUNT);
    if (cf && !text1_is_empty(cf)) {
        if (!text1_parse_dec(cf->s, cf->n, &row.count)) {
            text1_warn_field(p, "bad decimal COUNT", cf);
            return;
        }
        row.has_count = true;
    }
    for (unsigned s = 0; s < PV_WI_STAT_COUNT; s++) {
        const text1_slice *tf = text1_field(p, T1_STAT_FIRST + s);
        if (!tf || text1_is_empty(tf))
            continue;
        if (!text1_parse_dec(tf->s, tf->n, &row.t[s])) {
            pv_buf what;
            pv_buf_init(&what);
            pv_buf_printf(&what, "bad decimal %s", pv_wi_stat_macro[s]);
            text1_warn_field(p, pv_buf_cstr(&what), tf);
            pv_buf_free(&what);
            return;
        }
        row.present |= 1u << s;
    }
    /* The section's CONTEXT(...) as written; a %CONTEXT% field of the line,
     * when it names one, is more specific. */
    row.context = p->context;
    const text1_slice *ctx = text1_field(p, T1_CONTEXT);
    if (ctx && !text1_is_empty(ctx))
        row.context = pv_strpool_add(&p->d->pool, ctx->s, ctx->n);
    if (p->area_class >= 0) {
        row.area_class = (uint8_t)p->area_class;
    } else {
        unsigned type = pv_wi_handle_type(row.handle);
        row.area_class = (uint8_t)(type <= PV_WI_LINE ? 0 : type <= PV_WI_STATE ? 1 : 2);
    }
    *pv_wi_add_stat(p->d) = row;
}

/* The index of the distinct timeline context name s[0..n), adding it. */
static size_t text1_context_name_id(text1_parser *p, const char *s, size_t n)
{
    if (p->last_ctx != SIZE_MAX) {
        const text1_context_name *c = &p->ctx_names[p->last_ctx];
        if (c->len == n && memcmp(p->names + c->off, s, n) == 0)
            return p->last_ctx;
    }
    uint64_t h = pv_hash_bytes(s, n);
    if (p->ctx_name_count * 2 >= p->ctx_table_cap) {
        size_t cap = p->ctx_table_cap ? p->ctx_table_cap * 2 : 64;
        uint32_t *table = pv_xcalloc(cap, sizeof *table);
        for (size_t i = 0; i < p->ctx_name_count; i++) {
            size_t slot = (size_t)p->ctx_names[i].hash & (cap - 1);
            while (table[slot])
                slot = (slot + 1) & (cap - 1);
            table[slot] = (uint32_t)i + 1;
        }
        free(p->ctx_table);
        p->ctx_table = table;
        p->ctx_table_cap = cap;
    }
    size_t slot = (size_t)h & (p->ctx_table_cap - 1);
    while (p->ctx_table[slot]) {
        size_t id = p->ctx_table[slot] - 1;
        const text1_context_name *c = &p->ctx_names[id];
        if (c->hash == h && c->len == n && memcmp(p->names + c->off, s, n) == 0)
            return p->last_ctx = id;
        slot = (slot + 1) & (p->ctx_table_cap - 1);
    }
    p->names = pv_xgrow(p->names, &p->names_cap, p->names_len + n + 1, 1);
    memcpy(p->names + p->names_len, s, n);
    p->ctx_names = pv_xgrow(p->ctx_names, &p->ctx_name_cap, p->ctx_name_count + 1,
                            sizeof *p->ctx_names);
    p->ctx_names[p->ctx_name_count] = (text1_context_name){
        p->names_len, n, h,
        p->direct ? text1_context_named(p->d, p->d->context_count, s, n) : SIZE_MAX};
    p->names_len += n;
    p->ctx_table[slot] = (uint32_t)p->ctx_name_count + 1;
    return p->last_ctx = p->ctx_name_count++;
}

/* Appends the per-event context entry that goes with the event just added:
 * `id` is a distinct-name index (remapped to a context at the end), or
 * UINT16_MAX when the line named none. */
static void text1_push_text_context(text1_parser *p, uint16_t id)
{
    pv_wi_timeline *tl = &p->d->timeline;
    if (!tl->text_context) {
        /* while the events are handed out, room for all of them: an index
         * reads the list, which must not move */
        p->text_context_cap = 0;
        tl->text_context = pv_xgrow(NULL, &p->text_context_cap,
                                    p->streaming ? tl->owned_cap : tl->count, sizeof(uint16_t));
        for (size_t i = 0; i + 1 < tl->count; i++)
            tl->text_context[i] = UINT16_MAX;
    } else if (tl->count > p->text_context_cap) {
        tl->text_context = pv_xgrow(tl->text_context, &p->text_context_cap, tl->count,
                                    sizeof(uint16_t));
    }
    tl->text_context[tl->count - 1] = id;
}

static inline void text1_put_le32(unsigned char *r, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(r, &v, 4); /* one store instead of a byte loop */
#else
    for (int b = 0; b < 4; b++)
        r[b] = (unsigned char)(v >> (8 * b));
#endif
}

static inline void text1_put_le64(unsigned char *r, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(r, &v, 8);
#else
    for (int b = 0; b < 8; b++)
        r[b] = (unsigned char)(v >> (8 * b));
#endif
}

/* pv_wi_add_event, inlined for the TIMELINE fast path: the same v1.1
 * record (winidea.h: a text timeline is always built in the v1.1 layout,
 * core unknown), with the capacity grown in large steps. */
static inline void text1_store_event(text1_parser *p, uint32_t handle, unsigned kind,
                                     uint64_t data, int64_t time)
{
    pv_wi_timeline *tl = &p->d->timeline;
    if (tl->count == tl->owned_cap) {
        if (p->streaming)
            text1_stream_stop(p, true); /* cannot happen (the room is a bound): the records move */
        /* from 256 records up, doubling: a small file takes no 1.5 MB */
        size_t cap = tl->owned_cap;
        tl->owned = pv_xgrow(tl->owned, &cap, tl->count + (tl->count < 65536 ? 256 : 65536),
                             PV_WI_RECORD_SIZE);
        tl->owned_cap = cap;
        /* set here only: an index may be reading them (pv_wi_text1_sink) */
        tl->records = tl->owned;
        tl->version = 11;
    }
    /* the next 65536 records (1.5 MB) are about to be written: one call maps
     * their pages instead of 384 page faults */
    if ((tl->count & 0xFFFF) == 0) {
        size_t ahead = tl->owned_cap - tl->count < 65536 ? tl->owned_cap - tl->count : 65536;
        if (p->streaming && p->sink->map) /* the index worker may have mapped them */
            p->sink->map(p->sink->user, tl->owned, tl->count, ahead);
        else
            pv_prefault(tl->owned + tl->count * PV_WI_RECORD_SIZE, ahead * PV_WI_RECORD_SIZE);
    }
    unsigned char *r = tl->owned + tl->count * PV_WI_RECORD_SIZE;
    text1_put_le32(r, handle);
    text1_put_le32(r + 4, (kind & 0xFu) | (PV_WI_CORE_UNKNOWN << 4));
    text1_put_le64(r + 8, data);
    text1_put_le64(r + 16, (uint64_t)time);
    tl->count++;
}

/* Appends one event and, when the section (or an earlier one) has a
 * %CONTEXT% field, its context name. */
static void text1_add_event(text1_parser *p, uint32_t handle, unsigned kind, uint64_t value,
                            int64_t time, const char *ctx, size_t ctx_len, bool has_ctx_field)
{
    text1_store_event(p, handle, kind, value, time);
    text1_note_event(p, handle, kind, p->d->timeline.count - 1);
    if (!has_ctx_field && !p->d->timeline.text_context)
        return;
    uint16_t id = UINT16_MAX;
    if (ctx) {
        size_t name = text1_context_name_id(p, ctx, ctx_len);
        if (name < UINT16_MAX)
            id = (uint16_t)name;
        else if (name == UINT16_MAX)
            text1_warn(p, "more than %u distinct context names; this one is not kept",
                       UINT16_MAX - 1u);
        if (p->direct && id != UINT16_MAX) {
            size_t c = p->ctx_names[name].direct;
            if (c != SIZE_MAX) {
                id = c < UINT16_MAX ? (uint16_t)c : UINT16_MAX; /* as the end would map it */
            } else {
                /* found otherwise, or a new context: this event's name and
                 * the rest are resolved after the whole file, and indexed then */
                p->direct = false;
                p->direct_to = p->d->timeline.count - 1;
                text1_stream_stop(p, true);
            }
        }
    }
    text1_push_text_context(p, id);
}

static void text1_entry_event(text1_parser *p)
{
    const text1_template *t = &p->tpl;
    const text1_slice *hf = &t->fields[t->field_of[T1_HANDLE]];
    const text1_slice *ef = &t->fields[t->field_of[T1_EVENT]];
    const text1_slice *tf = &t->fields[t->field_of[T1_TIME]];
    uint64_t handle;
    if (!text1_parse_hex(hf->s, hf->n, 8, &handle)) {
        text1_warn_field(p, "bad hex handle", hf);
        return;
    }
    const char *ev = ef->s;
    size_t ev_len = ef->n;
    text1_trim(&ev, &ev_len);
    unsigned char code = ev_len == 1 ? text1_event_code(ev[0]) : 0;
    if (!code) {
        text1_warn_field(p, "unknown event (not E, S, R, X or W)", ef);
        return;
    }
    /* VALUE is 8 hex digits or empty; DATA is 64-bit, so up to 16 are read. */
    uint64_t value = 0;
    size_t vi = t->field_of[T1_VALUE];
    if (vi != SIZE_MAX && t->fields[vi].n > 0 &&
        !text1_parse_hex(t->fields[vi].s, t->fields[vi].n, 16, &value)) {
        if (!text1_is_empty(&t->fields[vi])) {
            text1_warn_field(p, "bad hex value", &t->fields[vi]);
            return;
        }
        value = 0;
    }
    int64_t time;
    if (!text1_parse_dec(tf->s, tf->n, &time)) {
        text1_warn_field(p, "bad decimal time", tf);
        return;
    }
    size_t ci = t->field_of[T1_CONTEXT];
    const text1_slice *cf = ci != SIZE_MAX && !text1_is_empty(&t->fields[ci]) ? &t->fields[ci]
                                                                               : NULL;
    text1_add_event(p, (uint32_t)handle, code - 1u, value, time, cf ? cf->s : NULL,
                    cf ? cf->n : 0, ci != SIZE_MAX);
}

/* The fast path for the usual TIMELINE line (docs/quality.md: 400 MB/s):
 * with a template of single-character separators and no free text, read
 * the fields in one forward scan, parsing numbers as the bytes go by,
 * without finding the line end first.  Returns the start of the next line,
 * or NULL when the line is anything unusual (blanks, a header, a bad or
 * long number): then the general path reads it and says what is wrong. */
static inline uint64_t text1_load8(const char *s);
static inline bool text1_hex8(uint64_t x, uint64_t *out);
static inline bool text1_dec8(uint64_t x, uint64_t *out);

/* Where in the 8 characters of x the first byte equal to a or b is, 8 when
 * none is (x as text1_load8 reads it). */
static inline unsigned text1_find2(uint64_t x, unsigned char a, unsigned char b)
{
    uint64_t xa = x ^ (a * UINT64_C(0x0101010101010101));
    uint64_t xb = x ^ (b * UINT64_C(0x0101010101010101));
    /* a byte that is zero: (v - 1) & ~v has its high bit set, exactly for
     * the first such byte and maybe for bytes after it (borrows) */
    uint64_t za = (xa - UINT64_C(0x0101010101010101)) & ~xa;
    uint64_t zb = (xb - UINT64_C(0x0101010101010101)) & ~xb;
    uint64_t z = (za | zb) & UINT64_C(0x8080808080808080);
    return z ? (unsigned)__builtin_ctzll(z) / 8 : 8;
}

/* The generic fast path reads 8 bytes at once while this many follow the
 * bytes it is at (more than it reads beyond them). */
#define TEXT1_FAST_ROOM 16

static const char *text1_fast_event(text1_parser *p, const char *s, const char *end)
{
    const text1_template *t = &p->tpl;
    uint64_t handle = 0, value = 0;
    int64_t time = 0;
    unsigned code = 0;
    const char *ctx = NULL;
    size_t ctx_len = 0;
    const char *q = s;
    const unsigned char *macros = p->fast_macro;
    const char *seps = p->fast_sep;
    for (size_t i = 0, count = t->count; i < count; i++) {
        bool last = i + 1 == count;
        char sep = seps[i];
        unsigned macro = macros[i];
        if (macro == T1_HANDLE || macro == T1_VALUE) {
            const char *start = q;
            uint64_t v = 0;
            int digit;
            if (end - q >= TEXT1_FAST_ROOM && text1_hex8(text1_load8(q), &v))
                q += 8; /* the usual 8 digits at once; any more one by one */
            while (q < end && (digit = text1_hex_digit[(unsigned char)*q]) != 0) {
                v = v << 4 | (uint64_t)(digit - 1);
                q++;
            }
            size_t digits = (size_t)(q - start);
            if (macro == T1_HANDLE ? (digits == 0 || digits > 8) : digits > 16)
                return NULL;
            if (macro == T1_HANDLE)
                handle = v;
            else
                value = v;
        } else if (macro == T1_EVENT) {
            if (q >= end || !(code = text1_event_code(*q)))
                return NULL;
            q++;
        } else if (macro == T1_TIME) {
            bool negative = q < end && *q == '-';
            q += negative;
            const char *start = q;
            uint64_t v = 0;
            if (end - q >= TEXT1_FAST_ROOM && text1_dec8(text1_load8(q), &v))
                q += 8;
            while (q < end && (unsigned)(unsigned char)*q - '0' <= 9 && q - start < 19)
                v = v * 10 + (unsigned)(unsigned char)*q++ - '0';
            /* 18 digits cannot overflow; longer numbers take the checked path */
            if (q == start || q - start > 18)
                return NULL;
            time = negative ? -(int64_t)v : (int64_t)v;
        } else {
            const char *start = q;
            unsigned k = 8;
            while (k == 8 && end - q >= TEXT1_FAST_ROOM) {
                k = text1_find2(text1_load8(q), (unsigned char)sep, '\n');
                q += k;
            }
            while (q < end && *q != sep && *q != '\n')
                q++;
            if (macro == T1_CONTEXT) {
                const char *stop = q;
                while (stop > start && (stop[-1] == '\r' || text1_is_blank(stop[-1])))
                    stop--;
                ctx = start;
                ctx_len = (size_t)(stop - start);
            }
        }
        if (!last) {
            if (q >= end || *q != sep)
                return NULL;
            q++;
        }
    }
    if (q < end && *q == '\r')
        q++;
    if (q < end && *q != '\n')
        return NULL;
    text1_add_event(p, (uint32_t)handle, code - 1u, value, time, ctx_len ? ctx : NULL, ctx_len,
                    t->field_of[T1_CONTEXT] != SIZE_MAX);
    return q < end ? q + 1 : end;
}

/* ---- the seed's layout, eight bytes at a time */

/* The 8 bytes at s as a little-endian number: byte i (the i-th character)
 * in bits 8i..8i+7. */
static inline uint64_t text1_load8(const char *s)
{
    uint64_t x;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&x, s, 8);
#else
    x = 0;
    for (int b = 7; b >= 0; b--)
        x = x << 8 | (unsigned char)s[b];
#endif
    return x;
}

#define TEXT1_ONES UINT64_C(0x0101010101010101)
#define TEXT1_HIGH UINT64_C(0x8080808080808080)

/* Whether each of the 8 characters in x is a hex digit (0-9, A-F, a-f);
 * then *out is their value, the first character the most significant. */
static inline bool text1_hex8(uint64_t x, uint64_t *out)
{
    if (x & TEXT1_HIGH)
        return false;
    /* per byte b < 0x80: b + (0x80 - lo) has its high bit set iff b >= lo,
     * and no byte carries into the next */
    uint64_t digit = (x + (0x80 - '0') * TEXT1_ONES) & ~(x + (0x80 - '9' - 1) * TEXT1_ONES);
    uint64_t lower = x | 0x20 * TEXT1_ONES;
    uint64_t letter =
        (lower + (0x80 - 'a') * TEXT1_ONES) & ~(lower + (0x80 - 'f' - 1) * TEXT1_ONES);
    if (((digit | letter) & TEXT1_HIGH) != TEXT1_HIGH)
        return false;
    /* a digit's value is its low nibble; a letter's (bit 6 set) that plus 9 */
    uint64_t v = (x & 0x0F * TEXT1_ONES) + 9 * ((x >> 6) & TEXT1_ONES);
    v = (v * 16 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);       /* two digits per 16 bits */
    v = ((v << 8) + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);    /* four per 32 bits */
    *out = ((v << 16) + (v >> 32)) & UINT64_C(0xFFFFFFFF);
    return true;
}

/* Whether each of the 8 characters in x is a decimal digit; then *out is
 * their value, the first character the most significant. */
static inline bool text1_dec8(uint64_t x, uint64_t *out)
{
    /* 0x30..0x39: high nibble 3, and adding 6 keeps it 3 */
    if ((x & 0xF0 * TEXT1_ONES) != 0x30 * TEXT1_ONES ||
        ((x + 0x06 * TEXT1_ONES) & 0xF0 * TEXT1_ONES) != 0x30 * TEXT1_ONES)
        return false;
    uint64_t v = x - 0x30 * TEXT1_ONES;
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);      /* 0..99 per 16 bits */
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);    /* 0..9999 per 32 bits */
    *out = (v * 10000 + (v >> 32)) & UINT64_C(0xFFFFFFFF);
    return true;
}

/* Up to `max` hex digits at *q (advanced past them); -1 for more than max. */
static inline int text1_hex_run(const char **q, int max, uint64_t *out)
{
    const char *s = *q;
    uint64_t v;
    if (max >= 8 && text1_hex8(text1_load8(s), &v)) {
        s += 8;
    } else {
        v = 0;
    }
    int digit;
    while ((digit = text1_hex_digit[(unsigned char)*s]) != 0) {
        if (s - *q >= max)
            return -1;
        v = v << 4 | (uint64_t)(digit - 1);
        s++;
    }
    int n = (int)(s - *q);
    *q = s;
    *out = v;
    return n;
}

/* What the seed layout's paths may read past a line's start without a
 * bound check (text1_seed_event, text1_seed_run). */
#define TEXT1_SEED_ROOM 64

/* A seed-layout time at *qp: '-' when negative, then at most 18 decimal
 * digits (they cannot overflow; longer numbers take the checked path),
 * the first 8 read at once (the caller keeps TEXT1_SEED_ROOM bytes after
 * the line's start). False when there are none or more than 18; else
 * *qp is past them. */
static inline bool text1_seed_time(const char **qp, int64_t *time)
{
    const char *q = *qp;
    bool negative = *q == '-';
    q += negative;
    const char *start = q;
    uint64_t v = 0;
    if (text1_dec8(text1_load8(q), &v))
        q += 8;
    unsigned d;
    while ((d = (unsigned)(unsigned char)*q - '0') <= 9 && q - start < 19) {
        v = v * 10 + d;
        q++;
    }
    if (q == start || q - start > 18)
        return false;
    *time = negative ? -(int64_t)v : (int64_t)v;
    *qp = q;
    return true;
}

/* The seed's layout, %HANDLE%,%EVENT%,%VALUE%,%TIME% (any single-character
 * separators text1_fast_template accepts), with no bound checks per byte:
 * the caller guarantees TEXT1_SEED_ROOM bytes after s, more than this path
 * reads of any line (at most 9 + 2 + 2 + 17 + 1 + 1 + 19 + 2 bytes, and 8
 * at once from inside those).  It accepts a subset of what
 * text1_fast_event accepts and reads it the same way; NULL hands the line
 * to text1_fast_event. */
static const char *text1_seed_event(text1_parser *p, const char *s)
{
    const char *q = s;
    uint64_t handle, value;
    int n = text1_hex_run(&q, 8, &handle);
    if (n <= 0 || *q != p->seed_sep[0])
        return NULL;
    unsigned code = text1_event_code(q[1]);
    if (!code || q[2] != p->seed_sep[1])
        return NULL;
    q += 3;
    if (*q == p->seed_sep[2]) {
        value = 0;
    } else if (text1_hex_run(&q, 16, &value) < 0 || *q != p->seed_sep[2]) {
        return NULL;
    }
    q++;
    int64_t time;
    if (!text1_seed_time(&q, &time))
        return NULL;
    q += *q == '\r';
    if (*q != '\n')
        return NULL;
    /* text1_add_event with no context field, inlined */
    unsigned kind = code - 1u;
    text1_store_event(p, (uint32_t)handle, kind, value, time);
    text1_note_event(p, (uint32_t)handle, kind, p->d->timeline.count - 1);
    if (p->d->timeline.text_context)
        text1_push_text_context(p, UINT16_MAX);
    return q + 1;
}

/* The most lines text1_seed_run may read after the event just stored: it
 * stops before the next event that maps a new block of records
 * (text1_store_event), the next hand-over to the sink and the next line
 * that reports progress, which the main loop does as after any line. */
static size_t text1_seed_run_room(const text1_parser *p)
{
    const pv_wi_timeline *tl = &p->d->timeline;
    if (tl->text_context || (tl->count & 0xFFFF) == 0 || (p->line & 0xFFFF) == 0 ||
        (p->streaming && p->stream_next <= tl->count))
        return 0;
    size_t room = 0x10000 - (tl->count & 0xFFFF);
    size_t lines = 0xFFFF - (p->line & 0xFFFF);
    if (lines < room)
        room = lines;
    if (tl->owned_cap - tl->count < room)
        room = tl->owned_cap - tl->count;
    if (p->streaming && p->stream_next - tl->count < room)
        room = p->stream_next - tl->count;
    return room;
}

/* Lines of the seed's layout one after the other, at most `room` of them
 * (text1_seed_run_room) and while TEXT1_SEED_ROOM bytes follow, with the
 * records and the count in locals: a handle of exactly 8 hex
 * digits, an empty or 8-digit value, a time of 1 to 18 digits, a bare line
 * feed.  It stops at the first line that is anything else (before reading
 * it: text1_seed_event and the paths after it read that one) and returns
 * where it stopped.  What it reads is what text1_seed_event would. */
static const char *text1_seed_run(text1_parser *p, const char *s, const char *end, size_t room)
{
    pv_wi_timeline *tl = &p->d->timeline;
    unsigned char *const first = tl->owned + tl->count * PV_WI_RECORD_SIZE;
    unsigned char *r = first;
    unsigned char *const last = first + room * PV_WI_RECORD_SIZE;
    const char *const stop = end - TEXT1_SEED_ROOM;
    const char sep0 = p->seed_sep[0], sep1 = p->seed_sep[1], sep2 = p->seed_sep[2];
    while (r < last && s <= stop) {
        const char *q = s;
        uint64_t handle, value = 0;
        if (!text1_hex8(text1_load8(q), &handle) || q[8] != sep0)
            break;
        unsigned code = text1_event_code(q[9]);
        if (!code || q[10] != sep1)
            break;
        q += 11;
        if (*q != sep2) {
            if (!text1_hex8(text1_load8(q), &value) || q[8] != sep2)
                break;
            q += 8;
        }
        q++;
        int64_t time;
        if (!text1_seed_time(&q, &time) || *q != '\n')
            break;
        unsigned kind = code - 1u;
        if (kind == PV_WI_WRITE || kind == PV_WI_ENTRY) /* text1_note_event */
            text1_note_event(p, (uint32_t)handle, kind,
                             tl->count + (size_t)(r - first) / PV_WI_RECORD_SIZE);
        text1_put_le32(r, (uint32_t)handle);
        text1_put_le32(r + 4, (kind & 0xFu) | (PV_WI_CORE_UNKNOWN << 4));
        text1_put_le64(r + 8, value);
        text1_put_le64(r + 16, (uint64_t)time);
        r += PV_WI_RECORD_SIZE;
        s = q + 1;
    }
    size_t n = (size_t)(r - first) / PV_WI_RECORD_SIZE;
    tl->count += n;
    p->line += n;
    return s;
}

static void text1_entry(text1_parser *p, const char *s, size_t n)
{
    if (p->kind == SECTION_OPAQUE) {
        text1_section_keep_line(p, s, n);
        return;
    }
    size_t missing;
    if (!text1_template_match(&p->tpl, s, n, &missing)) {
        pv_buf q;
        pv_buf_init(&q);
        const text1_template *t = &p->tpl;
        if (missing == 0)
            text1_warn(p, "does not fit the section format: it does not start with %s; line "
                          "skipped",
                       text1_quote(&q, text1_lit(t, 0), t->lit_len[0]));
        else if (missing == t->count)
            text1_warn(p, "does not fit the section format: it does not end with %s; line "
                          "skipped",
                       text1_quote(&q, text1_lit(t, missing), t->lit_len[missing]));
        else
            text1_warn(p, "missing fields: no %s after %s; line skipped",
                       text1_quote(&q, text1_lit(t, missing), t->lit_len[missing]),
                       text1_macro_name(t->macro[missing - 1]));
        pv_buf_free(&q);
        return;
    }
    if (text1_match_ambiguous(&p->tpl))
        text1_warn(p, "two free-text fields and the separator occurs in both: the first took "
                      "the shortest match");
    size_t before_events = p->d->timeline.count, before_areas = p->d->area_count;
    size_t before_stats = p->d->stat_count, before_contexts = p->d->context_count;
    switch (p->kind) {
    case SECTION_INFO: text1_entry_info(p); break;
    case SECTION_CONTEXTS: text1_entry_context(p); break;
    case SECTION_HANDLE: text1_entry_area(p); break;
    case SECTION_STATISTICS: text1_entry_stat(p); break;
    case SECTION_TIMELINE: text1_entry_event(p); break;
    default: break;
    }
    /* Keep exactly the lines that were read, so lines[i] is entry i. */
    if (p->keep_lines && (p->kind == SECTION_INFO || p->d->timeline.count != before_events ||
                          p->d->area_count != before_areas || p->d->stat_count != before_stats ||
                          p->d->context_count != before_contexts))
        text1_section_keep_line(p, s, n);
}

static void text1_parser_free(text1_parser *p)
{
    text1_template_free(&p->tpl);
    free(p->area_line);
    free(p->pending);
    free(p->names);
    free(p->ctx_names);
    free(p->ctx_table);
    free(p->saved_parent);
    free(p->fast_macro);
    free(p->fast_sep);
    pv_hashmap_free(&p->first_write);
}

static atomic_size_t text1_parses;

size_t pv_wi_text1_parse_count(void)
{
    return atomic_load(&text1_parses);
}

bool pv_wi_parse_text1(const char *path, const unsigned char *buf, size_t len, pv_wi_data *d,
                       pv_diag *diag)
{
    return pv_wi_parse_text1_progress(path, buf, len, d, diag, NULL);
}

bool pv_wi_parse_text1_progress(const char *path, const unsigned char *buf, size_t len,
                                pv_wi_data *d, pv_diag *diag, const pv_progress *progress)
{
    return pv_wi_parse_text1_sink(path, buf, len, d, diag, progress, NULL);
}

bool pv_wi_parse_text1_sink(const char *path, const unsigned char *buf, size_t len,
                            pv_wi_data *d, pv_diag *diag, const pv_progress *progress,
                            const pv_wi_text1_sink *sink)
{
    atomic_fetch_add(&text1_parses, 1);
    text1_parser p;
    memset(&p, 0, sizeof p);
    p.sink = sink;
    p.path = path;
    p.d = d;
    p.diag = diag;
    p.kind = SECTION_NONE;
    p.first_area = d->area_count;
    p.last_ctx = SIZE_MAX;
    pv_hashmap_init(&p.first_write);
    size_t first_event = d->timeline.count;
    size_t stray_lines = 0, first_stray = 0;

    const char *s = (const char *)buf;
    const char *end = s + len;
    if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3;
    bool cancelled = false;
    while (s < end) {
        p.line++;
        if (p.fast) {
            const char *next = NULL;
            if (p.seed && end - s >= TEXT1_SEED_ROOM) {
                next = text1_seed_event(&p, s);
                size_t room = next ? text1_seed_run_room(&p) : 0;
                if (room > 0)
                    next = text1_seed_run(&p, next, end, room);
            }
            if (!next)
                next = text1_fast_event(&p, s, end);
            if (next) {
                s = next;
                if (p.streaming && d->timeline.count >= p.stream_next)
                    text1_stream_events(&p, (size_t)(s - (const char *)buf));
                if ((p.line & 0xFFFF) == 0 && progress &&
                    !pv_progress_step(progress, "reading Text1",
                                      (uint64_t)(s - (const char *)buf), len)) {
                    cancelled = true;
                    break;
                }
                continue;
            }
        }
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *line_end = nl ? nl : end;
        const char *a = s;
        s = nl ? nl + 1 : end;
        while (a < line_end && text1_is_blank(*a))
            a++;
        const char *b = line_end;
        while (b > a && (b[-1] == '\r' || text1_is_blank(b[-1])))
            b--;
        if (a == b) {
            if (d->section_count > 0)
                d->sections[d->section_count - 1].blank_after++;
            continue;
        }
        size_t n = (size_t)(b - a);
        if (a[0] == '*' && n >= 2 && text1_is_blank(a[1])) {
            text1_begin_section(&p, a, n, (size_t)(end - s));
        } else if (p.kind == SECTION_NONE) {
            if (stray_lines++ == 0)
                first_stray = p.line;
        } else {
            text1_entry(&p, a, n);
            if (p.streaming && d->timeline.count >= p.stream_next)
                text1_stream_events(&p, (size_t)(s - (const char *)buf));
        }
        if ((p.line & 0xFFFF) == 0 && progress &&
            !pv_progress_step(progress, "reading Text1", (uint64_t)(s - (const char *)buf),
                              len)) {
            cancelled = true;
            break;
        }
    }
    if (cancelled) {
        pv_error(diag, "%s:%zu: cancelled", path, p.line);
        text1_parser_free(&p);
        return false;
    }
    if (p.sections_seen == 0) {
        pv_error(diag, "%s:1: not a winIDEA Text1 file: no '* SECTION' header line", path);
        text1_parser_free(&p);
        return false;
    }
    if (stray_lines > 0) {
        p.line = first_stray;
        text1_warn(&p, "%zu line%s before the first section header; ignored", stray_lines,
                   stray_lines == 1 ? "" : "s");
    }
    if (p.direct) { /* handed out to the end */
        p.direct = false;
        p.direct_to = d->timeline.count;
    }
    text1_resolve_areas(&p);
    text1_resolve_contexts(&p, first_event);
    text1_detect_state_style(&p, first_event);
    text1_parser_free(&p);
    return true;
}

int pv_wi_text1_probe(const unsigned char *head, size_t len)
{
    const char *s = (const char *)head;
    const char *end = s + len;
    if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3;
    bool first = true;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *line_end = nl ? nl : end;
        const char *a = s;
        s = nl ? nl + 1 : end;
        while (a < line_end && (text1_is_blank(*a) || *a == '\r'))
            a++;
        if (a == line_end)
            continue;
        bool header = line_end - a >= 2 && a[0] == '*' && text1_is_blank(a[1]);
        if (!header)
            return 0; /* an entry before any header (or after an unknown one): not ours */
        a += 2;
        while (a < line_end && text1_is_blank(*a))
            a++;
        const char *w = a;
        while (a < line_end && text1_is_word_char(*a))
            a++;
        bool known = text1_section_kind(w, (size_t)(a - w)) != SECTION_OPAQUE &&
                     (a == line_end || *a == '(' || text1_is_blank(*a) || *a == '\r');
        if (known)
            return first ? 90 : 60;
        if (!first)
            return 0;
        first = false;
        /* An unknown first section: look for the next header within head. */
        while (s < end) {
            nl = memchr(s, '\n', (size_t)(end - s));
            const char *next = nl ? nl + 1 : end;
            const char *c = s;
            while (c < next && text1_is_blank(*c))
                c++;
            if (next - c >= 2 && c[0] == '*' && text1_is_blank(c[1]))
                break;
            s = next;
        }
    }
    return 0;
}
