/* history.c - a bounded back/forward list of locations. */
#include "tui/history.h"

#include <stdlib.h>
#include <string.h>

#include "profview/core.h"

void pv_history_init(pv_history *h, const pv_location *here)
{
    h->entries = pv_xmalloc(PV_HISTORY_MAX * sizeof *h->entries);
    h->entries[0] = *here;
    h->count = 1;
    h->pos = 0;
}

void pv_history_free(pv_history *h)
{
    free(h->entries);
    h->entries = NULL;
    h->count = h->pos = 0;
}

void pv_history_go(pv_history *h, const pv_location *here, const pv_location *next)
{
    h->entries[h->pos] = *here;
    h->count = h->pos + 1;
    if (h->count == PV_HISTORY_MAX) {
        memmove(h->entries, h->entries + 1, (PV_HISTORY_MAX - 1) * sizeof *h->entries);
        h->count--;
    }
    h->entries[h->count++] = *next;
    h->pos = h->count - 1;
}

bool pv_history_back(pv_history *h, const pv_location *here, pv_location *out)
{
    if (h->pos == 0)
        return false;
    h->entries[h->pos] = *here;
    *out = h->entries[--h->pos];
    return true;
}

bool pv_history_forward(pv_history *h, const pv_location *here, pv_location *out)
{
    if (h->pos + 1 >= h->count)
        return false;
    h->entries[h->pos] = *here;
    *out = h->entries[++h->pos];
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
