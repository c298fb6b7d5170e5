/* Unit tests for the viewer's themes (src/tui/theme.c): the shipped theme
 * files, styles, bad theme files (named with file and line) and lookup. */
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

#include "tui_fixture.h"

#include "profview/hooks.h"
#include "profview/load.h"
#include "profview/table.h"
#include "tui/theme.h"

static char *read_source_file(const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PV_SOURCE_DIR, rel);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    char *buf = pv_xmalloc(1 << 16);
    *len = fread(buf, 1, (1 << 16) - 1, fp);
    buf[*len] = '\0';
    fclose(fp);
    return buf;
}

static void test_theme_files(void **state)
{
    (void)state;
    static const char *const names[] = {"default", "light", "monochrome", "high-contrast"};
    pv_theme builtin;
    pv_theme_builtin(&builtin);
    assert_string_equal(builtin.name, "default");
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "themes/%s.yaml", names[i]);
        size_t len;
        char *text = read_source_file(rel, &len);
        pv_theme t;
        pv_theme_builtin(&t);
        memset(t.roles, 0x55, sizeof t.roles);
        pv_buf err;
        pv_buf_init(&err);
        assert_true(pv_theme_parse(&t, text, len, rel, &err));
        assert_string_equal(t.name, names[i]);
        /* Every role is given by every theme file. */
        for (size_t r = 0; r < PV_ROLE_COUNT; r++)
            assert_true(t.roles[r].fg >= -1 && t.roles[r].fg < 256);
        if (i == 0)
            assert_memory_equal(t.roles, builtin.roles, sizeof t.roles);
        if (strcmp(names[i], "monochrome") == 0)
            for (size_t r = 0; r < PV_ROLE_COUNT; r++)
                assert_true(t.roles[r].fg == PV_COLOR_DEFAULT && t.roles[r].bg == PV_COLOR_DEFAULT);
        pv_buf_free(&err);
        free(text);
    }
}

static void test_theme_styles(void **state)
{
    (void)state;
    pv_style s;
    char why[128];
    assert_true(pv_style_parse("bright-white on blue bold", &s, why, sizeof why));
    assert_int_equal(s.fg, 15);
    assert_int_equal(s.bg, 4);
    assert_int_equal(s.attrs, PV_ATTR_BOLD);
    assert_true(pv_style_parse("default reverse underline", &s, why, sizeof why));
    assert_int_equal(s.fg, PV_COLOR_DEFAULT);
    assert_int_equal(s.attrs, PV_ATTR_REVERSE | PV_ATTR_UNDERLINE);
    assert_true(pv_style_parse("208 on 17", &s, why, sizeof why));
    assert_int_equal(s.fg, 208);
    assert_false(pv_style_parse("purple", &s, why, sizeof why));
    assert_non_null(strstr(why, "'purple'"));
    assert_false(pv_style_parse("red on", &s, why, sizeof why));
    assert_false(pv_style_parse("256", &s, why, sizeof why));
    /* Fallback: 256 colours to 16 and 8; bright to plain on 8 colours. */
    assert_int_equal(pv_color_fallback(208, 256), 208);
    assert_int_equal(pv_color_fallback(196, 16), 9);
    assert_int_equal(pv_color_fallback(196, 8), 1);
    assert_int_equal(pv_color_fallback(12, 8), 4);
    assert_int_equal(pv_color_fallback(8, 8), 7);
    assert_int_equal(pv_color_fallback(PV_COLOR_DEFAULT, 8), PV_COLOR_DEFAULT);
}

static void test_bad_theme_names_file_and_line(void **state)
{
    (void)state;
    static const char bad[] = "name: broken\n"
                              "roles:\n"
                              "  normal: white\n"
                              "  selected: black on mauve\n"
                              "  sparkle: red\n";
    pv_theme t;
    pv_theme_builtin(&t);
    pv_theme before = t;
    pv_buf err;
    pv_buf_init(&err);
    assert_false(pv_theme_parse(&t, bad, sizeof bad - 1, "themes/broken.yaml", &err));
    const char *e = pv_buf_cstr(&err);
    assert_non_null(strstr(
        e,
        "themes/broken.yaml:4:13: role 'selected': 'on' needs a background colour, got 'mauve'"));
    assert_non_null(strstr(e, "themes/broken.yaml:5:3: unknown colour role 'sparkle'"));
    /* Nothing of a bad theme is used. */
    assert_memory_equal(&t, &before, sizeof t);
    pv_buf_clear(&err);
    static const char syntax[] = "roles:\n  normal: [white\n";
    assert_false(pv_theme_parse(&t, syntax, sizeof syntax - 1, "x.yaml", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "x.yaml:3:"));
    pv_buf_free(&err);
}

static void test_theme_lookup(void **state)
{
    (void)state;
    /* A user's theme directory comes first, then the source tree's. */
    char dir[] = "/tmp/pv-theme-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/profview", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/profview/themes", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/profview/themes/mine.yaml", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("name: mine\nroles:\n  normal: green on black\n", fp);
    fclose(fp);
    snprintf(path, sizeof path, "%s/profview/themes/bad.yaml", dir);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("name: bad\nroles:\n  normal: green on black\n  header: glitter\n", fp);
    fclose(fp);
    setenv("XDG_CONFIG_HOME", dir, 1);
    pv_theme t;
    pv_buf err;
    pv_buf_init(&err);
    assert_true(pv_theme_load(&t, "mine", &err));
    assert_string_equal(t.name, "mine");
    assert_int_equal(t.roles[PV_ROLE_NORMAL].fg, 2);
    assert_true(pv_theme_load(&t, "light", &err)); /* from the source tree */
    assert_string_equal(t.name, "light");
    assert_false(pv_theme_load(&t, "bad", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "/profview/themes/bad.yaml:4:11: role 'header'"));
    assert_string_equal(t.name, "default"); /* defaults used */
    pv_buf_clear(&err);
    assert_false(pv_theme_load(&t, "no-such-theme", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "theme 'no-such-theme' not found"));
    unlink(path);
    snprintf(path, sizeof path, "%s/profview/themes/mine.yaml", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/profview/themes", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/profview", dir);
    rmdir(path);
    rmdir(dir);
    unsetenv("XDG_CONFIG_HOME");
    pv_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_theme_files),
        cmocka_unit_test(test_theme_styles),
        cmocka_unit_test(test_bad_theme_names_file_and_line),
        cmocka_unit_test(test_theme_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
