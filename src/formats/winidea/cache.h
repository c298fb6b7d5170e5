/*
 * cache.h - the winIDEA timeline index in the index cache (docs/cache.md,
 * profview/cache.h for the files themselves).
 */
#ifndef PROFVIEW_WINIDEA_CACHE_H
#define PROFVIEW_WINIDEA_CACHE_H

#include "formats/winidea/timeline.h"
#include "profview/cache.h"

#define PV_WI_CACHE_KIND "winidea"

/* The key of the index of `d` loaded from `input` (the file opened; its BIN
 * pair too) with the index options `o` and the forced BIN version (0 when
 * detected).  Initialises k; free with pv_cache_key_free. */
void pv_wi_cache_key(pv_cache_key *k, const pv_wi_data *d, const char *input,
                     const pv_tl_options *o, int bin_version);
/* Writes a complete index (with the BIN version it settled: d->timeline.version)
 * with the diagnostics the index added to `diag`
 * (its entries from diag_from on; its counts beyond the ones given). */
bool pv_wi_cache_save(const pv_cache_key *k, const pv_timeline_index *ix, int bin_version,
                      const pv_diag *diag, size_t diag_from, size_t warnings_before,
                      size_t errors_before, uint64_t max_bytes);
/* Restores a complete index from the cache when a valid entry exists
 * (else false, ix untouched): the arrays map the cache file, the BIN
 * version is the one the full index settled, and the index's warnings are
 * added to diag again. */
bool pv_wi_cache_load(const pv_cache_key *k, pv_timeline_index *ix, pv_wi_data *d, pv_diag *diag);

/* Shared by the two kinds of entry (cache.c, cache_text1.c). */
/* Reading a payload in order: each piece padded, never past the end (bad
 * is set, NULL returned, when it would be). */
typedef struct pv_wi_cache_reader {
    const unsigned char *p;
    size_t left;
    bool bad;
} pv_wi_cache_reader;
const void *pv_wi_cache_take(pv_wi_cache_reader *r, uint64_t count, size_t elem);
/* Takes the fixed-width head that starts a payload, `size` bytes whose
 * first `sizes_len` are the sizes of the structs of the build that wrote
 * it, and copies it to `head` (zeroed when it is missing): NULL when it
 * is there and its sizes are `sizes` (this build's), else why not. */
const char *pv_wi_cache_head(pv_wi_cache_reader *r, void *head, size_t size,
                             const uint64_t *sizes, size_t sizes_len);
/* After every piece is taken: NULL when they fit the payload exactly. */
const char *pv_wi_cache_fit(const pv_wi_cache_reader *r);
/* Refuses entry e (it is closed) for the reason `why`; false. */
bool pv_wi_cache_refuse(pv_cache_entry *e, const char *why);
/* A bool of a struct mapped from a cache entry holds 0 or 1 (read as a
 * byte: another value read as a bool is undefined, a forged entry). */
bool pv_wi_cache_bool_ok(const bool *b);
void *pv_wi_cache_copy(const void *src, size_t len); /* malloc'ed, at least 1 byte */
/* The messages an entry holds, in its head: how many, the warnings and
 * errors they count, and the length of their texts. */
typedef struct pv_wi_cache_diag {
    uint64_t entries, warnings, errors, text_len;
} pv_wi_cache_diag;
/* The messages diag holds from `from` on: their severities (returned,
 * malloc'ed) and their texts one after the other, NUL-terminated; `head`
 * counts them, and the warnings and errors beyond the ones given. */
unsigned char *pv_wi_cache_diag_pack(const pv_diag *diag, size_t from, size_t warnings_before,
                                     size_t errors_before, pv_buf *text, pv_wi_cache_diag *head);
/* Adds them to diag again, with the counts of warnings and errors of `head`. */
void pv_wi_cache_diag_restore(pv_diag *diag, const unsigned char *sev, const char *text,
                              const pv_wi_cache_diag *head);

/* What the Text1 parser read (cache_text1.c, docs/cache.md "Text1 files"),
 * keyed by the Text1 file alone: a hit fills `d` (initialised, empty)
 * without parsing, its records in the mapped entry, and adds the parser's
 * messages to diag again. */
#define PV_WI_TEXT1_CACHE_KIND "winidea-text1"
#define PV_WI_TEXT1_CACHE_VERSION 1u
void pv_wi_text1_cache_key(pv_cache_key *k, const char *path);
bool pv_wi_text1_cache_save(const pv_cache_key *k, const pv_wi_data *d, const pv_diag *diag,
                            size_t diag_from, size_t warnings_before, size_t errors_before,
                            uint64_t max_bytes);
bool pv_wi_text1_cache_load(const pv_cache_key *k, pv_wi_data *d, pv_diag *diag);

#endif
