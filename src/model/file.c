/* file.c - loaded files and their result sets. */
#include "profview/model.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

pv_result_set *pv_file_add_set(pv_file *f, int64_t id, const char *caption, const char *kind)
{
    pv_result_set *s = pv_xcalloc(1, sizeof *s);
    s->id = id;
    s->caption = pv_xstrdup(caption ? caption : "");
    s->kind = pv_xstrdup(kind ? kind : "");
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
    s->notes = pv_xgrow(s->notes, &s->note_cap, s->note_count + 1, sizeof *s->notes);
    s->notes[s->note_count++] = b.data ? b.data : pv_xstrdup("");
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
    for (size_t i = 0; i < s->note_count; i++)
        free(s->notes[i]);
    free(s->notes);
    free(s->views);
    free(s->caption);
    free(s->kind);
    free(s);
}

void pv_file_free(pv_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->set_count; i++)
        pv_set_free(f->sets[i]);
    free(f->sets);
    if (f->loader_free)
        f->loader_free(f->loader_data);
    pv_diag_free(&f->diag);
    free(f->path);
    free(f);
}
