/* fuzz_mdb.c - libFuzzer target for AQTime results in a Microsoft Access
 * database (built with -DPV_FUZZ=ON and clang).  The input is written to a
 * temporary file (libmdb reads files), loaded through libmdb and copied
 * into SQLite (src/formats/aqtime_mdb.c); then every view is walked
 * (fuzz_walk.h).  Seed it with sample-data/aqtime-*.mdb, which the
 * project's Jet 4 writer (sample-data/gen/pv_gen_mdb) makes from the SQLite
 * samples: mutations then hit the header, the catalog, table definitions,
 * usage maps, rows and values. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_walk.h"
#include "profview/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/pv_fuzz_mdb.%ld.mdb", (long)getpid());
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return 0;
    if (size && fwrite(data, 1, size, fp) != size) {
        fclose(fp);
        return 0;
    }
    fclose(fp);
    pv_load_options o;
    pv_load_options_init(&o);
    o.format = "aqtime-access";
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    const fuzz_walk_limits lim = {2, SIZE_MAX};
    if (st == PV_LOAD_OK)
        fuzz_walk_file(f, &lim);
    pv_file_free(f);
    unlink(path);
    return 0;
}
