/* config.c - config.yaml (docs/tui.md: theme, key bindings, default
 * columns, time unit).  The keys section is read through the action table
 * (actions.def), so every action is rebindable by its name. */
#include "tui/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/source.h"
#include "profview/tui.h"
#include "tui/yamlfile.h"

void pv_config_init(pv_tui_config *c)
{
    memset(c, 0, sizeof *c);
    c->time_unit = PV_UNIT_AUTO;
    pv_keymap_init_defaults(&c->keys);
}

static char *pv_strdup_or_null(const char *s)
{
    return s ? pv_xstrdup(s) : NULL;
}

void pv_config_copy(pv_tui_config *dst, const pv_tui_config *src)
{
    *dst = *src;
    dst->theme = pv_strdup_or_null(src->theme);
    dst->source_paths = pv_strdup_or_null(src->source_paths);
    for (size_t i = 0; i < src->column_view_count; i++) {
        dst->columns[i].view = pv_strdup_or_null(src->columns[i].view);
        dst->columns[i].columns = pv_strdup_or_null(src->columns[i].columns);
        dst->columns[i].where = pv_strdup_or_null(src->columns[i].where);
    }
}

void pv_config_free(pv_tui_config *c)
{
    free(c->theme);
    free(c->source_paths);
    for (size_t i = 0; i < c->column_view_count; i++) {
        free(c->columns[i].view);
        free(c->columns[i].columns);
        free(c->columns[i].where);
    }
    pv_config_init(c);
}

/* A scalar, or a sequence of scalars joined by `sep`, into out (replaced). */
static bool pv_config_words(yaml_document_t *doc, yaml_node_t *node, char sep, pv_buf *out)
{
    pv_buf_clear(out);
    if (pv_yaml_scalar(node)) {
        pv_buf_puts(out, pv_yaml_scalar(node));
        return true;
    }
    if (node->type != YAML_SEQUENCE_NODE)
        return false;
    for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top;
         it++) {
        const char *s = pv_yaml_scalar(yaml_document_get_node(doc, *it));
        if (!s)
            return false;
        if (it != node->data.sequence.items.start)
            pv_buf_putc(out, sep);
        pv_buf_puts(out, s);
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
    pv_buf keys;
    pv_buf_init(&keys);
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
        char bad[32];
        if (!pv_config_words(doc, v, ' ', &keys)) {
            pv_yaml_error(err, file, v, "action '%s': give key names, e.g. \"j Down\"", name);
            ok = false;
        } else if (!pv_keymap_bind(&c->keys, a, pv_buf_cstr(&keys), bad, sizeof bad)) {
            pv_yaml_error(err, file, v, "action '%s': unknown key '%s'", name, bad);
            ok = false;
        }
    }
    pv_buf_free(&keys);
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
    pv_buf words;
    pv_buf_init(&words);
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
        if (!pv_config_words(doc, v, ',', &words)) {
            pv_yaml_error(err, file, v, "columns of '%s': a list of column ids", view);
            ok = false;
            continue;
        }
        c->columns[i].columns = pv_xstrdup(pv_buf_cstr(&words));
        c->columns[i].view = pv_xstrdup(view);
        pv_buf where;
        pv_buf_init(&where);
        pv_buf_printf(&where, "%s:%zu:%zu", file, v->start_mark.line + 1, v->start_mark.column + 1);
        c->columns[i].where = pv_xstrdup(pv_buf_cstr(&where));
        pv_buf_free(&where);
        c->column_view_count++;
    }
    pv_buf_free(&words);
    return ok;
}

/* "2G", "512M", "1.5GiB", "1048576": bytes (K, M, G, T are powers of 1024). */
static bool pv_config_size(const char *s, uint64_t *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v >= 0))
        return false;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (mul > 1 && *end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || v * mul >= 18e18)
        return false;
    *out = (uint64_t)(v * mul);
    return true;
}

/* cache: {enabled: true|false, max_size: 2G} */
static bool pv_config_cache(pv_tui_config *c, yaml_document_t *doc, yaml_node_t *map,
                            const char *file, pv_buf *err)
{
    if (map->type != YAML_MAPPING_NODE) {
        pv_yaml_error(err, file, map, "'cache' is a mapping (enabled, max_size)");
        return false;
    }
    bool ok = true;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        const char *key = pv_yaml_scalar(k);
        const char *val = pv_yaml_scalar(v);
        if (key && strcmp(key, "enabled") == 0 && val &&
            (strcmp(val, "true") == 0 || strcmp(val, "false") == 0)) {
            c->cache_off = strcmp(val, "false") == 0;
        } else if (key && strcmp(key, "max_size") == 0 && val &&
                   pv_config_size(val, &c->cache_max_bytes) && c->cache_max_bytes > 0) {
        } else {
            pv_yaml_error(err, file, key ? v : k,
                          "cache: enabled is true or false, max_size a size (2G, 512M); "
                          "not '%s: %s'", key ? key : "?", val ? val : "...");
            ok = false;
        }
    }
    return ok;
}

/* true|yes / false|no into *out (left as it is otherwise, said in err). */
static bool pv_config_bool(bool *out, const char *key, const yaml_node_t *v, const char *file,
                           pv_buf *err)
{
    const char *val = pv_yaml_scalar(v);
    if (strcmp(val, "true") == 0 || strcmp(val, "yes") == 0)
        *out = true;
    else if (strcmp(val, "false") == 0 || strcmp(val, "no") == 0)
        *out = false;
    else {
        pv_yaml_error(err, file, v, "%s is true or false, not '%s'", key, val);
        return false;
    }
    return true;
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
            free(c->theme);
            c->theme = pv_xstrdup(val);
        } else if (strcmp(key, "time_unit") == 0 && val) {
            if (!pv_time_unit_parse(val, &c->time_unit)) {
                pv_yaml_error(err, file, v, "time_unit is auto, ns, us, ms or s, not '%s'", val);
                ok = false;
            }
        } else if (strcmp(key, "ascii") == 0 && val) {
            ok = pv_config_bool(&c->ascii, key, v, file, err) && ok;
        } else if (strcmp(key, "session") == 0 && val) {
            bool on = true;
            ok = pv_config_bool(&on, key, v, file, err) && ok;
            c->session_off = !on;
        } else if (strcmp(key, "keys") == 0) {
            ok = pv_config_keys(c, &doc, v, file, err) && ok;
        } else if (strcmp(key, "columns") == 0) {
            ok = pv_config_columns_map(c, &doc, v, file, err) && ok;
        } else if (strcmp(key, "cache") == 0) {
            ok = pv_config_cache(c, &doc, v, file, err) && ok;
        } else if (strcmp(key, "source_paths") == 0 || strcmp(key, "source-paths") == 0) {
            /* docs/source.md: a directory or a list of them */
            pv_buf dirs;
            pv_buf_init(&dirs);
            if (pv_config_words(&doc, v, '\n', &dirs)) {
                free(c->source_paths);
                c->source_paths = pv_xstrdup(pv_buf_cstr(&dirs));
            } else {
                pv_yaml_error(err, file, v, "source_paths is a directory or a list of directories");
                ok = false;
            }
            pv_buf_free(&dirs);
        } else {
            pv_yaml_error(err, file, k,
                          "unknown setting '%s' (known: theme, time_unit, ascii, session, keys, "
                          "columns, cache, source_paths)",
                          key);
            ok = false;
        }
    }
    yaml_document_delete(&doc);
    return ok;
}

bool pv_config_load(pv_tui_config *c, pv_buf *err)
{
    pv_buf path;
    pv_buf_init(&path);
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        pv_buf_printf(&path, "%s/profview/config.yaml", xdg);
    else if (home && *home)
        pv_buf_printf(&path, "%s/.config/profview/config.yaml", home);
    else
        return true;
    size_t len;
    char *text = pv_yaml_read_file(pv_buf_cstr(&path), &len);
    bool ok = true;
    if (!text) {
        if (errno != ENOENT) {
            pv_buf_printf(err, "%s: %s", pv_buf_cstr(&path), strerror(errno));
            ok = false;
        }
    } else {
        ok = pv_config_parse(c, text, len, pv_buf_cstr(&path), err);
        free(text);
    }
    pv_buf_free(&path);
    return ok;
}

const char *pv_config_columns_where(const pv_tui_config *c, const char *view_id)
{
    for (size_t i = 0; i < c->column_view_count; i++)
        if (strcmp(c->columns[i].view, view_id) == 0)
            return c->columns[i].where;
    return NULL;
}

const char *pv_config_columns(const pv_tui_config *c, const char *view_id)
{
    for (size_t i = 0; i < c->column_view_count; i++)
        if (strcmp(c->columns[i].view, view_id) == 0)
            return c->columns[i].columns;
    return NULL;
}

void pv_tui_config_cache(pv_load_options *o)
{
    pv_tui_config c;
    pv_config_init(&c);
    pv_buf err; /* the viewer shows the config's problems; commands go on */
    pv_buf_init(&err);
    pv_config_load(&c, &err);
    pv_buf_free(&err);
    if (c.cache_off)
        o->cache = false;
    if (c.cache_max_bytes)
        o->cache_max_bytes = c.cache_max_bytes;
    /* docs/source.md: after the command line's --source-path */
    for (const char *d = c.source_paths; d && *d;) {
        const char *nl = strchr(d, '\n');
        size_t len = nl ? (size_t)(nl - d) : strlen(d);
        char *dir = pv_xmalloc(len + 1);
        memcpy(dir, d, len);
        dir[len] = '\0';
        pv_source_path_add(dir);
        free(dir);
        d = nl ? nl + 1 : d + len;
    }
    pv_config_free(&c);
}
