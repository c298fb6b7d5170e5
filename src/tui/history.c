/* history.c - a bounded back/forward list of locations. */
#include "tui/history.h"

#include <stdlib.h>
#include <string.h>

#include "profview/core.h"

void pv_location_set_texts(pv_location *l, const char *filter, const char *sort)
{
    char *f = filter && filter[0] ? pv_xstrdup(filter) : NULL;
    char *s = sort && sort[0] ? pv_xstrdup(sort) : NULL;
    pv_location_free(l);
    l->filter = f;
    l->sort = s;
}

void pv_location_copy(pv_location *dst, const pv_location *src)
{
    if (dst == src)
        return;
    char *f = src->filter ? pv_xstrdup(src->filter) : NULL;
    char *s = src->sort ? pv_xstrdup(src->sort) : NULL;
    pv_location_free(dst);
    *dst = *src;
    dst->filter = f;
    dst->sort = s;
}

void pv_location_free(pv_location *l)
{
    free(l->filter);
    free(l->sort);
    l->filter = l->sort = NULL;
}

void pv_history_init(pv_history *h, const pv_location *here)
{
    h->entries = pv_xcalloc(PV_HISTORY_MAX, sizeof *h->entries);
    pv_location_copy(&h->entries[0], here);
    h->count = 1;
    h->pos = 0;
}

void pv_history_free(pv_history *h)
{
    for (size_t i = 0; i < h->count; i++)
        pv_location_free(&h->entries[i]);
    free(h->entries);
    h->entries = NULL;
    h->count = h->pos = 0;
}

void pv_history_go(pv_history *h, const pv_location *here, const pv_location *next)
{
    pv_location_copy(&h->entries[h->pos], here);
    for (size_t i = h->pos + 1; i < h->count; i++)
        pv_location_free(&h->entries[i]); /* the forward entries go */
    h->count = h->pos + 1;
    if (h->count == PV_HISTORY_MAX) {
        pv_location_free(&h->entries[0]);
        memmove(h->entries, h->entries + 1, (PV_HISTORY_MAX - 1) * sizeof *h->entries);
        memset(&h->entries[PV_HISTORY_MAX - 1], 0, sizeof *h->entries);
        h->count--;
    }
    pv_location_copy(&h->entries[h->count++], next);
    h->pos = h->count - 1;
}

bool pv_history_back(pv_history *h, const pv_location *here, pv_location *out)
{
    if (h->pos == 0)
        return false;
    pv_location_copy(&h->entries[h->pos], here);
    pv_location_copy(out, &h->entries[--h->pos]);
    return true;
}

bool pv_history_forward(pv_history *h, const pv_location *here, pv_location *out)
{
    if (h->pos + 1 >= h->count)
        return false;
    pv_location_copy(&h->entries[h->pos], here);
    pv_location_copy(out, &h->entries[++h->pos]);
    return true;
}

bool pv_location_same_view(const pv_location *a, const pv_location *b)
{
    if (a->item != b->item || a->depth != b->depth)
        return false;
    for (size_t i = 0; i < a->depth && i < PV_LOC_MAX_DEPTH; i++)
        if (a->chain[i].detail != b->chain[i].detail || a->chain[i].row != b->chain[i].row)
            return false;
    return true;
}
