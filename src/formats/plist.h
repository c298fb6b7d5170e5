/* plist.h - the PLIST readers on a buffer, for the fuzz targets and tests
 * that have no file (the loaders themselves are pv_loader_plist and
 * pv_loader_plist_text in loaders.def). */
#ifndef PROFVIEW_FORMATS_PLIST_H
#define PROFVIEW_FORMATS_PLIST_H

#include "profview/load.h"

extern const pv_loader pv_loader_plist_text;

/* Parses `len` bytes of PLIST text as the loader does (docs/formats.md §4) and
 * fills f, whose path names the input in messages.  PV_LOAD_ERROR when no
 * line is a PLIST record. */
pv_load_status pv_plist_load_buffer(pv_file *f, const char *data, size_t len,
                                    const pv_load_options *o);

/* Parses `len` bytes of a PLIST text report (PLIST without /T; docs/plist.md
 * "Text reports") as the loader does.  PV_LOAD_ERROR when there is no
 * `Profile:` line of a known kind. */
pv_load_status pv_plist_text_load_buffer(pv_file *f, const char *data, size_t len,
                                         const pv_load_options *o);

#endif
