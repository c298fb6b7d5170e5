/* file.c - loaded files and their result sets. */
#include "profview/model.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The file's copy of a kind of result set (pv_file.kinds). */
static const char *pv_file_kind(pv_file *f, const char *kind)
{
    for (size_t i = f->kind_count; i-- > 0;)
        if (strcmp(f->kinds[i], kind) == 0)
            return f->kinds[i];
    f->kinds = pv_xrealloc(f->kinds, (f->kind_count + 1) * sizeof *f->kinds);
    return f->kinds[f->kind_count++] = pv_xstrdup(kind);
}

pv_result_set *pv_file_add_set(pv_file *f, int64_t id, const char *caption, const char *kind)
{
    /* one block: the set, then its caption (docs/aqtime.md, Scale: a file
     * may hold a million result sets) */
    caption = caption ? caption : "";
    size_t clen = strlen(caption) + 1;
    pv_result_set *s = pv_xcalloc(1, sizeof *s + clen);
    s->id = id;
    s->caption = memcpy((char *)(s + 1), caption, clen);
    s->kind = pv_file_kind(f, kind ? kind : "");
    f->sets = pv_xgrow(f->sets, &f->set_cap, f->set_count + 1, sizeof *f->sets);
    f->sets[f->set_count++] = s;
    return s;
}

void pv_set_add_view(pv_result_set *s, pv_view *v)
{
    s->views = pv_xgrow(s->views, &s->view_cap, s->view_count + 1, sizeof *s->views);
    s->views[s->view_count++] = v;
}

void pv_set_add_note(pv_result_set *s, const char *fmt, ...)
{
    pv_buf b;
    pv_buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    /* one block for all of them (a set has a few): the pointers, then the
     * texts, made again with the new one */
    size_t n = s->note_count + 1, bytes = n * sizeof *s->notes;
    for (size_t i = 0; i + 1 < n; i++)
        bytes += strlen(s->notes[i]) + 1;
    bytes += b.len + 1;
    char **notes = pv_xmalloc(bytes);
    char *text = (char *)(notes + n);
    for (size_t i = 0; i < n; i++) {
        const char *t = i + 1 < n ? s->notes[i] : b.data ? b.data : "";
        size_t len = strlen(t) + 1;
        notes[i] = memcpy(text, t, len);
        text += len;
    }
    free(s->notes);
    pv_buf_free(&b);
    s->notes = notes;
    s->note_count = n;
}

void pv_set_fit(pv_result_set *s)
{
    if (s->view_cap > s->view_count && s->view_count) {
        s->views = pv_xrealloc(s->views, s->view_count * sizeof *s->views);
        s->view_cap = s->view_count;
    }
}

pv_view *pv_set_find_view(const pv_result_set *s, const char *view_id)
{
    for (size_t i = 0; i < s->view_count; i++)
        if (strcasecmp(s->views[i]->id, view_id) == 0)
            return s->views[i];
    return NULL;
}

pv_result_set *pv_file_find_set(const pv_file *f, int64_t id)
{
    if (f->set_count == 0)
        return NULL;
    if (id < 0)
        return f->sets[0];
    for (size_t i = 0; i < f->set_count; i++)
        if (f->sets[i]->id == id)
            return f->sets[i];
    return NULL;
}

static void pv_set_free(pv_result_set *s)
{
    for (size_t i = 0; i < s->view_count; i++)
        pv_view_free(s->views[i]);
    free(s->notes); /* their texts too */
    free(s->views);
    free(s); /* its caption too */
}

void pv_file_free(pv_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->set_count; i++)
        pv_set_free(f->sets[i]);
    free(f->sets);
    for (size_t i = 0; i < f->kind_count; i++)
        free(f->kinds[i]);
    free(f->kinds);
    if (f->loader_free)
        f->loader_free(f->loader_data);
    pv_diag_free(&f->diag);
    free(f->path);
    free(f);
}
