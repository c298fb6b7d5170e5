/* fuzz_aqtime.c - libFuzzer target for the AQTime database loader (built
 * with -DPV_FUZZ=ON and clang).  The input is written to a temporary file
 * (SQLite reads files) and loaded as an AQTime database; then every view is
 * walked (fuzz_walk.h): every cell, every hook, every detail of every row and
 * the details of those.  Seed it with sample-data/aqtime-*.db: mutations
 * then hit pages, records and values. */
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
        snprintf(path, sizeof path, "/tmp/pv_fuzz_aqtime.%ld.db", (long)getpid());
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
    o.format = "aqtime";
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    const fuzz_walk_limits lim = {2, SIZE_MAX};
    if (st == PV_LOAD_OK)
        fuzz_walk_file(f, &lim);
    pv_file_free(f);
    unlink(path);
    return 0;
}
