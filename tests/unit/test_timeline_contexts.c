/* Unit tests for the contexts of the winIDEA timeline
 * (src/formats/winidea/timeline.c): from each of the four sources
 * (docs/formats.md §3), --context-area and its detection from the written
 * values, statistics labels, the core index, and implicit frames. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timeline_fixture.h"

#include "profview/hooks.h"

/* (1) %CONTEXT%: each function event names its context; the running
 * context is the one of the latest function event.
 * f E@0 (A), g E@5 (B), g X@8 (B), f X@10 (A):
 *   running(A) = [0,5) + [10,10) -> f gross = 5, call = 10; g gross 3.
 * A line that named no context goes to Unknown. */
static void test_context_from_text(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x0, "A", 1);
    pv_wi_add_context(d, 0x1, "B", 1);
    ev(d, FN_F, 'E', 0, 0);
    ev(d, FN_G, 'E', 0, 5);
    ev(d, FN_G, 'X', 0, 8);
    ev(d, FN_F, 'X', 0, 10);
    ev(d, FN_G, 'E', 0, 12);
    static const uint16_t text[] = {0, 1, 1, 0, UINT16_MAX};
    d->timeline.text_context = malloc(sizeof text);
    memcpy(d->timeline.text_context, text, sizeof text);
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_TEXT);
    assert_string_equal(ctx_of(&ix, 0), "A");
    assert_string_equal(ctx_of(&ix, 1), "B");
    assert_string_equal(ctx_of(&ix, 4), "Unknown");
    assert_int_equal(pv_tl_event_depth(&ix, 1), 0); /* B has its own stack */
    const pv_tl_stat_row *f = pv_timeline_find_stat(&ix, 0, pv_tl_event_context(&ix, 0));
    assert_non_null(f);
    assert_int_equal(f->t[PV_WI_STAT_GROSS], 5);
    assert_int_equal(f->t[PV_WI_STAT_CALL], 10);
    const pv_tl_stat_row *g = pv_timeline_find_stat(&ix, 1, pv_tl_event_context(&ix, 1));
    assert_int_equal(g->t[PV_WI_STAT_GROSS], 3);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* Two state variables whose states all are CONTEXTS handles (A = 1, B = 2):
 * Other (20000005) and Task (20000006).  Events:
 *   Task=1@0, Other=2@0, f E@1, Task=2@2, g E@3, g X@4, Task=1@5, f X@6.
 * With Task: f in A, g in B (depth 0).  With Other: both in B, g depth 1. */
static pv_wi_data *two_context_areas(void)
{
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_wi_add_context(d, 0x2, "B", 1);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, 0x20000005u, "Other", 5);
    add_state(d, 0x30000005u, 1);
    add_state(d, 0x30000005u, 2);
    pv_wi_add_area(d, 0x20000006u, "Task", 4);
    add_state(d, 0x30000006u, 1);
    add_state(d, 0x30000006u, 2);
    ev(d, 0x20000006u, 'W', 1, 0);
    ev(d, 0x20000005u, 'W', 2, 0);
    ev(d, FN_F, 'E', 0, 1);
    ev(d, 0x20000006u, 'W', 2, 2);
    ev(d, FN_G, 'E', 0, 3);
    ev(d, FN_G, 'X', 0, 4);
    ev(d, 0x20000006u, 'W', 1, 5);
    ev(d, FN_F, 'X', 0, 6);
    return d;
}

static void check_context_area(const char *option, const char *f_ctx, const char *g_ctx,
                               unsigned g_depth, size_t warnings)
{
    pv_wi_data *d = two_context_areas();
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.context_area = option;
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, &o, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_AREA);
    assert_string_equal(ctx_of(&ix, 2), f_ctx);
    assert_string_equal(ctx_of(&ix, 4), g_ctx);
    assert_int_equal(pv_tl_event_depth(&ix, 4), g_depth);
    assert_int_equal(diag.warnings, warnings);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* (2) the context area: detected (the first qualifying variable of the
 * mapping: Other), by name, by variable handle, by state handle; an unknown
 * name warns and falls back to detection. */
static void test_context_area_choice(void **state)
{
    (void)state;
    check_context_area(NULL, "B", "B", 1, 0);
    check_context_area("Task", "A", "B", 0, 0);
    check_context_area("Other", "B", "B", 1, 0);
    check_context_area("20000006", "A", "B", 0, 0);
    check_context_area("0x30000006", "A", "B", 0, 0);
    check_context_area("nope", "B", "B", 1, 1);
}

/* (2) detected from the written values when the mapping lists no states:
 * CurrentTask takes 0x1 then 0x2, both CONTEXTS handles; events before the
 * first switch belong to Unknown. */
static void test_context_area_from_writes(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "TSK: one", 8);
    pv_wi_add_context(d, 0x2, "TSK: two", 8);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, 0x20000009u, "CurrentTask", 11);
    pv_wi_add_area(d, 0x2000000Au, "Counter", 7);
    ev(d, FN_F, 'E', 0, 0);
    ev(d, FN_F, 'X', 0, 1);
    ev(d, 0x2000000Au, 'W', 7, 1); /* 7 is not a context: not a candidate */
    ev(d, 0x20000009u, 'W', 1, 2);
    ev(d, FN_F, 'E', 0, 3);
    ev(d, 0x20000009u, 'W', 2, 4);
    ev(d, FN_F, 'E', 0, 5);
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_AREA);
    assert_string_equal(pv_tl_area_name(&ix, ix.context_area), "CurrentTask");
    assert_string_equal(ctx_of(&ix, 0), "Unknown");
    assert_string_equal(ctx_of(&ix, 4), "TSK: one");
    assert_string_equal(ctx_of(&ix, 6), "TSK: two");
    assert_int_equal(pv_tl_event_depth(&ix, 6), 0);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* Decision (docs/winidea-model.md): a flag with states 0 and 1 is not a
 * context area just because CONTEXTS lists handles 0x0 .. 0x4 (2 of 5 <
 * half); named explicitly, it is. */
static void test_context_area_needs_coverage(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    for (unsigned c = 0; c < 5; c++) {
        char name[8];
        snprintf(name, sizeof name, "T%u", c);
        pv_wi_add_context(d, c, name, strlen(name));
    }
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, 0x20000000u, "s_cStatic", 9);
    add_state(d, 0x30000000u, 0);
    add_state(d, 0x30000000u, 1);
    ev(d, 0x20000000u, 'W', 1, 0);
    ev(d, FN_F, 'E', 0, 1);
    ev(d, 0x20000000u, 'W', 0, 2);
    ev(d, FN_F, 'X', 0, 3);
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_UNKNOWN);
    assert_string_equal(ctx_of(&ix, 1), "Unknown");
    pv_timeline_index_free(&ix);
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.context_area = "s_cStatic";
    assert_true(pv_timeline_index_build(&ix, d, &o, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_AREA);
    assert_string_equal(ctx_of(&ix, 1), "T1");
    /* f X at 3 runs in T0 (switched at 2): f's first event there, implicit */
    assert_string_equal(ctx_of(&ix, 3), "T0");
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* docs/formats.md §3: a STATISTICS CONTEXT(...) label matches a CONTEXTS name
 * exactly, or after removing a one-word type prefix. */
static void test_match_context_label(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x0, "extendedTaskFirst", 17);
    pv_wi_add_context(d, 0x1, "ISR: timer", 10);
    assert_int_equal(pv_wi_match_context(d, "extendedTaskFirst"), 0);
    assert_int_equal(pv_wi_match_context(d, "TSK: extendedTaskFirst"), 0);
    assert_int_equal(pv_wi_match_context(d, "ISR: timer"), 1);
    assert_int_equal(pv_wi_match_context(d, "timer"), 1);
    assert_int_equal(pv_wi_match_context(d, "two words: timer"), PV_WI_NONE);
    assert_int_equal(pv_wi_match_context(d, "other"), PV_WI_NONE);
    data_free(d);
}

/* (3) the v1.1 core index, and (4) Unknown for a v1.0 timeline. */
static void test_context_core_and_unknown(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    ev(d, FN_F, 'E', 0, 0);
    ev(d, FN_F, 'E', 0, 1);
    ev(d, FN_F, 'X', 0, 2);
    unsigned char *r = d->timeline.owned;
    r[4] = (unsigned char)(PV_WI_ENTRY | 3u << 4); /* core 3 */
    r[5] = 0;
    r[24 + 4] = (unsigned char)PV_WI_ENTRY; /* core 0 */
    r[24 + 5] = 0;
    /* event 2 keeps core 0xFF: Unknown */
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_CORE);
    assert_string_equal(ctx_of(&ix, 0), "core 3");
    assert_string_equal(ctx_of(&ix, 1), "core 0");
    assert_string_equal(ctx_of(&ix, 2), "Unknown");
    /* f X in Unknown is its first event there: an implicit frame, depth 0 */
    assert_int_equal(pv_tl_event_depth(&ix, 2), 0);
    pv_timeline_index_free(&ix);

    /* the same records as v1.0: event type in bits 24-27, no core */
    for (size_t i = 0; i < d->timeline.count; i++) {
        unsigned char *w = d->timeline.owned + i * PV_WI_RECORD_SIZE + 4;
        unsigned kind = w[0] & 0xFu;
        w[0] = w[1] = w[2] = 0;
        w[3] = (unsigned char)kind;
    }
    d->timeline.version = 10;
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_UNKNOWN);
    assert_int_equal(ix.context_count, 1);
    assert_string_equal(ctx_of(&ix, 0), "Unknown");
    /* f E, f E (recursion), f X: depths 0, 1, 1 */
    assert_int_equal(pv_tl_event_depth(&ix, 1), 1);
    assert_int_equal(pv_tl_event_depth(&ix, 2), 1);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* Implicit frames: a S@0 (implicit, bottom), b E@5 X@6 (depth 1), c S@7
 * (implicit, goes below a: depth 0), a R@8 (a is now at depth 1), a X@9,
 * c R@10, c X@11.  Depths: 0 1 1 0 1 1 0 0. */
static void test_implicit_frame_order(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    ev(d, 0xAu, 'S', 0, 0);
    ev(d, 0xBu, 'E', 0, 5);
    ev(d, 0xBu, 'X', 0, 6);
    ev(d, 0xCu, 'S', 0, 7);
    ev(d, 0xAu, 'R', 0, 8);
    ev(d, 0xAu, 'X', 0, 9);
    ev(d, 0xCu, 'R', 0, 10);
    ev(d, 0xCu, 'X', 0, 11);
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    static const uint16_t depth[] = {0, 1, 1, 0, 1, 1, 0, 0};
    for (size_t i = 0; i < PV_ARRAY_LEN(depth); i++)
        assert_int_equal(pv_tl_event_depth(&ix, i), depth[i]);
    assert_int_equal(diag.warnings, 0);
    /* calls: c (outermost implicit), a (implicit), b; b's parent a, a's c */
    assert_int_equal(ix.call_count, 3);
    assert_string_equal(pv_tl_area_name(&ix, pv_tl_event_area(&ix, ix.call_entry[0] & 0x7FFFFFFFu)),
                        "0x0000000C");
    assert_string_equal(pv_tl_area_name(&ix, pv_tl_event_area(&ix, ix.call_entry[1] & 0x7FFFFFFFu)),
                        "0x0000000A");
    assert_int_equal(ix.call_parent[0], PV_TL_OPEN);
    assert_int_equal(ix.call_parent[1], 0);
    assert_int_equal(ix.call_parent[2], 1);
    /* implicit area entries take their type from the top nibble */
    assert_true(ix.areas[pv_tl_event_area(&ix, 0)].implicit);
    assert_int_equal(ix.areas[pv_tl_event_area(&ix, 0)].type, PV_WI_FUNCTION);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* Written-values detection of the context area over the first 1 M events,
 * confirmed by the whole pass: `early` events of f (E/X pairs), then the
 * writes of Task (0x1, 0x2: both CONTEXTS handles) with a call of g each.
 * The first 1 M events decide no context area; the whole timeline decides
 * Task, so the index is built again, with a warning, and matches an index
 * told the context area from the start. */
static pv_wi_data *late_context_writes(void)
{
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_wi_add_context(d, 0x2, "B", 1);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, 0x20000006u, "Task", 4); /* no states in the mapping */
    int64_t t = 0;
    for (size_t i = 0; i < PV_WI_BIN_EARLY_RECORDS; i += 2) {
        ev(d, FN_F, 'E', 0, t++);
        ev(d, FN_F, 'X', 0, t++);
    }
    ev(d, 0x20000006u, 'W', 1, t++);
    ev(d, FN_G, 'E', 0, t++);
    ev(d, FN_G, 'X', 0, t += 5);
    ev(d, 0x20000006u, 'W', 2, t++);
    ev(d, FN_G, 'E', 0, t++);
    ev(d, FN_G, 'X', 0, t += 7);
    return d;
}

static void test_context_area_late_writes(void **state)
{
    (void)state;
    pv_wi_data *d = late_context_writes();
    size_t n = d->timeline.count;
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_AREA);
    assert_int_equal(diag.warnings, 1);
    assert_non_null(strstr(diag.entries[0].text, "the context area is Task (0x20000006) over "
                                                 "the whole timeline, not none as its first"));
    assert_string_equal(ctx_of(&ix, 0), "Unknown"); /* before the first switch */
    assert_string_equal(ctx_of(&ix, n - 4), "A");
    assert_string_equal(ctx_of(&ix, n - 1), "B");

    /* the same as an index told the context area */
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.context_area = "Task";
    pv_timeline_index told;
    pv_diag told_diag;
    pv_diag_init(&told_diag);
    assert_true(pv_timeline_index_build(&told, d, &o, &told_diag));
    assert_int_equal(told_diag.warnings, 0);
    assert_int_equal(ix.context_count, told.context_count);
    assert_int_equal(ix.call_count, told.call_count);
    assert_int_equal(ix.stat_count, told.stat_count);
    for (size_t r = 0; r < ix.stat_count; r++) {
        assert_int_equal(ix.stats[r].area, told.stats[r].area);
        assert_int_equal(ix.stats[r].context, told.stats[r].context);
        assert_int_equal(ix.stats[r].count, told.stats[r].count);
        assert_memory_equal(ix.stats[r].t, told.stats[r].t, sizeof ix.stats[r].t);
    }
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(pv_tl_event_context(&ix, i), pv_tl_event_context(&told, i));
        assert_int_equal(pv_tl_event_depth(&ix, i), pv_tl_event_depth(&told, i));
    }
    pv_timeline_index_free(&told);
    pv_diag_free(&told_diag);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

/* The other way: Task qualifies over the first 1 M events, then writes a
 * value that is no CONTEXTS handle: over the whole timeline no variable
 * qualifies, so the contexts fall back to Unknown (text records carry no
 * core). */
static void test_context_area_late_disqualified(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_wi_add_context(d, 0x2, "B", 1);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, 0x20000006u, "Task", 4);
    int64_t t = 0;
    ev(d, 0x20000006u, 'W', 1, t++);
    ev(d, 0x20000006u, 'W', 2, t++);
    for (size_t i = 2; i < PV_WI_BIN_EARLY_RECORDS; i += 2) {
        ev(d, FN_F, 'E', 0, t++);
        ev(d, FN_F, 'X', 0, t++);
    }
    ev(d, 0x20000006u, 'W', 9, t++); /* not a CONTEXTS handle */
    ev(d, FN_F, 'E', 0, t++);
    ev(d, FN_F, 'X', 0, t++);
    pv_timeline_index ix;
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &diag));
    assert_int_equal(diag.warnings, 1); /* not the "new context" of the first reading */
    assert_non_null(strstr(diag.entries[0].text, "the context area is none over the whole "
                                                 "timeline, not Task (0x20000006)"));
    assert_true(ix.context_source == PV_TL_CONTEXT_CORE ||
                ix.context_source == PV_TL_CONTEXT_UNKNOWN);
    assert_string_equal(ctx_of(&ix, 2), ctx_of(&ix, d->timeline.count - 1));
    assert_int_equal(ix.context_count, 1);
    pv_timeline_index_free(&ix);
    pv_diag_free(&diag);
    data_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_context_from_text),
        cmocka_unit_test(test_context_area_choice),
        cmocka_unit_test(test_context_area_from_writes),
        cmocka_unit_test(test_context_area_needs_coverage),
        cmocka_unit_test(test_match_context_label),
        cmocka_unit_test(test_context_core_and_unknown),
        cmocka_unit_test(test_implicit_frame_order),
        cmocka_unit_test(test_context_area_late_writes),
        cmocka_unit_test(test_context_area_late_disqualified),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
