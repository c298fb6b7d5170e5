/* progress.c - the progress bar of `profview info`, `cat` and `export` on
 * stderr (docs/cli.md, "Progress"): only when stderr is a terminal, only
 * once the rate is known, redrawn at most ten times a second, erased when
 * the load is done. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static struct {
    char what[64];   /* the phase being shown ("reading Text1", "indexing timeline") */
    double start;    /* when that phase began */
    double last;     /* the last redraw */
    double delay;    /* nothing before this many seconds of a phase */
    bool shown;      /* a line is on the terminal */
} pv_bar;

static double pv_bar_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "12.3 MB" for bytes, "1.25 M events" for counts. */
static void pv_bar_amount(char *out, size_t size, double v, bool bytes, const char *noun)
{
    static const char *const byte_units[] = {"B", "kB", "MB", "GB", "TB"};
    static const char *const count_units[] = {"", " k", " M", " G", " T"};
    int u = 0;
    while (v >= 1000.0 && u < 4) {
        v /= 1000.0;
        u++;
    }
    if (bytes)
        snprintf(out, size, u ? "%.1f %s" : "%.0f %s", v, byte_units[u]);
    else
        snprintf(out, size, u ? "%.2f%s %s" : "%.0f%s %s", v, count_units[u], noun);
}

static void pv_bar_report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)user;
    double now = pv_bar_now();
    if (!what)
        what = "";
    if (strcmp(what, pv_bar.what) != 0) {
        snprintf(pv_bar.what, sizeof pv_bar.what, "%s", what);
        pv_bar.start = now;
    }
    double elapsed = now - pv_bar.start;
    if (done == 0 || elapsed <= 0 || elapsed < pv_bar.delay)
        return; /* the rate is not known yet */
    if (pv_bar.shown && now - pv_bar.last < 0.1 && !(total && done >= total))
        return;
    pv_bar.last = now;
    /* Loaders report bytes while they read a file and events or rows after. */
    bool bytes = strncmp(what, "reading", 7) == 0;
    const char *noun = strncmp(what, "indexing", 8) == 0 ? "events" : "rows";
    double rate = (double)done / elapsed;
    char done_s[32], total_s[32], rate_s[40], line[200];
    pv_bar_amount(done_s, sizeof done_s, (double)done, bytes, noun);
    pv_bar_amount(rate_s, sizeof rate_s, rate, bytes, noun);
    if (total > 0 && done <= total) {
        char bar[21];
        size_t fill = (size_t)((double)done / (double)total * 20.0);
        for (size_t i = 0; i < 20; i++)
            bar[i] = i < fill ? '#' : '-';
        bar[20] = '\0';
        pv_bar_amount(total_s, sizeof total_s, (double)total, bytes, noun);
        unsigned long eta = (unsigned long)((double)(total - done) / rate + 0.5);
        snprintf(line, sizeof line, "profview: %s [%s] %3d%%  %s of %s  %s/s  ETA %lu:%02lu", what,
                 bar, (int)((double)done * 100.0 / (double)total), done_s, total_s, rate_s,
                 eta / 60, eta % 60);
    } else {
        snprintf(line, sizeof line, "profview: %s  %s  %s/s", what, done_s, rate_s);
    }
    fprintf(pv_cli_stderr_raw(), "\r\033[K%s", line);
    fflush(pv_cli_stderr_raw());
    pv_bar.shown = true;
}

void pv_cli_progress_attach(pv_progress *p, const pv_test_options *test)
{
    if (!isatty(STDERR_FILENO))
        return;
    pv_bar.delay = (double)pv_test_get(test, PV_TEST_PROGRESS_DELAY_MS, 500) / 1000;
    p->report = pv_bar_report;
    p->user = NULL;
}

void pv_cli_progress_end(void)
{
    if (pv_bar.shown) {
        fputs("\r\033[K", pv_cli_stderr_raw());
        fflush(pv_cli_stderr_raw());
    }
    pv_bar.shown = false;
    pv_bar.what[0] = '\0';
}
