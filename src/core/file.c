/* file.c - read-only whole-file access, mapped when the system allows; and
 * stream inputs (pipes, FIFOs, stdin) read once and kept (docs/input.md). */
#include "profview/core.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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
    if (mf->mapped)
        munmap((void *)mf->data, mf->size);
    else if (!mf->borrowed)
        free((void *)mf->data);
    memset(mf, 0, sizeof *mf);
}
