/* file.c - read-only whole-file access, mapped when the system allows. */
#include "profview/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int pv_map_file(const char *path, pv_mapped_file *mf)
{
    mf->data = NULL;
    mf->size = 0;
    mf->mapped = false;
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
    size_t cap = 0, len = 0;
    unsigned char *buf = NULL;
    for (;;) {
        buf = pv_xgrow(buf, &cap, len + 65536, 1);
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            return e;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    mf->data = buf;
    mf->size = len;
    return 0;
}

void pv_unmap_file(pv_mapped_file *mf)
{
    if (mf->mapped)
        munmap((void *)mf->data, mf->size);
    else
        free((void *)mf->data);
    mf->data = NULL;
    mf->size = 0;
    mf->mapped = false;
}
