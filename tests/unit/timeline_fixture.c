/* The recordings built by hand that the winIDEA timeline's unit tests
 * (test_timeline_*.c) share, and the ways they read the result
 * (timeline_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timeline_fixture.h"

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

void ev(pv_wi_data *d, uint32_t handle, char kind, uint64_t value, int64_t time)
{
    pv_wi_add_event(d, handle, kind_of(kind), value, time);
}

pv_wi_data *data_new(void)
{
    pv_wi_data *d = calloc(1, sizeof *d);
    pv_wi_data_init(d);
    return d;
}

void data_free(pv_wi_data *d)
{
    pv_wi_data_free(d);
    free(d);
}

size_t add_state(pv_wi_data *d, uint32_t handle, uint64_t value)
{
    size_t a = pv_wi_add_area(d, handle, NULL, 0);
    d->areas[a].has_value = true;
    d->areas[a].value = value;
    return a;
}

const char *ctx_of(const pv_timeline_index *ix, size_t event)
{
    return pv_tl_context_name(ix, pv_tl_event_context(ix, event));
}

pv_file *file_new(void)
{
    pv_file *f = calloc(1, sizeof *f);
    f->path = strdup("test.txt");
    pv_diag_init(&f->diag);
    return f;
}

const pv_view *view(const pv_file *f, const char *id)
{
    const pv_view *v = pv_set_find_view(f->sets[0], id);
    assert_non_null(v);
    return v;
}

int64_t cell_int(const pv_view *v, size_t row, const char *col)
{
    size_t c = pv_view_column(v, col);
    assert_int_not_equal(c, PV_NO_ROW);
    pv_cell cell;
    pv_view_cell(v, row, c, &cell);
    assert_true(cell.present);
    return cell.v.i;
}

bool cell_present(const pv_view *v, size_t row, const char *col)
{
    pv_cell cell;
    pv_view_cell(v, row, pv_view_column(v, col), &cell);
    return cell.present;
}

const char *cell_text(const pv_view *v, size_t row, const char *col)
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

pv_wi_data *random_data(uint64_t seed, size_t n, bool text_context)
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

void assert_same_index(const pv_timeline_index *a, const pv_timeline_index *b)
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

void assert_same_warnings(const pv_diag *a, const pv_diag *b)
{
    assert_int_equal(a->warnings, b->warnings);
    assert_int_equal(a->entry_count, b->entry_count);
    for (size_t k = 0; k < a->entry_count; k++)
        assert_string_equal(a->entries[k].text, b->entries[k].text);
}