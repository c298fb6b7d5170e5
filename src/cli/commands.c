/* commands.c - `profview info`, `profview cat` and `profview diff`, and the plain-text
 * fallback of `profview FILE`. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <unistd.h>

#include "cli.h"
#include "profview/diff.h"
#include "profview/flame.h"
#include "profview/hooks.h"
#include "profview/query.h"
#include "profview/tui.h"

pv_file *pv_cli_load(const char *path, const pv_cli_args *a)
{
    pv_load_status status;
    pv_file *f = pv_load_file(path, &a->load, &status);
    pv_cli_progress_end();
    char changed[512];
    if (status == PV_LOAD_OK && pv_inputs_changed(changed, sizeof changed)) {
        /* docs/input.md "Files that change": nothing of it is shown */
        fprintf(stderr,
                "profview: error: %s changed on disk while it was open (truncated or "
                "overwritten): what was read of it is not to be trusted; run again\n",
                changed);
        pv_file_free(f);
        return NULL;
    }
    if (status != PV_LOAD_OK) {
        for (size_t i = 0; i < f->diag.entry_count; i++)
            fprintf(stderr, "profview: %s%s\n",
                    f->diag.entries[i].severity == PV_SEV_ERROR ? "error: " : "warning: ",
                    f->diag.entries[i].text);
        pv_file_free(f);
        return NULL;
    }
    return f;
}

/* ---- info */

/* Writes the text of b escaped (pv_escape_terminal) and empties b. */
static void pv_info_flush(pv_buf *b, pv_buf *esc)
{
    pv_buf_clear(esc);
    pv_escape_terminal(esc, b->data ? b->data : "", b->len, "\n");
    fwrite(esc->data ? esc->data : "", 1, esc->len, stdout);
    pv_buf_clear(b);
}

/* Everything from the input (its path, captions, notes, messages) is
 * escaped before it reaches the terminal (pv_escape_terminal).  Written a
 * result set at a time: a file of a million result sets needs no text of
 * them all in memory (docs/aqtime.md, Scale). */
static void pv_info_text(const pv_file *f)
{
    pv_buf b, esc;
    pv_buf_init(&b);
    pv_buf_init(&esc);
    pv_buf_printf(&b, "%s\n  format: %s\n", f->path, f->format ? f->format : "?");
    if (f->diag.warnings || f->diag.errors)
        pv_buf_printf(&b, "  warnings: %zu\n", f->diag.warnings + f->diag.errors);
    for (size_t i = 0; i < f->diag.entry_count; i++)
        pv_buf_printf(&b, "    %s\n", f->diag.entries[i].text);
    if (f->diag.entry_count < f->diag.warnings + f->diag.errors)
        pv_buf_printf(&b, "    ... and %zu more\n",
               f->diag.warnings + f->diag.errors - f->diag.entry_count);
    for (size_t s = 0; s < f->set_count; s++) {
        const pv_result_set *set = f->sets[s];
        pv_buf_printf(&b, "  result set %" PRId64 ": %s%s%s%s\n", set->id, set->caption,
               set->kind[0] ? " (" : "", set->kind, set->kind[0] ? ")" : "");
        for (size_t n = 0; n < set->note_count; n++)
            pv_buf_printf(&b, "    note: %s\n", set->notes[n]);
        for (size_t v = 0; v < set->view_count; v++) {
            const pv_view *view = set->views[v];
            pv_buf_printf(&b, "    %-22s %10zu rows%s", view->id, pv_view_rows(view),
                   pv_view_is_tree(view) ? " (tree)" : "");
            if (view->detail_count) {
                pv_buf_printf(&b, "  details:");
                for (size_t d = 0; d < view->detail_count; d++) /* the source view: apart */
                    pv_buf_printf(&b, " %s%s", view->details[d].id,
                                  pv_detail_outside(&view->details[d]) ? " (source files)"
                                                                             : "");
            }
            pv_buf_printf(&b, "\n");
        }
        if (b.len >= 65536)
            pv_info_flush(&b, &esc);
    }
    pv_info_flush(&b, &esc);
    pv_buf_free(&esc);
    pv_buf_free(&b);
}

static void pv_info_json(const pv_file *f, pv_buf *out)
{
    pv_buf_puts(out, "{\"path\":");
    pv_json_string(out, f->path, strlen(f->path));
    pv_buf_puts(out, ",\"format\":");
    pv_json_string(out, f->format ? f->format : "", f->format ? strlen(f->format) : 0);
    pv_buf_printf(out, ",\"warning_count\":%zu,\"warnings\":[", f->diag.warnings + f->diag.errors);
    for (size_t i = 0; i < f->diag.entry_count; i++) {
        if (i)
            pv_buf_putc(out, ',');
        pv_json_string(out, f->diag.entries[i].text, strlen(f->diag.entries[i].text));
    }
    pv_buf_puts(out, "],\"result_sets\":[");
    for (size_t s = 0; s < f->set_count; s++) {
        const pv_result_set *set = f->sets[s];
        pv_buf_printf(out, "%s{\"id\":%" PRId64 ",\"caption\":", s ? "," : "", set->id);
        pv_json_string(out, set->caption, strlen(set->caption));
        pv_buf_puts(out, ",\"kind\":");
        pv_json_string(out, set->kind, strlen(set->kind));
        pv_buf_puts(out, ",\"notes\":[");
        for (size_t n = 0; n < set->note_count; n++) {
            if (n)
                pv_buf_putc(out, ',');
            pv_json_string(out, set->notes[n], strlen(set->notes[n]));
        }
        pv_buf_puts(out, "],\"views\":[");
        for (size_t v = 0; v < set->view_count; v++) {
            const pv_view *view = set->views[v];
            pv_buf_puts(out, v ? ",{\"id\":" : "{\"id\":");
            pv_json_string(out, view->id, strlen(view->id));
            pv_buf_printf(out, ",\"rows\":%zu,\"tree\":%s,\"details\":[", pv_view_rows(view),
                          pv_view_is_tree(view) ? "true" : "false");
            /* the file's details; those read from outside it (the source
             * view, docs/source.md) apart */
            for (int outside = 0; outside < 2; outside++) {
                if (outside)
                    pv_buf_puts(out, "],\"outside_details\":[");
                bool any = false;
                for (size_t d = 0; d < view->detail_count; d++) {
                    if (pv_detail_outside(&view->details[d]) != (outside == 1))
                        continue;
                    if (any)
                        pv_buf_putc(out, ',');
                    any = true;
                    pv_json_string(out, view->details[d].id, strlen(view->details[d].id));
                }
            }
            pv_buf_puts(out, "]}");
        }
        pv_buf_puts(out, "]}");
        if (out->len >= 65536) {
            /* written as it goes: a file of a million result sets needs no
             * text of them all in memory (docs/aqtime.md, Scale) */
            fwrite(out->data, 1, out->len, stdout);
            pv_buf_clear(out);
        }
    }
    pv_buf_puts(out, "]}");
}

int pv_cmd_info(const pv_cli_args *a)
{
    int rc = PV_EXIT_OK;
    bool json = pv_cli_has(a, PV_OPT_JSON);
    pv_buf out;
    pv_buf_init(&out);
    if (json)
        pv_buf_puts(&out, "{\"files\":[");
    size_t printed = 0;
    for (size_t i = 0; i < a->file_count; i++) {
        pv_file *f = pv_cli_load(a->files[i], a);
        if (!f) {
            rc = PV_EXIT_INPUT;
            continue;
        }
        if (json) {
            if (printed)
                pv_buf_putc(&out, ',');
            pv_info_json(f, &out);
        } else {
            pv_info_text(f);
        }
        printed++;
        pv_file_free(f);
    }
    if (json) {
        pv_buf_puts(&out, "]}\n");
        fputs(pv_buf_cstr(&out), stdout);
    }
    pv_buf_free(&out);
    return rc;
}

/* ---- cat */

static bool pv_cli_pipe_closed;

bool pv_cli_reader_gone(void)
{
    return pv_cli_pipe_closed;
}

int pv_cli_write_failed(void)
{
    if (errno == EPIPE || pv_cli_pipe_closed) {
        pv_cli_pipe_closed = true;
        return PV_EXIT_OK;
    }
    if (errno)
        fprintf(stderr, "profview: cannot write the output: %s\n", strerror(errno));
    else
        fprintf(stderr, "profview: cannot write the output\n");
    return PV_EXIT_OUTPUT;
}

static void pv_list_views(const pv_result_set *set)
{
    fprintf(stderr, "views of this result set:");
    for (size_t v = 0; v < set->view_count; v++)
        fprintf(stderr, " %s", set->views[v]->id);
    fprintf(stderr, "\n");
}

/* Finds the view (or detail view) to print.  *owned is set when the result
 * must be freed by the caller. */
static int pv_cat_find_view(const pv_cli_args *a, const pv_file *f, const pv_result_set *set,
                            pv_view **out, bool *owned)
{
    const char *view_id = a->values[PV_OPT_VIEW];
    *owned = false;
    pv_view *v = pv_set_find_view(set, view_id);
    if (v && !pv_cli_has(a, PV_OPT_PARENT)) {
        *out = v;
        return PV_EXIT_OK;
    }
    if (!v && strcmp(view_id, "flame") == 0 && !pv_cli_has(a, PV_OPT_PARENT)) {
        /* derived from the call tree (docs/flame.md) */
        pv_view *tree = pv_flame_source(set);
        if (!tree) {
            fprintf(stderr, "profview: %s: this result set has no call tree to fold; ", f->path);
            pv_list_views(set);
            return PV_EXIT_USAGE;
        }
        char err[256];
        pv_flame *fl = pv_flame_build(tree, NULL, 0, err, sizeof err);
        if (!fl) {
            fprintf(stderr, "profview: %s: %s\n", f->path, err);
            return PV_EXIT_INPUT;
        }
        *out = pv_flame_view(fl);
        *owned = true;
        pv_flame_free(fl);
        return PV_EXIT_OK;
    }
    if (!pv_cli_has(a, PV_OPT_PARENT)) {
        /* Is it a detail view?  Then --parent is needed. */
        for (size_t i = 0; i < set->view_count; i++)
            if (pv_view_detail_index(set->views[i], view_id) != PV_NO_ROW) {
                fprintf(stderr,
                        "profview: '%s' is a detail view of '%s': give --parent ID (the id of "
                        "a '%s' row)\n",
                        view_id, set->views[i]->id, set->views[i]->id);
                return PV_EXIT_USAGE;
            }
        fprintf(stderr, "profview: %s: no view '%s'; ", f->path, view_id);
        pv_list_views(set);
        return PV_EXIT_USAGE;
    }
    int64_t parent_id;
    const char *p = a->values[PV_OPT_PARENT];
    if (!pv_parse_int64(p, strlen(p), &parent_id)) {
        uint64_t hex;
        if (!pv_parse_hex64(p, strlen(p), &hex) || strncasecmp(p, "0x", 2) != 0) {
            fprintf(stderr, "profview: --parent takes a row id (a number), not '%s'\n", p);
            return PV_EXIT_USAGE;
        }
        parent_id = (int64_t)hex;
    }
    /* The view whose row it is: the first that offers the detail and has a
     * row with that id (--of names another). */
    const char *of = a->values[PV_OPT_OF];
    const pv_view *owner = NULL, *first = NULL;
    size_t row = PV_NO_ROW, d = PV_NO_ROW;
    for (size_t i = 0; i < set->view_count; i++) {
        const pv_view *o = set->views[i];
        size_t od = pv_view_detail_index(o, view_id);
        if (od == PV_NO_ROW || (of && strcasecmp(o->id, of) != 0))
            continue;
        if (!first)
            first = o;
        size_t r = pv_view_find_id(o, parent_id);
        if (r == PV_NO_ROW)
            continue;
        owner = o;
        row = r;
        d = od;
        break;
    }
    if (first && !owner) {
        fprintf(stderr, "profview: %s: view '%s' has no row with id %" PRId64 "\n", f->path,
                first->id, parent_id);
        return PV_EXIT_USAGE;
    }
    if (owner) {
        pv_buf why;
        pv_buf_init(&why);
        v = pv_view_open_detail_why(owner, d, row, &why);
        if (!v) {
            /* a detail left out of an export for its size says so, a
             * source file not found where it looked */
            const char *missing = pv_view_detail_missing(owner, d);
            if (!missing && why.len)
                missing = pv_buf_cstr(&why);
            if (missing)
                fprintf(stderr, "profview: %s: '%s' of row %" PRId64 " of '%s': %s\n", f->path,
                        view_id, parent_id, owner->id, missing);
            else
                fprintf(stderr, "profview: %s: row %" PRId64 " of '%s' has no '%s'\n", f->path,
                        parent_id, owner->id, view_id);
            pv_buf_free(&why);
            return PV_EXIT_INPUT;
        }
        pv_buf_free(&why);
        *out = v;
        *owned = true;
        return PV_EXIT_OK;
    }
    if (of)
        fprintf(stderr, "profview: %s: view '%s' has no detail '%s'; ", f->path, of, view_id);
    else
        fprintf(stderr, "profview: %s: no detail view '%s' in this result set; ", f->path,
                view_id);
    pv_list_views(set);
    return PV_EXIT_USAGE;
}

/* Parses --columns into column indices; all columns when absent. */
static int pv_cat_columns(const pv_cli_args *a, const pv_view *v, size_t **cols, size_t *count)
{
    const char *spec = a->values[PV_OPT_COLUMNS];
    if (!spec) {
        *cols = pv_xmalloc(v->column_count * sizeof **cols);
        for (size_t c = 0; c < v->column_count; c++)
            (*cols)[c] = c;
        *count = v->column_count;
        return PV_EXIT_OK;
    }
    size_t n = 1;
    for (const char *s = spec; *s; s++)
        n += *s == ',';
    *cols = pv_xmalloc(n * sizeof **cols);
    *count = 0;
    const char *s = spec;
    for (;;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        char *name = pv_xstrndup(s, len);
        size_t c = pv_view_column(v, name);
        if (c == PV_NO_ROW) {
            fprintf(stderr, "profview: view '%s' has no column '%s'; columns:", v->id, name);
            for (size_t i = 0; i < v->column_count; i++)
                fprintf(stderr, " %s", v->columns[i].id);
            fprintf(stderr, "\n");
            free(name);
            free(*cols);
            *cols = NULL;
            return PV_EXIT_USAGE;
        }
        free(name);
        (*cols)[(*count)++] = c;
        if (!end)
            break;
        s = end + 1;
    }
    return PV_EXIT_OK;
}

/* --context NAME keeps the rows whose `context` (or `thread`) column is NAME. */
static size_t pv_cat_context(const pv_cli_args *a, const pv_view *v, pv_row *rows, size_t n)
{
    const char *name = a->values[PV_OPT_CONTEXT];
    size_t col = pv_view_column(v, "context");
    if (col == PV_NO_ROW)
        col = pv_view_column(v, "thread");
    if (col == PV_NO_ROW)
        return n;
    pv_buf text;
    pv_buf_init(&text);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        pv_cell c;
        pv_view_cell(v, rows[i], col, &c);
        pv_buf_clear(&text);
        pv_cell_format_exact(&c, &text);
        if (strcmp(pv_buf_cstr(&text), name) == 0)
            rows[kept++] = rows[i];
    }
    pv_buf_free(&text);
    return kept;
}

/* Prints a filter or sort error as the expression, a caret under the
 * offending character and the message (docs/filter.md). */
static void pv_cat_query_error(const char *option, const char *text, const pv_query_error *err)
{
    pv_buf msg;
    pv_buf_init(&msg);
    pv_query_error_render(err, text, &msg);
    fprintf(stderr, "profview: bad %s:\n%s", option, pv_buf_cstr(&msg));
    pv_buf_free(&msg);
}

/* --filter then --sort over the selection (docs/cli.md: --context, then
 * --filter, then --sort, then --limit).  Returns the new row count, or
 * SIZE_MAX after printing a usage error. */
static size_t pv_cat_filter_sort(const pv_cli_args *a, const pv_view *v, pv_row *rows, size_t n)
{
    pv_query_error err;
    if (pv_cli_has(a, PV_OPT_FILTER)) {
        const char *expr = a->values[PV_OPT_FILTER];
        pv_filter *filter = pv_filter_compile(v, expr, &err);
        if (!filter && err.message[0]) {
            pv_cat_query_error("--filter", expr, &err);
            return SIZE_MAX;
        }
        if (filter) {
            n = pv_filter_rows(filter, v, rows, n, rows, NULL);
            pv_filter_free(filter);
        }
    }
    if (pv_cli_has(a, PV_OPT_SORT)) {
        const char *spec = a->values[PV_OPT_SORT];
        pv_sort_key keys[PV_SORT_MAX_KEYS];
        size_t key_count;
        if (!pv_sort_parse(v, spec, keys, &key_count, &err)) {
            pv_cat_query_error("--sort", spec, &err);
            return SIZE_MAX;
        }
        pv_sort_rows(v, keys, key_count, rows, n);
    }
    return n;
}

/* Writes `STACK SELF` lines (docs/flame.md), the input of flamegraph.pl,
 * inferno, speedscope and flamelens; paths without self time are left out. */
static bool pv_write_folded(FILE *fp, const pv_view *v, const pv_row *rows, size_t n)
{
    size_t col_stack = pv_view_column(v, "stack"), col_self = pv_view_column(v, "self");
    pv_buf line;
    pv_buf_init(&line);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        size_t r = rows ? rows[i] : i;
        pv_cell stack, self;
        pv_view_cell(v, r, col_stack, &stack);
        pv_view_cell(v, r, col_self, &self);
        if (!stack.present || !self.present || self.v.i <= 0)
            continue;
        pv_buf_clear(&line);
        pv_buf_append(&line, stack.v.s.ptr, stack.v.s.len);
        pv_buf_printf(&line, " %" PRId64 "\n", self.v.i);
        ok = fwrite(line.data, 1, line.len, fp) == line.len;
    }
    pv_buf_free(&line);
    return ok && fflush(fp) == 0;
}

/* Parses --format: tsv, csv, json, or folded (for a view with `stack` and
 * `self`). */
static int pv_cat_format(const pv_cli_args *a, pv_out_format *format, bool *folded)
{
    *format = PV_OUT_TSV;
    *folded = false;
    if (!pv_cli_has(a, PV_OPT_FORMAT))
        return PV_EXIT_OK;
    const char *name = a->values[PV_OPT_FORMAT];
    if (strcmp(name, "folded") == 0) {
        *folded = true;
        return PV_EXIT_OK;
    }
    if (!pv_out_format_parse(name, format)) {
        fprintf(stderr, "profview: --format takes tsv, csv, json or folded, not '%s'\n", name);
        return PV_EXIT_USAGE;
    }
    return PV_EXIT_OK;
}

/* --instance / --instance-b: -1 when absent. */
static int pv_cat_instance(const pv_cli_args *a, pv_cli_option opt, int64_t *instance)
{
    *instance = -1;
    if (!pv_cli_has(a, opt))
        return PV_EXIT_OK;
    const char *s = a->values[opt];
    if (!pv_parse_int64(s, strlen(s), instance)) {
        fprintf(stderr, "profview: --%s takes a number, not '%s'\n",
                opt == PV_OPT_INSTANCE ? "instance" : "instance-b", s);
        return PV_EXIT_USAGE;
    }
    return PV_EXIT_OK;
}

static pv_result_set *pv_cat_set(const pv_file *f, int64_t instance, int *rc)
{
    pv_result_set *set = pv_file_find_set(f, instance);
    if (!set) {
        fprintf(stderr, "profview: %s: no result set", f->path);
        if (instance >= 0)
            fprintf(stderr, " with INST_ID %" PRId64, instance);
        fprintf(stderr, "\n");
        *rc = instance >= 0 ? PV_EXIT_USAGE : PV_EXIT_INPUT;
    }
    return set;
}

/* The selection and output options of cat (--columns, --context, --filter,
 * --sort, --limit, --format) applied to v, written to stdout. */
static int pv_cat_write(const pv_cli_args *a, const pv_view *v)
{
    pv_out_format format;
    bool folded;
    int rc = pv_cat_format(a, &format, &folded);
    if (rc != PV_EXIT_OK)
        return rc;
    if (folded && (pv_view_column(v, "stack") == PV_NO_ROW ||
                   pv_view_column(v, "self") == PV_NO_ROW ||
                   v->columns[pv_view_column(v, "self")].type == PV_TYPE_STRING)) {
        fprintf(stderr, "profview: --format folded needs a view with stack and self columns "
                        "(--view flame), not '%s'\n",
                v->id);
        return PV_EXIT_USAGE;
    }
    size_t limit = SIZE_MAX;
    if (pv_cli_has(a, PV_OPT_LIMIT)) {
        int64_t l;
        const char *s = a->values[PV_OPT_LIMIT];
        if (!pv_parse_int64(s, strlen(s), &l) || l < 0) {
            fprintf(stderr, "profview: --limit takes a count, not '%s'\n", s);
            return PV_EXIT_USAGE;
        }
        limit = (size_t)l;
    }
    size_t *cols = NULL, col_count = 0;
    rc = pv_cat_columns(a, v, &cols, &col_count);
    bool select = pv_cli_has(a, PV_OPT_CONTEXT) || pv_cli_has(a, PV_OPT_FILTER) ||
                  pv_cli_has(a, PV_OPT_SORT);
    if (rc == PV_EXIT_OK && !select) {
        /* View order, no selection: stream the rows (docs/quality.md, the
         * first screen of a 50 M-event timeline needs no row array). */
        size_t n = pv_view_rows(v);
        if (n > limit)
            n = limit;
        bool ok = folded ? pv_write_folded(stdout, v, NULL, n)
                         : pv_write_rows(stdout, v, cols, col_count, NULL, n, format);
        if (!ok)
            rc = pv_cli_write_failed();
    } else if (rc == PV_EXIT_OK) {
        size_t n = pv_view_rows(v);
        pv_row *rows = pv_xmalloc((n ? n : 1) * sizeof *rows);
        for (size_t r = 0; r < n; r++)
            rows[r] = (pv_row)r;
        if (pv_cli_has(a, PV_OPT_CONTEXT))
            n = pv_cat_context(a, v, rows, n);
        n = pv_cat_filter_sort(a, v, rows, n);
        if (n == SIZE_MAX)
            rc = PV_EXIT_USAGE;
        else if (n > limit)
            n = limit;
        if (rc == PV_EXIT_OK) {
            bool ok = folded ? pv_write_folded(stdout, v, rows, n)
                             : pv_write_rows(stdout, v, cols, col_count, rows, n, format);
            if (!ok)
                rc = pv_cli_write_failed();
        }
        free(rows);
    }
    free(cols);
    return rc;
}

int pv_cmd_cat(const pv_cli_args *a)
{
    if (a->file_count != 1) {
        fprintf(stderr, "profview: cat takes exactly one FILE\n");
        return PV_EXIT_USAGE;
    }
    if (!pv_cli_has(a, PV_OPT_VIEW)) {
        fprintf(stderr, "profview: cat needs --view ID (see 'profview info FILE')\n");
        return PV_EXIT_USAGE;
    }
    pv_out_format format;
    bool folded;
    int64_t instance;
    int rc = pv_cat_format(a, &format, &folded);
    if (rc == PV_EXIT_OK)
        rc = pv_cat_instance(a, PV_OPT_INSTANCE, &instance);
    if (rc != PV_EXIT_OK)
        return rc;

    /* cat reads one view: a timeline indexes only as far as that view needs
     * (the first screen of a 50 M-event BIN, docs/quality.md) */
    pv_cli_args deferred = *a;
    deferred.load.defer_index = true;
    pv_file *f = pv_cli_load(a->files[0], &deferred);
    if (!f)
        return PV_EXIT_INPUT;
    pv_result_set *set = pv_cat_set(f, instance, &rc);
    pv_view *v = NULL;
    bool owned = false;
    if (set)
        rc = pv_cat_find_view(a, f, set, &v, &owned);
    if (rc == PV_EXIT_OK)
        rc = pv_cat_write(a, v);
    if (owned)
        pv_view_free(v);
    pv_file_free(f);
    return rc;
}

/* `profview -` (or /dev/stdin) with the data on stdin: reads it now (the
 * loaders then read that copy, docs/input.md) and takes the keys from the
 * terminal, /dev/tty, as `less` does.  False when no file is stdin or there
 * is no terminal. */
static bool pv_cli_stdin_to_tty(const pv_cli_args *a)
{
    bool reads_stdin = false;
    for (size_t i = 0; i < a->file_count; i++)
        if (strcmp(pv_input_path(a->files[i]), "/dev/stdin") == 0)
            reads_stdin = true;
    if (!reads_stdin)
        return false;
    int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
    if (tty < 0)
        return false;
    pv_mapped_file copy;
    (void)pv_input_capture("/dev/stdin", &copy, &a->load.progress); /* failures: the loader */
    pv_cli_progress_end();
    bool ok = dup2(tty, STDIN_FILENO) == STDIN_FILENO;
    close(tty);
    return ok;
}

/* ---- diff */

int pv_cmd_diff(const pv_cli_args *a)
{
    if (a->file_count != 2) {
        fprintf(stderr, "profview: diff takes two files, A and B (the same file twice "
                        "compares two result sets: --instance N --instance-b M)\n");
        return PV_EXIT_USAGE;
    }
    if (!pv_cli_has(a, PV_OPT_VIEW)) {
        fprintf(stderr, "profview: diff needs --view ID (see 'profview info FILE')\n");
        return PV_EXIT_USAGE;
    }
    if (pv_cli_has(a, PV_OPT_PARENT)) {
        fprintf(stderr, "profview: diff compares whole views; --parent is for cat\n");
        return PV_EXIT_USAGE;
    }
    pv_out_format format;
    bool folded;
    int64_t inst_a, inst_b;
    int rc = pv_cat_format(a, &format, &folded);
    if (rc == PV_EXIT_OK)
        rc = pv_cat_instance(a, PV_OPT_INSTANCE, &inst_a);
    if (rc == PV_EXIT_OK)
        rc = pv_cat_instance(a, PV_OPT_INSTANCE_B, &inst_b);
    if (rc != PV_EXIT_OK)
        return rc;
    if (folded) {
        fprintf(stderr, "profview: diff writes tsv, csv or json\n");
        return PV_EXIT_USAGE;
    }
    if (inst_b < 0)
        inst_b = inst_a;
    pv_cli_args deferred = *a;
    deferred.load.defer_index = true;
    pv_file *fa = pv_cli_load(a->files[0], &deferred);
    if (!fa)
        return PV_EXIT_INPUT;
    /* --from-b/--to-b: another window of B (two windows of one timeline) */
    pv_cli_args deferred_b = deferred;
    const pv_cli_option win_opt[2] = {PV_OPT_FROM_B, PV_OPT_TO_B};
    for (size_t w = 0; w < 2; w++) {
        if (!pv_cli_has(a, win_opt[w]))
            continue;
        int64_t t;
        if (!pv_parse_time(a->values[win_opt[w]], &t)) {
            fprintf(stderr, "profview: --%s: '%s' is not a time (e.g. 4469, 4.469us, 12ms)\n",
                    w ? "to-b" : "from-b", a->values[win_opt[w]]);
            pv_file_free(fa);
            return PV_EXIT_USAGE;
        }
        if (w == 0)
            deferred_b.load.from = t, deferred_b.load.has_from = true;
        else
            deferred_b.load.to = t, deferred_b.load.has_to = true;
    }
    if (deferred_b.load.has_from && deferred_b.load.has_to &&
        deferred_b.load.from > deferred_b.load.to) {
        fprintf(stderr, "profview: B's window starts after it ends (--from-b/--to-b, or --from/--to)"
                        ": it would be empty\nTry 'profview --help'.\n");
        pv_file_free(fa);
        return PV_EXIT_USAGE;
    }
    pv_file *fb = pv_cli_load(a->files[1], &deferred_b);
    if (!fb) {
        pv_file_free(fa);
        return PV_EXIT_INPUT;
    }
    pv_view *va = NULL, *vb = NULL;
    bool owned_a = false, owned_b = false;
    pv_result_set *sa = pv_cat_set(fa, inst_a, &rc);
    pv_result_set *sb = sa ? pv_cat_set(fb, inst_b, &rc) : NULL;
    if (sa && sb)
        rc = pv_cat_find_view(a, fa, sa, &va, &owned_a);
    if (sa && sb && rc == PV_EXIT_OK)
        rc = pv_cat_find_view(a, fb, sb, &vb, &owned_b);
    if (rc == PV_EXIT_OK) {
        char err[256];
        pv_view *d = pv_diff_views(va, NULL, 0, vb, NULL, 0, NULL, err, sizeof err);
        if (!d) {
            fprintf(stderr, "profview: %s vs %s: %s\n", fa->path, fb->path, err);
            rc = PV_EXIT_INPUT;
        } else {
            rc = pv_cat_write(a, d);
            pv_view_free(d);
        }
    }
    if (owned_a)
        pv_view_free(va);
    if (owned_b)
        pv_view_free(vb);
    pv_file_free(fa);
    pv_file_free(fb);
    return rc;
}

/* `profview FILE...`: the TUI.  When stdout is not a terminal (a pipe, a
 * script) and no scripted keys are given, print what was loaded instead. */
int pv_cmd_view(const pv_cli_args *a)
{
    const char *keys = a->values[PV_OPT_KEYS];
    if (keys && !keys[0])
        keys = NULL;
    if (!keys && !isatty(STDOUT_FILENO)) {
        int rc = pv_cmd_info(a);
        if (rc == PV_EXIT_OK)
            printf("\nRead a view with: profview cat FILE --view ID\n");
        return rc;
    }
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    o.paths = a->files;
    o.path_count = a->file_count;
    o.load = a->load;
    o.theme = a->values[PV_OPT_THEME];
    o.ascii = pv_cli_has(a, PV_OPT_ASCII);
    /* a script of keys (--keys) is a test: no session read or saved, so
     * that every run starts the same (docs/tui.md "Sessions") */
    o.session = !pv_cli_has(a, PV_OPT_NO_SESSION) && !keys;
    o.keys_path = keys;
    o.dump_path = a->values[PV_OPT_DUMP];
    if (pv_cli_has(a, PV_OPT_SIZE) &&
        !pv_tui_parse_size(a->values[PV_OPT_SIZE], &o.width, &o.height)) {
        fprintf(stderr, "profview: --size takes WIDTHxHEIGHT (e.g. 100x30), not '%s'\n",
                a->values[PV_OPT_SIZE]);
        return PV_EXIT_USAGE;
    }
    if (!keys && !isatty(STDIN_FILENO) && !pv_cli_stdin_to_tty(a)) {
        fprintf(stderr, "profview: the viewer needs a terminal on stdin\n");
        return PV_EXIT_USAGE;
    }
    return pv_tui_run(&o);
}
