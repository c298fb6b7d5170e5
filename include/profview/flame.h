/*
 * flame.h - call paths merged from the root (flame graphs, icicles, folded
 * stacks) and the sandwich of one routine, computed from any call tree.
 *
 * The input is a tree view read only through the view API (docs/flame.md):
 * `pv_view_parent`, the `routine` column (frame name), `time` (the frame's
 * self time: the call's own time, for winIDEA its net time),
 * `time_with_children` (inclusive), and where present `module` (colour,
 * identity) and `thread` or `context` (a top-level frame per thread or
 * context).  Calls with the same path from the root are merged into one
 * node: self and total are summed, calls counted.
 *
 *     pv_flame *fl = pv_flame_build(tree, NULL, 0, err, sizeof err);
 *     pv_view *v = pv_flame_view(fl);   // the `flame` view (cat, diff)
 */
#ifndef PROFVIEW_FLAME_H
#define PROFVIEW_FLAME_H

#include "profview/model.h"

#define PV_FLAME_NONE UINT32_MAX

typedef struct pv_flame_node {
    uint32_t parent;       /* PV_FLAME_NONE for the root */
    uint32_t first_child;  /* children in name order (bytewise), PV_FLAME_NONE */
    uint32_t next_sibling; /* PV_FLAME_NONE */
    uint32_t name;         /* frame name: offset in pool */
    uint32_t name_len;
    uint32_t module;       /* offset in pool; 0 = none */
    uint32_t group;        /* colour group: module index when the frames have several
                              modules, else context index (0-based) */
    uint32_t depth;        /* 0 = the root; 1 = the top frames */
    uint32_t context;      /* the top-level frame (thread/context) above it, or PV_FLAME_NONE */
    bool is_context;       /* a thread/context frame (no call of its own) */
    int64_t self;          /* summed self time of the merged calls */
    int64_t total;         /* summed inclusive time; the root: sum of its children */
    uint64_t calls;        /* calls merged into this node */
    uint32_t first_row;    /* the first row of the tree merged here (for Details) */
} pv_flame_node;

typedef struct pv_flame {
    pv_flame_node *nodes; /* nodes[0] is the root ("all") */
    size_t count;
    uint32_t *preorder;   /* every node but the root, parents first, siblings by name */
    size_t preorder_count;
    pv_strpool pool;
    uint32_t group_count;
    pv_type time_type;    /* type of the tree's time column (TIME, or INT for counters) */
    bool by_module;       /* groups are modules (else contexts) */
    const char *context_column; /* "thread", "context" or NULL */
    char *source_view;    /* id of the tree it was built from */
    /* When the tree's times are converted from raw values (pv_view_cell_raw:
     * AQTime's cycles), the sums in that unit, two per node (self, total):
     * a node's times are converted from them once they are summed, so that
     * they agree with the tree's own sums (docs/flame.md "Raw values").
     * raw_view is the tree (the flame is used while it lives), raw_col its
     * time and time_with_children columns.  NULL: summed as shown. */
    int64_t *raw;
    const pv_view *raw_view;
    size_t raw_col[2];
} pv_flame;

/* Builds the merged paths of `tree`.  `rows` (pre-order, parents before
 * children) limits the calls taken, e.g. to a filter's result; NULL takes
 * every row.  A row whose parent is not taken starts at the top (under its
 * context).  Returns NULL with a message in err when the view is no call
 * tree (no parent links, no `routine`/`time`/`time_with_children`). */
pv_flame *pv_flame_build(const pv_view *tree, const pv_row *rows, size_t row_count, char *err,
                         size_t err_len);
void pv_flame_free(pv_flame *fl);

/* The same merge in slices (the viewer builds a big graph between key
 * presses, docs/flame.md "Speed"): `new` checks the columns (NULL with a
 * message in err), `add` merges the rows [from, to) that `keep` marks
 * (non-zero; NULL takes every row) — the slices must come in row order, as
 * the tree is pre-order — and `finish` returns the graph and frees the
 * builder; `free` drops an unfinished one. */
typedef struct pv_flame_builder pv_flame_builder;
pv_flame_builder *pv_flame_builder_new(const pv_view *tree, char *err, size_t err_len);
void pv_flame_builder_add(pv_flame_builder *fb, size_t from, size_t to, const uint8_t *keep);
/* The frames inside the rows (pv_view_inner_frames: winIDEA line areas),
 * merged after every row: `add_inner` takes [from, to) of them, each under
 * the node of the row it runs in (left out when `add` did not take that
 * row). */
size_t pv_flame_builder_inner_rows(const pv_flame_builder *fb);
void pv_flame_builder_add_inner(pv_flame_builder *fb, size_t from, size_t to);
pv_flame *pv_flame_builder_finish(pv_flame_builder *fb);
void pv_flame_builder_free(pv_flame_builder *fb);

/* The tree view of a result set that flame graphs are made of (`call-trace`),
 * or NULL. */
pv_view *pv_flame_source(const pv_result_set *set);

/* Appends the frame name escaped for a folded stack (docs/flame.md): `;`,
 * `%` and control characters become %XX (upper-case hex). */
void pv_flame_escape(pv_buf *out, const char *s, size_t len);
/* Appends the folded stack of node n (frames from the top, joined by `;`). */
void pv_flame_stack(const pv_flame *fl, uint32_t n, pv_buf *out);
static inline const char *pv_flame_name(const pv_flame *fl, uint32_t n)
{
    return pv_strpool_get(&fl->pool, fl->nodes[n].name);
}

/* The `flame` view: one row per node in pre-order (id, parent, stack, depth,
 * context, routine, module, self, total, calls).  The caller frees it; it
 * does not keep fl. */
pv_view *pv_flame_view(const pv_flame *fl);

/* ---- sandwich: the callers and callees of one frame name, merged */

/* Two merged trees around every node whose name is `name` (and whose module
 * is `module`, when given): `callers` is inverted (its top frames are the
 * callers of the routine, their children the callers' callers), `callees`
 * holds what runs below it.  Recursion is counted once: only the outermost
 * occurrence of the routine on a path contributes.  `through` is the time
 * through the routine (summed total of those outermost occurrences), `self`
 * its summed self time, `calls` their calls. */
typedef struct pv_sandwich {
    pv_flame *callers;
    pv_flame *callees;
    int64_t through;
    int64_t self;
    uint64_t calls;
} pv_sandwich;

bool pv_sandwich_build(const pv_flame *fl, const char *name, size_t name_len, const char *module,
                       pv_sandwich *out);
void pv_sandwich_free(pv_sandwich *s);

#endif
