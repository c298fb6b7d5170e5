/* Unit tests for the viewer's text (src/tui/text.c): escaping names for the
 * terminal, a grid that never holds control characters, cut and wrapped
 * text, progress rates and the OSC 52 copy sequence. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tui_fixture.h"

#include "profview/hooks.h"
#include "profview/load.h"
#include "profview/table.h"
#include "tui/text.h"

static char *escaped(const char *s, size_t len, bool utf8)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_text_escape(&b, s, len, utf8);
    pv_buf_puts(&b, "");
    return b.data;
}

static void test_escape(void **state)
{
    (void)state;
    if (!setlocale(LC_ALL, "C.UTF-8"))
        skip();
    char *e = escaped("a\x1b[2Jb\tc\x7f", 9, true);
    assert_string_equal(e, "a\\x1B[2Jb\\x09c\\x7F");
    free(e);
    e = escaped("caf\xc3\xa9", 5, true); /* valid UTF-8 stays */
    assert_string_equal(e, "caf\xc3\xa9");
    free(e);
    e = escaped("caf\xc3\xa9", 5, false); /* a non-UTF-8 terminal gets escapes */
    assert_string_equal(e, "caf\\xC3\\xA9");
    free(e);
    e = escaped("bad\xff\xc3(", 6, true); /* invalid UTF-8 */
    assert_string_equal(e, "bad\\xFF\\xC3(");
    free(e);
    e = escaped("\xc2\x9b"
                "31m",
                5, true); /* C1 CSI */
    assert_string_equal(e, "\\u009B31m");
    free(e);
    e = escaped("\xe2\x80\xae"
                "evil",
                7, true); /* bidi override */
    assert_string_equal(e, "\\u202Eevil");
    free(e);
    e = escaped("\xed\xa0\x80", 3, true); /* a surrogate is not UTF-8 */
    assert_string_equal(e, "\\xED\\xA0\\x80");
    free(e);
    e = escaped("nul\0x", 5, true);
    assert_string_equal(e, "nul\\x00x");
    free(e);
    assert_int_equal(pv_text_width("a\x1b", 2, true), 5);
    assert_int_equal(pv_text_width("\xe6\xbc\xa2", 3, true), 2); /* wide CJK */
    setlocale(LC_ALL, "C");
}

/* Whatever bytes a name holds, the grid holds only printable characters. */
static void test_grid_never_holds_controls(void **state)
{
    (void)state;
    pv_grid g;
    pv_grid_init(&g, true);
    pv_grid_resize(&g, 40, 2);
    char bytes[256];
    for (int i = 0; i < 256; i++)
        bytes[i] = (char)i;
    pv_grid_text(&g, 0, 0, 40, bytes, sizeof bytes, PV_ROLE_NORMAL);
    pv_grid_text(&g, 1, 0, 40, bytes + 120, 136, PV_ROLE_NORMAL);
    for (int i = 0; i < 80; i++) {
        uint32_t c = g.cells[i].ch;
        assert_true(c == 0 || (c >= 0x20 && c != 0x7f && (c < 0x80 || c >= 0xa0)));
    }
    pv_grid_free(&g);
}

/* Cut text (docs/tui.md "Cut text"): whole when it fits, else a mark where
 * it was cut; a path keeps its file name, a kept tail (a count) stays, and
 * the result never takes more columns than given, wide characters too. */
static void cut_is(const char *s, size_t keep, int w, pv_cut_mode mode, bool fancy, const char *want)
{
    pv_buf out;
    pv_buf_init(&out);
    int used = pv_text_cut(&out, s, strlen(s), keep, w, mode, true, fancy);
    assert_string_equal(pv_buf_cstr(&out), want);
    assert_int_equal(used, (int)pv_text_width(out.data ? out.data : "", out.len, true));
    if (used > (w > 0 ? w : 0))
        fprintf(stderr, "cut %s to %d: %s (%d)\n", s, w, pv_buf_cstr(&out), used);
    assert_true(used <= (w > 0 ? w : 0));
    pv_buf_free(&out);
}

static void test_text_cut_and_wrap(void **state)
{
    (void)state;
    /* the widths of UTF-8 characters are the locale's (wcwidth) */
    char *saved = pv_xstrdup(setlocale(LC_CTYPE, NULL));
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "en_US.UTF-8")) {
        free(saved);
        skip();
    }
    cut_is("rtos.txt", 0, 8, PV_CUT_END, true, "rtos.txt");
    cut_is("Statistics (as exported)", 0, 10, PV_CUT_END, true, "Statistic\xe2\x80\xa6");
    cut_is("Statistics (as exported)", 0, 10, PV_CUT_END, false, "Statistic>");
    cut_is("Statistics (as exported) (56)", 5, 16, PV_CUT_MIDDLE, true,
           "Stati\xe2\x80\xa6rted) (56)");
    cut_is("Statistics (as exported) (56)", 5, 16, PV_CUT_MIDDLE, false, "Stati~rted) (56)");
    cut_is("/work/tmp/deep/trunc_pair.txt.BIN", 0, 26, PV_CUT_AUTO, true,
           "/work/\xe2\x80\xa6/trunc_pair.txt.BIN");
    cut_is("/work/tmp/deep/trunc_pair.txt.BIN", 0, 19, PV_CUT_AUTO, true,
           "\xe2\x80\xa6trunc_pair.txt.BIN");
    cut_is("/work/tmp/deep/trunc_pair.txt.BIN", 0, 8, PV_CUT_AUTO, true,
           "trunc_p\xe2\x80\xa6");
    cut_is("C:\\src\\demo app\\view.obj", 0, 16, PV_CUT_AUTO, false, "C:\\src~\\view.obj");
    cut_is("a name with / in it", 0, 10, PV_CUT_AUTO, true, "a name wi\xe2\x80\xa6"); /* not a path */
    cut_is("operator/", 0, 5, PV_CUT_AUTO, true, "oper\xe2\x80\xa6");
    cut_is("anything", 3, 1, PV_CUT_END, true, "\xe2\x80\xa6");
    cut_is("anything", 0, 0, PV_CUT_END, true, "");
    cut_is("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 0, 4, PV_CUT_END, true, "\xe6\x97\xa5\xe2\x80\xa6");
    cut_is("bad\x01name", 0, 20, PV_CUT_END, true, "bad\\x01name"); /* escaped, whole */

    const char *m = "unknown column 'x' at column 1; columns: id, routine, module";
    pv_text_line l[8];
    size_t n = pv_text_wrap(m, strlen(m), 20, true, l, 8);
    assert_int_equal(n, 4);
    assert_int_equal((int)l[0].len, 18); /* "unknown column 'x'": at a blank */
    assert_memory_equal(m + l[1].off, "at column 1;", 12);
    for (size_t i = 0; i < n; i++)
        assert_true(pv_text_width(m + l[i].off, l[i].len, true) <= 20);
    n = pv_text_wrap("averyveryverylongword", 21, 8, true, l, 8); /* cut where it must */
    assert_int_equal(n, 3);
    assert_int_equal((int)l[0].len, 8);
    n = pv_text_wrap("one\ntwo", 7, 80, true, l, 8);
    assert_int_equal(n, 2);
    assert_int_equal((int)l[1].off, 4);
    setlocale(LC_CTYPE, saved);
    free(saved);
}

/* Progress rates: nothing until known, then human units and a readable ETA. */
static void test_rate_text(void **state)
{
    (void)state;
    struct {
        double done, total, elapsed;
        const char *unit, *want;
    } cases[] = {
        {1000, 50e6, 0.1, " events", ""},            /* too early: not known */
        {1000, 50e6, 2.0, " events", ""},            /* less than 1 % done */
        {3.6e6, 10.8e6, 1.0, " events", " 3.6 M events/s ETA 2.0 s"},
        {357462982, 714925964, 1.0, "", " 357 M/s ETA 1.0 s"},
        {5e5, 5e7, 1.0, " rows", " 500 k rows/s ETA 1 min 39 s"},
        {1e8, 1e10, 100.0, "", " 1.0 M/s ETA 2 h 45 min"},
        {999, 999, 1.0, "", " 999/s"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pv_buf b;
        pv_buf_init(&b);
        pv_text_rate(&b, cases[i].done, cases[i].total, cases[i].elapsed, cases[i].unit);
        assert_string_equal(pv_buf_cstr(&b), cases[i].want);
        pv_buf_free(&b);
    }
}

/* OSC 52: base64 of the text (RFC 4648 padding), BEL-terminated; for GNU
 * screen the same sequence cut into DCS pieces of at most 76 bytes. */
static void test_osc52_sequence(void **state)
{
    (void)state;
    pv_buf b;
    pv_buf_init(&b);
    pv_osc52_sequence("hello", 5, false, &b);
    assert_string_equal(pv_buf_cstr(&b), "\033]52;c;aGVsbG8=\a");
    pv_buf_clear(&b);
    pv_osc52_sequence("a\x1b]2;x\a", 7, false, &b);
    assert_string_equal(pv_buf_cstr(&b), "\033]52;c;YRtdMjt4Bw==\a");
    assert_null(memchr(b.data + 1, 0x1b, b.len - 1)); /* only the introducer */
    pv_buf_clear(&b);
    pv_osc52_sequence("", 0, false, &b);
    assert_string_equal(pv_buf_cstr(&b), "\033]52;c;\a");
    /* screen: pieces, which put together are the plain sequence */
    char text[200];
    memset(text, 'x', sizeof text);
    pv_buf plain;
    pv_buf_init(&plain);
    pv_osc52_sequence(text, sizeof text, false, &plain);
    pv_buf_clear(&b);
    pv_osc52_sequence(text, sizeof text, true, &b);
    pv_buf joined;
    pv_buf_init(&joined);
    const char *p = pv_buf_cstr(&b);
    size_t pieces = 0;
    while (*p) {
        assert_memory_equal(p, "\033P", 2);
        const char *end = strstr(p + 2, "\033\\");
        assert_non_null(end);
        assert_true(end - (p + 2) <= 76);
        pv_buf_append(&joined, p + 2, (size_t)(end - (p + 2)));
        p = end + 2;
        pieces++;
    }
    assert_true(pieces > 1);
    assert_string_equal(pv_buf_cstr(&joined), pv_buf_cstr(&plain));
    pv_buf_free(&joined);
    pv_buf_free(&plain);
    pv_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_grid_never_holds_controls),
        cmocka_unit_test(test_rate_text),
        cmocka_unit_test(test_text_cut_and_wrap),
        cmocka_unit_test(test_osc52_sequence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
