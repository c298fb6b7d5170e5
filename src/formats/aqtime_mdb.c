/* aqtime_mdb.c - AQTime results in a Microsoft Access database (.mdb Jet 4,
 * .accdb ACE), read through libmdb (mdbtools).
 *
 * docs/aqtime.md "Access databases": the AQTime tables are copied, raw
 * value by raw value, into a SQLite database in memory, which the AQTime
 * loader then reads as it reads an exported SQLite file (aq_load_db): one
 * code path for the views, the notes, the first screen and the exports.
 * libmdb prints its diagnostics on stderr; every call into it runs with
 * stderr sent to a temporary file, whose lines become warnings. */
#include "formats/aqtime.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mdbtools.h>

#define AQM_PROGRESS_ROWS 0x3FFF

/* ---- the header, checked before libmdb sees the file */

typedef struct aqm_header {
    unsigned version;   /* byte 0x14: 0 Jet 3, 1 Jet 4, 2.. ACE */
    unsigned page_size;
    uint64_t page_count;
    uint64_t catalog_map_page; /* where the catalog's usage map is */
    uint32_t key;       /* the encoding key (0x3E of the decoded header) */
} aqm_header;

static bool aqm_magic(const unsigned char *head, size_t len)
{
    static const unsigned char lead[4] = {0x00, 0x01, 0x00, 0x00};
    return len >= 19 && memcmp(head, lead, 4) == 0 &&
           (memcmp(head + 4, "Standard Jet DB", 15) == 0 ||
            memcmp(head + 4, "Standard ACE DB", 15) == 0);
}

static int aqm_probe(const unsigned char *head, size_t len, uint64_t file_size, const char *path)
{
    (void)file_size;
    (void)path;
    return aqm_magic(head, len) ? 95 : 0;
}

/* Jet stores 126 or 128 bytes of the header page from 0x18 RC4-encoded
 * with a fixed key (the format's description in the mdbtools repository). */
static void aqm_rc4(const unsigned char *key, size_t keylen, unsigned char *data, size_t len)
{
    unsigned char s[256];
    for (unsigned i = 0; i < 256; i++)
        s[i] = (unsigned char)i;
    for (unsigned i = 0, j = 0; i < 256; i++) {
        j = (j + s[i] + key[i % keylen]) & 255;
        unsigned char t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
    for (size_t k = 0, i = 0, j = 0; k < len; k++) {
        i = (i + 1) & 255;
        j = (j + s[i]) & 255;
        unsigned char t = s[i];
        s[i] = s[j];
        s[j] = t;
        data[k] ^= s[(s[i] + s[j]) & 255];
    }
}

/* Reads and checks the header page: false with an error in f->diag. */
static bool aqm_header_read(pv_file *f, const char *path, aqm_header *h)
{
    unsigned char page[256];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        pv_error(&f->diag, "%s: cannot open: %s", f->path, strerror(errno));
        return false;
    }
    struct stat st;
    ssize_t n = fstat(fd, &st) == 0 ? pread(fd, page, sizeof page, 0) : -1;
    int err = errno;
    /* the catalog's definition is page 2; its usage map pointer at 55 (Jet 4)
     * or 35 (Jet 3) */
    unsigned char map[4] = {0};
    bool jet3 = n > 0x14 && page[0x14] == 0;
    bool map_read = n > 0 && pread(fd, map, 4, (jet3 ? 2 * 2048 + 35 : 2 * 4096 + 55)) == 4;
    close(fd);
    if (n < 0) {
        pv_error(&f->diag, "%s: cannot read: %s", f->path, strerror(err));
        return false;
    }
    if (n == 0) {
        pv_error(&f->diag, "%s: byte 0: not an Access database: the file is empty", f->path);
        return false;
    }
    if (!aqm_magic(page, (size_t)n)) {
        pv_error(&f->diag,
                 "%s: byte 0: not an Access database (no 'Standard Jet DB' or 'Standard ACE DB' "
                 "header)", f->path);
        return false;
    }
    if ((size_t)n < 0x18 + 128) {
        pv_error(&f->diag, "%s: an Access database cut short: %zd bytes, not even its header "
                 "page (the file is truncated)", f->path, n);
        return false;
    }
    h->version = page[0x14];
    if (h->version > 6) {
        pv_error(&f->diag, "%s: byte 20: an Access database of an unknown version (%u)", f->path,
                 h->version);
        return false;
    }
    h->page_size = h->version == 0 ? 2048 : 4096;
    static const unsigned char key[4] = {0xC7, 0xDA, 0x39, 0x6B};
    aqm_rc4(key, 4, page + 0x18, h->version == 0 ? 126 : 128);
    h->key = (uint32_t)page[0x3E] | (uint32_t)page[0x3F] << 8 | (uint32_t)page[0x40] << 16 |
             (uint32_t)page[0x41] << 24;
    if (h->version >= 2 && h->key != 0) {
        /* An .accdb with a password: its pages are encrypted (Office
         * encryption), which libmdb does not read. */
        pv_error(&f->diag,
                 "%s: an encrypted Access database (an .accdb protected by a password): profview "
                 "cannot read it; in Access, remove the password (File > Info > Decrypt "
                 "Database) and open that copy", f->path);
        return false;
    }
    uint64_t size = (uint64_t)st.st_size;
    h->page_count = size / h->page_size;
    h->catalog_map_page = map_read ? ((uint32_t)map[1] | (uint32_t)map[2] << 8 | (uint32_t)map[3] << 16) : 0;
    if (size < 3u * h->page_size || size % h->page_size != 0) {
        pv_error(&f->diag,
                 "%s: an Access database cut short: %" PRIu64 " bytes, not a whole number of "
                 "%u-byte pages (the file is truncated)", f->path, size, h->page_size);
        return false;
    }
    return true;
}

/* ---- libmdb's stderr, captured */

/* fd 2 is the process's: one capture at a time. */
static pthread_mutex_t aqm_stderr_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct aqm_quiet {
    int saved;
    FILE *sink;
} aqm_quiet;

/* What libmdb said over a load, for the warnings. */
typedef struct aqm_noise {
    char **lines;
    size_t *counts;
    size_t count;
    bool past_eof; /* it read past the end of the file */
} aqm_noise;

static void aqm_quiet_begin(aqm_quiet *q)
{
    pthread_mutex_lock(&aqm_stderr_lock);
    fflush(stderr);
    q->sink = tmpfile();
    q->saved = q->sink ? dup(2) : -1;
    if (q->saved >= 0 && dup2(fileno(q->sink), 2) < 0) {
        close(q->saved);
        q->saved = -1;
    }
}

static void aqm_noise_add(aqm_noise *z, const char *line)
{
    if (strstr(line, "beyond EOF"))
        z->past_eof = true;
    for (size_t i = 0; i < z->count; i++)
        if (strcmp(z->lines[i], line) == 0) {
            z->counts[i]++;
            return;
        }
    if (z->count == 8) /* enough to say what went wrong */
        return;
    z->lines = pv_xrealloc(z->lines, (z->count + 1) * sizeof *z->lines);
    z->counts = pv_xrealloc(z->counts, (z->count + 1) * sizeof *z->counts);
    z->lines[z->count] = pv_xstrdup(line);
    z->counts[z->count++] = 1;
}

static void aqm_quiet_end(aqm_quiet *q, aqm_noise *z)
{
    fflush(stderr);
    if (q->saved >= 0) {
        dup2(q->saved, 2);
        close(q->saved);
    }
    if (q->sink) {
        rewind(q->sink);
        char line[512];
        while (fgets(line, sizeof line, q->sink)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (line[0])
                aqm_noise_add(z, line);
        }
        fclose(q->sink);
    }
    pthread_mutex_unlock(&aqm_stderr_lock);
}

static void aqm_noise_drop(aqm_noise *z)
{
    for (size_t i = 0; i < z->count; i++)
        free(z->lines[i]);
    free(z->lines);
    free(z->counts);
    memset(z, 0, sizeof *z);
}

/* Turns what libmdb said into warnings; `table`: while reading that table. */
static void aqm_noise_report(pv_file *f, aqm_noise *z, const char *table)
{
    pv_buf where;
    pv_buf_init(&where);
    if (table)
        pv_buf_printf(&where, ", reading table %s", table);
    for (size_t i = 0; i < z->count; i++) {
        pv_buf esc;
        pv_buf_init(&esc);
        pv_escape_controls(&esc, z->lines[i], strlen(z->lines[i]));
        if (z->counts[i] > 1)
            pv_warn(&f->diag, "%s: the Access reader (libmdb) says%s (%zu times): %s", f->path,
                    pv_buf_cstr(&where), z->counts[i], pv_buf_cstr(&esc));
        else
            pv_warn(&f->diag, "%s: the Access reader (libmdb) says%s: %s", f->path,
                    pv_buf_cstr(&where), pv_buf_cstr(&esc));
        pv_buf_free(&esc);
        free(z->lines[i]);
    }
    free(z->lines);
    free(z->counts);
    memset(z, 0, sizeof *z);
    pv_buf_free(&where);
}

/* ---- values, read raw from the row */

static void aqm_put_utf8(pv_buf *b, uint32_t cp)
{
    char u[4];
    if (cp < 0x80) {
        pv_buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3F));
        pv_buf_append(b, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12);
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        pv_buf_append(b, u, 3);
    } else {
        u[0] = (char)(0xF0 | cp >> 18);
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        pv_buf_append(b, u, 4);
    }
}

/* A Jet 4 text as UTF-8: UCS-2 little-endian, or "compressed" (FF FE, then
 * one byte per character, a 0 byte switching between one and two bytes).
 * Jet 3 text is in the database's code page: Windows-1252, taken as
 * Latin-1. */
static void aqm_text(bool jet3, const unsigned char *p, size_t n, pv_buf *out)
{
    if (jet3) {
        for (size_t i = 0; i < n; i++)
            aqm_put_utf8(out, p[i]);
        return;
    }
    bool narrow = false;
    size_t i = 0;
    if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
        narrow = true;
        i = 2;
    }
    bool compressed = narrow;
    uint32_t high = 0; /* a pending high surrogate */
    while (i < n) {
        uint32_t u;
        if (compressed && p[i] == 0) {
            narrow = !narrow;
            i++;
            continue;
        }
        if (narrow) {
            u = p[i++];
        } else {
            if (i + 1 >= n)
                break;
            u = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8;
            i += 2;
        }
        if (u >= 0xD800 && u < 0xDC00) {
            if (high)
                aqm_put_utf8(out, 0xFFFD);
            high = u;
            continue;
        }
        if (u >= 0xDC00 && u < 0xE000 && high) {
            aqm_put_utf8(out, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
            high = 0;
            continue;
        }
        if (high)
            aqm_put_utf8(out, 0xFFFD);
        high = 0;
        aqm_put_utf8(out, u >= 0xD800 && u < 0xE000 ? 0xFFFD : u);
    }
    if (high)
        aqm_put_utf8(out, 0xFFFD);
}

/* A memo's bytes: inline, on one long-value page, or on a chain of them
 * (the 12-byte header: length with flags, then a page/row pointer).  The
 * page reads go to libmdb's second buffer: the row's page stays. */
static bool aqm_memo(MdbHandle *mdb, const unsigned char *p, size_t n, pv_buf *raw)
{
    if (n < MDB_MEMO_OVERHEAD)
        return false;
    uint32_t len = (uint32_t)mdb_get_int32((void *)p, 0);
    if (len & 0x80000000u) {
        pv_buf_append(raw, (const char *)p + MDB_MEMO_OVERHEAD, n - MDB_MEMO_OVERHEAD);
        return true;
    }
    int pg_row = (int)mdb_get_int32((void *)p, 4);
    if (len & 0x40000000u) {
        void *buf;
        int start;
        size_t rlen;
        if (mdb_find_pg_row(mdb, pg_row, &buf, &start, &rlen) != 0)
            return false;
        pv_buf_append(raw, (const char *)buf + start, rlen);
        return true;
    }
    if (len & 0xFF000000u)
        return false;
    for (int hops = 0; pg_row >> 8 && hops < 1 << 20; hops++) {
        void *buf;
        int start;
        size_t rlen;
        if (mdb_find_pg_row(mdb, pg_row, &buf, &start, &rlen) != 0 || rlen < 4)
            return false;
        size_t take = rlen - 4;
        if (raw->len + take > len)
            take = len - raw->len;
        pv_buf_append(raw, (const char *)buf + start + 4, take);
        if (raw->len >= len)
            break;
        pg_row = (int)mdb_get_int32(buf, start);
    }
    return true;
}

/* Days since 1899-12-30 (Access's dates) as "YYYY-MM-DD HH:MM:SS". */
static void aqm_date(double days, char *out, size_t size)
{
    double whole = floor(days);
    int64_t secs = (int64_t)llround((days - whole) * 86400.0);
    int64_t z = (int64_t)whole + 693959; /* days from 0000-03-01 to 1899-12-30, shifted */
    if (secs >= 86400) {
        secs -= 86400;
        z++;
    }
    /* civil from days (Howard Hinnant's algorithm), day 0 = 0000-03-01 */
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    snprintf(out, size, "%04d-%02d-%02d %02d:%02d:%02d", (int)(y % 100000), (int)m, (int)d,
             (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

/* Binds one field of the row in mdb->pg_buf to parameter `k`. */
static void aqm_bind(MdbHandle *mdb, MdbColumn *col, const MdbField *fld, sqlite3_stmt *st, int k,
                     pv_buf *tmp, pv_buf *raw, size_t *bad)
{
    const unsigned char *pg = mdb->pg_buf;
    bool jet3 = mdb->f->jet_version == MDB_VER_JET3;
    if (col->col_type == MDB_BOOL) {
        /* a Yes/No is its null bit: set is Yes, Access's True is -1 */
        sqlite3_bind_int(st, k, fld->is_null ? 0 : -1);
        return;
    }
    if (fld->is_null) {
        sqlite3_bind_null(st, k);
        return;
    }
    const unsigned char *p = pg + fld->start;
    size_t n = fld->siz > 0 ? (size_t)fld->siz : 0;
    if (fld->start < 0 || (size_t)fld->start + n > (size_t)mdb->fmt->pg_size) {
        (*bad)++;
        sqlite3_bind_null(st, k);
        return;
    }
    int fixed = mdb_col_fixed_size(col);
    if (col->is_fixed && fixed > 0 && n < (size_t)fixed) {
        (*bad)++;
        sqlite3_bind_null(st, k);
        return;
    }
    switch (col->col_type) {
    case MDB_BYTE: sqlite3_bind_int(st, k, p[0]); break;
    case MDB_INT: sqlite3_bind_int(st, k, (int16_t)mdb_get_int16((void *)p, 0)); break;
    case MDB_LONGINT:
    case MDB_COMPLEX: sqlite3_bind_int(st, k, (int32_t)(uint32_t)mdb_get_int32((void *)p, 0)); break;
    case MDB_MONEY: {
        uint64_t u = 0;
        for (int i = 7; i >= 0; i--)
            u = u << 8 | p[i];
        int64_t v = (int64_t)u; /* 1/10000 units */
        if (v % 10000 == 0)
            sqlite3_bind_int64(st, k, v / 10000);
        else
            sqlite3_bind_double(st, k, (double)v / 10000.0);
        break;
    }
    case MDB_FLOAT:
    case MDB_DOUBLE: {
        double d = col->col_type == MDB_FLOAT ? (double)mdb_get_single((void *)p, 0)
                                              : mdb_get_double((void *)p, 0);
        /* AQTime's export through Access stores an integer that does not
         * fit 32 bits (cycles, a frequency) as a Double: a whole value is
         * that integer again. */
        if (isfinite(d) && d == floor(d) && fabs(d) < 9.2e18)
            sqlite3_bind_int64(st, k, (int64_t)d);
        else if (isfinite(d))
            sqlite3_bind_double(st, k, d);
        else
            sqlite3_bind_null(st, k);
        break;
    }
    case MDB_DATETIME: {
        char s[40];
        aqm_date(mdb_get_double((void *)p, 0), s, sizeof s);
        sqlite3_bind_text(st, k, s, -1, SQLITE_TRANSIENT);
        break;
    }
    case MDB_TEXT:
        pv_buf_clear(tmp);
        aqm_text(jet3, p, n, tmp);
        sqlite3_bind_text(st, k, tmp->len ? tmp->data : "", (int)tmp->len, SQLITE_TRANSIENT);
        break;
    case MDB_MEMO:
        pv_buf_clear(raw);
        pv_buf_clear(tmp);
        if (!aqm_memo(mdb, p, n, raw)) {
            (*bad)++;
            sqlite3_bind_null(st, k);
            break;
        }
        aqm_text(jet3, (const unsigned char *)raw->data, raw->len, tmp);
        sqlite3_bind_text(st, k, tmp->len ? tmp->data : "", (int)tmp->len, SQLITE_TRANSIENT);
        break;
    case MDB_NUMERIC: {
        char *s = mdb_numeric_to_string(mdb, fld->start, col->col_scale, col->col_prec);
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (!*end && !errno) {
            sqlite3_bind_int64(st, k, v);
        } else {
            double d = strtod(s, &end);
            if (!*end)
                sqlite3_bind_double(st, k, d);
            else
                sqlite3_bind_text(st, k, s, -1, SQLITE_TRANSIENT);
        }
        g_free(s);
        break;
    }
    case MDB_REPID: {
        char *s = mdb_uuid_to_string(pg, fld->start);
        sqlite3_bind_text(st, k, s, -1, SQLITE_TRANSIENT);
        g_free(s);
        break;
    }
    case MDB_BINARY: sqlite3_bind_blob(st, k, p, (int)n, SQLITE_TRANSIENT); break;
    default: sqlite3_bind_null(st, k); break; /* OLE objects: not AQTime's */
    }
}

/* ---- the copy */

typedef struct aqm_copy {
    pv_file *f;
    const pv_load_options *o;
    MdbHandle *mdb;
    sqlite3 *db;
    uint64_t done, total;
    uint64_t page_count;
    bool cancelled;
    aqm_noise noise;
} aqm_copy;

static bool aqm_exec(aqm_copy *c, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(c->db, sql, NULL, NULL, &err) == SQLITE_OK)
        return true;
    pv_error(&c->f->diag, "%s: cannot copy the AQTime tables into memory: %s", c->f->path,
             err ? err : "?");
    sqlite3_free(err);
    return false;
}

/* Copies one table, every row as stored (rows marked deleted are left out,
 * as Access does). */
static bool aqm_copy_table(aqm_copy *c, MdbCatalogEntry *entry)
{
    MdbHandle *mdb = c->mdb;
    aqm_quiet q;
    aqm_quiet_begin(&q);
    MdbTableDef *t = mdb_read_table(entry);
    GPtrArray *cols = t ? mdb_read_columns(t) : NULL;
    aqm_quiet_end(&q, &c->noise);
    if (!cols) {
        pv_error(&c->f->diag, "%s: table %s: its definition cannot be read; it is left out",
                 c->f->path, entry->object_name);
        mdb_free_tabledef(t);
        return true;
    }
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "CREATE TABLE ");
    pv_buf_put_sql_ident(&sql, entry->object_name);
    pv_buf_puts(&sql, " (");
    for (unsigned i = 0; i < t->num_cols; i++) {
        MdbColumn *col = g_ptr_array_index(t->columns, i);
        if (i)
            pv_buf_puts(&sql, ", ");
        pv_buf_put_sql_ident(&sql, col->name);
    }
    pv_buf_puts(&sql, ")");
    bool ok = t->num_cols > 0 && aqm_exec(c, pv_buf_cstr(&sql));
    pv_buf_clear(&sql);
    sqlite3_stmt *st = NULL;
    if (ok) {
        pv_buf_puts(&sql, "INSERT INTO ");
        pv_buf_put_sql_ident(&sql, entry->object_name);
        pv_buf_puts(&sql, " VALUES (");
        for (unsigned i = 0; i < t->num_cols; i++)
            pv_buf_puts(&sql, i ? ", ?" : "?");
        pv_buf_puts(&sql, ")");
        ok = sqlite3_prepare_v2(c->db, pv_buf_cstr(&sql), -1, &st, NULL) == SQLITE_OK;
        if (!ok)
            pv_error(&c->f->diag, "%s: table %s: cannot be copied: %s", c->f->path,
                     entry->object_name, sqlite3_errmsg(c->db));
    }
    pv_buf_free(&sql);
    if (!ok || t->num_cols == 0) {
        bool empty = t->num_cols == 0;
        sqlite3_finalize(st);
        mdb_free_tabledef(t);
        return empty;
    }
    MdbField *fields = pv_xcalloc(t->num_cols, sizeof *fields);
    pv_buf tmp, raw;
    pv_buf_init(&tmp);
    pv_buf_init(&raw);
    size_t bad_rows = 0, overflow_rows = 0, bad_values = 0;
    int rco = mdb->fmt->row_count_offset;
    aqm_quiet_begin(&q);
    mdb_rewind_table(t);
    while (ok && !c->cancelled && mdb_read_next_dpg(t)) {
        if (t->cur_phys_pg >= c->page_count)
            break; /* a page of the usage map at or past the end of the file */
        int rows = mdb_get_int16(mdb->pg_buf, rco);
        for (int r = 0; r < rows && ok; r++) {
            int start;
            size_t len;
            if (mdb_find_row(mdb, r, &start, &len) != 0 || len == 0) {
                bad_rows++;
                continue;
            }
            if (start & 0x4000) /* deleted */
                continue;
            if (start & 0x8000) {
                /* a pointer to the row on an overflow page: libmdb does not
                 * follow it, nor does this reader */
                overflow_rows++;
                continue;
            }
            start &= 0x1FFF;
            if (mdb_crack_row(t, start, len, fields) < 0) {
                bad_rows++;
                continue;
            }
            for (unsigned i = 0; i < t->num_cols; i++) {
                MdbColumn *col = g_ptr_array_index(t->columns, i);
                aqm_bind(mdb, col, &fields[i], st, (int)i + 1, &tmp, &raw, &bad_values);
            }
            if (sqlite3_step(st) != SQLITE_DONE) {
                pv_error(&c->f->diag, "%s: table %s: cannot be copied: %s", c->f->path,
                         entry->object_name, sqlite3_errmsg(c->db));
                ok = false;
            }
            sqlite3_reset(st);
            if ((++c->done & AQM_PROGRESS_ROWS) == 0 &&
                !pv_progress_step(&c->o->progress, "reading the Access database", c->done,
                                  c->total))
                c->cancelled = true;
        }
    }
    aqm_noise z = {0};
    if (t->cur_phys_pg >= c->page_count)
        z.past_eof = true; /* the map's last page: read as zeros, skipped */
    aqm_quiet_end(&q, &z);
    if (z.past_eof) {
        c->noise.past_eof = true;
        aqm_noise_drop(&z);
    } else {
        aqm_noise_report(c->f, &z, entry->object_name);
    }
    pv_buf_free(&tmp);
    pv_buf_free(&raw);
    free(fields);
    sqlite3_finalize(st);
    if (bad_rows)
        pv_warn(&c->f->diag, "%s: table %s: %zu rows are damaged and left out", c->f->path,
                entry->object_name, bad_rows);
    if (overflow_rows)
        pv_warn(&c->f->diag, "%s: table %s: %zu rows stored on overflow pages are not read "
                "(compact the database in Access to read them)", c->f->path,
                entry->object_name, overflow_rows);
    if (bad_values)
        pv_warn(&c->f->diag, "%s: table %s: %zu values lie outside their row and are left "
                "empty", c->f->path, entry->object_name, bad_values);
    mdb_free_tabledef(t);
    return ok;
}

static int aqm_name_cmp(const void *a, const void *b)
{
    return strcasecmp(*(const char *const *)a, *(const char *const *)b);
}

static pv_load_status aqm_load(pv_file *f, const pv_load_options *o)
{
    char *tmp;
    int err = pv_input_temp_copy(f->path, &tmp);
    if (err) {
        pv_error(&f->diag, "%s: cannot copy the input to a temporary file: %s", f->path,
                 strerror(err));
        return PV_LOAD_ERROR;
    }
    const char *path = tmp ? tmp : f->path;
    aqm_header h;
    if (!aqm_header_read(f, path, &h)) {
        pv_input_remove_temp(tmp);
        return PV_LOAD_ERROR;
    }
    aqm_copy c = {.f = f, .o = o, .page_count = h.page_count};
    aqm_quiet q;
    aqm_quiet_begin(&q);
    c.mdb = mdb_open(path, MDB_NOFLAGS);
    GPtrArray *cat = c.mdb ? mdb_read_catalog(c.mdb, MDB_TABLE) : NULL;
    aqm_quiet_end(&q, &c.noise);
    pv_input_remove_temp(tmp);
    if (!c.mdb || !cat || c.mdb->num_catalog == 0) {
        /* one message: what libmdb said is in it */
        bool past_eof = c.noise.past_eof || h.catalog_map_page >= h.page_count;
        aqm_noise_drop(&c.noise);
        if (past_eof)
            pv_error(&f->diag, "%s: an Access database cut short: its catalog points past the "
                     "end of the file (the file is truncated)", f->path);
        else
            pv_error(&f->diag, "%s: an Access database whose catalog (MSysObjects, page 2) cannot "
                     "be read: the file is damaged", f->path);
        aqm_quiet_begin(&q);
        mdb_close(c.mdb);
        aqm_quiet_end(&q, &c.noise);
        aqm_noise_drop(&c.noise);
        return PV_LOAD_ERROR;
    }
    /* The user tables; those of AQTime's export among them. */
    MdbCatalogEntry **aq = pv_xcalloc(c.mdb->num_catalog, sizeof *aq);
    const char **others = pv_xcalloc(c.mdb->num_catalog, sizeof *others);
    size_t aq_count = 0, other_count = 0;
    bool any_profiler = false;
    for (unsigned i = 0; i < c.mdb->num_catalog; i++) {
        MdbCatalogEntry *e = g_ptr_array_index(c.mdb->catalog, i);
        if (e->object_type != MDB_TABLE || !mdb_is_user_table(e))
            continue;
        bool profiler;
        if (aq_table_is_aqtime(e->object_name, &profiler)) {
            aq[aq_count++] = e;
            any_profiler = any_profiler || profiler;
        } else {
            others[other_count++] = e->object_name;
        }
    }
    if (!any_profiler) {
        pv_buf names;
        pv_buf_init(&names);
        for (size_t i = 0; i < aq_count; i++)
            others[other_count++] = aq[i]->object_name;
        qsort(others, other_count, sizeof *others, aqm_name_cmp);
        for (size_t i = 0; i < other_count && i < 12; i++)
            pv_buf_printf(&names, "%s%s", i ? ", " : "", others[i]);
        if (other_count > 12)
            pv_buf_puts(&names, ", ...");
        aqm_noise_drop(&c.noise);
        if (other_count)
            pv_error(&f->diag, "%s: an Access database with no AQTime results (tables: %s)",
                     f->path, pv_buf_cstr(&names));
        else
            pv_error(&f->diag, "%s: an Access database with no AQTime results (it has no "
                     "tables)", f->path);
        pv_buf_free(&names);
        free(aq);
        free(others);
        aqm_quiet_begin(&q);
        mdb_close(c.mdb);
        aqm_quiet_end(&q, &c.noise);
        aqm_noise_drop(&c.noise);
        return PV_LOAD_ERROR;
    }
    free(others);
    /* The row counts of the table definitions, for the progress; a table
     * whose definition lies past the end of the file: truncated. */
    aqm_quiet_begin(&q);
    for (size_t i = 0; i < aq_count; i++) {
        /* libmdb reads a page at the end of the file as zeros */
        MdbTableDef *t = aq[i]->table_pg < h.page_count ? mdb_read_table(aq[i]) : NULL;
        if (t)
            c.total += t->num_rows;
        /* the page holding the usage map: the definition is in pg_buf */
        if (aq[i]->table_pg >= h.page_count ||
            (c.mdb->cur_pg == aq[i]->table_pg &&
             (uint64_t)(mdb_get_int32(c.mdb->pg_buf, c.mdb->fmt->tab_usage_map_offset) >> 8) >=
                 h.page_count))
            c.noise.past_eof = true;
        mdb_free_tabledef(t);
    }
    aqm_quiet_end(&q, &c.noise);
    if (c.noise.past_eof) {
        aqm_noise_drop(&c.noise);
        pv_error(&f->diag, "%s: an Access database cut short: its tables' definitions lie past "
                 "the end of the file (the file is truncated)", f->path);
        free(aq);
        aqm_quiet_begin(&q);
        mdb_close(c.mdb);
        aqm_quiet_end(&q, &c.noise);
        aqm_noise_drop(&c.noise);
        return PV_LOAD_ERROR;
    }
    bool ok = sqlite3_open_v2(":memory:", &c.db,
                              SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                              NULL) == SQLITE_OK;
    if (!ok)
        pv_error(&f->diag, "%s: cannot create a database in memory: %s", f->path,
                 c.db ? sqlite3_errmsg(c.db) : "out of memory");
    ok = ok && aqm_exec(&c, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN");
    for (size_t i = 0; i < aq_count && ok && !c.cancelled; i++)
        ok = aqm_copy_table(&c, aq[i]);
    ok = ok && !c.cancelled && aqm_exec(&c, "COMMIT");
    free(aq);
    aqm_quiet_begin(&q);
    mdb_close(c.mdb);
    aqm_quiet_end(&q, &c.noise);
    bool past_eof = c.noise.past_eof;
    if (past_eof)
        aqm_noise_drop(&c.noise);
    else
        aqm_noise_report(f, &c.noise, NULL);
    if (ok && past_eof) {
        pv_error(&f->diag, "%s: an Access database cut short: its tables point past the end of "
                 "the file (the file is truncated)", f->path);
        ok = false;
    }
    if (c.cancelled)
        pv_error(&f->diag, "%s: cancelled", f->path);
    if (!ok || c.cancelled) {
        sqlite3_close(c.db);
        return PV_LOAD_ERROR;
    }
    return aq_load_db(f, o, c.db, NULL, NULL);
}

const pv_loader pv_loader_aqtime_access = {
    "aqtime-access",
    "AQTime Function Trace, Resource and Reference Count results (Microsoft Access database, "
    ".mdb or .accdb)",
    aqm_probe,
    aqm_load,
    pv_aq_export, /* AQTime's own exports, as for its SQLite databases */
};
