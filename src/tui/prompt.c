/* prompt.c - the prompt (/ search, \ filter, : command): its line editor
 * with readline keys, its history, completion, and the search as you
 * type. */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "profview/export.h"
#include "profview/hooks.h"
#include "tui/group.h"
#include "tui/panel.h"
#include "tui/commands.h"

/* ---- the prompt: readline-style editing, history, completion */

void pv_app_prompt_open(pv_app *a, int kind, const char *initial)
{
    a->prompt.kind = kind;
    pv_buf_clear(&a->prompt.line);
    pv_buf_puts(&a->prompt.line, initial ? initial : "");
    a->prompt.pos = a->prompt.line.len;
    a->prompt.history_pos = a->prompt.history_count[kind];
    pv_buf_clear(&a->message);
}

static void pv_app_prompt_remember(pv_app *a)
{
    int k = a->prompt.kind;
    const char *text = pv_buf_cstr(&a->prompt.line);
    if (!text[0])
        return;
    size_t n = a->prompt.history_count[k];
    if (n && strcmp(a->prompt.history[k][n - 1], text) == 0)
        return;
    if (n == PV_PROMPT_HISTORY) {
        free(a->prompt.history[k][0]);
        memmove(a->prompt.history[k], a->prompt.history[k] + 1,
                (PV_PROMPT_HISTORY - 1) * sizeof(char *));
        n--;
    }
    a->prompt.history[k][n++] = pv_xstrdup(text);
    a->prompt.history_count[k] = n;
}

static void pv_app_line_set(pv_app *a, const char *text)
{
    pv_buf_clear(&a->prompt.line);
    pv_buf_puts(&a->prompt.line, text);
    a->prompt.pos = a->prompt.line.len;
}

static void pv_app_line_delete(pv_app *a, size_t from, size_t to)
{
    if (to <= from || to > a->prompt.line.len)
        return;
    memmove(a->prompt.line.data + from, a->prompt.line.data + to, a->prompt.line.len - to + 1);
    a->prompt.line.len -= to - from;
    a->prompt.pos = from;
}

static void pv_app_line_insert(pv_app *a, const char *s, size_t len)
{
    pv_buf tail;
    pv_buf_init(&tail);
    pv_buf_append(&tail, a->prompt.line.data ? a->prompt.line.data + a->prompt.pos : "", a->prompt.line.len - a->prompt.pos);
    a->prompt.line.len = a->prompt.pos;
    pv_buf_append(&a->prompt.line, s, len);
    a->prompt.pos = a->prompt.line.len;
    pv_buf_append(&a->prompt.line, tail.data ? tail.data : "", tail.len);
    pv_buf_free(&tail);
}

/* Moves over one UTF-8 character. */
static size_t pv_utf8_prev(const char *s, size_t pos)
{
    if (pos == 0)
        return 0;
    pos--;
    while (pos > 0 && ((unsigned char)s[pos] & 0xc0) == 0x80)
        pos--;
    return pos;
}

size_t pv_app_utf8_next(const char *s, size_t len, size_t pos)
{
    if (pos >= len)
        return len;
    pos++;
    while (pos < len && ((unsigned char)s[pos] & 0xc0) == 0x80)
        pos++;
    return pos;
}

static const char *const pv_theme_names[] = {"default", "light", "monochrome", "high-contrast"};

/* Candidates for completion: owned copies, any number. */
typedef struct pv_cands {
    char **v;
    size_t count, cap;
} pv_cands;

static void pv_cands_add(pv_cands *c, const char *s, size_t len)
{
    c->v = pv_xgrow(c->v, &c->cap, c->count + 1, sizeof *c->v);
    char *copy = pv_xmalloc(len + 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    c->v[c->count++] = copy;
}

static void pv_cands_free(pv_cands *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->v[i]);
    free(c->v);
}

static int pv_cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The files and directories (with a '/') whose path starts with `word`, in
 * name order. */
static void pv_app_file_candidates(const char *word, size_t wl, pv_cands *out)
{
    size_t first = out->count;
    const char *slash = NULL;
    for (size_t i = 0; i < wl; i++)
        if (word[i] == '/')
            slash = word + i;
    size_t dl = slash ? (size_t)(slash - word) + 1 : 0; /* the directory part, with its '/' */
    pv_buf dir, path;
    pv_buf_init(&dir);
    pv_buf_init(&path);
    pv_buf_append(&dir, word, dl);
    DIR *d = opendir(dl ? pv_buf_cstr(&dir) : ".");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
            strncmp(name, word + dl, wl - dl) != 0 || (name[0] == '.' && (wl == dl || word[dl] != '.')))
            continue;
        pv_buf_clear(&path);
        pv_buf_printf(&path, "%s%s", pv_buf_cstr(&dir), name);
        struct stat st;
        if (stat(pv_buf_cstr(&path), &st) == 0 && S_ISDIR(st.st_mode))
            pv_buf_putc(&path, '/');
        pv_cands_add(out, path.data, path.len);
    }
    if (d)
        closedir(d);
    if (out->count > first)
        qsort(out->v + first, out->count - first, sizeof *out->v, pv_cmp_str);
    pv_buf_free(&dir);
    pv_buf_free(&path);
}

/* Where the PATH of `:export FORMAT PATH` starts in a : line: after the
 * command word, the format and the blanks after it; SIZE_MAX while the
 * format is not followed by a blank. */
#define PV_ARG_EXPORT_FILE (-1) /* pv_app_candidates: the PATH of :export */
static size_t pv_app_export_path_start(const char *line)
{
    size_t i = strspn(line, " ");
    i += strcspn(line + i, " ");
    i += strspn(line + i, " ");
    size_t format = strcspn(line + i, " ");
    if (format == 0 || line[i + format] != ' ')
        return SIZE_MAX;
    i += format;
    return i + strspn(line + i, " ");
}

/* The longest common prefix of the candidates starting with word[0..wl)
 * (case-sensitive when `exact`): the first match (NULL: none), its length
 * in *common, the number in *hits; `list` gets them, blank-separated, when
 * there are several. */
static const char *pv_cands_match(const pv_cands *cands, const char *word, size_t wl, bool exact,
                                  size_t *common, size_t *hits, pv_buf *list)
{
    const char *match = NULL;
    *common = 0;
    *hits = 0;
    for (size_t i = 0; i < cands->count; i++) {
        const char *c = cands->v[i];
        if ((exact ? strncmp(c, word, wl) : strncasecmp(c, word, wl)) != 0)
            continue;
        if (!match) {
            match = c;
            *common = strlen(match);
        } else {
            size_t k = 0;
            while (k < *common && c[k] &&
                   (exact ? c[k] == match[k]
                          : tolower((unsigned char)c[k]) == tolower((unsigned char)match[k])))
                k++;
            *common = k;
        }
        ++*hits;
    }
    for (size_t i = 0; *hits > 1 && i < cands->count; i++)
        if ((exact ? strncmp(cands->v[i], word, wl) : strncasecmp(cands->v[i], word, wl)) == 0)
            pv_buf_printf(list, "%s ", cands->v[i]);
    return match;
}

void pv_app_complete_path(pv_app *a, pv_buf *path)
{
    pv_cands cands = {0};
    char *word = pv_xstrdup(pv_buf_cstr(path));
    size_t wl = strlen(word), common, hits;
    pv_app_file_candidates(word, wl, &cands);
    pv_buf list;
    pv_buf_init(&list);
    const char *match = pv_cands_match(&cands, word, wl, true, &common, &hits, &list);
    if (match) {
        pv_buf_clear(path);
        pv_buf_append(path, match, common);
        if (hits > 1)
            pv_app_message(a, false, pv_buf_cstr(&list));
    }
    pv_buf_free(&list);
    free(word);
    pv_cands_free(&cands);
}

static void pv_app_sql_name(void *ctx, const char *name)
{
    pv_app_sql_names *n = ctx;
    if (n->count >= PV_ARRAY_LEN(n->offsets))
        return;
    n->offsets[n->count++] = n->text.len;
    pv_buf_append(&n->text, name, strlen(name) + 1);
}

/* The candidates for the word being completed: command names for the first
 * word of a : line, then what the command's table entry says it takes
 * (commands.def); column ids in the filter prompt. */
static void pv_app_candidates(pv_app *a, bool first_word, const char *word, size_t wl,
                              pv_cands *out)
{
    const char *line = pv_buf_cstr(&a->prompt.line);
    int complete = PV_ARG_COLUMN;
    if (first_word) {
        for (size_t i = 0; i < pv_command_count; i++)
            pv_cands_add(out, pv_commands[i].name, strlen(pv_commands[i].name));
        return;
    }
    if (a->prompt.kind == PV_PROMPT_COMMAND) {
        const char *w = line + strspn(line, " ");
        const pv_command *c = pv_command_find(w, strcspn(w, " "));
        complete = c ? c->complete : PV_ARG_NONE;
        if (complete == PV_ARG_EXPORT && pv_app_export_path_start(line) <= (size_t)(word - line))
            complete = PV_ARG_EXPORT_FILE;
    }
    if (complete == PV_ARG_THEME) {
        for (size_t i = 0; i < PV_ARRAY_LEN(pv_theme_names); i++)
            pv_cands_add(out, pv_theme_names[i], strlen(pv_theme_names[i]));
    } else if (complete == PV_ARG_COLUMN) {
        pv_report *r = pv_app_focused_report(a);
        for (size_t c = 0; r && c < r->view->column_count; c++)
            pv_cands_add(out, r->view->columns[c].id, strlen(r->view->columns[c].id));
    } else if (complete == PV_ARG_FILE || complete == PV_ARG_EXPORT_FILE) {
        pv_app_file_candidates(word, wl, out);
    } else if (complete == PV_ARG_EXPORT) {
        for (int f = PV_EXPORT_TEXT1; f < PV_EXPORT_FORMAT_COUNT; f++) {
            const char *name = pv_export_format_name((pv_export_format)f);
            pv_cands_add(out, name, strlen(name));
        }
    } else if (complete == PV_ARG_SQL) {
        /* tables, functions, schemas, and table.column */
        a->sql.names.count = 0;
        pv_buf_clear(&a->sql.names.text);
        pv_app_sql_complete(a, word, pv_app_sql_name, &a->sql.names);
        for (size_t i = 0; i < a->sql.names.count; i++) {
            const char *n = a->sql.names.text.data + a->sql.names.offsets[i];
            pv_cands_add(out, n, strlen(n));
        }
    }
}

/* Completes the word before the cursor to the longest common prefix of the
 * candidates; lists them (above the prompt) when there are several. */
static void pv_app_complete(pv_app *a)
{
    const char *line = pv_buf_cstr(&a->prompt.line);
    bool command = a->prompt.kind == PV_PROMPT_COMMAND;
    const char *w = line + strspn(line, " ");
    const pv_command *cmd = command ? pv_command_find(w, strcspn(w, " ")) : NULL;
    bool file = cmd && cmd->complete == PV_ARG_FILE && w + strcspn(w, " ") < line + a->prompt.pos;
    /* :export FORMAT PATH: the path is the rest of the line after the format */
    size_t export_path = cmd && cmd->complete == PV_ARG_EXPORT ? pv_app_export_path_start(line)
                                                               : SIZE_MAX;
    file = file || export_path <= a->prompt.pos;
    /* A file name is the whole argument (it may hold any character). */
    size_t start = a->prompt.pos;
    if (export_path <= a->prompt.pos) {
        start = export_path;
    } else if (file) {
        start = (size_t)(w + strcspn(w, " ") - line);
        while (start < a->prompt.pos && line[start] == ' ')
            start++;
    } else {
        while (start > 0 && !strchr(" ,:!()<>=~&|", line[start - 1]))
            start--;
    }
    const char *word = line + start;
    size_t wl = a->prompt.pos - start;
    bool first_word = command && strspn(line, " ") == start;
    pv_cands cands = {0};
    pv_app_candidates(a, first_word, word, wl, &cands);
    size_t common, hits;
    pv_buf list; /* the candidates, before the line changes under word */
    pv_buf_init(&list);
    const char *match = pv_cands_match(&cands, word, wl, file, &common, &hits, &list);
    if (match) {
        pv_app_line_delete(a, start, a->prompt.pos);
        pv_app_line_insert(a, match, common);
        if (hits == 1 && (first_word || (cmd && cmd->complete == PV_ARG_EXPORT && !file)))
            pv_app_line_insert(a, " ", 1);
        if (hits > 1)
            pv_app_message(a, false, pv_buf_cstr(&list));
    }
    pv_buf_free(&list);
    pv_cands_free(&cands);
}

static void pv_app_search_update(pv_app *a)
{
    pv_report *r = pv_app_focused_report(a);
    pv_buf_clear(&a->search);
    pv_buf_puts(&a->search, pv_buf_cstr(&a->prompt.line));
    if (pv_screen_overlay_search(a, 0) || !r || a->flame.mode)
        return; /* the help searches itself; a graph highlights its matches */
    if (pv_jobs_get(a, PV_JOB_SEARCH))
        pv_jobs_stop(a, false); /* the text changed: a search of the old one is moot */
    if (a->prompt.search_origin_row != PV_NO_ROW)
        pv_report_select_row(r, a->prompt.search_origin_row);
    else
        pv_report_move_to(r, a->prompt.search_origin);
    if (!a->search.len)
        return;
    if (pv_app_report_indexing(a)) {
        /* rows not indexed yet have no names: Enter queues the search */
        pv_app_message(a, false, "indexing: Enter searches once the index is ready");
        return;
    }
    /* While typing, look at a bounded number of rows per key (and into
     * collapsed nodes); Enter or n searches them all in steps
     * (docs/quality.md: no key blocks the UI).  No match: back where the
     * search started (as vim and less do). */
    pv_report_job *j = pv_report_search_job(r, pv_buf_cstr(&a->search), a->prompt.search_origin, +1);
    bool done = pv_report_job_step(j, PV_SEARCH_STEP);
    if (!done && pv_report_job_found(j))
        done = pv_report_job_step(j, PV_SEARCH_STEP); /* found: the step that moves to it */
    if (done && pv_report_job_found(j))
        pv_buf_clear(&a->message);
    else if (!done)
        pv_app_message(a, false, "no match yet: Enter searches every row");
    pv_report_job_free(j);
}

void pv_app_paste(pv_app *a, const char *text, size_t len)
{
    if (pv_jobs_keep(a, &(pv_job_input){.paste = (char *)text, .paste_len = len}))
        return; /* answered when the job ends */
    if (a->prompt.kind == PV_PROMPT_NONE) {
        pv_app_message(a, false,
                       "a paste goes into a prompt: open one first (: command, / search, f filter)");
        return;
    }
    pv_buf clean;
    pv_buf_init(&clean);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\r' && i + 1 < len && text[i + 1] == '\n')
            continue; /* CRLF: one space, from the LF */
        if (c == '\n' || c == '\r' || c == '\t')
            pv_buf_putc(&clean, ' ');
        else if (c >= 0x20 && c != 0x7f)
            pv_buf_putc(&clean, (char)c);
    }
    pv_app_line_insert(a, clean.data ? clean.data : "", clean.len);
    pv_buf_free(&clean);
    pv_buf_clear(&a->message);
    if (a->prompt.kind == PV_PROMPT_SEARCH)
        pv_app_search_update(a);
}

/* Searches the focused report from `from` in direction dir, in steps. */
void pv_app_search_from(pv_app *a, pv_report *r, size_t from, int dir)
{
    pv_buf what;
    pv_buf_init(&what);
    pv_buf_printf(&what, "Searching for '%s'", pv_buf_cstr(&a->search));
    pv_app_job_start(a, pv_report_search_job(r, pv_buf_cstr(&a->search), from, dir), PV_JOB_SEARCH,
                     pv_buf_cstr(&what));
    pv_buf_free(&what);
}

void pv_app_search_now(pv_app *a, pv_report *r, size_t from, int dir)
{
    pv_app_search_from(a, r, from, dir);
}

void pv_app_prompt_key(pv_app *a, int key)
{
    int kind = a->prompt.kind;
    const char *line = pv_buf_cstr(&a->prompt.line);
    pv_buf_clear(&a->message); /* Tab's completions go with the next key */
    switch (key) {
    case PV_KEY_ENTER: {
        pv_app_prompt_remember(a);
        char *text = pv_xstrdup(pv_buf_cstr(&a->prompt.line));
        a->prompt.kind = PV_PROMPT_NONE;
        if (kind == PV_PROMPT_SEARCH) {
            pv_buf_clear(&a->search);
            pv_buf_puts(&a->search, text);
            /* a graph highlights its matches itself (docs/flame.md) */
            if (!pv_screen_overlay_search(a, 1) && text[0] && pv_app_focused_report(a) && !a->flame.mode)
                pv_app_search_from(a, pv_app_focused_report(a), a->prompt.search_origin, +1);
        } else if (kind == PV_PROMPT_FILTER) {
            pv_app_apply_filter(a, text);
        } else if (kind == PV_PROMPT_COMMAND) {
            pv_app_run_command(a, text);
        }
        free(text);
        return;
    }
    case PV_KEY_ESC:
    case PV_KEY_CTRL('c'):
    case PV_KEY_CTRL('g'):
        if (kind == PV_PROMPT_SEARCH && !pv_screen_overlay_search(a, -1)) {
            pv_report *r = pv_app_focused_report(a);
            if (r && a->prompt.search_origin_row != PV_NO_ROW)
                pv_report_select_row(r, a->prompt.search_origin_row);
            else if (r)
                pv_report_move_to(r, a->prompt.search_origin);
            pv_buf_clear(&a->search);
        }
        a->prompt.kind = PV_PROMPT_NONE;
        return;
    case PV_KEY_BACKSPACE:
    case PV_KEY_CTRL('h'):
        if (a->prompt.pos == 0 && a->prompt.line.len == 0) {
            a->prompt.kind = PV_PROMPT_NONE;
            return;
        }
        pv_app_line_delete(a, pv_utf8_prev(line, a->prompt.pos), a->prompt.pos);
        break;
    case PV_KEY_DELETE:
    case PV_KEY_CTRL('d'):
        pv_app_line_delete(a, a->prompt.pos, pv_app_utf8_next(line, a->prompt.line.len, a->prompt.pos));
        break;
    case PV_KEY_LEFT:
    case PV_KEY_CTRL('b'):
        a->prompt.pos = pv_utf8_prev(line, a->prompt.pos);
        return;
    case PV_KEY_RIGHT:
    case PV_KEY_CTRL('f'):
        a->prompt.pos = pv_app_utf8_next(line, a->prompt.line.len, a->prompt.pos);
        return;
    case PV_KEY_HOME:
    case PV_KEY_CTRL('a'):
        a->prompt.pos = 0;
        return;
    case PV_KEY_END:
    case PV_KEY_CTRL('e'):
        a->prompt.pos = a->prompt.line.len;
        return;
    case PV_KEY_CTRL('k'):
        pv_app_line_delete(a, a->prompt.pos, a->prompt.line.len);
        break;
    case PV_KEY_CTRL('u'):
        pv_app_line_delete(a, 0, a->prompt.pos);
        break;
    case PV_KEY_CTRL('w'): {
        size_t p = a->prompt.pos;
        while (p > 0 && line[p - 1] == ' ')
            p--;
        while (p > 0 && line[p - 1] != ' ')
            p--;
        pv_app_line_delete(a, p, a->prompt.pos);
        break;
    }
    case PV_KEY_UP:
    case PV_KEY_CTRL('p'):
        if (a->prompt.history_pos > 0)
            pv_app_line_set(a, a->prompt.history[kind][--a->prompt.history_pos]);
        return;
    case PV_KEY_DOWN:
    case PV_KEY_CTRL('n'):
        if (a->prompt.history_pos + 1 < a->prompt.history_count[kind])
            pv_app_line_set(a, a->prompt.history[kind][++a->prompt.history_pos]);
        else {
            a->prompt.history_pos = a->prompt.history_count[kind];
            pv_app_line_set(a, "");
        }
        return;
    case PV_KEY_TAB:
        if (kind != PV_PROMPT_SEARCH)
            pv_app_complete(a);
        return;
    default:
        if (key >= 0x20 && key < 0x110000 && key != 0x7f) {
            char u[4];
            size_t n;
            uint32_t c = (uint32_t)key;
            if (c < 0x80) {
                u[0] = (char)c, n = 1;
            } else if (c < 0x800) {
                u[0] = (char)(0xc0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3f)), n = 2;
            } else if (c < 0x10000) {
                u[0] = (char)(0xe0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
                u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
            } else {
                u[0] = (char)(0xf0 | (c >> 18)), u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
                u[2] = (char)(0x80 | ((c >> 6) & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
            }
            pv_app_line_insert(a, u, n);
        } else {
            return;
        }
    }
    if (kind == PV_PROMPT_SEARCH)
        pv_app_search_update(a);
}

static const char *pv_prompt_prefix(int kind)
{
    switch (kind) {
    case PV_PROMPT_SEARCH:
        return "/";
    case PV_PROMPT_FILTER:
        return "filter: ";
    case PV_PROMPT_COMMAND:
        return ":";
    }
    return "";
}

static void pv_prompt_draw_line(pv_app *a, int y)
{
    a->cursor_on = false;
    if (a->prompt.kind) {
        const char *pre = pv_prompt_prefix(a->prompt.kind);
        int x = pv_grid_str(&a->grid, y, 0, a->width, pre, PV_ROLE_PROMPT);
        /* Scroll the line so that the cursor stays visible. */
        size_t start = 0;
        size_t before = pv_text_width(a->prompt.line.data ? a->prompt.line.data : "", a->prompt.pos, a->utf8);
        int room = a->width - x - 1;
        if (room < 1)
            room = 1;
        if ((int)before > room) {
            while (start < a->prompt.pos &&
                   (int)pv_text_width(a->prompt.line.data + start, a->prompt.pos - start, a->utf8) > room)
                start++;
        }
        pv_grid_text(&a->grid, y, x, a->width - x, a->prompt.line.data ? a->prompt.line.data + start : "",
                     a->prompt.line.len - start, PV_ROLE_PROMPT);
        a->cursor_y = y;
        a->cursor_x = x + (int)pv_text_width(a->prompt.line.data ? a->prompt.line.data + start : "",
                                             a->prompt.pos - start, a->utf8);
        a->cursor_on = true;
        return;
    }
    if (pv_app_message_fits_line(a)) /* else the message box has it, wrapped */
        pv_grid_str(&a->grid, y, 0, a->width, pv_buf_cstr(&a->message),
                    a->message_error ? PV_ROLE_ERROR : PV_ROLE_PROMPT);
}

/* The prompt's line: the screen's last (rc.y), or the message there. */
static void pv_prompt_draw(pv_app *a, pv_rect rc)
{
    pv_prompt_draw_line(a, rc.y);
}

const pv_panel pv_panel_prompt = {
    .name = "Prompt",
    .draw = pv_prompt_draw,
    .key = pv_app_prompt_key,
};
