/* lanes.c - the lane strip under a view with lanes (docs/tui.md "Lane
 * strip"): one lane per context, one per pinned area (activity or value),
 * the time axis, the cursor and markers in every lane; zoom and pan; the
 * jumps through an area's calls (next, previous, longest, shortest).
 * Everything goes through the capability hooks (docs/model.md), so the
 * strip knows no format.  Bounded work per frame: a pinned lane is two
 * binary searches per column (pv_lane_hooks.area_sample), a context lane
 * at most PV_LANE_BUCKET_ROWS rows per column. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/hooks.h"
#include "tui/group.h"
#include "tui/panel.h"

/* Units of a lane's build per call of the format's area_build, between two
 * looks at the clock: a unit took up to 0.26 us on the 50 M-event BIN, and
 * 16384 of them ran up to 4.3 ms past a 4 ms slice (the last frame of a pin
 * 6.9-8.1 ms of CPU); 2048 at most about 0.55 ms. */
#define PV_LANE_CHUNK 2048
#define PV_LANES_MAX 8          /* context lanes drawn at most */
#define PV_LANE_LABEL_MAX 16    /* columns for a lane's name */
#define PV_LANE_BUCKET_ROWS 128 /* rows looked at per time bucket at most */

static bool pv_lanes_fancy(const pv_app *a)
{
    return !a->ascii && a->utf8;
}

static uint32_t pv_lanes_glyph(const pv_app *a, uint32_t fancy, char plain)
{
    return pv_lanes_fancy(a) ? fancy : (uint32_t)plain;
}

/* Context lanes drawn for the Report: at the top level, once the lanes are
 * known (a winIDEA timeline: once its index is complete). */
static size_t pv_lanes_contexts(const pv_app *a, const pv_report *r)
{
    if (a->loc.depth)
        return 0;
    size_t n = pv_view_lane_count(r->view);
    return n < PV_LANES_MAX ? n : PV_LANES_MAX;
}

/* The pins of the Report's view (pins belong to one view). */
static size_t pv_lanes_pins(const pv_app *a, const pv_report *r)
{
    return a->lanes.view == r->view ? a->lanes.pins : 0;
}

int pv_lanes_height(const pv_app *a, const pv_report *r)
{
    size_t n = pv_lanes_contexts(a, r);
    if (!n)
        return 0;
    bool time = pv_view_has_time(r->view);
    return 1 + (int)n + (time ? (int)pv_lanes_pins(a, r) + 1 : 0);
}

int pv_lanes_fit(const pv_app *a, const pv_report *r, int body_h)
{
    int full = pv_lanes_height(a, r);
    int strip = full;
    if (strip && body_h - strip < 1 + PV_REPORT_ROWS_MIN) {
        strip = body_h - (1 + PV_REPORT_ROWS_MIN);
        if (strip < 3)
            strip = full < 3 ? full : 3;
    }
    return strip && body_h - strip >= 6 ? strip : 0;
}

/* ---- the span */

/* The bucket of t among `width` over [t0, t0 + span): floor((t - t0) * width
 * / span), the same expression everywhere (tests compute it too). */
static size_t pv_lane_bucket(int64_t t, int64_t t0, int64_t span, size_t width)
{
    if (t < t0)
        return 0;
    __int128 b = ((__int128)t - t0) * (__int128)width / span;
    return b < (__int128)width ? (size_t)b : width - 1;
}

/* The first time of bucket b: t0 + ceil(b * span / width), so that t is in
 * bucket b exactly when start(b) <= t < start(b + 1). */
static int64_t pv_lane_start(size_t b, int64_t t0, int64_t span, size_t width)
{
    __int128 x = (__int128)b * span;
    return t0 + (int64_t)((x + (__int128)width - 1) / (__int128)width);
}

/* The first row of a time-ordered view whose time is >= t. */
static size_t pv_lanes_lower(const pv_view *v, int64_t t)
{
    size_t lo = 0, hi = pv_view_rows(v);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t x;
        if (pv_view_row_time(v, mid, &x) && x < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The time span of the rows on screen; false when none has a time. */
static bool pv_lanes_screen_span(const pv_app *a, const pv_report *r, int64_t *t0, int64_t *t1)
{
    size_t count = pv_report_count(r);
    size_t page = (size_t)(a->page_rows[PV_PANE_REPORT] > 0 ? a->page_rows[PV_PANE_REPORT] : 1);
    *t0 = INT64_MAX;
    *t1 = INT64_MIN;
    for (size_t i = r->top; i < count && i < r->top + page; i++) {
        int64_t t;
        if (pv_view_row_time(r->view, pv_report_row(r, i), &t)) {
            *t0 = t < *t0 ? t : *t0;
            *t1 = t > *t1 ? t : *t1;
        }
    }
    return *t0 <= *t1;
}

static void pv_lanes_set(pv_app *a, const pv_report *r, int64_t t0, int64_t t1);

/* The span the lanes show: the zoomed span of this view, else the rows on
 * screen.  A zoomed span follows the cursor: when the selected row moved
 * out of it, the span moves (same width) to centre it. */
static bool pv_lanes_span(pv_app *a, const pv_report *r, int64_t *t0, int64_t *t1)
{
    if (!a->lanes.zoomed || a->lanes.zoom_view != r->view)
        return pv_lanes_screen_span(a, r, t0, t1);
    size_t sel = pv_report_selected(r);
    int64_t ts;
    if (sel != a->lanes.cursor_row && sel != PV_NO_ROW && pv_view_row_time(r->view, sel, &ts) &&
        (ts < a->lanes.t0 || ts > a->lanes.t1)) {
        int64_t w = pv_sub_sat(a->lanes.t1, a->lanes.t0);
        int64_t n0 = pv_sub_sat(ts, w / 2);
        pv_lanes_set(a, r, n0, pv_add_sat(n0, w));
    }
    a->lanes.cursor_row = sel;
    *t0 = a->lanes.t0;
    *t1 = a->lanes.t1;
    return true;
}

/* ---- drawing */

static size_t pv_lanes_label_width(const pv_app *a, const pv_report *r, size_t lanes,
                                   size_t pins)
{
    size_t label = 0;
    for (size_t k = 0; k < lanes + pins; k++) {
        pv_cell name;
        if (k < lanes)
            pv_view_lane_name(r->view, k, &name);
        else
            pv_view_area_name(r->view, a->lanes.pin[k - lanes], &name);
        size_t w = name.present && name.type == PV_TYPE_STRING
                       ? pv_text_width(name.v.s.ptr, name.v.s.len, a->utf8)
                       : 0;
        label = w > label ? w : label;
    }
    return label > PV_LANE_LABEL_MAX ? PV_LANE_LABEL_MAX : label;
}

static void pv_lanes_label(pv_app *a, int y, int x, int label, const pv_cell *name, pv_role role)
{
    if (name->present && name->type == PV_TYPE_STRING) {
        char buf[128];
        snprintf(buf, sizeof buf, "%.*s", (int)(name->v.s.len < 127 ? name->v.s.len : 127),
                 name->v.s.ptr);
        pv_grid_str(&a->grid, y, x, label, buf, role);
    }
}

/* Columns of the cursor and the markers (PV_NO_ROW: not in the span). */
typedef struct pv_lane_cols {
    size_t cursor, mark[2];
} pv_lane_cols;

/* A cell at bucket b: the cursor column highlighted (and `│`/`|` where
 * empty), the marker columns in the match colour (`A`/`B` where empty). */
static void pv_lanes_cell_as(pv_app *a, int y, int x, size_t b, uint32_t ch,
                             const pv_lane_cols *c, bool focused, pv_role role)
{
    if (b == c->mark[0] || b == c->mark[1]) {
        role = PV_ROLE_MATCH;
        if (ch == ' ')
            ch = b == c->mark[0] ? 'A' : 'B';
    }
    if (b == c->cursor) {
        role = focused ? PV_ROLE_SELECTED : PV_ROLE_SELECTED_DIM;
        if (ch == ' ')
            ch = pv_lanes_glyph(a, 0x2502, '|');
    }
    pv_grid_char(&a->grid, y, x, ch, role);
}

static void pv_lanes_cell(pv_app *a, int y, int x, size_t b, uint32_t ch, const pv_lane_cols *c,
                          bool focused)
{
    pv_lanes_cell_as(a, y, x, b, ch, c, focused, PV_ROLE_NUMBER);
}

pv_role pv_lanes_role(size_t lane)
{
    return (pv_role)(PV_ROLE_LANE_1 + lane % PV_LANE_ROLES);
}

pv_role pv_lanes_row_role(const pv_view *v, size_t row, pv_role role)
{
    size_t lane = pv_view_row_lane(v, row);
    return lane == PV_NO_ROW ? role : pv_lanes_role(lane);
}

/* An activity cell (docs/tui.md "Lane strip"): the larger part of the
 * bucket wins; active: UTF-8 `▏`..`█` by the eighths of the bucket it
 * was active (at least one), ASCII `#`; suspended: `░`, ASCII `-`; not
 * entered: blank. */
uint32_t pv_lanes_activity_char(bool fancy, int64_t active, int64_t suspended, int64_t bucket)
{
    if (active <= 0 || suspended > active)
        return suspended > 0 ? (fancy ? 0x2591 : '-') : ' ';
    if (!fancy)
        return '#';
    int64_t eighths = bucket > 0 ? (active * 8 + bucket / 2) / bucket : 8;
    if (eighths < 1)
        eighths = 1;
    if (eighths > 8)
        eighths = 8;
    /* U+2588 full, U+2589 7/8 ... U+258F 1/8 */
    return eighths == 8 ? 0x2588 : (uint32_t)(0x2590 - eighths);
}

/* A sparkline level 0..7 of `value` on [lo, hi]. */
int pv_lanes_level(double value, double lo, double hi)
{
    if (!(hi > lo))
        return 0;
    double f = (value - lo) / (hi - lo) * 7.0 + 0.5;
    int l = (int)floor(f);
    return l < 0 ? 0 : l > 7 ? 7 : l;
}

/* A pinned lane (docs/tui.md "Lane strip"): each column is the sample of
 * its bucket.  A state lane writes the state's name from the column where
 * it starts over the columns it lasts (truncated), `─`/`-` after it, and
 * `*` where the state changes more than once within a column. */
static void pv_lanes_draw_pin(pv_app *a, const pv_view *v, uint64_t area, int y, int cx,
                              size_t width, int64_t t0, int64_t span, const pv_lane_cols *cols,
                              bool focused)
{
    bool fancy = pv_lanes_fancy(a);
    uint64_t done, total;
    int built = pv_view_area_build(v, area, 0, &done, &total);
    if (built != 1) {
        /* being built between key presses (the lane job, pv_lane_job_step) */
        char text[96];
        if (built == 0)
            snprintf(text, sizeof text, "building the lane... %.0f%%%s",
                     total ? 100.0 * (double)done / (double)total : 0.0,
                     a->index.stopped ? " (stopped: :index resumes)" : "");
        else
            snprintf(text, sizeof text, "no lane");
        for (size_t b = 0; b < width; b++)
            pv_lanes_cell(a, y, cx + (int)b, b, ' ', cols, focused);
        pv_grid_str(&a->grid, y, cx, (int)width, text, PV_ROLE_DIM);
        return;
    }
    int kind = pv_view_area_kind(v, area);
    double lo = 0, hi = 0;
    if (kind == PV_AREA_LANE_VALUE)
        pv_view_area_value_range(v, area, &lo, &hi);
    static const char ascii_levels[] = "_.-~=+*#";
    pv_lane_sample *smp = pv_xcalloc(width, sizeof *smp);
    bool *has = pv_xcalloc(width, sizeof *has);
    for (size_t b = 0; b < width; b++) {
        int64_t s0 = pv_lane_start(b, t0, span, width);
        int64_t s1 = pv_lane_start(b + 1, t0, span, width);
        has[b] = s1 > s0 && pv_view_area_sample(v, area, s0, s1, &smp[b]);
    }
    for (size_t b = 0; b < width; b++) {
        uint32_t ch = ' ';
        const pv_lane_sample *m = &smp[b];
        if (!has[b]) {
        } else if (kind == PV_AREA_LANE_ACTIVITY) {
            ch = pv_lanes_activity_char(fancy, m->active, m->suspended,
                                        pv_lane_start(b + 1, t0, span, width) -
                                            pv_lane_start(b, t0, span, width));
        } else if (m->has_value && m->label.present) {
            if (m->changes > 1) {
                ch = '*';
            } else if (m->changes == 1 || b == 0) {
                /* the run: this column and the next ones without a change */
                size_t run = 1;
                while (b + run < width && has[b + run] && !smp[b + run].changes)
                    run++;
                size_t i = 0;
                for (; i < m->label.v.s.len && i < run; i++)
                    pv_lanes_cell(a, y, cx + (int)(b + i), b + i,
                                  (unsigned char)m->label.v.s.ptr[i], cols, focused);
                if (i) {
                    b += i - 1;
                    continue;
                }
            } else {
                ch = pv_lanes_glyph(a, 0x2500, '-');
            }
        } else if (m->has_value) {
            int l = pv_lanes_level(m->peak, lo, hi);
            ch = fancy ? 0x2581 + (uint32_t)l : (uint32_t)ascii_levels[l];
        }
        pv_lanes_cell(a, y, cx + (int)b, b, ch, cols, focused);
    }
    free(smp);
    free(has);
}

/* A "nice" tick step (1, 2 or 5 times a power of ten ns) for at least
 * `min_cols` columns between ticks. */
static int64_t pv_lanes_tick(int64_t span, size_t width, size_t min_cols)
{
    double want = (double)span * (double)min_cols / (double)width;
    int64_t step = 1;
    while ((double)step < want && step < INT64_MAX / 10) {
        if ((double)(step * 2) >= want)
            return step * 2;
        if ((double)(step * 5) >= want)
            return step * 5;
        step *= 10;
    }
    return step;
}

/* A tick's label: the time in `unit` with the decimals the step needs
 * and no more, without spaces ("168.25us", "0ns"), so that two ticks
 * never read the same (docs/tui.md "Lane strip"). */
static void pv_lanes_tick_label(int64_t t, pv_time_unit unit, int64_t step, char *out, size_t size)
{
    static const int64_t per[] = {1, 1, 1000, 1000000, 1000000000}; /* by pv_time_unit */
    static const char *const name[] = {"ns", "ns", "us", "ms", "s"};
    int decimals = 0;
    for (int64_t q = per[unit]; q > 1 && step % q; q /= 10)
        decimals++;
    uint64_t mag = t < 0 ? (uint64_t)(-(t + 1)) + 1 : (uint64_t)t;
    uint64_t whole = mag / (uint64_t)per[unit], frac = mag % (uint64_t)per[unit];
    int most = unit == PV_UNIT_S ? 9 : unit == PV_UNIT_MS ? 6 : unit == PV_UNIT_US ? 3 : 0;
    for (int d = most; d > decimals; d--)
        frac /= 10;
    char digits[16] = ""; /* frac's `decimals` digits after a point */
    if (decimals) {
        digits[0] = '.';
        for (int i = decimals; i >= 1; i--, frac /= 10)
            digits[i] = (char)('0' + frac % 10);
        digits[decimals + 1] = '\0';
    }
    snprintf(out, size, "%s%" PRIu64 "%s%s", t < 0 ? "-" : "", whole, digits, name[unit]);
}

/* The axis: a tick `┴` (`|`) at each multiple of the step with its time;
 * a label never repeats another (its decimals come from the step), never
 * runs into the next one and never lies under a mark: `A`, `B` and `^`
 * (the cursor) take their columns, and a tick whose label would cover
 * one is left out. */
static void pv_lanes_draw_axis(pv_app *a, int y, int cx, size_t width, int64_t t0, int64_t span,
                               const pv_lane_cols *cols, bool focused)
{
    for (size_t b = 0; b < width; b++)
        pv_grid_char(&a->grid, y, cx + (int)b, pv_lanes_glyph(a, 0x2500, '-'), PV_ROLE_DIM);
    int64_t step = pv_lanes_tick(span, width, 12);
    int64_t first = t0 % step == 0 ? t0 : t0 - (t0 % step) + (t0 >= 0 ? step : 0);
    int64_t last = t0 + span - 1;
    int64_t big = last < 0 ? -last : last;
    big = big > (t0 < 0 ? -t0 : t0) ? big : (t0 < 0 ? -t0 : t0);
    pv_time_unit unit = a->unit == PV_UNIT_AUTO ? pv_time_unit_for(big) : a->unit;
    size_t free_from = 0;
    for (int64_t t = first; t < t0 + span; t += step) {
        size_t b = pv_lane_bucket(t, t0, span, width);
        if (b < free_from)
            continue;
        char text[48];
        pv_lanes_tick_label(t, unit, step, text, sizeof text);
        size_t n = strlen(text);
        if (b + 1 + n > width)
            break;
        bool covers = false; /* the label's cells b+1 .. b+n hold no mark */
        for (int m = 0; m < 3; m++) {
            size_t c = m < 2 ? cols->mark[m] : cols->cursor;
            covers = covers || (c != PV_NO_ROW && c > b && c <= b + n);
        }
        if (covers)
            continue;
        pv_grid_char(&a->grid, y, cx + (int)b, pv_lanes_glyph(a, 0x2534, '|'), PV_ROLE_NORMAL);
        pv_grid_str(&a->grid, y, cx + (int)b + 1, (int)n, text, PV_ROLE_NORMAL);
        free_from = b + n + 2;
    }
    for (int m = 0; m < 2; m++)
        if (cols->mark[m] != PV_NO_ROW)
            pv_grid_char(&a->grid, y, cx + (int)cols->mark[m], m ? 'B' : 'A', PV_ROLE_MATCH);
    if (cols->cursor != PV_NO_ROW)
        pv_grid_char(&a->grid, y, cx + (int)cols->cursor, '^',
                     focused ? PV_ROLE_SELECTED : PV_ROLE_SELECTED_DIM);
}

/* Which of `total` lanes (the context lanes, then the pins) get one of
 * `lines` lines (docs/tui.md "Layout"): all when they fit; else the ones
 * with something in the span (used[k]; a pin always counts), in order,
 * then the others, as many as fit.  Returns how many are shown. */
static size_t pv_lanes_pick(const bool *used, size_t total, int lines, bool *show)
{
    size_t room = lines > 0 ? (size_t)lines : 0, n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < total; k++) {
            if (pass == 0)
                show[k] = false;
            if (n < room && !show[k] && (pass == 1 || used[k]))
                show[k] = true, n++;
        }
    return n;
}

/* The title with the lanes left out, when some are: "Lanes ... (3 of 5)". */
static void pv_lanes_title(pv_app *a, pv_rect rc, const char *text, size_t shown, size_t total)
{
    pv_buf title; /* as long as the text is (a Release build warned of a cut) */
    pv_buf_init(&title);
    pv_buf_puts(&title, text);
    if (shown < total)
        pv_buf_printf(&title, " (%zu of %zu lanes)", shown, total);
    pv_app_title(a, rc.y, rc.x, rc.w, pv_buf_cstr(&title), false);
    pv_buf_free(&title);
}

/* Context lanes over the rows' order (a view without time, the AQTime
 * call trace): bucket b holds the rows covering part of [b*N/W, (b+1)*N/W). */
static void pv_lanes_draw_rows(pv_app *a, const pv_report *r, size_t lanes, pv_rect rc,
                               bool focused)
{
    const pv_view *v = r->view;
    size_t count = pv_report_count(r);
    char title[96];
    snprintf(title, sizeof title, "Lanes rows 1..%zu", count);
    pv_app_title(a, rc.y, rc.x, rc.w, count ? title : "Lanes", false);
    if (!count) {
        pv_grid_str(&a->grid, rc.y + 1, rc.x, rc.w, "no rows", PV_ROLE_DIM);
        return;
    }
    size_t label = pv_lanes_label_width(a, r, lanes, 0);
    int cx = rc.x + 1 + (int)label + 1;
    if (cx >= rc.x + rc.w)
        return;
    size_t width = (size_t)(rc.x + rc.w - cx);
    uint8_t *cells = pv_xcalloc(lanes * width, 1);
    bool used[PV_LANES_MAX] = {false}, show[PV_LANES_MAX];
    for (size_t b = 0; b < width; b++) {
        uint64_t from = (uint64_t)b * count / width;
        uint64_t to = ((uint64_t)(b + 1) * count + width - 1) / width;
        for (uint64_t i = from, n = 0; i < to && n < PV_LANE_BUCKET_ROWS; i++, n++) {
            size_t k = pv_view_row_lane(v, pv_report_row(r, (size_t)i));
            if (k < lanes)
                cells[k * width + b] = used[k] = 1;
        }
    }
    size_t shown = pv_lanes_pick(used, lanes, rc.h - 1, show);
    if (shown < lanes)
        pv_lanes_title(a, rc, title, shown, lanes);
    pv_lane_cols cols = {PV_NO_ROW, {PV_NO_ROW, PV_NO_ROW}};
    if (pv_report_selected(r) != PV_NO_ROW && r->cursor < count)
        cols.cursor = (size_t)((uint64_t)r->cursor * width / count);
    uint32_t full = pv_lanes_glyph(a, 0x2588, '#');
    int y = rc.y + 1;
    for (size_t k = 0; k < lanes && y < rc.y + rc.h; k++) {
        if (!show[k])
            continue;
        pv_cell name;
        pv_view_lane_name(v, k, &name);
        pv_lanes_label(a, y, rc.x + 1, (int)label, &name, pv_lanes_role(k));
        for (size_t b = 0; b < width; b++)
            pv_lanes_cell_as(a, y, cx + (int)b, b, cells[k * width + b] ? full : ' ', &cols,
                             focused, pv_lanes_role(k));
        y++;
    }
    free(cells);
}

/* The context lanes as spans (lanes that run one at a time: the model's
 * exclusive and row_running, docs/tui.md "Lane strip"): in bucket [from,
 * to) lane k runs from a row that names it until the next row that names
 * another; the lane running at `from` is the last one named before it (at
 * most PV_LANE_BUCKET_ROWS rows back), and at most PV_LANE_BUCKET_ROWS
 * rows of the bucket are read (after them the lane last named runs to the
 * bucket's end).  A cell shows the part of the bucket its lane ran, as a
 * function lane does. */
static void pv_lanes_spans(const pv_app *a, const pv_view *v, size_t lanes, size_t width,
                           int64_t t0, int64_t span, uint32_t *cells)
{
    size_t rows = pv_view_rows(v);
    bool fancy = pv_lanes_fancy(a);
    for (size_t b = 0; b < width; b++) {
        int64_t from = pv_lane_start(b, t0, span, width);
        int64_t to = pv_lane_start(b + 1, t0, span, width);
        if (to <= from)
            continue;
        size_t row = pv_lanes_lower(v, from), cur = PV_NO_ROW;
        for (size_t back = row, n = 0; back > 0 && n < PV_LANE_BUCKET_ROWS && cur == PV_NO_ROW;
             n++)
            cur = pv_view_row_running(v, --back);
        int64_t ran[PV_LANES_MAX] = {0}, at = from;
        for (size_t n = 0; row < rows && n < PV_LANE_BUCKET_ROWS; row++, n++) {
            int64_t t;
            if (!pv_view_row_time(v, row, &t) || t >= to)
                break;
            size_t k = pv_view_row_running(v, row);
            if (k == PV_NO_ROW)
                continue;
            if (cur < lanes && t > at)
                ran[cur] += t - at;
            at = t > at ? t : at;
            cur = k;
        }
        if (cur < lanes)
            ran[cur] += to - at;
        for (size_t k = 0; k < lanes; k++)
            if (ran[k] > 0)
                cells[k * width + b] = pv_lanes_activity_char(fancy, ran[k], 0, to - from);
    }
}

/* The context lanes as instants: a cell is full where a row of the bucket
 * shows its lane running (lanes that run side by side, cores; and with a
 * filter or sort only the rows on screen are read). */
static void pv_lanes_instants(pv_app *a, const pv_report *r, size_t lanes, size_t width,
                              int64_t t0, int64_t t1, int64_t span, uint32_t *cells)
{
    const pv_view *v = r->view;
    uint32_t full = pv_lanes_glyph(a, 0x2588, '#');
    if (pv_view_time_ordered(v) && !r->sel && !r->vis) {
        size_t rows = pv_view_rows(v);
        for (size_t b = 0; b < width; b++) {
            int64_t from = pv_lane_start(b, t0, span, width);
            int64_t to = pv_lane_start(b + 1, t0, span, width);
            size_t row = pv_lanes_lower(v, from);
            for (size_t n = 0; row < rows && n < PV_LANE_BUCKET_ROWS; row++, n++) {
                int64_t t;
                if (!pv_view_row_time(v, row, &t) || t >= to)
                    break;
                size_t k = pv_view_row_lane(v, row);
                if (k < lanes)
                    cells[k * width + b] = full;
            }
        }
        return;
    }
    size_t count = pv_report_count(r);
    size_t page = (size_t)(a->page_rows[PV_PANE_REPORT] > 0 ? a->page_rows[PV_PANE_REPORT] : 1);
    for (size_t i = r->top; i < count && i < r->top + page; i++) {
        size_t row = pv_report_row(r, i);
        int64_t t;
        size_t k = pv_view_row_lane(v, row);
        if (k < lanes && pv_view_row_time(v, row, &t) && t >= t0 && t <= t1)
            cells[k * width + pv_lane_bucket(t, t0, span, width)] = full;
    }
}

void pv_lanes_draw(pv_app *a, const pv_report *r, pv_rect rc, bool focused)
{
    size_t lanes = pv_lanes_contexts(a, r);
    a->lanes.rect = (pv_rect){0, 0, 0, 0};
    if (!pv_view_has_time(r->view)) {
        pv_lanes_draw_rows(a, r, lanes, rc, focused);
        return;
    }
    const pv_view *v = r->view;
    size_t pins = pv_lanes_pins(a, r);
    int64_t t0, t1;
    pv_app_title(a, rc.y, rc.x, rc.w, "Lanes", false);
    if (!pv_lanes_span(a, r, &t0, &t1)) {
        pv_grid_str(&a->grid, rc.y + 1, rc.x, rc.w, "no events with a time on screen", PV_ROLE_DIM);
        return;
    }
    char lo[48], hi[48], title[112];
    pv_text_time_span(t0, t1, a->unit, lo, hi, sizeof lo);
    snprintf(title, sizeof title, "Lanes %s..%s", lo, hi);
    pv_app_title(a, rc.y, rc.x, rc.w, title, false);

    size_t label = pv_lanes_label_width(a, r, lanes, pins);
    int cx = rc.x + 1 + (int)label + 1;
    if (cx >= rc.x + rc.w)
        return;
    size_t width = (size_t)(rc.x + rc.w - cx);
    int64_t span = t1 - t0 + 1;
    a->lanes.rect = (pv_rect){rc.y + 1, cx, (int)width, rc.h - 1};
    a->lanes.view_t0 = t0;
    a->lanes.view_span = span;

    uint32_t *cells = pv_xcalloc(lanes * width + 1, sizeof *cells);
    if (pv_view_time_ordered(v) && !r->sel && !r->vis && pv_view_lanes_exclusive(v))
        pv_lanes_spans(a, v, lanes, width, t0, span, cells);
    else
        pv_lanes_instants(a, r, lanes, width, t0, t1, span, cells);
    pv_lane_cols cols = {PV_NO_ROW, {PV_NO_ROW, PV_NO_ROW}};
    size_t sel = pv_report_selected(r);
    int64_t ts;
    if (sel != PV_NO_ROW && pv_view_row_time(v, sel, &ts) && ts >= t0 && ts <= t1)
        cols.cursor = pv_lane_bucket(ts, t0, span, width);
    for (int m = 0; m < 2; m++)
        if (a->mark.set[m] && !a->mark.view[m] && a->mark.at[m] >= t0 && a->mark.at[m] <= t1)
            cols.mark[m] = pv_lane_bucket(a->mark.at[m], t0, span, width);

    /* a short strip shows the lanes with something in the span first */
    bool used[PV_LANES_MAX + PV_LANE_PINS] = {false}, show[PV_LANES_MAX + PV_LANE_PINS];
    for (size_t k = 0; k < lanes + pins; k++) {
        used[k] = k >= lanes;
        for (size_t b = 0; b < width && !used[k]; b++)
            used[k] = cells[k * width + b] != 0;
    }
    size_t shown = pv_lanes_pick(used, lanes + pins, rc.h - 2, show);
    if (shown < lanes + pins)
        pv_lanes_title(a, rc, title, shown, lanes + pins);
    int y = rc.y + 1;
    for (size_t k = 0; k < lanes; k++) {
        if (!show[k])
            continue;
        pv_cell name;
        pv_view_lane_name(v, k, &name);
        pv_lanes_label(a, y, rc.x + 1, (int)label, &name, pv_lanes_role(k));
        for (size_t b = 0; b < width; b++) {
            uint32_t ch = cells[k * width + b];
            pv_lanes_cell_as(a, y, cx + (int)b, b, ch ? ch : ' ', &cols, focused,
                             pv_lanes_role(k));
        }
        y++;
    }
    free(cells);
    for (size_t p = 0; p < pins; p++) {
        if (!show[lanes + p])
            continue;
        pv_cell name;
        pv_view_area_name(v, a->lanes.pin[p], &name);
        pv_lanes_label(a, y, rc.x + 1, (int)label, &name, PV_ROLE_NORMAL);
        pv_lanes_draw_pin(a, v, a->lanes.pin[p], y, cx, width, t0, span, &cols, focused);
        y++;
    }
    if (y < rc.y + rc.h)
        pv_lanes_draw_axis(a, y, cx, width, t0, span, &cols, focused);
}

/* ---- keys */

/* The recording's span, or the rows': false when unknown. */
static bool pv_lanes_full(const pv_report *r, int64_t *t0, int64_t *t1)
{
    if (pv_view_time_span(r->view, t0, t1))
        return true;
    size_t n = pv_view_rows(r->view);
    return n && pv_view_row_time(r->view, 0, t0) && pv_view_row_time(r->view, n - 1, t1) &&
           *t0 <= *t1;
}

static void pv_lanes_set(pv_app *a, const pv_report *r, int64_t t0, int64_t t1)
{
    int64_t f0, f1;
    if (t1 < t0)
        t1 = t0;
    if (pv_lanes_full(r, &f0, &f1)) {
        int64_t w = t1 - t0;
        if (w >= f1 - f0) {
            t0 = f0;
            t1 = f1;
        } else if (t0 < f0) {
            t0 = f0;
            t1 = f0 + w;
        } else if (t1 > f1) {
            t1 = f1;
            t0 = f1 - w;
        }
    }
    a->lanes.zoomed = true;
    a->lanes.zoom_view = r->view;
    a->lanes.t0 = t0;
    a->lanes.t1 = t1;
    a->lanes.cursor_row = pv_report_selected(r);
}

/* Zooms by `factor` (0.5 in, 2 out) keeping time `at` where it is. */
static void pv_lanes_zoom(pv_app *a, pv_report *r, double factor, int64_t at)
{
    int64_t t0, t1;
    if (!pv_lanes_span(a, r, &t0, &t1))
        return;
    if (at < t0 || at > t1)
        at = t0 + (t1 - t0) / 2;
    double w = (double)(t1 - t0) * factor;
    if (w < 1)
        w = 1; /* 1 ns: as far in as it goes */
    /* Times lie within +/-2^62 (docs/winidea-model.md): a span wider than
     * that shows nothing more, and the conversions below stay defined. */
    double d0 = (double)(at - t0) * factor;
    if (w > 4e18)
        w = 4e18;
    if (d0 > 4e18)
        d0 = 4e18;
    int64_t n0 = pv_sub_sat(at, (int64_t)d0);
    pv_lanes_set(a, r, n0, pv_add_sat(n0, (int64_t)w));
}

static bool pv_lanes_here(pv_app *a, pv_report **rp)
{
    pv_report *r = pv_app_report(a);
    *rp = r;
    return r && a->focus != PV_PANE_DETAILS && pv_lanes_contexts(a, r) &&
           pv_view_has_time(r->view);
}

/* The selected row's time (or the span's middle). */
static int64_t pv_lanes_cursor_time(pv_app *a, pv_report *r)
{
    size_t sel = pv_report_selected(r);
    int64_t t, t0, t1;
    if (sel != PV_NO_ROW && pv_view_row_time(r->view, sel, &t))
        return t;
    return pv_lanes_span(a, r, &t0, &t1) ? t0 + (t1 - t0) / 2 : 0;
}

/* Selects `row` of the view, or says it is filtered out. */
static void pv_lanes_select(pv_app *a, pv_report *r, size_t row)
{
    if (!pv_report_select_row(r, row))
        pv_app_message(a, true, "that row is hidden by the filter");
}

/* A jump (pv_area_jump) waiting for the lane of its area to be built, as
 * a job (jobs.h): a slice of the lane a frame, then the jump; any key
 * stops it. */
typedef struct pv_area_job {
    pv_job base;
    pv_report *r;
    uint64_t area;
    int which;
} pv_area_job;

static void pv_lanes_jump(pv_app *a, pv_report *r, pv_area_jump which);

static bool pv_area_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    (void)b; /* a slice of PV_SCAN_SLICE_S */
    pv_area_job *j = (pv_area_job *)job;
    pv_report *r = j->r;
    if (pv_app_focused_report(a) != r)
        return true; /* the jump was in another pane (a key stops the work anyway) */
    const pv_view *v = r->view;
    double until = pv_clock_now() + PV_SCAN_SLICE_S;
    int st;
    uint64_t done = 0, total = 0;
    do
        st = pv_view_area_build(v, j->area, PV_LANE_CHUNK, &done, &total);
    while (st == 0 && pv_clock_now() < until);
    if (st != 0) {
        pv_buf_clear(&a->message);
        pv_lanes_jump(a, r, (pv_area_jump)j->which);
        return true;
    }
    char text[128];
    snprintf(text, sizeof text, "Finding the calls of this area... %.0f%% (any key stops)",
             total ? 100.0 * (double)done / (double)total : 0.0);
    pv_app_message(a, false, text);
    return false;
}

static void pv_area_job_stop(pv_app *a, pv_job *job, bool say)
{
    (void)job;
    if (say)
        pv_app_message(a, false, "stopped finding the calls");
}

/* The items (and the reports in them) may move: the jump stops. */
static bool pv_area_job_moving(pv_app *a, pv_job *job)
{
    (void)job;
    pv_app_message(a, false, "search stopped");
    return false;
}

static const pv_job_ops pv_area_job_ops = {
    .keys = PV_JOB_KEYS_ANY,
    .step = pv_area_job_step,
    .stop = pv_area_job_stop,
    .items_moving = pv_area_job_moving,
};

static void pv_lanes_area_job(pv_app *a, pv_report *r, uint64_t area, int which)
{
    pv_area_job *j = (pv_area_job *)pv_job_new(sizeof *j, &pv_area_job_ops, PV_JOB_AREA);
    j->r = r;
    j->area = area;
    j->which = which;
    pv_jobs_start_now(a, &j->base);
}

static void pv_lanes_jump(pv_app *a, pv_report *r, pv_area_jump which)
{
    size_t sel = pv_report_selected(r), row;
    static const char *const none[] = {"no later call of this area", "no earlier call of this area",
                                       "this area has no calls", "this area has no calls"};
    if (sel == PV_NO_ROW)
        return;
    uint64_t key;
    if (!pv_view_area_jump(r->view, sel, which, &row) && pv_view_row_area(r->view, sel, &key) &&
        pv_view_area_build(r->view, key, 0, NULL, NULL) == 0) {
        /* the area's lane is not built yet: build it a slice per frame
         * (any key stops), then jump (pv_lanes_work) */
        pv_lanes_area_job(a, r, key, which);
        return;
    }
    if (!pv_view_area_jump(r->view, sel, which, &row)) {
        uint64_t area;
        pv_app_message(a, true,
                       !pv_view_row_area(r->view, sel, &area) ? "this row has no area"
                       : r->view->hooks && r->view->hooks->area_jump
                           ? none[which]
                           : "this view has no calls to jump through (J/K step by row)");
        return;
    }
    pv_lanes_select(a, r, row);
}

/* ---- building pinned lanes: a job beside the one job (jobs.h) */

/* The first pinned area whose lane is still being built, or -1. */
static long pv_lanes_pending(const pv_app *a)
{
    for (size_t k = 0; a->lanes.view && k < a->lanes.pins; k++)
        if (pv_view_area_build(a->lanes.view, a->lanes.pin[k], 0, NULL, NULL) == 0)
            return (long)k;
    return -1;
}

/* The pinned lanes not built yet are built by one job beside the one job
 * (the format's area_build, docs/model.md "Area lanes"): a step builds the
 * first of them within the budget (its units, or until its deadline); the
 * format puts a lane in place when it is complete; the job ends when none
 * is left; Ctrl-C stops it (pv_lanes_build_stop), unpinning the areas whose
 * lanes are not built.  Keys do not stop it. */
static bool pv_lane_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    (void)job;
    long k;
    if (b->deadline <= 0) { /* a fixed step (tests) */
        if ((k = pv_lanes_pending(a)) >= 0)
            pv_view_area_build(a->lanes.view, a->lanes.pin[k], b->units, NULL, NULL);
        return pv_lanes_pending(a) < 0;
    }
    while ((k = pv_lanes_pending(a)) >= 0 && pv_clock_now() < b->deadline)
        pv_view_area_build(a->lanes.view, a->lanes.pin[k], PV_LANE_CHUNK, NULL, NULL);
    return k < 0;
}

static void pv_lane_job_stop(pv_app *a, pv_job *job, bool say)
{
    (void)job;
    long k;
    while ((k = pv_lanes_pending(a)) >= 0) {
        memmove(a->lanes.pin + k, a->lanes.pin + k + 1,
                (a->lanes.pins - (size_t)k - 1) * sizeof *a->lanes.pin);
        a->lanes.pins--;
    }
    if (say)
        pv_app_message(a, false, "stopped building the pinned lane (unpinned)");
}

static const pv_job_ops pv_lane_job_ops = {
    .beside = true,
    .slice_s = PV_INDEX_SLICE_S,
    .step = pv_lane_job_step,
    .stop = pv_lane_job_stop,
};

/* A pinned area whose lane is not built yet: the job builds it (scripted
 * keys with a fixed index slice: that many units a key, as indexing). */
static void pv_lanes_build_start(pv_app *a)
{
    if (pv_lanes_pending(a) < 0 || pv_jobs_beside(a, PV_JOB_LANE))
        return;
    pv_job *j = pv_job_new(sizeof *j, &pv_lane_job_ops, PV_JOB_LANE);
    j->fixed_units = a->index.fixed_slice ? a->index.slice : 0;
    pv_jobs_start_beside(a, j);
}

bool pv_lanes_building(const pv_app *a)
{
    return pv_jobs_beside(a, PV_JOB_LANE) != NULL && pv_lanes_pending(a) >= 0;
}

void pv_lanes_build_text(const pv_app *a, char *out, size_t size)
{
    long k = pv_lanes_pending(a);
    out[0] = '\0';
    if (k < 0 || !size)
        return;
    uint64_t done, total;
    pv_cell name;
    pv_view_area_build(a->lanes.view, a->lanes.pin[k], 0, &done, &total);
    pv_view_area_name(a->lanes.view, a->lanes.pin[k], &name);
    snprintf(out, size, "lane %.*s %.0f%%", (int)(name.v.s.len < 64 ? name.v.s.len : 64),
             name.v.s.ptr, total ? 100.0 * (double)done / (double)total : 0.0);
}

bool pv_lanes_build_stop(pv_app *a)
{
    bool any = pv_lanes_pending(a) >= 0;
    pv_jobs_stop_beside(a, PV_JOB_LANE, false);
    pv_lane_job_stop(a, NULL, false); /* also pins whose job was not started */
    return any;
}

static void pv_lanes_pin(pv_app *a, pv_report *r)
{
    size_t sel = pv_report_selected(r);
    uint64_t area;
    if (sel == PV_NO_ROW || !pv_view_row_area(r->view, sel, &area)) {
        pv_app_message(a, true, "this row has no area to pin");
        return;
    }
    pv_lanes_pin_area(a, r->view, area, true);
}

bool pv_lanes_pin_area(pv_app *a, const pv_view *v, uint64_t area, bool toggle)
{
    if (a->lanes.view != v) { /* pins belong to one view */
        a->lanes.view = v;
        a->lanes.pins = 0;
    }
    for (size_t k = 0; k < a->lanes.pins; k++)
        if (a->lanes.pin[k] == area) {
            if (toggle) {
                memmove(a->lanes.pin + k, a->lanes.pin + k + 1,
                        (a->lanes.pins - k - 1) * sizeof *a->lanes.pin);
                a->lanes.pins--;
                pv_app_message(a, false, "unpinned");
            }
            return true;
        }
    if (pv_view_area_kind(v, area) == PV_AREA_LANE_NONE) {
        if (toggle)
            pv_app_message(a, true, "this area has no lane (its index may still be building)");
        return false;
    }
    if (a->lanes.pins == PV_LANE_PINS) {
        memmove(a->lanes.pin, a->lanes.pin + 1, (PV_LANE_PINS - 1) * sizeof *a->lanes.pin);
        a->lanes.pins--;
    }
    a->lanes.pin[a->lanes.pins++] = area;
    pv_lanes_build_start(a);
    /* pinned at once: the lane is built between key presses, with its
     * progress in the lane and the status bar */
    if (toggle)
        pv_app_message(a, false, "pinned (p again unpins)");
    return true;
}

bool pv_lanes_key(pv_app *a, pv_action act)
{
    pv_report *r;
    switch (act) {
    case PV_ACT_EXPAND:
    case PV_ACT_COLLAPSE:
        /* in a view that is not a tree, + and - zoom the lanes */
        if (!pv_lanes_here(a, &r) || pv_view_is_tree(r->view))
            return false;
        pv_lanes_zoom(a, r, act == PV_ACT_EXPAND ? 0.5 : 2.0, pv_lanes_cursor_time(a, r));
        return true;
    case PV_ACT_LANES_LEFT:
    case PV_ACT_LANES_RIGHT: {
        int64_t t0, t1;
        if (!pv_lanes_here(a, &r) || !pv_lanes_span(a, r, &t0, &t1))
            break;
        int64_t d = (t1 - t0 + 1) / 2;
        d = d ? d : 1;
        if (act == PV_ACT_LANES_LEFT)
            d = -d;
        pv_lanes_set(a, r, t0 + d, t1 + d);
        return true;
    }
    case PV_ACT_LANES_FIT: {
        int64_t t0, t1;
        if (!pv_lanes_here(a, &r) || !pv_lanes_full(r, &t0, &t1))
            break;
        pv_lanes_set(a, r, t0, t1);
        return true;
    }
    case PV_ACT_LANES_AB:
        if (!pv_lanes_here(a, &r))
            break;
        if (!a->mark.set[0] || !a->mark.set[1] || a->mark.view[0] || a->mark.view[1]) {
            pv_app_message(a, true, "set markers A and B at two times first (m, M)");
            return true;
        }
        pv_lanes_set(a, r, a->mark.at[0] < a->mark.at[1] ? a->mark.at[0] : a->mark.at[1],
                     a->mark.at[0] < a->mark.at[1] ? a->mark.at[1] : a->mark.at[0]);
        return true;
    case PV_ACT_PIN:
        if (!pv_lanes_here(a, &r))
            break;
        pv_lanes_pin(a, r);
        return true;
    case PV_ACT_NEXT_CALL:
    case PV_ACT_PREV_CALL:
    case PV_ACT_LONGEST:
    case PV_ACT_SHORTEST:
        r = pv_app_focused_report(a);
        if (!r)
            return true;
        pv_lanes_jump(a, r,
                      act == PV_ACT_NEXT_CALL   ? PV_JUMP_NEXT
                      : act == PV_ACT_PREV_CALL ? PV_JUMP_PREV
                      : act == PV_ACT_LONGEST   ? PV_JUMP_LONGEST
                                                : PV_JUMP_SHORTEST);
        return true;
    default:
        return false;
    }
    pv_app_message(a, true, "the lane keys work under a timeline with lanes");
    return true;
}

bool pv_lanes_goto(pv_app *a, pv_report *r, const char *arg)
{
    if (strcmp(arg, "longest") == 0 || strcmp(arg, "shortest") == 0) {
        pv_lanes_jump(a, r, arg[0] == 'l' ? PV_JUMP_LONGEST : PV_JUMP_SHORTEST);
        return true;
    }
    return false;
}

bool pv_lanes_mouse(pv_app *a, int y, int x, int button)
{
    pv_rect rc = a->lanes.rect;
    pv_report *r;
    if (rc.w <= 0 || y < rc.y || y >= rc.y + rc.h || x < rc.x || x >= rc.x + rc.w ||
        !pv_lanes_here(a, &r))
        return false;
    int64_t t = pv_lane_start((size_t)(x - rc.x), a->lanes.view_t0, a->lanes.view_span,
                              (size_t)rc.w);
    if (button == 4 || button == 5) {
        pv_lanes_zoom(a, r, button == 4 ? 0.5 : 2.0, t);
        return true;
    }
    if (!pv_view_time_ordered(r->view)) {
        pv_app_message(a, true, "the rows are not in time order: :goto TIME scans for it");
        return true;
    }
    /* the first row at or after the column's first time */
    size_t row = pv_lanes_lower(r->view, t);
    if (row < pv_view_rows(r->view)) {
        a->focus = PV_PANE_REPORT;
        pv_lanes_select(a, r, row);
    }
    return true;
}

static bool pv_lanes_panel_mouse(pv_app *a, pv_rect rc, int y, int x, int button)
{
    (void)rc; /* the strip is where it was drawn (a->lanes.rect) */
    return pv_lanes_mouse(a, y, x, button);
}

/* The strip is drawn by the Report pane under its rows (pv_lanes_draw);
 * its keys come from the lane actions (pv_lanes_key). */
const pv_panel pv_panel_lanes = {
    .name = "Lanes",
    .mouse = pv_lanes_panel_mouse,
};
