/* plist.c - MSVC PLIST /T tab-delimited reports (docs/formats.md §4).
 *
 * One record per line, fields separated by tabs, the first field a format
 * tag: 0..5 global records, 6 function records, 7 line records, 8/9/10 the
 * function-attribution stacks of the 6 record before them.  The loader reads
 * the whole file in one pass into flat arrays, then builds the views:
 * summary, routines (with callers/callees details), lines, call-trace (a tree
 * built from the stacks), stacks, and records (records it could not place).
 *
 * Decisions where the seed and docs/formats.md are silent (docs/plist.md):
 *   - stack names are listed from the callee outwards: the first name is the
 *     innermost frame, the last the outermost caller.  When the first name is
 *     the function of the stack, the stack includes it; otherwise the stack
 *     holds its callers and the function is the implicit innermost frame;
 *   - in a 10 record every tab separates two names (so several names per
 *     record and one name per record read the same way);
 *   - a 6 record with more than 7 fields has tabs in its name: the fields
 *     from the 7th on are joined with tabs (warning); likewise for the last
 *     free-text field of 0, 1 and 4 records;
 *   - `child` of a 9 record is, like `child` of a 6 record, the time with
 *     children.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/plist.h"
#include "profview/table.h"

#define PLIST_MAX_TAG 10
#define PLIST_NONE SIZE_MAX
/* The interned-name and tree-node indices are 32-bit (hash map values). */
#define PLIST_MAX_ITEMS (UINT32_MAX - 1u)

/* ---- what one pass over the file collects */

enum {
    PLIST_HAS_HITS = 1u << 0,
    PLIST_HAS_TIME = 1u << 1,
    PLIST_HAS_CHILD = 1u << 2,
    PLIST_HAS_LINE = 1u << 3,
    PLIST_HAS_SIZE = 1u << 4,
};

typedef struct plist_routine {
    uint32_t exe, source; /* pool offsets */
    uint32_t name;        /* interned name id */
    int64_t hits, time, child;
    unsigned has;
    size_t file_line;
} plist_routine;

typedef struct plist_line {
    uint32_t exe, source;
    int64_t line, hits;
    unsigned has;
    size_t file_line;
} plist_line;

typedef struct plist_stack {
    size_t routine; /* index into routines, PLIST_NONE when unattached */
    int64_t size, hits, time, child;
    unsigned has;
    size_t first_name; /* index into stack_names */
    size_t name_count;
    size_t file_line;
} plist_stack;

typedef struct plist_raw {
    size_t file_line;
    uint32_t tag;  /* the first field as written */
    uint32_t text; /* the rest of the line, tabs kept */
} plist_raw;

/* Interned names: routine and stack names compared as whole byte strings. */
typedef struct plist_names {
    pv_strpool pool;
    uint32_t *offsets; /* id -> pool offset */
    size_t count, cap;
    pv_hashmap index; /* hash (re-mixed on collision) -> id */
} plist_names;

typedef struct plist_edge {
    uint32_t caller, callee; /* name ids */
    int64_t hits, time, child;
} plist_edge;

/* Everything the callers/callees details need; owned by the routines table. */
typedef struct plist_graph {
    plist_names names;
    uint32_t *routine_name; /* routines row -> name id */
    size_t routine_count;
    plist_edge *edges;
    size_t edge_count, edge_cap;
} plist_graph;

typedef struct plist_field {
    const char *s;
    size_t len;
} plist_field;

typedef struct plist_parser {
    pv_file *f;
    const char *path;
    pv_strpool text; /* exe/source/global/raw text */
    plist_names names;

    plist_routine *routines;
    size_t routine_count, routine_cap;
    plist_line *lines;
    size_t line_count, line_cap;
    plist_stack *stacks;
    size_t stack_count, stack_cap;
    uint32_t *stack_names;
    size_t stack_name_count, stack_name_cap;
    plist_raw *unknown;
    size_t unknown_count, unknown_cap;
    plist_raw *rec5;
    size_t rec5_count, rec5_cap;

    /* Global records 0-4: pool offsets (0 = absent) and numbers. */
    uint32_t version, banner, method_text, method_desc, date, command_line;
    int64_t method, total_time, outside_time, call_depth, total_hits, units, units_hit;
    bool has_method, has_total_time, has_outside_time, has_call_depth, has_total_hits, has_units,
        has_units_hit;
    size_t global_line[6]; /* where each global record was seen (0 = not yet) */

    /* Attribution state (docs/formats.md §4: 8/9/10 attach to the last 6). */
    size_t current_routine; /* PLIST_NONE before the first 6 */
    size_t current_stack;   /* the open 9 (or stray 10 run), PLIST_NONE if none */
    size_t count_line;      /* line of the pending 8 record, 0 if none */
    int64_t count_expected; /* its number of stacks */
    size_t count_seen;      /* 9 records since it */
    size_t records;         /* recognised records (tags 0..10) */

    /* The fields of the current line. */
    plist_field *fields;
    size_t field_count, field_cap;
    size_t line_no;
} plist_parser;

/* ---- interned names */

static void plist_names_init(plist_names *n)
{
    memset(n, 0, sizeof *n);
    pv_strpool_init(&n->pool);
    pv_hashmap_init(&n->index);
}

static void plist_names_free(plist_names *n)
{
    pv_strpool_free(&n->pool);
    free(n->offsets);
    pv_hashmap_free(&n->index);
}

static const char *plist_name(const plist_names *n, uint32_t id)
{
    return id < n->count ? pv_strpool_get(&n->pool, n->offsets[id]) : "";
}

/* Returns the id of the name `s` (len bytes), adding it when new.  Equal
 * hashes of different names are resolved by re-mixing the key. */
static uint32_t plist_names_intern(plist_names *n, const char *s, size_t len)
{
    uint64_t key = pv_hash_bytes(s, len);
    for (;;) {
        uint32_t id;
        if (!pv_hashmap_get(&n->index, key, &id))
            break;
        const char *have = pv_strpool_get(&n->pool, n->offsets[id]);
        if (strlen(have) == len && memcmp(have, s, len) == 0)
            return id;
        key = key * UINT64_C(0x9E3779B97F4A7C15) + 1;
    }
    if (n->count >= PLIST_MAX_ITEMS)
        return 0; /* cannot happen below 4 G names; keeps the index 32-bit */
    n->offsets = pv_xgrow(n->offsets, &n->cap, n->count + 1, sizeof *n->offsets);
    n->offsets[n->count] = pv_strpool_add(&n->pool, s, len);
    uint32_t id = (uint32_t)n->count++;
    pv_hashmap_put(&n->index, key, id);
    return id;
}

/* ---- messages */

/* Appends `s` for a message: control characters escaped, at most 60 bytes. */
static void plist_quote(pv_buf *b, const char *s, size_t len)
{
    pv_buf_putc(b, '\'');
    if (len > 60) {
        pv_escape_controls(b, s, 57);
        pv_buf_puts(b, "...");
    } else {
        pv_escape_controls(b, s, len);
    }
    pv_buf_putc(b, '\'');
}

static void plist_warn(plist_parser *p, const char *fmt, ...) PV_PRINTF(2, 3);
static void plist_warn(plist_parser *p, const char *fmt, ...)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_printf(&b, "%s: line %zu: ", p->path, p->line_no);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    pv_warn(&p->f->diag, "%s", pv_buf_cstr(&b));
    pv_buf_free(&b);
}

/* Warns that field `index` (`what`) of the current record is not a number. */
static void plist_warn_number(plist_parser *p, size_t index, const char *what, const char *expect)
{
    pv_buf q;
    pv_buf_init(&q);
    plist_quote(&q, p->fields[index].s, p->fields[index].len);
    plist_warn(p, "field %zu (%s) of a %.*s record: %s is not %s; the cell is left empty",
               index + 1, what, (int)p->fields[0].len, p->fields[0].s, pv_buf_cstr(&q), expect);
    pv_buf_free(&q);
}

/* ---- numbers */

static void plist_trim(const char **s, size_t *len)
{
    while (*len && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*len)--;
    }
    while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
        (*len)--;
}

/* A count: decimal digits only (blanks around allowed), fits in int64. */
static bool plist_parse_count(const char *s, size_t len, int64_t *out)
{
    plist_trim(&s, &len);
    if (len == 0 || s[0] == '-' || s[0] == '+')
        return false;
    return pv_parse_int64(s, len, out);
}

/* Milliseconds with optional decimals ("12", "12.5", ".25") to ns, exactly:
 * integer arithmetic on the digits; a 7th decimal rounds half up, further
 * decimals are below a nanosecond and only checked to be digits. */
static bool plist_parse_ms(const char *s, size_t len, int64_t *ns)
{
    plist_trim(&s, &len);
    size_t i = 0;
    int64_t whole = 0;
    bool digits = false;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        int d = s[i] - '0';
        if (whole > (INT64_MAX / PV_NS_PER_MS - d) / 10)
            return false;
        whole = whole * 10 + d;
        digits = true;
    }
    int64_t frac = 0;
    int scale = 0;
    bool round_up = false;
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, scale++) {
            digits = true;
            if (scale < 6)
                frac = frac * 10 + (s[i] - '0');
            else if (scale == 6)
                round_up = s[i] >= '5';
        }
    }
    if (!digits || i != len)
        return false;
    for (int k = scale; k < 6; k++)
        frac *= 10;
    /* whole * 10^6 fits; adding the fraction may still pass INT64_MAX. */
    uint64_t v = (uint64_t)whole * (uint64_t)PV_NS_PER_MS + (uint64_t)frac + (round_up ? 1u : 0u);
    if (v > (uint64_t)INT64_MAX)
        return false;
    *ns = (int64_t)v;
    return true;
}

/* Reads field `index` as a count into *out; warns and returns false when it
 * is missing or malformed. */
static bool plist_field_count(plist_parser *p, size_t index, const char *what, int64_t *out)
{
    if (index >= p->field_count)
        return false;
    if (plist_parse_count(p->fields[index].s, p->fields[index].len, out))
        return true;
    plist_warn_number(p, index, what, "a count (decimal digits)");
    return false;
}

static bool plist_field_ms(plist_parser *p, size_t index, const char *what, int64_t *out)
{
    if (index >= p->field_count)
        return false;
    if (plist_parse_ms(p->fields[index].s, p->fields[index].len, out))
        return true;
    plist_warn_number(p, index, what, "a time in milliseconds");
    return false;
}

static uint32_t plist_field_text(plist_parser *p, size_t index)
{
    if (index >= p->field_count)
        return 0;
    return pv_strpool_add(&p->text, p->fields[index].s, p->fields[index].len);
}

/* The fields from `index` to the end joined with tabs, as written. */
static void plist_rest(const plist_parser *p, size_t index, const char **s, size_t *len)
{
    if (index >= p->field_count) {
        *s = "";
        *len = 0;
        return;
    }
    const char *last = p->fields[p->field_count - 1].s;
    *s = p->fields[index].s;
    *len = (size_t)(last + p->fields[p->field_count - 1].len - *s);
}

/* Checks the number of fields of a record with `expected` fields.  With
 * `text_last`, extra fields belong to the last (free-text) field. */
static void plist_check_fields(plist_parser *p, size_t expected, bool text_last,
                               const char *last_name)
{
    if (p->field_count < expected)
        plist_warn(p, "a %.*s record has %zu fields, expected %zu; the missing ones are left empty",
                   (int)p->fields[0].len, p->fields[0].s, p->field_count, expected);
    else if (p->field_count > expected && text_last)
        plist_warn(p,
                   "a %.*s record has %zu fields, expected %zu; the fields from number %zu on "
                   "are taken as one %s containing tabs",
                   (int)p->fields[0].len, p->fields[0].s, p->field_count, expected, expected,
                   last_name);
    else if (p->field_count > expected)
        plist_warn(p, "a %.*s record has %zu fields, expected %zu; the extra fields are ignored",
                   (int)p->fields[0].len, p->fields[0].s, p->field_count, expected);
}

/* ---- attribution */

/* Closes the open stack: its number of names against its 9 record. */
static void plist_close_stack(plist_parser *p)
{
    if (p->current_stack == PLIST_NONE)
        return;
    const plist_stack *s = &p->stacks[p->current_stack];
    p->current_stack = PLIST_NONE;
    if ((s->has & PLIST_HAS_SIZE) && (uint64_t)s->size != s->name_count)
        pv_warn(&p->f->diag,
                "%s: line %zu: the stack size is %" PRId64 " but %zu names follow in 10 records",
                p->path, s->file_line, s->size, s->name_count);
}

/* Closes the pending 8 record: its number of stacks against the 9s seen. */
static void plist_close_count(plist_parser *p)
{
    if (p->count_line && p->count_expected >= 0 && (uint64_t)p->count_expected != p->count_seen)
        pv_warn(&p->f->diag,
                "%s: line %zu: the 8 record announces %" PRId64 " stacks but %zu follow", p->path,
                p->count_line, p->count_expected, p->count_seen);
    p->count_line = 0;
}

static size_t plist_new_stack(plist_parser *p)
{
    p->stacks = pv_xgrow(p->stacks, &p->stack_cap, p->stack_count + 1, sizeof *p->stacks);
    plist_stack *s = &p->stacks[p->stack_count];
    memset(s, 0, sizeof *s);
    s->routine = p->current_routine;
    s->first_name = p->stack_name_count;
    s->file_line = p->line_no;
    return p->stack_count++;
}

static void plist_warn_stray(plist_parser *p)
{
    plist_warn(p, "a %.*s record before any function record (6): kept as an unattached stack",
               (int)p->fields[0].len, p->fields[0].s);
}

static void plist_record_8(plist_parser *p)
{
    plist_close_stack(p);
    plist_close_count(p);
    plist_check_fields(p, 2, false, NULL);
    if (p->current_routine == PLIST_NONE)
        plist_warn_stray(p);
    int64_t n;
    p->count_line = p->line_no;
    p->count_seen = 0;
    p->count_expected = plist_field_count(p, 1, "number of stacks", &n) ? n : -1;
}

static void plist_record_9(plist_parser *p)
{
    plist_close_stack(p);
    plist_check_fields(p, 5, false, NULL);
    if (p->current_routine == PLIST_NONE && !p->count_line)
        plist_warn_stray(p);
    p->count_seen++;
    size_t i = plist_new_stack(p);
    plist_stack *s = &p->stacks[i];
    if (plist_field_count(p, 1, "stack size", &s->size))
        s->has |= PLIST_HAS_SIZE;
    if (plist_field_count(p, 2, "hit count", &s->hits))
        s->has |= PLIST_HAS_HITS;
    if (plist_field_ms(p, 3, "stack time", &s->time))
        s->has |= PLIST_HAS_TIME;
    if (plist_field_ms(p, 4, "child time", &s->child))
        s->has |= PLIST_HAS_CHILD;
    p->current_stack = i;
}

static void plist_record_10(plist_parser *p)
{
    if (p->current_stack == PLIST_NONE) {
        /* Names without a 9 record: a stack of unknown size and times. */
        if (p->current_routine == PLIST_NONE)
            plist_warn_stray(p);
        else
            plist_warn(p, "a 10 record without a 9 record before it: kept as a stack "
                          "without hits or times");
        p->current_stack = plist_new_stack(p);
    }
    plist_stack *s = &p->stacks[p->current_stack];
    if (p->field_count < 2)
        plist_warn(p, "a 10 record without a function name");
    for (size_t i = 1; i < p->field_count; i++) {
        const char *name = p->fields[i].s;
        size_t len = p->fields[i].len;
        if (len == 0) {
            plist_warn(p, "field %zu of a 10 record is empty; no name taken from it", i + 1);
            continue;
        }
        p->stack_names = pv_xgrow(p->stack_names, &p->stack_name_cap, p->stack_name_count + 1,
                                  sizeof *p->stack_names);
        p->stack_names[p->stack_name_count++] = plist_names_intern(&p->names, name, len);
        s->name_count++;
    }
}

/* ---- the other records */

static void plist_global_seen(plist_parser *p, unsigned tag)
{
    if (p->global_line[tag])
        plist_warn(p, "a second %u record (the first is on line %zu); this one is used", tag,
                   p->global_line[tag]);
    p->global_line[tag] = p->line_no;
}

static void plist_record_global(plist_parser *p, unsigned tag)
{
    const char *s;
    size_t len;
    switch (tag) {
    case 0:
        plist_global_seen(p, tag);
        plist_check_fields(p, 3, true, "banner");
        p->version = plist_field_text(p, 1);
        plist_rest(p, 2, &s, &len);
        p->banner = pv_strpool_add(&p->text, s, len);
        break;
    case 1:
        plist_global_seen(p, tag);
        plist_check_fields(p, 3, true, "description");
        p->method_text = plist_field_text(p, 1);
        p->has_method = plist_field_count(p, 1, "method", &p->method);
        plist_rest(p, 2, &s, &len);
        p->method_desc = pv_strpool_add(&p->text, s, len);
        break;
    case 2:
        plist_global_seen(p, tag);
        plist_check_fields(p, 4, false, NULL);
        p->has_total_time = plist_field_ms(p, 1, "total time", &p->total_time);
        p->has_outside_time = plist_field_ms(p, 2, "outside time", &p->outside_time);
        p->has_call_depth = plist_field_count(p, 3, "call depth", &p->call_depth);
        break;
    case 3:
        plist_global_seen(p, tag);
        plist_check_fields(p, 4, false, NULL);
        p->has_total_hits = plist_field_count(p, 1, "total hits", &p->total_hits);
        p->has_units = plist_field_count(p, 2, "units", &p->units);
        p->has_units_hit = plist_field_count(p, 3, "units hit", &p->units_hit);
        break;
    case 4:
        plist_global_seen(p, tag);
        plist_check_fields(p, 3, true, "command line");
        p->date = plist_field_text(p, 1);
        plist_rest(p, 2, &s, &len);
        p->command_line = pv_strpool_add(&p->text, s, len);
        break;
    default: /* 5: layout unknown (docs/formats.md §4): kept raw */
        plist_rest(p, 1, &s, &len);
        p->rec5 = pv_xgrow(p->rec5, &p->rec5_cap, p->rec5_count + 1, sizeof *p->rec5);
        p->rec5[p->rec5_count++] = (plist_raw){p->line_no, 0, pv_strpool_add(&p->text, s, len)};
        break;
    }
}

static void plist_record_6(plist_parser *p)
{
    plist_close_stack(p);
    plist_close_count(p);
    plist_check_fields(p, 7, true, "function name");
    p->routines = pv_xgrow(p->routines, &p->routine_cap, p->routine_count + 1, sizeof *p->routines);
    plist_routine *r = &p->routines[p->routine_count];
    memset(r, 0, sizeof *r);
    r->file_line = p->line_no;
    r->exe = plist_field_text(p, 1);
    r->source = plist_field_text(p, 2);
    if (plist_field_count(p, 3, "count", &r->hits))
        r->has |= PLIST_HAS_HITS;
    if (plist_field_ms(p, 4, "time", &r->time))
        r->has |= PLIST_HAS_TIME;
    if (plist_field_ms(p, 5, "child", &r->child))
        r->has |= PLIST_HAS_CHILD;
    /* docs/formats.md §4: the name is the last field, whatever it contains. */
    const char *s;
    size_t len;
    plist_rest(p, 6, &s, &len);
    r->name = plist_names_intern(&p->names, s, len);
    p->current_routine = p->routine_count++;
}

static void plist_record_7(plist_parser *p)
{
    plist_check_fields(p, 5, false, NULL);
    p->lines = pv_xgrow(p->lines, &p->line_cap, p->line_count + 1, sizeof *p->lines);
    plist_line *l = &p->lines[p->line_count++];
    memset(l, 0, sizeof *l);
    l->file_line = p->line_no;
    l->exe = plist_field_text(p, 1);
    l->source = plist_field_text(p, 2);
    if (plist_field_count(p, 3, "line", &l->line))
        l->has |= PLIST_HAS_LINE;
    if (plist_field_count(p, 4, "count", &l->hits))
        l->has |= PLIST_HAS_HITS;
}

static void plist_record_unknown(plist_parser *p, const char *why)
{
    const char *s;
    size_t len;
    plist_rest(p, 1, &s, &len);
    pv_buf q;
    pv_buf_init(&q);
    plist_quote(&q, p->fields[0].s, p->fields[0].len);
    plist_warn(p, "%s %s: the record is kept as it is (view 'records')", why, pv_buf_cstr(&q));
    pv_buf_free(&q);
    p->unknown = pv_xgrow(p->unknown, &p->unknown_cap, p->unknown_count + 1, sizeof *p->unknown);
    p->unknown[p->unknown_count++] =
        (plist_raw){p->line_no, pv_strpool_add(&p->text, p->fields[0].s, p->fields[0].len),
                    pv_strpool_add(&p->text, s, len)};
}

/* Reads the tag of a first field: 1-3 decimal digits, blanks around. */
static bool plist_parse_tag(const char *s, size_t len, unsigned *tag)
{
    plist_trim(&s, &len);
    if (len == 0 || len > 3)
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *tag = v;
    return true;
}

/* Splits one line (without its end of line) into fields and dispatches. */
static void plist_parse_line(plist_parser *p, const char *s, size_t len)
{
    /* Trailing blanks and CR are not data (docs/formats.md general rules). */
    while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    size_t lead = 0;
    while (lead < len && s[lead] == ' ')
        lead++;
    if (lead == len)
        return;
    s += lead;
    len -= lead;
    p->field_count = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\t')
            continue;
        p->fields = pv_xgrow(p->fields, &p->field_cap, p->field_count + 1, sizeof *p->fields);
        p->fields[p->field_count++] = (plist_field){s + start, i - start};
        start = i + 1;
    }
    unsigned tag;
    if (!plist_parse_tag(p->fields[0].s, p->fields[0].len, &tag)) {
        plist_record_unknown(p, "the first field is not a record tag:");
        return;
    }
    if (tag > PLIST_MAX_TAG) {
        plist_record_unknown(p, "unknown record tag");
        return;
    }
    p->records++;
    switch (tag) {
    case 6:
        plist_record_6(p);
        break;
    case 7:
        plist_record_7(p);
        break;
    case 8:
        plist_record_8(p);
        break;
    case 9:
        plist_record_9(p);
        break;
    case 10:
        plist_record_10(p);
        break;
    default:
        plist_record_global(p, tag);
        break;
    }
}

/* Adds `v` to a sum when `has`; every value read is >= 0, and a sum of
 * absurd values saturates at INT64_MAX instead of overflowing. */
static void plist_sum(int64_t *acc, bool has, int64_t v)
{
    if (!has)
        return;
    *acc = v > INT64_MAX - *acc ? INT64_MAX : *acc + v;
}

/* ---- views */


enum {
    RT_ID,
    RT_ROUTINE,
    RT_MODULE,
    RT_EXE,
    RT_SOURCE,
    RT_HITS,
    RT_TIME,
    RT_CHILD,
    RT_PERCENT_TIME,
    RT_PERCENT_HITS,
    RT_AVG_TIME,
    RT_AVG_CHILD,
    RT_COVERED,
    RT_FILE_LINE,
    RT_COLUMNS
};
static const pv_column plist_routine_columns[RT_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
    {"module", "Module", PV_TYPE_STRING, PV_COL_KEY},
    {"exe", "Executable", PV_TYPE_STRING, PV_COL_HIDDEN},
    {"source", "Object module", PV_TYPE_STRING, PV_COL_HIDDEN},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children", "With children", PV_TYPE_TIME, PV_COL_DESC},
    {"percent_time", "Time %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"percent_hits", "Hits %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"avg_time", "Avg time", PV_TYPE_TIME, PV_COL_DESC},
    {"avg_time_with_children", "Avg with children", PV_TYPE_TIME, PV_COL_DESC | PV_COL_HIDDEN},
    {"covered", "Covered", PV_TYPE_INT, 0},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum {
    LN_ID,
    LN_EXE,
    LN_SOURCE,
    LN_LINE,
    LN_HITS,
    LN_PERCENT_HITS,
    LN_COVERED,
    LN_FILE_LINE,
    LN_COLUMNS
};
static const pv_column plist_line_columns[LN_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"exe", "Executable", PV_TYPE_STRING, PV_COL_HIDDEN},
    {"source", "Source", PV_TYPE_STRING, PV_COL_NAME},
    {"line", "Line", PV_TYPE_INT, 0},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"percent_hits", "Hits %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"covered", "Covered", PV_TYPE_INT, 0},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum {
    CT_ID,
    CT_PARENT,
    CT_CALL_NO,
    CT_ROUTINE,
    CT_DEPTH,
    CT_THREAD,
    CT_HITS,
    CT_TIME,
    CT_CHILD,
    CT_PERCENT_TIME,
    CT_PERCENT_PARENT,
    CT_STACKS,
    CT_COLUMNS
};
static const pv_column plist_trace_columns[CT_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"parent", "Parent", PV_TYPE_INT, PV_COL_HIDDEN},
    {"call_no", "Call no", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
    {"depth", "Depth", PV_TYPE_INT, PV_COL_HIDDEN},
    {"thread", "Thread", PV_TYPE_INT, PV_COL_HIDDEN},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children", "With children", PV_TYPE_TIME, PV_COL_DESC},
    {"percent_time", "% of total", PV_TYPE_FLOAT, PV_COL_DESC},
    {"percent_parent", "% of parent", PV_TYPE_FLOAT, PV_COL_DESC},
    {"stacks", "Stacks", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum {
    ST_ID,
    ST_ROUTINE,
    ST_ATTACHED,
    ST_STACK_SIZE,
    ST_NAMES,
    ST_HITS,
    ST_TIME,
    ST_CHILD,
    ST_PATH,
    ST_FILE_LINE,
    ST_COLUMNS
};
static const pv_column plist_stack_columns[ST_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"attached", "Attached", PV_TYPE_INT, 0},
    {"stack_size", "Stack size", PV_TYPE_INT, 0},
    {"names", "Names", PV_TYPE_INT, PV_COL_HIDDEN},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"time_with_children", "With children", PV_TYPE_TIME, PV_COL_DESC},
    {"path", "Stack (callee first)", PV_TYPE_STRING, 0},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum { RC_ID, RC_FILE_LINE, RC_TAG, RC_TEXT, RC_COLUMNS };
static const pv_column plist_record_columns[RC_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"file_line", "Line", PV_TYPE_INT, 0},
    {"tag", "Tag", PV_TYPE_STRING, 0},
    {"text", "Fields", PV_TYPE_STRING, PV_COL_NAME},
};

enum { CE_ID, CE_ROUTINE, CE_HITS, CE_TIME, CE_SELF, CE_COLUMNS };
static const pv_column plist_edge_columns[CE_COLUMNS] = {
    {"id", "Id", PV_TYPE_INT, PV_COL_HIDDEN},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "With children", PV_TYPE_TIME, PV_COL_DESC},
    {"self_time", "Time", PV_TYPE_TIME, PV_COL_DESC},
};

static const pv_detail_def plist_routine_details[] = {
    {"callers", "Callers"},
    {"callees", "Callees"},
};

static void plist_summary_add(pv_table *t, const char *key, const char *value)
{
    pv_summary_add(t, key, value);
}

static void plist_summary_int(pv_table *t, const char *key, int64_t v)
{
    char num[32];
    snprintf(num, sizeof num, "%" PRId64, v);
    plist_summary_add(t, key, num);
}

/* part/whole as a percentage with two decimals, rounded down, exactly. */
static void plist_summary_percent(pv_table *t, const char *key, int64_t part, int64_t whole)
{
    if (whole <= 0 || part < 0 || part > INT64_MAX / 10000)
        return;
    int64_t hundredths = part * 10000 / whole;
    char num[48];
    snprintf(num, sizeof num, "%" PRId64 ".%02" PRId64, hundredths / 100, hundredths % 100);
    plist_summary_add(t, key, num);
}

static const char *plist_method_name(int64_t method)
{
    switch (method) {
    case 321:
        return "line count";
    case 324:
        return "line coverage";
    case 521:
        return "function count";
    case 522:
        return "function timing";
    case 524:
        return "function coverage";
    default:
        return NULL;
    }
}

static bool plist_is_function_profile(const plist_parser *p)
{
    if (p->has_method)
        return p->method > 400; /* docs/formats.md §4 */
    return p->routine_count > 0 || p->stack_count > 0 || p->line_count == 0;
}

static bool plist_is_coverage(const plist_parser *p)
{
    return p->has_method && (p->method == 324 || p->method == 524);
}

static pv_view *plist_summary_view(const plist_parser *p)
{
    pv_table *t = pv_summary_new();
    const pv_strpool *tx = &p->text;
    plist_summary_add(t, "format", "plist");
    plist_summary_add(t, "file", p->path);
    if (p->global_line[0]) {
        plist_summary_add(t, "version", pv_strpool_get(tx, p->version));
        plist_summary_add(t, "banner", pv_strpool_get(tx, p->banner));
    }
    if (p->global_line[1]) {
        plist_summary_add(t, "method", pv_strpool_get(tx, p->method_text));
        plist_summary_add(t, "method description", pv_strpool_get(tx, p->method_desc));
        const char *name = p->has_method ? plist_method_name(p->method) : NULL;
        plist_summary_add(t, "profile", name ? name : "unknown method");
    }
    if (p->global_line[1] || p->routine_count || p->line_count)
        plist_summary_add(t, "profile kind", plist_is_function_profile(p) ? "function" : "line");
    if (p->has_total_time)
        pv_summary_add_time(t, "total time", p->total_time);
    if (p->has_outside_time)
        pv_summary_add_time(t, "outside time", p->outside_time);
    if (p->has_total_time && p->has_outside_time)
        pv_summary_add_time(t, "time in functions", p->total_time - p->outside_time);
    if (p->has_call_depth)
        plist_summary_int(t, "call depth", p->call_depth);
    if (p->has_total_hits)
        plist_summary_int(t, "total hits", p->total_hits);
    if (p->has_units)
        plist_summary_int(t, "units", p->units);
    if (p->has_units_hit)
        plist_summary_int(t, "units hit", p->units_hit);
    if (p->has_units && p->has_units_hit) {
        plist_summary_int(t, "units not hit", p->units - p->units_hit);
        plist_summary_percent(t, "coverage percent", p->units_hit, p->units);
    }
    if (p->global_line[4]) {
        plist_summary_add(t, "date", pv_strpool_get(tx, p->date));
        plist_summary_add(t, "command line", pv_strpool_get(tx, p->command_line));
    }
    for (size_t i = 0; i < p->rec5_count; i++)
        plist_summary_add(t, "record 5", pv_strpool_get(tx, p->rec5[i].text));

    /* Totals derived from the local records. */
    if (p->routine_count) {
        int64_t hits = 0, time = 0, executed = 0;
        for (size_t i = 0; i < p->routine_count; i++) {
            const plist_routine *r = &p->routines[i];
            plist_sum(&hits, r->has & PLIST_HAS_HITS, r->hits);
            plist_sum(&time, r->has & PLIST_HAS_TIME, r->time);
            executed += (r->has & PLIST_HAS_HITS) && r->hits > 0;
        }
        plist_summary_int(t, "routines", (int64_t)p->routine_count);
        plist_summary_int(t, "routines executed", executed);
        plist_summary_int(t, "routines never executed", (int64_t)p->routine_count - executed);
        plist_summary_percent(t, "routine coverage percent", executed, (int64_t)p->routine_count);
        plist_summary_int(t, "routine hits", hits);
        pv_summary_add_time(t, "routine time", time);
    }
    if (p->line_count) {
        int64_t hits = 0, executed = 0;
        for (size_t i = 0; i < p->line_count; i++) {
            const plist_line *l = &p->lines[i];
            plist_sum(&hits, l->has & PLIST_HAS_HITS, l->hits);
            executed += (l->has & PLIST_HAS_HITS) && l->hits > 0;
        }
        plist_summary_int(t, "lines", (int64_t)p->line_count);
        plist_summary_int(t, "lines executed", executed);
        plist_summary_int(t, "lines never executed", (int64_t)p->line_count - executed);
        plist_summary_percent(t, "line coverage percent", executed, (int64_t)p->line_count);
        plist_summary_int(t, "line hits", hits);
    }
    if (p->stack_count) {
        int64_t unattached = 0;
        for (size_t i = 0; i < p->stack_count; i++)
            unattached += p->stacks[i].routine == PLIST_NONE;
        plist_summary_int(t, "attribution stacks", (int64_t)p->stack_count);
        plist_summary_int(t, "unattached stacks", unattached);
    }
    if (p->unknown_count)
        plist_summary_int(t, "unknown records", (int64_t)p->unknown_count);
    return pv_table_view(t);
}

static void plist_set_opt(pv_table *t, size_t row, size_t col, bool has, int64_t v)
{
    if (has)
        pv_table_set_int(t, row, col, v);
}

/* The denominator for percentages: the file's total when it has a positive
 * one (what PLIST itself shows), otherwise the sum of the rows. */
static int64_t plist_total(bool has_file_total, int64_t file_total, int64_t sum)
{
    return has_file_total && file_total > 0 ? file_total : sum;
}

/* ---- callers / callees (details of routines) */

static void plist_graph_free(void *ctx)
{
    plist_graph *g = ctx;
    plist_names_free(&g->names);
    free(g->routine_name);
    free(g->edges);
    free(g);
}

static pv_view *plist_open_edges(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)owner;
    const plist_graph *g = ctx;
    if (row >= g->routine_count || detail >= PV_ARRAY_LEN(plist_routine_details))
        return NULL;
    uint32_t self = g->routine_name[row];
    bool callers = detail == 0;
    pv_table *t = pv_table_new(plist_routine_details[detail].id,
                               plist_routine_details[detail].title, plist_edge_columns, CE_COLUMNS);
    for (size_t i = 0; i < g->edge_count; i++) {
        const plist_edge *e = &g->edges[i];
        if ((callers ? e->callee : e->caller) != self)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, CE_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, CE_ROUTINE, plist_name(&g->names, callers ? e->caller : e->callee));
        pv_table_set_int(t, r, CE_HITS, e->hits);
        pv_table_set_int(t, r, CE_TIME, e->child);
        pv_table_set_int(t, r, CE_SELF, e->time);
    }
    return pv_table_view(t);
}

/* Fills path[] (outermost caller first) for stack `s`; returns its length.
 * docs/formats.md §4 leaves the order open; docs/plist.md: names are listed from
 * the callee outwards, and the function itself is added as the innermost
 * frame unless the stack starts with it. */
static size_t plist_stack_path(const plist_parser *p, const plist_stack *s, uint32_t *path)
{
    size_t n = 0;
    for (size_t i = s->name_count; i-- > 0;)
        path[n++] = p->stack_names[s->first_name + i];
    if (s->routine != PLIST_NONE) {
        uint32_t self = p->routines[s->routine].name;
        if (n == 0 || path[n - 1] != self)
            path[n++] = self;
    }
    return n;
}

static void plist_graph_add_edge(plist_graph *g, pv_hashmap *index, uint32_t caller,
                                 uint32_t callee, const plist_stack *s)
{
    uint64_t key = (uint64_t)caller << 32 | callee;
    uint32_t at;
    if (!pv_hashmap_get(index, key, &at)) {
        g->edges = pv_xgrow(g->edges, &g->edge_cap, g->edge_count + 1, sizeof *g->edges);
        at = (uint32_t)g->edge_count++;
        g->edges[at] = (plist_edge){caller, callee, 0, 0, 0};
        pv_hashmap_put(index, key, at);
    }
    plist_edge *e = &g->edges[at];
    plist_sum(&e->hits, s->has & PLIST_HAS_HITS, s->hits);
    plist_sum(&e->time, s->has & PLIST_HAS_TIME, s->time);
    plist_sum(&e->child, s->has & PLIST_HAS_CHILD, s->child);
}

/* ---- the call-trace tree: a trie of the stack paths */

typedef struct plist_node {
    uint32_t name;
    size_t parent, first_child, last_child, next_sibling;
    int64_t hits, time, child;
    size_t stacks; /* stack records ending here */
    unsigned has;
} plist_node;

typedef struct plist_trie {
    plist_node *nodes;
    size_t count, cap;
    size_t first_root, last_root;
    pv_hashmap index; /* (parent + 1) << 32 | name -> node */
} plist_trie;

static size_t plist_trie_child(plist_trie *t, size_t parent, uint32_t name)
{
    uint64_t key = (uint64_t)(parent == PLIST_NONE ? 0 : parent + 1) << 32 | name;
    uint32_t at;
    if (pv_hashmap_get(&t->index, key, &at))
        return at;
    if (t->count >= PLIST_MAX_ITEMS)
        return PLIST_NONE;
    t->nodes = pv_xgrow(t->nodes, &t->cap, t->count + 1, sizeof *t->nodes);
    size_t i = t->count++;
    t->nodes[i] = (plist_node){name, parent, PLIST_NONE, PLIST_NONE, PLIST_NONE, 0, 0, 0, 0, 0};
    size_t *last = parent == PLIST_NONE ? &t->last_root : &t->nodes[parent].last_child;
    size_t *first = parent == PLIST_NONE ? &t->first_root : &t->nodes[parent].first_child;
    if (*last == PLIST_NONE)
        *first = i;
    else
        t->nodes[*last].next_sibling = i;
    *last = i;
    pv_hashmap_put(&t->index, key, (uint32_t)i);
    return i;
}

/* The denominator of time percentages: record 2's total time when positive,
 * otherwise the sum of the routines' times. */
static int64_t plist_time_total(const plist_parser *p)
{
    int64_t sum = 0;
    for (size_t i = 0; i < p->routine_count; i++)
        plist_sum(&sum, p->routines[i].has & PLIST_HAS_TIME, p->routines[i].time);
    return plist_total(p->has_total_time, p->total_time, sum);
}

/* Builds the call-trace table from the trie in pre-order, without
 * recursion (the depth is the input's).  Percentages are of the time with
 * children: of the total time, and of the parent row's. */
static pv_view *plist_trace_view(const plist_parser *p, const plist_trie *t)
{
    int64_t total = plist_time_total(p);
    pv_table *tab = pv_table_new("call-trace", "Call trace", plist_trace_columns, CT_COLUMNS);
    pv_table_make_tree(tab);
    pv_table_reserve(tab, t->count);
    size_t *row_of = pv_xmalloc((t->count ? t->count : 1) * sizeof *row_of);
    int64_t *call_no = pv_xcalloc(t->count ? t->count : 1, sizeof *call_no);
    size_t *todo = pv_xmalloc((t->count ? t->count : 1) * sizeof *todo);
    size_t top = 0;
    /* Siblings are pushed in reverse so that they come out in order. */
    size_t sib_cap = 0, sib_count;
    size_t *sib = NULL;
    size_t first = t->first_root;
    for (;;) {
        sib_count = 0;
        int64_t k = 0;
        for (size_t c = first; c != PLIST_NONE; c = t->nodes[c].next_sibling) {
            sib = pv_xgrow(sib, &sib_cap, sib_count + 1, sizeof *sib);
            sib[sib_count++] = c;
            call_no[c] = ++k;
        }
        while (sib_count)
            todo[top++] = sib[--sib_count];
        if (top == 0)
            break;
        size_t n = todo[--top];
        const plist_node *node = &t->nodes[n];
        size_t r = pv_table_add_row(tab);
        row_of[n] = r;
        pv_table_set_int(tab, r, CT_ID, (int64_t)r + 1);
        bool with_children = node->stacks && (node->has & PLIST_HAS_CHILD);
        if (node->parent != PLIST_NONE) {
            size_t pr = row_of[node->parent];
            pv_table_set_parent(tab, r, pr);
            pv_table_set_int(tab, r, CT_PARENT, (int64_t)pr + 1);
            int64_t depth = 0, parent_child;
            pv_table_get_int(tab, pr, CT_DEPTH, &depth);
            pv_table_set_int(tab, r, CT_DEPTH, depth + 1);
            if (with_children && pv_table_get_int(tab, pr, CT_CHILD, &parent_child) &&
                parent_child > 0)
                pv_table_set_float(tab, r, CT_PERCENT_PARENT,
                                   (double)node->child * 100.0 / (double)parent_child);
        } else {
            pv_table_set_int(tab, r, CT_DEPTH, 0);
        }
        if (with_children && total > 0)
            pv_table_set_float(tab, r, CT_PERCENT_TIME,
                               (double)node->child * 100.0 / (double)total);
        pv_table_set_int(tab, r, CT_CALL_NO, call_no[n]);
        pv_table_set_cstr(tab, r, CT_ROUTINE, plist_name(&p->names, node->name));
        /* PLIST has no threads: the column stays empty (docs/plist.md). */
        if (node->stacks) {
            plist_set_opt(tab, r, CT_HITS, node->has & PLIST_HAS_HITS, node->hits);
            plist_set_opt(tab, r, CT_TIME, node->has & PLIST_HAS_TIME, node->time);
            plist_set_opt(tab, r, CT_CHILD, node->has & PLIST_HAS_CHILD, node->child);
        }
        pv_table_set_int(tab, r, CT_STACKS, (int64_t)node->stacks);
        first = node->first_child;
    }
    free(sib);
    free(todo);
    free(call_no);
    free(row_of);
    return pv_table_view(tab);
}

/* Builds the stacks, call-trace and edges (callers/callees) together. */
static void plist_attribution_views(plist_parser *p, pv_result_set *set, plist_graph *g)
{
    plist_trie trie;
    memset(&trie, 0, sizeof trie);
    trie.first_root = trie.last_root = PLIST_NONE;
    pv_hashmap_init(&trie.index);
    pv_hashmap edge_index;
    pv_hashmap_init(&edge_index);

    pv_table *st = pv_table_new("stacks", "Attribution stacks", plist_stack_columns, ST_COLUMNS);
    size_t longest = 1;
    for (size_t i = 0; i < p->stack_count; i++)
        if (p->stacks[i].name_count + 1 > longest)
            longest = p->stacks[i].name_count + 1;
    uint32_t *path = pv_xmalloc(longest * sizeof *path);
    pv_buf text;
    pv_buf_init(&text);

    for (size_t i = 0; i < p->stack_count; i++) {
        const plist_stack *s = &p->stacks[i];
        size_t n = plist_stack_path(p, s, path);
        size_t r = pv_table_add_row(st);
        pv_table_set_int(st, r, ST_ID, (int64_t)r + 1);
        if (n)
            pv_table_set_cstr(st, r, ST_ROUTINE, plist_name(&p->names, path[n - 1]));
        pv_table_set_int(st, r, ST_ATTACHED, s->routine != PLIST_NONE);
        plist_set_opt(st, r, ST_STACK_SIZE, s->has & PLIST_HAS_SIZE, s->size);
        pv_table_set_int(st, r, ST_NAMES, (int64_t)s->name_count);
        plist_set_opt(st, r, ST_HITS, s->has & PLIST_HAS_HITS, s->hits);
        plist_set_opt(st, r, ST_TIME, s->has & PLIST_HAS_TIME, s->time);
        plist_set_opt(st, r, ST_CHILD, s->has & PLIST_HAS_CHILD, s->child);
        pv_buf_clear(&text);
        for (size_t k = 0; k < s->name_count; k++) {
            if (k)
                pv_buf_puts(&text, " <- ");
            pv_buf_puts(&text, plist_name(&p->names, p->stack_names[s->first_name + k]));
        }
        pv_table_set_str(st, r, ST_PATH, text.data ? text.data : "", text.len);
        pv_table_set_int(st, r, ST_FILE_LINE, (int64_t)s->file_line);

        size_t node = PLIST_NONE;
        for (size_t k = 0; k < n; k++) {
            size_t next = plist_trie_child(&trie, node, path[k]);
            if (next == PLIST_NONE)
                break;
            node = next;
        }
        if (node != PLIST_NONE) {
            plist_node *nd = &trie.nodes[node];
            nd->stacks++;
            plist_sum(&nd->hits, s->has & PLIST_HAS_HITS, s->hits);
            plist_sum(&nd->time, s->has & PLIST_HAS_TIME, s->time);
            plist_sum(&nd->child, s->has & PLIST_HAS_CHILD, s->child);
            nd->has |= s->has;
        }
        if (n >= 2)
            plist_graph_add_edge(g, &edge_index, path[n - 2], path[n - 1], s);
    }
    pv_buf_free(&text);
    free(path);

    pv_set_add_view(set, plist_trace_view(p, &trie));
    pv_set_add_view(set, pv_table_view(st));
    free(trie.nodes);
    pv_hashmap_free(&trie.index);
    pv_hashmap_free(&edge_index);
}

static pv_table *plist_routines_table(const plist_parser *p)
{
    pv_table *t = pv_table_new("routines", "Routines", plist_routine_columns, RT_COLUMNS);
    pv_table_reserve(t, p->routine_count);
    int64_t sum_hits = 0;
    for (size_t i = 0; i < p->routine_count; i++)
        plist_sum(&sum_hits, p->routines[i].has & PLIST_HAS_HITS, p->routines[i].hits);
    int64_t total_time = plist_time_total(p);
    int64_t total_hits = plist_total(p->has_total_hits, p->total_hits, sum_hits);
    for (size_t i = 0; i < p->routine_count; i++) {
        const plist_routine *rt = &p->routines[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, RT_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, RT_ROUTINE, plist_name(&p->names, rt->name));
        /* The seed calls `source` the object module; `exe` is the binary. */
        pv_table_set_cstr(t, r, RT_MODULE, pv_strpool_get(&p->text, rt->source));
        pv_table_set_cstr(t, r, RT_EXE, pv_strpool_get(&p->text, rt->exe));
        pv_table_set_cstr(t, r, RT_SOURCE, pv_strpool_get(&p->text, rt->source));
        bool hits = rt->has & PLIST_HAS_HITS;
        plist_set_opt(t, r, RT_HITS, hits, rt->hits);
        plist_set_opt(t, r, RT_TIME, rt->has & PLIST_HAS_TIME, rt->time);
        plist_set_opt(t, r, RT_CHILD, rt->has & PLIST_HAS_CHILD, rt->child);
        if ((rt->has & PLIST_HAS_TIME) && total_time > 0)
            pv_table_set_float(t, r, RT_PERCENT_TIME,
                               (double)rt->time * 100.0 / (double)total_time);
        if (hits && total_hits > 0)
            pv_table_set_float(t, r, RT_PERCENT_HITS,
                               (double)rt->hits * 100.0 / (double)total_hits);
        if (hits && rt->hits > 0 && (rt->has & PLIST_HAS_TIME))
            pv_table_set_int(t, r, RT_AVG_TIME, rt->time / rt->hits);
        if (hits && rt->hits > 0 && (rt->has & PLIST_HAS_CHILD))
            pv_table_set_int(t, r, RT_AVG_CHILD, rt->child / rt->hits);
        plist_set_opt(t, r, RT_COVERED, hits, rt->hits > 0);
        pv_table_set_int(t, r, RT_FILE_LINE, (int64_t)rt->file_line);
    }
    return t;
}

static pv_view *plist_lines_view(const plist_parser *p)
{
    pv_table *t = pv_table_new("lines", "Lines", plist_line_columns, LN_COLUMNS);
    pv_table_reserve(t, p->line_count);
    int64_t sum_hits = 0;
    for (size_t i = 0; i < p->line_count; i++)
        plist_sum(&sum_hits, p->lines[i].has & PLIST_HAS_HITS, p->lines[i].hits);
    int64_t total_hits = plist_total(p->has_total_hits, p->total_hits, sum_hits);
    for (size_t i = 0; i < p->line_count; i++) {
        const plist_line *l = &p->lines[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, LN_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, LN_EXE, pv_strpool_get(&p->text, l->exe));
        pv_table_set_cstr(t, r, LN_SOURCE, pv_strpool_get(&p->text, l->source));
        plist_set_opt(t, r, LN_LINE, l->has & PLIST_HAS_LINE, l->line);
        bool hits = l->has & PLIST_HAS_HITS;
        plist_set_opt(t, r, LN_HITS, hits, l->hits);
        if (hits && total_hits > 0)
            pv_table_set_float(t, r, LN_PERCENT_HITS, (double)l->hits * 100.0 / (double)total_hits);
        plist_set_opt(t, r, LN_COVERED, hits, l->hits > 0);
        pv_table_set_int(t, r, LN_FILE_LINE, (int64_t)l->file_line);
    }
    return pv_table_view(t);
}

static pv_view *plist_records_view(const plist_parser *p)
{
    pv_table *t = pv_table_new("records", "Unknown records", plist_record_columns, RC_COLUMNS);
    for (size_t i = 0; i < p->unknown_count; i++) {
        const plist_raw *u = &p->unknown[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, RC_ID, (int64_t)r + 1);
        pv_table_set_int(t, r, RC_FILE_LINE, (int64_t)u->file_line);
        pv_table_set_cstr(t, r, RC_TAG, pv_strpool_get(&p->text, u->tag));
        pv_table_set_cstr(t, r, RC_TEXT, pv_strpool_get(&p->text, u->text));
    }
    return pv_table_view(t);
}

static void plist_build(plist_parser *p)
{
    const char *kind = "PLIST profile";
    if (p->has_method && plist_method_name(p->method))
        kind = plist_method_name(p->method);
    pv_result_set *set = pv_file_add_set(p->f, 1, "PLIST report", kind);
    if (p->has_method && !plist_method_name(p->method))
        pv_set_add_note(set, "unknown profiling method %" PRId64 " (read as a %s profile)",
                        p->method, p->method > 400 ? "function" : "line");
    pv_set_add_view(set, plist_summary_view(p));

    bool functions = plist_is_function_profile(p) || p->routine_count || p->stack_count;
    if (functions) {
        plist_graph *g = pv_xcalloc(1, sizeof *g);
        pv_table *routines = plist_routines_table(p);
        pv_set_add_view(set, pv_table_view(routines));
        plist_attribution_views(p, set, g);
        g->routine_count = p->routine_count;
        g->routine_name = pv_xmalloc((p->routine_count ? p->routine_count : 1) * sizeof(uint32_t));
        for (size_t i = 0; i < p->routine_count; i++)
            g->routine_name[i] = p->routines[i].name;
        /* The names move to the details' context: they outlive the parser. */
        g->names = p->names;
        plist_names_init(&p->names);
        pv_table_set_details(routines, plist_routine_details, PV_ARRAY_LEN(plist_routine_details),
                             plist_open_edges, g, plist_graph_free);
    }
    if (!plist_is_function_profile(p) || p->line_count)
        pv_set_add_view(set, plist_lines_view(p));
    if (p->unknown_count)
        pv_set_add_view(set, plist_records_view(p));
    if (plist_is_coverage(p))
        pv_set_add_note(set, "coverage profile: hits are 1 (executed) or 0; filter with "
                             "covered = 0 for what never ran");
}

static void plist_parser_free(plist_parser *p)
{
    pv_strpool_free(&p->text);
    plist_names_free(&p->names);
    free(p->routines);
    free(p->lines);
    free(p->stacks);
    free(p->stack_names);
    free(p->unknown);
    free(p->rec5);
    free(p->fields);
}

/* ---- the loader */

/* BOM, CRLF and blank lines are accepted (docs/formats.md general rules). */
pv_load_status pv_plist_load_buffer(pv_file *f, const char *data, size_t len,
                                    const pv_load_options *o)
{
    plist_parser p;
    memset(&p, 0, sizeof p);
    p.f = f;
    p.path = f->path;
    pv_strpool_init(&p.text);
    plist_names_init(&p.names);
    p.current_routine = p.current_stack = PLIST_NONE;

    size_t i = 0;
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    bool cancelled = false;
    while (i < len) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len;
        p.line_no++;
        plist_parse_line(&p, data + i, end - i);
        i = end + 1;
        if ((p.line_no & 0xFFFF) == 0 &&
            !pv_progress_step(&o->progress, "reading PLIST records", i, len)) {
            cancelled = true;
            break;
        }
    }
    plist_close_stack(&p);
    plist_close_count(&p);

    pv_load_status status = PV_LOAD_OK;
    if (cancelled) {
        pv_error(&f->diag, "%s: line %zu: loading cancelled", f->path, p.line_no);
        status = PV_LOAD_ERROR;
    } else if (p.records == 0) {
        pv_error(&f->diag,
                 "%s: line 1: no PLIST record (a line starting with a tag 0..10 and a "
                 "tab) in the file",
                 f->path);
        status = PV_LOAD_ERROR;
    } else {
        plist_build(&p);
    }
    plist_parser_free(&p);
    return status;
}

static pv_load_status plist_load(pv_file *f, const pv_load_options *o)
{
    pv_mapped_file mf;
    int err = pv_map_file(f->path, &mf);
    if (err) {
        pv_error(&f->diag, "%s: cannot read: %s", f->path, strerror(err));
        return PV_LOAD_ERROR;
    }
    pv_load_status status = pv_plist_load_buffer(f, (const char *)mf.data, mf.size, o);
    pv_unmap_file(&mf);
    return status;
}

/* True when a line starts with a tag 0..10 followed by a tab. */
static bool plist_probe_line(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++;
    size_t digits = 0;
    unsigned v = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9' && digits < 3; i++, digits++)
        v = v * 10 + (unsigned)(s[i] - '0');
    return digits > 0 && v <= PLIST_MAX_TAG && i < len && s[i] == '\t';
}

/* Looks at the first five non-blank lines (docs/formats.md: a first field that is
 * a PLIST tag). */
static int plist_probe(const unsigned char *head, size_t len, uint64_t file_size, const char *path)
{
    (void)file_size;
    (void)path;
    size_t i = 0;
    if (len >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    int lines = 0, good = 0;
    bool first_good = false;
    while (i < len && lines < 5) {
        const unsigned char *nl = memchr(head + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - head) : len;
        size_t e = end;
        while (e > i && (head[e - 1] == '\r' || head[e - 1] == ' ' || head[e - 1] == '\t'))
            e--;
        if (e > i) {
            bool ok = plist_probe_line(head + i, e - i);
            if (lines == 0)
                first_good = ok;
            lines++;
            good += ok;
        }
        i = end + 1;
    }
    if (!first_good)
        return 0;
    if (good == lines)
        return lines >= 2 ? 90 : 60;
    return good * 2 > lines ? 40 : 0;
}

const pv_loader pv_loader_plist = {
    .name = "plist",
    .description = "MSVC PLIST /T tab-delimited profile report",
    .probe = plist_probe,
    .load = plist_load,
};
