/*
 * text1_internal.h - what the files of the Text1 parser share (private to
 * src/formats/winidea): text1.c reads the file line by line, its sections
 * and entries (TIMELINE lines on fast paths); text1_template.c compiles a
 * section's format and splits lines by it, and reads numbers;
 * text1_resolve.c links what may point forward once the file is read.
 */
#ifndef PROFVIEW_TEXT1_INTERNAL_H
#define PROFVIEW_TEXT1_INTERNAL_H

#include "formats/winidea/parse.h"

/* ---- macros */

enum {
    T1_UNKNOWN,
    T1_HANDLE,
    T1_HANDLE_PARENT,
    T1_HANDLE_STATE,
    T1_NAME,
    T1_NAME_PARENT,
    T1_VALUE,
    T1_VALUE_TYPE,
    T1_VALUE_UNIT,
    T1_FILE,
    T1_PATH,
    T1_FORMAT,
    T1_CLASS,
    T1_CONTEXT,
    T1_COUNT,
    T1_EVENT,
    T1_TIME,
    T1_TOTAL_TIME,
    T1_WINDOW_FROM,
    T1_WINDOW_TO,
    T1_STAT_FIRST, /* T1_STAT_FIRST + pv_wi_stat: the T.* macros */
    T1_MACRO_COUNT = T1_STAT_FIRST + PV_WI_STAT_COUNT
};

/* ---- templates */

typedef struct text1_slice {
    const char *s;
    size_t n;
} text1_slice;

typedef struct text1_template {
    size_t count;            /* fields (macros) */
    unsigned char *macro;    /* per field */
    char *text;              /* the literals, one after the other */
    size_t *lit_off;         /* count + 1 literals: before field 0, between, after the last */
    size_t *lit_len;
    size_t free_first;       /* first and last free-text field, SIZE_MAX when none */
    size_t free_last;
    size_t field_of[T1_MACRO_COUNT]; /* first field carrying each macro, SIZE_MAX */
    bool has_unknown;
    bool adjacent;           /* two macros with no literal between them */
    text1_slice *fields;     /* scratch for one line: count slices */
} text1_template;

bool text1_macro_is_free(unsigned macro);
/* "%HANDLE%", "%T.NET%", ... for messages. */
const char *text1_macro_name(unsigned macro);
/* Looks a macro name up: case-insensitive, whitespace inside ignored. */
unsigned text1_macro_lookup(const char *s, size_t n);
void text1_template_free(text1_template *t);
void text1_template_compile(text1_template *t, const char *fmt, size_t n);
/* Literal i of the template (the text before field i). */
const char *text1_lit(const text1_template *t, size_t i);
/* Splits s[0..n) into t->fields; false (and the first literal not found in
 * *missing) when the line does not fit. */
bool text1_template_match(const text1_template *t, const char *s, size_t n, size_t *missing);
bool text1_match_ambiguous(const text1_template *t);

/* ---- values */

/* Per byte: its hex digit + 1, 0 for anything else. */
extern const signed char text1_hex_digit[256];

static inline unsigned char text1_ascii_upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

static inline bool text1_is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_';
}

static inline bool text1_is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static inline void text1_trim(const char **s, size_t *n)
{
    while (*n > 0 && text1_is_blank(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && text1_is_blank((*s)[*n - 1]))
        (*n)--;
}

static inline bool text1_is_empty(const text1_slice *f)
{
    for (size_t i = 0; i < f->n; i++)
        if (!text1_is_blank(f->s[i]))
            return false;
    return true;
}

/* Event characters (docs/formats.md §2 codes); 0 = unknown. */
static inline unsigned char text1_event_code(char c)
{
    switch (c) {
    case 'X': return PV_WI_EXIT + 1;
    case 'S': return PV_WI_SUSPEND + 1;
    case 'R': return PV_WI_RESUME + 1;
    case 'E': return PV_WI_ENTRY + 1;
    case 'W': return PV_WI_WRITE + 1;
    default: return 0;
    }
}

/* Hex digits (an optional 0x prefix is accepted), at most max_digits. */
bool text1_parse_hex(const char *s, size_t n, size_t max_digits, uint64_t *out);
/* A signed decimal 64-bit integer. */
bool text1_parse_dec(const char *s, size_t n, int64_t *out);
/* Whether the TIMELINE template suits the parser's fast path: no prefix or
 * suffix, single-character separators that cannot be part of a number. */
bool text1_fast_template(const text1_template *t);

/* ---- the parser */

typedef enum text1_kind {
    SECTION_NONE,     /* before the first header */
    SECTION_OPAQUE,   /* unknown, or known but not readable: lines kept as text */
    SECTION_INFO,
    SECTION_CONTEXTS,
    SECTION_HANDLE,
    SECTION_STATISTICS,
    SECTION_TIMELINE,
} text1_kind;

typedef struct text1_pending_parent {
    size_t area;
    uint32_t handle;
    size_t line;
    size_t fallback; /* the nearest preceding function, for a parent that is not found */
} text1_pending_parent;

/* A distinct %CONTEXT% text of the timeline, resolved to a context after the
 * whole file is read (CONTEXTS may come after TIMELINE). */
typedef struct text1_context_name {
    size_t off; /* in names */
    size_t len;
    uint64_t hash;
    /* While the events are handed out (text1_parser.direct): the context
     * whose name equals this one, as the end of the parse will find it, or
     * SIZE_MAX when there is none (found otherwise, or a new context). */
    size_t direct;
} text1_context_name;

typedef struct text1_parser {
    const char *path;
    pv_wi_data *d;
    pv_diag *diag;
    size_t line;
    text1_kind kind;
    int area_class;      /* 0 Functions, 1 Data, 2 AUX, -1 none given */
    uint32_t context;    /* CONTEXT(...) of a STATISTICS header, pool offset */
    size_t section;      /* index in d->sections */
    bool keep_lines;     /* keep the entry lines (unknown macros / opaque) */
    bool fast;           /* TIMELINE lines may take text1_fast_event */
    /* for it, per field of tpl: the macro it reads (T1_UNKNOWN for a
     * repeated or unknown one) and the separator after it ('\n' last) */
    unsigned char *fast_macro;
    char *fast_sep;
    bool seed;           /* ... and text1_seed_event: the seed's four fields */
    char seed_sep[3];    /* its separators */
    text1_template tpl;
    size_t last_function; /* area index of the nearest type-0 row of the section */

    size_t first_area;
    size_t *area_line; /* line of each area added, index - first_area */
    size_t area_line_cap;
    text1_pending_parent *pending;
    size_t pending_count, pending_cap;

    size_t text_context_cap;
    char *names;
    size_t names_len, names_cap;
    text1_context_name *ctx_names;
    size_t ctx_name_count, ctx_name_cap;
    uint32_t *ctx_table; /* open addressing: ctx_name index + 1, 0 = free */
    size_t ctx_table_cap;
    size_t last_ctx;     /* the name of the previous line, SIZE_MAX */
    /* A streamed TIMELINE with %CONTEXT% (docs/winidea-input.md "Reading and
     * indexing at once"): its events [direct_from, direct_to) carry their
     * context (a CONTEXTS entry of the same name) instead of a name to
     * resolve at the end; `direct` while that goes on. */
    bool direct;
    size_t direct_from, direct_to;

    bool saw_state_entry;    /* an E on a 3/5 handle */
    bool saw_variable_write; /* a W on a 2/4 handle */
    /* For text1_detect_state_style, noted as the events are read: the
     * event index of the first E on a 3/5 handle, and of the first W on
     * each 2/4 handle (first_write: handle -> index; write_seen: handles
     * noted already, by their low bits, so that most W cost a compare);
     * first_write_lost when an index did not fit (then it scans). */
    size_t first_state_entry;
    pv_hashmap first_write;
    uint32_t write_seen[16];
    bool first_write_lost;
    size_t sections_seen;

    /* Reading and indexing at once (pv_wi_text1_sink, docs/winidea-input.md) */
    const pv_wi_text1_sink *sink;
    bool stream_tried;      /* a TIMELINE was considered: at most one streams */
    bool streaming;         /* handing out the events of the current TIMELINE */
    size_t stream_next;     /* the event count of the next sink->events call */
    size_t stream_chunk;
    bool stream_resolved;   /* the parents are resolved already (saved_parent: before) */
    uint32_t *saved_parent; /* areas [first_area, first_area + saved_count) */
    size_t saved_count;
    bool quiet;             /* text1_warn says nothing (the early resolve) */
} text1_parser;

/* text1.c */
void text1_warn(text1_parser *p, const char *fmt, ...) PV_PRINTF(2, 3);
void text1_note_first_write(text1_parser *p, uint32_t handle, size_t event);

/* Notes event `event` (just stored) for text1_detect_state_style. */
static inline void text1_note_event(text1_parser *p, uint32_t handle, unsigned kind, size_t event)
{
    unsigned type = pv_wi_handle_type(handle);
    if (kind == PV_WI_WRITE && (type == PV_WI_VARIABLE || type == PV_WI_AUX)) {
        p->saw_variable_write = true;
        if (p->write_seen[handle & 15] != handle)
            text1_note_first_write(p, handle, event);
    } else if (kind == PV_WI_ENTRY && (type == PV_WI_STATE || type == PV_WI_AUX_STATE) &&
               !p->saw_state_entry) {
        p->saw_state_entry = true;
        p->first_state_entry = event;
    }
}
const char *text1_quote(pv_buf *b, const char *s, size_t n);

/* text1_resolve.c: the context named s[0..n) exactly (the end of the parse
 * finds that one first), among the first `count`, or SIZE_MAX. */
size_t text1_context_named(const pv_wi_data *d, size_t count, const char *s, size_t n);
/* after the whole file (first_event: the parse's first) */
void text1_resolve_areas(text1_parser *p);
void text1_resolve_contexts(text1_parser *p, size_t first_event);
void text1_detect_state_style(text1_parser *p, size_t first_event);

#endif
