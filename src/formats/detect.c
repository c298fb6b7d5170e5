/* detect.c - choosing the loader for a file by its content. */
#include "profview/load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PV_LOADER(sym) extern const pv_loader sym;
#include "loaders.def"
#undef PV_LOADER

static const pv_loader *const pv_loader_table[] = {
#define PV_LOADER(sym) &sym,
#include "loaders.def"
#undef PV_LOADER
    NULL,
};

const pv_loader *const *pv_loaders(size_t *count)
{
    *count = PV_ARRAY_LEN(pv_loader_table) - 1;
    return pv_loader_table;
}

const pv_loader *pv_loader_find(const char *name)
{
    for (size_t i = 0; pv_loader_table[i]; i++)
        if (strcmp(pv_loader_table[i]->name, name) == 0)
            return pv_loader_table[i];
    return NULL;
}

pv_export_hook pv_export_format_hook(const pv_file *f)
{
    const pv_loader *l = f && f->format ? pv_loader_find(f->format) : NULL;
    return l ? l->export : NULL;
}

void pv_load_options_init(pv_load_options *o)
{
    memset(o, 0, sizeof *o);
}

pv_file *pv_load_file(const char *name, const pv_load_options *o, pv_load_status *status)
{
    /* `-` is standard input; a stream (pipe, FIFO, /dev/stdin) is read once,
     * whole, and the loaders read that copy (docs/input.md). */
    const char *path = pv_input_path(name);
    pv_file *f = pv_xcalloc(1, sizeof *f);
    f->path = pv_xstrdup(path);
    pv_diag_init(&f->diag);
    *status = PV_LOAD_ERROR;

    const pv_loader *loader = NULL;
    if (o->format) {
        loader = pv_loader_find(o->format);
        if (!loader) {
            pv_error(&f->diag, "%s: unknown format '%s'", path, o->format);
            return f;
        }
    }

    pv_mapped_file stream;
    int err = pv_input_capture(path, &stream, &o->progress);
    bool is_stream = err == 0;
    unsigned char *head = NULL;
    size_t len = 0;
    uint64_t size = 0;
    if (is_stream) {
        len = stream.size < PV_PROBE_BYTES ? stream.size : PV_PROBE_BYTES;
        size = stream.size;
    } else if (err != ENOTSUP) {
        pv_error(&f->diag, "%s: cannot open: %s", path, strerror(err));
        return f;
    } else {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            pv_error(&f->diag, "%s: cannot open: %s", path, strerror(errno));
            return f;
        }
        struct stat st;
        if (fstat(fd, &st) != 0) {
            pv_error(&f->diag, "%s: cannot read: %s", path, strerror(errno));
            close(fd);
            return f;
        }
        if (S_ISDIR(st.st_mode)) {
            pv_error(&f->diag, "%s: cannot read: it is a directory", path);
            close(fd);
            return f;
        }
        head = pv_xmalloc(PV_PROBE_BYTES);
        while (len < PV_PROBE_BYTES) {
            ssize_t n = read(fd, head + len, PV_PROBE_BYTES - len);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            len += (size_t)n;
        }
        close(fd);
        size = (uint64_t)st.st_size;
    }
    const unsigned char *probe_bytes = is_stream ? stream.data : head;

    if (!loader) {
        int best = 0;
        for (size_t i = 0; pv_loader_table[i]; i++) {
            int score = pv_loader_table[i]->probe(probe_bytes, len, size, path);
            if (score > best) {
                best = score;
                loader = pv_loader_table[i];
            }
        }
    }
    free(head);
    if (!loader) {
        if (len == 0)
            pv_error(&f->diag, is_stream ? "%s: the input is empty (nothing came through the pipe)"
                                         : "%s: the file is empty",
                     path);
        else
            pv_error(&f->diag,
                     "%s: byte 0: not a format profview knows (AQTime SQLite or Access database, "
                     "winIDEA Text1 or BIN, MSVC PLIST /T or text report)",
                     path);
        return f;
    }
    f->format = loader->name;
    *status = loader->load(f, o);
    if (*status == PV_LOAD_OK && f->diag.errors > 0 && f->set_count == 0)
        *status = PV_LOAD_ERROR;
    return f;
}
