/* app_input.c - keys (through the action table), the prompt with its
 * readline keys, history and completion, the : commands, and the mouse. */
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
#include "tui/app_internal.h"
#include "tui/commands.h"

/* ---- the prompt: readline-style editing, history, completion */

static void pv_app_prompt_open(pv_app *a, int kind, const char *initial)
{
    a->prompt = kind;
    pv_buf_clear(&a->line);
    pv_buf_puts(&a->line, initial ? initial : "");
    a->line_pos = a->line.len;
    a->prompt_history_pos = a->prompt_history_count[kind];
    pv_buf_clear(&a->message);
}

static void pv_app_prompt_remember(pv_app *a)
{
    int k = a->prompt;
    const char *text = pv_buf_cstr(&a->line);
    if (!text[0])
        return;
    size_t n = a->prompt_history_count[k];
    if (n && strcmp(a->prompt_history[k][n - 1], text) == 0)
        return;
    if (n == PV_PROMPT_HISTORY) {
        free(a->prompt_history[k][0]);
        memmove(a->prompt_history[k], a->prompt_history[k] + 1,
                (PV_PROMPT_HISTORY - 1) * sizeof(char *));
        n--;
    }
    a->prompt_history[k][n++] = pv_xstrdup(text);
    a->prompt_history_count[k] = n;
}

static void pv_app_line_set(pv_app *a, const char *text)
{
    pv_buf_clear(&a->line);
    pv_buf_puts(&a->line, text);
    a->line_pos = a->line.len;
}

static void pv_app_line_delete(pv_app *a, size_t from, size_t to)
{
    if (to <= from || to > a->line.len)
        return;
    memmove(a->line.data + from, a->line.data + to, a->line.len - to + 1);
    a->line.len -= to - from;
    a->line_pos = from;
}

static void pv_app_line_insert(pv_app *a, const char *s, size_t len)
{
    pv_buf tail;
    pv_buf_init(&tail);
    pv_buf_append(&tail, a->line.data ? a->line.data + a->line_pos : "", a->line.len - a->line_pos);
    a->line.len = a->line_pos;
    pv_buf_append(&a->line, s, len);
    a->line_pos = a->line.len;
    pv_buf_append(&a->line, tail.data ? tail.data : "", tail.len);
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
    const char *line = pv_buf_cstr(&a->line);
    int complete = PV_ARG_COLUMN;
    if (first_word) {
        for (size_t i = 0; i < pv_command_count; i++)
            pv_cands_add(out, pv_commands[i].name, strlen(pv_commands[i].name));
        return;
    }
    if (a->prompt == PV_PROMPT_COMMAND) {
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
        for (int f = PV_EXPORT_TEXT1; f <= PV_EXPORT_SQLITE; f++) {
            const char *name = pv_export_format_name((pv_export_format)f);
            pv_cands_add(out, name, strlen(name));
        }
    } else if (complete == PV_ARG_SQL) {
        /* tables, functions, schemas, and table.column */
        a->sql_names.count = 0;
        pv_buf_clear(&a->sql_names.text);
        pv_app_sql_complete(a, word, pv_app_sql_name, &a->sql_names);
        for (size_t i = 0; i < a->sql_names.count; i++) {
            const char *n = a->sql_names.text.data + a->sql_names.offsets[i];
            pv_cands_add(out, n, strlen(n));
        }
    }
}

/* Completes the word before the cursor to the longest common prefix of the
 * candidates; lists them (above the prompt) when there are several. */
static void pv_app_complete(pv_app *a)
{
    const char *line = pv_buf_cstr(&a->line);
    bool command = a->prompt == PV_PROMPT_COMMAND;
    const char *w = line + strspn(line, " ");
    const pv_command *cmd = command ? pv_command_find(w, strcspn(w, " ")) : NULL;
    bool file = cmd && cmd->complete == PV_ARG_FILE && w + strcspn(w, " ") < line + a->line_pos;
    /* :export FORMAT PATH: the path is the rest of the line after the format */
    size_t export_path = cmd && cmd->complete == PV_ARG_EXPORT ? pv_app_export_path_start(line)
                                                               : SIZE_MAX;
    file = file || export_path <= a->line_pos;
    /* A file name is the whole argument (it may hold any character). */
    size_t start = a->line_pos;
    if (export_path <= a->line_pos) {
        start = export_path;
    } else if (file) {
        start = (size_t)(w + strcspn(w, " ") - line);
        while (start < a->line_pos && line[start] == ' ')
            start++;
    } else {
        while (start > 0 && !strchr(" ,:!()<>=~&|", line[start - 1]))
            start--;
    }
    const char *word = line + start;
    size_t wl = a->line_pos - start;
    bool first_word = command && strspn(line, " ") == start;
    pv_cands cands = {0};
    pv_app_candidates(a, first_word, word, wl, &cands);
    size_t common, hits;
    pv_buf list; /* the candidates, before the line changes under word */
    pv_buf_init(&list);
    const char *match = pv_cands_match(&cands, word, wl, file, &common, &hits, &list);
    if (match) {
        pv_app_line_delete(a, start, a->line_pos);
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
    pv_buf_puts(&a->search, pv_buf_cstr(&a->line));
    if (!r || a->flame.mode)
        return;
    if (pv_jobs_get(a, PV_JOB_SEARCH))
        pv_jobs_stop(a, false); /* the text changed: a search of the old one is moot */
    if (a->search_origin_row != PV_NO_ROW)
        pv_report_select_row(r, a->search_origin_row);
    else
        pv_report_move_to(r, a->search_origin);
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
    pv_report_job *j = pv_report_search_job(r, pv_buf_cstr(&a->search), a->search_origin, +1);
    bool done = pv_report_job_step(j, PV_SEARCH_STEP);
    if (done && pv_report_job_found(j))
        pv_buf_clear(&a->message);
    else if (!done)
        pv_app_message(a, false, "no match yet: Enter searches every row");
    pv_report_job_free(j);
}

/* Searches the focused report from `from` in direction dir, in steps. */
static void pv_app_search_from(pv_app *a, pv_report *r, size_t from, int dir)
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

static void pv_app_prompt_key(pv_app *a, int key)
{
    int kind = a->prompt;
    const char *line = pv_buf_cstr(&a->line);
    pv_buf_clear(&a->message); /* Tab's completions go with the next key */
    switch (key) {
    case PV_KEY_ENTER: {
        pv_app_prompt_remember(a);
        char *text = pv_xstrdup(pv_buf_cstr(&a->line));
        a->prompt = PV_PROMPT_NONE;
        if (kind == PV_PROMPT_SEARCH) {
            pv_buf_clear(&a->search);
            pv_buf_puts(&a->search, text);
            /* a graph highlights its matches itself (docs/flame.md) */
            if (text[0] && pv_app_focused_report(a) && !a->flame.mode)
                pv_app_search_from(a, pv_app_focused_report(a), a->search_origin, +1);
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
        if (kind == PV_PROMPT_SEARCH) {
            pv_report *r = pv_app_focused_report(a);
            if (r && a->search_origin_row != PV_NO_ROW)
                pv_report_select_row(r, a->search_origin_row);
            else if (r)
                pv_report_move_to(r, a->search_origin);
            pv_buf_clear(&a->search);
        }
        a->prompt = PV_PROMPT_NONE;
        return;
    case PV_KEY_BACKSPACE:
    case PV_KEY_CTRL('h'):
        if (a->line_pos == 0 && a->line.len == 0) {
            a->prompt = PV_PROMPT_NONE;
            return;
        }
        pv_app_line_delete(a, pv_utf8_prev(line, a->line_pos), a->line_pos);
        break;
    case PV_KEY_DELETE:
    case PV_KEY_CTRL('d'):
        pv_app_line_delete(a, a->line_pos, pv_app_utf8_next(line, a->line.len, a->line_pos));
        break;
    case PV_KEY_LEFT:
    case PV_KEY_CTRL('b'):
        a->line_pos = pv_utf8_prev(line, a->line_pos);
        return;
    case PV_KEY_RIGHT:
    case PV_KEY_CTRL('f'):
        a->line_pos = pv_app_utf8_next(line, a->line.len, a->line_pos);
        return;
    case PV_KEY_HOME:
    case PV_KEY_CTRL('a'):
        a->line_pos = 0;
        return;
    case PV_KEY_END:
    case PV_KEY_CTRL('e'):
        a->line_pos = a->line.len;
        return;
    case PV_KEY_CTRL('k'):
        pv_app_line_delete(a, a->line_pos, a->line.len);
        break;
    case PV_KEY_CTRL('u'):
        pv_app_line_delete(a, 0, a->line_pos);
        break;
    case PV_KEY_CTRL('w'): {
        size_t p = a->line_pos;
        while (p > 0 && line[p - 1] == ' ')
            p--;
        while (p > 0 && line[p - 1] != ' ')
            p--;
        pv_app_line_delete(a, p, a->line_pos);
        break;
    }
    case PV_KEY_UP:
    case PV_KEY_CTRL('p'):
        if (a->prompt_history_pos > 0)
            pv_app_line_set(a, a->prompt_history[kind][--a->prompt_history_pos]);
        return;
    case PV_KEY_DOWN:
    case PV_KEY_CTRL('n'):
        if (a->prompt_history_pos + 1 < a->prompt_history_count[kind])
            pv_app_line_set(a, a->prompt_history[kind][++a->prompt_history_pos]);
        else {
            a->prompt_history_pos = a->prompt_history_count[kind];
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

/* ---- filter, sort, commands */

void pv_app_apply_filter(pv_app *a, const char *expr)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r) {
        pv_app_message(a, true, "no report to filter");
        return;
    }
    pv_query_error err;
    pv_report_job *j = pv_report_select_job(r, expr, r->sort, r->sort_count, &err);
    if (!j) {
        pv_buf msg;
        pv_buf_init(&msg);
        if (err.message[0] && expr[0])
            pv_query_error_render(&err, expr, &msg);
        else
            pv_buf_puts(&msg, err.message);
        pv_app_message(a, true, pv_buf_cstr(&msg));
        pv_buf_free(&msg);
        return;
    }
    pv_app_job_start(a, j, PV_JOB_FILTER, expr[0] ? "Filtering" : "Clearing the filter");
}

/* Sorts the report by keys, in steps. */
void pv_app_sort_keys(pv_app *a, pv_report *r, const pv_sort_key *keys, size_t count)
{
    pv_query_error err;
    pv_report_job *j = pv_report_select_job(r, r->filter, keys, count, &err);
    if (!j) { /* the filter in force compiled before: cannot happen */
        pv_app_message(a, true, err.message);
        return;
    }
    pv_buf what;
    pv_buf_init(&what);
    pv_buf_puts(&what, "Sorting by ");
    for (size_t i = 0; i < count; i++)
        pv_buf_printf(&what, "%s%s%s", i ? "," : "", r->view->columns[keys[i].column].id,
                      keys[i].descending ? ":desc" : "");
    if (!count)
        pv_buf_puts(&what, "view order");
    pv_app_job_start(a, j, PV_JOB_SORT, pv_buf_cstr(&what));
    pv_buf_free(&what);
}

static void pv_app_sort_by(pv_app *a, pv_report *r, size_t col, bool toggle_same)
{
    pv_sort_key key = {col, (r->view->columns[col].flags & PV_COL_DESC) != 0};
    if (toggle_same && r->sort_count && r->sort[0].column == col) {
        /* the same column again: the other direction, without sorting again */
        pv_report_job *j = pv_report_reverse_job(r);
        if (j) {
            pv_app_job_start(a, j, PV_JOB_REVERSE, "Reversing the order");
            return;
        }
    }
    pv_app_sort_keys(a, r, &key, 1);
}

static void pv_app_scan_start(pv_app *a, const pv_scan *s);

void pv_app_goto(pv_app *a, const char *arg)
{
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    if (pv_lanes_goto(a, r, arg))
        return;
    char rel[48];
    int64_t n, d, here;
    size_t sel = pv_report_selected(r);
    if ((arg[0] == '+' || arg[0] == '-') && pv_parse_time(arg + 1, &d) &&
        !pv_parse_int64(arg + 1, strlen(arg + 1), &n)) {
        /* :goto +1.5ms / -200us: relative to the selected row's time */
        if (sel == PV_NO_ROW || !pv_view_row_time(r->view, sel, &here)) {
            pv_app_message(a, true, "a relative :goto needs a selected row with a time");
            return;
        }
        snprintf(rel, sizeof rel, "%" PRId64 "ns", arg[0] == '+' ? here + d : here - d);
        arg = rel;
    }
    bool row_number = arg[0] == '#';
    if (pv_parse_int64(arg + row_number, strlen(arg + row_number), &n)) {
        /* A view with an Index column (events): that index, as shown;
         * any other view, or #N: the row number, from 1 (docs/tui.md). */
        size_t icol = pv_view_column(r->view, "index");
        if (!row_number && icol != PV_NO_ROW && r->view->columns[icol].type == PV_TYPE_INT) {
            size_t row = n < 0 ? PV_NO_ROW : pv_view_find_value(r->view, icol, n);
            if (row == PV_NO_ROW)
                pv_app_messagef(a, true, "no row has index %" PRId64, n);
            else if (!pv_report_select_row(r, row))
                pv_app_messagef(a, true, "index %" PRId64 " is hidden by the filter", n);
            return;
        }
        if (n < 1) {
            pv_app_message(a, true, ":goto takes a row number from 1, or a time with a unit");
            return;
        }
        pv_report_move_to(r, (size_t)(n - 1));
        return;
    }
    int64_t t;
    bool has_time = pv_view_has_time(r->view);
    bool marker = (arg[0] == 'A' || arg[0] == 'B') && !arg[1];
    if (marker && !a->marker_set[arg[0] - 'A']) {
        pv_app_message(a, true, "that marker is not set (m sets A, M sets B)");
        return;
    }
    int which = arg[0] - 'A';
    if (marker && a->marker_view[which]) {
        /* a marker on a row: that row, in its view */
        if (a->marker_view[which] != r->view || !pv_report_select_row(r, a->marker_row[which]))
            pv_app_message(a, true, "that marker is on a row of another view");
        return;
    }
    if (marker)
        t = a->marker[arg[0] - 'A'];
    if ((!marker && !pv_parse_time(arg, &t)) || !has_time) {
        pv_app_message(a, true,
                       !has_time ? "this view has no time axis: :goto takes a row number"
                                 : ":goto takes a row number or a time (12ms, 4.5us)");
        return;
    }
    size_t count = pv_report_count(r);
    if (!r->sort_count && !r->vis && pv_view_time_ordered(r->view)) {
        /* Rows in time order (and a filter keeps the order): binary search. */
        size_t lo = 0, hi = count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int64_t x;
            if (pv_view_row_time(r->view, pv_report_row(r, mid), &x) && x < t)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < count)
            pv_report_move_to(r, lo);
        else
            pv_app_message(a, true, "no row at or after that time");
        return;
    }
    /* Not known to be in time order (sorted, corrupt times, still being
     * indexed...): look at every row, a slice per frame. */
    pv_app_scan_start(a, &(pv_scan){.kind = PV_SCAN_TIME, .r = r, .dir = 1, .time = t});
}

/* A scan over a report's rows as a job (jobs.h): a slice a frame, any key
 * stops it. */
typedef struct pv_scan_job {
    pv_job base;
    pv_scan s;
} pv_scan_job;

/* One slice of the scan: moves to the row found, or says how far it got
 * and leaves the rest to the next frame. */
static bool pv_scan_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    (void)b; /* a slice of PV_SCAN_SLICE_S, whatever the budget */
    pv_scan *s = &((pv_scan_job *)job)->s;
    pv_report *r = s->r;
    const pv_view *v = r->view;
    size_t n = pv_report_count(r);
    double until = pv_app_now() + PV_SCAN_SLICE_S;
    size_t looked = 0;
    bool found = false;
    while (s->dir > 0 ? s->next < n : s->next != PV_NO_ROW) {
        size_t k = s->next;
        size_t row = pv_report_row(r, k);
        s->next = s->dir > 0 ? k + 1 : k == 0 ? PV_NO_ROW : k - 1;
        if (s->kind == PV_SCAN_TIME) {
            int64_t t;
            found = pv_view_row_time(v, row, &t) && t >= s->time;
        } else {
            uint64_t area;
            found = pv_view_row_area(v, row, &area) && area == s->area;
        }
        if (found) {
            pv_report_move_to(r, k);
            break;
        }
        if (++looked % 1024 == 0 && pv_app_now() > until)
            break;
    }
    bool more = !found && (s->dir > 0 ? s->next < n : s->next != PV_NO_ROW);
    if (found) {
        pv_buf_clear(&a->message);
    } else if (!more) {
        pv_app_message(a, true,
                       s->kind == PV_SCAN_TIME ? "no row at or after that time"
                                               : "no other event of this area");
    } else {
        size_t done = s->dir > 0 ? s->next - s->first : s->first - s->next;
        size_t todo = s->dir > 0 ? n - s->first : s->first + 1;
        char text[128];
        snprintf(text, sizeof text, "Searching... %.0f%% of %zu rows (any key stops)",
                 100.0 * (double)done / (double)(todo ? todo : 1), todo);
        pv_app_message(a, false, text);
        return false;
    }
    return true;
}

static void pv_scan_job_stop(pv_app *a, pv_job *job, bool say)
{
    (void)job;
    if (say)
        pv_app_message(a, false, "search stopped");
}

/* The items (and the reports in them) may move: the scan stops. */
static bool pv_scan_job_moving(pv_app *a, pv_job *job)
{
    pv_scan_job_stop(a, job, true);
    return false;
}

static const pv_job_ops pv_scan_job_ops = {
    .keys = PV_JOB_KEYS_ANY,
    .step = pv_scan_job_step,
    .stop = pv_scan_job_stop,
    .items_moving = pv_scan_job_moving,
};

static void pv_app_scan_start(pv_app *a, const pv_scan *s)
{
    pv_scan_job *j = (pv_scan_job *)pv_job_new(sizeof *j, &pv_scan_job_ops, PV_JOB_SCAN);
    j->s = *s;
    pv_jobs_start_now(a, &j->base);
}

/* ---- keys */

static void pv_app_explorer_move(pv_app *a, long delta)
{
    if (!a->item_count)
        return;
    size_t c = a->ex_cursor;
    if (delta < 0)
        c = (size_t)-delta > c ? 0 : c - (size_t)-delta;
    else
        c = c + (size_t)delta >= a->item_count ? a->item_count - 1 : c + (size_t)delta;
    a->ex_cursor = c;
    pv_app_show_item(a, c);
}

static void pv_app_move(pv_app *a, long delta, bool absolute)
{
    if (a->focus == PV_PANE_EXPLORER) {
        if (absolute)
            a->ex_cursor = 0;
        pv_app_explorer_move(a, delta);
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    if (absolute)
        r->cursor = 0;
    pv_report_move(r, delta);
}

static bool pv_app_show_ref(pv_app *a, pv_report *from, const pv_row_ref *ref);

/* True when row `row` of `v` and row `prow` of `parent` agree on every
 * identity column (PV_COL_KEY, docs/diff.md; else the name column) of
 * `parent` that `v` also has (same id, text), and there is at least one. */
static bool pv_app_same_identity(const pv_view *parent, size_t prow, const pv_view *v,
                                 size_t row)
{
    size_t compared = 0;
    bool any_key = false;
    for (size_t c = 0; c < parent->column_count; c++)
        any_key = any_key || (parent->columns[c].flags & PV_COL_KEY);
    for (size_t pc = 0; pc < parent->column_count; pc++) {
        const pv_column *col = &parent->columns[pc];
        if (col->type != PV_TYPE_STRING ||
            !(any_key ? (col->flags & PV_COL_KEY) : (col->flags & PV_COL_NAME)))
            continue;
        size_t vc = pv_view_column(v, col->id);
        if (vc == PV_NO_ROW || v->columns[vc].type != PV_TYPE_STRING)
            continue;
        pv_cell x, y;
        pv_view_cell(v, row, vc, &x);
        pv_view_cell(parent, prow, pc, &y);
        if (!x.present || !y.present || x.v.s.len != y.v.s.len ||
            memcmp(x.v.s.ptr, y.v.s.ptr, x.v.s.len) != 0)
            return false;
        compared++;
    }
    return compared > 0;
}

/* Enter on a row of a drilled-down view that has nothing to open (a caller
 * or callee of a routine): the row of the view it was opened from with the
 * same identity (that routine), selected there (docs/tui.md). */
static bool pv_app_drill_to_parent_row(pv_app *a, pv_report *r, size_t row)
{
    pv_location to;
    pv_app_here(a, &to);
    to.depth--;
    const pv_report *parent = to.depth ? &a->drill[to.depth - 1] : &a->items[to.item].report;
    size_t n = pv_view_rows(parent->view), found = PV_NO_ROW;
    for (size_t p = 0; p < n && found == PV_NO_ROW; p++)
        if (pv_app_same_identity(parent->view, p, r->view, row))
            found = p;
    if (found != PV_NO_ROW) {
        to.row = found;
        pv_app_location_texts(&to, parent);
        pv_app_go(a, &to, true);
        pv_report *now = pv_app_report(a);
        if (now && pv_report_selected(now) != found)
            pv_app_message(a, false, "that row is hidden by the filter");
    }
    pv_location_free(&to);
    return found != PV_NO_ROW;
}

static void pv_app_open(pv_app *a)
{
    if (a->open_stopped == a->loc.item && !a->loc.depth) {
        a->open_stopped = PV_NO_ROW; /* opened again (pv_app_report) */
        return;
    }
    if (a->focus == PV_PANE_EXPLORER) {
        pv_app_show_item(a, a->ex_cursor);
        if (pv_app_report(a))
            a->focus = PV_PANE_REPORT;
        return;
    }
    if (a->focus == PV_PANE_DETAILS) {
        pv_report *owner = pv_app_report(a);
        if (a->range_show)
            return; /* the range statistics have nothing to drill into */
        if (a->det_open && owner)
            pv_app_drill(a, a->det_tab, pv_report_selected(owner), pv_report_selected(&a->det));
        return;
    }
    pv_report *r = pv_app_report(a);
    if (!r)
        return;
    size_t row = pv_report_selected(r);
    if (row == PV_NO_ROW)
        return;
    if (pv_report_has_kids(r, row)) {
        pv_report_tree(r, PV_TREE_TOGGLE);
        return;
    }
    pv_row_ref call;
    if (!a->loc.depth && pv_view_has_lanes(r->view) && pv_view_has_time(r->view) &&
        !pv_view_is_tree(r->view) && pv_view_related(r->view, row, PV_REL_CALL, &call) &&
        call.view != r->view) {
        /* an event of a timeline: its call in the call trace (docs/tui.md
         * "Jumps") */
        if (!pv_app_show_ref(a, r, &call))
            pv_app_message(a, true, "this result set has no call trace");
        return;
    }
    if (r->view->detail_count) {
        if (a->det_open)
            pv_app_drill(a, a->det_tab, row, PV_NO_ROW);
        else
            pv_app_message(a, false, "nothing to open for this row");
        return;
    }
    if (a->loc.depth && !pv_app_drill_to_parent_row(a, r, row))
        pv_app_message(a, false, "nothing to open for this row");
}

/* The time of the selected row (pv_view_hooks.row_time: an event's time, a
 * call's entry).  False when the row has none. */
static bool pv_app_row_time(pv_app *a, int64_t *t)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    return row != PV_NO_ROW && pv_view_row_time(r->view, row, t);
}

/* m / M: markers A and B; the status bar shows them and B - A. */
static void pv_app_set_marker(pv_app *a, int which)
{
    int64_t t;
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (pv_app_row_time(a, &t)) {
        a->marker[which] = t;
        a->marker_view[which] = NULL;
    } else if (row != PV_NO_ROW && pv_view_has_range_statistics(r->view) && !a->loc.depth &&
               r == pv_app_report(a)) {
        /* no clock, but statistics of a span of rows (docs/tui.md); only in
         * an Explorer item's own report, which lives as long as the viewer */
        a->marker[which] = 0;
        a->marker_view[which] = r->view;
        a->marker_row[which] = row;
    } else {
        pv_app_message(a, true, "markers need an event or a call (a row with a time)");
        return;
    }
    a->marker_set[which] = true;
    if (a->range_show)
        pv_app_range_request(a); /* the statistics follow the markers */
}

/* Shows row `ref->row` of `ref->view`, a view of the Report's file: the
 * Report itself (or its Details), or the Explorer item showing that view.
 * False when no item shows it. */
static bool pv_app_show_ref(pv_app *a, pv_report *from, const pv_row_ref *ref)
{
    if (ref->view == from->view) {
        return pv_report_select_row(from, ref->row);
    }
    if (a->loc.item >= a->item_count)
        return false;
    const pv_item *here = &a->items[a->loc.item];
    for (size_t i = 0; i < a->item_count; i++) {
        const pv_item *it = &a->items[i];
        if (it->kind != PV_ITEM_VIEW || it->file != here->file || pv_item_view(a, it) != ref->view)
            continue;
        pv_location to;
        memset(&to, 0, sizeof to);
        to.item = i;
        to.row = PV_NO_ROW;
        pv_app_go(a, &to, true);
        a->focus = PV_PANE_REPORT;
        pv_report *r = pv_app_report(a);
        /* the Report may show the view grouped by thread (group.c) */
        size_t row = r ? pv_group_row_of(r->view, ref->view, ref->row) : PV_NO_ROW;
        if (row != PV_NO_ROW)
            pv_report_select_row(r, row);
        return true;
    }
    return false;
}

/* t (docs/tui.md): where the selected row is on the result set's timeline
 * (pv_view_hooks.related, PV_REL_TIMELINE): an event itself, a call its
 * own entry event, an area its first event. */
static void pv_app_open_timeline(pv_app *a)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW || a->loc.item >= a->item_count)
        return;
    pv_row_ref ref;
    if (!pv_view_related(r->view, row, PV_REL_TIMELINE, &ref)) {
        pv_app_message(a, true, "this row has no event or time to show in the timeline");
        return;
    }
    const pv_view *from = r->view;
    uint64_t area;
    bool has_area = pv_view_row_area(from, row, &area);
    if (!pv_app_show_ref(a, r, &ref)) {
        pv_app_message(a, true, "this result set has no timeline");
        return;
    }
    /* from a routine, call, statistics or data row: its area pinned as a
     * lane (docs/tui.md "Lane strip") */
    if (has_area && ref.view != from)
        pv_lanes_pin_area(a, ref.view, area, false);
}

/* J / K (docs/tui.md, timeline stepping), over any view whose rows have
 * an area (pv_view_hooks.row_area): the next row (dir) of the same area,
 * looked for a slice per frame. */
static void pv_app_step_event(pv_app *a, int dir)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW)
        return;
    uint64_t area;
    if (!pv_view_row_area(r->view, row, &area)) {
        pv_app_message(a, true, "this row has no area (routine, variable) to step through");
        return;
    }
    pv_app_scan_start(a, &(pv_scan){.kind = PV_SCAN_AREA,
                                    .r = r,
                                    .dir = dir,
                                    .first = r->cursor,
                                    .next = dir > 0        ? r->cursor + 1
                                            : r->cursor == 0 ? PV_NO_ROW
                                                             : r->cursor - 1,
                                    .area = area});
}

/* % (docs/tui.md): the other end of the selected row's call (an entry's
 * exit and back, PV_REL_PARTNER), or for a call without events its caller
 * (PV_REL_CALLER). */
static void pv_app_match_call(pv_app *a)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW)
        return;
    pv_row_ref ref;
    bool found = pv_view_related(r->view, row, PV_REL_PARTNER, &ref) ||
                 (pv_view_related(r->view, row, PV_REL_CALLER, &ref) && ref.view == r->view);
    if (!found || !pv_app_show_ref(a, r, &ref))
        pv_app_message(a, true, "no matching entry, exit or caller in this view");
}

static void pv_app_history_step(pv_app *a, bool back)
{
    if (!a->history_started)
        return;
    pv_location here, to;
    memset(&to, 0, sizeof to);
    pv_app_here(a, &here);
    size_t pos = a->history.pos;
    bool ok = back ? pv_history_back(&a->history, &here, &to)
                   : pv_history_forward(&a->history, &here, &to);
    if (ok) {
        pv_app_apply(a, &to);
        if (pv_jobs_get(a, PV_JOB_HISTORY) || pv_jobs_get(a, PV_JOB_OPEN))
            pv_app_job_undo_to(a, &here, pos); /* it runs in steps: a stop comes back here */
    } else
        pv_app_message(a, false,
                       back ? "at the start of the history" : "at the end of the history");
    pv_location_free(&here);
    pv_location_free(&to);
}

static void pv_app_overlay_key(pv_app *a, int key)
{
    if (a->overlay == PV_OVERLAY_EXPORT) {
        pv_app_export_key(a, key);
        return;
    }
    pv_action act = pv_keymap_lookup(&a->cfg.keys, key);
    if (a->overlay == PV_OVERLAY_HELP) {
        if (act == PV_ACT_DOWN)
            a->ov_top++;
        else if (act == PV_ACT_UP && a->ov_top)
            a->ov_top--;
        else if (act == PV_ACT_PAGE_DOWN)
            a->ov_top += (size_t)a->page_rows[PV_PANE_REPORT];
        else if (act == PV_ACT_PAGE_UP)
            a->ov_top = a->ov_top > (size_t)a->page_rows[PV_PANE_REPORT]
                            ? a->ov_top - (size_t)a->page_rows[PV_PANE_REPORT]
                            : 0;
        else if (act == PV_ACT_FIRST)
            a->ov_top = 0;
        else if (act == PV_ACT_LAST)
            a->ov_top = SIZE_MAX / 2; /* the drawing clamps it to the last page */
        else if (act == PV_ACT_QUIT || act == PV_ACT_HELP || key == PV_KEY_ESC ||
                 key == PV_KEY_ENTER)
            a->overlay = PV_OVERLAY_NONE;
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r) {
        a->overlay = PV_OVERLAY_NONE;
        return;
    }
    size_t n = r->view->column_count;
    if (act == PV_ACT_DOWN && a->ov_cursor + 1 < n) {
        a->ov_cursor++;
    } else if (act == PV_ACT_UP && a->ov_cursor > 0) {
        a->ov_cursor--;
    } else if (act == PV_ACT_FIRST) {
        a->ov_cursor = 0;
    } else if (act == PV_ACT_LAST) {
        a->ov_cursor = n ? n - 1 : 0;
    } else if (a->overlay == PV_OVERLAY_COLUMNS && (key == ' ' || act == PV_ACT_TOGGLE)) {
        size_t shown[PV_MAX_SHOWN];
        bool last = !r->hidden[a->ov_cursor] && pv_report_shown(r, shown, PV_MAX_SHOWN) == 1;
        if (!last)
            r->hidden[a->ov_cursor] = !r->hidden[a->ov_cursor];
    } else if (a->overlay == PV_OVERLAY_SORT && key == PV_KEY_ENTER) {
        a->overlay = PV_OVERLAY_NONE;
        pv_app_sort_by(a, r, a->ov_cursor, true);
    } else if (key == PV_KEY_ENTER || key == PV_KEY_ESC || act == PV_ACT_QUIT ||
               (a->overlay == PV_OVERLAY_COLUMNS && act == PV_ACT_COLUMNS)) {
        a->overlay = PV_OVERLAY_NONE;
    }
}

/* ---- keys: one function per family of actions (actions.def) */

/* q: up from a drilled-down view (to its parent, with the parent's filter
 * and sort), otherwise quit. */
static void pv_key_quit(pv_app *a, pv_action act)
{
    (void)act;
    if (a->loc.depth == 0) {
        a->quit = true;
        return;
    }
    pv_location to;
    pv_app_here(a, &to);
    to.depth--;
    to.row = to.chain[to.depth].row;
    pv_report *parent = to.depth ? &a->drill[to.depth - 1] : &a->items[to.item].report;
    pv_app_location_texts(&to, parent);
    pv_app_go(a, &to, true);
    pv_location_free(&to);
}

static void pv_key_pane(pv_app *a, pv_action act)
{
    a->focus = (a->focus + (act == PV_ACT_NEXT_PANE ? 1 : PV_PANE_COUNT - 1)) % PV_PANE_COUNT;
}

static void pv_key_move(pv_app *a, pv_action act)
{
    long page = a->page_rows[a->focus] > 1 ? a->page_rows[a->focus] - 1 : 1;
    switch (act) {
    case PV_ACT_UP:
        pv_app_move(a, -1, false);
        break;
    case PV_ACT_DOWN:
        pv_app_move(a, 1, false);
        break;
    case PV_ACT_PAGE_UP:
        pv_app_move(a, -page, false);
        break;
    case PV_ACT_PAGE_DOWN:
        pv_app_move(a, page, false);
        break;
    case PV_ACT_FIRST:
        pv_app_move(a, 0, true);
        break;
    default: /* PV_ACT_LAST */
        pv_app_move(a, (long)(SIZE_MAX / 4), false);
        break;
    }
}

/* Left: Details, the previous tab; Report, scroll left; Explorer, to the
 * result set or file the item belongs to. */
static void pv_key_left(pv_app *a, pv_action act)
{
    (void)act;
    pv_report *r = pv_app_focused_report(a);
    if (a->focus == PV_PANE_DETAILS) {
        if (a->det_tab > 0)
            a->det_tab--;
    } else if (a->focus == PV_PANE_REPORT) {
        if (r && r->hscroll > 0)
            r->hscroll--;
    } else if (a->ex_cursor < a->item_count) {
        int kind = a->items[a->ex_cursor].kind;
        size_t i = a->ex_cursor;
        while (i > 0 && a->items[i].kind >= kind)
            i--;
        a->ex_cursor = a->items[i].kind < kind ? i : a->ex_cursor;
    }
}

/* Right: Explorer, open; Details, the next tab; Report, scroll right. */
static void pv_key_right(pv_app *a, pv_action act)
{
    (void)act;
    pv_report *r = pv_app_focused_report(a);
    if (a->focus == PV_PANE_EXPLORER) {
        pv_app_open(a);
    } else if (a->focus == PV_PANE_DETAILS) {
        pv_report *owner = pv_app_report(a);
        if (owner && a->det_tab + 1 < owner->view->detail_count)
            a->det_tab++;
    } else if (r) {
        size_t shown[PV_MAX_SHOWN];
        if (r->hscroll + 1 < pv_report_shown(r, shown, PV_MAX_SHOWN))
            r->hscroll++;
    }
}

static void pv_key_open(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_open(a);
}

static void pv_key_tree(pv_app *a, pv_action act)
{
    if (pv_lanes_key(a, act)) /* + and - zoom the lanes of a timeline */
        return;
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    pv_tree_op op = act == PV_ACT_TOGGLE     ? PV_TREE_TOGGLE
                    : act == PV_ACT_EXPAND   ? PV_TREE_EXPAND
                    : act == PV_ACT_COLLAPSE ? PV_TREE_COLLAPSE
                                             : PV_TREE_EXPAND_ALL;
    pv_report_job *j = op == PV_TREE_EXPAND_ALL ? pv_report_expand_all_job(r) : NULL;
    if (j) { /* millions of calls below a node: in steps (docs/tui.md) */
        pv_app_job_start(a, j, PV_JOB_EXPAND, "Expanding everything below");
        return;
    }
    pv_report_tree(r, op);
}

static void pv_key_history(pv_app *a, pv_action act)
{
    pv_app_history_step(a, act == PV_ACT_BACK);
}

/* J/K and % read the names, contexts and depths of the rows around: while
 * the focused report's file is indexed, the rows not indexed yet have none,
 * and indexing them now would block.  Says so and returns true then.
 * (Search, filter and sort are queued instead: pv_app_job_start.) */
static bool pv_app_refused_while_indexing(pv_app *a)
{
    if (!pv_app_focused_report(a) || !pv_app_report_indexing(a))
        return false;
    char progress[128];
    pv_app_index_text(a, progress, sizeof progress);
    pv_app_messagef(a, true, "%s: J/K and %% work once it is done", progress);
    return true;
}

/* Keys that type into the Report move the focus there from the Explorer. */
static pv_report *pv_app_focus_report_pane(pv_app *a)
{
    if (a->focus == PV_PANE_EXPLORER)
        a->focus = PV_PANE_REPORT;
    return pv_app_focused_report(a);
}

static void pv_key_search(pv_app *a, pv_action act)
{
    if (act == PV_ACT_SEARCH) {
        pv_report *r = pv_app_focus_report_pane(a);
        a->search_origin = r ? r->cursor : 0;
        a->search_origin_row = r && pv_report_count(r) ? pv_report_selected(r) : PV_NO_ROW;
        pv_app_prompt_open(a, PV_PROMPT_SEARCH, "");
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r || !a->search.len)
        return;
    int dir = act == PV_ACT_SEARCH_NEXT ? 1 : -1;
    size_t n = pv_report_count(r);
    size_t from = dir > 0 ? (r->cursor + 1 < n ? r->cursor + 1 : 0)
                          : (r->cursor > 0 ? r->cursor - 1 : (n ? n - 1 : 0));
    pv_app_search_from(a, r, from, dir);
}

static void pv_key_filter(pv_app *a, pv_action act)
{
    (void)act;
    pv_report *r = pv_app_focus_report_pane(a);
    pv_app_prompt_open(a, PV_PROMPT_FILTER, r ? r->filter : "");
}

/* The column chooser (c) or the sort chooser (S) over the focused report;
 * the sort chooser starts on the column sorted by. */
static void pv_app_open_chooser(pv_app *a, int overlay)
{
    pv_report *r = pv_app_focus_report_pane(a);
    if (!r)
        return;
    a->overlay = overlay;
    a->ov_cursor = a->ov_top = 0;
    if (overlay == PV_OVERLAY_SORT && r->sort_count)
        a->ov_cursor = r->sort[0].column;
}

/* s: the next shown column; S: choose; r: reverse. */
static void pv_key_sort(pv_app *a, pv_action act)
{
    if (act == PV_ACT_SORT_CHOOSE) {
        pv_app_open_chooser(a, PV_OVERLAY_SORT);
        return;
    }
    pv_report *r = pv_app_focused_report(a);
    if (!r)
        return;
    if (act == PV_ACT_SORT_REVERSE) {
        /* the order reversed, not sorted again (docs/tui.md) */
        pv_report_job *j = pv_report_reverse_job(r);
        if (j)
            pv_app_job_start(a, j, PV_JOB_REVERSE, "Reversing the order");
        else
            pv_app_message(a, false, "not sorted: s or S sorts");
        return;
    }
    size_t shown[PV_MAX_SHOWN];
    size_t n = pv_report_shown(r, shown, PV_MAX_SHOWN);
    size_t next = 0;
    if (r->sort_count)
        for (size_t i = 0; i < n; i++)
            if (shown[i] == r->sort[0].column)
                next = (i + 1) % n;
    if (n)
        pv_app_sort_by(a, r, shown[next], false);
}

static void pv_key_columns(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_open_chooser(a, PV_OVERLAY_COLUMNS);
}

static void pv_key_timeline(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_open_timeline(a);
}

/* J / K: the next / previous event of the same area; %: a call's other end. */
static void pv_key_step(pv_app *a, pv_action act)
{
    if (act == PV_ACT_MATCH_CALL)
        pv_app_match_call(a);
    else
        pv_app_step_event(a, act == PV_ACT_NEXT_SAME ? 1 : -1);
}

static void pv_key_marker(pv_app *a, pv_action act)
{
    pv_app_set_marker(a, act == PV_ACT_MARK_A ? 0 : 1);
}

/* F, I, W: the flame graph, the icicle, the sandwich (docs/flame.md). */
static void pv_key_flame(pv_app *a, pv_action act)
{
    pv_flame_ui_open(a, act == PV_ACT_FLAME    ? PV_FLAME_FLAME
                        : act == PV_ACT_ICICLE ? PV_FLAME_ICICLE
                                               : PV_FLAME_SANDWICH);
}

/* y, Y: the selected cell or row to the clipboard. */
static void pv_key_copy(pv_app *a, pv_action act)
{
    pv_app_copy_selection(a, act == PV_ACT_COPY_ROW);
}

static void pv_key_export(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_export_open(a);
}

static void pv_key_command(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_prompt_open(a, PV_PROMPT_COMMAND, "");
}

/* z zooms; < and > resize the Explorer, or the Details when focused. */
static void pv_key_layout(pv_app *a, pv_action act)
{
    if (act == PV_ACT_ZOOM) {
        a->zoom = !a->zoom;
        return;
    }
    int d = act == PV_ACT_GROW ? 1 : -1;
    if (a->focus == PV_PANE_DETAILS)
        a->det_height_adj += 2 * d;
    else
        a->ex_width_adj += 4 * d;
}

static void pv_key_help(pv_app *a, pv_action act)
{
    (void)act;
    a->overlay = PV_OVERLAY_HELP;
    a->ov_top = 0;
}

/* Ctrl-L: the terminal layer redraws; nothing changes here. */
/* The lane strip's keys (src/tui/lanes.c, docs/tui.md "Lane strip"). */
static void pv_key_lanes(pv_app *a, pv_action act)
{
    pv_lanes_key(a, act);
}

static void pv_key_none(pv_app *a, pv_action act)
{
    (void)a;
    (void)act;
}

/* Every action's family function, from actions.def. */
static void (*const pv_key_handlers[PV_ACT_COUNT])(pv_app *a, pv_action act) = {
#define PV_ACTION(e, name, keys, help, family) [PV_ACT_##e] = pv_key_##family,
#include "tui/actions.def"
#undef PV_ACTION
};

/* The families whose actions read the rows around the cursor: they wait
 * for the index (pv_app_refused_while_indexing). */
static bool pv_action_reads_every_row(pv_action act)
{
    void (*h)(pv_app *, pv_action) = pv_key_handlers[act];
    return h == pv_key_step;
}

/* An action: refused while the rows it reads are indexed, then the graphs
 * (docs/flame.md) and the diff take the keys they use, then the action's
 * family function. */
static void pv_app_action(pv_app *a, pv_action act)
{
    bool valid = act > PV_ACT_NONE && act < PV_ACT_COUNT;
    if (valid && pv_action_reads_every_row(act) && pv_app_refused_while_indexing(a))
        return;
    if (pv_flame_ui_key(a, act))
        return;
    if (a->diff_on && a->focus != PV_PANE_EXPLORER && (act == PV_ACT_QUIT || act == PV_ACT_BACK)) {
        pv_app_diff_close(a); /* back to the view it was made of */
        return;
    }
    if (valid)
        pv_key_handlers[act](a, act);
}

/* A key while a scan runs stops it; true when that is all the key does
 * (Esc, Ctrl-C). */
static bool pv_app_key_stops_scan(pv_app *a, int key)
{
    if (a->quit_armed && key != PV_KEY_CTRL('c')) {
        a->quit_armed = false;
        pv_buf_clear(&a->message);
    }
    return pv_jobs_key(a, key, false);
}

/* Ctrl-C stops what runs, innermost first: loading, the range statistics
 * being computed, indexing (the timeline keeps what is indexed; the views
 * that need the whole index stay empty); with nothing running it quits. */
static void pv_app_interrupt(pv_app *a)
{
    if (pv_app_cancel(a))
        return;
    if (a->range_show && !a->range_open && !a->range_failed) {
        pv_app_range_hide(a);
        pv_app_message(a, false, "statistics stopped");
    } else if (pv_lanes_build_stop(a)) {
        pv_app_message(a, false, "stopped building the pinned lane (unpinned)");
    } else if (pv_app_indexing(a)) {
        a->index_stopped = true;
        a->quit_armed = true;
        for (size_t i = 0; i < a->file_count; i++)
            pv_file_index_pause(a->files[i], true); /* a format's own threads too */
        pv_app_message(a, false, "indexing stopped (:index resumes; Ctrl-C again quits)");
    } else if (!a->quit_armed && pv_app_big_index(a)) {
        /* a long index is lost by quitting: ask (q quits at once) */
        a->quit_armed = true;
        pv_app_message(a, false, "Ctrl-C again quits (the index goes with it); q quits too");
    } else {
        a->quit = true;
    }
}

/* A key goes to the first that takes it: a running scan, the prompt, an
 * overlay, Ctrl-C and Esc, then the action bound to it (actions.def). */
void pv_app_key(pv_app *a, int key)
{
    /* Ctrl-L only redraws: the terminal layer takes it before it comes
     * here, and scripted keys pass time with it (it changes nothing). */
    if (key == PV_KEY_RESIZE || key == 0 || key == PV_KEY_CTRL('l') ||
        pv_app_key_stops_scan(a, key))
        return;
    /* Esc and Ctrl-C stop a graph being built (and do nothing else: the
     * screen stays, Ctrl-C does not quit); other keys act as always */
    if (!a->prompt && !a->overlay && (key == PV_KEY_ESC || key == PV_KEY_CTRL('c')) &&
        pv_flame_ui_stop(a))
        return;
    if (a->prompt) {
        pv_app_prompt_key(a, key);
        return;
    }
    if (strchr(pv_buf_cstr(&a->message), '\n'))
        pv_buf_clear(&a->message); /* a caret message goes with the next key */
    if (a->overlay) {
        pv_app_overlay_key(a, key);
    } else if (key == PV_KEY_CTRL('c')) {
        pv_app_interrupt(a);
    } else if (key == PV_KEY_ESC) {
        pv_buf_clear(&a->message);
        pv_buf_clear(&a->search);
    } else {
        /* A message answers the key before: the next action clears it
         * (docs/tui.md); work in progress keeps its own. */
        if (!a->jobs.job && !a->exp_running)
            pv_buf_clear(&a->message);
        pv_app_action(a, pv_keymap_lookup(&a->cfg.keys, key));
    }
}

static bool pv_in(pv_rect r, int y, int x)
{
    return r.w > 0 && y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

void pv_app_mouse(pv_app *a, int y, int x, int button)
{
    pv_jobs_key(a, 0, true);
    if (a->prompt || a->overlay || pv_lanes_mouse(a, y, x, button) ||
        pv_flame_ui_mouse(a, y, x, button))
        return;
    for (int p = 0; p < PV_PANE_COUNT; p++) {
        pv_rect rc = a->rect[p];
        if (!pv_in(rc, y, x))
            continue;
        a->focus = p;
        pv_report *r = pv_app_focused_report(a);
        if (button == 4 || button == 5) {
            long d = button == 4 ? -3 : 3;
            if (p == PV_PANE_EXPLORER)
                pv_app_explorer_move(a, d);
            else if (r)
                pv_report_move(r, d);
            return;
        }
        if (p == PV_PANE_EXPLORER) {
            if (y > rc.y && a->ex_top + (size_t)(y - rc.y - 1) < a->item_count) {
                a->ex_cursor = a->ex_top + (size_t)(y - rc.y - 1);
                pv_app_show_item(a, a->ex_cursor);
            }
            return;
        }
        if (p == PV_PANE_DETAILS && y == a->tabs_y) {
            for (size_t t = 0; t < a->tab_count; t++)
                if (x >= a->tabs[t].x && x < a->tabs[t].x + a->tabs[t].w)
                    a->det_tab = t;
            return;
        }
        if (p == PV_PANE_REPORT && y == a->header_y && r) {
            for (size_t h = 0; h < a->header_count; h++)
                if (x >= a->header[h].x && x <= a->header[h].x + a->header[h].w)
                    pv_app_sort_by(a, r, a->header[h].col, true);
            return;
        }
        /* Rows start two lines below the pane top (title, header) and
         * take page_rows lines (the lane strip may follow them). */
        if (r && y >= rc.y + 2 && y - rc.y - 2 < a->page_rows[p]) {
            size_t k = r->top + (size_t)(y - rc.y - 2);
            if (k < pv_report_count(r))
                pv_report_move_to(r, k);
        }
        return;
    }
}
