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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/winidea/winidea.h"
#include "tui/app.h"
#include "tui/keymap.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double worst_key;

/* key + draw, as one frame; work left to later frames (a scan) is timed
 * per frame too, and its total */
static void frame(pv_app *a, const char *what, const char *keys, int repeat)
{
    double worst = 0, total = 0, scan_total = 0;
    int frames = 0;
    for (int i = 0; i < repeat; i++) {
        double t0 = now();
        for (const char *k = keys; *k; k++)
            pv_app_key(a, (unsigned char)*k);
        pv_app_draw(a);
        for (;;) {
            double dt = now() - t0;
            total += dt;
            frames++;
            if (dt > worst)
                worst = dt;
            if (!pv_app_has_work(a))
                break;
            scan_total += dt;
            t0 = now();
            pv_app_work(a);
            pv_app_draw(a);
        }
    }
    if (worst > worst_key)
        worst_key = worst;
    char name[32];
    snprintf(name, sizeof name, "%s", what);
    name[strcspn(name, "\n")] = '\0';
    printf("  %-14s avg %8.3f ms  worst %8.3f ms  (%d keys, %d frames", name,
           total / frames * 1e3, worst * 1e3, repeat, frames);
    if (frames > repeat)
        printf("; scans %.0f ms in all", scan_total * 1e3);
    printf(")\n");
}

/* From the Explorer cursor's place, moves to the timeline view. */
static void to_timeline(pv_app *a)
{
    pv_app_key(a, PV_KEY_BTAB); /* Report -> Explorer */
    pv_app_key(a, 'g');
    for (int i = 0; i < 6; i++)
        pv_app_key(a, 'j'); /* file, set, 4 views, the timeline */
    pv_app_key(a, PV_KEY_TAB);
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

    /* Index 20% in slices, then time keys in the middle of indexing. */
    double slice_worst = 0, t_index = now();
    size_t slices = 0;
    for (int i = 0; i < 100000 && pv_app_indexing(a); i++) {
        double s0 = now();
        pv_app_index_slice(a);
        double dt = now() - s0;
        slices++;
        if (dt > slice_worst)
            slice_worst = dt;
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
    double finish_worst = 0;
    while (pv_app_indexing(a)) {
        double s0 = now();
        pv_app_index_slice(a);
        double dt = now() - s0;
        slices++;
        if (dt > slice_worst)
            slice_worst = dt;
        if (!pv_app_indexing(a))
            finish_worst = dt;
    }
    printf("index complete: %.3f s in %zu slices, last slice %.3f ms\n", now() - t_index, slices,
           finish_worst * 1e3);
    printf("longest indexing slice: %.3f ms\n", slice_worst * 1e3);
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
    pv_app_free(a);
    return 0;
}
