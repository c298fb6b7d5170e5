/* Unit tests for the viewer's keys (src/tui): key names, the default
 * bindings and rebinding them in the config file (errors name the line),
 * the table of : commands and the scripted-keys parser. */
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
#include "tui/app.h"
#include "tui/commands.h"
#include "tui/config.h"
#include "tui/keymap.h"
#include "tui/keyscript.h"
#include "tui/theme.h"

static void test_key_names(void **state)
{
    (void)state;
    assert_int_equal(pv_key_parse("j"), 'j');
    assert_int_equal(pv_key_parse("Enter"), PV_KEY_ENTER);
    assert_int_equal(pv_key_parse("Ctrl-A"), 1);
    assert_int_equal(pv_key_parse("C-w"), 23);
    assert_int_equal(pv_key_parse("F1"), PV_KEY_F0 + 1);
    assert_int_equal(pv_key_parse("F12"), PV_KEY_F0 + 12);
    assert_int_equal(pv_key_parse("F13"), 0);
    assert_int_equal(pv_key_parse("PgDn"), PV_KEY_PGDN);
    assert_int_equal(pv_key_parse("Space"), ' ');
    assert_int_equal(pv_key_parse("\xc3\xa9"), 0xe9);
    assert_int_equal(pv_key_parse("Bogus"), 0);
    assert_int_equal(pv_key_parse(""), 0);
    char name[16];
    for (int k = 1; k < 0x7f; k++) {
        if (k > 26 && k < 0x20 && k != 27)
            continue; /* Ctrl-\ and friends have no name */
        pv_key_name(k, name, sizeof name);
        assert_int_equal(pv_key_parse(name), k);
    }
    pv_key_name(PV_KEY_BTAB, name, sizeof name);
    assert_string_equal(name, "Shift-Tab");
}

static void test_default_keys(void **state)
{
    (void)state;
    pv_keymap m;
    pv_keymap_init_defaults(&m);
    /* Every action of actions.def has a key, and docs/tui.md's keys act. */
    for (int act = 0; act < PV_ACT_COUNT; act++)
        assert_int_not_equal(m.keys[act][0], 0);
    assert_int_equal(pv_keymap_lookup(&m, 'j'), PV_ACT_DOWN);
    assert_int_equal(pv_keymap_lookup(&m, PV_KEY_TAB), PV_ACT_NEXT_PANE);
    assert_int_equal(pv_keymap_lookup(&m, PV_KEY_BTAB), PV_ACT_PREV_PANE);
    assert_int_equal(pv_keymap_lookup(&m, '\\'), PV_ACT_FILTER);
    assert_int_equal(pv_keymap_lookup(&m, PV_KEY_F0 + 1), PV_ACT_HELP);
    assert_int_equal(pv_keymap_lookup(&m, '['), PV_ACT_BACK);
    assert_int_equal(pv_keymap_lookup(&m, 'x'), PV_ACT_NONE);
    assert_int_equal(pv_action_find("expand-all"), PV_ACT_EXPAND_ALL);
    assert_int_equal(pv_action_find("nope"), PV_ACT_NONE);
}

static void test_config_rebinds_keys(void **state)
{
    (void)state;
    static const char yaml[] = "theme: light\n"
                               "time_unit: us\n"
                               "keys:\n"
                               "  down: \"Ctrl-N x\"\n"
                               "  up: [Ctrl-P, y]\n"
                               "columns:\n"
                               "  routines: [routine, hits]\n";
    pv_tui_config c;
    pv_config_init(&c);
    pv_buf err;
    pv_buf_init(&err);
    assert_true(pv_config_parse(&c, yaml, sizeof yaml - 1, "config.yaml", &err));
    assert_int_equal(err.len, 0);
    assert_string_equal(c.theme, "light");
    assert_int_equal(c.time_unit, PV_UNIT_US);
    assert_int_equal(pv_keymap_lookup(&c.keys, 'x'), PV_ACT_DOWN);
    assert_int_equal(pv_keymap_lookup(&c.keys, 14), PV_ACT_DOWN);
    assert_int_equal(pv_keymap_lookup(&c.keys, 'j'), PV_ACT_NONE); /* replaced */
    assert_int_equal(pv_keymap_lookup(&c.keys, 'y'), PV_ACT_UP);
    assert_string_equal(pv_config_columns(&c, "routines"), "routine,hits");
    assert_null(pv_config_columns(&c, "lines"));
    pv_config_free(&c);
    pv_buf_free(&err);
}

static void test_config_errors_name_line(void **state)
{
    (void)state;
    static const char yaml[] = "theme: light\n"
                               "keys:\n"
                               "  down: \"Ctrl-N Hyper-Q\"\n"
                               "  teleport: t\n"
                               "time_unit: fortnights\n"
                               "colour: red\n";
    pv_tui_config c;
    pv_config_init(&c);
    pv_buf err;
    pv_buf_init(&err);
    assert_false(pv_config_parse(&c, yaml, sizeof yaml - 1, "/home/u/config.yaml", &err));
    const char *e = pv_buf_cstr(&err);
    assert_non_null(strstr(e, "/home/u/config.yaml:3:9: action 'down': unknown key 'Hyper-Q'"));
    assert_non_null(strstr(e, "/home/u/config.yaml:4:3: unknown action 'teleport'"));
    assert_non_null(strstr(e, "/home/u/config.yaml:5:12: time_unit is auto, ns, us, ms or s"));
    assert_non_null(strstr(e, "/home/u/config.yaml:6:1: unknown setting 'colour'"));
    /* The good settings still apply; the bad binding left the default. */
    assert_string_equal(c.theme, "light");
    assert_int_equal(pv_keymap_lookup(&c.keys, 'j'), PV_ACT_DOWN);
    pv_buf_clear(&err);
    static const char broken[] = "keys:\n  down: [j\n  up: k\n";
    assert_false(pv_config_parse(&c, broken, sizeof broken - 1, "c.yaml", &err));
    assert_non_null(strstr(pv_buf_cstr(&err), "c.yaml:3:"));
    pv_config_free(&c);
    pv_buf_free(&err);
}

static void test_rebound_key_drives_app(void **state)
{
    (void)state;
    pv_tui_options o;
    memset(&o, 0, sizeof o);
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_buf err;
    pv_buf_init(&err);
    static const char yaml[] = "keys:\n  down: x\n  help: F2\n";
    assert_true(pv_config_parse(&cfg, yaml, sizeof yaml - 1, "c.yaml", &err));
    pv_theme theme;
    pv_theme_builtin(&theme);
    pv_app *a = pv_app_new(&o, &cfg, &theme, false, true, 80, 24);
    pv_app_adopt_file(a, make_file());
    char *s = screen_after(a, "x x j");
    assert_non_null(strstr(s, "row 3/5"));
    free(s);
    s = screen_after(a, "F2");
    assert_non_null(strstr(s, " x                  down"));
    assert_non_null(strstr(s, "F2 help") ? strstr(s, "F2 help") : strstr(s, " F2 "));
    free(s);
    pv_app_free(a);
    pv_config_free(&cfg);
    pv_buf_free(&err);
}

/* The : commands come from one table: names, aliases, help, dispatch. */
static void test_command_table(void **state)
{
    (void)state;
    assert_true(pv_command_count >= 11);
    for (size_t i = 0; i < pv_command_count; i++) {
        const pv_command *c = &pv_commands[i];
        assert_ptr_equal(pv_command_find(c->name, strlen(c->name)), c);
        assert_non_null(c->run);
        assert_true(c->help[0] != '\0');
    }
    const pv_command *q = pv_command_find("q", 1);
    assert_non_null(q);
    assert_string_equal(q->name, "quit");
    assert_null(pv_command_find("qu", 2));
    assert_null(pv_command_find("gotox", 5));
    assert_string_equal(pv_command_find("goto 3", 4)->name, "goto");
    char usage[96];
    pv_command_usage(pv_command_find("goto", 4), usage, sizeof usage);
    assert_string_equal(usage, "goto N|#N|[+-]TIME|A|B|longest");
    pv_command_usage(pv_command_find("range", 5), usage, sizeof usage);
    assert_string_equal(usage, "range");
}

/* ---- the scripted-keys parser */

static void test_keyscript(void **state)
{
    (void)state;
    size_t n, bad = 0;
    pv_script_event *ev = pv_script_parse("# comment\nj j Enter\n:sort hits<Enter>\n<Dump>\n"
                                          "<Resize 60x20>\nCtrl-A\n",
                                          &n, &bad);
    assert_non_null(ev);
    int expect[] = {'j',
                    'j',
                    PV_KEY_ENTER,
                    ':',
                    's',
                    'o',
                    'r',
                    't',
                    ' ',
                    'h',
                    'i',
                    't',
                    's',
                    PV_KEY_ENTER,
                    PV_SCRIPT_DUMP,
                    PV_SCRIPT_RESIZE,
                    1};
    assert_int_equal(n, PV_ARRAY_LEN(expect));
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ev[i].key, expect[i]);
    assert_int_equal(ev[15].width, 60);
    assert_int_equal(ev[15].height, 20);
    free(ev);
    ev = pv_script_parse("j\n:x<Entr>\n", &n, &bad);
    assert_null(ev);
    assert_int_equal(bad, 2);
    /* the mouse: column, line */
    ev = pv_script_parse("<Click 12 3>\n<WheelUp 40 0>\n<WheelDown 0 7>\n", &n, &bad);
    assert_non_null(ev);
    assert_int_equal(n, 3);
    assert_int_equal(ev[0].key, PV_SCRIPT_CLICK);
    assert_int_equal(ev[0].width, 12);
    assert_int_equal(ev[0].height, 3);
    assert_int_equal(ev[1].key, PV_SCRIPT_WHEEL_UP);
    assert_int_equal(ev[1].width, 40);
    assert_int_equal(ev[2].key, PV_SCRIPT_WHEEL_DOWN);
    assert_int_equal(ev[2].height, 7);
    free(ev);
    assert_null(pv_script_parse("<Click 12>\n", &n, &bad));
    assert_null(pv_script_parse("<Click 1 2 3>\n", &n, &bad));
    assert_null(pv_script_parse("<WheelUp -1 2>\n", &n, &bad));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_names),
        cmocka_unit_test(test_default_keys),
        cmocka_unit_test(test_config_rebinds_keys),
        cmocka_unit_test(test_config_errors_name_line),
        cmocka_unit_test(test_rebound_key_drives_app),
        cmocka_unit_test(test_command_table),
        cmocka_unit_test(test_keyscript),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
