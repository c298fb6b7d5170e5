/* file.c - read-only whole-file access, mapped when the system allows; and
 * stream inputs (pipes, FIFOs, stdin) read once and kept (docs/input.md). */
#include "profview/core.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd to its end into a malloc'd buffer, reporting the bytes read to
 * `progress` (may be NULL) every MiB.  Returns 0 or errno (ECANCELED). */
static int pv_read_fd(int fd, unsigned char **out, size_t *out_len, const pv_progress *progress)
{
    size_t cap = 0, len = 0, reported = 0;
    unsigned char *buf = NULL;
    for (;;) {
        if (progress && len - reported >= (1u << 20)) {
            reported = len;
            if (!pv_progress_step(progress, "reading input", len, 0)) {
                free(buf);
                return ECANCELED;
            }
        }
        buf = pv_xgrow(buf, &cap, len + 65536, 1);
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            return e;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    *out = buf;
    *out_len = len;
    return 0;
}

/* ---- the copies of stream inputs */

typedef struct pv_stream_copy {
    char *path;
    dev_t dev;
    ino_t ino;
    unsigned char *data;
    size_t size;
} pv_stream_copy;

static pthread_mutex_t pv_streams_lock = PTHREAD_MUTEX_INITIALIZER;
static pv_stream_copy *pv_streams;
static size_t pv_stream_count, pv_stream_cap;

/* The copy of `path`, by its name or, for a pipe or FIFO known under
 * another name (/dev/fd/N, /proc/self/fd/N), by its device and inode.
 * Call with the lock held. */
static const pv_stream_copy *pv_stream_find(const char *path)
{
    for (size_t i = 0; i < pv_stream_count; i++)
        if (strcmp(pv_streams[i].path, path) == 0)
            return &pv_streams[i];
    struct stat st;
    if (pv_stream_count == 0 || stat(path, &st) != 0 || S_ISREG(st.st_mode) ||
        S_ISDIR(st.st_mode))
        return NULL;
    for (size_t i = 0; i < pv_stream_count; i++)
        if (pv_streams[i].dev == st.st_dev && pv_streams[i].ino == st.st_ino)
            return &pv_streams[i];
    return NULL;
}

static bool pv_stream_lookup(const char *path, pv_mapped_file *mf)
{
    pthread_mutex_lock(&pv_streams_lock);
    const pv_stream_copy *c = pv_stream_find(path);
    if (c) {
        mf->data = c->data;
        mf->size = c->size;
        mf->mapped = false;
        mf->borrowed = true;
    }
    pthread_mutex_unlock(&pv_streams_lock);
    return c != NULL;
}

const char *pv_input_path(const char *name)
{
    return strcmp(name, "-") == 0 ? "/dev/stdin" : name;
}

int pv_input_capture(const char *path, pv_mapped_file *mf, const pv_progress *progress)
{
    memset(mf, 0, sizeof *mf);
    if (pv_stream_lookup(path, mf))
        return 0;
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
        return ENOTSUP;
    /* Opening a FIFO waits for its writer; reading takes the whole stream.
     * Neither holds the lock. */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    unsigned char *data = NULL;
    size_t size = 0;
    int err = pv_read_fd(fd, &data, &size, progress);
    close(fd);
    if (err)
        return err;
    pthread_mutex_lock(&pv_streams_lock);
    pv_streams = pv_xgrow(pv_streams, &pv_stream_cap, pv_stream_count + 1, sizeof *pv_streams);
    pv_streams[pv_stream_count++] =
        (pv_stream_copy){pv_xstrdup(path), st.st_dev, st.st_ino, data, size};
    pthread_mutex_unlock(&pv_streams_lock);
    mf->data = data;
    mf->size = size;
    mf->borrowed = true;
    return 0;
}

bool pv_input_is_stream(const char *path)
{
    pv_mapped_file mf;
    return pv_stream_lookup(path, &mf);
}

int pv_input_temp_copy(const char *path, char **tmp)
{
    *tmp = NULL;
    pv_mapped_file mf;
    if (!pv_stream_lookup(path, &mf))
        return 0;
    const char *dir = getenv("TMPDIR");
    char *name = pv_xasprintf("%s/profview-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(name); /* mode 0600: private */
    if (fd < 0) {
        int e = errno;
        free(name);
        return e;
    }
    size_t done = 0;
    while (done < mf.size) {
        ssize_t n = write(fd, mf.data + done, mf.size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            pv_input_remove_temp(name);
            return e;
        }
        done += (size_t)n;
    }
    if (close(fd) != 0) {
        int e = errno;
        pv_input_remove_temp(name);
        return e;
    }
    *tmp = name;
    return 0;
}

void pv_input_remove_temp(char *tmp)
{
    if (tmp)
        unlink(tmp);
    free(tmp);
}

/* ---- inputs that change under us (docs/input.md "Files that change")
 *
 * A mapped input is read for as long as it is open.  Another program may
 * truncate it (a read past its new end is SIGBUS) or overwrite it in place
 * (re-exporting from the vendor tool: the pages not read yet then hold the
 * new recording under the old index).  Every mapping is registered here;
 * SIGBUS on one of them, or its size, mtime or inode no longer what they
 * were (pv_inputs_changed, asked at the points the CLI and the viewer
 * already visit), replaces the whole mapping with zero pages (so that
 * nothing of the new data is read under the old index, and nothing
 * faults) and marks the file changed: the CLI stops with a message, the
 * viewer says so. */

#define PV_GUARDS 64

typedef struct pv_guard {
    _Atomic(const unsigned char *) addr; /* NULL: a free slot */
    size_t size;
    char path[512];
    dev_t dev;
    ino_t ino;
    off_t st_size;
    struct timespec mtime;
    volatile sig_atomic_t changed;  /* SIGBUS, or the stat check */
    volatile sig_atomic_t reported; /* pv_inputs_changed said so */
} pv_guard;

static pv_guard pv_guards[PV_GUARDS];
static pthread_once_t pv_guard_once = PTHREAD_ONCE_INIT;
static struct sigaction pv_guard_old_bus;

/* Zero pages in place of the mapping (async-signal-safe: a system call). */
static void pv_guard_blank(pv_guard *g)
{
    const unsigned char *addr = atomic_load(&g->addr);
    if (addr)
        (void)mmap((void *)addr, g->size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
                   0);
    g->changed = 1;
}

static void pv_guard_bus(int sig, siginfo_t *si, void *ctx)
{
    const unsigned char *at = si ? (const unsigned char *)si->si_addr : NULL;
    for (size_t i = 0; at && i < PV_GUARDS; i++) {
        const unsigned char *addr = atomic_load(&pv_guards[i].addr);
        if (addr && at >= addr && at < addr + pv_guards[i].size) {
            pv_guard_blank(&pv_guards[i]); /* the read is retried, and reads zeros */
            return;
        }
    }
    /* not one of our inputs: a crash (the viewer's terminal first) */
    pv_fatal_restore();
    if (pv_guard_old_bus.sa_flags & SA_SIGINFO && pv_guard_old_bus.sa_sigaction) {
        pv_guard_old_bus.sa_sigaction(sig, si, ctx);
        return;
    }
    signal(SIGBUS, SIG_DFL);
    raise(SIGBUS);
}

static void pv_guard_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = pv_guard_bus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &pv_guard_old_bus);
}

static void pv_guard_add(const unsigned char *addr, size_t size, const char *path,
                         const struct stat *st)
{
    pthread_once(&pv_guard_once, pv_guard_install);
    pthread_mutex_lock(&pv_streams_lock);
    for (size_t i = 0; i < PV_GUARDS; i++) {
        pv_guard *g = &pv_guards[i];
        if (atomic_load(&g->addr))
            continue;
        g->size = size;
        snprintf(g->path, sizeof g->path, "%s", path);
        g->dev = st->st_dev;
        g->ino = st->st_ino;
        g->st_size = st->st_size;
        g->mtime = st->st_mtim;
        g->changed = g->reported = 0;
        atomic_store(&g->addr, addr);
        break;
    }
    pthread_mutex_unlock(&pv_streams_lock);
}

/* A file that changed and was closed before anyone asked: still said by
 * pv_inputs_changed (the CLI asks once more at its end). */
static char pv_changed_closed[8][512];
static size_t pv_changed_closed_count;

static bool pv_guard_stale(const pv_guard *g)
{
    struct stat st;
    return g->changed || stat(g->path, &st) != 0 || st.st_dev != g->dev ||
           st.st_ino != g->ino || st.st_size != g->st_size ||
           st.st_mtim.tv_sec != g->mtime.tv_sec || st.st_mtim.tv_nsec != g->mtime.tv_nsec;
}

static void pv_guard_remove(const unsigned char *addr)
{
    pthread_mutex_lock(&pv_streams_lock);
    for (size_t i = 0; i < PV_GUARDS; i++) {
        pv_guard *g = &pv_guards[i];
        if (atomic_load(&g->addr) != addr)
            continue;
        if (!g->reported && pv_guard_stale(g) &&
            pv_changed_closed_count < PV_ARRAY_LEN(pv_changed_closed))
            memcpy(pv_changed_closed[pv_changed_closed_count++], g->path, sizeof g->path);
        atomic_store(&g->addr, NULL);
    }
    pthread_mutex_unlock(&pv_streams_lock);
}

bool pv_inputs_changed(char *path, size_t size)
{
    bool found = false;
    pthread_mutex_lock(&pv_streams_lock);
    for (size_t i = 0; i < PV_GUARDS && !found; i++) {
        pv_guard *g = &pv_guards[i];
        if (!atomic_load(&g->addr) || g->reported)
            continue;
        if (!g->changed && pv_guard_stale(g))
            pv_guard_blank(g);
        if (g->changed) {
            g->reported = 1;
            snprintf(path, size, "%s", g->path);
            found = true;
        }
    }
    if (!found && pv_changed_closed_count) {
        snprintf(path, size, "%s", pv_changed_closed[--pv_changed_closed_count]);
        found = true;
    }
    pthread_mutex_unlock(&pv_streams_lock);
    return found;
}

bool pv_input_changed(const char *path)
{
    size_t len = strlen(path);
    bool changed = false;
    pthread_mutex_lock(&pv_streams_lock);
    for (size_t i = 0; i < PV_GUARDS && !changed; i++) {
        const pv_guard *g = &pv_guards[i];
        changed = atomic_load(&g->addr) && g->changed && strncmp(g->path, path, len) == 0 &&
                  (g->path[len] == '\0' || g->path[len] == '.');
    }
    pthread_mutex_unlock(&pv_streams_lock);
    return changed;
}

/* ---- whole files */

int pv_map_file(const char *path, pv_mapped_file *mf)
{
    memset(mf, 0, sizeof *mf);
    if (pv_stream_lookup(path, mf))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return e;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return EISDIR;
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            close(fd);
            pv_guard_add(p, (size_t)st.st_size, path, &st);
            mf->data = p;
            mf->size = (size_t)st.st_size;
            mf->mapped = true;
            return 0;
        }
    }
    /* Not mappable (a pipe, an empty or special file): read it. */
    unsigned char *buf = NULL;
    size_t len = 0;
    int err = pv_read_fd(fd, &buf, &len, NULL);
    close(fd);
    if (err)
        return err;
    mf->data = buf;
    mf->size = len;
    return 0;
}

void pv_unmap_file(pv_mapped_file *mf)
{
    if (mf->mapped) {
        pv_guard_remove(mf->data);
        munmap((void *)mf->data, mf->size);
    }
    else if (!mf->borrowed)
        free((void *)mf->data);
    memset(mf, 0, sizeof *mf);
}
