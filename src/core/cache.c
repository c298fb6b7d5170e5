/*
 * cache.c - the index cache's files (docs/cache.md): key, directory,
 * checksum, atomic write, size bound, and opening an entry for reading.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "profview/cache.h"

#define PV_CACHE_MAGIC "PVCACHE1"
#define PV_CACHE_HEADER 64
/* Byte order check (caches are per machine) and the file's layout: 2 since
 * the checksum is of chunks (pv_cache_checksum; 1 hashed the whole file in
 * one run). */
#define PV_CACHE_LAYOUT 0x01020305u
#define PV_CACHE_SUFFIX ".pvc"

/* Header (64 bytes): magic[8], u32 version, u32 layout, u64 file size,
 * u64 `who` length, u64 `state` length, 16 reserved bytes, u64 checksum
 * at 56.  The checksum covers bytes [64, end) seeded with a hash of
 * bytes [0, 56). */
#define PV_CACHE_CHECKSUM_AT 56

void pv_cache_debug(const char *fmt, ...)
{
    const char *on = getenv("PROFVIEW_CACHE_DEBUG");
    if (!on || !*on || strcmp(on, "0") == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("profview: cache: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- key */

void pv_cache_key_init(pv_cache_key *k)
{
    pv_buf_init(&k->who);
    pv_buf_init(&k->state);
    k->usable = true;
}

void pv_cache_key_free(pv_cache_key *k)
{
    pv_buf_free(&k->who);
    pv_buf_free(&k->state);
}

static void pv_cache_put_u64(pv_buf *b, uint64_t v)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(v >> (8 * i));
    pv_buf_append(b, (const char *)bytes, 8);
}

void pv_cache_key_add_u64(pv_cache_key *k, uint64_t v)
{
    pv_cache_put_u64(&k->who, v);
}

void pv_cache_key_add_str(pv_cache_key *k, const char *s)
{
    /* length-prefixed, so that ("ab", "c") and ("a", "bc") differ */
    pv_cache_put_u64(&k->who, s ? strlen(s) : UINT64_MAX);
    if (s)
        pv_buf_append(&k->who, s, strlen(s));
}

void pv_cache_key_add_file(pv_cache_key *k, const char *path)
{
    struct stat st;
    char *real = realpath(path, NULL);
    if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        k->usable = false;
        free(real);
        return;
    }
    pv_cache_key_add_str(k, real);
    free(real);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_size);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_mtim.tv_sec);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_mtim.tv_nsec);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_ctim.tv_sec);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_ctim.tv_nsec);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_ino);
    pv_cache_put_u64(&k->state, (uint64_t)st.st_dev);
}

/* ---- directory */

char *pv_cache_dir(void)
{
    const char *mode = getenv("PROFVIEW_CACHE");
    if (mode && strcmp(mode, "off") == 0)
        return NULL;
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *ci = getenv("CI");
    pv_buf b;
    pv_buf_init(&b);
    if (xdg && *xdg)
        pv_buf_printf(&b, "%s/profview", xdg);
    else if (ci && strcmp(ci, "true") == 0)
        return NULL; /* docs/cache.md: CI never writes to the user's cache */
    else if (getenv("HOME") && *getenv("HOME"))
        pv_buf_printf(&b, "%s/.cache/profview", getenv("HOME"));
    else
        return NULL;
    pv_buf_cstr(&b);
    return b.data;
}

/* ---- trust: the directory and its files must be the user's own
 * (docs/cache.md "Trust"): an entry another user could plant is an index
 * the loader would map, so a directory that is a symbolic link, belongs to
 * someone else or is writable by others is not used at all (one message,
 * pv_cache_take_refusal), and a file that is not the user's is ignored. */

static pthread_mutex_t pv_cache_refusal_lock = PTHREAD_MUTEX_INITIALIZER;
static char pv_cache_refusal[600];
static bool pv_cache_refusal_said;

static void pv_cache_refuse(const char *dir, const char *why)
{
    pthread_mutex_lock(&pv_cache_refusal_lock);
    if (!pv_cache_refusal[0])
        snprintf(pv_cache_refusal, sizeof pv_cache_refusal,
                 "the index cache is not used: %s %s (it must be a directory of your own that "
                 "no one else can write; docs/cache.md)",
                 dir, why);
    pthread_mutex_unlock(&pv_cache_refusal_lock);
    pv_cache_debug("not used: %s %s", dir, why);
}

bool pv_cache_take_refusal(char *out, size_t size)
{
    pthread_mutex_lock(&pv_cache_refusal_lock);
    bool take = pv_cache_refusal[0] && !pv_cache_refusal_said;
    if (take) {
        snprintf(out, size, "%s", pv_cache_refusal);
        pv_cache_refusal_said = true;
    }
    pthread_mutex_unlock(&pv_cache_refusal_lock);
    return take;
}

/* ---- private directories (docs/cache.md "Trust"; the viewer's sessions,
 * docs/tui.md "Sessions", keep theirs the same way) */

int pv_private_dir_open(const char *dir, char *why, size_t why_size)
{
    why[0] = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        if (errno == ELOOP || errno == ENOTDIR) {
            struct stat lst;
            snprintf(why, why_size, "%s", lstat(dir, &lst) == 0 && S_ISLNK(lst.st_mode)
                                              ? "is a symbolic link"
                                              : "is not a directory");
        }
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode))
        snprintf(why, why_size, "is not a directory");
    else if (st.st_uid != geteuid())
        snprintf(why, why_size, "belongs to another user (uid %u)", (unsigned)st.st_uid);
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(why, why_size, "is writable by others (mode %04o)", (unsigned)(st.st_mode & 07777));
    if (why[0]) {
        close(fd);
        return -1;
    }
    return fd;
}

bool pv_private_mkdir(const char *dir)
{
    char *p = pv_xstrdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            free(p);
            return false;
        }
        *s = '/';
    }
    bool ok = mkdir(p, 0700) == 0 || errno == EEXIST;
    free(p);
    return ok;
}

int pv_private_temp(int dirfd, const char *base, pv_buf *tmp)
{
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        pv_buf_clear(tmp);
        pv_buf_printf(tmp, "%s.%06lx", base,
                      ((unsigned long)now.tv_nsec ^ (unsigned long)getpid() << 12 ^
                       (unsigned long)attempt * 7919u) & 0xFFFFFFu);
        fd = openat(dirfd, pv_buf_cstr(tmp), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    return fd;
}

/* The cache directory opened once (every later access is relative to it,
 * so a rename of it or of a parent changes nothing) and checked; -1 when
 * it is missing (no message) or not to be trusted (pv_cache_refuse). */
static int pv_cache_dir_open(const char *dir)
{
    char why[64];
    int fd = pv_private_dir_open(dir, why, sizeof why);
    if (fd < 0 && why[0])
        pv_cache_refuse(dir, why);
    return fd;
}

/* ---- checksum */

#define H_P1 UINT64_C(0x9E3779B185EBCA87)
#define H_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define H_P3 UINT64_C(0x165667B19E3779F9)
#define H_P4 UINT64_C(0x85EBCA77C2B2AE63)

typedef struct pv_hash_state {
    uint64_t v[4];
    uint64_t len;
} pv_hash_state;

static inline uint64_t h_rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t h_read64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8); /* native order: the checksum is of this machine's file */
    return v;
}

static void pv_hash_begin(pv_hash_state *h, uint64_t seed)
{
    h->v[0] = seed + H_P1 + H_P2;
    h->v[1] = seed + H_P2;
    h->v[2] = seed;
    h->v[3] = seed - H_P1;
    h->len = 0;
}

/* len: a multiple of 32 */
static void pv_hash_blocks(pv_hash_state *h, const unsigned char *p, size_t len)
{
    uint64_t v0 = h->v[0], v1 = h->v[1], v2 = h->v[2], v3 = h->v[3];
    for (size_t i = 0; i + 32 <= len; i += 32) {
        v0 = h_rotl(v0 + h_read64(p + i) * H_P2, 31) * H_P1;
        v1 = h_rotl(v1 + h_read64(p + i + 8) * H_P2, 31) * H_P1;
        v2 = h_rotl(v2 + h_read64(p + i + 16) * H_P2, 31) * H_P1;
        v3 = h_rotl(v3 + h_read64(p + i + 24) * H_P2, 31) * H_P1;
    }
    h->v[0] = v0;
    h->v[1] = v1;
    h->v[2] = v2;
    h->v[3] = v3;
    h->len += len;
}

static uint64_t pv_hash_end(const pv_hash_state *h)
{
    uint64_t x = h_rotl(h->v[0], 1) + h_rotl(h->v[1], 7) + h_rotl(h->v[2], 12) +
                 h_rotl(h->v[3], 18);
    for (int i = 0; i < 4; i++)
        x = (x ^ (h_rotl(h->v[i] * H_P2, 31) * H_P1)) * H_P1 + H_P4;
    x += h->len;
    x ^= x >> 33;
    x *= H_P2;
    x ^= x >> 29;
    x *= H_P3;
    x ^= x >> 32;
    return x;
}

uint64_t pv_cache_hash(const void *data, size_t len, uint64_t seed)
{
    pv_hash_state h;
    pv_hash_begin(&h, seed);
    pv_hash_blocks(&h, data, len);
    return pv_hash_end(&h);
}

/* The checksum of a cache file's bytes after its header (docs/cache.md
 * "The file"): the hash of each chunk of PV_CACHE_CHUNK bytes (the last
 * one shorter; one chunk when there are none), seeded with the seed plus
 * the chunk's number, then the hash of those hashes. The chunks of a big
 * file are hashed on two threads when it is read (a hit on a 50 M-event
 * index: 30 ms on one thread was most of its time); the writer hashes
 * them as it writes (pv_sum_*). */
#define PV_CACHE_CHUNK ((size_t)1 << 24)

typedef struct pv_sum_state {
    pv_hash_state chunk; /* the chunk being hashed */
    uint64_t seed;
    size_t in_chunk;     /* its bytes so far */
    uint64_t *sums;      /* the hashes of the chunks before it */
    size_t count, cap;
} pv_sum_state;

static void pv_sum_begin(pv_sum_state *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->seed = seed;
    pv_hash_begin(&s->chunk, seed);
}

static void pv_sum_push(pv_sum_state *s, uint64_t sum)
{
    s->sums = pv_xgrow(s->sums, &s->cap, s->count + 1, sizeof *s->sums);
    s->sums[s->count++] = sum;
}

/* len: a multiple of 32 */
static void pv_sum_add(pv_sum_state *s, const unsigned char *p, size_t len)
{
    while (len) {
        size_t n = PV_CACHE_CHUNK - s->in_chunk < len ? PV_CACHE_CHUNK - s->in_chunk : len;
        pv_hash_blocks(&s->chunk, p, n);
        s->in_chunk += n;
        p += n;
        len -= n;
        if (s->in_chunk == PV_CACHE_CHUNK) {
            pv_sum_push(s, pv_hash_end(&s->chunk));
            pv_hash_begin(&s->chunk, s->seed + s->count);
            s->in_chunk = 0;
        }
    }
}

/* The hash of the chunks' hashes (padded with zeros to whole blocks, the
 * length their own). */
static uint64_t pv_sum_of(const uint64_t *sums, size_t count, uint64_t seed)
{
    size_t padded = (count + 3) / 4 * 4;
    uint64_t *b = pv_xcalloc(padded, sizeof *b);
    memcpy(b, sums, count * sizeof *b);
    pv_hash_state h;
    pv_hash_begin(&h, seed);
    pv_hash_blocks(&h, (const unsigned char *)b, padded * sizeof *b);
    h.len = count * sizeof *b;
    free(b);
    return pv_hash_end(&h);
}

static uint64_t pv_sum_end(pv_sum_state *s)
{
    if (s->in_chunk || s->count == 0)
        pv_sum_push(s, pv_hash_end(&s->chunk));
    uint64_t sum = pv_sum_of(s->sums, s->count, s->seed);
    free(s->sums);
    s->sums = NULL;
    return sum;
}

/* Chunks first, first + step, ... of a checksum (one thread's share). */
typedef struct pv_sum_part {
    const unsigned char *data;
    size_t len, first, step, count;
    uint64_t seed, *sums;
} pv_sum_part;

static void *pv_sum_part_run(void *arg)
{
    pv_sum_part *p = arg;
    for (size_t i = p->first; i < p->count; i += p->step) {
        size_t at = i * PV_CACHE_CHUNK;
        size_t n = p->len - at < PV_CACHE_CHUNK ? p->len - at : PV_CACHE_CHUNK;
        pv_hash_state h;
        pv_hash_begin(&h, p->seed + i);
        pv_hash_blocks(&h, p->data + at, n);
        p->sums[i] = pv_hash_end(&h);
    }
    return NULL;
}

uint64_t pv_cache_checksum(const void *data, size_t len, uint64_t seed)
{
    size_t count = len ? (len + PV_CACHE_CHUNK - 1) / PV_CACHE_CHUNK : 1;
    uint64_t *sums = pv_xcalloc(count, sizeof *sums);
    pv_sum_part mine = {data, len, 0, 1, count, seed, sums}, other = mine;
    pthread_t t;
    bool two = count >= 2;
    if (two) {
        mine.step = other.step = 2;
        other.first = 1;
        two = pthread_create(&t, NULL, pv_sum_part_run, &other) == 0;
        if (!two)
            mine.step = 1; /* no thread: all of it here */
    }
    pv_sum_part_run(&mine);
    if (two)
        pthread_join(t, NULL);
    uint64_t sum = pv_sum_of(sums, count, seed);
    free(sums);
    return sum;
}

static uint64_t pv_cache_header_seed(const unsigned char *header)
{
    return pv_hash_bytes(header, PV_CACHE_CHECKSUM_AT);
}

/* ---- file names */

static char *pv_cache_path(const char *dir, const pv_cache_key *k, const char *kind)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_printf(&b, "%s/%s-%016llx" PV_CACHE_SUFFIX, dir, kind,
                  (unsigned long long)pv_hash_bytes(k->who.data ? k->who.data : "", k->who.len));
    pv_buf_cstr(&b);
    return b.data;
}

/* The name of a cache file in its directory (after the last '/'). */
static const char *pv_cache_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void pv_cache_header(unsigned char *h, uint32_t version, uint64_t file_size,
                            const pv_cache_key *k)
{
    memset(h, 0, PV_CACHE_HEADER);
    memcpy(h, PV_CACHE_MAGIC, 8);
    memcpy(h + 8, &version, 4);
    uint32_t layout = PV_CACHE_LAYOUT;
    memcpy(h + 12, &layout, 4);
    memcpy(h + 16, &file_size, 8);
    uint64_t who = k->who.len, state = k->state.len;
    memcpy(h + 24, &who, 8);
    memcpy(h + 32, &state, 8);
}

/* ---- reading */

bool pv_cache_open(const pv_cache_key *k, const char *kind, uint32_t version, pv_cache_entry *e)
{
    memset(e, 0, sizeof *e);
    if (!k->usable)
        return false;
    char *dir = pv_cache_dir();
    if (!dir)
        return false;
    char *path = pv_cache_path(dir, k, kind);
    int dirfd = pv_cache_dir_open(dir);
    free(dir);
    int fd = dirfd < 0 ? -1
                       : openat(dirfd, pv_cache_base(path), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        pv_cache_debug("miss %s", path);
        if (dirfd >= 0)
            close(dirfd);
        free(path);
        return false;
    }
    struct stat st;
    const char *why = NULL;
    unsigned char *map = NULL;
    size_t size = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        why = "not a regular file";
    else if (st.st_uid != geteuid())
        why = "belongs to another user";
    else if ((uint64_t)st.st_size < PV_CACHE_HEADER || st.st_size % PV_CACHE_ALIGN != 0)
        why = "truncated";
    else {
        size = (size_t)st.st_size;
        /* read-only: index arrays point into the mapping (a complete index
         * is never written to); populated at once, as the checksum reads
         * every page anyway (a writable mapping would copy every page) */
        map = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (map == MAP_FAILED) {
            map = NULL;
            why = "cannot be mapped";
        }
    }
    close(fd);
    size_t key_len = k->who.len + k->state.len;
    if (!why) {
        uint32_t v, layout;
        uint64_t file_size, who, state;
        memcpy(&v, map + 8, 4);
        memcpy(&layout, map + 12, 4);
        memcpy(&file_size, map + 16, 8);
        memcpy(&who, map + 24, 8);
        memcpy(&state, map + 32, 8);
        if (memcmp(map, PV_CACHE_MAGIC, 8) != 0)
            why = "not a profview cache file";
        else if (layout != PV_CACHE_LAYOUT)
            why = "another layout (an older profview's, or another machine's)";
        else if (v != version)
            why = "written by another index version";
        else if (file_size != size)
            why = "truncated";
        else if (who != k->who.len || state != k->state.len ||
                 PV_CACHE_HEADER + pv_cache_padded(key_len) > size ||
                 memcmp(map + PV_CACHE_HEADER, k->who.data, k->who.len) != 0)
            why = "another input or options";
        else if (memcmp(map + PV_CACHE_HEADER + k->who.len, k->state.data, k->state.len) != 0)
            why = "the input changed";
        else {
            uint64_t sum;
            memcpy(&sum, map + PV_CACHE_CHECKSUM_AT, 8);
            if (pv_cache_checksum(map + PV_CACHE_HEADER, size - PV_CACHE_HEADER,
                                  pv_cache_header_seed(map)) != sum)
                why = "checksum mismatch (corrupt)";
        }
    }
    if (why) {
        pv_cache_debug("ignored %s: %s", path, why);
        if (map)
            munmap(map, size);
        close(dirfd);
        free(path);
        return false;
    }
    /* used now: the size bound drops the oldest */
    utimensat(dirfd, pv_cache_base(path), NULL, AT_SYMLINK_NOFOLLOW);
    close(dirfd);
    e->map = map;
    e->map_size = size;
    e->payload = map + PV_CACHE_HEADER + pv_cache_padded(key_len);
    e->payload_size = size - PV_CACHE_HEADER - pv_cache_padded(key_len);
    e->path = path;
    pv_cache_debug("hit %s", path);
    return true;
}

void pv_cache_close(pv_cache_entry *e)
{
    if (e->map)
        munmap(e->map, e->map_size);
    free(e->path);
    memset(e, 0, sizeof *e);
}

/* ---- writing */

static bool pv_cache_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

/* Writes `data` padded with zeros to PV_CACHE_ALIGN, hashing what it writes. */
static bool pv_cache_put(int fd, pv_sum_state *h, const void *data, size_t len)
{
    static const unsigned char zeros[PV_CACHE_ALIGN];
    size_t whole = len / PV_CACHE_ALIGN * PV_CACHE_ALIGN;
    unsigned char tail[PV_CACHE_ALIGN];
    if (whole && !pv_cache_write_all(fd, data, whole))
        return false;
    if (h && whole)
        pv_sum_add(h, data, whole);
    if (len > whole) {
        memcpy(tail, (const unsigned char *)data + whole, len - whole);
        memset(tail + (len - whole), 0, PV_CACHE_ALIGN - (len - whole));
        if (!pv_cache_write_all(fd, tail, PV_CACHE_ALIGN))
            return false;
        if (h)
            pv_sum_add(h, tail, PV_CACHE_ALIGN);
    }
    (void)zeros;
    return true;
}

typedef struct pv_cache_file {
    char *path;
    uint64_t size;
    struct timespec used;
} pv_cache_file;

static int pv_cache_file_cmp(const void *a, const void *b)
{
    const pv_cache_file *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec)
        return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->path, y->path);
}

/* Drops cache files, least recently used first, until the directory holds
 * at most max_bytes besides `keep` (the size of the file just written). */
static void pv_cache_bound(int dirfd, const char *dir, const char *keep, uint64_t max_bytes)
{
    int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dp) {
        if (fd >= 0)
            close(fd);
        return;
    }
    pv_cache_file *files = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    struct dirent *de;
    size_t slen = strlen(PV_CACHE_SUFFIX);
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name);
        bool temp = strstr(de->d_name, PV_CACHE_SUFFIX ".") != NULL;
        if (!temp && (len <= slen || strcmp(de->d_name + len - slen, PV_CACHE_SUFFIX) != 0))
            continue;
        pv_buf p;
        pv_buf_init(&p);
        pv_buf_printf(&p, "%s/%s", dir, de->d_name);
        struct stat st;
        if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != geteuid()) {
            pv_buf_free(&p);
            continue;
        }
        if (temp) { /* a write that never finished (a crash): gone after a day */
            if (st.st_mtim.tv_sec < time(NULL) - 86400 && unlinkat(dirfd, de->d_name, 0) == 0)
                pv_cache_debug("dropped %s (an unfinished write)", p.data);
            pv_buf_free(&p);
            continue;
        }
        total += (uint64_t)st.st_size;
        if (strcmp(p.data, keep) == 0) {
            pv_buf_free(&p);
            continue;
        }
        files = pv_xgrow(files, &cap, n + 1, sizeof *files);
        files[n].path = p.data;
        files[n].size = (uint64_t)st.st_size;
        files[n].used = st.st_mtim;
        n++;
    }
    closedir(dp);
    if (n)
        qsort(files, n, sizeof *files, pv_cache_file_cmp);
    for (size_t i = 0; i < n && total > max_bytes; i++) {
        if (unlinkat(dirfd, pv_cache_base(files[i].path), 0) == 0) {
            total -= files[i].size;
            pv_cache_debug("dropped %s (the size bound)", files[i].path);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(files[i].path);
    free(files);
}

bool pv_cache_write(const pv_cache_key *k, const char *kind, uint32_t version,
                    const pv_cache_segment *segs, size_t seg_count, uint64_t max_bytes)
{
    if (!k->usable)
        return false;
    if (max_bytes == 0)
        max_bytes = PV_CACHE_DEFAULT_MAX_BYTES;
    size_t key_len = k->who.len + k->state.len;
    uint64_t size = PV_CACHE_HEADER + pv_cache_padded(key_len);
    for (size_t i = 0; i < seg_count; i++)
        size += pv_cache_padded(segs[i].len);
    char *dir = pv_cache_dir();
    if (!dir)
        return false;
    if (size > max_bytes) {
        pv_cache_debug("not written: %llu bytes, over the bound of %llu",
                       (unsigned long long)size, (unsigned long long)max_bytes);
        free(dir);
        return false;
    }
    if (!pv_private_mkdir(dir)) {
        pv_cache_debug("not written: cannot create %s: %s", dir, strerror(errno));
        free(dir);
        return false;
    }
    int dirfd = pv_cache_dir_open(dir);
    if (dirfd < 0) {
        free(dir);
        return false;
    }
    char *path = pv_cache_path(dir, k, kind);
    pv_buf tmp;
    pv_buf_init(&tmp);
    int fd = pv_private_temp(dirfd, pv_cache_base(path), &tmp);
    bool ok = fd >= 0;
    if (ok) {
        unsigned char header[PV_CACHE_HEADER];
        pv_cache_header(header, version, size, k);
        pv_sum_state h;
        pv_sum_begin(&h, pv_cache_header_seed(header));
        unsigned char *keybytes = pv_xmalloc(key_len ? key_len : 1);
        if (k->who.len)
            memcpy(keybytes, k->who.data, k->who.len);
        if (k->state.len)
            memcpy(keybytes + k->who.len, k->state.data, k->state.len);
        ok = pv_cache_put(fd, NULL, header, sizeof header) && pv_cache_put(fd, &h, keybytes, key_len);
        free(keybytes);
        for (size_t i = 0; ok && i < seg_count; i++)
            ok = pv_cache_put(fd, &h, segs[i].data, segs[i].len);
        uint64_t sum = pv_sum_end(&h);
        ok = ok && pwrite(fd, &sum, 8, PV_CACHE_CHECKSUM_AT) == 8;
        ok = close(fd) == 0 && ok;
        /* no fsync: after a crash a short or zeroed file fails its size or
         * checksum check and is rebuilt (docs/cache.md) */
        ok = ok && renameat(dirfd, tmp.data, dirfd, pv_cache_base(path)) == 0;
        if (!ok)
            unlinkat(dirfd, tmp.data, 0);
    }
    if (ok) {
        pv_cache_debug("wrote %s (%llu bytes)", path, (unsigned long long)size);
        pv_cache_bound(dirfd, dir, path, max_bytes);
    } else {
        pv_cache_debug("not written: %s: %s", tmp.data, strerror(errno));
    }
    pv_buf_free(&tmp);
    close(dirfd);
    free(path);
    free(dir);
    return ok;
}
