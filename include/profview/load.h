/*
 * load.h - detecting a file's format and running its loader.
 *
 * Every loader is declared once in src/formats/loaders.def; detection asks
 * each loader's probe how sure it is that the file is its format (by content,
 * never by name alone) and runs the most certain one.
 */
#ifndef PROFVIEW_LOAD_H
#define PROFVIEW_LOAD_H

#include "profview/export.h"
#include "profview/model.h"

typedef struct pv_load_options {
    const char *format;       /* a loader name to force, or NULL to detect */
    int bin_version;          /* winIDEA BIN: 0 detect, 10 = v1.0, 11 = v1.1 */
    const char *context_area; /* winIDEA: context area name or hex handle, or NULL */
    bool has_from;            /* time window (inclusive), for timelines */
    bool has_to;
    int64_t from;
    int64_t to;
    pv_progress progress;
    bool defer_index;         /* timelines: index on demand, so that the first events show
                                 at once; views that need the whole index finish it when
                                 read, and warnings of the index reach f->diag only then */
    bool steps;               /* the caller steps the load (pv_file_index_step between key
                                 presses, a viewer): a loader may show its first screen
                                 before it has read everything and read the rest on a
                                 thread of its own (AQTime: docs/aqtime.md "First screen") */
    bool cache;               /* timelines: read and write the index cache (docs/cache.md);
                                 off unless the caller turns it on (the CLI and the viewer do,
                                 unless --no-cache or the config's cache: enabled: false) */
    uint64_t cache_max_bytes; /* the cache directory's bound; 0 = PV_CACHE_DEFAULT_MAX_BYTES */
    pv_test_options test;     /* the tests' switches (core.h), none by default */
} pv_load_options;

void pv_load_options_init(pv_load_options *o);

typedef enum pv_load_status {
    PV_LOAD_OK = 0,      /* loaded (warnings may be in f->diag) */
    PV_LOAD_ERROR = 2,   /* not loadable; f->diag says why (file, place, reason) */
} pv_load_status;

typedef struct pv_loader {
    const char *name;        /* e.g. "winidea-text1" */
    const char *description; /* for --help and `info` */
    /* How sure the loader is that `head` (the first bytes of the file, up to
     * PV_PROBE_BYTES) is its format: 0 = not at all .. 100 = certain. */
    int (*probe)(const unsigned char *head, size_t len, uint64_t file_size, const char *path);
    /* Fills f (sets, views, diag).  f->path is set. */
    pv_load_status (*load)(pv_file *f, const pv_load_options *o);
    /* The format's own exports of a file it loaded (docs/export.md):
     * returns PV_EXPORT_UNSUPPORTED, writing nothing, for a request that is
     * not the format's to write (the generic profview SQLite schema,
     * written from the views, then applies).  NULL: none. */
    pv_export_hook export;
} pv_loader;

#define PV_PROBE_BYTES 65536

/* The loaders in the order they are declared. */
const pv_loader *const *pv_loaders(size_t *count);
const pv_loader *pv_loader_find(const char *name);

/* Loads `path`.  Always returns a pv_file (free with pv_file_free); *status
 * says whether it loaded.  Errors name the file, the place and the reason. */
pv_file *pv_load_file(const char *path, const pv_load_options *o, pv_load_status *status);

#endif
