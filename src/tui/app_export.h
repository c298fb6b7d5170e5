/* app_export.h - the export dialog (app_export.c): its state and
 * what other files ask of it.
 * Part of the viewer: only src/tui includes it (through app_internal.h,
 * which embeds the state in pv_app). */
#ifndef PROFVIEW_TUI_APP_EXPORT_H
#define PROFVIEW_TUI_APP_EXPORT_H

#include "tui/app.h"
#include "tui/jobs.h"

/* The parts of what the export dialog exports, each its own choice (bit
 * 1 << part of pv_export_dialog.what; docs/tui.md "Export"). */
enum {
    PV_EXPORT_PART_FILTER,  /* the Report's filter */
    PV_EXPORT_PART_WINDOW,  /* between markers A and B */
    PV_EXPORT_PART_CONTEXT, /* the selected row's context (or thread) */
    PV_EXPORT_PART_AREA,    /* the selected row's area (its name) */
    PV_EXPORT_PART_VIEW,    /* only this view (else the whole result set) */
    PV_EXPORT_PART_COUNT
};

/* The export dialog (app_export.c). */
typedef struct pv_export_dialog {
    int format; /* pv_export_format */
    int what;   /* bits 1 << PV_EXPORT_PART_*: the parts chosen */
    int field;  /* format, the parts, path (app_export.c) */
    pv_buf summary;   /* what will be written ("182 rows: ..."), or why not */
    bool summary_bad; /* the choices do not fit together */
    pv_buf error;     /* the last failure, shown in the dialog */
    int last_format;  /* the session's last export: 1 + its format, 0 none */
    pv_buf last_dir;  /* ... and its directory, with its '/' ("" none) */
    pv_buf path;
    size_t path_pos;
    bool confirm; /* the path exists: Enter replaces it, Esc keeps it */
    bool running; /* the status bar shows the export's progress (its job's step copies it) */
    uint64_t done, total;
    char stage[32]; /* the progress's `what`: "exporting", "selecting rows" */
    double start;
} pv_export_dialog;

void pv_app_export_open(pv_app *a);
void pv_app_export_key(pv_app *a, int key);
void pv_app_export_command(pv_app *a, const char *arg);
/* The export queued while its file was indexed (pv_app_command_queue). */
void pv_app_export_queued(pv_app *a, const pv_command_args *q);

#endif
