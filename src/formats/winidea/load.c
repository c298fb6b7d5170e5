/*
 * load.c - the winidea-text1 and winidea-bin loaders: map the file,
 * parse it into a pv_wi_data (text1.c, bin.c), pair a Text1
 * file with its BIN (docs/formats.md §2) and hand the data to pv_wi_build.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/winidea/parse.h"

static int wi_text1_probe(const unsigned char *head, size_t len, uint64_t file_size,
                          const char *path)
{
    (void)file_size;
    (void)path;
    return pv_wi_text1_probe(head, len);
}

static int wi_bin_probe(const unsigned char *head, size_t len, uint64_t file_size,
                        const char *path)
{
    (void)path;
    return pv_wi_bin_probe(head, len, file_size);
}

static pv_wi_data *wi_data_new(void)
{
    pv_wi_data *d = pv_xmalloc(sizeof *d);
    pv_wi_data_init(d);
    return d;
}

static void wi_data_delete(pv_wi_data *d)
{
    pv_wi_data_free(d);
    free(d);
}

/* Reads the Text1 file, then the BIN beside it when the text has no
 * TIMELINE events of its own (docs/formats.md §2: when both have events, the
 * text wins).  A BIN that cannot be read is a warning: the text is usable. */
static pv_load_status wi_text1_load(pv_file *f, const pv_load_options *o)
{
    pv_mapped_file mf;
    int err = pv_map_file(f->path, &mf);
    if (err) {
        pv_error(&f->diag, "%s: cannot read: %s", f->path, strerror(err));
        return PV_LOAD_ERROR;
    }
    pv_wi_data *d = wi_data_new();
    d->text_path = pv_xstrdup(f->path);
    bool ok = pv_wi_parse_text1_progress(f->path, mf.data, mf.size, d, &f->diag, &o->progress);
    pv_unmap_file(&mf);
    if (!ok) {
        wi_data_delete(d);
        return PV_LOAD_ERROR;
    }
    char *bin = pv_wi_bin_find_pair(f->path);
    if (bin) {
        if (d->timeline.count > 0)
            pv_warn(&f->diag,
                    "%s: not read: the TIMELINE section of %s has its own %zu events, and "
                    "the text wins",
                    bin, f->path, d->timeline.count);
        else
            pv_wi_bin_attach_file(d, bin, o->bin_version, &f->diag, PV_SEV_WARNING);
        free(bin);
    }
    return pv_wi_build(f, d, o);
}

/* A BIN opened alone: no areas are known, the views show handles in hex and
 * the type from the top nibble (docs/formats.md §2). */
static pv_load_status wi_bin_load(pv_file *f, const pv_load_options *o)
{
    pv_wi_data *d = wi_data_new();
    if (!pv_wi_bin_attach_file(d, f->path, o->bin_version, &f->diag, PV_SEV_ERROR)) {
        wi_data_delete(d);
        return PV_LOAD_ERROR;
    }
    return pv_wi_build(f, d, o);
}

const pv_loader pv_loader_winidea_text1 = {
    .name = "winidea-text1",
    .description = "winIDEA profiler Text1 export (with its .BIN timeline when present)",
    .probe = wi_text1_probe,
    .load = wi_text1_load,
};

const pv_loader pv_loader_winidea_bin = {
    .name = "winidea-bin",
    .description = "winIDEA profiler BIN timeline (24-byte records, v1.0 or v1.1)",
    .probe = wi_bin_probe,
    .load = wi_bin_load,
};
