/* steps.c - the engine of long work in steps (core.h, docs/tui.md "Long
 * operations"): a job's phases run within a budget and a deadline. */
#include "profview/core.h"

#include <time.h>

double pv_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool pv_budget_late(const pv_budget *b)
{
    return b->deadline > 0 && pv_clock_now() >= b->deadline;
}

bool pv_phases_run(void *job, const pv_phase_fn *phases, int *phase, int done, pv_budget *b)
{
    if (b->units == 0)
        b->units = 1;
    for (bool first = true; b->units > 0 && *phase != done; first = false) {
        if (!first && pv_budget_late(b))
            break;
        *phase = phases[*phase](job, b);
    }
    return *phase == done;
}
