/* Unit tests for building the winIDEA timeline's index
 * (src/formats/winidea/timeline.c): invariants over garbage, finishing in
 * steps, its memory per event, gross times from the records and the
 * per-event columns that widen. */
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

/* Garbage in: random handles, codes 0..15, times that sometimes go back,
 * W on functions, exits of areas never entered.  The index is built, warns,
 * and keeps its invariants: every call's parent comes before it (pre-order)
 * and lies in the same context; depths stay below the event count. */
static void test_random_events_keep_invariants(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    for (int round = 0; round < 20; round++) {
        pv_wi_data *d = data_new();
        pv_wi_add_context(d, 0x1, "A", 1);
        pv_wi_add_context(d, 0x2, "B", 1);
        size_t n = 500;
        int64_t time = 0;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint32_t r = (uint32_t)(seed >> 33);
            static const uint32_t handles[] = {0x0,         0x1,         0x2,
                                               0x10000000u, 0x20000000u, 0x30000000u,
                                               0x40000000u, 0x50000000u, 0xF0000000u};
            uint32_t h = handles[r % PV_ARRAY_LEN(handles)];
            unsigned kind = (r >> 8) % 16 < 12 ? (r >> 8) % 5 : (r >> 8) % 16;
            time += (int64_t)((r >> 12) % 7) - 1;
            pv_wi_add_event(d, h, kind, (r >> 16) % 3, time);
        }
        if (round % 2) { /* %CONTEXT% with valid, missing and out-of-range indices */
            d->timeline.text_context = malloc(n * sizeof *d->timeline.text_context);
            for (size_t i = 0; i < n; i++)
                d->timeline.text_context[i] = (uint16_t)(i % 4 == 3 ? UINT16_MAX : i % 3);
        }
        pv_timeline_index ix;
        pv_diag diag;
        pv_diag_init(&diag);
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = round % 3 == 0;
        o.from = 50;
        assert_true(pv_timeline_index_build(&ix, d, &o, &diag));
        assert_true(diag.warnings > 0);
        for (size_t k = 0; k < ix.call_count; k++) {
            uint32_t p = ix.call_parent[k];
            if (p == PV_TL_OPEN)
                continue;
            assert_true(p < k);
            uint32_t ek = ix.call_entry[k] & 0x7FFFFFFFu, ep = ix.call_entry[p] & 0x7FFFFFFFu;
            assert_int_equal(pv_tl_event_context(&ix, ek), pv_tl_event_context(&ix, ep));
        }
        for (size_t i = 0; i < n; i++)
            assert_true(pv_tl_event_depth(&ix, i) < n);
        pv_timeline_index_free(&ix);
        pv_diag_free(&diag);
        data_free(d);
    }
}

/* Finishing in small steps (a viewer between key presses) gives exactly the
 * index that one pv_timeline_index_build gives: events, calls (order,
 * parents, times), statistics, warnings. */
static void test_finish_in_steps(void **state)
{
    (void)state;
    for (int round = 0; round < 12; round++) {
        size_t n = 3000;
        pv_wi_data *d1 = random_data(777 + (uint64_t)round, n, round % 2);
        pv_wi_data *d2 = random_data(777 + (uint64_t)round, n, round % 2);
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = round % 3 == 0;
        o.from = 500;
        pv_diag g1, g2;
        pv_diag_init(&g1);
        pv_diag_init(&g2);
        pv_timeline_index a, b;
        assert_true(pv_timeline_index_build(&a, d1, &o, &g1));
        assert_true(pv_timeline_index_begin(&b, d2, &o, &g2));
        size_t budget = 1 + (size_t)round * 7, steps = 0;
        int r;
        while ((r = pv_timeline_index_finish_step(&b, budget)) == 0)
            steps++;
        assert_int_equal(r, 1);
        assert_true(steps > n / budget); /* it did go in steps */
        assert_true(b.complete);
        assert_true(a.call_count > 100);
        assert_same_index(&a, &b);
        assert_int_equal(g1.warnings, g2.warnings);
        assert_int_equal(a.time_decreased, b.time_decreased);
        pv_timeline_index_free(&a);
        pv_timeline_index_free(&b);
        pv_diag_free(&g1);
        pv_diag_free(&g2);
        data_free(d1);
        data_free(d2);
    }
}

/* Finishing in steps gives the big blocks of the finish (the permutation's
 * scratch buffer and places, over 4 MB each at 1.2 M calls) back a few MB
 * per step instead of freeing them in one step (docs/winidea-model.md
 * "Incremental indexing"): the index is the one built in one piece, so no
 * block still read was given back (its pages would read as zeros). */
static pv_wi_data *bare_data(uint64_t seed, size_t n, unsigned cores);

static void test_finish_in_steps_gives_back(void **state)
{
    (void)state;
    size_t n = 2400000;
    pv_wi_data *d = bare_data(5, n, 2);
    pv_tl_options o;
    memset(&o, 0, sizeof o);
    o.single_thread = true;
    pv_diag g1, g2;
    pv_diag_init(&g1);
    pv_diag_init(&g2);
    pv_timeline_index a, b;
    assert_true(pv_timeline_index_build(&a, d, &o, &g1));
    assert_true(pv_timeline_index_begin(&b, d, &o, &g2));
    size_t steps = 0;
    int r;
    while ((r = pv_timeline_index_finish_step(&b, 65536)) == 0)
        steps++;
    assert_int_equal(r, 1);
    assert_true(a.call_count >= (size_t)(4u << 20) / 4); /* blocks of 4 MB or more */
    assert_true(steps > n / 65536);
    assert_same_index(&a, &b);
    pv_timeline_index_free(&a);
    pv_timeline_index_free(&b);
    pv_diag_free(&g1);
    pv_diag_free(&g2);
    data_free(d);
}

/* Nested E/X pairs on `cores` cores (0: no core known, one context
 * Unknown), times never decreasing: one call per two events. */
static pv_wi_data *bare_data(uint64_t seed, size_t n, unsigned cores)
{
    pv_wi_data *d = data_new();
    unsigned depth[4] = {0};
    uint32_t stack[4][32];
    int64_t time = 0;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(seed >> 33);
        unsigned c = cores ? r % cores : 0;
        time += (int64_t)((r >> 4) % 50);
        uint64_t core = cores ? c : 0;
        if (depth[c] == 0 || (depth[c] < 32 && (r >> 10) % 2 == 0)) {
            uint32_t f = (r >> 12) % 64;
            stack[c][depth[c]++] = f;
            pv_wi_add_event(d, f, PV_WI_ENTRY, 0, time);
        } else {
            pv_wi_add_event(d, stack[c][--depth[c]], PV_WI_EXIT, 0, time);
        }
        if (cores) { /* the core of a v1.1 record: bits 4-11 of its flags word */
            unsigned char *w = d->timeline.owned + i * PV_WI_RECORD_SIZE + 4;
            w[0] = (unsigned char)((w[0] & 0xF) | (core & 0xF) << 4);
            w[1] = (unsigned char)(core >> 4);
        }
    }
    return d;
}

/* docs/quality.md: the index costs at most 12 bytes per event beyond the
 * records, also for a bare E/X timeline (one call per two events). */
static void test_memory_bare_timeline(void **state)
{
    (void)state;
    for (unsigned cores = 0; cores <= 2; cores += 2) {
        size_t n = 200000;
        pv_wi_data *d = bare_data(5 + cores, n, cores);
        pv_diag g;
        pv_diag_init(&g);
        pv_timeline_index ix;
        assert_true(pv_timeline_index_build(&ix, d, NULL, &g));
        assert_int_equal(g.warnings, 0);
        /* every E is a call; those still open at the end have no X */
        assert_true(ix.call_count >= n / 2 && ix.call_count <= n / 2 + 64);
        double per_event = (double)pv_timeline_index_memory(&ix) / (double)n;
        assert_true(per_event <= 12.0);
        pv_timeline_index_free(&ix);
        pv_diag_free(&g);
        data_free(d);
    }
}

/* The gross time read from the records (every context runs all the time:
 * the clipped difference of the effective times, those of the events
 * earlier than the one before included) equals the one the statistics
 * computed, kept, with and without a window; so does the net time. */
static void test_gross_from_records(void **state)
{
    (void)state;
    for (int round = 0; round < 8; round++) {
        size_t n = 20000;
        pv_wi_data *d = round % 2   ? random_data(11 + (uint64_t)round, n, false)
                        : round < 4 ? bare_data(11 + (uint64_t)round, n, 2)
                                    : bare_data(11 + (uint64_t)round, n, 0);
        if (round % 2 == 0 && round >= 4) /* the single context Unknown, a time back now and then */
            for (size_t i = 500; i < n; i += 997) {
                unsigned char *r = d->timeline.owned + i * PV_WI_RECORD_SIZE + 16;
                uint64_t t = 0;
                for (int b = 0; b < 8; b++)
                    t |= (uint64_t)r[b - PV_WI_RECORD_SIZE] << (8 * b);
                t -= 7;
                for (int b = 0; b < 8; b++)
                    r[b] = (unsigned char)(t >> (8 * b));
            }
        if (round % 2 && round < 4) { /* random_data's times go back now and then: not here */
            for (size_t i = 0; i < n; i++) {
                unsigned char *r = d->timeline.owned + i * PV_WI_RECORD_SIZE + 16;
                int64_t t = (int64_t)i * 10;
                for (int b = 0; b < 8; b++)
                    r[b] = (unsigned char)((uint64_t)t >> (8 * b));
            }
        }
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = round % 4 >= 2;
        o.from = 30000;
        o.has_to = round % 4 >= 2;
        o.to = 150000;
        pv_tl_options kept = o;
        kept.keep_gross = true;
        pv_diag g1, g2;
        pv_diag_init(&g1);
        pv_diag_init(&g2);
        pv_timeline_index a, b;
        assert_true(pv_timeline_index_build(&a, d, &o, &g1));
        assert_true(pv_timeline_index_build(&b, d, &kept, &g2));
        assert_null(a.call_gross);
        assert_non_null(b.call_gross);
        assert_true(a.call_count > 200);
        if (round >= 4)
            assert_true(a.late_count > 0);
        assert_same_index(&a, &b);
        pv_timeline_index_free(&a);
        pv_timeline_index_free(&b);
        pv_diag_free(&g1);
        pv_diag_free(&g2);
        data_free(d);
    }
}

/* The per-event columns start narrow and widen when a value needs it:
 * 70 000 areas, 300 contexts, depth 300; 256 contexts found by the pass. */
static void test_columns_widen(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    char name[16];
    for (unsigned c = 0; c < 300; c++) {
        int len = snprintf(name, sizeof name, "T%u", c);
        pv_wi_add_context(d, 0x100 + c, name, (size_t)len);
    }
    size_t n = 0;
    int64_t time = 0;
    for (uint32_t f = 0; f < 300; f++) /* depth 0 .. 299 */
        pv_wi_add_event(d, f, PV_WI_ENTRY, 0, time++), n++;
    for (uint32_t f = 300; f-- > 0;)
        pv_wi_add_event(d, f, PV_WI_EXIT, 0, time++), n++;
    for (uint32_t h = 0; h < 70000; h++) /* 70 000 variables, one write each */
        pv_wi_add_event(d, 0x20000000u + h, PV_WI_WRITE, h, time++), n++;
    d->timeline.text_context = malloc(n * sizeof *d->timeline.text_context);
    for (size_t i = 0; i < n; i++)
        d->timeline.text_context[i] = (uint16_t)(i < 600 ? 0 : i % 300);
    /* the entries and exits in context 0; from event 600 on, contexts
     * 0..299 come through %CONTEXT% (data events keep none) */
    pv_diag g;
    pv_diag_init(&g);
    pv_timeline_index ix;
    assert_true(pv_timeline_index_build(&ix, d, NULL, &g));
    assert_true(ix.area_wide);
    assert_true(ix.depth_wide);
    assert_int_equal(ix.call_count, 300);
    for (size_t i = 0; i < 300; i++) {
        assert_int_equal(pv_tl_event_depth(&ix, i), i);
        assert_int_equal(pv_tl_event_depth(&ix, 599 - i), i);
        assert_int_equal(pv_tl_event_context(&ix, i), 0);
    }
    for (size_t i = 600; i < n; i++) {
        assert_int_equal(pv_tl_event_context(&ix, i), PV_TL_NO_CONTEXT);
        assert_int_equal(ix.areas[pv_tl_event_area(&ix, i)].handle, 0x20000000u + (i - 600));
    }
    assert_int_equal(ix.areas[pv_tl_event_area(&ix, 0)].handle, 0);
    pv_timeline_index_free(&ix);
    pv_diag_free(&g);
    data_free(d);

    /* contexts found during the pass: cores 0..254, then Unknown (the 256th) */
    d = data_new();
    for (unsigned c = 0; c < 256; c++) {
        pv_wi_add_event(d, 1, PV_WI_ENTRY, 0, (int64_t)c);
        if (c < 255) {
            unsigned char *w = d->timeline.owned + c * PV_WI_RECORD_SIZE + 4;
            w[0] = (unsigned char)((w[0] & 0xF) | (c & 0xF) << 4);
            w[1] = (unsigned char)(c >> 4);
        }
    }
    pv_diag_init(&g);
    assert_true(pv_timeline_index_build(&ix, d, NULL, &g));
    assert_int_equal(ix.context_count, 256);
    assert_true(ix.context_wide);
    for (size_t i = 0; i < 256; i++) {
        char want[16];
        snprintf(want, sizeof want, "core %zu", i);
        assert_string_equal(ctx_of(&ix, i), i < 255 ? want : "Unknown");
        assert_int_equal(pv_tl_event_depth(&ix, i), 0);
    }
    pv_timeline_index_free(&ix);
    pv_diag_free(&g);
    data_free(d);
}

/* A timeline without events (a Text1 mapping whose BIN is missing) finishes
 * in steps too: the first step ends the pass, the next one completes it
 * (it used to answer "more to do" forever, found by the fuzz replay). */
static void test_finish_in_steps_empty(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_diag g;
    pv_diag_init(&g);
    pv_timeline_index ix;
    assert_true(pv_timeline_index_begin(&ix, d, NULL, &g));
    int r = 0;
    size_t steps = 0;
    while (steps < 10 && (r = pv_timeline_index_finish_step(&ix, 5)) == 0)
        steps++;
    assert_int_equal(r, 1);
    assert_true(ix.complete);
    assert_int_equal(ix.call_count, 0);
    pv_timeline_index_free(&ix);
    pv_diag_free(&g);
    data_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_events_keep_invariants),
        cmocka_unit_test(test_finish_in_steps),
        cmocka_unit_test(test_finish_in_steps_gives_back),
        cmocka_unit_test(test_finish_in_steps_empty),
        cmocka_unit_test(test_memory_bare_timeline),
        cmocka_unit_test(test_gross_from_records),
        cmocka_unit_test(test_columns_widen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
