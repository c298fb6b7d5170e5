/* config.c - config.yaml (docs/tui.md: theme, key bindings, default
 * columns, time unit).  The keys section is read through the action table
 * (actions.def), so every action is rebindable by its name. */
#include "tui/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/yamlfile.h"

void pv_config_init(pv_tui_config *c)
{
    memset(c, 0, sizeof *c);
    c->time_unit = PV_UNIT_AUTO;
    pv_keymap_init_defaults(&c->keys);
}

/* A scalar, or a sequence of scalars joined by `sep`. */
static bool pv_config_words(yaml_document_t *doc, yaml_node_t *node, char sep, char *out,
                            size_t size)
{
    if (pv_yaml_scalar(node)) {
        snprintf(out, size, "%s", pv_yaml_scalar(node));
        return true;
    }
    if (node->type != YAML_SEQUENCE_NODE)
        return false;
    size_t used = 0;
    out[0] = '\0';
    for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top;
         it++) {
        const char *s = pv_yaml_scalar(yaml_document_get_node(doc, *it));
        if (!s)
            return false;
        int w = snprintf(out + used, size - used, "%s%s", used ? (char[]){sep, 0} : "", s);
        if (w < 0 || (size_t)w >= size - used)
            return false;
        used += (size_t)w;
    }
    return true;
}

static bool pv_config_keys(pv_tui_config *c, yaml_document_t *doc, yaml_node_t *map,
                           const char *file, pv_buf *err)
{
    if (map->type != YAML_MAPPING_NODE) {
        pv_yaml_error(err, file, map, "'keys' is a mapping of action: keys");
        return false;
    }
    bool ok = true;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *name = pv_yaml_scalar(k);
        pv_action a = name ? pv_action_find(name) : PV_ACT_NONE;
        if (a == PV_ACT_NONE) {
            pv_yaml_error(err, file, k, "unknown action '%s' (see profview --help)",
                          name ? name : "?");
            ok = false;
            continue;
        }
        char keys[256], bad[32];
        if (!pv_config_words(doc, v, ' ', keys, sizeof keys)) {
            pv_yaml_error(err, file, v, "action '%s': give key names, e.g. \"j Down\"", name);
            ok = false;
        } else if (!pv_keymap_bind(&c->keys, a, keys, bad, sizeof bad)) {
            pv_yaml_error(err, file, v, "action '%s': unknown key '%s'", name, bad);
            ok = false;
        }
    }
    return ok;
}

static bool pv_config_columns_map(pv_tui_config *c, yaml_document_t *doc, yaml_node_t *map,
                                  const char *file, pv_buf *err)
{
    if (map->type != YAML_MAPPING_NODE) {
        pv_yaml_error(err, file, map, "'columns' is a mapping of view: [column, ...]");
        return false;
    }
    bool ok = true;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *view = pv_yaml_scalar(k);
        if (!view || c->column_view_count == PV_CONFIG_MAX_VIEWS) {
            pv_yaml_error(err, file, k, "too many views or not a view id");
            ok = false;
            continue;
        }
        size_t i = c->column_view_count;
        if (!pv_config_words(doc, v, ',', c->columns[i].columns, sizeof c->columns[i].columns)) {
            pv_yaml_error(err, file, v, "columns of '%s': a list of column ids", view);
            ok = false;
            continue;
        }
        snprintf(c->columns[i].view, sizeof c->columns[i].view, "%s", view);
        c->column_view_count++;
    }
    return ok;
}

bool pv_config_parse(pv_tui_config *c, const char *yaml, size_t len, const char *file, pv_buf *err)
{
    yaml_document_t doc;
    if (!pv_yaml_load(&doc, yaml, len, file, err))
        return false;
    bool ok = true;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) { /* an empty file: nothing configured */
        yaml_document_delete(&doc);
        return true;
    }
    if (root->type != YAML_MAPPING_NODE) {
        pv_yaml_error(err, file, root, "the config is a mapping (theme, time_unit, keys, columns)");
        yaml_document_delete(&doc);
        return false;
    }
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(&doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&doc, p->value);
        const char *key = pv_yaml_scalar(k);
        const char *val = pv_yaml_scalar(v);
        if (!key) {
            pv_yaml_error(err, file, k, "a setting name must be a plain word");
            ok = false;
        } else if (strcmp(key, "theme") == 0 && val) {
            snprintf(c->theme, sizeof c->theme, "%s", val);
        } else if (strcmp(key, "time_unit") == 0 && val) {
            if (!pv_time_unit_parse(val, &c->time_unit)) {
                pv_yaml_error(err, file, v, "time_unit is auto, ns, us, ms or s, not '%s'", val);
                ok = false;
            }
        } else if (strcmp(key, "ascii") == 0 && val) {
            if (strcmp(val, "true") == 0 || strcmp(val, "yes") == 0)
                c->ascii = true;
            else if (strcmp(val, "false") == 0 || strcmp(val, "no") == 0)
                c->ascii = false;
            else {
                pv_yaml_error(err, file, v, "ascii is true or false, not '%s'", val);
                ok = false;
            }
        } else if (strcmp(key, "keys") == 0) {
            ok = pv_config_keys(c, &doc, v, file, err) && ok;
        } else if (strcmp(key, "columns") == 0) {
            ok = pv_config_columns_map(c, &doc, v, file, err) && ok;
        } else {
            pv_yaml_error(err, file, k,
                          "unknown setting '%s' (known: theme, time_unit, ascii, keys, columns)",
                          key);
            ok = false;
        }
    }
    yaml_document_delete(&doc);
    return ok;
}

bool pv_config_load(pv_tui_config *c, pv_buf *err)
{
    char path[4096];
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(path, sizeof path, "%s/profview/config.yaml", xdg);
    else if (home && *home)
        snprintf(path, sizeof path, "%s/.config/profview/config.yaml", home);
    else
        return true;
    size_t len;
    char *text = pv_yaml_read_file(path, &len);
    if (!text) {
        if (errno == ENOENT)
            return true;
        pv_buf_printf(err, "%s: %s", path, strerror(errno));
        return false;
    }
    bool ok = pv_config_parse(c, text, len, path, err);
    free(text);
    return ok;
}

const char *pv_config_columns(const pv_tui_config *c, const char *view_id)
{
    for (size_t i = 0; i < c->column_view_count; i++)
        if (strcmp(c->columns[i].view, view_id) == 0)
            return c->columns[i].columns;
    return NULL;
}
