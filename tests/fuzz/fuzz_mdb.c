/* fuzz_mdb.c - libFuzzer target for AQTime results in a Microsoft Access
 * database (built with -DPV_FUZZ=ON and clang).  The input is written to a
 * temporary file (libmdb reads files), loaded through libmdb and copied
 * into SQLite (src/formats/aqtime_mdb.c); then every view is walked
 * (fuzz_walk.h).  Seed it with sample-data/aqtime-*.mdb, which the
 * project's Jet 4 writer (sample-data/gen/pv_gen_mdb) makes from the SQLite
 * samples: mutations then hit the header, the catalog, table definitions,
 * usage maps, rows and values. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "fuzz_walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_file_run(data, size, "mdb", "mdb", "aqtime-access", fuzz_walk_deep);
}
