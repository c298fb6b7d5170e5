/* app_commands.c - the : commands: one handler per line of commands.def,
 * and the table that completion, the ? screen, `profview --help` and
 * dispatch read (docs/tui.md "Commands"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/panel.h"
#include "tui/commands.h"

static void pv_cmd_filter(pv_app *a, const char *arg)
{
    pv_app_apply_filter(a, arg);
}

static void pv_cmd_sort(pv_app *a, const char *arg)
{
    pv_report *r = pv_app_focused_report(a);
    pv_query_error err;
    memset(&err, 0, sizeof err);
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t count = 0;
    if (!r)
        return;
    if (arg[0] && !pv_sort_parse(r->view, arg, keys, &count, &err))
        pv_app_message(a, true, err.message);
    else
        pv_app_sort_keys(a, r, keys, count); /* in steps (docs/tui.md) */
}

static void pv_cmd_goto(pv_app *a, const char *arg)
{
    pv_app_goto(a, arg);
}

/* The markers' range as an ordinary filter (inclusive, like --from and
 * --to), so it shows in the status bar and clears like one: on the
 * column that holds the time of a row (pv_view_row_time: an event's
 * `time`, a call's `entry_time`; a call's `time` is how long it took). */
static void pv_cmd_range(pv_app *a, const char *arg)
{
    (void)arg;
    if (!a->mark.set[0] || !a->mark.set[1]) {
        pv_app_message(a, true, ":range needs both markers (m sets A, M sets B)");
        return;
    }
    if (a->mark.view[0] || a->mark.view[1]) {
        pv_app_message(a, true, ":range needs markers at times (these are on rows)");
        return;
    }
    pv_report *r = pv_app_report(a);
    const char *column = NULL;
    if (r && pv_view_has_time(r->view))
        column = pv_view_column(r->view, "entry_time") != PV_NO_ROW ? "entry_time"
                 : pv_view_column(r->view, "time") != PV_NO_ROW    ? "time"
                                                                   : NULL;
    if (!column) {
        pv_app_message(a, true, ":range needs a view whose rows have times (a timeline, a call trace)");
        return;
    }
    int64_t lo = a->mark.at[0] < a->mark.at[1] ? a->mark.at[0] : a->mark.at[1];
    int64_t hi = a->mark.at[0] < a->mark.at[1] ? a->mark.at[1] : a->mark.at[0];
    char expr[160];
    snprintf(expr, sizeof expr, "%s >= %" PRId64 " && %s <= %" PRId64, column, lo, column, hi);
    pv_app_apply_filter(a, expr);
}

static void pv_cmd_stats(pv_app *a, const char *arg)
{
    if (strcmp(arg, "off") == 0)
        pv_app_range_hide(a);
    else
        pv_app_range_request(a);
}

/* Ctrl-C stopped the indexing: go on where it stopped (the index keeps what
 * it has; docs/tui.md "Loading and indexing"). */
static void pv_cmd_index(pv_app *a, const char *arg)
{
    (void)arg;
    if (!a->index.stopped) {
        pv_app_message(a, false, pv_app_indexing(a) ? "indexing is running (Ctrl-C stops it)"
                                                    : "nothing to index: every file is indexed");
        return;
    }
    a->index.stopped = false;
    a->index.start = 0; /* the rate and ETA start again */
    for (size_t i = 0; i < a->file_count; i++)
        pv_file_index_pause(a->files[i], false);
    pv_app_message(a, false, pv_app_indexing(a) ? "indexing resumed"
                                                : "nothing to index: every file is indexed");
}

static void pv_cmd_columns(pv_app *a, const char *arg)
{
    pv_report *r = pv_app_focused_report(a);
    pv_buf bad;
    pv_buf_init(&bad);
    if (r && !pv_report_set_columns(r, arg, &bad)) {
        pv_buf text;
        pv_buf_init(&text);
        pv_buf_printf(&text, "no column '%s' in view '%s'", pv_buf_cstr(&bad), r->view->id);
        pv_app_message(a, true, pv_buf_cstr(&text));
        pv_buf_free(&text);
    }
    pv_buf_free(&bad);
}

static void pv_cmd_export(pv_app *a, const char *arg)
{
    pv_app_export_command(a, arg);
}

static void pv_cmd_theme(pv_app *a, const char *name)
{
    pv_buf err;
    pv_buf_init(&err);
    pv_theme t;
    if (pv_theme_load(&t, name, &err)) {
        a->theme = t;
        a->theme_changed = true;
        pv_buf text;
        pv_buf_init(&text);
        pv_buf_printf(&text, "theme %s", t.name[0] ? t.name : name);
        pv_app_message(a, false, pv_buf_cstr(&text));
        pv_buf_free(&text);
    } else {
        pv_app_message(a, true, pv_buf_cstr(&err));
    }
    pv_buf_free(&err);
}

static void pv_cmd_set(pv_app *a, const char *arg)
{
    if (strncmp(arg, "unit=", 5) == 0 && pv_time_unit_parse(arg + 5, &a->unit)) {
        for (size_t i = 0; i < a->item_count; i++)
            if (a->items[i].opened)
                memset(a->items[i].report.widths, 0,
                       a->items[i].report.view->column_count * sizeof(int));
    } else if (strcmp(arg, "ascii=on") == 0 || strcmp(arg, "ascii=off") == 0) {
        a->ascii = strcmp(arg, "ascii=on") == 0 || !a->utf8;
    } else {
        pv_app_message(a, true, ":set unit=auto|ns|us|ms|s or :set ascii=on|off");
    }
}

static void pv_cmd_open(pv_app *a, const char *arg)
{
    if (!arg[0])
        pv_app_message(a, true, ":open FILE");
    else
        pv_app_enqueue(a, arg);
}

/* :flame, :icicle, :sandwich: the graph (docs/flame.md), unless shown. */
static void pv_app_flame_mode(pv_app *a, int mode)
{
    if (a->flame.mode != mode)
        pv_flame_ui_open(a, mode);
}

static void pv_cmd_flame(pv_app *a, const char *arg)
{
    (void)arg;
    pv_app_flame_mode(a, PV_FLAME_FLAME);
}

static void pv_cmd_icicle(pv_app *a, const char *arg)
{
    (void)arg;
    pv_app_flame_mode(a, PV_FLAME_ICICLE);
}

static void pv_cmd_sandwich(pv_app *a, const char *arg)
{
    (void)arg;
    pv_app_flame_mode(a, PV_FLAME_SANDWICH);
}

static void pv_cmd_diff(pv_app *a, const char *arg)
{
    pv_app_diff_command(a, arg);
}

static void pv_cmd_sql(pv_app *a, const char *arg)
{
    pv_app_sql_start(a, arg);
}

static void pv_cmd_copy(pv_app *a, const char *arg)
{
    pv_app_copy_command(a, arg);
}

static void pv_cmd_reload(pv_app *a, const char *arg)
{
    pv_app_reload_command(a, arg);
}

static void pv_cmd_session(pv_app *a, const char *arg)
{
    pv_app_session_command(a, arg);
}

static void pv_cmd_bookmark(pv_app *a, const char *arg)
{
    pv_app_bookmark_add(a, arg);
}

static void pv_cmd_help(pv_app *a, const char *arg)
{
    (void)arg;
    a->ov.kind = PV_OVERLAY_HELP;
    a->ov.top = 0;
}

static void pv_cmd_messages(pv_app *a, const char *arg)
{
    (void)arg;
    pv_app_messages_open(a);
}

static void pv_cmd_quit(pv_app *a, const char *arg)
{
    (void)arg;
    a->quit = true;
}

const pv_command pv_commands[] = {
#define PV_COMMAND(name, aliases, args, complete, help)                                            \
    {#name, aliases, args, complete, help, pv_cmd_##name},
#include "tui/commands.def"
#undef PV_COMMAND
};
const size_t pv_command_count = PV_ARRAY_LEN(pv_commands);

/* Is word[0..len) one of the space-separated words of list? */
static bool pv_word_in(const char *list, const char *word, size_t len)
{
    while (*list) {
        size_t n = strcspn(list, " ");
        if (n == len && strncmp(list, word, len) == 0)
            return true;
        list += n;
        list += strspn(list, " ");
    }
    return false;
}

const pv_command *pv_command_find(const char *word, size_t len)
{
    for (size_t i = 0; i < pv_command_count; i++) {
        const pv_command *c = &pv_commands[i];
        if ((strlen(c->name) == len && strncmp(c->name, word, len) == 0) ||
            pv_word_in(c->aliases, word, len))
            return c;
    }
    return NULL;
}

void pv_command_usage(const pv_command *c, char *out, size_t size)
{
    snprintf(out, size, "%s%s%s", c->name, c->args[0] ? " " : "", c->args);
}

void pv_commands_print(FILE *fp)
{
    fprintf(fp, "\nCommands in the viewer (: opens the prompt, Tab completes):\n");
    for (size_t i = 0; i < pv_command_count; i++) {
        const pv_command *c = &pv_commands[i];
        char usage[96];
        pv_command_usage(c, usage, sizeof usage);
        fprintf(fp, "  :%-30s %s", usage, c->help);
        if (c->aliases[0])
            fprintf(fp, " (also :%s)", c->aliases);
        fputc('\n', fp);
    }
}

void pv_app_run_command(pv_app *a, const char *cmd)
{
    cmd += strspn(cmd, " ");
    size_t wl = strcspn(cmd, " ");
    if (!wl)
        return;
    const char *arg = cmd + wl;
    arg += strspn(arg, " ");
    const pv_command *c = pv_command_find(cmd, wl);
    if (c) {
        c->run(a, arg);
        return;
    }
    pv_buf text;
    pv_buf_init(&text);
    pv_buf_printf(&text, "unknown command '%.*s' (try :help)", (int)wl, cmd);
    pv_app_message(a, true, pv_buf_cstr(&text));
    pv_buf_free(&text);
}
