/* app_input.c - the routing of a key (a job, the prompt, an overlay,
 * Ctrl-C, then the action: the panels first, screen.c) and the actions
 * that belong to no panel (quit, the focus, the history, the layout,
 * help, the prompt, export), one function per family (actions.def).  The
 * panes' keys are their panels' (explorer.c, report_keys.c, details.c),
 * the prompt's prompt.c, :goto goto.c, the commands app_commands.c. */
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

/* ---- keys */

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

/* ---- keys: one function per family of actions (actions.def) */

/* q: up from a drilled-down view (to its parent, with the parent's filter
 * and sort), back from an :sql result to where its query was run,
 * otherwise quit (asking first when that loses something:
 * pv_app_quit_request). The diff and the graphs take q themselves. */
static void pv_key_quit(pv_app *a, pv_action act)
{
    (void)act;
    if (a->loc.depth == 0) {
        const pv_item *it = a->loc.item < a->item_count ? &a->items[a->loc.item] : NULL;
        if (it && it->kind == PV_ITEM_VIEW && it->file == a->sql.file &&
            it->view < a->sql.from_count && a->sql.from[it->view].item < a->item_count) {
            pv_location to = {0};
            pv_location_copy(&to, &a->sql.from[it->view]);
            pv_app_go(a, &to, true);
            pv_location_free(&to);
            return;
        }
        pv_app_quit_request(a);
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

static void pv_key_export(pv_app *a, pv_action act)
{
    (void)act;
    pv_app_export_open(a);
}

/* b: a bookmark with a note (typed as `:bookmark NOTE`); ' and `: step
 * through them (docs/tui.md "Bookmarks"). */
static void pv_key_bookmark(pv_app *a, pv_action act)
{
    if (act == PV_ACT_BOOKMARK)
        pv_app_prompt_open(a, PV_PROMPT_COMMAND, "bookmark ");
    else
        pv_app_bookmark_step(a, act == PV_ACT_BOOKMARK_NEXT ? 1 : -1);
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
        a->det.height_adj += 2 * d;
    else
        a->ex.width_adj += 4 * d;
}

static void pv_key_help(pv_app *a, pv_action act)
{
    (void)act;
    a->ov.kind = PV_OVERLAY_HELP;
    a->ov.top = 0;
}

static void pv_key_none(pv_app *a, pv_action act)
{
    (void)a;
    (void)act;
}

/* The panels answer it (screen.c); nothing is left to do here. */
static void pv_key_panel(pv_app *a, pv_action act)
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

/* The actions that read the rows around the cursor (J, K, %): they wait
 * for the index (pv_app_refused_while_indexing). */
static bool pv_action_reads_every_row(pv_action act)
{
    return act == PV_ACT_NEXT_SAME || act == PV_ACT_PREV_SAME || act == PV_ACT_MATCH_CALL;
}

/* An action: refused while the rows it reads are indexed, then the panels
 * (the graphs, docs/flame.md, and the diff, then the focused pane, then
 * the Report: screen.c), then the action's family function. */
static void pv_app_action(pv_app *a, pv_action act)
{
    bool valid = act > PV_ACT_NONE && act < PV_ACT_COUNT;
    if (valid && pv_action_reads_every_row(act) && pv_app_refused_while_indexing(a))
        return;
    if (pv_screen_action(a, act)) /* the graph's keys; the diff's q and Backspace; the panes' */
        return;
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
    if (a->quit_ask) {
        /* "Quit? ... y/n": y (or Ctrl-C again) quits, any other key
         * stays and does nothing else */
        a->quit_ask = false;
        pv_buf_clear(&a->message);
        a->quit = key == 'y' || key == 'Y' || key == PV_KEY_CTRL('c');
        return true;
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
    if (a->range.show && !a->range.open && !a->range.failed) {
        pv_app_range_hide(a);
        pv_app_message(a, false, "statistics stopped");
    } else if (pv_lanes_build_stop(a)) {
        pv_app_message(a, false, "stopped building the pinned lane (unpinned)");
    } else if (pv_app_indexing(a)) {
        pv_app_index_stop(a); /* the indexing job (app.c) */
        a->quit_armed = true;
    } else if (a->quit_armed) {
        a->quit = true; /* "Ctrl-C again quits" after indexing stopped */
    } else {
        pv_app_quit_request(a);
    }
}

/* A key goes to the first that takes it: a running scan, the prompt, an
 * overlay, Ctrl-C and Esc, then the action bound to it (actions.def). */
void pv_app_key(pv_app *a, int key)
{
    /* Ctrl-L only redraws: the terminal layer takes it before it comes
     * here, and scripted keys pass time with it (it changes nothing). */
    if (key == PV_KEY_RESIZE || key == 0 || key == PV_KEY_CTRL('l') ||
        pv_jobs_keep(a, &(pv_job_input){.key = key}) || pv_app_key_stops_scan(a, key))
        return;
    /* Esc and Ctrl-C stop a graph being built (and do nothing else: the
     * screen stays, Ctrl-C does not quit); other keys act as always */
    if (!a->prompt.kind && !a->ov.kind && (key == PV_KEY_ESC || key == PV_KEY_CTRL('c')) &&
        pv_flame_ui_stop(a))
        return;
    if (a->prompt.kind) {
        pv_panel_prompt.key(a, key);
        return;
    }
    if (strchr(pv_buf_cstr(&a->message), '\n'))
        pv_buf_clear(&a->message); /* a caret message goes with the next key */
    if (a->ov.kind) {
        pv_screen_overlay(a->ov.kind)->key(a, key);
    } else if (key == PV_KEY_CTRL('c')) {
        pv_app_interrupt(a);
    } else if (key == PV_KEY_ESC) {
        pv_buf_clear(&a->message);
        pv_buf_clear(&a->search);
    } else {
        /* A message answers the key before: the next action clears it
         * (docs/tui.md); work in progress keeps its own. */
        if (!a->jobs.job)
            pv_buf_clear(&a->message);
        pv_app_action(a, pv_keymap_lookup(&a->cfg.keys, key));
    }
}

