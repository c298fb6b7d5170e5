/* bench_flame.c - how fast flame graphs and diffs are made (docs/flame.md,
 * docs/diff.md; bars: a flame graph of the 50 M-event timeline ready in
 * < 1 s after the index, a diff of two 1 M-row views in < 0.5 s):
 *
 *   - with FILE: loads it (the whole index), then times the placing of the
 *     frames inside its calls (winIDEA line areas), pv_flame_build over its
 *     call tree (those frames included), the `flame` view (the stacks as text) and a sandwich;
 *   - always: two generated 1 M-row routines-like tables (routine, module,
 *     4 numeric columns; 90% of the keys shared) and their diff.
 *
 * Usage: bench_flame [FILE] [--rows N] [--repeat N]  (--repeat: the flame
 * build N times, for a profiler)
 * Prints one line per measurement: wall and CPU seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profview/diff.h"
#include "profview/flame.h"
#include "profview/hooks.h"
#include "profview/load.h"
#include "profview/table.h"

#include "bench_clock.h"

static pv_view *make_routines(size_t rows, unsigned seed)
{
    static const pv_column cols[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_KEY},
        {"module", "Module", PV_TYPE_STRING, PV_COL_KEY},
        {"hits", "Hits", PV_TYPE_INT, 0},
        {"time", "Time", PV_TYPE_TIME, 0},
        {"time_with_children", "With children", PV_TYPE_TIME, 0},
        {"pct", "%", PV_TYPE_FLOAT, 0},
    };
    pv_table *t = pv_table_new("routines", "Routines", cols, PV_ARRAY_LEN(cols));
    pv_table_reserve(t, rows);
    char name[64];
    uint64_t x = seed;
    for (size_t i = 0; i < rows; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        size_t r = pv_table_add_row(t);
        /* 90% of the names are shared between the two seeds */
        size_t key = (x >> 33) % 10 == 0 ? i + rows * seed : i;
        snprintf(name, sizeof name, "ns%zu::Class%zu::method_%zu", key % 97, key % 1013, key);
        pv_table_set_int(t, r, 0, (int64_t)i);
        pv_table_set_cstr(t, r, 1, name);
        snprintf(name, sizeof name, "module%zu.dll", key % 37);
        pv_table_set_cstr(t, r, 2, name);
        pv_table_set_int(t, r, 3, (int64_t)((x >> 20) % 1000));
        pv_table_set_int(t, r, 4, (int64_t)((x >> 12) % 1000000));
        pv_table_set_int(t, r, 5, (int64_t)((x >> 8) % 10000000));
        pv_table_set_float(t, r, 6, (double)((x >> 40) % 10000) / 100.0);
    }
    return pv_table_view(t);
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    size_t rows = 1000000;
    int repeat = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
            rows = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else
            file = argv[i];
    }
    if (file) {
        pv_load_options o;
        pv_load_options_init(&o);
        pv_load_status st;
        double w0 = pv_now(), c0 = pv_cpu();
        pv_file *f = pv_load_file(file, &o, &st);
        if (st != PV_LOAD_OK || !f->set_count) {
            fprintf(stderr, "bench_flame: %s does not load\n", file);
            return 1;
        }
        pv_view *tree = pv_flame_source(f->sets[0]);
        if (!tree) {
            fprintf(stderr, "bench_flame: %s has no call tree\n", file);
            return 1;
        }
        size_t calls = pv_view_rows(tree); /* finishes the index */
        printf("load + index            %8.3f s wall %8.3f s cpu  (%zu calls)\n", pv_now() - w0,
               pv_cpu() - c0, calls);
        w0 = pv_now(), c0 = pv_cpu();
        pv_view *inner = pv_view_inner_frames(tree); /* winIDEA line areas, placed */
        printf("inner frames (lines)    %8.3f s wall %8.3f s cpu  (%zu frames)\n", pv_now() - w0,
               pv_cpu() - c0, inner ? pv_view_rows(inner) : 0);
        pv_view_free(inner);
        char err[256];
        pv_flame *fl = NULL;
        for (int k = 0; k < (repeat > 0 ? repeat : 1); k++) {
            pv_flame_free(fl);
            w0 = pv_now(), c0 = pv_cpu();
            fl = pv_flame_build(tree, NULL, 0, err, sizeof err);
            if (!fl) {
                fprintf(stderr, "bench_flame: %s\n", err);
                return 1;
            }
            printf("flame build             %8.3f s wall %8.3f s cpu  (%zu nodes)\n",
                   pv_now() - w0, pv_cpu() - c0, fl->count);
        }
        w0 = pv_now(), c0 = pv_cpu();
        pv_view *v = pv_flame_view(fl);
        printf("flame view (stacks)     %8.3f s wall %8.3f s cpu  (%zu rows)\n", pv_now() - w0,
               pv_cpu() - c0, pv_view_rows(v));
        /* the sandwich of the routine with the largest total below a context */
        uint32_t best = PV_FLAME_NONE;
        for (size_t i = 0; i < fl->preorder_count; i++) {
            uint32_t n = fl->preorder[i];
            if (!fl->nodes[n].is_context && fl->nodes[n].depth == 2 &&
                (best == PV_FLAME_NONE || fl->nodes[n].total > fl->nodes[best].total))
                best = n;
        }
        if (best != PV_FLAME_NONE) {
            pv_sandwich s;
            w0 = pv_now(), c0 = pv_cpu();
            pv_sandwich_build(fl, pv_flame_name(fl, best), fl->nodes[best].name_len, NULL, &s);
            printf("sandwich of %-12.12s %8.3f s wall %8.3f s cpu\n", pv_flame_name(fl, best),
                   pv_now() - w0, pv_cpu() - c0);
            pv_sandwich_free(&s);
        }
        pv_view_free(v);
        pv_flame_free(fl);
        pv_file_free(f);
    }
    pv_view *a = make_routines(rows, 1), *b = make_routines(rows, 2);
    double w0 = pv_now(), c0 = pv_cpu();
    char err[256];
    pv_diff_counts counts;
    pv_view *d = pv_diff_views(a, NULL, 0, b, NULL, 0, &counts, err, sizeof err);
    printf("diff of 2 x %zu rows  %8.3f s wall %8.3f s cpu  (%zu matched, %zu a, %zu b)\n", rows,
           pv_now() - w0, pv_cpu() - c0, counts.matched, counts.only_a, counts.only_b);
    pv_view_free(d);
    pv_view_free(a);
    pv_view_free(b);
    return 0;
}
