/* app_draw.c - drawing that the panels share (panel.h): boxes, titles,
 * text cut to its cells, a report as a table (the Report and the Details
 * panes).  Into the grid (docs/code-style.md habit 4: format into a buffer of characters and roles;
 * term.c paints it).  Only the rows on screen are ever read. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/diff.h"
#include "profview/hooks.h"
#include "tui/commands.h"
#include "tui/panel.h"

uint32_t pv_app_glyph(const pv_app *a, uint32_t fancy, char plain)
{
    return a->ascii ? (uint32_t)plain : fancy;
}

void pv_app_title(pv_app *a, int y, int x, int w, const char *title, bool focused)
{
    pv_role role = focused ? PV_ROLE_TITLE_FOCUS : PV_ROLE_TITLE;
    for (int i = 0; i < w; i++)
        pv_grid_char(&a->grid, y, x + i, pv_app_glyph(a, 0x2500, '-'), PV_ROLE_BORDER);
    if (w > 4) {
        pv_grid_char(&a->grid, y, x + 1, ' ', role);
        int used = pv_app_cut_text(a, y, x + 2, w - 4, title, strlen(title), role);
        pv_grid_char(&a->grid, y, x + 2 + used, ' ', role);
    }
}

void pv_app_box(pv_app *a, pv_rect b, const char *title)
{
    if (b.w < 2 || b.h < 2)
        return;
    pv_grid_fill(&a->grid, b.y, b.x, b.w, b.h, PV_ROLE_NORMAL);
    pv_app_title(a, b.y, b.x + 1, b.w - 2, title, true);
    pv_grid_char(&a->grid, b.y, b.x, pv_app_glyph(a, 0x250c, '+'), PV_ROLE_BORDER);
    pv_grid_char(&a->grid, b.y, b.x + b.w - 1, pv_app_glyph(a, 0x2510, '+'), PV_ROLE_BORDER);
    int bottom = b.y + b.h - 1;
    for (int y = b.y + 1; y < bottom; y++) {
        pv_grid_char(&a->grid, y, b.x, pv_app_glyph(a, 0x2502, '|'), PV_ROLE_BORDER);
        pv_grid_char(&a->grid, y, b.x + b.w - 1, pv_app_glyph(a, 0x2502, '|'), PV_ROLE_BORDER);
    }
    for (int x = b.x + 1; x < b.x + b.w - 1; x++)
        pv_grid_char(&a->grid, bottom, x, pv_app_glyph(a, 0x2500, '-'), PV_ROLE_BORDER);
    pv_grid_char(&a->grid, bottom, b.x, pv_app_glyph(a, 0x2514, '+'), PV_ROLE_BORDER);
    pv_grid_char(&a->grid, bottom, b.x + b.w - 1, pv_app_glyph(a, 0x2518, '+'), PV_ROLE_BORDER);
}

const char *pv_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool pv_type_numeric(pv_type t)
{
    return t != PV_TYPE_STRING;
}

static int pv_type_min_width(pv_type t)
{
    switch (t) {
    case PV_TYPE_TIME:
        return 9;
    case PV_TYPE_HANDLE:
        return 10;
    case PV_TYPE_FLOAT:
        return 6;
    default:
        return 3;
    }
}

/* The text of a cell of the Report's k-th row shown (a delta column counts
 * from the row shown above it: pv_view_cell_after). */
static void pv_app_cell_text(const pv_app *a, const pv_report *r, size_t k, size_t col,
                             pv_buf *out)
{
    pv_cell c;
    pv_view_cell_after(r->view, pv_report_row(r, k), k ? pv_report_row(r, k - 1) : PV_NO_ROW, col,
                       &c);
    pv_buf_clear(out);
    uint8_t f = r->time_fmt[col];
    if (f && c.present && c.type == PV_TYPE_TIME) {
        char t[96];
        pv_format_time_precise(c.v.i, (pv_time_unit)(f >> 4), f & 15, t, sizeof t);
        pv_buf_puts(out, t);
        return;
    }
    pv_cell_format_human(&c, a->unit, out);
}

#define PV_TIME_ROWS 512 /* rows on screen looked at for the times' digits */

static bool pv_app_times_differ(const int64_t *t, size_t n, pv_time_unit unit, int decimals)
{
    char x[96], y[96];
    for (size_t i = 1; i < n; i++) {
        if (t[i] == t[i - 1])
            continue;
        if (decimals < 0) {
            pv_format_time_human(t[i - 1], unit, x, sizeof x);
            pv_format_time_human(t[i], unit, y, sizeof y);
        } else {
            pv_format_time_precise(t[i - 1], unit, decimals, x, sizeof x);
            pv_format_time_precise(t[i], unit, decimals, y, sizeof y);
        }
        if (strcmp(x, y) == 0)
            return false;
    }
    return true;
}

/* Times that read alike on screen must not: a time column in order on
 * screen (a clock: the timeline's times, the calls' entries) whose distinct
 * neighbours would read the same gets one unit and enough digits, grouped
 * by three (docs/tui.md "Times").  Other columns keep a unit per cell. */
static void pv_app_time_formats(const pv_app *a, pv_report *r, const size_t *shown, size_t n,
                                size_t count, int rows)
{
    int64_t t[PV_TIME_ROWS];
    for (size_t i = 0; i < n; i++) {
        size_t c = shown[i];
        r->time_fmt[c] = 0;
        if (r->view->columns[c].type != PV_TYPE_TIME)
            continue;
        size_t m = 0;
        int64_t big = 0;
        bool up = true, down = true;
        for (size_t k = r->top; k < count && k < r->top + (size_t)(rows > 0 ? rows : 0) &&
                                m < PV_TIME_ROWS;
             k++) {
            pv_cell cell;
            pv_view_cell_after(r->view, pv_report_row(r, k),
                               k ? pv_report_row(r, k - 1) : PV_NO_ROW, c, &cell);
            if (!cell.present)
                continue;
            t[m] = cell.v.i;
            if (m) {
                up = up && t[m] >= t[m - 1];
                down = down && t[m] <= t[m - 1];
            }
            int64_t mag = t[m] < 0 ? pv_sub_sat(0, t[m]) : t[m];
            big = mag > big ? mag : big;
            m++;
        }
        if (m < 2 || !(up || down) || pv_app_times_differ(t, m, a->unit, -1))
            continue;
        pv_time_unit unit = a->unit == PV_UNIT_AUTO ? pv_time_unit_for(big) : a->unit;
        int d = 3;
        while (d < 9 && !pv_app_times_differ(t, m, unit, d))
            d += 3;
        r->time_fmt[c] = (uint8_t)(unit * 16 + d);
    }
}

#define PV_TITLE_CUT 12 /* a numeric column's title beyond this is cut (with a mark) */

/* The key column of a table: its name column, when shown. */
static size_t pv_app_key_column(const pv_report *r, const size_t *shown, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r->view->columns[shown[i]].flags & PV_COL_NAME)
            return shown[i];
    return PV_NO_ROW;
}

/* Draws text in at most w cells; text that does not fit is cut with a
 * mark (… or > in ASCII) so that a cut cell never looks whole: a path in
 * its middle, keeping its file name (/work/…/trunc_pair.txt.BIN), other
 * text at its end (pv_text_cut, docs/tui.md "Cut text").  Returns the
 * cells used. */
int pv_app_cut_text(pv_app *a, int y, int x, int w, const char *s, size_t len, pv_role role)
{
    if (w <= 0)
        return 0;
    pv_buf cut;
    pv_buf_init(&cut);
    pv_text_cut(&cut, s, len, 0, w, PV_CUT_AUTO, a->utf8, !a->ascii);
    int used = pv_grid_text(&a->grid, y, x, w, cut.data ? cut.data : "", cut.len, role);
    pv_buf_free(&cut);
    return used;
}

static size_t pv_app_tree_column(const pv_report *r, const size_t *shown, size_t n)
{
    if (!pv_view_is_tree(r->view) || n == 0)
        return PV_NO_ROW;
    for (size_t i = 0; i < n; i++)
        if (r->view->columns[shown[i]].flags & PV_COL_TREE)
            return shown[i];
    for (size_t i = 0; i < n; i++)
        if (r->view->columns[shown[i]].flags & PV_COL_NAME)
            return shown[i];
    return shown[0];
}

/* The column indented by the rows' depth in a view that is not a tree
 * (pv_view_hooks.row_depth: a timeline's events by their call depth,
 * docs/tui.md): its name column, or PV_NO_ROW. */
static size_t pv_app_indent_column(const pv_report *r, const size_t *shown, size_t n)
{
    if (pv_view_is_tree(r->view) || !pv_view_has_row_depth(r->view))
        return PV_NO_ROW;
    for (size_t i = 0; i < n; i++)
        if (r->view->columns[shown[i]].flags & PV_COL_NAME)
            return shown[i];
    return PV_NO_ROW;
}

#define PV_INDENT_MAX 24 /* columns of indentation by depth at most */

/* The indentation learnt for a column's width (the drawing may use less). */
static int pv_app_row_indent(const pv_report *r, size_t row)
{
    size_t d;
    if (!pv_view_row_depth(r->view, row, &d))
        return 0;
    return 2 * d > PV_INDENT_MAX ? PV_INDENT_MAX : 2 * (int)d;
}

static int pv_app_tree_indent(size_t depth)
{
    return 2 * depth > PV_INDENT_MAX ? PV_INDENT_MAX : 2 * (int)depth;
}

/* The indentation of a row at `depth` in a column w cells wide (docs/tui.md
 * "Deep trees"): two cells a level, up to PV_INDENT_MAX, or up to a third
 * of the column when it is narrower than its rows need (`squeezed`); a
 * deeper row stays there, its depth written as a number that ends `gap`
 * cells before the indentation does, so that a name always has room.
 * Returns the cells of indentation. */
static int pv_app_draw_indent(pv_app *a, int y, int x, size_t depth, int w, bool squeezed,
                              int gap)
{
    int cap = squeezed && w / 3 < PV_INDENT_MAX ? w / 3 : PV_INDENT_MAX;
    cap &= ~1;
    if ((size_t)cap / 2 >= depth)
        return 2 * (int)depth;
    char num[24];
    int n = snprintf(num, sizeof num, "%zu", depth);
    if (cap < n + gap)
        cap = n + gap < w - 1 ? n + gap : 0;
    if (cap)
        pv_grid_str(&a->grid, y, x + cap - gap - n, n, num, PV_ROLE_TREE);
    return cap;
}

/* Width of the last column: its content on screen, up to all the room. */
static int pv_app_last_width(const pv_app *a, const pv_report *r, size_t c, int room,
                             size_t tree_col, size_t indent_col, size_t count, int rows)
{
    int w = r->widths[c];
    pv_buf text;
    pv_buf_init(&text);
    for (size_t k = r->top; k < count && k < r->top + (size_t)(rows > 0 ? rows : 0); k++) {
        size_t row = pv_report_row(r, k);
        pv_app_cell_text(a, r, k, c, &text);
        int cw = (int)pv_text_width(text.data ? text.data : "", text.len, a->utf8);
        if (c == tree_col)
            cw += pv_app_tree_indent(pv_report_depth(r, k)) + 2;
        else if (c == indent_col)
            cw += pv_app_row_indent(r, row);
        if (cw > w)
            w = cw;
    }
    pv_buf_free(&text);
    return w < room ? w : room;
}

/* Draws a report: header (with sort indicator) and the visible rows only. */
/* What one drawing of a report lays out: the columns shown, the special
 * ones, the columns drawn in order with their widths and places. */
typedef struct pv_table_layout {
    pv_rect rc;
    int rows;                  /* rows of cells under the header */
    size_t count;              /* visible rows of the report */
    size_t shown[PV_MAX_SHOWN], n;
    size_t tree_col, indent_col, key_col;
    size_t order[PV_MAX_SHOWN], on; /* the columns drawn, as positions in shown[] */
    int dw[PV_MAX_SHOWN];           /* their widths drawn */
    int xs[PV_MAX_SHOWN];           /* where they start */
    size_t end;                     /* order[0 .. end-1] are on screen */
    size_t scrolled_to;             /* the first column drawn that is not kept */
} pv_table_layout;

/* The cursor on screen: the first row drawn follows it, by as little as
 * it takes after a step; after a jump (pv_report.jumped) to a row off
 * screen, it is centred, as vim's zz (docs/tui.md "Jumps"). */
static void pv_table_scroll(pv_report *r, const pv_table_layout *L)
{
    size_t count = L->count;
    if (count && r->cursor >= count)
        r->cursor = count - 1;
    size_t rows = (size_t)(L->rows > 0 ? L->rows : 0);
    if (r->jumped && rows && (r->cursor < r->top || r->cursor >= r->top + rows)) {
        r->top = r->cursor > rows / 2 ? r->cursor - rows / 2 : 0;
        if (count > rows && r->top > count - rows)
            r->top = count - rows; /* no blank rows below the last */
    }
    r->jumped = false;
    if (r->cursor < r->top)
        r->top = r->cursor;
    if (L->rows > 0 && r->cursor >= r->top + (size_t)L->rows)
        r->top = r->cursor - (size_t)L->rows + 1;
    if (count <= (size_t)(L->rows > 0 ? L->rows : 0))
        r->top = 0;
}

/* Column widths: learnt from the rows on screen (never from all rows), and
 * only ever grow so that columns do not jump while scrolling.  A numeric
 * column is as wide as its numbers (its title is cut, with a mark, beyond
 * 12 columns); the key column (the name, or the tree) may take two thirds
 * of the pane (docs/tui.md "Columns"). */
static void pv_table_learn_widths(pv_app *a, pv_report *r, const pv_table_layout *L, pv_buf *text)
{
    int cap = L->rc.w / 2 > 24 ? L->rc.w / 2 : 24;
    int key_cap = L->rc.w * 2 / 3 > 24 ? L->rc.w * 2 / 3 : 24;
    size_t last = r->top + (size_t)(L->rows > 0 ? L->rows : 0);
    for (size_t i = 0; i < L->n; i++) {
        size_t c = L->shown[i];
        const pv_column *col = &r->view->columns[c];
        int title_w = (int)pv_text_width(col->title, strlen(col->title), a->utf8) + 1;
        int w = pv_type_numeric(col->type) ? pv_type_min_width(col->type) : title_w;
        if (w < pv_type_min_width(col->type))
            w = pv_type_min_width(col->type);
        for (size_t k = r->top; k < L->count && k < last; k++) {
            size_t row = pv_report_row(r, k);
            pv_app_cell_text(a, r, k, c, text);
            int cw = (int)pv_text_width(text->data ? text->data : "", text->len, a->utf8);
            if (c == L->tree_col)
                cw += pv_app_tree_indent(pv_report_depth(r, k)) + 2;
            else if (c == L->indent_col)
                cw += pv_app_row_indent(r, row);
            if (cw > w)
                w = cw;
        }
        if (pv_type_numeric(col->type) && w < title_w)
            w = title_w < PV_TITLE_CUT ? title_w : w > PV_TITLE_CUT ? w : PV_TITLE_CUT;
        int most = c == L->key_col ? key_cap : cap;
        if (w > most)
            w = most;
        if (w > r->widths[c])
            r->widths[c] = w;
    }
}

/* The floor of a column's drawn width: numbers are never cut, the key
 * column goes down to half the pane (a third), other text columns to 16
 * (or their title). */
static int pv_table_floor(pv_app *a, const pv_report *r, const pv_table_layout *L, size_t c,
                          bool third)
{
    const pv_column *col = &r->view->columns[c];
    int dw = r->widths[c];
    int title_w = (int)pv_text_width(col->title, strlen(col->title), a->utf8) + 1;
    int key_floor = (third ? L->rc.w / 3 : L->rc.w / 2);
    key_floor = key_floor > 16 ? key_floor : 16;
    int f = pv_type_numeric(col->type) ? dw
            : c == L->key_col           ? key_floor
                                        : (title_w > 16 ? title_w : 16);
    return f < dw ? f : dw;
}

/* The columns drawn, as positions in shown[] (docs/tui.md "Columns"): in
 * the view's order, or, when the pane is too narrow for every column at
 * its floor, the minor ones (PV_COL_MINOR: a handle) after the others.
 * The row's key stays when scrolling right: the first column (the Index of
 * an event) always, the key column (the name, or the tree) once scrolled
 * past; hscroll is the position scrolled to in that order.  Widths drawn: the
 * learnt ones, fitted to the pane: as many columns as can be on screen
 * with other text columns down to 16 (or their title) and the key column
 * down to half the pane (a third, when that brings every column but the
 * minor ones on screen) get there, other text columns giving room first;
 * numbers are never cut. */
static void pv_table_fit(pv_app *a, const pv_report *r, pv_table_layout *L)
{
    const pv_rect rc = L->rc;
    size_t base[PV_MAX_SHOWN], nb = 0;
    int all = 0, major = 0;
    bool minor = false;
    for (size_t i = 0; i < L->n; i++) {
        all += pv_table_floor(a, r, L, L->shown[i], false) + 1;
        if (r->view->columns[L->shown[i]].flags & PV_COL_MINOR)
            minor = true;
        else
            major += pv_table_floor(a, r, L, L->shown[i], true) + 1;
    }
    bool narrow = all > rc.w + 1;
    /* in a view with minor columns, the key column yields down to a third
     * when that brings every other column but the minor ones on screen */
    bool third = narrow && minor && major <= rc.w + 1;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < L->n; i++)
            if (!narrow ? pass == 0
                        : ((r->view->columns[L->shown[i]].flags & PV_COL_MINOR) != 0) == pass)
                base[nb++] = i;
    /* the first column stays, and the key column once scrolled past;
     * hscroll is the column scrolled to (what `y` copies) */
    L->on = 0;
    L->scrolled_to = r->hscroll > 0 && r->hscroll < nb ? L->shown[base[r->hscroll]] : PV_NO_ROW;
    for (size_t b = 0; b < nb; b++)
        if (b == 0 || b >= r->hscroll || L->shown[base[b]] == L->key_col)
            L->order[L->on++] = base[b];
    int floor_w[PV_MAX_SHOWN];
    size_t fit = 0;
    int need = 0, need_half = 0; /* the key column at its floor, at half the pane */
    for (size_t j = 0; j < L->on; j++) {
        size_t c = L->shown[L->order[j]];
        L->dw[j] = r->widths[c];
        floor_w[j] = pv_table_floor(a, r, L, c, third);
        need += floor_w[j] + 1;
        need_half += pv_table_floor(a, r, L, c, false) + 1;
        /* the key column goes below half only for the major columns */
        bool minor_col = (r->view->columns[c].flags & PV_COL_MINOR) != 0;
        if (fit == j && (minor_col ? need_half : need) <= rc.w + 1)
            fit = j + 1;
    }
    int total = 0;
    for (size_t j = 0; j < fit; j++)
        total += L->dw[j] + 1;
    for (int pass = 0; pass < 2 && total > rc.w + 1; pass++)
        for (size_t j = 0; j < fit && total > rc.w + 1; j++) {
            if ((pass == 0) != (L->shown[L->order[j]] != L->key_col))
                continue;
            int give = L->dw[j] - floor_w[j];
            if (give > total - (rc.w + 1))
                give = total - (rc.w + 1);
            if (give > 0) {
                L->dw[j] -= give;
                total -= give;
            }
        }
}

/* The header: the titles of the columns on screen (the sort's with its
 * direction), recorded for the mouse when asked. */
static void pv_table_draw_header(pv_app *a, const pv_report *r, pv_table_layout *L,
                                 bool record_header)
{
    const pv_rect rc = L->rc;
    int x = rc.x;
    if (record_header) {
        a->rp.header_y = rc.y;
        a->rp.header_count = 0;
    }
    pv_grid_fill(&a->grid, rc.y, rc.x, rc.w, 1, PV_ROLE_HEADER);
    L->end = 0;
    for (size_t j = 0; j < L->on && x < rc.x + rc.w; j++, L->end = j) {
        size_t i = L->order[j];
        size_t c = L->shown[i];
        const pv_column *col = &r->view->columns[c];
        int room = rc.x + rc.w - x;
        /* The last column may use all the room that is left. */
        if (j + 1 == L->on && L->dw[j] < room)
            L->dw[j] = pv_app_last_width(a, r, c, room, L->tree_col, L->indent_col, L->count,
                                         L->rows);
        int w = L->dw[j];
        char title[160];
        const char *ind = "";
        if (r->sort_count && r->sort[0].column == c)
            ind = r->sort[0].descending ? (a->ascii ? "v" : "\xe2\x96\xbc")
                                        : (a->ascii ? "^" : "\xe2\x96\xb2");
        snprintf(title, sizeof title, "%s%s", col->title, ind);
        int tw = (int)pv_text_width(title, strlen(title), a->utf8);
        int off = pv_type_numeric(col->type) && tw < w ? w - tw : 0;
        pv_app_cut_text(a, rc.y, x + off, (w < room ? w : room) - off, title, strlen(title),
                        PV_ROLE_HEADER);
        L->xs[j] = x;
        if (record_header && a->rp.header_count < PV_MAX_SHOWN) {
            a->rp.header[a->rp.header_count].x = x;
            a->rp.header[a->rp.header_count].w = w;
            a->rp.header[a->rp.header_count].col = c;
            a->rp.header_count++;
        }
        x += w + 1;
    }
}

/* The role of a cell: numbers, a context's lane colour, a filter's
 * context row dimmed, a diff's delta better or worse. */
static pv_role pv_table_cell_role(const pv_report *r, size_t row, size_t c)
{
    const pv_column *col = &r->view->columns[c];
    pv_role role = pv_type_numeric(col->type) ? PV_ROLE_NUMBER : PV_ROLE_NORMAL;
    if (col->flags & PV_COL_LANE) /* a context: the colour of its lane */
        role = pv_lanes_row_role(r->view, row, role);
    if (pv_report_is_context(r, row))
        role = PV_ROLE_DIM; /* kept by the filter as a match's ancestor */
    if (pv_diff_is_delta_column(r->view, c)) {
        /* a diff: times and counts that fell are better */
        pv_cell dc;
        pv_view_cell(r->view, row, c, &dc);
        if (dc.present && (dc.type == PV_TYPE_FLOAT ? dc.v.f < 0 : dc.v.i < 0))
            role = PV_ROLE_BETTER;
        else if (dc.present && (dc.type == PV_TYPE_FLOAT ? dc.v.f > 0 : dc.v.i > 0))
            role = PV_ROLE_WORSE;
    }
    return role;
}

/* The cell of visible row k in drawn column j, at line y; on the
 * selected row in `sel` (a search match stays marked there too). */
static void pv_table_draw_cell(pv_app *a, const pv_report *r, const pv_table_layout *L, size_t k,
                               size_t j, int y, pv_buf *text, int sel)
{
    size_t row = pv_report_row(r, k);
    size_t c = L->shown[L->order[j]];
    const pv_column *col = &r->view->columns[c];
    int w = L->dw[j];
    int room = L->rc.x + L->rc.w - L->xs[j];
    if (w > room)
        w = room;
    int cx = L->xs[j];
    bool squeezed = w < r->widths[c]; /* narrower than its rows need */
    if (c == L->tree_col) {
        int indent = pv_app_draw_indent(a, y, cx, pv_report_depth(r, k), w, squeezed, 0);
        if (indent > w - 2)
            indent = w > 2 ? w - 2 : 0;
        cx += indent;
        uint32_t mark = ' ';
        if (pv_report_has_kids(r, row))
            mark = pv_report_is_collapsed(r, row) ? pv_app_glyph(a, 0x25b8, '+')
                                                  : pv_app_glyph(a, 0x25be, '-');
        if (w - indent >= 2) {
            pv_grid_char(&a->grid, y, cx, mark, sel >= 0 ? (pv_role)sel : PV_ROLE_TREE);
            cx += 2;
        }
        w -= (cx - L->xs[j]);
    } else if (c == L->indent_col) {
        size_t d;
        int indent = pv_view_row_depth(r->view, row, &d)
                         ? pv_app_draw_indent(a, y, cx, d, w, squeezed, 1)
                         : 0;
        if (indent > w - 1)
            indent = w > 1 ? w - 1 : 0;
        cx += indent;
        w -= indent;
    }
    pv_app_cell_text(a, r, k, c, text);
    const char *s = text->data ? text->data : "";
    int tw = (int)pv_text_width(s, text->len, a->utf8);
    int off = pv_type_numeric(col->type) && tw < w ? w - tw : 0;
    int used = pv_app_cut_text(a, y, cx + off, w - off, s, text->len,
                               sel >= 0 ? (pv_role)sel : pv_table_cell_role(r, row, c));
    if (a->search.len && pv_report_cell_matches(r, row, c, pv_buf_cstr(&a->search)))
        pv_grid_paint(&a->grid, y, cx + off, used, PV_ROLE_MATCH);
}

void pv_app_draw_report(pv_app *a, pv_report *r, pv_rect rc, bool focused, int pane,
                        bool record_header)
{
    if (rc.h < 1 || rc.w < 1)
        return;
    pv_table_layout L;
    L.rc = rc;
    L.rows = rc.h - 1;
    a->page_rows[pane] = L.rows > 1 ? L.rows : 1;
    L.count = pv_report_count(r);
    pv_table_scroll(r, &L);
    L.n = pv_report_shown(r, L.shown, PV_MAX_SHOWN);
    L.tree_col = pv_app_tree_column(r, L.shown, L.n);
    L.indent_col = pv_app_indent_column(r, L.shown, L.n);
    L.key_col = L.tree_col != PV_NO_ROW ? L.tree_col : pv_app_key_column(r, L.shown, L.n);
    pv_app_time_formats(a, r, L.shown, L.n, L.count, L.rows);
    pv_buf text;
    pv_buf_init(&text);
    pv_table_learn_widths(a, r, &L, &text);
    if (r->hscroll >= L.n)
        r->hscroll = L.n ? L.n - 1 : 0;
    pv_table_fit(a, r, &L);
    r->scrolled_to = L.scrolled_to; /* what `y` copies when scrolled */
    pv_table_draw_header(a, r, &L, record_header);
    /* Rows: only the ones on screen. */
    for (int line = 0; line < L.rows; line++) {
        size_t k = r->top + (size_t)line;
        int y = rc.y + 1 + line;
        if (k >= L.count)
            break;
        int sel = k != r->cursor ? -1 : focused ? PV_ROLE_SELECTED : PV_ROLE_SELECTED_DIM;
        if (sel >= 0)
            pv_grid_fill(&a->grid, y, rc.x, rc.w, 1, (pv_role)sel);
        for (size_t j = 0; j < L.end; j++)
            pv_table_draw_cell(a, r, &L, k, j, y, &text, sel);
    }
    if (L.count == 0 && L.rows > 0)
        pv_grid_str(&a->grid, rc.y + 1, rc.x, rc.w,
                    r->filter[0] ? "(no row matches the filter)" : "(no rows)", PV_ROLE_DIM);
    pv_buf_free(&text);
}

void pv_app_click_rows(pv_app *a, pv_report *r, pv_rect rc, int pane, int y)
{
    /* Rows start two lines below the pane top (title, header) and take
     * page_rows lines (the lane strip may follow them). */
    if (r && y >= rc.y + 2 && y - rc.y - 2 < a->page_rows[pane]) {
        size_t k = r->top + (size_t)(y - rc.y - 2);
        if (k < pv_report_count(r))
            pv_report_move_to(r, k);
    }
}

void pv_app_wheel(pv_report *r, int button)
{
    if (r)
        pv_report_move(r, button == 4 ? -3 : 3);
}
