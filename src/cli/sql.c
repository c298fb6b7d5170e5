/* sql.c - `profview sql FILE... "SELECT ..."` (docs/sql.md): one read-only
 * query over the views of every file, written with cat's output rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "profview/sql.h"

/* Prints the message and, when SQLite names a place, the query with a caret
 * under it (the query escaped, so that no byte of it reaches a terminal raw). */
static void pv_sql_print_error(const char *query, const pv_sql_error *err)
{
    fprintf(stderr, "profview: SQL error: %s", err->message);
    size_t len = strlen(query);
    if (err->offset < 0 || (size_t)err->offset > len) {
        fprintf(stderr, "\n");
        return;
    }
    fprintf(stderr, " (at byte %d)\n", err->offset);
    /* the line of the query that holds the offset */
    size_t start = (size_t)err->offset, end = (size_t)err->offset;
    while (start > 0 && query[start - 1] != '\n')
        start--;
    while (end < len && query[end] != '\n')
        end++;
    pv_buf line, before;
    pv_buf_init(&line);
    pv_buf_init(&before);
    pv_escape_controls(&line, query + start, end - start);
    pv_escape_controls(&before, query + start, (size_t)err->offset - start);
    fprintf(stderr, "  %s\n  %*s^\n", pv_buf_cstr(&line), (int)before.len, "");
    pv_buf_free(&line);
    pv_buf_free(&before);
}

int pv_cmd_sql(const pv_cli_args *a)
{
    if (a->file_count < 2) {
        fprintf(stderr, "profview: sql takes FILE... and then one query: "
                        "profview sql FILE \"SELECT ...\"\n");
        return PV_EXIT_USAGE;
    }
    pv_out_format format = PV_OUT_TSV;
    if (pv_cli_has(a, PV_OPT_FORMAT) && !pv_out_format_parse(a->values[PV_OPT_FORMAT], &format)) {
        fprintf(stderr, "profview: --format takes tsv, csv or json, not '%s'\n",
                a->values[PV_OPT_FORMAT]);
        return PV_EXIT_USAGE;
    }
    size_t file_count = a->file_count - 1;
    const char *query = a->files[file_count];
    pv_file **files = pv_xcalloc(file_count, sizeof *files);
    int rc = PV_EXIT_OK;
    pv_sql *sql = pv_sql_new();
    for (size_t i = 0; i < file_count && rc == PV_EXIT_OK; i++) {
        files[i] = pv_cli_load(a->files[i], a);
        if (!files[i])
            rc = PV_EXIT_INPUT;
        else
            pv_sql_add_file(sql, files[i]);
    }
    if (rc == PV_EXIT_OK) {
        const char *notes = pv_sql_notes(sql);
        if (notes[0])
            fprintf(stderr, "profview: warning: %s", notes);
        pv_sql_error err;
        pv_view *result = pv_sql_query(sql, query, &err);
        if (!result) {
            pv_sql_print_error(query, &err);
            rc = PV_EXIT_INPUT;
        } else {
            size_t *cols = pv_xmalloc((result->column_count + 1) * sizeof *cols);
            for (size_t c = 0; c < result->column_count; c++)
                cols[c] = c;
            errno = 0;
            if (!pv_write_rows(stdout, result, cols, result->column_count, NULL,
                               pv_view_rows(result), format))
                rc = pv_cli_write_failed();
            free(cols);
            pv_view_free(result);
        }
    }
    pv_sql_free(sql);
    for (size_t i = 0; i < file_count; i++)
        if (files[i])
            pv_file_free(files[i]);
    free(files);
    return rc;
}
