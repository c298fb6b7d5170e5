/*
 * timeline_lines.c - the line sweep: line activations and the calls they
 * lie in, read from the finished index in event order (docs/flame.md).
 */
#include "formats/winidea/timeline_internal.h"

#include <stdlib.h>
#include <string.h>

void pv_timeline_line_sweep_begin(const pv_timeline_index *ix, pv_tl_line_sweep *sw)
{
    /* Lines in entry order; per context, the last explicit call entered
     * before the line (a pointer that only moves forward), then up its
     * parents to the first still open at the line's E.  Parents of
     * top-level explicit calls are the implicit calls (finishing), so the
     * walk reaches those too. */
    size_t nctx = ix->context_count;
    sw->done = 0;
    sw->next = pv_xmalloc((nctx ? nctx : 1) * sizeof *sw->next);  /* first call not yet passed */
    sw->first = pv_xmalloc((nctx ? nctx : 1) * sizeof *sw->first); /* first explicit call */
    for (size_t c = 0; c < nctx; c++) {
        size_t lo = ix->context_call_start ? ix->context_call_start[c] : 0;
        size_t hi = ix->context_call_start ? ix->context_call_start[c + 1] : 0;
        while (lo < hi && (ix->call_entry[lo] & PV_TL_IMPLICIT_CALL))
            lo++;
        sw->next[c] = sw->first[c] = lo;
    }
}

void pv_timeline_line_sweep_step(const pv_timeline_index *ix, pv_tl_line_sweep *sw, size_t upto,
                                 uint32_t *out)
{
    size_t nctx = ix->context_count;
    size_t *next = sw->next, *first = sw->first;
    if (upto > ix->line_count)
        upto = ix->line_count;
    for (size_t k = sw->done; k < upto; k++) {
        uint32_t e = ix->line_entry[k];
        out[k] = PV_TL_OPEN;
        bool implicit = (e & PV_TL_IMPLICIT_CALL) != 0;
        e &= ~PV_TL_IMPLICIT_CALL;
        if (e >= ix->event_count)
            continue;
        uint16_t c = pv_tl_event_context(ix, e);
        if (c >= nctx || !ix->context_call_start)
            continue;
        if (implicit) {
            /* an implicit frame lies above the implicit frames found after
             * it (docs/formats.md §3): it runs in the innermost implicit
             * call revealed later (they are stored outermost first) */
            size_t lo = ix->context_call_start[c];
            for (size_t q = first[c]; q-- > lo;)
                if ((ix->call_entry[q] & ~PV_TL_IMPLICIT_CALL) > e) {
                    out[k] = (uint32_t)q;
                    break;
                }
            continue;
        }
        size_t hi = ix->context_call_start[c + 1];
        size_t q = next[c];
        while (q < hi && ix->call_entry[q] < e)
            q++;
        next[c] = q;
        /* the last call entered before e: explicit, else the innermost implicit */
        size_t lo = ix->context_call_start[c];
        uint32_t cand = q > first[c] ? (uint32_t)(q - 1)
                        : first[c] > lo ? (uint32_t)(first[c] - 1)
                                        : PV_TL_OPEN;
        size_t guard = 0;
        while (cand != PV_TL_OPEN && guard++ <= ix->call_count) {
            if (ix->call_exit[cand] == PV_TL_OPEN || ix->call_exit[cand] > e)
                break;
            cand = ix->call_parent[cand];
        }
        out[k] = cand;
    }
    if (upto > sw->done)
        sw->done = upto;
}

void pv_timeline_line_sweep_end(pv_tl_line_sweep *sw)
{
    free(sw->next);
    free(sw->first);
    sw->next = sw->first = NULL;
}

void pv_timeline_line_parents(const pv_timeline_index *ix, uint32_t *out)
{
    pv_tl_line_sweep sw;
    pv_timeline_line_sweep_begin(ix, &sw);
    pv_timeline_line_sweep_step(ix, &sw, ix->line_count, out);
    pv_timeline_line_sweep_end(&sw);
}
