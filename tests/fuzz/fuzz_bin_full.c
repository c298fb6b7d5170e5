/* fuzz_bin_full.c - fuzz_bin with the full walk: the model built three ways
 * per input (whole, in steps, over a window) and every view walked
 * (fuzz_winidea.h): slower by far than fuzz_bin's fast path, for the long
 * campaign. */
#define FUZZ_WI_FULL 1
#include "fuzz_bin.c"
