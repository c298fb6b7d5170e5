/* fuzz_yaml.c - libFuzzer target for the YAML the viewer reads (built with
 * -DPV_FUZZ=ON and clang): every input is parsed both as a theme and as a
 * config.yaml (theme name, time unit, key bindings, default columns), and
 * every error message is built.  Seed it with the files of themes/. */
#include <stdint.h>

#include "tui/config.h"
#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pv_buf err;
    pv_buf_init(&err);
    pv_theme t;
    pv_theme_builtin(&t);
    if (pv_theme_parse(&t, (const char *)data, size, "fuzz.yaml", &err))
        for (int r = 0; r < PV_ROLE_COUNT; r++)
            if (t.roles[r].fg < PV_COLOR_DEFAULT || t.roles[r].fg > 255 ||
                t.roles[r].bg < PV_COLOR_DEFAULT || t.roles[r].bg > 255)
                __builtin_trap();
    pv_buf_clear(&err);
    pv_tui_config c;
    pv_config_init(&c);
    (void)pv_config_parse(&c, (const char *)data, size, "config.yaml", &err);
    if (c.column_view_count > PV_CONFIG_MAX_VIEWS)
        __builtin_trap();
    for (size_t i = 0; i < c.column_view_count; i++)
        (void)pv_config_columns(&c, c.columns[i].view);
    pv_config_free(&c);
    pv_buf_free(&err);
    return 0;
}
