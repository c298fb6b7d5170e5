/*
 * bin.c - winIDEA BIN timelines (docs/formats.md §2): version detection,
 * attaching the mapped records to a pv_wi_data, and finding the BIN that
 * goes with a Text1 file.
 *
 * The records are never copied or decoded here: the model reads them in
 * place with pv_wi_event_at.  Decreasing times are the model's business
 * (its index pass warns about them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/winidea/parse.h"

static uint32_t bin_word(const unsigned char *data, size_t record)
{
    return pv_wi_le32(data + record * PV_WI_RECORD_SIZE + 4);
}

/* Explains why no version fits: the first record that fits neither reading
 * or, when each record fits one of them, the first that breaks each. */
static void bin_explain_rejection(const unsigned char *data, size_t count, char *why,
                                  size_t why_size)
{
    size_t not_v11 = SIZE_MAX, not_v10 = SIZE_MAX;
    for (size_t i = 0; i < count; i++) {
        uint32_t w = bin_word(data, i);
        bool v11 = pv_wi_word_fits_version(w, 11), v10 = (w & PV_WI_V10_LOW) == 0;
        if (!v11 && !v10) {
            snprintf(why, why_size,
                     "byte offset %zu (record %zu): word 0x%08X fits neither record version "
                     "(v1.0: event type in bits 24-27, bits 0-23 clear; v1.1: bits 12-31 "
                     "clear, event type 0-4); --bin-version 1.0|1.1 forces a reading",
                     i * PV_WI_RECORD_SIZE, i, w);
            return;
        }
        if (!v11 && not_v11 == SIZE_MAX)
            not_v11 = i;
        if (!v10 && not_v10 == SIZE_MAX)
            not_v10 = i;
    }
    snprintf(why, why_size,
             "byte offset %zu (record %zu, word 0x%08X) is not v1.1 and byte offset %zu "
             "(record %zu, word 0x%08X) is not v1.0: the records mix both versions; "
             "--bin-version 1.0|1.1 forces a reading",
             not_v11 * PV_WI_RECORD_SIZE, not_v11, bin_word(data, not_v11),
             not_v10 * PV_WI_RECORD_SIZE, not_v10, bin_word(data, not_v10));
}

int pv_wi_bin_detect_version(const unsigned char *data, size_t size, char *why, size_t why_size)
{
    size_t count = size / PV_WI_RECORD_SIZE;
    if (count == 0) {
        if (why)
            snprintf(why, why_size, "byte 0: %zu bytes, less than one %d-byte record", size,
                     PV_WI_RECORD_SIZE);
        return 0;
    }
    /* One pass, in blocks so that the OR-accumulation stays a tight loop and
     * a v1.0 file stops at its first block. */
    pv_wi_version_bits bits = {0, 0};
    for (size_t start = 0; start < count; start += 4096) {
        size_t stop = count - start > 4096 ? start + 4096 : count;
        for (size_t i = start; i < stop; i++)
            pv_wi_version_bits_add(&bits, bin_word(data, i));
        if (pv_wi_version_bits_v10(&bits))
            return 10;
    }
    int version = pv_wi_version_of_bits(&bits);
    if (version)
        return version;
    if (why)
        bin_explain_rejection(data, count, why, why_size);
    return 0;
}

/* A tab-separated line whose first field is 0..10: an MSVC PLIST report. */
static bool bin_looks_like_plist(const unsigned char *head, size_t len)
{
    size_t i = 0;
    while (i < len && i < 2 && head[i] >= '0' && head[i] <= '9')
        i++;
    if (i == 0 || i >= len || head[i] != '\t')
        return false;
    int tag = head[0] - '0';
    if (i == 2)
        tag = tag * 10 + head[1] - '0';
    return tag <= 10;
}

int pv_wi_bin_probe(const unsigned char *head, size_t len, uint64_t file_size)
{
    if (len < PV_WI_RECORD_SIZE || file_size < PV_WI_RECORD_SIZE)
        return 0;
    if (len >= 16 && memcmp(head, "SQLite format 3", 16) == 0)
        return 0;
    if (bin_looks_like_plist(head, len))
        return 0;
    /* Records hold small numbers (zero-padded times, data, flags): a file
     * without a single NUL byte in its first records is text, not a BIN. */
    size_t look = len < 64 * PV_WI_RECORD_SIZE ? len : 64 * PV_WI_RECORD_SIZE;
    if (!memchr(head, 0, look))
        return 0;
    int version = pv_wi_bin_detect_version(head, len, NULL, 0);
    if (!version)
        return 0;
    /* Rule 1 of the detection takes any word with bits 24-27 set as 1.0, so
     * random bytes would pass: the probe also wants known event codes. */
    pv_wi_timeline tl = {.records = head, .count = len / PV_WI_RECORD_SIZE, .version = version};
    for (size_t i = 0; i < tl.count; i++) {
        pv_wi_event e;
        pv_wi_event_at(&tl, i, &e);
        if (e.kind > PV_WI_WRITE)
            return 0;
    }
    return 30;
}

bool pv_wi_bin_attach_memory(pv_wi_data *d, const char *name, const unsigned char *data,
                             size_t size, int forced_version, pv_diag *diag, pv_severity sev)
{
    if (size < PV_WI_RECORD_SIZE) {
        if (size == 0)
            pv_diag_add(diag, sev, "%s: byte 0: the file is empty (no %d-byte record)", name,
                        PV_WI_RECORD_SIZE);
        else
            pv_diag_add(diag, sev,
                        "%s: byte 0: the file has %zu bytes, less than one %d-byte record "
                        "(truncated?)",
                        name, size, PV_WI_RECORD_SIZE);
        return false;
    }
    size_t count = size / PV_WI_RECORD_SIZE;
    int version = forced_version;
    size_t checked = 0;
    if (version != 10 && version != 11) {
        /* docs/formats.md §2: the first 1 M records decide for the first screen;
         * when they do not, all records are read (rule 1 may still find a
         * v1.0 word further on, and a rejection names its reason). */
        checked = count < PV_WI_BIN_EARLY_RECORDS ? count : PV_WI_BIN_EARLY_RECORDS;
        version = pv_wi_bin_detect_version(data, checked * PV_WI_RECORD_SIZE, NULL, 0);
        if (!version) {
            char why[400];
            checked = count;
            version = pv_wi_bin_detect_version(data, count * PV_WI_RECORD_SIZE, why, sizeof why);
            if (!version) {
                pv_diag_add(diag, sev, "%s: not a winIDEA BIN timeline: %s", name, why);
                return false;
            }
        }
    }
    /* docs/formats.md §2: the whole records load, the tail is reported. */
    if (size % PV_WI_RECORD_SIZE)
        pv_warn(diag,
                "%s: byte offset %zu: the last %zu bytes are not a whole %d-byte record "
                "(truncated?); ignored",
                name, count * PV_WI_RECORD_SIZE, size % PV_WI_RECORD_SIZE, PV_WI_RECORD_SIZE);
    pv_wi_timeline *tl = &d->timeline;
    free(tl->owned);
    free(tl->text_context);
    tl->owned = NULL;
    tl->owned_cap = 0;
    tl->text_context = NULL;
    tl->records = data;
    tl->count = count;
    tl->version = version;
    tl->version_checked = checked;
    return true;
}

bool pv_wi_bin_attach_file(pv_wi_data *d, const char *path, int forced_version, pv_diag *diag,
                           pv_severity sev)
{
    pv_mapped_file mf;
    int err = pv_map_file(path, &mf);
    if (err) {
        pv_diag_add(diag, sev, "%s: cannot read: %s", path, strerror(err));
        return false;
    }
    if (!pv_wi_bin_attach_memory(d, path, mf.data, mf.size, forced_version, diag, sev)) {
        pv_unmap_file(&mf);
        return false;
    }
    if (d->bin.data)
        pv_unmap_file(&d->bin);
    d->bin = mf;
    free(d->bin_path);
    d->bin_path = pv_xstrdup(path);
    return true;
}

static bool bin_is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *pv_wi_bin_find_pair(const char *text_path)
{
    size_t len = strlen(text_path);
    const char *slash = strrchr(text_path, '/');
    const char *base = slash ? slash + 1 : text_path;
    const char *dot = strrchr(base, '.');
    /* "X.txt" has the extension ".txt"; ".hidden" and "X." have none worth
     * replacing. */
    size_t stem = dot && dot > base && dot[1] ? (size_t)(dot - text_path) : len;
    char *candidates[4] = {
        pv_xasprintf("%s.BIN", text_path),
        pv_xasprintf("%s.bin", text_path),
        stem < len ? pv_xasprintf("%.*s.BIN", (int)stem, text_path) : NULL,
        stem < len ? pv_xasprintf("%.*s.bin", (int)stem, text_path) : NULL,
    };
    char *found = NULL;
    for (size_t i = 0; i < PV_ARRAY_LEN(candidates); i++) {
        if (!found && candidates[i] && strcmp(candidates[i], text_path) != 0 &&
            bin_is_regular_file(candidates[i]))
            found = candidates[i];
        else
            free(candidates[i]);
    }
    return found;
}
