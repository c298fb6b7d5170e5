/* bench_sql.c - how fast SQL over the model is (docs/sql.md), on a loaded
 * and indexed file (the viewer's situation: the connection lives as long
 * as the files):
 *
 *   - SELECT count(*) FROM timeline WHERE time BETWEEN a AND b for a window
 *     of 1 % of the recording: the first query (which also learns that
 *     `time` is in order, one pass) and the next ones (binary search);
 *   - full-scan aggregates, in rows per second; the GROUP BY a grouped
 *     column three times: the first (which also makes the column's
 *     groups), again, and as SQLite runs it (pv_sql_set_group_runs off);
 *     aggregates profview computes over a column read through its cells,
 *     and a GROUP BY whose aggregates SQLite computes group by group
 *     (docs/sql.md "GROUP BY, group by group").
 *
 * Usage: bench_sql FILE [QUERY...]   (bench/run.sh gives it the 50 M-event
 * BIN; with queries, times those instead, e.g. under perf) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profview/load.h"
#include "profview/sql.h"

#include "bench_clock.h"

/* CPU seconds of the last query (the machine is shared: wall times depend
 * on the load, CPU times much less) */
static double last_cpu;

static int64_t bench_int(pv_sql *s, const char *q, double *seconds)
{
    pv_sql_error err;
    double t0 = pv_now(), c0 = pv_cpu();
    pv_view *v = pv_sql_query(s, q, &err);
    *seconds = pv_now() - t0;
    last_cpu = pv_cpu() - c0;
    if (!v) {
        fprintf(stderr, "bench_sql: %s: %s\n", q, err.message);
        exit(1);
    }
    pv_cell c;
    pv_view_cell(v, 0, 0, &c);
    int64_t x = c.present ? c.v.i : -1;
    pv_view_free(v);
    return x;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_sql FILE [QUERY...]\n");
        return 1;
    }
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st;
    double t0 = pv_now();
    pv_file *f = pv_load_file(argv[1], &o, &st);
    if (st != PV_LOAD_OK) {
        fprintf(stderr, "bench_sql: cannot load %s\n", argv[1]);
        return 1;
    }
    printf("load + index: %.3f s\n", pv_now() - t0);
    pv_sql *s = pv_sql_new();
    pv_sql_add_file(s, f);
    double secs;
    if (argc > 2) {
        int64_t rows = bench_int(s, "SELECT count(*) FROM timeline", &secs);
        for (int i = 2; i < argc; i++) {
            bench_int(s, argv[i], &secs);
            printf("%s: %.3f s, %.1f M rows/s (CPU %.3f s, %.1f M rows/s)\n", argv[i], secs,
                   (double)rows / secs / 1e6, last_cpu, (double)rows / last_cpu / 1e6);
        }
        pv_sql_free(s);
        pv_file_free(f);
        return 0;
    }
    int64_t lo = bench_int(s, "SELECT min(time) FROM timeline WHERE rowid = 0", &secs);
    int64_t n = bench_int(s, "SELECT count(*) FROM timeline", &secs);
    printf("SELECT count(*) FROM timeline: %" PRId64
           " rows, %.3f s (%.1f M rows/s; CPU %.3f s, %.1f M rows/s)\n",
           n, secs, (double)n / secs / 1e6, last_cpu, (double)n / last_cpu / 1e6);
    char q[256];
    snprintf(q, sizeof q, "SELECT max(time) FROM timeline WHERE rowid = %" PRId64, n - 1);
    int64_t hi = bench_int(s, q, &secs);
    int64_t span = hi - lo;
    for (int run = 0; run < 4; run++) {
        int64_t a = lo + span / 5 * (run + 1) / 2, b = a + span / 100;
        snprintf(q, sizeof q,
                 "SELECT count(*) FROM timeline WHERE time BETWEEN %" PRId64 " AND %" PRId64, a, b);
        int64_t k = bench_int(s, q, &secs);
        printf("1%% window%s: %" PRId64 " rows, %.2f ms (CPU %.2f ms)\n",
               run == 0 ? " (first: learns the order of time)" : "", k, secs * 1e3, last_cpu * 1e3);
    }
    static const char *const scans[] = {
        "SELECT count(*), sum(depth) FROM timeline",
        "SELECT sum(time), max(depth), count(*) FROM timeline WHERE event = 'E'",
        "SELECT context, count(*), sum(depth) FROM timeline GROUP BY context",
        "SELECT context, count(*), sum(depth) FROM timeline GROUP BY context",
        "SELECT context, count(*), sum(depth) FROM timeline GROUP BY context",
        "SELECT context, count(*), min(time), max(time), avg(depth) FROM timeline GROUP BY context",
        "SELECT context, count(*), sum(depth) FROM timeline WHERE event = 'E' GROUP BY context",
    };
    static const char *const notes[] = {
        "", "", " (first)", " (again)", " (as written)", " (time through cells)",
        " (group runs: SQLite aggregates)"};
    for (size_t i = 0; i < sizeof scans / sizeof *scans; i++) {
        pv_sql_set_group_runs(s, i != 4);
        bench_int(s, scans[i], &secs);
        printf("%s%s: %.3f s, %.1f M rows/s (CPU %.3f s, %.1f M rows/s)\n", scans[i], notes[i],
               secs, (double)n / secs / 1e6, last_cpu, (double)n / last_cpu / 1e6);
    }
    pv_sql_free(s);
    pv_file_free(f);
    return 0;
}
