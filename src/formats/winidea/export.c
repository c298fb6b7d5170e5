/*
 * export.c - winIDEA's own export formats (docs/export.md): a Text1 file
 * (INFO, CONTEXTS, HANDLE(...), STATISTICS, TIMELINE) and a BIN timeline
 * (v1.0 or v1.1) with its Text1 mapping, written from the raw data
 * (winidea.h) and the timeline index (timeline.h), never from the file.
 *
 * Two ways of writing Text1:
 *  - as read: an unrestricted export of a Text1 input, without a profile,
 *    writes every section the input had, in its order, under its own header,
 *    with the entries it read (unknown sections and lines with unknown
 *    macros as they were kept): the file comes back byte for byte, apart
 *    from line endings (LF).
 *  - generated: a window, a context or area restriction, a profile or an
 *    input without Text1 writes the sections of the profile (macros per
 *    section, docs/export.md), the STATISTICS of the index (over the window
 *    it was loaded with) for what is kept, and the kept events in file order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "formats/winidea/export_internal.h"
#include "profview/hooks.h"

static const struct {
    const char *key;    /* the profile's key */
    const char *header; /* the header before the format */
    const char *format; /* the default: the vendor document's examples */
} wx_sections[WX_SECTION_COUNT] = {
    {"info", "INFO", "%TOTAL_TIME%"},
    {"contexts", "CONTEXTS", "%NAME%,%HANDLE%"},
    {"functions", "HANDLE(Functions)", "%HANDLE%,%NAME%,%VALUE%"},
    {"data", "HANDLE(Data)", "%HANDLE%,%NAME%,%VALUE%"},
    {"aux", "HANDLE(AUX)", "%HANDLE%,%NAME%,%VALUE%"},
    {"statistics", "STATISTICS",
     "%HANDLE%,%VALUE%,%COUNT%,%T.NET%,%T.NET.MIN%,%T.NET.MAX%,%T.NET.AVG%,%T.GROSS%,"
     "%T.GROSS.MIN%,%T.GROSS.MAX%,%T.GROSS.AVG%,%T.CALL%,%T.CALL.MIN%,%T.CALL.MAX%,"
     "%T.CALL.AVG%,%T.PERIOD.MIN%,%T.PERIOD.MAX%,%T.PERIOD.AVG%,%T.OUTSIDE%,%T.OUTSIDE.MIN%,"
     "%T.OUTSIDE.MAX%,%T.OUTSIDE.AVG%"},
    {"timeline", "TIMELINE", "%HANDLE%,%EVENT%,%VALUE%,%TIME%"},
};

static void wx_profile_free(wx_profile *p)
{
    for (size_t i = 0; i < WX_SECTION_COUNT; i++)
        free(p->format[i]);
}

/* Reads a profile: a YAML mapping of section keys to format strings; keys
 * not given keep the default.  Returns false with a message (file, line,
 * reason) in err. */
static bool wx_profile_load(wx_profile *p, const char *path, pv_diag *err)
{
    for (size_t i = 0; i < WX_SECTION_COUNT; i++)
        p->format[i] = pv_xstrdup(wx_sections[i].format);
    if (!path)
        return true;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        pv_error(err, "%s: cannot read the export profile: %s", path, strerror(errno));
        return false;
    }
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, fp);
    bool ok = true, in_map = false, done = false;
    char *key = NULL;
    while (ok && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            pv_error(err, "%s:%zu: %s", path, parser.problem_mark.line + 1,
                     parser.problem ? parser.problem : "bad YAML");
            ok = false;
            break;
        }
        switch (ev.type) {
        case YAML_MAPPING_START_EVENT:
            if (in_map) {
                pv_error(err, "%s:%zu: a section's value is a format string, not a mapping",
                         path, ev.start_mark.line + 1);
                ok = false;
            }
            in_map = true;
            break;
        case YAML_SCALAR_EVENT: {
            const char *v = (const char *)ev.data.scalar.value;
            if (!in_map) {
                pv_error(err, "%s:%zu: the profile is a mapping of sections to formats", path,
                         ev.start_mark.line + 1);
                ok = false;
            } else if (!key) {
                key = pv_xstrdup(v);
            } else {
                size_t s = 0;
                while (s < WX_SECTION_COUNT && strcasecmp(key, wx_sections[s].key) != 0)
                    s++;
                if (s == WX_SECTION_COUNT) {
                    pv_error(err, "%s:%zu: unknown section '%s' (info, contexts, functions, "
                                  "data, aux, statistics, timeline)",
                             path, ev.start_mark.line + 1, key);
                    ok = false;
                } else if (!strchr(v, '%')) {
                    pv_error(err, "%s:%zu: the format of '%s' has no %%MACRO%%", path,
                             ev.start_mark.line + 1, key);
                    ok = false;
                } else {
                    free(p->format[s]);
                    p->format[s] = pv_xstrdup(v);
                }
                free(key);
                key = NULL;
            }
            break;
        }
        case YAML_SEQUENCE_START_EVENT:
            pv_error(err, "%s:%zu: a section's value is a format string, not a list", path,
                     ev.start_mark.line + 1);
            ok = false;
            break;
        case YAML_STREAM_END_EVENT: done = true; break;
        default: break;
        }
        yaml_event_delete(&ev);
    }
    free(key);
    yaml_parser_delete(&parser);
    fclose(fp);
    return ok;
}

/* ---- format strings: literal text and %MACRO% fields */

enum {
    WM_LITERAL,
    WM_UNKNOWN,
    WM_HANDLE,
    WM_HANDLE_PARENT,
    WM_NAME,
    WM_NAME_PARENT,
    WM_VALUE,
    WM_VALUE_TYPE,
    WM_VALUE_UNIT,
    WM_FILE,
    WM_PATH,
    WM_CONTEXT,
    WM_COUNT,
    WM_EVENT,
    WM_TIME,
    WM_TOTAL_TIME,
    WM_WINDOW_FROM,
    WM_WINDOW_TO,
    WM_STAT_FIRST,
};

static const struct {
    const char *name;
    unsigned macro;
} wx_macros[] = {
    {"HANDLE", WM_HANDLE},         {"HANDLE.PARENT", WM_HANDLE_PARENT},
    {"NAME", WM_NAME},             {"NAME.PARENT", WM_NAME_PARENT},
    {"VALUE", WM_VALUE},           {"VALUE.TYPE", WM_VALUE_TYPE},
    {"VALUE.UNIT", WM_VALUE_UNIT}, {"FILE", WM_FILE},
    {"PATH", WM_PATH},             {"CONTEXT", WM_CONTEXT},
    {"COUNT", WM_COUNT},           {"EVENT", WM_EVENT},
    {"TIME", WM_TIME},             {"TOTAL_TIME", WM_TOTAL_TIME},
    {"WINDOW.FROM", WM_WINDOW_FROM}, {"WINDOW.TO", WM_WINDOW_TO},
};

typedef struct wx_part {
    unsigned macro;
    const char *text; /* WM_LITERAL: the literal, with %% already as % */
    size_t len;
} wx_part;

typedef struct wx_format {
    wx_part *parts;
    size_t count, cap;
    char *literals;
} wx_format;

/* Macro names as the reader takes them (docs/winidea-input.md): case and
 * blanks inside the name do not matter. */
static unsigned wx_macro_lookup(const char *s, size_t n)
{
    char name[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof name; i++)
        if (s[i] != ' ' && s[i] != '\t')
            name[k++] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i]);
    name[k] = 0;
    for (size_t i = 0; i < PV_ARRAY_LEN(wx_macros); i++)
        if (strcmp(name, wx_macros[i].name) == 0)
            return wx_macros[i].macro;
    for (unsigned i = 0; i < PV_WI_STAT_COUNT; i++)
        if (strcmp(name, pv_wi_stat_macro[i]) == 0)
            return WM_STAT_FIRST + i;
    return WM_UNKNOWN;
}

static void wx_format_compile(wx_format *f, const char *s)
{
    memset(f, 0, sizeof *f);
    size_t n = strlen(s);
    f->literals = pv_xmalloc(n + 1);
    size_t lit = 0, start = 0;
    for (size_t i = 0; i <= n;) {
        bool end = i == n;
        if (!end && s[i] == '%' && i + 1 < n && s[i + 1] == '%') {
            f->literals[lit++] = '%';
            i += 2;
            continue;
        }
        const char *close = !end && s[i] == '%' ? strchr(s + i + 1, '%') : NULL;
        if (end || close) {
            if (lit > start) {
                f->parts = pv_xgrow(f->parts, &f->cap, f->count + 1, sizeof *f->parts);
                f->parts[f->count++] = (wx_part){WM_LITERAL, f->literals + start, lit - start};
            }
            start = lit;
            if (end)
                break;
            f->parts = pv_xgrow(f->parts, &f->cap, f->count + 1, sizeof *f->parts);
            f->parts[f->count++] =
                (wx_part){wx_macro_lookup(s + i + 1, (size_t)(close - s) - i - 1), NULL, 0};
            i = (size_t)(close - s) + 1;
            continue;
        }
        f->literals[lit++] = s[i++];
    }
}

static void wx_format_free(wx_format *f)
{
    free(f->parts);
    free(f->literals);
}

/* The format part of a section header: after the name, the (CLASS) and a
 * CONTEXT(...), from the first '%'. */
static const char *wx_header_format(const char *header)
{
    const char *p = strchr(header, '%');
    return p ? p : "";
}

/* ---- writing numbers fast (Text1 at hundreds of MB/s) */

static size_t wx_put_dec(char *p, int64_t v)
{
    char tmp[24];
    size_t n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    size_t k = 0;
    if (v < 0)
        p[k++] = '-';
    while (n)
        p[k++] = tmp[--n];
    return k;
}

static size_t wx_put_hex(char *p, uint64_t v, int min_digits)
{
    static const char digits[] = "0123456789ABCDEF";
    int n = 1;
    while (n < 16 && (v >> (4 * n)) != 0)
        n++;
    if (n < min_digits)
        n = min_digits;
    for (int i = n - 1; i >= 0; i--)
        *p++ = digits[(v >> (4 * i)) & 0xF];
    return (size_t)n;
}

/* ---- the writer (its context: export_internal.h) */

static void wx_puts(pv_export_writer *w, const char *s, size_t n) { pv_export_writer_write(w, s, n); }

static void wx_put_pool(wx_ctx *c, uint32_t off)
{
    if (off) {
        const char *s = pv_strpool_get(&c->d->pool, off);
        wx_puts(c->w, s, strlen(s));
    }
}

/* The VALUE of a mapping / statistics row: decimal line number, hex state
 * value (docs/winidea-input.md). */
static void wx_put_area_value(pv_export_writer *w, uint32_t handle, bool has, uint64_t value)
{
    if (!has)
        return;
    char *p = pv_export_writer_reserve(w, 32);
    unsigned type = pv_wi_handle_type(handle);
    size_t n = type == PV_WI_LINE ? wx_put_dec(p, (int64_t)value) : wx_put_hex(p, value, 1);
    pv_export_writer_commit(w, n);
}

static void wx_put_handle(pv_export_writer *w, uint64_t handle)
{
    char *p = pv_export_writer_reserve(w, 32);
    pv_export_writer_commit(w, wx_put_hex(p, handle, 8));
}

static void wx_put_int(pv_export_writer *w, int64_t v)
{
    char *p = pv_export_writer_reserve(w, 32);
    pv_export_writer_commit(w, wx_put_dec(p, v));
}

static void wx_header(wx_ctx *c, const char *name, const char *context, const char *format)
{
    wx_puts(c->w, "* ", 2);
    wx_puts(c->w, name, strlen(name));
    if (context) {
        wx_puts(c->w, " CONTEXT(", 9);
        wx_puts(c->w, context, strlen(context));
        wx_puts(c->w, ")", 1);
    }
    wx_puts(c->w, " ", 1);
    wx_puts(c->w, format, strlen(format));
    wx_puts(c->w, "\n", 1);
}

/* An INFO entry: TOTAL_TIME, and a window's bounds (empty when open). */
typedef struct wx_info {
    bool has_total, has_from, has_to;
    int64_t total, from, to;
} wx_info;

static void wx_info_entry(wx_ctx *c, const wx_format *fmt, const wx_info *in)
{
    for (size_t i = 0; i < fmt->count; i++) {
        const wx_part *p = &fmt->parts[i];
        if (p->macro == WM_LITERAL)
            wx_puts(c->w, p->text, p->len);
        else if (p->macro == WM_TOTAL_TIME && in->has_total)
            wx_put_int(c->w, in->total);
        else if (p->macro == WM_WINDOW_FROM && in->has_from)
            wx_put_int(c->w, in->from);
        else if (p->macro == WM_WINDOW_TO && in->has_to)
            wx_put_int(c->w, in->to);
    }
    wx_puts(c->w, "\n", 1);
}

static void wx_context_entry(wx_ctx *c, const wx_format *fmt, const pv_wi_context *ctx)
{
    for (size_t i = 0; i < fmt->count; i++) {
        const wx_part *p = &fmt->parts[i];
        if (p->macro == WM_LITERAL)
            wx_puts(c->w, p->text, p->len);
        else if (p->macro == WM_NAME)
            wx_put_pool(c, ctx->name);
        else if (p->macro == WM_HANDLE && ctx->handle != UINT64_MAX) {
            wx_puts(c->w, "0x", 2);
            char *q = pv_export_writer_reserve(c->w, 32);
            pv_export_writer_commit(c->w, wx_put_hex(q, ctx->handle, 1));
        }
    }
    wx_puts(c->w, "\n", 1);
}

static void wx_area_entry(wx_ctx *c, const wx_format *fmt, const pv_wi_area *a)
{
    const pv_wi_area *parent = a->parent != PV_WI_NONE ? &c->d->areas[a->parent] : NULL;
    for (size_t i = 0; i < fmt->count; i++) {
        const wx_part *p = &fmt->parts[i];
        switch (p->macro) {
        case WM_LITERAL: wx_puts(c->w, p->text, p->len); break;
        case WM_HANDLE: wx_put_handle(c->w, a->handle); break;
        case WM_HANDLE_PARENT:
            if (parent)
                wx_put_handle(c->w, parent->handle);
            break;
        case WM_NAME: wx_put_pool(c, a->name); break;
        case WM_NAME_PARENT:
            if (parent)
                wx_put_pool(c, parent->name);
            break;
        case WM_VALUE: wx_put_area_value(c->w, a->handle, a->has_value, a->value); break;
        case WM_VALUE_TYPE: wx_put_pool(c, a->value_type); break;
        case WM_VALUE_UNIT: wx_put_pool(c, a->value_unit); break;
        case WM_FILE: wx_put_pool(c, a->file); break;
        case WM_PATH: wx_put_pool(c, a->path); break;
        default: break;
        }
    }
    wx_puts(c->w, "\n", 1);
}

/* The mapping row of an area (its name for a NAME field of a statistics
 * row), or NULL. */
static const pv_wi_area *wx_mapping_area(const wx_ctx *c, uint32_t handle, bool has_value,
                                         uint64_t value)
{
    uint32_t a = pv_timeline_find_area(c->ix, handle, has_value ? value : 0);
    if (a == PV_WI_NONE || c->ix->areas[a].data_area == PV_WI_NONE)
        return NULL;
    return &c->d->areas[c->ix->areas[a].data_area];
}

typedef struct wx_stat {
    uint32_t handle;
    bool has_value;
    uint64_t value;
    const char *context; /* %CONTEXT% of the line */
    bool has_count;
    int64_t count;
    uint32_t present;
    const int64_t *t;
} wx_stat;

static void wx_stat_entry(wx_ctx *c, const wx_format *fmt, const wx_stat *s)
{
    for (size_t i = 0; i < fmt->count; i++) {
        const wx_part *p = &fmt->parts[i];
        switch (p->macro) {
        case WM_LITERAL: wx_puts(c->w, p->text, p->len); break;
        case WM_HANDLE: wx_put_handle(c->w, s->handle); break;
        case WM_VALUE: wx_put_area_value(c->w, s->handle, s->has_value, s->value); break;
        case WM_CONTEXT:
            if (s->context)
                wx_puts(c->w, s->context, strlen(s->context));
            break;
        case WM_NAME: {
            const pv_wi_area *a = wx_mapping_area(c, s->handle, s->has_value, s->value);
            if (a)
                wx_put_pool(c, a->name);
            break;
        }
        case WM_COUNT:
            if (s->has_count)
                wx_put_int(c->w, s->count);
            break;
        default:
            if (p->macro >= WM_STAT_FIRST && p->macro < WM_STAT_FIRST + PV_WI_STAT_COUNT) {
                unsigned k = p->macro - WM_STAT_FIRST;
                if (s->present & (1u << k))
                    wx_put_int(c->w, s->t[k]);
            }
            break;
        }
    }
    wx_puts(c->w, "\n", 1);
}

/* Whether event i is written (window, context, areas). */
static inline bool wx_keep_event(const wx_ctx *c, size_t i, const pv_wi_event *e)
{
    const pv_timeline_index *ix = c->ix;
    if ((ix->has_from && e->time < ix->from) || (ix->has_to && e->time > ix->to))
        return false;
    uint32_t area = pv_tl_event_area(ix, i);
    if (c->match && !c->match[i] && !c->context_area[area])
        return false; /* the context area's events stay: the kept ones reload in their contexts */
    if (c->keep_ix_area && !c->keep_ix_area[area])
        return false;
    if (c->keep_context) {
        uint16_t ctx = pv_tl_event_context(ix, i);
        if (ctx != PV_TL_NO_CONTEXT && ctx < ix->context_count && !c->keep_context[ctx])
            return false;
    }
    return true;
}

/* The timeline VALUE: 8 hex digits (16 when the value needs them) for a
 * write or a state, empty otherwise (docs/winidea-input.md). */
static inline bool wx_event_has_value(const pv_wi_event *e)
{
    unsigned type = pv_wi_handle_type(e->handle);
    return e->kind == PV_WI_WRITE || type == PV_WI_STATE || type == PV_WI_AUX_STATE ||
           e->data != 0;
}

/* One TIMELINE entry: event i. */
static inline void wx_timeline_entry(wx_ctx *c, const wx_format *fmt, size_t i,
                                     const pv_wi_event *ev, bool needs_context)
{
    const pv_wi_timeline *tl = &c->d->timeline;
    const pv_timeline_index *ix = c->ix;
    pv_wi_event e = *ev;
    {
        char *p = pv_export_writer_reserve(c->w, 256);
        size_t n = 0;
        for (size_t k = 0; k < fmt->count; k++) {
            const wx_part *part = &fmt->parts[k];
            switch (part->macro) {
            case WM_LITERAL:
                if (part->len > 64) {
                    pv_export_writer_commit(c->w, n);
                    wx_puts(c->w, part->text, part->len);
                    p = pv_export_writer_reserve(c->w, 256);
                    n = 0;
                } else {
                    memcpy(p + n, part->text, part->len);
                    n += part->len;
                }
                break;
            case WM_HANDLE: n += wx_put_hex(p + n, e.handle, 8); break;
            case WM_EVENT: p[n++] = pv_wi_event_char(e.kind); break;
            case WM_VALUE:
                if (wx_event_has_value(&e))
                    n += wx_put_hex(p + n, e.data, e.data > UINT32_MAX ? 16 : 8);
                break;
            case WM_TIME: n += wx_put_dec(p + n, e.time); break;
            case WM_CONTEXT:
                if (needs_context) {
                    const char *name = NULL;
                    if (tl->text_context) {
                        uint16_t t = tl->text_context[i];
                        if (t != UINT16_MAX && t < c->d->context_count)
                            name = pv_strpool_get(&c->d->pool, c->d->contexts[t].name);
                    } else if (pv_tl_event_context(ix, i) < ix->context_count) {
                        name = pv_tl_context_name(ix, pv_tl_event_context(ix, i));
                    }
                    if (name) {
                        pv_export_writer_commit(c->w, n);
                        wx_puts(c->w, name, strlen(name));
                        p = pv_export_writer_reserve(c->w, 256);
                        n = 0;
                    }
                }
                break;
            default: break;
            }
        }
        p[n++] = '\n';
        pv_export_writer_commit(c->w, n);
    }
}

static bool wx_timeline_entries(wx_ctx *c, const wx_format *fmt, size_t first, size_t end)
{
    const pv_wi_timeline *tl = &c->d->timeline;
    bool needs_context = false;
    for (size_t k = 0; k < fmt->count; k++)
        needs_context |= fmt->parts[k].macro == WM_CONTEXT;
    bool filter = c->restricted;
    for (size_t i = first; i < end; i++) {
        pv_wi_event e;
        pv_wi_event_at(tl, i, &e);
        if (filter && !wx_keep_event(c, i, &e))
            continue;
        wx_timeline_entry(c, fmt, i, &e, needs_context);
        if ((++c->done & 0xFFFF) == 0 &&
            !pv_progress_step(&c->r->progress, "exporting", c->done, c->total))
            return false;
    }
    return true;
}

/* The generated TIMELINE: a window's state at its start, the kept events,
 * the event after its end. */
static bool wx_timeline_generated(wx_ctx *c, const wx_format *fmt)
{
    const pv_wi_timeline *tl = &c->d->timeline;
    bool needs_context = false;
    for (size_t k = 0; k < fmt->count; k++)
        needs_context |= fmt->parts[k].macro == WM_CONTEXT;
    pv_wi_event e;
    for (size_t k = 0; k < c->prologue_count; k++) {
        pv_wi_event_at(tl, c->prologue[k], &e);
        wx_timeline_entry(c, fmt, c->prologue[k], &e, needs_context);
    }
    if (!wx_timeline_entries(c, fmt, 0, tl->count))
        return false;
    if (c->epilogue != SIZE_MAX) {
        pv_wi_event_at(tl, c->epilogue, &e);
        wx_timeline_entry(c, fmt, c->epilogue, &e, needs_context);
    }
    return true;
}

/* A section's entries range [first, end) of an array, from the raw headers. */
static size_t wx_section_end(const pv_wi_data *d, size_t s, size_t which, size_t count)
{
    if (s + 1 < d->section_count) {
        const pv_wi_raw_section *n = &d->sections[s + 1];
        size_t v = which == 0 ? n->first_context
                   : which == 1 ? n->first_area
                   : which == 2 ? n->first_stat
                                : n->first_event;
        return v;
    }
    return count;
}

/* The kind of a known section header: WX_* or -1. */
static int wx_header_kind(const char *header)
{
    const char *s = header + 1;
    while (*s == ' ' || *s == '\t')
        s++;
    static const struct {
        const char *name;
        int kind;
    } names[] = {{"INFO", WX_INFO},
                 {"CONTEXTS", WX_CONTEXTS},
                 {"HANDLE", WX_FUNCTIONS},
                 {"STATISTICS", WX_STATISTICS},
                 {"TIMELINE", WX_TIMELINE}};
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++) {
        size_t n = strlen(names[i].name);
        if (strncasecmp(s, names[i].name, n) == 0)
            return names[i].kind;
    }
    return -1;
}

/* As read: every section of the input under its own header.  With
 * `timeline` false the TIMELINE sections are written empty (the mapping of a
 * BIN export), and true adds a TIMELINE section when the input had none. */
static bool wx_write_as_read(wx_ctx *c, bool timeline)
{
    const pv_wi_data *d = c->d;
    bool wrote_timeline = false;
    for (size_t s = 0; s < d->section_count; s++) {
        const pv_wi_raw_section *sec = &d->sections[s];
        if (s)
            for (size_t k = 0; k < d->sections[s - 1].blank_after; k++)
                wx_puts(c->w, "\n", 1);
        wx_puts(c->w, sec->header, strlen(sec->header));
        wx_puts(c->w, "\n", 1);
        int kind = sec->known ? wx_header_kind(sec->header) : -1;
        if (kind < 0 || sec->line_count > 0) {
            /* unknown, unreadable, or with unknown macros: the lines as kept */
            if (kind == WX_TIMELINE && !timeline)
                continue;
            for (size_t l = 0; l < sec->line_count; l++) {
                wx_puts(c->w, sec->lines[l], strlen(sec->lines[l]));
                wx_puts(c->w, "\n", 1);
            }
            wrote_timeline |= kind == WX_TIMELINE && sec->line_count > 0;
            continue;
        }
        wx_format fmt;
        wx_format_compile(&fmt, wx_header_format(sec->header));
        bool ok = true;
        switch (kind) {
        case WX_INFO: {
            wx_info in = {d->has_total_time, d->has_window_from, d->has_window_to,
                          d->total_time,     d->window_from,     d->window_to};
            wx_info_entry(c, &fmt, &in);
            break;
        }
        case WX_CONTEXTS:
            for (size_t i = sec->first_context;
                 i < wx_section_end(d, s, 0, d->context_count); i++)
                wx_context_entry(c, &fmt, &d->contexts[i]);
            break;
        case WX_FUNCTIONS:
            for (size_t i = sec->first_area; i < wx_section_end(d, s, 1, d->area_count); i++)
                wx_area_entry(c, &fmt, &d->areas[i]);
            break;
        case WX_STATISTICS:
            for (size_t i = sec->first_stat; i < wx_section_end(d, s, 2, d->stat_count); i++) {
                const pv_wi_stat_row *row = &d->stats[i];
                wx_stat st = {row->handle,   row->has_value, row->value,
                              row->context ? pv_strpool_get(&d->pool, row->context) : NULL,
                              row->has_count, row->count,    row->present, row->t};
                wx_stat_entry(c, &fmt, &st);
            }
            break;
        case WX_TIMELINE:
            if (timeline) {
                size_t first = sec->first_event, end = wx_section_end(d, s, 3, d->timeline.count);
                /* a timeline read from the BIN lands in the first TIMELINE section */
                if (d->bin_path) {
                    first = 0;
                    end = wrote_timeline ? 0 : d->timeline.count;
                }
                ok = wx_timeline_entries(c, &fmt, first, end);
                wrote_timeline = true;
            }
            break;
        default: break;
        }
        wx_format_free(&fmt);
        if (!ok)
            return false;
    }
    if (d->section_count)
        for (size_t k = 0; k < d->sections[d->section_count - 1].blank_after; k++)
            wx_puts(c->w, "\n", 1);
    if (timeline && !wrote_timeline && d->timeline.count > 0) {
        if (d->section_count && d->sections[d->section_count - 1].blank_after == 0)
            wx_puts(c->w, "\n", 1);
        wx_header(c, "TIMELINE", NULL, c->profile.format[WX_TIMELINE]);
        wx_format fmt;
        wx_format_compile(&fmt, c->profile.format[WX_TIMELINE]);
        bool ok = wx_timeline_entries(c, &fmt, 0, d->timeline.count);
        wx_format_free(&fmt);
        return ok;
    }
    return true;
}

/* TOTAL_TIME of a windowed export: the length of the window clipped to the
 * recording (its first and last event; docs/export.md). */
static int64_t wx_window_total(const wx_ctx *c)
{
    const pv_timeline_index *ix = c->ix;
    int64_t from = ix->has_from && ix->from > ix->time_first ? ix->from : ix->time_first;
    int64_t to = ix->has_to && ix->to < ix->time_last ? ix->to : ix->time_last;
    return to > from ? to - from : 0;
}

static bool wx_context_kept(const wx_ctx *c, uint16_t ctx)
{
    return !c->keep_context || (ctx < c->ix->context_count && c->keep_context[ctx]);
}

static void wx_write_stats_block(wx_ctx *c, const wx_format *fmt, const char *section,
                                 const char *context, uint16_t want_ctx, int area_class,
                                 bool *first_section)
{
    const pv_timeline_index *ix = c->ix;
    bool any = false;
    for (size_t i = 0; i < ix->stat_count; i++) {
        const pv_tl_stat_row *row = &ix->stats[i];
        const pv_tl_area *a = &ix->areas[row->area];
        int cls = a->type <= PV_WI_LINE ? 0 : a->type <= PV_WI_STATE ? 1 : 2;
        if (row->context != want_ctx || cls != area_class || !c->keep_ix_area[row->area])
            continue;
        if (!any) {
            if (!*first_section)
                wx_puts(c->w, "\n", 1);
            *first_section = false;
            wx_header(c, section, context, c->profile.format[WX_STATISTICS]);
            any = true;
        }
        wx_stat st = {a->handle, a->has_value, a->value, NULL, true, row->count,
                      (1u << PV_WI_STAT_COUNT) - 1u, row->t};
        wx_stat_entry(c, fmt, &st);
    }
}

/* Generated: the profile's sections over what is kept. */
static bool wx_write_generated(wx_ctx *c, bool timeline)
{
    const pv_wi_data *d = c->d;
    const pv_timeline_index *ix = c->ix;
    wx_format fmt;
    bool first = true;

    /* a window goes in INFO, whatever the profile says (docs/export.md "Windows") */
    pv_buf info;
    pv_buf_init(&info);
    pv_buf_puts(&info, c->profile.format[WX_INFO]);
    if (c->carry_window && !strstr(pv_buf_cstr(&info), "%WINDOW.FROM%"))
        pv_buf_puts(&info, ",%WINDOW.FROM%");
    if (c->carry_window && !strstr(pv_buf_cstr(&info), "%WINDOW.TO%"))
        pv_buf_puts(&info, ",%WINDOW.TO%");
    wx_header(c, "INFO", NULL, pv_buf_cstr(&info));
    wx_format_compile(&fmt, pv_buf_cstr(&info));
    pv_buf_free(&info);
    /* TOTAL_TIME: the window's, the input's, or (a BIN alone has none) the
     * recording's, from its first to its last event */
    bool windowed = ix->has_from || ix->has_to;
    wx_info in = {true,
                  c->carry_window && ix->has_from,
                  c->carry_window && ix->has_to,
                  windowed || !d->has_total_time ? wx_window_total(c) : d->total_time,
                  ix->from,
                  ix->to};
    wx_info_entry(c, &fmt, &in);
    wx_format_free(&fmt);
    first = false;

    if (d->context_count) {
        /* every context stays, so that the kept events reload in theirs */
        wx_puts(c->w, "\n", 1);
        wx_header(c, "CONTEXTS", NULL, c->profile.format[WX_CONTEXTS]);
        wx_format_compile(&fmt, c->profile.format[WX_CONTEXTS]);
        for (size_t i = 0; i < d->context_count; i++)
            wx_context_entry(c, &fmt, &d->contexts[i]);
        wx_format_free(&fmt);
    }
    static const int classes[] = {WX_FUNCTIONS, WX_DATA, WX_AUX};
    for (int k = 0; k < 3; k++) {
        bool any = false;
        wx_format_compile(&fmt, c->profile.format[classes[k]]);
        for (size_t i = 0; i < d->area_count; i++) {
            unsigned type = pv_wi_handle_type(d->areas[i].handle);
            int cls = type <= PV_WI_LINE ? 0 : type <= PV_WI_STATE ? 1 : 2;
            if (cls != k || !c->keep_area[i])
                continue;
            if (!any) {
                wx_puts(c->w, "\n", 1);
                wx_header(c, wx_sections[classes[k]].header, NULL,
                          c->profile.format[classes[k]]);
                any = true;
            }
            wx_area_entry(c, &fmt, &d->areas[i]);
        }
        wx_format_free(&fmt);
    }

    /* STATISTICS: per context, Neutral (without CONTEXT) when no context
     * was left out, then Data and AUX */
    wx_format_compile(&fmt, c->profile.format[WX_STATISTICS]);
    /* Neutral: a Functions block without CONTEXT(...), as in the vendor
     * document's example, when the source had one (docs/export.md) */
    bool neutral = false;
    for (size_t i = 0; i < d->stat_count && !neutral; i++)
        neutral = d->stats[i].area_class == 0 && d->stats[i].context == 0;
    if (neutral && !c->keep_context)
        wx_write_stats_block(c, &fmt, "STATISTICS(Functions)", NULL, PV_TL_NEUTRAL, 0, &first);
    for (uint16_t ctx = 0; ctx < ix->context_count; ctx++)
        if (wx_context_kept(c, ctx))
            wx_write_stats_block(c, &fmt, "STATISTICS(Functions)", pv_tl_context_name(ix, ctx),
                                 ctx, 0, &first);
    wx_write_stats_block(c, &fmt, "STATISTICS(Data)", NULL, PV_TL_NO_CONTEXT, 1, &first);
    wx_write_stats_block(c, &fmt, "STATISTICS(AUX)", NULL, PV_TL_NO_CONTEXT, 2, &first);
    wx_format_free(&fmt);

    wx_puts(c->w, "\n", 1);
    wx_header(c, "TIMELINE", NULL, c->profile.format[WX_TIMELINE]);
    if (!timeline)
        return true;
    wx_format_compile(&fmt, c->profile.format[WX_TIMELINE]);
    bool ok = wx_timeline_generated(c, &fmt);
    wx_format_free(&fmt);
    return ok;
}

/* ---- BIN records */

static bool wx_write_bin(wx_ctx *c, pv_export_writer *w, int version)
{
    const pv_wi_timeline *tl = &c->d->timeline;
    bool same = tl->version == version && (c->d->bin_path || tl->owned == NULL);
    if (same && !c->restricted) {
        /* every record as it is: written from the mapping in large blocks,
         * 1.5 MB each (about 4 ms: a viewer draws a frame at each report) */
        size_t step = (size_t)1 << 16;
        for (size_t i = 0; i < tl->count; i += step) {
            size_t n = tl->count - i < step ? tl->count - i : step;
            pv_export_writer_write(w, tl->records + i * PV_WI_RECORD_SIZE, n * PV_WI_RECORD_SIZE);
            c->done += n;
            if (!pv_progress_step(&c->r->progress, "exporting", c->done, c->total))
                return false;
        }
        return true;
    }
    /* a window's state at its start, the kept events, the event after its end */
    size_t end = c->prologue_count + tl->count + (c->epilogue != SIZE_MAX);
    for (size_t k = 0; k < end; k++) {
        size_t i = k < c->prologue_count             ? c->prologue[k]
                   : k < c->prologue_count + tl->count ? k - c->prologue_count
                                                       : c->epilogue;
        pv_wi_event e;
        pv_wi_event_at(tl, i, &e);
        if (c->restricted && k >= c->prologue_count && k < c->prologue_count + tl->count &&
            !wx_keep_event(c, i, &e))
            continue;
        unsigned char *p = (unsigned char *)pv_export_writer_reserve(w, PV_WI_RECORD_SIZE);
        if (same) {
            memcpy(p, tl->records + i * PV_WI_RECORD_SIZE, PV_WI_RECORD_SIZE);
        } else {
            /* docs/formats.md §2: v1.0 has the type in bits 24-27; v1.1 the type in
             * bits 0-3 and the core in bits 4-11 (0xFF: unknown) */
            uint32_t word = version == 10 ? (uint32_t)(e.kind & 0xF) << 24
                                          : (uint32_t)(e.kind & 0xF) | (uint32_t)e.core << 4;
            uint64_t vals[3] = {e.data, (uint64_t)e.time, 0};
            for (int b = 0; b < 4; b++) {
                p[b] = (unsigned char)(e.handle >> (8 * b));
                p[4 + b] = (unsigned char)(word >> (8 * b));
            }
            for (int b = 0; b < 8; b++) {
                p[8 + b] = (unsigned char)(vals[0] >> (8 * b));
                p[16 + b] = (unsigned char)(vals[1] >> (8 * b));
            }
        }
        pv_export_writer_commit(w, PV_WI_RECORD_SIZE);
        if ((++c->done & 0xFFFF) == 0 &&
            !pv_progress_step(&c->r->progress, "exporting", c->done, c->total))
            return false;
    }
    return true;
}

/* ---- the hook */

static int wx_export(const pv_file *f, const pv_wi_data *d, const pv_timeline_index *ix,
                     const pv_timeline_index *file_ix, const pv_export_request *r,
                     pv_export_target *t, pv_diag *err);

static pv_export_status wx_write_file(wx_ctx *c, pv_export_target *t, const char *final,
                                      int what)
{
    const char *temp;
    if (!pv_export_target_add(t, final, &temp, c->err))
        return PV_EXPORT_FAILED;
    pv_export_writer w;
    if (!pv_export_writer_open(&w, temp, c->err))
        return PV_EXPORT_FAILED;
    c->w = &w;
    bool ok;
    if (what == 2) {
        int version = c->r->bin_version ? c->r->bin_version : c->d->timeline.version;
        ok = wx_write_bin(c, &w, version);
    } else if (c->generated) {
        ok = wx_write_generated(c, what == 1);
    } else {
        ok = wx_write_as_read(c, what == 1);
    }
    c->w = NULL;
    if (!ok) {
        pv_export_writer_discard(&w);
        return PV_EXPORT_CANCELLED;
    }
    /* the wait for the disk reports too (a viewer draws frames there) */
    w.progress = &c->r->progress;
    w.what = "exporting";
    w.done = c->done;
    w.total = c->total;
    return pv_export_writer_close(&w, final, c->err) ? PV_EXPORT_OK : PV_EXPORT_FAILED;
}

int pv_wi_export(const pv_file *f, const pv_export_request *r, pv_export_target *t,
                 pv_diag *err)
{
    if (r->format == PV_EXPORT_SQLITE)
        return PV_EXPORT_UNSUPPORTED; /* the profview schema, from the views */
    const pv_wi_data *d = pv_wi_file_data(f);
    if (!d)
        return PV_EXPORT_UNSUPPORTED;
    const pv_timeline_index *ix = pv_wi_file_index(f);
    if (!ix || !ix->complete) {
        pv_error(err, "%s: the timeline could not be indexed; nothing exported", f->path);
        return PV_EXPORT_FAILED;
    }
    /* A window of the request (the viewer's markers): the statistics over
     * it come from an index of their own over the same data. */
    pv_timeline_index window;
    bool own_window = r->has_from || r->has_to;
    if (own_window) {
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = r->has_from || ix->has_from;
        o.from = r->has_from && (!ix->has_from || r->from > ix->from) ? r->from : ix->from;
        o.has_to = r->has_to || ix->has_to;
        o.to = r->has_to && (!ix->has_to || r->to < ix->to) ? r->to : ix->to;
        o.progress = r->progress;
        o.file = f->path;
        pv_diag scratch;
        pv_diag_init(&scratch);
        bool built = pv_timeline_index_build(&window, (pv_wi_data *)d, &o, &scratch);
        pv_diag_free(&scratch);
        if (!built)
            return PV_EXPORT_CANCELLED;
        ix = &window;
    }
    int st = wx_export(f, d, ix, pv_wi_file_index(f), r, t, err);
    if (own_window)
        pv_timeline_index_free(&window);
    return st;
}

static int wx_export(const pv_file *f, const pv_wi_data *d, const pv_timeline_index *ix,
                     const pv_timeline_index *file_ix, const pv_export_request *r,
                     pv_export_target *t, pv_diag *err)
{
    if (r->view_id && strcmp(r->view_id, "timeline") != 0) {
        pv_error(err, "%s: Text1 and BIN export the timeline; --view '%s' exports as SQLite "
                      "(--format sqlite)",
                 f->path, r->view_id);
        return PV_EXPORT_USAGE;
    }
    wx_ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.d = d;
    c.ix = ix;
    c.r = r;
    c.err = err;
    c.total = d->timeline.count;
    /* a window the file carried itself (a windowed export reloaded) is no
     * restriction: written as read, it comes back as it was */
    bool own_from = ix->has_from && !(d->has_window_from && ix->from == d->window_from);
    bool own_to = ix->has_to && !(d->has_window_to && ix->to == d->window_to);
    bool windowed = own_from || own_to;
    c.restricted = windowed || r->context || r->areas || r->filter || r->rows;
    c.generated = c.restricted || r->profile || !d->text_path;
    /* generated over a window (the file's own too): its events, and what
     * the reader needs at its start; a BIN alone has no INFO to carry the
     * window in: its events only */
    if (c.generated && (ix->has_from || ix->has_to))
        c.restricted = true;
    c.carry_window = c.restricted && (ix->has_from || ix->has_to) &&
                     (r->format == PV_EXPORT_TEXT1 || d->text_path);
    c.epilogue = SIZE_MAX;
    if (!wx_profile_load(&c.profile, r->profile, err)) {
        wx_profile_free(&c.profile);
        return PV_EXPORT_USAGE;
    }
    pv_export_status st = PV_EXPORT_USAGE;
    if (!wx_select(&c))
        goto done;
    size_t errors = err->errors;
    if ((r->filter || r->rows) && !wx_match_filter(&c, file_ix)) {
        st = err->errors > errors ? PV_EXPORT_USAGE : PV_EXPORT_CANCELLED;
        goto done;
    }
    if (!wx_window_edges(&c)) {
        st = PV_EXPORT_CANCELLED;
        goto done;
    }
    if (d->bin_path)
        pv_export_target_protect(t, d->bin_path);
    if (d->text_path)
        pv_export_target_protect(t, d->text_path);
    const char *out = pv_export_target_path(t);
    if (r->format == PV_EXPORT_TEXT1) {
        st = wx_write_file(&c, t, out, 1);
    } else if (!d->text_path) {
        /* a BIN opened alone has no names to map: OUT holds the records */
        st = wx_write_file(&c, t, out, 2);
    } else {
        st = wx_write_file(&c, t, out, 0);
        if (st == PV_EXPORT_OK) {
            pv_buf bin;
            pv_buf_init(&bin);
            pv_buf_printf(&bin, "%s.BIN", out);
            c.done = 0;
            st = wx_write_file(&c, t, pv_buf_cstr(&bin), 2);
            pv_buf_free(&bin);
        }
    }
done:
    free(c.keep_area);
    free(c.keep_ix_area);
    free(c.keep_context);
    free(c.context_area);
    free(c.match);
    free(c.prologue);
    wx_profile_free(&c.profile);
    return st;
}
