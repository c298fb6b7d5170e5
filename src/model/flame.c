/* flame.c - call paths merged from the root, the `flame` view and the
 * sandwich of a routine (docs/flame.md).  Reads the call tree only through
 * the view API. */
#include "profview/flame.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "profview/table.h"

/* ---- building: nodes, interned names, a hash of (parent, name, module) */

typedef struct fl_builder {
    pv_flame *fl;
    size_t node_cap;
    size_t raw_cap; /* of fl->raw, in nodes */
    /* interned strings: open addressing over pool offsets */
    uint32_t *str_slots;
    size_t str_cap, str_count;
    /* child lookup: open addressing over node indices */
    uint32_t *child_slots;
    size_t child_cap;
    /* module -> group index, context -> group index */
    uint32_t *group_of_str; /* indexed by interned string number */
    uint32_t *str_number;   /* parallel to str_slots: string number */
    size_t group_cap;
} fl_builder;

static uint64_t fl_hash3(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t h = ((uint64_t)a * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)b * 0xC2B2AE3D27D4EB4Full) ^
                 ((uint64_t)c * 0x165667B19E3779F9ull);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
}

static void fl_str_grow(fl_builder *b)
{
    size_t cap = b->str_cap ? b->str_cap * 2 : 1024;
    uint32_t *slots = pv_xmalloc(cap * sizeof *slots);
    for (size_t i = 0; i < cap; i++)
        slots[i] = UINT32_MAX;
    for (size_t i = 0; i < b->str_cap; i++) {
        uint32_t off = b->str_slots[i];
        if (off == UINT32_MAX)
            continue;
        const char *s = pv_strpool_get(&b->fl->pool, off);
        size_t j = pv_hash_bytes(s, strlen(s)) & (cap - 1);
        while (slots[j] != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        slots[j] = off;
    }
    free(b->str_slots);
    b->str_slots = slots;
    b->str_cap = cap;
}

/* The pool offset of s (added once).  Names never contain NUL (cells are
 * NUL-free), so strlen of a pooled string is its length. */
static uint32_t fl_intern(fl_builder *b, const char *s, size_t len)
{
    if (len == 0)
        return 0;
    if ((b->str_count + 1) * 2 > b->str_cap)
        fl_str_grow(b);
    size_t j = pv_hash_bytes(s, len) & (b->str_cap - 1);
    for (;;) {
        uint32_t off = b->str_slots[j];
        if (off == UINT32_MAX)
            break;
        const char *p = pv_strpool_get(&b->fl->pool, off);
        if (strncmp(p, s, len) == 0 && p[len] == '\0')
            return off;
        j = (j + 1) & (b->str_cap - 1);
    }
    uint32_t off = pv_strpool_add(&b->fl->pool, s, len);
    b->str_slots[j] = off;
    b->str_count++;
    return off;
}

static uint32_t fl_new_node(fl_builder *b, uint32_t parent, uint32_t name, uint32_t module)
{
    pv_flame *fl = b->fl;
    fl->nodes = pv_xgrow(fl->nodes, &b->node_cap, fl->count + 1, sizeof *fl->nodes);
    uint32_t n = (uint32_t)fl->count++;
    pv_flame_node *node = &fl->nodes[n];
    memset(node, 0, sizeof *node);
    node->parent = parent;
    node->first_child = PV_FLAME_NONE;
    node->next_sibling = PV_FLAME_NONE;
    node->name = name;
    node->name_len = (uint32_t)strlen(pv_strpool_get(&fl->pool, name));
    node->module = module;
    node->context = PV_FLAME_NONE;
    node->first_row = UINT32_MAX;
    if (fl->raw_view) {
        fl->raw = pv_xgrow(fl->raw, &b->raw_cap, fl->count, 2 * sizeof *fl->raw);
        fl->raw[2 * n] = fl->raw[2 * n + 1] = 0;
    }
    if (parent != PV_FLAME_NONE) {
        node->depth = fl->nodes[parent].depth + 1;
        node->context = fl->nodes[parent].is_context ? parent : fl->nodes[parent].context;
        node->next_sibling = fl->nodes[parent].first_child;
        fl->nodes[parent].first_child = n;
    }
    return n;
}

static void fl_child_grow(fl_builder *b)
{
    size_t cap = b->child_cap ? b->child_cap * 2 : 1024;
    uint32_t *slots = pv_xmalloc(cap * sizeof *slots);
    for (size_t i = 0; i < cap; i++)
        slots[i] = UINT32_MAX;
    const pv_flame_node *nodes = b->fl->nodes;
    for (size_t n = 1; n < b->fl->count; n++) {
        size_t j = fl_hash3(nodes[n].parent, nodes[n].name, nodes[n].module) & (cap - 1);
        while (slots[j] != UINT32_MAX)
            j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)n;
    }
    free(b->child_slots);
    b->child_slots = slots;
    b->child_cap = cap;
}

/* The child of `parent` with that name and module, made when absent. */
static uint32_t fl_child(fl_builder *b, uint32_t parent, uint32_t name, uint32_t module)
{
    if ((b->fl->count + 1) * 2 > b->child_cap)
        fl_child_grow(b);
    size_t j = fl_hash3(parent, name, module) & (b->child_cap - 1);
    for (;;) {
        uint32_t n = b->child_slots[j];
        if (n == UINT32_MAX)
            break;
        const pv_flame_node *node = &b->fl->nodes[n];
        if (node->parent == parent && node->name == name && node->module == module)
            return n;
        j = (j + 1) & (b->child_cap - 1);
    }
    uint32_t n = fl_new_node(b, parent, name, module);
    b->child_slots[j] = n;
    return n;
}

static pv_flame *fl_new(void)
{
    pv_flame *fl = pv_xcalloc(1, sizeof *fl);
    pv_strpool_init(&fl->pool);
    fl->time_type = PV_TYPE_TIME;
    return fl;
}

static void fl_builder_init(fl_builder *b, pv_flame *fl)
{
    memset(b, 0, sizeof *b);
    b->fl = fl;
    fl_new_node(b, PV_FLAME_NONE, 0, 0); /* the root */
}

static void fl_builder_done(fl_builder *b)
{
    free(b->str_slots);
    free(b->child_slots);
}

/* ---- finishing: sibling order, pre-order, totals of context frames, groups */

static const pv_flame *fl_sort_ctx;

static int fl_name_cmp(const void *pa, const void *pb)
{
    const pv_flame_node *a = &fl_sort_ctx->nodes[*(const uint32_t *)pa];
    const pv_flame_node *b = &fl_sort_ctx->nodes[*(const uint32_t *)pb];
    int c = strcmp(pv_strpool_get(&fl_sort_ctx->pool, a->name),
                   pv_strpool_get(&fl_sort_ctx->pool, b->name));
    if (c == 0)
        c = strcmp(pv_strpool_get(&fl_sort_ctx->pool, a->module),
                   pv_strpool_get(&fl_sort_ctx->pool, b->module));
    return c;
}

/* Orders each node's children by name (flamegraph.pl's order: a stable
 * picture whatever the order of the calls), writes the pre-order, and sums
 * the totals of the frames that have no time of their own (the root and
 * thread/context frames). */
static void fl_finish(pv_flame *fl)
{
    size_t n = fl->count;
    uint32_t *tmp = pv_xmalloc((n ? n : 1) * sizeof *tmp);
    fl_sort_ctx = fl;
    for (size_t p = 0; p < n; p++) {
        size_t k = 0;
        for (uint32_t c = fl->nodes[p].first_child; c != PV_FLAME_NONE;
             c = fl->nodes[c].next_sibling)
            tmp[k++] = c;
        if (k > 1)
            qsort(tmp, k, sizeof *tmp, fl_name_cmp);
        fl->nodes[p].first_child = k ? tmp[0] : PV_FLAME_NONE;
        for (size_t i = 0; i < k; i++)
            fl->nodes[tmp[i]].next_sibling = i + 1 < k ? tmp[i + 1] : PV_FLAME_NONE;
    }
    fl_sort_ctx = NULL;
    /* pre-order without recursion (depth is as deep as the input's tree) */
    fl->preorder = pv_xmalloc((n ? n : 1) * sizeof *fl->preorder);
    fl->preorder_count = 0;
    size_t top = 0;
    uint32_t *stack = tmp;
    for (uint32_t c = fl->nodes[0].first_child; c != PV_FLAME_NONE; c = fl->nodes[c].next_sibling)
        top++;
    /* push the root's children in reverse so the first pops first */
    size_t k = 0;
    for (uint32_t c = fl->nodes[0].first_child; c != PV_FLAME_NONE; c = fl->nodes[c].next_sibling)
        stack[top - 1 - k++] = c;
    while (top) {
        uint32_t x = stack[--top];
        fl->preorder[fl->preorder_count++] = x;
        size_t kids = 0;
        for (uint32_t c = fl->nodes[x].first_child; c != PV_FLAME_NONE;
             c = fl->nodes[c].next_sibling)
            kids++;
        size_t i = 0;
        for (uint32_t c = fl->nodes[x].first_child; c != PV_FLAME_NONE;
             c = fl->nodes[c].next_sibling)
            stack[top + kids - 1 - i++] = c;
        top += kids;
    }
    free(tmp);
    /* frames without time of their own: sum their children, bottom-up */
    for (size_t i = fl->preorder_count; i-- > 0;) {
        uint32_t x = fl->preorder[i];
        uint32_t p = fl->nodes[x].parent;
        if (p == PV_FLAME_NONE || (p != 0 && !fl->nodes[p].is_context))
            continue;
        if (fl->raw)
            fl->raw[2 * p + 1] += fl->raw[2 * x + 1];
        else
            fl->nodes[p].total += fl->nodes[x].total;
    }
    /* raw sums: each converted once, now that it is summed */
    for (size_t x = 0; fl->raw && x < fl->count; x++) {
        fl->nodes[x].self = pv_view_raw_sum(fl->raw_view, fl->raw_col[0], fl->raw[2 * x]);
        fl->nodes[x].total = pv_view_raw_sum(fl->raw_view, fl->raw_col[1], fl->raw[2 * x + 1]);
    }
}

/* Adds the times of node x of fl to node c of `to` (a sandwich's tree):
 * its self time and, with `total`, its total; raw sums when fl has them. */
static void fl_add_times(pv_flame *to, uint32_t c, const pv_flame *fl, uint32_t x, bool self,
                         bool total)
{
    if (fl->raw) {
        to->raw[2 * c] += self ? fl->raw[2 * x] : 0;
        to->raw[2 * c + 1] += total ? fl->raw[2 * x + 1] : 0;
        return;
    }
    to->nodes[c].self += self ? fl->nodes[x].self : 0;
    to->nodes[c].total += total ? fl->nodes[x].total : 0;
}

/* Colour groups: the module when the frames have several, else the context
 * (its top-level frame); at most 64, the rest share colours round-robin. */
static void fl_groups(pv_flame *fl)
{
    uint32_t ids[64];
    size_t id_count = 0;
    for (size_t i = 0; i < fl->preorder_count; i++) {
        uint32_t x = fl->preorder[i];
        pv_flame_node *node = &fl->nodes[x];
        uint32_t key = fl->by_module ? (node->is_context ? 0 : node->module)
                       : node->is_context ? x
                                          : node->context;
        size_t g = 0;
        while (g < id_count && ids[g] != key)
            g++;
        if (g == id_count && id_count < 64)
            ids[id_count++] = key;
        node->group = (uint32_t)(g < id_count ? g : key % 64);
    }
    fl->group_count = (uint32_t)id_count;
}

/* ---- from a call tree */

static bool fl_time_type(pv_type t)
{
    return t == PV_TYPE_TIME || t == PV_TYPE_INT;
}

pv_view *pv_flame_source(const pv_result_set *set)
{
    pv_view *v = pv_set_find_view(set, "call-trace");
    return v && pv_view_is_tree(v) ? v : NULL;
}

/* The text of a thread/context cell as a frame name: `Thread <id>` for a
 * numeric thread (docs/cli.md names thread entries so), the name as is
 * for a context. */
static void fl_context_name(const pv_cell *c, pv_buf *out)
{
    pv_buf_clear(out);
    if (c->type == PV_TYPE_STRING) {
        pv_buf_append(out, c->v.s.ptr, c->v.s.len);
        return;
    }
    pv_buf_puts(out, "Thread ");
    pv_cell_format_exact(c, out);
}

/* The merge in progress (pv_flame_builder_*): the tree's columns, the
 * node of every row taken, one-entry caches of the last name and module. */
struct pv_flame_builder {
    const pv_view *tree;
    pv_flame *fl;
    fl_builder b;
    size_t col_routine, col_time, col_twc, col_module, col_ctx;
    size_t n_rows;
    uint32_t *node_of; /* row -> node + 1; 0 for rows not taken (calloc: the
                          pages are zeroed as the slices reach them) */
    /* names interned lately, by the cell's pointer (a virtual view hands
     * out the same pointer for the same name); a hit is still compared */
    struct {
        const char *ptr;
        size_t len;
        uint32_t off;
    } seen[256];
    pv_buf ctx_text;
    /* frames inside the rows (pv_view_inner_frames): their view, columns */
    pv_view *inner;
    size_t in_parent, in_routine, in_module, in_ctx, in_time, in_twc;
    uint32_t last_ctx;     /* the context frame of the last top-level call, 0 = none */
    pv_cell last_ctx_cell; /* ... and its cell */
};

/* The pool offset of the cell text (s, len), through the pointer cache. */
static inline uint32_t fl_intern_cell(pv_flame_builder *fb, const char *s, size_t len)
{
    size_t k = (((uintptr_t)s >> 3) ^ ((uintptr_t)s >> 11) ^ len) & 255;
    if (fb->seen[k].ptr == s && fb->seen[k].len == len &&
        (len == 0 || memcmp(pv_strpool_get(&fb->fl->pool, fb->seen[k].off), s, len) == 0))
        return fb->seen[k].off;
    uint32_t off = fl_intern(&fb->b, s, len);
    fb->seen[k].ptr = s;
    fb->seen[k].len = len;
    fb->seen[k].off = off;
    return off;
}

pv_flame_builder *pv_flame_builder_new(const pv_view *tree, char *err, size_t err_len)
{
    if (!pv_view_is_tree(tree)) {
        snprintf(err, err_len, "view '%s' is no call tree", tree->id);
        return NULL;
    }
    size_t col_routine = pv_view_column(tree, "routine");
    size_t col_time = pv_view_column(tree, "time");
    size_t col_twc = pv_view_column(tree, "time_with_children");
    if (col_routine == PV_NO_ROW || col_time == PV_NO_ROW || col_twc == PV_NO_ROW ||
        !fl_time_type(tree->columns[col_time].type) ||
        !fl_time_type(tree->columns[col_twc].type)) {
        snprintf(err, err_len,
                 "view '%s' has no routine, time and time_with_children columns to draw",
                 tree->id);
        return NULL;
    }
    size_t col_module = pv_view_column(tree, "module");
    if (col_module != PV_NO_ROW && tree->columns[col_module].type != PV_TYPE_STRING)
        col_module = PV_NO_ROW;
    const char *ctx_id = "context";
    size_t col_ctx = pv_view_column(tree, ctx_id);
    if (col_ctx == PV_NO_ROW) {
        ctx_id = "thread";
        col_ctx = pv_view_column(tree, ctx_id);
    }
    size_t n_rows = pv_view_rows(tree);
    if (n_rows >= UINT32_MAX) {
        snprintf(err, err_len, "view '%s' has too many rows for a flame graph", tree->id);
        return NULL;
    }
    pv_flame_builder *fb = pv_xcalloc(1, sizeof *fb);
    fb->tree = tree;
    fb->col_routine = col_routine;
    fb->col_time = col_time;
    fb->col_twc = col_twc;
    fb->col_module = col_module;
    fb->col_ctx = col_ctx;
    fb->n_rows = n_rows;
    pv_flame *fl = fb->fl = fl_new();
    fl->time_type = tree->columns[col_time].type;
    fl->context_column = col_ctx != PV_NO_ROW ? ctx_id : NULL;
    fl->source_view = pv_xstrdup(tree->id);
    fb->inner = pv_view_inner_frames(tree);
    if (!fb->inner && pv_view_has_raw(tree, col_time) && pv_view_has_raw(tree, col_twc)) {
        /* docs/flame.md "Raw values" (a tree with inner frames has none) */
        fl->raw_view = tree;
        fl->raw_col[0] = col_time;
        fl->raw_col[1] = col_twc;
    }
    fl_builder_init(&fb->b, fl);
    fb->node_of = pv_xcalloc(n_rows ? n_rows : 1, sizeof *fb->node_of);
    pv_buf_init(&fb->ctx_text);
    if (fb->inner) {
        const pv_view *in = fb->inner;
        fb->in_parent = pv_view_column(in, "parent");
        fb->in_routine = pv_view_column(in, "routine");
        fb->in_module = pv_view_column(in, "module");
        fb->in_ctx = pv_view_column(in, ctx_id);
        fb->in_time = pv_view_column(in, "time");
        fb->in_twc = pv_view_column(in, "time_with_children");
        if (fb->in_parent == PV_NO_ROW || fb->in_routine == PV_NO_ROW ||
            fb->in_time == PV_NO_ROW || fb->in_twc == PV_NO_ROW) {
            pv_view_free(fb->inner); /* not what the hook promises: left out */
            fb->inner = NULL;
        }
    }
    return fb;
}

/* Merges the call of row r (its parent, when taken, came before). */
static inline void fl_add_row(pv_flame_builder *fb, size_t r)
{
    const pv_view *tree = fb->tree;
    pv_flame *fl = fb->fl;
    fl_builder *b = &fb->b;
    size_t p = pv_view_parent(tree, r);
    uint32_t taken = p != PV_NO_ROW && p < fb->n_rows ? fb->node_of[p] : 0;
    uint32_t parent = taken ? taken - 1 : 0;
    pv_cell c;
    if (!taken) {
        if (fb->col_ctx != PV_NO_ROW) {
            pv_view_cell(tree, r, fb->col_ctx, &c);
            bool again = c.present && fb->last_ctx != 0 && c.type == fb->last_ctx_cell.type &&
                         (c.type == PV_TYPE_STRING
                              ? c.v.s.ptr == fb->last_ctx_cell.v.s.ptr &&
                                    c.v.s.len == fb->last_ctx_cell.v.s.len &&
                                    (c.v.s.len == 0 ||
                                     memcmp(pv_strpool_get(&fl->pool, fl->nodes[fb->last_ctx].module),
                                            c.v.s.ptr, c.v.s.len) == 0)
                              : c.v.i == fb->last_ctx_cell.v.i);
            if (again) {
                /* the context of the previous top-level call (its text is
                 * the frame's module slot) */
                parent = fb->last_ctx;
            } else if (c.present) {
                /* the frame is named `Thread 4120`; its module slot keeps
                 * the cell as the tree writes it (`4120`), for --context */
                fl_context_name(&c, &fb->ctx_text);
                uint32_t name = fl_intern(b, fb->ctx_text.data, fb->ctx_text.len);
                pv_buf_clear(&fb->ctx_text);
                pv_cell_format_exact(&c, &fb->ctx_text);
                uint32_t exact = fl_intern(b, fb->ctx_text.data, fb->ctx_text.len);
                parent = fl_child(b, 0, name, exact);
                fl->nodes[parent].is_context = true;
                if (fl->nodes[parent].first_row == UINT32_MAX)
                    fl->nodes[parent].first_row = (uint32_t)r;
                fb->last_ctx = parent;
                fb->last_ctx_cell = c;
            }
        }
    }
    pv_view_cell(tree, r, fb->col_routine, &c);
    uint32_t name = c.present && c.type == PV_TYPE_STRING ? fl_intern_cell(fb, c.v.s.ptr, c.v.s.len)
                                                          : 0;
    uint32_t module = 0;
    if (fb->col_module != PV_NO_ROW) {
        pv_view_cell(tree, r, fb->col_module, &c);
        if (c.present)
            module = fl_intern_cell(fb, c.v.s.ptr, c.v.s.len);
    }
    uint32_t n = fl_child(b, parent, name, module);
    fb->node_of[r] = n + 1;
    pv_flame_node *node = &fl->nodes[n];
    if (fl->raw) {
        /* summed raw, converted once in fl_finish */
        int64_t raw;
        if (pv_view_cell_raw(tree, r, fb->col_time, &raw))
            fl->raw[2 * n] += raw;
        if (pv_view_cell_raw(tree, r, fb->col_twc, &raw))
            fl->raw[2 * n + 1] += raw;
    } else {
        pv_view_cell(tree, r, fb->col_time, &c);
        if (c.present)
            node->self += c.v.i;
        pv_view_cell(tree, r, fb->col_twc, &c);
        if (c.present)
            node->total += c.v.i;
    }
    node->calls++;
    if (node->first_row == UINT32_MAX)
        node->first_row = (uint32_t)r;
}

/* The context frame of a cell of the context column (as for a top-level call). */
static uint32_t fl_context_frame(pv_flame_builder *fb, const pv_cell *c, uint32_t first_row)
{
    fl_context_name(c, &fb->ctx_text);
    uint32_t name = fl_intern(&fb->b, fb->ctx_text.data, fb->ctx_text.len);
    pv_buf_clear(&fb->ctx_text);
    pv_cell_format_exact(c, &fb->ctx_text);
    uint32_t exact = fl_intern(&fb->b, fb->ctx_text.data, fb->ctx_text.len);
    uint32_t n = fl_child(&fb->b, 0, name, exact);
    fb->fl->nodes[n].is_context = true;
    if (fb->fl->nodes[n].first_row == UINT32_MAX)
        fb->fl->nodes[n].first_row = first_row;
    return n;
}

size_t pv_flame_builder_inner_rows(const pv_flame_builder *fb)
{
    return fb->inner ? pv_view_rows(fb->inner) : 0;
}

void pv_flame_builder_add_inner(pv_flame_builder *fb, size_t from, size_t to)
{
    const pv_view *in = fb->inner;
    if (!in)
        return;
    size_t n = pv_view_rows(in);
    if (to > n)
        to = n;
    pv_flame *fl = fb->fl;
    for (size_t r = from; r < to; r++) {
        pv_cell c;
        pv_view_cell(in, r, fb->in_parent, &c);
        uint32_t parent = 0;
        if (c.present) {
            /* inside a row: hidden with it when the filter did not take it */
            if (c.v.i < 1 || (uint64_t)c.v.i > fb->n_rows || !fb->node_of[c.v.i - 1])
                continue;
            parent = fb->node_of[c.v.i - 1] - 1;
        } else if (fb->in_ctx != PV_NO_ROW) {
            pv_view_cell(in, r, fb->in_ctx, &c);
            if (c.present)
                parent = fl_context_frame(fb, &c, UINT32_MAX);
        }
        pv_view_cell(in, r, fb->in_routine, &c);
        uint32_t name = c.present && c.type == PV_TYPE_STRING
                            ? fl_intern_cell(fb, c.v.s.ptr, c.v.s.len)
                            : 0;
        uint32_t module = 0;
        if (fb->in_module != PV_NO_ROW && fb->col_module != PV_NO_ROW) {
            pv_view_cell(in, r, fb->in_module, &c);
            if (c.present && c.type == PV_TYPE_STRING)
                module = fl_intern_cell(fb, c.v.s.ptr, c.v.s.len);
        }
        uint32_t x = fl_child(&fb->b, parent, name, module);
        pv_flame_node *node = &fl->nodes[x];
        pv_view_cell(in, r, fb->in_time, &c);
        if (c.present)
            node->self += c.v.i;
        pv_view_cell(in, r, fb->in_twc, &c);
        if (c.present)
            node->total += c.v.i;
        node->calls++;
    }
}

void pv_flame_builder_add(pv_flame_builder *fb, size_t from, size_t to, const uint8_t *keep)
{
    if (to > fb->n_rows)
        to = fb->n_rows;
    for (size_t r = from; r < to; r++)
        if (!keep || keep[r])
            fl_add_row(fb, r);
}

void pv_flame_builder_free(pv_flame_builder *fb)
{
    if (!fb)
        return;
    fl_builder_done(&fb->b);
    pv_flame_free(fb->fl);
    pv_view_free(fb->inner);
    free(fb->node_of);
    pv_buf_free(&fb->ctx_text);
    free(fb);
}

pv_flame *pv_flame_builder_finish(pv_flame_builder *fb)
{
    pv_flame *fl = fb->fl;
    fb->fl = NULL;
    pv_flame_builder_free(fb);
    fl_finish(fl);
    /* colour by module when the frames have at least two, else by context */
    fl->by_module = false;
    uint32_t first_module = UINT32_MAX;
    for (size_t i = 0; i < fl->preorder_count; i++) {
        const pv_flame_node *node = &fl->nodes[fl->preorder[i]];
        if (node->is_context)
            continue;
        if (first_module == UINT32_MAX)
            first_module = node->module;
        else if (node->module != first_module) {
            fl->by_module = true;
            break;
        }
    }
    fl_groups(fl);
    return fl;
}

pv_flame *pv_flame_build(const pv_view *tree, const pv_row *rows, size_t row_count, char *err,
                         size_t err_len)
{
    pv_flame_builder *fb = pv_flame_builder_new(tree, err, err_len);
    if (!fb)
        return NULL;
    if (rows) {
        for (size_t i = 0; i < row_count; i++)
            if (rows[i] < fb->n_rows)
                fl_add_row(fb, rows[i]);
    } else {
        pv_flame_builder_add(fb, 0, fb->n_rows, NULL);
    }
    pv_flame_builder_add_inner(fb, 0, pv_flame_builder_inner_rows(fb));
    return pv_flame_builder_finish(fb);
}

void pv_flame_free(pv_flame *fl)
{
    if (!fl)
        return;
    free(fl->nodes);
    free(fl->raw);
    free(fl->preorder);
    free(fl->source_view);
    pv_strpool_free(&fl->pool);
    free(fl);
}

/* ---- folded stacks */

void pv_flame_escape(pv_buf *out, const char *s, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == ';' || ch == '%' || ch < 0x20 || ch == 0x7F) {
            pv_buf_append(out, s + start, i - start);
            char esc[3] = {'%', hex[ch >> 4], hex[ch & 15]};
            pv_buf_append(out, esc, 3);
            start = i + 1;
        }
    }
    pv_buf_append(out, s + start, len - start);
}

void pv_flame_stack(const pv_flame *fl, uint32_t n, pv_buf *out)
{
    uint32_t depth = fl->nodes[n].depth;
    if (depth == 0)
        return;
    uint32_t *path = pv_xmalloc(depth * sizeof *path);
    size_t k = 0;
    for (uint32_t x = n; x != PV_FLAME_NONE && x != 0 && k < depth; x = fl->nodes[x].parent)
        path[k++] = x;
    for (size_t i = k; i-- > 0;) {
        if (i + 1 < k)
            pv_buf_putc(out, ';');
        pv_flame_escape(out, pv_flame_name(fl, path[i]), fl->nodes[path[i]].name_len);
    }
    free(path);
}

enum {
    FV_ID,
    FV_PARENT,
    FV_STACK,
    FV_DEPTH,
    FV_CONTEXT,
    FV_ROUTINE,
    FV_MODULE,
    FV_SELF,
    FV_TOTAL,
    FV_CALLS,
    FV_COLUMNS
};

pv_view *pv_flame_view(const pv_flame *fl)
{
    pv_column cols[FV_COLUMNS] = {
        {PV_COLUMN_ID, PV_COL_HIDDEN},
        {PV_COLUMN_PARENT, PV_COL_HIDDEN},
        {"stack", "Stack", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
        {PV_COLUMN_DEPTH, PV_COL_KEY},
        {PV_COLUMN_CONTEXT, PV_COL_KEY},
        {PV_COLUMN_ROUTINE, 0},
        {PV_COLUMN_MODULE, 0},
        {"self", "Self", fl->time_type, PV_COL_DESC},
        {"total", "Total", fl->time_type, PV_COL_DESC},
        {"calls", "Calls", PV_TYPE_INT, PV_COL_DESC},
    };
    pv_table *t = pv_table_new("flame", "Flame paths", cols, FV_COLUMNS);
    pv_table_reserve(t, fl->preorder_count);
    /* the stack of each depth's latest node, so a row appends one frame */
    size_t *prefix = NULL, prefix_cap = 0;
    uint32_t *row_of = pv_xmalloc((fl->count ? fl->count : 1) * sizeof *row_of);
    pv_buf stack;
    pv_buf_init(&stack);
    for (size_t i = 0; i < fl->preorder_count; i++) {
        uint32_t x = fl->preorder[i];
        const pv_flame_node *node = &fl->nodes[x];
        size_t r = pv_table_add_row(t);
        row_of[x] = (uint32_t)r;
        prefix = pv_xgrow(prefix, &prefix_cap, node->depth + 1, sizeof *prefix);
        size_t keep = node->depth > 1 ? prefix[node->depth - 1] : 0;
        stack.len = keep;
        if (node->depth > 1)
            pv_buf_putc(&stack, ';');
        pv_flame_escape(&stack, pv_flame_name(fl, x), node->name_len);
        prefix[node->depth] = stack.len;
        pv_table_set_int(t, r, FV_ID, (int64_t)r + 1);
        if (node->parent != 0 && node->parent != PV_FLAME_NONE)
            pv_table_set_int(t, r, FV_PARENT, (int64_t)row_of[node->parent] + 1);
        pv_table_set_str(t, r, FV_STACK, stack.data, stack.len);
        pv_table_set_int(t, r, FV_DEPTH, (int64_t)node->depth - 1);
        uint32_t c = node->is_context ? x : node->context;
        if (c != PV_FLAME_NONE) /* as the call tree writes it, for --context */
            pv_table_set_cstr(t, r, FV_CONTEXT, pv_strpool_get(&fl->pool, fl->nodes[c].module));
        pv_table_set_str(t, r, FV_ROUTINE, pv_flame_name(fl, x), node->name_len);
        if (node->module && !node->is_context)
            pv_table_set_cstr(t, r, FV_MODULE, pv_strpool_get(&fl->pool, node->module));
        pv_table_set_int(t, r, FV_SELF, node->self);
        pv_table_set_int(t, r, FV_TOTAL, node->total);
        pv_table_set_int(t, r, FV_CALLS, (int64_t)node->calls);
    }
    pv_buf_free(&stack);
    free(prefix);
    free(row_of);
    return pv_table_view(t);
}

/* ---- sandwich */

static bool fl_node_is(const pv_flame *fl, uint32_t n, const char *name, size_t len,
                       const char *module)
{
    const pv_flame_node *node = &fl->nodes[n];
    if (node->is_context || node->name_len != len ||
        memcmp(pv_flame_name(fl, n), name, len) != 0)
        return false;
    return !module || strcmp(pv_strpool_get(&fl->pool, node->module), module) == 0;
}

bool pv_sandwich_build(const pv_flame *fl, const char *name, size_t name_len, const char *module,
                       pv_sandwich *out)
{
    memset(out, 0, sizeof *out);
    pv_flame *callers = fl_new(), *callees = fl_new();
    callers->time_type = callees->time_type = fl->time_type;
    callers->by_module = callees->by_module = fl->by_module;
    if (fl->raw) {
        /* summed raw as well, converted once (docs/flame.md "Raw values") */
        callers->raw_view = callees->raw_view = fl->raw_view;
        memcpy(callers->raw_col, fl->raw_col, sizeof fl->raw_col);
        memcpy(callees->raw_col, fl->raw_col, sizeof fl->raw_col);
    }
    int64_t self = 0, through = 0; /* raw when fl->raw */
    fl_builder bc, be;
    fl_builder_init(&bc, callers);
    fl_builder_init(&be, callees);
    /* map of fl node -> callees node, for nodes below an outermost occurrence */
    uint32_t *callee_of = pv_xmalloc((fl->count ? fl->count : 1) * sizeof *callee_of);
    uint32_t root_name = 0;
    bool any = false;
    for (size_t i = 0; i < fl->preorder_count; i++) {
        uint32_t x = fl->preorder[i];
        const pv_flame_node *node = &fl->nodes[x];
        uint32_t p = node->parent;
        bool parent_inside = p != 0 && p != PV_FLAME_NONE && callee_of[p] != PV_FLAME_NONE;
        callee_of[x] = PV_FLAME_NONE;
        if (parent_inside) {
            /* below an occurrence: merge into the callees tree */
            uint32_t cp = callee_of[p];
            uint32_t nm = fl_intern(&be, pv_flame_name(fl, x), node->name_len);
            uint32_t md = fl_intern(&be, pv_strpool_get(&fl->pool, node->module),
                                    strlen(pv_strpool_get(&fl->pool, node->module)));
            uint32_t c = fl_child(&be, cp, nm, md);
            fl_add_times(callees, c, fl, x, true, true);
            callees->nodes[c].calls += node->calls;
            if (callees->nodes[c].first_row == UINT32_MAX)
                callees->nodes[c].first_row = node->first_row;
            callee_of[x] = c;
            if (fl_node_is(fl, x, name, name_len, module)) {
                /* recursion: the inner occurrence's own time still counts as
                 * the routine's self time */
                self += fl->raw ? fl->raw[2 * x] : node->self;
            }
            continue;
        }
        if (!fl_node_is(fl, x, name, name_len, module))
            continue;
        /* an outermost occurrence */
        if (!any) {
            root_name = fl_intern(&be, pv_flame_name(fl, x), node->name_len);
            uint32_t md = fl_intern(&be, pv_strpool_get(&fl->pool, node->module),
                                    strlen(pv_strpool_get(&fl->pool, node->module)));
            uint32_t r = fl_child(&be, 0, root_name, md);
            (void)r;
            any = true;
        }
        uint32_t top = callees->nodes[0].first_child;
        fl_add_times(callees, top, fl, x, true, true);
        callees->nodes[top].calls += node->calls;
        if (callees->nodes[top].first_row == UINT32_MAX)
            callees->nodes[top].first_row = node->first_row;
        callee_of[x] = top;
        through += fl->raw ? fl->raw[2 * x + 1] : node->total;
        self += fl->raw ? fl->raw[2 * x] : node->self;
        out->calls += node->calls;
        /* callers: the path above, innermost first */
        uint32_t cn = 0;
        uint32_t nm = fl_intern(&bc, pv_flame_name(fl, x), node->name_len);
        uint32_t md0 = fl_intern(&bc, pv_strpool_get(&fl->pool, node->module),
                                 strlen(pv_strpool_get(&fl->pool, node->module)));
        cn = fl_child(&bc, 0, nm, md0);
        fl_add_times(callers, cn, fl, x, true, true);
        callers->nodes[cn].calls += node->calls;
        for (uint32_t a = p; a != 0 && a != PV_FLAME_NONE; a = fl->nodes[a].parent) {
            const char *an = pv_flame_name(fl, a);
            const char *am = pv_strpool_get(&fl->pool, fl->nodes[a].module);
            uint32_t anm = fl_intern(&bc, an, fl->nodes[a].name_len);
            uint32_t amd = fl_intern(&bc, am, strlen(am));
            cn = fl_child(&bc, cn, anm, amd);
            callers->nodes[cn].is_context = fl->nodes[a].is_context;
            fl_add_times(callers, cn, fl, x, false, true);
            callers->nodes[cn].calls += node->calls;
            if (callers->nodes[cn].first_row == UINT32_MAX)
                callers->nodes[cn].first_row = fl->nodes[a].first_row;
        }
    }
    free(callee_of);
    fl_builder_done(&bc);
    fl_builder_done(&be);
    /* the root totals are filled by fl_finish from the top frames */
    fl_finish(callers);
    fl_finish(callees);
    fl_groups(callers);
    fl_groups(callees);
    out->self = fl->raw ? pv_view_raw_sum(fl->raw_view, fl->raw_col[0], self) : self;
    out->through = fl->raw ? pv_view_raw_sum(fl->raw_view, fl->raw_col[1], through) : through;
    out->callers = callers;
    out->callees = callees;
    return any;
}

void pv_sandwich_free(pv_sandwich *s)
{
    pv_flame_free(s->callers);
    pv_flame_free(s->callees);
    memset(s, 0, sizeof *s);
}
