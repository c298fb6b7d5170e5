/*
 * pv_gen_mdb - writes the tables of a SQLite database as a Microsoft Access
 * (Jet 4) database, so that the tests have .mdb files: nothing on Linux
 * writes them.  The page layout follows the description of the format in
 * the mdbtools repository (HACKING.md); only what a reader needs is
 * written: the header page, the catalog (MSysObjects), and per table a
 * table definition, a usage map and the data pages.  No indexes.
 *
 *     pv_gen_mdb [--ace] [--uncompressed] [--encrypted] IN.db OUT.mdb
 *
 * Every table of IN.db (rowid order) becomes a table of the same name and
 * columns.  A column's Access type is chosen as an ADO export to Access
 * chooses it: Long Integer while every value fits 32 bits, Double for
 * larger integers and reals, Text (Memo beyond 255 characters: inline up
 * to 1 KB, else on long-value pages) when any value is text (numbers then
 * written in decimal).  NULL stays NULL, ''
 * stays a text of length 0.  Text is stored as "compressed Unicode" (one
 * byte per character, Access's default) when every character fits a byte,
 * else UCS-2; --uncompressed always writes UCS-2.
 *
 * --ace writes an Access 2007 .accdb header ("Standard ACE DB", version 2)
 * over the same pages.  --encrypted writes what a password-protected
 * Access 2010 .accdb looks like to a reader without the password: the
 * header's encoding key set, an Office encryption-info block, and every
 * page after the header scrambled.
 *
 * Deterministic: the same input gives the same bytes.  Standalone: SQLite
 * and this file only.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#define PG 4096
#define DATA_HEADER 14 /* Jet4 data page: type, 1, free space, tdef page, 4 bytes, row count */
#define MAX_PAGE_ROWS 255

enum { T_BOOL = 1, T_LONG = 4, T_DOUBLE = 7, T_TEXT = 10, T_OLE = 11, T_MEMO = 12, T_INT = 3 };

/* Says what went wrong ("WHAT ARG") and stops. */
static void die(const char *what, const char *arg)
{
    fprintf(stderr, "pv_gen_mdb: %s%s%s\n", what, arg[0] ? " " : "", arg);
    exit(1);
}

/* ---- the file as a growing array of pages */

static uint8_t *pages;
static size_t page_count;

static size_t page_new(void)
{
    pages = realloc(pages, (page_count + 1) * PG);
    if (!pages)
        die("out of memory", "");
    memset(pages + page_count * PG, 0, PG);
    return page_count++;
}

static uint8_t *page_at(size_t n)
{
    return pages + n * PG;
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- RC4, which Jet applies to part of the header page */

static void rc4(const uint8_t *key, size_t keylen, uint8_t *data, size_t len)
{
    uint8_t s[256];
    for (int i = 0; i < 256; i++)
        s[i] = (uint8_t)i;
    for (unsigned i = 0, j = 0; i < 256; i++) {
        j = (j + s[i] + key[i % keylen]) & 255;
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    for (size_t k = 0, i = 0, j = 0; k < len; k++) {
        i = (i + 1) & 255;
        j = (j + s[i]) & 255;
        uint8_t t = s[i];
        s[i] = s[j];
        s[j] = t;
        data[k] ^= s[(s[i] + s[j]) & 255];
    }
}

/* ---- text: UTF-8 in, Jet4 text out */

typedef struct bytes {
    uint8_t *d;
    size_t n, cap;
} bytes;

static void bytes_put(bytes *b, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = realloc(b->d, b->cap);
        if (!b->d)
            die("out of memory", "");
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

/* UTF-8 to code points (a byte that is no UTF-8 stands for itself). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        uint32_t cp = extra == 3 ? c & 7 : extra == 2 ? c & 15 : extra == 1 ? c & 31 : c;
        bool ok = i + (size_t)extra < n;
        for (int e = 1; ok && e <= extra; e++) {
            if ((s[i + (size_t)e] & 0xC0) != 0x80)
                ok = false;
            else
                cp = (cp << 6) | (s[i + (size_t)e] & 0x3F);
        }
        if (!ok) {
            cp = c;
            extra = 0;
        }
        out[k++] = cp;
        i += (size_t)extra + 1;
    }
    return k;
}

static bool uncompressed_only;

/* The stored form of a text: FF FE and a byte per character when every
 * character is 1..255, else UCS-2 little-endian (surrogate pairs beyond
 * the BMP). */
static void text_encode(bytes *out, const char *s, size_t n)
{
    uint32_t *cp = malloc((n + 1) * sizeof *cp);
    size_t k = utf8_decode((const unsigned char *)s, n, cp);
    bool narrow = !uncompressed_only && k > 0;
    for (size_t i = 0; i < k && narrow; i++)
        narrow = cp[i] >= 1 && cp[i] <= 255;
    out->n = 0;
    if (narrow) {
        bytes_put(out, "\xff\xfe", 2);
        for (size_t i = 0; i < k; i++) {
            uint8_t c = (uint8_t)cp[i];
            bytes_put(out, &c, 1);
        }
    } else {
        for (size_t i = 0; i < k; i++) {
            uint32_t c = cp[i];
            uint8_t u[4];
            if (c >= 0x10000) {
                c -= 0x10000;
                put16(u, 0xD800 + (c >> 10));
                put16(u + 2, 0xDC00 + (c & 0x3FF));
                bytes_put(out, u, 4);
            } else {
                put16(u, c);
                bytes_put(out, u, 2);
            }
        }
    }
    free(cp);
}

static void name_encode(bytes *out, const char *s)
{
    bool keep = uncompressed_only;
    uncompressed_only = true; /* names are always UCS-2 */
    text_encode(out, s, strlen(s));
    uncompressed_only = keep;
}

/* ---- a table being written */

typedef struct column {
    char *name;
    int type;
    bool fixed;
    unsigned size;       /* fixed: bytes; text: the column's length in bytes */
    unsigned fixed_off;  /* from the start of the fixed area */
    unsigned var_no;
} column;

typedef struct table {
    char *name;
    uint32_t flags; /* catalog flags: 0x80000002 for a system table */
    column *cols;
    size_t col_count, var_count, fixed_size;
    size_t tdef_page;
    size_t *data_pages, data_count; /* ascending: the usage map's */
    uint32_t rows;
    /* the data page being filled */
    size_t cur, cur_rows, cur_top;
    /* the long-value page being filled (0: none) */
    size_t lv, lv_rows, lv_top;
} table;

/* One cell to write. */
typedef struct cell {
    bool null;
    int64_t i;
    double f;
    const char *s;
    size_t n;
} cell;

static void data_page_begin(table *t)
{
    t->cur = page_new();
    t->data_pages = realloc(t->data_pages, (t->data_count + 1) * sizeof *t->data_pages);
    if (!t->data_pages)
        die("out of memory", "");
    t->data_pages[t->data_count++] = t->cur;
    uint8_t *p = page_at(t->cur);
    p[0] = 0x01;
    p[1] = 0x01;
    put32(p + 4, (uint32_t)t->tdef_page);
    t->cur_rows = 0;
    t->cur_top = PG;
}

static void data_page_put(table *t, const bytes *row)
{
    size_t need = row->n + 2;
    if (t->cur == 0 || t->cur_rows == MAX_PAGE_ROWS ||
        t->cur_top < DATA_HEADER + 2 * t->cur_rows + need)
        data_page_begin(t);
    if (t->cur_top < DATA_HEADER + 2 * t->cur_rows + need)
        die("a row does not fit a page in table", t->name);
    uint8_t *p = page_at(t->cur);
    t->cur_top -= row->n;
    memcpy(p + t->cur_top, row->d, row->n);
    put16(p + DATA_HEADER + 2 * t->cur_rows, (unsigned)t->cur_top);
    t->cur_rows++;
    put16(p + 12, (unsigned)t->cur_rows);
    put16(p + 2, (unsigned)(t->cur_top - DATA_HEADER - 2 * t->cur_rows));
    t->rows++;
}

/* Stores `n` bytes as a row of a long-value page (a data page whose table
 * field reads "LVAL"), a new one when they do not fit; returns the row's
 * page and number as a memo field points at it (page << 8 | row). */
static uint32_t lval_put(table *t, const uint8_t *d, size_t n)
{
    if (t->lv == 0 || t->lv_rows == MAX_PAGE_ROWS ||
        t->lv_top < DATA_HEADER + 2 * t->lv_rows + n + 2) {
        t->lv = page_new();
        uint8_t *p = page_at(t->lv);
        p[0] = 0x01;
        p[1] = 0x01;
        memcpy(p + 4, "LVAL", 4);
        t->lv_rows = 0;
        t->lv_top = PG;
    }
    uint8_t *p = page_at(t->lv);
    t->lv_top -= n;
    memcpy(p + t->lv_top, d, n);
    put16(p + DATA_HEADER + 2 * t->lv_rows, (unsigned)t->lv_top);
    t->lv_rows++;
    put16(p + 12, (unsigned)t->lv_rows);
    put16(p + 2, (unsigned)(t->lv_top - DATA_HEADER - 2 * t->lv_rows));
    return (uint32_t)(t->lv << 8 | (t->lv_rows - 1));
}

/* The 12-byte head of a memo value and, for a long one, its long-value
 * rows: inline up to MEMO_INLINE bytes (flag 0x80), on one long-value page
 * when it fits one (0x40), else a chain of pages, each row led by the
 * pointer to the next (flags 0). */
#define MEMO_INLINE 1024
#define LVAL_ROOM (PG - DATA_HEADER - 2)
static void memo_head(table *t, const bytes *v, uint8_t head[12])
{
    memset(head, 0, 12);
    if (v->n <= MEMO_INLINE) {
        put32(head, (uint32_t)v->n | 0x80000000u);
        return;
    }
    if (v->n <= LVAL_ROOM) {
        put32(head, (uint32_t)v->n | 0x40000000u);
        put32(head + 4, lval_put(t, v->d, v->n));
        return;
    }
    if (v->n >= 1u << 24)
        die("a memo of 16 MB or more in table", t->name);
    /* the chunks from the last: each row names the next one */
    size_t chunk = LVAL_ROOM - 4, count = (v->n + chunk - 1) / chunk;
    uint32_t next = 0;
    uint8_t *buf = malloc(LVAL_ROOM);
    for (size_t k = count; k-- > 0;) {
        size_t off = k * chunk, len = v->n - off < chunk ? v->n - off : chunk;
        put32(buf, next);
        memcpy(buf + 4, v->d + off, len);
        next = lval_put(t, buf, len + 4);
    }
    free(buf);
    put32(head, (uint32_t)v->n);
    put32(head + 4, next);
}

/* A Jet4 row: column count, the fixed area, the variable values, then
 * (backwards from the end) the null mask, the count of variable columns
 * and their offsets, the end of the data first. */
static void row_encode(table *t, const cell *cells, bytes *row, bytes *tmp)
{
    size_t nmask = (t->col_count + 7) / 8;
    uint8_t *mask = calloc(nmask ? nmask : 1, 1);
    uint16_t *offs = malloc((t->var_count + 1) * sizeof *offs);
    row->n = 0;
    uint8_t head[2];
    put16(head, (unsigned)t->col_count);
    bytes_put(row, head, 2);
    uint8_t *fixed = calloc(t->fixed_size ? t->fixed_size : 1, 1);
    for (size_t c = 0; c < t->col_count; c++) {
        const column *col = &t->cols[c];
        const cell *v = &cells[c];
        if (!v->null)
            mask[c / 8] |= (uint8_t)(1u << (c % 8));
        if (!col->fixed || v->null)
            continue;
        uint8_t *f = fixed + col->fixed_off;
        if (col->type == T_LONG) {
            put32(f, (uint32_t)v->i);
        } else if (col->type == T_INT) {
            put16(f, (unsigned)v->i);
        } else {
            uint64_t u;
            memcpy(&u, &v->f, 8);
            for (int i = 0; i < 8; i++)
                f[i] = (uint8_t)(u >> (8 * i));
        }
    }
    bytes_put(row, fixed, t->fixed_size);
    free(fixed);
    for (size_t c = 0; c < t->col_count; c++) {
        const column *col = &t->cols[c];
        if (col->fixed)
            continue;
        offs[col->var_no] = (uint16_t)row->n;
        const cell *v = &cells[c];
        if (v->null)
            continue;
        text_encode(tmp, v->s, v->n);
        if (col->type == T_MEMO) {
            uint8_t mh[12];
            memo_head(t, tmp, mh);
            bytes_put(row, mh, 12);
            if (tmp->n <= MEMO_INLINE)
                bytes_put(row, tmp->d, tmp->n);
        } else {
            bytes_put(row, tmp->d, tmp->n);
        }
    }
    offs[t->var_count] = (uint16_t)row->n;
    if (t->var_count) {
        uint8_t b[2];
        for (size_t k = t->var_count + 1; k-- > 0;) {
            put16(b, offs[k]);
            bytes_put(row, b, 2);
        }
        put16(b, (unsigned)t->var_count);
        bytes_put(row, b, 2);
    }
    bytes_put(row, mask, nmask);
    free(mask);
    free(offs);
}

/* The usage map of the table's data pages, as a row of the page
 * `map_page`: type 0 (a start page and a bitmap) while the bitmap fits the
 * page, else type 1 (pointers to usage-map pages, each mapping (PG - 4) * 8
 * pages from page 0). */
static void usage_map_write(table *t, size_t map_page)
{
    bytes m = {0};
    size_t first = t->data_count ? t->data_pages[0] : 0;
    size_t last = t->data_count ? t->data_pages[t->data_count - 1] : 0;
    size_t bits = t->data_count ? last - first + 1 : 0;
    if (5 + (bits + 7) / 8 <= PG - DATA_HEADER - 8) {
        uint8_t h[5] = {0};
        put32(h + 1, (uint32_t)first);
        bytes_put(&m, h, 5);
        uint8_t *bm = calloc((bits + 7) / 8 + 1, 1);
        for (size_t i = 0; i < t->data_count; i++) {
            size_t b = t->data_pages[i] - first;
            bm[b / 8] |= (uint8_t)(1u << (b % 8));
        }
        bytes_put(&m, bm, (bits + 7) / 8);
        free(bm);
    } else {
        size_t per = (PG - 4) * 8;
        size_t n = last / per + 1;
        uint8_t one = 1;
        bytes_put(&m, &one, 1);
        for (size_t k = 0; k < n; k++) {
            size_t lo = k * per, hi = lo + per;
            uint32_t ptr = 0;
            if (hi > first && lo <= last) {
                size_t mp = page_new();
                uint8_t *p = page_at(mp);
                p[0] = 0x05;
                p[1] = 0x01;
                for (size_t i = 0; i < t->data_count; i++) {
                    size_t pg = t->data_pages[i];
                    if (pg >= lo && pg < hi)
                        p[4 + (pg - lo) / 8] |= (uint8_t)(1u << ((pg - lo) % 8));
                }
                ptr = (uint32_t)mp;
            }
            uint8_t b[4];
            put32(b, ptr);
            bytes_put(&m, b, 4);
        }
    }
    /* row 0: the usage map; row 1: the map of pages with free space (empty) */
    uint8_t *p = page_at(map_page);
    p[0] = 0x01;
    p[1] = 0x01;
    put32(p + 4, (uint32_t)t->tdef_page);
    size_t top = PG - m.n;
    memcpy(p + top, m.d, m.n);
    put16(p + DATA_HEADER, (unsigned)top);
    uint8_t empty[5] = {0};
    top -= 5;
    memcpy(p + top, empty, 5);
    put16(p + DATA_HEADER + 2, (unsigned)top);
    put16(p + 12, 2);
    put16(p + 2, (unsigned)(top - DATA_HEADER - 4));
    free(m.d);
}

/* The table definition page: the header block, a 25-byte entry per column,
 * the column names, and the end of the (empty) list of variable columns'
 * own maps. */
static void tdef_write(table *t, size_t map_page)
{
    uint8_t *p = page_at(t->tdef_page);
    p[0] = 0x02;
    p[1] = 0x01;
    put32(p + 16, t->rows);
    p[40] = t->flags ? 0x53 : 0x4e;
    put16(p + 41, (unsigned)t->col_count);
    put16(p + 43, (unsigned)t->var_count);
    put16(p + 45, (unsigned)t->col_count);
    put32(p + 55, (uint32_t)(map_page << 8));       /* row 0 of the map page */
    put32(p + 59, (uint32_t)(map_page << 8 | 1));   /* row 1 */
    size_t pos = 63;
    for (size_t c = 0; c < t->col_count; c++) {
        const column *col = &t->cols[c];
        uint8_t *e = p + pos;
        e[0] = (uint8_t)col->type;
        put16(e + 5, (unsigned)c);
        put16(e + 7, col->fixed ? 0 : col->var_no);
        put16(e + 9, (unsigned)c);
        if (col->type == T_TEXT || col->type == T_MEMO)
            put16(e + 11, 0x409); /* General sort order */
        e[15] = (uint8_t)((col->fixed ? 0x01 : 0) | 0x02);
        e[16] = (col->type == T_TEXT || col->type == T_MEMO) && !uncompressed_only ? 0x01 : 0;
        put16(e + 21, col->fixed ? col->fixed_off : 0);
        put16(e + 23, col->size);
        pos += 25;
    }
    bytes nm = {0};
    for (size_t c = 0; c < t->col_count; c++) {
        name_encode(&nm, t->cols[c].name);
        if (pos + 2 + nm.n + 2 > PG)
            die("the definition does not fit a page: table", t->name);
        put16(p + pos, (unsigned)nm.n);
        memcpy(p + pos + 2, nm.d, nm.n);
        pos += 2 + nm.n;
    }
    free(nm.d);
    put16(p + pos, 0xFFFF);
    pos += 2;
    put32(p + 8, (uint32_t)(pos - 8));
    put16(p + 2, (unsigned)(PG - pos - 8));
}

static void column_layout(table *t)
{
    size_t off = 0, var = 0;
    for (size_t c = 0; c < t->col_count; c++) {
        column *col = &t->cols[c];
        col->fixed = col->type == T_LONG || col->type == T_DOUBLE || col->type == T_INT;
        if (col->fixed) {
            col->size = col->type == T_LONG ? 4 : col->type == T_INT ? 2 : 8;
            col->fixed_off = (unsigned)off;
            off += col->size;
        } else {
            col->var_no = (unsigned)var++;
            if (col->type == T_TEXT && col->size == 0)
                col->size = 510;
            if (col->type == T_MEMO || col->type == T_OLE)
                col->size = 0;
        }
    }
    t->fixed_size = off;
    t->var_count = var;
}

/* ---- a SQLite table copied */

static sqlite3 *in;

static void table_copy(const char *name, table *t)
{
    sqlite3_stmt *st;
    char *q = sqlite3_mprintf("SELECT * FROM \"%w\" ORDER BY rowid", name);
    if (sqlite3_prepare_v2(in, q, -1, &st, NULL) != SQLITE_OK)
        die("cannot read table", name);
    sqlite3_free(q);
    memset(t, 0, sizeof *t);
    t->name = strdup(name);
    t->col_count = (size_t)sqlite3_column_count(st);
    t->cols = calloc(t->col_count + 1, sizeof *t->cols);
    bool *text = calloc(t->col_count + 1, 1), *dbl = calloc(t->col_count + 1, 1);
    size_t *maxlen = calloc(t->col_count + 1, sizeof *maxlen);
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (size_t c = 0; c < t->col_count; c++) {
            switch (sqlite3_column_type(st, (int)c)) {
            case SQLITE_INTEGER: {
                sqlite3_int64 v = sqlite3_column_int64(st, (int)c);
                if (v < INT32_MIN || v > INT32_MAX)
                    dbl[c] = true;
                break;
            }
            case SQLITE_FLOAT: dbl[c] = true; break;
            case SQLITE_TEXT:
            case SQLITE_BLOB: {
                text[c] = true;
                size_t n = (size_t)sqlite3_column_bytes(st, (int)c);
                if (n > maxlen[c])
                    maxlen[c] = n;
                break;
            }
            default: break;
            }
        }
    }
    for (size_t c = 0; c < t->col_count; c++) {
        t->cols[c].name = strdup(sqlite3_column_name(st, (int)c));
        t->cols[c].type = text[c] ? (maxlen[c] > 255 ? T_MEMO : T_TEXT) : dbl[c] ? T_DOUBLE : T_LONG;
    }
    column_layout(t);
    t->tdef_page = page_new();
    size_t map_page = page_new();
    sqlite3_reset(st);
    cell *cells = calloc(t->col_count + 1, sizeof *cells);
    char (*num)[32] = calloc(t->col_count + 1, sizeof *num);
    bytes row = {0}, tmp = {0};
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (size_t c = 0; c < t->col_count; c++) {
            cell *v = &cells[c];
            int ty = sqlite3_column_type(st, (int)c);
            memset(v, 0, sizeof *v);
            v->null = ty == SQLITE_NULL;
            if (v->null)
                continue;
            if (text[c]) {
                if (ty == SQLITE_INTEGER || ty == SQLITE_FLOAT) {
                    if (ty == SQLITE_INTEGER)
                        snprintf(num[c], sizeof num[c], "%lld", sqlite3_column_int64(st, (int)c));
                    else
                        snprintf(num[c], sizeof num[c], "%.17g", sqlite3_column_double(st, (int)c));
                    v->s = num[c];
                    v->n = strlen(num[c]);
                } else {
                    v->s = (const char *)sqlite3_column_text(st, (int)c);
                    v->n = (size_t)sqlite3_column_bytes(st, (int)c);
                    if (!v->s)
                        v->s = "";
                }
            } else if (dbl[c]) {
                v->f = sqlite3_column_double(st, (int)c);
            } else {
                v->i = sqlite3_column_int64(st, (int)c);
            }
        }
        row_encode(t, cells, &row, &tmp);
        data_page_put(t, &row);
    }
    sqlite3_finalize(st);
    usage_map_write(t, map_page);
    tdef_write(t, map_page);
    free(row.d);
    free(tmp.d);
    free(cells);
    free(num);
    free(text);
    free(dbl);
    free(maxlen);
}

/* ---- the catalog and the header */

static void catalog_write(table *cat, const table *tables, size_t n)
{
    static const struct { const char *name; int type; unsigned size; } cols[] = {
        {"Id", T_LONG, 4},    {"ParentId", T_LONG, 4}, {"Name", T_TEXT, 256},
        {"Type", T_INT, 2},   {"Flags", T_LONG, 4},    {"LvProp", T_OLE, 0},
    };
    cat->name = "MSysObjects";
    cat->flags = 0x80000002u;
    cat->col_count = sizeof cols / sizeof cols[0];
    cat->cols = calloc(cat->col_count, sizeof *cat->cols);
    for (size_t c = 0; c < cat->col_count; c++) {
        cat->cols[c].name = (char *)cols[c].name;
        cat->cols[c].type = cols[c].type;
        cat->cols[c].size = cols[c].size;
    }
    column_layout(cat);
    bytes row = {0}, tmp = {0};
    cell v[6];
    for (size_t k = 0; k <= n; k++) {
        const table *t = k == 0 ? cat : &tables[k - 1];
        memset(v, 0, sizeof v);
        v[0].i = (int64_t)t->tdef_page;
        v[1].i = 0x0F000001; /* the Tables container */
        v[2].s = t->name;
        v[2].n = strlen(t->name);
        v[3].i = 1; /* a table */
        v[4].i = (int64_t)t->flags;
        v[5].null = true;
        row_encode(cat, v, &row, &tmp);
        data_page_put(cat, &row);
    }
    free(row.d);
    free(tmp.d);
}

static void header_write(bool ace, bool encrypted)
{
    uint8_t *p = page_at(0);
    static const uint8_t magic[4] = {0x00, 0x01, 0x00, 0x00};
    memcpy(p, magic, 4);
    memcpy(p + 4, ace ? "Standard ACE DB" : "Standard Jet DB", 16);
    p[0x14] = (uint8_t)(encrypted ? 0x03 : ace ? 0x02 : 0x01);
    /* the 128 bytes from 0x18 are stored RC4-encoded (HACKING.md) */
    uint8_t *h = p + 0x18;
    put16(p + 0x3C, 1252);   /* code page */
    put32(p + 0x6E, 0x409);  /* sort order: General */
    if (encrypted)
        put32(p + 0x3E, 0x5A17C0DE); /* the encoding key: not blank = encoded */
    static const uint8_t key[4] = {0xC7, 0xDA, 0x39, 0x6B};
    rc4(key, 4, h, 128);
    if (encrypted) {
        /* the Office encryption information: length, then version 4.4
         * (agile encryption) and its XML descriptor, here a stand-in */
        static const char info[] = "<?xml version=\"1.0\"?><encryption/>";
        put16(p + 0x299, 4 + sizeof info);
        put16(p + 0x29B, 4);
        put16(p + 0x29D, 4);
        memcpy(p + 0x29F, info, sizeof info);
        /* what the pages look like without the key */
        uint64_t x = 0x9E3779B97F4A7C15ULL;
        for (size_t i = PG; i < page_count * PG; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pages[i] ^= (uint8_t)x;
        }
    }
}

int main(int argc, char **argv)
{
    bool ace = false, encrypted = false;
    int a = 1;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a++) {
        if (strcmp(argv[a], "--ace") == 0)
            ace = true;
        else if (strcmp(argv[a], "--encrypted") == 0)
            ace = encrypted = true;
        else if (strcmp(argv[a], "--uncompressed") == 0)
            uncompressed_only = true;
        else
            die("unknown option", argv[a]);
    }
    if (argc - a != 2) {
        fprintf(stderr, "usage: pv_gen_mdb [--ace] [--uncompressed] [--encrypted] IN.db OUT.mdb\n");
        return 2;
    }
    if (sqlite3_open_v2(argv[a], &in, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die("cannot open", argv[a]);
    /* page 0: the header; 1: the global usage map (left empty); 2: the
     * catalog's definition, where a reader looks for it; 3: its usage map;
     * 4: its rows (written last, when the tables' pages are known) */
    for (int i = 0; i < 5; i++)
        page_new();
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(in, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                               "LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        die("cannot read the schema of", argv[a]);
    table *tables = NULL;
    size_t n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        tables = realloc(tables, (n + 1) * sizeof *tables);
        table_copy((const char *)sqlite3_column_text(st, 0), &tables[n++]);
    }
    sqlite3_finalize(st);
    table cat = {0};
    cat.tdef_page = 2;
    cat.cur = 4;
    cat.data_pages = malloc(sizeof *cat.data_pages);
    cat.data_pages[0] = 4;
    cat.data_count = 1;
    {
        uint8_t *p = page_at(4);
        p[0] = 0x01;
        p[1] = 0x01;
        put32(p + 4, 2);
        cat.cur_top = PG;
    }
    catalog_write(&cat, tables, n);
    if (cat.data_count != 1)
        die("too many tables for one catalog page", "");
    usage_map_write(&cat, 3);
    tdef_write(&cat, 3);
    header_write(ace, encrypted);
    FILE *out = fopen(argv[a + 1], "wb");
    if (!out || fwrite(pages, PG, page_count, out) != page_count || fclose(out) != 0)
        die("cannot write", argv[a + 1]);
    sqlite3_close(in);
    for (size_t k = 0; k < n; k++) {
        for (size_t c = 0; c < tables[k].col_count; c++)
            free(tables[k].cols[c].name);
        free(tables[k].cols);
        free(tables[k].name);
        free(tables[k].data_pages);
    }
    free(tables);
    free(cat.cols);
    free(cat.data_pages);
    free(pages);
    return 0;
}
