/* fuzz_aqtime.c - libFuzzer target for the AQTime database loader (built
 * with -DPV_FUZZ=ON and clang).  The input is written to a temporary file
 * (SQLite reads files) and loaded as an AQTime database; then every view is
 * walked (fuzz_walk.h): every cell, every hook, every detail of every row and
 * the details of those.  Seed it with sample-data/aqtime-*.db: mutations
 * then hit pages, records and values. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "fuzz_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_file_run(data, size, "aqtime", "db", "aqtime", fuzz_walk_deep);
}
