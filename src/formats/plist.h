/* plist.h - the PLIST /T parser on a buffer, for the fuzz target and tests
 * that have no file (the loader itself is pv_loader_plist in loaders.def). */
#ifndef PROFVIEW_FORMATS_PLIST_H
#define PROFVIEW_FORMATS_PLIST_H

#include "profview/load.h"

/* Parses `len` bytes of PLIST text as the loader does (docs/formats.md §4) and
 * fills f, whose path names the input in messages.  PV_LOAD_ERROR when no
 * line is a PLIST record. */
pv_load_status pv_plist_load_buffer(pv_file *f, const char *data, size_t len,
                                    const pv_load_options *o);

#endif
