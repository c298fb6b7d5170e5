/*
 * export_internal.h - internal to winIDEA's own exports (docs/export.md):
 * what the writer (export.c) and the selection (export_select.c: what a
 * context, areas, a window and a filter keep) share.
 */
#ifndef PROFVIEW_WINIDEA_EXPORT_INTERNAL_H
#define PROFVIEW_WINIDEA_EXPORT_INTERNAL_H

#include "formats/winidea/timeline.h"
#include "profview/export.h"

/* ---- the export profile: the format string of each section */

enum {
    WX_INFO,
    WX_CONTEXTS,
    WX_FUNCTIONS,
    WX_DATA,
    WX_AUX,
    WX_STATISTICS,
    WX_TIMELINE,
    WX_SECTION_COUNT
};

typedef struct wx_profile {
    char *format[WX_SECTION_COUNT];
} wx_profile;

typedef struct wx_ctx {
    const pv_file *f;
    const pv_wi_data *d;
    const pv_timeline_index *ix;
    const pv_export_request *r;
    pv_diag *err;
    pv_export_writer *w;
    bool restricted;     /* a window, a context or areas: generated sections */
    bool generated;      /* sections from the profile (else as read) */
    wx_profile profile;
    bool *keep_area;     /* per d->areas */
    bool *keep_ix_area;  /* per index area */
    bool *keep_context;  /* per index context (NULL: all) */
    bool *context_area;  /* per index area: the context area and its states */
    uint8_t *match;      /* per event: matches the filter (NULL: no filter) */
    /* a window (docs/export.md "Windows"): the state at its start, written
     * before its events (event indices, in file order), and one event after
     * its end, so that the file reloads with the same contexts, stacks and
     * statistics; the window itself goes in INFO */
    size_t *prologue;
    size_t prologue_count;
    size_t epilogue;     /* SIZE_MAX: none */
    bool carry_window;
    uint64_t done, total;
} wx_ctx;

/* ---- what is kept (export_select.c) */

/* Decides the kept contexts and areas of the request; false with a
 * message in c->err. */
bool wx_select(wx_ctx *c);
/* A window's start and end (docs/export.md "Windows"): the events that
 * carry the state at its start (c->prologue) and the one after its end
 * (c->epilogue); false on a cancel. */
bool wx_window_edges(wx_ctx *c);
/* Marks in c->match the events of the rows of the file's timeline view that
 * the request's filter (or rows) keeps; false on a bad filter (message in
 * err) or a cancel (no message). */
bool wx_match_filter(wx_ctx *c, const pv_timeline_index *file_ix);

#endif
