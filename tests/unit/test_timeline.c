/* Unit tests for src/formats/winidea/timeline.c and the winIDEA views
 * (src/formats/winidea/views.c): contexts from each of the four sources
 * (docs/formats.md §3), depths, implicit frames, --context-area, and the views
 * read through pv_view_cell. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/winidea/timeline.h"
#include "profview/hooks.h"
#include "profview/load.h"

#define FN_F 0x00000001u
#define FN_G 0x00000002u

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
    default:
        return PV_WI_WRITE;
    }
}

static void ev(pv_wi_data *d, uint32_t handle, char kind, uint64_t value, int64_t time)
{
    pv_wi_add_event(d, handle, kind_of(kind), value, time);
}

static pv_wi_data *data_new(void)
{
    pv_wi_data *d = calloc(1, sizeof *d);
    pv_wi_data_init(d);
    return d;
}

static void data_free(pv_wi_data *d)
{
    pv_wi_data_free(d);
    free(d);
}

static size_t add_state(pv_wi_data *d, uint32_t handle, uint64_t value)
{
    size_t a = pv_wi_add_area(d, handle, NULL, 0);
    d->areas[a].has_value = true;
    d->areas[a].value = value;
    return a;
}

static const char *ctx_of(const pv_timeline_index *ix, size_t event)
{
    return pv_tl_context_name(ix, pv_tl_event_context(ix, event));
}

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

/* ---- views, through pv_view_cell */

static pv_file *file_new(void)
{
    pv_file *f = calloc(1, sizeof *f);
    f->path = strdup("test.txt");
    pv_diag_init(&f->diag);
    return f;
}

static const pv_view *view(const pv_file *f, const char *id)
{
    const pv_view *v = pv_set_find_view(f->sets[0], id);
    assert_non_null(v);
    return v;
}

static int64_t cell_int(const pv_view *v, size_t row, const char *col)
{
    size_t c = pv_view_column(v, col);
    assert_int_not_equal(c, PV_NO_ROW);
    pv_cell cell;
    pv_view_cell(v, row, c, &cell);
    assert_true(cell.present);
    return cell.v.i;
}

static bool cell_present(const pv_view *v, size_t row, const char *col)
{
    pv_cell cell;
    pv_view_cell(v, row, pv_view_column(v, col), &cell);
    return cell.present;
}

static const char *cell_text(const pv_view *v, size_t row, const char *col)
{
    static char text[256];
    size_t c = pv_view_column(v, col);
    assert_int_not_equal(c, PV_NO_ROW);
    pv_cell cell;
    pv_view_cell(v, row, c, &cell);
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(&cell, &b);
    snprintf(text, sizeof text, "%s", pv_buf_cstr(&b));
    pv_buf_free(&b);
    return text;
}

static void has_columns(const pv_view *v, const char *const *ids)
{
    for (size_t i = 0; ids[i]; i++)
        if (pv_view_column(v, ids[i]) == PV_NO_ROW)
            fail_msg("view %s lacks column %s", v->id, ids[i]);
}

/* The missing-entry recording of test_statistics (g E@10 X@20, f X@30,
 * main R@30, h E@40 X@50, main X@60) plus a line, a state variable and
 * exported statistics. */
static pv_file *build_views(void)
{
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x7, "extendedTaskFirst", 17);
    pv_wi_add_area(d, 0x0, "main", 4);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, 0x3u, "h", 1);
    size_t line = pv_wi_add_area(d, 0x10000000u, "x = 1;", 6);
    d->areas[line].has_value = true;
    d->areas[line].value = 52;
    pv_wi_add_area(d, 0x20000000u, "Mode", 4);
    add_state(d, 0x30000000u, 0);
    add_state(d, 0x30000000u, 5);
    ev(d, FN_G, 'E', 0, 10);
    ev(d, FN_G, 'X', 0, 20);
    ev(d, FN_F, 'X', 0, 30);
    ev(d, 0x0, 'R', 0, 30);
    ev(d, 0x20000000u, 'W', 5, 35);
    ev(d, 0x3u, 'E', 0, 40);
    ev(d, 0x3u, 'X', 0, 50);
    ev(d, 0x20000000u, 'W', 0, 55);
    ev(d, 0x0, 'X', 0, 60);
    pv_wi_stat_row *s = pv_wi_add_stat(d);
    s->handle = 0x0;
    s->has_count = true;
    s->count = 1;
    s->present = 1u << PV_WI_STAT_NET;
    s->t[PV_WI_STAT_NET] = 267;
    s = pv_wi_add_stat(d);
    s->handle = FN_F;
    s->context = pv_strpool_add(&d->pool, "TSK: extendedTaskFirst", 22);
    s = pv_wi_add_stat(d);
    s->handle = 0x30000000u;
    s->has_value = true;
    s->value = 5;
    s->area_class = 1;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, NULL), PV_LOAD_OK);
    return f;
}

static void test_views_timeline(void **state)
{
    (void)state;
    pv_file *f = build_views();
    const pv_view *t = view(f, "timeline");
    static const char *const cols[] = {"id",   "index", "time",  "context", "core", "handle",
                                       "name", "event", "value", "depth",   NULL};
    has_columns(t, cols);
    assert_int_equal(pv_view_rows(t), 9);
    static const int64_t depth[] = {0, 0, 0, 0, 0, 1, 1, 0, 0};
    for (size_t r = 0; r < 9; r++)
        assert_int_equal(cell_int(t, r, "depth"), depth[r]);
    assert_string_equal(cell_text(t, 2, "event"), "X");
    assert_string_equal(cell_text(t, 2, "name"), "f");
    assert_string_equal(cell_text(t, 2, "handle"), "0x00000001");
    assert_string_equal(cell_text(t, 4, "value"), "0x5");
    assert_string_equal(cell_text(t, 4, "context"), ""); /* data: no context */
    assert_false(cell_present(t, 0, "value"));
    assert_false(cell_present(t, 0, "core"));
    /* a context area is not detected (state values 0, 5 are not all handles) */
    assert_string_equal(cell_text(t, 0, "context"), "Unknown");
    /* events are grouped by area for filters */
    assert_non_null(t->ops->row_group);
    assert_int_equal(t->ops->row_group(t, 5), t->ops->row_group(t, 6));
    assert_int_not_equal(t->ops->row_group(t, 5), t->ops->row_group(t, 0));
    /* call-stack-at h E (event 5): h, then main */
    pv_view *cs = pv_view_open_detail(t, pv_view_detail_index(t, "call-stack-at"), 5);
    assert_non_null(cs);
    assert_int_equal(pv_view_rows(cs), 2);
    assert_string_equal(cell_text(cs, 0, "routine"), "h");
    assert_string_equal(cell_text(cs, 1, "routine"), "main");
    assert_int_equal(cell_int(cs, 1, "position"), 1);
    pv_view_free(cs);
    /* the statistics of h: Unknown and Neutral */
    pv_view *as = pv_view_open_detail(t, pv_view_detail_index(t, "area-statistics"), 5);
    assert_int_equal(pv_view_rows(as), 2);
    assert_string_equal(cell_text(as, 1, "context"), "Neutral");
    assert_int_equal(cell_int(as, 0, "call"), 10);
    pv_view_free(as);
    pv_file_free(f);
}

/* call-trace: main (implicit, outermost), f (implicit), g (inside f), h
 * (inside main).  time = net, time_with_children = gross (see
 * test_statistics: f 20/20, main 30/50, g 10/10, h 10/10). */
static void test_views_call_trace_routines(void **state)
{
    (void)state;
    pv_file *f = build_views();
    const pv_view *ct = view(f, "call-trace");
    static const char *const cols[] = {"id",    "parent", "call_no", "routine",
                                       "depth", "thread", "time",    "time_with_children",
                                       NULL};
    has_columns(ct, cols);
    assert_true(pv_view_is_tree(ct));
    assert_int_equal(pv_view_rows(ct), 4);
    static const char *const routine[] = {"main", "f", "g", "h"};
    static const char *const parent[] = {"", "1", "2", "1"};
    static const int64_t depth[] = {0, 1, 2, 1};
    static const int64_t net[] = {30, 20, 10, 10};
    static const int64_t gross[] = {50, 20, 10, 10};
    for (size_t r = 0; r < 4; r++) {
        assert_string_equal(cell_text(ct, r, "routine"), routine[r]);
        assert_string_equal(cell_text(ct, r, "parent"), parent[r]);
        assert_int_equal(cell_int(ct, r, "depth"), depth[r]);
        assert_int_equal(cell_int(ct, r, "call_no"), (int64_t)r + 1);
        assert_int_equal(cell_int(ct, r, "time"), net[r]);
        assert_int_equal(cell_int(ct, r, "time_with_children"), gross[r]);
        assert_string_equal(cell_text(ct, r, "thread"), "Unknown");
        assert_int_equal((int64_t)pv_view_depth(ct, r), depth[r]);
    }
    /* the events of g's call: its E and X */
    pv_view *evs = pv_view_open_detail(ct, pv_view_detail_index(ct, "call-events"), 2);
    assert_int_equal(pv_view_rows(evs), 2);
    assert_string_equal(cell_text(evs, 1, "event"), "X");
    pv_view_free(evs);

    const pv_view *rt = view(f, "routines");
    static const char *const rcols[] = {
        "id", "routine", "module", "hits", "time", "time_with_children", NULL};
    has_columns(rt, rcols);
    assert_int_equal(pv_view_rows(rt), 4);
    assert_string_equal(cell_text(rt, 2, "routine"), "g");
    assert_int_equal(cell_int(rt, 2, "hits"), 1);
    assert_int_equal(cell_int(rt, 0, "time_with_children"), 50);
    /* callers of g: f, once, g's time with children 10 */
    pv_view *callers = pv_view_open_detail(rt, pv_view_detail_index(rt, "callers"), 2);
    assert_int_equal(pv_view_rows(callers), 1);
    assert_string_equal(cell_text(callers, 0, "routine"), "f");
    assert_int_equal(cell_int(callers, 0, "hits"), 1);
    assert_int_equal(cell_int(callers, 0, "time"), 10);
    pv_view_free(callers);
    /* callees of main: f and h */
    pv_view *callees = pv_view_open_detail(rt, pv_view_detail_index(rt, "callees"), 0);
    assert_int_equal(pv_view_rows(callees), 2);
    pv_view_free(callees);
    pv_file_free(f);
}

static void test_views_statistics_and_data(void **state)
{
    (void)state;
    pv_file *f = build_views();
    const pv_view *st = view(f, "statistics");
    static const char *const cols[] = {
        "id",          "handle",      "type",       "name",       "value",    "context",
        "count",       "net",         "net_min",    "net_max",    "net_avg",  "gross",
        "gross_min",   "gross_max",   "gross_avg",  "call",       "call_min", "call_max",
        "call_avg",    "period_min",  "period_max", "period_avg", "outside",  "outside_min",
        "outside_max", "outside_avg", NULL};
    has_columns(st, cols);
    /* main, f, g, h: Unknown + Neutral each = 8; Mode, state 5, state 0 = 3 */
    assert_int_equal(pv_view_rows(st), 11);
    assert_string_equal(cell_text(st, 0, "context"), "Unknown");
    assert_string_equal(cell_text(st, 1, "context"), "Neutral");
    assert_string_equal(cell_text(st, 0, "type"), "function");
    assert_int_equal(cell_int(st, 0, "net"), 30);
    size_t state_rows = 0;
    for (size_t r = 0; r < pv_view_rows(st); r++)
        if (strcmp(cell_text(st, r, "type"), "state") == 0) {
            state_rows++;
            assert_string_equal(cell_text(st, r, "context"), "");
            /* state 5 from 35 to 55 = 20; state 0 from 55 to the end 60 = 5 */
            int64_t want = strcmp(cell_text(st, r, "value"), "0x5") == 0 ? 20 : 5;
            assert_int_equal(cell_int(st, r, "net"), want);
        }
    assert_int_equal(state_rows, 2);

    /* details: main's calls in Unknown (one, net 30); Mode state 5's history */
    pv_view *calls = pv_view_open_detail(st, pv_view_detail_index(st, "area-calls"), 0);
    assert_int_equal(pv_view_rows(calls), 1);
    assert_int_equal(cell_int(calls, 0, "time"), 30);
    assert_int_equal(cell_int(calls, 0, "call_time"), 50);
    pv_view_free(calls);
    size_t last = pv_view_rows(st) - 1; /* areas in mapping order: state 5 is last */
    assert_string_equal(cell_text(st, last, "value"), "0x5");
    pv_view *hist = pv_view_open_detail(st, pv_view_detail_index(st, "value-history"), last);
    assert_int_equal(pv_view_rows(hist), 1);
    assert_int_equal(cell_int(hist, 0, "duration"), 20);
    pv_view_free(hist);
    assert_null(pv_view_open_detail(st, pv_view_detail_index(st, "value-history"), 0));

    const pv_view *ex = view(f, "statistics-exported");
    has_columns(ex, cols);
    assert_int_equal(pv_view_rows(ex), 3);
    assert_string_equal(cell_text(ex, 0, "context"), "Unknown");
    assert_int_equal(cell_int(ex, 0, "net"), 267);
    assert_false(cell_present(ex, 0, "gross")); /* not in the file */
    assert_string_equal(cell_text(ex, 1, "context"), "extendedTaskFirst");
    assert_string_equal(cell_text(ex, 2, "context"), "");
    assert_string_equal(cell_text(ex, 2, "value"), "0x5");

    const pv_view *lines = view(f, "lines");
    static const char *const lcols[] = {"id", "handle", "name", "line", "function", NULL};
    has_columns(lines, lcols);
    assert_int_equal(pv_view_rows(lines), 1);
    assert_int_equal(cell_int(lines, 0, "line"), 52);
    assert_string_equal(cell_text(lines, 0, "function"), "h");

    const pv_view *data = view(f, "data");
    static const char *const dcols[] = {"id", "handle", "type", "name", "value", NULL};
    has_columns(data, dcols);
    assert_int_equal(pv_view_rows(data), 3);
    assert_string_equal(cell_text(data, 2, "type"), "state");
    assert_string_equal(cell_text(data, 2, "name"), "Mode");
    pv_view *vh = pv_view_open_detail(data, pv_view_detail_index(data, "value-history"), 2);
    assert_int_equal(pv_view_rows(vh), 1);
    assert_int_equal(cell_int(vh, 0, "time"), 35);
    assert_int_equal(cell_int(vh, 0, "duration"), 20);
    pv_view_free(vh);

    const pv_view *ctx = view(f, "contexts");
    static const char *const ccols[] = {"id", "handle", "name", NULL};
    has_columns(ctx, ccols);
    assert_int_equal(pv_view_rows(ctx), 1);
    pv_file_free(f);
}

/* --from/--to: the timeline holds only the events in the window. */
static void test_views_window(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    static const int64_t t[] = {0, 10, 20, 30, 40, 48, 60, 70};
    for (size_t i = 0; i < PV_ARRAY_LEN(t); i++)
        ev(d, FN_F, i % 2 ? 'X' : 'E', 0, t[i]);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    o.has_from = o.has_to = true;
    o.from = 25;
    o.to = 65;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    const pv_view *tl = view(f, "timeline");
    assert_int_equal(pv_view_rows(tl), 4);
    assert_int_equal(cell_int(tl, 0, "index"), 3);
    assert_int_equal(cell_int(tl, 0, "time"), 30);
    /* calls overlapping [25, 65]: those entered at 20, 40, 60 */
    assert_int_equal(pv_view_rows(view(f, "call-trace")), 3);
    pv_file_free(f);
}

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

/* Deferred indexing (cat): the first events are read after indexing only a
 * prefix; any other view finishes the index, with the same numbers as an
 * eager load. */
static void test_views_deferred_index(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    for (int i = 0; i < 200000; i++) /* f E/X pairs, 10 ns apart */
        ev(d, FN_F, i % 2 ? 'X' : 'E', 0, (int64_t)i * 10);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    o.defer_index = true;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    const pv_timeline_index *ix = pv_wi_file_index(f);
    assert_non_null(ix);
    const pv_view *tl = view(f, "timeline");
    assert_int_equal(pv_view_rows(tl), 200000);
    assert_int_equal(cell_int(tl, 1, "depth"), 0);
    assert_false(ix->complete);
    assert_true(ix->indexed < 200000);
    assert_string_equal(pv_file_index_unit(f), "events"); /* the viewer's "M events/s" */
    const pv_view *st = view(f, "statistics");
    assert_int_equal(pv_view_rows(st), 2); /* f in Unknown, Neutral */
    assert_true(ix->complete);
    /* 100000 calls of 10 ns each */
    assert_int_equal(cell_int(st, 0, "count"), 100000);
    assert_int_equal(cell_int(st, 0, "call"), 1000000);
    assert_int_equal(cell_int(st, 0, "call_max"), 10);
    assert_int_equal(pv_view_rows(view(f, "call-trace")), 100000);
    assert_int_equal(pv_view_rows(view(f, "routines")), 1);
    pv_file_free(f);
}

/* Random events of test_random_events_keep_invariants' kind, `n` of them. */
static pv_wi_data *random_data(uint64_t seed, size_t n, bool text_context)
{
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_wi_add_context(d, 0x2, "B", 1);
    int64_t time = 0;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(seed >> 33);
        static const uint32_t handles[] = {0x0,         0x1,         0x2,
                                           0x10000000u, 0x20000000u, 0x30000000u,
                                           0x40000000u, 0x50000000u, 0xF0000000u};
        uint32_t h = handles[r % PV_ARRAY_LEN(handles)];
        unsigned kind = (r >> 8) % 16 < 13 ? (r >> 8) % 4 : (r >> 8) % 16;
        time += (int64_t)((r >> 12) % 7) - 1;
        pv_wi_add_event(d, h, kind, (r >> 16) % 3, time);
    }
    if (text_context) {
        d->timeline.text_context = malloc(n * sizeof *d->timeline.text_context);
        for (size_t i = 0; i < n; i++)
            d->timeline.text_context[i] = (uint16_t)(i % 4 == 3 ? UINT16_MAX : i % 3);
    }
    return d;
}

/* Two indexes hold the same: every event's area, context and depth, every
 * call (order, entry, exit, parent, net and gross time), the events of
 * every context, every line activation, every statistics row. */
static void assert_same_index(const pv_timeline_index *a, const pv_timeline_index *b)
{
    assert_int_equal(a->event_count, b->event_count);
    for (size_t i = 0; i < a->event_count; i++) {
        assert_int_equal(pv_tl_event_area(a, i), pv_tl_event_area(b, i));
        assert_int_equal(pv_tl_event_context(a, i), pv_tl_event_context(b, i));
        assert_int_equal(pv_tl_event_depth(a, i), pv_tl_event_depth(b, i));
    }
    assert_int_equal(a->call_count, b->call_count);
    for (size_t k = 0; k < a->call_count; k++) {
        assert_int_equal(a->call_entry[k], b->call_entry[k]);
        assert_int_equal(a->call_exit[k], b->call_exit[k]);
        assert_int_equal(a->call_parent[k], b->call_parent[k]);
        assert_int_equal(pv_timeline_call_net(a, k), pv_timeline_call_net(b, k));
        assert_int_equal(pv_timeline_call_gross(a, k), pv_timeline_call_gross(b, k));
    }
    assert_int_equal(a->context_count, b->context_count);
    for (size_t c = 0; c < a->context_count; c++)
        assert_int_equal(a->contexts[c].events, b->contexts[c].events);
    assert_memory_equal(a->context_call_start, b->context_call_start,
                        (a->context_count + 1) * sizeof *a->context_call_start);
    assert_int_equal(a->line_count, b->line_count);
    for (size_t k = 0; k < a->line_count; k++) {
        assert_int_equal(a->line_entry[k], b->line_entry[k]);
        assert_int_equal(a->line_net[k], b->line_net[k]);
    }
    assert_int_equal(a->stat_count, b->stat_count);
    for (size_t k = 0; k < a->stat_count; k++) {
        assert_int_equal(a->stats[k].area, b->stats[k].area);
        assert_int_equal(a->stats[k].context, b->stats[k].context);
        assert_int_equal(a->stats[k].count, b->stats[k].count);
        assert_memory_equal(a->stats[k].t, b->stats[k].t, sizeof a->stats[k].t);
    }
    assert_int_equal(a->warnings, b->warnings);
    assert_int_equal(a->time_decreased, b->time_decreased);
    assert_int_equal(a->time_last, b->time_last);
}

/* Two builds gave the same warnings, in the same order. */
static void assert_same_warnings(const pv_diag *a, const pv_diag *b)
{
    assert_int_equal(a->warnings, b->warnings);
    assert_int_equal(a->entry_count, b->entry_count);
    for (size_t k = 0; k < a->entry_count; k++)
        assert_string_equal(a->entries[k].text, b->entries[k].text);
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
        bool decreased;
        bool halves = same_both_ways(d, &o, true, 100, &decreased);
        if ((anomalies == 0 || anomalies == 2) && area_mode)
            assert_true(halves); /* decreasing times included: the gross times are kept */
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

/* The gross time read from the records (every context runs all the time,
 * no time decreases) equals the one the statistics computed, kept, with
 * and without a window; so does the net time. */
static void test_gross_from_records(void **state)
{
    (void)state;
    for (int round = 0; round < 4; round++) {
        size_t n = 20000;
        pv_wi_data *d = round % 2 ? random_data(11 + (uint64_t)round, n, false)
                                  : bare_data(11 + (uint64_t)round, n, 2);
        if (round % 2) { /* random_data's times go back now and then: not here */
            for (size_t i = 0; i < n; i++) {
                unsigned char *r = d->timeline.owned + i * PV_WI_RECORD_SIZE + 16;
                int64_t t = (int64_t)i * 10;
                for (int b = 0; b < 8; b++)
                    r[b] = (unsigned char)((uint64_t)t >> (8 * b));
            }
        }
        pv_tl_options o;
        memset(&o, 0, sizeof o);
        o.has_from = round >= 2;
        o.from = 30000;
        o.has_to = round >= 2;
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
        assert_true(a.call_count > 500);
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

/* Every row and cell of a view, as `cat` writes them (exact values). */
static char *view_text(const pv_view *v)
{
    pv_buf b;
    pv_buf_init(&b);
    for (size_t row = 0; row < pv_view_rows(v); row++) {
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell x;
            pv_view_cell(v, row, c, &x);
            if (x.present)
                pv_cell_format_exact(&x, &b);
            pv_buf_putc(&b, '\t');
        }
        pv_buf_putc(&b, '\n');
    }
    pv_buf_putc(&b, '\0');
    return b.data; /* the caller frees it */
}

/* Opens detail d of `row` in two views of the same data (one from a scan,
 * one from the viewer's lists) and asserts that both have it or neither,
 * reading the same.  Returns whether they have it (*x and *y then for the
 * caller to free). */
static bool open_same_detail(const pv_view *a, const pv_view *b, size_t d, size_t row, pv_view **x,
                             pv_view **y)
{
    *x = pv_view_open_detail(a, d, row);
    *y = pv_view_open_detail(b, d, row);
    assert_int_equal(*x != NULL, *y != NULL);
    if (!*x)
        return false;
    char *tx = view_text(*x), *ty = view_text(*y);
    assert_string_equal(tx, ty);
    free(tx);
    free(ty);
    return true;
}

/* docs/winidea-model.md "The viewer's area lists": a viewer's details (the
 * calls of a statistics row, the value history of a data area or of a
 * state, a routine's callers and callees) read the lists built after its
 * index; they equal the details of a load that scans (the CLI's), on every
 * sample, whole and in a window. */
static void test_viewer_detail_lists(void **state)
{
    (void)state;
    const char *samples[] = {"rtos.txt", "rtos-v11.txt", "rtos-ctx.txt", "rtos-v10.txt"};
    size_t compared = 0, listed_rows = 0;
    for (size_t s = 0; s < 2 * sizeof samples / sizeof *samples; s++) {
        char path[512];
        snprintf(path, sizeof path, "%s/sample-data/%s", PV_SOURCE_DIR, samples[s / 2]);
        pv_load_options o;
        pv_load_options_init(&o);
        if (s % 2) { /* a window */
            o.has_from = o.has_to = true;
            o.from = 20000;
            o.to = 150000;
        }
        pv_load_status st;
        pv_file *scan = pv_load_file(path, &o, &st);
        assert_int_equal(st, PV_LOAD_OK);
        o.defer_index = true;
        pv_file *viewer = pv_load_file(path, &o, &st);
        assert_int_equal(st, PV_LOAD_OK);
        while (!pv_file_index_step(viewer, 100))
            ;
        const char *owners[] = {"statistics", "data", "routines"};
        for (size_t w = 0; w < 3; w++) {
            const pv_view *a = view(scan, owners[w]), *b = view(viewer, owners[w]);
            assert_int_equal(pv_view_rows(a), pv_view_rows(b));
            for (size_t d = 0; d < a->detail_count; d++)
                for (size_t row = 0; row < pv_view_rows(a); row++) {
                    pv_view *x, *y;
                    if (!open_same_detail(a, b, d, row, &x, &y))
                        continue;
                    compared++;
                    listed_rows += pv_view_rows(x);
                    pv_view_free(x);
                    pv_view_free(y);
                }
        }
        pv_file_free(scan);
        pv_file_free(viewer);
    }
    assert_true(compared > 100);
    assert_true(listed_rows > 1000);
}

/* A generated timeline whose data keys have states, for the viewer's
 * state lists: a variable Mode (0x20000000) with states 0..4 written by W
 * (values 5 and 6 have no state), read by R, and entered by E/X on the state
 * handle; a mapping duplicate of state 2 and a state 0x1_00000003 (the same
 * low 32 bits as 3); a state that is never entered; AUX states entered by
 * E; a variable without states; calls of f around them.  Value 1 is written
 * most, so that its history passes the 100 000-row cut. */
static pv_wi_data *stateful_data(size_t events)
{
    pv_wi_data *d = data_new();
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, 0x20000000u, "Mode", 4);
    for (uint64_t v = 0; v < 5; v++)
        add_state(d, 0x30000000u, v);
    add_state(d, 0x30000000u, 2);
    add_state(d, 0x30000000u, UINT64_C(0x100000003));
    add_state(d, 0x30000000u, 9);
    pv_wi_add_area(d, 0x40000000u, "Aux", 3);
    for (uint64_t v = 0; v < 3; v++)
        add_state(d, 0x50000000u, v);
    pv_wi_add_area(d, 0x20000001u, "Counter", 7);
    uint64_t r = 12345;
    int64_t time = 0;
    for (size_t i = 0; i < events; i++) {
        r = r * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        unsigned pick = (unsigned)(r >> 33) % 16, value = (unsigned)(r >> 40) % 7;
        if ((r >> 50) % 2)
            value = 1;
        time += 1 + (int64_t)((r >> 20) % 5);
        if (pick < 6)
            ev(d, 0x20000000u, 'W', value, time);
        else if (pick < 7)
            pv_wi_add_event(d, 0x20000000u, PV_WI_RESUME, value, time); /* not a write */
        else if (pick < 9)
            ev(d, 0x30000000u, pick == 7 ? 'E' : 'X', value, time);
        else if (pick < 10)
            ev(d, 0x50000000u, 'E', value % 3, time);
        else if (pick < 11)
            ev(d, 0x40000000u, 'W', value, time);
        else if (pick < 13)
            ev(d, 0x20000001u, 'W', value, time);
        else
            ev(d, FN_F, pick % 2 ? 'E' : 'X', 0, time);
    }
    return d;
}

/* docs/winidea-model.md "The viewer's area lists": the value history of a
 * state (and of a variable whose key has states) in a viewer is a view
 * over the lists (nothing is made when it opens), with the rows of the
 * scan: whole and in a window, the 100 000-row cut included. */
static void test_viewer_state_lists(void **state)
{
    (void)state;
    size_t listed_states = 0, cut = 0;
    for (int round = 0; round < 2; round++) {
        pv_load_options o;
        memset(&o, 0, sizeof o);
        if (round) {
            o.has_from = o.has_to = true;
            o.from = 100000;
            o.to = 900000;
        }
        pv_file *scan = file_new();
        assert_int_equal(pv_wi_build(scan, stateful_data(600000), &o), PV_LOAD_OK);
        o.defer_index = true;
        pv_file *viewer = file_new();
        assert_int_equal(pv_wi_build(viewer, stateful_data(600000), &o), PV_LOAD_OK);
        while (!pv_file_index_step(viewer, 5000))
            ;
        const char *owners[] = {"statistics", "data"};
        for (size_t w = 0; w < 2; w++) {
            const pv_view *a = view(scan, owners[w]), *b = view(viewer, owners[w]);
            size_t detail = pv_view_detail_index(a, "value-history");
            size_t type = pv_view_column(a, "type");
            assert_int_equal(pv_view_rows(a), pv_view_rows(b));
            for (size_t row = 0; row < pv_view_rows(a); row++) {
                pv_view *x, *y;
                if (!open_same_detail(a, b, detail, row, &x, &y))
                    continue;
                pv_cell c;
                pv_view_cell(a, row, type, &c);
                if (c.present && c.v.s.len >= 5 &&
                    memcmp(c.v.s.ptr + c.v.s.len - 5, "state", 5) == 0) {
                    /* not a table made by a scan: a view over the lists */
                    assert_ptr_not_equal(y->ops, x->ops);
                    listed_states++;
                }
                if (pv_view_rows(x) == 100000)
                    cut++;
                pv_view_free(x);
                pv_view_free(y);
            }
        }
        pv_file_free(scan);
        pv_file_free(viewer);
    }
    assert_true(listed_states >= 4 * 11);
    assert_true(cut >= 2);
}

/* call-events (docs/cli.md): the events of a call are those of its
 * context from its entry to its exit, cut at 100 000 rows.  A context
 * variable Task switches between A (1) and B (2): f's call in A holds
 * 60 000 calls of h in A while g runs in B between them; its events are
 * f's E, then h's E and X (never g's), the first 100 000 of them. */
static void test_call_events_of_context(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_context(d, 0x1, "A", 1);
    pv_wi_add_context(d, 0x2, "B", 1);
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_wi_add_area(d, FN_G, "g", 1);
    pv_wi_add_area(d, 0x00000003u, "h", 1);
    pv_wi_add_area(d, 0x20000006u, "Task", 4);
    add_state(d, 0x30000006u, 1);
    add_state(d, 0x30000006u, 2);
    size_t n = 0, in_a = 0, a_events = 0;
    size_t *expect = malloc(100000 * sizeof *expect);
    int64_t t = 0;
    ev(d, 0x20000006u, 'W', 1, t++), n++;
    expect[in_a++] = n;
    ev(d, FN_F, 'E', 0, t++), n++;
    for (int k = 0; k < 60000; k++) {
        ev(d, 0x20000006u, 'W', 2, t++), n++;
        ev(d, FN_G, 'E', 0, t++), n++;
        ev(d, FN_G, 'X', 0, t++), n++;
        ev(d, 0x20000006u, 'W', 1, t++), n++;
        for (int x = 0; x < 2; x++) {
            if (in_a < 100000)
                expect[in_a++] = n;
            a_events++;
            ev(d, 0x00000003u, x ? 'X' : 'E', 0, t++), n++;
        }
    }
    ev(d, FN_F, 'X', 0, t++), n++;
    assert_true(a_events + 2 > 100000);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    const pv_view *ct = view(f, "call-trace");
    assert_string_equal(cell_text(ct, 0, "routine"), "f");
    assert_string_equal(cell_text(ct, 0, "thread"), "A");
    pv_view *evs = pv_view_open_detail(ct, pv_view_detail_index(ct, "call-events"), 0);
    assert_int_equal(pv_view_rows(evs), 100000);
    for (size_t r = 0; r < 100000; r++)
        assert_int_equal(cell_int(evs, r, "index"), (int64_t)expect[r]);
    assert_string_equal(cell_text(evs, 0, "name"), "f");
    assert_string_equal(cell_text(evs, 0, "event"), "E");
    assert_string_equal(cell_text(evs, 99999, "name"), "h");
    /* f's E, then 49 999 pairs of h and an E */
    assert_string_equal(cell_text(evs, 99999, "event"), "E");
    assert_int_equal(cell_int(evs, 99999, "time"), (int64_t)expect[99999]);
    pv_view_free(evs);
    /* a call of g in B: its own E and X */
    size_t row = PV_NO_ROW;
    for (size_t r = 0; r < pv_view_rows(ct) && row == PV_NO_ROW; r++)
        if (strcmp(cell_text(ct, r, "routine"), "g") == 0)
            row = r;
    assert_int_not_equal(row, PV_NO_ROW);
    evs = pv_view_open_detail(ct, pv_view_detail_index(ct, "call-events"), row);
    assert_int_equal(pv_view_rows(evs), 2);
    assert_int_equal(cell_int(evs, 0, "index"), 3);
    assert_string_equal(cell_text(evs, 1, "event"), "X");
    pv_view_free(evs);
    free(expect);
    pv_file_free(f);
}

/* The capability hooks the viewer uses (profview/hooks.h): stepping, the
 * stepped timeline (rows not indexed show only their record), which views
 * wait, time order, time of a row, E/X partners, the events of a call, the
 * first event of an area, areas for J/K and the lanes. */
static void test_viewer_stepping(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    for (int i = 0; i < 2000; i++) /* f E/X pairs, 10 ns apart */
        ev(d, FN_F, i % 2 ? 'X' : 'E', 0, (int64_t)i * 10);
    pv_load_options o;
    memset(&o, 0, sizeof o);
    o.defer_index = true;
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, &o), PV_LOAD_OK);
    assert_string_equal(pv_file_range_view(f), "statistics");
    const pv_view *tl = view(f, "timeline");
    const pv_view *st = view(f, "statistics");
    const pv_view *ct = view(f, "call-trace");
    uint64_t done, total;
    pv_row_ref ref;
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(total, 2000);
    assert_false(pv_file_index_step(f, 100));
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, 100);
    assert_true(pv_view_waits_for_index(st, false));
    assert_true(pv_view_waits_for_index(ct, false));
    assert_false(pv_view_waits_for_index(tl, false));
    assert_true(pv_view_waits_for_index(tl, true));
    assert_false(pv_view_time_ordered(tl)); /* not known yet */
    assert_false(pv_view_related(tl, 0, PV_REL_PARTNER, &ref));
    assert_int_equal(pv_view_lane_count(tl), 0); /* lanes once complete */
    int64_t t = 0;
    assert_true(pv_view_has_time(tl));
    assert_true(pv_view_row_time(tl, 1500, &t)); /* the record's own time */
    assert_int_equal(t, 15000);
    uint64_t area = 0;
    assert_false(pv_view_row_area(tl, 1500, &area)); /* not indexed: no area yet */
    /* row 1500 is not indexed: its record's columns only, and reading it
     * does not index */
    assert_int_equal(cell_int(tl, 1500, "time"), 15000);
    assert_int_equal(cell_int(tl, 1500, "index"), 1500);
    assert_string_equal(cell_text(tl, 1500, "event"), "E");
    assert_false(cell_present(tl, 1500, "name"));
    assert_false(cell_present(tl, 1500, "depth"));
    assert_false(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, 100);
    assert_true(cell_present(tl, 99, "name"));
    size_t steps = 0;
    while (!pv_file_index_step(f, 64))
        steps++;
    assert_true(steps >= 2000 / 64);
    assert_true(pv_file_index_progress(f, &done, &total));
    assert_int_equal(done, total);
    assert_false(pv_view_waits_for_index(st, false));
    assert_false(pv_view_waits_for_index(tl, true));
    assert_true(pv_view_time_ordered(tl));
    assert_false(pv_view_time_ordered(st));
    assert_false(pv_view_time_ordered(ct));
    assert_true(cell_present(tl, 1500, "name"));
    assert_int_equal(pv_view_rows(st), 2);
    assert_int_equal(cell_int(st, 0, "count"), 1000);
    /* %: entry 1500 and exit 1501 are partners, in the timeline itself */
    assert_true(pv_view_related(tl, 1500, PV_REL_PARTNER, &ref));
    assert_ptr_equal(ref.view, tl);
    assert_int_equal(ref.row, 1501);
    assert_true(pv_view_related(tl, 1501, PV_REL_PARTNER, &ref));
    assert_int_equal(ref.row, 1500);
    /* the call of an event, and its events back */
    assert_true(pv_view_related(tl, 1501, PV_REL_CALL, &ref));
    assert_ptr_equal(ref.view, ct);
    assert_int_equal(ref.row, 750);
    /* call 751 (id; row 750) is the 751st E/X pair: events 1500 and 1501 */
    assert_true(pv_view_related(ct, 750, PV_REL_ENTRY, &ref));
    assert_ptr_equal(ref.view, tl);
    assert_int_equal(ref.row, 1500);
    assert_true(pv_view_related(ct, 750, PV_REL_EXIT, &ref));
    assert_int_equal(ref.row, 1501);
    assert_true(pv_view_related(ct, 750, PV_REL_TIMELINE, &ref));
    assert_int_equal(ref.row, 1500);
    assert_false(pv_view_related(ct, 750, PV_REL_PARTNER, &ref)); /* a call has no partner */
    assert_false(pv_view_related(ct, 750, PV_REL_CALLER, &ref));  /* f at the top */
    assert_true(pv_view_row_time(ct, 750, &t));
    assert_int_equal(t, 15000);
    /* t on a routine: the first event of its area */
    const pv_view *rt = view(f, "routines");
    assert_true(pv_view_related(rt, 0, PV_REL_TIMELINE, &ref));
    assert_ptr_equal(ref.view, tl);
    assert_int_equal(ref.row, 0);
    assert_false(pv_view_has_time(rt));
    /* J/K: the event, its call and its routine share the area key */
    uint64_t a2 = 0, a3 = 0;
    assert_true(pv_view_row_area(tl, 1500, &area));
    assert_true(pv_view_row_area(ct, 750, &a2));
    assert_true(pv_view_row_area(rt, 0, &a3));
    assert_int_equal(area, FN_F);
    assert_int_equal(a2, FN_F);
    assert_int_equal(a3, FN_F);
    /* lanes: the one context, which f's events show running */
    assert_int_equal(pv_view_lane_count(tl), 1);
    pv_cell name;
    pv_view_lane_name(tl, 0, &name);
    assert_true(name.present);
    assert_int_equal(pv_view_row_lane(tl, 1500), 0);
    assert_int_equal(pv_view_lane_count(st), 0);
    pv_file_free(f);
}

/* A mapping without a timeline: every view exists and is empty or small. */
static void test_views_empty_timeline(void **state)
{
    (void)state;
    pv_wi_data *d = data_new();
    pv_wi_add_area(d, FN_F, "f", 1);
    pv_file *f = file_new();
    assert_int_equal(pv_wi_build(f, d, NULL), PV_LOAD_OK);
    assert_int_equal(pv_view_rows(view(f, "timeline")), 0);
    assert_int_equal(pv_view_rows(view(f, "call-trace")), 0);
    assert_int_equal(pv_view_rows(view(f, "statistics")), 0);
    assert_int_equal(pv_view_rows(view(f, "routines")), 0);
    pv_file_free(f);
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
        cmocka_unit_test(test_views_timeline),
        cmocka_unit_test(test_views_call_trace_routines),
        cmocka_unit_test(test_views_statistics_and_data),
        cmocka_unit_test(test_views_window),
        cmocka_unit_test(test_random_events_keep_invariants),
        cmocka_unit_test(test_views_empty_timeline),
        cmocka_unit_test(test_views_deferred_index),
        cmocka_unit_test(test_finish_in_steps),
        cmocka_unit_test(test_finish_in_steps_gives_back),
        cmocka_unit_test(test_finish_in_steps_empty),
        cmocka_unit_test(test_threads_same_index),
        cmocka_unit_test(test_split_same_index),
        cmocka_unit_test(test_split_cancelled),
        cmocka_unit_test(test_split_merges_version_bits),
        cmocka_unit_test(test_split_merges_index_fields),
        cmocka_unit_test(test_memory_bare_timeline),
        cmocka_unit_test(test_gross_from_records),
        cmocka_unit_test(test_columns_widen),
        cmocka_unit_test(test_viewer_stepping),
        cmocka_unit_test(test_viewer_detail_lists),
        cmocka_unit_test(test_viewer_state_lists),
        cmocka_unit_test(test_call_events_of_context),
        cmocka_unit_test(test_context_area_late_writes),
        cmocka_unit_test(test_context_area_late_disqualified),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
