/* Unit tests for winIDEA BIN timelines (docs/formats.md §2): version detection,
 * attaching, the tail rule, pairing with a Text1 file, and both loaders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "formats/winidea/timeline.h"
#include "formats/winidea/parse.h"

/* Records built by hand: handle, the version word, data, time. */
typedef struct records {
    unsigned char bytes[24 * 16 + 8];
    size_t size;
} records;

static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void add_record(records *r, uint32_t handle, uint32_t word, uint64_t data, int64_t time)
{
    unsigned char *p = r->bytes + r->size;
    put_le(p, handle, 4);
    put_le(p + 4, word, 4);
    put_le(p + 8, data, 8);
    put_le(p + 16, (uint64_t)time, 8);
    r->size += 24;
}

static bool diag_has(const pv_diag *d, const char *needle)
{
    for (size_t i = 0; i < d->entry_count; i++)
        if (strstr(d->entries[i].text, needle))
            return true;
    return false;
}

static void test_detect_v10(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000000, 3u << 24, 0, 100); /* E */
    add_record(&r, 0x00000000, 0, 0, 200);        /* X: the word is 0 */
    assert_int_equal(pv_wi_bin_detect_version(r.bytes, r.size, NULL, 0), 10);
    /* one word with bits 24-27 set decides, whatever else the file holds */
    add_record(&r, 0x20000000, 0x00000FF4, 7, 300);
    assert_int_equal(pv_wi_bin_detect_version(r.bytes, r.size, NULL, 0), 10);
}

static void test_detect_v11(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000000, 0xFF3, 0, 100);  /* E, core unknown */
    add_record(&r, 0x10000004, 0x012, 0, 150);  /* R on core 1 */
    add_record(&r, 0x20000000, 0x004, 42, 200); /* W on core 0 */
    assert_int_equal(pv_wi_bin_detect_version(r.bytes, r.size, NULL, 0), 11);
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_wi_bin_attach_memory(&d, "m.bin", r.bytes, r.size, 0, &diag, PV_SEV_ERROR));
    assert_int_equal(d.timeline.count, 3);
    assert_int_equal(d.timeline.version, 11);
    assert_ptr_equal(d.timeline.records, r.bytes); /* borrowed, not copied */
    pv_wi_event e;
    pv_wi_event_at(&d.timeline, 1, &e);
    assert_int_equal(e.handle, 0x10000004);
    assert_int_equal(e.kind, PV_WI_RESUME);
    assert_int_equal(e.core, 1);
    assert_int_equal(e.time, 150);
    pv_wi_event_at(&d.timeline, 2, &e);
    assert_int_equal(e.data, 42);
    assert_int_equal(diag.warnings + diag.errors, 0);
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
}

/* The rule's third branch: bits 24-27 clear everywhere, some word has bits
 * 28-31 set (not 1.1), all have bits 0-23 clear -> 1.0. */
static void test_detect_v10_high_bits_only(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000000, 0x10000000, 0, 100);
    add_record(&r, 0x00000000, 0, 0, 200);
    assert_int_equal(pv_wi_bin_detect_version(r.bytes, r.size, NULL, 0), 10);
}

/* All-zero words fit both readings; the rule checks 1.1 before the
 * "bits 0-23 clear" 1.0 branch, so they read as 1.1: every record an Exit
 * on core 0 (v1.0 would say the same Exit with no core). */
static void test_detect_ambiguous_zero_words(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000000, 0, 0, 100);
    add_record(&r, 0x10000000, 0, 0, 200);
    assert_int_equal(pv_wi_bin_detect_version(r.bytes, r.size, NULL, 0), 11);
}

static void test_detect_rejects_with_offset(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0, 0xFF3, 0, 100);
    add_record(&r, 0, 0x00001003, 0, 200); /* bit 12 and low bits: neither */
    char why[400];
    assert_int_equal(pv_wi_bin_detect_version(r.bytes, r.size, why, sizeof why), 0);
    assert_non_null(strstr(why, "byte offset 24 (record 1)"));
    assert_non_null(strstr(why, "0x00001003"));

    /* event type 5 does not fit 1.1 either */
    records t = {0};
    add_record(&t, 0, 0x005, 0, 100);
    assert_int_equal(pv_wi_bin_detect_version(t.bytes, t.size, why, sizeof why), 0);
    assert_non_null(strstr(why, "byte offset 0 (record 0)"));

    /* each record fits one version, but not the same one */
    records m = {0};
    add_record(&m, 0, 0x003, 0, 100);      /* 1.1 only */
    add_record(&m, 0, 0x10000000, 0, 200); /* 1.0 only */
    assert_int_equal(pv_wi_bin_detect_version(m.bytes, m.size, why, sizeof why), 0);
    assert_non_null(strstr(why, "byte offset 24 (record 1, word 0x10000000) is not v1.1"));
    assert_non_null(strstr(why, "byte offset 0 (record 0, word 0x00000003) is not v1.0"));

    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    assert_false(pv_wi_bin_attach_memory(&d, "bad.bin", r.bytes, r.size, 0, &diag, PV_SEV_ERROR));
    assert_int_equal(diag.errors, 1);
    assert_true(diag_has(&diag, "bad.bin: not a winIDEA BIN timeline: byte offset 24"));
    assert_int_equal(d.timeline.count, 0);
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
}

static void test_forced_version(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000001, 0x00001003, 0, 100); /* rejected when detecting */
    add_record(&r, 0x00000001, 0x03000000, 0, 200);
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_wi_bin_attach_memory(&d, "f.bin", r.bytes, 24, 11, &diag, PV_SEV_ERROR));
    assert_int_equal(d.timeline.version, 11);
    pv_wi_event e;
    pv_wi_event_at(&d.timeline, 0, &e);
    assert_int_equal(e.kind, PV_WI_ENTRY);
    /* a file that detects as 1.0, read as 1.1 because it was asked */
    assert_true(pv_wi_bin_attach_memory(&d, "f.bin", r.bytes + 24, 24, 11, &diag, PV_SEV_ERROR));
    assert_int_equal(d.timeline.version, 11);
    pv_wi_event_at(&d.timeline, 0, &e);
    assert_int_equal(e.kind, PV_WI_EXIT);
    assert_true(pv_wi_bin_attach_memory(&d, "f.bin", r.bytes + 24, 24, 10, &diag, PV_SEV_ERROR));
    pv_wi_event_at(&d.timeline, 0, &e);
    assert_int_equal(d.timeline.version, 10);
    assert_int_equal(e.kind, PV_WI_ENTRY);
    assert_int_equal(e.core, PV_WI_CORE_UNKNOWN);
    assert_int_equal(diag.warnings + diag.errors, 0);
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
}

static void test_tail_and_truncated(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0, 0xFF3, 0, 100);
    add_record(&r, 0, 0xFF0, 0, 200);
    memset(r.bytes + r.size, 0xAB, 5);
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_wi_bin_attach_memory(&d, "t.bin", r.bytes, r.size + 5, 0, &diag, PV_SEV_ERROR));
    assert_int_equal(d.timeline.count, 2);
    assert_int_equal(diag.warnings, 1);
    assert_true(diag_has(&diag, "t.bin: byte offset 48: the last 5 bytes"));

    pv_diag_free(&diag);
    pv_diag_init(&diag);
    assert_false(pv_wi_bin_attach_memory(&d, "s.bin", r.bytes, 23, 0, &diag, PV_SEV_ERROR));
    assert_true(diag_has(&diag, "s.bin: byte 0: the file has 23 bytes, less than one 24-byte"));
    assert_false(pv_wi_bin_attach_memory(&d, "e.bin", r.bytes, 0, 11, &diag, PV_SEV_ERROR));
    assert_true(diag_has(&diag, "e.bin: byte 0: the file is empty"));
    assert_int_equal(diag.errors, 2);
    assert_int_equal(d.timeline.count, 2); /* unchanged by the failures */
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
}

static void test_probe(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000000, 0xFF3, 0, 100);
    add_record(&r, 0x00000000, 0xFF0, 0, 200);
    assert_int_equal(pv_wi_bin_probe(r.bytes, r.size, r.size), 30);
    assert_int_equal(pv_wi_bin_probe(r.bytes, 23, 23), 0);
    unsigned char sqlite[100] = "SQLite format 3";
    assert_int_equal(pv_wi_bin_probe(sqlite, sizeof sqlite, sizeof sqlite), 0);
    static const char plist[] = "10\tsome\tfields\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
    assert_int_equal(
        pv_wi_bin_probe((const unsigned char *)plist, sizeof plist, sizeof plist), 0);
    records bad = {0};
    add_record(&bad, 0, 0x00001003, 0, 1);
    assert_int_equal(pv_wi_bin_probe(bad.bytes, bad.size, bad.size), 0);
    /* detects as 1.0 (bits 24-27 set) but event code 9 is no event: not claimed */
    records odd = {0};
    add_record(&odd, 0, 0x09000000, 0, 1);
    assert_int_equal(pv_wi_bin_detect_version(odd.bytes, odd.size, NULL, 0), 10);
    assert_int_equal(pv_wi_bin_probe(odd.bytes, odd.size, odd.size), 0);
    records v10 = {0};
    add_record(&v10, 0, 0x03000000, 0, 1);
    assert_int_equal(pv_wi_bin_probe(v10.bytes, v10.size, v10.size), 30);
}

/* A large BIN: `early` variable writes (v1.1 word 4: a write whatever the
 * version), then `tail` records appended by the caller. */
static unsigned char *big_bin(size_t early, size_t tail, size_t *size)
{
    *size = (early + tail) * 24;
    unsigned char *b = calloc(early + tail, 24);
    assert_non_null(b);
    for (size_t i = 0; i < early; i++) {
        put_le(b + i * 24, 0x20000000u, 4);
        put_le(b + i * 24 + 4, PV_WI_WRITE, 4);
        put_le(b + i * 24 + 8, i, 8);
        put_le(b + i * 24 + 16, i, 8);
    }
    return b;
}

static void put_at(unsigned char *b, size_t i, uint32_t handle, uint32_t word, int64_t time)
{
    put_le(b + i * 24, handle, 4);
    put_le(b + i * 24 + 4, word, 4);
    put_le(b + i * 24 + 16, (uint64_t)time, 8);
}

/* docs/formats.md §2: the first 1 M records decide the version for the first
 * screen; a v1.0 word after them makes the index read the file again as
 * v1.0, warning with the byte offset, without the wrong reading's warnings. */
static void test_late_v10_word(void **state)
{
    (void)state;
    size_t early = PV_WI_BIN_EARLY_RECORDS, size;
    unsigned char *b = big_bin(early, 2, &size);
    put_at(b, early, 0x00000000u, 0x03000000u, (int64_t)early);         /* v1.0 E */
    put_at(b, early + 1, 0x00000000u, 0x00000000u, (int64_t)early + 5); /* X */
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_wi_bin_attach_memory(&d, "late.bin", b, size, 0, &diag, PV_SEV_ERROR));
    assert_int_equal(d.timeline.version, 11); /* from the first 1 M records */
    assert_int_equal(d.timeline.version_checked, early);
    assert_int_equal(diag.warnings, 0);
    /* read as v1.1, the E is an X on core 0 that the second X finds gone */
    pv_wi_event e;
    pv_wi_event_at(&d.timeline, early, &e);
    assert_int_equal(e.kind, PV_WI_EXIT);

    pv_timeline_index ix;
    pv_tl_options o = {.file = "late.bin"};
    assert_true(pv_timeline_index_build(&ix, &d, &o, &diag));
    assert_int_equal(d.timeline.version, 10);
    assert_int_equal(d.timeline.version_checked, early + 2);
    char offset[64];
    snprintf(offset, sizeof offset, "late.bin: byte offset %zu (record %zu", early * 24, early);
    assert_true(diag_has(&diag, offset));
    assert_true(diag_has(&diag, "the file is v1.0, not v1.1"));
    assert_int_equal(diag.warnings, 1); /* the v1.1 reading's warning is gone */
    assert_int_equal(ix.warnings, 1);
    /* the v1.0 reading: one matched call, no core contexts */
    assert_int_equal(ix.context_source, PV_TL_CONTEXT_UNKNOWN);
    assert_int_equal(ix.context_count, 1);
    assert_string_equal(pv_tl_context_name(&ix, 0), "Unknown");
    assert_int_equal(ix.call_count, 1);
    assert_int_equal(ix.call_entry[0], early);
    assert_int_equal(ix.call_exit[0], early + 1);
    assert_int_equal(pv_tl_event_depth(&ix, early + 1), 0);
    pv_timeline_index_free(&ix);

    /* the same file read as v1.1 on request is not re-read */
    pv_diag_free(&diag);
    pv_diag_init(&diag);
    assert_true(pv_wi_bin_attach_memory(&d, "late.bin", b, size, 11, &diag, PV_SEV_ERROR));
    assert_true(pv_timeline_index_build(&ix, &d, NULL, &diag));
    assert_int_equal(d.timeline.version, 11);
    assert_false(diag_has(&diag, "byte offset"));
    assert_true(diag_has(&diag, "not on the call stack"));
    pv_timeline_index_free(&ix);
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
    free(b);
}

/* A late word that fits neither the early reading nor the other: the early
 * reading stays, with a warning naming the record. */
static void test_late_mixed_word(void **state)
{
    (void)state;
    size_t early = PV_WI_BIN_EARLY_RECORDS, size;
    unsigned char *b = big_bin(early, 1, &size);
    put_at(b, early, 0x20000000u, 0x00001004u, (int64_t)early); /* not v1.1, not v1.0 */
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    assert_true(pv_wi_bin_attach_memory(&d, "mix.bin", b, size, 0, &diag, PV_SEV_ERROR));
    assert_int_equal(d.timeline.version, 11);
    pv_timeline_index ix;
    pv_tl_options o = {.file = "mix.bin"};
    assert_true(pv_timeline_index_build(&ix, &d, &o, &diag));
    assert_int_equal(d.timeline.version, 11);
    char offset[80];
    snprintf(offset, sizeof offset, "mix.bin: byte offset %zu (record %zu, word 0x00001004)",
             early * 24, early);
    assert_true(diag_has(&diag, offset));
    assert_true(diag_has(&diag, "the records mix both versions"));
    /* detected over all records, the same file is rejected */
    char why[400];
    assert_int_equal(pv_wi_bin_detect_version(b, size, why, sizeof why), 0);
    pv_timeline_index_free(&ix);
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
    free(b);
}

/* ---- files: pairing and the loaders */

static char tmpdir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pv-wi-bin-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *path_in(const char *name)
{
    return pv_xasprintf("%s/%s", tmpdir, name);
}

static void write_file(const char *name, const void *data, size_t size)
{
    char *path = path_in(name);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, size, fp), size);
    fclose(fp);
    free(path);
}

/* Asserts that the pair of `text` is `expected` (NULL: none). */
static void assert_pair(const char *text, const char *expected)
{
    char *path = path_in(text);
    char *pair = pv_wi_bin_find_pair(path);
    if (!expected) {
        assert_null(pair);
    } else {
        char *want = path_in(expected);
        assert_non_null(pair);
        assert_string_equal(pair, want);
        free(want);
    }
    free(pair);
    free(path);
}

static void test_pairing_names(void **state)
{
    (void)state;
    write_file("a.txt", "", 0);
    assert_pair("a.txt", NULL);
    write_file("a.bin", "", 0);
    assert_pair("a.txt", "a.bin"); /* extension replaced */
    write_file("a.BIN", "", 0);
    assert_pair("a.txt", "a.BIN"); /* .BIN before .bin */
    write_file("a.txt.bin", "", 0);
    assert_pair("a.txt", "a.txt.bin"); /* X.bin before the replaced extension */
    write_file("a.txt.BIN", "", 0);
    assert_pair("a.txt", "a.txt.BIN"); /* X.BIN first of all */

    write_file("noext", "", 0);
    write_file("noext.bin", "", 0);
    assert_pair("noext", "noext.bin");

    /* a Text1 file called x.bin does not pair with itself */
    write_file("x.bin", "", 0);
    assert_pair("x.bin", NULL);

    /* a directory is not a BIN */
    write_file("d.txt", "", 0);
    char *dir = path_in("d.txt.BIN");
    assert_int_equal(mkdir(dir, 0700), 0);
    free(dir);
    assert_pair("d.txt", NULL);
}

static const char text1_mapping[] = "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n"
                                    "00000000,main,\n";

static pv_file *load(const char *name, int bin_version, pv_load_status *status)
{
    char *path = path_in(name);
    pv_load_options o;
    pv_load_options_init(&o);
    o.bin_version = bin_version;
    pv_file *f = pv_load_file(path, &o, status);
    free(path);
    return f;
}

static void test_loaders(void **state)
{
    (void)state;
    records r = {0};
    add_record(&r, 0x00000000, 0xFF3, 0, 100);
    add_record(&r, 0x00000000, 0xFF0, 0, 200);

    /* Text1 without events + its BIN: the BIN is the timeline */
    write_file("p.txt", text1_mapping, sizeof text1_mapping - 1);
    write_file("p.BIN", r.bytes, r.size);
    pv_load_status status;
    pv_file *f = load("p.txt", 0, &status);
    assert_int_equal(status, PV_LOAD_OK);
    assert_string_equal(f->format, "winidea-text1");
    const pv_wi_data *d = pv_wi_file_data(f);
    assert_non_null(d);
    assert_int_equal(d->area_count, 1);
    assert_int_equal(d->timeline.count, 2);
    assert_non_null(d->bin_path);
    assert_non_null(strstr(d->bin_path, "p.BIN"));
    assert_int_equal(f->diag.warnings, 0);
    pv_file_free(f);

    /* Text1 with TIMELINE events + a BIN: the text wins, with a warning */
    static const char with_events[] = "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n"
                                      "00000000,E,,1\n";
    write_file("q.txt", with_events, sizeof with_events - 1);
    write_file("q.txt.bin", r.bytes, r.size);
    f = load("q.txt", 0, &status);
    assert_int_equal(status, PV_LOAD_OK);
    d = pv_wi_file_data(f);
    assert_non_null(d);
    assert_int_equal(d->timeline.count, 1);
    assert_null(d->bin_path);
    assert_int_equal(f->diag.warnings, 1);
    assert_true(diag_has(&f->diag, "q.txt.bin: not read: the TIMELINE section"));
    pv_file_free(f);

    /* a paired BIN that cannot be read is a warning: the text still loads */
    write_file("r.txt", text1_mapping, sizeof text1_mapping - 1);
    write_file("r.bin", "short", 5);
    f = load("r.txt", 0, &status);
    assert_int_equal(status, PV_LOAD_OK);
    assert_int_equal(f->diag.errors, 0);
    assert_true(diag_has(&f->diag, "r.bin: byte 0: the file has 5 bytes"));
    pv_file_free(f);

    /* a BIN alone: detected by content, no areas */
    write_file("alone.dat", r.bytes, r.size);
    f = load("alone.dat", 0, &status);
    assert_int_equal(status, PV_LOAD_OK);
    assert_string_equal(f->format, "winidea-bin");
    d = pv_wi_file_data(f);
    assert_non_null(d);
    assert_int_equal(d->area_count, 0);
    assert_int_equal(d->timeline.count, 2);
    assert_int_equal(d->timeline.version, 11);
    assert_null(d->text_path);
    pv_file_free(f);

    /* --bin-version reaches the loader */
    f = load("alone.dat", 10, &status);
    assert_int_equal(status, PV_LOAD_OK);
    d = pv_wi_file_data(f);
    assert_non_null(d);
    assert_int_equal(d->timeline.version, 10);
    pv_file_free(f);
}

/* The text of a cell as cat writes it. */
static char *cell_text(const pv_view *v, size_t row, const char *column, pv_cell *cell)
{
    size_t col = pv_view_column(v, column);
    assert_true(col != PV_NO_ROW);
    pv_view_cell(v, row, col, cell);
    pv_buf b;
    pv_buf_init(&b);
    pv_cell_format_exact(cell, &b);
    char *text = pv_xstrdup(pv_buf_cstr(&b));
    pv_buf_free(&b);
    return text;
}

/* docs/formats.md §2: DATA of an area whose VALUE.TYPE is F64 is an IEEE double
 * (all 64 bits); other areas show the low 32 bits in hex.  The value history
 * keeps the bits as read in `raw`. */
static void test_f64_values(void **state)
{
    (void)state;
    static const char mapping[] = "* HANDLE(Data) %HANDLE%,%NAME%,%VALUE%,%VALUE.TYPE%\n"
                                  "20000000,counter,,I64\n"
                                  "* HANDLE(AUX) %HANDLE%,%NAME%,%VALUE%,%VALUE.TYPE%\n"
                                  "40000000,voltage,,F64\n";
    records r = {0};
    add_record(&r, 0x40000000, PV_WI_WRITE, UINT64_C(0x400A000000000000), 100); /* 3.25 */
    add_record(&r, 0x40000000, PV_WI_WRITE, UINT64_C(0xBFE0000000000000), 200); /* -0.5 */
    add_record(&r, 0x20000000, PV_WI_WRITE, UINT64_C(0x100000007), 300);
    write_file("f64.txt", mapping, sizeof mapping - 1);
    write_file("f64.BIN", r.bytes, r.size);
    pv_load_status status;
    pv_file *f = load("f64.txt", 0, &status);
    assert_int_equal(status, PV_LOAD_OK);
    pv_result_set *set = pv_file_find_set(f, -1);
    assert_non_null(set);
    pv_view *tl = pv_set_find_view(set, "timeline");
    assert_non_null(tl);
    /* docs/winidea-model.md: the timeline's `value` is HEX in every row (an
     * F64 area's: all 64 bits of DATA), the double is in `value_f64` */
    pv_cell cell;
    char *text = cell_text(tl, 0, "value_f64", &cell);
    assert_int_equal(cell.type, PV_TYPE_FLOAT);
    assert_true(cell.v.f == 3.25);
    assert_string_equal(text, "3.25");
    free(text);
    text = cell_text(tl, 0, "value", &cell);
    assert_int_equal(cell.type, PV_TYPE_HEX);
    assert_string_equal(text, "0x400A000000000000");
    free(text);
    text = cell_text(tl, 1, "value_f64", &cell);
    assert_string_equal(text, "-0.5");
    free(text);
    text = cell_text(tl, 2, "value", &cell); /* I64: the low 32 bits in hex */
    assert_int_equal(cell.type, PV_TYPE_HEX);
    assert_string_equal(text, "0x7");
    free(text);
    text = cell_text(tl, 2, "value_f64", &cell); /* no double */
    assert_int_equal(cell.type, PV_TYPE_FLOAT);
    assert_false(cell.present);
    free(text);

    pv_view *data = pv_set_find_view(set, "data");
    assert_non_null(data);
    size_t voltage = PV_NO_ROW;
    for (size_t row = 0; row < pv_view_rows(data); row++) {
        text = cell_text(data, row, "name", &cell);
        if (strcmp(text, "voltage") == 0)
            voltage = row;
        free(text);
    }
    assert_true(voltage != PV_NO_ROW);
    size_t detail = pv_view_detail_index(data, "value-history");
    assert_true(detail != PV_NO_ROW);
    pv_view *history = pv_view_open_detail(data, detail, voltage);
    assert_non_null(history);
    assert_int_equal(pv_view_rows(history), 2);
    text = cell_text(history, 0, "value", &cell);
    assert_int_equal(cell.type, PV_TYPE_FLOAT);
    assert_string_equal(text, "3.25");
    free(text);
    text = cell_text(history, 1, "raw", &cell);
    assert_string_equal(text, "0xBFE0000000000000");
    free(text);
    pv_view_free(history);
    pv_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect_v10),
        cmocka_unit_test(test_detect_v11),
        cmocka_unit_test(test_detect_v10_high_bits_only),
        cmocka_unit_test(test_detect_ambiguous_zero_words),
        cmocka_unit_test(test_detect_rejects_with_offset),
        cmocka_unit_test(test_forced_version),
        cmocka_unit_test(test_tail_and_truncated),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_late_v10_word),
        cmocka_unit_test(test_late_mixed_word),
        cmocka_unit_test_setup_teardown(test_pairing_names, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_loaders, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_f64_values, make_dir, remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
