/* yamlfile.c - libyaml document loading with file:line:col messages. */
#include "tui/yamlfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

bool pv_yaml_load(yaml_document_t *doc, const char *text, size_t len, const char *file, pv_buf *err)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        pv_buf_printf(err, "%s: cannot start the YAML parser", file);
        return false;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    bool ok = yaml_parser_load(&parser, doc) != 0;
    if (!ok) {
        /* libyaml marks are 0-based. */
        pv_buf_printf(err, "%s:%zu:%zu: %s", file, parser.problem_mark.line + 1,
                      parser.problem_mark.column + 1,
                      parser.problem ? parser.problem : "malformed YAML");
        if (parser.context)
            pv_buf_printf(err, " (%s)", parser.context);
    }
    yaml_parser_delete(&parser);
    return ok;
}

void pv_yaml_error(pv_buf *err, const char *file, const yaml_node_t *node, const char *fmt, ...)
{
    if (err->len)
        pv_buf_putc(err, '\n');
    pv_buf_printf(err, "%s:%zu:%zu: ", file, node ? node->start_mark.line + 1 : 1,
                  node ? node->start_mark.column + 1 : 1);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(err, fmt, ap);
    va_end(ap);
}

const char *pv_yaml_scalar(const yaml_node_t *node)
{
    return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

char *pv_yaml_read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 20;
    char *data = pv_xmalloc(cap + 1);
    *len = fread(data, 1, cap, fp);
    bool bad = ferror(fp) != 0;
    fclose(fp);
    if (bad) {
        free(data);
        errno = EIO;
        return NULL;
    }
    data[*len] = '\0';
    return data;
}
