/* fuzz_cache.c - libFuzzer target for the index cache's loader (the winIDEA
 * index mapped from a cache entry, docs/cache.md "Trust"; built with
 * -DPV_FUZZ=ON and clang).  The input is the payload of an entry for
 * sample-data/rtos.txt: the target writes it behind a valid header and key
 * with a valid checksum (so every mutation reaches the loader's own checks,
 * as a forged entry would), loads the sample with the cache on, and walks a
 * sample of its views (fuzz_walk.h).  Whatever the payload, the load must
 * reject it or give a model that reads safely.  Seeds: the payload of the
 * sample's real entry (scripts/fuzz-seeds.bash). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_walk.h"
#include "profview/cache.h"
#include "profview/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The entry whose payload the input is (fuzz_cache_text1.c: what the Text1
 * parse read, docs/cache.md "Text1 files"). */
#ifndef FUZZ_CACHE_ENTRY
#define FUZZ_CACHE_ENTRY "winidea-[0-9a-f]*.pvc"
#endif

static char fuzz_dir[] = "/tmp/pv-fuzz-cache-XXXXXX";
static char fuzz_input[600], fuzz_entry[700];
static unsigned char *fuzz_prefix; /* the entry's header and key */
static size_t fuzz_prefix_len;

static pv_file *fuzz_cache_load(pv_load_status *st)
{
    pv_load_options o;
    pv_load_options_init(&o);
    o.cache = true;
    return pv_load_file(fuzz_input, &o, st);
}

static void fuzz_cache_cleanup(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fuzz_dir);
    (void)!system(cmd);
}

/* Once: a private cache directory, a copy of the sample, its real entry. */
static bool fuzz_cache_setup(void)
{
    if (fuzz_prefix)
        return true;
    if (!mkdtemp(fuzz_dir))
        return false;
    atexit(fuzz_cache_cleanup);
    setenv("XDG_CACHE_HOME", fuzz_dir, 1);
    unsetenv("PROFVIEW_CACHE");
    const char *src = getenv("PV_SOURCE_DIR");
    char sample[600];
    snprintf(sample, sizeof sample, "%s/sample-data/rtos.txt", src && *src ? src : ".");
    snprintf(fuzz_input, sizeof fuzz_input, "%s/rtos.txt", fuzz_dir);
    pv_mapped_file mf;
    if (pv_map_file(sample, &mf) != 0)
        return false;
    FILE *fp = fopen(fuzz_input, "wb");
    if (!fp || fwrite(mf.data, 1, mf.size, fp) != mf.size || fclose(fp) != 0)
        return false;
    pv_unmap_file(&mf);
    pv_load_status st;
    pv_file *f = fuzz_cache_load(&st);
    pv_file_free(f);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls %s/profview/" FUZZ_CACHE_ENTRY, fuzz_dir);
    FILE *ls = popen(cmd, "r");
    if (!ls || !fgets(fuzz_entry, sizeof fuzz_entry, ls)) {
        if (ls)
            pclose(ls);
        return false;
    }
    pclose(ls);
    fuzz_entry[strcspn(fuzz_entry, "\n")] = '\0';
    if (pv_map_file(fuzz_entry, &mf) != 0 || mf.size < 64)
        return false;
    uint64_t who, state;
    memcpy(&who, mf.data + 24, 8);
    memcpy(&state, mf.data + 32, 8);
    fuzz_prefix_len = 64 + pv_cache_padded(who + state);
    if (fuzz_prefix_len > mf.size)
        return false;
    fuzz_prefix = pv_xmalloc(fuzz_prefix_len);
    memcpy(fuzz_prefix, mf.data, fuzz_prefix_len);
    pv_unmap_file(&mf);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz_cache_setup())
        return 0;
    size_t total = fuzz_prefix_len + pv_cache_padded(size);
    unsigned char *entry = pv_xcalloc(total, 1);
    memcpy(entry, fuzz_prefix, fuzz_prefix_len);
    if (size)
        memcpy(entry + fuzz_prefix_len, data, size);
    uint64_t file_size = total;
    memcpy(entry + 16, &file_size, 8);
    uint64_t sum = pv_cache_checksum(entry + 64, total - 64, pv_hash_bytes(entry, 56));
    memcpy(entry + 56, &sum, 8);
    FILE *fp = fopen(fuzz_entry, "wb");
    bool written = fp && fwrite(entry, 1, total, fp) == total;
    if (fp)
        fclose(fp);
    free(entry);
    if (!written)
        return 0;
    pv_load_status st;
    pv_file *f = fuzz_cache_load(&st);
    if (st == PV_LOAD_OK)
        fuzz_walk_sample(f, 16);
    pv_file_free(f);
    return 0;
}
