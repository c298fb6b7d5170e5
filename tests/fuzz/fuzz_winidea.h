/* fuzz_winidea.h - the winIDEA part of fuzz_text1 and fuzz_bin (and of
 * their _full twins): after the parser, the model (timeline index,
 * statistics, views) is built from what was parsed and walked
 * (fuzz_walk.h).  The fast path (fuzz_wi_fast: fuzz_text1, fuzz_bin)
 * builds the whole index once and walks a bounded sample of every view,
 * hundreds of inputs a second; the full walk (fuzz_wi_model: fuzz_text1_full,
 * fuzz_bin_full) builds it three ways: the whole index at once; a deferred
 * index built in small steps while the views are read, as the viewer
 * does; a deferred index over a window (--from/--to) taken from the
 * input's own times, read as `cat` reads it. */
#ifndef PV_FUZZ_WINIDEA_H
#define PV_FUZZ_WINIDEA_H

#include <stdlib.h>

#include "formats/winidea/parse.h"
#include "fuzz_walk.h"
#include "profview/load.h"

/* Parses the input into d (messages into diag); false when it is unusable. */
typedef bool (*fuzz_wi_parse_fn)(pv_wi_data *d, pv_diag *diag, const uint8_t *data, size_t size);

static inline pv_file *fuzz_wi_load(fuzz_wi_parse_fn parse, const uint8_t *data, size_t size,
                             const pv_load_options *o, bool *ok)
{
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup("fuzz");
    f->format = "winidea";
    pv_diag_init(&f->diag);
    pv_wi_data *d = pv_xmalloc(sizeof *d);
    pv_wi_data_init(d);
    if (!parse(d, &f->diag, data, size)) {
        pv_wi_data_free(d);
        free(d);
        *ok = false;
        return f;
    }
    *ok = pv_wi_build(f, d, o) == PV_LOAD_OK; /* f owns d from here on */
    return f;
}

/* A window from the times of the timeline rows at a third and two thirds. */
static inline bool fuzz_wi_window(const pv_file *f, int64_t *from, int64_t *to)
{
    const pv_view *v = f->set_count ? pv_set_find_view(f->sets[0], "timeline") : NULL;
    size_t rows = v ? pv_view_rows(v) : 0;
    return rows >= 3 && pv_view_row_time(v, rows / 3, from) &&
           pv_view_row_time(v, 2 * rows / 3, to);
}

static inline void fuzz_wi_fast(fuzz_wi_parse_fn parse, const uint8_t *data, size_t size)
{
    pv_load_options o;
    pv_load_options_init(&o);
    bool ok;
    pv_file *f = fuzz_wi_load(parse, data, size, &o, &ok);
    if (ok)
        fuzz_walk_sample(f, 8);
    pv_file_free(f);
}

static inline void fuzz_wi_model(fuzz_wi_parse_fn parse, const uint8_t *data, size_t size)
{
    const fuzz_walk_limits lim = {1, 16};
    pv_load_options o;
    pv_load_options_init(&o);
    bool ok;
    int64_t from = 0, to = 0;
    pv_file *f = fuzz_wi_load(parse, data, size, &o, &ok);
    bool window = false;
    if (ok) {
        fuzz_walk_file(f, &lim);
        window = fuzz_wi_window(f, &from, &to);
    }
    pv_file_free(f);
    if (!ok)
        return;

    o.defer_index = true;
    f = fuzz_wi_load(parse, data, size, &o, &ok);
    if (ok) {
        fuzz_walk_stepwise(f, 16 + size % 113); /* budgets of 16 to 128 events or calls */
        fuzz_walk_file(f, &lim);
    }
    pv_file_free(f);

    if (!window)
        return;
    o.has_from = o.has_to = true;
    o.from = from;
    o.to = to;
    f = fuzz_wi_load(parse, data, size, &o, &ok);
    if (ok)
        fuzz_walk_file(f, &lim);
    pv_file_free(f);
}

#endif
