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

#include "profview/cache.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_sees_every_bit),
        cmocka_unit_test(test_round_trip_and_rejections),
        cmocka_unit_test(test_unusable_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
