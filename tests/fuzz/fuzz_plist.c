/* fuzz_plist.c - libFuzzer target for the PLIST /T parser (built with
 * -DPV_FUZZ=ON and clang).  Probes and parses the input, then reads every
 * cell of every view and opens the details of the first rows, so that what
 * the parser built is exercised too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/plist.h"
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
        if (level > 0 || r >= 16) /* details of the first rows: enough, and fast */
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
    const pv_loader *loader = pv_loader_find("plist");
    if (!loader)
        abort();
    (void)loader->probe(data, size < PV_PROBE_BYTES ? size : PV_PROBE_BYTES, size, "fuzz");

    pv_file *f = calloc(1, sizeof *f);
    if (!f)
        return 0;
    f->path = pv_xstrdup("fuzz.txt");
    f->format = loader->name;
    pv_diag_init(&f->diag);
    pv_load_options o;
    pv_load_options_init(&o);
    pv_load_status st = pv_plist_load_buffer(f, (const char *)data, size, &o);
    pv_buf text;
    pv_buf_init(&text);
    if (st == PV_LOAD_OK)
        for (size_t s = 0; s < f->set_count; s++)
            for (size_t v = 0; v < f->sets[s]->view_count; v++)
                fuzz_walk(f->sets[s]->views[v], &text, 0);
    pv_buf_free(&text);
    pv_file_free(f);
    return 0;
}
