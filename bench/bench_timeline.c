/* bench_timeline.c - indexes a synthetic winIDEA timeline and prints the
 * time and the index memory per event (docs/quality.md: at most 12 bytes
 * per event).
 *
 *     bench_timeline [EVENTS]      (default 50000000)
 *     bench_timeline --bare [EVENTS]  bare E/X pairs: one call per two events
 *     bench_timeline FILE          load FILE (no index cache) and print its
 *                                  index's memory (pv_timeline_index_memory)
 *
 * The records are v1.1, built in memory: 4 cores (contexts), each running a
 * nested call pattern over 200 functions (a caller is suspended while its
 * callee runs: S caller, E callee ... X callee, R caller), plus a few
 * variable writes and state changes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "formats/winidea/timeline.h"
#include "profview/load.h"
#include "profview/model.h"

#define CORES 4
#define FUNCTIONS 200
#define MAX_DEPTH 24

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static void put(unsigned char *r, uint32_t handle, unsigned kind, unsigned core, uint64_t data,
                int64_t time)
{
    uint32_t flags = kind | core << 4;
    uint64_t t = (uint64_t)time;
    for (int b = 0; b < 4; b++) {
        r[b] = (unsigned char)(handle >> (8 * b));
        r[4 + b] = (unsigned char)(flags >> (8 * b));
    }
    for (int b = 0; b < 8; b++) {
        r[8 + b] = (unsigned char)(data >> (8 * b));
        r[16 + b] = (unsigned char)(t >> (8 * b));
    }
}

/* user and system CPU seconds of this process so far */
static void cpu_seconds(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    *sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The index memory of a whole file, loaded as the CLI loads it. */
static int bench_file(const char *path)
{
    pv_load_options o;
    pv_load_options_init(&o);
    o.cache = false;
    pv_load_status st;
    double t0 = seconds();
    pv_file *f = pv_load_file(path, &o, &st);
    double t1 = seconds();
    const pv_timeline_index *ix = f ? pv_wi_file_index(f) : NULL;
    if (!ix) {
        fprintf(stderr, "bench_timeline: %s: no winIDEA timeline index\n", path);
        pv_file_free(f);
        return 1;
    }
    size_t n = ix->event_count ? ix->event_count : 1;
    size_t bytes = pv_timeline_index_memory(ix);
    printf("events            %zu\n", ix->event_count);
    printf("load+index        %.3f s\n", t1 - t0);
    printf("calls             %zu (%zu with a net time of their own%s)\n", ix->call_count,
           ix->net_count, ix->call_gross ? "; gross times kept" : "; gross times from the records");
    printf("line activations  %zu\n", ix->line_count);
    printf("index memory      %.2f bytes/event (%zu bytes)\n", (double)bytes / (double)n, bytes);
    pv_file_free(f);
    return 0;
}

int main(int argc, char **argv)
{
    bool bare = argc > 1 && strcmp(argv[1], "--bare") == 0;
    if (bare) {
        argv++;
        argc--;
    }
    if (argc > 1 && (argv[1][0] < '0' || argv[1][0] > '9'))
        return bench_file(argv[1]);
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 50000000u;
    if (n == 0)
        n = 1;
    pv_wi_data d;
    pv_wi_data_init(&d);
    char name[32];
    for (unsigned f = 0; f < FUNCTIONS; f++) {
        int len = snprintf(name, sizeof name, "function_%u", f);
        pv_wi_add_area(&d, f, name, (size_t)len);
    }
    pv_wi_add_area(&d, 0x20000000u, "counter", 7);
    pv_wi_add_area(&d, 0x20000001u, "mode", 4);
    for (unsigned v = 0; v < 4; v++) {
        size_t a = pv_wi_add_area(&d, 0x30000001u, NULL, 0);
        d.areas[a].has_value = true;
        d.areas[a].value = v;
    }

    double t0 = seconds();
    unsigned char *rec = malloc(n * PV_WI_RECORD_SIZE);
    if (!rec) {
        fprintf(stderr, "bench_timeline: cannot allocate %zu events\n", n);
        return 1;
    }
    uint32_t stack[CORES][MAX_DEPTH];
    unsigned depth[CORES] = {0};
    int64_t time = 0;
    size_t i = 0;
    unsigned core = 0;
    while (i < n) {
        /* a burst of events on one core, then the next core */
        if ((i & 63) == 0)
            core = rng() % CORES;
        time += 1 + rng() % 50;
        uint32_t r = rng();
        unsigned *dp = &depth[core];
        if (bare) { /* E and X only, nested up to MAX_DEPTH */
            if (*dp == 0 || (*dp < MAX_DEPTH && (r >> 8) % 2 == 0)) {
                uint32_t f = (r >> 12) % FUNCTIONS;
                put(rec + i++ * PV_WI_RECORD_SIZE, f, PV_WI_ENTRY, core, 0, time);
                stack[core][(*dp)++] = f;
            } else {
                put(rec + i++ * PV_WI_RECORD_SIZE, stack[core][--*dp], PV_WI_EXIT, core, 0, time);
            }
            continue;
        }
        if (r % 64 == 0) {
            put(rec + i++ * PV_WI_RECORD_SIZE, 0x20000000u, PV_WI_WRITE, core, r, time);
        } else if (r % 64 == 1) {
            put(rec + i++ * PV_WI_RECORD_SIZE, 0x20000001u, PV_WI_WRITE, core, (r >> 8) % 4, time);
        } else if (*dp == 0 || (*dp < MAX_DEPTH && (r >> 8) % 2 == 0)) {
            uint32_t f = (r >> 12) % FUNCTIONS;
            if (*dp > 0 && i < n)
                put(rec + i++ * PV_WI_RECORD_SIZE, stack[core][*dp - 1], PV_WI_SUSPEND, core, 0,
                    time);
            if (i < n) {
                put(rec + i++ * PV_WI_RECORD_SIZE, f, PV_WI_ENTRY, core, 0, time);
                stack[core][(*dp)++] = f;
            }
        } else {
            put(rec + i++ * PV_WI_RECORD_SIZE, stack[core][--*dp], PV_WI_EXIT, core, 0, time);
            if (*dp > 0 && i < n)
                put(rec + i++ * PV_WI_RECORD_SIZE, stack[core][*dp - 1], PV_WI_RESUME, core, 0,
                    time);
        }
    }
    d.timeline.records = rec;
    d.timeline.count = n;
    d.timeline.version = 11;
    double t1 = seconds(), u1, s1;
    cpu_seconds(&u1, &s1);

    pv_diag diag;
    pv_diag_init(&diag);
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.file = "synthetic";
    pv_timeline_index ix;
    if (!pv_timeline_index_build(&ix, &d, &o, &diag)) {
        fprintf(stderr, "bench_timeline: indexing failed\n");
        return 1;
    }
    double t2 = seconds(), u2, s2;
    cpu_seconds(&u2, &s2);
    size_t bytes = pv_timeline_index_memory(&ix);
    printf("events            %zu\n", n);
    printf("generate          %.3f s\n", t1 - t0);
    printf("index+statistics  %.3f s  (%.1f M events/s)\n", t2 - t1, (double)n / (t2 - t1) / 1e6);
    printf("  cpu             %.3f s user + %.3f s system (wall time includes waiting for a "
           "shared CPU)\n",
           u2 - u1, s2 - s1);
    printf("contexts          %zu\n", ix.context_count);
    printf("calls             %zu\n", ix.call_count);
    printf("statistics rows   %zu\n", ix.stat_count);
    printf("warnings          %zu\n", ix.warnings);
    printf("index memory      %.2f bytes/event (%zu calls with a net time of their own)\n",
           (double)bytes / (double)n, ix.net_count);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    free(rec);
    pv_wi_data_free(&d);
    return 0;
}
