/* libFuzzer target for the winIDEA Text1 parser (built with -DPV_FUZZ=ON).
 * Parses the input, then walks what was built so that a bad index shows. */
#include <stddef.h>
#include <stdint.h>

#include "formats/winidea/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    (void)pv_wi_text1_probe(data, size);
    if (pv_wi_parse_text1("fuzz.txt", data, size, &d, &diag)) {
        for (size_t i = 0; i < d.area_count; i++)
            if (d.areas[i].parent != PV_WI_NONE && d.areas[i].parent >= d.area_count)
                __builtin_trap();
        for (size_t i = 0; i < d.timeline.count; i++) {
            pv_wi_event e;
            pv_wi_event_at(&d.timeline, i, &e);
            if (e.kind > PV_WI_WRITE)
                __builtin_trap();
            if (d.timeline.text_context && d.timeline.text_context[i] != UINT16_MAX &&
                d.timeline.text_context[i] >= d.context_count)
                __builtin_trap();
        }
    }
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
    return 0;
}
