/* text.c - escaping names for the terminal, and the drawing grid. */
#include "tui/text.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Length of the valid UTF-8 sequence at s (1-4) and its code point, or 0
 * when the bytes are not valid UTF-8 (overlong, surrogate, truncated). */
static size_t pv_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t need;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xe0) == 0xc0) {
        need = 2, v = c & 0x1fu, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        need = 3, v = c & 0x0fu, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
        need = 4, v = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (len < need)
        return 0;
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3fu);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return need;
}

static int pv_cp_width(uint32_t cp, bool utf8)
{
    if (!utf8 || cp < 0x80)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? -1 : w;
}

void pv_text_escape(pv_buf *out, const char *s, size_t len, bool utf8)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t n = pv_utf8_decode(u + i, len - i, &cp);
        if (n == 0) {
            pv_buf_printf(out, "\\x%02X", u[i]);
            i++;
        } else if (cp < 0x20 || cp == 0x7f) {
            pv_buf_printf(out, "\\x%02X", (unsigned)cp);
            i++;
        } else if (cp < 0x80) {
            pv_buf_putc(out, (char)cp);
            i++;
        } else if (!utf8) {
            for (size_t k = 0; k < n; k++)
                pv_buf_printf(out, "\\x%02X", u[i + k]);
            i += n;
        } else if ((cp >= 0x80 && cp < 0xa0) || pv_cp_width(cp, true) < 0 ||
                   (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
            /* C1 controls, unprintable and bidi overrides: never raw. */
            pv_buf_printf(out, "\\u%04X", (unsigned)cp);
            i += n;
        } else {
            pv_buf_append(out, s + i, n);
            i += n;
        }
    }
}

size_t pv_text_width(const char *s, size_t len, bool utf8)
{
    pv_buf tmp;
    pv_buf_init(&tmp);
    pv_text_escape(&tmp, s, len, utf8);
    size_t w = 0;
    const unsigned char *u = (const unsigned char *)tmp.data;
    for (size_t i = 0; i < tmp.len;) {
        uint32_t cp;
        size_t n = pv_utf8_decode(u + i, tmp.len - i, &cp);
        if (!n)
            n = 1, cp = '?';
        int cw = pv_cp_width(cp, utf8);
        w += cw > 0 ? (size_t)cw : 0;
        i += n;
    }
    pv_buf_free(&tmp);
    return w;
}

void pv_grid_init(pv_grid *g, bool utf8)
{
    memset(g, 0, sizeof *g);
    g->utf8 = utf8;
    pv_buf_init(&g->scratch);
}

void pv_grid_free(pv_grid *g)
{
    free(g->cells);
    pv_buf_free(&g->scratch);
    g->cells = NULL;
}

void pv_grid_resize(pv_grid *g, int width, int height)
{
    if (width < 1)
        width = 1;
    if (height < 1)
        height = 1;
    free(g->cells);
    g->width = width;
    g->height = height;
    g->cells = pv_xcalloc((size_t)width * (size_t)height, sizeof *g->cells);
    pv_grid_fill(g, 0, 0, width, height, PV_ROLE_NORMAL);
}

static pv_gcell *pv_grid_at(pv_grid *g, int y, int x)
{
    if (y < 0 || x < 0 || y >= g->height || x >= g->width)
        return NULL;
    return &g->cells[(size_t)y * (size_t)g->width + (size_t)x];
}

void pv_grid_fill(pv_grid *g, int y, int x, int w, int h, pv_role role)
{
    for (int r = y; r < y + h; r++)
        for (int c = x; c < x + w; c++) {
            pv_gcell *cell = pv_grid_at(g, r, c);
            if (cell)
                *cell = (pv_gcell){' ', (uint8_t)role};
        }
}

void pv_grid_paint(pv_grid *g, int y, int x, int w, pv_role role)
{
    for (int c = x; c < x + w; c++) {
        pv_gcell *cell = pv_grid_at(g, y, c);
        if (cell)
            cell->role = (uint8_t)role;
    }
}

void pv_grid_char(pv_grid *g, int y, int x, uint32_t ch, pv_role role)
{
    pv_gcell *cell = pv_grid_at(g, y, x);
    if (cell)
        *cell = (pv_gcell){ch, (uint8_t)role};
}

int pv_grid_text(pv_grid *g, int y, int x, int max_w, const char *s, size_t len, pv_role role)
{
    pv_buf_clear(&g->scratch);
    pv_text_escape(&g->scratch, s, len, g->utf8);
    const unsigned char *u = (const unsigned char *)g->scratch.data;
    size_t n = g->scratch.len;
    int used = 0;
    for (size_t i = 0; i < n && used < max_w;) {
        uint32_t cp;
        size_t k = pv_utf8_decode(u + i, n - i, &cp);
        if (!k)
            k = 1, cp = '?';
        i += k;
        int cw = pv_cp_width(cp, g->utf8);
        if (cw == 0)
            continue; /* combining marks: dropped rather than mis-placed */
        if (used + cw > max_w)
            break;
        pv_grid_char(g, y, x + used, cp, role);
        if (cw == 2)
            pv_grid_char(g, y, x + used + 1, 0, role);
        used += cw;
    }
    return used;
}

int pv_grid_str(pv_grid *g, int y, int x, int max_w, const char *s, pv_role role)
{
    return pv_grid_text(g, y, x, max_w, s, strlen(s), role);
}

static void pv_utf8_put(pv_buf *out, uint32_t c)
{
    char u[4];
    size_t n;
    if (c < 0x80) {
        u[0] = (char)c, n = 1;
    } else if (c < 0x800) {
        u[0] = (char)(0xc0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3f)), n = 2;
    } else if (c < 0x10000) {
        u[0] = (char)(0xe0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
    } else {
        u[0] = (char)(0xf0 | (c >> 18)), u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((c >> 6) & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
    }
    pv_buf_append(out, u, n);
}

void pv_grid_dump(const pv_grid *g, pv_buf *out)
{
    for (int y = 0; y < g->height; y++) {
        size_t line_start = out->len;
        size_t keep = out->len;
        for (int x = 0; x < g->width; x++) {
            const pv_gcell *c = &g->cells[(size_t)y * (size_t)g->width + (size_t)x];
            if (c->ch == 0)
                continue;
            pv_utf8_put(out, c->ch);
            if (c->ch != ' ')
                keep = out->len;
        }
        (void)line_start;
        out->len = keep;
        pv_buf_putc(out, '\n');
    }
}

/* " 3.6 M events/s ETA 2 min 05 s" once the rate is known (half a second
 * and 1 % done; nothing before), in human units (docs/tui.md). */
void pv_text_rate(pv_buf *out, double done, double total, double elapsed, const char *unit)
{
    if (elapsed < 0.5 || done <= 0 || done < total * 0.01)
        return;
    double rate = done / elapsed;
    static const char *const prefix[] = {"", " k", " M", " G", " T"};
    size_t p = 0;
    double r = rate;
    while (r >= 1000 && p + 1 < sizeof prefix / sizeof *prefix) {
        r /= 1000;
        p++;
    }
    pv_buf_printf(out, r < 10 && p ? " %.1f%s%s/s" : " %.0f%s%s/s", r, prefix[p], unit);
    if (total <= done)
        return;
    double eta = (total - done) / rate;
    if (eta < 10)
        pv_buf_printf(out, " ETA %.1f s", eta);
    else if (eta < 60)
        pv_buf_printf(out, " ETA %.0f s", eta);
    else if (eta < 3600)
        pv_buf_printf(out, " ETA %d min %02d s", (int)(eta / 60), (int)eta % 60);
    else
        pv_buf_printf(out, " ETA %d h %02d min", (int)(eta / 3600), (int)(eta / 60) % 60);
}

void pv_text_time_span(int64_t t0, int64_t t1, pv_time_unit unit, char *lo, char *hi,
                       size_t size)
{
    pv_format_time_human(t0, unit, lo, size);
    pv_format_time_human(t1, unit, hi, size);
    if (t0 == t1 || strcmp(lo, hi) != 0)
        return;
    int64_t m0 = t0 < 0 ? pv_sub_sat(0, t0) : t0, m1 = t1 < 0 ? pv_sub_sat(0, t1) : t1;
    pv_time_unit u = unit == PV_UNIT_AUTO ? pv_time_unit_for(m0 > m1 ? m0 : m1) : unit;
    for (int d = 3; d <= 9; d += 3) {
        pv_format_time_precise(t0, u, d, lo, size);
        pv_format_time_precise(t1, u, d, hi, size);
        if (strcmp(lo, hi) != 0)
            return;
    }
}

/* ---- cutting and wrapping (docs/tui.md "Cut text") */

/* The width of the code point at u[i] (escaped text: valid UTF-8, no
 * controls) and its length in *n. */
static int pv_text_cp(const unsigned char *u, size_t len, size_t i, bool utf8, size_t *n)
{
    uint32_t cp;
    *n = pv_utf8_decode(u + i, len - i, &cp);
    if (!*n)
        *n = 1, cp = '?';
    int w = pv_cp_width(cp, utf8);
    return w > 0 ? w : 0;
}

/* Bytes of escaped text t that fit in w columns from its start. */
static size_t pv_text_head(const pv_buf *t, int w, bool utf8)
{
    const unsigned char *u = (const unsigned char *)t->data;
    size_t i = 0;
    int used = 0;
    while (i < t->len) {
        size_t n;
        int cw = pv_text_cp(u, t->len, i, utf8, &n);
        if (used + cw > w)
            break;
        used += cw;
        i += n;
    }
    return i;
}

/* Where the tail of escaped text t that fits in w columns starts. */
static size_t pv_text_tail(const pv_buf *t, int w, bool utf8)
{
    const unsigned char *u = (const unsigned char *)t->data;
    size_t start = t->len;
    int used = 0;
    while (start > 0) {
        size_t p = start - 1;
        while (p > 0 && (u[p] & 0xc0) == 0x80)
            p--;
        size_t n;
        int cw = pv_text_cp(u, t->len, p, utf8, &n);
        if (used + cw > w)
            break;
        used += cw;
        start = p;
    }
    return start;
}

bool pv_text_is_path(const char *s, size_t len)
{
    size_t sep = len;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/' || s[i] == '\\')
            sep = i;
    if (sep >= len || sep + 1 == len)
        return false;
    for (size_t i = sep + 1; i < len; i++)
        if (s[i] == ' ' || s[i] == '\t')
            return false;
    return true;
}

int pv_text_cut(pv_buf *out, const char *s, size_t len, size_t keep, int w, pv_cut_mode mode,
                bool utf8, bool fancy)
{
    pv_buf_clear(out);
    if (w <= 0)
        return 0;
    if (keep > len)
        keep = len;
    pv_buf body, tail;
    pv_buf_init(&body);
    pv_buf_init(&tail);
    pv_text_escape(&body, s, len - keep, utf8);
    pv_text_escape(&tail, s + len - keep, keep, utf8);
    int bw = (int)pv_text_width(body.data ? body.data : "", body.len, utf8);
    int tw = (int)pv_text_width(tail.data ? tail.data : "", tail.len, utf8);
    if (bw + tw <= w) {
        pv_buf_append(out, body.data ? body.data : "", body.len);
        pv_buf_append(out, tail.data ? tail.data : "", tail.len);
        pv_buf_free(&body);
        pv_buf_free(&tail);
        return bw + tw;
    }
    if (tw + 2 > w) { /* the kept part does not fit either: cut it all */
        pv_buf_append(&body, tail.data ? tail.data : "", tail.len);
        pv_buf_clear(&tail);
        tw = 0;
    }
    bool path = mode == PV_CUT_AUTO && keep == 0 && pv_text_is_path(s, len);
    if (path) {
        /* the directories give way first; a file name too long for the
         * cells is cut at its end (its start says more than its type) */
        size_t sep = len;
        while (sep > 0 && s[sep - 1] != '/' && s[sep - 1] != '\\')
            sep--;
        int name_w = (int)pv_text_width(s + sep - 1, len - sep + 1, utf8);
        if (name_w + 2 > w) {
            pv_buf_free(&body);
            pv_buf_free(&tail);
            if (name_w > w) /* "trunc_p…" */
                return pv_text_cut(out, s + sep, len - sep, 0, w, PV_CUT_END, utf8, fancy);
            pv_buf_puts(out, fancy && utf8 ? "\xe2\x80\xa6" : "~"); /* "…trunc_pair.txt" */
            pv_text_escape(out, s + sep, len - sep, utf8);
            return name_w;
        }
        pv_buf_clear(&tail);
        pv_text_escape(&tail, s + sep - 1, len - sep + 1, utf8); /* "/name" */
        pv_buf_clear(&body);
        pv_text_escape(&body, s, sep - 1, utf8);
        tw = name_w;
    }
    if (mode == PV_CUT_AUTO)
        mode = path ? PV_CUT_MIDDLE : PV_CUT_END;
    const char *mark = fancy && utf8 ? "\xe2\x80\xa6" : mode == PV_CUT_END ? ">" : "~";
    int room = w - tw - 1; /* the body's columns around the mark */
    size_t head_end, tail_start;
    if (mode == PV_CUT_END) {
        head_end = pv_text_head(&body, room, utf8);
        tail_start = body.len;
    } else {
        int back = path ? 0 : room / 2; /* a path: its file name is the kept tail */
        tail_start = pv_text_tail(&body, back, utf8);
        head_end = pv_text_head(&body, room - (int)pv_text_width(body.data + tail_start,
                                                                   body.len - tail_start, utf8),
                                utf8);
        if (head_end > tail_start)
            head_end = tail_start;
    }
    pv_buf_append(out, body.data, head_end);
    pv_buf_puts(out, mark);
    pv_buf_append(out, body.data + tail_start, body.len - tail_start);
    pv_buf_append(out, tail.data ? tail.data : "", tail.len);
    pv_buf_free(&body);
    pv_buf_free(&tail);
    return (int)pv_text_width(out->data, out->len, utf8);
}

size_t pv_text_wrap(const char *s, size_t len, int width, bool utf8, pv_text_line *lines,
                    size_t max)
{
    if (width < 1)
        width = 1;
    size_t count = 0, i = 0;
    while (i < len || count == 0) {
        size_t start = i, end = i, brk = SIZE_MAX;
        int used = 0;
        while (end < len && s[end] != '\n') {
            size_t n = 1;
            while (end + n < len && ((unsigned char)s[end + n] & 0xc0) == 0x80)
                n++;
            int cw = (int)pv_text_width(s + end, n, utf8);
            if (used + cw > width && end > start)
                break;
            if (s[end] == ' ')
                brk = end;
            used += cw;
            end += n;
        }
        bool hard = end >= len || s[end] == '\n';
        if (!hard && s[end] != ' ' && brk != SIZE_MAX && brk > start)
            end = brk; /* at the last blank of the line */
        size_t stop = end;
        while (stop > start && s[stop - 1] == ' ' && !hard)
            stop--;
        if (count < max)
            lines[count] = (pv_text_line){start, stop - start};
        count++;
        i = end;
        if (i < len && s[i] == '\n')
            i++;
        else
            while (i < len && s[i] == ' ')
                i++;
    }
    return count;
}
