/* Unit tests for src/formats/winidea/statistics.c: one test per rule of docs/formats.md §3
 * ("Decision - statistics").  Every expectation is computed by hand in the
 * comment above it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/winidea/timeline.h"

#define MAIN 0x00000000u
#define FN_F 0x00000001u
#define FN_G 0x00000002u
#define FN_H 0x00000003u

typedef struct fixture {
    pv_wi_data d;
    pv_timeline_index ix;
    pv_diag diag;
    bool built;
} fixture;

static fixture *fx_new(void)
{
    fixture *x = calloc(1, sizeof *x);
    pv_wi_data_init(&x->d);
    pv_diag_init(&x->diag);
    pv_wi_add_area(&x->d, MAIN, "main", 4);
    pv_wi_add_area(&x->d, FN_F, "f", 1);
    pv_wi_add_area(&x->d, FN_G, "g", 1);
    pv_wi_add_area(&x->d, FN_H, "h", 1);
    return x;
}

static unsigned kind_of(char k)
{
    switch (k) {
    case 'E':
        return PV_WI_ENTRY;
    case 'S':
        return PV_WI_SUSPEND;
    case 'R':
        return PV_WI_RESUME;
    case 'X':
        return PV_WI_EXIT;
    case 'W':
        return PV_WI_WRITE;
    default:
        return (unsigned)k; /* raw code */
    }
}

static void ev(fixture *x, uint32_t handle, char kind, uint64_t value, int64_t time)
{
    pv_wi_add_event(&x->d, handle, kind_of(kind), value, time);
}

/* Sets the v1.1 core index of event i (bits 4-11 of the flags word). */
static void set_core(fixture *x, size_t i, unsigned core)
{
    unsigned char *r = x->d.timeline.owned + i * PV_WI_RECORD_SIZE;
    uint32_t flags = (r[4] & 0xFu) | (core << 4);
    r[4] = (unsigned char)flags;
    r[5] = (unsigned char)(flags >> 8);
}

static void build(fixture *x, const pv_tl_options *o)
{
    assert_true(pv_timeline_index_build(&x->ix, &x->d, o, &x->diag));
    x->built = true;
}

static void window(fixture *x, int64_t from, int64_t to)
{
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.has_from = o.has_to = true;
    o.from = from;
    o.to = to;
    build(x, &o);
}

static void fx_free(fixture *x)
{
    if (x->built)
        pv_timeline_index_free(&x->ix);
    pv_wi_data_free(&x->d);
    pv_diag_free(&x->diag);
    free(x);
}

static uint16_t ctx(const fixture *x, const char *name)
{
    for (size_t c = 0; c < x->ix.context_count; c++)
        if (strcmp(pv_tl_context_name(&x->ix, (uint16_t)c), name) == 0)
            return (uint16_t)c;
    fail_msg("no context %s", name);
    return 0;
}

static const pv_tl_stat_row *stat(const fixture *x, uint32_t handle, uint64_t value,
                                  uint16_t context)
{
    uint32_t a = pv_timeline_find_area(&x->ix, handle, value);
    assert_int_not_equal(a, PV_WI_NONE);
    const pv_tl_stat_row *r = pv_timeline_find_stat(&x->ix, a, context);
    assert_non_null(r);
    return r;
}

#define T(r, name) ((r)->t[PV_WI_STAT_##name])

/* Suspension by a callee: main E@0, S@10, f E@10 X@30, main R@30 X@50.
 *   main net   = [0,10) + [30,50)          = 10 + 20 = 30
 *   main gross = [0,50) (one context runs) = 50;   call = 50
 *   f net = gross = call = 30 - 10 = 20
 * Both complete: MIN = MAX = the value; AVG = total / 1. */
static void test_suspension_net_gross_call(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, MAIN, 'E', 0, 0);
    ev(x, MAIN, 'S', 0, 10);
    ev(x, FN_F, 'E', 0, 10);
    ev(x, FN_F, 'X', 0, 30);
    ev(x, MAIN, 'R', 0, 30);
    ev(x, MAIN, 'X', 0, 50);
    build(x, NULL);
    uint16_t u = ctx(x, "Unknown");
    const pv_tl_stat_row *m = stat(x, MAIN, 0, u);
    assert_int_equal(m->count, 1);
    assert_int_equal(T(m, NET), 30);
    assert_int_equal(T(m, NET_MIN), 30);
    assert_int_equal(T(m, NET_MAX), 30);
    assert_int_equal(T(m, NET_AVG), 30);
    assert_int_equal(T(m, GROSS), 50);
    assert_int_equal(T(m, GROSS_MAX), 50);
    assert_int_equal(T(m, CALL), 50);
    assert_int_equal(T(m, CALL_AVG), 50);
    /* a single E: no period, no outside interval */
    assert_int_equal(T(m, PERIOD_MIN), 0);
    assert_int_equal(T(m, PERIOD_AVG), 0);
    assert_int_equal(T(m, OUTSIDE), 0);
    const pv_tl_stat_row *f = stat(x, FN_F, 0, u);
    assert_int_equal(f->count, 1);
    assert_int_equal(T(f, NET), 20);
    assert_int_equal(T(f, GROSS), 20);
    assert_int_equal(T(f, CALL), 20);
    assert_int_equal(T(f, CALL_MIN), 20);
    assert_int_equal(x->ix.warnings, 0);
    fx_free(x);
}

/* Preemption by another context through a context area.
 * CONTEXTS TaskA 0x1, TaskB 0x2; variable RunningTask 20000000 with states
 * 30000000 = 1, 2.  A@0: fa E@0; B@10: fb E@10 X@25; A@25: fa X@40.
 *   running(A) = [0,10) + [25,40); running(B) = [10,25)
 *   fa: call = 40, gross = net = |[0,40) ∩ running(A)| = 10 + 15 = 25
 *   fb: call = gross = net = 15
 *   state 1: entries 2, time = [0,10) + [25,40) = 25; state 2: 1 entry, 15
 *   RunningTask: 3 writes. */
static void test_preemption_by_context_area(void **state)
{
    (void)state;
    fixture *x = fx_new();
    pv_wi_add_context(&x->d, 0x1, "TaskA", 5);
    pv_wi_add_context(&x->d, 0x2, "TaskB", 5);
    pv_wi_add_area(&x->d, 0x20000000u, "RunningTask", 11);
    size_t s1 = pv_wi_add_area(&x->d, 0x30000000u, NULL, 0);
    x->d.areas[s1].has_value = true;
    x->d.areas[s1].value = 1;
    size_t s2 = pv_wi_add_area(&x->d, 0x30000000u, NULL, 0);
    x->d.areas[s2].has_value = true;
    x->d.areas[s2].value = 2;
    ev(x, 0x20000000u, 'W', 1, 0);
    ev(x, FN_F, 'E', 0, 0);
    ev(x, 0x20000000u, 'W', 2, 10);
    ev(x, FN_G, 'E', 0, 10);
    ev(x, FN_G, 'X', 0, 25);
    ev(x, 0x20000000u, 'W', 1, 25);
    ev(x, FN_F, 'X', 0, 40);
    build(x, NULL);
    assert_int_equal(x->ix.context_source, PV_TL_CONTEXT_AREA);
    uint16_t a = ctx(x, "TaskA"), b = ctx(x, "TaskB");
    const pv_tl_stat_row *fa = stat(x, FN_F, 0, a);
    assert_int_equal(T(fa, CALL), 40);
    assert_int_equal(T(fa, GROSS), 25);
    assert_int_equal(T(fa, NET), 25);
    assert_int_equal(T(fa, GROSS_MIN), 25);
    const pv_tl_stat_row *fb = stat(x, FN_G, 0, b);
    assert_int_equal(T(fb, CALL), 15);
    assert_int_equal(T(fb, NET), 15);
    /* no f row in TaskB, no g row in TaskA: rows only where events are */
    assert_null(pv_timeline_find_stat(&x->ix, pv_timeline_find_area(&x->ix, FN_F, 0), b));
    const pv_tl_stat_row *st1 = stat(x, 0x30000000u, 1, PV_TL_NO_CONTEXT);
    assert_int_equal(st1->count, 2);
    assert_int_equal(T(st1, NET), 25);
    const pv_tl_stat_row *st2 = stat(x, 0x30000000u, 2, PV_TL_NO_CONTEXT);
    assert_int_equal(st2->count, 1);
    assert_int_equal(T(st2, NET), 15);
    assert_int_equal(stat(x, 0x20000000u, 0, PV_TL_NO_CONTEXT)->count, 3);
    fx_free(x);
}

/* running(c) follows the context area even when %CONTEXT% names the
 * events' contexts (docs/winidea-model.md, "Which context runs"): the area
 * switches to B at 10, but B's first event comes only at 40.
 * CONTEXTS A 0x1, B 0x2; RunningTask 20000000, states 30000000 = 1, 2.
 *   RT=1@0, f E@0 (A), RT=2@10, g X@40 (B: implicit since 0), h E@40 (B),
 *   h X@45 (B), RT=1@50, f X@60 (A).
 *   running(A) = [0,10) + [50,60) = 20;  running(B) = [10,50) = 40
 *   f: call 60, gross = net = 20 (complete: MIN = MAX = 20)
 *   g: call = [0,40) = 40, gross = net = |[0,40) ∩ running(B)| = 30 (cut)
 *   h: call = gross = net = 5
 * (From the latest %CONTEXT% instead, B would run from 40 only: f gross 50,
 * g gross 0.) */
static void test_running_follows_area_with_text_context(void **state)
{
    (void)state;
    fixture *x = fx_new();
    pv_wi_add_context(&x->d, 0x1, "A", 1);
    pv_wi_add_context(&x->d, 0x2, "B", 1);
    pv_wi_add_area(&x->d, 0x20000000u, "RunningTask", 11);
    for (uint64_t v = 1; v <= 2; v++) {
        size_t s = pv_wi_add_area(&x->d, 0x30000000u, NULL, 0);
        x->d.areas[s].has_value = true;
        x->d.areas[s].value = v;
    }
    ev(x, 0x20000000u, 'W', 1, 0);
    ev(x, FN_F, 'E', 0, 0);
    ev(x, 0x20000000u, 'W', 2, 10);
    ev(x, FN_G, 'X', 0, 40);
    ev(x, FN_H, 'E', 0, 40);
    ev(x, FN_H, 'X', 0, 45);
    ev(x, 0x20000000u, 'W', 1, 50);
    ev(x, FN_F, 'X', 0, 60);
    static const uint16_t text[] = {UINT16_MAX, 0, UINT16_MAX, 1, 1, 1, UINT16_MAX, 0};
    x->d.timeline.text_context = malloc(sizeof text);
    memcpy(x->d.timeline.text_context, text, sizeof text);
    build(x, NULL);
    assert_int_equal(x->ix.context_source, PV_TL_CONTEXT_TEXT);
    assert_int_not_equal(x->ix.context_area, PV_WI_NONE);
    uint16_t a = ctx(x, "A"), b = ctx(x, "B");
    const pv_tl_stat_row *f = stat(x, FN_F, 0, a);
    assert_int_equal(f->count, 1);
    assert_int_equal(T(f, CALL), 60);
    assert_int_equal(T(f, GROSS), 20);
    assert_int_equal(T(f, NET), 20);
    assert_int_equal(T(f, GROSS_MIN), 20);
    assert_int_equal(T(f, GROSS_MAX), 20);
    const pv_tl_stat_row *g = stat(x, FN_G, 0, b);
    assert_int_equal(g->count, 0);
    assert_int_equal(T(g, CALL), 40);
    assert_int_equal(T(g, GROSS), 30);
    assert_int_equal(T(g, NET), 30);
    assert_int_equal(T(g, GROSS_MAX), 0); /* cut by the start: not complete */
    const pv_tl_stat_row *h = stat(x, FN_H, 0, b);
    assert_int_equal(T(h, CALL), 5);
    assert_int_equal(T(h, GROSS), 5);
    assert_int_equal(T(h, NET), 5);
    assert_int_equal(x->ix.warnings, 0);
    fx_free(x);
}

/* outside with recursion (docs/formats.md §3, docs/winidea-model.md): an
 * outside interval runs from the X that leaves the area (no activation of it
 * in that context still open) to the next E; inner X of nested activations
 * start none.  As when a BIN without contexts merges several tasks into
 * Unknown: f E@0, f E@10 (nested), f X@20 (inner: f still open), f X@30
 * (leaves f), f E@50, f E@55, f X@60 (inner), f X@70 (leaves), f E@100,
 * f X@110.
 *   outside intervals: 30 -> 50 = 20 and 70 -> 100 = 30 (the inner X@20 and
 *   X@60 start none): total 50, MIN 20, MAX 30, AVG 50 / 2 = 25
 *   periods (E to E): 10, 40, 5, 45: MIN 5, MAX 45, AVG 100 / 4 = 25
 *   count 5; call = |inside| = |[0,30) ∪ [50,70) ∪ [100,110)| = 60 (nested
 *   activations lie inside the outer ones); MIN/MAX over every complete
 *   activation: MIN = [55,60) = 5, MAX = [0,30) = 30 */
static void test_outside_with_recursion(void **state)
{
    (void)state;
    fixture *x = fx_new();
    static const struct { char k; int64_t t; } evs[] = {
        {'E', 0}, {'E', 10}, {'X', 20}, {'X', 30}, {'E', 50},
        {'E', 55}, {'X', 60}, {'X', 70}, {'E', 100}, {'X', 110},
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        ev(x, FN_F, evs[i].k, 0, evs[i].t);
    build(x, NULL);
    const pv_tl_stat_row *f = stat(x, FN_F, 0, ctx(x, "Unknown"));
    assert_int_equal(f->count, 5);
    assert_int_equal(T(f, OUTSIDE), 50);
    assert_int_equal(T(f, OUTSIDE_MIN), 20);
    assert_int_equal(T(f, OUTSIDE_MAX), 30);
    assert_int_equal(T(f, OUTSIDE_AVG), 25);
    assert_int_equal(T(f, PERIOD_MIN), 5);
    assert_int_equal(T(f, PERIOD_MAX), 45);
    assert_int_equal(T(f, PERIOD_AVG), 25);
    assert_int_equal(T(f, CALL), 60);
    assert_int_equal(T(f, CALL_MIN), 5);
    assert_int_equal(T(f, CALL_MAX), 30);
    assert_int_equal(x->ix.warnings, 0);
    fx_free(x);
}

/* Missing entry at the start: g E@10 X@20, f X@30 (implicit), main R@30
 * (implicit, suspended from the start), h E@40 X@50, main X@60.
 * Recording start = 10 (first event).
 *   f:    implicit [10,30): call = gross = net = 20 (active from the start,
 *         first event X); count 0, so AVG 0; not complete: MIN = MAX = 0
 *   main: implicit [10,60): call = gross = 50; net = [30,60) = 30 (suspended
 *         from the start until R)
 *   depths: g 0 0, f X 0 (new implicit frame at the very bottom), main R 0,
 *           h 1 1 (main below), main X 0. */
static void test_missing_entry_implicit_frame(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, FN_G, 'E', 0, 10);
    ev(x, FN_G, 'X', 0, 20);
    ev(x, FN_F, 'X', 0, 30);
    ev(x, MAIN, 'R', 0, 30);
    ev(x, FN_H, 'E', 0, 40);
    ev(x, FN_H, 'X', 0, 50);
    ev(x, MAIN, 'X', 0, 60);
    build(x, NULL);
    uint16_t u = ctx(x, "Unknown");
    const pv_tl_stat_row *f = stat(x, FN_F, 0, u);
    assert_int_equal(f->count, 0);
    assert_int_equal(T(f, CALL), 20);
    assert_int_equal(T(f, NET), 20);
    assert_int_equal(T(f, CALL_MIN), 0);
    assert_int_equal(T(f, CALL_MAX), 0);
    assert_int_equal(T(f, CALL_AVG), 0);
    const pv_tl_stat_row *m = stat(x, MAIN, 0, u);
    assert_int_equal(T(m, CALL), 50);
    assert_int_equal(T(m, GROSS), 50);
    assert_int_equal(T(m, NET), 30);
    assert_int_equal(T(m, NET_MAX), 0);
    static const uint16_t depth[] = {0, 0, 0, 0, 1, 1, 0};
    for (size_t i = 0; i < PV_ARRAY_LEN(depth); i++)
        assert_int_equal(pv_tl_event_depth(&x->ix, i), depth[i]);
    assert_int_equal(x->ix.warnings, 0);
    fx_free(x);
}

/* A call open at the end: main E@0, f E@10 X@20, f E@30, g E@45 (end = 45).
 *   main: cut [0,45): total 45, no complete activation: MIN = MAX = 0,
 *         AVG = 45 / 1 = 45
 *   f: complete [10,20) = 10 and cut [30,45) = 15: total 25,
 *      MIN = MAX = 10, AVG = 25 / 2 = 12 (12.5 rounded down);
 *      period 30 - 10 = 20; outside 30 - 20 = 10
 *   g: [45,45) = 0, count 1. */
static void test_call_open_at_end(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, MAIN, 'E', 0, 0);
    ev(x, FN_F, 'E', 0, 10);
    ev(x, FN_F, 'X', 0, 20);
    ev(x, FN_F, 'E', 0, 30);
    ev(x, FN_G, 'E', 0, 45);
    build(x, NULL);
    uint16_t u = ctx(x, "Unknown");
    const pv_tl_stat_row *m = stat(x, MAIN, 0, u);
    assert_int_equal(T(m, CALL), 45);
    assert_int_equal(T(m, CALL_MIN), 0);
    assert_int_equal(T(m, CALL_MAX), 0);
    assert_int_equal(T(m, CALL_AVG), 45);
    const pv_tl_stat_row *f = stat(x, FN_F, 0, u);
    assert_int_equal(f->count, 2);
    assert_int_equal(T(f, CALL), 25);
    assert_int_equal(T(f, NET), 25);
    assert_int_equal(T(f, CALL_MIN), 10);
    assert_int_equal(T(f, CALL_MAX), 10);
    assert_int_equal(T(f, CALL_AVG), 12);
    assert_int_equal(T(f, NET_AVG), 12);
    assert_int_equal(T(f, PERIOD_MIN), 20);
    assert_int_equal(T(f, PERIOD_MAX), 20);
    assert_int_equal(T(f, PERIOD_AVG), 20);
    assert_int_equal(T(f, OUTSIDE), 10);
    assert_int_equal(T(f, OUTSIDE_AVG), 10);
    const pv_tl_stat_row *g = stat(x, FN_G, 0, u);
    assert_int_equal(g->count, 1);
    assert_int_equal(T(g, CALL), 0);
    assert_int_equal(pv_tl_event_depth(&x->ix, 4), 2); /* main, f below g */
    fx_free(x);
}

/* Equal timestamps: file order is the nesting order.
 * main E@0 S@10, f E@10, g E@10 X@10, f X@10, main R@10 X@20.
 *   g depth 2 (main, f below), f depth 1; f and g complete with 0 ns:
 *   MIN = MAX = 0, count 1; main net = [0,10) + [10,20) = 20. */
static void test_equal_timestamps(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, MAIN, 'E', 0, 0);
    ev(x, MAIN, 'S', 0, 10);
    ev(x, FN_F, 'E', 0, 10);
    ev(x, FN_G, 'E', 0, 10);
    ev(x, FN_G, 'X', 0, 10);
    ev(x, FN_F, 'X', 0, 10);
    ev(x, MAIN, 'R', 0, 10);
    ev(x, MAIN, 'X', 0, 20);
    build(x, NULL);
    uint16_t u = ctx(x, "Unknown");
    assert_int_equal(pv_tl_event_depth(&x->ix, 2), 1);
    assert_int_equal(pv_tl_event_depth(&x->ix, 3), 2);
    assert_int_equal(pv_tl_event_depth(&x->ix, 4), 2);
    assert_int_equal(pv_tl_event_depth(&x->ix, 5), 1);
    const pv_tl_stat_row *g = stat(x, FN_G, 0, u);
    assert_int_equal(g->count, 1);
    assert_int_equal(T(g, CALL), 0);
    assert_int_equal(T(g, CALL_MAX), 0);
    assert_int_equal(T(stat(x, MAIN, 0, u), NET), 20);
    assert_int_equal(x->ix.warnings, 0);
    fx_free(x);
}

/* States, TimelineStates off (W on the variable 20000000 selects the state
 * 30000000 = value): W 0@0, 5@10, 0@15, 5@40; the recording ends at 50.
 *   state 0: 2 entries, [0,10) + [15,40) = 10 + 25 = 35
 *   state 5: 2 entries, [10,15) + [40,50) = 5 + 10 = 15
 *   Mode: 4 writes, net 0. */
static void test_states_count_net(void **state)
{
    (void)state;
    fixture *x = fx_new();
    pv_wi_add_area(&x->d, 0x20000000u, "Mode", 4);
    size_t s0 = pv_wi_add_area(&x->d, 0x30000000u, NULL, 0);
    x->d.areas[s0].has_value = true;
    size_t s5 = pv_wi_add_area(&x->d, 0x30000000u, NULL, 0);
    x->d.areas[s5].has_value = true;
    x->d.areas[s5].value = 5;
    ev(x, 0x20000000u, 'W', 0, 0);
    ev(x, 0x20000000u, 'W', 5, 10);
    ev(x, 0x20000000u, 'W', 0, 15);
    ev(x, 0x20000000u, 'W', 5, 40);
    ev(x, MAIN, 'E', 0, 50);
    build(x, NULL);
    const pv_tl_stat_row *r0 = stat(x, 0x30000000u, 0, PV_TL_NO_CONTEXT);
    assert_int_equal(r0->count, 2);
    assert_int_equal(T(r0, NET), 35);
    assert_int_equal(T(r0, GROSS), 0);
    const pv_tl_stat_row *r5 = stat(x, 0x30000000u, 5, PV_TL_NO_CONTEXT);
    assert_int_equal(r5->count, 2);
    assert_int_equal(T(r5, NET), 15);
    const pv_tl_stat_row *v = stat(x, 0x20000000u, 0, PV_TL_NO_CONTEXT);
    assert_int_equal(v->count, 4);
    assert_int_equal(T(v, NET), 0);
    /* data events never touch the stacks: depth 0, no context */
    assert_int_equal(pv_tl_event_depth(&x->ix, 1), 0);
    assert_int_equal(pv_tl_event_context(&x->ix, 1), PV_TL_NO_CONTEXT);
    fx_free(x);
}

/* States, TimelineStates on (E on 30000000 with the state value):
 * E 1@0, E 2@7, recording end 10: state 1 = 1 entry, 7; state 2 = 1, 3. */
static void test_states_as_entries(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, 0x30000000u, 'E', 1, 0);
    ev(x, 0x30000000u, 'E', 2, 7);
    ev(x, MAIN, 'E', 0, 10);
    build(x, NULL);
    const pv_tl_stat_row *r1 = stat(x, 0x30000000u, 1, PV_TL_NO_CONTEXT);
    assert_int_equal(r1->count, 1);
    assert_int_equal(T(r1, NET), 7);
    const pv_tl_stat_row *r2 = stat(x, 0x30000000u, 2, PV_TL_NO_CONTEXT);
    assert_int_equal(r2->count, 1);
    assert_int_equal(T(r2, NET), 3);
    fx_free(x);
}

/* A variable's writes: Counter (no states) written 3 times, an AUX signal
 * twice: count = writes, every time column 0. */
static void test_variable_writes(void **state)
{
    (void)state;
    fixture *x = fx_new();
    pv_wi_add_area(&x->d, 0x20000001u, "Counter", 7);
    pv_wi_add_area(&x->d, 0x40000000u, "Voltage", 7);
    ev(x, 0x20000001u, 'W', 1, 1);
    ev(x, 0x40000000u, 'W', 7, 2);
    ev(x, 0x20000001u, 'W', 2, 3);
    ev(x, 0x20000001u, 'W', 3, 4);
    ev(x, 0x40000000u, 'W', 8, 9);
    build(x, NULL);
    const pv_tl_stat_row *c = stat(x, 0x20000001u, 0, PV_TL_NO_CONTEXT);
    assert_int_equal(c->count, 3);
    for (size_t k = 0; k < PV_WI_STAT_COUNT; k++)
        assert_int_equal(c->t[k], 0);
    assert_int_equal(stat(x, 0x40000000u, 0, PV_TL_NO_CONTEXT)->count, 2);
    /* no state rows were invented for a variable without states */
    assert_int_equal(x->ix.stat_count, 2);
    fx_free(x);
}

/* Neutral over two cores (contexts run in parallel: running = all the time).
 * core 0: f E@0 X@10, E@20 X@50 -> complete 10, 30; period 20; outside 10
 * core 1: f E@5 X@26, E@40 X@41 -> complete 21, 1; period 35; outside 14
 *   core 0: count 2, net 40, MIN 10, MAX 30, AVG 20
 *   core 1: count 2, net 22, MIN 1,  MAX 21, AVG 11
 *   Neutral: count 4, net 62, MIN = min(10, 1) = 1, MAX = max(30, 21) = 30,
 *            AVG = 62 / 4 = 15 (15.5 down; not the mean of the AVGs, 15.5)
 *            period MIN 20, MAX 35, AVG (20 + 35) / 2 = 27 (27.5 down)
 *            outside total 10 + 14 = 24, MIN 10, MAX 14, AVG 24 / 2 = 12 */
static void test_neutral(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, FN_F, 'E', 0, 0);  /* core 0 */
    ev(x, FN_F, 'E', 0, 5);  /* core 1 */
    ev(x, FN_F, 'X', 0, 10); /* core 0 */
    ev(x, FN_F, 'E', 0, 20); /* core 0 */
    ev(x, FN_F, 'X', 0, 26); /* core 1 */
    ev(x, FN_F, 'E', 0, 40); /* core 1 */
    ev(x, FN_F, 'X', 0, 41); /* core 1 */
    ev(x, FN_F, 'X', 0, 50); /* core 0 */
    static const unsigned core[] = {0, 1, 0, 0, 1, 1, 1, 0};
    for (size_t i = 0; i < PV_ARRAY_LEN(core); i++)
        set_core(x, i, core[i]);
    build(x, NULL);
    assert_int_equal(x->ix.context_source, PV_TL_CONTEXT_CORE);
    const pv_tl_stat_row *c0 = stat(x, FN_F, 0, ctx(x, "core 0"));
    assert_int_equal(c0->count, 2);
    assert_int_equal(T(c0, NET), 40);
    assert_int_equal(T(c0, NET_MIN), 10);
    assert_int_equal(T(c0, NET_MAX), 30);
    assert_int_equal(T(c0, NET_AVG), 20);
    const pv_tl_stat_row *c1 = stat(x, FN_F, 0, ctx(x, "core 1"));
    assert_int_equal(T(c1, NET), 22);
    assert_int_equal(T(c1, NET_MIN), 1);
    assert_int_equal(T(c1, NET_AVG), 11);
    const pv_tl_stat_row *n = stat(x, FN_F, 0, PV_TL_NEUTRAL);
    assert_int_equal(n->count, 4);
    assert_int_equal(T(n, NET), 62);
    assert_int_equal(T(n, NET_MIN), 1);
    assert_int_equal(T(n, NET_MAX), 30);
    assert_int_equal(T(n, NET_AVG), 15);
    assert_int_equal(T(n, GROSS_AVG), 15);
    assert_int_equal(T(n, CALL), 62);
    assert_int_equal(T(n, PERIOD_MIN), 20);
    assert_int_equal(T(n, PERIOD_MAX), 35);
    assert_int_equal(T(n, PERIOD_AVG), 27);
    assert_int_equal(T(n, OUTSIDE), 24);
    assert_int_equal(T(n, OUTSIDE_MIN), 10);
    assert_int_equal(T(n, OUTSIDE_MAX), 14);
    assert_int_equal(T(n, OUTSIDE_AVG), 12);
    fx_free(x);
}

/* Window [25, 65] over f E@0 X@10, E@20 X@30, E@40 X@48, E@60 X@70.
 *   count = E inside: @40, @60 = 2
 *   call = [25,30) + [40,48) + [60,65) = 5 + 8 + 5 = 18 (cut ones add to the
 *          total); MIN = MAX = 8 (only [40,48) is complete); AVG = 18/2 = 9
 *   period: only 40 -> 60 = 20 has both ends inside (20 -> 40 does not)
 *   outside: 30 -> 40 = 10 and 48 -> 60 = 12 (10 -> 20 is outside):
 *            total 22, MIN 10, MAX 12, AVG 11; never clipped. */
static void test_window_clipping(void **state)
{
    (void)state;
    fixture *x = fx_new();
    static const int64_t t[] = {0, 10, 20, 30, 40, 48, 60, 70};
    for (size_t i = 0; i < PV_ARRAY_LEN(t); i++)
        ev(x, FN_F, i % 2 ? 'X' : 'E', 0, t[i]);
    ev(x, FN_G, 'E', 0, 80); /* g lies wholly after the window: no row */
    ev(x, FN_G, 'X', 0, 90);
    window(x, 25, 65);
    assert_null(
        pv_timeline_find_stat(&x->ix, pv_timeline_find_area(&x->ix, FN_G, 0), ctx(x, "Unknown")));
    assert_null(
        pv_timeline_find_stat(&x->ix, pv_timeline_find_area(&x->ix, FN_G, 0), PV_TL_NEUTRAL));
    const pv_tl_stat_row *f = stat(x, FN_F, 0, ctx(x, "Unknown"));
    assert_int_equal(f->count, 2);
    assert_int_equal(T(f, CALL), 18);
    assert_int_equal(T(f, NET), 18);
    assert_int_equal(T(f, GROSS), 18);
    assert_int_equal(T(f, CALL_MIN), 8);
    assert_int_equal(T(f, CALL_MAX), 8);
    assert_int_equal(T(f, CALL_AVG), 9);
    assert_int_equal(T(f, PERIOD_MIN), 20);
    assert_int_equal(T(f, PERIOD_MAX), 20);
    assert_int_equal(T(f, PERIOD_AVG), 20);
    assert_int_equal(T(f, OUTSIDE), 22);
    assert_int_equal(T(f, OUTSIDE_MIN), 10);
    assert_int_equal(T(f, OUTSIDE_MAX), 12);
    assert_int_equal(T(f, OUTSIDE_AVG), 11);
    /* the timeline holds the events at 30, 40, 48, 60: indices 3 .. 6 */
    assert_int_equal(x->ix.window_first, 3);
    assert_int_equal(x->ix.window_end, 7);
    fx_free(x);
}

/* A mismatched X: main E@0, f E@10, main X@20 pops f with a warning naming
 * event 2 and its time.  f: cut at 20, total 10, not complete (MIN 0);
 * main: complete 20. */
static void test_mismatched_exit_warning(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, MAIN, 'E', 0, 0);
    ev(x, FN_F, 'E', 0, 10);
    ev(x, MAIN, 'X', 0, 20);
    build(x, NULL);
    assert_int_equal(x->ix.warnings, 1);
    assert_int_equal(x->diag.warnings, 1);
    assert_non_null(strstr(x->diag.entries[0].text, "event 2 (time 20)"));
    assert_non_null(strstr(x->diag.entries[0].text, "f closed"));
    uint16_t u = ctx(x, "Unknown");
    const pv_tl_stat_row *f = stat(x, FN_F, 0, u);
    assert_int_equal(T(f, CALL), 10);
    assert_int_equal(T(f, CALL_MAX), 0);
    assert_int_equal(T(stat(x, MAIN, 0, u), CALL_MIN), 20);
    assert_int_equal(pv_tl_event_depth(&x->ix, 2), 0);
    fx_free(x);
}

/* Other bad input: an unknown event code and a decreasing time are warned
 * about (event index and time named) and the rest is indexed. */
static void test_bad_events_warn(void **state)
{
    (void)state;
    fixture *x = fx_new();
    ev(x, MAIN, 'E', 0, 0);
    ev(x, FN_F, 9, 0, 5);
    ev(x, FN_F, 'E', 0, 10);
    ev(x, FN_F, 'X', 0, 8); /* decreasing: timed at 10 for the statistics */
    ev(x, MAIN, 'X', 0, 30);
    build(x, NULL);
    assert_int_equal(x->ix.warnings, 2);
    assert_non_null(strstr(x->diag.entries[0].text, "event 1"));
    assert_non_null(strstr(x->diag.entries[0].text, "unknown event code 9"));
    assert_non_null(strstr(x->diag.entries[1].text, "event 3"));
    assert_non_null(strstr(x->diag.entries[1].text, "decreases"));
    uint16_t u = ctx(x, "Unknown");
    assert_int_equal(T(stat(x, FN_F, 0, u), CALL), 0);
    assert_int_equal(T(stat(x, MAIN, 0, u), CALL), 30);
    fx_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suspension_net_gross_call),
        cmocka_unit_test(test_preemption_by_context_area),
        cmocka_unit_test(test_running_follows_area_with_text_context),
        cmocka_unit_test(test_outside_with_recursion),
        cmocka_unit_test(test_missing_entry_implicit_frame),
        cmocka_unit_test(test_call_open_at_end),
        cmocka_unit_test(test_equal_timestamps),
        cmocka_unit_test(test_states_count_net),
        cmocka_unit_test(test_states_as_entries),
        cmocka_unit_test(test_variable_writes),
        cmocka_unit_test(test_neutral),
        cmocka_unit_test(test_window_clipping),
        cmocka_unit_test(test_mismatched_exit_warning),
        cmocka_unit_test(test_bad_events_warn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
