/* report_layout.c - a tree's visible list, laid out in steps
 * (report_internal.h). */
#include "tui/group.h"
#include "tui/report_internal.h"

#include <stdlib.h>
#include <string.h>

void pv_layout_init(pv_layout *l, const pv_view *v, const pv_row *sel, size_t n,
                           const uint8_t *collapsed, uint8_t *has_kids)
{
    memset(l, 0, sizeof *l);
    l->v = v;
    l->sel = sel;
    l->n = n;
    l->collapsed = collapsed;
    l->has_kids = has_kids;
    /* room for every row at once: growing a list of millions in a step
     * would copy it (measured: 12 ms at 2.4 M rows); pages never written
     * cost nothing */
    l->cap = n + 1;
    l->vis = pv_xmalloc(l->cap * sizeof *l->vis);
    l->vis_depth = pv_xmalloc(l->cap * sizeof *l->vis_depth);
    l->sub_end = pv_xmalloc((n ? n : 1) * sizeof *l->sub_end);
    l->stack_cap = 64;
    l->stack = pv_xmalloc(l->stack_cap * sizeof *l->stack);
    l->stack_pos = pv_xmalloc(l->stack_cap * sizeof *l->stack_pos);
    l->hide = pv_xmalloc(l->stack_cap);
}

bool pv_layout_step(pv_layout *l, size_t budget)
{
    size_t end = budget < l->n - l->at ? l->at + budget : l->n;
    for (size_t i = l->at; i < end; i++) {
        if ((i & 4095) == 4095 && i > l->at && l->deadline > 0 && pv_clock_now() >= l->deadline) {
            end = i; /* the slice is over (a slow parent, a loaded machine) */
            break;
        }
        size_t row = l->sel ? l->sel[i] : i;
        size_t parent = pv_view_parent(l->v, row);
        size_t sp = l->sp;
        while (sp > 0 && l->stack[sp - 1] != parent)
            l->sub_end[l->stack_pos[--sp]] = (pv_row)i; /* its subtree ends here */
        if (sp > 0)
            pv_bit_set(l->has_kids, parent, true);
        bool hidden = sp > 0 && l->hide[sp - 1];
        if (!hidden) {
            if (l->count == l->cap) {
                size_t c2 = l->cap;
                l->vis = pv_xgrow(l->vis, &l->cap, l->count + 1, sizeof *l->vis);
                l->vis_depth = pv_xgrow(l->vis_depth, &c2, l->count + 1, sizeof *l->vis_depth);
            }
            l->vis[l->count] = (pv_row)row;
            l->vis_depth[l->count++] = (uint32_t)(sp > UINT32_MAX ? UINT32_MAX : sp);
        }
        if (sp == l->stack_cap) {
            size_t hc = l->stack_cap, pc = l->stack_cap;
            l->stack = pv_xgrow(l->stack, &l->stack_cap, sp + 1, sizeof *l->stack);
            l->stack_pos = pv_xgrow(l->stack_pos, &pc, sp + 1, sizeof *l->stack_pos);
            l->hide = pv_xgrow(l->hide, &hc, sp + 1, 1);
        }
        l->stack_pos[sp] = (pv_row)i;
        l->stack[sp] = (pv_row)row;
        l->hide[sp] = (uint8_t)(hidden || pv_bit(l->collapsed, row));
        l->sp = sp + 1;
    }
    l->at = end;
    if (l->at < l->n)
        return false;
    while (l->sp > 0) /* the subtrees still open end with the rows */
        l->sub_end[l->stack_pos[--l->sp]] = (pv_row)l->n;
    return true;
}

void pv_layout_free(pv_layout *l)
{
    free(l->vis);
    free(l->vis_depth);
    free(l->sub_end);
    free(l->stack);
    free(l->stack_pos);
    free(l->hide);
    memset(l, 0, sizeof *l);
}

void pv_layout_take(pv_layout *l, pv_report *r)
{
    pv_report_discard(r, r->vis, r->vis_count * sizeof *r->vis);
    pv_report_discard(r, r->vis_depth, r->vis_count * sizeof *r->vis_depth);
    pv_report_discard(r, r->sub_end, r->sub_count * sizeof *r->sub_end);
    r->vis = l->vis;
    r->vis_depth = l->vis_depth;
    r->vis_count = l->count;
    r->vis_cap = l->cap;
    r->sub_end = l->sub_end;
    r->sub_count = l->n;
    l->vis = NULL;
    l->vis_depth = NULL;
    l->sub_end = NULL;
    pv_layout_free(l);
}
