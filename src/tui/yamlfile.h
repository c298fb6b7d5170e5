/* yamlfile.h - reading small YAML files (themes, config) with libyaml, and
 * messages that name the file, line and column of a problem. */
#ifndef PROFVIEW_TUI_YAMLFILE_H
#define PROFVIEW_TUI_YAMLFILE_H

#include <yaml.h>

#include "profview/core.h"

/* Parses `len` bytes.  Returns false with "FILE:LINE:COL: reason" in err. */
bool pv_yaml_load(yaml_document_t *doc, const char *text, size_t len, const char *file,
                  pv_buf *err);
/* Appends "FILE:LINE:COL: message" about `node` (lines 1-based). */
void pv_yaml_error(pv_buf *err, const char *file, const yaml_node_t *node, const char *fmt, ...)
    PV_PRINTF(4, 5);
/* The scalar's text, or NULL when the node is not a scalar. */
const char *pv_yaml_scalar(const yaml_node_t *node);
/* Reads a whole file (at most 1 MiB: themes and configs are small).  Returns
 * NULL and sets errno when it cannot. */
char *pv_yaml_read_file(const char *path, size_t *len);

#endif
