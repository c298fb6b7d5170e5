/* Unit tests for the winIDEA Text1 parser (docs/formats.md §1), through the parse
 * API: the seed document's own examples, then the rules docs/formats.md adds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/winidea/parse.h"

typedef struct parsed {
    pv_wi_data d;
    pv_diag diag;
    bool ok;
} parsed;

static parsed *parse_n(const char *text, size_t len)
{
    parsed *p = calloc(1, sizeof *p);
    pv_wi_data_init(&p->d);
    pv_diag_init(&p->diag);
    p->ok = pv_wi_parse_text1("t.txt", (const unsigned char *)text, len, &p->d, &p->diag);
    return p;
}

static parsed *parse(const char *text)
{
    return parse_n(text, strlen(text));
}

static void parsed_free(parsed *p)
{
    pv_wi_data_free(&p->d);
    pv_diag_free(&p->diag);
    free(p);
}

/* The number of kept messages containing `needle`. */
static size_t diag_count(const parsed *p, const char *needle)
{
    size_t n = 0;
    for (size_t i = 0; i < p->diag.entry_count; i++)
        if (strstr(p->diag.entries[i].text, needle))
            n++;
    return n;
}

static const char *area_name(const parsed *p, size_t i)
{
    return pv_strpool_get(&p->d.pool, p->d.areas[i].name);
}

static const char *context_name(const parsed *p, size_t i)
{
    return pv_strpool_get(&p->d.pool, p->d.contexts[i].name);
}

static pv_wi_event event(const parsed *p, size_t i)
{
    pv_wi_event e;
    assert_true(i < p->d.timeline.count);
    pv_wi_event_at(&p->d.timeline, i, &e);
    return e;
}

/* ---- the seed's examples */

static void test_seed_info_and_contexts(void **state)
{
    (void)state;
    parsed *p = parse("* INFO %TOTAL_TIME%\n"
                      "7962907051\n"
                      "\n"
                      "* CONTEXTS %NAME%,%HANDLE%\n"
                      "ID_TASK_1MS,0x0\n"
                      "ID_TASK_3MS_PHigh,0x1\n"
                      "ID_TASK_10MS,0x2\n"
                      "ID_TASK_100MS,0x3\n"
                      "ID_TASK_3MS_PLow,0x4\n");
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings + p->diag.errors, 0);
    assert_true(p->d.has_total_time);
    assert_int_equal(p->d.total_time, INT64_C(7962907051));
    assert_int_equal(p->d.context_count, 5);
    assert_string_equal(context_name(p, 0), "ID_TASK_1MS");
    assert_string_equal(context_name(p, 4), "ID_TASK_3MS_PLow");
    assert_int_equal(p->d.contexts[1].handle, 1);
    assert_int_equal(p->d.contexts[4].handle, 4);
    /* every header is kept, in file order, for writing the file back */
    assert_int_equal(p->d.section_count, 2);
    assert_string_equal(p->d.sections[0].header, "* INFO %TOTAL_TIME%");
    assert_string_equal(p->d.sections[1].header, "* CONTEXTS %NAME%,%HANDLE%");
    assert_true(p->d.sections[1].known);
    assert_int_equal(p->d.sections[1].line_count, 0);
    parsed_free(p);
}

static const char seed_functions[] = "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n"
                                     "00000000,main,\n"
                                     "10000000,{,51\n"
                                     "10000001,{,51\n"
                                     "10000002,otm(fn_main);,52\n"
                                     "10000003,CPU_Init();,54\n"
                                     "10000004,TestStatic1();,59\n"
                                     "10000005,TestStatic2();,60\n"
                                     "10000006,},97\n"
                                     "00000001,\"TestStatic1.c\"#StaticFunc,\n"
                                     "10000007,{,6\n"
                                     "10000008,g_cStaticSignal = STATIC;,7\n"
                                     "10000009,},8\n";

static void test_seed_function_mapping(void **state)
{
    (void)state;
    parsed *p = parse(seed_functions);
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.area_count, 12);
    assert_int_equal(p->d.areas[0].handle, 0x00000000);
    assert_string_equal(area_name(p, 0), "main");
    assert_false(p->d.areas[0].has_value);
    assert_int_equal(p->d.areas[0].parent, PV_WI_NONE);
    assert_string_equal(area_name(p, 3), "otm(fn_main);");
    assert_int_equal(p->d.areas[3].handle, 0x10000002);
    assert_true(p->d.areas[3].has_value);
    assert_int_equal(p->d.areas[3].value, 52); /* decimal line number */
    assert_string_equal(area_name(p, 5), "TestStatic1();");
    assert_string_equal(area_name(p, 7), "}");
    assert_int_equal(p->d.areas[7].value, 97);
    assert_string_equal(area_name(p, 8), "\"TestStatic1.c\"#StaticFunc");
    assert_int_equal(p->d.areas[8].handle, 1);
    assert_string_equal(area_name(p, 10), "g_cStaticSignal = STATIC;");
    assert_int_equal(p->d.areas[10].value, 7);
    /* lines belong to the nearest preceding function of the section */
    for (size_t i = 1; i <= 7; i++)
        assert_int_equal(p->d.areas[i].parent, 0);
    for (size_t i = 9; i <= 11; i++)
        assert_int_equal(p->d.areas[i].parent, 8);
    parsed_free(p);
}

static void test_seed_data_mapping_and_states(void **state)
{
    (void)state;
    parsed *p = parse("* HANDLE(Data) %HANDLE%,%NAME%,%VALUE%\n"
                      "20000000,TestStatic1##s_cStatic,\n"
                      "30000000,,0\n"
                      "30000000,,1\n"
                      "20000001,iCounter,\n"
                      "20000002,TestStatic2##s_cStatic,\n"
                      "30000002,,0\n"
                      "30000002,,2\n"
                      "30000002,,1A\n");
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.area_count, 8);
    assert_string_equal(area_name(p, 0), "TestStatic1##s_cStatic");
    assert_string_equal(area_name(p, 1), "");
    assert_true(p->d.areas[2].has_value);
    assert_int_equal(p->d.areas[2].value, 1);
    /* states belong to the variable with the same low 28 bits */
    assert_int_equal(p->d.areas[1].parent, 0);
    assert_int_equal(p->d.areas[2].parent, 0);
    assert_int_equal(p->d.areas[3].parent, PV_WI_NONE);
    assert_int_equal(p->d.areas[5].parent, 4);
    assert_int_equal(p->d.areas[6].value, 2);
    assert_int_equal(p->d.areas[7].value, 0x1A); /* a state value is hex */
    assert_int_equal(p->d.areas[7].parent, 4);
    parsed_free(p);
}

static void test_seed_statistics(void **state)
{
    (void)state;
    parsed *p = parse(
        "* STATISTICS(Functions) %HANDLE%,%VALUE%,%COUNT%,%T.NET%\n"
        "00000000,,0,267\n"
        "10000000,51,0,0\n"
        "10000004,59,1,133\n"
        "\n"
        "* STATISTICS(Data) %HANDLE%,%VALUE%,%COUNT%,%T.NET%\n"
        "20000000,,2,0\n"
        "30000000,0,1,7521\n"
        "30000000,10,1,3491\n"
        "\n"
        "* STATISTICS(Functions) CONTEXT(TSK: extendedTaskFirst) %HANDLE%,%VALUE%,%COUNT%,%T.NET%\n"
        "00000000,,1,37266\n"
        "00000010,,195,737457\n"
        "\n"
        "* STATISTICS(Functions) CONTEXT(TSK: extendedTaskSecond) "
        "%HANDLE%,%VALUE%,%COUNT%,%T.NET%\n"
        "0000000D,,1,757304\n"
        "* STATISTICS(Functions) CONTEXT(ISR: tick(1))%HANDLE%,%COUNT%\n"
        "0000000E,7\n");
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.stat_count, 10);
    const pv_wi_stat_row *s = p->d.stats;
    assert_int_equal(s[0].handle, 0);
    assert_false(s[0].has_value);
    assert_true(s[0].has_count);
    assert_int_equal(s[0].count, 0);
    assert_int_equal(s[0].t[PV_WI_STAT_NET], 267);
    assert_int_equal(s[0].present, 1u << PV_WI_STAT_NET);
    assert_int_equal(s[0].context, 0);
    assert_int_equal(s[0].area_class, 0);
    assert_int_equal(s[2].value, 59); /* a line's value is decimal */
    assert_int_equal(s[2].count, 1);
    assert_int_equal(s[2].t[PV_WI_STAT_NET], 133);
    assert_int_equal(s[3].area_class, 1);
    assert_int_equal(s[5].handle, 0x30000000);
    assert_int_equal(s[5].value, 0x10); /* a state's value is hex */
    assert_int_equal(s[5].t[PV_WI_STAT_NET], 3491);
    assert_string_equal(pv_strpool_get(&p->d.pool, s[6].context), "TSK: extendedTaskFirst");
    assert_int_equal(s[7].count, 195);
    assert_int_equal(s[7].t[PV_WI_STAT_NET], 737457);
    assert_int_equal(s[9].handle, 0x0000000E);
    assert_int_equal(s[9].count, 7);
    assert_string_equal(pv_strpool_get(&p->d.pool, s[9].context), "ISR: tick(1)");
    assert_int_equal(s[8].handle, 0x0000000D);
    assert_string_equal(pv_strpool_get(&p->d.pool, s[8].context), "TSK: extendedTaskSecond");
    assert_string_equal(p->d.sections[2].header,
                        "* STATISTICS(Functions) CONTEXT(TSK: extendedTaskFirst) "
                        "%HANDLE%,%VALUE%,%COUNT%,%T.NET%");
    parsed_free(p);
}

static void test_seed_timeline(void **state)
{
    (void)state;
    parsed *p = parse("* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n"
                      "20000000,W,00000001,4336\n"
                      "00000000,R,,4469\n"
                      "10000004,E,,4469\n"
                      "10000004,S,,4602\n"
                      "00000000,S,,4602\n"
                      "00000000,X,,4700\n");
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.timeline.count, 6);
    assert_int_equal(p->d.timeline.version, 11);
    assert_null(p->d.timeline.text_context);
    pv_wi_event e = event(p, 0);
    assert_int_equal(e.handle, 0x20000000);
    assert_int_equal(e.kind, PV_WI_WRITE);
    assert_int_equal(e.data, 1);
    assert_int_equal(e.time, 4336);
    assert_int_equal(e.core, PV_WI_CORE_UNKNOWN);
    e = event(p, 1);
    assert_int_equal(e.kind, PV_WI_RESUME);
    assert_int_equal(e.data, 0);
    assert_int_equal(event(p, 2).kind, PV_WI_ENTRY);
    assert_int_equal(event(p, 2).handle, 0x10000004);
    assert_int_equal(event(p, 3).kind, PV_WI_SUSPEND);
    assert_int_equal(event(p, 4).time, 4602);
    assert_int_equal(event(p, 5).kind, PV_WI_EXIT);
    parsed_free(p);
}

static const char states_mapping[] = "* HANDLE(DATA) %HANDLE%,%NAME%,%VALUE%\n"
                                     "20000000,VAR,\n"
                                     "30000000,,0\n"
                                     "30000000,,5\n";

static void test_timeline_states_as_writes(void **state)
{
    (void)state;
    char text[512];
    snprintf(text, sizeof text, "%s* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n"
                                "20000000,W,00000005,4336\n",
             states_mapping);
    parsed *p = parse(text);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.area_count, 3); /* "DATA": class names are case-insensitive */
    assert_true(p->d.timeline.states_as_writes);
    pv_wi_event e = event(p, 0);
    assert_int_equal(e.handle, 0x20000000);
    assert_int_equal(e.kind, PV_WI_WRITE);
    assert_int_equal(e.data, 5);
    parsed_free(p);
}

/* The style is decided from what the parse noted of every event, on any
 * path (runs of usual lines, line by line, the generic path): deep in a
 * long TIMELINE, after W on variables without states (one of them sharing
 * the low bits of the variable with states), with the mapping after the
 * TIMELINE, in both orders of fields. */
static void test_timeline_states_found_deep(void **state)
{
    (void)state;
    for (int order = 0; order < 2; order++)
        for (int entry_first = 0; entry_first < 2; entry_first++) {
            pv_buf t;
            pv_buf_init(&t);
            pv_buf_puts(&t, order ? "* TIMELINE %TIME%;%VALUE%;%EVENT%;%HANDLE%\n"
                                  : "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n");
            size_t write_at = entry_first ? 150001 : 120000, entry_at = entry_first ? 130000 : 150001;
            for (size_t i = 0; i < 200000; i++) {
                const char *h = i % 3 == 0 ? (i % 2 ? "20000010" : "40000000") : "00000001";
                char ev = i % 3 == 0 ? 'W' : i % 3 == 1 ? 'E' : 'X';
                const char *v = i % 3 == 0 ? "00000007" : "";
                if (i == write_at) {
                    h = "20000000";
                    ev = 'W';
                    v = "00000005";
                } else if (i == entry_at) {
                    h = "30000000";
                    ev = 'E';
                    v = "00000005";
                }
                if (order)
                    pv_buf_printf(&t, "%zu;%s;%c;%s\n", i + 1, v, ev, h);
                else
                    pv_buf_printf(&t, "%s,%c,%s,%zu%s\n", h, ev, v, i + 1, i == 99 ? "\r" : "");
            }
            pv_buf_puts(&t, states_mapping);
            parsed *p = parse_n(t.data, t.len);
            char want[160];
            snprintf(want, sizeof want,
                     "W on a state variable at event %zu, E on a state handle at event %zu",
                     write_at, entry_at);
            assert_int_equal(diag_count(p, want), 1);
            assert_int_equal(p->d.timeline.states_as_writes, !entry_first);
            parsed_free(p);
            pv_buf_free(&t);
        }
}

static void test_timeline_states_as_entries(void **state)
{
    (void)state;
    char text[512];
    /* the seed's own line, with its leading blank */
    snprintf(text, sizeof text, "%s* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n"
                                " 30000000,E,00000005,4336\n",
             states_mapping);
    parsed *p = parse(text);
    assert_int_equal(p->diag.warnings, 0);
    assert_false(p->d.timeline.states_as_writes);
    pv_wi_event e = event(p, 0);
    assert_int_equal(e.handle, 0x30000000);
    assert_int_equal(e.kind, PV_WI_ENTRY);
    assert_int_equal(e.data, 5);
    assert_int_equal(e.time, 4336);
    parsed_free(p);
}

/* Both TimelineStates styles in one file: the first of each is named, the
 * earlier one decides (the scan for them stops early only when nothing
 * more can be found). */
static void test_timeline_states_mixed(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text, "%s* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n"
                                "00000001,E,,1\n"
                                "20000000,W,00000005,2\n"
                                "20000000,W,00000000,3\n"
                                "30000000,E,00000005,4\n",
             states_mapping);
    parsed *p = parse(text);
    assert_int_equal(p->diag.warnings, 1);
    assert_int_equal(diag_count(p, "W on a state variable at event 1, E on a state handle at "
                                   "event 3"),
                     1);
    assert_true(p->d.timeline.states_as_writes);
    parsed_free(p);
    snprintf(text, sizeof text, "%s* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n"
                                "30000000,E,00000005,1\n"
                                "00000001,E,,2\n"
                                "20000001,W,00000005,3\n" /* no states: not a style */
                                "20000000,W,00000000,4\n",
             states_mapping);
    p = parse(text);
    assert_int_equal(diag_count(p, "W on a state variable at event 3, E on a state handle at "
                                   "event 0"),
                     1);
    assert_false(p->d.timeline.states_as_writes);
    parsed_free(p);
}

/* ---- the template rules */

static void test_separator_inside_names(void **state)
{
    (void)state;
    parsed *p = parse("* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n"
                      "00000000,otm(int a, int b),\n"
                      "10000002,otm(a, b);,52\n"
                      "* CONTEXTS %NAME%,%HANDLE%\n"
                      "Task, the first,0x7\n");
    assert_int_equal(p->diag.warnings, 0);
    assert_string_equal(area_name(p, 0), "otm(int a, int b)");
    assert_string_equal(area_name(p, 1), "otm(a, b);");
    assert_int_equal(p->d.areas[1].value, 52);
    assert_string_equal(context_name(p, 0), "Task, the first");
    assert_int_equal(p->d.contexts[0].handle, 7);
    parsed_free(p);
}

static void test_two_free_text_fields(void **state)
{
    (void)state;
    parsed *p = parse("* HANDLE(Functions) %HANDLE%,%NAME%,%FILE%,%VALUE%\n"
                      "00000000,main,main.c,\n"
                      "10000000,f(a, b),dir,x.c,5\n");
    assert_true(p->ok);
    assert_int_equal(p->d.area_count, 2);
    assert_string_equal(pv_strpool_get(&p->d.pool, p->d.areas[0].file), "main.c");
    /* the first free-text field takes the shortest match, flagged as ambiguous */
    assert_string_equal(area_name(p, 1), "f(a");
    assert_string_equal(pv_strpool_get(&p->d.pool, p->d.areas[1].file), " b),dir,x.c");
    assert_int_equal(p->d.areas[1].value, 5);
    assert_int_equal(p->diag.warnings, 1);
    assert_int_equal(diag_count(p, "t.txt:3: two free-text fields"), 1);
    parsed_free(p);
}

static void test_unknown_section_and_macro_kept(void **state)
{
    (void)state;
    parsed *p = parse("* FUTURE(Stuff) %A%;%B%\n"
                      "1;2\n"
                      "whatever, really\n"
                      "* HANDLE(OS) %HANDLE%,%NAME%\n"
                      "60000000,semaphore\n"
                      "* TIMELINE %HANDLE%,%CORE%,%EVENT%,%VALUE%,%TIME%\n"
                      "00000000,1,E,,100\n"
                      "00000000,1,X,,200\n");
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.section_count, 3);
    assert_false(p->d.sections[0].known);
    assert_string_equal(p->d.sections[0].header, "* FUTURE(Stuff) %A%;%B%");
    assert_int_equal(p->d.sections[0].line_count, 2);
    assert_string_equal(p->d.sections[0].lines[1], "whatever, really");
    /* an unknown class makes the section unknown: kept, not read */
    assert_false(p->d.sections[1].known);
    assert_int_equal(p->d.sections[1].line_count, 1);
    assert_int_equal(p->d.area_count, 0);
    /* an unknown macro is skipped; the lines are kept for writing back */
    assert_true(p->d.sections[2].known);
    assert_int_equal(p->d.timeline.count, 2);
    assert_int_equal(event(p, 1).kind, PV_WI_EXIT);
    assert_int_equal(event(p, 1).time, 200);
    assert_int_equal(p->d.sections[2].line_count, 2);
    assert_string_equal(p->d.sections[2].lines[0], "00000000,1,E,,100");
    parsed_free(p);
}

static void test_macro_names_case_and_blanks(void **state)
{
    (void)state;
    parsed *p = parse("* statistics(functions) %handle%,%Count%,%T. OUTSIDE.MIN%,%t.net.max%\n"
                      "00000003,4,10,-20\n");
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.stat_count, 1);
    assert_int_equal(p->d.stats[0].count, 4);
    assert_int_equal(p->d.stats[0].t[PV_WI_STAT_OUTSIDE_MIN], 10);
    assert_int_equal(p->d.stats[0].t[PV_WI_STAT_NET_MAX], -20);
    assert_int_equal(p->d.stats[0].present,
                     (1u << PV_WI_STAT_OUTSIDE_MIN) | (1u << PV_WI_STAT_NET_MAX));
    parsed_free(p);
}

static void test_crlf_bom_blanks_and_bytes(void **state)
{
    (void)state;
    static const char text[] = "\xEF\xBB\xBF"
                               "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%  \r\n"
                               "\r\n"
                               "   \r\n"
                               "  00000000,caf\xC3\xA9 \xFF\xFE,\t \r\n"
                               "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\r\n"
                               "00000000,E,,10\r\n"
                               "00000000,X,,20   \r\n"
                               "\t00000000,E,,30\r\n"
                               "00000000,X,,40";
    parsed *p = parse_n(text, sizeof text - 1);
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.area_count, 1);
    assert_string_equal(area_name(p, 0), "caf\xC3\xA9 \xFF\xFE");
    assert_string_equal(p->d.sections[0].header, "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%");
    assert_int_equal(p->d.timeline.count, 4);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(event(p, i).time, 10 * (int64_t)(i + 1));
    parsed_free(p);
}

static void test_bad_lines_warn_and_are_skipped(void **state)
{
    (void)state;
    parsed *p = parse("* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n" /* 1 */
                      "0000000G,E,,10\n"                             /* 2: bad hex */
                      "00000000,Q,,20\n"                             /* 3: unknown event */
                      "00000000,E\n"                                 /* 4: short */
                      "00000000,E,,3x\n"                             /* 5: bad time */
                      "123456789,E,,50\n"                            /* 6: 9 hex digits */
                      "00000000,E,zz,60\n"                           /* 7: bad value */
                      "00000000,E,,9223372036854775807\n"            /* 8: fine, 19 digits */
                      "00000000,E,,9223372036854775808\n"            /* 9: overflow */
                      "00000000,X,,70\n");                           /* 10 */
    assert_true(p->ok);
    assert_int_equal(p->diag.warnings, 7);
    assert_int_equal(diag_count(p, "t.txt:2: bad hex handle '0000000G'"), 1);
    assert_int_equal(diag_count(p, "t.txt:3: unknown event"), 1);
    assert_int_equal(diag_count(p, "t.txt:4: missing fields"), 1);
    assert_int_equal(diag_count(p, "t.txt:5: bad decimal time '3x'"), 1);
    assert_int_equal(diag_count(p, "t.txt:6: bad hex handle"), 1);
    assert_int_equal(diag_count(p, "t.txt:7: bad hex value 'zz'"), 1);
    assert_int_equal(diag_count(p, "t.txt:9: bad decimal time"), 1);
    assert_int_equal(p->d.timeline.count, 2);
    assert_int_equal(event(p, 0).time, INT64_MAX);
    assert_int_equal(event(p, 1).time, 70);
    parsed_free(p);
}

static void test_bad_mapping_and_statistics_lines(void **state)
{
    (void)state;
    parsed *p = parse("text before any section\n"
                      "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n"
                      "00000000,main,\n"
                      "10000000,{,fifty\n"
                      "* STATISTICS(Data) %HANDLE%,%VALUE%,%COUNT%,%T.NET%\n"
                      "30000000,XY,1,2\n"
                      "30000000,1,one,2\n"
                      "30000000,1,1,2\n");
    assert_true(p->ok);
    assert_int_equal(diag_count(p, "t.txt:1: 1 line before the first section header"), 1);
    assert_int_equal(diag_count(p, "t.txt:4: bad line number 'fifty'"), 1);
    assert_int_equal(diag_count(p, "t.txt:6: bad hex state value 'XY'"), 1);
    assert_int_equal(diag_count(p, "t.txt:7: bad decimal COUNT 'one'"), 1);
    assert_int_equal(p->diag.warnings, 4);
    assert_int_equal(p->d.area_count, 1);
    assert_int_equal(p->d.stat_count, 1);
    parsed_free(p);
}

static void test_not_text1(void **state)
{
    (void)state;
    parsed *p = parse("0\tMicrosoft (R) PLIST\n1\t521\n");
    assert_false(p->ok);
    assert_int_equal(p->diag.errors, 1);
    assert_int_equal(diag_count(p, "t.txt:1: not a winIDEA Text1 file"), 1);
    parsed_free(p);
    p = parse("");
    assert_false(p->ok);
    parsed_free(p);
}

static void test_ten_megabyte_lines(void **state)
{
    (void)state;
    size_t big = 10u << 20;
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_puts(&b, "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n00000000,");
    for (size_t i = 0; i < big; i++)
        pv_buf_putc(&b, (char)('a' + i % 26));
    pv_buf_puts(&b, ",\n* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n00000000,E,,");
    for (size_t i = 0; i < big; i++)
        pv_buf_putc(&b, (char)('0' + i % 10));
    pv_buf_puts(&b, "\n");
    for (size_t i = 0; i < big; i++)
        pv_buf_putc(&b, ',');
    pv_buf_puts(&b, "\n00000000,E,,5\n");
    parsed *p = parse_n(b.data, b.len);
    pv_buf_free(&b);
    assert_int_equal(p->d.area_count, 1);
    assert_int_equal(strlen(area_name(p, 0)), big);
    assert_int_equal(p->diag.warnings, 2);
    assert_int_equal(diag_count(p, "t.txt:4: bad decimal time '0123456789"), 1);
    assert_int_equal(diag_count(p, "t.txt:5: bad hex handle ''"), 1);
    assert_int_equal(p->d.timeline.count, 1);
    assert_int_equal(event(p, 0).time, 5);
    parsed_free(p);
}

static void test_line_parent_rule(void **state)
{
    (void)state;
    parsed *p = parse("* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%,%HANDLE.PARENT%\n"
                      "00000000,first,,\n"
                      "10000000,a,1,00000001\n" /* explicit parent, defined later */
                      "10000001,b,2,\n"         /* nearest preceding function */
                      "00000001,second,,\n"
                      "10000002,c,3,\n"
                      "10000003,d,4,0000000F\n" /* unknown parent */
                      "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n"
                      "10000004,e,5\n"          /* a new section: no function yet */
                      "* HANDLE(AUX) %HANDLE%,%NAME%,%VALUE%\n"
                      "40000001,adc,\n"
                      "50000001,,FF\n");
    assert_int_equal(p->d.areas[1].parent, 3);
    assert_int_equal(p->d.areas[2].parent, 0);
    assert_int_equal(p->d.areas[4].parent, 3);
    /* an unknown HANDLE.PARENT falls back to the nearest function, with a warning */
    assert_int_equal(p->d.areas[5].parent, 3);
    assert_int_equal(diag_count(p, "t.txt:7: HANDLE.PARENT 0000000F is not an area"), 1);
    assert_int_equal(p->d.areas[6].parent, PV_WI_NONE);
    assert_int_equal(p->d.areas[8].parent, 7); /* AUX state -> AUX */
    assert_int_equal(p->d.areas[8].value, 0xFF);
    assert_int_equal(p->diag.warnings, 1);
    parsed_free(p);
}

static void test_duplicate_handle_warns(void **state)
{
    (void)state;
    parsed *p = parse("* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n"
                      "00000000,main,\n"
                      "00000000,main again,\n"
                      "10000000,{,1\n");
    assert_int_equal(p->d.area_count, 3);
    assert_int_equal(diag_count(p, "t.txt:3: handle 00000000 defined again (first at line 2)"),
                     1);
    assert_int_equal(p->d.areas[2].parent, 1); /* nearest preceding type-0 row */
    parsed_free(p);
}

static void test_timeline_context_field(void **state)
{
    (void)state;
    parsed *p = parse("* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n"
                      "00000000,E,,1\n"
                      "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n"
                      "00000000,E,,2,TSK: extendedTaskFirst\n"
                      "00000001,E,,3,extendedTaskSecond\n"
                      "00000001,X,,4,\n"
                      "00000002,E,,5,ISR: Unlisted\n"
                      "00000002,X,,6,TSK: extendedTaskFirst\r\n"
                      "* CONTEXTS %NAME%,%HANDLE%\n" /* after the timeline: still matched */
                      "extendedTaskFirst,0x10\n"
                      "extendedTaskSecond,0x11\n");
    assert_int_equal(p->diag.warnings, 0);
    assert_int_equal(p->d.timeline.count, 6);
    const uint16_t *tc = p->d.timeline.text_context;
    assert_non_null(tc);
    assert_int_equal(tc[0], UINT16_MAX); /* the first section had no %CONTEXT% */
    assert_int_equal(tc[1], 0);          /* "TSK: " prefix removed */
    assert_int_equal(tc[2], 1);
    assert_int_equal(tc[3], UINT16_MAX); /* empty: none named */
    assert_int_equal(tc[4], 2);          /* unknown: a new context, as written */
    assert_int_equal(tc[5], 0);
    assert_int_equal(p->d.context_count, 3);
    assert_string_equal(context_name(p, 2), "ISR: Unlisted");
    assert_int_equal(p->d.contexts[2].handle, UINT64_MAX);
    parsed_free(p);
}

static void test_general_path_matches_fast_path(void **state)
{
    (void)state;
    /* the same events, once in the plain layout (fast path) and once with a
     * prefix and multi-character separators (general path) */
    parsed *a = parse("* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n"
                      "20000000,W,FFFFFFFFFFFFFFFF,-5\n"
                      "0000000A,E,,0\n");
    parsed *b = parse("* TIMELINE ev: %HANDLE% | %EVENT% | %VALUE% | %TIME% ns\n"
                      "ev: 20000000 | W | FFFFFFFFFFFFFFFF | -5 ns\n"
                      "ev: 0000000A | E |  | 0 ns\n");
    assert_int_equal(a->diag.warnings + b->diag.warnings, 0);
    assert_int_equal(a->d.timeline.count, 2);
    assert_int_equal(b->d.timeline.count, 2);
    assert_memory_equal(a->d.timeline.records, b->d.timeline.records, 2 * PV_WI_RECORD_SIZE);
    assert_int_equal(event(a, 0).data, UINT64_MAX);
    assert_int_equal(event(a, 0).time, -5);
    parsed_free(a);
    parsed_free(b);
}

/* Lines for the seed layout's eight-digits-at-a-time path (used when 64
 * bytes or more follow a line): digit runs of every length around 8, 16
 * and 18, and the characters next to the digit and letter ranges. */
static const char *const seed_lines[] = {
    "20000000,W,00000001,4336",           "0000000a,E,,12345678",
    "1,E,,0",                             "123456789,E,,50",
    "20000000,W,FFFFFFFFFFFFFFFF,-5",     "20000000,W,1FFFFFFFFFFFFFFFF,7",
    "00000000,E,,123456789012345678",     "00000000,E,,9223372036854775807",
    "00000000,E,,9223372036854775808",    "0000000G,E,,10",
    "00000000,E,,3x",                     "00000000,X,,70\r",
    "ABCDEF12,W,abcdef12,1234567890",     "00000000,E,, 5",
    "00000000,E,,-",                      "00000000,E,,12345678x",
    "0000:000,E,,1",                      "000@0000,E,,1",
    "000`0000,E,,1",                      "000g0000,E,,1",
    "0000/000,E,,1",                      "00000000,E,,1234/678",
    "00000000,E,,1234:678",               "0000\303\251000,E,,1",
    "20000000,W,0000000F0,99",            "20000000,W,1234567,-98765432",
    "20000000,W,,100000000",              "00000000;E,,1",
};

/* The warning's text after "t.txt:LINE: ". */
static const char *after_place(const char *w)
{
    const char *c = strstr(w, ": ");
    return c ? c + 2 : w;
}

/* Parses `header` and the n lines whole (with room after every line) and
 * each line alone at the end of its text (the checked paths), asserts
 * they read the same events, contexts and warnings, and returns the whole
 * parse; its text stays in *all. */
static parsed *parse_whole_and_each(const char *header, const char *const *lines, size_t n,
                                    pv_buf *all)
{
    pv_buf_init(all);
    pv_buf_puts(all, header);
    for (size_t i = 0; i < n; i++)
        pv_buf_printf(all, "%s\n", lines[i]);
    for (int pad = 0; pad < 100; pad++) /* room after every line */
        pv_buf_puts(all, "\n");
    parsed *a = parse_n(all->data, all->len);
    assert_true(a->ok);
    size_t events = 0, warnings = 0;
    for (size_t i = 0; i < n; i++) {
        pv_buf one;
        pv_buf_init(&one);
        pv_buf_printf(&one, "%s%s\n", header, lines[i]);
        parsed *b = parse_n(one.data, one.len);
        assert_true(b->ok);
        for (size_t e = 0; e < b->d.timeline.count; e++, events++) {
            assert_true(events < a->d.timeline.count);
            assert_memory_equal(a->d.timeline.records + events * PV_WI_RECORD_SIZE,
                                b->d.timeline.records + e * PV_WI_RECORD_SIZE, PV_WI_RECORD_SIZE);
            assert_int_equal(a->d.timeline.text_context != NULL, b->d.timeline.text_context != NULL);
            if (!a->d.timeline.text_context)
                continue;
            uint16_t ca = a->d.timeline.text_context[events];
            uint16_t cb = b->d.timeline.text_context[e];
            assert_int_equal(ca == UINT16_MAX, cb == UINT16_MAX);
            if (ca != UINT16_MAX)
                assert_string_equal(context_name(a, ca), context_name(b, cb));
        }
        for (size_t w = 0; w < b->diag.entry_count; w++, warnings++) {
            assert_true(warnings < a->diag.entry_count);
            assert_string_equal(after_place(a->diag.entries[warnings].text),
                                after_place(b->diag.entries[w].text));
        }
        parsed_free(b);
        pv_buf_free(&one);
    }
    assert_int_equal(a->d.timeline.count, events);
    assert_int_equal(a->diag.entry_count, warnings);
    return a;
}

static void test_seed_layout_path_matches_line_by_line(void **state)
{
    (void)state;
    static const char header[] = "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n";
    size_t n = sizeof seed_lines / sizeof *seed_lines;
    pv_buf all;
    parsed *a = parse_whole_and_each(header, seed_lines, n, &all);
    size_t events = a->d.timeline.count, warnings = a->diag.entry_count;
    /* and what the lines say, written out by hand */
    assert_int_equal(events, 12);
    assert_int_equal(warnings, 16);
    assert_int_equal(event(a, 0).handle, 0x20000000);
    assert_int_equal(event(a, 0).data, 1);
    assert_int_equal(event(a, 0).time, 4336);
    assert_int_equal(event(a, 1).handle, 0xA);
    assert_int_equal(event(a, 1).time, 12345678);
    assert_int_equal(event(a, 2).handle, 1);
    assert_int_equal(event(a, 3).data, UINT64_MAX);
    assert_int_equal(event(a, 3).time, -5);
    assert_int_equal(event(a, 4).time, 123456789012345678);
    assert_int_equal(event(a, 5).time, INT64_MAX);
    assert_int_equal(event(a, 6).kind, PV_WI_EXIT);
    assert_int_equal(event(a, 6).time, 70);
    assert_int_equal(event(a, 7).handle, 0xABCDEF12);
    assert_int_equal(event(a, 7).data, 0xABCDEF12);
    assert_int_equal(event(a, 7).time, 1234567890);
    assert_int_equal(event(a, 8).time, 5);
    assert_int_equal(event(a, 9).data, 0xF0);
    assert_int_equal(event(a, 10).data, 0x1234567);
    assert_int_equal(event(a, 10).time, -98765432);
    assert_int_equal(event(a, 11).data, 0);
    assert_int_equal(event(a, 11).time, 100000000);
    parsed_free(a);
    pv_buf_free(&all);
}

/* The generic fast path (any order of fields, %CONTEXT%) reads 8 bytes at
 * once where 16 or more follow: the seed's lines with a context name after
 * them, and the same fields in another order, each line alone at the end
 * of its text (byte by byte) against all of them with room after each. */
static void test_fast_path_matches_line_by_line(void **state)
{
    (void)state;
    static const char *const names[] = {
        "A", "Task_Fast_And_Long_Name_1", "", "TSK: B", "ISR,x", "caf\303\251 task", "12345678\r",
    };
    for (int order = 0; order < 2; order++) {
        const char *header = order ? "* TIMELINE %CONTEXT%;%TIME%;%VALUE%;%EVENT%;%HANDLE%\n"
                                   : "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n";
        size_t n = PV_ARRAY_LEN(seed_lines);
        char lines[PV_ARRAY_LEN(seed_lines)][400];
        const char *line_at[PV_ARRAY_LEN(seed_lines)];
        for (size_t i = 0; i < n; i++) {
            const char *name = names[i % PV_ARRAY_LEN(names)];
            if (!order) {
                snprintf(lines[i], sizeof lines[i], "%s,%s", seed_lines[i], name);
            } else { /* the four fields reversed, after the name */
                char f[4][64] = {{0}};
                const char *c = seed_lines[i];
                for (int k = 0; k < 4; k++) {
                    size_t len = k < 3 && strchr(c, ',') ? (size_t)(strchr(c, ',') - c) : strlen(c);
                    memcpy(f[k], c, len < 63 ? len : 63);
                    c += len + (c[len] != '\0');
                }
                snprintf(lines[i], sizeof lines[i], "%s;%s;%s;%s;%s", name, f[3], f[2], f[1],
                         f[0]);
            }
            line_at[i] = lines[i];
        }
        pv_buf all;
        parsed *a = parse_whole_and_each(header, line_at, n, &all);
        size_t events = a->d.timeline.count;
        /* as the seed's layout reads them, but for "70\r": here a CR inside
         * the line (a bad time) */
        assert_int_equal(events, 11);
        assert_int_equal(event(a, 4).time, 123456789012345678);
        assert_int_equal(event(a, 6).data, 0xABCDEF12);
        assert_string_equal(context_name(a, a->d.timeline.text_context[1]),
                            "Task_Fast_And_Long_Name_1");
        parsed_free(a);
        pv_buf_free(&all);
    }
}

static void test_header_without_format(void **state)
{
    (void)state;
    parsed *p = parse("* TIMELINE\n00000000,E,,1\n* TIMELINE %HANDLE%,%VALUE%\n1,2\n");
    assert_true(p->ok);
    assert_int_equal(p->d.timeline.count, 0);
    assert_int_equal(diag_count(p, "t.txt:1: TIMELINE section has no %MACRO%"), 1);
    assert_int_equal(diag_count(p, "t.txt:3: TIMELINE section format has no %EVENT%"), 1);
    assert_int_equal(p->d.sections[0].line_count, 1);
    assert_int_equal(p->d.sections[1].line_count, 1);
    parsed_free(p);
}

static void test_probe(void **state)
{
    (void)state;
    static const char seed[] = "* INFO %TOTAL_TIME%\n7962907051\n";
    assert_int_equal(pv_wi_text1_probe((const unsigned char *)seed, sizeof seed - 1), 90);
    static const char bom[] = "\xEF\xBB\xBF\r\n  \r\n* handle(Functions) %HANDLE%\r\n";
    assert_int_equal(pv_wi_text1_probe((const unsigned char *)bom, sizeof bom - 1), 90);
    static const char unknown_first[] = "* FUTURE %X%\nx\n* TIMELINE %HANDLE%\n";
    assert_int_equal(
        pv_wi_text1_probe((const unsigned char *)unknown_first, sizeof unknown_first - 1), 60);
    static const char plist[] = "0\tMicrosoft (R) PLIST\n";
    assert_int_equal(pv_wi_text1_probe((const unsigned char *)plist, sizeof plist - 1), 0);
    static const char other[] = "* TIMELINES are fun\n";
    assert_int_equal(pv_wi_text1_probe((const unsigned char *)other, sizeof other - 1), 0);
    /* a text file never looks like a BIN, so Text1 wins */
    assert_int_equal(pv_wi_bin_probe((const unsigned char *)seed, sizeof seed - 1, sizeof seed),
                     0);
}

/* A sink that records what it was handed (docs/winidea-input.md "Reading
 * and indexing at once"). */
typedef struct sink_log {
    size_t calls, last_count, aborts;
    const unsigned char *records;
    bool records_moved;
    uint32_t parent_seen; /* area 1's parent at the first call */
} sink_log;

static bool sink_events(void *user, pv_wi_data *d, size_t count, size_t done)
{
    sink_log *l = user;
    assert_true(count > l->last_count);
    assert_true(count <= d->timeline.owned_cap);
    assert_true(done > 0);
    if (l->calls++ == 0)
        l->parent_seen = d->area_count > 1 ? d->areas[1].parent : UINT32_MAX;
    else if (d->timeline.records != l->records)
        l->records_moved = true;
    l->records = d->timeline.records;
    l->last_count = count;
    return true;
}

static void sink_abort(void *user)
{
    ((sink_log *)user)->aborts++;
}

static void test_sink_hands_events_out(void **state)
{
    (void)state;
    /* area 1's parent is a HANDLE.PARENT resolved at the end of the parse:
     * the sink sees it resolved already; its warning (the other parent is
     * not found) comes at the end, as without a sink */
    static const char head[] = "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%,%HANDLE.PARENT%\n"
                               "00000001,F,,\n"
                               "10000001,x;,5,00000001\n"
                               "10000002,y;,6,0000000F\n"
                               "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n";
    pv_buf text;
    pv_buf_init(&text);
    pv_buf_puts(&text, head);
    for (int i = 0; i < 10; i++)
        pv_buf_printf(&text, "00000001,%c,,%d\n", i % 2 ? 'X' : 'E', i);
    pv_buf_puts(&text, "zzz,E,,10\n00000001,E,,11\n");
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) /* a section after the TIMELINE: the sink must drop it all */
            pv_buf_puts(&text, "* HANDLE(Functions) %HANDLE%,%NAME%\n00000002,G\n");
        parsed *plain = parse_n(text.data, text.len);
        sink_log log = {0};
        pv_wi_text1_sink sink = {sink_events, sink_abort, &log, 3, NULL};
        pv_wi_data d;
        pv_wi_data_init(&d);
        pv_diag diag;
        pv_diag_init(&diag);
        assert_true(pv_wi_parse_text1_sink("t.txt", (const unsigned char *)text.data, text.len,
                                           &d, &diag, NULL, &sink));
        assert_int_equal(log.calls, 3); /* at 3, 6 and 9 events (11 in all) */
        assert_int_equal(log.last_count, 9);
        assert_false(log.records_moved);
        assert_int_equal(log.parent_seen, 0);
        assert_int_equal(log.aborts, pass);
        /* the same data and messages as without a sink */
        assert_int_equal(d.timeline.count, 11);
        assert_int_equal(d.timeline.count, plain->d.timeline.count);
        assert_memory_equal(d.timeline.records, plain->d.timeline.records, 11 * 24);
        assert_int_equal(d.area_count, plain->d.area_count);
        for (size_t i = 0; i < d.area_count; i++)
            assert_int_equal(d.areas[i].parent, plain->d.areas[i].parent);
        assert_int_equal(diag.entry_count, plain->diag.entry_count);
        for (size_t i = 0; i < diag.entry_count; i++)
            assert_string_equal(diag.entries[i].text, plain->diag.entries[i].text);
        assert_int_equal(diag_count(plain, "HANDLE.PARENT 0000000F"), 1);
        pv_wi_data_free(&d);
        pv_diag_free(&diag);
        parsed_free(plain);
    }
    /* with %CONTEXT%: handed out while every name is a CONTEXTS entry's
     * (the events carry that context), and no more from the first that is
     * not (found without its prefix, or new): then the same data and
     * messages as without a sink all the same */
    static const char *const ctx_texts[] = {
        "* CONTEXTS %NAME%,%HANDLE%\nA,0x0\nB,0x1\n"
        "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n"
        "00000001,E,,1,A\n00000001,E,,2,B\n00000001,X,,3,\n00000001,X,,4,A\n00000001,E,,5,B\n"
        "00000001,E,,6,A\n00000001,X,,7,A\n",
        "* CONTEXTS %NAME%,%HANDLE%\nA,0x0\nB,0x1\n"
        "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n"
        "00000001,E,,1,A\n00000001,E,,2,B\n00000001,X,,3,\n00000001,X,,4,TSK: A\n"
        "00000001,E,,5,C\n00000001,E,,6,A\n00000001,X,,7,B\n",
        "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n"
        "00000001,E,,1,A\n00000001,X,,2,A\n00000001,E,,3,A\n"
        "* CONTEXTS %NAME%,%HANDLE%\nA,0x0\n",
    };
    for (size_t k = 0; k < PV_ARRAY_LEN(ctx_texts); k++) {
        const char *ctx_text = ctx_texts[k];
        parsed *ctx = parse(ctx_text);
        sink_log log = {0};
        pv_wi_text1_sink sink = {sink_events, sink_abort, &log, 1, NULL};
        pv_wi_data d;
        pv_wi_data_init(&d);
        pv_diag diag;
        pv_diag_init(&diag);
        assert_true(pv_wi_parse_text1_sink("t.txt", (const unsigned char *)ctx_text,
                                           strlen(ctx_text), &d, &diag, NULL, &sink));
        size_t n = ctx->d.timeline.count;
        assert_int_equal(d.timeline.count, n);
        assert_memory_equal(d.timeline.records, ctx->d.timeline.records, n * PV_WI_RECORD_SIZE);
        assert_memory_equal(d.timeline.text_context, ctx->d.timeline.text_context,
                            n * sizeof(uint16_t));
        assert_int_equal(d.context_count, ctx->d.context_count);
        for (size_t c = 0; c < d.context_count; c++)
            assert_string_equal(pv_strpool_get(&d.pool, d.contexts[c].name),
                                pv_strpool_get(&ctx->d.pool, ctx->d.contexts[c].name));
        assert_int_equal(diag.entry_count, ctx->diag.entry_count);
        if (k == 0) { /* every name found: handed out to the end */
            assert_int_equal(log.calls, 7); /* at every event (chunk 1) */
            assert_int_equal(log.aborts, 0);
            assert_int_equal(d.timeline.text_context[1], 1);
            assert_int_equal(d.timeline.text_context[2], UINT16_MAX);
        } else if (k == 1) { /* stopped at "TSK: A" (the fourth event) */
            assert_int_equal(log.calls, 3);
            assert_int_equal(log.aborts, 1);
            assert_int_equal(d.timeline.text_context[3], 0); /* A, found without its prefix */
            assert_int_equal(d.context_count, 3);             /* C: a new context */
            assert_int_equal(d.timeline.text_context[4], 2);
        } else { /* CONTEXTS after the TIMELINE: no name found while reading */
            assert_int_equal(log.calls, 0);
            assert_int_equal(d.timeline.text_context[0], 0);
        }
        pv_wi_data_free(&d);
        pv_diag_free(&diag);
        parsed_free(ctx);
    }
    pv_buf_free(&text);
}

/* Counts the parse's progress reports. */
static void count_progress(void *user, const char *what, uint64_t done, uint64_t total)
{
    (void)what;
    (void)done;
    (void)total;
    ++*(size_t *)user;
}

/* Many lines of the seed's layout, most of them the usual (an 8-digit
 * handle, an empty or 8-digit value, a bare line feed) and among them the
 * others: short or long numbers, negative and 18-digit times, CRLF, bad
 * lines.  Read in runs of usual lines (text1_seed_run, which stops before
 * a new block of records, a hand-over to the sink and a progress report),
 * they give the same records, messages and progress reports as the same
 * lines in another order of fields (the generic path, line by line), with
 * a sink or without. */
static void test_seed_runs_match_generic_path(void **state)
{
    (void)state;
    pv_buf seed, other;
    pv_buf_init(&seed);
    pv_buf_init(&other);
    pv_buf_puts(&seed, "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%\n");
    pv_buf_puts(&other, "* TIMELINE %TIME%;%VALUE%;%EVENT%;%HANDLE%\n");
    uint64_t x = 12345;
    size_t lines = 1;
    for (size_t i = 0; i < 200000; i++, lines++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(x >> 33);
        char handle[24], value[24], time[32];
        const char *end = "\n";
        snprintf(handle, sizeof handle, "%08X", r & 0x3000000Fu);
        value[0] = '\0';
        if (r % 5 == 0)
            snprintf(value, sizeof value, "%08x", r);
        snprintf(time, sizeof time, "%llu", (unsigned long long)(i * 977 + (r % 1000)));
        switch ((r >> 8) % 97) {
        case 0: snprintf(handle, sizeof handle, "%X", r & 0xF); break;
        case 1: snprintf(value, sizeof value, "%X", r & 0xFFFFF); break;
        case 2: snprintf(value, sizeof value, "%016llX", (unsigned long long)x); break;
        case 3: snprintf(time, sizeof time, "-%u", r % 100000); break;
        case 4: snprintf(time, sizeof time, "%llu", (unsigned long long)(x >> 4) % 999999999999999999u); break;
        case 5: end = "\r\n"; break;
        case 6: snprintf(handle, sizeof handle, "0000000G"); break;
        case 7: snprintf(time, sizeof time, "12x"); break;
        case 8: snprintf(value, sizeof value, "1234567890ABCDEF1"); break;
        default: break;
        }
        char event = "EXSRW"[(r >> 16) % 5];
        pv_buf_printf(&seed, "%s,%c,%s,%s%s", handle, event, value, time, end);
        pv_buf_printf(&other, "%s;%s;%c;%s%s", time, value, event, handle, end);
    }
    size_t reports[3] = {0};
    pv_wi_data d[3];
    pv_diag diag[3];
    sink_log log = {0};
    pv_wi_text1_sink sink = {sink_events, sink_abort, &log, 1000, NULL};
    for (int k = 0; k < 3; k++) {
        pv_progress progress = {count_progress, &reports[k], NULL};
        const pv_buf *text = k == 1 ? &other : &seed;
        pv_wi_data_init(&d[k]);
        pv_diag_init(&diag[k]);
        assert_true(pv_wi_parse_text1_sink("t.txt", (const unsigned char *)text->data, text->len,
                                           &d[k], &diag[k], &progress, k == 2 ? &sink : NULL));
    }
    assert_true(d[0].timeline.count > 190000);
    assert_true(diag[0].warnings > 1000);
    assert_int_equal(reports[0], lines / 65536);
    assert_int_equal(log.aborts, 0);
    assert_int_equal(log.last_count, d[0].timeline.count / 1000 * 1000);
    for (int k = 1; k < 3; k++) {
        assert_int_equal(d[k].timeline.count, d[0].timeline.count);
        assert_memory_equal(d[k].timeline.records, d[0].timeline.records,
                            d[0].timeline.count * PV_WI_RECORD_SIZE);
        assert_int_equal(reports[k], reports[0]);
        assert_int_equal(diag[k].warnings, diag[0].warnings);
        assert_int_equal(diag[k].entry_count, diag[0].entry_count);
        for (size_t i = 0; i < diag[0].entry_count; i++) /* the same lines */
            assert_int_equal(atoi(diag[k].entries[i].text + 6), atoi(diag[0].entries[i].text + 6));
    }
    for (int k = 0; k < 3; k++) {
        pv_wi_data_free(&d[k]);
        pv_diag_free(&diag[k]);
    }
    pv_buf_free(&seed);
    pv_buf_free(&other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_info_and_contexts),
        cmocka_unit_test(test_seed_function_mapping),
        cmocka_unit_test(test_seed_data_mapping_and_states),
        cmocka_unit_test(test_seed_statistics),
        cmocka_unit_test(test_seed_timeline),
        cmocka_unit_test(test_timeline_states_as_writes),
        cmocka_unit_test(test_timeline_states_mixed),
        cmocka_unit_test(test_timeline_states_found_deep),
        cmocka_unit_test(test_timeline_states_as_entries),
        cmocka_unit_test(test_separator_inside_names),
        cmocka_unit_test(test_two_free_text_fields),
        cmocka_unit_test(test_unknown_section_and_macro_kept),
        cmocka_unit_test(test_macro_names_case_and_blanks),
        cmocka_unit_test(test_crlf_bom_blanks_and_bytes),
        cmocka_unit_test(test_bad_lines_warn_and_are_skipped),
        cmocka_unit_test(test_bad_mapping_and_statistics_lines),
        cmocka_unit_test(test_not_text1),
        cmocka_unit_test(test_ten_megabyte_lines),
        cmocka_unit_test(test_line_parent_rule),
        cmocka_unit_test(test_duplicate_handle_warns),
        cmocka_unit_test(test_timeline_context_field),
        cmocka_unit_test(test_general_path_matches_fast_path),
        cmocka_unit_test(test_seed_layout_path_matches_line_by_line),
        cmocka_unit_test(test_fast_path_matches_line_by_line),
        cmocka_unit_test(test_seed_runs_match_generic_path),
        cmocka_unit_test(test_header_without_format),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_sink_hands_events_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
