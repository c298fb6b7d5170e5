/* The winIDEA timeline's unit tests (test_timeline_*.c) share these: a
 * recording built by hand event by event, the views read through
 * pv_view_cell, and the comparison of two indexes of the same recording. */
#ifndef PV_TESTS_TIMELINE_FIXTURE_H
#define PV_TESTS_TIMELINE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/winidea/timeline.h"
#include "profview/load.h"

/* Two function handles. */
#define FN_F 0x00000001u
#define FN_G 0x00000002u

/* An empty recording (free it with data_free). */
pv_wi_data *data_new(void);
void data_free(pv_wi_data *d);

/* Adds an event on `handle` of `kind` ('E' entry, 'S' suspend, 'R' resume,
 * 'X' exit, anything else a write) at `time`. */
void ev(pv_wi_data *d, uint32_t handle, char kind, uint64_t value, int64_t time);

/* Adds the state `value` of the data area `handle`; returns its area. */
size_t add_state(pv_wi_data *d, uint32_t handle, uint64_t value);

/* The name of the context of `event`. */
const char *ctx_of(const pv_timeline_index *ix, size_t event);

/* `n` random events over contexts A and B (seeded by `seed`): random
 * handles of every kind, codes 0..15, times that sometimes go back; with
 * `text_context`, each event names a context (%CONTEXT%) or none. */
pv_wi_data *random_data(uint64_t seed, size_t n, bool text_context);

/* Two indexes hold the same: every event's area, context and depth, every
 * call (order, entry, exit, parent, net and gross time), the events of
 * every context, every line activation, every statistics row. */
void assert_same_index(const pv_timeline_index *a, const pv_timeline_index *b);

/* Two builds gave the same warnings, in the same order. */
void assert_same_warnings(const pv_diag *a, const pv_diag *b);

/* A file "test.txt" to build views into (pv_wi_build). */
pv_file *file_new(void);

/* The view `id` of the file's first set (asserted to exist). */
const pv_view *view(const pv_file *f, const char *id);

/* The cell of column `col` in `row`: an integer (asserted present), whether
 * it is present, its exact text (valid until the next call). */
int64_t cell_int(const pv_view *v, size_t row, const char *col);
bool cell_present(const pv_view *v, size_t row, const char *col);
const char *cell_text(const pv_view *v, size_t row, const char *col);

#endif
