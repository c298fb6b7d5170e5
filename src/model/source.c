/* source.c - the source beside the numbers (profview/source.h,
 * docs/source.md): finding the file a profiler named, and the `source` view
 * of its lines with the profile's per-line figures in a gutter. */
#include "profview/source.h"
#include "profview/hooks.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the search directories */

static char **pv_source_dirs;
static size_t pv_source_dir_count, pv_source_dir_cap;

void pv_source_path_add(const char *dir)
{
    if (!dir || !*dir)
        return;
    pv_source_dirs = pv_xgrow(pv_source_dirs, &pv_source_dir_cap, pv_source_dir_count + 1,
                              sizeof *pv_source_dirs);
    pv_source_dirs[pv_source_dir_count++] = pv_xstrdup(dir);
}

void pv_source_path_clear(void)
{
    for (size_t i = 0; i < pv_source_dir_count; i++)
        free(pv_source_dirs[i]);
    free(pv_source_dirs);
    pv_source_dirs = NULL;
    pv_source_dir_count = pv_source_dir_cap = 0;
}

size_t pv_source_path_count(void) { return pv_source_dir_count; }

/* ---- finding a file */

/* A source file larger than this is not shown (a source view is for
 * reading; docs/source.md). */
#define PV_SOURCE_MAX_BYTES (64u << 20)

typedef struct pv_comp {
    const char *s;
    size_t len;
} pv_comp;

/* The components of a path as a profiler writes it: `\` and `/` separate,
 * a drive (`C:`) and `.` are dropped.  Returns their count (at most max). */
static size_t pv_source_split(const char *path, pv_comp *out, size_t max)
{
    size_t n = 0;
    const char *p = path;
    if (isalpha((unsigned char)p[0]) && p[1] == ':')
        p += 2;
    while (*p) {
        while (*p == '/' || *p == '\\')
            p++;
        const char *start = p;
        while (*p && *p != '/' && *p != '\\')
            p++;
        size_t len = (size_t)(p - start);
        if (len == 0 || (len == 1 && start[0] == '.'))
            continue;
        if (n == max) { /* keep the last `max`: the trailing ones matter */
            memmove(out, out + 1, (max - 1) * sizeof *out);
            n--;
        }
        out[n++] = (pv_comp){start, len};
    }
    return n;
}

static bool pv_source_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* `dir`/`c` with c matched case-insensitively (the exact name first);
 * false when there is none of the wanted kind. */
static bool pv_source_step(pv_buf *dir, pv_comp c, bool last)
{
    size_t keep = dir->len;
    pv_buf_putc(dir, '/');
    pv_buf_append(dir, c.s, c.len);
    struct stat st;
    if (stat(pv_buf_cstr(dir), &st) == 0 && (last ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode)))
        return true;
    dir->len = keep;
    pv_buf_cstr(dir);
    DIR *d = opendir(dir->len ? pv_buf_cstr(dir) : "/");
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (strlen(e->d_name) != c.len || strncasecmp(e->d_name, c.s, c.len) != 0)
            continue;
        pv_buf_putc(dir, '/');
        pv_buf_puts(dir, e->d_name);
        found = stat(pv_buf_cstr(dir), &st) == 0 &&
                (last ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode));
        if (!found) {
            dir->len = keep;
            pv_buf_cstr(dir);
        }
    }
    closedir(d);
    return found;
}

#define PV_SOURCE_MAX_COMPS 32
/* The walk below a search directory when no tail matches directly: how deep
 * and how many entries at most (docs/source.md). */
#define PV_SOURCE_WALK_DEPTH 12
#define PV_SOURCE_WALK_ENTRIES 100000

typedef struct pv_source_walk {
    const pv_comp *comps;
    size_t n;
    size_t visited;
    char *best;
    size_t best_score, best_depth;
} pv_source_walk;

/* How many of comps[0..n-1] (from the end) the path's components end with,
 * case aside (the file's own name matched already). */
static size_t pv_source_score(const char *path, const pv_comp *comps, size_t n)
{
    pv_comp have[PV_SOURCE_MAX_COMPS];
    size_t h = pv_source_split(path, have, PV_SOURCE_MAX_COMPS), k = 0;
    while (k < n && k < h) {
        const pv_comp *a = &have[h - 1 - k], *b = &comps[n - 1 - k];
        if (a->len != b->len || strncasecmp(a->s, b->s, a->len) != 0)
            break;
        k++;
    }
    return k;
}

/* Every file named like the last component below `dir`, breadth first
 * within a directory's entries; the one ending with the most components
 * wins, the shallowest among equals. */
static void pv_source_walk_dir(pv_source_walk *w, pv_buf *dir, size_t depth)
{
    if (depth > PV_SOURCE_WALK_DEPTH || w->visited > PV_SOURCE_WALK_ENTRIES)
        return;
    DIR *d = opendir(pv_buf_cstr(dir));
    if (!d)
        return;
    const pv_comp *last = &w->comps[w->n - 1];
    size_t keep = dir->len;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && w->visited++ <= PV_SOURCE_WALK_ENTRIES) {
        if (e->d_name[0] == '.')
            continue; /* ., .., and hidden trees (.git) */
        dir->len = keep;
        pv_buf_putc(dir, '/');
        pv_buf_puts(dir, e->d_name);
        struct stat st;
        if (lstat(pv_buf_cstr(dir), &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            pv_source_walk_dir(w, dir, depth + 1); /* links are not followed: no loops */
        } else if (S_ISREG(st.st_mode) && strlen(e->d_name) == last->len &&
                   strncasecmp(e->d_name, last->s, last->len) == 0) {
            size_t score = pv_source_score(pv_buf_cstr(dir), w->comps, w->n);
            if (!w->best || score > w->best_score ||
                (score == w->best_score && depth < w->best_depth)) {
                free(w->best);
                w->best = pv_xstrdup(pv_buf_cstr(dir));
                w->best_score = score;
                w->best_depth = depth;
            }
        }
    }
    dir->len = keep;
    pv_buf_cstr(dir);
    closedir(d);
}

char *pv_source_find(const char *path, pv_buf *why)
{
    if (!path || !*path) {
        if (why)
            pv_buf_puts(why, "the profile names no source file for this row");
        return NULL;
    }
    /* a POSIX path that names the file as it is */
    if (!strchr(path, '\\') && pv_source_is_file(path))
        return pv_xstrdup(path);
    pv_comp comps[PV_SOURCE_MAX_COMPS];
    size_t n = pv_source_split(path, comps, PV_SOURCE_MAX_COMPS);
    pv_buf dir;
    pv_buf_init(&dir);
    for (size_t d = 0; n && d < pv_source_dir_count; d++) {
        for (size_t first = 0; first < n; first++) { /* the longest tail first */
            pv_buf_clear(&dir);
            const char *base = pv_source_dirs[d];
            size_t blen = strlen(base);
            while (blen > 1 && base[blen - 1] == '/')
                blen--;
            pv_buf_append(&dir, base, blen);
            bool ok = true;
            for (size_t k = first; ok && k < n; k++)
                ok = pv_source_step(&dir, comps[k], k + 1 == n);
            if (ok) {
                char *found = pv_xstrdup(pv_buf_cstr(&dir));
                pv_buf_free(&dir);
                return found;
            }
        }
    }
    /* then anywhere below each directory, by the tail it ends with */
    for (size_t d = 0; n && d < pv_source_dir_count; d++) {
        pv_source_walk w = {comps, n, 0, NULL, 0, 0};
        pv_buf_clear(&dir);
        pv_buf_puts(&dir, pv_source_dirs[d]);
        pv_source_walk_dir(&w, &dir, 0);
        if (w.best) {
            pv_buf_free(&dir);
            return w.best;
        }
    }
    pv_buf_free(&dir);
    if (why) {
        pv_buf_printf(why, "%s: not found", path);
        if (pv_source_dir_count == 0) {
            pv_buf_puts(why, " (no source directory given: --source-path DIR or the config's "
                             "source-paths)");
        } else {
            pv_buf_puts(why, " under ");
            for (size_t d = 0; d < pv_source_dir_count; d++)
                pv_buf_printf(why, "%s%s", d ? ", " : "", pv_source_dirs[d]);
            pv_buf_printf(why, " (its last 1 to %zu path components, in any case, and files of "
                               "its name below them)", n);
        }
    }
    return NULL;
}

/* ---- the source view */

typedef struct pv_source_line {
    int64_t line;
    uint32_t text; /* offset into the pool, UINT32_MAX: none */
    uint32_t fig;  /* first of the gutter's cells, UINT32_MAX: none */
} pv_source_line;

typedef struct pv_source_view {
    pv_view view;
    pv_source_line *lines;
    size_t count, cap;
    pv_buf text;       /* the lines' texts, each NUL-ended */
    pv_cell *figs;     /* count_with_figures * fig_cols */
    size_t fig_rows, fig_cap, fig_cols;
    pv_strpool strings; /* the gutter's string cells */
    size_t first;       /* the row of the wanted line */
} pv_source_view;

enum { SV_LINE, SV_TEXT, SV_FIXED };

static size_t pv_source_rows(const pv_view *v) { return ((const pv_source_view *)v->impl)->count; }

static void pv_source_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    const pv_source_view *s = v->impl;
    const pv_source_line *l = &s->lines[row];
    memset(out, 0, sizeof *out);
    out->type = v->columns[col].type;
    if (col == SV_LINE) {
        out->present = true;
        out->v.i = l->line;
    } else if (col == SV_TEXT) {
        if (l->text != UINT32_MAX) {
            out->present = true;
            out->v.s.ptr = s->text.data + l->text;
            out->v.s.len = strlen(out->v.s.ptr);
        }
    } else if (l->fig != UINT32_MAX) {
        *out = s->figs[(size_t)l->fig * s->fig_cols + (col - SV_FIXED)];
        out->type = v->columns[col].type; /* an absent figure too */
    }
}

static void pv_source_destroy(pv_view *v)
{
    pv_source_view *s = v->impl;
    free(s->lines);
    pv_buf_free(&s->text);
    free(s->figs);
    pv_strpool_free(&s->strings);
    pv_view_free_names(v);
    free(s);
}

static const pv_view_ops pv_source_ops = {
    .row_count = pv_source_rows,
    .cell = pv_source_cell,
    .destroy = pv_source_destroy,
};

static size_t pv_source_first(const pv_view *v) { return ((const pv_source_view *)v->impl)->first; }

static const pv_view_hooks pv_source_hooks = {.first_row = pv_source_first};

/* Same file as written: separators and case aside, and a drive letter or
 * leading `./` ignored. */
static bool pv_source_same_path(const char *a, size_t alen, const char *b, size_t blen)
{
    pv_comp ca[PV_SOURCE_MAX_COMPS], cb[PV_SOURCE_MAX_COMPS];
    char za[1024], zb[1024];
    if (alen >= sizeof za || blen >= sizeof zb)
        return alen == blen && strncasecmp(a, b, alen) == 0;
    memcpy(za, a, alen);
    za[alen] = 0;
    memcpy(zb, b, blen);
    zb[blen] = 0;
    size_t na = pv_source_split(za, ca, PV_SOURCE_MAX_COMPS);
    size_t nb = pv_source_split(zb, cb, PV_SOURCE_MAX_COMPS);
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (ca[i].len != cb[i].len || strncasecmp(ca[i].s, cb[i].s, ca[i].len) != 0)
            return false;
    return true;
}

/* The row of `line`, adding it (kept sorted by line; lines come mostly in
 * order). */
static size_t pv_source_line_row(pv_source_view *s, int64_t line)
{
    size_t lo = 0, hi = s->count;
    if (s->count && s->lines[s->count - 1].line < line) {
        lo = hi = s->count;
    } else {
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (s->lines[mid].line < line)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < s->count && s->lines[lo].line == line)
            return lo;
    }
    s->lines = pv_xgrow(s->lines, &s->cap, s->count + 1, sizeof *s->lines);
    memmove(s->lines + lo + 1, s->lines + lo, (s->count - lo) * sizeof *s->lines);
    s->lines[lo] = (pv_source_line){line, UINT32_MAX, UINT32_MAX};
    s->count++;
    return lo;
}

/* Appends `len` bytes of text with tabs expanded to 8 columns; returns its
 * offset. */
static uint32_t pv_source_put_text(pv_source_view *s, const char *t, size_t len)
{
    uint32_t off = (uint32_t)s->text.len;
    size_t col = 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '\t') {
            do
                pv_buf_putc(&s->text, ' ');
            while (++col % 8);
        } else {
            pv_buf_putc(&s->text, t[i]);
            if (((unsigned char)t[i] & 0xC0) != 0x80)
                col++;
        }
    }
    pv_buf_putc(&s->text, '\0');
    return off;
}

/* The file's lines, numbered from 1; false (errno) when it cannot be read. */
static bool pv_source_read(pv_source_view *s, const char *path, pv_buf *why)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_size > PV_SOURCE_MAX_BYTES) {
        if (why) {
            if (fd >= 0 && S_ISREG(st.st_mode))
                pv_buf_printf(why, "%s: larger than %u MB, not shown", path,
                              PV_SOURCE_MAX_BYTES >> 20);
            else
                pv_buf_printf(why, "%s: %s", path, strerror(fd < 0 ? errno : EINVAL));
        }
        if (fd >= 0)
            close(fd);
        return false;
    }
    size_t size = (size_t)st.st_size, got = 0;
    char *data = pv_xmalloc(size + 1);
    while (got < size) {
        ssize_t r = read(fd, data + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    int64_t line = 0;
    size_t at = 0;
    while (at < got) {
        const char *nl = memchr(data + at, '\n', got - at);
        size_t end = nl ? (size_t)(nl - data) : got;
        size_t len = end - at;
        if (len && data[at + len - 1] == '\r')
            len--;
        size_t row = pv_source_line_row(s, ++line);
        s->lines[row].text = pv_source_put_text(s, data + at, len);
        at = end + 1;
    }
    free(data);
    return true;
}

/* The gutter: the figures of the rows of the same file, by line. */
static void pv_source_fill_gutter(pv_source_view *s, const pv_source_req *req,
                                  const pv_source_gutter *g, bool want_text)
{
    const char *key = req->key ? req->key : req->path;
    if (!key)
        return;
    size_t rows = pv_view_rows(g->view);
    for (size_t r = 0; r < rows; r++) {
        pv_cell p, l;
        pv_view_cell(g->view, r, g->path_col, &p);
        pv_view_cell(g->view, r, g->line_col, &l);
        if (!p.present || !l.present || l.v.i <= 0 ||
            !pv_source_same_path(p.v.s.ptr, p.v.s.len, key, strlen(key)))
            continue;
        size_t row = pv_source_line_row(s, l.v.i);
        pv_source_line *sl = &s->lines[row];
        if (want_text && g->text_col != PV_NO_ROW && sl->text == UINT32_MAX) {
            pv_cell t;
            pv_view_cell(g->view, r, g->text_col, &t);
            if (t.present && t.v.s.len) /* an empty text is no text */
                sl->text = pv_source_put_text(s, t.v.s.ptr, t.v.s.len);
        }
        if (!g->col_count || !s->fig_cols)
            continue;
        bool first = sl->fig == UINT32_MAX;
        if (first) {
            s->figs = pv_xgrow(s->figs, &s->fig_cap, (s->fig_rows + 1) * s->fig_cols,
                               sizeof *s->figs);
            sl->fig = (uint32_t)s->fig_rows++;
            memset(s->figs + (size_t)sl->fig * s->fig_cols, 0, s->fig_cols * sizeof *s->figs);
        }
        pv_cell *out = s->figs + (size_t)sl->fig * s->fig_cols;
        for (size_t c = 0; c < g->col_count; c++) {
            pv_cell v;
            pv_view_cell(g->view, r, g->cols[c], &v);
            if (!v.present)
                continue;
            if (!out[c].present) {
                out[c] = v;
                if (v.type == PV_TYPE_STRING) /* kept: pointed to once all are in */
                    out[c].v.u = pv_strpool_add(&s->strings, v.v.s.ptr, v.v.s.len);
            } else if (v.type == PV_TYPE_INT || v.type == PV_TYPE_TIME) {
                out[c].v.i += v.v.i;
            }
        }
    }
}

pv_view *pv_source_open(const pv_source_req *req, const char *title, pv_buf *why)
{
    pv_buf looked;
    pv_buf_init(&looked);
    char *found = NULL;
    if (req->path)
        found = pv_source_find(req->path, &looked);
    else
        pv_buf_puts(&looked, "the profile names no source file for this row");
    const pv_source_gutter *g = &req->gutter;
    size_t fig_cols = g->view ? g->col_count : 0;
    pv_source_view *s = pv_xcalloc(1, sizeof *s);
    pv_buf_init(&s->text);
    pv_strpool_init(&s->strings);
    s->fig_cols = fig_cols;
    bool have = false;
    if (found) {
        have = pv_source_read(s, found, &looked);
        free(found);
    }
    if (req->text_only.view && !have)
        pv_source_fill_gutter(s, req, &req->text_only, true);
    if (g->view) {
        pv_source_fill_gutter(s, req, g, !have);
        for (size_t i = 0; i < s->fig_rows * fig_cols; i++) {
            pv_cell *c = &s->figs[i];
            if (c->present && c->type == PV_TYPE_STRING) {
                const char *t = pv_strpool_get(&s->strings, (uint32_t)c->v.u);
                c->v.s.ptr = t;
                c->v.s.len = strlen(t);
            }
        }
    }
    if (!have && ((g->view && g->text_col != PV_NO_ROW) || req->text_only.view))
        for (size_t i = 0; i < s->count && !have; i++)
            have = s->lines[i].text != UINT32_MAX; /* the profile's own text */
    if (!have) {
        if (why)
            pv_buf_append(why, looked.data, looked.len);
        pv_buf_free(&looked);
        s->view.impl = s;
        s->view.ops = &pv_source_ops;
        pv_source_destroy(&s->view);
        return NULL;
    }
    pv_buf_free(&looked);
    size_t ncol = SV_FIXED + fig_cols;
    pv_column *cols = pv_xcalloc(ncol, sizeof *cols);
    cols[SV_LINE] = (pv_column){PV_COLUMN_LINE, 0};
    cols[SV_TEXT] = (pv_column){"text", "Source", PV_TYPE_STRING, PV_COL_NAME};
    for (size_t c = 0; c < fig_cols; c++) {
        cols[SV_FIXED + c] = g->view->columns[g->cols[c]];
        cols[SV_FIXED + c].flags &= ~(unsigned)(PV_COL_KEY | PV_COL_NAME);
    }
    pv_view_copy_names(&s->view, "source", title ? title : "Source", cols, ncol);
    free(cols);
    s->view.ops = &pv_source_ops;
    s->view.impl = s;
    s->view.hooks = &pv_source_hooks;
    s->first = PV_NO_ROW;
    for (size_t i = 0; req->line > 0 && i < s->count && s->first == PV_NO_ROW; i++)
        if (s->lines[i].line >= req->line)
            s->first = i;
    return &s->view;
}

pv_view *pv_source_of_row(const pv_view *v, size_t row, const char *path_id, const char *line_id,
                          const char *text_id, const pv_source_gutter *text_only,
                          const char *const *figs)
{
    size_t pc = pv_view_column(v, path_id), lc = pv_view_column(v, line_id);
    size_t tc = text_id ? pv_view_column(v, text_id) : PV_NO_ROW;
    pv_buf *why = pv_detail_why();
    if (pc == PV_NO_ROW || lc == PV_NO_ROW || row >= pv_view_rows(v))
        return NULL;
    pv_cell p, l;
    pv_view_cell(v, row, pc, &p);
    pv_view_cell(v, row, lc, &l);
    /* an empty path still groups the lines of the profile's own text */
    if (!p.present || (p.v.s.len == 0 && tc == PV_NO_ROW && !text_only)) {
        if (why)
            pv_buf_puts(why, "the profile names no source file for this row");
        return NULL;
    }
    size_t cols[16], n = 0;
    for (size_t i = 0; figs && figs[i] && n < PV_ARRAY_LEN(cols); i++) {
        size_t c = pv_view_column(v, figs[i]);
        if (c != PV_NO_ROW)
            cols[n++] = c;
    }
    char *path = pv_xmalloc(p.v.s.len + 1);
    memcpy(path, p.v.s.ptr, p.v.s.len);
    path[p.v.s.len] = '\0';
    pv_source_req req = {
        .path = path,
        .line = l.present ? l.v.i : 0,
        .gutter = {v, pc, lc, tc, cols, n},
    };
    if (text_only)
        req.text_only = *text_only;
    pv_view *out = pv_source_open(&req, NULL, why);
    free(path);
    return out;
}
