/* aqtime_objects.c - the Resource and Reference Count result sets
 * (docs/formats.md §5; seeds aqtime-resource-db.txt, aqtime-reference-count-db.txt):
 * classes, objects with their creation call stacks, errors with their call
 * stacks, references with their AddRef/Release call stacks, the ref-count
 * call tree, threads.  Every link is resolved and checked at load; details
 * only read what the load prepared. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aqtime.h"

static const char *const aq_id_then_rec[] = {"ID", "REC_ID"};
static const char *const aq_id_only[] = {"ID"};

typedef struct aq_ob {
    aq_ctx c;
    aq_profiler p;
    aq_sel classes, mclasses, objects, cstack, meta, lines, threads, errors, estack, refs, astack,
        tree;
    size_t *class_meta, *object_class, *object_thread;
    size_t *cstack_object, *cstack_meta, *cstack_line;
    size_t *line_meta;
    size_t *error_thread, *estack_error, *estack_meta;
    size_t *ref_object, *astack_ref;
    int64_t *astack_kind; /* resolved routine / thread / root, see aq_entry */
    size_t *astack_target;
    size_t *tree_object, *tree_parent, *tree_target;
    int64_t *tree_kind;
    size_t col_thread_os; /* THREADS.COL_WIN32THREADID */
} aq_ob;

/* What a COL_ROUTINE_NAME value names (docs/formats.md §5). */
enum { AQ_ENTRY_NONE, AQ_ENTRY_ROUTINE, AQ_ENTRY_ROOT, AQ_ENTRY_THREAD };

static void aq_ob_free(void *p)
{
    aq_ob *ob = p;
    aq_sel *sels[] = {&ob->classes, &ob->mclasses, &ob->objects, &ob->cstack,
                      &ob->meta,    &ob->lines,    &ob->threads, &ob->errors,
                      &ob->estack,  &ob->refs,     &ob->astack,  &ob->tree};
    for (size_t i = 0; i < PV_ARRAY_LEN(sels); i++)
        aq_sel_free(sels[i]);
    void *arrays[] = {ob->class_meta,   ob->object_class,  ob->object_thread, ob->cstack_object,
                      ob->cstack_meta,  ob->cstack_line,   ob->line_meta,     ob->error_thread,
                      ob->estack_error, ob->estack_meta,   ob->ref_object,    ob->astack_ref,
                      ob->astack_kind,  ob->astack_target, ob->tree_object,   ob->tree_parent,
                      ob->tree_target,  ob->tree_kind};
    for (size_t i = 0; i < PV_ARRAY_LEN(arrays); i++)
        free(arrays[i]);
    free(ob);
}

static bool aq_ob_int(const aq_sel *s, size_t pos, const char *col, int64_t *out)
{
    return pos != AQ_NONE && pos < s->n && aq_int(s->t, s->rows[pos], aq_col(s->t, col), out);
}

static bool aq_ob_int_at(const aq_sel *s, size_t pos, size_t col, int64_t *out)
{
    return pos != AQ_NONE && pos < s->n && aq_int(s->t, s->rows[pos], col, out);
}

static int64_t aq_ob_int_or(const aq_sel *s, size_t pos, const char *col, int64_t dflt)
{
    int64_t v;
    return aq_ob_int(s, pos, col, &v) ? v : dflt;
}

static void aq_ob_set_int(pv_table *t, size_t row, size_t col, const aq_sel *s, size_t pos,
                          const char *name)
{
    int64_t v;
    if (aq_ob_int(s, pos, name, &v))
        pv_table_set_int(t, row, col, v);
}

/* aq_ob_set_int with the column looked up once by the caller (per-row
 * builders of a million rows: docs/aqtime.md, Scale). */
static void aq_ob_set_int_at(pv_table *t, size_t row, size_t col, const aq_sel *s, size_t pos,
                             size_t src_col)
{
    int64_t v;
    if (pos != AQ_NONE && pos < s->n && aq_int(s->t, s->rows[pos], src_col, &v))
        pv_table_set_int(t, row, col, v);
}

static void aq_ob_set_text(pv_table *t, size_t row, size_t col, const aq_sel *s, size_t pos,
                           const char *name)
{
    char tmp[64];
    if (pos == AQ_NONE || pos >= s->n)
        return;
    const char *v = aq_text(s->t, s->rows[pos], aq_col(s->t, name), tmp, sizeof tmp);
    if (v)
        pv_table_set_cstr(t, row, col, v);
}

/* The operating-system id of a thread (docs/cli.md). */
static bool aq_ob_thread_os(const aq_ob *ob, size_t pos, int64_t *out)
{
    return pos != AQ_NONE && aq_int_any(ob->threads.t, ob->threads.rows[pos], ob->col_thread_os, out);
}

/* ---- details plumbing */

enum aq_ob_kind { AQ_OB_CLASSES, AQ_OB_OBJECTS, AQ_OB_ERRORS, AQ_OB_REFS };

typedef struct aq_ob_dctx {
    aq_ob *ob;
    enum aq_ob_kind kind;
    size_t *src;
    size_t n, cap;
} aq_ob_dctx;

static void aq_ob_dctx_free(void *p)
{
    aq_ob_dctx *d = p;
    free(d->src);
    free(d);
}

static const pv_detail_def aq_class_details[] = {{"objects", "Objects"}};
static const pv_detail_def aq_rs_object_details[] = {
    {"creation-call-stack", "Creation Call Stack"}};
static const pv_detail_def aq_rc_object_details[] = {
    {"creation-call-stack", "Creation Call Stack"},
    {"references", "References"},
    {"refcount-tree", "Call Tree"},
};
static const pv_detail_def aq_error_details[] = {{"error-call-stack", "Call Stack"}};
static const pv_detail_def aq_ref_details[] = {
    {"addref-release-call-stack", "AddRef / Release Call Stack"}};

static pv_view *aq_ob_open(void *ctx, const pv_view *owner, size_t detail, size_t row);

static aq_ob_dctx *aq_ob_attach(pv_table *t, aq_ob *ob, enum aq_ob_kind kind)
{
    aq_ob_dctx *d = pv_xcalloc(1, sizeof *d);
    d->ob = ob;
    d->kind = kind;
    const pv_detail_def *defs = NULL;
    size_t n = 0;
    switch (kind) {
    case AQ_OB_CLASSES: defs = aq_class_details; n = PV_ARRAY_LEN(aq_class_details); break;
    case AQ_OB_OBJECTS:
        if (ob->p == AQ_PROF_REFCOUNT) {
            defs = aq_rc_object_details;
            n = PV_ARRAY_LEN(aq_rc_object_details);
        } else {
            defs = aq_rs_object_details;
            n = PV_ARRAY_LEN(aq_rs_object_details);
        }
        break;
    case AQ_OB_ERRORS: defs = aq_error_details; n = PV_ARRAY_LEN(aq_error_details); break;
    case AQ_OB_REFS: defs = aq_ref_details; n = PV_ARRAY_LEN(aq_ref_details); break;
    }
    pv_table_set_details(t, defs, n, aq_ob_open, d, aq_ob_dctx_free);
    return d;
}

static void aq_ob_push(aq_ob_dctx *d, size_t pos)
{
    d->src = pv_xgrow(d->src, &d->cap, d->n + 1, sizeof *d->src);
    d->src[d->n++] = pos;
}

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

/* Sorts keys unless they are in order already (the usual case). */
static void aq_ob_sort_keys(aq_pos_key *keys, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if (aq_pos_key_cmp(&keys[k - 1], &keys[k]) > 0) {
            qsort(keys, n, sizeof *keys, aq_pos_key_cmp);
            return;
        }
}

/* Rows of `s` whose link equals `owner`, sorted by (`col`, ID). */
static size_t aq_ob_children(const aq_sel *s, const size_t *link, size_t owner, const char *col,
                             aq_pos_key **out)
{
    aq_pos_key *keys = pv_xmalloc((s->n ? s->n : 1) * sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (link[i] == owner)
            keys[n++] = (aq_pos_key){aq_ob_int_or(s, i, col, INT64_MAX),
                                     aq_ob_int_or(s, i, "ID", 0), i};
    qsort(keys, n, sizeof *keys, aq_pos_key_cmp);
    *out = keys;
    return n;
}

/* ---- entries of stacks and trees */

/* Writes the name of an entry: a routine, `<Root>` or `Thread <id>`. */
static void aq_ob_entry_name(const aq_ob *ob, int64_t kind, size_t target, int64_t raw,
                             pv_table *t, size_t row, size_t col)
{
    char tmp[64];
    switch (kind) {
    case AQ_ENTRY_ROUTINE: {
        const char *name = aq_routine_name(&ob->meta, target, tmp, sizeof tmp);
        if (name)
            pv_table_set_cstr(t, row, col, name);
        break;
    }
    case AQ_ENTRY_ROOT: pv_table_set_cstr(t, row, col, "<Root>"); break;
    case AQ_ENTRY_THREAD: {
        int64_t os;
        if (!aq_ob_thread_os(ob, target, &os))
            os = -raw - 2;
        snprintf(tmp, sizeof tmp, "Thread %" PRId64, os);
        pv_table_set_cstr(t, row, col, tmp);
        break;
    }
    default: break;
    }
}

/* Resolves COL_ROUTINE_NAME of every row of `s`: >= 0 a routine (META_ROUTINES
 * by ID, then REC_ID), -1 <Root>, <= -2 the thread whose REC_ID is -v-2
 * (docs/formats.md §5 decision). */
static void aq_ob_entries(aq_ob *ob, const aq_sel *s, int64_t **kind_out, size_t **target_out)
{
    size_t col = aq_col(s->t, "COL_ROUTINE_NAME");
    int64_t *kind = pv_xcalloc(s->n ? s->n : 1, sizeof *kind);
    size_t *target = pv_xmalloc((s->n ? s->n : 1) * sizeof *target);
    size_t *routine = aq_link(&ob->c, s, col, "COL_ROUTINE_NAME", &ob->meta, aq_id_then_rec, 2);
    aq_keymap_t threads;
    aq_keymap(&threads, &ob->threads, aq_col(ob->threads.t, "REC_ID"));
    size_t bad = 0, first_bad = 0;
    for (size_t i = 0; i < s->n; i++) {
        int64_t v;
        target[i] = AQ_NONE;
        if (!aq_int(s->t, s->rows[i], col, &v))
            continue;
        if (v >= 0) {
            kind[i] = routine[i] != AQ_NONE ? AQ_ENTRY_ROUTINE : AQ_ENTRY_NONE;
            target[i] = routine[i];
        } else if (v == -1) {
            kind[i] = AQ_ENTRY_ROOT;
        } else {
            kind[i] = AQ_ENTRY_THREAD;
            size_t pos;
            if (v > INT64_MIN + 2 && aq_keymap_get(&threads, -v - 2, &pos))
                target[i] = pos;
            else if (bad++ == 0)
                first_bad = aq_row_no(s->t, s->rows[i]);
        }
    }
    if (bad)
        aq_warn(&ob->c, "table %s: %zu thread entries name no THREADS REC_ID (first: row %zu); "
                "they are shown with the REC_ID", s->t->name, bad, first_bad);
    aq_keymap_free(&threads);
    free(routine);
    *kind_out = kind;
    *target_out = target;
}

/* ---- views */

enum { CL_ID, CL_CLASS, CL_MODULE, CL_LC, CL_LS, CL_PC, CL_PS, CL_TC, CL_TS, CL_COUNT };

static void aq_ob_classes(aq_ob *ob)
{
    static const pv_column cols[CL_COUNT] = {
        {PV_COLUMN_ID, 0},
        {"class", "Class Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
        {PV_COLUMN_MODULE, PV_COL_KEY},
        {"live_count", "Live Count", PV_TYPE_INT, PV_COL_DESC},
        {"live_size", "Live Size", PV_TYPE_INT, PV_COL_DESC},
        {"peak_created", "Peak Created", PV_TYPE_INT, PV_COL_DESC},
        {"peak_size", "Peak Size", PV_TYPE_INT, PV_COL_DESC},
        {"total_created", "Total Created", PV_TYPE_INT, PV_COL_DESC},
        {"total_size", "Total Size", PV_TYPE_INT, PV_COL_DESC},
    };
    static const char *const names[CL_COUNT] = {
        "ID", "COL_CLASS_NAME", "COL_MODULE_NAME", "COL_LIVE_COUNT", "COL_LIVE_SIZE",
        "COL_PEAK_CREATED", "COL_PEAK_SIZE", "COL_TOTAL_CREATED", "COL_TOTAL_SIZE"};
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_CLASS_NAME", "COL_MODULE_NAME",
                                           "COL_LIVE_COUNT", "COL_LIVE_SIZE", "COL_PEAK_CREATED",
                                           "COL_PEAK_SIZE", "COL_TOTAL_CREATED", "COL_TOTAL_SIZE",
                                           NULL};
    aq_view vb;
    aq_view_init(&vb, "classes", "Classes Data", cols, CL_COUNT, ob->classes.t, consumed);
    aq_ob_dctx *d = aq_ob_attach(vb.t, ob, AQ_OB_CLASSES);
    for (size_t i = 0; i < ob->classes.n; i++) {
        size_t row = pv_table_add_row(vb.t);
        aq_ob_push(d, i);
        for (size_t k = 0; k < CL_COUNT; k++) {
            if (k == CL_CLASS || k == CL_MODULE) {
                /* The meta data names the class; the row's own text where it is silent. */
                size_t m = ob->class_meta[i];
                char tmp[64];
                const char *v = m == AQ_NONE ? NULL
                                             : aq_text(ob->mclasses.t, ob->mclasses.rows[m],
                                                       aq_col(ob->mclasses.t, names[k]), tmp,
                                                       sizeof tmp);
                if (v)
                    pv_table_set_cstr(vb.t, row, k, v);
                else
                    aq_ob_set_text(vb.t, row, k, &ob->classes, i, names[k]);
            } else {
                aq_ob_set_int(vb.t, row, k, &ob->classes, i, names[k]);
            }
        }
        aq_view_fill_extras(&vb, row, ob->classes.rows[i]);
    }
    pv_set_add_view(ob->c.set, pv_table_view(aq_view_finish(&vb)));
}

enum { OB_ID, OB_NUMBER, OB_CLASS, OB_ADDRESS, OB_SIZE, OB_THREAD, OB_LIVE, OB_PEAK, OB_TOTAL };

static pv_table *aq_ob_objects(aq_ob *ob, size_t class_meta /* AQ_NONE: all */)
{
    bool rc = ob->p == AQ_PROF_REFCOUNT;
    static const pv_column cols[] = {
        {PV_COLUMN_ID, 0},
        {"number", "#", PV_TYPE_INT, 0},
        {"class", "Class Name", PV_TYPE_STRING, PV_COL_NAME},
        {"address", "Address", PV_TYPE_HEX, 0},
        {"size", "Size", PV_TYPE_INT, PV_COL_DESC},
        {"thread", "Thread", PV_TYPE_INT, 0},
        {"live_references", "Live References", PV_TYPE_INT, PV_COL_DESC},
        {"peak_references", "Peak References", PV_TYPE_INT, PV_COL_DESC},
        {"total_references", "Total References", PV_TYPE_INT, PV_COL_DESC},
    };
    static const char *const consumed[] = {
        "ID", "PARENT_ID", "COL__", "COL_CLASSRID", "COL_ADDRESS", "COL_SIZE", "COL_THREADID",
        "COL_THREADRID", "COL_LIVE_REFERENCES", "COL_PEAK_REFERENCES", "COL_TOTAL_REFERENCES",
        NULL};
    aq_view vb;
    aq_view_init(&vb, "objects", "Objects", cols, rc ? 9 : 6, ob->objects.t, consumed);
    aq_ob_dctx *d = aq_ob_attach(vb.t, ob, AQ_OB_OBJECTS);
    char tmp[64];
    const aq_table *ot = ob->objects.t;
    size_t c_id = aq_col(ot, "ID"), c_no = aq_col(ot, "COL__"), c_addr = aq_col(ot, "COL_ADDRESS"),
           c_size = aq_col(ot, "COL_SIZE"), c_live = aq_col(ot, "COL_LIVE_REFERENCES"),
           c_peak = aq_col(ot, "COL_PEAK_REFERENCES"), c_total = aq_col(ot, "COL_TOTAL_REFERENCES"),
           c_class = aq_col(ob->mclasses.t, "COL_CLASS_NAME");
    for (size_t i = 0; i < ob->objects.n; i++) {
        size_t m = ob->object_class[i];
        if (class_meta != AQ_NONE && m != class_meta)
            continue;
        size_t row = pv_table_add_row(vb.t);
        aq_ob_push(d, i);
        aq_ob_set_int_at(vb.t, row, OB_ID, &ob->objects, i, c_id);
        aq_ob_set_int_at(vb.t, row, OB_NUMBER, &ob->objects, i, c_no);
        if (m != AQ_NONE) {
            const char *v = aq_text(ob->mclasses.t, ob->mclasses.rows[m], c_class, tmp, sizeof tmp);
            if (v)
                pv_table_set_cstr(vb.t, row, OB_CLASS, v);
        }
        int64_t addr;
        if (aq_int(ot, ob->objects.rows[i], c_addr, &addr))
            pv_table_set_uint(vb.t, row, OB_ADDRESS, (uint64_t)addr);
        aq_ob_set_int_at(vb.t, row, OB_SIZE, &ob->objects, i, c_size);
        int64_t os;
        if (aq_ob_thread_os(ob, ob->object_thread[i], &os))
            pv_table_set_int(vb.t, row, OB_THREAD, os);
        if (rc) {
            aq_ob_set_int_at(vb.t, row, OB_LIVE, &ob->objects, i, c_live);
            aq_ob_set_int_at(vb.t, row, OB_PEAK, &ob->objects, i, c_peak);
            aq_ob_set_int_at(vb.t, row, OB_TOTAL, &ob->objects, i, c_total);
        }
        aq_view_fill_extras(&vb, row, ob->objects.rows[i]);
    }
    return aq_view_finish(&vb);
}

enum { ER_ID, ER_NUMBER, ER_KIND, ER_NAME, ER_CODE, ER_DESC, ER_THREAD, ER_COUNT };

static void aq_ob_errors(aq_ob *ob)
{
    static const pv_column cols[ER_COUNT] = {
        {PV_COLUMN_ID, 0},
        {"number", "#", PV_TYPE_INT, 0},
        {"kind", "Kind", PV_TYPE_STRING, 0},
        {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
        {"error_code", "Error Code", PV_TYPE_INT, 0},
        {"description", "Description", PV_TYPE_STRING, 0},
        {"thread", "Thread", PV_TYPE_INT, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL__", "COL_KIND", "COL_NAME",
                                           "COL_ERROR_CODE", "COL_DESCRIPTION", NULL};
    aq_view vb;
    aq_view_init(&vb, "errors", "Errors", cols, ER_COUNT, ob->errors.t, consumed);
    aq_ob_dctx *d = aq_ob_attach(vb.t, ob, AQ_OB_ERRORS);
    size_t odd = 0, first_odd = 0;
    for (size_t i = 0; i < ob->errors.n; i++) {
        size_t row = pv_table_add_row(vb.t);
        aq_ob_push(d, i);
        aq_ob_set_int(vb.t, row, ER_ID, &ob->errors, i, "ID");
        aq_ob_set_int(vb.t, row, ER_NUMBER, &ob->errors, i, "COL__");
        int64_t k;
        if (aq_ob_int(&ob->errors, i, "COL_KIND", &k)) {
            if (k == 1 || k == 2) {
                pv_table_set_cstr(vb.t, row, ER_KIND, k == 1 ? "Error" : "Warning");
            } else {
                char tmp[32];
                snprintf(tmp, sizeof tmp, "%" PRId64, k);
                pv_table_set_cstr(vb.t, row, ER_KIND, tmp);
                if (odd++ == 0)
                    first_odd = aq_row_no(ob->errors.t, ob->errors.rows[i]);
            }
        }
        aq_ob_set_text(vb.t, row, ER_NAME, &ob->errors, i, "COL_NAME");
        aq_ob_set_int(vb.t, row, ER_CODE, &ob->errors, i, "COL_ERROR_CODE");
        aq_ob_set_text(vb.t, row, ER_DESC, &ob->errors, i, "COL_DESCRIPTION");
        int64_t os;
        if (aq_ob_thread_os(ob, ob->error_thread[i], &os))
            pv_table_set_int(vb.t, row, ER_THREAD, os);
        aq_view_fill_extras(&vb, row, ob->errors.rows[i]);
    }
    if (odd)
        aq_warn(&ob->c, "table %s: %zu rows have a COL_KIND that is neither 1 (Error) nor 2 "
                "(Warning) (first: row %zu); the number is shown", ob->errors.t->name, odd,
                first_odd);
    pv_set_add_view(ob->c.set, pv_table_view(aq_view_finish(&vb)));
}

enum { RF_ID, RF_NUMBER, RF_OBJECT, RF_KIND, RF_COUNT };

static pv_table *aq_ob_references(aq_ob *ob, size_t object /* AQ_NONE: all */)
{
    static const pv_column cols[RF_COUNT] = {
        {PV_COLUMN_ID, 0},
        {"number", "#", PV_TYPE_INT, 0},
        {"object", "Object", PV_TYPE_INT, 0},
        {"kind", "AddRef/Release", PV_TYPE_STRING, PV_COL_NAME},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL__", "COL_ADDREF_RELEASE",
                                           NULL};
    aq_view vb;
    aq_view_init(&vb, "references", "References", cols, RF_COUNT, ob->refs.t, consumed);
    aq_ob_dctx *d = aq_ob_attach(vb.t, ob, AQ_OB_REFS);
    aq_pos_key *keys;
    size_t n;
    if (object != AQ_NONE) {
        n = aq_ob_children(&ob->refs, ob->ref_object, object, "COL__", &keys);
    } else {
        keys = pv_xmalloc((ob->refs.n ? ob->refs.n : 1) * sizeof *keys);
        for (n = 0; n < ob->refs.n; n++)
            keys[n].pos = n;
    }
    size_t c_id = aq_col(ob->refs.t, "ID"), c_no = aq_col(ob->refs.t, "COL__"),
           c_obj = aq_col(ob->objects.t, "ID"), c_kind = aq_col(ob->refs.t, "COL_ADDREF_RELEASE");
    for (size_t k = 0; k < n; k++) {
        size_t i = keys[k].pos;
        size_t row = pv_table_add_row(vb.t);
        aq_ob_push(d, i);
        aq_ob_set_int_at(vb.t, row, RF_ID, &ob->refs, i, c_id);
        aq_ob_set_int_at(vb.t, row, RF_NUMBER, &ob->refs, i, c_no);
        if (ob->ref_object[i] != AQ_NONE)
            aq_ob_set_int_at(vb.t, row, RF_OBJECT, &ob->objects, ob->ref_object[i], c_obj);
        int64_t v;
        if (aq_int(ob->refs.t, ob->refs.rows[i], c_kind, &v))
            pv_table_set_cstr(vb.t, row, RF_KIND, v ? "AddRef" : "Release");
        aq_view_fill_extras(&vb, row, ob->refs.rows[i]);
    }
    free(keys);
    return aq_view_finish(&vb);
}

enum { ST_ID, ST_POSITION, ST_ROUTINE, ST_MODULE, ST_SOURCE, ST_LINE, ST_EXTRA };

static const pv_column aq_stack_cols[] = {
    {PV_COLUMN_ID, 0},
    {"position", "Position", PV_TYPE_INT, 0}, /* the table may have its own COL_CALL_NO */
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
    {PV_COLUMN_MODULE, 0},
    {PV_COLUMN_SOURCE, 0},
    {PV_COLUMN_LINE, 0},
    {PV_COLUMN_HITS, PV_COL_DESC},
};

/* Creation, error and AddRef/Release call stacks (docs/cli.md). */
static pv_view *aq_ob_stack(aq_ob *ob, int which, size_t owner)
{
    static const char *const ids[] = {"creation-call-stack", "error-call-stack",
                                      "addref-release-call-stack"};
    static const char *const titles[] = {"Creation Call Stack", "Call Stack",
                                         "AddRef / Release Call Stack"};
    static const char *const consumed[] = {"ID", "PARENT_ID", "REC_ID", "COL_ROUTINERID",
                                           "COL_LINERID", "COL_HIT_COUNT", "COL_ROUTINE_NAME",
                                           "COL_SOURCE_LINE", NULL};
    const aq_sel *s = which == 0 ? &ob->cstack : which == 1 ? &ob->estack : &ob->astack;
    const size_t *link = which == 0 ? ob->cstack_object : which == 1 ? ob->estack_error
                                                                     : ob->astack_ref;
    aq_view vb;
    aq_view_init(&vb, ids[which], titles[which], aq_stack_cols, which == 0 ? 7 : 6, s->t,
                 consumed);
    aq_pos_key *keys;
    size_t n = aq_ob_children(s, link, owner, "REC_ID", &keys);
    for (size_t k = 0; k < n; k++) {
        size_t i = keys[k].pos;
        size_t row = pv_table_add_row(vb.t);
        aq_ob_set_int(vb.t, row, ST_ID, s, i, "ID");
        aq_ob_set_int(vb.t, row, ST_POSITION, s, i, "REC_ID");
        size_t m = AQ_NONE;
        if (which == 2) {
            int64_t raw = 0;
            aq_ob_int(s, i, "COL_ROUTINE_NAME", &raw);
            aq_ob_entry_name(ob, ob->astack_kind[i], ob->astack_target[i], raw, vb.t, row,
                             ST_ROUTINE);
            if (ob->astack_kind[i] == AQ_ENTRY_ROUTINE)
                m = ob->astack_target[i];
            int64_t line;
            if (aq_int_any(s->t, s->rows[i], aq_col(s->t, "COL_SOURCE_LINE"), &line))
                pv_table_set_int(vb.t, row, ST_LINE, line);
        } else {
            m = which == 0 ? ob->cstack_meta[i] : ob->estack_meta[i];
            aq_ob_entry_name(ob, m == AQ_NONE ? AQ_ENTRY_NONE : AQ_ENTRY_ROUTINE, m, 0, vb.t, row,
                             ST_ROUTINE);
            if (which == 0 && ob->cstack_line[i] != AQ_NONE)
                aq_ob_set_int(vb.t, row, ST_LINE, &ob->lines, ob->cstack_line[i],
                              "COL_SOURCE_LINE");
            else if (which == 1)
                aq_ob_set_int(vb.t, row, ST_LINE, &ob->meta, m, "COL_SOURCE_LINE");
            if (which == 0)
                aq_ob_set_int(vb.t, row, ST_EXTRA, s, i, "COL_HIT_COUNT");
        }
        aq_ob_set_text(vb.t, row, ST_MODULE, &ob->meta, m, "COL_MODULE_NAME");
        aq_ob_set_text(vb.t, row, ST_SOURCE, &ob->meta, m, "COL_SOURCE_FILE");
        aq_view_fill_extras(&vb, row, s->rows[i]);
    }
    free(keys);
    return pv_table_view(aq_view_finish(&vb));
}

enum { TR_ID, TR_PARENT, TR_ROUTINE, TR_DEPTH, TR_CHANGE, TR_HITS, TR_LINE, TR_MODULE, TR_SOURCE,
       TR_COUNT };

/* The ref-count call tree of one object, in pre-order (parents were
 * resolved and loops broken at load). */
static pv_view *aq_ob_refcount_tree(aq_ob *ob, size_t object)
{
    static const pv_column cols[TR_COUNT] = {
        {PV_COLUMN_ID, 0},
        {PV_COLUMN_PARENT, PV_COL_HIDDEN},
        {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_TREE},
        {PV_COLUMN_DEPTH, PV_COL_HIDDEN},
        {"refcount_change", "RefCount Change", PV_TYPE_INT, 0},
        {"hits_on_enter", "Routine Hit Count on Enter", PV_TYPE_INT, 0},
        {PV_COLUMN_LINE, 0},
        {PV_COLUMN_MODULE, 0},
        {PV_COLUMN_SOURCE, 0},
    };
    static const char *const consumed[] = {"ID", "PARENT_ID", "COL_PARENT_INDEX",
                                           "COL_ROUTINE_NAME", "COL_RESULT_REFCOUNT",
                                           "COL_ROUTINE_HITCOUNT_ON_ENTER", "COL_SOURCE_LINE",
                                           NULL};
    const aq_sel *s = &ob->tree;
    aq_view vb;
    aq_view_init(&vb, "refcount-tree", "Call Tree", cols, TR_COUNT, s->t, consumed);
    pv_table_make_tree(vb.t);
    aq_pos_key *keys;
    size_t n = aq_ob_children(s, ob->tree_object, object, "REC_ID", &keys);
    /* Children lists in REC_ID order (keys are sorted), then pre-order,
     * iteratively. */
    size_t *first = pv_xmalloc((n ? n : 1) * sizeof *first);
    size_t *last = pv_xmalloc((n ? n : 1) * sizeof *last);
    size_t *sibling = pv_xmalloc((n ? n : 1) * sizeof *sibling);
    size_t *key_of = pv_xmalloc((s->n ? s->n : 1) * sizeof *key_of);
    for (size_t k = 0; k < n; k++) {
        first[k] = last[k] = sibling[k] = AQ_NONE;
        key_of[keys[k].pos] = k;
    }
    for (size_t k = 0; k < n; k++) {
        size_t p = ob->tree_parent[keys[k].pos];
        if (p == AQ_NONE)
            continue;
        size_t pk = key_of[p];
        if (first[pk] == AQ_NONE)
            first[pk] = k;
        else
            sibling[last[pk]] = k;
        last[pk] = k;
    }
    size_t *stack = pv_xmalloc((n ? n : 1) * sizeof *stack);
    size_t *stack_row = pv_xmalloc((n ? n : 1) * sizeof *stack_row);
    for (size_t root = 0; root < n; root++) {
        if (ob->tree_parent[keys[root].pos] != AQ_NONE)
            continue;
        size_t depth_top = 0;
        size_t next = root;
        for (;;) {
            if (next != AQ_NONE) {
                size_t i = keys[next].pos;
                size_t row = pv_table_add_row(vb.t);
                size_t depth = depth_top;
                if (depth > 0) {
                    pv_table_set_parent(vb.t, row, stack_row[depth - 1]);
                    aq_ob_set_int(vb.t, row, TR_PARENT, s, keys[stack[depth - 1]].pos, "ID");
                }
                aq_ob_set_int(vb.t, row, TR_ID, s, i, "ID");
                int64_t raw = 0;
                aq_ob_int(s, i, "COL_ROUTINE_NAME", &raw);
                aq_ob_entry_name(ob, ob->tree_kind[i], ob->tree_target[i], raw, vb.t, row,
                                 TR_ROUTINE);
                pv_table_set_int(vb.t, row, TR_DEPTH, (int64_t)depth);
                aq_ob_set_int(vb.t, row, TR_CHANGE, s, i, "COL_RESULT_REFCOUNT");
                aq_ob_set_int(vb.t, row, TR_HITS, s, i, "COL_ROUTINE_HITCOUNT_ON_ENTER");
                aq_ob_set_int(vb.t, row, TR_LINE, s, i, "COL_SOURCE_LINE");
                if (ob->tree_kind[i] == AQ_ENTRY_ROUTINE) {
                    aq_ob_set_text(vb.t, row, TR_MODULE, &ob->meta, ob->tree_target[i],
                                   "COL_MODULE_NAME");
                    aq_ob_set_text(vb.t, row, TR_SOURCE, &ob->meta, ob->tree_target[i],
                                   "COL_SOURCE_FILE");
                }
                aq_view_fill_extras(&vb, row, s->rows[i]);
                stack[depth_top] = next;
                stack_row[depth_top] = row;
                depth_top++;
                next = first[next];
            } else {
                /* Climb until a frame has a next sibling. */
                if (--depth_top == 0)
                    break;
                next = sibling[stack[depth_top]];
            }
        }
    }
    free(first);
    free(last);
    free(sibling);
    free(key_of);
    free(stack);
    free(stack_row);
    free(keys);
    return pv_table_view(aq_view_finish(&vb));
}

static pv_view *aq_ob_open(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)owner;
    aq_ob_dctx *d = ctx;
    if (row >= d->n)
        return NULL;
    aq_ob *ob = d->ob;
    size_t pos = d->src[row];
    switch (d->kind) {
    case AQ_OB_CLASSES:
        return ob->class_meta[pos] == AQ_NONE
                   ? NULL
                   : pv_table_view(aq_ob_objects(ob, ob->class_meta[pos]));
    case AQ_OB_OBJECTS:
        if (detail == 0)
            return aq_ob_stack(ob, 0, pos);
        if (detail == 1)
            return pv_table_view(aq_ob_references(ob, pos));
        return aq_ob_refcount_tree(ob, pos);
    case AQ_OB_ERRORS: return aq_ob_stack(ob, 1, pos);
    case AQ_OB_REFS: return aq_ob_stack(ob, 2, pos);
    }
    return NULL;
}

/* ---- load-time resolution */

/* COL_LINERID: the line's REC_ID among the lines of the entry's routine, else
 * a REC_ID of the result set's lines (Reference Count numbers them so). */
static void aq_ob_resolve_lines(aq_ob *ob)
{
    size_t n = ob->cstack.n;
    ob->cstack_line = pv_xmalloc((n ? n : 1) * sizeof *ob->cstack_line);
    aq_pos_key *keys = pv_xmalloc((ob->lines.n ? ob->lines.n : 1) * sizeof *keys);
    size_t nk = 0, c_rec = aq_col(ob->lines.t, "REC_ID"), c_lid = aq_col(ob->cstack.t, "COL_LINERID");
    for (size_t i = 0; i < ob->lines.n; i++) {
        int64_t rec;
        if (ob->line_meta[i] != AQ_NONE && aq_ob_int_at(&ob->lines, i, c_rec, &rec))
            keys[nk++] = (aq_pos_key){(int64_t)ob->line_meta[i], rec, i};
    }
    aq_ob_sort_keys(keys, nk);
    aq_keymap_t global;
    aq_keymap(&global, &ob->lines, aq_col(ob->lines.t, "REC_ID"));
    size_t bad = 0, first_bad = 0;
    for (size_t i = 0; i < n; i++) {
        ob->cstack_line[i] = AQ_NONE;
        int64_t lid;
        if (!aq_ob_int_at(&ob->cstack, i, c_lid, &lid) || lid < 0)
            continue;
        size_t m = ob->cstack_meta[i];
        size_t lo = 0, hi = nk;
        aq_pos_key probe = {(int64_t)m, lid, 0};
        while (m != AQ_NONE && lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (aq_pos_key_cmp(&keys[mid], &probe) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t pos;
        if (m != AQ_NONE && lo < nk && keys[lo].a == (int64_t)m && keys[lo].b == lid)
            ob->cstack_line[i] = keys[lo].pos;
        else if (aq_keymap_get(&global, lid, &pos))
            ob->cstack_line[i] = pos;
        else if (bad++ == 0)
            first_bad = aq_row_no(ob->cstack.t, ob->cstack.rows[i]);
    }
    if (bad)
        aq_warn(&ob->c, "table %s: %zu rows have a COL_LINERID that matches no line (first: row "
                "%zu); their line is left empty", ob->cstack.t->name, bad, first_bad);
    aq_keymap_free(&global);
    free(keys);
}

/* REFCOUNT_TREE: COL_PARENT_INDEX is the parent's REC_ID among the rows of
 * the same object, -1 at the top; loops are broken with a warning. */
static void aq_ob_resolve_tree(aq_ob *ob)
{
    const aq_sel *s = &ob->tree;
    size_t n = s->n;
    ob->tree_parent = pv_xmalloc((n ? n : 1) * sizeof *ob->tree_parent);
    aq_pos_key *keys = pv_xmalloc((n ? n : 1) * sizeof *keys);
    size_t nk = 0, c_rec = aq_col(s->t, "REC_ID"), c_pi = aq_col(s->t, "COL_PARENT_INDEX");
    for (size_t i = 0; i < n; i++) {
        int64_t rec;
        if (ob->tree_object[i] != AQ_NONE && aq_ob_int_at(s, i, c_rec, &rec))
            keys[nk++] = (aq_pos_key){(int64_t)ob->tree_object[i], rec, i};
    }
    aq_ob_sort_keys(keys, nk);
    size_t bad = 0, first_bad = 0;
    for (size_t i = 0; i < n; i++) {
        ob->tree_parent[i] = AQ_NONE;
        int64_t pi;
        if (ob->tree_object[i] == AQ_NONE || !aq_ob_int_at(s, i, c_pi, &pi) || pi < 0)
            continue;
        aq_pos_key probe = {(int64_t)ob->tree_object[i], pi, 0};
        size_t lo = 0, hi = nk;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (aq_pos_key_cmp(&keys[mid], &probe) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < nk && keys[lo].a == probe.a && keys[lo].b == pi && keys[lo].pos != i)
            ob->tree_parent[i] = keys[lo].pos;
        else if (bad++ == 0)
            first_bad = aq_row_no(s->t, s->rows[i]);
    }
    free(keys);
    if (bad)
        aq_warn(&ob->c, "table %s: %zu rows have a COL_PARENT_INDEX that matches no REC_ID of "
                "their object (first: row %zu); they are shown at the top", s->t->name, bad,
                first_bad);
    /* Loops: walk up from every row with a step budget; a walk that does not
     * reach the top within n steps is in (or under) a loop: cut it where the
     * walk first revisits a row. */
    size_t *mark = pv_xcalloc(n ? n : 1, sizeof *mark);
    size_t *state = pv_xcalloc(n ? n : 1, sizeof *state); /* 0 unknown, 1 reaches the top */
    size_t loops = 0;
    for (size_t i = 0; i < n; i++) {
        size_t x = i;
        while (x != AQ_NONE && state[x] == 0 && mark[x] != i + 1) {
            mark[x] = i + 1;
            x = ob->tree_parent[x];
        }
        if (x != AQ_NONE && state[x] == 0) {
            /* x was seen twice in this walk: it closes a loop. */
            if (loops++ == 0)
                aq_warn(&ob->c, "table %s row %zu: its COL_PARENT_INDEX chain loops; the loop is "
                        "broken there and the entry is shown at the top", s->t->name,
                        aq_row_no(s->t, s->rows[x]));
            ob->tree_parent[x] = AQ_NONE;
        }
        for (size_t y = i; y != AQ_NONE && state[y] == 0; y = ob->tree_parent[y])
            state[y] = 1;
    }
    free(mark);
    free(state);
}

void aq_build_objects(aq_ctx *c, aq_profiler p)
{
    aq_ob *ob = pv_xcalloc(1, sizeof *ob);
    ob->c = *c;
    ob->p = p;
    aq_db_own(c->db, ob, aq_ob_free);
    aq_table *T = c->db->tables;
    bool rc = p == AQ_PROF_REFCOUNT;
    aq_select(&ob->classes, &T[rc ? AQ_T_RC_CLASSES_DATA : AQ_T_RS_CLASSES_DATA], c->inst);
    aq_select(&ob->mclasses, &T[rc ? AQ_T_RC_META_CLASSES_DATA : AQ_T_RS_META_CLASSES_DATA],
              c->inst);
    aq_select(&ob->objects, &T[rc ? AQ_T_RC_OBJECTS : AQ_T_RS_OBJECTS], c->inst);
    aq_select(&ob->cstack, &T[rc ? AQ_T_RC_CREATION_CALL_STACK : AQ_T_RS_CREATION_CALL_STACK],
              c->inst);
    aq_select(&ob->meta, &T[rc ? AQ_T_RC_META_ROUTINES : AQ_T_RS_META_ROUTINES], c->inst);
    aq_select(&ob->lines, &T[rc ? AQ_T_RC_META_LINES : AQ_T_RS_META_LINES], c->inst);
    aq_select(&ob->threads, &T[rc ? AQ_T_RC_THREADS : AQ_T_RS_THREADS], c->inst);
    /* Tables the other profiler does not have stay empty selections. */
    aq_table *empty = &T[AQ_T_RELATIONS];
    aq_select(&ob->errors, rc ? empty : &T[AQ_T_RS_ERRORS], rc ? INT64_MIN : c->inst);
    aq_select(&ob->estack, rc ? empty : &T[AQ_T_RS_CALL_STACK], rc ? INT64_MIN : c->inst);
    aq_select(&ob->refs, rc ? &T[AQ_T_RC_REFERENCES] : empty, rc ? c->inst : INT64_MIN);
    aq_select(&ob->astack, rc ? &T[AQ_T_RC_ADDREF_STACK] : empty, rc ? c->inst : INT64_MIN);
    aq_select(&ob->tree, rc ? &T[AQ_T_RC_REFCOUNT_TREE] : empty, rc ? c->inst : INT64_MIN);
    ob->col_thread_os = aq_col(ob->threads.t, "COL_WIN32THREADID");

    ob->class_meta = aq_link(c, &ob->classes, aq_col(ob->classes.t, "REC_ID"), "REC_ID",
                             &ob->mclasses, aq_id_then_rec, 2);
    ob->object_class = aq_link(c, &ob->objects, aq_col(ob->objects.t, "COL_CLASSRID"),
                               "COL_CLASSRID", &ob->mclasses, aq_id_then_rec, 2);
    const char *tcol = rc ? "COL_THREADRID" : "COL_THREADID";
    ob->object_thread = aq_link(c, &ob->objects, aq_col(ob->objects.t, tcol), tcol, &ob->threads,
                                aq_id_then_rec, 2);
    ob->cstack_object = aq_link(c, &ob->cstack, aq_col(ob->cstack.t, "PARENT_ID"), "PARENT_ID",
                                &ob->objects, aq_id_only, 1);
    ob->cstack_meta = aq_link(c, &ob->cstack, aq_col(ob->cstack.t, "COL_ROUTINERID"),
                              "COL_ROUTINERID", &ob->meta, aq_id_then_rec, 2);
    ob->line_meta = aq_link(c, &ob->lines, aq_col(ob->lines.t, "PARENT_ID"), "PARENT_ID",
                            &ob->meta, aq_id_then_rec, 2);
    aq_ob_resolve_lines(ob);
    ob->error_thread = aq_link(c, &ob->errors, aq_col(ob->errors.t, "PARENT_ID"), "PARENT_ID",
                               &ob->threads, aq_id_only, 1);
    ob->estack_error = aq_link(c, &ob->estack, aq_col(ob->estack.t, "PARENT_ID"), "PARENT_ID",
                               &ob->errors, aq_id_only, 1);
    ob->estack_meta = aq_link(c, &ob->estack, aq_col(ob->estack.t, "COL_ROUTINERID"),
                              "COL_ROUTINERID", &ob->meta, aq_id_then_rec, 2);
    ob->ref_object = aq_link(c, &ob->refs, aq_col(ob->refs.t, "PARENT_ID"), "PARENT_ID",
                             &ob->objects, aq_id_only, 1);
    ob->astack_ref = aq_link(c, &ob->astack, aq_col(ob->astack.t, "PARENT_ID"), "PARENT_ID",
                             &ob->refs, aq_id_only, 1);
    ob->tree_object = aq_link(c, &ob->tree, aq_col(ob->tree.t, "PARENT_ID"), "PARENT_ID",
                              &ob->objects, aq_id_only, 1);
    if (rc) {
        aq_ob_entries(ob, &ob->astack, &ob->astack_kind, &ob->astack_target);
        aq_ob_entries(ob, &ob->tree, &ob->tree_kind, &ob->tree_target);
        aq_ob_resolve_tree(ob);
    } else {
        ob->astack_kind = pv_xcalloc(1, sizeof *ob->astack_kind);
        ob->astack_target = pv_xcalloc(1, sizeof *ob->astack_target);
        ob->tree_kind = pv_xcalloc(1, sizeof *ob->tree_kind);
        ob->tree_target = pv_xcalloc(1, sizeof *ob->tree_target);
        ob->tree_parent = pv_xcalloc(1, sizeof *ob->tree_parent);
    }

    aq_ob_classes(ob);
    pv_set_add_view(c->set, pv_table_view(aq_ob_objects(ob, AQ_NONE)));
    if (rc)
        pv_set_add_view(c->set, pv_table_view(aq_ob_references(ob, AQ_NONE)));
    else
        aq_ob_errors(ob);
    aq_build_threads(c, rc ? AQ_T_RC_THREADS : AQ_T_RS_THREADS);
    ob->c.f = NULL;
    ob->c.set = NULL;
    ob->c.counter_name = NULL;
}
