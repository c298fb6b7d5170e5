/* output.c - machine-exact rows for `profview cat`. */
#include "output.h"

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

void pv_json_string(pv_buf *out, const char *s, size_t len)
{
    pv_buf_putc(out, '"');
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char tmp[8];
        if (c == '"')
            esc = "\\\"";
        else if (c == '\\')
            esc = "\\\\";
        else if (c < 0x20 || c == 0x7f) {
            snprintf(tmp, sizeof tmp, "\\u%04X", c);
            esc = tmp;
        }
        if (esc) {
            pv_buf_append(out, s + start, i - start);
            pv_buf_puts(out, esc);
            start = i + 1;
        }
    }
    pv_buf_append(out, s + start, len - start);
    pv_buf_putc(out, '"');
}

/* TSV: tab, newline, CR and backslash as \t \n \r \\; other controls \xNN. */
static void pv_tsv_field(pv_buf *out, const char *s, size_t len)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char tmp[8];
        switch (c) {
        case '\t': esc = "\\t"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\\': esc = "\\\\"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                snprintf(tmp, sizeof tmp, "\\x%02X", c);
                esc = tmp;
            }
        }
        if (esc) {
            pv_buf_append(out, s + start, i - start);
            pv_buf_puts(out, esc);
            start = i + 1;
        }
    }
    pv_buf_append(out, s + start, len - start);
}

/* CSV (RFC 4180): quote fields holding , " CR or LF; double the quotes.
 * Other control characters become \xNN so that no raw byte reaches a
 * terminal; CR and LF stay (quoted), as the RFC allows. */
static void pv_csv_field(pv_buf *out, const char *s, size_t len)
{
    bool quote = false;
    for (size_t i = 0; i < len; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
            quote = true;
    if (quote)
        pv_buf_putc(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"')
            pv_buf_puts(out, "\"\"");
        else if ((c < 0x20 && c != '\n' && c != '\r') || c == 0x7f)
            pv_buf_printf(out, "\\x%02X", c);
        else
            pv_buf_putc(out, (char)c);
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
