/* history.h - the navigation history behind Backspace / [ / ] (docs/tui.md): where the user was (view, drill-down path, selection, filter, sort).
 * Curses-free, unit-tested. */
#ifndef PROFVIEW_TUI_HISTORY_H
#define PROFVIEW_TUI_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#define PV_LOC_MAX_DEPTH 8
#define PV_HISTORY_MAX 200

typedef struct pv_location {
    size_t item;  /* Explorer item of the top view */
    size_t depth; /* drill-down steps below it */
    struct {
        size_t detail; /* detail index in the view above */
        size_t row;    /* the row of the view above it belongs to */
    } chain[PV_LOC_MAX_DEPTH];
    size_t row;   /* selected row (model row index), or SIZE_MAX */
    char *filter; /* owned, any length; NULL = none */
    char *sort;   /* owned ("col:desc,col"); NULL = view order */
} pv_location;

/* A location's texts: "" for none. */
static inline const char *pv_location_filter(const pv_location *l)
{
    return l->filter ? l->filter : "";
}
static inline const char *pv_location_sort(const pv_location *l)
{
    return l->sort ? l->sort : "";
}
/* Replaces the filter and sort texts with copies of these (NULL = none). */
void pv_location_set_texts(pv_location *l, const char *filter, const char *sort);
/* Makes dst a deep copy of src; dst's own texts are freed first, so dst
 * must be initialised (zeroed or a location). */
void pv_location_copy(pv_location *dst, const pv_location *src);
/* Frees the texts (the location stays usable, with none). */
void pv_location_free(pv_location *l);

typedef struct pv_history {
    pv_location *entries; /* each owns its texts */
    size_t count;
    size_t pos; /* index of the current location */
} pv_history;

/* The history keeps copies of the locations it is given; `out` gets a copy
 * (its old texts are freed: it must be initialised) that the caller frees
 * with pv_location_free.  Starts a history whose only entry is `here`. */
void pv_history_init(pv_history *h, const pv_location *here);
void pv_history_free(pv_history *h);
/* Going from `here` (saved as it is now) to `next`: the forward entries are
 * dropped; the oldest entries go when there are more than PV_HISTORY_MAX. */
void pv_history_go(pv_history *h, const pv_location *here, const pv_location *next);
/* Saves `here` and steps back (forward); false when there is nothing there. */
bool pv_history_back(pv_history *h, const pv_location *here, pv_location *out);
bool pv_history_forward(pv_history *h, const pv_location *here, pv_location *out);
/* Two locations show the same view (same item and drill-down path). */
bool pv_location_same_view(const pv_location *a, const pv_location *b);

#endif
