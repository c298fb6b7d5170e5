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
