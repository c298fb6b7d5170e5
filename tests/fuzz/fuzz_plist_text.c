/* fuzz_plist_text.c - libFuzzer target for the PLIST text-report parser
 * (PLIST without /T; built with -DPV_FUZZ=ON and clang).  Probes and parses
 * the input, then walks every view (fuzz_walk.h): every cell and hook of
 * every row, the details of the first rows, so that what the parser built
 * is exercised too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/plist.h"
#include "fuzz_walk.h"
#include "profview/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const pv_loader *loader = pv_loader_find("plist-text");
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
    pv_load_status st = pv_plist_text_load_buffer(f, (const char *)data, size, &o);
    const fuzz_walk_limits lim = {1, 16};
    if (st == PV_LOAD_OK)
        fuzz_walk_file(f, &lim);
    pv_file_free(f);
    return 0;
}
