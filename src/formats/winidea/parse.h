/*
 * parse.h - reading winIDEA Text1 files and BIN timelines into a
 * pv_wi_data (docs/formats.md §1, §2), before pv_wi_build indexes it.
 *
 * Used by the two loaders (winidea-text1, winidea-bin), the unit tests and
 * the fuzz targets.  Nothing here draws or knows about views.
 */
#ifndef PROFVIEW_WINIDEA_PARSE_H
#define PROFVIEW_WINIDEA_PARSE_H

#include "formats/winidea/winidea.h"

/* ---- Text1 (docs/formats.md §1) */

/* Parses a whole Text1 file held in buf[0..len) into `d` (initialised with
 * pv_wi_data_init; what it already holds is kept and added to).  `path`
 * names the file in messages ("path:line: reason").  Every section header is
 * kept in d->sections; unknown sections are kept whole; entry lines that do
 * not fit their section's template are skipped with a warning.
 *
 * Returns false, with an error in `diag`, only when nothing in the buffer is
 * a section header (it is not a Text1 file) or when `progress` cancelled;
 * true otherwise, even when lines were skipped.  Never looks for a BIN.
 * `progress` may be NULL. */
bool pv_wi_parse_text1(const char *path, const unsigned char *buf, size_t len, pv_wi_data *d,
                       pv_diag *diag);
bool pv_wi_parse_text1_progress(const char *path, const unsigned char *buf, size_t len,
                                pv_wi_data *d, pv_diag *diag, const pv_progress *progress);

/* Reading and indexing at once (docs/winidea-input.md): a TIMELINE section,
 * once the parser has room for all its events (reserved once from the bytes
 * left, so the records and their contexts never move), hands its events
 * out while it reads; with a %CONTEXT% field, while every name is a
 * CONTEXTS entry's (each event then carries that context).  `events` is called every `chunk` events
 * (and not after the parse): events [0, count) of d->timeline are final
 * and will not move, the mapping (areas, their parents, contexts) is as it
 * will be, and the parser will not read buf[0, done) again; it returns
 * false to get no more calls.  `abort` is called
 * before anything an index reads would change (another section after the
 * TIMELINE, a context name to resolve after the parse): what was handed
 * out must be dropped; no more calls follow.
 * Everything else about the parse is as without a sink. */
typedef struct pv_wi_text1_sink {
    bool (*events)(void *user, pv_wi_data *d, size_t count, size_t done);
    void (*abort)(void *user);
    void *user;
    size_t chunk; /* 0: 65536 */
    /* While the events are handed out, the parser is about to write the
     * records [from, from + n) of `records` (d->timeline.owned): map their
     * pages now (pv_prefault) unless another thread has or is about to.
     * NULL: the parser maps them itself. */
    void (*map)(void *user, unsigned char *records, size_t from, size_t n);
} pv_wi_text1_sink;

bool pv_wi_parse_text1_sink(const char *path, const unsigned char *buf, size_t len,
                            pv_wi_data *d, pv_diag *diag, const pv_progress *progress,
                            const pv_wi_text1_sink *sink);

/* How many Text1 parses this process began (any thread): the tests check
 * that an open from the index cache parses nothing (docs/cache.md). */
size_t pv_wi_text1_parse_count(void);

/* How sure we are that `head` starts a Text1 file: 90 when the first
 * non-blank line (after an optional UTF-8 BOM) is `* ` and a known section
 * name, 60 when it is an unknown `* ` section and a known one follows within
 * `head`, 0 otherwise. */
int pv_wi_text1_probe(const unsigned char *head, size_t len);

/* ---- BIN (docs/formats.md §2) */

/* Decides the record version of the whole 24-byte records in data[0..size)
 * by the rule of docs/formats.md §2: any word (bytes 4-7) with bits 24-27 set ->
 * 1.0; else all words with bits 12-31 clear and event type <= 4 -> 1.1; else
 * all words with bits 0-23 clear -> 1.0.  Returns 10, 11, or 0 when no
 * version fits (or there is no whole record); then `why` (when not NULL)
 * receives the reason, naming the byte offset of the first offending record. */
int pv_wi_bin_detect_version(const unsigned char *data, size_t size, char *why, size_t why_size);

/* How sure we are that `head` (the first bytes of a file of `file_size`
 * bytes) is a BIN timeline: 30 when a version detects over the whole records
 * of `head` and it looks binary; 0 for anything shorter than a record, a
 * SQLite database, text (no NUL byte in the first records), or a
 * tab-separated line whose first field is 0..10 (an MSVC PLIST report). */
int pv_wi_bin_probe(const unsigned char *head, size_t len, uint64_t file_size);

/* Makes data[0..size) the timeline of `d` (borrowed, not copied: it must
 * outlive `d`).  `forced_version` is 10 or 11 to force a reading, 0 to
 * detect: over the first PV_WI_BIN_EARLY_RECORDS records when they decide
 * (d->timeline.version_checked tells how many were read; the timeline index
 * confirms the decision over the rest), else over all of them.  `name` names the data in messages.  A tail that is not a whole
 * record is ignored with a warning naming its byte offset.  Returns false,
 * with a message of severity `sev` in `diag`, when there is no whole record
 * or no version fits; `d` is then unchanged. */
bool pv_wi_bin_attach_memory(pv_wi_data *d, const char *name, const unsigned char *data,
                             size_t size, int forced_version, pv_diag *diag, pv_severity sev);

/* Maps the BIN file `path` (pv_map_file) and attaches it as above; on
 * success d->bin owns the mapping and d->bin_path is set. */
bool pv_wi_bin_attach_file(pv_wi_data *d, const char *path, int forced_version, pv_diag *diag,
                           pv_severity sev);

/* The BIN that goes with the Text1 file `text_path` (docs/formats.md §2): the
 * first regular file among X.BIN, X.bin, then X with its extension replaced
 * by .BIN and .bin.  Returns a malloc'd path, or NULL when there is none. */
char *pv_wi_bin_find_pair(const char *text_path);

#endif
