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
#include "formats/plist_model.h"

#define PLIST_MAX_TAG 10

typedef struct plist_field {
    const char *s;
    size_t len;
} plist_field;

typedef struct plist_parser {
    plist_model m; /* what the records say */

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

static void plist_warn(plist_parser *p, const char *fmt, ...) PV_PRINTF(2, 3);
static void plist_warn(plist_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    plist_model_vwarn(&p->m, p->line_no, fmt, ap);
    va_end(ap);
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
    return pv_strpool_add(&p->m.text, p->fields[index].s, p->fields[index].len);
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
    const plist_stack *s = &p->m.stacks[p->current_stack];
    p->current_stack = PLIST_NONE;
    if ((s->has & PLIST_HAS_SIZE) && (uint64_t)s->size != s->name_count)
        pv_warn(&p->m.f->diag,
                "%s: line %zu: the stack size is %" PRId64 " but %zu names follow in 10 records",
                p->m.path, s->file_line, s->size, s->name_count);
}

/* Closes the pending 8 record: its number of stacks against the 9s seen. */
static void plist_close_count(plist_parser *p)
{
    if (p->count_line && p->count_expected >= 0 && (uint64_t)p->count_expected != p->count_seen)
        pv_warn(&p->m.f->diag,
                "%s: line %zu: the 8 record announces %" PRId64 " stacks but %zu follow", p->m.path,
                p->count_line, p->count_expected, p->count_seen);
    p->count_line = 0;
}

static size_t plist_new_stack(plist_parser *p)
{
    p->m.stacks = pv_xgrow(p->m.stacks, &p->m.stack_cap, p->m.stack_count + 1, sizeof *p->m.stacks);
    plist_stack *s = &p->m.stacks[p->m.stack_count];
    memset(s, 0, sizeof *s);
    s->routine = p->current_routine;
    s->first_name = p->m.stack_name_count;
    s->file_line = p->line_no;
    return p->m.stack_count++;
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
    plist_stack *s = &p->m.stacks[i];
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
    plist_stack *s = &p->m.stacks[p->current_stack];
    if (p->field_count < 2)
        plist_warn(p, "a 10 record without a function name");
    for (size_t i = 1; i < p->field_count; i++) {
        const char *name = p->fields[i].s;
        size_t len = p->fields[i].len;
        if (len == 0) {
            plist_warn(p, "field %zu of a 10 record is empty; no name taken from it", i + 1);
            continue;
        }
        p->m.stack_names = pv_xgrow(p->m.stack_names, &p->m.stack_name_cap, p->m.stack_name_count + 1,
                                  sizeof *p->m.stack_names);
        p->m.stack_names[p->m.stack_name_count++] = plist_names_intern(&p->m.names, name, len);
        s->name_count++;
    }
}

/* ---- the other records */

static void plist_global_seen(plist_parser *p, unsigned tag)
{
    if (p->m.global_line[tag])
        plist_warn(p, "a second %u record (the first is on line %zu); this one is used", tag,
                   p->m.global_line[tag]);
    p->m.global_line[tag] = p->line_no;
}

static void plist_record_global(plist_parser *p, unsigned tag)
{
    const char *s;
    size_t len;
    switch (tag) {
    case 0:
        plist_global_seen(p, tag);
        plist_check_fields(p, 3, true, "banner");
        p->m.version = plist_field_text(p, 1);
        plist_rest(p, 2, &s, &len);
        p->m.banner = pv_strpool_add(&p->m.text, s, len);
        break;
    case 1:
        plist_global_seen(p, tag);
        plist_check_fields(p, 3, true, "description");
        p->m.method_text = plist_field_text(p, 1);
        p->m.has_method = plist_field_count(p, 1, "method", &p->m.method);
        plist_rest(p, 2, &s, &len);
        p->m.method_desc = pv_strpool_add(&p->m.text, s, len);
        break;
    case 2:
        plist_global_seen(p, tag);
        plist_check_fields(p, 4, false, NULL);
        p->m.has_total_time = plist_field_ms(p, 1, "total time", &p->m.total_time);
        p->m.has_outside_time = plist_field_ms(p, 2, "outside time", &p->m.outside_time);
        p->m.has_call_depth = plist_field_count(p, 3, "call depth", &p->m.call_depth);
        break;
    case 3:
        plist_global_seen(p, tag);
        plist_check_fields(p, 4, false, NULL);
        p->m.has_total_hits = plist_field_count(p, 1, "total hits", &p->m.total_hits);
        p->m.has_units = plist_field_count(p, 2, "units", &p->m.units);
        p->m.has_units_hit = plist_field_count(p, 3, "units hit", &p->m.units_hit);
        break;
    case 4:
        plist_global_seen(p, tag);
        plist_check_fields(p, 3, true, "command line");
        p->m.date = plist_field_text(p, 1);
        plist_rest(p, 2, &s, &len);
        p->m.command_line = pv_strpool_add(&p->m.text, s, len);
        break;
    default: /* 5: layout unknown (docs/formats.md §4): kept raw */
        plist_rest(p, 1, &s, &len);
        p->m.rec5 = pv_xgrow(p->m.rec5, &p->m.rec5_cap, p->m.rec5_count + 1, sizeof *p->m.rec5);
        p->m.rec5[p->m.rec5_count++] = (plist_raw){p->line_no, 0, pv_strpool_add(&p->m.text, s, len)};
        break;
    }
}

static void plist_record_6(plist_parser *p)
{
    plist_close_stack(p);
    plist_close_count(p);
    plist_check_fields(p, 7, true, "function name");
    p->m.routines = pv_xgrow(p->m.routines, &p->m.routine_cap, p->m.routine_count + 1, sizeof *p->m.routines);
    plist_routine *r = &p->m.routines[p->m.routine_count];
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
    r->name = plist_names_intern(&p->m.names, s, len);
    p->current_routine = p->m.routine_count++;
}

static void plist_record_7(plist_parser *p)
{
    plist_check_fields(p, 5, false, NULL);
    p->m.lines = pv_xgrow(p->m.lines, &p->m.line_cap, p->m.line_count + 1, sizeof *p->m.lines);
    plist_line *l = &p->m.lines[p->m.line_count++];
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
    p->m.unknown = pv_xgrow(p->m.unknown, &p->m.unknown_cap, p->m.unknown_count + 1, sizeof *p->m.unknown);
    p->m.unknown[p->m.unknown_count++] =
        (plist_raw){p->line_no, pv_strpool_add(&p->m.text, p->fields[0].s, p->fields[0].len),
                    pv_strpool_add(&p->m.text, s, len)};
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

static void plist_parser_free(plist_parser *p)
{
    plist_model_free(&p->m);
    free(p->fields);
}

/* ---- the loader */

/* BOM, CRLF and blank lines are accepted (docs/formats.md general rules). */
pv_load_status pv_plist_load_buffer(pv_file *f, const char *data, size_t len,
                                    const pv_load_options *o)
{
    plist_parser p;
    memset(&p, 0, sizeof p);
    plist_model_init(&p.m, f);
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
        /* A text report forced as /T: say what reads it. */
        bool report = pv_loader_plist_text.probe((const unsigned char *)data,
                                                 len < PV_PROBE_BYTES ? len : PV_PROBE_BYTES, len,
                                                 f->path) > 0;
        pv_error(&f->diag,
                 "%s: line 1: no PLIST record (a line starting with a tag 0..10 and a "
                 "tab) in the file%s",
                 f->path,
                 report ? "; it is a PLIST text report (PLIST without /T): --input-format "
                          "plist-text reads it"
                        : "");
        status = PV_LOAD_ERROR;
    } else {
        plist_build(&p.m);
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
