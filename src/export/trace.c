/*
 * trace.c - the Trace Event Format export (`--format trace-json`,
 * docs/export.md "Trace Event Format"): the JSON object form
 * ({"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}})
 * that Perfetto UI, chrome://tracing and speedscope open.
 *
 * Read from the views and hooks of each exported result set, never from a
 * file: its call view (`call-trace`: one complete event "X" per call, on
 * the track of its context or thread), the frames its calls hold
 * (pv_view_inner_frames: winIDEA line activations, nested in their calls),
 * the data events of its timeline (counter events "C") and the request's
 * markers and bookmarks (instant events "i").  Streamed: each event is
 * written as its row is read, through the export layer's writer; nothing
 * but the selection (4 bytes a selected call) and a stack of open calls is
 * kept.
 *
 * Times are integer ns in the model and microseconds in the format: each
 * is written exactly as `us.fff` (1234567 ns -> 1234.567), never through a
 * float.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profview/export.h"
#include "profview/hooks.h"
#include "profview/output.h"

/* Escaped names remembered by their cell's pointer (model.h: the same
 * (ptr, len) is the same text for the view's life). */
#define TJ_NAMES 4096

typedef struct tj_name {
    const char *ptr;
    size_t len;
    char *esc;
    size_t esc_len;
} tj_name;

/* The tracks (contexts, threads) of one result set: tid = base + index +
 * 1, so that a tid names one track in the whole file. */
typedef struct tj_tracks {
    uint32_t base; /* the tracks of the result sets before */
    char **names;
    size_t count, cap;
    pv_hashmap by_hash; /* FNV-1a of the name -> index (the first of that hash) */
    /* the last name looked up, by pointer */
    const char *last_ptr;
    size_t last_len;
    uint32_t last_tid;
} tj_tracks;

typedef struct tj {
    pv_export_writer w;
    const pv_export_request *r;
    const pv_file *f;
    pv_diag *err;
    const char *out;
    bool first; /* no event written yet */
    bool cancelled;
    uint64_t done, total;
    pv_buf tmp;
    pv_buf cell; /* a cell formatted for tj_text_arg */
    tj_name *names;
    int pid;
    bool *placed; /* per bookmark: written as an instant */
} tj;

/* ---- writing */

/* Bytes into the writer's buffer; the writer itself when they do not fit. */
static inline void tj_put(tj *j, const char *s, size_t len)
{
    pv_export_writer *w = &j->w;
    if (w->cap - w->len >= len) {
        memcpy(w->buf + w->len, s, len);
        w->len += len;
    } else {
        pv_export_writer_write(w, s, len);
    }
}

/* A string literal (its length known when compiled). */
#define tj_lit(j, s) tj_put((j), "" s, sizeof(s) - 1)

static void tj_cstr(tj *j, const char *s)
{
    tj_put(j, s, strlen(s));
}

static void tj_uint(tj *j, uint64_t v)
{
    char d[24];
    size_t n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *p = pv_export_writer_reserve(&j->w, n);
    for (size_t k = 0; k < n; k++)
        p[k] = d[n - 1 - k];
    pv_export_writer_commit(&j->w, n);
}

static void tj_int(tj *j, int64_t v)
{
    if (v < 0) {
        pv_export_writer_putc(&j->w, '-');
        tj_uint(j, (uint64_t)0 - (uint64_t)v);
    } else {
        tj_uint(j, (uint64_t)v);
    }
}

/* ns as microseconds, exactly: "1234.567", "-0.005", "0.000". */
static void tj_us(tj *j, int64_t ns)
{
    uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0)
        pv_export_writer_putc(&j->w, '-');
    tj_uint(j, m / 1000);
    unsigned f = (unsigned)(m % 1000);
    char *p = pv_export_writer_reserve(&j->w, 4);
    p[0] = '.';
    p[1] = (char)('0' + f / 100);
    p[2] = (char)('0' + f / 10 % 10);
    p[3] = (char)('0' + f % 10);
    pv_export_writer_commit(&j->w, 4);
}

/* A JSON string (model.h's escaping: controls, C1 and bytes of invalid
 * UTF-8 as \u00NN), remembered by the text's pointer. */
static void tj_str(tj *j, const char *s, size_t len)
{
    size_t h = (((uintptr_t)s >> 3) ^ (len * 0x9E3779B1u)) & (TJ_NAMES - 1);
    tj_name *n = &j->names[h];
    if (n->ptr != s || n->len != len || !n->esc) {
        pv_buf_clear(&j->tmp);
        pv_json_string(&j->tmp, s ? s : "", s ? len : 0);
        free(n->esc);
        n->esc = pv_xmalloc(j->tmp.len ? j->tmp.len : 1);
        memcpy(n->esc, j->tmp.data, j->tmp.len);
        n->esc_len = j->tmp.len;
        n->ptr = s;
        n->len = len;
    }
    tj_put(j, n->esc, n->esc_len);
}

/* A string not remembered (a text made for this event). */
static void tj_str_once(tj *j, const char *s, size_t len)
{
    pv_buf_clear(&j->tmp);
    pv_json_string(&j->tmp, s, len);
    pv_export_writer_write(&j->w, j->tmp.data, j->tmp.len);
}

/* Names remembered by pointer are forgotten when their view goes. */
static void tj_forget_names(tj *j)
{
    for (size_t k = 0; k < TJ_NAMES; k++) {
        free(j->names[k].esc);
        memset(&j->names[k], 0, sizeof j->names[k]);
    }
}

/* Starts an event: the separator, then "{". */
static void tj_event(tj *j)
{
    if (!j->first)
        pv_export_writer_putc(&j->w, ',');
    pv_export_writer_putc(&j->w, '\n');
    pv_export_writer_putc(&j->w, '{');
    j->first = false;
}

/* Progress every 4096 events; false once cancelled. */
static bool tj_step(tj *j)
{
    j->done++;
    if ((j->done & 4095) == 0 &&
        !pv_progress_step(&j->r->progress, "exporting", j->done, j->total))
        j->cancelled = true;
    return !j->cancelled;
}

/* ---- cells */

static bool tj_cell_int(const pv_view *v, size_t row, size_t col, int64_t *out)
{
    if (col == PV_NO_ROW)
        return false;
    pv_cell c;
    pv_view_cell(v, row, col, &c);
    if (!c.present)
        return false;
    switch (c.type) {
    case PV_TYPE_INT:
    case PV_TYPE_TIME: *out = c.v.i; return true;
    case PV_TYPE_HANDLE:
    case PV_TYPE_HEX: *out = (int64_t)c.v.u; return true;
    case PV_TYPE_FLOAT: *out = (int64_t)c.v.f; return true;
    default: return false;
    }
}

/* The text of a cell: a STRING's own (ptr, len, *stable true), any other
 * type formatted into buf. */
static void tj_cell_text(const pv_view *v, size_t row, size_t col, pv_buf *buf, const char **s,
                         size_t *len, bool *stable)
{
    *s = "";
    *len = 0;
    *stable = false;
    if (col == PV_NO_ROW)
        return;
    pv_cell c;
    pv_view_cell(v, row, col, &c);
    if (!c.present)
        return;
    if (c.type == PV_TYPE_STRING) {
        *s = c.v.s.ptr ? c.v.s.ptr : "";
        *len = c.v.s.ptr ? c.v.s.len : 0;
        *stable = c.v.s.ptr != NULL;
        return;
    }
    pv_buf_clear(buf);
    pv_cell_format_exact(&c, buf);
    *s = pv_buf_cstr(buf);
    *len = buf->len;
}

/* ---- tracks */

static uint64_t tj_hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t k = 0; k < len; k++)
        h = (h ^ (unsigned char)s[k]) * 0x100000001b3ull;
    return h;
}

static void tj_tracks_free(tj_tracks *t)
{
    for (size_t k = 0; k < t->count; k++)
        free(t->names[k]);
    free(t->names);
    pv_hashmap_free(&t->by_hash);
    uint32_t base = t->base;
    memset(t, 0, sizeof *t);
    t->base = base;
}

/* The tid of the context or thread named s; a new one gets its
 * thread_name (and sort index) metadata event first. */
static uint32_t tj_track(tj *j, tj_tracks *t, const char *s, size_t len, bool stable)
{
    if (stable && t->last_ptr == s && t->last_len == len && t->count)
        return t->last_tid;
    uint64_t h = tj_hash(s, len);
    uint32_t at;
    size_t found = SIZE_MAX;
    if (pv_hashmap_get(&t->by_hash, h, &at)) {
        if (strlen(t->names[at]) == len && memcmp(t->names[at], s, len) == 0)
            found = at;
        else /* another name of the same hash: look at each */
            for (size_t k = 0; k < t->count && found == SIZE_MAX; k++)
                if (strlen(t->names[k]) == len && memcmp(t->names[k], s, len) == 0)
                    found = k;
    }
    if (found == SIZE_MAX) {
        found = t->count;
        t->names = pv_xgrow(t->names, &t->cap, t->count + 1, sizeof *t->names);
        t->names[t->count++] = pv_xstrndup(s, len);
        if (!pv_hashmap_get(&t->by_hash, h, &at))
            pv_hashmap_put(&t->by_hash, h, (uint32_t)found);
        uint32_t tid = t->base + (uint32_t)found + 1;
        tj_event(j);
        tj_lit(j, "\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":");
        tj_int(j, j->pid);
        tj_lit(j, ",\"tid\":");
        tj_uint(j, tid);
        tj_lit(j, ",\"args\":{\"name\":");
        if (len)
            tj_str_once(j, s, len);
        else
            tj_lit(j, "\"(no context)\"");
        tj_lit(j, "}}");
        tj_event(j);
        tj_lit(j, "\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":");
        tj_int(j, j->pid);
        tj_lit(j, ",\"tid\":");
        tj_uint(j, tid);
        tj_lit(j, ",\"args\":{\"sort_index\":");
        tj_uint(j, tid);
        tj_lit(j, "}}");
    }
    if (stable) {
        t->last_ptr = s;
        t->last_len = len;
        t->last_tid = t->base + (uint32_t)found + 1;
    }
    return t->base + (uint32_t)found + 1;
}

static void tj_instant(tj *j, int64_t ts, const char *name, size_t len);
static void tj_bookmark_args(tj *j, const pv_export_bookmark *b);
static void tj_bookmark(tj *j, const pv_export_bookmark *b, int64_t ts);

/* ---- the calls */

/* The columns of a call view (and of its inner frames). */
typedef struct tj_cols {
    size_t id, parent, routine, thread, depth, net, total, entry, exit, call;
    size_t module, source, line; /* where the routine is, as the view has it */
} tj_cols;

static void tj_cols_of(const pv_view *v, tj_cols *c)
{
    c->id = pv_view_column(v, "id");
    c->parent = pv_view_column(v, "parent");
    c->routine = pv_view_column(v, "routine");
    if (c->routine == PV_NO_ROW)
        c->routine = pv_view_name_column(v);
    c->thread = pv_view_column(v, "context");
    if (c->thread == PV_NO_ROW)
        c->thread = pv_view_column(v, "thread");
    c->depth = pv_view_column(v, "depth");
    c->net = pv_view_column(v, "time");
    c->total = pv_view_column(v, "time_with_children");
    c->entry = pv_view_column(v, "entry_time");
    c->exit = pv_view_column(v, "exit_time");
    c->call = pv_view_column(v, "call_time");
    c->module = pv_view_column(v, "module");
    c->source = pv_view_column(v, "source");
    c->line = pv_view_column(v, "line");
}

/* A call view has a clock when its calls have entry times. */
static bool tj_clocked(const pv_view *v, const tj_cols *c)
{
    return c->entry != PV_NO_ROW && v->columns[c->entry].type == PV_TYPE_TIME;
}

/* The selection in view order (the viewer's rows come in the order shown). */
static int tj_row_cmp(const void *a, const void *b)
{
    pv_row x = *(const pv_row *)a, y = *(const pv_row *)b;
    return x < y ? -1 : x > y;
}

static bool tj_selected(const pv_row *rows, size_t n, size_t row)
{
    if (!rows)
        return row < n;
    size_t lo = pv_u32_lower_bound(rows, 0, n, row);
    return lo < n && rows[lo] == row;
}

/* Reads a row's track through the thread column's runs when the view has
 * them (a call trace's calls come context by context). */
typedef struct tj_run {
    size_t end;
    uint32_t tid;
} tj_run;

static uint32_t tj_row_track(tj *j, tj_tracks *t, const pv_view *v, size_t col, size_t row,
                             tj_run *run)
{
    if (run && run->tid && row < run->end)
        return run->tid;
    const char *s;
    size_t len;
    bool stable;
    tj_cell_text(v, row, col, &j->tmp, &s, &len, &stable);
    char *copy = stable ? NULL : pv_xstrndup(s, len); /* j->tmp is reused below */
    uint32_t tid = tj_track(j, t, copy ? copy : s, len, stable);
    free(copy);
    uint64_t code;
    size_t end;
    if (run) {
        run->tid = 0;
        run->end = 0;
        if (col != PV_NO_ROW && pv_view_column_run(v, col, row, &code, &end)) {
            run->tid = tid;
            run->end = end;
        }
    }
    return tid;
}

/* One complete event: a call's or a line activation's. */
static void tj_complete(tj *j, bool line, uint32_t tid, int64_t ts, int64_t dur, const char *name,
                        size_t len, bool stable)
{
    tj_event(j);
    if (line)
        tj_lit(j, "\"ph\":\"X\",\"cat\":\"line\",\"pid\":");
    else
        tj_lit(j, "\"ph\":\"X\",\"cat\":\"call\",\"pid\":");
    tj_int(j, j->pid);
    tj_lit(j, ",\"tid\":");
    tj_uint(j, tid);
    tj_lit(j, ",\"ts\":");
    tj_us(j, ts);
    tj_lit(j, ",\"dur\":");
    tj_us(j, dur < 0 ? 0 : dur);
    tj_lit(j, ",\"name\":");
    if (stable)
        tj_str(j, name, len);
    else
        tj_str_once(j, name, len);
}

/* Does [ts, end] meet the request's window (the viewer's markers)? */
static bool tj_in_window(const pv_export_request *r, int64_t ts, int64_t end)
{
    return !(r->has_to && ts > r->to) && !(r->has_from && end < r->from);
}

/* A placed call of a trace without a clock: its start and the start of
 * its next child. */
typedef struct tj_open {
    size_t row;
    int64_t start, next;
} tj_open;

typedef struct tj_set {
    const pv_result_set *set;
    const pv_view *calls;    /* the call view, or NULL */
    const pv_view *timeline; /* the events (counters), or NULL */
    tj_cols c;
    bool clocked;
    pv_row *rows; /* the selected calls in view order, NULL: every call */
    size_t n;
    int64_t span_last; /* the time of the last event (an open call ends there) */
    bool has_span;
    tj_tracks tracks;
} tj_set;

static bool tj_areas_match(const pv_export_request *r, const char *s, size_t len)
{
    return !r->areas || pv_export_glob_match(r->areas, s, len);
}

/* A text arg `key` (",\"module\":") of the cell at (row, col), when it
 * holds a text: a STRING's own remembered by its pointer (a module is
 * the same few texts over and over), any other formatted. */
static void tj_text_arg(tj *j, const pv_view *v, size_t row, size_t col, const char *key)
{
    const char *t;
    size_t len;
    bool stable;
    tj_cell_text(v, row, col, &j->cell, &t, &len, &stable);
    if (!len)
        return;
    tj_put(j, key, strlen(key));
    if (stable)
        tj_str(j, t, len);
    else
        tj_str_once(j, t, len);
}

/* Call `row` of v, named `name`, as a complete event on track tid from ts
 * for dur, with its id (else its row number), net time and depth as args:
 * the one event of both walks of the calls (with a clock and placed). */
static void tj_call(tj *j, const pv_view *v, const tj_cols *c, size_t row, uint32_t tid,
                    int64_t ts, int64_t dur, const char *name, size_t len, bool stable)
{
    int64_t v64;
    tj_complete(j, false, tid, ts, dur, name, len, stable);
    tj_lit(j, ",\"args\":{\"id\":");
    if (tj_cell_int(v, row, c->id, &v64))
        tj_int(j, v64);
    else
        tj_uint(j, row + 1);
    if (tj_cell_int(v, row, c->net, &v64)) {
        tj_lit(j, ",\"net\":");
        tj_int(j, v64);
    }
    if (tj_cell_int(v, row, c->depth, &v64)) {
        tj_lit(j, ",\"depth\":");
        tj_int(j, v64);
    }
    tj_text_arg(j, v, row, c->module, ",\"module\":");
    tj_text_arg(j, v, row, c->source, ",\"source\":");
    if (tj_cell_int(v, row, c->line, &v64) && v64 > 0) {
        tj_lit(j, ",\"line\":");
        tj_int(j, v64);
    }
    tj_lit(j, "}}");
}

/* The calls of a view with a clock: ts = entry_time, dur = exit_time -
 * entry_time (a call open at the end: to the last event). */
static bool tj_calls_clocked(tj *j, tj_set *s)
{
    const pv_view *v = s->calls;
    const tj_cols *c = &s->c;
    tj_run run = {0, 0};
    pv_buf text;
    pv_buf_init(&text);
    for (size_t k = 0; k < s->n && !j->cancelled; k++) {
        size_t row = s->rows ? s->rows[k] : k;
        int64_t ts, end, v64;
        if (!tj_cell_int(v, row, c->entry, &ts)) {
            tj_step(j);
            continue;
        }
        if (!tj_cell_int(v, row, c->exit, &end)) {
            if (s->has_span && s->span_last >= ts)
                end = s->span_last;
            else if (tj_cell_int(v, row, c->call, &v64))
                end = pv_add_sat(ts, v64);
            else
                end = ts;
        }
        const char *name;
        size_t len;
        bool stable;
        tj_cell_text(v, row, c->routine, &text, &name, &len, &stable);
        if (!tj_in_window(j->r, ts, end) || !tj_areas_match(j->r, name, len)) {
            tj_step(j);
            continue;
        }
        uint32_t tid = tj_row_track(j, &s->tracks, v, c->thread, row, &run);
        tj_call(j, v, c, row, tid, ts, pv_add_sat(end, -ts), name, len, stable);
        tj_step(j);
    }
    pv_buf_free(&text);
    return !j->cancelled;
}

/* The calls of a view without a clock (an AQTime call trace, a PLIST call
 * tree): each starts where its previous sibling ended (the first child at
 * its parent's start), the roots of a thread one after another from 0; a
 * call lasts its time_with_children.  Every call is placed, in view order
 * (pre-order), the selected ones written. */
static bool tj_calls_placed(tj *j, tj_set *s)
{
    const pv_view *v = s->calls;
    const tj_cols *c = &s->c;
    size_t total = pv_view_rows(v);
    tj_open *stack = NULL;
    size_t depth = 0, cap = 0;
    int64_t *cursor = NULL; /* per track: where its next root starts */
    size_t cursor_cap = 0, cursor_len = 0;
    size_t sel = 0;
    pv_buf text;
    pv_buf_init(&text);
    /* bookmarks of calls of this view (the first result set's): at the
     * calls' places */
    const pv_export_request *r = j->r;
    bool marks = false;
    for (size_t b = 0; b < r->bookmark_count && j->pid == 1; b++)
        marks |= !r->bookmarks[b].has_time && r->bookmarks[b].view &&
                 strcmp(r->bookmarks[b].view, v->id) == 0;
    for (size_t row = 0; row < total && !j->cancelled; row++) {
        int64_t dur = 0, v64;
        if (tj_cell_int(v, row, c->total, &v64) || tj_cell_int(v, row, c->net, &v64))
            dur = v64 < 0 ? 0 : v64;
        size_t parent = pv_view_parent(v, row);
        while (depth && stack[depth - 1].row != parent)
            depth--;
        uint32_t tid = tj_row_track(j, &s->tracks, v, c->thread, row, NULL);
        int64_t start;
        if (depth) {
            start = stack[depth - 1].next;
            stack[depth - 1].next = pv_add_sat(start, dur);
        } else {
            /* a root (or a call whose parent came later: placed as one) */
            size_t at = tid - s->tracks.base - 1;
            if (at >= cursor_len) {
                cursor = pv_xgrow(cursor, &cursor_cap, at + 1, sizeof *cursor);
                memset(cursor + cursor_len, 0, (at + 1 - cursor_len) * sizeof *cursor);
                cursor_len = at + 1;
            }
            start = cursor[at];
            cursor[at] = pv_add_sat(start, dur);
        }
        stack = pv_xgrow(stack, &cap, depth + 1, sizeof *stack);
        stack[depth++] = (tj_open){row, start, start};
        for (size_t b = 0; marks && b < r->bookmark_count; b++)
            if (!j->placed[b] && !r->bookmarks[b].has_time && r->bookmarks[b].row == row &&
                r->bookmarks[b].view && strcmp(r->bookmarks[b].view, v->id) == 0) {
                tj_bookmark(j, &r->bookmarks[b], start);
                j->placed[b] = true;
            }
        bool want;
        if (s->rows) {
            while (sel < s->n && s->rows[sel] < row)
                sel++;
            want = sel < s->n && s->rows[sel] == row;
        } else {
            want = true;
        }
        if (!want)
            continue;
        const char *name;
        size_t len;
        bool stable;
        tj_cell_text(v, row, c->routine, &text, &name, &len, &stable);
        if (!tj_areas_match(j->r, name, len)) {
            tj_step(j);
            continue;
        }
        tj_call(j, v, c, row, tid, start, dur, name, len, stable);
        tj_step(j);
    }
    free(stack);
    free(cursor);
    pv_buf_free(&text);
    return !j->cancelled;
}

/* The frames inside the calls (pv_view_inner_frames: winIDEA line
 * activations) that have times, each on its call's track, nested in it by
 * time: written when the call it runs in is (a frame at the top of its
 * context, when the calls are not narrowed by a filter or rows). */
static bool tj_inner_frames(tj *j, tj_set *s)
{
    pv_view *lv = pv_view_inner_frames(s->calls);
    if (!lv)
        return true;
    tj_cols c;
    tj_cols_of(lv, &c);
    if (!tj_clocked(lv, &c)) {
        pv_view_free(lv);
        return true;
    }
    const pv_export_request *r = j->r;
    bool narrowed = r->filter || r->rows;
    size_t n = pv_view_rows(lv);
    pv_buf text, ctx;
    pv_buf_init(&text);
    pv_buf_init(&ctx);
    for (size_t row = 0; row < n && !j->cancelled; row++) {
        int64_t parent = 0, ts, end, v64;
        bool top = !tj_cell_int(lv, row, c.parent, &parent) || parent < 1;
        if (top ? narrowed : !tj_selected(s->rows, s->n, (size_t)(parent - 1))) {
            tj_step(j);
            continue;
        }
        if (!tj_cell_int(lv, row, c.entry, &ts)) {
            tj_step(j);
            continue;
        }
        if (!tj_cell_int(lv, row, c.exit, &end))
            end = s->has_span && s->span_last >= ts ? s->span_last : ts;
        const char *name, *cs;
        size_t len, cl;
        bool stable, cstable;
        tj_cell_text(lv, row, c.thread, &ctx, &cs, &cl, &cstable);
        if (!tj_in_window(r, ts, end) ||
            (top && r->context && (strlen(r->context) != cl || memcmp(r->context, cs, cl) != 0))) {
            tj_step(j);
            continue;
        }
        tj_cell_text(lv, row, c.routine, &text, &name, &len, &stable);
        /* --areas: the lines of a kept function, or a line of that name */
        if (top && !tj_areas_match(r, name, len)) {
            tj_step(j);
            continue;
        }
        char *copy = cstable ? NULL : pv_xstrndup(cs, cl);
        uint32_t tid = tj_track(j, &s->tracks, copy ? copy : cs, cl, cstable);
        free(copy);
        tj_cell_text(lv, row, c.routine, &text, &name, &len, &stable);
        tj_complete(j, true, tid, ts, pv_add_sat(end, -ts), name, len, stable);
        tj_lit(j, ",\"args\":{");
        const char *sep = "";
        if (!top) {
            tj_lit(j, "\"call\":");
            int64_t id;
            if (tj_cell_int(s->calls, (size_t)(parent - 1), s->c.id, &id))
                tj_int(j, id);
            else
                tj_int(j, parent);
            sep = ",";
        }
        if (tj_cell_int(lv, row, c.net, &v64)) {
            tj_cstr(j, sep);
            tj_lit(j, "\"net\":");
            tj_int(j, v64);
        }
        tj_lit(j, "}}");
        tj_step(j);
    }
    pv_buf_free(&text);
    pv_buf_free(&ctx);
    pv_view_free(lv);
    tj_forget_names(j);
    return !j->cancelled;
}

/* ---- counters: the data events of the timeline */

static void tj_count_value(void *ctx, const char *s, size_t len)
{
    (void)s;
    (void)len;
    (*(size_t *)ctx)++;
}

/* Events of no context with a value (a variable's write, a state's entry,
 * an AQTime has none): one counter event each, on the counter track named
 * by the area, the value as series "value" (a state's as "state").  Every
 * data event is kept by --context (they belong to no context), --areas
 * keeps the areas it names, the window its events. */
static bool tj_counters(tj *j, tj_set *s)
{
    const pv_view *v = s->timeline;
    size_t t_col = pv_view_column(v, "time"), name_col = pv_view_column(v, "name");
    size_t ctx_col = pv_view_column(v, "context"), val_col = pv_view_column(v, "value");
    size_t type_col = pv_view_column(v, "type");
    if (val_col == PV_NO_ROW || name_col == PV_NO_ROW)
        return true;
    /* the context as codes: a code of no context name is no context */
    pv_int_array codes = {0};
    size_t names = 0;
    bool coded = ctx_col != PV_NO_ROW && pv_view_code_column(v, ctx_col, &codes) &&
                 pv_view_column_values(v, ctx_col, tj_count_value, &names);
    size_t n = pv_view_rows(v);
    const pv_export_request *r = j->r;
    pv_buf text, num;
    pv_buf_init(&text);
    pv_buf_init(&num);
    for (size_t row = 0; row < n && !j->cancelled; row++) {
        if (coded) {
            const unsigned char *p = (const unsigned char *)codes.base + row * codes.width;
            size_t code = p[0];
            if (codes.width == 2) {
                uint16_t w;
                memcpy(&w, p, 2);
                code = w;
            }
            if (code < names) {
                tj_step(j);
                continue;
            }
        } else if (ctx_col != PV_NO_ROW) {
            pv_cell cc;
            pv_view_cell(v, row, ctx_col, &cc);
            if (cc.present && (cc.type != PV_TYPE_STRING || cc.v.s.len)) {
                tj_step(j);
                continue;
            }
        }
        pv_cell val;
        pv_view_cell(v, row, val_col, &val);
        int64_t t;
        if (!val.present || (!pv_view_row_time(v, row, &t) && !tj_cell_int(v, row, t_col, &t)) ||
            (r->has_from && t < r->from) || (r->has_to && t > r->to)) {
            tj_step(j);
            continue;
        }
        pv_buf_clear(&num);
        char digits[24];
        size_t nd = 0;
        uint64_t mag = 0;
        bool neg = false;
        switch (val.type) {
        case PV_TYPE_HEX:
        case PV_TYPE_HANDLE: mag = val.v.u; nd = 1; break;
        case PV_TYPE_INT:
        case PV_TYPE_TIME:
            neg = val.v.i < 0;
            mag = neg ? (uint64_t)0 - (uint64_t)val.v.i : (uint64_t)val.v.i;
            nd = 1;
            break;
        case PV_TYPE_FLOAT:
            pv_cell_format_exact(&val, &num);
            /* JSON has no NaN or infinity: such a value is left out */
            if (strchr(pv_buf_cstr(&num), 'n') || strchr(pv_buf_cstr(&num), 'N'))
                pv_buf_clear(&num);
            break;
        default: break;
        }
        if (nd) { /* an integer, digit by digit */
            nd = 0;
            do {
                digits[sizeof digits - 1 - nd++] = (char)('0' + mag % 10);
                mag /= 10;
            } while (mag);
            if (neg)
                digits[sizeof digits - 1 - nd++] = '-';
            pv_buf_append(&num, digits + sizeof digits - nd, nd);
        }
        const char *name;
        size_t len;
        bool stable;
        tj_cell_text(v, row, name_col, &text, &name, &len, &stable);
        if (!num.len || !tj_areas_match(r, name, len)) {
            tj_step(j);
            continue;
        }
        bool state = false;
        if (type_col != PV_NO_ROW) {
            pv_cell ty;
            pv_view_cell(v, row, type_col, &ty);
            state = ty.present && ty.type == PV_TYPE_STRING && ty.v.s.ptr && ty.v.s.len >= 5 &&
                    memcmp(ty.v.s.ptr + ty.v.s.len - 5, "state", 5) == 0;
        }
        tj_event(j);
        tj_lit(j, "\"ph\":\"C\",\"pid\":");
        tj_int(j, j->pid);
        tj_lit(j, ",\"ts\":");
        tj_us(j, t);
        tj_lit(j, ",\"name\":");
        if (stable)
            tj_str(j, name, len);
        else
            tj_str_once(j, name, len);
        if (state)
            tj_lit(j, ",\"args\":{\"state\":");
        else
            tj_lit(j, ",\"args\":{\"value\":");
        tj_put(j, num.data, num.len);
        tj_lit(j, "}}");
        tj_step(j);
    }
    pv_buf_free(&text);
    pv_buf_free(&num);
    return !j->cancelled;
}

/* ---- instants: markers and bookmarks */

static void tj_instant(tj *j, int64_t ts, const char *name, size_t len)
{
    tj_event(j);
    tj_lit(j, "\"ph\":\"i\",\"s\":\"g\",\"pid\":");
    tj_int(j, j->pid);
    tj_lit(j, ",\"tid\":0,\"ts\":");
    tj_us(j, ts);
    tj_lit(j, ",\"name\":");
    tj_str_once(j, name, len);
}

static void tj_bookmark_args(tj *j, const pv_export_bookmark *b)
{
    tj_lit(j, "{\"view\":");
    tj_str_once(j, b->view ? b->view : "", b->view ? strlen(b->view) : 0);
    tj_lit(j, ",\"row\":");
    tj_uint(j, b->row);
    if (b->note) {
        tj_lit(j, ",\"note\":");
        tj_str_once(j, b->note, strlen(b->note));
    }
    pv_export_writer_putc(&j->w, '}');
}

static void tj_bookmark(tj *j, const pv_export_bookmark *b, int64_t ts)
{
    pv_buf name;
    pv_buf_init(&name);
    pv_buf_printf(&name, "bookmark%s%s", b->note && b->note[0] ? ": " : "", b->note ? b->note : "");
    tj_instant(j, ts, name.data, name.len);
    pv_buf_free(&name);
    tj_lit(j, ",\"args\":");
    tj_bookmark_args(j, b);
    tj_lit(j, "}");
}

/* Markers (on a clock: `clock` false for a placed call trace, whose
 * times are no times) and the bookmarks with a time. */
static void tj_instants(tj *j, bool clock)
{
    const pv_export_request *r = j->r;
    static const char *const marks[2] = {"marker A", "marker B"};
    for (int k = 0; k < 2; k++)
        if (r->has_mark[k] && clock) {
            tj_instant(j, r->mark[k], marks[k], strlen(marks[k]));
            tj_lit(j, "}");
        }
    for (size_t k = 0; k < r->bookmark_count; k++)
        if (r->bookmarks[k].has_time) {
            tj_bookmark(j, &r->bookmarks[k], r->bookmarks[k].time);
            j->placed[k] = true;
        }
}

/* ---- the file */

static void tj_set_free(const pv_export_request *r, tj_set *s)
{
    if (s->rows)
        pv_export_dispose(r, s->rows, pv_export_selection_room(s->calls, r, true) * sizeof *s->rows);
    tj_tracks_free(&s->tracks);
}

/* What a set's file metadata says of its clock. */
static void tj_clock_note(tj *j, const tj_set *s)
{
    if (!s->calls || s->clocked) {
        tj_lit(j, "\"recorded: ts is each call's entry_time, dur its exit_time - entry_time (a call "
                  "open at the end lasts to the last event), in microseconds to the ns\"");
        return;
    }
    bool time = s->c.total != PV_NO_ROW && s->calls->columns[s->c.total].type == PV_TYPE_TIME;
    tj_cstr(j, time ? "\"none: the call trace has no clock; each call is placed by the cumulative "
                     "time_with_children of its earlier siblings (the first child at its parent's "
                     "start, the roots of a thread one after another from 0), dur its "
                     "time_with_children\""
                   : "\"none: the call trace has no clock and its times are counts (the counter's "
                     "unit, written as ns); each call is placed by the cumulative "
                     "time_with_children of its earlier siblings (the first child at its parent's "
                     "start, the roots of a thread one after another from 0), dur its "
                     "time_with_children\"");
}

/* The end of the file: the metadata (otherData) with each result set's
 * clock and the bookmarks that have no place on a track. */
static void tj_trailer(tj *j, const pv_file *f, const tj_set *sets, size_t count)
{
    const pv_export_request *r = j->r;
    tj_lit(j, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"exporter\":\"profview\",\"source\":");
    tj_str_once(j, f->path, strlen(f->path));
    tj_lit(j, ",\"source_format\":");
    tj_str_once(j, f->format ? f->format : "", f->format ? strlen(f->format) : 0);
    tj_lit(j, ",\"time_unit\":\"ts and dur in microseconds with the ns as 3 decimals\"");
    for (size_t k = 0; k < count; k++) {
        pv_buf key;
        pv_buf_init(&key);
        pv_buf_printf(&key, "clock of pid %zu (%s)", k + 1,
                      sets[k].set->caption ? sets[k].set->caption : "");
        pv_export_writer_putc(&j->w, ',');
        tj_str_once(j, key.data, key.len);
        pv_export_writer_putc(&j->w, ':');
        tj_clock_note(j, &sets[k]);
        pv_buf_free(&key);
    }
    bool untimed = false;
    for (size_t k = 0; k < r->bookmark_count; k++)
        untimed |= !j->placed[k];
    if (untimed) {
        /* bookmarks of rows without a time or a place: listed */
        tj_lit(j, ",\"bookmarks without a time\":[");
        const char *sep = "";
        for (size_t k = 0; k < r->bookmark_count; k++)
            if (!j->placed[k]) {
                tj_cstr(j, sep);
                tj_bookmark_args(j, &r->bookmarks[k]);
                sep = ",";
            }
        pv_export_writer_putc(&j->w, ']');
    }
    tj_lit(j, "}\n}\n");
}

pv_export_status pv_export_trace_json(const pv_file *f, const pv_export_request *r,
                                      pv_export_target *t, pv_diag *err)
{
    const char *out = pv_export_target_path(t);
    if (r->instance >= 0 && !pv_file_find_set(f, r->instance)) {
        pv_error(err, "%s: no result set with id %" PRId64, f->path, r->instance);
        return PV_EXPORT_USAGE;
    }
    /* the sets to write: those with a call view or a timeline */
    tj_set *sets = pv_xcalloc(f->set_count ? f->set_count : 1, sizeof *sets);
    size_t count = 0;
    pv_export_status st = PV_EXPORT_USAGE;
    uint64_t total = 0;
    for (size_t k = 0; k < f->set_count; k++) {
        const pv_result_set *set = f->sets[k];
        if (r->instance >= 0 && set->id != r->instance)
            continue;
        tj_set *s = &sets[count];
        s->set = set;
        s->calls = pv_set_find_view(set, "call-trace");
        s->timeline = pv_set_find_view(set, "timeline");
        if (!s->calls && !s->timeline)
            continue;
        count++;
        if (s->calls)
            tj_cols_of(s->calls, &s->c);
        s->clocked = s->calls && tj_clocked(s->calls, &s->c);
        if (s->timeline)
            s->has_span = pv_view_time_span(s->timeline, &(int64_t){0}, &s->span_last);
        if (r->view_id && (!s->calls || strcmp(r->view_id, s->calls->id) != 0)) {
            pv_error(err, "%s: trace-json writes the call trace (a filter or rows apply to its "
                          "calls): --view call-trace, not '%s'",
                     f->path, r->view_id);
            goto done;
        }
        if (s->calls) {
            /* the filter, the rows and --context as for any view; --areas
             * by the routine, below */
            pv_export_request sel = *r;
            sel.areas = NULL;
            bool ok;
            s->rows = pv_export_select_rows(s->calls, &sel, true, &s->n, err, &ok);
            if (!ok) {
                st = r->progress.cancel && *r->progress.cancel ? PV_EXPORT_CANCELLED
                                                                : PV_EXPORT_USAGE;
                goto done;
            }
            if (s->rows) {
                bool sorted = true;
                for (size_t i = 1; i < s->n && sorted; i++)
                    sorted = s->rows[i - 1] < s->rows[i];
                if (!sorted)
                    qsort(s->rows, s->n, sizeof *s->rows, tj_row_cmp);
            }
            total += s->clocked ? s->n : pv_view_rows(s->calls);
        }
        if (s->timeline)
            total += pv_view_rows(s->timeline);
    }
    if (!count) {
        pv_error(err, "%s: is %s: trace-json writes calls and timelines, and %s has none; use "
                      "--format sqlite",
                 f->path, f->format ? f->format : "?",
                 r->instance >= 0 ? "that result set" : "this file");
        goto done;
    }
    const char *temp;
    st = PV_EXPORT_FAILED;
    if (!pv_export_target_add(t, out, &temp, err))
        goto done;
    tj j;
    memset(&j, 0, sizeof j);
    j.r = r;
    j.f = f;
    j.err = err;
    j.out = out;
    j.first = true;
    j.total = total;
    pv_buf_init(&j.tmp);
    pv_buf_init(&j.cell);
    if (!pv_export_writer_open(&j.w, temp, err)) {
        pv_buf_free(&j.tmp);
        pv_buf_free(&j.cell);
        goto done;
    }
    j.names = pv_xcalloc(TJ_NAMES, sizeof *j.names);
    j.placed = pv_xcalloc(r->bookmark_count ? r->bookmark_count : 1, sizeof *j.placed);
    tj_lit(&j, "{\"traceEvents\":[");
    for (size_t k = 0; k < count && !j.cancelled; k++) {
        tj_set *s = &sets[k];
        j.pid = (int)k + 1;
        s->tracks.base = k ? sets[k - 1].tracks.base + (uint32_t)sets[k - 1].tracks.count : 0;
        tj_event(&j);
        tj_lit(&j, "\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
        tj_int(&j, j.pid);
        tj_lit(&j, ",\"tid\":0,\"args\":{\"name\":");
        tj_str_once(&j, s->set->caption ? s->set->caption : "", s->set->caption ? strlen(s->set->caption) : 0);
        tj_lit(&j, "}}");
        if (k == 0)
            tj_instants(&j, s->clocked || !s->calls);
        if (s->calls) {
            if (s->clocked ? !tj_calls_clocked(&j, s) : !tj_calls_placed(&j, s))
                break;
            if (s->clocked && !tj_inner_frames(&j, s))
                break;
        }
        if (s->timeline && (s->clocked || !s->calls) && !tj_counters(&j, s))
            break;
    }
    tj_trailer(&j, f, sets, count);
    tj_forget_names(&j);
    free(j.names);
    free(j.placed);
    pv_buf_free(&j.tmp);
    pv_buf_free(&j.cell);
    if (j.cancelled) {
        pv_export_writer_discard(&j.w);
        st = PV_EXPORT_CANCELLED;
        goto done;
    }
    j.w.progress = &r->progress;
    j.w.what = "writing to disk";
    j.w.done = j.done;
    j.w.total = j.total;
    st = pv_export_writer_close(&j.w, out, err) ? PV_EXPORT_OK : PV_EXPORT_FAILED;
done:
    for (size_t k = 0; k < count; k++)
        tj_set_free(r, &sets[k]);
    free(sets);
    return st;
}
