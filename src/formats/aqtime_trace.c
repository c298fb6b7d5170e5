/* aqtime_trace.c - the Function Trace result set (docs/formats.md §5; seed
 * aqtime-function-trace-db.txt): its links, threads, routines with times
 * aggregated from the trace, call routes and their call stacks, parameters
 * on enter/exit, callers/callees, meta lines and meta parameters.  The call
 * trace is aqtime_calltree.c, its hooks aqtime_trace_hooks.c. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "profview/source.h"
#include "aqtime_trace.h"

/* A link of positions in 32 bits (the positions of one table's rows). */
static uint32_t *aq_narrow(size_t *link, size_t n)
{
    uint32_t *out = pv_xmalloc((n ? n : 1) * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = link[i] == AQ_NONE ? AQ_NONE32 : (uint32_t)link[i];
    free(link);
    return out;
}

/* Readings of links whose key the seed contradicts (docs/formats.md §5). */
static const char *const aq_id_then_rec[] = {"ID", "REC_ID"};
static const char *const aq_id_only[] = {"ID"};

static void aq_ft_free(void *p)
{
    aq_ft *ft = p;
    aq_sel *sels[] = {&ft->threads, &ft->calls,  &ft->meta,  &ft->routines, &ft->routes,
                      &ft->stacks,  &ft->lines,  &ft->enter, &ft->exit,     &ft->mparams};
    for (size_t i = 0; i < PV_ARRAY_LEN(sels); i++)
        aq_sel_free(sels[i]);
    free(ft->call_thread);
    free(ft->call_meta);
    free(ft->call_parent);
    free(ft->routine_meta);
    free(ft->meta_routine);
    free(ft->route_routine);
    free(ft->route_meta);
    free(ft->stack_route);
    free(ft->stack_meta);
    free(ft->line_meta);
    free(ft->enter_call);
    free(ft->exit_call);
    free(ft->mparam_meta);
    free(ft->call_row);
    free(ft->meta_first_row);
    for (size_t i = 0; i < ft->lane_count; i++)
        free(ft->lane_names[i]);
    free(ft->lane_names);
    free(ft);
}

/* A call's own time and time with children, in the file's unit (cycles). */
bool aq_ft_own(const aq_ft *ft, size_t call, int64_t *v)
{
    return aq_int(ft->calls.t, ft->calls.rows[call], ft->col_own, v);
}

bool aq_ft_wc(const aq_ft *ft, size_t call, int64_t *v)
{
    return aq_int(ft->calls.t, ft->calls.rows[call], ft->col_wc, v);
}

/* ---- detail plumbing: each table with details keeps its rows' sources */

aq_ft_dctx *aq_ft_dctx_new(aq_ft *ft, enum aq_ft_kind kind)
{
    aq_ft_dctx *d = pv_xcalloc(1, sizeof *d);
    d->ft = ft;
    d->kind = kind;
    return d;
}

static void aq_ft_dctx_push(aq_ft_dctx *d, size_t pos)
{
    d->src = pv_xgrow(d->src, &d->cap, d->n + 1, sizeof *d->src);
    d->src[d->n++] = pos;
}

void aq_ft_dctx_free(void *p)
{
    aq_ft_dctx *d = p;
    free(d->src);
    free(d);
}

const pv_detail_def aq_ft_call_details[] = {
    {"parameters-on-enter", "Parameters on enter"},
    {"parameters-on-exit", "Parameters on exit"},
};
static const pv_detail_def aq_ft_routine_details[] = {
    {"call-routes", "Call routes"}, {"callers", "Callers"},
    {"callees", "Callees"},         {"lines", "Lines"},
    {"meta-parameters", "Parameters"}, {PV_DETAIL_SOURCE, "Source"},
};
static const pv_detail_def aq_ft_line_details[] = {{PV_DETAIL_SOURCE, "Source"}};
static const pv_detail_def aq_ft_route_details[] = {
    {"call-stack", "Call stack"},
};

static pv_view *aq_ft_open(void *ctx, const pv_view *owner, size_t detail, size_t row);

static void aq_ft_attach(pv_table *t, aq_ft_dctx *d)
{
    aq_ft_hook(t, d);
    switch (d->kind) {
    case AQ_FT_CALLS:
        pv_table_set_details(t, aq_ft_call_details, PV_ARRAY_LEN(aq_ft_call_details), aq_ft_open,
                             d, aq_ft_dctx_free);
        break;
    case AQ_FT_ROUTINES:
        pv_table_set_details(t, aq_ft_routine_details, PV_ARRAY_LEN(aq_ft_routine_details),
                             aq_ft_open, d, aq_ft_dctx_free);
        break;
    case AQ_FT_ROUTES:
        pv_table_set_details(t, aq_ft_route_details, PV_ARRAY_LEN(aq_ft_route_details),
                             aq_ft_open, d, aq_ft_dctx_free);
        break;
    }
}

/* ---- small helpers */

static void aq_set_int_col(pv_table *t, size_t row, size_t col, const aq_sel *s, size_t pos,
                           size_t src_col)
{
    int64_t v;
    if (pos != AQ_NONE && aq_int(s->t, s->rows[pos], src_col, &v))
        pv_table_set_int(t, row, col, v);
}

static void aq_set_text_col(pv_table *t, size_t row, size_t col, const aq_sel *s, size_t pos,
                            size_t src_col)
{
    char tmp[64];
    if (pos == AQ_NONE)
        return;
    const char *v = aq_text(s->t, s->rows[pos], src_col, tmp, sizeof tmp);
    if (v)
        pv_table_set_cstr(t, row, col, v);
}

static bool aq_sel_int(const aq_sel *s, size_t pos, const char *col, int64_t *out)
{
    return pos != AQ_NONE && aq_int(s->t, s->rows[pos], aq_col(s->t, col), out);
}

static int64_t aq_sel_int_or(const aq_sel *s, size_t pos, const char *col, int64_t dflt)
{
    int64_t v;
    return aq_sel_int(s, pos, col, &v) ? v : dflt;
}

/* A routines-view id for a meta routine: its ROUTINES ID, else its META ID. */
bool aq_ft_routine_id(const aq_ft *ft, size_t meta, int64_t *id)
{
    if (meta == AQ_NONE)
        return false;
    size_t r = ft->meta_routine[meta];
    if (r != AQ_NONE && aq_sel_int(&ft->routines, r, "ID", id))
        return true;
    return aq_sel_int(&ft->meta, meta, "ID", id);
}

/* The column (COL_ROUTINE_NAME or COL_RECID) that names a routine by id. */
static size_t aq_routine_ref_col(const aq_table *t, const char **name)
{
    size_t a = aq_col(t, "COL_ROUTINE_NAME"), b = aq_col(t, "COL_RECID");
    size_t pick = a;
    if (a != AQ_NONE && b != AQ_NONE) {
        if (!t->col_any_int || !t->col_any_int[a])
            pick = b;
    } else if (a == AQ_NONE) {
        pick = b;
    }
    *name = pick == a ? "COL_ROUTINE_NAME" : "COL_RECID";
    return pick;
}


/* ---- routines */

enum {
    RT_ID, RT_ROUTINE, RT_MODULE, RT_HITS, RT_TIME, RT_TWC, RT_MIN, RT_MAX, RT_AVG, RT_CALLS,
    RT_SOURCE, RT_LINE, RT_COUNT
};

static void aq_ft_routines(aq_ft *ft, const aq_routine_acc *acc)
{
    aq_ctx *c = &ft->c;
    const aq_table *t = ft->routines.t;
    pv_type tt = aq_counter_type(c);
    pv_column cols[RT_COUNT] = {
        {PV_COLUMN_ID, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_KEY},
        {PV_COLUMN_MODULE, PV_COL_KEY},
        {PV_COLUMN_HITS, PV_COL_DESC},
        {"time", "Time", tt, PV_COL_DESC},
        {"time_with_children", "Time with children", tt, PV_COL_DESC},
        {"min_time", "Min Time", tt, PV_COL_DESC},
        {"max_time", "Max Time", tt, PV_COL_DESC},
        {"avg_time", "Avg Time", tt, PV_COL_DESC},
        {"calls", "Calls in Trace", PV_TYPE_INT, PV_COL_DESC},
        {PV_COLUMN_SOURCE, 0},
        {PV_COLUMN_LINE, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_HIT_COUNT", "COL_MODULE_NAME",
                                           "COL_SOURCE_FILE", "COL_SOURCE_LINE", NULL};
    aq_view vb;
    aq_view_init(&vb, "routines", "Routines", cols, RT_COUNT, t, consumed);
    if (!c->time_counter) {
        const char *n = c->counter_name;
        char *titles[5] = {pv_xstrdup(n), pv_xasprintf("%s with Children", n),
                           pv_xasprintf("Min %s", n), pv_xasprintf("Max %s", n),
                           pv_xasprintf("Avg %s", n)};
        for (size_t k = 0; k < 5; k++) {
            pv_table_set_column_title(vb.t, RT_TIME + k, titles[k]);
            free(titles[k]);
        }
    }
    aq_ft_dctx *dctx = aq_ft_dctx_new(ft, AQ_FT_ROUTINES);
    char tmp[64];
    for (size_t i = 0; i < ft->routines.n; i++) {
        size_t src = ft->routines.rows[i];
        size_t row = pv_table_add_row(vb.t);
        aq_ft_dctx_push(dctx, i);
        size_t m = ft->routine_meta[i];
        int64_t v;
        if (aq_int(t, src, aq_col(t, "ID"), &v))
            pv_table_set_int(vb.t, row, RT_ID, v);
        const char *name = aq_routine_name(&ft->meta, m, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(vb.t, row, RT_ROUTINE, name);
        /* META_ROUTINES names the routine; the ROUTINES row where it is silent. */
        static const struct {
            size_t col;
            const char *name;
            bool text;
        } own[] = {{RT_MODULE, "COL_MODULE_NAME", true},
                   {RT_SOURCE, "COL_SOURCE_FILE", true},
                   {RT_LINE, "COL_SOURCE_LINE", false}};
        for (size_t k = 0; k < PV_ARRAY_LEN(own); k++) {
            bool meta_has = m != AQ_NONE &&
                            aq_cell(ft->meta.t, ft->meta.rows[m],
                                    aq_col(ft->meta.t, own[k].name)).kind != AQ_V_NULL;
            const aq_sel *from = meta_has ? &ft->meta : &ft->routines;
            size_t pos = meta_has ? m : i;
            size_t fc = aq_col(from->t, own[k].name);
            if (own[k].text)
                aq_set_text_col(vb.t, row, own[k].col, from, pos, fc);
            else
                aq_set_int_col(vb.t, row, own[k].col, from, pos, fc);
        }
        if (aq_int(t, src, aq_col(t, "COL_HIT_COUNT"), &v))
            pv_table_set_int(vb.t, row, RT_HITS, v);
        if (m != AQ_NONE) {
            const aq_routine_acc *a = &acc[m];
            pv_table_set_int(vb.t, row, RT_CALLS, (int64_t)a->calls);
            if (a->has_own) {
                /* docs/formats.md §5: the total is converted from the summed cycles. */
                pv_table_set_int(vb.t, row, RT_TIME, aq_counter_value(c, a->own));
                pv_table_set_int(vb.t, row, RT_MIN, aq_counter_value(c, a->min));
                pv_table_set_int(vb.t, row, RT_MAX, aq_counter_value(c, a->max));
                /* Average: round(total / calls) of the converted value. */
                __int128 calls = (__int128)a->calls;
                if (c->time_counter)
                    pv_table_set_int(vb.t, row, RT_AVG,
                                     aq_cycles_to_ns(a->own, c->frequency * (double)a->calls));
                else {
                    __int128 q = (a->own >= 0 ? a->own + calls / 2 : a->own - calls / 2) / calls;
                    pv_table_set_int(vb.t, row, RT_AVG, aq_counter_value(c, q));
                }
                pv_table_set_int(vb.t, row, RT_TWC, aq_counter_value(c, a->wc_once));
            } else if (a->calls == 0) {
                pv_table_set_int(vb.t, row, RT_TIME, 0);
                pv_table_set_int(vb.t, row, RT_TWC, 0);
            }
        }
        aq_view_fill_extras(&vb, row, src);
    }
    pv_table *tab = aq_view_finish(&vb);
    aq_ft_attach(tab, dctx);
    pv_set_add_view(c->set, pv_table_view(tab));
}

/* ---- call routes (top level and detail of a routine) */

enum { CR_ID, CR_ROUTE_NO, CR_HITS, CR_ROUTINE_ID, CR_ROUTINE, CR_COUNT };

static pv_table *aq_ft_routes_table(aq_ft *ft, size_t routine /* AQ_NONE: all */)
{
    const aq_table *t = ft->routes.t;
    static const pv_column cols[CR_COUNT] = {
        {PV_COLUMN_ID, 0},
        {"route_no", "Route No", PV_TYPE_INT, 0},
        {PV_COLUMN_HITS, PV_COL_DESC},
        {"routine_id", "Routine Id", PV_TYPE_INT, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_ROUTE_NO", "COL_HIT_COUNT",
                                           "COL_RECID", NULL};
    aq_view vb;
    aq_view_init(&vb, "call-routes", "Call Routes", cols, CR_COUNT, t, consumed);
    aq_ft_dctx *dctx = aq_ft_dctx_new(ft, AQ_FT_ROUTES);
    char tmp[64];
    for (size_t i = 0; i < ft->routes.n; i++) {
        if (routine != AQ_NONE && ft->route_routine[i] != routine)
            continue;
        size_t src = ft->routes.rows[i];
        size_t row = pv_table_add_row(vb.t);
        aq_ft_dctx_push(dctx, i);
        aq_set_int_col(vb.t, row, CR_ID, &ft->routes, i, aq_col(t, "ID"));
        aq_set_int_col(vb.t, row, CR_ROUTE_NO, &ft->routes, i, aq_col(t, "COL_ROUTE_NO"));
        aq_set_int_col(vb.t, row, CR_HITS, &ft->routes, i, aq_col(t, "COL_HIT_COUNT"));
        size_t r = ft->route_routine[i];
        if (r != AQ_NONE)
            aq_set_int_col(vb.t, row, CR_ROUTINE_ID, &ft->routines, r,
                           aq_col(ft->routines.t, "ID"));
        size_t m = ft->route_meta[i] != AQ_NONE ? ft->route_meta[i]
                   : r != AQ_NONE              ? ft->routine_meta[r]
                                               : AQ_NONE;
        const char *name = aq_routine_name(&ft->meta, m, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(vb.t, row, CR_ROUTINE, name);
        aq_view_fill_extras(&vb, row, src);
    }
    pv_table *tab = aq_view_finish(&vb);
    aq_ft_attach(tab, dctx);
    return tab;
}

/* ---- details */

typedef struct aq_pos_key {
    int64_t a, b;
    size_t pos;
} aq_pos_key;

static int aq_pos_key_cmp(const void *x, const void *y)
{
    const aq_pos_key *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return (p->pos > q->pos) - (p->pos < q->pos);
}

enum { CS_ID, CS_POSITION, CS_ROUTINE, CS_MODULE, CS_SOURCE, CS_LINE, CS_COUNT };

static pv_view *aq_ft_call_stack(aq_ft *ft, size_t route)
{
    const aq_table *t = ft->stacks.t;
    static const pv_column cols[CS_COUNT] = {
        {PV_COLUMN_ID, 0},
        {"position", "Call No", PV_TYPE_INT, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME},
        {PV_COLUMN_MODULE, 0},
        {PV_COLUMN_SOURCE, 0},
        {PV_COLUMN_LINE, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_CALL_NO", "COL_MODULE_NAME",
                                           "COL_ROUTINE_NAME", "COL_SOURCE_FILE",
                                           "COL_SOURCE_LINE", NULL};
    aq_view vb;
    aq_view_init(&vb, "call-stack", "Call Stack", cols, CS_COUNT, t, consumed);
    aq_pos_key *keys = pv_xmalloc((ft->stacks.n ? ft->stacks.n : 1) * sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < ft->stacks.n; i++) {
        if (ft->stack_route[i] != route)
            continue;
        int64_t p = aq_sel_int_or(&ft->stacks, i, "COL_CALL_NO",
                                  aq_sel_int_or(&ft->stacks, i, "REC_ID", INT64_MAX));
        keys[n++] = (aq_pos_key){p, aq_sel_int_or(&ft->stacks, i, "ID", 0), i};
    }
    qsort(keys, n, sizeof *keys, aq_pos_key_cmp);
    char tmp[64];
    for (size_t k = 0; k < n; k++) {
        size_t i = keys[k].pos, src = ft->stacks.rows[i];
        size_t row = pv_table_add_row(vb.t);
        size_t m = ft->stack_meta[i];
        aq_set_int_col(vb.t, row, CS_ID, &ft->stacks, i, aq_col(t, "ID"));
        if (keys[k].a != INT64_MAX)
            pv_table_set_int(vb.t, row, CS_POSITION, keys[k].a);
        const char *name = aq_routine_name(&ft->meta, m, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(vb.t, row, CS_ROUTINE, name);
        static const struct {
            size_t col;
            const char *name;
            bool text;
        } own[] = {{CS_MODULE, "COL_MODULE_NAME", true},
                   {CS_SOURCE, "COL_SOURCE_FILE", true},
                   {CS_LINE, "COL_SOURCE_LINE", false}};
        for (size_t j = 0; j < PV_ARRAY_LEN(own); j++) {
            bool has = aq_cell(t, src, aq_col(t, own[j].name)).kind != AQ_V_NULL;
            const aq_sel *from = has ? &ft->stacks : &ft->meta;
            size_t pos = has ? i : m;
            if (own[j].text)
                aq_set_text_col(vb.t, row, own[j].col, from, pos, aq_col(from->t, own[j].name));
            else
                aq_set_int_col(vb.t, row, own[j].col, from, pos, aq_col(from->t, own[j].name));
        }
        aq_view_fill_extras(&vb, row, src);
    }
    free(keys);
    return pv_table_view(aq_view_finish(&vb));
}

pv_view *aq_ft_parameters(aq_ft *ft, bool on_exit, size_t call)
{
    const aq_sel *s = on_exit ? &ft->exit : &ft->enter;
    const size_t *link = on_exit ? ft->exit_call : ft->enter_call;
    const aq_table *t = s->t;
    pv_column cols[5] = {
        {PV_COLUMN_ID, 0},
        {"param_no", "Param No", PV_TYPE_INT, 0},
        {"type", "Param Type", PV_TYPE_STRING, 0},
        {"value", "Param Value", PV_TYPE_STRING, PV_COL_NAME},
        {"comment", "Comment", PV_TYPE_STRING, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_PARAM_NO", "COL_PARAM_TYPE",
                                           "COL_PARAM_VALUE", "COL_COMMENT", NULL};
    aq_view vb;
    aq_view_init(&vb, on_exit ? "parameters-on-exit" : "parameters-on-enter",
                 on_exit ? "Parameters on Exit" : "Parameters on Enter", cols, on_exit ? 5 : 4, t,
                 consumed);
    aq_pos_key *keys = pv_xmalloc((s->n ? s->n : 1) * sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (link[i] == call)
            keys[n++] = (aq_pos_key){aq_sel_int_or(s, i, "COL_PARAM_NO", INT64_MAX),
                                     aq_sel_int_or(s, i, "ID", 0), i};
    qsort(keys, n, sizeof *keys, aq_pos_key_cmp);
    for (size_t k = 0; k < n; k++) {
        size_t i = keys[k].pos;
        size_t row = pv_table_add_row(vb.t);
        aq_set_int_col(vb.t, row, 0, s, i, aq_col(t, "ID"));
        aq_set_int_col(vb.t, row, 1, s, i, aq_col(t, "COL_PARAM_NO"));
        aq_set_text_col(vb.t, row, 2, s, i, aq_col(t, "COL_PARAM_TYPE"));
        aq_set_text_col(vb.t, row, 3, s, i, aq_col(t, "COL_PARAM_VALUE"));
        if (on_exit)
            aq_set_text_col(vb.t, row, 4, s, i, aq_col(t, "COL_COMMENT"));
        aq_view_fill_extras(&vb, row, s->rows[i]);
    }
    free(keys);
    return pv_table_view(aq_view_finish(&vb));
}

/* Callers (or callees) of the routine whose meta position is `m`: calls
 * between the two routines, with the total time with children of those calls
 * (docs/cli.md). */
static pv_view *aq_ft_callers(aq_ft *ft, size_t m, bool callees)
{
    static const pv_column cols[] = {
        {PV_COLUMN_ID, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME},
        {PV_COLUMN_HITS, PV_COL_DESC},
        {"time", "Time with children", PV_TYPE_TIME, PV_COL_DESC}, /* not the shared column */
    };
    pv_column cc[4];
    memcpy(cc, cols, sizeof cc);
    cc[3].type = aq_counter_type(&ft->c);
    pv_table *t = pv_table_new(callees ? "callees" : "callers", callees ? "Callees" : "Callers",
                               cc, 4);
    size_t nm = ft->meta.n + 1; /* last slot: calls whose routine is unknown */
    size_t *hits = pv_xcalloc(nm, sizeof *hits);
    __int128 *time = pv_xcalloc(nm, sizeof *time);
    size_t *order = pv_xmalloc(nm * sizeof *order);
    size_t order_n = 0;
    for (size_t i = 0; i < ft->calls.n; i++) {
        size_t p = aq_u32_pos(ft->call_parent[i]);
        if (p == AQ_NONE)
            continue;
        size_t me = callees ? aq_u32_pos(ft->call_meta[p]) : aq_u32_pos(ft->call_meta[i]);
        size_t other = callees ? aq_u32_pos(ft->call_meta[i]) : aq_u32_pos(ft->call_meta[p]);
        if (me != m)
            continue;
        size_t slot = other == AQ_NONE ? ft->meta.n : other;
        if (hits[slot]++ == 0)
            order[order_n++] = slot;
        int64_t wc;
        if (aq_ft_wc(ft, i, &wc))
            time[slot] += wc;
    }
    char tmp[64];
    for (size_t k = 0; k < order_n; k++) {
        size_t slot = order[k];
        size_t row = pv_table_add_row(t);
        int64_t id;
        if (slot < ft->meta.n && aq_ft_routine_id(ft, slot, &id))
            pv_table_set_int(t, row, 0, id);
        const char *name = aq_routine_name(&ft->meta, slot < ft->meta.n ? slot : AQ_NONE, tmp,
                                           sizeof tmp);
        if (name)
            pv_table_set_cstr(t, row, 1, name);
        pv_table_set_int(t, row, 2, (int64_t)hits[slot]);
        pv_table_set_int(t, row, 3, aq_counter_value(&ft->c, time[slot]));
    }
    free(hits);
    free(time);
    free(order);
    return pv_table_view(t);
}

enum { LN_ID, LN_FUNCTION, LN_ROUTINE_ID, LN_LINE, LN_SOURCE, LN_MODULE, LN_COUNT };

static pv_table *aq_ft_lines(aq_ft *ft, size_t m /* AQ_NONE: all */)
{
    const aq_table *t = ft->lines.t;
    static const pv_column cols[LN_COUNT] = {
        {PV_COLUMN_ID, 0},
        {"function", "Routine", PV_TYPE_STRING, PV_COL_NAME},
        {"routine_id", "Routine Id", PV_TYPE_INT, 0},
        {PV_COLUMN_LINE, 0},
        {PV_COLUMN_SOURCE, 0},
        {PV_COLUMN_MODULE, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_SOURCE_LINE", NULL};
    aq_view vb;
    aq_view_init(&vb, "lines", "Lines", cols, LN_COUNT, t, consumed);
    char tmp[64];
    for (size_t i = 0; i < ft->lines.n; i++) {
        size_t lm = ft->line_meta[i];
        if (m != AQ_NONE && lm != m)
            continue;
        size_t row = pv_table_add_row(vb.t);
        aq_set_int_col(vb.t, row, LN_ID, &ft->lines, i, aq_col(t, "ID"));
        aq_set_int_col(vb.t, row, LN_LINE, &ft->lines, i, aq_col(t, "COL_SOURCE_LINE"));
        const char *name = aq_routine_name(&ft->meta, lm, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(vb.t, row, LN_FUNCTION, name);
        int64_t id;
        if (aq_ft_routine_id(ft, lm, &id))
            pv_table_set_int(vb.t, row, LN_ROUTINE_ID, id);
        aq_set_text_col(vb.t, row, LN_SOURCE, &ft->meta, lm, aq_col(ft->meta.t, "COL_SOURCE_FILE"));
        aq_set_text_col(vb.t, row, LN_MODULE, &ft->meta, lm, aq_col(ft->meta.t, "COL_MODULE_NAME"));
        aq_view_fill_extras(&vb, row, ft->lines.rows[i]);
    }
    return aq_view_finish(&vb);
}

static const char *aq_param_type_name(int64_t id)
{
    static const char *const names[] = {
        "Unknown",   "Void",      "Char",      "Uchar",     "Widechar",   "Pascal Char",
        "Pchar",     "Short",     "USHORT",    "Integer",   "Uinteger",   "Long",
        "Ulong",     "Integer64", "Uinteger64", "Float",    "Double",     "Real48",
        "Extended",  "Real128",   "Complex",   "Complex32", "Complex64",  "Complex80",
        "Complex128", "BCD",      "Boolean",   "WordBool",  "LongBool",   "Currency",
        "Date",      "Variant",   "Bit",       "Bstr",      "HResult",    "Enum",
        "Pointer",   "Function",  "Class",     "Struct",    "Union",      "Subrange",
        "Modifier",  "Lstring",   "WideString", "Set",      "Classref",   "Interface",
    };
    return id >= 0 && (size_t)id < PV_ARRAY_LEN(names) ? names[id] : NULL;
}

static pv_view *aq_ft_meta_parameters(aq_ft *ft, size_t m)
{
    const aq_table *t = ft->mparams.t;
    static const pv_column cols[] = {
        {PV_COLUMN_ID, 0},
        {"param_no", "Param No", PV_TYPE_INT, 0},
        {"name", "Type Name", PV_TYPE_STRING, PV_COL_NAME},
        {"type", "Type", PV_TYPE_STRING, 0},
        {"size", "Size", PV_TYPE_INT, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "REC_ID", "COL_TYPENAME",
                                           "COL_TYPEMEMSIZE", NULL};
    aq_view vb;
    aq_view_init(&vb, "meta-parameters", "Parameters", cols, PV_ARRAY_LEN(cols), t, consumed);
    aq_pos_key *keys = pv_xmalloc((ft->mparams.n ? ft->mparams.n : 1) * sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < ft->mparams.n; i++)
        if (ft->mparam_meta[i] == m)
            keys[n++] = (aq_pos_key){aq_sel_int_or(&ft->mparams, i, "REC_ID", INT64_MAX),
                                     aq_sel_int_or(&ft->mparams, i, "ID", 0), i};
    qsort(keys, n, sizeof *keys, aq_pos_key_cmp);
    for (size_t k = 0; k < n; k++) {
        size_t i = keys[k].pos;
        size_t row = pv_table_add_row(vb.t);
        aq_set_int_col(vb.t, row, 0, &ft->mparams, i, aq_col(t, "ID"));
        aq_set_int_col(vb.t, row, 1, &ft->mparams, i, aq_col(t, "REC_ID"));
        aq_set_text_col(vb.t, row, 2, &ft->mparams, i, aq_col(t, "COL_TYPENAME"));
        int64_t ty;
        if (aq_sel_int(&ft->mparams, i, "COL_TYPEID", &ty) && aq_param_type_name(ty))
            pv_table_set_cstr(vb.t, row, 3, aq_param_type_name(ty));
        aq_set_int_col(vb.t, row, 4, &ft->mparams, i, aq_col(t, "COL_TYPEMEMSIZE"));
        aq_view_fill_extras(&vb, row, ft->mparams.rows[i]);
    }
    free(keys);
    return pv_table_view(aq_view_finish(&vb));
}

/* The source file of a routine, the routines of the same file at their
 * lines in the gutter (docs/source.md). */
static pv_view *aq_ft_source(const pv_view *routines, size_t row)
{
    static const char *const figs[] = {"routine", "hits", "time", "time_with_children", NULL};
    return pv_source_of_row(routines, row, "source", "line", NULL, NULL, figs);
}

/* The source file around a meta line, the routine each line belongs to in
 * the gutter. */
static pv_view *aq_ft_line_source(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)ctx;
    (void)detail;
    static const char *const figs[] = {"function", NULL};
    return pv_source_of_row(owner, row, "source", "line", NULL, NULL, figs);
}

static pv_view *aq_ft_open(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    aq_ft_dctx *d = ctx;
    if (row >= d->n)
        return NULL;
    aq_ft *ft = d->ft;
    size_t pos = aq_ft_dctx_pos(d, row);
    switch (d->kind) {
    case AQ_FT_CALLS:
        return aq_ft_parameters(ft, detail == 1, pos);
    case AQ_FT_ROUTES:
        return aq_ft_call_stack(ft, pos);
    case AQ_FT_ROUTINES:
        switch (detail) {
        case 0: return pv_table_view(aq_ft_routes_table(ft, pos));
        case 1: return ft->routine_meta[pos] == AQ_NONE ? NULL
                                                        : aq_ft_callers(ft, ft->routine_meta[pos], false);
        case 2: return ft->routine_meta[pos] == AQ_NONE ? NULL
                                                        : aq_ft_callers(ft, ft->routine_meta[pos], true);
        case 3: return ft->routine_meta[pos] == AQ_NONE ? NULL
                                                        : pv_table_view(aq_ft_lines(ft, ft->routine_meta[pos]));
        case 4: return ft->routine_meta[pos] == AQ_NONE ? NULL
                                                        : aq_ft_meta_parameters(ft, ft->routine_meta[pos]);
        case 5: return aq_ft_source(owner, row);
        }
    }
    return NULL;
}

void aq_build_trace(aq_ctx *c)
{
    aq_ft *ft = pv_xcalloc(1, sizeof *ft);
    ft->c = *c;
    ft->c.counter_name = NULL; /* owned by the caller; copied below where needed */
    aq_db_own(c->db, ft, aq_ft_free);
    aq_table *T = c->db->tables;
    aq_select(&ft->threads, &T[AQ_T_FT_THREADS], c->inst);
    aq_select(&ft->calls, &T[AQ_T_FT_CALL_TRACE], c->inst);
    aq_select(&ft->meta, &T[AQ_T_FT_META_ROUTINES], c->inst);
    aq_select(&ft->routines, &T[AQ_T_FT_ROUTINES], c->inst);
    aq_select(&ft->routes, &T[AQ_T_FT_CALL_ROUTES], c->inst);
    aq_select(&ft->stacks, &T[AQ_T_FT_CALL_STACK], c->inst);
    aq_select(&ft->lines, &T[AQ_T_FT_META_LINES], c->inst);
    aq_select(&ft->enter, &T[AQ_T_FT_PARAMS_ENTER], c->inst);
    aq_select(&ft->exit, &T[AQ_T_FT_PARAMS_EXIT], c->inst);
    aq_select(&ft->mparams, &T[AQ_T_FT_METAPARAMETERS], c->inst);
    ft->c.counter_name = c->counter_name;

    /* Links (docs/formats.md §5), always inside this INST_ID. */
    const char *rname;
    size_t rcol;
    ft->call_thread = aq_narrow(aq_link(c, &ft->calls, aq_col(ft->calls.t, "PARENT_ID"),
                                        "PARENT_ID", &ft->threads, aq_id_only, 1),
                                ft->calls.n);
    rcol = aq_routine_ref_col(ft->calls.t, &rname);
    ft->call_meta = aq_narrow(aq_link(c, &ft->calls, rcol, rname, &ft->meta, aq_id_then_rec, 2),
                              ft->calls.n);
    ft->routine_meta = aq_link(c, &ft->routines, aq_col(ft->routines.t, "REC_ID"), "REC_ID",
                               &ft->meta, aq_id_then_rec, 2);
    ft->route_routine = aq_link(c, &ft->routes, aq_col(ft->routes.t, "PARENT_ID"), "PARENT_ID",
                                &ft->routines, aq_id_then_rec, 2);
    ft->route_meta = aq_link(c, &ft->routes, aq_col(ft->routes.t, "COL_RECID"), "COL_RECID",
                             &ft->meta, aq_id_then_rec, 2);
    ft->stack_route = aq_link(c, &ft->stacks, aq_col(ft->stacks.t, "PARENT_ID"), "PARENT_ID",
                              &ft->routes, aq_id_only, 1);
    rcol = aq_routine_ref_col(ft->stacks.t, &rname);
    ft->stack_meta = aq_link(c, &ft->stacks, rcol, rname, &ft->meta, aq_id_then_rec, 2);
    ft->line_meta = aq_link(c, &ft->lines, aq_col(ft->lines.t, "PARENT_ID"), "PARENT_ID",
                            &ft->meta, aq_id_then_rec, 2);
    ft->enter_call = aq_link(c, &ft->enter, aq_col(ft->enter.t, "PARENT_ID"), "PARENT_ID",
                             &ft->calls, aq_id_then_rec, 2);
    ft->exit_call = aq_link(c, &ft->exit, aq_col(ft->exit.t, "PARENT_ID"), "PARENT_ID",
                            &ft->calls, aq_id_then_rec, 2);
    ft->mparam_meta = aq_link(c, &ft->mparams, aq_col(ft->mparams.t, "PARENT_ID"), "PARENT_ID",
                              &ft->meta, aq_id_then_rec, 2);
    ft->meta_routine = pv_xmalloc((ft->meta.n ? ft->meta.n : 1) * sizeof *ft->meta_routine);
    for (size_t i = 0; i < ft->meta.n; i++)
        ft->meta_routine[i] = AQ_NONE;
    for (size_t i = 0; i < ft->routines.n; i++)
        if (ft->routine_meta[i] != AQ_NONE && ft->meta_routine[ft->routine_meta[i]] == AQ_NONE)
            ft->meta_routine[ft->routine_meta[i]] = i;

    size_t n = ft->calls.n ? ft->calls.n : 1;
    ft->call_parent = pv_xmalloc(n * sizeof *ft->call_parent);
    ft->col_own = aq_col(ft->calls.t, "COL__S");
    ft->col_wc = aq_col(ft->calls.t, "COL__S_WITH_CHILDREN");

    aq_build_threads(c, AQ_T_FT_THREADS);
    aq_routine_acc *acc = pv_xcalloc(ft->meta.n + 1, sizeof *acc);
    aq_ft_call_trace(ft, acc);
    aq_ft_routines(ft, acc);
    free(acc);
    pv_set_add_view(c->set, pv_table_view(aq_ft_routes_table(ft, AQ_NONE)));
    pv_table *lines = aq_ft_lines(ft, AQ_NONE);
    pv_table_set_details(lines, aq_ft_line_details, PV_ARRAY_LEN(aq_ft_line_details),
                         aq_ft_line_source, NULL, NULL);
    pv_set_add_view(c->set, pv_table_view(lines));
    /* After the load, builders must not report through the file. */
    ft->c.f = NULL;
    ft->c.set = NULL;
    ft->c.counter_name = NULL;
}
