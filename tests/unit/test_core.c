/* Unit tests for src/core: time units, numbers, buffers, pool, hash map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "profview/core.h"

/* SQL identifiers are quoted with `"` doubled; the immutable URI encodes
 * every byte that could end the path or start a query (` `, `?`, `#`, `%`). */
static void test_sql_ident_and_uri(void **state)
{
    (void)state;
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_put_sql_ident(&b, "a\"b c");
    assert_string_equal(b.data, "\"a\"\"b c\"");
    pv_buf_clear(&b);
    pv_buf_put_immutable_uri(&b, "/tmp/x y?#%.db");
    assert_string_equal(b.data, "file:/tmp/x%20y%3F%23%25.db?immutable=1");
    pv_buf_free(&b);
}

static void test_parse_time_units(void **state)
{
    (void)state;
    int64_t ns;
    assert_true(pv_parse_time("4469", &ns));
    assert_int_equal(ns, 4469);
    assert_true(pv_parse_time("4.469us", &ns));
    assert_int_equal(ns, 4469);
    assert_true(pv_parse_time("12ms", &ns));
    assert_int_equal(ns, 12000000);
    assert_true(pv_parse_time("1.5s", &ns));
    assert_int_equal(ns, 1500000000);
    assert_true(pv_parse_time("7ns", &ns));
    assert_int_equal(ns, 7);
    assert_true(pv_parse_time("0.000000001s", &ns));
    assert_int_equal(ns, 1);
    assert_true(pv_parse_time("-2us", &ns));
    assert_int_equal(ns, -2000);
    assert_true(pv_parse_time("9223372036854775807", &ns));
    assert_int_equal(ns, INT64_MAX);
}

static void test_parse_time_rejects(void **state)
{
    (void)state;
    int64_t ns = 42;
    assert_false(pv_parse_time("", &ns));
    assert_false(pv_parse_time("ms", &ns));
    assert_false(pv_parse_time("1.5", &ns));      /* finer than 1 ns */
    assert_false(pv_parse_time("12 parsecs", &ns));
    assert_false(pv_parse_time("9223372036854775808", &ns));
    assert_false(pv_parse_time("99999999999s", &ns));
    assert_int_equal(ns, 42);
}

static void test_parse_numbers(void **state)
{
    (void)state;
    int64_t i;
    uint64_t u;
    assert_true(pv_parse_int64("-9223372036854775808", 20, &i));
    assert_true(i == INT64_MIN);
    assert_false(pv_parse_int64("12a", 3, &i));
    assert_false(pv_parse_int64("-", 1, &i));
    assert_true(pv_parse_hex64("1000000D", 8, &u));
    assert_true(u == 0x1000000D);
    assert_true(pv_parse_hex64("0xff", 4, &u));
    assert_true(u == 255);
    assert_false(pv_parse_hex64("0x", 2, &u));
    assert_false(pv_parse_hex64("12G4", 4, &u));
    assert_false(pv_parse_hex64("11112222333344445", 17, &u));
}

static void test_format_time_human(void **state)
{
    (void)state;
    char out[32];
    pv_format_time_human(1234567, PV_UNIT_AUTO, out, sizeof out);
    assert_string_equal(out, "1.234 ms");
    pv_format_time_human(999, PV_UNIT_AUTO, out, sizeof out);
    assert_string_equal(out, "999 ns");
    pv_format_time_human(0, PV_UNIT_AUTO, out, sizeof out);
    assert_string_equal(out, "0");
    pv_format_time_human(-4469, PV_UNIT_US, out, sizeof out);
    assert_string_equal(out, "-4.469 us");
    pv_format_time_human(INT64_MIN, PV_UNIT_S, out, sizeof out);
    assert_string_equal(out, "-9223372036.854 s");
}

static void test_buf_and_escape(void **state)
{
    (void)state;
    pv_buf b;
    pv_buf_init(&b);
    assert_string_equal(pv_buf_cstr(&b), "");
    for (int i = 0; i < 1000; i++)
        pv_buf_printf(&b, "%d,", i);
    assert_int_equal(b.len, strlen(b.data));
    assert_memory_equal(b.data, "0,1,2,", 6);
    pv_buf_clear(&b);
    pv_escape_controls(&b, "a\x1b[31mb\x7f", 8);
    assert_string_equal(pv_buf_cstr(&b), "a\\x1B[31mb\\x7F");
    pv_buf_free(&b);
}

static void test_strpool(void **state)
{
    (void)state;
    pv_strpool p;
    pv_strpool_init(&p);
    uint32_t empty = pv_strpool_add(&p, "", 0);
    uint32_t a = pv_strpool_add(&p, "main", 4);
    uint32_t b = pv_strpool_add(&p, "otm(a, b);", 10);
    assert_string_equal(pv_strpool_get(&p, empty), "");
    assert_string_equal(pv_strpool_get(&p, a), "main");
    assert_string_equal(pv_strpool_get(&p, b), "otm(a, b);");
    assert_string_equal(pv_strpool_get(&p, 1u << 30), "");
    pv_strpool_free(&p);
}

static void test_hashmap(void **state)
{
    (void)state;
    pv_hashmap m;
    pv_hashmap_init(&m);
    uint32_t v;
    assert_false(pv_hashmap_get(&m, 1, &v));
    for (uint32_t i = 0; i < 10000; i++)
        pv_hashmap_put(&m, (uint64_t)i * 0x10000001u, i);
    pv_hashmap_put(&m, 0x10000001u * 7, 70);
    assert_int_equal(m.count, 10000);
    assert_true(pv_hashmap_get(&m, 0x10000001u * 7, &v));
    assert_int_equal(v, 70);
    assert_true(pv_hashmap_get(&m, (uint64_t)9999 * 0x10000001u, &v));
    assert_int_equal(v, 9999);
    assert_false(pv_hashmap_get(&m, 3, &v));
    pv_hashmap_free(&m);
}

static void test_diag_keeps_errors_and_counts_all(void **state)
{
    (void)state;
    pv_diag d;
    pv_diag_init(&d);
    for (int i = 0; i < PV_DIAG_KEEP + 50; i++)
        pv_warn(&d, "f.txt:%d: bad", i + 1);
    pv_error(&d, "f.txt:999: fatal");
    assert_int_equal(d.warnings, PV_DIAG_KEEP + 50);
    assert_int_equal(d.errors, 1);
    assert_int_equal(d.entry_count, PV_DIAG_KEEP + 1);
    assert_string_equal(d.entries[d.entry_count - 1].text, "f.txt:999: fatal");
    pv_diag_free(&d);
}

/* A pipe is read once, whole; every later reader gets that copy (by the
 * same name, and by another name of the same pipe); SQLite's temporary copy
 * is private and removed (docs/input.md). */
static void test_stream_input_read_once(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    static const char text[] = "first line\nsecond line\n";
    assert_int_equal(write(fds[1], text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fds[1]);
    char name[32], other[40];
    snprintf(name, sizeof name, "/dev/fd/%d", fds[0]);
    snprintf(other, sizeof other, "/proc/self/fd/%d", fds[0]);

    pv_mapped_file a, b, c;
    assert_int_equal(pv_input_capture(name, &a, NULL), 0);
    assert_int_equal(a.size, sizeof text - 1);
    assert_memory_equal(a.data, text, a.size);
    assert_true(pv_input_is_stream(name));
    /* The pipe is empty now: a second read would give nothing. */
    assert_int_equal(pv_map_file(name, &b), 0);
    assert_ptr_equal(b.data, a.data);
    assert_int_equal(b.size, a.size);
    pv_unmap_file(&b); /* borrowed: the copy stays */
    assert_int_equal(pv_map_file(other, &c), 0);
    assert_ptr_equal(c.data, a.data);
    pv_unmap_file(&c);
    assert_int_equal(pv_input_capture(name, &b, NULL), 0);
    assert_ptr_equal(b.data, a.data);

    char *tmp;
    assert_int_equal(pv_input_temp_copy(name, &tmp), 0);
    assert_non_null(tmp);
    struct stat st;
    assert_int_equal(stat(tmp, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal((size_t)st.st_size, sizeof text - 1);
    char *keep = pv_xstrdup(tmp);
    pv_input_remove_temp(tmp);
    assert_int_not_equal(stat(keep, &st), 0);
    free(keep);
    close(fds[0]);

    /* A regular file is no stream: mapped as it is, no temporary copy. */
    const char *regular = PV_SOURCE_DIR "/sample-data/rtos.txt";
    assert_int_equal(pv_input_capture(regular, &a, NULL), ENOTSUP);
    assert_false(pv_input_is_stream(regular));
    assert_int_equal(pv_input_temp_copy(regular, &tmp), 0);
    assert_null(tmp);
    assert_string_equal(pv_input_path("-"), "/dev/stdin");
    assert_string_equal(pv_input_path("a.txt"), "a.txt");
}

/* Times with one unit and as many digits as asked, grouped by three. */
static void test_time_precise(void **state)
{
    (void)state;
    struct {
        int64_t ns;
        pv_time_unit unit;
        int decimals;
        const char *want;
    } cases[] = {
        {5551097450, PV_UNIT_S, 9, "5.551 097 450 s"},
        {5551097450, PV_UNIT_NS, 0, "5 551 097 450 ns"},
        {5551097450, PV_UNIT_S, 6, "5.551 097 s"},
        {2999999999, PV_UNIT_S, 3, "2.999 s"}, /* truncated, as the human format */
        {2999999999, PV_UNIT_S, 9, "2.999 999 999 s"},
        {-1500, PV_UNIT_US, 3, "-1.500 us"},
        {1234567, PV_UNIT_MS, 9, "1.234 567 ms"}, /* at most the unit's digits */
        {1234567, PV_UNIT_AUTO, 6, "1.234 567 ms"},
        {999, PV_UNIT_NS, 3, "999 ns"},
        {12345, PV_UNIT_NS, 0, "12 345 ns"},
        {INT64_MIN, PV_UNIT_S, 9, "-9 223 372 036.854 775 808 s"},
    };
    char out[96];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pv_format_time_precise(cases[i].ns, cases[i].unit, cases[i].decimals, out, sizeof out);
        assert_string_equal(out, cases[i].want);
    }
    assert_int_equal(pv_time_unit_for(999), PV_UNIT_NS);
    assert_int_equal(pv_time_unit_for(1000), PV_UNIT_US);
    assert_int_equal(pv_time_unit_for(-5000000000), PV_UNIT_S);
}

/* A time with every significant digit (B-A, docs/tui.md "Times"): the
 * fewest of 3, 6, 9 decimals that lose nothing. */
static void test_time_exact(void **state)
{
    (void)state;
    struct {
        int64_t ns;
        pv_time_unit unit;
        const char *want;
    } cases[] = {
        {1999769, PV_UNIT_AUTO, "1.999 769 ms"}, /* not 1.999 ms */
        {2000000, PV_UNIT_AUTO, "2.000 ms"},
        {1999700, PV_UNIT_AUTO, "1.999 700 ms"},
        {5551097450, PV_UNIT_AUTO, "5.551 097 450 s"},
        {5551000000, PV_UNIT_AUTO, "5.551 s"},
        {-1500, PV_UNIT_AUTO, "-1.500 us"},
        {12, PV_UNIT_AUTO, "12 ns"},
        {0, PV_UNIT_AUTO, "0 ns"},
        {1999769, PV_UNIT_S, "0.001 999 769 s"},
        {1999769, PV_UNIT_NS, "1 999 769 ns"},
    };
    char out[96];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pv_format_time_exact(cases[i].ns, cases[i].unit, out, sizeof out);
        assert_string_equal(out, cases[i].want);
    }
}

/* The trash gives big blocks back in steps of about the bytes asked for,
 * oldest first, and frees small ones at once; what is left at the end is
 * freed by pv_trash_free (the sanitizer build checks that nothing leaks). */
/* pv_u32_lower_bound and pv_u32_find against the one-at-a-time answer:
 * every key in and around the values, every range [lo, hi) of a list
 * longer than two blocks of 32 (the block loop, its break, the tail). */
static void test_u32_search(void **state)
{
    (void)state;
    enum { N = 100 };
    uint32_t asc[N], any[N];
    for (size_t i = 0; i < N; i++) {
        asc[i] = (uint32_t)(i / 3 * 2 + 1); /* ascending, each value three times, gaps */
        any[i] = (uint32_t)((i * 37 + 11) % 53);
    }
    for (size_t lo = 0; lo <= N; lo += 7)
        for (size_t hi = lo; hi <= N; hi += (hi < lo + 70 ? 1 : 13))
            for (uint32_t key = 0; key < 70; key++) {
                size_t want = lo;
                while (want < hi && asc[want] < key)
                    want++;
                assert_int_equal(pv_u32_lower_bound(asc, lo, hi, key), want);
                want = lo;
                while (want < hi && any[want] != key)
                    want++;
                assert_int_equal(pv_u32_find(any, lo, hi, key), want);
            }
}

static void test_trash_steps(void **state)
{
    (void)state;
    pv_trash t = {0};
    assert_true(pv_trash_empty(&t));
    pv_trash_add(&t, pv_xmalloc(100), 100); /* small: freed now */
    assert_true(pv_trash_empty(&t));
    pv_trash_add(&t, NULL, 0);
    assert_true(pv_trash_empty(&t));
    size_t big = 3 * (size_t)PV_TRASH_AT_ONCE;
    char *a = pv_xmalloc(big), *b = pv_xmalloc(big);
    memset(a, 1, big);
    memset(b, 2, big);
    pv_trash_add(&t, a, big);
    pv_trash_add(&t, b, big);
    assert_int_equal(t.count, 2);
    size_t steps = 0;
    while (!pv_trash_step(&t, PV_TRASH_AT_ONCE)) {
        steps++;
        assert_true(t.count >= 1);
        assert_true(t.count == 2 || t.blocks[0].p == b); /* oldest first */
    }
    assert_int_equal(steps, 5); /* 6 steps of a third of a block each */
    assert_true(pv_trash_empty(&t));
    pv_trash_add(&t, pv_xmalloc(big), big);
    assert_false(pv_trash_step(&t, 4096)); /* a page: the block stays */
    pv_trash_free(&t);
    assert_true(pv_trash_empty(&t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sql_ident_and_uri),
        cmocka_unit_test(test_trash_steps),
        cmocka_unit_test(test_u32_search),
        cmocka_unit_test(test_parse_time_units),
        cmocka_unit_test(test_parse_time_rejects),
        cmocka_unit_test(test_parse_numbers),
        cmocka_unit_test(test_format_time_human),
        cmocka_unit_test(test_buf_and_escape),
        cmocka_unit_test(test_strpool),
        cmocka_unit_test(test_hashmap),
        cmocka_unit_test(test_diag_keeps_errors_and_counts_all),
        cmocka_unit_test(test_stream_input_read_once),
        cmocka_unit_test(test_time_precise),
        cmocka_unit_test(test_time_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
