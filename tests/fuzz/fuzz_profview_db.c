/* fuzz_profview_db.c - libFuzzer target for the profview SQLite schema
 * loader (docs/export.md "the profview schema"; built with -DPV_FUZZ=ON and
 * clang).  The input is written to a temporary file (SQLite reads files),
 * loaded as `profview-sqlite` (hardened, its work bounded: docs/input.md
 * "Databases"), and a sample of every view and detail walked
 * (fuzz_walk.h).  Seed it with profview's exports of the samples
 * (scripts/fuzz-seeds.bash makes them). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "fuzz_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every view and detail, a sample of each (16 rows). */
static void fuzz_profview_db_walk(const pv_file *f)
{
    fuzz_walk_sample(f, 16);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_file_run(data, size, "profview_db", "db", "profview-sqlite", fuzz_profview_db_walk);
}
