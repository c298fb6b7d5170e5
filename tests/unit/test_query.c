/* Unit tests for src/query: the filter language of docs/filter.md over a
 * pv_table with a column of every type.  Expected row sets are worked out
 * by hand from the fixture below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profview/query.h"
#include "profview/table.h"

enum { C_ID, C_NAME, C_HITS, C_TIME, C_HANDLE, C_VALUE, C_PCT, C_MODULE, C_COUNT };

static const pv_column cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time", PV_TYPE_TIME, PV_COL_DESC},
    {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"value", "Value", PV_TYPE_HEX, 0},
    {"pct", "%", PV_TYPE_FLOAT, 0},
    {"module", "Module", PV_TYPE_STRING, 0},
};

/* One fixture row; NULL strings and value < 0 mean an absent cell. */
typedef struct fixture_row {
    const char *name;
    int64_t hits;
    int64_t time;
    uint64_t handle;
    int64_t value;
    double pct;
    const char *module;
} fixture_row;

static const fixture_row rows_data[] = {
    /* id 1 */ {"main", 1, 1500, 0x10000004u, 0x1A, 50.0, "app.exe"},
    /* id 2 */ {"OtmCompute", 2000, 2000000, 0x10000005u, 0x0, 12.5, "app.exe"},
    /* id 3 */ {"otm_helper", 1500, 999, 0x20000000u, 0xFF, 0.25, "lib.dll"},
    /* id 4 */ {"Wait", 3000000, 1000000000, 0x10000004u, -1, 99.9, "kernel"},
    /* id 5 */ {"wait", 0, 0, 0x0u, 0x1A, -1.5, NULL},
    /* id 6 */ {NULL, 7, 1500, 0x30000001u, 0x2, 1000.0, "app.exe"},
    /* id 7 */ {"a*b?c", 2000, 5000, 0x2000000Fu, 0x3, 7.0, "lib.dll"},
    /* id 8 */ {"Zeta zeta", 2000, 1500, 0x1000000Du, 0x10, 3.0, "kernel"},
};

static pv_view *make_flat(void)
{
    pv_table *t = pv_table_new("routines", "Routines", cols, C_COUNT);
    for (size_t i = 0; i < PV_ARRAY_LEN(rows_data); i++) {
        const fixture_row *d = &rows_data[i];
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, C_ID, (int64_t)i + 1);
        if (d->name)
            pv_table_set_cstr(t, r, C_NAME, d->name);
        pv_table_set_int(t, r, C_HITS, d->hits);
        pv_table_set_int(t, r, C_TIME, d->time);
        pv_table_set_uint(t, r, C_HANDLE, d->handle);
        if (d->value >= 0)
            pv_table_set_uint(t, r, C_VALUE, (uint64_t)d->value);
        pv_table_set_float(t, r, C_PCT, d->pct);
        if (d->module)
            pv_table_set_cstr(t, r, C_MODULE, d->module);
    }
    return pv_table_view(t);
}

/* The ids of the rows of `rows`, comma-separated. */
static const char *ids_of(const pv_view *v, const pv_row *rows, size_t n)
{
    static char text[512];
    text[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        pv_cell c;
        pv_view_cell(v, rows[i], C_ID, &c);
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%lld", i ? "," : "", (long long)c.v.i);
    }
    return text;
}

/* Filters the whole view and returns the ids of the kept rows; the
 * expression must compile. */
static const char *filter_ids(const pv_view *v, const char *expr)
{
    pv_query_error err;
    pv_filter *f = pv_filter_compile(v, expr, &err);
    if (!f)
        fail_msg("'%s' did not compile: %s", expr, err.message);
    pv_row rows[64];
    size_t n = pv_filter_rows(f, v, NULL, 0, rows, NULL);
    pv_filter_free(f);
    return ids_of(v, rows, n);
}

#define assert_filter(v, expr, expected) assert_string_equal(filter_ids((v), (expr)), (expected))

/* Compiles `expr`, which must fail, and returns the error. */
static pv_query_error filter_error(const pv_view *v, const char *expr)
{
    pv_query_error err;
    pv_filter *f = pv_filter_compile(v, expr, &err);
    if (f)
        fail_msg("'%s' compiled but should not", expr);
    assert_true(err.message[0] != '\0');
    return err;
}

static void assert_error_at(const pv_view *v, const char *expr, size_t position,
                            const char *message_part)
{
    pv_query_error err = filter_error(v, expr);
    if (err.position != position || !strstr(err.message, message_part))
        fail_msg("'%s': got position %zu '%s', expected %zu '%s'", expr, err.position, err.message,
                 position, message_part);
}

/* ---- precedence and associativity */

static void test_precedence(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    /* && binds tighter than ||: 1 || (2000 && lib.dll), not (1 || 2000) && lib.dll. */
    assert_filter(v, "hits = 1 || hits = 2000 && module = \"lib.dll\"", "1,7");
    assert_filter(v, "hits = 2000 && module = \"lib.dll\" || hits = 1", "1,7");
    assert_filter(v, "(hits = 1 || hits = 2000) && module = \"lib.dll\"", "7");
    /* ! binds tighter than &&: (!app.exe) && 2000.  An absent module makes
     * the condition false, so its negation is true (row 5 has hits 0). */
    assert_filter(v, "!module = \"app.exe\" && hits = 2000", "7,8");
    assert_filter(v, "!(module = \"app.exe\" && hits = 2000)", "1,3,4,5,6,7,8");
    assert_filter(v, "not not hits = 7", "6");
    assert_filter(v, "! ! ! hits = 7", "1,2,3,4,5,7,8");
    /* Long chains associate either way for && and ||; keywords any case. */
    assert_filter(v, "hits = 1 or hits = 7 OR hits = 0 Or hits = 1500", "1,3,5,6");
    assert_filter(v, "hits > 0 and hits < 3000000 AND module = \"app.exe\" aNd pct > 10", "1,2,6");
    assert_filter(v, "hits = 1 && pct = 50 || hits = 7 && pct = 1000 || hits = 0", "1,5,6");
    assert_filter(v, "(((hits = 1)))", "1");
    pv_view_free(v);
}

/* ---- every operator on every column type */

static void test_int_and_units(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_filter(v, "hits = 2000", "2,7,8");
    assert_filter(v, "hits == 2000", "2,7,8");
    assert_filter(v, "hits != 2000", "1,3,4,5,6");
    assert_filter(v, "hits < 7", "1,5");
    assert_filter(v, "hits <= 7", "1,5,6");
    assert_filter(v, "hits > 2000", "4");
    assert_filter(v, "hits >= 2000", "2,4,7,8");
    assert_filter(v, "hits = 2k", "2,7,8");
    assert_filter(v, "hits = 1.5k", "3");
    assert_filter(v, "hits >= 3M", "4");
    assert_filter(v, "hits = 0.003G", "4");
    assert_filter(v, "hits > 1G", "");
    assert_filter(v, "hits = 0x7", "6");
    assert_filter(v, "hits > -1", "1,2,3,4,5,6,7,8");
    assert_filter(v, "HITS=1", "1"); /* column ids are case-insensitive; no blanks needed */
    pv_view_free(v);
}

static void test_time_units(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_filter(v, "time > 1.5us", "2,4,7");
    assert_filter(v, "time = 1500", "1,6,8"); /* a bare number on a time column is ns */
    assert_filter(v, "time = 1500ns", "1,6,8");
    assert_filter(v, "time <= 999ns", "3,5");
    assert_filter(v, "time >= 2ms", "2,4");
    assert_filter(v, "time < 1s", "1,2,3,5,6,7,8");
    assert_filter(v, "time = 1s", "4");
    assert_filter(v, "time = 1000ms", "4");
    assert_filter(v, "time = 0.002s", "2");
    assert_filter(v, "time != 5us", "1,2,3,4,5,6,8");
    pv_view_free(v);
}

static void test_float_handle_hex(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_filter(v, "pct = 0.25", "3");
    assert_filter(v, "pct < 0", "5");
    assert_filter(v, "pct >= 1k", "6");
    assert_filter(v, "pct > 50", "4,6");
    assert_filter(v, "pct <= 3", "3,5,8");
    assert_filter(v, "pct != 12.5", "1,3,4,5,6,7,8");
    assert_filter(v, "handle = 0x10000004", "1,4");
    assert_filter(v, "handle = 10000004", "1,4"); /* handles are hex without 0x too */
    assert_filter(v, "handle == 0x1000000d", "8");
    assert_filter(v, "handle > 0x1FFFFFFF", "3,6,7");
    assert_filter(v, "handle < 1", "5");
    assert_filter(v, "handle <= 0x10000005 && handle >= 0x10000005", "2");
    assert_filter(v, "handle != 0", "1,2,3,4,6,7,8");
    assert_filter(v, "value = 1A", "1,5");
    assert_filter(v, "value = 0x1a", "1,5");
    /* Row 4 has no value: neither = nor != holds for it. */
    assert_filter(v, "value != 0x1A", "2,3,6,7,8");
    assert_filter(v, "value > 3", "1,3,5,8");
    assert_filter(v, "value >= 3 && value < 0x10", "7");
    pv_view_free(v);
}

static void test_strings(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_filter(v, "name = main", "1");
    assert_filter(v, "name == \"Wait\"", "4"); /* case-sensitive */
    assert_filter(v, "name = 'Zeta zeta'", "8");
    assert_filter(v, "name != wait", "1,2,3,4,7,8"); /* row 6 has no name */
    assert_filter(v, "name < \"a\"", "2,4,8");       /* bytewise: upper case first */
    assert_filter(v, "name >= o", "3,5");
    assert_filter(v, "name > main", "3,5");
    assert_filter(v, "name <= a*b?c", "2,4,7,8");
    assert_filter(v, "module = \"lib.dll\"", "3,7");
    assert_filter(v, "module = app.exe", "1,2,6");
    assert_filter(v, "module = \"\"", ""); /* absent is not the empty string */
    assert_filter(v, "name = \"say \\\"hi\\\"\"", "");
    assert_filter(v, "name = and", ""); /* a keyword stands as a value */
    /* A plain number on a string column is text. */
    assert_filter(v, "name = 42", "");
    pv_view_free(v);
}

static void test_regex_and_like(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_filter(v, "name ~ /^otm/", "3");
    assert_filter(v, "name ~ /^otm/i", "2,3");
    assert_filter(v, "name ~ \"e$\"", "2");
    assert_filter(v, "name ~ /(main|Wait)$/", "1,4");
    assert_filter(v, "name ~ /a[[:space:]]z/", "8");
    assert_filter(v, "name !~ /t/", "1,7"); /* the absent name matches nothing */
    assert_filter(v, "module ~ /\\.(exe|dll)$/", "1,2,3,6,7");
    assert_filter(v, "module ~ /a\\/b/", "");
    assert_filter(v, "name like \"*wait\"", "5");
    assert_filter(v, "name like ?ait", "4,5");
    assert_filter(v, "name LIKE \"O*\"", "2");
    assert_filter(v, "name like \"*\"", "1,2,3,4,5,7,8");
    assert_filter(v, "name like \"a*b?c\"", "7");
    assert_filter(v, "name like \"*t*e*\"", "2,3,8");
    assert_filter(v, "name like \"*e\"", "2");
    assert_filter(v, "name like \"ma\"", "");
    assert_filter(v, "!name like \"*a*\"", "2,3,6"); /* "OtmCompute", "otm_helper", no name */
    pv_view_free(v);
}

/* Values accept the escapes `cat` writes (\t \n \r \\ \xNN), so a name
 * copied from its output matches; other backslashes stay as they are. */
static void test_escapes(void **state)
{
    (void)state;
    static const pv_column c2[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    };
    static const char *const names[] = {"render\tframe", "C:\\src\\x.c", "a\001b", "q\"u'o"};
    pv_table *t = pv_table_new("t", "T", c2, 2);
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)i + 1);
        pv_table_set_cstr(t, r, 1, names[i]);
    }
    pv_view *v = pv_table_view(t);
    assert_filter(v, "name = \"render\\tframe\"", "1");
    assert_filter(v, "name = 'render\\x09frame'", "1");
    assert_filter(v, "name ~ /r\\tf/", "1");
    assert_filter(v, "\"R\\tF\"", "1");
    assert_filter(v, "name = \"C:\\\\src\\\\x.c\"", "2"); /* as cat prints it */
    assert_filter(v, "name = \"C:\\src\\x.c\"", "2");     /* single backslashes */
    assert_filter(v, "name ~ /^C:\\\\src/", "2");         /* regex: \\ is a backslash */
    assert_filter(v, "name = \"a\\x01b\"", "3");
    assert_filter(v, "name = \"a\\x00b\"", ""); /* no NUL: kept as text */
    assert_filter(v, "name = \"q\\\"u'o\"", "4");
    assert_filter(v, "name = 'q\"u\\'o'", "4");
    pv_view_free(v);
}

static void test_bare_text(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_filter(v, "otm", "2,3");
    assert_filter(v, "WAIT", "4,5");
    assert_filter(v, "\"zeta z\"", "8");
    assert_filter(v, "'A*B'", "7");
    assert_filter(v, "name", "");     /* a column id alone is text */
    assert_filter(v, "/^w/i", "4,5"); /* a bare regex searches the name column */
    assert_filter(v, "otm && hits > 1500", "2");
    assert_filter(v, "wait || main", "1,4,5");
    assert_filter(v, "!wait", "1,2,3,6,7,8");
    pv_view_free(v);
}

static void test_empty_expression(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    pv_query_error err;
    assert_null(pv_filter_compile(v, "", &err));
    assert_string_equal(err.message, "");
    assert_null(pv_filter_compile(v, "  \t ", &err));
    assert_string_equal(err.message, "");
    /* No filter keeps everything. */
    pv_row rows[16];
    size_t matched = 0;
    assert_int_equal(pv_filter_rows(NULL, v, NULL, 0, rows, &matched), 8);
    assert_int_equal(matched, 8);
    assert_true(pv_filter_match(NULL, v, 0));
    pv_view_free(v);
}

static void test_flat_selection_in_place(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    pv_filter *f = pv_filter_compile(v, "module = app.exe || hits = 0", NULL);
    assert_non_null(f);
    assert_true(pv_filter_match(f, v, 0));
    assert_false(pv_filter_match(f, v, 2));
    assert_true(pv_filter_match(f, v, 4)); /* hits 0, module absent */
    /* A selection in its own order, filtered in place. */
    pv_row sel[] = {5, 4, 3, 2, 1, 0};
    size_t matched = 99;
    size_t n = pv_filter_rows(f, v, sel, PV_ARRAY_LEN(sel), sel, &matched);
    assert_int_equal(n, 4);
    assert_int_equal(matched, 4);
    assert_string_equal(ids_of(v, sel, n), "6,5,2,1");
    pv_filter_free(f);
    pv_view_free(v);
}

/* ---- errors point at the offending character */

static void test_error_positions(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    assert_error_at(v, "hits > ", 7, "expected a value after '>' at column 8");
    assert_error_at(v, "hits >", 6, "expected a value after '>' at column 7");
    assert_error_at(v, "(hits = 1", 0, "unclosed '(' at column 1");
    assert_error_at(v, "((hits = 1) || (hits = 2)", 0, "unclosed '(' at column 1");
    assert_error_at(v, "(a = 1", 1, "unknown column 'a' at column 2");
    assert_error_at(v, "hits = 1)", 8, "unexpected ')' at column 9");
    assert_error_at(v, "x = 1)", 0, "unknown column 'x'");
    assert_error_at(v, "name ~ /[/", 7, "bad regex");
    assert_error_at(v, "name ~ /[/", 7, "at column 8");
    assert_error_at(v, "nope = 3", 0, "unknown column 'nope' at column 1; columns: id, name, hits");
    assert_error_at(v, "name > 5us", 7, "column 'name' is a string; '5us' is a time");
    assert_error_at(v, "name = 10k", 7, "'10k' is a count");
    assert_error_at(v, "time ~ /x/", 5, "column 'time' is a time; '~' needs a string column");
    assert_error_at(v, "hits like \"1*\"", 5, "'like' needs a string column");
    assert_error_at(v, "pct !~ /1/", 4, "column 'pct' is a float");
    assert_error_at(v, "hits = 5us", 7, "column 'hits' is an int; '5us' is a time");
    assert_error_at(v, "hits = 1.5", 7, "not a whole number");
    assert_error_at(v, "hits = many", 7, "not a number");
    assert_error_at(v, "time = 10k", 7, "is a count");
    assert_error_at(v, "time > soon", 7, "not a time");
    assert_error_at(v, "time = 1.5m", 7, "not a time");
    assert_error_at(v, "hits = \"5\"", 7, "\"5\" is a string");
    assert_error_at(v, "handle = 0xZZ", 9, "not a hex value");
    assert_error_at(v, "pct = 5us", 6, "is a time");
    assert_error_at(v, "pct = 1..2", 6, "not a number");
    assert_error_at(v, "name = /x/", 7, "a /regex/ needs '~' or '!~'");
    assert_error_at(v, "name like /x/", 10, "wildcard pattern");
    assert_error_at(v, "hits > 1 &&", 11, "expected a condition, found the end at column 12");
    assert_error_at(v, "hits > 1 & hits < 3", 9, "unexpected '&'");
    assert_error_at(v, "hits > 1 | main", 9, "unexpected '|'");
    assert_error_at(v, "hits = 1 name", 9, "unexpected 'name' at column 10");
    assert_error_at(v, "name = \"abc", 7, "unterminated string");
    assert_error_at(v, "name ~ /abc", 7, "unterminated /regex/");
    assert_error_at(v, "name ~ /abc/x", 12, "unknown regex flag 'x'");
    assert_error_at(v, "()", 1, "unexpected ')' at column 2");
    assert_error_at(v, "= 3", 0, "unexpected '='");
    assert_error_at(v, "hits = )", 7, "expected a value after '=', found ')'");
    assert_error_at(v, "hits > 1 or", 11, "expected a condition");
    assert_error_at(v, "not", 3, "expected a condition");
    /* Repetitions that would make the C library's regex take gigabytes
     * (stacked `+`, nested bounds) are refused before compiling. */
    assert_error_at(v, "name ~ /L++++++++++++++++++++++++++++++++++++++++/", 7, "regex too large");
    assert_error_at(v, "hits > 1 || name ~ /((ab){99}c){99}/", 19, "regex too large");
    assert_error_at(v, "name ~ /(a|(b{200}|c){200})/", 7, "regex too large");
    assert_error_at(v, "/x{300}{300}/", 0, "regex too large");
    /* Repetitions of what can match nothing grow with the square (the C
     * library's closures over copied loops): these took seconds to minutes
     * to compile (the query fuzzer found the first). */
    assert_error_at(v, "/u++*+++++++++++s. l/ != 0", 0, "regex too large");
    assert_error_at(v, "name ~ /u*+++++++++++/", 7, "regex too large");
    assert_error_at(v, "name ~ /((((((((((((((u*)+)+)+)+)+)+)+)+)+)+)+)+)+)+/", 7, "regex too large");
    assert_error_at(v, "name ~ /(x|y?){9}{9}{9}/", 7, "regex too large");
    pv_view_free(v);
}

/* The size limit leaves ordinary regexes alone, brackets and escapes
 * included (a `{` inside them is no repetition). */
static void test_regex_size_allows_ordinary(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    const char *ok[] = {
        "name ~ /^(main|Wait)+$/",        "name ~ /[0-9]{1,1000}/",
        "name ~ /(a{100}){100}/",         "name ~ /[{]{1}[[:alpha:]{]{2,}/",
        "name ~ /\\{99999}x\\{/",          "name ~ /a{,5}|{|}|x{2/",
        "name ~ /(((((((((((x)))))))))))/", "name ~ /([]{]{99}){99}/",
        "name ~ /(a*b*)+/",               "name ~ /(https?:\\/\\/)?[a-z]*/",
        "name ~ /([a-z]*\\.)*(x|y?)+/",     "name ~ /(a*)*b+?/",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        pv_query_error err;
        pv_filter *f = pv_filter_compile(v, ok[i], &err);
        if (!f && strstr(err.message, "too large"))
            fail_msg("%s: %s", ok[i], err.message);
        pv_filter_free(f);
    }
    pv_view_free(v);
}

static void test_error_render(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    pv_query_error err = filter_error(v, "hits = 1)");
    pv_buf out;
    pv_buf_init(&out);
    pv_query_error_render(&err, "hits = 1)", &out);
    assert_string_equal(pv_buf_cstr(&out), "hits = 1)\n        ^\nunexpected ')' at column 9\n");

    pv_buf_clear(&out);
    err = filter_error(v, "hits > ");
    pv_query_error_render(&err, "hits > ", &out);
    assert_string_equal(pv_buf_cstr(&out),
                        "hits > \n       ^\nexpected a value after '>' at column 8\n");

    /* A control character is shown escaped, and the caret follows it. */
    pv_buf_clear(&out);
    err = filter_error(v, "\x1b = 1)");
    pv_query_error_render(&err, "\x1b = 1)", &out);
    assert_int_equal(err.position, 0);
    assert_non_null(strstr(pv_buf_cstr(&out), "\\x1B = 1)\n^\n"));
    pv_buf_free(&out);
    pv_view_free(v);
}

static void test_nesting_is_bounded(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    /* 10 000 open parentheses or `!`: an error, not a deep recursion. */
    size_t n = 10000;
    char *expr = malloc(n + 16);
    assert_non_null(expr);
    memset(expr, '(', n);
    strcpy(expr + n, "main");
    pv_query_error err = filter_error(v, expr);
    assert_non_null(strstr(err.message, "nested deeper"));
    memset(expr, '!', n);
    err = filter_error(v, expr);
    assert_non_null(strstr(err.message, "nested deeper"));
    free(expr);
    /* 40 levels are fine. */
    char deep[200];
    memset(deep, '(', 40);
    strcpy(deep + 40, "main");
    memset(deep + 44, ')', 40);
    deep[84] = '\0';
    assert_filter(v, deep, "1");
    pv_view_free(v);
}

/* ---- trees */

enum { T_ID, T_NAME, T_HITS, T_COUNT };
static const pv_column tree_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"routine", "Routine", PV_TYPE_STRING, PV_COL_NAME | PV_COL_TREE},
    {"hits", "Hits", PV_TYPE_INT, PV_COL_DESC},
};

/*  row id name  hits parent
 *   0   1 main   5    -
 *   1   2 a      2    0
 *   2   3 otm    2    1
 *   3   4 b      9    1
 *   4   5 c      2    0
 *   5   6 otm2   1    4
 *   6   7 idle   3    -
 *   7   8 x      2    6          */
static pv_view *make_tree(void)
{
    static const struct {
        const char *name;
        int64_t hits;
        size_t parent;
    } d[] = {
        {"main", 5, PV_NO_ROW},
        {"a", 2, 0},
        {"otm", 2, 1},
        {"b", 9, 1},
        {"c", 2, 0},
        {"otm2", 1, 4},
        {"idle", 3, PV_NO_ROW},
        {"x", 2, 6},
    };
    pv_table *t = pv_table_new("call-trace", "Call trace", tree_cols, T_COUNT);
    pv_table_make_tree(t);
    for (size_t i = 0; i < PV_ARRAY_LEN(d); i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, T_ID, (int64_t)i + 1);
        pv_table_set_cstr(t, r, T_NAME, d[i].name);
        pv_table_set_int(t, r, T_HITS, d[i].hits);
        if (d[i].parent != PV_NO_ROW)
            pv_table_set_parent(t, r, d[i].parent);
    }
    return pv_table_view(t);
}

static void test_tree_filter_keeps_ancestors(void **state)
{
    (void)state;
    pv_view *v = make_tree();
    pv_filter *f = pv_filter_compile(v, "otm", NULL);
    assert_non_null(f);
    pv_row rows[8];
    size_t matched = 0;
    size_t n = pv_filter_rows(f, v, NULL, 0, rows, &matched);
    assert_int_equal(matched, 2);
    assert_string_equal(ids_of(v, rows, n), "1,2,3,5,6");
    pv_filter_free(f);

    /* A match deep in one branch and at a root. */
    f = pv_filter_compile(v, "hits = 9 || routine = idle", NULL);
    n = pv_filter_rows(f, v, NULL, 0, rows, &matched);
    assert_int_equal(matched, 2);
    assert_string_equal(ids_of(v, rows, n), "1,2,4,7");

    /* Filtering a selection in place keeps its order. */
    pv_row sel[] = {6, 7, 0, 1, 3};
    n = pv_filter_rows(f, v, sel, PV_ARRAY_LEN(sel), sel, &matched);
    assert_int_equal(matched, 2);
    assert_string_equal(ids_of(v, sel, n), "7,1,2,4");
    pv_filter_free(f);

    /* No match: nothing, not even the roots. */
    f = pv_filter_compile(v, "hits > 100", NULL);
    n = pv_filter_rows(f, v, NULL, 0, rows, &matched);
    assert_int_equal(n, 0);
    assert_int_equal(matched, 0);
    pv_filter_free(f);
    pv_view_free(v);
}

/* ---- sorting */

static const char *sorted_ids(const pv_view *v, const char *spec)
{
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t count;
    pv_query_error err;
    if (!pv_sort_parse(v, spec, keys, &count, &err))
        fail_msg("sort '%s': %s", spec, err.message);
    size_t n = pv_view_rows(v);
    pv_row rows[64];
    for (size_t i = 0; i < n; i++)
        rows[i] = (pv_row)i;
    pv_sort_rows(v, keys, count, rows, n);
    return ids_of(v, rows, n);
}

static void test_sort_flat(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    /* Equal keys keep their order, ascending and descending. */
    assert_string_equal(sorted_ids(v, "hits"), "5,1,6,3,2,7,8,4");
    assert_string_equal(sorted_ids(v, "hits:desc"), "4,2,7,8,3,6,1,5");
    assert_string_equal(sorted_ids(v, "HITS:DESC,id:desc"), "4,8,7,2,3,6,1,5");
    assert_string_equal(sorted_ids(v, "module,hits:desc"), "5,2,6,1,4,8,7,3");
    assert_string_equal(sorted_ids(v, "time,name"), "5,3,6,8,1,7,2,4");
    /* Absent first ascending, last descending. */
    assert_string_equal(sorted_ids(v, "name"), "6,2,4,8,7,1,3,5");
    assert_string_equal(sorted_ids(v, "name:desc"), "5,3,1,7,8,4,2,6");
    assert_string_equal(sorted_ids(v, "value"), "4,2,6,7,8,1,5,3");
    assert_string_equal(sorted_ids(v, "pct"), "5,3,8,7,2,1,4,6");
    assert_string_equal(sorted_ids(v, "pct:desc"), "6,4,1,2,7,8,3,5");
    assert_string_equal(sorted_ids(v, "handle:asc , id:desc"), "5,4,1,2,8,3,7,6");
    pv_view_free(v);
}

static void test_sort_parse_errors(void **state)
{
    (void)state;
    pv_view *v = make_flat();
    pv_sort_key keys[PV_SORT_MAX_KEYS];
    size_t count;
    pv_query_error err;
    assert_true(pv_sort_parse(v, "hits:desc,name", keys, &count, &err));
    assert_int_equal(count, 2);
    assert_int_equal(keys[0].column, C_HITS);
    assert_true(keys[0].descending);
    assert_int_equal(keys[1].column, C_NAME);
    assert_false(keys[1].descending);

    assert_false(pv_sort_parse(v, "hits:down", keys, &count, &err));
    assert_int_equal(err.position, 5);
    assert_non_null(strstr(err.message, "'asc' or 'desc'"));
    assert_false(pv_sort_parse(v, "nope", keys, &count, &err));
    assert_int_equal(err.position, 0);
    assert_non_null(strstr(err.message, "unknown column 'nope' at column 1; columns: id"));
    assert_false(pv_sort_parse(v, "hits,,name", keys, &count, &err));
    assert_int_equal(err.position, 5);
    assert_false(pv_sort_parse(v, "", keys, &count, &err));
    assert_int_equal(err.position, 0);
    assert_false(pv_sort_parse(v, "hits name", keys, &count, &err));
    assert_int_equal(err.position, 5);
    assert_false(pv_sort_parse(v, "id,id,id,id,id,id,id,id,id", keys, &count, &err));
    assert_int_equal(err.position, 24);
    pv_view_free(v);
}

/* Strings sharing their first 8 bytes are ordered by the rest. */
static void test_sort_long_strings(void **state)
{
    (void)state;
    static const pv_column c2[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    };
    static const char *const names[] = {"abcdefghZ", "abcdefgh", "abcdefghA", "abcdefgh",
                                        "abcdefgG",  "",         "abcdefghAA"};
    pv_table *t = pv_table_new("t", "T", c2, 2);
    for (size_t i = 0; i < PV_ARRAY_LEN(names); i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)i + 1);
        pv_table_set_cstr(t, r, 1, names[i]);
    }
    pv_view *v = pv_table_view(t);
    assert_string_equal(sorted_ids(v, "name"), "6,5,2,4,3,7,1");
    assert_string_equal(sorted_ids(v, "name:desc"), "1,7,3,2,4,5,6");
    pv_view_free(v);
}

/* A large selection with many ties (the merge path) against a plain stable
 * insertion sort over pv_cell_compare. */
static void test_sort_matches_reference(void **state)
{
    (void)state;
    static const pv_column c3[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"grp", "Group", PV_TYPE_STRING, PV_COL_NAME},
        {"t", "Time", PV_TYPE_TIME, 0},
        {"f", "F", PV_TYPE_FLOAT, 0},
    };
    static const char *const groups[] = {"alpha-long-prefix-1", "alpha-long-prefix-2", "beta",
                                         "alpha-long-prefix-10", ""};
    pv_table *t = pv_table_new("t", "T", c3, 4);
    size_t n = 3000;
    uint32_t seed = 12345;
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        seed = seed * 1103515245u + 12345u;
        pv_table_set_int(t, r, 0, (int64_t)i);
        if ((seed >> 8) % 17 != 0)
            pv_table_set_cstr(t, r, 1, groups[(seed >> 16) % 5]);
        seed = seed * 1103515245u + 12345u;
        pv_table_set_int(t, r, 2, (int64_t)((seed >> 16) % 50) - 25);
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 4) % 13 != 0)
            pv_table_set_float(t, r, 3, ((double)((seed >> 16) % 21) - 10.0) / 4.0);
    }
    pv_view *v = pv_table_view(t);
    pv_sort_key keys[] = {{1, false}, {2, true}, {3, false}};
    pv_row *rows = malloc(n * sizeof *rows);
    pv_row *ref = malloc(n * sizeof *ref);
    assert_non_null(rows);
    assert_non_null(ref);
    for (size_t kc = 1; kc <= 3; kc++) {
        for (size_t i = 0; i < n; i++)
            rows[i] = ref[i] = (pv_row)i;
        pv_sort_rows(v, keys, kc, rows, n);
        for (size_t i = 1; i < n; i++) {
            size_t x = ref[i], j = i;
            for (; j > 0; j--) {
                int r = 0;
                for (size_t k = 0; k < kc && r == 0; k++) {
                    pv_cell a, b;
                    pv_view_cell(v, x, keys[k].column, &a);
                    pv_view_cell(v, ref[j - 1], keys[k].column, &b);
                    r = pv_cell_compare(&a, &b);
                    if (keys[k].descending)
                        r = -r;
                }
                if (r >= 0)
                    break;
                ref[j] = ref[j - 1];
            }
            ref[j] = (pv_row)x;
        }
        assert_memory_equal(rows, ref, n * sizeof *rows);
    }
    free(rows);
    free(ref);
    pv_view_free(v);
}


/* The sorted selection of a job stepped `budget` rows at a time. */
static pv_row *job_sorted(const pv_view *v, const pv_sort_key *keys, size_t kc, const pv_row *in,
                          size_t n, size_t budget)
{
    pv_sort_job *j = pv_sort_job_new(v, keys, kc, in, n);
    size_t steps = 0;
    double last = 0;
    while (!pv_sort_job_step(j, budget)) {
        assert_true(pv_sort_job_progress(j) < 1.0);
        last = pv_sort_job_progress(j);
        steps++;
        assert_true(steps < 100000);
    }
    (void)last;
    pv_row *out = pv_sort_job_take(j);
    pv_sort_job_free(j);
    return out;
}

/* Sorting in steps gives exactly pv_sort_rows' order (strings by rank,
 * numbers by radix, absent cells, descending, several keys, a selection, a
 * tree), whatever the step size. */
static void test_sort_job_matches_sort_rows(void **state)
{
    (void)state;
    static const pv_column c3[] = {
        {"id", "Id", PV_TYPE_INT, 0},
        {"grp", "Group", PV_TYPE_STRING, PV_COL_NAME},
        {"t", "Time", PV_TYPE_TIME, 0},
        {"f", "F", PV_TYPE_FLOAT, 0},
    };
    static const char *const groups[] = {"alpha-long-prefix-1", "alpha-long-prefix-2", "beta",
                                         "alpha-long-prefix-10", ""};
    pv_table *t = pv_table_new("t", "T", c3, 4);
    size_t n = 2000;
    uint32_t seed = 777;
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        seed = seed * 1103515245u + 12345u;
        pv_table_set_int(t, r, 0, (int64_t)i);
        if ((seed >> 8) % 17 != 0)
            pv_table_set_cstr(t, r, 1, groups[(seed >> 16) % 5]);
        seed = seed * 1103515245u + 12345u;
        pv_table_set_int(t, r, 2, (int64_t)((seed >> 8) % 5000000) - 2500000);
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 4) % 13 != 0)
            pv_table_set_float(t, r, 3, ((double)((seed >> 16) % 21) - 10.0) / 4.0);
    }
    pv_view *v = pv_table_view(t);
    static const pv_sort_key sets[][3] = {
        {{1, false}}, {{1, true}}, {{2, false}}, {{3, true}},
        {{1, false}, {2, true}, {3, false}}, {{3, false}, {1, true}},
    };
    static const size_t counts[] = {1, 1, 1, 1, 3, 2};
    pv_row *ref = malloc(n * sizeof *ref);
    pv_row *sub = malloc(n * sizeof *sub);
    assert_non_null(ref);
    assert_non_null(sub);
    size_t subn = 0;
    for (size_t i = n; i-- > 0;)
        if (i % 3)
            sub[subn++] = (pv_row)i; /* a selection in another order */
    size_t before = pv_sort_runs();
    for (size_t s = 0; s < PV_ARRAY_LEN(counts); s++) {
        for (size_t budget = 1; budget <= 100000; budget *= 317) {
            for (size_t i = 0; i < n; i++)
                ref[i] = (pv_row)i;
            pv_sort_rows(v, sets[s], counts[s], ref, n);
            pv_row *got = job_sorted(v, sets[s], counts[s], NULL, n, budget);
            assert_memory_equal(got, ref, n * sizeof *ref);
            free(got);
            memcpy(ref, sub, subn * sizeof *ref);
            pv_sort_rows(v, sets[s], counts[s], ref, subn);
            got = job_sorted(v, sets[s], counts[s], sub, subn, budget);
            assert_memory_equal(got, ref, subn * sizeof *ref);
            free(got);
        }
    }
    assert_true(pv_sort_runs() > before);
    free(ref);
    free(sub);
    pv_view_free(v);

    /* A tree: siblings among themselves. */
    v = make_tree();
    pv_sort_key key = {T_NAME, true};
    pv_row *got = job_sorted(v, &key, 1, NULL, pv_view_rows(v), 3);
    assert_string_equal(ids_of(v, got, pv_view_rows(v)), "1,5,6,2,3,4,7,8");
    free(got);
    pv_view_free(v);
}

static void test_sort_tree_keeps_shape(void **state)
{
    (void)state;
    pv_view *v = make_tree();
    /* Roots main, idle; main's children a, c; a's children otm, b. */
    assert_string_equal(sorted_ids(v, "routine:desc"), "1,5,6,2,3,4,7,8");
    assert_string_equal(sorted_ids(v, "routine"), "7,8,1,2,4,3,5,6");
    /* Ties among siblings keep their order: a and c both have 2 hits. */
    assert_string_equal(sorted_ids(v, "hits"), "7,8,1,2,3,4,5,6");
    assert_string_equal(sorted_ids(v, "hits:desc"), "1,2,4,3,5,6,7,8");

    /* A filtered tree sorts the same way. */
    pv_filter *f = pv_filter_compile(v, "otm", NULL);
    pv_row rows[8];
    size_t n = pv_filter_rows(f, v, NULL, 0, rows, NULL);
    pv_sort_key key = {T_NAME, true};
    pv_sort_rows(v, &key, 1, rows, n);
    assert_string_equal(ids_of(v, rows, n), "1,5,6,2,3");
    pv_filter_free(f);
    pv_view_free(v);
}

/* ---- row groups: conditions on PV_COL_GROUPED columns are decided once
 * per group (model.h) */

enum { G_ID, G_AREA, G_EVENT, G_COUNT };
static const pv_column group_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},
    {"area", "Area", PV_TYPE_STRING, PV_COL_NAME | PV_COL_GROUPED},
    {"event", "Event", PV_TYPE_STRING, 0},
};
static const char *const area_names[] = {"g0", "g1", "g2", "g3", "g4",
                                         "g5", "g6", "g7", "g8", "g9"};
static size_t area_reads;
static size_t group_calls;

static size_t group_rows(const pv_view *v)
{
    (void)v;
    return 1000;
}

static uint32_t group_of(const pv_view *v, size_t row)
{
    (void)v;
    group_calls++;
    return (uint32_t)(row % 10);
}

static void group_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    out->type = v->columns[col].type;
    out->present = true;
    if (col == G_ID) {
        out->v.i = (int64_t)row;
    } else if (col == G_AREA) {
        area_reads++;
        out->v.s.ptr = area_names[row % 10];
        out->v.s.len = 2;
    } else {
        out->v.s.ptr = row % 2 ? "X" : "E";
        out->v.s.len = 1;
    }
}

static void group_destroy(pv_view *v)
{
    (void)v;
}

static void test_grouped_columns(void **state)
{
    (void)state;
    static const pv_view_ops ops = {group_rows, group_cell, NULL, NULL, group_destroy, group_of};
    pv_view view = {.ops = &ops,
                    .id = "timeline",
                    .title = "Timeline",
                    .columns = (pv_column *)group_cols,
                    .column_count = G_COUNT,
                    .group_count = 10};
    pv_filter *f = pv_filter_compile(&view, "area = g3 || area ~ /7$/ && event = X", NULL);
    assert_non_null(f);
    pv_row *rows = malloc(1000 * sizeof *rows);
    assert_non_null(rows);
    area_reads = 0;
    size_t n = pv_filter_rows(f, &view, NULL, 0, rows, NULL);
    /* Rows 3, 13, ... (100) and 7, 17, ... (odd: all 100 are X). */
    assert_int_equal(n, 200);
    for (size_t i = 0; i < n; i++)
        assert_true(rows[i] % 10 == 3 || rows[i] % 10 == 7);
    /* Two conditions on the grouped column, each read once per group. */
    assert_true(area_reads <= 20);
    pv_filter_free(f);

    /* Bare text on a grouped name column is cached too. */
    f = pv_filter_compile(&view, "G5 && event = E", NULL);
    area_reads = 0;
    n = pv_filter_rows(f, &view, NULL, 0, rows, NULL);
    assert_int_equal(n, 0); /* rows 5, 15, ... are odd: X */
    assert_true(area_reads <= 10);
    pv_filter_free(f);

    /* A subtree of grouped conditions is decided as a whole: one group
     * lookup per row, not one per condition. */
    f = pv_filter_compile(&view, "area ~ /g[0-4]/ && !(area = g2 || area = g0)", NULL);
    area_reads = 0;
    group_calls = 0;
    n = pv_filter_rows(f, &view, NULL, 0, rows, NULL);
    assert_int_equal(n, 300); /* groups 1, 3, 4 */
    assert_int_equal(group_calls, 1000);
    assert_true(area_reads <= 30);
    pv_filter_free(f);
    free(rows);
}

/* A STRING condition remembers its answer by the cell's pointer (model.h:
 * the same pointer is the same text): a view that rewrites one buffer
 * breaks that contract on purpose, so only the first text is ever tested;
 * many distinct pointers (colliding in the memo) are each answered right. */
static char memo_buf[8];
static char memo_names[1000][8];

static void memo_cell(const pv_view *v, size_t row, size_t col, pv_cell *out)
{
    out->type = v->columns[col].type;
    out->present = true;
    if (col == G_ID) {
        out->v.i = (int64_t)row;
        return;
    }
    char *s = col == G_AREA ? memo_names[row] : memo_buf;
    snprintf(s, 8, "%c%zu", col == G_AREA ? 'n' : row % 2 ? 'X' : 'E', row);
    out->v.s.ptr = s;
    out->v.s.len = strlen(s);
}

static void test_string_answers_by_pointer(void **state)
{
    (void)state;
    static const pv_view_ops ops = {group_rows, memo_cell, NULL, NULL, group_destroy, NULL};
    pv_view view = {.ops = &ops,
                    .id = "t",
                    .title = "T",
                    .columns = (pv_column *)group_cols,
                    .column_count = G_COUNT};
    pv_row *rows = malloc(1000 * sizeof *rows);
    assert_non_null(rows);
    /* Row 0 is "E0": every row's shared buffer is then taken as "E...". */
    pv_filter *f = pv_filter_compile(&view, "event ~ /^E/", NULL);
    assert_non_null(f);
    assert_int_equal(pv_filter_rows(f, &view, NULL, 0, rows, NULL), 1000);
    pv_filter_free(f);
    f = pv_filter_compile(&view, "event ~ /^X/", NULL);
    assert_int_equal(pv_filter_rows(f, &view, NULL, 0, rows, NULL), 0);
    pv_filter_free(f);
    /* 1000 distinct pointers, most sharing a memo slot with others */
    const char *exprs[] = {"area ~ /7$/", "area like \"n7*\"", "area = n7 || area != n8", "N9"};
    for (size_t e = 0; e < 4; e++) {
        f = pv_filter_compile(&view, exprs[e], NULL);
        assert_non_null(f);
        size_t n = pv_filter_rows(f, &view, NULL, 0, rows, NULL);
        size_t want = 0;
        for (size_t r = 0; r < 1000; r++) {
            char t[8];
            snprintf(t, sizeof t, "n%zu", r);
            size_t len = strlen(t);
            bool hit = e == 0   ? t[len - 1] == '7'
                       : e == 1 ? t[1] == '7'
                       : e == 2 ? strcmp(t, "n8") != 0
                                : strncmp(t, "n9", 2) == 0;
            if (hit)
                assert_int_equal(rows[want++], r);
        }
        assert_int_equal(n, want);
        pv_filter_free(f);
    }
    free(rows);
}

/* A generated tree (pre-order, random depth) or the same rows flat. */
static pv_view *make_big_tree(size_t n, bool tree)
{
    pv_table *t = pv_table_new("call-trace", "Call trace", tree_cols, T_COUNT);
    if (tree)
        pv_table_make_tree(t);
    size_t *stack = malloc(n * sizeof *stack), depth = 0;
    assert_non_null(stack);
    uint32_t seed = 4242;
    for (size_t i = 0; i < n; i++) {
        size_t r = pv_table_add_row(t);
        seed = seed * 1103515245u + 12345u;
        size_t pop = (seed >> 16) % 3;
        depth = pop > depth ? 0 : depth - pop;
        pv_table_set_int(t, r, T_ID, (int64_t)i + 1);
        pv_table_set_cstr(t, r, T_NAME, (seed >> 8) % 2 ? "f" : "g");
        pv_table_set_int(t, r, T_HITS, (int64_t)((seed >> 4) % 50));
        if (tree && depth)
            pv_table_set_parent(t, r, stack[depth - 1]);
        stack[depth++] = r;
    }
    free(stack);
    return pv_table_view(t);
}

static size_t job_steps(const pv_view *v, const pv_sort_key *key, size_t n, size_t budget,
                        pv_row **out)
{
    pv_sort_job *j = pv_sort_job_new(v, key, 1, NULL, n);
    size_t steps = 1;
    while (!pv_sort_job_step(j, budget))
        steps++;
    *out = pv_sort_job_take(j);
    pv_sort_job_free(j);
    return steps;
}

/* A tree's sorted pre-order is built in steps too (a 9.6 M-call tree took
 * over a second in one step): the same order as pv_sort_rows, and about
 * (rows + 14 n) / budget steps more than the same rows flat. */
static void test_sort_job_tree_in_steps(void **state)
{
    (void)state;
    size_t n = 20000, budget = 500;
    pv_view *tree = make_big_tree(n, true), *flat = make_big_tree(n, false);
    pv_sort_key keys[] = {{T_HITS, false}, {T_HITS, true}, {T_NAME, false}};
    pv_row *ref = malloc(n * sizeof *ref);
    assert_non_null(ref);
    for (size_t k = 0; k < PV_ARRAY_LEN(keys); k++) {
        for (size_t i = 0; i < n; i++)
            ref[i] = (pv_row)i;
        pv_sort_rows(tree, &keys[k], 1, ref, n);
        pv_row *got, *got_flat;
        size_t steps = job_steps(tree, &keys[k], n, budget, &got);
        size_t flat_steps = job_steps(flat, &keys[k], n, budget, &got_flat);
        assert_memory_equal(got, ref, n * sizeof *ref);
        assert_true(steps > flat_steps + 10 * n / budget);
        free(got);
        free(got_flat);
        got = job_sorted(tree, &keys[k], 1, NULL, n, 13);
        assert_memory_equal(got, ref, n * sizeof *ref);
        free(got);
    }
    free(ref);
    pv_view_free(tree);
    pv_view_free(flat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_string_answers_by_pointer),
        cmocka_unit_test(test_int_and_units),
        cmocka_unit_test(test_time_units),
        cmocka_unit_test(test_float_handle_hex),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_regex_and_like),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_bare_text),
        cmocka_unit_test(test_empty_expression),
        cmocka_unit_test(test_flat_selection_in_place),
        cmocka_unit_test(test_error_positions),
        cmocka_unit_test(test_regex_size_allows_ordinary),
        cmocka_unit_test(test_error_render),
        cmocka_unit_test(test_nesting_is_bounded),
        cmocka_unit_test(test_tree_filter_keeps_ancestors),
        cmocka_unit_test(test_sort_flat),
        cmocka_unit_test(test_sort_parse_errors),
        cmocka_unit_test(test_sort_long_strings),
        cmocka_unit_test(test_sort_matches_reference),
        cmocka_unit_test(test_sort_tree_keeps_shape),
        cmocka_unit_test(test_sort_job_matches_sort_rows),
        cmocka_unit_test(test_sort_job_tree_in_steps),
        cmocka_unit_test(test_grouped_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
