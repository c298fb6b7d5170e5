/* sql.c - the model's views as SQLite virtual tables (docs/sql.md).
 *
 * A virtual table reads its view through the generic accessors only
 * (pv_view_rows, pv_view_cell, the int_column hook): nothing is copied.  xBestIndex turns
 * conditions on rowid (the row index) and on columns whose values never
 * decrease (the timeline's time, index and id; checked once per view and
 * column, then remembered) into a binary search, so a time window of a
 * 50 M-event timeline visits only its own rows.  Columns of few values are
 * grouped, and a GROUP BY on one runs as one aggregate per group.
 *
 * This file is the connection (read-only by construction) and the cells
 * every part shares; the parts are listed in sql_internal.h. */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void pv_sql_table_name(const char *view_id, char *out, size_t out_size)
{
    size_t i = 0;
    for (; view_id[i] && i + 1 < out_size; i++)
        out[i] = view_id[i] == '-' ? '_' : view_id[i];
    if (out_size)
        out[i] = '\0';
}

/* The declared type of a view column: its affinity (INTEGER for the INT_
 * types, so that arithmetic and comparisons are numeric) and the profview
 * type, read back by pv_sql_query to write the result like `cat`. */
const char *sql_decltype(pv_type t)
{
    switch (t) {
    case PV_TYPE_INT: return "INTEGER";
    case PV_TYPE_FLOAT: return "REAL";
    case PV_TYPE_TIME: return "INT_TIME";
    case PV_TYPE_HANDLE: return "INT_HANDLE";
    case PV_TYPE_HEX: return "INT_HEX";
    case PV_TYPE_STRING: return "TEXT";
    }
    return "";
}

bool sql_is_integer_type(pv_type t)
{
    return t == PV_TYPE_INT || t == PV_TYPE_TIME || t == PV_TYPE_HANDLE || t == PV_TYPE_HEX;
}

/* The value of an integer cell as SQLite stores it. */
int64_t sql_cell_int(const pv_cell *c)
{
    return (c->type == PV_TYPE_HANDLE || c->type == PV_TYPE_HEX) ? (int64_t)c->v.u : c->v.i;
}

void sql_result_cell(sqlite3_context *ctx, const pv_cell *c)
{
    if (!c->present) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (c->type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME:
        sqlite3_result_int64(ctx, c->v.i);
        return;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX:
        sqlite3_result_int64(ctx, (int64_t)c->v.u);
        return;
    case PV_TYPE_FLOAT:
        sqlite3_result_double(ctx, c->v.f);
        return;
    case PV_TYPE_STRING:
        sqlite3_result_text(ctx, c->v.s.ptr, (int)(c->v.s.len > INT32_MAX ? INT32_MAX : c->v.s.len),
                            SQLITE_TRANSIENT);
        return;
    }
    sqlite3_result_null(ctx);
}

/* Reports progress; false once the caller asked to stop. */
bool sql_tick(pv_sql *s)
{
    if (s->interrupted)
        return false;
    if (s->progress && !s->progress(s->progress_ctx, s->result_rows, s->rows_visited)) {
        s->interrupted = true;
        return false;
    }
    return true;
}

/* Is time column `col` the time of the rows of a view that says its rows
 * are in time order (docs/model.md, the time_ordered and row_time hooks)?
 * Then it never decreases, and no pass over the rows is needed.  The column
 * is taken for the row time when they agree on 64 rows spread over the
 * view (a view may have other time columns: a call's net time). */
static bool sql_is_row_time(const pv_view *v, size_t col, size_t n)
{
    if (!n || !pv_view_time_ordered(v))
        return false;
    for (size_t k = 0; k < 64; k++) {
        size_t r = k == 63 ? n - 1 : (size_t)((double)n / 63.0 * (double)k);
        if (r >= n)
            r = n - 1;
        int64_t t;
        pv_cell c;
        pv_view_cell(v, r, col, &c);
        if (!pv_view_row_time(v, r, &t) || !c.present || c.type != PV_TYPE_TIME || c.v.i != t)
            return false;
    }
    return true;
}

/* Is column `col` present on every row and never decreasing?  Read once per
 * view and column (an early way out at the first decrease). */
bool sql_column_ascending(pv_sql *s, sql_source *src, size_t col)
{
    unsigned char *order = src->facts->order;
    if (order[col] != SQL_ORDER_UNKNOWN)
        return order[col] == SQL_ORDER_ASCENDING;
    const pv_view *v = src->view;
    if (!sql_is_integer_type(v->columns[col].type)) {
        order[col] = SQL_ORDER_NONE;
        return false;
    }
    size_t n = pv_view_rows(v);
    if (v->columns[col].type == PV_TYPE_TIME && sql_is_row_time(v, col, n)) {
        order[col] = SQL_ORDER_ASCENDING;
        return true;
    }
    int64_t prev = INT64_MIN;
    for (size_t r = 0; r < n; r++) {
        if ((r & 0xFFFFF) == 0xFFFFF && !sql_tick(s))
            return false; /* stopped: unknown stays unknown */
        pv_cell c;
        pv_view_cell(v, r, col, &c);
        if (!c.present || c.type != v->columns[col].type || sql_cell_int(&c) < prev) {
            order[col] = SQL_ORDER_NONE;
            return false;
        }
        prev = sql_cell_int(&c);
    }
    order[col] = SQL_ORDER_ASCENDING;
    return true;
}

/* ---- the connection: read-only by construction */

/* Functions that reach outside the model (none of them is compiled into
 * the library SQLite today, but a system SQLite may have them). */
static const char *const sql_refused_functions[] = {
    "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer", "zipfile",
};

/* Pragmas that only read (the others are refused, and so are arguments). */
static const char *const sql_read_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "database_list", "function_list", "module_list",
    "collation_list",
};

static int sql_authorize(void *ctx, int action, const char *a1, const char *a2, const char *db,
                         const char *trigger)
{
    (void)db;
    (void)trigger;
    pv_sql *s = ctx;
    if (s->setting_up)
        return SQLITE_OK;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        for (size_t i = 0; i < PV_ARRAY_LEN(sql_refused_functions); i++)
            if (a2 && strcasecmp(a2, sql_refused_functions[i]) == 0)
                return SQLITE_DENY;
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        if (!a1)
            return SQLITE_DENY;
        for (size_t i = 0; i < PV_ARRAY_LEN(sql_read_pragmas); i++)
            if (strcasecmp(a1, sql_read_pragmas[i]) == 0)
                return SQLITE_OK;
        (void)a2;
        return SQLITE_DENY;
    default:
        return SQLITE_DENY; /* writes, ATTACH, DETACH, transactions, ... */
    }
}

static int sql_progress(void *ctx)
{
    return sql_tick(ctx) ? 0 : 1;
}

static const pv_column sql_meta_set_columns[] = {
    {"schema", "Schema", PV_TYPE_STRING, PV_COL_NAME},
    {"file", "File", PV_TYPE_STRING, 0},
    {"format", "Format", PV_TYPE_STRING, 0},
    {"result_set", "Result set", PV_TYPE_INT, 0},
    {"caption", "Caption", PV_TYPE_STRING, 0},
    {"kind", "Kind", PV_TYPE_STRING, 0},
};

static const pv_column sql_meta_table_columns[] = {
    {"schema", "Schema", PV_TYPE_STRING, 0},
    {"name", "Table", PV_TYPE_STRING, PV_COL_NAME},
    {"view", "View", PV_TYPE_STRING, 0},
    {"kind", "Kind", PV_TYPE_STRING, 0},
    {"rows", "Rows", PV_TYPE_INT, 0},
};

pv_sql *pv_sql_new(void)
{
    pv_sql *s = pv_xcalloc(1, sizeof *s);
    pv_buf_init(&s->notes);
    int rc = sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                             NULL);
    if (rc != SQLITE_OK) {
        /* SQLite in memory fails only for want of memory: ends as every
         * allocation does (docs/code-style.md), exit status 2, no core */
        char msg[160];
        snprintf(msg, sizeof msg, "%s (opening SQLite's in-memory database for the SQL "
                 "tables: %s)", rc == SQLITE_NOMEM ? "out of memory" : "cannot run SQL",
                 sqlite3_errstr(rc));
        pv_fatal(msg);
    }
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
    sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
    sqlite3_create_module(s->db, "profview_view", &sql_source_module, s);
    sqlite3_set_authorizer(s->db, sql_authorize, s);
    sqlite3_progress_handler(s->db, 4096, sql_progress, s);
    /* The reading pragmas as table-valued functions (`SELECT name FROM
     * pragma_table_info('timeline')`): SQLite makes each one's table the
     * first time a query names it, with a statement of its own on the
     * schema that the authorizer would refuse; made here, while setting
     * up.  Reading them is then authorized as the pragma itself. */
    s->setting_up = true;
    for (size_t i = 0; i < PV_ARRAY_LEN(sql_read_pragmas); i++) {
        char q[80];
        snprintf(q, sizeof q, "SELECT * FROM pragma_%s", sql_read_pragmas[i]);
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK)
            sqlite3_finalize(st);
    }
    s->setting_up = false;
    /* as many attached schemas as this SQLite allows (SQLITE_MAX_ATTACHED,
     * 10 by default, 125 at most); docs/sql.md "Result sets" */
    sqlite3_limit(s->db, SQLITE_LIMIT_ATTACHED, 125);
    s->attach_limit = sqlite3_limit(s->db, SQLITE_LIMIT_ATTACHED, -1);
    s->meta_sets = pv_table_new("profview-sets", "Result sets", sql_meta_set_columns,
                                PV_ARRAY_LEN(sql_meta_set_columns));
    s->meta_tables = pv_table_new("profview-tables", "Tables", sql_meta_table_columns,
                                  PV_ARRAY_LEN(sql_meta_table_columns));
    return s;
}

const char *pv_sql_notes(const pv_sql *s)
{
    return s->notes.len ? s->notes.data : "";
}

void pv_sql_set_progress(pv_sql *s, pv_sql_progress_fn fn, void *ctx)
{
    s->progress = fn;
    s->progress_ctx = ctx;
}

uint64_t pv_sql_rows_visited(const pv_sql *s)
{
    return s->rows_visited;
}

void pv_sql_set_group_runs(pv_sql *s, bool on)
{
    s->group_runs_off = !on;
}

uint64_t pv_sql_group_runs(const pv_sql *s)
{
    return s->group_runs;
}

uint64_t pv_sql_group_folds(const pv_sql *s)
{
    return s->group_folds;
}

/* Lists a table in profview_tables. */
static void sql_list_table(pv_sql *s, const char *schema, const char *name, const pv_view *v)
{
    size_t r = pv_table_add_row(s->meta_tables);
    pv_table_set_cstr(s->meta_tables, r, 0, schema);
    pv_table_set_cstr(s->meta_tables, r, 1, name);
    pv_table_set_cstr(s->meta_tables, r, 2, v->id);
    pv_table_set_cstr(s->meta_tables, r, 3, "table");
    pv_table_set_int(s->meta_tables, r, 4, (int64_t)pv_view_rows(v));
}

static sql_facts *sql_facts_new(size_t columns)
{
    sql_facts *fa = pv_xcalloc(1, sizeof *fa);
    fa->columns = columns;
    fa->order = pv_xcalloc(columns ? columns : 1, 1);
    fa->groups = pv_xcalloc(columns ? columns : 1, sizeof *fa->groups);
    return fa;
}

static void sql_facts_free(sql_facts *fa)
{
    for (size_t c = 0; c < fa->columns; c++)
        sql_group_free(&fa->groups[c]);
    free(fa->groups);
    free(fa->order);
    free(fa);
}

/* Registers `v` and creates its table in `schema`; with `share`, another
 * table of the same view, what is learnt about the columns is shared. */
static sql_source *sql_create_table(pv_sql *s, const pv_view *v, size_t set, const char *schema,
                                    const char *table, bool listed, sql_source *share)
{
    sql_source *src = pv_xcalloc(1, sizeof *src);
    src->view = v;
    src->set = set;
    src->shares_facts = share != NULL;
    src->facts = share ? share->facts : sql_facts_new(v->column_count);
    src->companion_of = pv_xmalloc((v->column_count + 1) * sizeof *src->companion_of);
    for (size_t c = 0; c < v->column_count; c++) {
        if (v->columns[c].type != PV_TYPE_HANDLE && v->columns[c].type != PV_TYPE_HEX)
            continue;
        /* no companion when the view has a column of that name already */
        char *name = pv_xasprintf("%s_hex", v->columns[c].id);
        if (pv_view_column(v, name) == PV_NO_ROW)
            src->companion_of[src->companion_count++] = c;
        free(name);
    }
    s->sources = pv_xgrow(s->sources, &s->source_cap, s->source_count + 1, sizeof *s->sources);
    size_t k = s->source_count++;
    s->sources[k] = src;

    char name[360];
    if (table)
        snprintf(name, sizeof name, "%s", table);
    else
        pv_sql_table_name(v->id, name, sizeof name);
    pv_buf sql;
    pv_buf_init(&sql);
    pv_buf_puts(&sql, "CREATE VIRTUAL TABLE ");
    pv_buf_put_sql_ident(&sql, schema);
    pv_buf_putc(&sql, '.');
    pv_buf_put_sql_ident(&sql, name);
    pv_buf_printf(&sql, " USING profview_view(%zu)", k);
    src->schema = pv_xstrdup(schema);
    src->table = pv_xstrdup(name);
    char *err = NULL;
    if (sqlite3_exec(s->db, pv_buf_cstr(&sql), NULL, NULL, &err) != SQLITE_OK) {
        pv_buf_printf(&s->notes, "view '%s' is not a table in %s: %s\n", v->id, schema,
                      err ? err : "?");
    } else if (listed) {
        sql_list_table(s, schema, name, v);
    }
    sqlite3_free(err);
    pv_buf_free(&sql);
    return src;
}

/* A table-valued function for detail `id` of the rows of view `owner` (NULL:
 * of the first view that offers it), named `name`, unless one has that
 * name already. */
static void sql_add_detail_function(pv_sql *s, const char *id, const char *owner,
                                    const char *owner_shown, const char *name)
{
    for (size_t k = 0; k < s->detail_count; k++)
        if (strcasecmp(s->details[k]->name, name) == 0)
            return;
    sql_detail_fn *fn = pv_xcalloc(1, sizeof *fn);
    fn->sql = s;
    fn->detail_id = pv_xstrdup(id);
    fn->name = pv_xstrdup(name);
    fn->owner = owner ? pv_xstrdup(owner) : NULL;
    s->details = pv_xgrow(s->details, &s->detail_cap, s->detail_count + 1, sizeof *s->details);
    s->details[s->detail_count++] = fn;
    sqlite3_create_module(s->db, fn->name, &sql_detail_module, fn);
    size_t r = pv_table_add_row(s->meta_tables);
    pv_table_set_cstr(s->meta_tables, r, 0, "main");
    pv_table_set_cstr(s->meta_tables, r, 1, fn->name);
    pv_table_set_cstr(s->meta_tables, r, 2, id);
    char *kind = pv_xasprintf("function of %s rows", owner_shown);
    pv_table_set_cstr(s->meta_tables, r, 3, kind);
    free(kind);
}

/* Detail views as functions (docs/sql.md "Detail views"): `detail(id)` of
 * the first view that offers it, as `cat --parent`; a detail that several
 * views offer is also `view_detail(id)` for each of them. */
static void sql_add_detail_functions(pv_sql *s, const pv_result_set *set)
{
    for (size_t i = 0; i < set->view_count; i++) {
        const pv_view *v = set->views[i];
        for (size_t d = 0; d < v->detail_count; d++) {
            const char *id = v->details[d].id;
            if (pv_detail_outside(&v->details[d]))
                continue; /* read from outside the file (the source view) */
            char name[300];
            pv_sql_table_name(id, name, sizeof name);
            sql_add_detail_function(s, id, NULL, v->id, name);
            size_t owners = 0;
            for (size_t j = 0; j < set->view_count; j++)
                owners += pv_view_detail_index(set->views[j], id) != PV_NO_ROW;
            if (owners < 2)
                continue;
            char table[300], both[620];
            pv_sql_table_name(v->id, table, sizeof table);
            snprintf(both, sizeof both, "%s_%s", table, name);
            sql_add_detail_function(s, id, v->id, v->id, both);
        }
    }
}

void pv_sql_add_file(pv_sql *s, const pv_file *f)
{
    s->setting_up = true;
    for (size_t i = 0; i < f->set_count; i++) {
        const pv_result_set *set = f->sets[i];
        size_t k = s->set_count;
        char schema[24];
        snprintf(schema, sizeof schema, "r%zu", k + 1);
        bool attached = false;
        if (k < (size_t)s->attach_limit) {
            char *attach = pv_xasprintf("ATTACH ':memory:' AS %s", schema);
            char *err = NULL;
            attached = sqlite3_exec(s->db, attach, NULL, NULL, &err) == SQLITE_OK;
            free(attach);
            if (!attached)
                pv_buf_printf(&s->notes,
                              "%s: result set %" PRId64 " (%s): no schema %s (%s): its tables "
                              "are %s_VIEW\n",
                              f->path, set->id, set->caption, schema, err ? err : "?", schema);
            sqlite3_free(err);
        }
        s->sets = pv_xgrow(s->sets, &s->set_cap, s->set_count + 1, sizeof *s->sets);
        sql_set *ss = &s->sets[s->set_count++];
        ss->file = f;
        ss->set = set;
        ss->prefixed = pv_xcalloc(set->view_count + 1, sizeof *ss->prefixed);
        size_t r = pv_table_add_row(s->meta_sets);
        char shown[32];
        snprintf(shown, sizeof shown, attached ? "%s" : "%s_", schema);
        pv_table_set_cstr(s->meta_sets, r, 0, shown);
        pv_table_set_cstr(s->meta_sets, r, 1, f->path);
        pv_table_set_cstr(s->meta_sets, r, 2, f->format ? f->format : "");
        pv_table_set_int(s->meta_sets, r, 3, set->id);
        pv_table_set_cstr(s->meta_sets, r, 4, set->caption);
        pv_table_set_cstr(s->meta_sets, r, 5, set->kind);
        if (attached) {
            memcpy(ss->schema, schema, sizeof schema);
            for (size_t v = 0; v < set->view_count; v++) {
                sql_source *src = sql_create_table(s, set->views[v], k, schema, NULL, true, NULL);
                if (k == 0)
                    sql_create_table(s, set->views[v], k, "main", NULL, true, src);
            }
        } else {
            /* past the limit: main.rK_VIEW, made when a query names it */
            ss->schema[0] = '\0';
            for (size_t v = 0; v < set->view_count; v++) {
                char name[300], *table = pv_xasprintf("r%zu_%s", k + 1, set->views[v]->id);
                pv_sql_table_name(table, name, sizeof name);
                free(table);
                sql_list_table(s, "main", name, set->views[v]);
            }
        }
        sql_add_detail_functions(s, set);
    }
    s->setting_up = false;
}

/* The source that owns what is known about view v, or NULL. */
static sql_source *sql_source_of(pv_sql *s, const pv_view *v)
{
    for (size_t i = 0; i < s->source_count; i++)
        if (s->sources[i]->view == v && !s->sources[i]->shares_facts)
            return s->sources[i];
    return NULL;
}

/* Makes the tables main.rK_VIEW that the query names (any identifier of
 * that form, quoted or not; docs/sql.md "Result sets"): every result set's
 * views are reachable that way, past SQLite's limit of attached schemas
 * too.  A view of the first result set with such a name wins. */
void sql_make_prefixed(pv_sql *s, const char *query)
{
    const char *p = query;
    while (*p) {
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z'))) {
            p++;
            continue;
        }
        const char *w = p;
        while (*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
               (*p >= 'A' && *p <= 'Z'))
            p++;
        size_t len = (size_t)(p - w);
        if (len < 4 || (w[0] != 'r' && w[0] != 'R') || w[1] < '1' || w[1] > '9')
            continue;
        size_t d = 1;
        uint64_t k = 0;
        while (d < len && w[d] >= '0' && w[d] <= '9' && k < 1000000000)
            k = k * 10 + (uint64_t)(w[d++] - '0');
        if (d >= len - 1 || w[d] != '_' || k < 1 || k > s->set_count)
            continue;
        const char *rest = w + d + 1;
        size_t rest_len = len - d - 1;
        sql_set *ss = &s->sets[k - 1];
        bool clash = false;
        for (size_t v = 0; v < s->sets[0].set->view_count && !clash; v++) {
            char tname[300];
            pv_sql_table_name(s->sets[0].set->views[v]->id, tname, sizeof tname);
            clash = strlen(tname) == len && strncasecmp(tname, w, len) == 0;
        }
        for (size_t v = 0; v < ss->set->view_count && !clash; v++) {
            const pv_view *view = ss->set->views[v];
            char tname[300];
            pv_sql_table_name(view->id, tname, sizeof tname);
            if (ss->prefixed[v] || strlen(tname) != rest_len ||
                strncasecmp(tname, rest, rest_len) != 0)
                continue;
            char name[340];
            snprintf(name, sizeof name, "r%" PRIu64 "_%s", k, tname);
            s->setting_up = true;
            sql_create_table(s, view, (size_t)k - 1, "main", name, false, sql_source_of(s, view));
            s->setting_up = false;
            ss->prefixed[v] = true;
        }
    }
}

void sql_expose_meta(pv_sql *s)
{
    static const char *const names[] = {"profview_sets", "profview_tables"};
    pv_view *views[] = {pv_table_view(s->meta_sets), pv_table_view(s->meta_tables)};
    for (size_t i = 0; i < 2; i++) {
        sqlite3_stmt *st = NULL;
        char *q = pv_xasprintf("SELECT 1 FROM main.sqlite_master WHERE name = '%s'", names[i]);
        bool exists = sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK &&
                      sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
        free(q);
        if (exists)
            continue;
        s->setting_up = true;
        sql_source *src = pv_xcalloc(1, sizeof *src);
        src->view = views[i];
        src->facts = sql_facts_new(views[i]->column_count);
        src->companion_of = pv_xmalloc(sizeof *src->companion_of);
        s->sources = pv_xgrow(s->sources, &s->source_cap, s->source_count + 1, sizeof *s->sources);
        s->sources[s->source_count] = src;
        char *create = pv_xasprintf("CREATE VIRTUAL TABLE main.%s USING profview_view(%zu)",
                                    names[i], s->source_count);
        s->source_count++;
        sqlite3_exec(s->db, create, NULL, NULL, NULL);
        free(create);
        s->setting_up = false;
    }
}

void pv_sql_free(pv_sql *s)
{
    if (!s)
        return;
    sqlite3_close(s->db); /* disconnects every table first */
    for (size_t i = 0; i < s->source_count; i++) {
        if (!s->sources[i]->shares_facts)
            sql_facts_free(s->sources[i]->facts);
        free(s->sources[i]->schema);
        free(s->sources[i]->table);
        free(s->sources[i]->companion_of);
        free(s->sources[i]);
    }
    free(s->sources);
    for (size_t i = 0; i < s->detail_count; i++) {
        free(s->details[i]->detail_id);
        free(s->details[i]->name);
        free(s->details[i]->owner);
        free(s->details[i]);
    }
    free(s->details);
    for (size_t k = 0; k < s->set_count; k++)
        free(s->sets[k].prefixed);
    free(s->sets);
    pv_view_free(pv_table_view(s->meta_sets));
    pv_view_free(pv_table_view(s->meta_tables));
    pv_buf_free(&s->notes);
    free(s);
}
