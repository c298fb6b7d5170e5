/* Unit tests for src/formats/winidea/lanes.c through the timeline's lane
 * hooks (docs/model.md "Area lanes"): what a pinned area did in a bucket,
 * at every zoom level, against a brute-force walk over the events; the
 * jumps (next / previous / longest / shortest call); the viewer's cell
 * characters (src/tui/lanes.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/winidea/lanes.h"
#include "formats/winidea/timeline.h"
#include "profview/hooks.h"

/* src/tui/lanes.c (declared in the viewer's private header) */
uint32_t pv_lanes_activity_char(bool fancy, int64_t active, int64_t suspended, int64_t bucket);
int pv_lanes_level(double value, double lo, double hi);

#define FN_F 0x1u
#define FN_G 0x2u
#define FN_H 0x3u
#define VAR 0x20000001u
#define MAX_EV 4000

typedef struct rec {
    uint32_t handle;
    char kind;
    uint64_t value;
    int64_t time;
} rec;

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

/* A random well-nested recording of f, g, h in one context (recursion
 * included), with writes of a variable in between; times never decrease
 * (equal times happen). */
static size_t random_recs(uint64_t seed, rec *out, size_t max, unsigned write_mod)
{
    uint32_t stack[64];
    size_t depth = 0, n = 0;
    bool suspended = false;
    int64_t t = 100;
    while (n + 70 < max) {
        uint64_t r = rng(&seed);
        t += (int64_t)(r % 5);
        if (suspended) { /* the suspended routine resumes */
            out[n++] = (rec){stack[depth - 1], 'R', 0, t};
            suspended = false;
        } else if (depth && (r >> 20) % 9 == 0) {
            out[n++] = (rec){stack[depth - 1], 'S', 0, t};
            suspended = true;
        } else if ((r >> 8) % write_mod == 0) {
            out[n++] = (rec){VAR, 'W', (r >> 12) % 9, t};
        } else if (depth < 60 && (depth == 0 || (r >> 8) % 2 == 0)) {
            static const uint32_t fns[] = {FN_F, FN_G, FN_H};
            uint32_t h = fns[(r >> 16) % 3];
            stack[depth++] = h;
            out[n++] = (rec){h, 'E', 0, t};
        } else {
            out[n++] = (rec){stack[--depth], 'X', 0, t};
        }
    }
    if (suspended)
        out[n++] = (rec){stack[depth - 1], 'R', 0, t += 1};
    while (depth)
        out[n++] = (rec){stack[--depth], 'X', 0, t += 2};
    return n;
}

static pv_file *build(const rec *recs, size_t n)
{
    pv_wi_data *d = calloc(1, sizeof *d);
    pv_wi_data_init(d);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, FN_H, "h", 1);
    pv_wi_add_area(d, VAR, "v", 1);
    for (size_t i = 0; i < n; i++)
        pv_wi_add_event(d, recs[i].handle,
                        recs[i].kind == 'E'   ? PV_WI_ENTRY
                        : recs[i].kind == 'X' ? PV_WI_EXIT
                        : recs[i].kind == 'S' ? PV_WI_SUSPEND
                        : recs[i].kind == 'R' ? PV_WI_RESUME
                                              : PV_WI_WRITE,
                        recs[i].value, recs[i].time);
    pv_file *f = calloc(1, sizeof *f);
    f->path = strdup("lanes.txt");
    pv_diag_init(&f->diag);
    assert_int_equal(pv_wi_build(f, d, NULL), PV_LOAD_OK);
    return f;
}

static const pv_view *timeline(const pv_file *f)
{
    const pv_view *v = pv_set_find_view(f->sets[0], "timeline");
    assert_non_null(v);
    return v;
}

/* Builds the lane of `area` in steps of `budget` units (pv_view_area_build,
 * as the viewer does between key presses): before it is ready the lane
 * answers nothing, the progress never goes back, and it ends ready. */
static void build_lane(const pv_view *v, uint64_t area, size_t budget)
{
    uint64_t done = 0, total = 0, last = 0;
    pv_lane_sample s;
    double lo, hi;
    int rc;
    size_t steps = 0;
    while ((rc = pv_view_area_build(v, area, budget, &done, &total)) == 0) {
        assert_true(done >= last && done < total);
        last = done;
        assert_false(pv_view_area_sample(v, area, INT64_MIN / 4, INT64_MAX / 4, &s));
        assert_false(pv_view_area_value_range(v, area, &lo, &hi));
        assert_true(++steps < 10000000);
    }
    assert_int_equal(rc, 1);
    assert_true(done == total);
    if (budget == 1)
        assert_true(steps > 10); /* it did go in steps */
}

/* Brute force: the state of `fn` in [recs[i].time, recs[i+1].time) from
 * its own events (docs/formats.md §3 activations): 2 from an E or R to an
 * S or X, 1 from an S to the R, 0 outside its calls. */
static void brute_states(const rec *recs, size_t n, uint32_t fn, uint8_t *state)
{
    size_t depth = 0;
    uint8_t st = 0;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].handle == fn) {
            if (recs[i].kind == 'E')
                depth++, st = 2;
            else if (recs[i].kind == 'S')
                st = 1;
            else if (recs[i].kind == 'R')
                st = 2;
            else if (recs[i].kind == 'X')
                depth--, st = depth ? 2 : 0;
        }
        state[i] = st;
    }
}

static void brute_activity(const rec *recs, size_t n, const uint8_t *state, int64_t t0,
                           int64_t t1, int64_t *active, int64_t *suspended)
{
    *active = *suspended = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        int64_t a = recs[i].time > t0 ? recs[i].time : t0;
        int64_t b = recs[i + 1].time < t1 ? recs[i + 1].time : t1;
        if (b <= a)
            continue;
        if (state[i] == 2)
            *active += b - a;
        else if (state[i] == 1)
            *suspended += b - a;
    }
}

/* Every zoom level: the whole recording split into 1, 2, 3, 7, 64, 333 and
 * 1000 buckets, and random windows, each bucket against brute force. */
static void test_activity_every_zoom(void **st)
{
    (void)st;
    static rec recs[MAX_EV];
    static uint8_t state[MAX_EV];
    for (uint64_t seed = 1; seed <= 4; seed++) {
        size_t n = random_recs(seed, recs, MAX_EV, 7);
        pv_file *f = build(recs, n);
        const pv_view *v = timeline(f);
        int64_t first, last;
        assert_true(pv_view_time_span(v, &first, &last));
        assert_int_equal(first, recs[0].time);
        assert_int_equal(last, recs[n - 1].time);
        static const uint32_t fns[] = {FN_F, FN_G, FN_H};
        for (size_t fi = 0; fi < 3; fi++) {
            assert_int_equal(pv_view_area_kind(v, fns[fi]), PV_AREA_LANE_ACTIVITY);
            /* in steps of 1, 7, 1000 units or at once: the same lane */
            static const size_t budgets[] = {1, 7, 1000, SIZE_MAX};
            build_lane(v, fns[fi], budgets[(seed - 1 + fi) % 4]);
            brute_states(recs, n, fns[fi], state);
            static const int64_t widths[] = {1, 2, 3, 7, 64, 333, 1000};
            uint64_t s = seed * 77 + fi;
            for (size_t wi = 0; wi < PV_ARRAY_LEN(widths) + 20; wi++) {
                int64_t w, t0 = first, t1 = last + 1;
                if (wi < PV_ARRAY_LEN(widths)) {
                    w = widths[wi];
                } else { /* a random window, zoomed in */
                    t0 = first + (int64_t)(rng(&s) % (uint64_t)(last - first));
                    t1 = t0 + 1 + (int64_t)(rng(&s) % 500);
                    w = 1 + (int64_t)(rng(&s) % 90);
                }
                for (int64_t b = 0; b < w; b++) {
                    int64_t b0 = t0 + (t1 - t0) * b / w, b1 = t0 + (t1 - t0) * (b + 1) / w;
                    if (b1 <= b0)
                        continue;
                    pv_lane_sample got;
                    assert_true(pv_view_area_sample(v, fns[fi], b0, b1, &got));
                    int64_t active, suspended;
                    brute_activity(recs, n, state, b0, b1, &active, &suspended);
                    if (got.active != active || got.suspended != suspended)
                        fail_msg("seed %d fn %u [%lld, %lld): active %lld/%lld suspended "
                                 "%lld/%lld (got/want)",
                                 (int)seed, fns[fi], (long long)b0, (long long)b1,
                                 (long long)got.active, (long long)active,
                                 (long long)got.suspended, (long long)suspended);
                }
            }
        }
        pv_file_free(f);
    }
}

/* Values: in force at the end of the bucket, the peak, the changes. */
static void test_values_every_zoom(void **st)
{
    (void)st;
    /* over 4096 writes: the peak goes through both block levels */
    static rec recs[10 * MAX_EV];
    size_t n = random_recs(9, recs, 10 * MAX_EV, 2);
    assert_true(n > 3 * 4096);
    pv_file *f = build(recs, n);
    const pv_view *v = timeline(f);
    assert_int_equal(pv_view_area_kind(v, VAR), PV_AREA_LANE_VALUE);
    build_lane(v, VAR, 1);
    double lo = 99, hi = -1, want_lo = 99, want_hi = -1;
    for (size_t i = 0; i < n; i++)
        if (recs[i].handle == VAR) {
            want_lo = (double)recs[i].value < want_lo ? (double)recs[i].value : want_lo;
            want_hi = (double)recs[i].value > want_hi ? (double)recs[i].value : want_hi;
        }
    assert_true(pv_view_area_value_range(v, VAR, &lo, &hi));
    assert_true(lo == want_lo && hi == want_hi);
    int64_t first = recs[0].time, last = recs[n - 1].time;
    static const int64_t widths[] = {1, 3, 64, 700};
    for (size_t wi = 0; wi < PV_ARRAY_LEN(widths); wi++) {
        int64_t w = widths[wi];
        for (int64_t b = 0; b < w; b++) {
            int64_t b0 = first + (last + 1 - first) * b / w;
            int64_t b1 = first + (last + 1 - first) * (b + 1) / w;
            if (b1 <= b0)
                continue;
            bool has = false;
            double value = 0;
            size_t changes = 0;
            for (size_t i = 0; i < n; i++) {
                if (recs[i].handle != VAR || recs[i].time >= b1)
                    continue;
                changes += recs[i].time >= b0;
                has = true;
                value = (double)recs[i].value;
            }
            /* the value in force at b0 counts for the peak too */
            double at0 = -1;
            for (size_t i = 0; i < n; i++)
                if (recs[i].handle == VAR && recs[i].time < b0)
                    at0 = (double)recs[i].value;
            double want_peak = at0;
            for (size_t i = 0; i < n; i++)
                if (recs[i].handle == VAR && recs[i].time >= b0 && recs[i].time < b1 &&
                    (double)recs[i].value > want_peak)
                    want_peak = (double)recs[i].value;
            pv_lane_sample got;
            assert_true(pv_view_area_sample(v, VAR, b0, b1, &got));
            assert_int_equal(got.has_value, has);
            if (!has)
                continue;
            assert_true(got.value == value);
            assert_int_equal(got.changes, changes);
            assert_true(got.peak == want_peak);
            assert_false(got.label.present);
        }
    }
    pv_file_free(f);
}

/* Next / previous call of the row's routine, longest / shortest: against
 * the entries and exits found by walking the events. */
static void test_jumps(void **st)
{
    (void)st;
    static rec recs[MAX_EV];
    size_t n = random_recs(5, recs, MAX_EV, 7);
    pv_file *f = build(recs, n);
    const pv_view *v = timeline(f);
    /* the calls of g: entry row and gross time */
    static size_t entry[MAX_EV];
    static int64_t gross[MAX_EV];
    size_t calls = 0, open[64], depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].kind == 'E') {
            open[depth++] = i;
        } else if (recs[i].kind == 'X') {
            size_t e = open[--depth];
            if (recs[e].handle == FN_G) {
                entry[calls] = e;
                gross[calls++] = recs[i].time - recs[e].time;
            }
        }
    }
    /* sort the calls by entry row (they close inner first) */
    for (size_t a = 1; a < calls; a++)
        for (size_t b = a; b && entry[b - 1] > entry[b]; b--) {
            size_t te = entry[b];
            entry[b] = entry[b - 1];
            entry[b - 1] = te;
            int64_t tg = gross[b];
            gross[b] = gross[b - 1];
            gross[b - 1] = tg;
        }
    assert_true(calls > 10);
    size_t got;
    assert_false(pv_view_area_jump(v, entry[0], PV_JUMP_NEXT, &got)); /* not built yet */
    build_lane(v, FN_G, 1);
    size_t longest = 0, shortest = 0;
    for (size_t k = 1; k < calls; k++) {
        longest = gross[k] > gross[longest] ? k : longest;
        shortest = gross[k] < gross[shortest] ? k : shortest;
    }
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].handle != FN_G)
            continue;
        size_t next = SIZE_MAX, prev = SIZE_MAX;
        for (size_t k = 0; k < calls; k++) {
            if (entry[k] > i && next == SIZE_MAX)
                next = entry[k];
            if (entry[k] < i)
                prev = entry[k];
        }
        assert_int_equal(pv_view_area_jump(v, i, PV_JUMP_NEXT, &got), next != SIZE_MAX);
        if (next != SIZE_MAX)
            assert_int_equal(got, next);
        assert_int_equal(pv_view_area_jump(v, i, PV_JUMP_PREV, &got), prev != SIZE_MAX);
        if (prev != SIZE_MAX)
            assert_int_equal(got, prev);
        assert_true(pv_view_area_jump(v, i, PV_JUMP_LONGEST, &got));
        assert_int_equal(got, entry[longest]);
        assert_true(pv_view_area_jump(v, i, PV_JUMP_SHORTEST, &got));
        assert_int_equal(got, entry[shortest]);
        checked++;
    }
    assert_true(checked > 20);
    pv_file_free(f);
}

/* A state variable whose states have names: the label is the state's name;
 * an unnamed state is a number. */
static void test_state_labels(void **st)
{
    (void)st;
    pv_wi_data *d = calloc(1, sizeof *d);
    pv_wi_data_init(d);
    pv_wi_add_area(d, 0x20000000u, "Mode", 4);
    size_t s0 = pv_wi_add_area(d, 0x30000000u, "IDLE", 4);
    d->areas[s0].has_value = true;
    d->areas[s0].value = 0;
    size_t s1 = pv_wi_add_area(d, 0x30000000u, "RUN", 3);
    d->areas[s1].has_value = true;
    d->areas[s1].value = 1;
    pv_wi_add_event(d, 0x20000000u, PV_WI_WRITE, 1, 10);
    pv_wi_add_event(d, 0x20000000u, PV_WI_WRITE, 0, 20);
    pv_wi_add_event(d, 0x20000000u, PV_WI_WRITE, 1, 30);
    pv_file *f = calloc(1, sizeof *f);
    f->path = strdup("states.txt");
    pv_diag_init(&f->diag);
    assert_int_equal(pv_wi_build(f, d, NULL), PV_LOAD_OK);
    const pv_view *v = timeline(f);
    assert_int_equal(pv_view_area_kind(v, 0x20000000u), PV_AREA_LANE_VALUE);
    build_lane(v, 0x20000000u, SIZE_MAX);
    pv_lane_sample s;
    assert_true(pv_view_area_sample(v, 0x20000000u, 0, 10, &s));
    assert_false(s.has_value);
    assert_true(pv_view_area_sample(v, 0x20000000u, 10, 15, &s));
    assert_true(s.has_value && s.label.present);
    assert_memory_equal(s.label.v.s.ptr, "RUN", 3);
    assert_true(pv_view_area_sample(v, 0x20000000u, 15, 25, &s));
    assert_memory_equal(s.label.v.s.ptr, "IDLE", 4);
    assert_int_equal(s.changes, 1);
    assert_true(pv_view_area_sample(v, 0x20000000u, 0, 31, &s));
    assert_int_equal(s.changes, 3);
    assert_true(s.peak == 1.0);
    /* next change from the first write, the longest (20..30 = 10 > 10..20? equal: first) */
    size_t row;
    assert_true(pv_view_area_jump(v, 0, PV_JUMP_NEXT, &row));
    assert_int_equal(row, 1);
    assert_false(pv_view_area_jump(v, 2, PV_JUMP_NEXT, &row));
    pv_file_free(f);
}

/* The lane built with the areas' event counts (arrays sized once) and
 * without them (arrays grown), in one go and in steps of one unit: the
 * same transitions, values, occurrences, longest and shortest. */
static void test_sized_and_grown(void **st)
{
    (void)st;
    static rec recs[10 * MAX_EV];
    size_t n = random_recs(3, recs, 10 * MAX_EV, 3);
    pv_file *f = build(recs, n);
    (void)timeline(f);
    const pv_timeline_index *ix = pv_wi_file_index(f);
    assert_non_null(ix);
    uint32_t *counts = calloc(ix->area_count, sizeof *counts);
    for (size_t i = 0; i < ix->event_count; i++)
        counts[pv_tl_event_area(ix, i)]++;
    static const uint32_t handles[] = {FN_F, FN_G, FN_H, VAR};
    for (size_t h = 0; h < PV_ARRAY_LEN(handles); h++) {
        pv_wi_lane *a = pv_wi_lane_build(ix, handles[h], NULL);
        pv_wi_lane *b = pv_wi_lane_begin(ix, handles[h], counts);
        assert_non_null(a);
        assert_non_null(b);
        size_t steps = 0;
        while (!pv_wi_lane_step(ix, b, 1))
            steps++;
        assert_true(steps > n); /* one unit at a time: at least the events */
        assert_int_equal(a->n, b->n);
        assert_true(a->n > 10);
        assert_memory_equal(a->time, b->time, a->n * sizeof *a->time);
        if (a->kind == PV_AREA_LANE_ACTIVITY) {
            assert_memory_equal(a->state, b->state, a->n);
            size_t blocks = a->n / PV_WI_LANE_CUM + 1;
            assert_memory_equal(a->cum_active, b->cum_active, blocks * sizeof(int64_t));
            assert_memory_equal(a->cum_suspended, b->cum_suspended, blocks * sizeof(int64_t));
        } else {
            assert_memory_equal(a->value, b->value, a->n * sizeof *a->value);
            assert_memory_equal(a->max1, b->max1, (a->n / PV_WI_LANE_B1 + 1) * sizeof(double));
        }
        assert_int_equal(a->occ_count, b->occ_count);
        assert_memory_equal(a->occ_event, b->occ_event, a->occ_count * sizeof *a->occ_event);
        assert_int_equal(a->longest, b->longest);
        assert_int_equal(a->shortest, b->shortest);
        assert_null(a->job);
        pv_wi_lane_free(a);
        pv_wi_lane_free(b);
    }
    /* an unfinished lane frees cleanly */
    pv_wi_lane_free(pv_wi_lane_begin(ix, FN_G, counts));
    free(counts);
    pv_file_free(f);
}

/* The viewer's cell characters (docs/tui.md "Lane strip"). */
static void test_cell_chars(void **st)
{
    (void)st;
    assert_int_equal(pv_lanes_activity_char(true, 0, 0, 80), ' ');
    assert_int_equal(pv_lanes_activity_char(true, 0, 5, 80), 0x2591);
    assert_int_equal(pv_lanes_activity_char(false, 0, 5, 80), '-');
    assert_int_equal(pv_lanes_activity_char(true, 80, 0, 80), 0x2588);
    assert_int_equal(pv_lanes_activity_char(true, 40, 0, 80), 0x258c); /* half */
    assert_int_equal(pv_lanes_activity_char(true, 1, 0, 80), 0x258f);  /* at least 1/8 */
    assert_int_equal(pv_lanes_activity_char(true, 10, 30, 80), 0x2591); /* mostly suspended */
    assert_int_equal(pv_lanes_activity_char(false, 30, 10, 80), '#');
    assert_int_equal(pv_lanes_level(0, 0, 7), 0);
    assert_int_equal(pv_lanes_level(7, 0, 7), 7);
    assert_int_equal(pv_lanes_level(3, 0, 7), 3);
    assert_int_equal(pv_lanes_level(5, 5, 5), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_activity_every_zoom), cmocka_unit_test(test_values_every_zoom),
        cmocka_unit_test(test_jumps),               cmocka_unit_test(test_state_labels),
        cmocka_unit_test(test_cell_chars),          cmocka_unit_test(test_sized_and_grown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
