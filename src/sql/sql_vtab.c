/*
 * sql_vtab.c - the SQLite virtual table over a view (docs/sql.md): connect,
 * best index, filter and the cursor.
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the virtual table over a view */

static int sql_source_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                              sqlite3_vtab **out, char **errmsg)
{
    pv_sql *s = aux;
    (void)errmsg;
    if (argc < 4)
        return SQLITE_ERROR;
    size_t k = (size_t)strtoull(argv[3], NULL, 10);
    if (k >= s->source_count)
        return SQLITE_ERROR;
    sql_source *src = s->sources[k];
    const pv_view *v = src->view;
    pv_buf decl;
    pv_buf_init(&decl);
    pv_buf_puts(&decl, "CREATE TABLE x(");
    for (size_t c = 0; c < v->column_count; c++) {
        if (c)
            pv_buf_puts(&decl, ", ");
        pv_buf_put_sql_ident(&decl, v->columns[c].id);
        pv_buf_printf(&decl, " %s", sql_decltype(v->columns[c].type));
    }
    for (size_t h = 0; h < src->companion_count; h++) {
        pv_buf_puts(&decl, ", ");
        char *name = pv_xasprintf("%s_hex", v->columns[src->companion_of[h]].id);
        pv_buf_put_sql_ident(&decl, name);
        free(name);
        pv_buf_puts(&decl, " TEXT HIDDEN");
    }
    pv_buf_puts(&decl, ")");
    bool was = s->setting_up;
    s->setting_up = true; /* the declaration is not the user's statement */
    int rc = sqlite3_declare_vtab(db, pv_buf_cstr(&decl));
    s->setting_up = was;
    pv_buf_free(&decl);
    if (rc != SQLITE_OK)
        return rc;
    sql_vtab *t = pv_xcalloc(1, sizeof *t);
    t->sql = s;
    t->src = src;
    *out = &t->base;
    return SQLITE_OK;
}

int sql_vtab_disconnect(sqlite3_vtab *vt)
{
    sql_vtab *t = (sql_vtab *)vt;
    for (size_t i = 0; i < t->detail_col_count; i++)
        free(t->detail_cols[i]);
    free(t->detail_cols);
    free(t);
    return SQLITE_OK;
}

/* The bound a constraint value sets on an integer column, or false when the
 * value is not a number (then the plan scans; SQLite checks every row). */
static bool sql_bound_value(sqlite3_value *v, bool lower, bool *strict, int64_t *out)
{
    switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER:
        *out = sqlite3_value_int64(v);
        return true;
    case SQLITE_FLOAT: {
        double d = sqlite3_value_double(v);
        if (isnan(d))
            return false;
        if (d >= 9.2e18 || d <= -9.2e18)
            return false;
        double r = lower ? ceil(d) : floor(d);
        if (r != d)
            *strict = false; /* x > 1.5 is x >= 2; x < 1.5 is x <= 1 */
        *out = (int64_t)r;
        return true;
    }
    default:
        return false;
    }
}

/* Is constraint i's value a constant integer (known now)? */
static unsigned char sql_exact_bound(sqlite3_index_info *info, int i)
{
    sqlite3_value *v = NULL;
    if (sqlite3_vtab_rhs_value(info, i, &v) != SQLITE_OK || !v)
        return 0;
    return sqlite3_value_type(v) == SQLITE_INTEGER;
}

/* Is constraint i's value known now and of the column's own kind (text for
 * a text column, an integer otherwise), compared with BINARY?  Then the rows
 * a plan picks are exactly those that match, and SQLite need not check. */
static unsigned char sql_exact_group_value(sqlite3_index_info *info, int i, pv_type type)
{
    const char *coll = sqlite3_vtab_collation(info, i);
    if (coll && strcasecmp(coll, "BINARY") != 0)
        return 0;
    sqlite3_value *v = NULL;
    if (sqlite3_vtab_rhs_value(info, i, &v) != SQLITE_OK || !v)
        return 0;
    return sqlite3_value_type(v) == (type == PV_TYPE_STRING ? SQLITE_TEXT : SQLITE_INTEGER);
}

/* The best usable column for a binary search: rowid first, then an
 * ascending column; -2 for none. */
static int sql_plan_best_column(sql_vtab *t, sqlite3_index_info *info)
{
    const pv_view *v = t->src->view;
    int best_col = -2;
    int best_score = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (!c->usable)
            continue;
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ && c->op != SQLITE_INDEX_CONSTRAINT_GT &&
            c->op != SQLITE_INDEX_CONSTRAINT_GE && c->op != SQLITE_INDEX_CONSTRAINT_LT &&
            c->op != SQLITE_INDEX_CONSTRAINT_LE)
            continue;
        int col = c->iColumn;
        if (col >= (int)v->column_count || col >= PLAN_COLUMN_MAX)
            continue;
        int score = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 4 : 2;
        if (col < 0)
            score += 1;
        if (score <= best_score || (col == best_col))
            continue;
        if (col >= 0 && !sql_column_ascending(t->sql, t->src, (size_t)col))
            continue;
        best_score = score;
        best_col = col;
    }
    return best_col;
}

/* A constraint `col = x` (BINARY) on a column of few values, other than
 * the binary search's (best_col): its column, with the constraint in
 * *eq_arg; -1 for none.  With a binary search (narrow) only a column
 * grouped already counts. */
static int sql_plan_group_eq(sql_vtab *t, sqlite3_index_info *info, int best_col, bool narrow,
                             int *eq_arg)
{
    const pv_view *v = t->src->view;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int col = c->iColumn;
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ || col < 0 ||
            col >= (int)v->column_count || col >= PLAN_COLUMN_MAX || col == best_col)
            continue;
        const char *coll = sqlite3_vtab_collation(info, i);
        if (coll && strcasecmp(coll, "BINARY") != 0)
            continue;
        sql_group *g = &t->src->facts->groups[col];
        if (narrow && g->state != SQL_GROUP_READY)
            continue;
        if (!sql_column_grouped(t->sql, t->src, (size_t)col))
            continue;
        *eq_arg = i;
        return col;
    }
    return -1;
}

static int sql_source_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    sql_vtab *t = (sql_vtab *)vt;
    const pv_view *v = t->src->view;
    double n = (double)pv_view_rows(v) + 1;
    if (t->sql->planned && t->sql->planned != t->src)
        t->sql->planned_several = true;
    t->sql->planned = t->src;
    int best_col = sql_plan_best_column(t, info);
    int plan = 0, arg = 1;
    double rows = n;
    pv_buf how;
    pv_buf_init(&how);
    if (best_col != -2) {
        int lo = -1, hi = -1;
        for (int i = 0; i < info->nConstraint; i++) {
            const struct sqlite3_index_constraint *c = &info->aConstraint[i];
            if (!c->usable || c->iColumn != best_col)
                continue;
            if ((c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_GE ||
                 c->op == SQLITE_INDEX_CONSTRAINT_GT) &&
                lo < 0) {
                lo = i;
                plan |= c->op == SQLITE_INDEX_CONSTRAINT_GT ? PLAN_LO_GT : PLAN_LO_GE;
            }
            if ((c->op == SQLITE_INDEX_CONSTRAINT_EQ || c->op == SQLITE_INDEX_CONSTRAINT_LE ||
                 c->op == SQLITE_INDEX_CONSTRAINT_LT) &&
                hi < 0) {
                hi = i;
                plan |= c->op == SQLITE_INDEX_CONSTRAINT_LT ? PLAN_HI_LT : PLAN_HI_LE;
            }
        }
        /* The range is exact for integer values: when the value is a
         * constant integer SQLite need not check the rows again (omit);
         * otherwise (a float, text, a value known only later) it does, and
         * the range is a superset. */
        if (lo >= 0) {
            info->aConstraintUsage[lo].argvIndex = arg++;
            info->aConstraintUsage[lo].omit = sql_exact_bound(info, lo);
        }
        if (hi >= 0 && hi != lo) {
            info->aConstraintUsage[hi].argvIndex = arg++;
            info->aConstraintUsage[hi].omit = sql_exact_bound(info, hi);
        }
        else if (hi == lo && hi >= 0)
            plan |= PLAN_EQ; /* one EQ argument gives both bounds */
        plan |= (best_col + 1) << 8;
        bool eq = (plan & PLAN_EQ) != 0;
        rows = eq ? (best_col < 0 ? 1 : 2) : (lo >= 0 && hi >= 0 ? n / 100 : n / 4);
        if (eq && best_col < 0)
            info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
        pv_buf_printf(&how, "binary search on %s", best_col < 0 ? "rowid" : v->columns[best_col].id);
    }
    /* A column of few values: `col = x` visits x's rows only, and GROUP BY
     * or ORDER BY col gets the rows group by group.  Making the groups is
     * a pass over the view; it is not made for a query that a binary search
     * narrows already (SQLite sorts or checks the fewer rows). */
    bool narrow = best_col != -2;
    bool point = (plan & PLAN_EQ) != 0;
    int eq_arg = -1;
    int eq_col = point ? -1 : sql_plan_group_eq(t, info, best_col, narrow, &eq_arg);
    int order_col = -1;
    bool order_desc = false;
    if (!point && info->nOrderBy == 1 && info->aOrderBy[0].iColumn >= 0) {
        int col = info->aOrderBy[0].iColumn;
        order_desc = info->aOrderBy[0].desc != 0;
        bool sorted = !order_desc && col < (int)v->column_count &&
                      t->src->facts->order[col] == SQL_ORDER_ASCENDING;
        if (!sorted && col < (int)v->column_count && col < PLAN_COLUMN_MAX &&
            (eq_col < 0 || eq_col == col) &&
            (!narrow || t->src->facts->groups[col].state == SQL_GROUP_READY) &&
            sql_column_grouped(t->sql, t->src, (size_t)col))
            order_col = col;
    }
    int group_col = eq_col >= 0 ? eq_col : order_col;
    if (group_col >= 0) {
        const sql_group *g = &t->src->facts->groups[group_col];
        const char *id = v->columns[group_col].id;
        plan |= (group_col + 1) << 20;
        if (eq_col >= 0) {
            plan |= PLAN_GROUP_EQ;
            info->aConstraintUsage[eq_arg].argvIndex = arg++;
            info->aConstraintUsage[eq_arg].omit =
                sql_exact_group_value(info, eq_arg, v->columns[eq_col].type);
            rows = rows / (double)(g->k ? g->k : 1);
            pv_buf_printf(&how, "%srows of one %s", how.len ? ", " : "", id);
        }
        if (order_col >= 0) {
            plan |= PLAN_GROUPED | (order_desc ? PLAN_GROUPED_DESC : 0);
            if (eq_col < 0)
                pv_buf_printf(&how, "%sgrouped by %s%s", how.len ? ", " : "", id,
                              order_desc ? " (descending)" : "");
        }
    }
    info->idxNum = plan;
    info->estimatedRows = (sqlite3_int64)rows + 1;
    info->estimatedCost = plan ? log2(n) + rows : n;
    if (how.len) {
        info->idxStr = sqlite3_mprintf("%s", pv_buf_cstr(&how));
        info->needToFreeIdxStr = 1;
    }
    pv_buf_free(&how);
    /* ORDER BY rowid or an ascending column (ascending) is the view's order,
     * and a grouped column's order is its groups'; rows of one group are in
     * view order */
    if (info->nOrderBy == 1) {
        int col = info->aOrderBy[0].iColumn;
        bool desc = info->aOrderBy[0].desc != 0;
        if (group_col >= 0 && col == group_col)
            info->orderByConsumed = 1; /* one group, or the groups in order */
        else if (!(plan & PLAN_GROUPED) && !desc &&
                 (col < 0 || (col < (int)v->column_count &&
                              sql_column_ascending(t->sql, t->src, (size_t)col))))
            info->orderByConsumed = 1;
    }
    return SQLITE_OK;
}

int sql_cursor_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    sql_cursor *c = pv_xcalloc(1, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

int sql_cursor_close(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    if (c->owned)
        pv_view_free(c->owned);
    free(c->ints);
    free(c->col_map);
    free(c);
    return SQLITE_OK;
}

/* Grouped delivery: the start of group number c->gi (of c->groups). */
static void sql_group_enter(sql_cursor *c)
{
    if (c->gi >= c->group_count)
        return;
    if (!c->use_perm) {
        c->scan = c->lo;
        c->hit_pos = c->hit_count = 0;
        return;
    }
    /* the group's rows are ascending in perm: the first one >= lo */
    const sql_group *g = c->grp;
    unsigned char r = c->groups[c->gi];
    size_t a = g->start[r], b = g->start[r + 1];
    c->pos_end = b;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (g->perm[mid] < c->lo)
            a = mid + 1;
        else
            b = mid;
    }
    c->pos = a;
}

/* The rows of the current group in the next chunks of [scan, end) that
 * have one, into c->hit (8 ranks at a time: a word's bytes equal to the
 * group's rank, with no branch per row); false at the end. */
static bool sql_group_scan(sql_cursor *c)
{
    const unsigned char *rank = c->grp->rank;
    unsigned char want = c->groups[c->gi];
    size_t i = c->scan, end = c->end;
    unsigned n = 0;
    while (n == 0 && i < end) {
        size_t stop = end - i > SQL_SCAN_CHUNK ? i + SQL_SCAN_CHUNK : end;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        const uint64_t ones = 0x0101010101010101u, low7 = 0x7F7F7F7F7F7F7F7Fu;
        const uint64_t pattern = ones * want;
        for (; i + 8 <= stop; i += 8) {
            uint64_t w;
            memcpy(&w, rank + i, sizeof w);
            uint64_t x = w ^ pattern; /* zero bytes: the group's rows */
            uint64_t z = ~(((x & low7) + low7) | x | low7);
            if (!z)
                continue;
            for (unsigned b = 0; b < 8; b++) {
                c->hit[n] = (uint32_t)(i + b);
                n += (unsigned)(z >> (8 * b + 7)) & 1;
            }
        }
#endif
        for (; i < stop; i++) {
            c->hit[n] = (uint32_t)i;
            n += rank[i] == want;
        }
        if (c->keep) { /* a group run of another column: its rows only */
            unsigned kept = 0;
            for (unsigned h = 0; h < n; h++)
                if (c->keep[c->hit[h]] == c->keep_rank)
                    c->hit[kept++] = c->hit[h];
            n = kept;
        }
    }
    c->scan = i;
    c->hit_pos = 0;
    c->hit_count = n;
    return n > 0;
}

/* Moves to the current group's next row in [lo, end) at or after the
 * current place, or to the next groups; done after the last. */
static void sql_group_settle(sql_cursor *c)
{
    const sql_group *g = c->grp;
    while (c->gi < c->group_count) {
        if (!c->use_perm) {
            if (c->hit_pos < c->hit_count || sql_group_scan(c)) {
                c->row = c->hit[c->hit_pos];
                return;
            }
        } else {
            for (; c->pos < c->pos_end && g->perm[c->pos] < c->end; c->pos++) {
                c->row = g->perm[c->pos];
                if (!c->keep || c->keep[c->row] == c->keep_rank)
                    return;
            }
        }
        c->gi++;
        sql_group_enter(c);
    }
    c->done = true;
    c->row = c->end;
}

static int sql_source_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                             sqlite3_value **argv)
{
    (void)idx_str;
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    const pv_view *v = t->src->view;
    t->sql->sets[t->src->set].read = true;
    c->view = v;
    c->row = 0;
    c->end = pv_view_rows(v);
    c->grp = NULL;
    c->keep = NULL;
    if (v->hooks && v->hooks->int_column) {
        if (!c->ints)
            c->ints = pv_xcalloc(v->column_count, sizeof *c->ints);
        for (size_t k = 0; k < v->column_count; k++)
            if (!pv_view_int_column(v, k, &c->ints[k]))
                c->ints[k].base = NULL;
    }
    c->done = false;
    int col = ((idx_num >> 8) & 0xFFF) - 1;
    int arg = 0;
    bool has_lo = (idx_num & (PLAN_LO_GE | PLAN_LO_GT)) != 0;
    bool has_hi = (idx_num & (PLAN_HI_LE | PLAN_HI_LT)) != 0;
    sqlite3_value *lo_v = has_lo && arg < argc ? argv[arg++] : NULL;
    sqlite3_value *hi_v = NULL;
    if (has_hi)
        hi_v = (idx_num & PLAN_EQ) ? lo_v : (arg < argc ? argv[arg++] : NULL);
    int64_t x;
    if (lo_v) {
        bool strict = (idx_num & PLAN_LO_GT) != 0;
        if (sqlite3_value_type(lo_v) == SQLITE_NULL) {
            c->row = c->end; /* comparisons with NULL are never true */
            return SQLITE_OK;
        }
        if (sql_bound_value(lo_v, true, &strict, &x)) {
            if (col < 0) {
                int64_t first = strict ? (x == INT64_MAX ? x : x + 1) : x;
                c->row = first <= 0 ? 0 : (uint64_t)first > c->end ? c->end : (size_t)first;
            } else {
                c->row = sql_lower_bound(v, (size_t)col, 0, c->end, x, strict);
            }
        }
    }
    if (hi_v) {
        bool strict = (idx_num & PLAN_HI_LT) != 0;
        if (sqlite3_value_type(hi_v) == SQLITE_NULL) {
            c->row = c->end;
            return SQLITE_OK;
        }
        if (sql_bound_value(hi_v, false, &strict, &x)) {
            size_t end;
            if (col < 0) {
                int64_t last = strict ? x - 1 : x; /* last row index included */
                end = last < 0 ? 0 : (uint64_t)last >= c->end ? c->end : (size_t)last + 1;
            } else {
                /* the first row past the bound: > x (<= x kept) or >= x */
                end = sql_lower_bound(v, (size_t)col, c->row, c->end, x, !strict);
            }
            if (end < c->end)
                c->end = end;
        }
    }
    if (c->row > c->end)
        c->row = c->end;
    sql_facts *facts = t->src->facts;
    int gcol = ((idx_num >> 20) & PLAN_COLUMN_MAX) - 1;
    if (!(idx_num & (PLAN_GROUP_EQ | PLAN_GROUPED)) ||
        (gcol >= 0 && facts->groups[gcol].state != SQL_GROUP_READY))
        gcol = -1; /* not reached for a plan's column: plans use ready groups only */
    /* a GROUP BY run group by group: this scan gets one group's rows */
    int force = t->sql->force_facts == facts ? (int)t->sql->force_col : -1;
    if (force >= 0 && facts->groups[force].state != SQL_GROUP_READY)
        force = -1; /* not reached: group runs use ready groups only */
    if (gcol < 0 && force < 0)
        return SQLITE_OK;
    sql_group *g = gcol >= 0 ? &facts->groups[gcol] : NULL;
    int only = -2;
    if (gcol >= 0 && (idx_num & PLAN_GROUP_EQ)) {
        sqlite3_value *val = arg < argc ? argv[arg++] : NULL;
        only = !val || sqlite3_value_type(val) == SQLITE_NULL
                   ? -1
                   : sql_group_find(g, v->columns[gcol].type, val);
        if (only == -1) {
            c->row = c->end; /* no row has that value */
            return SQLITE_OK;
        }
    }
    bool forced_one = false; /* one group of a group run: its rows sorted by rank */
    if (force >= 0 && (gcol < 0 || gcol == force)) {
        if (only >= 0 && only != t->sql->force_rank) {
            c->row = c->end; /* `col = x` and the run of another value */
            return SQLITE_OK;
        }
        gcol = force;
        g = &facts->groups[gcol];
        only = t->sql->force_rank;
        forced_one = true;
    } else if (force >= 0) {
        c->keep = facts->groups[force].rank;
        c->keep_rank = t->sql->force_rank;
    }
    if (only >= 0) {
        c->groups[0] = (unsigned char)only;
        c->group_count = 1;
    } else {
        bool desc = (idx_num & PLAN_GROUPED_DESC) != 0;
        for (size_t i = 0; i < g->k; i++)
            c->groups[i] = (unsigned char)(desc ? g->k - 1 - i : i);
        c->group_count = g->k;
    }
    /* a group of few: a scan of the ranks; a group run of a column of
     * many groups would scan the ranks once per group: the sorted rows */
    c->use_perm = c->group_count > SQL_GROUP_SCAN || (forced_one && g->k > SQL_GROUP_SCAN);
    if (c->use_perm)
        sql_group_perm(g, pv_view_rows(v));
    c->grp = g;
    c->lo = c->row;
    c->gi = 0;
    sql_group_enter(c);
    sql_group_settle(c);
    return SQLITE_OK;
}

int sql_cursor_next(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    t->sql->rows_visited++;
    if (!c->grp) {
        c->row++;
        return SQLITE_OK;
    }
    if (c->use_perm) {
        c->pos++;
    } else if (++c->hit_pos < c->hit_count) {
        c->row = c->hit[c->hit_pos];
        return SQLITE_OK;
    }
    sql_group_settle(c);
    return SQLITE_OK;
}

int sql_cursor_eof(sqlite3_vtab_cursor *cur)
{
    sql_cursor *c = (sql_cursor *)cur;
    return c->grp ? c->done : c->row >= c->end;
}

int sql_cursor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = (sqlite3_int64)((sql_cursor *)cur)->row;
    return SQLITE_OK;
}

/* Writes the `<col>_hex` text of an integer column like `cat` does. */
static void sql_result_hex(sqlite3_context *ctx, const pv_cell *cell)
{
    if (!cell->present) {
        sqlite3_result_null(ctx);
        return;
    }
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(cell, &b);
    sqlite3_result_text(ctx, pv_buf_cstr(&b), (int)b.len, SQLITE_TRANSIENT);
    pv_buf_free(&b);
}

static int sql_source_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    sql_cursor *c = (sql_cursor *)cur;
    sql_vtab *t = (sql_vtab *)cur->pVtab;
    const pv_view *v = c->view;
    pv_cell cell;
    if (c->ints && (size_t)col < v->column_count && c->ints[col].base) {
        const pv_int_array *a = &c->ints[col];
        switch (a->width) {
        case 1: sqlite3_result_int64(ctx, ((const uint8_t *)a->base)[c->row]); break;
        case 2: sqlite3_result_int64(ctx, ((const uint16_t *)a->base)[c->row]); break;
        case 4: sqlite3_result_int64(ctx, ((const uint32_t *)a->base)[c->row]); break;
        default: sqlite3_result_int64(ctx, (int64_t)((const uint64_t *)a->base)[c->row]); break;
        }
        return SQLITE_OK;
    }
    if ((size_t)col < v->column_count) {
        const sql_group *g = &t->src->facts->groups[col];
        if (g->state == SQL_GROUP_READY) {
            /* a grouped column: the row's value is its group's (a string
             * that lives as long as the connection: no copy) */
            const pv_cell *gv = &g->values[g->rank[c->row]];
            if (gv->present && gv->type == PV_TYPE_STRING)
                sqlite3_result_text(ctx, gv->v.s.ptr, (int)gv->v.s.len, SQLITE_STATIC);
            else
                sql_result_cell(ctx, gv);
            return SQLITE_OK;
        }
        pv_view_cell(v, c->row, (size_t)col, &cell);
        sql_result_cell(ctx, &cell);
        return SQLITE_OK;
    }
    size_t h = (size_t)col - v->column_count;
    if (h < t->src->companion_count) {
        pv_view_cell(v, c->row, t->src->companion_of[h], &cell);
        sql_result_hex(ctx, &cell);
        return SQLITE_OK;
    }
    sqlite3_result_null(ctx);
    return SQLITE_OK;
}

sqlite3_module sql_source_module = {
    .iVersion = 0,
    .xCreate = sql_source_connect,
    .xConnect = sql_source_connect,
    .xBestIndex = sql_source_best_index,
    .xDisconnect = sql_vtab_disconnect,
    .xDestroy = sql_vtab_disconnect,
    .xOpen = sql_cursor_open,
    .xClose = sql_cursor_close,
    .xFilter = sql_source_filter,
    .xNext = sql_cursor_next,
    .xEof = sql_cursor_eof,
    .xColumn = sql_source_column,
    .xRowid = sql_cursor_rowid,
};
