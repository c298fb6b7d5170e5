/* bench_query.c - how fast the filter and the sort are (docs/quality.md:
 * sorting 1 M rows in < 0.2 s), on generated data:
 *
 *   - a 1 M-row pv_table with a column of every type: filter, sort by a
 *     string, by a time, and by three keys;
 *   - a computed 50 M-row timeline-like view whose area columns are
 *     PV_COL_GROUPED over 1000 areas (model.h row_group): filter by area
 *     name (decided once per area) and by event kind (every row).
 *
 * Usage: bench_query [ROWS [EVENTS]]   (defaults 1000000 and 50000000)
 * Prints one line per measurement: seconds and rows kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profview/query.h"
#include "profview/table.h"

#include "bench_clock.h"

static uint64_t pv_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

/* ---- the 1 M-row table */

enum { T_ID, T_NAME, T_MODULE, T_HITS, T_TIME, T_HANDLE, T_PCT, T_COUNT };
static const pv_column table_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME},
    {"module", "Module", PV_TYPE_STRING, 0},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"pct", "%", PV_TYPE_FLOAT, 0},
};

static pv_view *bench_make_table(size_t rows)
{
    static const char *const modules[] = {"app.exe",       "kernel32.dll", "ntdll.dll", "libfoo.so",
                                          "drivers/can.c", "rtos.c",       "main.c",    "crt0.s"};
    pv_table *t = pv_table_new("routines", "Routines", table_cols, T_COUNT);
    pv_table_reserve(t, rows);
    char name[64];
    for (size_t r = 0; r < rows; r++) {
        uint64_t h = pv_mix(r + 1);
        size_t row = pv_table_add_row(t);
        pv_table_set_int(t, row, T_ID, (int64_t)r);
        snprintf(name, sizeof name, "%s_routine_%06u", (h & 1) ? "Otm" : "task",
                 (unsigned)((h >> 8) % 200000));
        pv_table_set_cstr(t, row, T_NAME, name);
        pv_table_set_cstr(t, row, T_MODULE, modules[(h >> 30) % PV_ARRAY_LEN(modules)]);
        pv_table_set_int(t, row, T_HITS, (int64_t)((h >> 20) % 5000));
        pv_table_set_int(t, row, T_TIME, (int64_t)((h >> 12) % 10000000));
        pv_table_set_uint(t, row, T_HANDLE, 0x10000000u + (uint32_t)((h >> 40) % 4096));
        if ((h >> 50) % 20)
            pv_table_set_float(t, row, T_PCT, (double)((h >> 16) % 10000) / 100.0);
    }
    return pv_table_view(t);
}

/* ---- the 50 M-event grouped view, every cell computed */

#define BENCH_AREAS 1000u
enum { E_ID, E_TIME, E_NAME, E_TYPE, E_HANDLE, E_EVENT, E_COUNT };
static const pv_column event_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"time", "Time", PV_TYPE_TIME, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME | PV_COL_GROUPED},
    {"type", "Type", PV_TYPE_STRING, PV_COL_GROUPED},
    {"handle", "Handle", PV_TYPE_HANDLE, PV_COL_GROUPED},
    {"event", "Event", PV_TYPE_STRING, 0},
};

typedef struct bench_events {
    size_t rows;
    char names[BENCH_AREAS][24];
} bench_events;

static const char *const area_types[] = {"function", "line", "variable", "state", "aux"};
static const char *const event_kinds[] = {"E", "X", "S", "R", "W"};

static uint32_t bench_event_group(const pv_view *v, size_t row)
{
    (void)v;
    return (uint32_t)((row * 2654435761u) % BENCH_AREAS);
}

static size_t bench_event_rows(const pv_view *v)
{
    return ((const bench_events *)v->impl)->rows;
}

static void bench_event_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const bench_events *e = v->impl;
    uint32_t area = bench_event_group(v, row);
    out->type = v->columns[col].type;
    out->present = true;
    switch (col) {
    case E_ID:
        out->v.i = (int64_t)row;
        break;
    case E_TIME:
        out->v.i = (int64_t)row * 20;
        break;
    case E_NAME:
        out->v.s.ptr = e->names[area];
        out->v.s.len = strlen(e->names[area]);
        break;
    case E_TYPE:
        out->v.s.ptr = area_types[area % 5];
        out->v.s.len = strlen(area_types[area % 5]);
        break;
    case E_HANDLE:
        out->v.u = 0x10000000u + area;
        break;
    default:
        out->v.s.ptr = event_kinds[(row ^ (row >> 3)) % 5];
        out->v.s.len = 1;
        break;
    }
}

static void bench_event_destroy(pv_view *v)
{
    free(v->impl);
}

static const pv_view_ops bench_event_ops = {
    bench_event_rows, bench_event_cell, NULL, NULL, bench_event_destroy, bench_event_group,
};

/* ---- measurements */

static void bench_filter(const pv_view *v, const char *expr, pv_row *out)
{
    pv_query_error err;
    double t0 = pv_now(), c0 = pv_cpu();
    pv_filter *f = pv_filter_compile(v, expr, &err);
    if (!f) {
        fprintf(stderr, "bench_query: '%s': %s\n", expr, err.message);
        exit(1);
    }
    size_t n = pv_filter_rows(f, v, NULL, 0, out, NULL);
    double t1 = pv_now(), c1 = pv_cpu();
    pv_filter_free(f);
    printf("filter %10zu rows  %-46s %7.3f s wall %7.3f s cpu  (%zu kept)\n", pv_view_rows(v), expr,
           t1 - t0, c1 - c0, n);
}

static void bench_sort(const pv_view *v, const char *spec, pv_row *rows)
{
    size_t n = pv_view_rows(v);
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t count;
    pv_query_error err;
    if (!pv_sort_parse(v, spec, keys, &count, &err)) {
        fprintf(stderr, "bench_query: sort '%s': %s\n", spec, err.message);
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        rows[i] = (pv_row)i;
    double t0 = pv_now(), c0 = pv_cpu();
    pv_sort_rows(v, keys, count, rows, n);
    double t1 = pv_now(), c1 = pv_cpu();
    /* Check the result so the measurement is of a correct sort. */
    pv_cell a, b;
    for (size_t i = 1; i < n; i++) {
        pv_view_cell(v, rows[i - 1], keys[0].column, &a);
        pv_view_cell(v, rows[i], keys[0].column, &b);
        int c = pv_cell_compare(&a, &b);
        if (keys[0].descending ? c < 0 : c > 0) {
            fprintf(stderr, "bench_query: sort '%s' out of order at %zu\n", spec, i);
            exit(1);
        }
    }
    printf("sort   %10zu rows  %-46s %7.3f s wall %7.3f s cpu\n", n, spec, t1 - t0, c1 - c0);
}

int main(int argc, char **argv)
{
    size_t rows = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    size_t events = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 50000000;

    double t0 = pv_now();
    pv_view *table = bench_make_table(rows);
    printf("build  %10zu rows  %-46s %7.3f s wall\n", rows, "(pv_table, 7 columns)", pv_now() - t0);
    pv_row *out = pv_xmalloc((rows ? rows : 1) * sizeof *out);
    bench_filter(table, "hits > 1k && time < 2.5ms", out);
    bench_filter(table, "otm", out);
    bench_filter(table, "routine ~ /_0012[0-9]+$/ || module like \"*.dll\"", out);
    bench_filter(table, "handle = 0x10000042 || pct >= 99.5", out);
    bench_sort(table, "routine", out);
    bench_sort(table, "time", out);
    bench_sort(table, "hits:desc", out);
    bench_sort(table, "module,hits:desc,routine", out);
    free(out);
    pv_view_free(table);

    bench_events *e = pv_xcalloc(1, sizeof *e);
    e->rows = events;
    for (unsigned a = 0; a < BENCH_AREAS; a++)
        snprintf(e->names[a], sizeof e->names[a], "area_%04u", a);
    pv_view *ev = pv_xcalloc(1, sizeof *ev);
    ev->ops = &bench_event_ops;
    ev->id = "timeline";
    ev->title = "Timeline";
    ev->columns = (pv_column *)event_cols;
    ev->column_count = E_COUNT;
    ev->group_count = BENCH_AREAS;
    ev->impl = e;
    out = pv_xmalloc((events ? events : 1) * sizeof *out);
    bench_filter(ev, "name = area_0042", out);
    bench_filter(ev, "type = state && handle < 0x10000100", out);
    bench_filter(ev, "event = E", out);
    bench_filter(ev, "name ~ /^area_00[0-4]/ && event = X", out);
    free(out);
    bench_event_destroy(ev);
    free(ev);
    return 0;
}
