/* fuzz_file.h - the input of a target whose loader reads a file, not
 * memory (SQLite, libmdb: fuzz_aqtime, fuzz_mdb, fuzz_profview_db): written
 * to a temporary file of this process's, loaded as one format, walked when
 * it loads, then the file removed. */
#ifndef PV_FUZZ_FILE_H
#define PV_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profview/load.h"

/* Writes data to /tmp/pv_fuzz_NAME.PID.EXT, loads it as `format` and, when
 * it loads, hands it to walk (fuzz_walk.h); 0 (libFuzzer's "go on"). */
static inline int fuzz_file_run(const uint8_t *data, size_t size, const char *name,
                                const char *ext, const char *format,
                                void (*walk)(const pv_file *f))
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/pv_fuzz_%s.%ld.%s", name, (long)getpid(), ext);
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
    o.format = format;
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    if (st == PV_LOAD_OK)
        walk(f);
    pv_file_free(f);
    unlink(path);
    return 0;
}

#endif
