/*
 * bench_text1.c - measures the Text1 parser on a generated TIMELINE-heavy
 * file held in memory (docs/quality.md: Text1 parses at 400 MB/s or more).
 *
 *   bench_text1 [MEGABYTES] [--context]
 *
 * Generates a small mapping and a TIMELINE of about MEGABYTES MB (default
 * 256) in the seed's layout (%HANDLE%,%EVENT%,%VALUE%,%TIME%, plus
 * %CONTEXT% with --context), parses it three times and prints the best
 * rate.  Nothing is written to disk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/winidea/parse.h"

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A plausible call pattern: nested calls of 16 functions and their lines,
 * with variable writes, at increasing times. */
static void bench_generate(pv_buf *b, size_t megabytes, bool with_context)
{
    pv_buf_puts(b, "* INFO %TOTAL_TIME%\n123456789\n"
                   "* CONTEXTS %NAME%,%HANDLE%\nTask_A,0x0\nTask_B,0x1\n"
                   "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n");
    for (unsigned f = 0; f < 16; f++)
        pv_buf_printf(b, "%08X,function_%u(int a, int b),\n1%07X,x = f(a, b);,%u\n", f, f, f,
                      100 + f);
    pv_buf_puts(b, "* HANDLE(Data) %HANDLE%,%NAME%,%VALUE%\n20000000,counter,\n");
    pv_buf_puts(b, with_context ? "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n"
                                : "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n");
    size_t target = megabytes << 20;
    int64_t t = 1000;
    unsigned seq = 0;
    char line[96];
    while (b->len < target) {
        unsigned f = seq % 16;
        static const char events[] = "ESRX";
        for (int k = 0; k < 4; k++) {
            int n = with_context
                        ? snprintf(line, sizeof line, "%08X,%c,,%lld,%s\n", f, events[k],
                                   (long long)t, (seq & 64) ? "TSK: Task_B" : "Task_A")
                        : snprintf(line, sizeof line, "%08X,%c,,%lld\n", f, events[k],
                                   (long long)t);
            pv_buf_append(b, line, (size_t)n);
            t += 37 + (seq % 11);
        }
        int n = snprintf(line, sizeof line, "20000000,W,%08X,%lld%s\n", seq, (long long)t,
                         with_context ? "," : "");
        pv_buf_append(b, line, (size_t)n);
        seq++;
    }
}

int main(int argc, char **argv)
{
    size_t megabytes = 256;
    bool with_context = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--context") == 0)
            with_context = true;
        else
            megabytes = (size_t)strtoul(argv[i], NULL, 10);
    }
    if (megabytes == 0)
        megabytes = 1;
    pv_buf text;
    pv_buf_init(&text);
    bench_generate(&text, megabytes, with_context);
    double best = 0;
    size_t events = 0;
    for (int round = 0; round < 3; round++) {
        pv_wi_data d;
        pv_wi_data_init(&d);
        pv_diag diag;
        pv_diag_init(&diag);
        double t0 = bench_now();
        bool ok = pv_wi_parse_text1("bench.txt", (const unsigned char *)text.data, text.len, &d,
                                    &diag);
        double dt = bench_now() - t0;
        if (!ok || diag.warnings || diag.errors) {
            fprintf(stderr, "bench_text1: the parser complained (%zu warnings, %zu errors)\n",
                    diag.warnings, diag.errors);
            return 1;
        }
        double rate = (double)text.len / 1e6 / dt;
        if (rate > best)
            best = rate;
        events = d.timeline.count;
        pv_wi_data_free(&d);
        pv_diag_free(&diag);
    }
    printf("text1: %.1f MB, %zu events, best of 3: %.0f MB/s%s\n", (double)text.len / 1e6,
           events, best, with_context ? " (with %CONTEXT%)" : "");
    pv_buf_free(&text);
    return 0;
}
