/*
 * sql_complete.c - completion of table and column names for the :sql prompt.
 */
#include "sql/sql_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- completion */

typedef struct sql_complete_ctx {
    const char *prefix;
    size_t len;
    void (*fn)(void *ctx, const char *name);
    void *ctx;
} sql_complete_ctx;

static void sql_offer(const sql_complete_ctx *c, const char *name)
{
    if (strncasecmp(name, c->prefix, c->len) == 0)
        c->fn(c->ctx, name);
}

void pv_sql_complete(pv_sql *s, const char *prefix, void (*fn)(void *ctx, const char *name),
                     void *ctx)
{
    sql_expose_meta(s);
    sql_complete_ctx c = {prefix, strlen(prefix), fn, ctx};
    const char *dot = strrchr(prefix, '.');
    if (dot) {
        /* "table." or "schema.table.": that table's columns; "schema.": its tables */
        char table[256];
        size_t tlen = (size_t)(dot - prefix);
        const char *start = prefix;
        const char *first_dot = memchr(prefix, '.', tlen);
        if (first_dot)
            start = first_dot + 1;
        tlen = (size_t)(dot - start);
        if (tlen >= sizeof table)
            return;
        memcpy(table, start, tlen);
        table[tlen] = '\0';
        sql_complete_ctx after = {dot + 1, strlen(dot + 1), fn, ctx};
        pv_buf name;
        pv_buf_init(&name);
        /* rK_VIEW is VIEW's table of result set K */
        const char *bare = table;
        if ((table[0] == 'r' || table[0] == 'R') && table[1] >= '1' && table[1] <= '9') {
            const char *u = table + 1;
            while (*u >= '0' && *u <= '9')
                u++;
            if (*u == '_')
                bare = u + 1;
        }
        for (size_t i = 0; i < s->source_count; i++) {
            const pv_view *v = s->sources[i]->view;
            char tname[256];
            pv_sql_table_name(v->id, tname, sizeof tname);
            if (strcasecmp(tname, table) == 0 || strcasecmp(tname, bare) == 0) {
                for (size_t col = 0; col < v->column_count; col++) {
                    pv_buf_clear(&name);
                    pv_buf_append(&name, prefix, (size_t)(dot - prefix) + 1);
                    pv_buf_puts(&name, v->columns[col].id);
                    if (strncasecmp(v->columns[col].id, after.prefix, after.len) == 0)
                        fn(ctx, pv_buf_cstr(&name));
                }
                break;
            }
        }
        for (size_t k = 0; k < s->set_count && !first_dot; k++) {
            if (!s->sets[k].schema[0] || strcasecmp(s->sets[k].schema, table) != 0)
                continue;
            for (size_t v = 0; v < s->sets[k].set->view_count; v++) {
                char tname[256];
                pv_sql_table_name(s->sets[k].set->views[v]->id, tname, sizeof tname);
                pv_buf_clear(&name);
                pv_buf_printf(&name, "%s.%s", s->sets[k].schema, tname);
                if (strncasecmp(tname, after.prefix, after.len) == 0)
                    fn(ctx, pv_buf_cstr(&name));
            }
        }
        pv_buf_free(&name);
        return;
    }
    if (s->set_count) {
        const pv_result_set *first = s->sets[0].set;
        for (size_t v = 0; v < first->view_count; v++) {
            char tname[256];
            pv_sql_table_name(first->views[v]->id, tname, sizeof tname);
            sql_offer(&c, tname);
        }
    }
    for (size_t i = 0; i < s->detail_count; i++)
        sql_offer(&c, s->details[i]->name);
    for (size_t k = 0; k < s->set_count; k++)
        if (s->sets[k].schema[0])
            sql_offer(&c, s->sets[k].schema);
    /* "rK_": the tables of result set K in main (docs/sql.md "Result sets") */
    char *end = NULL;
    unsigned long long k = (c.prefix[0] == 'r' || c.prefix[0] == 'R') && c.prefix[1] >= '1' &&
                                   c.prefix[1] <= '9'
                               ? strtoull(c.prefix + 1, &end, 10)
                               : 0;
    if (k >= 1 && k <= s->set_count && end && *end == '_') {
        const pv_result_set *set = s->sets[k - 1].set;
        for (size_t v = 0; v < set->view_count; v++) {
            char tname[300], name[340];
            pv_sql_table_name(set->views[v]->id, tname, sizeof tname);
            snprintf(name, sizeof name, "r%llu_%s", k, tname);
            sql_offer(&c, name);
        }
    }
    sql_offer(&c, "profview_sets");
    sql_offer(&c, "profview_tables");
}
