/* fuzz_profview_db.c - libFuzzer target for the profview SQLite schema
 * loader (docs/export.md "the profview schema"; built with -DPV_FUZZ=ON and
 * clang).  The input is written to a temporary file (SQLite reads files),
 * loaded as `profview-sqlite` (hardened, its work bounded: docs/input.md
 * "Databases"), and a sample of every view and detail walked
 * (fuzz_walk.h).  Seed it with profview's exports of the samples
 * (scripts/fuzz-seeds.bash makes them). */
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
        snprintf(path, sizeof path, "/tmp/pv_fuzz_profview_db.%ld.db", (long)getpid());
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
    o.format = "profview-sqlite";
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    if (st == PV_LOAD_OK)
        fuzz_walk_sample(f, 16);
    pv_file_free(f);
    unlink(path);
    return 0;
}
