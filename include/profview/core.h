/*
 * core.h - memory helpers, diagnostics and time units shared by every module.
 *
 * Nothing here knows about any file format or about the terminal.
 */
#ifndef PROFVIEW_CORE_H
#define PROFVIEW_CORE_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PV_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PV_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PV_PRINTF(fmt, args)
#endif

/* ---- allocation: abort with a message on out-of-memory, never return NULL */

void *pv_xmalloc(size_t size);
void *pv_xcalloc(size_t count, size_t size);
void *pv_xrealloc(void *ptr, size_t size);
/* Grows an array of `*capacity` elements of `elem_size` so that it holds at
 * least `needed` elements; doubles the capacity; overflow-checked. */
void *pv_xgrow(void *ptr, size_t *capacity, size_t needed, size_t elem_size);
/* Asks the system to back the whole pages inside [p, p + bytes) with memory
 * now, in one call, instead of one page fault per page when they are first
 * written (docs/quality.md: the Text1 timeline and the index write hundreds
 * of MB of fresh memory).  Only for memory about to be written in full: a
 * best effort that changes no contents (Linux 5.14+ MADV_POPULATE_WRITE;
 * elsewhere, or when refused, nothing happens). */
void pv_prefault(void *p, size_t bytes);
/* The same for memory about to be read (a mapped file's pages:
 * MADV_POPULATE_READ). */
void pv_prefault_read(const void *p, size_t bytes);
/* Gives the pages inside [p, p + bytes) back to the system now (their
 * contents are lost), so that freeing a big block later costs nothing: a
 * viewer releases gigabytes in steps instead of one long free. */
void pv_release(void *p, size_t bytes);
/* The same for several big blocks at once, their bytes shared between this
 * thread and a second one when there are many (the kernel frees pages of
 * different mappings side by side: closing a 50 M-event timeline gives back
 * 1.7 GB in half the time). */
typedef struct pv_span {
    void *p;
    size_t bytes;
} pv_span;
void pv_release_spans(const pv_span *spans, size_t n);
/* Big blocks to free in steps (docs/tui.md "Long operations"): freeing the
 * 200 MB selection of a 50 M-row view at once takes tens of ms, so a viewer
 * puts it here and gives it back a few MB per step between key presses
 * (pv_release, then free).  Blocks under PV_TRASH_AT_ONCE bytes are freed
 * at once. */
#define PV_TRASH_AT_ONCE (4u << 20)
typedef struct pv_trash_block {
    void *p;
    size_t bytes, released;
} pv_trash_block;
typedef struct pv_trash {
    pv_trash_block *blocks;
    size_t count, cap;
} pv_trash;
/* Takes ownership of p (malloc'd, `bytes` long; NULL: nothing). */
void pv_trash_add(pv_trash *t, void *p, size_t bytes);
/* Gives back about `bytes` more; true when the trash is empty. */
bool pv_trash_step(pv_trash *t, size_t bytes);
static inline bool pv_trash_empty(const pv_trash *t) { return t->count == 0; }
/* Frees everything now (the trash stays usable). */
void pv_trash_free(pv_trash *t);
/* ---- work in steps: one engine for every long job (docs/tui.md "Long
 * operations").  A job is a state struct and its phases: a phase function
 * does some of its work within the step's budget, takes what it used from
 * it (pv_budget_spend) and returns the phase that comes next (itself while
 * it has more to do).  pv_phases_run runs the phases of one step: while
 * units are left and the job is not done, stopping after any phase once
 * the step's deadline has passed (never before the first, so that every
 * step makes progress).  A job changes what it works on only in its last
 * phase: freeing it at any step before leaves everything as it was. */
typedef struct pv_budget {
    size_t units;    /* left in this step */
    double deadline; /* pv_clock_now() seconds the step ends at (0: none) */
} pv_budget;
typedef int (*pv_phase_fn)(void *job, pv_budget *b);
bool pv_phases_run(void *job, const pv_phase_fn *phases, int *phase, int done, pv_budget *b);
/* The monotonic clock in seconds. */
double pv_clock_now(void);
/* Past the step's deadline (a budget counts rows, and a slow row or a
 * loaded machine must not make a step overrun its slice). */
bool pv_budget_late(const pv_budget *b);
static inline void pv_budget_spend(pv_budget *b, size_t units)
{
    b->units -= units < b->units ? units : b->units;
}
/* The end of the next piece of a loop over [at, n): about `units` items. */
static inline size_t pv_budget_end(size_t at, size_t n, size_t units)
{
    return units < n - at ? at + units : n;
}
char *pv_xstrdup(const char *s);
char *pv_xstrndup(const char *s, size_t len);
/* Ends profview for want of memory: the fatal hook (the viewer's terminal
 * restore), "profview: out of memory (asked for N bytes)" on stderr, exit
 * status 2, no core dump.  Every pv_x* allocation ends here on failure. */
_Noreturn void pv_out_of_memory(size_t size);
/* Ends profview as pv_out_of_memory does (the fatal hook, then
 * "profview: MSG" on stderr, exit status 2, no core dump) for a limit
 * that no input can be allowed past (a table of more than 2^32 - 1 rows). */
_Noreturn void pv_fatal(const char *msg);
/* Sets (NULL: clears) what pv_out_of_memory runs first; it must be
 * async-signal-safe and may run on any thread. */
void pv_set_fatal_hook(void (*restore)(void));
/* Runs the fatal hook once (a crash handler's first step). */
void pv_fatal_restore(void);
char *pv_xasprintf(const char *fmt, ...) PV_PRINTF(1, 2);

/* ---- growable byte buffer (always NUL-terminated when len > 0 or after use) */

typedef struct pv_buf {
    char *data;
    size_t len;
    size_t cap;
} pv_buf;

void pv_buf_init(pv_buf *b);
void pv_buf_free(pv_buf *b);
void pv_buf_clear(pv_buf *b);
void pv_buf_append(pv_buf *b, const char *s, size_t len);
void pv_buf_puts(pv_buf *b, const char *s);
void pv_buf_putc(pv_buf *b, char c);
void pv_buf_printf(pv_buf *b, const char *fmt, ...) PV_PRINTF(2, 3);
void pv_buf_vprintf(pv_buf *b, const char *fmt, va_list ap) PV_PRINTF(2, 0);
/* Appends `s` as an SQL identifier: in double quotes, a `"` doubled. */
void pv_buf_put_sql_ident(pv_buf *b, const char *s);
/* Appends an SQLite URI that opens `path` read-only and immutable (no lock,
 * no journal beside the file): `file:` + the path, every byte other than a
 * letter, digit or `/._-~` percent-encoded, + `?immutable=1`. */
void pv_buf_put_immutable_uri(pv_buf *b, const char *path);
/* The contents as a C string ("" for an empty buffer). */
const char *pv_buf_cstr(pv_buf *b);

/* ---- string pool: interned-free append-only storage of strings.
 * Strings are referenced by a 32-bit offset; offset 0 is the empty string.
 * Stored strings are NUL-terminated and may contain any byte but NUL. */

typedef struct pv_strpool {
    char *data;
    size_t len;
    size_t cap;
} pv_strpool;

void pv_strpool_init(pv_strpool *p);
void pv_strpool_free(pv_strpool *p);
uint32_t pv_strpool_add(pv_strpool *p, const char *s, size_t len);
static inline const char *pv_strpool_get(const pv_strpool *p, uint32_t off)
{
    return off < p->len ? p->data + off : "";
}

/* ---- hash map from 64-bit keys to 32-bit values (open addressing). */

typedef struct pv_hashmap {
    uint64_t *keys;
    uint32_t *values;
    uint8_t *used;
    size_t cap; /* power of two */
    size_t count;
} pv_hashmap;

void pv_hashmap_init(pv_hashmap *m);
void pv_hashmap_free(pv_hashmap *m);
/* Inserts or replaces. */
void pv_hashmap_put(pv_hashmap *m, uint64_t key, uint32_t value);
/* Returns true and stores the value when the key exists. */
bool pv_hashmap_get(const pv_hashmap *m, uint64_t key, uint32_t *value);
uint64_t pv_hash_bytes(const void *data, size_t len);

/* ---- diagnostics: errors and warnings about input, each naming the file,
 * the place and the reason.  All are counted; the first PV_DIAG_KEEP are
 * kept as text so that a file with a million bad lines stays cheap. */

#define PV_DIAG_KEEP 200

typedef enum pv_severity {
    PV_SEV_WARNING,
    PV_SEV_ERROR,
} pv_severity;

typedef struct pv_diag_entry {
    pv_severity severity;
    char *text;
} pv_diag_entry;

typedef struct pv_diag {
    pv_diag_entry *entries;
    size_t entry_count;
    size_t entry_cap;
    size_t warnings; /* total, including the ones not kept */
    size_t errors;
} pv_diag;

void pv_diag_init(pv_diag *d);
void pv_diag_free(pv_diag *d);
void pv_diag_add(pv_diag *d, pv_severity sev, const char *fmt, ...) PV_PRINTF(3, 4);
void pv_diag_vadd(pv_diag *d, pv_severity sev, const char *fmt, va_list ap) PV_PRINTF(3, 0);
/* Appends every diagnostic of `from` to `to`, as if added there in order
 * (counted, kept while there is room); `from` is left empty. */
void pv_diag_take(pv_diag *to, pv_diag *from);
#define pv_warn(d, ...) pv_diag_add((d), PV_SEV_WARNING, __VA_ARGS__)
#define pv_error(d, ...) pv_diag_add((d), PV_SEV_ERROR, __VA_ARGS__)

/* ---- escaping: make any bytes safe to show or write.
 * Control characters (C0 0x00-0x1F, DEL, and C1 U+0080-U+009F) and every
 * byte of invalid UTF-8 become \xNN (each byte); valid UTF-8 is copied
 * unchanged, so nothing from input reaches a terminal as a control
 * sequence (an OSC, a CSI, an 8-bit CSI 0x9B). */
void pv_escape_controls(pv_buf *out, const char *s, size_t len);
/* The same, keeping the C0 characters listed in `keep` (e.g. "\n\t"). */
void pv_escape_terminal(pv_buf *out, const char *s, size_t len, const char *keep);
/* The length (1-4) of the valid UTF-8 character at s[0 .. len), its code
 * point in *cp; 0 for invalid or truncated UTF-8 (overlong forms and
 * surrogates included). */
size_t pv_utf8_char(const char *s, size_t len, uint32_t *cp);

/* ---- progress and cancellation for long work (loading, indexing, export).
 * `report` may be NULL.  Long loops call pv_progress_step every few thousand
 * items and stop when it returns false (cancelled). */

/* The cancel flag is shared between threads and may be set by a signal
 * handler: that is safe for a lock-free atomic. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int must be lock-free");

typedef struct pv_progress {
    void (*report)(void *user, const char *what, uint64_t done, uint64_t total);
    void *user;
    atomic_int *cancel; /* set non-zero (by another thread, or a signal handler) to cancel */
} pv_progress;

bool pv_progress_step(const pv_progress *p, const char *what, uint64_t done, uint64_t total);

/* ---- numbers and time units */

#define PV_NS_PER_US INT64_C(1000)
#define PV_NS_PER_MS INT64_C(1000000)
#define PV_NS_PER_S INT64_C(1000000000)

/* The first position of a[lo, hi) (ascending) whose value is >= key: hi
 * when there is none.  Rows of a selection, calls of a list. */
static inline size_t pv_u32_lower_bound(const uint32_t *a, size_t lo, size_t hi, uint64_t key)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first position of a[lo, hi) that holds key: hi when none does.  In
 * blocks of 32 compared without a branch each (the compiler makes them
 * vector compares): a miss over 9.6 M values in 2 ms, against 5.3 ms one
 * value at a time (a sorted tree's selection, docs/tui.md "Long operations"). */
static inline size_t pv_u32_find(const uint32_t *a, size_t lo, size_t hi, uint32_t key)
{
    size_t i = lo;
    for (; hi - i >= 32; i += 32) {
        unsigned hit = 0;
        for (size_t j = 0; j < 32; j++)
            hit |= a[i + j] == key;
        if (hit)
            break;
    }
    for (; i < hi; i++)
        if (a[i] == key)
            return i;
    return hi;
}

/* a + b and a - b, saturated to the int64_t range instead of overflowing
 * (times and sums of times from any input: docs/winidea-model.md, "Times"). */
static inline int64_t pv_add_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (!__builtin_add_overflow(a, b, &r))
        return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}
static inline int64_t pv_sub_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (!__builtin_sub_overflow(a, b, &r))
        return r;
    return b < 0 ? INT64_MAX : INT64_MIN;
}

/* Parses a time such as "4469", "4.469us", "12ms", "1.5s" (no unit = ns)
 * into nanoseconds, exactly (decimal digits, no floating point).  The whole
 * string must be consumed.  Returns false on a malformed or out-of-range
 * value. */
bool pv_parse_time(const char *s, int64_t *ns);
/* Parses a signed decimal integer; the whole string must be consumed. */
bool pv_parse_int64(const char *s, size_t len, int64_t *out);
/* Parses hexadecimal digits, with or without a 0x prefix; whole string. */
bool pv_parse_hex64(const char *s, size_t len, uint64_t *out);

typedef enum pv_time_unit {
    PV_UNIT_AUTO, /* pick ns/us/ms/s so that 1-3 digits stand before the point */
    PV_UNIT_NS,
    PV_UNIT_US,
    PV_UNIT_MS,
    PV_UNIT_S,
} pv_time_unit;

/* Writes a time for people: "1.234 ms", "0", "12 ns".  `out` of at least 32. */
void pv_format_time_human(int64_t ns, pv_time_unit unit, char *out, size_t out_size);
/* A time in `unit` (not AUTO) with `decimals` digits after the point (at most
 * what the unit has: us 3, ms 6, s 9; truncated, as pv_format_time_human
 * does), digits grouped by three with spaces on both sides of the point:
 * "5.551 097 450 s", "5 551 097 450 ns" (docs/tui.md "Times"). */
void pv_format_time_precise(int64_t ns, pv_time_unit unit, int decimals, char *out,
                            size_t out_size);
/* A time exactly, every significant digit: pv_format_time_precise in
 * `unit` (AUTO: the human one) with the fewest of 3, 6 or 9 decimals that
 * lose nothing ("1.999 769 ms", "2.000 ms", "12 ns"). */
void pv_format_time_exact(int64_t ns, pv_time_unit unit, char *out, size_t out_size);
/* The unit pv_format_time_human picks for a magnitude of `ns`. */
pv_time_unit pv_time_unit_for(int64_t ns);
/* Parses a unit name ("auto", "ns", "us", "ms", "s"). */
bool pv_time_unit_parse(const char *s, pv_time_unit *unit);

/* ---- files */

/* A read-only view of a whole file: mapped when possible. */
typedef struct pv_mapped_file {
    const unsigned char *data;
    size_t size;
    bool mapped;   /* false: data was read into memory (or size is 0) */
    bool borrowed; /* data is the kept copy of a stream input (not freed here) */
} pv_mapped_file;

/* Returns 0 on success, otherwise errno.  A stream input already read by
 * pv_input_capture is given from its copy (borrowed), never read again. */
int pv_map_file(const char *path, pv_mapped_file *mf);
void pv_unmap_file(pv_mapped_file *mf);
/* A mapped input that changed on disk while it was open (docs/input.md
 * "Files that change"): a read past its end after it was truncated
 * (SIGBUS), or its size, mtime or inode no longer what they were when it
 * was mapped.  Its mapping is then zero pages (nothing of the new data is
 * read under the old index; nothing faults).  Each changed file is
 * reported once: its path in `path`, true; false when none (is new). */
bool pv_inputs_changed(char *path, size_t size);
/* Whether the input at `path`, or one that goes with it (`path` then a
 * dot: a Text1 file's `run.txt.BIN`), changed so (whether reported or
 * not): what was read of it since is zeros. */
bool pv_input_changed(const char *path);

/* ---- stream inputs (docs/input.md): pipes, FIFOs, /dev/stdin, `-`.  They
 * can be read only once, so the first reader copies the whole stream into
 * memory and every later reader of the same path (or of the same pipe under
 * another name) gets that copy; the copies live until the process ends. */

/* The path to read for a command-line name: "/dev/stdin" for "-". */
const char *pv_input_path(const char *name);
/* When `path` is not a regular file, reads it whole (once) and returns its
 * copy in *mf (borrowed: pv_unmap_file only forgets it); returns 0 then, or
 * errno.  For a regular file (or a directory) returns ENOTSUP and leaves
 * *mf empty: map it with pv_map_file.  `progress` (may be NULL) hears of
 * the bytes read ("reading input"). */
int pv_input_capture(const char *path, pv_mapped_file *mf, const pv_progress *progress);
/* Whether `path` is a stream input that was captured. */
bool pv_input_is_stream(const char *path);
/* A file for libraries that must open a path themselves (SQLite): for a
 * captured stream, writes its copy to a new private temporary file (mode
 * 0600, in $TMPDIR or /tmp) and returns its malloc'd name in *tmp, which the
 * caller removes (pv_input_remove_temp) as soon as it has opened it; for
 * any other path sets *tmp to NULL.  Returns 0 or errno. */
int pv_input_temp_copy(const char *path, char **tmp);
void pv_input_remove_temp(char *tmp);

/* ---- test options
 *
 * Switches that only the tests turn (docs/testing.md "Test options"): each
 * reaches a code path at a small size, or fixes what would otherwise
 * depend on timing.  None set is the normal behaviour.  A test program sets
 * them in the options it passes (pv_load_options.test,
 * pv_export_request.test, pv_tl_options.test); the command line takes them
 * as --test NAME=VALUE.  The library never reads them from the environment.
 * X(enum suffix, name, what it does) */
#define PV_TEST_OPTIONS(X)                                                                        \
    X(INDEX_THREADS, "index-threads", "winIDEA index: 1 one thread, 2 the helper thread on every pass") \
    X(INDEX_SPLIT, "index-split", "winIDEA index: 1 in two halves wherever it can, 0 never")       \
    X(TEXT1_SERIAL, "text1-serial", "Text1: 1 parse, then index (no index while reading)")         \
    X(TEXT1_CHUNK, "text1-chunk", "Text1: events per hand-over to the indexing thread")            \
    X(TEXT1_DEBUG, "text1-debug", "Text1: 1 say on stderr what the indexing stream did")           \
    X(AQ_SPLIT_ROWS, "aq-split-rows", "AQTime: rows from which a table is read in two halves")     \
    X(AQ_DEFER_ROWS, "aq-defer-rows", "AQTime: rows from which a table is read after the first screen") \
    X(AQ_DEFER_PAUSED, "aq-defer-paused", "AQTime: 1 the reading after the first screen starts paused") \
    X(EXPORT_GRACE_MS, "export-grace-ms", "export: ms a cancelled SQLite write may finish before it is left") \
    X(DETAIL_ROWS, "detail-rows", "export: the cap of a detail's rows in the SQLite export")       \
    X(INDEX_SLICE, "index-slice", "viewer: 1 index one slice per key")                             \
    X(WORK_SLICE, "work-slice", "viewer: 1 do one step of a job per key")                          \
    X(FLAME_SLICE, "flame-slice", "viewer: build the flame graph N rows per key")                  \
    X(PROGRESS_DELAY_MS, "progress-delay-ms", "command line: ms before the progress bar shows")

typedef enum pv_test_option {
#define PV_TEST_ENUM(name, text, help) PV_TEST_##name,
    PV_TEST_OPTIONS(PV_TEST_ENUM)
#undef PV_TEST_ENUM
    PV_TEST_COUNT
} pv_test_option;

typedef struct pv_test_options {
    uint32_t set; /* bit (1 << option): given */
    int64_t value[PV_TEST_COUNT];
} pv_test_options;

/* Whether option `o` is given. */
static inline bool pv_test_has(const pv_test_options *t, pv_test_option o)
{
    return t && (t->set >> o & 1u);
}
/* Its value, or `normal` when it is not given. */
static inline int64_t pv_test_get(const pv_test_options *t, pv_test_option o, int64_t normal)
{
    return pv_test_has(t, o) ? t->value[o] : normal;
}
static inline void pv_test_set(pv_test_options *t, pv_test_option o, int64_t v)
{
    t->set |= 1u << o;
    t->value[o] = v;
}
/* Parses "NAME=VALUE" (VALUE an integer) into t; false with a message in
 * err for an unknown name or a bad value. */
bool pv_test_parse(pv_test_options *t, const char *name_value, char *err, size_t err_size);
/* One line per option, "  NAME  what it does", for docs and usage errors. */
void pv_test_print(FILE *fp);

#endif
