/* aqtime_trace.c - the Function Trace result set (docs/formats.md §5; seed
 * aqtime-function-trace-db.txt): threads, the call trace as a tree per
 * thread, routines with times aggregated from the trace, call routes and
 * their call stacks, parameters on enter/exit, callers/callees, meta lines
 * and meta parameters. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "profview/source.h"
#include "aqtime.h"

#define AQ_NONE32 UINT32_MAX

static inline size_t aq_u32_pos(uint32_t v)
{
    return v == AQ_NONE32 ? AQ_NONE : v;
}

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

typedef struct aq_ft {
    aq_ctx c; /* copy; c.f and c.set are valid during the load only */
    aq_sel threads, calls, meta, routines, routes, stacks, lines, enter, exit, mparams;
    /* per call, 32 bits each (docs/aqtime.md, Scale); AQ_NONE32: none */
    uint32_t *call_thread; /* call -> thread pos */
    uint32_t *call_meta;   /* call -> meta pos */
    uint32_t *call_parent; /* call -> parent call pos (after cycles are broken) */
    size_t col_own, col_wc; /* COL__S, COL__S_WITH_CHILDREN of the calls */
    size_t *routine_meta; /* routines pos -> meta pos */
    size_t *meta_routine; /* meta pos -> routines pos */
    size_t *route_routine;
    size_t *route_meta;
    size_t *stack_route;
    size_t *stack_meta;
    size_t *line_meta;
    size_t *enter_call, *exit_call;
    size_t *mparam_meta;
    /* Capability hooks (profview/hooks.h, docs/aqtime.md "In the viewer"):
     * the call-trace view and, built on first use, its rows by call and the
     * first row of every routine. */
    pv_view *trace_view;
    struct aq_ft_dctx *trace_rows; /* call-trace row -> call */
    size_t *call_row;              /* call -> call-trace row */
    size_t *meta_first_row;        /* meta pos (meta.n: unknown) -> first row, AQ_NONE */
    char **lane_names;             /* thread pos -> "Thread <OS id>" */
    size_t lane_count;
} aq_ft;

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
static bool aq_ft_own(const aq_ft *ft, size_t call, int64_t *v)
{
    return aq_int(ft->calls.t, ft->calls.rows[call], ft->col_own, v);
}

static bool aq_ft_wc(const aq_ft *ft, size_t call, int64_t *v)
{
    return aq_int(ft->calls.t, ft->calls.rows[call], ft->col_wc, v);
}

/* ---- detail plumbing: each table with details keeps its rows' sources */

enum aq_ft_kind { AQ_FT_CALLS, AQ_FT_ROUTINES, AQ_FT_ROUTES };

typedef struct aq_ft_dctx {
    aq_ft *ft;
    enum aq_ft_kind kind;
    size_t *src; /* view row -> position in the kind's selection */
    size_t n;
    size_t cap;
    /* the call trace (a view of its own): its row -> call array instead */
    const uint32_t *pos32;
} aq_ft_dctx;

/* The position in the kind's selection of view row `row` (< d->n). */
static inline size_t aq_ft_dctx_pos(const aq_ft_dctx *d, size_t row)
{
    return d->pos32 ? d->pos32[row] : d->src[row];
}

static aq_ft_dctx *aq_ft_dctx_new(aq_ft *ft, enum aq_ft_kind kind)
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

static void aq_ft_dctx_free(void *p)
{
    aq_ft_dctx *d = p;
    free(d->src);
    free(d);
}

static const pv_detail_def aq_ft_call_details[] = {
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
static void aq_ft_hook(pv_table *t, aq_ft_dctx *d);
static void aq_ft_hook_view(pv_view *v, aq_ft_dctx *d);

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
static bool aq_ft_routine_id(const aq_ft *ft, size_t meta, int64_t *id)
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

static pv_view *aq_ft_parameters(aq_ft *ft, bool on_exit, size_t call);

/* ---- call trace */

typedef struct aq_call_key {
    int64_t rec;
    uint32_t thread; /* AQ_NONE32: none */
    uint32_t pos;
} aq_call_key;

static int aq_call_key_cmp(const void *a, const void *b)
{
    const aq_call_key *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->rec != y->rec)
        return x->rec < y->rec ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

enum {
    CT_ID, CT_PARENT, CT_CALL_NO, CT_ROUTINE, CT_DEPTH, CT_THREAD, CT_TIME, CT_TWC, CT_MODULE,
    CT_LINE, CT_ROUTINE_ID, CT_COUNT
};

typedef struct aq_routine_acc {
    size_t calls;
    __int128 own, wc_once;
    int64_t min, max;
    bool has_own;
} aq_routine_acc;

/* The call trace is a view of its own (docs/aqtime.md, Scale): per row only
 * the call's position, its parent row and its depth are kept (12 bytes); the
 * cells are read from the call table when asked.  Strings come from pools
 * that live as long as the view (a sort keeps their pointers). */
typedef struct aq_ct_view {
    pv_view view;
    aq_ft *ft;
    size_t n;
    uint32_t *pos;    /* row -> call position in ft->calls */
    uint32_t *parent; /* row -> parent row, UINT32_MAX at the top */
    uint32_t *depth;
    size_t col_id, col_cno, col_line, col_os;
    uint32_t *meta_name, *meta_module; /* meta pos -> offset in pool, UINT32_MAX: none */
    size_t fixed, extra_count;
    size_t *extra_src;
    uint32_t **extra_text; /* per extra string column holding numbers: row -> pool offset */
    pv_strpool pool;
    aq_ft_dctx *hook_rows; /* the hooks' context: rows by cv->pos (pos32) */
} aq_ct_view;

static size_t aq_ct_rows(const pv_view *v)
{
    return ((const aq_ct_view *)v->impl)->n;
}

static size_t aq_ct_parent(const pv_view *v, size_t row)
{
    uint32_t p = ((const aq_ct_view *)v->impl)->parent[row];
    return p == UINT32_MAX ? PV_NO_ROW : p;
}

/* Sets out to the string s (which outlives out). */
static void aq_cell_set_str(pv_cell *out, const char *s)
{
    out->present = true;
    out->v.s.ptr = s;
    out->v.s.len = strlen(s);
}

static void aq_ct_str(const aq_ct_view *cv, uint32_t off, pv_cell *out)
{
    if (off != UINT32_MAX)
        aq_cell_set_str(out, pv_strpool_get(&cv->pool, off));
}

/* The cell of extra column e, as aq_view_fill_extras would have written it. */
static void aq_ct_extra_cell(const aq_ct_view *cv, size_t row, size_t e, pv_cell *out)
{
    const aq_table *t = cv->ft->calls.t;
    size_t src = cv->ft->calls.rows[cv->pos[row]];
    size_t sc = cv->extra_src[e];
    switch (out->type) {
    case PV_TYPE_STRING:
        if (cv->extra_text[e]) {
            aq_ct_str(cv, cv->extra_text[e][row], out);
        } else {
            aq_value val = aq_cell(t, src, sc);
            if (val.kind == AQ_V_TEXT)
                aq_cell_set_str(out, pv_strpool_get(&t->pool, val.v.s));
        }
        return;
    case PV_TYPE_FLOAT:
        out->present = aq_real(t, src, sc, &out->v.f);
        return;
    default:
        if (aq_cell(t, src, sc).kind != AQ_V_TEXT)
            out->present = aq_int(t, src, sc, &out->v.i);
        return;
    }
}

static void aq_ct_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const aq_ct_view *cv = v->impl;
    const aq_ft *ft = cv->ft;
    const aq_table *t = ft->calls.t;
    size_t call = cv->pos[row];
    size_t src = ft->calls.rows[call];
    int64_t i;
    out->type = v->columns[col].type;
    out->present = false;
    out->v.u = 0;
    size_t m = aq_u32_pos(ft->call_meta[call]);
    switch (col) {
    case CT_ID:
        out->present = aq_int(t, src, cv->col_id, &out->v.i);
        return;
    case CT_PARENT:
        if (cv->parent[row] != UINT32_MAX)
            out->present = aq_int(t, ft->calls.rows[cv->pos[cv->parent[row]]], cv->col_id,
                                  &out->v.i);
        return;
    case CT_CALL_NO:
        out->present = aq_int(t, src, cv->col_cno, &out->v.i);
        return;
    case CT_ROUTINE:
        if (m != AQ_NONE)
            aq_ct_str(cv, cv->meta_name[m], out);
        return;
    case CT_DEPTH:
        out->present = true;
        out->v.i = cv->depth[row];
        return;
    case CT_THREAD:
        if (aq_u32_pos(ft->call_thread[call]) != AQ_NONE)
            out->present = aq_int(ft->threads.t, ft->threads.rows[aq_u32_pos(ft->call_thread[call])],
                                  cv->col_os, &out->v.i);
        return;
    case CT_TIME:
        if (aq_ft_own(ft, call, &i)) {
            out->present = true;
            out->v.i = aq_counter_value(&ft->c, i);
        }
        return;
    case CT_TWC:
        if (aq_ft_wc(ft, call, &i)) {
            out->present = true;
            out->v.i = aq_counter_value(&ft->c, i);
        }
        return;
    case CT_MODULE:
        if (m != AQ_NONE)
            aq_ct_str(cv, cv->meta_module[m], out);
        return;
    case CT_LINE:
        out->present = aq_int(t, src, cv->col_line, &out->v.i);
        return;
    case CT_ROUTINE_ID:
        out->present = aq_ft_routine_id(ft, m, &out->v.i);
        return;
    default:
        aq_ct_extra_cell(cv, row, col - cv->fixed, out);
        return;
    }
}

static pv_view *aq_ct_detail(const pv_view *v, size_t detail, size_t row)
{
    const aq_ct_view *cv = v->impl;
    if (row >= cv->n)
        return NULL;
    return aq_ft_parameters(cv->ft, detail == 1, cv->pos[row]);
}

static void aq_ct_destroy(pv_view *v)
{
    aq_ct_view *cv = v->impl;
    pv_view_free_names(v);
    free(cv->pos);
    free(cv->parent);
    free(cv->depth);
    free(cv->meta_name);
    free(cv->meta_module);
    for (size_t e = 0; e < cv->extra_count; e++)
        free(cv->extra_text[e]);
    free(cv->extra_text);
    free(cv->extra_src);
    pv_strpool_free(&cv->pool);
    aq_ft_dctx_free(cv->hook_rows);
    free(cv);
}

static const pv_view_ops aq_ct_ops = {
    aq_ct_rows, aq_ct_cell, aq_ct_parent, aq_ct_detail, aq_ct_destroy, NULL,
};

/* Stable text of a cell for the view's pool, or UINT32_MAX when absent. */
static uint32_t aq_ct_keep(aq_ct_view *cv, const aq_table *t, size_t row, size_t col)
{
    char tmp[64];
    const char *s = aq_text(t, row, col, tmp, sizeof tmp);
    return s ? pv_strpool_add(&cv->pool, s, strlen(s)) : UINT32_MAX;
}

/* Sibling order: COL_CALL_NO, then ID, then table order. */
typedef struct aq_sib_ctx {
    const aq_ft *ft;
    size_t col_cno, col_id;
} aq_sib_ctx;
static _Thread_local const aq_sib_ctx *aq_sib;

static int aq_sib_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const aq_table *t = aq_sib->ft->calls.t;
    const uint32_t *rows = aq_sib->ft->calls.rows;
    int64_t xa = INT64_MAX, ya = INT64_MAX;
    aq_int(t, rows[x], aq_sib->col_cno, &xa);
    aq_int(t, rows[y], aq_sib->col_cno, &ya);
    if (xa != ya)
        return xa < ya ? -1 : 1;
    xa = ya = INT64_MAX;
    aq_int(t, rows[x], aq_sib->col_id, &xa);
    aq_int(t, rows[y], aq_sib->col_id, &ya);
    if (xa != ya)
        return xa < ya ? -1 : 1;
    return (x > y) - (x < y);
}

/* The call trace view with its columns (the extra ones as a table of them
 * would have them) and the routines' strings in its pool; no rows yet. */
static aq_ct_view *aq_ct_new(aq_ft *ft)
{
    aq_ctx *c = &ft->c;
    const aq_table *t = ft->calls.t;
    pv_column cols[CT_COUNT] = {
        {PV_COLUMN_ID, 0},
        {PV_COLUMN_PARENT, PV_COL_HIDDEN},
        {"call_no", "Call No", PV_TYPE_INT, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_TREE},
        {PV_COLUMN_DEPTH, PV_COL_HIDDEN},
        {"thread", "Thread", PV_TYPE_INT, PV_COL_LANE},
        {"time", "Time", aq_counter_type(c), PV_COL_DESC},
        {"time_with_children", "Time with children", aq_counter_type(c), PV_COL_DESC},
        {PV_COLUMN_MODULE, 0},
        {PV_COLUMN_LINE, 0},
        {"routine_id", "Routine Id", PV_TYPE_INT, PV_COL_HIDDEN},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL__S", "COL__S_WITH_CHILDREN",
                                           "COL_CALL_NO", "COL_PARENT_NO", "COL_ROUTINE_NAME",
                                           "COL_LINE_NUMBER", NULL};
    aq_view vb;
    aq_view_init(&vb, "call-trace", "Call Trace", cols, CT_COUNT, t, consumed);
    if (!c->time_counter) {
        char *title = pv_xasprintf("%s with Children", c->counter_name);
        pv_table_set_column_title(vb.t, CT_TIME, c->counter_name);
        pv_table_set_column_title(vb.t, CT_TWC, title);
        free(title);
    }
    aq_ct_view *cv = pv_xcalloc(1, sizeof *cv);
    cv->ft = ft;
    pv_strpool_init(&cv->pool);
    const pv_view *tv = pv_table_view(vb.t);
    cv->view.ops = &aq_ct_ops;
    cv->view.impl = cv;
    pv_view_copy_names(&cv->view, tv->id, tv->title, tv->columns, tv->column_count);
    cv->view.details = aq_ft_call_details;
    cv->view.detail_count = PV_ARRAY_LEN(aq_ft_call_details);
    cv->fixed = vb.fixed;
    cv->extra_count = vb.extra_count;
    cv->extra_src = pv_xmalloc((vb.extra_count ? vb.extra_count : 1) * sizeof *cv->extra_src);
    memcpy(cv->extra_src, vb.extra_src, vb.extra_count * sizeof *cv->extra_src);
    cv->extra_text = pv_xcalloc(vb.extra_count ? vb.extra_count : 1, sizeof *cv->extra_text);
    pv_view_free(pv_table_view(aq_view_finish(&vb)));

    cv->col_id = aq_col(t, "ID");
    cv->col_cno = aq_col(t, "COL_CALL_NO");
    cv->col_line = aq_col(t, "COL_LINE_NUMBER");
    cv->col_os = aq_col(ft->threads.t, "COL_WIN32THREADID");
    size_t col_module = aq_col(ft->meta.t, "COL_MODULE_NAME");
    cv->meta_name = pv_xmalloc((ft->meta.n ? ft->meta.n : 1) * sizeof *cv->meta_name);
    cv->meta_module = pv_xmalloc((ft->meta.n ? ft->meta.n : 1) * sizeof *cv->meta_module);
    for (size_t m = 0; m < ft->meta.n; m++) {
        char tmp[64];
        const char *name = aq_routine_name(&ft->meta, m, tmp, sizeof tmp);
        cv->meta_name[m] = name ? pv_strpool_add(&cv->pool, name, strlen(name)) : UINT32_MAX;
        cv->meta_module[m] = aq_ct_keep(cv, ft->meta.t, ft->meta.rows[m], col_module);
    }
    return cv;
}

/* The calls' (thread, REC_ID) keys, sorted for aq_call_key_find; sets *nkeys. */
static aq_call_key *aq_ft_call_keys(const aq_ft *ft, size_t col_rec, size_t *nkeys)
{
    const aq_table *t = ft->calls.t;
    size_t n = ft->calls.n;
    aq_call_key *keys = pv_xmalloc((n ? n : 1) * sizeof *keys);
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t rec;
        if (aq_int(t, ft->calls.rows[i], col_rec, &rec))
            keys[nk++] = (aq_call_key){rec, ft->call_thread[i], (uint32_t)i};
    }
    /* Calls usually come thread by thread in REC_ID order: no sort then. */
    bool sorted = true;
    for (size_t k = 1; k < nk && sorted; k++)
        sorted = aq_call_key_cmp(&keys[k - 1], &keys[k]) < 0;
    if (!sorted)
        qsort(keys, nk, sizeof *keys, aq_call_key_cmp);
    *nkeys = nk;
    return keys;
}

/* The sorted keys and, per thread, where its keys start (calls without a
 * thread last): a thread's REC_IDs are usually 0, 1, 2, ..., so a key is
 * first looked for where that would put it, then searched for
 * (docs/aqtime.md, Scale). */
typedef struct aq_call_keys {
    aq_call_key *keys;
    size_t n;
    size_t nthreads;
    size_t *start; /* nthreads + 2 entries */
} aq_call_keys;

static void aq_call_keys_index(aq_call_keys *k, size_t nthreads)
{
    k->nthreads = nthreads;
    k->start = pv_xmalloc((nthreads + 2) * sizeof *k->start);
    size_t at = 0;
    for (size_t th = 0; th <= nthreads; th++) {
        k->start[th] = at;
        uint32_t want = th == nthreads ? AQ_NONE32 : (uint32_t)th;
        while (at < k->n && k->keys[at].thread == want)
            at++;
    }
    k->start[nthreads + 1] = k->n;
}

/* The call of `thread` whose REC_ID is `rec`, or AQ_NONE. */
static size_t aq_call_key_find(const aq_call_keys *k, uint32_t thread, int64_t rec)
{
    size_t th = thread == AQ_NONE32 || thread >= k->nthreads ? k->nthreads : thread;
    size_t lo = k->start[th], hi = k->start[th + 1];
    if (lo == hi)
        return AQ_NONE;
    uint64_t guess = (uint64_t)rec - (uint64_t)k->keys[lo].rec;
    if (guess < hi - lo && k->keys[lo + guess].rec == rec)
        return k->keys[lo + guess].pos;
    aq_call_key probe = {rec, thread, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (aq_call_key_cmp(&k->keys[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < k->n && k->keys[lo].thread == thread && k->keys[lo].rec == rec)
        return k->keys[lo].pos;
    return AQ_NONE;
}

/* Sets ft->call_parent: COL_PARENT_NO is the parent's REC_ID in the same
 * thread; warns once about those that match none. */
static void aq_ft_resolve_parents(aq_ft *ft, const aq_call_keys *keys)
{
    const aq_table *t = ft->calls.t;
    size_t col_pno = aq_col(t, "COL_PARENT_NO");
    size_t unresolved = 0, first_unresolved = 0;
    for (size_t i = 0; i < ft->calls.n; i++) {
        ft->call_parent[i] = AQ_NONE32;
        int64_t pno;
        if (!aq_int(t, ft->calls.rows[i], col_pno, &pno) || pno < 0)
            continue;
        size_t p = aq_call_key_find(keys, ft->call_thread[i], pno);
        if (p != AQ_NONE)
            ft->call_parent[i] = (uint32_t)p;
        else if (unresolved++ == 0)
            first_unresolved = aq_row_no(t, ft->calls.rows[i]);
    }
    if (unresolved)
        aq_warn(&ft->c, "table %s: %zu calls have a COL_PARENT_NO that matches no REC_ID of their "
                "thread (first: row %zu); they are shown at the top of their thread",
                t->name, unresolved, first_unresolved);
}

/* Children lists in sibling order: groups are the threads' roots
 * (0..nthreads, the last for calls without a thread), then one per call;
 * group g's members are members[start[g] .. start[g + 1]). */
typedef struct aq_ct_groups {
    size_t nthreads, count;
    uint32_t *start;   /* count + 1 entries */
    uint32_t *members; /* call positions */
} aq_ct_groups;

/* The group call i belongs to: its parent's, else its thread's roots. */
static size_t aq_ct_group_of(const aq_ft *ft, size_t nthreads, size_t i)
{
    size_t p = aq_u32_pos(ft->call_parent[i]);
    size_t th = aq_u32_pos(ft->call_thread[i]) == AQ_NONE ? nthreads : aq_u32_pos(ft->call_thread[i]);
    return p == AQ_NONE ? th : nthreads + 1 + p;
}

/* Fills g with every call in its group (a counting pass places them), each
 * group in sibling order (aq_sib_cmp). */
static void aq_ct_group_calls(const aq_ft *ft, const aq_ct_view *cv, aq_ct_groups *g)
{
    size_t n = ft->calls.n;
    g->nthreads = ft->threads.n;
    g->count = g->nthreads + 1 + n;
    g->start = pv_xcalloc(g->count + 1, sizeof *g->start);
    for (size_t i = 0; i < n; i++)
        g->start[aq_ct_group_of(ft, g->nthreads, i) + 1]++;
    for (size_t k = 0; k < g->count; k++)
        g->start[k + 1] += g->start[k];
    g->members = pv_xmalloc((n ? n : 1) * sizeof *g->members);
    uint32_t *fill = pv_xmalloc((g->count ? g->count : 1) * sizeof *fill);
    memcpy(fill, g->start, g->count * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        g->members[fill[aq_ct_group_of(ft, g->nthreads, i)]++] = (uint32_t)i;
    free(fill);

    aq_sib_ctx sib = {ft, cv->col_cno, cv->col_id};
    aq_sib = &sib;
    for (size_t k = 0; k < g->count; k++) {
        uint32_t *m = g->members + g->start[k];
        size_t count = g->start[k + 1] - g->start[k];
        bool in_order = true;
        for (size_t j = 1; j < count && in_order; j++)
            in_order = aq_sib_cmp(&m[j - 1], &m[j]) < 0;
        if (!in_order)
            qsort(m, count, sizeof *m, aq_sib_cmp);
    }
    aq_sib = NULL;
}

/* Warns once when COL_NEXT is not the next sibling's REC_ID.  A COL_NEXT
 * that names no call of its thread is a call the file does not hold (after
 * a last sibling; or, in a subset that profview exported, a sibling left
 * out: docs/export.md "AQTime subsets"), not a disagreement. */
static void aq_ct_check_next(aq_ft *ft, const aq_ct_groups *g, const aq_call_keys *keys,
                             size_t col_rec)
{
    const aq_table *t = ft->calls.t;
    size_t col_next = aq_col(t, "COL_NEXT");
    size_t next_bad = 0, first_next_bad = 0;
    for (size_t k = 0; k < g->count; k++) {
        for (size_t j = g->start[k]; j < g->start[k + 1]; j++) {
            int64_t next, rec;
            size_t row = ft->calls.rows[g->members[j]];
            if (!aq_int(t, row, col_next, &next))
                continue;
            bool has_sibling = j + 1 < g->start[k + 1];
            bool ok;
            if (has_sibling && aq_int(t, ft->calls.rows[g->members[j + 1]], col_rec, &rec))
                ok = next == rec;
            else
                ok = !has_sibling && next < 0;
            if (!ok)
                ok = aq_call_key_find(keys, ft->call_thread[g->members[j]], next) == AQ_NONE;
            if (!ok && next_bad++ == 0)
                first_next_bad = aq_row_no(t, row);
        }
    }
    if (next_bad)
        aq_warn(&ft->c, "table %s: COL_NEXT disagrees with the COL_CALL_NO order for %zu calls "
                "(first: row %zu); the COL_CALL_NO order is shown", t->name, next_bad,
                first_next_bad);
}

/* The pre-order walk's state: rows are appended to cv as calls are met. */
typedef struct aq_ct_walk {
    aq_ft *ft;
    aq_ct_view *cv;
    const aq_ct_groups *g;
    aq_routine_acc *acc;
    uint32_t *row_of;          /* call -> row, UINT32_MAX: not shown yet */
    uint32_t *stack, *stack_next; /* calls on the path, next child index of each */
    size_t stack_cap;
    size_t *active;            /* meta (ft->meta.n: none) -> calls on the path */
    uint32_t *walk_mark;       /* loop search marks, made when a loop is there */
    size_t cycles;             /* parent loops broken */
    size_t next_root;          /* index into g->members of the roots */
    size_t leftover;           /* index into g->members of the loop candidates */
} aq_ct_walk;

/* Breaks the parent loop above call cand (not shown yet, its chain reaches no
 * shown call nor a root) at the first call seen twice; returns that call. */
static size_t aq_ct_break_loop(aq_ct_walk *w, size_t cand)
{
    aq_ft *ft = w->ft;
    const aq_table *t = ft->calls.t;
    if (!w->walk_mark)
        w->walk_mark = pv_xcalloc(ft->calls.n ? ft->calls.n : 1, sizeof *w->walk_mark);
    size_t x = cand;
    while (w->walk_mark[x] != cand + 1) {
        w->walk_mark[x] = (uint32_t)(cand + 1);
        size_t p = aq_u32_pos(ft->call_parent[x]);
        if (p == AQ_NONE || w->row_of[p] != UINT32_MAX)
            break;
        x = p;
    }
    if (w->cycles++ == 0)
        aq_warn(&ft->c, "table %s row %zu: its COL_PARENT_NO chain loops; the loop is broken "
                "there and the call is shown at the top", t->name,
                aq_row_no(t, ft->calls.rows[x]));
    ft->call_parent[x] = AQ_NONE32;
    return x;
}

/* The next call to start a subtree at: a root not shown yet in thread order,
 * then any call left over (parent chains that loop, tried in the sibling
 * order of all groups) with its loop broken; AQ_NONE when all are shown. */
static size_t aq_ct_next_start(aq_ct_walk *w)
{
    size_t root_count = w->g->start[w->g->nthreads + 1];
    while (w->next_root < root_count) {
        size_t start = w->g->members[w->next_root++];
        if (w->row_of[start] == UINT32_MAX)
            return start;
    }
    while (w->leftover < w->ft->calls.n) {
        size_t cand = w->g->members[w->leftover++];
        if (w->row_of[cand] == UINT32_MAX)
            return aq_ct_break_loop(w, cand);
    }
    return AQ_NONE;
}

/* Adds call's counts to its routine's aggregates (recursion counted once:
 * the time with children only for the outermost active call). */
static void aq_ct_acc_enter(aq_ct_walk *w, size_t call)
{
    aq_ft *ft = w->ft;
    size_t m = aq_u32_pos(ft->call_meta[call]);
    size_t mi = m == AQ_NONE ? ft->meta.n : m;
    aq_routine_acc *a = &w->acc[mi];
    a->calls++;
    int64_t own, wc;
    if (aq_ft_own(ft, call, &own)) {
        a->own += own;
        if (!a->has_own || own < a->min)
            a->min = own;
        if (!a->has_own || own > a->max)
            a->max = own;
        a->has_own = true;
    }
    if (w->active[mi]++ == 0 && aq_ft_wc(ft, call, &wc))
        a->wc_once += wc;
}

/* Appends call as the next row, under the call below it on the stack. */
static void aq_ct_add_row(aq_ct_walk *w, size_t call, size_t depth)
{
    aq_ct_view *cv = w->cv;
    size_t row = cv->n++;
    w->row_of[call] = (uint32_t)row;
    cv->pos[row] = (uint32_t)call;
    cv->parent[row] = depth > 0 ? w->row_of[w->stack[depth - 1]] : UINT32_MAX;
    cv->depth[row] = (uint32_t)depth;
    aq_ct_acc_enter(w, call);
}

/* The next child of the call at stack[depth] not shown yet (a broken loop
 * may have shown it), or AQ_NONE. */
static size_t aq_ct_next_child(aq_ct_walk *w, size_t depth)
{
    const aq_ct_groups *g = w->g;
    size_t k = g->nthreads + 1 + w->stack[depth];
    while (g->start[k] + w->stack_next[depth] < g->start[k + 1]) {
        size_t cand = g->members[g->start[k] + w->stack_next[depth]++];
        if (w->row_of[cand] == UINT32_MAX)
            return cand;
    }
    return AQ_NONE;
}

/* Shows the subtree of start in pre-order, iteratively (the stack grows with
 * the depth). */
static void aq_ct_walk_tree(aq_ct_walk *w, size_t start)
{
    size_t depth = 0;
    w->stack[0] = (uint32_t)start;
    w->stack_next[0] = 0;
    for (;;) {
        size_t call = w->stack[depth];
        if (w->stack_next[depth] == 0 && w->row_of[call] == UINT32_MAX)
            aq_ct_add_row(w, call, depth);
        size_t child = aq_ct_next_child(w, depth);
        if (child != AQ_NONE) {
            if (depth + 1 == w->stack_cap) {
                w->stack_cap *= 2;
                w->stack = pv_xrealloc(w->stack, w->stack_cap * sizeof *w->stack);
                w->stack_next = pv_xrealloc(w->stack_next, w->stack_cap * sizeof *w->stack_next);
            }
            depth++;
            w->stack[depth] = (uint32_t)child;
            w->stack_next[depth] = 0;
            continue;
        }
        /* exit */
        size_t m = aq_u32_pos(w->ft->call_meta[call]);
        w->active[m == AQ_NONE ? w->ft->meta.n : m]--;
        if (depth == 0)
            break;
        depth--;
    }
}

/* Fills cv's rows with every call in pre-order: roots in thread order, then
 * any call left over with its loop broken; fills acc on the way. */
static void aq_ct_walk_all(aq_ft *ft, aq_ct_view *cv, const aq_ct_groups *g,
                           aq_routine_acc *acc)
{
    size_t n = ft->calls.n, cap = n ? n : 1;
    cv->pos = pv_xmalloc(cap * sizeof *cv->pos);
    cv->parent = pv_xmalloc(cap * sizeof *cv->parent);
    cv->depth = pv_xmalloc(cap * sizeof *cv->depth);
    cv->n = 0;
    aq_ct_walk w = {.ft = ft, .cv = cv, .g = g, .acc = acc, .stack_cap = 64};
    w.row_of = pv_xmalloc(cap * sizeof *w.row_of);
    for (size_t i = 0; i < n; i++)
        w.row_of[i] = UINT32_MAX;
    w.stack = pv_xmalloc(w.stack_cap * sizeof *w.stack);
    w.stack_next = pv_xmalloc(w.stack_cap * sizeof *w.stack_next);
    w.active = pv_xcalloc(ft->meta.n + 1, sizeof *w.active);
    for (size_t start; (start = aq_ct_next_start(&w)) != AQ_NONE;)
        aq_ct_walk_tree(&w, start);
    if (w.cycles > 1)
        aq_warn(&ft->c, "table %s: %zu parent loops were broken in all", ft->calls.t->name,
                w.cycles);
    free(w.walk_mark);
    free(w.active);
    free(w.stack);
    free(w.stack_next);
    free(w.row_of);
}

/* Keeps per row the text of the extra string columns that hold numbers. */
static void aq_ct_keep_extra_text(aq_ct_view *cv)
{
    const aq_ft *ft = cv->ft;
    const aq_table *t = ft->calls.t;
    for (size_t e = 0; e < cv->extra_count; e++) {
        size_t sc = cv->extra_src[e];
        if (cv->view.columns[cv->fixed + e].type != PV_TYPE_STRING || t->col_all_text[sc])
            continue;
        cv->extra_text[e] = pv_xmalloc((ft->calls.n ? ft->calls.n : 1) * sizeof **cv->extra_text);
        for (size_t r = 0; r < cv->n; r++)
            cv->extra_text[e][r] = aq_ct_keep(cv, t, ft->calls.rows[cv->pos[r]], sc);
    }
}

/* Builds the call trace view (parents, sibling order, pre-order rows) and
 * the routines' aggregates in acc (ft->meta.n + 1 entries). */
static void aq_ft_call_trace(aq_ft *ft, aq_routine_acc *acc)
{
    aq_ct_view *cv = aq_ct_new(ft);
    size_t col_rec = aq_col(ft->calls.t, "REC_ID");
    aq_call_keys keys;
    keys.keys = aq_ft_call_keys(ft, col_rec, &keys.n);
    aq_call_keys_index(&keys, ft->threads.n);
    aq_ft_resolve_parents(ft, &keys);
    aq_ct_groups g;
    aq_ct_group_calls(ft, cv, &g);
    aq_ct_check_next(ft, &g, &keys, col_rec);
    free(keys.keys);
    free(keys.start);
    aq_ct_walk_all(ft, cv, &g, acc);
    free(g.start);
    free(g.members);
    /* the capability hooks read the rows through a detail context */
    cv->hook_rows = aq_ft_dctx_new(ft, AQ_FT_CALLS);
    cv->hook_rows->pos32 = cv->pos;
    cv->hook_rows->n = cv->n;
    aq_ft_hook_view(&cv->view, cv->hook_rows);
    aq_ct_keep_extra_text(cv);
    pv_set_add_view(ft->c.set, &cv->view);
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

static pv_view *aq_ft_parameters(aq_ft *ft, bool on_exit, size_t call)
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
    return pv_source_of_row(routines, row, "source", "line", NULL, figs);
}

/* The source file around a meta line, the routine each line belongs to in
 * the gutter. */
static pv_view *aq_ft_line_source(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)ctx;
    (void)detail;
    static const char *const figs[] = {"function", NULL};
    return pv_source_of_row(owner, row, "source", "line", NULL, figs);
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

/* ---- capability hooks (profview/hooks.h, docs/aqtime.md "In the viewer"):
 * the call trace is the result set's timeline of calls, without a clock.
 * Each table keeps its detail context (its rows' sources) as hook_ctx. */

/* The call trace's rows by call, and every routine's first call, once. */
static void aq_ft_index_rows(aq_ft *ft)
{
    if (ft->call_row || !ft->trace_rows)
        return;
    const aq_ft_dctx *d = ft->trace_rows;
    size_t n = ft->calls.n;
    ft->call_row = pv_xmalloc((n ? n : 1) * sizeof *ft->call_row);
    for (size_t i = 0; i < n; i++)
        ft->call_row[i] = AQ_NONE;
    ft->meta_first_row = pv_xmalloc((ft->meta.n + 1) * sizeof *ft->meta_first_row);
    for (size_t m = 0; m <= ft->meta.n; m++)
        ft->meta_first_row[m] = AQ_NONE;
    for (size_t row = d->n; row-- > 0;) {
        size_t call = aq_ft_dctx_pos(d, row);
        ft->call_row[call] = row;
        size_t m = aq_u32_pos(ft->call_meta[call]);
        ft->meta_first_row[m == AQ_NONE ? ft->meta.n : m] = row;
    }
}

static bool aq_ft_trace_ref(aq_ft *ft, size_t call, pv_row_ref *out)
{
    aq_ft_index_rows(ft);
    if (!ft->trace_view || call == AQ_NONE || !ft->call_row || ft->call_row[call] == AQ_NONE)
        return false;
    out->view = ft->trace_view;
    out->row = ft->call_row[call];
    return true;
}

/* The first call of a routine (its meta position) in the call trace. */
static bool aq_ft_first_ref(aq_ft *ft, size_t meta, pv_row_ref *out)
{
    aq_ft_index_rows(ft);
    if (!ft->trace_view || meta == AQ_NONE || !ft->meta_first_row ||
        ft->meta_first_row[meta] == AQ_NONE)
        return false;
    out->view = ft->trace_view;
    out->row = ft->meta_first_row[meta];
    return true;
}

/* The source position of a row of a hooked table. */
static bool aq_ft_src(const pv_view *v, size_t row, const aq_ft_dctx **d, size_t *pos)
{
    *d = v->hook_ctx;
    if (row >= (*d)->n)
        return false;
    *pos = aq_ft_dctx_pos(*d, row);
    return true;
}

/* The meta routine of a row of the call trace, routines or call routes. */
static size_t aq_ft_row_meta(const aq_ft_dctx *d, size_t pos)
{
    const aq_ft *ft = d->ft;
    switch (d->kind) {
    case AQ_FT_CALLS:
        return aq_u32_pos(ft->call_meta[pos]);
    case AQ_FT_ROUTINES:
        return ft->routine_meta[pos];
    case AQ_FT_ROUTES:
        if (ft->route_meta[pos] != AQ_NONE)
            return ft->route_meta[pos];
        return ft->route_routine[pos] == AQ_NONE ? AQ_NONE
                                                 : ft->routine_meta[ft->route_routine[pos]];
    }
    return AQ_NONE;
}

/* Calls relate to themselves (the call trace is the timeline), their
 * caller and their routine's first call; routines and routes to the first
 * call of their routine.  A call has no separate entry and exit events. */
static bool aq_ft_related(const pv_view *v, size_t row, pv_relation rel, pv_row_ref *out)
{
    const aq_ft_dctx *d;
    size_t pos;
    if (!aq_ft_src(v, row, &d, &pos))
        return false;
    aq_ft *ft = d->ft;
    if (d->kind == AQ_FT_CALLS && (rel == PV_REL_TIMELINE || rel == PV_REL_CALL))
        return aq_ft_trace_ref(ft, pos, out);
    if (d->kind == AQ_FT_CALLS && rel == PV_REL_CALLER)
        return aq_ft_trace_ref(ft, aq_u32_pos(ft->call_parent[pos]), out);
    if (rel == PV_REL_FIRST || (d->kind != AQ_FT_CALLS && rel == PV_REL_TIMELINE))
        return aq_ft_first_ref(ft, aq_ft_row_meta(d, pos), out);
    return false;
}

/* J / K: the routine (meta position + 1). */
static bool aq_ft_row_area(const pv_view *v, size_t row, uint64_t *area)
{
    const aq_ft_dctx *d;
    size_t pos;
    if (!aq_ft_src(v, row, &d, &pos))
        return false;
    size_t m = aq_ft_row_meta(d, pos);
    *area = (uint64_t)m + 1;
    return m != AQ_NONE;
}

/* Lanes: the threads (THREADS order); a call shows its thread running. */
static size_t aq_ft_lane_count(const pv_view *v)
{
    const aq_ft_dctx *d = v->hook_ctx;
    return d->ft->threads.n;
}

static void aq_ft_lane_name(const pv_view *v, size_t lane, pv_cell *out)
{
    aq_ft *ft = ((const aq_ft_dctx *)v->hook_ctx)->ft;
    if (!ft->lane_names) {
        size_t col = aq_col(ft->threads.t, "COL_WIN32THREADID");
        ft->lane_names = pv_xcalloc(ft->threads.n ? ft->threads.n : 1, sizeof *ft->lane_names);
        for (size_t i = 0; i < ft->threads.n; i++) {
            int64_t os;
            ft->lane_names[i] = aq_int(ft->threads.t, ft->threads.rows[i], col, &os)
                                    ? pv_xasprintf("Thread %" PRId64, os)
                                    : pv_xasprintf("Thread #%zu", i + 1);
        }
        ft->lane_count = ft->threads.n;
    }
    out->type = PV_TYPE_STRING;
    out->present = true;
    out->v.s.ptr = ft->lane_names[lane];
    out->v.s.len = strlen(ft->lane_names[lane]);
}

static size_t aq_ft_row_lane(const pv_view *v, size_t row)
{
    const aq_ft_dctx *d;
    size_t pos;
    if (!aq_ft_src(v, row, &d, &pos))
        return PV_NO_ROW;
    size_t th = aq_u32_pos(d->ft->call_thread[pos]);
    return th == AQ_NONE ? PV_NO_ROW : th;
}

static const pv_lane_hooks aq_ft_lanes = {
    .count = aq_ft_lane_count, .name = aq_ft_lane_name, .row_lane = aq_ft_row_lane};

/* The statistics of a span of the call trace (`:stats` with markers on two
 * calls, docs/aqtime.md): per routine, its calls among rows from..to, their
 * own time (sum, min, max, average: as the routines view computes them
 * over the whole trace) and time with children (a call inside another call
 * of the same routine in the span counted once). */
enum { RS_ID, RS_ROUTINE, RS_HITS, RS_TIME, RS_TWC, RS_MIN, RS_MAX, RS_AVG, RS_COUNT };

static pv_view *aq_ft_range_statistics(const pv_view *v, size_t from, size_t to)
{
    const aq_ft_dctx *d = v->hook_ctx;
    aq_ft *ft = d->ft;
    if (d->kind != AQ_FT_CALLS || from > to || to >= d->n)
        return NULL;
    aq_ft_index_rows(ft);
    const aq_ctx *c = &ft->c;
    pv_type tt = aq_counter_type(c);
    pv_column cols[RS_COUNT] = {
        {PV_COLUMN_ID, 0},
        {PV_COLUMN_ROUTINE, PV_COL_NAME},
        {PV_COLUMN_HITS, PV_COL_DESC},
        {"time", "Time", tt, PV_COL_DESC},
        {"time_with_children", "Time with children", tt, PV_COL_DESC},
        {"min_time", "Min Time", tt, PV_COL_DESC},
        {"max_time", "Max Time", tt, PV_COL_DESC},
        {"avg_time", "Avg Time", tt, PV_COL_DESC},
    };
    /* the counter's titles, as the call trace has them */
    size_t ct = pv_view_column(v, "time"), cw = pv_view_column(v, "time_with_children");
    if (ct != PV_NO_ROW)
        cols[RS_TIME].title = v->columns[ct].title;
    if (cw != PV_NO_ROW)
        cols[RS_TWC].title = v->columns[cw].title;
    pv_table *t = pv_table_new("range-routines", "Routines between the markers", cols, RS_COUNT);
    size_t nm = ft->meta.n + 1; /* last slot: calls whose routine is unknown */
    aq_routine_acc *acc = pv_xcalloc(nm, sizeof *acc);
    size_t *order = pv_xmalloc(nm * sizeof *order);
    size_t order_n = 0;
    for (size_t row = from; row <= to; row++) {
        size_t call = aq_ft_dctx_pos(d, row);
        size_t cm = aq_u32_pos(ft->call_meta[call]);
        size_t m = cm == AQ_NONE ? ft->meta.n : cm;
        aq_routine_acc *a = &acc[m];
        if (a->calls++ == 0)
            order[order_n++] = m;
        int64_t own, wc;
        if (aq_ft_own(ft, call, &own)) {
            a->own += own;
            a->min = !a->has_own || own < a->min ? own : a->min;
            a->max = !a->has_own || own > a->max ? own : a->max;
            a->has_own = true;
        }
        /* outermost in the span: no caller of the same routine in it */
        bool nested = false;
        for (size_t p = aq_u32_pos(ft->call_parent[call]), guard = 0;
             p != AQ_NONE && !nested && guard <= d->n && ft->call_row[p] >= from;
             p = aq_u32_pos(ft->call_parent[p]), guard++)
            nested = ft->call_meta[p] == ft->call_meta[call];
        if (!nested && aq_ft_wc(ft, call, &wc))
            a->wc_once += wc;
    }
    char tmp[64];
    for (size_t k = 0; k < order_n; k++) {
        size_t m = order[k];
        const aq_routine_acc *a = &acc[m];
        size_t r = pv_table_add_row(t);
        int64_t id;
        if (m < ft->meta.n && aq_ft_routine_id(ft, m, &id))
            pv_table_set_int(t, r, RS_ID, id);
        const char *name = aq_routine_name(&ft->meta, m < ft->meta.n ? m : AQ_NONE, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(t, r, RS_ROUTINE, name);
        pv_table_set_int(t, r, RS_HITS, (int64_t)a->calls);
        pv_table_set_int(t, r, RS_TWC, aq_counter_value(c, a->wc_once));
        if (!a->has_own)
            continue;
        /* docs/aqtime.md "Counters": converted from the summed cycles */
        pv_table_set_int(t, r, RS_TIME, aq_counter_value(c, a->own));
        pv_table_set_int(t, r, RS_MIN, aq_counter_value(c, a->min));
        pv_table_set_int(t, r, RS_MAX, aq_counter_value(c, a->max));
        __int128 calls = (__int128)a->calls;
        if (c->time_counter)
            pv_table_set_int(t, r, RS_AVG, aq_cycles_to_ns(a->own, c->frequency * (double)a->calls));
        else
            pv_table_set_int(t, r, RS_AVG,
                             aq_counter_value(c, (a->own >= 0 ? a->own + calls / 2
                                                              : a->own - calls / 2) / calls));
    }
    free(acc);
    free(order);
    return pv_table_view(t);
}

static const pv_view_hooks aq_ft_trace_hooks = {
    .related = aq_ft_related,
    .row_area = aq_ft_row_area,
    .lanes = &aq_ft_lanes,
    .range_statistics = aq_ft_range_statistics,
};

static const pv_view_hooks aq_ft_routine_hooks = {
    .related = aq_ft_related,
    .row_area = aq_ft_row_area,
};

static void aq_ft_hook(pv_table *t, aq_ft_dctx *d)
{
    aq_ft_hook_view(pv_table_view(t), d);
}

static void aq_ft_hook_view(pv_view *v, aq_ft_dctx *d)
{
    v->hook_ctx = d;
    if (d->kind == AQ_FT_CALLS) {
        v->hooks = &aq_ft_trace_hooks;
        d->ft->trace_view = v;
        d->ft->trace_rows = d;
    } else {
        v->hooks = &aq_ft_routine_hooks;
    }
}

void aq_ft_view_moved(pv_view *to)
{
    if (to->hooks == &aq_ft_trace_hooks)
        ((aq_ft_dctx *)to->hook_ctx)->ft->trace_view = to;
}
