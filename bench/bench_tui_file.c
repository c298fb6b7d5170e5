/* bench_tui_file - the viewer on a real file (docs/quality.md: first screen
 * < 0.2 s, no key blocking the UI for more than 16 ms).
 *
 * Runs the viewer without a terminal, as `profview FILE` does: the file is
 * loaded in the background thread with a deferred index, the first frame is
 * drawn, then the UI thread indexes in slices (as the terminal loop does
 * between keys) while keys are timed on the timeline; then the same keys and
 * the ones that need the whole index (J, K, %, t) are timed again.
 *
 *     bench_tui_file FILE [TIME]      (TIME: for :goto, default 2.5s)
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "formats/winidea/winidea.h"
#include "tui/app.h"
#include "tui/app_internal.h" /* pv_app_sync_details: the frames' split */
#include "tui/keymap.h"
#include "tui/text.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double worst_key;

/* Resident set size in kB (Linux), 0 when unknown. */
static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

/* key + draw, as one frame; work left to later frames (a scan) is timed
 * per frame too, and its total */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this thread: on a busy machine a frame's wall time counts the
 * time other processes ran, its CPU time only the viewer's own work */
static double thread_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double worst_key_cpu;

/* Page faults of this thread so far (minor and major): a frame's CPU
 * counts the kernel's time in its faults */
static long thread_faults(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return 0;
    return ru.ru_minflt + ru.ru_majflt;
}

/* keys: key codes ending with 0, each answered and drawn as the terminal
 * does (a frame after each key: typing `/Idle_Loop` and Enter is eleven
 * frames, not one eleven keys long); then the frames of the work they
 * started. */
static void frame_keys(pv_app *a, const char *what, const int *keys, int repeat)
{
    double worst = 0, worst_cpu = 0, total = 0, scan_total = 0, cpu0 = cpu_now();
    int frames = 0;
    /* PV_BENCH_FRAMES=MS: print every frame of more than MS ms of CPU, its
     * number among the key's frames; a frame of the work the key started
     * with its CPU split into the job's step, the Details following the
     * cursor and the drawing */
    const char *show = getenv("PV_BENCH_FRAMES");
    double show_ms = show ? atof(show) : -1, step_cpu = -1, details_cpu = 0, draw_cpu = 0;
    long faults0 = 0;
    for (int i = 0; i < repeat; i++) {
        double t0 = now(), c0 = thread_cpu_now();
        for (const int *k = keys; *k; k++) {
            pv_app_key(a, *k);
            pv_app_draw(a);
            if (!k[1])
                break; /* the last key's frame is counted below */
            double dt = now() - t0, dc = thread_cpu_now() - c0;
            total += dt;
            frames++;
            if (show_ms >= 0 && dc * 1e3 > show_ms)
                printf("    frame %d (key %d): %.3f ms (CPU %.3f ms)\n", frames,
                       (int)(k - keys) + 1, dt * 1e3, dc * 1e3);
            worst = dt > worst ? dt : worst;
            worst_cpu = dc > worst_cpu ? dc : worst_cpu;
            t0 = now();
            c0 = thread_cpu_now();
        }
        for (;;) {
            double dt = now() - t0, dc = thread_cpu_now() - c0;
            total += dt;
            frames++;
            if (show_ms >= 0 && dc * 1e3 > show_ms && step_cpu >= 0)
                printf("    frame %d: %.3f ms (CPU %.3f ms: step %.3f, Details %.3f, draw %.3f; "
                       "%ld page faults)\n",
                       frames, dt * 1e3, dc * 1e3, step_cpu * 1e3, details_cpu * 1e3,
                       draw_cpu * 1e3, thread_faults() - faults0);
            else if (show_ms >= 0 && dc * 1e3 > show_ms)
                printf("    frame %d: %.3f ms (CPU %.3f ms)\n", frames, dt * 1e3, dc * 1e3);
            if (dt > worst)
                worst = dt;
            if (dc > worst_cpu)
                worst_cpu = dc;
            if (!pv_app_has_work(a))
                break;
            scan_total += dt;
            t0 = now();
            c0 = thread_cpu_now();
            if (show_ms >= 0)
                faults0 = thread_faults();
            pv_app_work(a);
            double c1 = thread_cpu_now();
            pv_app_sync_details(a); /* as pv_app_draw does first; then nothing to do there */
            double c2 = thread_cpu_now();
            pv_app_draw(a);
            step_cpu = c1 - c0;
            details_cpu = c2 - c1;
            draw_cpu = thread_cpu_now() - c2;
        }
        step_cpu = -1;
    }
    if (worst > worst_key)
        worst_key = worst;
    if (worst_cpu > worst_key_cpu)
        worst_key_cpu = worst_cpu;
    char name[40];
    snprintf(name, sizeof name, "%s", what);
    name[strcspn(name, "\n")] = '\0';
    printf("  %-20s avg %8.3f ms  worst %8.3f ms (CPU %7.3f ms)  (%d keys, %d frames", name,
           total / frames * 1e3, worst * 1e3, worst_cpu * 1e3, repeat, frames);
    if (frames > repeat)
        printf("; work in later frames %.0f ms in all", scan_total * 1e3);
    printf("; CPU %.3f ms per key)\n", (cpu_now() - cpu0) / repeat * 1e3);
}

static void frame(pv_app *a, const char *what, const char *keys, int repeat)
{
    int codes[256];
    size_t n = 0;
    for (const char *k = keys; *k && n < 255; k++)
        codes[n++] = (unsigned char)*k;
    codes[n] = 0;
    frame_keys(a, what, codes, repeat);
}

/* Clicks Explorer item `item` (the Explorer's lines start below its
 * title): it is shown and the Explorer has the focus, whatever had it. */
static void explorer_click(pv_app *a, int item)
{
    pv_app_mouse(a, item + 1, 2, 1);
    pv_app_draw(a);
    while (pv_app_has_work(a)) {
        pv_app_work(a);
        pv_app_draw(a);
    }
}

/* Shows the timeline (Explorer item 6: the file, the result set, four
 * views above it), the focus on the Report. */
static void to_timeline(pv_app *a)
{
    explorer_click(a, 6);
    pv_app_key(a, PV_KEY_TAB);
}

/* Moves the Explorer cursor by one item (j/k), which shows that item, and
 * goes back to the Report; the work it starts is done before the return. */
static void explorer_move(pv_app *a, int key)
{
    pv_app_key(a, PV_KEY_BTAB);
    pv_app_key(a, key);
    pv_app_key(a, PV_KEY_TAB);
    pv_app_draw(a);
    while (pv_app_has_work(a)) {
        pv_app_work(a);
        pv_app_draw(a);
    }
}

/* An export is a job whose call runs on a worker in turns with the UI
 * thread (src/tui/worker.h): the terminal draws a frame after each of its
 * steps and reads Esc there; the longest gap between two frames is the
 * longest the screen stands still.  Esc after 0.5 s. */
static void bench_export(pv_app *a, const char *keys)
{
    double start = now(), last = start, worst = 0, first = 0;
    int frames = 0;
    bool stopped = false;
    for (const char *k = keys; *k; k++)
        pv_app_key(a, *k == '\n' ? PV_KEY_ENTER : (unsigned char)*k);
    pv_app_draw(a);
    while (pv_app_has_work(a)) {
        pv_app_work(a);
        pv_app_draw(a);
        double t = now();
        if (!frames)
            first = t - start;
        worst = t - last > worst ? t - last : worst;
        last = t;
        frames++;
        if (!stopped && t - start > 0.5) {
            pv_app_key(a, PV_KEY_ESC);
            stopped = true;
        }
    }
    printf("  :export of the timeline: first frame after %.3f ms, %d frames, longest gap "
           "%.3f ms%s\n",
           first * 1e3, frames, worst * 1e3, stopped ? " (Esc after 0.5 s)" : "");
}

/* The Explorer's items of a winIDEA file, counted from its first line (the
 * file; then the result set, then its views). */
enum {
    IT_SUMMARY = 2,
    IT_CONTEXTS,
    IT_STATISTICS,
    IT_EXPORTED,
    IT_TIMELINE,
    IT_CALL_TRACE,
    IT_ROUTINES,
    IT_LINES,
    IT_DATA
};

/* Says so when the Report's title does not start with `title` (the keys
 * did not reach the view that the line names). */
static void expect_report(pv_app *a, const char *title)
{
    pv_buf text;
    pv_buf_init(&text);
    pv_grid_dump(pv_app_draw(a), &text);
    const char *at = strstr(text.data ? text.data : "", "Report: ");
    char want[128];
    snprintf(want, sizeof want, "Report: %s", title);
    if (!at || strncmp(at, want, strlen(want)) != 0) {
        size_t n = at ? strcspn(at, "\n\xe2") : 0;
        printf("  !! expected '%s', the Report shows '%.*s'\n", want, (int)n, at ? at : "");
    }
    pv_buf_free(&text);
}

/* Shows Explorer item `item` (untimed: the item above it clicked, that
 * view shown and its work done), then times the move onto the item (j,
 * then Tab to the Report) and checks the Report's title. */
static void explorer_open(pv_app *a, const char *what, int item, const char *title)
{
    static const int down[] = {'j', PV_KEY_TAB, 0};
    explorer_click(a, item - 1);
    frame_keys(a, what, down, 1);
    expect_report(a, title);
}

/* From the Report: the Details pane's tab number `tab` chosen (untimed),
 * the focus back on the Report. */
static void details_tab(pv_app *a, int tab)
{
    pv_app_key(a, PV_KEY_TAB);
    for (int i = 0; i < 4; i++)
        pv_app_key(a, 'h');
    for (int i = 0; i < tab; i++)
        pv_app_key(a, 'l');
    pv_app_key(a, PV_KEY_BTAB);
    pv_app_draw(a);
}

/* Every view kind from the Explorer (its items in order, each opened from
 * the one above), the Details pane and drill-down with Enter, the popups,
 * :stats, :sql and the start of an export (docs/quality.md: no key blocks
 * the viewer more than 8 ms). */
static void every_view(pv_app *a)
{
    static const int to_details[] = {PV_KEY_TAB, 0};
    static const int esc[] = {PV_KEY_ESC, 0};
    static const int back[] = {PV_KEY_BACKSPACE, 0};
    worst_key = 0;
    worst_key_cpu = 0;
    printf("every view, Details, popups, commands:\n");
    explorer_open(a, "Explorer: summary", IT_SUMMARY, "Summary");
    explorer_open(a, "Explorer: contexts", IT_CONTEXTS, "Contexts");
    frame(a, "j (contexts)", "j", 3);
    explorer_open(a, "Explorer: statistics", IT_STATISTICS, "Statistics");
    /* the Details pane follows the cursor: a routine's calls in a context,
     * then (the last rows) the value histories of variables and states */
    details_tab(a, 0);
    frame(a, "j (statistics)", "j", 5);
    frame(a, "g (statistics)", "g", 1); /* a routine in a context */
    frame(a, "Enter (drill)", "\n", 1);
    expect_report(a, "Calls");
    frame(a, "j (calls)", "j", 5);
    frame_keys(a, "Backspace", back, 1);
    expect_report(a, "Statistics");
    details_tab(a, 1);
    frame(a, "G (statistics)", "G", 1);
    frame(a, "k (data rows)", "k", 13); /* up to the first state */
    frame(a, "Enter (drill)", "\n", 1);
    expect_report(a, "Value history");
    frame(a, "G (history)", "G", 1);
    frame_keys(a, "Backspace", back, 1);
    explorer_open(a, "Explorer: stats-exp", IT_EXPORTED, "Statistics (as exported)");
    explorer_open(a, "Explorer: timeline", IT_TIMELINE, "Timeline");
    frame(a, "m (marker A)", "m", 1);
    frame(a, ":goto +2ms", ":goto +2ms\n", 1);
    frame(a, "M (marker B)", "M", 1);
    frame(a, ":stats", ":stats\n", 1);
    frame(a, ":stats off", ":stats off\n", 1);
    frame(a, "c (columns)", "c", 1);
    frame_keys(a, "Esc", esc, 1);
    frame(a, "S (sort popup)", "S", 1);
    frame_keys(a, "Esc", esc, 1);
    frame_keys(a, "Tab (Details)", to_details, 1);
    frame(a, "j (Details)", "j", 5);
    frame(a, "l (next tab)", "l", 2);
    frame(a, "Enter (drill)", "\n", 1); /* the Report: the area's statistics */
    expect_report(a, "Statistics of the area");
    frame(a, "j (area stats)", "j", 2);
    frame_keys(a, "Backspace", back, 1);
    explorer_open(a, "Explorer: tree", IT_CALL_TRACE, "Call trace");
    frame(a, "Enter (expand)", "\n", 1);
    frame(a, "j (tree)", "j", 5);
    frame_keys(a, "Tab (Details)", to_details, 1);
    frame(a, "Enter (drill)", "\n", 1); /* the Report: the events of the call */
    frame_keys(a, "Backspace", back, 1);
    frame(a, "/CRC_Calc", "/CRC_Calc\n", 1);
    frame(a, ":goto 3s (tree)", ":goto 3s\n", 1);
    frame(a, "* (expand all)", "*", 1);
    /* the Details follow: the events of the call that spans the recording
     * (100 000 rows) */
    frame(a, "/Idle_Loop (tree)", "/Idle_Loop\n", 1);
    frame(a, "t (timeline)", "t", 1);
    frame_keys(a, "Backspace", back, 1);
    /* the Details follow: callers, callees (their pairs of routines are
     * made once per file, with the viewer's area lists) */
    explorer_open(a, "Explorer: routines", IT_ROUTINES, "Routines");
    details_tab(a, 0);
    frame(a, "j (routines)", "j", 3);
    frame(a, "Enter (drill)", "\n", 1);
    expect_report(a, "Callers of");
    frame(a, "Enter (caller)", "\n", 1);
    frame_keys(a, "Backspace", back, 1);
    frame_keys(a, "Backspace", back, 1);
    explorer_open(a, "Explorer: lines", IT_LINES, "Lines");
    frame(a, "j (lines)", "j", 5);
    /* the first row is a variable; every other row's value history (of a
     * variable or a state) follows the cursor in the Details */
    explorer_open(a, "Explorer: data", IT_DATA, "Data");
    frame(a, "Enter (drill)", "\n", 1);
    expect_report(a, "Value history");
    frame(a, "G (history)", "G", 1);
    frame_keys(a, "Backspace", back, 1);
    frame(a, "j (data)", "j", 14);
    frame(a, "k (data)", "k", 3);
    frame(a, "Enter (drill)", "\n", 1);
    expect_report(a, "Value history");
    frame(a, "G (history)", "G", 1);
    frame_keys(a, "Backspace", back, 1);
    frame(a, ":sql open", ":sql SELECT count(*) FROM routines\n", 1);
    frame(a, ":sql timeline", ":sql SELECT context, count(*) FROM timeline GROUP BY context\n", 1);
    /* back to the timeline (the SQL results are the last items) */
    to_timeline(a);
    pv_app_draw(a);
    frame(a, "e (export)", "e", 1);
    frame_keys(a, "Esc", esc, 1);
    bench_export(a, ":export sqlite /tmp/bench_tui_file-export.db\n");
    remove("/tmp/bench_tui_file-export.db");
    printf("worst of these: %.3f ms (CPU %.3f ms)\n", worst_key * 1e3, worst_key_cpu * 1e3);
    pv_app_draw(a);
    while (pv_app_has_work(a)) {
        pv_app_work(a);
        pv_app_draw(a);
    }
}

/* Keys while the index is built in slices (20% first), then the rest of
 * the index, its slices timed. */
static void bench_indexing(pv_app *a, const char *go_time)
{
    /* Index 20% in slices, then time keys in the middle of indexing. */
    double slice_worst = 0, slice_worst_cpu = 0, t_index = now();
    size_t slices = 0;
    for (int i = 0; i < 100000 && pv_app_indexing(a); i++) {
        double s0 = now(), c0 = thread_cpu_now();
        pv_app_index_slice(a);
        double dt = now() - s0, dc = thread_cpu_now() - c0;
        slices++;
        if (dt > slice_worst)
            slice_worst = dt;
        if (dc > slice_worst_cpu)
            slice_worst_cpu = dc;
        if (now() - t_index > 0.3)
            break;
    }
    printf("while indexing (after %zu slices, worst slice %.3f ms):\n", slices, slice_worst * 1e3);
    frame(a, "j", "j", 100);
    frame(a, "G (last)", "G", 5);
    frame(a, "g (first)", "g", 5);
    frame(a, "PgDn", "\006", 50); /* Ctrl-F */
    frame(a, go_time, go_time, 5);
    frame(a, "J (refused)", "J", 5);
    /* commands that read the whole index wait for it, queued (before: the
     * index finished within the key) */
    static const int esc_key[] = {PV_KEY_ESC, 0};
    frame(a, ":sql (queued)", ":sql SELECT count(*) FROM timeline\n", 1);
    frame_keys(a, "Esc (cancels it)", esc_key, 1);
    /* a file left there would open the overwrite question, and the keys
     * below would answer it */
    remove("/tmp/bench_tui_file-queued.db");
    frame(a, ":export (queued)", ":export sqlite /tmp/bench_tui_file-queued.db\n", 1);
    frame_keys(a, "Esc (cancels it)", esc_key, 1);
    double finish_worst = 0;
    /* PV_BENCH_SLICES=MS: print every slice longer than MS ms (wall and
     * this thread's CPU) */
    const char *show = getenv("PV_BENCH_SLICES");
    double show_ms = show ? atof(show) : -1;
    while (pv_app_indexing(a)) {
        double s0 = now(), c0 = thread_cpu_now();
        pv_app_index_slice(a);
        double dt = now() - s0, dc = thread_cpu_now() - c0;
        if (show_ms >= 0 && dt * 1e3 > show_ms)
            printf("  slice %zu: %.3f ms (CPU %.3f ms)\n", slices, dt * 1e3, dc * 1e3);
        slices++;
        if (dt > slice_worst)
            slice_worst = dt;
        if (dc > slice_worst_cpu)
            slice_worst_cpu = dc;
        if (!pv_app_indexing(a))
            finish_worst = dt;
    }
    printf("index complete: %.3f s in %zu slices, last slice %.3f ms\n", now() - t_index, slices,
           finish_worst * 1e3);
    printf("longest indexing slice: %.3f ms\n", slice_worst * 1e3);
    printf("most CPU in one indexing slice: %.3f ms\n", slice_worst_cpu * 1e3);
}

/* Keys once the index is complete. */
static void bench_indexed(pv_app *a, const char *go_time)
{
    worst_key = 0;
    frame(a, "g (first)", "g", 5);
    frame(a, go_time, go_time, 5);
    frame(a, "J", "J", 20);
    frame(a, "K", "K", 20);
    frame(a, "%", "%", 20);
    frame(a, "G", "G", 5);
    frame(a, "K at the end", "K", 20);
    frame(a, "% at the end", "%", 20);
    printf("worst key after indexing: %.3f ms\n", worst_key * 1e3);
}

/* Search, sort, filter and history over the whole timeline and the call
 * tree, in steps. */
static void bench_long_ops(pv_app *a)
{
    /* search, sort, filter and r of the whole timeline in steps (docs/tui.md
     * "Long operations"): the worst frame is the longest step */
    worst_key = 0;
    worst_key_cpu = 0;
    frame(a, "g (first)", "g", 1);
    frame(a, "/ZZQ (none)", "/ZZQ\n", 1);
    frame(a, "/Idle_Hook", "/Idle_Hook\n", 1);
    frame(a, "g (first)", "g", 1);
    frame(a, "n (next)", "n", 1);
    frame(a, ":sort name", ":sort name\n", 1);
    frame(a, "r (reverse)", "r", 1);
    frame(a, ":sort context", ":sort context\n", 1);
    frame(a, ":sort event", ":sort event\n", 1);
    frame(a, ":sort time:desc", ":sort time:desc\n", 1);
    frame(a, ":sort (off)", ":sort\n", 1);
    frame(a, ":filter CRC", ":filter CRC_Calc\n", 1);
    frame(a, ":filter (off)", ":filter\n", 1);
    /* history back and forward re-apply a sort of the whole timeline (the
     * location left had `:sort name`, the report has none now) */
    frame(a, ":sort name", ":sort name\n", 1);
    explorer_move(a, 'k'); /* the view above: the timeline sorted by name goes into the history */
    explorer_move(a, 'j'); /* the timeline again */
    frame(a, ":sort (off)", ":sort\n", 1);
    frame(a, "[ (back)", "[", 1);
    frame(a, "[ (back: sort)", "[", 1);
    frame(a, "] (forward)", "]", 1);
    frame(a, "] (fwd: unsort)", "]", 1);
    /* a filter of the call tree (9.6 M calls): the tree's layout after it */
    {
        /* opening it: the grouping by thread and the first layout, in steps */
        static const int keys[] = {PV_KEY_BTAB, 'j', PV_KEY_TAB, 0};
        frame_keys(a, "open call tree", keys, 1);
    }
    frame(a, ":filter tree", ":filter CRC_Calc\n", 1);
    frame(a, ":filter tree off", ":filter\n", 1);
    /* a sort of the whole call tree: siblings among themselves, in steps */
    frame(a, ":sort tree", ":sort time:desc\n", 1);
    frame(a, ":sort tree off", ":sort\n", 1);
    explorer_move(a, 'k');
    printf("worst search/sort/filter/history frame: %.3f ms (CPU %.3f ms)\n", worst_key * 1e3,
           worst_key_cpu * 1e3);
}

/* Pins, their lanes built between keys, and the lane keys. */
static void bench_lanes(pv_app *a)
{
    /* lanes (docs/tui.md "Lane strip"): pins (the first builds the area's
     * lane: one pass over the calls or events), lanes fully zoomed out,
     * zoom, pan, the jumps through an area's calls */
    worst_key = 0;
    long rss0 = rss_kb();
    frame(a, "g (first)", "g", 1);
    frame(a, "p (row 1)", "p", 1);
    frame(a, "j p (row 2)", "jp", 1);
    frame(a, "j p (row 3)", "jp", 1);
    frame(a, "j p (row 4)", "jp", 1);
    {
        /* the pinned lanes are built between key presses, as the terminal
         * loop does (pv_app_index_slice) */
        double worst = 0, worst_cpu = 0, b0 = now(), c0 = cpu_now();
        size_t n = 0;
        while (pv_app_indexing(a)) {
            double s0 = now(), sc = cpu_now();
            pv_app_index_slice(a);
            double dt = now() - s0, dc = cpu_now() - sc;
            worst = dt > worst ? dt : worst;
            worst_cpu = dc > worst_cpu ? dc : worst_cpu;
            n++;
        }
        printf("  lanes built between keys: %.0f ms (CPU %.0f ms) in %zu slices, worst slice "
               "%.3f ms (CPU %.3f ms)\n",
               (now() - b0) * 1e3, (cpu_now() - c0) * 1e3, n, worst * 1e3, worst_cpu * 1e3);
    }
    printf("  RSS after the pins: +%ld kB\n", rss_kb() - rss0);
    frame(a, "= (fit all)", "=", 1);
    {
        double worst = 0, total = 0;
        for (int i = 0; i < 50; i++) {
            double d0 = now();
            pv_app_draw(a);
            double dt = now() - d0;
            total += dt;
            worst = dt > worst ? dt : worst;
        }
        printf("  %-14s avg %8.3f ms  worst %8.3f ms  (50 frames, lanes over all events)\n",
               "draw zoomed out", total / 50 * 1e3, worst * 1e3);
    }
    frame(a, ")", ")", 20);
    frame(a, "(", "(", 20);
    frame(a, "L (longest)", "L", 5);
    frame(a, "H (shortest)", "H", 5);
    frame(a, ":goto +1.5ms", ":goto +1.5ms\n", 5);
    frame(a, ":goto -200us", ":goto -200us\n", 5);
    frame(a, ":goto longest", ":goto longest\n", 5);
    frame(a, "+ (zoom in)", "+", 10);
    frame(a, "} (pan)", "}", 10);
    frame(a, "- (zoom out)", "-", 10);
    frame(a, "j (zoomed)", "j", 50);
    printf("worst lane key: %.3f ms\n", worst_key * 1e3);
}

/* The flame graph of the whole call tree and its keys. */
static void bench_flame(pv_app *a)
{
    /* the flame graph of the whole call tree (docs/flame.md): F builds it
     * (the merge of every call), then keys redraw it */
    worst_key = 0;
    frame(a, "F (build)", "F", 1);
    frame(a, "k (flame)", "k", 10);
    frame(a, "l (flame)", "l", 20);
    frame(a, "h (flame)", "h", 20);
    frame(a, "Enter (zoom)", "\n", 1);
    {
        double b0 = now();
        pv_app_key(a, PV_KEY_BACKSPACE);
        pv_app_draw(a);
        printf("  %-14s %8.3f ms\n", "Backspace", (now() - b0) * 1e3);
    }
    frame(a, "I (icicle)", "I", 5);
    frame(a, "W (sandwich)", "W", 1);
    printf("worst flame key: %.3f ms\n", worst_key * 1e3);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_tui_file FILE [TIME]\n");
        return 2;
    }
    const char *at = argc > 2 ? argv[2] : "2.5s";
    char go_time[64];
    snprintf(go_time, sizeof go_time, ":goto %s\n", at);
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    o.paths = (const char *const *)&argv[1];
    o.path_count = 1;
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    double t0 = now();
    pv_app *a = pv_app_new(&o, &cfg, &theme, true, false, 160, 50);
    pv_app_wait_loaded(a);
    pv_app_draw(a);
    printf("first screen (load + adopt + first frame): %.3f s\n", now() - t0);
    if (pv_app_file_count(a) == 0) {
        fprintf(stderr, "%s", pv_app_load_errors(a));
        return 1;
    }
    to_timeline(a);
    pv_app_draw(a);

    bench_indexing(a, go_time);
    bench_indexed(a, go_time);
    bench_long_ops(a);
    bench_lanes(a);
    bench_flame(a);
    pv_app_key(a, 'W'); /* the same key again: back to the table */
    to_timeline(a);
    pv_app_draw(a);
    every_view(a);
    pv_app_free(a);
    return 0;
}
