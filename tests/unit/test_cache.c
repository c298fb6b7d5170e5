/* Unit tests for src/core/cache.c (docs/cache.md): the checksum, the key,
 * and a write / open round trip that rejects a changed input, another
 * version and a damaged file. */
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

#include "formats/winidea/parse.h"
#include "formats/winidea/timeline.h"
#include "profview/cache.h"
#include "profview/load.h"

static char dir[] = "/tmp/pv-test-cache-XXXXXX";
static char input[512];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    setenv("XDG_CACHE_HOME", dir, 1);
    unsetenv("PROFVIEW_CACHE");
    snprintf(input, sizeof input, "%s/input.bin", dir);
    FILE *fp = fopen(input, "wb");
    if (!fp)
        return -1;
    fputs("some input", fp);
    fclose(fp);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* every bit of every 32-byte block changes the checksum */
static void test_hash_sees_every_bit(void **state)
{
    (void)state;
    unsigned char data[256];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 37 + 1);
    uint64_t h = pv_cache_hash(data, sizeof data, 7);
    assert_true(h == pv_cache_hash(data, sizeof data, 7));
    assert_true(h != pv_cache_hash(data, sizeof data, 8));
    for (size_t i = 0; i < sizeof data; i++)
        for (int b = 0; b < 8; b++) {
            data[i] ^= (unsigned char)(1u << b);
            assert_true(h != pv_cache_hash(data, sizeof data, 7));
            data[i] ^= (unsigned char)(1u << b);
        }
}

static void make_key(pv_cache_key *k, const char *option)
{
    pv_cache_key_init(k);
    pv_cache_key_add_file(k, input);
    pv_cache_key_add_str(k, option);
}

static void test_round_trip_and_rejections(void **state)
{
    (void)state;
    pv_cache_key k;
    make_key(&k, "opt");
    assert_true(k.usable);
    uint32_t payload[100];
    for (int i = 0; i < 100; i++)
        payload[i] = (uint32_t)i * 3u;
    pv_cache_segment segs[2] = {{payload, sizeof payload}, {"tail", 5}};
    pv_cache_entry e;
    assert_false(pv_cache_open(&k, "test", 1, &e)); /* a miss */
    assert_true(pv_cache_write(&k, "test", 1, segs, 2, 0));
    assert_true(pv_cache_open(&k, "test", 1, &e)); /* a hit */
    assert_int_equal(e.payload_size, pv_cache_padded(sizeof payload) + pv_cache_padded(5));
    assert_memory_equal(e.payload, payload, sizeof payload);
    assert_string_equal((const char *)e.payload + pv_cache_padded(sizeof payload), "tail");
    char path[600];
    snprintf(path, sizeof path, "%s", e.path);
    pv_cache_close(&e);
    /* another version, other options */
    assert_false(pv_cache_open(&k, "test", 2, &e));
    pv_cache_key other;
    make_key(&other, "other");
    assert_false(pv_cache_open(&other, "test", 1, &e));
    pv_cache_key_free(&other);
    /* a flipped byte in the payload */
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    fseek(fp, -100, SEEK_END);
    int c = fgetc(fp);
    fseek(fp, -100, SEEK_END);
    fputc(c ^ 1, fp);
    fclose(fp);
    assert_false(pv_cache_open(&k, "test", 1, &e));
    /* rewritten, then the input changes: its old key no longer matches */
    assert_true(pv_cache_write(&k, "test", 1, segs, 2, 0));
    assert_true(pv_cache_open(&k, "test", 1, &e));
    pv_cache_close(&e);
    fp = fopen(input, "ab");
    assert_non_null(fp);
    fputs("more", fp);
    fclose(fp);
    pv_cache_key changed;
    make_key(&changed, "opt");
    assert_false(pv_cache_open(&changed, "test", 1, &e));
    pv_cache_key_free(&changed);
    pv_cache_key_free(&k);
}

/* The checksum in chunks (docs/cache.md "The file"): an entry of 40 MiB
 * in segments that do not fall on the 16 MiB chunks is written (hashed as
 * it is written) and read (its chunks hashed on two threads) to the same
 * checksum; a byte changed in the second chunk (the other thread's) or in
 * the last is seen. */
static void flip_at(const char *path, long at)
{
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    fseek(fp, at, SEEK_SET);
    int c = fgetc(fp);
    fseek(fp, at, SEEK_SET);
    fputc(c ^ 0x10, fp);
    fclose(fp);
}

static void test_checksum_chunks(void **state)
{
    (void)state;
    pv_cache_key k;
    make_key(&k, "chunks");
    size_t sizes[3] = {(5u << 20) + 1, (20u << 20) + 17, 15u << 20};
    unsigned char *parts[3];
    pv_cache_segment segs[3];
    for (int i = 0; i < 3; i++) {
        parts[i] = malloc(sizes[i]);
        assert_non_null(parts[i]);
        for (size_t j = 0; j < sizes[i]; j++)
            parts[i][j] = (unsigned char)(j * 131 + (size_t)i * 7 + (j >> 16));
        segs[i].data = parts[i];
        segs[i].len = sizes[i];
    }
    pv_cache_entry e;
    assert_true(pv_cache_write(&k, "chunks", 1, segs, 3, 0));
    assert_true(pv_cache_open(&k, "chunks", 1, &e)); /* the two checksums agree */
    assert_memory_equal((const unsigned char *)e.payload + pv_cache_padded(sizes[0]), parts[1],
                        sizes[1]);
    char path[600];
    snprintf(path, sizeof path, "%s", e.path);
    size_t payload_at = (size_t)((const unsigned char *)e.payload - (const unsigned char *)e.map);
    pv_cache_close(&e);
    long second = (long)(payload_at + (16u << 20) + 12345); /* in chunk 1 of the bytes hashed */
    flip_at(path, second);
    assert_false(pv_cache_open(&k, "chunks", 1, &e));
    flip_at(path, second);
    assert_true(pv_cache_open(&k, "chunks", 1, &e));
    pv_cache_close(&e);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    flip_at(path, (long)st.st_size - 70); /* in the last chunk */
    assert_false(pv_cache_open(&k, "chunks", 1, &e));
    pv_cache_key_free(&k);
    for (int i = 0; i < 3; i++)
        free(parts[i]);
}

/* not a regular file: no key, nothing written */
static void test_unusable_input(void **state)
{
    (void)state;
    pv_cache_key k;
    pv_cache_key_init(&k);
    pv_cache_key_add_file(&k, dir); /* a directory */
    assert_false(k.usable);
    pv_cache_segment seg = {"x", 1};
    assert_false(pv_cache_write(&k, "test", 1, &seg, 1, 0));
    pv_cache_key_free(&k);
}

/* ---- trust (docs/cache.md "Trust") */

static void write_entry(pv_cache_key *k)
{
    make_key(k, "trust");
    pv_cache_segment seg = {"payload", 8};
    assert_true(pv_cache_write(k, "test", 1, &seg, 1, 0));
}

/* A cache directory writable by others, a symbolic link, or (as root)
 * another user's, is not used at all, and said once; another user's file
 * in our directory is ignored. */
static void test_untrusted_directory(void **state)
{
    (void)state;
    pv_cache_key k;
    write_entry(&k);
    pv_cache_entry e;
    assert_true(pv_cache_open(&k, "test", 1, &e));
    pv_cache_close(&e);
    char cdir[600], real[600], msg[700];
    snprintf(cdir, sizeof cdir, "%s/profview", dir);
    snprintf(real, sizeof real, "%s/elsewhere", dir);

    assert_int_equal(chmod(cdir, 0777), 0);
    assert_false(pv_cache_open(&k, "test", 1, &e));
    pv_cache_segment seg = {"other", 6};
    assert_false(pv_cache_write(&k, "test", 1, &seg, 1, 0));
    assert_true(pv_cache_take_refusal(msg, sizeof msg));
    assert_non_null(strstr(msg, "profview is writable by others (mode 0777)"));
    assert_false(pv_cache_take_refusal(msg, sizeof msg)); /* one message */
    assert_int_equal(chmod(cdir, 0700), 0);
    assert_true(pv_cache_open(&k, "test", 1, &e));
    pv_cache_close(&e);

    assert_int_equal(rename(cdir, real), 0);
    assert_int_equal(symlink(real, cdir), 0);
    assert_false(pv_cache_open(&k, "test", 1, &e));
    assert_false(pv_cache_write(&k, "test", 1, &seg, 1, 0));
    assert_int_equal(unlink(cdir), 0);
    assert_int_equal(rename(real, cdir), 0);

    if (geteuid() == 0) {
        assert_int_equal(chown(cdir, 65534, 65534), 0);
        assert_false(pv_cache_open(&k, "test", 1, &e));
        assert_int_equal(chown(cdir, 0, 0), 0);
        assert_true(pv_cache_open(&k, "test", 1, &e));
        char file[700];
        snprintf(file, sizeof file, "%s", e.path);
        pv_cache_close(&e);
        assert_int_equal(chown(file, 65534, 65534), 0);
        assert_false(pv_cache_open(&k, "test", 1, &e));
    }
    pv_cache_key_free(&k);
}

/* A forged cache entry: the one file matching `pattern` in the cache
 * directory, read whole (`*size` bytes; `*payload`: where its payload
 * starts); forge_write writes it back with its checksum made right again,
 * as another user could. */
static unsigned char *forge_read(const char *pattern, char *path, size_t path_size, long *size,
                                 size_t *payload)
{
    char cmd[800];
    snprintf(cmd, sizeof cmd, "ls %s/profview/%s", dir, pattern);
    FILE *ls = popen(cmd, "r");
    assert_non_null(ls);
    assert_non_null(fgets(path, (int)path_size, ls));
    pclose(ls);
    path[strcspn(path, "\n")] = '\0';
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    *size = ftell(fp);
    unsigned char *m = malloc((size_t)*size);
    fseek(fp, 0, SEEK_SET);
    assert_int_equal(fread(m, 1, (size_t)*size, fp), (size_t)*size);
    fclose(fp);
    uint64_t who, stl;
    memcpy(&who, m + 24, 8);
    memcpy(&stl, m + 32, 8);
    *payload = 64 + pv_cache_padded(who + stl);
    return m;
}

static void forge_write(const char *path, unsigned char *m, long size)
{
    uint64_t sum = pv_cache_checksum(m + 64, (size_t)size - 64, pv_hash_bytes(m, 56));
    memcpy(m + 56, &sum, 8);
    FILE *fp = fopen(path, "r+b");
    assert_non_null(fp);
    assert_int_equal(fwrite(m, 1, (size_t)size, fp), (size_t)size);
    fclose(fp);
    free(m);
}

/* A forged entry of the winIDEA index (a valid checksum over indices that
 * point nowhere, as another user could write) is rejected and rebuilt,
 * never read: the load gives the same rows as without the cache. */
static void test_forged_index_entry(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/sample-data/rtos.txt", PV_SOURCE_DIR);
    pv_load_options o;
    pv_load_options_init(&o);
    o.cache = true;
    pv_load_status st;
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    pv_view *tl = pv_set_find_view(f->sets[0], "timeline");
    size_t rows = pv_view_rows(tl);
    pv_cell want;
    pv_view_cell(tl, rows - 1, pv_view_column(tl, "name"), &want);
    char want_name[200];
    snprintf(want_name, sizeof want_name, "%.*s", (int)want.v.s.len, want.v.s.ptr);
    pv_file_free(f);

    /* the entry just written: the first event's area made 0xFFFF..., the
     * checksum made right again */
    char entry[700];
    long size;
    size_t payload;
    unsigned char *m = forge_read("winidea-[0-9a-f]*.pvc", entry, sizeof entry, &size, &payload);
    uint64_t head;
    memcpy(&head, m + payload + 32, 8); /* the head's own size (wic_head.sizes[4]) */
    size_t areas = payload + pv_cache_padded(head);
    m[areas] = 0xFF;
    m[areas + 1] = 0xFF;
    forge_write(entry, m, size);

    f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    tl = pv_set_find_view(f->sets[0], "timeline");
    assert_int_equal(pv_view_rows(tl), rows);
    pv_cell got;
    pv_view_cell(tl, rows - 1, pv_view_column(tl, "name"), &got);
    assert_int_equal(got.v.s.len, strlen(want_name));
    assert_memory_equal(got.v.s.ptr, want_name, got.v.s.len);
    pv_view_cell(tl, 0, pv_view_column(tl, "name"), &got); /* the forged event */
    assert_true(got.present);
    pv_file_free(f);
}

/* Every cell of every row of `view` in two loads, the same. */
static void assert_same_view(pv_file *a, pv_file *b, const char *view)
{
    pv_view *va = pv_set_find_view(a->sets[0], view);
    pv_view *vb = pv_set_find_view(b->sets[0], view);
    assert_non_null(va);
    assert_non_null(vb);
    size_t rows = pv_view_rows(va);
    assert_int_equal(pv_view_rows(vb), rows);
    assert_int_equal(va->column_count, vb->column_count);
    pv_buf ta, tb;
    pv_buf_init(&ta);
    pv_buf_init(&tb);
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < va->column_count; c++) {
            pv_cell x, y;
            pv_view_cell(va, r, c, &x);
            pv_view_cell(vb, r, c, &y);
            pv_buf_clear(&ta);
            pv_buf_clear(&tb);
            pv_cell_format_exact(&x, &ta);
            pv_cell_format_exact(&y, &tb);
            assert_int_equal(ta.len, tb.len);
            assert_memory_equal(ta.data, tb.data, ta.len);
        }
    pv_buf_free(&ta);
    pv_buf_free(&tb);
}

/* A Text1 file opened again, unchanged, runs no parser (docs/cache.md
 * "Text1 files"): what the parse read comes from the cache, with the same
 * rows and warnings; a forged entry of it (a valid checksum over an area
 * whose name points nowhere) is rejected and the file parsed again. */
static void test_text1_hit_parses_nothing(void **state)
{
    (void)state;
    char path[600], cmd[1400];
    snprintf(path, sizeof path, "%s/rtos-ctx.txt", dir);
    snprintf(cmd, sizeof cmd, "cp '%s/sample-data/rtos-ctx.txt' '%s' && rm -f %s/profview/*.pvc",
             PV_SOURCE_DIR, path, dir);
    assert_int_equal(system(cmd), 0);
    pv_load_options o;
    pv_load_options_init(&o);
    o.cache = true;
    pv_load_options none;
    pv_load_options_init(&none);
    pv_load_status st;
    size_t parses = pv_wi_text1_parse_count();
    pv_file *ref = pv_load_file(path, &none, &st);
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(pv_wi_text1_parse_count(), parses + 1);
    pv_file *first = pv_load_file(path, &o, &st); /* a miss: parsed, written */
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(pv_wi_text1_parse_count(), parses + 2);
    pv_file *hit = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(pv_wi_text1_parse_count(), parses + 2); /* not parsed */
    static const char *const views[] = {"summary",  "timeline", "call-trace",
                                        "statistics", "routines", "data"};
    for (size_t i = 0; i < PV_ARRAY_LEN(views); i++)
        assert_same_view(ref, hit, views[i]);
    assert_int_equal(hit->diag.warnings, ref->diag.warnings);
    assert_int_equal(hit->diag.entry_count, ref->diag.entry_count);
    for (size_t i = 0; i < ref->diag.entry_count; i++)
        assert_string_equal(hit->diag.entries[i].text, ref->diag.entries[i].text);
    pv_file_free(first);
    pv_file_free(hit);

    /* forged: area 0's name offset out of the pool, the checksum right */
    char entry[700];
    long size;
    size_t payload;
    unsigned char *m = forge_read("winidea-text1-*.pvc", entry, sizeof entry, &size, &payload);
    uint64_t head, pool, contexts;
    memcpy(&head, m + payload + 24, 8); /* the head's own size (sizes[3]) */
    memcpy(&pool, m + payload + 32, 8);
    memcpy(&contexts, m + payload + 40, 8);
    size_t areas = payload + pv_cache_padded(head) + pv_cache_padded(pool) +
                   pv_cache_padded(contexts * sizeof(pv_wi_context));
    memset(m + areas + 4, 0xFF, 4); /* pv_wi_area.name */
    forge_write(entry, m, size);
    pv_file *again = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(pv_wi_text1_parse_count(), parses + 3); /* rejected: parsed */
    for (size_t i = 0; i < PV_ARRAY_LEN(views); i++)
        assert_same_view(ref, again, views[i]);
    pv_file_free(again);
    pv_file_free(ref);
}

/* The byte at `at` of the one entry matching `pattern`. */
static unsigned char entry_byte(const char *pattern, size_t at)
{
    char entry[700];
    long size;
    size_t payload;
    unsigned char *m = forge_read(pattern, entry, sizeof entry, &size, &payload);
    assert_true(at < (size_t)size);
    unsigned char b = m[at];
    free(m);
    return b;
}

/* rtos.txt copied to NAME in the test's directory (its path in `path`),
 * with an empty cache: loaded without the cache (returned: the rows to
 * compare with), then once with it (`o`), which writes its entries. */
static pv_file *cached_copy(const char *name, char *path, size_t path_size, pv_load_options *o)
{
    char cmd[1400];
    snprintf(path, path_size, "%s/%s", dir, name);
    snprintf(cmd, sizeof cmd, "cp '%s/sample-data/rtos.txt' '%s' && rm -f %s/profview/*.pvc",
             PV_SOURCE_DIR, path, dir);
    assert_int_equal(system(cmd), 0);
    pv_load_options none;
    pv_load_options_init(&none);
    pv_load_options_init(o);
    o->cache = true;
    pv_load_status st;
    pv_file *ref = pv_load_file(path, &none, &st);
    assert_int_equal(st, PV_LOAD_OK);
    pv_file_free(pv_load_file(path, o, &st)); /* a miss: the entries written */
    assert_int_equal(st, PV_LOAD_OK);
    return ref;
}

/* Where the columns of the winIDEA index's entry stand: after the head
 * (wic_head in src/formats/winidea/cache.c: its counts at 40..., the
 * widths of its columns at 216..., 272 bytes) the per-event columns (area,
 * context, depth), the per-call ones (entry, exit, parent, gross), the net
 * time, context and line arrays, each padded, then the areas. */
typedef struct index_layout {
    uint64_t events, contexts, calls;
    uint32_t context_wide;
    size_t context, entry, exit, parent; /* where each column starts */
    size_t areas;
} index_layout;

static index_layout index_layout_of(const unsigned char *m, size_t payload)
{
    index_layout l;
    const unsigned char *h = m + payload;
    uint64_t head, lines, net;
    uint32_t area_wide, depth_wide, has_gross, has_net_bits;
    memcpy(&head, h + 32, 8);
    assert_int_equal(head, 272);
    memcpy(&l.events, h + 40, 8);
    memcpy(&l.contexts, h + 56, 8);
    memcpy(&l.calls, h + 64, 8);
    memcpy(&lines, h + 72, 8);
    memcpy(&area_wide, h + 216, 4);
    memcpy(&l.context_wide, h + 220, 4);
    memcpy(&depth_wide, h + 224, 4);
    memcpy(&has_gross, h + 228, 4);
    memcpy(&has_net_bits, h + 232, 4);
    memcpy(&net, h + 240, 8);
    uint64_t words = has_net_bits ? (l.calls + 63) / 64 : 0;
    size_t at = payload + pv_cache_padded(head);
    at += pv_cache_padded(l.events * (area_wide ? 4 : 2));
    l.context = at;
    at += pv_cache_padded(l.events * (l.context_wide ? 2 : 1));
    at += pv_cache_padded(l.events * (depth_wide ? 2 : 1));
    l.entry = at;
    l.exit = at + pv_cache_padded(l.calls * 4);
    l.parent = l.exit + pv_cache_padded(l.calls * 4);
    at += 3 * pv_cache_padded(l.calls * 4);
    at += pv_cache_padded(has_gross ? l.calls * 8 : 0);
    at += pv_cache_padded(words * 8) + pv_cache_padded(words * 4) + pv_cache_padded(net * 8);
    at += pv_cache_padded((l.contexts + 1) * sizeof(size_t));
    at += pv_cache_padded(lines * 4) + pv_cache_padded(lines * 8);
    l.areas = at;
    return l;
}

/* Where area 0's `implicit` flag stands in the winIDEA index's entry. */
static size_t index_area_flag(const unsigned char *m, size_t payload)
{
    return index_layout_of(m, payload).areas + offsetof(pv_tl_area, implicit);
}

/* A forged index entry whose per-event or per-call column points out of
 * range by one (docs/cache.md "Trust"; each check is a reduction over the
 * whole column): the last event's context the context count, the last
 * call's entry or exit the event count, its parent itself. Each is
 * refused: the rows are those of a load without the cache and the entry is
 * written again (the forged word is gone). */
static void test_forged_columns_refused(void **state)
{
    (void)state;
    char path[600];
    pv_load_options o;
    pv_load_status st;
    pv_file *ref = cached_copy("rtos-cols.txt", path, sizeof path, &o);
    static const char *const views[] = {"timeline", "call-trace", "statistics", "contexts"};
    for (int what = 0; what < 4; what++) {
        char entry[700];
        long size;
        size_t payload;
        unsigned char *m = forge_read("winidea-[0-9a-f]*.pvc", entry, sizeof entry, &size, &payload);
        index_layout l = index_layout_of(m, payload);
        assert_true(l.events > 0 && l.calls > 1 && l.contexts > 0 && !l.context_wide);
        size_t at;
        uint32_t word;
        size_t len = 4;
        switch (what) {
        case 0: /* the last event's context: one past the last context */
            at = l.context + l.events - 1;
            word = (uint32_t)l.contexts;
            len = 1;
            break;
        case 1: at = l.entry + (l.calls - 1) * 4, word = (uint32_t)l.events; break;
        case 2: at = l.exit + (l.calls - 1) * 4, word = (uint32_t)l.events; break;
        default: at = l.parent + (l.calls - 1) * 4, word = (uint32_t)(l.calls - 1); break;
        }
        memcpy(m + at, &word, len);
        forge_write(entry, m, size);
        pv_file *f = pv_load_file(path, &o, &st);
        assert_int_equal(st, PV_LOAD_OK);
        for (size_t i = 0; i < PV_ARRAY_LEN(views); i++)
            assert_same_view(ref, f, views[i]);
        pv_file_free(f);
        m = forge_read("winidea-[0-9a-f]*.pvc", entry, sizeof entry, &size, &payload);
        assert_memory_not_equal(m + at, &word, len); /* refused, written again */
        free(m);
    }
    pv_file_free(ref);
}

/* A forged bool (docs/cache.md "Trust"): a byte other than 0 or 1 where an
 * entry holds a bool (read as a bool it is undefined) makes the entry
 * refused, in the winIDEA index's entry (an area's `implicit`) and in a
 * Text1 entry (an area's `has_value`): the file is read again, the entry
 * written again (the byte is 0 or 1 again), the rows those of a load
 * without the cache. */
static void test_forged_bool_refused(void **state)
{
    (void)state;
    char path[600];
    pv_load_options o;
    pv_load_status st;
    pv_file *ref = cached_copy("rtos-bool.txt", path, sizeof path, &o);
    static const char *const views[] = {"timeline", "call-trace", "statistics", "routines",
                                        "data"};

    /* the index's entry: area 0's `implicit` made 2 */
    char entry[700];
    long size;
    size_t payload;
    unsigned char *m = forge_read("winidea-[0-9a-f]*.pvc", entry, sizeof entry, &size, &payload);
    size_t flag = index_area_flag(m, payload);
    assert_true(m[flag] <= 1);
    m[flag] = 2;
    forge_write(entry, m, size);
    pv_file *f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    for (size_t i = 0; i < PV_ARRAY_LEN(views); i++)
        assert_same_view(ref, f, views[i]);
    pv_file_free(f);
    assert_true(entry_byte("winidea-[0-9a-f]*.pvc", flag) <= 1); /* refused, written again */

    /* the Text1 entry: area 0's `has_value` made 2 */
    size_t parses = pv_wi_text1_parse_count();
    m = forge_read("winidea-text1-*.pvc", entry, sizeof entry, &size, &payload);
    uint64_t head, pool, contexts;
    memcpy(&head, m + payload + 24, 8); /* the head's own size (sizes[3]) */
    memcpy(&pool, m + payload + 32, 8);
    memcpy(&contexts, m + payload + 40, 8);
    flag = payload + pv_cache_padded(head) + pv_cache_padded(pool) +
           pv_cache_padded(contexts * sizeof(pv_wi_context)) + offsetof(pv_wi_area, has_value);
    assert_true(m[flag] <= 1);
    m[flag] = 2;
    forge_write(entry, m, size);
    f = pv_load_file(path, &o, &st);
    assert_int_equal(st, PV_LOAD_OK);
    assert_int_equal(pv_wi_text1_parse_count(), parses + 1); /* refused: parsed */
    for (size_t i = 0; i < PV_ARRAY_LEN(views); i++)
        assert_same_view(ref, f, views[i]);
    pv_file_free(f);
    assert_true(entry_byte("winidea-text1-*.pvc", flag) <= 1);
    pv_file_free(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_sees_every_bit),
        cmocka_unit_test(test_round_trip_and_rejections),
        cmocka_unit_test(test_checksum_chunks),
        cmocka_unit_test(test_unusable_input),
        cmocka_unit_test(test_untrusted_directory),
        cmocka_unit_test(test_forged_index_entry),
        cmocka_unit_test(test_text1_hit_parses_nothing),
        cmocka_unit_test(test_forged_bool_refused),
        cmocka_unit_test(test_forged_columns_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
