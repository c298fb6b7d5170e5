/* plist_views.c - the views of a PLIST profile (docs/plist.md "Views"),
 * built from what either reader collected (plist_model.h): summary,
 * routines (with callers/callees details), lines, modules, call-trace (a
 * tree built from the attribution stacks), stacks, and records (records the
 * reader could not place). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/plist_model.h"
#include "profview/source.h"
#include "profview/table.h"

typedef struct plist_edge {
    uint32_t caller, callee; /* name ids */
    int64_t hits, time, child;
} plist_edge;

/* Everything the callers/callees details need; owned by the routines table. */
typedef struct plist_graph {
    plist_names names;
    uint32_t *routine_name; /* routines row -> name id */
    size_t routine_count;
    plist_edge *edges;
    size_t edge_count, edge_cap;
} plist_graph;

enum {
    RT_ID,
    RT_ROUTINE,
    RT_MODULE,
    RT_EXE,
    RT_SOURCE,
    RT_HITS,
    RT_TIME,
    RT_CHILD,
    RT_PERCENT_TIME,
    RT_PERCENT_HITS,
    RT_AVG_TIME,
    RT_AVG_CHILD,
    RT_COVERED,
    RT_FILE_LINE,
    RT_COLUMNS
};
static const pv_column plist_routine_columns[RT_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_KEY},
    {PV_COLUMN_MODULE, PV_COL_KEY},
    {"exe", "Executable", PV_TYPE_STRING, PV_COL_HIDDEN},
    {"source", "Object module", PV_TYPE_STRING, PV_COL_HIDDEN}, /* not the shared column */
    {PV_COLUMN_HITS, PV_COL_DESC},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {PV_COLUMN_TIME_WITH_CHILDREN, PV_COL_DESC},
    {"percent_time", "Time %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"percent_hits", "Hits %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"avg_time", "Avg time", PV_TYPE_TIME, PV_COL_DESC},
    {"avg_time_with_children", "Avg with children", PV_TYPE_TIME, PV_COL_DESC | PV_COL_HIDDEN},
    {"covered", "Covered", PV_TYPE_INT, 0},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum {
    LN_ID,
    LN_EXE,
    LN_SOURCE,
    LN_LINE,
    LN_HITS,
    LN_PERCENT_HITS,
    LN_COVERED,
    LN_FILE_LINE,
    LN_TEXT, /* text reports only: the last column, left out for /T */
    LN_COLUMNS
};
static const pv_column plist_line_columns[LN_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {"exe", "Executable", PV_TYPE_STRING, PV_COL_HIDDEN},
    {PV_COLUMN_SOURCE, PV_COL_NAME},
    {PV_COLUMN_LINE, 0},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {"percent_hits", "Hits %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"covered", "Covered", PV_TYPE_INT, 0},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
    {"text", "Source text", PV_TYPE_STRING, 0},
};

/* The modules view of a text report: its `Module Statistics` blocks. */
enum {
    MD_ID,
    MD_MODULE,
    MD_TIME,
    MD_PERCENT_TIME,
    MD_UNITS,
    MD_HITS,
    MD_COVERAGE,
    MD_ROUTINES,
    MD_FILE_LINE,
    MD_COLUMNS
};
static const pv_column plist_module_columns[MD_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_MODULE, PV_COL_NAME | PV_COL_KEY},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {"percent_time", "Time %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"units", "Functions", PV_TYPE_INT, PV_COL_DESC},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {"coverage_percent", "Coverage %", PV_TYPE_FLOAT, PV_COL_DESC},
    {"rows", "Rows", PV_TYPE_INT, PV_COL_DESC},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum {
    CT_ID,
    CT_PARENT,
    CT_CALL_NO,
    CT_ROUTINE,
    CT_DEPTH,
    CT_THREAD,
    CT_HITS,
    CT_TIME,
    CT_CHILD,
    CT_PERCENT_TIME,
    CT_PERCENT_PARENT,
    CT_STACKS,
    CT_COLUMNS
};
static const pv_column plist_trace_columns[CT_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_PARENT, PV_COL_HIDDEN},
    {"call_no", "Call no", PV_TYPE_INT, PV_COL_HIDDEN},
    {PV_COLUMN_ROUTINE, PV_COL_NAME | PV_COL_TREE},
    {PV_COLUMN_DEPTH, PV_COL_HIDDEN},
    {"thread", "Thread", PV_TYPE_INT, PV_COL_HIDDEN},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {PV_COLUMN_TIME_WITH_CHILDREN, PV_COL_DESC},
    {"percent_time", "% of total", PV_TYPE_FLOAT, PV_COL_DESC},
    {"percent_parent", "% of parent", PV_TYPE_FLOAT, PV_COL_DESC},
    {"stacks", "Stacks", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum {
    ST_ID,
    ST_ROUTINE,
    ST_ATTACHED,
    ST_STACK_SIZE,
    ST_NAMES,
    ST_HITS,
    ST_TIME,
    ST_CHILD,
    ST_PATH,
    ST_FILE_LINE,
    ST_COLUMNS
};
static const pv_column plist_stack_columns[ST_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
    {"attached", "Attached", PV_TYPE_INT, 0},
    {"stack_size", "Stack size", PV_TYPE_INT, 0},
    {"names", "Names", PV_TYPE_INT, PV_COL_HIDDEN},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {PV_COLUMN_TIME, PV_COL_DESC},
    {PV_COLUMN_TIME_WITH_CHILDREN, PV_COL_DESC},
    {"path", "Stack (callee first)", PV_TYPE_STRING, 0},
    {"file_line", "File line", PV_TYPE_INT, PV_COL_HIDDEN},
};

enum { RC_ID, RC_FILE_LINE, RC_TAG, RC_TEXT, RC_COLUMNS };
static const pv_column plist_record_columns[RC_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {"file_line", "Line", PV_TYPE_INT, 0},
    {"tag", "Tag", PV_TYPE_STRING, 0},
    {"text", "Fields", PV_TYPE_STRING, PV_COL_NAME},
};

enum { CE_ID, CE_ROUTINE, CE_HITS, CE_TIME, CE_SELF, CE_COLUMNS };
static const pv_column plist_edge_columns[CE_COLUMNS] = {
    {PV_COLUMN_ID, PV_COL_HIDDEN},
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
    {PV_COLUMN_HITS, PV_COL_DESC},
    {"time", "Time with children", PV_TYPE_TIME, PV_COL_DESC}, /* not the shared column */
    {"self_time", "Time", PV_TYPE_TIME, PV_COL_DESC},
};

static const pv_detail_def plist_routine_details[] = {
    {"callers", "Callers"},
    {"callees", "Callees"},
};

static void plist_summary_add(pv_table *t, const char *key, const char *value)
{
    pv_summary_add(t, key, value);
}

static void plist_summary_int(pv_table *t, const char *key, int64_t v)
{
    char num[32];
    snprintf(num, sizeof num, "%" PRId64, v);
    plist_summary_add(t, key, num);
}

/* part/whole as a percentage with two decimals, rounded down, exactly. */
static void plist_summary_percent(pv_table *t, const char *key, int64_t part, int64_t whole)
{
    if (whole <= 0 || part < 0 || part > INT64_MAX / 10000)
        return;
    int64_t hundredths = part * 10000 / whole;
    char num[48];
    snprintf(num, sizeof num, "%" PRId64 ".%02" PRId64, hundredths / 100, hundredths % 100);
    plist_summary_add(t, key, num);
}

static const char *plist_method_name(int64_t method)
{
    switch (method) {
    case 321:
        return "line count";
    case 324:
        return "line coverage";
    case 521:
        return "function count";
    case 522:
        return "function timing";
    case 524:
        return "function coverage";
    default:
        return NULL;
    }
}

static bool plist_is_function_profile(const plist_model *p)
{
    if (p->has_method)
        return p->method > 400; /* docs/formats.md §4 */
    return p->routine_count > 0 || p->stack_count > 0 || p->line_count == 0;
}

static bool plist_is_coverage(const plist_model *p)
{
    return p->has_method && (p->method == 324 || p->method == 524);
}

/* What a text report cannot show (docs/plist.md "Text reports"). */
static const char plist_text_note[] =
    "a text report carries no attribution stacks: call-trace, stacks, callers and callees "
    "need the PLIST /T output of the same run";

/* The facts of a text report's header that the /T records do not have, or
 * name differently: the `Profile:` line, the dates, the Program Statistics
 * counts as the report names them. */
static void plist_summary_text_header(pv_table *t, const plist_model *p)
{
    const pv_strpool *tx = &p->text;
    bool functions = plist_is_function_profile(p);
    if (p->has_method)
        plist_summary_add(t, "profile", plist_method_name(p->method));
    plist_summary_add(t, "profile header", pv_strpool_get(tx, p->profile_header));
    if (p->sort_order)
        plist_summary_add(t, "sort order", pv_strpool_get(tx, p->sort_order));
    if (p->date)
        plist_summary_add(t, "date", pv_strpool_get(tx, p->date));
    if (p->command_date)
        plist_summary_add(t, "command line date", pv_strpool_get(tx, p->command_date));
    if (p->command_line)
        plist_summary_add(t, "command line", pv_strpool_get(tx, p->command_line));
    if (p->has_units)
        plist_summary_int(t, functions ? "total functions" : "total lines", p->units);
    if (p->coverage_text)
        plist_summary_add(t, functions ? "function coverage" : "line coverage",
                          pv_strpool_get(tx, p->coverage_text));
    if (p->has_overhead_calculated)
        plist_summary_int(t, "overhead calculated", p->overhead_calculated);
    if (p->has_overhead_average)
        plist_summary_int(t, "overhead average", p->overhead_average);
    for (size_t i = 0; i < p->stat_count; i++)
        plist_summary_add(t, pv_strpool_get(tx, p->stats[i].tag),
                          pv_strpool_get(tx, p->stats[i].text));
}

static pv_view *plist_summary_view(const plist_model *p)
{
    pv_table *t = pv_summary_new();
    const pv_strpool *tx = &p->text;
    plist_summary_add(t, "format", p->text_report ? "plist-text" : "plist");
    plist_summary_add(t, "file", p->path);
    if (p->text_report)
        plist_summary_text_header(t, p);
    if (p->global_line[0]) {
        plist_summary_add(t, "version", pv_strpool_get(tx, p->version));
        plist_summary_add(t, "banner", pv_strpool_get(tx, p->banner));
    }
    if (p->global_line[1]) {
        plist_summary_add(t, "method", pv_strpool_get(tx, p->method_text));
        plist_summary_add(t, "method description", pv_strpool_get(tx, p->method_desc));
        const char *name = p->has_method ? plist_method_name(p->method) : NULL;
        plist_summary_add(t, "profile", name ? name : "unknown method");
    }
    if (p->global_line[1] || p->routine_count || p->line_count)
        plist_summary_add(t, "profile kind", plist_is_function_profile(p) ? "function" : "line");
    if (p->has_total_time)
        pv_summary_add_time(t, "total time", p->total_time);
    if (p->has_outside_time)
        pv_summary_add_time(t, "outside time", p->outside_time);
    if (p->has_total_time && p->has_outside_time)
        pv_summary_add_time(t, "time in functions", p->total_time - p->outside_time);
    if (p->has_call_depth)
        plist_summary_int(t, "call depth", p->call_depth);
    if (p->has_total_hits)
        plist_summary_int(t, "total hits", p->total_hits);
    if (p->has_units && !p->text_report)
        plist_summary_int(t, "units", p->units);
    if (p->has_units_hit)
        plist_summary_int(t, "units hit", p->units_hit);
    if (p->has_units && p->has_units_hit) {
        plist_summary_int(t, "units not hit", p->units - p->units_hit);
        plist_summary_percent(t, "coverage percent", p->units_hit, p->units);
    }
    if (p->global_line[4]) {
        plist_summary_add(t, "date", pv_strpool_get(tx, p->date));
        plist_summary_add(t, "command line", pv_strpool_get(tx, p->command_line));
    }
    for (size_t i = 0; i < p->rec5_count; i++)
        plist_summary_add(t, "record 5", pv_strpool_get(tx, p->rec5[i].text));

    /* Totals derived from the local records. */
    if (p->routine_count) {
        int64_t hits = 0, time = 0, executed = 0;
        for (size_t i = 0; i < p->routine_count; i++) {
            const plist_routine *r = &p->routines[i];
            plist_sum(&hits, r->has & PLIST_HAS_HITS, r->hits);
            plist_sum(&time, r->has & PLIST_HAS_TIME, r->time);
            executed += (r->has & PLIST_HAS_HITS) && r->hits > 0;
        }
        plist_summary_int(t, "routines", (int64_t)p->routine_count);
        plist_summary_int(t, "routines executed", executed);
        plist_summary_int(t, "routines never executed", (int64_t)p->routine_count - executed);
        plist_summary_percent(t, "routine coverage percent", executed, (int64_t)p->routine_count);
        plist_summary_int(t, "routine hits", hits);
        pv_summary_add_time(t, "routine time", time);
    }
    if (p->line_count) {
        int64_t hits = 0, executed = 0;
        for (size_t i = 0; i < p->line_count; i++) {
            const plist_line *l = &p->lines[i];
            plist_sum(&hits, l->has & PLIST_HAS_HITS, l->hits);
            executed += (l->has & PLIST_HAS_HITS) && l->hits > 0;
        }
        plist_summary_int(t, "lines", (int64_t)p->line_count);
        plist_summary_int(t, "lines executed", executed);
        plist_summary_int(t, "lines never executed", (int64_t)p->line_count - executed);
        plist_summary_percent(t, "line coverage percent", executed, (int64_t)p->line_count);
        plist_summary_int(t, "line hits", hits);
    }
    if (p->stack_count) {
        int64_t unattached = 0;
        for (size_t i = 0; i < p->stack_count; i++)
            unattached += p->stacks[i].routine == PLIST_NONE;
        plist_summary_int(t, "attribution stacks", (int64_t)p->stack_count);
        plist_summary_int(t, "unattached stacks", unattached);
    }
    if (p->unknown_count)
        plist_summary_int(t, "unknown records", (int64_t)p->unknown_count);
    if (p->text_report) {
        plist_summary_int(t, "modules", (int64_t)p->module_count);
        if (plist_is_function_profile(p))
            plist_summary_add(t, "note", plist_text_note);
    }
    return pv_table_view(t);
}

static void plist_set_opt(pv_table *t, size_t row, size_t col, bool has, int64_t v)
{
    if (has)
        pv_table_set_int(t, row, col, v);
}

/* The denominator for percentages: the file's total when it has a positive
 * one (what PLIST itself shows), otherwise the sum of the rows. */
static int64_t plist_total(bool has_file_total, int64_t file_total, int64_t sum)
{
    return has_file_total && file_total > 0 ? file_total : sum;
}

/* ---- callers / callees (details of routines) */

static void plist_graph_free(void *ctx)
{
    plist_graph *g = ctx;
    plist_names_free(&g->names);
    free(g->routine_name);
    free(g->edges);
    free(g);
}

static pv_view *plist_open_edges(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)owner;
    const plist_graph *g = ctx;
    if (row >= g->routine_count || detail >= PV_ARRAY_LEN(plist_routine_details))
        return NULL;
    uint32_t self = g->routine_name[row];
    bool callers = detail == 0;
    pv_table *t = pv_table_new(plist_routine_details[detail].id,
                               plist_routine_details[detail].title, plist_edge_columns, CE_COLUMNS);
    for (size_t i = 0; i < g->edge_count; i++) {
        const plist_edge *e = &g->edges[i];
        if ((callers ? e->callee : e->caller) != self)
            continue;
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, CE_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, CE_ROUTINE, plist_name(&g->names, callers ? e->caller : e->callee));
        pv_table_set_int(t, r, CE_HITS, e->hits);
        pv_table_set_int(t, r, CE_TIME, e->child);
        pv_table_set_int(t, r, CE_SELF, e->time);
    }
    return pv_table_view(t);
}

/* Fills path[] (outermost caller first) for stack `s`; returns its length.
 * docs/formats.md §4 leaves the order open; docs/plist.md: names are listed from
 * the callee outwards, and the function itself is added as the innermost
 * frame unless the stack starts with it. */
static size_t plist_stack_path(const plist_model *p, const plist_stack *s, uint32_t *path)
{
    size_t n = 0;
    for (size_t i = s->name_count; i-- > 0;)
        path[n++] = p->stack_names[s->first_name + i];
    if (s->routine != PLIST_NONE) {
        uint32_t self = p->routines[s->routine].name;
        if (n == 0 || path[n - 1] != self)
            path[n++] = self;
    }
    return n;
}

static void plist_graph_add_edge(plist_graph *g, pv_hashmap *index, uint32_t caller,
                                 uint32_t callee, const plist_stack *s)
{
    uint64_t key = (uint64_t)caller << 32 | callee;
    uint32_t at;
    if (!pv_hashmap_get(index, key, &at)) {
        g->edges = pv_xgrow(g->edges, &g->edge_cap, g->edge_count + 1, sizeof *g->edges);
        at = (uint32_t)g->edge_count++;
        g->edges[at] = (plist_edge){caller, callee, 0, 0, 0};
        pv_hashmap_put(index, key, at);
    }
    plist_edge *e = &g->edges[at];
    plist_sum(&e->hits, s->has & PLIST_HAS_HITS, s->hits);
    plist_sum(&e->time, s->has & PLIST_HAS_TIME, s->time);
    plist_sum(&e->child, s->has & PLIST_HAS_CHILD, s->child);
}

/* ---- the call-trace tree: a trie of the stack paths */

typedef struct plist_node {
    uint32_t name;
    size_t parent, first_child, last_child, next_sibling;
    int64_t hits, time, child;
    size_t stacks; /* stack records ending here */
    unsigned has;
} plist_node;

typedef struct plist_trie {
    plist_node *nodes;
    size_t count, cap;
    size_t first_root, last_root;
    pv_hashmap index; /* (parent + 1) << 32 | name -> node */
} plist_trie;

static size_t plist_trie_child(plist_trie *t, size_t parent, uint32_t name)
{
    uint64_t key = (uint64_t)(parent == PLIST_NONE ? 0 : parent + 1) << 32 | name;
    uint32_t at;
    if (pv_hashmap_get(&t->index, key, &at))
        return at;
    if (t->count >= PLIST_MAX_ITEMS)
        return PLIST_NONE;
    t->nodes = pv_xgrow(t->nodes, &t->cap, t->count + 1, sizeof *t->nodes);
    size_t i = t->count++;
    t->nodes[i] = (plist_node){name, parent, PLIST_NONE, PLIST_NONE, PLIST_NONE, 0, 0, 0, 0, 0};
    size_t *last = parent == PLIST_NONE ? &t->last_root : &t->nodes[parent].last_child;
    size_t *first = parent == PLIST_NONE ? &t->first_root : &t->nodes[parent].first_child;
    if (*last == PLIST_NONE)
        *first = i;
    else
        t->nodes[*last].next_sibling = i;
    *last = i;
    pv_hashmap_put(&t->index, key, (uint32_t)i);
    return i;
}

/* The denominator of time percentages: record 2's total time when positive,
 * otherwise the sum of the routines' times. */
static int64_t plist_time_total(const plist_model *p)
{
    int64_t sum = 0;
    for (size_t i = 0; i < p->routine_count; i++)
        plist_sum(&sum, p->routines[i].has & PLIST_HAS_TIME, p->routines[i].time);
    return plist_total(p->has_total_time, p->total_time, sum);
}

/* Builds the call-trace table from the trie in pre-order, without
 * recursion (the depth is the input's).  Percentages are of the time with
 * children: of the total time, and of the parent row's. */
static pv_view *plist_trace_view(const plist_model *p, const plist_trie *t)
{
    int64_t total = plist_time_total(p);
    pv_table *tab = pv_table_new("call-trace", "Call trace", plist_trace_columns, CT_COLUMNS);
    pv_table_make_tree(tab);
    pv_table_reserve(tab, t->count);
    size_t *row_of = pv_xmalloc((t->count ? t->count : 1) * sizeof *row_of);
    int64_t *call_no = pv_xcalloc(t->count ? t->count : 1, sizeof *call_no);
    size_t *todo = pv_xmalloc((t->count ? t->count : 1) * sizeof *todo);
    size_t top = 0;
    /* Siblings are pushed in reverse so that they come out in order. */
    size_t sib_cap = 0, sib_count;
    size_t *sib = NULL;
    size_t first = t->first_root;
    for (;;) {
        sib_count = 0;
        int64_t k = 0;
        for (size_t c = first; c != PLIST_NONE; c = t->nodes[c].next_sibling) {
            sib = pv_xgrow(sib, &sib_cap, sib_count + 1, sizeof *sib);
            sib[sib_count++] = c;
            call_no[c] = ++k;
        }
        while (sib_count)
            todo[top++] = sib[--sib_count];
        if (top == 0)
            break;
        size_t n = todo[--top];
        const plist_node *node = &t->nodes[n];
        size_t r = pv_table_add_row(tab);
        row_of[n] = r;
        pv_table_set_int(tab, r, CT_ID, (int64_t)r + 1);
        bool with_children = node->stacks && (node->has & PLIST_HAS_CHILD);
        if (node->parent != PLIST_NONE) {
            size_t pr = row_of[node->parent];
            pv_table_set_parent(tab, r, pr);
            pv_table_set_int(tab, r, CT_PARENT, (int64_t)pr + 1);
            int64_t depth = 0, parent_child;
            pv_table_get_int(tab, pr, CT_DEPTH, &depth);
            pv_table_set_int(tab, r, CT_DEPTH, depth + 1);
            if (with_children && pv_table_get_int(tab, pr, CT_CHILD, &parent_child) &&
                parent_child > 0)
                pv_table_set_float(tab, r, CT_PERCENT_PARENT,
                                   (double)node->child * 100.0 / (double)parent_child);
        } else {
            pv_table_set_int(tab, r, CT_DEPTH, 0);
        }
        if (with_children && total > 0)
            pv_table_set_float(tab, r, CT_PERCENT_TIME,
                               (double)node->child * 100.0 / (double)total);
        pv_table_set_int(tab, r, CT_CALL_NO, call_no[n]);
        pv_table_set_cstr(tab, r, CT_ROUTINE, plist_name(&p->names, node->name));
        /* PLIST has no threads: the column stays empty (docs/plist.md). */
        if (node->stacks) {
            plist_set_opt(tab, r, CT_HITS, node->has & PLIST_HAS_HITS, node->hits);
            plist_set_opt(tab, r, CT_TIME, node->has & PLIST_HAS_TIME, node->time);
            plist_set_opt(tab, r, CT_CHILD, node->has & PLIST_HAS_CHILD, node->child);
        }
        pv_table_set_int(tab, r, CT_STACKS, (int64_t)node->stacks);
        first = node->first_child;
    }
    free(sib);
    free(todo);
    free(call_no);
    free(row_of);
    return pv_table_view(tab);
}

/* Builds the stacks, call-trace and edges (callers/callees) together. */
static void plist_attribution_views(plist_model *p, pv_result_set *set, plist_graph *g)
{
    plist_trie trie;
    memset(&trie, 0, sizeof trie);
    trie.first_root = trie.last_root = PLIST_NONE;
    pv_hashmap_init(&trie.index);
    pv_hashmap edge_index;
    pv_hashmap_init(&edge_index);

    pv_table *st = pv_table_new("stacks", "Attribution stacks", plist_stack_columns, ST_COLUMNS);
    size_t longest = 1;
    for (size_t i = 0; i < p->stack_count; i++)
        if (p->stacks[i].name_count + 1 > longest)
            longest = p->stacks[i].name_count + 1;
    uint32_t *path = pv_xmalloc(longest * sizeof *path);
    pv_buf text;
    pv_buf_init(&text);

    for (size_t i = 0; i < p->stack_count; i++) {
        const plist_stack *s = &p->stacks[i];
        size_t n = plist_stack_path(p, s, path);
        size_t r = pv_table_add_row(st);
        pv_table_set_int(st, r, ST_ID, (int64_t)r + 1);
        if (n)
            pv_table_set_cstr(st, r, ST_ROUTINE, plist_name(&p->names, path[n - 1]));
        pv_table_set_int(st, r, ST_ATTACHED, s->routine != PLIST_NONE);
        plist_set_opt(st, r, ST_STACK_SIZE, s->has & PLIST_HAS_SIZE, s->size);
        pv_table_set_int(st, r, ST_NAMES, (int64_t)s->name_count);
        plist_set_opt(st, r, ST_HITS, s->has & PLIST_HAS_HITS, s->hits);
        plist_set_opt(st, r, ST_TIME, s->has & PLIST_HAS_TIME, s->time);
        plist_set_opt(st, r, ST_CHILD, s->has & PLIST_HAS_CHILD, s->child);
        pv_buf_clear(&text);
        for (size_t k = 0; k < s->name_count; k++) {
            if (k)
                pv_buf_puts(&text, " <- ");
            pv_buf_puts(&text, plist_name(&p->names, p->stack_names[s->first_name + k]));
        }
        pv_table_set_str(st, r, ST_PATH, text.data ? text.data : "", text.len);
        pv_table_set_int(st, r, ST_FILE_LINE, (int64_t)s->file_line);

        size_t node = PLIST_NONE;
        for (size_t k = 0; k < n; k++) {
            size_t next = plist_trie_child(&trie, node, path[k]);
            if (next == PLIST_NONE)
                break;
            node = next;
        }
        if (node != PLIST_NONE) {
            plist_node *nd = &trie.nodes[node];
            nd->stacks++;
            plist_sum(&nd->hits, s->has & PLIST_HAS_HITS, s->hits);
            plist_sum(&nd->time, s->has & PLIST_HAS_TIME, s->time);
            plist_sum(&nd->child, s->has & PLIST_HAS_CHILD, s->child);
            nd->has |= s->has;
        }
        if (n >= 2)
            plist_graph_add_edge(g, &edge_index, path[n - 2], path[n - 1], s);
    }
    pv_buf_free(&text);
    free(path);

    pv_set_add_view(set, plist_trace_view(p, &trie));
    pv_set_add_view(set, pv_table_view(st));
    free(trie.nodes);
    pv_hashmap_free(&trie.index);
    pv_hashmap_free(&edge_index);
}

static pv_table *plist_routines_table(const plist_model *p)
{
    pv_table *t = pv_table_new("routines", "Routines", plist_routine_columns, RT_COLUMNS);
    pv_table_reserve(t, p->routine_count);
    int64_t sum_hits = 0;
    for (size_t i = 0; i < p->routine_count; i++)
        plist_sum(&sum_hits, p->routines[i].has & PLIST_HAS_HITS, p->routines[i].hits);
    int64_t total_time = plist_time_total(p);
    int64_t total_hits = plist_total(p->has_total_hits, p->total_hits, sum_hits);
    for (size_t i = 0; i < p->routine_count; i++) {
        const plist_routine *rt = &p->routines[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, RT_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, RT_ROUTINE, plist_name(&p->names, rt->name));
        /* The seed calls `source` the object module; `exe` is the binary. */
        pv_table_set_cstr(t, r, RT_MODULE, pv_strpool_get(&p->text, rt->source));
        pv_table_set_cstr(t, r, RT_EXE, pv_strpool_get(&p->text, rt->exe));
        pv_table_set_cstr(t, r, RT_SOURCE, pv_strpool_get(&p->text, rt->source));
        bool hits = rt->has & PLIST_HAS_HITS;
        plist_set_opt(t, r, RT_HITS, hits, rt->hits);
        plist_set_opt(t, r, RT_TIME, rt->has & PLIST_HAS_TIME, rt->time);
        plist_set_opt(t, r, RT_CHILD, rt->has & PLIST_HAS_CHILD, rt->child);
        if ((rt->has & PLIST_HAS_TIME) && total_time > 0)
            pv_table_set_float(t, r, RT_PERCENT_TIME,
                               (double)rt->time * 100.0 / (double)total_time);
        if (hits && total_hits > 0)
            pv_table_set_float(t, r, RT_PERCENT_HITS,
                               (double)rt->hits * 100.0 / (double)total_hits);
        if (hits && rt->hits > 0 && (rt->has & PLIST_HAS_TIME))
            pv_table_set_int(t, r, RT_AVG_TIME, rt->time / rt->hits);
        if (hits && rt->hits > 0 && (rt->has & PLIST_HAS_CHILD))
            pv_table_set_int(t, r, RT_AVG_CHILD, rt->child / rt->hits);
        plist_set_opt(t, r, RT_COVERED, hits, rt->hits > 0);
        pv_table_set_int(t, r, RT_FILE_LINE, (int64_t)rt->file_line);
    }
    return t;
}

static const pv_detail_def plist_line_details[] = {{PV_DETAIL_SOURCE, "Source"}};

enum { TX_SOURCE, TX_LINE, TX_TEXT, TX_COLUMNS };
static const pv_column plist_text_line_columns[TX_COLUMNS] = {
    {PV_COLUMN_SOURCE, 0},
    {PV_COLUMN_LINE, 0},
    {"text", "Source text", PV_TYPE_STRING, 0},
};

/* The source file around a line, its hits in the gutter (docs/source.md);
 * a text report's own text (its lines with and without a count) when the
 * file is not found.  ctx: the lines without a count, a view, or NULL. */
static pv_view *plist_open_source(void *ctx, const pv_view *owner, size_t detail, size_t row)
{
    (void)detail;
    const pv_view *text_lines = ctx;
    static const char *const figs[] = {"hits", "covered", NULL};
    pv_source_gutter text = {text_lines, TX_SOURCE, TX_LINE, TX_TEXT, NULL, 0};
    return pv_source_of_row(owner, row, "source", "line", "text",
                            text_lines ? &text : NULL, figs);
}

static void plist_text_lines_free(void *ctx) { pv_view_free(ctx); }

/* A text report's source lines without a count, as a view for the source
 * detail; NULL for /T output. */
static pv_view *plist_text_lines_view(const plist_model *p)
{
    if (!p->text_report)
        return NULL;
    pv_table *t = pv_table_new("source-text", "Source text", plist_text_line_columns, TX_COLUMNS);
    for (size_t i = 0; i < p->text_line_count; i++) {
        const plist_line *l = &p->text_lines[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_cstr(t, r, TX_SOURCE, pv_strpool_get(&p->text, l->source));
        pv_table_set_int(t, r, TX_LINE, l->line);
        pv_table_set_cstr(t, r, TX_TEXT, pv_strpool_get(&p->text, l->text));
    }
    return pv_table_view(t);
}

static pv_view *plist_lines_view(const plist_model *p)
{
    pv_table *t = pv_table_new("lines", "Lines", plist_line_columns,
                               p->text_report ? LN_COLUMNS : LN_COLUMNS - 1);
    pv_table_reserve(t, p->line_count);
    int64_t sum_hits = 0;
    for (size_t i = 0; i < p->line_count; i++)
        plist_sum(&sum_hits, p->lines[i].has & PLIST_HAS_HITS, p->lines[i].hits);
    int64_t total_hits = plist_total(p->has_total_hits, p->total_hits, sum_hits);
    for (size_t i = 0; i < p->line_count; i++) {
        const plist_line *l = &p->lines[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, LN_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, LN_EXE, pv_strpool_get(&p->text, l->exe));
        pv_table_set_cstr(t, r, LN_SOURCE, pv_strpool_get(&p->text, l->source));
        plist_set_opt(t, r, LN_LINE, l->has & PLIST_HAS_LINE, l->line);
        bool hits = l->has & PLIST_HAS_HITS;
        plist_set_opt(t, r, LN_HITS, hits, l->hits);
        if (hits && total_hits > 0)
            pv_table_set_float(t, r, LN_PERCENT_HITS, (double)l->hits * 100.0 / (double)total_hits);
        plist_set_opt(t, r, LN_COVERED, hits, l->hits > 0);
        pv_table_set_int(t, r, LN_FILE_LINE, (int64_t)l->file_line);
        if (p->text_report)
            pv_table_set_cstr(t, r, LN_TEXT, pv_strpool_get(&p->text, l->text));
    }
    pv_table_set_details(t, plist_line_details, PV_ARRAY_LEN(plist_line_details),
                         plist_open_source, plist_text_lines_view(p), plist_text_lines_free);
    return pv_table_view(t);
}

static pv_view *plist_records_view(const plist_model *p)
{
    pv_table *t = pv_table_new("records", "Unknown records", plist_record_columns, RC_COLUMNS);
    for (size_t i = 0; i < p->unknown_count; i++) {
        const plist_raw *u = &p->unknown[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, RC_ID, (int64_t)r + 1);
        pv_table_set_int(t, r, RC_FILE_LINE, (int64_t)u->file_line);
        pv_table_set_cstr(t, r, RC_TAG, pv_strpool_get(&p->text, u->tag));
        pv_table_set_cstr(t, r, RC_TEXT, pv_strpool_get(&p->text, u->text));
    }
    return pv_table_view(t);
}

/* The rows of the routines (or lines) that a module's table listed. */
static int64_t plist_module_rows(const plist_model *p, uint32_t name)
{
    const char *want = pv_strpool_get(&p->text, name);
    int64_t n = 0;
    for (size_t i = 0; i < p->routine_count; i++)
        n += strcmp(pv_strpool_get(&p->text, p->routines[i].exe), want) == 0;
    for (size_t i = 0; i < p->line_count; i++)
        n += strcmp(pv_strpool_get(&p->text, p->lines[i].exe), want) == 0;
    return n;
}

/* One row per `Module Statistics for NAME` block, its figures as written;
 * `rows` counts the table rows read for it. */
static pv_view *plist_modules_view(const plist_model *p)
{
    pv_table *t = pv_table_new("modules", "Modules", plist_module_columns, MD_COLUMNS);
    if (!plist_is_function_profile(p))
        pv_table_set_column_title(t, MD_UNITS, "Lines");
    for (size_t i = 0; i < p->module_count; i++) {
        const plist_module *m = &p->modules[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, MD_ID, (int64_t)r + 1);
        pv_table_set_cstr(t, r, MD_MODULE, pv_strpool_get(&p->text, m->name));
        plist_set_opt(t, r, MD_TIME, m->has & PLIST_HAS_TIME, m->time);
        if (m->has & PLIST_HAS_PERCENT)
            pv_table_set_float(t, r, MD_PERCENT_TIME, m->percent_time);
        plist_set_opt(t, r, MD_UNITS, m->has & PLIST_HAS_UNITS, m->units);
        plist_set_opt(t, r, MD_HITS, m->has & PLIST_HAS_HITS, m->hits);
        if (m->has & PLIST_HAS_COVERAGE)
            pv_table_set_float(t, r, MD_COVERAGE, m->coverage);
        pv_table_set_int(t, r, MD_ROUTINES, plist_module_rows(p, m->name));
        pv_table_set_int(t, r, MD_FILE_LINE, (int64_t)m->file_line);
    }
    return pv_table_view(t);
}

void plist_build(plist_model *p)
{
    const char *kind = "PLIST profile";
    if (p->has_method && plist_method_name(p->method))
        kind = plist_method_name(p->method);
    pv_result_set *set =
        pv_file_add_set(p->f, 1, p->text_report ? "PLIST text report" : "PLIST report", kind);
    if (p->has_method && !plist_method_name(p->method))
        pv_set_add_note(set, "unknown profiling method %" PRId64 " (read as a %s profile)",
                        p->method, p->method > 400 ? "function" : "line");
    pv_set_add_view(set, plist_summary_view(p));

    bool functions = plist_is_function_profile(p) || p->routine_count || p->stack_count;
    if (functions && p->text_report) {
        /* A text report has no attribution stacks (docs/plist.md). */
        pv_set_add_view(set, pv_table_view(plist_routines_table(p)));
    } else if (functions) {
        plist_graph *g = pv_xcalloc(1, sizeof *g);
        pv_table *routines = plist_routines_table(p);
        pv_set_add_view(set, pv_table_view(routines));
        plist_attribution_views(p, set, g);
        g->routine_count = p->routine_count;
        g->routine_name = pv_xmalloc((p->routine_count ? p->routine_count : 1) * sizeof(uint32_t));
        for (size_t i = 0; i < p->routine_count; i++)
            g->routine_name[i] = p->routines[i].name;
        /* The names move to the details' context: they outlive the parser. */
        g->names = p->names;
        plist_names_init(&p->names);
        pv_table_set_details(routines, plist_routine_details, PV_ARRAY_LEN(plist_routine_details),
                             plist_open_edges, g, plist_graph_free);
    }
    if (!plist_is_function_profile(p) || p->line_count)
        pv_set_add_view(set, plist_lines_view(p));
    if (p->text_report)
        pv_set_add_view(set, plist_modules_view(p));
    if (p->unknown_count)
        pv_set_add_view(set, plist_records_view(p));
    if (p->text_report && functions)
        pv_set_add_note(set, "%s", plist_text_note);
    if (plist_is_coverage(p))
        pv_set_add_note(set, "coverage profile: hits are 1 (executed) or 0; filter with "
                             "covered = 0 for what never ran");
}
