/* warnings.c - the warnings of a file as a view (docs/tui.md "Warnings"):
 * one row per kept diagnostic, split into the file it names, the place in
 * that file and the reason.  Readers: the viewer's Explorer. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "profview/model.h"
#include "profview/table.h"

enum { W_ID, W_SEVERITY, W_FILE, W_PLACE, W_REASON, W_COLUMNS };

static const pv_column pv_warning_columns[W_COLUMNS] = {
    {PV_COLUMN_ID, 0},
    {"severity", "Severity", PV_TYPE_STRING, 0},
    {"file", "File", PV_TYPE_STRING, 0},
    {"place", "Place", PV_TYPE_STRING, 0},
    {"reason", "Reason", PV_TYPE_STRING, PV_COL_NAME},
};

static bool pv_has_digit(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (isdigit((unsigned char)s[i]))
            return true;
    return false;
}

void pv_warning_split(const char *text, const char *path, pv_warning_parts *out)
{
    memset(out, 0, sizeof *out);
    const char *rest = text;
    size_t plen = path ? strlen(path) : 0;
    if (plen && strncmp(text, path, plen) == 0 && text[plen] == ':') {
        out->file = text;
        out->file_len = plen;
        rest = text + plen;
    } else {
        /* "OTHER.BIN: ..." or "name:12: ...": up to the first ": " or ":<digit>" */
        for (const char *p = text; *p; p++)
            if (p[0] == ':' && (p[1] == ' ' || isdigit((unsigned char)p[1]))) {
                out->file = text;
                out->file_len = (size_t)(p - text);
                rest = p;
                break;
            }
    }
    if (!out->file_len) {
        out->reason = text;
        out->reason_len = strlen(text);
        return;
    }
    rest++; /* the ':' */
    if (isdigit((unsigned char)rest[0])) {
        /* path:LINE: reason */
        const char *e = rest;
        while (isdigit((unsigned char)*e))
            e++;
        out->place = rest;
        out->place_len = (size_t)(e - rest);
        out->place_is_line = true;
        rest = *e == ':' ? e + 1 : e;
    } else if (rest[0] == ' ') {
        /* path: PLACE: reason, where PLACE is short and has a number in it
         * ("byte offset 48", "timeline event 7 (time 100)", "table X row 3") */
        const char *p = rest + 1;
        const char *e = strstr(p, ": ");
        if (e && e - p <= 80 && pv_has_digit(p, (size_t)(e - p))) {
            out->place = p;
            out->place_len = (size_t)(e - p);
            rest = e + 1;
        }
    }
    while (*rest == ' ')
        rest++;
    out->reason = rest;
    out->reason_len = strlen(rest);
}

pv_view *pv_file_warnings_view(const pv_file *f)
{
    pv_table *t = pv_table_new("warnings", "Warnings", pv_warning_columns, W_COLUMNS);
    for (size_t i = 0; i < f->diag.entry_count; i++) {
        const pv_diag_entry *e = &f->diag.entries[i];
        pv_warning_parts w;
        pv_warning_split(e->text, f->path, &w);
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, W_ID, (int64_t)i + 1);
        pv_table_set_cstr(t, r, W_SEVERITY, e->severity == PV_SEV_ERROR ? "error" : "warning");
        pv_table_set_str(t, r, W_FILE, w.file ? w.file : "", w.file_len);
        if (w.place_is_line) {
            pv_buf b;
            pv_buf_init(&b);
            pv_buf_puts(&b, "line ");
            pv_buf_append(&b, w.place, w.place_len);
            pv_table_set_str(t, r, W_PLACE, b.data, b.len);
            pv_buf_free(&b);
        } else {
            pv_table_set_str(t, r, W_PLACE, w.place ? w.place : "", w.place_len);
        }
        pv_table_set_str(t, r, W_REASON, w.reason, w.reason_len);
    }
    size_t total = f->diag.warnings + f->diag.errors;
    if (total > f->diag.entry_count) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, W_ID, (int64_t)f->diag.entry_count + 1);
        pv_table_set_cstr(t, r, W_SEVERITY, "warning");
        pv_table_set_cstr(t, r, W_FILE, f->path);
        char text[96];
        snprintf(text, sizeof text, "%zu more not kept (the first %zu are above)",
                 total - f->diag.entry_count, f->diag.entry_count);
        pv_table_set_cstr(t, r, W_REASON, text);
    }
    return pv_table_view(t);
}
