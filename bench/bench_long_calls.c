/* bench_long_calls - the jobs whose call runs on a worker in turns with
 * the viewer's thread (`:sql`, `:export`; src/tui/worker.h, docs/tui.md
 * "Long operations"): how long the screen stands still between two frames
 * (one after each step of the job, as the terminal's loop draws), and how
 * soon Esc stops them.  (The CPU times are the viewer's thread's: the
 * call's own CPU is the worker's.)
 *
 *   bench_long_calls FILE [STOP_AFTER_S [FORMAT]]
 *
 * Loads FILE (indexed to its end), then runs `:export FORMAT` (default
 * sqlite; text1, bin) of the
 * Report's result set (the file's), stopped (as Esc would) after
 * STOP_AFTER_S seconds (default 2; 0: to its end), and
 *   :sql SELECT context, count(*) FROM timeline GROUP BY context
 * to its end.  A frame is drawn after each step, as the terminal does.
 *
 * PV_BENCH_STALLS=1 in the environment: while no frame came for 8 ms of
 * CPU, the stack is written to stderr every 2 ms of CPU (SIGPROF), to
 * find what a long gap is made of (addr2line -f -e BINARY +OFFSET). */
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/keymap.h"

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void) { return clock_of(CLOCK_MONOTONIC); }
static double cpu(void) { return clock_of(CLOCK_THREAD_CPUTIME_ID); }

static struct {
    pv_app *a;
    double start, last, last_cpu, worst, worst_cpu, first, stop_after, stopped_at, stop_took;
    double draw_cpu;
    int pumps;
    bool stopped;
} P;

/* SIGPROF: the stack, when the current gap is longer than 8 ms of CPU */
static void stall_sample(int sig)
{
    (void)sig;
    double gap = cpu() - P.last_cpu;
    if (gap < 0.008)
        return;
    void *frames[48];
    int n = backtrace(frames, 48);
    char mark[80];
    int len = snprintf(mark, sizeof mark, "---- stall sample: after frame %d, %.1f ms CPU\n",
                       P.pumps, gap * 1e3);
    if (write(2, mark, (size_t)len) < 0)
        return;
    backtrace_symbols_fd(frames, n, 2);
}

static void stall_sampler(void)
{
    if (!getenv("PV_BENCH_STALLS"))
        return;
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc before a signal needs it */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stall_sample;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_PROF, &it, NULL);
}

static void pump(void *user)
{
    (void)user;
    double t = now(), c = cpu();
    double gap = t - P.last, gap_cpu = c - P.last_cpu;
    if (!P.pumps)
        P.first = t - P.start;
    if (gap > P.worst)
        P.worst = gap;
    if (gap_cpu > P.worst_cpu)
        P.worst_cpu = gap_cpu;
    P.pumps++;
    pv_app_draw(P.a);
    P.draw_cpu += cpu() - c;
    P.last = now();
    P.last_cpu = cpu();
    if (P.stop_after > 0 && P.last - P.start > P.stop_after && !P.stopped) {
        P.stopped = true;
        P.stopped_at = P.last;
        pv_app_key(P.a, PV_KEY_ESC); /* between two steps, as the terminal reads it */
        P.stop_took = now() - P.stopped_at; /* the call ran to its cancel, the thread joined */
    }
}

static void run(pv_app *a, const char *what, const char *keys, double stop_after)
{
    memset(&P, 0, sizeof P);
    P.a = a;
    P.stop_after = stop_after;
    double c0 = cpu();
    P.start = P.last = now();
    P.last_cpu = c0;
    for (const char *k = keys; *k; k++)
        pv_app_key(a, *k == '\n' ? PV_KEY_ENTER : (unsigned char)*k);
    /* the gap after the last pump, to the return of the key (where the
     * terminal draws again) */
    double end = now(), c1 = cpu();
    double tail = end - P.last, tail_cpu = c1 - P.last_cpu;
    /* then the work it left (a query; blocks given back in steps): the
     * terminal answers keys and draws between two steps, so each counts
     * as a frame */
    P.last = end;
    P.last_cpu = c1;
    while (pv_app_has_work(a)) {
        pv_app_work(a);
        pump(NULL);
    }
    end = now();
    c1 = cpu();
    printf("%s: %.3f s wall, %.3f s CPU, %d frames (drawing %.1f ms CPU); first after %.2f ms;"
           " longest gap %.2f ms wall, %.2f ms CPU; from the last frame to the return %.2f ms"
           " (CPU %.2f ms)",
           what, end - P.start, c1 - c0, P.pumps, P.draw_cpu * 1e3, P.first * 1e3, P.worst * 1e3,
           P.worst_cpu * 1e3, tail * 1e3, tail_cpu * 1e3);
    if (P.stopped)
        printf("; stopped after %.2f s, the stop took %.2f ms", P.stopped_at - P.start,
               P.stop_took * 1e3);
    printf("\n");
    pv_app_draw(a);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_long_calls FILE [STOP_AFTER_S [FORMAT]]\n");
        return 2;
    }
    double stop_after = argc > 2 ? atof(argv[2]) : 2.0;
    const char *format = argc > 3 ? argv[3] : "sqlite";
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    o.paths = (const char *const *)&argv[1];
    o.path_count = 1;
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, true, false, 160, 50);
    pv_app_wait_loaded(a);
    if (pv_app_file_count(a) == 0) {
        fprintf(stderr, "%s", pv_app_load_errors(a));
        return 1;
    }
    pv_app_index_all(a);
    pv_app_draw(a);
    stall_sampler();
    char path[64];
    snprintf(path, sizeof path, "/tmp/bench_long_calls-%ld.db", (long)getpid());
    char keys[128];
    snprintf(keys, sizeof keys, ":export %s %s\n", format, path);
    char what[64];
    snprintf(what, sizeof what, ":export %s", format);
    run(a, what, keys, stop_after);
    if (access(path, F_OK) == 0) {
        printf("(the export finished: %s removed)\n", path);
        remove(path);
    }
    run(a, ":sql", ":sql SELECT context, count(*) FROM timeline GROUP BY context\n", 0);
    pv_app_free(a);
    pv_config_free(&cfg);
    return 0;
}
