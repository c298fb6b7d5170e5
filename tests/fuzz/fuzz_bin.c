/* libFuzzer target for winIDEA BIN timelines and the model built from them
 * (built with -DPV_FUZZ=ON): the probe, detection, attaching with each
 * reading and decoding every event; then the timeline index, statistics and
 * views of the BIN alone, walked (fuzz_winidea.h).  The model reads the BIN
 * as detected, or as v1.1 / v1.0 (by the input's size) when no version fits. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_winidea.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool fuzz_parse_bin(pv_wi_data *d, pv_diag *diag, const uint8_t *data, size_t size)
{
    int version = pv_wi_bin_detect_version(data, size, NULL, 0);
    if (version == 0)
        version = (size / PV_WI_RECORD_SIZE) % 2 ? 10 : 11;
    else
        version = 0; /* detected by the loader itself */
    return pv_wi_bin_attach_memory(d, "fuzz.bin", data, size, version, diag, PV_SEV_ERROR);
}

static void fuzz_check_readings(const uint8_t *data, size_t size)
{
    (void)pv_wi_bin_probe(data, size, size);
    char why[400];
    int version = pv_wi_bin_detect_version(data, size, why, sizeof why);
    if (version != 0 && version != 10 && version != 11)
        __builtin_trap();
    static const int readings[] = {0, 10, 11};
    for (size_t r = 0; r < 3; r++) {
        pv_wi_data d;
        pv_wi_data_init(&d);
        pv_diag diag;
        pv_diag_init(&diag);
        if (pv_wi_bin_attach_memory(&d, "fuzz.bin", data, size, readings[r], &diag,
                                    PV_SEV_ERROR)) {
            if (d.timeline.count != size / PV_WI_RECORD_SIZE)
                __builtin_trap();
            uint64_t sum = 0;
            for (size_t i = 0; i < d.timeline.count; i++) {
                pv_wi_event e;
                pv_wi_event_at(&d.timeline, i, &e);
                sum += e.handle + e.kind + e.core + e.data + (uint64_t)e.time;
            }
            (void)sum;
        } else if (readings[r] != 0 && size >= PV_WI_RECORD_SIZE) {
            __builtin_trap(); /* a forced reading never fails on whole records */
        }
        d.timeline.records = NULL; /* borrowed */
        pv_wi_data_free(&d);
        pv_diag_free(&diag);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_check_readings(data, size);
#ifdef FUZZ_WI_FULL
    fuzz_wi_model(fuzz_parse_bin, data, size); /* three ways, every view walked */
#else
    fuzz_wi_fast(fuzz_parse_bin, data, size); /* once, a sample walked */
#endif
    return 0;
}
