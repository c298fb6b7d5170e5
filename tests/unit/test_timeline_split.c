/* Unit tests for the winIDEA index built on two threads
 * (docs/winidea-model.md "Speed"): the helper thread and the time split give
 * the index one thread gives, the stitch merges every field, and a cancelled
 * split pass stops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timeline_fixture.h"

#include "profview/hooks.h"

/* Builds d's index with options `o` on one thread and on two (`split`:
 * forced in two halves, the test option index-split=1); asserts that both hold
 * the same, warnings included, and that there are more than `min_calls`
 * calls.  Returns whether the second was built in two halves; *decreased:
 * whether a time decreased. */
static bool same_both_ways(pv_wi_data *d, const pv_tl_options *o, bool split, size_t min_calls,
                           bool *decreased)
{
    pv_tl_options one = *o, two = *o;
    one.single_thread = true;
    two.single_thread = false;
    if (split)
        pv_test_set(&two.test, PV_TEST_INDEX_SPLIT, 1);
    pv_diag g1, g2;
    pv_diag_init(&g1);
    pv_diag_init(&g2);
    pv_timeline_index a, b;
    assert_true(pv_timeline_index_build(&a, d, &one, &g1));
    assert_true(pv_timeline_index_build(&b, d, &two, &g2));
    assert_false(a.halves);
    assert_true(a.call_count > min_calls);
    assert_same_index(&a, &b);
    assert_same_warnings(&g1, &g2);
    bool halves = b.halves;
    *decreased = a.time_decreased;
    pv_timeline_index_free(&a);
    pv_timeline_index_free(&b);
    pv_diag_free(&g1);
    pv_diag_free(&g2);
    return halves;
}

/* A pass of 1 M events or more has a helper thread (docs/winidea-model.md
 * "Speed"): the index equals the one built on one thread, with %CONTEXT%
 * and without, with a window and without. */
static void test_threads_same_index(void **state)
{
    (void)state;
    for (int round = 0; round < 2; round++) {
        size_t n = (1u << 20) + 4096;
        pv_wi_data *d = random_data(99 + (uint64_t)round, n, round == 1);
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = round == 1;
        o.from = 1000;
        bool decreased;
        (void)same_both_ways(d, &o, false, 10000, &decreased);
        data_free(d);
    }
}

/* An RTOS-like timeline for the time split: four tasks switched by a
 * context area (or, `area_mode` false, no context area: v1.1 core
 * contexts), each with a stack of function and line frames suspended and
 * resumed at the switches, writes of a plain and of a state variable, and
 * frames open from before the recording (implicit).  `anomalies` (0-100)
 * adds mismatched and unknown events, handles the mapping does not list,
 * context values that are not CONTEXTS handles, decreasing times,
 * recursion and deep stacks; 2 adds decreasing times only. */
static pv_wi_data *rtos_data(uint64_t seed, size_t n, bool area_mode, unsigned anomalies)
{
    pv_wi_data *d = data_new();
    char name[16];
    for (unsigned f = 0; f < 8; f++) {
        snprintf(name, sizeof name, "f%u", f);
        pv_wi_add_area(d, f, name, strlen(name));
        if (f < 2)
            for (unsigned l = 0; l < 2; l++)
                add_state(d, 0x10000000u + f * 2 + l, 10 * f + l); /* lines: a value */
    }
    pv_wi_add_area(d, 0x20000001u, "v", 1);
    pv_wi_add_area(d, 0x20000002u, "mode", 4);
    for (unsigned m = 0; m < 3; m++)
        add_state(d, 0x30000002u, m);
    if (area_mode) {
        for (unsigned c = 0; c < 4; c++) {
            snprintf(name, sizeof name, "T%u", c);
            pv_wi_add_context(d, 0x10 + c, name, strlen(name));
        }
        pv_wi_add_area(d, 0x20000000u, "Task", 4);
        for (unsigned c = 0; c < 4; c++)
            add_state(d, 0x30000000u, 0x10 + c);
    }
    uint32_t stack[4][300];
    unsigned depth[4];
    unsigned task = 0;
    int64_t time = 1000;
    for (unsigned c = 0; c < 4; c++) { /* open from before: implicit frames */
        depth[c] = 1 + c % 2;
        for (unsigned k = 0; k < depth[c]; k++)
            stack[c][k] = c * 2 + k;
    }
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(seed >> 33);
        unsigned pick = r % 100, c = task;
        bool late = (r >> 8) % 100 < anomalies;
        time += late && (r >> 16) % 5 == 0 ? -3 : (int64_t)((r >> 16) % 9);
        bool odd = late && anomalies != 2; /* 2: decreasing times only */
        if (pick < 8 && area_mode) { /* switch: S the old task's top, W, R the new's */
            unsigned next = (r >> 20) % 4;
            if (depth[c])
                pv_wi_add_event(d, stack[c][depth[c] - 1], PV_WI_SUSPEND, 0, time);
            uint64_t value = odd && anomalies >= 5 && (r >> 24) % 4 == 0 ? 0x99 : 0x10 + next;
            if ((r >> 26) % 2)
                pv_wi_add_event(d, 0x20000000u, PV_WI_WRITE, value, time);
            else
                pv_wi_add_event(d, 0x30000000u, PV_WI_ENTRY, value, time);
            task = next;
            if (depth[next])
                pv_wi_add_event(d, stack[next][depth[next] - 1], PV_WI_RESUME, 0, time);
        } else if (pick < 12) {
            pv_wi_add_event(d, (r >> 20) % 2 ? 0x20000001u : 0x30000002u,
                            (r >> 20) % 2 ? PV_WI_WRITE : PV_WI_ENTRY, (r >> 22) % 3, time);
        } else if (pick < 14) {
            pv_wi_add_event(d, 0x20000002u, PV_WI_WRITE, (r >> 22) % 3, time);
        } else if (odd && pick < 20) {
            static const uint32_t odd_handles[] = {0x3, 0x5, 0x0000FFFFu, 0x1000FFFFu, 0x7};
            unsigned kind = (r >> 20) % 7; /* 5, 6: unknown event codes */
            /* a few: known functions only (the warnings come from both halves) */
            pv_wi_add_event(d, odd_handles[(r >> 24) % (anomalies >= 5 ? 5 : 2)], kind, 0, time);
        } else if (depth[c] == 0 || (pick < 58 && depth[c] < (odd ? 290u : 10u))) {
            uint32_t h = 0;
            for (unsigned f = (r >> 20) % 12, tries = 0; tries < 12; f = (f + 1) % 12, tries++) {
                h = f < 8 ? f : 0x10000000u + (f - 8);
                bool open = false; /* no recursion, unless odd */
                for (unsigned k = 0; k < depth[c]; k++)
                    open |= stack[c][k] == h;
                if (!open)
                    break;
            }
            if (odd && depth[c] && (r >> 24) % 3 == 0)
                h = stack[c][depth[c] - 1]; /* recursion */
            stack[c][depth[c]++] = h;
            pv_wi_add_event(d, h, PV_WI_ENTRY, 0, time);
        } else {
            pv_wi_add_event(d, stack[c][--depth[c]], PV_WI_EXIT, 0, time);
        }
    }
    return d;
}

/* The time split (docs/winidea-model.md "Speed: the timeline in two
 * halves", forced with the test option index-split=1): the index equals the one
 * built on one thread, warnings included, whether the second half's
 * guesses hold (it is stitched on) or not (indexed again); well-formed
 * timelines are stitched. */
static void test_split_same_index(void **state)
{
    (void)state;
    size_t stitched = 0, redone = 0;
    for (int round = 0; round < 48; round++) {
        bool area_mode = round % 4 != 3;
        unsigned anomalies = round < 16 ? 0 : round < 24 ? 2 : round < 32 ? 1 : 20;
        size_t n = 3000 + (size_t)round * 997;
        pv_wi_data *d = rtos_data(7 + (uint64_t)round, n, area_mode, anomalies);
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = round % 5 == 1; /* times grow by 4 per event on average */
        o.from = 1000 + (int64_t)n;
        o.has_to = round % 7 == 2;
        o.to = 1000 + 3 * (int64_t)n;
        /* every other round finishes on two threads too (the positions,
         * the permutation into one new block per thread and the top
         * calls' parents, after the stitch: tl_fc_permute_parallel), as
         * a long timeline does; the one-thread index stays on one */
        if (round % 2)
            pv_test_set(&o.test, PV_TEST_INDEX_THREADS, 2);
        bool decreased;
        bool halves = same_both_ways(d, &o, true, 100, &decreased);
        if ((anomalies == 0 || anomalies == 2) && area_mode)
            assert_true(halves); /* decreasing times included */
        if (anomalies == 2)
            assert_true(decreased);
        if (!area_mode)
            assert_false(halves); /* core contexts: numbered as they appear, no split */
        stitched += halves;
        redone += !halves;
        data_free(d);
    }
    assert_true(stitched >= 18);
    assert_true(redone > 0);
}

/* The stitch of a pass in two halves (docs/winidea-model.md "Speed: the
 * timeline in two halves") merges everything the second half gathered,
 * the BIN version bits included (docs/formats.md §2): a record of the
 * second half, beyond the early reading's records, that contradicts that
 * reading is found in two halves as on one thread: bits 12-31 (not v1.1,
 * not v1.0 either: a warning, the reading kept) and bits 24-27 (v1.0: the
 * version settles and the file is indexed again). */
static void test_split_merges_version_bits(void **state)
{
    (void)state;
    static const uint32_t planted[] = {0x80000000u, 0x01000000u};
    for (size_t round = 0; round < PV_ARRAY_LEN(planted); round++) {
        size_t n = 20000, early = 1000;
        pv_wi_data *d = rtos_data(11, n, true, 0);
        unsigned char *word = d->timeline.owned + (n - 5) * PV_WI_RECORD_SIZE + 4;
        uint32_t w = pv_wi_le32(word) | planted[round];
        for (int b = 0; b < 4; b++)
            word[b] = (unsigned char)(w >> (8 * b));
        pv_tl_options one, two;
        memset(&one, 0, sizeof one);
        one.single_thread = true;
        memset(&two, 0, sizeof two);
        pv_test_set(&two.test, PV_TEST_INDEX_SPLIT, 1);
        pv_diag g1, g2;
        pv_diag_init(&g1);
        pv_diag_init(&g2);
        pv_timeline_index a, b;
        d->timeline.version = 11;
        d->timeline.version_checked = early;
        assert_true(pv_timeline_index_build(&a, d, &one, &g1));
        int settled = d->timeline.version;
        d->timeline.version = 11;
        d->timeline.version_checked = early;
        assert_true(pv_timeline_index_build(&b, d, &two, &g2));
        assert_int_equal(d->timeline.version, settled);
        assert_int_equal(settled, round == 0 ? 11 : 10);
        bool warned = false;
        for (size_t k = 0; k < g1.entry_count; k++)
            warned |= strstr(g1.entries[k].text, round == 0 ? "not a v1.1 record"
                                                             : "v1.0") != NULL;
        assert_true(warned);
        if (round == 0)
            assert_true(b.halves); /* settled: indexed again, on one pass */
        assert_same_index(&a, &b);
        assert_same_warnings(&g1, &g2);
        pv_timeline_index_free(&a);
        pv_timeline_index_free(&b);
        pv_diag_free(&g1);
        pv_diag_free(&g2);
        data_free(d);
    }
}

/* Builds d's index on one thread (a) and forced in two halves (b, the
 * test option index-split=1), with their messages. */
static void build_one_and_split(pv_wi_data *d, pv_timeline_index *a, pv_timeline_index *b,
                                pv_diag *g1, pv_diag *g2)
{
    pv_tl_options one, two;
    memset(&one, 0, sizeof one);
    one.single_thread = true;
    memset(&two, 0, sizeof two);
    pv_test_set(&two.test, PV_TEST_INDEX_SPLIT, 1);
    pv_diag_init(g1);
    pv_diag_init(g2);
    assert_true(pv_timeline_index_build(a, d, &one, g1));
    assert_true(pv_timeline_index_build(b, d, &two, g2));
}

/* The stitch merges the index's own fields by their kinds in
 * PV_TL_INDEX_FIELDS (timeline.h) too: a time that decreases only in the
 * second half is known to the stitched index (time_decreased, its warning,
 * the events of each context: assert_same_index). */
static void test_split_merges_index_fields(void **state)
{
    (void)state;
    size_t n = 40000;
    pv_wi_data *d = rtos_data(13, n, true, 0);
    unsigned char *rec = d->timeline.owned + (n - 7) * PV_WI_RECORD_SIZE;
    uint64_t t = pv_wi_le64(rec - PV_WI_RECORD_SIZE + 16) - 50; /* before the one before */
    for (int b = 0; b < 8; b++)
        rec[16 + b] = (unsigned char)(t >> (8 * b));
    pv_timeline_index a, b;
    pv_diag g1, g2;
    build_one_and_split(d, &a, &b, &g1, &g2);
    assert_true(a.time_decreased);
    assert_true(b.halves);
    assert_same_index(&a, &b);
    assert_same_warnings(&g1, &g2);
    pv_timeline_index_free(&a);
    pv_timeline_index_free(&b);
    pv_diag_free(&g1);
    pv_diag_free(&g2);
    data_free(d);
}

/* Cancelling a pass in two halves (the CLI's Ctrl-C, through the
 * progress): the build stops with the second half stopped too, and frees
 * everything (the sanitizer build checks the leaks). */
static int split_reports;

static void split_cancel_report(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)what;
    (void)total;
    split_reports++;
    if (done >= (1u << 20))
        atomic_store((atomic_int *)user, 1);
}

static void test_split_cancelled(void **state)
{
    (void)state;
    pv_wi_data *d = rtos_data(3, 2300000, true, 0);
    atomic_int cancel;
    atomic_init(&cancel, 0);
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.progress.report = split_cancel_report;
    o.progress.user = &cancel;
    o.progress.cancel = &cancel;
    pv_diag g;
    pv_diag_init(&g);
    pv_timeline_index ix;
    split_reports = 0;
    pv_test_set(&o.test, PV_TEST_INDEX_SPLIT, 1);
    assert_false(pv_timeline_index_build(&ix, d, &o, &g));
    assert_int_equal(split_reports, 1); /* stopped at the first report */
    /* the same timeline in two halves, not cancelled: complete */
    atomic_store(&cancel, 0);
    memset(&o, 0, sizeof o);
    pv_test_set(&o.test, PV_TEST_INDEX_SPLIT, 1);
    assert_true(pv_timeline_index_build(&ix, d, &o, &g));
    assert_true(ix.halves);
    assert_true(ix.complete);
    pv_timeline_index_free(&ix);
    pv_diag_free(&g);
    data_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_same_index),
        cmocka_unit_test(test_split_same_index),
        cmocka_unit_test(test_split_cancelled),
        cmocka_unit_test(test_split_merges_version_bits),
        cmocka_unit_test(test_split_merges_index_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
