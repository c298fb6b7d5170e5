/* fuzz_aqtime.c - libFuzzer target for the AQTime database loader (built
 * with -DPV_FUZZ=ON and clang).  The input is written to a temporary file
 * (SQLite reads files) and loaded as an AQTime database; then every cell of
 * every view is read and every detail of every row opened.  Seed it with
 * sample-data/aqtime-*.db: mutations then hit pages, records and values. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profview/load.h"
#include "profview/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_walk(const pv_view *v, pv_buf *text, int level)
{
    size_t rows = pv_view_rows(v);
    for (size_t r = 0; r < rows; r++) {
        (void)pv_view_parent(v, r);
        for (size_t c = 0; c < v->column_count; c++) {
            pv_cell cell;
            pv_view_cell(v, r, c, &cell);
            pv_buf_clear(text);
            pv_cell_format_exact(&cell, text);
        }
        if (level > 1)
            continue;
        for (size_t d = 0; d < v->detail_count; d++) {
            pv_view *detail = pv_view_open_detail(v, d, r);
            if (detail) {
                fuzz_walk(detail, text, level + 1);
                pv_view_free(detail);
            }
        }
    }
}

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
    pv_buf text;
    pv_buf_init(&text);
    if (st == PV_LOAD_OK)
        for (size_t s = 0; s < f->set_count; s++)
            for (size_t v = 0; v < f->sets[s]->view_count; v++)
                fuzz_walk(f->sets[s]->views[v], &text, 0);
    pv_buf_free(&text);
    pv_file_free(f);
    unlink(path);
    return 0;
}
