/* aqtime_read.c - reading the seed's tables read-only into memory
 * (docs/aqtime.md, Scale): each column stored as narrow as its values
 * allow, numbers checked once, a large table read by two threads, and the
 * rows grouped by INST_ID. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "aqtime.h"

/* Makes room for one more row in every column. */
/* Room for `cap` rows (a multiple of 8) in every column. */
static void aq_table_resize(aq_table *t, size_t cap)
{
    for (size_t c = 0; c < t->col_count; c++) {
        aq_colstore *cs = &t->cols[c];
        size_t w = cs->kind == AQ_COL_I32 || cs->kind == AQ_COL_TEXT ? 4
                   : cs->kind == AQ_COL_I64                            ? 8
                                                                       : sizeof(aq_value);
        cs->data = pv_xrealloc(cs->data, cap * w);
        if (cs->nulls) {
            cs->nulls = pv_xrealloc(cs->nulls, cap / 8);
            memset(cs->nulls + t->row_cap / 8, 0, (cap - t->row_cap) / 8);
        }
    }
    if (t->row_no)
        t->row_no = pv_xrealloc(t->row_no, cap * sizeof *t->row_no);
    t->row_cap = cap;
}

static void aq_table_grow(aq_table *t)
{
    if (t->row_count >= t->row_cap)
        aq_table_resize(t, t->row_cap < 1024 ? 1024 : t->row_cap * 2);
}

/* Gives t a row_no array (rows numbered as they are so far). */
static void aq_row_no_materialise(aq_table *t)
{
    if (t->row_no)
        return;
    t->row_no = pv_xmalloc((t->row_cap ? t->row_cap : 1) * sizeof *t->row_no);
    for (size_t r = 0; r < t->row_count; r++)
        t->row_no[r] = (uint32_t)(t->row_no_base + r + 1);
}

/* The columns the seed documents as text start as text (AQ_COL_TEXT). */
static void aq_cols_init(aq_table *t)
{
    for (size_t c = 0; c < t->col_count; c++)
        if (t->col_text[c])
            t->cols[c].kind = AQ_COL_TEXT;
}

/* Widens an integer column to 64 bits, or any column to cells. */
static void aq_col_widen(aq_table *t, aq_colstore *cs, uint8_t kind)
{
    size_t n = t->row_count, cap = t->row_cap;
    if (kind == AQ_COL_I64) {
        int64_t *d = pv_xmalloc(cap * sizeof *d);
        const int32_t *o = cs->data;
        for (size_t r = 0; r < n; r++)
            d[r] = o[r];
        free(cs->data);
        cs->data = d;
        cs->kind = AQ_COL_I64;
        return;
    }
    aq_value *d = pv_xmalloc(cap * sizeof *d);
    for (size_t r = 0; r < n; r++) {
        d[r] = aq_cell(t, r, (size_t)(cs - t->cols));
    }
    free(cs->data);
    free(cs->nulls);
    cs->data = d;
    cs->nulls = NULL;
    cs->null_count = 0;
    cs->kind = AQ_COL_VAL;
}

/* Appends a row of cells (the table has room: aq_table_grow). */
static void aq_table_store(aq_table *t, const aq_value *row)
{
    size_t r = t->row_count;
    for (size_t c = 0; c < t->col_count; c++) {
        aq_colstore *cs = &t->cols[c];
        const aq_value *v = &row[c];
        if (cs->kind == AQ_COL_TEXT ? v->kind == AQ_V_INT || v->kind == AQ_V_REAL
                                    : cs->kind != AQ_COL_VAL &&
                                          (v->kind == AQ_V_REAL || v->kind == AQ_V_TEXT))
            aq_col_widen(t, cs, AQ_COL_VAL);
        else if (cs->kind == AQ_COL_I32 && v->kind == AQ_V_INT &&
                 (v->v.i < INT32_MIN || v->v.i > INT32_MAX))
            aq_col_widen(t, cs, AQ_COL_I64);
        switch (cs->kind) {
        case AQ_COL_VAL: ((aq_value *)cs->data)[r] = *v; break;
        case AQ_COL_TEXT:
            ((uint32_t *)cs->data)[r] = v->kind == AQ_V_TEXT ? v->v.s : AQ_NO_TEXT;
            cs->null_count += v->kind != AQ_V_TEXT;
            break;
        case AQ_COL_I32:
        case AQ_COL_I64: {
            int64_t i = v->kind == AQ_V_INT ? v->v.i : 0;
            if (cs->kind == AQ_COL_I32)
                ((int32_t *)cs->data)[r] = (int32_t)i;
            else
                ((int64_t *)cs->data)[r] = i;
            if (v->kind == AQ_V_NULL) {
                if (!cs->nulls)
                    cs->nulls = pv_xcalloc(t->row_cap / 8, 1);
                cs->nulls[r >> 3] |= (uint8_t)(1u << (r & 7));
                cs->null_count++;
            }
            break;
        }
        }
    }
    t->row_count++;
}

/* ---- reading the database */

/* Is `name` documented for this table, and is it text? */
static bool aq_spec_column(aq_table_id id, const char *name, bool *text)
{
    const char *s = aq_table_specs[id].columns;
    size_t nl = strlen(name);
    while (*s) {
        while (*s == ' ')
            s++;
        const char *e = s;
        while (*e && *e != ' ' && *e != ':')
            e++;
        bool is_text = *e == ':';
        size_t len = (size_t)(e - s);
        if (len == nl && strncasecmp(s, name, len) == 0) {
            *text = is_text;
            return true;
        }
        s = e;
        while (*s && *s != ' ')
            s++;
    }
    return false;
}

/* Parses text where a number is expected: decimal, 0x-hex, or a real. */
bool aq_parse_number(const char *s, aq_value *out)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0)
        return false;
    int64_t i;
    uint64_t u;
    if (pv_parse_int64(s, len, &i)) {
        out->kind = AQ_V_INT;
        out->v.i = i;
        return true;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && pv_parse_hex64(s, len, &u) &&
        u <= (uint64_t)INT64_MAX) {
        out->kind = AQ_V_INT;
        out->v.i = (int64_t)u;
        return true;
    }
    char *buf = pv_xstrndup(s, len);
    char *end;
    double d = strtod(buf, &end);
    bool ok = *end == '\0' && end != buf && isfinite(d);
    free(buf);
    if (!ok)
        return false;
    if (d == floor(d) && fabs(d) < 9.0e18) {
        out->kind = AQ_V_INT;
        out->v.i = (int64_t)d;
    } else {
        out->kind = AQ_V_REAL;
        out->v.f = d;
    }
    return true;
}

static char *aq_quote_ident(const char *name)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_put_sql_ident(&b, name);
    return b.data;
}


/* The largest rowid of a table (its row count when nothing was deleted),
 * found in the b-tree without a scan; 0 when it has none (a view). */
uint64_t aq_table_size_hint(sqlite3 *db, const char *name)
{
    char *q = aq_quote_ident(name);
    char *sql = pv_xasprintf("SELECT max(rowid) FROM %s", q);
    free(q);
    sqlite3_stmt *st = NULL;
    uint64_t n = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_int64(st, 0) > 0)
        n = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    free(sql);
    return n;
}

/* The rows of one statement over a table (all of it, or a range of its
 * rowids), appended to t; what went wrong is left in r for the caller to
 * report (aq_read_table). */
typedef struct aq_rows_read {
    const pv_progress *p;
    uint64_t done_before, total;
    _Atomic uint64_t *rows_read;  /* this reader's rows, for another's progress */
    _Atomic uint64_t *other_rows; /* another reader's, added to the progress */
    size_t row_no;                /* in: the rows before the first one; out: the last row's */
    size_t rows;
    size_t dropped, first_dropped;
    int rc;
    char *errmsg;
    bool cancelled;
} aq_rows_read;

static void aq_read_rows(const char *path, pv_diag *diag, sqlite3_stmt *st, aq_table *t,
                         aq_rows_read *r)
{
    size_t id_col = aq_col(t, "ID");
    size_t row_no = r->row_no;
    aq_value *rowbuf = pv_xmalloc((t->col_count ? t->col_count : 1) * sizeof *rowbuf);
    /* per column, the text of the row before: a text that repeats (a
     * counter's name in every INSTANCES row) is pooled once */
    uint32_t *last_text = pv_xmalloc((t->col_count ? t->col_count : 1) * sizeof *last_text);
    for (size_t c = 0; c < t->col_count; c++)
        last_text[c] = AQ_NO_TEXT;
    size_t dropped = 0, first_dropped = 0;
    int rc;
    for (;;) {
        rc = sqlite3_step(st);
        if (rc != SQLITE_ROW)
            break;
        row_no++;
        if ((row_no & 0x3FFF) == 0) {
            if (r->rows_read)
                atomic_store(r->rows_read, row_no - r->row_no);
            uint64_t more = r->other_rows ? atomic_load(r->other_rows) : 0;
            if (!pv_progress_step(r->p, "reading AQTime tables", r->done_before + row_no + more,
                                  r->total)) {
                r->cancelled = true;
                break;
            }
        }
        aq_value *row = rowbuf;
        for (size_t c = 0; c < t->col_count; c++) {
            aq_value *v = &row[c];
            v->kind = AQ_V_NULL;
            v->v.i = 0;
            /* One API call per cell: the value's accessors are cheap, each
             * sqlite3_column_* call is not (docs/aqtime.md, Scale). */
            sqlite3_value *sv = sqlite3_column_value(st, (int)c);
            switch (sqlite3_value_type(sv)) {
            case SQLITE_INTEGER:
                v->kind = AQ_V_INT;
                v->v.i = sqlite3_value_int64(sv);
                break;
            case SQLITE_FLOAT:
                v->kind = AQ_V_REAL;
                v->v.f = sqlite3_value_double(sv);
                if (!isfinite(v->v.f))
                    v->kind = AQ_V_NULL;
                break;
            case SQLITE_TEXT:
            case SQLITE_BLOB: {
                const char *s = (const char *)sqlite3_value_text(sv);
                size_t len = s ? strnlen(s, (size_t)sqlite3_value_bytes(sv)) : 0;
                const char *prev =
                    last_text[c] != AQ_NO_TEXT ? pv_strpool_get(&t->pool, last_text[c]) : NULL;
                v->kind = AQ_V_TEXT;
                if (prev && strncmp(prev, s ? s : "", len) == 0 && prev[len] == '\0') {
                    v->v.s = last_text[c];
                } else {
                    v->v.s = pv_strpool_add(&t->pool, s ? s : "", len);
                    last_text[c] = v->v.s;
                }
                break;
            }
            default:
                break;
            }
        }
        /* docs/formats.md §5: text where the seed documents a number is reported
         * (table, row, column) and the cell is left empty. */
        char idtxt[32] = "";
        for (size_t c = 0; c < t->col_count; c++) {
            aq_value *v = &row[c];
            if (v->kind != AQ_V_TEXT || !t->col_known[c] || t->col_text[c])
                continue;
            const char *s = pv_strpool_get(&t->pool, v->v.s);
            if (aq_parse_number(s, v))
                continue;
            pv_buf esc;
            pv_buf_init(&esc);
            pv_escape_controls(&esc, s, strnlen(s, 60));
            if (id_col != AQ_NONE && row[id_col].kind == AQ_V_INT)
                snprintf(idtxt, sizeof idtxt, " (ID %" PRId64 ")", row[id_col].v.i);
            pv_warn(diag,
                    "%s: table %s row %zu%s: column %s: '%s' is not a number; the cell is left "
                    "empty",
                    path, t->db_name, row_no, idtxt, t->col_names[c], pv_buf_cstr(&esc));
            pv_buf_free(&esc);
            v->kind = AQ_V_NULL;
        }
        /* A whole REAL INST_ID is an integer, when int64_t holds it (the
         * same bound as aq_parse_number's); otherwise the row has none. */
        if (row[t->inst_col].kind == AQ_V_REAL &&
            row[t->inst_col].v.f == floor(row[t->inst_col].v.f) &&
            fabs(row[t->inst_col].v.f) < 9.0e18) {
            row[t->inst_col].kind = AQ_V_INT;
            row[t->inst_col].v.i = (int64_t)row[t->inst_col].v.f;
        }
        if (row[t->inst_col].kind != AQ_V_INT) {
            if (dropped++ == 0)
                first_dropped = row_no;
            continue;
        }
        aq_table_grow(t);
        if (row_no != t->row_no_base + t->row_count + 1)
            aq_row_no_materialise(t);
        if (t->row_no)
            t->row_no[t->row_count] = (uint32_t)row_no;
        aq_table_store(t, row);
    }
    free(rowbuf);
    free(last_text);
    r->rows = row_no - r->row_no;
    r->row_no = row_no;
    r->dropped = dropped;
    r->first_dropped = first_dropped;
    r->rc = rc;
    if (rc == SQLITE_INTERRUPT && !pv_db_budget_spent())
        r->cancelled = true; /* Ctrl-C, through the connection's progress handler */
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        r->errmsg = pv_xstrdup(pv_db_errmsg(sqlite3_db_handle(st)));
}

/* ---- a large table read by two threads (docs/aqtime.md, Scale) */

#define AQ_SPLIT_ROWS 1000000

/* The integer that `SELECT what FROM q` gives. */
static bool aq_query_i64(sqlite3 *db, const char *what, const char *q, int64_t *out)
{
    char *sql = pv_xasprintf("SELECT %s FROM %s", what, q);
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER;
    if (ok)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    free(sql);
    return ok;
}

/* The last rowid of the first half of a table whose rowids start at 1 and
 * go up to at least AQ_SPLIT_ROWS (the test option aq-split-rows for the
 * tests), and that largest rowid in *last; 0: read it in one. */
static size_t aq_split_point(sqlite3 *db, const char *q, int64_t *last,
                             const pv_test_options *test)
{
    int64_t lo, hi;
    uint64_t least = (uint64_t)pv_test_get(test, PV_TEST_AQ_SPLIT_ROWS, AQ_SPLIT_ROWS);
    if (!aq_query_i64(db, "max(rowid)", q, &hi) || hi < 2 || (uint64_t)hi < least ||
        hi > (int64_t)UINT32_MAX)
        return 0;
    if (!aq_query_i64(db, "min(rowid)", q, &lo) || lo != 1)
        return 0;
    *last = hi;
    return (size_t)(hi / 2);
}

/* The second half's reader: its own connection, statement, rows (a table
 * that shares the first's names) and messages. */
typedef struct aq_split {
    sqlite3 *db;
    sqlite3_stmt *st;
    char *q;          /* the table, quoted */
    int64_t last;     /* its largest rowid */
    bool declined;    /* its rowids are not 1..last: the first reader goes on */
    const char *path;
    aq_table part;
    pv_diag diag;
    pv_progress p;
    atomic_int cancel;
    atomic_int *outer_cancel;
    void (*gate)(void *user); /* the read's pause (aq_read_progress) */
    void *gate_user;
    _Atomic uint64_t r_rows;
    aq_rows_read r;
    pthread_t thread;
    bool started;
    bool stop;
} aq_split;

static void aq_split_free(aq_split *sp)
{
    if (!sp)
        return;
    if (sp->started)
        pthread_join(sp->thread, NULL);
    sqlite3_finalize(sp->st);
    sqlite3_close(sp->db);
    for (size_t c = 0; sp->part.cols && c < sp->part.col_count; c++) {
        free(sp->part.cols[c].data);
        free(sp->part.cols[c].nulls);
    }
    free(sp->part.cols);
    free(sp->part.row_no);
    pv_strpool_free(&sp->part.pool);
    pv_diag_free(&sp->diag);
    free(sp->r.errmsg);
    free(sp->q);
    free(sp);
}

/* Opens the file again for the rows after rowid `split`; NULL when it cannot
 * (then the table is read in one). */
static aq_split *aq_split_open(const char *uri, const char *q, size_t split, int64_t last)
{
    aq_split *sp = pv_xcalloc(1, sizeof *sp);
    sp->q = pv_xstrdup(q);
    sp->last = last;
    pv_diag_init(&sp->diag);
    pv_strpool_init(&sp->part.pool);
    char *sql = pv_xasprintf("SELECT * FROM %s WHERE rowid > %zu", q, split);
    bool ok = sqlite3_open_v2(uri, &sp->db,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                              NULL) == SQLITE_OK &&
              (pv_db_harden(sp->db, NULL), true) &&
              sqlite3_exec(sp->db, "PRAGMA cache_size = -256", NULL, NULL, NULL) == SQLITE_OK &&
              sqlite3_prepare_v2(sp->db, sql, -1, &sp->st, NULL) == SQLITE_OK;
    free(sql);
    if (!ok) {
        aq_split_free(sp);
        return NULL;
    }
    return sp;
}

static void aq_split_report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)what;
    (void)done;
    (void)total;
    aq_split *sp = user;
    if (sp->gate)
        sp->gate(sp->gate_user);
    if (sp->outer_cancel && atomic_load(sp->outer_cancel))
        atomic_store(&sp->cancel, 1);
}

static void *aq_split_run(void *arg)
{
    aq_split *sp = arg;
    /* Its first row is row S + 1 only when no rowid is missing: SQLite's
     * b-tree count (no row is decoded) equals the largest rowid. */
    int64_t n;
    if (!aq_query_i64(sp->db, "count(*)", sp->q, &n) || n != sp->last) {
        sp->declined = true;
        return NULL;
    }
    aq_read_rows(sp->path, &sp->diag, sp->st, &sp->part, &sp->r);
    return NULL;
}

/* Starts the second half's reader once t's columns are known (without a
 * thread it reads its half here, before the first). */
static void aq_split_start(aq_split *sp, const char *path, aq_table *t, size_t split,
                           const aq_read_progress *prog)
{
    sp->path = path;
    aq_table *b = &sp->part;
    b->name = t->name;
    b->db_name = t->db_name;
    b->col_count = t->col_count;
    b->col_names = t->col_names;
    b->col_known = t->col_known;
    b->col_text = t->col_text;
    b->inst_col = t->inst_col;
    b->row_no_base = split;
    b->cols = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *b->cols);
    aq_cols_init(b);
    sp->outer_cancel = prog->p ? prog->p->cancel : NULL;
    sp->gate = prog->gate;
    sp->gate_user = prog->gate_user;
    sp->p = (pv_progress){aq_split_report, sp, &sp->cancel};
    sp->r = (aq_rows_read){&sp->p, 0, 0, &sp->r_rows, NULL, split, 0, 0, 0, SQLITE_DONE, NULL,
                           false};
    sp->started = pthread_create(&sp->thread, NULL, aq_split_run, sp) == 0;
    if (!sp->started)
        aq_split_run(sp);
}

/* Makes room for `rows` rows in every column. */
static void aq_table_reserve(aq_table *t, size_t rows)
{
    if (rows > t->row_cap)
        aq_table_resize(t, (rows + 1023) / 1024 * 1024);
}

/* Appends b's rows (the same columns) to t: a column takes the wider kind of
 * the two; texts move to t's pool. */
static void aq_table_append(aq_table *t, const aq_table *b)
{
    size_t n = t->row_count, m = b->row_count;
    if (m == 0)
        return;
    aq_table_reserve(t, n + m);
    for (size_t c = 0; c < t->col_count; c++) {
        aq_colstore *cs = &t->cols[c];
        const aq_colstore *bs = &b->cols[c];
        /* integers widen to the wider, text stays text; any other mix is cells */
        uint8_t kind = cs->kind == bs->kind                             ? cs->kind
                       : cs->kind <= AQ_COL_I64 && bs->kind <= AQ_COL_I64 ? AQ_COL_I64
                                                                        : AQ_COL_VAL;
        if (cs->kind != kind)
            aq_col_widen(t, cs, kind);
        if (kind == AQ_COL_TEXT) {
            uint32_t *d = cs->data;
            const uint32_t *o = bs->data;
            for (size_t r = 0; r < m; r++) {
                const char *txt = o[r] == AQ_NO_TEXT ? NULL : pv_strpool_get(&b->pool, o[r]);
                d[n + r] = txt ? pv_strpool_add(&t->pool, txt, strlen(txt)) : AQ_NO_TEXT;
            }
            cs->null_count += bs->null_count;
            continue;
        }
        if (kind == bs->kind && kind != AQ_COL_VAL) {
            size_t w = kind == AQ_COL_I32 ? 4 : 8;
            memcpy((char *)cs->data + n * w, bs->data, m * w);
            if (bs->nulls) {
                if (!cs->nulls)
                    cs->nulls = pv_xcalloc(t->row_cap / 8, 1);
                for (size_t r = 0; r < m; r++)
                    if ((bs->nulls[r >> 3] >> (r & 7)) & 1)
                        cs->nulls[(n + r) >> 3] |= (uint8_t)(1u << ((n + r) & 7));
                cs->null_count += bs->null_count;
            }
            continue;
        }
        /* cells (t's column holds aq_value cells here) */
        aq_value *d = cs->data;
        for (size_t r = 0; r < m; r++) {
            aq_value v = aq_cell(b, r, c);
            if (v.kind == AQ_V_TEXT) {
                const char *txt = pv_strpool_get(&b->pool, v.v.s);
                v.v.s = pv_strpool_add(&t->pool, txt, strlen(txt));
            }
            d[n + r] = v;
        }
    }
    if (t->row_no || b->row_no || b->row_no_base != t->row_no_base + n) {
        aq_row_no_materialise(t);
        for (size_t r = 0; r < m; r++)
            t->row_no[n + r] = (uint32_t)aq_row_no(b, r);
    }
    t->row_count = n + m;
}

/* Reads one table.  A read error (a corrupted page) keeps the rows read so
 * far and says where it stopped. */
void aq_read_table(const char *path, pv_diag *diag, sqlite3 *db, const char *uri, aq_table_id id,
                   aq_table *t, aq_read_progress *prog)
{
    char *q = aq_quote_ident(t->db_name);
    /* docs/aqtime.md, Scale: a large table is read by two threads, each a
     * half of its rowids (they are 1..N, so the second half's first row is
     * row S + 1), when the file can be opened again. */
    int64_t last = 0;
    size_t split = uri ? aq_split_point(db, q, &last, prog->test) : 0;
    aq_split *half = split ? aq_split_open(uri, q, split, last) : NULL;
    if (!half)
        split = 0;
    char *sql = split ? pv_xasprintf("SELECT * FROM %s WHERE rowid <= %zu", q, split)
                      : pv_xasprintf("SELECT * FROM %s", q);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK) {
        pv_error(diag, "%s: table %s: cannot be read: %s", path, t->db_name,
                 pv_db_errmsg(db));
        sqlite3_finalize(st);
        t->col_count = 0;
        free(q);
        aq_split_free(half);
        return;
    }
    t->col_count = (size_t)sqlite3_column_count(st);
    t->col_names = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->col_names);
    t->col_known = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->col_known);
    t->col_text = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->col_text);
    t->cols = pv_xcalloc(t->col_count ? t->col_count : 1, sizeof *t->cols);
    t->inst_col = AQ_NONE;
    for (size_t c = 0; c < t->col_count; c++) {
        const char *n = sqlite3_column_name(st, (int)c);
        t->col_names[c] = pv_xstrdup(n ? n : "");
        t->col_known[c] = aq_spec_column(id, t->col_names[c], &t->col_text[c]);
        if (strcasecmp(t->col_names[c], "INST_ID") == 0 && t->inst_col == AQ_NONE)
            t->inst_col = c;
    }
    aq_cols_init(t);
    /* docs/formats.md §5: missing columns are shown empty; say which. */
    pv_buf missing;
    pv_buf_init(&missing);
    for (const char *sp = aq_table_specs[id].columns; *sp;) {
        while (*sp == ' ')
            sp++;
        const char *e = sp;
        while (*e && *e != ' ' && *e != ':')
            e++;
        char *name = pv_xstrndup(sp, (size_t)(e - sp));
        if (name[0] && aq_col(t, name) == AQ_NONE)
            pv_buf_printf(&missing, "%s%s", missing.len ? ", " : "", name);
        free(name);
        sp = e;
        while (*sp && *sp != ' ')
            sp++;
    }
    if (missing.len)
        pv_warn(diag, "%s: table %s has no column %s: shown empty", path, t->db_name,
                pv_buf_cstr(&missing));
    pv_buf_free(&missing);
    if (t->inst_col == AQ_NONE) {
        pv_error(diag, "%s: table %s has no INST_ID column: its rows belong to no result set "
                 "and are ignored", path, t->db_name);
        sqlite3_finalize(st);
        free(q);
        aq_split_free(half);
        return;
    }
    if (half)
        aq_split_start(half, path, t, split, prog);
    _Atomic uint64_t mine = 0;
    aq_rows_read r = {prog->p, prog->done, prog->total, half ? &mine : NULL,
                      half ? &half->r_rows : NULL, 0, 0, 0, 0, SQLITE_DONE, NULL, false};
    aq_read_rows(path, diag, st, t, &r);
    sqlite3_finalize(st);
    size_t dropped = r.dropped, first_dropped = r.first_dropped;
    const aq_rows_read *end = &r; /* the reader whose end is the table's */
    aq_rows_read rest = r;
    rest.errmsg = NULL;
    if (half) {
        /* the second half counts only when the first read to its end */
        half->stop = r.rc != SQLITE_DONE || r.cancelled;
        if (half->stop)
            atomic_store(&half->cancel, 1);
        if (half->started)
            pthread_join(half->thread, NULL);
        half->started = false;
        if (!half->stop && half->declined) {
            /* rowids are missing: the second half is read here, after the
             * first, its rows numbered on from it */
            char *sql2 = pv_xasprintf("SELECT * FROM %s WHERE rowid > %zu", q, split);
            sqlite3_stmt *st2 = NULL;
            rest.rows_read = rest.other_rows = NULL;
            rest.done_before = prog->done + r.rows;
            if (sqlite3_prepare_v2(db, sql2, -1, &st2, NULL) == SQLITE_OK) {
                aq_read_rows(path, diag, st2, t, &rest);
            } else {
                rest.rc = SQLITE_ERROR;
                rest.errmsg = pv_xstrdup(pv_db_errmsg(db));
            }
            sqlite3_finalize(st2);
            free(sql2);
            if (!dropped)
                first_dropped = rest.first_dropped;
            dropped += rest.dropped;
            r.rows += rest.rows;
            r.cancelled = r.cancelled || rest.cancelled;
            end = &rest;
        } else if (!half->stop && !half->r.cancelled) {
            aq_table_append(t, &half->part);
            aq_diag_append(diag, &half->diag);
            if (!dropped)
                first_dropped = half->r.first_dropped;
            dropped += half->r.dropped;
            end = &half->r;
        }
        if (!half->declined) {
            r.cancelled = r.cancelled || (!half->stop && half->r.cancelled);
            r.rows += half->stop ? 0 : half->r.rows;
        }
    }
    free(q);
    if (dropped)
        pv_warn(diag, "%s: table %s: %zu rows have no usable INST_ID (first: row %zu) and "
                "are ignored", path, t->db_name, dropped, first_dropped);
    prog->done += r.rows;
    prog->cancelled = r.cancelled;
    if (end->rc != SQLITE_DONE && !r.cancelled)
        pv_error(diag, "%s: table %s row %zu: %s; the rows after it are missing", path,
                 t->db_name, end->row_no + 1, end->errmsg ? end->errmsg : "?");
    free(r.errmsg);
    free(rest.errmsg);
    aq_split_free(half);
}

typedef struct aq_inst_pair {
    int64_t id;
    size_t group;
} aq_inst_pair;

static int aq_inst_pair_cmp(const void *a, const void *b)
{
    const aq_inst_pair *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Groups the rows by INST_ID and derives the column types, once per table
 * (docs/aqtime.md, Scale): result sets then find their rows by a binary
 * search instead of a table scan each.  Rows of one INST_ID usually come in
 * runs, so the last group is tried before the map. */
void aq_index_table(aq_table *t)
{
    size_t n = t->row_count;
    pv_hashmap m;
    pv_hashmap_init(&m);
    int64_t *ids = NULL;
    size_t id_count = 0, id_cap = 0;
    size_t *counts = NULL, counts_cap = 0;
    uint32_t *group = pv_xmalloc((n ? n : 1) * sizeof *group);
    int64_t last = 0;
    uint32_t last_group = UINT32_MAX;
    for (size_t r = 0; r < n; r++) {
        int64_t id = aq_inst(t, r);
        uint32_t gi;
        if (last_group != UINT32_MAX && id == last) {
            gi = last_group;
        } else if (!pv_hashmap_get(&m, (uint64_t)id, &gi)) {
            gi = (uint32_t)id_count;
            ids = pv_xgrow(ids, &id_cap, id_count + 1, sizeof *ids);
            size_t cc = counts_cap;
            counts = pv_xgrow(counts, &cc, id_count + 1, sizeof *counts);
            counts_cap = cc;
            ids[id_count] = id;
            counts[id_count] = 0;
            id_count++;
            pv_hashmap_put(&m, (uint64_t)id, gi);
        }
        last = id;
        last_group = gi;
        group[r] = gi;
        counts[gi]++;
    }
    pv_hashmap_free(&m);
    /* The distinct INST_IDs ascending, each with its group (first-seen order). */
    aq_inst_pair *pairs = pv_xmalloc((id_count ? id_count : 1) * sizeof *pairs);
    for (size_t k = 0; k < id_count; k++)
        pairs[k] = (aq_inst_pair){ids[k], k};
    qsort(pairs, id_count, sizeof *pairs, aq_inst_pair_cmp);
    t->inst_count = id_count;
    t->insts = pv_xmalloc((id_count ? id_count : 1) * sizeof *t->insts);
    t->inst_start = pv_xmalloc((id_count + 1) * sizeof *t->inst_start);
    size_t *next = pv_xmalloc((id_count ? id_count : 1) * sizeof *next);
    size_t at = 0;
    for (size_t k = 0; k < id_count; k++) {
        t->insts[k] = pairs[k].id;
        t->inst_start[k] = at;
        next[pairs[k].group] = at;
        at += counts[pairs[k].group];
    }
    t->inst_start[id_count] = at;
    t->inst_rows = pv_xmalloc((n ? n : 1) * sizeof *t->inst_rows);
    for (size_t r = 0; r < n; r++)
        t->inst_rows[next[group[r]]++] = (uint32_t)r;
    free(next);
    free(pairs);
    free(group);
    free(counts);
    free(ids);

    /* Column types of extra columns: text anywhere makes a string column, a
     * fractional number a float one, else integers. */
    size_t nc = t->col_count;
    t->col_type = pv_xmalloc((nc ? nc : 1) * sizeof *t->col_type);
    t->col_any_int = pv_xcalloc(nc ? nc : 1, sizeof *t->col_any_int);
    t->col_all_text = pv_xcalloc(nc ? nc : 1, sizeof *t->col_all_text);
    bool *any_text = pv_xcalloc(nc ? nc : 1, sizeof *any_text);
    bool *any_real = pv_xcalloc(nc ? nc : 1, sizeof *any_real);
    for (size_t c = 0; c < nc; c++) {
        const aq_colstore *cs = &t->cols[c];
        if (cs->kind == AQ_COL_TEXT) {
            any_text[c] = cs->null_count < n;
            t->col_all_text[c] = true;
            continue;
        }
        if (cs->kind != AQ_COL_VAL) {
            t->col_any_int[c] = cs->null_count < n;
            t->col_all_text[c] = !t->col_any_int[c];
            continue;
        }
        const aq_value *v = cs->data;
        t->col_all_text[c] = true;
        for (size_t r = 0; r < n; r++) {
            if (v[r].kind == AQ_V_INT || v[r].kind == AQ_V_REAL)
                t->col_all_text[c] = false;
            switch (v[r].kind) {
            case AQ_V_TEXT: any_text[c] = true; break;
            case AQ_V_INT: t->col_any_int[c] = true; break;
            case AQ_V_REAL:
                if (v[r].v.f != floor(v[r].v.f))
                    any_real[c] = true;
                break;
            default: break;
            }
        }
    }
    for (size_t c = 0; c < nc; c++) {
        t->col_type[c] = any_text[c] || t->col_text[c] ? PV_TYPE_STRING
                         : any_real[c]                ? PV_TYPE_FLOAT
                                                      : PV_TYPE_INT;
        /* Addresses read as a debugger shows them (docs/aqtime.md). */
        if (t->col_type[c] == PV_TYPE_INT && aq_is_address_column(t->col_names[c]))
            t->col_type[c] = PV_TYPE_HEX;
    }
    free(any_text);
    free(any_real);
}
