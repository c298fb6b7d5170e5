/* report_internal.h - what the files of the report core share (report.c
 * the report, report_layout.c a tree's visible list, report_job.c the jobs
 * in steps and the search, report_select.c filter, sort and reverse,
 * report_tree_job.c opening and expanding trees).  Not an API: only these
 * include it. */
#ifndef PROFVIEW_TUI_REPORT_INTERNAL_H
#define PROFVIEW_TUI_REPORT_INTERNAL_H

#include "tui/report.h"

static inline bool pv_bit(const uint8_t *bits, size_t i)
{
    return bits && (bits[i >> 3] >> (i & 7)) & 1;
}
static inline void pv_bit_set(uint8_t *bits, size_t i, bool on)
{
    if (on)
        bits[i >> 3] = (uint8_t)(bits[i >> 3] | (1u << (i & 7)));
    else
        bits[i >> 3] = (uint8_t)(bits[i >> 3] & ~(1u << (i & 7)));
}

static inline size_t pv_report_sel_count(const pv_report *r)
{
    return r->sel ? r->sel_count : pv_view_rows(r->view);
}

static inline size_t pv_report_sel_row(const pv_report *r, size_t i)
{
    return r->sel ? r->sel[i] : i;
}

/* A block the report no longer needs: to its trash (given back in steps
 * between key presses) or freed now. */
void pv_report_discard(pv_report *r, void *p, size_t bytes);
/* The selection position of model row `row` (without a selection, the
 * row itself); PV_NO_ROW when it is not in the selection. */
size_t pv_report_pos_of(const pv_report *r, size_t row);
/* Picks the shown columns of a report being opened ("a,b,c" or NULL). */
void pv_report_apply_columns(pv_report *r, const char *columns);
/* Does `needle` occur in hay, ignoring case? */
bool pv_contains_ci(const char *hay, size_t hay_len, const char *needle);
/* Can a cell of type t hold text at all (a number's text has only digits,
 * signs, hex digits...)? */
bool pv_text_fits_type(pv_type t, const char *text);

/* ---- report_layout.c: the visible list of a tree, laid out from a
 * selection and the collapsed bits: one pass in pre-order with an explicit
 * stack of open ancestors (no recursion, whatever the depth), resumable
 * anywhere, so that a report job lays out a big tree in steps and
 * pv_report_rebuild in one go. */
typedef struct pv_layout {
    const pv_view *v;
    const pv_row *sel; /* NULL: every row in view order */
    size_t n, at;
    const uint8_t *collapsed;
    uint8_t *has_kids; /* set for the rows with children in the selection */
    pv_row *vis;
    uint32_t *vis_depth;
    size_t count, cap;
    /* the first selection position after each position's subtree (set as
     * the subtree's rows end: the report's sub_end) */
    pv_row *sub_end;
    pv_row *stack, *stack_pos;
    uint8_t *hide;
    size_t sp, stack_cap;
    double deadline; /* pv_clock_now() time a step stops at (0: none) */
} pv_layout;

void pv_layout_init(pv_layout *l, const pv_view *v, const pv_row *sel, size_t n,
                    const uint8_t *collapsed, uint8_t *has_kids);
/* Lays out about `budget` more rows; true when every row is placed. */
bool pv_layout_step(pv_layout *l, size_t budget);
/* Frees what the layout still owns (its lists unless taken). */
void pv_layout_free(pv_layout *l);
/* The finished layout's lists go into report r (its old ones to the trash). */
void pv_layout_take(pv_layout *l, pv_report *r);

/* ---- report_job.c: a report job is a kind's state struct (which begins
 * with pv_report_job) and its phases, run by the engine of core.h
 * (pv_phases_run).  Its last step commits (`finish`): the report is
 * changed there only, so freeing the job at any step before leaves the
 * report as it was. */
typedef struct pv_report_job_ops {
    const pv_phase_fn *phases;
    int done;                                 /* the phase that ends the job */
    void (*finish)(pv_report_job *j);         /* the report takes the result */
    void (*free)(pv_report_job *j);           /* what the kind owns (not j) */
    void (*move)(pv_report_job *j);           /* j->r changed (may be NULL) */
    void (*select)(pv_report_job *j, size_t model_row); /* may be NULL */
} pv_report_job_ops;

struct pv_report_job {
    const pv_report_job_ops *ops;
    pv_report *r;
    int phase;
    bool finished;
    bool found;          /* a search found a row */
    uint64_t done, total; /* for the percentage */
    double deadline;     /* pv_clock_now() time a step ends at (0: none) */
};

/* A new job of `size` bytes (the kind's struct) with its ops, on report r. */
pv_report_job *pv_report_job_new(size_t size, const pv_report_job_ops *ops, pv_report *r,
                                 int phase);

#endif
