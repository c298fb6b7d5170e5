/* goto.c - :goto a row, an index or a time, and J / K: a scan over a
 * report's rows as a job (jobs.h) where no binary search can do. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/app_internal.h"
#include "tui/group.h"

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
    if (marker && !a->mark.set[arg[0] - 'A']) {
        pv_app_message(a, true, "that marker is not set (m sets A, M sets B)");
        return;
    }
    int which = arg[0] - 'A';
    if (marker && a->mark.view[which]) {
        /* a marker on a row: that row, in its view */
        if (a->mark.view[which] != r->view || !pv_report_select_row(r, a->mark.row[which]))
            pv_app_message(a, true, "that marker is on a row of another view");
        return;
    }
    if (marker)
        t = a->mark.at[arg[0] - 'A'];
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
    double until = pv_clock_now() + PV_SCAN_SLICE_S;
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
        if (++looked % 1024 == 0 && pv_clock_now() > until)
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

/* J / K (docs/tui.md, timeline stepping), over any view whose rows have
 * an area (pv_view_hooks.row_area): the next row (dir) of the same area,
 * looked for a slice per frame. */
void pv_app_step_event(pv_app *a, int dir)
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

void pv_app_reach_row(pv_app *a, const pv_view *v, size_t row)
{
    pv_report *r = pv_app_report(a);
    if (!r) {
        /* a big tree opening in steps: its last step selects the row (a
         * stop goes back where the jump was made, docs/tui.md "Jumps") */
        pv_app_job_select(a, PV_JOB_OPEN, row);
        return;
    }
    /* the Report may show the view grouped by thread (group.c) */
    size_t shown = r->view == v ? row : pv_group_row_of(r->view, v, row);
    if (shown != PV_NO_ROW)
        pv_report_select_row(r, shown);
}

/* Enter on an event while its file is indexed: its call is not known
 * yet.  A job queued for the index (jobs.h) presses Enter again when it is
 * ready, if the event is still the one selected. */
typedef struct pv_jump_job {
    pv_job base;
    pv_report *r;
    size_t row;
} pv_jump_job;

static bool pv_jump_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    (void)b;
    pv_jump_job *j = (pv_jump_job *)job;
    pv_buf_clear(&a->message);
    if (pv_app_focused_report(a) != j->r || pv_report_selected(j->r) != j->row) {
        pv_app_message(a, false, "no jump to the call: another row is selected");
        return true;
    }
    pv_report_pane_action(a, PV_ACT_OPEN); /* the call, or what Enter does there */
    return true;
}

static void pv_jump_job_stop(pv_app *a, pv_job *job, bool say)
{
    if (say)
        pv_app_messagef(a, false, "%s %s: the event stays selected", pv_job_noun(job->kind),
                        job->queued ? "cancelled" : "stopped");
}

/* The items (and the reports in them) may move: the jump is given up. */
static bool pv_jump_job_moving(pv_app *a, pv_job *job)
{
    pv_jump_job_stop(a, job, true);
    return false;
}

static const pv_job_ops pv_jump_job_ops = {
    .keys = PV_JOB_KEYS_STOP,
    .step = pv_jump_job_step,
    .stop = pv_jump_job_stop,
    .items_moving = pv_jump_job_moving,
};

void pv_app_reach_call_later(pv_app *a, pv_report *r, size_t row)
{
    pv_jump_job *j = (pv_jump_job *)pv_job_new(sizeof *j, &pv_jump_job_ops, PV_JOB_JUMP);
    j->r = r;
    j->row = row;
    j->base.queued = true;
    j->base.wait_report = true;
    pv_jobs_start(a, &j->base);
    pv_jobs_say_waiting(a, PV_JOB_JUMP, "is made");
}
