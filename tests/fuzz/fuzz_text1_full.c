/* fuzz_text1_full.c - fuzz_text1 with the full walk: the model built three
 * ways per input (whole, in steps, over a window) and every view walked
 * (fuzz_winidea.h), and the streaming sink checked: slower by far than
 * fuzz_text1's fast path, for the long campaign. */
#define FUZZ_WI_FULL 1
#include "fuzz_text1.c"
