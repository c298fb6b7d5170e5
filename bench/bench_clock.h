/* bench_clock.h - the two clocks every benchmark reports (bench/README.md):
 * wall time, and the CPU time of this process, which is the fairer figure
 * on a shared machine (wall time includes waiting for a core). */
#ifndef PROFVIEW_BENCH_CLOCK_H
#define PROFVIEW_BENCH_CLOCK_H

#include <time.h>

static inline double pv_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline double pv_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
