/* fuzz_query.c - libFuzzer target for the filter language and the sort
 * spec (built with -DPV_FUZZ=ON and clang).  The input is split at the
 * first newline: a filter expression and a sort spec, both compiled against
 * a small tree table with a column of every type; whatever compiles is run
 * over every row, and every error is rendered. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profview/query.h"
#include "profview/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const pv_column fuzz_cols[] = {
    {"id", "Id", PV_TYPE_INT, 0},       {"name", "Name", PV_TYPE_STRING, PV_COL_NAME},
    {"time", "Time", PV_TYPE_TIME, 0},  {"handle", "Handle", PV_TYPE_HANDLE, 0},
    {"value", "Value", PV_TYPE_HEX, 0}, {"pct", "%", PV_TYPE_FLOAT, 0},
};

static pv_view *fuzz_table(void)
{
    static const char *const names[] = {"main", "Otm", "", "a*b?c", "x y"};
    pv_table *t = pv_table_new("t", "T", fuzz_cols, PV_ARRAY_LEN(fuzz_cols));
    pv_table_make_tree(t);
    for (size_t i = 0; i < 12; i++) {
        size_t r = pv_table_add_row(t);
        pv_table_set_int(t, r, 0, (int64_t)i);
        if (i % 6 != 5)
            pv_table_set_cstr(t, r, 1, names[i % 5]);
        pv_table_set_int(t, r, 2, (int64_t)(i * 997) - 3000);
        pv_table_set_uint(t, r, 3, 0x10000000u + (uint64_t)(i % 4));
        if (i % 3)
            pv_table_set_uint(t, r, 4, i * 7);
        pv_table_set_float(t, r, 5, (double)i / 3.0);
        if (i % 4)
            pv_table_set_parent(t, r, i / 2);
    }
    return pv_table_view(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pv_view *v;
    if (!v)
        v = fuzz_table();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *spec = strchr(text, '\n');
    if (spec)
        *spec++ = '\0';

    pv_query_error err;
    pv_buf out;
    pv_buf_init(&out);
    pv_row rows[12];
    pv_filter *f = pv_filter_compile(v, text, &err);
    size_t n = pv_filter_rows(f, v, NULL, 0, rows, NULL);
    if (!f && err.message[0])
        pv_query_error_render(&err, text, &out);
    pv_filter_free(f);
    if (spec) {
        pv_sort_key keys[PV_SORT_MAX_KEYS];
        size_t count;
        if (pv_sort_parse(v, spec, keys, &count, &err))
            pv_sort_rows(v, keys, count, rows, n);
        else
            pv_query_error_render(&err, spec, &out);
    }
    pv_buf_free(&out);
    free(text);
    return 0;
}
