/*
 * winidea.h - winIDEA profiler data as read from a Text1 file and/or a BIN
 * timeline (docs/formats.md §1-§2), before indexing.
 *
 * The Text1/BIN parsers (src/formats/winidea/text1.c, bin.c) fill a
 * pv_wi_data; the timeline model (src/formats/winidea/timeline.c, statistics.c,
 * src/formats/winidea/views.c) indexes it and builds the views.  Neither
 * side knows how the other works.
 */
#ifndef PROFVIEW_WINIDEA_H
#define PROFVIEW_WINIDEA_H

#include "profview/cache.h"
#include "profview/load.h"

/* Area types: the top nibble of a handle (docs/formats.md §1). */
typedef enum pv_wi_area_type {
    PV_WI_FUNCTION = 0,
    PV_WI_LINE = 1,
    PV_WI_VARIABLE = 2,
    PV_WI_STATE = 3,
    PV_WI_AUX = 4,
    PV_WI_AUX_STATE = 5,
} pv_wi_area_type;

static inline unsigned pv_wi_handle_type(uint32_t handle) { return handle >> 28; }

/* Event kinds, with the BIN codes as values (docs/formats.md §2). */
typedef enum pv_wi_event_kind {
    PV_WI_EXIT = 0,    /* X */
    PV_WI_SUSPEND = 1, /* S */
    PV_WI_RESUME = 2,  /* R */
    PV_WI_ENTRY = 3,   /* E */
    PV_WI_WRITE = 4,   /* W */
} pv_wi_event_kind;

/* 'E', 'S', 'R', 'X', 'W' (or '?' for an unknown code). */
char pv_wi_event_char(unsigned kind);

#define PV_WI_NONE UINT32_MAX
#define PV_WI_CORE_UNKNOWN 0xFFu

/* One row of a HANDLE(...) mapping section. */
typedef struct pv_wi_area {
    uint32_t handle;
    uint32_t name;       /* pool offsets; 0 = empty */
    uint32_t file;
    uint32_t path;
    uint32_t value_type; /* "F64", "I64" or empty */
    uint32_t value_unit;
    uint32_t parent;     /* area index of the parent (function of a line, variable of a
                            state), PV_WI_NONE when there is none */
    bool has_value;
    uint64_t value;      /* line number (type 1) or state value (types 3, 5) */
} pv_wi_area;

typedef struct pv_wi_context {
    uint64_t handle;
    uint32_t name;
} pv_wi_context;

/* Statistic columns of a STATISTICS section (T.* macros), in this order. */
#define PV_WI_STATS(X)                                                                            \
    X(NET, "T.NET", "net") X(NET_MIN, "T.NET.MIN", "net_min") X(NET_MAX, "T.NET.MAX", "net_max")  \
    X(NET_AVG, "T.NET.AVG", "net_avg") X(GROSS, "T.GROSS", "gross")                               \
    X(GROSS_MIN, "T.GROSS.MIN", "gross_min") X(GROSS_MAX, "T.GROSS.MAX", "gross_max")             \
    X(GROSS_AVG, "T.GROSS.AVG", "gross_avg") X(CALL, "T.CALL", "call")                            \
    X(CALL_MIN, "T.CALL.MIN", "call_min") X(CALL_MAX, "T.CALL.MAX", "call_max")                   \
    X(CALL_AVG, "T.CALL.AVG", "call_avg") X(PERIOD_MIN, "T.PERIOD.MIN", "period_min")             \
    X(PERIOD_MAX, "T.PERIOD.MAX", "period_max") X(PERIOD_AVG, "T.PERIOD.AVG", "period_avg")       \
    X(OUTSIDE, "T.OUTSIDE", "outside") X(OUTSIDE_MIN, "T.OUTSIDE.MIN", "outside_min")             \
    X(OUTSIDE_MAX, "T.OUTSIDE.MAX", "outside_max") X(OUTSIDE_AVG, "T.OUTSIDE.AVG", "outside_avg")

typedef enum pv_wi_stat {
#define PV_WI_STAT_ENUM(name, macro, column) PV_WI_STAT_##name,
    PV_WI_STATS(PV_WI_STAT_ENUM)
#undef PV_WI_STAT_ENUM
    PV_WI_STAT_COUNT
} pv_wi_stat;

extern const char *const pv_wi_stat_macro[PV_WI_STAT_COUNT];  /* "T.NET", ... */
extern const char *const pv_wi_stat_column[PV_WI_STAT_COUNT]; /* "net", ... */

/* One entry of a STATISTICS section, as the file carried it. */
typedef struct pv_wi_stat_row {
    uint32_t handle;
    bool has_value;
    uint64_t value;       /* line number / state value, as for areas */
    uint32_t context;     /* pool: the CONTEXT(...) of the section as written, 0 = none */
    uint8_t area_class;   /* 0 Functions, 1 Data, 2 AUX (the section's class) */
    bool has_count;
    int64_t count;
    uint32_t present;     /* bit i set: t[i] was in the file */
    int64_t t[PV_WI_STAT_COUNT];
} pv_wi_stat_row;

/* A decoded timeline event. */
typedef struct pv_wi_event {
    uint32_t handle;
    uint8_t kind;  /* pv_wi_event_kind; other codes are possible in a corrupt BIN */
    uint8_t core;  /* PV_WI_CORE_UNKNOWN when not known (v1.0, text) */
    uint64_t data; /* written value / state value */
    int64_t time;
} pv_wi_event;

/* The events, as 24-byte records: mapped from a BIN file, or built in
 * memory (always v1.1 layout) from a Text1 TIMELINE section. */
typedef struct pv_wi_timeline {
    const unsigned char *records;
    size_t count;
    int version;                 /* 10 or 11 */
    size_t version_checked;      /* records the BIN version was detected over: count when
                                    final, fewer when only the first ones were read (the
                                    index pass confirms it, docs/formats.md §2), 0 when it was
                                    not detected (forced, or built from text) */
    unsigned char *owned;        /* the memory records points into when built from text */
    size_t owned_cap;            /* in events */
    uint16_t *text_context;      /* per event: index into contexts from %CONTEXT%,
                                    UINT16_MAX when that line named none; NULL without
                                    a %CONTEXT% field */
    bool states_as_writes;       /* TimelineStates: W on 2xxxxxxx (true) or E on 3xxxxxxx */
} pv_wi_timeline;

#define PV_WI_RECORD_SIZE 24

static inline uint32_t pv_wi_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t pv_wi_le64(const unsigned char *p)
{
    return (uint64_t)pv_wi_le32(p) | (uint64_t)pv_wi_le32(p + 4) << 32;
}

/* Decodes event i (i < tl->count). */
static inline void pv_wi_event_at(const pv_wi_timeline *tl, size_t i, pv_wi_event *e)
{
    const unsigned char *r = tl->records + i * PV_WI_RECORD_SIZE;
    uint32_t word = pv_wi_le32(r + 4);
    e->handle = pv_wi_le32(r);
    if (tl->version == 10) {
        e->kind = (uint8_t)((word >> 24) & 0xF);
        e->core = PV_WI_CORE_UNKNOWN;
    } else {
        e->kind = (uint8_t)(word & 0xF);
        e->core = (uint8_t)((word >> 4) & 0xFF);
    }
    e->data = pv_wi_le64(r + 8);
    e->time = (int64_t)pv_wi_le64(r + 16);
}

/* docs/formats.md §2 version detection as bits gathered over the record words
 * (bytes 4-7), so that any pass over the records can decide or confirm:
 * the OR of every word, and the set of the event types (bits 0-3) seen.
 * Two instructions or so a record (the index pass reads every record). */
#define PV_WI_VERSION_BITS(X)                                                                     \
    X(words) /* every word ORed: bits 24-27 (v1.0, rule 1), 0-23 (rule 3), 12-31 (rule 2) */     \
    X(types) /* 1 << (bits 0-3) of every word: a type > 4 is not v1.1 (rule 2) */

#define PV_WI_VERSION_BIT(name) uint32_t name;
typedef struct pv_wi_version_bits {
    PV_WI_VERSION_BITS(PV_WI_VERSION_BIT)
} pv_wi_version_bits;
#undef PV_WI_VERSION_BIT

/* Adds the bits that `from` saw (a pass in two halves, timeline_split.c). */
static inline void pv_wi_version_bits_or(pv_wi_version_bits *to, const pv_wi_version_bits *from)
{
#define PV_WI_VERSION_BIT(name) to->name |= from->name;
    PV_WI_VERSION_BITS(PV_WI_VERSION_BIT)
#undef PV_WI_VERSION_BIT
}

/* docs/formats.md §2: the version of a large BIN is detected over its first 1 M
 * records, so that the first screen does not wait for a pass over the whole
 * file; the timeline index (which reads every record anyway) confirms it. */
#define PV_WI_BIN_EARLY_RECORDS ((size_t)1 << 20)

#define PV_WI_V10_TYPE 0x0F000000u
#define PV_WI_V10_LOW 0x00FFFFFFu
#define PV_WI_V11_HIGH 0xFFFFF000u
#define PV_WI_V11_TYPES ((1u << (PV_WI_WRITE + 1)) - 1) /* X S R E W */

static inline void pv_wi_version_bits_add(pv_wi_version_bits *b, uint32_t word)
{
    b->words |= word;
    b->types |= 1u << (word & 0xFu);
}

/* Whether a v1.0 event type (bits 24-27) was seen: rule 1. */
static inline bool pv_wi_version_bits_v10(const pv_wi_version_bits *b)
{
    return (b->words & PV_WI_V10_TYPE) != 0;
}

/* The version the bits decide (docs/formats.md §2 rules 1-3): 10, 11, or 0. */
static inline int pv_wi_version_of_bits(const pv_wi_version_bits *b)
{
    if (pv_wi_version_bits_v10(b))
        return 10;
    if (!(b->words & PV_WI_V11_HIGH) && !(b->types & ~PV_WI_V11_TYPES))
        return 11; /* an all-zero file lands here: every record an Exit on core 0 */
    return b->words & PV_WI_V10_LOW ? 0 : 10;
}

/* Whether one word is consistent with a decision for `version`: for 1.1 it
 * must fit the v1.1 layout; for 1.0 it must have bits 24-27 set or bits
 * 0-23 clear. */
static inline bool pv_wi_word_fits_version(uint32_t word, int version)
{
    if (version == 11)
        return (word & PV_WI_V11_HIGH) == 0 && (word & 0xFu) <= PV_WI_WRITE;
    return (word & PV_WI_V10_TYPE) != 0 || (word & PV_WI_V10_LOW) == 0;
}

/* A section kept as text: unknown sections, and the original headers (for
 * writing the file back). */
typedef struct pv_wi_raw_section {
    char *header; /* the whole "* ..." line, without the line break */
    char **lines;
    size_t line_count;
    size_t line_cap;
    bool known;   /* false: unknown section, kept opaque */
    /* The entries the section read start at these indices of d->contexts,
     * d->areas, d->stats and d->timeline; they end where the next section's
     * start (or at the count): an export writes them back under this header. */
    size_t first_context, first_area, first_stat, first_event;
    size_t blank_after; /* blank lines read in the section (written back after it) */
} pv_wi_raw_section;

typedef struct pv_wi_data {
    pv_strpool pool;
    bool has_total_time;
    int64_t total_time; /* INFO %TOTAL_TIME% */
    /* INFO %WINDOW.FROM% / %WINDOW.TO% (profview's windowed exports,
     * docs/export.md "Windows"): the file holds the state at the window's
     * start before it, and loads with this window unless asked otherwise */
    bool has_window_from, has_window_to;
    int64_t window_from, window_to;
    pv_wi_context *contexts;
    size_t context_count, context_cap;
    pv_wi_area *areas;
    size_t area_count, area_cap;
    pv_wi_stat_row *stats;
    size_t stat_count, stat_cap;
    pv_wi_timeline timeline;
    pv_mapped_file bin; /* the BIN mapping, when the timeline comes from one */
    char *bin_path;
    pv_wi_raw_section *sections; /* every section header in file order (unknown ones whole) */
    size_t section_count, section_cap;
    char *text_path; /* the Text1 file, or NULL for a BIN opened alone */
    /* Read from the index cache instead of parsed (cache_text1.c): the
     * records and text_context point into this mapping. */
    pv_cache_entry cache;
} pv_wi_data;

void pv_wi_data_init(pv_wi_data *d);
void pv_wi_data_free(pv_wi_data *d);
/* Appends an area; returns its index.  `name` may be NULL. */
size_t pv_wi_add_area(pv_wi_data *d, uint32_t handle, const char *name, size_t name_len);
size_t pv_wi_add_context(pv_wi_data *d, uint64_t handle, const char *name, size_t name_len);
/* Appends an event to an in-memory (text) timeline. */
void pv_wi_add_event(pv_wi_data *d, uint32_t handle, unsigned kind, uint64_t data, int64_t time);
pv_wi_stat_row *pv_wi_add_stat(pv_wi_data *d);

/* Indexes the data (contexts, stacks, depths, statistics over the whole
 * recording or the window of `o`) and adds the winIDEA result set and views
 * to `f`.  Takes ownership of `d`.  Warnings go to f->diag.
 * Implemented by the timeline model (src/formats/winidea/views.c). */
pv_load_status pv_wi_build(pv_file *f, pv_wi_data *d, const pv_load_options *o);
/* The same with an index that was begun while the Text1 file was read
 * (load.c; NULL: none), used when no cached index replaces it. */
typedef struct pv_wi_stream pv_wi_stream;
pv_load_status pv_wi_build_stream(pv_file *f, pv_wi_data *d, const pv_load_options *o,
                                  pv_wi_stream *stream);
/* The raw data of a file that pv_wi_build loaded (f->loader_data holds the
 * indexed model around it; the file's hooks say it is one), or NULL for a
 * file of another format. */
const pv_wi_data *pv_wi_file_data(const pv_file *f);
/* The timeline index of such a file (complete unless the load deferred it:
 * pv_load_options.defer_index), or NULL. */
struct pv_timeline_index;
const struct pv_timeline_index *pv_wi_file_index(const pv_file *f);

/* The format's export hook (pv_file_hooks.export, export.h): Text1 and BIN
 * from the raw data and the index (src/formats/winidea/export.c,
 * docs/export.md). */
struct pv_export_request;
struct pv_export_target;
int pv_wi_export(const pv_file *f, const struct pv_export_request *r,
                 struct pv_export_target *t, pv_diag *err);

/* What the viewer asks of the model (index in steps, time of a row,
 * related rows, lanes) goes through the capability hooks that pv_wi_build
 * sets on the file and its views (profview/hooks.h, docs/winidea-model.md
 * "What the viewer asks the model"). */

#endif
