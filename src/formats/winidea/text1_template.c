/*
 * text1_template.c - the Text1 section formats (docs/formats.md §1): the
 * macros, the template a header compiles into, how an entry line is split
 * by it, and the number readers.  The parser (text1.c) uses them.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/text1_internal.h"

/* ---- macros */

/* The macros of the vendor document; `free_text` marks the fields that may
 * contain the separator (docs/formats.md §1: matched by anchoring every other
 * field from both ends of the line). */
static const struct {
    const char *name;
    unsigned char macro;
    bool free_text;
} text1_macros[] = {
    {"HANDLE", T1_HANDLE, false},
    {"HANDLE.PARENT", T1_HANDLE_PARENT, false},
    {"HANDLE.STATE", T1_HANDLE_STATE, false},
    {"NAME", T1_NAME, true},
    {"NAME.PARENT", T1_NAME_PARENT, true},
    {"VALUE", T1_VALUE, false},
    {"VALUE.TYPE", T1_VALUE_TYPE, false},
    {"VALUE.UNIT", T1_VALUE_UNIT, false},
    {"FILE", T1_FILE, true},
    {"PATH", T1_PATH, true},
    {"FORMAT", T1_FORMAT, true},
    {"CLASS", T1_CLASS, false},
    {"CONTEXT", T1_CONTEXT, false},
    {"COUNT", T1_COUNT, false},
    {"EVENT", T1_EVENT, false},
    {"TIME", T1_TIME, false},
    {"TOTAL_TIME", T1_TOTAL_TIME, false},
    /* profview's windowed exports (docs/export.md "Windows") */
    {"WINDOW.FROM", T1_WINDOW_FROM, false},
    {"WINDOW.TO", T1_WINDOW_TO, false},
};

bool text1_macro_is_free(unsigned macro)
{
    for (size_t i = 0; i < PV_ARRAY_LEN(text1_macros); i++)
        if (text1_macros[i].macro == macro)
            return text1_macros[i].free_text;
    return false;
}

/* "%HANDLE%", "%T.NET%", ... for messages. */
const char *text1_macro_name(unsigned macro)
{
    static const char *const stat_names[PV_WI_STAT_COUNT] = {
#define PV_WI_STAT_NAME(name, macro, column) "%" macro "%",
        PV_WI_STATS(PV_WI_STAT_NAME)
#undef PV_WI_STAT_NAME
    };
    static const char *const names[] = {
        "an unknown macro", "%HANDLE%", "%HANDLE.PARENT%", "%HANDLE.STATE%", "%NAME%",
        "%NAME.PARENT%", "%VALUE%", "%VALUE.TYPE%", "%VALUE.UNIT%", "%FILE%", "%PATH%",
        "%FORMAT%", "%CLASS%", "%CONTEXT%", "%COUNT%", "%EVENT%", "%TIME%", "%TOTAL_TIME%",
        "%WINDOW.FROM%", "%WINDOW.TO%",
    };
    _Static_assert(PV_ARRAY_LEN(names) == T1_STAT_FIRST, "one name per macro");
    if (macro >= T1_STAT_FIRST && macro < T1_MACRO_COUNT)
        return stat_names[macro - T1_STAT_FIRST];
    return macro < T1_STAT_FIRST ? names[macro] : "?";
}


/* Looks a macro name up: case-insensitive, whitespace inside ignored
 * (`T. OUTSIDE.MIN`, docs/formats.md §1). */
unsigned text1_macro_lookup(const char *s, size_t n)
{
    char norm[32];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (text1_is_blank(s[i]))
            continue;
        if (len + 1 >= sizeof norm)
            return T1_UNKNOWN;
        norm[len++] = (char)text1_ascii_upper((unsigned char)s[i]);
    }
    norm[len] = '\0';
    for (size_t i = 0; i < PV_ARRAY_LEN(text1_macros); i++)
        if (strcmp(norm, text1_macros[i].name) == 0)
            return text1_macros[i].macro;
    for (unsigned i = 0; i < PV_WI_STAT_COUNT; i++)
        if (strcmp(norm, pv_wi_stat_macro[i]) == 0)
            return T1_STAT_FIRST + i;
    return T1_UNKNOWN;
}


void text1_template_free(text1_template *t)
{
    free(t->macro);
    free(t->text);
    free(t->lit_off);
    free(t->lit_len);
    free(t->fields);
    memset(t, 0, sizeof *t);
}

/* Compiles a FORMAT string ("%HANDLE%,%EVENT%,%VALUE%,%TIME%") into a
 * template.  `%%` is a literal percent sign; an unterminated `%` starts
 * literal text.  Leading blanks of the first literal and trailing blanks of
 * the last are dropped, as they are from every line. */
void text1_template_compile(text1_template *t, const char *fmt, size_t n)
{
    memset(t, 0, sizeof *t);
    for (size_t m = 0; m < T1_MACRO_COUNT; m++)
        t->field_of[m] = SIZE_MAX;
    t->free_first = t->free_last = SIZE_MAX;
    t->text = pv_xmalloc(n + 1);
    size_t text_len = 0, cap_fields = 0, cap_lits = 0;
    size_t lit_start = 0;
    size_t i = 0;
    while (i < n) {
        if (fmt[i] != '%') {
            t->text[text_len++] = fmt[i++];
            continue;
        }
        const char *close = memchr(fmt + i + 1, '%', n - i - 1);
        if (!close) {
            memcpy(t->text + text_len, fmt + i, n - i);
            text_len += n - i;
            break;
        }
        size_t name_len = (size_t)(close - (fmt + i + 1));
        if (name_len == 0) {
            t->text[text_len++] = '%';
            i += 2;
            continue;
        }
        t->lit_off = pv_xgrow(t->lit_off, &cap_lits, t->count + 2, sizeof *t->lit_off);
        t->lit_len = pv_xrealloc(t->lit_len, cap_lits * sizeof *t->lit_len);
        t->lit_off[t->count] = lit_start;
        t->lit_len[t->count] = text_len - lit_start;
        if (t->count > 0 && text_len == lit_start)
            t->adjacent = true;
        lit_start = text_len;
        unsigned macro = text1_macro_lookup(fmt + i + 1, name_len);
        t->macro = pv_xgrow(t->macro, &cap_fields, t->count + 1, 1);
        t->macro[t->count] = (unsigned char)macro;
        if (macro == T1_UNKNOWN)
            t->has_unknown = true;
        else if (t->field_of[macro] == SIZE_MAX)
            t->field_of[macro] = t->count;
        if (text1_macro_is_free(macro)) {
            if (t->free_first == SIZE_MAX)
                t->free_first = t->count;
            t->free_last = t->count;
        }
        t->count++;
        i = (size_t)(close - fmt) + 1;
    }
    t->lit_off = pv_xgrow(t->lit_off, &cap_lits, t->count + 1, sizeof *t->lit_off);
    t->lit_len = pv_xrealloc(t->lit_len, cap_lits * sizeof *t->lit_len);
    t->lit_off[t->count] = lit_start;
    t->lit_len[t->count] = text_len - lit_start;
    t->fields = pv_xcalloc(t->count ? t->count : 1, sizeof *t->fields);
    /* The line's leading and trailing blanks are dropped before matching. */
    while (t->lit_len[0] > 0 && text1_is_blank(t->text[t->lit_off[0]])) {
        t->lit_off[0]++;
        t->lit_len[0]--;
    }
    while (t->lit_len[t->count] > 0 &&
           text1_is_blank(t->text[t->lit_off[t->count] + t->lit_len[t->count] - 1]))
        t->lit_len[t->count]--;
}

const char *text1_lit(const text1_template *t, size_t i)
{
    return t->text + t->lit_off[i];
}

/* First occurrence of lit in s[0..n), or SIZE_MAX. */
static size_t text1_find(const char *s, size_t n, const char *lit, size_t lit_len)
{
    if (lit_len == 0)
        return 0;
    if (lit_len > n)
        return SIZE_MAX;
    size_t limit = n - lit_len + 1; /* candidate starts are below limit */
    size_t from = 0;
    while (from < limit) {
        const char *q = memchr(s + from, lit[0], limit - from);
        if (!q)
            return SIZE_MAX;
        size_t at = (size_t)(q - s);
        if (lit_len == 1 || memcmp(q + 1, lit + 1, lit_len - 1) == 0)
            return at;
        from = at + 1;
    }
    return SIZE_MAX;
}

/* Last occurrence of lit in s[0..n), or SIZE_MAX. */
static size_t text1_rfind(const char *s, size_t n, const char *lit, size_t lit_len)
{
    if (lit_len == 0)
        return n;
    if (lit_len > n)
        return SIZE_MAX;
    size_t limit = n - lit_len + 1; /* candidate starts are below limit */
    /* A plain backward scan: the fields after a free-text one are short. */
    while (limit > 0) {
        limit--;
        if (s[limit] == lit[0] && memcmp(s + limit, lit, lit_len) == 0)
            return limit;
    }
    return SIZE_MAX;
}

/* Splits line s[0..n) by the template into t->fields.  Fields before the
 * last free-text field are found from the start (so a first free-text field
 * takes the shortest match), fields after it from the end, and the free-text
 * field gets what lies between (docs/formats.md §1).  Without free-text fields
 * the last field gets the rest of the line.  On failure *missing is the
 * index of the literal that was not found (0 = the prefix). */
bool text1_template_match(const text1_template *t, const char *s, size_t n,
                                 size_t *missing)
{
    text1_slice *f = t->fields;
    size_t last = t->free_last != SIZE_MAX ? t->free_last : t->count - 1;
    size_t prefix = t->lit_len[0];
    if (n < prefix || memcmp(s, text1_lit(t, 0), prefix) != 0) {
        *missing = 0;
        return false;
    }
    size_t pos = prefix;
    for (size_t i = 0; i < last; i++) {
        size_t sep = t->lit_len[i + 1];
        size_t at = text1_find(s + pos, n - pos, text1_lit(t, i + 1), sep);
        if (at == SIZE_MAX) {
            *missing = i + 1;
            return false;
        }
        f[i].s = s + pos;
        f[i].n = at;
        pos += at + sep;
    }
    size_t suffix = t->lit_len[t->count];
    if (n - pos < suffix || memcmp(s + n - suffix, text1_lit(t, t->count), suffix) != 0) {
        *missing = t->count;
        return false;
    }
    size_t end = n - suffix;
    for (size_t i = t->count - 1; i > last; i--) {
        size_t sep = t->lit_len[i];
        size_t at = text1_rfind(s + pos, end - pos, text1_lit(t, i), sep);
        if (at == SIZE_MAX) {
            *missing = i;
            return false;
        }
        f[i].s = s + pos + at + sep;
        f[i].n = end - (pos + at + sep);
        end = pos + at;
    }
    f[last].s = s + pos;
    f[last].n = end - pos;
    return true;
}

/* With two free-text fields the first took the shortest match; the split is
 * ambiguous when the separator that ended it occurs again in the last one. */
bool text1_match_ambiguous(const text1_template *t)
{
    if (t->free_first == t->free_last)
        return false;
    const text1_slice *last = &t->fields[t->free_last];
    size_t sep = t->lit_len[t->free_first + 1];
    return sep > 0 &&
           text1_find(last->s, last->n, text1_lit(t, t->free_first + 1), sep) != SIZE_MAX;
}

/* ---- values */

const signed char text1_hex_digit[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,
    ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
    ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
    ['F'] = 16,
};

/* Hex digits (an optional 0x prefix is accepted), at most max_digits. */
bool text1_parse_hex(const char *s, size_t n, size_t max_digits, uint64_t *out)
{
    text1_trim(&s, &n);
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        n -= 2;
    }
    if (n == 0 || n > max_digits)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = text1_hex_digit[(unsigned char)s[i]];
        if (!d)
            return false;
        v = v << 4 | (uint64_t)(d - 1);
    }
    *out = v;
    return true;
}

/* A signed decimal 64-bit integer. */
bool text1_parse_dec(const char *s, size_t n, int64_t *out)
{
    text1_trim(&s, &n);
    if (n == 0)
        return false;
    bool negative = s[0] == '-';
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (i == n)
        return false;
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9 || v > (limit - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = negative ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return true;
}

/* Whether the TIMELINE template suits text1_fast_event: no prefix or
 * suffix, single-character separators that cannot be part of a number. */
bool text1_fast_template(const text1_template *t)
{
    if (t->has_unknown || t->free_first != SIZE_MAX || t->lit_len[0] || t->lit_len[t->count])
        return false;
    for (size_t i = 1; i < t->count; i++) {
        char c = t->text[t->lit_off[i]];
        if (t->lit_len[i] != 1 || text1_hex_digit[(unsigned char)c] || c == '-' || c == '\n' ||
            c == '\r' || text1_is_blank(c))
            return false;
    }
    return true;
}
