/* fuzz_walk.h - what every fuzz target does with what it loaded: reads every
 * cell of every row of every view (of a view longer than 1024 rows, the
 * first and the last 512) (each formatted exactly; a checks build,
 * which every fuzz build is, aborts on a cell whose type is not its
 * column's), asks every capability hook (docs/model.md) of the first rows,
 * of every 16th and of the last, checking that the rows it relates exist,
 * and opens every detail of the first rows of each view (and of its last
 * row), walking each detail the same way. */
#ifndef PV_FUZZ_WALK_H
#define PV_FUZZ_WALK_H

#include <stdint.h>
#include <stdlib.h>

#include "profview/hooks.h"
#include "profview/model.h"

#define FUZZ_WALK_ROWS 512 /* of a long view, the first and the last rows are read */

typedef struct fuzz_walk_limits {
    int detail_levels;  /* 1: details of the views; 2: details of details too */
    size_t detail_rows; /* open details of the first rows only (and of the last) */
} fuzz_walk_limits;

static inline void fuzz_walk_hooks(const pv_view *v, size_t row, size_t rows)
{
    int64_t t;
    (void)pv_view_row_time(v, row, &t);
    uint64_t area;
    (void)pv_view_row_area(v, row, &area);
    for (int rel = PV_REL_PARTNER; rel <= PV_REL_TIMELINE; rel++) {
        pv_row_ref ref;
        if (pv_view_related(v, row, (pv_relation)rel, &ref) &&
            (!ref.view || ref.row >= pv_view_rows(ref.view)))
            __builtin_trap(); /* a related row that does not exist */
    }
    size_t lanes = pv_view_lane_count(v);
    size_t lane = pv_view_row_lane(v, row);
    if (lane != PV_NO_ROW && lane >= lanes)
        __builtin_trap();
    if (row == 0 || row + 1 == rows)
        for (size_t k = 0; k < lanes; k++) {
            pv_cell name;
            pv_view_lane_name(v, k, &name);
        }
}

static inline void fuzz_walk_view(const pv_view *v, pv_buf *text, const fuzz_walk_limits *lim, int level)
{
    size_t rows = pv_view_rows(v);
    (void)pv_view_time_ordered(v);
    (void)pv_view_waits_for_index(v, false);
    for (size_t r = 0; r < rows; r++) {
        if (r == FUZZ_WALK_ROWS && rows > 2 * FUZZ_WALK_ROWS)
            r = rows - FUZZ_WALK_ROWS; /* long views: their first and last rows */
        size_t parent = pv_view_parent(v, r);
        if (parent != PV_NO_ROW && parent >= r)
            __builtin_trap(); /* trees are stored in pre-order */
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell cell;
            pv_view_cell(v, r, c, &cell);
            pv_buf_clear(text);
            pv_cell_format_exact(&cell, text);
        }
        if (r < 64 || r % 16 == 0 || r + 1 == rows) /* enough, and fast */
            fuzz_walk_hooks(v, r, rows);
        if (level >= lim->detail_levels || (r >= lim->detail_rows && r + 1 != rows))
            continue;
        for (size_t d = 0; d < v->detail_count; d++) {
            pv_view *detail = pv_view_open_detail(v, d, r);
            if (detail) {
                fuzz_walk_view(detail, text, lim, level + 1);
                pv_view_free(detail);
            }
        }
    }
}

static inline void fuzz_walk_file(const pv_file *f, const fuzz_walk_limits *lim)
{
    pv_buf text;
    pv_buf_init(&text);
    for (size_t s = 0; s < f->set_count; s++)
        for (size_t v = 0; v < f->sets[s]->view_count; v++)
            fuzz_walk_view(f->sets[s]->views[v], &text, lim, 0);
    pv_buf_free(&text);
}

/* Every view of f, every row's details and the details of those (the
 * database targets: fuzz_aqtime, fuzz_mdb). */
static inline void fuzz_walk_deep(const pv_file *f)
{
    const fuzz_walk_limits lim = {2, SIZE_MAX};
    fuzz_walk_file(f, &lim);
}

/* The fast path of a target (fuzz_text1, fuzz_bin): a bounded sample of
 * each view, so that an input costs milliseconds: its first and last
 * `rows` rows (every cell, every hook) and the details of its first and
 * last row (their first and last rows the same way). */
static inline void fuzz_walk_sample_view(const pv_view *v, pv_buf *text, size_t rows_each,
                                         int level)
{
    size_t rows = pv_view_rows(v);
    (void)pv_view_time_ordered(v);
    for (size_t r = 0; r < rows; r++) {
        if (r == rows_each && rows > 2 * rows_each)
            r = rows - rows_each;
        size_t parent = pv_view_parent(v, r);
        if (parent != PV_NO_ROW && parent >= r)
            __builtin_trap(); /* trees are stored in pre-order */
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell cell;
            pv_view_cell(v, r, c, &cell);
            pv_buf_clear(text);
            pv_cell_format_exact(&cell, text);
        }
        fuzz_walk_hooks(v, r, rows);
        if (level > 0 || (r != 0 && r + 1 != rows))
            continue;
        for (size_t d = 0; d < v->detail_count; d++) {
            pv_view *detail = pv_view_open_detail(v, d, r);
            if (detail) {
                fuzz_walk_sample_view(detail, text, rows_each, level + 1);
                pv_view_free(detail);
            }
        }
    }
}

static inline void fuzz_walk_sample(const pv_file *f, size_t rows_each)
{
    pv_buf text;
    pv_buf_init(&text);
    for (size_t s = 0; s < f->set_count; s++)
        for (size_t v = 0; v < f->sets[s]->view_count; v++)
            fuzz_walk_sample_view(f->sets[s]->views[v], &text, rows_each, 0);
    pv_buf_free(&text);
}

/* A file loaded with defer_index, indexed in steps of `budget` as a viewer
 * does between key presses: before each step the views that do not wait for
 * the index are read at a few rows (the rows not indexed yet show what is
 * known without the index), and the rows at the frontier. */
static inline void fuzz_walk_stepwise(pv_file *f, size_t budget)
{
    pv_buf text;
    pv_buf_init(&text);
    for (size_t step = 0;; step++) {
        for (size_t s = 0; s < f->set_count; s++)
            for (size_t i = 0; i < f->sets[s]->view_count; i++) {
                const pv_view *v = f->sets[s]->views[i];
                if (pv_view_waits_for_index(v, false))
                    continue;
                size_t rows = pv_view_rows(v);
                uint64_t done = 0, total = 0;
                (void)pv_file_index_progress(f, &done, &total);
                size_t pick[] = {0, 1, rows / 2, rows ? rows - 1 : 0, (size_t)done,
                                 (size_t)done + 1};
                for (size_t k = 0; k < PV_ARRAY_LEN(pick); k++) {
                    if (pick[k] >= rows)
                        continue;
                    for (size_t c = 0; c < v->column_count; c++) {
                        pv_cell cell;
                        pv_view_cell(v, pick[k], c, &cell);
                        pv_buf_clear(&text);
                        pv_cell_format_exact(&cell, &text);
                    }
                    fuzz_walk_hooks(v, pick[k], rows);
                }
            }
        if (pv_file_index_step(f, budget))
            break;
        if (step > 10000000)
            __builtin_trap(); /* indexing in steps never ends */
    }
    pv_buf_free(&text);
}

#endif
