/*
 * cache.h - the index cache (docs/cache.md): files in
 * $XDG_CACHE_HOME/profview/ that hold an index built from an input, keyed
 * by the input's identity (canonical path, size, modification and change
 * times, inode, device), by the options that change the index and by the
 * index version.  A file is trusted only when its header, its whole key and
 * a checksum over everything it holds match; anything else is ignored (and
 * rebuilt by the caller).  Written atomically (a temporary file in the cache
 * directory renamed into place), bounded in size (the least recently used
 * files are dropped first).
 *
 * This part knows nothing of what is cached: a format serialises its index
 * into segments (src/formats/winidea/cache.c).
 */
#ifndef PROFVIEW_CACHE_H
#define PROFVIEW_CACHE_H

#include "profview/core.h"

#define PV_CACHE_DEFAULT_MAX_BYTES (UINT64_C(2) << 30) /* 2 GiB */
#define PV_CACHE_ALIGN 64 /* every segment of a cache file starts at a multiple */

/* What identifies an index: `who` (what was indexed and how: canonical
 * paths, options) names the cache file; `state` (size, times, inode of each
 * input) must match too, so that a changed input replaces its old entry. */
typedef struct pv_cache_key {
    pv_buf who;
    pv_buf state;
    bool usable; /* false when an input is not a regular file (a pipe, a copy) */
} pv_cache_key;

void pv_cache_key_init(pv_cache_key *k);
void pv_cache_key_free(pv_cache_key *k);
/* Adds an input file: its canonical path to `who`, its identity to
 * `state`.  A file that cannot be stat'ed or is not regular makes the key
 * unusable. */
void pv_cache_key_add_file(pv_cache_key *k, const char *path);
void pv_cache_key_add_u64(pv_cache_key *k, uint64_t v);
void pv_cache_key_add_str(pv_cache_key *k, const char *s); /* NULL allowed */

/* Where the cache lives, or NULL when caching is off for this run:
 * PROFVIEW_CACHE=off, or CI=true without an explicit XDG_CACHE_HOME (a CI
 * run never writes to a user's cache), or no XDG_CACHE_HOME and no HOME.
 * Owned by the caller. */
char *pv_cache_dir(void);

/* A cache file opened for reading: the payload (after the header and the
 * key) is mapped read-only, so that arrays can point into it. */
typedef struct pv_cache_entry {
    unsigned char *map;
    size_t map_size;
    const unsigned char *payload;
    size_t payload_size;
    char *path;
} pv_cache_entry;

/* Opens the entry of `k` for `kind` (a file-name prefix, e.g. "winidea")
 * at format `version`; true only when the file exists and its header,
 * version, key and checksum are all right (a bad one is reported by
 * pv_cache_debug and left to be replaced).  Marks the file used (its
 * modification time) for the size bound. */
bool pv_cache_open(const pv_cache_key *k, const char *kind, uint32_t version, pv_cache_entry *e);
void pv_cache_close(pv_cache_entry *e);

/* One piece of a payload to write; each is padded to PV_CACHE_ALIGN. */
typedef struct pv_cache_segment {
    const void *data;
    size_t len;
} pv_cache_segment;

/* The padded size of a segment (offsets within a payload). */
static inline size_t pv_cache_padded(size_t len)
{
    return (len + PV_CACHE_ALIGN - 1) / PV_CACHE_ALIGN * PV_CACHE_ALIGN;
}

/* Writes the entry of `k`: a temporary file in the cache directory renamed
 * into place, then files dropped, least recently used first, until the
 * directory holds at most `max_bytes` (0: PV_CACHE_DEFAULT_MAX_BYTES).  An
 * entry larger than the bound is not written.  Failures are silent (the
 * cache is an optimisation) except through pv_cache_debug. */
bool pv_cache_write(const pv_cache_key *k, const char *kind, uint32_t version,
                    const pv_cache_segment *segs, size_t seg_count, uint64_t max_bytes);

/* PROFVIEW_CACHE_DEBUG=1: one line per cache decision on stderr
 * ("profview: cache: hit PATH", "miss", "ignored PATH: reason", ...). */
void pv_cache_debug(const char *fmt, ...) PV_PRINTF(1, 2);
/* Once per process, after the cache directory was refused (a symbolic
 * link, another user's, writable by others: docs/cache.md "Trust"): the
 * message to show, in out; false otherwise. */
bool pv_cache_take_refusal(char *out, size_t size);

/* ---- private directories: the cache's, and the viewer's sessions
 * (docs/tui.md "Sessions") follow the same rules (docs/cache.md "Trust"). */

/* Opens `dir` (O_DIRECTORY|O_NOFOLLOW) when it is a directory of the
 * user's own that no one else can write; -1 otherwise, with the reason in
 * `why` ("is a symbolic link", "belongs to another user (uid 7)", "is
 * writable by others (mode 0777)"; empty when it is just missing). */
int pv_private_dir_open(const char *dir, char *why, size_t why_size);
/* mkdir -p with mode 0700; true when it exists afterwards. */
bool pv_private_mkdir(const char *dir);
/* Creates a temporary file "BASE.XXXXXX" in dirfd with
 * O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600; its name in tmp; -1 on failure. */
int pv_private_temp(int dirfd, const char *base, pv_buf *tmp);

/* A 64-bit hash over whole 32-byte blocks (len a multiple of 32), four
 * independent lanes so that it runs at memory speed. */
uint64_t pv_cache_hash(const void *data, size_t len, uint64_t seed);
/* The checksum of a cache file's bytes after its header: pv_cache_hash of
 * each 16 MiB chunk, then of those hashes (docs/cache.md "The file"), the
 * chunks on two threads. Exposed for the tests that forge an entry. */
uint64_t pv_cache_checksum(const void *data, size_t len, uint64_t seed);

#endif
