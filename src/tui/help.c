/* help.c - the help overlay (panel.h): the keys (actions.def), the
 * commands (commands.def), the legend of the timeline's event letters;
 * and, in the same pager, the session's messages (:messages).  Lines
 * longer than the screen wrap (a description under its own column); `/`
 * searches them, `n` / `N` go to the next / previous match, the matches
 * are highlighted (docs/tui.md "Keys"). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "profview/hooks.h"
#include "tui/panel.h"

/* A line of the pager as drawn: its escaped text, its role, its first
 * `key_w` columns (from column 1) in the keys' role. */
typedef struct pv_pager_line {
    pv_buf text;
    pv_role role;
    int key_w;
} pv_pager_line;

typedef struct pv_pager {
    pv_pager_line *line;
    size_t count, cap;
} pv_pager;

static pv_pager_line *pv_pager_add(pv_pager *pg, pv_role role, int key_w)
{
    pg->line = pv_xgrow(pg->line, &pg->cap, pg->count + 1, sizeof *pg->line);
    pv_pager_line *l = &pg->line[pg->count++];
    pv_buf_init(&l->text);
    l->role = role;
    l->key_w = key_w;
    return l;
}

static void pv_pager_free(pv_pager *pg)
{
    for (size_t i = 0; i < pg->count; i++)
        pv_buf_free(&pg->line[i].text);
    free(pg->line);
    memset(pg, 0, sizeof *pg);
}

/* text cut to w columns (with its mark), padded with blanks to w */
static void pv_pager_cell(const pv_app *a, pv_buf *out, const char *text, int w)
{
    pv_buf cut;
    pv_buf_init(&cut);
    int used = pv_text_cut(&cut, text, strlen(text), 0, w, PV_CUT_END, a->utf8, !a->ascii);
    pv_buf_append(out, cut.data ? cut.data : "", cut.len);
    for (; used < w; used++)
        pv_buf_putc(out, ' ');
    pv_buf_free(&cut);
}

/* An entry: `head` (its first `col` columns, already laid out) and its
 * description wrapped in the columns from `col` to the screen's edge;
 * when they are fewer than 20, the description goes under the head,
 * indented by 4. */
static void pv_pager_entry(const pv_app *a, pv_pager *pg, const pv_buf *head, int key_w, int col,
                           const char *desc, int width, pv_role role)
{
    if (width - col - 1 < 20)
        col = 4;
    int room = width - col - 1;
    pv_text_line wl[32];
    size_t n = pv_text_wrap(desc, strlen(desc), room, a->utf8, wl, 32);
    if (n > 32)
        n = 32;
    bool under = col == 4 && head;
    if (under) {
        pv_pager_line *l = pv_pager_add(pg, role, key_w);
        pv_buf_append(&l->text, head->data, head->len);
    }
    for (size_t i = 0; i < n; i++) {
        pv_pager_line *l = pv_pager_add(pg, role, i == 0 && !under ? key_w : 0);
        if (i == 0 && !under && head)
            pv_buf_append(&l->text, head->data, head->len);
        else
            for (int k = 0; k < col; k++)
                pv_buf_putc(&l->text, ' ');
        pv_text_escape(&l->text, desc + wl[i].off, wl[i].len, a->utf8);
    }
}

/* The help's lines at this width: the keys, a blank, the commands, a
 * blank, the legend of the timeline's event letters. */
static void pv_help_lines(const pv_app *a, int width, pv_pager *pg)
{
    pv_buf head;
    pv_buf_init(&head);
    for (size_t k = 0; k < PV_ACT_COUNT; k++) {
        char keys[64];
        pv_keymap_describe(&a->cfg.keys, (pv_action)k, keys, sizeof keys);
        pv_buf_clear(&head);
        pv_buf_putc(&head, ' ');
        pv_pager_cell(a, &head, keys, 18);
        pv_buf_putc(&head, ' ');
        pv_pager_cell(a, &head, pv_action_name((pv_action)k), 14);
        pv_buf_putc(&head, ' ');
        pv_pager_entry(a, pg, &head, 18, 35, pv_action_help((pv_action)k), width, PV_ROLE_NORMAL);
    }
    pv_pager_add(pg, PV_ROLE_NORMAL, 0);
    pv_buf_puts(&pv_pager_add(pg, PV_ROLE_TITLE, 0)->text, " Commands (:)");
    pv_buf help;
    pv_buf_init(&help);
    for (size_t k = 0; k < pv_command_count; k++) {
        /* :name ARGS, help (and aliases), from commands.def */
        const pv_command *c = &pv_commands[k];
        char usage[96];
        pv_command_usage(c, usage, sizeof usage);
        pv_buf_clear(&head);
        pv_buf_puts(&head, " :");
        pv_pager_cell(a, &head, usage, 30);
        pv_buf_putc(&head, ' ');
        pv_buf_clear(&help);
        pv_buf_puts(&help, c->help);
        if (c->aliases[0])
            pv_buf_printf(&help, " (also :%s)", c->aliases);
        pv_pager_entry(a, pg, &head, 31, 33, pv_buf_cstr(&help), width, PV_ROLE_NORMAL);
    }
    pv_pager_add(pg, PV_ROLE_NORMAL, 0);
    pv_buf_puts(&pv_pager_add(pg, PV_ROLE_TITLE, 0)->text, " Timeline events (the event column)");
    pv_pager_entry(a, pg, NULL, 0, 1,
                   "E entry   X exit   S suspend   R resume   W write (a data area's value)",
                   width, PV_ROLE_NORMAL);
    pv_buf_free(&help);
    pv_buf_free(&head);
}

/* The session's messages, oldest first, each wrapped. */
static void pv_messages_lines(const pv_app *a, int width, pv_pager *pg)
{
    if (!a->log.count)
        pv_buf_puts(&pv_pager_add(pg, PV_ROLE_DIM, 0)->text, " (no messages)");
    for (size_t i = 0; i < a->log.count; i++)
        pv_pager_entry(a, pg, NULL, 0, 1, a->log.text[i], width,
                       a->log.error[i] ? PV_ROLE_ERROR : PV_ROLE_NORMAL);
}

static void pv_pager_build(const pv_app *a, int width, pv_pager *pg)
{
    if (a->ov.kind == PV_OVERLAY_MESSAGES)
        pv_messages_lines(a, width, pg);
    else
        pv_help_lines(a, width, pg);
}

/* Where `needle` occurs in hay from byte `from`, any case (ASCII);
 * SIZE_MAX: nowhere. */
static size_t pv_pager_find(const pv_buf *hay, size_t from, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = from; n && i + n <= hay->len; i++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)hay->data[i + k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return i;
    }
    return SIZE_MAX;
}

static void pv_pager_draw(pv_app *a, pv_rect rc)
{
    pv_pager pg = {0};
    pv_pager_build(a, rc.w, &pg);
    size_t total = pg.count;
    int rows = rc.h - 1;
    a->page_rows[PV_PANE_REPORT] = rows > 1 ? rows : 1;
    if (rows > 0 && a->ov.top + (size_t)rows > total)
        a->ov.top = total > (size_t)rows ? total - (size_t)rows : 0;
    bool more = rows > 0 && a->ov.top + (size_t)rows < total;
    bool messages = a->ov.kind == PV_OVERLAY_MESSAGES;
    char title[160];
    snprintf(title, sizeof title, "%s (q, Esc or %s closes; / searches%s)",
             messages ? "Messages" : "Help: keys", messages ? "Enter" : "?",
             more ? "; more below: j, PgDn, G" : "");
    pv_app_title(a, rc.y, rc.x, rc.w, title, true);
    const char *search = a->ov.searched ? pv_buf_cstr(&a->search) : "";
    for (int i = 0; i < rows && a->ov.top + (size_t)i < total; i++) {
        const pv_pager_line *l = &pg.line[a->ov.top + (size_t)i];
        int y = rc.y + 1 + i;
        pv_grid_text(&a->grid, y, rc.x, rc.w, l->text.data ? l->text.data : "", l->text.len,
                     l->role);
        if (l->key_w)
            pv_grid_paint(&a->grid, y, rc.x + 1, l->key_w, PV_ROLE_HELP_KEY);
        for (size_t at = pv_pager_find(&l->text, 0, search); at != SIZE_MAX;
             at = pv_pager_find(&l->text, at + 1, search)) {
            int x = (int)pv_text_width(l->text.data, at, a->utf8);
            int w = (int)pv_text_width(l->text.data + at, strlen(search), a->utf8);
            pv_grid_paint(&a->grid, y, rc.x + x, w, PV_ROLE_MATCH);
        }
    }
    pv_pager_free(&pg);
}

/* The first line holding the search text from line `at` on (dir +1) or
 * back (dir -1), round the end, `at` itself first when !skip; SIZE_MAX:
 * none. */
static size_t pv_pager_next_match(pv_app *a, size_t at, int dir, bool skip)
{
    pv_pager pg = {0};
    pv_pager_build(a, a->width, &pg);
    size_t found = SIZE_MAX, n = pg.count;
    const char *search = pv_buf_cstr(&a->search);
    if (at >= n)
        at = n ? n - 1 : 0;
    for (size_t k = skip ? 1 : 0; search[0] && k <= n && found == SIZE_MAX; k++) {
        size_t i = dir > 0 ? (at + k) % n : (at + n - k % n) % n;
        if (pv_pager_find(&pg.line[i].text, 0, search) != SIZE_MAX)
            found = i;
    }
    pv_pager_free(&pg);
    return found;
}

/* Shows line `line`: where it is when on screen, else in the middle. */
static void pv_pager_show(pv_app *a, size_t line)
{
    size_t rows = (size_t)(a->page_rows[PV_PANE_REPORT] > 1 ? a->page_rows[PV_PANE_REPORT] : 1);
    a->ov.cursor = line;
    if (line < a->ov.top || line >= a->ov.top + rows)
        a->ov.top = line > rows / 2 ? line - rows / 2 : 0;
}

static void pv_pager_goto_match(pv_app *a, size_t at, int dir, bool skip)
{
    size_t line = pv_pager_next_match(a, at, dir, skip);
    if (line == SIZE_MAX) {
        pv_app_messagef(a, true, "not found: %s", pv_buf_cstr(&a->search));
        return;
    }
    pv_pager_show(a, line);
}

/* The prompt's search while the pager is shown: as it is typed and on
 * Enter (how >= 0) from the line the search started at; Esc (how < 0)
 * goes back there. */
static void pv_pager_search(pv_app *a, int how)
{
    a->ov.searched = true;
    if (how < 0 || !a->search.len) {
        a->ov.top = a->ov.search_from;
        a->ov.cursor = SIZE_MAX;
        if (how < 0)
            pv_buf_clear(&a->search);
        return;
    }
    pv_pager_goto_match(a, a->ov.search_from, +1, false);
}

static void pv_pager_close(pv_app *a)
{
    a->ov.kind = PV_OVERLAY_NONE;
    if (a->ov.searched)
        pv_buf_clear(&a->search); /* the help's, not the report's */
    a->ov.searched = false;
}

static void pv_help_key(pv_app *a, int key)
{
    pv_action act = pv_keymap_lookup(&a->cfg.keys, key);
    size_t page = (size_t)a->page_rows[PV_PANE_REPORT];
    if (act == PV_ACT_DOWN)
        a->ov.top++;
    else if (act == PV_ACT_UP && a->ov.top)
        a->ov.top--;
    else if (act == PV_ACT_PAGE_DOWN)
        a->ov.top += page;
    else if (act == PV_ACT_PAGE_UP)
        a->ov.top = a->ov.top > page ? a->ov.top - page : 0;
    else if (act == PV_ACT_FIRST)
        a->ov.top = 0;
    else if (act == PV_ACT_LAST)
        a->ov.top = SIZE_MAX / 2; /* the drawing clamps it to the last page */
    else if (act == PV_ACT_SEARCH) {
        a->ov.search_from = a->ov.top;
        a->ov.cursor = SIZE_MAX;
        pv_app_prompt_open(a, PV_PROMPT_SEARCH, "");
        a->ov.searched = true;
        pv_buf_clear(&a->search);
    } else if ((act == PV_ACT_SEARCH_NEXT || act == PV_ACT_SEARCH_PREV) && a->ov.searched &&
               a->search.len) {
        bool from_match = a->ov.cursor != SIZE_MAX;
        pv_pager_goto_match(a, from_match ? a->ov.cursor : a->ov.top,
                            act == PV_ACT_SEARCH_NEXT ? +1 : -1, from_match);
    } else if (act == PV_ACT_QUIT || act == PV_ACT_HELP || key == PV_KEY_ESC ||
               key == PV_KEY_ENTER)
        pv_pager_close(a);
}

void pv_app_messages_open(pv_app *a)
{
    a->ov.kind = PV_OVERLAY_MESSAGES;
    a->ov.top = SIZE_MAX / 2; /* the newest: the drawing clamps it to the last page */
    a->ov.searched = false;
}

const pv_panel pv_panel_help = {
    .name = "Help",
    .draw = pv_pager_draw,
    .key = pv_help_key,
    .search = pv_pager_search,
};
