/* export.c - `profview export` (docs/export.md): loads the file and hands
 * the request to the generic export API; knows no format. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "profview/export.h"

static atomic_int pv_export_interrupted; /* lock-free: a signal handler may store to it */

static void pv_export_on_sigint(int sig)
{
    (void)sig;
    pv_export_interrupted = 1;
}

static void pv_export_print(const pv_diag *d)
{
    for (size_t i = 0; i < d->entry_count; i++)
        fprintf(stderr, "profview: %s%s\n",
                d->entries[i].severity == PV_SEV_ERROR ? "error: " : "warning: ",
                d->entries[i].text);
}

int pv_cmd_export(const pv_cli_args *a)
{
    if (a->file_count != 1) {
        fprintf(stderr, "profview: export takes exactly one FILE\n");
        return PV_EXIT_USAGE;
    }
    pv_export_request r;
    pv_export_request_init(&r);
    r.test = a->test;
    if (!pv_cli_has(a, PV_OPT_FORMAT) || !pv_export_format_parse(a->values[PV_OPT_FORMAT], &r.format)) {
        fprintf(stderr, "profview: export needs --format text1, bin, sqlite or trace-json%s%s%s\n",
                pv_cli_has(a, PV_OPT_FORMAT) ? " (not '" : "",
                pv_cli_has(a, PV_OPT_FORMAT) ? a->values[PV_OPT_FORMAT] : "",
                pv_cli_has(a, PV_OPT_FORMAT) ? "')" : "");
        return PV_EXIT_USAGE;
    }
    if (!a->values[PV_OPT_OUTPUT] || !a->values[PV_OPT_OUTPUT][0]) {
        fprintf(stderr, "profview: export needs -o OUT\n");
        return PV_EXIT_USAGE;
    }
    /* docs/export.md: an export is a file, written beside its name and
     * renamed into place; standard output is not one (./- names a file -) */
    if (strcmp(a->values[PV_OPT_OUTPUT], "-") == 0) {
        fprintf(stderr, "profview: export writes a file, not standard output: -o - is refused "
                        "(give a file name; ./- for a file named -)\n");
        return PV_EXIT_USAGE;
    }
    if (pv_cli_has(a, PV_OPT_INSTANCE)) {
        const char *s = a->values[PV_OPT_INSTANCE];
        if (!pv_parse_int64(s, strlen(s), &r.instance) || r.instance < 0) {
            fprintf(stderr, "profview: --instance takes a number, not '%s'\n", s);
            return PV_EXIT_USAGE;
        }
    }
    if (pv_cli_has(a, PV_OPT_PARENT) || pv_cli_has(a, PV_OPT_SORT) ||
        pv_cli_has(a, PV_OPT_COLUMNS) || pv_cli_has(a, PV_OPT_LIMIT)) {
        fprintf(stderr, "profview: export takes no --parent, --sort, --columns or --limit\n");
        return PV_EXIT_USAGE;
    }
    /* Text1 and BIN: over the timeline's events; SQLite: over one view */
    if ((pv_cli_has(a, PV_OPT_FILTER) || pv_cli_has(a, PV_OPT_AREAS)) &&
        !pv_cli_has(a, PV_OPT_VIEW) && r.format == PV_EXPORT_SQLITE) {
        fprintf(stderr, "profview: with --format sqlite, --%s applies to one view: give --view "
                        "ID\n",
                pv_cli_has(a, PV_OPT_FILTER) ? "filter" : "areas");
        return PV_EXIT_USAGE;
    }
    r.view_id = a->values[PV_OPT_VIEW];
    r.filter = a->values[PV_OPT_FILTER];
    r.context = a->values[PV_OPT_CONTEXT];
    r.areas = a->values[PV_OPT_AREAS];
    r.profile = a->values[PV_OPT_PROFILE];
    /* trace-json: the window's ends as markers A and B (the file is loaded
     * over the window: its views already are) */
    if (r.format == PV_EXPORT_TRACE_JSON) {
        r.has_mark[0] = a->load.has_from;
        r.mark[0] = a->load.from;
        r.has_mark[1] = a->load.has_to;
        r.mark[1] = a->load.to;
    }

    /* --bin-version names the version to write; the input's is detected. */
    pv_cli_args in = *a;
    r.bin_version = in.load.bin_version;
    in.load.bin_version = 0;

    pv_file *f = pv_cli_load(a->files[0], &in);
    if (!f)
        return PV_EXIT_INPUT;

    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pv_export_on_sigint;
    sigaction(SIGINT, &sa, &old);
    /* the same bar as loading, on a terminal (docs/cli.md "Progress") */
    pv_cli_progress_attach(&r.progress, &a->test);
    r.progress.cancel = &pv_export_interrupted;

    pv_diag err;
    pv_diag_init(&err);
    pv_export_status st = pv_export_file(f, &r, a->values[PV_OPT_OUTPUT], pv_cli_has(a, PV_OPT_FORCE), &err);
    sigaction(SIGINT, &old, NULL);
    pv_cli_progress_end();
    pv_export_print(&err);
    pv_diag_free(&err);
    pv_file_free(f);
    switch (st) {
    case PV_EXPORT_OK: return PV_EXIT_OK;
    case PV_EXPORT_USAGE:
    case PV_EXPORT_UNSUPPORTED: return PV_EXIT_USAGE;
    case PV_EXPORT_CANCELLED: return PV_EXIT_INPUT;
    default: return PV_EXIT_OUTPUT; /* the output could not be written (--help) */
    }
}
