/* plist_text.c - the text report MSVC PLIST prints without /T
 * (docs/plist.md "Text reports"), read into the model the /T reader fills
 * (plist_model.h), so that both show the same views.
 *
 * A report is a header (`Profile: KIND[, sorted by ORDER]`, `Date: ...`), a
 * `Program Statistics` block of `Key: value` lines, then per module a
 * `Module Statistics for NAME` block followed by its table (line profiles:
 * a `Source file: PATH` line before each file's table).  A table is title
 * lines, a dashed rule and rows; the row layout depends on the kind:
 *
 *   Function timing    TIME %  TIME_WITH_CHILDREN %  HITS  NAME (MODULE)
 *   Function counting  HITS %  NAME (MODULE)
 *   Function coverage  * or .  NAME (MODULE)
 *   Line counting      LINE:  HITS %  SOURCE TEXT       (LINE:  TEXT when not counted)
 *   Line coverage      LINE:  * or .  SOURCE TEXT
 *
 * Rows are read by their fields, not by fixed columns.  Decisions (the
 * vendor documents do not describe this layout; docs/plist.md):
 *   - a line that is indented, follows a row and is not a row itself
 *     continues that row's name (or source text): PLIST wraps long names.
 *     Its text starts at the name's column; blanks at the end of the
 *     wrapped line cannot be told from trailing blanks and are dropped;
 *   - the module is the last parenthesised group of a name when it looks
 *     like a file name (ends in `.` and 1-4 letters or digits), so that
 *     `f(void)` keeps its parameters and `f(void) (a.obj)` loses only the
 *     module; `LoadCursorA@8(user32.def)` (no blank) works too;
 *   - a form feed starts a page (/PL): the titles and header lines it
 *     repeats are skipped;
 *   - the `%` columns are not kept: they are recomputed from the figures,
 *     as for /T; lines without a count (declarations, comments) are not
 *     line records and are left out of `lines`.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/plist.h"
#include "formats/plist_model.h"

typedef enum plist_text_kind {
    PLIST_TEXT_FUNCTION_TIMING,
    PLIST_TEXT_FUNCTION_COUNTING,
    PLIST_TEXT_FUNCTION_COVERAGE,
    PLIST_TEXT_LINE_COUNTING,
    PLIST_TEXT_LINE_COVERAGE,
    PLIST_TEXT_KINDS
} plist_text_kind;

/* The header's profile names and the /T method each corresponds to
 * (docs/formats.md §4: 522 function timing, ...). */
static const struct {
    const char *header;
    int64_t method;
    const char *row; /* the row layout, for messages */
} plist_text_kinds[PLIST_TEXT_KINDS] = {
    {"Function timing", 522, "time, %, time with children, %, hit count, function"},
    {"Function counting", 521, "hit count, %, function"},
    {"Function coverage", 524, "* or ., function"},
    {"Line counting", 321, "line:, hit count, %, source"},
    {"Line coverage", 324, "line:, * or ., source"},
};

typedef enum plist_text_section {
    PLIST_TEXT_HEADER,  /* before `Program Statistics` */
    PLIST_TEXT_PROGRAM, /* its Key: value lines */
    PLIST_TEXT_MODULE,  /* a module's Key: value lines */
    PLIST_TEXT_TITLES,  /* a table's title lines, before its rule */
    PLIST_TEXT_ROWS,    /* after the rule */
} plist_text_section;

#define PLIST_TEXT_MAX_TITLES 8

typedef struct plist_text_parser {
    plist_model m;
    size_t line_no;
    bool has_kind;
    plist_text_kind kind;
    plist_text_section section;
    uint32_t exe;         /* the current module (pool offset; 0 = none yet) */
    uint32_t source;      /* the current source file of a line profile */
    size_t module;        /* index into m.modules, PLIST_NONE before the first */
    size_t profile_line;  /* where the header's Profile: line is */
    size_t date_line;
    size_t skipped_before; /* lines before the Profile line */
    bool seen_rule;

    /* The current table's title lines (blanks collapsed), to skip them when
     * a page break repeats them, and the `Source` column of its title. */
    char *titles[PLIST_TEXT_MAX_TITLES];
    size_t title_count;
    size_t source_col; /* SIZE_MAX: unknown */

    /* The row being read: its name or text may continue on the next lines. */
    bool pending;
    size_t pending_indent; /* where its first field starts */
    size_t pending_col;    /* where its name / text starts */
    pv_buf pending_text;
    plist_routine routine;
    plist_line line;
    bool pending_is_line;
    bool pending_drop; /* a source line without a count: read, not kept */
} plist_text_parser;

/* ---- messages */

static void plist_text_warn(plist_text_parser *p, const char *fmt, ...) PV_PRINTF(2, 3);
static void plist_text_warn(plist_text_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    plist_model_vwarn(&p->m, p->line_no, fmt, ap);
    va_end(ap);
}

/* Warns about a line that is not what its place in the report needs. */
static void plist_text_warn_line(plist_text_parser *p, const char *why, const char *s, size_t len)
{
    pv_buf q;
    pv_buf_init(&q);
    plist_quote(&q, s, len);
    plist_text_warn(p, "%s: %s; the line is skipped", why, pv_buf_cstr(&q));
    pv_buf_free(&q);
}

/* ---- small readers */

static bool plist_text_blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool plist_text_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* True when s (len bytes) starts with `prefix`, case-insensitively. */
static bool plist_text_starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && strncasecmp(s, prefix, n) == 0;
}

/* The next blank-separated token at or after *at; false at the end. */
static bool plist_text_token(const char *s, size_t len, size_t *at, size_t *start, size_t *end)
{
    size_t i = *at;
    while (i < len && plist_text_blank(s[i]))
        i++;
    if (i >= len)
        return false;
    *start = i;
    while (i < len && !plist_text_blank(s[i]))
        i++;
    *end = i;
    *at = i;
    return true;
}

/* A percentage as PLIST writes it: digits, an optional fraction, an
 * optional `%`.  Only checked (the views recompute percentages), except in
 * the statistics blocks, which keep it. */
static bool plist_text_percent(const char *s, size_t len, double *out)
{
    plist_trim(&s, &len);
    if (len && s[len - 1] == '%')
        len--;
    plist_trim(&s, &len);
    if (len == 0 || len > 40)
        return false;
    size_t i = 0, digits = 0;
    while (i < len && plist_text_digit(s[i]))
        i++, digits++;
    if (i < len && s[i] == '.')
        for (i++; i < len && plist_text_digit(s[i]); i++)
            digits++;
    if (i != len || digits == 0)
        return false;
    char num[48];
    memcpy(num, s, len);
    num[len] = '\0';
    *out = strtod(num, NULL);
    return true;
}

/* A time in the statistics blocks: `88757.514 millisecond` (the unit, when
 * there, must be milliseconds). */
static bool plist_text_time(const char *s, size_t len, int64_t *ns)
{
    plist_trim(&s, &len);
    size_t i = 0;
    while (i < len && !plist_text_blank(s[i]))
        i++;
    const char *unit = s + i;
    size_t unit_len = len - i;
    plist_trim(&unit, &unit_len);
    if (unit_len && !(unit_len == 2 && memcmp(unit, "ms", 2) == 0) &&
        !plist_text_starts(unit, unit_len, "millisecond"))
        return false;
    return plist_parse_ms(s, i, ns);
}

/* A line number field: digits and a colon (`11:`). */
static bool plist_text_line_number(const char *s, size_t len, int64_t *out)
{
    return len >= 2 && s[len - 1] == ':' && plist_parse_count(s, len - 1, out);
}

static bool plist_text_marker(const char *s, size_t len, bool *covered)
{
    if (len != 1 || (s[0] != '*' && s[0] != '.'))
        return false;
    *covered = s[0] == '*';
    return true;
}

/* True for a rule: dashes (at least three) and blanks only. */
static bool plist_text_rule(const char *s, size_t len)
{
    size_t dashes = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '-')
            dashes++;
        else if (!plist_text_blank(s[i]))
            return false;
    }
    return dashes >= 3;
}

/* A title line with its blanks collapsed to one space (malloc'ed). */
static char *plist_text_collapse(const char *s, size_t len)
{
    char *out = pv_xmalloc(len + 1);
    size_t n = 0;
    size_t at = 0, a, b;
    while (plist_text_token(s, len, &at, &a, &b)) {
        if (n)
            out[n++] = ' ';
        memcpy(out + n, s + a, b - a);
        n += b - a;
    }
    out[n] = '\0';
    return out;
}

static void plist_text_clear_titles(plist_text_parser *p)
{
    for (size_t i = 0; i < p->title_count; i++)
        free(p->titles[i]);
    p->title_count = 0;
    p->source_col = SIZE_MAX;
    p->seen_rule = false;
}

static bool plist_text_is_title(const plist_text_parser *p, const char *s, size_t len)
{
    char *c = plist_text_collapse(s, len);
    bool found = false;
    for (size_t i = 0; i < p->title_count && !found; i++)
        found = strcmp(p->titles[i], c) == 0;
    free(c);
    return found;
}

static void plist_text_add_title(plist_text_parser *p, const char *s, size_t len)
{
    if (p->title_count < PLIST_TEXT_MAX_TITLES)
        p->titles[p->title_count++] = plist_text_collapse(s, len);
    /* The source text of a line table starts under the title's `Source`. */
    for (size_t i = 0; i + 6 <= len; i++)
        if (memcmp(s + i, "Source", 6) == 0 && (i == 0 || plist_text_blank(s[i - 1]))) {
            p->source_col = i;
            break;
        }
}

/* ---- rows */

/* Splits `NAME (MODULE)` (docs/plist.md): *name_len is the name's length,
 * [*mod, *mod + *mod_len) the module; *mod_len = 0 when there is none. */
static void plist_text_split_module(const char *s, size_t len, size_t *name_len, size_t *mod,
                                    size_t *mod_len)
{
    *name_len = len;
    *mod = *mod_len = 0;
    if (len < 3 || s[len - 1] != ')')
        return;
    size_t depth = 0, open = SIZE_MAX;
    for (size_t i = len; i-- > 0;) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == SIZE_MAX || open == 0)
        return;
    const char *in = s + open + 1;
    size_t in_len = len - open - 2;
    size_t ext = 0;
    while (ext < in_len && ext <= 4 &&
           ((in[in_len - 1 - ext] >= 'a' && in[in_len - 1 - ext] <= 'z') ||
            (in[in_len - 1 - ext] >= 'A' && in[in_len - 1 - ext] <= 'Z') ||
            plist_text_digit(in[in_len - 1 - ext])))
        ext++;
    if (ext == 0 || ext > 4 || ext + 1 >= in_len || in[in_len - 1 - ext] != '.')
        return;
    size_t n = open;
    while (n > 0 && plist_text_blank(s[n - 1]))
        n--;
    if (n == 0)
        return;
    *name_len = n;
    *mod = open + 1;
    *mod_len = in_len;
}

/* Adds the row being read to the model, its name or text now complete. */
static void plist_text_flush(plist_text_parser *p)
{
    if (!p->pending)
        return;
    p->pending = false;
    const char *s = p->pending_text.data ? p->pending_text.data : "";
    size_t len = p->pending_text.len;
    plist_model *m = &p->m;
    if (p->pending_drop) {
        if (p->pending_is_line) { /* its text, for the source view */
            m->text_lines = pv_xgrow(m->text_lines, &m->text_line_cap, m->text_line_count + 1,
                                     sizeof *m->text_lines);
            plist_line *l = &m->text_lines[m->text_line_count++];
            *l = p->line;
            l->text = pv_strpool_add(&m->text, s, len);
        }
        return;
    }
    if (p->pending_is_line) {
        m->lines = pv_xgrow(m->lines, &m->line_cap, m->line_count + 1, sizeof *m->lines);
        plist_line *l = &m->lines[m->line_count++];
        *l = p->line;
        l->text = pv_strpool_add(&m->text, s, len);
        return;
    }
    size_t name_len, mod, mod_len;
    plist_text_split_module(s, len, &name_len, &mod, &mod_len);
    if (name_len == 0) {
        pv_warn(&m->f->diag, "%s: line %zu: a row without a function name; it is skipped",
                m->path, p->routine.file_line);
        return;
    }
    m->routines = pv_xgrow(m->routines, &m->routine_cap, m->routine_count + 1, sizeof *m->routines);
    plist_routine *r = &m->routines[m->routine_count++];
    *r = p->routine;
    r->source = pv_strpool_add(&m->text, s + mod, mod_len);
    r->name = plist_names_intern(&m->names, s, name_len);
}

/* Starts a row whose name or text begins at `col` of the line. */
static void plist_text_begin(plist_text_parser *p, const char *s, size_t len, size_t indent,
                             size_t col)
{
    p->pending = true;
    p->pending_drop = false;
    p->pending_indent = indent;
    p->pending_col = col;
    pv_buf_clear(&p->pending_text);
    if (col < len)
        pv_buf_append(&p->pending_text, s + col, len - col);
}

/* Reads a function row; false when the line is not one (nothing kept). */
static bool plist_text_function_row(plist_text_parser *p, const char *s, size_t len)
{
    size_t at = 0, a[6], b[6];
    size_t numbers = p->kind == PLIST_TEXT_FUNCTION_TIMING    ? 5
                     : p->kind == PLIST_TEXT_FUNCTION_COUNTING ? 2
                                                               : 1;
    for (size_t k = 0; k < numbers; k++)
        if (!plist_text_token(s, len, &at, &a[k], &b[k]))
            return false;
    plist_routine r;
    memset(&r, 0, sizeof r);
    double pct;
    bool ok;
    switch (p->kind) {
    case PLIST_TEXT_FUNCTION_TIMING:
        ok = plist_parse_ms(s + a[0], b[0] - a[0], &r.time) &&
             plist_text_percent(s + a[1], b[1] - a[1], &pct) &&
             plist_parse_ms(s + a[2], b[2] - a[2], &r.child) &&
             plist_text_percent(s + a[3], b[3] - a[3], &pct) &&
             plist_parse_count(s + a[4], b[4] - a[4], &r.hits);
        r.has = PLIST_HAS_TIME | PLIST_HAS_CHILD | PLIST_HAS_HITS;
        break;
    case PLIST_TEXT_FUNCTION_COUNTING:
        ok = plist_parse_count(s + a[0], b[0] - a[0], &r.hits) &&
             plist_text_percent(s + a[1], b[1] - a[1], &pct);
        r.has = PLIST_HAS_HITS;
        break;
    default: {
        bool covered = false;
        ok = plist_text_marker(s + a[0], b[0] - a[0], &covered);
        r.hits = covered;
        r.has = PLIST_HAS_HITS;
        break;
    }
    }
    if (!ok)
        return false;
    size_t start, end;
    size_t rest = at;
    if (!plist_text_token(s, len, &rest, &start, &end))
        return false; /* numbers without a name: reported by the caller */
    plist_text_flush(p);
    r.exe = p->exe;
    r.file_line = p->line_no;
    p->routine = r;
    p->pending_is_line = false;
    plist_text_begin(p, s, len, a[0], start);
    return true;
}

/* Reads a line row; false when the line is not one. */
static bool plist_text_line_row(plist_text_parser *p, const char *s, size_t len)
{
    size_t at = 0, a, b;
    if (!plist_text_token(s, len, &at, &a, &b))
        return false;
    size_t indent = a;
    bool covered = false, has_marker = false;
    /* Line coverage: the marker may come before the line number. */
    if (p->kind == PLIST_TEXT_LINE_COVERAGE && plist_text_marker(s + a, b - a, &covered)) {
        has_marker = true;
        if (!plist_text_token(s, len, &at, &a, &b))
            return false;
    }
    plist_line l;
    memset(&l, 0, sizeof l);
    if (!plist_text_line_number(s + a, b - a, &l.line))
        return false;
    l.has = PLIST_HAS_LINE;
    size_t text_at = at;
    size_t limit = p->source_col == SIZE_MAX ? len : p->source_col;
    bool read = false;
    if (p->kind == PLIST_TEXT_LINE_COUNTING) {
        size_t at2 = at, c0, c1, q0, q1;
        double pct;
        int64_t hits;
        if (plist_text_token(s, len, &at2, &c0, &c1) && c1 <= limit &&
            plist_parse_count(s + c0, c1 - c0, &hits) &&
            plist_text_token(s, len, &at2, &q0, &q1) && q1 <= limit &&
            plist_text_percent(s + q0, q1 - q0, &pct)) {
            l.hits = hits;
            l.has |= PLIST_HAS_HITS;
            text_at = at2;
        }
        read = l.has & PLIST_HAS_HITS;
    } else if (!has_marker) {
        size_t at2 = at, c0, c1;
        if (plist_text_token(s, len, &at2, &c0, &c1) && c1 <= limit &&
            plist_text_marker(s + c0, c1 - c0, &covered)) {
            has_marker = true;
            text_at = at2;
        }
        read = has_marker;
    }
    /* Under the count columns, before `Source`: a count that does not read. */
    size_t w0, w1, at3 = at;
    if (!read && !has_marker && p->source_col != SIZE_MAX &&
        plist_text_token(s, len, &at3, &w0, &w1) && w1 <= p->source_col) {
        pv_buf q;
        pv_buf_init(&q);
        plist_quote(&q, s + w0, w1 - w0);
        plist_text_warn(p, "%s under the %s column is not %s; the line is read as a line without "
                           "a count",
                        pv_buf_cstr(&q),
                        p->kind == PLIST_TEXT_LINE_COUNTING ? "hit count" : "covered",
                        p->kind == PLIST_TEXT_LINE_COUNTING ? "a count and a percentage"
                                                            : "* or .");
        pv_buf_free(&q);
    }
    if (has_marker) {
        l.hits = covered;
        l.has |= PLIST_HAS_HITS;
    }
    plist_text_flush(p);
    /* The text starts under the title's `Source` when the row lines up with
     * it (its own indentation kept), otherwise after the blanks. */
    size_t col = text_at;
    if (p->source_col != SIZE_MAX && p->source_col >= text_at && p->source_col <= len) {
        bool blanks = true;
        for (size_t i = text_at; i < p->source_col; i++)
            blanks &= plist_text_blank(s[i]);
        col = blanks ? p->source_col : text_at;
    }
    if (col == text_at)
        while (col < len && plist_text_blank(s[col]))
            col++;
    l.exe = p->exe;
    l.source = p->source;
    l.file_line = p->line_no;
    p->line = l;
    p->pending_is_line = true;
    plist_text_begin(p, s, len, indent, col);
    /* A source line without a count is not a line record (docs/plist.md);
     * it is read so that a wrapped one is not taken for a bad row. */
    p->pending_drop = !(l.has & PLIST_HAS_HITS);
    return true;
}

static bool plist_text_row(plist_text_parser *p, const char *s, size_t len)
{
    if (p->kind == PLIST_TEXT_LINE_COUNTING || p->kind == PLIST_TEXT_LINE_COVERAGE)
        return plist_text_line_row(p, s, len);
    return plist_text_function_row(p, s, len);
}

/* A line that continues the name or text of the row before it: indented
 * past the row's first field, or (`strict`) at least to its name. */
static bool plist_text_continuation(plist_text_parser *p, const char *s, size_t len, bool strict)
{
    if (!p->pending || len == 0 || !plist_text_blank(s[0]))
        return false;
    size_t indent = 0;
    while (indent < len && plist_text_blank(s[indent]))
        indent++;
    if (indent <= p->pending_indent || (strict && indent < p->pending_col))
        return false;
    size_t from = indent >= p->pending_col ? p->pending_col : indent;
    pv_buf_append(&p->pending_text, s + from, len - from);
    return true;
}

/* ---- the header and the statistics blocks */

static bool plist_text_profile(plist_text_parser *p, const char *s, size_t len)
{
    s += 8; /* "Profile:" */
    len -= 8;
    plist_trim(&s, &len);
    if (p->profile_line) {
        /* A page break repeats the header; another one is kept out. */
        const char *first = pv_strpool_get(&p->m.text, p->m.profile_header);
        if (strlen(first) != len || memcmp(s, first, len) != 0)
            plist_text_warn(p, "a second Profile line (the first is on line %zu) says something "
                               "else; it is ignored",
                            p->profile_line);
        return true;
    }
    if (p->skipped_before)
        plist_text_warn(p, "%zu %s before the Profile line %s not part of the report: skipped",
                        p->skipped_before, p->skipped_before == 1 ? "line" : "lines",
                        p->skipped_before == 1 ? "is" : "are");
    p->profile_line = p->line_no;
    p->m.profile_header = pv_strpool_add(&p->m.text, s, len);
    size_t kind_len = len;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == ',') {
            kind_len = i;
            const char *order = s + i + 1;
            size_t order_len = len - i - 1;
            plist_trim(&order, &order_len);
            if (plist_text_starts(order, order_len, "sorted by")) {
                order += 9;
                order_len -= 9;
                plist_trim(&order, &order_len);
            }
            p->m.sort_order = pv_strpool_add(&p->m.text, order, order_len);
            break;
        }
    const char *kind = s;
    plist_trim(&kind, &kind_len);
    for (size_t k = 0; k < PLIST_TEXT_KINDS; k++)
        if (strlen(plist_text_kinds[k].header) == kind_len &&
            strncasecmp(kind, plist_text_kinds[k].header, kind_len) == 0) {
            p->has_kind = true;
            p->kind = (plist_text_kind)k;
            p->m.method = plist_text_kinds[k].method;
            p->m.has_method = true;
            return true;
        }
    pv_buf q;
    pv_buf_init(&q);
    plist_quote(&q, kind, kind_len);
    pv_error(&p->m.f->diag,
             "%s: line %zu: unknown profile %s (expected Function timing, Function counting, "
             "Function coverage, Line counting or Line coverage)",
             p->m.path, p->line_no, pv_buf_cstr(&q));
    pv_buf_free(&q);
    return false;
}

/* Splits `Key: value` at the first ": " (or a colon ending the line). */
static bool plist_text_key_value(const char *s, size_t len, const char **key, size_t *key_len,
                                 const char **value, size_t *value_len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] == ':' && (i + 1 == len || plist_text_blank(s[i + 1]))) {
            *key = s;
            *key_len = i;
            *value = s + i + 1;
            *value_len = len - i - 1;
            plist_trim(key, key_len);
            plist_trim(value, value_len);
            return *key_len > 0;
        }
    return false;
}

static bool plist_text_key_is(const char *key, size_t key_len, const char *name)
{
    return strlen(name) == key_len && strncasecmp(key, name, key_len) == 0;
}

/* Warns that the value of statistic `key` is not what it should be. */
static void plist_text_warn_value(plist_text_parser *p, const char *key, size_t key_len,
                                  const char *value, size_t value_len, const char *expect)
{
    pv_buf q;
    pv_buf_init(&q);
    plist_quote(&q, value, value_len);
    plist_text_warn(p, "%.*s: %s is not %s; the figure is left out", (int)key_len, key,
                    pv_buf_cstr(&q), expect);
    pv_buf_free(&q);
}

/* `Command line at 1997 Feb 15 17:29: "C:\src\proftest\Debug\proftest"`:
 * the date holds colons, so the value starts at `: "` (or the last `: `). */
static void plist_text_command_line(plist_text_parser *p, const char *s, size_t len)
{
    s += 15; /* "Command line at" */
    len -= 15;
    size_t split = SIZE_MAX;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == ':' && plist_text_blank(s[i + 1])) {
            split = i;
            size_t j = i + 1;
            while (j < len && plist_text_blank(s[j]))
                j++;
            if (j < len && s[j] == '"')
                break;
        }
    const char *date = s, *cmd = "";
    size_t date_len = len, cmd_len = 0;
    if (split != SIZE_MAX) {
        date_len = split;
        cmd = s + split + 1;
        cmd_len = len - split - 1;
    }
    plist_trim(&date, &date_len);
    plist_trim(&cmd, &cmd_len);
    if (cmd_len >= 2 && cmd[0] == '"' && cmd[cmd_len - 1] == '"') {
        cmd++;
        cmd_len -= 2;
    }
    p->m.command_date = pv_strpool_add(&p->m.text, date, date_len);
    p->m.command_line = pv_strpool_add(&p->m.text, cmd, cmd_len);
}

static void plist_text_keep_stat(plist_text_parser *p, const char *key, size_t key_len,
                                 const char *value, size_t value_len)
{
    plist_model *m = &p->m;
    m->stats = pv_xgrow(m->stats, &m->stat_cap, m->stat_count + 1, sizeof *m->stats);
    pv_buf k;
    pv_buf_init(&k);
    if (p->section == PLIST_TEXT_MODULE && m->module_count)
        pv_buf_printf(&k, "%s: ", pv_strpool_get(&m->text, m->modules[m->module_count - 1].name));
    pv_buf_append(&k, key, key_len);
    m->stats[m->stat_count++] = (plist_raw){p->line_no, pv_strpool_add(&m->text, k.data, k.len),
                                            pv_strpool_add(&m->text, value, value_len)};
    pv_buf_free(&k);
}

/* A line of the Program Statistics block; false when it is not a statistic. */
static bool plist_text_program_stat(plist_text_parser *p, const char *s, size_t len)
{
    plist_model *m = &p->m;
    if (plist_text_starts(s, len, "Command line at ")) {
        plist_text_command_line(p, s, len);
        return true;
    }
    /* `Overhead Calculated 8`, `Overhead Average 8`: no colon. */
    static const char *const overhead[2] = {"Overhead Calculated", "Overhead Average"};
    for (int k = 0; k < 2; k++)
        if (plist_text_starts(s, len, overhead[k])) {
            const char *v = s + strlen(overhead[k]);
            size_t vlen = len - strlen(overhead[k]);
            plist_trim(&v, &vlen);
            if (vlen && v[0] == ':') {
                v++;
                vlen--;
            }
            int64_t n;
            if (!plist_parse_count(v, vlen, &n)) {
                plist_text_warn_value(p, overhead[k], strlen(overhead[k]), v, vlen, "a count");
                return true;
            }
            if (k == 0) {
                m->overhead_calculated = n;
                m->has_overhead_calculated = true;
            } else {
                m->overhead_average = n;
                m->has_overhead_average = true;
            }
            return true;
        }
    const char *key, *value;
    size_t key_len, value_len;
    if (!plist_text_key_value(s, len, &key, &key_len, &value, &value_len))
        return false;
    int64_t n;
    double pct;
    if (plist_text_key_is(key, key_len, "Total time") ||
        plist_text_key_is(key, key_len, "Time outside of functions")) {
        bool total = key_len == 10;
        if (!plist_text_time(value, value_len, total ? &m->total_time : &m->outside_time))
            plist_text_warn_value(p, key, key_len, value, value_len, "a time in milliseconds");
        else if (total)
            m->has_total_time = true;
        else
            m->has_outside_time = true;
    } else if (plist_text_key_is(key, key_len, "Call depth") ||
               plist_text_key_is(key, key_len, "Total hits") ||
               plist_text_key_is(key, key_len, "Total functions") ||
               plist_text_key_is(key, key_len, "Total lines")) {
        if (!plist_parse_count(value, value_len, &n)) {
            plist_text_warn_value(p, key, key_len, value, value_len, "a count");
        } else if (plist_text_key_is(key, key_len, "Call depth")) {
            m->call_depth = n;
            m->has_call_depth = true;
        } else if (plist_text_key_is(key, key_len, "Total hits")) {
            m->total_hits = n;
            m->has_total_hits = true;
        } else {
            m->units = n;
            m->has_units = true;
        }
    } else if (plist_text_key_is(key, key_len, "Function coverage") ||
               plist_text_key_is(key, key_len, "Line coverage")) {
        if (!plist_text_percent(value, value_len, &pct))
            plist_text_warn_value(p, key, key_len, value, value_len, "a percentage");
        else
            m->coverage_text = pv_strpool_add(&m->text, value, value_len);
    } else {
        plist_text_keep_stat(p, key, key_len, value, value_len);
    }
    return true;
}

/* A line of a Module Statistics block; false when it is not a statistic. */
static bool plist_text_module_stat(plist_text_parser *p, const char *s, size_t len)
{
    const char *key, *value;
    size_t key_len, value_len;
    if (!plist_text_key_value(s, len, &key, &key_len, &value, &value_len))
        return false;
    if (p->module == PLIST_NONE)
        return false;
    plist_module *md = &p->m.modules[p->module];
    if (plist_text_key_is(key, key_len, "Time in module")) {
        if (plist_text_time(value, value_len, &md->time))
            md->has |= PLIST_HAS_TIME;
        else
            plist_text_warn_value(p, key, key_len, value, value_len, "a time in milliseconds");
    } else if (plist_text_key_is(key, key_len, "Percent of time in module")) {
        if (plist_text_percent(value, value_len, &md->percent_time))
            md->has |= PLIST_HAS_PERCENT;
        else
            plist_text_warn_value(p, key, key_len, value, value_len, "a percentage");
    } else if (plist_text_key_is(key, key_len, "Functions in module") ||
               plist_text_key_is(key, key_len, "Lines in module")) {
        if (plist_parse_count(value, value_len, &md->units))
            md->has |= PLIST_HAS_UNITS;
        else
            plist_text_warn_value(p, key, key_len, value, value_len, "a count");
    } else if (plist_text_key_is(key, key_len, "Hits in module")) {
        if (plist_parse_count(value, value_len, &md->hits))
            md->has |= PLIST_HAS_HITS;
        else
            plist_text_warn_value(p, key, key_len, value, value_len, "a count");
    } else if (plist_text_key_is(key, key_len, "Module function coverage") ||
               plist_text_key_is(key, key_len, "Module line coverage")) {
        if (plist_text_percent(value, value_len, &md->coverage))
            md->has |= PLIST_HAS_COVERAGE;
        else
            plist_text_warn_value(p, key, key_len, value, value_len, "a percentage");
    } else {
        plist_text_keep_stat(p, key, key_len, value, value_len);
    }
    return true;
}

static void plist_text_begin_module(plist_text_parser *p, const char *name, size_t len)
{
    plist_model *m = &p->m;
    plist_trim(&name, &len);
    m->modules = pv_xgrow(m->modules, &m->module_cap, m->module_count + 1, sizeof *m->modules);
    plist_module *md = &m->modules[m->module_count];
    memset(md, 0, sizeof *md);
    md->name = pv_strpool_add(&m->text, name, len);
    md->file_line = p->line_no;
    p->module = m->module_count++;
    p->exe = md->name;
    p->source = 0;
    p->section = PLIST_TEXT_MODULE;
    plist_text_clear_titles(p);
}

/* ---- one line */

/* Reads one line (without its end of line).  False on a fatal error. */
static bool plist_text_line(plist_text_parser *p, const char *s, size_t len)
{
    /* Trailing blanks and CR are not data; a form feed starts a page. */
    while (len && (s[len - 1] == '\r' || plist_text_blank(s[len - 1])))
        len--;
    while (len && s[0] == '\f') {
        s++;
        len--;
        plist_text_flush(p); /* a page ends a row */
    }
    size_t lead = 0;
    while (lead < len && plist_text_blank(s[lead]))
        lead++;
    if (lead == len) {
        plist_text_flush(p);
        return true;
    }
    const char *t = s + lead;
    size_t tlen = len - lead;

    if (plist_text_starts(t, tlen, "Profile:")) {
        plist_text_flush(p);
        return plist_text_profile(p, t, tlen);
    }
    if (!p->has_kind) {
        p->skipped_before++;
        return true;
    }
    if (plist_text_starts(t, tlen, "Date:")) {
        plist_text_flush(p);
        if (!p->date_line) {
            p->date_line = p->line_no;
            const char *v = t + 5;
            size_t vlen = tlen - 5;
            plist_trim(&v, &vlen);
            p->m.date = pv_strpool_add(&p->m.text, v, vlen);
        }
        return true;
    }
    if (plist_text_key_is(t, tlen, "Program Statistics")) {
        plist_text_flush(p);
        p->section = PLIST_TEXT_PROGRAM;
        return true;
    }
    if (plist_text_starts(t, tlen, "Module Statistics for ")) {
        plist_text_flush(p);
        plist_text_begin_module(p, t + 22, tlen - 22);
        return true;
    }
    bool lines = p->kind == PLIST_TEXT_LINE_COUNTING || p->kind == PLIST_TEXT_LINE_COVERAGE;
    if (lines && plist_text_starts(t, tlen, "Source file:")) {
        plist_text_flush(p);
        const char *v = t + 12;
        size_t vlen = tlen - 12;
        plist_trim(&v, &vlen);
        p->source = pv_strpool_add(&p->m.text, v, vlen);
        p->section = PLIST_TEXT_TITLES;
        plist_text_clear_titles(p);
        return true;
    }
    if (plist_text_rule(t, tlen)) {
        plist_text_flush(p);
        if (p->section == PLIST_TEXT_TITLES) {
            p->section = PLIST_TEXT_ROWS;
            p->seen_rule = true;
        }
        return true; /* an underline, or a rule a page break repeats */
    }
    switch (p->section) {
    case PLIST_TEXT_HEADER:
        plist_text_warn_line(p, "text before the Program Statistics", t, tlen);
        return true;
    case PLIST_TEXT_PROGRAM:
        if (plist_text_program_stat(p, t, tlen))
            return true;
        break; /* the titles of a table without a module block */
    case PLIST_TEXT_MODULE:
        if (plist_text_module_stat(p, t, tlen))
            return true;
        break;
    case PLIST_TEXT_TITLES:
    case PLIST_TEXT_ROWS:
        break;
    }
    if (p->section == PLIST_TEXT_PROGRAM || p->section == PLIST_TEXT_MODULE) {
        p->section = PLIST_TEXT_TITLES;
        plist_text_clear_titles(p);
    }
    if (p->section == PLIST_TEXT_ROWS && plist_text_continuation(p, s, len, true))
        return true;
    if (plist_text_row(p, s, len)) {
        p->section = PLIST_TEXT_ROWS;
        return true;
    }
    if (p->section == PLIST_TEXT_TITLES && !p->seen_rule) {
        plist_text_flush(p);
        plist_text_add_title(p, s, len);
        return true;
    }
    if (plist_text_is_title(p, s, len)) {
        plist_text_flush(p);
        return true; /* repeated at a page break */
    }
    if (plist_text_continuation(p, s, len, false))
        return true;
    plist_text_flush(p);
    pv_buf why;
    pv_buf_init(&why);
    pv_buf_printf(&why, "not a row of a %s table (%s)", plist_text_kinds[p->kind].header,
                  plist_text_kinds[p->kind].row);
    plist_text_warn_line(p, pv_buf_cstr(&why), t, tlen);
    pv_buf_free(&why);
    return true;
}

/* ---- the loader */

pv_load_status pv_plist_text_load_buffer(pv_file *f, const char *data, size_t len,
                                         const pv_load_options *o)
{
    plist_text_parser p;
    memset(&p, 0, sizeof p);
    plist_model_init(&p.m, f);
    p.m.text_report = true;
    p.module = PLIST_NONE;
    p.source_col = SIZE_MAX;
    pv_buf_init(&p.pending_text);

    size_t i = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    bool ok = true, cancelled = false;
    while (i < len && ok) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len;
        p.line_no++;
        ok = plist_text_line(&p, data + i, end - i);
        i = end + 1;
        if ((p.line_no & 0xFFFF) == 0 &&
            !pv_progress_step(&o->progress, "reading the PLIST report", i, len)) {
            cancelled = true;
            break;
        }
    }
    plist_text_flush(&p);

    pv_load_status status = PV_LOAD_OK;
    if (cancelled) {
        pv_error(&f->diag, "%s: line %zu: loading cancelled", f->path, p.line_no);
        status = PV_LOAD_ERROR;
    } else if (!ok) {
        status = PV_LOAD_ERROR; /* the message is in f->diag */
    } else if (!p.has_kind) {
        pv_error(&f->diag,
                 "%s: line 1: not a PLIST text report: no 'Profile: KIND' line (KIND is "
                 "Function timing, Function counting, Function coverage, Line counting or "
                 "Line coverage)",
                 f->path);
        status = PV_LOAD_ERROR;
    } else {
        if (p.m.routine_count == 0 && p.m.line_count == 0)
            pv_warn(&f->diag, "%s: line %zu: the report has no table rows", f->path,
                    p.line_no ? p.line_no : 1);
        plist_build(&p.m);
    }
    plist_text_clear_titles(&p);
    pv_buf_free(&p.pending_text);
    plist_model_free(&p.m);
    return status;
}

static pv_load_status plist_text_load(pv_file *f, const pv_load_options *o)
{
    pv_mapped_file mf;
    int err = pv_map_file(f->path, &mf);
    if (err) {
        pv_error(&f->diag, "%s: cannot read: %s", f->path, strerror(err));
        return PV_LOAD_ERROR;
    }
    pv_load_status status = pv_plist_text_load_buffer(f, (const char *)mf.data, mf.size, o);
    pv_unmap_file(&mf);
    return status;
}

/* One of the first five lines that are not blank (after a BOM and form
 * feeds) must be `Profile: ...` (a logo or a title may come before it):
 * certain with a known kind, likely without (so that the loader can say
 * which kind it does not know). */
static int plist_text_probe(const unsigned char *head, size_t len, uint64_t file_size,
                            const char *path)
{
    (void)file_size;
    (void)path;
    size_t i = 0;
    if (len >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    for (int lines = 0; i < len && lines < 5;) {
        const unsigned char *nl = memchr(head + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - head) : len;
        const char *s = (const char *)head + i;
        size_t n = end - i;
        i = end + 1;
        while (n && (s[0] == '\f' || plist_text_blank(s[0]))) {
            s++;
            n--;
        }
        while (n && (s[n - 1] == '\r' || plist_text_blank(s[n - 1])))
            n--;
        if (n == 0)
            continue;
        lines++;
        if (!plist_text_starts(s, n, "Profile:"))
            continue;
        s += 8;
        n -= 8;
        plist_trim(&s, &n);
        for (size_t k = 0; k < PLIST_TEXT_KINDS; k++)
            if (plist_text_starts(s, n, plist_text_kinds[k].header))
                return lines == 1 ? 90 : 80;
        return 50;
    }
    return 0;
}

const pv_loader pv_loader_plist_text = {
    .name = "plist-text",
    .description = "MSVC PLIST text report (PLIST without /T)",
    .probe = plist_text_probe,
    .load = plist_text_load,
};
