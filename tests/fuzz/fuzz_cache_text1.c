/* fuzz_cache_text1.c - fuzz_cache over the other entry of a Text1 file:
 * what its parse read (docs/cache.md "Text1 files", cache_text1.c), which a
 * hit reads instead of parsing.  The input is that entry's payload for
 * sample-data/rtos.txt (scripts/fuzz-seeds.bash). */
#define FUZZ_CACHE_ENTRY "winidea-text1-*.pvc"
#include "fuzz_cache.c"
