/* output.c - machine-exact rows of a view as TSV, CSV or JSON
 * (profview/output.h): `profview cat` and `:sql` in the CLI, the viewer's
 * y, Y and :copy. */
#include "profview/output.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

bool pv_out_format_parse(const char *s, pv_out_format *f)
{
    if (strcmp(s, "tsv") == 0)
        *f = PV_OUT_TSV;
    else if (strcmp(s, "csv") == 0)
        *f = PV_OUT_CSV;
    else if (strcmp(s, "json") == 0)
        *f = PV_OUT_JSON;
    else
        return false;
    return true;
}

/* JSON: " and \ escaped, C0, DEL and C1 controls as \u00NN; a byte of
 * invalid UTF-8 as \u00NN too (its Latin-1 reading), so that the output is
 * always valid JSON (valid UTF-8) and carries no control sequence. */
void pv_json_string(pv_buf *out, const char *s, size_t len)
{
    pv_buf_putc(out, '"');
    size_t start = 0, i = 0;
    while (i < len) {
        uint32_t c = 0;
        size_t n = pv_utf8_char(s + i, len - i, &c);
        const char *esc = NULL;
        char tmp[8];
        if (n == 0) {
            snprintf(tmp, sizeof tmp, "\\u%04X", (unsigned char)s[i]);
            esc = tmp;
            n = 1;
        } else if (c == '"') {
            esc = "\\\"";
        } else if (c == '\\') {
            esc = "\\\\";
        } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
            snprintf(tmp, sizeof tmp, "\\u%04X", (unsigned)c);
            esc = tmp;
        }
        if (esc) {
            pv_buf_append(out, s + start, i - start);
            pv_buf_puts(out, esc);
            start = i + n;
        }
        i += n;
    }
    pv_buf_append(out, s + start, len - start);
    pv_buf_putc(out, '"');
}

/* A control (C0, DEL, C1) or a byte of invalid UTF-8 at s[i]: its length
 * (the bytes to write as \xNN), 0 when s[i] starts a character to copy;
 * *step is the length of that character. */
static size_t pv_unsafe_at(const char *s, size_t len, size_t i, size_t *step)
{
    uint32_t c = 0;
    size_t n = pv_utf8_char(s + i, len - i, &c);
    *step = n ? n : 1;
    if (n == 0)
        return 1;
    return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ? n : 0;
}

/* TSV: tab, newline, CR and backslash as \t \n \r \\; other controls and
 * invalid UTF-8 \xNN. */
static void pv_tsv_field(pv_buf *out, const char *s, size_t len)
{
    size_t start = 0, i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        size_t step, bad = 0;
        switch (c) {
        case '\t': esc = "\\t"; step = 1; break;
        case '\n': esc = "\\n"; step = 1; break;
        case '\r': esc = "\\r"; step = 1; break;
        case '\\': esc = "\\\\"; step = 1; break;
        default:
            bad = pv_unsafe_at(s, len, i, &step);
        }
        if (esc || bad) {
            pv_buf_append(out, s + start, i - start);
            if (esc)
                pv_buf_puts(out, esc);
            for (size_t k = 0; k < bad; k++)
                pv_buf_printf(out, "\\x%02X", (unsigned char)s[i + k]);
            start = i + step;
        }
        i += step;
    }
    pv_buf_append(out, s + start, len - start);
}

/* CSV (RFC 4180): quote fields holding , " CR or LF; double the quotes.
 * Other control characters and invalid UTF-8 become \xNN so that no raw
 * byte reaches a terminal; CR and LF stay (quoted), as the RFC allows. */
static void pv_csv_field(pv_buf *out, const char *s, size_t len)
{
    bool quote = false;
    for (size_t i = 0; i < len; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
            quote = true;
    if (quote)
        pv_buf_putc(out, '"');
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        size_t step = 1, bad = 0;
        if (c == '"')
            pv_buf_puts(out, "\"\"");
        else if (c == '\n' || c == '\r')
            pv_buf_putc(out, (char)c);
        else if ((bad = pv_unsafe_at(s, len, i, &step)) != 0)
            for (size_t k = 0; k < bad; k++)
                pv_buf_printf(out, "\\x%02X", (unsigned char)s[i + k]);
        else
            pv_buf_append(out, s + i, step);
        i += step;
    }
    if (quote)
        pv_buf_putc(out, '"');
}

static void pv_field(pv_buf *out, const char *s, size_t len, pv_out_format format)
{
    if (format == PV_OUT_CSV)
        pv_csv_field(out, s, len);
    else
        pv_tsv_field(out, s, len);
}

bool pv_write_rows(FILE *fp, const pv_view *v, const size_t *cols, size_t col_count,
                   const pv_row *rows, size_t row_count, pv_out_format format)
{
    return pv_write_rows_after(fp, v, cols, col_count, rows, row_count, format, PV_NO_ROW);
}

bool pv_write_rows_after(FILE *fp, const pv_view *v, const size_t *cols, size_t col_count,
                         const pv_row *rows, size_t row_count, pv_out_format format,
                         size_t prev_row)
{
    pv_buf line, cell;
    pv_buf_init(&line);
    pv_buf_init(&cell);
    char sep = format == PV_OUT_CSV ? ',' : '\t';
    bool ok = true;

    if (format == PV_OUT_JSON) {
        pv_buf_putc(&line, '[');
    } else {
        for (size_t c = 0; c < col_count; c++) {
            if (c)
                pv_buf_putc(&line, sep);
            const char *id = v->columns[cols[c]].id;
            pv_field(&line, id, strlen(id), format);
        }
        pv_buf_putc(&line, '\n');
    }
    for (size_t r = 0; r < row_count && ok; r++) {
        if (format == PV_OUT_JSON)
            pv_buf_puts(&line, r ? ",\n{" : "\n{");
        for (size_t c = 0; c < col_count; c++) {
            pv_cell value;
            /* a delta counts from the row written before (PV_COL_SINCE_PREV) */
            size_t prev = r ? (rows ? rows[r - 1] : r - 1) : prev_row;
            pv_view_cell_after(v, rows ? rows[r] : r, prev, cols[c], &value);
            pv_buf_clear(&cell);
            pv_cell_format_exact(&value, &cell);
            if (format == PV_OUT_JSON) {
                if (c)
                    pv_buf_putc(&line, ',');
                const char *id = v->columns[cols[c]].id;
                pv_json_string(&line, id, strlen(id));
                pv_buf_putc(&line, ':');
                bool numeric = value.type == PV_TYPE_INT || value.type == PV_TYPE_TIME ||
                               value.type == PV_TYPE_FLOAT;
                if (!value.present)
                    pv_buf_puts(&line, "null");
                else if (numeric && strcmp(pv_buf_cstr(&cell), "nan") != 0 &&
                         strstr(pv_buf_cstr(&cell), "inf") == NULL)
                    pv_buf_append(&line, cell.data, cell.len);
                else
                    pv_json_string(&line, pv_buf_cstr(&cell), cell.len);
            } else {
                if (c)
                    pv_buf_putc(&line, sep);
                pv_field(&line, pv_buf_cstr(&cell), cell.len, format);
            }
        }
        if (format == PV_OUT_JSON)
            pv_buf_putc(&line, '}');
        else
            pv_buf_putc(&line, '\n');
        if (line.len > 65536) {
            ok = fwrite(line.data, 1, line.len, fp) == line.len;
            pv_buf_clear(&line);
        }
    }
    if (format == PV_OUT_JSON)
        pv_buf_puts(&line, row_count ? "\n]\n" : "]\n");
    if (ok && line.len)
        ok = fwrite(line.data, 1, line.len, fp) == line.len;
    pv_buf_free(&line);
    pv_buf_free(&cell);
    return ok && fflush(fp) == 0;
}
