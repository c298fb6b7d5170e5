/* explorer.c - the Explorer pane (panel.h): the open files, their result
 * sets and views as a list; Enter or a click shows a view in the Report. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"

/* An item's label: its name, then what it counts (" (83)", " (4
 * warnings)", " (indexing)"), whose bytes go in *count_len (NULL: not
 * asked): cut, the label keeps them (docs/tui.md "Cut text"). */
static void pv_app_item_label(const pv_app *a, const pv_item *it, pv_buf *out, size_t *count_len)
{
    const pv_file *f = a->files[it->file];
    size_t before = 0;
    if (it->kind == PV_ITEM_FILE) {
        pv_buf_puts(out, pv_basename(f->path));
        before = out->len;
        size_t w = f->diag.warnings + f->diag.errors;
        if (pv_app_file_changed(a, it->file))
            pv_buf_puts(out, " (changed on disk)"); /* its warnings are of zeros */
        else if (w)
            pv_buf_printf(out, " (%zu warning%s)", w, w == 1 ? "" : "s");
    } else if (it->kind == PV_ITEM_SET) {
        const pv_result_set *s = f->sets[it->set];
        pv_buf_printf(out, "  %s", s->caption);
        before = out->len;
    } else {
        const pv_view *v = f->sets[it->set]->views[it->view];
        pv_buf_printf(out, "    %s", v->title);
        before = out->len;
        if (pv_view_waits_for_index(v, false))
            pv_buf_puts(out, " (indexing)"); /* counting would index */
        else
            pv_buf_printf(out, " (%zu)", pv_view_rows(v));
    }
    if (count_len)
        *count_len = out->len - before;
}

/* The Explorer's width: its longest label, within a quarter to a third of
 * the screen (a quarter below 100 columns; docs/tui.md "Layout"), then as
 * the user moved it. */
int pv_app_explorer_width(const pv_app *a, int W)
{
    int longest = 0;
    pv_buf label;
    pv_buf_init(&label);
    for (size_t i = 0; i < a->item_count; i++) {
        pv_buf_clear(&label);
        pv_app_item_label(a, &a->items[i], &label, NULL);
        int w = (int)pv_text_width(label.data ? label.data : "", label.len, a->utf8);
        longest = w > longest ? w : longest;
    }
    pv_buf_free(&label);
    int ew = longest + 1;
    if (ew < W / 4)
        ew = W / 4;
    if (ew > (W >= 100 ? W / 3 : W / 4))
        ew = W >= 100 ? W / 3 : W / 4; /* narrow screens: the Report first */
    ew += a->ex.width_adj;
    if (ew < 14)
        ew = 14;
    if (ew > W / 2)
        ew = W / 2;
    return ew;
}

static void pv_explorer_draw(pv_app *a, pv_rect r)
{
    bool focused = a->focus == PV_PANE_EXPLORER;
    pv_app_title(a, r.y, r.x, r.w, "Explorer", focused);
    int rows = r.h - 1;
    a->page_rows[PV_PANE_EXPLORER] = rows > 1 ? rows : 1;
    if (rows <= 0)
        return;
    if (a->ex.cursor < a->ex.top)
        a->ex.top = a->ex.cursor;
    if (a->ex.cursor >= a->ex.top + (size_t)rows)
        a->ex.top = a->ex.cursor - (size_t)rows + 1;
    pv_buf label, cut;
    pv_buf_init(&label);
    pv_buf_init(&cut);
    int y = r.y + 1;
    for (size_t i = a->ex.top; i < a->item_count && y < r.y + r.h; i++, y++) {
        pv_buf_clear(&label);
        size_t count_len;
        pv_app_item_label(a, &a->items[i], &label, &count_len);
        pv_role role = a->items[i].kind == PV_ITEM_FILE ? PV_ROLE_TITLE : PV_ROLE_NORMAL;
        /* a name too long is cut in its middle; its count stays */
        const char *text = label.data ? label.data : "";
        size_t indent = strspn(text, " ");
        if ((int)indent >= r.w)
            indent = 0;
        pv_text_cut(&cut, text + indent, label.len - indent, count_len, r.w - (int)indent,
                    PV_CUT_MIDDLE, a->utf8, !a->ascii);
        pv_grid_text(&a->grid, y, r.x + (int)indent, r.w - (int)indent, cut.data ? cut.data : "",
                     cut.len, role);
        if (i == a->ex.cursor)
            pv_grid_paint(&a->grid, y, r.x, r.w, focused ? PV_ROLE_SELECTED : PV_ROLE_SELECTED_DIM);
        else if (i == a->loc.item && a->items[i].kind == PV_ITEM_VIEW)
            pv_grid_paint(&a->grid, y, r.x, r.w, PV_ROLE_TITLE);
    }
    pthread_mutex_lock(&a->load.lock);
    bool busy = a->load.queue_next < a->load.queue_count;
    char what[300];
    snprintf(what, sizeof what, "loading %s", busy ? pv_basename(a->load.queue[a->load.queue_next]) : "");
    pthread_mutex_unlock(&a->load.lock);
    if (busy && y < r.y + r.h)
        pv_grid_str(&a->grid, y, r.x, r.w, what, PV_ROLE_DIM);
    pv_buf_free(&label);
    pv_buf_free(&cut);
}

void pv_app_explorer_move(pv_app *a, long delta)
{
    if (!a->item_count)
        return;
    size_t c = a->ex.cursor;
    if (delta < 0)
        c = (size_t)-delta > c ? 0 : c - (size_t)-delta;
    else
        c = c + (size_t)delta >= a->item_count ? a->item_count - 1 : c + (size_t)delta;
    a->ex.cursor = c;
    pv_app_show_item(a, c);
}

static bool pv_explorer_mouse(pv_app *a, pv_rect rc, int y, int x, int button)
{
    (void)x;
    if (button == 4 || button == 5) {
        pv_app_explorer_move(a, button == 4 ? -3 : 3);
        return true;
    }
    if (y > rc.y && a->ex.top + (size_t)(y - rc.y - 1) < a->item_count) {
        a->ex.cursor = a->ex.top + (size_t)(y - rc.y - 1);
        pv_app_show_item(a, a->ex.cursor);
    }
    return true;
}

/* The Explorer's moves: up, down, pages, first, last; Left to the parent
 * (the result set of a view, the file of a set); Enter and Right show the
 * item.  The keys it does not take act on the Report (screen.c). */
static bool pv_explorer_action(pv_app *a, pv_action act)
{
    if (a->focus != PV_PANE_EXPLORER)
        return false;
    long page = a->page_rows[PV_PANE_EXPLORER] > 1 ? a->page_rows[PV_PANE_EXPLORER] - 1 : 1;
    switch (act) {
    case PV_ACT_UP:
        pv_app_explorer_move(a, -1);
        return true;
    case PV_ACT_DOWN:
        pv_app_explorer_move(a, 1);
        return true;
    case PV_ACT_PAGE_UP:
        pv_app_explorer_move(a, -page);
        return true;
    case PV_ACT_PAGE_DOWN:
        pv_app_explorer_move(a, page);
        return true;
    case PV_ACT_FIRST:
        a->ex.cursor = 0;
        pv_app_explorer_move(a, 0);
        return true;
    case PV_ACT_LAST:
        pv_app_explorer_move(a, (long)(SIZE_MAX / 4));
        return true;
    case PV_ACT_SORT_REVERSE: /* r on a file's line: :reload (docs/tui.md) */
        if (a->ex.cursor < a->item_count && a->items[a->ex.cursor].kind == PV_ITEM_FILE) {
            pv_app_reload(a, a->items[a->ex.cursor].file);
            return true;
        }
        return false;
    case PV_ACT_OPEN:
    case PV_ACT_RIGHT: /* the item in the Report, which gets the focus */
        if (pv_app_open_again(a))
            return true;
        pv_app_show_item(a, a->ex.cursor);
        if (pv_app_report(a))
            a->focus = PV_PANE_REPORT;
        return true;
    case PV_ACT_LEFT:
        if (a->ex.cursor < a->item_count) {
            int kind = a->items[a->ex.cursor].kind;
            size_t i = a->ex.cursor;
            while (i > 0 && a->items[i].kind >= kind)
                i--;
            a->ex.cursor = a->items[i].kind < kind ? i : a->ex.cursor;
        }
        return true;
    default:
        return false;
    }
}

const pv_panel pv_panel_explorer = {
    .name = "Explorer",
    .draw = pv_explorer_draw,
    .action = pv_explorer_action,
    .mouse = pv_explorer_mouse,
};
