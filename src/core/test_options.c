/* test_options.c - the tests' switches (core.h "test options",
 * docs/testing.md): names and parsing, from PV_TEST_OPTIONS. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/core.h"

static const struct {
    const char *name;
    const char *help;
} pv_test_info[PV_TEST_COUNT] = {
#define PV_TEST_INFO(id, text, help) [PV_TEST_##id] = {text, help},
    PV_TEST_OPTIONS(PV_TEST_INFO)
#undef PV_TEST_INFO
};

bool pv_test_parse(pv_test_options *t, const char *name_value, char *err, size_t err_size)
{
    const char *eq = strchr(name_value, '=');
    size_t len = eq ? (size_t)(eq - name_value) : strlen(name_value);
    for (size_t o = 0; o < PV_TEST_COUNT; o++) {
        if (strlen(pv_test_info[o].name) != len || strncmp(pv_test_info[o].name, name_value, len) != 0)
            continue;
        const char *v = eq ? eq + 1 : "";
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || errno) {
            snprintf(err, err_size, "--test %.*s takes an integer (%s), not '%s'", (int)len,
                     name_value, pv_test_info[o].help, v);
            return false;
        }
        pv_test_set(t, (pv_test_option)o, (int64_t)x);
        return true;
    }
    snprintf(err, err_size, "--test: no test option '%.*s'", (int)len, name_value);
    return false;
}

void pv_test_print(FILE *fp)
{
    for (size_t o = 0; o < PV_TEST_COUNT; o++)
        fprintf(fp, "  %-20s %s\n", pv_test_info[o].name, pv_test_info[o].help);
}
