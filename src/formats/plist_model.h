/* plist_model.h - what a PLIST reader collects, shared by the two readers of
 * MSVC profiler output: the /T tab-delimited records (plist.c) and the text
 * report PLIST prints without /T (plist_text.c).  Both fill one plist_model;
 * plist_views.c builds the same views from it (docs/plist.md). */
#ifndef PROFVIEW_FORMATS_PLIST_MODEL_H
#define PROFVIEW_FORMATS_PLIST_MODEL_H

#include <stdarg.h>

#include "profview/load.h"

#define PLIST_NONE SIZE_MAX
/* The interned-name and tree-node indices are 32-bit (hash map values). */
#define PLIST_MAX_ITEMS (UINT32_MAX - 1u)

enum {
    PLIST_HAS_HITS = 1u << 0,
    PLIST_HAS_TIME = 1u << 1,
    PLIST_HAS_CHILD = 1u << 2,
    PLIST_HAS_LINE = 1u << 3,
    PLIST_HAS_SIZE = 1u << 4,
    PLIST_HAS_PERCENT = 1u << 5,
    PLIST_HAS_COVERAGE = 1u << 6,
    PLIST_HAS_UNITS = 1u << 7,
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
    uint32_t text; /* the source line's text (text reports; 0 = none) */
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
    uint32_t tag;  /* the first field as written (a text report: the key) */
    uint32_t text; /* the rest of the line, tabs kept */
} plist_raw;

/* A `Module Statistics for NAME` block of a text report, as written. */
typedef struct plist_module {
    uint32_t name;            /* pool offset */
    int64_t time;             /* Time in module, ns */
    double percent_time;      /* Percent of time in module */
    int64_t units;            /* Functions / Lines in module */
    int64_t hits;             /* Hits in module */
    double coverage;          /* Module function / line coverage, percent */
    unsigned has;             /* PLIST_HAS_TIME, _PERCENT, _UNITS, _HITS, _COVERAGE */
    size_t file_line;
} plist_module;

/* Interned names: routine and stack names compared as whole byte strings. */
typedef struct plist_names {
    pv_strpool pool;
    uint32_t *offsets; /* id -> pool offset */
    size_t count, cap;
    pv_hashmap index; /* hash (re-mixed on collision) -> id */
} plist_names;

typedef struct plist_model {
    pv_file *f;
    const char *path;
    pv_strpool text; /* exe/source/global/raw text */
    plist_names names;

    plist_routine *routines;
    size_t routine_count, routine_cap;
    plist_line *lines;
    size_t line_count, line_cap;
    /* A text report's source lines without a count (declarations,
     * comments): not line records, kept for the source view's text
     * (docs/source.md) */
    plist_line *text_lines;
    size_t text_line_count, text_line_cap;
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

    /* A text report (plist_text.c): what its header says beyond the above.
     * Pool offsets, 0 = absent. */
    bool text_report;
    uint32_t profile_header; /* `Profile:` line: "Function timing, sorted by time" */
    uint32_t sort_order;     /* "time", "function name", "counts", "line" */
    uint32_t command_date;   /* `Command line at DATE:` */
    uint32_t coverage_text;  /* `Function coverage: 58.0%` / `Line coverage:`, as written */
    int64_t overhead_calculated, overhead_average;
    bool has_overhead_calculated, has_overhead_average;
    plist_raw *stats; /* statistics lines we do not know: key (tag) and value (text) */
    size_t stat_count, stat_cap;
    plist_module *modules;
    size_t module_count, module_cap;
} plist_model;

void plist_model_init(plist_model *m, pv_file *f);
void plist_model_free(plist_model *m);
/* A warning of either reader, "PATH: line N: ..." (docs/plist.md). */
void plist_model_vwarn(plist_model *m, size_t line_no, const char *fmt, va_list ap)
    PV_PRINTF(3, 0);

void plist_names_init(plist_names *n);
void plist_names_free(plist_names *n);
const char *plist_name(const plist_names *n, uint32_t id);
/* The id of the name `s` (len bytes), added when new. */
uint32_t plist_names_intern(plist_names *n, const char *s, size_t len);

/* Appends `s` for a message: control characters escaped, at most 60 bytes,
 * in single quotes. */
void plist_quote(pv_buf *b, const char *s, size_t len);

/* A count: decimal digits only (blanks around allowed), fits in int64. */
bool plist_parse_count(const char *s, size_t len, int64_t *out);
/* Milliseconds with optional decimals ("12", "12.5", ".25") to ns, exactly
 * (docs/plist.md "Numbers"). */
bool plist_parse_ms(const char *s, size_t len, int64_t *ns);
/* Removes blanks (spaces, tabs) at both ends. */
void plist_trim(const char **s, size_t *len);

/* Adds `v` to a sum when `has`; saturates at INT64_MAX. */
void plist_sum(int64_t *acc, bool has, int64_t v);

/* Builds the result set and its views from what the reader collected.  The
 * interned names move into the views (m->names is left empty). */
void plist_build(plist_model *m);

#endif
