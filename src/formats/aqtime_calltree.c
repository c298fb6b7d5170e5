/* aqtime_calltree.c - the Function Trace call trace (docs/formats.md §5,
 * docs/aqtime.md, Scale): a tree per thread in call order, parents
 * resolved and loops cut, COL_NEXT checked, a view of its own that reads
 * its cells from the call table when asked. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "aqtime_trace.h"

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
void aq_ft_call_trace(aq_ft *ft, aq_routine_acc *acc)
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
